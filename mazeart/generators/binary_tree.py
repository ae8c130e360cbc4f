"""Binary tree: every cell opens north or west, at random.

On a full rectangle this alone is a perfect maze: the top row runs west into
the corner and the left column runs north into it, so every cell leads to the
north-west corner (and the top row and left column are long straight runs: the
algorithm's signature bias).

On a preset, a cell whose north and west neighbours are both outside the shape
opens neither way and roots a tree of its own. Those trees are then joined by
removing random walls between different trees (the union-find pass of
Kruskal's, :func:`~mazeart.generators._forest.complete_forest`), so each free
part still ends as one perfect maze. The pass does nothing on a rectangle.
"""

from __future__ import annotations

import numpy as np

from mazeart._jit import njit
from mazeart._rng import next_u64
from mazeart.generators._common import carve, kernel_generator

__all__ = ["binary_tree", "binary_tree_row"]


@njit(cache=True)
def binary_tree_row(free, base, stride, coins, state, passages, order):
    """Carve one row of the binary tree: each of its cells opens north or west.

    ``free`` and ``passages`` are flat framed arrays holding at least the row
    starting at ``base`` and the row above it; ``coins`` buffers the flips (see
    :func:`mazeart._rng.flip`). The in-memory generator and the streamed one
    (:mod:`mazeart.stream`) both call this for every row.
    """
    flips, left = coins[0], coins[1]  # the buffered coins, held in registers for the row
    record = order.size > 1
    for c in range(base, base + stride):
        if not free[c]:
            continue
        north = free[c - stride]
        west = free[c - 1]
        if north and west:
            if left == 0:
                flips = next_u64(state)
                left = np.uint64(64)
            go_north = (flips & np.uint64(1)) != 0
            flips >>= np.uint64(1)
            left -= np.uint64(1)
        elif north or west:
            go_north = north
        else:
            continue
        if record:
            if go_north:
                carve(passages, order, c, 0, c - stride)
            else:
                carve(passages, order, c, 3, c - 1)
        elif go_north:
            passages[c] |= 1
            passages[c - stride] |= 4
        else:
            passages[c] |= 8
            passages[c - 1] |= 2
    coins[0], coins[1] = flips, left


@njit(cache=True)
def _binary_tree(free, offsets, stride, starts, state, passages, order):
    rows = free.size // stride
    coins = np.zeros(2, np.uint64)
    for r in range(1, rows - 1):  # the frame rows have no free cell
        binary_tree_row(free, r * stride, stride, coins, state, passages, order)


binary_tree = kernel_generator(
    "binary-tree",
    _binary_tree,
    description="binary tree: each cell opens north or west",
    summary="Carve a perfect maze with the binary-tree algorithm (north-west bias).",
    join=True,
)
