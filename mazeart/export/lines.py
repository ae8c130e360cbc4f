"""Polylines as one ragged array, and the plotter's work on them: chaining segments that
meet into long lines (:func:`chain_segments`) and putting lines in pen order
(:func:`order_lines`), nearest free end first.

The drawing scene (:mod:`mazeart.export.scene`) and the one-stroke tour
(:mod:`mazeart.export.stroke`) both build on these.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mazeart._jit import njit

__all__ = [
    "Lines",
    "chain_lines",
    "chain_segments",
    "concat",
    "order_lines",
    "pen_up_travel",
]


@dataclass(frozen=True, eq=False)
class Lines:
    """Polylines as one ragged array: line ``i`` is ``points[starts[i]:starts[i + 1]]``."""

    points: NDArray[np.float64] = field(default_factory=lambda: np.zeros((0, 2)))
    starts: NDArray[np.int64] = field(default_factory=lambda: np.zeros(1, np.int64))

    @classmethod
    def from_list(cls, lines: Sequence[ArrayLike]) -> Lines:
        """From a list of ``(P, 2)`` point arrays (lines of fewer than 2 points are dropped)."""
        arrs = [np.asarray(a, dtype=np.float64).reshape(-1, 2) for a in lines]
        arrs = [a for a in arrs if len(a) >= 2]
        if not arrs:
            return cls()
        starts = np.zeros(len(arrs) + 1, np.int64)
        starts[1:] = np.cumsum([len(a) for a in arrs])
        return cls(np.vstack(arrs), starts)

    @classmethod
    def from_segments(cls, segs: ArrayLike) -> Lines:
        """Each ``x0, y0, x1, y1`` row as a two-point line."""
        s = np.asarray(segs, dtype=np.float64).reshape(-1, 4)
        return cls(s.reshape(-1, 2).copy(), np.arange(0, 2 * len(s) + 1, 2, dtype=np.int64))

    def __len__(self) -> int:
        return len(self.starts) - 1

    def __iter__(self) -> Iterator[NDArray[np.float64]]:
        for a, b in zip(self.starts[:-1], self.starts[1:], strict=True):
            yield self.points[a:b]

    def ring_edges(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The lines as closed rings: every edge's start and end points, ``(M, 2)`` each
        (a ring's last point joins its first)."""
        following = np.arange(1, len(self.points) + 1)
        sizes = np.diff(self.starts)
        last = self.starts[1:][sizes > 0] - 1
        following[last] = self.starts[:-1][sizes > 0]
        return self.points, self.points[following]

    def segments(self) -> NDArray[np.float64]:
        """Every segment of every line: ``(M, 4)`` rows ``x0, y0, x1, y1``."""
        if len(self.points) < 2:
            return np.zeros((0, 4))
        if len(self.points) == 2 * len(self):  # all two-point lines: the points are the segments
            return self.points.reshape(-1, 4)
        inner = np.ones(len(self.points) - 1, dtype=bool)
        inner[self.starts[1:-1] - 1] = False  # no segment from a line's end to the next start
        return np.hstack([self.points[:-1], self.points[1:]])[inner]


def concat(parts: Sequence[Lines]) -> Lines:
    """All the lines of several :class:`Lines` in one."""
    parts = [p for p in parts if len(p)]
    if not parts:
        return Lines()
    points = np.vstack([p.points for p in parts])
    offsets = np.cumsum([0] + [len(p.points) for p in parts[:-1]])
    starts = np.concatenate(
        [p.starts[:-1] + o for p, o in zip(parts, offsets, strict=True)] + [[len(points)]]
    )
    return Lines(points, starts.astype(np.int64))


# ----------------------------------------------------------------------------- merging, ordering


@njit(cache=True)
def incidence(a, b, n):
    """Each vertex's edges of the edge list ``a, b`` over ``n`` vertices:
    ``inc[ptr[v]:ptr[v + 1]]``."""
    m = a.size
    deg = np.zeros(n + 1, np.int64)
    for e in range(m):
        deg[a[e] + 1] += 1
        deg[b[e] + 1] += 1
    ptr = np.cumsum(deg)
    inc = np.empty(2 * m, np.int64)
    fill = ptr[:-1].copy()
    for e in range(m):
        inc[fill[a[e]]] = e
        fill[a[e]] += 1
        inc[fill[b[e]]] = e
        fill[b[e]] += 1
    return ptr, inc


