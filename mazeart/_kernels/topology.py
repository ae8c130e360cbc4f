"""How a kernel sees a grid: a topology, and the questions it may ask of it.

A kernel is written once against the functions below and receives a topology
as its first argument; numba compiles a specialisation per kind of topology,
so each grid gets code as tight as if the kernel had been written for it.

**Square** ``[-stride, 1, stride, -1]``, an int64 array: the flat steps north,
east, south and west on a *framed* grid (a border of cells that are not free,
so every free cell has its four neighbours and no bound is checked). Passages
are bits per cell (N=1, E=2, S=4, W=8), the model's own form; wall slot ``2c``
is the east side of cell ``c`` and ``2c + 1`` its south side.

**Graph** ``(nbr, wall, width, ends)``: the neighbour table padded to the
grid's largest degree (``nbr[c * width + d]`` is the ``d``-th neighbour of
``c``, ``-1`` past its last), the wall between them (``wall``, the same
layout) and each wall's two cells (``ends``, ``(n_walls, 2)``, ``-1`` for the
outside). Passages are one bool per wall.

The functions (each runs the implementation for the topology's kind, ``_sq_*``,
``_lt_*``, ``_gr_*`` or ``_rg_*``, chosen by the topology's type: by Python when a
kernel runs as Python, by numba at compile time, see :func:`register`). numba's cache
keys a kernel by its own file, not by the functions it calls: after changing this one,
remove the cached kernels (``__pycache__/*.nb[ic]`` under ``mazeart``).

- ``degree(topo)``: how many neighbour slots a cell has;
- ``sides(topo, c)`` and ``higher(topo, c)``: the slots ``d`` worth a look for cell
  ``c`` run from 0 (from ``higher`` for its higher neighbours only, where the kind
  orders them) up to ``sides``: on a lattice or the rings the cell's own count, on a
  graph the padded width (a slot past a cell's last is ``-1``);
- ``usual(topo)`` and ``unusual(topo, v)``: the slots most cells have, and whether the
  cell of view ``v`` has more (on the rings: four, which all but the centre and the cells
  two grow from have; elsewhere every slot, and none has more): a kernel looking at
  every side looks at the usual ones, then at the rest only for a cell that has more;
- ``narrow(topo, c)``: whether ``c``'s sides all lie in the lower half of the slots (an
  upsilon square: half its lattice's); false on a grid whose cells all have as many;
- ``step(topo, c, d)``: neighbour ``d`` of cell ``c``, ``-1`` if none;
- ``look(topo, c, d)``: neighbour ``d`` of cell ``c``, or ``c`` itself if none: a kernel
  asking which neighbours are free, or not yet visited, reads a flag per slot with no
  branch (``c`` is never one of them, since it is where the kernel stands);
- ``join(topo, links, order, c, d, b)``: open the passage from ``c`` to its
  neighbour ``d``, cell ``b`` (and note it in the carve order, when one is kept);
- ``shut(topo, links, c, d, b)``: close that passage again;
- ``is_open(topo, links, c, d)``: whether that passage is open;
- ``walker(topo, free)``: what a random walk's steps read beside the topology, made
  once per walk and handed to each ``walk``: on the square grid room to list a cell's
  free sides; on the rings each ``free`` cell's four neighbours in a table (int32, four
  a cell, a row of ``-1`` for a cell of other than four sides: the centre, the cells
  two grow from, the last ring's; and for a cell not free, where no walk stands). A walk
  is one long chain, each step waiting on the cell the one before reached: by the table
  a step waits on one read, where working it out waits on the cell's ring, then the
  ring's numbers, then a branch on the side drawn that is mispredicted half the time (a
  polar grid's Wilson's, 1.6 times the square grid's time a cell that way, takes 0.8 to
  1.15 times with the table made in it). Elsewhere nothing;
- ``walk(topo, free, state, c, aid) -> (d, b)``: a uniformly random side ``d``
  of ``c`` whose neighbour ``b`` is free (one must be): the random walks' step (the
  neighbour handed back with it, not worked out again), ``aid`` the walk's
  ``walker``. The square grid lists the free sides in ``aid`` and draws one; a graph
  draws a slot of its padded row and draws again while it holds no free cell (on
  average the row's width over the free neighbours: one draw where every slot holds
  one); the rings draw likewise up to the cell's own ``sides`` (one of four from the
  table, the same draw scaled to the cell's own count where its row is ``-1``), and a
  lattice up to the widest type's, a cell of half as many sides folding the upper half
  of the draw onto the lower;
- ``slot(topo, c, d)``: the wall slot between cell ``c`` and its neighbour ``d``;
- ``open_slot(topo, links, order, s)``: open wall slot ``s``;
- ``view(topo, c)``, ``cell(topo, v)``, ``look_view(topo, v, d)``,
  ``step_view(topo, v, d)`` and ``join_view(topo, links, order, v, d, b)``: a cell as a
  kernel may keep it (an int64): on the rings its id and its ring together, so that a
  kernel which keeps cells and takes them back (Prim's frontier, the backtracker's stack)
  reads no ring from the table when it takes one: the step gave it. Elsewhere a view is
  the cell's id;

**Lattice** ``(table, shift, counts, klog, mixed)``: a grid of rows and columns whose
steps depend only on a cell's type (the parity of its row, or with ``mixed`` of its row
plus column): hexagons, triangles, octagons and squares. Like the square grid it is
*framed* (a border of cells that are not free) and its rows are ``1 << shift`` cells
apart, so a step is one addition and the type one shift. The ``table`` holds, per type,
each neighbour's step in increasing order of the neighbours, how many sides the type has
and how many of its neighbours are lower, and for each side the wall's slot as an owner
and a place: the step to the lower neighbour and the wall's place among its walls, or
none and the place among the cell's own (one read for either, no branch). ``counts``
says again how many sides each type has and how many are lower, and whether the type is
mixed, as the lengths of five tuples of zeros: lengths are part of a tuple's type, so
numba compiles a kernel once per lattice with those counts as constants, a loop over a
hexagon's six sides runs unrolled, as the square grid's four do, and a cell's type is a
shift and an ``and``. A wall belongs to its lower cell: slot
``(c << klog) + j`` is the wall of ``c`` to its ``j``-th higher neighbour. Passages are
one bool per slot; nothing is stored per cell.

**Rings** ``(ring, tab, width, rings, cells, 0)``: the polar grid, whose rings hold
cells in counts that double now and then. ``ring`` is each cell's ring (uint16: 2 bytes
a cell), ``tab`` sixteen numbers a ring (eight: its first cell and wall, how its cells grew
from the ring inward and grow into the one outward); a cell's neighbours and walls follow by
arithmetic, in the order and numbering of the grid's explicit table (the cell it grew
from, the lower and the higher of its two in the ring, those grown from it), so a
kernel reads no table per cell (but a random walk's own: ``walker``). Passages are one
bool per wall. ``width`` is six zeros:
the centre's slots as a length, a constant once compiled, as a lattice's ``counts`` are
(when the centre is the only ring, its slots hold no neighbour). A ring's other eight
numbers are for its *plain* cells, nearly all of a large grid's (:func:`_plain_rows`):
their four neighbours are the cell plus a number a side, as on the square grid, which a
look (:func:`look_view`) reads in place of the sums. (Not an array of their own: a kernel
hands the topology by value to the functions it does not inline, and one more array made
Kruskal's algorithm seven times slower.)

A carve order (for animations) is an int64 buffer: ``order[0]`` a clock and
``order[1 + slot]`` the tick at which a wall slot opened; of size 1 when nobody
records.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
from numpy.typing import NDArray

from mazeart._graph import BITS, OPPOSITE_BITS
from mazeart._jit import before_compile, njit, readonly
from mazeart._rng import below, below_of, draw32
from mazeart.errors import MazeartError

MAX_SIDES = 62
"""The most neighbours a cell may have: the kernels keep a cell's sides as the bits of one
int64 (:func:`mazeart._kernels.carve.backtracker`)."""

__all__ = [
    "carve",
    "cell",
    "degree",
    "graph_topology",
    "grid_topology",
    "higher",
    "is_open",
    "join",
    "join_view",
    "lattice_topology",
    "lattice_walls",
    "look",
    "look_view",
    "narrow",
    "open_slot",
    "register",
    "rings_topology",
    "shut",
    "sides",
    "slot",
    "square_topology",
    "step",
    "step_view",
    "teach",
    "unusual",
    "usual",
    "view",
    "walk",
    "walker",
]


def _kind(topo: Any) -> int:
    """0 for the square grid (an array), 1 a lattice (5 items), 2 a graph (4), 3 rings (6)."""
    return 0 if isinstance(topo, np.ndarray) else _BY_LENGTH[len(topo)]


_BY_LENGTH = {5: 1, 4: 2, 6: 3}
_PREFIXES = ("_sq_", "_lt_", "_gr_", "_rg_")  # in the order of _kind
_IMPL: dict[str, tuple[Any, ...]] = {}  # each function's implementations, by kind (filled below)


def degree(topo: Any) -> int:
    return _IMPL["degree"][_kind(topo)](topo)


def sides(topo: Any, c: int) -> int:
    return _IMPL["sides"][_kind(topo)](topo, c)


def higher(topo: Any, c: int) -> int:
    return _IMPL["higher"][_kind(topo)](topo, c)


def usual(topo: Any) -> int:
    return _IMPL["usual"][_kind(topo)](topo)


def unusual(topo: Any, v: int) -> bool:
    return _IMPL["unusual"][_kind(topo)](topo, v)


def narrow(topo: Any, c: int) -> bool:
    return _IMPL["narrow"][_kind(topo)](topo, c)


def step(topo: Any, c: int, d: int) -> int:
    return _IMPL["step"][_kind(topo)](topo, c, d)


def look(topo: Any, c: int, d: int) -> int:
    return _IMPL["look"][_kind(topo)](topo, c, d)


def join(topo: Any, links: Any, order: Any, c: int, d: int, b: int) -> None:
    _IMPL["join"][_kind(topo)](topo, links, order, c, d, b)


def shut(topo: Any, links: Any, c: int, d: int, b: int) -> None:
    _IMPL["shut"][_kind(topo)](topo, links, c, d, b)


def is_open(topo: Any, links: Any, c: int, d: int) -> bool:
    return _IMPL["is_open"][_kind(topo)](topo, links, c, d)


def walk(topo: Any, free: Any, state: Any, c: int, aid: Any) -> tuple[int, int]:
    return _IMPL["walk"][_kind(topo)](topo, free, state, c, aid)


def walker(topo: Any, free: Any) -> Any:
    return _IMPL["walker"][_kind(topo)](topo, free)


def open_slot(topo: Any, links: Any, order: Any, s: int) -> None:
    _IMPL["open_slot"][_kind(topo)](topo, links, order, s)


def slot(topo: Any, c: int, d: int) -> int:
    return _IMPL["slot"][_kind(topo)](topo, c, d)


def view(topo: Any, c: int) -> int:
    return _IMPL["view"][_kind(topo)](topo, c)


def cell(topo: Any, v: int) -> int:
    return _IMPL["cell"][_kind(topo)](topo, v)


def look_view(topo: Any, v: int, d: int) -> int:
    return _IMPL["look_view"][_kind(topo)](topo, v, d)


def step_view(topo: Any, v: int, d: int) -> int:
    return _IMPL["step_view"][_kind(topo)](topo, v, d)


def join_view(topo: Any, links: Any, order: Any, v: int, d: int, b: int) -> None:
    _IMPL["join_view"][_kind(topo)](topo, links, order, v, d, b)


def square_topology(stride: int) -> NDArray[np.int64]:
    """The topology of a framed square grid ``stride`` cells wide (frame included).

    An array rather than a tuple: a random walk picks its step by a run-time
    index, which is one load from an array and a branch per case in a tuple.
    """
    s = int(stride)
    return np.array([-s, 1, s, -1], np.int64)


def graph_topology(
    indptr: NDArray[np.integer],
    indices: NDArray[np.integer],
    wall_of: NDArray[np.integer],
    wall_cells: NDArray[np.integer],
) -> tuple[NDArray[np.int32], NDArray[np.int32], int, NDArray[np.int32]]:
    """The topology of a grid given as a neighbour table (CSR): padded to its largest
    degree, ``-1`` where a cell has fewer neighbours."""
    deg = np.diff(indptr)
    n = len(deg)
    width = int(deg.max()) if deg.size else 1
    if width > MAX_SIDES:
        raise MazeartError(
            f"a cell of this grid has {width} neighbours; a maze's cells have {MAX_SIDES} at most"
        )
    nbr = np.full(n * width, -1, np.int32)
    wall = np.full(n * width, -1, np.int32)
    src = np.repeat(np.arange(n), deg)
    pos = np.arange(len(indices)) - np.repeat(np.asarray(indptr[:-1]), deg)
    nbr[src * width + pos] = indices
    wall[src * width + pos] = wall_of
    ends = np.ascontiguousarray(wall_cells, dtype=np.int32).reshape(-1, 2)
    return readonly((nbr, wall, width, ends))  # frozen: one compile of each kernel


def lattice_topology(
    steps: list[list[tuple[int, int]]], mixed: bool, cols: int
) -> tuple[NDArray[np.int64], int, tuple[tuple[int, ...], ...], int, int]:
    """The topology of a framed lattice ``cols`` cells wide (frame not included).

    ``steps[t]`` lists, for a cell of type ``t`` (0 or 1: the parity of its framed row,
    or with ``mixed`` of its framed row plus column), the step ``(dr, dc)`` to each
    neighbour in increasing order of the neighbours (lower ones first, since ids run
    row by row). Each step goes at most one row and one column.
    """
    width = max(len(s) for s in steps)
    if any(len(s) not in (width, width / 2) for s in steps):  # (see _lt_walk)
        raise ValueError("each type of cell has all of the widest type's sides or half")
    shift = max(2, int(cols + 1).bit_length())  # rows of 1 << shift >= cols + 2 cells
    stride = 1 << shift
    flat = [[dr * stride + dc for dr, dc in s] for s in steps]
    low = [sum(f < 0 for f in row) for row in flat]
    higher = max(len(row) - k for row, k in zip(flat, low, strict=True))
    klog = max(0, int(higher - 1).bit_length())
    table = np.zeros(6 * width + 4, np.int64)
    for t, row in enumerate(flat):
        table[t * width : t * width + len(row)] = row
        table[2 * width + t] = len(row)
        table[2 * width + 2 + t] = low[t]
        for d in range(len(row)):  # the wall's owner (the lower cell) and its place there
            if d < low[t]:
                dr, dc = steps[t][d]
                tb = (t + dr + (dc if mixed else 0)) % 2
                owner, place = row[d], flat[tb].index(-row[d]) - low[tb]
            else:
                owner, place = 0, d - low[t]
            table[4 * width + 4 + t * width + d] = owner
            table[2 * width + 4 + t * width + d] = place
    counts = tuple((0,) * k for k in (len(flat[0]), len(flat[1]), low[0], low[1], int(mixed)))
    return readonly((table, shift, counts, klog, int(bool(mixed))))


def rings_topology(counts: list[int]) -> tuple[Any, ...]:
    """The topology of the polar grid whose rings hold ``counts`` cells (the centre's 1
    first): each cell's ring (2 bytes a cell) and a row of numbers a ring, from which a
    cell's neighbours and walls follow in the order and numbering of the grid's own
    table (:func:`mazeart.grids.shapes.polar_grid`), so a kernel carves the same maze."""
    rings = len(counts)
    n_cells = sum(counts)
    ring = np.repeat(np.arange(rings, dtype=np.uint16), counts)
    tab = np.zeros(_ROW * rings, np.int64)
    first, base = 1, counts[1] if rings > 1 else 0
    for r in range(1, rings):
        n, last = counts[r], int(r == rings - 1)
        grows = 0 if last else counts[r + 1] // n
        grown = 3 if r == 1 else (n // counts[r - 1]).bit_length() - 1  # a shift (see below)
        if r > 1 and n != counts[r - 1] << grown:
            raise ValueError(f"ring {r} of {n} cells does not grow by 1 or 2 from {counts[r - 1]}")
        tab[_ROW * r : _ROW * r + 8] = (first, n, grown, grows, base, last, last + 1 + grows,
                                  first + n - (first << (grows >> 1)))  # fmt: skip
        first, base = first + n, base + n * (last + 1 + grows)
    width = (0,) * 6  # the centre's slots (a length, so a constant once compiled)
    _plain_rows(tab, rings)
    return readonly((ring, tab, width, rings, n_cells, 0))


def _plain_rows(tab: NDArray[np.int64], rings: int) -> None:
    """Fill the second eight numbers of each ring's row, ``row``, for its plain cells:
    the cells of a ring past the first whose cells grew one from each inward and grow one
    each outward, but its first and its last, where the ring wraps round. Neighbour
    ``d`` of such a cell ``c`` is ``c + row[2 + d]`` (the cell inward, the one before, the
    one after, the one outward); ``c`` is plain if ``c - row[0]``, unsigned, is at most
    ``row[1]`` (a ring with none: a start past every cell). Of the 983,515 cells of 565
    rings, 970,164 are plain."""
    rows = tab.reshape(rings, _ROW)[:, 8:]
    rows[:, 0] = 1 << 62
    for r in range(2, rings):
        first, n, grown, grows, _, last, _, out = (int(x) for x in tab[_ROW * r : _ROW * r + 8])
        if not (grown or grows != 1 or last or n < 3):
            inward = int(tab[_ROW * (r - 1)]) - first
            rows[r, :6] = (first + 1, n - 3, inward, -1, 1, out)


def grid_topology(grid: Any) -> tuple[Any, ...]:
    """The topology of a :class:`~mazeart.grids.Grid` in its own cell and wall ids, made
    once and kept in its cache: the grid's own where it has one (the polar grid's, from
    its rings), else its neighbour table's."""
    own = getattr(grid, "own_topology", None)
    topo = own() if own is not None else None
    if topo is not None:
        return topo
    cached = grid._cache.get("topology")
    if cached is None:
        cached = grid._cache["topology"] = graph_topology(
            grid.indptr, grid.indices, grid.wall_of, grid.wall_cells
        )
    return cached


