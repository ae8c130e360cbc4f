"""Rebuild the sample inputs and every maze shown in the README.

Run from the repository root:  python samples/make_samples.py

Inputs come from pictures that ship with scikit-image (horse: CC0, from
openclipart; logo: the scikit-image logo, BSD-3-Clause). Outputs are written
next to them with fixed seeds, so the script is reproducible.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import skimage.data

import mazeart

HERE = Path(__file__).resolve().parent
SKIMAGE_DATA = Path(skimage.data.__file__).parent


def inputs() -> None:
    for name in ("horse.png", "logo.png"):
        if not (HERE / name).exists():
            shutil.copyfile(SKIMAGE_DATA / name, HERE / name)
    if not (HERE / "word.png").exists():  # a word: each letter is an island
        from PIL import Image, ImageDraw, ImageFont

        img = Image.new("L", (900, 230), 255)
        font = ImageFont.load_default(size=160)
        ImageDraw.Draw(img).text((20, 10), "Maze art", font=font, fill=0)
        img.save(HERE / "word.png")


def make(
    source: str,
    out: str,
    *,
    cells: int,
    seed: int,
    geometry: str = "cells",
    shape: dict | None = None,
    **draw,
):
    """``mazeart SOURCE -o OUT --cells CELLS --seed SEED``, shaping and drawing options added."""
    made = mazeart.make(HERE / source, cells=cells, rng=seed, geometry=geometry, **(shape or {}))
    mazeart.save(made, HERE / out, **draw)
    maze = made.maze
    print(f"{out}: {maze.width} x {maze.height} grid, {maze.n_cells} cells, seed {seed}")
    return made


def algorithm_sheet(out: str = "algorithms.png", *, columns: int = 4) -> None:
    """Every registered generator on the same horse, with its solution."""
    from PIL import Image, ImageDraw, ImageFont

    tiles = []
    for name, algo in mazeart.ALGORITHMS.items():
        geometry = algo.geometries[0]
        cells, size = (44, 6) if geometry == "cells" else (88, 3)
        maze = mazeart.make(HERE / "horse.png", cells=cells, algorithm=name, rng=3).maze
        tile = mazeart.export.to_png_image(maze, cell_size=size, solution=True)
        tiles.append((name, tile.convert("RGBA")))
    tw = max(t.size[0] for _, t in tiles)
    th = max(t.size[1] for _, t in tiles) + 22
    rows = -(-len(tiles) // columns)
    sheet = Image.new("RGB", (tw * columns, th * rows), "white")
    font = ImageFont.load_default(size=15)
    draw = ImageDraw.Draw(sheet)
    for i, (name, tile) in enumerate(tiles):
        x, y = (i % columns) * tw, (i // columns) * th
        sheet.paste(tile, (x, y + 22), tile)
        draw.text((x + 8, y + 3), name, fill="black", font=font)
    sheet.save(HERE / out)
    print(f"{out}: {len(tiles)} generators")


def puzzles() -> None:
    """A braided maze with several solver paths, a printable puzzle, and a saved maze."""
    import subprocess

    import numpy as np

    maze = mazeart.make(HERE / "horse.png", cells=50, rng=8, algorithm="kruskal", braid=0.5).maze
    paths = mazeart.random_paths(maze, 5, np.random.default_rng(8))
    mazeart.export.write(maze, HERE / "horse-paths.png", solutions=paths, cell_size=10)
    print(f"horse-paths.png: {len(paths)} paths of {', '.join(str(len(p)) for p in paths)} cells")
    made = make("horse.png", "horse-maze.json", cells=40, seed=12)
    mazeart.save(made, HERE / "puzzle.pdf", title="The Horse", footer="mazeart sample puzzle")
    if shutil.which("pdftoppm"):  # a preview of both pages for the README
        for page in (1, 2):
            subprocess.run(
                ["pdftoppm", "-r", "40", "-f", str(page), "-l", str(page), "-png",
                 "-singlefile", str(HERE / "puzzle.pdf"), str(HERE / f"puzzle-page{page}")],
                check=True,
            )  # fmt: skip
        print("puzzle.pdf: 2 pages, previews puzzle-page1.png, puzzle-page2.png")


def games() -> None:
    """The carve as a GIF, a browser game, a Tiled level."""
    horse = HERE / "horse.png"
    made = mazeart.make(horse, cells=44, rng=6, algorithm="weighted-dfs", record=True)
    mazeart.save(made, HERE / "carving.gif", frames=48, cell_size=7)
    print("carving.gif: 48 frames of the weighted DFS")
    levels = [mazeart.make(horse, cells=44, rng=s, algorithm="kruskal") for s in (1, 2, 3)]
    mazeart.save(levels[0], HERE / "game.html", levels=levels, title="mazeart: three horses")
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
    mazeart.save(level, HERE / "level.tmj")
    print("level.tmj (+ level.tiles.png): the game level as a Tiled map")


def art() -> None:
    """Image-guided mazes: edges, regions, a smooth outline, tone."""

    def guided(src, out, *, cells, seed, **how):
        maze = mazeart.make(src, cells=cells, rng=seed, **how).maze
        size = 6 if max(maze.shape) > 90 else 8
        mazeart.save(maze, HERE / out, cell_size=size if maze.guide.tone is None else 5)
        print(f"{out}: {maze.width} x {maze.height} grid, {maze.n_cells} cells")

    guided(HERE / "logo.png", "logo-edges.png", cells=80, seed=1, edges=True)
    guided(HERE / "logo.png", "logo-regions.png", cells=80, seed=1, regions=True,
           textures=["horizontal", "vertical"])  # fmt: skip
    guided(SKIMAGE_DATA / "coins.png", "coins-regions.png", cells=100, seed=1, regions=True,
           segments=1)  # fmt: skip
    guided(HERE / "horse.png", "horse-smooth.png", cells=60, seed=2, outline="smooth")
    guided(HERE / "word.png", "word-smooth.png", cells=160, seed=4, outline="smooth")
    guided(SKIMAGE_DATA / "camera.png", "camera-tone.png", cells=128, seed=1, tone=True)


def main() -> None:
    inputs()
    make("horse.png", "horse-maze.svg", cells=100, seed=2026, size="180mm")
    make("horse.png", "horse-maze.png", cells=100, seed=2026, cell_size=8)
    make("horse.png", "horse-solved.png", cells=60, seed=7, cell_size=10, solution=True)
    make("horse.png", "horse-blocks.png", cells=160, seed=5, geometry="blocks", cell_size=4)
    make("logo.png", "logo-maze.png", cells=70, seed=11, cell_size=8, solution=True)
    make("logo.png", "logo-blocks.png", cells=120, seed=3, geometry="blocks", cell_size=5)
    make("word.png", "word-maze.png", cells=180, seed=4, cell_size=6, solution=True)
    level = {
        "algorithm": "hybrid",
        "rooms": HERE / "rooms.toml",
        "braid": 0.3,
        "place": "loot=4,spawn=3,trap=2,npc=2,key=1",
    }
    make("horse.png", "level.png", cells=80, seed=3, shape=level, cell_size=9, solution=True)
    algorithm_sheet()
    puzzles()
    games()
    art()


if __name__ == "__main__":
    main()
