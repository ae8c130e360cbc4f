"""Metrics: how big, how long, how branchy and how hard a maze is.

:func:`measure` reads a :class:`~mazeart.maze.Maze` as a graph (cells joined
by passages; a ``blocks`` maze at block resolution) and returns
:class:`Metrics`. Room cells are open floor, not corridors, so the local
counts (dead ends, junctions, straightness, corridors) skip them; the solution
and the loop count do not.

Definitions
-----------
dead end
    A cell with one passage, other than the entrance and exit. Its *length*
    is the number of cells from it to the first junction (or end) along its
    corridor, the junction not counted: a one-cell stub has length 1.
junction
    A cell with three (``junctions_3``) or four (``junctions_4``) passages.
straightness
    Share of cells whose two passages are opposite (the corridor goes straight
    on). Recursive backtrackers score high (long rivers), Prim's low.
corridor
    A maximal run of cells with at most two passages each; ``longest_corridor``
    counts its cells.
solution
    A shortest entrance → exit path; ``solution_length`` counts its cells,
    ``solution_share`` divides by the maze's cells, ``tortuosity`` is its steps
    over the Manhattan distance between the ends (1 is a straight line).
decisions
    Solution cells where the solver can take a wrong turn (three or more
    passages).
loops
    Passages beyond a spanning forest: ``passages - cells + parts``; 0 for a
    perfect maze.
difficulty
    ``decisions * mean branch depth / sqrt(cells)``, where a branch is what
    hangs off the solution at a decision and its depth is the farthest a
    wrong turn can lead before it shows itself as wrong. Many decisions with
    shallow pockets (Prim's) are easy to see through; few decisions with deep
    pockets (a backtracker) mislead for long; dividing by ``sqrt(cells)``
    makes sizes comparable. It ranks candidates for ``--best-of``; it is not
    a psychological measurement.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numpy.typing import NDArray

from mazeart._anygrid import check_maze
from mazeart._jit import njit
from mazeart._kernels.parts import label_links, label_passages
from mazeart.errors import check_choice, check_int
from mazeart.maze import Maze

if TYPE_CHECKING:
    from mazeart.grids.maze import GridMaze

__all__ = ["DIFFICULTIES", "TARGETS", "Best", "Metrics", "best_of", "measure", "pick_best"]


@dataclass(frozen=True)
class Metrics:
    """Numbers that describe a maze (see the module docstring for definitions)."""

    rows: int
    cols: int
    geometry: str
    cells: int
    passages: int
    parts: int
    loops: int
    solution_length: int
    solution_share: float
    tortuosity: float
    decisions: int
    dead_ends: int
    dead_end_mean: float
    dead_end_max: int
    junctions_3: int
    junctions_4: int
    straightness: float
    longest_corridor: int
    difficulty: float

    def to_dict(self) -> dict[str, int | float | str]:
        """The metrics as a plain dict (JSON-ready)."""
        return asdict(self)


@njit(cache=True)
def _dead_end_lengths(passages, width, deg, stop, starts):
    """Cells from each dead end in ``starts`` to the first cell that is a junction or ``stop``."""
    steps = (-width, 1, width, -1)
    out = np.empty(starts.size, np.int64)
    for i in range(starts.size):
        prev = -1
        cur = starts[i]
        length = 1
        while True:
            bits = passages[cur]
            nxt = -1
            for k in range(4):
                if bits & (1 << k):
                    nb = cur + steps[k]
                    if nb != prev:
                        nxt = nb
                        break
            if nxt < 0 or deg[nxt] != 2 or stop[nxt]:
                if nxt >= 0 and deg[nxt] == 1 and not stop[nxt]:
                    length += 1  # a lone corridor, dead at both ends
                break
            prev = cur
            cur = nxt
            length += 1
        out[i] = length
    return out


@njit(cache=True)
def _branch_depths(passages, width, on_path, path):
    """For each off-path passage at a path cell, the farthest cell it leads to (in steps)."""
    n = passages.size
    steps = (-width, 1, width, -1)
    dist = np.full(n, -1, np.int64)
    for i in range(path.size):
        dist[path[i]] = 0
    queue = np.empty(n, np.int64)
    out = np.empty(4 * path.size, np.int64)
    m = 0
    for i in range(path.size):
        cur = path[i]
        bits = passages[cur]
        for k in range(4):
            if not bits & (1 << k):
                continue
            root = cur + steps[k]
            if on_path[root] or dist[root] >= 0:
                continue
            dist[root] = 1
            queue[0] = root
            head, tail, deepest = 0, 1, 1
            while head < tail:
                c = queue[head]
                head += 1
                if dist[c] > deepest:
                    deepest = dist[c]
                b = passages[c]
                for j in range(4):
                    if b & (1 << j):
                        nb = c + steps[j]
                        if dist[nb] < 0:
                            dist[nb] = dist[c] + 1
                            queue[tail] = nb
                            tail += 1
            out[m] = deepest
            m += 1
    return out[:m]


def measure(maze: Maze | GridMaze) -> Metrics:
    """Measure a maze.

    Parameters
    ----------
    maze : Maze

    Returns
    -------
    Metrics
        Solution fields are 0 when the maze has no entrance/exit or they are
        not joined.

    Examples
    --------
    >>> import numpy as np
    >>> from mazeart import generate
    >>> m = measure(generate(np.zeros((10, 10), np.int32), rng=1))
    >>> m.cells, m.loops, m.solution_length > 1
    (100, 0, True)
    """
    check_maze(maze)
    if not isinstance(maze, Maze):
        return _measure_grid(maze)
    from mazeart.shape import degrees
    from mazeart.solvers import solve

    p = maze.passages.reshape(-1)
    w = maze.width
    mask = maze.mask.reshape(-1)
    deg = degrees(maze).reshape(-1)
    cells = int(mask.sum())
    n_pass = maze.n_passages
    parts = int(label_passages(p, mask, w)[1])
    local = mask & ~maze.room_mask.reshape(-1)
    ends = np.zeros(mask.size, dtype=bool)
    for cell in (maze.entrance, maze.exit):
        if cell is not None:
            ends[cell[0] * w + cell[1]] = True

    dead = np.flatnonzero(local & (deg == 1) & ~ends)
    stop = ends | ~local
    lengths = _dead_end_lengths(p, w, deg, stop, dead) if dead.size else np.zeros(0, np.int64)
    straight = local & (deg == 2) & ((p == 5) | (p == 10))
    corridors, n_corridors = label_passages(p, local & (deg <= 2), w)
    corridor_sizes = np.bincount(corridors, minlength=n_corridors + 1)[1:]

    sol_len, tort, decisions, difficulty = 0, 0.0, 0, 0.0
    if maze.entrance is not None and maze.exit is not None:
        try:
            path = solve(maze)
        except ValueError:
            path = None
        if path is not None:
            sol_len = len(path)
            (r0, c0), (r1, c1) = maze.entrance, maze.exit
            tort = (sol_len - 1) / max(1, abs(r1 - r0) + abs(c1 - c0))
            flat = (path[:, 0] * w + path[:, 1]).astype(np.int64)
            on_path = np.zeros(mask.size, dtype=bool)
            on_path[flat] = True
            decisions = int(np.count_nonzero(deg[flat] >= 3))
            depths = _branch_depths(p, w, on_path, flat)
            if depths.size:
                difficulty = decisions * float(depths.mean()) / math.sqrt(max(cells, 1))
    n_local = max(int(local.sum()), 1)
    return Metrics(
        rows=maze.height,
        cols=maze.width,
        geometry=maze.geometry,
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
        junctions_3=int(np.count_nonzero(local & (deg == 3))),
        junctions_4=int(np.count_nonzero(local & (deg == 4))),
        straightness=round(int(straight.sum()) / n_local, 4),
        longest_corridor=int(corridor_sizes.max()) if corridor_sizes.size else 0,
        difficulty=round(difficulty, 4),
    )


DIFFICULTIES: dict[str, dict[str, object]] = {
    "easy": {"cells": 24, "algorithm": "prim", "braid": 0.0},
    "medium": {"cells": 45, "algorithm": "kruskal", "braid": 0.0},
    "hard": {"cells": 80, "algorithm": "hunt-and-kill", "braid": 0.0},
}
"""What ``--difficulty`` chooses when the user does not: grid size, algorithm, braid.

