"""The offline app's costs, measured in Debian's Chromium (the figures in docs/web.md).

    python benchmarks/solo_web.py BUNDLE [--games N] [--levels easy,medium,hard,expert]

BUNDLE is a folder built by ``mattis build-web``.  A static server on loopback counts the bytes it
sends; Chromium (headless, a fresh profile, a phone's viewport) opens the app:

* cold: the first visit, until the page says it is ready (the engine loaded), and the bytes sent
  until the service worker holds every file;
* cached: a reload (online), the engine loaded again from the service worker's cache; offline:
  the same with the network cut, and once more with the CPU throttled x4 (a phone's budget);
* memory: the worker's WebAssembly heap after loading and after the bot decisions below, the
  page's JavaScript heap;
* think time: every decision of N whole games of bots of each level (all seats, Blodmattis,
  3 players, the same deals for each level; positions with one legal move are not counted), by
  phase, timed by ``mattis.web.solo.think_times`` in the app's worker and in the page's own
  thread, there also with ``Emulation.setCPUThrottlingRate`` 4 (Chromium throttles pages only:
  "Operation is only supported for pages, not workers"; the same runtime and wheel, loaded in
  the page, stand in for the worker under throttling).
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
sent = [0]


class Counting(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass

    def copyfile(self, source: Any, outputfile: Any) -> None:  # type: ignore[override]
        data = source.read()
        sent[0] += len(data)
        outputfile.write(data)


IN_PAGE = """async (a) => {
  if (!window.__py) {  // the same runtime and wheel, loaded in the page's own thread
    await new Promise((ok, fail) => { const s = document.createElement("script"); s.src = "pyodide/pyodide.js";
      s.onload = ok; s.onerror = fail; document.head.appendChild(s); });
    const py = await loadPyodide({ indexURL: new URL("pyodide/", location.href).href });
    py.unpackArchive(await (await fetch(window.MATTIS_SOLO.wheel)).arrayBuffer(), "wheel");
    py.runPython("from mattis.web.solo import think_times");
    window.__py = py;
  }
  return window.__py.globals.get("think_times")(a.preset, a.players, a.level, a.games, a.seed).toJs();
}"""


def summary(times: list[list[float]]) -> dict[str, dict[str, float]]:
    """Per phase: decisions, mean, median, 90th percentile and the longest, in ms."""
    out = {}
    for phase in (1, 2):
        ts = sorted(t for p, t in times if p == phase)
        if ts:
            out[f"phase {phase}"] = {"n": len(ts), "mean_ms": round(1000 * statistics.fmean(ts), 1),
                                     "median_ms": round(1000 * statistics.median(ts), 1),
                                     "p90_ms": round(1000 * ts[int(0.9 * (len(ts) - 1))], 1),
                                     "max_ms": round(1000 * ts[-1], 1)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("bundle")
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--levels", default="easy,medium,hard,expert")
    a = ap.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Counting, directory=a.bundle))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    out: dict[str, Any] = {"bundle_bytes": sum(p.stat().st_size for p in Path(a.bundle).rglob("*") if p.is_file())}
    with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        ctx = p.chromium.launch_persistent_context(profile, executable_path="/usr/bin/chromium",
                                                   args=ARGS,
                                                   viewport={"width": 390, "height": 844}, is_mobile=True,
                                                   has_touch=True)
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        cdp = ctx.new_cdp_session(page)

        def load(url: str | None) -> float:
            t0 = time.perf_counter()
            if url is None:
                page.reload()
            else:
                page.goto(url)
            page.wait_for_function("document.body.dataset.solo === 'ready'", timeout=600_000)
            page.wait_for_selector("#name", timeout=600_000)
            return time.perf_counter() - t0

        out["cold_s"] = load(base)
        page.wait_for_function("!!navigator.serviceWorker.controller", timeout=600_000)
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        out["cold_bytes_sent"] = sent[0]
        sent[0] = 0
        out["cached_s"] = load(None)
        out["cached_bytes_sent"] = sent[0]
        ctx.set_offline(True)
        out["offline_s"] = load(None)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
        out["offline_x4_s"] = load(None)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        bench = "(a) => window.MattisTransport.bench(a)"
        out["wasm_heap_after_load"] = page.evaluate(bench, {})["wasm_heap"]
        cdp.send("Performance.enable")
        metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
        out["page_js_heap_used"] = metrics.get("JSHeapUsedSize")
        think: dict[str, Any] = {}
        for level in a.levels.split(","):
            args = {"preset": "blodmattis", "players": 3, "level": level, "games": a.games, "seed": 1}
            think[f"worker {level}"] = summary(page.evaluate(bench, args)["times"])
            print(f"worker {level}: {think[f'worker {level}']}", flush=True)
            for rate in (1, 4):
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
                think[f"page x{rate} {level}"] = summary(page.evaluate(IN_PAGE, args))
                print(f"page x{rate} {level}: {think[f'page x{rate} {level}']}", flush=True)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
        out["think"] = think
        out["wasm_heap_after_bots"] = page.evaluate(bench, {})["wasm_heap"]
        ctx.close()
    server.shutdown()
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
