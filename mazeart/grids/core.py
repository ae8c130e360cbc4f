"""Grids: which cells a maze has, which are neighbours, and the shape of every cell and wall.

A :class:`Grid` is plain arrays, the same for every kind of grid:

- ``centres`` ``(n, 2)``: each cell's centre, ``x`` across and ``y`` down, in
  drawing units (a square cell is one unit wide; other grids keep their cells
  about that size);
- a neighbour table in CSR form (``indptr``, ``indices``): the neighbours of
  cell ``i`` are ``indices[indptr[i]:indptr[i + 1]]``, and ``wall_of`` gives,
  for each of those entries, the wall the two cells share;
- walls: ``wall_cells`` ``(n_walls, 2)`` names the two cells on either side of
  each wall (``-1`` for the outside: the grid's boundary walls), and each wall
  is a polyline, ``wall_points[wall_ptr[w]:wall_ptr[w + 1]]`` (two points for a
  straight side, more along a polar grid's arcs);
- cells: each cell's outline as a closed polygon,
  ``cell_points[cell_ptr[i]:cell_ptr[i + 1]]``, whose boundary is exactly its
  walls.

The graph algorithms run on the neighbour table, the image sampler on the
polygons, the drawing on the walls. Builders: :func:`square_grid`, and the
grids of :mod:`mazeart.grids.shapes` (hex, triangle, polar, upsilon), all
listed in :data:`GRIDS`.

A grid built by :func:`make_grid` holds none of these arrays until a reader asks
for one: the square grid (:class:`SquareGrid`) and the lattices whose steps follow
from a cell's row and column (:class:`LatticeGrid`: hex, triangle, upsilon) are
their parameters, and the kernels carve them by arithmetic, so a maze of a
million cells on them is made without a neighbour table; the polar grid
(:class:`PolarGrid`) computes its kernels' table from its rings' counts.

>>> g = square_grid(2, 3)
>>> g.n_cells, g.n_walls, g.neighbours(0).tolist()
(6, 17, [1, 3])
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mazeart.errors import MazeartError, check_int

__all__ = [
    "GRIDS",
    "LATTICES",
    "Grid",
    "Lattice",
    "LatticeGrid",
    "PolarGrid",
    "SquareGrid",
    "grid_from_arrays",
    "grid_from_pairs",
    "make_grid",
    "square_grid",
]


def _frozen(a: Any, dtype: Any) -> NDArray[Any]:
    out = np.ascontiguousarray(a, dtype=dtype)
    if out.base is not None or not out.flags.owndata:
        out = out.copy()
    out.flags.writeable = False
    return out


@dataclass(frozen=True, eq=False)
class Grid:
    """Cells, neighbours, cell outlines and walls of one grid (see the module's text).

    Attributes
    ----------
    kind : str
        ``'square'``, ``'hex'``, ``'triangle'``, ``'polar'``, ``'upsilon'``.
    params : mapping
        What rebuilds it with :func:`make_grid` (``rows``, ``cols``, ``rings``, ...).
    centres : (n, 2) ndarray of float64
    indptr : (n + 1,) ndarray of int64
    indices : (2 * n_inner_walls,) ndarray of int32
    wall_of : (2 * n_inner_walls,) ndarray of int32
    wall_cells : (n_walls, 2) ndarray of int32
        The two cells of each wall, the lower id first; ``-1`` second for a
        boundary wall.
    wall_ptr : (n_walls + 1,) ndarray of int64
    wall_points : (P, 2) ndarray of float64
    cell_ptr : (n + 1,) ndarray of int64
    cell_points : (Q, 2) ndarray of float64
    size : (float, float)
        Width and height of the drawing area ``[0, width] x [0, height]``.
    """

    kind: str
    params: Mapping[str, Any]
    centres: NDArray[np.float64]
    indptr: NDArray[np.int64]
    indices: NDArray[np.int32]
    wall_of: NDArray[np.int32]
    wall_cells: NDArray[np.int32]
    wall_ptr: NDArray[np.int64]
    wall_points: NDArray[np.float64]
    cell_ptr: NDArray[np.int64]
    cell_points: NDArray[np.float64]
    size: tuple[float, float]
    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))
        for name, dtype in (
            ("centres", np.float64), ("indptr", np.int64), ("indices", np.int32),
            ("wall_of", np.int32), ("wall_cells", np.int32), ("wall_ptr", np.int64),
            ("wall_points", np.float64), ("cell_ptr", np.int64), ("cell_points", np.float64),
        ):  # fmt: skip
            object.__setattr__(self, name, _frozen(getattr(self, name), dtype))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle by the fields, without the cache (batch work sends grids between processes)."""
        names = ("centres", "indptr", "indices", "wall_of", "wall_cells", "wall_ptr",
                 "wall_points", "cell_ptr", "cell_points", "size")  # fmt: skip
        return (Grid, (self.kind, dict(self.params), *(getattr(self, n) for n in names)))

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v}" for k, v in self.params.items())
        return f"Grid({self.kind}: {shown}; {self.n_cells} cells)"

    @property
    def n_cells(self) -> int:
        """Number of cells."""
        return len(self.centres)

    @property
    def n_walls(self) -> int:
        """Number of walls, boundary walls included."""
        return len(self.wall_cells)

    def neighbours(self, cell: int) -> NDArray[np.int32]:
        """The neighbours of ``cell``, in the grid's order."""
        return self.indices[self.indptr[cell] : self.indptr[cell + 1]]

    def neighbour_graph(self, cells: NDArray[np.bool_]) -> Any:
        """The neighbour table between ``cells`` (a bool a cell) as a scipy sparse matrix,
        for scipy's graph searches (the row of each table entry is kept once made)."""
        from scipy.sparse import csr_matrix

        rows = self._cache.get("neighbour_rows")
        if rows is None:
            rows = self._cache["neighbour_rows"] = np.repeat(
                np.arange(self.n_cells), np.diff(self.indptr)
            )
        on = cells[rows] & cells[self.indices]
        n = self.n_cells
        kept = np.zeros(on.size + 1, np.int64)  # the table's own order: already a CSR's rows
        np.cumsum(on, out=kept[1:])
        return csr_matrix((np.ones(int(kept[-1])), self.indices[on], kept[self.indptr]),
                          shape=(n, n))  # fmt: skip

    def polygon(self, cell: int) -> NDArray[np.float64]:
        """The outline of ``cell`` as ``(k, 2)`` points (closed: the last joins the first)."""
        return self.cell_points[self.cell_ptr[cell] : self.cell_ptr[cell + 1]]

    def wall(self, w: int) -> NDArray[np.float64]:
        """Wall ``w`` as a polyline of ``(k, 2)`` points."""
        return self.wall_points[self.wall_ptr[w] : self.wall_ptr[w + 1]]

    def wall_between(self, a: int, b: int) -> int:
        """The wall cells ``a`` and ``b`` share (``-1`` for the outside as ``b``: one of
        ``a``'s boundary walls).

        Raises
        ------
        MazeartError
            If they are not neighbours.
        """
        if b < 0:
            walls = np.flatnonzero((self.wall_cells[:, 0] == a) & (self.wall_cells[:, 1] < 0))
            if walls.size:
                return int(walls[0])
        else:
            lo, hi = self.indptr[a], self.indptr[a + 1]
            hit = np.flatnonzero(self.indices[lo:hi] == b)
            if hit.size:
                return int(self.wall_of[lo + hit[0]])
        raise MazeartError(f"cells {a} and {b} are not neighbours in the {self.kind} grid")

    def walls_between(self, pairs: ArrayLike) -> NDArray[np.intp]:
        """The walls between the ``(K, 2)`` pairs of neighbouring cells (whole arrays).

        Raises
        ------
        MazeartError
            If a pair are not neighbours.
        """
        ends = np.asarray(pairs, np.int64).reshape(-1, 2)
        walls, found = self.find_walls(ends)
        if not found.all():
            a, b = ends[np.flatnonzero(~found)[0]]
            raise MazeartError(f"cells {a} and {b} are not neighbours in the {self.kind} grid")
        return walls

    def find_walls(self, pairs: ArrayLike) -> tuple[NDArray[np.intp], NDArray[np.bool_]]:
        """The wall between each of the ``(K, 2)`` pairs of cells (either way round; ``-1``
        where there is none) and whether the pair are neighbours, by whole arrays."""
        ends = np.asarray(pairs, np.int64).reshape(-1, 2)
        n = self.n_cells
        cells = self.wall_cells.astype(np.int64)
        inner = np.flatnonzero(cells[:, 1] >= 0)
        keys = cells[inner, 0] * n + cells[inner, 1]  # a wall's lower cell is its first
        order = np.argsort(keys)
        asked = ends.min(axis=1) * n + ends.max(axis=1)
        at = np.minimum(np.searchsorted(keys, asked, sorter=order), max(keys.size - 1, 0))
        if keys.size == 0:
            return np.full(len(ends), -1, np.intp), np.zeros(len(ends), bool)
        found = (keys[order[at]] == asked) & (ends[:, 0] != ends[:, 1])
        return np.where(found, inner[order[at]], -1).astype(np.intp), found

    def boundary_walls(self) -> NDArray[np.intp]:
        """Ids of the walls on the grid's outside."""
        return np.flatnonzero(self.wall_cells[:, 1] < 0)

    def cell_at(self, x: float, y: float) -> int:
        """The cell whose centre is nearest ``(x, y)``."""
        d = np.hypot(self.centres[:, 0] - x, self.centres[:, 1] - y)
        return int(np.argmin(d))


