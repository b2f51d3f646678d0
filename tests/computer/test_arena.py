"""The arena (``python -m computer.lab arena``): its statistics, determinism across
``--jobs``, its output and errors, and the gnubg player (skipped without gnubg)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence

import numpy as np
import pytest

import computer.weights_io
from computer import field
from computer.board import ruleset
from computer.lab import PREVIOUS_DIR
from computer.lab import __main__ as cli
from computer.lab.arena import (
    ArenaError,
    FieldPlayer,
    LevelPlayer,
    Setup,
    main,
    make_player,
    ms_per_move,
    play,
    run,
    wilson,
)
from computer.lab.gnubg import (
    GnubgError,
    GnubgPlayer,
    apply_move,
    apply_steps,
    find_gnubg,
    parse_move,
    server_script,
)
from computer.network import weights_digest
from computer.race import load_race_net
from computer.score import WINS_ONLY
from nardy import BACKGAMMON_RULES, BLACK, WHITE, BoardPlay, BoardPosition, HitPosition, Side


@pytest.mark.parametrize(("wins", "games", "low", "high"), [
    (50, 100, 0.403830, 0.596170),
    (0, 10, 0.0, 0.277540),
    (10, 10, 0.722460, 1.0),
    (1, 3, 0.061491, 0.792346),
    (95, 100, 0.888247, 0.978457),
])
def test_wilson_interval_against_values_worked_by_hand(wins: int, games: int, low: float,
                                                       high: float) -> None:
    """Worked from the formula with z = 1.96 (z² = 3.8416), p = wins / n:
    ``(p + z²/2n ± z √(p(1 − p)/n + z²/4n²)) / (1 + z²/n)``.

    - 50/100: centre 0.5 + 0.019208 = 0.519208; root √(0.0025 + 0.00009604) = 0.0509514,
      × 1.96 = 0.0998648; scale 1.038416 → 0.419343 / 1.038416 = 0.403830 and
      0.619073 / 1.038416 = 0.596170 (the textbook 40.38-59.62 %).
    - 0/10: p = 0, so centre = half = z²/2n and the interval is 0 .. z²/(n + z²)
      = 3.8416 / 13.8416 = 0.277540.
    - 10/10: the mirror image, 1 − 0.277540 = 0.722460 .. 1.
    - 1/3: centre 1/3 + 3.8416/6 = 0.973600; root √(2/27 + 3.8416/36) = √0.180785
      = 0.425188, × 1.96 = 0.833368; scale 1 + 3.8416/3 = 2.280533 → 0.140232 /
      2.280533 = 0.061491 and 1.806968 / 2.280533 = 0.792346.
    - 95/100: centre 0.969208; root √(0.000475 + 0.00009604) = 0.0238964, × 1.96 =
      0.0468369 → 0.922371 / 1.038416 = 0.888247 and 1.016045 / 1.038416 = 0.978457.
    """
    got = wilson(wins, games)
    assert got == pytest.approx((low, high), abs=2e-6)


def test_wilson_interval_refuses_no_games() -> None:
    with pytest.raises(ValueError):
        wilson(0, 0)
    with pytest.raises(ValueError):
        wilson(4, 3)


def test_ms_per_move_uses_the_nearest_rank_p95() -> None:
    """20 moves of 1..20 ms: p95 is the 19th (⌈0.95 · 20⌉), the mean 10.5."""
    assert ms_per_move([i / 1000 for i in range(20, 0, -1)]) == (
        "10.5 ms mean, 19.0 ms p95, 20.0 ms max over 20 moves")
    assert ms_per_move([]) == "no moves with a choice"


def test_two_jobs_play_exactly_the_games_of_one() -> None:
    setup = Setup("backgammon", "random", "heuristic", seed=7)
    one = run(setup, games=6, jobs=1)
    two = run(setup, games=6, jobs=2)
    assert one.results() == two.results()
    assert [len(t) for t in one.times] == [len(t) for t in two.times]
    assert [g.a_side for g in one.results()] == [WHITE, BLACK] * 3
    assert len({(g.winner, g.points, g.turns) for g in one.results()}) > 1
    other_seed = run(Setup("backgammon", "random", "heuristic", seed=8), games=6)
    assert other_seed.results() != one.results()


def numbers(pattern: str, text: str) -> list[float]:
    m = re.search(pattern, text, re.MULTILINE)
    assert m, f"no {pattern!r} in\n{text}"
    return [float(x) for x in m.groups()]


def test_the_printed_figures_agree_with_each_other_and_the_games(
        capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["heuristic", "random", "--rules", "short_nardy", "--games", "12", "--seed", "2"]
    assert cli.main(["arena", *argv]) == 0
    out = capsys.readouterr().out
    tally = run(Setup("short_nardy", "heuristic", "random", seed=2), games=12)
    games = 12
    assert out.startswith("short_nardy: A = heuristic, B = random; 12 games, seed 2, 1 job")
    wins, total, share, low, high = numbers(
        r"^A won (\d+) of (\d+) = ([\d.]+) % \(95 % Wilson interval ([\d.]+)-([\d.]+) %\)$",
        out)
    assert (wins, total) == (tally.wins, games)
    assert share == pytest.approx(100 * wins / games, abs=0.05)
    assert low <= share <= high
    a_wins = numbers(r"^A's (\d+) wins?: (\d+) single, (\d+) mars, (\d+) koks", out)
    b_wins = numbers(r"^B's (\d+) wins?: (\d+) single, (\d+) mars, (\d+) koks", out)
    for counts in (a_wins, b_wins):
        assert counts[0] == sum(counts[1:])
    assert a_wins[0] + b_wins[0] == games and a_wins[0] == wins
    points = sum(n * k for n, k in zip((1, 2, 3), a_wins[1:], strict=True)) - sum(
        n * k for n, k in zip((1, 2, 3), b_wins[1:], strict=True))
    (per_game,) = numbers(r"^A's points per game: ([+-][\d.]+)$", out)
    assert per_game == pytest.approx(points / games, abs=0.0005)
    assert points == tally.points
    if a_wins[0]:
        mars, koks = numbers(r"^A's .*; mars or more ([\d.]+) %, koks ([\d.]+) %$", out)
        assert mars == pytest.approx(100 * (a_wins[2] + a_wins[3]) / a_wins[0], abs=0.05)
        assert koks == pytest.approx(100 * a_wins[3] / a_wins[0], abs=0.05)
    for label in "AB":
        mean, p95, top, moves = numbers(
            rf"^{label}'s time per move: ([\d.]+) ms mean, ([\d.]+) ms p95, ([\d.]+) ms max "
            r"over (\d+) moves$", out)
        assert mean <= top and p95 <= top and moves > 0
    assert re.search(r"^elapsed [\d.]+ s$", out, re.MULTILINE)


def test_b_can_play_another_network(capsys: pytest.CaptureFixture[str]) -> None:
    """``--b-weights``: the new network against the one it replaced: each
    side plays its own weights, and the report names them."""
    previous = PREVIOUS_DIR / "long_nardy.npz"
    argv = ["network", "network", "--rules", "long_nardy", "--games", "4", "--seed", "3",
            "--b-weights", str(previous)]
    assert cli.main(["arena", *argv]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"long_nardy: A = network, B = network ({previous}); 4 games")
    setup = Setup("long_nardy", "network", "network", seed=3, b_weights=previous)
    assert (setup.weights_of("a"), setup.weights_of("b")) == (None, previous)
    both = Setup("long_nardy", "network", "network", seed=3, weights=previous)
    assert (both.weights_of("a"), both.weights_of("b")) == (previous, previous)


@pytest.mark.parametrize(("argv", "message"), [
    (["nobody", "random", "--rules", "long_nardy"], "no player 'nobody'"),
    (["random", "heuristic", "--rules", "chess"], "no rule set 'chess'"),
    (["random", "gnubg", "--rules", "nard"], "gnubg plays backgammon only"),
    (["expert", "random", "--rules", "long_nardy"], "needs a trained network"),
    (["network", "random", "--rules", "long_nardy", "--weights", "/no/such.npz"],
     "no weights file"),
    (["random", "network", "--rules", "long_nardy", "--b-weights", "/no/such.npz"],
     "no weights file"),
    (["random", "heuristic", "--rules", "nard", "--games", "0"], "at least 1"),
    (["random", "heuristic", "--rules", "nard", "--match", "-1"], "a match length"),
])
def test_bad_players_and_rules_are_refused(argv: list[str], message: str, tmp_path,
                                           monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(computer.weights_io, "WEIGHTS_DIR", tmp_path)  # no trained networks
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert message in captured.err and not captured.out


def test_the_dispatcher_names_its_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([]) == 2
    assert "arena" in capsys.readouterr().out
    assert cli.main(["no-such-command"]) == 2
    assert "no command 'no-such-command'" in capsys.readouterr().err


def test_gnubg_notation_is_read_step_by_step() -> None:
    assert parse_move("24/18(2) 13/7*/5 bar/22 6/off") == (
        (24, 18), (24, 18), (13, 7), (7, 5), (25, 22), (6, 0))
    assert parse_move("") == ()
    with pytest.raises(ValueError):
        parse_move("24-18")


def test_applying_a_move_hits_the_blots_it_lands_on() -> None:
    """White has 6-4 at the start against a Black blot on White's 18 point (Black's 7):
    24/18* hits it, 13/9 does not touch anything."""
    start = BACKGAMMON_RULES.initial()
    view = start.in_perspective(WHITE)
    view[18] = -1
    view[19] += 1  # the blot came from Black's 6 point (White's 19)
    position = BACKGAMMON_RULES.position_from_perspective(WHITE, view, 0, 0, 0, 0)
    after = apply_move(position, WHITE, "24/18* 13/9")
    assert after.bar_of(BLACK) == 1
    assert after.in_perspective(WHITE)[18] == 1 and after.in_perspective(WHITE)[9] == 1
    assert after == apply_steps(position, WHITE, [(24, 18), (13, 9)])
    with pytest.raises(ValueError):
        apply_steps(position, WHITE, [(23, 17)])


needs_gnubg = pytest.mark.skipif(find_gnubg() is None, reason="GNU Backgammon (Debian "
                                 "package gnubg) is not installed")


class Checked:
    """gnubg, each of its moves checked against its own notation of it."""

    def __init__(self, gnubg: GnubgPlayer) -> None:
        self.gnubg = gnubg
        self.moves = 0

    def new_game(self, rng: random.Random) -> None:
        self.gnubg.new_game(rng)

    def choose(self, position: BoardPosition, side: Side, dice: tuple[int, int],
               first_turn: bool, plays: Sequence[BoardPlay]) -> int:
        assert isinstance(position, HitPosition)
        choice = self.gnubg.choose(position, side, dice, first_turn, plays)
        _, text = self.gnubg.best_move(position, side, dice)
        assert 0 <= choice < len(plays)
        assert plays[choice].position == apply_move(position, side, text)
        self.moves += 1
        return choice

    def close(self) -> None:
        self.gnubg.close()


@needs_gnubg
def test_gnubg_beats_random_with_legal_moves_only() -> None:
    with GnubgPlayer() as gnubg:
        checked = Checked(gnubg)
        rand = LevelPlayer("backgammon", "random")
        for index in range(2):
            game, _ = play("backgammon", rand, checked, seed=11, index=index)
            assert not game.a_won
    assert checked.moves > 10


@needs_gnubg
def test_a_gnubg_move_that_is_not_legal_here_fails_loudly() -> None:
    position, side, dice = BACKGAMMON_RULES.initial(), WHITE, (3, 1)
    plays = BACKGAMMON_RULES.legal_plays(position, side, dice)
    with GnubgPlayer() as gnubg:
        best = gnubg.choose(position, side, dice, True, plays)
        assert sorted(str(plays[best]).split()) == ["6/5", "8/5"]  # the book move
        others = [p for i, p in enumerate(plays) if i != best]
        with pytest.raises(GnubgError, match="is not one of the"):
            gnubg.choose(position, side, dice, True, others)


@needs_gnubg
def test_the_arena_runs_gnubg_in_each_worker() -> None:
    tally = run(Setup("backgammon", "random", "gnubg", seed=5), games=2, jobs=2)
    assert [g.a_won for g in tally.results()] == [False, False]
    assert tally.times[1]


def test_a_record_is_taken_up_where_it_stopped(tmp_path) -> None:
    """``--record``: a run cut short (here: the file of a 3-game run) is continued by the
    same command, which plays only the missing games; the tally is the uncut run's."""

    setup = Setup("backgammon", "random", "heuristic", seed=5)
    whole = run(setup, games=6)
    record = tmp_path / "arena.jsonl"
    first = run(setup, games=3, record=record)
    assert first.results() == whole.results()[:3]
    lines = record.read_text().splitlines()
    assert json.loads(lines[0]) == setup.header() and len(lines) == 4
    resumed = run(setup, games=6, jobs=2, record=record)
    assert resumed.results() == whole.results()
    games = [json.loads(line) for line in record.read_text().splitlines()[1:]]
    assert sorted(g["index"] for g in games) == list(range(6))
    assert [len(t) for t in resumed.times] == [len(t) for t in whole.times]
    again = run(setup, games=6, record=record)  # nothing left to play
    assert again.results() == whole.results() and len(record.read_text().splitlines()) == 7
    assert run(setup, games=2, record=record).results() == whole.results()[:2]


