"""Solvers: shortest paths, dead-end filling, wall following and random backtracking.

Every solver reads a maze's passages as a graph and returns paths from the
entrance: ``(L, 2)`` arrays of ``(row, col)`` for a :class:`~mazeart.maze.Maze`,
``(L,)`` cell ids for a maze on another grid (:mod:`mazeart.grids.solve`).

``"bfs"``
    Breadth-first search: a shortest path (the default).
``"astar"``
    A* with the Manhattan distance, which never overestimates on a grid, so
    the path is also a shortest one; it usually expands fewer cells.
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
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from mazeart._anygrid import any_grid, check_maze
from mazeart._graph import erase_loops
from mazeart._jit import njit
from mazeart._rng import RngLike, as_generator, below, kernel_state
from mazeart.errors import MazeartError, NoPathError, check_int
from mazeart.maze import DIRECTIONS, Maze

if TYPE_CHECKING:
    from mazeart.grids.maze import GridMaze

__all__ = ["SOLVERS", "dead_end_filling", "distances", "random_paths", "solve", "wall_follower"]

SOLVERS = ("bfs", "astar", "dead-end-filling", "wall-follower")
"""Methods of :func:`solve`."""


@njit(cache=True)
def _bfs(passages, width, source):
    """Breadth-first distances over flat passage bits; -1 where unreachable."""
    return _bfs_from(passages, width, np.full(1, source, np.int64))


@njit(cache=True)
def _side_table(width):
    """For each 4-bit passage set: how many sides are open, their flat offsets, and
    the bit a neighbour reached through each side uses to point back."""
    offsets = (-width, 1, width, -1)
    count = np.zeros(16, np.int64)
    step = np.zeros((16, 4), np.int64)
    back = np.zeros((16, 4), np.uint8)
    for bits in range(16):
        for k in range(4):
            if bits & (1 << k):
                step[bits, count[bits]] = offsets[k]
                back[bits, count[bits]] = 1 << ((k + 2) % 4)
                count[bits] += 1
    return count, step, back


@njit(cache=True)
def _bfs_from(passages, width, sources):
    """Breadth-first distances from the nearest of ``sources`` (one pass however many).

    A cell's open sides come from a table, and the side it was entered by is
    skipped, so on a tree no neighbour is tested twice (few mispredicted branches).
    """
    n = passages.size
    dist = np.full(n, -1, np.int32)
    queue = np.empty(n, np.int64)
    came = np.empty(n, np.uint8)  # per queue slot, the side back to where it came from
    count, step, back = _side_table(width)
    tail = 0
    for source in sources:
        if dist[source] < 0:
            dist[source] = 0
            queue[tail] = source
            came[tail] = 0
            tail += 1
    head = 0
    while head < tail:
        cur = queue[head]
        bits = passages[cur] & ~came[head]
        head += 1
        nd = dist[cur] + 1
        for j in range(count[bits]):
            nb = cur + step[bits, j]
            if dist[nb] < 0:
                dist[nb] = nd
                queue[tail] = nb
                came[tail] = back[bits, j]
                tail += 1
    return dist


@njit(inline="always", cache=True)
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
    count = _side_table(width)[0]  # open sides of each passage set
    cells = 0
    ends = 0
    dead = 0
    for i in range(n):
        bits = passages[i]
        if bits:
            sides = count[bits & 15]
            cells += 1
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


@njit(inline="always", cache=True)
def _in_copy(cell, width, pad):
    """Grid cell ``cell`` numbered in a copy of the grid with a frame ``pad`` cells wide
    (0 or 1); the numbering keeps the grid's order."""
    return (cell // width + pad) * (width + 2 * pad) + cell % width + pad


@njit(inline="always", cache=True)
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


@njit(cache=True)
def _walk_back(passages, width, dist, target):
    """Cells from the BFS source to ``target``, following distances downhill."""
    length = dist[target]
    out = np.empty(length + 1, np.int64)
    cur = target
    for i in range(length, -1, -1):
        out[i] = cur
        if i == 0:
            break
        bits = passages[cur]
        want = dist[cur] - 1
        if bits & 1 and dist[cur - width] == want:
            cur = cur - width
        elif bits & 2 and dist[cur + 1] == want:
            cur = cur + 1
        elif bits & 4 and dist[cur + width] == want:
            cur = cur + width
        else:
            cur = cur - 1
    return out


@njit(cache=True)
def _astar(passages, width, source, target):
    """A* over flat passage bits with the Manhattan heuristic; returns predecessors (-1 unset)."""
    n = passages.size
    g = np.full(n, -1, np.int32)
    pred = np.full(n, -1, np.int64)
    closed = np.zeros(n, np.bool_)
    heap_f = np.empty(4 * n + 4, np.int64)
    heap_c = np.empty(4 * n + 4, np.int64)
    size = 0
    tr, tc = target // width, target % width
    g[source] = 0
    pred[source] = source
    heap_f[0] = abs(source // width - tr) + abs(source % width - tc)
    heap_c[0] = source
    size = 1
    steps = (-width, 1, width, -1)
    while size > 0:
        cur = heap_c[0]
        # pop: move the last item to the root and sift down
        size -= 1
        lf, lc = heap_f[size], heap_c[size]
        i = 0
        while True:
            child = 2 * i + 1
            if child >= size:
                break
            if child + 1 < size and heap_f[child + 1] < heap_f[child]:
                child += 1
            if heap_f[child] >= lf:
                break
            heap_f[i] = heap_f[child]
            heap_c[i] = heap_c[child]
            i = child
        if size > 0:
            heap_f[i] = lf
            heap_c[i] = lc
        if closed[cur]:
            continue
        closed[cur] = True
        if cur == target:
            break
        bits = passages[cur]
        for k in range(4):
            if not bits & (1 << k):
                continue
            nb = cur + steps[k]
            ng = g[cur] + 1
            if closed[nb] or (g[nb] >= 0 and g[nb] <= ng):
                continue
            g[nb] = ng
            pred[nb] = cur
            f = ng + abs(nb // width - tr) + abs(nb % width - tc)
            j = size
            size += 1
            while j > 0:
                parent = (j - 1) // 2
                if heap_f[parent] <= f:
                    break
                heap_f[j] = heap_f[parent]
                heap_c[j] = heap_c[parent]
                j = parent
            heap_f[j] = f
            heap_c[j] = nb
    return pred


@njit(cache=True)
def _fill_dead_ends(passages, width, keep_a, keep_b):
    """Cells left after filling dead ends (degree-1 cells other than the two ends) repeatedly."""
    n = passages.size
    deg = np.zeros(n, np.int8)
    alive = np.zeros(n, np.bool_)
    stack = np.empty(n, np.int64)
    top = 0
    for i in range(n):
        b = passages[i]
        deg[i] = (b & 1) + ((b >> 1) & 1) + ((b >> 2) & 1) + ((b >> 3) & 1)
    steps = (-width, 1, width, -1)
    for i in range(n):
        alive[i] = deg[i] > 0 or i == keep_a or i == keep_b
        if deg[i] == 1 and i != keep_a and i != keep_b:
            stack[top] = i
            top += 1
    while top > 0:
        top -= 1
        cur = stack[top]
        if not alive[cur]:
            continue
        alive[cur] = False
        bits = passages[cur]
        for k in range(4):
            if bits & (1 << k):
                nb = cur + steps[k]
                if alive[nb]:
                    deg[nb] -= 1
                    if deg[nb] == 1 and nb != keep_a and nb != keep_b:
                        stack[top] = nb
                        top += 1
    return alive


@njit(cache=True)
def _follow_wall(passages, width, source, target, heading, turns):
    """Walk keeping a hand on the wall; ``turns`` is the order of relative turns to try.

    Headings are 0 N, 1 E, 2 S, 3 W. Returns the walk (flat cells, source first)
    and whether it reached the target; it stops when a (cell, heading) state repeats.
    """
    n = passages.size
    seen = np.zeros(4 * n, np.bool_)
    walk = np.empty(4 * n + 1, np.int64)
    steps = (-width, 1, width, -1)
    cur = source
    walk[0] = cur
    length = 1
    while cur != target:
        state = 4 * cur + heading
        if seen[state]:
            return walk[:length], False
        seen[state] = True
        bits = passages[cur]
        moved = False
        for t in turns:
            d = (heading + t) % 4
            if bits & (1 << d):
                heading = d
                cur = cur + steps[d]
                walk[length] = cur
                length += 1
                moved = True
                break
        if not moved:  # a closed cell: nowhere to go
            return walk[:length], False
    return walk[:length], True


@njit(cache=True)
def _random_dfs(passages, width, source, target, state):
    """One randomised depth-first search; returns the stack when it reaches ``target``."""
    n = passages.size
    visited = np.zeros(n, np.bool_)
    stack = np.empty(n, np.int64)
    tried = np.empty(n, np.int8)  # directions still untried at each stack cell, as bits
    steps = (-width, 1, width, -1)
    stack[0] = source
    tried[0] = passages[source]
    visited[source] = True
    top = 1
    options = np.empty(4, np.int64)
    while top > 0:
        cur = stack[top - 1]
        if cur == target:
            return stack[:top]
        left = tried[top - 1]
        k = 0
        for d in range(4):
            if left & (1 << d) and not visited[cur + steps[d]]:
                options[k] = d
                k += 1
        if k == 0:
            top -= 1
            continue
        d = options[below(state, k)]
        tried[top - 1] = left & ~(1 << d)
        nb = cur + steps[d]
        visited[nb] = True
        stack[top] = nb
        tried[top] = passages[nb]
        top += 1
    return stack[:0]


def _to_cells(flat: NDArray, width: int) -> NDArray[np.intp]:
    return np.stack(np.divmod(np.asarray(flat, dtype=np.intp), width), axis=1).astype(np.intp)


def _ends(maze: Maze, start, goal) -> tuple[int, int]:
    start = maze.entrance if start is None else tuple(start)
    goal = maze.exit if goal is None else tuple(goal)
    if start is None or goal is None:
        raise NoPathError("the maze has no entrance or exit to solve between")
    for cell in (start, goal):
        if not maze.is_cell(cell):
            raise MazeartError(f"{cell} is not a maze cell")
    return start[0] * maze.width + start[1], goal[0] * maze.width + goal[1]


@any_grid("mazeart.grids.solve:distances")
def distances(maze: Maze | GridMaze, source: tuple[int, int] | int) -> NDArray[np.int32]:
    """Passage distance from ``source`` to every cell.

    Parameters
    ----------
    maze : Maze or GridMaze
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
    assert isinstance(maze, Maze)  # (any_grid sends the other grids to theirs)
    if not isinstance(source, tuple | list) or len(source) != 2:
        raise TypeError(f"source must be a (row, col) cell, got {source!r}")
    if not maze.is_cell((source[0], source[1])):
        raise MazeartError(f"{tuple(source)} is not a maze cell")
    r, c = source
    d = _bfs(maze.passages.reshape(-1), maze.width, r * maze.width + c)
    return d.reshape(maze.shape)


@any_grid("mazeart.grids.solve:dead_end_filling")
def dead_end_filling(
    maze: Maze | GridMaze,
    *,
    start: tuple[int, int] | int | None = None,
    goal: tuple[int, int] | int | None = None,
) -> NDArray[np.bool_]:
    """Fill dead ends until none is left; return the cells that stay open.

    Parameters
    ----------
    maze : Maze or GridMaze
    start, goal : (int, int) or int, optional
        The two cells never filled; default to the entrance and exit (cell ids on a grid
        other than the square one).

    Returns
    -------
    (H, W) or (n,) ndarray of bool
        On a perfect maze: exactly the cells of the solution.
    """
    assert isinstance(maze, Maze)  # (any_grid sends the other grids to theirs)
    a, b = _ends(maze, start, goal)
    alive = _fill_dead_ends(maze.passages.reshape(-1), maze.width, a, b)
    return alive.reshape(maze.shape) & maze.mask


@any_grid("mazeart.grids.solve:wall_follower")
def wall_follower(
    maze: Maze | GridMaze,
    *,
    hand: str = "left",
    start: tuple[int, int] | int | None = None,
    goal: tuple[int, int] | int | None = None,
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Follow one wall from ``start`` until ``goal``.

    The walker enters through the entrance's outer door (facing into the maze)
    and at every cell tries to turn towards its hand, then straight on, then
    away, then back.

    Parameters
    ----------
    maze : Maze or GridMaze
        On another grid, cells are ids and the walker turns through each cell's
        neighbours in their order on the page (:func:`mazeart.grids.solve.wall_follower`).
    hand : {'left', 'right'}, default 'left'
    start, goal : (int, int) or int, optional
        Default to the entrance and exit.

    Returns
    -------
    path : (L, 2) ndarray of intp
        The simple path the walk traces (its back-and-forth erased).
    walk : (K, 2) ndarray of intp
        Every step taken, dead ends included.

    Raises
    ------
    ValueError
        When the walker comes back to a cell it stood on facing the same way
        without having reached the goal: the goal is not on its wall.
    """
    assert isinstance(maze, Maze)  # (any_grid sends the other grids to theirs)
    if hand not in ("left", "right"):
        raise MazeartError(f"hand must be 'left' or 'right', got {hand!r}")
    a, b = _ends(maze, start, goal)
    src = divmod(a, maze.width)
    door = maze.door_side(src)
    heading = {1: 2, 2: 3, 4: 0, 8: 1}.get(door, 2)  # face away from the door
    turns = np.array([3, 0, 1, 2] if hand == "left" else [1, 0, 3, 2], dtype=np.int64)
    flat = maze.passages.reshape(-1)
    walk, reached = _follow_wall(flat, maze.width, a, b, heading, turns)
    if not reached:
        raise NoPathError(
            f"the {hand}-hand wall follower went round without reaching "
            f"{divmod(b, maze.width)}: the goal is not on the wall it follows "
            f"(the maze has loops or the goal lies inside)"
        )
    path = erase_loops(walk, flat.size)
    return _to_cells(path, maze.width), _to_cells(walk, maze.width)


def solve(
    maze: Maze | GridMaze,
    *,
    method: str = "bfs",
    start: tuple[int, int] | None = None,
    goal: tuple[int, int] | None = None,
    hand: str = "left",
) -> NDArray[np.intp]:
    """A path between two cells, found by ``method``.

    Parameters
    ----------
    maze : Maze
    method : {'bfs', 'astar', 'dead-end-filling', 'wall-follower'}, default 'bfs'
        See the module docstring. The first three return a shortest path.
    start, goal : (int, int), optional
        Default to the maze's entrance and exit.
    hand : {'left', 'right'}, default 'left'
        The wall follower's hand.

    Returns
    -------
    (L, 2) ndarray of intp
        ``(row, col)`` of every cell on the path, ``start`` first; for a maze
        on another grid (:class:`~mazeart.grids.maze.GridMaze`), ``(L,)`` cell
        ids (:func:`mazeart.grids.solve.solve`).

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
    if not isinstance(maze, Maze):  # a maze on another grid: cell ids
        from mazeart.grids.solve import solve as solve_grid

        check_maze(maze)
        if method == "wall-follower":
            return wall_follower(maze, hand=hand, start=start, goal=goal)[0]
        return solve_grid(maze, method=method, start=start, goal=goal)  # type: ignore[arg-type]
    a, b = _ends(maze, start, goal)
    flat = maze.passages.reshape(-1)
    w = maze.width
    unreachable = NoPathError(f"no path joins {divmod(a, w)} and {divmod(b, w)}")
    if method == "wall-follower":
        return wall_follower(maze, hand=hand, start=divmod(a, w), goal=divmod(b, w))[0]
    if method == "astar":
        pred = _astar(flat, w, a, b)
        if pred[b] < 0:
            raise unreachable
        cells = [b]
        while cells[-1] != a:
            cells.append(int(pred[cells[-1]]))
        return _to_cells(np.asarray(cells[::-1]), w)
    if method == "dead-end-filling":
        alive = _fill_dead_ends(flat, w, a, b)
        sub = np.where(alive, flat, 0).astype(np.uint8)
        sub = _prune_to(sub, alive, w)
        dist = _bfs(sub, w, a)
    else:
        sub = flat
        dist = _bfs(flat, w, a)
    if dist[b] < 0:
        raise unreachable
    return _to_cells(_walk_back(sub, w, dist, b), w)


def _prune_to(passages: NDArray[np.uint8], alive: NDArray[np.bool_], width: int) -> NDArray:
    """Passage bits restricted to passages between two live cells."""
    p = passages.copy()
    for bit, dr, dc in DIRECTIONS:
        shifted = np.roll(alive, -(dr * width + dc))
        p[~shifted] &= ~np.uint8(bit)
    return p


@any_grid("mazeart.grids.solve:random_paths")
def random_paths(
    maze: Maze | GridMaze,
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
    maze : Maze or GridMaze
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
    assert isinstance(maze, Maze)  # (any_grid sends the other grids to theirs)
    count = check_int(count, "the number of paths")
    if tries is not None:
        tries = check_int(tries, "tries")
    a, b = _ends(maze, start, goal)
    flat = maze.passages.reshape(-1)
    state = kernel_state(as_generator(rng))
    found: list[NDArray[np.intp]] = []
    keys: set[bytes] = set()
    for _ in range(20 * count if tries is None else tries):
        stack = _random_dfs(flat, maze.width, a, b, state)
        if stack.size == 0:
            raise NoPathError(f"no path joins {divmod(a, maze.width)} and {divmod(b, maze.width)}")
        key = stack.tobytes()
        if key in keys:
            continue
        keys.add(key)
        found.append(_to_cells(stack, maze.width))
        if len(found) == count:
            break
    return found
