"""Drawing options shared by every exporter: one defaults table, merged with the caller's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mazeart.errors import MazeartError
from mazeart.maze import STEP, Maze

__all__ = [
    "PATH_COLOURS",
    "Style",
    "solution_paths",
    "solution_polyline",
    "style_from",
    "wall_runs",
]

PATH_COLOURS = ("#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#e377c2", "#8c564b")
"""Colours of the second, third, ... solution path (the first uses ``Style.solution_color``)."""


@dataclass(frozen=True)
class Style:
    """How a maze is drawn.

    Attributes
    ----------
    cell_size : float
        Size of one cell: pixels in PNG, user units in SVG.
    line_width : float
        Wall thickness as a fraction of a cell.
    margin : float
        Blank border around the maze, in cells.
    wall : str
        Wall colour.
    floor : str or None
        Fill of maze cells (``None``: leave transparent). SVG leaves it off by
        default so that a pen plotter draws walls only; PNG fills white.
    background : str or None
        Fill outside the maze (``None``: transparent).
    solution : bool
        Draw the shortest path from entrance to exit.
    solution_color : str
        Colour of the solution path.
    solution_width : float
        Solution stroke as a fraction of a cell.
    markers : bool
        Mark the entrance and exit with dots.
    entrance_color, exit_color : str
        Marker colours.
    size : str or None
        SVG only: physical width such as ``"180mm"`` or ``"800px"``; the height
        follows the aspect ratio.
    room_fill : str
        Fill of room cells.
    tags : bool
        Draw tags (coloured dots, one colour per kind).
    """

    cell_size: float = 10.0
    line_width: float = 0.15
    margin: float = 1.0
    wall: str = "#000000"
    floor: str | None = None
    background: str | None = None
    solution: bool = False
    solution_color: str = "#d62728"
    solution_width: float = 0.3
    markers: bool = False
    entrance_color: str = "#2ca02c"
    exit_color: str = "#d62728"
    size: str | None = None
    room_fill: str = "#f4e2b0"
    tags: bool = True


_FIELD_NAMES = {f.name for f in fields(Style)}


def style_from(options: dict[str, Any], *, base: Style | None = None) -> Style:
    """Merge keyword options over the defaults, rejecting unknown names and bad values."""
    unknown = set(options) - _FIELD_NAMES
    if unknown:
        raise MazeartError(
            f"unknown drawing option(s) {', '.join(sorted(unknown))} "
            f"(valid: {', '.join(sorted(_FIELD_NAMES))})"
        )
    style = replace(base or Style(), **{k: v for k, v in options.items() if v is not None})
    if not style.cell_size > 0:
        raise MazeartError(f"cell size must be positive, got {style.cell_size}")
    if not 0 < style.line_width <= 1:
        raise MazeartError(f"line width must be in (0, 1] of a cell, got {style.line_width}")
    if style.margin < 0:
        raise MazeartError(f"margin must not be negative, got {style.margin}")
    return style


def _runs(a: NDArray[np.bool_]) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp]]:
    """Maximal runs of True along each row: ``(row, start, stop)`` with ``stop`` exclusive."""
    rows, cols = a.shape
    padded = np.zeros((rows, cols + 2), dtype=np.int8)
    padded[:, 1:-1] = a
    d = np.diff(padded, axis=1)
    r0, c0 = np.nonzero(d == 1)
    _, c1 = np.nonzero(d == -1)
    return r0, c0, c1


def wall_runs(maze: Maze, *, doors: bool = True, smooth: bool = True) -> NDArray[np.intp]:
    """The walls of a ``cells`` maze as maximal straight segments.

    Collinear unit walls that touch are merged into one segment. A maze with a
    smooth outline (``maze.guide.outline``) gives the walls inside it (see
    :func:`mazeart.outline.smooth_walls`; to be clipped to the outline) unless
    ``smooth=False``.

    Returns
    -------
    (K, 4) ndarray of intp
        ``x0, y0, x1, y1`` on the grid lines (cell corners), horizontal
        segments first (top to bottom), then vertical ones (left to right).
    """
    if smooth and (maze.guide.outline or maze.guide.edge_labels is not None):
        from mazeart.outline import drawn_sides

        hor, ver = drawn_sides(maze)
    else:
        hor, ver = maze.walls(doors=doors)
    hy, hx0, hx1 = _runs(hor)
    vx, vy0, vy1 = _runs(ver.T)
    horizontal = np.stack([hx0, hy, hx1, hy], axis=1)
    vertical = np.stack([vx, vy0, vx, vy1], axis=1)
    return np.concatenate([horizontal, vertical]).astype(np.intp)


def solution_polyline(maze: Maze, path: NDArray[np.intp]) -> NDArray[np.float64]:
    """Turning points of a solution path in cell units, reaching out through the doors.

    Parameters
    ----------
    maze : Maze
    path : (L, 2) ndarray of int
        Cells from entrance to exit.

    Returns
    -------
    (P, 2) ndarray of float
        ``(x, y)`` points: cell centres at ``col + 0.5, row + 0.5``; the first
        and last points lie on the outer edge of the door when the end has one.
    """
    pts = [(c + 0.5, r + 0.5) for r, c in path]
    reach = 0.5 if maze.geometry == "cells" else 1.0
    for end, side in ((0, maze.entrance_side), (-1, maze.exit_side)):
        if not side or len(pts) == 0:
            continue
        dr, dc = STEP[side]
        x, y = pts[end]
        outer = (x + dc * reach, y + dr * reach)
        if end == 0:
            pts.insert(0, outer)
        else:
            pts.append(outer)
    arr = np.asarray(pts, dtype=np.float64)
    if len(arr) <= 2:
        return arr
    # Keep only the points where the direction changes.
    d = np.sign(np.diff(arr, axis=0))
    turn = np.any(d[1:] != d[:-1], axis=1)
    keep = np.concatenate([[True], turn, [True]])
    return arr[keep]


def solution_paths(
    maze: Maze, st: Style, solutions: Sequence[ArrayLike] | None = None
) -> list[tuple[NDArray[np.float64], str, float]]:
    """The solution polylines to draw, in cell units, each with its colour and stroke width.

    Several paths share corridors, so each is drawn narrower than the one
    before (down to 35 % of ``st.solution_width``): where they overlap, all
    their colours still show.

    Parameters
    ----------
    maze : Maze
    st : Style
    solutions : sequence of (L, 2) array_like, optional
        Paths to draw (e.g. from :func:`mazeart.solve.random_paths`). Without
        it, the shortest entrance → exit path is drawn when ``st.solution`` is set.

    Returns
    -------
    list of ((P, 2) ndarray, str, float)
        Points, colour, stroke width as a fraction of a cell.
    """
    if solutions is None:
        if not st.solution or maze.entrance is None or maze.exit is None:
            return []
        from mazeart.solve import solve

        solutions = [solve(maze)]
    colours = (st.solution_color, *PATH_COLOURS)
    k = len(solutions)
    return [
        (
            solution_polyline(maze, np.asarray(path, dtype=np.intp)),
            colours[i % len(colours)],
            st.solution_width * (1 - 0.65 * i / max(k - 1, 1)),
        )
        for i, path in enumerate(solutions)
    ]
