// The play page around the board: log in, the lobby, and a match. It talks only to the
// public API (api.js) and the match's event channel (live.js); the board (board.js)
// draws and takes the player's steps.

import { API, ApiError, SIDES, api, defaultRules, features, levelsFor, otherSide, ruleSet,
         serverNow } from "./api.js";
import { Board, applySteps, stepFor } from "./board.js";
import { MatchLive, wake } from "./live.js";
import { _, f, ngettext, side } from "./i18n.js";
import { matchOverText, pairingPanel, ratingsPanel } from "./ratings.js";  // issue 25

const app = document.getElementById("app");
const who = document.getElementById("who");
const toastEl = document.getElementById("toast");
let me = app.dataset.me || null;
let current = null;   // the open view: { stop() }

// A rule set's title and its results' names come from GET rules/ (api.js ruleSet), in
// English, translated here: the catalogue holds the titles and result names.
const rulesTitle = (name) => {
  const d = ruleSet(name);
  return d ? _(d.title) : name || "";
};
const STAKE_NAMES = { none: _("No stakes"), cube: _("Doubling cube"), dave: _("Dave (raises)") };
const CLOCKS = [["", _("No clock")], ["30", _("30 s a turn")], ["60", _("1 min a turn")],
                ["300", _("5 min a turn")], ["3600", _("1 hour a turn")],
                ["86400", _("1 day a turn")]];
// A game's result: a rule set's result name (single, mars, …; the catalogue has each), or
// one of the two ends off the board.
const END_NAMES = { refused: _("refused raise"), resigned: _("resigned") };
const resultWord = (name) => END_NAMES[name] || _(name);
const COLOUR_NAMES = { random: _("Random"), white: _("White"), black: _("Black") };
// "you: white", "(black)" inside a sentence: the colour as a word, not a title.
const COLOUR_WORDS = { white: _("white"), black: _("black") };
const STATUS_NAMES = { open: _("open"), invited: _("invited"), active: _("active"),
                       finished: _("finished"), aborted: _("aborted") };
// The server's pass reasons (R23) are English words of the API: the known ones translated.
const REASONS = { "no legal move": _("no legal move") };
const reasonText = (reason) => REASONS[reason || "no legal move"] || reason;

// --- small helpers ------------------------------------------------------------------

function h(tag, attrs = {}, ...children) {
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

const cap = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

function toast(message, kind = "info") {
  toastEl.textContent = message;
  toastEl.className = `toast show ${kind}`;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { toastEl.className = "toast"; }, 4000);
}

function explain(error) {
  if (error instanceof ApiError) {
    const fields = Object.entries(error.details || {})
      .filter(([, v]) => Array.isArray(v)).map(([k, v]) => `${k}: ${v.join(" ")}`);
    return fields.length ? `${error.message} (${fields.join("; ")})` : error.message;
  }
  return _("The server could not be reached.");
}

async function attempt(fn, { quiet = false } = {}) {
  try {
    return await fn();
  } catch (error) {
    if (!quiet) toast(explain(error), "error");
    if (error instanceof ApiError && error.code === "not_authenticated") refreshWho();
    return undefined;
  }
}

// The opt-in auto-confirm of a drafted turn, remembered in this browser.
const AUTO_CONFIRM = "nard.autoConfirm";
const SOUND = "nard.sound";   // issue 23 item 9: a beep when it is your move (off by default)
const PAGE_TITLE = document.title;
let audio = null;
function beep() {
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
const stored = (key) => { try { return localStorage.getItem(key); } catch { return null; } };
const store = (key, value) => { try { localStorage.setItem(key, value); } catch { /* private */ } };

function stepText(step) {
  const from = step.from === 25 ? _("bar") : step.from;
  const to = step.to === 0 ? _("off") : step.to;
  return `${from}/${to}${step.hit ? "*" : ""}`;
}

// --- who is logged in ---------------------------------------------------------------

function renderWho() {
  who.replaceChildren();
  if (me) {
    who.append(h("span", { class: "me", "data-testid": "me" }, _("Signed in as"), " ",
                 h("strong", {}, me)),
               h("button", { type: "button", class: "link", id: "logout",
                             onclick: logout }, _("Log out")));
  }
}

async function refreshWho() {
  const session = await attempt(() => api.session.get(), { quiet: true });
  if (session) me = session.username;
  renderWho();
}

async function logout() {
  await attempt(() => api.session.logout());
  me = null;
  renderWho();
  go("#/");
  route();
}

// --- routing ------------------------------------------------------------------------

function go(hash) {
  if (location.hash !== hash) location.hash = hash;
}

function route() {
  if (current) current.stop();
  current = null;
  const m = location.hash.match(/^#\/match\/(\d+)/);
  if (m) current = openMatch(Number(m[1]));
  else current = openLobby();
}

window.addEventListener("hashchange", route);

// --- the lobby ----------------------------------------------------------------------

function authForms(onDone) {
  const loginForm = h("form", { class: "card", id: "login-form", "aria-labelledby": "login-h" },
    h("h2", { id: "login-h" }, _("Log in")),
    h("label", {}, _("Username"), h("input", { name: "username", autocomplete: "username",
                                               required: true })),
    h("label", {}, _("Password"), h("input", { name: "password", type: "password",
                                               autocomplete: "current-password",
                                               required: true })),
    h("button", { type: "submit" }, _("Log in")));
  loginForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = new FormData(loginForm);
    const session = await attempt(() => api.session.login(data.get("username"),
                                                          data.get("password")));
    if (session) { me = session.username; renderWho(); onDone(); }
  });
  const registerForm = h("form", { class: "card", id: "register-form",
                                   "aria-labelledby": "register-h" },
    h("h2", { id: "register-h" }, _("New here? Register")),
    h("label", {}, _("Username"), h("input", { name: "username", autocomplete: "username",
                                               required: true })),
    h("label", {}, _("Password"), h("input", { name: "password", type: "password",
                                               autocomplete: "new-password", required: true })),
    h("label", {}, _("Email (optional)"), h("input", { name: "email", type: "email",
                                                       autocomplete: "email" })),
    h("button", { type: "submit" }, _("Register and log in")));
  registerForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = new FormData(registerForm);
    const body = { username: data.get("username"), password: data.get("password") };
    if (data.get("email")) body.email = data.get("email");
    const made = await attempt(() => api.post("accounts/register/", body));
    if (!made) return;
    const session = await attempt(() => api.session.login(body.username, body.password));
    if (session) { me = session.username; renderWho(); toast(f(_("Welcome, %(name)s!"), { name: me })); onDone(); }
  });
  return h("div", { class: "auth" }, loginForm, registerForm);
}

