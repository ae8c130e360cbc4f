"""The pipeline against its kernels and a plain C reference, memory per cell, the shaping
passes, two scaling tables and start-up. Run from the repository root:

    python benchmarks/bench_scale.py                      # everything, default sizes
    python benchmarks/bench_scale.py --only pipeline      # or: memory, shaping, scaling, startup
    python benchmarks/bench_scale.py --only pipeline --size 4000 --algorithm weighted-dfs

``pipeline``  every registered generator on an all-free ``--size`` square: the time
              spent in its compiled kernels (every call from Python into compiled
              code, summed), its public function, and the whole ``generate()``;
              for the seven families of ``c_reference.c`` the C time too (built with
              the system C compiler; skipped with a notice where there is none).
              Ratios: function / kernel, generate / function, function / C.
``memory``    peak memory in bytes per cell of the public function and of
              ``generate()`` at ``--memory-size`` (4000: 16 M cells), each in a
              fresh process: the rise of peak RSS above the loaded kernels and preset.
``shaping``   ``--braid 1.0`` and ``--prune-dead-ends`` on a 2000 x 2000 Prim's maze,
              against the generator.
``scaling``   ``--place key=1`` on growing rectangles, and the blocks geometry's
              connectivity pass on growing grids of islands (8 x 8 squares, 10 apart);
              time per cell should stay flat when the pass is linear.
``startup``   wall time of ``mazeart --help``, ``python -c "import numba"`` and the
              main job at 150 cells with cached kernels; the ``-X importtime``
              breakdown of the main job's imports.

Times are the best of ``--repeat`` runs after one warm-up call (this machine is
shared and noisy: read the ratios, measured side by side in one run).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

import mazeart._jit as jit
from mazeart import ALGORITHMS, generate

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

import _cref  # noqa: E402  (the C reference's builder, beside this file)
from bench_generate import best_of  # noqa: E402  (best of the runs after one warm-up)

# ----------------------------------------------------------------------------- timing


class KernelClock:
    """Sums the wall time of every call from Python into a compiled kernel."""

    def __init__(self) -> None:
        self.total = 0.0
        self._call = jit._Kernel.__call__

    def __enter__(self) -> KernelClock:
        clock = self
        original = self._call

        def timed(kernel, *args, **kwargs):
            t = time.perf_counter()
            try:
                return original(kernel, *args, **kwargs)
            finally:
                clock.total += time.perf_counter() - t

        jit._Kernel.__call__ = timed  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        jit._Kernel.__call__ = self._call  # type: ignore[method-assign]


def side_by_side(
    func: Callable[[], object], pipeline: Callable[[], object], repeat: int
) -> tuple[float, float, float]:
    """Best times of the kernels inside ``func``, of ``func`` and of ``pipeline`` over
    ``repeat`` rounds after one warm-up of each. A round times one call of ``func``
    (and its kernels, inside that same call) and one of ``pipeline``, so a slow spell
    of this shared machine falls on both sides of a ratio; which goes first alternates
    (the second call of a round may find the first one's memory ready)."""
    func()
    pipeline()
    k = f = g = float("inf")
    for i in range(repeat):
        for which in (0, 1) if i % 2 == 0 else (1, 0):
            if which == 0:
                with KernelClock() as clock:
                    t = time.perf_counter()
                    func()
                    f = min(f, time.perf_counter() - t)
                k = min(k, clock.total)
            else:
                t = time.perf_counter()
                pipeline()
                g = min(g, time.perf_counter() - t)
    return k, f, g


# ----------------------------------------------------------------------------- pipeline

C_NAME = {"binary-tree": "binary_tree"}


def bench_pipeline(n: int, repeat: int, names: list[str] | None = None) -> None:
    weights = np.zeros((n, n), np.int32)
    with tempfile.TemporaryDirectory() as tmp:
        binary = _cref.build(Path(tmp))
        if binary is None:
            print("  (no C compiler: the C column is skipped)")
        print(f"generators on {n} x {n} free cells, ms (best of {repeat} rounds side by side)")
        print(
            f"  {'algorithm':<15} {'geometry':<7} {'kernel':>8} {'function':>9} {'generate':>9}"
            f" {'C':>7} | {'fn/kernel':>9} {'gen/fn':>6} {'fn/C':>5}"
        )
        for name, algo in ALGORITHMS.items():
            if names and name not in names:
                continue
            if name == "aldous-broder" and n > 1000:
                continue  # cover time: minutes at this size
            for geometry in algo.geometries:

                def func(a=algo, g=geometry):
                    return a.func(weights, np.random.default_rng(1), geometry=g)

                def pipeline(a=name, g=geometry):
                    return generate(weights, algorithm=a, geometry=g, rng=1)

                reps = min(repeat, 2) if name == "flow" and n > 2000 else repeat
                k, f, g = side_by_side(func, pipeline, reps)
                c_family = C_NAME.get(name, name)
                c = (
                    _cref.run(binary, c_family, n, n, repeat=repeat)["best_s"]
                    if binary is not None
                    and c_family in _cref.FAMILIES
                    and geometry == ("blocks" if c_family in _cref.BLOCKS else "cells")
                    else None
                )
                c_text = f"{1000 * c:7.1f}" if c else f"{'':>7}"
                ratio_c = f"{f / c:5.2f}" if c else f"{'':>5}"
                print(
                    f"  {name:<15} {geometry:<7} {1000 * k:8.1f} {1000 * f:9.1f} {1000 * g:9.1f}"
                    f" {c_text} | {f / k:9.2f} {g / f:6.2f} {ratio_c}",
                    flush=True,
                )


# ----------------------------------------------------------------------------- memory

_MEMORY_PROBE = """
import json, resource, sys
import numpy as np
from mazeart import ALGORITHMS, generate
what, name, geometry, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
algo = ALGORITHMS[name]
generate(np.zeros((8, 8), np.int32), algorithm=name, geometry=geometry, rng=0)  # load kernels
weights = np.zeros((n, n), np.int32)
weights[:] = 0
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
if what == "function":
    maze = algo.func(weights, np.random.default_rng(1), geometry=geometry)
else:
    maze = generate(weights, algorithm=name, geometry=geometry, rng=1)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"bytes_per_cell": (peak - base) * 1024 / (n * n)}))
"""


def probe_memory(what: str, name: str, geometry: str, n: int) -> float:
    res = subprocess.run(
        [sys.executable, "-c", _MEMORY_PROBE, what, name, geometry, str(n)],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(json.loads(res.stdout)["bytes_per_cell"])


def bench_memory(n: int) -> None:
    print(f"peak memory above the loaded preset, {n} x {n} = {n * n / 1e6:.0f} M cells, bytes/cell")
    print(f"  {'algorithm':<15} {'geometry':<7} {'function':>9} {'generate':>9}")
    for name, algo in ALGORITHMS.items():
        if name == "aldous-broder" and n > 2000:
            continue
        for geometry in algo.geometries:
            f = probe_memory("function", name, geometry, n)
            g = probe_memory("generate", name, geometry, n)
            print(f"  {name:<15} {geometry:<7} {f:9.1f} {g:9.1f}", flush=True)


# ----------------------------------------------------------------------------- shaping


def bench_shaping(n: int, repeat: int) -> None:
    from mazeart import braid, prune_dead_ends

    weights = np.zeros((n, n), np.int32)
    print(f"shaping a {n} x {n} Prim's maze, ms (best of {repeat})")
    for geometry in ("cells", "blocks"):
        name = "prim" if geometry == "cells" else "prim-blocks"
        algo = ALGORITHMS[name]
        gen = best_of(lambda a=algo: a.func(weights, np.random.default_rng(1)), repeat)
        maze = generate(weights, algorithm=name, rng=1)
        b = best_of(lambda m=maze: braid(m, 1.0, np.random.default_rng(2)), repeat)
        p = best_of(lambda m=maze: prune_dead_ends(m), repeat)
        print(
            f"  {name:<12} generator {1000 * gen:8.1f} | braid 1.0 {1000 * b:8.1f} "
            f"({b / gen:4.2f}x) | prune {1000 * p:8.1f} ({p / gen:4.2f}x)",
            flush=True,
        )


# ----------------------------------------------------------------------------- scaling


def islands(n: int) -> np.ndarray:
    """An n x n blocks preset of 8 x 8 free squares, 10 apart (n // 10 squared islands)."""
    from mazeart.weights import FORBIDDEN

    w = np.full((n, n), FORBIDDEN, np.int32)
    for r in range(1, n - 8, 10):
        for c in range(1, n - 8, 10):
            w[r : r + 8, c : c + 8] = 0
    return w


def bench_scaling(repeat: int) -> None:
    print("--place key=1 on an n x n rectangle (weighted DFS), ms")
    for n in (100, 200, 300, 400, 600):
        w = np.zeros((n, n), np.int32)
        plain = best_of(lambda w=w: generate(w, rng=1), repeat)
        placed = best_of(lambda w=w: generate(w, rng=1, place={"key": 1}), repeat)
        extra = placed - plain
        print(
            f"  {n:>4} x {n:<4} without {1000 * plain:8.1f}  with {1000 * placed:8.1f}"
            f"  place: {1e9 * extra / n**2:6.1f} ns/cell",
            flush=True,
        )
    print("blocks geometry, islands joined by the connectivity pass, ms")
    for n in (200, 400, 800, 1200):
        w = islands(n)
        count = len(range(1, n - 8, 10)) ** 2
        apart = best_of(
            lambda w=w: generate(w, geometry="blocks", rng=1, islands="separate"), repeat
        )
        joined = best_of(lambda w=w: generate(w, geometry="blocks", rng=1), repeat)
        extra = joined - apart
        print(
            f"  {n:>4} x {n:<4} {count:>6} islands  separate {1000 * apart:8.1f}"
            f"  connected {1000 * joined:8.1f}  pass: {1e9 * extra / n**2:6.1f} ns/cell",
            flush=True,
        )


# ----------------------------------------------------------------------------- start-up


def bench_startup(repeat: int) -> None:
    env = {k: v for k, v in os.environ.items()
           if k != "PYTHONDONTWRITEBYTECODE" and not k.startswith("MAZEART_")}  # fmt: skip

    def wall(cmd: list[str], **extra: str) -> float:
        times = []
        for _ in range(repeat + 1):
            t = time.perf_counter()
            subprocess.run(cmd, cwd=REPO, env={**env, **extra}, check=True, capture_output=True)
            times.append(time.perf_counter() - t)
        return min(times[1:])

    def first(cmd: list[str], tmp: str) -> float:
        """A run with numba's cache empty (a fresh folder each time): a first run."""
        times = []
        for i in range(repeat):
            cache = str(Path(tmp) / f"numba-cache-{len(cmd)}-{i}")
            t = time.perf_counter()
            subprocess.run(cmd, cwd=REPO, env={**env, "NUMBA_CACHE_DIR": cache}, check=True,
                           capture_output=True)  # fmt: skip
            times.append(time.perf_counter() - t)
        return min(times)

    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "x.svg")
        job = [sys.executable, "-m", "mazeart", "samples/horse.png", "-o", out, "-q"]
        small = [sys.executable, "-m", "mazeart", "30x20", "-o", out, "-q"]
        numba = wall([sys.executable, "-c", "import numba"])
        helps = wall([sys.executable, "-m", "mazeart", "--help"])
        main = wall(job)
        compiled = wall(job, MAZEART_JIT="always")
        main_first = first(job, tmp)
        small_first = first(small, tmp)
        res = subprocess.run([sys.executable, "-X", "importtime", *job[1:]], cwd=REPO, env=env,
                             check=True, capture_output=True, text=True)  # fmt: skip
    print("start-up, wall seconds")
    print(f"  python -c 'import numba'                    {numba:6.2f}")
    print(f"  mazeart --help                              {helps:6.2f}")
    for label, value in (
        ("mazeart samples/horse.png -o x.svg", main),
        ("  every kernel compiled (cache warm)", compiled),
        ("  first run (numba's cache empty)", main_first),
        ("mazeart 30x20 -o x.svg, first run", small_first),
    ):
        print(f"  {label:<43} {value:6.2f}  ({value / numba:.2f}x import numba)")
    rows = []
    for line in res.stderr.splitlines():
        if not line.startswith("import time:") or line.count("|") != 2:
            continue
        _, cumulative, name = line[12:].split("|")
        if cumulative.strip().isdigit() and not name[1:].startswith(" "):  # not nested
            rows.append((int(cumulative), name.strip()))
    print("  -X importtime, the main job's imports, not nested, by time:")
    for us, name in sorted(rows, reverse=True)[:10]:
        print(f"    {us / 1000:7.1f} ms  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=2000)
    parser.add_argument("--memory-size", type=int, default=4000)
    parser.add_argument("--shaping-size", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--algorithm", action="append", help="pipeline: only this generator (repeatable)"
    )
    parser.add_argument("--only", choices=["pipeline", "memory", "shaping", "scaling", "startup"])
    args = parser.parse_args()
    if args.only in (None, "pipeline"):
        bench_pipeline(args.size, args.repeat, args.algorithm)
    if args.only in (None, "memory"):
        bench_memory(args.memory_size)
    if args.only in (None, "shaping"):
        bench_shaping(args.shaping_size, args.repeat)
    if args.only in (None, "scaling"):
        bench_scaling(args.repeat)
    if args.only in (None, "startup"):
        bench_startup(args.repeat)


if __name__ == "__main__":
    main()
