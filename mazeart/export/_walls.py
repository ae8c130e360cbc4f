"""Where a grid maze's walls and doors lie in the drawing: plain geometry for the scene and
for the smooth outline, which both draw them (and neither imports the other for it)."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from mazeart.grids import Grid
from mazeart.maze import Maze

__all__ = ["along", "door", "drawn_walls", "segments_of", "wall_segments"]


def drawn_walls(maze: Maze) -> NDArray[np.bool_]:
    """Which walls a grid maze draws without a smooth outline: each closed wall with a maze
    cell on a side, ``(n_walls,)``."""
    g = maze.grid
    a, b = g.wall_cells[:, 0], g.wall_cells[:, 1]
    return ~maze.passages & (maze.mask[a] | ((b >= 0) & maze.mask[np.maximum(b, 0)]))


def wall_segments(
    maze: Maze, drawn: NDArray[np.bool_]
) -> tuple[NDArray[np.float64], NDArray[np.intp]]:
    """The segments ``x0, y0, x1, y1`` of the walls ``drawn`` picks, but not the doors of
    the maze's entrance and exit; and the wall of each segment.

    Parameters
    ----------
    maze : Maze
    drawn : (n_walls,) ndarray of bool

    Returns
    -------
    segments : (K, 4) ndarray of float64
    wall : (K,) ndarray of intp
    """
    drawn = drawn.copy()
    for end in (maze.entrance, maze.exit):
        at = maze.door_wall(end)
        if at >= 0:
            drawn[at] = False
    return segments_of(maze.grid, np.flatnonzero(drawn))


def segments_of(
    grid: Grid, walls: NDArray[np.intp]
) -> tuple[NDArray[np.float64], NDArray[np.intp]]:
    """The segments ``x0, y0, x1, y1`` of the polylines of ``walls`` (increasing wall ids) in
    their order, and the wall of each: the work of the walls taken, not of the grid.

    Parameters
    ----------
    grid : Grid
    walls : (W,) ndarray of int

    Returns
    -------
    segments : (K, 4) ndarray of float64
    wall : (K,) ndarray of intp
    """
    ptr = grid.wall_ptr
    if ptr[-1] == 2 * (len(ptr) - 1):  # every wall a straight side: its two points
        return grid.wall_points.reshape(-1, 4)[walls], walls.copy()
    pieces = ptr[walls + 1] - ptr[walls] - 1  # a polyline of p points is p - 1 segments
    wall = np.repeat(walls, pieces)
    before = np.cumsum(pieces) - pieces
    first = np.repeat(ptr[walls] - before, pieces) + np.arange(int(pieces.sum()))
    pts = grid.wall_points
    return np.hstack([pts[first], pts[first + 1]]), wall


def along(line: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The point halfway along a polyline and the unit direction there.

    Parameters
    ----------
    line : (P, 2) ndarray of float

    Returns
    -------
    middle, direction : (2,) ndarray of float64
    """
    d = np.diff(line, axis=0)
    lengths = np.hypot(d[:, 0], d[:, 1])
    total = float(lengths.sum())
    if total <= 0:
        return line[0].astype(np.float64), np.array([1.0, 0.0])
    cum = np.concatenate([[0.0], np.cumsum(lengths)])
    k = min(int(np.searchsorted(cum, total / 2, side="right")) - 1, len(d) - 1)
    t = (total / 2 - cum[k]) / max(float(lengths[k]), 1e-12)
    return line[k] + t * d[k], d[k] / max(float(lengths[k]), 1e-12)


def door(maze: Maze, cell: int) -> tuple[NDArray[np.float64], NDArray[np.float64]] | None:
    """Where ``cell``'s door is: its wall's middle and the unit normal out of the cell, or
    None for a cell without one (:meth:`mazeart.maze.Maze.door_wall`).

    Parameters
    ----------
    maze : Maze
    cell : int

    Returns
    -------
    (middle, normal) or None
    """
    at = maze.door_wall(maze.cell_at(cell))
    if at < 0:
        return None
    mid, direction = along(maze.grid.wall(at))
    normal = np.array([-direction[1], direction[0]])
    if float(np.dot(normal, mid - maze.grid.centres[cell])) < 0:
        normal = -normal
    return mid, normal
