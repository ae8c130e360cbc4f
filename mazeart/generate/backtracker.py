"""Recursive backtracker (seed 004): a depth-first walk with an explicit stack.

From the cell on top of the stack, carve into a random unvisited neighbour and
push it; when none is left, pop. Long winding corridors, few dead ends, a
river factor near one. On a preset every free part gets its own walk from a
random cell, so parts of any shape are filled.

With the same Generator it carves exactly the maze that the weighted DFS carves
in ``cells`` geometry (both draw the same numbers in the same order): two
independent implementations of one walk, which the tests compare.
"""

from __future__ import annotations

import numpy as np

from mazeart._jit import njit
from mazeart._rng import below
from mazeart.generate._common import carve, kernel_generator

__all__ = ["backtracker"]


@njit(cache=True)
def _backtrack(free, offsets, stride, starts, state, passages, order):
    n = free.size
    visited = np.zeros(n, np.bool_)
    stack = np.empty(n, np.int64)
    frontier = np.empty(4, np.int64)
    for s in starts:
        if visited[s]:
            continue
        visited[s] = True
        top = 0
        stack[0] = s
        while top >= 0:
            cur = stack[top]
            k = 0
            for d in range(4):
                nb = cur + offsets[d]
                if free[nb] and not visited[nb]:
                    frontier[k] = d
                    k += 1
            if k == 0:
                top -= 1
                continue
            d = frontier[0] if k == 1 else frontier[below(state, k)]
            nb = cur + offsets[d]
            carve(passages, order, cur, d, nb)
            visited[nb] = True
            top += 1
            stack[top] = nb


backtracker = kernel_generator(
    "backtracker",
    _backtrack,
    description="recursive backtracker (seed 004): depth-first walk, explicit stack",
    summary="Carve a perfect maze with an iterative depth-first search.",
)