async function createForm(onCreated) {
  const offer = await features();
  const field = (label, control, extra = {}) => h("label", extra, label, control);
  const options = (values, names = {}) => values.map((v) =>
    h("option", { value: v }, names[v] || cap(String(v).replace(/_/g, " "))));

  const modes = [["open", _("Open seek (anyone may join)")], ["invite", _("Invite a player")],
                 ["hotseat", _("Hotseat (both sides on this screen)")]];
  if (offer.computer) modes.push(["computer", _("Against the computer")]);
  const modeSelect = h("select", { name: "mode", id: "create-mode" }, modes.map(([v, t]) =>
    h("option", { value: v }, t)));
  const opponent = field(_("Opponent"), h("input", { name: "opponent", id: "create-opponent",
                                                  autocomplete: "off" }),
                         { class: "opt-invite" });
  const levelSelect = h("select", { name: "computer", id: "create-computer" });
  const levelText = h("p", { class: "level-text opt-computer", id: "create-level-text" });
  const level = offer.computer ? field(_("Level"), levelSelect, { class: "opt-computer" }) : null;
  const rules = offer.rules ? field(_("Rules"), h("select", { name: "rules", id: "create-rules" },
    options(offer.rules, Object.fromEntries(offer.rules.map((r) => [r, rulesTitle(r)])))))
    : null;
  const stakes = offer.stakes ? field(_("Stakes"), h("select", { name: "stakes",
                                                              id: "create-stakes" },
    options(offer.stakes, STAKE_NAMES))) : null;
  const progression = offer.progression ? field(_("Progression"), h("select", {
    name: "progression", id: "create-progression" }, options(offer.progression, {
      geometric: _("Geometric (1, 2, 4, 8 …)"), arithmetic: _("Arithmetic (1, 2, 3, 4 …)") })),
  { class: "opt-dave" }) : null;
  const clock = offer.turnSeconds ? field(_("Clock"), h("select", { name: "turn_seconds",
                                                                 id: "create-clock" },
    CLOCKS.map(([v, t]) => h("option", { value: v }, t))), { class: "opt-clock" }) : null;
  const form = h("form", { class: "card create", id: "create-form",
                           "aria-labelledby": "create-h" },
    h("h2", { id: "create-h" }, _("New match")),
    field(_("Opponent"), modeSelect, { class: "mode" }), opponent, rules, level,
    field(_("Length"), h("select", { name: "length", id: "create-length" },
                         [1, 3, 5, 7].map((n) => h("option", { value: n },
                           ngettext("%(count)s point", "%(count)s points", n))))),
    field(_("Your colour"), h("select", { name: "color", id: "create-color" },
                              options(["random", ...SIDES], COLOUR_NAMES))),
    stakes, progression, clock, offer.computer ? levelText : null,
    h("button", { type: "submit", id: "create-submit" }, _("Create")));
  const rulesNow = () => (form.querySelector("#create-rules") || {}).value || defaultRules();
  const fillLevels = () => {
    // GET computer/ lists the levels per rule set: only those that play the chosen one.
    const chosen = levelSelect.value;
    const levels = levelsFor(offer.computer, rulesNow());
    levelSelect.replaceChildren(...levels.map((l) => h("option", { value: l.level,
                                                                    title: l.text },
                                                         cap(l.level))));
    if (levels.some((l) => l.level === chosen)) levelSelect.value = chosen;
    const picked = levels.find((l) => l.level === levelSelect.value);
    levelText.textContent = picked ? picked.text : _("No level plays these rules yet.");
  };
  const sync = () => {
    const mode = modeSelect.value;
    if (offer.computer) fillLevels();
    form.querySelectorAll(".opt-invite").forEach((el) => { el.hidden = mode !== "invite"; });
    form.querySelectorAll(".opt-computer").forEach((el) => { el.hidden = mode !== "computer"; });
    // A hotseat match has no clock: nobody is waiting for anybody.
    form.querySelectorAll(".opt-clock").forEach((el) => { el.hidden = mode === "hotseat"; });
    const stake = form.querySelector("#create-stakes");
    form.querySelectorAll(".opt-dave").forEach((el) => {
      el.hidden = !stake || stake.value !== "dave"; });
  };
  form.addEventListener("change", sync);
  sync();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const data = new FormData(form);
    const body = { length: Number(data.get("length")), color: data.get("color") };
    const mode = data.get("mode");
    if (mode === "invite") body.opponent = String(data.get("opponent") || "").trim();
    if (mode === "hotseat") body.hotseat = true;
    if (mode === "computer") body.computer = data.get("computer");
    // Only what differs from the defaults: a server without these fields is not asked.
    if (rules && data.get("rules") && data.get("rules") !== defaultRules()) {
      body.rules = data.get("rules");
    }
    if (stakes && data.get("stakes") && data.get("stakes") !== "none") {
      body.stakes = data.get("stakes");
      if (body.stakes === "dave" && progression && data.get("progression")
          && data.get("progression") !== "geometric") {
        body.progression = data.get("progression");
      }
    }
    if (clock && mode !== "hotseat" && data.get("turn_seconds")) {
      body.turn_seconds = Number(data.get("turn_seconds"));
    }
    const match = await attempt(() => api.post("matches/", body));
    if (match) onCreated(match);
  });
  return form;
}

function matchTitle(m) {
  const rules = rulesTitle(m.rules || defaultRules());
  const names = m.hotseat ? f(_("%(name)s (hotseat)"), { name: m.white })
    : f(_("%(white)s v %(black)s"), { white: m.white || "?",
                                       black: m.black || m.invited || _("open seat") });
  return `#${m.id} ${names} · ${rules} · `
    + ngettext("%(count)s pt", "%(count)s pts", m.length)
    + (m.rated ? ` · ${_("rated")}` : "");  // issue 25
}

// The account's own stream (GET stream/: invitations, your_turn, game and match results)
// tells the lobby when to refresh; without it (or while it is down) the lobby polls.
// The built-in computer's accounts are computer-<level> (games.opponents.PREFIX; no one
// may register such a name): the lobby knows them without reading each profile.
const COMPUTER_PREFIX = "computer-";
const isComputer = (name) => Boolean(name) && name.startsWith(COMPUTER_PREFIX);
const ACCOUNT_EVENTS = ["invitation", "paired", "your_turn", "game_over", "match_over", "offer",
                        "joined", "aborted", "deadline", "message"];
const POLL_EVERY = 5000;     // ms, without the stream
const AHEAD_READS = 3;       // state reads in a row for a log ahead of it, then it is shown
const SAFETY_EVERY = 15000;  // ms, with it: open seeks by others are not on the stream

