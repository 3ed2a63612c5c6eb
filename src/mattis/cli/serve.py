"""``mattis serve``: the web table (see docs/web.md)."""

from __future__ import annotations

import argparse
import os


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1; 0.0.0.0 for your home network)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--db", default="mattis-web.db", help="SQLite event log (default mattis-web.db)")
    parser.add_argument("--bot-delay", type=float, default=0.8, metavar="SECONDS",
                        help="pause before each bot move, so people can follow (default 0.8)")
    parser.add_argument("--test-mode", action="store_true", help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    from .main import CliError

    if not 0 < args.port < 65536:
        raise CliError(f"port must be 1..65535, not {args.port}")
    if not 0 <= args.bot_delay <= 60:
        raise CliError("--bot-delay must be 0..60 seconds")
    db_dir = os.path.dirname(os.path.abspath(args.db))
    if not os.path.isdir(db_dir):
        raise CliError(f"no such folder for --db: {db_dir}")
    try:
        import uvicorn

        from ..web.app import create_app
        from ..web.store import Store, StoreError
    except ImportError as e:
        from .main import install_hint

        raise CliError(f"needs the optional 'web' extra ({e.name} is not installed); from the repository's "
                       f"folder install it with: {install_hint('web')}") from None
    try:
        Store(args.db).close()
    except StoreError as e:
        raise CliError(str(e)) from None
    import socket

    try:  # a clear message for a port in use, before uvicorn starts
        with socket.create_server((args.host, args.port)):
            pass
    except OSError as e:
        raise CliError(f"cannot listen on {args.host}:{args.port}: {e.strerror}") from None
    app = create_app(args.db, args.bot_delay, args.test_mode)
    print(f"mattis serve: http://{args.host}:{args.port}/  (event log {args.db}; Ctrl-C stops)", flush=True)
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_max_size=65536,
                    ws_per_message_deflate=False)
    except OSError as e:
        raise CliError(f"cannot listen on {args.host}:{args.port}: {e.strerror}") from None
    return 0
