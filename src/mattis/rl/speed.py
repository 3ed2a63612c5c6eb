"""A speed race: random playouts of our engine and its research interfaces beside
OpenSpiel's C++ card games, in one process, side by side.

Every row plays whole games with uniformly random legal moves for about
``seconds_per_row`` seconds and counts player decisions (moves of every seat; chance
steps are timed but not counted).  Time is this process's CPU time
(``time.process_time``), so other work on a shared machine skews a row little.  Rows:

* ``mattis raw (<build>)``: the engine's own API, ``legal_moves()`` + ``apply()``
  (:func:`raw_row`; ``<build>`` is ``mattis.core.build_kind()`` where the core has it,
  else ``pure``; run ``python -m mattis.rl.speed --raw-json`` in a subprocess, once per
  build, for the compiled and the pure rows);
* ``mattis openspiel``: ``python_mattis`` through pyspiel, no tensors; ``+ obs tensor``
  and ``+ infostate tensor`` fill that tensor for the player to act at every decision,
  as a learning agent does, through OpenSpiel's observer API
  (``open_spiel.python.observation.make_observation(game, IIGObservationType(...))``,
  then ``observer.set_from(state, player)``; the same for the C++ games).  For a Python
  game, pyspiel's ``state.observation_tensor()`` costs more: it builds a new initial
  state to size the tensor and copies the tensor into a list at every call;
* ``mattis pettingzoo``: the ``mattis_v0`` AEC env, an agent loop reading ``env.last()``
  (observation tensor + action mask) every step;
* ``mattis gymnasium``: :class:`~mattis.rl.gym_env.MattisEnv`, a random learner
  against ``random`` opponents (decisions: the learner's and the opponents' moves);
* ``mattis batched xN``: :class:`~mattis.rl.vector_env.MattisVectorEnv` with N games,
  a random action per game from the mask array (decisions counted the same way);
* ``mattis batched engine xN``: :class:`~mattis.rl.batched.BatchedGames` on its Python
  path (``engine="python"``), the compiled batched step: N games per call, a random
  legal action per game, the learners' observation tensors and masks written into NumPy
  arrays at every call, ``random`` opponents played inside the compiled step (decisions
  counted the same way);
* ``mattis native batched xN``: the same on the native engine (``engine="native"``,
  the C engine ``mattis.rl._native``; skipped where it is not built);
* ``crazy_eights`` and ``hearts``: OpenSpiel's C++ games through the same pyspiel loop,
  without and with their tensor (crazy_eights' observation tensor; hearts has only an
  information-state tensor);
* the floors (:mod:`mattis.rl.floors`), per preset: ``floor: openspiel`` (a do-nothing
  pyspiel Python game through the OpenSpiel row's loop), ``floor: pettingzoo`` (a
  do-nothing AEC env through ``mattis_v0``'s wrappers and loop), ``floor: gymnasium``
  (a do-nothing Gymnasium env through the Gymnasium row's loop), ``openspiel deal``
  (the OpenSpiel row's ``new_initial_state()`` and chance nodes alone; its decisions
  are its chance steps) and ``floor: openspiel deal`` (a do-nothing game's 52 chance
  nodes through the same loop: pyspiel's calls and the loop's own sampling).

The Gymnasium rows' ``games`` are their learner steps, so ``decisions a game`` is there
the decisions a learner step.  After the table the command prints the goals table,
computed from the table's printed figures (:func:`parse_table`, :func:`goals`):
native batched ≥ 2x crazy_eights + obs tensor; PettingZoo's µs a decision over its
floor ≤ 4x the raw engine's; OpenSpiel + obs tensor ≥ 0.5x its no-tensor row; the
deal's µs over its floor's ≤ 1 µs a decision; Gymnasium's µs a learner step over its floor ≤ 2x the native
batched engine's (:data:`GOALS`).

``python -m mattis.rl.speed --rules mattis --players 3 --seconds 3``,
``python benchmarks/rl_speed_race.py`` or ``mattis bench --vs-openspiel`` print the table.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from ..core import PRESETS, RulesError, State, preset

Row = dict[str, Any]
Game = Callable[[int], int]


def _timed(name: str, detail: str, seconds: float, one_game: Game, preset_name: str | None = None,
           units: Callable[[], int] | None = None) -> Row:
    """Call ``one_game`` until ``seconds`` of CPU time have passed.  ``units`` (given
    for the Gymnasium rows) counts what the row's ``games`` are instead of the calls
    (their learner steps)."""
    games = decisions = 0
    start = time.process_time()
    wall = time.perf_counter()
    deadline = start + seconds
    first = units() if units is not None else 0
    while True:
        decisions += one_game(games)
        games += 1
        now = time.process_time()
        if now >= deadline:
            break
    elapsed = now - start
    wall = time.perf_counter() - wall
    if units is not None:
        games = units() - first
    return {"name": name, "detail": detail, "preset": preset_name, "games": games, "decisions": decisions,
            "seconds": elapsed, "wall_seconds": wall, "decisions_per_s": decisions / elapsed}


def build_label() -> str:
    """``mattis.core.build_kind()`` where the core has it (compiled or pure), else ``pure``."""
    import mattis.core as core

    kind = getattr(core, "build_kind", None)
    return str(kind()) if callable(kind) else "pure"


def _raw(rules_name: str, players: int) -> Game:
    rules = preset(rules_name)
    rng = random.Random(1)

    def game(i: int) -> int:
        s = State.new(rules, players, seed=i)
        choice = rng.choice
        n = 0
        while s.to_act is not None:
            s.apply(choice(s.legal_moves()))
            n += 1
        return n

    return game


def raw_row(rules: str = "mattis", players: int = 3, seconds: float = 3.0) -> Row:
    """The raw engine's row, labelled with the build in this process (run it in a
    subprocess per build: ``MATTIS_PURE=1 python -m mattis.rl.speed --raw-json``)."""
    return _timed(f"mattis raw ({build_label()})", f"{rules} {players}p, legal_moves()+apply()", seconds,
                  _raw(rules, players), rules)


def _pettingzoo(rules_name: str, players: int, floor: bool = False) -> Game:
    """The ``mattis_v0`` row's loop (``floor``: the same loop over a do-nothing AEC env
    wrapped alike, :func:`mattis.rl.floors.null_aec`)."""
    import numpy as np

    from .pettingzoo_env import env as make_env

    if floor:
        from .encoding import ActionSpace, obs_size
        from .floors import null_aec

        e = null_aec(players, ActionSpace(preset(rules_name)).size, obs_size(players))
    else:
        e = make_env(rules=rules_name, players=players)
    rand = random.Random(1).random

    def game(i: int) -> int:
        e.reset(seed=i)
        n = 0
        for _agent in e.agent_iter():
            obs, _r, term, trunc, _info = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[int(rand() * len(legal))]))
            n += 1
        return n

    return game


class _Steps:
    """The learner steps a Gymnasium row has made (its ``games``)."""

    def __init__(self) -> None:
        self.steps = 0

    def __call__(self) -> int:
        return self.steps


def _gymnasium(rules_name: str, players: int, floor: bool = False, counter: _Steps | None = None) -> Game:
    """The Gymnasium row's loop, one episode a call (``floor``: the same loop over a
    do-nothing env, :class:`mattis.rl.floors.NullEnv`); ``counter`` counts the
    learner's steps."""
    import numpy as np

    from .encoding import ActionSpace, obs_size
    from .floors import NullEnv
    from .gym_env import MattisEnv

    env: Any = (NullEnv(ActionSpace(preset(rules_name)).size, obs_size(players)) if floor
                else MattisEnv(rules=rules_name, players=players, opponents="random", seat="rotate"))
    rand = random.Random(1).random
    env.reset(seed=0)
    steps = counter if counter is not None else _Steps()

    def game(i: int) -> int:
        before = env.decisions
        k = 0
        while True:
            legal = np.flatnonzero(env.action_masks())
            _obs, _r, term, trunc, _info = env.step(int(legal[int(rand() * len(legal))]))
            k += 1
            if term or trunc:
                break
        env.reset()
        steps.steps += k
        return int(env.decisions - before)

    return game