def grid_from_pairs(
    kind: str,
    params: Mapping[str, Any],
    centres: NDArray[np.float64],
    polygons: list[NDArray[np.float64]],
    walls: list[tuple[int, int, NDArray[np.float64]]],
    size: tuple[float, float],
) -> Grid:
    """A :class:`Grid` from its cells' centres and polygons and its walls as
    ``(cell, cell or -1, polyline)``: the neighbour table is derived.

    Parameters
    ----------
    kind, params, size
        As the :class:`Grid` attributes.
    centres : (n, 2) array_like of float
    polygons : list of (k, 2) arrays
        Each cell's outline.
    walls : list of (int, int, (m, 2) array)
        Every wall once: its two cells (``-1`` for the outside) and its polyline.

    Returns
    -------
    Grid
    """
    cells = np.array([(a, b) for a, b, _ in walls], dtype=np.int64).reshape(-1, 2)
    lines = [np.asarray(w[2], np.float64).reshape(-1, 2) for w in walls]
    wall_ptr = np.zeros(len(lines) + 1, np.int64)
    wall_ptr[1:] = np.cumsum([len(x) for x in lines])
    cell_ptr = np.zeros(len(polygons) + 1, np.int64)
    cell_ptr[1:] = np.cumsum([len(p) for p in polygons])
    return grid_from_arrays(
        kind, params, centres, cell_ptr,
        np.concatenate([np.asarray(p, np.float64) for p in polygons]) if polygons
        else np.zeros((0, 2)),
        cells[:, 0], cells[:, 1], (wall_ptr, np.concatenate(lines) if lines else np.zeros((0, 2))),
        size,
    )  # fmt: skip


