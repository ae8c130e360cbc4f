"""Fine outlines at any difficulty: the adaptive grid beside the square grid, at the same
number of maze cells. Run from the repository root:

    python benchmarks/bench_adaptive.py [--seeds 2]

Pictures not tuned on: scikit-image's horse, a word set in DejaVu Serif, the logo of
samples/, and two of the holdout set (tests/holdout.py). At about 60, 150 and 400 maze
cells (a child's, a medium and a hard puzzle; ``cells`` chosen so that the square maze has
that many), each maze is rendered and its floor (every pixel not the background) carried
onto the picture by the grid's own placement; *IoU* is that footprint against the figure:

- the square grid, with cells and with the smooth outline;
- the adaptive grid at the same ``cells`` (so as many maze cells), with and without the
  smooth outline;
- the square grid with four times the cells (twice as many across), the target the
  adaptive grid is measured against.

Beside them: the maze cells, the difficulty (``mazeart.analyze.measure``: solution share
and decisions) of the square and adaptive mazes, and the adaptive maze's time over the
square maze's (best of two, kernels compiled).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import skimage.data
from PIL import Image, ImageDraw, ImageFont

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))

from test_grid_outline import footprint_iou  # noqa: E402  (the tests' own measure)

import mazeart  # noqa: E402
from mazeart._jit import jit_mode  # noqa: E402
from mazeart.analyze import measure  # noqa: E402
from mazeart.grids.sample import cell_coverage, fit_grid  # noqa: E402
from mazeart.image import figure_coverage  # noqa: E402

SYSTEM_FONTS = Path("/usr/share/fonts/truetype/dejavu")


def pictures() -> dict[str, Path]:
    from holdout import PICTURES

    tmp = Path("/tmp")
    out = {}
    horse = tmp / "mazeart-adaptive-horse.png"
    Image.fromarray(~skimage.data.horse()).save(horse)  # the horse black on white
    out["horse (skimage)"] = horse
    font = SYSTEM_FONTS / "DejaVuSerif.ttf"
    face = ImageFont.truetype(str(font if font.exists() else REPO / "mazeart" / "fonts"
                                  / "DejaVuSans.ttf"), 160)  # fmt: skip
    left, top, right, bottom = face.getbbox("Maze")
    img = Image.new("L", (right - left + 40, bottom - top + 40), 255)
    ImageDraw.Draw(img).text((20 - left, 20 - top), "Maze", font=face, fill=0)
    out["word 'Maze'"] = tmp / "mazeart-adaptive-word.png"
    img.save(out["word 'Maze'"])
    out["logo"] = REPO / "samples" / "logo.png"
    for name in ("gift", "at-glyph"):
        out[name] = tmp / f"mazeart-adaptive-{name}.png"
        PICTURES[name]().save(out[name])
    return out


def cells_for(picture: Image.Image, cover, n: int) -> int:
    """The cells across that give the square grid about ``n`` maze cells."""
    lo, hi = 2, 400
    while lo < hi:
        mid = (lo + hi) // 2
        grid, transform = fit_grid("square", picture.size, mid)
        if int((cell_coverage(grid, transform, cover) >= 0.5).sum()) < n:
            lo = mid + 1
        else:
            hi = mid
    return lo


def timed(path: Path, **options):
    best, out = float("inf"), None
    for _ in range(2):
        started = time.perf_counter()
        out = mazeart.make(path, **options).maze
        best = min(best, time.perf_counter() - started)
    return best, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=2)
    args = parser.parse_args()
    print("| picture | maze cells (square / adaptive) | square | square smooth | adaptive | "
          "adaptive smooth | square, 4x cells | solution share (sq / ad) | decisions (sq / ad) "
          "| time ad / sq |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|")
    with jit_mode("always"):
        for name, path in pictures().items():
            picture = Image.open(path)
            cover = figure_coverage(picture)
            for n in (60, 150, 400):
                cells = cells_for(picture, cover, n)
                rows = []
                for seed in range(1, args.seeds + 1):
                    how = {"cells": cells, "rng": seed, "edges": False, "mode": "silhouette"}
                    t_sq, sq = timed(path, **how)
                    t_ad, ad = timed(path, grid="adaptive", **how)
                    sq_s = mazeart.make(path, outline="smooth", **how).maze
                    ad_s = mazeart.make(path, grid="adaptive", outline="smooth", **how).maze
                    big = mazeart.make(path, **{**how, "cells": 2 * cells}).maze
                    m_sq, m_ad = measure(sq), measure(ad)
                    rows.append((sq.n_cells, ad.n_cells,
                                 footprint_iou(sq, picture, "square", cells),
                                 footprint_iou(sq_s, picture, "square", cells),
                                 footprint_iou(ad, picture, "adaptive", cells),
                                 footprint_iou(ad_s, picture, "adaptive", cells),
                                 footprint_iou(big, picture, "square", 2 * cells),
                                 m_sq.solution_share, m_ad.solution_share,
                                 m_sq.decisions, m_ad.decisions, t_ad / t_sq))  # fmt: skip
                r = np.mean(np.array(rows, float), axis=0)
                print(f"| {name} | {r[0]:.0f} / {r[1]:.0f} | {r[2]:.3f} | {r[3]:.3f} | "
                      f"{r[4]:.3f} | {r[5]:.3f} | {r[6]:.3f} | {r[7]:.2f} / {r[8]:.2f} | "
                      f"{r[9]:.0f} / {r[10]:.0f} | {r[11]:.2f} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
