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
``join_forest``      Kruskal's algorithm (walls in random order), found by Boruvka's rounds
``grow_forest``      depth-first walks from every cell of a tree at once, in random turn
"""

from __future__ import annotations

import numpy as np

from mazeart._graph import find
from mazeart._jit import njit
from mazeart._kernels.topology import (
    cell,
    degree,
    higher,
    is_open,
    join,
    join_view,
    look_view,
    narrow,
    open_slot,
    sides,
    slot,
    step,
    step_view,
    unusual,
    usual,
    view,
    walk,
    walker,
)
from mazeart._rng import below, next_u64, nth_u64, uniform

__all__ = [
    "aldous_broder",
    "backtracker",
    "grow_forest",
    "growing_tree",
    "hunt_and_kill",
    "join_forest",
    "prim",
    "route_detours",
    "route_fill",
    "wilson",
]


_NTH = np.full(256 * 8, -1, np.int8)  # _NTH[mask * 8 + j]: the place of mask's j-th set bit
# (a byte each: 2 KB, not 16, of the first-level cache the kernels share with their arrays)
for _mask in range(256):
    _places = [b for b in range(8) if _mask >> b & 1]
    _NTH[_mask * 8 : _mask * 8 + len(_places)] = _places


@njit(cache=True)
def _nth_bit(mask, j):
    """The place of the ``j``-th (from 0) lowest set bit of ``mask``."""
    if mask < 256:
        return np.int64(_NTH[mask * 8 + j])
    for _ in range(j):
        mask &= mask - 1  # the lowest set bit cleared
    d = 0
    while not (mask >> d) & 1:
        d += 1
    return np.int64(d)


@njit(cache=True)
def backtracker(topo, free, starts, state, links, order):
    """From the cell on top of the stack, carve into a random unvisited neighbour."""
    n = free.size
    width = degree(topo)
    avail = free.copy()  # free and not yet visited: one read a neighbour
    stack = np.empty(n, np.int64)  # views (:func:`view`): on the rings a look reads no ring
    for s in starts:
        if not avail[s]:
            continue
        avail[s] = False
        top = 0
        stack[0] = view(topo, s)
        while top >= 0:
            at = stack[top]
            k = 0
            sides_open = 0  # a bit a side: no store and no branch in the loop (which sides
            for d in range(usual(topo)):  # are open is random), so the topology's loads
                x = np.int64(avail[np.uint64(look_view(topo, at, d))])  # for the cell are
                sides_open |= x << d  # made once (an unsigned index: numba adds no
                k += x  # wraparound)
            if unusual(topo, at):  # (the rest of the slots: on most grids none)
                for d in range(usual(topo), width):
                    x = np.int64(avail[np.uint64(look_view(topo, at, d))])
                    sides_open |= x << d
                    k += x
            if k == 0:
                top -= 1
                continue
            d = _nth_bit(sides_open, 0 if k == 1 else below(state, k))
            nv = step_view(topo, at, d)
            nb = cell(topo, nv)
            join_view(topo, links, order, at, d, nb)
            avail[nb] = False
            top += k > 1  # (a cell whose only way on is taken has none when the walk is
            stack[top] = nv  # back: the next takes its place, with no second look)


@njit(cache=True)
def prim(topo, free, starts, state, links, order):
    """A uniformly random frontier cell joins the maze through a random maze neighbour."""
    n = free.size
    width = degree(topo)
    half = width >> 1
    # one mark a cell, one read a neighbour: 0 free and unseen, 1 listed, 2 maze, 3 not free
    mark = np.full(n, 3, np.int8)
    for c in range(n):
        if free[c]:
            mark[c] = 0
    frontier = np.empty(n, np.int64)  # views (:func:`view`): a take reads no table of cells
    for s in starts:
        if mark[s] == 2:
            continue
        mark[s] = 2
        m = 0
        at = view(topo, s)
        for d in range(width):
            nv = step_view(topo, at, d)
            if nv >= 0 and mark[cell(topo, nv)] == 0:
                mark[cell(topo, nv)] = 1
                frontier[m] = nv
                m += 1
        while m > 0:
            i = below(state, m)
            at = frontier[i]
            m -= 1
            frontier[i] = frontier[m]
            k = 0
            in_maze = 0
            # one look at each side: the maze, and the new frontier (an upsilon square's
            # half of the slots alone: this look branches on what it finds, so a slot
            # skipped is worth the branch on the cell's kind; the backtracker's does not)
            if narrow(topo, cell(topo, at)):
                for d in range(half):
                    nv = step_view(topo, at, d)
                    if nv >= 0:
                        nb = cell(topo, nv)
                        seen = mark[nb]
                        if seen == 2:
                            in_maze |= 1 << d
                            k += 1
                        elif seen == 0:
                            mark[nb] = 1
                            frontier[m] = nv
                            m += 1
            else:
                for d in range(width):
                    nv = step_view(topo, at, d)
                    if nv >= 0:
                        nb = cell(topo, nv)
                        seen = mark[nb]
                        if seen == 2:
                            in_maze |= 1 << d
                            k += 1
                        elif seen == 0:
                            mark[nb] = 1
                            frontier[m] = nv
                            m += 1
            d = _nth_bit(in_maze, 0 if k == 1 else below(state, k))
            join_view(topo, links, order, at, d, cell(topo, step_view(topo, at, d)))
            mark[cell(topo, at)] = 2


@njit(cache=True)
def loop_erased_fill(topo, free, in_tree, state, links, order):
    """Wilson's fill: from each free cell not in the tree, in id order, a loop-erased random
    walk to the tree. ``in_tree`` must hold a cell of every free part; it is updated."""
    n = free.size
    leave = np.zeros(n, np.int8)
    aid = walker(topo, free)
    for i in range(n):
        if not free[i] or in_tree[i]:
            continue
        cur = i
        while not in_tree[cur]:
            d, nb = walk(topo, free, state, cur, aid)
            leave[cur] = d
            cur = nb
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
    neighbour of the one before), then depth-first walks over the ``walkable`` cells from
    those of the tree (:func:`grow_forest`) until each joins it: the route's cells are in
    it from the start, so the only path between its ends is the route. A route cell that is
    not walkable takes no branch (the walks cannot step on it); ``starts`` root the walkable
    parts that touch no route cell they may join."""
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
    grow_forest(topo, walkable, in_tree, state, links, order)


