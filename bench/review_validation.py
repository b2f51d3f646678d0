"""How far the game review (computer/review.py) can be trusted (docs/computer.md, "Review
accuracy").

    python -m bench.review_validation gnubg --games 100 --depths 1 2 --gnubg-plies 2 \
        --engine network --reference gnubg-2ply.json
    python -m bench.review_validation levels --games 100 --depth 1

``gnubg``: seeded backgammon games between two computer levels (``--levels``, by default
``heuristic`` and ``network``, swapping colours every game) are reviewed at each depth
by the review's ``--engine`` (``field``: the field engine, ``network``: the project's
own network; by default whichever the review uses) and analysed by GNU Backgammon
itself (``gnubg -t``: the games as one ``.mat`` money session written by
:mod:`nardy.mat`, ``analyse match`` at ``--gnubg-plies`` plies, cubeless, with gnubg's
own move filters; its ``gnubg.match(analysis=1)`` read back). Over the moves both call a
choice (not forced, not a pass) it prints the Spearman rank correlation of the two
equity losses, the share of gnubg's blunders (loss >= 0.08) that the review marks a
mistake or a blunder, and the reverse share. ``--reference FILE`` keeps gnubg's losses
(with the games' digest and its plies): a later run on the same games reads them
instead of analysing again, so two engines are compared with the one reference.

``levels``: for the rule sets without an outside reference, seeded games between two
levels per rule set (``--rules``, by default every rule set but backgammon), reviewed at
``--depth``: each level's error rate, ×500 rating and marks per game. The stronger level
should be rated better.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from bench.analysis import level_game
from computer.review import ENGINES, TurnInput, review_game
from nardy import RULESETS, SIDE_NAMES
from nardy.mat import MAT_RULES, format_mat

BLUNDER = 0.08
"""A blunder, as gnubg's losses are counted here: a move that loses at least this much."""

GNUBG_SCRIPT = """
import gnubg, json
gnubg.command("set threads 1")
gnubg.command("set analysis chequerplay evaluation plies %d" % PLIES)
gnubg.command("set analysis chequerplay evaluation cubeful off")
gnubg.command("set analysis cube off")
gnubg.command("set analysis luck off")
gnubg.command("import mat " + PATH)
gnubg.command("analyse match")
out = []
for g in gnubg.match(analysis=1)["games"]:
    losses = []
    for a in g["game"]:
        if a["action"] != "move":
            continue
        moves = a.get("analysis", {}).get("moves") or ()
        if len(moves) < 2 or "imove" not in a["analysis"]:
            losses.append(None)
        else:
            losses.append(moves[0]["score"] - moves[a["analysis"]["imove"]]["score"])
    out.append(losses)
print("RESULT " + json.dumps(out))
"""


def gnubg_path() -> str | None:
    return shutil.which("gnubg") or ("/usr/games/gnubg" if os.path.exists("/usr/games/gnubg")
                                     else None)


