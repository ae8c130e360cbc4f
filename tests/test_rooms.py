"""Rooms: files, checks, the colour key, every algorithm around them, and the hybrid."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from conftest import REPO, run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from mazeart import ALGORITHMS, generate, make, make_preset, solve, weights_from_image
from mazeart.maze import DIRECTIONS
from mazeart.mazefile import load_maze
from mazeart.rooms import (
    Door,
    Room,
    load_rooms,
    resolve_rooms,
    rooms_from_weights,
    stamp_rooms,
)
from mazeart.shape import dead_ends, degrees
from mazeart.solvers import distances
from mazeart.weights import DOOR, FORBIDDEN, FREE, ROOM, preset_from_text

ROOMS_TOML = """
[[rooms]]
name = "treasury"
kind = "loot"
rect = [3, 4, 3, 5]
doors = [[3, 6], [5, 4, "W"]]

[[rooms]]
name = "well"
origin = [10, 12]
mask = ["##", "###"]
doors = [[11, 14]]
"""

CELL_ALGORITHMS = [n for n, a in ALGORITHMS.items() if "cells" in a.geometries]


def room_specs(tmp_path, text: str = ROOMS_TOML, suffix: str = ".toml"):
    path = tmp_path / f"rooms{suffix}"
    path.write_text(text)
    return load_rooms(path)


def contracted_counts(maze) -> tuple[int, int]:
    """Nodes and edges of the maze graph with every room taken as one node."""
    in_room = np.zeros(maze.shape, dtype=bool)
    inner = 0
    for room in maze.rooms:
        in_room |= room.mask(maze.shape)
        for r, c in room.cells:
            for _, dr, dc in DIRECTIONS[1:3]:  # E and S, each inner passage once
                if (r + dr, c + dc) in room:
                    inner += 1
    nodes = int(np.count_nonzero(maze.mask & ~in_room)) + len(maze.rooms)
    return nodes, maze.n_passages - inner


def test_files_load_in_json_and_toml(tmp_path):
    toml_specs = room_specs(tmp_path)
    as_json = {
        "rooms": [
            {
                "name": "treasury",
                "kind": "loot",
                "rect": [3, 4, 3, 5],
                "doors": [[3, 6], [5, 4, "W"]],
            },
            {"name": "well", "origin": [10, 12], "mask": ["##", "###"], "doors": [[11, 14]]},
        ]
    }
    json_specs = room_specs(tmp_path, json.dumps(as_json), ".json")
    assert [r.cells for r, _ in toml_specs] == [r.cells for r, _ in json_specs]
    weights, rooms = stamp_rooms(np.zeros((16, 20), np.int32), toml_specs)
    assert rooms[0].name == "treasury" and rooms[0].kind == "loot"
    assert rooms[0].doors == (Door.through(3, 6, 1), Door.through(5, 4, 8))
    assert len(rooms[1].cells) == 5
    assert weights[4, 5] == ROOM + 1 and weights[3, 6] == DOOR + 1 and weights[11, 14] == DOOR + 2
    # read back from the codes: the same cells and door cells; a corner door opens
    # through its first free side (N, E, S, W) unless a rooms file says otherwise
    back = rooms_from_weights(weights)
    assert [r.cells for r in back] == [r.cells for r in rooms]
    assert back[0].doors == (Door.through(3, 6, 1), Door.through(5, 4, 4))
    assert back[1].doors == rooms[1].doors


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[[rooms]]\nrect = [0, 0, 2, 2]\ndoors = [[1, 1]]\n[[rooms]]\nrect = [1, 1, 2, 2]\n"
            "doors = [[2, 2]]",
            "overlap at (1, 1)",
        ),
        ("[[rooms]]\nrect = [18, 0, 4, 2]\ndoors = [[18, 0]]", "outside the 20 x 16 grid"),
        ("[[rooms]]\nrect = [2, 2, 3, 3]", "has no door"),
        ("[[rooms]]\nrect = [2, 2, 3, 3]\ndoors = [[3, 3]]", "is not on its edge"),
        ("[[rooms]]\nrect = [2, 2, 3, 3]\ndoors = [[9, 9]]", "is not on its edge"),
        ("[[rooms]]\nrect = [2, 2, 3, 3]\ndoors = [[2, 3, 'S']]", "opens into the room"),
        ("[[rooms]]\nrect = [0, 0, 3, 3]\ndoors = [[0, 1, 'N']]", "opens onto no maze cell"),
        ("[[rooms]]\nrect = [2, 2, 3, 3]\ndoors = [[2, 3, 'Q']]", "side must be N, E, S or W"),
        ("[[rooms]]\nsize = 3", "unknown key"),
        ("[[rooms]]\nname = 'x'", "needs a 'rect' or a 'mask'"),
        ("rooms = 3", "no rooms found"),
        ("[[rooms]\n", "not valid TOML"),
    ],
)
def test_bad_room_specs_are_clear_errors(tmp_path, text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        stamp_rooms(np.zeros((16, 20), np.int32), room_specs(tmp_path, text))


@pytest.mark.parametrize("name", CELL_ALGORITHMS)
@settings(max_examples=25)  # each of the fifteen generators
@given(seed=st.integers(0, 2**31))
def test_rooms_are_entered_only_by_their_doors(tmp_path_factory, name, seed):
    specs = room_specs(tmp_path_factory.mktemp("r"))
    weights = np.zeros((16, 20), np.int32)
    weights[0, :8] = FORBIDDEN  # some ground, so the shape is not a plain rectangle
    maze = generate(weights, algorithm=name, rng=seed, rooms=specs)
    # Maze() itself checks that rooms are open inside and closed but for their doors;
    # check again here, and that each door leads into the maze.
    for room in maze.rooms:
        for d in room.doors:
            assert maze.is_cell(d.outside) and d.outside not in room
            assert maze.is_open((d.row, d.col), d.side)
        for r, c in room.cells:
            for bit, dr, dc in DIRECTIONS:
                out = (r + dr, c + dc) not in room
                if out and maze.is_open((r, c), bit):
                    assert Door.through(r, c, bit) in room.doors
    # everything, rooms included, is reachable from the entrance
    d = distances(maze, maze.entrance)
    assert np.all(d[maze.mask] >= 0)
    assert maze.entrance not in maze.rooms[0] and maze.entrance not in maze.rooms[1]


@given(seed=st.integers(0, 2**31))
def test_hybrid_is_a_tree_of_rooms_and_cells_unless_loops_are_asked(tmp_path_factory, seed):
    specs = room_specs(tmp_path_factory.mktemp("r"))
    weights = np.zeros((16, 20), np.int32)
    maze = generate(weights, algorithm="hybrid", rng=seed, rooms=specs)
    nodes, edges = contracted_counts(maze)
    assert edges == nodes - 1
    looped = generate(weights, algorithm="hybrid", rng=seed, rooms=specs, loops=True)
    nodes, edges = contracted_counts(looped)
    assert edges in (nodes - 1, nodes)  # the treasury's two doors may close one loop
    assert np.all(distances(looped, looped.entrance)[looped.mask] >= 0)


def test_hybrid_loops_appear_when_asked():
    specs = [
        (
            Room(tuple((r, c) for r in range(4, 8) for c in range(6, 12)), ()),
            [(4, 8, None), (7, 8, None), (5, 6, None), (6, 11, None)],
        )
    ]
    weights = np.zeros((14, 18), np.int32)
    loops = []
    for seed in range(10):
        maze = generate(weights, algorithm="hybrid", rng=seed, rooms=specs, loops=True)
        nodes, edges = contracted_counts(maze)
        loops.append(edges - (nodes - 1))
    assert max(loops) >= 1  # four doors into one maze: loops through the room
    for seed in range(10):
        maze = generate(weights, algorithm="hybrid", rng=seed, rooms=specs)
        nodes, edges = contracted_counts(maze)
        assert edges == nodes - 1


def test_hybrid_without_rooms_is_wilsons_uniform_walk():
    # No structures: the hybrid is Wilson's algorithm, draw for draw.
    weights = np.zeros((9, 13), np.int32)
    for seed in range(5):
        a = ALGORITHMS["hybrid"].func(weights, np.random.default_rng(seed))
        b = ALGORITHMS["wilson"].func(weights, np.random.default_rng(seed))
        assert np.array_equal(a.passages, b.passages)


@given(seed=st.integers(0, 2**31))
def test_hybrid_prune_leaves_no_one_cell_dead_end(tmp_path_factory, seed):
    specs = room_specs(tmp_path_factory.mktemp("r"))
    maze = generate(
        np.zeros((16, 20), np.int32), algorithm="hybrid", rng=seed, rooms=specs, prune=True
    )
    deg = degrees(maze)
    for r, c in np.argwhere(dead_ends(maze)):
        ((_, dr, dc),) = [d for d in DIRECTIONS if maze.passages[r, c] & d[0]]
        assert deg[r + dr, c + dc] < 3 or (r, c) in (maze.entrance, maze.exit)


def test_rooms_from_preset_codes():
    weights = preset_from_text(
        """
        ............
        ..AAAa......
        ..AAAA......
        ............
        """
    )
    maze = generate(weights, rng=2)
    (room,) = maze.rooms
    assert room.doors == (Door.through(1, 5, 1),)  # the first side that opens onto a free cell
    with pytest.raises(ValueError, match="has no door"):
        generate(preset_from_text("....\n.AA.\n....\n"), rng=1)


def test_colour_key_in_a_picture():
    img = Image.new("RGB", (400, 300), "white")
    draw = ImageDraw.Draw(img)
    draw.rectangle((20, 20, 380, 280), fill="black")  # the figure
    draw.rectangle((100, 100, 199, 179), fill=(255, 0, 0))  # a room ...
    draw.rectangle((150, 95, 159, 104), fill=(0, 0, 255))  # ... with a door mark on top
    draw.rectangle((260, 200, 319, 239), fill=(255, 0, 0))  # a room with no mark
    weights = weights_from_image(img, cells=40, colour_rooms=True)
    rooms = rooms_from_weights(weights)
    assert len(rooms) == 2
    big, small = sorted(rooms, key=lambda r: -len(r.cells))
    assert len(big.cells) == 10 * 8 and len(small.cells) == 6 * 4
    assert [d.side for d in big.doors] == [1] and big.doors[0].row == 10
    assert len(small.doors) == 1  # placed in the middle of the side facing most maze
    plain = weights_from_image(img, cells=40)
    assert not rooms_from_weights(plain)  # off unless asked


def test_rooms_through_the_command_line(tmp_path, horse_png):
    rooms = tmp_path / "rooms.toml"
    rooms.write_text('[[rooms]]\nname = "hall"\nrect = [30, 30, 4, 6]\ndoors = [[30, 32]]\n')
    out = tmp_path / "level.svg"
    res = run_cli(
        horse_png, "-o", out, "--rooms", rooms, "--seed", "1", "-a", "hybrid", "--place", "spawn=2"
    )
    assert res.returncode == 0, res.stderr
    assert "1 room with 1 door" in res.stderr
    root = ET.fromstring(out.read_text())
    layer = root.find("{http://www.w3.org/2000/svg}g[@id='rooms']")
    assert layer[0].get("data-name") == "hall"
    bad = tmp_path / "bad.toml"
    bad.write_text("[[rooms]]\nrect = [30, 30, 4, 6]\n")
    res = run_cli(horse_png, "-o", tmp_path / "x.svg", "--rooms", bad)
    assert res.returncode == 2 and res.stderr.count("\n") == 1
    assert "has no door" in res.stderr and not (tmp_path / "x.svg").exists()


def test_solution_runs_through_rooms():
    specs = [
        (
            Room(tuple((r, c) for r in range(0, 3) for c in range(4, 8)), ()),
            [(2, 5, "S"), (1, 4, "W")],
        )
    ]
    weights = np.zeros((8, 12), np.int32)
    maze = generate(weights, rng=4, rooms=specs, entrance=(0, 0), exit=(7, 11))
    path = solve(maze)
    assert tuple(path[0]) == (0, 0) and tuple(path[-1]) == (7, 11)
    assert FREE == 0


def test_rooms_survive_a_painted_preset(tmp_path, horse_png):
    rooms = tmp_path / "rooms.toml"
    rooms.write_text(
        '[[rooms]]\nname = "hall"\nrect = [30, 30, 4, 6]\ndoors = [[30, 32]]\n'
        '[[rooms]]\nrect = [40, 20, 2, 3]\ndoors = [[41, 20, "W"]]\n'
    )
    preset = tmp_path / "preset.png"
    res = run_cli("weights", horse_png, "-o", preset, "--rooms", rooms)
    assert res.returncode == 0, res.stderr
    out = tmp_path / "m.svg"
    res = run_cli(preset, "-o", out, "--seed", "3")
    assert res.returncode == 0, res.stderr
    assert "2 rooms with 2 doors" in res.stderr
    layer = ET.fromstring(out.read_text()).find("{http://www.w3.org/2000/svg}g[@id='rooms']")
    assert len(layer) == 2


# ----------------------------------------------------------------------------- units

FRACTIONS_TOML = REPO / "samples" / "rooms-fractions.toml"


def _bounds(room: Room) -> tuple[int, int, int, int]:
    """Top, left, bottom and right grid lines of a room's cells."""
    rows = [r for r, _ in room.cells]
    cols = [c for _, c in room.cells]
    return min(rows), min(cols), max(rows) + 1, max(cols) + 1