@njit(cache=True)
def straightest(v, dx, dy, a, b, xy, ptr, inc, used):
    """The unused edge out of ``v`` that goes on most nearly in the direction ``dx, dy``
    (a unit vector, or zero for any), and how nearly (the cosine): ``(-1, -3.0)`` when
    every edge of ``v`` is used."""
    best = -1
    best_dot = -3.0
    for k in range(ptr[v], ptr[v + 1]):
        e = inc[k]
        if used[e]:
            continue
        w = b[e] if a[e] == v else a[e]
        ex = xy[w, 0] - xy[v, 0]
        ey = xy[w, 1] - xy[v, 1]
        norm = np.sqrt(ex * ex + ey * ey)
        dot = (ex * dx + ey * dy) / norm if norm > 0 else 0.0
        if dot > best_dot:
            best_dot = dot
            best = e
    return best, best_dot


@njit(cache=True)
def _walk_trails(a, b, xy, n_vertices):
    """Euler-style trails over an edge list: each walk goes on through every vertex it
    can, straight on where it can; walks start at odd-degree vertices first."""
    m = a.size
    ptr, inc = incidence(a, b, n_vertices)
    left = np.diff(ptr)
    used = np.zeros(m, np.bool_)
    out = np.empty(2 * m, np.int64)  # vertex ids, lines one after another
    starts = np.empty(m + 1, np.int64)
    n_out = 0
    n_lines = 0
    for phase in range(2):
        for s in range(n_vertices):
            while left[s] > 0 and (phase == 1 or left[s] % 2 == 1):
                starts[n_lines] = n_out
                n_lines += 1
                out[n_out] = s
                n_out += 1
                v = s
                dx = 0.0
                dy = 0.0
                while True:
                    best, best_dot = straightest(v, dx, dy, a, b, xy, ptr, inc, used)
                    if best < 0:
                        break
                    used[best] = True
                    w = b[best] if a[best] == v else a[best]
                    left[v] -= 1
                    left[w] -= 1
                    ex = xy[w, 0] - xy[v, 0]
                    ey = xy[w, 1] - xy[v, 1]
                    norm = np.sqrt(ex * ex + ey * ey)
                    straight = norm > 0 and out[n_out - 1] == v and best_dot > 1 - 1e-9
                    if straight and n_out - starts[n_lines - 1] >= 2:
                        out[n_out - 1] = w  # straight on: move the end instead of adding a point
                    else:
                        out[n_out] = w
                        n_out += 1
                    if norm > 0:
                        dx = ex / norm
                        dy = ey / norm
                    v = w
    starts[n_lines] = n_out
    return out[:n_out], starts[: n_lines + 1]


@njit(cache=True)
def _number_points(ends, spatial):
    """:func:`_point_ids` through one hash: ``spatial`` puts neighbouring points in
    neighbouring slots (the order a drawing's points come in, so the table is read nearly
    in order); it gives up (``ok`` False) when a probe runs long, where many points share
    a place (a finely sampled curve), and the mixing hash takes over."""
    n = ends.shape[0]
    size = 16
    while size < 2 * n:  # at most half full
        size <<= 1
    mask = np.int64(size - 1)
    table = np.full(size, -1, np.int64)  # a number, or -1 for an empty slot
    q = np.empty((n, 2), np.int64)
    ids = np.empty(n, np.int64)
    first = np.empty(n, np.int64)
    count = 0
    for i in range(n):
        x = np.int64(np.floor(ends[i, 0] * 1e6 + 0.5))
        y = np.int64(np.floor(ends[i, 1] * 1e6 + 0.5))
        q[i, 0], q[i, 1] = x, y
        if spatial:  # a box of about an eighth by a quarter of a unit, rows 40503 apart
            k = ((y >> 18) * 40503 + (x >> 17)) & mask
        else:
            h = (np.uint64(x) * np.uint64(0x9E3779B97F4A7C15)) ^ (
                np.uint64(y) * np.uint64(0xC2B2AE3D27D4EB4F)
            )
            k = np.int64((h ^ (h >> np.uint64(29))) & np.uint64(mask))
        probes = 0
        while True:
            j = table[k]
            if j < 0:
                table[k] = count
                first[count] = i
                ids[i] = count
                count += 1
                break
            f = first[j]
            if q[f, 0] == x and q[f, 1] == y:
                ids[i] = j
                break
            k = (k + 1) & mask
            probes += 1
            if spatial and probes > 64:
                return ids, first[:0], False
    return ids, first[:count], True


