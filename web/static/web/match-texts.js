// The match view's texts and counts, as pure functions of the match (GET matches/{id}/)
// and the viewer's sides: the status line, the stake, the clock, the pip counts. No DOM
// and no API: match.js draws what these say.

import { SIDES, otherSide } from "./api.js";
import { stepFor } from "./board.js";
import { _, f, ngettext, side } from "./i18n.js";
import { isComputer, matchOutcome, resultWord } from "./common.js";

/** Whether a roll-off die of one of `sides` is still to roll (or to roll again). */
export function rollOffOpen(m, sides) {
  const s = m.state;
  const ro = (s && s.roll_off) || {};
  return Boolean(s && s.phase === "roll-off" && m.status === "active"
    && sides.some((c) => ro[c] === null || ro[c] === undefined
                         || (ro.white && ro.white === ro.black)));
}

/** Whether the viewer (its `sides`) has something to do now. */
export function canAct(m, sides) {
  const s = m.state;
  return Boolean(s && m.status === "active" && (sides.includes(s.turn) || rollOffOpen(m, sides)));
}

/** A computer's account: a public profile's `is_bot` (`bots`), or its name. */
const isBot = (m, colour, bots) => Boolean(bots.get(m[colour]) || isComputer(m[colour]));

/** The status line: whose turn it is and what to do. */
export function statusText(m, sides, bots) {
  const s = m.state;
  const ro = (s && s.roll_off) || {};
  const turnName = s && s.turn ? side(s.turn) : "";
  if (m.status === "open") return _("Waiting for someone to join this seek.");
  if (m.status === "invited") return f(_("Waiting for %(name)s to accept."), { name: m.invited });
  if (m.status === "aborted") return _("This match was called off.");
  if (m.status === "finished") return f(_("Match over: %(outcome)s."), { outcome: matchOutcome(m) });
  if (!s) return "";
  const you = canAct(m, sides) && !m.hotseat;
  if (s.phase === "roll-off") {
    return f(_("Roll-off: White %(white)s, Black %(black)s."),
             { white: ro.white ?? "—", black: ro.black ?? "—" })
      + (sides.length ? ` ${_("Roll one die; the higher starts.")}` : " ");
  }
  if (s.phase === "roll") {
    return you ? _("Your turn: roll the dice.") : f(_("%(side)s to roll."), { side: turnName });
  }
  if (s.phase === "move") {
    return you ? _("Your move: pick a checker, then a gold landing.")
      : f(m.hotseat ? _("%(side)s to move: pick a checker, then a gold landing.")
                    : _("%(side)s to move."), { side: turnName });
  }
  if (s.phase === "offer" && s.offer) {
    // Said to whoever reads it: the side to answer is told to, the offerer waits.
    const values = { side: side(s.offer.by), stake: s.offer.stake, other: turnName };
    const computer = (colour) => !m.hotseat && isBot(m, colour, bots);
    if (you) {
      return f(computer(s.offer.by)
        ? _("The computer offers to raise the stake to %(stake)s: accept or refuse.")
        : _("%(side)s offers to raise the stake to %(stake)s: accept or refuse."), values);
    }
    if (!m.hotseat && sides.includes(s.offer.by)) {
      return f(computer(s.turn)
        ? _("You offer to raise the stake to %(stake)s; the computer answers.")
        : _("You offer to raise the stake to %(stake)s; %(other)s answers."), values);
    }
    return f(_("%(side)s offers to raise the stake to %(stake)s; %(other)s answers."), values);
  }
  if (s.phase === "resign" && s.resign_offer) {
    const o = s.resign_offer;
    const values = { side: side(o.by), result: resultWord(o.result), other: turnName };
    if (you) {
      return ngettext("%(side)s offers to resign: accept to win %(count)s point (%(result)s), or refuse to play on.",
                      "%(side)s offers to resign: accept to win %(count)s points (%(result)s), or refuse to play on.",
                      o.points, values);
    }
    if (!m.hotseat && sides.includes(o.by)) {
      return f(_("You offer to resign (%(result)s); %(other)s answers."), values);
    }
    return f(_("%(side)s offers to resign (%(result)s); %(other)s answers."), values);
  }
  return "";
}

/** Whether the computer has the move (to roll, to move, its roll-off
 *  die still to come once ours is in). */
export function computerActs(m, sides, bots) {
  const s = m.state;
  const ro = (s && s.roll_off) || {};
  const computerSide = (c) => !m.hotseat && !sides.includes(c) && isBot(m, c, bots);
  return Boolean(s && m.status === "active"
    && (((s.phase === "roll" || s.phase === "move" || s.phase === "resign") && s.turn
         && computerSide(s.turn))
        || (s.phase === "roll-off" && SIDES.some((c) => computerSide(c)
            && (ro[c] === null || ro[c] === undefined || (ro.white && ro.white === ro.black)))
            && sides.every((c) => ro[c] !== null && ro[c] !== undefined))));
}

export const hasStakes = (m) => Boolean(m && m.stakes && m.stakes !== "none");