@pytest.mark.parametrize("cells", [40, 60, 120])
def test_a_rooms_file_in_fractions_serves_any_number_of_cells(tmp_path, horse_png, cells):
    out = tmp_path / "level.json"
    res = run_cli(
        horse_png, "-o", out, "--rooms", FRACTIONS_TOML, "--cells", cells, "-a", "hybrid",
        "--seed", "5",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert "2 rooms with 3 doors" in res.stderr
    maze = load_maze(out)
    assert maze.width == cells
    rects = {"treasury": (0.455, 0.5, 0.53, 0.5875), "stable": (0.606, 0.25, 0.651, 0.3)}
    sides = {"treasury": ["N", "W"], "stable": ["S"]}
    for room in maze.rooms:
        top, left, bottom, right = rects[room.name]
        r0, c0, r1, c1 = _bounds(room)
        h, w = maze.shape
        # the same place on the picture, to the nearest grid line (a 1-cell room may grow one)
        assert abs(r0 - top * h) <= 0.5 and abs(c0 - left * w) <= 0.5
        assert abs(r1 - bottom * h) <= 1 and abs(c1 - right * w) <= 1
        assert sorted(str(d)[-1] for d in room.doors) == sides[room.name]
        for d in room.doors:
            assert maze.is_open((d.row, d.col), d.side) and d.outside not in room
    # every cell, rooms included, is reachable from the entrance through the doors
    assert np.all(distances(maze, maze.entrance)[maze.mask] >= 0)


def test_at_the_grid_it_was_drawn_for_a_fraction_file_is_the_cells_file(horse_png):
    cells = make_preset(horse_png, cells=80, rooms=REPO / "samples" / "rooms.toml")
    fractions = make_preset(horse_png, cells=80, rooms=FRACTIONS_TOML)
    # samples/rooms.toml's stable is an L-shaped mask; the fractions file has its bounding rect
    treasury = (cells == ROOM + 1) | (cells == DOOR + 1)
    assert np.array_equal(treasury, (fractions == ROOM + 1) | (fractions == DOOR + 1))
    assert np.array_equal(np.argwhere(cells == DOOR + 1), np.argwhere(fractions == DOOR + 1))


def test_doors_snap_to_the_nearest_wall_and_cell():
    hall = {
        "units": "fraction",
        "rect": [0.2, 0.2, 0.6, 0.6],  # rows 2..7, cols 2..7 on a 10 x 10 grid
        "doors": [[0.2, 0.55], [0.7, 0.78], [0.79, 0.3], [0.5, 0.2], [0.25, 0.25, "W"]],
    }
    [(room, doors)] = resolve_rooms(hall, (10, 10))
    assert _bounds(room) == (2, 2, 8, 8)
    assert doors == [(2, 5, 1), (7, 7, 2), (7, 3, 4), (5, 2, 8), (2, 2, 8)]
    # the same room at three times the cells: the same walls, the same places along them
    [(big, big_doors)] = resolve_rooms(hall, (30, 30))
    assert _bounds(big) == (6, 6, 24, 24)
    assert [d[2] for d in big_doors] == [d[2] for d in doors]
    assert big_doors[0] == (6, 16, 1) and big_doors[3] == (15, 6, 8)


def test_units_per_file_per_room_and_in_pixels(tmp_path):
    path = tmp_path / "rooms.json"
    path.write_text(
        json.dumps(
            {
                "units": "pixels",
                "rooms": [
                    {"name": "a", "rect": [40, 100, 60, 100], "doors": [[40, 150]]},
                    {"name": "b", "units": "fraction", "rect": [0.5, 0.1, 0.2, 0.2],
                     "doors": [[0.6, 0.3]]},
                    {"name": "c", "units": "cells", "rect": [1, 1, 2, 2], "doors": [[1, 1, "N"]]},
                ],
            }
        )
    )  # fmt: skip
    # a 400 x 200 picture on a 40 x 20 grid: 10 pixels a cell
    specs = load_rooms(path, shape=(20, 40), picture_size=(400, 200))
    (a, a_doors), (b, b_doors), (c, c_doors) = specs
    assert _bounds(a) == (4, 10, 10, 20) and a_doors == [(4, 15, 1)]
    assert _bounds(b) == (10, 4, 14, 12) and b_doors == [(12, 11, 2)]
    assert _bounds(c) == (1, 1, 3, 3) and c_doors == [(1, 1, 1)]
    weights, rooms = stamp_rooms(np.zeros((20, 40), np.int32), path, picture_size=(400, 200))
    assert [r.name for r in rooms] == ["a", "b", "c"] and weights[4, 15] == DOOR + 1
    with pytest.raises(ValueError, match="given in pixels, but there is no picture"):
        stamp_rooms(np.zeros((20, 40), np.int32), path)
    with pytest.raises(ValueError, match="needs the grid's shape"):
        load_rooms(path)


def test_pixels_are_the_pictures_own(tmp_path):
    # a picture far larger than its grid is read reduced; its rooms stay in its own pixels
    img = Image.new("L", (2400, 1800), 255)
    ImageDraw.Draw(img).rectangle((60, 60, 2340, 1740), fill=0)
    picture = tmp_path / "big.png"
    img.save(picture)
    room = {"units": "pixels", "rect": [600, 1200, 300, 600], "doors": [[600, 1500]]}
    made = make(picture, cells=40, rooms=[room], rng=1)
    assert made.picture is not None and made.picture.width < 2400
    [placed] = made.maze.rooms
    assert _bounds(placed) == (10, 20, 15, 30) and placed.doors == (Door.through(10, 25, 1),)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (  # two doors a fifth of a cell apart
            "units = 'fraction'\n[[rooms]]\nrect = [0.2, 0.2, 0.4, 0.4]\n"
            "doors = [[0.2, 0.30], [0.2, 0.31]]",
            "doors [0.2, 0.3] and [0.2, 0.31] fall on one cell (3, 6) of the 20 x 16 grid",
        ),
        (
            "units = 'fraction'\n[[rooms]]\nrect = [0.5, 0.5, 0.4, 0.6]\ndoors = [[0.5, 0.7]]",
            "reaches past the picture",
        ),
        (
            "units = 'fraction'\n[[rooms]]\nrect = [0.2, 0.2, 0.4, 1.5]\ndoors = [[0.2, 0.3]]",
            "rect in fraction must be a list of 4 numbers from 0 to 1",
        ),
        (
            "units = 'fraction'\n[[rooms]]\nrect = [0.2, 0.2, 0.4, 0.4]\ndoors = [[0.1, 0.3]]",
            "door [0.1, 0.3] is not on the room's rect",
        ),
        (
            "units = 'fraction'\n[[rooms]]\nrect = [0.2, 0.2, 0.4, 0.4]\ndoors = [[0.2, '1/2']]",
            "a door in fraction must be a list of 2 numbers from 0 to 1",
        ),
        (
            "units = 'fraction'\n[[rooms]]\nrect = [0.2, 0.2, 0.0, 0.4]\ndoors = [[0.2, 0.3]]",
            "height and width must be more than 0",
        ),
        (
            "units = 'fraction'\n[[rooms]]\nmask = ['##']\ndoors = [[0.2, 0.3]]",
            "a mask is drawn in cells; give a rect in fraction",
        ),
        ("units = 'fractions'\n[[rooms]]\nrect = [0, 0, 1, 1]", "units must be one of 'cells'"),
        ("[[rooms]]\nunits = 3\nrect = [0, 0, 1, 1]", "room 'room 1': units must be one of"),
        ("[[rooms]]\nrect = [0.2, 0.2, 0.4, 0.4]", 'units = "fraction" or "pixels" takes'),
        (
            "units = 'pixels'\n[[rooms]]\nrect = [100, 100, 150, 50]\ndoors = [[100, 120]]",
            "room 'room 1' lies outside the 400 x 200 picture",
        ),
        (
            "units = 'pixels'\n[[rooms]]\nrect = [100, 100, -5, 50]\ndoors = [[100, 120]]",
            "rect in pixels must be a list of 4 numbers from 0",
        ),
    ],
)
def test_bad_rooms_in_fractions_or_pixels_are_clear_errors(tmp_path, text, message):
    path = tmp_path / "rooms.toml"
    path.write_text(text)
    with pytest.raises(ValueError, match=re.escape(message)) as caught:
        stamp_rooms(np.zeros((16, 20), np.int32), path, picture_size=(400, 200))
    assert "\n" not in str(caught.value) and str(caught.value).startswith(str(path))


