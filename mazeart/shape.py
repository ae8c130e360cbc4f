"""Connect and shape a carved maze: rooms, bridges between islands, dead ends and loops.

These steps run after a generator, in this order, inside :func:`mazeart.generate`
(each is also usable on its own):

:func:`install_rooms`
    Rooms become open areas of maze cells, walled but for their doors.
:func:`respect_walls`
    Extra walls the maze must respect (the boundaries between a picture's
    colour regions, with ``--edges``): passages across them are cut, each side
    is joined up again inside, and the sides are joined through as few doors as
    keep the maze connected.
:func:`connect`
    A picture often has islands: the letters of a word, the dot of an i, a
    ring around a hole. Each island is its own maze; this pass joins them with
    bridges, short corridors carved across the ground between them, choosing
    the bridges of a minimum spanning tree over the islands, where an island
    pair's cost is the fewest ground cells a corridor between them crosses.
:func:`prune_dead_ends`
    Removes every dead end one cell long that hangs off a junction (the hybrid's
    last step): the trivial side pockets of a puzzle.
:func:`braid`
    Opens a wall at a chosen share of the dead ends, turning them into loops,
    so the left-hand rule no longer solves the maze.

Rooms' interiors, their walls and their doors are never touched by the later
steps, and nothing is ever carved on a room cell except by its doors.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mazeart._graph import find, spanning_edges, union
from mazeart._jit import njit
from mazeart._kernels.heap import heap_pop, heap_push
from mazeart._kernels.parts import label_links
from mazeart._kernels.topology import (
    degree,
    grid_topology,
    is_open,
    join,
    shut,
    square_topology,
    step,
)
from mazeart._rng import RngLike, as_generator, below, kernel_state
from mazeart.errors import MazeartError, check_number
from mazeart.maze import E, Maze, N, S, W, check_maze, passages_from_links

if TYPE_CHECKING:
    from mazeart.rooms import Room

__all__ = [
    "ShapeReport",
    "braid",
    "connect",
    "dead_ends",
    "degrees",
    "install_rooms",
    "prune_dead_ends",
    "respect_walls",
]


@dataclass
class ShapeReport:
    """What the connect-and-shape steps did, for the command's report."""

    parts: int = 0
    bridges: int = 0
    bridge_cells: int = 0
    unreachable: int = 0
    dropped_cells: int = 0
    pruned: int = 0
    dead_ends_before: int = 0
    braided: int = 0
    walls_cut: int = 0
    doors: int = 0
    walls: str = "edge walls"
    """What the respected walls are, for the report (the picture's edges, or its outline)."""
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        bits = []
        if self.parts > 1:
            joined = f"{self.parts} parts joined by {self.bridges} bridge"
            bits.append(joined + ("s" if self.bridges != 1 else ""))
            if self.unreachable:
                bits.append(
                    f"dropped {self.unreachable} part(s) of {self.dropped_cells} cells "
                    "that no corridor could reach"
                )
        elif self.parts == 1:
            bits.append("1 part")
        if self.walls_cut or self.doors:
            bits.append(f"{self.walls} respected, {self.doors} door{'s' * (self.doors != 1)}")
        if self.pruned:
            bits.append(f"{self.pruned} one-cell dead ends pruned")
        if self.braided:
            bits.append(f"{self.braided} of {self.dead_ends_before} dead ends braided")
        return ", ".join(bits)


# ----------------------------------------------------------------------------- helpers


def degrees(maze: Maze | NDArray[np.uint8]) -> NDArray[np.int8]:
    """Number of open passages of every cell (of a maze on any grid, or of a square
    passages array).

    Returns
    -------
    (H, W) or (n,) ndarray of int8
    """
    if not isinstance(maze, np.ndarray):
        check_maze(maze)
        if not maze.is_square:
            return maze.degree().astype(np.int8)
    p = maze.passages if isinstance(maze, Maze) else maze
    return ((p & N != 0).astype(np.int8) + (p & E != 0) + (p & S != 0) + (p & W != 0)).astype(
        np.int8
    )


def dead_ends(maze: Maze) -> NDArray[np.bool_]:
    """Maze cells outside rooms with exactly one passage (on any grid).

    Returns
    -------
    (H, W) or (n,) ndarray of bool
    """
    check_maze(maze)
    return maze.mask & (degrees(maze) == 1) & ~maze.room_mask


def _protected(maze: Maze) -> NDArray[np.bool_]:
    """Cells the shaping steps must not remove: rooms, the cells before doors, the ends, tags."""
    keep = maze.room_mask.copy()
    for tagged in maze.tags:
        keep[tagged] = True
    for room in maze.rooms:
        for d in room.doors:
            keep[d.outside] = True
    for cell in (maze.entrance, maze.exit):
        if cell is not None:
            keep[cell] = True
    return keep


# ----------------------------------------------------------------------------- rooms


def install_rooms(
    maze: Maze, rooms: list[Room], *, loops: bool = False, keep: NDArray[np.bool_] | None = None
) -> Maze:
    """Add rooms to a maze: their cells join the maze, open inside, with their doors open.

    On any grid: a room's cells are ``(row, col)`` on the square grid and ids on the
    others, each door a room cell and the maze cell it opens onto. A room with
    several doors joins the maze more than once; unless ``loops``, each passage of
    the maze that then closes a loop (each room counted as one node) is closed, so a
    perfect maze stays a tree and every door stays open.

    Parameters
    ----------
    maze : Maze
        A ``cells`` maze carved around the rooms (room cells are not yet maze).
    rooms : list of Room
    loops : bool, default False
        Leave the loops the doors close.
    keep : (n_walls,) ndarray of bool, optional
        Passages never closed to cut a loop (a weave maze's crossings: each loop then
        loses another of its passages, which the caller must make sure it has).

    Returns
    -------
    Maze
    """
    if not rooms:
        return maze
    if maze.geometry != "cells":
        raise MazeartError("rooms need the cells geometry")
    grid = maze.grid
    mask = maze.mask.reshape(-1).copy()
    region = maze.region.reshape(-1).copy()
    owner = np.zeros(grid.n_cells, np.int64)
    pairs = []
    for i, room in enumerate(rooms, start=1):
        at = maze.flat_cells(room.cells)
        if np.any(maze.mask.reshape(-1)[at]):
            cell = maze.cell_at(int(at[maze.mask.reshape(-1)[at]][0]))
            raise MazeartError(f"room {room.name!r} overlaps carved maze at {cell}")
        mask[at] = region[at] = True
        owner[at] = i
        for d in room.doors:
            if not maze.is_cell(d.outside):
                raise MazeartError(f"door {d} of room {room.name!r} opens onto no maze cell")
            pairs.append((maze.cell_index(d.cell), maze.cell_index(d.outside)))
    wc = grid.wall_cells.astype(np.int64)
    a, b = wc[:, 0], wc[:, 1]
    inside = (b >= 0) & (owner[a] > 0) & (owner[a] == owner[np.maximum(b, 0)])
    opened = maze.open_walls | inside
    if pairs:
        doors = grid.walls_between(np.array(pairs, np.int64))
        opened[doors] = True
        if not loops and len(pairs) > len(rooms):  # two doors join the maze twice: a loop
            is_door = np.zeros(opened.size, np.bool_)
            is_door[doors] = True
            kept = np.zeros(opened.size, np.bool_) if keep is None else np.asarray(keep, bool)
            _cut_room_loops(a, b, opened, owner, is_door, grid.n_cells, kept)
    out = Maze(mask, opened, grid=grid, region=region, entrance=maze.entrance, exit=maze.exit,
               meta=maze.meta, rooms=(*maze.rooms, *rooms), tags=maze.tags,
               guide=maze.guide)  # fmt: skip
    return out


@njit(cache=True)
def _cut_room_loops(a, b, opened, owner, is_door, n, keep):  # type: ignore[no-untyped-def]
    """Close the passages that, each room taken as one node with its doors, close a loop:
    the passages to ``keep`` and the doors first (they stay open), then the maze's own
    passages in wall order. A perfect maze with rooms stays a tree, as the hybrid
    generator leaves it."""
    parent = np.arange(n + owner.max() + 1)
    rank = np.zeros(parent.size, np.int64)

    def node(c):  # type: ignore[no-untyped-def]
        return n + owner[c] if owner[c] > 0 else c

    for w in range(a.size):
        if keep[w] and opened[w] and b[w] >= 0:
            union(parent, rank, node(a[w]), node(b[w]))
    for w in range(a.size):
        if is_door[w]:
            union(parent, rank, node(a[w]), node(b[w]))
    for w in range(a.size):
        if not opened[w] or is_door[w] or keep[w] or b[w] < 0:
            continue
        if owner[a[w]] > 0 and owner[a[w]] == owner[b[w]]:
            continue  # the room's own floor
        if not union(parent, rank, node(a[w]), node(b[w])):
            opened[w] = False


# ----------------------------------------------------------------------------- connect


@njit(cache=True)
def _voronoi(topo, sources, ground):  # type: ignore[no-untyped-def]
    """Multi-source BFS over ground cells: nearest source piece, distance, parent."""
    n = sources.size
    label = sources.copy()
    dist = np.zeros(n, np.int32)
    parent = np.full(n, -1, np.int64)
    queue = np.empty(n, np.int64)
    tail = 0
    for c in range(n):
        if sources[c] > 0:
            queue[tail] = c
            tail += 1
    _grow(topo, label, dist, parent, queue, tail, ground)
    return label, dist, parent


@njit(cache=True)
def _grow(topo, label, dist, parent, queue, tail, ground):  # type: ignore[no-untyped-def]
    """Breadth-first growth of the labels of the ``tail`` queued cells over ``ground``:
    each cell reached takes its neighbour's label, distance + 1 and it as parent."""
    width = degree(topo)
    head = 0
    while head < tail:
        cur = queue[head]
        head += 1
        for d in range(width):
            nb = step(topo, cur, d)
            if nb >= 0 and ground[nb] and label[nb] == 0:
                label[nb] = label[cur]
                dist[nb] = dist[cur] + 1
                parent[nb] = cur
                queue[tail] = nb
                tail += 1


@njit(cache=True)
def _voronoi_by_length(topo, sources, ground, cost):  # type: ignore[no-untyped-def]
    """:func:`_voronoi` where crossing a ground cell costs ``cost`` (its length, whole
    numbers): the nearest source piece by the corridor's length, the length, and the
    parent, by Dijkstra's search (of equal lengths, the cell reached first goes first,
    as a breadth-first search takes them)."""
    n = sources.size
    label = sources.copy()
    dist = np.zeros(n, np.int64)
    parent = np.full(n, -1, np.int64)
    done = np.zeros(n, np.bool_)
    width = degree(topo)
    room = n * width + n + 1
    heap = np.empty(room, np.int64)  # length << 32 | order reached, and the cell beside
    cells = np.empty(room, np.int64)
    size = 0
    seq = 0
    for c in range(n):
        if sources[c] > 0:
            size = heap_push(heap, cells, size, seq, c)
            seq += 1
    while size > 0:
        cur = cells[0]
        size = heap_pop(heap, cells, size)
        if done[cur]:
            continue
        done[cur] = True
        for d in range(width):
            nb = step(topo, cur, d)
            if nb < 0 or not ground[nb] or done[nb] or sources[nb] > 0:
                continue
            length = dist[cur] + cost[nb]
            if label[nb] == 0 or length < dist[nb]:
                label[nb] = label[cur]
                dist[nb] = length
                parent[nb] = cur
                size = heap_push(heap, cells, size, (length << 32) | seq, nb)
                seq += 1
    return label, dist, parent


def _crossing_cost(maze: Maze) -> NDArray[np.int64] | None:
    """How long a bridge's corridor is across each cell, in the grid's smallest cells: the
    side of each square of the adaptive grid (a corridor across a big square of the ground
    is as long as the small squares it passes); None on the other grids, whose cells are
    alike (a corridor is as long as the cells it crosses)."""
    g = maze.grid
    if g.kind != "adaptive":
        return None
    starts = g.cell_ptr[:-1]
    x = g.cell_points[:, 0]
    side = np.maximum.reduceat(x, starts) - np.minimum.reduceat(x, starts)
    return np.maximum(1, np.rint(side / side.min())).astype(np.int64)


@njit(cache=True)
def _meeting(out, k, a, b, length, u, v):
    """Row ``k`` of a meetings table: the two parts (lower first), the length of the
    bridge between them, and its cells ``u`` and ``v`` (-1: one cell)."""
    out[k, 0] = min(a, b)
    out[k, 1] = max(a, b)
    out[k, 2] = length
    out[k, 3] = u
    out[k, 4] = v


@njit(cache=True)
def _meetings(topo, label, dist, ground):  # type: ignore[no-untyped-def]
    """Where two pieces' regions touch across ground: (piece a, piece b, cells crossed, u, v),
    each pair of neighbours once (from the lower id)."""
    n = label.size
    width = degree(topo)
    out = np.empty((width * n, 5), np.int64)
    k = 0
    for u in range(n):
        if label[u] == 0:
            continue
        for d in range(width):
            v = step(topo, u, d)
            if v <= u or label[v] == 0 or label[v] == label[u]:
                continue
            if not (ground[u] or ground[v]):
                continue
            _meeting(out, k, label[u], label[v], dist[u] + dist[v], u, v)
            k += 1
    return out[:k]


@njit(cache=True)
def _block_voronoi(topo, path, piece, room, inside, stride):  # type: ignore[no-untyped-def]
    """Multi-source BFS over the ground blocks a corridor may cross, from every piece at once.

    A corridor's first and last blocks touch exactly one path block (they are
    the sources, at distance 1, labelled with that block's piece, which is
    their ``anchor``); the blocks between touch none. Returns ``label`` (nearest
    piece, 0 where none), ``dist`` (blocks from the piece, that one included),
    ``parent`` (the previous block, -1 at a source) and ``anchor``.
    """
    n = path.size
    label = np.zeros(n, np.int32)
    dist = np.zeros(n, np.int32)
    parent = np.full(n, -1, np.int64)
    anchor = np.full(n, -1, np.int64)
    clean = np.zeros(n, np.bool_)
    queue = np.empty(n, np.int64)
    tail = 0
    for x in range(n):
        if path[x] or room[x] or not inside[x]:
            continue
        touches = 0
        last = -1
        for y in (x - stride, x + 1, x + stride, x - 1):
            if path[y]:
                touches += 1
                last = y
        if touches == 0:
            clean[x] = True
        elif touches == 1 and not room[last]:
            label[x] = piece[last]
            dist[x] = 1
            anchor[x] = last
            queue[tail] = x
            tail += 1
    _grow(topo, label, dist, parent, queue, tail, clean)
    return label, dist, parent, anchor


@njit(cache=True)
def _block_meetings(path, piece, room, inside, label, dist, stride):
    """Candidate corridors between two pieces: ``(piece a, piece b, blocks, u, v)``, a < b.

    Two blocks ``u``, ``v`` side by side in different pieces' Voronoi regions
    give the corridor from ``u`` back to its piece and from ``v`` back to
    its; a lone ground block touching exactly two path blocks of different
    pieces (and no room) is a corridor of one block, given as ``(a, b, 1, x, -1)``.
    """
    n = path.size
    k = 0
    out = np.empty((0, 5), np.int64)
    for fill in range(2):
        if fill:
            out = np.empty((k, 5), np.int64)
            k = 0
        for u in range(n):
            if label[u] > 0:
                for v in (u + 1, u + stride):
                    if label[v] > 0 and label[v] != label[u]:
                        if fill:
                            _meeting(out, k, label[u], label[v], dist[u] + dist[v], u, v)
                        k += 1
            elif not path[u] and not room[u] and inside[u]:
                touches = 0
                a = 0
                b = 0
                for y in (u - stride, u + 1, u + stride, u - 1):
                    if path[y]:
                        touches += 1
                        if room[y]:
                            touches += 2
                        b = a
                        a = piece[y]
                if touches == 2 and a != b:
                    if fill:
                        _meeting(out, k, a, b, 1, u, -1)
                    k += 1
    return out


@njit(cache=True)
def _block_carve(candidates, parent, anchor, piece, pieces, path, passages, bridge, stride):
    """Carve candidate corridors in order, each that joins two parts and touches only its ends.

    ``candidates`` come from :func:`_block_meetings`, cheapest first, at most one
    per pair of pieces. A corridor is carved (its blocks become ``path`` and
    ``bridge``, with passages from end to end) when its pieces are not joined
    yet and it touches no path block but its two ends, none of them carved
    earlier in this call. Returns the numbers of corridors and of blocks carved.
    """
    uf = np.arange(pieces + 1)
    rank = np.zeros(pieces + 1, np.int8)
    mark = np.zeros(path.size, np.int64)
    longest = 1
    for i in range(candidates.shape[0]):
        longest = max(longest, candidates[i, 2])
    seq = np.empty(longest + 2, np.int64)
    steps = (-stride, 1, stride, -1)  # N, E, S, W
    bits = (1, 2, 4, 8)
    back = (4, 8, 1, 2)
    bridges = 0
    blocks = 0
    for i in range(candidates.shape[0]):
        pa = candidates[i, 0]
        pb = candidates[i, 1]
        if find(uf, pa) == find(uf, pb):
            continue
        u = candidates[i, 3]
        v = candidates[i, 4]
        # seq: end a, the corridor's blocks, end b
        k = 1
        if v < 0:
            seq[1] = u
            k = 2
            a = -1
            b = -1
            for y in (u - stride, u + 1, u + stride, u - 1):
                if piece[y] > 0:
                    b = a
                    a = y
        else:
            x = u
            while x >= 0:
                k += 1
                x = parent[x]
            x = u
            for j in range(k - 1, 0, -1):
                seq[j] = x
                x = parent[x]
            a = anchor[seq[1]]
            x = v
            while x >= 0:
                seq[k] = x
                k += 1
                b = x
                x = parent[x]
            b = anchor[b]
        seq[0] = a
        seq[k] = b
        # k + 1 entries: a, k - 1 corridor blocks, b
        good = True
        for j in range(1, k):
            if path[seq[j]]:
                good = False
            mark[seq[j]] = i + 1
        for j in range(1, k):
            if not good:
                break
            x = seq[j]
            for y in (x - stride, x + 1, x + stride, x - 1):
                if y == seq[j - 1] or y == seq[j + 1]:
                    continue
                if path[y] or mark[y] == i + 1:
                    good = False
        if not good:
            continue
        for j in range(k):
            x = seq[j]
            y = seq[j + 1]
            for d in range(4):
                if x + steps[d] == y:
                    passages[x] |= bits[d]
                    passages[y] |= back[d]
            if j > 0:
                path[x] = True
                bridge[x] = True
        union(uf, rank, pa, pb)
        bridges += 1
        blocks += k - 1
    return bridges, blocks


def _framed(a: NDArray, fill=0) -> NDArray:
    out = np.full((a.shape[0] + 2, a.shape[1] + 2), fill, dtype=a.dtype)
    out[1:-1, 1:-1] = a
    return out


def connect(maze: Maze, *, report: ShapeReport | None = None) -> Maze:
    """Join a maze's separate pieces with bridges across the ground.

    The bridges are those of a minimum spanning tree over the pieces, where two
    pieces are as far apart as the fewest ground cells a corridor between them
    crosses (on the adaptive grid, whose squares differ in size, the shortest
    corridor; Mehlhorn's construction: one multi-source search from all pieces,
    then Kruskal over the places where their regions meet). In a ``blocks``
    maze a corridor touches no path block but its two ends; corridors that
    would touch each other wait for another round, which searches again from
    the pieces joined so far, until no corridor joins two parts.

    Parameters
    ----------
    maze : Maze
        A maze on any grid (cells are ids on a grid other than the square one).
    report : ShapeReport, optional
        Filled with the number of parts, bridges, bridge cells, and parts left
        unjoined (``unreachable``: parts after the pass, less one).

    Returns
    -------
    Maze
        The same kind as ``maze``.
        Any two parts that a corridor can join are joined; bridge cells become
        maze cells (and region). The bridges form a spanning tree (a forest when
        some parts are unreachable) over the pieces, so a perfect maze stays
        perfect.

    Examples
    --------
    >>> from mazeart import generate, preset_from_text
    >>> two = preset_from_text("...#...\\n...#...\\n...#...")
    >>> apart = generate(two, rng=1, islands="separate")
    >>> joined = connect(apart)
    >>> apart.n_passages, joined.n_passages  # two trees of 9 cells, and a bridge cell between
    (16, 18)
    """
    check_maze(maze)
    report = report if report is not None else ShapeReport()
    f = _flat(maze)
    pieces, n = label_links(f.topo, f.mask, f.links)
    report.parts = int(n)
    if n <= 1:
        return maze
    if not (maze.geometry == "blocks"):
        ground = f.bridgeable & ~f.mask & ~f.room
        sources = np.where(f.mask & ~f.room & f.bridgeable, pieces, 0).astype(np.int32)
        cost = _crossing_cost(maze)
        if cost is None:
            label, dist, parent = _voronoi(f.topo, sources, ground)
        else:
            label, dist, parent = _voronoi_by_length(f.topo, sources, ground, cost)
        meet = _meetings(f.topo, label, dist, ground)
        # Kruskal over pieces: cheapest meeting per pair, then cheapest pairs first.
        ordered = meet[np.lexsort((meet[:, 4], meet[:, 3], meet[:, 2]))]
        kept = spanning_edges(
            n + 1,
            np.ascontiguousarray(ordered[:, 0]),
            np.ascontiguousarray(ordered[:, 1]),
            np.zeros(len(ordered), np.bool_),
        )
        mask, links, region = f.mask, f.links, f.region
        for _a, _b, _length, u, v in ordered[kept]:
            chain_u = [int(u)]
            while parent[chain_u[-1]] >= 0:
                chain_u.append(int(parent[chain_u[-1]]))
            chain_v = [int(v)]
            while parent[chain_v[-1]] >= 0:
                chain_v.append(int(parent[chain_v[-1]]))
            corridor = chain_u[::-1] + chain_v
            for c in corridor[1:-1]:
                mask[c] = region[c] = True
            for x, y in itertools.pairwise(corridor):
                _join_cells(f.topo, f.links, x, y)
            report.bridges += 1
            report.bridge_cells += len(corridor) - 2
        report.unreachable = int(n) - 1 - int(np.count_nonzero(kept))
        return f.back(mask, links, region)
    # A blocks maze: rounds of Voronoi + Kruskal under the block rule. Each round carves
    # the cheapest corridors that keep clear of each other, the rest wait for the next
    # round (against the pieces as joined so far). A round carves at least its cheapest
    # corridor, and rounds stop when no corridor joins two parts.
    stride = f.stride
    rooms, inside = f.room, f.bridgeable
    path, pas = f.mask, f.links
    bridge = np.zeros_like(path)
    while n > 1:
        label, dist, parent, anchor = _block_voronoi(f.topo, path, pieces, rooms, inside, stride)
        meet = _block_meetings(path, pieces, rooms, inside, label, dist, stride)
        if not len(meet):
            break
        meet = meet[np.lexsort((meet[:, 4], meet[:, 3], meet[:, 2]))]
        _, first = np.unique(meet[:, 0] * (n + 1) + meet[:, 1], return_index=True)
        meet = np.ascontiguousarray(meet[np.sort(first)])
        bridges, blocks = _block_carve(meet, parent, anchor, pieces, n, path, pas, bridge, stride)
        if not bridges:  # pragma: no cover - a round always carves its cheapest corridor
            break
        report.bridges += int(bridges)
        report.bridge_cells += int(blocks)
        pieces, n = label_links(f.topo, path, pas)
    report.unreachable = int(n) - 1
    return f.back(path, pas, f.region | bridge)


# ----------------------------------------------------------------------------- dead ends


@njit(cache=True)
def _prune(topo, links, mask, keep, order):  # type: ignore[no-untyped-def]
    """Cut the one-cell dead ends hanging off junctions, on flat arrays of any grid.

    A cut never makes a new dead end (its junction keeps two passages or more),
    so the rounds of :func:`prune_dead_ends` come down to: at every junction,
    cut its stubs in ``order`` (the square grid's reading order: north, west,
    east, south; a graph's neighbours by id) while it still has three passages
    or more. ``links`` and ``mask`` are changed in place; returns the number of
    cells cut.
    """
    n = mask.size
    width = degree(topo)
    deg = np.zeros(n, np.int64)
    for x in range(n):
        if mask[x]:
            for d in range(width):
                if step(topo, x, d) >= 0 and is_open(topo, links, x, d):
                    deg[x] += 1
    cut = 0
    for j in range(n):
        if deg[j] < 3:
            continue
        for k in range(width):
            if deg[j] < 3:
                break
            d = order[k]
            s = step(topo, j, d)
            if s < 0 or not is_open(topo, links, j, d):
                continue
            if deg[s] == 1 and mask[s] and not keep[s]:
                shut(topo, links, j, d, s)
                mask[s] = False
                deg[s] = 0
                deg[j] -= 1
                cut += 1
    return cut


def _join_cells(topo: Any, links: NDArray[Any], a: int, b: int) -> None:
    """Open the passage between neighbouring cells ``a`` and ``b`` (flat ids)."""
    for d in range(degree(topo)):
        if step(topo, a, d) == b:
            join(topo, links, _NO_ORDER, a, d, b)
            return
    raise AssertionError("bridge cells are not neighbours")  # pragma: no cover


_NO_ORDER = np.zeros(1, np.int64)
"""A carve order of size 1: none kept."""

_READING = np.array([0, 3, 1, 2], np.int64)
"""The square grid's directions (N E S W in the topology) in reading order: N, W, E, S."""


class _Flat(NamedTuple):
    """A maze as the shaping kernels take it: flat arrays and a topology, and the way back.

    The square grid's arrays are framed by a ring of cells that are not maze (so the
    blocks rules never step off the grid)."""

    topo: Any
    links: NDArray[Any]
    mask: NDArray[np.bool_]
    keep: NDArray[np.bool_]
    room: NDArray[np.bool_]
    region: NDArray[np.bool_]
    bridgeable: NDArray[np.bool_]  # cells a bridge between parts may cross or start from
    order: NDArray[np.int64]
    stride: int
    back: Callable[..., Maze]  # (mask, links[, region]) -> the maze


def _unbridgeable(maze: Maze) -> NDArray[np.bool_]:
    """Cells of a grid a bridge must not touch: a weave grid's under nodes and the cells
    its tunnels cross under (a bridge there would open a crossing's wall)."""
    out = np.zeros(maze.grid.n_cells, bool)
    if maze.grid.kind == "weave":
        from mazeart.grids._weavegrid import under_layout

        rows, cols = int(maze.grid.params["rows"]), int(maze.grid.params["cols"])
        n = rows * cols
        _, under_of = under_layout(rows, cols)
        out[n:] = True
        has = under_of >= 0
        out[:n][has] = maze.mask[under_of[has]]
    return out


def _flat(maze: Maze) -> _Flat:
    """The one place the shaping steps see which grid a maze is on."""
    if maze.is_square:
        h, w = maze.shape
        stride = w + 2

        def square(
            mask: NDArray[np.bool_], links: NDArray[Any], region: NDArray[np.bool_] | None = None
        ) -> Maze:
            inner = (slice(1, -1), slice(1, -1))
            changes = {
                "mask": mask.reshape(h + 2, stride)[inner].copy(),
                "passages": links.reshape(h + 2, stride)[inner].copy(),
            }
            if region is not None:
                changes["region"] = region.reshape(h + 2, stride)[inner].copy()
            return maze.replace(**changes)

        return _Flat(
            topo=square_topology(stride),
            links=_framed(maze.passages, np.uint8(0)).reshape(-1),
            mask=_framed(maze.mask, False).reshape(-1),
            keep=_framed(_protected(maze), False).reshape(-1),
            room=_framed(maze.room_mask, False).reshape(-1),
            region=_framed(maze.region, False).reshape(-1),
            bridgeable=_framed(np.ones(maze.shape, dtype=bool), False).reshape(-1),
            order=_READING,
            stride=stride,
            back=square,
        )
    topo = grid_topology(maze.grid)

    def other(mask: NDArray[np.bool_], links: NDArray[Any], region: Any = None) -> Maze:
        return maze.replace(
            mask=mask, passages=links, region=maze.region | mask if region is None else region
        )

    return _Flat(
        topo=topo,
        links=maze.passages.copy(),
        mask=maze.mask.copy(),
        keep=_protected(maze),
        room=maze.room_mask.copy(),
        region=maze.region.copy(),
        bridgeable=~_unbridgeable(maze),
        order=np.arange(degree(topo), dtype=np.int64),
        stride=0,
        back=other,
    )


def prune_dead_ends(maze: Maze, *, report: ShapeReport | None = None) -> Maze:
    """Remove every dead end one cell long that branches off a junction (the hybrid's last step).

    A dead-end cell whose only neighbour has three or more passages is cut off
    and leaves the maze (a ``cells`` maze shows it as a closed square, a
    ``blocks`` maze as a wall block); this repeats until none is left, one
    dead end per junction per round (the junction's passages are counted again
    before the next), so a junction keeps at least two passages. Rooms, the
    cells in front of doors, the entrance, the exit and tagged cells are kept.

    Parameters
    ----------
    maze : Maze
        A maze on any grid (cells are ids on a grid other than the square one).
    report : ShapeReport, optional
        Its ``pruned`` grows by the number of cells removed.

    Returns
    -------
    Maze
        The same kind as ``maze``.

    Examples
    --------
    >>> import numpy as np
    >>> from mazeart import generate
    >>> maze = generate(np.zeros((10, 10), np.int32), algorithm="prim", rng=3)
    >>> pruned = prune_dead_ends(maze)
    >>> pruned.n_cells < maze.n_cells and pruned.n_passages == pruned.n_cells - 1
    True
    """
    check_maze(maze)
    report = report if report is not None else ShapeReport()
    f = _flat(maze)
    report.pruned += int(_prune(f.topo, f.links, f.mask, f.keep, f.order))
    return f.back(f.mask, f.links)


@njit(cache=True)
def _squares(mask, x, stride):
    """Whether making flat cell ``x`` path would complete a 2 x 2 square of path blocks."""
    for dr in (-stride, stride):
        for dc in (-1, 1):
            if mask[x + dr] and mask[x + dc] and mask[x + dr + dc]:
                return True
    return False


@njit(cache=True)
def _braid(topo, links, mask, room, zone, region, stride, blocks, target, state):  # type: ignore[no-untyped-def]
    """Open walls at dead ends in random order until ``target`` dead ends are gone.

    Flat arrays of any grid (the square grid's framed by one ring of non-maze
    cells); ``links`` and ``mask`` are changed in place. ``blocks`` selects the
    square grid's blocks rules (open a wall block that touches two path blocks or
    more, in the region, closing no 2 x 2 square) over the cells rule (open the
    wall to a neighbouring maze cell of the same ``zone``: a picture's colour
    region, so that braiding never cuts its design). Returns the number of dead
    ends removed.
    """
    n = mask.size
    width = degree(topo)
    order = np.zeros(1, np.int64)  # no carve order kept
    deg = np.zeros(n, np.int64)
    count = 0
    for x in range(n):
        if mask[x]:
            for d in range(width):
                if step(topo, x, d) >= 0 and is_open(topo, links, x, d):
                    deg[x] += 1
        if deg[x] == 1 and mask[x] and not room[x]:
            count += 1
    ends = np.empty(count, np.int64)
    count = 0
    for x in range(n):
        if deg[x] == 1 and mask[x] and not room[x]:
            ends[count] = x
            count += 1
    side = np.empty(width, np.int64)
    liked = np.empty(width, np.bool_)
    removed = 0
    for i in range(count):
        if removed >= target:
            break
        j = i + below(state, count - i)  # the next dead end of a random order
        x = ends[j]
        ends[j] = ends[i]
        ends[i] = x
        if deg[x] != 1:
            continue
        options = 0
        preferred = 0
        for d in range(width):
            y = step(topo, x, d)
            if y < 0 or is_open(topo, links, x, d):
                continue
            like = False
            if not blocks:
                if not mask[y] or room[y] or zone[y] != zone[x]:
                    continue
                like = deg[y] == 1
            else:
                if mask[y] or room[y] or not region[y]:
                    continue
                touching = 0
                roomy = False
                for e in range(width):
                    z = step(topo, y, e)
                    if mask[z]:
                        touching += 1
                        roomy = roomy or room[z]
                        like = like or (z != x and deg[z] == 1)
                if touching < 2 or roomy or _squares(mask, y, stride):
                    continue
            side[options] = d
            liked[options] = like
            options += 1
            preferred += like
        if options == 0:
            continue
        pick = below(state, preferred if preferred else options)
        d = -1
        for k in range(options):
            if preferred and not liked[k]:
                continue
            if pick == 0:
                d = side[k]
                break
            pick -= 1
        y = step(topo, x, d)
        join(topo, links, order, x, d, y)
        deg[x] += 1
        removed += 1
        if not blocks:
            removed += deg[y] == 1
            deg[y] += 1
        else:  # a block joins every path block it touches
            mask[y] = True
            deg[y] += 1
            for e in range(width):
                z = step(topo, y, e)
                if z != x and mask[z]:
                    join(topo, links, order, y, e, z)
                    deg[y] += 1
                    removed += deg[z] == 1
                    deg[z] += 1
    return removed


def braid(
    maze: Maze,
    fraction: float,
    rng: RngLike = None,
    *,
    report: ShapeReport | None = None,
    zones: ArrayLike | None = None,
) -> Maze:
    """Remove a share of the dead ends by opening a wall at each, creating loops.

    Dead ends are visited in random order; each still a dead end opens a wall to
    a neighbouring maze cell, preferring one that is a dead end too (which
    removes two at once), until ``fraction`` of the original dead ends are gone.
    In a ``blocks`` maze the opening is a wall block of the region beside the
    dead end that touches at least one other path block, touches no room and
    closes no 2 x 2 opening (preferring one that touches another dead end); it
    joins every path block it touches. Dead ends with no such wall block stay,
    so a block maze may braid less than asked (the report says how many).

    Parameters
    ----------
    maze : Maze
        A maze on any grid (cells are ids on a grid other than the square one).
    fraction : float
        Share of dead ends to remove, 0 to 1: ``round(fraction * dead ends)``.
    rng : int or numpy.random.Generator, optional
        Seed or Generator (fresh entropy when omitted); one draw seeds the
        compiled pass, and none is made when nothing is to be braided.
    report : ShapeReport, optional
        Gets ``dead_ends_before`` and ``braided``.
    zones : array_like of int, optional
        A zone per cell, in the grid's shape: no wall between two zones opens (a
        picture's colour regions, the two sides of its outline). By default the
        maze's colour regions (``maze.guide.edge_labels``), if any.

    Returns
    -------
    Maze
        The same kind as ``maze``.

    Examples
    --------
    >>> import numpy as np
    >>> from mazeart import generate, measure
    >>> maze = generate(np.zeros((10, 10), np.int32), rng=3)
    >>> measure(braid(maze, 1.0, rng=3)).dead_ends, measure(maze).dead_ends > 0
    (0, True)
    """
    check_maze(maze)
    fraction = check_number(fraction, "braid fraction", low=0.0, high=1.0)
    report = report if report is not None else ShapeReport()
    before = int(np.count_nonzero(dead_ends(maze)))
    report.dead_ends_before = before
    target = round(float(fraction) * before)
    if target == 0:
        return maze
    state = kernel_state(as_generator(rng))
    f = _flat(maze)
    blocks = maze.geometry == "blocks"
    keep_off = f.room | ~f.bridgeable  # rooms; a weave's crossings and tunnels stay as they are
    zone = np.zeros(f.mask.size, np.int64)  # a picture's colour regions: no wall across opens
    labels = maze.guide.edge_labels if zones is None else np.asarray(zones, np.int64)
    if labels is not None:
        if labels.shape != maze.shape:
            raise MazeartError(f"zones has shape {labels.shape}, the maze {maze.shape}")
        zone = (_framed(labels, -1) if maze.is_square else labels).reshape(-1).astype(np.int64)
    _braid(f.topo, f.links, f.mask, keep_off, zone, f.region, f.stride, blocks, target, state)
    out = f.back(f.mask, f.links)
    report.braided = before - int(np.count_nonzero(dead_ends(out)))
    return out


