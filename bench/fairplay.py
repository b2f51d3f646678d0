"""How well the fair-play score (fairplay/evidence.py) tells assisted play from honest
play, on simulated accounts (docs/fairplay.md, "Measured").

    python -m bench.fairplay                      # Long Nardy, about 5 minutes on one core
    python -m bench.fairplay --positions 600 --accounts 100   # a quick look

**The method.** A pool of positions is played once: seeded games between the
``heuristic`` and ``network`` levels (both colours), each non-forced decision kept with
every legal play valued as the site's background review values it (depth 0: the
network's static equity), the ``heuristic`` level's choice and the ``expert``'s (2-ply
reduced, the strongest level). A simulated account's rated game is ``--moves`` decisions
drawn from the pool at random (a game of its own positions would cost the search again
for each account; what the score reads is per move, so the draws stand in for them).
What it plays in each:

- honest: ``random`` (a legal play at random); ``heuristic``; the ``network`` level with
  noise — the play with the best equity plus Gumbel noise of scale τ (τ = 0.03, 0.06,
  0.12: three strengths of people, who err more where the plays are close);
- cheaters, over the τ = 0.06 player: the expert's play every turn (``full``), in a
  third of the turns at random (``third``), only in hard positions (``hard``: the best and
  second-best plays at least ``HARD_GAP`` apart, where a cheater would ask).

**Ratings.** An honest kind's rating is where its error rate puts it on the line through
the two anchored levels the review can judge (``random`` 1000 and ``heuristic``, their
published ratings, ratings/anchors.py), plus a normal error of 60 points per account (a
rating is never exact); a cheater keeps its honest base's rating (the games that would
raise it are the ones being judged). The expected error rate by rating is fitted
(:func:`fairplay.evidence.fit`) from a separate set of honest accounts, as the site fits
it from its own reviews. The move times are not simulated (the score does not use them).

**Figures.** Each account plays ``--games`` games; after each game from
``FAIRPLAY_MIN_GAMES`` on its score is computed over all its games so far
(:func:`fairplay.evidence.account_figures`) and it is flagged the first time the score
reaches the threshold. Printed per kind: the share flagged within 10 and within 30 games,
and the median games to the flag; then, for thresholds around the chosen one, the worst
honest false-flag rate over 30 games and the detection rates, to choose from.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from bench.analysis import level_game
from computer.board import ruleset
from computer.levels import REDUCED, picker
from computer.network import equity
from computer.search import Evaluator
from computer.weights_io import load_net
from fairplay import evidence
from nardy import DEFAULT_RULES
from ratings.anchors import anchor

THRESHOLDS = (50.0, 55.0, 60.0, 62.0, 65.0, 70.0, 80.0)
MIN_GAMES = 5
"""``FAIRPLAY_MIN_GAMES``'s default."""
DEFAULT_THRESHOLD = 65.0
"""``FAIRPLAY_THRESHOLD``'s default."""
RATING_ERROR = 60.0
BASE_TAU = 0.06


@dataclass
class Pool:
    equities: list[np.ndarray]
    best: np.ndarray
    gap: np.ndarray
    heuristic: np.ndarray
    expert: np.ndarray
    moves_per_game: float

    @property
    def size(self) -> int:
        return len(self.equities)


def build_pool(rules: str, positions: int, seed: int) -> Pool:
    """Non-forced decisions of seeded heuristic-v-network games, valued at depth 0."""
    rs = ruleset(rules)
    ev = Evaluator(rules, load_net(rules))
    heuristic = picker(rules, "heuristic")
    expert = picker(rules, "expert", reduced=rules in REDUCED)
    eqs: list[np.ndarray] = []
    best, gaps, heur, exp = [], [], [], []
    games = 0
    decisions = 0
    n = 0
    while len(eqs) < positions:
        levels = ("heuristic", "network") if n % 2 == 0 else ("network", "heuristic")
        turns = level_game(rules, seed + n, levels)
        n += 1
        games += 1
        for t in turns:
            plays = rs.legal_plays(t.position, t.side, t.dice, t.first_turn)
            if len(plays) < 2:
                continue
            decisions += 1
            values = np.round(equity(ev.static([p.position for p in plays], t.side)), 4)
            ev.clear()
            order = np.argsort(-values, kind="stable")
            eqs.append(values)
            best.append(int(order[0]))
            gaps.append(float(values[order[0]] - values[order[1]]))
            heur.append(heuristic(plays, t.side))
            exp.append(expert(plays, t.side))
            if len(eqs) >= positions:
                break
    return Pool(eqs, np.array(best), np.array(gaps), np.array(heur), np.array(exp),
                decisions / games / 2)


