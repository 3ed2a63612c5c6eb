"""The tournament runner: playing bots against each other on duplicate deals, and the statistics.

A *deal* is one shuffled deck; it is played once per seat rotation, so every
bot sits in every seat on the same cards.  Each game is independent (its own
bots, seeded from the tournament seed, the deal and the rotation), so games can
run in any process in any order with the same results.
"""

from __future__ import annotations

import math
import zlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..core import Rules
from ..play import Clock, Referee, derive_seed, make_bot, play_until


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of one finished game (a row of the results file)."""

    deal: int
    rotation: int
    seat: int
    bot: str
    lost: int
    place: int
    """1 = first out ... players = Mattis."""
    decisions: int
    think_s: float
    end_reason: str
    failed_samples: int = 0
    """Decisions a search bot played without searching, as no full state could be
    sampled from its observation (0 for bots that do not sample)."""


FIELDS = ("deal", "rotation", "seat", "bot", "lost", "place", "decisions", "think_s", "end_reason", "failed_samples")

SEED_SCHEMES = ("derive", "crc32")
"""How a tournament seed becomes the seeds of deals and bots: ``derive`` is the one
seed scheme (:func:`mattis.play.derive_seed`); ``crc32`` (:func:`sub_seed`) is the
scheme of runs started before it, kept so that such runs resume on the same deals."""


def seat_bots(bots: Sequence[str], rotation: int) -> list[str]:
    """The bot in each seat for a rotation: seat ``i`` gets ``bots[(i + rotation) % n]``."""
    n = len(bots)
    return [bots[(i + rotation) % n] for i in range(n)]


def sub_seed(seed: int, *parts: int) -> int:
    """The seed of one deal / rotation / seat in the old ``crc32`` scheme."""
    return zlib.crc32(":".join(str(p) for p in (seed, *parts)).encode())


def game_seeds(seed: int, deal: int, rotation: int, players: int, scheme: str = "derive") -> tuple[int, list[int]]:
    """The deal's seed and each seat's bot seed for one game of a tournament."""
    if scheme == "crc32":
        return sub_seed(seed, deal), [sub_seed(seed, deal, rotation, i) for i in range(players)]
    if scheme != "derive":
        raise ValueError(f"unknown seed scheme {scheme!r}; choose from {', '.join(SEED_SCHEMES)}")
    deal_seed = derive_seed(seed, "deal", deal)
    bot_seeds = [derive_seed(seed, "bot", deal, rotation, i) for i in range(players)]
    assert deal_seed is not None and None not in bot_seeds
    return deal_seed, [s for s in bot_seeds if s is not None]


def play_game(rules: Rules, bots: Sequence[str], deal: int, rotation: int, seed: int,
              scheme: str = "derive") -> list[SeatResult]:
    """Play one game of a duplicate deal through the referee and the one play loop."""
    n = len(bots)
    names = seat_bots(bots, rotation)
    deal_seed, bot_seeds = game_seeds(seed, deal, rotation, n, scheme)
    agents = {i: make_bot(name, bot_seeds[i]) for i, name in enumerate(names)}
    referee = Referee.new(rules, n, seed=deal_seed, dealer=0)
    clock = Clock()
    play_until(referee, agents, clock=clock)
    outcome = referee.outcome
    assert outcome is not None, "bots play every game to its end"
    return [SeatResult(deal, rotation, i, names[i], int(i in outcome.losers), outcome.place(i), clock.decisions[i],
                       clock.think_s[i], outcome.termination.value, failed_samples(agents[i])) for i in range(n)]


def failed_samples(agent: object) -> int:
    """How many decisions ``agent`` played without searching because no full state
    could be sampled (a search bot's ``failed_samples``; 0 for any other agent)."""
    count = getattr(agent, "failed_samples", 0)
    return count if isinstance(count, int) else 0


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for ``k`` successes in ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    # The interval holds p; at k = 0 or k = n the bound that meets p can miss it by a rounding.
    return max(0.0, min(p, mid - half)), min(1.0, max(p, mid + half))


CALIBRATION_BANDS = 5
"""The bands of a chance that :func:`calibration_error` compares: fifths, 0-0.2 to 0.8-1."""


@dataclass(frozen=True, slots=True)
class Band:
    """One band of chances (:func:`reliability`): ``lo <= chance < hi`` (the top band
    holds 1.0 too)."""

    lo: float
    hi: float
    count: int
    mean: float
    """The band's mean chance."""
    hits: int
    """How many of its cases came true (the seat got away)."""

    @property
    def share(self) -> float:
        return self.hits / self.count


def reliability(pairs: Sequence[tuple[float, int]], bands: int = CALIBRATION_BANDS) -> list[Band]:
    """The non-empty bands of equal width over 0-1 of ``pairs`` (a chance and whether
    it came true, 1 or 0), lowest first."""
    out: list[Band] = []
    for b in range(bands):
        lo, hi = b / bands, (b + 1) / bands
        top = b == bands - 1
        inside = [(p, y) for p, y in pairs if lo <= p < hi or (top and p >= hi)]
        if inside:
            out.append(Band(lo, hi, len(inside), sum(p for p, _ in inside) / len(inside),
                            sum(y for _, y in inside)))
    return out


def calibration_error(pairs: Sequence[tuple[float, int]], bands: int = CALIBRATION_BANDS) -> float:
    """The calibration error of chances against what came true: the root mean square,
    over the cases, of the gap between their band's mean chance and the share of the
    band that came true (:func:`reliability`'s bands).  The figure of
    :data:`mattis.bots.evaluate.CALIBRATION` (the playouts) and
    :data:`mattis.bots.value.CALIBRATION` (the value model)."""
    if not pairs:
        raise ValueError("no cases")
    return math.sqrt(sum(b.count * (b.mean - b.share) ** 2 for b in reliability(pairs, bands)) / len(pairs))


@dataclass(frozen=True, slots=True)
class BotSummary:
    bot: str
    games: int
    losses: int
    loss_rate: float
    low: float
    high: float
    mean_place: float
    think_ms: float


def summarize(rows: Iterable[SeatResult]) -> list[BotSummary]:
    """Games, loss rate with its 95% Wilson interval, mean place and think time per bot."""
    games: dict[str, int] = defaultdict(int)
    losses: dict[str, int] = defaultdict(int)
    places: dict[str, int] = defaultdict(int)
    think: dict[str, float] = defaultdict(float)
    dec: dict[str, int] = defaultdict(int)
    order: list[str] = []
    for r in rows:
        if r.bot not in games:
            order.append(r.bot)
        games[r.bot] += 1
        losses[r.bot] += r.lost
        places[r.bot] += r.place
        think[r.bot] += r.think_s
        dec[r.bot] += r.decisions
    out = []
    for b in order:
        lo, hi = wilson(losses[b], games[b])
        out.append(BotSummary(b, games[b], losses[b], losses[b] / games[b], lo, hi, places[b] / games[b],
                              1000 * think[b] / max(1, dec[b])))
    return out


@dataclass(frozen=True, slots=True)
class Paired:
    a: str
    b: str
    deals: int
    diff: float
    """Mean over deals of (loss rate of ``a``) - (loss rate of ``b``)."""
    low: float
    high: float


def paired(rows: Iterable[SeatResult], a: str, b: str, rotations: int) -> Paired:
    """Paired comparison on complete deals: per deal, the loss rate of ``a`` over its
    seats in every rotation minus that of ``b``; mean with a 95% normal interval."""
    per: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    rots: dict[int, set[int]] = defaultdict(set)
    for r in rows:
        cell = per[r.deal][r.bot]
        cell[0] += r.lost
        cell[1] += 1
        rots[r.deal].add(r.rotation)
    diffs = []
    for deal, d in per.items():
        if len(rots[deal]) < rotations or a not in d or b not in d:
            continue
        diffs.append(d[a][0] / d[a][1] - d[b][0] / d[b][1])
    k = len(diffs)
    if k == 0:
        return Paired(a, b, 0, 0.0, -1.0, 1.0)
    mean = sum(diffs) / k
    if k == 1:
        return Paired(a, b, 1, mean, -1.0, 1.0)
    var = sum((x - mean) ** 2 for x in diffs) / (k - 1)
    half = 1.96 * math.sqrt(var / k)
    return Paired(a, b, k, mean, mean - half, mean + half)


def openskill_ratings(rows: Iterable[SeatResult]) -> dict[str, tuple[float, float]]:
    """OpenSkill (Plackett-Luce) ratings per bot from the finishing places of every
    game, in game order; a bot in several seats of one game gets the mean update."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {}
    games: dict[tuple[int, int], list[SeatResult]] = defaultdict(list)
    for r in rows:
        games[(r.deal, r.rotation)].append(r)
    for key in sorted(games):
        seats = sorted(games[key], key=lambda r: r.seat)
        for r in seats:
            if r.bot not in ratings:
                ratings[r.bot] = model.rating(name=r.bot)
        teams = [[model.rating(mu=ratings[r.bot].mu, sigma=ratings[r.bot].sigma)] for r in seats]
        new = model.rate(teams, ranks=[r.place for r in seats])
        upd: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for r, t in zip(seats, new, strict=True):
            upd[r.bot].append((t[0].mu, t[0].sigma))
        for b, vals in upd.items():
            mu = sum(v[0] for v in vals) / len(vals)
            sigma = sum(v[1] for v in vals) / len(vals)
            ratings[b] = model.rating(mu=mu, sigma=sigma, name=b)
    return {b: (r.mu, r.sigma) for b, r in ratings.items()}
