"""``mattis build-web DIR``: the offline app, a static bundle that plays with no server.

The bundle holds the page (web/static: the server's own client, with ``solo.js`` in front of it
as its transport), a Web Worker (``worker.js``) that runs this package's pure-Python wheel under
Pyodide, a web app manifest and a service worker that keeps every file on the device after the
first visit.  It works from any static host, and ``mattis serve --solo DIR`` serves it at ``/solo/``.

The Pyodide runtime comes from the npm registry (``npm pack``), pinned to one version and checked
against one SHA-256 (:data:`PYODIDE_VERSION`, :data:`PYODIDE_SHA256`: the one place they are
written), or from a cache folder holding that same tarball.  No network is needed when the app
runs: everything it loads is in the bundle.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Final

PYODIDE_VERSION: Final = "0.27.7"
"""The Pyodide release the bundle runs (CPython 3.12 compiled to WebAssembly)."""
PYODIDE_SHA256: Final = "89d5d952675eb08e11286e52c7238f1248ce71726e896db9703e73bef23dc343"
"""SHA-256 of ``pyodide-<version>.tgz`` as the npm registry serves it."""
PYODIDE_FILES: Final = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
"""The runtime's files the worker loads (the rest of the npm package is not needed)."""
PAGE_FILES: Final = ("app.js", "cards.js", "style.css", "i18n.json", "icon.svg")
SOLO_FILES: Final = ("solo.js", "worker.js", "solo.css")

HERE: Final = Path(__file__).parent
STATIC: Final = HERE / "static"
SOLO_STATIC: Final = HERE / "solo_static"


class BuildError(Exception):
    """The bundle cannot be built: one line says why (the command exits 2)."""


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def pyodide_tarball(cache: Path | None) -> bytes:
    """The pinned Pyodide tarball, checked: from ``cache`` when it holds it, else from the npm
    registry with ``npm pack`` (kept in ``cache`` when one is given)."""
    name = f"pyodide-{PYODIDE_VERSION}.tgz"
    if cache is not None and (cache / name).is_file():
        data = (cache / name).read_bytes()
        if _sha256(data) == PYODIDE_SHA256:
            return data
        print(f"mattis build-web: {cache / name} does not have the pinned hash; fetching it again", file=sys.stderr)
    npm = shutil.which("npm")
    if npm is None:
        raise BuildError(f"the Pyodide runtime is needed: npm is not installed and no cache holds {name} "
                         "(install Node.js and npm, or give --cache DIR with that file)")
    with tempfile.TemporaryDirectory() as tmp:
        run = subprocess.run([npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", tmp, "--silent"],
                             capture_output=True, text=True, timeout=600)
        path = Path(tmp) / name
        if run.returncode != 0 or not path.is_file():
            last = (run.stderr.strip().splitlines() or ["no output"])[-1]
            raise BuildError(f"the Pyodide runtime could not be fetched from the npm registry ({last}); "
                             f"connect to the network or give --cache DIR holding {name}")
        data = path.read_bytes()
    if _sha256(data) != PYODIDE_SHA256:
        raise BuildError(f"{name} from the npm registry does not have the pinned SHA-256 {PYODIDE_SHA256}; "
                         "not used")
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        (cache / name).write_bytes(data)
    return data


def project_root() -> Path:
    """The source folder this package was installed from (the wheel is built from it)."""
    root = HERE.parents[2]
    if not (root / "pyproject.toml").is_file():
        raise BuildError(f"build-web builds the app from the project's source folder; none at {root} "
                         "(install the package from a clone with pip install -e .)")
    return root


def build_wheel(out: Path) -> Path:
    """This project's pure-Python wheel (``MATTIS_PURE_BUILD=1``: no compiled core), into ``out``."""
    env = dict(os.environ, MATTIS_PURE_BUILD="1")
    with tempfile.TemporaryDirectory() as tmp:
        run = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                              "-w", tmp, str(project_root())], capture_output=True, text=True, env=env, timeout=900)
        wheels = list(Path(tmp).glob("mattis-*.whl"))
        if run.returncode != 0 or len(wheels) != 1:
            last = (run.stderr.strip().splitlines() or ["no output"])[-1]
            raise BuildError(f"the project's wheel could not be built: {last}")
        target = out / wheels[0].name
        shutil.copyfile(wheels[0], target)
    return target


