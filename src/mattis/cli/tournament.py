"""``mattis tournament``: bots against each other on duplicate deals.

Every deal is played once per seat rotation with the same deck.  Games run in
one process per core, or as tasks on a Ray cluster with ``--ray ADDRESS``; with
``--out DIR`` each finished game is appended to ``DIR/results.csv`` at once, so
an interrupted run loses nothing and ``--resume`` plays only the games still
missing.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import secrets
import sys
import tempfile
from collections.abc import Sequence

from ..core import Rules, rules_to_json
from ..lab.arena import FIELDS, SEED_SCHEMES, SeatResult, openskill_ratings, paired, play_game, summarize
from ..lab.pool import PoolError, local_workers
from ..play.agents import bot_names, make_bot
from .args import MAX_DEALS, MAX_WORKERS, names, seed, whole
from .common import add_rules_arguments, rules_from_args, run_with_progress
from .main import CliError

RESULTS = "results.csv"
META = "tournament.json"
CHART = "loss_rates.png"


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_rules_arguments(p)
    p.add_argument("--bots", type=names, required=True,
                   help="one bot name or level per seat, comma separated, e.g. ismcts,heuristic,heuristic")
    p.add_argument("--deals", type=whole(1, MAX_DEALS), required=True,
                   help=f"number of deals, at most {MAX_DEALS} (each played once per rotation)")
    p.add_argument("--seed", type=seed, default=None, help="seed for the deals and the bots (reproducible)")
    p.add_argument("--workers", type=whole(1, MAX_WORKERS), default=None,
                   help="processes (default: one per core); with --ray, games running at once "
                        "(default: two per CPU of the cluster)")
    p.add_argument("--ray", metavar="ADDRESS", default=None,
                   help="play the games as tasks on the Ray cluster at ADDRESS (HOST:PORT of its head, "
                        "ray://HOST:PORT, or auto for the local one, started if none runs); needs the ray extra")
    p.add_argument("--out", metavar="DIR", help="write results.csv, tournament.json and loss_rates.png here")
    p.add_argument("--resume", action="store_true", help="continue the run in --out, skipping finished games")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--verbose", action="store_true",
                   help="also show, per bot, the decisions played without search because no deal could be sampled")


Job = tuple[Rules, tuple[str, ...], int, int, int, str]
"""(rules, bots, deal, rotation, seed, seed scheme): one game to play."""


def _task(job: Job) -> list[SeatResult]:
    rules, bots, deal, rotation, seed, scheme = job
    return play_game(rules, bots, deal, rotation, seed, scheme)


def _read_results(path: str, players: int) -> list[SeatResult]:
    """The complete games in a results file (a game cut off mid-write is dropped)."""
    rows: list[SeatResult] = []
    try:
        with open(path, encoding="utf-8", newline="") as f:
            for rec in csv.DictReader(f):
                try:
                    rows.append(SeatResult(int(rec["deal"]), int(rec["rotation"]), int(rec["seat"]), rec["bot"],
                                           int(rec["lost"]), int(rec["place"]), int(rec["decisions"]),
                                           float(rec["think_s"]), rec["end_reason"],
                                           int(rec.get("failed_samples") or 0)))
                except (KeyError, TypeError, ValueError):
                    continue
    except FileNotFoundError:
        return []
    except (OSError, csv.Error) as e:
        raise CliError(f"cannot read {path}: {e}") from None
    count: dict[tuple[int, int], int] = {}
    for r in rows:
        count[(r.deal, r.rotation)] = count.get((r.deal, r.rotation), 0) + 1
    return [r for r in rows if count[(r.deal, r.rotation)] == players]


def _write_rows(f: object, rows: Sequence[SeatResult]) -> None:
    w = csv.writer(f)  # type: ignore[arg-type]
    for r in rows:
        w.writerow([r.deal, r.rotation, r.seat, r.bot, r.lost, r.place, r.decisions, f"{r.think_s:.6f}",
                    r.end_reason, r.failed_samples])


def _rewrite(path: str, rows: Sequence[SeatResult]) -> None:
    """Replace the results file by ``rows`` atomically (drops any half-written game)."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".results-", suffix=".csv")
    with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerow(FIELDS)
        _write_rows(f, rows)
    os.replace(tmp, path)


