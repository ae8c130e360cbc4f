"""Drawing speed and memory, as ratios measured side by side. Run from the repository root:

    python benchmarks/bench_draw.py                # everything
    python benchmarks/bench_draw.py --only png     # or: big, pdf, vector, grids, memory, plotter

``png``      a 2000 x 2000 maze written as PNG (5 px cells: 10,010 px square) against
             Pillow encoding the same picture from a ready array (same palette, same
             encoder settings): the cost of drawing on top of encoding.
``big``      4000 x 4000: generate + solve + PNG (2 px cells) against the bare
             backtracker kernel on the same grid.
``pdf``      a 1000 x 1000 maze as a two-page PDF (puzzle and key) against its PNG
             (default 10 px cells).
``vector``   4000 x 4000 with its solution written as SVG and as PDF against its PNG (2 px
             cells), each in a fresh process with the maze made: CPU seconds and the rise
             of peak memory above the made maze, in bytes a cell (``--side`` for another
             size).
``grids``    a 500 x 500 maze on each other grid (hex, triangle, polar, upsilon) written
             as PNG and as SVG, per cell against the square maze of the same size: the
             targets are 2x for PNG and 1.5x for SVG.
``memory``   peak memory of writing the 4000 x 4000 PNG, in a fresh process: the rise
             of peak RSS above the process with the maze made, in bytes per cell.
``plotter``  pen-up travel of the SVG against ``vpype read X linemerge linesort``, at
             100 and 300 cells on the horse (needs vpype).

Times are the best of ``--repeat`` runs after a warm-up call (this machine is shared
and noisy: read the ratios).
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from bench_generate import best_of  # the same timing rule in both scripts

REPO = Path(__file__).resolve().parents[1]


def rectangle(n: int):
    from mazeart import generate

    return generate(np.zeros((n, n), np.int32), algorithm="backtracker", rng=1)


def bench_png(repeat: int, n: int = 2000, cell_size: int = 5) -> float:
    """Print the table; return write_png's time over Pillow's encoding of the same picture."""
    from PIL import Image

    from mazeart.export.png import _zlib_level, to_png_image, write_png

    maze = rectangle(n)
    t_png = best_of(lambda: write_png(maze, io.BytesIO(), cell_size=cell_size), repeat)
    img = to_png_image(maze, cell_size=cell_size)
    ready = Image.fromarray(np.asarray(img))
    ready.putpalette(img.getpalette())
    level = _zlib_level(img)  # the same encoder settings as write_png uses at this size
    t_enc = best_of(lambda: ready.save(io.BytesIO(), format="PNG", compress_level=level), repeat)
    t_six = best_of(lambda: ready.save(io.BytesIO(), format="PNG"), 1)
    print(f"{n} x {n} maze as PNG at {cell_size} px, {img.width} x {img.height} px ({img.mode}, "
          f"{len(img.getpalette()) // 3} colours)")  # fmt: skip
    print(f"  mazeart write_png          {t_png:6.2f} s")
    print(f"  Pillow encode, ready array {t_enc:6.2f} s  (zlib level {level}, as write_png here)")
    print(f"  (Pillow's default level 6: {t_six:.2f} s)")
    print(f"  ratio                      {t_png / t_enc:6.2f}  (target <= 3)", flush=True)
    return t_png / t_enc


def bench_big(repeat: int) -> None:
    from mazeart import ALGORITHMS, generate, solve
    from mazeart._kernels.carve import backtracker as _backtrack
    from mazeart.export.png import write_png
    from mazeart.generators._common import CellGrid

    n = 4000
    weights = np.zeros((n, n), np.int32)

    def kernel():
        g = CellGrid(weights, np.random.default_rng(1))
        _backtrack(g.topology, g.flat_free, g.starts, g.state, g.passages, g.order)

    def whole():
        maze = generate(weights, algorithm="backtracker", rng=1)
        path = solve(maze)
        write_png(maze, io.BytesIO(), cell_size=2, solutions=[path])

    assert "backtracker" in ALGORITHMS
    t_kernel = best_of(kernel, repeat)
    t_whole = best_of(whole, max(1, repeat - 1))
    print(f"{n} x {n}: generate + solve + PNG (2 px cells) against the bare backtracker kernel")
    print(f"  backtracker kernel         {t_kernel:6.2f} s")
    print(f"  generate + solve + PNG     {t_whole:6.2f} s")
    print(f"  ratio                      {t_whole / t_kernel:6.2f}  (target <= 10)")


def bench_pdf(repeat: int) -> None:
    from mazeart.export.pdf import write_pdf
    from mazeart.export.png import write_png

    maze = rectangle(1000)
    t_png = best_of(lambda: write_png(maze, io.BytesIO()), repeat)
    buf = io.BytesIO()
    t_pdf = best_of(lambda: write_pdf(maze, io.BytesIO()), repeat)
    write_pdf(maze, buf)
    print("1000 x 1000 maze: PDF (puzzle + answer key) against PNG (10 px cells)")
    print(f"  PNG                        {t_png:6.2f} s")
    print(f"  PDF                        {t_pdf:6.2f} s ({len(buf.getvalue()) / 1e6:.1f} MB)")
    print(f"  ratio                      {t_pdf / t_png:6.2f}  (target <= 5)")


_MEMORY_PROBE = """
import io, json, resource, sys
import numpy as np
from mazeart import generate, solve
from mazeart.export.png import write_png
n = int(sys.argv[1])
maze = generate(np.zeros((n, n), np.int32), algorithm="backtracker", rng=1)
path = solve(maze)
write_png(generate(np.zeros((8, 8), np.int32), rng=1), io.BytesIO())  # kernels loaded
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
write_png(maze, io.BytesIO(), cell_size=2, solutions=[path])
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"bytes_per_cell": (peak - base) * 1024 / (n * n)}))
"""


_VECTOR_PROBE = """
import io, json, resource, sys, time
import numpy as np
import mazeart
from mazeart import generate, solve
from mazeart.export import write
mazeart.limits(max_pixels=400_000_000, max_cells=20_000_000).__enter__()
n, suffix = int(sys.argv[1]), sys.argv[2]
maze = generate(np.zeros((n, n), np.int32), algorithm="backtracker", rng=1)
path = solve(maze)
write(generate(np.zeros((300, 300), np.int32), rng=1), sys.argv[3] + "." + suffix)  # compiled
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
started = time.process_time()
write(maze, sys.argv[3], solutions=[path], **({"cell_size": 2} if suffix == "png" else {}))
cpu = time.process_time() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"cpu": cpu, "bytes_per_cell": (peak - base) * 1024 / (n * n)}))
"""


def bench_vector(side: int) -> dict[str, dict[str, float]]:
    """Print the table; return each format's ``cpu`` and ``bytes_per_cell``."""
    print(f"{side} x {side} with its solution: SVG and PDF against PNG (2 px cells), "
          "each in a fresh process")  # fmt: skip
    print(f"  {'format':<8}{'CPU s':>8}{'x PNG':>8}{'B/cell':>9}{'MB':>9}")
    measured: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for suffix in ("png", "svg", "pdf"):
            out = Path(tmp) / f"m.{suffix}"
            res = subprocess.run([sys.executable, "-c", _VECTOR_PROBE, str(side), suffix, str(out)],
                                 capture_output=True, text=True, check=True)  # fmt: skip
            got = measured[suffix] = json.loads(res.stdout)
            png = measured["png"]["cpu"]
            mark = "" if suffix == "png" else "  (target <= 5x, < 150 B)"
            print(f"  {suffix:<8}{got['cpu']:>8.1f}{got['cpu'] / png:>8.2f}"
                  f"{got['bytes_per_cell']:>9.0f}{out.stat().st_size / 1e6:>9.0f}{mark}",
                  flush=True)  # fmt: skip
    return measured


