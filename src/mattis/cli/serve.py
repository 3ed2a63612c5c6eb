"""``mattis serve``: the web table (see docs/web.md)."""

from __future__ import annotations

import argparse
import dataclasses
import os
from pathlib import Path
from typing import TYPE_CHECKING

from .args import number, seconds, whole

if TYPE_CHECKING:
    from ..web.limits import Limits


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1; 0.0.0.0 for your home network)")
    parser.add_argument("--port", type=whole(1, 65535), default=8000, help="port (default 8000)")
    parser.add_argument("--db", default="mattis-web.db",
                        help="the event log: a SQLite file (default mattis-web.db) or a PostgreSQL URL "
                             "(postgresql://USER@HOST/DB), which several workers can share")
    parser.add_argument("--workers", type=whole(1, 64), default=1, metavar="N",
                        help="worker processes sharing the port (default 1; more than 1 needs a "
                             "postgresql:// --db)")
    parser.add_argument("--bot-processes", type=whole(0, 64), default=None, metavar="N",
                        help="processes per worker the bots think in (default 1 with PostgreSQL; "
                             "0: a thread of the worker, the default with SQLite)")
    parser.add_argument("--bot-delay", type=seconds(0, 60), default=0.8, metavar="SECONDS",
                        help="pause before each bot move, so people can follow (default 0.8)")
    parser.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                        help="a host name the server answers to (repeatable), e.g. the name of your reverse "
                             "proxy; always allowed: localhost and the --host address (and any IP address "
                             "when --host is 0.0.0.0)")
    parser.add_argument("--behind-proxy", nargs="?", const="127.0.0.1", default=None, metavar="ADDRESS",
                        help="trust X-Forwarded-For/-Proto from the reverse proxy at ADDRESS (default 127.0.0.1): "
                             "the client's address and https come from the proxy")
    parser.add_argument("--max-connections", type=whole(16, 1_000_000), default=None, metavar="N",
                        help="open sockets in all (default 4000; the file limit is raised to fit)")
    parser.add_argument("--keep-days", type=number(0.001, 36500, "a number of days"), default=None, metavar="DAYS",
                        help="delete a table with no event for DAYS days (default 30; "
                             "a table never started: after 24 hours)")
    parser.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                        help="change one of the server's limits (repeatable; see docs/web.md), "
                             "e.g. --limit message_rate=20")
    parser.add_argument("--solo", default=None, metavar="DIR",
                        help="also serve the offline app built by mattis build-web DIR, at /solo/")
    parser.add_argument("--test-mode", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--profile-dir", default=None, help=argparse.SUPPRESS)  # cProfile each worker (benchmarks)


def limits_from_args(args: argparse.Namespace) -> Limits:
    """The guard's :class:`~mattis.web.limits.Limits` from ``--limit``, ``--max-connections``, ``--keep-days``."""
    from ..web.limits import Limits
    from .main import CliError

    fields = {f.name: f for f in dataclasses.fields(Limits)}
    changes: dict[str, float | int] = {}
    for item in args.limit:
        name, sep, raw = item.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or name not in fields:
            raise CliError(f"--limit takes NAME=VALUE with NAME one of: {', '.join(fields)}")
        kind = int if fields[name].type in ("int", int) else float
        try:
            value = kind(raw)
        except ValueError:
            raise CliError(f"--limit {name} must be a number{' (whole)' if kind is int else ''}, "
                           f"not {raw[:20]!r}") from None
        if not 0 < value <= 1e9:  # nan and inf too
            raise CliError(f"--limit {name} must be above 0 and at most 1e9, not {raw[:20]!r}")
        changes[name] = value
    if args.max_connections is not None:
        if args.max_connections < 16:
            raise CliError("--max-connections must be at least 16")
        changes["max_connections"] = args.max_connections
    if args.keep_days is not None:
        if not args.keep_days > 0:
            raise CliError("--keep-days must be above 0")
        changes["keep_days"] = args.keep_days
    if args.test_mode:  # test clients play flat out from one address (see limits.TEST_SERVER)
        from ..web.limits import TEST_SERVER

        for name, value in TEST_SERVER.items():
            changes.setdefault(name, value)
    return Limits(**changes)  # type: ignore[arg-type]


def run(args: argparse.Namespace) -> int:
    from .main import CliError

    if not 0 < args.port < 65536:
        raise CliError(f"port must be 1..65535, not {args.port}")
    if not 0 <= args.bot_delay <= 60:
        raise CliError("--bot-delay must be 0..60 seconds")
    if args.solo is not None and not os.path.isfile(os.path.join(args.solo, "sw.js")):
        raise CliError(f"--solo {args.solo}: no offline app there (build it with: mattis build-web {args.solo})")
    postgres = args.db.startswith(("postgresql://", "postgres://"))
    if not postgres:
        db_dir = os.path.dirname(os.path.abspath(args.db))
        if not os.path.isdir(db_dir):
            raise CliError(f"no such folder for --db: {db_dir}")
    if not 1 <= args.workers <= 64:
        raise CliError("--workers must be 1..64")
    if args.workers > 1 and not postgres:
        raise CliError("several --workers need a shared PostgreSQL database: --db postgresql://USER@HOST/DB "
                       "(a SQLite file has one writer)")
    if args.bot_processes is None:
        args.bot_processes = 1 if postgres else 0
    if not 0 <= args.bot_processes <= 64:
        raise CliError("--bot-processes must be 0..64")
    try:
        import uvicorn  # noqa: F401 (checked here, used by each worker)

        from ..web.app import create_app  # noqa: F401
        from ..web.database import describe, open_store
        from ..web.doorman import raise_file_limit
        from ..web.store import StoreError
    except ImportError as e:
        from .main import install_hint

        raise CliError(f"needs the optional 'web' extra ({e.name} is not installed); from the repository's "
                       f"folder install it with: {install_hint('web')}") from None
    limits = limits_from_args(args)
    for name in args.allowed_host:
        if not name or any(c in name for c in "/@ \t"):
            raise CliError(f"--allowed-host takes a host name, not {name[:40]!r}")
    try:
        open_store(args.db).close()
    except StoreError as e:
        raise CliError(str(e)) from None
    import socket

    try:  # a clear message for a port in use, before uvicorn starts
        with socket.create_server((args.host, args.port)):
            pass
    except OSError as e:
        raise CliError(f"cannot listen on {args.host}:{args.port}: {e.strerror}") from None
    files = raise_file_limit(limits.max_connections + 64)
    if files < limits.max_connections + 64:
        limits = dataclasses.replace(limits, max_connections=max(16, files - 64))
        print(f"mattis serve: the file limit is {files}: at most {limits.max_connections} connections", flush=True)
    where = describe(args.db) if postgres else str(Path(args.db).resolve())
    workers = f"; {args.workers} workers" if args.workers > 1 else ""
    print(f"mattis serve: http://{args.host}:{args.port}/  (event log {where}{workers}; Ctrl-C stops)", flush=True)
    if args.workers > 1:
        return supervise(args, limits)
    serve_worker(args, limits, reuse_port=False)
    return 0


def serve_worker(args: argparse.Namespace, limits: Limits, reuse_port: bool) -> None:
    """One worker: the app on its own event loop; with ``reuse_port`` it shares the port with
    the other workers (SO_REUSEPORT: the kernel spreads new connections over them)."""
    if args.profile_dir:
        import cProfile

        profile = cProfile.Profile()
        profile.enable()
        try:
            _serve_worker(args, limits, reuse_port)
        finally:
            profile.disable()
            profile.dump_stats(os.path.join(args.profile_dir, f"worker-{os.getpid()}.prof"))
        return
    _serve_worker(args, limits, reuse_port)


def _serve_worker(args: argparse.Namespace, limits: Limits, reuse_port: bool) -> None:
    import socket

    import uvicorn

    from ..web import fairness
    from ..web.app import create_app
    from ..web.doorman import guarded_protocol
    from ..web.netlog import quiet_network_events
    from ..web.origin import Hosts
    from .main import CliError

    hosts = Hosts.default(args.host, args.allowed_host)
    app = create_app(args.db, args.bot_delay, args.test_mode, limits=limits, hosts=hosts,
                     bot_processes=args.bot_processes)
    if args.solo is not None:  # the offline app (mattis build-web): static files, its own service worker
        import mimetypes

        from fastapi.staticfiles import StaticFiles

        mimetypes.add_type("application/wasm", ".wasm")
        app.mount("/solo", StaticFiles(directory=args.solo, html=True), name="solo")
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                            # first-request timeout, silent-socket caps, flooders' addresses closed at once
                            http=guarded_protocol(limits, app.state.hub.gate.bans),
                            # uvicorn's maintained one (the legacy "websockets" one is deprecated, and
                            # with websockets 16 it fails on a socket dropped mid-handshake)
                            ws=fairness.paced_ws_protocol(),  # websockets-sansio, parsed as the app reads
                            ws_max_size=limits.max_message, ws_per_message_deflate=False,
                            timeout_keep_alive=5, backlog=2048,
                            proxy_headers=args.behind_proxy is not None,
                            forwarded_allow_ips=args.behind_proxy or "127.0.0.1")
    quiet_network_events()  # a dropped or reset socket, bad UTF-8: one debug line, no traceback
    try:
        if not reuse_port:
            uvicorn.Server(config).run()
            return
        family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((args.host, args.port))
        sock.listen(2048)
        sock.set_inheritable(True)
        uvicorn.Server(config).run(sockets=[sock])
    except OSError as e:
        raise CliError(f"cannot listen on {args.host}:{args.port}: {e.strerror}") from None