def _check_args(args: argparse.Namespace) -> tuple[Rules, list[str]]:
    rules = rules_from_args(args)
    n = args.players
    bots = [b.strip().lower() for b in args.bots.split(",") if b.strip()]
    if len(bots) != n:
        raise CliError(f"--bots names {len(bots)} bots for {n} players (give one per seat)")
    for b in bots:
        try:
            make_bot(b, 0)
        except ValueError:
            raise CliError(f"unknown bot {b!r}; choose from {', '.join(bot_names())}") from None
    if args.deals < 1:
        raise CliError("--deals must be at least 1")
    if args.workers is not None and args.workers < 1:
        raise CliError("--workers must be at least 1")
    if args.resume and not args.out:
        raise CliError("--resume needs --out DIR (the folder of the run to continue)")
    if args.ray is not None and not args.ray.strip():
        raise CliError("--ray needs an address: HOST:PORT of the cluster's head, ray://HOST:PORT, or auto")
    return rules, bots


def _prepare_out(args: argparse.Namespace, rules: Rules, bots: list[str]) -> tuple[int, str, list[SeatResult]]:
    """Check or create the output folder; return the seed, the seed scheme and the games
    already done (a run from before the seed scheme was recorded resumes on ``crc32``)."""
    out = args.out
    meta_path = os.path.join(out, META)
    res_path = os.path.join(out, RESULTS)
    meta = {"rules": rules_to_json(rules), "players": args.players, "bots": bots}
    if os.path.exists(meta_path) or os.path.exists(res_path):
        if not args.resume:
            raise CliError(f"{out} already holds a tournament; use --resume to continue it or another --out")
        try:
            with open(meta_path, encoding="utf-8") as f:
                old = json.load(f)
        except (OSError, ValueError) as e:
            raise CliError(f"cannot read {meta_path}: {e}") from None
        if not isinstance(old, dict) or {k: old.get(k) for k in meta} != meta:
            raise CliError(f"{out} holds a different tournament ({old.get('bots') if isinstance(old, dict) else '?'}"
                           f"); the rules, players and bots must match to resume")
        seed = old.get("seed")
        if not isinstance(seed, int):
            raise CliError(f"{meta_path} has no seed")
        if args.seed is not None and args.seed != seed:
            raise CliError(f"--seed {args.seed} differs from the run's seed {seed}")
        scheme = old.get("seed_scheme", "crc32")
        if scheme not in SEED_SCHEMES:
            raise CliError(f"{meta_path} has an unknown seed_scheme {scheme!r}")
        done = _read_results(res_path, args.players)
        _rewrite(res_path, done)
    else:
        try:
            os.makedirs(out, exist_ok=True)
        except OSError as e:
            raise CliError(f"cannot create {out}: {e.strerror}") from None
        seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
        scheme = SEED_SCHEMES[0]
        done = []
        _rewrite(res_path, done)
    meta["seed"] = seed
    meta["seed_scheme"] = scheme
    meta["deals"] = max(args.deals, max((r.deal + 1 for r in done), default=0))
    with open(meta_path, "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=1)
    return seed, scheme, done


def run(args: argparse.Namespace) -> int:
    rules, bots = _check_args(args)
    n = args.players
    if args.ray is not None:  # before the output folder is touched
        from ..lab.ray_pool import preflight

        try:
            preflight(args.ray)
        except PoolError as e:
            raise CliError(str(e)) from None
    if args.out:
        seed, scheme, done = _prepare_out(args, rules, bots)
    else:
        seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
        scheme = SEED_SCHEMES[0]
        done = []
    finished = {(r.deal, r.rotation) for r in done}
    jobs: list[Job] = [(rules, tuple(bots), d, rot, seed, scheme) for d in range(args.deals) for rot in range(n)
            if (d, rot) not in finished]
    if args.ray is not None:
        workers = args.workers
        where = f"the Ray cluster at {args.ray}"
    else:
        workers = local_workers(args.workers, len(jobs))
        where = f"{workers} process(es)"
    rows = list(done)
    out_file = open(os.path.join(args.out, RESULTS), "a", encoding="utf-8", newline="") if args.out else None
    print(f"tournament: {rules.name}, {n} players, bots {','.join(bots)}, {args.deals} deals x {n} rotations, "
          f"seed {seed}; {len(finished)} games done, {len(jobs)} to play on {where}",
          file=sys.stderr)
    interrupted = False
    failure: PoolError | None = None
    try:
        def keep(res: list[SeatResult]) -> None:
            rows.extend(res)
            if out_file is not None:
                _write_rows(out_file, res)
                out_file.flush()

        try:
            interrupted = run_with_progress(_task, jobs, workers, args.ray, keep, disable=args.no_progress)
        except PoolError as e:
            failure = e
    finally:
        if out_file is not None:
            out_file.close()
    if failure is not None:
        kept = f"; the {len({(r.deal, r.rotation) for r in rows})} finished games are kept, continue with: " \
               f"{resume_command(args)}" if args.out else ""
        raise CliError(f"{failure}{kept}")
    _report(rows, bots, n, args.out, verbose=args.verbose)
    if interrupted:
        where = f"; continue with: {resume_command(args)}" if args.out else ""
        print(f"interrupted: {len({(r.deal, r.rotation) for r in rows})} games finished{where}", file=sys.stderr)
        return 130
    return 0


def resume_command(args: argparse.Namespace) -> str:
    """The command line that continues an interrupted run in ``--out``."""
    import shlex

    words = ["mattis", "tournament", "--rules", args.rules]
    for item in args.overrides:
        words += ["--set", item]
    words += ["--players", str(args.players), "--bots", args.bots, "--deals", str(args.deals)]
    if args.workers is not None:
        words += ["--workers", str(args.workers)]
    if args.ray is not None:
        words += ["--ray", args.ray]
    words += ["--out", args.out, "--resume"]
    return shlex.join(words)


def _report(rows: list[SeatResult], bots: list[str], n: int, out: str | None, verbose: bool = False) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(markup=False)  # bot names and install hints hold [brackets]
    if not rows:
        console.print("no games played")
        return
    summary = summarize(rows)
    table = Table(title=f"{len(rows) // n} games")
    for col in ("bot", "games", "loss rate", "95% interval", "mean place", "think ms/decision"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for s in summary:
        table.add_row(s.bot, str(s.games), f"{100 * s.loss_rate:.1f}%", f"{100 * s.low:.1f}-{100 * s.high:.1f}%",
                      f"{s.mean_place:.2f}", f"{s.think_ms:.2f}")
    console.print(table)
    if verbose:
        failed: dict[str, list[int]] = {}
        for r in rows:
            cell = failed.setdefault(r.bot, [0, 0])
            cell[0] += r.failed_samples
            cell[1] += r.decisions
        console.print("failed samples (decisions played without search): "
                      + ", ".join(f"{b} {k} of {d}" for b, (k, d) in failed.items()), soft_wrap=True)
    distinct = list(dict.fromkeys(bots))
    if len(distinct) >= 2:
        p = paired(rows, distinct[0], distinct[1], n)
        console.print(f"paired on {p.deals} complete deals: loss rate {p.a} - {p.b} = {100 * p.diff:+.1f} points "
                      f"(95% interval {100 * p.low:+.1f} to {100 * p.high:+.1f})")
    try:
        ratings = openskill_ratings(rows)
        console.print("OpenSkill: " + ", ".join(f"{b} {mu:.1f}±{sigma:.1f}"
                                                for b, (mu, sigma) in sorted(ratings.items(), key=lambda x: -x[1][0])))
    except ImportError:
        console.print("OpenSkill: not installed")
    if out:
        try:
            _chart(summary, os.path.join(out, CHART), n, len(rows) // n)
        except ImportError:
            console.print("chart: matplotlib is not installed (pip install '.[bots]')", markup=False)


def _chart(summary: Sequence[object], path: str, n: int, games: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..lab.arena import BotSummary

    ss = [s for s in summary if isinstance(s, BotSummary)]
    fig, ax = plt.subplots(figsize=(max(4.0, 1.4 * len(ss) + 2), 3.5))
    xs = list(range(len(ss)))
    rates = [100 * s.loss_rate for s in ss]
    err = [[100 * (s.loss_rate - s.low) for s in ss], [100 * (s.high - s.loss_rate) for s in ss]]
    ax.bar(xs, rates, color="#7a9cc6")
    ax.errorbar(xs, rates, yerr=err, fmt="none", ecolor="black", capsize=5)
    ax.axhline(100 / n, color="gray", linestyle="--", linewidth=1, label=f"1/{n}")
    ax.set_xticks(xs, [s.bot for s in ss])
    ax.set_ylabel("loss rate (%), 95% Wilson interval")
    ax.set_title(f"{games} games")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
