"""The studies of ``mattis lab``: the questions players argue about, answered with data.

A study is a list of *cells* (a rule set, a player count and the bots at the table)
and, per cell, a number of games.  Every game is one independent job that carries its
own seeds (:func:`mattis.play.derive_seed` of the run's seed, the study, the cell and
the game), so the jobs run through the one job pool (:func:`mattis.lab.pool.run_jobs`)
in any order, on any number of processes, and a run can be resumed.

Games are played through the referee and the one play loop (as a tournament plays
them, :func:`mattis.lab.arena.play_game`), and the bots see only their observations.
Where the bots differ, game ``g`` of a cell is deal ``g // players`` in seat rotation
``g % players``: each deal is played once per rotation, so every bot sits in every
seat on the same cards, and studies that compare bots compare them on paired deals.
Where one bot sits in every seat, game ``g`` is deal ``g``.

The five studies:

* ``seats``: the chance of losing (being the Mattis) by seat, counted from the dealer;
* ``skill``: the expert against weaker bots, per preset;
* ``house``: each house rule option against its preset: game length, skill gap and
  seat advantage;
* ``sjanse``: the expert's own decisions whether to take a chance (sjanse: laying the
  top stock card), by stock size, hand and situation, and the game's result;
* ``cycles``: how often phase 2 reaches the same position again, and how often the
  repetition rule (the third time) or the move cap has to end it.

Each figure comes with a 95% interval: Wilson for rates
(:func:`mattis.lab.arena.wilson`), the paired deal comparison of
:func:`mattis.lab.arena.paired` for skill gaps, a normal interval for means.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..bots.value import ValueModel, has_numpy, model_for
from ..core import (
    HOUSE_OPTIONS,
    PHASE2,
    PRESETS,
    RANK,
    Chance,
    Move,
    MoveKind,
    Observation,
    Rules,
    RulesError,
    Termination,
    preset,
    rules_to_json,
)
from ..core.rules import SITTING
from ..play import Agent, Referee, derive_seed, make_bot, play_until
from .arena import Paired, SeatResult, game_seeds, paired, play_game, seat_bots, summarize, wilson

Row = dict[str, Any]
"""One finished job: plain JSON data (a line of ``results.jsonl``)."""

STUDIES: Final[dict[str, str]] = {
    "seats": "the chance of being the Mattis by seat (left of the dealer ... dealer), per preset and player count",
    "skill": "how often the expert ends as Mattis against weaker bots, per preset",
    "house": "what each house rule option does to game length, the skill gap and the seat advantage",
    "sjanse": "when taking a chance (sjanse) pays, from the expert's own decisions",
    "cycles": "how often phase 2 would run forever without the repetition rule, per variant",
}

#: The defaults of each study: presets, player counts, bots (the first is the one studied).
DEFAULTS: Final[dict[str, dict[str, str]]] = {
    "seats": {"rules": "mattis,hund,blodmattis,skitgubbe", "players": "3,4", "bots": "easy"},
    "skill": {"rules": "mattis,hund,blodmattis,skitgubbe", "players": "3", "bots": "expert,easy"},
    "house": {"rules": "mattis", "players": "3", "bots": "medium,easy"},
    "sjanse": {"rules": "mattis,hund,skitgubbe", "players": "3", "bots": "expert"},
    "cycles": {"rules": "mattis,hund,blodmattis,skitgubbe", "players": "3", "bots": "easy"},
}

#: Options that say nothing about a single game (only about a sitting, or the engine's
#: limits), left out of the house rules study.


@dataclass(frozen=True, slots=True)
class Cell:
    """One table of a study: rules, player count and the bot in each seat (rotated)."""

    key: str
    """A stable name, used in the results file and to derive the cell's seed."""
    label: str
    """How the report names it."""
    rules: Rules
    players: int
    bots: tuple[str, ...]
    group: str = ""
    """The preset a house rule cell belongs to (its baseline)."""


@dataclass(frozen=True, slots=True)
class Job:
    """One game of a study: picklable, with everything it needs to be played."""

    study: str
    cell: Cell
    game: int
    seed: int

    @property
    def key(self) -> str:
        return f"{self.cell.key}#{self.game}"


class StudyError(ValueError):
    """A study that cannot be set up as asked (unknown study, rules or bots)."""


# ----------------------------------------------------------------- setting up
def _split(text: str) -> list[str]:
    return [w.strip().lower() for w in text.split(",") if w.strip()]


