"""Graph generators on any grid: compiled kernels over the neighbour table (CSR).

Every kernel takes the grid's ``indptr``, ``indices`` and ``wall_of``, the free
cells, the label of each cell's free part and one random start per part, and a
kernel random state (:func:`mazeart._rng.kernel_state`); it opens walls
(``opened[w] = True``) so that each free part becomes one spanning tree, and
never opens a wall next to a cell that is not free. The algorithms are the
classic ones, written for a graph instead of a square lattice:

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

import numpy as np
from numpy.typing import NDArray

from mazeart._jit import njit
from mazeart._rng import RngLike, as_generator, below, kernel_state, uniform
from mazeart.errors import MazeartError
from mazeart.grids import Grid

__all__ = ["GRAPH_ALGORITHMS", "OTHER_GRIDS", "carve_graph", "grids_of", "label_parts"]


@njit(cache=True)
def _label(indptr, indices, free):
    """Free parts by breadth-first search: label per cell (-1 not free) and part count."""
    n = free.size
    labels = np.full(n, -1, np.int64)
    queue = np.empty(n, np.int64)
    parts = 0
    for s in range(n):
        if not free[s] or labels[s] >= 0:
            continue
        labels[s] = parts
        head, tail = 0, 1
        queue[0] = s
        while head < tail:
            c = queue[head]
            head += 1
            for k in range(indptr[c], indptr[c + 1]):
                nb = indices[k]
                if free[nb] and labels[nb] < 0:
                    labels[nb] = parts
                    queue[tail] = nb
                    tail += 1
        parts += 1
    return labels, parts


def label_parts(grid: Grid, free: NDArray[np.bool_]) -> tuple[NDArray[np.int64], int]:
    """The free parts of ``grid``: a label per cell (``-1`` where not free) and their count."""
    return _label(grid.indptr, grid.indices, np.ascontiguousarray(free, dtype=np.bool_))


@njit(cache=True)
def _random_starts(labels, parts, state):
    """One uniformly random cell per part (reservoir sampling in one pass)."""
    starts = np.full(parts, -1, np.int64)
    seen = np.zeros(parts, np.int64)
    for c in range(labels.size):
        p = labels[c]
        if p >= 0:
            seen[p] += 1
            if below(state, seen[p]) == 0:
                starts[p] = c
    return starts


@njit(cache=True)
def _backtracker(indptr, indices, wall_of, free, labels, starts, state, opened, select, bias):
    n = free.size
    avail = free.copy()  # free and not yet visited: one read per neighbour
    stack = np.empty(n, np.int32)
    for s in starts:
        avail[s] = False
        top = 0
        stack[0] = s
        while top >= 0:
            c = stack[top]
            lo, hi = indptr[c], indptr[c + 1]
            e = -1
            k = 0
            for j in range(lo, hi):  # a uniformly random available neighbour, in one pass
                if avail[indices[j]]:
                    k += 1
                    if k == 1 or below(state, k) == 0:
                        e = j
            if k == 0:
                top -= 1
                continue
            nb = indices[e]
            opened[wall_of[e]] = True
            avail[nb] = False
            top += 1
            stack[top] = nb


@njit(cache=True)
def _backtracker_padded(nbr, wall, width, n, starts, state, opened, free):
    """The backtracker over a padded neighbour table (``width`` entries a cell, ``n`` where
    there is none): a fixed-length scan without the row pointers."""
    avail = np.zeros(n + 1, np.bool_)
    avail[:n] = free
    stack = np.empty(n, np.int32)
    for s in starts:
        avail[s] = False
        top = 0
        stack[0] = s
        while top >= 0:
            c = stack[top]
            base = c * width
            e = -1
            k = 0
            for j in range(width):
                if avail[nbr[base + j]]:
                    k += 1
                    if k == 1 or below(state, k) == 0:
                        e = base + j
            if k == 0:
                top -= 1
                continue
            nb = nbr[e]
            opened[wall[e]] = True
            avail[nb] = False
            top += 1
            stack[top] = nb


@njit(cache=True)
def _wilson_padded(nbr, wall, width, n, starts, state, opened, free):
    """Wilson's walks over the padded table: a slot drawn uniformly and drawn again when it
    holds no free neighbour (the padding never does), so each step is one draw and one read."""
    ok = np.zeros(n + 1, np.bool_)
    ok[:n] = free
    in_tree = np.zeros(n, np.bool_)
    leave = np.zeros(n, np.int8)
    for s in starts:
        in_tree[s] = True
    for i in range(n):
        if not free[i] or in_tree[i]:
            continue
        c = i
        while not in_tree[c]:
            base = c * width
            k = below(state, width)
            while not ok[nbr[base + k]]:
                k = below(state, width)
            leave[c] = k
            c = nbr[base + k]
        c = i
        while not in_tree[c]:
            e = c * width + leave[c]
            opened[wall[e]] = True
            in_tree[c] = True
            c = nbr[e]


def padded_table(grid: Grid) -> tuple[NDArray[np.int32], NDArray[np.int32], int]:
    """The neighbour table padded to the largest degree (cached on the grid): neighbours and
    walls, ``n_cells`` where a cell has fewer neighbours."""
    cached = grid._cache.get("padded")
    if cached is None:
        deg = np.diff(grid.indptr)
        width = int(deg.max()) if deg.size else 1
        n = grid.n_cells
        nbr = np.full(n * width, n, np.int32)
        wall = np.zeros(n * width, np.int32)
        src = np.repeat(np.arange(n), deg)
        pos = np.arange(grid.indices.size) - np.repeat(grid.indptr[:-1], deg)
        nbr[src * width + pos] = grid.indices
        wall[src * width + pos] = grid.wall_of
        cached = grid._cache["padded"] = (nbr, wall, width)
    return cached


@njit(cache=True)
def _growing_tree(indptr, indices, wall_of, free, labels, starts, state, opened, select, bias):
    """Grow the newest (``select`` 0), a random (1), the oldest (2) active cell, or the newest
    with probability ``bias`` and else a random one (3)."""
    n = free.size
    visited = np.zeros(n, np.bool_)
    active = np.empty(n, np.int64)
    choice = np.empty(indices.size, np.int64)
    for s in starts:
        visited[s] = True
        head, tail = 0, 1
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
            c = active[i]
            k = 0
            for e in range(indptr[c], indptr[c + 1]):
                nb = indices[e]
                if free[nb] and not visited[nb]:
                    choice[k] = e
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
            e = choice[below(state, k)]
            nb = indices[e]
            opened[wall_of[e]] = True
            visited[nb] = True
            active[tail] = nb
            tail += 1


@njit(cache=True)
def _prim(indptr, indices, wall_of, free, labels, starts, state, opened, select, bias):
    n = free.size
    visited = np.zeros(n, np.bool_)
    listed = np.zeros(n, np.bool_)
    frontier = np.empty(n, np.int64)
    choice = np.empty(indices.size, np.int64)
    for s in starts:
        visited[s] = True
        m = 0
        for e in range(indptr[s], indptr[s + 1]):
            nb = indices[e]
            if free[nb] and not listed[nb]:
                listed[nb] = True
                frontier[m] = nb
                m += 1
        while m > 0:
            i = below(state, m)
            c = frontier[i]
            m -= 1
            frontier[i] = frontier[m]
            k = 0
            for e in range(indptr[c], indptr[c + 1]):
                if visited[indices[e]]:
                    choice[k] = e
                    k += 1
            e = choice[below(state, k)]
            opened[wall_of[e]] = True
            visited[c] = True
            for e in range(indptr[c], indptr[c + 1]):
                nb = indices[e]
                if free[nb] and not visited[nb] and not listed[nb]:
                    listed[nb] = True
                    frontier[m] = nb
                    m += 1


@njit(cache=True)
def _find(parent, a):
    root = a
    while parent[root] != root:
        root = parent[root]
    while parent[a] != root:
        nxt = parent[a]
        parent[a] = root
        a = nxt
    return root


@njit(cache=True)
def _kruskal(indptr, indices, wall_of, free, labels, starts, state, opened, select, bias):
    n = free.size
    edges = np.empty(indices.size, np.int64)
    m = 0
    for c in range(n):
        if not free[c]:
            continue
        for e in range(indptr[c], indptr[c + 1]):
            nb = indices[e]
            if nb > c and free[nb]:
                edges[m] = e
                m += 1
    for i in range(m - 1, 0, -1):  # Fisher-Yates
        j = below(state, i + 1)
        edges[i], edges[j] = edges[j], edges[i]
    parent = np.arange(n)
    src = np.empty(indices.size, np.int64)
    for c in range(n):
        for e in range(indptr[c], indptr[c + 1]):
            src[e] = c
    for i in range(m):
        e = edges[i]
        a, b = _find(parent, src[e]), _find(parent, indices[e])
        if a != b:
            parent[a] = b
            opened[wall_of[e]] = True


@njit(cache=True)
def _wilson(indptr, indices, wall_of, free, labels, starts, state, opened, select, bias):
    """Loop-erased random walks from every cell in id order (the order does not change the
    distribution, and neighbouring ids keep the walks in cache); ``leave`` remembers each
    cell's last exit as its position in the cell's neighbour list, which erases loops."""
    n = free.size
    in_tree = np.zeros(n, np.bool_)
    leave = np.zeros(n, np.int8)
    for s in starts:
        in_tree[s] = True
    for i in range(n):
        if not free[i] or in_tree[i]:
            continue
        c = i
        while not in_tree[c]:
            lo = indptr[c]
            deg = indptr[c + 1] - lo
            k = below(state, deg)
            while not free[indices[lo + k]]:  # a free neighbour, uniformly
                k = below(state, deg)
            leave[c] = k
            c = indices[lo + k]
        c = i
        while not in_tree[c]:
            e = indptr[c] + leave[c]
            opened[wall_of[e]] = True
            in_tree[c] = True
            c = indices[e]


@njit(cache=True)
def _aldous_broder(indptr, indices, wall_of, free, labels, starts, state, opened, select, bias):
    n = free.size
    visited = np.zeros(n, np.bool_)
    size = np.zeros(starts.size, np.int64)
    for c in range(n):
        if labels[c] >= 0:
            size[labels[c]] += 1
    choice = np.empty(indices.size, np.int64)
    for p in range(starts.size):
        c = starts[p]
        visited[c] = True
        left = size[p] - 1
        while left > 0:
            k = 0
            for e in range(indptr[c], indptr[c + 1]):
                if free[indices[e]]:
                    choice[k] = e
                    k += 1
            e = choice[below(state, k)]
            nb = indices[e]
            if not visited[nb]:
                visited[nb] = True
                opened[wall_of[e]] = True
                left -= 1
            c = nb


@njit(cache=True)
def _hunt_and_kill(indptr, indices, wall_of, free, labels, starts, state, opened, select, bias):
    n = free.size
    visited = np.zeros(n, np.bool_)
    choice = np.empty(indices.size, np.int64)
    for s in starts:
        visited[s] = True
    hunt_from = 0
    for s in starts:
        c = s
        while c >= 0:
            k = 0
            for e in range(indptr[c], indptr[c + 1]):
                nb = indices[e]
                if free[nb] and not visited[nb]:
                    choice[k] = e
                    k += 1
            if k > 0:  # walk on
                e = choice[below(state, k)]
                c = indices[e]
                opened[wall_of[e]] = True
                visited[c] = True
                continue
            c = -1  # hunt: the first unvisited free cell beside the maze, in id order
            while hunt_from < n and (visited[hunt_from] or not free[hunt_from]):
                hunt_from += 1
            for h in range(hunt_from, n):
                if visited[h] or not free[h]:
                    continue
                k = 0
                for e in range(indptr[h], indptr[h + 1]):
                    if visited[indices[e]]:
                        choice[k] = e
                        k += 1
                if k > 0:
                    e = choice[below(state, k)]
                    opened[wall_of[e]] = True
                    visited[h] = True
                    c = h
                    break


GRAPH_ALGORITHMS = {
    "backtracker": _backtracker,
    "prim": _prim,
    "kruskal": _kruskal,
    "wilson": _wilson,
    "aldous-broder": _aldous_broder,
    "hunt-and-kill": _hunt_and_kill,
    "growing-tree": _growing_tree,
}
"""The generators that run on any grid, by name, and their kernels."""

UNIFORM = frozenset({"wilson", "aldous-broder"})
"""Those whose every spanning tree is equally likely."""

OTHER_GRIDS = ("hex", "triangle", "polar", "upsilon")
"""The grids beyond squares, where only the graph generators run."""


def grids_of(algorithm: str) -> tuple[str, ...]:
    """The grids ``algorithm`` carves: every grid for a graph generator, squares for the rest
    (binary tree, sidewinder, Eller's, division and the block geometries are the square
    grid's own)."""
    return ("square", *OTHER_GRIDS) if algorithm in GRAPH_ALGORITHMS else ("square",)


def carve_graph(
    grid: Grid,
    free: NDArray[np.bool_],
    algorithm: str,
    rng: RngLike,
    *,
    select: str = "newest",
    bias: float = 0.5,
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
    select : {'newest', 'random', 'oldest', 'mix'}, default 'newest'
        ``growing-tree`` only: which active cell grows (``mix``: the newest with
        probability ``bias``, else a random one).
    bias : float, default 0.5
        ``growing-tree`` with ``select='mix'``.

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
    state = kernel_state(as_generator(rng))
    if free.all() and grid._cache.get("connected", None) is not False:
        labels, parts = np.zeros(grid.n_cells, np.int64), 1  # a whole grid is one part
        if "connected" not in grid._cache:
            grid._cache["connected"] = label_parts(grid, free)[1] == 1
        if not grid._cache["connected"]:
            labels, parts = label_parts(grid, free)
    else:
        labels, parts = label_parts(grid, free)
    starts = _random_starts(labels, parts, state)
    opened = np.zeros(grid.n_walls, np.bool_)
    how = ("newest", "random", "oldest", "mix").index(select)
    if algorithm in ("backtracker", "wilson"):
        nbr, wall, width = padded_table(grid)
        padded = _backtracker_padded if algorithm == "backtracker" else _wilson_padded
        padded(nbr, wall, width, grid.n_cells, starts, state, opened, free)
        return opened
    kernel(grid.indptr, grid.indices, grid.wall_of, free, labels, starts, state, opened, how,
           float(bias))  # fmt: skip
    return opened