def grid_from_arrays(
    kind: str,
    params: Mapping[str, Any],
    centres: ArrayLike,
    cell_ptr: ArrayLike,
    cell_points: ArrayLike,
    wall_a: ArrayLike,
    wall_b: ArrayLike,
    wall_lines: Any,
    size: tuple[float, float],
) -> Grid:
    """A :class:`Grid` from whole arrays: its cells' centres and outlines (ragged rows of
    ``cell_points``), and each wall's two cells (``-1`` for the outside, either side) and
    line, as ``(K, 2, 2)`` segments or ``(wall_ptr, wall_points)`` polylines. The walls
    are put in the grid's order (by lower cell, then the other, the outside first) and the
    neighbour table derived.

    Returns
    -------
    Grid
    """
    n = len(np.asarray(centres).reshape(-1, 2))
    a, b = np.asarray(wall_a, np.int64).reshape(-1), np.asarray(wall_b, np.int64).reshape(-1)
    both = (a >= 0) & (b >= 0)
    lo = np.where(both, np.minimum(a, b), np.maximum(a, b))  # the outside (-1) second
    hi = np.where(both, np.maximum(a, b), -1)
    cells = np.stack([lo, hi], axis=1).astype(np.int32)
    order = np.lexsort((cells[:, 1], cells[:, 0]))
    cells = cells[order]
    if isinstance(wall_lines, tuple):
        ptr, points = (np.asarray(x) for x in wall_lines)
        lens = np.diff(ptr)[order]
        take = np.repeat(ptr[:-1][order] - np.concatenate([[0], np.cumsum(lens)[:-1]]), lens)
        wall_points = np.asarray(points, np.float64).reshape(-1, 2)[take + np.arange(lens.sum())]
    else:
        segs = np.asarray(wall_lines, np.float64).reshape(-1, 2, 2)[order]
        lens = np.full(len(segs), 2)
        wall_points = segs.reshape(-1, 2)
    wall_ptr = np.zeros(len(cells) + 1, np.int64)
    wall_ptr[1:] = np.cumsum(lens)
    inner = np.flatnonzero(cells[:, 1] >= 0)
    src = np.concatenate([cells[inner, 0], cells[inner, 1]])
    dst = np.concatenate([cells[inner, 1], cells[inner, 0]])
    wid = np.concatenate([inner, inner]).astype(np.int32)
    by = np.lexsort((dst, src))
    src, dst, wid = src[by], dst[by], wid[by]
    indptr = np.zeros(n + 1, np.int64)
    indptr[1:] = np.cumsum(np.bincount(src, minlength=n))
    return Grid(
        kind=kind,
        params=params,
        centres=np.asarray(centres, np.float64).reshape(n, 2),
        indptr=indptr,
        indices=dst.astype(np.int32),
        wall_of=wid,
        wall_cells=cells,
        wall_ptr=wall_ptr,
        wall_points=wall_points,
        cell_ptr=np.asarray(cell_ptr, np.int64),
        cell_points=np.asarray(cell_points, np.float64).reshape(-1, 2),
        size=(float(size[0]), float(size[1])),
    )


