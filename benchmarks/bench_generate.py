"""Generator and command-line speed, and generator memory. Run from the repository root:

    python benchmarks/bench_generate.py                 # everything at the default sizes
    python benchmarks/bench_generate.py --only speed    # or: kernel, memory, use, cli
    python benchmarks/bench_generate.py --size 2000 --repeat 5 --memory-size 4000

``kernel``  the weighted DFS kernel alone, 1000 x 1000 free cells, both geometries.
``speed``   every registered generator (weights -> Maze, the registered function) and
            the whole ``generate`` pipeline (plus entrance and exit), in cells per second.
``memory``  peak memory of each generator on a 4000 x 4000 preset, in bytes per cell,
            measured in a fresh process as the rise of its peak RSS above the
            baseline once the kernels are loaded and the preset exists.
``use``     solvers, metrics and saved-maze save/load on a 1000 x 1000 backtracker maze
            (braided for the multi-path solver), and PDF export at 100 x 100.
``cli``     wall time of ``mazeart samples/horse.png -o x.svg --cells 150`` with the
            compiled kernels cached, and with an empty cache (the first run).

Times are the best of ``--repeat`` runs after one warm-up call.
"""

from __future__ import annotations

import argparse
import json
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
from mazeart.generators._common import lattice_weights, part_starts
from mazeart.generators.weighted_dfs import carve_weights
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
    print(f"weighted DFS kernel alone, {n} x {n} free cells")

    def blocks():
        work = np.full((n + 2, n + 2), FORBIDDEN, dtype=np.int32)
        work[1:-1, 1:-1] = FREE
        state = kernel_state(np.random.default_rng(1))
        r, c = np.divmod(part_starts(free, state), n)
        t = time.perf_counter()
        carve_weights(work, (r + 1) * (n + 2) + c + 1, state)
        return time.perf_counter() - t

    def cells():
        lat = lattice_weights(free)
        state = kernel_state(np.random.default_rng(1))
        r, c = np.divmod(part_starts(free, state), n)
        t = time.perf_counter()
        carve_weights(lat, (2 * r + 1) * (2 * n + 1) + 2 * c + 1, state)
        return time.perf_counter() - t

    for name, fn in (("blocks", blocks), ("cells", cells)):
        fn()
        t = min(fn() for _ in range(repeat))
        print(f"  {name:<8} {t * 1000:9.1f} ms {n * n / t / 1e6:8.1f} M cells/s")


# Options worth timing separately (the first entry of each is the default).
VARIANTS: dict[str, list[dict]] = {
    "growing-tree": [{}, {"select": "newest"}, {"select": "random"}, {"select": "oldest"}],
}


def bench_speed(n: int, repeat: int) -> None:
    weights = np.zeros((n, n), dtype=np.int32)
    print(f"generators, {n} x {n} free cells: registered function | generate() with endpoints")
    for name, algo in ALGORITHMS.items():
        for geometry in algo.geometries:
            for options in VARIANTS.get(name, [{}]):
                reps = 1 if name == "aldous-broder" else repeat

                def func(a=algo, g=geometry, o=options):
                    return a.func(weights, np.random.default_rng(1), geometry=g, **o)

                def pipeline(a=name, g=geometry, o=options):
                    return generate(weights, algorithm=a, geometry=g, rng=1, **o)

                t1 = best_of(func, reps)
                t2 = best_of(pipeline, reps)
                label = " ".join(f"{v}" for v in options.values()) or geometry
                print(
                    f"  {name:<15} {label:<7} {t1 * 1000:8.1f} ms {n * n / t1 / 1e6:6.1f} M/s"
                    f" | {t2 * 1000:8.1f} ms {n * n / t2 / 1e6:6.1f} M/s"
                )


_MEMORY_PROBE = """
import json, resource, sys
import numpy as np
from mazeart import ALGORITHMS
name, geometry, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
algo = ALGORITHMS[name]
algo.func(np.zeros((8, 8), np.int32), np.random.default_rng(0), geometry=geometry)  # load kernels
weights = np.zeros((n, n), np.int32)
weights[:] = 0
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
maze = algo.func(weights, np.random.default_rng(1), geometry=geometry)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"bytes_per_cell": (peak - base) * 1024 / (n * n)}))
"""