@njit(cache=True)
def route_detours(topo, allowed, on, route, tried, draws, longest, out):
    """Detours for the steps of ``route`` listed in ``tried``, in that order: step ``i``
    (from ``route[i]`` to ``route[i + 1]``) goes round by the fewest cells, ``longest`` at
    most, that lead from one to the other, each ``allowed`` and beside no cell ``on`` the
    route but the step's two ends and each other; of the ways of that many cells (found in
    the topology's order of sides) the one at ``draws[j]`` (in 0-1) of the list is taken.
    Its cells go to ``out[i, :k]`` and their number to ``out[i, longest]`` (0: none), and
    they are taken off ``allowed`` and put ``on`` the route."""
    way = np.empty(longest, np.int64)
    for j in range(tried.size):
        i = tried[j]
        a = route[i]
        b = route[i + 1]
        for k in range(1, longest + 1):
            count = _ways_round(topo, allowed, on, a, b, k, -1, way)
            if count:
                _ways_round(topo, allowed, on, a, b, k, min(int(draws[j] * count), count - 1), way)
                for t in range(k):
                    out[i, t] = way[t]
                    on[way[t]] = True
                    allowed[way[t]] = False
                out[i, longest] = k
                break


@njit(cache=True)
def _ways_round(topo, allowed, on, a, b, k, pick, way):
    """How many ways of ``k`` cells lead from ``a`` round to ``b`` (see
    :func:`route_detours`); with ``pick`` >= 0, stop at way number ``pick``, left in
    ``way``. A depth-first walk over the sides, ``way[:depth]`` the cells so far."""
    tried = np.zeros(k, np.int64)  # per depth, the next side to try
    depth = 0
    count = 0
    while depth >= 0:
        at = a if depth == 0 else way[depth - 1]
        d = tried[depth]
        if d >= sides(topo, at):
            depth -= 1
            continue
        tried[depth] = d + 1
        x = step(topo, at, d)
        if x < 0 or x == b or not allowed[x]:
            continue
        seen = False
        for t in range(depth):
            seen = seen or way[t] == x
        if seen:
            continue
        way[depth] = x
        if depth < k - 1:
            depth += 1
            tried[depth] = 0
            continue
        if not _beside(topo, x, b):
            continue
        clear = True  # each cell beside no route cell but a and b (its own are not on)
        for t in range(k):
            for e in range(sides(topo, way[t])):
                c = step(topo, way[t], e)
                clear = clear and (c < 0 or not on[c] or c == a or c == b)
        if clear:
            if count == pick:
                return count + 1
            count += 1
    return count


