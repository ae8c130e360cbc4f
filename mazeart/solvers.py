"""Solvers: shortest paths, dead-end filling, wall following and random backtracking.

Every solver reads a maze's passages as a graph and returns paths from the
entrance: ``(L, 2)`` arrays of ``(row, col)`` for a :class:`~mazeart.maze.Maze`,
``(L,)`` cell ids for a maze on another grid (maze on another grid).
One implementation serves both: :class:`_Reading` reads either maze as flat cells,
its passages and its topology, and the kernels (:mod:`mazeart._kernels.paths`)
are written once against the topology.

``"bfs"``
    Breadth-first search: a shortest path (the default). Walking back from the
    goal, each step goes to the first neighbour one step nearer, in the grid's
    order of neighbours (north, east, south, west on the square grid).
``"astar"``
    A* with a bound that never overestimates (the Manhattan distance on the
    square grid, the straight line between cell centres over the longest step
    on another), so the path is also a shortest one; it usually expands fewer cells.
``"dead-end-filling"``
    Fills every dead end (but the two ends) until none is left. On a perfect
    maze exactly the solution remains; with loops, the loops remain too and a
    shortest path is read off what is left.
``"wall-follower"``
    Keeps one hand (``hand="left"`` or ``"right"``) on the wall. It finds the
    exit only when the exit lies on the same connected wall as the entrance,
    which a maze with loops or an exit inside it does not promise; when the
    walker returns to a state it has been in, it has gone round for good and
    the solver says so (:class:`ValueError`) instead of answering wrongly.
:func:`random_paths`
    The hybrid's random recursive backtracker: depth-first search that tries the
    neighbours in random order; repeated runs draw different simple paths
    between entrance and exit when the maze has loops (a perfect maze has one).

The square grid keeps two tricks of its own for :func:`mazeart.default_endpoints`
(:func:`_farthest_pair` and :func:`_row_tree_pair`): they read passage bits a row
or four neighbours at a time, which a neighbour table has no counterpart of.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np
from numpy.typing import NDArray

from mazeart._graph import erase_loops
from mazeart._jit import njit
from mazeart._kernels import paths
from mazeart._kernels.paths import BLOCKED, OPEN_SIDES
from mazeart._kernels.topology import degree
from mazeart._rng import RngLike, as_generator, kernel_state
from mazeart.errors import MazeartError, NoPathError, check_int
from mazeart.maze import Maze, check_maze

__all__ = ["SOLVERS", "dead_end_filling", "distances", "random_paths", "solve", "wall_follower"]

SOLVERS = ("bfs", "astar", "dead-end-filling", "wall-follower")
"""Methods of :func:`solve`."""

_SQUARE_RING = {1: 2, 2: 1, 4: 0, 8: 3}
"""A square cell's door side (a passage bit) as a position of its ring (south, east,
north, west: :func:`mazeart._kernels.paths.turns`)."""


class _Reading:
    """A maze as the solvers read it, the same for every grid: flat cells, the topology
    (:mod:`mazeart._kernels.topology`, made when a solver asks: breadth-first search and
    dead-end filling need none), the passages in its form (``links``) and as the open
    ways out of each cell (``ways``: :attr:`mazeart.maze.Maze.ways`). And the few things
    the grids say differently: how a cell is given, checked and named, how a path is
    handed back, A*'s bound and the wall follower's way in. A square maze's flat arrays
    are not framed: the kernels step only through open passages, which never lead off
    the grid."""

    def __init__(self, maze: Maze) -> None:
        check_maze(maze)
        self.maze = maze
        self.square = maze.is_square
        self.width = maze.width
        self.links: NDArray[Any] = maze.passages.reshape(-1)
        self.ways: Any = maze.ways
        self.mask = maze.mask.reshape(-1)
        self.n = int(self.mask.size)

    @cached_property
    def topo(self) -> Any:
        return self.maze.topology

    def ends(self, start: Any, goal: Any) -> tuple[int, int]:
        """The two flat cells a solver joins: ``start`` and ``goal``, the entrance and the
        exit by default."""
        maze = self.maze
        if maze.is_square:
            first = maze.entrance if start is None else tuple(start)
            last = maze.exit if goal is None else tuple(goal)
            if first is None or last is None:
                raise NoPathError("the maze has no entrance or exit to solve between")
            for cell in (first, last):
                if not maze.is_cell(cell):
                    raise MazeartError(f"{cell} is not a maze cell")
            return self.flat(first), self.flat(last)
        return (
            self.cell(maze.entrance if start is None else start, "start"),
            self.cell(maze.exit if goal is None else goal, "goal"),
        )

    def cell(self, cell: Any, what: str) -> int:
        """One cell id of a maze on another grid, checked."""
        if cell is None:
            raise MazeartError("the maze has no entrance or exit to solve between")
        if not self.maze.is_cell(cell):
            raise MazeartError(f"{what} {cell} is not a maze cell")
        return int(cell)

    def flat(self, cell: Any) -> int:
        """A square maze's ``(row, col)`` as a flat cell."""
        return int(cell[0]) * self.width + int(cell[1])

    def name(self, cell: int) -> str:
        """A flat cell as a message names it."""
        return str(divmod(cell, self.width)) if self.square else f"cell {cell}"

    def no_path(self, a: int, b: int) -> NoPathError:
        if self.square:
            return NoPathError(f"no path joins {self.name(a)} and {self.name(b)}")
        return NoPathError(f"no path from {self.name(a)} to {self.name(b)}")

    def path(self, flat: NDArray[np.integer]) -> NDArray[np.intp]:
        """Flat cells as the maze's cells: ``(L, 2)`` rows and columns, or ``(L,)`` ids."""
        cells = np.asarray(flat, dtype=np.intp)
        return np.stack(np.divmod(cells, self.width), axis=-1) if self.square else cells

    def per_cell(self, values: NDArray[Any]) -> NDArray[Any]:
        """One value per flat cell in the maze's shape: ``(H, W)`` or ``(n,)``."""
        return values.reshape(self.maze.shape)

    def guide(self) -> Any:
        """What A*'s bound reads (:func:`mazeart._kernels.paths.estimate`): nothing more on
        the square grid; a graph's cell centres and its longest step."""
        if self.square:
            return 0
        g = self.maze.grid  # type: ignore[union-attr]
        longest = g._cache.get("longest step")
        if longest is None:
            src = np.repeat(np.arange(g.n_cells), np.diff(g.indptr))
            d = np.hypot(*(g.centres[src] - g.centres[g.indices]).T)
            longest = g._cache["longest step"] = float(d.max()) if d.size else 1.0
        return g.centres, longest

    def shortest(self, a: int, b: int, keep: NDArray[np.bool_] | None = None) -> NDArray[np.int64]:
        """A shortest path of flat cells from ``a`` to ``b`` through the cells ``keep``
        (all by default), by breadth-first search."""
        if keep is None:
            dist = np.full(self.n, -1, np.int32)
        else:
            dist = np.where(keep, np.int32(-1), BLOCKED).astype(np.int32)
        paths.bfs(self.ways, dist, np.full(1, a, np.int64))
        if dist[b] < 0 or dist[b] == BLOCKED:
            raise self.no_path(a, b)
        return paths.walk_back(self.ways, dist, b)

    def fill(self, a: int, b: int) -> NDArray[np.bool_]:
        """The flat cells left when the dead ends are filled, ``a`` and ``b`` kept."""
        return paths.fill_dead_ends(self.ways, self.mask.copy(), a, b)

    def rings(self) -> tuple[Any, NDArray[np.int64] | None]:
        """The wall follower's rings (:func:`mazeart._kernels.paths.turns`) and, on a graph,
        each ring position's neighbour; made once per grid."""
        if self.square:
            return np.zeros(1, np.int64), None
        g = self.maze.grid  # type: ignore[union-attr]
        made = g._cache.get("rings")
        if made is None:
            made = g._cache["rings"] = paths.graph_rings(g.indptr, g.indices, g.wall_of, g.centres)
        return made[:3], made[3]

    def way_in(self, a: int, hand: str, ring_cells: NDArray[np.int64] | None) -> int:
        """The ring position the wall follower enters ``a`` from: the side of its door.

        On the square grid, the door's side (the north when there is none: the walker
        heads south). On another grid, the way in sits among the cell's ring by
        its angle, toward the door (or from the side farthest from the maze's middle),
        just after the last neighbour below it: the left hand then tries the one
        below it first, the right hand the one above, and either tries every one once.
        """
        maze = self.maze
        if maze.is_square:
            return _SQUARE_RING.get(maze.door_side(divmod(a, maze.width)), 2)
        assert ring_cells is not None
        g = maze.grid
        door = maze.door_wall(a)
        if door >= 0:
            lo, hi = g.wall_ptr[door], g.wall_ptr[door + 1]
            outside = g.wall_points[lo:hi].mean(axis=0)
        else:
            outside = 2 * g.centres[a] - g.centres[maze.mask].mean(axis=0)
        d = outside - g.centres[a]
        angle = float(np.arctan2(-d[1], d[0]))
        width = int(degree(self.topo))
        nbs = ring_cells[a * width : (a + 1) * width]
        nbs = nbs[nbs >= 0]
        k = nbs.size
        rel = g.centres[nbs] - g.centres[a]
        turned = int(np.searchsorted(np.sort(np.arctan2(-rel[:, 1], rel[:, 0])), angle))
        return 0 if k == 0 else turned % k if hand == "left" else (turned - 1) % k


