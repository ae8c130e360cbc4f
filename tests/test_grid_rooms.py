"""Rooms on every grid, checked from the outside.

Each maze is saved in format 3 and read back with ``json`` alone; the grid's neighbours
come from the cell outlines (shapely), not from the grid's own table. A room must hold
exactly the cells whose centres lie in its rectangle, be open between every two
neighbouring cells of it, be closed to the maze but for its doors (each a passage from
a room cell to a maze cell outside), and be reached with the rest of the maze.
"""

from __future__ import annotations

import itertools
import json

import networkx as nx
import numpy as np
import pytest
from conftest import REPO, run_cli
from PIL import Image, ImageDraw

from mazeart import Door, Room, make, save
from mazeart.errors import MazeartError
from mazeart.grids import make_grid
from mazeart.grids.generate import generate_on_grid
from mazeart.mazefile import dumps, loads

KINDS = ["hex", "triangle", "polar", "upsilon"]

HALL = {
    "units": "fraction",
    "rooms": [
        {"name": "hall", "kind": "arena", "rect": [0.3, 0.25, 0.35, 0.4],
         "doors": [[0.3, 0.45], [0.5, 0.65, "E"]]},
        {"name": "den", "kind": "spawn", "rect": [0.75, 0.7, 0.2, 0.2], "doors": [[0.75, 0.8]]},
    ],
}  # fmt: skip


def outline_neighbours(grid) -> nx.Graph:
    """Neighbours from the cell outlines alone (a shared boundary longer than a hair)."""
    from shapely.geometry import Polygon
    from shapely.strtree import STRtree

    polys = [Polygon(grid.polygon(i)) for i in range(grid.n_cells)]
    tree = STRtree(polys)
    out = nx.Graph()
    out.add_nodes_from(range(grid.n_cells))
    for a, poly in enumerate(polys):
        for b in tree.query(poly):
            b = int(b)
            if b > a and poly.boundary.intersection(polys[b].boundary).length > 1e-6:
                out.add_edge(a, b)
    return out


def check_rooms(doc: dict, near: nx.Graph) -> None:
    graph = nx.Graph()
    graph.add_nodes_from(doc["cells"])
    graph.add_edges_from(map(tuple, doc["passages"]))
    assert nx.is_connected(graph)
    owner = {}
    for i, room in enumerate(doc["rooms"]):
        for cell in room["cells"]:
            assert cell not in owner and cell in graph
            owner[cell] = i
    for room in doc["rooms"]:
        cells = set(room["cells"])
        for a, b in itertools.combinations(sorted(cells), 2):
            if near.has_edge(a, b):
                assert graph.has_edge(a, b), f"{room['name']} closed inside at {a}-{b}"
        doors = {frozenset(d) for d in room["doors"]}
        assert doors, room
        for a, b in room["doors"]:
            assert a in cells and b not in cells and near.has_edge(a, b) and graph.has_edge(a, b)
        for a in cells:
            for b in graph.neighbors(a):
                if b not in cells:
                    assert frozenset((a, b)) in doors, f"{room['name']}: {a}-{b} is no door"


@pytest.mark.parametrize("kind", KINDS)
def test_rooms_on_every_grid_are_open_inside_and_closed_but_for_their_doors(kind, tmp_path):
    made = make("16x12", grid=kind, rooms=HALL, rng=4, braid=1.0, place="loot=3")
    maze = made.maze
    doc = json.loads(dumps(maze, version=3))
    grid = make_grid(doc["grid"]["kind"], **doc["grid"]["params"])
    check_rooms(doc, outline_neighbours(grid))
    hall, den = doc["rooms"]
    assert (hall["name"], hall["kind"], den["kind"]) == ("hall", "arena", "spawn")
    assert len(hall["doors"]) == 2 and len(den["doors"]) == 1
    # the hall: exactly the cells whose centres lie in its rectangle
    w, h = grid.size
    x0, x1, y0, y1 = 0.25 * w, 0.65 * w, 0.3 * h, 0.65 * h
    xy = np.array(doc["centres"])
    inside = np.flatnonzero((xy[:, 0] >= x0) & (xy[:, 0] < x1) & (xy[:, 1] >= y0)
                            & (xy[:, 1] < y1))  # fmt: skip
    assert sorted(hall["cells"]) == inside.tolist()
    # the first door opens north near (0.45 w, 0.3 h), the second east near (0.65 w, 0.5 h)
    (a, b), (c, d) = hall["doors"]
    assert xy[b, 1] < xy[a, 1] and abs(xy[a, 0] - 0.45 * w) < 1.5
    assert xy[d, 0] > xy[c, 0] and abs(xy[c, 1] - 0.5 * h) < 1.5
    # braiding and tags leave the rooms alone; the file holds them exactly
    assert loads(dumps(maze, version=3)) == maze
    save(made, tmp_path / "rooms.svg")
    svg = (tmp_path / "rooms.svg").read_text()
    assert 'data-name="hall"' in svg and 'data-kind="spawn"' in svg
    assert "2 rooms with 3 doors" in made.summary()


