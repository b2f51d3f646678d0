// A match (`#/match/<id>`): the board (board.js) and the panel around it — players,
// status, stake, clock, pips, the drafted turn's buttons, the log — kept up to date from
// the match's event channel (live.js). One MatchView per open match; its state is the
// fields of the object (see the constructor), drawn by render() from `this.match`.
//
//   load()/act() → accept(match) → render()       every answer is the match itself
//   board landing → pick() → draft → confirm()    a turn is a draft until Done
//   events (live.js) → onEvents() → refetch()     announcements, then a fresh read

import { ApiError, SIDES, api, defaultRules, features, otherSide, ruleSet,
         serverNow } from "./api.js";
import { Board, applySteps, stepFor } from "./board.js";
import { MatchLive, wake } from "./live.js";
import { openChat } from "./chat.js";
import { _, f, ngettext, side } from "./i18n.js";
import { matchOverText } from "./ratings.js";
import { AUTO_CONFIRM, COLOUR_WORDS, PAGE_TITLE, SOUND, app, attempt, beep, button,
         numberingSwitch, ownNumbering,
         clearHitToast, explain, go, h, matchOutcome, matchTitle, reasonText,
         replaceChildrenKeeping, resultExplanation, resultSentence, resultWord, session,
         stepText, store, stored, toast } from "./common.js";
import { drawnRecord, lastTurnOf, logEntries } from "./match-log.js";
import { replayLinks } from "./replay.js";
import { canAct, clockLineText, clockSides, computerActs, hasStakes, nextStake, pips,
         stakeOnBoard, stakeText, statusText } from "./match-texts.js";

export function openMatch(matchId) {
  const view = new MatchView(matchId);
  view.start();
  return view;
}

/** The panel's elements, by name (their ids are what tests and docs/web.md name). */
function panelElements(matchId) {
  const el = {
    boardHost: h("div", { class: "board-host", id: "board" }),
    title: h("h1", { class: "match-title", id: "match-title" },
             f(_("Match #%(id)s"), { id: matchId })),
    players: h("div", { class: "players", id: "players" }),
    statusLine: h("p", { class: "status-line", id: "status", "aria-live": "polite" }),
    // What the other side answered to our offer, until we act again.
    notice: h("p", { class: "notice", id: "notice", role: "status", hidden: true }),
    // Why the last pick was refused (also said in #announce).
    hint: h("p", { class: "hint", id: "hint", hidden: true }),
    headCounter: h("span", { class: "head-counter", id: "head-counter", hidden: true }),
    diceLeft: h("span", { class: "dice-left", id: "dice-left" }),
    pipsLine: h("p", { class: "pips", id: "pips" }),
    stakeLine: h("p", { class: "stake", id: "stake", hidden: true }),
    clockLine: h("p", { class: "clock", id: "clock", hidden: true, "aria-live": "off" }),
    dieChoice: h("div", { class: "die-choice", id: "die-choice", hidden: true,
                          role: "group", "aria-label": _("Which die") }),
    actions: h("div", { class: "actions", id: "actions" }),
    liveLine: h("p", { class: "live", id: "live", "data-state": "connecting" },
                _("connecting…")),
    result: h("div", { class: "result", id: "result", role: "status", hidden: true }),
    replays: h("p", { class: "replays", id: "replays" }),
    log: h("ol", { class: "log", id: "log", "aria-label": _("Move log") }),
    announce: h("p", { class: "sr-only", id: "announce", "aria-live": "polite" }),
    numbering: h("span", { class: "numbering" }),
  };
  // Three parts around the board, placed by play.css — beside it on a
  // wide screen; on a phone the facts above it, the turn's controls (the dock) below it
  // in portrait and beside it in landscape, so nothing needs scrolling.
  el.panel = h("aside", { class: "panel info", id: "match-info", "aria-label": _("Match") },
    el.title, el.players, el.stakeLine, el.pipsLine);
  el.dock = h("div", { class: "panel dock", id: "dock", role: "group",
                       "aria-label": _("Controls") },
    el.statusLine, el.hint, el.notice, el.result, el.clockLine,
    h("div", { class: "counters" }, el.headCounter, el.diceLeft), el.dieChoice, el.actions);
  el.rest = h("section", { class: "panel rest", id: "match-log", "aria-labelledby": "moves-h" },
    el.liveLine, el.replays, h("div", { class: "moves-head" },
      h("h2", { id: "moves-h" }, _("Moves")), el.numbering), el.log, el.announce);
  el.root = h("section", { class: "match" }, el.boardHost, el.panel, el.dock, el.rest);
  return el;
}

