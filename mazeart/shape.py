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
    Removes every dead end one cell long that hangs off a junction (seed 002,
    step 5): the trivial side pockets of a puzzle.
:func:`braid`
    Opens a wall at a chosen share of the dead ends, turning them into loops,
    so the left-hand rule no longer solves the maze.

Rooms' interiors, their walls and their doors are never touched by the later
steps, and nothing is ever carved on a room cell except by its doors.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mazeart._graph import label_passages, spanning_edges
from mazeart._jit import njit
from mazeart._rng import RngLike, as_generator
from mazeart.errors import MazeartError, check_number
from mazeart.maze import DIRECTIONS, OPPOSITE, STEP, E, Maze, N, S, W, passages_from_links

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
    """Number of open passages of every cell (of a Maze, or of a passages array).

    Returns
    -------
    (H, W) ndarray of int8
    """
    p = maze.passages if isinstance(maze, Maze) else maze
    return ((p & N != 0).astype(np.int8) + (p & E != 0) + (p & S != 0) + (p & W != 0)).astype(
        np.int8
    )


def dead_ends(maze: Maze) -> NDArray[np.bool_]:
    """Maze cells outside rooms with exactly one passage.

    Returns
    -------
    (H, W) ndarray of bool
    """
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


def _closes_square(mask: NDArray[np.bool_], r: int, c: int) -> bool:
    """Whether making ``(r, c)`` path would complete a 2 x 2 square of path blocks."""
    h, w = mask.shape
    for dr in (-1, 1):
        for dc in (-1, 1):
            rr, cc = r + dr, c + dc
            if 0 <= rr < h and 0 <= cc < w and mask[rr, c] and mask[r, cc] and mask[rr, cc]:
                return True
    return False


def _open(p: NDArray[np.uint8], a: tuple[int, int], side: int) -> None:
    dr, dc = STEP[side]
    p[a] |= side
    p[a[0] + dr, a[1] + dc] |= OPPOSITE[side]


# ----------------------------------------------------------------------------- rooms


def install_rooms(maze: Maze, rooms: list[Room]) -> Maze:
    """Add rooms to a maze: their cells join the maze, open inside, with their doors open.

    Parameters
    ----------
    maze : Maze
        A ``cells`` maze carved around the rooms (room cells are not yet maze).
    rooms : list of Room

    Returns
    -------
    Maze
    """
    if not rooms:
        return maze
    if maze.geometry != "cells":
        raise MazeartError("rooms need the cells geometry")
    mask = maze.mask.copy()
    region = maze.region.copy()
    p = maze.passages.copy()
    for room in rooms:
        for r, c in room.cells:
            if maze.mask[r, c]:
                raise MazeartError(f"room {room.name!r} overlaps carved maze at ({r}, {c})")
            mask[r, c] = region[r, c] = True
        for r, c in room.cells:
            for side in (E, S):
                dr, dc = STEP[side]
                if (r + dr, c + dc) in room:
                    _open(p, (r, c), side)
        for d in room.doors:
            if not mask[d.outside]:
                raise MazeartError(f"door {d} of room {room.name!r} opens onto no maze cell")
            _open(p, (d.row, d.col), d.side)
    return maze.replace(mask=mask, region=region, passages=p, rooms=(*maze.rooms, *rooms))


# ----------------------------------------------------------------------------- connect


@njit(cache=True)
def _voronoi(sources, ground, stride):
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
    head = 0
    while head < tail:
        cur = queue[head]
        head += 1
        for nb in (cur - stride, cur + 1, cur + stride, cur - 1):
            if ground[nb] and label[nb] == 0:
                label[nb] = label[cur]
                dist[nb] = dist[cur] + 1
                parent[nb] = cur
                queue[tail] = nb
                tail += 1
    return label, dist, parent