def test_a_grid_too_small_for_a_room_is_a_clear_error():
    # doors on facing walls need two rows, and the grid has one
    room = {"units": "fraction", "rect": [0, 0, 1, 0.5], "doors": [[0, 0.2], [1, 0.2]]}
    with pytest.raises(ValueError, match="room 'room 1' needs 2 rows, more than the grid's 1"):
        resolve_rooms(room, (1, 10))
    # with two rows or more it fits, a door on each wall
    [(placed, doors)] = resolve_rooms(room, (2, 10))
    assert len(placed.cells) == 10 and doors == [(0, 2, 1), (1, 2, 4)]


# ----------------------------------------------------------------------------- Python


def test_rooms_as_dicts_shaped_like_the_file():
    hall = {"name": "hall", "kind": "arena", "rect": [1, 1, 2, 3], "doors": [[1, 2]]}
    for rooms in (hall, [hall], {"rooms": [hall]}, (hall,)):
        weights, [room] = stamp_rooms(np.zeros((6, 8), np.int32), rooms)
        assert (room.name, room.kind, room.doors) == ("hall", "arena", (Door.through(1, 2, 1),))
        assert weights[1, 2] == DOOR + 1
    made = make("........\n" * 6, rooms=[hall, {**hall, "name": "b", "rect": [4, 4, 1, 2],
                                                "doors": [[4, 5, "E"]]}], rng=3)  # fmt: skip
    assert [r.name for r in made.maze.rooms] == ["hall", "b"]
    assert np.all(distances(made.maze, made.maze.entrance)[made.maze.mask] >= 0)
    # the same checks and messages as a rooms file
    with pytest.raises(ValueError, match="room 'hall': unknown key"):
        make("....\n....", rooms=[{**hall, "size": 3}])
    with pytest.raises(ValueError, match=re.escape("room 'hall': rect must be a list of 4")):
        stamp_rooms(np.zeros((6, 8), np.int32), {**hall, "rect": [1, 1]})