@njit(cache=True)
def lattice_walls(topo, rows, cols, links, opened):  # type: ignore[no-untyped-def]
    """The walls of a framed lattice of ``rows`` by ``cols`` cells numbered as its explicit
    grid numbers them (cell by cell, each cell's walls to the outside first, then those to
    higher cells in their order); with ``links`` (the slots of a carve), ``opened[w]`` is
    set for every open wall ``w``. Returns the number of walls."""
    table, shift, counts, klog, mixed = topo
    width = degree(topo)
    mark = links.size > 0
    span = np.uint64(1 << klog)  # a cell's slots
    up0, up1 = len(counts[0]) - len(counts[2]), len(counts[1]) - len(counts[3])  # constants,
    two = len(counts[4]) > 0  # as whether the type is mixed
    count = 0
    for r in range(1, rows + 1):
        q = 1
        while q <= cols:
            if 1 < r < rows and 1 < q < cols:  # every neighbour is in the grid: the cells to
                inner = cols - 2  # the row's last but one, from an even column, two by two
                if mark:  # (the types at even and odd columns: r's parity, and the other
                    s = np.uint64(((np.int64(r) << shift) + q) << klog)  # one if mixed)
                    at = np.uint64(count)
                    if r & 1:
                        _copy_pairs(links, s, span, opened, at, inner, up1, up0 if two else up1)
                    else:
                        _copy_pairs(links, s, span, opened, at, inner, up0, up1 if two else up0)
                up_even = up1 if r & 1 else up0
                up_odd = (up0 if r & 1 else up1) if two else up_even
                count += (inner >> 1) * (up_even + up_odd) + (inner & 1) * up_even
                q = cols
            c = (np.int64(r) << shift) + q
            t = (r + q * mixed) & 1
            sides = table[2 * width + t]
            low = table[2 * width + 2 + t]
            first = count
            for d in range(sides):
                b = c + table[t * width + d]
                br = b >> shift
                bq = b - (br << shift)
                if br < 1 or br > rows or bq < 1 or bq > cols:
                    first += 1
            k = 0
            for d in range(low, sides):
                b = c + table[t * width + d]
                br = b >> shift
                bq = b - (br << shift)
                if 1 <= br <= rows and 1 <= bq <= cols:
                    if mark:
                        opened[first + k] = links[(c << klog) + d - low]
                    k += 1
            count = first + k
            q += 1
    return count


