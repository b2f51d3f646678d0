"""Reads: what clients, the admin and the stats see. No writes here."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Final, cast

from django.db.models import Count, Q, QuerySet, Sum

from accounts.models import username_key
from accounts.stats import RulesStats, Stats, empty_stats
from games import dice, fairness, presence, review_hooks, shapes, store, transitions
from games.models import (
    RESIGNATIONS,
    Color,
    EndReason,
    Event,
    Game,
    GamePhase,
    Match,
    MatchStatus,
    color_of,
    is_over,
    side_of,
)
from games.models import Turn as TurnRecord
from games.replay import GameReplay, ReplayError
from games.transitions import game_points, legal_steps_json
from nard_site.api.renderers import iso_time
from nardy import (
    RULESETS,
    SIDE_NAMES,
    WHITE,
    BoardPosition,
    Side,
    Step,
    Turn,
    format_play,
    other,
    ruleset,
    stakes,
)
from nardy.record import FORMAT as RECORD_FORMAT
from nardy.record import format_record


def match_queryset() -> QuerySet[Match]:
    return Match.objects.select_related("white", "black", "invited", "current_game")


def match_list(*, status: str | None = None, player: str | None = None) -> QuerySet[Match]:
    matches = match_queryset()
    if status:
        matches = matches.filter(status=status)
    if player:
        key = username_key(player)
        matches = matches.filter(Q(white__username_key=key) | Q(black__username_key=key)
                                 | Q(invited__username_key=key))
    return matches.order_by("-created_at", "-id")


def match_get(match_id: int) -> Match | None:
    """One match with its players, current game and turn (one hand-written query)."""
    return store.read_match(match_id)


def board_json(position: BoardPosition, perspective: Side) -> shapes.Board:
    """The API's board shape in ``perspective``'s own numbering (R33, H1), with the bar,
    as the position's rule set writes it (its codec: the common fields and its own)."""
    return cast(shapes.Board, ruleset(position.rules).codec.board(position, perspective))


def default_perspective(match: Match, game: Game | None, viewer: Any) -> Side:
    """The asking player's colour; the side to move in hotseat; White for others."""
    sides = match.sides_of(viewer)
    if len(sides) == 1:
        return sides[0]
    if len(sides) == 2 and game is not None and game.turn:
        return side_of(game.turn)
    return WHITE


def replay_perspective(match: Match, viewer: Any) -> Side:
    """A finished game's board is shown to its player in their own numbering; in
    hotseat and to everyone else in White's."""
    sides = match.sides_of(viewer)
    return sides[0] if len(sides) == 1 else WHITE


def legal_tree(turn: Turn) -> list[shapes.Stop]:
    """Every way to finish the turn from ``turn``, as a graph of stops.

    Stop 0 is ``turn``; each legal step (R24/H11: only steps that begin a complete play)
    leads to the stop after it. Two orders of the same steps reach the same stop (the
    same checkers moved with the same dice: the same position, dice and head count), so
    the stops are shared and a double's four steps stay a few hundred stops.
    """
    stops: list[shapes.Stop] = []
    index: dict[tuple[tuple[int, int, int], ...], int] = {}

    def visit(state: Turn, played: tuple[tuple[int, int, int], ...]) -> int:
        key = tuple(sorted(played))
        if key in index:
            return index[key]
        number = index[key] = len(stops)
        stop: shapes.Stop = {"steps": [], "dice_left": list(state.dice_left),
                             "head_may_leave": state.head_may_leave()}
        stops.append(stop)
        for step in state.legal_steps():
            hit = state.hits(step)
            after = visit(state.apply(step), (*played, (step.src, step.dst, step.die)))
            stop["steps"].append({"from": step.src, "to": step.dst, "die": step.die,
                                  "hit": hit, "next": after})
        return number

    visit(turn, ())
    return stops