def _deal(game_string: str) -> Game:
    """The OpenSpiel row's deal alone: ``new_initial_state()`` and its chance nodes up to
    the first player's decision, picked as the row picks them; a call's 'decisions' are
    its chance steps."""
    import pyspiel

    if game_string.startswith("python_mattis"):
        from . import openspiel_game  # noqa: F401  (registers python_mattis)
    g = pyspiel.load_game(game_string)
    rng = random.Random(1)

    def game(i: int) -> int:
        s = g.new_initial_state()
        n = 0
        while s.is_chance_node():
            outcomes = s.chance_outcomes()
            r = rng.random()
            acc = 0.0
            pick = outcomes[-1][0]
            for a, p in outcomes:
                acc += p
                if r < acc:
                    pick = a
                    break
            s.apply_action(pick)
            n += 1
        return n

    return game


def random_legal(rng: Any, masks: Any) -> Any:
    """A uniformly random legal action for every row of ``masks`` (``(N, actions)``
    bool, each row with a legal action), drawn from the NumPy generator ``rng`` as
    vectorised code does it: the legal actions' flat positions (``np.flatnonzero``),
    each row's count, one uniform draw a row (a few NumPy calls a batch whatever the
    number of actions, where random keys over the whole mask cost one draw an action)."""
    import numpy as np

    count = np.count_nonzero(masks, axis=1)
    start = np.cumsum(count) - count
    pick = np.flatnonzero(masks)[start + (rng.random(len(count)) * count).astype(np.intp)]
    return pick - np.arange(len(count)) * masks.shape[1]