@njit(inline="always", cache=True)
def _copy_pairs(links, s, span, opened, at, cells, first, second):  # type: ignore[no-untyped-def]
    """Copy the higher slots of ``cells`` cells of a row, from slot ``s`` to wall ``at``, two
    by two: ``first`` of each pair's first cell's, ``second`` of the other's (constants where
    :func:`lattice_walls` calls it, so the copies unroll; unsigned indices: numba adds no
    wraparound)."""
    one = np.uint64(first)
    two = np.uint64(first + second)
    for _ in range(cells >> 1):
        for j in range(first):
            opened[at + np.uint64(j)] = links[s + np.uint64(j)]
        for j in range(second):
            opened[at + one + np.uint64(j)] = links[s + span + np.uint64(j)]
        s += span + span
        at += two
    if cells & 1:
        for j in range(first):
            opened[at + np.uint64(j)] = links[s + np.uint64(j)]


@njit(cache=True)
def carve(passages, order, a, d, b):  # type: ignore[no-untyped-def]
    """Open the passage from flat cell ``a`` in direction ``d`` (N E S W) to its neighbour
    ``b`` on the square grid (its topology's :func:`join`; the square-only kernels call it
    directly). Slots ``2c`` and ``2c + 1`` are a cell's east and south passages."""
    passages[a] |= BITS[d]
    passages[b] |= OPPOSITE_BITS[d]
    if order.size > 1:
        order[0] += 1
        if d == 1:
            order[1 + 2 * a] = order[0]
        elif d == 2:
            order[2 + 2 * a] = order[0]
        elif d == 3:
            order[1 + 2 * b] = order[0]
        else:
            order[2 + 2 * b] = order[0]


