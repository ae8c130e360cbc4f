"""One pen stroke per separate group of lines: the Chinese postman's tour of a drawing.

A pen plotter pays for every lift: the pen goes up, travels, comes down, and
each landing can blot. :func:`one_stroke` draws every connected group of lines
as a single continuous path:

1. **noding**: lines that cross or touch (a wall that ends on another's middle,
   the outline a clipped wall ends on, hatching and parallel pen lines) are
   split there, so the drawing is a graph whose vertices are every place two
   lines meet;
2. **pairing the odd junctions**: a graph can be drawn in one stroke only when
   at most two of its vertices have an odd number of lines; the others are
   paired by retracing lines between them (a *T-join*). On a forest the
   cheapest pairing is unique and found in one pass (an edge is retraced when
   the part of the tree below it holds an odd number of odd vertices); lines
   that close loops then improve it, flipping a loop's retraced lines whenever
   they are more than half of it (the test that a least pairing passes);
3. **leaving the best pair open**: the stroke need not come back to where it
   began, so two odd vertices stay unpaired: those whose path saves the most
   retracing;
4. **the tour**: Hierholzer's walk of every line and every retraced line once,
   going straight on at a junction where it can (so a wall run stays one line).

A maze's walls are almost a forest (a perfect maze's walls are exactly trees
hanging from its outline), so the pairing is close to the least there is: the
retraced share is what the walls' dead ends cost, out and back.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from mazeart._jit import njit
from mazeart.export.lines import (
    Lines,
    _point_ids,
    incidence,
    order_lines,
    pen_up_travel,
    straightest,
)

__all__ = ["ROUNDS", "OneStroke", "node_segments", "one_stroke", "plan_strokes"]

ROUNDS = 8
"""Spanning trees whose loops the pairing tries (more: less retracing on drawings full of
loops, such as tone's parallel lines; a maze's walls are done in one)."""


# ----------------------------------------------------------------------------- noding


def _segment_work(segs: NDArray[np.float64], *rest: object) -> int:
    """A noding's work as Python: some forty steps a segment (its buckets, the pairs in
    them), so that a drawing of a few thousand lines is noded compiled."""
    return 40 * int(segs.shape[0])


def _edge_work(a: NDArray[np.int64], *rest: object) -> int:
    """A pairing's or a tour's work as Python: some twenty steps an edge."""
    return 20 * int(a.size)


@njit(cache=True)
def _bucket_range(x0, x1, lo, cell, n):
    """The buckets ``[first, last]`` an interval ``[x0, x1]`` covers on an axis."""
    first = min(max(int((x0 - lo) / cell), 0), n - 1)
    last = min(max(int((x1 - lo) / cell), 0), n - 1)
    return first, last


@njit(cache=True)
def _room(rec_seg, rec_t, rec_xy, n):
    """The records' arrays, twice as long when the ``n`` held fill them."""
    if n < rec_seg.size:
        return rec_seg, rec_t, rec_xy
    seg = np.empty(2 * n, np.int64)
    t = np.empty(2 * n, np.float64)
    xy = np.empty((2 * n, 2), np.float64)
    seg[:n], t[:n], xy[:n] = rec_seg[:n], rec_t[:n], rec_xy[:n]
    return seg, t, xy