def _batched(rules_name: str, players: int, n: int) -> Game:
    import numpy as np

    from .vector_env import MattisVectorEnv

    venv = MattisVectorEnv(n, rules=rules_name, players=players, opponents="random", seat="rotate")
    venv.reset(seed=0)
    rng = np.random.default_rng(1)

    def game(i: int) -> int:
        """One batched step of ``n`` games (a 'game' of this row is one call)."""
        before = venv.decisions
        venv.step(random_legal(rng, venv.action_masks()))
        return venv.decisions - before

    return game


def _batched_engine(rules_name: str, players: int, n: int, engine: str = "python") -> Game:
    import numpy as np

    from .batched import BatchedGames, native_covers

    if engine == "native":
        why = native_covers(preset(rules_name), ["random"])
        if why is not None:
            raise ImportError(why)
    games = BatchedGames(n, rules=rules_name, players=players, opponents="random", seat="rotate", engine=engine)
    games.reset(seed=0)
    rng = np.random.default_rng(1)

    def game(i: int) -> int:
        """One call stepping ``n`` games, tensors and masks written (a 'game' of this row is one call)."""
        before = games.decisions
        games.step(random_legal(rng, games.masks))
        return games.decisions - before

    return game


def _openspiel(game_string: str, tensor: str | None = None) -> Game:
    import pyspiel

    if game_string.startswith("python_mattis"):
        from . import floors, openspiel_game  # noqa: F401  (register python_mattis and its floor)

        floors._register_floor_game()
    g = pyspiel.load_game(game_string)
    rng = random.Random(1)
    observer: Any = None
    if tensor is not None:
        from open_spiel.python.observation import make_observation

        kind = pyspiel.IIGObservationType(perfect_recall=tensor == "info")
        observer = make_observation(g, kind)

    def game(i: int) -> int:
        s = g.new_initial_state()
        n = 0
        choice = rng.choice
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                r = rng.random()
                acc = 0.0
                pick = outcomes[-1][0]
                for a, p in outcomes:
                    acc += p
                    if r < acc:
                        pick = a
                        break
                s.apply_action(pick)
            else:
                if observer is not None:
                    observer.set_from(s, s.current_player())
                s.apply_action(choice(s.legal_actions()))
                n += 1
        return n

    return game


BATCH = 16
"""Games in the batched env's row."""
ENGINE_BATCH = 64
"""Games in the batched engine's row (:class:`mattis.rl.batched.BatchedGames`)."""
NATIVE_BATCH = 256
"""Games in the native batched engine's row (a call costs it little, so more games a call)."""


Plan = list[tuple[str, str, Callable[[], Game], "Callable[[], int] | None"]]


