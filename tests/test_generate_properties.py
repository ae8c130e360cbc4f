"""Properties every registered generator must have, over random presets and seeds.

Parametrised from the registry: a newly registered algorithm is covered here
without touching this file. Connectivity and part counts are checked with
SciPy (an implementation independent of mazeart's own flood fills).
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import presets
from hypothesis import given
from hypothesis import strategies as st
from scipy import ndimage
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from mazeart import ALGORITHMS, generate
from mazeart.maze import DIRECTIONS, OPPOSITE
from mazeart.weights import FREE

CASES = [(name, geo) for name, algo in ALGORITHMS.items() for geo in algo.geometries]


def maze_components(maze) -> tuple[int, np.ndarray]:
    """Connected pieces of the maze graph among maze cells, by scipy.sparse.csgraph."""
    n = maze.height * maze.width
    links = maze.links()
    graph = coo_matrix((np.ones(len(links)), (links[:, 0], links[:, 1])), shape=(n, n))
    _, labels = connected_components(graph, directed=False)
    labels = labels.reshape(maze.shape)
    return len(np.unique(labels[maze.mask])), labels


def assert_symmetric(maze) -> None:
    h, w = maze.shape
    p = maze.passages
    for bit, dr, dc in DIRECTIONS:
        rr, cc = np.nonzero(p & bit)
        nr, nc = rr + dr, cc + dc
        assert np.all((nr >= 0) & (nr < h) & (nc >= 0) & (nc < w)), "passage off the grid"
        assert np.all(p[nr, nc] & OPPOSITE[bit]), "one-sided passage"
        assert np.all(maze.mask[nr, nc]), "passage into a non-maze cell"


@pytest.mark.parametrize(("algorithm", "geometry"), CASES)
@given(weights=presets(), seed=st.integers(0, 2**32 - 1))
def test_generator_properties(algorithm, geometry, weights, seed):
    free = weights == FREE
    # The pipeline without its connectivity pass: what the generator carved, plus ends.
    maze = generate(weights, algorithm=algorithm, geometry=geometry, rng=seed, islands="separate")
    parts, n_parts = ndimage.label(free)

    # Nothing is carved on a cell the preset does not leave free.
    assert not np.any(maze.mask & ~free)
    assert_symmetric(maze)
    assert np.all(maze.passages[~maze.mask] == 0)

    # Every free part is carved, and each carved part is one tree.
    n_pieces, pieces = maze_components(maze)
    carved_parts = np.unique(parts[maze.mask])
    assert set(carved_parts.tolist()) == set(range(1, n_parts + 1)), "a free part was skipped"
    assert n_pieces == n_parts, "a free part's maze is not connected"
    assert maze.n_passages == maze.n_cells - n_parts, "a part's maze has a loop"
    for piece in np.unique(pieces[maze.mask]):
        assert len(np.unique(parts[maze.mask & (pieces == piece)])) == 1

    if geometry == "cells":
        # Cell mazes fill their free cells completely.
        assert np.array_equal(maze.mask, free)
    else:
        # Block mazes: two path blocks side by side are always joined, i.e. corridors
        # never run alongside each other.
        m = maze.mask
        side_by_side = np.count_nonzero(m[:, :-1] & m[:, 1:]) + np.count_nonzero(
            m[:-1, :] & m[1:, :]
        )
        assert side_by_side == maze.n_passages

    # Entrance and exit are maze cells in the largest piece.
    assert maze.is_cell(maze.entrance) and maze.is_cell(maze.exit)
    sizes = np.bincount(pieces[maze.mask])
    assert sizes[pieces[maze.entrance]] == sizes.max()
    assert pieces[maze.entrance] == pieces[maze.exit]

    # Same seed, same maze.
    again = generate(weights, algorithm=algorithm, geometry=geometry, rng=seed, islands="separate")
    assert again == maze


@pytest.mark.parametrize(("algorithm", "geometry"), CASES)
@given(weights=presets(), seed=st.integers(0, 2**32 - 1))
def test_connected_pipeline_is_one_perfect_maze(algorithm, geometry, weights, seed):
    free = weights == FREE
    alone = generate(weights, algorithm=algorithm, geometry=geometry, rng=seed, islands="separate")
    maze = generate(weights, algorithm=algorithm, geometry=geometry, rng=seed)
    assert_symmetric(maze)
    n_pieces, _ = maze_components(maze)
    _, n_parts = ndimage.label(free)
    # Everything the generator carved is still there; bridges only add cells off the preset.
    carved = alone.mask.copy()
    if geometry == "blocks":  # the doors cut through the border may move with the ends
        carved[alone.entrance] = carved[alone.exit] = False
    assert np.all(maze.mask[carved])
    bridges = maze.mask & ~alone.mask
    assert not np.any(bridges & free) or geometry == "blocks"
    if geometry == "cells":
        assert n_pieces == 1  # the ground always lets a bridge through
    assert n_pieces <= n_parts
    assert maze.n_passages == maze.n_cells - n_pieces  # still no loop
    assert maze.is_cell(maze.entrance) and maze.is_cell(maze.exit)


@pytest.mark.parametrize(("algorithm", "geometry"), CASES)
def test_different_seeds_give_different_mazes(algorithm, geometry):
    weights = np.zeros((12, 12), dtype=np.int32)
    mazes = [
        generate(weights, algorithm=algorithm, geometry=geometry, rng=s).passages.tobytes()
        for s in range(20)
    ]
    assert len(set(mazes)) == 20


@pytest.mark.parametrize(("algorithm", "geometry"), CASES)
def test_explicit_generator_is_the_only_randomness(algorithm, geometry):
    weights = np.zeros((9, 11), dtype=np.int32)
    algo = ALGORITHMS[algorithm]
    a = algo.func(weights, np.random.default_rng(5), geometry=geometry)
    np.random.seed(1)  # noqa: NPY002  the global numpy state must not matter
    b = algo.func(weights, np.random.default_rng(5), geometry=geometry)
    np.random.seed(2)  # noqa: NPY002
    c = algo.func(weights, np.random.default_rng(6), geometry=geometry)
    assert a == b
    assert a != c


def test_generate_rejects_bad_requests():
    free = np.zeros((4, 4), dtype=np.int32)
    with pytest.raises(ValueError, match="no free cell"):
        generate(np.full((3, 3), 1000, dtype=np.int32), rng=1)
    with pytest.raises(ValueError, match=r"unknown algorithm 'nope'.*weighted-dfs"):
        generate(free, algorithm="nope")
    with pytest.raises(ValueError, match="geometry"):
        generate(free, geometry="hexagons")
    with pytest.raises(ValueError, match="has no option"):
        generate(free, speed=3)
    with pytest.raises(ValueError, match="not a maze cell"):
        generate(free, rng=1, entrance=(9, 9))
    with pytest.raises(ValueError, match="seed"):
        generate(free, rng=-1)
    with pytest.raises(TypeError, match=r"rng must be an int seed or a numpy\.random\.Generator"):
        ALGORITHMS["weighted-dfs"].func(free, 4.2)
    with pytest.raises(TypeError, match="rng"):
        generate(free, rng="7")
    # an int seed and a Generator seeded with it are the same stream
    seeded = ALGORITHMS["weighted-dfs"].func(free, 42)
    assert seeded == ALGORITHMS["weighted-dfs"].func(free, np.random.default_rng(42))
    with pytest.raises(ValueError, match="two-dimensional"):
        generate(np.zeros(5, dtype=np.int32))
