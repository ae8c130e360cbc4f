"""Designs: the paint over the picture, ends and tags at places, and the design file.

``tests/fixtures/design-v1.json`` is a design written by hand: a 24 x 16 rectangle whose
paint (a 2 x 2 picture stretched over it) is red in its top-left pixel, so the top-left
quarter (rows 0-7, columns 0-11) holds no maze; a room over rows 8-11 and columns 12-17
with a door on its top wall near column 14; the entrance at the bottom-left corner, the
exit at the top-right; a key near (row 14, column 2); Prim's algorithm, braid 0.25,
seed 11. The expected values below are read off that description, not off the package.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import jsonschema
import numpy as np
import pytest
from conftest import REPO
from PIL import Image

import mazeart
from mazeart import At
from mazeart.design import Design, TagAt, load_design, save_design
from mazeart.image import figure_coverage, paint_image
from mazeart.pipeline import make_design

FIXTURE = Path(__file__).parent / "fixtures" / "design-v1.json"
HORSE = REPO / "samples" / "horse.png"
GRIDS = ("square", "hex", "triangle", "polar", "upsilon")


def schema() -> dict:
    return json.loads(files("mazeart").joinpath("schema", "design-1.schema.json").read_text())


def maze_cells(maze) -> np.ndarray:
    """The ids of the maze's cells."""
    return np.flatnonzero(maze.mask.reshape(-1))


# ----------------------------------------------------------------------------- paint


