"""Flow: Kruskal's algorithm with walls ordered by a direction field, for textured mazes.

Every wall between two free cells gets a key ``u - bias * alignment``, where
``u`` is uniform in [0, 1) and ``alignment`` is how well the passage it would
open follows the local flow direction (``|cos|`` of the angle between them).
Kruskal's union-find takes the walls in key order, so passages along the flow
are opened first and corridors run with it: long horizontal runs for
``direction="horizontal"``, rings for ``"spiral"``, and so on. ``bias = 0`` is
plain Kruskal's; the maze is a perfect maze in every free part whatever the
field. Image-guided textures (:mod:`mazeart.guide`) pass a per-cell ``angle``
array and per-cell ``bias`` instead of a named direction.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mazeart._graph import find, union
from mazeart._jit import njit
from mazeart.errors import MazeartError
from mazeart.generate._common import CellGrid, carve
from mazeart.generate._registry import register
from mazeart.maze import Maze

__all__ = ["DIRECTIONS", "direction_field", "flow"]

DIRECTIONS = ("horizontal", "vertical", "spiral", "vortex", "random")
"""Named flow fields."""


def direction_field(shape: tuple[int, int], direction: str, *, centre=None) -> NDArray[np.float64]:
    """Flow angle per cell (radians, 0 = east, pi/2 = south) for a named direction.

    ``spiral`` circles the centre (default: the grid's middle) in rings; ``vortex``
    also leans inwards (a pinwheel of four quadrants on a square grid); ``random``
    has no preferred direction (NaN).
    """
    if direction not in DIRECTIONS:
        raise MazeartError(f"direction must be one of {', '.join(DIRECTIONS)}, got {direction!r}")
    h, w = shape
    if direction == "horizontal":
        return np.zeros(shape)
    if direction == "vertical":
        return np.full(shape, np.pi / 2)
    if direction == "random":
        return np.full(shape, np.nan)
    cy, cx = ((h - 1) / 2, (w - 1) / 2) if centre is None else centre
    yy, xx = np.mgrid[0:h, 0:w]
    radial = np.arctan2(yy - cy, xx - cx)
    lean = 0.0 if direction == "spiral" else np.pi / 5
    return radial + np.pi / 2 + lean


@njit(cache=True)
def _join_in_order(n, stride, passages, edges, order):
    """Kruskal's union-find over walls already sorted by key (``2c`` east, ``2c + 1`` south)."""
    parent = np.arange(n)
    rank = np.zeros(n, np.int8)
    for j in range(edges.size):
        e = edges[j]
        a = e >> 1
        if e & 1:
            b = a + stride
            d = 2
        else:
            b = a + 1
            d = 1
        if find(parent, a) != find(parent, b):
            union(parent, rank, a, b)
            carve(passages, order, a, d, b)


def _framed(a: NDArray, fill: float = 0.0) -> NDArray[np.float64]:
    return np.pad(np.asarray(a, dtype=np.float64), 1, constant_values=fill).reshape(-1)


@register(
    "flow",
    description="Kruskal's with walls ordered by a direction field: textured corridors",
)
def flow(
    weights: ArrayLike,
    rng: np.random.Generator,
    *,
    geometry: str = "cells",
    direction: str = "horizontal",
    bias: float | ArrayLike = 0.85,
    angle: ArrayLike | None = None,
) -> Maze:
    """Carve a perfect maze whose corridors follow a direction field.

    Parameters
    ----------
    weights : (H, W) array_like of int
        Preset weight matrix.
    rng : numpy.random.Generator
    geometry : {'cells'}
    direction : str, default 'horizontal'
        A named field (see :data:`DIRECTIONS`); ignored when ``angle`` is given.
    bias : float or (H, W) array_like, default 0.85
        How strongly passages follow the field, 0 (plain Kruskal's) to 1.
    angle : (H, W) array_like of float, optional
        Flow angle per cell in radians (0 east, pi/2 south); NaN for no direction.

    Returns
    -------
    Maze
    """
    if geometry != "cells":
        raise MazeartError(f"flow supports geometry 'cells' only; got {geometry!r}")
    g = CellGrid(weights, rng)
    shape = g.free.shape
    theta = direction_field(shape, direction) if angle is None else np.asarray(angle, float)
    strength = np.broadcast_to(np.asarray(bias, dtype=float), shape)
    if theta.shape != shape:
        raise MazeartError(f"angle must have the grid's shape {shape}, got {theta.shape}")
    if np.any((strength < 0) | (strength > 1)):
        raise MazeartError("bias must be between 0 and 1")
    # A passage east follows the flow by |cos|, south by |sin|; average the two cells' fields.
    cos = np.nan_to_num(np.abs(np.cos(theta)), nan=0.5)
    sin = np.nan_to_num(np.abs(np.sin(theta)), nan=0.5)
    east = np.zeros(shape)
    east[:, :-1] = (cos[:, :-1] * strength[:, :-1] + cos[:, 1:] * strength[:, 1:]) / 2
    south = np.zeros(shape)
    south[:-1] = (sin[:-1] * strength[:-1] + sin[1:] * strength[1:]) / 2
    free = g.flat_free
    cells = np.flatnonzero(free)
    walls_e = cells[free[cells + 1]]
    walls_s = cells[free[cells + g.stride]]
    edges = np.concatenate([2 * walls_e, 2 * walls_s + 1])
    keys = np.concatenate([-_framed(east)[walls_e], -_framed(south)[walls_s]])
    keys += g.rng.random(len(keys))
    edges = edges[np.argsort(keys.astype(np.float32))]
    _join_in_order(free.size, g.stride, g.passages, edges, g.order)
    return g.maze()
