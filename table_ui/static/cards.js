/* SVG playing cards, suit symbols and card backs, shared by the display and the admin. */
"use strict";
const Cards = (() => {
  const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
  const RED = { D: true, H: true };
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  function rankLabel(rank, ranks) {
    if (ranks && ranks[rank]) return ranks[rank];
    return rank === "T" ? "10" : rank;
  }
  function label(code, ranks) {
    if (code === "BJ" || code === "RJ") return "🃏";
    return rankLabel(code[0], ranks) + SUITS[code[1]];
  }
  function svg(code, opts) {
    opts = opts || {};
    const cls = "card" + (opts.cls ? " " + opts.cls : "");
    if (code === "BJ" || code === "RJ") {
      const col = code === "RJ" ? "#c8102e" : "#111";
      return `<svg class="${cls}" data-card="${esc(code)}" viewBox="0 0 100 140" role="img" aria-label="joker">` +
        `<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fff" stroke="#222" stroke-width="3"/>` +
        `<text x="50" y="84" font-size="62" text-anchor="middle" fill="${col}">★</text>` +
        `<text x="10" y="30" font-size="22" font-weight="700" fill="${col}">${esc(opts.joker || "J")}</text>` +
        `<text x="90" y="128" font-size="22" font-weight="700" fill="${col}" text-anchor="end">${esc(opts.joker || "J")}</text></svg>`;
    }
    if (!code || code.length !== 2 || !SUITS[code[1]]) {
      return `<svg class="${cls}" data-card="??" viewBox="0 0 100 140"><rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fff" stroke="#222" stroke-width="3"/><text x="50" y="88" font-size="56" text-anchor="middle" fill="#777">?</text></svg>`;
    }
    const r = rankLabel(code[0], opts.ranks), s = SUITS[code[1]];
    const col = RED[code[1]] ? "#c8102e" : "#111";
    const small = r.length > 1 ? 34 : 42;
    return `<svg class="${cls}" data-card="${esc(code)}" viewBox="0 0 100 140" role="img" aria-label="${esc(r + s)}">` +
      `<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fff" stroke="#222" stroke-width="3"/>` +
      `<text x="7" y="40" font-size="${small}" font-weight="800" fill="${col}" font-family="Arial, sans-serif">${esc(r)}</text>` +
      `<text x="9" y="70" font-size="30" fill="${col}">${s}</text>` +
      `<text x="60" y="118" font-size="74" text-anchor="middle" fill="${col}">${s}</text></svg>`;
  }
  function back(cls) {
    return `<svg class="back ${cls || ""}" viewBox="0 0 100 140" aria-hidden="true">` +
      `<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#1d3f8f" stroke="#fff" stroke-width="4"/>` +
      `<rect x="12" y="12" width="76" height="116" rx="5" fill="none" stroke="#8fb0ff" stroke-width="3"/>` +
      `<path d="M12 12 L88 128 M88 12 L12 128" stroke="#8fb0ff" stroke-width="2"/></svg>`;
  }
  // An alert (or a foul) in the page's language, from its rule id and parameters
  // (table_ui/rule_texts.py, served in the catalogue as T.rules, T.flags, T.devices); the
  // English sentence only for an id the catalogue does not know. ``who``: the seat's name.
  function fill(s, vars) { return String(s).replace(/\{(\w+)\}/g, (_, k) => (vars && k in vars ? vars[k] : "")); }
  function cardWords(code, ranks) { return code && code.length === 2 && SUITS[code[1]] ? label(code, ranks) : code || ""; }
  function deviceWords(T, name) {
    const d = T.devices || {};
    if (d[name]) return d[name];
    const m = /^panel (.*)$/.exec(name || "");
    return m ? `${d.panel || "panel"} ${m[1]}` : name || "";
  }
  function alertText(T, a, who, ranks) {
    const words = (T.rules || {})[a.rule];
    if (!words) return a.message || a.rule || "";
    const p = a.params || {};
    return fill(words, { who: who || "", card: cardWords(p.card, ranks), button: p.button || "",
      flag: fill((T.flags || {})[p.flag] || p.flag || "", p), device: deviceWords(T, p.device),
      phase: (T.phases || {})[p.phase] || "" });
  }
  // A score-sheet line (engine.scoresheet.Line: key, params, the engine's English text) in the
  // page's language from T.sheet_lines (table_ui/sheet_texts.py); the engine's sentence where the
  // catalogue has none (English pages). ctx: seat(n) and side(n) give names, ranks the card style.
  function sheetLine(T, line, ctx) {
    if (!line) return "";
    const words = (T.sheet_lines || {})[line.key];
    if (!words) return line.text || "";
    const p = line.params || {}, vars = {};
    for (const [k, v] of Object.entries(p)) vars[k] = sheetParam(T, k, v, p, ctx);
    return fill(words, vars);
  }
  function sheetParam(T, k, v, p, ctx) {
    if (Array.isArray(v)) {
      if (k === "cards") return v.map((c) => cardWords(c, ctx.ranks)).join(" ");
      if (k === "seats") return v.map((s) => ctx.seat(s)).join(", ");
      return v.map((x) => (x && typeof x === "object" ? sheetLine(T, x, ctx) : x)).join(" + ");
    }
    if (v && typeof v === "object") return sheetLine(T, v, ctx);
    if (k === "seat" || k.endsWith("_seat")) return ctx.seat(v);
    if (k === "side" || k.endsWith("_side")) return ctx.side(v);
    if (k === "card") return cardWords(v, ctx.ranks);
    if (k === "trump") return SUITS[v] || (v === "none" ? T.no_trump : v === "all" ? T.all_trump : "?");
    if (k === "run") return (T.decl_runs || {})[v] || fill(T.decl_run_n, { n: v });
    if (k === "rule") return alertText(T, { rule: v, message: v, params: {} }, ctx.seat(p.seat), ctx.ranks);
    if (k === "outcome") return (T.outcomes || {})[v] || v;
    return v;
  }
  // A seat by its player's name, else «место N»; a view's sides by their players' names: one seat
  // each, or a pair's two joined by ``joiner`` (the display's «Аня + Вера», spoken «Аня и Вера»),
  // else «сторона N». One rule for the display, its speech and the history.
  function seatName(T, names, i) { return (names && names[i]) || fill(T.seat, { n: Number(i) + 1 }); }
  function sideNames(T, names, sides, seats, joiner) {
    if (sides.length === seats) return sides.map((_, i) => seatName(T, names, i));
    if (sides.length * 2 === seats) return sides.map((_, i) => seatName(T, names, i) + joiner + seatName(T, names, i + sides.length));
    return sides.map((_, i) => fill(T.side, { n: i + 1 }));
  }
  return { SUITS, RED, svg, back, label, esc, alertText, deviceWords, sheetLine, seatName, sideNames };
})();