# ----------------------------------------------------------------------------- the square grid
# (numba compiles these where a kernel calls the functions above; Python runs them as they are)


def _sq_degree(topo):  # type: ignore[no-untyped-def]
    return 4


def _sq_sides(topo, c):  # type: ignore[no-untyped-def]
    return 4


def _sq_higher(topo, c):  # type: ignore[no-untyped-def]
    return 0


def _sq_narrow(topo, c):  # type: ignore[no-untyped-def]
    return False


def _sq_step(topo, c, d):  # type: ignore[no-untyped-def]
    return c + topo[d]


_sq_look = _sq_step


def _sq_join(topo, links, order, c, d, b):  # type: ignore[no-untyped-def]
    carve(links, order, c, d, b)


def _sq_shut(topo, links, c, d, b):  # type: ignore[no-untyped-def]
    links[c] &= ~BITS[d]
    links[b] &= ~OPPOSITE_BITS[d]


def _sq_is_open(topo, links, c, d):  # type: ignore[no-untyped-def]
    return (links[c] & BITS[d]) != 0


def _sq_walk(topo, free, state, c, aid):  # type: ignore[no-untyped-def]
    k = 0
    for d in range(4):
        if free[c + topo[d]]:
            aid[k] = d
            k += 1
    d = aid[0] if k == 1 else aid[below(state, k)]
    return d, c + topo[d]


