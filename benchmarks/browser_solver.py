"""The exact solver in the browser (static/js/solver.js) in Chromium: loading a preset's tables
and one hint by expected points, timed inside the page.

Rows: loading the smallest and the largest tables: fetching index.json and the values file
(from Python's http.server on loopback, no cache: a real server's figure is the network's)
and checking and parsing them (``makeSolver``); the first hint after loading (before the
JavaScript engine has optimised anything); then a hint over random positions of each of those
presets (turns early and late, 0-2 rolls left), each timed on its own after a warm-up: median,
99th percentile and worst. The page is cross-origin isolated, so ``performance.now()`` counts
in 5 microseconds, not 100.

Run: ``python -m benchmarks.browser_solver`` (or ``make bench``). Needs Chromium at
/usr/bin/chromium and Playwright (the test extras).
"""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path
from typing import Any

from benchmarks.machine import machine

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
STATIC = Path(__file__).resolve().parents[1] / "src" / "yacht" / "web" / "static"
PRESETS = ("traditional", "clubhouse")
HINTS = 2000
WARM_UP = 300
LOADS = 5
ISOLATED = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
}

MEASURE = """async ({preset, hints, warmUp, loads}) => {
  const s = await import("/js/solver.js");
  const base = new URL("/tables/", location.href);
  const fetchTimes = [];
  const parseTimes = [];
  let solver = null;
  for (let i = 0; i < loads; i++) {
    const t0 = performance.now();
    const index = await s.loadIndex(base);
    const file = index.presets.find((p) => p.name === preset).values.file;
    const values = await (await fetch(new URL(file, base), {cache: "no-store"})).arrayBuffer();
    const t1 = performance.now();
    solver = s.makeSolver(index, preset, values);
    parseTimes.push(performance.now() - t1);
    fetchTimes.push(t1 - t0);
  }
  let seed = 29;
  const random = (n) => {  // a small seeded generator (mulberry32), the same positions each run
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
  const position = (i) => {
    let mask = 0;
    let upper = 0;
    for (let used = 0; used < i % 12; ) {
      const c = random(12);
      if (mask & (1 << c)) continue;
      mask |= 1 << c;
      if (c < 6 && solver.hasBonus) upper += (c + 1) * random(6);
      used++;
    }
    return [mask, upper, [1, 2, 3, 4, 5].map(() => 1 + random(6)), random(3)];
  };
  const first = position(0);
  const t0 = performance.now();
  s.hint(solver, first[0], first[2], first[3], first[1]);
  const firstHint = performance.now() - t0;
  const times = [];
  for (let i = 0; i < warmUp + hints; i++) {
    const [mask, upper, dice, rolls] = position(i);
    const t = performance.now();
    s.hint(solver, mask, dice, rolls, upper);
    if (i >= warmUp) times.push(performance.now() - t);
  }
  return {fetchTimes, parseTimes, firstHint, times, isolated: crossOriginIsolated};
}"""


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def measure() -> tuple[str, dict[str, dict[str, Any]]]:
    """Chromium's version and, per preset, the page's timings in milliseconds."""
    from playwright.sync_api import Route, sync_playwright

    handler = functools.partial(_Quiet, directory=str(STATIC))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    results = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            version = browser.version
            for preset in PRESETS:
                page = browser.new_page()

                def blank(route: Route) -> None:
                    route.fulfill(
                        body="<!doctype html><title>bench</title>",
                        content_type="text/html",
                        headers=ISOLATED,
                    )

                page.route(f"{url}/bench.html", blank)
                page.goto(f"{url}/bench.html")
                arg = {"preset": preset, "hints": HINTS, "warmUp": WARM_UP, "loads": LOADS}
                results[preset] = page.evaluate(MEASURE, arg)
                page.close()
            browser.close()
    finally:
        server.shutdown()
    return version, results


def main() -> None:
    if not CHROMIUM.exists():
        print(f"browser solver: skipped (no Chromium at {CHROMIUM})")
        return
    version, results = measure()
    m = machine()
    print(
        f"browser solver (Chromium {version}; {m['cpu']}, {m['cores']} cores, "
        f"load average {', '.join(map(str, m['load_average']))})"
    )
    print(f"  {'what':<44} {'median':>9} {'p99':>9} {'worst':>9}")
    for preset, r in results.items():
        for what, key in (("fetch", "fetchTimes"), ("check and parse", "parseTimes")):
            t = r[key]
            label = f"{what} {preset}"
            print(f"  {label:<44} {_quantile(t, 0.5):6.2f} ms {'':>9} {max(t):6.2f} ms")
    for preset, r in results.items():
        print(f"  {'first hint after loading, ' + preset:<44} {r['firstHint']:6.3f} ms")
    for preset, r in results.items():
        t = r["times"]
        label = f"hint, {preset} ({len(t):,} positions)"
        print(
            f"  {label:<44} {_quantile(t, 0.5):6.3f} ms {_quantile(t, 0.99):6.3f} ms "
            f"{max(t):6.3f} ms"
        )
    if not all(r["isolated"] for r in results.values()):
        print("  (the page was not cross-origin isolated: times are rounded to 0.1 ms)")


if __name__ == "__main__":
    main()