def _worker_main(args: argparse.Namespace, limits: Limits) -> None:
    import signal

    from ..lab.pool import follow_parent

    follow_parent()  # a supervisor killed outright (kill -9) must not leave its workers holding the port
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the supervisor stops the workers with SIGTERM

    def done(signum: int, frame: object) -> None:  # uvicorn raises it again after its graceful shutdown
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, done)
    serve_worker(args, limits, reuse_port=True)


def supervise(args: argparse.Namespace, limits: Limits) -> int:
    """Start ``--workers`` processes on the one port, start again any that dies, stop them
    all on Ctrl-C or SIGTERM."""
    import multiprocessing
    import signal
    import time

    if not hasattr(__import__("socket"), "SO_REUSEPORT"):
        from .main import CliError

        raise CliError("several --workers need SO_REUSEPORT (Linux, macOS, BSD); start one worker per "
                       "port instead and let the reverse proxy spread the connections")
    ctx = multiprocessing.get_context("spawn")
    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def start() -> multiprocessing.process.BaseProcess:
        p = ctx.Process(target=_worker_main, args=(args, limits), daemon=False)
        p.start()
        return p

    procs = [start() for _ in range(args.workers)]
    while not stopping:
        time.sleep(0.2)
        for i, p in enumerate(procs):
            if not p.is_alive() and not stopping:
                print(f"mattis serve: worker {i + 1} stopped (exit {p.exitcode}); starting it again", flush=True)
                time.sleep(1)
                procs[i] = start()
    for p in procs:
        if p.is_alive():
            p.terminate()
    for p in procs:
        p.join(timeout=15)
        if p.is_alive():
            p.kill()
    return 0
