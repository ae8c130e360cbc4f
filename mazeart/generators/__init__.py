"""Generators: weight matrix in, Maze out.

Every generator is a plain function ``fn(weights, rng, *, geometry=..., **options)``
registered with :func:`register`; :data:`ALGORITHMS` lists them, and
:func:`generate` runs the whole pipeline (check the preset, carve, choose the
entrance and exit, record metadata).

>>> import numpy as np
>>> from mazeart import generate, preset_from_text
>>> maze = generate(preset_from_text('''
...     ......
...     ......
...     ..##..
... '''), rng=1)
>>> maze.n_cells, maze.n_passages
(16, 15)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mazeart._kernels.parts import label_mask
from mazeart._rng import RngLike, as_generator, fresh_seed
from mazeart.errors import MazeartError, check_choice, check_number
from mazeart.generators._registry import ALGORITHMS, Algorithm, get_algorithm, register
from mazeart.maze import DIRECTIONS, GEOMETRIES, OPPOSITE, Maze, check_maze
from mazeart.shape import ShapeReport
from mazeart.solvers import distances
from mazeart.weights import FREE, ROOM, TAG, is_free, validate_weights

if TYPE_CHECKING:
    from mazeart.rooms import Room

# Algorithm modules register themselves on import; this order is the listing order.
from mazeart.generators import (  # noqa: F401  isort: skip
    weighted_dfs,
    backtracker,
    prim,
    digging,
    wilson,
    kruskal,
    aldous_broder,
    hunt_and_kill,
    growing_tree,
    binary_tree,
    sidewinder,
    eller,
    division,
    hybrid,
    flow,
)

__all__ = [
    "ALGORITHMS",
    "DEFAULT_ALGORITHM",
    "Algorithm",
    "default_endpoints",
    "door_cuts",
    "generate",
    "get_algorithm",
    "register",
]

DEFAULT_ALGORITHM = "weighted-dfs"


def _faces(maze: Maze) -> tuple[NDArray[np.bool_], NDArray[np.bool_], NDArray[np.bool_]]:
    """Grid cells whose north side, south side, or any side faces the outside."""
    out = np.pad(maze.outside, 1, constant_values=True)
    north, south = out[:-2, 1:-1], out[2:, 1:-1]
    return north, south, north | south | out[1:-1, :-2] | out[1:-1, 2:]


def _face_cells(
    maze: Maze,
) -> tuple[NDArray[np.intp], NDArray[np.bool_], NDArray[np.bool_]]:
    """The cells of :func:`_faces` as flat indices in order, and for each whether its
    north and its south side face the outside. On a full region these are the
    grid's border, found with no pass over the grid."""
    h, w = maze.shape
    if maze.region.all():
        ring = [np.arange(w), np.arange(w, (h - 1) * w, w), np.arange(2 * w - 1, h * w, w)]
        ring.append(np.arange((h - 1) * w, h * w))
        cells = np.unique(np.concatenate(ring))
        return cells, cells < w, cells >= (h - 1) * w
    north, south, faces = _faces(maze)
    cells = np.flatnonzero(faces)
    return cells, north.reshape(-1)[cells], south.reshape(-1)[cells]


def door_cuts(maze: Maze) -> NDArray[np.intp]:
    """Where a ``blocks`` maze's border can be cut for a door (as the block Prim's maze cuts them).

    A block maze on a rectangle keeps its outermost ring as wall, so no path
    block touches the outside; the door is cut through that ring: a wall block
    of the region with a side on the outside and exactly one path block beside it
    becomes path, joined to that block.

    Parameters
    ----------
    maze : Maze

    Returns
    -------
    (H, W) ndarray of intp
        For each cell that can be cut, the flat index of the path block it joins;
        ``-1`` elsewhere (always ``-1`` for a ``cells`` maze).
    """
    anchor = np.full(maze.shape, -1, dtype=np.intp)
    cut, beside = _door_cut_pairs(maze)
    anchor.reshape(-1)[cut] = beside
    return anchor


