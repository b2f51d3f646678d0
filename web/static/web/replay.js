// Replay and review of a finished game, route
// #/matches/<id>/replay/<game number>: the board (board.js, fed each turn's position
// from GET games/{n}/positions/ — the engine's boards, no rule is replayed here) stepped
// turn by turn with ← → Home End or the buttons; the move list from games/{n}/moves/;
// and, when the match has a game review (GET matches/{id}/analysis/), the equity graph
// (click a point to go there), each move's mark and equity lost, the best play drawn on
// the board on request, the luck of each roll and each side's summary. Without a review,
// a player of the match may ask for one ("Analyse": POST, then GET until it is done).

import { API, ApiError, SIDES, api, features, ruleSet } from "./api.js";
import { Board, stepFor } from "./board.js";
import { app, attempt, button, cap, explain, h, numberingSwitch, ownNumbering, resignedTurn,
         rulesTitle, session, stepText, turnText } from "./common.js";
import { _, f, ngettext, side } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const POLL_MS = 1000;   // the analysis's progress, while it is queued or running

/** The route of game `number`'s replay (linked from the match page, the lobby's
 *  finished matches and the player's profile). */
export const replayHash = (matchId, number = 1) => `#/matches/${matchId}/replay/${number}`;

/** A link to game `number`'s replay, for the match page and the lists. */
export function replayLink(matchId, number = 1, text = null) {
  return h("a", { class: "replay-link", href: replayHash(matchId, number),
                  "data-replay": `${matchId}/${number}` },
           text || f(_("Replay game %(n)s"), { n: number }));
}

/** The dice verifier (/play/verify/, its own page) on match `matchId`: linked from every
 *  finished game — the match page, the replay, the profile. */
export function verifyLink(matchId, text = null) {
  return h("a", { class: "verify-link", href: `/play/verify/?match=${matchId}`,
                  "data-verify": matchId }, text || _("Verify the dice"));
}

/** "Replay and review: game 1 · game 2" for the match page: a link per finished game
 *  of `games` (the games list's items); nothing before the first game is over. */
export function replayLinks(matchId, games) {
  const done = games.filter((g) => g.winner);
  if (!done.length) return [];
  return [_("Replay and review:"), " ", ...done.flatMap((g, i) => [i ? " · " : "",
    replayLink(matchId, g.number, f(_("game %(n)s"), { n: g.number }))]), " · ",
    verifyLink(matchId)];
}

const MARK_NAMES = { inaccuracy: _("inaccuracy"), mistake: _("mistake"),
                     blunder: _("blunder") };
const KIND_NAMES = { forced: _("forced"), pass: _("pass") };
const CHOICES = { offer: _("offer"), no_offer: _("no offer"), accept: _("accept"),
                  refuse: _("refuse") };
const signed = (x, digits = 3) => (x >= 0 ? "+" : "\u2212") + Math.abs(x).toFixed(digits);
// Match-winning chances (a game of a match longer than 1 point): the review's 0..1 as
// a percentage, "48.1 %" (a loss under 0.05 points as "0.04 %", not "0.0 %"); the
// fields are null in a 1-point match and absent from older reviews.
const hasMwc = (x) => typeof x === "number";
const percentOf = (x) => {
  const p = 100 * x;
  return p > 0 && p < 0.05 ? p.toFixed(2) : p.toFixed(1);
};
const percent = (x) => `${percentOf(x)}\u00a0%`;

/** A step of the review ("24/18", "bar/22", "3/off(5)", "13/7*") as {from, to}. */
export function parseStep(text) {
  const m = String(text).match(/^(bar|\d+)\/(off|\d+)/);
  if (!m) return null;
  return { from: m[1] === "bar" ? 25 : Number(m[1]), to: m[2] === "off" ? 0 : Number(m[2]) };
}

