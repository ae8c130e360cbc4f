"""The studio's latency as a designer feels it, in real Chromium. Run from the repo root:

    python benchmarks/bench_studio.py [--edits 8] [--picture samples/horse.png]

Starts ``mazeart studio`` on the picture (a fresh process, as a user does), opens the page
in Chromium (Playwright) and measures, with the page's own clock:

- *first preview*: from the page's address being opened to the first maze on screen
  (target: 2 s);
- *edit*: from an edit (a new seed, the change the page sends at once) to the new maze
  laid out and painted on screen, median and worst of ``--edits`` edits, at 100 and 250
  cells across on the square and hex grids (targets: 150 ms at 100 cells, 500 ms at 250).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGETS = {100: 150, 250: 500}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=8)
    parser.add_argument("--picture", default=str(REPO / "samples" / "horse.png"))
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "mazeart", "studio", args.picture, "--no-browser"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    try:
        url = re.search(r"http://\S+", proc.stdout.readline()).group(0)
        exe = shutil.which("chromium") or "/usr/bin/chromium"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            started = time.perf_counter()
            page.goto(url)
            page.wait_for_selector("body[data-drawn]", timeout=60_000)
            first = time.perf_counter() - started
            mark = "" if first <= 2 else "  (target 2 s missed)"
            print(f"first preview: {first:.2f} s after the page was opened{mark}")
            print(f"{'grid':<8}{'cells':>6}{'median ms':>11}{'worst ms':>10}{'target':>8}")
            for grid in ("square", "hex"):
                for cells in (100, 250):
                    page.select_option("#grid", grid)
                    page.fill("#cells", str(cells))
                    page.dispatch_event("#cells", "change")
                    settle(page)
                    times = []
                    for _ in range(args.edits):
                        before = int(page.get_attribute("body", "data-drawn"))
                        page.click("#reroll")
                        page.wait_for_selector(f'body[data-drawn="{before + 1}"]', timeout=60_000)
                        times.append(int(page.get_attribute("body", "data-edit-ms")))
                    target = TARGETS[cells]
                    med = statistics.median(times)
                    flag = "" if med <= target else "  (missed)"
                    print(f"{grid:<8}{cells:>6}{med:>11.0f}{max(times):>10.0f}{target:>8}{flag}",
                          flush=True)  # fmt: skip
            browser.close()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)


def settle(page) -> None:
    """Wait until the page has drawn every change sent (no preview under way)."""
    for _ in range(200):
        page.wait_for_timeout(100)
        if page.locator("#busy.on").count() == 0:
            page.wait_for_timeout(300)
            if page.locator("#busy.on").count() == 0:
                return


if __name__ == "__main__":
    main()
