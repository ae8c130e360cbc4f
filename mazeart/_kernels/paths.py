"""The solvers' kernels, written once for every grid: breadth-first distances and the path
back, A*, dead-end filling, the random depth-first search and the wall follower.

Each kernel takes a topology (:mod:`mazeart._kernels.topology`) and works on
flat cell numbers. All but the wall follower read a maze's passages as its
*ways*, the open ways out of each cell in the form that suits its grid:

- on the square grid and the lattices (hex, triangle, upsilon), *bits*: a code per
  cell, its open sides as bits in the order of its neighbours (on the square grid the
  passage bits themselves, N=1, E=2, S=4, W=8; on a lattice one bit per side of the
  cell's type, and the type as the bit above them), with three tables indexed by a
  code: the flat step of its ``j``-th open side, the bit of the way back in the cell
  that step leads to, and how many sides are open (:func:`square_ways`,
  :func:`lattice_ways`: four arrays). A step is one load and one addition, and the
  way back is known, so a walk through a tree never looks back;
- on any other grid the maze's table of open neighbours (``(indptr, indices)``, CSR:
  :attr:`mazeart.maze.Maze.open_table`, which the maze keeps). A graph's padded
  neighbour rows would serve too, but a solver would then read every slot, open or
  not, through two tables: about twice the time, which is memory traffic.

The wall follower turns through every neighbour, open or not, and asks
:func:`~mazeart._kernels.topology.is_open` of the topology's own passages (a bool per
wall of a graph).

The kernels ask these of the ways (``_bt_*`` for bits, ``_gr_*`` for a table of open
neighbours, chosen by the number of arrays: by Python, or through :func:`register` by
numba):

- ``exits(ways, c, came) -> (way, count)`` and
  ``exit_to(ways, c, way, j) -> (cell, back)``: the open ways out of
  cell ``c`` but the one it was entered by, ``came`` (the ``back`` token
  ``exit_to`` handed out with the cell; 0 for none), in the order of its
  neighbours: ``count`` of them, the ``j``-th leading to ``cell``. With bits they
  are the cell's code less the side it came in by, counted and stepped through by
  the tables, with no branch per closed side. A graph lists its open neighbours
  and skips nothing (``back`` is 0);
- ``open_degree(ways, c)``: how many passages a cell has.

and these of the topology (``_sq_*`` and ``_gr_*``, chosen by its kind, see
:func:`mazeart._kernels.topology.teach`):

- ``estimate(topo, guide, c, goal)``: A*'s lower bound on the steps from ``c``
  to ``goal``: the Manhattan distance on the square grid, and on a graph the
  straight line between the cells' centres over the longest step
  (``guide = (centres, longest step)``);
- ``turns(topo, rings, c)``, ``turn_way(topo, rings, c, j)`` and
  ``turn_back(topo, rings, c, j)``: the wall follower's view of a cell, its
  neighbours in counter-clockwise order on the page (a *ring*): how many, the
  neighbour slot at ring position ``j``, and the position in the neighbour's
  ring of the way back. The square grid's ring is south, east, north, west for
  every cell; a graph's is sorted by angle (:func:`graph_rings`).

Each of these is one block of code without a branch: numba inlines it into
the kernel's innermost loop, and a branch there would keep the reference
counting of the arrays it takes out of a tuple (twice the time of a graph's
breadth-first search).

numba's cache keys a kernel by its own file: after changing
:mod:`mazeart._kernels.topology`, touch this file too.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
from numpy.typing import NDArray

from mazeart._jit import before_compile, njit, readonly
from mazeart._kernels.heap import heap_pop, heap_push
from mazeart._kernels.topology import degree, is_open, step, teach
from mazeart._rng import below

__all__ = [
    "BLOCKED",
    "OPEN_SIDES",
    "astar",
    "bfs",
    "estimate",
    "exit_to",
    "exits",
    "fill_dead_ends",
    "follow_wall",
    "graph_rings",
    "open_degree",
    "path_by",
    "random_dfs",
    "register",
    "square_ways",
    "turn_back",
    "turn_way",
    "turns",
    "walk_back",
]

BLOCKED = np.int32(2**31 - 1)
"""A distance :func:`bfs` treats as already reached: a cell it must not enter."""

OPEN_SIDES = np.array([bin(b).count("1") for b in range(16)], np.int64)
"""How many sides a square cell's 4-bit passage set opens."""