class MatchView {
  constructor(matchId) {
    this.id = matchId;
    // What is drawn: the match as last read (its `state` the board), the server's
    // features (api.js) and which players are the computer (public profiles, read once).
    this.match = null;
    this.offer = {};
    this.bots = new Map();
    // The turn being drafted (steps of state.legal_tree, not sent yet)
    // and the state version it was drafted on; a new state clears it.
    this.draft = [];
    this.draftVersion = null;
    // The last complete turn of the game drawn (from the log), shown on
    // the board until the next roll; the steps to slide on the next drawing.
    this.lastTurn = null;
    this.lastTurnSeen = false;
    this.slide = null;
    // The page's own flags.
    this.stopped = false;
    this.busy = false;            // a write in flight: the board takes no presses
    this.pendingFocus = null;     // the control whose focus waits for a write's answer
    this.resignArmed = false;     // Resign pressed once: the next press resigns
    this.rolledOff = false;       // a roll_off event exists: too late to abort
    this.ourMove = null;          // the last render's "it is our move" (tab title, sound)
    this.lateShown = null;        // the "late" state last rendered, to redraw when it flips
    this.dieChoiceDone = null;    // the open "which die?" question's answer
    // Reading: the event channel, failed reads in a row, the latest
    // log read (an older one never draws), state reads asked for by a log ahead of it.
    this.live = null;
    this.readFailures = 0;
    this.cuts = 0;                // times the browser went offline (a read spans one?)
    this.logTicket = 0;
    this.aheadReads = 0;
    this.gameMoves = new Map();   // finished games' turns, fetched once
    this.timers = { refetch: null, clock: null, presence: null };

    this.el = panelElements(matchId);
    this.el.numbering.append(numberingSwitch(() => this.loadLog()));
    app.replaceChildren(this.el.root);
    this.board = new Board(this.el.boardHost, { onMove: (step) => this.pick(step),
                                                chooseDie: (steps) => this.chooseDie(steps),
                                                onRefuse: (text) => this.refused(text),
                                                onSelect: (key) => { if (key) this.refused(null); } });
    // Backspace on the board takes back the drafted turn's last step.
    this.el.boardHost.addEventListener("keydown", (e) => {
      if (e.key === "Backspace" && this.draft.length) { e.preventDefault(); this.undo(); }
    });
    this.reread = () => { if (!this.stopped) { wake(); this.refetch(0); } };
    this.onVisible = () => { if (document.visibilityState === "visible") this.reread(); };
    // Offline: what is drawn may be stale, and a read begun before the cut that is
    // answered after it says nothing of now.
    this.onOffline = () => {
      if (this.stopped) return;
      this.cuts += 1;
      this.readFailures += 1;
      if (this.live) this.live.cut();
      this.showLive();
    };
    window.addEventListener("online", this.reread);
    window.addEventListener("offline", this.onOffline);
    document.addEventListener("visibilitychange", this.onVisible);
  }

  async start() {
    this.offer = await features();
    await this.load();
    const m = this.match;
    if (this.stopped || !m) return;
    this.chat = openChat(this.id, () => this.match, this.el.rest);
    // A match opened (from the lobby's form, a link) with the focus
    // nowhere starts on Roll when there is one, not ten Tabs away.
    const roll = document.getElementById("roll");
    if (roll && (!document.activeElement || document.activeElement === document.body)) {
      roll.focus({ preventScroll: true });
    }
    if (!m.hotseat) {
      await Promise.all(SIDES.map(async (colour) => {
        const name = m[colour];
        if (!name || this.bots.has(name)) return;
        const profile = await attempt(() => api.get(`accounts/users/${encodeURIComponent(name)}/`),
                                      { quiet: true });
        this.bots.set(name, Boolean(profile && profile.is_bot));
      }));
      this.render();
    }
    if (this.offer.clocks && !m.hotseat) {
      // Presence (seen in the last minute) changes without events: read it now and then.
      this.timers.presence = setInterval(() => {
        if (this.match && this.match.status === "active" && !this.busy) this.refetch(0);
      }, 20000);
    }
    this.live = new MatchLive(this.id, {
      after: await this.lastSeq(),
      onEvents: (events) => this.onEvents(events),
      onStatus: (status) => {
        this.showLive();
        if (status === "live") this.refetch(0);   // whatever happened while we were away
      },
    });
    this.live.start();
  }

  stop() {
    this.stopped = true;
    document.title = PAGE_TITLE;
    window.removeEventListener("online", this.reread);
    window.removeEventListener("offline", this.onOffline);
    document.removeEventListener("visibilitychange", this.onVisible);
    clearTimeout(this.timers.refetch);
    clearInterval(this.timers.clock);
    clearInterval(this.timers.presence);
    if (this.dieChoiceDone) this.dieChoiceDone(null);
    if (this.live) this.live.stop();
    if (this.chat) this.chat.stop();
  }

  // --- what the viewer is ---------------------------------------------------------

  mySides() {
    const m = this.match, me = session.me;
    if (!m || !me) return [];
    if (m.hotseat) return SIDES.some((c) => m[c] === me) ? [...SIDES] : [];
    return SIDES.filter((c) => m[c] === me);
  }

  rules() { return (this.match && this.match.rules) || defaultRules(); }

  /** The drawing's choices (head counter, bar, hit marks): the rule set's facts. */
  facts() { return ruleSet(this.rules()) || {}; }

  /** A step of `mover`'s in the numbering the board is drawn in. */
  viewed(step, mover) {
    const s = this.match && this.match.state;
    return stepFor(step, mover, s && s.board ? s.board.perspective : null,
                   this.facts().numbering);
  }

  perspectiveQuery() {
    // Hotseat: the board turns to the side to move (R33).
    const m = this.match, s = m && m.state;
    return m && m.hotseat && s && s.turn ? `?perspective=${s.turn}` : "";
  }

  // --- reading --------------------------------------------------------------------

  accept(data) {
    if (!data || this.stopped) return;
    // Answers may come back out of order (a POST's answer after the events of what
    // followed it, a slow GET): a state older than the one drawn is never drawn.
    const drawn = this.match && this.match.state ? this.match.state.version : null;
    if (drawn !== null && data.state && data.state.version < drawn) return;
    if (drawn === null || !data.state || data.state.version > drawn) this.aheadReads = 0;
    this.match = data;
    const s = data.state;
    this.noticeAnswer(s);
    if (!s || s.version !== this.draftVersion) {
      this.draft = [];
      this.draftVersion = s ? s.version : null;
      this.refused(null);
    }
    if (data.hotseat && s && s.turn && s.board && s.board.perspective !== s.turn) {
      this.refetch(0);   // the turn passed: fetch the board from the other side
    }
    this.render();
  }

