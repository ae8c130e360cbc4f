"""The finished maze's invariants for every generator and geometry, with tags, pruning and the
connectivity pass: what a user gets from ``mazeart make``, over random presets and seeds.

The pass either joins every part or refuses, naming the parts it cannot reach; it never
reports success with a part left over. Parts are counted with SciPy, independently of
mazeart's own flood fills.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import presets
from hypothesis import given
from hypothesis import strategies as st
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components
from test_generate_properties import CASES, assert_symmetric

from mazeart import MazeartError, generate
from mazeart.mazefile import dumps, loads
from mazeart.shape import ShapeReport
from mazeart.tags import TAG_KINDS, kind_name
from mazeart.weights import FREE, TAG


@st.composite
def tagged_presets(draw) -> np.ndarray:
    """Presets with up to four tagged free cells (spawn, loot, ...)."""
    weights = draw(presets(max_side=12)).copy()
    free = np.argwhere(weights == FREE)
    picks = draw(st.lists(st.integers(0, len(free) - 1), max_size=4, unique=True))
    for i in picks:
        weights[tuple(free[i])] = TAG + draw(st.integers(1, len(TAG_KINDS)))
    return weights


def pieces(maze) -> int:
    n = maze.height * maze.width
    links = maze.links()
    graph = coo_matrix((np.ones(len(links)), (links[:, 0], links[:, 1])), shape=(n, n))
    _, labels = connected_components(graph, directed=False)
    return len(np.unique(labels.reshape(maze.shape)[maze.mask]))


@pytest.mark.parametrize(("algorithm", "geometry"), CASES)
@given(weights=tagged_presets(), seed=st.integers(0, 2**32 - 1), prune=st.booleans())
def test_finished_maze_invariants(algorithm, geometry, weights, seed, prune):
    tagged = (weights > TAG) & (weights <= TAG + len(TAG_KINDS))
    allowed = (weights == FREE) | tagged
    report = ShapeReport()
    try:
        maze = generate(
            weights, algorithm=algorithm, geometry=geometry, rng=seed, prune=prune, report=report
        )
    except MazeartError as exc:
        # the only refusals: parts the blocks pass cannot reach, larger than what it keeps,
        # or more tags than the blocks maze has path cells
        assert geometry == "blocks", exc
        assert "cannot be reached" in str(exc) or "no path block left" in str(exc), exc
        return
    assert_symmetric(maze)
    assert np.all(maze.passages[~maze.mask] == 0)
    # carved: the preset's free cells, and the bridges across the ground between parts
    assert np.count_nonzero(maze.mask & ~allowed) <= report.bridge_cells
    if geometry == "cells" and not prune:
        assert np.all(maze.mask[allowed]), "a cells maze fills every free cell"
    # one part after the pass, and a tree: as many passages as cells less one
    assert pieces(maze) == 1
    assert maze.n_passages == maze.n_cells - 1
    # every tag of the preset is on a maze cell, none lost (blocks may move it to a path block)
    kinds = sorted(kind_name(int(v) - TAG) for v in weights[tagged])
    assert sorted(maze.tags.values()) == kinds
    assert all(maze.is_cell(cell) for cell in maze.tags)
    assert maze.is_cell(maze.entrance) and maze.is_cell(maze.exit)
    # what is saved is what loads
    assert loads(dumps(maze)) == maze
