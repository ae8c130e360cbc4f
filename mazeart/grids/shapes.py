"""The grids beyond squares: hexagons (sigma), triangles (delta), rings (theta, polar)
and octagons with squares (upsilon). Each builder returns a :class:`~mazeart.grids.Grid`
and registers itself in :data:`~mazeart.grids.GRIDS`.

Every grid keeps its cells about one unit across, ``x`` across and ``y`` down, inside
``[0, width] x [0, height]`` (:attr:`~mazeart.grids.Grid.size`). Every cell's polygon
runs the same way round as the square grid's (clockwise on the page, ``y`` down:
a positive shoelace area), and is made of the cell's walls in order, so each wall
lies exactly on the outlines of the cells it separates, with the same points.

>>> from mazeart.grids import make_grid
>>> [make_grid(kind, rows=2, cols=2).n_cells for kind in ("hex", "triangle", "upsilon")]
[4, 4, 4]
>>> make_grid("polar", rings=3).n_cells
19
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

from mazeart._limits import check_cells, current
from mazeart.errors import MazeartError, check_int
from mazeart.grids.core import GRIDS, Grid, grid_from_pairs

__all__ = ["CHORD_ERROR", "hex_grid", "polar_counts", "polar_grid", "triangle_grid", "upsilon_grid"]

CHORD_ERROR = 0.01
"""The most a polar grid's arcs, drawn as polylines, stray from the true circle (units)."""

_SQRT3 = math.sqrt(3.0)
_TAU = 2.0 * math.pi

Side = tuple[int, NDArray[np.float64]]
"""One side of a cell: the cell beyond it (``-1`` for the outside) and its polyline,
running the way the cell's polygon runs."""


def _register(kind: str) -> Callable[[Callable[..., Grid]], Callable[..., Grid]]:
    def add(builder: Callable[..., Grid]) -> Callable[..., Grid]:
        GRIDS[kind] = builder
        return builder

    return add


def _line(*points: tuple[float, float]) -> NDArray[np.float64]:
    return np.array(points, dtype=np.float64)


def _assemble(
    kind: str,
    params: dict[str, int],
    centres: NDArray[np.float64],
    sides: Sequence[Sequence[Side]],
    size: tuple[float, float] | None = None,
) -> Grid:
    """The grid whose cell ``i`` is bounded by ``sides[i]``, in order round the cell.

    Each cell's polygon is its sides joined end to end; each wall is taken once, from
    the cell with the lower id (or the only cell, on the outside). Without ``size``,
    the drawing is moved so that it starts at ``(0, 0)`` and ends at its size.
    """
    polygons = [np.concatenate([line[:-1] for _, line in cell]) for cell in sides]
    walls = [(i, b, line) for i, cell in enumerate(sides) for b, line in cell if b < 0 or b > i]
    if size is not None:
        return grid_from_pairs(kind, params, centres, polygons, walls, size)
    every = np.concatenate(polygons)
    low, high = every.min(axis=0), every.max(axis=0)
    if low.any():
        centres = centres - low
        polygons = [p - low for p in polygons]
        walls = [(a, b, line - low) for a, b, line in walls]
    size = (float(high[0] - low[0]), float(high[1] - low[1]))
    return grid_from_pairs(kind, params, centres, polygons, walls, size)


def _check_size(rows: int, cols: int, kind: str) -> tuple[int, int]:
    rows, cols = check_int(rows, "rows"), check_int(cols, "cols")
    check_cells(rows, cols, f"the {kind} grid")
    return rows, cols