def index_html(wheel: str) -> str:
    """The server's page made relative (any folder of any static host), with the app's manifest
    and its transport (solo.js) before the client."""
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    page = page.replace('href="/static/', 'href="static/').replace('src="/static/', 'src="static/')
    page = page.replace('<a href="/" class="brand">', '<a href="./" class="brand">')
    head = ('<link rel="manifest" href="manifest.webmanifest">\n<meta name="theme-color" content="#1f5c3a">\n'
            '<link rel="stylesheet" href="solo.css">\n'
            f'<script>window.MATTIS_SOLO = {{"wheel": {json.dumps(wheel)}, '
            f'"pyodide": {json.dumps(PYODIDE_VERSION)}}};</script>\n</head>')
    page = page.replace("</head>", head, 1)
    app = '<script src="static/app.js">'
    return page.replace(app, '<script src="solo.js"></script>\n' + app, 1)


MANIFEST: Final = {
    "name": "Mattis", "short_name": "Mattis",
    "description": "Mattis, Hund, Blodmattis and Skitgubbe against bots, offline.",
    "start_url": "./", "scope": "./", "display": "standalone", "background_color": "#1f5c3a", "theme_color": "#1f5c3a",
    "lang": "nb",
    "icons": [{"src": "static/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
              {"src": "icon-192.png", "sizes": "192x192", "type": "image/png"},
              {"src": "icon-512.png", "sizes": "512x512", "type": "image/png"}],
}


def png_icon(size: int) -> bytes:
    """A plain square icon (the table's green with a white card), as PNG: the installed app's
    icon where a browser wants a bitmap."""
    import struct
    import zlib

    green, white, red = (0x1F, 0x5C, 0x3A), (0xFF, 0xFF, 0xFF), (0xB0, 0x1E, 0x2A)
    x0, x1, y0, y1 = size * 30 // 100, size * 70 // 100, size * 20 // 100, size * 80 // 100
    rows = []
    for y in range(size):
        row = bytearray(b"\0")
        for x in range(size):
            inside = x0 <= x < x1 and y0 <= y < y1
            pip = inside and (x - size // 2) ** 2 + (y - size // 2) ** 2 < (size // 10) ** 2
            row += bytes(red if pip else white if inside else green)
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


def build(out: Path, cache: Path | None = None) -> dict[str, int]:
    """Build the bundle into ``out`` (made afresh; an earlier bundle there is replaced only once
    the new one is whole); the size of each file, by its path in the bundle."""
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / MARK).is_file())):
        raise BuildError(f"{out} exists and is not an earlier bundle; give an empty or new folder")
    tarball = pyodide_tarball(cache)
    out.parent.mkdir(parents=True, exist_ok=True)
    part = Path(tempfile.mkdtemp(prefix=out.name + ".", suffix=".part", dir=out.parent))
    part.chmod(0o755)
    try:
        sizes = _build_into(part, tarball)
        if out.exists():
            shutil.rmtree(out)
        part.rename(out)
    finally:
        if part.exists():
            shutil.rmtree(part)
    return sizes


MARK: Final = ".mattis-build-web"
"""A file in every bundle: the folder may be built over."""


def _build_into(out: Path, tarball: bytes) -> dict[str, int]:
    (out / "static").mkdir(parents=True)
    (out / "pyodide").mkdir()
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as tar:
        for name in PYODIDE_FILES:
            member = tar.extractfile(f"package/{name}")
            if member is None:
                raise BuildError(f"the Pyodide tarball has no {name}")
            (out / "pyodide" / name).write_bytes(member.read())
    wheel = build_wheel(out)
    for name in PAGE_FILES:
        shutil.copyfile(STATIC / name, out / "static" / name)
    for name in SOLO_FILES:
        shutil.copyfile(SOLO_STATIC / name, out / name)
    (out / "index.html").write_text(index_html(wheel.name), encoding="utf-8")
    (out / "manifest.webmanifest").write_text(json.dumps(MANIFEST, indent=1), encoding="utf-8")
    for size in (192, 512):
        (out / f"icon-{size}.png").write_bytes(png_icon(size))
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.encode() + b"\0" + (out / f).read_bytes())
    sw = (SOLO_STATIC / "sw.js").read_text(encoding="utf-8")
    sw = sw.replace('"__VERSION__"', json.dumps(digest.hexdigest()[:16]))
    sw = sw.replace('["__FILES__"]', json.dumps(["./", *files]))
    (out / "sw.js").write_text(sw, encoding="utf-8")
    (out / MARK).write_text(f"pyodide {PYODIDE_VERSION}\n", encoding="utf-8")
    return {f: (out / f).stat().st_size for f in [*files, "sw.js"]}
