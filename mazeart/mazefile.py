"""Saved mazes: one versioned JSON file that round-trips a :class:`~mazeart.maze.Maze` exactly.

The same file is the game-level export (``-o level.json``) and the input of
``mazeart solve``, ``mazeart info`` and every exporter. Its JSON Schema ships
in the package (:func:`schema`, ``mazeart/schema/maze-1.schema.json``).

Layout (version 1)::

    {
     "format": "mazeart-maze",
     "version": 1,
     "geometry": "cells",                 // or "blocks"
     "rows": 3, "cols": 4,
     "entrance": [0, 0], "exit": [2, 3],  // [row, col] or null
     "grid": [                            // one string per row, one character per cell
      "26a c",                            //   0-9 a-f: a maze cell; the hex digit is its open
      "5#.5",                             //            sides, N=1 E=2 S=4 W=8
      ...                                 //   '#': inside the region but not maze (a wall block)
     ],                                   //   '.': outside the region
     "rooms": [{"name": "hall", "kind": "arena",
                "cells": [[r, c], ...], "doors": [[r, c, "N"], ...]}],
     "tags": [[r, c, "loot"], ...],
     "meta": {"algorithm": "...", "seed": 7, ...}
    }

Writing is deterministic (fixed key order, rows and records one per line), so
save → load → save gives the same bytes. Loading checks everything a
:class:`Maze` checks (symmetric passages, rooms closed but for their doors,
ends and tags on maze cells) and names the first problem in one line.
"""

from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from mazeart._io import atomic_write, existing_file
from mazeart.maze import Maze

__all__ = [
    "FORMAT",
    "VERSION",
    "dumps",
    "is_maze_file",
    "load_maze",
    "loads",
    "save_maze",
    "schema",
]

FORMAT = "mazeart-maze"
"""Value of the ``"format"`` key that marks a saved maze."""

VERSION = 1
"""The format version this module writes (and the newest it reads)."""

