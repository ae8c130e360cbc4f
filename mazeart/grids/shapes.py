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
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from mazeart._limits import GRID_COST, check_cells, current, grid_cap
from mazeart.errors import MazeartError, check_int
from mazeart.grids.core import GRIDS, LATTICES, Grid, Lattice, LatticeGrid, PolarGrid, _pairs

__all__ = ["CHORD_ERROR", "hex_grid", "polar_counts", "polar_grid", "triangle_grid", "upsilon_grid"]

CHORD_ERROR = 0.01
"""The most a polar grid's arcs, drawn as polylines, stray from the true circle (units)."""

_SQRT3 = math.sqrt(3.0)
_TAU = 2.0 * math.pi


def _register(kind: str) -> Callable[[Callable[..., Grid]], Callable[..., Grid]]:
    def add(builder: Callable[..., Grid]) -> Callable[..., Grid]:
        GRIDS[kind] = builder
        return builder

    return add


def _cells(r: NDArray[np.int64], c: NDArray[np.int64], rows: int, cols: int) -> NDArray[np.int64]:
    """The ids of cells ``(r, c)`` (broadcast together), ``-1`` for those outside the grid."""
    inside = (r >= 0) & (r < rows) & (c >= 0) & (c < cols)
    return np.where(inside, r * cols + c, -1)


Steps = Callable[[Any, Any], list[tuple[Any, Any]]]
"""For cells whose rows and columns have parities ``p`` and ``q`` (ints, or arrays that
broadcast together), the step ``(dr, dc)`` to the cell beyond each of their sides."""


class _Sides:
    """How the sides of a grid's cells run, for :func:`_beyond` and :func:`_assemble`.

    ``steps(p, q)`` gives each side's step to the cell beyond it (in order round the
    cell), ``kind(p, q)`` the type of the cell (a row of the tables), both for cells of
    row and column parities ``p`` and ``q``. Per type: ``order`` has the sides in
    increasing order of the cells beyond them (where those are cells), ``twin`` the
    side of the cell beyond that is the same wall and ``twin_kind`` that cell's type,
    ``sides`` the number of sides (those past it are unused slots).
    """

    def __init__(
        self,
        steps: Steps,
        kind: Callable[[Any, Any], Any],
        order: list[list[int]],
        twin: list[list[int]],
        twin_kind: list[list[int]],
        sides: list[int],
    ) -> None:
        self.steps, self.kind = steps, kind
        self.order, self.sides = np.array(order), np.array(sides)
        self.k = self.order.shape[1]
        rank = np.argsort(self.order, axis=1)  # each side's place in the order
        # The twin of the side in each place, as a place in the other cell's order.
        self.twin = np.array([
            [rank[twin_kind[t][j], twin[t][j]] for j in self.order[t]]
            for t in range(len(order))
        ])  # fmt: skip
        # Each candidate wall of a cell: k sides to the outside (in order round the
        # cell), then k sides to higher cells (in increasing order): its side, and the
        # side after it.
        self.slot = np.concatenate([np.broadcast_to(np.arange(self.k), self.order.shape),
                                    self.order], axis=1)  # fmt: skip
        self.after = np.where(self.slot + 1 == self.sides[:, None], 0, self.slot + 1)


