"""The adaptive grid: squares of several sizes, small where a picture's outline needs them.

A maze's difficulty grows with its cell count, and on a grid of equal cells so does the
crispness of its outline. The adaptive grid splits the two: it is a forest of quadtrees
over ``rows`` by ``cols`` root squares, each root ``2 ** levels`` units a side, halved
where the picture asks for it, down to squares one unit a side. A big square has several
small neighbours along one side (at most two: the tree is *balanced*, neighbours differ by
one level at most), and each wall is the segment two cells share, so a cell's outline
holds a corner wherever a smaller neighbour's wall meets it.

The tree is kept as one bit a node, level by level: the roots in rows, then the nodes one
level down, each level's existing nodes in the order of their row and column on that
level's raster; bit 1 splits the node. Packed eight to a byte and written in base64, the
bits are the grid's ``splits`` parameter, so :func:`mazeart.grids.make_grid` rebuilds it
from ``rows``, ``cols``, ``levels`` and ``splits`` (the saved format stores them).

:func:`refine` chooses the splits for a picture: from roots twice the size of the cells a
square maze of the same difficulty has, it halves, most gain first, the squares whose
figure-or-ground is most wrong as one cell (where the outline passes, where a leg or an
ear is thinner than the square), until the cells of the maze are as many as that square
maze's, then balances the tree.

>>> g = adaptive_grid(1, 2, levels=1, splits=encode_splits([np.array([[True, False]])]))
>>> g.n_cells, [len(g.neighbours(i)) for i in range(g.n_cells)]
(5, [2, 3, 2, 2, 3])
>>> g.polygon(2).tolist()  # the big square: a corner where its small neighbours meet
[[2.0, 0.0], [4.0, 0.0], [4.0, 2.0], [2.0, 2.0], [2.0, 1.0]]
"""

from __future__ import annotations

import base64
import binascii
import heapq

import numpy as np
from numpy.typing import NDArray

from mazeart._limits import check_cells
from mazeart.errors import MazeartError, check_int
from mazeart.grids.core import GRIDS, Grid, grid_from_arrays

__all__ = [
    "MAX_LEVELS",
    "adaptive_grid",
    "balance",
    "decode_splits",
    "encode_splits",
    "grid_squares",
    "refine",
    "square_shares",
]

MAX_LEVELS = 5
"""The most times a root square may be halved (a root is then 32 units a side)."""

GAIN = 0.5
"""The least area (in the smallest squares) a split must be able to set right to be made:
less is a pixel's noise, not a part of the figure."""


def encode_splits(splits: list[NDArray[np.bool_]]) -> str:
    """The ``splits`` parameter for the split rasters of each level.

    Parameters
    ----------
    splits : list of (rows * 2**d, cols * 2**d) ndarray of bool
        Level ``d``'s nodes that are halved (read only where the node exists).

    Returns
    -------
    str
        The bits of the existing nodes, level by level, in base64 (trailing zero bytes
        left out; ``""`` for no split).
    """
    bits = []
    if splits:
        exists = np.ones_like(splits[0], dtype=bool)
        for d, split in enumerate(splits):
            if d:
                exists = np.repeat(np.repeat(splits[d - 1] & exists, 2, 0), 2, 1)
            bits.append(split[exists])
    flat = np.concatenate(bits) if bits else np.zeros(0, bool)
    data = np.packbits(flat).tobytes().rstrip(b"\0")
    return base64.b64encode(data).decode("ascii")


