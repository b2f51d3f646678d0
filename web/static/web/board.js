// The board: a component of its own (as chessground is for lichess). It is fed a
// position in one side's numbering and the legal next steps, draws an SVG, and emits
// the step the player chose; it knows nothing of the API. Keyboard play and the
// screen-reader labels are part of it.
//
// Layout (RULES R1, R33; RULES-FAMILY H1). The board is always drawn in the numbering
// of `board.perspective` (the server already serves it so: a client never converts),
// and one picture serves every rule set:
//
//   wide (> 480 px)                                 narrow (<= 480 px): the wide board
//   ┌─────────────────────┬───┬─────────────────────┐ ┌──┐   folded at the bar, its left
//   │ 13 14 15 16 17 18   │bar│ 19 20 21 22 23 [24] │ │off  half stacked on its right:
//   │                     │   │                     │ │th│   ┌───────────────────┐
//   │ 12 11 10  9  8  7   │   │  6  5  4  3  2   1  │ │off  │ 13 14 15 16 17 18 │
//   └─────────────────────┴───┴─────────────────────┘ │mi│   │ 12 11 10  9  8  7 │
//                                                            ├──── bar strip ────┤
//   The own head (24) is at the top right; the own checkers  │ 19 20 21 22 23[24]│
//   travel the top row right to left (24 → 13), come down    │  6  5  4  3  2  1 │
//   at the left and travel the bottom row left to right      └───────────────────┘
//   (12 → 1) into the home (1–6) at the bottom right, and      the head at the right
//   bear off into the tray at the right ("off", mine below,    end of the row just
//   theirs above).                                             above home (R33).
//
// Long Nardy: the opponent's head is our 12 (R2), the bottom left, and it travels the
// same way round from there (its home is our 13–18, the top left). Hitting games (H1):
// the opponent's point p is our 25 − p, so it starts at our 1 (bottom right) and
// travels the other way, into its home, our 19–24 at the top right. Our checkers on
// the bar enter into that quarter, so they wait in the top half of the bar; the
// opponent's in the bottom half. A step `from: 25` enters; `to: 0` bears off.

import { otherSide as other } from "./api.js";
import { _, f as fmt, ngettext } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const R = 27;          // checker radius
const PW = 60;         // point width
const M = 28;          // frame (point numbers are printed on it)
const BAR = 48;
const TRAY = 66;
const WIDE = { ROW: 240, GAP: 60 };
const NARROW = { ROW: 150, GAP: 56, STRIP: 76 };   // a phone: one screen
const NARROW_QUERY = "(max-width: 480px)";