@njit(cache=True, work=_segment_work)
def _split_points(segs, lo_x, lo_y, cell, nx, ny, tol):
    """Every place a segment of ``segs`` is met inside (not at its ends) by another: the
    segment, its parameter there and the point. Segments are bucketed on a grid of
    ``cell``-wide squares; a pair is tested in each bucket it shares and a meeting
    recorded only in the bucket its point lies in, so once."""
    m = segs.shape[0]
    box = np.empty((m, 4), np.int64)  # the buckets each segment covers: x0, x1, y0, y1
    count = np.zeros(nx * ny + 1, np.int64)
    for i in range(m):
        box[i, 0], box[i, 1] = _bucket_range(
            min(segs[i, 0], segs[i, 2]) - tol, max(segs[i, 0], segs[i, 2]) + tol, lo_x, cell, nx
        )
        box[i, 2], box[i, 3] = _bucket_range(
            min(segs[i, 1], segs[i, 3]) - tol, max(segs[i, 1], segs[i, 3]) + tol, lo_y, cell, ny
        )
        for gy in range(box[i, 2], box[i, 3] + 1):
            for gx in range(box[i, 0], box[i, 1] + 1):
                count[gy * nx + gx + 1] += 1
    ptr = np.cumsum(count)
    items = np.empty(ptr[-1], np.int64)
    fill = ptr[:-1].copy()
    for i in range(m):
        for gy in range(box[i, 2], box[i, 3] + 1):
            for gx in range(box[i, 0], box[i, 1] + 1):
                g = gy * nx + gx
                items[fill[g]] = i
                fill[g] += 1
    rec_seg = np.empty(16 + m, np.int64)
    rec_t = np.empty(16 + m, np.float64)
    rec_xy = np.empty((16 + m, 2), np.float64)
    n_rec = 0
    for g in range(nx * ny):
        for p in range(ptr[g], ptr[g + 1]):
            i = items[p]
            for q in range(p + 1, ptr[g + 1]):
                j = items[q]
                for side in range(3):
                    # side 0 and 1: an end of one segment lying inside the other;
                    # side 2: the two crossing inside both
                    if side == 0:
                        s, o = i, j
                    else:
                        s, o = j, i
                    px, py = segs[s, 0], segs[s, 1]
                    dx, dy = segs[s, 2] - px, segs[s, 3] - py
                    ll = dx * dx + dy * dy
                    if side < 2:
                        for end in range(2):
                            qx, qy = segs[o, 2 * end], segs[o, 2 * end + 1]
                            along = (qx - px) * dx + (qy - py) * dy
                            length = np.sqrt(ll)
                            if along <= tol * length or along >= ll - tol * length:
                                continue
                            if abs(dx * (qy - py) - dy * (qx - px)) > tol * length:
                                continue
                            gx = min(max(int((qx - lo_x) / cell), 0), nx - 1)
                            gy = min(max(int((qy - lo_y) / cell), 0), ny - 1)
                            if gy * nx + gx != g:
                                continue
                            rec_seg, rec_t, rec_xy = _room(rec_seg, rec_t, rec_xy, n_rec)
                            rec_seg[n_rec], rec_t[n_rec] = s, along / ll
                            rec_xy[n_rec, 0], rec_xy[n_rec, 1] = qx, qy
                            n_rec += 1
                    else:
                        ex, ey = segs[o, 2] - segs[o, 0], segs[o, 3] - segs[o, 1]
                        den = dx * ey - dy * ex
                        le = np.sqrt(ex * ex + ey * ey)
                        ld = np.sqrt(ll)
                        if abs(den) <= 1e-9 * ld * le:
                            continue  # parallel: their meetings are ends, found above
                        wx, wy = segs[o, 0] - px, segs[o, 1] - py
                        t = (wx * ey - wy * ex) / den
                        u = (wx * dy - wy * dx) / den
                        # strictly inside both (an end on the other was found above)
                        if t * ld <= tol or (1 - t) * ld <= tol:
                            continue
                        if u * le <= tol or (1 - u) * le <= tol:
                            continue
                        cx, cy = px + t * dx, py + t * dy
                        gx = min(max(int((cx - lo_x) / cell), 0), nx - 1)
                        gy = min(max(int((cy - lo_y) / cell), 0), ny - 1)
                        if gy * nx + gx != g:
                            continue
                        for k in range(2):
                            rec_seg, rec_t, rec_xy = _room(rec_seg, rec_t, rec_xy, n_rec)
                            rec_seg[n_rec] = s if k == 0 else o
                            rec_t[n_rec] = t if k == 0 else u
                            rec_xy[n_rec, 0] = cx
                            rec_xy[n_rec, 1] = cy
                            n_rec += 1
    return rec_seg[:n_rec], rec_t[:n_rec], rec_xy[:n_rec]