Chooser = Callable[[int, random.Random], int]


def noisy(pool: Pool, tau: float) -> Chooser:
    def choose(i: int, rng: random.Random) -> int:
        values = pool.equities[i]
        noise = np.array([-math.log(-math.log(rng.random() or 1e-12)) for _ in values])
        return int(np.argmax(values + tau * noise))
    return choose


def kinds(pool: Pool) -> dict[str, tuple[bool, Chooser]]:
    """name → (a cheater?, its choice in pool position ``i``)."""
    base = noisy(pool, BASE_TAU)

    def third(i: int, rng: random.Random) -> int:
        return int(pool.expert[i]) if rng.random() < 1 / 3 else base(i, rng)

    def hard(i: int, rng: random.Random) -> int:
        return int(pool.expert[i]) if pool.gap[i] >= evidence.HARD_GAP else base(i, rng)

    return {
        "random": (False, lambda i, rng: rng.randrange(len(pool.equities[i]))),
        "heuristic": (False, lambda i, rng: int(pool.heuristic[i])),
        "noisy network τ=0.12": (False, noisy(pool, 0.12)),
        "noisy network τ=0.06": (False, base),
        "noisy network τ=0.03": (False, noisy(pool, 0.03)),
        "cheater: expert every turn": (True, lambda i, rng: int(pool.expert[i])),
        "cheater: expert a third of turns": (True, third),
        "cheater: expert in hard positions": (True, hard),
    }


