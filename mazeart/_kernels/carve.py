"""The graph generators, written once for every grid (see :mod:`mazeart._kernels.topology`).

Each kernel takes a topology, the free cells (a framed flat array on the
square grid), one start cell per free part, a kernel random state
(:func:`mazeart._rng.kernel_state`), the passages to fill (bits per cell on the
square grid, one bool per wall on a graph) and a carve-order buffer; it opens
passages so that each free part becomes one spanning tree, and never one to a
cell that is not free. On the square grid each draws the very numbers, in the
very order, of the square-only kernel it replaced.

``backtracker``      depth-first walk with an explicit stack
``prim``             a uniformly random frontier cell joins through a random maze neighbour
``wilson``           loop-erased random walks (uniform over spanning trees)
``aldous_broder``    a random walk that covers the part (uniform; slow)
``hunt_and_kill``    random walks; hunt the first unvisited cell beside the maze, in id order
``growing_tree``     grow the newest, a random, the oldest active cell, or a mix
``join_forest``      Kruskal's algorithm: walls in uniformly random order, through union-find
"""

from __future__ import annotations

import numpy as np

from mazeart._graph import find, union
from mazeart._jit import njit
from mazeart._kernels.topology import (
    degree,
    edge_record,
    higher,
    is_open,
    join,
    open_slot,
    record_carries_wall,
    record_cells,
    sides,
    slot,
    step,
    walk,
)
from mazeart._rng import below, next_u64, uniform

__all__ = [
    "aldous_broder",
    "backtracker",
    "growing_tree",
    "hunt_and_kill",
    "join_forest",
    "prim",
    "route_fill",
    "wilson",
]


@njit(cache=True)
def backtracker(topo, free, starts, state, links, order):
    """From the cell on top of the stack, carve into a random unvisited neighbour."""
    n = free.size
    width = degree(topo)
    avail = free.copy()  # free and not yet visited: one read a neighbour
    stack = np.empty(n, np.int64)
    frontier = np.empty(width, np.int64)
    for s in starts:
        if not avail[s]:
            continue
        avail[s] = False
        top = 0
        stack[0] = s
        while top >= 0:
            cur = stack[top]
            k = 0
            for d in range(sides(topo, cur)):
                nb = step(topo, cur, d)
                if nb >= 0 and avail[nb]:
                    frontier[k] = d
                    k += 1
            if k == 0:
                top -= 1
                continue
            d = frontier[0] if k == 1 else frontier[below(state, k)]
            nb = step(topo, cur, d)
            join(topo, links, order, cur, d, nb)
            avail[nb] = False
            top += 1
            stack[top] = nb


@njit(cache=True)
def prim(topo, free, starts, state, links, order):
    """A uniformly random frontier cell joins the maze through a random maze neighbour."""
    n = free.size
    width = degree(topo)
    # one mark a cell, one read a neighbour: 0 free and unseen, 1 listed, 2 maze, 3 not free
    mark = np.full(n, 3, np.int8)
    for c in range(n):
        if free[c]:
            mark[c] = 0
    frontier = np.empty(n, np.int64)
    choice = np.empty(width, np.int64)
    for s in starts:
        if mark[s] == 2:
            continue
        mark[s] = 2
        m = 0
        for d in range(width):
            nb = step(topo, s, d)
            if nb >= 0 and mark[nb] == 0:
                mark[nb] = 1
                frontier[m] = nb
                m += 1
        while m > 0:
            i = below(state, m)
            cur = frontier[i]
            m -= 1
            frontier[i] = frontier[m]
            k = 0
            for d in range(
                sides(topo, cur)
            ):  # one look at each side: the maze, and the new frontier
                nb = step(topo, cur, d)
                if nb >= 0:
                    seen = mark[nb]
                    if seen == 2:
                        choice[k] = d
                        k += 1
                    elif seen == 0:
                        mark[nb] = 1
                        frontier[m] = nb
                        m += 1
            d = choice[0] if k == 1 else choice[below(state, k)]
            join(topo, links, order, cur, d, step(topo, cur, d))
            mark[cur] = 2


@njit(cache=True)
def loop_erased_fill(topo, free, in_tree, state, links, order):
    """Wilson's fill: from each free cell not in the tree, in id order, a loop-erased random
    walk to the tree. ``in_tree`` must hold a cell of every free part; it is updated."""
    n = free.size
    leave = np.zeros(n, np.int8)
    options = np.empty(degree(topo), np.int64)
    for i in range(n):
        if not free[i] or in_tree[i]:
            continue
        cur = i
        while not in_tree[cur]:
            d = walk(topo, free, state, cur, options)
            leave[cur] = d
            cur = step(topo, cur, d)
        cur = i
        while not in_tree[cur]:
            d = np.int64(leave[cur])  # a wide int, as numba makes it (numpy keeps int8)
            nb = step(topo, cur, d)
            join(topo, links, order, cur, d, nb)
            in_tree[cur] = True
            cur = nb


