"""The solution as part of the art, measured on words and drawings never tuned on. Run from the
repository root:

    python benchmarks/bench_route.py [--seeds 2]

Each row is a maze whose solution draws a word (in fonts the route was not written with:
the system's DejaVu Serif and Sans Mono, and the shipped Sans) or a line drawing made here
(a heart's outline, a star, a spiral), laid into the horse, the scikit-image logo or a
picture of the holdout set, on the square and hex grids; ``cells`` is what mazeart chose.

- *fidelity*: the share of the drawing's strokes (its skeleton, as laid into the figure)
  within half a cell of the drawn solution (the line through its cells' middles), and the
  farthest stroke point from it, in cells;
- *decisions*: the share of the solution's cells with a wrong turn off them, and the mean
  depth of those wrong turns (the most steps into each branch before it ends), beside the
  plain maze mazeart makes of the same picture and cells (the target: no easier);
- *hidden*: the share of closed walls along the solution over that in the rest of the maze
  (the target: within 10 % of 1);
- *straight*: the share of the solution's cells that are straight corridors (two passages
  whose neighbours lie on opposite sides, 150 degrees apart or more), and in brackets the
  share in the rest of the maze: a word's strokes followed cell by cell are three in four,
  and their long walls show the word on the unsolved page;
- *time*: the maze with its route against the plain maze, both made in full, each the best
  of two runs with compiled kernels (target 3x); and, last, the whole command's time on a
  fresh process, route against plain (the first mazes of a process run their kernels as
  Python, see ``mazeart/_jit.py``).

``--tone`` rows are the two-pictures mode: the host drawn by its tones, over the whole
picture, while the solution draws the drawing.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))

import mazeart  # noqa: E402
from mazeart._jit import jit_mode  # noqa: E402
from mazeart.image import figure_coverage  # noqa: E402
from mazeart.route import stroke_points, text_picture  # noqa: E402

SYSTEM_FONTS = Path("/usr/share/fonts/truetype/dejavu")


def drawings() -> dict[str, tuple[str, object]]:
    """Name: (option, value) of the solution's drawings."""
    out: dict[str, tuple[str, object]] = {}
    for word, font in (("HI", None), ("LOVE", SYSTEM_FONTS / "DejaVuSerif.ttf"),
                       ("42", SYSTEM_FONTS / "DejaVuSansMono.ttf")):  # fmt: skip
        if font is None or font.exists():
            out[f"'{word}' {font.stem if font else 'shipped'}"] = ("text", (word, font))
    for name, draw in (("heart", _heart), ("star", _star), ("spiral", _spiral)):
        img = Image.new("L", (400, 400), 255)
        draw(ImageDraw.Draw(img))
        out[name] = ("picture", img)
    return out


def _heart(d: ImageDraw.ImageDraw) -> None:
    t = np.linspace(0, 2 * np.pi, 200)
    x = 16 * np.sin(t) ** 3
    y = 13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t)
    d.line(list(zip(200 + 10 * x, 190 - 10 * y, strict=True)), fill=0, width=10)


def _star(d: ImageDraw.ImageDraw) -> None:
    a = np.pi / 2 + np.arange(6) * 4 * np.pi / 5
    d.line(list(zip(200 + 170 * np.cos(a), 210 - 170 * np.sin(a), strict=True)), fill=0, width=10)


def _spiral(d: ImageDraw.ImageDraw) -> None:
    t = np.linspace(0, 5 * np.pi, 400)
    d.line(list(zip(200 + 11 * t * np.cos(t), 200 + 11 * t * np.sin(t), strict=True)),
           fill=0, width=10)  # fmt: skip


def hosts() -> dict[str, Path]:
    """The pictures the routes are laid into, as files: each run reads its picture as the
    command line does (nothing read of it is kept from one run to the next)."""
    from holdout import PICTURES

    out = {"horse": REPO / "samples" / "horse.png", "logo": REPO / "samples" / "logo.png"}
    name = sorted(PICTURES)[0]
    out[name] = Path("/tmp") / f"mazeart-route-host-{name}.png"
    PICTURES[name]().save(out[name])
    return out


