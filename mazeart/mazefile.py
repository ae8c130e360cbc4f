"""Saved mazes: one versioned JSON file that round-trips a :class:`~mazeart.maze.Maze` exactly.

The same file is the game-level export (``-o level.json``) and the input of
``mazeart solve``, ``mazeart info`` and every exporter. Its JSON Schema ships
in the package (:func:`schema`, ``mazeart/schema/maze-2.schema.json``).

Layout (version 2)::

    {
     "format": "mazeart-maze",
     "version": 2,
     "geometry": "cells",                 // or "blocks"
     "rows": 3, "cols": 4,
     "entrance": [0, 0], "exit": [2, 3],  // [row, col] or null
     "grid": [                            // one string per row, one character per cell
      "26a c",                            //   0-9 a-f: a maze cell; the hex digit is its open
      "5#.5",                             //            sides, N=1 E=2 S=4 W=8
      ...                                 //   '#': inside the region but not maze (a wall
      ...                                 //        block; a pruned cell of a cells maze)
     ],                                   //   '.': outside the region
     "rooms": [{"name": "hall", "kind": "arena",
                "cells": [[r, c], ...], "doors": [[r, c, "N"], ...]}],
     "tags": [[r, c, "loot"], ...],
     "guide": {                           // what a picture adds to the drawing, each key
      "outline": [[[x, y], ...], ...],    //   optional: smooth outline rings (cell units),
      "edge_labels": ["0011", ...],       //   colour region per cell (0-9 a-z),
      "edge_curves": [[[x, y], ...], ...],//   region boundaries,
      "tone": [[0.25, ...], ...]          //   darkness per cell
     },
     "meta": {"algorithm": "...", "seed": 7, ...}
    }

Version 1 files (the picture's data inside ``meta``) are read as well.

Writing is deterministic (fixed key order, rows and records one per line), so
save → load → save gives the same bytes. Loading checks everything a
:class:`Maze` checks (symmetric passages, rooms closed but for their doors,
ends and tags on maze cells) and names the first problem in one line.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from mazeart._graph import SIDE_BIT, SIDE_LETTER
from mazeart._io import atomic_write, check_text, load_json, read_bytes
from mazeart._limits import check_cells, current
from mazeart.errors import FileFormatError, InvalidMazeError, MazeartError
from mazeart.maze import Guide, Maze, check_maze, thaw

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

VERSION = 2
"""The format version of a square maze (:class:`~mazeart.maze.Maze`)."""
NEWEST = 3
"""The newest version read and the one a maze on another grid is written in (:func:`grid_dumps`)."""

_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"

_HEX = np.frombuffer(b"0123456789abcdef", dtype=np.uint8)
_KEYS = ("format", "version", "geometry", "rows", "cols", "entrance", "exit", "grid", "rooms",
         "tags", "guide", "meta")  # fmt: skip
_GUIDE_KEYS = ("outline", "edge_labels", "edge_curves", "tone")


SAVED_BYTES_PER_CELL = 28
"""Bytes a saved maze may take per cell ``max_cells`` allows (56 MB at the defaults): the
largest grid of each kind saves in at most 50 MB (a triangle grid of 1,000,000 cells; a
square one of 2,000,000 in 2 MB), and what a file that size parses to stays under 1 GiB."""


def schema(version: int = 2) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the saved-maze format.

    Parameters
    ----------
    version : {2, 3}, default 2
        2 for a square maze, 3 for a maze on another grid (:func:`grid_dumps`).

    Returns
    -------
    dict
    """
    if version not in (2, 3):
        raise MazeartError(f"the saved-maze format has schemas for versions 2 and 3, not {version}")
    name = f"schema/maze-{version}.schema.json"
    return json.loads(resources.files("mazeart").joinpath(name).read_text("utf-8"))


def _grid_rows(maze: Maze) -> list[str]:
    chars = np.full(maze.shape, ord("."), dtype=np.uint8)
    chars[maze.region] = ord("#")
    chars[maze.mask] = _HEX[maze.passages[maze.mask]]
    return [row.tobytes().decode("ascii") for row in chars]


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(", ", ": "), ensure_ascii=False, allow_nan=False)