@pytest.mark.parametrize("rooms", [3, [3], ["hall"], [[1, 2, 3, 4]], b"rooms.toml"])
def test_rooms_of_a_wrong_type_are_type_errors(rooms):
    with pytest.raises(TypeError, match="rooms must be"):
        make("....\n....", rooms=rooms)


def test_room_rect():
    hall = Room.rect(1, 2, 3, 4, name="hall", kind="arena", doors=[(1, 3), (3, 5, "S")])
    assert len(hall.cells) == 12 and hall.cells[0] == (1, 2) and hall.cells[-1] == (3, 5)
    assert hall.doors == (Door.through(1, 3, 1), Door.through(3, 5, 4))
    maze = generate(np.zeros((6, 8), np.int32), rng=1, rooms=[hall])
    assert maze.rooms == (hall,)
    with pytest.raises(ValueError, match=r"door \(1, 2\) of room 'hall' could open N or W"):
        Room.rect(1, 2, 3, 4, name="hall", doors=[(1, 2)])
    with pytest.raises(ValueError, match="is not on its edge"):
        Room.rect(1, 2, 3, 4, doors=[(2, 3)])
    with pytest.raises(ValueError, match="opens into the room"):
        Room.rect(1, 2, 3, 4, doors=[(1, 3, "S")])
    with pytest.raises(ValueError, match="height must be an integer >= 1"):
        Room.rect(1, 2, 0, 4)
    with pytest.raises(TypeError, match="width must be an integer"):
        Room.rect(1, 2, 3, 4.0)


