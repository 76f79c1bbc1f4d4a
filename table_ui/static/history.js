/* History: past games from /api/games, a game's score sheet and its downloads. */
"use strict";
(async () => {
  const lang = new URLSearchParams(location.search).get("lang") || "";
  const q = lang ? "?lang=" + encodeURIComponent(lang) : "";
  const T = await (await fetch("/api/i18n" + (lang ? "/" + encodeURIComponent(lang) : ""))).json();
  document.documentElement.lang = T.lang;
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  $("h").textContent = T.history; $("back").textContent = T.back; $("back").href = "/" + q;
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
    `<td><a href="/api/games/${g.id}/record">${esc(T.record)}</a> · <a href="/api/games/${g.id}.csv">csv</a> · <a href="/api/games/${g.id}.json">json</a></td></tr>`).join("");
  body.addEventListener("click", async (e) => {
    const id = e.target.dataset && e.target.dataset.open;
    if (!id) return;
    e.preventDefault();
    const g = await (await fetch("/api/games/" + id)).json();
    const s = g.sheet;
    // the players' names where a side is one seat (two-player games); pair games keep their sides
    if ((g.names || []).length === s.sides.length) s.sides = g.names.slice();
    $("detail").classList.remove("hidden");
    $("detail-title").textContent = `${T.sheet}: #${g.id} ${title(g)}`;
    $("sheet").innerHTML = `<tr><th>${esc(T.deal_col)}</th>` + s.sides.map((x) => `<th>${esc(x)}</th>`).join("") + "</tr>" +
      s.deals.map((d) => `<tr><td>${d.number}</td>` + d.points.map((p) => `<td>${p}</td>`).join("") +
        `<td><a href="/api/games/${g.id}/deals/${d.number}/events">${esc(T.events)}</a>` +
        ((g.clips || []).includes(d.number) ? ` · <a href="/api/games/${g.id}/deals/${d.number}/clip">${esc(T.footage)}</a>` : "") +
        "</td></tr>").join("") +
      `<tr><th>${esc(T.total)}</th>` + s.totals.map((t) => `<th>${t}</th>`).join("") + "</tr>";
    $("notes").textContent = s.deals.map((d) => `${d.number}: ` + d.items.map((i) => `${s.sides[i.side]} ${i.what} ${i.points > 0 ? "+" : ""}${i.points}`)
      .concat((d.illegal || []).map((f) => `${T.illegal}: ` + Cards.alertText(T, { rule: f.rule, message: f.message, params: { card: f.card } },
        s.sides[f.seat] || T.seat.replace("{n}", f.seat + 1), T.ranks) + ` (${T.trick} ${f.trick}) — ${outcome(f.outcome)}`))
      .concat(d.notes).join("; ")).join("\n") + (s.result ? "\n" + s.result : "");
  });
})();
