"""Randomized Prim's algorithm, on cells and on blocks.

``prim`` (cells): the maze grows from a random cell; the frontier is every
unvisited cell beside the maze; a uniformly random frontier cell joins through
a random visited neighbour. Many short dead ends, a "spiky" texture.

``prim-blocks`` (blocks): a wall list on the block grid, started
away from the edge of each free part (so a rectangle keeps its outer ring as
wall, and the doors are cut through it). Picking a
random listed wall block, it becomes path when fewer than two path blocks
surround it (exactly one: the block it grows from) and the block straight
across from that one has never been seen; its neighbours then become walls and
join the list. Path blocks therefore form a tree in which no two blocks touch
except along the tree, so there is never a loop nor a 2 x 2 open square.
"""

from __future__ import annotations

import numpy as np

from mazeart._jit import njit
from mazeart._kernels.carve import prim as _prim
from mazeart._rng import below
from mazeart.generators._common import kernel_generator, mark

__all__ = ["prim", "prim_blocks"]

_EMPTY, _WALL, _PATH, _OUT = 0, 1, 2, 3


@njit(cache=True)
def _free_around(free, offsets, c):
    k = 0
    for d in range(4):
        if free[c + offsets[d]]:
            k += 1
    return k


@njit(cache=True)
def _inward(free, offsets, s):
    """A start off the part's edge, as the block maze starts away from the border: from ``s``, step
    to the neighbour with the most free neighbours while that is more than here."""
    for _ in range(8):
        here = _free_around(free, offsets, s)
        if here == 4:
            break
        best, most = s, here
        for d in range(4):
            nb = s + offsets[d]
            if free[nb]:
                k = _free_around(free, offsets, nb)
                if k > most:
                    best, most = nb, k
        if best == s:
            break
        s = best
    return s


@njit(cache=True)
def _prim_blocks(free, offsets, stride, starts, state, passages, order):
    """The block Prim's wall list over EMPTY/WALL/PATH/OUT block states; returns the path blocks."""
    n = free.size
    state_grid = np.full(n, _OUT, np.uint8)
    for i in range(n):
        if free[i]:
            state_grid[i] = _EMPTY
    listed = np.zeros(n, np.bool_)
    walls = np.empty(n, np.int64)
    for s0 in starts:
        s = _inward(free, offsets, s0)
        if state_grid[s] != _EMPTY:
            continue
        state_grid[s] = _PATH
        mark(order, s)
        m = 0
        for d in range(4):
            nb = s + offsets[d]
            if state_grid[nb] == _EMPTY:
                state_grid[nb] = _WALL
                listed[nb] = True
                walls[m] = nb
                m += 1
        while m > 0:
            i = below(state, m)
            w = walls[i]
            m -= 1
            walls[i] = walls[m]
            listed[w] = False
            if state_grid[w] != _WALL:
                continue
            paths = 0
            came = 0
            for d in range(4):
                if state_grid[w + offsets[d]] == _PATH:
                    paths += 1
                    came = d
            if paths != 1:
                continue
            across = w - offsets[came]  # straight on, away from the path it grows from
            if state_grid[across] != _EMPTY:
                continue
            state_grid[w] = _PATH
            mark(order, w)
            for d in range(4):
                nb = w + offsets[d]
                v = state_grid[nb]
                if (v == _EMPTY or v == _WALL) and not listed[nb]:
                    state_grid[nb] = _WALL
                    listed[nb] = True
                    walls[m] = nb
                    m += 1
    return state_grid == _PATH


prim = kernel_generator(
    "prim",
    _prim,
    description="randomized Prim's: a random frontier cell joins the maze",
    summary="Carve a perfect maze with randomized Prim's algorithm on cells.",
    topology=True,
)

prim_blocks = kernel_generator(
    "prim-blocks",
    _prim_blocks,
    description="block Prim's: a random listed wall block opens if one path block touches it",
    summary="Carve a block maze (no loop, no 2 x 2 opening) with a wall list.",
    geometry="blocks",
)