@njit(cache=True)
def _beside(topo, x, b):
    for e in range(sides(topo, x)):
        if step(topo, x, e) == b:
            return True
    return False


@njit(cache=True)
def grow_forest(topo, free, in_tree, state, links, order):
    """Depth-first walks from every free cell of the tree at once, until each free cell has
    joined it: each step a random walk of those still going carves from the top of its stack
    into a random free neighbour no walk has entered (backing up where there is none). The
    walks share the cells out, each a long winding branch of the tree where it started.
    ``in_tree`` must hold a cell of every free part; it is not changed."""
    n = free.size
    avail = free.copy()  # free and in no walk yet
    under = np.empty(n, np.int64)  # the cell below each on its walk's stack (-1 at the root)
    tops = np.empty(n, np.int64)  # the walks still going: the top of each one's stack
    m = 0
    for c in range(n):
        if in_tree[c]:
            avail[c] = False
            if free[c]:
                under[c] = -1
                tops[m] = c
                m += 1
    frontier = np.empty(degree(topo), np.int64)
    while m > 0:
        i = below(state, m)
        cur = tops[i]
        k = 0
        for d in range(sides(topo, cur)):
            nb = step(topo, cur, d)
            if nb >= 0 and avail[nb]:
                frontier[k] = d
                k += 1
        if k == 0:
            if under[cur] < 0:  # back at its root: this walk is done
                m -= 1
                tops[i] = tops[m]
            else:
                tops[i] = under[cur]
            continue
        d = frontier[0] if k == 1 else frontier[below(state, k)]
        nb = step(topo, cur, d)
        join(topo, links, order, cur, d, nb)
        avail[nb] = False
        under[nb] = cur
        tops[i] = nb


@njit(cache=True)
def aldous_broder(topo, free, starts, state, links, order):
    """A random walk over each part until it has entered every cell of it."""
    n = free.size
    width = degree(topo)
    visited = np.zeros(n, np.bool_)
    counted = np.zeros(n, np.bool_)
    queue = np.empty(n, np.int64)
    aid = walker(topo, free)
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
            d, nb = walk(topo, free, state, cur, aid)
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


# ----------------------------------------------------------------------------- Kruskal's
# Kruskal's algorithm takes the walls in a uniformly random order and opens each that joins
# two trees: the tree it ends with is the minimum spanning tree of random keys, one a wall,
# and any algorithm that finds that tree has Kruskal's law. Taken in key order the walls
# are strewn over the grid, and each union-find lookup misses the cache; Boruvka's rounds
# find the same tree reading the grid in order: the lightest wall out of any set of cells
# belongs to the tree, so each round opens the lightest wall out of every tree and joins
# them. The first two rounds read the grid itself; the walls still between trees then go
# to a list, which each round shortens.

_NONE = np.uint64(0xFFFFFFFFFFFFFFFF)  # no wall noted yet (a wall may have this key too: each
# comparison is <=, which only ever ties with it, and a note is marked by where it points)


@njit(inline="always", cache=True)
def _wall_key(keys, s):
    """Wall slot ``s``'s key: from the table of ``keys = (salt, table)`` where it holds one a
    slot, else the ``s + 1``-th number of the stream the salt starts."""
    salt, table = keys
    return table[s] if table.size > 0 else nth_u64(salt, s)


@njit(cache=True)
def _identity(n, sample):
    """Each of ``n`` items its own set (of ``sample``'s dtype)."""
    parent = np.empty(n, sample.dtype)
    for i in range(n):
        parent[i] = i
    return parent