def plan(rules: str, players: int, raw: bool = True) -> Plan:
    """The rows of one rule set (name, detail, builder, and for the Gymnasium rows the
    counter of their learner steps)."""
    from .encoding import ActionSpace

    spec = f"python_mattis(rules={rules},players={players})"
    tag = f"{rules} {players}p"
    actions = ActionSpace(preset(rules)).size
    gym, gym_floor = _Steps(), _Steps()

    def floor_game() -> Game:
        from .floors import floor_game_string

        return _openspiel(floor_game_string(players, actions))

    def floor_deal() -> Game:
        from .floors import floor_game_string

        return _deal(floor_game_string(players, actions, deal=52))

    rows: Plan = []
    if raw:
        rows.append((f"mattis raw ({build_label()})", f"{tag}, legal_moves()+apply()", lambda: _raw(rules, players),
                     None))
    rows += [
        ("mattis openspiel", f"{tag}, python_mattis via pyspiel", lambda: _openspiel(spec), None),
        ("mattis openspiel + obs tensor", f"{tag}, observation tensor each decision",
         lambda: _openspiel(spec, "obs"), None),
        ("mattis openspiel + infostate tensor", f"{tag}, information-state tensor each decision",
         lambda: _openspiel(spec, "info"), None),
        ("floor: openspiel", f"{tag}, a do-nothing pyspiel Python game, the same loop", floor_game, None),
        ("openspiel deal", f"{tag}, new_initial_state() and the chance nodes only (decisions = chance steps)",
         lambda: _deal(spec), None),
        ("floor: openspiel deal", f"{tag}, a do-nothing pyspiel game's 52 chance nodes, the same loop", floor_deal,
         None),
        ("mattis pettingzoo", f"{tag}, mattis_v0 env.last()+step()", lambda: _pettingzoo(rules, players), None),
        ("floor: pettingzoo", f"{tag}, a do-nothing AEC env, mattis_v0's wrappers and loop",
         lambda: _pettingzoo(rules, players, floor=True), None),
        ("mattis gymnasium", f"{tag}, MattisEnv step() vs random opponents",
         lambda: _gymnasium(rules, players, counter=gym), gym),
        ("floor: gymnasium", f"{tag}, a do-nothing Gymnasium env, the same loop",
         lambda: _gymnasium(rules, players, floor=True, counter=gym_floor), gym_floor),
        (f"mattis batched x{BATCH}", f"{tag}, MattisVectorEnv step() vs random opponents",
         lambda: _batched(rules, players, BATCH), None),
        (f"mattis batched engine x{ENGINE_BATCH}", f"{tag}, BatchedGames step(), tensors and masks, "
         "vs random opponents", lambda: _batched_engine(rules, players, ENGINE_BATCH), None),
        (f"mattis native batched x{NATIVE_BATCH}", f"{tag}, BatchedGames(engine='native') step(), tensors and "
         "masks, vs random opponents", lambda: _batched_engine(rules, players, NATIVE_BATCH, "native"), None),
    ]
    return rows


OPENSPIEL_ROWS: Plan = [
    ("crazy_eights", "OpenSpiel C++ (5 players) via pyspiel", lambda: _openspiel("crazy_eights"), None),
    ("crazy_eights + obs tensor", "observation tensor each decision", lambda: _openspiel("crazy_eights", "obs"),
     None),
    ("hearts", "OpenSpiel C++ (4 players) via pyspiel", lambda: _openspiel("hearts"), None),
    ("hearts + infostate tensor", "information-state tensor each decision (hearts has no observation tensor)",
     lambda: _openspiel("hearts", "info"), None),
]


def race(seconds_per_row: float = 3.0, rules: str | list[str] = "mattis", players: int = 3,
         raw_rows: list[Row] | None = None) -> list[Row]:
    """Run every row for about ``seconds_per_row`` seconds; rows that need a missing
    package are reported with ``decisions_per_s = None`` and the reason.  ``rules``
    may name several presets (their rows come one after another, OpenSpiel's games
    once at the end).  ``raw_rows`` (measured elsewhere, e.g. in a subprocess per
    build) replace the in-process raw row when given."""
    names = [rules] if isinstance(rules, str) else list(rules)
    todo: list[tuple[str | None, str, str, Callable[[], Game], Callable[[], int] | None]] = []
    for name in names:
        todo += [(name, *row) for row in plan(name, players, raw=raw_rows is None)]
    todo += [(None, *row) for row in OPENSPIEL_ROWS]
    rows: list[Row] = [dict(r) for r in raw_rows or []]
    for r in rows:  # a raw row measured elsewhere names its preset (older rows: the first word of the detail)
        r.setdefault("preset", str(r["detail"]).split(" ")[0])
    for preset_name, name, detail, build, units in todo:
        try:
            game = build()
        except ImportError as e:
            rows.append({"name": name, "detail": f"skipped: {e}", "preset": preset_name, "games": 0,
                         "decisions": 0, "seconds": 0.0, "decisions_per_s": None})
            continue
        rows.append(_timed(name, detail, seconds_per_row, game, preset_name, units))
    _ratios(rows)
    return rows