def table_bots(bots: Sequence[str], players: int) -> tuple[str, ...]:
    """One bot per seat: the first named bot, then the others, the last repeated."""
    if not bots:
        raise StudyError("name at least one bot")
    out = list(bots[:players])
    while len(out) < players:
        out.append(bots[-1])
    return tuple(out)


def _variant_label(option: str, value: object) -> str:
    if isinstance(value, bool):
        return f"{option}={'true' if value else 'false'}"
    return f"{option}={value}"


def house_variants(base: Rules) -> list[tuple[str, Rules]]:
    """Every single-option change of ``base`` that makes a valid rule set: each other
    value the option table offers for each house rule that reaches a single game (not
    ``next_leader``, which only the next game of a sitting sees)."""
    out: list[tuple[str, Rules]] = []
    for spec in HOUSE_OPTIONS:
        if SITTING in spec.reaches:
            continue
        current = getattr(base, spec.name)
        for v in spec.values:
            if v == current:
                continue
            try:
                rules = preset(base.name, **dict(base.overrides(), **{spec.name: _text(v)}))
            except RulesError:
                continue
            out.append((_variant_label(spec.name, getattr(rules, spec.name)), rules))
    return out


def _text(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def make_cells(study: str, rules: str | None = None, players: str | None = None, bots: str | None = None,
               overrides: dict[str, str] | None = None) -> list[Cell]:
    """The cells of a study; ``None`` takes the study's default."""
    if study not in STUDIES:
        raise StudyError(f"unknown study {study!r}; choose from {', '.join(STUDIES)}")
    d = DEFAULTS[study]
    names = _split(rules if rules is not None else d["rules"])
    counts_text = _split(players if players is not None else d["players"])
    bot_names = _split(bots if bots is not None else d["bots"])
    if not names:
        raise StudyError("--rules names no preset")
    for name in names:
        if name not in PRESETS:
            raise StudyError(f"unknown rules {name!r}; presets: {', '.join(PRESETS)}")
    try:
        counts = [int(c) for c in counts_text]
    except ValueError:
        raise StudyError(f"--players must be whole numbers separated by commas; got {players!r}") from None
    if not counts:
        raise StudyError("--players names no player count")
    for b in bot_names:
        try:
            make_bot(b, 0)
        except ValueError as e:
            raise StudyError(str(e)) from None
    if study in ("skill", "house") and len(set(table_bots(bot_names, max(2, min(counts))))) < 2:
        raise StudyError(f"the {study} study compares the first bot with others: name two bots, e.g. expert,easy")
    if study == "house" and len(names) != 1:
        raise StudyError("the house study varies one preset's options: give one preset with --rules")
    cells: list[Cell] = []
    for name in names:
        try:
            base = preset(name, **(overrides or {}))
        except RulesError as e:
            raise StudyError(str(e)) from None
        if study == "sjanse" and base.chance is Chance.OFF:
            raise StudyError(f"{name} has no sjanse (chance=off); leave it out or add --set chance=lead")
        variants = [("preset", base)] + (house_variants(base) if study == "house" else [])
        for n in counts:
            try:
                base.check_players(n)
            except RulesError as e:
                raise StudyError(str(e)) from None
            table = table_bots(bot_names, n)
            for label, r in variants:
                try:
                    r.check_players(n)
                except RulesError:
                    continue
                spec = rules_to_json(r)
                rules_key = spec if isinstance(spec, str) else name + ":" + ",".join(
                    f"{k}={_text(v)}" for k, v in spec.items() if k != "preset")
                key = f"{rules_key}/{n}p/{'+'.join(table)}"
                shown = f"{name}, {n} players" if study != "house" else label
                cells.append(Cell(key, shown, r, n, table, group=name))
    return cells


def make_jobs(study: str, cells: Sequence[Cell], games: int, seed: int) -> list[Job]:
    """Every game of the study, game by game across the cells (so that a run cut short
    has played every cell about as often)."""
    return [Job(study, c, g, seed) for g in range(games) for c in cells]


# ----------------------------------------------------------------- playing
def _cell_seed(job: Job) -> int:
    s = derive_seed(job.seed, job.study, job.cell.key)
    assert s is not None
    return s


def _seat_rows(res: Sequence[SeatResult]) -> list[list[Any]]:
    return [[r.bot, r.lost, r.place] for r in res]


class ChanceRecorder:
    """Wraps a bot and notes, at each decision where sjanse was legal, what the bot's
    observation showed (stock size, hand, whether it was in a krig), what it chose, and
    the value model's chance for the seat to get away from that observation (whole
    percent; -1 without NumPy: :mod:`mattis.bots.value`)."""

    def __init__(self, inner: Agent, rules: Rules | None = None) -> None:
        self.inner = inner
        self.name = inner.name
        self.notes: list[list[int]] = []
        self.model: ValueModel | None = model_for(rules) if rules is not None and has_numpy() else None

    def act(self, obs: Observation) -> Move:
        move = self.inner.act(obs)
        if any(m.kind is MoveKind.CHANCE for m in obs.legal):
            hand = obs.hand
            best = max((RANK[c] for c in hand), default=-1)
            fighting = int(obs.seat in obs.fighters)
            chance = -1 if self.model is None else round(100 * self.model.chance(obs))
            self.notes.append([obs.stock_count, len(hand), best, fighting, int(move.kind is MoveKind.CHANCE),
                               chance])
        return move


def play_job(job: Job) -> Row:
    """Play one game of a study and return its row (top level, so it pickles)."""
    cell = job.cell
    n = cell.players
    # Equal bots at every seat (seats, cycles): a new deal per game, no rotation to pair.
    deal, rotation = (job.game, 0) if len(set(cell.bots)) == 1 else divmod(job.game, n)
    seed = _cell_seed(job)
    row: Row = {"key": job.key, "cell": cell.key, "game": job.game, "deal": deal, "rotation": rotation}
    if job.study in ("seats", "skill", "house"):
        res = play_game(cell.rules, cell.bots, deal, rotation, seed)
        row["seats"] = _seat_rows(res)
        row["moves"] = sum(r.decisions for r in res)
        row["end"] = res[0].end_reason
        return row
    names = seat_bots(cell.bots, rotation)
    deal_seed, bot_seeds = game_seeds(seed, deal, rotation, n)
    agents: dict[int, Agent] = {i: make_bot(b, bot_seeds[i]) for i, b in enumerate(names)}
    referee = Referee.new(cell.rules, n, seed=deal_seed, dealer=0)
    if job.study == "sjanse":
        recorders = {i: ChanceRecorder(a, cell.rules) for i, a in agents.items() if names[i] == cell.bots[0]}
        play_until(referee, {**agents, **recorders})
        row["notes"] = [[s, *note] for s, rec in sorted(recorders.items()) for note in rec.notes]
    elif job.study == "cycles":
        seen: dict[tuple[Any, ...], int] = {}
        state = {"p2": 0, "first": -1}

        def watch(ref: Referee) -> bool:
            if ref.observation(ref.to_act or 0).phase != PHASE2:
                return False
            key = ref.position_key()
            if key in seen and state["first"] < 0:
                state["first"] = state["p2"]
            seen[key] = seen.get(key, 0) + 1
            state["p2"] += 1
            return False

        play_until(referee, agents, stop=watch)
        row["p2_moves"] = state["p2"]
        row["first_repeat"] = state["first"] if state["first"] >= 0 else None
    else:
        raise StudyError(f"unknown study {job.study!r}")
    outcome = referee.outcome
    assert outcome is not None, "bots play every game to its end"
    row["seats"] = [[names[i], int(i in outcome.losers), outcome.place(i)] for i in range(n)]
    row["moves"] = referee.moves_played
    row["end"] = outcome.termination.value
    return row


# ----------------------------------------------------------------- statistics
@dataclass(frozen=True, slots=True)
class Rate:
    k: int
    n: int
    low: float
    high: float

    @property
    def p(self) -> float:
        return self.k / self.n if self.n else 0.0

    def __str__(self) -> str:
        if not self.n:
            return "-"
        return f"{100 * self.p:.1f}% ({100 * self.low:.1f}-{100 * self.high:.1f}) [{self.k}/{self.n}]"


def rate(k: int, n: int) -> Rate:
    """A rate with its 95% Wilson interval."""
    lo, hi = wilson(k, n)
    return Rate(k, n, lo, hi)


@dataclass(frozen=True, slots=True)
class Mean:
    mean: float
    low: float
    high: float
    n: int


def mean_interval(values: Sequence[float]) -> Mean:
    """The mean with a 95% normal interval (the interval is unbounded below two values)."""
    k = len(values)
    if k == 0:
        return Mean(0.0, -math.inf, math.inf, 0)
    m = sum(values) / k
    if k == 1:
        return Mean(m, -math.inf, math.inf, 1)
    sd = math.sqrt(sum((x - m) ** 2 for x in values) / (k - 1))
    half = 1.96 * sd / math.sqrt(k)
    return Mean(m, m - half, m + half, k)


def _seat_results(rows: Iterable[Row]) -> list[SeatResult]:
    return [SeatResult(r["deal"], r["rotation"], s, bot, lost, place, 0, 0.0, r["end"])
            for r in rows for s, (bot, lost, place) in enumerate(r["seats"])]


def seat_name(seat: int, players: int) -> str:
    """A seat counted from the dealer (seat 0 deals, seat 1 sits left of the dealer and leads)."""
    if seat == 0:
        return "dealer"
    if seat == 1:
        return "left of dealer"
    return f"dealer+{seat}"


def seat_rates(rows: Sequence[Row], players: int) -> list[Rate]:
    """The loss rate of each seat (0 = the dealer)."""
    lost = [0] * players
    for r in rows:
        for s, (_, seat_lost, _) in enumerate(r["seats"]):
            lost[s] += seat_lost
    return [rate(lost[s], len(rows)) for s in range(players)]


def lead_advantage(rows: Sequence[Row]) -> Mean:
    """Per deal, the loss rate of the seat left of the dealer (who leads) minus the
    dealer's, over the deal's games; mean with a 95% normal interval (points)."""
    per: dict[int, list[int]] = defaultdict(list)
    for r in rows:
        per[r["deal"]].append(r["seats"][1][1] - r["seats"][0][1])
    return mean_interval([100 * sum(v) / len(v) for _, v in sorted(per.items())])


def skill_gap(rows: Sequence[Row], cell: Cell) -> tuple[Rate, Paired]:
    """The first bot's loss rate and, on complete deals, its loss rate minus the other
    bots' (:func:`mattis.lab.arena.paired`)."""
    seats = _seat_results(rows)
    first = cell.bots[0]
    other = next(b for b in cell.bots if b != first)
    summary = {s.bot: s for s in summarize(seats)}
    s = summary.get(first)
    r = rate(s.losses, s.games) if s else rate(0, 0)
    return r, paired(seats, first, other, cell.players)


def _pts(x: float) -> str:
    return f"{x:+.1f}"


def _mean_text(m: Mean, unit: str = "", digits: int = 1) -> str:
    if m.n < 2:
        return f"{m.mean:.{digits}f}{unit} (n={m.n})"
    return f"{m.mean:.{digits}f}{unit} ({m.low:.{digits}f} to {m.high:.{digits}f})"


# ----------------------------------------------------------------- reports
@dataclass
class Section:
    """A study's findings: Markdown lines and the charts to draw (file name, drawer)."""

    lines: list[str]
    charts: list[tuple[str, Callable[[str], None]]]
    figures: dict[str, Any]
    """The headline figures as data (for tests and for the docs)."""


def _by_cell(cells: Sequence[Cell], rows: Iterable[Row]) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = {c.key: [] for c in cells}
    for r in rows:
        if r["cell"] in out:
            out[r["cell"]].append(r)
    for v in out.values():
        v.sort(key=lambda r: int(r["game"]))
    return out


def analyse(study: str, cells: Sequence[Cell], rows: Iterable[Row]) -> Section:
    """The report section of a study from its rows."""
    by = _by_cell(cells, rows)
    return {"seats": _seats, "skill": _skill, "house": _house, "sjanse": _sjanse, "cycles": _cycles}[study](
        cells, by)


def _seats(cells: Sequence[Cell], by: dict[str, list[Row]]) -> Section:
    lines = ["Loss rate (being the Mattis, or a Blodmattis) by seat, counted clockwise from the dealer; "
             "seat 1, left of the dealer, leads the first trick. 95% Wilson intervals; [lost/games].", ""]
    figures: dict[str, Any] = {}
    for n in sorted({c.players for c in cells}):
        group = [c for c in cells if c.players == n]
        lines += [f"### {n} players", "",
                  "| rules | games | " + " | ".join(seat_name(s, n) for s in range(1, n)) + " | dealer | "
                  "left of dealer - dealer (points) |",
                  "|---|---:|" + "---:|" * n + "---:|"]
        for c in group:
            rs = by[c.key]
            rates = seat_rates(rs, n)
            adv = lead_advantage(rs)
            figures[c.key] = {"games": len(rs), "lost": [r.k for r in rates],
                              "losers": sum(sum(x[1] for x in r["seats"]) for r in rs),
                              "rates": [(r.p, r.low, r.high) for r in rates], "rate_objs": rates,
                              "lead_minus_dealer": adv}
            lines.append(f"| {c.rules.name} | {len(rs)} | " + " | ".join(str(rates[s]) for s in range(1, n))
                         + f" | {rates[0]} | {_mean_text(adv)} |")
        unfair = []
        for c in group:
            f = figures[c.key]
            fair = f["losers"] / max(1, f["games"]) / n
            unfair += [f"{c.rules.name} {seat_name(s, n)} ({100 * r.p:.1f}% against {100 * fair:.1f}%)"
                       for s, r in enumerate(f["rate_objs"]) if not r.low <= fair <= r.high]
        lines += ["", "Seats whose interval leaves out the fair share (the losers per game / players; 1/players "
                  "where each game has one loser): " + (", ".join(unfair) or "none") + ".", ""]
    lines.append("![loss rate by seat](seats.png)")

    def chart(path: str) -> None:
        plt = _pyplot()
        counts = sorted({c.players for c in cells})
        fig, axes = plt.subplots(1, len(counts), figsize=(5.5 * len(counts), 3.8), squeeze=False)
        for ax, n in zip(axes[0], counts, strict=True):
            group = [c for c in cells if c.players == n]
            width = 0.8 / max(1, len(group))
            for i, c in enumerate(group):
                rates = seat_rates(by[c.key], n)
                order = list(range(1, n)) + [0]
                xs = [j + i * width for j in range(n)]
                ps = [100 * rates[s].p for s in order]
                err = [[100 * (rates[s].p - rates[s].low) for s in order],
                       [100 * (rates[s].high - rates[s].p) for s in order]]
                ax.bar(xs, ps, width, label=c.rules.name)
                ax.errorbar(xs, ps, yerr=err, fmt="none", ecolor="black", capsize=2, linewidth=0.8)
            ax.axhline(100 / n, color="gray", linestyle="--", linewidth=1)
            ax.set_xticks([j + 0.4 - width / 2 for j in range(n)],
                          [seat_name(s, n) for s in list(range(1, n)) + [0]], fontsize=7)
            ax.set_ylabel("loss rate (%), 95% interval")
            ax.set_title(f"{n} players")
            ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)

    return Section(lines, [("seats.png", chart)], figures)