def _point_ids(ends: NDArray[np.float64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Number the points of ``ends`` (``(N, 2)``; equal when they agree to 1e-6) in order of
    first appearance, through an open-addressing hash table: each point's number, and the
    first point of each number (the same whichever hash found them)."""
    ids, first, ok = _number_points(ends, True)
    if not ok:
        ids, first, ok = _number_points(ends, False)
    return ids, first


@njit(cache=True)
def _span(ends):
    """The box of the points ``ends`` (``x0, y0, x1, y1``) and whether all are integers."""
    x0, y0, x1, y1 = np.inf, np.inf, -np.inf, -np.inf
    whole = True
    for i in range(ends.shape[0]):
        x, y = ends[i, 0], ends[i, 1]
        x0, x1, y0, y1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
        whole = whole and x == np.floor(x) and y == np.floor(y)
    return x0, y0, x1, y1, whole


def chain_segments(segs: ArrayLike) -> Lines:
    """Merge segments that meet end to end into as few polylines as a walk allows.

    Parameters
    ----------
    segs : (M, 4) array_like
        ``x0, y0, x1, y1``; endpoints that agree to 1e-6 are the same point.

    Returns
    -------
    Lines
        Every segment exactly once; at a junction a line goes straight on where
        it can; collinear points in a line are dropped.
    """
    s = np.asarray(segs, dtype=np.float64).reshape(-1, 4)
    keep = (s[:, 0] != s[:, 2]) | (s[:, 1] != s[:, 3])  # no segment of no length
    s = np.ascontiguousarray(s if keep.all() else s[keep])
    if not len(s):
        return Lines()
    ends = s.reshape(-1, 2)
    x0, y0, x1, y1, whole = _span(ends)
    lo, span = np.array([x0, y0]), np.array([x1 - x0, y1 - y0])
    if whole and (span[0] + 1) * (span[1] + 1) <= 4 * len(ends) + 64:
        # lattice points, densely used: the point's place on the lattice is its id
        ij = (ends - lo).astype(np.int64)
        width = int(span[0]) + 1
        ids = ij[:, 1] * width + ij[:, 0]
        n = width * (int(span[1]) + 1)
        xy = np.stack([np.arange(n) % width, np.arange(n) // width], axis=1) + lo
    else:
        ids, first = _point_ids(ends)
        n = len(first)
        xy = ends[first]
    ids = ids.astype(np.int64, copy=False)
    a, b = np.ascontiguousarray(ids[0::2]), np.ascontiguousarray(ids[1::2])
    xy = np.ascontiguousarray(xy, dtype=np.float64)
    verts, starts = _walk_trails(a, b, xy, n)
    return Lines(xy[verts], starts)


def chain_lines(lines: Lines) -> Lines:
    """:func:`chain_segments` of the segments of ``lines``."""
    return chain_segments(lines.segments())


@njit(cache=True)
def _greedy_order(ends, cell, x0, y0, nx, ny, bucket_ptr, bucket_items, sx, sy):
    """Nearest free end first; returns the line order and whether each is reversed."""
    k = ends.shape[0] // 2
    alive = np.ones(k, np.bool_)
    order = np.empty(k, np.int64)
    flip = np.zeros(k, np.bool_)
    px, py = sx, sy
    for step in range(k):
        cx = min(max(int((px - x0) / cell), 0), nx - 1)
        cy = min(max(int((py - y0) / cell), 0), ny - 1)
        best = -1
        best_d = np.inf
        r = 0
        while True:
            for gy in range(cy - r, cy + r + 1):
                if gy < 0 or gy >= ny:
                    continue
                edge_row = gy == cy - r or gy == cy + r
                gx = cx - r
                while gx <= cx + r:
                    if 0 <= gx < nx:
                        g = gy * nx + gx
                        for t in range(bucket_ptr[g], bucket_ptr[g + 1]):
                            e = bucket_items[t]
                            if alive[e // 2]:
                                dx = ends[e, 0] - px
                                dy = ends[e, 1] - py
                                d = dx * dx + dy * dy
                                if d < best_d:
                                    best_d = d
                                    best = e
                    gx = gx + 1 if edge_row or r == 0 else gx + 2 * r
            if best >= 0 and np.sqrt(best_d) <= r * cell:
                break
            if r > nx + ny:
                break
            r += 1
        line = best // 2
        alive[line] = False
        order[step] = line
        flip[step] = best % 2 == 1
        other = best + 1 if best % 2 == 0 else best - 1
        px = ends[other, 0]
        py = ends[other, 1]
    return order, flip


def order_lines(lines: Lines, *, start: tuple[float, float] = (0.0, 0.0)) -> Lines:
    """The same polylines in pen order: from ``start``, always the nearest free end next.

    A line whose far end is the nearer is drawn reversed.
    """
    k = len(lines)
    if k <= 1:
        return lines
    first = lines.points[lines.starts[:-1]]
    last = lines.points[lines.starts[1:] - 1]
    ends = np.empty((2 * k, 2))
    ends[0::2], ends[1::2] = first, last
    lo, hi = ends.min(axis=0), ends.max(axis=0)
    # buckets of about one end each; a thin spread (ends along a line) is not a thousand
    # buckets across: each side is counted as at least a 4k-th of the longer one
    span = np.maximum(hi - lo, max(float((hi - lo).max()) / (4 * k), 1e-9))
    cell = max(float(np.sqrt(np.prod(span) / k)), 1e-6)
    nx = int((hi[0] - lo[0]) / cell) + 1
    ny = int((hi[1] - lo[1]) / cell) + 1
    gx = np.minimum(((ends[:, 0] - lo[0]) / cell).astype(np.int64), nx - 1)
    gy = np.minimum(((ends[:, 1] - lo[1]) / cell).astype(np.int64), ny - 1)
    g = gy * nx + gx
    items = np.argsort(g, kind="stable").astype(np.int64)
    ptr = np.zeros(nx * ny + 1, np.int64)
    ptr[1:] = np.cumsum(np.bincount(g, minlength=nx * ny))
    order, flip = _greedy_order(
        ends, cell, float(lo[0]), float(lo[1]), nx, ny, ptr, items, *map(float, start)
    )
    idx, starts = _reorder(lines.starts, order, flip)
    return Lines(lines.points[idx], starts)


@njit(cache=True)
def _reorder(starts, order, flip):
    """Point indices of the lines taken in ``order`` (reversed where ``flip``), and new starts."""
    idx = np.empty(starts[-1], np.int64)
    out = np.empty(order.size + 1, np.int64)
    n = 0
    for j in range(order.size):
        out[j] = n
        a, b = starts[order[j]], starts[order[j] + 1]
        for t in range(b - a):
            idx[n + t] = b - 1 - t if flip[j] else a + t
        n += b - a
    out[order.size] = n
    return idx, out


def pen_up_travel(lines: Lines, *, start: tuple[float, float] = (0.0, 0.0)) -> float:
    """Length of the moves between lines (from ``start``), in the lines' units."""
    if not len(lines):
        return 0.0
    first = lines.points[lines.starts[:-1]]
    last = lines.points[lines.starts[1:] - 1]
    prev = np.vstack([np.asarray(start, float)[None], last[:-1]])
    return float(np.linalg.norm(first - prev, axis=1).sum())