def dumps(maze: Maze, *, version: int | None = None) -> str:
    """The saved-maze JSON text of ``maze``.

    Parameters
    ----------
    maze : Maze
    version : {None, 2, 3}
        Format 3 (:func:`grid_dumps`) holds a maze on any grid; format 2 the square
        grid's everything (block geometry, rooms, a picture's guidance) compactly, one
        character a cell. By default 2 on the square grid and 3 on another.

    Raises
    ------
    ValueError
        If ``maze.meta`` holds something JSON cannot store, or the format cannot hold
        the maze.
    """

    check_maze(maze)
    if version not in (None, 2, 3):
        raise MazeartError(f"the saved-maze format is 2 or 3, not {version!r}")
    if version == 3 or not maze.is_square:
        if version == 2:
            raise MazeartError(f"format 2 holds square mazes; this one is on the "
                               f"{maze.grid.kind} grid")  # fmt: skip
        return grid_dumps(maze)
    rooms = [
        {
            "name": room.name,
            "kind": room.kind,
            "cells": [list(cell) for cell in room.cells],
            "doors": [[d.row, d.col, SIDE_LETTER[d.side]] for d in room.doors],
        }
        for room in maze.rooms
    ]
    tags = [[r, c, kind] for (r, c), kind in sorted(maze.tags.items())]
    try:
        meta = _compact(thaw(maze.meta))
    except (TypeError, ValueError) as exc:
        raise FileFormatError(f"the maze's metadata cannot be saved as JSON: {exc}") from None
    end = lambda cell: None if cell is None else list(cell)  # noqa: E731
    head = {
        "geometry": maze.geometry,
        "rows": maze.height,
        "cols": maze.width,
        "entrance": end(maze.entrance),
        "exit": end(maze.exit),
    }
    lines = document_lines(head, _grid_rows(maze), rooms, tags, _guide_doc(maze.guide), meta)
    return "\n".join(lines) + "\n"


def document_lines(
    head: dict[str, Any],
    grid: Iterable[str],
    rooms: list[dict[str, Any]],
    tags: list[list[Any]],
    guide: dict[str, Any],
    meta: str,
) -> Iterator[str]:
    """The lines of a version 2 saved maze, one grid row a line, as they are made.

    ``head`` holds the keys between ``version`` and ``grid``; ``meta`` is JSON
    text already. The grid rows may come from a generator, so a maze carved
    row by row (:func:`mazeart.stream.stream_json`) is written as it is carved.
    """
    yield "{"
    for k, v in {"format": FORMAT, "version": VERSION, **head}.items():
        yield f" {json.dumps(k)}: {_compact(v)},"
    yield ' "grid": ['
    previous = None
    for row in grid:  # each row but the last ends with a comma
        if previous is not None:
            yield f"  {json.dumps(previous)},"
        previous = row
    if previous is not None:
        yield f"  {json.dumps(previous)}"
    yield " ],"
    for key, items in (("rooms", rooms), ("tags", tags)):
        if items:
            yield f' "{key}": ['
            yield ",\n".join(f"  {_compact(item)}" for item in items)
            yield " ],"
        else:
            yield f' "{key}": [],'
    if guide:
        yield ' "guide": {'
        yield ",\n".join(f"  {json.dumps(k)}: {_compact(v)}" for k, v in guide.items())
        yield " },"
    else:
        yield ' "guide": {},'
    yield f' "meta": {meta}'
    yield "}"


def row_text(passages: NDArray[np.uint8]) -> str:
    """One grid row of a saved maze whose cells are all maze: the hex digit of each
    cell's open sides."""
    return _HEX[passages].tobytes().decode("ascii")


def _guide_doc(guide: Guide) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    if guide.outline:
        doc["outline"] = [ring.tolist() for ring in guide.outline]
    if guide.edge_labels is not None:
        doc["edge_labels"] = ["".join(_BASE36[v] for v in row) for row in guide.edge_labels]
    if guide.edge_curves:
        doc["edge_curves"] = [curve.tolist() for curve in guide.edge_curves]
    if guide.tone is not None:
        doc["tone"] = guide.tone.tolist()
    return doc