@njit(cache=True)
def _cut_at(segs, rec_seg, rec_t, rec_xy, order):
    """The pieces of ``segs`` cut at the recorded points (``order``: the records sorted by
    segment, then parameter)."""
    m = segs.shape[0]
    out = np.empty((m + rec_seg.size, 4), np.float64)
    k = 0
    r = 0
    for i in range(m):
        x, y = segs[i, 0], segs[i, 1]
        while r < order.size and rec_seg[order[r]] == i:
            c = order[r]
            r += 1
            if rec_xy[c, 0] == x and rec_xy[c, 1] == y:
                continue  # met twice at one point
            out[k, 0], out[k, 1], out[k, 2], out[k, 3] = x, y, rec_xy[c, 0], rec_xy[c, 1]
            x, y = rec_xy[c, 0], rec_xy[c, 1]
            k += 1
        out[k, 0], out[k, 1], out[k, 2], out[k, 3] = x, y, segs[i, 2], segs[i, 3]
        k += 1
    return out[:k]


def node_segments(segs: NDArray[np.float64]) -> NDArray[np.float64]:
    """Segments cut wherever another segment crosses them or ends on them.

    Parameters
    ----------
    segs : (M, 4) ndarray of float
        ``x0, y0, x1, y1`` rows.

    Returns
    -------
    (K, 4) ndarray of float64
        The same ink, each segment in pieces that meet others at their ends only
        (a point where an end lies on another segment keeps that end's exact
        coordinates; a crossing is computed once and shared by both pieces).

    Examples
    --------
    A line, one ending on its middle, one crossing it there: five pieces.

    >>> for piece in node_segments(np.array([[0.0, 0, 2, 0], [1, 0, 1, 1], [0, -1, 2, 1]])):
    ...     print(piece.tolist())
    [0.0, 0.0, 1.0, 0.0]
    [1.0, 0.0, 2.0, 0.0]
    [1.0, 0.0, 1.0, 1.0]
    [0.0, -1.0, 1.0, 0.0]
    [1.0, 0.0, 2.0, 1.0]
    """
    s = np.asarray(segs, dtype=np.float64).reshape(-1, 4)
    s = s[np.any(s[:, :2] != s[:, 2:], axis=1)]
    if len(s) < 2:
        return s.copy()
    ends = s.reshape(-1, 2)
    lo, hi = ends.min(axis=0), ends.max(axis=0)
    extent = float(max((hi - lo).max(), 1e-9))
    lengths = np.hypot(s[:, 2] - s[:, 0], s[:, 3] - s[:, 1])
    # buckets about as wide as a typical piece, and no more of them than segments
    cell = max(float(np.median(lengths)), extent / np.sqrt(len(s)), extent / 4096)
    nx = int((hi[0] - lo[0]) / cell) + 1
    ny = int((hi[1] - lo[1]) / cell) + 1
    tol = 1e-9 * max(extent, 1.0)
    rec_seg, rec_t, rec_xy = _split_points(s, float(lo[0]), float(lo[1]), cell, nx, ny, tol)
    order = np.lexsort((rec_t, rec_seg)).astype(np.int64)
    return _cut_at(s, rec_seg, rec_t, rec_xy, order)


# ----------------------------------------------------------------------------- the tour