_SIDE_LETTER = {1: "N", 2: "E", 4: "S", 8: "W"}
_LETTER_SIDE = {v: k for k, v in _SIDE_LETTER.items()}
_HEX = np.frombuffer(b"0123456789abcdef", dtype=np.uint8)
_KEYS = ("format", "version", "geometry", "rows", "cols", "entrance", "exit", "grid", "rooms",
         "tags", "meta")  # fmt: skip


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the saved-maze format.

    Returns
    -------
    dict
    """
    text = resources.files("mazeart").joinpath("schema/maze-1.schema.json").read_text("utf-8")
    return json.loads(text)


def _grid_rows(maze: Maze) -> list[str]:
    chars = np.full(maze.shape, ord("."), dtype=np.uint8)
    chars[maze.region] = ord("#")
    chars[maze.mask] = _HEX[maze.passages[maze.mask]]
    return [row.tobytes().decode("ascii") for row in chars]


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(", ", ": "), ensure_ascii=False, allow_nan=False)


def dumps(maze: Maze) -> str:
    """The saved-maze JSON text of ``maze``.

    Raises
    ------
    ValueError
        If ``maze.meta`` holds something JSON cannot store.
    """
    rooms = [
        {
            "name": room.name,
            "kind": room.kind,
            "cells": [list(cell) for cell in room.cells],
            "doors": [[d.row, d.col, _SIDE_LETTER[d.side]] for d in room.doors],
        }
        for room in maze.rooms
    ]
    tags = [[r, c, kind] for (r, c), kind in sorted(maze.tags.items())]
    try:
        meta = _compact(maze.meta)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"the maze's metadata cannot be saved as JSON: {exc}") from None
    end = lambda cell: None if cell is None else list(cell)  # noqa: E731
    head = {
        "format": FORMAT,
        "version": VERSION,
        "geometry": maze.geometry,
        "rows": maze.height,
        "cols": maze.width,
        "entrance": end(maze.entrance),
        "exit": end(maze.exit),
    }
    lines = ["{"]
    lines += [f" {json.dumps(k)}: {_compact(v)}," for k, v in head.items()]
    lines.append(' "grid": [')
    lines.append(",\n".join(f"  {json.dumps(row)}" for row in _grid_rows(maze)))
    lines.append(" ],")
    for key, items in (("rooms", rooms), ("tags", tags)):
        if items:
            lines.append(f' "{key}": [')
            lines.append(",\n".join(f"  {_compact(item)}" for item in items))
            lines.append(" ],")
        else:
            lines.append(f' "{key}": [],')
    lines.append(f' "meta": {meta}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def _cell(value: Any, what: str, *, null: bool = False) -> tuple[int, int] | None:
    if value is None and null:
        return None
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ValueError(f"{what} must be a [row, col] pair of integers, got {value!r}")
    return value[0], value[1]


def _rooms(items: Any) -> list:
    from mazeart.rooms import Door, Room

    if not isinstance(items, list):
        raise ValueError('"rooms" must be a list')
    out = []
    for i, item in enumerate(items):
        what = f"room {i + 1}"
        if not isinstance(item, dict) or set(item) - {"name", "kind", "cells", "doors"}:
            raise ValueError(f"{what} must have only the keys name, kind, cells, doors")
        name, kind = item.get("name", "room"), item.get("kind", "room")
        if not isinstance(name, str) or not isinstance(kind, str):
            raise ValueError(f"{what}: name and kind must be strings")
        cells = item.get("cells")
        if not isinstance(cells, list) or not cells:
            raise ValueError(f"{what}: cells must be a non-empty list of [row, col]")
        doors = item.get("doors")
        if not isinstance(doors, list):
            raise ValueError(f"{what}: doors must be a list of [row, col, side]")
        parsed_doors = []
        for d in doors:
            if not (isinstance(d, list) and len(d) == 3 and d[2] in _LETTER_SIDE):
                raise ValueError(f"{what}: a door must be [row, col, N|E|S|W], got {d!r}")
            r, c = _cell(d[:2], f"{what}: a door's cell")  # type: ignore[misc]
            parsed_doors.append(Door(r, c, _LETTER_SIDE[d[2]]))
        out.append(
            Room(
                cells=tuple(_cell(c, f"{what}: a cell") for c in cells),  # type: ignore[misc]
                doors=tuple(parsed_doors),
                name=name,
                kind=kind,
            )
        )
    return out


def loads(text: str | bytes) -> Maze:
    """Read a saved maze from its JSON text.

    Parameters
    ----------
    text : str or bytes

    Returns
    -------
    Maze

    Raises
    ------
    ValueError
        Naming the first problem: not JSON, not a saved maze, a newer version,
        a malformed field, or a maze the model rejects.
    """
    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"not valid JSON ({exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError(f'not a saved maze (no "format": "{FORMAT}")')
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ValueError(f"bad format version {version!r}")
    if version > VERSION:
        raise ValueError(
            f"saved by a newer mazeart (format version {version}; this one reads {VERSION})"
        )
    missing = [k for k in _KEYS if k not in doc]
    if missing:
        raise ValueError(f"the saved maze lacks {', '.join(repr(k) for k in missing)}")
    extra = sorted(set(doc) - set(_KEYS))
    if extra:
        raise ValueError(f"unknown key(s) in the saved maze: {', '.join(extra)}")
    rows, cols = doc["rows"], doc["cols"]
    for name, v in (("rows", rows), ("cols", cols)):
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            raise ValueError(f'"{name}" must be a positive integer, got {v!r}')
    grid = doc["grid"]
    if not isinstance(grid, list) or len(grid) != rows:
        raise ValueError(f'"grid" must be a list of {rows} row strings')
    raw = np.empty((rows, cols), dtype=np.uint8)
    for i, row in enumerate(grid):
        if not isinstance(row, str) or len(row) != cols or not row.isascii():
            raise ValueError(f"grid row {i} must be a string of {cols} characters")
        raw[i] = np.frombuffer(row.encode("ascii"), dtype=np.uint8)
    lut = np.full(256, 255, dtype=np.uint8)
    lut[_HEX] = np.arange(16, dtype=np.uint8)
    lut[ord("#")] = 16
    lut[ord(".")] = 17
    code = lut[raw]
    bad = np.argwhere(code == 255)
    if len(bad):
        r, c = bad[0]
        raise ValueError(
            f"grid row {r}, column {c}: {chr(raw[r, c])!r} is not a cell code (0-9 a-f # .)"
        )
    mask = code < 16
    region = code < 17
    passages = np.where(mask, code, 0).astype(np.uint8)
    geometry = doc["geometry"]
    if geometry not in ("cells", "blocks"):
        raise ValueError(f'"geometry" must be "cells" or "blocks", got {geometry!r}')
    if geometry == "cells" and np.any(region & ~mask):
        raise ValueError("a cells maze has no wall blocks ('#') in its grid")
    tags = doc["tags"]
    if not isinstance(tags, list):
        raise ValueError('"tags" must be a list of [row, col, kind]')
    tag_map: dict[tuple[int, int], str] = {}
    for t in tags:
        if not (isinstance(t, list) and len(t) == 3 and isinstance(t[2], str)):
            raise ValueError(f"a tag must be [row, col, kind], got {t!r}")
        cell = _cell(t[:2], "a tag's cell")
        if cell in tag_map:
            raise ValueError(f"two tags on cell {cell}")
        tag_map[cell] = t[2]  # type: ignore[index]
    meta = doc["meta"]
    if not isinstance(meta, dict):
        raise ValueError('"meta" must be an object')
    try:
        return Maze(
            mask,
            passages,
            geometry=geometry,
            region=region,
            entrance=_cell(doc["entrance"], '"entrance"', null=True),
            exit=_cell(doc["exit"], '"exit"', null=True),
            meta=meta,
            rooms=_rooms(doc["rooms"]),
            tags=tag_map,
        )
    except ValueError as exc:
        raise ValueError(f"not a valid maze: {exc}") from None


def save_maze(maze: Maze, path: str | os.PathLike[str]) -> Path:
    """Write ``maze`` to ``path`` as a saved maze (atomically).

    Returns
    -------
    pathlib.Path
    """
    text = dumps(maze)
    with atomic_write(path) as fh:
        fh.write(text.encode("utf-8"))
    return Path(path)


def load_maze(path: str | os.PathLike[str]) -> Maze:
    """Read a saved maze file.

    Raises
    ------
    ValueError
        ``"<path>: <problem>"`` for a missing, unreadable or invalid file.
    """
    p = existing_file(path, "a saved maze")
    try:
        return loads(p.read_bytes())
    except ValueError as exc:
        raise ValueError(f"{p}: {exc}") from None


def is_maze_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` looks like a saved maze (a ``.json`` file whose start names the format)."""
    p = Path(path)
    if p.suffix.lower() != ".json" or not p.is_file():
        return False
    with open(p, "rb") as fh:
        head = fh.read(256)
    return FORMAT.encode() in head


def write_json(maze: Maze, fh: Any, **options: Any) -> None:
    """Exporter entry: write the saved-maze JSON to a binary file object.

    Drawing options do not apply to a saved maze and are ignored.
    """
    fh.write(dumps(maze).encode("utf-8"))
