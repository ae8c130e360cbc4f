"""Tags: subtypes of path cells for games (spawn points, loot, keys, NPCs, traps, ...).

The weighted-DFS program proposed that the weight matrix could mark "an enemy spawn path cell, a
loot/chest having cell, an npc encounter cell": a tag of kind ``k`` is stored as
``TAG + k`` (``501..999``, see :mod:`mazeart.weights`), on a preset (a free cell
that must carry the tag) or in a finished maze's matrix. A maze keeps them as
``maze.tags``, ``{cell: kind}``: ``(row, col)`` on the square grid, a cell id on another,
where the same rules place them (one placer for every grid).

:func:`place_tags` puts tags by rule, reproducibly for a given Generator:

=========  ==========================================================================
kind       rule
=========  ==========================================================================
``loot``   dead ends, the farthest from the entrance first
``spawn``  inside rooms when there are rooms (spread over them), else spread out:
           each as far as possible from the entrance and the spawns before it
``key``    dead ends farthest from the solution path (a detour to fetch it)
``npc``    junctions, spread out
``trap``   corridor cells on the solution path, evenly spaced
other      any maze cell outside rooms, spread out
=========  ==========================================================================

New kinds are added with :func:`register_tag`. Tags never land on a cell that is
not maze, nor on the entrance or exit, and one cell holds at most one tag.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from mazeart._names import TAG_COLOURS, TAG_KINDS
from mazeart._rng import RngLike, as_generator
from mazeart.errors import MazeartError
from mazeart.maze import Maze, check_maze
from mazeart.shape import dead_ends, degrees
from mazeart.weights import MAX_TAG_KIND, TAG

__all__ = ["TAG_KINDS", "parse_place", "place_tags", "register_tag", "tags_from_weights"]


Rule = Callable[[Any, int, np.random.Generator, NDArray[np.bool_]], list[Any]]
"""A kind's rule: ``(maze, count, rng, taken) -> cells`` (the maze's own cells: ``(row,
col)`` on the square grid, ids on another; ``taken`` one flag per cell of its grid)."""
_RULES: dict[str, Rule] = {}


def register_tag(name: str, code: int, *, colour: str = "#7f7f7f", rule: Rule | None = None):
    """Add a tag kind.

    Parameters
    ----------
    name : str
    code : int
        1..499, unique.
    colour : str
        Drawing colour.
    rule : callable, optional
        ``rule(maze, count, rng, taken) -> cells``; default: spread over any cells.
    """
    if not 1 <= code <= MAX_TAG_KIND or code in TAG_KINDS.values():
        raise MazeartError(f"tag code must be a new number from 1 to {MAX_TAG_KIND}, got {code}")
    TAG_KINDS[name] = code
    TAG_COLOURS[name] = colour
    if rule is not None:
        _RULES[name] = rule


def kind_name(code: int) -> str:
    """Name of a tag code (``kind<k>`` for codes no kind is registered under)."""
    for name, k in TAG_KINDS.items():
        if k == code:
            return name
    return f"kind{code}"


def tags_from_weights(weights: NDArray[np.int32]) -> dict[tuple[int, int], str]:
    """Tags painted into a preset as ``TAG + k`` values."""
    w = np.asarray(weights)
    rows, cols = np.nonzero((w > TAG) & (w <= TAG + MAX_TAG_KIND))
    return {
        (int(r), int(c)): kind_name(int(w[r, c]) - TAG) for r, c in zip(rows, cols, strict=True)
    }


def parse_place(spec: str | Mapping[str, int]) -> dict[str, int]:
    """Read ``"loot=5,spawn=2"`` (or a mapping) into ``{kind: count}``.

    Raises
    ------
    ValueError
        On a malformed item, an unknown kind or a negative count.
    """
    items: list[tuple[str, Any]]
    if isinstance(spec, Mapping):
        items = list(spec.items())
    else:
        items = []
        for part in str(spec).split(","):
            part = part.strip()
            if not part:
                continue
            name, eq, count = part.partition("=")
            if not eq:
                raise MazeartError(f"--place items look like kind=count, got {part!r}")
            try:
                items.append((name.strip(), int(count)))
            except ValueError:
                raise MazeartError(f"--place count for {name.strip()!r} is not a number") from None
        if not items:
            raise MazeartError(f"--place names no tags (write kind=count, e.g. loot=5): {spec!r}")
    out: dict[str, int] = {}
    for name, count in items:
        if name not in TAG_KINDS:
            raise MazeartError(f"unknown tag kind {name!r} (choose from {', '.join(TAG_KINDS)})")
        if isinstance(count, bool) or not isinstance(count, int | np.integer):
            raise TypeError(f"tag count for {name!r} must be an integer, got {count!r}")
        if int(count) < 0:
            raise MazeartError(f"tag count for {name!r} must not be negative")
        out[name] = out.get(name, 0) + int(count)
    return out


# ----------------------------------------------------------------------------- rules


Cell = Any
"""A maze's cell: ``(row, col)`` on the square grid, an id on another."""


