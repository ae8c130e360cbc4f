"""Digging, or road extension: extend a road until it cannot, then restart.

Starting from a random block, the road is extended one block at a time in a
random direction, but only into a block whose other three sides are all wall
(the algorithm's own check: letting the new block touch another road would close a
loop). When the road can go no further, the search restarts from a random
block already on the road, until no road block can grow.

The road blocks form one induced tree per free part: no loops, no 2 x 2 open
square, no corridors side by side. The seed treats everything outside the
maze as road, which keeps its roads one block inside the border; here the
ground outside a figure is wall, as for the weighted DFS, so roads may run
along the figure's edge (the drawn outline closes it).
"""

from __future__ import annotations

import numpy as np

from mazeart._jit import njit
from mazeart._rng import below
from mazeart.generators._common import kernel_generator, mark

__all__ = ["digging"]


@njit(cache=True)
def _diggable(road, free, offsets, cur, d):
    t = cur + offsets[d]
    if not free[t] or road[t]:
        return False
    back = (d + 2) % 4
    for e in range(4):
        if e != back and road[t + offsets[e]]:
            return False
    return True


@njit(cache=True)
def _dig(free, offsets, stride, starts, state, passages, order):
    n = free.size
    road = np.zeros(n, np.bool_)
    active = np.empty(n, np.int64)
    options = np.empty(4, np.int64)
    for s in starts:
        if road[s]:
            continue
        road[s] = True
        mark(order, s)
        m = 1
        active[0] = s
        while m > 0:
            i = below(state, m)  # restart from a random road block
            cur = active[i]
            extended = False
            while True:
                k = 0
                for d in range(4):
                    if _diggable(road, free, offsets, cur, d):
                        options[k] = d
                        k += 1
                if k == 0:
                    break
                d = options[0] if k == 1 else options[below(state, k)]
                cur = cur + offsets[d]
                road[cur] = True
                mark(order, cur)
                active[m] = cur
                m += 1
                extended = True
            if not extended:
                m -= 1
                active[i] = active[m]
    return road


digging = kernel_generator(
    "digging",
    _dig,
    description="digging: extend a road while no loop forms, restart on the road",
    summary="Carve a block maze by road extension.",
    geometry="blocks",
)
