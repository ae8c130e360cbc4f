"""Saved mazes: exact round trips, the shipped schema, and clear errors for bad files."""

from __future__ import annotations

import json

import jsonschema
import numpy as np
import pytest
from conftest import presets, run_cli
from hypothesis import given
from hypothesis import strategies as st

from mazeart import ALGORITHMS, generate, preset_from_text
from mazeart.mazefile import dumps, load_maze, loads, save_maze, schema

CASES = [(name, geo) for name, algo in ALGORITHMS.items() for geo in algo.geometries]
VALIDATOR = jsonschema.Draft202012Validator(schema())
"""The shipped schema's validator, made once (``jsonschema.validate`` checks the schema
itself at each call, which cost the property tests most of their time)."""

ROOMY = """
..............
..............
...AAAa.......
...AAAA.......
..............
.......BBb....
.......BBB....
..............
"""


def test_the_shipped_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(schema())


@pytest.mark.parametrize(("algorithm", "geometry"), CASES)
@given(weights=presets(max_side=10), seed=st.integers(0, 2**32 - 1))
def test_round_trip_is_exact(algorithm, geometry, weights, seed):
    maze = generate(weights, algorithm=algorithm, geometry=geometry, rng=seed)
    text = dumps(maze)
    back = loads(text)
    assert back == maze
    assert dumps(back) == text
    VALIDATOR.validate(json.loads(text))


@given(seed=st.integers(0, 2**32 - 1), braid=st.sampled_from([0.0, 0.5]))
def test_round_trip_with_rooms_and_tags(seed, braid):
    weights = preset_from_text(ROOMY)
    maze = generate(weights, rng=seed, place="loot=3,spawn=1", braid=braid)
    assert maze.rooms and maze.tags
    back = loads(dumps(maze))
    assert back == maze and back.rooms == maze.rooms and back.tags == maze.tags
    VALIDATOR.validate(json.loads(dumps(maze)))


def test_save_load_save_is_byte_identical(tmp_path):
    maze = generate(preset_from_text(ROOMY), rng=9, place="loot=2", algorithm="hybrid")
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    save_maze(maze, a)
    save_maze(load_maze(a), b)
    assert a.read_bytes() == b.read_bytes()
    # and through the command line, as a user would
    c = tmp_path / "c.json"
    assert run_cli(a, "-o", c, "-q").returncode == 0
    assert c.read_bytes() == a.read_bytes()


def _tamper(text: str, change) -> str:
    doc = json.loads(text)
    change(doc)
    return json.dumps(doc)


def _set_grid_char(doc, r, c, ch):
    row = doc["grid"][r]
    doc["grid"][r] = row[:c] + ch + row[c + 1 :]


TAMPERED = [
    ("truncated", lambda t: t[: len(t) // 2], "not valid JSON"),
    ("not a maze", lambda t: '{"hello": 1}', "not a saved maze"),
    ("a list", lambda t: "[1, 2]", "not a saved maze"),
    ("future", lambda t: _tamper(t, lambda d: d.update(version=4)), "newer mazeart"),
    ("square as grid", lambda t: _tamper(t, lambda d: d.update(version=3)), "lacks"),
    ("guide key", lambda t: _tamper(t, lambda d: d.update(guide={"ink": 1})), '"guide"'),
    (
        "tone off the grid",
        lambda t: _tamper(t, lambda d: d.update(guide={"tone": [[0.5]]})),
        "tone map",
    ),
    (
        "tone not finite",
        lambda t: _tamper(t, lambda d: d.update(guide={"tone": [[2.0]]})),
        "from 0 to 1",
    ),
    (
        "label code",
        lambda t: _tamper(t, lambda d: d.update(guide={"edge_labels": ["0#"]})),
        "edge_labels",
    ),
    ("no grid", lambda t: _tamper(t, lambda d: d.pop("grid")), "lacks 'grid'"),
    ("extra key", lambda t: _tamper(t, lambda d: d.update(colour=1)), "unknown key"),
    ("short row", lambda t: _tamper(t, lambda d: d["grid"].__setitem__(0, "0")), "grid row 0"),
    ("bad char", lambda t: _tamper(t, lambda d: _set_grid_char(d, 1, 1, "z")), "not a cell code"),
    (
        "one-sided passage",
        lambda t: _tamper(t, lambda d: _set_grid_char(d, 0, 0, "f")),
        "not a valid maze",
    ),
    ("exit off", lambda t: _tamper(t, lambda d: d.update(exit=[99, 0])), "not a maze cell"),
    ("bad rows", lambda t: _tamper(t, lambda d: d.update(rows=-1)), "positive integer"),
    (
        "tag on a wall",
        lambda t: _tamper(
            t, lambda d: d["tags"].append([0, 0, "loot"]) or _set_grid_char(d, 0, 0, ".")
        ),
        "not a valid maze",
    ),
    (
        "room opened",
        lambda t: _tamper(t, lambda d: d["rooms"][0]["doors"].clear()),
        "opening that is no door",
    ),
]


@pytest.mark.parametrize(("name", "change", "message"), TAMPERED, ids=[t[0] for t in TAMPERED])
def test_bad_files_give_clear_errors(tmp_path, name, change, message):
    maze = generate(preset_from_text(ROOMY), rng=4, place="loot=1")
    bad = tmp_path / "bad.json"
    bad.write_text(change(dumps(maze)))
    with pytest.raises(ValueError, match=message):
        load_maze(bad)


def test_bad_file_through_the_cli(tmp_path):
    maze = generate(np.zeros((5, 6), np.int32), rng=1)
    bad = tmp_path / "maze.json"
    bad.write_text(_tamper(dumps(maze), lambda d: _set_grid_char(d, 2, 2, "f")))
    out = tmp_path / "out.svg"
    out.write_text("keep me")
    for cmd in (["solve", bad, "-o", out], ["info", bad], [bad, "-o", out]):
        res = run_cli(*cmd)
        assert res.returncode == 2, res.stderr
        assert res.stderr.count("\n") == 1 and "not a valid maze" in res.stderr
        assert "Traceback" not in res.stderr
    assert out.read_text() == "keep me"


def test_version_1_files_still_load():
    """Version 1 kept the picture's data in meta (hex labels, lists); it loads into the guide."""
    from mazeart import Guide

    maze = generate(np.zeros((3, 4), np.int32), rng=2)
    guide = Guide(
        outline=[[[0.5, 0.5], [3.5, 0.5], [3.5, 2.5]]],
        edge_labels=[[0, 0, 1, 1], [0, 0, 1, 1], [0, 10, 1, 1]],
        edge_curves=[[[2.0, 0.0], [2.0, 3.0]]],
    )
    maze = maze.replace(guide=guide)
    doc = json.loads(dumps(maze))
    assert doc["version"] == 2
    v1 = {k: v for k, v in doc.items() if k != "guide"}
    v1["version"] = 1
    v1["meta"] = {
        **doc["meta"],
        "outline": doc["guide"]["outline"],
        "edges": {"labels": ["0011", "0011", "0a11"], "curves": doc["guide"]["edge_curves"]},
    }
    back = loads(json.dumps(v1))
    assert back == maze
    assert back.guide.edge_labels[2, 1] == 10
    assert "outline" not in back.meta and "edges" not in back.meta