def _skill(cells: Sequence[Cell], by: dict[str, list[Row]]) -> Section:
    lines = ["The first bot sits once in every seat of each deal against the others. Its loss rate "
             "(95% Wilson interval) and, on complete deals, its loss rate minus the other bots' "
             "(paired by deal, 95% normal interval): the more negative, the more the variant rewards skill.", "",
             "| rules | players | bots | games | loss rate of the first bot | fair share | skill gap (points) "
             "| deals |",
             "|---|---:|---|---:|---:|---:|---:|---:|"]
    figures: dict[str, Any] = {}
    for c in cells:
        rs = by[c.key]
        r, p = skill_gap(rs, c)
        figures[c.key] = {"games": len(rs), "rate": r, "gap": p}
        lines.append(f"| {c.rules.name} | {c.players} | {','.join(c.bots)} | {len(rs)} | {r} | "
                     f"{100 / c.players:.1f}% | {_pts(100 * p.diff)} ({_pts(100 * p.low)} to {_pts(100 * p.high)}) |"
                     f" {p.deals} |")
    ranked = sorted(cells, key=lambda c: (figures[c.key]["gap"].diff, c.key))
    if len(ranked) >= 2:
        lines += ["", f"Most skill: {ranked[0].label} (gap {_pts(100 * figures[ranked[0].key]['gap'].diff)} points); "
                  f"most luck: {ranked[-1].label} (gap {_pts(100 * figures[ranked[-1].key]['gap'].diff)} points). "
                  "Where the intervals overlap the order is not settled."]
    lines += ["", "![skill gap by preset](skill.png)"]

    def chart(path: str) -> None:
        plt = _pyplot()
        fig, ax = plt.subplots(figsize=(max(4.0, 1.3 * len(cells) + 2), 3.6))
        xs = list(range(len(cells)))
        gaps = [figures[c.key]["gap"] for c in cells]
        ys = [100 * g.diff for g in gaps]
        err = [[100 * (g.diff - g.low) for g in gaps], [100 * (g.high - g.diff) for g in gaps]]
        ax.bar(xs, ys, color="#7a9cc6")
        ax.errorbar(xs, ys, yerr=err, fmt="none", ecolor="black", capsize=4)
        ax.axhline(0, color="gray", linewidth=1)
        ax.set_xticks(xs, [c.label for c in cells], fontsize=8)
        ax.set_ylabel("loss rate: first bot - others (points)")
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)

    return Section(lines, [("skill.png", chart)], figures)


