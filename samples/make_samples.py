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
    weights = mazeart.weights_from_image(HERE / source, cells=cells)
    maze = mazeart.generate(weights, seed=seed, geometry=geometry, **(shape or {}))
    mazeart.save(maze, HERE / out, **draw)
    print(f"{out}: {maze.width} x {maze.height} grid, {maze.n_cells} cells, seed {seed}")
    return maze


def algorithm_sheet(out: str = "algorithms.png", *, columns: int = 4) -> None:
    """Every registered generator on the same horse, with its solution."""
    from PIL import Image, ImageDraw, ImageFont

    tiles = []
    for name, algo in mazeart.ALGORITHMS.items():
        geometry = algo.geometries[0]
        cells, size = (44, 6) if geometry == "cells" else (88, 3)
        weights = mazeart.weights_from_image(HERE / "horse.png", cells=cells)
        maze = mazeart.generate(weights, algorithm=name, geometry=geometry, seed=3)
        tiles.append((name, mazeart.export.to_png_image(maze, cell_size=size, solution=True)))
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

    weights = mazeart.weights_from_image(HERE / "horse.png", cells=50)
    maze = mazeart.generate(weights, seed=8, algorithm="kruskal", braid=0.5)
    paths = mazeart.random_paths(maze, 5, np.random.default_rng(8))
    mazeart.save(maze, HERE / "horse-paths.png", solutions=paths, cell_size=10)
    print(f"horse-paths.png: {len(paths)} paths of {', '.join(str(len(p)) for p in paths)} cells")
    maze = make("horse.png", "horse-maze.json", cells=40, seed=12)
    mazeart.save(maze, HERE / "puzzle.pdf", title="The Horse", footer="mazeart sample puzzle")
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
    from mazeart.animate import Recording, to_gif
    from mazeart.export.html import to_html

    weights = mazeart.weights_from_image(HERE / "horse.png", cells=44)
    with Recording() as rec:
        maze = mazeart.generate(weights, seed=6, algorithm="weighted-dfs")
    (HERE / "carving.gif").write_bytes(to_gif(maze, rec.carving(), frames=48, cell_size=7))
    print("carving.gif: 48 frames of the weighted DFS")
    levels = [mazeart.generate(weights, seed=s, algorithm="kruskal") for s in (1, 2, 3)]
    (HERE / "game.html").write_text(to_html(levels, title="mazeart: three horses"))
    print("game.html: 3 levels")
    rooms = mazeart.rooms.load_rooms(HERE / "rooms.toml")
    level = mazeart.generate(
        mazeart.weights_from_image(HERE / "horse.png", cells=80),
        seed=3,
        algorithm="hybrid",
        rooms=rooms,
        place="loot=4,spawn=3,trap=2,npc=2,key=1",
        braid=0.3,
    )
    mazeart.save(level, HERE / "level.tmj")
    print("level.tmj (+ level.tiles.png): the game level as a Tiled map")


def art() -> None:
    """Image-guided mazes: edges, regions, a smooth outline, tone."""
    from mazeart.guide import guidance

    def guided(src, out, *, cells, seed, algorithm="weighted-dfs", **how):
        weights = mazeart.weights_from_image(src, cells=cells)
        g = guidance(src, weights, **how)
        options = {"angle": g["angle"], "bias": g["bias"]} if "angle" in g else {}
        maze = mazeart.generate(
            g.get("weights", weights),
            seed=seed,
            algorithm="flow" if options else algorithm,
            walls=g.get("walls"),
            **options,
        )
        extra = {k: g[k] for k in ("outline", "edges", "tone") if k in g}
        maze = maze.replace(meta={**maze.meta, **extra})
        size = 6 if max(maze.shape) > 90 else 8
        mazeart.save(maze, HERE / out, cell_size=size if "tone" not in g else 5)
        print(f"{out}: {maze.width} x {maze.height} grid, {maze.n_cells} cells")

    guided(HERE / "logo.png", "logo-edges.png", cells=80, seed=1, edges=True)
    guided(HERE / "logo.png", "logo-regions.png", cells=80, seed=1, regions=True,
           textures=["horizontal", "vertical"])  # fmt: skip
    guided(SKIMAGE_DATA / "coins.png", "coins-regions.png", cells=100, seed=1, regions=True,
           segments=1)  # fmt: skip
    guided(HERE / "horse.png", "horse-smooth.png", cells=60, seed=2, outline="smooth")
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
    rooms = mazeart.rooms.load_rooms(HERE / "rooms.toml")
    level = {
        "algorithm": "hybrid",
        "rooms": rooms,
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