@_register("hex")
def hex_grid(rows: int, cols: int) -> Grid:
    """The hexagonal (sigma) grid: pointy-top hexagons in rows, odd rows shifted right.

    Each hexagon is one unit wide (flat side to flat side) and ``2 / sqrt(3)`` tall;
    rows are ``sqrt(3) / 2`` apart, and odd rows sit half a cell to the right. Cell
    ``(r, c)`` is id ``r * cols + c``; its neighbours are the cells beside it in its
    row and the two above and two below it that share a side.

    Parameters
    ----------
    rows, cols : int
        Rows of hexagons, and hexagons in each row (at least 1 each).

    Returns
    -------
    Grid
        Its drawing is ``cols + 0.5`` wide (``cols`` for one row) and
        ``rows * sqrt(3) / 2 + 1 / (2 * sqrt(3))`` tall.

    Raises
    ------
    MazeartError
        For fewer than one row or column, or more cells than ``max_cells``.

    Examples
    --------
    >>> g = hex_grid(3, 4)
    >>> g.n_cells, sorted(g.neighbours(5).tolist())
    (12, [1, 2, 4, 6, 9, 10])
    >>> g.size
    (4.5, 2.886...)
    """
    rows, cols = _check_size(rows, cols, "hex")
    pitch = _SQRT3 / 2.0
    half = 0.5 / _SQRT3  # the height of a hexagon's slanted sides

    def cell(r: int, c: int) -> int:
        return r * cols + c if 0 <= r < rows and 0 <= c < cols else -1

    centres = np.empty((rows * cols, 2))
    sides: list[list[Side]] = []
    for r in range(rows):
        odd = r % 2
        top, upper, lower, bottom = (
            r * pitch,
            r * pitch + half,
            (r + 1) * pitch,
            (r + 1) * pitch + half,
        )
        for c in range(cols):
            left = c + 0.5 * odd
            mid, right = left + 0.5, left + 1.0
            centres[r * cols + c] = mid, r * pitch + 2.0 * half
            sides.append([
                (cell(r - 1, c + odd), _line((mid, top), (right, upper))),
                (cell(r, c + 1), _line((right, upper), (right, lower))),
                (cell(r + 1, c + odd), _line((right, lower), (mid, bottom))),
                (cell(r + 1, c + odd - 1), _line((mid, bottom), (left, lower))),
                (cell(r, c - 1), _line((left, lower), (left, upper))),
                (cell(r - 1, c + odd - 1), _line((left, upper), (mid, top))),
            ])  # fmt: skip
    return _assemble("hex", {"rows": rows, "cols": cols}, centres, sides)


@_register("triangle")
def triangle_grid(rows: int, cols: int) -> Grid:
    """The triangular (delta) grid: equilateral triangles pointing up and down in turn.

    The triangles have sides of one unit and rows are ``sqrt(3) / 2`` tall; cell
    ``(r, c)`` (id ``r * cols + c``) points up when ``r + c`` is even and down
    otherwise, and its left corner is at ``x = c / 2``. Its neighbours are the cells
    to its left and right and the one across its horizontal side (below an upward
    triangle, above a downward one).

    Parameters
    ----------
    rows, cols : int
        Rows of triangles, and triangles in each row (at least 1 each, and at least
        2 triangles a row for 3 rows or more: the grid would fall apart).

    Returns
    -------
    Grid
        Its drawing is ``(cols + 1) / 2`` wide and ``rows * sqrt(3) / 2`` tall.

    Raises
    ------
    MazeartError
        For fewer than one row or column, one column and more than two rows, or more
        cells than ``max_cells``.

    Examples
    --------
    >>> g = triangle_grid(2, 3)
    >>> [g.neighbours(i).tolist() for i in range(3)]
    [[1, 3], [0, 2], [1, 5]]
    >>> g.polygon(0).round(3).tolist()
    [[0.5, 0.0], [1.0, 0.866], [0.0, 0.866]]
    """
    rows, cols = _check_size(rows, cols, "triangle")
    if cols == 1 and rows > 2:
        raise MazeartError(
            f"a triangle grid of {rows} rows needs at least 2 columns "
            "(one triangle a row meets the next rows only at corners)"
        )
    pitch = _SQRT3 / 2.0

    def cell(r: int, c: int) -> int:
        return r * cols + c if 0 <= r < rows and 0 <= c < cols else -1

    centres = np.empty((rows * cols, 2))
    sides: list[list[Side]] = []
    for r in range(rows):
        top, bottom = r * pitch, (r + 1) * pitch
        for c in range(cols):
            left, mid, right = c / 2.0, c / 2.0 + 0.5, c / 2.0 + 1.0
            if (r + c) % 2 == 0:  # pointing up: the horizontal side is below
                centres[r * cols + c] = mid, top + 2.0 * pitch / 3.0
                sides.append([
                    (cell(r, c + 1), _line((mid, top), (right, bottom))),
                    (cell(r + 1, c), _line((right, bottom), (left, bottom))),
                    (cell(r, c - 1), _line((left, bottom), (mid, top))),
                ])  # fmt: skip
            else:
                centres[r * cols + c] = mid, top + pitch / 3.0
                sides.append([
                    (cell(r - 1, c), _line((left, top), (right, top))),
                    (cell(r, c + 1), _line((right, top), (mid, bottom))),
                    (cell(r, c - 1), _line((mid, bottom), (left, top))),
                ])  # fmt: skip
    return _assemble("triangle", {"rows": rows, "cols": cols}, centres, sides)