def test_a_record_of_another_setup_is_refused(tmp_path, capsys) -> None:
    record = tmp_path / "arena.jsonl"
    run(Setup("backgammon", "random", "heuristic", seed=5), games=1, record=record)
    before = record.read_text()
    with pytest.raises(ArenaError, match="records another setup"):
        run(Setup("backgammon", "random", "heuristic", seed=6), games=2, record=record)
    with pytest.raises(SystemExit):
        main(["random", "heuristic", "--rules", "backgammon", "--seed", "6", "--games", "2",
              "--record", str(record)])
    assert "records another setup" in capsys.readouterr().err
    assert record.read_text() == before
    (tmp_path / "junk.jsonl").write_text("not json\n")
    with pytest.raises(ArenaError, match="not an arena record"):
        run(Setup("backgammon", "random", "heuristic", seed=5), games=1,
            record=tmp_path / "junk.jsonl")


def test_a_records_header_names_the_networks_by_digest(tmp_path) -> None:
    """Another network for B is another setup: the header carries each learned player's
    weights digest (the committed file's when none is given), none for the others."""

    previous = PREVIOUS_DIR / "long_nardy.npz"
    header = Setup("long_nardy", "network", "heuristic", seed=1, b_weights=previous).header()
    assert header["a_weights"] == weights_digest(computer.weights_io.weights_path("long_nardy"))
    assert header["b_weights"] is None
    other = Setup("long_nardy", "network", "network", seed=1, b_weights=previous).header()
    assert other["b_weights"] == weights_digest(previous) != other["a_weights"]