def _ratios(rows: list[Row]) -> None:
    """``ratio_vs_crazy_eights`` for every row; ``ratio_vs_raw``: a mattis row against
    the first raw row of its own preset (the compiled one when both builds were
    measured), an OpenSpiel tensor row against the same game without the tensor; none
    for the floors and the deal."""
    base = next((r["decisions_per_s"] for r in rows if r["name"] == "crazy_eights"), None)
    raw: dict[Any, Any] = {}
    for r in rows:
        if r["name"].startswith("mattis raw"):
            raw.setdefault(r.get("preset"), r["decisions_per_s"])
    for r in rows:
        d = r["decisions_per_s"]
        r["ratio_vs_crazy_eights"] = d / base if base and d is not None else None
        if r["name"].startswith("mattis"):
            own = raw.get(r.get("preset"))
            r["ratio_vs_raw"] = d / own if own and d is not None else None
        elif r["name"].startswith(("floor:", "openspiel deal")):
            r["ratio_vs_crazy_eights"] = r["ratio_vs_raw"] = None
        elif " + " in r["name"]:
            plain = next((q["decisions_per_s"] for q in rows if q["name"] == r["name"].split(" + ")[0]), None)
            r["ratio_vs_raw"] = d / plain if plain and d is not None else None
        else:
            r["ratio_vs_raw"] = 1.0 if d is not None else None


HEADER = ("| row | what | games | decisions/s | decisions a game | vs crazy_eights | vs raw |",
          "|---|---|---:|---:|---:|---:|---:|")


def format_table(rows: list[Row]) -> str:
    """The race as a Markdown table.  ``vs raw``: a mattis row against the raw engine,
    an OpenSpiel tensor row against the same game without the tensor.  ``decisions a
    game``: decisions over games (a batched row's games are its calls, a Gymnasium
    row's its learner steps, the deal row's decisions its chance steps)."""
    lines = list(HEADER)
    for r in rows:
        dps = "-" if r["decisions_per_s"] is None else f"{r['decisions_per_s']:,.0f}"
        per = f"{r['decisions'] / r['games']:,.2f}" if r["games"] else "-"
        ratio = "-" if r.get("ratio_vs_crazy_eights") is None else f"{r['ratio_vs_crazy_eights']:.2f}x"
        vs_raw = "-" if r.get("ratio_vs_raw") is None else f"{r['ratio_vs_raw']:.2f}x"
        lines.append(f"| {r['name']} | {r['detail']} | {r['games']} | {dps} | {per} | {ratio} | {vs_raw} |")
    return "\n".join(lines)


# ------------------------------------------------------------------ the goals
Printed = dict[str, Any]
"""A row as the table prints it: ``name``, ``detail``, ``preset`` (the detail's first
word for a mattis row, else ``None``), ``games``, ``dps`` (decisions/s) and ``per``
(decisions a game), the last two ``None`` where the table shows ``-``."""


def parse_table(text: str) -> list[Printed]:
    """The rows of a table :func:`format_table` printed (the first such table in
    ``text``), with their figures as printed: the goals are computed from these, so
    the goals table of a pasted run can be checked against its race table."""
    rows: list[Printed] = []
    started = False
    for line in text.splitlines():
        if line.strip() == HEADER[0]:
            started = True
            continue
        if not started or line.strip() == HEADER[1]:
            continue
        if not line.startswith("| "):
            break
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        name, detail, games, dps, per = cells[:5]
        first = detail.split(" ")[0]
        rows.append({"name": name, "detail": detail, "preset": first if first in PRESETS else None,
                     "games": int(games), "dps": None if dps == "-" else float(dps.replace(",", "")),
                     "per": None if per == "-" else float(per.replace(",", ""))})
    return rows


def _us(r: Printed | None) -> float | None:
    """µs a decision."""
    return None if r is None or not r["dps"] else 1e6 / r["dps"]


def _batch_size(name: str) -> int:
    return int(name.rsplit("x", 1)[1])


GOALS = {
    "native": 2.0,
    "pettingzoo": 4.0,
    "openspiel_tensor": 0.5,
    "deal": 1.0,
    "gymnasium": 2.0,
}
"""The restated goals: native batched ≥ 2x crazy_eights + obs tensor; PettingZoo's
overhead over its floor ≤ 4x the raw engine's µs a decision; OpenSpiel + obs tensor ≥
0.5x its no-tensor row (decisions/s); the deal's µs over its floor's ≤ 1 µs a decision
(of the OpenSpiel row); Gymnasium's learner
step overhead over its floor ≤ 2x the batched engine's µs a learner step."""


