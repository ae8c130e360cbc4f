"""The solvers on the square grid and on a hex grid of about the same number of cells. Run
from the repository root:

    python benchmarks/bench_solve.py                          # a million cells
    python benchmarks/bench_solve.py --against /tmp/old-tree  # and another checkout beside

Times a breadth-first solve, A*, and dead-end filling (the cells it leaves, and the
solve that reads the path off them) on a 1000 x 1000 square maze and on a hex maze of
about as many cells, both carved by the backtracker (its long solutions make every
solver walk far), each built once outside the timing. Kernels are compiled
(``MAZEART_JIT=always`` unless set otherwise); a time is the best of ``--repeat``
runs after one warm-up call. ``x square`` is the hex time per cell over the square
one's; the target is at most 2.

``--against DIR`` runs the same timings with the package found in ``DIR`` (another
checkout, say a ``git worktree`` of an older commit) in a child process and prints
both, with this tree's time over the other's.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("MAZEART_JIT", "always")

import numpy as np
from bench_generate import best_of

TARGET = 2.0


def mazes(cells: int) -> dict[str, Any]:
    """The square and hex mazes, about ``cells`` cells each."""
    from mazeart import generate
    from mazeart.grids import make_grid
    from mazeart.grids.generate import generate_on_grid

    side = round(math.sqrt(cells))
    square = generate(np.zeros((side, side), np.int32), algorithm="backtracker", rng=1)
    grid = make_grid("hex", rows=side, cols=side)
    hexes = generate_on_grid(np.zeros(grid.n_cells, np.int32), grid, rng=1)
    return {"square": square, "hex": hexes}


def timings(cells: int, repeat: int) -> dict[str, dict[str, float]]:
    """Seconds per solver (rows) and maze (columns), with each maze's cell count."""
    import mazeart
    from mazeart.solvers import dead_end_filling, solve

    with mazeart.limits(max_cells=max(2_000_000, 4 * cells)):  # past the hex grid's cost
        built = mazes(cells)
    jobs: dict[str, Callable[[Any], Any]] = {
        "bfs solve": lambda m: solve(m, method="bfs"),
        "astar solve": lambda m: solve(m, method="astar"),
        "dead_end_filling": lambda m: dead_end_filling(m),
        "dead-end-filling solve": lambda m: solve(m, method="dead-end-filling"),
    }
    out: dict[str, dict[str, float]] = {"cells": {k: m.n_cells for k, m in built.items()}}
    for name, job in jobs.items():
        out[name] = {k: best_of(lambda m=m, j=job: j(m), repeat) for k, m in built.items()}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--against", type=Path, help="another checkout to time beside this one")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # (the child)
    args = parser.parse_args()
    here = timings(args.cells, args.repeat)
    if args.json:
        print(json.dumps(here))
        return
    other = None
    if args.against is not None:
        env = dict(os.environ, PYTHONPATH=str(args.against.resolve()))
        child = [sys.executable, __file__, "--json", f"--cells={args.cells}",
                 f"--repeat={args.repeat}"]  # fmt: skip
        other = json.loads(subprocess.run(child, env=env, check=True, capture_output=True,
                                          text=True).stdout.splitlines()[-1])  # fmt: skip
    cells = here["cells"]
    print(f"square {cells['square']:,} cells, hex {cells['hex']:,} cells, best of {args.repeat}"
          f" (MAZEART_JIT={os.environ['MAZEART_JIT']})")  # fmt: skip
    head = f"{'':<24}{'square s':>10}{'hex s':>10}{'x square':>10}"
    if other is not None:
        head += f"{'old sq s':>10}{'old hex s':>10}{'sq/old':>8}{'hex/old':>8}"
    print(head)
    for name, row in here.items():
        if name == "cells":
            continue
        ratio = (row["hex"] / cells["hex"]) / (row["square"] / cells["square"])
        line = f"{name:<24}{row['square']:>10.4f}{row['hex']:>10.4f}{ratio:>10.2f}"
        if other is not None:
            was = other[name]
            line += f"{was['square']:>10.4f}{was['hex']:>10.4f}"
            line += f"{row['square'] / was['square']:>8.2f}{row['hex'] / was['hex']:>8.2f}"
        if ratio > TARGET:
            line += f"  (target x square <= {TARGET})"
        print(line, flush=True)


if __name__ == "__main__":
    main()