def resign_cost(match: Match, game: Game, position: Any, viewer: Any,
                ) -> shapes.ResignCost | None:
    """What resigning now would cost the side the viewer may resign for
    (their own; in hotseat the side in turn), as the server would score it (R30/H16,
    times the stake, S6). ``None`` for a spectator and outside play."""
    sides = match.sides_of(viewer)
    if (match.status != MatchStatus.ACTIVE or not sides
            or game.phase not in (GamePhase.ROLL, GamePhase.MOVE, GamePhase.OFFER,
                                  GamePhase.RESIGN)):
        return None
    waiting = game.waiting_resign_offer()
    side = (sides[0] if len(sides) == 1
            else side_of(waiting["by"]) if waiting is not None  # hotseat: the offerer's
            else side_of(game.turn) if game.turn else None)
    if side is None:
        return None
    outcome = match.ruleset.resign_outcome(position, side)
    points, _mars = game_points(match, game, outcome, EndReason.RESIGNED)
    result = outcome.result if stakes.mars_counts(match.stakes) else "single"
    return {"side": color_of(side), "points": points, "result": result,
            "offers": resign_offers_json(match, game, side)}


def resign_offers_json(match: Match, game: Game, side: Side) -> list[shapes.ResignOption]:
    """The results ``side`` may offer to resign with now, each with its points (times
    the stake): empty when it may not offer now (not its turn, a step played, an offer
    waiting) — and without those a refusal in this turn rules out."""
    if transitions.resign_offer_problem(game, side) is not None:
        return []
    offers: list[shapes.ResignOption] = []
    for outcome in transitions.resign_options(match, game, side):
        if transitions.resign_offer_refusal(game, side, outcome.points) is None:
            points, _mars = game_points(match, game, outcome, EndReason.RESIGNED)
            offers.append({"result": outcome.result, "points": points})
    return offers


def resign_offer_json(game: Game) -> shapes.ResignOffer | None:
    """The resignation offer waiting for the answer of the side in ``turn``, or ``None``."""
    waiting = game.waiting_resign_offer()
    if waiting is None:
        return None
    return {"by": waiting["by"], "result": waiting["result"], "points": waiting["points"]}


SEARCH: Final = object()
"""``state=SEARCH``: read the turn from the snapshot and search its legal steps."""


def match_state(match: Match, viewer: Any, perspective: Side | None = None,
                state: Turn | object | None = SEARCH, *, search: bool = True,
                ) -> shapes.State | None:
    """The ``state`` of a match as ``viewer`` sees it.

    ``state``: the turn's engine state as a service just left it (``None``: no turn
    in progress), so its searches are not done twice; by default it is read from the
    snapshot. ``search=False`` (lists) skips the legal-step search: ``legal_steps`` is
    then empty and ``head_may_leave`` 0 — the match itself shows them.
    """
    game = match.current_game
    if game is None:
        return None
    if perspective is None:
        perspective = default_perspective(match, game, viewer)
    active = match.status == MatchStatus.ACTIVE
    turn: Turn | None = None
    if active and game.phase == GamePhase.MOVE:
        turn = game.turn_state() if state is SEARCH else state  # type: ignore[assignment]
    legal: list[shapes.Step] = []
    tree: list[shapes.Stop] = []
    head = 0
    if turn is not None and search:
        head = turn.head_may_leave()
        if turn.side in match.sides_of(viewer):
            legal = legal_steps_json(turn)
            tree = legal_tree(turn)
    phase = GamePhase.FINISHED if match.status == MatchStatus.FINISHED else game.phase
    position = turn.position if turn is not None else game.position
    return {
        "game": game.number,
        "phase": phase,
        "turn": game.turn or None,
        "dice": game.dice,
        "dice_left": list(turn.dice_left) if turn is not None else [],
        "head_may_leave": head,
        "board": board_json(position, perspective),
        "legal_steps": legal,
        "legal_tree": tree,
        "resign": resign_cost(match, game, position, viewer) if search else None,
        "version": match.version,
        "roll_off": {"white": game.rolloff_white, "black": game.rolloff_black},
        "first_turn": {"white": game.white_first_turn, "black": game.black_first_turn},
        "turn_number": game.turns,
        "position_id": game.position_key,
        "deadline": match.deadline if active else None,
        "presence": presence_json(match),
        "fairness": fairness_json(game, match),
        "stake": game.stake,
        "may_offer": game.may_offer() if active else "none",
        "stake_holder": game.stake_holder or None,
        "offer": ({"by": game.offer_by, "stake": game.offered_stake}
                  if active and game.phase == GamePhase.OFFER and game.offer_by else None),
        "resign_offer": resign_offer_json(game) if active else None,
    }