def _sq_walker(topo, free):  # type: ignore[no-untyped-def]
    return np.empty(4, np.int64)


def _sq_open_slot(topo, links, order, s):  # type: ignore[no-untyped-def]
    # The cell west of the wall (s even) or north of it opens E (2) or S (4); the cell east
    # of it W (8), the one south N (1). Without a branch: which one is random.
    a = s >> 1
    south = s & 1
    links[a] |= 2 << south
    links[a + 1 + (topo[2] - 1) * south] |= 8 >> (3 * south)
    if order.size > 1:
        order[0] += 1
        order[1 + s] = order[0]


def _sq_slot(topo, c, d):  # type: ignore[no-untyped-def]
    # East 2c, south 2c + 1; north and west are the south and east of the cell there.
    # Without a branch: the sides are a kernel's inner loop, and which one is random.
    there = c + topo[d] * (((d + 1) & 2) == 0)  # north and west: the neighbour
    return 2 * there + ((d & 1) ^ 1)


# ----------------------------------------------------------------------------- a graph


def _gr_degree(topo):  # type: ignore[no-untyped-def]
    return topo[2]


def _gr_sides(topo, c):  # type: ignore[no-untyped-def]
    return topo[2]


def _gr_higher(topo, c):  # type: ignore[no-untyped-def]
    return 0


def _gr_usual(topo):  # type: ignore[no-untyped-def]
    return degree(topo)


def _gr_unusual(topo, v):  # type: ignore[no-untyped-def]
    return False


def _gr_narrow(topo, c):  # type: ignore[no-untyped-def]
    return False


def _gr_step(topo, c, d):  # type: ignore[no-untyped-def]
    return np.int64(topo[0][c * topo[2] + d])


def _gr_look(topo, c, d):  # type: ignore[no-untyped-def]
    nb = np.int64(topo[0][c * topo[2] + d])
    return nb if nb >= 0 else np.int64(c)


def _gr_join(topo, links, order, c, d, b):  # type: ignore[no-untyped-def]
    w = np.int64(topo[1][c * topo[2] + d])
    open_slot(topo, links, order, w)


def _gr_shut(topo, links, c, d, b):  # type: ignore[no-untyped-def]
    links[topo[1][c * topo[2] + d]] = False


def _gr_is_open(topo, links, c, d):  # type: ignore[no-untyped-def]
    return links[topo[1][c * topo[2] + d]]


def _gr_walk(topo, free, state, c, aid):  # type: ignore[no-untyped-def]
    width = topo[2]
    base = c * width
    while True:
        d = below(state, width)
        nb = np.int64(topo[0][base + d])
        if nb >= 0 and free[nb]:
            return d, nb


def _gr_walker(topo, free):  # type: ignore[no-untyped-def]
    return np.empty(0, np.int64)


def _gr_open_slot(topo, links, order, s):  # type: ignore[no-untyped-def]
    links[s] = True
    if order.size > 1:
        order[0] += 1
        order[1 + s] = order[0]


def _gr_slot(topo, c, d):  # type: ignore[no-untyped-def]
    return np.int64(topo[1][c * topo[2] + d])


def _gr_view(topo, c):  # type: ignore[no-untyped-def]
    return np.int64(c)


def _gr_cell(topo, v):  # type: ignore[no-untyped-def]
    return v


def _gr_look_view(topo, v, d):  # type: ignore[no-untyped-def]
    return look(topo, v, d)


def _gr_step_view(topo, v, d):  # type: ignore[no-untyped-def]
    return step(topo, v, d)


