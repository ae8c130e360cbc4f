"""Shared pieces of the generators: free parts, the cell lattice, and building the Maze."""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from mazeart._graph import label_mask
from mazeart._rng import below
from mazeart.maze import Maze, passages_from_links
from mazeart.weights import FORBIDDEN, FREE, PATH

__all__ = [
    "label_parts",
    "lattice_weights",
    "maze_from_lattice",
    "maze_from_path_blocks",
    "part_starts",
]


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
    labels, n = label_parts(free)
    return _reservoir_pick(labels.ravel(), n, state)


def lattice_weights(free: NDArray[np.bool_]) -> NDArray[np.int32]:
    """The ``(2H+1, 2W+1)`` weight lattice on which a ``cells`` maze is carved as blocks.

    Cell ``(r, c)`` sits at ``(2r+1, 2c+1)``; the slot between two free neighbours
    is free too; wall corners (even/even), slots beside a non-free cell and the
    frame are :data:`~mazeart.weights.FORBIDDEN`. A block maze carved on this
    lattice is exactly a cell maze: every corridor alternates cell, slot, cell.
    """
    h, w = free.shape
    lat = np.full((2 * h + 1, 2 * w + 1), FORBIDDEN, dtype=np.int32)
    lat[1::2, 1::2][free] = FREE
    lat[1::2, 2:-1:2][free[:, :-1] & free[:, 1:]] = FREE
    lat[2:-1:2, 1::2][free[:-1, :] & free[1:, :]] = FREE
    return lat


def maze_from_lattice(
    lattice: NDArray[np.int32], region: NDArray[np.bool_], *, meta: dict | None = None
) -> Maze:
    """Read a carved lattice (``PATH`` = open) back into a ``cells`` Maze."""
    carved = lattice == PATH
    mask = carved[1::2, 1::2]
    h, w = mask.shape
    east = np.zeros((h, w), dtype=bool)
    south = np.zeros((h, w), dtype=bool)
    east[:, :-1] = carved[1::2, 2:-1:2]
    south[:-1, :] = carved[2:-1:2, 1::2]
    return Maze(mask, passages_from_links(east, south), geometry="cells", region=region, meta=meta)


def maze_from_path_blocks(
    path: NDArray[np.bool_], region: NDArray[np.bool_], *, meta: dict | None = None
) -> Maze:
    """A ``blocks`` Maze from its path blocks: adjacent path blocks are joined."""
    h, w = path.shape
    east = np.zeros((h, w), dtype=bool)
    south = np.zeros((h, w), dtype=bool)
    east[:, :-1] = path[:, :-1] & path[:, 1:]
    south[:-1, :] = path[:-1, :] & path[1:, :]
    return Maze(path, passages_from_links(east, south), geometry="blocks", region=region, meta=meta)