def _beyond(
    rows: int, cols: int, sides: _Sides
) -> tuple[NDArray[np.integer[Any]], NDArray[np.bool_]]:
    """The cells beyond the sides of every cell, as ``(rows * cols, k)`` tables: ``near``,
    the cells beyond in increasing order (``-1`` for the outside), and ``outside``,
    whether each side (in order round the cell) is on the outside. Of int32 when the
    ids fit. Steps must depend only on the parities and go at most one row and one
    column away."""
    k = sides.k
    kind = np.int32 if rows * cols < 2**31 - cols - 1 else np.int64  # ids and their steps
    near = np.empty((rows, cols, k), kind)
    outside = np.zeros((rows, cols, k), bool)
    ids = np.arange(rows * cols, dtype=kind).reshape(rows, cols, 1)
    for p in (0, 1):
        for q in (0, 1):
            steps = sides.steps(p, q)
            delta = [steps[j][0] * cols + steps[j][1] for j in sides.order[int(sides.kind(p, q))]]
            np.add(ids[p::2, q::2], np.array(delta, kind), out=near[p::2, q::2])
    # Only the cells on the edge have sides to the outside: those again, checked.
    every_r, every_c = np.arange(rows), np.arange(cols)
    edges = ([0], every_c), ([rows - 1], every_c), (every_r, [0]), (every_r, [cols - 1])
    for pick_r, pick_c in edges:
        r, c = np.asarray(pick_r)[:, None], np.asarray(pick_c)[None, :]
        ring = np.stack([_cells(r + dr, c + dc, rows, cols)
                         for dr, dc in sides.steps(r % 2, c % 2)], axis=2)  # fmt: skip
        ring = np.broadcast_to(ring, (len(pick_r), len(pick_c), k))
        outside[r, c] = ring == -1
        order = sides.order[np.broadcast_to(sides.kind(r % 2, c % 2), ring.shape[:2])]
        near[r, c] = np.take_along_axis(ring, order, axis=2)
    return near.reshape(-1, k), outside.reshape(-1, k)


def _assemble(
    kind: str,
    params: dict[str, int],
    centres: NDArray[np.float64],
    starts: NDArray[np.float64],
    near: NDArray[np.integer[Any]],
    outside: NDArray[np.bool_],
    types: NDArray[np.int64] | None,
    sides: _Sides,
) -> Grid:
    """The grid whose cells are bounded by straight sides, ``k`` a cell at most.

    ``starts`` has the start of each side, cell by cell, as many a cell as it has sides;
    each side runs to the start of the cell's next side (its first after its last).
    ``near[i]`` has the cells beyond cell ``i``'s sides in increasing order (as in
    ``sides.order``; ``-1`` for the outside, ``-2`` for places past its sides) and
    ``outside[i, j]`` whether its side ``j`` is on the outside. A cell's polygon is its
    sides' starts in order. Each wall is taken once, from the cell with the lower id (or
    the only cell, on the outside), and the walls are numbered cell by cell, each
    cell's boundary walls first (in order round it), then its walls to higher cells in
    increasing order of those cells. The drawing is moved so that it starts at
    ``(0, 0)`` and ends at its size. A cell's type (``types[i]``, all 0 for ``None``)
    picks a row of the tables of ``sides``.
    """
    n, k = near.shape
    cells = np.arange(n, dtype=near.dtype)
    counts = np.full(n, sides.sides[0]) if types is None else np.take(sides.sides, types)
    taken = np.empty((n, 2 * k), bool)
    taken[:, :k] = outside
    np.greater(near, cells[:, None], out=taken[:, k:])
    pick = np.flatnonzero(taken)
    n_walls = len(pick)
    owner = pick // (2 * k)
    column = pick - owner * (2 * k)
    candidate = column if types is None else column + np.take(types, owner) * (2 * k)
    cell_ptr = np.zeros(n + 1, np.int64)
    np.cumsum(counts, out=cell_ptr[1:])
    first = owner * k if sides.sides.min() == k else np.take(cell_ptr, owner)
    chosen = np.take(sides.slot, candidate) + first
    following = np.take(sides.after, candidate) + first
    low, high = _bounds(starts)
    if low.any():
        centres, starts = centres - low, starts - low
    ends = np.empty(2 * n_walls, np.int64)
    ends[0::2], ends[1::2] = chosen, following
    wall_points = np.empty((2 * n_walls, 2))
    np.take(_pairs(starts), ends, out=_pairs(wall_points), mode="clip")
    # The walls to other cells: their places in the owner's order and the other
    # cell's, which share the wall's id.
    inner = np.flatnonzero(column >= k)
    lower = np.take(owner, inner)
    place = np.take(column, inner) - k
    mine = lower * k + place
    other = np.take(near.reshape(-1), mine)
    wall_cells = np.full((n_walls, 2), -1, np.int32)
    wall_cells[:, 0] = owner
    wall_cells[inner, 1] = other
    if types is not None:
        place += np.take(types, lower) * k
    wall_id = np.empty(n * k, near.dtype)
    wall_id[mine] = inner
    wall_id[other.astype(np.int64) * k + np.take(sides.twin, place)] = inner
    has = near >= 0
    degree = np.zeros(n, np.int64)
    for j in range(k):
        degree += has[:, j]
    indptr = np.zeros(n + 1, np.int64)
    np.cumsum(degree, out=indptr[1:])
    return Grid(
        kind=kind,
        params=params,
        centres=centres,
        indptr=indptr,
        indices=near[has].astype(np.int32, copy=False),
        wall_of=wall_id.reshape(n, k)[has].astype(np.int32, copy=False),
        wall_cells=wall_cells,
        wall_ptr=2 * np.arange(n_walls + 1, dtype=np.int64),
        wall_points=wall_points,
        cell_ptr=cell_ptr,
        cell_points=starts,
        size=(float(high[0] - low[0]), float(high[1] - low[1])),
    )