@njit(cache=True)
def _forest(a, b, n, ptr, inc, usable):
    """A spanning forest through the ``usable`` edges, breadth first: each vertex's group,
    the edge to its parent (-1 at a root), its depth, the vertices in visiting order, and
    each group's root."""
    comp = np.full(n, -1, np.int64)
    parent = np.full(n, -1, np.int64)
    depth = np.zeros(n, np.int64)
    order = np.empty(n, np.int64)
    roots = np.empty(n, np.int64)
    k = 0
    n_comp = 0
    for s in range(n):
        if comp[s] >= 0 or ptr[s + 1] == ptr[s]:
            continue
        comp[s] = n_comp
        roots[n_comp] = s
        order[k] = s
        head = k
        k += 1
        while head < k:
            v = order[head]
            head += 1
            for t in range(ptr[v], ptr[v + 1]):
                e = inc[t]
                w = b[e] if a[e] == v else a[e]
                if usable[e] and comp[w] < 0:
                    comp[w] = n_comp
                    parent[w] = e
                    depth[w] = depth[v] + 1
                    order[k] = w
                    k += 1
        n_comp += 1
    return comp, parent, depth, order[:k], roots[:n_comp]


@njit(cache=True)
def _tree_path(u, v, a, b, parent, depth, path):
    """The edges of the tree path between ``u`` and ``v``, written into ``path``; how many."""
    n = 0
    while u != v:
        if depth[u] >= depth[v]:
            f = parent[u]
            u = b[f] if a[f] == u else a[f]
        else:
            f = parent[v]
            v = b[f] if a[f] == v else a[f]
        path[n] = f
        n += 1
    return n


@njit(cache=True)
def _flip_loops(a, b, length, parent, depth, tree, retrace, path):
    """Flip the retracing around each loop a non-tree edge closes where more than half of
    the loop is retraced (keeping every vertex's parity); whether any was flipped."""
    changed = False
    for e in range(a.size):
        if tree[e]:
            continue
        n = _tree_path(a[e], b[e], a, b, parent, depth, path)
        total = length[e]
        more = length[e] if retrace[e] else 0.0
        for i in range(n):
            total += length[path[i]]
            if retrace[path[i]]:
                more += length[path[i]]
        if 2.0 * more > total * (1.0 + 1e-9):
            changed = True
            retrace[e] = not retrace[e]
            for i in range(n):
                retrace[path[i]] = not retrace[path[i]]
    return changed