def _house(cells: Sequence[Cell], by: dict[str, list[Row]]) -> Section:
    base = next(c for c in cells if c.label == "preset")
    lines = [f"Each option changed on its own from {base.rules.name} ({base.players} players, bots "
             f"{','.join(base.bots)}, the first bot once in every seat of each deal). Game length: moves "
             "per game (mean, 95% normal interval). Skill gap: the first bot's loss rate minus the others', "
             "paired by deal. Seat advantage: per deal, the loss rate left of the dealer minus the dealer's "
             "(points; negative = leading is an advantage).", "",
             "| rules | games | moves per game | skill gap (points) | left of dealer - dealer (points) |",
             "|---|---:|---:|---:|---:|"]
    figures: dict[str, Any] = {}
    for c in cells:
        rs = by[c.key]
        length = mean_interval([float(r["moves"]) for r in rs])
        _, gap = skill_gap(rs, c)
        adv = lead_advantage(rs)
        figures[c.key] = {"games": len(rs), "length": length, "gap": gap, "seat": adv, "label": c.label}
        name = f"**{c.rules.name}** (preset)" if c is base else c.label
        lines.append(f"| {name} | {len(rs)} | {_mean_text(length)} | {_pts(100 * gap.diff)} "
                     f"({_pts(100 * gap.low)} to {_pts(100 * gap.high)}) | {_mean_text(adv)} |")
    lines += ["", "![house rules](house.png)"]

    def chart(path: str) -> None:
        plt = _pyplot()
        fig, axes = plt.subplots(1, 3, figsize=(13, 0.28 * len(cells) + 1.5), sharey=True)
        ys = list(range(len(cells)))
        means: dict[str, list[Mean]] = {
            "moves per game": [figures[c.key]["length"] for c in cells],
            "skill gap (points)": [_gap_mean(figures[c.key]["gap"]) for c in cells],
            "left of dealer - dealer (points)": [figures[c.key]["seat"] for c in cells]}
        for ax, (title, ms) in zip(axes, means.items(), strict=True):
            xs = [m.mean for m in ms]
            err = [[_finite(m.mean - m.low) for m in ms], [_finite(m.high - m.mean) for m in ms]]
            ax.errorbar(xs, ys, xerr=err, fmt="o", markersize=3, capsize=2, linewidth=0.8)
            ax.axvline(ms[cells.index(base)].mean, color="gray", linestyle="--", linewidth=1)
            ax.set_title(title, fontsize=9)
        axes[0].set_yticks(ys, [c.label if c is not base else f"{c.rules.name} (preset)" for c in cells], fontsize=7)
        axes[0].invert_yaxis()
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)

    return Section(lines, [("house.png", chart)], figures)


