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


def make(source: str, out: str, *, cells: int, seed: int, geometry: str = "cells", **draw):
    weights = mazeart.weights_from_image(HERE / source, cells=cells)
    maze = mazeart.generate(weights, seed=seed, geometry=geometry)
    mazeart.save(maze, HERE / out, **draw)
    print(f"{out}: {maze.width} x {maze.height} grid, {maze.n_cells} cells, seed {seed}")
    return maze


def main() -> None:
    inputs()
    make("horse.png", "horse-maze.svg", cells=100, seed=2026, size="180mm")
    make("horse.png", "horse-maze.png", cells=100, seed=2026, cell_size=8)
    make("horse.png", "horse-solved.png", cells=60, seed=7, cell_size=10, solution=True)
    make("horse.png", "horse-blocks.png", cells=160, seed=5, geometry="blocks", cell_size=4)
    make("logo.png", "logo-maze.png", cells=70, seed=11, cell_size=8, solution=True)
    make("logo.png", "logo-blocks.png", cells=120, seed=3, geometry="blocks", cell_size=5)


if __name__ == "__main__":
    main()
