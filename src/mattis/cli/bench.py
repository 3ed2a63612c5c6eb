"""``mattis bench``: engine speed through the public API (a benchmark, not a test)."""

from __future__ import annotations

import argparse
import random
import time

from ..core import PRESETS, Move, Observation, State, preset
from ..play import Referee, play_until
from .args import MAX_PLAYERS, MAX_SECONDS, seconds, seed, whole
from .main import CliError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", default="all", help="a preset, or 'all' (default)")
    p.add_argument("--players", type=whole(1, MAX_PLAYERS), default=3, help="number of players (default 3)")
    p.add_argument("--seconds", type=seconds(0.01, MAX_SECONDS), default=2.0, help="time per preset (default 2)")
    p.add_argument("--seed", type=seed, default=1, help="seed of the random playouts")
    p.add_argument("--vs-openspiel", action="store_true",
                   help="race the research interfaces (OpenSpiel, PettingZoo, Gymnasium, the batched env) "
                        "against OpenSpiel's C++ games instead, one table for --rules/--players (needs the rl extra)")


def playouts(name: str, players: int, seconds: float, seed: int) -> tuple[int, int, float]:
    """Random playouts for ``seconds`` of CPU time: (games, decisions, CPU seconds).

    CPU time, not wall time, so that other work on the machine does not skew it."""
    rules = preset(name)
    rng = random.Random(seed)
    games = decisions = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        s = State.new(rules, players, seed=rng.randrange(2**63))
        while not s.is_over:
            legal = s.legal_moves()
            s.apply(legal[int(rng.random() * len(legal))])
            decisions += 1
        games += 1
    return games, decisions, time.process_time() - start


class _Random:
    """A seeded random agent (chooses from its observation's legal moves)."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, obs: Observation) -> Move:
        legal = obs.legal
        return legal[int(self.rng.random() * len(legal))]


def play_layer_playouts(name: str, players: int, seconds: float, seed: int) -> tuple[int, int, float]:
    """The same random playouts through the play layer (a referee, observations, the
    one loop): what a front end or a research env pays on top of the raw engine."""
    rules = preset(name)
    rng = random.Random(seed)
    agent = _Random(rng)
    agents = dict.fromkeys(range(players), agent)
    games = decisions = 0
    start = time.process_time()
    deadline = start + seconds
    while time.process_time() < deadline:
        referee = Referee.new(rules, players, seed=rng.randrange(2**63))
        decisions += play_until(referee, agents)
        games += 1
    return games, decisions, time.process_time() - start


def clone_micros(name: str, players: int, seed: int) -> float:
    s = State.new(preset(name), players, seed=seed)
    for _ in range(20):
        if not s.is_over:
            s.apply(s.legal_moves()[0])
    n = 200_000
    t = time.process_time()
    for _ in range(n):
        s.clone()
    return (time.process_time() - t) / n * 1e6


def run(args: argparse.Namespace) -> int:
    names = list(PRESETS) if args.rules == "all" else [args.rules]
    for name in names:
        if name not in PRESETS:
            raise CliError(f"unknown rules {name!r}; presets: {', '.join(PRESETS)}")
        if args.players not in preset(name).allowed_players():
            raise CliError(f"{name} does not allow {args.players} players")
    if args.seconds <= 0:
        raise CliError("--seconds must be positive")
    from .. import CORE_BUILD

    print(f"core: {CORE_BUILD}")
    if args.vs_openspiel:
        return _race(names, args.players, args.seconds)
    print(f"random playouts, {args.players} players, one process, per CPU second: the raw engine "
          "(State.legal_moves + apply) and the play layer (Referee + observations + play_until)")
    print(f"{'rules':<12}{'games/s':>10}{'decisions/s':>14}{'clone µs':>10}{'play layer dec/s':>18}")
    for name in names:
        g, d, el = playouts(name, args.players, args.seconds, args.seed)
        _, pd, pel = play_layer_playouts(name, args.players, args.seconds / 2, args.seed)
        print(f"{name:<12}{g / el:>10.0f}{d / el:>14.0f}{clone_micros(name, args.players, args.seed):>10.2f}"
              f"{pd / pel:>18.0f}")
    return 0


def _race(names: list[str], players: int, seconds: float) -> int:
    """The research interfaces' race (``--vs-openspiel``) for these presets: one table.
    The raw engine's row is measured in this process, and, when the core is compiled,
    once more in a subprocess that imports the pure core (``MATTIS_PURE=1``)."""
    import importlib
    import json
    import os
    import subprocess
    import sys

    from .main import install_hint

    try:
        speed = importlib.import_module("mattis.rl.speed")
        for module in ("numpy", "pyspiel", "gymnasium", "pettingzoo"):
            importlib.import_module(module)
    except ImportError as e:
        raise CliError(f"--vs-openspiel needs the optional 'rl' extra ({e.name} is not installed); from the "
                       f"repository's folder install it with: {install_hint('rl')}") from None
    raw_rows = []
    for name in names:
        raw_rows.append(speed.raw_row(name, players, seconds))
        if speed.build_label() != "pure":
            env = {**os.environ, "MATTIS_PURE": "1"}
            done = subprocess.run([sys.executable, "-m", "mattis.rl.speed", "--raw-json", "--rules", name,
                                   "--players", str(players), "--seconds", str(seconds)],
                                  capture_output=True, text=True, env=env, check=False)
            if done.returncode == 0:
                raw_rows.append(json.loads(done.stdout))
    print(f"Random playouts, {seconds:g} CPU s per row, {players} players, one process "
          "(decisions = player moves, per CPU second; a batched row's 'games' are its calls, a Gymnasium row's its "
          "learner steps):")
    print()
    speed.print_race(speed.race(seconds, names, players, raw_rows=raw_rows))
    return 0