@njit(cache=True)
def _link(parent, a, b):
    """Join the sets of ``a`` and ``b``; False if they were one. The higher root takes the
    lower, so every parent lies above its child (see :func:`_number_sets`)."""
    ra = find(parent, a)
    rb = find(parent, b)
    if ra == rb:
        return False
    if ra < rb:
        ra, rb = rb, ra
    parent[rb] = ra
    return True


@njit(cache=True)
def _number_sets(parent):
    """Number the sets of a union-find whose parents lie above their children 0, 1, ... in
    place (each item then holds its set's number) in one pass down: an item's parent, above
    it, holds its number already. Returns how many there are."""
    k = 0
    for a in range(parent.size - 1, -1, -1):
        p = parent[a]
        if p == a:
            parent[a] = k
            k += 1
        else:
            parent[a] = parent[p]
    return k


@njit(cache=True)
def _open_lightest_of_each_cell(topo, free, links, order, keys, parent):
    """The first round: every free cell's lightest wall to a free cell."""
    opened = 0
    for a in range(free.size):
        if not free[a]:
            continue
        best = _NONE
        side = -1
        for d in range(degree(topo)):  # (past a cell's own sides, no neighbour)
            b = step(topo, a, d)
            if b >= 0 and free[b]:
                k = _wall_key(keys, slot(topo, a, d))
                if k <= best:
                    best = k
                    side = d
        if side >= 0:
            b = step(topo, a, side)
            if _link(parent, a, b):
                open_slot(topo, links, order, slot(topo, a, side))
                opened += 1
    return opened


@njit(cache=True)
def _lightest_of_each_set(topo, free, keys, label, best, where):
    """Each set's lightest wall to another (``best`` its key, ``where`` its lower cell times
    the degree plus its side), reading the grid in order; returns how many walls lie
    between sets."""
    width = degree(topo)
    between = 0
    for a in range(free.size):
        if not free[a]:
            continue
        la = label[a]
        low = higher(topo, a)
        for d in range(width):  # (a constant: the loop unrolled; the lower sides skipped)
            b = step(topo, a, d)
            if d >= low and b > a and free[b]:
                lb = label[b]
                if lb != la:
                    between += 1
                    k = _wall_key(keys, slot(topo, a, d))
                    if k <= best[la]:
                        best[la] = k
                        where[la] = a * width + d
                    if k <= best[lb]:
                        best[lb] = k
                        where[lb] = a * width + d
    return between


@njit(cache=True)
def _join_each_set_once(topo, free, links, order, keys, label, k, sample):
    """A round over the grid: each of the ``k`` sets of ``label`` joins another through its
    lightest wall. Returns the sets these joins make (a number for each of the ``k``), how
    many, the walls opened, and how many walls lay between the ``k`` sets (as many as
    can lie between the fewer)."""
    width = degree(topo)
    best = np.full(k, _NONE, np.uint64)
    where = np.full(k, -1, np.int64)
    between = _lightest_of_each_set(topo, free, keys, label, best, where)
    up = _identity(k, sample)
    opened = 0
    for p in range(k):
        if where[p] >= 0:
            a = where[p] // width
            d = where[p] - a * width
            if _link(up, label[a], label[step(topo, a, d)]):
                open_slot(topo, links, order, slot(topo, a, d))
                opened += 1
    return up, _number_sets(up), opened, between


@njit(cache=True)
def _walls_between_sets(topo, free, label, up, walls, x, y):
    """The walls between sets (``label`` then ``up``) as records: the wall's slot and its two
    sets; returns how many."""
    m = 0
    for a in range(free.size):
        if not free[a]:
            continue
        la = up[label[a]]
        low = higher(topo, a)
        for d in range(degree(topo)):  # (as in _lightest_of_each_set)
            b = step(topo, a, d)
            if d >= low and b > a and free[b]:
                lb = up[label[b]]
                walls[m] = slot(topo, a, d)
                x[m] = la
                y[m] = lb
                m += lb != la  # (written always, kept when between sets: no branch)
    return m


