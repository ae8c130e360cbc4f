"""Flow: Kruskal's algorithm with walls ordered by a direction field, for textured mazes.

Every wall between two free cells gets a key ``u - bias * alignment``, where
``u`` is uniform in [0, 1) and ``alignment`` is how well the passage it would
open follows the local flow direction (``|cos|`` of the angle between them).
Kruskal's algorithm takes the walls in key order (as the lightest spanning tree
of the keys, :func:`~mazeart._kernels.carve.join_forest`), so passages along the
flow are opened first and corridors run with it: long horizontal runs for
``direction="horizontal"``, rings for ``"spiral"``, and so on. ``bias = 0`` is
plain Kruskal's; the maze is a perfect maze in every free part whatever the
field. Image-guided textures (:mod:`mazeart.guide`) pass a per-cell ``angle``
array and per-cell ``bias`` instead of a named direction.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mazeart._jit import njit
from mazeart._kernels.carve import join_forest
from mazeart._kernels.topology import degree, grid_topology
from mazeart._rng import kernel_state, nth_uniform
from mazeart.errors import MazeartError
from mazeart.generators._common import CellGrid
from mazeart.generators._registry import register
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
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w]
    cy, cx = ((h - 1) / 2, (w - 1) / 2) if centre is None else centre
    return direction_at(xx, yy, direction, centre=(cx, cy))


def direction_at(
    x: ArrayLike, y: ArrayLike, direction: str, *, centre: tuple[float, float]
) -> NDArray[np.float64]:
    """Flow angle (radians, 0 = east, pi/2 = south) of a named direction at points
    ``(x, y)`` (any grid's cell centres; ``y`` down), spirals around ``centre`` ``(x, y)``.
    """
    if direction not in DIRECTIONS:
        raise MazeartError(f"direction must be one of {', '.join(DIRECTIONS)}, got {direction!r}")
    shape = np.shape(x)
    if direction == "horizontal":
        return np.zeros(shape)
    if direction == "vertical":
        return np.full(shape, np.pi / 2)
    if direction == "random":
        return np.full(shape, np.nan)
    radial = np.arctan2(np.asarray(y) - centre[1], np.asarray(x) - centre[0])
    lean = 0.0 if direction == "spiral" else np.pi / 5
    return radial + np.pi / 2 + lean


def flow_on_grid(
    grid: Any,
    free: NDArray[np.bool_],
    rng: np.random.Generator,
    *,
    direction: str = "horizontal",
    bias: float | ArrayLike = 0.85,
    angle: ArrayLike | None = None,
) -> NDArray[np.bool_]:
    """The flow generator on any grid (:func:`mazeart.grids.carve.carve_graph` runs it):
    Kruskal's over the walls between free cells, each keyed ``u - alignment``, where the
    alignment is the mean over the wall's two cells of ``bias * |cos|`` of the angle between
    the field and the step from one cell's centre to the other's (half of ``bias`` where
    the field has no direction).

    Parameters
    ----------
    grid : Grid
    free : (n,) ndarray of bool
    rng : numpy.random.Generator
    direction, bias, angle
        As for :func:`flow`; ``bias`` and ``angle`` one value a cell (``(n,)``), a named
        direction's spirals centred on the grid.

    Returns
    -------
    (n_walls,) ndarray of bool
        The walls opened.
    """
    n = grid.n_cells
    strength = np.broadcast_to(np.asarray(bias, dtype=np.float64).reshape(-1), (n,))
    if not np.all((strength >= 0) & (strength <= 1)):  # NaN fails both
        raise MazeartError("bias must be between 0 and 1")
    x, y = grid.centres[:, 0], grid.centres[:, 1]
    if angle is None:
        w, h = grid.size
        theta = direction_at(x, y, direction, centre=(w / 2, h / 2))
    else:
        theta = np.asarray(angle, np.float64).reshape(-1)
        if theta.size != n:
            raise MazeartError(f"angle must have one value a cell ({n}), got {theta.size}")
    cells = grid.wall_cells.astype(np.int64)
    a, b = cells[:, 0], cells[:, 1]
    bb = np.maximum(b, 0)
    inner = np.flatnonzero((b >= 0) & free[a] & free[bb])
    a, b = a[inner], b[inner]
    step = np.arctan2(y[b] - y[a], x[b] - x[a])
    with np.errstate(invalid="ignore"):
        follows = np.nan_to_num(np.abs(np.cos(theta[a] - step)), nan=0.5) * strength[a]
        follows += np.nan_to_num(np.abs(np.cos(theta[b] - step)), nan=0.5) * strength[b]
    keys = np.zeros(grid.n_walls)  # a wall each; only those between free cells are read
    keys[inner] = rng.random(inner.size) - 0.5 * follows
    opened = np.zeros(grid.n_walls, np.bool_)
    topo = grid_topology(grid)
    wide = max(n * degree(topo), grid.n_walls) >= 2**31  # sets and slots take this dtype
    join_forest(topo, np.ascontiguousarray(free, np.bool_), opened, np.zeros(1, np.uint64), 0,
                np.zeros((0, 2), np.int64), np.zeros(1, np.int64),
                np.empty(0, np.int64 if wide else np.int32), _in_order(keys))  # fmt: skip
    return opened


@njit(cache=True)
def _key(wall, stride, seed, along_east, along_south):
    """Wall ``wall``'s key (``2c`` east of framed cell ``c``, ``2c + 1`` south): a draw
    of the counter-based stream, less how well the passage follows the flow."""
    c = wall >> 1
    r = c // stride - 1
    col = c % stride - 1
    if wall & 1:
        along = (along_south[r, col] + along_south[r + 1, col]) * 0.5
    else:
        along = (along_east[r, col] + along_east[r, col + 1]) * 0.5
    return nth_uniform(seed, wall + 1) - along


@njit(cache=True)
def _flow_keys(free, stride, along_east, along_south, seed, keys):
    """The key of every wall between free cells (:func:`_key`), into ``keys`` (float64, one
    a wall slot; the others are left as they are)."""
    for c in range(free.size):
        if not free[c]:
            continue
        if free[c + 1]:
            keys[2 * c] = _key(2 * c, stride, seed, along_east, along_south)
        if free[c + stride]:
            keys[2 * c + 1] = _key(2 * c + 1, stride, seed, along_east, along_south)


def _in_order(keys: NDArray[np.float64]) -> NDArray[np.uint64]:
    """Floats as unsigned integers in the same order (in place): a positive float's bits
    with the sign bit set, a negative float's bits all flipped."""
    bits = keys.view(np.uint64)
    sign = bits >> np.uint64(63)
    bits ^= (np.uint64(0) - sign) | np.uint64(1 << 63)
    return bits


def _alignment(
    shape: tuple[int, int], direction: str, angle: ArrayLike | None, strength: NDArray
) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """How strongly a passage east, and one south, from each cell follows the flow:
    ``bias * |cos|`` and ``bias * |sin|`` of the field's angle, as float32."""
    if angle is None and direction in ("horizontal", "vertical", "random"):
        east = np.empty(shape, np.float32)
        east[...] = strength * (0.5 if direction == "random" else float(direction == "horizontal"))
        south = np.empty(shape, np.float32)
        south[...] = strength * (0.5 if direction == "random" else float(direction == "vertical"))
        return east, south
    theta = np.asarray(
        direction_field(shape, direction) if angle is None else angle, dtype=np.float32
    )
    if theta.shape != shape:
        raise MazeartError(f"angle must have the grid's shape {shape}, got {theta.shape}")
    with np.errstate(invalid="ignore"):  # no direction (NaN or infinite): half each way
        east = np.nan_to_num(np.abs(np.cos(theta)), nan=0.5)
        south = np.nan_to_num(np.abs(np.sin(theta)), nan=0.5)
    east *= strength
    south *= strength
    return east, south


@register(
    "flow",
    description="Kruskal's with walls ordered by a direction field: textured corridors",
    kernel=flow_on_grid,
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
    strength = np.broadcast_to(np.asarray(bias, dtype=np.float32), shape)
    if not np.all((strength >= 0) & (strength <= 1)):  # NaN fails both
        raise MazeartError("bias must be between 0 and 1")
    east, south = _alignment(shape, direction, angle, strength)
    n = g.flat_free.size
    keys = np.empty(2 * n, np.float64)  # a wall slot each; only those between free cells set
    _flow_keys(g.flat_free, g.stride, east, south, kernel_state(g.rng)[0], keys)
    sample = np.empty(0, np.int32 if 4 * n < 2**31 else np.int64)
    join_forest(g.topology, g.flat_free, g.passages, g.state, 0, np.zeros((0, 2), np.int64),
                g.order, sample, _in_order(keys))  # fmt: skip
    return g.maze()
