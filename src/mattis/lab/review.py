"""A game reviewed move by move for one seat (``mattis analyze``).

:func:`review` walks a game record through the referee and, at each decision of
the chosen seat (a position where it had two or more legal moves), asks
:func:`mattis.bots.evaluate.evaluate` for every legal move's chance to avoid being
Mattis, **from that seat's observation only** (the hidden cards are determinized).
Forced moves (one legal choice) are counted, not judged.

For each phase 2 decision it keeps (:func:`_judge`):

* the first look: every legal move on :data:`SCREEN` paired playouts (common random
  numbers); the preferred move is the one it rates highest (the move made where it is
  rated as high);
* the second look, where the preferred move is not the move made: those two played out
  again on fresh playouts with the whole budget (chosen on one sample, scored on
  another, so the cost is not biased up by the choice): ``before`` (the preferred
  move's chance) and ``after`` (the move made's), so ``cost = before - after``
  (never below 0; 0 where the move made is preferred);
* the solver's verdict where it decides the position (phase 2, every hand known, few
  cards left: see :mod:`mattis.bots.evaluate`);
* the cost's paired standard error (:attr:`mattis.bots.evaluate.MoveValue.gap_se`; 0
  when the solver decided both moves);
* the check (:attr:`Decision.check`), where the second look's cost is above 0 and, less
  :data:`CANDIDATE_Z` standard errors, reaches :data:`DUBIOUS`: the two moves played out
  on :data:`CONFIRM` times the budget of fresh paired playouts, in stages
  (:data:`CHECK_STAGES`: a quarter, a quarter, a half; pooled): a cost short of
  :data:`DUBIOUS` after a stage is not played out further, so a mark always rests on the
  whole;
* what one review may spend: its second looks share :data:`SECOND_SHARE` times the
  budget, its checks :data:`CHECK_SHARE` times it (each playout weighted by the cards
  still in play, :func:`in_play`), the most promising candidates checked first
  (:func:`_judge`); counts from the record alone, never seconds, so a long game's review
  stays short and no seed changes a mark;
* a mark: ``??`` (blunder) where the solver proves that the preferred move wins with
  best play and the move made does not; else ``??``, ``?`` or ``?!`` where the check's
  cost less :data:`CHECK_Z` standard errors reaches :data:`BLUNDER`, :data:`MISTAKE` or
  :data:`DUBIOUS`.  Its false-mark rate (an independent re-evaluation with more
  playouts and another seed finds the cost below the mark's threshold) is measured on
  held-out games in docs/analyze.md (``benchmarks/review_marks.py``);
* the move named: the best where the solver proves it (it wins with best play and no
  other legal move does), with the solver's line after it; else the better move of a
  mark from the check (other moves may be as good), with the line the playouts' policy
  plays after it.

Every random number of a phase 2 decision comes from the position
(:func:`mattis.play.seeds.position_seed` of the seat's observation), none from the
review's ``--seed``: the same position is judged the same in any review, so no seed
changes a phase 2 figure, a mark or a named move.  The seed reaches phase 1's figures
(and the deal's luck without NumPy).

Phase 1 decisions are evaluated (with :data:`PHASE1_SAMPLES` playouts per move) but
never marked, and no best move is named for them: the project's calibration
(docs/analyze.md) shows the phase 1 estimate does not predict the outcome better than
the base rate.  Their figures are shown only where informative
(:attr:`Decision.informative`: the best and worst moves differ by more than
:data:`INFORMATIVE_Z` standard errors).  The summary gives the number of judged (phase
2) decisions, the marks, an accuracy per game (lichess's formula on the estimated cost
in points, averaged over the judged decisions, with its standard error) and the luck:
the seat's chance at phase 2's start (its phase 2 hand and position, where the model
predicts better than the base rate; right after the deal it does not, docs/analyze.md,
so the deal itself is not rated), from the learned value model
(:mod:`mattis.bots.value`: one figure, the same under any seed, shown only at a table
where the model tells hands apart, :data:`mattis.bots.value.LUCK_SKILL`, ± two times its
measured calibration error there, :meth:`Review.luck_margin`; without NumPy
from playouts, :func:`mattis.bots.evaluate.chance`, with its standard error), against
the base rate of a table of that size (:func:`phase2_luck`, :meth:`Review.luck_margin`).

Looking deeper at one decision (:func:`deeper`'s budget, ``review(..., decision=N)``)
gives that decision alone, to put in place with :meth:`Review.with_decision`; the
terminal's review window (``d``) and the web review page ("Look deeper") do so.

A phase 1 decision draws its randomness from ``derive_seed(seed, "review", seat, n)``
(``n`` the move's number in the record), a phase 2 one from its position (above), so a
seeded review is reproducible and the review of one decision does not depend on the
others.

Outputs: :func:`review_text` (both languages, through the catalogue; cards as on the
cards), :meth:`Review.to_json` (the schema is in docs/analyze.md), :func:`review_chart`
(a matplotlib PNG; matplotlib comes with the ``bots`` extra).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from ..bots.evaluate import (
    Budget,
    Evaluation,
    MoveValue,
    Verdict,
    Z,
    chance,
    evaluate,
    shown_margin,
    state_from_view,
)
from ..bots.policy import state_choice
from ..bots.solver import principal_line
from ..bots.value import CALIBRATION as MODEL_CALIBRATION
from ..bots.value import has_numpy, luck_calibration, luck_informative, model_for
from ..core import GameRecord, Move, MoveKind, RecordError, Rules, parse_move, parse_record_move, say, seat_names
from ..core.cards import Lang, card_symbol
from ..core.determinize import DeterminizeError
from ..core.observation import PHASE1, Observation
from ..core.rules import rules_from_json, rules_to_json
from ..core.text import as_object, in_sentence, loser_sentence, loser_word
from ..play import Referee
from ..play.seeds import Seed, derive_seed, position_seed

__all__ = ["BLUNDER", "CHECK_SHARE", "DEEPER", "DUBIOUS", "INFORMATIVE_Z", "MISTAKE", "SECOND_SHARE", "Cancelled",
           "Decision", "Review",
           "ReviewError", "decision_lines", "decision_numbers", "deeper", "deeper_words", "line_words", "move_words",
           "in_play", "luck_by_default", "phase2_luck", "review", "review_chart", "review_text", "seats_text",
           "second_samples"]

DUBIOUS: Final = 0.05
"""A decision that costs this much chance or more is marked ``?!``: lichess's thresholds,
5, 10 and 15 points of the chance (its ``winningChanceJudgements``, 0.1, 0.2 and 0.3 on
a scale from -1 to 1), as the accuracy is lichess's formula (:func:`move_accuracy`)."""
MISTAKE: Final = 0.10
"""... ``?``."""
BLUNDER: Final = 0.15
"""... ``??`` (as is giving away a position the solver says is won)."""