def _guide(doc: Any) -> Guide:
    if not isinstance(doc, dict) or set(doc) - set(_GUIDE_KEYS):
        raise FileFormatError(f'"guide" must be an object with keys from {", ".join(_GUIDE_KEYS)}')
    labels = doc.get("edge_labels")
    if labels is not None:
        if not isinstance(labels, list) or not all(
            isinstance(row, str) and row and set(row) <= set(_BASE36) for row in labels
        ):
            raise FileFormatError('"edge_labels" must be rows of region codes 0-9 a-z')
        if len({len(row) for row in labels}) != 1:
            raise FileFormatError('"edge_labels" rows must be of one length')
        labels = [[_BASE36.index(ch) for ch in row] for row in labels]
    try:
        return Guide(
            outline=doc.get("outline") or (),
            edge_labels=None if labels is None else np.asarray(labels),
            edge_curves=doc.get("edge_curves") or (),
            tone=doc.get("tone"),
        )
    except (TypeError, ValueError) as exc:
        raise FileFormatError(f'"guide": {exc}') from None


def _v1_guide(meta: dict[str, Any]) -> dict[str, Any]:
    """Version 1 kept the picture's data in ``meta``: the version 2 ``guide`` of it."""
    doc: dict[str, Any] = {}
    if meta.get("outline"):
        doc["outline"] = meta.pop("outline")
    edges = meta.pop("edges", None)
    if isinstance(edges, dict):
        doc["edge_labels"] = edges.get("labels")
        doc["edge_curves"] = edges.get("curves")
    if meta.get("tone") is not None:
        doc["tone"] = meta.pop("tone")
    meta.pop("outline", None)
    return doc


def _cell(value: Any, what: str, *, null: bool = False) -> tuple[int, int] | None:
    if value is None and null:
        return None
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise FileFormatError(f"{what} must be a [row, col] pair of integers, got {value!r}")
    return value[0], value[1]


def _rooms(items: Any) -> list:
    from mazeart.rooms import Door, Room

    if not isinstance(items, list):
        raise FileFormatError('"rooms" must be a list')
    out = []
    for i, item in enumerate(items):
        what = f"room {i + 1}"
        if not isinstance(item, dict) or set(item) - {"name", "kind", "cells", "doors"}:
            raise FileFormatError(f"{what} must have only the keys name, kind, cells, doors")
        name, kind = item.get("name", "room"), item.get("kind", "room")
        if not isinstance(name, str) or not isinstance(kind, str):
            raise FileFormatError(f"{what}: name and kind must be strings")
        cells = item.get("cells")
        if not isinstance(cells, list) or not cells:
            raise FileFormatError(f"{what}: cells must be a non-empty list of [row, col]")
        doors = item.get("doors")
        if not isinstance(doors, list):
            raise FileFormatError(f"{what}: doors must be a list of [row, col, side]")
        parsed_doors = []
        for d in doors:
            if not (isinstance(d, list) and len(d) == 3 and d[2] in SIDE_BIT):
                raise FileFormatError(f"{what}: a door must be [row, col, N|E|S|W], got {d!r}")
            r, c = _cell(d[:2], f"{what}: a door's cell")  # type: ignore[misc]
            parsed_doors.append(Door.through(r, c, SIDE_BIT[d[2]]))
        out.append(
            Room(
                cells=tuple(_cell(c, f"{what}: a cell") for c in cells),  # type: ignore[misc]
                doors=tuple(parsed_doors),
                name=name,
                kind=kind,
            )
        )
    return out


_META_DEPTH = 32
"""How deep ``meta`` may nest (mazeart writes two levels)."""


