"""Solving a maze on any grid: distances, shortest paths (breadth-first, and A* with the
grid's own metric), and dead-end filling, all compiled over the maze's neighbour table.

>>> import numpy as np
>>> from mazeart.grids import square_grid
>>> from mazeart.grids.maze import GridMaze
>>> g = square_grid(1, 4)
>>> walls = [g.wall_between(i, i + 1) for i in range(3)]
>>> maze = GridMaze(g, np.ones(4, bool), np.isin(np.arange(g.n_walls), walls), 0, 3)
>>> solve(maze).tolist(), distances(maze, 1).tolist()
([0, 1, 2, 3], [1, 0, 1, 2])
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from mazeart._graph import erase_loops
from mazeart._jit import njit
from mazeart._rng import RngLike, below
from mazeart.errors import MazeartError, NoPathError, check_choice
from mazeart.grids.maze import GridMaze

__all__ = ["dead_end_filling", "distances", "random_paths", "solve", "wall_follower"]


@njit(cache=True)
def _bfs(indptr, indices, source):
    """Steps from ``source`` to every cell (-1 unreached), as a tuple of one (the path is
    walked back by the steps: :func:`_path_back`)."""
    n = indptr.size - 1
    dist = np.full(n, -1, np.int32)
    queue = np.empty(n, np.int64)
    dist[source] = 0
    queue[0] = source
    head, tail = 0, 1
    while head < tail:
        c = queue[head]
        head += 1
        for k in range(indptr[c], indptr[c + 1]):
            nb = indices[k]
            if dist[nb] < 0:
                dist[nb] = dist[c] + 1
                queue[tail] = nb
                tail += 1
    return (dist,)


@njit(cache=True)
def _path_back(indptr, indices, dist, goal):
    """The cells from the source to ``goal`` (reached), walked back one step nearer at a time."""
    path = np.empty(dist[goal] + 1, np.int64)
    c = goal
    for i in range(dist[goal], -1, -1):
        path[i] = c
        if i:
            for k in range(indptr[c], indptr[c + 1]):
                nb = indices[k]
                if dist[nb] == i - 1:
                    c = nb
                    break
    return path


@njit(cache=True)
def _prev_path(prev, start, goal):
    """The cells from ``start`` to ``goal`` by the predecessors (empty if not joined)."""
    n = 1
    c = goal
    while c != start:
        c = prev[c]
        if c < 0:
            return np.empty(0, np.int64)
        n += 1
    path = np.empty(n, np.int64)
    c = goal
    for i in range(n - 1, -1, -1):
        path[i] = c
        c = prev[c] if i else c
    return path


@njit(cache=True)
def _astar(indptr, indices, centres, source, goal, step):
    """A* with the straight-line distance between centres over the longest step as the
    heuristic (admissible: no step covers more): the predecessors of the cells settled."""
    n = indptr.size - 1
    g = np.full(n, np.inf)
    prev = np.full(n, -1, np.int64)
    done = np.zeros(n, np.bool_)
    room = indices.size + 1  # each relaxation pushes once at most
    heap_f = np.empty(room)
    heap_c = np.empty(room, np.int64)
    gx, gy = centres[goal, 0], centres[goal, 1]
    g[source] = 0.0
    heap_f[0] = np.hypot(centres[source, 0] - gx, centres[source, 1] - gy) / step
    heap_c[0] = source
    size = 1
    while size > 0:
        c = heap_c[0]  # pop the smallest
        size -= 1
        heap_f[0], heap_c[0] = heap_f[size], heap_c[size]
        i = 0
        while True:
            a, b, m = 2 * i + 1, 2 * i + 2, i
            if a < size and heap_f[a] < heap_f[m]:
                m = a
            if b < size and heap_f[b] < heap_f[m]:
                m = b
            if m == i:
                break
            heap_f[i], heap_f[m] = heap_f[m], heap_f[i]
            heap_c[i], heap_c[m] = heap_c[m], heap_c[i]
            i = m
        if done[c]:
            continue
        done[c] = True
        if c == goal:
            break
        for k in range(indptr[c], indptr[c + 1]):
            nb = indices[k]
            cost = g[c] + 1.0
            if cost < g[nb]:
                g[nb] = cost
                prev[nb] = c
                f = cost + np.hypot(centres[nb, 0] - gx, centres[nb, 1] - gy) / step
                j = size  # push
                size += 1
                heap_f[j], heap_c[j] = f, nb
                while j > 0:
                    p = (j - 1) // 2
                    if heap_f[p] <= heap_f[j]:
                        break
                    heap_f[p], heap_f[j] = heap_f[j], heap_f[p]
                    heap_c[p], heap_c[j] = heap_c[j], heap_c[p]
                    j = p
    return prev


def _cell(maze: GridMaze, cell: int | None, what: str) -> int:
    if cell is None:
        raise MazeartError("the maze has no entrance or exit to solve between")
    if not maze.is_cell(cell):
        raise MazeartError(f"{what} {cell} is not a maze cell")
    return int(cell)


def distances(maze: GridMaze, source: int) -> NDArray[np.int32]:
    """Passage steps from ``source`` to every cell.

    Parameters
    ----------
    maze : GridMaze
    source : int
        A maze cell.

    Returns
    -------
    (n,) ndarray of int32
        ``-1`` where unreachable or not maze.
    """
    indptr, indices = maze.open_table
    return _bfs(indptr, indices, _cell(maze, source, "source"))[0]


def _walk_back(prev: NDArray[np.int64], start: int, goal: int) -> NDArray[np.intp]:
    path = _prev_path(prev, start, goal)
    if path.size == 0:
        raise NoPathError(f"no path from cell {start} to cell {goal}")
    return path.astype(np.intp)


def _longest_step(maze: GridMaze) -> float:
    g = maze.grid
    src = np.repeat(np.arange(g.n_cells), np.diff(g.indptr))
    d = np.hypot(*(g.centres[src] - g.centres[g.indices]).T)
    return float(d.max()) if d.size else 1.0


def solve(
    maze: GridMaze,
    *,
    method: str = "bfs",
    start: int | None = None,
    goal: int | None = None,
) -> NDArray[np.intp]:
    """A shortest path through the passages, as cell ids from ``start`` to ``goal``.

    Parameters
    ----------
    maze : GridMaze
    method : {'bfs', 'astar', 'dead-end-filling'}, default 'bfs'
        Breadth-first search; A* guided by the straight-line distance between
        cell centres (the grid's metric); or filling dead ends until the path
        is left.
    start, goal : int, optional
        Default: the entrance and the exit.

    Returns
    -------
    (L,) ndarray of intp

    Raises
    ------
    NoPathError
        If the two cells are not joined.
    """
    check_choice(method, "method", ("bfs", "astar", "dead-end-filling"))
    s = _cell(maze, maze.entrance if start is None else start, "start")
    t = _cell(maze, maze.exit if goal is None else goal, "goal")
    indptr, indices = maze.open_table
    if method == "astar":
        prev = _astar(indptr, indices, maze.grid.centres, s, t, _longest_step(maze))
        return _walk_back(prev, s, t)
    if method == "dead-end-filling":
        left = dead_end_filling(maze, start=s, goal=t)
        sub = maze.replace(
            mask=left, passages=maze.passages & _both(maze, left), entrance=s, exit=t, tags={}
        )
        indptr, indices = sub.open_table
    (dist,) = _bfs(indptr, indices, s)
    if dist[t] < 0:
        raise NoPathError(f"no path from cell {s} to cell {t}")
    return _path_back(indptr, indices, dist, t).astype(np.intp)


def _both(maze: GridMaze, keep: NDArray[np.bool_]) -> NDArray[np.bool_]:
    a, b = maze.grid.wall_cells[:, 0], maze.grid.wall_cells[:, 1]
    return keep[a] & (b >= 0) & keep[np.maximum(b, 0)]


@njit(cache=True)
def _fill(indptr, indices, alive, keep_a, keep_b):
    """Repeatedly remove cells with one living neighbour (but the two ends)."""
    n = alive.size
    deg = np.zeros(n, np.int64)
    stack = np.empty(n, np.int64)
    top = 0
    for c in range(n):
        if alive[c]:
            for k in range(indptr[c], indptr[c + 1]):
                if alive[indices[k]]:
                    deg[c] += 1
            if deg[c] <= 1 and c != keep_a and c != keep_b:
                stack[top] = c
                top += 1
    while top > 0:
        top -= 1
        c = stack[top]
        if not alive[c]:
            continue
        alive[c] = False
        for k in range(indptr[c], indptr[c + 1]):
            nb = indices[k]
            if alive[nb]:
                deg[nb] -= 1
                if deg[nb] <= 1 and nb != keep_a and nb != keep_b:
                    stack[top] = nb
                    top += 1
    return alive


def dead_end_filling(
    maze: GridMaze, *, start: int | None = None, goal: int | None = None
) -> NDArray[np.bool_]:
    """The cells left when every dead end is filled in: the paths between the ends (and
    any loops).

    Returns
    -------
    (n,) ndarray of bool
    """
    s = _cell(maze, maze.entrance if start is None else start, "start")
    t = _cell(maze, maze.exit if goal is None else goal, "goal")
    indptr, indices = maze.open_table
    return _fill(indptr, indices, maze.mask.copy(), s, t)


@njit(cache=True)
def _random_dfs(indptr, indices, start, goal, state):
    """One random recursive backtracking search from ``start``: its stack when it reaches
    ``goal`` (a simple path), or an empty array when it cannot."""
    n = indptr.size - 1
    seen = np.zeros(n, np.bool_)
    stack = np.empty(n, np.int64)
    choice = np.empty(64, np.int64)
    top = 0
    stack[0] = start
    seen[start] = True
    while top >= 0:
        c = stack[top]
        if c == goal:
            return stack[: top + 1].copy()
        k = 0
        for e in range(indptr[c], indptr[c + 1]):
            if not seen[indices[e]] and k < 64:
                choice[k] = indices[e]
                k += 1
        if k == 0:
            top -= 1
            continue
        nb = choice[below(state, k)]
        seen[nb] = True
        top += 1
        stack[top] = nb
    return stack[:0].copy()


def random_paths(
    maze: GridMaze,
    count: int,
    rng: RngLike = None,
    *,
    start: int | None = None,
    goal: int | None = None,
    tries: int | None = None,
) -> list[NDArray[np.intp]]:
    """Up to ``count`` different simple paths of cell ids, by random recursive backtracking
    (as :func:`mazeart.solvers.random_paths` on squares).

    Parameters
    ----------
    maze : GridMaze
    count : int
        Paths wanted (at least 1).
    rng : int or numpy.random.Generator, optional
    start, goal : int, optional
        Default to the entrance and exit.
    tries : int, optional
        Searches to run before giving up on finding more (default ``20 * count``).

    Returns
    -------
    list of (L,) ndarray of intp
        Distinct paths in the order found; fewer than ``count`` when the maze has fewer.

    Examples
    --------
    >>> import numpy as np
    >>> from mazeart.grids import make_grid
    >>> from mazeart.grids.generate import generate_on_grid
    >>> g = make_grid("hex", rows=5, cols=6)
    >>> loops = generate_on_grid(np.zeros(g.n_cells, np.int32), g, rng=1, braid=1.0)
    >>> paths = random_paths(loops, 3, rng=2)
    >>> len(paths) > 1, all(int(p[-1]) == loops.exit for p in paths)
    (True, True)
    """
    from mazeart._rng import as_generator, kernel_state
    from mazeart.errors import check_int

    count = check_int(count, "the number of paths")
    runs = 20 * count if tries is None else check_int(tries, "tries")
    s = _cell(maze, maze.entrance if start is None else start, "start")
    t = _cell(maze, maze.exit if goal is None else goal, "goal")
    indptr, indices = maze.open_table
    state = kernel_state(as_generator(rng))
    found: list[NDArray[np.intp]] = []
    keys: set[bytes] = set()
    for _ in range(runs):
        stack = _random_dfs(indptr, indices, s, t, state)
        if stack.size == 0:
            raise NoPathError(f"no path from cell {s} to cell {t}")
        key = stack.tobytes()
        if key not in keys:
            keys.add(key)
            found.append(stack.astype(np.intp))
            if len(found) == count:
                break
    return found


def _rings(maze: GridMaze) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.bool_], int]:
    """Each cell's neighbours in counter-clockwise order around it (as seen on the page),
    padded to the largest degree with ``-1``; for each slot, the slot of the way back in the
    neighbour's ring; and whether a passage is open there."""
    g = maze.grid
    deg = np.diff(g.indptr)
    n = g.n_cells
    width = int(deg.max()) if deg.size else 1
    src = np.repeat(np.arange(n), deg)
    d = g.centres[g.indices] - g.centres[src]
    angle = np.arctan2(-d[:, 1], d[:, 0])  # y runs down the page: turn it up
    order = np.lexsort((angle, src))
    src, nb, wall = src[order], g.indices[order].astype(np.int64), g.wall_of[order]
    pos = np.arange(src.size) - np.repeat(g.indptr[:-1], deg)
    slot = src * width + pos
    ring = np.full(n * width, -1, np.int64)
    ring[slot] = nb
    opened = np.zeros(n * width, np.bool_)
    opened[slot] = maze.passages[wall]
    # the way back: the other entry of the same wall (every wall here parts two cells)
    pair = np.argsort(wall, kind="stable").reshape(-1, 2)
    back = np.full(n * width, -1, np.int64)
    back[slot[pair[:, 0]]] = pos[pair[:, 1]]
    back[slot[pair[:, 1]]] = pos[pair[:, 0]]
    return ring, back, opened, width


@njit(cache=True)
def _follow(ring, back, opened, width, source, came, target, clockwise):
    """Walk with a hand on the wall from ``source``, come in at slot ``came`` of its ring;
    at each cell try the slots from the way in, turning towards the hand (clockwise for
    the left hand), the way back last. Returns the walk and whether it reached ``target``;
    it stops when a (cell, way in) state repeats."""
    n = ring.size // width
    seen = np.zeros(n * width, np.bool_)
    walk = np.empty(n * width + 1, np.int64)
    cur = source
    walk[0] = cur
    length = 1
    while cur != target:
        state = cur * width + came
        if seen[state]:
            return walk[:length], False
        seen[state] = True
        k = 0
        while k < width and ring[cur * width + k] >= 0:
            k += 1  # the cell's degree
        moved = False
        for t in range(1, k + 1):
            j = (came - t) % k if clockwise else (came + t) % k
            e = cur * width + j
            if opened[e]:
                came = back[e]
                cur = ring[e]
                walk[length] = cur
                length += 1
                moved = True
                break
        if not moved:
            return walk[:length], False
    return walk[:length], True


def wall_follower(
    maze: GridMaze,
    *,
    hand: str = "left",
    start: int | None = None,
    goal: int | None = None,
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Follow one wall from ``start`` until ``goal`` (as :func:`mazeart.solvers.wall_follower`
    on squares), on any flat grid.

    The walker comes in through the start's door (or from the side farthest from the
    maze's middle) and at every cell takes the first open way turning towards its hand
    from the way it came in: around a cell, its neighbours are in their order on the page.

    Parameters
    ----------
    maze : GridMaze
    hand : {'left', 'right'}, default 'left'
    start, goal : int, optional
        Default to the entrance and exit.

    Returns
    -------
    path : (L,) ndarray of intp
        The simple path the walk traces (its back-and-forth erased).
    walk : (K,) ndarray of intp
        Every step taken, dead ends included.

    Raises
    ------
    NoPathError
        When the walker comes back to where it was without reaching the goal.
    """
    check_choice(hand, "hand", ("left", "right"))
    if maze.grid.kind == "weave":
        raise MazeartError("the wall follower walks a flat maze, not a weave's crossings")
    s = _cell(maze, maze.entrance if start is None else start, "start")
    t = _cell(maze, maze.exit if goal is None else goal, "goal")
    ring, back, opened, width = _rings(maze)
    g = maze.grid
    door = maze.door_wall(s)
    if door >= 0:
        lo, hi = g.wall_ptr[door], g.wall_ptr[door + 1]
        outside = g.wall_points[lo:hi].mean(axis=0)
    else:
        outside = 2 * g.centres[s] - g.centres[maze.mask].mean(axis=0)
    d = outside - g.centres[s]
    way_in = float(np.arctan2(-d[1], d[0]))
    # the way in sits among the start's slots by its angle: just after the last slot below it
    k = int(np.sum(ring[s * width : (s + 1) * width] >= 0))
    nbs = ring[s * width : s * width + k]
    rel = g.centres[nbs] - g.centres[s]
    angles = np.arctan2(-rel[:, 1], rel[:, 0])
    below = int(np.searchsorted(np.sort(angles), way_in))  # slots turned past coming in
    # as if come in from a slot: the left hand then tries slot below - 1 first, the right
    # hand slot below, and either tries every slot once
    came = 0 if k == 0 else below % k if hand == "left" else (below - 1) % k
    walk, reached = _follow(ring, back, opened, width, s, came, t, hand == "left")
    if not reached:
        raise NoPathError(
            f"the {hand}-hand wall follower went round without reaching cell {t}: the goal "
            "is not on the wall it follows (the maze has loops or the goal lies inside)"
        )
    return erase_loops(walk, g.n_cells).astype(np.intp), walk.astype(np.intp)