const escapeText = (s) => String(s).replace(/[&<>"]/g, (c) => (
  { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));

/** Screen geometry for every place of the board, in one side's numbering. */
export function layout(narrow) {
  const places = {};
  let width, height, dice, diceTheirs, cube, labels = [];
  const point = (p, x, base, dir, row) => {
    places["p" + p] = { kind: "point", point: p, x, base, dir, len: row, w: PW,
                        cx: x + PW / 2, cy: base + dir * row / 2 };
  };
  if (!narrow) {
    const { ROW, GAP } = WIDE;
    const bottom = M + 2 * ROW + GAP;
    for (let p = 1; p <= 24; p++) {
      const top = p >= 13;
      const col = top ? p - 13 : 12 - p;
      const x = M + col * PW + (col >= 6 ? BAR : 0);
      point(p, x, top ? M : bottom, top ? 1 : -1, ROW);
      labels.push({ p, x: x + PW / 2, y: top ? M - 9 : bottom + 20 });
    }
    const barX = M + 6 * PW;
    places.bar = { kind: "bar", x: barX, y: M, w: BAR, h: ROW, cx: barX + BAR / 2,
                   cy: M + ROW / 2, axis: "v", dir: 1 };
    places.barTheirs = { kind: "bar", x: barX, y: M + ROW + GAP, w: BAR, h: ROW,
                         cx: barX + BAR / 2, cy: M + ROW + GAP + ROW / 2, axis: "v", dir: -1 };
    const trayX = M + 12 * PW + BAR + 14;
    places.offTheirs = { kind: "off", x: trayX, y: M, w: TRAY, h: ROW, cx: trayX + TRAY / 2,
                         cy: M + ROW / 2, dir: 1 };
    places.off = { kind: "off", x: trayX, y: M + ROW + GAP, w: TRAY, h: ROW,
                   cx: trayX + TRAY / 2, cy: M + ROW + GAP + ROW / 2, dir: -1 };
    width = trayX + TRAY + M;
    height = bottom + M;
    // The dice keep clear of the heads' corners (the head counter is drawn there).
    dice = { cx: M + 6 * PW + BAR + 2.5 * PW, cy: M + ROW + GAP / 2 };
    diceTheirs = { cx: M + 3.5 * PW, cy: M + ROW + GAP / 2 };
    // reach: from the middle to the owner's edge, clear of 3 checkers on the bar.
    cube = { cx: M + 6 * PW + BAR / 2, cy: M + ROW + GAP / 2, reach: ROW + GAP / 2 - 40 };
    places.felt = [{ x: M, y: M, w: 6 * PW, h: 2 * ROW + GAP },
                   { x: M + 6 * PW + BAR, y: M, w: 6 * PW, h: 2 * ROW + GAP }];
    places.frame = { x: 0, y: 0, w: M + 12 * PW + BAR + M, h: height };
  } else {
    const { ROW, GAP, STRIP } = NARROW;
    const half = 2 * ROW + GAP;
    const lowerTop = M + half + STRIP;
    for (let p = 1; p <= 24; p++) {
      let col, base, dir, labelY;
      if (p >= 13 && p <= 18) { col = p - 13; base = M; dir = 1; labelY = M - 9; }
      else if (p >= 7 && p <= 12) { col = 12 - p; base = M + half; dir = -1; labelY = M + half + 17; }
      else if (p >= 19) { col = p - 19; base = lowerTop; dir = 1; labelY = lowerTop - 7; }
      else { col = 6 - p; base = lowerTop + half; dir = -1; labelY = lowerTop + half + 20; }
      const x = M + col * PW;
      point(p, x, base, dir, ROW);
      labels.push({ p, x: x + PW / 2, y: labelY });
    }
    const stripY = M + half + 22;
    places.bar = { kind: "bar", x: M + 3 * PW, y: stripY, w: 3 * PW, h: STRIP - 44,
                   cx: M + 4.5 * PW, cy: stripY + (STRIP - 44) / 2, axis: "h", dir: 1 };
    places.barTheirs = { kind: "bar", x: M, y: stripY, w: 3 * PW, h: STRIP - 44,
                         cx: M + 1.5 * PW, cy: stripY + (STRIP - 44) / 2, axis: "h", dir: -1 };
    const trayX = M + 6 * PW + 12;
    places.offTheirs = { kind: "off", x: trayX, y: M, w: TRAY - 6, h: half, cx: trayX + 30,
                         cy: M + half / 2, dir: 1 };
    places.off = { kind: "off", x: trayX, y: lowerTop, w: TRAY - 6, h: half, cx: trayX + 30,
                   cy: lowerTop + half / 2, dir: -1 };
    width = trayX + TRAY - 6 + M;
    height = lowerTop + half + M;
    dice = { cx: M + 2.5 * PW, cy: lowerTop + ROW + GAP / 2 };
    diceTheirs = { cx: M + 3.5 * PW, cy: M + ROW + GAP / 2 };
    cube = { cx: trayX + 30, cy: M + half + STRIP / 2, reach: STRIP / 2 - 19 };
    places.felt = [{ x: M, y: M, w: 6 * PW, h: half }, { x: M, y: lowerTop, w: 6 * PW, h: half }];
    places.frame = { x: 0, y: 0, w: M + 6 * PW + M, h: height };
    places.strip = { x: M, y: M + half, w: 6 * PW, h: STRIP };
  }
  return { places, width, height, dice, diceTheirs, cube, labels, narrow };
}

const PIPS = {
  1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

function dieSvg(value, cx, cy, size, used, label) {
  const h = size / 2, q = size * 0.27;
  const pips = (PIPS[value] || []).map(([dx, dy]) =>
    `<circle cx="${cx + dx * q}" cy="${cy + dy * q}" r="${size * 0.09}" class="pip"/>`).join("");
  return `<g class="die${used ? " used" : ""}" data-value="${value}" role="img"
    aria-label="${escapeText(label)}"><rect x="${cx - h}" y="${cy - h}" width="${size}"
    height="${size}" rx="${size * 0.18}" class="die-face"/>${pips}</g>`;
}

/** The board after `steps` of the side whose numbering it is in (a
 *  drafted turn drawn before it is sent). The steps carry their hit flag from the
 *  server's legal_tree, so no rule of any rule set is needed here. */
export function applySteps(board, steps) {
  if (!steps.length) return board;
  const points = { ...(board.points || {}) };
  const bar = { mine: 0, theirs: 0, ...(board.bar || {}) };
  const off = { mine: 0, theirs: 0, ...(board.off || {}) };
  for (const step of steps) {
    if (step.from === 25) bar.mine -= 1;
    else points[String(step.from)] = (points[String(step.from)] || 0) - 1;
    if (step.to === 0) off.mine += 1;
    else if (step.hit) { points[String(step.to)] = 1; bar.theirs += 1; }
    else points[String(step.to)] = (points[String(step.to)] || 0) + 1;
  }
  return { ...board, points, bar, off };
}

/** How one side's point numbers read in the other side's numbering, by the rule set's
 *  `numbering` fact (GET rules/: the descriptor's; R2 "rotated", H1 "mirrored"). The
 *  bar (25) and the tray (0) are nobody's points. */
const NUMBERINGS = {
  rotated: (p) => (p > 12 ? p - 12 : p + 12),
  mirrored: (p) => 25 - p,
};

/** `step`, played by `mover`, in `viewer`'s numbering. */
export function stepFor(step, mover, viewer, numbering) {
  if (!viewer || mover === viewer) return step;
  const turn = NUMBERINGS[numbering];
  if (!turn) return step;
  const map = (p) => (p === 25 || p === 0 ? p : turn(p));
  return { ...step, from: map(step.from), to: map(step.to) };
}

const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";

/** Which of `dice` are still to play, as flags (the used ones first). */
export function diceUsage(dice, left) {
  if (!dice || !dice.length) return [];
  const faces = dice[0] === dice[1] && dice.length === 2 ? [dice[0], dice[0], dice[0], dice[0]]
                                                         : [...dice];
  const remaining = [...(left || [])];
  const flags = faces.map((value) => {
    const i = remaining.indexOf(value);
    if (i >= 0) { remaining.splice(i, 1); return true; }
    return false;
  });
  // Played dice first, so the row reads left to right as the turn goes.
  return faces.map((value, i) => ({ value, left: flags[i] }))
              .sort((a, b) => Number(a.left) - Number(b.left));
}

/** "2 white checkers", in the page's language. */
function checkers(n, colour) {
  return colour === "white"
    ? ngettext("%(count)s white checker", "%(count)s white checkers", n)
    : ngettext("%(count)s black checker", "%(count)s black checkers", n);
}

export class Board {
  constructor(host, { onMove = () => {}, onSelect = () => {}, chooseDie = null,
                      onRefuse = () => {} } = {}) {
    this.host = host;
    this.onMove = onMove;
    this.onSelect = onSelect;
    // onRefuse(text): a press the rules do not allow, and why.
    this.onRefuse = onRefuse;
    // chooseDie(steps) → Promise<step | null>: when two dice take the selected checker to
    // the same place (bearing off with a 5 or a 6), the player picks; without it the
    // smaller die is played (the larger stays for another checker).
    this.chooseDie = chooseDie;
    this.selected = null;   // a source key: "p13" or "bar"
    this.focusKey = null;
    // The next drawing with checkers to move puts the focus on one of
    // them (after a landing by keyboard, or focusSource()) unless it is on one already.
    this.retarget = false;
    this.data = null;
    this.animated = 0;   // steps slid so far (data-animated: for tests)
    this.media = window.matchMedia(NARROW_QUERY);
    this.media.addEventListener("change", () => this.render());
    host.addEventListener("click", (e) => {
      const el = e.target.closest("[data-key]");
      if (el && this.host.contains(el)) this.press(el.dataset.key);
    });
    host.addEventListener("keydown", (e) => this.key(e));
    host.addEventListener("focusin", (e) => {
      const el = e.target.closest("[data-key]");
      if (el) this.focusKey = el.dataset.key;
    });
  }

  get narrow() { return this.media.matches; }

  /**
   * data: { board, legalSteps, interactive, dice, diceLeft, headMayLeave, rules,
   *         colours: {mine, theirs}, hits, hitting, head, bar }
   * hitting, head and bar are the rule set's facts (GET rules/: hits, head, bar).
   */
  update(data) {
    const before = this.data;
    this.data = data;
    const sources = this.sources();
    if (this.selected && !sources.has(this.selected)) this.selected = null;
    if (before && before.board && data.board
        && before.board.perspective !== data.board.perspective) this.selected = null;
    if (this.retarget && sources.size) {
      this.retarget = false;
      if (!sources.has(this.focusKey)) this.focusKey = [...sources][0];
    }
    this.render();
  }

  /** Puts the focus on the board: on a checker that may move (now, or as soon as the
   *  board is fed one), else where the roving tab stop is. */
  focusSource() {
    const sources = this.sources();
    if (sources.size) {
      if (!sources.has(this.focusKey)) this.focusKey = [...sources][0];
    } else {
      this.retarget = true;
    }
    const el = this.host.querySelector(`[data-key="${this.focusKey}"]`)
      || this.host.querySelector('[data-key][tabindex="0"]');
    if (el) this.focus(el.dataset.key);
  }

  keyOf(point) { return point === 25 ? "bar" : point === 0 ? "off" : "p" + point; }

  sources() {
    const steps = (this.data && this.data.interactive && this.data.legalSteps) || [];
    return new Set(steps.map((s) => this.keyOf(s.from)));
  }

  /** The legal steps from the selected source, by destination key: the one with the
   *  smallest die first, then any other die landing there (bearing off with a 5 or a 6). */
  landings() {
    const out = new Map();
    if (!this.selected || !this.data || !this.data.interactive) return out;
    for (const step of this.data.legalSteps || []) {
      if (this.keyOf(step.from) !== this.selected) continue;
      const key = this.keyOf(step.to);
      const list = out.get(key) || [];
      if (!list.some((s) => s.die === step.die)) list.push(step);
      list.sort((a, b) => a.die - b.die);
      out.set(key, list);
    }
    return out;
  }

  press(key) {
    const landings = this.landings();
    if (this.choosing) return;
    if (landings.has(key)) {
      const steps = landings.get(key);
      const emit = (step) => this.onMove({ from: step.from, to: step.to, die: step.die });
      if (steps.length > 1 && this.chooseDie) {
        this.choosing = true;
        this.render();
        Promise.resolve(this.chooseDie(steps)).then((step) => {
          this.choosing = false;
          this.selected = null;   // played, or put back
          if (step) emit(step); else this.render();
        });
        return;
      }
      this.selected = null;
      if (this.keyed) this.retarget = true;   // then on to a checker that may move
      emit(steps[0]);
      return;
    }
    const sources = this.sources();
    const before = this.selected;
    if (sources.has(key)) {
      this.selected = this.selected === key ? null : key;
      // By keyboard the focus goes on to the checker's first landing.
      if (this.selected && this.keyed) this.focusKey = [...this.landings().keys()][0] || key;
    } else {
      this.selected = null;
      if (this.data && this.data.interactive) this.onRefuse(this.refusal(key, before));
    }
    this.onSelect(this.selected);
    this.render();
  }

  /** Why a press on `key` picks nothing, `selected` the checker that
   *  was picked before it. The reasons come from what the board is fed: the legal
   *  steps, the position, the head counter (R11, R13) and the dice left. */
  refusal(key, selected) {
    const place = this.geometry.places[key];
    const { board } = this.data;
    const bar = board.bar || {}, off = board.off || {};
    const count = place.kind === "point" ? (board.points || {})[place.point] || 0
      : key === "bar" ? bar.mine || 0 : off.mine || 0;
    const name = place.kind === "point" ? fmt(_("Point %(point)s"), { point: place.point })
      : key === "bar" ? _("The bar") : _("The tray");
    const from = (k) => (k === "bar" ? _("on the bar")
      : fmt(_("on point %(point)s"), { point: this.geometry.places[k].point }));
    if (count < 0) {
      return fmt(_("%(place)s is not yours: the opponent's checkers are there."), { place: name });
    }
    if (count === 0 || key === "off") {
      return selected
        ? fmt(_("%(place)s is not a landing for the checker %(from)s."),
              { place: name, from: from(selected) })
        : fmt(_("%(place)s has none of your checkers to move."), { place: name });
    }
    const sources = this.sources();
    if (key !== "bar" && sources.has("bar")) {
      return _("Enter from the bar first: a checker on the bar comes in before any other.");
    }
    if (place.kind === "point" && place.point === 24 && this.hasHead()
        && !(this.data.headMayLeave > 0)) {
      return _("The head is used: no more checkers may leave the head this turn.");
    }
    const dice = (this.data.diceLeft || []).join(", ");
    return fmt(_("The checker %(from)s cannot move with %(dice)s."), { from: from(key), dice });
  }

  key(e) {
    const el = e.target.closest("[data-key]");
    if (!el) return;
    const key = el.dataset.key;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.focusKey = key;
      this.keyed = true;
      try { this.press(key); } finally { this.keyed = false; }
      return;
    }
    if (e.key === "n" || e.key === "p") {
      // The next (previous) checker that may move, or, with one picked, landing.
      e.preventDefault();
      const list = this.selected ? [...this.landings().keys()] : [...this.sources()];
      if (!list.length) return;
      const at = list.indexOf(key);
      const step = e.key === "n" ? 1 : -1;
      this.focus(list[at < 0 ? (step > 0 ? 0 : list.length - 1)
                             : (at + step + list.length) % list.length]);
      return;
    }
    if (/^[1-6]$/.test(e.key) && this.selected) {
      // A die's value: the picked checker lands with that die.
      const target = [...this.landings()].find(([, steps]) => steps.some((st) => st.die === Number(e.key)));
      if (!target) return;
      e.preventDefault();
      this.focusKey = target[0];
      this.keyed = true;
      try { this.press(target[0]); } finally { this.keyed = false; }
      return;
    }
    if (e.key === "Escape") {
      this.selected = null;
      this.render();
      return;
    }
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (!dirs[e.key]) return;
    e.preventDefault();
    const next = this.neighbour(key, ...dirs[e.key]);
    if (next) this.focus(next);
  }

  /** The nearest focusable place in a screen direction (the layout differs when narrow). */
  neighbour(key, dx, dy) {
    const places = this.geometry.places;
    const from = places[key];
    let best = null, bestScore = Infinity;
    for (const k of this.focusable) {
      if (k === key) continue;
      const p = places[k];
      const ox = p.cx - from.cx, oy = p.cy - from.cy;
      const along = dx ? ox * dx : oy * dy;
      const across = Math.abs(dx ? oy : ox);
      if (along <= 0 || across > along * 1.2 + 10) continue;
      const score = along + across * 3;
      if (score < bestScore) { bestScore = score; best = k; }
    }
    return best;
  }

  focus(key) {
    this.focusKey = key;
    for (const el of this.host.querySelectorAll("[data-key]")) {
      el.setAttribute("tabindex", el.dataset.key === key ? "0" : "-1");
    }
    const el = this.host.querySelector(`[data-key="${key}"]`);
    if (el) el.focus();
  }

  colourOf(count) {
    const mine = this.data.board.perspective;
    return count > 0 ? mine : other(mine);
  }

  /** The rule set has a head (its GET rules/ `head`; else: a game without hitting). */
  hasHead() {
    return this.data.head ?? !this.data.hitting;
  }

  label(key, count, flags) {
    const place = this.geometry.places[key];
    const mine = this.data.board.perspective;
    let text;
    if (place.kind === "point") {
      const n = Math.abs(count);
      const parts = [fmt(_("point %(point)s"), { point: place.point }),
                     n ? checkers(n, this.colourOf(count)) : _("empty")];
      if (place.point === 24 && this.hasHead()) parts.push(_("your head"));
      text = parts;
    } else {
      text = [key === "bar" ? _("bar") : _("borne off"), checkers(count, mine)];
    }
    if (flags.selected) text.push(_("selected"));
    else if (flags.source) text.push(_("can move"));
    if (flags.landing) text.push(_("legal landing"));
    if (flags.dice && flags.dice.length > 1) {
      text.push(fmt(_("with the %(dice)s"), { dice: flags.dice.join(_(" or the ")) }));
    }
    if (flags.hits) text.push(_("hits"));
    if (flags.last === "from") text.push(_("last move from here"));
    if (flags.last === "to") text.push(_("last move to here"));
    return text.join(", ");
  }

  render() {
    if (!this.data || !this.data.board) { this.host.innerHTML = ""; return; }
    const hadFocus = this.host.contains(document.activeElement);
    const g = this.geometry = layout(this.narrow);
    const { board } = this.data;
    const mine = board.perspective, theirs = other(mine);
    const points = board.points || {};
    const bar = board.bar || { mine: 0, theirs: 0 };
    const off = board.off || { mine: 0, theirs: 0 };
    const sources = this.sources();
    const landings = this.landings();
    const parts = [];
    // The last turn's from and to marks (in our numbering), until the
    // next roll; `mover` is whose bar and tray its 25 and 0 are.
    const lastMarks = new Map();
    const last = this.data.lastMove;
    if (last && last.steps) {
      const own = last.side === mine;
      const placeKey = (p) => (p === 25 ? (own ? "bar" : "barTheirs")
        : p === 0 ? (own ? "off" : "offTheirs") : "p" + p);
      for (const st of last.steps) lastMarks.set(placeKey(st.from), "from");
      for (const st of last.steps) lastMarks.set(placeKey(st.to), "to");
    }
    this.lastMarks = lastMarks;

    parts.push(`<defs>
      <linearGradient id="wood" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="#8a5a33"/><stop offset="0.5" stop-color="#6e4426"/>
        <stop offset="1" stop-color="#5a361d"/></linearGradient>
      <radialGradient id="felt" cx="0.5" cy="0.5" r="0.75">
        <stop offset="0" stop-color="#2f7a55"/><stop offset="1" stop-color="#1e5a3d"/></radialGradient>
      <radialGradient id="c-white" cx="0.38" cy="0.32" r="0.75">
        <stop offset="0" stop-color="#fffdf6"/><stop offset="1" stop-color="#d8cdb4"/></radialGradient>
      <radialGradient id="c-black" cx="0.38" cy="0.32" r="0.75">
        <stop offset="0" stop-color="#5b5b5b"/><stop offset="1" stop-color="#141414"/></radialGradient>
    </defs>`);
    const f = g.places.frame;
    parts.push(`<rect class="frame" x="0" y="0" width="${g.width}" height="${g.height}" rx="14"
      fill="url(#wood)"/>`);
    for (const felt of g.places.felt) {
      parts.push(`<rect class="felt" x="${felt.x}" y="${felt.y}" width="${felt.w}"
        height="${felt.h}" fill="url(#felt)"/>`);
    }
    if (g.places.strip) {
      const s = g.places.strip;
      parts.push(`<rect class="strip" x="${s.x}" y="${s.y}" width="${s.w}" height="${s.h}"/>`);
    }
    void f;

    // The points and their stacks.
    this.focusable = [];
    for (let p = 24; p >= 1; p--) {
      const key = "p" + p;
      const place = g.places[key];
      const count = points[String(p)] || 0;
      const flags = { source: sources.has(key), selected: this.selected === key,
                      landing: landings.has(key), last: lastMarks.get(key) || null,
                      dice: (landings.get(key) || []).map((st) => st.die) };
      // H7: landing on a lone opposing checker hits it.
      flags.hits = flags.landing && this.data.hitting && count === -1;
      parts.push(this.pointSvg(key, place, p, count, flags));
      this.focusable.push(key);
    }
    for (const label of g.labels) {
      parts.push(`<text class="point-number${label.p === 24 && this.hasHead() ? " head" : ""}" x="${label.x}"
        y="${label.y}" text-anchor="middle" aria-hidden="true">${label.p}</text>`);
    }

    // The bar: ours is a source (entering, from 25); theirs only shows.
    const barFlags = { source: sources.has("bar"), selected: this.selected === "bar",
                       landing: false };
    if (this.data.bar ?? this.data.hitting) {
      parts.push(this.trayLike("bar", g.places.bar, bar.mine || 0, mine, barFlags, "bar"));
      parts.push(this.trayLike("barTheirs", g.places.barTheirs, bar.theirs || 0, theirs, null,
                               "bar"));
      this.focusable.push("bar");
    }
    // Off trays: ours is a landing when bearing off is legal.
    parts.push(this.trayLike("off", g.places.off, off.mine || 0, mine,
                             { source: false, selected: false, landing: landings.has("off"),
                               dice: (landings.get("off") || []).map((st) => st.die) }, "off"));
    parts.push(this.trayLike("offTheirs", g.places.offTheirs, off.theirs || 0, theirs, null, "off"));
    this.focusable.push("off");

    // The dice of the turn (played ones dimmed) or the roll-off dice.
    // Each side's dice on its own half: ours on the right (wide) or the
    // lower half (narrow), the opponent's on the other; the last turn's dice stay shown
    // (dimmed) until the next roll.
    const usage = diceUsage(this.data.dice, this.data.diceLeft);
    const diceAt = (owner) => (owner && owner !== mine ? g.diceTheirs : g.dice);
    if (usage.length) {
      const size = usage.length > 2 ? 38 : 46;
      const gap = size + 10;
      const at = diceAt(this.data.diceOwner);
      const start = at.cx - ((usage.length - 1) * gap) / 2;
      parts.push(`<g class="dice" data-owner="${this.data.diceOwner === mine || !this.data.diceOwner
        ? "mine" : "theirs"}">`);
      usage.forEach((d, i) => parts.push(dieSvg(d.value, start + i * gap, at.cy, size,
        !d.left, fmt(d.left ? _("die %(value)s") : _("die %(value)s, played"),
                     { value: d.value }))));
      parts.push("</g>");
    } else if (last && last.dice && last.dice.length && !this.data.rollOff) {
      const at = diceAt(last.side);
      const start = at.cx - ((last.dice.length - 1) * 56) / 2;
      parts.push(`<g class="dice last-dice" data-owner="${last.side === mine ? "mine" : "theirs"}">`);
      last.dice.forEach((v, i) => parts.push(dieSvg(v, start + i * 56, at.cy, 46, true,
        fmt(_("die %(value)s of the last turn"), { value: v }))));
      parts.push("</g>");
    } else if (this.data.rollOff) {
      const ro = this.data.rollOff;
      const items = [["white", ro.white], ["black", ro.black]].filter(([, v]) => v);
      items.forEach(([colour, v], i) => parts.push(`<g class="rolloff-die ${colour}">${dieSvg(
        v, g.dice.cx + (i - (items.length - 1) / 2) * 60, g.dice.cy, 42, false,
        fmt(colour === "white" ? _("White rolled %(die)s") : _("Black rolled %(die)s"),
            { die: v }))}</g>`));
    }

    // R13: the head counter, beside the head, in Long Nardy.
    // The counter is the side to move's, drawn at *its* head (the
    // opponent's is our 24 in its numbering), on the outer side of the head's point, so
    // it never lies over the dice (drawn towards the middle of each half).
    if (this.data.headMayLeave > 0) {
      const owner = this.data.headOwner || mine;
      const at = stepFor({ from: 24, to: 24 }, owner, mine, this.data.numbering).from;
      const head = g.places["p" + at];
      const width = PW + 44;
      const right = head.cx > g.places.frame.w / 2;
      const x = right ? head.x + PW - width : head.x;
      const y = head.base + head.dir * (head.len + 16);
      parts.push(`<g class="head-badge" data-point="${at}" data-owner="${owner === mine
        ? "mine" : "theirs"}" aria-hidden="true"><rect x="${x}" y="${y - 15}" width="${width}"
        height="22" rx="11"/><text x="${x + width / 2}" y="${y + 1}"
        text-anchor="middle">${escapeText(fmt(_("%(count)s may leave"),
                                              { count: this.data.headMayLeave }))}</text></g>`);
    }

    // The stake on the board as backgammon players expect the cube:
    // in the middle of the bar while nobody owns it (S2; a cube at 1 shows 64 there, as
    // gnubg draws it), at its owner's edge of the bar once owned (S2: the side that
    // accepted the last raise) — the bottom edge ours, the top edge theirs (narrow: the
    // ends of the strip's tray cell). Dave's stake is drawn the same way, its own value.
    if (this.data.stake) {
      const st = this.data.stake;
      const owner = st.owner === mine ? "mine" : st.owner === theirs ? "theirs" : "none";
      const size = 34;
      const toward = owner === "mine" ? 1 : owner === "theirs" ? -1 : 0;
      const cx = g.cube.cx, cy = g.cube.cy + toward * g.cube.reach;
      const shown = st.face || st.value;
      parts.push(`<g class="cube" role="img" data-stake="${st.value}" data-owner="${owner}"
        data-holder="${st.holder === mine ? "mine" : st.holder === theirs ? "theirs"
          : st.holder || ""}" data-face="${escapeText(shown)}"
        aria-label="${escapeText(st.label)}"><rect x="${cx - size / 2}" y="${cy - size / 2}"
        width="${size}" height="${size}" rx="6" class="cube-face"/><text x="${cx}" y="${cy + 7}"
        text-anchor="middle" class="cube-value">${escapeText(shown)}</text></g>`);
    }

    // A play drawn over the board on request (the review's best
    // alternative): an arrow per step and a ghost checker where each step lands.
    // `hint.steps` are in our numbering; `hint.side` is whose bar and tray 25 and 0 are.
    if (this.data.hint && this.data.hint.steps && this.data.hint.steps.length) {
      parts.push(this.hintSvg(this.data.hint, points, mine));
    }

    const view = mine === "white" ? _("White's view") : _("Black's view");
    const boardLabel = fmt(_("Board, %(view)s; arrow keys move between points, Enter or Space "
                             + "picks a checker and lands it; N and P: the next or previous "
                             + "checker or landing; a die's number lands with that die; "
                             + "Backspace takes a step back"), { view });
    this.host.innerHTML = `<svg xmlns="${SVG_NS}" class="board${g.narrow ? " narrow" : ""}"
      viewBox="0 0 ${g.width} ${g.height}" role="group" data-perspective="${mine}"
      data-layout="${g.narrow ? "narrow" : "wide"}"
      aria-label="${escapeText(boardLabel)}">
      ${parts.join("")}</svg>`;

    const moves = this.data.animate;
    if (moves && moves.id !== this.animatedId) {
      this.animatedId = moves.id;
      this.slide(moves.steps, moves.side === mine);
    }
    this.host.dataset.animated = String(this.animated);

    // Roving tabindex: one stop on the board, the arrows do the rest.
    const keep = this.focusKey && this.focusable.includes(this.focusKey) ? this.focusKey
      : this.selected || [...sources][0] || "p24";
    for (const el of this.host.querySelectorAll("[data-key]")) {
      el.setAttribute("tabindex", el.dataset.key === keep ? "0" : "-1");
    }
    if (hadFocus) {
      const el = this.host.querySelector(`[data-key="${keep}"]`);
      if (el) el.focus();
    }
  }

  /** Slide the checkers of `steps` (in our numbering) from where they
   *  were to where they are drawn now: a short CSS transition of each moved checker, in
   *  turn (a checker moved twice slides once, from its first point to its last). Not
   *  with prefers-reduced-motion. */
  slide(steps, own) {
    if (!steps || !steps.length || window.matchMedia(REDUCED_MOTION).matches) return;
    const chains = [];
    for (const st of steps) {
      const chain = chains.find((c) => c.to === st.from && st.from !== 25 && st.from !== 0);
      if (chain) chain.to = st.to; else chains.push({ from: st.from, to: st.to });
    }
    const places = this.geometry.places;
    const keyOf = (p) => (p === 25 ? (own ? "bar" : "barTheirs")
      : p === 0 ? (own ? "off" : "offTheirs") : "p" + p);
    chains.forEach((chain, i) => {
      const group = this.host.querySelector(`[data-key="${keyOf(chain.to)}"]`)
        || this.host.querySelector(`g.${chain.to === 0 ? "off" : "bar"}.${own ? "mine" : "theirs"}`);
      const from = places[keyOf(chain.from)];
      if (!group || !from) return;
      const checkers = group.querySelectorAll(".checker, .slab");
      const el = checkers[checkers.length - 1];
      if (!el) return;
      const box = el.getBBox();
      let fx = from.cx, fy = from.cy;
      if (from.kind === "point") {
        const n = Math.abs((this.data.board.points || {})[String(from.point)] || 0);
        const at = this.stackPositions(from, n + 1)[n];
        fx = at.cx; fy = at.cy;
      }
      const dx = fx - (box.x + box.width / 2), dy = fy - (box.y + box.height / 2);
      el.style.transform = `translate(${dx}px, ${dy}px)`;
      el.classList.add("sliding");
      el.getBoundingClientRect();   // the start is drawn before the transition
      el.style.transitionDelay = `${i * 180}ms`;
      el.style.transform = "";
      this.animated += 1;
      el.addEventListener("transitionend", () => el.classList.remove("sliding"), { once: true });
    });
  }

  /** The arrows and ghost checkers of `hint` (see render), drawn over everything. */
  hintSvg(hint, points, mine) {
    const own = hint.side === mine;
    const sign = own ? 1 : -1;   // the mover's checkers' sign in our numbering
    const places = this.geometry.places;
    const keyOf = (p) => (p === 25 ? (own ? "bar" : "barTheirs")
      : p === 0 ? (own ? "off" : "offTheirs") : "p" + p);
    const counts = new Map();   // signed counts of the points as the play goes
    const countOf = (p) => (counts.has(p) ? counts.get(p) : points[String(p)] || 0);
    const spot = (p, index) => {
      const place = places[keyOf(p)];
      if (place.kind !== "point") return { cx: place.cx, cy: place.cy };
      return this.stackPositions(place, index + 1)[index];
    };
    const colour = own ? mine : other(mine);
    const out = [`<g class="hint" data-side="${hint.side}" data-steps="${hint.steps.length}"
      aria-hidden="true">`];
    const ghosts = [], arrows = [];
    for (const st of hint.steps) {
      const fromPoint = st.from !== 25 && st.from !== 0;
      const a = spot(st.from, fromPoint ? Math.max(Math.abs(countOf(st.from)), 1) - 1 : 0);
      if (fromPoint) counts.set(st.from, countOf(st.from) - sign);
      let b;
      if (st.to === 0) {
        b = spot(0, 0);
      } else {
        // H7: landing on a lone opposing checker hits it; the ghost stands in its place.
        const hit = this.data.hitting && countOf(st.to) === -sign;
        const n = hit ? 0 : Math.abs(countOf(st.to));
        b = spot(st.to, n);
        counts.set(st.to, hit ? sign : countOf(st.to) + sign);
        ghosts.push(b);
      }
      const dx = b.cx - a.cx, dy = b.cy - a.cy, len = Math.hypot(dx, dy) || 1;
      const ux = dx / len, uy = dy / len, head = 16;
      const ex = b.cx - ux * 6, ey = b.cy - uy * 6;
      arrows.push(`<line class="hint-arrow" x1="${a.cx}" y1="${a.cy}" x2="${ex - ux * head}"
        y2="${ey - uy * head}" data-from="${st.from}" data-to="${st.to}"/>`);
      arrows.push(`<polygon class="hint-head" points="${ex},${ey} ${ex - ux * head - uy * 9},${
        ey - uy * head + ux * 9} ${ex - ux * head + uy * 9},${ey - uy * head - ux * 9}"/>`);
    }
    for (const g of ghosts) out.push(this.checkerSvg(g.cx, g.cy, colour, " ghost"));
    out.push(...arrows, "</g>");
    return out.join("");
  }

  stackPositions(place, n) {
    const room = place.len - 8;
    const step = n <= 1 ? 0 : Math.min(2 * R, (room - 2 * R) / (n - 1));
    return Array.from({ length: n }, (_, i) => ({
      cx: place.cx, cy: place.base + place.dir * (R + 4 + i * step) }));
  }

  checkerSvg(cx, cy, colour, extra = "", r = R) {
    return `<g class="checker ${colour}${extra}"><circle cx="${cx}" cy="${cy}" r="${r}"
      fill="url(#c-${colour})" class="checker-body"/><circle cx="${cx}" cy="${cy}"
      r="${r * 0.62}" class="checker-ring"/></g>`;
  }

  pointSvg(key, place, p, count, flags) {
    const { x, base, dir, len } = place;
    const tip = base + dir * (len - 12);
    const shade = p % 2 ? "light" : "dark";
    const n = Math.abs(count);
    const colour = n ? this.colourOf(count) : "";
    const cls = ["pt", shade, flags.source && "source", flags.selected && "selected",
                 flags.landing && "landing", flags.last && `last-${flags.last}`]
      .filter(Boolean).join(" ");
    const out = [`<g class="${cls}" data-key="${key}" data-point="${p}" data-count="${n}"
      data-last="${flags.last || ""}"
      data-colour="${colour}" role="button" tabindex="-1"
      aria-label="${escapeText(this.label(key, count, flags))}">`];
    const hitTop = dir > 0 ? base : base - len;
    out.push(`<rect class="hit" x="${x}" y="${hitTop}" width="${PW}" height="${len}"/>`);
    out.push(`<polygon class="tri" points="${x + 2},${base} ${x + PW - 2},${base} ${x + PW / 2},${tip}"/>`);
    if (flags.landing) {
      out.push(`<polygon class="landing-mark" points="${x + 3},${base} ${x + PW - 3},${base} ${x + PW / 2},${tip}"/>`);
    }
    if (flags.last) {
      // The last turn, seen at a glance: the whole point lit (to: filled, from: dashed
      // outline), drawn under the checkers, and a bar at the point's base.
      out.push(`<polygon class="last-tri ${flags.last}" points="${x + 2},${base} ${x + PW - 2},${
        base} ${x + PW / 2},${tip}" aria-hidden="true"/>`);
      out.push(`<rect class="last-mark ${flags.last}" x="${x + 6}" y="${dir > 0 ? base + 1
        : base - 7}" width="${PW - 12}" height="6" rx="3" aria-hidden="true"/>`);
    }
    const stack = this.stackPositions(place, n);
    stack.forEach((pos, i) => {
      const top = i === n - 1;
      const extra = top && flags.selected ? " lifted" : top && flags.source ? " movable" : "";
      out.push(this.checkerSvg(pos.cx, pos.cy, colour, extra));
    });
    if (n > 4) {
      const pos = stack[n - 1];
      out.push(`<text class="count ${colour}" x="${pos.cx}" y="${pos.cy + 6}"
        text-anchor="middle" aria-hidden="true">${n}</text>`);
    }
    if (flags.hits) {
      const blot = stack[0];
      out.push(`<g class="hit-mark" aria-hidden="true"><line x1="${blot.cx - 12}" y1="${blot.cy - 12}"
        x2="${blot.cx + 12}" y2="${blot.cy + 12}"/><line x1="${blot.cx + 12}" y1="${blot.cy - 12}"
        x2="${blot.cx - 12}" y2="${blot.cy + 12}"/></g>`);
    }
    if (flags.landing) {
      // Not colour alone: a ring with a dot where the checker would land.
      const at = this.stackPositions(place, n + 1)[n];
      out.push(`<g class="landing-spot" aria-hidden="true"><circle cx="${at.cx}" cy="${at.cy}"
        r="${R - 3}"/><circle cx="${at.cx}" cy="${at.cy}" r="5" class="dot"/></g>`);
    }
    out.push(`<rect class="focus-ring" x="${x + 1}" y="${hitTop + 1}" width="${PW - 2}"
      height="${len - 2}" rx="6"/>`);
    out.push("</g>");
    return out.join("");
  }

  trayLike(key, place, count, colour, flags, kind) {
    const focusable = flags !== null;
    // The last turn's mark on a tray too: a checker borne off or entered from the bar.
    const last = (this.lastMarks && this.lastMarks.get(key)) || "";
    const cls = [kind, key === "bar" || key === "off" ? "mine" : "theirs",
                 flags && flags.source && "source", flags && flags.selected && "selected",
                 flags && flags.landing && "landing", last && `last-${last}`]
      .filter(Boolean).join(" ");
    const attrs = focusable
      ? `data-key="${key}" role="button" tabindex="-1" aria-label="${escapeText(
        this.label(key, count, flags))}"`
      : `role="img" aria-label="${escapeText(`${kind === "bar" ? _("bar") : _("borne off")}, ${
        checkers(count, colour)}`)}"`;
    const out = [`<g class="${cls}" ${attrs} data-tray="${key}" data-last="${last}"
      data-count="${count}" data-colour="${colour}">`];
    out.push(`<rect class="tray-bg" x="${place.x}" y="${place.y}" width="${place.w}"
      height="${place.h}" rx="6"/>`);
    if (last) {
      out.push(`<rect class="last-mark tray-mark ${last}" x="${place.x + 2}" y="${place.y + 2}"
        width="${place.w - 4}" height="${place.h - 4}" rx="5" aria-hidden="true"/>`);
    }
    if (kind === "off") {
      // Borne-off checkers lie on their edge: thin slabs.
      const slab = Math.min(12, (place.h - 12) / 15);
      for (let i = 0; i < count; i++) {
        const y = place.dir > 0 ? place.y + 6 + i * slab : place.y + place.h - 6 - (i + 1) * slab;
        out.push(`<rect class="slab ${colour}" x="${place.x + 8}" y="${y}" width="${place.w - 16}"
          height="${slab - 2}" rx="3"/>`);
      }
      if (count) {
        out.push(`<text class="tray-count" x="${place.cx}" y="${place.dir > 0
          ? place.y + place.h - 10 : place.y + 20}" text-anchor="middle"
          aria-hidden="true">${count}</text>`);
      }
    } else if (count) {
      const r = place.axis === "h" ? 15 : R - 4;
      const shown = Math.min(count, 4);
      for (let i = 0; i < shown; i++) {
        const cx = place.axis === "h" ? place.cx + place.dir * (i * 2 * r - (shown - 1) * r)
                                      : place.cx;
        const cy = place.axis === "h" ? place.cy
          : place.dir > 0 ? place.y + place.h - r - 6 - i * 2 * r : place.y + r + 6 + i * 2 * r;
        const top = i === shown - 1;
        const extra = top && flags && flags.selected ? " lifted"
          : top && flags && flags.source ? " movable" : "";
        out.push(this.checkerSvg(cx, cy, colour, extra, r));
      }
      if (count > 1) {
        out.push(`<text class="tray-count" x="${place.cx}" y="${place.axis === "h"
          ? place.cy + 5 : place.dir > 0 ? place.y + 18 : place.y + place.h - 8}"
          text-anchor="middle" aria-hidden="true">${count}</text>`);
      }
    }
    if (flags && flags.landing) {
      out.push(`<rect class="landing-mark" x="${place.x + 2}" y="${place.y + 2}"
        width="${place.w - 4}" height="${place.h - 4}" rx="6"/>`);
      out.push(`<g class="landing-spot" aria-hidden="true"><circle cx="${place.cx}"
        cy="${place.cy}" r="${Math.min(R - 3, place.w / 2 - 6)}"/><circle cx="${place.cx}"
        cy="${place.cy}" r="5" class="dot"/></g>`);
      if (flags.dice && flags.dice.length > 1) {
        out.push(`<text class="dice-hint" x="${place.cx}" y="${place.cy + R + 18}"
          text-anchor="middle" aria-hidden="true">${flags.dice.join(" / ")}</text>`);
      }
    }
    if (focusable) {
      out.push(`<rect class="focus-ring" x="${place.x + 1}" y="${place.y + 1}"
        width="${place.w - 2}" height="${place.h - 2}" rx="6"/>`);
    }
    out.push("</g>");
    return out.join("");
  }
}
