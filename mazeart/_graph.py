"""Grid graph basics at the bottom of the package: sides, union-find, flood fills.

- The four sides of a cell and their passage bits (:data:`N` ``=1``,
  :data:`E` ``=2``, :data:`S` ``=4``, :data:`W` ``=8``): one table that the model,
  the kernels, rooms and the file formats all read.
- One union-find (:func:`find`, :func:`union`, :func:`spanning_edges`), compiled.
- Labelling the 4-connected parts of a mask, and the parts of a maze graph.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from mazeart._jit import njit

__all__ = [
    "BITS",
    "DIRECTIONS",
    "OPPOSITE",
    "OPPOSITE_BITS",
    "SIDE_BIT",
    "SIDE_LETTER",
    "STEP",
    "E",
    "N",
    "S",
    "W",
    "erase_loops",
    "find",
    "runs",
    "spanning_edges",
    "union",
]

N, E, S, W = 1, 2, 4, 8
"""Passage bits: north (row - 1), east (col + 1), south (row + 1), west (col - 1)."""

DIRECTIONS: tuple[tuple[int, int, int], ...] = ((N, -1, 0), (E, 0, 1), (S, 1, 0), (W, 0, -1))
"""``(bit, d_row, d_col)`` for the four sides, in the order N, E, S, W."""

OPPOSITE: dict[int, int] = {N: S, E: W, S: N, W: E}
"""The side a passage arrives on, for each side it leaves by."""

STEP: dict[int, tuple[int, int]] = {bit: (dr, dc) for bit, dr, dc in DIRECTIONS}
"""``(d_row, d_col)`` of each side bit."""

SIDE_LETTER: dict[int, str] = {N: "N", E: "E", S: "S", W: "W"}
"""The letter of each side bit (files and messages)."""

SIDE_BIT: dict[str, int] = {v: k for k, v in SIDE_LETTER.items()}
"""The side bit of each letter."""

BITS = np.array([bit for bit, _, _ in DIRECTIONS], dtype=np.uint8)
"""Passage bit of each direction, in the kernels' order N, E, S, W."""

OPPOSITE_BITS = np.array([OPPOSITE[bit] for bit, _, _ in DIRECTIONS], dtype=np.uint8)
"""The bit the neighbour receives, per direction."""


@njit(cache=True)
def find(parent, a):
    """Root of ``a`` in a union-find forest, halving the path on the way."""
    while parent[a] != a:
        parent[a] = parent[parent[a]]
        a = parent[a]
    return a


@njit(cache=True)
def union(parent, rank, a, b):
    """Join the sets of ``a`` and ``b`` (by rank); False if they were one already."""
    ra = find(parent, a)
    rb = find(parent, b)
    if ra == rb:
        return False
    if rank[ra] < rank[rb]:
        ra, rb = rb, ra
    parent[rb] = ra
    if rank[ra] == rank[rb]:
        rank[ra] += 1
    return True


@njit(cache=True)
def spanning_edges(n, pa, pb, forced):
    """Kruskal's selection over pairs taken in the given order.

    Pair ``i`` joins nodes ``pa[i]`` and ``pb[i]`` of ``0..n-1``. It is kept when
    ``forced[i]`` or when it joins two different sets; kept pairs merge their sets.
    Returns the ``(len(pa),)`` boolean mask of kept pairs.
    """
    parent = np.arange(n)
    rank = np.zeros(n, np.int8)
    out = np.zeros(pa.size, np.bool_)
    for i in range(pa.size):
        joined = union(parent, rank, pa[i], pb[i])
        out[i] = joined or forced[i]
    return out


def runs(a: NDArray[np.bool_]) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp]]:
    """Maximal runs of True along each row: ``(row, start, stop)`` with ``stop`` exclusive.

    >>> runs(np.array([[1, 1, 0, 1]], bool))
    (array([0, 0]), array([0, 3]), array([2, 4]))
    """
    rows, cols = a.shape
    padded = np.zeros((rows, cols + 2), dtype=np.int8)
    padded[:, 1:-1] = a
    d = np.diff(padded, axis=1)
    r0, c0 = np.nonzero(d == 1)
    _, c1 = np.nonzero(d == -1)
    return r0, c0, c1


@njit(cache=True)
def erase_loops(walk, n):
    """The simple path a walk traces: each return to a cell cuts off the loop since."""
    pos = np.full(n, -1, np.int64)
    out = np.empty(walk.size, np.int64)
    length = 0
    for i in range(walk.size):
        c = walk[i]
        p = pos[c]
        if p >= 0:
            while length > p + 1:
                length -= 1
                pos[out[length]] = -1
        else:
            pos[c] = length
            out[length] = c
            length += 1
    return out[:length]