  /** Our offer answered, however the news came — its event, or a
   *  state read that shows it settled (an answer in milliseconds can reach the page in a
   *  read before its event, or with it in one batch): said once. */
  noticeAnswer(s) {
    const waiting = this.ourOffer;
    if (!waiting || !s || s.offer) return;
    this.ourOffer = null;
    if (s.game === waiting.game && s.phase === "roll" && s.turn === waiting.side
        && Number(s.stake) < waiting.stake) {
      // Not answered yet (the state from before the offer): keep waiting.
      this.ourOffer = waiting;
      return;
    }
    const accepted = s.phase !== "roll-off" && s.game === waiting.game
      && Number(s.stake) === waiting.stake;
    const them = otherSide(waiting.side);
    this.sayAnswer(accepted ? "accept" : "refuse", them, waiting.stake);
  }

  /** "Your rating: 1512.3 (+12.3)": a rated match's change for the viewer's side, from
   *  its match_over event's data (live, or read again when the page is opened). */
  sayRatings(d) {
    const m = this.match;
    if (!d.ratings || !m || m.hotseat) return;
    const text = this.mySides().map((c) => matchOverText(d.ratings, c)).join(" ");
    if (!text) return;
    this.el.notice.textContent = text;
    this.el.notice.hidden = false;
    this.el.notice.dataset.ratings = "true";
  }

  /** The notice (and, for an accept, a toast) that the other side answered our offer. */
  sayAnswer(kind, by, stake) {
    const { notice } = this.el;
    const computer = this.match && this.bots.get(this.match[by]);
    const text = kind === "accept"
      ? f(computer ? _("The computer accepts your raise: the stake is now %(stake)s.")
                   : _("%(side)s accepts your raise: the stake is now %(stake)s."),
          { side: side(by), stake })
      : f(computer ? _("The computer refuses your raise to %(stake)s: you win the game.")
                   : _("%(side)s refuses your raise to %(stake)s: you win the game."),
          { side: side(by), stake });
    notice.textContent = text;
    notice.hidden = false;
    notice.dataset.answer = kind;
    if (kind === "accept") toast(text);   // a refusal's toast is the game's result
  }

  // A failed read means the board may be stale: "reconnecting…" until
  // a read succeeds again, retried with back-off (1, 2, 4, 8 s) and at once when the
  // network comes back or the tab is shown again.
  showLive() {
    const live = this.live, line = this.el.liveLine;
    const status = this.readFailures || navigator.onLine === false ? "reconnecting"
      : live ? live.status || "connecting" : "connecting";
    const mode = live ? live.mode : null;
    line.dataset.state = status;
    line.dataset.mode = mode || "";
    line.textContent = status === "live"
      ? (mode === "stream" ? _("● live") : mode === "poll" ? _("● live (long poll)")
        : _("● live (polling)"))
      : status === "connecting" ? _("connecting…") : _("reconnecting…");
  }

  async load() {
    const cuts = this.cuts;
    const data = await attempt(() => api.get(`matches/${this.id}/${this.perspectiveQuery()}`),
                               { quiet: this.readFailures > 0 });
    if (this.stopped) return;
    if (data && (cuts !== this.cuts || navigator.onLine === false)) {
      // Begun before a cut: drawn, but no proof the page is up to date; read again at
      // once if the network is back, else when it comes back ("online").
      this.accept(data);
      this.showLive();
      if (navigator.onLine !== false) this.refetch(0);
      return;
    }
    if (!data) {
      this.readFailures += 1;
      this.showLive();
      this.refetch(Math.min(8000, 1000 * 2 ** (this.readFailures - 1)));
      return;
    }
    const was = this.readFailures;
    this.readFailures = 0;
    this.accept(data);
    if (was) this.showLive();
    this.loadLog();
  }

  refetch(delay = 60) {
    clearTimeout(this.timers.refetch);
    this.timers.refetch = setTimeout(() => this.load(), delay);
  }

  async lastSeq() {
    const events = await attempt(() => api.get(`matches/${this.id}/events/`), { quiet: true });
    if (events && events.some((e) => e.type === "roll_off")) this.rolledOff = true;
    // A finished rated match opened again: the rating change from its match_over event,
    // as the live event showed it.
    const over = (events || []).find((e) => e.type === "match_over");
    if (over) this.sayRatings(over.data || {});
    return events && events.length ? events[events.length - 1].seq : 0;
  }

