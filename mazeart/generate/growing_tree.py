"""Growing tree: one list of active cells, and a rule for which one grows next.

Pick a cell from the list, carve into a random unvisited neighbour and add that
neighbour to the list; when the picked cell has none left, drop it. The rule
decides the character: ``newest`` is the recursive backtracker (long winding
corridors), ``random`` behaves like Prim's (short dead ends), ``oldest`` grows
in long straight spokes from the start, and ``mix`` picks the newest with
probability ``bias`` and a random cell otherwise, blending the two.

A cell dropped from the middle of the list is replaced by the last one (no
shifting), so under ``mix`` the "newest" is occasionally the second newest.
"""

from __future__ import annotations

import numpy as np

from mazeart._jit import njit
from mazeart._rng import below, uniform
from mazeart.errors import MazeartError, check_number
from mazeart.generate._common import CellGrid, carve
from mazeart.generate._registry import register
from mazeart.maze import Maze

__all__ = ["SELECTIONS", "growing_tree"]

SELECTIONS = ("newest", "random", "oldest", "mix")
"""Valid values of the ``select`` option."""


@njit(cache=True)
def _grow(free, offsets, starts, state, passages, select, bias, order):
    n = free.size
    visited = np.zeros(n, np.bool_)
    active = np.empty(n, np.int64)
    options = np.empty(4, np.int64)
    for s in starts:
        if visited[s]:
            continue
        visited[s] = True
        head = 0
        tail = 1
        active[0] = s
        while tail > head:
            if select == 0:
                i = tail - 1
            elif select == 1:
                i = head + below(state, tail - head)
            elif select == 2:
                i = head
            elif uniform(state) < bias:
                i = tail - 1
            else:
                i = head + below(state, tail - head)
            cur = active[i]
            k = 0
            for d in range(4):
                nb = cur + offsets[d]
                if free[nb] and not visited[nb]:
                    options[k] = d
                    k += 1
            if k == 0:
                if i == tail - 1:
                    tail -= 1
                elif i == head:
                    head += 1
                else:
                    tail -= 1
                    active[i] = active[tail]
                continue
            d = options[0] if k == 1 else options[below(state, k)]
            nb = cur + offsets[d]
            carve(passages, order, cur, d, nb)
            visited[nb] = True
            active[tail] = nb
            tail += 1


@register(
    "growing-tree",
    description="growing tree: grow from the newest, a random, the oldest cell, or a mix",
)
def growing_tree(
    weights: np.ndarray,
    rng: np.random.Generator,
    *,
    geometry: str = "cells",
    select: str = "mix",
    bias: float = 0.5,
) -> Maze:
    """Carve a perfect maze with the growing-tree algorithm.

    Parameters
    ----------
    weights : (H, W) array_like of int
    rng : numpy.random.Generator
    geometry : {'cells'}
    select : {'newest', 'random', 'oldest', 'mix'}, default 'mix'
        Which active cell grows next.
    bias : float, default 0.5
        Under ``mix``: the probability of growing the newest cell rather than a
        random one (1 is the backtracker, 0 is ``random``).

    Returns
    -------
    Maze
    """
    if select not in SELECTIONS:
        raise MazeartError(f"select must be one of {', '.join(SELECTIONS)}; got {select!r}")
    bias = check_number(bias, "bias", low=0, high=1)
    g = CellGrid(weights, rng)
    _grow(
        g.flat_free,
        g.offsets,
        g.starts,
        g.state,
        g.passages,
        SELECTIONS.index(select),
        float(bias),
        g.order,
    )
    return g.maze()
