"""The weave grid's cells and walls (the mazes themselves are :mod:`mazeart.grids.weave`'s).

The grid is built here, apart from the weave mazes, so that :mod:`mazeart.grids` can
register it in :data:`~mazeart.grids.GRIDS` without importing the maze layer (which
imports :mod:`mazeart.grids`). :func:`weave_grid` is public as
:func:`mazeart.grids.weave.weave_grid`.

>>> from mazeart.grids import make_grid
>>> make_grid("weave", rows=4, cols=5)
Grid(weave: rows=4, cols=5; 26 cells)
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from mazeart._limits import check_cells
from mazeart.errors import check_int
from mazeart.grids.core import GRIDS, Grid

__all__ = ["under_layout", "weave_grid"]

STEP = np.array([[-1, 0], [0, 1], [1, 0], [0, -1]])
"""``(row, col)`` steps to the north, east, south and west neighbours (directions 0-3)."""


def under_layout(rows: int, cols: int) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Where the under nodes of a ``rows`` x ``cols`` weave grid lie.

    Parameters
    ----------
    rows, cols : int

    Returns
    -------
    cell_of : (m,) ndarray of intp
        The square cell above each under node (under node ``rows * cols + k`` lies
        under cell ``cell_of[k]``), in reading order.
    under_of : (rows * cols,) ndarray of intp
        Each square cell's under node, ``-1`` for a cell on the grid's edge.

    Examples
    --------
    >>> cell_of, under_of = under_layout(3, 4)
    >>> cell_of.tolist(), under_of[[5, 6, 0]].tolist()
    ([5, 6], [12, 13, -1])
    """
    r, c = np.meshgrid(np.arange(1, rows - 1), np.arange(1, cols - 1), indexing="ij")
    cell_of = (r * cols + c).reshape(-1).astype(np.intp)
    under_of = np.full(rows * cols, -1, np.intp)
    under_of[cell_of] = rows * cols + np.arange(cell_of.size)
    return cell_of, under_of


def weave_grid(rows: int, cols: int) -> Grid:
    """The weave grid: the square grid, and an under node beneath every interior cell.

    Cells ``0 .. rows * cols - 1`` are the square grid's (``r * cols + c``, one unit a
    side, with its walls and polygons). Then comes one under node per interior cell,
    ``(rows - 2) * (cols - 2)`` of them in reading order: its centre and polygon are
    its cell's, and its neighbours are that cell's four neighbours (north, east, south,
    west), each through a tunnel wall whose polyline is the side the tunnel passes
    under (the side between the cell and that neighbour). A weave maze
    (:func:`mazeart.grids.weave.weave_maze`) runs a corridor through an under node
    straight beneath a corridor that crosses its cell the other way.

    Parameters
    ----------
    rows, cols : int

    Returns
    -------
    Grid
        Of kind ``'weave'``, with params ``rows`` and ``cols``.

    Raises
    ------
    MazeartError
        For sizes below 1 or a grid over the cell limit.

    Examples
    --------
    >>> g = weave_grid(3, 3)
    >>> g.n_cells, g.centres[9].tolist(), sorted(g.neighbours(9).tolist())
    (10, [1.5, 1.5], [1, 3, 5, 7])
    >>> g.wall(g.wall_between(1, 9)).tolist()  # the side between cells 1 and 4
    [[1.0, 1.0], [2.0, 1.0]]
    """
    rows, cols = check_int(rows, "rows"), check_int(cols, "cols")
    check_cells(rows, cols, "the weave grid", count=2)
    n = rows * cols
    cell_of, _ = under_layout(rows, cols)
    r, c = np.divmod(np.arange(n), cols)
    i = np.arange(n)
    # every wall as (lower cell, upper cell or -1, from x, from y, to x, to y)
    east = (i, np.where(c + 1 < cols, i + 1, -1), c + 1, r, c + 1, r + 1)
    south = (i, np.where(r + 1 < rows, i + cols, -1), c, r + 1, c + 1, r + 1)
    top, left = r == 0, c == 0
    over_top = (i[top], np.full(top.sum(), -1), c[top], r[top], c[top] + 1, r[top])
    over_left = (i[left], np.full(left.sum(), -1), c[left], r[left], c[left], r[left] + 1)
    u = n + np.arange(cell_of.size)
    ur, uc = np.divmod(cell_of, cols)
    tunnels = [
        (cell_of - cols, u, uc, ur, uc + 1, ur),
        (cell_of + 1, u, uc + 1, ur, uc + 1, ur + 1),
        (cell_of + cols, u, uc, ur + 1, uc + 1, ur + 1),
        (cell_of - 1, u, uc, ur, uc, ur + 1),
    ]
    parts = [east, south, over_top, over_left, *tunnels]
    table = np.concatenate([np.stack(p, axis=1) for p in parts]).astype(np.int64)
    table = table[np.lexsort((table[:, 1], table[:, 0]))]
    wall_cells = table[:, :2]
    points = table[:, 2:].astype(np.float64).reshape(-1, 2)
    inner = np.flatnonzero(wall_cells[:, 1] >= 0)
    src = np.concatenate([wall_cells[inner, 0], wall_cells[inner, 1]])
    dst = np.concatenate([wall_cells[inner, 1], wall_cells[inner, 0]])
    wid = np.concatenate([inner, inner])
    by = np.lexsort((dst, src))
    total = n + cell_of.size
    indptr = np.zeros(total + 1, np.int64)
    indptr[1:] = np.cumsum(np.bincount(src, minlength=total))
    square = np.concatenate([i, cell_of])
    sr, sc = np.divmod(square, cols)
    corners = np.stack([np.stack([sc + dx, sr + dy], axis=1)
                        for dx, dy in ((0, 0), (1, 0), (1, 1), (0, 1))], axis=1)  # fmt: skip
    return Grid(
        kind="weave",
        params={"rows": rows, "cols": cols},
        centres=np.stack([sc + 0.5, sr + 0.5], axis=1),
        indptr=indptr,
        indices=dst[by].astype(np.int32),
        wall_of=wid[by].astype(np.int32),
        wall_cells=wall_cells.astype(np.int32),
        wall_ptr=2 * np.arange(len(wall_cells) + 1),
        wall_points=points,
        cell_ptr=4 * np.arange(total + 1),
        cell_points=corners.reshape(-1, 2),
        size=(float(cols), float(rows)),
    )


GRIDS["weave"] = weave_grid