def distances(maze: Maze, source: tuple[int, int] | int) -> NDArray[np.int32]:
    """Passage distance from ``source`` to every cell.

    Parameters
    ----------
    maze : Maze
    source : (int, int) or int
        A maze cell: ``(row, col)`` on the square grid, a cell id on another.

    Returns
    -------
    (H, W) or (n,) ndarray of int32
        Steps along passages; ``-1`` where unreachable or not maze.

    Examples
    --------
    >>> from mazeart import Maze
    >>> maze = Maze.from_text("#####\\n#S E#\\n#####")
    >>> distances(maze, (0, 0)).tolist()
    [[0, 1]]
    """
    reading = _Reading(maze)
    if maze.is_square:
        if not isinstance(source, tuple | list) or len(source) != 2:
            raise TypeError(f"source must be a (row, col) cell, got {source!r}")
        if not maze.is_cell((source[0], source[1])):
            raise MazeartError(f"{tuple(source)} is not a maze cell")
        flat = reading.flat(source)
    else:
        flat = reading.cell(source, "source")
    dist = np.full(reading.n, -1, np.int32)
    paths.bfs(reading.ways, dist, np.full(1, flat, np.int64))
    return reading.per_cell(dist)


def distances_from(maze: Maze, sources: list[Any]) -> NDArray[np.int32]:
    """Passage distance from the nearest of ``sources`` (maze cells: ``(row, col)`` on the
    square grid, ids on another) to every cell, in one pass; ``-1`` where unreachable.

    Returns
    -------
    (H, W) or (n,) ndarray of int32
    """
    reading = _Reading(maze)
    flat = [reading.flat(c) if reading.square else reading.cell(c, "source") for c in sources]
    dist = np.full(reading.n, -1, np.int32)
    if flat:
        paths.bfs(reading.ways, dist, np.asarray(flat, np.int64))
    return reading.per_cell(dist)


