"""Generators on other grids against the same algorithm on the square grid, side by side in
one run. Run from the repository root:

    python benchmarks/bench_grids.py                 # a million cells on each grid
    python benchmarks/bench_grids.py --cells 250000 --repeat 5

First the builders: for each grid of about ``--cells`` cells, the time
:func:`mazeart.grids.make_grid` takes and the bytes a cell the grid holds once built
and once a maze has been carved on it (what its cache keeps: the polar grid's ring of
each cell; the other grids nothing), measured with tracemalloc. The target: at most
0.5 s and 40 bytes a cell.

Then for each algorithm, the square grid is the specialised kernel on a 1000 x 1000
preset (the registered function, weights in and ``Maze`` out) and each other grid
the kernel on its topology (:func:`mazeart.grids.carve.carve_graph`, free cells in
and open walls out: the hex, triangle and upsilon grids carved on a framed lattice,
the polar grid on its rings) on a grid of about the same number of cells, built once
outside the timing. The target: every other grid within 1.5x the square one per
cell. Each time is the best of ``--repeat`` runs after one warm-up call, the grids
taken in turn (square, hex, ..., then again), summed over ``--seeds`` seeds: a random
walk's length (Wilson's first walk must find a tree of one cell) varies from seed to
seed far more than the machine does, so a few seeds would compare luck: the random walks
(Wilson's, Aldous-Broder) are summed over ``--walk-seeds`` seeds, 15 by default (a walk
from one seed may take three times the steps of the next).
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

import mazeart
from mazeart import ALGORITHMS
from mazeart.grids import make_grid
from mazeart.grids.carve import carve_graph

TARGET = 1.5
WALKS = ("wilson", "aldous-broder")  # random walks: their time varies most from seed to seed
BUILD_SECONDS, BUILD_BYTES = 0.5, 40


def parameters(cells: int) -> dict[str, dict[str, int]]:
    from mazeart.grids.shapes import polar_counts

    side = round(math.sqrt(cells))
    rings = 2
    while sum(polar_counts(rings)) < cells:  # the rings it takes, counted without building
        rings += 1
    square = {"rows": side, "cols": side}
    return {"square": square, "hex": square, "triangle": square, "polar": {"rings": rings},
            "upsilon": square}  # fmt: skip


def grids(cells: int) -> dict:
    return {k: make_grid(k, **p) for k, p in parameters(cells).items() if k != "square"}


def builders(cells: int) -> None:
    """Each grid's build time and the bytes a cell it keeps, built and after a carve."""
    import gc
    import tracemalloc

    for kind, params in parameters(cells).items():  # compile first (a small grid would run
        if kind != "square":  # as Python): numba keeps its own
            warm = make_grid(kind, **params)
            carve_graph(warm, np.ones(warm.n_cells, bool), "backtracker", 1)
    print(f"{'grid':<10}{'cells':>11}{'build s':>10}{'B/cell':>9}{'carved':>9}")
    for kind, params in parameters(cells).items():
        gc.collect()
        tracemalloc.start()
        started = time.perf_counter()
        grid = make_grid(kind, **params)
        built = time.perf_counter() - started
        held = tracemalloc.get_traced_memory()[0] / grid.n_cells
        if kind != "square":
            carve_graph(grid, np.ones(grid.n_cells, bool), "backtracker", 1)
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] / grid.n_cells
        tracemalloc.stop()
        mark = "" if built <= BUILD_SECONDS and kept <= BUILD_BYTES else "  (target missed)"
        print(f"{kind:<10}{grid.n_cells:>11,}{built:>10.3f}{held:>9.1f}{kept:>9.1f}{mark}",
              flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--walk-seeds", type=int, default=15, help="seeds for " + ", ".join(WALKS))
    parser.add_argument("--algorithms", default="backtracker,wilson,kruskal,prim")
    args = parser.parse_args()
    with mazeart.limits(max_cells=max(2_000_000, 4 * args.cells)):  # past the grids' costs
        run(args)


def run(args: argparse.Namespace) -> None:
    builders(args.cells)
    side = round(math.sqrt(args.cells))
    started = time.perf_counter()
    built = grids(args.cells)
    print(f"(grids built in {time.perf_counter() - started:.1f} s)", flush=True)
    weights = np.zeros((side, side), np.int32)
    print(f"{side} x {side} square grid and other grids of about {args.cells:,} cells")
    print(f"{'algorithm':<14}{'grid':<10}{'cells':>11}{'seconds':>10}{'x square':>10}"
          f"   (seconds summed over {args.seeds} seeds)")  # fmt: skip
    for name in args.algorithms.split(","):
        func = ALGORITHMS[name].func
        calls = {"square": lambda s, f=func: f(weights, np.random.default_rng(s))}
        for kind, grid in built.items():
            free = np.ones(grid.n_cells, bool)
            calls[kind] = lambda s, g=grid, f=free, a=name: carve_graph(g, f, a, s)
        times = {kind: 0.0 for kind in calls}
        seeds = args.walk_seeds if name in WALKS else args.seeds
        for s in range(1, seeds + 1):
            for kind, t in interleaved(calls, s, args.repeat).items():
                times[kind] += t
        base = times["square"] / (side * side)
        for kind, t in times.items():
            cells = side * side if kind == "square" else built[kind].n_cells
            ratio = (t / cells) / base
            mark = "" if ratio <= TARGET else f"  (target <= {TARGET})"
            seeds_note = f"  ({seeds} seeds)" if kind == "square" and seeds != args.seeds else ""
            print(f"{name if kind == 'square' else '':<14}{kind:<10}{cells:>11,}{t:>10.3f}"
                  f"{ratio:>10.2f}{mark}{seeds_note}", flush=True)  # fmt: skip


def interleaved(calls: dict, seed: int, repeat: int) -> dict[str, float]:
    """The best of ``repeat`` runs of each call with ``seed``, taken in turn (one of
    each, then again), so that the machine's slow drifts fall on every grid alike."""
    for call in calls.values():
        call(seed)  # warm-up: compiled, cached, paged in
    best = dict.fromkeys(calls, math.inf)
    for _ in range(repeat):
        for kind, call in calls.items():
            started = time.perf_counter()
            call(seed)
            best[kind] = min(best[kind], time.perf_counter() - started)
    return best


if __name__ == "__main__":
    main()
