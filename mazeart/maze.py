"""The Maze model: one canonical form that every generator returns and every consumer reads.

A maze lives on a :class:`~mazeart.grids.Grid`: the square grid (implicit:
neighbours are arithmetic, see :class:`~mazeart.grids.SquareGrid`) or an explicit
one (hexagons, triangles, polar rings, octagons and squares, a weave). A cell is
named by its place in the grid's :attr:`Maze.shape`: ``(row, col)`` on the square
grid, a cell id on the others. Every field below exists on every grid; where the
square grid says more, it is said here.

- ``grid`` — the :class:`~mazeart.grids.Grid`.
- ``passages`` — the open walls in the grid's own form: on the square grid one
  byte of side bits per cell (below); on the others one bool per wall
  (:attr:`Grid.wall_cells`). :attr:`Maze.open_walls` is one bool per wall on
  every grid.

On the square grid (``grid.kind == "square"``), an ``(H, W)`` grid of cells:

- ``mask`` — ``(H, W) ndarray of bool``: the cells that are maze.
- ``passages`` — ``(H, W) ndarray of uint8``: one bit per open side of a cell,
  :data:`N` ``=1``, :data:`E` ``=2``, :data:`S` ``=4``, :data:`W` ``=8``. A passage is
  always recorded on both cells it joins.
- ``geometry`` — how the grid is drawn:

  ``"cells"``
      each grid cell is a room of the maze and walls are thin lines between
      cells (the usual line-drawing maze);
  ``"blocks"``
      each grid cell is a block that is either path or wall, as in the weighted
      DFS's own matrix: ``mask`` holds the path blocks, two adjacent path blocks
      are joined, and every other block of ``region`` is a solid wall block.

  A block maze is a cell maze at block resolution, so solvers and metrics read
  both the same way; only drawing differs.
- ``region`` — ``(H, W) ndarray of bool``: the cells the preset allowed. For
  ``cells`` it equals ``mask`` but for pruned dead ends (closed squares in the
  figure); for ``blocks`` it also holds the wall blocks.
- ``entrance`` / ``exit`` — ``(row, col)`` cells or ``None``.
- ``meta`` — read-only mapping: provenance (algorithm, seed, geometry, options).
- ``rooms`` — :class:`~mazeart.rooms.Room` s: open areas of maze cells, walled
  but for their doors.
- ``tags`` — read-only ``{(row, col): kind}``: subtypes of path cells (spawn, loot, ...).
- ``guide`` — :class:`Guide`: what a picture adds to the drawing (a smooth
  outline, colour-region labels and curves, a tone map); empty otherwise.

A Maze is immutable: its arrays are read-only, its mappings are read-only
views, and :meth:`Maze.replace` makes a changed copy.

:meth:`Maze.raster` gives the classic ``(2H+1, 2W+1)`` block raster (odd/odd are
cells, the rest walls or passages), and :meth:`Maze.from_raster` reads one back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mazeart._graph import DIRECTIONS, OPPOSITE, STEP, E, N, S, W
from mazeart._io import check_text
from mazeart._jit import njit, readonly
from mazeart.errors import InvalidMazeError, MazeartError
from mazeart.grids.core import Grid, SquareGrid
from mazeart.rooms import Room

__all__ = [
    "DIRECTIONS",
    "GEOMETRIES",
    "OPPOSITE",
    "STEP",
    "E",
    "Guide",
    "Maze",
    "N",
    "S",
    "W",
    "check_maze",
    "freeze",
    "passages_from_links",
    "thaw",
]

GEOMETRIES = ("cells", "blocks")
"""Valid values of :attr:`Maze.geometry`."""

Geometry = Literal["cells", "blocks"]
Cell = tuple[int, int]


def freeze(value: Any) -> Any:
    """A read-only deep copy of JSON-like data: mappings become read-only views, lists tuples.

    >>> frozen = freeze({"options": {"select": "mix"}, "sizes": [1, 2]})
    >>> frozen["sizes"], type(frozen["options"]).__name__
    ((1, 2), 'mappingproxy')
    """
    if isinstance(value, Mapping):
        return MappingProxyType({str(k): freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    if isinstance(value, np.generic):
        return value.item()
    return value


def thaw(value: Any) -> Any:
    """Plain ``dict`` and ``list`` again from :func:`freeze` d data (for JSON)."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [thaw(v) for v in value]
    return value


def _frozen_array(a: ArrayLike, dtype: Any, what: str, ndim: int) -> NDArray:
    arr = np.array(a, dtype=dtype, order="C", copy=True)
    if arr.ndim != ndim:
        raise InvalidMazeError(f"{what} must be {ndim}-dimensional, got shape {arr.shape}")
    if arr.dtype.kind == "f" and not np.all(np.isfinite(arr)):
        raise InvalidMazeError(f"{what} holds values that are not finite")
    arr.flags.writeable = False
    return arr


def _polylines(items: Any, what: str, least: int) -> tuple[NDArray[np.float64], ...]:
    out = []
    for item in items or ():
        line = _frozen_array(item, np.float64, what, 2)
        if line.shape[1] != 2 or len(line) < least:
            raise InvalidMazeError(f"{what} must be at least {least} (x, y) points")
        out.append(line)
    return tuple(out)