def _native(maze: Maze, index: Any) -> Cell:
    """An index into the maze's per-cell arrays as the maze names the cell."""
    if maze.is_square:
        return (int(index[0]), int(index[1]))
    return int(index[0]) if isinstance(index, tuple | list | np.ndarray) else int(index)


def _cells_of(maze: Maze, cand: NDArray[np.bool_]) -> list[Cell]:
    """The cells where ``cand`` holds, in reading order (ids in order)."""
    return [_native(maze, row) for row in np.argwhere(cand)]


def _room_mask(maze: Maze) -> NDArray[np.bool_]:
    return maze.room_mask


def _far_from(maze: Maze, sources: list[Cell]) -> NDArray[np.int32]:
    """Passage distance to the nearest of ``sources`` (-1 where unreachable)."""
    from mazeart.solvers import distances_from

    return distances_from(maze, sources)


def _spread(
    maze: Maze, cand: NDArray[np.bool_], count: int, rng: np.random.Generator, anchors
) -> list[Cell]:
    """Farthest-point sampling: each pick as far as possible from the anchors and earlier picks."""
    chosen: list[Cell] = []
    if count <= 0 or not cand.any():
        return chosen
    anchors = [a for a in anchors if a is not None and maze.is_cell(a)]
    if anchors:
        dist = _far_from(maze, anchors)
    else:
        flat = np.flatnonzero(cand)
        first = _native(maze, np.unravel_index(int(flat[rng.integers(len(flat))]), cand.shape))
        chosen.append(first)
        cand = cand.copy()
        cand[first] = False
        dist = _far_from(maze, [first])
    from mazeart.solvers import distances

    while len(chosen) < count and cand.any():
        score = np.where(cand & (dist >= 0), dist, -1).astype(np.float64)
        score += rng.random(score.shape) * 0.5  # break ties at random
        best = _native(maze, np.unravel_index(int(np.argmax(score)), score.shape))
        if score[best] < 0:
            break
        chosen.append(best)
        cand[best] = False
        d = distances(maze, best)
        closer = (d >= 0) & ((dist < 0) | (d < dist))
        dist[closer] = d[closer]
    return chosen


def _farthest_first(maze, score: NDArray, cand: NDArray[np.bool_], count: int, rng) -> list:
    """Pick ``count`` of the candidates, drawn at random among the top 2 x count by score."""
    cells = np.argwhere(cand)
    if len(cells) == 0 or count <= 0:
        return []
    order = np.argsort(-score[cand], kind="stable")
    pool = cells[order[: max(2 * count, count)]]
    picks = rng.choice(len(pool), size=min(count, len(pool)), replace=False)
    return [_native(maze, pool[i]) for i in sorted(picks)]


def _solution(maze: Maze) -> list[Cell]:
    from mazeart.errors import NoPathError
    from mazeart.solvers import solve

    try:
        return [_native(maze, c if np.ndim(c) else (c,)) for c in solve(maze)]
    except (NoPathError, MazeartError):
        return []


def _loot(maze, count, rng, taken):
    cand = dead_ends(maze) & ~taken
    entrance = maze.entrance
    dist = _far_from(maze, [entrance]) if entrance is not None else np.zeros(maze.mask.shape)
    return _farthest_first(maze, dist, cand, count, rng)


def _spawn(maze, count, rng, taken):
    rooms = list(getattr(maze, "rooms", ()))
    if rooms:
        out = []
        pools = [[c for c in r.cells if not taken[c]] for r in rooms]
        for pool in pools:
            rng.shuffle(pool)
        i = 0
        while len(out) < count and any(pools):
            pool = pools[i % len(pools)]
            if pool:
                out.append(pool.pop())
            i += 1
        return out
    cand = maze.mask & ~taken & ~_room_mask(maze)
    return _spread(maze, cand, count, rng, [maze.entrance])


