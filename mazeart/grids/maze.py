"""A maze on any grid: which cells are maze, which walls are open, and where it is entered.

:class:`GridMaze` is the :class:`~mazeart.maze.Maze` of the other grids: the
same questions (cells, passages, links, neighbours, entrance and exit) asked of
a :class:`~mazeart.grids.Grid` instead of a square lattice. Solvers, measures,
the saved format and the drawing read it through those questions; a square
:class:`~mazeart.maze.Maze` becomes one with :meth:`GridMaze.from_maze`.

>>> import numpy as np
>>> from mazeart.grids import square_grid
>>> g = square_grid(1, 3)
>>> opened = np.isin(np.arange(g.n_walls), [g.wall_between(0, 1), g.wall_between(1, 2)])
>>> maze = GridMaze(g, np.ones(3, bool), opened)
>>> maze.links().tolist(), maze.degree().tolist()
([[0, 1], [1, 2]], [1, 2, 1])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mazeart._io import check_text
from mazeart.errors import InvalidMazeError
from mazeart.grids import Grid

if TYPE_CHECKING:
    from mazeart.maze import Maze

__all__ = ["GridMaze"]


def _readonly(a: ArrayLike, dtype: Any, n: int, what: str) -> NDArray[Any]:
    out = np.array(a, dtype=dtype, copy=True).reshape(-1)
    if out.size != n:
        raise InvalidMazeError(f"{what} has {out.size} entries, the grid needs {n}")
    out.flags.writeable = False
    return out


@dataclass(frozen=True, eq=False)
class GridMaze:
    """A maze on a :class:`~mazeart.grids.Grid`.

    Attributes
    ----------
    grid : Grid
    mask : (n,) ndarray of bool
        Cells that are maze.
    passages : (n_walls,) ndarray of bool
        Open walls; only walls between two maze cells may be open.
    entrance, exit : int or None
        Maze cells where the maze is entered and left (through a wall on the
        outside of the maze: see :meth:`door_wall`).
    meta : mapping
        How it was made (algorithm, seed, options).
    tags : mapping of int to str
        Tag kinds on maze cells (``{cell id: "loot"}``; see :mod:`mazeart.tags`).
    """

    grid: Grid
    mask: NDArray[np.bool_]
    passages: NDArray[np.bool_]
    entrance: int | None = None
    exit: int | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)
    tags: Mapping[int, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        g = self.grid
        if not isinstance(g, Grid):
            raise TypeError(f"grid must be a Grid, got {type(g).__name__}")
        mask = _readonly(self.mask, np.bool_, g.n_cells, "mask")
        passages = _readonly(self.passages, np.bool_, g.n_walls, "passages")
        a, b = g.wall_cells[:, 0], g.wall_cells[:, 1]
        inside = (b >= 0) & mask[a] & mask[np.maximum(b, 0)]
        if np.any(passages & ~inside):
            w = int(np.flatnonzero(passages & ~inside)[0])
            raise InvalidMazeError(
                f"wall {w} is open but does not join two maze cells "
                f"(cells {int(a[w])} and {int(b[w])})"
            )
        object.__setattr__(self, "mask", mask)
        object.__setattr__(self, "passages", passages)
        for name in ("entrance", "exit"):
            cell = getattr(self, name)
            if cell is None:
                continue
            if isinstance(cell, bool) or not isinstance(cell, int | np.integer):
                raise TypeError(f"{name} must be a cell id (int), got {type(cell).__name__}")
            if not (0 <= int(cell) < g.n_cells and mask[int(cell)]):
                raise InvalidMazeError(f"{name} {int(cell)} is not a maze cell")
            object.__setattr__(self, name, int(cell))
        object.__setattr__(self, "meta", MappingProxyType(dict(self.meta)))
        tags = {}
        for cell, kind in dict(self.tags).items():
            if isinstance(cell, bool) or not isinstance(cell, int | np.integer):
                raise TypeError(f"a tag's cell must be a cell id (int), got {type(cell).__name__}")
            if not (0 <= int(cell) < g.n_cells and mask[int(cell)]):
                raise InvalidMazeError(f"tag {kind!r} is on cell {int(cell)}, not a maze cell")
            tags[int(cell)] = check_text(kind, "a tag kind")
        object.__setattr__(self, "tags", MappingProxyType(dict(sorted(tags.items()))))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle by the fields (batch work sends mazes between processes)."""
        fields = (self.grid, self.mask, self.passages, self.entrance, self.exit)
        return (GridMaze, (*fields, dict(self.meta), dict(self.tags)))

    def __repr__(self) -> str:
        return (
            f"GridMaze({self.grid.kind}, cells={self.n_cells}, "
            f"algorithm={self.meta.get('algorithm')!r})"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GridMaze):
            return NotImplemented
        return (
            self.grid.kind == other.grid.kind
            and dict(self.grid.params) == dict(other.grid.params)
            and np.array_equal(self.mask, other.mask)
            and np.array_equal(self.passages, other.passages)
            and (self.entrance, self.exit) == (other.entrance, other.exit)
            and dict(self.meta) == dict(other.meta)
            and dict(self.tags) == dict(other.tags)
        )

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------------ the questions

    @property
    def geometry(self) -> str:
        """``'cells'``: walls between cells (the only geometry off the square grid)."""
        return "cells"

    @property
    def kind(self) -> str:
        """The grid's kind."""
        return self.grid.kind

    @property
    def n_cells(self) -> int:
        """Number of maze cells."""
        return int(np.count_nonzero(self.mask))

    @property
    def n_passages(self) -> int:
        """Number of open walls."""
        return int(np.count_nonzero(self.passages))

    def is_cell(self, cell: Any) -> bool:
        """Whether ``cell`` is a maze cell id."""
        return (
            isinstance(cell, int | np.integer)
            and 0 <= int(cell) < self.grid.n_cells
            and bool(self.mask[int(cell)])
        )

    def links(self) -> NDArray[np.intp]:
        """Every passage as a pair of cell ids, the lower first.

        Returns
        -------
        (K, 2) ndarray of intp
        """
        return self.grid.wall_cells[self.passages].astype(np.intp)

    @cached_property
    def open_table(self) -> tuple[NDArray[np.int64], NDArray[np.int32]]:
        """The passages as a neighbour table (CSR ``indptr``, ``indices``): the maze's graph."""
        g = self.grid
        keep = self.passages[g.wall_of]
        source = np.repeat(np.arange(g.n_cells), np.diff(g.indptr))
        indptr = np.zeros(g.n_cells + 1, np.int64)
        indptr[1:] = np.cumsum(np.bincount(source[keep], minlength=g.n_cells))
        return indptr, g.indices[keep].copy()

    def neighbours(self, cell: int) -> list[int]:
        """The cells a passage joins to ``cell``."""
        indptr, indices = self.open_table
        return indices[indptr[cell] : indptr[cell + 1]].tolist()

    def degree(self) -> NDArray[np.int64]:
        """Open passages of every cell (0 off the maze)."""
        return np.diff(self.open_table[0])

    def replace(self, **changes: Any) -> GridMaze:
        """A copy with some fields changed."""
        fields: dict[str, Any] = {
            "grid": self.grid,
            "mask": self.mask,
            "passages": self.passages,
            "entrance": self.entrance,
            "exit": self.exit,
            "meta": self.meta,
            "tags": self.tags,
        }
        unknown = set(changes) - set(fields)
        if unknown:
            raise TypeError(f"unknown GridMaze field(s): {', '.join(sorted(unknown))}")
        fields.update(changes)
        return GridMaze(**fields)

    # ------------------------------------------------------------------ the outside

    @cached_property
    def outside(self) -> NDArray[np.bool_]:
        """Cells that are not maze and connect to the grid's edge through cells that are not
        maze: the ground around the maze. A hole inside the figure (the counter of a letter)
        is not outside."""
        from scipy.sparse import coo_matrix
        from scipy.sparse.csgraph import connected_components

        g = self.grid
        n = g.n_cells
        a, b = g.wall_cells[:, 0].astype(np.int64), g.wall_cells[:, 1].astype(np.int64)
        ground = ~self.mask
        if g.kind == "weave":  # the ground is the square cells'; tunnels join no ground
            ground[int(g.params["rows"]) * int(g.params["cols"]) :] = False
        edge = b < 0
        both = ~edge & ground[a] & ground[np.maximum(b, 0)]
        rim = edge & ground[a]  # the grid's edge is one more node, n
        i = np.concatenate([a[both], a[rim]])
        j = np.concatenate([b[both], np.full(int(rim.sum()), n)])
        graph = coo_matrix((np.ones(len(i), np.int8), (i, j)), shape=(n + 1, n + 1))
        _, labels = connected_components(graph, directed=False)
        out = ground & (labels[:n] == labels[n])
        out.flags.writeable = False
        return out

    @cached_property
    def boundary(self) -> NDArray[np.bool_]:
        """Maze cells with a wall on the outside of the maze (the grid's edge or a cell of
        :attr:`outside`): where doors can open."""
        g = self.grid
        a, b = g.wall_cells[:, 0], g.wall_cells[:, 1]
        outer = b < 0
        out = np.zeros(g.n_cells, bool)
        out[a[outer]] = True
        inner = ~outer
        aa, bb = a[inner], b[inner]
        out[aa[self.outside[bb]]] = True
        out[bb[self.outside[aa]]] = True
        return out & self.mask

    def door_wall(self, cell: int | None) -> int:
        """The wall through which ``cell`` (an end) opens to the outside, or ``-1``.

        A wall on the grid's edge is preferred; else a wall towards a cell of
        :attr:`outside` (never into a hole of the figure). Among several, the one
        whose midpoint lies farthest from the maze's middle (so a door faces out).
        """
        if cell is None:
            return -1
        g = self.grid
        rows = np.flatnonzero((g.wall_cells[:, 0] == cell) | (g.wall_cells[:, 1] == cell))
        other = np.where(
            g.wall_cells[rows, 0] == cell, g.wall_cells[rows, 1], g.wall_cells[rows, 0]
        )
        edge = rows[other < 0]
        ground = rows[(other >= 0) & self.outside[np.maximum(other, 0)]]
        pick = edge if edge.size else ground
        if not pick.size:
            return -1
        middle = g.centres[self.mask].mean(axis=0)
        mids = np.array([g.wall(int(w)).mean(axis=0) for w in pick])
        return int(pick[np.argmax(np.hypot(*(mids - middle).T))])

    # ------------------------------------------------------------------ squares

    @classmethod
    def from_maze(cls, maze: Maze) -> GridMaze:
        """A square :class:`~mazeart.maze.Maze` (``cells`` geometry) on the square grid."""
        from mazeart.grids import square_grid
        from mazeart.maze import E, S

        g = square_grid(maze.height, maze.width)
        w = maze.width
        opened = np.zeros(g.n_walls, bool)
        pairs: set[tuple[int, int]] = set()
        er, ec = np.nonzero(maze.passages & E)
        sr, sc = np.nonzero(maze.passages & S)
        pairs.update(zip((er * w + ec).tolist(), (er * w + ec + 1).tolist(), strict=True))
        pairs.update(zip((sr * w + sc).tolist(), ((sr + 1) * w + sc).tolist(), strict=True))
        lookup = {(int(a), int(b)): i for i, (a, b) in enumerate(g.wall_cells.tolist()) if b >= 0}
        for pair in pairs:
            opened[lookup[pair]] = True

        def cell(rc: tuple[int, int] | None) -> int | None:
            return None if rc is None else rc[0] * w + rc[1]

        return cls(g, maze.mask.reshape(-1), opened, cell(maze.entrance), cell(maze.exit),
                   dict(maze.meta))  # fmt: skip

    # ------------------------------------------------------------------ drawing
    # What the renderers (mazeart.export: SVG, PNG, PDF) read of any maze, square or not.

    @property
    def width(self) -> int:
        """The drawing's width, :attr:`Grid.size` across rounded up to a whole unit."""
        return _whole(self.grid.size[0])

    @property
    def height(self) -> int:
        """The drawing's height, :attr:`Grid.size` down rounded up to a whole unit."""
        return _whole(self.grid.size[1])


def _whole(extent: float) -> int:
    """``extent`` rounded up to a whole number (a rounding error below 1e-9 is no unit more)."""
    return max(1, int(np.ceil(extent - 1e-9)))