export function openReplay(matchId, number) {
  const root = app;
  let stopped = false;
  let match = null, games = [], turns = [], positions = [], review = null, analysis = null;
  let index = 0;            // 0: before the first turn; n: after turn n
  let showBest = false;
  let perspective = null;   // null: the server's choice (the player's colour, else White)
  let pollTimer = null;
  let slides = 0;

  const boardHost = h("div", { class: "board-host", id: "board" });
  const title = h("h1", { class: "match-title", id: "replay-title" },
                  f(_("Replay: match #%(id)s, game %(n)s"), { id: matchId, n: number }));
  const players = h("p", { class: "players", id: "replay-players" });
  const gamesNav = h("nav", { class: "replay-games", id: "replay-games",
                              "aria-label": _("Games") });
  const where = h("p", { class: "replay-where", id: "replay-where", "aria-live": "polite" });
  const key = (text, label, fn, id) => button(text, fn, { id, "aria-label": label,
                                                          title: label });
  const nav = h("div", { class: "replay-nav actions", role: "group",
                         "aria-label": _("Step through the game") },
    key("«", _("First position (Home)"), () => go(0), "replay-first"),
    key("◀", _("Previous turn (←)"), () => go(index - 1), "replay-prev"),
    key("▶", _("Next turn (→)"), () => go(index + 1), "replay-next"),
    key("»", _("Last position (End)"), () => go(positions.length - 1), "replay-last"),
    button(_("Flip board"), flip, { id: "replay-flip" }));
  const exportLinks = h("p", { class: "replay-export", id: "replay-export" },
    h("a", { href: `${API}matches/${matchId}/export/`, id: "replay-export-txt" },
      _("Export the match (text)")), " · ",
    h("a", { href: `${API}matches/${matchId}/export/?format=json`, id: "replay-export-json" },
      _("JSON")), " · ",
    verifyLink(matchId), " · ",
    h("a", { href: `#/match/${matchId}`, id: "replay-match" }, _("Back to the match")));
  const moveList = h("ol", { class: "log replay-moves", id: "replay-moves",
                             "aria-label": _("Moves") });
  // The review: its state or the Analyse button, the graph, the turn's detail, the sides.
  const reviewBox = h("section", { class: "review", id: "review",
                                   "aria-labelledby": "review-h" },
                      h("h2", { id: "review-h" }, _("Game review")));
  const reviewState = h("p", { class: "review-state", id: "review-state",
                               "aria-live": "polite" });
  const graphBox = h("div", { class: "equity-graph", id: "equity-graph" });
  const bestToggle = button(_("Show the best play"), () => { showBest = !showBest; draw(); },
                            { id: "review-best", "aria-pressed": "false", hidden: true });
  const turnDetail = h("p", { class: "review-turn", id: "review-turn", "aria-live": "polite" });
  const summary = h("div", { class: "review-summary", id: "review-summary" });
  const reviewBody = h("div", { class: "review-body", hidden: true },
    h("div", { class: "review-graph" }, graphBox, bestToggle, turnDetail), summary);
  reviewBox.append(reviewState, reviewBody);

  const panel = h("aside", { class: "panel replay-panel", "aria-label": _("Replay") },
    title, players, gamesNav, h("div", { class: "replay-step", id: "replay-step" }, where, nav),
    exportLinks, h("div", { class: "moves-head" }, h("h2", {}, _("Moves")),
                   numberingSwitch(() => { renderMoves(); draw(); })), moveList);
  root.replaceChildren(h("section", { class: "replay", id: "replay",
                                      "data-match": matchId, "data-game": number },
                         boardHost, panel, reviewBox));
  const board = new Board(boardHost, {});

  const facts = () => (match && ruleSet(match.rules)) || {};
  const viewer = () => (positions[0] ? positions[0].board.perspective : "white");
  const viewed = (st, mover) => stepFor(st, mover, viewer(), facts().numbering);
  // The move list and the line above the board: the viewer's numbering, or each mover's
  // own when the player asked for it (common.js ownNumbering).
  const written = (st, mover) => (ownNumbering() ? st : viewed(st, mover));
  const thisGame = () => games.find((g) => g.number === number) || null;
  const turnReview = (n) => (review ? review.turns.find((t) => t.number === n) : null);

  // Keys: ← → Home End step wherever the focus is (the board's own arrow keys move
  // between points in play; here there is nothing to pick), but not in a field.
  function onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    const to = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0,
                 End: positions.length - 1 }[e.key];
    if (to === undefined || !positions.length) return;
    e.preventDefault();
    e.stopPropagation();
    go(to);
  }
  document.addEventListener("keydown", onKey, true);

  function go(to) {
    const next = Math.max(0, Math.min(positions.length - 1, to));
    if (next === index) return;
    const forward = next === index + 1;
    index = next;
    draw(forward);
  }

  async function flip() {
    const before = perspective;
    perspective = viewer() === "white" ? "black" : "white";
    if (await attempt(loadPositions) === undefined) perspective = before;   // toast said why
    draw();
  }

  async function loadPositions() {
    const query = perspective ? `?perspective=${perspective}` : "";
    positions = await api.get(`matches/${matchId}/games/${number}/positions/${query}`);
    return positions;
  }

  function draw(forward = false) {
    if (stopped || !positions.length) return;
    const t = index ? turns[index - 1] : null;
    const r = t ? turnReview(t.number) : null;
    const best = showBest && r && r.kind === "move" && r.best && r.best.length ? r.best[0] : null;
    const mover = t ? t.side : null;
    const steps = t ? (t.steps || []).map((st) => viewed(st, mover)) : [];
    const data = {
      board: (best ? positions[index - 1] : positions[index]).board,
      legalSteps: [], interactive: false,
      dice: best ? t.dice : null, diceLeft: best ? t.dice : [], diceOwner: mover,
      lastMove: t && !best ? { side: mover, dice: t.dice || [], steps } : null,
      hint: best ? { side: mover, steps: best.steps.map(parseStep).filter(Boolean)
        .map((st) => viewed(st, mover)) } : null,
      animate: forward && !best && steps.length
        ? { id: `replay:${++slides}`, steps, side: mover } : null,
      numbering: facts().numbering,
      hitting: Boolean(facts().hits), head: Boolean(facts().head), bar: Boolean(facts().bar),
    };
    board.update(data);
    boardHost.dataset.index = String(index);
    boardHost.dataset.best = best ? "true" : "false";
    where.textContent = !t ? f(_("Start of game %(n)s (turn 0 of %(total)s)"),
                               { n: number, total: turns.length })
      : f(_("Turn %(turn)s of %(total)s: %(side)s %(dice)s: %(steps)s"), {
        turn: t.number, total: turns.length, side: side(t.side),
        dice: (t.dice || []).join("-"),
        steps: turnText((t.steps || []).map((st) => stepText(written(st, mover))).join(" "),
                        t.passed, t.pass_reason,
                        resignedTurn(thisGame(), t, turns)) });
    where.dataset.turn = String(index);
    for (const li of moveList.querySelectorAll("li[data-index]")) {
      const on = Number(li.dataset.index) === index;
      li.classList.toggle("current", on);
      if (on) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
      if (on) {   // kept in view inside the list (the page itself does not scroll)
        const top = li.offsetTop, bottom = top + li.offsetHeight;
        if (top < moveList.scrollTop) moveList.scrollTop = top;
        else if (bottom > moveList.scrollTop + moveList.clientHeight) {
          moveList.scrollTop = bottom - moveList.clientHeight;
        }
      }
    }
    for (const dot of graphBox.querySelectorAll("[data-turn]")) {
      dot.classList.toggle("current", Number(dot.dataset.turn) === index);
    }
    const cursor = graphBox.querySelector(".cursor");
    if (cursor && graphBox.dataset.step) {
      const x = Number(graphBox.dataset.x0) + index * Number(graphBox.dataset.step);
      cursor.setAttribute("x1", x);
      cursor.setAttribute("x2", x);
    }
    bestToggle.hidden = !review;
    bestToggle.disabled = !(r && r.kind === "move");
    bestToggle.setAttribute("aria-pressed", String(showBest));
    bestToggle.textContent = showBest ? _("Show the play made") : _("Show the best play");
    turnDetail.textContent = r ? detailText(t, r) : "";
    turnDetail.dataset.turn = r ? String(r.number) : "";
  }

  /** "Played 24/18 18/13 (+0.120), best 24/14 (+0.160): lost 0.040 — inaccuracy. Luck
   *  +0.050." — the turn's review in words. */
  function detailText(t, r) {
    const write = (play) => (play.steps.length ? play.steps.map(parseStep).filter(Boolean)
      .map((st) => stepText(viewed(st, t.side))).join(" ") : "—");
    const luck = f(_("Luck of the roll %(luck)s."), { luck: signed(r.luck) });
    if (r.kind !== "move") {
      return [r.kind === "pass" ? _("No legal move.") : _("A forced move."), mwcText(r), luck]
        .filter(Boolean).join(" ");
    }
    const best = r.best[0];
    const text = r.loss > 0
      ? f(_("Played %(played)s (%(eq)s); best %(best)s (%(besteq)s): lost %(loss)s."), {
        played: write(r.played), eq: signed(r.played.equity), best: write(best),
        besteq: signed(best.equity), loss: r.loss.toFixed(3) })
      : f(_("Played %(played)s (%(eq)s): the best play."),
          { played: write(r.played), eq: signed(r.played.equity) });
    return [text, r.mark ? cap(MARK_NAMES[r.mark]) + "." : "", mwcText(r), luck]
      .filter(Boolean).join(" ");
  }

  /** "MWC 48.1 % (best 51.3 %, −3.2)." — the mover's match-winning chance after the
   *  play made, and after the best play by it with what the play made lost; "" when the
   *  review has none (a 1-point match). */
  function mwcText(r) {
    if (!hasMwc(r.played.mwc)) return "";
    const mwc = percent(r.played.mwc);
    if (r.kind !== "move") return f(_("MWC %(mwc)s."), { mwc });
    return r.mwc_lost > 0 && hasMwc(r.best_mwc)
      ? f(_("MWC %(mwc)s (best %(best)s, %(lost)s)."),
          { mwc, best: percent(r.best_mwc), lost: `\u2212${percentOf(r.mwc_lost)}` })
      : f(_("MWC %(mwc)s (the best)."), { mwc });
  }

  function renderHeader() {
    const names = SIDES.map((c) => h("span", { class: "player" },
      h("span", { class: `swatch ${c}` }), " ", side(c), ": ",
      h("strong", {}, (match && match[c]) || "?")));
    const rules = match ? rulesTitle(match.rules) : "";
    const game = games.find((g) => g.number === number);
    const result = game && game.winner
      ? ngettext("%(side)s won %(count)s point", "%(side)s won %(count)s points", game.points,
                 { side: side(game.winner) }) : _("not finished");
    players.replaceChildren(...names, h("span", { class: "score" }, `${rules} · ${result}`));
    gamesNav.replaceChildren(...games.map((g) => (g.number === number
      ? h("span", { class: "current", "aria-current": "page" }, f(_("Game %(n)s"), { n: g.number }))
      : h("a", { href: replayHash(matchId, g.number) }, f(_("Game %(n)s"), { n: g.number })))));
  }

  function renderMoves() {
    const stakeLines = (before) => (review ? review.stakes || [] : [])
      .filter((s) => s.before_turn === before).map((s) => h("li", {
        class: `stake-review ${s.side}`, "data-mark": s.mark || "" },
      h("span", { class: "n" }, ""), " ", h("span", { class: `swatch ${s.side}` }), " ",
      f(s.question === "offer" ? _("%(side)s: %(chose)s (right: %(right)s)")
        : _("%(side)s answers: %(chose)s (right: %(right)s)"),
        { side: side(s.side), chose: CHOICES[s.chose] || s.chose,
          right: CHOICES[s.right] || s.right }),
      s.mark ? h("span", { class: `mark ${s.mark}` }, ` ${MARK_NAMES[s.mark]} \u2212${
        s.loss.toFixed(3)}`) : null));
    const items = [h("li", { class: "start", "data-index": 0, onclick: () => go(0) },
                     h("span", { class: "n" }, "0."), " ", _("Start"))];
    for (const t of turns) {
      items.push(...stakeLines(t.number));
      const r = turnReview(t.number);
      const steps = (t.steps || []).map((st) => stepText(written(st, t.side))).join(" ");
      items.push(h("li", { class: `turn ${t.side}${t.passed ? " passed" : ""}`,
                           "data-index": t.number, "data-turn": t.number,
                           "data-mark": r && r.mark ? r.mark : "",
                           onclick: () => go(t.number) },
        h("span", { class: "n" }, `${t.number}.`), " ", h("span", { class: `swatch ${t.side}` }),
        ` ${side(t.side)} ${(t.dice || []).join("-")}: `,
        turnText(steps, t.passed, t.pass_reason, resignedTurn(thisGame(), t, turns)),
        r && r.mark ? h("span", { class: `mark ${r.mark}` },
                        ` ${MARK_NAMES[r.mark]} \u2212${r.loss.toFixed(3)}`) : null,
        r && !r.mark && r.kind === "move" && r.loss > 0
          ? h("span", { class: "loss" }, ` \u2212${r.loss.toFixed(3)}`) : null,
        r && r.kind !== "move" ? h("span", { class: "kind" }, ` (${KIND_NAMES[r.kind]})`) : null,
        r ? h("span", { class: "luck", title: _("Luck of the roll") },
              ` ${f(_("luck %(luck)s"), { luck: signed(r.luck, 2) })}`) : null));
    }
    items.push(...stakeLines(turns.length + 1));
    moveList.replaceChildren(...items);
  }

  /** White's equity after each turn (the mover's equity, turned to White's), a point per
   *  turn; click one to go there. */
  function renderGraph() {
    graphBox.replaceChildren();
    if (!review || !review.turns.length) return;
    const width = 480, height = 140, x0 = 8, pad = 12;
    const values = review.turns.map((t) => (t.side === "white" ? 1 : -1) * t.played.equity);
    const top = Math.max(1, ...values.map(Math.abs));
    const step = (width - 2 * x0) / Math.max(1, turns.length);
    const x = (n) => x0 + n * step;
    const y = (v) => height / 2 - (v / top) * (height / 2 - pad);
    const svg = document.createElementNS(SVG_NS, "svg");
    const add = (tag, attrs, parent = svg) => {
      const node = document.createElementNS(SVG_NS, tag);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
      parent.append(node);
      return node;
    };
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    svg.setAttribute("role", "group");
    svg.setAttribute("aria-label", _("White's equity after each turn; click a point to go "
                                     + "there"));
    add("line", { x1: x0, y1: y(0), x2: width - x0, y2: y(0), class: "axis" });
    add("text", { x: x0, y: 10, class: "axis-label" }).textContent = _("White ahead");
    add("text", { x: x0, y: height - 3, class: "axis-label" }).textContent = _("Black ahead");
    add("line", { x1: x(index), y1: 0, x2: x(index), y2: height, class: "cursor" });
    add("polyline", { class: "equity-line", fill: "none", points: [`${x(0)},${y(0)}`,
      ...review.turns.map((t, i) => `${x(t.number).toFixed(1)},${y(values[i]).toFixed(1)}`)]
      .join(" ") });
    review.turns.forEach((t, i) => {
      const dot = add("circle", { cx: x(t.number).toFixed(1), cy: y(values[i]).toFixed(1),
                                  r: t.mark ? 4.5 : 3, class: `eq-point ${t.mark || "fine"}`,
                                  "data-turn": t.number, "data-equity": values[i] });
      add("title", {}, dot).textContent = f(_("Turn %(turn)s: White %(equity)s"),
                                            { turn: t.number, equity: signed(values[i]) })
        + (t.mark ? ` — ${MARK_NAMES[t.mark]}` : "");
      dot.addEventListener("click", () => go(t.number));
    });
    graphBox.dataset.x0 = String(x0);
    graphBox.dataset.step = String(step);
    graphBox.append(svg);
  }

  /** "Match to 5 points: White needs 3, Black 5. Crawford game." — the score the
   *  game's MWC are read at; "" without one (a 1-point match, an older review). */
  function matchText() {
    const m = review && review.match;
    if (!m) return "";
    const text = ngettext("Match to %(count)s point: White needs %(white)s, Black %(black)s.",
                          "Match to %(count)s points: White needs %(white)s, Black %(black)s.",
                          m.length, { white: m.need[0], black: m.need[1] });
    if (!m.crawford || !m.after_crawford) return text;
    // The Crawford game is the first game after the one that brought a side to 1 away.
    const before = analysis.games.find((g) => g.game === number - 1);
    const later = Boolean(before && before.match && before.match.after_crawford);
    return `${text} ${later ? _("Post-Crawford.") : _("Crawford game.")}`;
  }

  function renderSummary() {
    summary.replaceChildren();
    if (!review) return;
    const row = (label, fn, attrs = {}) => h("tr", attrs, h("th", { scope: "row" }, label),
      ...review.sides.map((s, i) => h("td", { "data-side": SIDES[i] }, fn(s))));
    const score = matchText();
    if (score) summary.append(h("p", { class: "review-match", id: "review-match" }, score));
    // Which engine valued the plays (reviews stored before the field engine say none).
    if (review.engine) {
      summary.append(h("p", { class: "review-engine", id: "review-engine",
                              "data-engine": review.engine },
        review.engine === "field" ? _("Reviewed by the field engine, Open Sage.")
          : _("Reviewed by the site's own network.")));
    }
    const hasPr = review.sides.some((s) => typeof s.pr === "number");
    summary.append(h("table", { class: "review-table", id: "review-table" },
      h("caption", {}, f(_("Summary (%(depth)s-ply)"), { depth: review.depth })),
      h("thead", {}, h("tr", {}, h("th", {}, ""), ...SIDES.map((c) => h("th", { scope: "col" },
        side(c))))),
      h("tbody", {},
        row(_("Error rate"), (s) => s.error_rate.toFixed(4)),
        row(_("Rating (×500)"), (s) => s.rating.toFixed(1)),
        hasPr ? row(_("PR (performance rating)"),
                    (s) => (typeof s.pr === "number" ? s.pr.toFixed(1) : ""),
                    { id: "review-pr" }) : null,
        row(_("Decisions"), (s) => s.decisions),
        row(_("Inaccuracies"), (s) => s.marks.inaccuracy || 0),
        row(_("Mistakes"), (s) => s.marks.mistake || 0),
        row(_("Blunders"), (s) => s.marks.blunder || 0),
        row(_("Luck"), (s) => signed(s.luck, 2)),
        review.sides.some((s) => hasMwc(s.mwc_lost))
          ? row(_("MWC lost"), (s) => (hasMwc(s.mwc_lost) ? percent(s.mwc_lost) : ""),
                { id: "review-mwc-lost" }) : null)),
      h("p", { class: "luck-adjusted" }, f(_("Result for White %(result)s; luck-adjusted "
                                             + "%(adjusted)s."),
        { result: signed(review.result, 2), adjusted: signed(review.luck_adjusted, 2) })));
  }

  const me = session.me;
  const mayAsk = () => Boolean(me && match && match.status === "finished"
                               && SIDES.some((c) => match[c] === me));

  function renderReviewState() {
    reviewState.replaceChildren();
    reviewBox.dataset.state = analysis ? analysis.state : "none";
    if (analysis && analysis.state === "done") {
      if (!review) reviewState.textContent = _("The review has no record of this game.");
      return;
    }
    if (analysis && (analysis.state === "queued" || analysis.state === "running")) {
      reviewState.textContent = analysis.state === "queued" ? _("Analysis queued…")
        : f(_("Analysing… %(done)s of %(total)s turns"),
            { done: analysis.turns_done, total: analysis.turns_total });
      return;
    }
    if (analysis && analysis.state === "failed") {
      reviewState.append(f(_("The analysis failed: %(error)s"), { error: analysis.error }), " ");
    } else {
      reviewState.append(_("No review of this match yet."), " ");
    }
    if (mayAsk()) {
      reviewState.append(h("button", { type: "button", id: "review-ask", class: "primary",
                                       onclick: ask }, _("Analyse")));
    }
  }

  async function ask() {
    try {
      analysis = await api.post(`matches/${matchId}/analysis/`, {});
    } catch (error) {
      reviewState.textContent = explain(error);
      return;
    }
    showAnalysis();
  }

  async function readAnalysis() {
    try {
      analysis = await api.get(`matches/${matchId}/analysis/`);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
      analysis = null;
    }
  }

  function showAnalysis() {
    if (stopped) return;
    review = analysis && analysis.state === "done" && analysis.games
      ? analysis.games.find((g) => g.game === number) || null : null;
    clearTimeout(pollTimer);
    if (analysis && (analysis.state === "queued" || analysis.state === "running")) {
      pollTimer = setTimeout(async () => {
        try { await readAnalysis(); } catch { /* tried again below */ }
        showAnalysis();
      }, POLL_MS);
    }
    renderReviewState();
    reviewBody.hidden = !review;
    renderMoves();
    renderGraph();
    renderSummary();
    draw();
  }

  (async () => {
    try {
      await features();   // the rule sets' facts (GET rules/)
      [match, games, turns] = await Promise.all([
        api.get(`matches/${matchId}/`), api.get(`matches/${matchId}/games/`),
        api.get(`matches/${matchId}/games/${number}/moves/`)]);
      await loadPositions();
      // Only a match with a review is asked for it (the positions name the match's
      // analyses): no 404, so no console error, on the replay of an unreviewed game.
      if (positions.length && (positions[0].analyses || []).length) await readAnalysis();
    } catch (error) {
      if (stopped) return;
      root.replaceChildren(h("p", { class: "error", id: "replay-error" }, explain(error)));
      return;
    }
    if (stopped) return;
    renderHeader();
    showAnalysis();
  })();

  return {
    stop() {
      stopped = true;
      clearTimeout(pollTimer);
      document.removeEventListener("keydown", onKey, true);
    },
  };
}