_SIDE = np.zeros((16, 4), np.int64)  # the j-th open side (0 N, 1 E, 2 S, 3 W) of a bit set
for _bits in range(16):
    _SIDE[_bits, : OPEN_SIDES[_bits]] = [d for d in range(4) if _bits >> d & 1]
_BACK = np.where(  # the bit of the way back after a step by the j-th open side
    np.arange(4) < OPEN_SIDES[:, None], np.array([4, 8, 1, 2], np.int64)[_SIDE], 0
)
_RING = np.array([2, 1, 0, 3], np.int64)  # a square cell's sides counter-clockwise: S E N W


def _square(topo: Any) -> bool:
    return isinstance(topo, np.ndarray)


def _coded(ways: Any) -> bool:
    return len(ways) == 4


def exits(ways: Any, c: int, came: int) -> tuple[int, int]:
    return (_bt_exits if _coded(ways) else _gr_exits)(ways, c, came)


def exit_to(ways: Any, c: int, way: int, j: int) -> tuple[int, int]:
    return (_bt_exit_to if _coded(ways) else _gr_exit_to)(ways, c, way, j)


def open_degree(ways: Any, c: int) -> int:
    return (_bt_open_degree if _coded(ways) else _gr_open_degree)(ways, c)


def estimate(topo: Any, guide: Any, c: int, goal: int) -> Any:
    return (_sq_estimate if _square(topo) else _gr_estimate)(topo, guide, c, goal)


def turns(topo: Any, rings: Any, c: int) -> int:
    return _sq_turns(topo, rings, c) if _square(topo) else _gr_turns(topo, rings, c)


def turn_way(topo: Any, rings: Any, c: int, j: int) -> int:
    return _sq_turn_way(topo, rings, c, j) if _square(topo) else _gr_turn_way(topo, rings, c, j)


def turn_back(topo: Any, rings: Any, c: int, j: int) -> int:
    return _sq_turn_back(topo, rings, c, j) if _square(topo) else _gr_turn_back(topo, rings, c, j)


# ----------------------------------------------------------------------------- bits


def _bt_exits(ways, c, came):  # type: ignore[no-untyped-def]
    way = np.int64(ways[0][c]) & ~np.int64(came)
    return way, ways[3][way]


def _bt_exit_to(ways, c, way, j):  # type: ignore[no-untyped-def]
    return c + ways[1][way, j], ways[2][way, j]


def _bt_open_degree(ways, c):  # type: ignore[no-untyped-def]
    return ways[3][np.int64(ways[0][c])]


# ----------------------------------------------------------------------------- the square grid


def _sq_estimate(topo, guide, c, goal):  # type: ignore[no-untyped-def]
    w = topo[2]
    dr = c // w - goal // w
    dc = c % w - goal % w
    return abs(dr) + abs(dc)


def _sq_turns(topo, rings, c):  # type: ignore[no-untyped-def]
    return 4


def _sq_turn_way(topo, rings, c, j):  # type: ignore[no-untyped-def]
    return _RING[j]


def _sq_turn_back(topo, rings, c, j):  # type: ignore[no-untyped-def]
    return (j + 2) & 3


# ----------------------------------------------------------------------------- a graph


def _gr_exits(ways, c, came):  # type: ignore[no-untyped-def]
    first = np.int64(ways[0][c])
    return first, np.int64(ways[0][c + 1]) - first


def _gr_exit_to(ways, c, way, j):  # type: ignore[no-untyped-def]
    return np.int64(ways[1][way + j]), np.int64(0)


def _gr_open_degree(ways, c):  # type: ignore[no-untyped-def]
    return np.int64(ways[0][c + 1] - ways[0][c])


def _gr_estimate(topo, guide, c, goal):  # type: ignore[no-untyped-def]
    centres, longest = guide
    dx = centres[c, 0] - centres[goal, 0]
    dy = centres[c, 1] - centres[goal, 1]
    return np.sqrt(dx * dx + dy * dy) / longest  # (not hypot: a call, twice the time)


def _gr_turns(topo, rings, c):  # type: ignore[no-untyped-def]
    return np.int64(rings[2][c])