def test_expert_full_is_the_unreduced_expert_and_records_tell_them_apart(tmp_path) -> None:
    """``expert-full``: the expert searching all 21 rolls at its last ply where the
    ``expert`` reduces it (all but backgammon); a record of the full search (every record
    made before the reduction) is not continued by the reduced one, nor the reverse."""

    assert make_player("short_nardy", "expert-own").reduced is True
    assert make_player("short_nardy", "expert-full").reduced is False
    assert make_player("long_nardy", "expert").reduced is True
    assert make_player("backgammon", "expert-own").reduced is False
    assert make_player("nard", "strong").reduced is False
    assert Setup("short_nardy", "expert", "expert-full", seed=1).header()["reduced"] == ["a"]
    assert "reduced" not in Setup("backgammon", "expert", "strong", seed=1).header()
    assert "reduced" not in Setup("long_nardy", "expert-full", "strong", seed=1).header()
    before = {"arena": 1, "rules": "short_nardy", "a": "expert", "b": "random", "seed": 1,
              "a_weights": Setup("short_nardy", "expert", "random", seed=1).header()[
                  "a_weights"], "b_weights": None}
    record = tmp_path / "old.jsonl"
    record.write_text(json.dumps(before) + "\n")
    with pytest.raises(ArenaError, match="records another setup"):
        run(Setup("short_nardy", "expert", "random", seed=1), games=1, record=record)


