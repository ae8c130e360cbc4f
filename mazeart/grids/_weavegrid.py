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
from mazeart.grids.core import GRIDS, Grid, _pairs

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
    check_cells(rows, cols, "the weave grid", kind="weave")
    n = rows * cols
    cell_of, under_of = under_layout(rows, cols)
    total = n + cell_of.size
    x, y = np.arange(cols, dtype=np.float64), np.arange(rows, dtype=np.float64)[:, None]
    centres = np.empty((total, 2))
    square = centres[:n].reshape(rows, cols, 2)
    square[:, :, 0], square[:, :, 1] = x + 0.5, y + 0.5
    centres[n:] = centres[cell_of]
    # Corners 0-3 of each cell: top left, top right, bottom right, bottom left.
    cell_points = np.empty((4 * total, 2))
    corners = _pairs(cell_points)
    grid = corners[: 4 * n].reshape(rows, cols, 4)
    grid.real = np.stack([x, x + 1, x + 1, x], axis=1)
    grid.imag = np.stack([y, y, y + 1, y + 1], axis=2)
    corners[4 * n :] = grid.reshape(n, 4)[cell_of].reshape(-1)
    # Every wall is taken from its square cell with the lower id (under nodes come
    # after every cell): the table sorts them cell by cell, its boundary walls first
    # (east, south, top, left), then its walls to the cells east and south, then its
    # tunnels to the under nodes beneath the cells north, west, east and south of it.
    interior = np.zeros((rows, cols), bool)
    interior[1:-1, 1:-1] = True
    east = np.broadcast_to(np.arange(cols) + 1 < cols, (rows, cols))
    south = np.broadcast_to(np.arange(rows)[:, None] + 1 < rows, (rows, cols))
    taken = np.zeros((rows, cols, 10), bool)
    taken[:, :, 0], taken[:, :, 1], taken[0, :, 2], taken[:, 0, 3] = ~east, ~south, True, True
    taken[:, :, 4], taken[:, :, 5] = east, south
    taken[1:, :, 6], taken[:, 1:, 7] = interior[:-1], interior[:, :-1]
    taken[:, :-1, 8], taken[:-1, :, 9] = interior[:, 1:], interior[1:]
    pick = np.flatnonzero(taken)
    n_walls = len(pick)
    owner = pick // 10
    column = pick - 10 * owner
    ends = np.empty(2 * n_walls, np.int64)
    ends[0::2] = np.take(np.array([1, 3, 0, 0, 1, 3, 0, 0, 1, 3]), column) + 4 * owner
    ends[1::2] = np.take(np.array([2, 2, 1, 3, 2, 2, 1, 3, 2, 2]), column) + 4 * owner
    wall_points = np.empty((2 * n_walls, 2))
    np.take(corners, ends, out=_pairs(wall_points), mode="clip")
    beyond = owner + np.take(np.array([0, 0, 0, 0, 1, cols, -cols, -1, 1, cols]), column)
    wall_cells = np.empty((n_walls, 2), np.int32)
    wall_cells[:, 0] = owner
    wall_cells[:, 1] = np.where(
        column >= 6, np.take(under_of, beyond, mode="clip"), np.where(column >= 4, beyond, -1)
    )
    wall_id = np.empty((n, 10), np.int32)
    wall_id.reshape(-1)[pick] = np.arange(n_walls, dtype=np.int32)
    # Neighbours in increasing order: a cell's north, west, east and south cells, then
    # the under nodes beneath them; an under node's cell's north, west, east, south.
    i = np.arange(n, dtype=np.int64)
    near = np.empty((n, 8), np.int32)
    near[:, :4] = np.stack([i - cols, i - 1, i + 1, i + cols], axis=1)
    has = np.empty((n, 8), bool)
    sides = has.reshape(rows, cols, 8)
    sides[:, :, 0], sides[:, :, 1], sides[:, :, 2:] = y > 0, np.arange(cols) > 0, taken[:, :, 4:]
    near[:, 4:] = np.take(under_of, near[:, :4], mode="clip")
    via = np.empty((n, 8), np.int32)
    via[cols:, 0], via[1:, 1] = wall_id[:-cols, 5], wall_id[:-1, 4]
    via[:, 2], via[:, 3], via[:, 4:] = wall_id[:, 4], wall_id[:, 5], wall_id[:, 6:]
    above = np.stack([cell_of - cols, cell_of - 1, cell_of + 1, cell_of + cols], axis=1)
    above = above.astype(np.int32)
    tunnel = wall_id[above, np.array([9, 8, 7, 6])]
    degree = np.empty(total, np.int64)
    degree[:n] = has.sum(axis=1)
    degree[n:] = 4
    indptr = np.zeros(total + 1, np.int64)
    np.cumsum(degree, out=indptr[1:])
    return Grid(
        kind="weave",
        params={"rows": rows, "cols": cols},
        centres=centres,
        indptr=indptr,
        indices=np.concatenate([near[has], above.reshape(-1)]),
        wall_of=np.concatenate([via[has], tunnel.reshape(-1)]),
        wall_cells=wall_cells,
        wall_ptr=2 * np.arange(n_walls + 1, dtype=np.int64),
        wall_points=wall_points,
        cell_ptr=4 * np.arange(total + 1, dtype=np.int64),
        cell_points=cell_points,
        size=(float(cols), float(rows)),
    )


GRIDS["weave"] = weave_grid
