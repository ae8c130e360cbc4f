"""Rebuild every maze, picture, game and puzzle shown in the README.

Run from the repository root:  python samples/make_samples.py [--out DIR]

The inputs are read from this folder: pictures that ship with scikit-image
(horse: CC0, from openclipart; logo: the scikit-image logo, BSD-3-Clause), a
word drawn in Pillow's default font (each made here only when missing), and
the hand-written rooms.toml. The outputs go to DIR (default: this folder).
Every seed is fixed and the PDF is stamped with a fixed date, so two runs write
the same bytes; tests/test_samples.py regenerates the outputs and compares them
with the committed ones.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import skimage.data

import mazeart

HERE = Path(__file__).resolve().parent
SKIMAGE_DATA = Path(skimage.data.__file__).parent
INPUTS = ("horse.png", "logo.png", "word.png", "heart-line.png", "badge.svg", "rooms.toml")
"""What the script reads from this folder rather than writes (badge.svg and rooms.toml are
written by hand)."""
SOURCE_DATE_EPOCH = "1767225600"
"""The creation date the PDF carries (2026-01-01, UTC) instead of the time it was made: the
reproducible-builds variable, which mazeart's PDF writer honours."""


def inputs(folder: Path = HERE) -> None:
    """Write the pictures the samples start from into ``folder``, those that are missing."""
    for name in ("horse.png", "logo.png"):
        if not (folder / name).exists():
            shutil.copyfile(SKIMAGE_DATA / name, folder / name)
    if not (folder / "word.png").exists():  # a word: each letter is an island
        from PIL import Image, ImageDraw, ImageFont

        img = Image.new("L", (900, 230), 255)
        font = ImageFont.load_default(size=160)
        ImageDraw.Draw(img).text((20, 10), "Maze art", font=font, fill=0)
        img.save(folder / "word.png")
    if not (folder / "heart-line.png").exists():  # a line drawing for a solution to draw
        from PIL import Image, ImageDraw

        t = np.linspace(0, 2 * np.pi, 200)
        x = 200 + 160 * np.sin(t) ** 3
        y = 190 - 10 * (13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
        img = Image.new("L", (400, 400), 255)
        ImageDraw.Draw(img).line(list(zip(x, y, strict=True)), fill=0, width=10)
        img.save(folder / "heart-line.png")


def make(
    out: Path,
    source: str,
    name: str,
    *,
    cells: int,
    seed: int,
    geometry: str = "cells",
    shape: dict | None = None,
    **draw,
):
    """``mazeart SOURCE -o NAME --cells CELLS --seed SEED``, shaping and drawing options added."""
    made = mazeart.make(HERE / source, cells=cells, rng=seed, geometry=geometry, **(shape or {}))
    mazeart.save(made, out / name, **draw)
    maze = made.maze
    print(f"{name}: {maze.width} x {maze.height} grid, {maze.n_cells} cells, seed {seed}")
    return made


def mazes(out: Path) -> None:
    """The README's first mazes: the horse, the logo, a word, a game level."""
    make(out, "horse.png", "horse-maze.svg", cells=100, seed=2026, size="180mm")
    make(out, "horse.png", "horse-maze.png", cells=100, seed=2026, cell_size=8)
    make(out, "horse.png", "horse-solved.png", cells=60, seed=7, cell_size=10, solution=True)
    make(out, "horse.png", "horse-blocks.png", cells=160, seed=5, geometry="blocks", cell_size=4)
    make(out, "logo.png", "logo-maze.png", cells=70, seed=11, cell_size=8, solution=True)
    make(out, "logo.png", "logo-blocks.png", cells=120, seed=3, geometry="blocks", cell_size=5)
    make(out, "word.png", "word-maze.png", cells=180, seed=4, cell_size=6, solution=True)
    make(out, "badge.svg", "badge-maze.png", cells=80, seed=8, cell_size=6, solution=True)
    level = {
        "algorithm": "hybrid",
        "rooms": HERE / "rooms.toml",
        "braid": 0.3,
        "place": "loot=4,spawn=3,trap=2,npc=2,key=1",
    }
    make(out, "horse.png", "level.png", cells=80, seed=3, shape=level, cell_size=9, solution=True)


def algorithm_sheet(out: Path, name: str = "algorithms.png", *, columns: int = 4) -> None:
    """Every registered generator on the same horse, with its solution."""
    from PIL import Image, ImageDraw, ImageFont

    tiles = []
    for algorithm, algo in mazeart.ALGORITHMS.items():
        geometry = algo.geometries[0]
        cells, size = (44, 6) if geometry == "cells" else (88, 3)
        maze = mazeart.make(HERE / "horse.png", cells=cells, algorithm=algorithm, rng=3).maze
        tile = mazeart.export.to_png_image(maze, cell_size=size, solution=True)
        tiles.append((algorithm, tile.convert("RGBA")))
    tw = max(t.size[0] for _, t in tiles)
    th = max(t.size[1] for _, t in tiles) + 22
    rows = -(-len(tiles) // columns)
    sheet = Image.new("RGB", (tw * columns, th * rows), "white")
    font = ImageFont.load_default(size=15)
    draw = ImageDraw.Draw(sheet)
    for i, (algorithm, tile) in enumerate(tiles):
        x, y = (i % columns) * tw, (i // columns) * th
        sheet.paste(tile, (x, y + 22), tile)
        draw.text((x + 8, y + 3), algorithm, fill="black", font=font)
    sheet.save(out / name)
    print(f"{name}: {len(tiles)} generators")


def puzzles(out: Path) -> None:
    """A braided maze with several solver paths, a printable puzzle, and a saved maze."""
    maze = mazeart.make(HERE / "horse.png", cells=50, rng=8, algorithm="kruskal", braid=0.5).maze
    paths = mazeart.random_paths(maze, 5, np.random.default_rng(8))
    mazeart.export.write(maze, out / "horse-paths.png", solutions=paths, cell_size=10)
    print(f"horse-paths.png: {len(paths)} paths of {', '.join(str(len(p)) for p in paths)} cells")
    made = make(out, "horse.png", "horse-maze.json", cells=40, seed=12)
    pdf = out / "puzzle.pdf"
    mazeart.save(made, pdf, title="The Horse", footer="mazeart sample puzzle")
    if shutil.which("pdftoppm") is None:
        print("puzzle.pdf: pdftoppm (poppler-utils) not found, previews not made", file=sys.stderr)
        return
    for page in (1, 2):  # a preview of both pages for the README
        subprocess.run(
            ["pdftoppm", "-r", "40", "-f", str(page), "-l", str(page), "-png", "-singlefile",
             str(pdf), str(out / f"puzzle-page{page}")],
            check=True,
        )  # fmt: skip
    print("puzzle.pdf: 2 pages, previews puzzle-page1.png, puzzle-page2.png")


def games(out: Path) -> None:
    """The carve as a GIF, a browser game, a Tiled level."""
    horse = HERE / "horse.png"
    made = mazeart.make(horse, cells=44, rng=6, algorithm="weighted-dfs", record=True)
    mazeart.save(made, out / "carving.gif", frames=48, cell_size=7)
    print("carving.gif: 48 frames of the weighted DFS")
    levels = [mazeart.make(horse, cells=44, rng=s, algorithm="kruskal") for s in (1, 2, 3)]
    mazeart.save(levels[0], out / "game.html", levels=levels, title="mazeart: three horses")
    print("game.html: 3 levels")
    level = mazeart.make(
        horse,
        cells=80,
        rng=3,
        algorithm="hybrid",
        rooms=HERE / "rooms.toml",
        place="loot=4,spawn=3,trap=2,npc=2,key=1",
        braid=0.3,
    )
    mazeart.save(level, out / "level.tmj")
    print("level.tmj (+ level.tiles.png): the game level as a Tiled map")


def art(out: Path) -> None:
    """Image-guided mazes: edges, regions, a smooth outline, tone."""

    def guided(src, name, *, cells, seed, **how):
        maze = mazeart.make(src, cells=cells, rng=seed, **how).maze
        size = 6 if max(maze.shape) > 90 else 8
        mazeart.save(maze, out / name, cell_size=size if maze.guide.tone is None else 5)
        print(f"{name}: {maze.width} x {maze.height} grid, {maze.n_cells} cells")

    guided(HERE / "logo.png", "logo-edges.png", cells=80, seed=1, edges=True)
    guided(HERE / "logo.png", "logo-regions.png", cells=80, seed=1, regions=True,
           textures=["horizontal", "vertical"])  # fmt: skip
    guided(SKIMAGE_DATA / "coins.png", "coins-regions.png", cells=100, seed=1, regions=True,
           segments=1)  # fmt: skip
    guided(HERE / "horse.png", "horse-smooth.png", cells=60, seed=2, outline="smooth")
    guided(HERE / "word.png", "word-smooth.png", cells=160, seed=4, outline="smooth")
    guided(SKIMAGE_DATA / "camera.png", "camera-tone.png", cells=128, seed=1, tone=True)


def grids(out: Path) -> None:
    """The horse on every grid beyond squares."""
    for kind, cells, seed in (("hex", 50, 3), ("triangle", 50, 4), ("polar", 60, 4),
                              ("upsilon", 50, 2)):  # fmt: skip
        made = mazeart.make(HERE / "horse.png", grid=kind, cells=cells, rng=seed)
        mazeart.save(made, out / f"horse-{kind}.png", cell_size=8, solution=True)
        print(f"horse-{kind}.png: {made.summary()}")
    made = mazeart.make(HERE / "logo.png", grid="hex", cells=60, rng=1)  # its design walled
    mazeart.save(made, out / "logo-hex.png", cell_size=8)
    print(f"logo-hex.png: {made.summary()}")
    made = mazeart.make(SKIMAGE_DATA / "camera.png", grid="polar", cells=90, rng=1)  # tone
    mazeart.save(made, out / "camera-polar.png", cell_size=6)
    print(f"camera-polar.png: {made.summary()}")
    made = mazeart.make(
        HERE / "horse.png",
        grid="hex",
        cells=60,
        rng=2,
        place="loot=4,spawn=2",
        rooms=HERE / "rooms-fractions.toml",
    )  # a level in hexagons
    mazeart.save(made, out / "level-hex.png", cell_size=10)
    print(f"level-hex.png: {made.summary()}")
    for kind in ("square", "adaptive"):  # a child's puzzle: 20 cells across, smooth outline
        made = mazeart.make(HERE / "horse.png", grid=kind, cells=20, rng=3, outline="smooth")
        mazeart.save(made, out / f"horse-kids-{kind}.png", cell_size=24 if kind == "square" else 6)
        print(f"horse-kids-{kind}.png: {made.summary()}")
    made = mazeart.make(HERE / "horse.png", weave=0.3, cells=40, rng=5)
    mazeart.save(made, out / "horse-weave.png", cell_size=12, solution=True)
    print(f"horse-weave.png: {made.summary()}")


def figures(out: Path) -> None:
    """A word and a shape, without a picture."""
    made = mazeart.make("text:HELLO", rng=3)
    mazeart.save(made, out / "hello-text.png", cell_size=8)
    print(f"hello-text.png: {made.summary()}")
    made = mazeart.make("heart:30", room_centre=True, rng=4)
    mazeart.save(made, out / "heart-room.png", cell_size=10)
    print(f"heart-room.png: {made.summary()}")


def designs(out: Path) -> None:
    """What the studio saves, made here: the horse's design (its tail painted out, a room with
    two doors on its body, the exit on its nose, a key; the hex grid) as a design file, and its
    paint alone as a picture for ``--paint``."""
    from PIL import Image

    from mazeart.design import Design, TagAt
    from mazeart.image import paint_image

    w, h = Image.open(HERE / "horse.png").size
    paint = np.zeros((h, w), np.uint8)
    paint[round(0.30 * h) : round(0.80 * h), : round(0.12 * w)] = 1  # the tail: no maze
    paint_image(paint).save(out / "horse-paint.png", optimize=True)
    design = Design(
        source="horse.png",
        paint=paint,
        rooms=({"name": "hall", "rect": [0.34, 0.38, 0.15, 0.18],
                "doors": [[0.34, 0.47], [0.49, 0.47]]},),
        exit=mazeart.At(0.965, 0.29),
        tags=(TagAt("key", mazeart.At(0.8, 0.3)),),
        options={"cells": 70, "grid": "hex"},
        seed=7,
    )  # fmt: skip
    mazeart.save_design(design, out / "horse.design.json")
    made = mazeart.make_design(design, base=HERE)
    mazeart.save(made, out / "horse-design.png", cell_size=8, solution=True)
    print(f"horse.design.json: {made.summary()}")


def routes(out: Path) -> None:
    """Solutions that draw: the horse whose solution writes HI (the puzzle and its answer),
    and the horse on the hex grid whose solution draws a heart."""
    made = mazeart.make(HERE / "horse.png", rng=5, solution_text="HI")
    mazeart.save(made, out / "horse-hi.png", cell_size=5)
    mazeart.save(made, out / "horse-hi-solved.png", cell_size=5, solution=True)
    print(f"horse-hi.png: {made.summary()}")
    made = mazeart.make(HERE / "horse.png", rng=3, grid="hex",
                        solution_picture=HERE / "heart-line.png")  # fmt: skip
    mazeart.save(made, out / "horse-heart.png", cell_size=5, solution=True)
    print(f"horse-heart.png: {made.summary()}")


def by_hand(out: Path) -> None:
    """Mazes made by hand: the horse in one pen stroke (its colour running along the stroke),
    the horse as a sheet to cut, and the logo as a printed coaster, seen from above."""
    import colorsys
    import itertools

    from PIL import Image, ImageDraw

    from mazeart.export._style import Style
    from mazeart.export.cut import cut_outlines
    from mazeart.export.mesh import render_model, solid_model
    from mazeart.export.scene import build_scene

    maze = mazeart.make(HERE / "horse.png", cells=80, rng=1).maze
    scene = build_scene(maze, Style(plotter=True, one_stroke=True, markers=False))
    px = 9.0
    image = Image.new("RGB", (int((maze.width + 2) * px), int((maze.height + 2) * px)), "white")
    draw = ImageDraw.Draw(image)
    for line in scene.layer("walls").strokes[0].lines:
        pts = (line + 1) * px
        for i, (a, b) in enumerate(itertools.pairwise(pts)):
            rgb = colorsys.hsv_to_rgb(0.8 * i / len(pts), 0.85, 0.8)
            draw.line([tuple(a), tuple(b)], fill=tuple(int(255 * c) for c in rgb), width=2)
    image.save(out / "horse-one-stroke.png", optimize=True)
    print(f"horse-one-stroke.png: {len(scene.layer('walls').strokes[0].lines)} strokes")
    cut, _, width, height, pieces = cut_outlines(maze, size=200.0)
    scale = 4.0  # pixels a millimetre
    sheet = Image.new("RGB", (int(width * scale) + 1, int(height * scale) + 1), "white")
    draw = ImageDraw.Draw(sheet)

    def area(ring):
        x, y = ring[:, 0], ring[:, 1]
        return abs(float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)))

    rings = sorted(cut, key=area, reverse=True)
    for k, ring in enumerate(rings):  # the outline first (the largest), then its holes
        draw.polygon([tuple(p) for p in ring * scale], fill="#c9a36b" if k == 0 else "white",
                     outline="#d62728")  # fmt: skip
    sheet.save(out / "horse-cut.png", optimize=True)
    print(f"horse-cut.png: {width:.0f} x {height:.0f} mm, {pieces} piece")
    logo = mazeart.make(HERE / "logo.png", cells=30, rng=1).maze
    model = solid_model(logo, size="90mm", solutions=[mazeart.solve(logo)])
    render_model(model, width=700).save(out / "coaster.png", optimize=True)
    print(f"coaster.png: {len(model.triangles)} triangles, {model.volume / 1000:.1f} cm3")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out",
        type=Path,
        default=HERE,
        help="folder to write the samples to (default: this folder)",
    )
    out = parser.parse_args(argv).out.resolve()
    os.environ["SOURCE_DATE_EPOCH"] = SOURCE_DATE_EPOCH
    out.mkdir(parents=True, exist_ok=True)
    inputs()
    mazes(out)
    algorithm_sheet(out)
    puzzles(out)
    games(out)
    art(out)
    grids(out)
    figures(out)
    designs(out)
    routes(out)
    by_hand(out)


if __name__ == "__main__":
    main()
