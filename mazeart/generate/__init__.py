"""Generators: weight matrix in, Maze out.

Every generator is a plain function ``fn(weights, rng, *, geometry=..., **options)``
registered with :func:`register`; :data:`ALGORITHMS` lists them, and
:func:`generate` runs the whole pipeline (check the preset, carve, choose the
entrance and exit, record metadata).

>>> import numpy as np
>>> from mazeart import generate, preset_from_text
>>> maze = generate(preset_from_text('''
...     ......
...     ......
...     ..##..
... '''), seed=1)
>>> maze.n_cells, maze.n_passages
(16, 15)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from mazeart._graph import label_mask
from mazeart.generate._registry import ALGORITHMS, Algorithm, get_algorithm, register
from mazeart.maze import GEOMETRIES, Maze
from mazeart.solve import distances
from mazeart.weights import FREE, validate_weights

# Algorithm modules register themselves on import; this order is the listing order.
from mazeart.generate import (  # noqa: F401  isort: skip
    weighted_dfs,
    backtracker,
    prim,
    digging,
    wilson,
    kruskal,
    aldous_broder,
    hunt_and_kill,
    growing_tree,
    binary_tree,
    sidewinder,
    eller,
    division,
)

__all__ = [
    "ALGORITHMS",
    "DEFAULT_ALGORITHM",
    "Algorithm",
    "default_endpoints",
    "generate",
    "get_algorithm",
    "register",
]

DEFAULT_ALGORITHM = "weighted-dfs"


def default_endpoints(maze: Maze) -> tuple[tuple[int, int], tuple[int, int]]:
    """Two cells on the figure's outer boundary with a long path between them.

    Works on the largest 4-connected part of the maze's cells. Among cells with a side on
    the outside (holes do not count), a breadth-first pass from one finds the
    farthest, and a second pass from that one finds the farthest from it: on a
    perfect maze this is the exact longest boundary-to-boundary path (distances
    in a tree obey the four-point condition). Falls back to all cells of the
    piece when none touches the outside.

    Parameters
    ----------
    maze : Maze

    Returns
    -------
    entrance, exit : (int, int)
        The entrance is the one nearer the top (then the left).
    """
    if maze.n_cells == 0:
        raise ValueError("the maze has no cells")
    parts, _ = label_mask(maze.mask)
    sizes = np.bincount(parts[maze.mask])
    part = parts == int(np.argmax(sizes))
    cand = maze.boundary_cells() & part
    if not cand.any():
        cand = part
    flat_cand = np.flatnonzero(cand)
    first = divmod(int(flat_cand[0]), maze.width)
    d1 = distances(maze, first).reshape(-1)
    # Only cells the passages actually reach from there (all of the part, in a valid maze).
    flat_cand = flat_cand[d1[flat_cand] >= 0]
    a = divmod(int(flat_cand[np.argmax(d1[flat_cand])]), maze.width)
    d2 = distances(maze, a).reshape(-1)
    b = divmod(int(flat_cand[np.argmax(d2[flat_cand])]), maze.width)
    entrance, exit_ = (a, b) if a <= b else (b, a)
    return entrance, exit_


def generate(
    weights: ArrayLike,
    *,
    algorithm: str = DEFAULT_ALGORITHM,
    geometry: str | None = None,
    seed: int | None = None,
    rng: np.random.Generator | None = None,
    entrance: tuple[int, int] | None = None,
    exit: tuple[int, int] | None = None,
    **options: Any,
) -> Maze:
    """Carve a maze into a preset, pick its entrance and exit, and record how it was made.

    Parameters
    ----------
    weights : (H, W) array_like of int
        Preset weight matrix (see :mod:`mazeart.weights`).
    algorithm : str, default 'weighted-dfs'
        A key of :data:`ALGORITHMS`.
    geometry : {'cells', 'blocks'}, optional
        Defaults to the algorithm's first supported geometry.
    seed : int, optional
        Seed for ``numpy.random.default_rng``; a fresh one is drawn (and recorded
        in ``maze.meta['seed']``) when neither ``seed`` nor ``rng`` is given.
    rng : numpy.random.Generator, optional
        Use this Generator instead of a seed.
    entrance, exit : (int, int), optional
        Override the automatic choice (see :func:`default_endpoints`).
    **options
        Passed to the algorithm (see ``ALGORITHMS[name].options``).

    Returns
    -------
    Maze

    Raises
    ------
    ValueError
        If the preset is invalid or has no free cell, the algorithm or geometry
        is unknown, an option is not the algorithm's, or an endpoint is not a
        maze cell.
    """
    w = validate_weights(weights)
    if not np.any(w == FREE):
        raise ValueError("the preset has no free cell: there is nothing to carve")
    algo = get_algorithm(algorithm)
    geometry = algo.geometries[0] if geometry is None else geometry
    if geometry not in GEOMETRIES:
        raise ValueError(f"unknown geometry {geometry!r} (choose from {', '.join(GEOMETRIES)})")
    if geometry not in algo.geometries:
        raise ValueError(
            f"{algo.name} does not support geometry {geometry!r} "
            f"(it supports {', '.join(algo.geometries)})"
        )
    unknown = set(options) - set(algo.options)
    if unknown:
        valid = ", ".join(algo.options) or "none"
        raise ValueError(
            f"{algo.name} has no option {', '.join(sorted(unknown))} (its options: {valid})"
        )
    if rng is None:
        if seed is None:
            seed = int(np.random.default_rng().integers(0, 2**31))
        elif isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
        rng = np.random.default_rng(int(seed))
    maze = algo.func(w, rng, geometry=geometry, **options)
    auto_in, auto_out = default_endpoints(maze)
    entrance = auto_in if entrance is None else entrance
    exit = auto_out if exit is None else exit
    meta = {
        "algorithm": algo.name,
        "seed": None if seed is None else int(seed),
        "geometry": geometry,
        "options": {**algo.options, **options},
    }
    return maze.replace(entrance=entrance, exit=exit, meta=meta)