def _level() -> Image.Image:
    img = Image.new("RGB", (400, 300), "white")
    draw = ImageDraw.Draw(img)
    draw.rectangle((20, 20, 380, 280), fill="black")  # the figure
    draw.rectangle((100, 100, 199, 179), fill=(255, 0, 0))  # a room, a mark over its top
    draw.rectangle((130, 93, 159, 108), fill=(0, 0, 255))
    draw.rectangle((260, 200, 319, 239), fill=(255, 0, 0))  # a room with no mark
    return img


@pytest.mark.parametrize("kind", ["hex", "triangle", "polar"])
def test_a_pictures_colour_key_makes_rooms_on_other_grids(kind, tmp_path):
    picture = tmp_path / "level.png"
    _level().save(picture)
    run = run_cli(picture, "--grid", kind, "--colour-rooms", "--cells", "40", "--seed", "3",
                  "-o", tmp_path / "level.json")  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "2 rooms with 2 doors" in run.stderr
    doc = json.loads((tmp_path / "level.json").read_text())
    grid = make_grid(doc["grid"]["kind"], **doc["grid"]["params"])
    check_rooms(doc, outline_neighbours(grid))
    big, small = sorted(doc["rooms"], key=lambda r: -len(r["cells"]))
    xy = np.array(doc["centres"])
    (a, b), *_ = big["doors"]
    assert xy[b, 1] < xy[a, 1]  # the blue mark over the top wall: a door north
    # the red areas' shares of the picture: 100 x 80 and 60 x 40 pixels
    assert 1.5 < len(big["cells"]) / len(small["cells"]) < 5.5


def test_rooms_of_cell_ids_from_python():
    grid = make_grid("hex", rows=8, cols=10)
    room = Room((33, 34, 43, 44), (Door(33, 23),), name="cell block", kind="loot")
    maze = generate_on_grid(np.zeros(grid.n_cells, np.int32), grid, rooms=[room], rng=1)
    (placed,) = maze.rooms
    assert placed == room and maze.room_mask[[33, 34, 43, 44]].all()
    assert 23 in maze.neighbours(33)
    with pytest.raises(MazeartError, match="not neighbours"):
        generate_on_grid(np.zeros(grid.n_cells, np.int32), grid, rng=1,
                         rooms=[Room((33, 34), (Door(33, 60),))])  # fmt: skip
    with pytest.raises(MazeartError, match="is not on its edge"):
        generate_on_grid(np.zeros(grid.n_cells, np.int32), grid, rng=1,
                         rooms=[Room((33, 34), (Door(33, 34),))])  # fmt: skip
    with pytest.raises(TypeError, match="mixes"):
        Room(((1, 2), 3), ())


def test_the_hex_tiled_map_and_the_game_carry_rooms(tmp_path):
    made = make("16x12", grid="hex", rooms=HALL, rng=4)
    save(made, tmp_path / "level.tmj")
    doc = json.loads((tmp_path / "level.tmj").read_text())
    objects = next(layer for layer in doc["layers"] if layer["type"] == "objectgroup")["objects"]
    rooms = [o for o in objects if o["type"] == "room"]
    doors = [o for o in objects if o["type"] == "door"]
    hall = made.maze.rooms[0]
    assert len(rooms) == sum(len(r.cells) for r in made.maze.rooms) and len(doors) == 3
    north = next(o for o in doors if o["name"] == "hall door")
    props = {p["name"]: p["value"] for p in north["properties"]}
    assert props["side"] in ("NW", "NE") and props["cell"] == hall.doors[0].cell
    save(made, tmp_path / "game.html")
    page = (tmp_path / "game.html").read_text()
    assert json.dumps(list(hall.cells)).replace(" ", "") in page.replace(" ", "")


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--grid", "hex", "--rooms", "cells.toml"], "is given in (row, col) cells"),
     (["--grid", "hex", "--colour-rooms"], "colour rooms are read off the picture")],
)  # fmt: skip
def test_rooms_that_cannot_be_placed_are_one_line(args, message, tmp_path):
    (tmp_path / "cells.toml").write_text("[[rooms]]\nrect = [2, 2, 3, 3]\ndoors = [[2, 3]]\n")
    out = tmp_path / "m.svg"
    run = run_cli("12x8", *args, "-o", out, cwd=tmp_path)
    assert run.returncode == 2 and message in run.stderr, run.stderr
    assert len(run.stderr.splitlines()) == 1 and not out.exists()