# ----------------------------------------------------------------------------- colour key


def _colour_level() -> Image.Image:
    """A 400 x 300 picture, 10 pixels a cell at 40 cells: a room with a door mark three
    cells wide over its top wall and one over its bottom-right corner, and a room with
    no mark."""
    img = Image.new("RGB", (400, 300), "white")
    draw = ImageDraw.Draw(img)
    draw.rectangle((20, 20, 380, 280), fill="black")  # the figure
    draw.rectangle((100, 100, 199, 179), fill=(255, 0, 0))  # cells (10..17, 10..19)
    draw.rectangle((130, 93, 159, 108), fill=(0, 0, 255))  # over columns 13..15, 8 px deep
    draw.rectangle((193, 173, 206, 186), fill=(0, 0, 255))  # over the bottom-right corner
    draw.rectangle((260, 200, 319, 239), fill=(255, 0, 0))
    return img


def test_one_blue_mark_is_one_door_and_never_a_notch():
    weights = weights_from_image(_colour_level(), cells=40, colour_rooms=True)
    big, small = sorted(rooms_from_weights(weights), key=lambda r: -len(r.cells))
    assert big.cells == tuple((r, c) for r in range(10, 18) for c in range(10, 20))
    # the wide mark's centre is over column 14; the corner mark's over the corner
    assert big.doors == (Door.through(10, 14, 1), Door.through(17, 19, 2))
    assert len(small.cells) == 6 * 4 and len(small.doors) == 1


