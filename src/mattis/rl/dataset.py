"""A dataset of bot games for offline RL and imitation: every decision's observation
tensor, legal-action mask and action, and every game's outcome, in one NumPy ``.npz``
file (seeded: the same command writes the same arrays).

    python -m mattis.rl.dataset --out expert.npz --bots expert --games 100 --seed 1

Each seat is played by a bot of the project (``--bots``: one name or level for every
seat, or one per seat, comma-separated), through the one play loop's
:func:`~mattis.play.next_move` (each bot sees only its seat's observation).  Game
``g`` is dealt from seed ``derive_seed(seed, "deal", g)`` with dealer ``g % players``,
seat ``s``'s bot seeded ``derive_seed(seed, "bot", g, s)``
(:func:`mattis.play.derive_seed`), so a game can be dealt again and its moves replayed
from the file alone.

The schema (``D`` decisions of every seat in game order, ``G`` games, ``N`` the
observation size of :func:`mattis.rl.encoding.obs_size`, ``A`` the actions of
:class:`mattis.rl.encoding.ActionSpace`):

==================  ==============  ====================================================
array               shape, dtype    what
==================  ==============  ====================================================
``obs``             (D, N) float32  the acting seat's observation tensor
                                    (:func:`mattis.rl.encoding.encode`), before its move
``mask``            (D, A) bool     its legal actions there
``action``          (D,) int16      the action it took (always legal under ``mask``)
``seat``            (D,) int8       the acting seat
``game``            (D,) int32      the game (0 .. G-1); decisions are in game order
``ply``             (D,) int32      the move's number in its game (0, 1, ...)
``outcome``         (D,) float32    the acting seat's return at the game's end: -1 if it
                                    lost, else 0 (the rewards of the PettingZoo and
                                    OpenSpiel interfaces)
``deal_seed``       (G,) int64      the deal's seed (``State.new(rules, players, seed,
                                    dealer)`` deals it again)
``dealer``          (G,) int8       the dealer
``losers``          (G, P) bool     the seats that lost
``truncated``       (G,) bool       ended by the phase 2 cap (a time limit)
``termination``     (G,) str        how the game ended (``Termination`` values)
``moves``           (G,) int32      the moves of the game
``meta``            () str          JSON: rules (preset, overrides, the full rule set),
                                    players, bots, seed, card order, sizes, the schema
                                    version and the command that wrote it
==================  ==============  ====================================================

NPZ rather than Parquet: NumPy is already the research extra's (Parquet would add
pyarrow, about 100 MB), every column is a fixed-width array that one call loads, and
``np.load(path)["obs"]`` is what a PyTorch or JAX loader wants.  The file is
compressed (``savez_compressed``): the tensors are mostly 0/1.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core import RulesError, State
from ..play import Referee, derive_seed, make_bot, next_move
from .common import is_truncated, make_rules
from .encoding import ActionSpace, Encoder, check_card_order, obs_size

SCHEMA = 1
"""The version of the file's layout (``meta["schema"]``)."""

ARRAYS = ("obs", "mask", "action", "seat", "game", "ply", "outcome", "deal_seed", "dealer", "losers", "truncated",
          "termination", "moves")
"""The arrays of a dataset file (besides ``meta``)."""


