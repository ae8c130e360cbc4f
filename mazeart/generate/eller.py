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
Kruskal's (:func:`~mazeart.generate._forest.complete_forest`), so every free
part is one perfect maze; on a rectangle that pass has nothing to do.
"""

from __future__ import annotations

import numpy as np

from mazeart._graph import find
from mazeart._jit import njit
from mazeart._rng import below, next_u64
from mazeart.generate._common import carve, kernel_generator

__all__ = ["eller"]


@njit(cache=True)
def _eller(free, offsets, stride, starts, state, passages, order):
    rows = free.size // stride
    above = np.full(stride, -1, np.int32)  # set of each column, inherited from the row above
    ids = np.full(stride, -1, np.int32)
    remap = np.full(stride, -1, np.int32)
    parent = np.arange(stride).astype(np.int32)
    can_go_south = np.zeros(stride, np.int32)
    linked = np.zeros(stride, np.bool_)
    coins = np.uint64(0)  # 64 fair coin flips per draw
    n_coins = 0
    for r in range(1, rows - 1):
        base = r * stride
        below_base = base + stride
        last = r == rows - 2
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
                linked[i] = False
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
            if n_coins == 0:
                coins = next_u64(state)
                n_coins = 64
            heads = (coins & np.uint64(1)) != 0
            coins >>= np.uint64(1)
            n_coins -= 1
            if last or can_go_south[a] == 0 or can_go_south[b] == 0 or heads:
                parent[b] = a
                can_go_south[a] += can_go_south[b]
                c = base + col
                carve(passages, order, c, 1, c + 1)
        if last:
            break
        for col in range(1, stride - 1):  # from here on, each cell's set is its root
            if ids[col] >= 0:
                ids[col] = find(parent, ids[col])
        # open south at random ...
        for col in range(1, stride - 1):
            if ids[col] < 0 or not free[below_base + col]:
                continue
            if n_coins == 0:
                coins = next_u64(state)
                n_coins = 64
            heads = (coins & np.uint64(1)) != 0
            coins >>= np.uint64(1)
            n_coins -= 1
            if heads:
                a = ids[col]
                linked[a] = True
                above[col] = a
                carve(passages, order, base + col, 2, below_base + col)
        # ... and at least once per set that can: a uniformly random one of its cells
        any_unlinked = False
        for i in range(k):
            if parent[i] == i and can_go_south[i] > 0 and not linked[i]:
                any_unlinked = True
                can_go_south[i] = 1 + below(state, can_go_south[i])  # count down to it
        if any_unlinked:
            for col in range(1, stride - 1):
                if ids[col] < 0 or not free[below_base + col]:
                    continue
                a = ids[col]
                if not linked[a]:
                    can_go_south[a] -= 1
                    if can_go_south[a] == 0:
                        linked[a] = True
                        above[col] = a
                        carve(passages, order, base + col, 2, below_base + col)


eller = kernel_generator(
    "eller",
    _eller,
    description="Eller's: row by row, one row of sets in memory",
    summary="Carve a perfect maze with Eller's algorithm.",
    join=True,
)