def _meta(meta: Any) -> dict[str, Any]:
    """The ``meta`` object, checked: a seed that makes the maze again, text fit to print."""
    if not isinstance(meta, dict):
        raise FileFormatError('"meta" must be an object')
    seed = meta.get("seed")
    if seed is not None and (
        isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63
    ):
        raise FileFormatError(f'"meta": "seed" must be a whole number >= 0 or null, got {seed!r}')
    algorithm = meta.get("algorithm")
    if algorithm is not None:
        check_text(algorithm, '"meta": "algorithm"')
    todo: list[tuple[Any, int]] = [(meta, 1)]  # every text inside, without recursion
    while todo:
        item, depth = todo.pop()
        if depth > _META_DEPTH:
            raise FileFormatError(f'"meta" is nested more than {_META_DEPTH} deep')
        if isinstance(item, dict):
            for key, value in item.items():
                check_text(key, '"meta": a key')
                todo.append((value, depth + 1))
        elif isinstance(item, list):
            todo.extend((value, depth + 1) for value in item)
        elif isinstance(item, str):
            check_text(item, '"meta": a text')
    return meta


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
    doc = load_json(text)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise FileFormatError(f'not a saved maze (no "format": "{FORMAT}")')
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise FileFormatError(f"bad format version {version!r}")
    if version > NEWEST:
        raise FileFormatError(
            f"saved by a newer mazeart (format version {version}; this one reads {NEWEST})"
        )
    if version == 3:
        return grid_loads(doc)
    if version == 1:
        doc.setdefault("guide", _v1_guide(doc["meta"]) if isinstance(doc.get("meta"), dict) else {})
    missing = [k for k in _KEYS if k not in doc]
    if missing:
        raise FileFormatError(f"the saved maze lacks {', '.join(repr(k) for k in missing)}")
    extra = sorted(set(doc) - set(_KEYS))
    if extra:
        raise FileFormatError(f"unknown key(s) in the saved maze: {', '.join(map(repr, extra))}")
    rows, cols = doc["rows"], doc["cols"]
    for name, v in (("rows", rows), ("cols", cols)):
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            raise FileFormatError(f'"{name}" must be a positive integer, got {v!r}')
    grid = doc["grid"]
    if not isinstance(grid, list) or len(grid) != rows:
        raise FileFormatError(f'"grid" must be a list of {rows} row strings')
    check_cells(rows, cols, "the saved maze's grid")
    raw = np.empty((rows, cols), dtype=np.uint8)
    for i, row in enumerate(grid):
        if not isinstance(row, str) or len(row) != cols or not row.isascii():
            raise FileFormatError(f"grid row {i} must be a string of {cols} characters")
        raw[i] = np.frombuffer(row.encode("ascii"), dtype=np.uint8)
    lut = np.full(256, 255, dtype=np.uint8)
    lut[_HEX] = np.arange(16, dtype=np.uint8)
    lut[ord("#")] = 16
    lut[ord(".")] = 17
    code = lut[raw]
    bad = np.argwhere(code == 255)
    if len(bad):
        r, c = bad[0]
        raise FileFormatError(
            f"grid row {r}, column {c}: {chr(raw[r, c])!r} is not a cell code (0-9 a-f # .)"
        )
    mask = code < 16
    region = code < 17
    passages = np.where(mask, code, 0).astype(np.uint8)
    geometry = doc["geometry"]
    if geometry not in ("cells", "blocks"):
        raise FileFormatError(f'"geometry" must be "cells" or "blocks", got {geometry!r}')
    tags = doc["tags"]
    if not isinstance(tags, list):
        raise FileFormatError('"tags" must be a list of [row, col, kind]')
    tag_map: dict[tuple[int, int], str] = {}
    for t in tags:
        if not (isinstance(t, list) and len(t) == 3):
            raise FileFormatError(f"a tag must be [row, col, kind], got {t!r}")
        check_text(t[2], "a tag's kind")
        cell = _cell(t[:2], "a tag's cell")
        if cell in tag_map:
            raise FileFormatError(f"two tags on cell {cell}")
        tag_map[cell] = t[2]  # type: ignore[index]
    meta = _meta(doc["meta"])
    guide = _guide(doc["guide"])
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
            guide=guide,
        )
    except ValueError as exc:
        raise InvalidMazeError(f"not a valid maze: {exc}") from None


def save_maze(maze: Maze, path: str | os.PathLike[str]) -> Path:
    """Write ``maze`` to ``path`` as a saved maze (atomically).

    The file is the versioned JSON format of :func:`schema`; saving is
    deterministic, and :func:`load_maze` gives the same maze back.

    Parameters
    ----------
    maze : Maze
    path : str or path-like
        The ``.json`` file to write; a file already there is replaced only
        when the whole maze is written.

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from mazeart import generate, load_maze, preset_from_text
    >>> maze = generate(preset_from_text("....\\n....\\n...."), rng=5)
    >>> path = save_maze(maze, pathlib.Path(tempfile.mkdtemp()) / "maze.json")
    >>> load_maze(path) == maze
    True
    """
    text = dumps(maze)
    with atomic_write(path) as fh:
        fh.write(text.encode("utf-8"))
    return Path(path)


