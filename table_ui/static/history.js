/* History: past games from /api/games, a game's score sheet and its downloads. */
"use strict";
(async () => {
  const lang = new URLSearchParams(location.search).get("lang") || "";
  const q = lang ? "?lang=" + encodeURIComponent(lang) : "";
  const T = await (await fetch("/api/i18n" + (lang ? "/" + encodeURIComponent(lang) : ""))).json();
  document.documentElement.lang = T.lang;
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  $("h").textContent = document.title = T.history; $("back").textContent = T.back; $("back").href = "/" + q;
  // a game's name in the page's language; a foul worded from its rule id (Cards.alertText)
  const title = (g) => (T.games || {})[g.game] || g.title;
  const outcome = (o) => (T.outcomes || {})[o] || o;
  const games = await (await fetch("/api/games")).json();
  $("games").querySelector("thead").innerHTML = "<tr>" + ["col_id", "col_game", "col_date", "col_players", "col_status", "col_totals", "col_files"]
    .map((k) => `<th>${esc(T[k])}</th>`).join("") + "</tr>";
  const body = $("games").querySelector("tbody");
  if (!games.length) body.innerHTML = `<tr><td colspan="7">${esc(T.no_games)}</td></tr>`;
  body.innerHTML += games.map((g) => `<tr data-game="${g.id}"><td><a href="#" data-open="${g.id}">${g.id}</a></td>` +
    `<td>${esc(title(g))}</td><td>${esc((g.started || "").replace("T", " ").slice(0, 16))}</td>` +
    `<td>${esc((g.names || []).join(", "))}</td><td>${esc(T["status_" + g.status] || g.status)}</td>` +
    `<td class="totals">${esc((g.totals || []).join(" : "))}</td>` +
    `<td><a href="/api/games/${g.id}/record">${esc(T.record)}</a> · <a href="/api/games/${g.id}.csv">${esc(T.csv)}</a> · <a href="/api/games/${g.id}.json">${esc(T.json)}</a></td></tr>`).join("");
  body.addEventListener("click", async (e) => {
    const id = e.target.dataset && e.target.dataset.open;
    if (!id) return;
    e.preventDefault();
    const g = await (await fetch("/api/games/" + id)).json();
    const s = g.sheet;
    // sides by the players' names: one seat each (two-player games, Joker), or a pair's two
    // (Bazar-Belot: seats 0 & 2, 1 & 3); seats without names are «место N»
    const names = g.names || [];
    const seatName = (n) => Cards.seatName(T, names, n);
    if (names.length) s.sides = Cards.sideNames(T, names, s.sides, names.length, " + ");
    const ctx = { seat: seatName, side: (n) => s.sides[n] || String(n), ranks: T.ranks };
    const line = (l) => Cards.sheetLine(T, l, ctx);
    $("detail").classList.remove("hidden");
    $("detail-title").textContent = `${T.sheet}: #${g.id} ${title(g)}`;
    $("sheet").innerHTML = `<tr><th>${esc(T.deal_col)}</th>` + s.sides.map((x) => `<th>${esc(x)}</th>`).join("") + "</tr>" +
      s.deals.map((d) => `<tr><td>${d.number}</td>` + d.points.map((p) => `<td>${p}</td>`).join("") +
        `<td><a href="/api/games/${g.id}/deals/${d.number}/events">${esc(T.events)}</a>` +
        ((g.clips || []).includes(d.number) ? ` · <a href="/api/games/${g.id}/deals/${d.number}/clip">${esc(T.footage)}</a>` : "") +
        "</td></tr>").join("") +
      `<tr><th>${esc(T.total)}</th>` + s.totals.map((t) => `<th>${t}</th>`).join("") + "</tr>";
    // each line worded from its key and parameters (engine.scoresheet.Line, table_ui/sheet_texts.py)
    $("notes").textContent = s.deals.map((d) => `${T.deal_col} ${d.number}:` + d.items.map((i) => `${s.sides[i.side]}: ${line(i.line)} ${i.points > 0 ? "+" : ""}${i.points}`)
      .concat((d.illegal || []).map((f) => `${T.illegal}: ` + Cards.alertText(T, { rule: f.rule, message: f.message, params: { card: f.card } },
        seatName(f.seat), T.ranks) + ` (${T.trick} ${f.trick}) — ${outcome(f.outcome)}`))
      .concat((d.note_lines || []).map(line)).map((x) => "\n  " + x).join("")).join("\n") + (s.result ? "\n" + line(s.result_line) : "");
  });
})();
