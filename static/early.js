// Early table: a returning player's table, drawn before Python is ready.
//
// The page's Python keeps the table as it was last drawn (freecell/ui/progress/stored_table.py,
// localStorage "freecell.drawn": where every card and pile was, the table's
// size and classes, the status bar's texts).  This script draws that table
// from it at once, with the same sprite symbols the page's Python uses
// (freecell/ui/table/sprite.py, put in index.html by build.py), so the pixels are
// the same; Python then draws over it in one step.  Nothing here is
// interactive, and every value read is checked against an allow-list first
// (numbers in range, card and pile names, the sprite's symbol names, short
// texts put in with textContent).  When the address asks for another game than
// the one kept, nothing is drawn.
//
// A first visit (nothing stored, an address that asks for nothing) draws a fresh
// deal instead, from data the build made with the game's Python
// (freecell/ui/table/first_table.py): a few winnable deals in dealing order, and
// the layout of a fresh deal for a grid of table sizes.  It picks a deal at
// random and the layout of the table's box (layoutFor: from the grid's rows
// around it, in the arrangement the page will use), and names the deal in
// <html data-first-deal="N">, which the page's Python then deals.
// <html data-early="drawn"> says it drew a kept table, "first" a first visit's
// deal, "none" that it had nothing to draw.
"use strict";
(function () {
  const MAX_COORD = 20000; // drawn.RECORD_RULES
  const MAX_TEXT = 60;
  const STATUS = ["capacity", "home", "moves", "time", "deal", "variant", "score", "winnable"];
  const CLASSES = ["four-colour", "large-cards", "left-handed"];
  const CARD = /^[A2-9TJQK][CDHS]$/;
  const FACE = /^face-(L-)?[A2-9TJQK][CDHS]$/;
  const PILE = /^([0-9]|[a-gi]|h[1-4])$/;
  const MARK = /^pile-(cell|column|foundation(-[cdhs])?)$/;
  const NS = "http://www.w3.org/2000/svg";
  const FIRST = null /* __FREECELL_FIRST__ */;

  function num(v) {
    return typeof v === "number" && Number.isFinite(v) && v >= -MAX_COORD && v <= MAX_COORD;
  }

  function read() {
    let data;
    try {
      data = JSON.parse(localStorage.getItem("freecell.drawn") || "null");
    } catch (e) {
      return null; // storage refused, or not JSON
    }
    if (!data || typeof data !== "object" || data.v !== 1) return null;
    if (![data.w, data.h, data.cw, data.ch].every(num) || data.w <= 0 || data.h <= 0) return null;
    if (data.cw <= 0 || data.ch <= 0) return null;
    if (!Array.isArray(data.cards) || data.cards.length !== 52) return null;
    const seen = new Set();
    for (const c of data.cards) {
      if (!Array.isArray(c) || c.length !== 4 || typeof c[0] !== "string" || !CARD.test(c[0])) return null;
      if (!num(c[1]) || !num(c[2]) || typeof c[3] !== "string" || !FACE.test(c[3])) return null;
      if (c[3].slice(-2) !== c[0] || seen.has(c[0])) return null;
      seen.add(c[0]);
    }
    if (!Array.isArray(data.piles) || data.piles.length > 30) return null;
    for (const p of data.piles) {
      if (!Array.isArray(p) || p.length !== 4 || typeof p[0] !== "string" || !PILE.test(p[0])) return null;
      if (typeof p[1] !== "string" || !MARK.test(p[1]) || !num(p[2]) || !num(p[3])) return null;
    }
    if (!Array.isArray(data.classes) || !data.classes.every((c) => CLASSES.includes(c))) return null;
    if (!Array.isArray(data.status)) return null;
    for (const s of data.status) {
      if (!Array.isArray(s) || s.length !== 3 || !STATUS.includes(s[0])) return null;
      if (typeof s[1] !== "string" || s[1].length > MAX_TEXT || typeof s[2] !== "boolean") return null;
    }
    if (data.deal !== null && !(Number.isSafeInteger(data.deal) && data.deal > 0)) return null;
    if (typeof data.variant !== "string" || !/^[a-z0-9]{1,20}$/.test(data.variant)) return null;
    return data;
  }

  // The address asks for nothing, or for the very game kept.
  function asked(data) {
    let params;
    try {
      params = new URLSearchParams(location.search);
    } catch (e) {
      return false;
    }
    if (params.has("board")) return false;
    const variant = params.get("variant") || "freecell";
    if (params.has("deal")) return String(data.deal) === params.get("deal") && variant === data.variant;
    return !params.has("variant") || variant === data.variant;
  }

  function el(tag, attrs) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    return e;
  }

  // Nothing of this game kept, in either storage, and an address that asks for nothing.
  function firstVisit() {
    if (location.search.length > 1) return false;
    try {
      for (const store of [localStorage, sessionStorage]) {
        for (let i = 0; i < store.length; i++) {
          if (String(store.key(i)).startsWith("freecell")) return false;
        }
      }
    } catch (e) {
      return false; // storage refused: the page's Python decides
    }
    return true;
  }

  // The layout of a fresh deal for a box W x H, from the build's grid (first_table.first_table_data):
  // the arrangement the page's own layout will have (piles beside the columns below the bound's
  // height), the four rows around the box interpolated when all four have it, else the nearest
  // row that has it.
  function layoutFor(W, H) {
    const { widths, heights, sides, bound, layouts } = FIRST;
    let hs = bound[bound.length - 1][1];
    if (W <= bound[0][0]) hs = bound[0][1];
    else {
      for (let k = 0; k + 1 < bound.length; k++) {
        const [w0, h0] = bound[k], [w1, h1] = bound[k + 1];
        if (W <= w1) { hs = h0 + (h1 - h0) * (W - w0) / (w1 - w0); break; }
      }
    }
    const side = H < hs ? 1 : 0;
    const n = heights.length;
    const at = (list, v) => { let i = 0; while (i + 2 < list.length && list[i + 1] <= v) i++; return i; };
    const i = at(widths, W), j = at(heights, H);
    const inside = W >= widths[0] && W <= widths[widths.length - 1] && H >= heights[0] && H <= heights[n - 1];
    const corners = [[i, j], [i + 1, j], [i, j + 1], [i + 1, j + 1]].map(([a, b]) => a * n + b);
    if (inside && corners.every((k) => sides[k] === side)) {
      const t = (v, a, b) => (Math.log(v) - Math.log(a)) / (Math.log(b) - Math.log(a));
      const tx = t(W, widths[i], widths[i + 1]), ty = t(H, heights[j], heights[j + 1]);
      const weights = [(1 - tx) * (1 - ty), tx * (1 - ty), (1 - tx) * ty, tx * ty];
      return layouts[0].map((_, m) => corners.reduce((sum, k, c) => sum + weights[c] * layouts[k][m], 0));
    }
    let row = null;
    let best = Infinity;
    layouts.forEach((r, k) => {
      const d = Math.log(r[0] / W) ** 2 + Math.log(r[1] / H) ** 2 + (sides[k] === side ? 0 : 100);
      if (d < best) { best = d; row = r; }
    });
    return row;
  }

  // The first visit's deal, on the layout of the table's box; null without data.
  function firstTable() {
    if (!FIRST || FIRST.v !== 1 || !FIRST.deals.length || !FIRST.layouts.length || !FIRST.bound) return null;
    const area = document.getElementById("table-area");
    if (!area) return null;
    const box = area.getBoundingClientRect();
    if (!(box.width > 0 && box.height > 0)) return null;
    const row = layoutFor(box.width, box.height);
    const [deal, codes] = FIRST.deals[Math.floor(Math.random() * FIRST.deals.length)];
    const [w, h, cw, ch, y, fan7, fan6] = row;
    const xs = row.slice(7, 15);
    const at = (k) => [row[15 + 2 * k], row[16 + 2 * k]]; // free cells a-d, then foundations
    const cards = [];
    let i = 0;
    for (let col = 0; col < 8; col++) { // first_table.places
      const n = col < 4 ? 7 : 6;
      const fan = col < 4 ? fan7 : fan6;
      for (let j = 0; j < n; j++, i++) {
        const card = codes.slice(2 * i, 2 * i + 2);
        cards.push([card, xs[col], Math.round((y + j * fan) * 10) / 10, "face-" + card]);
      }
    }
    const piles = [];
    "abcd".split("").forEach((name, k) => piles.push([name, "pile-cell", ...at(k)]));
    "cdhs".split("").forEach((suit, k) => piles.push(["h" + (k + 1), "pile-foundation-" + suit, ...at(4 + k)]));
    xs.forEach((x, k) => piles.push([String(k + 1), "pile-column", x, y]));
    return { v: 1, deal: deal, variant: "freecell", w: w, h: h, cw: cw, ch: ch, classes: [], cards: cards,
             piles: piles, status: [] };
  }

  function draw(data) {
    const svg = document.getElementById("table");
    const piles = document.getElementById("piles");
    const cards = document.getElementById("cards");
    if (!svg || !piles || !cards || cards.childElementCount) return;
    svg.setAttribute("viewBox", `0 0 ${data.w} ${data.h}`);
    for (const c of data.classes) svg.classList.add(c);
    const size = { width: data.cw, height: data.ch };
    for (const [name, mark, x, y] of data.piles) {
      const g = el("g", { class: "pile-group", transform: `translate(${x} ${y})`, "aria-hidden": "true" });
      g.appendChild(el("use", { href: "#" + mark, ...size }));
      g.dataset.early = name;
      piles.appendChild(g);
    }
    const rx = (data.cw * 0.08).toFixed(1); // cardart.CORNER
    for (const [card, x, y, face] of data.cards) {
      const red = card[1] === "D" || card[1] === "H";
      const g = el("g", { class: "card " + (red ? "suit-red" : "suit-black"), "aria-hidden": "true" });
      g.dataset.early = card;
      g.style.transform = `translate(${x}px, ${y}px)`;
      g.appendChild(el("rect", { class: "card-bg", x: 0, y: 0, rx: rx, ry: rx, ...size }));
      g.appendChild(el("use", { class: "face-use", href: "#" + face, ...size }));
      cards.appendChild(g);
    }
    for (const [name, text, hidden] of data.status) {
      const item = document.querySelector(`[data-status="${name}"]`);
      if (!item) continue;
      item.textContent = text;
      item.hidden = hidden;
    }
    document.documentElement.dataset.early = "drawn";
  }

  const data = read();
  if (data && asked(data)) {
    draw(data);
  } else if (!data && firstVisit()) {
    const first = firstTable();
    if (first) {
      draw(first);
      document.documentElement.dataset.early = "first";
      document.documentElement.dataset.firstDeal = String(first.deal);
    }
  }
  if (!document.documentElement.dataset.early) document.documentElement.dataset.early = "none";
})();
