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

from mazeart._kernels.carve import growing_tree as _grow
from mazeart.errors import MazeartError, check_number
from mazeart.generators._common import CellGrid
from mazeart.generators._registry import register
from mazeart.maze import Maze

__all__ = ["SELECTIONS", "growing_tree", "selection"]

SELECTIONS = ("newest", "random", "oldest", "mix")
"""Valid values of the ``select`` option."""


@register(
    "growing-tree",
    description="growing tree: grow from the newest, a random, the oldest cell, or a mix",
    kernel=_grow,
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
    how, bias = selection(select, bias)
    g = CellGrid(weights, rng)
    _grow(g.topology, g.flat_free, g.starts, g.state, g.passages, g.order, how, bias)
    return g.maze()


def selection(select: str, bias: float) -> tuple[int, float]:
    """The kernel's form of ``select`` and ``bias``, checked (for every grid)."""
    if select not in SELECTIONS:
        raise MazeartError(f"select must be one of {', '.join(SELECTIONS)}; got {select!r}")
    return SELECTIONS.index(select), float(check_number(bias, "bias", low=0, high=1))
