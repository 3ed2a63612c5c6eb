"""A speed race: random playouts of our engine beside OpenSpiel's C++ card games.

Every row plays whole games with uniformly random legal moves for about
``seconds_per_row`` seconds, in this one process, and counts player decisions
(chance steps are timed but not counted).  Time is this process's CPU time
(``time.process_time``), so other work on a shared machine does not skew a row.  Rows:

* ``mattis raw``: the engine's own API, ``legal_moves()`` + ``apply()``;
* ``mattis pettingzoo``: the ``mattis_v0`` AEC env, an agent loop reading
  ``env.last()`` (observation tensor + action mask) every step;
* ``mattis openspiel``: ``python_mattis`` through pyspiel (52 deal chance steps sampled);
* ``crazy_eights`` and ``hearts``: OpenSpiel's C++ games through the same pyspiel loop.

``python -m mattis.rl.speed 3`` or ``python benchmarks/rl_speed_race.py`` print the table.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from typing import Any

from ..core import State, preset

Row = dict[str, Any]


def _timed(name: str, detail: str, seconds: float, one_game: Callable[[int], int]) -> Row:
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
    return {"name": name, "detail": detail, "games": games, "decisions": decisions,
            "seconds": elapsed, "wall_seconds": wall, "decisions_per_s": decisions / elapsed}


def _raw(rules_name: str, players: int) -> Callable[[int], int]:
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


def _pettingzoo(rules_name: str, players: int) -> Callable[[int], int]:
    import numpy as np

    from .pettingzoo_env import env as make_env

    e = make_env(rules=rules_name, players=players)
    rng = np.random.default_rng(1)

    def game(i: int) -> int:
        e.reset(seed=i)
        n = 0
        for _agent in e.agent_iter():
            obs, _r, term, trunc, _info = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            n += 1
        return n

    return game


def _openspiel(game_string: str) -> Callable[[int], int]:
    import pyspiel

    if game_string.startswith("python_mattis"):
        from . import openspiel_game  # noqa: F401  (registers python_mattis)
    g = pyspiel.load_game(game_string)
    rng = random.Random(1)

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
                s.apply_action(choice(s.legal_actions()))
                n += 1
        return n

    return game


def race(seconds_per_row: float = 3.0, rules: str = "mattis", players: int = 3) -> list[Row]:
    """Run every row for about ``seconds_per_row`` seconds; rows that need a missing
    package are reported with ``decisions_per_s = None`` and the reason."""
    plan: list[tuple[str, str, Callable[[], Callable[[int], int]]]] = [
        ("mattis raw", f"{rules} {players}p, legal_moves()+apply()", lambda: _raw(rules, players)),
        ("mattis pettingzoo", f"mattis_v0 {rules} {players}p, env.last()+step()", lambda: _pettingzoo(rules, players)),
        ("mattis openspiel", f"python_mattis {rules} {players}p via pyspiel",
         lambda: _openspiel(f"python_mattis(rules={rules},players={players})")),
        ("crazy_eights", "OpenSpiel C++ (5 players) via pyspiel", lambda: _openspiel("crazy_eights")),
        ("hearts", "OpenSpiel C++ (4 players) via pyspiel", lambda: _openspiel("hearts")),
    ]
    rows: list[Row] = []
    for name, detail, build in plan:
        try:
            game = build()
        except ImportError as e:
            rows.append({"name": name, "detail": f"skipped: {e}", "games": 0, "decisions": 0,
                         "seconds": 0.0, "decisions_per_s": None})
            continue
        rows.append(_timed(name, detail, seconds_per_row, game))
    base = next((r["decisions_per_s"] for r in rows if r["name"] == "crazy_eights"), None)
    for r in rows:
        r["ratio_vs_crazy_eights"] = (r["decisions_per_s"] / base
                                      if base and r["decisions_per_s"] is not None else None)
    return rows


def format_table(rows: list[Row]) -> str:
    """The race as a Markdown table."""
    lines = ["| row | what | games | decisions/s | vs crazy_eights |", "|---|---|---:|---:|---:|"]
    for r in rows:
        dps = "-" if r["decisions_per_s"] is None else f"{r['decisions_per_s']:,.0f}"
        ratio = "-" if r.get("ratio_vs_crazy_eights") is None else f"{r['ratio_vs_crazy_eights']:.2f}x"
        lines.append(f"| {r['name']} | {r['detail']} | {r['games']} | {dps} | {ratio} |")
    return "\n".join(lines)


def main_race(seconds: float = 3.0) -> int:
    """Print the race table (for ``mattis bench --vs-openspiel``); returns 0."""
    print(f"Random playouts, {seconds:g} CPU s per row, one process (decisions = player moves, per CPU second):")
    print(format_table(race(seconds)))
    return 0


if __name__ == "__main__":
    sys.exit(main_race(float(sys.argv[1]) if len(sys.argv) > 1 else 3.0))
