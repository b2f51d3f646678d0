"""How well the fair-play score (fairplay/evidence.py) tells assisted play from honest
play, on simulated accounts (docs/fairplay.md, "Measured").

    python -m bench.fairplay                      # Long Nardy, about 80 s of CPU on one core
    python -m bench.fairplay --positions 600 --accounts 100   # a quick look

**The method.** A pool of positions is played once: seeded games between the
``heuristic`` and ``network`` levels (both colours), each non-forced decision kept with
every legal play valued as the site's background review values it (depth 0: the
network's static equity), the ``heuristic`` level's choice and the ``expert``'s (2-ply
reduced, the strongest level). A simulated account's rated game is ``--moves`` decisions
drawn from the pool at random (a game of its own positions would cost the search again
for each account; what the score reads is per move, so the draws stand in for them).
Each kind of player is the chance of each play in each position, and its moves are
drawn from those chances:

- honest: ``random`` (a legal play at random); ``heuristic``; the ``network`` level with
  noise — the play with the best equity plus Gumbel noise of scale τ, that is each play
  with a chance proportional to ``exp(equity / τ)`` (τ = 0.12, 0.06, 0.03 and 0.015:
  four strengths of people, who err more where the plays are close; the last is a
  strong player whose error rate is the expert's own);
- cheaters, over the τ = 0.06 player: the expert's play every turn (``full``), in a
  third of the turns at random (``third``), only in hard positions (``hard``: the best and
  second-best plays at least ``HARD_GAP`` apart, where a cheater would ask).

**Ratings.** An honest kind's rating is where its error rate puts it on the line through
the two anchored levels the review can judge (``random`` 1000 and ``heuristic``, their
published ratings, ratings/anchors.py), at most 2600, plus a normal error of 60 points per
account (a rating is never exact); a cheater keeps its honest base's rating (the games
that would raise it are the ones being judged).

**The fit.** The site fits the expected error rate by rating and the honest relations
of best moves from its own reviews (:func:`fairplay.evidence.fit`); here they are fitted
from a separate set of ``--fit-accounts`` honest accounts of 10 games each (about what
the site's newest 2,000 reviewed matches hold): three quarters the network with noise of
a scale drawn between the strongest and the weakest kind's, an eighth heuristic, an
eighth random. The move times are not simulated (the score does not use them).

**Figures.** Each account plays ``--games`` games; after each game from
``FAIRPLAY_MIN_GAMES`` on its score is computed over all its games so far
(:func:`fairplay.evidence.account_figures`) and it is flagged the first time the score
reaches the threshold. Printed per kind: the share flagged within 10 and within 30 games,
the median games to the flag and which part of the score flagged; then, for thresholds
around the chosen one, the worst honest false-flag rate over 30 games and the detection
rates, to choose from.
"""

from __future__ import annotations

import argparse
import math
import time
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

THRESHOLDS = (50.0, 55.0, 60.0, 65.0, 70.0, 75.0, 80.0)
MIN_GAMES = 5
"""``FAIRPLAY_MIN_GAMES``'s default."""
DEFAULT_THRESHOLD = 60.0
"""``FAIRPLAY_THRESHOLD``'s default."""
RATING_ERROR = 60.0
"""The standard deviation of an account's rating around where its play puts it."""
RATING_CAP = 2600.0
BASE_TAU = 0.06
"""The cheaters' own play: the middle honest strength."""
FIT_GAMES = 10
"""Games of each honest account the fit is made from."""


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