def ranks(values: Sequence[float]) -> np.ndarray:
    """Ranks 1..n, ties sharing their mean rank."""
    a = np.asarray(values, dtype=float)
    order = np.argsort(a, kind="stable")
    r = np.empty(len(a))
    i = 0
    while i < len(a):
        j = i
        while j + 1 < len(a) and a[order[j + 1]] == a[order[i]]:
            j += 1
        r[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rank correlation (Pearson's over the tie-averaged ranks)."""
    rx, ry = ranks(x), ranks(y)
    return float(np.corrcoef(rx, ry)[0, 1])


def mat_record(rules: str, games: Sequence[list[TurnInput]]) -> dict[str, Any]:
    """The games as a match record's JSON form (money play: length 0) for :mod:`nardy.mat`."""
    return {"rules": rules, "stakes": "none", "length": 0, "white": "white",
            "black": "black", "date": None,
            "games": [{"number": n, "offers": [], "result": None, "turns": [
                {"side": SIDE_NAMES[t.side], "dice": list(t.dice),
                 "steps": [{"from": s.src, "to": s.dst, "die": s.die} for s in t.steps]}
                for t in turns]} for n, turns in enumerate(games, start=1)]}


def gnubg_losses(rules: str, games: Sequence[list[TurnInput]], plies: int = 0
                 ) -> list[list[float | None]]:
    """gnubg's cubeless equity loss at ``plies`` of every move of every game (``None``:
    no choice). The cube and luck are not analysed: only the moves are compared."""
    program = gnubg_path()
    if program is None:
        raise SystemExit("gnubg is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.mat"
        path.write_text(format_mat(mat_record(rules, games)), encoding="utf-8")
        script = Path(tmp) / "analyse.py"
        script.write_text(f"PATH = {str(path)!r}\nPLIES = {int(plies)}\n" + GNUBG_SCRIPT,
                          encoding="utf-8")
        (Path(tmp) / "home").mkdir()
        done = subprocess.run([program, "-t", "-q", "-r", "-p", str(script)],
                              capture_output=True, text=True, stdin=subprocess.DEVNULL,
                              env={**os.environ, "HOME": str(Path(tmp) / "home")},
                              timeout=6 * 3600)
    line = next((x for x in done.stdout.splitlines() if x.startswith("RESULT ")), None)
    if line is None:
        raise SystemExit("gnubg gave no analysis:\n" + done.stdout[-2000:] + done.stderr[-2000:])
    found: list[list[float | None]] = json.loads(line[len("RESULT "):])
    return found


def games_digest(rules: str, games: Sequence[list[TurnInput]]) -> str:
    """A digest of the games' moves: a stored reference is read only for the same games."""
    text = json.dumps(mat_record(rules, games), sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def reference_losses(rules: str, games: Sequence[list[TurnInput]], plies: int,
                     stored: str | None) -> list[list[float | None]]:
    """gnubg's losses (:func:`gnubg_losses`), read from ``stored`` when it holds them for
    these games at these plies, else analysed (and written there)."""
    key = {"digest": games_digest(rules, games), "plies": plies}
    if stored and Path(stored).exists():
        found = json.loads(Path(stored).read_text(encoding="utf-8"))
        if {k: found.get(k) for k in key} == key:
            print(f"gnubg's {plies}-ply analysis read from {stored}", flush=True)
            losses: list[list[float | None]] = found["losses"]
            return losses
    start = time.perf_counter()
    losses = gnubg_losses(rules, games, plies)
    print(f"gnubg {plies}-ply cubeless analysis: {time.perf_counter() - start:.0f} s",
          flush=True)
    if stored:
        Path(stored).write_text(json.dumps({**key, "losses": losses}), encoding="utf-8")
    return losses


def played_games(rules: str, count: int, seed: int, levels: tuple[str, str]
                 ) -> list[tuple[list[TurnInput], tuple[str, str]]]:
    """``count`` seeded games, ``levels[0]`` White in the even ones."""
    out = []
    for i in range(count):
        seated = levels if i % 2 == 0 else (levels[1], levels[0])
        out.append((level_game(rules, seed * 100_003 + i, seated), seated))
    return out


def compare_with_gnubg(args: argparse.Namespace) -> None:
    rules = sorted(MAT_RULES)[0]
    levels = (args.levels[0], args.levels[1])
    start = time.perf_counter()
    games = played_games(rules, args.games, args.seed, levels)
    turns = sum(len(g) for g, _ in games)
    print(f"{rules}: {args.games} games of {levels[0]} vs {levels[1]}, seed {args.seed}, "
          f"{turns} turns ({time.perf_counter() - start:.0f} s to play)", flush=True)
    reference = reference_losses(rules, [g for g, _ in games], args.gnubg_plies,
                                 args.reference)
    if len(reference) != len(games) or any(
            len(r) != len(g) for r, (g, _) in zip(reference, games, strict=True)):
        raise SystemExit("gnubg read another number of games or moves than were written")
    engine = args.engine
    for depth in args.depths:
        start = time.perf_counter()
        ours: list[float] = []
        theirs: list[float] = []
        for (turns_of_game, _), ref in zip(games, reference, strict=True):
            review = review_game(rules, turns_of_game, depth, engine=args.engine)
            engine = review.engine
            for turn, loss in zip(review.turns, ref, strict=True):
                if turn.kind == "move" and loss is not None:
                    ours.append(turn.loss)
                    theirs.append(max(0.0, loss))
        a, b = np.asarray(ours), np.asarray(theirs)
        blunders = b >= BLUNDER
        marked = a >= BLUNDER
        caught = int(np.sum(blunders & marked))
        print(f"review depth {depth} by the {engine} against gnubg {args.gnubg_plies}-ply: "
              f"{len(a)} moves with a choice ({time.perf_counter() - start:.0f} s)")
        print(f"  Spearman rank correlation of the equity loss: {spearman(a, b):.3f}")
        print(f"  gnubg's blunders (loss >= {BLUNDER}): {int(blunders.sum())}; marked a "
              f"mistake or blunder by the review: {caught} = "
              f"{100 * caught / max(int(blunders.sum()), 1):.1f} %")
        print(f"  the review's mistakes and blunders: {int(marked.sum())}; gnubg's "
              f"blunders among them: {caught} = {100 * caught / max(int(marked.sum()), 1):.1f} %")
        print(f"  mean loss per move: review {a.mean():.4f}, gnubg {b.mean():.4f}; "
              f"both zero: {int(np.sum((a < 1e-9) & (b < 1e-9)))}", flush=True)


def self_consistency(args: argparse.Namespace) -> None:
    levels = (args.levels[0], args.levels[1])
    for rules in args.rules:
        start = time.perf_counter()
        totals = {level: {"decisions": 0, "loss": 0.0, "inaccuracy": 0, "mistake": 0,
                          "blunder": 0, "games_better": 0} for level in levels}
        games = played_games(rules, args.games, args.seed, levels)
        for turns, seated in games:
            review = review_game(rules, turns, args.depth)
            rates = []
            for side, level in enumerate(seated):
                s = review.sides[side]
                t = totals[level]
                t["decisions"] += s.decisions
                t["loss"] += s.loss
                for mark in ("inaccuracy", "mistake", "blunder"):
                    t[mark] += s.marks[mark]
                rates.append(s.error_rate)
            better = seated[0] if rates[0] < rates[1] else seated[1]
            totals[better]["games_better"] += 1
        print(f"{rules}: {args.games} games of {levels[0]} vs {levels[1]}, seed {args.seed}, "
              f"reviewed at depth {args.depth} ({time.perf_counter() - start:.0f} s)")
        for level in levels:
            t = totals[level]
            rate = t["loss"] / max(t["decisions"], 1)
            print(f"  {level:10} decisions {t['decisions']:6}  error rate {rate:.4f}  "
                  f"rating {500 * rate:6.1f}  per game: inaccuracies "
                  f"{t['inaccuracy'] / args.games:.2f}, mistakes {t['mistake'] / args.games:.2f}, "
                  f"blunders {t['blunder'] / args.games:.2f}; rated better in "
                  f"{t['games_better']} games", flush=True)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("gnubg", help="backgammon: the review against gnubg's analysis")
    g.add_argument("--games", type=int, default=50)
    g.add_argument("--depths", nargs="+", type=int, default=[0, 1], choices=[0, 1, 2])
    g.add_argument("--levels", nargs=2, default=["heuristic", "network"])
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--gnubg-plies", type=int, default=2, choices=[0, 1, 2])
    g.add_argument("--engine", choices=ENGINES, default=None,
                   help="the review's engine (default: the one the review uses)")
    g.add_argument("--reference", default=None,
                   help="a JSON file keeping gnubg's losses for these games")
    s = sub.add_parser("levels", help="the other rule sets: error rates per level")
    s.add_argument("--games", type=int, default=100)
    s.add_argument("--depth", type=int, default=1, choices=[0, 1, 2])
    s.add_argument("--levels", nargs=2, default=["heuristic", "network"])
    s.add_argument("--rules", nargs="+", choices=list(RULESETS),
                   default=[r for r in RULESETS if r not in MAT_RULES])
    s.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.command == "gnubg":
        compare_with_gnubg(args)
    else:
        self_consistency(args)


if __name__ == "__main__":
    main()
