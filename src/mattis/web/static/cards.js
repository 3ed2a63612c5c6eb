/* Cards drawn as SVG by the project: no images fetched at run time.
   Every card shows its rank and its suit symbol, so colour is never the only cue. */
"use strict";
const Cards = (() => {
  const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
  const RED = { D: true, H: true };
  const RANKS = "23456789TJQKA";
  const NS = "http://www.w3.org/2000/svg";
  function el(tag, attrs, text) {
    const e = document.createElementNS(NS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function rankLabel(r) { return r === "T" ? "10" : r; }
  const PIPS = {  // pip positions for number cards (x, y on a 60x84 card)
    2: [[30, 20], [30, 64]], 3: [[30, 20], [30, 42], [30, 64]],
    4: [[20, 22], [40, 22], [20, 62], [40, 62]],
    5: [[20, 22], [40, 22], [30, 42], [20, 62], [40, 62]],
    6: [[20, 22], [40, 22], [20, 42], [40, 42], [20, 62], [40, 62]],
    7: [[20, 22], [40, 22], [30, 32], [20, 42], [40, 42], [20, 62], [40, 62]],
    8: [[20, 22], [40, 22], [30, 32], [20, 42], [40, 42], [30, 52], [20, 62], [40, 62]],
    9: [[20, 20], [40, 20], [20, 34], [40, 34], [30, 42], [20, 50], [40, 50], [20, 64], [40, 64]],
    10: [[20, 20], [40, 20], [30, 27], [20, 36], [40, 36], [20, 48], [40, 48], [30, 57], [20, 64], [40, 64]],
  };
  /** An SVG element for a card code like "TS"; null code draws the back. */
  function svg(code, cls) {
    const s = el("svg", { viewBox: "0 0 60 84", class: "cardsvg " + (cls || ""), role: "img" });
    if (!code) {
      s.setAttribute("aria-label", "card back");
      s.appendChild(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 5, class: "back" }));
      s.appendChild(el("rect", { x: 6, y: 6, width: 48, height: 72, rx: 3, class: "backin" }));
      s.appendChild(el("path", { d: "M6 6L54 78M54 6L6 78M30 6L54 42L30 78L6 42Z", class: "backline" }));
      return s;
    }
    const r = code[0], u = code[1], sym = SUITS[u];
    s.classList.add(RED[u] ? "red" : "black");
    s.setAttribute("aria-label", rankLabel(r) + sym);
    s.appendChild(el("rect", { x: 1, y: 1, width: 58, height: 82, rx: 5, class: "face" }));
    const g = el("g", { class: "ink" });
    g.appendChild(el("text", { x: 5, y: 16, class: "idx" }, rankLabel(r)));
    g.appendChild(el("text", { x: 5, y: 28, class: "idxs" }, sym));
    const br = el("g", { transform: "rotate(180 30 42)" });
    br.appendChild(el("text", { x: 5, y: 16, class: "idx" }, rankLabel(r)));
    br.appendChild(el("text", { x: 5, y: 28, class: "idxs" }, sym));
    g.appendChild(br);
    const n = RANKS.indexOf(r) + 2;
    if (n <= 10) {
      for (const [x, y] of PIPS[n]) g.appendChild(el("text", { x, y: y + 5, class: "pip" }, sym));
    } else {
      g.appendChild(el("rect", { x: 15, y: 17, width: 30, height: 50, rx: 3, class: "court" }));
      g.appendChild(el("text", { x: 30, y: 41, class: "courtr" }, n === 14 ? sym : r));
      g.appendChild(el("text", { x: 30, y: 62, class: "courts" }, sym));
    }
    s.appendChild(g);
    return s;
  }
  function text(code) { return code ? rankLabel(code[0]) + SUITS[code[1]] : "?"; }
  const RANK_ORDER = (c) => RANKS.indexOf(c[0]);
  const SUIT_ORDER = (c) => "CDHS".indexOf(c[1]);
  return { svg, text, SUITS, RANK_ORDER, SUIT_ORDER };
})();