function openLobby() {
  let stopped = false;
  let timer = null;
  let source = null;
  let streaming = false;
  let retry = null;
  const lists = h("div", { class: "lists" });
  const waiting = new Map();   // our matches' statuses at the last refresh
  const lobbyLive = h("p", { class: "lobby-live", id: "lobby-live", "data-mode": "polling",
                             "aria-live": "polite" }, "");
  const root = h("section", { class: "lobby", "aria-label": _("Lobby") });
  app.replaceChildren(root);

  async function build() {
    root.replaceChildren();
    if (!me) {
      root.append(h("p", { class: "intro" }, _("Play Long Nardy and its family against a "
                    + "friend, on one screen, against an open seek or against the computer. "
                    + "Log in or register to begin.")),
                  authForms(build), lists);
    } else {
      root.append(await createForm((match) => {
        if (match.status === "active") go(`#/match/${match.id}`);
        else { toast(match.status === "open" ? _("Seek posted: waiting for an opponent.")
                 : f(_("Invitation sent to %(name)s."), { name: match.invited }));
               refresh(); }
      }), pairingPanel(go), await ratingsPanel(me), lobbyLive, lists);
      follow();
    }
    refresh();
  }

  function setMode(mode) {
    streaming = mode === "stream";
    lobbyLive.dataset.mode = mode;
    lobbyLive.textContent = mode === "stream" ? _("● live") : _("updating every few seconds");
  }

  async function follow() {
    if (source || stopped || !me) return;
    const offer = await features();
    setMode("polling");
    if (!offer.accountStream || typeof EventSource !== "function" || window.__nardNoStream) {
      return;
    }
    let soon = null;
    const changed = () => {   // a burst of items (on connect) is one refresh
      clearTimeout(soon);
      soon = setTimeout(refresh, 150);
    };
    source = new EventSource(`${API}stream/`, { withCredentials: true });
    source.onopen = () => { setMode("stream"); changed(); };
    for (const type of ACCOUNT_EVENTS) {
      source.addEventListener(type, (message) => {
        if (type === "invitation") {
          try {
            const d = JSON.parse(message.data);
            if (d && d.by) {
              toast(ngettext("%(name)s invites you to a %(count)s-point match.",
                             "%(name)s invites you to a %(count)s-point match.", d.length,
                             { name: d.by }));
            }
          } catch { /* the refresh shows it anyway */ }
        }
        changed();
      });
    }
    source.onmessage = changed;
    source.onerror = () => {
      // Closed or refused (401 after a log-out, 429, a server without streams): poll,
      // and try the stream again later.
      if (source) source.close();
      source = null;
      setMode("polling");
      if (!stopped) {
        clearTimeout(timer);
        timer = setTimeout(refresh, POLL_EVERY);
        clearTimeout(retry);
        retry = setTimeout(follow, 30000);
      }
    };
  }

  const row = (m, ...buttons) => h("li", { class: "match-row", "data-match": m.id,
                                          "data-status": m.status },
    h("a", { href: `#/match/${m.id}` }, matchTitle(m)),
    h("span", { class: `status ${m.status}` }, m.status === "active"
      ? `${m.score.white}–${m.score.black}` : m.status === "finished"
        ? wonText(m)
        : STATUS_NAMES[m.status] || m.status),
    h("span", { class: "buttons" }, buttons));
  /** Who won a finished match, from the viewer's side: "You won 3–1", "The computer
   *  won 2–0", "bob won 3–2" (the winner's score first); a hotseat match by colour. */
  function wonText(m) {
    const score = m.score || { white: 0, black: 0 };
    if (m.hotseat || !m.winner) {
      return f(_("%(side)s won %(white)s–%(black)s"), { side: side(m.winner), ...score });
    }
    const name = m[m.winner];
    const values = { name, won: score[m.winner], lost: score[otherSide(m.winner)] };
    if (name && name === me) return f(_("You won %(won)s–%(lost)s"), values);
    if (isComputer(name)) return f(_("The computer won %(won)s–%(lost)s"), values);
    return f(_("%(name)s won %(won)s–%(lost)s"), values);
  }
  const act = (label, fn, cls = "") => h("button", { type: "button", class: cls,
                                                     onclick: fn }, label);

  async function refresh() {
    clearTimeout(timer);
    await features();   // the rule sets' titles (GET rules/) before the first row
    const [open, mine] = await Promise.all([
      attempt(() => api.get("matches/?status=open"), { quiet: true }),
      me ? attempt(() => api.get(`matches/?player=${encodeURIComponent(me)}`), { quiet: true })
         : Promise.resolve(null),
    ]);
    if (stopped) return;
    const results = (page) => (page && (page.results || page)) || [];
    const invitations = results(mine).filter((m) => m.status === "invited" && m.invited === me);
    const seeks = results(open);
    const myMatches = results(mine).filter((m) => !(m.status === "invited" && m.invited === me));
    // Issue 23 item 9: our invitation or seek was just accepted: to the match.
    const started = myMatches.find((m) => m.status === "active"
                                          && ["invited", "open"].includes(waiting.get(m.id)));
    waiting.clear();
    for (const m of myMatches) waiting.set(m.id, m.status);
    if (started) { go(`#/match/${started.id}`); return; }
    const post = (path, then) => async () => {
      const answer = await attempt(() => api.post(path, {}));
      if (answer) then(answer);
    };
    // Logged out: no invitations nor matches (replaceChildren would write a null as "null").
    lists.replaceChildren(...[
      me ? h("section", { class: "card", id: "invitations", "aria-labelledby": "inv-h" },
        h("h2", { id: "inv-h" }, _("Invitations to you")),
        invitations.length ? h("ul", {}, invitations.map((m) => row(m,
          act(_("Accept"), post(`matches/${m.id}/join/`, () => go(`#/match/${m.id}`)),
              "primary"),
          act(_("Decline"), post(`matches/${m.id}/decline/`, refresh)))))
          : h("p", { class: "empty" }, _("No invitations."))) : null,
      h("section", { class: "card", id: "seeks", "aria-labelledby": "seeks-h" },
        h("h2", { id: "seeks-h" }, _("Open seeks")),
        seeks.length ? h("ul", {}, seeks.map((m) => row(m, !me ? null
          : m.white === me || m.black === me
            ? act(_("Cancel"), post(`matches/${m.id}/cancel/`, refresh))
            : act(_("Join"), post(`matches/${m.id}/join/`, () => go(`#/match/${m.id}`)),
                  "primary"))))
          : h("p", { class: "empty" }, _("No open seeks."))),
      me ? h("section", { class: "card", id: "my-matches", "aria-labelledby": "mine-h" },
        h("h2", { id: "mine-h" }, _("Your matches")),
        myMatches.length ? h("ul", {}, myMatches.map((m) => row(m,
          m.status === "active" ? act(_("Play"), () => go(`#/match/${m.id}`), "primary") : null,
          m.status === "invited" || m.status === "open"
            ? act(_("Cancel"), post(`matches/${m.id}/cancel/`, refresh)) : null,
          m.status === "finished" ? act(_("Rematch"), post(`matches/${m.id}/rematch/`, (r) => {
            if (r.status === "active") go(`#/match/${r.id}`);
            else { toast(f(_("Rematch: invitation sent to %(name)s."), { name: r.invited }));
                   refresh(); }
          })) : null)))
          : h("p", { class: "empty" }, _("No matches yet."))) : null,
    ].filter(Boolean));
    timer = setTimeout(refresh, streaming ? SAFETY_EVERY : POLL_EVERY);
  }

  build();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
      clearTimeout(retry);
      if (source) source.close();
    },
  };
}

// --- a match ------------------------------------------------------------------------

function resultName(game) {
  if (game.result) return resultWord(game.result);
  if (game.end_reason === "resigned") return game.mars ? _("mars, resigned") : _("resigned");
  return game.mars ? _("mars") : _("single");
}

/** "You won 2–0", "You lost 0–2", "Black wins 2–0" (issue 23 item 9): from the viewer's
 *  side when it plays (not in hotseat), else by colour, the winner's score first. */
function matchOutcome(m) {
  const score = m.score || { white: 0, black: 0 };
  const won = score[m.winner], lost = score[otherSide(m.winner)];
  const mine = !m.hotseat && me ? SIDES.find((c) => m[c] === me) : null;
  if (mine === m.winner) return f(_("you won %(mine)s–%(theirs)s"), { mine: won, theirs: lost });
  if (mine) return f(_("you lost %(mine)s–%(theirs)s"), { mine: lost, theirs: won });
  return f(_("%(side)s wins %(won)s–%(lost)s"), { side: side(m.winner), won, lost });
}

/** The rule set's one-line explanation of a game's result (GET rules/ results[]). */
function resultExplanation(game, rules) {
  const d = ruleSet(rules);
  const kind = d && (d.results || []).find((r) => r.name === game.result);
  return kind && kind.explanation && game.end_reason !== "resigned" && (kind.worth ?? kind.points) > 1
    ? _(kind.explanation) : "";
}

function resultSentence(game) {
  return ngettext("Game %(n)s: %(side)s wins %(count)s point — %(result)s",
                  "Game %(n)s: %(side)s wins %(count)s points — %(result)s", game.points,
                  { n: game.number, side: side(game.winner), result: resultName(game) });
}