def presence_json(match: Match) -> shapes.Presence:
    """Whether each player was seen in the last minute (:mod:`games.presence`)."""
    seen = presence.online([match.white_id, match.black_id])
    return {"white": seen.get(match.white_id, False) if match.white_id else False,
            "black": seen.get(match.black_id, False) if match.black_id else False}


def match_json(match: Match, viewer: Any, perspective: Side | None = None,
               state: Turn | object | None = SEARCH, *, search: bool = True) -> shapes.Match:
    def name(user: Any) -> str | None:
        return user.username if user is not None else None

    def bot(user: Any) -> bool:
        return bool(user is not None and user.is_bot)

    return {
        "id": match.pk,
        "rules": match.rules,
        "white": name(match.white),
        "black": name(match.black),
        "invited": name(match.invited),
        "bots": {"white": bot(match.white), "black": bot(match.black)},
        "hotseat": match.hotseat,
        "rated": match.rated,
        "length": match.length,
        "stakes": match.stakes,
        "progression": match.progression,
        "crawford_game": match.crawford_game,
        "turn_seconds": match.turn_seconds,
        "score": {"white": match.score_white, "black": match.score_black},
        "status": match.status,
        "winner": match.winner or None,
        "version": match.version,
        "rematch_of": match.rematch_of_id,
        "tournament": match.tournament_id,
        "created_at": match.created_at,
        "started_at": match.started_at,
        "finished_at": match.finished_at,
        "state": match_state(match, viewer, perspective, state, search=search),
    }


def game_list(match: Match) -> QuerySet[Game]:
    return match.games.order_by("number")


def game_json(game: Game) -> shapes.Game:
    return {
        "number": game.number,
        "rules": game.match.rules,
        "starter": game.starter or None,
        "winner": game.winner or None,
        "points": game.points_won,
        "mars": game.mars,
        "result": game.result or None,
        "end_reason": game.end_reason or None,
        "stake": game.stake,
        "offers": offers_json(game),
        "resign_offers": resign_offers_record_json(game),
        "turns": game.turns,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "fairness": fairness_json(game),
    }


def fairness_json(game: Game, match: Match | None = None) -> shapes.Fairness | None:
    """The game's dice commitment; the server's seed only once the game is over
    (finished, or its match aborted or finished) — never before."""
    if not game.dice_commitment:
        return None
    match = match or game.match
    over = game.phase == GamePhase.FINISHED or is_over(match.status)
    return {
        "scheme": fairness.SCHEME,
        "commitment": game.dice_commitment,
        "server_seed": game.dice_seed if over else None,
        "player_seeds": {"white": game.white_seed or None, "black": game.black_seed or None},
        "opening": match.ruleset.opening,
        "seeds_open": not over and match.status == MatchStatus.ACTIVE
        and not dice.first_die_rolled(game),
    }


def offers_json(game: Game) -> list[shapes.GameOffer]:
    """The game's offers in order (S2-S4): ``{"before_turn", "by", "stake", "answer"}``;
    ``answer`` is ``accept``, ``refuse``, or ``null`` while the offer waits (or when the
    game was resigned before the answer)."""
    return [{"before_turn": o["before_turn"], "by": o["by"], "stake": o["stake"],
             "answer": o.get("answer")} for o in game.offers]


def resign_offers_record_json(game: Game) -> list[shapes.GameResignOffer]:
    """The game's offers to resign with a result, in order, with their answers."""
    return [{"turn": o["turn"], "during": o["during"], "by": o["by"], "result": o["result"],
             "points": o["points"], "answer": o.get("answer")} for o in game.resign_offers]


