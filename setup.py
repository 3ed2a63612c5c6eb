"""Build the optional compiled core: mypyc compiles the hot modules of ``mattis.core``
(listed in src/mattis/_build.py) from the same Python source; and the native batched
engine (``mattis.rl._native``, one C file with no dependency but Python's headers).

Without a working C compiler, when mypyc fails, or with ``MATTIS_PURE_BUILD=1``, the
pure-Python package is installed and one line says so; if only the native engine fails
to build, the rest is installed and the batched path runs in Python.  Everything else about the
package is in pyproject.toml.
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
_BUILD = runpy.run_path(str(HERE / "src" / "mattis" / "_build.py"))


def _say(msg: str) -> None:
    print(f"mattis: {msg}", file=sys.stderr, flush=True)


def _compiler_works() -> str | None:
    """``None`` if a C compiler builds a trivial extension object here, else why not."""
    import tempfile

    try:
        from setuptools._distutils.ccompiler import new_compiler
        from setuptools._distutils.sysconfig import customize_compiler

        cc = new_compiler()
        customize_compiler(cc)
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "probe.c"
            src.write_text("#include <Python.h>\nint mattis_probe(void) { return 0; }\n")
            import sysconfig

            cc.compile([str(src)], output_dir=tmp, include_dirs=[sysconfig.get_paths()["include"]])
    except Exception as e:  # any failure means: no usable compiler
        text = " ".join(str(e).split())
        return f"{type(e).__name__}: {text[:100]}{'...' if len(text) > 100 else ''}"
    return None


class _BuildExtOrFallBack(build_ext):
    """Build the compiled core; if compiling fails, remove what was built and carry on
    with the pure package (the import switch also refuses an incomplete build)."""

    def build_extension(self, ext: Any) -> None:
        if ext.name != _NATIVE:
            super().build_extension(ext)
            return
        try:
            super().build_extension(ext)
        except Exception as e:  # the native engine is optional on its own: the Python batched path remains
            _say(f"building the native batched engine failed ({type(e).__name__}: {e}); the batched path runs in "
                 "Python")

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:
            for path in self.get_outputs():
                Path(path).unlink(missing_ok=True)
            _say(f"compiling the core failed ({type(e).__name__}: {e}); installing the pure-Python core")
            return
        if not any(ext.name != _NATIVE for ext in self.extensions):
            return  # the core was not compiled (the pure fallback): a stamp would bless older builds
        # Record which source each compiled module was built from: the import switch
        # runs the Python source of any module edited since (never stale compiled code).
        stamp = "".join(f"{m} {_source_hash(m)}\n" for m in _BUILD["COMPILED"])
        for root in {Path(self.build_lib), HERE / "src"}:
            target = root / "mattis" / "core" / _BUILD["STAMP"]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(stamp)

    def get_outputs(self) -> list[str]:
        return [*super().get_outputs(), str(Path(self.build_lib) / "mattis" / "core" / _BUILD["STAMP"])]


def _source_hash(module: str) -> str:
    return str(_BUILD["source_hash"](HERE / "src" / "mattis" / "core" / f"{module}.py"))


_NATIVE = "mattis.rl._native"
"""The native batched engine's module (src/mattis/rl/_native.c)."""


def _ext_modules() -> list[Any]:
    if os.environ.get("MATTIS_PURE_BUILD") == "1":
        _say("MATTIS_PURE_BUILD=1: installing the pure-Python core (not compiled)")
        return []
    why = _compiler_works()
    if why is not None:
        _say(f"no working C compiler ({why}); installing the pure-Python core (not compiled)")
        return []
    source = "src/mattis/rl/_native.c"
    # the source's hash, compiled in: mattis.rl.batched runs no build of an older file
    stamp = str(_BUILD["source_hash"](HERE / source))
    native = Extension(_NATIVE, [source], define_macros=[("MATTIS_NATIVE_SOURCE", f'"{stamp}"')])
    return [*_core_modules(), native]


def _core_modules() -> list[Any]:
    try:
        from mypyc.build import mypycify
    except ImportError as e:
        _say(f"mypyc is not available ({e}); installing the pure-Python core (not compiled)")
        return []
    paths = [f"src/mattis/core/{m}.py" for m in _BUILD["COMPILED"]]
    old = os.getcwd()
    os.chdir(HERE)
    try:
        exts: list[Any] = mypycify(paths, opt_level="3", group_name=_BUILD["GROUP"])
    except BaseException as e:  # mypyc reports type errors with SystemExit
        _say(f"mypyc could not translate the core ({type(e).__name__}: {e}); installing the pure-Python core")
        return []
    finally:
        os.chdir(old)
    _say(f"compiling the core with mypyc ({len(paths)} modules of mattis.core)")
    return exts


setup(ext_modules=_ext_modules(), cmdclass={"build_ext": _BuildExtOrFallBack})
