/* The table display: renders the public state pushed over /ws; reconnects with backoff. */
"use strict";
(() => {
  const params = new URLSearchParams(location.search);
  const lang = params.get("lang") || "";
  const intl = params.get("cards") === "intl";
  const speakParam = params.get("speak") === "1";
  const ALERT_SECONDS = 30; // an alert stays up this long (the log keeps it for good)
  let T = null, offset = 0, lastSeq = -1, delay = 500, socket = null, lastState = null;
  const $ = (id) => document.getElementById(id);
  const esc = Cards.esc;
  const fmt = (s, vars) => String(s).replace(/\{(\w+)\}/g, (_, k) => (vars && k in vars ? vars[k] : ""));
  const POS2 = ["bottom", "top"], POS4 = ["bottom", "left", "top", "right"];
  const COLORS = ["#ffd166", "#66d9ff", "#ff7aa2", "#9cff8f"];

  function ranks() { return intl ? null : T.ranks; }
  function card(code, cls) { return Cards.svg(code, { ranks: ranks(), cls, joker: T.joker }); }
  function seatName(st, i) { return Cards.seatName(T, st.names, i); }
  function withNames(st, text) {
    return String(text).replace(/seat (\d)/g, (m, d) => (st.names && st.names[+d] ? st.names[+d] : m));
  }
  function alertText(st, a) {
    const who = a.seat !== null && a.seat !== undefined ? seatName(st, a.seat) : "";
    return (T.rules || {})[a.rule] ? Cards.alertText(T, a, who, ranks()) : withNames(st, a.message);
  }
  function sideNames(st, v) { return Cards.sideNames(T, st.names, v.sides || [], v.num_seats, " + "); }
  function settingText(k, v, st) {
    const name = (T.settings && T.settings[k]) || k;
    if ((T.seat_settings || []).includes(k) && v !== null && v !== undefined) return name + ": " + seatName(st, Number(v));
    // a choice's own words first (T.setting_values), then the shared ones (yes/no …)
    const val = ((T.setting_values || {})[k] || {})[String(v)] || (T.values && T.values[String(v)]) || String(v);
    return name + ": " + val;
  }

  function renderHeader(st, v) {
    $("title").textContent = v ? ((T.games && T.games[v.game]) || v.title) : T.no_game;
    const changed = v ? Object.entries(v.changed_settings || {}) : [];
    $("rules").innerHTML = !v ? "" : changed.length
      ? changed.map(([k, x]) => `<span class="chip">${esc(settingText(k, x, st))}</span>`).join("")
      : `<span class="chip dim">${esc(T.rules_default)}</span>` +
        (v.settings && v.settings.game_type ? `<span class="chip dim">${esc(settingText("game_type", v.settings.game_type))}</span>` : "");
    // the dealer's ● beside a name, explained: «раздача 3 · ● сдаёт Аня»
    const dealer = v && v.dealer !== null && v.dealer !== undefined ? fmt(T.dealer_legend, { name: seatName(st, v.dealer) }) : "";
    $("deal").textContent = [v && v.deal ? fmt(T.deal, { n: v.deal }) : "", dealer].filter(Boolean).join(" · ");
  }

  function renderSeats(st, v) {
    const pos = v && v.num_seats === 4 ? POS4 : POS2;
    for (const p of POS4) { const el = $("seat-" + p); el.className = "seat empty"; el.innerHTML = ""; }
    if (!v) return;
    pos.forEach((p, i) => {
      const el = $("seat-" + p);
      const n = (v.hand_sizes || [])[i];
      const turn = v.to_act === i && !v.over;
      const cursor = st.cursor && st.cursor.seat === i ? `<div class="cursor">${esc(st.cursor.label || st.cursor.showing)}</div>` : "";
      let backs = "";
      if (typeof n === "number") {
        const shown = Math.min(n, 12);
        for (let k = 0; k < shown; k++) backs += Cards.back();
        backs = `<div class="backs">${backs}</div><div class="count">${n}</div>`;
      }
      el.className = "seat" + (turn ? " turn" : "") + (v.dealer === i ? " dealer" : "");
      el.dataset.seat = String(i);
      // the dealer's mark stands beside the name: a long name shortened with "…" never hides it
      el.innerHTML = `<div class="who">${v.dealer === i ? '<span class="dealer-mark">●</span>' : ""}<div class="name">${esc(seatName(st, i))}</div></div>` +
        `<div class="hand">${backs}</div>` + (turn ? `<div class="turn-label">▶ ${esc(T.turn)}</div>` : "") + cursor;
    });
  }

  function renderTrick(st, v) {
    const box = $("trick");
    if (!v) { box.className = ""; box.innerHTML = ""; $("centre-note").innerHTML = `<div class="big">${esc(T.no_game)}</div><div>${esc(T.no_game_hint)}</div>`; return; }
    const trick = v.trick || [];
    if (v.game === "durak2") {
      box.className = "durak";
      box.innerHTML = trick.map((t) => `<div class="pair">${card(t.card, "attack")}${t.covered_by ? card(t.covered_by, "cover") : ""}</div>`).join("");
    } else {
      box.className = "tricks n" + v.num_seats;
      const pos = v.num_seats === 4 ? POS4 : POS2;
      const seen = new Set();
      box.innerHTML = trick.map((t, i) => {
        let seat = t.seat;
        if (seen.has(seat)) seat = (trick[0].seat + i) % v.num_seats; // a view giving one seat for all
        seen.add(seat);
        const mode = t.mode ? `<div class="mode">${esc(t.mode)}</div>` : "";
        return `<div class="played at-${pos[seat] || "bottom"}" data-seat="${seat}">${card(t.card)}${mode}</div>`;
      }).join("");
    }
    const note = v.expects_shoe && !v.over ? `<div class="dealing">${esc(dealPrompt(st, v))}</div>` : "";
    $("centre-note").innerHTML = note;
  }

  // «1 карта», «3 карты», «5 карт»: the catalogue's three forms, chosen the Russian way
  function cardCount(n) {
    const f = T.card_forms, m10 = n % 10, m100 = n % 100;
    const i = m10 === 1 && m100 !== 11 ? 0 : m10 >= 2 && m10 <= 4 && (m100 < 12 || m100 > 14) ? 1 : 2;
    return `${n} ${f[i]}`;
  }

  // The dealer's prompt: who deals, and where the next cards go, in the engine's order.
  function dealPrompt(st, v) {
    const due = v.shoe_due;
    if (!due) return T.dealing;
    const to = due.seat === null || due.seat === undefined ? null : seatName(st, due.seat);
    if (due.face_up === "ace-draw") return to === null ? T.ace_draw_centre : fmt(T.ace_draw, { name: to });
    if (due.draw) return fmt(T.draws, { name: to, cards: cardCount(due.count) });
    const what = due.face_up === "trump" ? T.face_trump : due.face_up === "open" ? T.face_open
      : fmt(due.seat === due.dealer ? T.deal_self : T.deal_to, { name: to, cards: cardCount(due.count) });
    return due.dealer === null || due.dealer === undefined ? what : `${fmt(T.deals, { name: seatName(st, due.dealer) })}: ${what}`;
  }

  // A declaration in words, its cards in the display's card style («Аня: терц 8♥ 9♥ 10♥»).
  function declText(st, v, d) {
    const who = d.seat !== null && d.seat !== undefined ? seatName(st, d.seat)
      : d.side !== null && d.side !== undefined ? sideNames(st, v)[d.side] || "" : "";
    const cards = (d.cards || []).map((c) => Cards.label(c, ranks())).join(" ");
    const what = d.kind === "bella" ? T.decl_bella
      : d.kind === "points" ? fmt(T.decl_points, { n: d.value })
      : d.kind === "asking" ? fmt(T.decl_asking, { name: d.name, n: d.value })
      : [d.name || (d.kind === "combination" ? (T.decl_runs || {})[d.cards.length] || fmt(T.decl_run_n, { n: d.cards.length }) : ""), cards].filter(Boolean).join(" ");
    return who ? `${who}: ${what}` : what;
  }

  function renderTrump(st, v) {
    const el = $("trump");
    const t = v ? v.trump : null;
    el.dataset.suit = t || "";
    el.className = t && Cards.RED[t] ? "red" : "";
    if (t && Cards.SUITS[t]) {
      el.textContent = Cards.SUITS[t];
      $("trump-label").textContent = T.trump + " — " + T.suits[t];
    } else if (t === "none") {
      el.textContent = "∅"; $("trump-label").textContent = T.no_trump;
    } else if (t === "all") {
      el.textContent = "✱"; $("trump-label").textContent = T.all_trump;
    } else {
      el.textContent = "?"; $("trump-label").textContent = v ? T.trump_unknown : "";
    }
    $("trump-card").innerHTML = v && v.trump_card ? card(v.trump_card, "small") : "";
    $("contract").innerHTML = v && v.contract ? `<span class="lbl">${esc(T.contract)}:</span> ${esc(withNames(st, v.contract))}` : "";
    const decl = v ? v.declarations || [] : [];
    $("declarations").innerHTML = decl.length ? `<div class="lbl">${esc(T.declarations)}</div>` +
      decl.slice(-4).map((d) => `<div class="decl">${esc(declText(st, v, d))}</div>`).join("") : "";
  }

  // Why the last deal scored as it did («байд», «неправильный бой», «хишт» …), from its items.
  function dealWhy(v, last) {
    if (!last) return "";
    const words = T.score_reasons || {};
    const why = (last.rules || []).map((r) => words[`${v.game}:${r}`] || words[r]).filter(Boolean);
    return why.length ? fmt(T.deal_why, { n: last.number, why: why.join("; ") }) : "";
  }

  function renderScore(st, v) {
    if (!v || !(v.sides || []).length) { $("score").innerHTML = ""; $("chart").innerHTML = ""; $("deal-why").textContent = ""; $("deal-fouls").innerHTML = ""; return; }
    const names = sideNames(st, v);
    const deals = v.deals || [];
    const rows = deals.slice(-6).map((d) => `<tr><td class="num">${d.number}</td>` +
      d.points.map((p) => `<td>${p}</td>`).join("") + "</tr>").join("");
    $("score").innerHTML = `<table class="n${names.length}"><thead><tr><th>${esc(T.deal_col)}</th>` +
      names.map((n, i) => `<th class="s${i % 4}">${esc(n)}</th>`).join("") + `</tr></thead><tbody>${rows}</tbody>` +
      `<tfoot><tr><th>${esc(T.total)}</th>` + (v.totals || []).map((t, i) => `<td class="total" id="total-${i}">${t}</td>`).join("") +
      "</tr></tfoot></table>";
    $("chart").innerHTML = chart(names, deals, v.totals || []);
    $("deal-why").textContent = dealWhy(v, deals[deals.length - 1]);
    $("deal-fouls").innerHTML = (v.fouls || []).length ? `<div class="lbl">${esc(T.deal_fouls)}</div>` +
      v.fouls.slice(-3).map((f) => `<div class="foul">${esc(alertText(st, { rule: f.rule, seat: f.seat, message: f.message, params: f.card ? { card: f.card } : {} }))}</div>`).join("") : "";
  }

  function chart(names, deals, totals) {
    const W = 540, H = 230, L = 56, R = 16, TOP = 34, B = 26;
    const sides = names.length;
    const series = names.map(() => [0]);
    for (const d of deals) d.points.forEach((p, i) => { if (series[i]) series[i].push(series[i][series[i].length - 1] + p); });
    const all = series.flat().concat(totals);
    let lo = Math.min(0, ...all), hi = Math.max(1, ...all);
    if (hi === lo) hi = lo + 1;
    const n = Math.max(1, deals.length);
    const x = (k) => L + (W - L - R) * k / n;
    const y = (val) => TOP + (H - TOP - B) * (1 - (val - lo) / (hi - lo));
    let out = `<svg viewBox="0 0 ${W} ${H}" class="chart" role="img" aria-label="${esc(T.chart)}">`;
    out += `<text x="${L}" y="22" class="ct">${esc(T.chart)}</text>`;
    out += `<line x1="${L}" y1="${y(lo)}" x2="${W - R}" y2="${y(lo)}" class="axis"/>`;
    out += `<line x1="${L}" y1="${TOP}" x2="${L}" y2="${H - B}" class="axis"/>`;
    if (lo < 0) out += `<line x1="${L}" y1="${y(0)}" x2="${W - R}" y2="${y(0)}" class="zero"/>`;
    out += `<text x="${L - 8}" y="${y(hi) + 8}" class="tick" text-anchor="end">${hi}</text>`;
    out += `<text x="${L - 8}" y="${y(lo)}" class="tick" text-anchor="end">${lo}</text>`;
    for (let s = 0; s < sides; s++) {
      const pts = series[s].map((val, k) => `${x(k).toFixed(1)},${y(val).toFixed(1)}`).join(" ");
      out += `<polyline points="${pts}" fill="none" stroke="${COLORS[s % 4]}" stroke-width="5" stroke-linejoin="round"/>`;
      const last = series[s].length - 1;
      out += `<circle cx="${x(last)}" cy="${y(series[s][last])}" r="7" fill="${COLORS[s % 4]}"/>`;
    }
    return out + "</svg>";
  }

  function renderAlerts(st, v, now) {
    const items = [];
    if (st.log_error) items.push(`<div class="alert error" data-rule="log-not-writable">⚠ ${esc(fmt(T.log_error, { msg: st.log_error }))}</div>`);
    if (st.pending) items.push(`<div class="alert confirm" data-rule="confirm-card">⌛ ${esc(T.confirm_card)}</div>`);
    // an illegal play stays up while its trick (or bout) is on the table, then it is among the
    // deal's notes under the score; other alerts for ALERT_SECONDS
    // (the trick just taken counts until the next one begins: st.last_trick)
    const onTable = new Set([...((v && v.trick) || []), ...(st.last_trick || [])]
      .flatMap((t) => [t.card, t.covered_by]).filter(Boolean));
    const lying = (a) => a.level === "illegal" && a.params && onTable.has(a.params.card);
    const noted = new Set(((v && v.fouls) || []).map((f) => f.card).filter(Boolean));
    const moved = (a) => a.level === "illegal" && a.params && noted.has(a.params.card);
    const fresh = (st.alerts || []).filter((a) => a.rule !== "confirm-card" &&
      (lying(a) || (!moved(a) && (!now || !a.t || now - a.t < ALERT_SECONDS))));
    const pick = fresh.filter((a) => a.level === "illegal" || a.level === "error").slice(-2)
      .concat(fresh.filter((a) => a.level !== "illegal" && a.level !== "error").slice(-1));
    for (const a of pick) {
      const head = a.level === "illegal" ? `<b>${esc(T.illegal)}</b> ` : "";
      items.push(`<div class="alert ${esc(a.level)}" data-rule="${esc(a.rule)}">${head}${esc(alertText(st, a))}</div>`);
    }
    if (st.status === "abandoned") items.push(`<div class="alert info">${esc(T.abandoned)}</div>`);
    $("alerts").innerHTML = items.slice(0, 3).join("");
  }

  function renderOver(st, v) {
    const el = $("over");
    if (!v || !v.over) { el.className = ""; el.innerHTML = ""; return; }
    const names = sideNames(st, v);
    const w = v.outcome && v.outcome.winner;
    el.className = "show";
    el.innerHTML = `<div class="big">${esc(T.over)}</div>` +
      (w !== null && w !== undefined && names[w] ? `<div class="winner">${esc(fmt(T.winner, { name: names[w] }))}</div>` : "") +
      `<div class="reason">${esc(overText(st, v))}</div>`;
  }

  // The engine words its reason in English; in another language the totals say it instead.
  function overText(st, v) {
    if (T.lang === "en") return withNames(st, v.outcome.reason || "");
    return fmt(T.final_score, { score: (v.outcome.totals || v.totals || []).join(" : ") });
  }

  /* Spoken announcements with the browser's own voice (?speak=1 or the checkbox): the trump,
     an illegal play, each deal's score — the same phrases as table_ui/speech.py. Only a local
     (offline) voice of the page's language is used; without one nothing is spoken. */
  const said = { game: undefined, trump: null, deals: 0, alertSeq: -1, primed: false };
  function localVoice() {
    if (!("speechSynthesis" in window)) return null;
    const voices = speechSynthesis.getVoices().filter((v) => v.localService !== false);
    return voices.find((v) => v.lang && v.lang.toLowerCase().startsWith(T.lang)) || null;
  }
  function say(text) {
    const box = $("speak");
    const recent = (document.body.dataset.said ? document.body.dataset.said.split("\n") : []).concat([text]);
    document.body.dataset.said = recent.slice(-10).join("\n"); // the last phrases decided (tests)
    if (!box || !box.checked) return;
    const voice = localVoice();
    if (!voice) return;
    const u = new SpeechSynthesisUtterance(text);
    u.voice = voice; u.lang = voice.lang;
    speechSynthesis.speak(u);
  }
  function saySides(st, v) { return Cards.sideNames(T, st.names, v.sides || [], v.num_seats, " " + T.say_and + " "); }
  function announce(st) {
    const v = st.view || {};
    const seqs = (st.alerts || []).map((a) => a.seq || 0);
    if (!said.primed) {
      Object.assign(said, { game: st.game_id, trump: v.trump || null, deals: (v.deals || []).length,
        alertSeq: Math.max(-1, ...seqs), primed: true });
      return;
    }
    if (st.game_id !== said.game) Object.assign(said, { game: st.game_id, trump: null, deals: 0 });
    for (const a of st.alerts || []) {
      if ((a.seq || 0) > said.alertSeq && a.level === "illegal") {
        say(typeof a.seat === "number" ? fmt(T.say_illegal_by, { name: seatName(st, a.seat) }) : T.say_illegal);
      }
    }
    said.alertSeq = Math.max(said.alertSeq, ...seqs);
    if (v.trump && v.trump !== said.trump) {
      say(T.suits[v.trump] ? fmt(T.say_trump, { suit: T.suits[v.trump] }) : v.trump === "all" ? T.all_trump : T.say_no_trump);
    }
    said.trump = v.trump || null;
    const deals = v.deals || [];
    const names = saySides(st, v);
    const line = (pts) => pts.map((p, i) => (names[i] || i + 1) + " " + p).join(", ");
    for (let i = said.deals; i < deals.length; i++) {
      let text = fmt(T.say_deal, { n: deals[i].number, points: line(deals[i].points) });
      if (i === deals.length - 1 && (v.totals || []).length) text += " " + fmt(T.say_totals, { points: line(v.totals) });
      say(text);
    }
    said.deals = deals.length;
  }

  function render(st, now) {
    announce(st);
    lastState = st;
    const v = st.view;
    renderHeader(st, v); renderSeats(st, v); renderTrick(st, v); renderTrump(st, v);
    renderScore(st, v); renderAlerts(st, v, now); renderOver(st, v);
    lastSeq = st.seq;
    document.body.dataset.seq = String(st.seq);
    document.body.dataset.game = v ? v.game : "";
  }

  function setOnline(on) {
    document.body.dataset.online = on ? "1" : "0";
    $("offline").textContent = on ? "" : T.offline;
    $("offline").className = on ? "" : "show";
  }

  function connect() {
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
    socket = ws;
    ws.onopen = () => { delay = 500; setOnline(true); if (lastSeq >= 0) ws.send(JSON.stringify({ since: lastSeq })); };
    ws.onmessage = (e) => {
      let m; try { m = JSON.parse(e.data); } catch (_) { return; }
      if (m && m.type === "state" && m.state) { if (m.now) offset = m.now - Date.now() / 1000; render(m.state, m.now); }
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      setOnline(false);
      setTimeout(connect, delay + Math.random() * 200);
      delay = Math.min(delay * 2, 4000);
    };
  }

  async function start() {
    for (;;) {
      try {
        const r = await fetch("/api/i18n" + (lang ? "/" + encodeURIComponent(lang) : ""));
        if (r.ok) { T = await r.json(); break; }
      } catch (_) { /* the server is not up yet */ }
      await new Promise((res) => setTimeout(res, 1000));
    }
    document.documentElement.lang = T.lang;
    $("speak").checked = speakParam;
    $("speak-box").title = T.speak;
    $("speak-label").textContent = T.speak;
    if ("speechSynthesis" in window) speechSynthesis.getVoices(); // voices load asynchronously
    setOnline(false);
    connect();
    setInterval(() => { if (lastState) renderAlerts(lastState, lastState.view, Date.now() / 1000 + offset); }, 15000);
  }
  start();
})();