def _door_cut_pairs(
    maze: Maze, faces: NDArray[np.intp] | None = None
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """:func:`door_cuts` as two flat index arrays: the cells that can be cut, and the
    path block each joins (work on the border cells only: ``faces``, the first array
    of :func:`_face_cells`, found here when not given)."""
    none = np.zeros(0, dtype=np.intp)
    if maze.geometry != "blocks":
        return none, none
    h, w = maze.shape
    cand = _face_cells(maze)[0] if faces is None else faces
    keep = maze.region.reshape(-1)[cand] & ~maze.mask.reshape(-1)[cand]
    if maze.rooms:
        keep &= ~maze.room_mask.reshape(-1)[cand]
    cand = cand[keep]
    if not cand.size:
        return none, none
    rows, cols = np.divmod(cand, w)
    count = np.zeros(cand.size, dtype=np.intp)
    joins = np.full(cand.size, -1, dtype=np.intp)
    mask = maze.mask
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = rows + dr, cols + dc
        inside = (r >= 0) & (r < h) & (c >= 0) & (c < w)
        path = np.zeros(cand.size, dtype=bool)
        path[inside] = mask[r[inside], c[inside]]
        count += path
        joins = np.where(path, r * w + c, joins)
    one = count == 1
    return cand[one], joins[one]


def _graph_endpoints(maze: Maze, given: NDArray[np.bool_] | None = None) -> tuple[int, int]:
    """The entrance and exit: two cells on the maze's outside with a long path between them.

    With ``given`` (the cells the picture gave the maze), an end is one of those where it
    can be, never a bridge across the ground (which a smooth outline draws as a corridor
    from its piece of figure, not round its centre). On a polar grid whose centre cell is
    maze (and may be an end), the exit is the centre and the entrance the rim cell farthest
    from it (the classic round maze). On a full
    grid (every cell maze), the entrance is on the top row and the exit on the
    bottom row. Otherwise both are boundary cells. On a perfect maze (its part
    one tree) they are the pair of such cells farthest apart, found exactly in
    one walk; with loops, the farthest from one candidate, and the farthest
    from that.

    Returns
    -------
    entrance, exit : int
        Without a rule above, the entrance is the one nearer the top (then the left).
    """
    from mazeart.solvers import distances

    if maze.n_cells == 0:
        raise MazeartError("the maze has no cells")
    indptr, indices = maze.open_table
    rooms = maze.room_mask if maze.rooms else np.zeros(maze.grid.n_cells, bool)
    given = np.ones(maze.grid.n_cells, bool) if given is None else given.reshape(-1)
    cand = np.flatnonzero(maze.boundary & ~rooms & given)  # an end is never in a room
    if cand.size == 0:
        cand = np.flatnonzero(maze.boundary & ~rooms)
    if cand.size == 0:
        cand = np.flatnonzero(maze.mask & ~rooms)
    if cand.size == 0:
        cand = np.flatnonzero(maze.mask)
    # the largest part along the passages (of those holding a candidate)
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    n = maze.grid.n_cells
    graph = csr_matrix((np.ones(len(indices), np.int8), indices, indptr), shape=(n, n))
    _, part = connected_components(graph, directed=False)
    sizes = np.bincount(part, weights=maze.mask, minlength=int(part.max()) + 1)
    held = np.unique(part[cand])
    largest = held[np.argmax(sizes[held])]
    cand = cand[part[cand] == largest]
    g = maze.grid
    if g.kind == "polar" and part[0] == largest and maze.mask[0] and given[0] and not rooms[0]:
        # rim to middle
        d = distances(maze, 0)
        return int(cand[np.argmax(d[cand])]), 0
    starts = finishes = cand
    if bool(maze.mask.all()):  # a full grid: in at the top, out at the bottom (as squares)
        y = g.centres[cand, 1]
        top, bottom = cand[y <= y.min() + 0.5], cand[y >= y.max() - 0.5]
        if top.size and bottom.size and np.union1d(top, bottom).size > 1:
            starts, finishes = top, bottom
    degree = np.diff(indptr)
    inside = part == largest
    a = -1
    if 2 * (int(sizes[largest]) - 1) == int(degree[inside].sum()):  # one tree: exact
        from mazeart._kernels.paths import farthest_in_tree

        role = np.zeros(n, np.uint8)
        role[starts] |= 1
        role[finishes] |= 2
        a, b, _ = (int(v) for v in farthest_in_tree((indptr, indices), n,
                                                    int(cand[0]), role))  # fmt: skip
    if a < 0:  # the farthest from the farthest (or one cell: the same)
        d1 = distances(maze, int(cand[0]))
        a = int(starts[np.argmax(d1[starts])])
        d2 = distances(maze, a)
        away = d2[finishes].astype(np.int64)
        away[finishes == a] = -1
        b = int(finishes[np.argmax(away)])
    if starts is not cand:
        return a, b
    ya, yb = g.centres[a], g.centres[b]
    return (a, b) if (ya[1], ya[0]) <= (yb[1], yb[0]) else (b, a)


def default_endpoints(
    maze: Maze,
) -> tuple[tuple[int, int], tuple[int, int]] | tuple[int, int]:
    """Two cells on the figure's outer boundary with a long path between them.

    Works on the largest 4-connected part of the maze's cells. Candidates are
    the cells with a side on the outside (holes do not count) and, on a
    ``blocks`` maze, the border blocks that can be cut for a door
    (:func:`door_cuts`). On a ``blocks`` maze and on a full rectangle, the
    entrance opens to the north and the exit to the south when both kinds of
    candidate exist (the block Prim's maze's entry in the top border, exit in
    the bottom one). When the maze is one tree (a perfect maze of one part, the common
    case), a single depth-first walk finds the exact farthest pair: the longest
    boundary-to-boundary path, or with the north/south preference the longest
    from the top to the bottom. Otherwise (loops, rooms, several parts) a
    breadth-first pass from one candidate finds the farthest, and a second pass
    from that one the farthest from it. Falls back to all cells of the piece
    when none touches the outside.

    Parameters
    ----------
    maze : Maze
        On a grid other than the square one, the ends are cell ids
        (see :func:`_graph_endpoints`).

    Returns
    -------
    entrance, exit : (int, int) or int
        The entrance is the one nearer the top (then the left), or the northern
        one. On a ``blocks`` maze either may be a border block still to be cut
        (it is a wall block of ``maze``).

    Examples
    --------
    >>> from mazeart import generate, preset_from_text
    >>> maze = generate(preset_from_text("..#..\\n.....\\n..#.."), rng=2, islands="separate")
    >>> default_endpoints(maze) == (maze.entrance, maze.exit)
    True
    """
    check_maze(maze)
    if not maze.is_square:
        return _graph_endpoints(maze)
    if maze.n_cells == 0:
        raise MazeartError("the maze has no cells")
    found = _tree_endpoints(maze)
    if found is not None:
        return found
    parts, _ = label_mask(maze.mask)
    sizes = np.bincount(parts[maze.mask])
    part = (parts == int(np.argmax(sizes))).reshape(-1)
    rooms = maze.room_mask
    north, south, faces = _faces(maze)
    cuts = door_cuts(maze).reshape(-1)
    anchor = np.where(cuts >= 0, cuts, np.arange(cuts.size))
    step = (cuts >= 0).astype(np.int64)  # a cut block is one step beyond its anchor
    cand = (((maze.mask & faces).reshape(-1)) | (cuts >= 0)) & part[anchor] & ~rooms.reshape(-1)
    if not cand.any():
        body = part & ~rooms.reshape(-1)
        cand = body if body.any() else part
    flat_cand = np.flatnonzero(cand)
    width = maze.width
    d1 = distances(maze, divmod(int(anchor[flat_cand[0]]), width)).reshape(-1)
    # Only cells the passages actually reach from there (all of the part, in a valid maze).
    flat_cand = flat_cand[d1[anchor[flat_cand]] >= 0]
    north_of, south_of = north.reshape(-1)[flat_cand], south.reshape(-1)[flat_cand]
    starts, finishes = _top_and_bottom(maze, flat_cand, north_of, south_of)
    a = int(starts[np.argmax(d1[anchor[starts]] + step[starts])])
    d2 = distances(maze, divmod(int(anchor[a]), width)).reshape(-1)
    away = d2[anchor[finishes]] + step[finishes] + step[a]
    away[finishes == a] = -1
    b = int(finishes[np.argmax(away)])
    ends = divmod(a, width), divmod(b, width)
    if finishes is starts and ends[1] < ends[0]:
        ends = ends[1], ends[0]
    return ends


def _other_end(maze: Maze, given: Any, *, given_is_entrance: bool) -> Any:
    """The end that was not given: the candidate of :func:`default_endpoints` farthest
    from the given one (on a rectangle or a blocks maze, on the side the missing end
    opens to when there is one). None when the given cell is no maze cell or door (the
    caller's door check says what is wrong) or nothing else is reachable."""
    if not maze.is_square:  # the boundary cell it reaches farthest away
        if not maze.is_cell(given):
            return None
        d = distances(maze, given)
        cand = maze.boundary & (d > 0) & ~maze.room_mask
        if not cand.any():
            cand = (d > 0) & ~maze.room_mask
        return int(np.argmax(np.where(cand, d, -1))) if cand.any() else None
    h, width = maze.shape
    r, c = (int(v) for v in given)
    if not (0 <= r < h and 0 <= c < width):
        return None
    flat = r * width + c
    cut, beside = _door_cut_pairs(maze)
    hit = np.flatnonzero(cut == flat)
    source = int(beside[hit[0]]) if hit.size else flat
    if not maze.mask.reshape(-1)[source]:
        return None
    d = distances(maze, divmod(source, width)).reshape(-1)
    anchor = np.arange(maze.mask.size)
    anchor[cut] = beside
    step = np.zeros(maze.mask.size, dtype=np.int64)  # a cut block is one step beyond
    step[cut] = 1
    north, south, faces = _faces(maze)
    cand = (maze.mask & faces).reshape(-1)
    cand[cut] = True
    cand &= ~maze.room_mask.reshape(-1) & (d[anchor] >= 0)
    cand[flat] = False
    if maze.geometry == "blocks" or bool(maze.region.all()):
        side = (south if given_is_entrance else north).reshape(-1)
        if np.any(cand & side):
            cand &= side
    if not cand.any():  # nothing outward: any other cell it reaches
        cand = (d >= 0) & ~maze.room_mask.reshape(-1)
        cand[source] = False
        if not cand.any():
            return None
    away = np.where(cand, d[anchor] + step, -1)
    return divmod(int(np.argmax(away)), width)


def _top_and_bottom(
    maze: Maze, cand: NDArray[np.intp], north: NDArray[np.bool_], south: NDArray[np.bool_]
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Where the entrance and the exit may be among the candidates ``cand`` (flat; whether
    each faces north and south beside them): on a blocks maze or a full rectangle, the
    north-facing and the south-facing ones when both exist (as the block Prim's maze has
    them); otherwise all of them, the same array twice."""
    if maze.geometry == "blocks" or bool(maze.region.all()):
        tops = cand[north]
        bottoms = cand[south]
        if tops.size and bottoms.size and np.union1d(tops, bottoms).size > 1:
            return tops, bottoms
    return cand, cand


def _tree_endpoints(maze: Maze) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """:func:`default_endpoints` in one pass, when the maze is a single tree (the
    common case: one free part, no rooms, not braided yet); None otherwise.

    The border blocks a ``blocks`` maze can cut for a door join the tree as leaves
    on their path block, so every candidate is a cell of the pass and the farthest
    pair (:func:`mazeart.solvers._farthest_pair`) is exact.
    """
    from mazeart.solvers import _farthest_pair, _row_tree_pair

    if (maze.height + 2) * (maze.width + 2) >= 2**31:  # the walk keeps cells, framed,
        return None  # as 32-bit numbers
    width = maze.width
    height = maze.height
    passages = np.ascontiguousarray(maze.passages).reshape(-1)
    joined = 0
    if maze.geometry == "cells" and height > 1 and not maze.rooms and bool(maze.mask.all()):
        a, b = _row_tree_pair(passages, height, width)  # a full rectangle: a row tree?
        if a >= 0:
            return divmod(int(a), width), divmod(int(b), width)
        firsts = np.arange(width)  # else the top row to the bottom one, as below
        seconds = np.arange((height - 1) * width, height * width)
    else:
        faces, north, south = _face_cells(maze)
        keep = maze.mask.reshape(-1)[faces]
        if maze.rooms:
            keep &= ~maze.room_mask.reshape(-1)[faces]
        flat_cand = faces[keep]
        if maze.geometry == "blocks":
            cut, anchor = _door_cut_pairs(maze, faces)
            if cut.size:
                passages = passages.copy()
                step_r, step_c = anchor // width - cut // width, anchor % width - cut % width
                for bit, dr, dc in DIRECTIONS:  # the side of the cut that faces its path block
                    toward = (step_r == dr) & (step_c == dc)
                    passages[cut[toward]] |= bit
                    passages[anchor[toward]] |= OPPOSITE[bit]
                flat_cand = np.union1d(flat_cand, cut)  # (the cuts face the outside too)
                joined = int(cut.size)
        at = np.searchsorted(faces, flat_cand)
        if flat_cand.size < 2:
            return None
        firsts, seconds = _top_and_bottom(maze, flat_cand, north[at], south[at])
    a, b, reached, tree = _farthest_pair(passages, width, int(firsts[0]), firsts, seconds)
    if not tree or a < 0 or reached != maze.n_cells + joined:
        return None
    ends = divmod(int(a), width), divmod(int(b), width)
    if firsts is seconds and ends[1] < ends[0]:
        ends = ends[1], ends[0]
    return ends


def _cut_door(maze: Maze, cell: tuple[int, int], what: str) -> Maze:
    """``maze`` with the border block ``cell`` cut into a door (:func:`door_cuts`) when it is
    one; a ``blocks`` maze refuses any other cell that is no path block, saying what is."""
    if maze.geometry != "blocks" or maze.is_cell(cell):
        return maze
    r, c = (int(v) for v in cell)
    inside = 0 <= r < maze.height and 0 <= c < maze.width
    cut, beside = _door_cut_pairs(maze)
    at = np.flatnonzero(cut == r * maze.width + c) if inside else np.zeros(0, np.intp)
    anchor = int(beside[at[0]]) if at.size else -1
    if anchor < 0:
        raise MazeartError(
            f"{what} {(r, c)} is neither a path block nor a border block beside exactly one "
            "(a blocks maze opens its doors there)"
        )
    ar, ac = divmod(anchor, maze.width)
    bit = next(b for b, dr, dc in DIRECTIONS if (r + dr, c + dc) == (ar, ac))
    mask, passages = maze.mask.copy(), maze.passages.copy()
    mask[r, c] = True
    passages[r, c] |= bit
    passages[ar, ac] |= OPPOSITE[bit]
    return maze.replace(mask=mask, passages=passages)


def _drop_unreached(maze: Maze, report: ShapeReport) -> Maze:
    """The maze without the parts the connectivity pass could not reach (on any grid; on
    the square grid's blocks they become wall blocks), or a refusal when those hold more
    than the part that is kept, or a room."""
    from mazeart._kernels.parts import label_links

    keep_cells = np.ascontiguousarray(maze.mask.reshape(-1))
    links = maze.passages.reshape(-1) if maze.is_square else maze.passages
    labels, _ = label_links(maze.topology, keep_cells, links)
    sizes = np.bincount(labels[keep_cells])
    keep = (labels == int(np.argmax(sizes))) & keep_cells
    dropped = int(np.count_nonzero(keep_cells & ~keep))
    if dropped > maze.n_cells - dropped:
        raise MazeartError(
            f"{report.unreachable} of the {report.parts} separate parts ({dropped} cells) cannot "
            "be reached by a corridor that touches nothing but its ends (the blocks geometry "
            "needs room between parts); keep them apart with islands='separate', or use the "
            "cells geometry"
        )
    for room in maze.rooms:
        if not keep[maze.cell_index(room.cells[0])]:
            raise MazeartError(
                f"room {room.name!r} cannot be reached: its doors open onto a part of the maze "
                "no corridor reaches (move its doors)"
            )
    report.dropped_cells = dropped
    mask = keep.reshape(maze.mask.shape)
    if maze.is_square:
        return maze.replace(mask=mask, passages=np.where(mask, maze.passages, 0))
    a, b = maze.grid.wall_cells[:, 0], np.maximum(maze.grid.wall_cells[:, 1], 0)
    return maze.replace(mask=mask, passages=maze.passages & keep[a] & keep[b])


def _tags_on_path(maze: Maze, tags: dict[tuple[int, int], str]) -> dict[tuple[int, int], str]:
    """The preset's tags, each on its cell or, where that became a wall block, the nearest
    free path block (a blocks maze decides which free cells become path)."""
    if all(maze.mask[cell] for cell in tags):
        return tags
    from scipy import ndimage

    out = {cell: kind for cell, kind in tags.items() if maze.mask[cell]}
    free = maze.mask & ~maze.room_mask
    for cell, kind in sorted(tags.items()):
        if maze.mask[cell]:
            continue
        spot = free.copy()
        for taken in out:
            spot[taken] = False
        if not spot.any():
            raise MazeartError(
                f"tag {kind!r} at {cell} has no path block left to stand on (the blocks maze "
                f"has {int(free.sum())} path cells for {len(tags)} tags)"
            )
        _, (ri, ci) = ndimage.distance_transform_edt(~spot, return_indices=True)
        out[(int(ri[cell]), int(ci[cell]))] = kind
    return out


def _algorithm_and_geometry(
    algorithm: str, geometry: str | None, options: Mapping[str, Any]
) -> tuple[Any, str]:
    """The registered algorithm, the geometry it draws (its first by default), both checked
    with the algorithm's options: :func:`generate`'s first step."""
    algo = get_algorithm(algorithm)
    geometry = (
        algo.geometries[0] if geometry is None else check_choice(geometry, "geometry", GEOMETRIES)
    )
    if geometry not in algo.geometries:
        raise MazeartError(
            f"{algo.name} does not support geometry {geometry!r} "
            f"(it supports {', '.join(algo.geometries)})"
        )
    if "seed" in options:
        raise TypeError("generate() takes the seed as rng=SEED (an int or a numpy Generator)")
    unknown = set(options) - set(algo.options)
    if unknown:
        valid = ", ".join(algo.options) or "none"
        raise MazeartError(
            f"{algo.name} has no option {', '.join(sorted(unknown))} (its options: {valid})"
        )
    return algo, geometry


def finish(
    maze: Maze,
    generator: np.random.Generator,
    *,
    report: ShapeReport,
    islands: str = "connect",
    entrance: Any = None,
    exit: Any = None,
    auto: Any = None,
    prune: bool = False,
    braid: float = 0.0,
    place: Mapping[str, int] | None = None,
    zones: NDArray[np.int64] | None = None,
    tags: Mapping[Any, str] | None = None,
    allowed: NDArray[np.bool_] | None = None,
) -> Maze:
    """The steps after carving, the same on every grid: join the parts (and drop what no
    corridor reaches), carry the preset's tags, choose and open the ends, prune, braid
    and place tags.

    ``auto`` is the ends already found (a single tree's walk; then there is nothing to
    join); ``zones`` the parts braiding must not open a wall between (default: the
    guide's colour regions); ``allowed`` where tags may go (the maze cells that are not
    bridges across the ground).
    """
    from mazeart.shape import braid as braid_dead_ends
    from mazeart.shape import connect, prune_dead_ends
    from mazeart.tags import place_tags

    if islands == "connect":
        if auto is None:
            maze = connect(maze, report=report)
        else:
            report.parts = 1
    if report.unreachable:
        maze = _drop_unreached(maze, report)
    if tags:
        maze = maze.replace(tags=_tags_on_path(maze, dict(tags)))
    maze = _with_ends(maze, entrance, exit, auto, allowed)
    if prune:
        maze = prune_dead_ends(maze, report=report)
    if braid:
        maze = braid_dead_ends(maze, braid, generator, report=report, zones=zones)
    if place:
        where = maze.mask if allowed is None else allowed.reshape(maze.shape) & maze.mask
        maze = place_tags(maze, place, generator, allowed=where)
    return maze


def recorded_options(defaults: Mapping[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """An algorithm's options as a maze's ``meta`` records them (a per-cell array named)."""
    return {
        k: "(per-cell array)" if isinstance(v, np.ndarray) else v
        for k, v in {**defaults, **given}.items()
    }


def _with_ends(
    maze: Maze, entrance: Any, exit: Any, auto: Any, allowed: NDArray[np.bool_] | None = None
) -> Maze:
    """The maze entered at ``entrance`` and left at ``exit``, their doors cut: the ones
    given; with one given, the other the farthest from it; else ``auto`` (the ends a single
    tree's walk found) or :func:`default_endpoints` (on a grid other than the square one,
    on cells of ``allowed``, those the picture gave the maze, where it can: not on a
    bridge)."""
    if (entrance is None) != (exit is None):  # one end given: the other is the farthest
        fixed = entrance if entrance is not None else exit
        other = _other_end(maze, fixed, given_is_entrance=entrance is not None)
        if other is not None:
            entrance, exit = (fixed, other) if entrance is not None else (other, fixed)
    if auto is None and (entrance is None or exit is None):
        if allowed is not None and not maze.is_square:  # (no end on a bridge)
            auto = _graph_endpoints(maze, allowed & maze.mask.reshape(allowed.shape))
        else:
            auto = default_endpoints(maze)
    if auto is not None:
        entrance = auto[0] if entrance is None else entrance
        exit = auto[1] if exit is None else exit
    maze = _cut_door(_cut_door(maze, entrance, "entrance"), exit, "exit")
    return maze.replace(entrance=entrance, exit=exit)


def generate(
    weights: ArrayLike,
    *,
    algorithm: str | None = None,
    geometry: str | None = None,
    rng: RngLike = None,
    entrance: Any = None,
    exit: Any = None,
    rooms: Sequence[Room | tuple[Room, list]] | None = None,
    islands: str = "connect",
    prune: bool = False,
    braid: float = 0.0,
    place: Mapping[str, int] | str | None = None,
    walls: tuple[ArrayLike, ArrayLike] | None = None,
    inside: ArrayLike | None = None,
    report: ShapeReport | None = None,
    route: ArrayLike | None = None,
    decoys: float | None = None,
    wander: float | None = None,
    **options: Any,
) -> Maze:
    """Carve a maze into a preset, connect and shape it, and record how it was made.

    The pipeline: read rooms and tags off the preset, carve the free cells with
    the algorithm, install the rooms, join islands with bridges, prune and braid
    dead ends, choose the entrance and exit, place tags. On another grid, the same
    steps: :func:`mazeart.grids.generate.generate_on_grid` (both end in :func:`finish`).

    Parameters
    ----------
    weights : (H, W) array_like of int
        Preset weight matrix (see :mod:`mazeart.weights`).
    algorithm : str, optional
        A key of :data:`ALGORITHMS` (default ``'weighted-dfs'``).
    geometry : {'cells', 'blocks'}, optional
        Defaults to the algorithm's first supported geometry.
    rng : int or numpy.random.Generator, optional
        An int seed (recorded in ``maze.meta['seed']``, so it makes the same
        maze again), a Generator (used as is; no seed is recorded), or None
        for a fresh seed (drawn and recorded).
    entrance, exit : (int, int), optional
        Override the automatic choice (see :func:`default_endpoints`). With only
        one given, the other is the candidate farthest from it.
    rooms : sequence of Room or (Room, doors), optional
        Rooms to stamp into the preset (checked: inside the grid, no overlap,
        doors on their edges opening onto free cells). Without it, rooms are
        read from the preset's ``ROOM``/``DOOR`` codes.
    islands : {'connect', 'separate'}, default 'connect'
        Join separate parts with bridges, or leave them apart.
    prune : bool, default False
        Remove one-cell dead ends that hang off junctions.
    braid : float, default 0
        Share of dead ends to open into loops.
    place : mapping or str, optional
        Tags to place, ``{"loot": 5}`` or ``"loot=5,spawn=2"`` (see :mod:`mazeart.tags`).
    walls : (east, south) pair of (H, W) array_like of bool, optional
        Extra walls to respect (e.g. :func:`mazeart.guide.segment_walls`):
        crossed only through as few doors as keep each part connected.
    inside : (H, W) array_like of bool, optional
        Cells of the figure that hold no maze (a smooth outline's margin): they
        join the maze's ``region``, so they are figure, not ground, and no door
        opens onto them.
    report : ShapeReport, optional
        Filled with what the shaping steps did.
    route : (L,) array_like of int, optional
        Flat cells (``row * W + col``) the solution follows (:mod:`mazeart.route`): the
        maze is carved around them instead of by ``algorithm``, and they run from the
        entrance to the exit, the only way between them.
    decoys : float, optional
        With ``route``: the share of its cells a wrong turn leaves from.
    wander : float, optional
        With ``route``: the share of its steps that go round by a few cells beside it,
        so that its straight runs do not show (:func:`mazeart.route.wander`; none by
        default); the route recorded is the one the solution follows.
    **options
        Passed to the algorithm (see ``ALGORITHMS[name].options``).

    Returns
    -------
    Maze

    Raises
    ------
    MazeartError
        If the preset, rooms, algorithm, geometry, options, endpoints or tag
        counts are not valid.
    TypeError
        If ``rng`` is neither an int nor a Generator.

    Examples
    --------
    >>> import numpy as np
    >>> from mazeart import generate, solve
    >>> maze = generate(np.zeros((8, 12), np.int32), algorithm="wilson", rng=7)
    >>> maze.n_cells, maze.n_passages  # a perfect maze: a tree over every free cell
    (96, 95)
    >>> maze.entrance[0], maze.exit[0]  # a rectangle is entered from the top, left at the bottom
    (0, 7)
    >>> bool(np.array_equal(solve(maze)[0], maze.entrance))
    True
    """
    from mazeart.rooms import rooms_from_weights, stamp_rooms
    from mazeart.shape import install_rooms, respect_walls, wall_zones
    from mazeart.tags import parse_place, tags_from_weights

    algorithm = DEFAULT_ALGORITHM if algorithm is None else algorithm

    w = validate_weights(weights)
    algo, geometry = _algorithm_and_geometry(algorithm, geometry, options)
    check_choice(islands, "islands", ("connect", "separate"))
    braid = check_number(braid, "braid", low=0.0, high=1.0)
    wander = 0.0 if wander is None else check_number(wander, "wander", low=0.0, high=1.0)
    wanted = parse_place(place) if place else {}
    if rooms:
        w, room_list = stamp_rooms(w, rooms)
    highest = int(w.max())  # no room or tag code above it: no search for them (one pass)
    if not rooms:
        room_list = rooms_from_weights(w) if highest > ROOM else []
    if room_list and geometry != "cells":
        raise MazeartError("rooms need the cells geometry")
    if w.min() != FREE and not np.any(is_free(w)):
        raise MazeartError("the preset has no free cell: there is nothing to carve")
    given = None if isinstance(rng, np.random.Generator) else fresh_seed() if rng is None else rng
    generator = as_generator(rng if given is None else given)  # checks the seed's type
    seed = None if given is None else int(given)
    report = report if report is not None else ShapeReport()

    if route is not None:
        maze, route = _around_route(w, route, generator, decoys, wander, geometry, room_list,
                                    given=(entrance, exit, walls, braid, prune))  # fmt: skip
        entrance, exit = (divmod(int(c), w.shape[1]) for c in (route[0], route[-1]))
    elif algo.takes_rooms:  # it builds around the rooms and installs them itself
        maze = algo.func(w, generator, geometry=geometry, rooms=room_list, **options)
    else:
        maze = install_rooms(algo.func(w, generator, geometry=geometry, **options), room_list)
    if walls is not None:
        maze = respect_walls(maze, walls[0], walls[1], generator, report=report)
    if inside is not None:
        figure = np.asarray(inside, dtype=bool)
        if figure.shape != maze.shape:
            raise MazeartError(f"inside has shape {figure.shape}, the preset {maze.shape}")
        maze = maze.replace(region=maze.region | figure)
    # One pass finds the ends of a maze that is a single tree, and so shows there is
    # nothing to connect; anything else is labelled, connected and searched in full.
    auto = _tree_endpoints(maze) if entrance is None or exit is None else None
    maze = finish(
        maze, generator, report=report, islands=islands, entrance=entrance, exit=exit,
        auto=auto, prune=prune, braid=braid, place=wanted,
        zones=None if walls is None or not braid else wall_zones(maze.mask, *walls),
        tags=tags_from_weights(w) if highest > TAG else None,
        allowed=is_free(w) | np.isin(w // 1000, (2, 3)) if wanted else None,  # not bridges
    )  # fmt: skip
    meta: dict[str, Any] = {
        "algorithm": algo.name if route is None else "route",
        "seed": seed,
        "geometry": geometry,
        "options": recorded_options(algo.options, options),
        "islands": islands,
        "prune": bool(prune),
        "braid": braid,
    }
    if route is not None:
        meta["route"] = [int(c) for c in route]
    return maze.replace(meta=meta)


def _around_route(
    w: NDArray[np.int32],
    route: ArrayLike,
    generator: np.random.Generator,
    decoys: float | None,
    wander: float,
    geometry: str,
    room_list: list,
    *,
    given: tuple[Any, ...],
) -> tuple[Maze, NDArray[np.int64]]:
    """The square maze carved around a route (:func:`mazeart.route.carve_route`), refusing
    in one line what would open another way between its ends."""
    from mazeart.grids import square_grid
    from mazeart.route import DECOYS, carve_route

    entrance, exit_, walls, braid, prune = given
    if geometry != "cells":
        raise MazeartError("a route runs through cells: it takes the cells geometry")
    for what, value in (("rooms", room_list), ("braid", braid), ("prune", prune),
                        ("colour regions or a smooth outline", walls is not None)):  # fmt: skip
        if value:
            raise MazeartError(f"a route is the one way through: it does not take {what}")
    if entrance is not None or exit_ is not None:
        raise MazeartError("a route's ends are the entrance and the exit: give no other")
    free = is_free(w)
    cells = np.asarray(route, np.int64).reshape(-1)
    if cells.size < 2 or cells.min() < 0 or cells.max() >= free.size:
        raise MazeartError(f"a route is two or more cells of the {w.shape[1]} x {w.shape[0]} grid")
    grid = square_grid(*w.shape)
    opened, cells = carve_route(grid, free.reshape(-1), cells, generator, wander=wander,
                                decoys=DECOYS if decoys is None else decoys)  # fmt: skip
    return Maze(free.reshape(-1), opened, grid=grid), cells
