"""The outlook on /play (static/js/outlook.js and outlook-target.js) in Chromium: how long the
page's worker takes to build the tables it answers from, per preset, timed inside the page.

Rows, per preset: the points to come from every state after a position (the distribution of the
final total, :mod:`yacht.strategy.remaining`'s table for those states) and the target table
(:mod:`yacht.strategy.target`'s, for those states and up to the points still needed, banded as
the page builds it: only the cells a game needing that many points at the position can reach;
``cells`` counts the whole layout), from a new game and from later turns (clubhouse's from the
first turn at which they fit the page's 6 million cells), then one answer read from them (a
position's distribution and every option's chance of the target). Each row is built RUNS times:
median and worst. And traditional again with the CPU slowed four times by the DevTools protocol
(``Emulation.setCPUThrottlingRate``), a stand-in for a mid-range phone. The cells are float64 (8
bytes); nothing here is shipped: the page computes them from the values file it already has.

Run: ``python -m benchmarks.browser_outlook`` (``--docs`` also writes the figures into
docs/web/offline.md between ``<!-- browser-outlook:start -->`` and ``<!-- browser-outlook:end
-->``). Needs Chromium at /usr/bin/chromium and Playwright (the test extras).
"""

from __future__ import annotations

import functools
import http.server
import statistics
import sys
import threading
from pathlib import Path
from typing import Any

from benchmarks.browser_solver import ARGS, CHROMIUM, ISOLATED, STATIC, _Quiet
from benchmarks.machine import machine

RUNS = 3
DOC = Path(__file__).resolve().parents[1] / "docs" / "web" / "offline.md"
MARKS = ("<!-- browser-outlook:start -->\n", "<!-- browser-outlook:end -->\n")
# (preset, used categories at the position, points still needed): 0 used is a new game.
ROWS = (
    ("traditional", 0, 200),
    ("traditional", 3, 150),
    ("traditional", 6, 100),
    ("all-dice-four", 0, 200),
    ("knizia", 0, 200),
    ("clubhouse", 4, 150),
    ("clubhouse", 6, 100),
)
THROTTLED = (("traditional", 0, 200), ("traditional", 3, 150), ("traditional", 6, 100))

MEASURE = """async ({preset, used, needed, runs}) => {
  const s = await import("/js/solver.js");
  const o = await import("/js/outlook.js");
  const tg = await import("/js/outlook-target.js");
  const solver = await s.loadSolver(preset, new URL("/tables/", location.href));
  // the position: the categories from Choice up (the sheet's last first), Ones to Sixes last
  const order = [10, 9, 8, 7, 6, 11, 5, 4, 3, 2, 1, 0];
  const base = order.slice(0, used).reduce((m, c) => m | (1 << c), 0);
  const out = {cells: [o.remainingCells(solver, base), tg.targetCells(solver, needed, base)],
               remaining: [], target: [], answer: []};
  let rem = null;
  let tt = null;
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    rem = o.remainingTable(solver, base);
    out.remaining.push(performance.now() - t);
    t = performance.now();
    tt = tg.targetTable(solver, needed, base, true);
    out.target.push(performance.now() - t);
  }
  for (let i = 0; i < 50; i++) {
    const dice = [1, 2, 3, 4, 5].map((_, j) => 1 + ((i * 7 + j * 3) % 6));
    const t = performance.now();
    o.summary(o.finalTotals(o.pointsToCome(rem, base, 0, dice, 2), 0));
    tg.targetHint(tt, base, dice, 2, 0, needed, 0);
    out.answer.push(performance.now() - t);
  }
  return out;
}"""


def measure() -> tuple[str, list[dict[str, Any]]]:
    """Chromium's version and a row of timings (milliseconds) per case."""
    from playwright.sync_api import Route, sync_playwright

    handler = functools.partial(_Quiet, directory=str(STATIC))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    rows = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            version = browser.version
            cases = [(*r, 1) for r in ROWS] + [(*r, 4) for r in THROTTLED]
            for preset, used, needed, slower in cases:
                page = browser.new_page()

                def blank(route: Route) -> None:
                    route.fulfill(
                        body="<!doctype html>", content_type="text/html", headers=ISOLATED
                    )

                page.route(f"{url}/bench.html", blank)
                page.goto(f"{url}/bench.html")
                if slower > 1:
                    cdp = page.context.new_cdp_session(page)
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": slower})
                arg = {"preset": preset, "used": used, "needed": needed, "runs": RUNS}
                result = page.evaluate(MEASURE, arg)
                rows.append({"preset": preset, "used": used, "needed": needed, "slower": slower})
                rows[-1].update(result)
                page.close()
            browser.close()
    finally:
        server.shutdown()
    return version, rows


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values):8.0f} {max(values):8.0f}"


def report(version: str, rows: list[dict[str, Any]]) -> list[str]:
    """The figures as lines of text, the machine named."""
    m = machine()
    lines = [
        f"browser outlook (Chromium {version}; {m['cpu']}, {m['cores']} cores, "
        f"load average {', '.join(map(str, m['load_average']))}; {RUNS} runs, milliseconds)",
        f"  {'preset':<14} {'used':>4} {'needed':>6} {'cpu':>4} {'cells':>19} "
        f"{'points to come':>17} {'target table':>17} {'an answer':>9}",
        f"  {'':<14} {'':>4} {'':>6} {'':>4} {'':>19} {'median':>8} {'worst':>8} "
        f"{'median':>8} {'worst':>8} {'median':>9}",
    ]
    for r in rows:
        cells = f"{r['cells'][0]:>9,} {r['cells'][1]:>9,}"
        lines.append(
            f"  {r['preset']:<14} {r['used']:>4} {r['needed']:>6} {r['slower']:>3}x {cells} "
            f"{_ms(r['remaining'])} {_ms(r['target'])} {statistics.median(r['answer']):9.2f}"
        )
    return lines


def write_docs(lines: list[str], doc: Path = DOC) -> None:
    """Put the figures into the page, between its two marks."""
    text = doc.read_text(encoding="utf-8")
    start, end = text.index(MARKS[0]) + len(MARKS[0]), text.index(MARKS[1])
    block = "```text\n" + "\n".join(lines) + "\n```\n"
    doc.write_text(text[:start] + block + text[end:], encoding="utf-8")


def main() -> None:
    if not CHROMIUM.exists():
        print(f"browser outlook: skipped (no Chromium at {CHROMIUM})")
        return
    lines = report(*measure())
    print("\n".join(lines))
    if "--docs" in sys.argv[1:]:
        write_docs(lines)


if __name__ == "__main__":
    main()
