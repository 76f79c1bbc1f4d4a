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
    logout: "logout", hist: "history" };
  for (const [id, key] of Object.entries(text)) $(id).textContent = T[key];
  $("event").placeholder = T.raw_event_hint; $("card").placeholder = T.card_code;

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
  async function act(path, body) {
    const r = await api(path, body);
    if (r.status === 401) { showLogin(); return r; }
    if (r.status >= 400) say(false, `${T.error} ${r.status}: ${detail(r.data)}`);
    else say(true, T.done + ((r.data.alerts || []).length ? ": " + r.data.alerts.map((a) => a.message).join("; ") : ""));
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
    document.body.dataset.seq = String(st.seq);
    $("now").textContent = v ? `${v.title} · ${T["status_" + st.status] || st.status}` : "—";
    $("now-more").innerHTML = v ? esc(`seq ${st.seq} · ${v.phase}` + (v.to_act !== null ? ` · ${T.to_act}: ${(st.names || [])[v.to_act] || v.to_act}` : "")) : "";
    const p = st.pending;
    $("pending-box").dataset.pending = p ? "1" : "0";
    $("pending-reason").textContent = p ? `${p.source}${p.seat !== null ? " · " + (st.names[p.seat] || p.seat) : ""}: ${p.reason}` : T.pending_none;
    $("cands").innerHTML = p ? `<div class="help">${esc(T.candidates)}</div>` + (p.candidates || []).map((c) =>
      `<button class="cand${Cards.RED[c[1]] ? " red" : ""}" data-card="${esc(c)}">${esc(Cards.label(c, T.ranks))}</button>`).join("") : "";
    const t = st.table || {};
    $("status").innerHTML = [[T.log, t.log_error ? "⚠ " + t.log_error : T.log_ok + " — " + t.log_path],
      [T.clients, t.displays], [T.devices, JSON.stringify(t.devices || {})]]
      .map(([k, x]) => `<div>${esc(k)}</div><div>${esc(x)}</div>`).join("");
  }
  $("cands").addEventListener("click", (e) => { const c = e.target.closest("button"); if (c) act("confirm", { card: c.dataset.card }); });
  $("confirm").onclick = () => act("confirm", { card: $("card").value.trim().toUpperCase() });
  $("skip").onclick = () => act("skip", {});
  $("undo").onclick = () => act("undo", {});
  $("end").onclick = () => { if (confirm(T.end_game_sure)) act("end_game", {}); };
  $("send").onclick = () => act("event", { event: $("event").value });
  $("logout").onclick = async () => { await api("logout", {}); csrf = null; showLogin(); };

  function fillGames() {
    $("game").innerHTML = games.map((g) => `<option value="${esc(g.name)}">${esc(g.title)}</option>`).join("");
    fillFields();
  }
  function fillFields() {
    const g = games.find((x) => x.name === $("game").value);
    if (!g) return;
    $("fields").innerHTML = g.fields.map((f) => {
      const id = "opt-" + f.name, dflt = f.default === null ? "" : String(f.default);
      let input;
      if (f.kind === "choice") input = `<select id="${id}" data-opt="${esc(f.name)}" data-kind="choice">` + f.choices.map((c) => `<option${c === dflt ? " selected" : ""}>${esc(c)}</option>`).join("") + "</select>";
      else if (f.kind === "bool") input = `<input type="checkbox" id="${id}" data-opt="${esc(f.name)}" data-kind="bool"${f.default ? " checked" : ""}>`;
      else input = `<input id="${id}" data-opt="${esc(f.name)}" data-kind="${f.kind}" ${f.kind === "int" ? 'inputmode="numeric"' : ""} value="${esc(dflt)}" placeholder="${esc(T.default)}">`;
      return `<label for="${id}">${esc(f.name)}</label>${input}<div class="help">${esc(f.help)}</div>`;
    }).join("");
    $("names").innerHTML = Array.from({ length: g.num_seats }, (_, i) => `<input class="pname" maxlength="40" placeholder="${esc(T.seat.replace("{n}", i + 1))}">`).join("");
  }
  $("game").onchange = fillFields;
  $("start").onclick = () => {
    const options = {};
    for (const el of $("fields").querySelectorAll("[data-opt]")) {
      const k = el.dataset.opt, kind = el.dataset.kind;
      if (kind === "bool") options[k] = el.checked;
      else if (el.value === "") continue;
      else options[k] = kind === "int" && /^-?\d+$/.test(el.value) ? parseInt(el.value, 10) : el.value;
    }
    const names = [...document.querySelectorAll(".pname")].map((x, i) => x.value.trim() || String(i + 1));
    act("new_game", { game: $("game").value, options, names });
  };

  const s = await api("session");
  if (s.status === 200) { csrf = s.data.csrf; showPanel(); } else showLogin();
})();