def test_match_play_is_another_setup_and_plays_for_the_match(tmp_path,
                                                           capsys) -> None:
    """``--match N``: each game the first of an N-point match — the header says so (a
    money record is not continued by it), the learned players play for the match at
    0-0 (a 1-point match: wins only, computer.score), gnubg is told the length."""

    assert "match" not in Setup("backgammon", "network", "random", seed=1).header()
    one = Setup("backgammon", "network", "random", seed=1, match=1)
    assert one.header()["match"] == 1
    record = tmp_path / "arena.jsonl"
    run(Setup("backgammon", "random", "heuristic", seed=5), games=1, record=record)
    with pytest.raises(ArenaError, match="records another setup"):
        run(Setup("backgammon", "random", "heuristic", seed=5, match=1), games=2,
            record=record)
    player = LevelPlayer("backgammon", "network", match=1)
    assert player.objective is not None
    assert all(np.allclose(w, WINS_ONLY) for w in player.objective.weights)
    assert LevelPlayer("backgammon", "network").objective is None
    money = make_player("long_nardy", "expert-money", match=1)
    assert isinstance(money, LevelPlayer) and money.objective is None
    assert money.level == "expert"
    alone = make_player("long_nardy", "expert", match=1)
    assert isinstance(alone, LevelPlayer) and alone.objective is not None
    # Backgammon's (through the field engine where it is installed) alike.
    assert make_player("backgammon", "expert-money", match=1).objective is None
    assert make_player("backgammon", "expert", match=1).objective is not None
    assert server_script(1).startswith("MATCH_TO = 1\n")
    assert server_script().startswith("MATCH_TO = 0\n")
    with pytest.raises(ValueError):
        server_script(-1)
    assert main(["heuristic", "random", "--rules", "backgammon", "--games", "2",
                 "--match", "1"]) == 0
    assert "each game the first of a 1-point match" in capsys.readouterr().out


