// The lobby: the new-match form, invitations, open seeks and the player's matches,
// refreshed on the account's stream (or polled without it).

import { API, SIDES, api, defaultRules, features, levelsFor, otherSide } from "./api.js";
import { _, f, ngettext, side } from "./i18n.js";
import { authForms } from "./account.js";
import { CLOCKS, COLOUR_NAMES, SOUND, STAKE_NAMES, STATUS_NAMES, app, attempt, beep, cap, go,
         h, isComputer, matchTitle, rulesTitle, session, stored, toast } from "./common.js";
import { pairingPanel, pairingText, ratingsPanel } from "./ratings.js";
import { guestPanel, upgradePanel } from "./guest.js";
import { followingPanel } from "./following.js";
import { noticeHeard } from "./notices.js";

/** The engine of a learned level of GET computer/ as the page shows it ("own network"
 * translated, a field engine by its name, with its version when `full`), or null for
 * the levels that are their own engine (random, heuristic). */
function engineName(level, full = false) {
  const engine = level.engine;
  if (!engine || engine === "random" || engine === "own heuristic") return null;
  if (engine.startsWith("own ")) return _(engine);
  return full ? engine : engine.replace(/ \d[\w.]*$/, "");
}

/** A level's name in the level list, with the engine that plays it: "Expert — Open Sage". */
function levelLabel(level) {
  const name = _(cap(level.level));
  const engine = engineName(level);
  return engine ? `${name} — ${engine}` : name;
}
import { replayLink } from "./replay.js";

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
  const opponent = field(_("Player's username"), h("input", { name: "opponent", id: "create-opponent",
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
    // The level's name and sentence come from the API in English; the catalogue has
    // them (djangojs.po, kept by hand: tests/web/test_rule_set_texts.py).
    // Each level says which engine plays it here: "World-class — Open Sage".
    levelSelect.replaceChildren(...levels.map((l) => h("option", { value: l.level,
                                                                    title: _(l.text) },
                                                         levelLabel(l))));
    if (levels.some((l) => l.level === chosen)) levelSelect.value = chosen;
    const picked = levels.find((l) => l.level === levelSelect.value);
    const engine = picked && engineName(picked, true)
      ? ` ${f(_("Engine: %(engine)s."), { engine: engineName(picked, true) })}` : "";
    levelText.textContent = picked ? _(picked.text) + engine
      : _("No level plays these rules yet.");
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

// The account's own stream (GET stream/: invitations, your_turn, game and match results)
// tells the lobby when to refresh; without it (or while it is down) the lobby polls.
const ACCOUNT_EVENTS = ["invitation", "paired", "your_turn", "game_over", "match_over", "offer",
                        "joined", "aborted", "deadline", "message", "notice"];
const POLL_EVERY = 5000;     // ms, without the stream
const SAFETY_EVERY = 15000;  // ms, with it: open seeks by others are not on the stream

export function openLobby() {
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
    if (!session.me) {
      root.append(guestPanel(), h("p", { class: "intro" }, _("Play Long Nardy and its family against a "
                    + "friend, on one screen, against an open seek or against the computer. "
                    + "Log in or register to begin.")),
                  authForms(build), lists);
    } else {
      root.append(await createForm((match) => {
        if (match.status === "active") go(`#/match/${match.id}`);
        else { toast(match.status === "open" ? _("Seek posted: waiting for an opponent.")
                 : f(_("Invitation sent to %(name)s."), { name: match.invited }));
               refresh(); }
      }), await pairingPanel(go),
      session.guest ? upgradePanel(build) : await ratingsPanel(session.me),
      followingPanel(), lobbyLive, lists);
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
    if (source || stopped || !session.me) return;
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
        if (type === "notice") { noticeHeard(); return; }
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
        if (type === "paired") {
          // Quick pairing made our match (maybe from the other player's request while we
          // waited): to the board at once, told so, with the beep if asked for.
          let d = null;
          try { d = JSON.parse(message.data); } catch { d = null; }
          if (d && d.match) {
            toast(f(_("Paired with %(name)s: %(choice)s."), {
              name: d.opponent || "?", choice: pairingText(d) }));
            if (stored(SOUND) === "1") beep();
            go(`#/match/${d.match}`);
            return;
          }
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
    h("span", { class: "row-players" }, [...new Set([m.white, m.black])]   // each name links to its profile
      .filter((name) => name && !isComputer(name)).map((name) => h("a", {
        href: `#/players/${encodeURIComponent(name)}`, class: "player-link" }, name))),
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
    if (name && name === session.me) return f(_("You won %(won)s–%(lost)s"), values);
    if (isComputer(name)) return f(_("The computer won %(won)s–%(lost)s"), values);
    return f(_("%(name)s won %(won)s–%(lost)s"), values);
  }
  const act = (label, fn, cls = "") => h("button", { type: "button", class: cls,
                                                     onclick: fn }, label);

  async function refresh() {
    const me = session.me;
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
    // Our invitation or seek was just accepted: to the match.
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
          m.status === "finished" ? replayLink(m.id, 1, _("Replay")) : null,
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

