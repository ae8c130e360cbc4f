"""Aldous-Broder: one random walk over each part, carving into every cell it enters first.

The first-entrance edges of a simple random walk form a uniformly random
spanning tree (Aldous 1990, Broder 1989). The walk must cover its part, so the
time is the grid's cover time, about ``n (log n)^2 / pi`` steps: slow but exact.
"""

from __future__ import annotations

import numpy as np

from mazeart._jit import njit
from mazeart._rng import below
from mazeart.generate._common import carve, kernel_generator

__all__ = ["aldous_broder"]


@njit(cache=True)
def _aldous_broder(free, offsets, stride, starts, state, passages, order):
    n = free.size
    visited = np.zeros(n, np.bool_)
    counted = np.zeros(n, np.bool_)
    queue = np.empty(n, np.int64)
    options = np.empty(4, np.int64)
    for p in range(starts.size):
        cur = starts[p]
        # the walk ends when it has entered every cell of its part: count them first
        counted[cur] = True
        queue[0] = cur
        head, tail = 0, 1
        while head < tail:
            c = queue[head]
            head += 1
            for d in range(4):
                nb = c + offsets[d]
                if free[nb] and not counted[nb]:
                    counted[nb] = True
                    queue[tail] = nb
                    tail += 1
        visited[cur] = True
        remaining = tail - 1
        while remaining > 0:
            k = 0
            for d in range(4):
                if free[cur + offsets[d]]:
                    options[k] = d
                    k += 1
            d = options[0] if k == 1 else options[below(state, k)]
            nb = cur + offsets[d]
            if not visited[nb]:
                visited[nb] = True
                carve(passages, order, cur, d, nb)
                remaining -= 1
            cur = nb


aldous_broder = kernel_generator(
    "aldous-broder",
    _aldous_broder,
    description="Aldous-Broder: a covering random walk, every spanning tree equally likely",
    summary="Carve a uniformly random perfect maze with the Aldous-Broder random walk.",
    uniform=True,
)