class _LazyGrid(Grid):
    """A grid whose neighbours follow from arithmetic: it holds no per-cell arrays. The
    arrays every :class:`Grid` has (centres, the neighbour table, walls, outlines) are
    built by the kind's :meth:`_arrays` the first time a reader asks for one, for the
    code written against any grid; the kernels that carve it need none of them."""

    _ARRAYS = ("centres", "indptr", "indices", "wall_of", "wall_cells", "wall_ptr",
               "wall_points", "cell_ptr", "cell_points")  # fmt: skip

    def __init__(self, kind: str, params: dict[str, int], size: tuple[float, float]) -> None:
        set_ = object.__setattr__
        set_(self, "kind", kind)
        set_(self, "params", MappingProxyType(params))
        set_(self, "size", (float(size[0]), float(size[1])))
        set_(self, "_cache", {})

    def _arrays(self) -> Grid:
        raise NotImplementedError

    def own_topology(self) -> tuple[Any, ...] | None:
        """A topology the kernels can run on in the grid's own cell and wall ids without
        the explicit arrays, if the kind has one (see
        :func:`mazeart._kernels.topology.grid_topology`)."""
        return None

    def __getattr__(self, name: str) -> Any:
        # Only reached for what __init__ did not set: the explicit arrays.
        if name not in _LazyGrid._ARRAYS:
            raise AttributeError(name)
        arrays = self._cache.get("arrays")
        if arrays is None:
            arrays = self._cache["arrays"] = self._arrays()
        return getattr(arrays, name)


class _RowsGrid(_LazyGrid):
    """A lazy grid of ``rows`` by ``cols`` cells, cell ``(r, c)`` id ``r * cols + c``."""

    def __init__(self, kind: str, rows: int, cols: int, size: tuple[float, float]) -> None:
        super().__init__(kind, {"rows": rows, "cols": cols}, size)

    @property
    def rows(self) -> int:
        """Rows of cells."""
        return int(self.params["rows"])

    @property
    def cols(self) -> int:
        """Columns of cells."""
        return int(self.params["cols"])

    @property
    def n_cells(self) -> int:
        return self.rows * self.cols