function openMatch(matchId) {
  let stopped = false;
  let match = null;
  let busy = false;
  let live = null;
  let refetchTimer = null;
  const gameMoves = new Map();   // finished games' turns, fetched once
  let resignArmed = false;
  let offer = {};                // the server's features (api.js), once loaded
  let rolledOff = false;         // a roll_off event exists: too late to abort
  let clockTimer = null;
  let lateShown = null;          // the "late" state last rendered, to redraw when it flips
  let presenceTimer = null;
  const bots = new Map();        // username → is_bot (public profiles, read once)
  let logTicket = 0;             // the latest log read: an older one never draws
  let aheadReads = 0;            // state reads asked for by a log that ran ahead of it
  // Issue 23 item 2: the turn being drafted (steps of state.legal_tree, not sent yet) and
  // the state version it was drafted on; a new state clears it.
  let draft = [];
  let draftVersion = null;
  // Issue 23 item 1: the last complete turn of the game drawn (from the log), shown on the
  // board until the next roll; the steps to slide on the next drawing.
  let lastTurn = null;
  let slide = null;
  let ourMove = null;   // the last render's "it is our move" (tab title, sound)

  const boardHost = h("div", { class: "board-host", id: "board" });
  const title = h("h1", { class: "match-title", id: "match-title" },
                  f(_("Match #%(id)s"), { id: matchId }));
  const players = h("div", { class: "players", id: "players" });
  const statusLine = h("p", { class: "status-line", id: "status", "aria-live": "polite" });
  // What the other side answered to our offer, until we act again.
  const notice = h("p", { class: "notice", id: "notice", role: "status", hidden: true });
  const headCounter = h("p", { class: "head-counter", id: "head-counter", hidden: true });
  const diceLeft = h("p", { class: "dice-left", id: "dice-left" });
  const pipsLine = h("p", { class: "pips", id: "pips" });
  const stakeLine = h("p", { class: "stake", id: "stake", hidden: true });
  const clockLine = h("p", { class: "clock", id: "clock", hidden: true, "aria-live": "off" });
  const dieChoice = h("div", { class: "die-choice", id: "die-choice", hidden: true,
                               role: "group", "aria-label": _("Which die") });
  const actions = h("div", { class: "actions", id: "actions" });
  const liveLine = h("p", { class: "live", id: "live", "data-state": "connecting" },
                     _("connecting…"));
  const result = h("div", { class: "result", id: "result", role: "status", hidden: true });
  const log = h("ol", { class: "log", id: "log", "aria-label": _("Move log") });
  const announce = h("p", { class: "sr-only", id: "announce", "aria-live": "polite" });
  const panel = h("aside", { class: "panel", "aria-label": _("Match") }, title, players,
    statusLine, notice, result, clockLine, stakeLine, pipsLine, diceLeft, headCounter, dieChoice, actions,
    liveLine,
    h("h2", {}, _("Moves")), log, announce);
  app.replaceChildren(h("section", { class: "match" }, boardHost, panel));

  const board = new Board(boardHost, { onMove: (step) => pick(step),
                                       chooseDie: (steps) => chooseDie(steps) });

  // Two dice bear the same checker off (or land it on the same point): the player
  // picks the die; the board waits for the answer (null: put the checker back).
  let dieChoiceDone = null;
  function chooseDie(steps) {
    if (dieChoiceDone) dieChoiceDone(null);
    return new Promise((resolve) => {
      const done = dieChoiceDone = (step) => {
        if (dieChoiceDone !== done) return;
        dieChoiceDone = null;
        dieChoice.hidden = true;
        dieChoice.replaceChildren();
        resolve(step);
      };
      const where = (step) => (step.to === 0 ? _("Bear off")
        : f(_("To %(point)s"), { point: step.to }));
      const sorted = [...steps].sort((a, b) => a.die - b.die);
      dieChoice.replaceChildren(
        h("span", { class: "label" }, f(_("Which die? %(where)s with:"),
                                        { where: where(sorted[0]) })),
        ...sorted.map((step) => button(f(_("the %(die)s"), { die: step.die }), () => done(step), {
          class: "primary", "data-die": step.die,
          "aria-label": f(_("%(where)s with the %(die)s"), { where: where(step), die: step.die }),
        })),
        button(_("Cancel"), () => done(null), { class: "link", "data-die": "" }));
      dieChoice.hidden = false;
      const first = dieChoice.querySelector("button");
      if (first) first.focus();
    });
  }

  const mySides = () => {
    if (!match || !me) return [];
    if (match.hotseat) return SIDES.some((c) => match[c] === me) ? [...SIDES] : [];
    return SIDES.filter((c) => match[c] === me);
  };
  const rules = () => (match && match.rules) || defaultRules();
  // The drawing's choices (head counter, bar, hit marks) are the rule set's facts.
  const facts = () => ruleSet(rules()) || {};
  /** A step of `mover`'s in the numbering the board is drawn in (issue 23 item 1). */
  const viewed = (step, mover) => stepFor(step, mover,
    match && match.state && match.state.board ? match.state.board.perspective : null,
    facts().numbering);
  /** Issue 23 item 7: each side's pip count — the pips to bear every checker off (a
   *  checker on the bar counts 25), or, in a rule set that does not bear off (GET rules/
   *  `bears_off`), the pips to bring every checker home (`home`). In `board`'s
   *  numbering for its side; the other side's points read through `numbering`. */
  function pips(shown) {
    const d = facts();
    const homeTop = d.bears_off === false && Array.isArray(d.home) && d.home.length
      ? Math.max(...d.home) : 0;
    const own = shown.perspective;
    const count = { [own]: 0, [otherSide(own)]: 0 };
    const dist = (p) => Math.max(0, p - homeTop);
    for (const [key, n] of Object.entries(shown.points || {})) {
      const p = Number(key);
      if (n > 0) count[own] += n * dist(p);
      else if (n < 0) {
        const theirs = stepFor({ from: p, to: p }, own, otherSide(own), d.numbering).from;
        count[otherSide(own)] += -n * dist(theirs);
      }
    }
    const bar = shown.bar || {};
    count[own] += (bar.mine || 0) * dist(25);
    count[otherSide(own)] += (bar.theirs || 0) * dist(25);
    return { counts: count, home: Boolean(homeTop) };
  }
  const hasStakes = () => match && match.stakes && match.stakes !== "none";
  const perspectiveQuery = () => {
    // Hotseat: the board turns to the side to move (R33).
    const s = match && match.state;
    return match && match.hotseat && s && s.turn ? `?perspective=${s.turn}` : "";
  };

  function accept(data) {
    if (!data || stopped) return;
    // Answers may come back out of order (a POST's answer after the events of what
    // followed it, a slow GET): a state older than the one drawn is never drawn.
    const drawn = match && match.state ? match.state.version : null;
    if (drawn !== null && data.state && data.state.version < drawn) return;
    if (drawn === null || !data.state || data.state.version > drawn) aheadReads = 0;
    match = data;
    const s = match.state;
    if (!s || s.version !== draftVersion) { draft = []; draftVersion = s ? s.version : null; }
    if (match.hotseat && s && s.turn && s.board && s.board.perspective !== s.turn) {
      refetch(0);   // the turn passed: fetch the board from the other side
    }
    render();
  }

  // Issue 23 item 4: a failed read means the board may be stale: "reconnecting…" until
  // a read succeeds again, retried with back-off (1, 2, 4, 8 s) and at once when the
  // network comes back or the tab is shown again.
  let readFailures = 0;
  function showLive() {
    const status = readFailures ? "reconnecting" : live ? live.status || "connecting" : "connecting";
    const mode = live ? live.mode : null;
    liveLine.dataset.state = status;
    liveLine.dataset.mode = mode || "";
    liveLine.textContent = status === "live"
      ? (mode === "stream" ? _("● live") : mode === "poll" ? _("● live (long poll)")
        : _("● live (polling)"))
      : status === "connecting" ? _("connecting…") : _("reconnecting…");
  }

  async function load() {
    const data = await attempt(() => api.get(`matches/${matchId}/${perspectiveQuery()}`),
                               { quiet: readFailures > 0 });
    if (stopped) return;
    if (data) {
      const was = readFailures;
      readFailures = 0;
      accept(data);
      if (was) showLive();
    } else {
      readFailures += 1;
      showLive();
      refetch(Math.min(8000, 1000 * 2 ** (readFailures - 1)));
      return;
    }
    loadLog();
  }
  const reread = () => { if (!stopped) { wake(); refetch(0); } };
  const onVisible = () => { if (document.visibilityState === "visible") reread(); };
  window.addEventListener("online", reread);
  const onOffline = () => { if (!stopped) { readFailures += 1; showLive(); } };
  window.addEventListener("offline", onOffline);
  document.addEventListener("visibilitychange", onVisible);

  function refetch(delay = 60) {
    clearTimeout(refetchTimer);
    refetchTimer = setTimeout(load, delay);
  }

  async function act(path, body = {}) {
    if (busy) return undefined;
    busy = true;
    notice.hidden = true;
    try {
      const s = match && match.state;
      const answer = await api.post(`matches/${matchId}/${path}/${perspectiveQuery()}`,
                                    { ...body, ...(s ? { expected_version: s.version } : {}) });
      accept(answer);
      loadLog();
      return answer;
    } catch (error) {
      if (error instanceof ApiError && error.code === "version_conflict") {
        toast(_("The match moved on; here it is now."));
      } else {
        toast(explain(error), "error");
      }
      load();
      return undefined;
    } finally {
      busy = false;
      if (match && !stopped) render();   // the board takes presses again
    }
  }

  // Issue 26 (docs/fairness.md): with the roll that draws a game's first die the page
  // adds a fresh random seed of the roller's own to the game's committed dice.
  function ownSeed() {
    const s = match && match.state;
    const fair = s && s.fairness;
    if (!fair || !fair.seeds_open) return {};
    const sides = mySides();
    const roller = s.phase === "roll-off"
      ? sides.find((c) => s.roll_off[c] === null) : s.turn;
    if (!roller || !sides.includes(roller) || fair.player_seeds[roller] !== null) return {};
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return { seed: Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("") };
  }

  async function roll() {
    const answer = await act("roll", ownSeed());
    if (!answer || !answer.roll) return;
    const r = answer.roll;
    if (r.kind === "roll-off") {
      // Backgammon (H5): the higher die plays both roll-off dice at once as its first turn.
      const starts = r.dice && r.dice.length
        ? _("%(side)s rolled %(die)s — %(starter)s starts, playing %(dice)s now")
        : _("%(side)s rolled %(die)s — %(starter)s starts");
      const text = r.result === "tie" ? _("%(side)s rolled %(die)s — a tie, roll again")
        : r.result === "white" || r.result === "black" ? starts : _("%(side)s rolled %(die)s");
      toast(f(text, { side: side(r.side), die: r.die, starter: side(r.result),
                      dice: (r.dice || []).join("-") }));
    } else if (r.passed) {
      toast(f(_("%(side)s rolled %(dice)s: no legal move, the turn passes."),
              { side: side(r.side), dice: r.dice.join("-") }));
    }
  }

  /** The drafted turn's stop in state.legal_tree, or null (no tree: an older server,
   *  or not ours to move). */
  function tree() {
    const s = match && match.state;
    return s && s.phase === "move" && Array.isArray(s.legal_tree) && s.legal_tree.length
      ? s.legal_tree : null;
  }
  function stop() {
    const t = tree();
    if (!t) return null;
    const last = draft[draft.length - 1];
    return t[last ? last.next : 0] || null;
  }
  const draftComplete = () => Boolean(draft.length && stop() && !stop().steps.length);

  /** A landing on the board: a step of the draft; at the turn's end, sent on Done (or at
   *  once with the auto-confirm). Without a tree each step is sent as it is picked. */
  function pick(step) {
    const here = stop();
    if (!here) { play(step); return; }
    const found = here.steps.find((st) => st.from === step.from && st.to === step.to
                                         && st.die === step.die);
    if (!found) return;
    draft.push(found);
    slide = { id: `draft:${draftVersion}:${draft.length}`, steps: [found],
              side: match.state.turn };
    render();
    if (draftComplete() && stored(AUTO_CONFIRM) === "1") confirm();
    else if (draftComplete()) {
      const done = document.getElementById("done");
      if (done && boardHost.contains(document.activeElement)) done.focus();
    }
  }

  function undo(all = false) {
    if (!draft.length || busy) return;
    if (all) draft = []; else draft.pop();
    render();
  }

  async function confirm() {
    if (!draftComplete() || busy) return;
    const steps = draft.map(({ from, to, die }) => ({ from, to, die }));
    await play(steps);
  }

  async function play(step) {
    const steps = Array.isArray(step) ? step : [step];
    const answer = await act("moves", { steps });
    const hit = answer && (answer.applied || []).find((a) => a.hit);
    if (hit) {
      toast(f(_("Hit! %(step)s: the blot goes to the bar."), { step: stepText(hit) }), "hit");
      announce.textContent = f(_("Hit on %(point)s: the opponent's checker goes to the bar"),
                               { point: hit.to });
    }
  }

  function button(label, fn, attrs = {}) {
    return h("button", { type: "button", onclick: fn, ...attrs }, label);
  }

  function render() {
    const m = match;
    const s = m.state;
    const sides = mySides();
    const youAre = m.hotseat ? "" : sides.length
      ? f(_(" (you: %(side)s)"), { side: COLOUR_WORDS[sides[0]] }) : _(" (watching)");
    title.textContent = matchTitle(m);
    const presence = (colour) => {
      // state.presence (clocks): seen in the last minute. A word, not colour alone.
      if (!s || !s.presence || m.hotseat || m.status !== "active") return null;
      if (bots.get(m[colour])) {
        // The computer is never "seen" (API: presence is false for bot accounts).
        return h("span", { class: "presence bot", id: `presence-${colour}`,
                           "data-online": "bot" }, _("computer"));
      }
      const on = Boolean(s.presence[colour]);
      return h("span", { class: `presence ${on ? "on" : "off"}`, id: `presence-${colour}`,
                         "data-online": on ? "true" : "false",
                         title: on ? _("seen in the last minute") : _("not seen for a minute") },
               h("span", { class: "dot", "aria-hidden": "true" }), on ? _("online") : _("away"));
    };
    players.replaceChildren(
      h("span", { class: "player white" }, h("span", { class: "swatch white" }),
        ` ${_("White")}: `, h("strong", {}, m.white || "—"), presence("white")),
      h("span", { class: "player black" }, h("span", { class: "swatch black" }),
        ` ${_("Black")}: `, h("strong", {}, m.black || m.invited || "—"), presence("black")),
      h("span", { class: "score", id: "score" },
        f(_("Score %(white)s–%(black)s of %(length)s"), { ...m.score, length: m.length })
        + youAre));

    const ro = (s && s.roll_off) || {};
    const rollOffOpen = s && s.phase === "roll-off" && m.status === "active"
      && sides.some((side) => ro[side] === null || ro[side] === undefined
                              || (ro.white && ro.white === ro.black));
    const canAct = s && m.status === "active"
      && (sides.includes(s.turn) || Boolean(rollOffOpen));
    const turnName = s && s.turn ? side(s.turn) : "";
    let text = "";
    if (m.status === "open") text = _("Waiting for someone to join this seek.");
    else if (m.status === "invited") text = f(_("Waiting for %(name)s to accept."),
                                              { name: m.invited });
    else if (m.status === "aborted") text = _("This match was called off.");
    else if (m.status === "finished") {
      text = f(_("Match over: %(outcome)s."), { outcome: matchOutcome(m) });
    } else if (s) {
      const you = canAct && !m.hotseat;
      if (s.phase === "roll-off") {
        text = f(_("Roll-off: White %(white)s, Black %(black)s."),
                 { white: ro.white ?? "—", black: ro.black ?? "—" })
          + (sides.length ? ` ${_("Roll one die; the higher starts.")}` : " ");
      } else if (s.phase === "roll") {
        text = you ? _("Your turn: roll the dice.") : f(_("%(side)s to roll."), { side: turnName });
      } else if (s.phase === "move") {
        text = you ? _("Your move: pick a checker, then a gold landing.")
          : f(m.hotseat ? _("%(side)s to move: pick a checker, then a gold landing.")
                        : _("%(side)s to move."), { side: turnName });
      } else if (s.phase === "offer" && s.offer) {
        // Said to whoever reads it: the side to answer is told to, the offerer waits.
        const values = { side: side(s.offer.by), stake: s.offer.stake, other: turnName };
        const computer = (colour) => !m.hotseat && (bots.get(m[colour]) || isComputer(m[colour]));
        if (you) {
          text = f(computer(s.offer.by)
            ? _("The computer offers to raise the stake to %(stake)s: accept or refuse.")
            : _("%(side)s offers to raise the stake to %(stake)s: accept or refuse."), values);
        } else if (!m.hotseat && sides.includes(s.offer.by)) {
          text = f(computer(s.turn)
            ? _("You offer to raise the stake to %(stake)s; the computer answers.")
            : _("You offer to raise the stake to %(stake)s; %(other)s answers."), values);
        } else {
          text = f(_("%(side)s offers to raise the stake to %(stake)s; %(other)s answers."),
                   values);
        }
      }
    }
    statusLine.textContent = text;

    // Issue 23 item 9: the tab says when it is our move (not in hotseat), with a beep
    // when the player asked for one.
    const moveNow = Boolean(canAct && !m.hotseat && s && s.phase !== "roll-off");
    document.title = moveNow ? `● ${_("Your move")} — ${PAGE_TITLE}` : PAGE_TITLE;
    if (moveNow && ourMove === false && stored(SOUND) === "1") beep();
    ourMove = moveNow;

    // R13: the head counter while a checker may still leave the head.
    const here = stop();
    const left = here ? here.dice_left : s && s.dice_left;
    const head = s && m.status === "active" && s.phase === "move"
      ? (here ? here.head_may_leave : s.head_may_leave) || 0 : 0;
    headCounter.hidden = !(head > 0);
    headCounter.textContent = head > 0 ? f(_("%(count)s may leave"), { count: head }) : "";
    diceLeft.textContent = s && s.phase === "move" && left && left.length
      ? f(_("Dice left: %(dice)s"), { dice: left.join(", ") }) : "";
    stakeLine.hidden = !hasStakes();
    if (hasStakes() && s) {
      const crawford = m.crawford_game && m.crawford_game === s.game;
      const holder = { both: _("either side"), white: _("White"), black: _("Black") }[s.may_offer];
      stakeLine.textContent = f(_("Stake %(stake)s"), { stake: s.stake ?? 1 })
        + (m.stakes === "cube" ? _(" (cube)") : m.stakes === "dave" ? _(" (dave)") : "")
        + " · " + (crawford ? _("Crawford game: no raises")
          : holder ? f(_("may raise: %(side)s"), { side: holder })
          : m.length === 1 ? _("no raises in a 1-point match") : _("no more raises"))
        + (m.crawford_game && m.crawford_game < s.game ? ` · ${_("after Crawford")}` : "");
      stakeLine.dataset.stake = s.stake ?? 1;
      stakeLine.dataset.mayOffer = s.may_offer || "";
      stakeLine.dataset.crawford = crawford ? "true" : "false";
    }
    renderClock();
    pipsLine.hidden = !(s && s.board);
    if (s && s.board) {
      const counted = pips(applySteps(s.board, draft));
      pipsLine.textContent = f(counted.home ? _("To home: White %(white)s · Black %(black)s")
                                            : _("Pips: White %(white)s · Black %(black)s"),
                               counted.counts);
      pipsLine.dataset.white = counted.counts.white;
      pipsLine.dataset.black = counted.counts.black;
    }
    // Issue 23 item 7: while the computer has the move, say so.
    const computerSide = (c) => !m.hotseat && !sides.includes(c)
      && (bots.get(m[c]) || isComputer(m[c]));
    const computerActs = s && m.status === "active"
      && (((s.phase === "roll" || s.phase === "move") && s.turn && computerSide(s.turn))
          || (s.phase === "roll-off" && SIDES.some((c) => computerSide(c)
              && (ro[c] === null || ro[c] === undefined || (ro.white && ro.white === ro.black)))
              && sides.every((c) => ro[c] !== null && ro[c] !== undefined)));
    if (computerActs) {
      statusLine.textContent = _("The computer is thinking…");
      statusLine.dataset.thinking = "true";
    } else {
      delete statusLine.dataset.thinking;
    }

    actions.replaceChildren();
    if (canAct && (s.phase === "roll" || s.phase === "roll-off")) {
      actions.append(button(s.phase === "roll-off" ? _("Roll one die") : _("Roll"),
                            roll, { id: "roll", class: "primary" }));
    }
    if (canAct && s.phase === "roll" && hasStakes()
        && (s.may_offer === "both" || s.may_offer === s.turn)) {
      const next = m.stakes === "dave" && m.progression === "arithmetic"
        ? (s.stake ?? 1) + 1 : (s.stake ?? 1) * 2;
      actions.append(button(f(m.stakes === "cube" ? _("Offer a double (to %(stake)s)")
                                                  : _("Offer a raise (to %(stake)s)"),
                              { stake: next }),
                            () => act("offer"), { id: "offer" }));
    }
    if (canAct && s.phase === "move" && tree()) {
      // Issue 23 item 2: the drafted turn is the player's until Done.
      const complete = draftComplete();
      actions.append(
        button(_("Done"), confirm, { id: "done", class: "primary", disabled: !complete || busy }),
        button(_("Undo"), () => undo(), { id: "undo", disabled: !draft.length || busy }),
        button(_("Undo the turn"), () => undo(true), { id: "undo-turn",
                                                      disabled: !draft.length || busy }));
      const auto = h("input", { type: "checkbox", id: "auto-confirm",
                                checked: stored(AUTO_CONFIRM) === "1",
                                onchange: (e) => store(AUTO_CONFIRM, e.target.checked ? "1" : "0") });
      actions.append(h("label", { class: "auto-confirm" }, auto,
                       " ", _("Confirm when the last die is played")));
      if (complete) statusLine.textContent = _("Turn complete: press Done, or undo a step.");
    }
    if (canAct && s.phase === "offer") {
      actions.append(button(f(_("Accept (stake %(stake)s)"), { stake: s.offer ? s.offer.stake : "" }),
                            () => act("accept"), { id: "accept", class: "primary" }),
                     button(_("Refuse (lose the game)"), () => act("refuse"), { id: "refuse" }));
    }
    const late = lateNow();
    if (late && late.claimers.length) {
      actions.append(button(f(_("Claim the game (%(side)s is late)"),
                              { side: late.late.map(side).join(", ") }),
                            () => act("claim"), { id: "claim", class: "danger" }));
    }
    if (offer.abort && m.status === "active" && sides.length && s && s.game === 1
        && s.phase === "roll-off" && !rolledOff && !ro.white && !ro.black) {
      actions.append(button(_("Abort (no result)"), () => act("abort"), { id: "abort" }));
    }
    if (m.status === "active" && sides.length && s && s.phase !== "roll-off") {
      const who2 = m.hotseat && s.turn ? ` (${COLOUR_WORDS[s.turn]})` : "";
      // Issue 23 item 5: the confirm says what it costs (state.resign, the server's score).
      const cost = s.resign;
      const armed = cost
        ? ngettext("Resign: you lose %(count)s point (%(result)s) — press again to confirm",
                   "Resign: you lose %(count)s points (%(result)s) — press again to confirm",
                   cost.points, { result: resultWord(cost.result) })
        : _("Confirm: resign the game");
      actions.append(button((resignArmed ? armed : _("Resign")) + who2,
        async () => {
          if (!resignArmed) {
            resignArmed = true; render();
            setTimeout(() => { resignArmed = false; if (match) render(); }, 5000);
            return;
          }
          resignArmed = false;
          await act("resign");
        }, { id: "resign", class: resignArmed ? "danger" : "" }));
    }
    if (m.status === "finished" && sides.length) {
      actions.append(button(_("Rematch"), async () => {
        const r = await attempt(() => api.post(`matches/${matchId}/rematch/`, {}));
        if (r) {
          if (r.status === "active") go(`#/match/${r.id}`);
          else toast(f(_("Rematch: invitation sent to %(name)s."), { name: r.invited }));
        }
      }, { id: "rematch" }));
    }
    if (m.status === "invited" && m.invited === me) {
      actions.append(button(_("Accept"), () => act("join"), { id: "join", class: "primary" }),
                     button(_("Decline"), () => act("decline")));
    } else if (m.status === "open" && me && !sides.length) {
      actions.append(button(_("Join"), () => act("join"), { id: "join", class: "primary" }));
    } else if ((m.status === "open" || m.status === "invited") && sides.length) {
      actions.append(button(_("Cancel"), () => act("cancel"), { id: "cancel" }));
    }
    actions.append(h("a", { class: "button link", href: "#/" }, _("Lobby")));
    if (!m.hotseat && sides.length && m.status === "active") {
      actions.append(h("label", { class: "sound" }, h("input", {
        type: "checkbox", id: "sound", checked: stored(SOUND) === "1",
        onchange: (e) => { store(SOUND, e.target.checked ? "1" : "0"); if (e.target.checked) beep(); },
      }), " ", _("Sound on your move")));
    }

    // For tests and scripts: what the page is showing, without parsing the SVG.
    boardHost.dataset.status = m.status;
    if (s) {
      boardHost.dataset.version = s.version;
      boardHost.dataset.phase = s.phase;
      boardHost.dataset.turn = s.turn || "";
      boardHost.dataset.game = s.game ?? "";
      boardHost.dataset.turnNumber = s.turn_number ?? "";
      boardHost.dataset.draft = String(draft.length);
      boardHost.dataset.stop = draft.length ? String(draft[draft.length - 1].next) : "0";
    }
    if (s && s.board) {
      const sliding = slide;
      slide = null;
      board.update({
        board: applySteps(s.board, draft),
        legalSteps: canAct && s.phase === "move"
          ? (here ? here.steps : s.legal_steps || []) : [],
        interactive: canAct && s.phase === "move" && !busy,
        dice: s.phase === "move" ? s.dice : null,
        diceLeft: left,
        rollOff: s.phase === "roll-off" ? s.roll_off : null,
        headMayLeave: facts().head ? head : 0,
        headOwner: s.turn || null,
        numbering: facts().numbering,
        stake: hasStakes() ? { value: s.stake ?? 1, holder: s.may_offer,
                               label: stakeLine.textContent } : null,
        diceOwner: s.turn || null,
        lastMove: s.phase !== "move" && lastTurn && lastTurn.game === s.game
          ? { side: lastTurn.side, dice: lastTurn.dice,
              steps: lastTurn.steps.map((st) => viewed(st, lastTurn.side)) } : null,
        animate: sliding,
        hitting: Boolean(facts().hits),
        head: Boolean(facts().head),
        bar: Boolean(facts().bar),
      });
    }
  }

  // --- clocks (state.deadline, issue 17) ---
  /** The sides the clock runs for now: the side in turn; in a roll-off, each side that
   *  has not rolled its die. */
  function clockSides() {
    const s = match && match.state;
    if (!s || match.status !== "active") return [];
    if (s.phase === "roll-off") {
      const ro = s.roll_off || {};
      return SIDES.filter((c) => ro[c] === null || ro[c] === undefined);
    }
    return s.turn ? [s.turn] : [];
  }

  /** Past the deadline: who is late and which of our sides may claim (one late side). */
  function lateNow() {
    const s = match && match.state;
    if (!offer.clocks || !s || !s.deadline || match.status !== "active") return null;
    if (Date.parse(s.deadline) > serverNow()) return null;
    const late = clockSides();
    const claimers = late.length === 1 ? mySides().filter((c) => !late.includes(c)) : [];
    return { late, claimers };
  }

  function clockText(ms) {
    const total = Math.max(0, Math.round(ms / 1000));
    const hours = Math.floor(total / 3600), min = Math.floor((total % 3600) / 60);
    const sec = String(total % 60).padStart(2, "0");
    return hours ? `${hours}:${String(min).padStart(2, "0")}:${sec}` : `${min}:${sec}`;
  }

  function renderClock() {
    const s = match && match.state;
    const on = Boolean(offer.clocks && s && s.deadline && match.status === "active");
    clockLine.hidden = !on;
    if (!on) {
      clearInterval(clockTimer);
      clockTimer = null;
      lateShown = null;
      return;
    }
    const left = Date.parse(s.deadline) - serverNow();
    const sides = clockSides();
    const names = sides.length ? sides.map(side).join(_(" and ")) : side(s.turn || "");
    const mine = sides.some((c) => mySides().includes(c)) && !match.hotseat;
    const limit = match.turn_seconds
      ? f(_(" (%(time)s a turn)"), { time: clockText(match.turn_seconds * 1000) }) : "";
    clockLine.dataset.late = left <= 0 ? "true" : "false";
    clockLine.dataset.seconds = String(Math.max(0, Math.round(left / 1000)));
    clockLine.dataset.side = sides.join(" ");
    clockLine.classList.toggle("urgent", left > 0 && left < 10000);
    clockLine.textContent = left > 0
      ? f(_("Clock: %(who)s: %(time)s left to act"), { who: mine ? _("You") : names,
                                                        time: clockText(left) }) + limit
      : mine ? _("Clock: You are past the deadline: the other side may claim the game")
        : f(sides.length > 1 ? _("Clock: %(who)s are past the deadline")
                             : _("Clock: %(who)s is past the deadline"), { who: names });
    const late = left <= 0;
    if (lateShown !== null && lateShown !== late) {
      lateShown = late;
      render();   // the claim button comes (or goes)
      return;
    }
    lateShown = late;
    if (!clockTimer) clockTimer = setInterval(() => { if (!stopped && match) renderClock(); },
                                              250);
  }

  /** The last complete turn of the game drawn, from its log: drawn as from/to marks with
   *  its dice until the next roll, and slid onto the board when it is new and not ours. */
  function noteLastTurn(turns, drawn) {
    if (!drawn) return;
    const done = turns.filter((t) => t.number <= drawn.turn && (t.finished_at || t.passed)
                                     && !(t.number === drawn.turn && drawn.steps !== null));
    const t = done[done.length - 1];
    const next = t ? { game: drawn.game, number: t.number, side: t.side, dice: t.dice || [],
                       steps: t.steps || [] } : null;
    const key = (x) => (x ? `${x.game}:${x.number}` : "");
    if (key(next) === key(lastTurn)) return;
    const first = lastTurn === null && !noteLastTurn.seen;
    noteLastTurn.seen = true;
    lastTurn = next;
    if (next && !first && !mySides().includes(next.side) && next.steps.length) {
      slide = { id: `turn:${key(next)}`, steps: next.steps.map((st) => viewed(st, next.side)),
                side: next.side };
    }
    if (match) render();
  }

  /** How far the drawn state has got in its record: the log is drawn no further, so it
   *  never shows a turn, an offer or a game's end that the board and the status do not
   *  show yet. `null`: no limit (a match that is over, or no state). */
  function drawnRecord() {
    const s = match && match.state;
    if (!s || match.status !== "active" || typeof s.game !== "number"
        || aheadReads >= AHEAD_READS) return null;
    const dice = s.dice || [];
    const rolled = dice.length === 2 && dice[0] === dice[1] ? 4 : dice.length;
    return { game: s.game, turn: s.turn_number ?? 0, phase: s.phase, stake: s.stake ?? 1,
             steps: s.phase === "move" ? Math.max(0, rolled - (s.dice_left || []).length)
               : null };
  }

  /** Whether the drawn state knows of `offer` (S3-S4) in its current game. */
  function offerKnown(offer, drawn) {
    if (offer.before_turn <= drawn.turn) return true;   // a turn came after it
    if (offer.before_turn !== drawn.turn + 1) return false;
    if (offer.answer === "accept") return drawn.stake >= offer.stake;
    if (offer.answer === null || offer.answer === undefined) return drawn.phase === "offer";
    return false;   // refused: the game is over, the state would be in the next one
  }

  /** "White offers 2 — Black accepts": an offer and its answer, as the log shows it. */
  function offerLine(offer, game, current) {
    const names = { side: side(offer.by), stake: offer.stake, other: side(otherSide(offer.by)) };
    const text = offer.answer === "accept" ? _("%(side)s offers %(stake)s — %(other)s accepts")
      : offer.answer === "refuse" ? _("%(side)s offers %(stake)s — %(other)s refuses")
        : current || (!game.winner && match && match.status === "active")
          ? _("%(side)s offers %(stake)s — %(other)s to answer")
          : _("%(side)s offers %(stake)s — not answered");
    return h("li", { class: `offer ${offer.by}`, "data-game": game.number,
                     "data-answer": offer.answer || "" },
      h("span", { class: "n" }, ""), " ", h("span", { class: `swatch ${offer.by}` }),
      " ", f(text, names));
  }

  // The log is read after the state it is drawn with (load, act) and may already hold
  // what came after that state: it is drawn only as far as the board and the status
  // are, and the state is read again at once (the log after it shows the rest).
  async function loadLog() {
    const ticket = ++logTicket;
    const games = await attempt(() => api.get(`matches/${matchId}/games/`), { quiet: true });
    if (!games || stopped || ticket !== logTicket) return;
    const turnsOf = new Map();
    for (const game of games) {
      let turns = gameMoves.get(game.number);
      if (!turns) {
        turns = await attempt(() => api.get(`matches/${matchId}/games/${game.number}/moves/`),
                              { quiet: true }) || [];
        if (game.winner) gameMoves.set(game.number, turns);
      }
      turnsOf.set(game.number, turns);
    }
    if (stopped || ticket !== logTicket) return;   // a later read draws instead
    const drawn = drawnRecord();
    let ahead = false;
    const shown = [];   // the games drawn, as far as the state knows them
    const parts = [];
    for (const game of games) {
      const current = drawn && game.number === drawn.game;
      if (drawn && game.number > drawn.game) { ahead = true; continue; }
      parts.push(h("li", { class: "game-head", "data-game": game.number }, game.starter
        ? f(_("Game %(n)s — %(side)s starts"), { n: game.number, side: side(game.starter) })
        : f(_("Game %(n)s"), { n: game.number })));
      // The game's offers (S3-S4) and their answers, each a line of its own before the
      // turn it came before (not a turn: the turns keep their numbers).
      const offers = [...(game.offers || [])];
      const offerLines = (upTo) => {
        while (offers.length && offers[0].before_turn <= upTo) {
          const o = offers.shift();
          if (current && !offerKnown(o, drawn)) { ahead = true; continue; }
          parts.push(offerLine(o, game, current));
        }
      };
      for (const t of turnsOf.get(game.number)) {
        offerLines(t.number);
        if (current && t.number > drawn.turn) { ahead = true; continue; }
        let steps = t.steps || [];
        let passed = t.passed;
        if (current && t.number === drawn.turn && drawn.steps !== null) {
          // The turn being played: as many steps as the state has played.
          if (t.finished_at || steps.length > drawn.steps) ahead = true;
          steps = steps.slice(0, drawn.steps);
          passed = false;
        }
        const dice = t.dice && t.dice.length ? t.dice.join("-") : "";
        const pass = passed ? f(_("pass (%(reason)s)"),
                                { reason: reasonText(t.pass_reason) }) : "";
        parts.push(h("li", { class: `turn ${t.side}${passed ? " passed" : ""}`,
                             "data-game": game.number, "data-turn": t.number },
          h("span", { class: "n" }, `${t.number}.`), " ",
          h("span", { class: `swatch ${t.side}` }), ` ${side(t.side)} ${dice}: `,
          [steps.map((st) => stepText(viewed(st, t.side))).join(" "), pass]
            .filter(Boolean).join(" ") || "…"));
      }
      offerLines(Infinity);   // after the last turn: refused, or waiting for its answer
      if (game.winner && current) {
        ahead = true;   // the state has the game still going
      } else if (game.winner) {
        parts.push(h("li", { class: "game-result", "data-result": resultName(game),
                             "data-game": game.number }, resultSentence(game)));
        shown.push(game);
      }
    }
    noteLastTurn(drawn ? turnsOf.get(drawn.game) || [] : [], drawn);
    if (ahead) {
      aheadReads += 1;
      refetch(0);
    }
    if (match && match.status === "finished") {
      parts.push(h("li", { class: "match-result" }, f(_("Match: %(outcome)s"),
                                                     { outcome: matchOutcome(match) })));
    }
    const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 20;
    log.replaceChildren(...parts);
    if (atBottom) log.scrollTop = log.scrollHeight;
    const last = shown[shown.length - 1];
    const newest = drawn ? drawn.game : games.length;
    if (last && (!match || match.status === "finished" || last.number === newest - 1
                 || last.number === newest)) {
      result.hidden = false;
      const why = resultExplanation(last, rules());
      result.textContent = resultSentence(last)
        + (match && match.status === "finished"
          ? ". " + f(_("Match over: %(outcome)s."), { outcome: matchOutcome(match) })
          : ".") + (why ? ` ${why}` : "");
      result.dataset.explanation = why;
    } else {
      result.hidden = true;
    }
  }

  function onEvents(events) {
    for (const e of events) {
      const d = e.data || {};
      if (e.type === "roll_off") rolledOff = true;
      const mine = mySides().includes(d.side) && !(match && match.hotseat);
      if (e.type === "step" && !mine) {
        const step = stepText(viewed(d, d.side));
        announce.textContent = f(_("%(side)s played %(step)s"), { side: side(d.side), step });
        if (d.hit && !(match && match.hotseat)) {
          toast(f(_("Hit! %(side)s played %(step)s: your checker goes to the bar."),
                  { side: side(d.side), step }), "hit");
        }
      } else if (e.type === "pass") {
        announce.textContent = f(_("%(side)s cannot move: %(reason)s"),
                                 { side: side(d.side), reason: reasonText(d.reason) });
      } else if (e.type === "game_over") {
        toast(ngettext("Game %(n)s: %(side)s wins %(count)s point",
                       "Game %(n)s: %(side)s wins %(count)s points", d.points,
                       { n: d.game, side: side(d.winner) })
          + (d.result ? ` — ${resultWord(d.result)}`
            : d.mars ? ` — ${_("mars")}` : ""));
      } else if (e.type === "match_over" && d.ratings && !(match && match.hotseat)) {
        const text = mySides().map((c) => matchOverText(d.ratings, c)).join(" ");
        if (text) { notice.textContent = text; notice.hidden = false; }
      } else if ((e.type === "accept" || e.type === "refuse") && !mine
                 && mySides().includes(otherSide(d.side)) && !(match && match.hotseat)) {
        // The other side (a player, or the computer) answered our offer.
        const computer = match && bots.get(match[d.side]);
        const text = e.type === "accept"
          ? f(computer ? _("The computer accepts your raise: the stake is now %(stake)s.")
                       : _("%(side)s accepts your raise: the stake is now %(stake)s."),
              { side: side(d.side), stake: d.stake })
          : f(computer ? _("The computer refuses your raise to %(stake)s: you win the game.")
                       : _("%(side)s refuses your raise to %(stake)s: you win the game."),
              { side: side(d.side), stake: d.offered ?? d.stake });
        notice.textContent = text;
        notice.hidden = false;
        notice.dataset.answer = e.type;
        if (e.type === "accept") toast(text);   // a refusal's toast is the game's result
      } else if (e.type === "roll" && !mine) {
        // A new turn of theirs: a hit toast of an earlier turn is not about this one.
        if (toastEl.classList.contains("hit")) toastEl.className = "toast";
        announce.textContent = f(_("%(side)s rolled %(dice)s"),
                                 { side: side(d.side), dice: (d.dice || []).join("-") });
      }
    }
    refetch();
  }

  (async () => {
    offer = await features();
    await load();
    if (stopped || !match) return;
    if (!match.hotseat) {
      await Promise.all(SIDES.map(async (colour) => {
        const name = match[colour];
        if (!name || bots.has(name)) return;
        const profile = await attempt(() => api.get(`accounts/users/${encodeURIComponent(name)}/`),
                                      { quiet: true });
        bots.set(name, Boolean(profile && profile.is_bot));
      }));
      render();
    }
    if (offer.clocks && !match.hotseat) {
      // Presence (seen in the last minute) changes without events: read it now and then.
      presenceTimer = setInterval(() => {
        if (match && match.status === "active" && !busy) refetch(0);
      }, 20000);
    }
    live = new MatchLive(matchId, {
      after: await lastSeq(),
      onEvents,
      onStatus(status) {
        showLive();
        if (status === "live") refetch(0);   // whatever happened while we were away
      },
    });
    live.start();
  })();

  async function lastSeq() {
    const events = await attempt(() => api.get(`matches/${matchId}/events/`), { quiet: true });
    if (events && events.some((e) => e.type === "roll_off")) rolledOff = true;
    return events && events.length ? events[events.length - 1].seq : 0;
  }

  return {
    stop() {
      stopped = true;
      document.title = PAGE_TITLE;
      window.removeEventListener("online", reread);
      window.removeEventListener("offline", onOffline);
      document.removeEventListener("visibilitychange", onVisible);
      clearTimeout(refetchTimer);
      clearInterval(clockTimer);
      clearInterval(presenceTimer);
      if (dieChoiceDone) dieChoiceDone(null);
      if (live) live.stop();
    },
  };
}

renderWho();
route();

// The language links keep the open view (the match in the hash) across the reload.
for (const link of document.querySelectorAll("#languages a[data-lang]")) {
  link.addEventListener("click", () => {
    link.href = `?lang=${link.dataset.lang}${location.hash}`;
  });
}
