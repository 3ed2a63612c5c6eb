"""The web page's words: ``static/i18n.json`` is generated from the one catalogue
(:data:`mattis.core.catalogue.TEXT`), never edited by hand.

``python -m mattis.web.i18n`` rewrites the file; ``--check`` exits 1 when the
committed file differs from the catalogue.  The page (``app.js``) looks keys up
as they are in the catalogue and fills named ``{fields}``.

>>> page_strings()["nb"]["term.stunsa"]
'stunsa'
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from ..core.cards import Lang
from ..core.catalogue import TEXT

JSON_PATH: Final = Path(__file__).parent / "static" / "i18n.json"
LANGS: Final[tuple[Lang, ...]] = ("en", "nb")


def page_strings() -> dict[Lang, dict[str, str]]:
    """Every catalogue string by language, as the page reads them, keys sorted (so the
    file does not depend on the catalogue dict's insertion order)."""
    return {lang: {key: TEXT[key][1] if lang == "en" else TEXT[key][0] for key in sorted(TEXT)} for lang in LANGS}


def render_json() -> str:
    """The exact text of ``static/i18n.json``."""
    return json.dumps(page_strings(), ensure_ascii=False, indent=1) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Write ``static/i18n.json`` (or, with ``--check``, only compare it)."""
    args = list(sys.argv[1:] if argv is None else argv)
    text = render_json()
    if args == ["--check"]:
        same = JSON_PATH.exists() and JSON_PATH.read_text(encoding="utf-8") == text
        if not same:
            print(f"{JSON_PATH} is stale; run: python -m mattis.web.i18n", file=sys.stderr)
        return 0 if same else 1
    if args:
        print("usage: python -m mattis.web.i18n [--check]", file=sys.stderr)
        return 2
    JSON_PATH.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
