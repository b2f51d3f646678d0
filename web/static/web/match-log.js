// The match's move log and its last complete turn, built from the record (the games
// list and each game's moves) as far as the drawn state knows it. Pure: match.js reads
// the record and draws what these return.

import { otherSide } from "./api.js";
import { _, f, ngettext, side } from "./i18n.js";
import { h, matchOutcome, resignedTurn, resultName, resultSentence, resultWord, stepText,
         turnText } from "./common.js";

export const AHEAD_READS = 3;   // state reads in a row for a log ahead of it, then it is shown

/** How far the drawn state has got in its record: the log is drawn no further, so it
 *  never shows a turn, an offer or a game's end that the board and the status do not
 *  show yet. `null`: no limit (a match that is over, or no state, or the log has run
 *  ahead of `aheadReads` reads in a row). */
export function drawnRecord(match, aheadReads) {
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
function offerLine(offer, game, current, active) {
  const names = { side: side(offer.by), stake: offer.stake, other: side(otherSide(offer.by)) };
  const text = offer.answer === "accept" ? _("%(side)s offers %(stake)s — %(other)s accepts")
    : offer.answer === "refuse" ? _("%(side)s offers %(stake)s — %(other)s refuses")
      : current || (!game.winner && active)
        ? _("%(side)s offers %(stake)s — %(other)s to answer")
        : _("%(side)s offers %(stake)s — not answered");
  return h("li", { class: `offer ${offer.by}`, "data-game": game.number,
                   "data-answer": offer.answer || "" },
    h("span", { class: "n" }, ""), " ", h("span", { class: `swatch ${offer.by}` }),
    " ", f(text, names));
}

/** "White offers to resign (single, 1 point) — Black refuses": an offer to resign with
 *  a result and its answer, as the log shows it. */
function resignOfferLine(offer, game) {
  const names = { side: side(offer.by), result: resultWord(offer.result),
                  other: side(otherSide(offer.by)), count: offer.points };
  const text = offer.answer === "accept"
    ? ngettext("%(side)s offers to resign (%(result)s, %(count)s point) — %(other)s accepts",
               "%(side)s offers to resign (%(result)s, %(count)s points) — %(other)s accepts",
               offer.points, names)
    : offer.answer === "refuse"
      ? ngettext("%(side)s offers to resign (%(result)s, %(count)s point) — %(other)s refuses",
                 "%(side)s offers to resign (%(result)s, %(count)s points) — %(other)s refuses",
                 offer.points, names)
      : ngettext("%(side)s offers to resign (%(result)s, %(count)s point) — %(other)s to answer",
                 "%(side)s offers to resign (%(result)s, %(count)s points) — %(other)s to answer",
                 offer.points, names);
  return h("li", { class: `resign-offer ${offer.by}`, "data-game": game.number,
                   "data-answer": offer.answer || "" },
    h("span", { class: "n" }, ""), " ", h("span", { class: `swatch ${offer.by}` }), " ", text);
}

/** Whether the drawn state knows of the offer to resign `offer` in its current game. */
function resignOfferKnown(offer, drawn) {
  if (offer.turn > drawn.turn + 1) return false;
  return offer.answer ? true : drawn.phase === "resign";
}

/** The log's lines for `games` (each game's turns in `turnsOf`), drawn as far as
 *  `drawn` (drawnRecord) goes; `viewed(step, mover)` writes a step in the viewer's
 *  numbering. Returns { parts: the <li>s, shown: the finished games drawn, ahead:
 *  whether the record holds more than the state knows }. */
export function logEntries(match, games, turnsOf, drawn, viewed) {
  const active = Boolean(match && match.status === "active");
  let ahead = false;
  const shown = [];
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
        parts.push(offerLine(o, game, current, active));
      }
    };
    // Offers to resign with a result, each a line before the turn it was made in.
    const resignOffers = [...(game.resign_offers || [])];
    const resignLines = (upTo) => {
      while (resignOffers.length && resignOffers[0].turn <= upTo) {
        const o = resignOffers.shift();
        if (current && !resignOfferKnown(o, drawn)) { ahead = true; continue; }
        parts.push(resignOfferLine(o, game));
      }
    };
    for (const t of turnsOf.get(game.number)) {
      offerLines(t.number);
      resignLines(t.number);
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
      parts.push(h("li", { class: `turn ${t.side}${passed ? " passed" : ""}`,
                           "data-game": game.number, "data-turn": t.number },
        h("span", { class: "n" }, `${t.number}.`), " ",
        h("span", { class: `swatch ${t.side}` }), ` ${side(t.side)} ${dice}: `,
        turnText(steps.map((st) => stepText(viewed(st, t.side))).join(" "), passed,
                 t.pass_reason, !current && resignedTurn(game, t, turnsOf.get(game.number)))));
    }
    offerLines(Infinity);   // after the last turn: refused, or waiting for its answer
    resignLines(Infinity);
    if (game.winner && current) {
      ahead = true;   // the state has the game still going
    } else if (game.winner) {
      parts.push(h("li", { class: "game-result", "data-result": resultName(game),
                           "data-game": game.number }, resultSentence(game)));
      shown.push(game);
    }
  }
  if (match && match.status === "finished") {
    parts.push(h("li", { class: "match-result" }, f(_("Match: %(outcome)s"),
                                                   { outcome: matchOutcome(match) })));
  }
  return { parts, shown, ahead };
}

/** The last complete turn of the drawn game (its `turns` from the log), or null. */
export function lastTurnOf(turns, drawn) {
  if (!drawn) return undefined;   // nothing to say: keep what is drawn
  const done = turns.filter((t) => t.number <= drawn.turn && (t.finished_at || t.passed)
                                   && !(t.number === drawn.turn && drawn.steps !== null));
  const t = done[done.length - 1];
  return t ? { game: drawn.game, number: t.number, side: t.side, dice: t.dice || [],
               steps: t.steps || [] } : null;
}