@njit(cache=True)
def _meetings(label, dist, ground, stride):
    """Where two pieces' regions touch across ground: (piece a, piece b, cells crossed, u, v)."""
    n = label.size
    out = np.empty((2 * n, 5), np.int64)
    k = 0
    for u in range(n):
        if label[u] == 0:
            continue
        for v in (u + 1, u + stride):
            if label[v] == 0 or label[v] == label[u]:
                continue
            if not (ground[u] or ground[v]):
                continue
            out[k, 0] = min(label[u], label[v])
            out[k, 1] = max(label[u], label[v])
            out[k, 2] = dist[u] + dist[v]
            out[k, 3] = u
            out[k, 4] = v
            k += 1
    return out[:k]


@njit(cache=True)
def _block_bridge(path, piece, room, inside, stride, main):
    """Shortest corridor of blocks from piece ``main`` to any other piece.

    A corridor block may touch no path block but its predecessor, and its last
    block exactly one block of the piece it reaches (no loop, no side by side).
    Returns the corridor (list of flat cells, last first) and the piece reached.
    """
    n = path.size
    parent = np.full(n, -1, np.int64)
    seen = np.zeros(n, np.bool_)
    queue = np.empty(n, np.int64)
    tail = 0
    for c in range(n):
        if piece[c] == main:
            seen[c] = True
            queue[tail] = c
            tail += 1
    head = 0
    while head < tail:
        cur = queue[head]
        head += 1
        for x in (cur - stride, cur + 1, cur + stride, cur - 1):
            if seen[x] or path[x] or room[x] or not inside[x]:
                continue
            touches = 0
            other = 0
            for y in (x - stride, x + 1, x + stride, x - 1):
                if y != cur and path[y]:
                    touches += 1
                    other = y
            if touches == 0:
                seen[x] = True
                parent[x] = cur
                queue[tail] = x
                tail += 1
            elif touches == 1 and piece[other] != main and piece[other] > 0 and not room[other]:
                parent[x] = cur
                corridor = [x]
                c = cur
                while not path[c]:
                    corridor.append(c)
                    c = parent[c]
                corridor.append(c)  # the block of the main piece it leaves from
                return corridor, other
    return [np.int64(-1)], np.int64(-1)


def _framed(a: NDArray, fill=0) -> NDArray:
    out = np.full((a.shape[0] + 2, a.shape[1] + 2), fill, dtype=a.dtype)
    out[1:-1, 1:-1] = a
    return out