def _key(maze, count, rng, taken):
    cand = dead_ends(maze) & ~taken
    path = _solution(maze) or ([maze.entrance] if maze.entrance is not None else [])
    dist = _far_from(maze, path) if path else np.zeros(maze.mask.shape)
    return _farthest_first(maze, dist, cand, count, rng)


def _npc(maze, count, rng, taken):
    cand = maze.mask & (degrees(maze) >= 3) & ~taken & ~_room_mask(maze)
    return _spread(maze, cand, count, rng, [maze.entrance])


def _trap(maze, count, rng, taken):
    path = _solution(maze)
    if not path:
        return []
    deg = degrees(maze)
    rooms = _room_mask(maze)
    corridor = [c for c in path[1:-1] if deg[c] == 2 and not rooms[c] and not taken[c]]
    if not corridor or count <= 0:
        return []
    idx = np.linspace(0, len(corridor) - 1, num=min(count, len(corridor)) + 2)[1:-1]
    return [corridor[i] for i in dict.fromkeys(round(i) for i in idx)]


_RULES.update(loot=_loot, spawn=_spawn, key=_key, npc=_npc, trap=_trap)


def place_tags(
    maze: Maze,
    counts: Mapping[str, int] | str,
    rng: RngLike = None,
    *,
    allowed: NDArray[np.bool_] | None = None,
) -> Maze:
    """Place tags on a maze by their kinds' rules.

    Parameters
    ----------
    maze : Maze
        A maze on any grid (cells are ids on a grid other than the square one).
    counts : mapping or str
        ``{kind: count}`` or ``"loot=5,spawn=2"``.
    rng : int or numpy.random.Generator, optional
        Seed or Generator: the same one gives the same placement.
    allowed : (H, W) or (n,) ndarray of bool, optional
        Cells that may carry tags, one per cell of the maze's grid
        (:func:`mazeart.generate` passes the preset's free cells and rooms, so no tag
        lands on a bridge across the ground).

    Returns
    -------
    Maze
        The same kind as ``maze``, with the new tags added to ``maze.tags``.

    Raises
    ------
    ValueError
        If the maze has too few free cells for the tags asked for.

    Examples
    --------
    >>> import numpy as np
    >>> from mazeart import generate
    >>> maze = place_tags(generate(np.zeros((12, 12), np.int32), rng=4), "loot=3,key=1", rng=4)
    >>> sorted(maze.tags.values())
    ['key', 'loot', 'loot', 'loot']
    """
    check_maze(maze)
    wanted = parse_place(counts)
    rng = as_generator(rng)
    tags: dict[Any, str] = dict(maze.tags)
    shape = maze.mask.shape
    taken = np.zeros(shape, dtype=bool) if allowed is None else ~np.asarray(allowed, bool)
    if taken.shape != shape:
        raise MazeartError(f"allowed has shape {taken.shape}, the maze's cells {shape}")
    if not maze.is_square:
        from mazeart.shape import _unbridgeable

        taken |= _unbridgeable(maze)  # a weave's crossings and tunnels: a tag there is hidden
    for cell in (*tags, maze.entrance, maze.exit):
        if cell is not None:
            taken[cell] = True
    for kind, count in wanted.items():
        if count == 0:
            continue
        rule = _RULES.get(kind)
        cells = rule(maze, count, rng, taken) if rule else []
        unique: list[Cell] = []
        for c in cells:
            c = _native(maze, c if np.ndim(c) else (c,))
            if not taken[c] and len(unique) < count:
                taken[c] = True
                unique.append(c)
        cells = unique
        if len(cells) < count:  # the rule ran out of its favourite cells: spread over the rest
            rest = maze.mask & ~taken & ~_room_mask(maze)
            extra = _spread(maze, rest, count - len(cells), rng, cells)
            for c in extra:
                taken[c] = True
            cells += extra
        if len(cells) < count:
            raise MazeartError(
                f"cannot place {count} {kind} tags: only {len(cells)} maze cells are left for them"
            )
        for c in cells:
            tags[c] = kind
    return maze.replace(tags=tags)