def _gap_mean(p: Paired) -> Mean:
    return Mean(100 * p.diff, 100 * p.low, 100 * p.high, p.deals)


def _finite(x: float) -> float:
    return x if math.isfinite(x) else 0.0


STOCK_BUCKETS: Final = ((1, 5), (6, 15), (16, 30), (31, 52))
BEST_CARD: Final = (("best card 9 or lower", -1, 7), ("best card 10 to queen", 8, 10),
                    ("best card king or ace", 11, 12))


MODEL_CHANCE: Final = (("model: below 60% to get away", 0, 59), ("model: 60-69% to get away", 60, 69),
                       ("model: 70% or more to get away", 70, 100))
"""The value model's chance for the seat to get away at the decision (before it), in
three bands (:class:`ChanceRecorder`): how the position stood as the model saw it.  The
bands lie around the base rate (2/3 at three players), where the model's phase 1
chances fall: in a first run nearly all sjanse decisions had a chance from 50% to 79%."""


def _bucket(stock: int) -> str:
    for lo, hi in STOCK_BUCKETS:
        if lo <= stock <= hi:
            return f"{lo}-{hi}"
    return f"{stock}"


def _sjanse_split(notes: Sequence[tuple[int, int]], title: str) -> tuple[str, Any]:
    """A row: decisions, take rate, loss rate after taking / not taking, and the difference."""
    took = [lost for t, lost in notes if t]
    kept = [lost for t, lost in notes if not t]
    take = rate(len(took), len(notes))
    lt = rate(sum(took), len(took))
    lk = rate(sum(kept), len(kept))
    if took and kept:
        d = lt.p - lk.p
        se = math.sqrt(lt.p * (1 - lt.p) / len(took) + lk.p * (1 - lk.p) / len(kept))
        diff = f"{_pts(100 * d)} ({_pts(100 * (d - 1.96 * se))} to {_pts(100 * (d + 1.96 * se))})"
    else:
        d, se, diff = 0.0, math.inf, "-"
    return f"| {title} | {len(notes)} | {take} | {lt} | {lk} | {diff} |", {
        "decisions": len(notes), "take": take, "lost_took": lt, "lost_kept": lk, "diff": d,
        "low": d - 1.96 * se, "high": d + 1.96 * se, "title": title}


