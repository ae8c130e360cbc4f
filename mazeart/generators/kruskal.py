"""Randomized Kruskal's algorithm (also the hybrid's join step).

Every cell starts as its own tree; walls are removed in uniformly random order,
each one only if it joins two different trees (union-find with path halving
and union by rank, on flat arrays). See :mod:`mazeart.generators._forest`.
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
    description="randomized Kruskal's: union-find over walls in random order",
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