# ----------------------------------------------------------------------------- textures


def _halves(path) -> None:
    """Two flat colours: the left 60 % one region, the right 40 % another."""
    img = Image.new("RGB", (300, 200), "white")
    draw = ImageDraw.Draw(img)
    draw.rectangle((10, 10, 177, 189), fill=(40, 140, 60))
    draw.rectangle((178, 10, 289, 189), fill=(230, 120, 20))
    img.save(path)


@pytest.mark.parametrize("kind", ["hex", "triangle", "upsilon"])
def test_each_colour_region_follows_its_texture_on_other_grids(kind, tmp_path):
    """--regions --textures horizontal,vertical: the larger (left) region runs across, the
    other up and down, read off the saved file's passages and centres."""
    _halves(tmp_path / "halves.png")
    run = run_cli(tmp_path / "halves.png", "--grid", kind, "--regions", "--textures",
                  "horizontal,vertical", "--cells", "48", "--seed", "2",
                  "-o", tmp_path / "m.json")  # fmt: skip
    assert run.returncode == 0, run.stderr
    doc = json.loads((tmp_path / "m.json").read_text())
    xy = np.array(doc["centres"])
    ends = np.array(doc["passages"])
    step = np.abs(xy[ends[:, 1]] - xy[ends[:, 0]])
    across = step[:, 0] > step[:, 1] + 1e-9  # within 45 degrees of the horizontal
    x = (xy[ends[:, 0], 0] + xy[ends[:, 1], 0]) / 2
    width = xy[:, 0].max()
    left, right = x < 0.5 * width, x > 0.7 * width
    plain = make(tmp_path / "halves.png", grid=kind, cells=48, rng=2, edges=False).maze
    p_ends = plain.grid.wall_cells[plain.passages]
    p_step = np.abs(plain.grid.centres[p_ends[:, 1]] - plain.grid.centres[p_ends[:, 0]])
    baseline = np.mean(p_step[:, 0] > p_step[:, 1] + 1e-9)  # a backtracker's share
    assert across[left].mean() > baseline + 0.2 and across[right].mean() < baseline - 0.1
    assert run.stderr.startswith("mazeart: wrote") and "flow" in run.stderr


def test_a_room_is_one_piece_and_no_end_lies_in_one(tmp_path):
    """A rectangle whose cell centres fall apart on a coarse grid keeps its largest piece
    (the sample rooms file on the polar grid at 40 cells); the automatic ends are never in a
    room (a room over the polar grid's centre); a saved room in two pieces is refused."""
    from conftest import REPO

    made = make(REPO / "samples" / "horse.png", grid="polar", cells=40, rng=1,
                rooms=REPO / "samples" / "rooms-fractions.toml")  # fmt: skip
    doc = json.loads(dumps(made.maze, version=3))
    check_rooms(doc, outline_neighbours(make_grid("polar", **doc["grid"]["params"])))
    centre = {"units": "fraction", "rect": [0.4, 0.4, 0.2, 0.2], "doors": [[0.4, 0.5]]}
    for kind in KINDS:
        maze = make("16x16", grid=kind, rooms=[centre], rng=2).maze
        assert not maze.room_mask[[maze.entrance, maze.exit]].any(), kind
    two = [
        {"units": "fraction", "rect": [0.1, 0.1, 0.2, 0.2], "doors": [[0.3, 0.2]]},
        {"units": "fraction", "rect": [0.6, 0.6, 0.2, 0.2], "doors": [[0.6, 0.7]]},
    ]
    maze = make("16x12", grid="hex", rooms=two, rng=1).maze
    a, b = maze.rooms
    bad = json.loads(dumps(maze, version=3))
    bad["rooms"] = [
        {
            "name": "split",
            "kind": "room",
            "cells": [*a.cells, *b.cells],
            "doors": [[d.cell, d.outside] for d in (*a.doors, *b.doors)],
        }
    ]
    with pytest.raises(MazeartError, match="do not join up"):
        loads(json.dumps(bad))


