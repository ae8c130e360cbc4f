"""Mazes made by hand: one pen stroke against vpype, and the time and memory of a printed
model and a cut sheet. Run from the repository root:

    python benchmarks/bench_make.py [--only stroke|model]

**stroke**: the horse (samples/horse.png) drawn for a plotter at 80 cells (the default)
and 300 cells across, as ``--plotter`` writes it and optimised by vpype
(``vpype read linemerge linesort write``), and as ``--plotter --one-stroke`` writes it.
All three files are read by vpype (``read_multilayer_svg``) and measured on the walls'
layer: paths (pen lifts), pen-down length (drawing and retracing), pen-up travel, the
total the pen moves; the retraced share is the pen-down length over the plain file's.
Then the time of the one-stroke tour alone (compiled, best of three) and of the whole
command with and without ``--one-stroke``.

**model**: a 200 x 200 maze written as STL, 3MF and a cut SVG by the command line, each
in a process of its own: wall-clock time and the process's peak memory (its largest
resident set, from ``getrusage``), beside the same maze written as a PNG.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
HORSE = REPO / "samples" / "horse.png"


def run(args: list[str]) -> tuple[float, float]:
    """A command's wall-clock seconds and peak memory (MiB) in a process of its own."""
    code = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)\n"
        "t = time.perf_counter() - t\n"
        "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024\n"
        "print(t, peak)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, *args], check=True, capture_output=True,
                         text=True, cwd=REPO).stdout.split()  # fmt: skip
    return float(out[0]), float(out[1])


def best(args: list[str], times: int = 3) -> tuple[float, float]:
    runs = [run(args) for _ in range(times)]
    return min(t for t, _ in runs), max(m for _, m in runs)


def walls(svg: Path) -> dict[str, float]:
    import vpype

    doc = vpype.read_multilayer_svg(str(svg), quantization=0.1)
    for lc in doc.layers.values():
        if lc.property("vp_name") == "walls":
            down = lc.length()
            up = lc.pen_up_length()[0]
            return {"paths": len(lc), "down": down, "up": up, "total": down + up}
    raise SystemExit(f"{svg}: no walls layer")


def stroke(tmp: Path) -> None:
    import mazeart
    from mazeart._jit import jit_mode
    from mazeart.export._style import Style
    from mazeart.export.scene import build_scene, concat
    from mazeart.export.stroke import plan_strokes

    print("## One stroke against vpype (walls layer, vpype's units: CSS pixels)\n")
    print("| horse | file | pen lifts | pen-down | retraced share | pen-up | total travel |")
    print("|---|---|---:|---:|---:|---:|---:|")
    timings = []
    for cells in (80, 300):
        plain, tidy = tmp / f"plain{cells}.svg", tmp / f"vpype{cells}.svg"
        one = tmp / f"one{cells}.svg"
        common = [str(HORSE), "--cells", str(cells), "--seed", "1", "--plotter", "-q"]
        subprocess.run(["mazeart", *common, "-o", str(plain)], check=True)
        subprocess.run(["vpype", "read", str(plain), "linemerge", "linesort", "write", str(tidy)],
                       check=True)  # fmt: skip
        subprocess.run(["mazeart", *common, "--one-stroke", "-o", str(one)], check=True)
        ink = walls(plain)["down"]
        for name, path in (("--plotter", plain), ("vpype linemerge linesort", tidy),
                           ("--plotter --one-stroke", one)):  # fmt: skip
            w = walls(path)
            share = w["down"] / ink - 1
            print(f"| {cells} cells | {name} | {w['paths']} | {w['down']:,.0f} | {share:.1%} | "
                  f"{w['up']:,.0f} | {w['total']:,.0f} |")  # fmt: skip
        maze = mazeart.make(HORSE, cells=cells, rng=1).maze
        scene = build_scene(maze, Style(plotter=True))
        lines = concat([s.lines for lay in scene.layers if lay.name in ("walls", "outline")
                        for s in lay.strokes])  # fmt: skip
        with jit_mode("always"):
            plan_strokes(lines)
            tour = min(_timed(plan_strokes, lines) for _ in range(3))
        plain_t, _ = best(["mazeart", *common, "-o", str(plain)])
        one_t, _ = best(["mazeart", *common, "--one-stroke", "-o", str(one)])
        timings.append((cells, maze.n_cells, len(lines), tour, plain_t, one_t))
    print("\n| horse | maze cells | wall lines | one-stroke tour | command | with --one-stroke |")
    print("|---|---:|---:|---:|---:|---:|")
    for cells, n, k, tour, a, b in timings:
        print(f"| {cells} cells | {n:,} | {k:,} | {tour:.3f} s | {a:.2f} s | {b:.2f} s |")
    print()


def _timed(func, *args) -> float:
    t = time.perf_counter()
    func(*args)
    return time.perf_counter() - t


def model(tmp: Path) -> None:
    print("## A 200 x 200 maze made by hand (wall-clock, peak memory of the process)\n")
    print("| output | command | time | peak memory |")
    print("|---|---|---:|---:|")
    for out, extra in (("maze.png", []), ("maze.stl", []), ("maze.3mf", []),
                       ("maze.stl", ["--solution"]), ("cut.svg", ["--cut"])):  # fmt: skip
        args = ["mazeart", "200x200", "--seed", "1", "-o", str(tmp / out), "-q", *extra]
        t, peak = best(args)
        shown = " ".join(["mazeart 200x200", "-o", out, *extra])
        print(f"| {out} | `{shown}` | {t:.2f} s | {peak:,.0f} MiB |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=["stroke", "model"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        if args.only in (None, "stroke"):
            stroke(tmp)
        if args.only in (None, "model"):
            model(tmp)


if __name__ == "__main__":
    main()
