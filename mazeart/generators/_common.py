"""Shared pieces of the generators: free parts, the cell lattice, and building the Maze."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mazeart._graph import BITS, OPPOSITE_BITS
from mazeart._jit import njit
from mazeart._kernels.parts import label_mask
from mazeart._kernels.topology import square_topology
from mazeart._rng import RngLike, as_generator, below, kernel_state
from mazeart.errors import MazeartError
from mazeart.generators._carve import (
    carve,
    close,
    mark,
    order_buffer,
    report_carving,
)
from mazeart.maze import Maze, passages_from_links
from mazeart.weights import FORBIDDEN, FREE

__all__ = [
    "BITS",
    "OPPOSITE_BITS",
    "CellGrid",
    "carve",
    "close",
    "kernel_generator",
    "label_parts",
    "lattice_passages",
    "lattice_weights",
    "mark",
    "maze_from_path_blocks",
    "order_buffer",
    "owned",
    "part_starts",
    "report_carving",
]


def cell_times(order: NDArray[np.int64], shape: tuple[int, int]) -> dict[str, NDArray[np.int64]]:
    """East and south passage ticks of the ``(H, W)`` grid from a framed cell-kernel buffer."""
    h, w = shape
    slots = order[1:].reshape(h + 2, w + 2, 2)[1:-1, 1:-1]
    return {"east": slots[..., 0].copy(), "south": slots[..., 1].copy()}


def block_times(order: NDArray[np.int64], shape: tuple[int, int]) -> dict[str, NDArray[np.int64]]:
    """Path ticks of the ``(H, W)`` blocks from a framed block-kernel buffer."""
    h, w = shape
    return {"blocks": order[1:].reshape(h + 2, w + 2)[1:-1, 1:-1].copy()}


class CellGrid:
    """A preset prepared for a cell kernel: flat, framed arrays and the random stream.

    Cell kernels work on the ``(H + 2) * (W + 2)`` flat grid with a non-free
    frame, so the four neighbours of every free cell exist and no bounds are
    checked; neighbour ``i`` of flat cell ``c`` is ``c + offsets[i]`` for the
    directions N, E, S, W.

    Attributes
    ----------
    free : (H, W) ndarray of bool
        Free cells of the preset.
    flat_free : ((H+2)*(W+2),) ndarray of bool
        The same, framed and flattened.
    stride : int
        Row length of the framed grid, ``W + 2``.
    offsets : (4,) ndarray of int64
        Flat steps N, E, S, W.
    topology : (4,) ndarray of int64
        The same steps as the grid's topology for the kernels written for every grid
        (:mod:`mazeart._kernels.topology`).
    state : (1,) ndarray of uint64
        Kernel random stream drawn from the caller's Generator.
    starts : (n_parts,) ndarray of int64
        One random framed cell per free part, in reading order of the parts.
    passages : ((H+2)*(W+2),) ndarray of uint8
        Zeroed passage bits for the kernel to fill.
    """

    def __init__(self, weights: ArrayLike, rng: RngLike) -> None:
        from mazeart.weights import is_free, validate_weights

        self.rng = rng = as_generator(rng)
        w = validate_weights(weights)
        self.weights = w
        self.free = is_free(w)
        h, wd = self.free.shape
        self.stride = wd + 2
        framed = np.zeros((h + 2, wd + 2), dtype=bool)
        framed[1:-1, 1:-1] = self.free
        self.flat_free = framed.reshape(-1)
        self.offsets = np.array([-self.stride, 1, self.stride, -1], dtype=np.int64)
        self.topology = square_topology(self.stride)
        self.state = kernel_state(rng)
        starts = part_starts(self.free, self.state)
        rows, cols = np.divmod(starts, wd)
        self.starts = (rows + 1) * self.stride + cols + 1
        self.passages = np.zeros(framed.size, dtype=np.uint8)
        self.order = order_buffer(2 * framed.size)

    def maze(self) -> Maze:
        """The ``cells`` Maze of the filled passages."""
        h, wd = self.free.shape
        p = self.passages.reshape(h + 2, wd + 2)[1:-1, 1:-1]
        if self.order.size > 1:
            report_carving("cells", cell_times(self.order, self.free.shape))
        return Maze(owned(self.free), p, geometry="cells", region=self.free)

    def complete(self, pairs: NDArray[np.int64] | None = None) -> None:
        """Join the pieces of each free part into one tree (see :func:`complete_forest`)."""
        from mazeart.generators._forest import complete_forest

        complete_forest(self, pairs)

    def framed_index(self, cells) -> NDArray[np.int64]:
        """Flat framed indices of ``(row, col)`` cells."""
        a = np.asarray(cells, dtype=np.int64).reshape(-1, 2)
        return (a[:, 0] + 1) * self.stride + a[:, 1] + 1


_GENERATOR_DOC = """{summary}

    Parameters
    ----------
    weights : (H, W) array_like of int
        Preset weight matrix; only free cells are carved, and every free part
        becomes one tree.
    rng : numpy.random.Generator
        The only source of randomness.
    geometry : {{'{geometry}'}}

    Returns
    -------
    Maze
    """


def kernel_generator(
    name: str,
    kernel: Callable[..., Any],
    *,
    description: str,
    summary: str,
    geometry: str = "cells",
    uniform: bool = False,
    join: bool = False,
    topology: bool = False,
) -> Callable[..., Maze]:
    """Define and register a generator whose work is one compiled kernel.

    Parameters
    ----------
    name, description, uniform
        As for :func:`~mazeart.generators.register`.
    kernel : callable
        ``kernel(free, offsets, stride, starts, state, passages, order)`` on the
        flat framed arrays of a :class:`CellGrid`. A ``cells`` kernel fills
        ``passages`` (through :func:`carve`); a ``blocks`` kernel returns the
        flat path mask (and :func:`mark` s the blocks it turns into path).
        With ``topology``, a kernel of :mod:`mazeart._kernels.carve`, written
        for every grid: ``kernel(topo, free, starts, state, passages, order)``.
    summary : str
        First line of the generator's docstring.
    geometry : {'cells', 'blocks'}
    join : bool, default False
        Run :meth:`CellGrid.complete` after the kernel, for algorithms that may
        leave a free part as several trees.

    Returns
    -------
    callable
        The registered ``fn(weights, rng, *, geometry) -> Maze``.
    """
    from mazeart.generators._registry import register

    def generator(
        weights: NDArray[np.int32], rng: np.random.Generator, *, geometry: str = geometry
    ) -> Maze:
        if geometry != supported:
            raise MazeartError(f"{name} supports geometry {supported!r} only; got {geometry!r}")
        g = CellGrid(weights, rng)
        if supported == "blocks":
            g.order = order_buffer(g.flat_free.size)
        if topology:
            out = kernel(g.topology, g.flat_free, g.starts, g.state, g.passages, g.order)
        else:
            out = kernel(g.flat_free, g.offsets, g.stride, g.starts, g.state, g.passages, g.order)
        if supported == "blocks":
            h, w = g.free.shape
            if g.order.size > 1:
                report_carving("blocks", block_times(g.order, g.free.shape))
            return maze_from_path_blocks(out.reshape(h + 2, w + 2)[1:-1, 1:-1], g.free)
        if join:
            g.complete()
        return g.maze()

    supported = geometry
    generator.__name__ = generator.__qualname__ = name.replace("-", "_")
    generator.__module__ = kernel.__module__
    generator.__doc__ = _GENERATOR_DOC.format(summary=summary, geometry=geometry)
    register(
        name,
        description=description,
        geometries=(geometry,),
        uniform=uniform,
        kernel=kernel if topology else None,
    )(generator)
    return generator


def owned(*arrays: NDArray) -> NDArray:
    """Freeze arrays a generator made and hands over to its Maze, which then keeps them
    as they are instead of copying them. Returns the first."""
    for a in arrays:
        a.flags.writeable = False
    return arrays[0]


def label_parts(free: NDArray[np.bool_]) -> tuple[NDArray[np.int32], int]:
    """Label the 4-connected parts of the free cells.

    Returns
    -------
    labels : (H, W) ndarray of int32
        ``0`` outside, ``1..n`` per part, numbered in reading order.
    n : int
        Number of parts.
    """
    return label_mask(free)


@njit(cache=True)
def _reservoir_pick(labels_flat, n, state):
    """One uniformly random cell per label, in a single pass (reservoir sampling)."""
    seen = np.zeros(n + 1, np.int64)
    pick = np.full(n + 1, -1, np.int64)
    for i in range(labels_flat.size):
        lab = labels_flat[i]
        if lab > 0:
            seen[lab] += 1
            if below(state, seen[lab]) == 0:
                pick[lab] = i
    return pick[1:]


def part_starts(free: NDArray[np.bool_], state: NDArray[np.uint64]) -> NDArray[np.int64]:
    """A random start cell in every free part, as flat ``(H, W)`` indices.

    Parameters
    ----------
    free : (H, W) ndarray of bool
    state : (1,) ndarray of uint64
        Kernel random state (advanced in place).

    Returns
    -------
    (n_parts,) ndarray of int64
    """
    if free.all():  # one part, the whole grid (no labelling needed)
        return np.array([_pick(free.size, state)], dtype=np.int64)
    labels, n = label_parts(free)
    return _reservoir_pick(labels.ravel(), n, state)


@njit(cache=True)
def _pick(n, state):
    return below(state, n)


def lattice_weights(free: NDArray[np.bool_]) -> NDArray[np.int32]:
    """The ``(2H+1, 2W+1)`` weight lattice on which a ``cells`` maze is carved as blocks.

    Cell ``(r, c)`` sits at ``(2r+1, 2c+1)``; the slot between two free neighbours
    is free too; wall corners (even/even), slots beside a non-free cell and the
    frame are :data:`~mazeart.weights.FORBIDDEN`. A block maze carved on this
    lattice is exactly a cell maze: every corridor alternates cell, slot, cell.
    """
    h, w = free.shape
    lat = np.empty((2 * h + 1, 2 * w + 1), dtype=np.int32)
    _fill_lattice(np.ascontiguousarray(free, dtype=np.bool_), lat)
    return lat


@njit(cache=True)
def _fill_lattice(free, lat):
    h, w = free.shape
    lat[0, :] = FORBIDDEN
    for r in range(h):
        top = lat[2 * r + 1]
        below_row = lat[2 * r + 2]
        top[0] = FORBIDDEN
        below_row[0] = FORBIDDEN
        for c in range(w):
            f = free[r, c]
            top[2 * c + 1] = FREE if f else FORBIDDEN
            top[2 * c + 2] = FREE if f and c + 1 < w and free[r, c + 1] else FORBIDDEN
            below_row[2 * c + 1] = FREE if f and r + 1 < h and free[r + 1, c] else FORBIDDEN
            below_row[2 * c + 2] = FORBIDDEN


@njit(cache=True)
def lattice_passages(lat, open_value):
    """The passage bits of a carved lattice: cell ``(r, c)`` is open to a neighbour
    when both cells and the slot between them hold ``open_value``. Returns
    ``(mask, passages)`` of shape ``(H, W)``, the inverse of :func:`lattice_weights`
    for a carved maze (one pass, no temporaries)."""
    h = (lat.shape[0] - 1) // 2
    w = (lat.shape[1] - 1) // 2
    mask = np.zeros((h, w), np.bool_)
    passages = np.zeros((h, w), np.uint8)
    for r in range(h):
        row = lat[2 * r + 1]
        for c in range(w):
            if row[2 * c + 1] != open_value:
                continue
            mask[r, c] = True
            if c + 1 < w and row[2 * c + 2] == open_value and row[2 * c + 3] == open_value:
                passages[r, c] |= 2
                passages[r, c + 1] |= 8
            if (
                r + 1 < h
                and lat[2 * r + 2, 2 * c + 1] == open_value
                and lat[2 * r + 3, 2 * c + 1] == open_value
            ):
                passages[r, c] |= 4
                passages[r + 1, c] |= 1
    return mask, passages


def maze_from_path_blocks(
    path: NDArray[np.bool_], region: NDArray[np.bool_], *, meta: dict | None = None
) -> Maze:
    """A ``blocks`` Maze from its path blocks: adjacent path blocks are joined."""
    h, w = path.shape
    east = np.zeros((h, w), dtype=bool)
    south = np.zeros((h, w), dtype=bool)
    east[:, :-1] = path[:, :-1] & path[:, 1:]
    south[:-1, :] = path[:-1, :] & path[1:, :]
    passages = owned(passages_from_links(east, south))
    return Maze(path, passages, geometry="blocks", region=region, meta=meta)