def wrong_turns(maze, path: np.ndarray) -> tuple[float, float]:
    """The solution's decisions a cell (its cells with a branch off it), and the mean depth
    of those branches: the most steps into each before it ends."""
    from collections import deque

    indptr, indices = maze.open_table
    on = np.zeros(len(indptr) - 1, bool)
    on[path] = True
    depth = np.full(on.size, -1, np.int64)
    root = np.full(on.size, -1, np.int64)
    queue = deque()
    for c in path:
        for n in indices[indptr[c] : indptr[c + 1]]:
            if not on[n] and depth[n] < 0:
                depth[n], root[n] = 1, n
                queue.append(int(n))
    while queue:
        c = queue.popleft()
        for n in indices[indptr[c] : indptr[c + 1]]:
            if not on[n] and depth[n] < 0:
                depth[n], root[n] = depth[c] + 1, root[c]
                queue.append(int(n))
    roots = np.unique(root[root >= 0])
    deepest = [depth[root == r].max() for r in roots]
    branched = {int(c) for c in path
                if any(not on[n] for n in indices[indptr[c] : indptr[c + 1]])}  # fmt: skip
    return len(branched) / len(path), float(np.mean(deepest)) if deepest else 0.0


def line_distance(points: np.ndarray, line: np.ndarray) -> np.ndarray:
    """Each point's distance to the polyline through ``line``'s points."""
    a, b = line[:-1], line[1:]
    ab = b - a
    length2 = np.maximum((ab**2).sum(axis=1), 1e-30)
    best = np.full(len(points), np.inf)
    for lo in range(0, len(points), 512):  # points by the block: a block times the segments
        p = points[lo : lo + 512, None, :]
        t = np.clip(((p - a) * ab).sum(axis=2) / length2, 0.0, 1.0)
        nearest = a + t[..., None] * ab
        best[lo : lo + 512] = np.sqrt(((p - nearest) ** 2).sum(axis=2)).min(axis=1)
    return best


def timed(picture, **options):
    """``mazeart.make``'s best time of two runs (the first also loads what the run needs),
    and its result."""
    best, out = float("inf"), None
    for _ in range(2):
        started = time.perf_counter()
        out = mazeart.make(picture, **options)
        best = min(best, time.perf_counter() - started)
    return best, out


def straight_cells(maze) -> np.ndarray:
    """Whether each cell is a straight corridor: two passages, to neighbours 150 degrees
    apart or more (seen from the cell's centre)."""
    indptr, indices = maze.open_table
    centres = maze.grid.centres
    two = np.flatnonzero(np.diff(indptr) == 2)
    u = centres[indices[indptr[two]]] - centres[two]
    v = centres[indices[indptr[two] + 1]] - centres[two]
    cos = (u * v).sum(axis=1) / (np.hypot(*u.T) * np.hypot(*v.T))
    out = np.zeros(len(indptr) - 1, bool)
    out[two[cos <= np.cos(np.radians(150))]] = True
    return out


