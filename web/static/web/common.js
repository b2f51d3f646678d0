// What every screen of the play page shares: the page's elements, who is signed in, h()
// to build elements, the toast, errors explained, storage, and the tables of texts
// (stake names, clocks, results, colours). No screen of its own; no API call except
// through attempt().

import { ApiError, SIDES, defaultRules, otherSide, ruleSet } from "./api.js";
import { _, f, ngettext, side } from "./i18n.js";

export const app = document.getElementById("app");
const toastEl = document.getElementById("toast");

/** Who is signed in (`session.me`, a username or null; `session.guest`: a guest
 *  identity, guest.js): account.js keeps it. */
export const session = { me: app.dataset.me || null, guest: app.dataset.guest === "1" };

export const PAGE_TITLE = document.title;

// --- elements -----------------------------------------------------------------------

/** An element: `h("button", { class, onclick, text, "data-x": … }, ...children)`. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function button(label, fn, attrs = {}) {
  return h("button", { type: "button", onclick: fn, ...attrs }, label);
}

/** `parent`'s children made `nodes`, keeping each old child equal to its new one (same
 *  tag, attributes, text: the same control): a control drawn again under the pointer
 *  is not swapped between the press and the release, which would lose the click. */
export function replaceChildrenKeeping(parent, nodes) {
  const old = [...parent.childNodes];
  const kept = nodes.map((node, i) => (old[i] && old[i].isEqualNode(node) ? old[i] : node));
  if (kept.length === old.length && kept.every((node, i) => node === old[i])) return;
  parent.replaceChildren(...kept);
}

export const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

// --- the toast, errors --------------------------------------------------------------

export function toast(message, kind = "info") {
  toastEl.textContent = message;
  toastEl.className = `toast show ${kind}`;
  placeToast();
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { toastEl.className = "toast"; }, 4000);
}

// A phone in portrait (play.css): the match's facts (the players' names) under the top
// bar, then a line of the log, then the board. The toast sits on that log line, its
// bottom on the board's top edge, growing upwards (play.css caps its height) — over the
// players only when long.
const PORTRAIT_PHONE = "(max-width: 480px)";

function placeToast() {
  toastEl.style.top = "";
  toastEl.style.bottom = "";
  const log = document.getElementById("match-log");
  if (!log || !window.matchMedia(PORTRAIT_PHONE).matches) return;
  toastEl.style.top = "auto";
  toastEl.style.bottom = `${Math.max(0, window.innerHeight - log.getBoundingClientRect().bottom)}px`;
}

/** Takes a hit toast away (a new turn of theirs: it is not about this one). */
export function clearHitToast() {
  if (toastEl.classList.contains("hit")) toastEl.className = "toast";
}

export function explain(error) {
  if (error instanceof ApiError) {
    const fields = Object.entries(error.details || {})
      .filter(([, v]) => Array.isArray(v)).map(([k, v]) => `${k}: ${v.join(" ")}`);
    return fields.length ? `${error.message} (${fields.join("; ")})` : error.message;
  }
  return _("The server could not be reached.");
}

const authLost = [];
/** `fn()` when an answer says the session is gone (account.js re-reads who is in). */
export function onAuthLost(fn) { authLost.push(fn); }

/** `fn()`'s answer, or undefined after a toast explaining its error (none if quiet). */
export async function attempt(fn, { quiet = false } = {}) {
  try {
    return await fn();
  } catch (error) {
    if (!quiet) toast(explain(error), "error");
    if (error instanceof ApiError && error.code === "not_authenticated") {
      for (const lost of authLost) lost();
    }
    return undefined;
  }
}

// --- navigation (app.js routes on hashchange) ----------------------------------------

export function go(hash) {
  if (location.hash !== hash) location.hash = hash;
}

/** Opens the current hash's view again (app.js's router listens to hashchange). */
export function reopen() {
  window.dispatchEvent(new HashChangeEvent("hashchange"));
}

// --- storage, sound ------------------------------------------------------------------

// The opt-in auto-confirm of a drafted turn, remembered in this browser.
export const AUTO_CONFIRM = "nard.autoConfirm";
export const SOUND = "nard.sound";   // a beep on your move (off by default)
export const stored = (key) => { try { return localStorage.getItem(key); } catch { return null; } };
export const store = (key, value) => {
  try { localStorage.setItem(key, value); } catch { /* private */ }
};

// Moves written in each mover's own numbering (as gnubg and backgammon players write
// them) instead of the viewer's: a choice kept per player in this browser.
const OWN_NUMBERING = "nard.ownNumbering";
const numberingKey = () => `${OWN_NUMBERING}:${session.me || ""}`;
export const ownNumbering = () => stored(numberingKey()) === "1";

/** The switch for `ownNumbering`, calling `changed()` when it is turned. */
export function numberingSwitch(changed) {
  return h("label", { class: "numbering-switch" }, h("input", {
    type: "checkbox", id: "own-numbering", checked: ownNumbering(),
    onchange: (e) => { store(numberingKey(), e.target.checked ? "1" : "0"); changed(); } }),
  " ", _("Each mover's own numbering"));
}

let audio = null;
export function beep() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const osc = audio.createOscillator(), gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
  } catch { /* no audio here */ }
  document.body.dataset.beeps = String(Number(document.body.dataset.beeps || 0) + 1);
}

// --- texts ---------------------------------------------------------------------------

// A rule set's title and its results' names come from GET rules/ (api.js ruleSet), in
// English, translated here: the catalogue holds the titles and result names.
export const rulesTitle = (name) => {
  const d = ruleSet(name);
  return d ? _(d.title) : name || "";
};
export const STAKE_NAMES = { none: _("No stakes"), cube: _("Doubling cube"),
                             dave: _("Dave (raises)") };
