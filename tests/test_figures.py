"""Mazes of words and shapes, without a picture (mazeart.figures), on every grid.

The references are independent of the code: a circle's area from its radius, the cell
polygons' areas from shapely, a word's stroke width from scipy's distance transform.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import run_cli
from scipy import ndimage

from mazeart import make
from mazeart.errors import MazeartError
from mazeart.figures import STROKE_CELLS

KINDS = ["square", "hex", "triangle", "polar", "upsilon"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_circle_fills_the_disc_it_names(kind):
    """circle:N: the maze's cells (their polygons, shapely) fill a disc: pi/4 of the square
    around them, and about N cells across."""
    from shapely.geometry import Polygon
    from shapely.ops import unary_union

    maze = make("circle:30", grid=kind, rng=1).maze
    g = maze.grid
    figure = unary_union([Polygon(g.polygon(c)) for c in np.flatnonzero(maze.mask.reshape(-1))])
    x0, y0, x1, y1 = figure.bounds
    assert abs(figure.area / ((x1 - x0) * (y1 - y0)) - math.pi / 4) < 0.05, kind
    assert abs((x1 - x0) - (y1 - y0)) < 0.1 * (x1 - x0)  # as tall as wide


@pytest.mark.parametrize("shape", ["triangle", "hexagon", "heart"])
def test_every_shape_makes_one_maze_on_every_grid(shape):
    for kind in KINDS:
        made = make(f"{shape}:24", grid=kind, rng=2)
        assert made.report.parts == 1 and made.maze.entrance != made.maze.exit, (shape, kind)


def test_a_word_is_its_letters_joined_with_strokes_several_cells_wide():
    made = make("text:HELLO", rng=3)
    assert made.report.parts == 5 and made.report.bridges == 4  # five letters, joined
    depth = ndimage.distance_transform_edt(np.pad(made.maze.region, 1))
    assert depth.max() >= STROKE_CELLS / 2 - 0.5  # the thickest stroke: about 6 cells
    wider = make("text:HELLO", rng=3, cells=140).maze
    assert wider.width == 140  # cells given: the word takes them


def test_the_centre_room_and_the_refusals(tmp_path):
    maze = make("heart:30", room_centre=True, rng=4).maze
    (room,) = maze.rooms
    rows, cols = np.array(room.cells).T
    assert abs(rows.mean() - maze.height / 2) < 2 and abs(cols.mean() - maze.width / 2) < 2
    assert len(room.doors) == 1 and room.doors[0].side == 1  # on top
    for source, message in (("text:", "needs something to write"), ("heart:1", "heart's cells"),
                            ("text:" + "x" * 300, "at most 200")):  # fmt: skip
        with pytest.raises(MazeartError, match=message):
            make(source, rng=1)
    (tmp_path / "bad.ttf").write_bytes(b"not a font")
    run = run_cli("text:HI", "--font", tmp_path / "bad.ttf", "-o", tmp_path / "m.svg")
    assert run.returncode == 2 and "not a font" in run.stderr and not (tmp_path / "m.svg").exists()
    run = run_cli("samples/horse.png", "--font", tmp_path / "bad.ttf", "-o", tmp_path / "m.svg")
    assert run.returncode == 2 and "text:WORDS" in run.stderr


def test_the_command_line_writes_a_word_and_a_shape(tmp_path):
    for source in ("text:HELLO", "hexagon:20"):
        run = run_cli(source, "-o", tmp_path / "m.svg", "--seed", "1")
        assert run.returncode == 0, run.stderr
        assert (tmp_path / "m.svg").stat().st_size > 1000


@pytest.mark.parametrize(
    ("args", "message"),
    [(["text:日本"], "the font has no letter '日'"),
     (["text:A\x07B"], "holds a control character"),
     (["heart:-5"], "heart:N takes N, the cells across it"),
     (["circle:30", "--font", "mazeart/fonts/DejaVuSans.ttf"], "font sets the words")],
)  # fmt: skip
def test_what_a_figure_cannot_be_is_one_line(args, message, tmp_path):
    from conftest import REPO

    run = run_cli(*args, "-o", tmp_path / "m.png", cwd=REPO)
    assert run.returncode == 2 and message in run.stderr and len(run.stderr.splitlines()) == 1
    assert not (tmp_path / "m.png").exists()


def test_books_batches_and_presets_take_figures(tmp_path):
    assert make("CIRCLE:12", rng=1).maze.width == 12  # names in any case
    for argv in (["batch", "text:HI", "--count", "2", "-o", tmp_path / "b"],
                 ["book", "heart:20", "--count", "2", "-o", tmp_path / "b.pdf"],
                 ["weights", "text:HI", "-o", tmp_path / "p.png"]):  # fmt: skip
        run = run_cli(*argv, "--seed", "1") if argv[0] != "weights" else run_cli(*argv)
        assert run.returncode == 0, run.stderr
    assert len(list((tmp_path / "b").iterdir())) >= 2 and (tmp_path / "p.png").exists()