  // The log is read after the state it is drawn with (load, act) and may already hold
  // what came after that state: it is drawn only as far as the board and the status
  // are, and the state is read again at once (the log after it shows the rest).
  async loadLog() {
    const ticket = ++this.logTicket;
    const games = await attempt(() => api.get(`matches/${this.id}/games/`), { quiet: true });
    if (!games || this.stopped || ticket !== this.logTicket) return;
    const turnsOf = new Map();
    for (const game of games) {
      let turns = this.gameMoves.get(game.number);
      if (!turns) {
        turns = await attempt(() => api.get(`matches/${this.id}/games/${game.number}/moves/`),
                              { quiet: true }) || [];
        if (game.winner) this.gameMoves.set(game.number, turns);
      }
      turnsOf.set(game.number, turns);
    }
    if (this.stopped || ticket !== this.logTicket) return;   // a later read draws instead
    const drawn = drawnRecord(this.match, this.aheadReads);
    // The log in the viewer's numbering, or each mover's own when asked for.
    const written = ownNumbering() ? (step) => step : (step, mover) => this.viewed(step, mover);
    const { parts, shown, ahead } = logEntries(this.match, games, turnsOf, drawn, written);
    // A finished match: its last game's winning turn is the last move (the state's
    // record has no limit then, and the turn marked before would be the loser's).
    const s = this.match && this.match.state;
    const ended = !drawn && this.match && this.match.status === "finished" && s
      && typeof s.game === "number" ? { game: s.game, turn: Infinity, steps: null } : null;
    const upTo = drawn || ended;
    this.noteLastTurn(upTo ? turnsOf.get(upTo.game) || [] : [], upTo);
    if (ahead) {
      this.aheadReads += 1;
      this.refetch(0);
    }
    const { log, result } = this.el;
    this.el.replays.replaceChildren(...replayLinks(this.id, shown));
    const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 20;
    log.replaceChildren(...parts);
    if (atBottom) log.scrollTop = log.scrollHeight;
    const m = this.match;
    const last = shown[shown.length - 1];
    const newest = drawn ? drawn.game : games.length;
    if (last && (!m || m.status === "finished" || last.number === newest - 1
                 || last.number === newest)) {
      result.hidden = false;
      const why = resultExplanation(last, this.rules());
      result.textContent = resultSentence(last)
        + (m && m.status === "finished"
          ? ". " + f(_("Match over: %(outcome)s."), { outcome: matchOutcome(m) })
          : ".") + (why ? ` ${why}` : "");
      result.dataset.explanation = why;
    } else {
      result.hidden = true;
    }
  }

  /** The last complete turn of the game drawn, from its log: drawn as from/to marks with
   *  its dice until the next roll, and slid onto the board when it is new and not ours. */
  noteLastTurn(turns, drawn) {
    const next = lastTurnOf(turns, drawn);
    if (next === undefined) return;
    const key = (x) => (x ? `${x.game}:${x.number}` : "");
    if (key(next) === key(this.lastTurn)) return;
    const first = this.lastTurn === null && !this.lastTurnSeen;
    this.lastTurnSeen = true;
    this.lastTurn = next;
    if (next && !first && !this.mySides().includes(next.side) && next.steps.length) {
      this.slide = { id: `turn:${key(next)}`, side: next.side,
                     steps: next.steps.map((st) => this.viewed(st, next.side)) };
    }
    if (this.match) this.render();
  }

