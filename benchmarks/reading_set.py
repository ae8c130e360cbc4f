"""How ``mode='auto'`` reads photographs and logos it was not tuned on.

Run from the repository root:  python benchmarks/reading_set.py [--out DIR]

Builds a set of pictures nobody here drew for the reading's rules: photographs from
scikit-image's data (not the ones the rules were first tried on: astronaut, chelsea,
rocket, text, page, checkerboard), and logos and silhouettes from what the test
extras install (the logos Dask and Playwright ship as SVG, read through the package's
own SVG input) and glyphs of the shipped DejaVu font drawn as icons. Each is made
into a maze at 60 cells with every option left to ``auto``; the script prints a table
(picture, kind, the reading chosen, parts, the share of the figure kept, the report's
advice) and writes each picture beside its maze in DIR for a person to judge.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import numpy as np
import skimage.data
from PIL import Image, ImageDraw, ImageFont

import mazeart
from mazeart._io import open_image

SKIMAGE = Path(skimage.data.__file__).parent
PHOTOS = ("camera.png", "coffee.png", "coins.png", "moon.png", "motorcycle_left.png",
          "hubble_deep_field.jpg", "retina.jpg", "ihc.png", "clock_motion.png", "cell.png",
          "microaneurysms.png", "grass.png", "brick.png")  # fmt: skip
GLYPHS = {"star": "★", "knight": "♞", "plane": "✈", "umbrella": "☂", "anchor": "⚓",
          "yin-yang": "☯"}  # fmt: skip
PACKAGE_LOGOS = {
    "dask-logo": ("distributed", "http/static/images/dask-logo.svg"),
    "jupyter": ("distributed", "http/static/images/jupyter.svg"),
    "playwright-logo": ("playwright", "driver/package/lib/vite/recorder/playwright-logo.svg"),
}


def _glyph(char: str, colour: str, size: int = 420) -> Image.Image:
    """A glyph of the shipped font as a flat icon on white."""
    font = ImageFont.truetype(str(Path(mazeart.__file__).parent / "fonts" / "DejaVuSans.ttf"), 360)
    img = Image.new("RGB", (size, size), "white")
    ImageDraw.Draw(img).text((size / 2, size / 2), char, font=font, fill=colour, anchor="mm")
    return img


def _badge() -> Image.Image:
    """A flat two-colour badge: a ring, a band and a word, as a club's logo is drawn."""
    img = Image.new("RGB", (480, 480), "white")
    d = ImageDraw.Draw(img)
    d.ellipse((20, 20, 460, 460), fill="#1f4e9c")
    d.ellipse((70, 70, 410, 410), fill="#f2c12e")
    d.rectangle((40, 200, 440, 280), fill="#1f4e9c")
    font = ImageFont.truetype(str(Path(mazeart.__file__).parent / "fonts" / "DejaVuSans-Bold.ttf"),
                              64)  # fmt: skip
    d.text((240, 240), "CLUB", font=font, fill="white", anchor="mm")
    return img


def pictures(work: Path) -> list[tuple[str, str, Path]]:
    """(name, kind, path) of every picture of the set, written into ``work`` when made here."""
    import importlib.util

    out = [(Path(n).stem, "photo", SKIMAGE / n) for n in PHOTOS if (SKIMAGE / n).exists()]
    for name, (package, rel) in PACKAGE_LOGOS.items():
        spec = importlib.util.find_spec(package)
        if spec and spec.origin and (Path(spec.origin).parent / rel).exists():
            out.append((name, "logo", Path(spec.origin).parent / rel))
    colours = ["black", "#c0392b", "#1e6fb8", "#2e8b57", "#6a3d9a", "#d35400"]
    for (name, char), colour in zip(GLYPHS.items(), colours, strict=True):
        path = work / f"{name}.png"
        _glyph(char, colour).save(path)
        out.append((name, "logo", path))
    path = work / "badge.png"
    _badge().save(path)
    out.append(("badge", "logo", path))
    # a cut-out: the star on transparency, as icons are shipped
    star = np.asarray(_glyph("★", "black").convert("L")) < 128
    rgba = np.zeros((*star.shape, 4), np.uint8)
    rgba[star] = (230, 120, 20, 255)
    path = work / "star-cutout.png"
    Image.fromarray(rgba).save(path)
    out.append(("star-cutout", "logo", path))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=Path("reading-set"))
    ap.add_argument("--cells", type=int, default=60)
    args = ap.parse_args()
    out = args.out
    shutil.rmtree(out, ignore_errors=True)
    (out / "in").mkdir(parents=True)
    rows = []
    for name, kind, path in pictures(out / "in"):
        made = mazeart.make(path, cells=args.cells, rng=1)
        notes = made.summary()
        reading = ("tone" if made.maze.guide.tone is not None
                   else "regions walled" if "colour regions walled" in notes
                   else "silhouette")  # fmt: skip
        png = out / f"{name}-maze.png"
        mazeart.save(made, png, cell_size=6)
        shown = Image.open(png).convert("RGB")
        picture = open_image(path)  # the package's own reading, SVG included
        if picture.mode in ("RGBA", "LA", "PA", "P"):  # cut-outs shown on white
            picture = Image.alpha_composite(
                Image.new("RGBA", picture.size, "white"), picture.convert("RGBA")
            )
        source = picture.convert("RGB")
        source.thumbnail((shown.height, shown.height))
        pair = Image.new("RGB", (source.width + shown.width + 10, shown.height), "white")
        pair.paste(source, (0, 0))
        pair.paste(shown, (source.width + 10, 0))
        pair.save(out / f"{name}.png")
        rows.append((name, kind, reading, notes))
    width = max(len(r[0]) for r in rows)
    print(f"{'picture':<{width}}  kind   reading          report")
    for name, kind, reading, notes in rows:
        print(f"{name:<{width}}  {kind:<5}  {reading:<15}  {notes}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