def test_colour_rooms_through_the_command_line(tmp_path):
    picture = tmp_path / "level.png"
    _colour_level().save(picture)
    out = tmp_path / "level.json"
    res = run_cli(picture, "-o", out, "--colour-rooms", "--cells", "40", "-a", "hybrid")
    assert res.returncode == 0, res.stderr
    assert "2 rooms with 3 doors" in res.stderr
    maze = load_maze(out)
    assert sorted(len(r.cells) for r in maze.rooms) == [24, 80]
    assert np.all(distances(maze, maze.entrance)[maze.mask] >= 0)


def test_generate_takes_rooms_as_dicts():
    """From Python, generate() takes rooms in the rooms file's shape, as make() does."""
    import numpy as np

    from mazeart import Room, generate

    spec = {"name": "hall", "rect": [2, 3, 2, 3], "doors": [[2, 4]]}
    maze = generate(np.zeros((8, 10), np.int32), rooms=[spec], rng=1)
    same = generate(np.zeros((8, 10), np.int32), rooms=[Room.rect(2, 3, 2, 3, name="hall",
                    doors=[(2, 4)])], rng=1)  # fmt: skip
    assert maze == same and [r.name for r in maze.rooms] == ["hall"]
    with pytest.raises(TypeError):
        generate(np.zeros((8, 10), np.int32), rooms=[42], rng=1)
