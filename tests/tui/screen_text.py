"""What a running Textual app shows, read back as plain text (for the layout tests)."""

from __future__ import annotations

import io

from rich.console import Console
from textual.widget import Widget


def widget_text(widget: Widget) -> str:
    """What the screen shows where ``widget`` lies, as plain text (the whole screen
    rendered as the terminal would draw it, then cut to the widget's region)."""
    app = widget.app
    console = Console(width=app.size.width, height=app.size.height, file=io.StringIO(), record=True,
                      legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True))
    lines = console.export_text(styles=False).splitlines()
    r = widget.region
    return "\n".join(line[r.x:r.right] for line in lines[r.y:r.bottom])