def _gr_join_view(topo, links, order, v, d, b):  # type: ignore[no-untyped-def]
    join(topo, links, order, v, d, b)


# (a view is the id: the square grid's are the graph's, which ask the topology itself)
_sq_view, _sq_cell, _sq_step_view, _sq_join_view = _gr_view, _gr_cell, _gr_step_view, _gr_join_view
_sq_look_view, _sq_usual, _sq_unusual = _gr_look_view, _gr_usual, _gr_unusual


# ----------------------------------------------------------------------------- a framed lattice
# (its counts are the lengths of the tuples in topo[2], constants once compiled: whether
# the type is mixed too, so a cell's type is a shift and an and, not a product)


@njit(cache=True)
def _lt_type(topo, c):  # type: ignore[no-untyped-def]
    return ((c >> topo[1]) + c * len(topo[2][4])) & 1


@njit(cache=True)
def _lt_of(topo, t, i):  # type: ignore[no-untyped-def]
    """Entry ``i`` of type ``t``'s row of the table (a row of ``degree`` entries)."""
    return topo[0][i + t * degree(topo)]  # (an address, not a choice between two loads:
    # LLVM makes such a choice a branch, and the type is random)


def _lt_degree(topo):  # type: ignore[no-untyped-def]
    return max(len(topo[2][0]), len(topo[2][1]))


def _lt_sides(topo, c):  # type: ignore[no-untyped-def]
    t = _lt_type(topo, c)
    return np.int64(len(topo[2][0]) if t == 0 else len(topo[2][1]))


def _lt_higher(topo, c):  # type: ignore[no-untyped-def]
    t = _lt_type(topo, c)
    return np.int64(len(topo[2][2]) if t == 0 else len(topo[2][3]))


def _lt_narrow(topo, c):  # type: ignore[no-untyped-def]
    return 2 * sides(topo, c) <= degree(topo)


def _lt_step(topo, c, d):  # type: ignore[no-untyped-def]
    if d >= sides(topo, c):
        return np.int64(-1)
    return look(topo, c, d)


def _lt_look(topo, c, d):  # type: ignore[no-untyped-def]
    return c + _lt_of(topo, _lt_type(topo, c), d)  # (a slot past the type's sides: 0)


def _lt_slot(topo, c, d):  # type: ignore[no-untyped-def]
    # Without a branch (which side is random): the wall's owner and its place there, read
    t = _lt_type(topo, c)  # from the table for either kind of side
    width = degree(topo)
    owner = c + _lt_of(topo, t, 4 * width + 4 + d)
    return (owner << topo[3]) + _lt_of(topo, t, 2 * width + 4 + d)


def _lt_join(topo, links, order, c, d, b):  # type: ignore[no-untyped-def]
    open_slot(topo, links, order, slot(topo, c, d))


def _lt_shut(topo, links, c, d, b):  # type: ignore[no-untyped-def]
    links[slot(topo, c, d)] = False


def _lt_is_open(topo, links, c, d):  # type: ignore[no-untyped-def]
    return links[slot(topo, c, d)]


def _lt_walk(topo, free, state, c, aid):  # type: ignore[no-untyped-def]
    width = degree(topo)
    while True:
        d = below(state, width)
        nb = step(topo, c, d)
        if nb < 0:  # past a cell's own sides, half the width's (an upsilon square): the
            d -= width >> 1  # upper half folded onto the lower, not drawn again
            nb = step(topo, c, d)
        if free[nb]:
            return d, nb


_lt_open_slot = _gr_open_slot


# ----------------------------------------------------------------------------- rings
# (the polar grid: tab[_ROW * r + i] holds, for ring r, 0 its first cell, 1 its cells, 2 the
# shift that takes a cell's place in its ring to that of the cell inward it grew from (0 or
# 1: one or two grew from each; 3 round the centre, whose six all grew from it), 3 how many
# grow from each outward, 4 its first wall, 5 whether it is the last ring, 6 the walls each
# cell but the first starts, 7 the first cell of the next ring less this ring's first cell
# times the cells grown from each (0, 1 or 2: a shift), so that the first grown from cell
# c is that plus c shifted, with no wait for the ring's first cell to be read)


def _rg_step(topo, c, d):  # type: ignore[no-untyped-def]
    return _rg_step_in(topo, c, np.int64(topo[0][c]), d, np.int64(-1))


def _rg_look(topo, c, d):  # type: ignore[no-untyped-def]
    return _rg_step_in(topo, c, np.int64(topo[0][c]), d, np.int64(c))


@njit(cache=True)
def _rg_step_in(topo, c, r, d, none):  # type: ignore[no-untyped-def]
    """Neighbour ``d`` of cell ``c`` of ring ``r``, ``none`` if it has none: for a side ``d``
    a kernel's unrolled loop makes a constant (its branches on ``d`` compiled away), and
    for a random walk's step (see :func:`_rg_walk`); a kernel's random choice of side
    takes :func:`_rg_pick_in`."""
    tab = topo[1]
    o = _ROW * r
    k = c - tab[o]
    if o == 0:  # the centre: its six ring cells, none when it is the only ring
        return np.int64(d + 1) if topo[3] > 1 else none
    if d == 0:  # the cell it grew from
        return tab[o - _ROW] + (k >> tab[o + 2])
    if d <= 2:  # either side in its ring, the lower first: the cell before and the one
        n = tab[o + 1]  # after, or at either end the one past the end wrapped round
        if k == 0:
            return c + 1 if d == 1 else c - 1 + n
        if k == n - 1:
            return c + 1 - n if d == 1 else c - 1
        return c - 1 if d == 1 else c + 1
    m = tab[o + 3]
    return tab[o + 7] + (c << (m >> 1)) + d - 3 if d - 3 < m else none


