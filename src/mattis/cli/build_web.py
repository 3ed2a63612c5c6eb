"""``mattis build-web DIR``: build the offline app (see docs/web.md, "The offline app")."""

from __future__ import annotations

import argparse
from pathlib import Path

from .main import CliError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", help="the folder to build the app into (made afresh; put it on any static host)")
    p.add_argument("--cache", default=None, metavar="DIR",
                   help="a folder that keeps the Pyodide runtime's tarball between builds "
                        "(used when it holds the pinned version with the pinned hash; else fetched with npm)")


def run(args: argparse.Namespace) -> int:
    from ..web.bundle import PYODIDE_VERSION, BuildError, build

    try:
        sizes = build(Path(args.dir), Path(args.cache) if args.cache else None)
    except BuildError as e:
        raise CliError(str(e)) from None
    except OSError as e:
        raise CliError(f"{args.dir}: {e.strerror or e}") from None
    total = sum(sizes.values())
    print(f"mattis build-web: {args.dir}: {len(sizes)} files, {total / 1e6:.1f} MB "
          f"(Pyodide {PYODIDE_VERSION}, {sizes.get('pyodide/pyodide.asm.wasm', 0) / 1e6:.1f} MB of it the "
          f"runtime's WebAssembly); serve the folder from any static host, or: mattis serve --solo {args.dir}")
    return 0
