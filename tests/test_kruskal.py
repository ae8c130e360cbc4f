"""Kruskal's algorithm against scipy's minimum spanning tree, on every kind of topology.

Kruskal's algorithm takes the walls in a random order and opens each that joins two trees:
the maze it ends with is the minimum spanning tree when a wall weighs its place in that
order. The kernel (:func:`mazeart._kernels.carve.join_forest`) gives every wall a random key
(the SplitMix64 number of its slot, from a salt it draws first) and finds that tree another
way, in Boruvka's rounds. Here the keys are computed again in numpy from that definition and
scipy finds the tree from the weights alone; the walls opened must be its walls exactly,
and with a carve order recorded, they must be opened in key order, as Kruskal's would.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import minimum_spanning_tree

from mazeart._jit import jit_mode
from mazeart._kernels.carve import join_forest
from mazeart._kernels.topology import grid_topology, higher, sides, slot, square_topology, step
from mazeart.grids import make_grid

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
NO_TABLE = np.empty(0, np.uint64)  # the kernel draws its keys


def splitmix(z: np.ndarray) -> np.ndarray:
    """The SplitMix64 finaliser, on uint64 arrays."""
    with np.errstate(over="ignore"):
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def keys_of(seed: int, slots: np.ndarray) -> np.ndarray:
    """Each slot's key: the salt is the state's first SplitMix64 number, and slot ``s``'s key
    the ``s + 1``-th number of a SplitMix64 stream started at the salt."""
    with np.errstate(over="ignore"):
        salt = splitmix(np.array([seed], np.uint64) + GOLDEN)[0]
        return splitmix(salt + (slots.astype(np.uint64) + np.uint64(1)) * GOLDEN)


def walls_of(topo, free: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every wall between free cells, once: its lower cell, higher cell and slot (read with
    the topology's own step and slot, which other tests check against the explicit grids)."""
    lo, hi, at = [], [], []
    for a in np.flatnonzero(free):
        for d in range(int(higher(topo, a)), int(sides(topo, a))):
            b = int(step(topo, a, d))
            if b > a and free[b]:
                lo.append(a)
                hi.append(b)
                at.append(int(slot(topo, a, d)))
    return np.array(lo, np.int64), np.array(hi, np.int64), np.array(at, np.int64)


def tree_of(n: int, lo: np.ndarray, hi: np.ndarray, weight: np.ndarray) -> set[tuple[int, int]]:
    """scipy's minimum spanning forest, as (lower, higher) cell pairs."""
    graph = coo_matrix((weight, (lo, hi)), shape=(n, n)).tocsr()
    t = minimum_spanning_tree(graph).tocoo()
    return set(
        zip(np.minimum(t.row, t.col).tolist(), np.maximum(t.row, t.col).tolist(), strict=True)
    )


def topology(kind: str, rows: int, cols: int, draw_free):
    """(topology, free cells, empty passages, slot of each open passage) for one kind: the
    framed square grid, a framed lattice, a neighbour table (graph) and the polar rings."""
    if kind == "square":
        stride = cols + 2
        free = np.zeros((rows + 2, stride), bool)
        free[1:-1, 1:-1] = draw_free(rows * cols).reshape(rows, cols)
        free = free.reshape(-1)
        links = np.zeros(free.size, np.uint8)

        def opened(links):
            return set((2 * np.flatnonzero(links & 2)).tolist()) | set(
                (2 * np.flatnonzero(links & 4) + 1).tolist()
            )

        return square_topology(stride), free, links, opened
    if kind == "lattice":
        grid = make_grid("hex", rows=rows, cols=cols)
        topo = grid.topology()
        free = grid.frame(draw_free(grid.n_cells))
        links = np.zeros(free.size << int(topo[3]), bool)
    else:
        grid = make_grid("upsilon" if kind == "graph" else "polar", **(
            {"rows": rows, "cols": cols} if kind == "graph" else {"rings": max(2, rows // 2)}
        ))  # fmt: skip
        topo = grid_topology(grid)
        free = draw_free(grid.n_cells)
        links = np.zeros(grid.n_walls, bool)
    return topo, free, links, lambda links: set(np.flatnonzero(links).tolist())


@pytest.mark.parametrize("mode", ["never", "always"])
@pytest.mark.parametrize("kind", ["square", "lattice", "graph", "polar"])
@settings(max_examples=25, deadline=None)
@given(
    rows=st.integers(1, 14),
    cols=st.integers(1, 14),
    density=st.sampled_from([1.0, 0.9, 0.6]),
    seed=st.integers(0, 2**64 - 1),
)
def test_kruskal_opens_the_minimum_spanning_tree_of_its_keys(mode, kind, rows, cols, density, seed):
    """As Python and compiled."""
    mask = np.random.default_rng(seed % 2**32)
    topo, free, links, opened = topology(kind, rows, cols, lambda n: mask.random(n) < density)
    lo, hi, at = walls_of(topo, free)
    state = np.array([seed], np.uint64)
    with jit_mode(mode):
        join_forest(topo, free, links, state, 0, np.zeros((0, 2), np.int64),
                    np.zeros(1, np.int64), np.empty(0, np.int32), NO_TABLE)  # fmt: skip
    rank = np.empty(len(at))
    rank[np.argsort(keys_of(seed, at))] = np.arange(1, len(at) + 1)
    tree = tree_of(free.size, lo, hi, rank)
    slot_of = {(int(a), int(b)): int(s) for a, b, s in zip(lo, hi, at, strict=True)}
    assert opened(links) == {slot_of[p] for p in tree}


@pytest.mark.parametrize(("mode", "dtype"), [("never", np.int32), ("always", np.int64)])
@settings(max_examples=30, deadline=None)
@given(rows=st.integers(2, 16), cols=st.integers(2, 16), seed=st.integers(0, 2**64 - 1))
def test_joining_a_forest_and_rooms_keeps_them_and_adds_the_lightest_walls(
    mode, dtype, rows, cols, seed
):
    """Trees carved already and pairs of cells joined some other way (a room's doors) are
    joined as Kruskal's would: the tree is the minimum spanning tree in which they weigh
    less than every wall; the carve order of the walls added is their key order, after the
    ticks of the walls carved before (the last of them at the clock). As Python with 32-bit
    sets and compiled with 64-bit ones."""
    rng = np.random.default_rng(seed % 2**32)
    topo, free, links, opened = topology("square", rows, cols, lambda n: rng.random(n) < 0.85)
    lo, hi, at = walls_of(topo, free)
    if len(at) == 0:
        return
    # a forest already carved: some walls of a spanning tree of random weights
    some = tree_of(free.size, lo, hi, rng.random(len(at)) + 1)
    carved = [p for p in sorted(some) if rng.random() < 0.4]
    for a, b in carved:
        links[a] |= 2 if b == a + 1 else 4
        links[b] |= 8 if b == a + 1 else 1
    cells = np.flatnonzero(free)
    pairs = rng.choice(cells, size=(int(rng.integers(0, 4)), 2)).astype(np.int64)
    before = opened(links)
    order = np.zeros(1 + 2 * free.size, np.int64)
    order[0] = clock = len(before)
    order[1 + np.array(sorted(before), np.int64)] = np.arange(1, clock + 1)
    state = np.array([seed], np.uint64)
    with jit_mode(mode):
        join_forest(topo, free, links, state, len(carved), pairs, order, np.empty(0, dtype),
                    NO_TABLE)  # fmt: skip
    keys = keys_of(seed, at)
    weight = np.argsort(np.argsort(keys)) + 10.0
    is_carved = np.isin(at, sorted(before))
    weight[is_carved] = 1.0  # the forest carved, lightest of all
    # each pair through a cell of its own, so that no pair doubles a wall
    via = free.size + np.arange(len(pairs))
    tree = tree_of(
        free.size + len(pairs),
        np.concatenate([lo, pairs[:, 0], pairs[:, 1]]),
        np.concatenate([hi, via, via]),
        np.concatenate([weight, np.full(2 * len(pairs), 2.0)]),  # then the rooms' pairs
    )
    slot_of = {(int(a), int(b)): int(s) for a, b, s in zip(lo, hi, at, strict=True)}
    expected = {slot_of[p] for p in tree if p in slot_of}
    assert before <= opened(links)
    assert opened(links) == expected
    added = sorted(opened(links) - before)
    ticks = order[1 + np.array(added, np.int64)]
    assert sorted(ticks.tolist()) == list(range(clock + 1, clock + 1 + len(added)))
    by_key = np.array(added)[np.argsort(keys_of(seed, np.array(added, np.int64)))]
    assert np.array_equal(np.array(added)[np.argsort(ticks)], by_key)


def unmix(z: int) -> int:
    """The SplitMix64 finaliser undone (each xor-shift and multiply has an inverse)."""
    full = (1 << 64) - 1

    def unshift(y: int, k: int) -> int:
        x = y
        for _ in range(64 // k + 1):
            x = y ^ (x >> k)
        return x

    z = unshift(z, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & full
    z = unshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & full
    return unshift(z, 30)


_ONLY_WAY = """
import sys
import numpy as np
from mazeart._jit import jit_mode
from mazeart._kernels.carve import join_forest
from mazeart._kernels.topology import square_topology
mode, stride, cols, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
free = np.zeros(3 * stride, bool)
free[stride + 1 : stride + 1 + cols] = True
links = np.zeros(free.size, np.uint8)
with jit_mode(mode):
    join_forest(square_topology(stride), free, links, np.array([seed], np.uint64), 0,
                np.zeros((0, 2), np.int64), np.zeros(1, np.int64), np.empty(0, np.int32),
                np.empty(0, np.uint64))
print(np.count_nonzero(links & 2))
"""


@pytest.mark.parametrize("mode", ["never", "always"])
@pytest.mark.parametrize("cols", [2, 4])
def test_a_wall_with_the_largest_key_is_opened_when_it_is_the_only_way(mode, cols):
    """Keys are 64-bit numbers, and one may be the largest of all, which the kernel also
    uses for "no wall yet": the wall in the middle of a row of 2 or 4 cells, the only way
    between its halves, is given that key (a state chosen through the inverse of the
    generator's mixing) and must still be opened. (In a process of its own: a kernel that
    never picks the wall would never finish.)"""
    full = (1 << 64) - 1
    golden = int(GOLDEN)
    stride = cols + 2
    middle = 2 * (stride + cols // 2)  # the east wall of the cell left of the middle
    salt = (unmix(full) - (middle + 1) * golden) & full
    seed = (unmix(salt) - golden) & full
    assert int(keys_of(seed, np.array([middle]))[0]) == full
    run = subprocess.run(
        [sys.executable, "-c", _ONLY_WAY, mode, str(stride), str(cols), str(seed)],
        capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    assert int(run.stdout.split()[-1]) == cols - 1  # every wall of the row, the middle's too