class SquareGrid(_RowsGrid):
    """The square grid: cell ``(r, c)`` is id ``r * cols + c``, one unit a side.

    Its neighbours are arithmetic (``c ± 1``, ``c ± cols``), so it holds no
    per-cell arrays: a square maze keeps its passages as bits per cell and the
    kernels step by the topology's strides. The arrays every :class:`Grid` has
    (centres, the neighbour table, walls, outlines) are built the first time a
    reader asks for one, for the code written against any grid.
    """

    def __init__(self, rows: int, cols: int) -> None:
        rows, cols = check_int(rows, "rows"), check_int(cols, "cols")
        super().__init__("square", rows, cols, (cols, rows))

    def __getattr__(self, name: str) -> Any:
        if name == "centres":  # asked alone often (measures, A*): no need for the rest
            centres = self._cache.get("centres")
            if centres is None:
                centres = np.empty((self.rows, self.cols, 2))
                centres[:, :, 0] = np.arange(self.cols) + 0.5
                centres[:, :, 1] = (np.arange(self.rows) + 0.5)[:, None]
                centres = self._cache["centres"] = _frozen(centres.reshape(-1, 2), np.float64)
            return centres
        return super().__getattr__(name)

    def _arrays(self) -> Grid:
        return _square_arrays(self.rows, self.cols)

    def __reduce__(self) -> tuple[Any, ...]:
        return (SquareGrid, (self.rows, self.cols))

    @property
    def n_walls(self) -> int:
        return (self.rows + 1) * self.cols + self.rows * (self.cols + 1)


class LatticeGrid(_RowsGrid):
    """A grid of rows and columns whose every cell's neighbours are steps of at most a
    row and a column that depend only on its type (the parity of its row, or of its row
    plus column): the hex, triangle and upsilon grids (:data:`LATTICES`).

    The kernels carve it on a framed copy (:meth:`topology`), so a maze of a million
    hexagons is made without its neighbour table; the explicit arrays are built the
    first time a reader asks for one.
    """

    def __init__(self, kind: str, rows: int, cols: int) -> None:
        super().__init__(kind, rows, cols, LATTICES[kind].size(rows, cols))

    def _arrays(self) -> Grid:
        return LATTICES[self.kind].arrays(self.rows, self.cols)

    def __reduce__(self) -> tuple[Any, ...]:
        return (LatticeGrid, (self.kind, self.rows, self.cols))

    def topology(self) -> tuple[Any, ...]:
        """The framed lattice as the kernels see it
        (:func:`mazeart._kernels.topology.lattice_topology`), made once and kept."""
        topo = self._cache.get("lattice")
        if topo is None:
            from mazeart._kernels.topology import lattice_topology

            spec = LATTICES[self.kind]
            topo = self._cache["lattice"] = lattice_topology(spec.steps, spec.mixed, self.cols)
        return topo

    def frame(self, values: NDArray[np.bool_]) -> NDArray[np.bool_]:
        """``values`` (a bool per cell) on the framed grid of :meth:`topology`, False on
        the frame and past the last column."""
        stride = 1 << int(self.topology()[1])
        out = np.zeros((self.rows + 2, stride), np.bool_)
        out[1:-1, 1 : self.cols + 1] = np.asarray(values, np.bool_).reshape(self.rows, self.cols)
        return out.reshape(-1)

    @property
    def n_walls(self) -> int:
        count = self._cache.get("n_walls")
        if count is None:
            if "arrays" in self._cache:
                count = len(self._cache["arrays"].wall_cells)
            else:
                from mazeart._kernels.topology import lattice_walls

                none = np.zeros(0, np.bool_)
                count = lattice_walls(self.topology(), self.rows, self.cols, none, none)
            count = self._cache["n_walls"] = int(count)
        return count