def goals(rows: list[Printed]) -> list[tuple[str, dict[str, str], str]]:
    """The goals table's lines: (goal, a cell per preset, verdict) from the printed rows
    (``met``, ``not met``, ``not measured``, or empty for a line that only informs)."""
    presets = list(dict.fromkeys(r["preset"] for r in rows if r["preset"] is not None))

    def row(p: str | None, name: str) -> Printed | None:
        return next((r for r in rows if r["preset"] == p and r["name"] == name and r["dps"]), None)

    def raw(p: str) -> Printed | None:
        return next((r for r in rows if r["preset"] == p and r["name"].startswith("mattis raw") and r["dps"]), None)

    native = f"mattis native batched x{NATIVE_BATCH}"
    engine = f"mattis batched engine x{ENGINE_BATCH}"
    ce_obs = row(None, "crazy_eights + obs tensor")
    out: list[tuple[str, dict[str, str], str]] = []

    def line(goal: str, fn: Callable[[str], tuple[str, bool] | None], inform: bool = False) -> None:
        cells: dict[str, str] = {}
        oks: list[bool] = []
        for p in presets:
            got = fn(p)
            cells[p] = "-" if got is None else got[0]
            if got is not None:
                oks.append(got[1])
        verdict = "" if inform else ("not measured" if len(oks) < len(presets) else
                                     "met" if all(oks) else "not met")
        out.append((goal, cells, verdict))

    def native_goal(p: str) -> tuple[str, bool] | None:
        r = row(p, native)
        if r is None or ce_obs is None:
            return None
        x = r["dps"] / ce_obs["dps"]
        return f"{x:.2f}x", x >= GOALS["native"]

    ce_text = "-" if ce_obs is None else f"{ce_obs['dps']:,.0f}"
    line(f"native batched x{NATIVE_BATCH} (tensors and masks) ≥ {GOALS['native']:g}x crazy_eights + obs tensor "
         f"({ce_text} decisions/s)", native_goal)

    def pz_goal(p: str) -> tuple[str, bool] | None:
        t, f, rw = _us(row(p, "mattis pettingzoo")), _us(row(p, "floor: pettingzoo")), _us(raw(p))
        if t is None or f is None or rw is None:
            return None
        x = (t - f) / rw
        return f"{x:.1f}x ({t - f:.1f} µs)", x <= GOALS["pettingzoo"]

    line(f"PettingZoo: µs a decision over its floor ≤ {GOALS['pettingzoo']:g}x the raw engine's "
         "(overhead; the raw engine's µs in the next line)", pz_goal)

    def raw_info(p: str) -> tuple[str, bool] | None:
        us = _us(raw(p))
        return None if us is None else (f"{us:.2f} µs", True)

    line("raw engine (compiled where built), µs a decision", raw_info, inform=True)

    def os_goal(p: str) -> tuple[str, bool] | None:
        t, plain = row(p, "mattis openspiel + obs tensor"), row(p, "mattis openspiel")
        if t is None or plain is None:
            return None
        x = t["dps"] / plain["dps"]
        return f"{x:.2f}x", x >= GOALS["openspiel_tensor"]

    line(f"OpenSpiel + obs tensor ≥ {GOALS['openspiel_tensor']:g}x its no-tensor row (decisions/s)", os_goal)

    def deal_goal(p: str) -> tuple[str, bool] | None:
        d, f, plain = row(p, "openspiel deal"), row(p, "floor: openspiel deal"), row(p, "mattis openspiel")
        if d is None or f is None or plain is None or not d["per"] or not plain["per"]:
            return None
        step, floor_step = 1e6 / d["dps"], 1e6 / f["dps"]  # µs a chance step
        whole = step * d["per"] / plain["per"]
        over = (step - floor_step) * d["per"] / plain["per"]
        return f"{over:.2f} µs ({whole:.2f} in all)", over <= GOALS["deal"]

    line(f"OpenSpiel's deal over its floor ≤ {GOALS['deal']:g} µs a decision (a deal's µs over the same chance "
         "steps of a do-nothing game, per decision of the OpenSpiel row; in all: with the floor)", deal_goal)

    def os_floor_info(p: str) -> tuple[str, bool] | None:
        plain, f = _us(row(p, "mattis openspiel")), _us(row(p, "floor: openspiel"))
        if plain is None or f is None:
            return None
        return f"{plain - f:.1f} µs (floor {f:.1f})", True

    line("OpenSpiel (no tensor): µs a decision over its floor", os_floor_info, inform=True)

    def gym_goal(p: str) -> tuple[str, bool] | None:
        g, f, b = row(p, "mattis gymnasium"), row(p, "floor: gymnasium"), row(p, native) or row(p, engine)
        if g is None or f is None or b is None or not g["per"] or not f["per"] or not b["per"]:
            return None
        over = 1e6 * g["per"] / g["dps"] - 1e6 * f["per"] / f["dps"]
        step = 1e6 * b["per"] / b["dps"] / _batch_size(b["name"])
        x = over / step
        tag = "" if b["name"] == native else f" vs {b['name'].removeprefix('mattis ')}"
        return f"{x:.1f}x ({over:.1f} / {step:.2f} µs{tag})", x <= GOALS["gymnasium"]

    line(f"Gymnasium: µs a learner step over its floor ≤ {GOALS['gymnasium']:g}x the native batched "
         f"x{NATIVE_BATCH}'s µs a learner step (the batched engine x{ENGINE_BATCH} where the native "
         "engine is not built)", gym_goal)

    def floors_info(p: str) -> tuple[str, bool] | None:
        pz, os_, gy = (row(p, f"floor: {k}") for k in ("pettingzoo", "openspiel", "gymnasium"))
        if pz is None or os_ is None or gy is None:
            return None
        return f"{_us(pz):.1f} / {_us(os_):.1f} / {_us(gy):.2f}", True

    line("the floors, µs a decision: PettingZoo / OpenSpiel / Gymnasium (a learner step)", floors_info,
         inform=True)
    return out