def bench_grids(repeat: int) -> dict[str, dict[str, float]]:
    """Print the table; return each grid's ``cells`` and its seconds (``png``, ``svg``)."""
    import mazeart
    from mazeart.export import write

    folder = Path(tempfile.mkdtemp())
    print("500 x 500 mazes written as PNG and SVG: seconds per million cells, and x square")
    print(f"{'grid':<10}{'cells':>9}{'PNG':>8}{'x sq':>7}{'SVG':>8}{'x sq':>7}")
    measured: dict[str, dict[str, float]] = {}
    for kind in ("square", "hex", "triangle", "polar", "upsilon"):
        maze = mazeart.make("500x500", grid=kind, rng=1).maze
        cells = int(np.count_nonzero(maze.mask))
        got = measured[kind] = {"cells": cells}
        for fmt in ("png", "svg"):
            out = folder / f"maze.{fmt}"
            got[fmt] = best_of(lambda m=maze, o=out: write(m, o), repeat)
        base = measured["square"]
        per = {f: got[f] / cells * 1e6 for f in ("png", "svg")}
        marks = [per[f] / (base[f] / base["cells"] * 1e6) for f in ("png", "svg")]
        flags = "".join(f"  ({f} target {t}x missed)" for f, t, r in
                        (("PNG", 2.0, marks[0]), ("SVG", 1.5, marks[1])) if r > t)  # fmt: skip
        print(f"{kind:<10}{cells:>9,}{per['png']:>8.2f}{marks[0]:>7.2f}{per['svg']:>8.2f}"
              f"{marks[1]:>7.2f}{flags}", flush=True)  # fmt: skip
    shutil.rmtree(folder)
    return measured