def _sjanse(cells: Sequence[Cell], by: dict[str, list[Row]]) -> Section:
    lines = ["Every decision of the first bot where sjanse (laying the top stock card instead of a hand card) "
             "was legal, described by what its observation showed: the cards left in the stock, its best card "
             "in hand, and whether it was laying a krig (fight) card. Take rate and the bot's loss rate in the "
             "games where it took / did not take, with 95% Wilson intervals; the difference (points, normal "
             "interval; decisions of one game are not independent, so read it as indicative). Negative = "
             "taking went with losing less. This is what the bot chose, not an experiment: it takes when its "
             "search says so, so the figures say when its sjanser paid, not what a random sjanse does. The last rows "
             "split the decisions by the value model's chance for the bot to get away at that moment "
             "(mattis.bots.value; absent without NumPy), i.e. by how the position stood.", ""]
    head = ["| situation | decisions | took sjanse | lost after taking | lost after keeping | difference |",
            "|---|---:|---:|---:|---:|---:|"]
    figures: dict[str, Any] = {}
    for c in cells:
        rs = by[c.key]
        notes: list[tuple[int, int, int, int, int]] = []  # stock, best, fighting, took, lost
        sizes: list[tuple[int, int, int]] = []  # hand size, took, lost
        chances: list[tuple[int, int, int]] = []  # the model's chance (percent), took, lost
        for r in rs:
            for seat, stock, size, best, fighting, took, *model in r["notes"]:
                notes.append((stock, best, fighting, took, r["seats"][seat][1]))
                sizes.append((size, took, r["seats"][seat][1]))
                if model and model[0] >= 0:
                    chances.append((model[0], took, r["seats"][seat][1]))
        games = len(rs)
        lines += [f"### {c.label} ({','.join(c.bots)}, {games} games)", ""] + head
        row, f = _sjanse_split([(t, lost) for _, _, _, t, lost in notes], "all")
        lines.append(row)
        fig: dict[str, Any] = {"all": f, "games": games, "stock": {}}
        for lo, hi in STOCK_BUCKETS:
            row, f = _sjanse_split([(t, lost) for s, _, _, t, lost in notes if lo <= s <= hi],
                                   f"stock {lo}-{hi} cards")
            fig["stock"][f"{lo}-{hi}"] = f
            lines.append(row)
        for title, lo, hi in BEST_CARD:
            row, f = _sjanse_split([(t, lost) for _, b, _, t, lost in notes if lo <= b <= hi], title)
            fig[title] = f
            lines.append(row)
        for size in sorted({z for z, _, _ in sizes}):
            title = f"{size} card{'s' if size != 1 else ''} in hand"
            row, f = _sjanse_split([(t, lost) for z, t, lost in sizes if z == size], title)
            fig.setdefault("hand", {})[size] = f
            lines.append(row)
        for title, flag in (("not in a krig", 0), ("in a krig", 1)):
            row, f = _sjanse_split([(t, lost) for _, _, fi, t, lost in notes if fi == flag], title)
            fig[title] = f
            lines.append(row)
        for title, lo, hi in MODEL_CHANCE:
            if chances:
                row, f = _sjanse_split([(t, lost) for p, t, lost in chances if lo <= p <= hi], title)
                fig.setdefault("model", {})[title] = f
                lines.append(row)
        figures[c.key] = fig
        splits = [fig["all"], *fig["stock"].values(), *(fig[t] for t, _, _ in BEST_CARD),
                  *fig.get("hand", {}).values(), fig["not in a krig"], fig["in a krig"],
                  *fig.get("model", {}).values()]
        paid = [f["title"] for f in splits if f["high"] < 0]
        cost = [f["title"] for f in splits if f["low"] > 0]
        lines += ["", "Taking went with losing less (interval below zero): " + (", ".join(paid) or "nowhere")
                  + "; with losing more (interval above zero): " + (", ".join(cost) or "nowhere") + ".", ""]
    lines.append("![sjanse by stock size](sjanse.png)")

    def chart(path: str) -> None:
        plt = _pyplot()
        fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
        labels = [f"{lo}-{hi}" for lo, hi in STOCK_BUCKETS]
        width = 0.8 / max(1, len(cells))
        for i, c in enumerate(cells):
            st = figures[c.key]["stock"]
            xs = [j + i * width for j in range(len(labels))]
            rs = [st[b]["take"] for b in labels]
            axes[0].bar(xs, [100 * r.p for r in rs], width, label=c.label)
            axes[0].errorbar(xs, [100 * r.p for r in rs], yerr=[[100 * (r.p - r.low) for r in rs],
                                                                [100 * (r.high - r.p) for r in rs]],
                             fmt="none", ecolor="black", capsize=2, linewidth=0.8)
            ys = [100 * st[b]["diff"] for b in labels]
            axes[1].bar(xs, ys, width, label=c.label)
        axes[0].set_title("how often the bot took sjanse", fontsize=9)
        axes[0].set_ylabel("%")
        axes[1].set_title("loss rate after taking - after keeping (points)", fontsize=9)
        axes[1].axhline(0, color="gray", linewidth=1)
        for ax in axes:
            ax.set_xticks([j + 0.4 - width / 2 for j in range(len(labels))], [f"stock {b}" for b in labels],
                          fontsize=8)
            ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)

    return Section(lines, [("sjanse.png", chart)], figures)


