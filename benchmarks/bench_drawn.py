"""Mazes as drawn, on pictures never tuned on (``tests/holdout.py``). Run from the repo root:

    python benchmarks/bench_drawn.py [--seeds 3] [--only walk|design]

- ``walk``: the default output of every picture at 50, 100 and 200 cells, on every grid (the
  square grid plain, with the smooth outline and woven; hex, triangle, polar, upsilon), for
  each seed: rendered, then checked by ``mazeart.guide.drawn`` (the floor reached from the
  entrance, the exit, both doors open onto the ground around the maze, no other gap). Prints
  how many mazes were checked and every one that is not walkable as drawn.
- ``design``: for every picture whose figure holds a design (two or more colours), how
  plainly the default maze shows it. The design's boundaries are the picture's own: figure
  pixels where the colour changes by more than 10 in CIE Lab from a neighbour, at least two
  pixels in from the figure's edge. Two measures, each beside the same maze blind to the
  design (``edges=False``, same seed and cells):

  * *on walls*: the share of the boundary pixels within a quarter of a cell of drawn ink;
  * *ink*: how much darker the drawing is along the boundaries (a band a quarter of a cell
    either side) than over the whole figure, as a ratio of mean ink.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from scipy import ndimage

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))

from holdout import PICTURES  # noqa: E402

import mazeart  # noqa: E402
from mazeart.export.png import to_png_image  # noqa: E402
from mazeart.guide import drawn  # noqa: E402
from mazeart.image import figure_coverage, srgb_to_lab  # noqa: E402

SIZES = (50, 100, 200)
GRIDS = (
    ("square", {}), ("smooth", {"outline": "smooth"}), ("weave", {"weave": True}),
    ("hex", {"grid": "hex"}), ("triangle", {"grid": "triangle"}), ("polar", {"grid": "polar"}),
    ("upsilon", {"grid": "upsilon"}),
)  # fmt: skip


def walk(seeds: int) -> None:
    checked, bad = 0, []
    for name, draw in PICTURES.items():
        picture = draw()
        for label, how in GRIDS:
            for cells in SIZES:
                for seed in range(1, seeds + 1):
                    maze = mazeart.make(picture, cells=cells, rng=seed, **how).maze
                    check = drawn(maze)
                    checked += 1
                    ok = (check["reachable"] >= 0.999 and check["exit"] and check["doors"]
                          and check["leaks"] == 0 and check["pockets"] == 0)  # fmt: skip
                    if not ok:
                        bad.append((name, label, cells, seed, check))
    print(f"walkable as drawn: {checked - len(bad)} of {checked} mazes")
    for row in bad:
        print("  not walkable:", *row)


def design_boundary(picture) -> np.ndarray:
    """Pixels where the figure's colour changes (the picture's design), away from its edge."""
    figure = figure_coverage(picture) >= 0.5
    lab = srgb_to_lab(np.asarray(picture.convert("RGB"), dtype=np.float64) / 255.0)
    change = np.zeros(figure.shape, bool)
    for axis in (0, 1):
        step = np.linalg.norm(np.diff(lab, axis=axis), axis=2) > 10
        both = np.logical_and(np.take(figure, range(figure.shape[axis] - 1), axis=axis),
                              np.take(figure, range(1, figure.shape[axis]), axis=axis))  # fmt: skip
        hit = step & both
        if axis == 0:
            change[:-1] |= hit
            change[1:] |= hit
        else:
            change[:, :-1] |= hit
            change[:, 1:] |= hit
    inner = ndimage.distance_transform_edt(figure) > 2
    return change & inner


PX = 12
"""Pixels a cell at which the drawing is compared with the picture's design."""


def ink_at(maze) -> np.ndarray:
    """The drawing's ink, PX pixels a cell, laid over the grid (no margin)."""
    img = to_png_image(maze, cell_size=PX, margin=0, floor=None, tags=False, markers=False)
    a = np.asarray(img.convert("RGBA"))
    return (a[..., 3] > 0) & (a[..., :3].astype(int).sum(axis=2) < 200)


def on_grid(mask: np.ndarray, maze) -> np.ndarray:
    """A picture's pixel mask laid over the grid at PX pixels a cell (nearest pixel)."""
    h, w = mask.shape
    rows = np.minimum(((np.arange(maze.height * PX) + 0.5) * h / (maze.height * PX)), h - 1)
    cols = np.minimum(((np.arange(maze.width * PX) + 0.5) * w / (maze.width * PX)), w - 1)
    return mask[np.ix_(rows.astype(int), cols.astype(int))]


def visibility(maze, boundary: np.ndarray, figure: np.ndarray) -> tuple[float, float]:
    """(on walls, ink): the share of the design's boundary within a quarter of a cell of ink,
    and the mean ink within a quarter of a cell of it over the mean ink of the figure."""
    ink = ink_at(maze)
    line, body = on_grid(boundary, maze), on_grid(figure, maze)
    near_ink = ndimage.distance_transform_edt(~ink) <= 0.25 * PX
    band = (ndimage.distance_transform_edt(~line) <= 0.25 * PX) & body
    share = float(np.count_nonzero(line & near_ink) / max(1, np.count_nonzero(line)))
    return share, float(ink[band].mean() / max(ink[body].mean(), 1e-9))


def design() -> None:
    print("| picture | cells | colours | on walls: default / blind | ink: default / blind |")
    print("|---|---|---|---|---|")
    for name, draw in PICTURES.items():
        picture = draw()
        boundary = design_boundary(picture)
        if boundary.sum() < 50:
            continue
        figure = figure_coverage(picture) >= 0.5
        for cells in SIZES:
            made = mazeart.make(picture, cells=cells, rng=1)
            if made.maze.guide.edge_labels is None:
                print(f"| {name} | {cells} | not seen as a design | | |")
                continue
            blind = mazeart.make(picture, cells=cells, rng=1, edges=False)
            colours = len(np.unique(made.maze.guide.edge_labels[made.maze.mask]))
            share, ink = visibility(made.maze, boundary, figure)
            chance, ink_blind = visibility(blind.maze, boundary, figure)
            print(f"| {name} | {cells} | {colours} | {share:.2f} / {chance:.2f} | "
                  f"{ink:.2f} / {ink_blind:.2f} |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1)
    parser.add_argument("--only", choices=("walk", "design"))
    args = parser.parse_args()
    if args.only in (None, "design"):
        design()
    if args.only in (None, "walk"):
        walk(args.seeds)


if __name__ == "__main__":
    main()