def closed_share(maze) -> tuple[np.ndarray, np.ndarray]:
    g = maze.grid
    sides = np.diff(g.indptr) + np.bincount(g.wall_cells[g.wall_cells[:, 1] < 0, 0],
                                            minlength=g.n_cells)  # fmt: skip
    return 1 - np.diff(maze.open_table[0]) / sides, maze.mask.reshape(-1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--only", choices=("figure", "tone", "command"), default=None)
    args = parser.parse_args()
    with jit_mode("always"):
        for tone in (False, True):
            if args.only in (None, "tone" if tone else "figure"):
                table(args.seeds, tone)
    if args.only in (None, "command"):
        command()


def command() -> None:
    """The main job on the command line, a fresh process each run (best of three)."""
    base = [sys.executable, "-m", "mazeart", str(REPO / "samples" / "horse.png"), "-o"]
    out = Path("/tmp") / "mazeart-bench-route.svg"
    runs = {"route": ["--solution-text", "HI", "--seed", "1"]}
    first = subprocess.run([*base, str(out), *runs["route"]], capture_output=True, text=True,
                           check=True)  # fmt: skip
    cells = first.stderr.split(" x ")[0].rsplit(" ", 1)[1]
    runs["plain"] = ["--cells", cells, "--seed", "1"]
    best = {}
    for name, extra in runs.items():
        times = []
        for _ in range(3):
            started = time.perf_counter()
            subprocess.run([*base, str(out), *extra], capture_output=True, check=True)
            times.append(time.perf_counter() - started)
        best[name] = min(times)
    print(
        f"\n`mazeart samples/horse.png -o x.svg --solution-text HI`: {best['route']:.2f} s; "
        f"the plain maze of its {cells} cells: {best['plain']:.2f} s "
        f"({best['route'] / best['plain']:.2f}x)"
    )


def table(seeds: int, tone: bool) -> None:
    """The rows of every host, drawing and grid (the host's figure, or with ``tone``
    the whole host drawn by its tones)."""
    print(
        "| host | drawing | grid | cells | fidelity | farthest | decisions (plain) | "
        "wrong-turn depth (plain) | hidden | straight (rest) | time x plain |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for host, picture in hosts().items():
        shown = Image.open(picture)
        figure = (np.ones(shown.size[::-1], bool) if tone
                  else figure_coverage(shown) >= 0.5)  # fmt: skip
        for label, (kind, value) in drawings().items():
            option = ({"solution_text": value[0], "font": value[1]} if kind == "text"
                      else {"solution_picture": value})  # fmt: skip
            drawing = text_picture(value[0], font=value[1]) if kind == "text" else value
            for grid in ("square", "hex"):
                rows = []
                for seed in range(1, seeds + 1):
                    if kind == "picture":  # a picture option is a file
                        path = Path("/tmp") / f"mazeart-route-{label}.png"
                        value.save(path)
                        option = {"solution_picture": path}
                    try:
                        t_route, made = timed(picture, rng=seed, grid=grid, tone=tone,
                                              **option)  # fmt: skip
                    except mazeart.MazeartError as err:
                        print(f"| {host}{' (tone)' * tone} | {label} | {grid} | refused: {err} |")
                        break
                    maze = made.maze
                    cells = maze.width if maze.is_square else maze.grid.params["cols"]
                    t_plain, plain_made = timed(picture, rng=seed, grid=grid, cells=cells,
                                                tone=tone)  # fmt: skip
                    plain = plain_made.maze
                    route = np.asarray(maze.meta["route"])
                    places = made.places()
                    step = float(np.median(np.hypot(*np.diff(places[route], axis=0).T)))
                    strokes = stroke_points(drawing, figure)
                    gap = line_distance(strokes, places[route]) / step
                    closed, cellmask = closed_share(maze)
                    on = np.zeros(cellmask.size, bool)
                    on[route] = True
                    plain_path = [plain.cell_index(c) for c in mazeart.solve(plain)]
                    (d_m, w_m), (d_p, w_p) = (
                        wrong_turns(maze, route),
                        wrong_turns(plain, plain_path),
                    )
                    straight = straight_cells(maze)
                    rows.append((cells, np.mean(gap <= 0.5), gap.max(), d_m, d_p, w_m, w_p,
                                 closed[on].mean() / closed[cellmask & ~on].mean(),
                                 straight[on].mean(), straight[cellmask & ~on].mean(),
                                 t_route / t_plain))  # fmt: skip
                if rows:
                    r = np.mean(np.array(rows, float), axis=0)
                    name = f"{host}{' (tone)' * tone}"
                    print(f"| {name} | {label} | {grid} | {r[0]:.0f} | {r[1]:.3f} | {r[2]:.1f} | "
                          f"{r[3]:.3f} ({r[4]:.3f}) | {r[5]:.2f} ({r[6]:.2f}) | {r[7]:.3f} | "
                          f"{r[8]:.2f} ({r[9]:.2f}) | {r[10]:.2f} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
