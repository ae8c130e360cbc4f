"""Union-find over walls: Kruskal's algorithm, and joining a forest into spanning trees.

:func:`complete_forest` takes the passages a generator has carved (any forest)
and removes walls in uniformly random order, keeping those that join two
different trees, until every free part is one tree. Started from no passages
this *is* randomized Kruskal's algorithm; started from the trees a row-by-row
algorithm leaves on a preset (where a shape cuts a run or a set off), it is
the repair that makes that algorithm correct on any mask.
"""

from __future__ import annotations

import numpy as np

from mazeart._graph import find, union
from mazeart._jit import njit
from mazeart._rng import below, next_u64
from mazeart.generate._carve import carve

__all__ = ["complete_forest"]


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_BUCKET_BITS = 8
_SHIFT = np.uint64(64 - _BUCKET_BITS)


@njit(inline="always", cache=True)
def _bucket(salt, edge):
    """A random bucket for a wall: the SplitMix64 finaliser of (salt + edge * golden)."""
    z = salt + np.uint64(edge) * _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return (z ^ (z >> np.uint64(31))) >> _SHIFT


@njit(cache=True)
def _join(free, stride, passages, state, needed, existing, edges, pairs, order):
    n = free.size
    parent = np.arange(n).astype(edges.dtype)
    rank = np.zeros(n, np.int8)
    for i in range(pairs.shape[0]):  # cells already joined some other way (through a room)
        union(parent, rank, pairs[i, 0], pairs[i, 1])
    for c in range(n if existing > 0 else 0):  # trees carved so far (none for Kruskal's)
        bits = passages[c]
        if bits & 2:
            union(parent, rank, c, c + 1)
        if bits & 4:
            union(parent, rank, c, c + stride)
    # A uniformly random order of the walls, in cache-sized pieces: every wall goes
    # to a random bucket (a hash of its index), buckets are taken in turn, and each
    # is shuffled on its own (Fisher-Yates) as its turn comes. Random buckets followed by
    # uniform shuffles within them give a uniform permutation of all the walls.
    buckets = 1 << _BUCKET_BITS
    salt = next_u64(state)
    start = np.zeros(buckets + 1, np.int64)
    for c in range(n):
        if free[c]:
            if free[c + 1] and not passages[c] & 2:
                start[_bucket(salt, 2 * c) + 1] += 1
            if free[c + stride] and not passages[c] & 4:
                start[_bucket(salt, 2 * c + 1) + 1] += 1
    for i in range(buckets):
        start[i + 1] += start[i]
    fill = start[:buckets].copy()
    for c in range(n):
        if free[c]:
            if free[c + 1] and not passages[c] & 2:
                k = _bucket(salt, 2 * c)
                edges[fill[k]] = 2 * c
                fill[k] += 1
            if free[c + stride] and not passages[c] & 4:
                k = _bucket(salt, 2 * c + 1)
                edges[fill[k]] = 2 * c + 1
                fill[k] += 1
    remaining = needed
    record = order.size > 1
    ahead = 16  # walls: how far on the cells are touched
    touched = np.int64(0)
    for k in range(buckets):
        if remaining <= 0:
            break
        lo = start[k]
        hi = start[k + 1]
        for m in range(hi - 1, lo, -1):  # shuffle the bucket (Fisher-Yates; it fits the cache)
            j = lo + below(state, m - lo + 1)
            e = edges[j]
            edges[j] = edges[m]
            edges[m] = e
        for j in range(lo, hi):
            if remaining <= 0:
                break
            if j + ahead < hi:
                # Read the cell of a wall a few walls on: the lookups of the union-find
                # miss the cache, and this way several misses are under way at once.
                touched += parent[edges[j + ahead] >> 1]
            e = np.int64(edges[j])
            a = e >> 1
            if e & 1:
                b = a + stride
                d = 2
            else:
                b = a + 1
                d = 1
            ra = find(parent, a)
            rb = find(parent, b)
            if ra == rb:
                continue
            if rank[ra] < rank[rb]:  # union by rank, written out: this is the hot loop
                ra, rb = rb, ra
            parent[rb] = ra
            if rank[ra] == rank[rb]:
                rank[ra] += 1
            if record:
                carve(passages, order, a, d, b)
            elif d == 1:
                passages[a] |= 2
                passages[b] |= 8
            else:
                passages[a] |= 4
                passages[b] |= 1
            remaining -= 1
    return needed - remaining, touched  # (returned so that the reads stay)


def complete_forest(grid, pairs: np.ndarray | None = None) -> int:
    """Join the trees of every free part of a :class:`CellGrid` into one.

    Parameters
    ----------
    grid : CellGrid
        Its ``passages`` must form a forest (no loops); they are extended in place.
    pairs : (k, 2) ndarray of int64, optional
        Framed cells to count as joined already (e.g. the doors of one room).

    Returns
    -------
    int
        Number of passages added.
    """
    n_free = int(np.count_nonzero(grid.flat_free))
    existing = int(np.count_nonzero(grid.passages & 2) + np.count_nonzero(grid.passages & 4))
    needed = n_free - len(grid.starts) - existing
    if pairs is None:
        pairs = np.zeros((0, 2), dtype=np.int64)
    elif len(pairs):
        needed = n_free  # rooms change the count of trees: run through every wall
    if needed <= 0:
        return 0
    dtype = np.int32 if 2 * grid.flat_free.size < 2**31 else np.int64
    edges = np.empty(2 * n_free, dtype=dtype)
    added, _ = _join(
        grid.flat_free,
        grid.stride,
        grid.passages,
        grid.state,
        needed,
        existing,
        edges,
        pairs,
        grid.order,
    )
    return int(added)