def connect(maze: Maze, *, report: ShapeReport | None = None) -> Maze:
    """Join a maze's separate pieces with bridges across the ground.

    Parameters
    ----------
    maze : Maze
    report : ShapeReport, optional
        Filled with the number of parts, bridges and bridge cells.

    Returns
    -------
    Maze
        Every piece that any corridor can reach is joined; bridge cells become
        maze cells (and region). The bridges form a spanning tree over the
        pieces, so a perfect maze stays perfect.

    Examples
    --------
    >>> from mazeart import generate, preset_from_text
    >>> two = preset_from_text("...#...\\n...#...\\n...#...")
    >>> apart = generate(two, rng=1, islands="separate")
    >>> joined = connect(apart)
    >>> apart.n_passages, joined.n_passages  # two trees of 9 cells, and a bridge cell between
    (16, 18)
    """
    report = report if report is not None else ShapeReport()
    _h, w = maze.shape
    stride = w + 2
    rooms = _framed(maze.room_mask, False).reshape(-1)
    mask = _framed(maze.mask, False).reshape(-1)
    passages = _framed(maze.passages, np.uint8(0)).reshape(-1)
    pieces, n = label_passages(passages, mask, stride)
    report.parts = int(n)
    if n <= 1:
        return maze
    inside = _framed(np.ones(maze.shape, dtype=bool), False).reshape(-1)
    new_mask = maze.mask.copy()
    new_region = maze.region.copy()
    p = maze.passages.copy()

    def cell(flat: int) -> tuple[int, int]:
        r, c = divmod(int(flat), stride)
        return r - 1, c - 1

    def join(a: tuple[int, int], b: tuple[int, int]) -> None:
        for bit, dr, dc in DIRECTIONS:
            if (a[0] + dr, a[1] + dc) == b:
                _open(p, a, bit)
                return
        raise AssertionError("bridge cells are not neighbours")  # pragma: no cover

    if maze.geometry == "cells":
        ground = inside & ~mask & ~rooms
        sources = np.where(mask & ~rooms, pieces, 0).astype(np.int32)
        label, dist, parent = _voronoi(sources, ground, stride)
        meet = _meetings(label, dist, ground, stride)
        # Kruskal over pieces: cheapest meeting per pair, then cheapest pairs first.
        ordered = meet[np.lexsort((meet[:, 4], meet[:, 3], meet[:, 2]))]
        kept = spanning_edges(
            n + 1,
            np.ascontiguousarray(ordered[:, 0]),
            np.ascontiguousarray(ordered[:, 1]),
            np.zeros(len(ordered), np.bool_),
        )
        for _a, _b, length, u, v in ordered[kept]:
            chain_u = [int(u)]
            while parent[chain_u[-1]] >= 0:
                chain_u.append(int(parent[chain_u[-1]]))
            chain_v = [int(v)]
            while parent[chain_v[-1]] >= 0:
                chain_v.append(int(parent[chain_v[-1]]))
            corridor = [cell(x) for x in chain_u[::-1] + chain_v]
            for c in corridor[1:-1]:
                new_mask[c] = new_region[c] = True
            for x, y in itertools.pairwise(corridor):
                join(x, y)
            report.bridges += 1
            report.bridge_cells += int(length)
        report.unreachable = n - 1 - int(np.count_nonzero(kept))
    else:
        path = mask.copy()
        piece = pieces.copy()
        sizes = np.bincount(pieces[pieces > 0])
        main = int(np.argmax(sizes))
        remaining = n - 1
        while remaining:
            corridor, other = _block_bridge(path, piece, rooms, inside, stride, main)
            if other < 0:
                break
            reached = piece[other]
            piece[piece == reached] = main
            cells = [cell(x) for x in corridor]  # from the reached end back to main
            for x in corridor[:-1]:
                path[x] = True
                piece[x] = main
            cells = [cell(other), *cells]
            for c in cells[1:-1]:
                new_mask[c] = new_region[c] = True
            for x, y in itertools.pairwise(cells):
                join(x, y)
            report.bridges += 1
            report.bridge_cells += len(cells) - 2
            remaining -= 1
        report.unreachable = remaining
    return maze.replace(mask=new_mask, region=new_region, passages=p)


# ----------------------------------------------------------------------------- dead ends


def prune_dead_ends(maze: Maze, *, report: ShapeReport | None = None) -> Maze:
    """Remove every dead end one cell long that branches off a junction (seed 002, step 5).

    A dead-end cell whose only neighbour has three or more passages is cut off
    and leaves the maze (a ``cells`` maze shows it as a closed square, a
    ``blocks`` maze as a wall block); this repeats until none is left. Rooms,
    the cells in front of doors, the entrance, the exit and tagged cells are kept.

    Parameters
    ----------
    maze : Maze
    report : ShapeReport, optional

    Returns
    -------
    Maze

    Examples
    --------
    >>> import numpy as np
    >>> from mazeart import generate
    >>> maze = generate(np.zeros((10, 10), np.int32), algorithm="prim", rng=3)
    >>> pruned = prune_dead_ends(maze)
    >>> pruned.n_cells < maze.n_cells and pruned.n_passages == pruned.n_cells - 1
    True
    """
    report = report if report is not None else ShapeReport()
    mask = maze.mask.copy()
    p = maze.passages.copy()
    keep = _protected(maze)
    while True:
        deg = degrees(p)
        stubs = []
        for r, c in zip(*np.nonzero(mask & (deg == 1) & ~keep), strict=True):
            side = int(p[r, c])
            dr, dc = STEP[side]
            if deg[r + dr, c + dc] >= 3:
                stubs.append((int(r), int(c), side, r + dr, c + dc))
        if not stubs:
            break
        # Cut one stub per junction per round, so a junction's degree is re-read.
        seen = set()
        for r, c, side, jr, jc in stubs:
            if (jr, jc) in seen:
                continue
            seen.add((jr, jc))
            p[r, c] = 0
            p[jr, jc] &= ~np.uint8(OPPOSITE[side])
            mask[r, c] = False
            report.pruned += 1
    return maze.replace(mask=mask, passages=p)