def bench_memory(n: int) -> None:
    print(f"peak memory above the loaded preset, {n} x {n} = {n * n / 1e6:.0f} M cells")
    for name, algo in ALGORITHMS.items():
        for geometry in algo.geometries:
            if name == "aldous-broder" and n > 2000:
                out = "skipped (cover time)"
            else:
                res = subprocess.run(
                    [sys.executable, "-c", _MEMORY_PROBE, name, geometry, str(n)],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                out = f"{json.loads(res.stdout)['bytes_per_cell']:6.1f} bytes/cell"
            print(f"  {name:<15} {geometry:<6} {out}")


def bench_cli(repeat: int) -> None:
    cmd = [sys.executable, "-m", "mazeart", "samples/horse.png", "-o", "", "--cells", "150", "-q"]
    # As installed: bytecode cached (pip compiles it at install time).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def timed(command, **kw) -> float:
        t = time.perf_counter()
        subprocess.run(command, cwd=REPO, check=True, **kw)
        return time.perf_counter() - t

    with tempfile.TemporaryDirectory() as tmp:
        cmd[5] = str(Path(tmp) / "x.svg")
        timed(cmd, env=env)  # make sure bytecode and kernels are cached
        warm = [timed(cmd, env=env) for _ in range(repeat)]
        cold = [
            timed(cmd, env=dict(env, NUMBA_CACHE_DIR=str(Path(tmp) / f"empty-cache-{i}")))
            for i in range(2)
        ]
        base = [timed([sys.executable, "-c", "import numba, numpy"], env=env) for _ in range(3)]
    print("mazeart samples/horse.png -o x.svg --cells 150")
    print(f"  cached kernels: best {min(warm):.2f} s, median {statistics.median(warm):.2f} s wall")
    print(f"  empty cache:    best {min(cold):.2f} s wall (first run: kernels compile)")
    print(f"  for scale, python -c 'import numba, numpy' alone: {min(base):.2f} s")


def bench_use(n: int, repeat: int) -> None:
    import io

    from mazeart import braid, measure, random_paths, solve
    from mazeart.export.pdf import write_pdf
    from mazeart.mazefile import dumps, loads

    maze = generate(np.zeros((n, n), np.int32), algorithm="backtracker", rng=1)
    loops = braid(maze, 0.3, np.random.default_rng(0))
    print(f"using a {n} x {n} backtracker maze (solution {len(solve(maze))} cells)")
    for method in ("bfs", "astar", "dead-end-filling", "wall-follower"):
        t = best_of(lambda m=method: solve(maze, method=m), repeat)
        print(f"  solve {method:<17} {1000 * t:7.1f} ms")
    t = best_of(lambda: random_paths(loops, 5, np.random.default_rng(0)), repeat)
    print(f"  5 random paths (braided) {1000 * t:7.1f} ms")
    print(f"  measure (all metrics)    {1000 * best_of(lambda: measure(maze), repeat):7.1f} ms")
    text = dumps(maze)
    print(f"  save to JSON             {1000 * best_of(lambda: dumps(maze), repeat):7.1f} ms "
          f"({len(text) / 1e6:.1f} MB)")  # fmt: skip
    print(f"  load from JSON           {1000 * best_of(lambda: loads(text), repeat):7.1f} ms")
    small = generate(np.zeros((100, 100), np.int32), rng=1)
    t = best_of(lambda: write_pdf(small, io.BytesIO()), repeat)
    print(f"  PDF, 100 x 100 with key  {1000 * t:7.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--memory-size", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", choices=["kernel", "speed", "memory", "use", "cli"])
    args = parser.parse_args()
    if args.only in (None, "kernel"):
        bench_kernel(args.size, args.repeat)
    if args.only in (None, "speed"):
        bench_speed(args.size, args.repeat)
    if args.only in (None, "memory"):
        bench_memory(args.memory_size)
    if args.only in (None, "use"):
        bench_use(args.size, args.repeat)
    if args.only in (None, "cli"):
        bench_cli(max(args.repeat, 5))


if __name__ == "__main__":
    main()
