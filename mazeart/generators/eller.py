"""Eller's algorithm: row by row, with the sets of one row as its only memory.

Each row's cells belong to sets (cells already joined through earlier rows).
Adjacent cells of different sets are joined east at random; then every set
opens south at least once (and at random elsewhere), and the cells below
inherit the sets. The last row joins all its remaining sets. The working state
is three arrays the width of one row, so the height is limited only by the
output: a 10 x 100000 maze is as easy as a square one.

On a preset, a set whose cells in a row have no free cell below cannot go on;
it is joined east or west to a neighbouring set in that row whenever one
touches it (as on the last row). A set that nothing touches stays a separate
tree, and those trees are joined at the end by the union-find pass of
Kruskal's (:func:`~mazeart.generators._forest.complete_forest`), so every free
part is one perfect maze; on a rectangle that pass has nothing to do.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from mazeart._graph import find
from mazeart._jit import njit
from mazeart._rng import below, flip
from mazeart.generators._common import carve, kernel_generator

__all__ = ["ROW_STATE", "eller", "eller_row", "row_state"]


ROW_STATE = 6
"""Rows of the carried state of :func:`eller_row` (arrays the width of the framed row)."""


def row_state(stride: int) -> tuple[NDArray[np.int32], NDArray[np.uint64]]:
    """The fresh carried state of :func:`eller_row` for framed rows of ``stride`` cells.

    Returns
    -------
    work : (6, stride) ndarray of int32
        Sets inherited from the row above, this row's set ids, the renumbering,
        the union-find parents, the cells of each set that may open south, and
        whether each set has opened south.
    coins : (2,) ndarray of uint64
        64 buffered coin flips and how many of them are left.

    Examples
    --------
    >>> work, coins = row_state(5)
    >>> work.shape, coins.tolist()
    ((6, 5), [0, 0])
    """
    work = np.full((ROW_STATE, stride), -1, np.int32)
    work[3] = np.arange(stride)
    work[4:] = 0
    return work, np.zeros(2, np.uint64)


@njit(cache=True)
def eller_row(free, base, last, work, coins, state, passages, order):
    """Carve one row of Eller's algorithm: east joins in it and south openings below it.

    ``free`` and ``passages`` are flat framed arrays (rows of ``stride`` cells,
    a non-free frame) holding at least the row starting at ``base`` and the
    row below it; ``last`` says the row is the maze's last. ``work`` and
    ``coins`` (from :func:`row_state`) carry the sets from row to row, and
    ``state`` is the kernel random stream. The in-memory generator and the
    streamed one (:mod:`mazeart.stream`) both call this for every row, so the
    same stream gives the same maze.
    """
    stride = work.shape[1]
    above = work[0]  # set of each column, inherited from the row above
    ids = work[1]
    remap = work[2]
    parent = work[3]
    can_go_south = work[4]
    linked = work[5]
    below_base = base + stride
    # Number this row's sets 0..k-1 (inherited sets keep one id, new cells get
    # fresh ones) and count the cells of each that could open south.
    k = 0
    for col in range(1, stride - 1):
        old = above[col]
        above[col] = -1
        if not free[base + col]:
            ids[col] = -1
            continue
        if old >= 0 and remap[old] >= 0:
            i = remap[old]
        else:
            i = k
            k += 1
            parent[i] = i
            can_go_south[i] = 0
            linked[i] = 0
            if old >= 0:
                remap[old] = i
        ids[col] = i
        if not last and free[below_base + col]:
            can_go_south[i] += 1
    for i in range(stride):
        remap[i] = -1
    # join east: at random, always on the last row, always for a set that cannot go south
    for col in range(1, stride - 2):
        if ids[col] < 0 or ids[col + 1] < 0:
            continue
        a = find(parent, ids[col])
        b = find(parent, ids[col + 1])
        if a == b:
            continue
        heads = flip(coins, state)
        if last or can_go_south[a] == 0 or can_go_south[b] == 0 or heads:
            parent[b] = a
            can_go_south[a] += can_go_south[b]
            c = base + col
            carve(passages, order, c, 1, c + 1)
    if last:
        return
    for col in range(1, stride - 1):  # from here on, each cell's set is its root
        if ids[col] >= 0:
            ids[col] = find(parent, ids[col])
    # open south at random ...
    for col in range(1, stride - 1):
        if ids[col] < 0 or not free[below_base + col]:
            continue
        heads = flip(coins, state)
        if heads:
            a = ids[col]
            linked[a] = 1
            above[col] = a
            carve(passages, order, base + col, 2, below_base + col)
    # ... and at least once per set that can: a uniformly random one of its cells
    any_unlinked = False
    for i in range(k):
        if parent[i] == i and can_go_south[i] > 0 and linked[i] == 0:
            any_unlinked = True
            can_go_south[i] = 1 + below(state, can_go_south[i])  # count down to it
    if any_unlinked:
        for col in range(1, stride - 1):
            if ids[col] < 0 or not free[below_base + col]:
                continue
            a = ids[col]
            if linked[a] == 0:
                can_go_south[a] -= 1
                if can_go_south[a] == 0:
                    linked[a] = 1
                    above[col] = a
                    carve(passages, order, base + col, 2, below_base + col)


@njit(cache=True)
def _eller(free, offsets, stride, starts, state, passages, order):
    rows = free.size // stride
    work = np.full((6, stride), -1, np.int32)
    work[3] = np.arange(stride).astype(np.int32)
    work[4:] = 0
    coins = np.zeros(2, np.uint64)
    for r in range(1, rows - 1):
        eller_row(free, r * stride, r == rows - 2, work, coins, state, passages, order)


eller = kernel_generator(
    "eller",
    _eller,
    description="Eller's: row by row, one row of sets in memory",
    summary="Carve a perfect maze with Eller's algorithm.",
    join=True,
)