def _frozen_pair(a: NDArray[Any], b: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
    """Two arrays a maze keeps, made read-only: what it hands out cannot be written."""
    a.setflags(write=False)
    b.setflags(write=False)
    return a, b


@dataclass(frozen=True, eq=False)
class Guide:
    """What a picture adds to how a maze is drawn (see :mod:`mazeart.guide`).

    All coordinates are in cell units, ``x`` across and ``y`` down, so cell
    ``(r, c)`` spans ``[c, c + 1] x [r, r + 1]``. Arrays are read-only copies.

    Attributes
    ----------
    outline : tuple of (P, 2) ndarray of float
        Closed rings of the figure's smooth contour (``--outline smooth``), in
        drawing units on any grid; the outer wall is drawn along them instead of
        along cell sides.
    edge_labels : (H, W) or (n,) ndarray of int8, or None
        The colour region of every cell (``--edges``), in the grid's shape.
    edge_curves : tuple of (P, 2) ndarray of float
        The boundaries between colour regions as open polylines (``--edges``).
    tone : (H, W) or (n,) ndarray of float, or None
        The picture's darkness per cell, 0 white to 1 black (``--tone``), in the
        grid's shape: walls are drawn as thick as it is dark under them.
    """

    outline: tuple[NDArray[np.float64], ...] = ()
    edge_labels: NDArray[np.int8] | None = None
    edge_curves: tuple[NDArray[np.float64], ...] = ()
    tone: NDArray[np.float64] | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "outline", _polylines(self.outline, "an outline ring", 3))
        set_(self, "edge_curves", _polylines(self.edge_curves, "an edge curve", 2))
        if self.edge_labels is not None:
            labels = np.asarray(self.edge_labels)
            if not np.issubdtype(labels.dtype, np.integer) or labels.size == 0:
                raise InvalidMazeError("edge labels must be a non-empty grid of integers")
            if labels.min() < 0 or labels.max() > 35:
                raise InvalidMazeError("edge labels must be integers from 0 to 35")
            ndim = 1 if labels.ndim == 1 else 2  # one label a cell: (n,) or (H, W)
            set_(self, "edge_labels", _frozen_array(labels, np.int8, "edge labels", ndim))
        if self.tone is not None:
            tone = _frozen_array(
                self.tone, np.float64, "the tone map", 1 if np.ndim(self.tone) == 1 else 2
            )
            if tone.size and (tone.min() < 0 or tone.max() > 1):
                raise InvalidMazeError("the tone map must hold values from 0 to 1")
            set_(self, "tone", tone)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle through the constructor, so the arrays come back read-only."""
        return (Guide, (self.outline, self.edge_labels, self.edge_curves, self.tone))

    def __bool__(self) -> bool:
        return bool(self.outline or self.edge_curves) or (
            self.edge_labels is not None or self.tone is not None
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Guide):
            return NotImplemented

        def same(a: Any, b: Any) -> bool:
            if a is None or b is None:
                return a is None and b is None
            return a.shape == b.shape and bool(np.array_equal(a, b))

        return (
            len(self.outline) == len(other.outline)
            and len(self.edge_curves) == len(other.edge_curves)
            and all(same(a, b) for a, b in zip(self.outline, other.outline, strict=True))
            and all(same(a, b) for a, b in zip(self.edge_curves, other.edge_curves, strict=True))
            and same(self.edge_labels, other.edge_labels)
            and same(self.tone, other.tone)
        )

    __hash__ = None  # type: ignore[assignment]

    def check(self, shape: tuple[int, ...]) -> None:
        """Raise :class:`InvalidMazeError` unless the per-cell maps fit a grid of ``shape``
        (``(H, W)`` on the square grid; ``(n,)`` on another, where the colour regions are
        drawn along the cells' walls: edge curves are the square grid's)."""
        if len(shape) == 1 and self.edge_curves:
            raise InvalidMazeError("edge curves are drawn on the square grid; another grid "
                                   "draws its colour regions along its walls")  # fmt: skip
        for name, grid in (("edge labels", self.edge_labels), ("tone map", self.tone)):
            if grid is not None and grid.shape != shape:
                raise InvalidMazeError(f"the {name} are {grid.shape}, the grid {shape}")


def passages_from_links(east: ArrayLike, south: ArrayLike) -> NDArray[np.uint8]:
    """Build symmetric passage bits from "open to the east" and "open to the south" grids.

    Parameters
    ----------
    east : (H, W) array_like of bool
        ``east[r, c]`` opens ``(r, c)`` to ``(r, c + 1)``; the last column must be False.
    south : (H, W) array_like of bool
        ``south[r, c]`` opens ``(r, c)`` to ``(r + 1, c)``; the last row must be False.

    Returns
    -------
    (H, W) ndarray of uint8
    """
    e = np.asarray(east, dtype=bool)
    s = np.asarray(south, dtype=bool)
    if e.shape != s.shape or e.ndim != 2:
        raise InvalidMazeError("east and south must be two-dimensional and of equal shape")
    if e[:, -1].any() or s[-1, :].any():
        raise InvalidMazeError("a passage leads off the grid")
    eb = e.view(np.uint8)
    sb = s.view(np.uint8)
    p = eb << np.uint8(1)  # E
    p |= sb << np.uint8(2)  # S
    p[:, 1:] |= eb[:, :-1] << np.uint8(3)  # W of the cell to the east
    p[1:, :] |= sb[:-1, :]  # N of the cell to the south
    return p


def _rebuild(mask: NDArray, passages: NDArray, fields: dict[str, Any]) -> Maze:
    """A pickled :class:`Maze` again."""
    return Maze(mask, passages, **fields)


def _flat_array(a: ArrayLike, dtype: Any, n: int, what: str) -> NDArray[Any]:
    """A read-only copy of one value per cell (or wall) of an explicit grid."""
    arr = np.asarray(a)
    if arr.ndim != 1 or arr.size != n:
        raise InvalidMazeError(f"{what} has {arr.size} entries, the grid needs {n}")
    out = _owned(arr, dtype)
    out.flags.writeable = False
    return out


def _cell_id(value: Any, name: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise TypeError(f"{name} must be a cell id (int), got {type(value).__name__}")
    return int(value)


def _owned(a: ArrayLike, dtype: Any) -> NDArray:
    """A C-contiguous array of ``dtype`` that no one else can write to.

    Arrays another Maze already froze are shared; anything writable is copied, so
    freezing it never changes an array the caller still holds.
    """
    arr = np.asarray(a)
    if arr.dtype == dtype and arr.flags.c_contiguous and not arr.flags.writeable:
        return arr
    return np.array(arr, dtype=dtype, order="C", copy=True)


def _as_cell(value: Any, name: str) -> Cell | None:
    if value is None:
        return None
    try:
        r, c = value
        return int(r), int(c)
    except (TypeError, ValueError):
        raise InvalidMazeError(f"{name} must be a (row, col) pair, got {value!r}") from None


class Maze:
    """A maze on a grid: which cells are maze and which of their walls are open.

    Parameters
    ----------
    mask : array_like of bool
        Cells that are part of the maze, in the grid's :attr:`shape`: ``(H, W)``
        on the square grid, ``(n,)`` on another.
    passages : array_like
        The open walls: on the square grid ``(H, W)`` uint8 side bits per cell
        (:data:`N`, :data:`E`, :data:`S`, :data:`W`), symmetric between
        neighbours and only between maze cells; on another grid (or on the
        square grid given with a flat ``mask``) one bool per wall of
        :attr:`Grid.wall_cells`, open only between two maze cells.
    grid : Grid, optional
        The grid; by default the square grid of ``mask`` 's shape.
    geometry : {'cells', 'blocks'}, default 'cells'
        How the grid is drawn (see the module docstring); ``blocks`` is the
        square grid's.
    region : array_like of bool, optional
        Cells the preset allowed; defaults to ``mask``. Must contain ``mask``.
    entrance, exit : cell, optional
        Start and goal cells (``(row, col)`` or a cell id); must be maze cells.
    meta : mapping, optional
        Provenance (algorithm, seed, options, ...): JSON-like data, kept as a
        read-only copy.
    rooms : sequence of Room, optional
        Rooms (square grid); their cells must be maze cells joined to each
        other inside and to the outside only through their doors.
    tags : mapping of cell to str, optional
        Tag kind per maze cell.
    guide : Guide, optional
        What a picture adds to the drawing: tone, colour regions and the smooth outline
        on any grid; edge curves on the square grid.

    Raises
    ------
    InvalidMazeError
        If the arrays disagree in shape or the passages are not a valid maze
        layout (asymmetric, leading off the grid or out of the mask).

    Examples
    --------
    >>> maze = Maze.from_text('''
    ... #######
    ... #S  # #
    ... ### # #
    ... #    E#
    ... #######
    ... ''')
    >>> maze.shape, maze.n_cells, maze.n_passages, maze.entrance, maze.exit
    ((2, 3), 6, 5, (0, 0), (1, 2))
    >>> sorted(maze.neighbours((0, 1)))
    [(0, 0), (1, 1)]
    >>> maze.replace(exit=(0, 2)).exit
    (0, 2)

    The same model on another grid, cells by id:

    >>> from mazeart.grids import make_grid
    >>> g = make_grid("hex", rows=1, cols=3)
    >>> opened = np.isin(np.arange(g.n_walls), [g.wall_between(0, 1), g.wall_between(1, 2)])
    >>> hexed = Maze(np.ones(3, bool), opened, grid=g, entrance=0, exit=2)
    >>> hexed.links().tolist(), hexed.degree().tolist(), hexed.shape
    ([[0, 1], [1, 2]], [1, 2, 1], (3,))
    """

    grid: Grid
    mask: NDArray[np.bool_]
    passages: NDArray[Any]
    geometry: Geometry
    region: NDArray[np.bool_]
    entrance: Any
    exit: Any
    meta: Mapping[str, Any]
    rooms: tuple[Room, ...]
    tags: Mapping[Any, str]
    guide: Guide

    def __init__(
        self,
        mask: ArrayLike,
        passages: ArrayLike,
        *,
        grid: Grid | None = None,
        geometry: Geometry = "cells",
        region: ArrayLike | None = None,
        entrance: Any = None,
        exit: Any = None,
        meta: Mapping[str, Any] | None = None,
        rooms: Sequence[Room] = (),
        tags: Mapping[Any, str] | None = None,
        guide: Guide | None = None,
    ) -> None:
        if grid is not None and not isinstance(grid, Grid):
            raise TypeError(f"grid must be a Grid, got {type(grid).__name__}")
        if grid is not None and grid.kind == "square" and np.ndim(mask) == 1:
            mask, passages = _square_from_walls(grid, mask, passages)
            if region is not None:
                region = np.asarray(region, bool).reshape(mask.shape)
            entrance, exit = (_square_cell(grid, v) for v in (entrance, exit))
            tags = {_square_cell(grid, k): v for k, v in (tags or {}).items()}
        if grid is not None and grid.kind != "square":
            self._set_graph(grid, mask, passages, geometry, region)
            self._set(self.mask, self.passages, geometry, self.region, entrance, exit, meta,
                      rooms, tags, guide)  # fmt: skip
            return
        m = _owned(mask, bool)
        p = np.asarray(passages)
        if m.ndim != 2 or m.size == 0:
            raise InvalidMazeError(f"mask must be a non-empty 2-D array, got shape {m.shape}")
        if grid is not None and m.shape != (grid.params["rows"], grid.params["cols"]):
            raise InvalidMazeError(f"the mask is {m.shape}, the grid {grid.params['rows']} x "
                                   f"{grid.params['cols']}")  # fmt: skip
        if p.shape != m.shape:
            raise InvalidMazeError(f"passages shape {p.shape} differs from mask shape {m.shape}")
        if not np.issubdtype(p.dtype, np.integer):
            raise InvalidMazeError(_NOT_BITS)
        if p.size and (p.max() > 15 or (p.dtype.kind == "i" and p.min() < 0)):
            raise InvalidMazeError(_NOT_BITS)
        p = _owned(p, np.uint8)
        if geometry not in GEOMETRIES:
            raise InvalidMazeError(
                f"geometry must be one of {', '.join(GEOMETRIES)}; got {geometry!r}"
            )
        reg = m if region is None else _owned(region, bool)
        if reg.shape != m.shape:
            raise InvalidMazeError(f"region shape {reg.shape} differs from mask shape {m.shape}")
        problem = _GRID_PROBLEMS[_check_grid(readonly(m), readonly(p), readonly(reg))]
        if problem:
            raise InvalidMazeError(problem)
        for arr in (m, p, reg):
            arr.flags.writeable = False
        object.__setattr__(self, "grid", grid if isinstance(grid, SquareGrid)
                           else SquareGrid(*m.shape))  # fmt: skip
        self._set(m, p, geometry, reg, entrance, exit, meta, rooms, tags, guide)

    def _set_graph(
        self, grid: Grid, mask: ArrayLike, passages: ArrayLike, geometry: str, region: Any
    ) -> None:
        """Check and set the grid, mask, passages and region of a maze on an explicit grid."""
        set_ = object.__setattr__
        if geometry != "cells":
            raise InvalidMazeError(f"the {grid.kind} grid draws cells (geometry 'cells'), "
                                   f"not {geometry!r}")  # fmt: skip
        m = _flat_array(mask, np.bool_, grid.n_cells, "mask")
        p = _flat_array(passages, np.bool_, grid.n_walls, "passages")
        a, b = grid.wall_cells[:, 0], grid.wall_cells[:, 1]
        inside = (b >= 0) & m[a] & m[np.maximum(b, 0)]
        if np.any(p & ~inside):
            w = int(np.flatnonzero(p & ~inside)[0])
            raise InvalidMazeError(f"wall {w} is open but does not join two maze cells "
                                   f"(cells {int(a[w])} and {int(b[w])})")  # fmt: skip
        reg = m if region is None else _flat_array(region, np.bool_, grid.n_cells, "region")
        if np.any(m & ~reg):
            raise InvalidMazeError("every maze cell must lie inside the region")
        set_(self, "grid", grid)
        set_(self, "mask", m)
        set_(self, "passages", p)
        set_(self, "region", reg)

    def _set(
        self,
        m: NDArray[np.bool_],
        p: NDArray[Any],
        geometry: Geometry,
        reg: NDArray[np.bool_],
        entrance: Any,
        exit: Any,
        meta: Mapping[str, Any] | None,
        rooms: Sequence[Room],
        tags: Mapping[Any, str] | None,
        guide: Guide | None,
    ) -> None:
        """Set the fields, the grids already checked and frozen (and ``grid`` set)."""
        set_ = object.__setattr__
        square = self.grid.kind == "square"
        as_cell = _as_cell if square else _cell_id
        set_(self, "mask", m)
        set_(self, "passages", p)
        set_(self, "geometry", geometry)
        set_(self, "region", reg)
        set_(self, "entrance", as_cell(entrance, "entrance"))
        set_(self, "exit", as_cell(exit, "exit"))
        for name, cell in (("entrance", self.entrance), ("exit", self.exit)):
            if cell is not None and not self.is_cell(cell):
                raise InvalidMazeError(f"{name} {cell} is not a maze cell")
        if meta is not None and not isinstance(meta, Mapping):
            raise TypeError(f"meta must be a mapping, got {type(meta).__name__}")
        set_(self, "meta", freeze(meta or {}))
        set_(self, "rooms", tuple(rooms))
        if not all(isinstance(room, Room) for room in self.rooms):
            raise TypeError("rooms must be Room objects (see mazeart.Room)")
        if self.rooms:
            _check_rooms(self)
        cells: dict[Any, str] = {}
        for cell, kind in (tags or {}).items():
            at = as_cell(cell, "a tag's cell")
            if at is None or not self.is_cell(at):
                raise InvalidMazeError(f"tag {kind!r} at {cell} is not on a maze cell")
            cells[at] = check_text(kind, f"the kind of the tag at {at}")
        set_(self, "tags", MappingProxyType(cells if square else dict(sorted(cells.items()))))
        guide = Guide() if guide is None else guide
        if not isinstance(guide, Guide):
            raise TypeError(f"guide must be a Guide, got {type(guide).__name__}")
        guide.check(m.shape)
        set_(self, "guide", guide)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a Maze is immutable (use maze.replace({name}=...))")

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle by the constructor's arguments (batch work sends mazes between processes)."""
        fields = {
            "grid": self.grid,
            "geometry": self.geometry,
            "region": self.region,
            "entrance": self.entrance,
            "exit": self.exit,
            "meta": thaw(self.meta),
            "rooms": self.rooms,
            "tags": dict(self.tags),
            "guide": self.guide,
        }
        return (_rebuild, (self.mask, self.passages, fields))

    def __delattr__(self, name: str) -> None:
        raise AttributeError("a Maze is immutable")

    # ------------------------------------------------------------------ basics

    @property
    def kind(self) -> str:
        """The grid's kind: ``'square'``, ``'hex'``, ... (see :data:`mazeart.grids.GRIDS`)."""
        return self.grid.kind

    @property
    def is_square(self) -> bool:
        """Whether the maze is on the square grid (cells ``(row, col)``, passage bits)."""
        return self.grid.kind == "square"

    def square_only(self, what: str) -> None:
        """Raise a one-line :class:`MazeartError` unless the maze is on the square grid.

        Parameters
        ----------
        what : str
            What needs the square grid, as the message names it ("rooms", "ASCII").
        """
        if not self.is_square:
            raise MazeartError(f"{what} needs the square grid; this maze is on the "
                               f"{self.grid.kind} grid")  # fmt: skip

    @property
    def shape(self) -> tuple[int, ...]:
        """The grid's shape, in which a cell is named: ``(H, W)`` (rows and columns) on the
        square grid, ``(n,)`` on another."""
        return self.mask.shape  # type: ignore[return-value]

    @property
    def height(self) -> int:
        """Grid rows (square grid); the drawing's height rounded up to a whole unit."""
        if self.is_square:
            return int(self.mask.shape[0])
        return _whole(self.grid.size[1])

    @property
    def width(self) -> int:
        """Grid columns (square grid); the drawing's width rounded up to a whole unit."""
        if self.is_square:
            return int(self.mask.shape[1])
        return _whole(self.grid.size[0])

    @property
    def n_cells(self) -> int:
        """Number of maze cells."""
        return int(np.count_nonzero(self.mask))

    @property
    def n_passages(self) -> int:
        """Number of open passages between neighbouring cells (edges of the maze graph)."""
        p = self.passages
        if not self.is_square:
            return int(np.count_nonzero(p))
        return int(np.count_nonzero(p & E) + np.count_nonzero(p & S))

    def is_cell(self, cell: Any) -> bool:
        """Whether ``cell`` is inside the grid and part of the maze."""
        if not self.is_square:
            return (
                isinstance(cell, int | np.integer)
                and not isinstance(cell, bool)
                and 0 <= int(cell) < self.grid.n_cells
                and bool(self.mask[int(cell)])
            )
        if isinstance(cell, str | bytes) or np.ndim(cell) != 1 or len(cell) != 2:
            return False  # not a (row, col) pair: an id, a string, a grid of cells
        r, c = cell
        return 0 <= r < self.height and 0 <= c < self.width and bool(self.mask[r, c])

    def cell_index(self, cell: Any) -> int:
        """A cell as a flat index into the grid's cells (``row * W + col`` on the square grid)."""
        if self.is_square:
            return int(cell[0]) * self.width + int(cell[1])
        return int(cell)

    def cell_at(self, index: int) -> Any:
        """The cell at a flat index, named as this grid names cells (the inverse of
        :meth:`cell_index`)."""
        if self.is_square:
            r, c = divmod(int(index), self.width)
            return (r, c)
        return int(index)

    def flat_cells(self, cells: ArrayLike) -> NDArray[np.int64]:
        """Cells (``(L, 2)`` rows and columns on the square grid, ``(L,)`` ids elsewhere) as
        flat indices (:meth:`cell_index` of each)."""
        a = np.asarray(cells, np.int64)
        if self.is_square:
            a = a.reshape(-1, 2)
            return a[:, 0] * self.width + a[:, 1]
        return a.reshape(-1)

    @property
    def topology(self) -> Any:
        """The grid as the kernels see it (:mod:`mazeart._kernels.topology`): the square
        grid's strides (not framed: a kernel that steps only through open passages never
        leaves the grid), another grid's neighbour table. The passages, flat, are
        ``passages.reshape(-1)``."""
        from mazeart._kernels.topology import grid_topology, square_topology

        return square_topology(self.width) if self.is_square else grid_topology(self.grid)

    def is_open(self, cell: Cell, side: int) -> bool:
        """Whether ``cell`` has a passage through ``side`` (:data:`N`, :data:`E`, ...;
        square grid)."""
        self.square_only("a side bit")
        r, c = cell
        return bool(self.passages[r, c] & side)

    def neighbours(self, cell: Any) -> list[Any]:
        """Cells joined to ``cell`` by a passage (on the square grid in the order N, E, S, W)."""
        if not self.is_cell(cell):
            raise MazeartError(f"{cell!r} is not a maze cell")
        if not self.is_square:
            indptr, indices = self.open_table
            return indices[indptr[cell] : indptr[cell + 1]].tolist()
        r, c = cell
        bits = int(self.passages[r, c])
        return [(r + dr, c + dc) for bit, dr, dc in DIRECTIONS if bits & bit]

    def degree(self) -> NDArray[np.int64]:
        """Open passages of every cell (0 off the maze), flat.

        Returns
        -------
        (n,) ndarray of int64
        """
        if not self.is_square:
            return np.diff(self.open_table[0])
        p = self.passages.reshape(-1)
        return ((p & 1) + ((p >> 1) & 1) + ((p >> 2) & 1) + ((p >> 3) & 1)).astype(np.int64)

    @cached_property
    def open_walls(self) -> NDArray[np.bool_]:
        """The open walls, one bool per wall of :attr:`Grid.wall_cells`, on every grid."""
        if not self.is_square:
            return self.passages
        cells = self.grid.wall_cells
        a, b = cells[:, 0].astype(np.int64), cells[:, 1].astype(np.int64)
        w, p = self.width, self.passages.reshape(-1)
        east = (b == a + 1) & (a // w == b // w) & ((p[a] & E) != 0)
        out = east | ((b == a + w) & ((p[a] & S) != 0))
        out.flags.writeable = False
        return out

    @cached_property
    def open_table(self) -> tuple[NDArray[np.int64], NDArray[np.int32]]:
        """The passages as a neighbour table (CSR ``indptr``, ``indices`` of flat cells):
        the maze's graph."""
        g = self.grid
        if self.is_square:
            links = self.links()
            n = self.mask.size
            src = np.concatenate([links[:, 0], links[:, 1]])
            dst = np.concatenate([links[:, 1], links[:, 0]])
            by = np.lexsort((dst, src))
            indptr = np.zeros(n + 1, np.int64)
            indptr[1:] = np.cumsum(np.bincount(src, minlength=n))
            return _frozen_pair(indptr, dst[by].astype(np.int32))
        keep = self.passages[g.wall_of]
        source = np.repeat(np.arange(g.n_cells), np.diff(g.indptr))
        indptr = np.zeros(g.n_cells + 1, np.int64)
        indptr[1:] = np.cumsum(np.bincount(source[keep], minlength=g.n_cells))
        return _frozen_pair(indptr, g.indices[keep].copy())

    @cached_property
    def ways(self) -> Any:
        """The passages as the solvers' kernels read them (:mod:`mazeart._kernels.paths`):
        a code per cell and tables of steps on the square grid and the lattices (hex,
        triangle, upsilon), the neighbour table :attr:`open_table` on another grid."""
        from mazeart._kernels import paths
        from mazeart.grids.core import LATTICES, LatticeGrid

        if self.is_square:
            return paths.square_ways(self.passages.reshape(-1), self.width)
        if isinstance(self.grid, LatticeGrid):
            spec = LATTICES[self.grid.kind]
            return paths.lattice_ways(self.grid, self.open_table, spec.steps, spec.mixed)
        return readonly(self.open_table)

    def replace(self, **changes: Any) -> Maze:
        """A copy with some fields changed (``entrance=``, ``exit=``, ``meta=``, ...)."""
        fields: dict[str, Any] = {
            "mask": self.mask,
            "passages": self.passages,
            "grid": self.grid,
            "geometry": self.geometry,
            "region": self.region,
            "entrance": self.entrance,
            "exit": self.exit,
            "meta": self.meta,
            "rooms": self.rooms,
            "tags": self.tags,
            "guide": self.guide,
        }
        unknown = set(changes) - set(fields)
        if unknown:
            raise TypeError(f"unknown Maze field(s): {', '.join(sorted(unknown))}")
        fields.update(changes)
        own = ("mask", "passages", "region", "geometry", "grid")
        if all(fields[k] is getattr(self, k) for k in own):
            # The grids are this maze's own, already checked and frozen.
            out = object.__new__(Maze)
            object.__setattr__(out, "grid", self.grid)
            out._set(
                **{k: fields[k] for k in fields if k not in ("mask", "passages", "region", "grid")},
                m=self.mask,
                p=self.passages,
                reg=self.region,
            )
            return out
        return Maze(**fields)

    def links(self) -> NDArray[np.intp]:
        """Every passage as a pair of flat cell indices (``row * W + col`` on the square grid).

        Returns
        -------
        (K, 2) ndarray of intp
            On the square grid east links first, then south links; on another grid
            the lower cell first, in wall order. Each passage appears once.
        """
        if not self.is_square:
            return self.grid.wall_cells[self.passages].astype(np.intp)
        w = self.width
        er, ec = np.nonzero(self.passages & E)
        sr, sc = np.nonzero(self.passages & S)
        a = np.concatenate([er * w + ec, sr * w + sc])
        b = np.concatenate([er * w + ec + 1, (sr + 1) * w + sc])
        return np.stack([a, b], axis=1).astype(np.intp)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Maze):
            return NotImplemented
        return (
            self.grid.kind == other.grid.kind
            and dict(self.grid.params) == dict(other.grid.params)
            and self.geometry == other.geometry
            and self.entrance == other.entrance
            and self.exit == other.exit
            and np.array_equal(self.mask, other.mask)
            and np.array_equal(self.passages, other.passages)
            and np.array_equal(self.region, other.region)
            and self.meta == other.meta
            and self.rooms == other.rooms
            and self.tags == other.tags
            and self.guide == other.guide
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        algo = self.meta.get("algorithm", "?")
        if not self.is_square:
            return f"Maze({self.grid.kind} grid, cells={self.n_cells}, algorithm={algo!r})"
        return (
            f"Maze({self.height}x{self.width}, geometry={self.geometry!r}, "
            f"cells={self.n_cells}, algorithm={algo!r})"
        )

    # ------------------------------------------------------------------ boundary

    @cached_property
    def outside(self) -> NDArray[np.bool_]:
        """Grid cells outside the region that connect to the grid's edge (the ground).

        Holes inside the figure (the counter of a letter) are not outside.

        Returns
        -------
        ndarray of bool
            In the grid's :attr:`shape`; read-only.
        """
        from mazeart._kernels.parts import label_mask

        if self.is_square:
            if self.region.all():  # no ground inside the grid
                out = np.zeros(self.shape, dtype=bool)
            else:
                ground = np.pad(~self.region, 1, constant_values=True)
                labels, _ = label_mask(ground)
                out = (labels == labels[0, 0])[1:-1, 1:-1]
            out.flags.writeable = False
            return out
        g = self.grid
        ground = ~self.region
        if g.kind == "weave":  # the ground is the square cells'; tunnels join no ground
            ground[int(g.params["rows"]) * int(g.params["cols"]) :] = False
        # the ground's parts through the neighbour table (scipy's, already loaded by any
        # grid's make; a compiled kernel would run as Python on a maze this small)
        from scipy.sparse.csgraph import connected_components

        labels = connected_components(g.neighbour_graph(ground), directed=False)[1]
        rim = g.wall_cells[g.wall_cells[:, 1] < 0, 0]
        out = ground & np.isin(labels, labels[rim[ground[rim]]])
        out.flags.writeable = False
        return out

    @cached_property
    def boundary(self) -> NDArray[np.bool_]:
        """Maze cells with a wall on the outside of the maze (the grid's edge or a cell of
        :attr:`outside`): where doors can open. In the grid's :attr:`shape`."""
        if self.is_square:
            out = np.pad(self.outside, 1, constant_values=True)
            touches = out[:-2, 1:-1] | out[2:, 1:-1] | out[1:-1, :-2] | out[1:-1, 2:]
            return self.mask & touches
        g = self.grid
        a, b = g.wall_cells[:, 0], g.wall_cells[:, 1]
        outer = b < 0
        res = np.zeros(g.n_cells, bool)
        res[a[outer]] = True
        aa, bb = a[~outer], b[~outer]
        res[aa[self.outside[bb]]] = True
        res[bb[self.outside[aa]]] = True
        return res & self.mask

    def boundary_cells(self) -> NDArray[np.bool_]:
        """Maze cells with a side facing the outside (or the grid edge): :attr:`boundary`."""
        return self.boundary

    def door_wall(self, cell: Any) -> int:
        """The wall (of :attr:`Grid.wall_cells`) through which ``cell`` (an end) opens to
        the outside, or ``-1``.

        A wall on the grid's edge is preferred; else a wall towards a cell of
        :attr:`outside` (never into a hole of the figure). Among several, the one
        whose midpoint lies farthest from the maze's middle (so a door faces out).
        """
        if cell is None:
            return -1
        g, at = self.grid, self.cell_index(cell)
        if self.is_square:  # the side the drawing opens (:meth:`door_side`)
            rows = np.flatnonzero((g.wall_cells[:, 0] == at) | (g.wall_cells[:, 1] == at))
            side = self.door_side(cell, prefer="SENW" if cell == self.exit != self.entrance
                                  else "NWSE")  # fmt: skip
            if not side:
                return -1
            dr, dc = STEP[side]
            mids = np.array([g.wall(int(w)).mean(axis=0) for w in rows]) - g.centres[at]
            return int(rows[np.argmax(mids @ np.array([dc, dr], float))])
        rim = g._cache.get("rim")  # the walls on the grid's edge, by the cell inside them
        if rim is None:
            walls = np.flatnonzero(g.wall_cells[:, 1] < 0)
            owner = g.wall_cells[walls, 0]
            by = np.argsort(owner, kind="stable")
            rim = g._cache["rim"] = (owner[by], walls[by])
        lo, hi = np.searchsorted(rim[0], [at, at + 1])
        edge = rim[1][lo:hi]
        if not edge.size:  # else a wall to a cell of the ground
            span = slice(g.indptr[at], g.indptr[at + 1])
            edge = np.sort(g.wall_of[span][self.outside.reshape(-1)[g.indices[span]]])
        if not edge.size:
            return -1
        mids = np.array([g.wall(int(w)).mean(axis=0) for w in edge])
        return int(edge[np.argmax(np.hypot(*(mids - self._middle).T))])

    @cached_property
    def _middle(self) -> NDArray[np.float64]:
        """The mean of the maze cells' centres (doors face away from it)."""
        return self.grid.centres[self.mask.reshape(-1)].mean(axis=0)

    def _faces_outside(self, r: int, c: int, dr: int, dc: int) -> bool:
        rr, cc = r + dr, c + dc
        if not (0 <= rr < self.height and 0 <= cc < self.width):
            return True
        return bool(self.outside[rr, cc])

    def door_side(self, cell: Cell | None, *, prefer: str = "NWSE") -> int:
        """The side of ``cell`` that opens to the outside, or 0 if none does.

        Parameters
        ----------
        cell : (int, int) or None
        prefer : str, default 'NWSE'
            Order in which sides are tried.

        Returns
        -------
        int
            A direction bit, or 0.
        """
        self.square_only("a door side")
        if cell is None:
            return 0
        r, c = cell
        table = {"N": DIRECTIONS[0], "E": DIRECTIONS[1], "S": DIRECTIONS[2], "W": DIRECTIONS[3]}
        for letter in prefer:
            bit, dr, dc = table[letter]
            if self._faces_outside(r, c, dr, dc):
                return bit
        return 0

    @property
    def entrance_side(self) -> int:
        """Side through which the entrance opens to the outside (0 when it cannot)."""
        return self.door_side(self.entrance, prefer="NWSE")

    @property
    def exit_side(self) -> int:
        """Side through which the exit opens to the outside (0 when it cannot)."""
        return self.door_side(self.exit, prefer="SENW")

    @property
    def end_doors(self) -> list[tuple[Cell, int]]:
        """``(cell, side)`` of the entrance and the exit where they open to the outside."""
        return [
            (cell, side)
            for cell, side in ((self.entrance, self.entrance_side), (self.exit, self.exit_side))
            if cell is not None and side
        ]

    @cached_property
    def room_mask(self) -> NDArray[np.bool_]:
        """Cells that belong to a room.

        Returns
        -------
        (H, W) ndarray of bool
            Read-only.
        """
        out = np.zeros(self.shape, dtype=bool)
        for room in self.rooms:
            out |= room.mask(self.shape)  # type: ignore[arg-type]
        out.flags.writeable = False
        return out

    # ------------------------------------------------------------------ drawing views

    def walls(self, *, doors: bool = True) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
        """Wall segments of a ``cells`` maze.

        Parameters
        ----------
        doors : bool, default True
            Leave the entrance's and exit's outer sides open.

        Returns
        -------
        horizontal : (H + 1, W) ndarray of bool
            ``horizontal[y, x]`` is the wall on grid line ``y`` between columns
            ``x`` and ``x + 1``: above cell ``(y, x)`` and below ``(y - 1, x)``.
        vertical : (H, W + 1) ndarray of bool
            ``vertical[y, x]`` is the wall on grid line ``x`` beside cells
            ``(y, x - 1)`` and ``(y, x)``.
        """
        self.square_only("the wall grids")
        m = self.mask
        p = self.passages
        h, w = m.shape
        above = np.zeros((h + 1, w), dtype=bool)
        below = np.zeros((h + 1, w), dtype=bool)
        above[1:] = m
        below[:-1] = m
        hor = above | below
        hor[1:-1] &= ~((p[:-1] & S) != 0)
        left = np.zeros((h, w + 1), dtype=bool)
        right = np.zeros((h, w + 1), dtype=bool)
        left[:, 1:] = m
        right[:, :-1] = m
        ver = left | right
        ver[:, 1:-1] &= ~((p[:, :-1] & E) != 0)
        if doors:
            for (r, c), side in self.end_doors:
                if side == N:
                    hor[r, c] = False
                elif side == S:
                    hor[r + 1, c] = False
                elif side == W:
                    ver[r, c] = False
                else:
                    ver[r, c + 1] = False
        return hor, ver

    def blocks(self, *, doors: bool = True) -> NDArray[np.int8]:
        """Block picture of a ``blocks`` maze, with a one-block frame.

        Parameters
        ----------
        doors : bool, default True
            Open the frame block in front of the entrance and the exit.

        Returns
        -------
        (H + 2, W + 2) ndarray of int8
            ``0`` ground, ``1`` wall block, ``2`` path block. Cell ``(r, c)``
            is at ``[r + 1, c + 1]``. Wall blocks are the region's unused cells
            plus every ground cell touching the region (corners included), so
            the figure is closed by a one-block outline.
        """
        self.square_only("the block picture")
        h, w = self.shape
        out = np.zeros((h + 2, w + 2), dtype=np.int8)
        reg = np.pad(self.region, 1)
        near = reg.copy()
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                near |= np.roll(np.roll(reg, dr, axis=0), dc, axis=1)
        out[near] = 1
        out[1:-1, 1:-1][self.mask] = 2
        if doors:
            for (r, c), side in self.end_doors:
                dr, dc = STEP[side]
                out[r + 1 + dr, c + 1 + dc] = 2
        return out

    def picture(self, *, doors: bool = True) -> NDArray[np.int8]:
        """The maze as blocks, whatever its geometry: ``0`` ground, ``1`` wall, ``2`` floor.

        A ``blocks`` maze gives :meth:`blocks`; a ``cells`` maze gives its
        :meth:`raster` with the positions not next to any maze cell left as
        ground. Cell ``(r, c)`` is at :meth:`picture_position`.

        Parameters
        ----------
        doors : bool, default True
            Open the outline in front of the entrance and the exit.

        Returns
        -------
        ndarray of int8
            ``(2H + 1, 2W + 1)`` for ``cells``, ``(H + 2, W + 2)`` for ``blocks``.
        """
        self.square_only("the block picture")
        if self.geometry == "blocks":
            return self.blocks(doors=doors)
        open_ = self.raster()
        cells = np.zeros((open_.shape[0] + 2, open_.shape[1] + 2), dtype=bool)
        cells[2:-1:2, 2:-1:2] = self.mask
        near = np.zeros_like(open_)
        for dr in (0, 1, 2):
            for dc in (0, 1, 2):
                near |= cells[dr : dr + open_.shape[0], dc : dc + open_.shape[1]]
        out = np.where(open_, 2, np.where(near, 1, 0)).astype(np.int8)
        if doors:
            for (r, c), side in self.end_doors:
                dr, dc = STEP[side]
                out[2 * r + 1 + dr, 2 * c + 1 + dc] = 2
        return out

    def picture_position(self, cell: Cell) -> Cell:
        """Where cell ``(row, col)`` sits in :meth:`picture`."""
        r, c = cell
        return (2 * r + 1, 2 * c + 1) if self.geometry == "cells" else (r + 1, c + 1)

    def raster(self) -> NDArray[np.bool_]:
        """The classic block raster of the maze graph.

        Returns
        -------
        (2H + 1, 2W + 1) ndarray of bool
            True is open. ``[2r + 1, 2c + 1]`` is cell ``(r, c)``; the position
            between two cells is open when a passage joins them; even/even
            positions (wall corners) are always closed.
        """
        self.square_only("the block raster")
        h, w = self.shape
        out = np.zeros((2 * h + 1, 2 * w + 1), dtype=bool)
        out[1::2, 1::2] = self.mask
        out[1::2, 2:-1:2] = (self.passages[:, :-1] & E) != 0
        out[2:-1:2, 1::2] = (self.passages[:-1, :] & S) != 0
        return out

    @classmethod
    def from_raster(
        cls,
        raster: ArrayLike,
        *,
        geometry: Geometry = "cells",
        region: ArrayLike | None = None,
        entrance: Cell | None = None,
        exit: Cell | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> Maze:
        """Read a ``(2H+1, 2W+1)`` raster back into a Maze (inverse of :meth:`raster`).

        The weighted DFS carves ``cells`` mazes this way: as blocks on the lattice
        of cells and the slots between them, read back with ``lattice == PATH``.

        Parameters
        ----------
        raster : (2H + 1, 2W + 1) array_like of bool
            True is open: odd/odd positions are cells, the positions between two
            open cells are passages; the frame and the corners are ignored.
        geometry, region, entrance, exit, meta
            As for :class:`Maze`.

        Returns
        -------
        Maze
        """
        r = np.asarray(raster, dtype=bool)
        if r.ndim != 2 or r.shape[0] % 2 == 0 or r.shape[1] % 2 == 0 or min(r.shape) < 3:
            raise InvalidMazeError(
                f"a maze raster has odd sides of at least 3, got shape {r.shape}"
            )
        mask = r[1::2, 1::2]
        h, w = mask.shape
        east = np.zeros((h, w), dtype=bool)
        south = np.zeros((h, w), dtype=bool)
        east[:, :-1] = r[1::2, 2:-1:2] & mask[:, :-1] & mask[:, 1:]
        south[:-1, :] = r[2:-1:2, 1::2] & mask[:-1, :] & mask[1:, :]
        return cls(
            mask,
            passages_from_links(east, south),
            geometry=geometry,
            region=region,
            entrance=entrance,
            exit=exit,
            meta=meta,
        )

    @classmethod
    def from_text(cls, text: str, *, meta: Mapping[str, Any] | None = None) -> Maze:
        """Read an ASCII raster (``#`` wall, anything else open; ``S``/``E``/``X`` mark the ends).

        The inverse of :func:`mazeart.export.text.to_ascii` for a maze on a full
        rectangle. Common indentation is removed and short lines are padded with wall.

        Returns
        -------
        Maze
        """
        import textwrap

        lines = [ln.rstrip("\n") for ln in textwrap.dedent(text).strip("\n").splitlines()]
        if not lines:
            raise InvalidMazeError("the text maze is empty")
        width = max(len(ln) for ln in lines)
        grid = np.array([list(ln.ljust(width, "#")) for ln in lines])
        entrance = exit_ = None
        for ch in ("S", "E", "X"):
            rr, cc = np.nonzero(grid == ch)
            if len(rr) > 1:
                raise InvalidMazeError(f"the text maze marks {ch!r} more than once")
            if len(rr) == 1:
                if rr[0] % 2 == 0 or cc[0] % 2 == 0:
                    raise InvalidMazeError(f"{ch!r} must sit on a cell (odd row and column)")
                cell = (int(rr[0]) // 2, int(cc[0]) // 2)
                if ch in "SX":
                    entrance = cell
                if ch in "EX":
                    exit_ = cell
        return cls.from_raster(grid != "#", entrance=entrance, exit=exit_, meta=meta)


def _check_rooms(maze: Maze) -> None:
    """Rooms are maze cells, open inside and closed but for their doors (on any grid)."""
    n = maze.grid.n_cells
    owner = np.zeros(n, np.int64)
    doors: set[tuple[int, int]] = set()
    for i, room in enumerate(maze.rooms, start=1):
        if room.cells and room.on_ids == maze.is_square:
            raise InvalidMazeError(
                f"room {room.name!r} names its cells as "
                f"{'ids' if room.on_ids else '(row, col)'}; the {maze.kind} grid names them "
                f"{'(row, col)' if maze.is_square else 'by id'}"
            )
        for cell in room.cells:
            if not maze.is_cell(cell):
                raise InvalidMazeError(f"room {room.name!r}: cell {cell} is not a maze cell")
        at = maze.flat_cells(room.cells)
        if np.any(owner[at]):
            raise InvalidMazeError(f"room {room.name!r} overlaps another room")
        owner[at] = i
        for d in room.doors:
            if d.cell not in room or d.outside in room:
                raise InvalidMazeError(f"room {room.name!r}: door {d} is not on its edge")
            doors.add((maze.cell_index(d.cell), maze.cell_index(d.outside)))
    if doors and not maze.is_square:
        try:
            maze.grid.walls_between(sorted(doors))
        except MazeartError as exc:
            raise InvalidMazeError(
                f"a room's door joins cells that are not neighbours: {exc}"
            ) from None
    links = maze.links().astype(np.int64)
    a, b = links[:, 0], links[:, 1]
    crossing = (owner[a] != owner[b]) & ((owner[a] > 0) | (owner[b] > 0))
    opened = {(int(x), int(y)) for x, y in links[crossing]}
    opened |= {(y, x) for x, y in opened}
    for x, y in links[crossing].tolist():
        if (x, y) not in doors and (y, x) not in doors:
            room = maze.rooms[max(owner[x], owner[y]) - 1]
            raise InvalidMazeError(f"room {room.name!r} has an opening that is no door "
                                   f"({maze.cell_at(x)} to {maze.cell_at(y)})")  # fmt: skip
    for x, y in doors:
        if (x, y) not in opened:
            room = maze.rooms[owner[x] - 1]
            raise InvalidMazeError(f"room {room.name!r}: door {maze.cell_at(x)} is closed")
    # open inside: every pair of neighbouring cells of one room is a passage
    if maze.is_square:
        own = owner.reshape(maze.shape)
        w = maze.width
        er, ec = np.nonzero((own[:, :-1] == own[:, 1:]) & (own[:, :-1] > 0))
        sr, sc = np.nonzero((own[:-1] == own[1:]) & (own[:-1] > 0))
        pa = np.concatenate([er * w + ec, sr * w + sc])
        pb = np.concatenate([er * w + ec + 1, (sr + 1) * w + sc])
    else:
        wc = maze.grid.wall_cells.astype(np.int64)
        pa, pb = wc[:, 0], wc[:, 1]
        keep = (pb >= 0) & (owner[pa] > 0) & (owner[pa] == owner[np.maximum(pb, 0)])
        pa, pb = pa[keep], pb[keep]
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    joined = coo_matrix((np.ones(pa.size, np.int8), (pa, pb)), shape=(n, n))
    _, piece = connected_components(joined, directed=False)
    for i, room in enumerate(maze.rooms, start=1):
        if np.unique(piece[owner == i]).size > 1:
            raise InvalidMazeError(f"room {room.name!r}: its cells do not join up (a room is "
                                   "one piece of neighbouring cells)")  # fmt: skip
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    closed = ~np.isin(np.minimum(pa, pb) * n + np.maximum(pa, pb), lo * n + hi)
    if closed.any():
        x = int(pa[closed][0])
        room = maze.rooms[owner[x] - 1]
        raise InvalidMazeError(f"room {room.name!r} is not open inside at {maze.cell_at(x)}")


_NOT_BITS = "passages must hold 4-bit integers (N=1, E=2, S=4, W=8)"

_GRID_PROBLEMS = (
    "",
    _NOT_BITS,
    "every maze cell must lie inside the region",
    "a cell outside the mask has passages",
    "a passage leads off the grid",
    "passages are not symmetric between neighbouring cells",
)


@njit(cache=True)
def _check_grid(mask, p, region):
    """One pass over a maze's grids: the index of the first problem in
    :data:`_GRID_PROBLEMS` that any cell has (0 when there is none).

    Each problem is a flag or-ed over the cells by loops with no branch in them
    (so they run at memory speed); the answer is the first flag set, which is the
    first problem of the cell whose first problem comes first.
    """
    h, w = mask.shape
    wide = 0  # bits beyond the four sides
    outside_region = 0  # a maze cell outside the region
    outside_mask = 0  # passages on a cell that is no maze cell
    asymmetric = 0  # a side open on one cell and closed on its neighbour
    for r in range(h):
        for c in range(w):
            bits = p[r, c]
            inside = mask[r, c]
            wide |= bits > 15
            outside_region |= inside & ~region[r, c]
            outside_mask |= (bits != 0) & ~inside
        for c in range(w - 1):
            asymmetric |= ((p[r, c] >> 1) ^ (p[r, c + 1] >> 3)) & 1
        if r + 1 < h:
            for c in range(w):
                asymmetric |= ((p[r, c] >> 2) ^ p[r + 1, c]) & 1
    off = 0  # a passage off the grid (border cells only)
    for c in range(w):
        off |= (p[0, c] & 1) | (p[h - 1, c] & 4)
    for r in range(h):
        off |= (p[r, 0] & 8) | (p[r, w - 1] & 2)
    flags = (wide, outside_region, outside_mask, off, asymmetric)
    for code in range(5):
        if flags[code]:
            return code + 1
    return 0


def check_maze(maze: Any) -> None:
    """A :class:`TypeError` unless ``maze`` is a :class:`Maze` (of any grid)."""
    if not isinstance(maze, Maze):
        raise TypeError(f"maze must be a Maze, got {type(maze).__name__}")


def _whole(extent: float) -> int:
    """``extent`` rounded up to a whole number (a rounding error below 1e-9 is no unit more)."""
    return max(1, int(np.ceil(extent - 1e-9)))


def _square_cell(grid: Grid, value: Any) -> Cell | None:
    """A cell id of the square grid as its ``(row, col)`` (a pair is left as it is)."""
    if value is None or isinstance(value, bool) or not isinstance(value, int | np.integer):
        return value  # type: ignore[no-any-return,return-value]
    r, c = divmod(int(value), int(grid.params["cols"]))
    return (r, c)


def _square_from_walls(grid: Grid, mask: ArrayLike, walls: ArrayLike) -> tuple[NDArray, NDArray]:
    """A flat mask and one bool per wall of the square grid as ``(H, W)`` mask and bits."""
    rows, cols = int(grid.params["rows"]), int(grid.params["cols"])
    m = _flat_array(mask, np.bool_, rows * cols, "mask")
    opened = _flat_array(walls, np.bool_, grid.n_walls, "passages")
    a, b = grid.wall_cells[:, 0].astype(np.int64), grid.wall_cells[:, 1].astype(np.int64)
    if np.any(opened & ~((b >= 0) & m[a] & m[np.maximum(b, 0)])):
        raise InvalidMazeError("an open wall does not join two maze cells")
    east, south = np.zeros(rows * cols, bool), np.zeros(rows * cols, bool)
    is_east = (b == a + 1) & (a // cols == b // cols)
    east[a[opened & is_east]] = True
    south[a[opened & ~is_east]] = True
    shape = (rows, cols)
    return m.reshape(shape), passages_from_links(east.reshape(shape), south.reshape(shape))
