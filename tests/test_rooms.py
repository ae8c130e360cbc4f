"""Rooms: files, checks, the colour key, every algorithm around them, and the seed 002 hybrid."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from conftest import run_cli
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from mazeart import ALGORITHMS, generate, solve, weights_from_image
from mazeart.maze import DIRECTIONS
from mazeart.rooms import Door, Room, load_rooms, rooms_from_weights, stamp_rooms
from mazeart.shape import dead_ends, degrees
from mazeart.solve import distances
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
    assert rooms[0].doors == (Door(3, 6, 1), Door(5, 4, 8))
    assert len(rooms[1].cells) == 5
    assert weights[4, 5] == ROOM + 1 and weights[3, 6] == DOOR + 1 and weights[11, 14] == DOOR + 2
    # read back from the codes: the same cells and door cells; a corner door opens
    # through its first free side (N, E, S, W) unless a rooms file says otherwise
    back = rooms_from_weights(weights)
    assert [r.cells for r in back] == [r.cells for r in rooms]
    assert back[0].doors == (Door(3, 6, 1), Door(5, 4, 4))
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
                    assert Door(r, c, bit) in room.doors
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
    assert room.doors == (Door(1, 5, 1),)  # the first side that opens onto a free cell
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