def format_goals(rows: list[Printed]) -> str:
    """The goals table (Markdown) of the printed rows (:func:`parse_table`)."""
    lines = goals(rows)
    presets = list(lines[0][1]) if lines else []
    out = ["| goal | " + " | ".join(presets) + " | |", "|---|" + "---:|" * len(presets) + "---|"]
    for goal, cells, verdict in lines:
        v = f"**{verdict}**" if verdict else ""
        out.append(f"| {goal} | " + " | ".join(cells[p] for p in presets) + f" | {v} |")
    return "\n".join(out)


def print_race(rows: list[Row]) -> None:
    """The race table, then the goals table computed from its printed figures."""
    table = format_table(rows)
    print(table)
    print()
    print("The goals (each interface's overhead over its own do-nothing floor, measured in this run):")
    print()
    print(format_goals(parse_table(table)))


def main_race(seconds: float = 3.0, rules: str | list[str] = "mattis", players: int = 3) -> int:
    """Print the race table (for ``mattis bench --vs-openspiel``); returns 0."""
    print(f"Random playouts, {seconds:g} CPU s per row, one process (decisions = player moves, per CPU second; "
          f"a batched row's 'games' are its calls, a Gymnasium row's its learner steps):")
    print_race(race(seconds, rules, players))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m mattis.rl.speed", description="the research interfaces' speed race")
    ap.add_argument("seconds_pos", nargs="?", type=float, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per row (default 3)")
    ap.add_argument("--rules", default="mattis", help="a preset (default mattis), or 'all' (every preset, one table)")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--raw-json", action="store_true",
                    help="measure only the raw engine's row and print it as JSON (one build per process)")
    args = ap.parse_args(argv)
    seconds = args.seconds_pos if args.seconds_pos is not None else args.seconds
    names = list(PRESETS) if args.rules == "all" else [args.rules]
    try:
        for name in names:
            preset(name).check_players(args.players)
    except (RulesError, ValueError) as e:  # one line, no traceback
        print(f"error: {e}", file=sys.stderr)
        return 2
    if seconds <= 0:
        print("error: --seconds must be positive", file=sys.stderr)
        return 2
    if args.raw_json:
        if len(names) != 1:
            print("error: --raw-json measures one preset", file=sys.stderr)
            return 2
        print(json.dumps(raw_row(names[0], args.players, seconds)))
        return 0
    return main_race(seconds, names, args.players)


if __name__ == "__main__":
    sys.exit(main())