@pytest.mark.parametrize("grid", GRIDS)
def test_paint_keeps_maze_out_and_puts_it_in(grid):
    """Red paint over the horse's back half leaves no maze there; green paint over the ground
    in the top-left corner makes maze there. Checked well inside each painted area (a cell
    and a half in), where a cell's place decides alone."""
    w, h = Image.open(HORSE).size
    paint = np.zeros((h, w), np.uint8)
    paint[:, : w // 2] = 1  # the back half: no maze
    paint[: h // 4, -w // 5 :] = 0
    paint[: h // 5, : w // 5] = 2  # the top-left ground: maze
    made = mazeart.make(HORSE, cells=40, rng=2, grid=grid, paint=paint_image(paint))
    places = made.places()
    cell = 1.5 / 40
    maze = maze_cells(made.maze)
    x, y = places[:, 0], places[:, 1]
    out_area = (x < 0.5 - cell) & (y > 0.25 + cell)  # the back half below the green corner
    in_area = (x > cell) & (x < 0.2 - cell) & (y > cell) & (y < 0.2 - cell)
    assert in_area.sum() >= 4 and out_area.sum() >= 20
    assert not np.isin(np.flatnonzero(out_area), maze).any()
    assert np.isin(np.flatnonzero(in_area), maze).all()
    plain = maze_cells(mazeart.make(HORSE, cells=40, rng=2, grid=grid).maze)
    assert np.isin(np.flatnonzero(out_area), plain).any()  # the paint made the difference


@pytest.mark.parametrize("grid", GRIDS)
def test_the_places_of_the_cells_lie_on_the_picture_where_the_figure_is(grid):
    """A cell's place (its centre in fractions of the picture) read against the picture by
    Pillow and numpy alone: the maze cells of the horse sit on the horse."""
    made = mazeart.make(HORSE, cells=40, rng=1, grid=grid)
    figure = figure_coverage(Image.open(HORSE)) >= 0.5
    h, w = figure.shape
    at = made.places()[maze_cells(made.maze)]
    px = np.clip((at * [w, h]).astype(int), 0, [w - 1, h - 1])
    assert figure[px[:, 1], px[:, 0]].mean() > 0.93


def test_a_paint_layer_reads_red_green_and_clear():
    img = Image.new("RGBA", (3, 1), (0, 0, 0, 0))
    img.putpixel((0, 0), (250, 10, 10, 255))
    img.putpixel((1, 0), (10, 200, 10, 255))
    from mazeart.image import paint_layer

    assert paint_layer(img).tolist() == [[1, 2, 0]]
    with pytest.raises(mazeart.MazeartError, match="0 \\(the picture\\)"):
        paint_layer([[0, 3]])


# ----------------------------------------------------------------------------- ends and tags


@pytest.mark.parametrize("grid", GRIDS)
def test_an_end_at_a_place_opens_on_the_maze_edge_nearest_it(grid):
    nose, tail = At(0.97, 0.2), At(0.0, 0.5)
    made = mazeart.make(HORSE, cells=40, rng=3, grid=grid, exit=nose, entrance=tail)
    maze, places = made.maze, made.places()
    for end, at in ((maze.exit, nose), (maze.entrance, tail)):
        i = maze.cell_index(end)
        assert maze.door_wall(end) >= 0  # a door to the outside
        assert np.hypot(*(places[i] - (at.x, at.y))) < 0.08  # where it was put
    assert nx_path_exists(maze)


def nx_path_exists(maze) -> bool:
    """Whether the ends are joined, by networkx over the maze's own passages."""
    import networkx as nx

    indptr, indices = maze.open_table
    graph = nx.Graph()
    for a in range(len(indptr) - 1):
        graph.add_edges_from((a, int(b)) for b in indices[indptr[a] : indptr[a + 1]])
    return nx.has_path(graph, maze.cell_index(maze.entrance), maze.cell_index(maze.exit))


def test_tags_go_to_the_maze_cells_nearest_their_places():
    middle = At(0.52, 0.48)
    design = Design(source="20x10", tags=(TagAt("loot", middle), TagAt("key", middle)), seed=1)
    maze = make_design(design).maze
    assert maze.tags[(4, 10)] == "loot"  # x 10.4 of 20, y 4.8 of 10: row 4, column 10
    (key,) = [c for c, k in maze.tags.items() if k == "key"]  # the next nearest cell
    assert key in {(5, 10), (4, 9), (4, 11), (5, 11), (5, 9), (3, 10)}


# ----------------------------------------------------------------------------- the file


def test_the_fixed_design_is_read_as_written():
    doc = json.loads(FIXTURE.read_text())
    jsonschema.validate(doc, schema())
    design, base = load_design(FIXTURE)
    assert base == FIXTURE.parent.resolve()
    maze = make_design(design, base=base).maze
    mask = maze.mask
    assert mask.shape == (16, 24)
    assert not mask[:8, :12].any() and mask[8:, :].all() and mask[:, 12:].all()
    assert maze.n_cells == 24 * 16 - 12 * 8
    assert maze.entrance == (15, 0) and maze.exit == (0, 23)
    assert maze.tags == {(14, 2): "key"}
    (room,) = maze.rooms
    assert {tuple(c) for c in room.cells} == {(r, c) for r in range(8, 12) for c in range(12, 18)}
    (door,) = room.doors
    assert door.cell == (8, 14) and door.outside == (7, 14)  # through its top wall
    assert maze.meta["algorithm"] == "prim" and maze.meta["seed"] == 11


def test_a_saved_design_follows_the_schema_and_reads_back_the_same(tmp_path):
    shutil.copy(HORSE, tmp_path / "horse.png")
    paint = np.zeros((30, 40), np.uint8)
    paint[20:, :10] = 1
    design = Design(source="horse.png", paint=paint, entrance=At(0.0, 0.5), exit=At(1.0, 0.2),
                    rooms=({"name": "hall", "rect": [0.35, 0.3, 0.2, 0.25],
                            "doors": [[0.35, 0.4], [0.55, 0.45]]},),
                    tags=(TagAt("spawn", At(0.5, 0.5)),), options={"cells": 30, "grid": "hex"},
                    seed=5)  # fmt: skip
    path = save_design(design, tmp_path / "d.json")
    doc = json.loads(path.read_text())
    jsonschema.validate(doc, schema())
    painted = np.asarray(Image.open(__import__("io").BytesIO(
        __import__("base64").b64decode(doc["paint"]["png"]))).convert("RGBA"))  # fmt: skip
    assert painted.shape[:2] == (30, 40) and (painted[20:, :10, 0] > 200).all()
    assert (painted[:20, :, 3] == 0).all()  # clear where the picture decides
    again, _ = load_design(path)
    assert again == design


def test_the_command_line_renders_a_design_as_the_library_makes_it(tmp_path):
    folder = tmp_path / "work"
    folder.mkdir()
    shutil.copy(FIXTURE, folder / "design.json")
    out = tmp_path / "from-cli.svg"
    run = subprocess.run([sys.executable, "-m", "mazeart", str(folder / "design.json"), "-o",
                          str(out)], capture_output=True, text=True, cwd=tmp_path)  # fmt: skip
    assert run.returncode == 0, run.stderr
    made = make_design(load_design(FIXTURE)[0])
    mazeart.save(made, tmp_path / "from-library.svg")
    assert out.read_bytes() == (tmp_path / "from-library.svg").read_bytes()
    given = subprocess.run([sys.executable, "-m", "mazeart", str(folder / "design.json"),
                            "--seed", "12", "-a", "wilson", "-o", str(tmp_path / "b.json")],
                           capture_output=True, text=True)  # fmt: skip
    assert given.returncode == 0, given.stderr
    saved = mazeart.load_maze(tmp_path / "b.json")
    assert saved.meta["seed"] == 12 and saved.meta["algorithm"] == "wilson"
    assert not saved.mask[:8, :12].any()  # the design's paint still holds


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": "mazeart-design", "version": 9, "source": "9x9"}', "version 9"),
        ('{"format": "mazeart-design", "version": 1, "source": "9x9", "paint": {"png": "@@"}}',
         "not base64"),
        ('{"format": "mazeart-design", "version": 1, "source": "9x9", "exit": {"x": 2, "y": 0}}',
         "exit x"),
        ('{"format": "mazeart-design", "version": 1, "source": "9x9", "options": {"cels": 3}}',
         "unknown: cels"),
        ('{"format": "mazeart-design", "version": 1, "source": "9x9", '
         '"tags": [{"kind": "gold", "x": 0, "y": 0}]}', "tag kind"),
    ],
)  # fmt: skip
def test_a_broken_design_is_one_line_and_writes_nothing(tmp_path, text, message):
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    out = tmp_path / "m.svg"
    run = subprocess.run([sys.executable, "-m", "mazeart", str(bad), "-o", str(out)],
                         capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(REPO)})  # fmt: skip
    assert run.returncode == 2
    (line,) = run.stderr.strip().splitlines()
    assert line.startswith("mazeart: error:") and message in line
    assert not out.exists()
