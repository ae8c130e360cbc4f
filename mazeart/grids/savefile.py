"""The saved maze of a grid maze (format version 3): enough for another program to rebuild it
without mazeart.

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
     "meta": {"algorithm": "wilson", "seed": 7, ...}
    }

Centres are in drawing units (``x`` across, ``y`` down); two cells joined by a
passage are neighbours in the grid that ``kind`` and ``params`` name (see
:mod:`mazeart.grids`). The JSON Schema is ``mazeart/schema/maze-3.schema.json``.
Reading checks everything: the grid is rebuilt from its kind and parameters,
its size against the cell limit before it is built, the centres against it, and
every passage against its neighbour table.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from mazeart.errors import FileFormatError, MazeartError
from mazeart.grids.maze import GridMaze

__all__ = ["VERSION", "grid_dumps", "grid_loads"]

VERSION = 3
"""The version of the grid mazes' layout."""

_KEYS = ("format", "version", "grid", "n_cells", "centres", "cells", "passages", "entrance",
         "exit", "meta")  # fmt: skip


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(", ", ": "), ensure_ascii=False, allow_nan=False)


def grid_dumps(maze: GridMaze) -> str:
    """The saved-maze JSON text of a grid maze (deterministic: save, load, save gives the
    same bytes)."""
    from mazeart.maze import thaw
    from mazeart.mazefile import FORMAT

    g = maze.grid
    try:
        meta = _compact(thaw(maze.meta))
    except (TypeError, ValueError) as exc:
        raise FileFormatError(f"the maze's metadata cannot be saved as JSON: {exc}") from None
    centres = np.round(g.centres, 6)
    lines = [
        "{",
        f' "format": {json.dumps(FORMAT)},',
        f' "version": {VERSION},',
        f' "grid": {_compact({"kind": g.kind, "params": dict(g.params)})},',
        f' "n_cells": {g.n_cells},',
        ' "centres": [',
        ",\n".join(f"  [{x!r}, {y!r}]" for x, y in centres.tolist()),
        " ],",
        f' "cells": {_compact(np.flatnonzero(maze.mask).tolist())},',
        ' "passages": [',
        ",\n".join(f"  [{a}, {b}]" for a, b in maze.links().tolist()),
        " ],",
        f' "entrance": {_compact(maze.entrance)},',
        f' "exit": {_compact(maze.exit)},',
        f' "meta": {meta}',
        "}",
    ]
    return "\n".join(lines) + "\n"


def _ints(value: Any, what: str) -> list[int]:
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise FileFormatError(f'"{what}" must be a list of integers')
    return value


def grid_loads(doc: dict[str, Any]) -> GridMaze:
    """A grid maze from its parsed saved-maze document (version 3).

    Raises
    ------
    FileFormatError
        Naming the first problem.
    """
    from mazeart._limits import check_cells
    from mazeart.grids import GRIDS, make_grid
    from mazeart.mazefile import _meta

    missing = [k for k in _KEYS if k not in doc]
    if missing:
        raise FileFormatError(f"the saved maze lacks {', '.join(repr(k) for k in missing)}")
    extra = sorted(set(doc) - set(_KEYS))
    if extra:
        raise FileFormatError(f"unknown key(s) in the saved maze: {', '.join(map(repr, extra))}")
    spec = doc["grid"]
    if not isinstance(spec, dict) or set(spec) != {"kind", "params"}:
        raise FileFormatError('"grid" must be {"kind": ..., "params": {...}}')
    kind, params = spec["kind"], spec["params"]
    from mazeart.grids import shapes  # noqa: F401  (the other kinds register on import)

    if not isinstance(kind, str) or kind not in GRIDS:
        raise FileFormatError(f"unknown grid {kind!r} (known: {', '.join(GRIDS)})")
    if not isinstance(params, dict) or not all(
        isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
        for k, v in params.items()
    ):
        raise FileFormatError('"grid" "params" must map names to integers')
    n = doc["n_cells"]
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise FileFormatError(f'"n_cells" must be a positive integer, got {n!r}')
    try:
        check_cells(1, n, "the saved grid")
    except MazeartError as exc:
        raise FileFormatError(str(exc)) from None
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
    ids = np.array(cells, dtype=np.int64)
    if ids.size and (ids.min() < 0 or ids.max() >= n):
        raise FileFormatError(f'"cells" holds an id outside 0..{n - 1}')
    mask[ids] = True
    pairs = doc["passages"]
    if not isinstance(pairs, list):
        raise FileFormatError('"passages" must be a list of [a, b] pairs')
    opened = np.zeros(grid.n_walls, bool)
    for pair in pairs:
        if not (isinstance(pair, list) and len(pair) == 2):
            raise FileFormatError('"passages" must be a list of [a, b] pairs')
        a, b = _ints(pair, "passages")
        if not (0 <= a < n and 0 <= b < n):
            raise FileFormatError(f"passage {[a, b]} names a cell outside 0..{n - 1}")
        try:
            opened[grid.wall_between(a, b)] = True
        except MazeartError:
            raise FileFormatError(f"passage {[a, b]} joins cells that are not neighbours") from None
    for name in ("entrance", "exit"):
        v = doc[name]
        if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
            raise FileFormatError(f'"{name}" must be a cell id or null, got {v!r}')
    try:
        return GridMaze(grid, mask, opened, doc["entrance"], doc["exit"], _meta(doc["meta"]))
    except MazeartError as exc:
        raise FileFormatError(str(exc)) from None