@njit(cache=True)
def _rg_pick_in(topo, c, r, d, none):  # type: ignore[no-untyped-def]
    """:func:`_rg_step_in` for a random side ``d``: each kind of side worked out and the
    one for ``d`` kept by arithmetic, where a branch on ``d`` would be mispredicted half
    the time."""
    tab = topo[1]
    o = _ROW * r
    if o == 0:
        return np.int64(d + 1) if topo[3] > 1 else none
    first = tab[o]
    k = c - first
    inward = tab[o - _ROW] + (k >> tab[o + 2])
    n = tab[o + 1]
    edge = c == first or c + 1 == first + n
    low = (c + 1 - n if c != first else c + 1) if edge else c - 1
    high = (c - 1 + n if c == first else c - 1) if edge else c + 1
    kept = d - 3 < tab[o + 3]
    out = (tab[o + 7] + (c << (tab[o + 3] >> 1)) + d - 3) * kept + none * (1 - kept)
    return inward * (d == 0) + low * (d == 1) + high * (d == 2) + out * (d >= 3)


def _rg_slot(topo, c, d):  # type: ignore[no-untyped-def]
    return _rg_slot_in(topo, c, np.int64(topo[0][c]), d)


@njit(cache=True)
def _rg_slot_in(topo, c, r, d):  # type: ignore[no-untyped-def]
    """The wall slot between cell ``c`` of ring ``r`` and its neighbour ``d``, for a ``d``
    a kernel's unrolled loop makes a constant: the one kind of wall worked out (a random
    side takes :func:`_rg_slot_pick`)."""
    if r == 0:
        return np.int64(d)
    tab = topo[1]
    k = c - tab[_ROW * r]
    if d == 0:
        return _rg_inward_wall(tab, r, k)
    if d >= 3:
        return _rg_outward_wall(tab, r, k, d)
    return _rg_spoke(tab, r, k, d)


@njit(cache=True)
def _rg_slot_pick(topo, c, r, d):  # type: ignore[no-untyped-def]
    """:func:`_rg_slot_in` for a random side ``d``: every kind of wall worked out, the one
    for ``d`` kept by arithmetic (see :func:`_rg_pick_in`)."""
    if r == 0:
        return np.int64(d)
    tab = topo[1]
    k = c - tab[_ROW * r]
    inward = _rg_inward_wall(tab, r, k)
    out = _rg_outward_wall(tab, r, k, d)
    spoke = _rg_spoke(tab, r, k, d)
    return inward * (d == 0) + spoke * ((0 < d) & (d < 3)) + out * (d >= 3)


@njit(cache=True)
def _rg_inward_wall(tab, r, k):  # type: ignore[no-untyped-def]
    """The wall of the ``k``-th cell of ring ``r`` (1 or more) to the cell it grew from:
    one of that cell's outer walls (round the centre, the centre's ``k``-th)."""
    o = _ROW * r
    p = k >> tab[o + 2]
    i = o - _ROW
    start = tab[i + 4] + p * tab[i + 6] + (p > 0)
    wall = start + tab[i + 5] + 1 + (p == 0) - (p == tab[i + 1] - 1) + k - (p << tab[o + 2])
    return wall + (k - wall) * (r == 1)


@njit(cache=True)
def _rg_outward_wall(tab, r, k, d):  # type: ignore[no-untyped-def]
    """The wall of the ``k``-th cell of ring ``r`` to its neighbour ``d`` (3 or more), one
    grown from it: its own outer walls."""
    o = _ROW * r
    n, last = tab[o + 1], tab[o + 5]
    start = tab[o + 4] + k * tab[o + 6] + (k > 0)
    return start + last + 1 + (k == 0) - (k == n - 1) + d - 3


@njit(cache=True)
def _rg_spoke(tab, r, k, d):  # type: ignore[no-untyped-def]
    """The wall of the ``k``-th cell of ring ``r`` to its neighbour ``d`` (1 or 2) in the
    ring: the spoke after it, or after the cell before it (the last cell's spoke after it
    is the first cell's second wall)."""
    o = _ROW * r
    n, last = tab[o + 1], tab[o + 5]
    back = (d == 1) == ((0 < k) & (k < n - 1))
    j = k + back * ((k - 1 if k > 0 else n - 1) - k)
    return tab[o + 4] + last + (j != n - 1) * (j * tab[o + 6] + (j > 0)) + (j == n - 1)


def _rg_degree(topo):  # type: ignore[no-untyped-def]
    return len(topo[2])


def _rg_sides(topo, c):  # type: ignore[no-untyped-def]
    o = _ROW * np.int64(topo[0][c])  # the centre: six, or none when it is the only ring
    return np.int64(3) + topo[1][o + 3] if o else np.int64(len(topo[2]) * (topo[3] > 1))


def _rg_usual(topo):  # type: ignore[no-untyped-def]
    return 4  # the cell grown from, the two beside, one grown (a constant, once compiled)


def _rg_unusual(topo, v):  # type: ignore[no-untyped-def]
    o = _ROW * ((v >> _RING) & _RINGS)  # the centre, or a cell two grow from
    return (o == 0) | (topo[1][o + 3] > 1)


def _rg_higher(topo, c):  # type: ignore[no-untyped-def]
    # the cell a ring cell grew from (side 0) is inward: lower; the centre's six are higher
    return np.int64(topo[0][c] > 0)


