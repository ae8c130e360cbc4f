"""Wilson's algorithm: loop-erased random walks, and the hybrid's self-avoiding variant.

``wilson``: one random cell per free part starts the tree. From each cell not
yet in the tree (in reading order) a random walk runs until it meets the tree;
each cell remembers only the direction it was last left by, which erases the
walk's loops, and the loop-free path is added. Every spanning tree of each
part is equally likely (Wilson 1996), whatever the root and the order.

``wilson-nocross``: the hybrid's variant (:mod:`~mazeart.generators.hybrid`), whose
walk may not cross itself. When it paints itself into a corner it backs up, and
the cells it backed out of are closed to it for the rest of that walk, so one
walk touches each cell at most once: a depth-first, self-avoiding search that
ends when it meets the tree. Faster on large grids, and no longer uniform.
"""

from __future__ import annotations

import numpy as np

from mazeart._jit import njit
from mazeart._kernels.carve import wilson as _wilson
from mazeart._rng import below
from mazeart.generators._common import carve, kernel_generator

__all__ = ["wilson", "wilson_nocross"]


@njit(cache=True)
def _wilson_nocross(free, offsets, stride, starts, state, passages, order):
    n = free.size
    in_tree = np.zeros(n, np.bool_)
    blocked = np.zeros(n, np.bool_)  # on the current walk, or backed out of by it
    walk = np.empty(n, np.int64)
    touched = np.empty(n, np.int64)
    options = np.empty(4, np.int64)
    for s in starts:
        in_tree[s] = True
    for i in range(n):
        if not free[i] or in_tree[i]:
            continue
        top = 0
        walk[0] = i
        blocked[i] = True
        n_touched = 1
        touched[0] = i
        while True:
            cur = walk[top]
            k = 0
            for d in range(4):
                nb = cur + offsets[d]
                if free[nb] and not blocked[nb]:
                    options[k] = d
                    k += 1
            if k == 0:  # painted into a corner: back up; this cell stays closed
                top -= 1
                continue
            d = options[0] if k == 1 else options[below(state, k)]
            nb = cur + offsets[d]
            if in_tree[nb]:
                carve(passages, order, cur, d, nb)
                for j in range(top, 0, -1):  # join the walk, end to start
                    a = walk[j - 1]
                    b = walk[j]
                    for e in range(4):
                        if a + offsets[e] == b:
                            carve(passages, order, a, e, b)
                            break
                for j in range(top + 1):
                    in_tree[walk[j]] = True
                break
            top += 1
            walk[top] = nb
            blocked[nb] = True
            touched[n_touched] = nb
            n_touched += 1
        for j in range(n_touched):
            blocked[touched[j]] = False


wilson = kernel_generator(
    "wilson",
    _wilson,
    description="Wilson's: loop-erased random walks, every spanning tree equally likely",
    summary="Carve a uniformly random perfect maze with Wilson's algorithm.",
    uniform=True,
    topology=True,
)

wilson_nocross = kernel_generator(
    "wilson-nocross",
    _wilson_nocross,
    description="self-avoiding Wilson's: the walk never crosses itself, backing up from corners",
    summary="Carve a perfect maze with self-avoiding Wilson's walks.",
)