@njit(cache=True)
def _join_listed(topo, links, order, keys, walls, x, y, m, k, best, where, up):
    """Boruvka's rounds over the listed walls between ``k`` sets, each round opening every
    set's lightest wall and dropping the walls its joins closed; returns the walls opened."""
    opened = 0
    while m > 0:
        best[:k] = _NONE
        where[:k] = -1
        for i in range(m):
            key = _wall_key(keys, walls[i])
            p = x[i]
            q = y[i]
            old = best[p]
            where[p] = i if key <= old else where[p]
            best[p] = min(old, key)
            old = best[q]
            where[q] = i if key <= old else where[q]
            best[q] = min(old, key)
        for p in range(k):
            up[p] = p
        for p in range(k):
            i = where[p]
            if i >= 0:
                if _link(up, x[i], y[i]):
                    open_slot(topo, links, order, walls[i])
                    opened += 1
        k = _number_sets(up[:k])
        kept = 0
        for i in range(m):
            p = up[x[i]]
            q = up[y[i]]
            walls[kept] = walls[i]
            x[kept] = p
            y[kept] = q
            kept += p != q
        m = kept
    return opened


@njit(cache=True)
def _kruskal_ticks(keys, order, clock):
    """Renumber the ticks after ``clock`` in the walls' key order: the order in which
    Kruskal's algorithm opens them."""
    m = 0
    for s in range(order.size - 1):
        m += order[1 + s] > clock
    opened = np.empty(m, np.int64)
    weights = np.empty(m, np.uint64)
    m = 0
    for s in range(order.size - 1):
        if order[1 + s] > clock:
            opened[m] = s
            weights[m] = _wall_key(keys, s)
            m += 1
    for t, i in enumerate(np.argsort(weights)):
        order[1 + opened[i]] = clock + 1 + t


@njit(cache=True)
def join_forest(topo, free, links, state, existing, pairs, order, sample, table):
    """Kruskal's algorithm: join the trees of every free part into one through the walls
    taken in a uniformly random order, each opened when it joins two trees. Trees already
    carved (``existing`` passages, which must form a forest) and the cell ``pairs`` given
    count as joined. Returns the passages opened.

    Every wall's place in the order is a random key (:func:`~mazeart._rng.nth_u64` of its
    slot: distinct keys), or its entry in ``table`` (uint64, one a slot; empty for random
    keys), and the walls Kruskal's algorithm opens are the lightest spanning forest of
    those keys, which Boruvka's rounds find reading the grid in order (see the note
    above). Union-find parents, sets and listed walls take ``sample``'s dtype. The carve
    order, when recorded, is Kruskal's: the opened walls by key.
    """
    n = free.size
    keys = (next_u64(state), table)
    clock = order[0]
    parent = _identity(n, sample)
    opened = 0
    if existing > 0 or pairs.shape[0] > 0:  # cells joined already: the rounds start from them
        for i in range(pairs.shape[0]):
            _link(parent, pairs[i, 0], pairs[i, 1])
        for a in range(n if existing > 0 else 0):
            if free[a]:
                for d in range(higher(topo, a), sides(topo, a)):
                    b = step(topo, a, d)
                    if b > a and is_open(topo, links, a, d):
                        _link(parent, a, b)
    else:
        opened += _open_lightest_of_each_cell(topo, free, links, order, keys, parent)
    k = _number_sets(parent)
    label = parent  # each cell's tree, numbered
    # (the first round's notes are freed on its return: they are the size of the most sets)
    up, k, joined, between = _join_each_set_once(topo, free, links, order, keys, label, k, sample)
    opened += joined
    walls = np.empty(between + 1, sample.dtype)  # (+ 1: each wall is written, then kept or not;
    x = np.empty(between + 1, sample.dtype)  # the pages past the last kept are never touched)
    y = np.empty(between + 1, sample.dtype)
    m = _walls_between_sets(topo, free, label, up, walls, x, y)
    best = np.empty(k, np.uint64)
    where = np.empty(k, np.int64)
    opened += _join_listed(topo, links, order, keys, walls, x, y, m, k, best, where, up)
    if order.size > 1:
        _kruskal_ticks(keys, order, clock)
    return opened
