"""Two saved mazes fixed in the repository, read by the package and by hand.

``tests/fixtures/maze-v2-square.json`` is this maze (3 rows, 4 columns; S the
entrance, E the exit, a loot tag on the bottom-right cell):

    #########
    #S  #   #
    ### # # #
    #   # #E#
    # ### ###
    #       #
    #########

``tests/fixtures/maze-v3-square.json`` the same maze in format 3 (cell ``(r, c)`` is
id ``4 r + c``), and ``tests/fixtures/maze-v3-hex.json`` a hex grid of 2 rows of 3
cells (ids in reading order, the second row shifted right) with five passages. The expected
values below are written from these pictures, not from the package: a field
written and read wrong the same way (a side's bit swapped in both the writer
and the reader) passes a save-and-load test, and fails here.
"""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

import jsonschema
import pytest

import mazeart
from mazeart.maze import E, N, S, W
from mazeart.mazefile import dumps

FIXTURES = Path(__file__).parent / "fixtures"

SQUARE_PASSAGES = {
    ((0, 0), (0, 1)), ((0, 2), (0, 3)), ((0, 1), (1, 1)), ((0, 2), (1, 2)), ((0, 3), (1, 3)),
    ((1, 0), (1, 1)), ((1, 0), (2, 0)), ((1, 2), (2, 2)), ((2, 0), (2, 1)), ((2, 1), (2, 2)),
    ((2, 2), (2, 3)),
}  # fmt: skip
HEX_PASSAGES = {(0, 1), (1, 2), (1, 4), (3, 4), (4, 5)}


def schema(version: int) -> dict:
    text = files("mazeart").joinpath("schema", f"maze-{version}.schema.json").read_text()
    return json.loads(text)


def read_square_by_hand(doc: dict) -> set:
    """Passages from the rows of hex digits (N=1, E=2, S=4, W=8), each seen from both sides."""
    seen = set()
    for r, row in enumerate(doc["grid"]):
        for c, digit in enumerate(row):
            bits = int(digit, 16)
            for bit, (dr, dc) in ((1, (-1, 0)), (2, (0, 1)), (4, (1, 0)), (8, (0, -1))):
                if bits & bit:
                    seen.add(tuple(sorted([(r, c), (r + dr, c + dc)])))
    return seen


@pytest.mark.parametrize(("name", "version"), [("maze-v2-square", 2), ("maze-v3-square", 3),
                                               ("maze-v3-hex", 3)])  # fmt: skip
def test_the_fixtures_follow_their_schema(name, version):
    doc = json.loads((FIXTURES / f"{name}.json").read_text())
    jsonschema.validate(doc, schema(version))


def test_the_square_fixture_reads_as_its_picture():
    doc = json.loads((FIXTURES / "maze-v2-square.json").read_text())
    assert read_square_by_hand(doc) == SQUARE_PASSAGES  # the file says what the picture does
    maze = mazeart.load_maze(FIXTURES / "maze-v2-square.json")
    assert maze.shape == (3, 4) and (maze.entrance, maze.exit) == ((0, 0), (1, 3))
    assert dict(maze.tags) == {(2, 3): "loot"}
    for r, c in [(r, c) for r in range(3) for c in range(4)]:
        for side, (dr, dc) in ((N, (-1, 0)), (E, (0, 1)), (S, (1, 0)), (W, (0, -1))):
            pair = tuple(sorted([(r, c), (r + dr, c + dc)]))
            assert maze.is_open((r, c), side) == (pair in SQUARE_PASSAGES), ((r, c), side)
    assert mazeart.solve(maze).tolist() == [[0, 0], [0, 1], [1, 1], [1, 0], [2, 0], [2, 1],
                                            [2, 2], [1, 2], [0, 2], [0, 3], [1, 3]]  # fmt: skip


def test_the_square_fixture_in_format_3_is_the_same_maze():
    doc = json.loads((FIXTURES / "maze-v3-square.json").read_text())
    by_hand = {tuple(sorted([divmod(a, 4), divmod(b, 4)])) for a, b in doc["passages"]}
    assert by_hand == SQUARE_PASSAGES  # the ids name the picture's cells
    maze = mazeart.load_maze(FIXTURES / "maze-v3-square.json")
    assert maze.grid.kind == "square" and maze.shape == (3, 4)  # the square grid's own cells
    assert (maze.entrance, maze.exit, dict(maze.tags)) == ((0, 0), (1, 3), {(2, 3): "loot"})
    assert maze == mazeart.load_maze(FIXTURES / "maze-v2-square.json")
    again = json.loads(dumps(mazeart.load_maze(FIXTURES / "maze-v2-square.json"), version=3))
    assert again == doc


def test_the_hex_fixture_reads_as_its_picture():
    maze = mazeart.load_maze(FIXTURES / "maze-v3-hex.json")
    assert (maze.grid.kind, maze.grid.n_cells) == ("hex", 6)
    assert {tuple(p) for p in maze.links().tolist()} == HEX_PASSAGES
    assert (maze.entrance, maze.exit, dict(maze.tags)) == (0, 5, {2: "loot"})
    assert mazeart.solve(maze).tolist() == [0, 1, 4, 5]


def test_the_wall_follower_walks_the_hex_fixture_by_hand():
    """Worked out on the picture: from 0 to 1, the left hand takes the sharpest left at
    each cell (the way back last), so 2's dead end, back to 1, then 4 and the exit 5; the
    right hand turns right at 1 into 4, at 4 right into 3's dead end, then on to 5."""
    from mazeart.solvers import wall_follower

    maze = mazeart.load_maze(FIXTURES / "maze-v3-hex.json")
    assert wall_follower(maze, hand="left")[1].tolist() == [0, 1, 2, 1, 4, 5]
    assert wall_follower(maze, hand="right")[1].tolist() == [0, 1, 4, 3, 4, 5]


@pytest.mark.parametrize("name", ["maze-v2-square", "maze-v3-hex"])
def test_writing_the_fixture_again_gives_the_same_fields(name):
    path = FIXTURES / f"{name}.json"
    assert json.loads(dumps(mazeart.load_maze(path))) == json.loads(path.read_text())