/** "Stake 2 (cube) · may raise: Black" (S1-S7). */
export function stakeText(m) {
  const s = m.state;
  const crawford = m.crawford_game && m.crawford_game === s.game;
  const holder = { both: _("either side"), white: _("White"), black: _("Black") }[s.may_offer];
  return f(_("Stake %(stake)s"), { stake: s.stake ?? 1 })
    + (m.stakes === "cube" ? _(" (cube)") : m.stakes === "dave" ? _(" (dave)") : "")
    + " · " + (crawford ? _("Crawford game: no raises")
      : holder ? f(_("may raise: %(side)s"), { side: holder })
      : m.length === 1 ? _("no raises in a 1-point match") : _("no more raises"))
    + (m.crawford_game && m.crawford_game < s.game ? ` · ${_("after Crawford")}` : "");
}

/** The stake as the board draws it: its value, the cube's face (64 on
 *  a centred cube at 1, as gnubg shows it), its owner (S2, `stake_holder`: null while
 *  nobody owns it), who may raise, and its accessible label. */
export function stakeOnBoard(m) {
  const s = m.state;
  const value = s.stake ?? 1;
  const owner = s.stake_holder || null;
  const kind = m.stakes === "cube" ? _("Doubling cube") : _("Dave's stake");
  const where = owner
    ? f(_("%(kind)s at %(stake)s, owned by %(side)s"),
        { kind, stake: value, side: owner === "white" ? _("White") : _("Black") })
    : f(_("%(kind)s at %(stake)s, in the middle: nobody owns it"), { kind, stake: value });
  return { value, owner, holder: s.may_offer,
           face: m.stakes === "cube" && !owner && value === 1 ? 64 : value,
           label: `${where}. ${stakeText(m)}` };
}

/** The stake a raise would make: doubled, or plus one in dave's arithmetic progression. */
export function nextStake(m) {
  const s = m.state;
  return m.stakes === "dave" && m.progression === "arithmetic"
    ? (s.stake ?? 1) + 1 : (s.stake ?? 1) * 2;
}

/** "0:27", "1:00:00". */
export function clockText(ms) {
  const total = Math.max(0, Math.round(ms / 1000));
  const hours = Math.floor(total / 3600), min = Math.floor((total % 3600) / 60);
  const sec = String(total % 60).padStart(2, "0");
  return hours ? `${hours}:${String(min).padStart(2, "0")}:${sec}` : `${min}:${sec}`;
}

/** The sides the clock runs for now: the side in turn; in a roll-off, each side that
 *  has not rolled its die. */
export function clockSides(m) {
  const s = m && m.state;
  if (!s || m.status !== "active") return [];
  if (s.phase === "roll-off") {
    const ro = s.roll_off || {};
    return SIDES.filter((c) => ro[c] === null || ro[c] === undefined);
  }
  return s.turn ? [s.turn] : [];
}

/** The clock line: "Clock: White: 0:27 left to act (0:30 a turn)", or who is late. */
export function clockLineText(m, sides, left) {
  const s = m.state;
  const running = clockSides(m);
  const names = running.length ? running.map(side).join(_(" and ")) : side(s.turn || "");
  const mine = running.some((c) => sides.includes(c)) && !m.hotseat;
  const limit = m.turn_seconds
    ? f(_(" (%(time)s a turn)"), { time: clockText(m.turn_seconds * 1000) }) : "";
  if (left > 0) {
    return f(_("Clock: %(who)s: %(time)s left to act"), { who: mine ? _("You") : names,
                                                           time: clockText(left) }) + limit;
  }
  return mine ? _("Clock: You are past the deadline: the other side may claim the game")
    : f(running.length > 1 ? _("Clock: %(who)s are past the deadline")
                           : _("Clock: %(who)s is past the deadline"), { who: names });
}

/** Each side's pip count — the pips to bear every checker off (a
 *  checker on the bar counts 25), or, in a rule set that does not bear off (GET rules/
 *  `bears_off`), the pips to bring every checker home (`home`). In `shown`'s numbering
 *  for its side; the other side's points read through the rule set's `numbering`. */
export function pips(shown, facts) {
  const homeTop = facts.bears_off === false && Array.isArray(facts.home) && facts.home.length
    ? Math.max(...facts.home) : 0;
  const own = shown.perspective;
  const count = { [own]: 0, [otherSide(own)]: 0 };
  const dist = (p) => Math.max(0, p - homeTop);
  for (const [key, n] of Object.entries(shown.points || {})) {
    const p = Number(key);
    if (n > 0) count[own] += n * dist(p);
    else if (n < 0) {
      const theirs = stepFor({ from: p, to: p }, own, otherSide(own), facts.numbering).from;
      count[otherSide(own)] += -n * dist(theirs);
    }
  }
  const bar = shown.bar || {};
  count[own] += (bar.mine || 0) * dist(25);
  count[otherSide(own)] += (bar.theirs || 0) * dist(25);
  return { counts: count, home: Boolean(homeTop) };
}
