"""Tags on a maze on any grid, by the same rules as on squares (:mod:`mazeart.tags`).

``spawn``  spread out: each as far as possible (along the passages) from the entrance and the
           spawns before it
``loot``   the dead ends farthest from the entrance
``key``    the dead ends farthest from the solution
``npc``    junctions (three passages or more), at random
``trap``   cells of the solution, at random
other      kinds registered with :func:`mazeart.tags.register_tag`: maze cells at random

Never on the entrance, the exit, a cell already tagged, or a cell ``allowed`` excludes
(bridges across the ground); when a rule runs out of its own cells, the rest go to the maze
cells farthest from the entrance.

>>> import numpy as np
>>> from mazeart.grids import make_grid
>>> from mazeart.grids.generate import generate_on_grid
>>> g = make_grid("hex", rows=8, cols=10)
>>> maze = place_tags_on_grid(generate_on_grid(np.zeros(80, np.int32), g, rng=3), "loot=3,npc=1", 3)
>>> sorted(maze.tags.values())
['loot', 'loot', 'loot', 'npc']
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numpy.typing import NDArray

from mazeart._rng import RngLike, as_generator
from mazeart.errors import MazeartError
from mazeart.grids.maze import GridMaze
from mazeart.grids.solve import _bfs, solve

__all__ = ["place_tags_on_grid"]


def _multi_distance(maze: GridMaze, sources: NDArray[np.intp]) -> NDArray[np.int64]:
    """Steps from the nearest of ``sources`` to every cell (-1 unreached)."""
    indptr, indices = maze.open_table
    best = np.full(maze.grid.n_cells, -1, np.int64)
    for s in sources:  # few sources (spawns) or a path: fine
        d = _bfs(indptr, indices, int(s))[0].astype(np.int64)
        reach = d >= 0
        best = np.where(reach & ((best < 0) | (d < best)), d, best)
    return best


def place_tags_on_grid(
    maze: GridMaze,
    counts: Mapping[str, int] | str,
    rng: RngLike = None,
    *,
    allowed: NDArray[np.bool_] | None = None,
) -> GridMaze:
    """Place tags on a maze on any grid by their kinds' rules (see the module's text).

    Parameters
    ----------
    maze : GridMaze
    counts : mapping or str
        ``{kind: count}`` or ``"loot=5,spawn=2"``.
    rng : int or numpy.random.Generator, optional
    allowed : (n,) ndarray of bool, optional
        Cells that may carry tags.

    Returns
    -------
    GridMaze
        With the new tags added.

    Raises
    ------
    MazeartError
        If the maze has too few cells left for the tags asked for.
    """
    from mazeart.tags import parse_place

    wanted = parse_place(counts)
    gen = as_generator(rng)
    tags = dict(maze.tags)
    free = maze.mask.copy() if allowed is None else maze.mask & np.asarray(allowed, bool)
    for cell in (*tags, maze.entrance, maze.exit):
        if cell is not None:
            free[cell] = False
    deg = maze.degree()
    indptr, indices = maze.open_table
    if not maze.mask.any():
        raise MazeartError("the maze has no cells to put tags on")
    start = maze.entrance if maze.entrance is not None else int(np.flatnonzero(maze.mask)[0])
    from_start = _bfs(indptr, indices, start)[0].astype(np.int64)
    path = np.array([], np.intp)
    if maze.entrance is not None and maze.exit is not None:
        path = solve(maze)

    def farthest(cells: NDArray[np.intp], score: NDArray[np.int64], k: int) -> list[int]:
        jitter = gen.random(cells.size)  # ties broken at random, reproducibly
        order = np.lexsort((jitter, -score[cells]))
        return [int(c) for c in cells[order[:k]]]

    for kind, count in wanted.items():
        if count == 0:
            continue
        cells = np.flatnonzero(free)
        dead = cells[deg[cells] == 1]
        if kind == "spawn":
            chosen: list[int] = []
            dist = from_start.copy()
            for _ in range(count):
                left = np.flatnonzero(free)
                if not left.size:
                    break
                pick = farthest(left, dist, 1)[0]
                chosen.append(pick)
                free[pick] = False
                dist = np.minimum(dist, _multi_distance(maze, np.array([pick])))
            for c in chosen:
                free[c] = True  # placed below with the others
        elif kind == "loot":
            chosen = farthest(dead, from_start, count)
        elif kind == "key":
            chosen = farthest(dead, _multi_distance(maze, path) if path.size else from_start, count)
        elif kind == "npc":
            junctions = cells[deg[cells] >= 3]
            chosen = [int(c) for c in gen.permutation(junctions)[:count]]
        elif kind == "trap":
            on_path = path[free[path]] if path.size else np.array([], np.intp)
            chosen = [int(c) for c in gen.permutation(on_path)[:count]]
        else:
            chosen = [int(c) for c in gen.permutation(cells)[:count]]
        if len(chosen) < count:  # the rule ran out: the farthest cells left
            rest = np.setdiff1d(cells, chosen)
            chosen += farthest(rest, from_start, count - len(chosen))
        if len(chosen) < count:
            raise MazeartError(
                f"cannot place {count} {kind} tags: only {len(chosen)} maze cells are left for them"
            )
        for c in chosen:
            tags[c] = kind
            free[c] = False
    return maze.replace(tags=tags)
