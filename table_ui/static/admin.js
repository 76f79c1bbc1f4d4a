/* Admin: PIN login, then JSON POSTs (with the session's CSRF token) to /api/admin/*. */
"use strict";
(async () => {
  const lang = new URLSearchParams(location.search).get("lang") || "";
  const T = await (await fetch("/api/i18n" + (lang ? "/" + encodeURIComponent(lang) : ""))).json();
  document.documentElement.lang = T.lang;
  const $ = (id) => document.getElementById(id);
  const esc = Cards.esc;
  let csrf = null, games = [], timer = null;
  const text = { h: "admin", "pin-label": "pin", login: "login", "now-h": "current", "pending-h": "pending",
    confirm: "confirm", skip: "skip", undo: "undo", end: "end_game", "event-label": "raw_event", send: "send",
    "new-h": "new_game", "game-label": "game", "players-label": "players", start: "start", "status-h": "status",
    logout: "logout", hist: "history", "dealer-card": "dealer_card", "check-h": "check_h", "check-help": "check_help",
    "check-cards-label": "check_cards", "check-seconds-label": "check_seconds", "check-start": "check_start" };
  for (const [id, key] of Object.entries(text)) $(id).textContent = T[key];
  $("event").placeholder = T.raw_event_hint; $("card").placeholder = T.card_code;
  $("check-cards").placeholder = T.check_cards_hint;

  async function api(path, body) {
    const opts = body === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf || "" }, body: JSON.stringify(body) };
    const r = await fetch("/api/admin/" + path, opts);
    let data = null; try { data = await r.json(); } catch (_) { data = {}; }
    return { status: r.status, data };
  }
  function say(ok, m) { const el = $("msg"); el.className = "msg " + (ok ? "ok" : "err"); el.textContent = m; }
  function detail(d) {
    if (!d) return T.error;
    if (typeof d.detail === "string") return d.detail;
    if (Array.isArray(d.detail)) return d.detail.map((e) => (e.loc || []).join(".") + ": " + e.msg).join("; ");
    return T.error;
  }
  let names = [];  // the players' names, from the last state
  const worded = (a) => Cards.alertText(T, a, a.seat !== null && a.seat !== undefined ? names[a.seat] || T.seat.replace("{n}", a.seat + 1) : "", T.ranks);
  async function act(path, body) {
    const r = await api(path, body);
    if (r.status === 401) { showLogin(); return r; }
    if (r.status >= 400) say(false, `${T.error} ${r.status}: ${detail(r.data)}`);
    else say(true, T.done + ((r.data.alerts || []).length ? ": " + r.data.alerts.map(worded).join("; ") : ""));
    await refresh();
    return r;
  }

  function showLogin() { $("login-box").classList.remove("hidden"); $("panel").classList.add("hidden"); if (timer) clearInterval(timer); timer = null; }
  async function showPanel() {
    $("login-box").classList.add("hidden"); $("panel").classList.remove("hidden");
    const g = await api("games"); games = g.data || []; fillGames();
    await refresh();
    if (!timer) timer = setInterval(refresh, 2000);
  }

  $("login").onclick = async () => {
    const r = await api("login", { pin: $("pin").value });
    $("pin").value = "";
    if (r.status === 200) { csrf = r.data.csrf; $("login-msg").textContent = ""; showPanel(); }
    else $("login-msg").textContent = r.status === 429 ? T.too_many : r.status === 401 ? T.bad_pin : detail(r.data);
  };
  $("pin").addEventListener("keydown", (e) => { if (e.key === "Enter") $("login").click(); });
  // the button stays disabled until it does something: a click before the script is wired is not lost silently
  $("login").disabled = false; document.body.dataset.ready = "1";

  async function refresh() {
    const r = await api("state");
    if (r.status === 401) { showLogin(); return; }
    const st = r.data, v = st.view;
    names = st.names || [];
    document.body.dataset.seq = String(st.seq);
    $("now").textContent = v ? `${(T.games || {})[v.game] || v.title} · ${T["status_" + st.status] || st.status}` : "—";
    $("dealer-card").hidden = !v;  // the printable deal order and buttons of the game
    if (v) $("dealer-card").href = `/dealer-card/${encodeURIComponent(v.game)}` + (lang ? `?lang=${encodeURIComponent(lang)}` : "");
    const phase = (T.phases || {})[v ? v.phase : ""] || "";
    $("now-more").innerHTML = v ? esc([T.log_seq.replace("{n}", st.seq), phase].filter(Boolean).join(" · ") +
      (v.to_act !== null ? ` · ${T.to_act}: ${(st.names || [])[v.to_act] || T.seat.replace("{n}", v.to_act + 1)}` : "")) : "";
    const p = st.pending;
    $("pending-box").dataset.pending = p ? "1" : "0";
    $("pending-reason").textContent = p ? `${p.source}${p.seat !== null ? " · " + (st.names[p.seat] || p.seat) : ""}: ${p.reason}` : T.pending_none;
    $("cands").innerHTML = p ? `<div class="help">${esc(T.candidates)}</div>` + (p.candidates || []).map((c) =>
      `<button class="cand${Cards.RED[c[1]] ? " red" : ""}" data-card="${esc(c)}">${esc(Cards.label(c, T.ranks))}</button>`).join("") : "";
    const t = st.table || {};
    // the simulated table replays recordings: a game started here would not be played
    $("start").disabled = !!t.replaying;
    $("new-note").textContent = t.replaying ? T.demo_no_new_game : "";
    $("status").innerHTML = [[T.log, t.log_error ? "⚠ " + t.log_error : T.log_ok + " — " + t.log_path],
      [T.clients, t.displays], [T.devices_h, devicesText(t.devices || {})]]
      // a path may break after any "/" (never inside a word)
      .map(([k, x]) => `<div>${esc(k)}</div><div>${esc(x).replace(/\//g, "/<wbr>")}</div>`).join("");
    await refreshCheck();
  }
  // each device in words: «камера шуза: работает», «пульт panel-a: отключён»
  function devicesText(devices) {
    const lines = Object.entries(devices).map(([name, d]) =>
      `${Cards.deviceWords(T, name)}${d.name ? " «" + d.name + "»" : ""}: ${(T.device_states || {})[d.state] || d.state || ""}`);
    return lines.length ? lines.join("; ") : T.no_devices;
  }
  // the table check: its state comes with every refresh while the panel is open
  const fill = (s, kv) => s.replace(/\{(\w+)\}/g, (_, k) => (k in kv ? kv[k] : ""));
  const said = (m) => (m ? m[T.lang] || m.ru : "");
  async function refreshCheck() {
    const r = await api("table_check");
    if (r.status !== 200) return;
    const c = r.data, box = $("check-status");
    box.dataset.state = c.state;
    $("check-start").disabled = c.state === "unavailable" || c.state === "running";
    const lines = [];
    if (c.state === "unavailable") lines.push(said(c.message));
    else if (c.state === "idle") lines.push(T.check_idle);
    else if (c.state === "running") lines.push(fill(T.check_running, { s: Math.ceil(c.left_s || 0) }));
    else {
      lines.push(c.state === "passed" ? T.check_passed : c.state === "failed" ? T.check_failed : T.check_error);
      const f = c.figures;
      if (f) lines.push(fill(T.check_figures, { area: f.area_cm, w: f.card_mm[0], h: f.card_mm[1], px: f.card_px, read: f.read, laid: f.laid }));
      for (const s of c.seats || []) lines.push(fill(T.check_seat, { seat: T.seat.replace("{n}", s.seat + 1),
        exp: Cards.label(s.expected, T.ranks), read: s.read.map((x) => (x.length === 2 && Cards.SUITS[x[1]] ? Cards.label(x, T.ranks) : x)).join(", ") || "—" }));
      for (const p of c.problems || []) lines.push("• " + said(p));
      if (c.message) lines.push(said(c.message));
      if (c.dropped) lines.push(fill(T.check_dropped, { n: c.dropped }));
    }
    // the verdict stands out; the figures and reasons under it are plain text
    const cls = "msg" + (c.state === "passed" ? " ok" : c.state === "failed" || c.state === "error" ? " err" : "");
    box.innerHTML = lines.map((x, i) => `<div${i === 0 ? ` class="${cls}"` : ""}>${esc(x)}</div>`).join("");
  }
  $("check-start").onclick = async () => {
    const cards = $("check-cards").value.split(/[\s,;]+/).filter(Boolean).map((x) => x.toUpperCase());
    const seconds = parseInt($("check-seconds").value, 10) || 20;
    const r = await api("table_check" + (lang ? "?lang=" + encodeURIComponent(lang) : ""), { cards, seconds });
    if (r.status === 401) { showLogin(); return; }
    if (r.status >= 400) say(false, `${T.error} ${r.status}: ${detail(r.data)}`);
    else say(true, T.done);
    await refreshCheck();
  };

  $("cands").addEventListener("click", (e) => { const c = e.target.closest("button"); if (c) act("confirm", { card: c.dataset.card }); });
  $("confirm").onclick = () => act("confirm", { card: $("card").value.trim().toUpperCase() });
  $("skip").onclick = () => act("skip", {});
  $("undo").onclick = () => act("undo", {});
  $("end").onclick = () => { if (confirm(T.end_game_sure)) act("end_game", {}); };
  $("send").onclick = () => act("event", { event: $("event").value });
  $("logout").onclick = async () => { await api("logout", {}); csrf = null; showLogin(); };

  function fillGames() {
    $("game").innerHTML = games.map((g) => `<option value="${esc(g.name)}">${esc((T.games || {})[g.name] || g.title)}</option>`).join("");
    fillFields();
  }
  function fillFields() {
    const g = games.find((x) => x.name === $("game").value);
    if (!g) return;
    // the organiser reads the catalogue's words; the engine's key, value and English description
    // are the fallback (help: "game:key" where games differ, then "key")
    const labels = T.settings || {}, helps = T.setting_help || {}, valueWords = T.setting_values || {};
    $("fields").innerHTML = g.fields.map((f) => {
      const id = "opt-" + f.name, dflt = f.default === null ? "" : String(f.default);
      const label = labels[f.name] || f.name, help = helps[g.name + ":" + f.name] || helps[f.name] || f.help;
      const words = valueWords[f.name] || {};
      let input;
      if (f.kind === "seat") {
        // a seat by its player's name (typed below, else «место N»); unset where the game allows
        const unset = f.optional ? `<option value=""${dflt === "" ? " selected" : ""}>${esc((T.seat_unset || {})[g.name + ":" + f.name] || T.default)}</option>` : "";
        input = `<select id="${id}" data-opt="${esc(f.name)}" data-kind="seat">${unset}` + Array.from({ length: g.num_seats }, (_, i) =>
          `<option value="${i}" data-seat="${i}"${String(i) === dflt ? " selected" : ""}>${esc(T.seat.replace("{n}", i + 1))}</option>`).join("") + "</select>";
      } else if (f.kind === "choice") input = `<select id="${id}" data-opt="${esc(f.name)}" data-kind="choice">` + f.choices.map((c) => `<option value="${esc(c)}"${c === dflt ? " selected" : ""}>${esc(words[c] || c)}</option>`).join("") + "</select>";
      else if (f.kind === "bool") input = `<input type="checkbox" id="${id}" data-opt="${esc(f.name)}" data-kind="bool"${f.default ? " checked" : ""}>`;
      else input = `<input id="${id}" data-opt="${esc(f.name)}" data-kind="${f.kind}" ${f.kind === "int" ? 'inputmode="numeric"' : ""} value="${esc(dflt)}" placeholder="${esc(T.default)}">`;
      return `<label for="${id}">${esc(label)}</label>${input}<div class="help">${esc(help)}</div>`;
    }).join("");
    $("names").innerHTML = Array.from({ length: g.num_seats }, (_, i) => `<input class="pname" maxlength="40" placeholder="${esc(T.seat.replace("{n}", i + 1))}">`).join("");
  }
  // a seat setting's choices follow the names as they are typed
  $("names").addEventListener("input", () => {
    const typed = [...document.querySelectorAll(".pname")].map((x) => x.value.trim());
    for (const o of $("fields").querySelectorAll("option[data-seat]")) {
      const i = Number(o.dataset.seat);
      o.textContent = typed[i] || T.seat.replace("{n}", i + 1);
    }
  });
  $("game").onchange = fillFields;
  $("start").onclick = () => {
    const options = {};
    for (const el of $("fields").querySelectorAll("[data-opt]")) {
      const k = el.dataset.opt, kind = el.dataset.kind;
      if (kind === "bool") options[k] = el.checked;
      else if (el.value === "") continue;
      else options[k] = (kind === "int" || kind === "seat") && /^-?\d+$/.test(el.value) ? parseInt(el.value, 10) : el.value;
    }
    const names = [...document.querySelectorAll(".pname")].map((x, i) => x.value.trim() || String(i + 1));
    act("new_game" + (lang ? "?lang=" + encodeURIComponent(lang) : ""), { game: $("game").value, options, names });
  };

  const s = await api("session");
  if (s.status === 200) { csrf = s.data.csrf; showPanel(); } else showLogin();
})();
