"""Generator and command-line speed: run from the repository root.

    python benchmarks/bench_generate.py            # kernels at 1000 x 1000, CLI at 150 cells
    python benchmarks/bench_generate.py --size 2000 --repeat 5

Prints cells per second for the compiled kernel alone and for the whole
``generate`` call (preset check, part labelling, carve, Maze, endpoints), then
the wall time of ``mazeart samples/horse.png -o x.svg --cells 150`` with the
compiled kernels cached and with an empty cache (first run after install).
Timings take the best of ``--repeat`` runs after one warm-up call.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from mazeart import ALGORITHMS, generate
from mazeart._rng import kernel_state
from mazeart.generate._common import lattice_weights, part_starts
from mazeart.generate.weighted_dfs import carve_weights
from mazeart.weights import FORBIDDEN, FREE

REPO = Path(__file__).resolve().parents[1]


def best_of(fn, repeat: int) -> float:
    fn()  # warm-up (compilation or cache load)
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def bench_kernel(n: int, repeat: int) -> None:
    free = np.ones((n, n), dtype=bool)
    print(f"weighted DFS kernel, {n} x {n} free cells (best of {repeat})")

    def blocks():
        work = np.full((n + 2, n + 2), FORBIDDEN, dtype=np.int32)
        work[1:-1, 1:-1] = FREE
        state = kernel_state(np.random.default_rng(1))
        starts = part_starts(free, state)
        r, c = np.divmod(starts, n)
        t = time.perf_counter()
        carve_weights(work, (r + 1) * (n + 2) + c + 1, state)
        return time.perf_counter() - t

    def cells():
        lat = lattice_weights(free)
        state = kernel_state(np.random.default_rng(1))
        starts = part_starts(free, state)
        r, c = np.divmod(starts, n)
        t = time.perf_counter()
        carve_weights(lat, (2 * r + 1) * (2 * n + 1) + 2 * c + 1, state)
        return time.perf_counter() - t

    for name, fn in (("blocks", blocks), ("cells", cells)):
        fn()
        t = min(fn() for _ in range(repeat))
        print(f"  kernel   {name:<6} {t * 1000:8.1f} ms  {n * n / t / 1e6:7.1f} M cells/s")


def bench_generate(n: int, repeat: int) -> None:
    weights = np.zeros((n, n), dtype=np.int32)
    for name, algo in ALGORITHMS.items():
        for geometry in algo.geometries:

            def run(a=name, g=geometry):
                return generate(weights, algorithm=a, geometry=g, seed=1)

            t = best_of(run, repeat)
            rate = n * n / t / 1e6
            print(f"  generate {name} {geometry:<6} {t * 1000:8.1f} ms  {rate:7.1f} M cells/s")


def bench_cli(repeat: int) -> None:
    cmd = [sys.executable, "-m", "mazeart", "samples/horse.png", "-o", "", "--cells", "150", "-q"]
    with tempfile.TemporaryDirectory() as tmp:
        cmd[5] = str(Path(tmp) / "x.svg")
        subprocess.run(cmd, cwd=REPO, check=True)  # make sure the cache is warm
        warm = []
        for _ in range(repeat):
            t = time.perf_counter()
            subprocess.run(cmd, cwd=REPO, check=True)
            warm.append(time.perf_counter() - t)
        cold = []
        for i in range(min(repeat, 2)):
            env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(tmp) / f"empty-cache-{i}"))
            t = time.perf_counter()
            subprocess.run(cmd, cwd=REPO, check=True, env=env)
            cold.append(time.perf_counter() - t)
    print("mazeart samples/horse.png -o x.svg --cells 150")
    print(f"  cached kernels: best {min(warm):.2f} s, median {statistics.median(warm):.2f} s wall")
    print(f"  empty cache:    best {min(cold):.2f} s wall (first run: kernels compile)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-cli", action="store_true")
    args = parser.parse_args()
    bench_kernel(args.size, args.repeat)
    print(f"generate(), {args.size} x {args.size} free cells")
    bench_generate(args.size, args.repeat)
    if not args.no_cli:
        bench_cli(max(args.repeat, 5))


if __name__ == "__main__":
    main()