def turn_list(game: Game) -> QuerySet[TurnRecord]:
    return game.turn_records.order_by("number")


def record_steps(steps: list[dict[str, Any]]) -> list[shapes.Step]:
    """A per-move record's steps in the one step shape (records from before the
    hitting games have no ``hit``: they never hit)."""
    return [{"from": s["from"], "to": s["to"], "die": s["die"], "hit": bool(s.get("hit"))}
            for s in steps]


def steps_text(steps: Sequence[Mapping[str, Any]]) -> str:
    """A turn's steps in the engine's notation (``24/18``, ``bar/22``, ``13/7*``,
    ``3/off(5)``); no steps is ``-``."""
    return format_play([Step(s["from"], s["to"], s["die"]) for s in steps],
                       [bool(s.get("hit")) for s in steps])


def accepted_offers(game: Game) -> dict[int, shapes.GameOffer]:
    """The game's accepted offers (S4) by the number of the turn they came before (only
    an accepted offer has a turn after it)."""
    return {o["before_turn"]: o for o in offers_json(game) if o["answer"] == "accept"}


def turn_list_json(game: Game) -> list[shapes.Turn]:
    """The per-move record of a game, each turn with the offer accepted before its roll."""
    before = accepted_offers(game)
    return [turn_json(t, before.get(t.number)) for t in turn_list(game)]


def match_review_open(match_id: int) -> bool:
    """Whether a game review of the match is queued or running: the match's stream stays
    open for its ``analysis`` events though the match is over."""
    return review_hooks.review().is_open(match_id)


def match_last_event_seq(match_id: int) -> int:
    """The ``seq`` of the match's last logged event (0 for none, or no such match)."""
    seq = Match.objects.filter(pk=match_id).values_list("last_event_seq", flat=True).first()
    return seq or 0


def game_positions_json(game: Game, perspective: Side) -> list[shapes.GamePosition]:
    """The board before the game's first turn (``turn`` 0) and after each of its turns,
    in ``perspective``'s numbering, for a replay: the one replay of the stored records
    (:class:`games.replay.GameReplay`), so a turn still being played shows the game's
    board now. Should a record not replay, the turns from it show the boards stored when
    each ended (``position_after``). Each entry names the match's analyses (depth and
    state), so a replay asks for a review only when there is one."""
    rs = game.match.ruleset
    analyses = review_hooks.review().briefs(game.match)
    replay = GameReplay(game)
    boards: list[tuple[int, str, BoardPosition]] = []
    try:
        boards += [(t.number, t.record.side, t.after) for t in replay.turns()]
    except ReplayError:
        boards += [(t.number, t.side, rs.position_from_id(t.position_after)
                    if t.position_after else game.position)
                   for t in replay.records[len(boards):]]
    out: list[shapes.GamePosition] = [
        {"turn": 0, "side": None, "board": board_json(rs.initial(), perspective),
         "analyses": analyses}]
    out += [{"turn": number, "side": side, "board": board_json(position, perspective),
             "analyses": analyses} for number, side, position in boards]
    return out


def turn_json(turn: TurnRecord, offer: shapes.GameOffer | None = None) -> shapes.Turn:
    """One turn of the per-move record; ``offer``: the accepted offer (S4) that came
    before its roll, as :func:`offers_json` shows it, or ``None``."""
    steps = record_steps(turn.steps)
    return {
        "number": turn.number,
        "side": turn.side,
        "offer": ({"by": offer["by"], "stake": offer["stake"], "answer": "accept"}
                  if offer else None),
        "dice": turn.dice,
        "steps": steps,
        "notation": steps_text(steps),
        "passed": bool(turn.pass_reason),
        "pass_reason": turn.pass_reason or None,
        "position_after": turn.position_after or None,
        "started_at": turn.started_at,
        "finished_at": turn.finished_at,
    }


def event_list(match: Match, *, after: int = 0, limit: int | None = None) -> QuerySet[Event]:
    events = match.events.filter(seq__gt=after).order_by("seq")
    return events[:limit] if limit is not None else events