def dead_end_filling(
    maze: Maze,
    *,
    start: tuple[int, int] | int | None = None,
    goal: tuple[int, int] | int | None = None,
) -> NDArray[np.bool_]:
    """Fill dead ends until none is left; return the cells that stay open.

    Parameters
    ----------
    maze : Maze
    start, goal : (int, int) or int, optional
        The two cells never filled; default to the entrance and exit (cell ids on a grid
        other than the square one).

    Returns
    -------
    (H, W) or (n,) ndarray of bool
        On a perfect maze: exactly the cells of the solution (and on any maze, the
        paths between the ends and the loops).
    """
    reading = _Reading(maze)
    a, b = reading.ends(start, goal)
    return reading.per_cell(reading.fill(a, b))


def wall_follower(
    maze: Maze,
    *,
    hand: str = "left",
    start: tuple[int, int] | int | None = None,
    goal: tuple[int, int] | int | None = None,
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Follow one wall from ``start`` until ``goal``.

    The walker enters through the start's outer door (facing into the maze; on
    a grid other than the square one, from the side farthest from the maze's
    middle when the start has no door) and at every cell takes the first open
    way turning towards its hand from the way it came in: on the square grid,
    towards its hand, then straight on, then away, then back; around a cell of
    another grid, its neighbours in their order on the page.

    Parameters
    ----------
    maze : Maze
        Not a weave: its crossings have no wall to follow.
    hand : {'left', 'right'}, default 'left'
    start, goal : (int, int) or int, optional
        Default to the entrance and exit.

    Returns
    -------
    path : (L, 2) or (L,) ndarray of intp
        The simple path the walk traces (its back-and-forth erased).
    walk : (K, 2) or (K,) ndarray of intp
        Every step taken, dead ends included.

    Raises
    ------
    ValueError
        When the walker comes back to a cell it stood on facing the same way
        without having reached the goal: the goal is not on its wall.
    """
    reading = _Reading(maze)
    if hand not in ("left", "right"):
        raise MazeartError(f"hand must be 'left' or 'right', got {hand!r}")
    if not reading.square:
        if maze.grid.kind == "weave":  # type: ignore[union-attr]
            raise MazeartError("the wall follower walks a flat maze, not a weave's crossings")
    a, b = reading.ends(start, goal)
    rings, ring_cells = reading.rings()
    came = reading.way_in(a, hand, ring_cells)
    walk, reached = paths.follow_wall(
        reading.topo, reading.links, rings, reading.n, a, came, b, hand == "left"
    )
    if not reached:
        raise NoPathError(
            f"the {hand}-hand wall follower went round without reaching "
            f"{reading.name(b)}: the goal is not on the wall it follows "
            f"(the maze has loops or the goal lies inside)"
        )
    return reading.path(erase_loops(walk, reading.n)), reading.path(walk)


def solve(
    maze: Maze,
    *,
    method: str = "bfs",
    start: tuple[int, int] | int | None = None,
    goal: tuple[int, int] | int | None = None,
    hand: str = "left",
) -> NDArray[np.intp]:
    """A path between two cells, found by ``method``.

    Parameters
    ----------
    maze : Maze
        A maze on any grid.
    method : {'bfs', 'astar', 'dead-end-filling', 'wall-follower'}, default 'bfs'
        See the module docstring. The first three return a shortest path.
    start, goal : (int, int) or int, optional
        Default to the maze's entrance and exit (cell ids on a grid other than the
        square one).
    hand : {'left', 'right'}, default 'left'
        The wall follower's hand.

    Returns
    -------
    (L, 2) ndarray of intp
        ``(row, col)`` of every cell on the path, ``start`` first; for a maze
        on another grid (maze on another grid), ``(L,)`` cell
        ids.

    Raises
    ------
    ValueError
        If an end is missing or not a maze cell, the goal cannot be reached,
        the method is unknown, or the wall follower fails.

    Examples
    --------
    >>> from mazeart import Maze
    >>> maze = Maze.from_text('''
    ... #######
    ... #S    #
    ... ##### #
    ... #E    #
    ... #######
    ... ''')
    >>> solve(maze).tolist()
    [[0, 0], [0, 1], [0, 2], [1, 2], [1, 1], [1, 0]]
    >>> len(solve(maze, method="astar")) == len(solve(maze))
    True
    """
    if method not in SOLVERS:
        raise MazeartError(f"unknown solver {method!r} (choose from {', '.join(SOLVERS)})")
    reading = _Reading(maze)
    if method == "wall-follower":
        if reading.square:  # (the square grid checks the ends before the hand)
            reading.ends(start, goal)
        return wall_follower(maze, hand=hand, start=start, goal=goal)[0]
    a, b = reading.ends(start, goal)
    if method == "astar":
        prev = paths.astar(reading.topo, reading.ways, reading.guide(), reading.n, a, b)
        found = paths.path_by(prev, a, b)
        if found.size == 0:
            raise reading.no_path(a, b)
        return reading.path(found)
    keep = reading.fill(a, b) if method == "dead-end-filling" else None
    return reading.path(reading.shortest(a, b, keep))


def random_paths(
    maze: Maze,
    count: int,
    rng: RngLike = None,
    *,
    start: tuple[int, int] | int | None = None,
    goal: tuple[int, int] | int | None = None,
    tries: int | None = None,
) -> list[NDArray[np.intp]]:
    """Up to ``count`` different simple paths drawn by random recursive backtracking.

    Each try is a depth-first search from ``start`` that picks among the
    unvisited open neighbours at random and stops at ``goal``; its stack is
    a simple path. Paths already drawn are skipped.

    Parameters
    ----------
    maze : Maze
    count : int
        Paths wanted (at least 1).
    rng : int or numpy.random.Generator, optional
        Seed or Generator (fresh entropy when omitted).
    start, goal : (int, int) or int, optional
        Default to the entrance and exit (cell ids on another grid).
    tries : int, optional
        Searches to run before giving up on finding more (default ``20 * count``).

    Returns
    -------
    list of (L, 2) ndarray of intp
        Distinct paths, in the order found; fewer than ``count`` when the maze
        has fewer (a perfect maze has exactly one).

    Examples
    --------
    >>> import numpy as np
    >>> from mazeart import braid, generate
    >>> loops = braid(generate(np.zeros((6, 6), np.int32), rng=2), 1.0, rng=2)
    >>> paths = random_paths(loops, 3, rng=2)
    >>> len(paths) > 1, all(tuple(p[-1]) == loops.exit for p in paths)
    (True, True)
    """
    reading = _Reading(maze)
    count = check_int(count, "the number of paths")
    runs = 20 * count if tries is None else check_int(tries, "tries")
    a, b = reading.ends(start, goal)
    state = kernel_state(as_generator(rng))
    found: list[NDArray[np.intp]] = []
    keys: set[bytes] = set()
    for _ in range(runs):
        stack = paths.random_dfs(reading.topo, reading.ways, reading.n, a, b, state)
        if stack.size == 0:
            raise reading.no_path(a, b)
        key = stack.tobytes()
        if key in keys:
            continue
        keys.add(key)
        found.append(reading.path(stack))
        if len(found) == count:
            break
    return found


# ----------------------------------------------------------------------------- the square grid's
# ends (mazeart.generators.default_endpoints): a tree's farthest pair in one walk


@njit(cache=True)
def _farther(found, found_a, found_b, a, b, twice):
    """The pair found so far, or the packed first ``a`` and second ``b`` (see
    :func:`_farthest_pair`) meeting at depth ``twice / 2`` if they are farther apart,
    or as far and lower (first, then second)."""
    low = np.int64(0xFFFFFFFF)
    length = (a >> 32) + (b >> 32) - twice
    x, y = low - (a & low), low - (b & low)
    if length > found or (length == found and (x < found_a or (x == found_a and y < found_b))):
        return length, x, y
    return found, found_a, found_b


@njit(cache=True)
def _farthest_pair(passages, width, source, firsts, seconds):
    """The two cells, one of ``firsts`` and another of ``seconds``, farthest apart,
    when the cells with passages form one tree (a single depth-first walk).

    Returns ``(first, second, reached, tree)``: the pair (``-1, -1`` when there is
    none), how many cells the walk reached, and whether the cells with passages
    form a tree (one passage fewer than cells, all reached). The walk keeps only
    the path it is on, and of that only the cells where two branches meet or a
    first or a second stands: each carries the deepest first and second found
    below it so far, and when it is done it hands them to the one above, where
    every pair meeting there is weighed, so the answer is exact on a tree.
    Nothing is kept per cell of the grid but a copy of the passages with the
    firsts and seconds marked in them.

    When dead ends are common (a fifth of the cells or more: most generators, but
    not the long-corridor ones such as the weighted DFS), the copy gets a closed
    frame and every step looks at all four neighbours at once: a dead end hanging
    off the cell (neither a first nor a second) is counted and never entered, so
    a cell that had only such branches besides the way on is walked through like
    a corridor. The four reads do not depend on each other or on the cell's own
    passages, so they cost little; entering a dead end and coming back costs a
    mispredicted branch each way.

    Of several pairs equally far apart the one with the lowest first (then the
    lowest second) is chosen, so the answer depends on the tree alone, not on
    where the walk starts (:func:`_row_tree_pair` gives the same one).
    """
    n = passages.size
    count = OPEN_SIDES  # open sides of each passage set
    cells = 0
    ends = 0
    dead = 0
    for i in range(n):  # (the sides counted by bits, not read from count: no load a cell,
        b = np.int64(passages[i])  # and the loop runs on vectors)
        sides = (b & 1) + ((b >> 1) & 1) + ((b >> 2) & 1) + ((b >> 3) & 1)
        cells += b != 0
        ends += sides
        dead += sides == 1
    cells = max(cells, 1)
    if ends != 2 * (cells - 1):
        return -1, -1, 0, False
    skip = dead * 5 >= cells  # look past dead ends
    pad = 1 if skip else 0
    stride = width + 2 * pad
    if skip:  # a closed frame: every cell has four neighbours to read
        work = np.zeros((n // width + 2) * stride, np.uint8)
        for r in range(n // width):
            at = (r + 1) * stride + 1
            work[at : at + width] = passages[r * width : (r + 1) * width]
    else:
        work = passages.copy()
    for v in firsts:  # bit 4: a first, bit 5: a second
        work[_in_copy(v, width, pad)] |= 16
    for v in seconds:
        work[_in_copy(v, width, pad)] |= 32
    toward = np.zeros(9, np.int64)  # offset in the copy of each side bit
    toward[1], toward[2], toward[4], toward[8] = -stride, 1, stride, -1
    opposite = np.zeros(9, np.int64)
    opposite[1], opposite[2], opposite[4], opposite[8] = 4, 8, 1, 2
    # The path as a stack of the cells where something happens (a branch, a first
    # or a second): cell, depth, sides still to walk, and the deepest first and
    # second below it packed as depth << 32 | (low - cell) (-1: none), so the deeper
    # of two, then the lower cell, is the larger number. The corridor cells between
    # them, which no pair can meet at, are walked through without a stack entry.
    # Cells are numbered in the copy, in the grid's order, so ties break the same.
    cell = np.empty(cells, np.int32)
    depth = np.empty(cells, np.int32)
    left = np.empty(cells, np.uint8)
    first = np.empty(cells, np.int64)
    second = np.empty(cells, np.int64)
    low = np.int64(0xFFFFFFFF)
    top = 0
    start = _in_copy(source, width, pad)
    cell[0] = start
    depth[0] = 0
    left[0] = work[start] & 15
    first[0] = low - start if work[start] & 16 else -1
    second[0] = low - start if work[start] & 32 else -1
    reached = 1
    found_a, found_b, found = -1, -1, -1
    while True:
        bits = left[top]
        if bits:
            side = np.int64(bits & (~bits + 1))  # the lowest open side not yet walked
            left[top] = bits ^ side
            nb = np.int64(cell[top]) + toward[side]
            d = np.int64(depth[top]) + 1
            while True:  # down the corridor to the next cell that matters
                here = np.int64(work[nb])
                out = here & 15 & ~opposite[side]
                reached += 1
                if skip:  # neighbours whose one passage leads here, unmarked
                    stub = out & (
                        np.int64(work[nb - stride] == 4)
                        | (np.int64(work[nb + 1] == 8) << 1)
                        | (np.int64(work[nb + stride] == 1) << 2)
                        | (np.int64(work[nb - 1] == 2) << 3)
                    )
                    reached += count[stub]
                    out ^= stub
                if reached > cells:  # more cells than there are: a loop
                    return -1, -1, reached, False
                k = here >> 4
                if k == 0 and out != 0 and out & (out - 1) == 0:  # one way on
                    side = out
                    nb += toward[side]
                    d += 1
                    continue
                if k != 0 or out != 0:  # a branch, a first or a second
                    top += 1
                    cell[top] = nb
                    depth[top] = d
                    left[top] = out
                    packed = (np.int64(d) << 32) | (low - nb)
                    first[top] = packed if k & 1 else -1
                    second[top] = packed if k & 2 else -1
                break  # (a dead end that is neither adds nothing)
            continue
        if top == 0:
            break
        p = top - 1  # the cell above: weigh the pairs meeting there
        a, b = first[top], second[top]
        if a >= 0 or b >= 0:
            ap, bp = first[p], second[p]
            twice = 2 * np.int64(depth[p])
            if ap >= 0 and b >= 0:
                found, found_a, found_b = _farther(found, found_a, found_b, ap, b, twice)
            if bp >= 0 and a >= 0:
                found, found_a, found_b = _farther(found, found_a, found_b, a, bp, twice)
            if a > ap:
                first[p] = a
            if b > bp:
                second[p] = b
        top = p
    if found_a >= 0:  # back to the grid's numbering
        found_a = _in_grid(found_a, width, pad)
        found_b = _in_grid(found_b, width, pad)
    return found_a, found_b, reached, reached == cells


@njit(cache=True)
def _in_copy(cell, width, pad):
    """Grid cell ``cell`` numbered in a copy of the grid with a frame ``pad`` cells wide
    (0 or 1); the numbering keeps the grid's order."""
    return (cell // width + pad) * (width + 2 * pad) + cell % width + pad


@njit(cache=True)
def _in_grid(cell, width, pad):
    """:func:`_in_copy` undone."""
    stride = width + 2 * pad
    return (cell // stride - pad) * width + cell % stride - pad


@njit(cache=True)
def _row_tree_pair(passages, height, width):
    """:func:`_farthest_pair` of a full rectangle's top and bottom rows, in one sweep down
    the rows, when the maze is a *row tree*; ``(-1, -1)`` when it is not.

    A row tree (what binary tree and sidewinder carve) has its top row as one
    corridor and, in every row below, each run of cells joined east-west opens
    north exactly once. Such a maze is a tree (each run adds as many passages as
    cells), and every path from a cell up to the top row leaves its run by that
    one opening; so a cell's distance to the top row and the column it arrives
    at follow from the row above alone. The farthest top cell from a cell is a
    corner of the top row, and the answer (with the same tie-break: lowest first,
    then lowest second) needs a few numbers per column and nothing per cell.

    A row whose runs all open north at their west end (every row of a binary
    tree) takes one pass; any other row two. The passes carry a value from cell
    to cell; they select it with masks read from tables, which the compiler
    cannot turn into branches (a maze's runs are random, so a branch there is
    mispredicted half the time).
    """
    if height < 2:
        return -1, -1
    for c in range(width - 1):  # the top row: one corridor
        if not passages[c] & 2:
            return -1, -1
    north = np.zeros(16, np.int64)  # all ones where a cell opens north
    west = np.zeros(16, np.int64)  # ... where it is joined west (its run goes on)
    east = np.zeros(16, np.int64)  # ... where it is joined east (its run is not over)
    for bits in range(16):
        north[bits] = -(bits & 1)
        east[bits] = -((bits >> 1) & 1)
        west[bits] = -((bits >> 3) & 1)
    # Per column of the row: the steps from its cell up to the top row, and the column
    # it arrives at there, packed as steps << 32 | column.
    way = np.arange(width)
    new_way = np.empty(width, np.int64)
    opening = np.empty(width, np.int64)
    bad = np.int64(0)
    step = np.int64(1) << 32
    for r in range(1, height):
        row = passages[r * width : (r + 1) * width]
        # First the common case of a binary tree: every run opens north at its west end.
        # Then a cell's way is its west neighbour's, one step longer, or (at a run's
        # start) the way of the cell above: one pass, and a check that the row is so.
        odd = np.int64(0)  # a cell that opens north and is joined west, or neither
        carry = np.int64(0)
        for x in range(width):
            bits = row[x]
            joined = west[bits]
            odd = ~(north[bits] ^ joined)
            if odd:  # (not so: the general way below)
                break
            carry = ((carry & joined) | (way[x] & ~joined)) + step
            new_way[x] = carry
        if not odd:
            way, new_way = new_way, way
            continue
        k = np.int64(-1)  # the opening of the run so far (-1: none yet)
        seen = np.int64(0)  # how many openings the run has so far
        for x in range(width):  # west to east: each run's opening, known at its last cell
            bits = row[x]
            n, joined = north[bits], west[bits]
            k = (x & n) | ((k | ~joined) & ~n)
            seen = (seen & joined) + (n & 1)
            bad |= (seen != 1) & ~east[bits]
            opening[x] = k
        k = np.int64(0)
        for i in range(width):  # east to west: every cell of a run learns its opening
            x = width - 1 - i
            keep = east[row[x]]
            k = (k & keep) | (opening[x] & ~keep)
            d = x - k
            new_way[x] = way[k] + (1 + max(d, -d)) * step
        way, new_way = new_way, way
    if bad:
        return -1, -1
    far = np.int64(-1)
    best_left, best_right = -1, -1  # lowest bottom cell at the greatest length, per corner
    for x in range(width):
        left = way[x] & 0xFFFFFFFF  # to the top row's west corner (cell 0)
        right = width - 1 - left  # to its east corner (cell width - 1)
        length = (way[x] >> 32) + max(left, right)
        if length > far:
            far, best_left, best_right = length, -1, -1
        if length == far:
            if left >= right and best_left < 0:
                best_left = x
            if right >= left and best_right < 0:
                best_right = x
    base = (height - 1) * width
    if best_left >= 0:
        return 0, base + best_left
    return width - 1, base + best_right