def _flat(pool: Pool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every play of every position in one array: its position, the first play of each
    position, each position's number of plays, each play's loss."""
    sizes = np.array([len(v) for v in pool.equities])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    values = np.concatenate(pool.equities)
    best = np.array([v[b] for v, b in zip(pool.equities, pool.best, strict=True)])
    return np.repeat(np.arange(pool.size), sizes), starts, sizes, np.repeat(best, sizes) - values


class Player:
    """A simulated player: the chance of each play in each pool position."""

    def __init__(self, pool: Pool, chances: np.ndarray) -> None:
        self.pool = pool
        position, self.starts, self.sizes, self.loss = _flat(pool)
        # Each position's cumulative chances, shifted by its index: one sorted array.
        cumulative = np.concatenate([np.cumsum(chances[s:s + n])
                                     for s, n in zip(self.starts, self.sizes, strict=True)])
        self.edges = position + np.minimum(cumulative, 1.0)
        self.rate = float(np.add.reduceat(chances * self.loss, self.starts).mean())

    def moves(self, count: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """``count`` decisions drawn from the pool: the loss of each play made (by the
        depth-0 review) and its position's gap."""
        where = rng.integers(0, self.pool.size, count)
        picked = np.searchsorted(self.edges, where + rng.random(count) * (1 - 1e-9),
                                 side="right")
        picked = np.clip(picked, self.starts[where], self.starts[where] + self.sizes[where] - 1)
        return self.loss[picked], self.pool.gap[where]


def noisy(pool: Pool, tau: float) -> np.ndarray:
    """The chances of the best equity plus Gumbel noise of scale ``tau``: a softmax."""
    out = []
    for values in pool.equities:
        e = np.exp((values - values.max()) / tau)
        out.append(e / e.sum())
    return np.concatenate(out)


def chosen(pool: Pool, choice: np.ndarray) -> np.ndarray:
    """The chances of always playing ``choice`` (one play per position)."""
    _, starts, sizes, _ = _flat(pool)
    out = np.zeros(int(sizes.sum()))
    out[starts + choice] = 1.0
    return out


HONEST_TAUS = (0.12, 0.06, 0.03, 0.015)


def kinds(pool: Pool) -> dict[str, tuple[bool, np.ndarray]]:
    """name → (a cheater?, its chances)."""
    sizes = np.array([len(v) for v in pool.equities])
    base = noisy(pool, BASE_TAU)
    expert = chosen(pool, pool.expert)
    hard = np.repeat(pool.gap >= evidence.HARD_GAP, sizes)
    return {
        "random": (False, np.repeat(1.0 / sizes, sizes)),
        "heuristic": (False, chosen(pool, pool.heuristic)),
        **{f"network, noise τ={tau}": (False, base if tau == BASE_TAU else noisy(pool, tau))
           for tau in HONEST_TAUS},
        "cheater: the expert every turn": (True, expert),
        "cheater: the expert a third of the turns": (True, expert / 3 + base * 2 / 3),
        "cheater: the expert in hard positions": (True, np.where(hard, expert, base)),
    }


def games_of(player: Player, games: int, moves: int, rng: np.random.Generator,
             account: int) -> list[evidence.GameFigures]:
    """``games`` games of ``moves`` decisions each, as the review would count them."""
    losses, gaps = player.moves(games * moves, rng)
    out = []
    for n in range(games):
        g = evidence.GameFigures(match=account * 1000 + n, game=1, side="white",
                                 account=account)
        for loss, gap in zip(losses[n * moves:(n + 1) * moves].tolist(),
                             gaps[n * moves:(n + 1) * moves].tolist(), strict=True):
            evidence.add_move(g, loss, gap)
        out.append(g)
    return out


def first_flags(scores: list[list[float]], threshold: float) -> list[int | None]:
    """Each account's games at its first flag (``None``: never)."""
    return [next((k + MIN_GAMES for k, s in enumerate(sc) if s >= threshold), None)
            for sc in scores]


def within(flags: list[int | None], games: int) -> float:
    return sum(f is not None and f <= games for f in flags) / len(flags)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default=DEFAULT_RULES)
    parser.add_argument("--positions", type=int, default=1500)
    parser.add_argument("--accounts", type=int, default=400,
                        help="simulated accounts per kind")
    parser.add_argument("--fit-accounts", type=int, default=800,
                        help="honest accounts the fit is made from")
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
    rng = np.random.default_rng(args.seed)
    every = {name: (cheat, Player(pool, chances))
             for name, (cheat, chances) in kinds(pool).items()}
    # The honest kinds' error rates place them on the anchors' line.
    low, high = anchor(args.rules, "random") or 1000.0, anchor(args.rules, "heuristic")
    assert high is not None
    r_random, r_heuristic = every["random"][1].rate, every["heuristic"][1].rate
    slope = (math.log(r_heuristic) - math.log(r_random)) / (high - low)

    def rating_at(rate: float) -> float:
        return min(RATING_CAP, low + (math.log(rate) - math.log(r_random)) / slope)

    base_rate = every[f"network, noise τ={BASE_TAU}"][1].rate
    # The fit, from a separate set of honest accounts of every strength: the network with
    # noise of a scale drawn between the strongest and the weakest kind's, the heuristic
    # and random players.
    samples = []
    share = args.fit_accounts // 8
    fit_players = ([Player(pool, noisy(pool, float(np.exp(rng.uniform(
        math.log(min(HONEST_TAUS)), math.log(max(HONEST_TAUS)))))))
        for _ in range(args.fit_accounts - 2 * share)]
        + [every["heuristic"][1]] * share + [every["random"][1]] * share)
    for a, player in enumerate(fit_players):
        r = rating_at(player.rate) + rng.normal(0, RATING_ERROR)
        samples += [(r, g) for g in games_of(player, FIT_GAMES, moves, rng, a)]
    fit = evidence.fit(samples)
    print(f"fit ({fit.accounts} accounts, {fit.games} games): expected error rate "
          f"{fit.expected(1500):.4f} at 1500, halves every {-math.log(2) / fit.b:.0f} points")
    print(f"  shape: {tuple(round(x, 3) for x in fit.shape.xs)},\n"
          f"         {tuple(round(y, 3) for y in fit.shape.ys)}")
    print(f"  hard:  {tuple(round(x, 3) for x in fit.hard.xs)},\n"
          f"         {tuple(round(y, 3) for y in fit.hard.ys)}")
    print()
    print(f"{'kind':42} {'rating':>6} {'err/move':>8} {'best':>5} {'≤10':>6} {'≤30':>6} "
          f"{'median games':>12}  flagged by (rating / best / hard)")
    scores: dict[str, list[list[float]]] = {}
    for name, (cheat, player) in every.items():
        rating = rating_at(base_rate if cheat else player.rate)
        by_account = []
        parts = [0, 0, 0]
        loss = best = total = 0.0
        for a in range(args.accounts):
            r = rating + rng.normal(0, RATING_ERROR)
            games = games_of(player, args.games, moves, rng, a)
            found = []
            flagged = False
            for n in range(MIN_GAMES, args.games + 1):
                figures = evidence.account_figures(games[:n], r, fit)
                found.append(figures["score"])
                if not flagged and figures["score"] >= DEFAULT_THRESHOLD:
                    flagged = True
                    part = max(range(3), key=lambda k: (
                        100 * figures["better_than_expected"],
                        evidence.Z_POINTS * figures["best_excess_z"],
                        evidence.Z_POINTS * figures["hard_excess_z"])[k])
                    parts[part] += 1
            loss += sum(g.loss for g in games)
            best += sum(g.best for g in games)
            total += sum(g.moves for g in games)
            by_account.append(found)
        scores[name] = by_account
        flags = first_flags(by_account, DEFAULT_THRESHOLD)
        found_at = sorted(f for f in flags if f is not None)
        median = (str(found_at[len(found_at) // 2]) if len(found_at) * 2 > len(flags)
                  else "—")
        print(f"{name:42} {rating:>6.0f} {loss / total:>8.4f} {best / total:>5.3f} "
              f"{within(flags, 10):>6.1%} {within(flags, args.games):>6.1%} {median:>12}  "
              f"{parts[0]} / {parts[1]} / {parts[2]}")
    print()
    print("by threshold: the worst honest kind's false flags within 30 games (which); "
          "detection of full within 10, third and hard within 30")
    honest = [n for n, (c, _) in every.items() if not c]
    for threshold in THRESHOLDS:
        worst = max(honest, key=lambda n: within(first_flags(scores[n], threshold),
                                                 args.games))
        print(f"  {threshold:>5.0f}: honest "
              f"{within(first_flags(scores[worst], threshold), args.games):6.1%} ({worst})"
              + "".join(f"   {label} {within(first_flags(scores[n], threshold), limit):6.1%}"
                        for label, n, limit in (
                            ("full", "cheater: the expert every turn", 10),
                            ("third", "cheater: the expert a third of the turns", args.games),
                            ("hard", "cheater: the expert in hard positions", args.games))))
    print(f"\n{time.process_time() - started:.0f} s cpu in all")


if __name__ == "__main__":
    main()