def write_dataset(path: str | Path, *, rules: str = "mattis", overrides: str | None = None, players: int = 3,
                  bots: str | Sequence[str] = "expert", games: int = 10, seed: int = 0,
                  card_order: str = "suit_major", command: str = "") -> dict[str, Any]:
    """Play ``games`` seeded games of bots and write them to ``path`` (``.npz``); returns
    the file's ``meta``.  Raises ``ValueError`` (or :class:`~mattis.core.RulesError`)
    for bad arguments, before playing."""
    r = make_rules(rules, overrides)
    r.check_players(players)
    check_card_order(card_order)
    names = [b.strip() for b in (bots.split(",") if isinstance(bots, str) else bots)]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ValueError(f"--bots names {len(names)} bots for {players} players (give one, or one per seat)")
    for name in names:
        make_bot(name, 0)  # an unknown name raises ValueError now
    if games < 1:
        raise ValueError("--games must be at least 1")
    space = ActionSpace(r, card_order)
    obs_rows: list[npt.NDArray[np.float32]] = []
    mask_rows: list[npt.NDArray[np.int8]] = []
    action: list[int] = []
    seat_of: list[int] = []
    game_of: list[int] = []
    ply: list[int] = []
    outcome: list[float] = []
    deal_seed: list[int] = []
    dealer: list[int] = []
    losers = np.zeros((games, players), np.bool_)
    truncated: list[bool] = []
    termination: list[str] = []
    moves: list[int] = []
    for g in range(games):
        ds = derive_seed(seed, "deal", g)
        assert ds is not None
        ref = Referee(State.new(r, players, seed=ds, dealer=g % players))
        agents = {s: make_bot(names[s], derive_seed(seed, "bot", g, s)) for s in range(players)}
        encoders = [Encoder(players, card_order) for _ in range(players)]
        first = len(action)
        made = 0
        while True:
            seat = ref.to_act
            if seat is None:
                break
            obs = ref.observation(seat)
            obs_rows.append(encoders[seat].encode(obs).copy())
            mask_rows.append(space.mask(obs.legal))
            chosen = next_move(ref, agents)
            assert chosen is not None and chosen[0] == seat
            action.append(space.action(chosen[1]))
            ref.apply(seat, chosen[1])
            seat_of.append(seat)
            game_of.append(g)
            ply.append(made)
            made += 1
        over = ref.outcome
        assert over is not None
        for s in over.losers:
            losers[g, s] = True
        outcome.extend(-1.0 if losers[g, s] else 0.0 for s in seat_of[first:])
        deal_seed.append(ds)
        dealer.append(g % players)
        truncated.append(is_truncated(over.termination))
        termination.append(over.termination.value)
        moves.append(made)
    meta: dict[str, Any] = {
        "schema": SCHEMA, "rules": rules, "overrides": overrides or "", "rule_set": asdict(r), "players": players,
        "bots": names, "games": games, "seed": seed, "card_order": card_order, "obs_size": obs_size(players),
        "actions": space.size, "decisions": len(action), "command": command,
    }
    arrays: dict[str, Any] = {
        "obs": np.asarray(obs_rows, np.float32).reshape(len(action), obs_size(players)),
        "mask": np.asarray(mask_rows, np.bool_).reshape(len(action), space.size),
        "action": np.asarray(action, np.int16), "seat": np.asarray(seat_of, np.int8),
        "game": np.asarray(game_of, np.int32), "ply": np.asarray(ply, np.int32),
        "outcome": np.asarray(outcome, np.float32), "deal_seed": np.asarray(deal_seed, np.int64),
        "dealer": np.asarray(dealer, np.int8), "losers": losers, "truncated": np.asarray(truncated, np.bool_),
        "termination": np.asarray(termination, np.str_), "moves": np.asarray(moves, np.int32),
        "meta": np.asarray(json.dumps(meta, default=str), np.str_),
    }
    with open(path, "wb") as f:  # np.savez_compressed would add ".npz" to a name without it
        np.savez_compressed(f, **arrays)
    return meta


def read_dataset(path: str | Path) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
    """A dataset file's arrays (:data:`ARRAYS`) and its ``meta`` (no pickled objects
    are read: ``allow_pickle=False``)."""
    with np.load(path, allow_pickle=False) as f:
        arrays = {k: f[k] for k in ARRAYS}
        meta: dict[str, Any] = json.loads(str(f["meta"]))
    return arrays, meta


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m mattis.rl.dataset",
                                 description="write a dataset of bot games (observations, masks, actions, "
                                             "outcomes) as a NumPy .npz file")
    ap.add_argument("--out", required=True, help="the file to write (.npz)")
    ap.add_argument("--rules", default="mattis", help="a preset (default mattis)")
    ap.add_argument("--set", dest="overrides", default=None, metavar="OPTIONS",
                    help="rule overrides, e.g. 'sequences=3,pickup=last'")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--bots", default="expert",
                    help="a bot name or level for every seat, or one per seat, comma-separated (default expert)")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--card-order", default="suit_major", help="suit_major (default) or rank_major")
    args = ap.parse_args(argv)
    command = "python -m mattis.rl.dataset " + " ".join(shlex.quote(a) for a in (sys.argv[1:] if argv is None
                                                                                 else argv))
    out = Path(args.out)
    if not out.parent.is_dir():
        print(f"error: no such folder: {out.parent}", file=sys.stderr)
        return 2
    start = time.process_time()
    try:
        meta = write_dataset(out, rules=args.rules, overrides=args.overrides, players=args.players, bots=args.bots,
                             games=args.games, seed=args.seed, card_order=args.card_order, command=command)
    except (RulesError, ValueError, OSError) as e:  # one line, no traceback
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"{out}: {meta['games']} games, {meta['decisions']} decisions ({args.rules}, {args.players} players, "
          f"bots {','.join(meta['bots'])}, seed {args.seed}), {out.stat().st_size / 1e6:.2f} MB; "
          f"{time.process_time() - start:.1f} CPU s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