def _cycles(cells: Sequence[Cell], by: dict[str, list[Row]]) -> Section:
    lines = ["Phase 2 positions are compared as the repetition rule compares them (the player to act, the "
             "trick's size, who is in, every hand, the cards on the table), put together from the seats' "
             "observations. *Repeated*: a phase 2 position came back at least once. *Ended by repetition*: it "
             "came back a third time and the engine's repetition rule stopped the game (the players still in "
             "ranked by cards held); without that rule these games would go on, and while the bots keep "
             "choosing as they did, for ever. *Cap*: stopped by the phase 2 move cap. 95% Wilson intervals.", "",
             "| rules | players | bots | games | repeated | ended by repetition | ended by the cap |"
             " phase 2 moves (mean) | first repeat at phase 2 move (median) |",
             "|---|---:|---|---:|---:|---:|---:|---:|---:|"]
    figures: dict[str, Any] = {}
    for c in cells:
        rs = by[c.key]
        rep = rate(sum(1 for r in rs if r["first_repeat"] is not None), len(rs))
        ended = rate(sum(1 for r in rs if r["end"] == Termination.REPETITION.value), len(rs))
        cap = rate(sum(1 for r in rs if r["end"] == Termination.CAP.value), len(rs))
        p2 = mean_interval([float(r["p2_moves"]) for r in rs])
        firsts = sorted(int(r["first_repeat"]) for r in rs if r["first_repeat"] is not None)
        median = f"{firsts[len(firsts) // 2]}" if firsts else "-"
        figures[c.key] = {"games": len(rs), "repeated": rep, "repetition": ended, "cap": cap, "p2": p2}
        lines.append(f"| {c.rules.name} | {c.players} | {','.join(c.bots)} | {len(rs)} | {rep} | {ended} | {cap} | "
                     f"{_mean_text(p2)} | {median} |")
    lines += ["", "![cycles by variant](cycles.png)"]

    def chart(path: str) -> None:
        plt = _pyplot()
        fig, ax = plt.subplots(figsize=(max(4.0, 1.6 * len(cells) + 2), 3.6))
        width = 0.38
        for i, (title, name) in enumerate((("repeated", "repeated"), ("ended by repetition", "repetition"))):
            xs = [j + i * width for j in range(len(cells))]
            rs = [figures[c.key][name] for c in cells]
            ax.bar(xs, [100 * r.p for r in rs], width, label=title)
            ax.errorbar(xs, [100 * r.p for r in rs], yerr=[[100 * (r.p - r.low) for r in rs],
                                                           [100 * (r.high - r.p) for r in rs]],
                        fmt="none", ecolor="black", capsize=3, linewidth=0.8)
        ax.set_xticks([j + width / 2 for j in range(len(cells))], [c.label for c in cells], fontsize=8)
        ax.set_ylabel("% of games, 95% interval")
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)

    return Section(lines, [("cycles.png", chart)], figures)


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt
