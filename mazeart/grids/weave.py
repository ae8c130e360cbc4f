"""Weave mazes: corridors that pass under each other on the square grid.

A weave maze is a maze on another grid on the weave grid
(:func:`weave_grid`): the square cells, and beneath every interior cell an *under
node* joined to that cell's four neighbours by tunnel walls. A crossing is only
allowed through a straight perpendicular passage, as in the usual construction: an
under node is in the maze only with exactly two passages, to opposite cells (north
and south, or east and west), and then its own cell is in the maze with exactly two
passages, to the other two cells (a straight corridor over it); an under node not in
the maze has no passages (:func:`check_weave`). Every solver, metric and the saved
format see an ordinary graph on an ordinary grid.

:func:`weave_maze` generates one with Kruskal's algorithm, crossings placed first;
:func:`weave_walls` and :func:`weave_floor` draw it the usual way, each cell an inset
box and each passage a strip between boxes, the corridor under a crossing showing in
the gap its walls leave.

>>> import numpy as np
>>> maze = weave_maze(np.zeros((8, 8), np.int32), 3, density=0.5)
>>> check_weave(maze)
>>> int(maze.mask[64:].sum()) > 0  # some corridors pass under others
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mazeart._jit import njit
from mazeart._rng import RngLike, as_generator, below, fresh_seed, kernel_state
from mazeart.errors import InvalidMazeError, MazeartError, check_choice, check_number
from mazeart.generators import default_endpoints
from mazeart.grids._weavegrid import STEP, under_layout, weave_grid
from mazeart.grids.core import Grid
from mazeart.maze import Maze
from mazeart.weights import validate_weights

__all__ = ["check_weave", "weave_floor", "weave_grid", "weave_maze", "weave_outline", "weave_walls"]

_N, _E, _S, _W = 1, 2, 4, 8
"""One bit per side of a square cell: north, east, south, west (directions 0 to 3)."""
_STRAIGHT = (_N | _S, _E | _W)


# ----------------------------------------------------------------------------- generating


@njit(cache=True)
def _find(parent, a):
    root = a
    while parent[root] != root:
        root = parent[root]
    while parent[a] != root:
        nxt = parent[a]
        parent[a] = root
        a = nxt
    return root


@njit(cache=True)
def _kruskal_weave(rows, cols, free, crossable, density, state):
    """Kruskal's algorithm with crossings placed first, on flat arrays; only a
    ``crossable`` cell may be a crossing.

    Returns ``east`` (passage from cell ``i`` to ``i + 1``), ``south`` (from ``i`` to
    ``i + cols``), ``cross`` per cell (0 none, 1 the cell's corridor runs north-south
    over an east-west one, 2 east-west over north-south) and how many crossings had
    to become plain junctions to keep a free part in one piece.
    """
    n = rows * cols
    inner = max(cols - 2, 0)
    parent = np.arange(n + max(rows - 2, 0) * inner)
    east = np.zeros(n, np.bool_)
    south = np.zeros(n, np.bool_)
    cross = np.zeros(n, np.int8)
    cand = np.empty(n, np.int64)
    m = 0
    for r in range(1, rows - 1):
        for c in range(1, cols - 1):
            i = r * cols + c
            if (crossable[i] and free[i] and free[i - cols] and free[i + 1]
                    and free[i + cols] and free[i - 1]):  # fmt: skip
                cand[m] = i
                m += 1
    target = int(density * m + 0.5)
    for k in range(m - 1, 0, -1):  # Fisher-Yates
        j = below(state, k + 1)
        cand[k], cand[j] = cand[j], cand[k]
    ids = np.empty(5, np.int64)
    roots = np.empty(5, np.int64)
    placed = 0
    for k in range(m):
        if placed >= target:
            break
        i = cand[k]
        ids[0], ids[1], ids[2], ids[3], ids[4] = i, i - cols, i + 1, i + cols, i - 1
        if cross[ids[1]] or cross[ids[2]] or cross[ids[3]] or cross[ids[4]]:
            continue
        apart = True
        for a in range(5):
            roots[a] = _find(parent, ids[a])
            for b in range(a):
                if roots[a] == roots[b]:
                    apart = False
        if not apart:
            continue
        u = n + (i // cols - 1) * inner + (i % cols - 1)
        if below(state, 2) == 0:  # over north-south, under east-west
            south[i - cols] = True
            south[i] = True
            parent[roots[1]] = roots[0]
            parent[roots[3]] = roots[0]
            parent[roots[2]] = u
            parent[roots[4]] = u
            cross[i] = 1
        else:  # over east-west, under north-south
            east[i - 1] = True
            east[i] = True
            parent[roots[2]] = roots[0]
            parent[roots[4]] = roots[0]
            parent[roots[1]] = u
            parent[roots[3]] = u
            cross[i] = 2
        placed += 1
    # the other walls between free cells, none of a crossing cell's
    edges = np.empty(2 * n, np.int64)
    m = 0
    for i in range(n):
        if not free[i] or cross[i]:
            continue
        if i % cols + 1 < cols and free[i + 1] and not cross[i + 1]:
            edges[m] = 2 * i
            m += 1
        if i + cols < n and free[i + cols] and not cross[i + cols]:
            edges[m] = 2 * i + 1
            m += 1
    for k in range(m - 1, 0, -1):
        j = below(state, k + 1)
        edges[k], edges[j] = edges[j], edges[k]
    for k in range(m):
        i = edges[k] // 2
        down = edges[k] % 2 == 1
        a = _find(parent, i)
        b = _find(parent, i + cols if down else i + 1)
        if a != b:
            parent[a] = b
            if down:
                south[i] = True
            else:
                east[i] = True
    # a crossing whose two corridors stayed apart (a free part that only joins through
    # the crossing cell's sides) becomes a plain junction: its part is one tree again
    undone = 0
    for i in range(n):
        if cross[i] == 0:
            continue
        u = n + (i // cols - 1) * inner + (i % cols - 1)
        a, b = _find(parent, i), _find(parent, u)
        if a == b:
            continue
        parent[a] = b
        if cross[i] == 1:
            east[i - 1] = True
            east[i] = True
        else:
            south[i - cols] = True
            south[i] = True
        cross[i] = 0
        undone += 1
    return east, south, cross, undone


def _wall_ids(grid: Grid, a: NDArray[np.intp], b: NDArray[np.intp]) -> NDArray[np.intp]:
    """The walls between cells ``a[k]`` and ``b[k]`` (neighbours, ``a < b``), looked up in
    the wall table sorted by its two cells."""
    span = grid.n_cells + 1
    keys = grid.wall_cells[:, 0].astype(np.int64) * span + grid.wall_cells[:, 1] + 1
    return np.searchsorted(keys, np.asarray(a, np.int64) * span + np.asarray(b) + 1)


def weave_maze(
    weights: ArrayLike,
    rng: RngLike = None,
    *,
    density: float = 0.2,
    islands: str = "connect",
    rooms: Any = None,
    entrance: tuple[int, int] | None = None,
    exit: tuple[int, int] | None = None,
) -> Maze:
    """A weave maze on a preset: Kruskal's algorithm with crossings placed first.

    Crossings go first, at random interior free cells whose four neighbours are free
    and no crossings themselves, as many as ``density`` (a share of those eligible
    cells) allows: each only when the cell and its four neighbours are all in different
    sets (so no crossing closes a loop), its over direction at random. Kruskal's
    algorithm then joins the other walls between free cells in random order (never a
    wall of a crossing cell but its straight over passage), so that every free part
    becomes one spanning tree of its cells and used under nodes. A crossing whose two
    corridors would stay in different pieces (a part joined only through it) becomes a
    plain junction. Separate parts are then joined by bridges that avoid crossing
    cells and under nodes (:func:`~mazeart.shape.connect`), and the
    entrance and exit are two boundary cells far apart
    (:func:`~mazeart.generators.default_endpoints`; an under node is never ground,
    so none makes its neighbours boundary cells).

    Parameters
    ----------
    weights : (H, W) array_like of int
        A square preset: ``0`` free, anything else (``1000`` forbidden) left alone.
    rng : int or numpy.random.Generator, optional
        Default: a fresh seed (recorded).
    density : float, default 0.2
        The share of eligible cells tried as crossings, in ``[0, 1]``.
    islands : {'connect', 'separate'}, default 'connect'
        Join the free parts with bridges into one maze, or leave them apart.
    rooms : room specs, optional
        Rooms as :func:`mazeart.generate` takes them (or coded in the preset): open
        areas entered only through their doors. No crossing lies within two cells of a
        room, so no corridor passes under a door, and the maze stays a tree with each
        room counted as one cell.
    entrance, exit : (int, int), optional
        Square cells ``(row, col)`` of the maze to enter and leave by (its door on the
        outside the cell faces); with one given, the other is the cell farthest from it.

    Returns
    -------
    Maze
        On the weave grid of ``H`` rows and ``W`` columns; ``meta`` records
        ``algorithm='kruskal-weave'``, ``seed`` (``None`` for a Generator),
        ``grid='weave'``, ``density`` and ``islands``.

    Raises
    ------
    MazeartError
        For a bad preset, a density outside ``[0, 1]``, an unknown ``islands`` or a
        preset without free cells.

    Examples
    --------
    >>> maze = weave_maze(np.zeros((5, 6), np.int32), 1, density=1.0)
    >>> maze.grid.kind, maze.meta["algorithm"], maze.n_passages == maze.n_cells - 1
    ('weave', 'kruskal-weave', True)
    """
    from mazeart.rooms import rooms_from_weights, stamp_rooms
    from mazeart.weights import ROOM

    w = validate_weights(weights)
    density = check_number(density, "density", low=0.0, high=1.0)
    check_choice(islands, "islands", ("connect", "separate"))
    if rooms:
        w, room_list = stamp_rooms(w, rooms)
    else:
        room_list = rooms_from_weights(w) if int(w.max()) > ROOM else []
    rows, cols = w.shape
    free = np.ascontiguousarray(w.reshape(-1) == 0)
    if not free.any():
        raise MazeartError("the preset has no free cell: there is nothing to carve")
    given = None if isinstance(rng, np.random.Generator) else fresh_seed() if rng is None else rng
    generator = as_generator(rng if given is None else given)
    grid = weave_grid(rows, cols)
    crossable = free if not room_list else _away_from(room_list, rows, cols, 2)
    east, south, cross, _ = _kruskal_weave(rows, cols, free, crossable, density,
                                           kernel_state(generator))  # fmt: skip
    n = rows * cols
    cell_of, under_of = under_layout(rows, cols)
    i = np.arange(n)
    ns, ew = np.flatnonzero(cross == 1), np.flatnonzero(cross == 2)
    lo = np.concatenate([i[east], i[south], ns - 1, ns + 1, ew - cols, ew + cols])
    hi = np.concatenate([i[east] + 1, i[south] + cols, *[under_of[x] for x in (ns, ns, ew, ew)]])
    opened = np.zeros(grid.n_walls, bool)
    opened[_wall_ids(grid, lo, hi)] = True
    mask = np.concatenate([free, np.zeros(cell_of.size, bool)])
    mask[under_of[cross > 0]] = True
    maze = Maze(mask, opened, grid=grid)
    if room_list:
        from mazeart.rooms import Door, Room
        from mazeart.shape import install_rooms

        def at(cell: tuple[int, int]) -> int:
            return int(cell[0]) * cols + int(cell[1])

        as_ids = [Room(tuple(at(c) for c in room.cells),
                       tuple(Door(at(d.cell), at(d.outside)) for d in room.doors),
                       name=room.name, kind=room.kind) for room in room_list]  # fmt: skip
        crossing = np.concatenate([cross > 0, np.ones(cell_of.size, bool)])  # and under nodes
        wc = grid.wall_cells
        keep = crossing[wc[:, 0]] | ((wc[:, 1] >= 0) & crossing[np.maximum(wc[:, 1], 0)])
        maze = install_rooms(maze, as_ids, keep=keep)
    if islands == "connect":  # bridges keep off the crossings and the under nodes
        from mazeart.shape import connect

        maze = connect(maze)
    ends = [_square_cell(e, what, rows, cols) for e, what in ((entrance, "entrance"),
                                                            (exit, "exit"))]  # fmt: skip
    if ends == [None, None]:
        first, last = default_endpoints(maze)  # under nodes are no ground: no door faces one
    else:
        from mazeart.generators import _with_ends

        placed = _with_ends(maze, ends[0], ends[1], None)
        first, last = placed.entrance, placed.exit
    meta: dict[str, Any] = {
        "algorithm": "kruskal-weave",
        "seed": None if given is None else int(given),
        "grid": "weave",
        "density": density,
        "islands": islands,
    }
    return maze.replace(entrance=first, exit=last, meta=meta)


def _square_cell(cell: Any, what: str, rows: int, cols: int) -> int | None:
    """The id of square cell ``(row, col)`` of a weave grid, checked; None for None."""
    if cell is None:
        return None
    try:
        r, c = (int(v) for v in cell)
    except (TypeError, ValueError):
        raise MazeartError(f"{what} must be (row, col), got {cell!r}") from None
    if not (0 <= r < rows and 0 <= c < cols):
        raise MazeartError(f"{what} {(r, c)} is outside the {rows} x {cols} grid")
    return r * cols + c


def _away_from(rooms: list[Any], rows: int, cols: int, reach: int) -> NDArray[np.bool_]:
    """Cells more than ``reach`` steps (north, east, south, west) from every room cell."""
    near = np.zeros((rows, cols), bool)
    for room in rooms:
        for r, c in room.cells:
            near[int(r), int(c)] = True
    for _ in range(reach):
        grown = near.copy()
        grown[1:] |= near[:-1]
        grown[:-1] |= near[1:]
        grown[:, 1:] |= near[:, :-1]
        grown[:, :-1] |= near[:, 1:]
        near = grown
    return np.ascontiguousarray(~near.reshape(-1))


# ----------------------------------------------------------------------------- the rule


def _sides(maze: Maze) -> tuple[NDArray[np.uint8], NDArray[np.uint8], NDArray[np.uint8]]:
    """Which sides of each square cell its passages go through, as bits (:data:`_N` ...).

    Returns ``level`` (the cell's own corridor: to a neighbour, or into the tunnel under
    one), ``square`` (only the passages to neighbouring square cells) and ``under``
    (the corridor of the cell's under node), each ``(rows * cols,)``.
    """
    g = maze.grid
    if g.kind != "weave":
        raise InvalidMazeError(f"a weave maze lies on the weave grid, not the {g.kind} grid")
    rows, cols = int(g.params["rows"]), int(g.params["cols"])
    n = rows * cols
    cell_of, _ = under_layout(rows, cols)
    if g.n_cells != n + cell_of.size:
        raise InvalidMazeError(f"the weave grid of {rows} x {cols} has {g.n_cells} cells")
    links = maze.links()
    a, b = links[:, 0], links[:, 1]
    level = np.zeros(n, np.uint8)
    square = np.zeros(n, np.uint8)
    under = np.zeros(n, np.uint8)
    flat = b < n
    fa, fb = a[flat], b[flat]
    down = fb - fa == cols  # else across (a single column has no east neighbours)
    np.bitwise_or.at(square, fa, np.where(down, _S, _E).astype(np.uint8))
    np.bitwise_or.at(square, fb, np.where(down, _N, _W).astype(np.uint8))
    level |= square
    top = cell_of[b[~flat] - n]  # the cell over each tunnel's under node
    other = a[~flat]
    step = other - top
    bits = np.select([step == -cols, step == 1, step == cols], [_N, _E, _S], _W).astype(np.uint8)
    np.bitwise_or.at(under, top, bits)
    # the neighbour's corridor leaves through its side facing the under node
    np.bitwise_or.at(level, other, ((bits << 2) | (bits >> 2)) & 15)
    return level, square, under


def check_weave(maze: Maze) -> None:
    """Check the weave rule: every crossing is a straight corridor over a straight one.

    An under node is in the maze only with exactly two passages, to opposite cells
    (north and south, or east and west), and then its own cell is in the maze with
    exactly two passages, to the other two cells; an under node not in the maze has no
    passages.

    Parameters
    ----------
    maze : Maze
        A maze on the weave grid.

    Raises
    ------
    InvalidMazeError
        Naming the first under node or cell that breaks the rule, or for a maze on
        another grid.

    Examples
    --------
    >>> g = weave_grid(3, 3)
    >>> pairs = [(1, 9), (7, 9), (3, 4), (4, 5)]  # 1-7 under cell 4, 3-5 over it
    >>> opened = np.isin(np.arange(g.n_walls), [g.wall_between(a, b) for a, b in pairs])
    >>> check_weave(Maze(np.ones(10, bool), opened, grid=g))
    >>> turn = np.isin(np.arange(g.n_walls), [g.wall_between(1, 9), g.wall_between(3, 9)])
    >>> try:
    ...     check_weave(Maze(np.ones(10, bool), turn, grid=g))
    ... except InvalidMazeError as exc:
    ...     print(exc)
    under node 9 (under cell 4) has passages through N, W, not N and S or E and W
    """
    level, square, under = _sides(maze)
    g = maze.grid
    n = level.size
    cell_of, _ = under_layout(int(g.params["rows"]), int(g.params["cols"]))
    used = maze.mask[n:]
    deg = maze.degree()
    bad = np.flatnonzero(~used & (deg[n:] > 0))
    if bad.size:
        u = int(n + bad[0])
        raise InvalidMazeError(f"under node {u} is not in the maze but has passages")
    bits = under[cell_of]
    bad = np.flatnonzero(used & ~np.isin(bits, _STRAIGHT))
    if bad.size:
        k = int(bad[0])
        sides = ", ".join(s for s, bit in zip("NESW", (_N, _E, _S, _W), strict=True)
                          if bits[k] & bit) or "no side"  # fmt: skip
        raise InvalidMazeError(
            f"under node {n + k} (under cell {int(cell_of[k])}) has passages through "
            f"{sides}, not N and S or E and W"
        )
    top = cell_of[used]
    wrong = ~maze.mask[top] | (deg[top] != 2) | (square[top] != (15 ^ bits[used]))
    if wrong.any():
        c = int(top[np.argmax(wrong)])
        raise InvalidMazeError(
            f"cell {c} over a corridor that passes under it is not a straight corridor "
            f"across it (exactly two passages, to its other two sides)"
        )


# ----------------------------------------------------------------------------- drawing


def _check_inset(inset: float) -> float:
    inset = check_number(inset, "inset", low=0.0, low_open=True, high=0.5)
    if inset >= 0.5:
        raise MazeartError(f"inset must be below 0.5 (half a cell), got {inset!r}")
    return inset


def _doors(maze: Maze) -> NDArray[np.uint8]:
    """The side each square end (entrance, exit) opens through, as bits per cell: a side
    on the grid's edge if it has one, else a side towards the ground around the maze
    (:attr:`~mazeart.maze.Maze.outside`, not a hole in it); among several, the
    one whose midpoint lies farthest from the maze's middle."""
    g = maze.grid
    rows, cols = int(g.params["rows"]), int(g.params["cols"])
    n = rows * cols
    out = np.zeros(n, np.uint8)
    middle = g.centres[maze.mask].mean(axis=0)
    for cell in {maze.entrance, maze.exit} - {None}:
        assert cell is not None
        if cell >= n:
            continue
        r, c = divmod(cell, cols)
        nr, nc = r + STEP[:, 0], c + STEP[:, 1]
        edge = (nr < 0) | (nr >= rows) | (nc < 0) | (nc >= cols)
        ground = ~edge & maze.outside[np.where(edge, 0, nr * cols + nc)]
        pick = np.flatnonzero(edge if edge.any() else ground)
        if not pick.size:
            continue
        mid = np.array([c + 0.5, r + 0.5]) + 0.5 * STEP[pick][:, ::-1]
        d = int(pick[np.argmax(np.hypot(*(mid - middle).T))])
        out[cell] |= 1 << d
    return out


def _merge(key: NDArray[np.float64], lo: NDArray[np.float64], hi: NDArray[np.float64]) -> Any:
    """Join collinear segments ``lo .. hi`` on the same line ``key`` that touch or overlap
    into runs; returns the runs' ``key``, ``lo`` and ``hi``."""
    if key.size == 0:
        return key, lo, hi
    order = np.lexsort((lo, key))
    key, lo, hi = key[order], lo[order], hi[order]
    line = np.concatenate([[0], np.cumsum(np.abs(np.diff(key)) > 1e-9)])
    span = float(max(hi.max() - lo.min(), 1.0)) * 4.0 + 4.0
    shift = line * span  # lines apart: a running maximum never reaches the next line
    reach = np.maximum.accumulate(hi + shift)
    start = np.ones(key.size, bool)
    start[1:] = lo[1:] + shift[1:] > reach[:-1] + 1e-9
    first = np.flatnonzero(start)
    return key[first], lo[first], np.maximum.reduceat(hi, first)


def weave_walls(maze: Maze, *, inset: float = 0.2) -> list[NDArray[np.float64]]:
    """The walls of the usual weave drawing, as polylines.

    Each maze cell is a box ``inset`` in from its sides and each passage a strip between
    two boxes, as wide as a box; the walls are the boundary of that floor. At a
    crossing, the over corridor's two side lines run straight across the cell and the
    under corridor's side lines stop at them, leaving the gap that shows the corridor
    passing under. The entrance and the exit open through a side on the outside of the
    maze (the grid's edge if they touch it).

    Parameters
    ----------
    maze : Maze
        A maze on the weave grid that keeps the weave rule (:func:`check_weave`).
    inset : float, default 0.2
        The margin between a box and its cell's sides, in ``(0, 0.5)`` units.

    Returns
    -------
    list of (2, 2) ndarray of float64
        Straight walls in the grid's units (``x`` across, ``y`` down), collinear pieces
        that touch joined into one.

    Raises
    ------
    InvalidMazeError
        For a maze that breaks the weave rule or is on another grid.
    MazeartError
        For an inset outside ``(0, 0.5)``.

    Examples
    --------
    >>> g = weave_grid(1, 2)
    >>> opened = np.arange(g.n_walls) == g.wall_between(0, 1)
    >>> maze = Maze(np.ones(2, bool), opened, grid=g)
    >>> [w.tolist() for w in weave_walls(maze, inset=0.25)]  # doctest: +NORMALIZE_WHITESPACE
    [[[0.25, 0.25], [1.75, 0.25]], [[0.25, 0.75], [1.75, 0.75]],
     [[0.25, 0.25], [0.25, 0.75]], [[1.75, 0.25], [1.75, 0.75]]]
    """
    inset = _check_inset(inset)
    check_weave(maze)
    level, between, under = _sides(maze)
    cols = int(maze.grid.params["cols"])
    n = level.size
    doors = _doors(maze)
    through = level | under | doors
    level = level | doors
    cells = np.flatnonzero(maze.mask[:n])
    r, c = np.divmod(cells, cols)
    x0, y0 = c.astype(np.float64), r.astype(np.float64)
    x1, y1 = (c + 1).astype(np.float64), (r + 1).astype(np.float64)
    xa, xb, ya, yb = x0 + inset, x1 - inset, y0 + inset, y1 - inset
    own, past = level[cells], through[cells]
    flat: list[tuple[NDArray[np.float64], ...]] = []  # (y, x from, x to)
    tall: list[tuple[NDArray[np.float64], ...]] = []  # (x, y from, y to)

    post = ~_open_corners(between, cols)  # the strips' side lines beside one are left out

    def box(bit: int) -> NDArray[np.bool_]:
        return (own & bit) == 0

    def strip(bit: int, corner_r: NDArray[np.intp], corner_c: NDArray[np.intp]) -> NDArray:
        return ((past & bit) != 0) & post[corner_r, corner_c]

    k = box(_N)
    flat.append((ya[k], xa[k], xb[k]))
    k = box(_S)
    flat.append((yb[k], xa[k], xb[k]))
    k = box(_W)
    tall.append((xa[k], ya[k], yb[k]))
    k = box(_E)
    tall.append((xb[k], ya[k], yb[k]))
    for edge, cc in ((xa, c), (xb, c + 1)):
        k = strip(_N, r, cc)
        tall.append((edge[k], y0[k], ya[k]))
        k = strip(_S, r + 1, cc)
        tall.append((edge[k], yb[k], y1[k]))
    for edge, rr in ((ya, r), (yb, r + 1)):
        k = strip(_W, rr, c)
        flat.append((edge[k], x0[k], xa[k]))
        k = strip(_E, rr, c + 1)
        flat.append((edge[k], xb[k], x1[k]))
    y, xl, xr = _merge(*(np.concatenate(z) for z in zip(*flat, strict=True)))
    x, yt, yd = _merge(*(np.concatenate(z) for z in zip(*tall, strict=True)))
    segments = np.concatenate([
        np.stack([np.stack([xl, y], axis=1), np.stack([xr, y], axis=1)], axis=1),
        np.stack([np.stack([x, yt], axis=1), np.stack([x, yd], axis=1)], axis=1),
    ])  # fmt: skip
    return list(segments)


def weave_outline(maze: Maze, *, inset: float = 0.2) -> NDArray[np.float64]:
    """The weave maze's outer wall: the cell sides between its square cells and the rest
    (the ground, a hole, the grid's edge), as segments ``x0, y0, x1, y1``. Each door leaves
    its corridor's width open in the side it opens through.

    Parameters
    ----------
    maze : Maze
        A maze on the weave grid.
    inset : float, default 0.2
        As for :func:`weave_walls`: a door's opening runs from ``inset`` to ``1 - inset``
        along its side.

    Returns
    -------
    (K, 4) ndarray of float64
    """
    inset = _check_inset(inset)
    g = maze.grid
    rows, cols = int(g.params["rows"]), int(g.params["cols"])
    inner = maze.mask[: rows * cols].reshape(rows, cols)
    doors = _doors(maze).reshape(rows, cols)
    pad = np.pad(inner, 1)
    segs = []
    for bit, (dr, dc) in ((_N, (-1, 0)), (_S, (1, 0)), (_W, (0, -1)), (_E, (0, 1))):
        facing = inner & ~pad[1 + dr : rows + 1 + dr, 1 + dc : cols + 1 + dc]
        r, c = np.nonzero(facing)
        shut = (doors[r, c] & bit) == 0
        if dr:  # a horizontal side at y = r (north) or r + 1 (south)
            y = (r + (dr > 0)).astype(np.float64)
            parts = [(c[shut], c[shut] + 1.0, y[shut]), (c[~shut], c[~shut] + inset, y[~shut]),
                     (c[~shut] + 1 - inset, c[~shut] + 1.0, y[~shut])]  # fmt: skip
            segs += [np.stack([a, yy, b, yy], axis=1) for a, b, yy in parts]
        else:  # a vertical side at x = c (west) or c + 1 (east)
            x = (c + (dc > 0)).astype(np.float64)
            parts = [(r[shut], r[shut] + 1.0, x[shut]), (r[~shut], r[~shut] + inset, x[~shut]),
                     (r[~shut] + 1 - inset, r[~shut] + 1.0, x[~shut])]  # fmt: skip
            segs += [np.stack([xx, a, xx, b], axis=1) for a, b, xx in parts]
    return np.concatenate(segs).astype(np.float64) if segs else np.zeros((0, 4))


def _inward(chosen: NDArray[np.bool_], cols: int) -> NDArray[np.uint8]:
    """For each square cell, the bits of its sides that lead to another ``chosen`` cell."""
    rows = chosen.size // cols
    at = np.pad(chosen.reshape(rows, cols), 1)
    inner = at[1:-1, 1:-1]
    bits = np.zeros((rows, cols), np.uint8)
    for bit, (dr, dc) in ((_N, (-1, 0)), (_E, (0, 1)), (_S, (1, 0)), (_W, (0, -1))):
        bits[inner & at[1 + dr : rows + 1 + dr, 1 + dc : cols + 1 + dc]] |= bit
    return bits.reshape(-1)


def _open_corners(square: NDArray[np.uint8], cols: int) -> NDArray[np.bool_]:
    """The grid's corners ``(rows + 1, cols + 1)`` whose four cells are joined all round by
    passages between squares (a room's floor, a braided block): no post stands there."""
    rows = square.size // cols
    at = square.reshape(rows, cols)
    out = np.zeros((rows + 1, cols + 1), bool)
    joined = ((at[:-1, :-1] & (_E | _S)) == (_E | _S)) & ((at[:-1, 1:] & _S) != 0)
    out[1:-1, 1:-1] = joined & ((at[1:, :-1] & _E) != 0)
    return out


def weave_boxes(
    maze: Maze, *, inset: float = 0.2, only: ArrayLike | None = None
) -> NDArray[np.float64]:
    """The floor of the usual weave drawing as rectangles ``x0, y0, x1, y1`` that meet edge
    to edge: each cell's box, the strips of its passages east and south (a passage under a
    crossing reaches the crossing's box), the square between four cells joined all round
    and the doors of the entrance and the exit. A painter fills them as they are;
    :func:`weave_floor` joins them into rings.

    Parameters
    ----------
    maze : Maze
        A maze on the weave grid that keeps the weave rule (:func:`check_weave`).
    inset : float, default 0.2
        As for :func:`weave_walls`.
    only : array_like of int, optional
        Square cells: the floor of these alone (a room's), without the doors.

    Returns
    -------
    (K, 4) ndarray of float64
    """
    inset = _check_inset(inset)
    check_weave(maze)
    level, between, under = _sides(maze)
    cols = int(maze.grid.params["cols"])
    n = level.size
    doors = _doors(maze)
    chosen = maze.mask[:n].copy()
    if only is not None:
        chosen[:] = False
        chosen[np.asarray(only, np.int64)] = True
        doors = np.zeros_like(doors)
        level = level & _inward(chosen, cols)
        under = np.zeros_like(under)
        between = between & _inward(chosen, cols)
    cy, cx = np.nonzero(_open_corners(between, cols))
    cells = np.flatnonzero(chosen)
    r, c = np.divmod(cells, cols)
    x0, y0 = c.astype(np.float64), r.astype(np.float64)
    x1, y1 = (c + 1).astype(np.float64), (r + 1).astype(np.float64)
    xa, xb, ya, yb = x0 + inset, x1 - inset, y0 + inset, y1 - inset
    east = ((level | under)[cells] & _E) != 0  # to the next box east, over or under
    south = ((level | under)[cells] & _S) != 0
    d = doors[cells]
    boxes = [
        (xa, ya, xb, yb),
        (xb[east], ya[east], x1[east] + inset, yb[east]),
        (xa[south], yb[south], xb[south], y1[south] + inset),
        (cx - inset, cy - inset, cx + inset, cy + inset),
    ]
    for bit, (left, top, right, bottom) in (
        (_N, (xa, y0, xb, ya)),
        (_E, (xb, ya, x1, yb)),
        (_S, (xa, yb, xb, y1)),
        (_W, (x0, ya, xa, yb)),
    ):
        k = (d & bit) != 0
        boxes.append((left[k], top[k], right[k], bottom[k]))
    return np.stack([np.concatenate(z) for z in zip(*boxes, strict=True)], axis=1)


def weave_floor(maze: Maze, *, inset: float = 0.2) -> list[NDArray[np.float64]]:
    """The floor of the usual weave drawing (:func:`weave_walls`), as polygon rings to fill.

    The union of the cells' boxes, the strips of their passages (a passage under a
    crossing reaches the crossing's box) and the doors of the entrance and the exit.

    Parameters
    ----------
    maze : Maze
        A maze on the weave grid that keeps the weave rule (:func:`check_weave`).
    inset : float, default 0.2
        As for :func:`weave_walls`.

    Returns
    -------
    list of (k, 2) ndarray of float64
        Closed rings (the last point joins the first, as the grid's cell polygons):
        the outlines run with a positive shoelace area (clockwise on the page, ``y``
        down), the holes of the floor the other way. Fill them together, as one path
        (with the non-zero or the even-odd rule).

    Raises
    ------
    InvalidMazeError
        For a maze that breaks the weave rule or is on another grid.
    MazeartError
        For an inset outside ``(0, 0.5)``.

    Examples
    --------
    >>> g = weave_grid(1, 2)
    >>> opened = np.arange(g.n_walls) == g.wall_between(0, 1)
    >>> maze = Maze(np.ones(2, bool), opened, grid=g)
    >>> [ring.tolist() for ring in weave_floor(maze, inset=0.25)]
    [[[0.25, 0.25], [1.75, 0.25], [1.75, 0.75], [0.25, 0.75]]]
    """
    import shapely

    pieces = shapely.box(*weave_boxes(maze, inset=inset).T)
    # the pieces meet edge to edge (a coverage); a zero tolerance only drops the points
    # where one piece's side continues another's
    floor = shapely.simplify(shapely.coverage_union_all(pieces), 0.0, preserve_topology=False)
    rings: list[NDArray[np.float64]] = []
    for polygon in shapely.get_parts(shapely.orient_polygons(floor)):
        for ring in (polygon.exterior, *polygon.interiors):
            rings.append(np.asarray(ring.coords, np.float64)[:-1])
    return rings