Prim's mazes branch often into short, obvious pockets; Kruskal's are uniform-
looking with middling pockets; hunt-and-kill makes long winding corridors and
deep wrong turns (the highest mean :attr:`Metrics.difficulty` of the registered
generators on open grids). Larger grids are harder whatever the algorithm.
"""


class Best(NamedTuple):
    """The candidate :func:`best_of` kept."""

    candidate: int
    """Which candidate it was (the argument ``candidates`` was called with)."""
    maze: Maze
    metrics: Metrics


TARGETS = ("easy", "medium", "hard")
"""What :func:`best_of` can aim for."""


def best_of(
    candidates: Callable[[int], Maze],
    count: int,
    *,
    target: str = "hard",
    progress: Callable[[int], None] | None = None,
) -> Best:
    """Make ``count`` candidate mazes and keep the one that best fits ``target``.

    Parameters
    ----------
    candidates : callable
        ``i -> Maze`` for ``i`` in ``range(count)`` (e.g. the same settings with
        seed ``base + i``, so the kept maze's seed regenerates it alone).
    count : int
        Candidates to make (at least 1).
    target : {'hard', 'medium', 'easy'}, default 'hard'
        ``hard`` keeps the highest :attr:`Metrics.difficulty`, ``easy`` the
        lowest, ``medium`` the one nearest the candidates' mean.
    progress : callable, optional
        Called with the number of candidates made so far.

    Returns
    -------
    Best
        ``(candidate, maze, metrics)`` of the kept candidate.

    Examples
    --------
    >>> import numpy as np
    >>> from mazeart import generate
    >>> def candidate(i):
    ...     return generate(np.zeros((8, 8), np.int32), algorithm="prim", rng=i)
    >>> best = best_of(candidate, 5, target="hard")
    >>> best.maze == candidate(best.candidate)
    True
    """
    check_choice(target, "target", TARGETS)
    count = check_int(count, "the number of candidates")
    made: list[tuple[Maze, Metrics]] = []
    for i in range(count):
        maze = candidates(i)
        made.append((maze, measure(maze)))
        if progress is not None:
            progress(i + 1)
    pick = pick_best([m.difficulty for _, m in made], target)
    return Best(pick, *made[pick])


def pick_best(difficulties: Sequence[float], target: str = "hard") -> int:
    """Which of the candidates' difficulties best fits ``target`` (see :func:`best_of`).

    Parameters
    ----------
    difficulties : sequence of float
    target : {'hard', 'medium', 'easy'}, default 'hard'

    Returns
    -------
    int
        The index of the kept candidate (the first, among equals).

    Examples
    --------
    >>> pick_best([0.2, 0.7, 0.5]), pick_best([0.2, 0.7, 0.5], "easy")
    (1, 0)
    """
    check_choice(target, "target", TARGETS)
    scores = np.asarray(difficulties, dtype=float)
    if target == "hard":
        return int(np.argmax(scores))
    if target == "easy":
        return int(np.argmin(scores))
    return int(np.argmin(np.abs(scores - scores.mean())))


# ----------------------------------------------------------------------------- other grids


@njit(cache=True)
def _graph_dead_end_lengths(indptr, indices, deg, stop, dead):
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
def _graph_branch_depths(indptr, indices, on_path, path):
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


def _graph_straight(maze: GridMaze, deg: NDArray[np.int64]) -> NDArray[np.bool_]:
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


def _measure_grid(maze: GridMaze) -> Metrics:
    """The :class:`Metrics` of a maze on another grid (see :func:`measure`).

    Parameters
    ----------
    maze : GridMaze

    Returns
    -------
    Metrics
        ``rows`` and ``cols`` are the drawing's height and width in cells
        (rounded up), ``geometry`` the grid's kind.
    """
    from mazeart.errors import NoPathError
    from mazeart.grids.carve import topology
    from mazeart.grids.solve import solve

    g = maze.grid
    indptr, indices = maze.open_table
    mask = maze.mask
    deg = maze.degree()
    cells, n_pass = maze.n_cells, maze.n_passages
    topo = topology(g)
    parts = int(label_links(topo, mask, maze.passages)[1])
    ends = np.zeros(g.n_cells, bool)
    for cell in (maze.entrance, maze.exit):
        if cell is not None:
            ends[cell] = True
    dead = np.flatnonzero(mask & (deg == 1) & ~ends)
    lengths = _graph_dead_end_lengths(indptr, indices, deg, ends, dead)
    straight = _graph_straight(maze, deg)
    corridors, n_corridors = label_links(topo, mask & (deg <= 2), maze.passages)
    corridor_sizes = np.bincount(corridors, minlength=n_corridors + 1)[1:]
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
            depths = _graph_branch_depths(indptr, indices, on_path, path.astype(np.int64))
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