class PolarGrid(_LazyGrid):
    """The polar grid of ``rings`` rings (:func:`mazeart.grids.shapes.polar_grid`): its
    cells, neighbours and walls follow from the rings' counts, so the kernels' topology
    (:meth:`own_topology`, :func:`mazeart._kernels.topology.rings_topology`) is computed
    from them without the explicit arrays (whose arcs take many points), which are built
    only when read."""

    def __init__(self, rings: int, counts: list[int], arrays: Callable[[int], Grid]):
        super().__init__("polar", {"rings": rings}, (2.0 * rings, 2.0 * rings))
        self._cache["counts"] = counts
        self._cache["builder"] = arrays

    def _arrays(self) -> Grid:
        return self._cache["builder"](int(self.params["rings"]))

    def __reduce__(self) -> tuple[Any, ...]:
        return (functools.partial(make_grid, "polar", rings=int(self.params["rings"])), ())

    def own_topology(self) -> tuple[Any, ...]:
        """The kernels' topology: each cell's ring and a row of numbers a ring, made once
        and kept (the neighbours and walls of the explicit arrays, in their order)."""
        topo = self._cache.get("topology")
        if topo is None:
            from mazeart._kernels.topology import rings_topology

            topo = self._cache["topology"] = rings_topology(self._cache["counts"])
        return topo

    @property
    def n_cells(self) -> int:
        return int(sum(self._cache["counts"]))

    @property
    def n_walls(self) -> int:
        counts = self._cache["counts"]
        walls = counts[1] if len(counts) > 1 else 6  # the centre's: to ring 1, or its rim
        for r in range(1, len(counts)):
            grows = counts[r + 1] // counts[r] if r + 1 < len(counts) else 0
            walls += counts[r] * ((r == len(counts) - 1) + 1 + grows)
        return int(walls)


@dataclass(frozen=True)
class Lattice:
    """How a :class:`LatticeGrid` kind runs: ``steps[t]``, for a cell of type ``t`` on
    the framed grid (the parity of its framed row, or with ``mixed`` of its framed row
    plus column), the step ``(dr, dc)`` to each neighbour in increasing order of the
    neighbours; ``size(rows, cols)`` the drawing's width and height; ``arrays(rows,
    cols)`` the explicit grid."""

    steps: list[list[tuple[int, int]]]
    mixed: bool
    size: Callable[[int, int], tuple[float, float]]
    arrays: Callable[[int, int], Grid]


LATTICES: dict[str, Lattice] = {}
"""Lattice kinds (:mod:`mazeart.grids.shapes` registers them)."""


def square_grid(rows: int, cols: int) -> SquareGrid:
    """The square grid of ``rows`` by ``cols`` cells (see :class:`SquareGrid`).

    Parameters
    ----------
    rows, cols : int

    Returns
    -------
    SquareGrid

    Examples
    --------
    >>> g = square_grid(3, 4)
    >>> g.centres[5].tolist(), g.polygon(5).tolist()
    ([1.5, 1.5], [[1.0, 1.0], [2.0, 1.0], [2.0, 2.0], [1.0, 2.0]])
    """
    return SquareGrid(rows, cols)