@njit(cache=True)
def wilson(topo, free, starts, state, links, order):
    """Loop-erased random walks from every cell to the tree the starts begin."""
    in_tree = np.zeros(free.size, np.bool_)
    for s in starts:
        in_tree[s] = True
    loop_erased_fill(topo, free, in_tree, state, links, order)


@njit(cache=True)
def route_fill(topo, walkable, route, starts, state, links, order):
    """A maze around a route: the passages along ``route`` (cell after cell, each a
    neighbour of the one before), then loop-erased random walks over the ``walkable`` cells
    until each joins the tree: the route's cells are in it from the start, so the only
    path between its ends is the route. A route cell that is not walkable takes no branch
    (the walks cannot step on it); ``starts`` root the walkable parts that touch no route
    cell they may join."""
    n = walkable.size
    in_tree = np.zeros(n, np.bool_)
    for i in range(route.size - 1):
        a = route[i]
        b = route[i + 1]
        for d in range(sides(topo, a)):
            if step(topo, a, d) == b:
                join(topo, links, order, a, d, b)
                break
    for c in route:
        in_tree[c] = True
    for s in starts:
        in_tree[s] = True
    loop_erased_fill(topo, walkable, in_tree, state, links, order)


@njit(cache=True)
def aldous_broder(topo, free, starts, state, links, order):
    """A random walk over each part until it has entered every cell of it."""
    n = free.size
    width = degree(topo)
    visited = np.zeros(n, np.bool_)
    counted = np.zeros(n, np.bool_)
    queue = np.empty(n, np.int64)
    options = np.empty(width, np.int64)
    for p in range(starts.size):
        cur = starts[p]
        # the walk ends when it has entered every cell of its part: count them first
        counted[cur] = True
        queue[0] = cur
        head, tail = 0, 1
        while head < tail:
            c = queue[head]
            head += 1
            for d in range(width):
                nb = step(topo, c, d)
                if nb >= 0 and free[nb] and not counted[nb]:
                    counted[nb] = True
                    queue[tail] = nb
                    tail += 1
        visited[cur] = True
        remaining = tail - 1
        while remaining > 0:
            d = walk(topo, free, state, cur, options)
            nb = step(topo, cur, d)
            if not visited[nb]:
                visited[nb] = True
                join(topo, links, order, cur, d, nb)
                remaining -= 1
            cur = nb


_ONE = np.uint64(1)


@njit(cache=True)
def _flag(marks, c, on):
    """Mark cell ``c`` as a hunt target (or not); True when it changed."""
    w = c >> 6
    bit = _ONE << np.uint64(c & 63)
    has = (marks[w] & bit) != 0
    if on and not has:
        marks[w] |= bit
        return True
    if not on and has:
        marks[w] &= ~bit
        return True
    return False


