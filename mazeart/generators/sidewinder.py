"""Sidewinder: row by row, runs of cells carve east, and each run opens north once.

Each cell either extends the current run east (a coin flip) or closes it,
carving north from a random cell of the run. The top row is one long corridor.

On a preset a run is a stretch of free cells in a row. A run keeps extending
east while none of its cells can open north yet (so it can reach one that
can); a run that ends against the shape with no way north roots its own tree.
Such trees are joined at the end by the union-find pass of Kruskal's
(:func:`~mazeart.generators._forest.complete_forest`), so each free part ends as
one perfect maze; on a rectangle only the top row does this, and needs no join.
"""

from __future__ import annotations

import numpy as np

from mazeart._jit import njit
from mazeart._rng import below, next_u64
from mazeart.generators._common import carve, kernel_generator

__all__ = ["sidewinder", "sidewinder_row"]


@njit(cache=True)
def sidewinder_row(free, base, stride, coins, state, passages, order, north_cells):
    """Carve one row of the sidewinder: its east passages and each run's way north.

    ``free`` and ``passages`` are flat framed arrays holding at least the row
    starting at ``base`` and the row above it; ``north_cells`` is scratch of
    ``stride`` ints; ``coins`` buffers the flips (see :func:`mazeart._rng.flip`).
    The in-memory generator and the streamed one (:mod:`mazeart.stream`) both
    call this for every row.
    """
    run_north = 0  # cells of the current run that can open north
    flips, left = coins[0], coins[1]  # the buffered coins, held in registers for the row
    record = order.size > 1
    for c in range(base + 1, base + stride - 1):
        if not free[c]:
            continue
        if free[c - stride]:
            north_cells[run_north] = c
            run_north += 1
        east = free[c + 1]
        if east:
            heads = run_north == 0
            if not heads:
                if left == 0:
                    flips = next_u64(state)
                    left = np.uint64(64)
                heads = (flips & np.uint64(1)) != 0
                flips >>= np.uint64(1)
                left -= np.uint64(1)
            if heads:
                if record:
                    carve(passages, order, c, 1, c + 1)
                else:
                    passages[c] |= 2
                    passages[c + 1] |= 8
                continue
        if run_north > 0:  # close the run: one way north
            up = north_cells[below(state, run_north)] if run_north > 1 else north_cells[0]
            if record:
                carve(passages, order, up, 0, up - stride)
            else:
                passages[up] |= 1
                passages[up - stride] |= 4
        run_north = 0
    coins[0], coins[1] = flips, left


@njit(cache=True)
def _sidewinder(free, offsets, stride, starts, state, passages, order):
    rows = free.size // stride
    north_cells = np.empty(stride, np.int64)
    coins = np.zeros(2, np.uint64)
    for r in range(1, rows - 1):
        sidewinder_row(free, r * stride, stride, coins, state, passages, order, north_cells)


sidewinder = kernel_generator(
    "sidewinder",
    _sidewinder,
    description="sidewinder: runs carve east, each run opens north once",
    summary="Carve a perfect maze with the sidewinder algorithm.",
    join=True,
)