def _bounds(points: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The lowest and highest ``x`` and ``y`` of ``(m, 2)`` points (fast: in long rows)."""
    flat = points.reshape(-1)
    cut = len(flat) - len(flat) % 2048
    head = flat[:cut].reshape(-1, 2048)
    low = np.concatenate([head.min(axis=0), flat[cut:]]) if cut else flat
    high = np.concatenate([head.max(axis=0), flat[cut:]]) if cut else flat
    return low.reshape(-1, 2).min(axis=0), high.reshape(-1, 2).max(axis=0)


_HEX = _Sides(
    lambda p, q: [(-1, p), (0, 1), (1, p), (1, p - 1), (0, -1), (-1, p - 1)],
    lambda p, q: 0 * (p + q),
    order=[[5, 0, 4, 1, 3, 2]],
    twin=[[3, 4, 5, 0, 1, 2]],
    twin_kind=[[0] * 6],
    sides=[6],
)
"""Hexagons: from the top corner round; odd rows (``p``) sit half a cell right."""


def _triangle_steps(p: Any, q: Any) -> list[tuple[Any, Any]]:
    down = (p + q) % 2
    return [(-down, 1 - down), (1 - down, down), (0, -1)]


_TRIANGLE = _Sides(
    _triangle_steps,
    lambda p, q: (p + q) % 2,
    order=[[2, 0, 1], [0, 2, 1]], twin=[[2, 0, 1], [1, 2, 0]],
    twin_kind=[[1, 1, 1], [0, 0, 0]], sides=[3, 3],
)  # fmt: skip
"""Triangles pointing up (type 0: from the apex, right, bottom, left) and down (type 1:
top, right, left)."""


def _upsilon_steps(p: Any, q: Any) -> list[tuple[Any, Any]]:
    octagon = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)]
    square = [(-1, 0), (0, 1), (1, 0), (0, -1)] + [(0, 0)] * 4
    odd = (p + q) % 2
    return [(np.where(odd, s[0], o[0]), np.where(odd, s[1], o[1]))
            for o, s in zip(octagon, square, strict=True)]  # fmt: skip


_UPSILON = _Sides(
    _upsilon_steps,
    lambda p, q: (p + q) % 2,
    order=[[7, 0, 1, 6, 2, 5, 4, 3], [0, 3, 1, 2, 4, 5, 6, 7]],
    twin=[[2, 5, 3, 7, 0, 1, 1, 3], [4, 6, 0, 2, 0, 0, 0, 0]],
    twin_kind=[[1, 0, 1, 0, 1, 0, 1, 0], [0] * 8], sides=[8, 4],
)  # fmt: skip
"""Octagons (type 0: from the left end of the top round) and squares (type 1: from the
top left corner, four unused slots)."""


def _check_size(rows: int, cols: int, kind: str) -> tuple[int, int]:
    rows, cols = check_int(rows, "rows"), check_int(cols, "cols")
    check_cells(rows, cols, f"the {kind} grid", kind=kind)
    return rows, cols


@_register("hex")
def hex_grid(rows: int, cols: int) -> LatticeGrid:
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
    LatticeGrid
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
    return LatticeGrid("hex", rows, cols)


def _hex_arrays(rows: int, cols: int) -> Grid:
    pitch = _SQRT3 / 2.0
    half = 0.5 / _SQRT3  # the height of a hexagon's slanted sides
    r = np.arange(rows, dtype=np.int64)[:, None]
    c = np.arange(cols, dtype=np.int64)
    top, upper, lower, bottom = r * pitch, r * pitch + half, (r + 1) * pitch, (r + 1) * pitch + half
    centres = np.empty((rows, cols, 2))
    centres[:, :, 1] = r * pitch + 2.0 * half
    # Each side's start, round the cell from its top corner: x by the row's parity
    # (odd rows half a cell right), y by row.
    starts = np.empty((rows * cols * 6, 2))
    corner = starts.reshape(rows, cols, 6, 2)
    for odd in (0, 1):
        left = c + 0.5 * odd
        mid, right = left + 0.5, left + 1.0
        centres[odd::2, :, 0] = mid
        corner[odd::2, :, :, 0] = np.stack([mid, right, right, mid, left, left], axis=1)
    corner[:, :, :, 1] = np.stack([top, upper, lower, bottom, lower, upper], axis=2)
    near, outside = _beyond(rows, cols, _HEX)
    return _assemble(
        "hex", {"rows": rows, "cols": cols}, centres.reshape(-1, 2), starts, near, outside,
        None, _HEX,
    )  # fmt: skip


@_register("triangle")
def triangle_grid(rows: int, cols: int) -> LatticeGrid:
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
    LatticeGrid
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
    return LatticeGrid("triangle", rows, cols)


def _triangle_arrays(rows: int, cols: int) -> Grid:
    pitch = _SQRT3 / 2.0
    r = np.arange(rows, dtype=np.int64)[:, None]
    c = np.arange(cols, dtype=np.int64)
    top, bottom = r * pitch, (r + 1) * pitch
    left, mid, right = c / 2.0, c / 2.0 + 0.5, c / 2.0 + 1.0
    centres = np.empty((rows, cols, 2))
    centres[:, :, 0] = mid
    starts = np.empty((rows * cols * 3, 2))
    corner = starts.reshape(rows, cols, 3, 2)
    # Cell (r, c) points up when r + c is even (its horizontal side below): its sides
    # from the apex, right, bottom, left; pointing down: top, right, left.
    for p in (0, 1):
        for q in (0, 1):
            block, at = (slice(p, None, 2), slice(q, None, 2)), slice(q, None, 2)
            if (p + q) % 2 == 0:
                centres[(*block, 1)] = top[p::2] + 2.0 * pitch / 3.0
                corner[(*block, slice(None), 0)] = np.stack([mid[at], right[at], left[at]], 1)
                corner[(*block, slice(None), 1)] = np.stack([top, bottom, bottom], 2)[p::2]
            else:
                centres[(*block, 1)] = top[p::2] + pitch / 3.0
                corner[(*block, slice(None), 0)] = np.stack([left[at], right[at], mid[at]], 1)
                corner[(*block, slice(None), 1)] = np.stack([top, top, bottom], 2)[p::2]
    down = (np.arange(rows)[:, None] + np.arange(cols)) % 2
    near, outside = _beyond(rows, cols, _TRIANGLE)
    return _assemble(
        "triangle", {"rows": rows, "cols": cols}, centres.reshape(-1, 2), starts, near,
        outside, down.reshape(-1), _TRIANGLE,
    )  # fmt: skip


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
def polar_grid(rings: int) -> PolarGrid:
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
    PolarGrid
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
    cap = grid_cap("polar")
    counts = polar_counts(rings) if rings * rings <= cap else []  # it has over rings² cells
    if not counts or sum(counts) > cap:
        raise MazeartError(
            f"the polar grid of {rings:,} rings would have more than {cap:,} cells, what "
            f"max_cells {current().max_cells:,} allows on it, where a cell costs "
            f"{GRID_COST['polar']} square ones (raise max_cells to allow it)"
        )
    return PolarGrid(rings, counts, _polar_arrays)


def _polar_arrays(rings: int) -> Grid:
    counts = polar_counts(rings)
    cx = cy = float(rings)
    firsts = np.concatenate([[0], np.cumsum(counts)]).tolist()
    turns: dict[int, tuple[NDArray[np.float64], NDArray[np.float64]]] = {}
    middles: dict[int, tuple[NDArray[np.float64], NDArray[np.float64]]] = {}

    def corners(radius: float, n: int) -> NDArray[np.complex128]:
        """The points at ``radius`` and angles ``2 pi j / n`` for ``j`` from 0 to ``n``, as
        ``x + iy`` (computed the same way for every cell that shares one, so shared
        corners are equal)."""
        if n not in turns:
            angles = [_TAU * ((j % n) / n) for j in range(n + 1)]
            turns[n] = (np.array([math.cos(t) for t in angles]),
                        np.array([math.sin(t) for t in angles]))  # fmt: skip
        cos, sin = turns[n]
        out = np.empty(n + 1, np.complex128)
        out.real, out.imag = cx + radius * cos, cy + radius * sin
        return out

    def pieces(radius: float, n: int) -> int:
        """Chords in each arc of ring ``n`` cells round at ``radius``."""
        step = 2.0 * math.acos(1.0 - CHORD_ERROR / radius)
        return int((_TAU / n) // step) + 1

    def arcs(radius: float, n: int) -> NDArray[np.complex128]:
        """The arcs at ``radius`` from angle ``2 pi j / n`` to ``2 pi (j + 1) / n``, for
        every ``j`` from 0 to ``n - 1``, as ``(n, pieces + 1)`` points ``x + iy``."""
        chords = pieces(radius, n)
        ends = corners(radius, n)
        out = np.empty((n, chords + 1), np.complex128)
        out[:, 0], out[:, -1] = ends[:-1], ends[1:]
        if chords > 1:
            j = np.arange(n, dtype=np.int64)[:, None]
            angles = _TAU * (j + np.linspace(0.0, 1.0, chords + 1)[1:-1]) / n
            out.real[:, 1:-1] = cx + radius * np.cos(angles)
            out.imag[:, 1:-1] = cy + radius * np.sin(angles)
        return out

    # The sizes first: the tables are filled in place, centre first, then ring by ring.
    # Ring r's cells have outer arcs (or the rim, on the last ring), a spoke to the next
    # cell, the inner arc and a spoke to the cell before; each cell is taken the walls
    # of its outer arcs (or the rim), and of its spoke to the next cell but for the
    # last cell, whose spoke (at angle 0) is the first cell's.
    inner = [0] + [pieces(float(r), counts[r]) for r in range(1, rings)]  # inner arcs' chords
    rim = pieces(float(rings), counts[-1])
    # The centre: ring 1's inner arcs, or six arcs of the rim for the centre alone.
    arc = arcs(1.0, counts[1]) if rings > 1 else arcs(1.0, 6)
    at_wall, chords = arc.shape[0], arc.shape[1] - 1
    at_point, at_corner = at_wall * (chords + 1), at_wall * chords
    at_near = at_wall if rings > 1 else 0
    n_cells, n_walls, n_points, n_corners, n_near = 1, at_wall, at_point, at_corner, at_near
    for r in range(1, rings):
        n, last = counts[r], r == rings - 1
        m = 0 if last else counts[r + 1] // n
        beyond = rim if last else inner[r + 1]  # the outer arcs' chords
        n_cells += n
        n_walls += n * (last + 1 + m)
        n_points += n * (last * (rim + 1) + 2 + m * (beyond + 1))
        n_corners += n * ((1 if last else m) * beyond + inner[r] + 2)
        n_near += n * (3 + m)
    centres = np.empty((n_cells, 2))
    cell_points, wall_points = np.empty((n_corners, 2)), np.empty((n_points, 2))
    corner, line = _pairs(cell_points), _pairs(wall_points)
    wall_cells, wall_size = np.empty((n_walls, 2), np.int64), np.empty(n_walls, np.int64)
    indices, wall_of = np.empty(n_near, np.int64), np.empty(n_near, np.int64)
    corner_count, degree = np.empty(n_cells, np.int64), np.empty(n_cells, np.int64)
    centres[0] = cx, cy
    corner[:at_corner], line[:at_point] = arc[:, :-1].reshape(-1), arc.reshape(-1)
    wall_cells[:at_wall, 0], wall_size[:at_wall] = 0, chords + 1
    wall_cells[:at_wall, 1] = firsts[1] + np.arange(at_wall) if rings > 1 else -1
    corner_count[0], degree[0] = at_corner, at_near
    indices[:at_near], wall_of[:at_near] = firsts[1] + np.arange(at_near), np.arange(at_near)
    outs_above = np.zeros(1, np.int64)  # the first outer wall of each cell of the ring inward
    for r in range(1, rings):
        n, f, last = counts[r], firsts[r], r == rings - 1
        m = 0 if last else counts[r + 1] // n
        k = np.arange(n, dtype=np.int64)
        if n not in middles:
            half = [_TAU * (i + 0.5) / n for i in range(n)]
            middles[n] = (np.array([math.cos(t) for t in half]),
                          np.array([math.sin(t) for t in half]))  # fmt: skip
        centres[f : f + n, 0] = cx + (r + 0.5) * middles[n][0]
        centres[f : f + n, 1] = cy + (r + 0.5) * middles[n][1]
        outer = arcs(r + 1.0, n if last else counts[r + 1])  # grouped by the cell inward
        out_span = (outer.shape[0] // n) * (outer.shape[1] - 1)
        upper, lower = corners(r + 1.0, n), corners(r, n)
        # Polygons: the outer arcs, the spoke to the next cell, the inner arc backwards,
        # the spoke to the cell before (each side without its last point).
        size = out_span + inner[r] + 2
        block = corner[at_corner : at_corner + n * size].reshape(n, size)
        block[:, :out_span] = outer[:, :-1].reshape(n, out_span)
        block[:, out_span] = upper[1:]
        block[:, out_span + 1 : -1] = arc[:, :0:-1]
        block[:, -1] = lower[:-1]
        corner_count[f : f + n] = size
        at_corner += n * size
        # Walls, cell by cell: the rim (last ring), the spoke to the next cell (but for
        # the last cell), the spoke at angle 0 (the first cell), the outer arcs.
        each = last + 1 + m
        points = last * (rim + 1) + 2 + m * outer.shape[1]
        spans = [(0, 1, 1, 1), (1, n - 1, 1, 0), (n - 1, n, 0, 0)]
        w, q = at_wall, at_point
        for k0, k1, spoke, first in spans:
            count, kk = k1 - k0, k[k0:k1]
            walls_here = each - 1 + spoke + first
            cells = wall_cells[w : w + count * walls_here].reshape(count, walls_here, 2)
            sizes = wall_size[w : w + count * walls_here].reshape(count, walls_here)
            length = points + 2 * (spoke + first - 1)
            pts = line[q : q + count * length].reshape(count, length)
            cells[:, :, 0] = (f + kk)[:, None]
            col = j = 0
            if last:
                cells[:, 0, 1], sizes[:, 0] = -1, rim + 1
                pts[:, : rim + 1] = outer[k0:k1]
                col, j = rim + 1, 1
            if spoke:
                cells[:, j, 1], sizes[:, j] = f + kk + 1, 2
                pts[:, col], pts[:, col + 1] = upper[k0 + 1 : k1 + 1], lower[k0 + 1 : k1 + 1]
                col, j = col + 2, j + 1
            if first:
                cells[:, j, 1], sizes[:, j] = f + n - 1, 2
                pts[:, col], pts[:, col + 1] = lower[0], upper[0]
                col, j = col + 2, j + 1
            if m:
                cells[:, j:, 1] = firsts[r + 1] + kk[:, None] * m + np.arange(m)
                sizes[:, j:] = outer.shape[1]
                pts[:, col:] = outer[k0 * m : k1 * m].reshape(count, -1)
            w, q = w + count * walls_here, q + count * length
        # Wall ids: cell k's walls start at at_wall + k * each (+1 after the first cell).
        start = at_wall + k * each + (k > 0)
        right = start + last  # the spoke to the next cell
        right[-1] = at_wall + last + 1  # the first cell's spoke at angle 0
        outs = start + last + 1 + (k == 0) - (k == n - 1)
        # Neighbours in increasing order: inward, either side (across angle 0 the
        # other way round), outward.
        near = indices[at_near : at_near + n * (3 + m)].reshape(n, 3 + m)
        via = wall_of[at_near : at_near + n * (3 + m)].reshape(n, 3 + m)
        grown = n // counts[r - 1]
        near[:, 0], via[:, 0] = firsts[r - 1] + k // grown, outs_above[k // grown] + k % grown
        near[:, 1], near[:, 2] = f + (k - 1) % n, f + (k + 1) % n
        via[:, 1], via[:, 2] = np.roll(right, 1), right
        for row in (0, n - 1):
            near[row, 1:3], via[row, 1:3] = near[row, 2:0:-1].copy(), via[row, 2:0:-1].copy()
        if m:
            near[:, 3:] = firsts[r + 1] + k[:, None] * m + np.arange(m)
            via[:, 3:] = outs[:, None] + np.arange(m)
        degree[f : f + n] = 3 + m
        outs_above = outs
        at_wall, at_point, at_near = w, q, at_near + n * (3 + m)
        arc = outer
    cell_ptr = np.zeros(n_cells + 1, np.int64)
    np.cumsum(corner_count, out=cell_ptr[1:])
    wall_ptr = np.zeros(n_walls + 1, np.int64)
    np.cumsum(wall_size, out=wall_ptr[1:])
    indptr = np.zeros(n_cells + 1, np.int64)
    np.cumsum(degree, out=indptr[1:])
    return Grid(
        kind="polar",
        params={"rings": rings},
        centres=centres,
        indptr=indptr,
        indices=indices.astype(np.int32),
        wall_of=wall_of.astype(np.int32),
        wall_cells=wall_cells.astype(np.int32),
        wall_ptr=wall_ptr,
        wall_points=wall_points,
        cell_ptr=cell_ptr,
        cell_points=cell_points,
        size=(2.0 * rings, 2.0 * rings),
    )


@_register("upsilon")
def upsilon_grid(rows: int, cols: int) -> LatticeGrid:
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
    LatticeGrid
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
    return LatticeGrid("upsilon", rows, cols)


_CUT = math.sqrt(2.0) - 1.0
"""An upsilon octagon's corner cut, one unit across and down."""


def _upsilon_arrays(rows: int, cols: int) -> Grid:
    d = _CUT
    r = np.arange(rows, dtype=np.int64)[:, None]
    c = np.arange(cols, dtype=np.int64)
    centres = np.empty((rows, cols, 2))
    centres[:, :, 0], centres[:, :, 1] = c + 0.5 * (1.0 + d), r + 0.5 * (1.0 + d)
    x0, x1, x2, x3 = c.astype(np.float64), c + d, (c + 1).astype(np.float64), (c + 1) + d
    y0, y1, y2, y3 = r.astype(np.float64), r + d, (r + 1).astype(np.float64), (r + 1) + d
    # An octagon's sides from the left end of its top; a square's, from its top left
    # corner. Cell by cell, octagons and squares in turn: 12 points for each two cells
    # of a row, and a row of octagon first two points more when there are odd columns.
    xs = [np.stack([x1, x2, x3, x3, x2, x1, x0, x0], 1), np.stack([x1, x2, x2, x1], 1)]
    ys = [np.stack([y0, y0, y1, y2, y3, y3, y2, y1], 2), np.stack([y1, y1, y2, y2], 2)]
    n_octagons = (rows * cols + 1) // 2
    starts = np.empty((8 * n_octagons + 4 * (rows * cols - n_octagons), 2))
    second_row = 6 * cols + 2 * (cols % 2)
    for p in (0, 1):
        for q in (0, 1):
            kind, shown = (p + q) % 2, (len(range(p, rows, 2)), len(range(q, cols, 2)))
            if 0 in shown:
                continue
            start = p * second_row + 6 * q + 2 * q * (1 - 2 * p)  # cell (p, q)'s first point
            points = np.lib.stride_tricks.as_strided(
                _pairs(starts)[start:], (*shown, 8 - 4 * kind), (192 * cols, 192, 16)
            )
            points.real, points.imag = xs[kind][q::2], ys[kind][p::2]
    near, outside = _beyond(rows, cols, _UPSILON)
    for p, q in (0, 1), (1, 0):  # the squares' unused places
        near.reshape(rows, cols, 8)[p::2, q::2, 4:] = -2
    kinds = (np.arange(rows)[:, None] + np.arange(cols)).reshape(-1) % 2
    return _assemble(
        "upsilon", {"rows": rows, "cols": cols}, centres.reshape(-1, 2), starts, near,
        outside, kinds, _UPSILON,
    )  # fmt: skip


def _lattice_steps(sides: _Sides, mixed: bool) -> list[list[tuple[int, int]]]:
    """The steps of :class:`~mazeart.grids.core.Lattice` from a grid's sides: per type of
    cell on the framed grid (one row and column in, so a row's parity turns over), each
    neighbour's step, in increasing order of the neighbours."""
    out = []
    for t in (0, 1):
        p = t if mixed else 1 - t  # a grid cell of framed type t, its column even
        kind = int(sides.kind(p, 0))
        steps = [(int(dr), int(dc)) for dr, dc in sides.steps(p, 0)][: int(sides.sides[kind])]
        out.append(sorted(steps))
    return out


def _upsilon_size(rows: int, cols: int) -> tuple[float, float]:
    # The first cell is an octagon; the last row and column reach one cut further where
    # they hold an octagon.
    wide = cols + _CUT if rows > 1 or (cols - 1) % 2 == 0 else float(cols)
    tall = rows + _CUT if cols > 1 or (rows - 1) % 2 == 0 else float(rows)
    return wide, tall


LATTICES["hex"] = Lattice(
    _lattice_steps(_HEX, False), False,
    lambda rows, cols: (cols + 0.5 if rows > 1 else float(cols),
                        rows * (_SQRT3 / 2.0) + 0.5 / _SQRT3),
    _hex_arrays,
)  # fmt: skip
LATTICES["triangle"] = Lattice(
    _lattice_steps(_TRIANGLE, True), True,
    lambda rows, cols: ((cols + 1) / 2.0 if cols > 1 else 1.0, rows * (_SQRT3 / 2.0)),
    _triangle_arrays,
)  # fmt: skip
LATTICES["upsilon"] = Lattice(_lattice_steps(_UPSILON, True), True, _upsilon_size, _upsilon_arrays)