def _square_arrays(rows: int, cols: int) -> Grid:
    """The square grid's explicit arrays, built by whole-array steps."""
    n = rows * cols
    x, y = np.arange(cols, dtype=np.float64), np.arange(rows, dtype=np.float64)[:, None]
    centres = np.empty((rows, cols, 2))
    centres[:, :, 0], centres[:, :, 1] = x + 0.5, y + 0.5
    # Corners 0-3 of each cell: top left, top right, bottom right, bottom left.
    cell_points = np.empty((4 * n, 2))
    corners = _pairs(cell_points).reshape(rows, cols, 4)
    corners.real = np.stack([x, x + 1, x + 1, x], axis=1)
    corners.imag = np.stack([y, y, y + 1, y + 1], axis=2)
    # Each cell's walls: east, south, and on the edge its top and left. In the wall table
    # they run cell by cell, each cell's boundary walls first (in that order), then its
    # walls to the cells east and south of it: six candidates a cell.
    east = np.broadcast_to(np.arange(cols) + 1 < cols, (rows, cols)).reshape(-1)
    south = np.broadcast_to(np.arange(rows)[:, None] + 1 < rows, (rows, cols)).reshape(-1)
    taken = np.zeros((rows, cols, 6), bool)
    taken[:, :, 0], taken[:, :, 1] = ~east.reshape(rows, cols), ~south.reshape(rows, cols)
    taken[0, :, 2], taken[:, 0, 3] = True, True
    taken[:, :, 4], taken[:, :, 5] = east.reshape(rows, cols), south.reshape(rows, cols)
    pick = np.flatnonzero(taken)
    n_walls = len(pick)
    owner = pick // 6
    column = pick - 6 * owner
    ends = np.empty(2 * n_walls, np.int64)
    ends[0::2] = np.take(np.array([1, 3, 0, 0, 1, 3]), column) + 4 * owner  # from corner
    ends[1::2] = np.take(np.array([2, 2, 1, 3, 2, 2]), column) + 4 * owner  # to corner
    wall_points = np.empty((2 * n_walls, 2))
    np.take(_pairs(cell_points), ends, out=_pairs(wall_points), mode="clip")
    wall_cells = np.full((n_walls, 2), -1, np.int32)
    wall_cells[:, 0] = owner
    to_east, to_south = np.flatnonzero(column == 4), np.flatnonzero(column == 5)
    wall_cells[to_east, 1] = np.take(owner, to_east) + 1
    wall_cells[to_south, 1] = np.take(owner, to_south) + cols
    # Neighbours in increasing order: north, west, east, south.
    east_wall, south_wall = np.empty(n, np.int64), np.empty(n, np.int64)
    east_wall[np.take(owner, to_east)], south_wall[np.take(owner, to_south)] = to_east, to_south
    i = np.arange(n, dtype=np.int64)
    near = np.stack([i - cols, i - 1, i + 1, i + cols], axis=1)
    has = np.empty((n, 4), bool)
    sides = has.reshape(rows, cols, 4)
    sides[:, :, 0], sides[:, :, 1] = (y > 0), np.arange(cols) > 0
    sides[:, :, 2], sides[:, :, 3] = east.reshape(rows, cols), south.reshape(rows, cols)
    via = np.empty((n, 4), np.int64)
    via[cols:, 0], via[1:, 1] = south_wall[:-cols], east_wall[:-1]
    via[:, 2], via[:, 3] = east_wall, south_wall
    degree = has[:, 0] + has[:, 1].astype(np.int64) + has[:, 2] + has[:, 3]
    indptr = np.zeros(n + 1, np.int64)
    np.cumsum(degree, out=indptr[1:])
    return Grid(
        kind="square",
        params={"rows": rows, "cols": cols},
        centres=centres.reshape(n, 2),
        indptr=indptr,
        indices=near[has].astype(np.int32),
        wall_of=via[has].astype(np.int32),
        wall_cells=wall_cells,
        wall_ptr=2 * np.arange(n_walls + 1, dtype=np.int64),
        wall_points=wall_points,
        cell_ptr=4 * np.arange(n + 1, dtype=np.int64),
        cell_points=cell_points,
        size=(float(cols), float(rows)),
    )


def _pairs(points: NDArray[np.float64]) -> NDArray[np.complex128]:
    """``(m, 2)`` points viewed as ``m`` complex numbers ``x + iy`` (moved as one: faster)."""
    return points.view(np.complex128).reshape(-1)


GRIDS: dict[str, Callable[..., Grid]] = {"square": square_grid}
"""Grid kind → builder; :mod:`mazeart.grids.shapes` adds the others (importing
:mod:`mazeart.grids` registers them)."""


def make_grid(kind: str, **params: Any) -> Grid:
    """The grid of ``kind`` built from ``params`` (as stored in :attr:`Grid.params`).

    Parameters
    ----------
    kind : str
        A key of :data:`GRIDS`: ``'square'``, ``'hex'``, ``'triangle'``, ``'polar'``,
        ``'upsilon'``, ``'weave'``.
    **params
        The builder's own: ``rows`` and ``cols``, or ``rings`` for the polar grid.

    Returns
    -------
    Grid

    Raises
    ------
    MazeartError
        For an unknown kind.

    Examples
    --------
    >>> from mazeart.grids import make_grid
    >>> g = make_grid("polar", rings=4)
    >>> g.n_cells, g.params["rings"]
    (43, 4)
    """
    builder = GRIDS.get(kind)
    if builder is None:
        raise MazeartError(f"unknown grid {kind!r} (choose from {', '.join(GRIDS)})")
    return builder(**params)