def play_game(pool: Pool, choose: Chooser, moves: int, rng: random.Random,
              match: int) -> evidence.GameFigures:
    g = evidence.GameFigures(match=match, game=1, side="white")
    for _ in range(moves):
        i = rng.randrange(pool.size)
        values = pool.equities[i]
        loss = float(values[pool.best[i]] - values[choose(i, rng)])
        is_best = loss < evidence.BEST_EPSILON
        g.moves += 1
        g.loss += loss
        g.best += is_best
        if pool.gap[i] >= evidence.HARD_GAP:
            g.hard += 1
            g.hard_loss += loss
            g.hard_best += is_best
        else:
            g.easy += 1
            g.easy_loss += loss
    return g


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default=DEFAULT_RULES)
    parser.add_argument("--positions", type=int, default=1500)
    parser.add_argument("--accounts", type=int, default=200,
                        help="simulated accounts per kind")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--moves", type=int, default=0,
                        help="decisions per game (0: as many as the pool's games had)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.process_time()
    pool = build_pool(args.rules, args.positions, args.seed)
    moves = args.moves or round(pool.moves_per_game)
    print(f"pool: {pool.size} decisions ({args.rules}), {moves} moves a game, "
          f"{(pool.gap >= evidence.HARD_GAP).mean():.1%} hard; "
          f"expert's play the depth-0 best in {(pool.expert == pool.best).mean():.1%}; "
          f"{time.process_time() - started:.0f} s cpu")
    rng = random.Random(args.seed)
    every = kinds(pool)
    # The honest kinds' error rates place them on the anchors' line.
    rate = {}
    for name, (cheat, choose) in every.items():
        if not cheat:
            sample = [play_game(pool, choose, moves, rng, 0) for _ in range(20)]
            rate[name] = sum(g.loss for g in sample) / sum(g.moves for g in sample)
    low, high = anchor(args.rules, "random") or 1000.0, anchor(args.rules, "heuristic")
    assert high is not None
    slope = (math.log(rate["heuristic"]) - math.log(rate["random"])) / (high - low)

    def rating_of(name: str) -> float:
        return min(2600.0, low + (math.log(rate[name]) - math.log(rate["random"])) / slope)

    base_of = {name: (name if not cheat else "noisy network τ=0.06")
               for name, (cheat, _) in every.items()}
    # The fit, from a separate set of honest accounts.
    samples = []
    for name, (cheat, choose) in every.items():
        if cheat:
            continue
        for _ in range(30):
            r = rating_of(name) + rng.gauss(0, RATING_ERROR)
            samples += [(r, play_game(pool, choose, moves, rng, 0)) for _ in range(3)]
    fit = evidence.fit(samples)
    print(f"fit: expected error rate {fit.expected(1500):.4f} at 1500, halves every "
          f"{-math.log(2) / fit.b:.0f} points, hard positions x{fit.hard_ratio:.2f} "
          f"({fit.games} games)")
    print()
    print(f"{'kind':34} {'rating':>6} {'err/move':>8} " + " ".join(
        f"{'≤10@' + str(int(t)):>7} {'≤30@' + str(int(t)):>7}" for t in (DEFAULT_THRESHOLD,))
        + f" {'median games':>12}")
    firsts: dict[str, list[list[float]]] = {}
    for name, (_cheat, choose) in every.items():
        scores_by_account = []
        loss = moves_total = 0.0
        for a in range(args.accounts):
            r = rating_of(base_of[name]) + rng.gauss(0, RATING_ERROR)
            games: list[evidence.GameFigures] = []
            scores = []
            for n in range(1, args.games + 1):
                games.append(play_game(pool, choose, moves, rng, a * 100 + n))
                if n >= MIN_GAMES:
                    scores.append(evidence.account_figures(games, r, fit)["score"])
            loss += sum(g.loss for g in games)
            moves_total += sum(g.moves for g in games)
            scores_by_account.append(scores)
        firsts[name] = scores_by_account

        def flagged_within(limit: int, threshold: float,
                           accounts: list[list[float]] = scores_by_account) -> float:
            return sum(any(s >= threshold for s in sc[:limit - MIN_GAMES + 1])
                       for sc in accounts) / len(accounts)

        def first_flag(sc: list[float], threshold: float) -> int | None:
            return next((k + MIN_GAMES for k, s in enumerate(sc) if s >= threshold), None)

        found = sorted(f for f in (first_flag(sc, DEFAULT_THRESHOLD) for sc in scores_by_account)
                       if f is not None)
        median = (str(found[len(found) // 2]) if len(found) * 2 > len(scores_by_account)
                  else "—")
        print(f"{name:34} {rating_of(base_of[name]):>6.0f} {loss / moves_total:>8.4f} "
              f"{flagged_within(10, DEFAULT_THRESHOLD):>7.1%} "
              f"{flagged_within(args.games, DEFAULT_THRESHOLD):>7.1%} {median:>12}")
    print()
    print("by threshold: the worst honest kind's false flags within 30 games; detection of "
          "full within 10, third within 30, hard within 30")
    for threshold in THRESHOLDS:
        def share(name: str, limit: int, t: float = threshold) -> float:
            accounts = firsts[name]
            return sum(any(s >= t for s in sc[:limit - MIN_GAMES + 1])
                       for sc in accounts) / len(accounts)
        worst = max(share(n, args.games) for n, (c, _) in every.items() if not c)
        full = share("cheater: expert every turn", 10)
        print(f"  {threshold:>5.0f}: honest {worst:6.1%}   full {full:6.1%}"
              f"   third {share('cheater: expert a third of turns', args.games):6.1%}"
              f"   hard {share('cheater: expert in hard positions', args.games):6.1%}")
    print(f"\n{time.process_time() - started:.0f} s cpu in all")


if __name__ == "__main__":
    main()
