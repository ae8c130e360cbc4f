"""Sidewinder: row by row, runs of cells carve east, and each run opens north once.

Each cell either extends the current run east (a coin flip) or closes it,
carving north from a random cell of the run. The top row is one long corridor.

On a preset a run is a stretch of free cells in a row. A run keeps extending
east while none of its cells can open north yet (so it can reach one that
can); a run that ends against the shape with no way north roots its own tree.
Such trees are joined at the end by the union-find pass of Kruskal's
(:func:`~mazeart.generate._forest.complete_forest`), so each free part ends as
one perfect maze; on a rectangle only the top row does this, and needs no join.
"""

from __future__ import annotations

import numpy as np

from mazeart._jit import njit
from mazeart._rng import below
from mazeart.generate._common import carve, kernel_generator

__all__ = ["sidewinder"]


@njit(cache=True)
def _sidewinder(free, offsets, stride, starts, state, passages, order):
    n = free.size
    rows = n // stride
    for r in range(1, rows - 1):
        run_north = 0  # cells of the current run that can open north
        north_cells = np.empty(stride, np.int64)
        for c in range(r * stride + 1, (r + 1) * stride - 1):
            if not free[c]:
                continue
            if free[c - stride]:
                north_cells[run_north] = c
                run_north += 1
            east = free[c + 1]
            if east and (run_north == 0 or below(state, 2) == 0):
                carve(passages, order, c, 1, c + 1)
                continue
            if run_north > 0:  # close the run: one way north
                up = north_cells[below(state, run_north)] if run_north > 1 else north_cells[0]
                carve(passages, order, up, 0, up - stride)
            run_north = 0


sidewinder = kernel_generator(
    "sidewinder",
    _sidewinder,
    description="sidewinder: runs carve east, each run opens north once",
    summary="Carve a perfect maze with the sidewinder algorithm.",
    join=True,
)