def decode_splits(rows: int, cols: int, levels: int, splits: str) -> list[NDArray[np.bool_]]:
    """The split rasters of each level from the ``splits`` parameter (see
    :func:`encode_splits`).

    Raises
    ------
    MazeartError
        If ``splits`` is not base64 or holds more bits than the tree has nodes to split.
    """
    if not isinstance(splits, str):
        raise TypeError(f"splits must be a str, got {type(splits).__name__}")
    try:
        data = base64.b64decode(splits.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raise MazeartError("the adaptive grid's splits are not base64") from None
    bits = np.unpackbits(np.frombuffer(data, np.uint8)).astype(bool)
    out: list[NDArray[np.bool_]] = []
    exists = np.ones((rows, cols), bool)
    used = 0
    for d in range(levels):
        if d:
            exists = np.repeat(np.repeat(out[-1], 2, 0), 2, 1)
        count = int(exists.sum())
        split = np.zeros(exists.shape, bool)
        take = bits[used : used + count]
        split[np.nonzero(exists)[0][: take.size], np.nonzero(exists)[1][: take.size]] = take
        used += count
        out.append(split)
    if bits[used:].any():
        raise MazeartError(
            f"the adaptive grid's splits hold more bits than its {levels} levels can split"
        )
    return out


def _leaves(rows: int, cols: int, levels: int, splits: list[NDArray[np.bool_]]) -> NDArray:
    """The leaf squares ``(n, 3)`` as ``x, y, side`` in units, in reading order (by top,
    then left)."""
    parts = []
    exists = np.ones((rows, cols), bool)
    for d in range(levels + 1):
        if d:
            exists = np.repeat(np.repeat(splits[d - 1] & exists, 2, 0), 2, 1)
        leaf = exists & ~splits[d] if d < levels else exists
        side = 1 << (levels - d)
        i, j = np.nonzero(leaf)
        parts.append(np.stack([j * side, i * side, np.full(i.size, side)], axis=1))
    sq = np.concatenate(parts).astype(np.int64)
    return sq[np.lexsort((sq[:, 0], sq[:, 1]))]


def adaptive_grid(rows: int, cols: int, levels: int = 0, splits: str = "") -> Grid:
    """The adaptive grid of ``rows`` by ``cols`` root squares, each halved as ``splits``
    says, at most ``levels`` times (see the module's text).

    Parameters
    ----------
    rows, cols : int
        Root squares down and across.
    levels : int, default 0
        How many times a root may be halved (0 to :data:`MAX_LEVELS`); a root is
        ``2 ** levels`` units a side, the smallest square one.
    splits : str, default ""
        The tree's split bits (:func:`encode_splits`); ``""``: the roots alone.

    Returns
    -------
    Grid
        Of kind ``'adaptive'``: ids in reading order of the squares' top left corners.

    Raises
    ------
    MazeartError
        For sizes out of range, bits that do not fit, or a grid over the cell limit
        (its smallest squares' raster is counted, as a square grid of them).
    """
    rows, cols = check_int(rows, "rows"), check_int(cols, "cols")
    levels = check_int(levels, "levels", minimum=0, maximum=MAX_LEVELS)
    check_cells(rows << levels, cols << levels, "the adaptive grid's smallest squares")
    split = decode_splits(rows, cols, levels, splits)
    sq = _leaves(rows, cols, levels, split)
    n = len(sq)
    height, width = rows << levels, cols << levels
    owner = np.full((height, width), -1, np.int32)  # each unit square's cell
    for side in np.unique(sq[:, 2]):
        at = np.flatnonzero(sq[:, 2] == side)
        small = np.full((height // side, width // side), -1, np.int32)
        small[sq[at, 1] // side, sq[at, 0] // side] = at
        big = np.repeat(np.repeat(small, side, 0), side, 1)
        owner = np.where(big >= 0, big, owner)
    pad = np.full((height + 2, width + 2), -1, np.int32)
    pad[1:-1, 1:-1] = owner
    walls = [_runs(pad[1:-1, :-1], pad[1:-1, 1:], vertical=True),
             _runs(pad[:-1, 1:-1].T, pad[1:, 1:-1].T, vertical=False)]  # fmt: skip
    a = np.concatenate([w[0] for w in walls])
    b = np.concatenate([w[1] for w in walls])
    p0 = np.concatenate([w[2] for w in walls])
    p1 = np.concatenate([w[3] for w in walls])
    # each cell's outline: its corners and every wall end on its sides, round it clockwise
    corner = np.array([[0, 0], [1, 0], [1, 1], [0, 1]])
    ia, ib = a >= 0, b >= 0
    ids = np.concatenate([np.repeat(np.arange(n), 4), a[ia], a[ia], b[ib], b[ib]])
    pts = np.concatenate([(sq[:, None, :2] + corner[None] * sq[:, None, 2:]).reshape(-1, 2),
                          p0[ia], p1[ia], p0[ib], p1[ib]])  # fmt: skip
    x0, y0, s = sq[ids, 0], sq[ids, 1], sq[ids, 2]
    px, py = pts[:, 0], pts[:, 1]
    left_side = np.where(py == y0 + s, 2 * s + x0 + s - px, 3 * s + y0 + s - py)
    t = np.where(py == y0, px - x0, np.where(px == x0 + s, s + py - y0, left_side))
    key = ids * (4 * (1 << levels) + 1) + t
    key, first = np.unique(key, return_index=True)
    cell_of = ids[first]
    cell_ptr = np.zeros(n + 1, np.int64)
    cell_ptr[1:] = np.cumsum(np.bincount(cell_of, minlength=n))
    centres = sq[:, :2] + sq[:, 2:] / 2.0
    return grid_from_arrays(
        "adaptive",
        {"rows": rows, "cols": cols, "levels": levels, "splits": splits},
        centres,
        cell_ptr,
        pts[first].astype(np.float64),
        a,
        b,
        np.stack([p0, p1], axis=1).astype(np.float64),
        (float(width), float(height)),
    )


def _runs(left: NDArray[np.int32], right: NDArray[np.int32], *, vertical: bool) -> tuple:
    """Walls between the unit squares ``left`` and ``right`` of each other (rows of a
    raster, one line of unit walls a column): runs of one pair of cells along a line are
    one wall. Returns the cells on either side (``-1`` for outside) and the walls' ends."""
    differ = left != right
    line, step = np.nonzero(differ.T)  # by line, then along it
    la, rb = left[step, line], right[step, line]
    new = np.ones(line.size, bool)
    new[1:] = (
        (line[1:] != line[:-1])
        | (step[1:] != step[:-1] + 1)
        | (la[1:] != la[:-1])
        | (rb[1:] != rb[:-1])
    )
    start = np.flatnonzero(new)
    stop = np.append(start[1:], line.size) - 1
    a, b = la[start], rb[start]  # either may be -1 (outside): grid_from_arrays orders them
    pos = line[start]  # the unit line (x of a vertical wall, y of a horizontal one)
    s0, s1 = step[start], step[stop] + 1
    if vertical:
        p0, p1 = np.stack([pos, s0], axis=1), np.stack([pos, s1], axis=1)
    else:
        p0, p1 = np.stack([s0, pos], axis=1), np.stack([s1, pos], axis=1)
    return a.astype(np.int64), b.astype(np.int64), p0, p1


def balance(splits: list[NDArray[np.bool_]]) -> list[NDArray[np.bool_]]:
    """The split rasters with what balances the tree added: squares beside each other
    differ by one level at most (a node two levels down has the neighbours of its parent
    split out of their own parents)."""
    out = [s.copy() for s in splits]
    levels = len(out)
    exists = [np.ones_like(out[0])]
    for d in range(1, levels):
        exists.append(np.repeat(np.repeat(out[d - 1] & exists[d - 1], 2, 0), 2, 1))
    for d in range(levels - 1, 0, -1):  # a split at level d makes nodes at d + 1
        parent = out[d] & exists[d]  # split nodes at level d: their neighbours at d must
        near = parent.copy()  # exist, so the parents (level d - 1) of those are split
        near[1:] |= parent[:-1]
        near[:-1] |= parent[1:]
        near[:, 1:] |= parent[:, :-1]
        near[:, :-1] |= parent[:, 1:]
        need = near.reshape(near.shape[0] // 2, 2, near.shape[1] // 2, 2).any(axis=(1, 3))
        out[d - 1] |= need
        for k in range(d - 1, 0, -1):  # and their ancestors
            up = out[k].reshape(out[k].shape[0] // 2, 2, out[k].shape[1] // 2, 2)
            out[k - 1] |= up.any(axis=(1, 3))
        for k in range(1, levels):
            exists[k] = np.repeat(np.repeat(out[k - 1] & exists[k - 1], 2, 0), 2, 1)
    return [s & e for s, e in zip(out, exists, strict=True)]


def refine(
    cover: NDArray[np.floating], rows: int, cols: int, levels: int, target: int
) -> list[NDArray[np.bool_]]:
    """The splits that draw ``cover`` best with about ``target`` cells of maze.

    Parameters
    ----------
    cover : (rows * 2**levels, cols * 2**levels) ndarray of float
        The figure's share of each smallest square.
    rows, cols, levels : int
        The roots and how far they may be halved.
    target : int
        How many squares of maze (half covered or more) to stop at.

    Returns
    -------
    list of ndarray of bool
        The split rasters (:func:`encode_splits`), balanced.
    """
    share: NDArray[np.float64] = np.clip(np.asarray(cover, np.float64), 0.0, 1.0)
    if levels == 0:
        return []
    wrong = np.minimum(share, 1.0 - share)  # what the smallest square itself cannot set right
    sat = _table(share)
    sat_wrong = _table(wrong)
    # every node's numbers, level by level: its gain (what splitting it can set right),
    # whether it is maze (half covered or more), and how many of its children are
    gains, fulls = [], []
    for d in range(levels + 1):
        side = 1 << (levels - d)
        y0 = (np.arange(rows << d) * side)[:, None]
        x0 = (np.arange(cols << d) * side)[None, :]
        area = float(side * side)
        held = _sums(sat, y0, x0, side)
        gains.append(np.minimum(held, area - held) - _sums(sat_wrong, y0, x0, side))
        fulls.append(held >= 0.5 * area)
    kids = [f.reshape(f.shape[0] // 2, 2, f.shape[1] // 2, 2).sum(axis=(1, 3)) for f in fulls[1:]]

    def stats(d: int, i: int, j: int) -> tuple[float, bool]:
        return float(gains[d][i, j]), bool(fulls[d][i, j])

    def worth(d: int, i: int, j: int, gain: float, full: bool) -> float:
        """A split's gain over the maze cells it adds."""
        return gain / max(1.0, int(kids[d][i, j]) - full)

    splits = [np.zeros((rows << d, cols << d), bool) for d in range(levels)]
    heap: list[tuple[float, int, int, int]] = []
    free = 0
    for i in range(rows):
        for j in range(cols):
            gain, full = stats(0, i, j)
            free += full
            if gain >= GAIN:
                heap.append((-worth(0, i, j, gain, full), 0, i, j))
    heapq.heapify(heap)
    order: list[tuple[int, int, int]] = []
    grown = [free]  # the maze cells after each split, before balancing
    while heap and free < target:
        _, d, i, j = heapq.heappop(heap)
        splits[d][i, j] = True
        order.append((d, i, j))
        free -= stats(d, i, j)[1]
        for ci in (2 * i, 2 * i + 1):
            for cj in (2 * j, 2 * j + 1):
                gain, full = stats(d + 1, ci, cj)
                free += full
                if d + 1 < levels and gain >= GAIN:
                    heapq.heappush(heap, (-worth(d + 1, ci, cj, gain, full), d + 1, ci, cj))
        grown.append(free)
    # balancing adds cells: the longest run of splits whose balanced tree holds no more
    # than the target (the splits came greedily, so any first part of them is a tree; the
    # cells a run holds grow with its length, which the search below takes as a rule)
    best = balance(splits)
    most = _free(best, fulls)
    if most <= target or not order:
        return best
    at = np.asarray(order, np.int64).reshape(-1, 3)
    before = np.asarray(grown, np.int64)
    # each guess: the longest run whose cells before balancing, plus what balancing added
    # (known at both ends of the bracket, taken as growing evenly between), fit; every
    # third guess halves the bracket instead, so a guess that keeps missing costs at most
    # three times the halvings
    lo, hi, added_lo, added_hi, tries = 0, len(order), 0, most - int(before[-1]), 0
    kept = None  # the balanced tree of the longest run found to fit
    while hi - lo > 1:
        runs = np.arange(lo + 1, hi)
        added = added_lo + (added_hi - added_lo) * (runs - lo) / (hi - lo)
        fits = runs[before[runs] + added <= target]
        tries += 1
        k = (lo + hi) // 2 if tries % 3 == 0 else int(fits[-1]) if fits.size else lo + 1
        tree = balance(_first(splits, at[:k]))
        n = _free(tree, fulls)
        if n <= target:
            lo, added_lo, kept = k, n - int(before[k]), tree
        else:
            hi, added_hi = k, n - int(before[k])
    return kept if kept is not None else balance(_first(splits, at[:lo]))


def _first(splits: list[NDArray[np.bool_]], at: NDArray[np.int64]) -> list[NDArray[np.bool_]]:
    """The split rasters shaped as ``splits`` holding only the splits ``at`` (level, row,
    column rows)."""
    out = [np.zeros_like(s) for s in splits]
    for d, s in enumerate(out):
        mine = at[at[:, 0] == d]
        s[mine[:, 1], mine[:, 2]] = True
    return out


def _free(splits: list[NDArray[np.bool_]], fulls: list[NDArray[np.bool_]]) -> int:
    """How many leaves of the tree are half covered or more (``fulls``: per level, whether
    each node is)."""
    count = 0
    exists = np.ones_like(splits[0])
    for d, full in enumerate(fulls):
        if d:
            exists = np.repeat(np.repeat(splits[d - 1] & exists, 2, 0), 2, 1)
        leaf = exists & ~splits[d] if d < len(splits) else exists
        count += int(np.count_nonzero(leaf & full))
    return count


def square_shares(cover: NDArray[np.float64], squares: NDArray[np.int64]) -> NDArray[np.float64]:
    """The mean of ``cover`` (a value a smallest square) over each of ``squares`` (``x, y,
    side`` rows, in smallest squares)."""
    return _shares(_table(cover), squares)


def _shares(t: NDArray[np.float64], squares: NDArray[np.int64]) -> NDArray[np.float64]:
    x, y, s = squares[:, 0], squares[:, 1], squares[:, 2]
    held = t[y + s, x + s] - t[y, x + s] - t[y + s, x] + t[y, x]
    return np.asarray(held / (s * s).astype(np.float64), np.float64)


def grid_squares(grid: Grid) -> NDArray[np.int64]:
    """An adaptive grid's squares as ``x, y, side`` rows, in its cell ids."""
    p = grid.params
    rows, cols, levels = int(p["rows"]), int(p["cols"]), int(p["levels"])
    return _leaves(rows, cols, levels, decode_splits(rows, cols, levels, str(p["splits"])))


def _table(values: NDArray[np.float64]) -> NDArray[np.float64]:
    """A summed-area table with a zero row and column in front."""
    out = np.zeros((values.shape[0] + 1, values.shape[1] + 1))
    out[1:, 1:] = values.cumsum(0).cumsum(1)
    return out


def _sums(table: NDArray[np.float64], y0: NDArray, x0: NDArray, side: int) -> NDArray:
    """The sums over the squares ``side`` a side at ``(y0, x0)`` (broadcast) of the values
    whose summed-area table is ``table``."""
    return (table[y0 + side, x0 + side] - table[y0, x0 + side] - table[y0 + side, x0]
            + table[y0, x0])  # fmt: skip


GRIDS["adaptive"] = adaptive_grid