@njit(cache=True)
def hunt_and_kill(topo, free, starts, state, links, order):
    """Random walks into unvisited cells; when boxed in, hunt the first cell (in id order,
    reading order on the square grid) that is unvisited but touches the maze.

    The hunt does not rescan the grid: the targets are bits of one bitset, and a
    pointer to the first word that may hold one only moves back as far as a walk
    reaches, so all hunts together cost the grid's size in words plus one word each.
    """
    n = free.size
    width = degree(topo)
    visited = np.zeros(n, np.bool_)
    marks = np.zeros((n + 63) // 64, np.uint64)
    options = np.empty(width, np.int64)
    first = marks.size
    for s in starts:
        if visited[s]:
            continue
        cur = s
        walking = True
        while walking:
            # visit cur: it stops being a target; its unvisited neighbours become targets
            visited[cur] = True
            _flag(marks, cur, False)
            k = 0
            for d in range(width):
                nb = step(topo, cur, d)
                if nb >= 0 and free[nb] and not visited[nb]:
                    if _flag(marks, nb, True) and (nb >> 6) < first:
                        first = nb >> 6
                    options[k] = d
                    k += 1
            if k > 0:  # kill: walk into a random unvisited neighbour
                d = options[0] if k == 1 else options[below(state, k)]
                nb = step(topo, cur, d)
                join(topo, links, order, cur, d, nb)
                cur = nb
                continue
            while first < marks.size and marks[first] == 0:  # hunt: the first target
                first += 1
            if first == marks.size:
                walking = False
                continue
            x = marks[first]
            low = x & (~x + _ONE)
            bit = 0
            while (low >> np.uint64(bit)) != _ONE:
                bit += 1
            cur = first * 64 + bit
            k = 0
            for d in range(width):
                nb = step(topo, cur, d)
                if nb >= 0 and visited[nb]:
                    options[k] = d
                    k += 1
            d = options[0] if k == 1 else options[below(state, k)]
            join(topo, links, order, cur, d, step(topo, cur, d))


@njit(cache=True)
def growing_tree(topo, free, starts, state, links, order, select, bias):
    """Grow the newest (``select`` 0), a random (1), the oldest (2) active cell, or the
    newest with probability ``bias`` and else a random one (3). A cell dropped from the
    middle of the list is replaced by the last one."""
    n = free.size
    width = degree(topo)
    visited = np.zeros(n, np.bool_)
    active = np.empty(n, np.int64)
    options = np.empty(width, np.int64)
    for s in starts:
        if visited[s]:
            continue
        visited[s] = True
        head = 0
        tail = 1
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
            cur = active[i]
            k = 0
            for d in range(width):
                nb = step(topo, cur, d)
                if nb >= 0 and free[nb] and not visited[nb]:
                    options[k] = d
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
            d = options[0] if k == 1 else options[below(state, k)]
            nb = step(topo, cur, d)
            join(topo, links, order, cur, d, nb)
            visited[nb] = True
            active[tail] = nb
            tail += 1


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_BUCKET_BITS = 8
_SHIFT = np.uint64(64 - _BUCKET_BITS)


@njit(cache=True)
def _bucket(salt, edge):
    """A random bucket for a wall: the SplitMix64 finaliser of (salt + edge * golden)."""
    z = salt + np.uint64(edge) * _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return (z ^ (z >> np.uint64(31))) >> _SHIFT


@njit(cache=True)
def join_forest(topo, free, links, state, needed, existing, edges, walls, pairs, order):
    """Kruskal's algorithm: closed walls between free cells in uniformly random order, each
    opened when it joins two different trees, until ``needed`` have been opened (or every
    wall was tried). Trees already carved (``existing`` passages) and the cell ``pairs``
    given count as joined. Returns the passages opened and a number to keep reads alive.

    The random order is taken in cache-sized pieces: every wall goes to a random bucket (a
    hash of its slot), buckets are taken in turn, and each is shuffled on its own
    (Fisher-Yates) when its turn comes. Random buckets followed by uniform shuffles within
    them give a uniform permutation of all the walls.

    Each wall is a record in ``edges`` (:func:`~mazeart._kernels.topology.edge_record`):
    on the square grid its slot, from which its cells follow; on a graph its two cells,
    so the hot loop reads no table at random, with the wall itself beside it in ``walls``
    (of size 1 on the square grid, whose dtype the union-find's parents take).
    """
    n = free.size
    parent = np.arange(n).astype(walls.dtype)
    carries = record_carries_wall(topo)
    rank = np.zeros(n if pairs.shape[0] > 0 or existing > 0 else 1, np.int8)
    for i in range(pairs.shape[0]):  # cells already joined some other way (through a room)
        union(parent, rank, pairs[i, 0], pairs[i, 1])
    width = degree(topo)
    for a in range(n if existing > 0 else 0):  # trees carved so far (none for Kruskal's)
        for d in range(width):
            b = step(topo, a, d)
            if b > a and is_open(topo, links, a, d):
                union(parent, rank, a, b)
    # Each closed wall between free cells once, from its lower cell, scanned twice: to
    # count the buckets, then to fill them.
    buckets = 1 << _BUCKET_BITS
    salt = next_u64(state)
    start = np.zeros(buckets + 1, np.int64)
    for a in range(n):
        if free[a]:
            for d in range(higher(topo, a), sides(topo, a)):
                b = step(topo, a, d)
                if b > a and free[b] and not is_open(topo, links, a, d):
                    start[_bucket(salt, slot(topo, a, d)) + 1] += 1
    for i in range(buckets):
        start[i + 1] += start[i]
    fill = start[:buckets].copy()
    for a in range(n):
        if free[a]:
            for d in range(higher(topo, a), sides(topo, a)):
                b = step(topo, a, d)
                if b > a and free[b] and not is_open(topo, links, a, d):
                    s = slot(topo, a, d)
                    k = _bucket(salt, s)
                    edges[fill[k]] = edge_record(topo, s, a, b)
                    if carries:
                        walls[fill[k]] = s
                    fill[k] += 1
    remaining = needed
    ahead = 16  # walls: how far on the cells are touched
    touched = np.int64(0)
    for k in range(buckets):
        if remaining <= 0:
            break
        lo = start[k]
        hi = start[k + 1]
        for m in range(hi - 1, lo, -1):  # shuffle the bucket (Fisher-Yates; it fits the cache)
            j = lo + below(state, m - lo + 1)
            e = edges[j]
            edges[j] = edges[m]
            edges[m] = e
            if carries:
                w = walls[j]
                walls[j] = walls[m]
                walls[m] = w
        for j in range(lo, hi):
            if remaining <= 0:
                break
            if j + ahead < hi:
                # Read the cells of a wall a few walls on: the lookups of the union-find
                # miss the cache, and this way several misses are under way at once.
                c0, c1 = record_cells(topo, edges[j + ahead])
                touched += parent[c0] + parent[c1]
            e = np.int64(edges[j])
            a, b = record_cells(topo, e)
            ra = find(parent, a)
            rb = find(parent, b)
            if ra == rb:
                continue
            # The higher root takes the lower: with the walls in random order the trees
            # stay as shallow as by rank (path halving does the rest), and no rank is
            # read or written, which in this loop is one miss of the cache fewer.
            if ra < rb:
                ra, rb = rb, ra
            parent[rb] = ra
            open_slot(topo, links, order, np.int64(walls[j]) if carries else e, a, b)
            remaining -= 1
    return needed - remaining, touched  # (returned so that the reads stay)
