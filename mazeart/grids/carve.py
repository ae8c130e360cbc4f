"""Graph generators on any grid: the kernels written once for every grid, on a grid's table.

:func:`carve_graph` labels the free parts of a grid, draws a random start in each and runs
the algorithm's kernel (:mod:`mazeart._kernels.carve`, the same source the square grid's
generators run) on the grid's topology (:func:`topology`); the kernel opens walls
(``opened[w] = True``) so that each free part becomes one spanning tree, and never opens a
wall next to a cell that is not free:

``backtracker``     depth-first walk with an explicit stack
``prim``            a uniformly random frontier cell joins through a random maze neighbour
``kruskal``         walls in random order, joined with union-find
``wilson``          loop-erased random walks (uniform over spanning trees)
``aldous-broder``   a random walk that covers the part (uniform; slow)
``hunt-and-kill``   random walks; hunt the first unvisited cell beside the maze
``growing-tree``    grow the newest, a random, the oldest active cell, or a mix

>>> import numpy as np
>>> from mazeart.grids import square_grid
>>> g = square_grid(3, 4)
>>> opened = carve_graph(g, np.ones(g.n_cells, bool), "wilson", np.random.default_rng(1))
>>> int(opened.sum())  # a spanning tree of 12 cells
11
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from mazeart._jit import njit
from mazeart._kernels.parts import label_cells, label_parts
from mazeart._kernels.topology import degree, grid_topology, lattice_walls
from mazeart._rng import RngLike, as_generator, below, kernel_state
from mazeart.errors import MazeartError
from mazeart.generators import ALGORITHMS, get_algorithm
from mazeart.grids import GRIDS, Grid
from mazeart.grids.core import LatticeGrid

__all__ = ["GRAPH_ALGORITHMS", "OTHER_GRIDS", "carve_graph", "grids_of", "label_parts", "topology"]


@njit(cache=True)
def _random_starts(free, labels, parts, state):
    """One uniformly random cell of each part: ``labels`` numbers the parts from 1 (0 where
    not free), or is empty when the ``free`` cells are one part. One draw a part."""
    whole = labels.size == 0
    count = np.zeros(parts, np.int64)
    for c in range(free.size):
        if whole:
            count[0] += free[c]
        elif labels[c] > 0:
            count[labels[c] - 1] += 1
    left = np.empty(parts, np.int64)  # the free cells of each part to pass before its start
    for p in range(parts):
        left[p] = below(state, count[p])
    starts = np.full(parts, -1, np.int64)
    for c in range(free.size):
        p = (0 if free[c] else -1) if whole else labels[c] - 1
        if p >= 0:
            if left[p] == 0:
                starts[p] = c
            left[p] -= 1
    return starts


def topology(grid: Grid) -> tuple[Any, ...]:
    """The grid as the kernels see it (:func:`mazeart._kernels.topology.grid_topology`)."""
    return grid_topology(grid)


GRAPH_ALGORITHMS = {name: a.kernel for name, a in ALGORITHMS.items() if a.kernel is not None}
"""The generators that run on any grid, by name, and their kernels: those registered with a
kernel written for every grid (:mod:`mazeart._kernels.carve`)."""

UNIFORM = frozenset(name for name in GRAPH_ALGORITHMS if ALGORITHMS[name].uniform)
"""Those whose every spanning tree is equally likely."""

OTHER_GRIDS = tuple(kind for kind in GRIDS if kind not in ("square", "weave"))
"""The grids beyond squares, where only the graph generators run."""


def grids_of(algorithm: str) -> tuple[str, ...]:
    """The grids ``algorithm`` carves (the registry's :attr:`Algorithm.grids
    <mazeart.generators.Algorithm.grids>`)."""
    return get_algorithm(algorithm).grids


def carve_graph(
    grid: Grid,
    free: NDArray[np.bool_],
    algorithm: str,
    rng: RngLike,
    **options: Any,
) -> NDArray[np.bool_]:
    """Open walls of ``grid`` so that every part of the ``free`` cells is one spanning tree.

    Parameters
    ----------
    grid : Grid
    free : (n,) array_like of bool
        Cells that may hold maze.
    algorithm : str
        A name of :data:`GRAPH_ALGORITHMS`.
    rng : int or numpy.random.Generator
    **options
        The algorithm's options: ``growing-tree``'s ``select`` (which active cell grows;
        ``mix``, the default: the newest with probability ``bias``, 0.5 by default, else a
        random one); ``flow``'s ``direction``, ``bias`` and ``angle``
        (:func:`mazeart.generators.flow.flow_on_grid`).

    Returns
    -------
    (n_walls,) ndarray of bool
        The walls opened: passages between neighbouring free cells.

    Raises
    ------
    MazeartError
        For an unknown algorithm or a mask of the wrong length.
    """
    kernel = GRAPH_ALGORITHMS.get(algorithm)
    if kernel is None:
        raise MazeartError(
            f"{algorithm} does not run on the {grid.kind} grid "
            f"(these do: {', '.join(GRAPH_ALGORITHMS)})"
        )
    free = np.ascontiguousarray(free, dtype=np.bool_).reshape(-1)
    if free.size != grid.n_cells:
        raise MazeartError(f"the mask has {free.size} cells, the {grid.kind} grid {grid.n_cells}")
    if algorithm == "flow":  # Kruskal's in an order the field gives: keys, then one pass
        return np.asarray(kernel(grid, free, as_generator(rng), **options), np.bool_)
    state = kernel_state(as_generator(rng))
    if isinstance(grid, LatticeGrid):
        return _carve_lattice(grid, free, algorithm, kernel, state, options)
    topo = topology(grid)
    labels, parts = np.zeros(0, np.int32), 1  # a whole connected grid is one part
    if not (free.all() and grid._cache.get("connected", False)):
        labels, parts = label_cells(topo, free)
        if free.all():
            grid._cache["connected"] = parts == 1
    starts = _random_starts(free, labels, parts, state)
    del labels
    opened = np.zeros(grid.n_walls, np.bool_)
    _run(kernel, algorithm, topo, free, starts, state, opened, options)
    return opened


def _run(
    kernel: Any,
    algorithm: str,
    topo: Any,
    free: NDArray[np.bool_],
    starts: NDArray[np.int64],
    state: NDArray[np.uint64],
    links: NDArray[np.bool_],
    options: dict[str, Any],
) -> None:
    """Call the algorithm's kernel with the arguments it takes (Kruskal's the dtype of its
    sets and listed walls; the growing tree its selection), opening ``links``."""
    order = np.zeros(1, np.int64)
    if algorithm == "kruskal":
        wide = max(free.size * degree(topo), links.size) >= 2**31  # sets and slots take this
        sample = np.empty(0, np.int64 if wide else np.int32)
        kernel(topo, free, links, state, 0, np.zeros((0, 2), np.int64), order, sample,
               np.empty(0, np.uint64))  # fmt: skip
    elif algorithm == "growing-tree":
        from mazeart.generators.growing_tree import selection

        how, bias = selection(options.get("select", "mix"), options.get("bias", 0.5))
        kernel(topo, free, starts, state, links, order, how, bias)
    else:
        kernel(topo, free, starts, state, links, order)


def _carve_lattice(
    grid: LatticeGrid,
    free: NDArray[np.bool_],
    algorithm: str,
    kernel: Any,
    state: NDArray[np.uint64],
    options: dict[str, Any],
) -> NDArray[np.bool_]:
    """:func:`carve_graph` on a lattice's framed copy: no neighbour table is read or
    built; the slots opened are numbered as the grid's walls at the end."""
    topo = grid.topology()
    framed = grid.frame(free)
    labels, parts = np.zeros(0, np.int32), 1  # a whole lattice is one part
    if not free.all():
        labels, parts = label_cells(topo, framed)
    starts = _random_starts(framed, labels, parts, state)
    del labels
    links = np.zeros(framed.size << int(topo[3]), np.bool_)
    _run(kernel, algorithm, topo, framed, starts, state, links, options)
    opened = np.zeros(grid.n_walls, np.bool_)
    lattice_walls(topo, grid.rows, grid.cols, links, opened)
    return opened