export const CLOCKS = [["", _("No clock")], ["30", _("30 s a turn")], ["60", _("1 min a turn")],
                       ["300", _("5 min a turn")], ["3600", _("1 hour a turn")],
                       ["86400", _("1 day a turn")]];
// A game's result: a rule set's result name (single, mars, …; the catalogue has each), or
// one of the two ends off the board.
const END_NAMES = { refused: _("refused raise"), resigned: _("resigned") };
export const resultWord = (name) => END_NAMES[name] || _(name);
export const COLOUR_NAMES = { random: _("Random"), white: _("White"), black: _("Black") };
// "you: white", "(black)" inside a sentence: the colour as a word, not a title.
export const COLOUR_WORDS = { white: _("white"), black: _("black") };
export const STATUS_NAMES = { open: _("open"), invited: _("invited"), active: _("active"),
                              finished: _("finished"), aborted: _("aborted") };
// The server's pass reasons (R23) are English words of the API: the known ones translated.
const REASONS = { "no legal move": _("no legal move") };
export const reasonText = (reason) => REASONS[reason || "no legal move"] || reason;

/** "23/21*", "bar/20", "3/off": a step as the log writes it. */
export function stepText(step) {
  const from = step.from === 25 ? _("bar") : step.from;
  const to = step.to === 0 ? _("off") : step.to;
  return `${from}/${to}${step.hit ? "*" : ""}`;
}

/** A turn's play as the log and the replay write it: its steps ("24/20 20/16"); a turn
 *  cut short ("24/20 20/16 — the rest could not be played": a pass after some steps,
 *  common in Long Nardy); a pass ("pass (no legal move)"); the roll a resignation left
 *  unplayed (`resigned`: "not played: the game was resigned"). `steps`: the steps' text. */
export function turnText(steps, passed, reason, resigned = false) {
  if (!passed && !steps && resigned) return _("not played: the game was resigned");
  if (!passed) return steps || "…";
  if (!steps) return f(_("pass (%(reason)s)"), { reason: reasonText(reason) });
  return f(_("%(steps)s — the rest could not be played"), { steps });
}

/** Whether turn `t` is the last of `game` and that game ended by a resignation (or a
 *  claim, or the match abandoned: a resignation too) before the turn was played. */
export function resignedTurn(game, t, turns) {
  return Boolean(game && ["resigned", "claimed", "abandoned"].includes(game.end_reason)
    && t.finished_at && !t.passed && !(t.steps || []).length
    && turns[turns.length - 1] === t);
}

// The built-in computer's accounts are computer-<level> (games.opponents.PREFIX; no one
// may register such a name): the page knows them without reading each profile.
const COMPUTER_PREFIX = "computer-";
export const isComputer = (name) => Boolean(name) && name.startsWith(COMPUTER_PREFIX);

/** "#12 alice v bob · Long Nardy · 3 pts": a match's one-line title. */
export function matchTitle(m) {
  const rules = rulesTitle(m.rules || defaultRules());
  const names = m.hotseat ? f(_("%(name)s (hotseat)"), { name: m.white })
    : f(_("%(white)s v %(black)s"), { white: m.white || "?",
                                       black: m.black || m.invited || _("open seat") });
  return `#${m.id} ${names} · ${rules} · `
    + ngettext("%(count)s pt", "%(count)s pts", m.length)
    + (m.rated ? ` · ${_("rated")}` : "");
}

/** A game's result as a word: "mars", "resigned", "gammon", … */
export function resultName(game) {
  if (game.end_reason === "resigned" && game.result && game.result !== "resigned") {
    // An offer to resign with this result, accepted.
    return f(_("%(result)s, resigned"), { result: resultWord(game.result) });
  }
  if (game.result) return resultWord(game.result);
  if (game.end_reason === "resigned") return game.mars ? _("mars, resigned") : _("resigned");
  return game.mars ? _("mars") : _("single");
}

/** "You won 2–0", "You lost 2–0", "Black wins 2–0": from the viewer's
 *  side when it plays (not in hotseat), else by colour; the winner's score first always,
 *  as the lobby's "The computer won 2–0". */
export function matchOutcome(m) {
  const score = m.score || { white: 0, black: 0 };
  const won = score[m.winner], lost = score[otherSide(m.winner)];
  const me = session.me;
  const mine = !m.hotseat && me ? SIDES.find((c) => m[c] === me) : null;
  if (mine === m.winner) return f(_("you won %(mine)s–%(theirs)s"), { mine: won, theirs: lost });
  if (mine) return f(_("you lost %(won)s–%(lost)s"), { won, lost });
  return f(_("%(side)s wins %(won)s–%(lost)s"), { side: side(m.winner), won, lost });
}

/** A text without the rule book's references ("(R29)", "(H15, H16)"): for the rules'
 *  readers, not for players. */
export const withoutRuleCodes = (text) =>
  String(text || "").replace(/\s*\((?:[RHS]\d+(?:[,–-]\s*)?)+\)/g, "");

/** The rule set's one-line explanation of a game's result (GET rules/ results[]),
 *  without its rule-book code. */
export function resultExplanation(game, rules) {
  const d = ruleSet(rules);
  const kind = d && (d.results || []).find((r) => r.name === game.result);
  return kind && kind.explanation && game.end_reason !== "resigned"
    && (kind.worth ?? kind.points) > 1 ? withoutRuleCodes(_(kind.explanation)) : "";
}

/** "Game 2: White wins 2 points — mars". */
export function resultSentence(game) {
  return ngettext("Game %(n)s: %(side)s wins %(count)s point — %(result)s",
                  "Game %(n)s: %(side)s wins %(count)s points — %(result)s", game.points,
                  { n: game.number, side: side(game.winner), result: resultName(game) });
}
