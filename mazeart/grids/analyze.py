"""The metrics of :mod:`mazeart.analyze` for a maze on any grid.

The definitions are the square ones read on a graph: a junction has three
passages or more (``junctions_4`` counts four or more), a cell goes *straight
on* when its two passages leave in opposite directions (within 25 degrees,
measured between cell centres), and tortuosity divides the solution's steps by
the straight-line distance between the ends in steps (the mean distance
between neighbouring centres).

>>> from mazeart.grids import square_grid
>>> from mazeart.grids.generate import generate_on_grid
>>> import numpy as np
>>> g = square_grid(8, 8)
>>> m = measure_grid(generate_on_grid(np.zeros(64, np.int32), g, rng=3))
>>> m.cells, m.loops, m.parts
(64, 0, 1)
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from mazeart._jit import njit
from mazeart.analyze import Metrics
from mazeart.errors import NoPathError
from mazeart.grids.maze import GridMaze

__all__ = ["measure_grid"]


@njit(cache=True)
def _components(indptr, indices, keep):
    """Parts of the cells ``keep`` along the table: labels (-1 elsewhere) and sizes."""
    n = keep.size
    labels = np.full(n, -1, np.int64)
    queue = np.empty(n, np.int64)
    sizes = np.zeros(n, np.int64)
    parts = 0
    for s in range(n):
        if not keep[s] or labels[s] >= 0:
            continue
        labels[s] = parts
        head, tail = 0, 1
        queue[0] = s
        while head < tail:
            c = queue[head]
            head += 1
            sizes[parts] += 1
            for k in range(indptr[c], indptr[c + 1]):
                nb = indices[k]
                if keep[nb] and labels[nb] < 0:
                    labels[nb] = parts
                    queue[tail] = nb
                    tail += 1
        parts += 1
    return labels, sizes[:parts]


@njit(cache=True)
def _dead_end_lengths(indptr, indices, deg, stop, dead):
    out = np.zeros(dead.size, np.int64)
    for i in range(dead.size):
        prev, c, length = -1, dead[i], 0
        while True:
            length += 1
            nxt = -1
            for k in range(indptr[c], indptr[c + 1]):
                if indices[k] != prev:
                    nxt = indices[k]
                    break
            if nxt < 0:
                break
            if deg[nxt] != 2 or stop[nxt]:
                break
            prev, c = c, nxt
        out[i] = length
    return out


@njit(cache=True)
def _branch_depths(indptr, indices, on_path, path):
    """The depth of every branch off the path (BFS from the path; loops shorten them)."""
    n = on_path.size
    dist = np.full(n, -1, np.int64)
    branch = np.full(n, -1, np.int64)
    queue = np.empty(n, np.int64)
    tail = 0
    for c in path:
        dist[c] = 0
    n_branch = 0
    for c in path:
        for k in range(indptr[c], indptr[c + 1]):
            nb = indices[k]
            if dist[nb] < 0:
                dist[nb] = 1
                branch[nb] = n_branch
                n_branch += 1
                queue[tail] = nb
                tail += 1
    depth = np.zeros(n_branch, np.int64)
    head = 0
    while head < tail:
        c = queue[head]
        head += 1
        b = branch[c]
        if dist[c] > depth[b]:
            depth[b] = dist[c]
        for k in range(indptr[c], indptr[c + 1]):
            nb = indices[k]
            if dist[nb] < 0:
                dist[nb] = dist[c] + 1
                branch[nb] = b
                queue[tail] = nb
                tail += 1
    return depth


def _straight(maze: GridMaze, deg: NDArray[np.int64]) -> NDArray[np.bool_]:
    indptr, indices = maze.open_table
    two = np.flatnonzero(maze.mask & (deg == 2))
    if not two.size:
        return np.zeros(maze.grid.n_cells, bool)
    c = maze.grid.centres
    a, b = indices[indptr[two]], indices[indptr[two] + 1]
    u, v = c[a] - c[two], c[b] - c[two]
    cos = (u * v).sum(axis=1) / (np.hypot(*u.T) * np.hypot(*v.T))
    out = np.zeros(maze.grid.n_cells, bool)
    out[two[cos < -math.cos(math.radians(25))]] = True
    return out


def measure_grid(maze: GridMaze) -> Metrics:
    """The :class:`~mazeart.analyze.Metrics` of a maze on any grid.

    Parameters
    ----------
    maze : GridMaze

    Returns
    -------
    Metrics
        ``rows`` and ``cols`` are the drawing's height and width in cells
        (rounded up), ``geometry`` the grid's kind.
    """
    from mazeart.grids.solve import solve

    g = maze.grid
    indptr, indices = maze.open_table
    mask = maze.mask
    deg = maze.degree()
    cells, n_pass = maze.n_cells, maze.n_passages
    _, sizes = _components(indptr, indices, mask)
    parts = int(sizes.size)
    ends = np.zeros(g.n_cells, bool)
    for cell in (maze.entrance, maze.exit):
        if cell is not None:
            ends[cell] = True
    dead = np.flatnonzero(mask & (deg == 1) & ~ends)
    lengths = _dead_end_lengths(indptr, indices, deg, ends, dead)
    straight = _straight(maze, deg)
    _, corridor_sizes = _components(indptr, indices, mask & (deg <= 2))
    sol_len, tort, decisions, difficulty = 0, 0.0, 0, 0.0
    if maze.entrance is not None and maze.exit is not None:
        try:
            path = solve(maze)
        except NoPathError:
            path = None
        if path is not None:
            sol_len = len(path)
            src = np.repeat(np.arange(g.n_cells), np.diff(g.indptr))
            step = float(np.hypot(*(g.centres[src] - g.centres[g.indices]).T).mean())
            span = float(np.hypot(*(g.centres[maze.exit] - g.centres[maze.entrance])))
            tort = (sol_len - 1) / max(1.0, span / step)
            on_path = np.zeros(g.n_cells, bool)
            on_path[path] = True
            decisions = int(np.count_nonzero(deg[path] >= 3))
            depths = _branch_depths(indptr, indices, on_path, path.astype(np.int64))
            if depths.size:
                difficulty = decisions * float(depths.mean()) / math.sqrt(max(cells, 1))
    width, height = g.size
    return Metrics(
        rows=math.ceil(height),
        cols=math.ceil(width),
        geometry=g.kind,
        cells=cells,
        passages=n_pass,
        parts=parts,
        loops=n_pass - cells + parts,
        solution_length=sol_len,
        solution_share=round(sol_len / max(cells, 1), 4),
        tortuosity=round(tort, 4),
        decisions=decisions,
        dead_ends=int(dead.size),
        dead_end_mean=round(float(lengths.mean()), 4) if lengths.size else 0.0,
        dead_end_max=int(lengths.max()) if lengths.size else 0,
        junctions_3=int(np.count_nonzero(mask & (deg == 3))),
        junctions_4=int(np.count_nonzero(mask & (deg >= 4))),
        straightness=round(float(straight.sum()) / max(cells, 1), 4),
        longest_corridor=int(corridor_sizes.max()) if corridor_sizes.size else 0,
        difficulty=round(difficulty, 4),
    )