@needs_gnubg
def test_gnubg_in_a_one_point_match_plays_for_the_win() -> None:
    """Told the match is 1 point, gnubg plays some positions otherwise than for money
    (its gammons no longer count): seeded random decisions, some of which differ."""
    rs = ruleset("backgammon")
    rng = random.Random(3)
    differ = 0
    with GnubgPlayer() as money, GnubgPlayer(match=1) as alone:
        for _ in range(6):
            position, side, first = rs.initial(), 0, True
            for _ in range(60):
                dice = (rng.randint(1, 6), rng.randint(1, 6))
                plays = rs.legal_plays(position, side, dice, first)
                first = False
                if len(plays) > 1:
                    a = money.choose(position, side, dice, False, plays)
                    differ += a != alone.choose(position, side, dice, False, plays)
                position = plays[rng.randrange(len(plays))].position
                if rs.outcome(position) is not None:
                    break
                side = 1 - side
    assert differ > 0


def _race_variant(tmp_path) -> tuple[object, object]:
    """The committed backgammon race network with its output biases moved, saved."""

    committed = load_race_net("backgammon")
    assert committed is not None
    variant = type(committed)(committed.w1, committed.b1, committed.w2,
                              committed.b2 + 0.25, dict(committed.meta))
    path = tmp_path / "race-variant.npz"
    variant.save(path)
    return variant, path


