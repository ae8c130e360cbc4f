"""Fidelity of image-guided mazes: the numbers behind the README's table. Run from the repo root:

    python benchmarks/bench_fidelity.py

- footprint IoU of silhouettes (horse, samples/word.png, an "@" glyph, a bold word) at 50, 100
  and 200 cells, with cell staircases and with ``--outline smooth``, measured on the drawn maze;
  and for the smooth mazes, the floor a pen reaches as drawn and the gaps in the outer wall;
- the time of a smooth maze beside a plain one at 200 cells (make and draw an SVG);
- a photograph by default (scikit-image's camera at 100 cells): correlation of a blurred render;
- ``--edges`` on scikit-image's logo: share of the S-curve's centre line on walls, and the same
  for a maze blind to it;
- ``--regions`` on the logo: share of east-west passages in each half;
- ``--tone`` on scikit-image's camera: correlation of a blurred render with the photograph.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import skimage.data
from PIL import Image, ImageDraw, ImageFilter, ImageFont
from scipy import ndimage
from skimage.morphology import skeletonize

import mazeart
from mazeart.export import to_png_image
from mazeart.guide import fidelity, segment_cells
from mazeart.image import figure_coverage

REPO = Path(__file__).resolve().parents[1]
DATA = Path(skimage.data.__file__).parent
LOGO = REPO / "samples" / "logo.png"


def guided(src, cells: int, seed: int = 1, **how) -> mazeart.Made:
    """``mazeart SRC --cells CELLS --seed SEED`` with the picture's guidance ``how``."""
    return mazeart.make(src, cells=cells, rng=seed, **how)


def silhouettes(*pictures: Path) -> None:
    from mazeart.guide import drawn

    print("footprint IoU, cells / smooth outline [smooth: floor reached as drawn, gaps]")
    for src in (REPO / "samples" / "horse.png", REPO / "samples" / "word.png", *pictures):
        row = []
        for cells in (50, 100, 200):
            plain = guided(src, cells, mode="silhouette", edges=False)
            smooth = guided(src, cells, mode="silhouette", edges=False, outline="smooth").maze
            a = fidelity(plain.maze, src)["iou"]
            b = fidelity(smooth, src)["iou"]
            check = drawn(smooth)
            row.append(f"{cells}: {a:.3f} / {b:.3f} [{check['reachable']:.3f}, {check['leaks']}]")
        print(f"  {src.name:<10} " + "; ".join(row))


def speed() -> None:
    import tempfile
    import time

    horse = REPO / "samples" / "horse.png"
    best: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(4):  # side by side, the best of each (the first run compiles)
            for name, how in (("plain", {}), ("smooth", {"outline": "smooth"})):
                started = time.perf_counter()
                made = guided(horse, 200, **how)
                mazeart.save(made, Path(tmp) / f"{name}.svg")
                best[name] = min(best.get(name, np.inf), time.perf_counter() - started)
    ratio = best["smooth"] / best["plain"]
    print(
        f"horse at 200 cells, make + SVG: plain {best['plain']:.3f} s, smooth "
        f"{best['smooth']:.3f} s ({ratio:.1f}x)"
    )


def s_curve() -> np.ndarray:
    rgb = np.asarray(Image.open(LOGO).convert("RGB")).astype(int)
    figure = figure_coverage(LOGO) >= 0.5
    disk = ndimage.binary_fill_holes(ndimage.binary_closing(figure, iterations=6))
    white = ndimage.binary_erosion(disk, iterations=8) & (rgb.min(axis=2) > 200)
    lab, _ = ndimage.label(white)
    return skeletonize(lab == np.argmax(np.bincount(lab.ravel())[1:]) + 1)


def edges() -> None:
    curve = s_curve()
    print(f"--edges on the logo: S-curve centre line ({curve.sum()} px) on walls")
    for cells in (50, 80, 100):
        for seed in (1, 2):
            maze = guided(LOGO, cells, seed, edges=True).maze
            blind = guided(LOGO, cells, seed, edges=False).maze
            a = fidelity(maze, LOGO, edges=curve)["edge_share"]
            b = fidelity(blind, LOGO, edges=curve)["edge_share"]
            print(f"  {cells} cells, seed {seed}: {a:.3f} (blind maze {b:.3f})")


def regions() -> None:
    made = guided(LOGO, 80, regions=True, textures=["horizontal", "vertical"])
    maze, weights = made.maze, made.preset
    labels = segment_cells(LOGO, weights.shape, figure=figure_coverage(LOGO) >= 0.5)
    free = weights == mazeart.FREE
    shares = []
    for value in np.unique(labels[free]):
        cells = free & (labels == value)
        e = np.count_nonzero((maze.passages & 2)[cells])
        s = np.count_nonzero((maze.passages & 4)[cells])
        shares.append(e / max(e + s, 1))
    print(
        "--regions on the logo: east-west share per half " + ", ".join(f"{x:.2f}" for x in shares)
    )


def tone() -> None:
    camera = DATA / "camera.png"
    maze = guided(camera, 128, tone=True).maze
    grey = np.asarray(Image.open(camera).convert("L").resize((64, 64), Image.Resampling.BOX), float)

    def corr(m) -> float:
        img = to_png_image(m, cell_size=6, margin=0, background="#ffffff").convert("L")
        small = img.filter(ImageFilter.GaussianBlur(4)).resize((64, 64), Image.Resampling.BOX)
        return float(np.corrcoef(np.asarray(small, float).ravel(), grey.ravel())[0, 1])

    even = maze.replace(guide=dataclasses.replace(maze.guide, tone=None))
    print(f"--tone on the camera: r = {corr(maze):.3f} (even walls: r = {corr(even):.3f})")
    made = guided(camera, 100)  # the default: read as a photograph
    silhouette = guided(camera, 100, mode="silhouette").maze
    print(
        f"the camera by default at 100 cells ({made.notes[0]}): r = {corr(made.maze):.3f} "
        f"(as a silhouette of its dark tones: r = {corr(silhouette):.3f})"
    )


def main() -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        glyph = Path(tmp) / "at.png"
        img = Image.new("L", (600, 600), 255)
        ImageDraw.Draw(img).text((40, -60), "@", font=ImageFont.load_default(size=560), fill=0)
        img.save(glyph)
        word = Path(tmp) / "maze.png"
        face = ImageFont.truetype(str(REPO / "mazeart" / "fonts" / "DejaVuSans-Bold.ttf"), 160)
        left, top, right, bottom = face.getbbox("MAZE")
        img = Image.new("L", (right - left + 40, bottom - top + 40), 255)
        ImageDraw.Draw(img).text((20 - left, 20 - top), "MAZE", font=face, fill=0)
        img.save(word)
        silhouettes(glyph, word)
    speed()
    edges()
    regions()
    tone()


if __name__ == "__main__":
    main()