def bench_memory() -> None:
    n = 4000
    res = subprocess.run(
        [sys.executable, "-c", _MEMORY_PROBE, str(n)], capture_output=True, text=True, check=True
    )
    per_cell = json.loads(res.stdout)["bytes_per_cell"]
    print(f"{n} x {n} PNG (2 px cells), peak memory above the made maze")
    print(f"  {per_cell:6.1f} bytes per cell  (target < 100)")


def bench_plotter() -> None:
    vpype_cli = shutil.which("vpype")
    if vpype_cli is None:
        print("plotter: vpype is not installed, skipped")
        return
    import vpype

    from mazeart import make
    from mazeart.export import to_svg

    print("pen-up travel (vpype's own measure) against vpype linemerge linesort, the horse")
    for cells in (100, 300):
        maze = make(REPO / "samples" / "horse.png", cells=cells, rng=3).maze
        with tempfile.TemporaryDirectory() as tmp:
            ours, tidy = Path(tmp) / "ours.svg", Path(tmp) / "tidy.svg"
            ours.write_text(to_svg(maze, cell_size=2, margin=1))
            t = time.perf_counter()
            subprocess.run([vpype_cli, "read", ours, "linemerge", "linesort", "write", tidy],
                           check=True)  # fmt: skip
            t_vpype = time.perf_counter() - t

            def travel(path: Path) -> tuple[float, float, int]:
                doc = vpype.read_multilayer_svg(str(path), quantization=0.05)
                layers = list(doc.layers.values())
                up = sum(lc.pen_up_length()[0] for lc in layers)
                down = sum(lc.length() for lc in layers)
                return up, down, sum(len(lc) for lc in layers)

            (u0, d0, n0), (u1, _, n1) = travel(ours), travel(tidy)
        print(f"  {cells:>3} cells: mazeart {u0:9.0f} ({n0} lines), vpype {u1:9.0f} ({n1} lines)")
        print(f"             ratio {u0 / u1:.3f} (target <= 1.25); pen down {d0:.0f}; "
              f"vpype took {t_vpype:.1f} s")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--only", choices=["png", "big", "pdf", "vector", "grids", "memory", "plotter"]
    )
    parser.add_argument("--side", type=int, default=4000)
    args = parser.parse_args()
    import mazeart

    # The pictures measured here are larger than the default limit of 100 Mpx on purpose.
    with mazeart.limits(max_pixels=400_000_000, max_cells=20_000_000):
        if args.only in (None, "png"):
            bench_png(args.repeat)
        if args.only in (None, "big"):
            bench_big(args.repeat)
        if args.only in (None, "pdf"):
            bench_pdf(args.repeat)
        if args.only in (None, "vector"):
            bench_vector(args.side)
        if args.only in (None, "grids"):
            bench_grids(args.repeat)
        if args.only in (None, "memory"):
            bench_memory()
        if args.only in (None, "plotter"):
            bench_plotter()


if __name__ == "__main__":
    main()