def load_maze(path: str | os.PathLike[str]) -> Maze:
    """Read a saved maze file.

    Parameters
    ----------
    path : str or path-like
        A file written by :func:`save_maze` (or ``mazeart ... -o maze.json``);
        format versions 1 to 3 load (3: a maze on another grid).

    Returns
    -------
    Maze

    Raises
    ------
    ValueError
        ``"<path>: <problem>"`` for a missing, unreadable or invalid file.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "bad.json").write_text('{"format": "mazeart-maze", "version": 9}')
    >>> load_maze(folder / "bad.json")
    Traceback (most recent call last):
    ...
    mazeart.errors.FileFormatError: ...bad.json: ...
    """
    # the grid is a byte a cell; a picture's guide adds up to a few dozen more
    data = read_bytes(path, "a saved maze", limit=SAVED_BYTES_PER_CELL * current().max_cells)
    try:
        return loads(data)
    except ValueError as exc:
        raise type(exc)(f"{Path(path)}: {exc}") from None


def is_maze_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` looks like a saved maze (a ``.json`` file whose start names the format)."""
    p = Path(path)
    try:
        if p.suffix.lower() != ".json" or not p.is_file():
            return False
        with open(p, "rb") as fh:
            head = fh.read(256)
    except OSError:
        return False  # unreadable: the reader that tries it says why
    return FORMAT.encode() in head


def write_json(maze: Maze, fh: Any, **options: Any) -> None:
    """Exporter entry: write the saved-maze JSON to a binary file object.

    Drawing options do not apply to a saved maze and are ignored.
    """
    fh.write(dumps(maze).encode("utf-8"))


# ----------------------------------------------------------------------------- other grids

_GRID_KEYS = ("format", "version", "grid", "n_cells", "centres", "cells", "passages", "entrance",
              "exit", "tags", "meta")  # fmt: skip


def grid_dumps(maze: Maze) -> str:
    """The saved-maze JSON text of a maze on any grid (format version 3), deterministic:
    save, load, save gives the same bytes.

    Layout::


        {
         "format": "mazeart-maze",
         "version": 3,
         "grid": {"kind": "hex", "params": {"rows": 10, "cols": 12}},
         "n_cells": 120,
         "centres": [[0.5, 0.577], ...],        # every grid cell's centre, by id
         "cells": [0, 1, 2, ...],               # the ids of the maze's cells
         "passages": [[0, 1], [1, 13], ...],    # open walls as pairs of cell ids, lower first
         "entrance": 4,
         "exit": 117,
         "tags": [[33, "loot"], [90, "spawn"]],
         "tone": [0.12, 0.8, ...],              # optional: darkness per grid cell (--tone)
         "regions": [0, 0, 1, ...],             # optional: colour region per cell (--edges)
         "outline": [[[x, y], ...], ...],       # optional: smooth outline rings (--outline)
         "meta": {"algorithm": "wilson", "seed": 7, ...}
        }

    ``"region"`` (optional, after ``"cells"``) lists the cells the preset allowed that
    are not maze (pruned dead ends). On the square grid a cell's id is ``row * cols + col``.

    Centres are in drawing units (``x`` across, ``y`` down); two cells joined by a
    passage are neighbours in the grid that ``kind`` and ``params`` name (see
    :mod:`mazeart.grids`). The JSON Schema is ``mazeart/schema/maze-3.schema.json``.
    Reading checks everything: the grid is rebuilt from its kind and parameters,
    its size against the cell limit before it is built, the centres against it, and
    every passage against its neighbour table.
    """
    g = maze.grid
    guide = maze.guide
    if maze.geometry != "cells" or guide.edge_curves:
        raise MazeartError("format 3 holds no block geometry or edge curves: save this maze "
                           "in format 2")  # fmt: skip
    tone = None if guide.tone is None else guide.tone.reshape(-1).tolist()
    rings = [np.round(r, 6).tolist() for r in guide.outline]
    labels = None if guide.edge_labels is None else guide.edge_labels.reshape(-1).tolist()
    try:
        meta = _compact(thaw(maze.meta))
    except (TypeError, ValueError) as exc:
        raise FileFormatError(f"the maze's metadata cannot be saved as JSON: {exc}") from None
    centres = np.round(g.centres, 6)
    mask, region = maze.mask.reshape(-1), maze.region.reshape(-1)

    def cell(c: Any) -> Any:
        return None if c is None else maze.cell_index(c)

    lines = [
        "{",
        f' "format": {json.dumps(FORMAT)},',
        f' "version": {NEWEST},',
        f' "grid": {_compact({"kind": g.kind, "params": dict(g.params)})},',
        f' "n_cells": {g.n_cells},',
        ' "centres": [',
        ",\n".join(f"  [{x!r}, {y!r}]" for x, y in centres.tolist()),
        " ],",
        f' "cells": {_compact(np.flatnonzero(mask).tolist())},',
        *(
            [f' "region": {_compact(np.flatnonzero(region & ~mask).tolist())},']
            if (region & ~mask).any()
            else []
        ),
        ' "passages": [',
        ",\n".join(f"  [{a}, {b}]" for a, b in sorted(maze.links().tolist())),
        " ],",
        f' "entrance": {_compact(cell(maze.entrance))},',
        f' "exit": {_compact(cell(maze.exit))},',
        f' "tags": {_compact(sorted([cell(c), k] for c, k in maze.tags.items()))},',
        *(
            [' "rooms": [', ",\n".join(f"  {_compact(room)}" for room in _room_docs(maze)), " ],"]
            if maze.rooms
            else []
        ),
        *([f' "tone": {_compact(tone)},'] if tone is not None else []),
        *([f' "regions": {_compact(labels)},'] if labels is not None else []),
        *(
            [' "outline": [', ",\n".join(f"  {_compact(r)}" for r in rings), " ],"]
            if guide.outline
            else []
        ),
        f' "meta": {meta}',
        "}",
    ]
    return "\n".join(lines) + "\n"


def _room_docs(maze: Maze) -> list[dict[str, Any]]:
    """Format 3's rooms: cells as ids, each door its cell and the cell it opens onto."""
    at = maze.cell_index
    return [
        {
            "name": room.name,
            "kind": room.kind,
            "cells": [at(c) for c in room.cells],
            "doors": [[at(d.cell), at(d.outside)] for d in room.doors],
        }
        for room in maze.rooms
    ]


def _id_rooms(items: Any, n: int, cols: int | None) -> list[Any]:
    """Format 3's rooms, checked as far as ids go (the maze checks the rest); on the square
    grid (``cols`` given) named ``(row, col)``."""
    from mazeart.rooms import Door, Room

    if not isinstance(items, list):
        raise FileFormatError('"rooms" must be a list')

    def cell(value: Any, what: str) -> Any:
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
            raise MazeartError(f"{what} must be a cell id in 0..{n - 1}, got {value!r}")
        return value if cols is None else divmod(value, cols)

    out = []
    for i, item in enumerate(items):
        what = f"room {i + 1}"
        if not isinstance(item, dict) or set(item) != {"name", "kind", "cells", "doors"}:
            raise FileFormatError(f"{what} must have the keys name, kind, cells and doors")
        cells, doors = item["cells"], item["doors"]
        if not isinstance(cells, list) or not cells:
            raise FileFormatError(f"{what}: cells must be a non-empty list of cell ids")
        if not isinstance(doors, list) or not all(
            isinstance(d, list) and len(d) == 2 for d in doors
        ):
            raise FileFormatError(f"{what}: doors must be a list of [cell, outside] pairs")
        try:
            out.append(Room(tuple(cell(c, "a cell") for c in cells),
                            tuple(Door(cell(a, "a door"), cell(b, "a door"))
                                  for a, b in doors),
                            name=item["name"], kind=item["kind"]))  # fmt: skip
        except (MazeartError, TypeError) as exc:
            raise FileFormatError(f"{what}: {exc}") from None
    return out


def _ints(value: Any, what: str) -> list[int]:
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise FileFormatError(f'"{what}" must be a list of integers')
    return value


def _id_array(values: Any, what: str, n: int) -> NDArray[np.int64]:
    """Cell ids of a saved file as an int64 array; an id beyond int64 is a one-line error."""
    try:
        return np.array(values, dtype=np.int64)
    except OverflowError:
        raise FileFormatError(f'"{what}" holds an id outside 0..{n - 1}') from None


def _passages(grid: Any, pairs: list[Any], n: int) -> NDArray[np.bool_]:
    """The open walls of ``grid`` that the saved ``passages`` pairs name, all checked: each
    a pair of ids in range, of neighbours (looked up by whole arrays, not pair by pair)."""
    for pair in pairs:
        if not (isinstance(pair, list) and len(pair) == 2):
            raise FileFormatError('"passages" must be a list of [a, b] pairs')
        _ints(pair, "passages")
    ends = _id_array(pairs, "passages", n).reshape(-1, 2)
    bad = np.flatnonzero(((ends < 0) | (ends >= n)).any(axis=1))
    if bad.size:
        raise FileFormatError(f"passage {ends[bad[0]].tolist()} names a cell outside 0..{n - 1}")
    walls, found = grid.find_walls(ends)
    if not found.all():
        pair = ends[np.flatnonzero(~found)[0]].tolist()
        raise FileFormatError(f"passage {pair} joins cells that are not neighbours")
    opened = np.zeros(grid.n_walls, bool)
    opened[walls] = True
    return opened


def _per_cell(doc: dict[str, Any], key: str, n: int, kind: type, high: int, what: str) -> Any:
    """A saved file's optional value per grid cell (``"tone"``, ``"regions"``), checked: ``n``
    numbers of ``kind`` (an int passes as a float) from 0 to ``high``; None when absent."""
    if key not in doc:
        return None
    values = doc[key]
    kinds = (int, float) if kind is float else (int,)
    if (
        not isinstance(values, list)
        or len(values) != n
        or not all(isinstance(v, kinds) and not isinstance(v, bool) and 0 <= v <= high
                   for v in values)
    ):  # fmt: skip
        raise FileFormatError(f'"{key}" must be {n} {what}, one a cell')
    return np.array(values)


_SPLITS = ("splits", "adaptive")
"""The one parameter that is not an integer: the adaptive grid's tree, in base64."""


def grid_loads(doc: dict[str, Any]) -> Maze:
    """A grid maze from its parsed saved-maze document (version 3: see :func:`grid_dumps`).

    Raises
    ------
    FileFormatError
        Naming the first problem.
    """
    from mazeart._limits import check_cells
    from mazeart.grids import GRIDS, make_grid

    missing = [k for k in _GRID_KEYS if k not in doc]
    if missing:
        raise FileFormatError(f"the saved maze lacks {', '.join(repr(k) for k in missing)}")
    extra = sorted(set(doc) - set(_GRID_KEYS) - {"region", "rooms", "tone", "regions", "outline"})
    if extra:
        raise FileFormatError(f"unknown key(s) in the saved maze: {', '.join(map(repr, extra))}")
    spec = doc["grid"]
    if not isinstance(spec, dict) or set(spec) != {"kind", "params"}:
        raise FileFormatError('"grid" must be {"kind": ..., "params": {...}}')
    kind, params = spec["kind"], spec["params"]
    if not isinstance(kind, str) or kind not in GRIDS:
        raise FileFormatError(f"unknown grid {kind!r} (known: {', '.join(GRIDS)})")
    if not isinstance(params, dict) or not all(
        isinstance(k, str)
        and ((isinstance(v, int) and not isinstance(v, bool)) or (k, kind) == _SPLITS)
        for k, v in params.items()
    ):
        raise FileFormatError('"grid" "params" must map names to integers')
    n = doc["n_cells"]
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise FileFormatError(f'"n_cells" must be a positive integer, got {n!r}')
    try:
        check_cells(1, n, "the saved grid", kind=kind)
    except MazeartError as exc:
        raise FileFormatError(str(exc)) from None
    splits = params.get("splits", "")
    if not isinstance(splits, str) or len(splits) > 4 * n:  # base64 of a bit a node
        raise FileFormatError("the adaptive grid's \"splits\" must be a string of its tree's bits")
    # every list sized by the cell count it belongs to, before anything is built from it
    limits = {"centres": n, "cells": n, "passages": 4 * n, "tags": n, "rooms": n,
              "region": n, "tone": n, "regions": n}  # fmt: skip
    for key, most in limits.items():
        if isinstance(doc.get(key), list) and len(doc[key]) > most:
            raise FileFormatError(f'"{key}" holds {len(doc[key]):,} items, more than its '
                                  f"{n:,} cells allow")  # fmt: skip
    # what the params build, told before building it: a small file may name a vast grid
    rows, cols, rings = params.get("rows", 1), params.get("cols", 1), params.get("rings", 0)
    if rows * cols > n or rings * rings > 4 * n:
        raise FileFormatError(f'the {kind} grid\'s "params" make more cells than "n_cells" {n}')
    try:
        grid = make_grid(kind, **params)
    except (MazeartError, TypeError) as exc:
        raise FileFormatError(f"the {kind} grid cannot be built: {exc}") from None
    if grid.n_cells != n:
        raise FileFormatError(f'"n_cells" is {n}, but that {kind} grid has {grid.n_cells}')
    centres = doc["centres"]
    try:
        xy = np.array(centres, dtype=np.float64)
    except (TypeError, ValueError):
        raise FileFormatError('"centres" must be a list of [x, y] numbers') from None
    if xy.shape != (n, 2) or not np.allclose(xy, grid.centres, atol=1e-5):
        raise FileFormatError('"centres" do not match the grid the file names')
    cells = _ints(doc["cells"], "cells")
    mask = np.zeros(n, bool)
    ids = _id_array(cells, "cells", n)
    if ids.size and (ids.min() < 0 or ids.max() >= n):
        raise FileFormatError(f'"cells" holds an id outside 0..{n - 1}')
    mask[ids] = True
    region = mask.copy()
    more = _id_array(_ints(doc.get("region", []), "region"), "region", n)
    if more.size and (more.min() < 0 or more.max() >= n):
        raise FileFormatError(f'"region" holds an id outside 0..{n - 1}')
    region[more] = True
    pairs = doc["passages"]
    if not isinstance(pairs, list):
        raise FileFormatError('"passages" must be a list of [a, b] pairs')
    opened = _passages(grid, pairs, n)
    for name in ("entrance", "exit"):
        v = doc[name]
        if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
            raise FileFormatError(f'"{name}" must be a cell id or null, got {v!r}')
    tags = doc["tags"]
    if not isinstance(tags, list) or not all(
        isinstance(t, list) and len(t) == 2 and isinstance(t[0], int)
        and not isinstance(t[0], bool) and isinstance(t[1], str)
        for t in tags
    ):  # fmt: skip
        raise FileFormatError('"tags" must be a list of [cell id, kind] pairs')
    if len({t[0] for t in tags}) != len(tags):
        raise FileFormatError('"tags" names a cell twice')
    shape = (int(params["rows"]), int(params["cols"])) if kind == "square" else (n,)
    tone = _per_cell(doc, "tone", n, float, 1, "numbers from 0 to 1")
    labels = _per_cell(doc, "regions", n, int, 35, "integers from 0 to 35")
    guide = None
    outline = doc.get("outline", [])
    if not isinstance(outline, list) or not all(isinstance(r, list) for r in outline):
        raise FileFormatError('"outline" must be a list of rings of [x, y] points')
    if tone is not None or labels is not None or outline:
        tone = None if tone is None else tone.astype(np.float64).reshape(shape)
        labels = None if labels is None else labels.astype(np.int8).reshape(shape)
        try:
            guide = Guide(tone=tone, edge_labels=labels, outline=tuple(outline))
        except (TypeError, ValueError) as exc:
            raise FileFormatError(f'"outline": {exc}') from None
    try:
        rooms = _id_rooms(
            doc.get("rooms", []), n, int(params["cols"]) if kind == "square" else None
        )
        return Maze(mask, opened, grid=grid, region=region, entrance=doc["entrance"],
                    exit=doc["exit"], meta=_meta(doc["meta"]), rooms=rooms,
                    tags={c: k for c, k in tags}, guide=guide)  # fmt: skip
    except MazeartError as exc:
        raise FileFormatError(str(exc)) from None