_TIMED_EVENTS = frozenset({"claim", "abandoned", "deadline"})
"""Events whose ``data.deadline`` is an instant: logged before times had one format
(``…+00:00``, microseconds), read in it (UTC, milliseconds, ``Z``)."""


def event_json(event: Event) -> shapes.Event:
    data = event.data
    if event.type in _TIMED_EVENTS and isinstance(data.get("deadline"), str):
        data = {**data, "deadline": iso_time(datetime.fromisoformat(data["deadline"]))}
    return {"seq": event.seq, "type": event.type, "at": event.at, "data": data}


# --- match records (docs/notation.md, "Match record") ------------------------------------


def match_record(match: Match) -> shapes.MatchRecord:
    """The JSON form of a match record: everything the text shows, as data (4 queries)."""
    games = list(match.games.order_by("number"))
    turns: dict[int, list[TurnRecord]] = {g.pk: [] for g in games}
    for turn in TurnRecord.objects.filter(game__match=match).order_by("game__number", "number"):
        turns[turn.game_id].append(turn)
    roll_offs: dict[int, list[shapes.RecordRollOff]] = {}
    for event in match.events.filter(type="roll_off").order_by("seq"):
        data = event.data
        if data.get("result") in ("tie", *SIDE_NAMES):
            roll_offs.setdefault(data.get("game", 1), []).append(
                {"white": data["white"], "black": data["black"]})
    score: shapes.Score = {"white": 0, "black": 0}
    game_data: list[shapes.RecordGame] = []
    for game in games:
        result: shapes.RecordResult | None = None
        if game.winner:
            points = game.points_won or 0  # set with the winner (a constraint)
            if game.winner == Color.WHITE:
                score["white"] += points
            else:
                score["black"] += points
            loser = color_of(other(side_of(game.winner)))
            result = {
                "winner": game.winner,
                "points": points,
                "mars": game.mars,
                "result": game.result,
                "conceded": game.conceded(),
                "end_reason": game.end_reason,
                "resigned": loser if game.end_reason in RESIGNATIONS else None,
                "refused": loser if game.end_reason == EndReason.REFUSED else None,
                "stake": game.stake,
                "score": {"white": score["white"], "black": score["black"]},
            }
        accepted = accepted_offers(game)
        game_data.append({
            "number": game.number,
            "roll_off": roll_offs.get(game.number, []),
            "starter": game.starter or None,
            "stake": game.stake,
            "offers": offers_json(game),
            "resign_offers": resign_offers_record_json(game),
            "turns": [{
                "number": t.number,
                "side": t.side,
                "offer": accepted.get(t.number),
                "dice": list(t.dice),
                "steps": record_steps(t.steps),
                "notation": steps_text(t.steps),
                "pass_reason": t.pass_reason or None,
                "position_after": t.position_after or None,
            } for t in turns[game.pk]],
            "result": result,
            "fairness": fairness_json(game, match),
        })
    started = match.started_at or match.created_at
    return {
        "format": RECORD_FORMAT,
        "id": match.pk,
        "rules": match.rules,
        "white": _user_name(match.white),
        "black": _user_name(match.black),
        "hotseat": match.hotseat,
        "rated": match.rated,
        "length": match.length,
        "stakes": match.stakes,
        "progression": match.progression,
        "date": started.astimezone(UTC).date().isoformat() if started else None,
        "status": match.status,
        "winner": match.winner or None,
        "score": {"white": match.score_white, "black": match.score_black},
        "games": game_data,
    }


def _user_name(user: Any) -> str | None:
    return user.username if user is not None else None


def record_text(match: Match) -> str:
    """The whole match as the plain-text record of ``docs/notation.md``."""
    return format_record(match_record(match))


# --- player statistics (named in settings.PLAYER_STATS_SELECTOR) ------------------------