def test_race_weights_give_the_learned_players_another_race_network(tmp_path) -> None:
    """``--race-weights``: the players of ``--weights``' network (A, and B unless
    ``--b-weights``) play races with it; a ``-norace`` level still has none; the record's
    header names it by digest — and says nothing when it is not given, so the records
    made before the option are continued as they were."""

    variant, path = _race_variant(tmp_path)
    player = make_player("backgammon", "network", race_weights=path)
    assert np.array_equal(player.race.b2, variant.b2)
    assert make_player("backgammon", "network-norace", race_weights=path).race is False
    assert make_player("backgammon", "network-own").race is None  # the committed one
    header = Setup("backgammon", "network", "network", seed=1, race_weights=path).header()
    assert header["a_race_weights"] == header["b_race_weights"] == weights_digest(path)
    previous = PREVIOUS_DIR / "backgammon.npz"
    apart = Setup("backgammon", "network", "network", seed=1, b_weights=previous,
                  race_weights=path)
    assert (apart.race_weights_of("a"), apart.race_weights_of("b")) == (path, None)
    assert "b_race_weights" not in apart.header()
    assert "a_race_weights" not in Setup("backgammon", "network", "gnubg", seed=1).header()
    record = tmp_path / "before.jsonl"
    run(Setup("backgammon", "network", "random", seed=1), games=1, record=record)
    with pytest.raises(ArenaError, match="records another setup"):
        run(Setup("backgammon", "network", "random", seed=1, race_weights=path), games=2,
            record=record)


@pytest.mark.parametrize(("argv", "message"), [
    (["network", "random", "--rules", "backgammon", "--race-weights", "/no/such.npz"],
     "no weights file"),
    (["network", "random", "--rules", "backgammon", "--race-weights",
      str(computer.weights_io.WEIGHTS_DIR / "backgammon.npz")], "not a race network"),
    (["network", "random", "--rules", "backgammon", "--race-weights",
      str(computer.weights_io.WEIGHTS_DIR / "short_nardy-race.npz")], "short_nardy"),
    (["network", "random", "--rules", "nard", "--race-weights",
      str(computer.weights_io.WEIGHTS_DIR / "backgammon-race.npz")], "does not bear off"),
])
def test_bad_race_weights_are_refused(argv: list[str], message: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([*argv, "--games", "1"])
    assert stopped.value.code == 2
    captured = capsys.readouterr()
    assert message in captured.err and not captured.out


def test_gnubg_one_ply_searches_a_roll_ahead() -> None:
    """``gnubg-1ply``: the script asks gnubg for its 1-ply, which plays some positions
    otherwise than its 0-ply (seeded random decisions)."""
    assert "\nPLIES = 1\n" in server_script(1, plies=1)
    with pytest.raises(ValueError):
        server_script(0, plies=3)
    rs = ruleset("backgammon")
    rng = random.Random(4)
    differ = 0
    with GnubgPlayer() as zero, make_player("backgammon", "gnubg-1ply") as one:
        position, side, first = rs.initial(), 0, True
        for _ in range(40):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            plays = rs.legal_plays(position, side, dice, first)
            first = False
            if len(plays) > 1:
                a = zero.choose(position, side, dice, False, plays)
                differ += a != one.choose(position, side, dice, False, plays)
            position = plays[rng.randrange(len(plays))].position
            if rs.outcome(position) is not None:
                position, side, first = rs.initial(), 0, True
            side = 1 - side
    assert differ > 0


@pytest.mark.skipif(not field.available(), reason="the field engine is not installed")
def test_backgammons_learned_levels_play_through_the_field_engine_and_say_so() -> None:
    """In backgammon a learned level plays as the server plays it, through the field
    engine, and the record's header names the engine; ``-own`` plays the project's own
    network (the comparison), another setup whose records do not mix with it."""
    assert isinstance(make_player("backgammon", "world-class", match=1), FieldPlayer)
    assert isinstance(make_player("backgammon", "expert-own"), LevelPlayer)
    assert isinstance(make_player("long_nardy", "expert"), LevelPlayer)
    field_header = Setup("backgammon", "world-class", "gnubg", seed=1, match=1).header()
    assert field_header["a_engine"] == field.engine_label()
    assert field_header["a_weights"] is None and "b_engine" not in field_header
    own = Setup("backgammon", "expert-own", "gnubg", seed=1).header()
    assert "a_engine" not in own and own["a_weights"] is not None
    rs = ruleset("backgammon")
    player = make_player("backgammon", "strong")
    player.new_game(random.Random(1))
    plays = rs.legal_plays(rs.initial(), 0, (3, 1), True)
    assert player.choose(rs.initial(), 0, (3, 1), True, plays) == field.best_play(
        rs.initial(), 0, plays, 1)