def _gr_turn_way(topo, rings, c, j):  # type: ignore[no-untyped-def]
    return np.int64(rings[0][c * degree(topo) + j])


def _gr_turn_back(topo, rings, c, j):  # type: ignore[no-untyped-def]
    return np.int64(rings[1][c * degree(topo) + j])


def graph_rings(
    indptr: NDArray[np.integer],
    indices: NDArray[np.integer],
    wall_of: NDArray[np.integer],
    centres: NDArray[np.floating],
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """A graph's rings for :func:`follow_wall` (its ``rings`` argument is the first three).

    Returns
    -------
    way : (n * width,) ndarray of int64
        At ``c * width + j``, the neighbour slot of ``c`` (in the topology's row) at
        position ``j`` of its ring: its neighbours in counter-clockwise order on the
        page (the page's y runs down), ``-1`` past its last.
    back : (n * width,) ndarray of int64
        The position of the way back in that neighbour's ring.
    count : (n,) ndarray of int64
        Each cell's number of neighbours.
    cells : (n * width,) ndarray of int64
        The neighbour at each position (``-1`` past the last).
    """
    deg = np.diff(indptr).astype(np.int64)
    n = deg.size
    width = int(deg.max()) if deg.size else 1
    src = np.repeat(np.arange(n), deg)
    d = centres[indices] - centres[src]
    angle = np.arctan2(-d[:, 1], d[:, 0])  # y runs down the page: turn it up
    order = np.lexsort((angle, src))
    first = np.repeat(np.asarray(indptr[:-1], np.int64), deg)
    pos = np.arange(src.size) - first
    at = src * width + pos
    way = np.full(n * width, -1, np.int64)
    way[at] = order - first  # the slot (position in the row) of the entry sorted here
    cells = np.full(n * width, -1, np.int64)
    cells[at] = indices[order]
    # the way back: the other entry of the same wall (every wall here parts two cells)
    pair = np.argsort(np.asarray(wall_of)[order], kind="stable").reshape(-1, 2)
    back = np.full(n * width, -1, np.int64)
    back[at[pair[:, 0]]] = pos[pair[:, 1]]
    back[at[pair[:, 1]]] = pos[pair[:, 0]]
    return way, back, deg, cells


Ways = tuple[NDArray[np.integer], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]
"""A maze's *bits* ways: each cell's code, and by code the step and the way back of its
``j``-th open side and its number of open sides."""


def square_ways(passages: NDArray[np.uint8], width: int) -> Ways:
    """A square maze's ways for the kernels: its flat passage bits (rows ``width`` long)
    as the codes, and for each code the flat step of its ``j``-th open side (north, east,
    south, west), the bit of the way back and the count. Bits above the four sides are
    ignored (the tables have a row for every byte)."""
    offsets = np.array([-width, 1, width, -1], np.int64)
    sides = np.arange(256) & 15
    steps = np.where(np.arange(4) < OPEN_SIDES[:, None], offsets[_SIDE], 0)
    tables = steps[sides], _BACK[sides], OPEN_SIDES[sides]
    for table in tables:  # (fresh arrays, made read-only: a view alone could be unlocked)
        table.setflags(write=False)
    return readonly((passages, *tables))  # type: ignore[no-any-return]


def lattice_ways(
    grid: Any,
    open_table: tuple[NDArray[np.integer], NDArray[np.integer]],
    steps: list[list[tuple[int, int]]],
    mixed: bool,
) -> Ways:
    """A maze's ways on a lattice (:class:`~mazeart.grids.core.LatticeGrid`, whose cell
    ``r * cols + q`` is at row ``r`` and column ``q``; ``steps`` and ``mixed`` as
    :func:`~mazeart._kernels.topology.lattice_topology` takes them) from its table of
    open neighbours (:attr:`mazeart.maze.Maze.open_table`). A cell's type is the parity of its
    row (with ``mixed``, of its row plus column) on the framed lattice, one row and
    column in; its code is ``type << width | open sides``, a bit per neighbour in the
    order of ``steps[type]``."""
    cols = int(grid.cols)
    width = max(len(s) for s in steps)
    n = int(grid.n_cells)
    r, q = np.divmod(np.arange(n, dtype=np.int64), cols)
    kind = (r + 1 + (q + 1) * int(mixed)) & 1
    side = np.full((2, 9), -1, np.int64)  # by type and (dr + 1) * 3 + dc + 1: the side
    for t in (0, 1):
        for d, (row, col) in enumerate(steps[t]):
            side[t, (row + 1) * 3 + col + 1] = d
    indptr, indices = open_table
    src = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    to_r, to_q = np.divmod(np.asarray(indices, np.int64), cols)
    bit = np.left_shift(1, side[kind[src], (to_r - r[src] + 1) * 3 + to_q - q[src] + 1])
    codes = (kind << width) | np.bincount(src, weights=bit, minlength=n).astype(np.int64)
    tables = grid._cache.get("lattice ways")
    if tables is None:
        tables = grid._cache["lattice ways"] = _lattice_tables(steps, mixed, cols)
    codes = codes.astype(np.uint16)
    codes.setflags(write=False)
    return readonly((codes, *tables))  # type: ignore[no-any-return]


def _lattice_tables(
    steps: list[list[tuple[int, int]]], mixed: bool, cols: int
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """:func:`lattice_ways`'s tables: by code, the step and the way back of each open
    side, and the count."""
    width = max(len(s) for s in steps)
    step = np.zeros((2 << width, width), np.int64)
    back = np.zeros((2 << width, width), np.int64)
    count = np.zeros(2 << width, np.int64)
    for t in (0, 1):
        for bits in range(1 << len(steps[t])):
            code = t << width | bits
            open_sides = [d for d in range(len(steps[t])) if bits >> d & 1]
            count[code] = len(open_sides)
            for j, d in enumerate(open_sides):
                dr, dc = steps[t][d]
                other = (t + dr + (dc if mixed else 0)) & 1
                step[code, j] = dr * cols + dc
                back[code, j] = 1 << steps[other].index((-dr, -dc))
    for table in (step, back, count):  # shared by every maze on the grid: never written
        table.setflags(write=False)
    return readonly((step, back, count))


# ----------------------------------------------------------------------------- the kernels


@njit(cache=True)
def bfs(ways, dist, sources):  # type: ignore[no-untyped-def]
    """Breadth-first steps from the nearest of ``sources`` (one pass however many) into
    ``dist`` (int32, one per cell: ``-1`` where the search may go, :data:`BLOCKED` where it
    may not), which is returned; cells never reached keep their ``-1``."""
    n = dist.size
    queue = np.empty(n, np.int64)
    came = np.empty(n, np.uint8)  # per queue slot, the way back to where it came from
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
        way, count = exits(ways, cur, came[head])
        head += 1
        nd = dist[cur] + 1
        for j in range(count):
            nb, back = exit_to(ways, cur, way, j)
            if dist[nb] < 0:
                dist[nb] = nd
                queue[tail] = nb
                came[tail] = back
                tail += 1
    return dist


@njit(cache=True)
def farthest_in_tree(ways, n, root, role):  # type: ignore[no-untyped-def]
    """The two cells farthest apart along the passages, one a *first* (``role & 1``) and
    the other a *second* (``role & 2``), in the tree of passages that holds ``root``:
    ``(first, second, steps)``, or ``(-1, -1, -1)`` when there is no such pair.

    One depth-first walk: each cell carries the deepest first and second below it, and
    when a branch is done every pair meeting at the cell above it is weighed there, so
    the answer is exact on a tree (the caller checks that the part is one: a loop would
    be walked as if cut). Of pairs equally far apart the lower first, then the lower
    second, is kept of those that meet at one cell.
    """
    deep = np.full(2 * n, -1, np.int64)  # 2c: the deepest first below c, 2c + 1 the second
    who = np.full(2 * n, -1, np.int64)
    parent = np.full(n, -1, np.int64)
    tried = np.zeros(n, np.int64)  # the ways out of each cell on the path walked so far
    stack = np.empty(n, np.int64)
    best, first, second = np.int64(-1), np.int64(-1), np.int64(-1)
    top = 0
    stack[0] = root
    cur = np.int64(root)
    for k in range(2):
        if role[cur] & (1 << k):
            deep[2 * cur + k], who[2 * cur + k] = 0, cur
    while top >= 0:
        cur = stack[top]
        way, count = exits(ways, cur, 0)
        j = tried[cur]
        if j < count:
            tried[cur] = j + 1
            nb, _ = exit_to(ways, cur, way, j)
            if nb == parent[cur]:
                continue
            parent[nb] = cur
            for k in range(2):
                if role[nb] & (1 << k):
                    deep[2 * nb + k], who[2 * nb + k] = 0, nb
            top += 1
            stack[top] = nb
            continue
        top -= 1
        if top < 0:
            break
        up = stack[top]  # the branch from cur is done: weigh the pairs meeting at up
        for k in range(2):
            a, b = 2 * up + k, 2 * cur + 1 - k  # a first above and a second below, or back
            if deep[a] >= 0 and deep[b] >= 0:
                steps = deep[a] + deep[b] + 1
                f, s = (who[a], who[b]) if k == 0 else (who[b], who[a])
                if steps > best or (steps == best and (f < first or (f == first and s < second))):
                    best, first, second = steps, f, s
        for k in range(2):
            a, b = 2 * up + k, 2 * cur + k
            if deep[b] >= 0 and (
                deep[b] + 1 > deep[a] or (deep[b] + 1 == deep[a] and who[b] < who[a])
            ):
                deep[a], who[a] = deep[b] + 1, who[b]
    return first, second, best


@njit(cache=True)
def walk_back(ways, dist, target):  # type: ignore[no-untyped-def]
    """The cells from the source of :func:`bfs`'s ``dist`` to ``target`` (reached): each
    step back to the first neighbour, in the topology's order, one step nearer."""
    length = dist[target]
    out = np.empty(length + 1, np.int64)
    cur = np.int64(target)
    came = np.int64(0)  # (the way to the cell just left, one step farther: never taken)
    for i in range(length, -1, -1):
        out[i] = cur
        if i == 0:
            break
        way, count = exits(ways, cur, came)
        for j in range(count):
            nb, back = exit_to(ways, cur, way, j)
            if dist[nb] == i - 1:
                cur = nb
                came = back
                break
    return out


@njit(cache=True)
def astar(topo, ways, guide, n, source, goal):  # type: ignore[no-untyped-def]
    """A* over ``n`` cells from ``source`` until ``goal`` is settled, guided by
    :func:`estimate` (a consistent bound, so a settled cell is never improved); returns
    each cell's predecessor (``-1`` for the source and the cells not reached:
    :func:`path_by` reads the path). The heap holds ``f = steps + bound`` as floats; of
    equal ones, the heap's order decides, the same way on every grid."""
    far = np.int64(2**62)
    g = np.full(n, far, np.int64)
    prev = np.full(n, -1, np.int64)
    done = np.zeros(n, np.bool_)
    room = n * degree(topo) + 1  # (each passage pushes once at most)
    heap_f = np.empty(room, np.float64)
    heap_c = np.empty(room, np.int64)
    g[source] = 0
    heap_f[0] = estimate(topo, guide, source, goal)
    heap_c[0] = source
    size = 1
    while size > 0:
        cur = heap_c[0]
        size = heap_pop(heap_f, heap_c, size)
        if done[cur]:
            continue
        done[cur] = True
        if cur == goal:
            break
        ng = g[cur] + 1
        way, count = exits(ways, cur, 0)
        for j in range(count):
            nb, _ = exit_to(ways, cur, way, j)
            if g[nb] <= ng:
                continue
            g[nb] = ng
            prev[nb] = cur
            size = heap_push(heap_f, heap_c, size, ng + estimate(topo, guide, nb, goal), nb)
    return prev


@njit(cache=True)
def path_by(prev, start, goal):  # type: ignore[no-untyped-def]
    """The cells from ``start`` to ``goal`` by the predecessors ``prev`` (empty if the goal
    was not reached)."""
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
        if i:
            c = prev[c]
    return path


@njit(cache=True)
def fill_dead_ends(ways, alive, keep_a, keep_b):  # type: ignore[no-untyped-def]
    """Fill every dead end of ``alive`` (one flag per cell, changed in place and returned):
    remove cells with at most one passage to a living cell, but ``keep_a`` and ``keep_b``,
    until there are none (what is left does not depend on the order).

    Passages join only maze cells, so a living cell's passages all lead to living cells
    until a neighbour is removed. A removed cell has one living neighbour at most: when
    that one is left with one passage, the filling goes on along the corridor to it
    rather than through the stack."""
    n = alive.size
    deg = np.empty(n, np.int8)  # (no grid has a cell of more than a few neighbours)
    stack = np.empty(n, np.int64)
    for c in range(n):
        deg[c] = open_degree(ways, c)
    top = 0
    for c in range(n):
        if deg[c] <= 1 and alive[c] and c != keep_a and c != keep_b:
            stack[top] = c
            top += 1
    while top > 0:
        top -= 1
        cur = stack[top]
        while cur >= 0:
            alive[cur] = False
            way, count = exits(ways, cur, 0)
            nxt = -1
            for j in range(count):
                nb, _ = exit_to(ways, cur, way, j)
                if alive[nb]:  # the one living neighbour
                    deg[nb] -= 1
                    if deg[nb] == 1 and nb != keep_a and nb != keep_b:
                        nxt = nb
                    break
            cur = nxt
    return alive


@njit(cache=True)
def random_dfs(topo, ways, n, source, target, state):  # type: ignore[no-untyped-def]
    """One randomised depth-first search over ``n`` cells: at each cell a random one of
    its open ways to a cell not yet visited (listed in the topology's order, drawn with
    ``state``), back when there is none. Returns the stack when it reaches ``target`` (a
    simple path from ``source``), empty when it cannot."""
    visited = np.zeros(n, np.bool_)
    stack = np.empty(n, np.int64)
    options = np.empty(degree(topo), np.int64)
    stack[0] = source
    visited[source] = True
    top = 1
    while top > 0:
        cur = stack[top - 1]
        if cur == target:
            return stack[:top].copy()
        k = 0
        way, count = exits(ways, cur, 0)
        for j in range(count):
            nb, _ = exit_to(ways, cur, way, j)
            if not visited[nb]:
                options[k] = nb
                k += 1
        if k == 0:
            top -= 1
            continue
        nb = options[below(state, k)]
        visited[nb] = True
        stack[top] = nb
        top += 1
    return stack[:0].copy()


@njit(cache=True)
def follow_wall(topo, links, rings, n, source, came, target, clockwise):  # type: ignore[no-untyped-def]
    """Walk with a hand on the wall from ``source`` over ``n`` cells, entered from ring
    position ``came`` (see :func:`turns`): at each cell try the ring's positions from
    the way in, turning clockwise (the left hand) or counter-clockwise (the right), the
    way back last. Returns the walk (cells, ``source`` first) and whether it reached
    ``target``; it stops when a (cell, way in) state repeats, or at a closed cell."""
    width = degree(topo)
    seen = np.zeros(n * width, np.bool_)
    walk = np.empty(n * width + 1, np.int64)
    cur = np.int64(source)
    walk[0] = cur
    length = 1
    while cur != target:
        state = cur * width + came
        if seen[state]:
            return walk[:length], False
        seen[state] = True
        k = turns(topo, rings, cur)
        moved = False
        for t in range(1, k + 1):
            j = (came - t) % k if clockwise else (came + t) % k
            d = turn_way(topo, rings, cur, j)
            if is_open(topo, links, cur, d):
                came = turn_back(topo, rings, cur, j)
                cur = step(topo, cur, d)
                walk[length] = cur
                length += 1
                moved = True
                break
        if not moved:  # a closed cell: nowhere to go
            return walk[:length], False
    return walk[:length], True


_REGISTERED: list[bool] = []

_TAUGHT = ("estimate", "turns", "turn_way", "turn_back")
_BY_WAYS = ("exits", "exit_to", "open_degree")


@before_compile
def register() -> None:
    """Teach numba this module's topology questions (once, before the first kernel
    compiles), as :func:`mazeart._kernels.topology.register` does the topology's own."""
    if _REGISTERED:
        return
    _REGISTERED.append(True)
    teach(globals(), _TAUGHT)
    from numba.extending import overload

    for name in _BY_WAYS:
        overload(globals()[name])(_by_ways(globals()["_bt_" + name], globals()["_gr_" + name]))


def _by_ways(bits: Any, graph: Any) -> Any:
    """numba's choice of ``bits`` or ``graph`` by the ways' number of arrays."""

    def choose(*args):  # type: ignore[no-untyped-def]
        return bits if len(args[0]) == 4 else graph

    choose.__signature__ = inspect.signature(bits)  # type: ignore[attr-defined]
    return choose
