"""Smooth outlines on many pictures: walkable as drawn, no gap, never worse than the staircase.

    python benchmarks/bench_smooth.py

Pictures: the horse, the logo and the word of samples/, scikit-image's coins, and three made here
(a bold word, a thin word, a one-colour disc), each at 50, 100, 150 and 200 cells with seeds 1-3.
For each smooth maze: the floor a pen reaches as drawn and the gaps in its outer wall
(``mazeart.guide.drawn``), and its footprint IoU beside the cell staircase's.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import skimage.data
from PIL import Image, ImageDraw, ImageFont

import mazeart
from mazeart.guide import drawn, footprint_iou
from mazeart.image import figure_coverage

REPO = Path(__file__).resolve().parents[1]
FONTS = REPO / "mazeart" / "fonts"


def word(path: Path, text: str, font: str, size: int) -> Path:
    face = ImageFont.truetype(str(FONTS / font), size)
    left, top, right, bottom = face.getbbox(text)
    img = Image.new("L", (right - left + 40, bottom - top + 40), 255)
    ImageDraw.Draw(img).text((20 - left, 20 - top), text, font=face, fill=0)
    img.save(path)
    return path


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        disc = Path(tmp) / "disc.png"
        img = Image.new("RGB", (200, 200), "white")
        ImageDraw.Draw(img).ellipse((20, 20, 180, 180), fill="red")
        img.save(disc)
        pictures = {
            "horse": REPO / "samples" / "horse.png",
            "logo": REPO / "samples" / "logo.png",
            "word": REPO / "samples" / "word.png",
            "coins": Path(skimage.data.__file__).parent / "coins.png",
            "bold word": word(Path(tmp) / "bold.png", "MAZE", "DejaVuSans-Bold.ttf", 200),
            "thin word": word(Path(tmp) / "thin.png", "maze art", "DejaVuSans.ttf", 120),
            "disc": disc,
        }
        rows = []
        for name, src in pictures.items():
            cov = figure_coverage(src)
            for cells in (50, 100, 150, 200):
                for seed in (1, 2, 3):
                    how = {"cells": cells, "rng": seed, "mode": "silhouette", "edges": False}
                    smooth = mazeart.make(src, outline="smooth", **how).maze
                    plain = mazeart.make(src, **how).maze
                    check = drawn(smooth)
                    a, b = footprint_iou(plain, cov), footprint_iou(smooth, cov)
                    rows.append((check["reachable"], check["leaks"], b >= a))
                    if check["reachable"] < 0.95 or check["leaks"] or b < a:
                        print(f"  {name} {cells} cells seed {seed}: {check}, IoU {a} / {b}")
    print(
        f"{len(rows)} smooth mazes: floor reached as drawn >= {min(r[0] for r in rows):.4f}, "
        f"gaps <= {max(r[1] for r in rows)}, IoU below the staircase's in "
        f"{sum(not r[2] for r in rows)}"
    )


if __name__ == "__main__":
    main()
