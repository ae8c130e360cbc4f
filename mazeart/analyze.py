"""Metrics: how big, how long, how branchy and how hard a maze is.

:func:`measure` reads a maze on any grid as a graph (cells joined by
passages; a ``blocks`` maze at block resolution) and returns :class:`Metrics`:
one function, its kernels written once against the grid's topology
(:mod:`mazeart._kernels.topology`). Room cells are open floor, not corridors, so the local
counts (dead ends, junctions, straightness, corridors) skip them; the solution
and the loop count do not.

Definitions
-----------
dead end
    A cell with one passage, other than the entrance and exit. Its *length*
    is the number of cells from it to the first junction (or end) along its
    corridor, the junction not counted: a one-cell stub has length 1.
junction
    A cell with three (``junctions_3``) or four or more (``junctions_4``) passages.
straightness
    Share of cells whose two passages are opposite (the corridor goes straight
    on: the neighbours' centres more than 155 degrees apart, seen from the cell's).
    Recursive backtrackers score high (long rivers), Prim's low.
corridor
    A maximal run of cells with at most two passages each; ``longest_corridor``
    counts its cells.
solution
    A shortest entrance → exit path; ``solution_length`` counts its cells,
    ``solution_share`` divides by the maze's cells, ``tortuosity`` is its steps
    over the steps between the ends on the open grid (the Manhattan distance on
    the square grid; elsewhere their distance over a mean step; 1 is a straight
    line).
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
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from mazeart._jit import njit
from mazeart._kernels.parts import label_links
from mazeart._kernels.topology import degree, is_open, step
from mazeart.errors import check_choice, check_int
from mazeart.maze import Maze, check_maze

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
def _dead_end_lengths(topo, links, deg, stop, starts):  # type: ignore[no-untyped-def]
    """Cells from each dead end in ``starts`` to the first cell that is a junction or ``stop``."""
    width = degree(topo)
    out = np.empty(starts.size, np.int64)
    for i in range(starts.size):
        prev = -1
        cur = starts[i]
        length = 1
        while True:
            nxt = -1
            for d in range(width):
                nb = step(topo, cur, d)
                if nb >= 0 and nb != prev and is_open(topo, links, cur, d):
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
def _branch_depths(topo, links, on_path, path):  # type: ignore[no-untyped-def]
    """For each off-path passage at a path cell, the farthest cell it leads to (in steps)."""
    n = on_path.size
    width = degree(topo)
    dist = np.full(n, -1, np.int64)
    for i in range(path.size):
        dist[path[i]] = 0
    queue = np.empty(n, np.int64)
    out = np.empty(width * path.size, np.int64)
    m = 0
    for i in range(path.size):
        cur = path[i]
        for k in range(width):
            root = step(topo, cur, k)
            if root < 0 or not is_open(topo, links, cur, k):
                continue
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
                for j in range(width):
                    nb = step(topo, c, j)
                    if nb >= 0 and is_open(topo, links, c, j) and dist[nb] < 0:
                        dist[nb] = dist[c] + 1
                        queue[tail] = nb
                        tail += 1
            out[m] = deepest
            m += 1
    return out[:m]


@njit(cache=True)
def _straight(topo, links, keep, deg, centres, limit):  # type: ignore[no-untyped-def]
    """Cells of ``keep`` with two passages whose neighbours lie on opposite sides: the
    cosine of the angle between them below ``limit``."""
    n = keep.size
    width = degree(topo)
    out = np.zeros(n, np.bool_)
    for c in range(n):
        if not keep[c] or deg[c] != 2:
            continue
        a, b = -1, -1
        for d in range(width):
            nb = step(topo, c, d)
            if nb >= 0 and is_open(topo, links, c, d):
                if a < 0:
                    a = nb
                else:
                    b = nb
        ux, uy = centres[a, 0] - centres[c, 0], centres[a, 1] - centres[c, 1]
        vx, vy = centres[b, 0] - centres[c, 0], centres[b, 1] - centres[c, 1]
        cos = (ux * vx + uy * vy) / (np.hypot(ux, uy) * np.hypot(vx, vy))
        out[c] = cos < limit
    return out


class _Graph(NamedTuple):
    """What :func:`measure` reads of a maze, the same for every grid: flat arrays over
    its cells and the topology its kernels walk."""

    topo: Any
    links: NDArray[Any]
    mask: NDArray[np.bool_]
    local: NDArray[np.bool_]  # maze cells outside rooms
    deg: NDArray[np.int64]
    centres: NDArray[np.float64]
    ends: tuple[int | None, int | None]  # flat cells
    path: NDArray[np.int64] | None  # the solution, flat cells
    span: float  # the ends apart, in steps of an open grid
    rows: int
    cols: int
    geometry: str


def _graph(maze: Maze) -> _Graph:
    """The maze as :func:`measure` reads it (the one place the grids differ)."""
    from mazeart.errors import NoPathError
    from mazeart.solvers import solve

    try:
        solution = solve(maze) if maze.entrance is not None and maze.exit is not None else None
    except NoPathError:
        solution = None
    g = maze.grid
    span = 0.0
    if maze.entrance is not None and maze.exit is not None:
        if maze.is_square:  # steps of an open grid: the Manhattan distance
            (r0, c0), (r1, c1) = maze.entrance, maze.exit
            span = float(abs(r1 - r0) + abs(c1 - c0))
        else:  # the straight line, in mean steps between neighbours' centres
            src = np.repeat(np.arange(g.n_cells), np.diff(g.indptr))
            unit = float(np.hypot(*(g.centres[src] - g.centres[g.indices]).T).mean())
            span = float(np.hypot(*(g.centres[maze.exit] - g.centres[maze.entrance]))) / unit
    mask = maze.mask.reshape(-1)
    width, height = g.size
    return _Graph(
        topo=maze.topology,
        links=maze.passages.reshape(-1),
        mask=mask,
        local=mask & ~maze.room_mask.reshape(-1),
        deg=maze.degree(),
        centres=g.centres,
        ends=(_index(maze, maze.entrance), _index(maze, maze.exit)),
        path=None if solution is None else maze.flat_cells(solution),
        span=span,
        rows=math.ceil(height),
        cols=math.ceil(width),
        geometry=maze.geometry if maze.is_square else g.kind,
    )


def _index(maze: Maze, cell: Any) -> int | None:
    return None if cell is None else maze.cell_index(cell)


def measure(maze: Maze) -> Metrics:
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
    g = _graph(maze)
    mask, local, deg = g.mask, g.local, g.deg
    cells = int(mask.sum())
    n_pass = maze.n_passages
    parts = int(label_links(g.topo, mask, g.links)[1])
    ends = np.zeros(mask.size, dtype=bool)
    ends[[e for e in g.ends if e is not None]] = True
    dead = np.flatnonzero(local & (deg == 1) & ~ends)
    stop = ends | ~local
    lengths = _dead_end_lengths(g.topo, g.links, deg, stop, dead)
    straight = _straight(g.topo, g.links, local, deg, g.centres, -math.cos(math.radians(25)))
    corridors, n_corridors = label_links(g.topo, local & (deg <= 2), g.links)
    corridor_sizes = np.bincount(corridors, minlength=n_corridors + 1)[1:]
    sol_len, tort, decisions, difficulty = 0, 0.0, 0, 0.0
    if g.path is not None:
        sol_len = len(g.path)
        tort = (sol_len - 1) / max(1.0, g.span)
        on_path = np.zeros(mask.size, dtype=bool)
        on_path[g.path] = True
        decisions = int(np.count_nonzero(deg[g.path] >= 3))
        depths = _branch_depths(g.topo, g.links, on_path, g.path)
        if depths.size:
            difficulty = decisions * float(depths.mean()) / math.sqrt(max(cells, 1))
    n_local = max(int(local.sum()), 1)
    return Metrics(
        rows=g.rows,
        cols=g.cols,
        geometry=g.geometry,
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
        junctions_4=int(np.count_nonzero(local & (deg >= 4))),
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
