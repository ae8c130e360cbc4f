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
    "label_mask",
    "label_passages",
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


@njit(inline="always", cache=True)
def find(parent, a):
    """Root of ``a`` in a union-find forest, halving the path on the way."""
    while parent[a] != a:
        parent[a] = parent[parent[a]]
        a = parent[a]
    return a


@njit(inline="always", cache=True)
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


@njit(cache=True)
def _label_framed(mask, stride):
    """Flood-fill labels on a flat mask whose outer ring is False (no bounds checks)."""
    n = mask.size
    labels = np.zeros(n, np.int32)
    queue = np.empty(n, np.int64)
    count = 0
    for start in range(n):
        if not mask[start] or labels[start] != 0:
            continue
        count += 1
        labels[start] = count
        queue[0] = start
        head = 0
        tail = 1
        while head < tail:
            cur = queue[head]
            head += 1
            for nb in (cur - stride, cur + 1, cur + stride, cur - 1):
                if mask[nb] and labels[nb] == 0:
                    labels[nb] = count
                    queue[tail] = nb
                    tail += 1
    return labels, count


@njit(cache=True)
def label_passages(passages, mask, stride):
    """Label the parts of ``mask`` cells joined by passages, on flat arrays.

    ``passages`` holds the N=1 E=2 S=4 W=8 bits of a grid with rows of length
    ``stride`` (framed or not: a passage never leads off the grid). Cells join
    only if both are in ``mask``. Returns ``(labels, n)``: ``0`` outside the
    mask, ``1..n`` per part in reading order of each part's first cell.
    """
    n = passages.size
    labels = np.zeros(n, np.int32)
    queue = np.empty(n, np.int64)
    steps = (-stride, 1, stride, -1)
    count = 0
    for start in range(n):
        if not mask[start] or labels[start] != 0:
            continue
        count += 1
        labels[start] = count
        queue[0] = start
        head, tail = 0, 1
        while head < tail:
            cur = queue[head]
            head += 1
            bits = passages[cur]
            for k in range(4):
                if bits & (1 << k):
                    nb = cur + steps[k]
                    if mask[nb] and labels[nb] == 0:
                        labels[nb] = count
                        queue[tail] = nb
                        tail += 1
    return labels, count


def label_mask(mask: NDArray[np.bool_]) -> tuple[NDArray[np.int32], int]:
    """Label the 4-connected parts of a boolean grid.

    Parameters
    ----------
    mask : (H, W) ndarray of bool

    Returns
    -------
    labels : (H, W) ndarray of int32
        ``0`` where ``mask`` is False, ``1..n`` per part, numbered in reading
        order of each part's first cell.
    n : int
        Number of parts.
    """
    m = np.asarray(mask, dtype=bool)
    h, w = m.shape
    framed = np.zeros((h + 2, w + 2), dtype=bool)
    framed[1:-1, 1:-1] = m
    labels, n = _label_framed(framed.reshape(-1), w + 2)
    return np.ascontiguousarray(labels.reshape(h + 2, w + 2)[1:-1, 1:-1]), int(n)


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