def player_stats(users: Iterable[Any]) -> dict[int, Stats]:
    """Stats from finished games and matches; hotseat matches (one account) do not count.
    ``by_rules``: per rule set played, games won and lost and the results by name (mars,
    koks, gammon, backgammon, resigned, … — what counts as a mars differs, H15).
    ``points_won``/``points_lost``: the points of the games won and lost, stakes included
    (S6); aborted matches keep the games they finished. Users with none are left out."""
    ids = {u.pk for u in users}
    stats: dict[int, Stats] = {}

    def seated(row: Mapping[str, Any], prefix: str = "") -> Iterable[tuple[Stats, bool]]:
        """The stats of each of ``ids`` seated in ``row``, and whether that side won."""
        for color in SIDE_NAMES:
            user_id = row[f"{prefix}{color}_id"]
            if user_id in ids:
                yield stats.setdefault(user_id, empty_stats()), row["winner"] == color

    seats = Q(white_id__in=ids) | Q(black_id__in=ids)
    matches = (Match.objects.filter(seats, status=MatchStatus.FINISHED, hotseat=False)
               .values("white_id", "black_id", "winner").annotate(n=Count("id")))
    for row in matches:
        for mine, won in seated(row):
            mine["matches_played"] += row["n"]
            if won:
                mine["matches_won"] += row["n"]
    game_seats = Q(match__white_id__in=ids) | Q(match__black_id__in=ids)
    games = (Game.objects.filter(game_seats, match__hotseat=False).exclude(winner="")
             .values("match__white_id", "match__black_id", "winner", "mars")
             .annotate(n=Count("id"), points=Sum("points_won")))
    for game_row in games:
        n, mars = game_row["n"], game_row["n"] if game_row["mars"] else 0
        points = game_row["points"] or 0
        for mine, won in seated(game_row, "match__"):
            if won:
                mine["games_won"] += n
                mine["points_won"] += points
                mine["mars_won"] += mars
            else:
                mine["games_lost"] += n
                mine["points_lost"] += points
                mine["mars_lost"] += mars
    by_rules = (Game.objects.filter(game_seats, match__hotseat=False).exclude(winner="")
                .values("match__rules", "match__white_id", "match__black_id", "winner", "result")
                .annotate(n=Count("id")))
    for rules_row in by_rules:
        n, result = rules_row["n"], rules_row["result"]
        for mine, won in seated(rules_row, "match__"):
            rules = mine["by_rules"].setdefault(
                rules_row["match__rules"], RulesStats(games_won=0, games_lost=0, won={}, lost={}))
            if won:
                rules["games_won"] += n
                rules["won"][result] = rules["won"].get(result, 0) + n
            else:
                rules["games_lost"] += n
                rules["lost"][result] = rules["lost"].get(result, 0) + n
    return stats


# --- dice statistics (docs/fairness.md) -----------------------------------------


def dice_stats(user: Any) -> shapes.DiceStats:
    """The dice of ``user``'s turns per rule set, in matches that were not hotseat:
    faces, doubles, pips against the expected values and a chi-square p-value. The
    backgammon opening (turn 1 playing the roll-off's dice, never a double) is left out."""
    tallies: dict[str, fairness.DiceTally] = {}
    overall = fairness.DiceTally()
    played = (Q(side=Color.WHITE, game__match__white_id=user.pk)
              | Q(side=Color.BLACK, game__match__black_id=user.pk))
    rows = (TurnRecord.objects.filter(played, game__match__hotseat=False)
            .values_list("game__match__rules", "number", "game__rolloff_white", "dice")
            .order_by())
    replayed_openings = {name for name, ruleset in RULESETS.items()
                         if ruleset.opening == "roll_off_played"}
    for rules, number, rolloff_white, rolled in rows.iterator():
        if number == 1 and rules in replayed_openings and rolloff_white is not None:
            continue
        if not (isinstance(rolled, list) and len(rolled) == 2):
            continue
        tallies.setdefault(rules, fairness.DiceTally()).add(rolled[0], rolled[1])
        overall.add(rolled[0], rolled[1])
    return {"username": user.username,
            "all": cast(shapes.DiceSummary, overall.summary()),
            "by_rules": {rules: cast(shapes.DiceSummary, tally.summary())
                         for rules, tally in sorted(tallies.items())}}
