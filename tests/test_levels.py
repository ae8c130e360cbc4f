"""Game levels: the JSON level, Tiled maps (read by pytmx, fields checked by type), ASCII."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import presets, run_cli
from hypothesis import given
from hypothesis import strategies as st

from mazeart import Maze, generate, preset_from_text, save
from mazeart.export import to_ascii
from mazeart.mazefile import load_maze

LEVEL = """
..............
..............
...AAAa.......
...AAAA.......
..............
.......BBb....
.......BB.....
..............
"""


@pytest.fixture
def level_maze():
    return generate(preset_from_text(LEVEL), rng=3, place="loot=2,spawn=1,trap=1")


def test_json_level_is_the_saved_maze(tmp_path, level_maze):
    out = tmp_path / "level.json"
    save(level_maze, out)
    doc = json.loads(out.read_text())
    for key in ("rows", "cols", "grid", "rooms", "tags", "entrance", "exit", "meta"):
        assert key in doc
    assert doc["meta"]["seed"] == 3 and doc["meta"]["algorithm"] == "weighted-dfs"
    assert load_maze(out) == level_maze


# ----------------------------------------------------------------------------- Tiled

# Field types of the Tiled JSON map format (doc.mapeditor.org, "JSON Map Format").
MAP_FIELDS = {
    "type": str, "version": str, "tiledversion": str, "orientation": str, "renderorder": str,
    "width": int, "height": int, "tilewidth": int, "tileheight": int, "infinite": bool,
    "nextlayerid": int, "nextobjectid": int, "layers": list, "tilesets": list,
    "properties": list, "compressionlevel": int,
}  # fmt: skip
TILESET_FIELDS = {
    "firstgid": int, "name": str, "tilewidth": int, "tileheight": int, "tilecount": int,
    "columns": int, "image": str, "imagewidth": int, "imageheight": int, "margin": int,
    "spacing": int, "tiles": list,
}  # fmt: skip
TILE_LAYER_FIELDS = {
    "id": int, "name": str, "type": str, "width": int, "height": int, "x": int, "y": int,
    "opacity": (int, float), "visible": bool, "data": list,
}  # fmt: skip
OBJECT_FIELDS = {
    "id": int, "name": str, "type": str, "x": (int, float), "y": (int, float),
    "width": (int, float), "height": (int, float), "rotation": (int, float), "visible": bool,
    "properties": list,
}  # fmt: skip
PROPERTY_TYPES = {"string": str, "int": int, "float": float, "bool": bool}


def check_fields(obj: dict, fields: dict, where: str) -> None:
    for key, kind in fields.items():
        assert key in obj, f"{where} lacks {key}"
        assert isinstance(obj[key], kind), f"{where}.{key} is {type(obj[key]).__name__}"
    for prop in obj.get("properties", []):
        assert set(prop) == {"name", "type", "value"}
        assert isinstance(prop["value"], PROPERTY_TYPES[prop["type"]]), prop


def raster_from_tiles(gids: np.ndarray) -> np.ndarray:
    return gids == 2  # floor


@pytest.mark.parametrize("geometry", ["cells", "blocks"])
def test_tmj_follows_the_format_reference(tmp_path, geometry):
    weights = preset_from_text(LEVEL.replace("A", ".").replace("a", ".").replace("B", ".")
                               .replace("b", "."))  # fmt: skip
    maze = generate(weights, rng=5, geometry=geometry)
    out = tmp_path / "level.tmj"
    save(maze, out)
    doc = json.loads(out.read_text())
    check_fields(doc, MAP_FIELDS, "map")
    assert doc["type"] == "map" and doc["orientation"] == "orthogonal"
    (tileset,) = doc["tilesets"]
    check_fields(tileset, TILESET_FIELDS, "tileset")
    assert (tmp_path / tileset["image"]).is_file()  # the tileset image sits beside the map
    tiles, objects = doc["layers"]
    check_fields(tiles, TILE_LAYER_FIELDS, "tile layer")
    assert tiles["type"] == "tilelayer" and objects["type"] == "objectgroup"
    assert len(tiles["data"]) == doc["width"] * doc["height"]
    assert all(isinstance(g, int) and 0 <= g <= tileset["tilecount"] for g in tiles["data"])
    ids = [o["id"] for o in objects["objects"]]
    assert len(set(ids)) == len(ids) and doc["nextobjectid"] > max(ids)
    for o in objects["objects"]:
        check_fields(o, OBJECT_FIELDS, f"object {o['id']}")
    gids = np.array(tiles["data"]).reshape(doc["height"], doc["width"])
    if geometry == "cells":
        back = Maze.from_raster(raster_from_tiles(gids))
        assert np.array_equal(back.passages, maze.passages)
    else:
        assert np.array_equal(gids[1:-1, 1:-1] == 2, maze.mask | _doors(maze)[1:-1, 1:-1])


def _doors(maze):
    blocks = maze.blocks() == 2
    return blocks & ~np.pad(maze.mask, 1)


def test_tmx_loads_in_pytmx(tmp_path, level_maze):
    pytmx = pytest.importorskip("pytmx")
    out = tmp_path / "level.tmx"
    save(level_maze, out)
    tm = pytmx.TiledMap(str(out))
    assert (tm.width, tm.height) == (2 * level_maze.width + 1, 2 * level_maze.height + 1)
    assert [layer.name for layer in tm.layers] == ["maze", "objects"]
    gids = np.array([[tm.get_tile_gid(x, y, 0) for x in range(tm.width)] for y in range(tm.height)])
    floor = {
        g for g in np.unique(gids) if g and tm.get_tile_properties_by_gid(g)["type"] == "floor"
    }
    back = Maze.from_raster(np.isin(gids, list(floor)))
    assert np.array_equal(back.passages, level_maze.passages)
    objects = list(tm.objects)
    kinds = sorted(o.type for o in objects)
    tags = sorted(level_maze.tags.values())
    doors = sum(len(r.doors) for r in level_maze.rooms)
    assert kinds.count("door") == doors
    assert sorted(k for k in kinds if k in tags) == tags
    assert {"entrance", "exit", "room"} <= set(kinds)
    ts = tm.tilewidth
    for o in objects:  # each object sits on the raster position of its maze cell
        r, c = o.properties["row"], o.properties["col"]
        if o.type in ("entrance", "exit", *tags):
            assert (o.x, o.y) == ((2 * c + 1) * ts, (2 * r + 1) * ts)
            if o.type in tags:
                assert level_maze.tags[(r, c)] == o.type
    entrance = next(o for o in objects if o.type == "entrance")
    assert (entrance.properties["row"], entrance.properties["col"]) == level_maze.entrance


# ----------------------------------------------------------------------------- ASCII


@given(weights=presets(max_side=9), seed=st.integers(0, 2**32 - 1))
def test_ascii_marks_walls_ends_and_tags(weights, seed):
    try:
        maze = generate(weights, rng=seed, place="loot=1")
    except ValueError:  # too small to hold a tag besides its ends
        maze = generate(weights, rng=seed)
    text = to_ascii(maze)
    lines = text.splitlines()
    grid = np.array([list(ln.ljust(2 * maze.width + 1)) for ln in lines])
    assert grid.shape == (2 * maze.height + 1, 2 * maze.width + 1)
    r, c = maze.entrance
    assert grid[2 * r + 1, 2 * c + 1] in "SX"
    r, c = maze.exit
    assert grid[2 * r + 1, 2 * c + 1] in "EX"
    for (r, c), kind in maze.tags.items():
        assert grid[2 * r + 1, 2 * c + 1] == kind[0]
    # wall characters stand exactly where the raster is closed and next to the maze
    raster = maze.raster()
    assert not np.any((grid == "#") & raster)


def test_ascii_of_a_rectangle_reads_back():
    maze = generate(np.zeros((7, 11), np.int32), rng=4, algorithm="kruskal")
    back = Maze.from_text(to_ascii(maze, doors=False))
    assert np.array_equal(back.passages, maze.passages)
    assert (back.entrance, back.exit) == (maze.entrance, maze.exit)


def test_ascii_through_the_cli(tmp_path):
    out = tmp_path / "maze.txt"
    res = run_cli(tmp_path / "x.npy", "--ascii")  # no such file: a clear error
    assert res.returncode == 2
    np.save(tmp_path / "x.npy", np.zeros((5, 8), np.int32))
    res = run_cli(tmp_path / "x.npy", "--ascii", "--seed", "2", "-q")
    assert res.returncode == 0, res.stderr
    assert res.stdout.count("\n") == 11 and "S" in res.stdout and "E" in res.stdout
    res = run_cli(tmp_path / "x.npy", "-o", out, "--seed", "2", "-q")
    assert res.returncode == 0, res.stderr
    assert out.read_text() == run_cli(tmp_path / "x.npy", "--ascii", "--seed", "2", "-q").stdout
    res = run_cli(tmp_path / "x.npy")
    assert res.returncode == 2 and "-o FILE" in res.stderr


@pytest.mark.parametrize("suffix", ["tmx", "tmj"])
def test_a_hex_maze_is_a_hexagonal_tiled_map(tmp_path, suffix):
    """pytmx reads the map (the TMX; the TMJ by json); every cell's tile opens exactly the
    sides towards the neighbours the saved maze joins it to, the sides told by the
    direction between the saved cells' centres, and the doors of the two ends."""
    import math

    import mazeart

    made = mazeart.make("9x7", grid="hex", rng=4, place="loot=2")
    maze = made.maze
    out = save(made, tmp_path / f"level.{suffix}")
    doc = json.loads(mazeart.mazefile.dumps(maze))
    centres = np.array(doc["centres"])
    rows, cols = doc["grid"]["params"]["rows"], doc["grid"]["params"]["cols"]
    # the map's layout is the saved one: rows of `cols` cells, odd rows half a cell right
    assert centres[cols, 0] - centres[0, 0] == pytest.approx(0.5)
    assert centres[cols, 1] > centres[0, 1] and centres[1, 1] == pytest.approx(centres[0, 1])
    if suffix == "tmx":
        pytmx = pytest.importorskip("pytmx")
        tm = pytmx.TiledMap(str(out))
        assert (tm.orientation, tm.staggeraxis, tm.staggerindex) == ("hexagonal", "y", "odd")
        assert (tm.width, tm.height) == (cols, rows)

        def opened(cell: int) -> set[str]:
            gid = tm.get_tile_gid(cell % cols, cell // cols, 0)
            return set(filter(None, tm.get_tile_properties_by_gid(gid)["open"].split(",")))

        objects = [(o.type, o.properties["cell"]) for o in tm.objects]
    else:
        tmj = json.loads(out.read_text())
        assert (tmj["orientation"], tmj["staggeraxis"], tmj["staggerindex"]) == (
            "hexagonal",
            "y",
            "odd",
        )
        names = {t["id"]: t["properties"][0]["value"] for t in tmj["tilesets"][0]["tiles"]}
        data = tmj["layers"][0]["data"]

        def opened(cell: int) -> set[str]:
            return set(filter(None, names[data[cell] - 1].split(",")))

        objects = [
            (o["type"], {p["name"]: p["value"] for p in o["properties"]}["cell"])
            for o in tmj["layers"][1]["objects"]
        ]

    def side(a: int, b: int) -> str:
        dx, dy = centres[b] - centres[a]
        angle = math.degrees(math.atan2(dy, dx)) % 360  # y down: clockwise from east
        return {0: "E", 60: "SE", 120: "SW", 180: "W", 240: "NW", 300: "NE"}[round(angle) % 360]

    ways = {c: set() for c in doc["cells"]}
    for a, b in doc["passages"]:
        ways[a].add(side(a, b))
        ways[b].add(side(b, a))
    for cell, expected in ways.items():
        got = opened(cell)
        extra = got - expected
        assert expected <= got, (cell, expected, got)
        assert not extra or (cell in (doc["entrance"], doc["exit"]) and len(extra) == 1)
    assert sorted(objects) == sorted(
        [("entrance", doc["entrance"]), ("exit", doc["exit"])]
        + [(kind, cell) for cell, kind in doc["tags"]]
    )


def test_grids_without_a_tiled_kind_refuse_in_one_line(tmp_path):
    run = run_cli("10x8", "--grid", "polar", "-o", str(tmp_path / "m.tmj"), cwd=tmp_path)
    assert run.returncode == 2 and "no Tiled map kind" in run.stderr
    assert len(run.stderr.splitlines()) == 1 and not list(tmp_path.iterdir())
