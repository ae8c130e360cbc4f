"""Where a user waits, against its targets, in one run. Run from the repository root:

    python benchmarks/bench_waits.py                 # every row (about three minutes)
    python benchmarks/bench_waits.py --only grids    # or: vector, png, startup, kernels

``vector``   4000 x 4000 with its solution as SVG and as PDF against its PNG (2 px cells),
             each in a fresh process with the maze made: CPU seconds, and the rise of
             peak memory above the made maze in bytes a cell (bench_draw.py --only vector).
``png``      write_png against Pillow encoding the same picture from a ready array with
             the same palette and zlib level: 4000 x 4000 at 2 px cells, 2000 x 2000 at 5
             (bench_draw.py --only png, at 2000 x 2000 and 5 px).
``grids``    a 500 x 500 maze on each other grid as PNG and as SVG, per cell against the
             square maze (bench_draw.py --only grids); the polar grid's 250 rings hold
             fewer cells in the same picture, so its ratio per picture is shown too.
``startup``  CPU seconds of ``mazeart --help``, of an argument error, of the main job on
             the bundled horse with numba's cache empty (a first run after installing),
             each against ``python -c "import numba"``.
``kernels``  Kruskal's and digging at 4000 x 4000 against the plain C of the same
             algorithm (benchmarks/c_reference.c, built here; skipped without a compiler).

Times are the best of ``--repeat`` runs (CPU time for whole commands, wall time for calls
in this process); this machine is shared and noisy, so read the ratios, each measured side
by side in this one run. The last table lists every target with its ratio.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _cref  # the C reference's builder, beside this file
import bench_draw  # the drawing tables, measured there

REPO = Path(__file__).resolve().parents[1]
ROWS: list[tuple[str, float, float]] = []  # (what, ratio, target: at most)


def row(what: str, ratio: float, target: float) -> None:
    ROWS.append((what, ratio, target))


def bench_vector(side: int) -> None:
    measured = bench_draw.bench_vector(side)
    for suffix in ("svg", "pdf"):
        got = measured[suffix]
        row(f"{side}² + solution, {suffix.upper()} / PNG (CPU)",
            got["cpu"] / measured["png"]["cpu"], 5.0)  # fmt: skip
        row(f"{side}² {suffix.upper()}, peak bytes a cell / 150", got["bytes_per_cell"] / 150, 1.0)


def bench_png(repeat: int) -> None:
    for n, cell_size in ((4000, 2), (2000, 5)):
        ratio = bench_draw.bench_png(repeat, n, cell_size)
        row(f"PNG {n}² at {cell_size} px / Pillow encode", ratio, 3.0)


def bench_grids(repeat: int) -> None:
    measured = bench_draw.bench_grids(repeat)
    square = measured["square"]
    for kind, got in measured.items():
        if kind == "square":
            continue
        cells = got["cells"] / square["cells"]
        row(f"{kind} PNG / square, per cell", got["png"] / square["png"] / cells, 2.0)
        row(f"{kind} SVG / square, per cell", got["svg"] / square["svg"] / cells, 1.5)
    polar = measured["polar"]  # 250 rings: fewer cells than the square in the same picture
    print(f"(polar per picture, the same pixels: PNG {polar['png'] / square['png']:.2f}x, "
          f"SVG {polar['svg'] / square['svg']:.2f}x)")  # fmt: skip


def _cpu(cmd: list[str], repeat: int, **env: str) -> float:
    """Best CPU seconds (user + system) of a whole command."""
    best = float("inf")
    base = {k: v for k, v in os.environ.items() if not k.startswith("MAZEART_")}
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(cmd, cwd=REPO, env={**base, **env}, capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return best


def bench_startup(repeat: int) -> None:
    py = sys.executable
    numba = _cpu([py, "-c", "import numba"], repeat + 1)
    helps = _cpu([py, "-m", "mazeart", "--help"], repeat + 1)
    error = _cpu([py, "-m", "mazeart", "samples/horse.png", "-o", "x.svg", "--cells", "abc"],
                 repeat + 1)  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "maze.svg")
        job = [py, "-m", "mazeart", "samples/horse.png", "-o", out, "-q"]
        first = min(_cpu(job, 1, NUMBA_CACHE_DIR=str(Path(tmp) / f"cache{i}"))
                    for i in range(repeat))  # fmt: skip
    print("start-up, CPU seconds")
    for label, value in (("python -c 'import numba'", numba), ("mazeart --help", helps),
                         ("mazeart ... --cells abc (an argument error)", error),
                         ("mazeart samples/horse.png -o maze.svg, first run", first)):  # fmt: skip
        print(f"  {label:<50}{value:6.2f}  ({value / numba:.2f}x import numba)")
    row("first run of the main job, CPU s / 5 s", first / 5.0, 1.0)
    row("mazeart --help / import numba (CPU)", helps / numba, 0.3)
    row("an argument error / import numba (CPU)", error / numba, 0.3)


def bench_kernels(repeat: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        binary = _cref.build(Path(tmp))
        if binary is None:
            print("kernels: no C compiler, skipped")
            return
        n = 4000
        print(f"{n} x {n}: the registered generator against the plain C of its algorithm")
        for family, target in (("kruskal", 0.5), ("digging", 3.0)):
            c = _cref.run(binary, family, n, n, repeat=repeat)["best_s"]
            ours = _cref.time_package(family, n, repeat)
            print(f"  {family:<10} mazeart {ours:6.2f} s   C {c:6.2f} s   {ours / c:5.2f}x",
                  flush=True)  # fmt: skip
            row(f"{family} {n}² / C", ours / c, target)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--side", type=int, default=4000)
    parser.add_argument("--only", choices=["vector", "png", "grids", "startup", "kernels"])
    args = parser.parse_args()
    import mazeart

    with mazeart.limits(max_pixels=400_000_000, max_cells=20_000_000):
        for name, run in (("vector", lambda: bench_vector(args.side)),
                          ("png", lambda: bench_png(args.repeat)),
                          ("grids", lambda: bench_grids(args.repeat)),
                          ("startup", lambda: bench_startup(args.repeat)),
                          ("kernels", lambda: bench_kernels(args.repeat))):  # fmt: skip
            if args.only in (None, name):
                run()
                print()
    print(f"{'target':<52}{'ratio':>7}{'at most':>9}  met")
    for what, ratio, target in ROWS:
        print(f"{what:<52}{ratio:>7.2f}{target:>9.2f}  {'yes' if ratio <= target else 'NO'}")


if __name__ == "__main__":
    main()