def test_rooms_in_either_form_on_the_square_grid():
    """A room of cell ids and the same room in (row, col) give the same maze through
    generate(), make() and generate_on_grid()."""
    from mazeart import generate

    zeros = np.zeros((10, 10), np.int32)
    ids = Room((0, 1, 10, 11), (Door(11, 12),), name="hall")
    pairs = Room(((0, 0), (0, 1), (1, 0), (1, 1)), (Door.through(1, 1, 2),), name="hall")
    assert generate(zeros, rng=1, rooms=[ids]) == generate(zeros, rng=1, rooms=[pairs])
    assert make("10x10", rng=1, rooms=[ids]).maze == make("10x10", rng=1, rooms=[pairs]).maze
    g = make_grid("square", rows=10, cols=10)
    a = generate_on_grid(zeros.reshape(-1), g, rng=1, rooms=[ids])
    b = generate_on_grid(zeros.reshape(-1), g, rng=1, rooms=[pairs])
    assert a == b and a.rooms[0].cells == pairs.cells


REPO_SAMPLES = REPO / "samples"


def _loops_with_rooms_as_nodes(maze) -> int:
    """Passages beyond a spanning forest once each room is one node (networkx counts)."""
    owner = {}
    for i, room in enumerate(maze.rooms):
        for cell in maze.flat_cells(room.cells).tolist():
            owner[cell] = ("room", i)
    wc = maze.grid.wall_cells
    graph = nx.MultiGraph()
    graph.add_nodes_from(owner.get(c, c) for c in np.flatnonzero(maze.mask.reshape(-1)).tolist())
    for a, b in wc[maze.open_walls & (wc[:, 1] >= 0)].tolist():
        u, v = owner.get(a, a), owner.get(b, b)
        if u != v:
            graph.add_edge(u, v)
    return graph.number_of_edges() - graph.number_of_nodes() + nx.number_connected_components(graph)


ROOMS_TWO_DOORS = [
    {"rect": [3, 3, 2, 1], "doors": [[3, 3, "N"], [4, 3, "S"]]},
    {"rect": [6, 10, 3, 3], "doors": [[6, 11, "N"], [8, 10, "W"], [8, 12, "E"]]},
]
SQUARE_ROOM_ALGORITHMS = ["aldous-broder", "backtracker", "binary-tree", "division", "eller",
                          "flow", "growing-tree", "hunt-and-kill", "hybrid", "kruskal", "prim",
                          "sidewinder", "weighted-dfs", "wilson", "wilson-nocross"]  # fmt: skip


@pytest.mark.parametrize("algorithm", SQUARE_ROOM_ALGORITHMS)
def test_rooms_with_several_doors_close_no_loop(algorithm):
    """A room with two or three doors joins the maze more than once; unless loops are
    asked for (braid), the maze with each room as one node stays a tree, under every
    generator as under the hybrid."""
    for seed in range(3):
        maze = make("16x12", rng=seed, algorithm=algorithm, rooms=ROOMS_TWO_DOORS).maze
        assert _loops_with_rooms_as_nodes(maze) == 0, (algorithm, seed)
        pairs = [[maze.cell_index(d.cell), maze.cell_index(d.outside)]
                 for r in maze.rooms for d in r.doors]  # fmt: skip
        assert maze.open_walls[maze.grid.walls_between(np.array(pairs))].all()  # doors kept
    braided = make("16x12", rng=1, algorithm=algorithm, rooms=ROOMS_TWO_DOORS, braid=1.0).maze
    assert _loops_with_rooms_as_nodes(braided) > 0  # asked for: loops stay


@pytest.mark.parametrize("kind", ["hex", "triangle", "polar", "upsilon"])
def test_rooms_with_several_doors_close_no_loop_on_other_grids(kind):
    rooms = REPO_SAMPLES / "rooms-fractions.toml"
    for seed in range(2):
        maze = make(REPO_SAMPLES / "horse.png", grid=kind, cells=40, rng=seed, rooms=rooms).maze
        assert any(len(r.doors) > 1 for r in maze.rooms)
        assert _loops_with_rooms_as_nodes(maze) == 0, (kind, seed)