def braid(
    maze: Maze, fraction: float, rng: RngLike = None, *, report: ShapeReport | None = None
) -> Maze:
    """Remove a share of the dead ends by opening a wall at each, creating loops.

    Dead ends are visited in random order; each still a dead end opens a wall to
    a neighbouring maze cell, preferring one that is a dead end too (which
    removes two at once), until ``fraction`` of the original dead ends are gone.
    In a ``blocks`` maze the opening is a wall block beside the dead end that
    touches at least one other path block and closes no 2 x 2 opening; it joins
    every path block it touches. Dead ends with no such wall block stay, so a
    block maze may braid less than asked (the report says how many).

    Parameters
    ----------
    maze : Maze
    fraction : float
        Share of dead ends to remove, 0 to 1.
    rng : int or numpy.random.Generator, optional
        Seed or Generator (fresh entropy when omitted).
    report : ShapeReport, optional

    Returns
    -------
    Maze

    Examples
    --------
    >>> import numpy as np
    >>> from mazeart import generate, measure
    >>> maze = generate(np.zeros((10, 10), np.int32), rng=3)
    >>> measure(braid(maze, 1.0, rng=3)).dead_ends, measure(maze).dead_ends > 0
    (0, True)
    """
    fraction = check_number(fraction, "braid fraction", low=0.0, high=1.0)
    report = report if report is not None else ShapeReport()
    rooms = maze.room_mask
    ends = dead_ends(maze)
    before = int(ends.sum())
    report.dead_ends_before = before
    target = round(float(fraction) * before)
    if target == 0:
        return maze
    h, w = maze.shape
    mask = maze.mask.copy()
    p = maze.passages.copy()
    deg = degrees(maze).astype(np.int64)
    cells = np.argwhere(ends)
    removed = 0
    rng = as_generator(rng)
    for i in rng.permutation(len(cells)):
        if removed >= target:
            break
        r, c = (int(x) for x in cells[i])
        if deg[r, c] != 1:
            continue
        options: list[tuple[Any, ...]] = []
        for bit, dr, dc in DIRECTIONS:
            if p[r, c] & bit:
                continue
            if maze.geometry == "cells":
                nr, nc = r + dr, c + dc
                if 0 <= nr < h and 0 <= nc < w and mask[nr, nc] and not rooms[nr, nc]:
                    options.append((deg[nr, nc] == 1, bit, (nr, nc), None))
            else:
                wr, wc = r + dr, c + dc
                if not (0 <= wr < h and 0 <= wc < w) or mask[wr, wc] or rooms[wr, wc]:
                    continue
                if not maze.region[wr, wc]:
                    continue
                touching = [
                    (wr + er, wc + ec)
                    for _, er, ec in DIRECTIONS
                    if 0 <= wr + er < h and 0 <= wc + ec < w and mask[wr + er, wc + ec]
                ]
                if len(touching) < 2 or any(rooms[t] for t in touching):
                    continue
                if _closes_square(mask, wr, wc):
                    continue
                others = [t for t in touching if t != (r, c)]
                options.append((any(deg[t] == 1 for t in others), bit, others, (wr, wc)))
        if not options:
            continue
        best = [o for o in options if o[0]] or options
        _, bit, far, wall = best[int(rng.integers(len(best)))]  # far: cells beyond
        _open(p, (r, c), bit)
        deg[r, c] += 1
        removed += 1
        if wall is None:
            far = [far]
        else:  # a block touches every path block beside it: open them all
            mask[wall] = True
            deg[wall] = 1
            for side, dr, dc in DIRECTIONS:
                if (wall[0] + dr, wall[1] + dc) in far:
                    _open(p, wall, side)
                    deg[wall] += 1
        for f in far:
            removed += int(deg[f] == 1)
            deg[f] += 1
    out = maze.replace(mask=mask, passages=p)
    report.braided = before - int(dead_ends(out).sum())
    return out


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