  onEvents(events) {
    const m = this.match;
    const hotseat = Boolean(m && m.hotseat);
    const { announce, notice } = this.el;
    for (const e of events) {
      const d = e.data || {};
      if (e.type === "roll_off") this.rolledOff = true;
      const mine = this.mySides().includes(d.side) && !hotseat;
      if ((e.type === "chat" || e.type === "match_over") && this.chat) this.chat.poke();
      if (e.type === "step" && !mine) {
        const step = stepText(this.viewed(d, d.side));
        announce.textContent = f(_("%(side)s played %(step)s"), { side: side(d.side), step });
        if (d.hit && !hotseat) {
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
      } else if (e.type === "match_over") {
        this.sayRatings(d);
      } else if (e.type === "resign_offer" && !mine) {
        const text = ngettext(
          "%(side)s offers to resign: a %(result)s, %(count)s point — accept or refuse.",
          "%(side)s offers to resign: a %(result)s, %(count)s points — accept or refuse.",
          d.points, { side: side(d.side), result: resultWord(d.result) });
        announce.textContent = text;
        if (!hotseat) toast(text);
      } else if (e.type === "resign_answer" && d.answer === "refuse" && !mine && !hotseat) {
        toast(f(_("%(side)s refuses your offer to resign: play on."), { side: side(d.side) }));
      } else if ((e.type === "accept" || e.type === "refuse") && !mine
                 && this.mySides().includes(otherSide(d.side)) && !hotseat) {
        // The other side (a player, or the computer) answered our offer.
        if (this.ourOffer) {
          this.ourOffer = null;
          this.sayAnswer(e.type, d.side, e.type === "accept" ? d.stake : d.offered ?? d.stake);
        }
      } else if (e.type === "roll" && !mine) {
        // A new turn of theirs: a hit toast of an earlier turn is not about this one.
        clearHitToast();
        // A refused pick's reason, shown, stays the announcement: a roll heard meanwhile
        // is the one the turn began with (in hotseat the stream may bring it late).
        if (this.el.hint.hidden) {
          announce.textContent = f(_("%(side)s rolled %(dice)s"),
                                   { side: side(d.side), dice: (d.dice || []).join("-") });
        }
      }
    }
    this.refetch();
  }

  // --- acting ---------------------------------------------------------------------

  /** A write; its answer drawn. `guard: false` sends no expected_version: for a roll-off
   *  die, which both sides roll at once (R7) — the other side's die (the computer's, a
   *  few milliseconds after ours: it waits for it) changes nothing ours depends on,
   *  and the server's own guards (wrong_phase, not_your_turn) still hold (no 409
   *  in the normal flow). */
  async act(path, body = {}, { guard = true } = {}) {
    if (this.busy) return undefined;
    this.busy = true;
    this.el.notice.hidden = true;
    try {
      const s = this.match && this.match.state;
      const version = s && guard ? { expected_version: s.version } : {};
      const answer = await api.post(`matches/${this.id}/${path}/${this.perspectiveQuery()}`,
                                    { ...body, ...version });
      this.accept(answer);
      this.loadLog();
      return answer;
    } catch (error) {
      if (error instanceof ApiError && error.code === "version_conflict") {
        toast(_("The match moved on; here it is now."));
      } else {
        toast(explain(error), "error");
      }
      this.load();
      return undefined;
    } finally {
      this.busy = false;
      if (this.match && !this.stopped) this.render();   // the board takes presses again
    }
  }

  /** Offer a raise. Its answer is said by noticeAnswer or the answer's event, whichever
   *  comes first — the offer is noted before it is sent, since the computer's answer can
   *  arrive before the offer's own. */
  async offerRaise() {
    const s = this.match && this.match.state;
    this.ourOffer = s ? { game: s.game, side: s.turn, stake: Number(nextStake(this.match)) }
      : null;
    const answer = await this.act("offer");
    if (!answer) this.ourOffer = null;
  }

  // Committed dice (docs/fairness.md): with the roll that draws a game's first die the page
  // adds a fresh random seed of the roller's own to the game's committed dice.
  ownSeed() {
    const s = this.match && this.match.state;
    const fair = s && s.fairness;
    if (!fair || !fair.seeds_open) return {};
    const sides = this.mySides();
    const roller = s.phase === "roll-off"
      ? sides.find((c) => s.roll_off[c] === null) : s.turn;
    if (!roller || !sides.includes(roller) || fair.player_seeds[roller] !== null) return {};
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return { seed: Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("") };
  }

  async roll() {
    const s = this.match && this.match.state;
    const answer = await this.act("roll", this.ownSeed(),
                                  { guard: !(s && s.phase === "roll-off") });
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

  /** The state's legal_tree while a turn is played, or null (an older server). */
  tree() {
    const s = this.match && this.match.state;
    return s && s.phase === "move" && Array.isArray(s.legal_tree) && s.legal_tree.length
      ? s.legal_tree : null;
  }

  /** The drafted turn's stop in state.legal_tree, or null (no tree). */
  draftStop() {
    const t = this.tree();
    if (!t) return null;
    const last = this.draft[this.draft.length - 1];
    return t[last ? last.next : 0] || null;
  }

  draftComplete() {
    const here = this.draftStop();
    return Boolean(this.draft.length && here && !here.steps.length);
  }

  /** A landing on the board: a step of the draft; at the turn's end, sent on Done (or at
   *  once with the auto-confirm). Without a tree each step is sent as it is picked. */
  pick(step) {
    const here = this.draftStop();
    if (!here) { this.play(step); return; }
    const found = here.steps.find((st) => st.from === step.from && st.to === step.to
                                         && st.die === step.die);
    if (!found) return;
    this.refused(null);
    this.draft.push(found);
    this.slide = { id: `draft:${this.draftVersion}:${this.draft.length}`, steps: [found],
                   side: this.match.state.turn };
    this.render();
    if (this.draftComplete() && stored(AUTO_CONFIRM) === "1") this.confirm();
    else if (this.draftComplete()) {
      const done = document.getElementById("done");
      if (done && this.el.boardHost.contains(document.activeElement)) done.focus();
    }
  }

  /** A refused pick's reason shown under the status and announced; null clears it. */
  refused(text) {
    const { hint, announce } = this.el;
    hint.hidden = !text;
    hint.textContent = text || "";
    if (text) announce.textContent = text;
  }

  undo(all = false) {
    if (!this.draft.length || this.busy) return;
    if (all) this.draft = []; else this.draft.pop();
    this.render();
  }

  async confirm() {
    if (!this.draftComplete() || this.busy) return;
    await this.play(this.draft.map(({ from, to, die }) => ({ from, to, die })));
  }

  async play(step) {
    const steps = Array.isArray(step) ? step : [step];
    const answer = await this.act("moves", { steps });
    const hit = answer && (answer.applied || []).find((a) => a.hit);
    if (hit) {
      toast(f(_("Hit! %(step)s: the blot goes to the bar."), { step: stepText(hit) }), "hit");
      this.el.announce.textContent = f(_("Hit on %(point)s: the opponent's checker goes to the bar"),
                                       { point: hit.to });
    }
  }

  // Two dice bear the same checker off (or land it on the same point): the player
  // picks the die; the board waits for the answer (null: put the checker back).
  chooseDie(steps) {
    if (this.dieChoiceDone) this.dieChoiceDone(null);
    const box = this.el.dieChoice;
    return new Promise((resolve) => {
      const done = this.dieChoiceDone = (step) => {
        if (this.dieChoiceDone !== done) return;
        this.dieChoiceDone = null;
        box.hidden = true;
        box.replaceChildren();
        resolve(step);
      };
      const where = (step) => (step.to === 0 ? _("Bear off")
        : f(_("To %(point)s"), { point: step.to }));
      const sorted = [...steps].sort((a, b) => a.die - b.die);
      box.replaceChildren(
        h("span", { class: "label" }, f(_("Which die? %(where)s with:"),
                                        { where: where(sorted[0]) })),
        ...sorted.map((step) => button(f(_("the %(die)s"), { die: step.die }), () => done(step), {
          class: "primary", "data-die": step.die,
          "aria-label": f(_("%(where)s with the %(die)s"), { where: where(step), die: step.die }),
        })),
        button(_("Cancel"), () => done(null), { class: "link", "data-die": "" }));
      box.hidden = false;
      const first = box.querySelector("button");
      if (first) first.focus();
    });
  }

  async resign() {
    if (!this.resignArmed) {
      this.resignArmed = true;
      this.render();
      setTimeout(() => { this.resignArmed = false; if (this.match) this.render(); }, 5000);
      return;
    }
    this.resignArmed = false;
    await this.act("resign");
  }

  /** Offer to resign the game with a cheaper result (`resign/` with `offer`): the
   *  opponent accepts (the game ends with it) or refuses (play goes on). */
  async offerResign(result) {
    this.resignArmed = false;
    await this.act("resign", { offer: result });
  }

  /** Resign the whole match (`resign/` with `match: true`): offered beside the armed
   *  Resign when losing the game would not end the match by itself. */
  async resignMatch() {
    this.resignArmed = false;
    await this.act("resign", { match: true });
  }

  async rematch() {
    const r = await attempt(() => api.post(`matches/${this.id}/rematch/`, {}));
    if (r) {
      if (r.status === "active") go(`#/match/${r.id}`);
      else toast(f(_("Rematch: invitation sent to %(name)s."), { name: r.invited }));
    }
  }

  // --- drawing --------------------------------------------------------------------

  render() {
    const m = this.match;
    const s = m.state;
    const sides = this.mySides();
    const acting = canAct(m, sides);
    this.el.title.textContent = matchTitle(m);
    this.renderPlayers(sides);
    this.el.statusLine.textContent = statusText(m, sides, this.bots);

    // The tab says when it is our move (not in hotseat), with a beep
    // when the player asked for one.
    const moveNow = Boolean(acting && !m.hotseat && s && s.phase !== "roll-off");
    document.title = moveNow ? `● ${_("Your move")} — ${PAGE_TITLE}` : PAGE_TITLE;
    if (moveNow && this.ourMove === false && stored(SOUND) === "1") beep();
    this.ourMove = moveNow;

    const here = this.draftStop();
    const left = here ? here.dice_left : s && s.dice_left;
    // R13: the head counter while a checker may still leave the head.
    const head = s && m.status === "active" && s.phase === "move"
      ? (here ? here.head_may_leave : s.head_may_leave) || 0 : 0;
    this.renderCounters(left, head);
    this.renderClock();
    // While the computer has the move, say so.
    const status = this.el.statusLine;
    if (computerActs(m, sides, this.bots)) {
      status.textContent = _("The computer is thinking…");
      status.dataset.thinking = "true";
    } else {
      delete status.dataset.thinking;
    }
    this.renderActions(sides, acting);
    this.renderBoard(acting, here, left, head);
  }

  renderPlayers(sides) {
    const m = this.match, s = m.state;
    const youAre = m.hotseat ? "" : sides.length
      ? f(_(" (you: %(side)s)"), { side: COLOUR_WORDS[sides[0]] }) : _(" (watching)");
    const presence = (colour) => {
      // state.presence (clocks): seen in the last minute. A word, not colour alone.
      if (!s || !s.presence || m.hotseat || m.status !== "active") return null;
      if (this.bots.get(m[colour])) {
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
    this.el.players.replaceChildren(
      h("span", { class: "player white" }, h("span", { class: "swatch white" }),
        ` ${_("White")}: `, h("strong", {}, m.white || "—"), presence("white")),
      h("span", { class: "player black" }, h("span", { class: "swatch black" }),
        ` ${_("Black")}: `, h("strong", {}, m.black || m.invited || "—"), presence("black")),
      h("span", { class: "score", id: "score" },
        f(_("Score %(white)s–%(black)s of %(length)s"), { ...m.score, length: m.length })
        + youAre));
  }

  /** The head counter, dice left, the stake and the pip counts. */
  renderCounters(left, head) {
    const m = this.match, s = m.state;
    const { headCounter, diceLeft, stakeLine, pipsLine } = this.el;
    headCounter.hidden = !(head > 0);
    headCounter.textContent = head > 0 ? f(_("%(count)s may leave"), { count: head }) : "";
    diceLeft.textContent = s && s.phase === "move" && left && left.length
      ? f(_("Dice left: %(dice)s"), { dice: left.join(", ") }) : "";
    stakeLine.hidden = !hasStakes(m);
    if (hasStakes(m) && s) {
      stakeLine.textContent = stakeText(m);
      stakeLine.dataset.stake = s.stake ?? 1;
      stakeLine.dataset.mayOffer = s.may_offer || "";
      stakeLine.dataset.crawford = m.crawford_game && m.crawford_game === s.game
        ? "true" : "false";
    }
    pipsLine.hidden = !(s && s.board);
    if (s && s.board) {
      const counted = pips(applySteps(s.board, this.draft), this.facts());
      pipsLine.textContent = f(counted.home ? _("To home: White %(white)s · Black %(black)s")
                                            : _("Pips: White %(white)s · Black %(black)s"),
                               counted.counts);
      pipsLine.dataset.white = counted.counts.white;
      pipsLine.dataset.black = counted.counts.black;
    }
  }

  // --- clocks (state.deadline) ---

  /** Past the deadline: who is late and which of our sides may claim (one late side). */
  lateNow() {
    const m = this.match, s = m && m.state;
    if (!this.offer.clocks || !s || !s.deadline || m.status !== "active") return null;
    if (Date.parse(s.deadline) > serverNow()) return null;
    const late = clockSides(m);
    const claimers = late.length === 1 ? this.mySides().filter((c) => !late.includes(c)) : [];
    return { late, claimers };
  }

  renderClock() {
    const m = this.match, s = m && m.state;
    const line = this.el.clockLine;
    const on = Boolean(this.offer.clocks && s && s.deadline && m.status === "active");
    line.hidden = !on;
    if (!on) {
      clearInterval(this.timers.clock);
      this.timers.clock = null;
      this.lateShown = null;
      return;
    }
    const left = Date.parse(s.deadline) - serverNow();
    line.dataset.late = left <= 0 ? "true" : "false";
    line.dataset.seconds = String(Math.max(0, Math.round(left / 1000)));
    line.dataset.side = clockSides(m).join(" ");
    line.classList.toggle("urgent", left > 0 && left < 10000);
    line.textContent = clockLineText(m, this.mySides(), left);
    const late = left <= 0;
    if (this.lateShown !== null && this.lateShown !== late) {
      this.lateShown = late;
      this.render();   // the claim button comes (or goes)
      return;
    }
    this.lateShown = late;
    if (!this.timers.clock) {
      this.timers.clock = setInterval(() => {
        if (!this.stopped && this.match) this.renderClock();
      }, 250);
    }
  }

  /** The buttons: roll, offer, the draft's Done/Undo, answers, claim, abort, resign,
   *  rematch, join/cancel, the lobby link and the sound switch. */
  renderActions(sides, acting) {
    const m = this.match, s = m.state;
    const { actions: shown, statusLine } = this.el;
    const actions = document.createDocumentFragment();   // drawn into `shown` at the end
    const ro = (s && s.roll_off) || {};
    // The focus stays in the controls when they are drawn again.
    const active = document.activeElement;
    let focused = active && shown.contains(active) ? active.id || "" : null;
    if (focused === null && this.pendingFocus !== null && !this.busy
        && (!active || active === document.body)) {
      focused = this.pendingFocus;   // Done was pressed: its answer says what comes next
    }
    if (!this.busy) this.pendingFocus = null;
    if (acting && (s.phase === "roll" || s.phase === "roll-off")) {
      actions.append(button(s.phase === "roll-off" ? _("Roll one die") : _("Roll"),
                            () => this.roll(), { id: "roll", class: "primary" }));
    }
    if (acting && s.phase === "roll" && hasStakes(m)
        && (s.may_offer === "both" || s.may_offer === s.turn)) {
      actions.append(button(f(m.stakes === "cube" ? _("Offer a double (to %(stake)s)")
                                                  : _("Offer a raise (to %(stake)s)"),
                              { stake: nextStake(m) }),
                            () => this.offerRaise(), { id: "offer" }));
    }
    if (acting && s.phase === "move" && this.tree()) {
      // The drafted turn is the player's until Done.
      const complete = this.draftComplete();
      const none = !this.draft.length || this.busy;
      actions.append(
        button(_("Done"), () => this.confirm(), { id: "done", class: "primary",
                                                  disabled: !complete || this.busy }),
        button(_("Undo"), () => this.undo(), { id: "undo", disabled: none }),
        button(_("Undo the turn"), () => this.undo(true), { id: "undo-turn", disabled: none }));
      const auto = h("input", { type: "checkbox", id: "auto-confirm",
                                checked: stored(AUTO_CONFIRM) === "1",
                                onchange: (e) => store(AUTO_CONFIRM, e.target.checked ? "1" : "0") });
      actions.append(h("label", { class: "auto-confirm" }, auto,
                       " ", _("Confirm when the last die is played")));
      if (complete) statusLine.textContent = _("Turn complete: press Done, or undo a step.");
    }
    if (acting && s.phase === "offer") {
      actions.append(button(f(_("Accept (stake %(stake)s)"), { stake: s.offer ? s.offer.stake : "" }),
                            () => this.act("accept"), { id: "accept", class: "primary" }),
                     button(_("Refuse (lose the game)"), () => this.act("refuse"), { id: "refuse" }));
    }
    if (acting && s.phase === "resign" && s.resign_offer) {
      const o = s.resign_offer;
      actions.append(
        button(ngettext("Accept: win %(count)s point (%(result)s)",
                        "Accept: win %(count)s points (%(result)s)", o.points,
                        { result: resultWord(o.result) }),
               () => this.act("resign/accept"), { id: "resign-accept", class: "primary" }),
        button(_("Refuse: play on"), () => this.act("resign/refuse"), { id: "resign-refuse" }));
    }
    const late = this.lateNow();
    if (late && late.claimers.length) {
      actions.append(button(f(_("Claim the game (%(side)s is late)"),
                              { side: late.late.map(side).join(", ") }),
                            () => this.act("claim"), { id: "claim", class: "danger" }));
    }
    if (this.offer.abort && m.status === "active" && sides.length && s && s.game === 1
        && s.phase === "roll-off" && !this.rolledOff && !ro.white && !ro.black) {
      actions.append(button(_("Abort (no result)"), () => this.act("abort"), { id: "abort" }));
    }
    // While a resignation offer waits, only its maker may still resign outright.
    const offerWaits = s && s.phase === "resign" && s.resign_offer;
    if (m.status === "active" && sides.length && s && s.phase !== "roll-off"
        && (!offerWaits || (!m.hotseat && sides.includes(s.resign_offer.by)))) {
      const who2 = m.hotseat && s.turn ? ` (${COLOUR_WORDS[s.turn]})` : "";
      // The confirm says what it costs (state.resign, the server's score).
      const cost = s.resign;
      const armed = cost
        ? ngettext("Resign: you lose %(count)s point (%(result)s) — press again to confirm",
                   "Resign: you lose %(count)s points (%(result)s) — press again to confirm",
                   cost.points, { result: resultWord(cost.result) })
        : _("Confirm: resign the game");
      actions.append(button((this.resignArmed ? armed : _("Resign")) + who2,
                            () => this.resign(),
                            { id: "resign", class: this.resignArmed ? "danger" : "" }));
      // The whole match too, when the game's points would not end it.
      const theirs = cost ? (m.score || {})[otherSide(cost.side)] || 0 : 0;
      if (this.resignArmed && cost && theirs + cost.points < m.length) {
        actions.append(button(ngettext(
          "Resign the match: you lose this game's %(count)s point and the match",
          "Resign the match: you lose this game's %(count)s points and the match",
          cost.points) + who2, () => this.resignMatch(), { id: "resign-match",
                                                          class: "danger" }));
      }
      // Or offer a cheaper result first (gnubg's and Galaxy's choice): the opponent
      // accepts or refuses; each says what it would cost.
      if (this.resignArmed && cost) {
        for (const o of cost.offers || []) {
          actions.append(button(ngettext(
            "Offer to resign a %(result)s: you would lose %(count)s point",
            "Offer to resign a %(result)s: you would lose %(count)s points", o.points,
            { result: resultWord(o.result) }) + who2, () => this.offerResign(o.result),
          { id: `resign-offer-${o.result}`, class: "resign-offer" }));
        }
      }
    }
    if (m.status === "finished" && sides.length) {
      actions.append(button(_("Rematch"), () => this.rematch(), { id: "rematch" }));
    }
    if (m.status === "invited" && m.invited === session.me) {
      actions.append(button(_("Accept"), () => this.act("join"), { id: "join", class: "primary" }),
                     button(_("Decline"), () => this.act("decline")));
    } else if (m.status === "open" && session.me && !sides.length) {
      actions.append(button(_("Join"), () => this.act("join"), { id: "join", class: "primary" }));
    } else if ((m.status === "open" || m.status === "invited") && sides.length) {
      actions.append(button(_("Cancel"), () => this.act("cancel"), { id: "cancel" }));
    }
    actions.append(h("a", { class: "button link", href: "#/" }, _("Lobby")));
    if (!m.hotseat && sides.length && m.status === "active") {
      actions.append(h("label", { class: "sound" }, h("input", {
        type: "checkbox", id: "sound", checked: stored(SOUND) === "1",
        onchange: (e) => { store(SOUND, e.target.checked ? "1" : "0"); if (e.target.checked) beep(); },
      }), " ", _("Sound on your move")));
    }
    // Unchanged controls are kept: the computer's steps, animated one by one, draw them
    // again several times a second.
    const hadRoll = Boolean(shown.querySelector("#roll"));
    replaceChildrenKeeping(shown, [...actions.childNodes]);
    if (focused !== null) this.refocus(focused);
    else if (!hadRoll && !m.hotseat && (!active || active === document.body
                                         || this.el.boardHost.contains(active))) {
      // The opponent's (the computer's) reply brought our Roll while the focus waited on
      // the board or nowhere: the next thing to do is Roll, not a Tab away.
      const roll = document.getElementById("roll");
      if (roll) roll.focus({ preventScroll: true });
    }
  }

  /** The control that had the focus is drawn again: focus it, or, gone (Roll after the
   *  roll, Done after the turn), the next thing to do — Roll, the board's checkers that
   *  may move, Done. */
  refocus(id) {
    const same = id && document.getElementById(id);
    if (same && !same.disabled) { same.focus(); return; }
    // Disabled only while a write is in flight (Done pressed, and something drew the
    // page before the answer came): the answer's drawing places the focus, not the board.
    if (same && this.busy) { this.pendingFocus = id; return; }
    const roll = document.getElementById("roll");
    if (roll) { roll.focus(); return; }
    const done = document.getElementById("done");
    if (done && !done.disabled) { done.focus(); return; }
    this.board.focusSource();
  }

  renderBoard(acting, here, left, head) {
    const m = this.match, s = m.state;
    const host = this.el.boardHost;
    // For tests and scripts: what the page is showing, without parsing the SVG.
    host.dataset.status = m.status;
    host.dataset.busy = String(this.busy);   // a write in flight: presses are ignored
    if (s) {
      host.dataset.version = s.version;
      host.dataset.phase = s.phase;
      host.dataset.turn = s.turn || "";
      host.dataset.game = s.game ?? "";
      host.dataset.turnNumber = s.turn_number ?? "";
      host.dataset.draft = String(this.draft.length);
      host.dataset.stop = this.draft.length ? String(this.draft[this.draft.length - 1].next) : "0";
    }
    if (!s || !s.board) return;
    const facts = this.facts();
    const sliding = this.slide;
    this.slide = null;
    const last = this.lastTurn;
    this.board.update({
      board: applySteps(s.board, this.draft),
      legalSteps: acting && s.phase === "move"
        ? (here ? here.steps : s.legal_steps || []) : [],
      interactive: acting && s.phase === "move" && !this.busy,
      dice: s.phase === "move" ? s.dice : null,
      diceLeft: left,
      rollOff: s.phase === "roll-off" ? s.roll_off : null,
      headMayLeave: facts.head ? head : 0,
      headOwner: s.turn || null,
      numbering: facts.numbering,
      stake: hasStakes(m) ? stakeOnBoard(m) : null,
      diceOwner: s.turn || null,
      lastMove: s.phase !== "move" && last && last.game === s.game
        ? { side: last.side, dice: last.dice,
            steps: last.steps.map((st) => this.viewed(st, last.side)) } : null,
      animate: sliding,
      hitting: Boolean(facts.hits),
      head: Boolean(facts.head),
      bar: Boolean(facts.bar),
    });
  }
}
