"""Generation animation: every generator records its carve; the GIF ends on the PNG export."""

from __future__ import annotations

import io

import numpy as np
import pytest
from conftest import run_cli
from PIL import Image

from mazeart import ALGORITHMS, generate, preset_from_text
from mazeart.animate import Recording, carve_frames, to_gif
from mazeart.export import to_png_image

CASES = [(name, geo) for name, algo in ALGORITHMS.items() for geo in algo.geometries]

SHAPE = """
..........##......
..........###.....
..................
####..............
..................
.......####.......
......##..##......
..................
"""


def on_white(img) -> np.ndarray:
    base = Image.new("RGBA", img.size, (255, 255, 255, 255))
    return np.asarray(Image.alpha_composite(base, img.convert("RGBA")).convert("RGB"))


@pytest.mark.parametrize(("algorithm", "geometry"), CASES)
def test_every_generator_records_what_it_carves(algorithm, geometry):
    weights = preset_from_text(SHAPE)
    with Recording() as rec:
        maze = generate(weights, algorithm=algorithm, geometry=geometry, rng=7,
                        islands="separate")  # fmt: skip
    kind, times = rec.carving()
    assert kind == geometry
    if geometry == "cells":
        east = (maze.passages & 2) != 0
        south = (maze.passages & 4) != 0
        # every passage of the generator's maze has the tick at which it opened
        assert np.all(times["east"][east] > 0) and np.all(times["south"][south] > 0)
        ticks = np.concatenate([times["east"][east], times["south"][south]])
        if algorithm != "division":  # division opens everything at its first tick
            assert len(np.unique(ticks)) == len(ticks)  # one passage per tick
    else:
        carved = maze.mask.copy()
        for end in (maze.entrance, maze.exit):  # a door cut through the border after the carve
            if times["blocks"][end] == 0:
                carved[end] = False
        assert np.count_nonzero(maze.mask & ~carved) <= 2
        assert np.all(times["blocks"][carved] > 0)
        assert not np.any(times["blocks"][~maze.mask])
    frames = carve_frames(maze, rec.carving(), count=12)
    assert 2 < len(frames) <= 12
    sizes = [f.n_passages if geometry == "cells" else f.n_cells for f in frames]
    if algorithm != "division":  # the others only ever add
        assert sizes == sorted(sizes)
    else:  # division starts open and adds walls
        assert sizes[0] > sizes[-2]
    assert frames[-1] is maze


@pytest.mark.parametrize("geometry", ["cells", "blocks"])
def test_gif_frames_and_last_frame_is_the_png(geometry):
    weights = preset_from_text(SHAPE)
    with Recording() as rec:
        maze = generate(weights, rng=3, geometry=geometry, place="loot=1" if geometry ==
                        "cells" else None)  # fmt: skip
    data = to_gif(maze, rec.carving(), frames=20, cell_size=9, solution=True, markers=True)
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF" and 3 <= gif.n_frames <= 20
    gif.seek(gif.n_frames - 1)
    last = np.asarray(gif.convert("RGB"))
    png = on_white(to_png_image(maze, cell_size=9, solution=True, markers=True))
    assert np.array_equal(last, png)
    gif.seek(0)
    assert not np.array_equal(np.asarray(gif.convert("RGB")), last)


def test_big_mazes_are_drawn_smaller():
    with Recording() as rec:
        maze = generate(np.zeros((120, 200), np.int32), rng=1, algorithm="kruskal")
    gif = Image.open(io.BytesIO(to_gif(maze, rec.carving(), frames=5, cell_size=10)))
    assert max(gif.size) <= 800


def test_animate_through_the_cli(tmp_path, horse_png):
    png, gif = tmp_path / "m.png", tmp_path / "m.gif"
    res = run_cli(horse_png, "-o", png, "--animate", gif, "--cells", "30", "--seed", "2",
                  "--best-of", "3", "-a", "wilson")  # fmt: skip
    assert res.returncode == 0, res.stderr
    img = Image.open(gif)
    assert img.n_frames > 1
    img.seek(img.n_frames - 1)
    assert np.array_equal(np.asarray(img.convert("RGB")), on_white(Image.open(png)))
    res = run_cli(horse_png, "-o", png, "--animate", tmp_path / "m.mp4")
    assert res.returncode == 2 and "GIF" in res.stderr
