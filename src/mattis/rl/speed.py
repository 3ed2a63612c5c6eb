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
  information-state tensor).

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


def _timed(name: str, detail: str, seconds: float, one_game: Game, preset_name: str | None = None) -> Row:
    games = decisions = 0
    start = time.process_time()
    wall = time.perf_counter()
    deadline = start + seconds
    while True:
        decisions += one_game(games)
        games += 1
        now = time.process_time()
        if now >= deadline:
            break
    elapsed = now - start
    wall = time.perf_counter() - wall
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


def _pettingzoo(rules_name: str, players: int) -> Game:
    import numpy as np

    from .pettingzoo_env import env as make_env

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


def _gymnasium(rules_name: str, players: int) -> Game:
    import numpy as np

    from .gym_env import MattisEnv

    env = MattisEnv(rules=rules_name, players=players, opponents="random", seat="rotate")
    rand = random.Random(1).random
    env.reset(seed=0)

    def game(i: int) -> int:
        before = env.decisions
        while True:
            legal = np.flatnonzero(env.action_masks())
            _obs, _r, term, trunc, _info = env.step(int(legal[int(rand() * len(legal))]))
            if term or trunc:
                break
        env.reset()
        return env.decisions - before

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
        from . import openspiel_game  # noqa: F401  (registers python_mattis)
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


def plan(rules: str, players: int, raw: bool = True) -> list[tuple[str, str, Callable[[], Game]]]:
    """The rows of one rule set (name, detail, builder)."""
    spec = f"python_mattis(rules={rules},players={players})"
    tag = f"{rules} {players}p"
    rows: list[tuple[str, str, Callable[[], Game]]] = []
    if raw:
        rows.append((f"mattis raw ({build_label()})", f"{tag}, legal_moves()+apply()", lambda: _raw(rules, players)))
    rows += [
        ("mattis openspiel", f"{tag}, python_mattis via pyspiel", lambda: _openspiel(spec)),
        ("mattis openspiel + obs tensor", f"{tag}, observation tensor each decision",
         lambda: _openspiel(spec, "obs")),
        ("mattis openspiel + infostate tensor", f"{tag}, information-state tensor each decision",
         lambda: _openspiel(spec, "info")),
        ("mattis pettingzoo", f"{tag}, mattis_v0 env.last()+step()", lambda: _pettingzoo(rules, players)),
        ("mattis gymnasium", f"{tag}, MattisEnv step() vs random opponents", lambda: _gymnasium(rules, players)),
        (f"mattis batched x{BATCH}", f"{tag}, MattisVectorEnv step() vs random opponents",
         lambda: _batched(rules, players, BATCH)),
        (f"mattis batched engine x{ENGINE_BATCH}", f"{tag}, BatchedGames step(), tensors and masks, "
         "vs random opponents", lambda: _batched_engine(rules, players, ENGINE_BATCH)),
        (f"mattis native batched x{NATIVE_BATCH}", f"{tag}, BatchedGames(engine='native') step(), tensors and "
         "masks, vs random opponents", lambda: _batched_engine(rules, players, NATIVE_BATCH, "native")),
    ]
    return rows


OPENSPIEL_ROWS: list[tuple[str, str, Callable[[], Game]]] = [
    ("crazy_eights", "OpenSpiel C++ (5 players) via pyspiel", lambda: _openspiel("crazy_eights")),
    ("crazy_eights + obs tensor", "observation tensor each decision", lambda: _openspiel("crazy_eights", "obs")),
    ("hearts", "OpenSpiel C++ (4 players) via pyspiel", lambda: _openspiel("hearts")),
    ("hearts + infostate tensor", "information-state tensor each decision (hearts has no observation tensor)",
     lambda: _openspiel("hearts", "info")),
]


def race(seconds_per_row: float = 3.0, rules: str | list[str] = "mattis", players: int = 3,
         raw_rows: list[Row] | None = None) -> list[Row]:
    """Run every row for about ``seconds_per_row`` seconds; rows that need a missing
    package are reported with ``decisions_per_s = None`` and the reason.  ``rules``
    may name several presets (their rows come one after another, OpenSpiel's games
    once at the end).  ``raw_rows`` (measured elsewhere, e.g. in a subprocess per
    build) replace the in-process raw row when given."""
    names = [rules] if isinstance(rules, str) else list(rules)
    todo: list[tuple[str | None, str, str, Callable[[], Game]]] = []
    for name in names:
        todo += [(name, *row) for row in plan(name, players, raw=raw_rows is None)]
    todo += [(None, *row) for row in OPENSPIEL_ROWS]
    rows: list[Row] = [dict(r) for r in raw_rows or []]
    for r in rows:  # a raw row measured elsewhere names its preset (older rows: the first word of the detail)
        r.setdefault("preset", str(r["detail"]).split(" ")[0])
    for preset_name, name, detail, build in todo:
        try:
            game = build()
        except ImportError as e:
            rows.append({"name": name, "detail": f"skipped: {e}", "preset": preset_name, "games": 0,
                         "decisions": 0, "seconds": 0.0, "decisions_per_s": None})
            continue
        rows.append(_timed(name, detail, seconds_per_row, game, preset_name))
    _ratios(rows)
    return rows


def _ratios(rows: list[Row]) -> None:
    """``ratio_vs_crazy_eights`` for every row; ``ratio_vs_raw``: a mattis row against
    the first raw row of its own preset (the compiled one when both builds were
    measured), an OpenSpiel tensor row against the same game without the tensor."""
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
        elif " + " in r["name"]:
            plain = next((q["decisions_per_s"] for q in rows if q["name"] == r["name"].split(" + ")[0]), None)
            r["ratio_vs_raw"] = d / plain if plain and d is not None else None
        else:
            r["ratio_vs_raw"] = 1.0 if d is not None else None


def format_table(rows: list[Row]) -> str:
    """The race as a Markdown table.  ``vs raw``: a mattis row against the raw engine,
    an OpenSpiel tensor row against the same game without the tensor."""
    lines = ["| row | what | games | decisions/s | vs crazy_eights | vs raw |", "|---|---|---:|---:|---:|---:|"]
    for r in rows:
        dps = "-" if r["decisions_per_s"] is None else f"{r['decisions_per_s']:,.0f}"
        ratio = "-" if r.get("ratio_vs_crazy_eights") is None else f"{r['ratio_vs_crazy_eights']:.2f}x"
        vs_raw = "-" if r.get("ratio_vs_raw") is None else f"{r['ratio_vs_raw']:.2f}x"
        lines.append(f"| {r['name']} | {r['detail']} | {r['games']} | {dps} | {ratio} | {vs_raw} |")
    return "\n".join(lines)


def main_race(seconds: float = 3.0, rules: str | list[str] = "mattis", players: int = 3) -> int:
    """Print the race table (for ``mattis bench --vs-openspiel``); returns 0."""
    print(f"Random playouts, {seconds:g} CPU s per row, one process (decisions = player moves, per CPU second; "
          f"a batched row's 'games' are its calls):")
    print(format_table(race(seconds, rules, players)))
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
