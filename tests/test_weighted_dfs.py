"""The weighted DFS against a plain-Python transcription of the original program's steps.

The reference below follows the original text step by step (1-11, A1-A6), with its
increments and decrements written out, and the two readings documented in
``mazeart.generators.weighted_dfs`` (every path cell records its look; only
counters below PATH count). It draws from the same SplitMix64 stream, so the
compiled kernel, which fuses A2 and A5, must leave exactly the same matrix.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import free_masks
from hypothesis import given
from hypothesis import strategies as st

from mazeart import Maze
from mazeart._rng import kernel_state
from mazeart.generators import generate
from mazeart.generators._common import lattice_weights, part_starts
from mazeart.generators.weighted_dfs import carve_weights
from mazeart.weights import FORBIDDEN, FREE, PATH

MASK64 = (1 << 64) - 1


class SplitMix64:
    """SplitMix64 in Python integers (Steele, Lea & Flood 2014)."""

    def __init__(self, state: int) -> None:
        self.state = state & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, k: int) -> int:
        return ((self.next() >> 32) * k) >> 32


def test_splitmix64_reference_values():
    # First outputs for seed 1234567, as published with the xoshiro reference code.
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(3)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
    ]


def test_kernel_stream_matches_python_splitmix():
    from numba import njit

    from mazeart._rng import next_u64 as kernel

    # The numba function (a kernel compiles on first use; once a kernel calling it has
    # compiled, the module already holds the compiled one).
    next_u64 = kernel.compiled() if hasattr(kernel, "compiled") else kernel

    @njit
    def draw(state, n):
        out = np.empty(n, np.uint64)
        for i in range(n):
            out[i] = next_u64(state)
        return out

    state = np.array([1234567], dtype=np.uint64)
    ref = SplitMix64(1234567)
    assert [int(x) for x in draw(state, 50)] == [ref.next() for _ in range(50)]


def literal_seed_dfs(weights: np.ndarray, starts, rng: SplitMix64, *, literal: bool = False):
    """The original weighted DFS, steps 1-11 and A1-A6, on a framed weight matrix (changed
    in place).

    ``literal=True`` reads the text word for word: a cell records its look only
    at step 9 and A5, so a dead end never records one and a cell whose A4 finds
    nothing keeps its look forgotten. The default adds the kernel's reading: a
    path cell's look stays recorded whenever it is not choosing.
    """
    _h, w = weights.shape
    recorded: set[tuple[int, int]] = set()

    def neighbours(cell):
        r, c = cell
        return [(r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)]  # N, E, S, W

    def look(cell, delta):
        for nb in neighbours(cell):
            if weights[nb] < PATH:  # only counters count
                weights[nb] += delta

    def record(cell):  # steps 9 and A5: increment every neighbour
        if cell not in recorded:
            look(cell, +1)
            recorded.add(cell)

    def forget(cell):  # step A2: decrement every neighbour
        if cell in recorded:
            look(cell, -1)
            recorded.discard(cell)

    def frontier(cell):  # steps 5-7 / A3: neighbours of weight 0
        return [nb for nb in neighbours(cell) if weights[nb] == FREE]

    def pick(valid):  # step 8 / A4
        return valid[0] if len(valid) == 1 else valid[rng.below(len(valid))]

    for s in starts:
        start = divmod(int(s), w)
        if weights[start] != FREE:
            continue
        stack = [start]  # 2
        while stack:  # 3
            cur = stack[-1]
            weights[cur] = PATH  # 4
            valid = frontier(cur)  # 5-7
            if valid:
                chosen = pick(valid)  # 8
                record(cur)  # 9
                weights[chosen] = PATH  # 10
                stack.append(chosen)  # 11
                continue
            if not literal:
                record(cur)  # a dead end records its look too
            stack.pop()  # A1
            if not stack:
                break
            cur = stack[-1]
            forget(cur)  # A2
            valid = frontier(cur)  # A3
            if valid:
                chosen = pick(valid)  # A4
                record(cur)  # A5
                weights[chosen] = PATH
                stack.append(chosen)  # A6
            elif not literal:
                record(cur)  # the look stays recorded; the main loop then pops it
    return weights


def framed(free: np.ndarray) -> np.ndarray:
    out = np.full((free.shape[0] + 2, free.shape[1] + 2), FORBIDDEN, dtype=np.int32)
    out[1:-1, 1:-1][free] = FREE
    return out


@given(free=free_masks(max_side=16), seed=st.integers(0, 2**63))
def test_kernel_equals_literal_steps(free, seed):
    work = framed(free)
    state = np.array([seed], dtype=np.uint64)
    starts = part_starts(free, state)
    _h, w = free.shape
    fs = (starts // w + 1) * (w + 2) + starts % w + 1
    ref_rng = SplitMix64(int(state[0]))
    expected = literal_seed_dfs(work.copy(), fs, ref_rng)
    carve_weights(work, fs, state)
    np.testing.assert_array_equal(work, expected)
    assert int(state[0]) == ref_rng.state  # the same number of draws


@given(free=free_masks(max_side=16), seed=st.integers(0, 2**63))
def test_final_counts_are_path_neighbours(free, seed):
    """After the run every free non-path cell holds the number of path cells beside it."""
    work = framed(free)
    state = np.array([seed], dtype=np.uint64)
    starts = part_starts(free, state)
    w = free.shape[1]
    carve_weights(work, (starts // w + 1) * (w + 2) + starts % w + 1, state)
    path = work == PATH
    beside = np.zeros(work.shape, dtype=np.int32)
    beside[1:, :] += path[:-1, :]
    beside[:-1, :] += path[1:, :]
    beside[:, 1:] += path[:, :-1]
    beside[:, :-1] += path[:, 1:]
    counters = (work < PATH) & ~path
    np.testing.assert_array_equal(work[counters], beside[counters])
    assert np.all(work[framed(free) == FORBIDDEN] == FORBIDDEN)


def test_word_for_word_reading_lets_corridors_touch():
    """Why the kernel records every look: read literally, corridors run side by side."""
    touching = 0
    for seed in range(20):
        work = framed(np.ones((28, 28), dtype=bool))
        literal_seed_dfs(work, [15 * 30 + 15], SplitMix64(seed), literal=True)
        path = work == PATH
        pairs = np.count_nonzero(path[:, 1:] & path[:, :-1]) + np.count_nonzero(
            path[1:] & path[:-1]
        )
        touching += pairs != path.sum() - 1  # more adjacent pairs than a tree has edges
    assert touching == 20


def test_cells_geometry_is_the_seed_rule_on_the_lattice():
    """The cells maze is the block maze carved on the cell/slot lattice."""
    free = np.ones((7, 9), dtype=bool)
    free[3, 2:7] = False
    maze = generate(np.where(free, FREE, FORBIDDEN), rng=11)
    lattice = np.where(maze.raster(), PATH, FORBIDDEN)
    # Every slot between two maze cells is open exactly when the cells are joined,
    # and the open lattice blocks never touch side by side outside their passages.
    open_ = lattice == PATH
    adjacent = np.count_nonzero(open_[:, 1:] & open_[:, :-1]) + np.count_nonzero(
        open_[1:] & open_[:-1]
    )
    assert adjacent == open_.sum() - 1
    assert lattice_weights(free).shape == lattice.shape


def test_carve_weights_checks_its_frame():
    bad = np.zeros((4, 4), dtype=np.int32)
    with pytest.raises(ValueError, match="outer ring"):
        carve_weights(bad, np.array([5]), kernel_state(np.random.default_rng(0)))


@given(st.integers(1, 9), st.integers(1, 9), st.integers(0, 2**31))
def test_reading_the_carved_lattice_matches_the_raster_reader(h, w, seed):
    """The one-pass lattice reader gives the maze Maze.from_raster reads off the same
    lattice, for any pattern of open positions (not only carved ones)."""
    from mazeart.generators._common import lattice_passages
    from mazeart.weights import PATH

    raster = np.random.default_rng(seed).random((2 * h + 1, 2 * w + 1)) < 0.6
    raster[0] = raster[-1] = False
    raster[:, 0] = raster[:, -1] = False
    lattice = np.where(raster, PATH, 0).astype(np.int32)
    mask, passages = lattice_passages(lattice, PATH)
    expected = Maze.from_raster(raster)
    assert np.array_equal(mask, expected.mask)
    assert np.array_equal(passages, expected.passages)