DEEPER: Final = 16
"""Looking deeper at one decision (:func:`deeper`) plays this many times the playouts."""
PHASE1_SAMPLES: Final = 16
"""Playouts per legal move at a phase 1 decision (never judged: its figures are shown,
not trusted; see docs/analyze.md)."""

SCREEN: Final = 8
"""Playouts per legal move of a phase 2 decision's first look (the preferred move is the
one it rates highest; the move made where it is rated as high), at most
:data:`SCREEN_TOTAL` in all where the legal moves are many (down to half as many per
move).  Where the preferred move is not the move made, the two are played out again on
fresh playouts with the whole budget (the second look: the figures shown for them and
the cost, not biased up by the choice)."""
SCREEN_TOTAL: Final = 64
CONFIRM: Final = 8
"""A phase 2 decision whose cost could reach :data:`DUBIOUS` is played out again, the
preferred move and the move made only, on fresh paired deals and random numbers with
this many times the budget: the mark is given on this second look alone."""
CHECK_STAGES: Final = (CONFIRM // 4, CONFIRM // 4, CONFIRM // 2)
"""The check's stages, as multiples of the budget (pooled; :data:`CONFIRM` in all)."""
SECOND_SHARE: Final = 12
"""The second looks of one review play at most this many times the budget per move in
all (:func:`second_samples`): a long game's many decisions share it."""
CHECK_SHARE: Final = 20
"""The checks of one review play at most this many times the budget per move in all,
each playout weighted by the cards still in play (:func:`in_play`: a whole deck's
playout counts 1; so two and a half whole checks from a full deck, many more late in
phase 2), the candidates most likely to be marked first: a long game's many candidates
share it."""
CANDIDATE_Z: Final = -0.5
"""... where the first look's cost less this many standard errors reaches :data:`DUBIOUS`."""
CHECK_Z: Final = 1.25
"""A mark from the second look: its cost less this many of its standard errors reaches
the mark's threshold (chosen on games not used to measure the false-mark rate,
docs/analyze.md)."""

LINE_MOVES: Final = 4
"""The playouts' line after a marked better move runs to the seat's fourth move (the
better move the first)."""

INFORMATIVE_Z: Final = 2.0
"""A phase 1 decision's figures are shown only where the spread between its best and
its worst move exceeds this many standard errors of that spread (:attr:`Decision.informative`)."""

FORMAT: Final = "mattis-review"
VERSION: Final = 4


def move_accuracy(cost: float) -> float:
    """Lichess's accuracy of one move (0-100) from the chance it cost (0-1)."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * 100.0 * cost) - 3.1669))


class ReviewError(ValueError):
    """A record that cannot be reviewed (unreadable, illegal, or no such seat)."""


class Cancelled(Exception):
    """The review was cancelled (its ``cancelled`` callback said so)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One judged decision of the seat."""

    number: int
    """The move's number in the record (1 = the first move)."""
    phase: int
    """1 or 2."""
    played: Move
    best: Move
    before: float
    """The chance to avoid being Mattis with the preferred move."""
    after: float
    """The chance with the move made."""
    verdict_best: Verdict | None
    verdict_played: Verdict | None
    samples: int
    """Playouts per legal move (0: the solver decided every move)."""
    moves: tuple[MoveValue, ...]
    """Every legal move's estimate, in the engine's order."""
    line: tuple[tuple[int, Move], ...] = ()
    """Where the best move is proven (:attr:`resolved`): the solver's line of best play
    after it, ``(seat, move)`` pairs (:func:`mattis.bots.solver.principal_line`); where a
    mark names the better move from the second look (:attr:`check`): how the playouts'
    policy plays on after it (no random moves) until the seat is out or the loser."""
    check: tuple[float, float, int] | None = None
    """The second look (phase 2, where the first look's cost could reach :data:`DUBIOUS`):
    the preferred move's chance less the move made's on :data:`CONFIRM` times the budget
    of fresh paired playouts (fewer where a stage puts the cost short of :data:`DUBIOUS`,
    :data:`CHECK_STAGES`), its paired standard error and the playouts per move.  The estimated marks are
    given on it alone (:attr:`mark`)."""

    @property
    def cost(self) -> float:
        return max(0.0, self.before - self.after)

    @property
    def judged(self) -> bool:
        """Whether the decision is judged (phase 2: marks and best move shown)."""
        return self.phase != 1

    @property
    def informative(self) -> bool:
        """Whether the decision's figures are shown: always in phase 2; in phase 1 (never
        judged) only where the spread between the best and the worst move's chance
        exceeds :data:`INFORMATIVE_Z` standard errors of that spread (paired where the
        moves were played out together), i.e. where the estimate tells the moves apart at
        all.  Elsewhere the figures are noise around one chance and are not shown."""
        if self.judged:
            return True
        if len(self.moves) < 2:
            return False
        worst = min(self.moves, key=lambda v: v.chance)
        spread = self.before - worst.chance
        return spread > INFORMATIVE_Z * self._gap_se(worst.move)

    def _value(self, move: Move) -> MoveValue | None:
        for v in self.moves:
            if v.move == move:
                return v
        return None

    @property
    def cost_se(self) -> float:
        """The cost's standard error (0 when the solver decided both moves): paired where
        the two moves were played out together (:attr:`MoveValue.gap_se`)."""
        return self._gap_se(self.played)

    def _gap_se(self, move: Move) -> float:
        """The standard error of the preferred move's chance less ``move``'s."""
        a, b = self._value(self.best), self._value(move)
        if a is None or b is None or a is b:
            return 0.0
        if a.exact and b.exact:
            return 0.0
        if b.gap_se is not None:
            return b.gap_se
        return math.hypot(a.se, b.se)

    @property
    def resolved(self) -> bool:
        """Whether the best move is named: only where the solver proves it (it wins with
        best play and no other legal move does), never from the playouts."""
        best = self._value(self.best)
        return (self.judged and best is not None and best.verdict is Verdict.WINS
                and all(v.verdict is not Verdict.WINS for v in self.moves if v.move != self.best))

    @property
    def proven(self) -> bool:
        """Whether the solver proves the cost: the preferred move wins with best play and
        the move made loses (two players left) or lets the others force the loss."""
        return self.verdict_best is Verdict.WINS and self.verdict_played in (Verdict.LOSES, Verdict.CAN_BE_FORCED)

    @property
    def mark(self) -> str:
        """``"??"`` where the solver proves the choice lost what was won (the preferred move
        wins with best play and the move made does not); else from the second look
        (:attr:`check`): ``"??"``, ``"?"`` or ``"?!"`` where its cost less
        :data:`CHECK_Z` standard errors reaches :data:`BLUNDER`,
        :data:`MISTAKE` or :data:`DUBIOUS`; else ``""`` (phase 1 is never marked).  Its
        random numbers come from the position, not the review's seed (module docstring)."""
        if not self.judged:
            return ""
        if self.verdict_best is Verdict.WINS and self.verdict_played is not Verdict.WINS:
            return "??"
        if self.check is None:
            return ""
        return _level(self.check[0] - CHECK_Z * self.check[1])

    @property
    def named(self) -> bool:
        """Whether the decision names a better move: the best where the solver proves it
        (:attr:`resolved`), or the preferred move of a mark (better than the move made by
        the mark's margin; other moves may be as good)."""
        return self.resolved or (self.check is not None and self.mark != "" and self.best != self.played)

    def estimated_mark(self, z: float = Z) -> str:
        """What the playouts alone would mark (``"??"``, ``"?"``, ``"?!"`` or ``""`` on the
        cost less ``z`` standard errors): kept for the measurements, never shown, since
        another sampling seed can change it (docs/analyze.md)."""
        if not self.judged:
            return ""
        return _level(self.cost - z * self.cost_se)

    def to_json(self) -> dict[str, Any]:
        return {
            "move": self.number, "phase": self.phase, "played": str(self.played), "best": str(self.best),
            "before": self.before, "after": self.after, "cost": round(self.cost, 4),
            "cost_se": round(self.cost_se, 4), "judged": self.judged, "resolved": self.resolved,
            "informative": self.informative,
            "mark": self.mark, "verdict_best": _v(self.verdict_best), "verdict_played": _v(self.verdict_played),
            "samples": self.samples, "estimated_mark": self.estimated_mark(),
            "line": [f"{q} {m}" for q, m in self.line], "named": self.named,
            "check": None if self.check is None else {"cost": self.check[0], "se": self.check[1],
                                                      "samples": self.check[2]},
            "moves": [{"move": str(v.move), "chance": v.chance, "se": v.se, "gap_se": v.gap_se,
                       "verdict": _v(v.verdict)} for v in self.moves],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Decision:
        moves = tuple(MoveValue(parse_move(m["move"]), float(m["chance"]),
                                Verdict(m["verdict"]) if m["verdict"] else None, float(m["se"]),
                                None if m["gap_se"] is None else float(m["gap_se"]))
                      for m in d["moves"])
        return cls(int(d["move"]), int(d["phase"]), parse_move(d["played"]), parse_move(d["best"]),
                   float(d["before"]), float(d["after"]),
                   Verdict(d["verdict_best"]) if d["verdict_best"] else None,
                   Verdict(d["verdict_played"]) if d["verdict_played"] else None, int(d["samples"]), moves,
                   tuple(parse_record_move(x) for x in d.get("line", [])),
                   None if d.get("check") is None else (float(d["check"]["cost"]), float(d["check"]["se"]),
                                                             int(d["check"]["samples"])))


def _level(c: float) -> str:
    """The mark of a cost (its lower bound): ``"??"``, ``"?"``, ``"?!"`` or ``""``."""
    if c >= BLUNDER - 1e-9:
        return "??"
    if c >= MISTAKE - 1e-9:
        return "?"
    if c >= DUBIOUS - 1e-9:
        return "?!"
    return ""


def _v(v: Verdict | None) -> str | None:
    return v.value if v is not None else None


@dataclass(frozen=True, slots=True)
class Review:
    """A whole game reviewed for one seat."""

    rules: Rules
    players: int
    seat: int
    name: str
    budget: Budget
    seed: int | str | None
    moves: int
    """Moves in the record."""
    forced: int
    """The seat's forced moves (one legal choice), counted but not judged."""
    outcome: str
    """``"lost"`` (the seat was Mattis), ``"safe"``, or ``"unfinished"``."""
    decisions: tuple[Decision, ...] = field(default=())
    luck: float | None = None
    """The seat's chance at phase 2's start, with its phase 2 hand and position (None for
    a game that began from a position in phase 2 or ended before phase 2)."""
    luck_se: float = 0.0
    luck_by: str = "playouts"
    """Who worked :attr:`luck` out: ``"model"`` (the learned value model,
    :mod:`mattis.bots.value`: one figure, the same under any seed, ``luck_se`` 0; its
    error is its calibration, :data:`mattis.bots.value.CALIBRATION`) or ``"playouts"``
    (without NumPy: determinized playouts, with their standard error)."""

    def luck_margin(self) -> float:
        """The ± of :attr:`luck` as shown (0 without a luck): :data:`~mattis.bots.evaluate.Z`
        times its sampling error and its estimator's calibration error together
        (:func:`mattis.bots.evaluate.shown_margin`; the model's at this table,
        :func:`mattis.bots.value.luck_calibration`, where its luck is shown, else its
        pooled :data:`mattis.bots.value.CALIBRATION`; the playouts'
        :data:`mattis.bots.evaluate.CALIBRATION`)."""
        if self.luck is None:
            return 0.0
        if self.luck_by != "model":
            return shown_margin(self.luck_se)
        return shown_margin(self.luck_se, luck_calibration(self.rules, self.players) or MODEL_CALIBRATION)

    @property
    def luck_shown(self) -> bool:
        """Whether the luck is shown to a player: the playouts' always (their ± and the
        verdict's three standard errors say what they know); the model's only where it
        tells seats apart at phase 2's start (:func:`mattis.bots.value.luck_informative`:
        a preset at a player count where its measured skill lay above zero), never
        elsewhere, where its figure is about the average whatever the hand."""
        if self.luck is None:
            return False
        return self.luck_by != "model" or luck_informative(self.rules, self.players)

    def with_decision(self, d: Decision) -> Review:
        """This review with decision ``d`` (looked at again, e.g. deeper) in place of the
        one of the same move number."""
        if all(x.number != d.number for x in self.decisions):
            raise ReviewError(f"move {d.number} is not one of the review's decisions")
        return replace(self, decisions=tuple(d if x.number == d.number else x for x in self.decisions))

    @property
    def base_rate(self) -> float:
        """The chance to avoid being Mattis at a table of equals: 1 - 1/players."""
        return 1.0 - 1.0 / self.players

    def accuracy(self) -> tuple[float, float] | None:
        """The per-game accuracy (0-100) over the judged decisions and its standard
        error, or None if none was judged."""
        judged = [d for d in self.decisions if d.judged]
        if not judged:
            return None
        acc = sum(move_accuracy(d.cost) for d in judged) / len(judged)
        # The delta method: d accuracy / d cost times the cost's standard error.
        var = sum((4.354 * (move_accuracy(d.cost) + 3.1669) * d.cost_se) ** 2 for d in judged)
        return acc, math.sqrt(var) / len(judged)

    def within_noise(self) -> tuple[int, int]:
        """How many judged decisions were within the noise of the best move (their cost
        less :data:`~mattis.bots.evaluate.Z` standard errors is not above 0; an exact
        cost of 0 counts), of how many judged."""
        judged = [d for d in self.decisions if d.judged]
        return sum(d.cost - Z * d.cost_se <= 1e-9 for d in judged), len(judged)

    def mean_cost(self) -> tuple[float, float] | None:
        """The average cost of a judged decision (0-1) and its standard error (the costs'
        own, independent between decisions), or None if none was judged."""
        judged = [d for d in self.decisions if d.judged]
        if not judged:
            return None
        return (sum(d.cost for d in judged) / len(judged),
                math.sqrt(sum(d.cost_se ** 2 for d in judged)) / len(judged))

    def summary(self) -> dict[str, Any]:
        """Judged decisions, marks, accuracy, the decisions within the noise of the best
        and the average cost, and luck (the JSON's ``summary``)."""
        acc = self.accuracy()
        cost = self.mean_cost()
        return {
            "judged": sum(d.judged for d in self.decisions),
            "phase1": sum(not d.judged for d in self.decisions),
            "marks": {m: sum(d.mark == m for d in self.decisions) for m in ("??", "?", "?!")},
            "accuracy": None if acc is None else round(acc[0], 1),
            "accuracy_se": None if acc is None else round(acc[1], 1),
            "within_noise": self.within_noise()[0],
            "mean_cost": None if cost is None else round(cost[0], 4),
            "mean_cost_se": None if cost is None else round(cost[1], 4),
            "luck": self.luck, "luck_se": self.luck_se, "luck_by": self.luck_by,
            "luck_margin": round(self.luck_margin(), 4), "luck_shown": self.luck_shown,
            "base_rate": round(self.base_rate, 4),
        }

    def costliest(self, k: int = 3) -> list[Decision]:
        """The ``k`` marked decisions that cost the most, costliest first (blunders
        first; on equal cost a loss the solver proves before an estimated one)."""
        marked = [d for d in self.decisions if d.mark]
        return sorted(marked, key=lambda d: (d.mark != "??", -round(d.cost, 9), not d.proven, d.number))[:k]

    def to_json(self) -> dict[str, Any]:
        """The review as JSON data (schema: docs/analyze.md)."""
        b = self.budget
        return {
            "format": FORMAT, "version": VERSION, "rules": rules_to_json(self.rules), "players": self.players,
            "seat": self.seat, "name": self.name,
            "budget": {"samples": b.samples, "epsilon": b.epsilon, "solver_cards": b.solver_cards,
                       "solver_nodes": b.solver_nodes, "beliefs": b.beliefs},
            "seed": self.seed, "moves": self.moves, "forced": self.forced, "outcome": self.outcome,
            "marks": {"rule": "proven or checked", "dubious": DUBIOUS, "mistake": MISTAKE, "blunder": BLUNDER,
                      "z": CHECK_Z, "candidate_z": CANDIDATE_Z, "confirm": CONFIRM, "screen": SCREEN},
            "summary": self.summary(),
            "decisions": [d.to_json() for d in self.decisions],
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Review:
        if d.get("format") != FORMAT or d.get("version") != VERSION:
            raise ReviewError(f"not a {FORMAT} version {VERSION} document")
        b = d["budget"]
        budget = Budget(int(b["samples"]), float(b["epsilon"]), int(b["solver_cards"]), int(b["solver_nodes"]),
                        beliefs=str(b.get("beliefs", "uniform")))  # reviews saved before the weighted worlds: uniform
        return cls(rules_from_json(d["rules"]), int(d["players"]), int(d["seat"]), str(d["name"]), budget,
                   d["seed"], int(d["moves"]), int(d["forced"]), str(d["outcome"]),
                   tuple(Decision.from_json(x) for x in d["decisions"]),
                   None if d["summary"]["luck"] is None else float(d["summary"]["luck"]),
                   float(d["summary"]["luck_se"]), str(d["summary"].get("luck_by", "playouts")))


def decision_numbers(record: GameRecord, seat: int) -> list[int]:
    """The move numbers (1 = the first move) of ``seat``'s decisions (two or more legal
    moves) in ``record``: the moves :func:`review` judges, and may look deeper at."""
    ref = Referee(record.start())
    out: list[int] = []
    for number, text in enumerate(record.moves, start=1):
        s, move = parse_record_move(text)
        if s == seat and len(ref.observation(seat).legal) > 1:
            out.append(number)
        ref.apply(s, move, events=False)
    return out


def decisions_of(record: GameRecord, seat: int) -> int:
    """How many decisions (two or more legal moves) ``seat`` had in ``record``."""
    return len(decision_numbers(record, seat))


def review(record: GameRecord, seat: int, budget: Budget | None = None, seed: Seed = 0, *,
           names: list[str] | None = None, lang: Lang = "en",
           progress: Callable[[int, int], None] | None = None,
           cancelled: Callable[[], bool] | None = None, decision: int | None = None) -> Review:
    """Review ``seat``'s decisions in ``record`` (see the module docstring).

    ``progress(done, total)`` is called after each decision's first look and once more,
    with ``done == total``, when every decision is judged; ``cancelled()``
    is asked before each one and raises :class:`Cancelled` when it says so.  With
    ``decision`` (a move number of the record) only that decision is reviewed (with
    :func:`deeper`'s budget, "look deeper"; a phase 1 decision then gets the whole
    budget, not :data:`PHASE1_SAMPLES`); it must be one of the seat's decisions.
    Raises :class:`ReviewError` for a record that does not replay or a seat that is
    not at the table."""
    b = budget or Budget()
    try:
        end = record.replay()
    except RecordError as e:
        raise ReviewError(str(e)) from None
    if not 0 <= seat < record.players:
        raise ReviewError(f"there is no seat {seat}: the seats are 0 to {record.players - 1}")
    who = (names[seat] if names and len(names) == record.players else seat_names(record.players, lang=lang)[seat])
    total = decisions_of(record, seat) if decision is None else 1
    if decision is not None:
        if not 1 <= decision <= len(record.moves) or parse_record_move(record.moves[decision - 1])[0] != seat:
            raise ReviewError(f"move {decision} is not a move of seat {seat}")
    luck_by = luck_by_default()
    luck, luck_se = (None, 0.0) if decision is not None else phase2_luck(record, seat, b, seed, luck_by)
    ref = Referee(record.start())
    phase1 = replace(b, samples=min(b.samples, PHASE1_SAMPLES))
    forced = 0
    out: list[Decision | None] = []  # phase 2's judged after the walk (None until then)
    looks: list[_Look] = []
    for number, text in enumerate(record.moves, start=1):
        s, move = parse_record_move(text)
        if s == seat and (decision is None or number == decision):
            obs = ref.observation(seat)
            if decision is not None and len(obs.legal) == 1:
                raise ReviewError(f"move {decision} was forced (one legal move): there is nothing to judge")
            if len(obs.legal) == 1:
                forced += 1
            else:
                if cancelled is not None and cancelled():
                    raise Cancelled
                try:
                    if obs.phase is PHASE1:
                        # A look deeper (one decision) gives phase 1 the whole budget too.
                        ev: Evaluation = evaluate(obs, b if decision is not None else phase1,
                                                  random.Random(derive_seed(seed, "review", seat, number)))
                        out.append(_decision(number, True, move, ev.best, ev.values, ev.samples))
                    else:
                        looks.append(_first_look(number, obs, move, b, deep=decision is not None))
                        out.append(None)
                except DeterminizeError as e:
                    raise ReviewError(f"move {number}: cannot judge this position from the seat's view: {e}") from None
                if progress is not None:  # the last step waits for the second looks and checks (below)
                    progress(min(len(out), total - 1), total)
        ref.apply(s, move, events=False)
    try:
        judged = iter(_judge(looks, b, deep=decision is not None, cancelled=cancelled))
    except DeterminizeError as e:
        raise ReviewError(f"cannot judge a position from the seat's view: {e}") from None
    decisions = tuple(d if d is not None else next(judged) for d in out)
    if progress is not None and total:
        progress(total, total)
    outcome = "unfinished" if not end.is_over else "lost" if seat in end.losers else "safe"
    return Review(record.rules, record.players, seat, who, b, seed, len(record.moves), forced, outcome, decisions,
                  luck, luck_se, luck_by)


def luck_by_default() -> str:
    """Who works a review's luck out here: ``"model"`` (the learned value model) where
    NumPy is installed, else ``"playouts"``."""
    return "model" if has_numpy() else "playouts"


def phase2_luck(record: GameRecord, seat: int, budget: Budget | None = None, seed: Seed = 0,
                by: str | None = None) -> tuple[float | None, float]:
    """The luck :func:`review` shows (:attr:`Review.luck`, :attr:`Review.luck_se`):
    ``seat``'s chance to get away at phase 2's start in ``record`` (its observation
    before the first move made in phase 2: its phase 2 hand and position) and that
    chance's sampling error.  ``by`` (default :func:`luck_by_default`): ``"model"``, the
    learned value model (one figure, the same under any seed, sampling error 0; its
    calibration error is :data:`mattis.bots.value.CALIBRATION`), or ``"playouts"``,
    determinized playouts on ``budget`` seeded from ``seed``.  ``(None, 0.0)`` for a
    record that begins in phase 2 or ends before it, or a position the playouts cannot
    determinize."""
    by = by or luck_by_default()
    ref = Referee(record.start())
    if ref.observation(seat).phase is not PHASE1:
        return None, 0.0
    for text in record.moves:
        obs = ref.observation(seat)
        if obs.phase is not PHASE1:
            if by == "model":
                return model_for(record.rules).chance(obs), 0.0
            try:
                return chance(obs, budget or Budget(), random.Random(derive_seed(seed, "review", seat, 0)))
            except DeterminizeError:
                return None, 0.0
        s, move = parse_record_move(text)
        ref.apply(s, move, events=False)
    return None, 0.0


def deeper(budget: Budget) -> Budget:
    """The budget to look deeper at one decision: :data:`DEEPER` times the playouts and
    ten times the solver's nodes, and the solver asked from 24 cards in the hands."""
    return replace(budget, samples=budget.samples * DEEPER, solver_nodes=budget.solver_nodes * 10,
                   solver_cards=max(budget.solver_cards, 24))


def _line(obs: Observation, best: Move, b: Budget) -> tuple[tuple[int, Move], ...]:
    """The solver's line after the proven best move (empty where it cannot be had)."""
    try:
        state = state_from_view(obs)
    except DeterminizeError:
        return ()
    state.apply(best)
    return ((obs.seat, best),) + principal_line(state, obs.seat, max(b.solver_nodes, 1))


def _decision(number: int, phase1: bool, move: Move, best: MoveValue, values: tuple[MoveValue, ...],
              samples: int) -> Decision:
    mine = next(v for v in values if v.move == move)
    return Decision(number, 1 if phase1 else 2, move, best.move, best.chance, mine.chance, best.verdict,
                    mine.verdict, samples, values)


@dataclass(frozen=True, slots=True)
class _Look:
    """A phase 2 decision after its first look (:func:`_first_look`), waiting for the
    second look and the check (:func:`_judge`)."""

    number: int
    obs: Observation
    move: Move
    decision: Decision
    """The decision as the first look alone judges it."""
    again: Budget
    """The budget of the later looks (the solver not asked again unless it decided one
    of the two moves exactly)."""
    second: bool
    """Whether the preferred move is not the move made (a second look is due)."""


def _first_look(number: int, obs: Observation, move: Move, b: Budget, deep: bool = False) -> _Look:
    """A phase 2 decision's first look: every legal move on :data:`SCREEN` paired
    playouts (the whole budget where ``deep``, a look deeper) and the solver's verdicts."""
    n = b.samples if deep else max(1, min(b.samples, SCREEN, max(SCREEN // 2, SCREEN_TOTAL // len(obs.legal))))
    first = evaluate(obs, replace(b, samples=n), random.Random(position_seed(None, "review", obs)))
    best = first.best
    mine = first.of(move)
    if mine.chance >= best.chance - 1e-12:
        best = mine  # as good as any on the first look: the move made is the preferred one (cost 0)
    again = b if best.exact or mine.exact else replace(b, solver_cards=0)
    d = _decision(number, False, move, best, first.values, first.samples)
    return _Look(number, obs, move, d, again, not first.solved and best.move != move)


def _second_look(look: _Look, samples: int) -> Decision:
    """The second look where the preferred move is not the move made: the two played out
    on ``samples`` fresh paired playouts (chosen on the first look, scored on the second:
    the cost is not biased up by the choice)."""
    d = look.decision
    if not look.second:
        return d
    obs, move = look.obs, look.move
    second = evaluate(obs, replace(look.again, samples=samples), random.Random(position_seed(None, "review-2", obs)),
                      only={d.best, move})
    a = replace(second.of(d.best), verdict=d.verdict_best)
    p = replace(second.of(move), verdict=d.verdict_played)
    pair = {d.best: replace(a, gap_se=0.0),
            move: replace(p, gap_se=0.0 if a.exact and p.exact else max(a.gap_se or 0.0, p.gap_se or 0.0))}
    values = tuple(pair.get(v.move, v) for v in d.moves)
    return _decision(look.number, False, move, pair[d.best], values, second.samples)


def _candidate(d: Decision) -> bool:
    """Whether the check is due: the second look's cost is above 0 and, less
    :data:`CANDIDATE_Z` standard errors, reaches :data:`DUBIOUS` (and the solver does not
    decide it)."""
    mine = d._value(d.played)
    best = d._value(d.best)
    exact = best is not None and mine is not None and best.exact and mine.exact
    return (d.best != d.played and d.verdict_best is not Verdict.WINS and not exact
            and d.cost > 0 and d.cost - CANDIDATE_Z * d.cost_se >= DUBIOUS - 1e-9)


def _check(look: _Look, d: Decision, b: Budget) -> Decision:
    """The check (module docstring): the preferred move and the move made on
    :data:`CONFIRM` times the budget of fresh paired playouts, in the stages of
    :data:`CHECK_STAGES`, pooled; a cost short of :data:`DUBIOUS` after a stage is not
    played out further.  A mark is given only on the whole (stopping early where a mark
    looks settled would let the noise of a quarter decide its level)."""
    obs, move = look.obs, look.move
    check = (0.0, 0.0, 0)
    total = diff = var = 0.0
    for i, k in enumerate(CHECK_STAGES):
        ev = evaluate(obs, replace(look.again, samples=b.samples * k),
                      random.Random(position_seed(None, f"review-check-{i}", obs)), only={d.best, move})
        a, p = ev.of(d.best), ev.of(move)
        runs = float(ev.samples)
        diff += runs * (a.chance - p.chance)
        var += (runs * max(a.gap_se or 0.0, p.gap_se or 0.0)) ** 2
        total += runs
        check = (diff / total, math.sqrt(var) / total, int(total))
        if check[0] < DUBIOUS:
            break
    return replace(d, check=check)


def _named_line(obs: Observation, d: Decision, b: Budget) -> Decision:
    """The decision with the line after the proven best or the marked better move."""
    if d.resolved:
        return replace(d, line=_line(obs, d.best, b))
    if d.named:
        return replace(d, line=_playout_line(obs, d.best))
    return d


def in_play(obs: Observation) -> float:
    """What a playout from ``obs`` costs, as a share of one from a whole deck: the cards
    still in play (in the hands and the piles) over 52.  The checks of a review share
    :data:`CHECK_SHARE` by it, so a late position's short playouts cost less of it."""
    return (sum(obs.hand_counts) + sum(m.bit_count() for m in obs.pile_masks)) / 52


def second_samples(b: Budget, looks: int) -> int:
    """The playouts per move of each second look of a review that has ``looks`` of them:
    the whole budget while they fit :data:`SECOND_SHARE` times it, else that share split
    evenly, never under a quarter of the budget."""
    if looks * b.samples <= SECOND_SHARE * b.samples:
        return b.samples
    return max(1, b.samples // 4, SECOND_SHARE * b.samples // looks)


def _judge(looks: list[_Look], b: Budget, deep: bool = False,
           cancelled: Callable[[], bool] | None = None) -> list[Decision]:
    """The phase 2 decisions of a review judged, after their first looks (module
    docstring): the second looks, sharing :data:`SECOND_SHARE` times the budget
    (:func:`second_samples`; the whole budget each where ``deep``); then the checks,
    sharing :data:`CHECK_SHARE` times the budget, the most promising candidates first
    (the second look's cost less :data:`CANDIDATE_Z` standard errors, highest first,
    each check's playouts weighted by :func:`in_play`; a check starts only where its
    whole, :data:`CONFIRM` times the budget, is left, else the next candidate is tried,
    and what a check stopped early did not play is left to the others); then the line after
    the proven best or the marked better move.  Every random number comes from the
    position (:func:`mattis.play.seeds.position_seed`), none from the review's seed, and
    the shares from the record alone, so no seed changes a figure, a mark or a named
    move."""
    n2 = b.samples if deep else second_samples(b, sum(look.second for look in looks))
    out: list[Decision] = []
    for look in looks:
        if cancelled is not None and cancelled():
            raise Cancelled
        out.append(_second_look(look, n2))
    order = sorted((i for i, d in enumerate(out) if _candidate(d)),
                   key=lambda i: (-(out[i].cost - CANDIDATE_Z * out[i].cost_se), out[i].number))
    left = float(CHECK_SHARE * b.samples)
    for i in order:
        weight = in_play(looks[i].obs)
        if left < CONFIRM * b.samples * weight:
            continue  # too dear for what is left: a cheaper candidate may still fit
        if cancelled is not None and cancelled():
            raise Cancelled
        d = out[i] = _check(looks[i], out[i], b)
        left -= (d.check[2] if d.check is not None else 0) * weight
    return [_named_line(look.obs, d, b) for look, d in zip(looks, out, strict=True)]


def _playout_line(obs: Observation, better: Move, own: int = LINE_MOVES) -> tuple[tuple[int, Move], ...]:
    """How the playouts' policy plays on after ``better`` (no random moves), up to the
    seat's ``own``-th move (``better`` the first) or until it is out or the loser (empty
    where the seat does not know every hand)."""
    try:
        state = state_from_view(obs)
    except DeterminizeError:
        return ()
    state.apply(better)
    out: list[tuple[int, Move]] = [(obs.seat, better)]
    mine = 1
    while (not state.is_over and obs.seat not in state.finished and obs.seat not in state.losers
           and state.to_act is not None):
        q = state.to_act
        if q == obs.seat:
            if mine == own:
                break
            mine += 1
        m = state_choice(state)
        state.apply(m)
        out.append((q, m))
    return tuple(out)



# ------------------------------------------------------------------ text
def move_words(move: Move, lang: Lang) -> str:
    """A move for people: ``legg 4♣`` / ``play 4♣``, ``sjanse``, ``ta opp``."""
    if move.kind is MoveKind.CHANCE:
        return say("move.chance", lang)
    if move.kind is MoveKind.PICKUP:
        return say("move.pickup", lang)
    return say("move.play", lang, cards=" ".join(card_symbol(c) for c in move.cards))


def line_words(line: tuple[tuple[int, Move], ...], seat: int, lang: Lang) -> str:
    """A line of play with cards as on the cards: the seat's own moves as they are, each
    run of the others' moves in brackets (``5♠ (8♥ 9♥) 3♣``)."""
    out: list[str] = []
    others: list[str] = []
    for q, m in line:
        word = " ".join(card_symbol(c) for c in m.cards) if m.kind is MoveKind.PLAY else move_words(m, lang)
        if q == seat:
            if others:
                out.append("(" + " ".join(others) + ")")
                others = []
            out.append(word)
        else:
            others.append(word)
    if others:
        out.append("(" + " ".join(others) + ")")
    return " ".join(out)


def pct(x: float, lang: Lang) -> str:
    return say("review.pct", lang, p=round(100 * x))


def _verdict(v: Verdict | None, rules: Rules, lang: Lang) -> str:
    if v is None:
        return ""
    return " [" + say(f"review.verdict.{v.value}", lang, loser=loser_word(rules, lang)) + "]"


def decision_lines(d: Decision, rv: Review, lang: Lang) -> list[str]:
    """One decision as the review's text shows it: its line (the move made, the chance
    before → after with the cost ± two standard errors, the solver's verdict, the mark,
    the best move where proven), then the solver's line of play after the best move
    where it has one.  A phase 1 decision shows its figures only where they are
    informative (:attr:`Decision.informative`), and is never judged."""
    head = f"{d.number}. {say('review.phase', lang, n=d.phase)}: {move_words(d.played, lang)}  "
    if not d.judged:
        if d.informative:
            return [head + f"{pct(d.before, lang)} → {pct(d.after, lang)} ({say('review.not_judged', lang)})"]
        return [head + f"({say('review.not_judged', lang)})"]
    line = head + f"{pct(d.before, lang)} → {pct(d.after, lang)}"
    if d.check is not None:  # the check's cost decides the mark: it is the one shown
        line += " (" + say("review.cost_checked", lang, cost=pct(max(0.0, d.check[0]), lang),
                           se=pct(2 * d.check[1], lang), n=d.check[2]) + ")"
    elif d.cost > 0 and d.cost_se > 0:  # an estimate: the cost with two standard errors, as the legend says
        line += f" ({say('review.cost', lang, cost=pct(d.cost, lang))} ± {pct(2 * d.cost_se, lang)})"
    line += _verdict(d.verdict_played, rv.rules, lang)
    if d.mark:
        line += f"  {d.mark}"
    if d.best != d.played and d.cost > 0:
        if d.resolved:
            line += "   " + say("review.best", lang, move=move_words(d.best, lang), chance=pct(d.before, lang))
            line += _verdict(d.verdict_best, rv.rules, lang)
        elif d.named:
            line += "   " + say("review.better", lang, move=move_words(d.best, lang), chance=pct(d.before, lang))
    out = [line]
    if d.line and d.best != d.played:
        key = "review.line" if d.resolved else "review.line_playouts"
        out.append("    " + say(key, lang, moves=line_words(d.line, rv.seat, lang)))
    return out


def deeper_words(first: Decision, now: Decision, lang: Lang) -> str:
    """What a look deeper did, in a sentence: the playouts per legal move it had, and the
    first look's chance before → after ("Looked at deeper: 1024 playouts per legal move
    (before: 61% → 55%).")."""
    return say("analyse.deeper_done", lang, samples=now.samples,
               before=f"{pct(first.before, lang)} → {pct(first.after, lang)}")


def seats_text(reviews: list[Review], lang: Lang = "en") -> str:
    """Every seat's accuracy summary of one game, a line per seat (as lichess shows both
    players'): the accuracy, the decisions within the noise of the best, the average cost
    (each ± two standard errors) and the proven blunders."""
    lines = [say("review.seats.title", lang)]
    for rv in reviews:
        acc, cost = rv.accuracy(), rv.mean_cost()
        k, n = rv.within_noise()
        if acc is None or cost is None:
            lines.append("  " + say("review.seats.none", lang, name=rv.name))
            continue
        lines.append("  " + say("review.seats.row", lang, name=rv.name, acc=round(acc[0]), se=round(Z * acc[1]),
                                k=k, n=n, cost=round(100 * cost[0]), cost_se=round(100 * Z * cost[1]),
                                b=sum(d.mark != "" for d in rv.decisions)))
    return "\n".join(lines)


def review_text(rv: Review, lang: Lang = "en") -> str:
    """The review as lines of text for people."""
    loser = loser_word(rv.rules, lang)
    you = rv.name == say("word.you", lang)
    lines = [say("review.title", lang, name=as_object(rv.name, lang), rules=rv.rules.name.capitalize(),
                 players=rv.players),
             say("review.budget", lang, samples=rv.budget.samples, seed=rv.seed),
             say("review.what_you" if you else "review.what", lang, loser=loser, name=rv.name), ""]
    if not rv.decisions:
        lines.append(say("review.no_decisions", lang, name=rv.name))
    for d in rv.decisions:
        lines.extend(decision_lines(d, rv, lang))
    lines.append("")
    top = rv.costliest()
    if top:
        lines.append(say("review.costliest", lang))
        for d in top:
            better = (say("review.best" if d.resolved else "review.better", lang, move=move_words(d.best, lang),
                          chance=pct(d.before, lang)) if d.named else say("review.unresolved", lang))
            lines.append(f"  {d.number}. {move_words(d.played, lang)} {d.mark} "
                         f"({say('review.cost', lang, cost=pct(d.cost, lang))} ± {pct(2 * d.cost_se, lang)}; "
                         + better + ")")
    elif rv.decisions:
        lines.append(say("review.none_marked", lang))
    summary = rv.summary()
    acc = rv.accuracy()
    if acc is not None:
        lines.append(say("review.accuracy", lang, acc=round(acc[0]), se=round(Z * acc[1]), n=summary["judged"],
                         b=sum(summary["marks"].values())))
        cost = rv.mean_cost()
        if cost is not None:
            lines.append(say("review.within", lang, k=summary["within_noise"], n=summary["judged"],
                             cost=round(100 * cost[0]), se=round(100 * Z * cost[1])))
    if summary["phase1"]:
        lines.append(say("review.phase1", lang, n=summary["phase1"]))
    if rv.luck is not None and rv.luck_by == "model" and not rv.luck_shown:
        lines.append(say("review.luck_not_shown", lang))
    elif rv.luck is not None and rv.luck_by == "model":
        lines.append(say("review.luck_model", lang, name=in_sentence(rv.name, lang), p=pct(rv.luck, lang),
                         se=pct(rv.luck_margin(), lang), base=pct(rv.base_rate, lang)))
    elif rv.luck is not None:
        lines.append(say("review.luck", lang, name=in_sentence(rv.name, lang), p=pct(rv.luck, lang),
                         se=pct(rv.luck_margin(), lang),
                         base=pct(rv.base_rate, lang)))
    lines.append(say("review.marks", lang, blunder=round(100 * BLUNDER), mistake=round(100 * MISTAKE),
                     dubious=round(100 * DUBIOUS)))
    if rv.forced:
        lines.append(say("review.forced", lang, n=rv.forced))
    if rv.outcome == "lost":
        lines.append(loser_sentence(rv.rules, rv.name, lang))
    elif rv.outcome == "safe":
        lines.append(say("review.safe", lang, name=rv.name))
    else:
        lines.append(say("review.unfinished", lang))
    return "\n".join(lines)


# ------------------------------------------------------------------ chart
def review_chart(rv: Review, path: str | Path, lang: Lang = "en") -> None:
    """Draw the chance over the game (with the best move, with the move made) as a PNG,
    the marked decisions labelled; a phase 1 decision only where its figures are
    informative (:attr:`Decision.informative`).  Needs matplotlib (the ``bots`` extra)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = [d for d in rv.decisions if d.informative]  # not phase 1's noise (Decision.informative)
    xs = [d.number for d in shown]
    fig, ax = plt.subplots(figsize=(9, 3.6), dpi=100)
    try:
        ax.step(xs, [d.before for d in shown], where="mid", color="#2b7a3d",
                label=say("review.chart.best", lang))
        ax.plot(xs, [d.after for d in shown], "o", markersize=3, color="#333333",
                label=say("review.chart.played", lang))
        colours = {"??": "#c0392b", "?": "#e67e22", "?!": "#b7950b"}
        for d in rv.decisions:
            if d.mark:
                ax.vlines(d.number, d.after, d.before, color=colours[d.mark], linewidth=2)
                ax.annotate(d.mark, (d.number, d.after), textcoords="offset points", xytext=(0, -12),
                            ha="center", color=colours[d.mark], fontsize=9, fontweight="bold")
        ax.set_ylim(-0.08, 1.05)
        if xs:
            ax.set_xlim(0, max(xs) + 1)
        ax.set_xlabel(say("review.chart.x", lang))
        ax.set_ylabel(say("review.chart.y", lang))
        ax.set_title(say("review.chart.title", lang, loser=loser_word(rv.rules, lang), name=rv.name))
        ax.legend(loc="lower left", fontsize=8)
        ax.grid(alpha=0.3)
        fig.tight_layout()
        fig.savefig(str(path), format="png")
    finally:
        plt.close(fig)