@njit(cache=True, work=_edge_work)
def _pairing(a, b, length, n, rounds):
    """The edges to retrace so that each connected group can be drawn in one stroke, and
    where each group's stroke starts: ``(retrace, starts)``, ``starts[k]`` a vertex of
    group ``k`` (an odd one when the stroke is left open)."""
    m = a.size
    ptr, inc = incidence(a, b, n)
    everything = np.ones(m, np.bool_)
    comp, parent, depth, order, roots = _forest(a, b, n, ptr, inc, everything)
    n_comp = roots.size
    tree = np.zeros(m, np.bool_)
    odd = np.zeros(n, np.bool_)
    for v in range(n):
        odd[v] = (ptr[v + 1] - ptr[v]) % 2 == 1
        if parent[v] >= 0:
            tree[parent[v]] = True
    # the forest's pairing: retrace the edge above every subtree holding an odd count
    retrace = np.zeros(m, np.bool_)
    need = odd.copy()
    for idx in range(order.size - 1, -1, -1):
        v = order[idx]
        e = parent[v]
        if e >= 0 and need[v]:
            retrace[e] = True
            u = b[e] if a[e] == v else a[e]
            need[u] = not need[u]
    # loops: each round flips the loops of one spanning tree, then takes another that
    # holds the retraced edges (so other loops are tried), until none flips
    path = np.empty(n, np.int64)  # a tree path's edges
    state = np.uint64(0x9E3779B97F4A7C15)
    key = np.empty(m, np.float64)
    root_of = np.empty(n, np.int64)
    for r in range(rounds):
        flipped = False
        for _ in range(4):
            if not _flip_loops(a, b, length, parent, depth, tree, retrace, path):
                break
            flipped = True
        if not flipped and r > 0:
            break
        # the next tree: retraced edges first, the others in a shuffled order
        for e in range(m):
            state ^= state << np.uint64(13)
            state ^= state >> np.uint64(7)
            state ^= state << np.uint64(17)
            key[e] = (0.0 if retrace[e] else 1.0) + float(state >> np.uint64(11)) * 2.0**-54
        for v in range(n):
            root_of[v] = v
        tree[:] = False
        for e in np.argsort(key):
            x, y = a[e], b[e]
            while root_of[x] != x:
                root_of[x] = root_of[root_of[x]]
                x = root_of[x]
            while root_of[y] != y:
                root_of[y] = root_of[root_of[y]]
                y = root_of[y]
            if x != y:
                root_of[x] = y
                tree[e] = True
        comp, parent, depth, order, roots = _forest(a, b, n, ptr, inc, tree)
    # the open ends: per group, the two odd vertices whose tree path saves the most
    down = np.full(n, -np.inf)
    down_end = np.full(n, -1, np.int64)
    for v in range(n):
        if odd[v]:
            down[v] = 0.0
            down_end[v] = v
    best = np.zeros(n_comp)
    best_s = np.full(n_comp, -1, np.int64)
    best_t = np.full(n_comp, -1, np.int64)
    for idx in range(order.size - 1, 0, -1):
        v = order[idx]
        e = parent[v]
        if e < 0 or down_end[v] < 0:
            continue
        u = b[e] if a[e] == v else a[e]
        val = down[v] + (length[e] if retrace[e] else -length[e])
        c = comp[v]
        if down_end[u] >= 0 and down[u] + val > best[c]:
            best[c] = down[u] + val
            best_s[c] = down_end[u]
            best_t[c] = down_end[v]
        if val > down[u]:
            down[u] = val
            down_end[u] = down_end[v]
    starts = roots.copy()
    for c in range(n_comp):
        if best_s[c] < 0:
            continue
        starts[c] = best_s[c]
        for i in range(_tree_path(best_s[c], best_t[c], a, b, parent, depth, path)):
            retrace[path[i]] = not retrace[path[i]]
    return retrace, starts


@njit(cache=True, work=_edge_work)
def _tour(a, b, xy, n, starts):
    """Hierholzer's walk of every edge of the multigraph ``a, b`` once from each start,
    straight on at a junction where it can: the vertices of each walk, one after another,
    with points where it goes straight on left out."""
    m = a.size
    ptr, inc = incidence(a, b, n)
    used = np.zeros(m, np.bool_)
    stack = np.empty(m + 1, np.int64)
    out = np.empty(m + starts.size, np.int64)
    line_starts = np.empty(starts.size + 1, np.int64)
    n_out = 0
    for c in range(starts.size):
        line_starts[c] = n_out
        stack[0] = starts[c]
        top = 0
        while top >= 0:
            v = stack[top]
            dx = 0.0
            dy = 0.0
            if top > 0:
                p = stack[top - 1]
                dx = xy[v, 0] - xy[p, 0]
                dy = xy[v, 1] - xy[p, 1]
                norm = np.sqrt(dx * dx + dy * dy)
                if norm > 0:
                    dx /= norm
                    dy /= norm
            best, _ = straightest(v, dx, dy, a, b, xy, ptr, inc, used)
            if best >= 0:
                used[best] = True
                top += 1
                stack[top] = b[best] if a[best] == v else a[best]
                continue
            top -= 1
            # the walk, backwards: v is its next point; a point it goes straight on
            # through is replaced by the next
            if n_out - line_starts[c] >= 2:
                p1 = out[n_out - 1]
                p0 = out[n_out - 2]
                ux = xy[p1, 0] - xy[p0, 0]
                uy = xy[p1, 1] - xy[p0, 1]
                vx = xy[v, 0] - xy[p1, 0]
                vy = xy[v, 1] - xy[p1, 1]
                cross = ux * vy - uy * vx
                scale = np.sqrt((ux * ux + uy * uy) * (vx * vx + vy * vy))
                if abs(cross) <= 1e-9 * scale and ux * vx + uy * vy > 0:
                    out[n_out - 1] = v
                    continue
            out[n_out] = v
            n_out += 1
    line_starts[starts.size] = n_out
    return out[:n_out], line_starts


@dataclass(frozen=True, eq=False)
class OneStroke:
    """A drawing as one continuous stroke per connected group of its lines."""

    lines: Lines
    """One polyline per group, in pen order."""
    drawn: float
    """Length of the drawing's ink (each piece once)."""
    retraced: float
    """Length the pen goes over a second time to reach the next line without lifting."""

    @property
    def strokes(self) -> int:
        """Pen-downs: the number of connected groups."""
        return len(self.lines)

    @property
    def retraced_share(self) -> float:
        """Retraced length over the drawing's length."""
        return self.retraced / self.drawn if self.drawn > 0 else 0.0

    def travel(self, start: tuple[float, float] = (0.0, 0.0)) -> float:
        """Everything the pen moves: down (ink and retracing) and up between strokes."""
        return self.drawn + self.retraced + pen_up_travel(self.lines, start=start)


def plan_strokes(lines: Lines, *, tips: float = 0.0) -> OneStroke:
    """Every connected group of ``lines`` as one stroke (see the module's text).

    Parameters
    ----------
    lines : Lines
        Polylines in any order; where they cross or touch, the stroke may turn.
    tips : float, default 0
        Lengthen each free end (a wall's dead end) by this much: half the width
        of a square-capped stroke, whose ends a stroke's turn would otherwise cut.

    Returns
    -------
    OneStroke
    """
    segs = node_segments(lines.segments())
    if not len(segs):
        return OneStroke(Lines(), 0.0, 0.0)
    ids, first = _point_ids(segs.reshape(-1, 2))
    xy = segs.reshape(-1, 2)[first].copy()
    pairs = ids.reshape(-1, 2).astype(np.int64)
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    lo, hi = pairs.min(axis=1), pairs.max(axis=1)
    pairs = np.unique(np.stack([lo, hi], axis=1), axis=0)  # a piece drawn twice once
    a, b = pairs[:, 0].copy(), pairs[:, 1].copy()
    n = len(xy)
    if tips > 0:
        deg = np.bincount(np.concatenate([a, b]), minlength=n)
        for end, other in ((a, b), (b, a)):
            free = deg[end] == 1
            d = xy[end[free]] - xy[other[free]]
            d /= np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-12)[:, None]
            xy[end[free]] += tips * d
    length = np.hypot(*(xy[a] - xy[b]).T)
    retrace, starts = _pairing(a, b, length, n, ROUNDS)
    ma = np.concatenate([a, a[retrace]])
    mb = np.concatenate([b, b[retrace]])
    verts, line_starts = _tour(ma, mb, xy, n, starts)
    tour = order_lines(Lines(xy[verts], line_starts))
    return OneStroke(tour, float(length.sum()), float(length[retrace].sum()))


def one_stroke(lines: Lines, *, tips: float = 0.0) -> Lines:
    """:func:`plan_strokes`'s strokes: one polyline per connected group of ``lines``.

    Parameters
    ----------
    lines : Lines
    tips : float, default 0
        Lengthen each free end by this much (half a square-capped stroke's width).

    Returns
    -------
    Lines

    Examples
    --------
    A plus sign is two lines crossing: one stroke draws it, retracing two arms (out to
    a tip and back, twice).

    >>> plus = Lines.from_segments([[0, 1, 2, 1], [1, 0, 1, 2]])
    >>> plan = plan_strokes(plus)
    >>> plan.strokes, plan.drawn, plan.retraced
    (1, 4.0, 2.0)
    """
    return plan_strokes(lines, tips=tips).lines