def _rg_walk(topo, free, state, c, aid):  # type: ignore[no-untyped-def]
    while True:
        u = draw32(state)
        d = below_of(u, 4)
        nb = np.int64(aid[4 * c + d]) if aid.size else np.int64(-1)
        if nb < 0:  # not four sides: the same draw over the cell's own, each with a
            d = below_of(u, sides(topo, c))  # neighbour
            nb = step(topo, c, d)
        if free[nb]:
            return d, nb


def _rg_walker(topo, free):  # type: ignore[no-untyped-def]
    # (none past 2**31 cells, beyond int32: each step then works its neighbour out)
    ring, tab = topo[0], topo[1]
    n = ring.size if ring.size < 2**31 else 0
    near = np.empty(4 * n, np.int32)
    for c in range(n):
        r = np.int64(ring[c])
        four = free[c] and r > 0 and tab[_ROW * r + 3] == 1
        for d in range(4):
            near[4 * c + d] = _rg_step_in(topo, c, r, d, np.int64(-1)) if four else -1
    return near


_rg_join, _rg_shut, _rg_is_open = _lt_join, _lt_shut, _lt_is_open

_RING = 40
"""A view of a polar cell holds its ring from this bit up, its id below."""
_ROW = 16
"""Numbers a ring in the rings' table: eight for every ring, eight for its plain cells."""
_ID = (1 << _RING) - 1
"""The bits of a polar cell's view that hold its id."""
_RINGS = (1 << 23) - 1
"""The bits of a polar cell's view that hold its ring, once shifted down (masked: then
numba's code knows the ring is not negative, and indexes the ring table with no check
for an index from the end)."""


def _rg_view(topo, c):  # type: ignore[no-untyped-def]
    return np.int64(c) | (np.int64(topo[0][c]) << _RING)


def _rg_cell(topo, v):  # type: ignore[no-untyped-def]
    return v & _ID


def _rg_step_view(topo, v, d):  # type: ignore[no-untyped-def]
    c = v & _ID
    r = (v >> _RING) & _RINGS
    nb = _rg_pick_in(topo, c, r, d, np.int64(-1))
    # the cell it grew from is a ring in, those grown from it a ring out (the centre's six
    # are ring 1), the two beside it in its ring (by arithmetic: d is a random side)
    there = r + ((r == 0) | (d >= 3)) - ((r != 0) & (d == 0))
    return nb if nb < 0 else nb | (there << _RING)


def _rg_look_view(topo, v, d):  # type: ignore[no-untyped-def]
    # A plain cell's neighbour is the cell plus one number read, where the sums wait on
    # the ring's numbers: the looks lie on the backtracker's one long chain of steps (9 %
    # faster so). Whether the cell is plain is one branch, the same nearly always; d is a
    # constant in a kernel's loop over the slots.
    c = v & _ID
    r = (v >> _RING) & _RINGS
    if d < 4 and _rg_plain(topo, c, r):
        return c + topo[1][_ROW * r + 10 + d]
    return _rg_pick_in(topo, c, r, d, c)


@njit(cache=True)
def _rg_plain(topo, c, r):  # type: ignore[no-untyped-def]
    """Whether cell ``c`` of ring ``r`` is plain (:func:`_plain_rows`)."""
    o = _ROW * r + 8
    return np.uint64(c - topo[1][o]) <= np.uint64(topo[1][o + 1])


def _rg_join_view(topo, links, order, v, d, b):  # type: ignore[no-untyped-def]
    c = v & _ID
    open_slot(topo, links, order, _rg_slot_pick(topo, c, (v >> _RING) & _RINGS, d))


_REGISTERED: list[bool] = []


@before_compile
def register() -> None:
    """Teach numba the topology functions (once, before the first kernel that uses them
    compiles: :func:`mazeart._jit.before_compile` runs it): each compiles to the square
    grid's or a graph's implementation, chosen by the topology's type."""
    if _REGISTERED:
        return
    _REGISTERED.append(True)
    here = globals()
    teach(here, [name for name in __all__ if f"_sq_{name}" in here])


def teach(namespace: dict[str, Any], names: list[str] | tuple[str, ...]) -> None:
    """Make each function ``names[i]`` of ``namespace`` compile, wherever a kernel calls it,
    to the square grid's ``_sq_<name>``, a lattice's ``_lt_<name>``, a graph's
    ``_gr_<name>`` or the rings' ``_rg_<name>`` (the graph's where a lattice or the rings
    have none), chosen by the type of its first argument (the topology). Called once per
    module, before the first compile."""
    from numba import types
    from numba.extending import overload

    def typed(impl: tuple[Any, ...]) -> Any:
        def choose(*args):  # type: ignore[no-untyped-def]
            if isinstance(args[0], types.Array):
                return impl[0]
            return impl[_BY_LENGTH[len(args[0])]]

        choose.__signature__ = inspect.signature(impl[0])  # type: ignore[attr-defined]
        return choose

    for name in names:
        overload(namespace[name])(typed(implementations(namespace, name)))


def implementations(namespace: dict[str, Any], name: str) -> tuple[Any, ...]:
    """The implementations of ``name`` in ``namespace`` for each kind of topology, in the
    order of :func:`_kind`: the graph's stands in for a lattice's or the rings' missing."""
    graph = namespace["_gr_" + name]
    return tuple(namespace.get(prefix + name, graph) for prefix in _PREFIXES)


_IMPL.update(
    {name: implementations(globals(), name) for name in __all__ if "_gr_" + name in globals()}
)