def wall_zones(mask: ArrayLike, east: ArrayLike, south: ArrayLike) -> NDArray[np.int64]:
    """The parts the cells ``mask`` of a square grid fall into when walls ``east`` and
    ``south`` (as :func:`respect_walls` takes them) are not crossed: a zone per cell for
    :func:`braid`."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    m = np.asarray(mask, bool)
    h, w = m.shape
    ids = np.arange(h * w).reshape(h, w)
    across = ~np.asarray(east, bool)[:, :-1] & m[:, :-1] & m[:, 1:]
    down = ~np.asarray(south, bool)[:-1, :] & m[:-1, :] & m[1:, :]
    a = np.concatenate([ids[:, :-1][across], ids[:-1, :][down]])
    b = np.concatenate([ids[:, 1:][across], ids[1:, :][down]])
    graph = coo_matrix((np.ones(a.size, np.int8), (a, b)), shape=(h * w, h * w))
    return connected_components(graph, directed=False)[1].reshape(h, w).astype(np.int64)


def respect_walls(
    maze: Maze,
    east: ArrayLike,
    south: ArrayLike,
    rng: RngLike = None,
    *,
    report: ShapeReport | None = None,
) -> Maze:
    """Make the maze respect extra walls, crossing them through as few doors as possible.

    Passages across a wall are cut; the pieces on each side are joined again by
    opening random walls that are not extra walls (so each side stays a tree of
    its own), and only then are sides joined through extra walls, one door per
    join: ``sides - 1`` doors for each connected part. Rooms are left as they are.

    Parameters
    ----------
    maze : Maze
        A ``cells`` maze.
    east, south : (H, W) ndarray of bool
        ``east[r, c]`` walls ``(r, c)`` from ``(r, c + 1)``; ``south[r, c]`` walls it
        from ``(r + 1, c)`` (see :func:`mazeart.guide.segment_walls`).
    rng : int or numpy.random.Generator, optional
    report : ShapeReport, optional
        Gets ``walls_cut`` and ``doors``.

    Returns
    -------
    Maze
    """
    if maze.geometry != "cells":
        raise MazeartError("extra walls need the cells geometry")
    east = np.asarray(east, bool)
    south = np.asarray(south, bool)
    if east.shape != maze.shape or south.shape != maze.shape:
        raise MazeartError(f"walls must have the maze's shape {maze.shape}")
    rng = as_generator(rng)
    h, w = maze.shape
    m = maze.mask
    room = maze.room_mask
    p = maze.passages
    idx = np.arange(h * w).reshape(h, w)
    pairs_e = np.zeros((h, w), bool)
    pairs_e[:, :-1] = m[:, :-1] & m[:, 1:]
    pairs_s = np.zeros((h, w), bool)
    pairs_s[:-1] = m[:-1] & m[1:]
    roomy_e = np.zeros((h, w), bool)
    roomy_e[:, :-1] = room[:, :-1] | room[:, 1:]
    roomy_s = np.zeros((h, w), bool)
    roomy_s[:-1] = room[:-1] | room[1:]
    open_e = (p & E) != 0
    open_s = (p & S) != 0
    stages = []
    for stage, (sel_e, sel_s) in enumerate(
        (
            (open_e & (~east | roomy_e), open_s & (~south | roomy_s)),
            (pairs_e & ~open_e & ~east & ~roomy_e, pairs_s & ~open_s & ~south & ~roomy_s),
            (pairs_e & east & ~roomy_e, pairs_s & south & ~roomy_s),
        )
    ):
        a = np.concatenate([idx[sel_e], idx[sel_s]])
        b = np.concatenate([idx[sel_e] + 1, idx[sel_s] + w])
        across = np.concatenate([np.ones(np.count_nonzero(sel_e), bool),
                                 np.zeros(np.count_nonzero(sel_s), bool)])  # fmt: skip
        if stage:
            perm = rng.permutation(len(a))
            a, b, across = a[perm], b[perm], across[perm]
        stages.append((a, b, np.full(len(a), stage, np.int8), across))
    pa = np.concatenate([s[0] for s in stages]).astype(np.int64)
    pb = np.concatenate([s[1] for s in stages]).astype(np.int64)
    st = np.concatenate([s[2] for s in stages])
    horizontal = np.concatenate([s[3] for s in stages])
    opened = spanning_edges(h * w, pa, pb, st == 0)
    new_e = np.zeros(h * w, bool)
    new_s = np.zeros(h * w, bool)
    new_e[pa[opened & horizontal]] = True
    new_s[pa[opened & ~horizontal]] = True

    if report is not None:
        report.walls_cut += int(np.count_nonzero(open_e & east & ~roomy_e))
        report.walls_cut += int(np.count_nonzero(open_s & south & ~roomy_s))
        report.doors += int(np.count_nonzero(opened & (st == 2)))
    return maze.replace(passages=passages_from_links(new_e.reshape(h, w), new_s.reshape(h, w)))