def polar_counts(rings: int) -> list[int]:
    """The number of cells in each ring of :func:`polar_grid`, the centre first.

    Ring ``r`` (inner radius ``r``) splits each cell of ring ``r - 1`` into
    ``round(2 * pi * r / previous count)`` cells: six around the centre, then twice
    as many whenever the cells would otherwise be about twice as wide as they are tall.

    Parameters
    ----------
    rings : int
        Rings, the centre cell included (at least 1).

    Returns
    -------
    list of int

    Examples
    --------
    >>> polar_counts(8)
    [1, 6, 12, 24, 24, 24, 48, 48]
    """
    rings = check_int(rings, "rings", maximum=current().max_cells)
    counts = [1]
    for r in range(1, rings):
        counts.append(counts[-1] * max(1, round(_TAU * r / counts[-1])))
    return counts


@_register("polar")
def polar_grid(rings: int) -> Grid:
    """The polar (theta) grid: a centre cell inside rings of cells, each one unit deep.

    ``rings`` counts the centre cell (a disc of radius 1) as the first ring, so the
    grid's radius is ``rings`` units. Ring ``r`` lies between radii ``r`` and
    ``r + 1``; :func:`polar_counts` gives its number of cells (6 in ring 1). Cells are
    numbered ring by ring from the centre (id 0) outwards; within a ring, from angle 0
    (east of the centre) clockwise on the page (``y`` down). A cell's neighbours are
    the cells either side of it in its ring, the cell inward that it grew from (whose
    angles contain its own) and the cells outward that grew from it. The arcs of walls
    and polygons are polylines whose chords stay within :data:`CHORD_ERROR` of the
    circle.

    Parameters
    ----------
    rings : int
        Rings, the centre cell included (at least 1: the centre alone).

    Returns
    -------
    Grid
        Its drawing is ``2 * rings`` square, the centre at ``(rings, rings)``.

    Raises
    ------
    MazeartError
        For fewer than one ring, or more cells than ``max_cells``.

    Examples
    --------
    >>> g = polar_grid(3)
    >>> g.n_cells, g.size
    (19, (6.0, 6.0))
    >>> g.neighbours(0).tolist(), sorted(g.neighbours(1).tolist())
    ([1, 2, 3, 4, 5, 6], [0, 2, 6, 7, 8])
    """
    rings = check_int(rings, "rings")
    cap = current().max_cells
    counts = polar_counts(rings) if rings * rings <= cap else []  # it has over rings² cells
    if not counts or sum(counts) > cap:
        raise MazeartError(
            f"the polar grid of {rings:,} rings would have more than max_cells {cap:,} cells "
            "(raise max_cells to allow it)"
        )
    cx = cy = float(rings)
    firsts = np.concatenate([[0], np.cumsum(counts)]).tolist()

    def point(radius: float, j: int, n: int) -> tuple[float, float]:
        """The point at ``radius`` and angle ``2 pi j / n`` (computed the same way for
        every cell that shares it, so shared corners are equal)."""
        angle = _TAU * ((j % n) / n)
        return cx + radius * math.cos(angle), cy + radius * math.sin(angle)

    def arc(radius: float, j: int, n: int) -> NDArray[np.float64]:
        """The arc at ``radius`` from angle ``2 pi j / n`` to ``2 pi (j + 1) / n``."""
        step = 2.0 * math.acos(1.0 - CHORD_ERROR / radius)
        pieces = int((_TAU / n) // step) + 1
        angles = _TAU * (j + np.linspace(0.0, 1.0, pieces + 1)) / n
        out = np.stack([cx + radius * np.cos(angles), cy + radius * np.sin(angles)], axis=1)
        out[0], out[-1] = point(radius, j, n), point(radius, j + 1, n)
        return out

    # The inner arc of every cell outside the centre, shared with the cell it grew from.
    inner = [
        [arc(float(r), k, counts[r]) for k in range(counts[r] if r else 0)] for r in range(rings)
    ]
    centres = np.empty((sum(counts), 2))
    centres[0] = cx, cy
    if rings == 1:
        sides: list[list[Side]] = [[(-1, arc(1.0, k, 6)) for k in range(6)]]
    else:
        sides = [[(firsts[1] + k, inner[1][k]) for k in range(counts[1])]]
    for r in range(1, rings):
        n = counts[r]
        outer = counts[r + 1] // n if r + 1 < rings else 0
        for k in range(n):
            mid = _TAU * (k + 0.5) / n
            centres[firsts[r] + k] = cx + (r + 0.5) * math.cos(mid), cy + (r + 0.5) * math.sin(mid)
            if outer:
                around: list[Side] = [
                    (firsts[r + 1] + k * outer + i, inner[r + 1][k * outer + i])
                    for i in range(outer)
                ]
            else:
                around = [(-1, arc(r + 1.0, k, n))]
            sides.append([
                *around,
                (firsts[r] + (k + 1) % n, _line(point(r + 1.0, k + 1, n), point(r, k + 1, n))),
                (firsts[r - 1] + k * counts[r - 1] // n, inner[r][k][::-1]),
                (firsts[r] + (k - 1) % n, _line(point(r, k, n), point(r + 1.0, k, n))),
            ])  # fmt: skip
    return _assemble("polar", {"rings": rings}, centres, sides, (2.0 * rings, 2.0 * rings))


@_register("upsilon")
def upsilon_grid(rows: int, cols: int) -> Grid:
    """The upsilon grid: regular octagons and squares, as on a checkerboard.

    Cell ``(r, c)`` (id ``r * cols + c``, centred one unit from the next cell in its
    row or column) is an octagon when ``r + c`` is even and a square otherwise. An
    octagon's straight sides face the four squares beside, above and below it, its
    slanted sides the four octagons diagonally next to it; a square's four sides face
    octagons. Octagon and square have sides of ``2 - sqrt(2)`` (about 0.59) units.

    Parameters
    ----------
    rows, cols : int
        Rows and columns of cells (at least 1 each).

    Returns
    -------
    Grid
        Its drawing is about ``cols + 0.41`` wide and ``rows + 0.41`` tall.

    Raises
    ------
    MazeartError
        For fewer than one row or column, or more cells than ``max_cells``.

    Examples
    --------
    >>> g = upsilon_grid(3, 3)
    >>> sorted(g.neighbours(4).tolist()), g.neighbours(1).tolist()
    ([0, 1, 2, 3, 5, 6, 7, 8], [0, 2, 4])
    >>> len(g.polygon(4)), len(g.polygon(1))
    (8, 4)
    """
    rows, cols = _check_size(rows, cols, "upsilon")
    d = math.sqrt(2.0) - 1.0  # an octagon's corner cut, one unit across and down

    def cell(r: int, c: int) -> int:
        return r * cols + c if 0 <= r < rows and 0 <= c < cols else -1

    centres = np.empty((rows * cols, 2))
    sides: list[list[Side]] = []
    for r in range(rows):
        for c in range(cols):
            centres[r * cols + c] = c + 0.5 * (1.0 + d), r + 0.5 * (1.0 + d)
            x0, x1, x2, x3 = float(c), c + d, float(c + 1), (c + 1) + d
            y0, y1, y2, y3 = float(r), r + d, float(r + 1), (r + 1) + d
            if (r + c) % 2 == 0:
                sides.append([
                    (cell(r - 1, c), _line((x1, y0), (x2, y0))),
                    (cell(r - 1, c + 1), _line((x2, y0), (x3, y1))),
                    (cell(r, c + 1), _line((x3, y1), (x3, y2))),
                    (cell(r + 1, c + 1), _line((x3, y2), (x2, y3))),
                    (cell(r + 1, c), _line((x2, y3), (x1, y3))),
                    (cell(r + 1, c - 1), _line((x1, y3), (x0, y2))),
                    (cell(r, c - 1), _line((x0, y2), (x0, y1))),
                    (cell(r - 1, c - 1), _line((x0, y1), (x1, y0))),
                ])  # fmt: skip
            else:
                sides.append([
                    (cell(r - 1, c), _line((x1, y1), (x2, y1))),
                    (cell(r, c + 1), _line((x2, y1), (x2, y2))),
                    (cell(r + 1, c), _line((x2, y2), (x1, y2))),
                    (cell(r, c - 1), _line((x1, y2), (x1, y1))),
                ])  # fmt: skip
    return _assemble("upsilon", {"rows": rows, "cols": cols}, centres, sides)
