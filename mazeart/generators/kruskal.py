"""Randomized Kruskal's algorithm (also the hybrid's join step).

Every cell starts as its own tree; walls are removed in uniformly random order,
each one only if it joins two different trees. The tree this ends with is the
minimum spanning tree of the walls' random keys, which the kernel finds in
Boruvka's rounds, reading the grid in order rather than the walls in key order
(see :func:`mazeart._kernels.carve.join_forest` and
:mod:`mazeart.generators._forest`).
"""

from __future__ import annotations

import numpy as np

from mazeart._kernels.carve import join_forest
from mazeart.generators._common import CellGrid
from mazeart.generators._registry import register
from mazeart.maze import Maze

__all__ = ["kruskal"]


@register(
    "kruskal",
    description="randomized Kruskal's: walls in random order, each joining two trees",
    kernel=join_forest,
)
def kruskal(weights: np.ndarray, rng: np.random.Generator, *, geometry: str = "cells") -> Maze:
    """Carve a perfect maze with randomized Kruskal's algorithm.

    Parameters
    ----------
    weights : (H, W) array_like of int
    rng : numpy.random.Generator
    geometry : {'cells'}

    Returns
    -------
    Maze
    """
    g = CellGrid(weights, rng)
    g.complete()
    return g.maze()
