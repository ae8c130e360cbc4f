"""Every loader, fed mutated copies of valid files: it returns a valid object or raises the
package's own one-line error, and nothing else (no KeyError, RecursionError, OverflowError,
MemoryError, TypeError from deep inside).

The mutations work at two levels: a value anywhere in the parsed document replaced by an
arbitrary JSON value (huge numbers, deep nesting, control characters, wrong types), and the
raw bytes flipped, cut or spliced.
"""

from __future__ import annotations

import io
import json
import tomllib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mazeart import MazeartError, make, preset_from_text
from mazeart.mazefile import dumps, loads
from mazeart.play.game import load_best_times
from mazeart.rooms import load_rooms, stamp_rooms
from mazeart.weights import load_preset, save_preset

SAVED = dumps(make("......\n.#..#.\n......\n..12..", rng=4, place="loot=1", rooms=None).maze)
ROOMS = {
    "rooms": [
        {"name": "hall", "kind": "arena", "rect": [1, 1, 2, 3], "doors": [[1, 2], [2, 1, "W"]]},
        {"origin": [5, 5], "mask": ["##.", "###"], "doors": [[6, 7]]},
    ]
}
GRID = np.zeros((10, 10), dtype=np.int32)

texts = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12
) | st.sampled_from(["\x1b[2J", "\x00", "a\nb", "N", "loot", "#", ".", "0f"])
numbers = st.integers(-(2**70), 2**70) | st.floats(allow_nan=False, allow_infinity=False)
json_values = st.recursive(
    st.none() | st.booleans() | numbers | texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=20,
)


def _paths(doc, prefix=()):
    """Every place in a parsed document: (path of keys and indexes)."""
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, (*prefix, i))


@st.composite
def mutated_docs(draw, doc):
    """``doc`` with one to three values replaced (or the document nested very deep)."""
    doc = json.loads(json.dumps(doc))
    if draw(st.integers(0, 19)) == 0:
        depth = draw(st.sampled_from([50, 900, 5000, 100_000]))
        return "[" * depth + "]" * depth
    for _ in range(draw(st.integers(1, 3))):
        places = [p for p in _paths(doc) if p]
        if not places:
            break
        path = draw(st.sampled_from(places))
        target = doc
        for key in path[:-1]:
            target = target[key]
        if draw(st.booleans()) and isinstance(target, dict):
            del target[path[-1]]
        else:
            target[path[-1]] = draw(json_values)
    return json.dumps(doc)


@st.composite
def mutated_bytes(draw, data: bytes):
    """``data`` with bytes flipped, cut or spliced."""
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, max(0, len(out) - 1)))
        how = draw(st.sampled_from(["flip", "cut", "insert", "truncate"]))
        if how == "flip" and out:
            out[at] ^= 1 << draw(st.integers(0, 7))
        elif how == "cut":
            del out[at : at + draw(st.integers(1, 16))]
        elif how == "insert":
            out[at:at] = draw(st.binary(min_size=1, max_size=8))
        else:
            del out[at:]
    return bytes(out)


def _saved_maze_holds(text: str | bytes) -> None:
    try:
        maze = loads(text)
    except MazeartError as exc:
        assert "\n" not in str(exc)
        return
    assert loads(dumps(maze)) == maze  # whatever loads, saves and loads the same


@given(mutated_docs(json.loads(SAVED)))
def test_saved_maze_values(text):
    _saved_maze_holds(text)


@given(mutated_bytes(SAVED.encode()))
def test_saved_maze_bytes(data):
    _saved_maze_holds(data)


def _rooms_hold(path: Path) -> None:
    try:
        specs = load_rooms(path)
        stamp_rooms(GRID, specs)
    except MazeartError as exc:
        assert "\n" not in str(exc)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """One folder for a test's examples: each example rewrites the one file it reads."""
    return tmp_path_factory.mktemp("fuzz")


@given(mutated_docs(ROOMS))
def test_rooms_json_values(folder, text):
    path = folder / "rooms.json"
    path.write_text(text)
    _rooms_hold(path)


def _toml(doc) -> str:
    """A rooms document as TOML (arrays of inline tables; values as TOML literals)."""

    def value(v) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int | float):
            return repr(v)
        if isinstance(v, str):
            return json.dumps(v)
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{json.dumps(k)} = {value(x)}" for k, x in v.items()) + "}"
        return '""'  # TOML has no null

    return "\n".join(f"{json.dumps(k)} = {value(v)}" for k, v in doc.items()) + "\n"


@given(mutated_docs(ROOMS), st.booleans())
def test_rooms_toml_values(folder, text, raw):
    path = folder / "rooms.toml"
    try:
        doc = json.loads(text)
        path.write_text(_toml(doc) if isinstance(doc, dict) else text)
    except (RecursionError, ValueError):
        path.write_text(text)
    if raw:  # and as bytes mutated after the fact
        path.write_bytes(path.read_bytes()[::-1])
    _rooms_hold(path)


@given(mutated_bytes(b'[[rooms]]\nname = "a"\nrect = [1, 1, 2, 2]\ndoors = [[1, 1]]\n'))
def test_rooms_toml_bytes(folder, data):
    path = folder / "rooms.toml"
    path.write_bytes(data)
    try:
        tomllib.loads(data.decode("utf-8", "replace"))
    except (tomllib.TOMLDecodeError, RecursionError):
        pass
    _rooms_hold(path)


def _preset_bytes(suffix: str) -> bytes:
    buf = io.BytesIO()
    weights = preset_from_text("#....#\n.A.a..\n......\n..1...")
    if suffix == ".npy":
        np.save(buf, weights)
        return buf.getvalue()
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"p{suffix}"
        save_preset(weights, path)
        return path.read_bytes()


@pytest.mark.parametrize("suffix", [".npy", ".png", ".txt"])
@given(data=st.data())
def test_presets(folder, suffix, data):
    raw = data.draw(mutated_bytes(_preset_bytes(suffix)))
    path = folder / f"preset{suffix}"
    path.write_bytes(raw)
    try:
        weights = load_preset(path)
    except MazeartError as exc:
        assert "\n" not in str(exc)
        return
    assert weights.dtype == np.int32 and weights.ndim == 2


@given(mutated_docs({"cells 10x10": 12.5, "blocks 4x4": 3.0}))
def test_best_times(folder, text):
    path = folder / "best-times.json"
    path.write_text(text)
    times = load_best_times(path)
    assert all(isinstance(k, str) and 0 < v < 1e9 for k, v in times.items())
