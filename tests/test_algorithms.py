"""Each algorithm's own signature, beyond the properties every generator shares.

Uniformity is tested over all 192 spanning trees of the 3 x 3 grid with a
chi-square test (SciPy), and the same test is shown to reject a biased
generator, so it has the power to fail.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from conftest import presets
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from mazeart import ALGORITHMS, generate
from mazeart.maze import E, N, S, W
from mazeart.weights import FREE

BLOCK_ALGORITHMS = [name for name, a in ALGORITHMS.items() if "blocks" in a.geometries]


def tree_counts(name: str, samples: int, seed: int) -> Counter:
    weights = np.zeros((3, 3), dtype=np.int32)
    rng = np.random.default_rng(seed)
    func = ALGORITHMS[name].func
    return Counter(func(weights, rng).passages.tobytes() for _ in range(samples))


def chi_square_p(counts: Counter, categories: int = 192) -> float:
    observed = np.array(list(counts.values()) + [0] * (categories - len(counts)))
    return float(stats.chisquare(observed).pvalue)


@pytest.mark.parametrize("name", [n for n, a in ALGORITHMS.items() if a.uniform])
def test_uniform_generators_hit_all_192_trees_evenly(name):
    counts = tree_counts(name, 192 * 60, seed=2024)
    assert len(counts) == 192  # the 3 x 3 grid has 192 spanning trees
    assert chi_square_p(counts) > 0.001


def test_the_uniformity_test_rejects_a_biased_generator():
    counts = tree_counts("backtracker", 192 * 60, seed=2024)
    assert chi_square_p(counts) < 1e-12


def test_kruskal_takes_the_walls_in_a_uniformly_random_order():
    """Kruskal's mazes on a 2 x 3 grid against the exact law of Kruskal's algorithm over
    all 7! wall orders: a wall order that is not uniform (a bucket or a shuffle gone
    wrong) shifts it."""
    from itertools import permutations

    h, w = 2, 3
    walls = [((r, c), (r, c + 1)) for r in range(h) for c in range(w - 1)]
    walls += [((r, c), (r + 1, c)) for r in range(h - 1) for c in range(w)]

    def kruskal_tree(order: tuple[int, ...]) -> frozenset[int]:
        parent = {(r, c): (r, c) for r in range(h) for c in range(w)}

        def root(x: tuple[int, int]) -> tuple[int, int]:
            while parent[x] != x:
                x = parent[x]
            return x

        kept = set()
        for i in order:
            a, b = root(walls[i][0]), root(walls[i][1])
            if a != b:
                parent[a] = b
                kept.add(i)
        return frozenset(kept)

    law = Counter(kruskal_tree(order) for order in permutations(range(len(walls))))
    trees = sorted(law, key=sorted)
    samples = 6000
    expected = np.array([law[t] for t in trees], float) / sum(law.values()) * samples

    def p_value(name: str) -> float:  # how well ``name``'s mazes fit Kruskal's law
        rng = np.random.default_rng(7)
        seen: Counter = Counter()
        for _ in range(samples):
            p = ALGORITHMS[name].func(np.zeros((h, w), np.int32), rng).passages
            seen[frozenset(i for i, ((r, c), (r2, c2)) in enumerate(walls)
                           if p[r, c] & (E if c2 > c else S))] += 1  # fmt: skip
        assert set(seen) <= set(law)
        observed = np.array([seen[t] for t in trees])
        return float(stats.chisquare(observed, expected).pvalue)

    assert p_value("kruskal") > 0.001
    assert p_value("backtracker") < 1e-6  # the test can tell another law


@pytest.mark.parametrize("name", BLOCK_ALGORITHMS)
@given(weights=presets(max_side=16), seed=st.integers(0, 2**32 - 1))
def test_block_rules_no_open_square_no_loop(name, weights, seed):
    maze = generate(weights, algorithm=name, geometry="blocks", rng=seed)
    p = maze.mask
    assert not np.any(p[:-1, :-1] & p[1:, :-1] & p[:-1, 1:] & p[1:, 1:]), "2 x 2 open square"
    n = p.size
    links = maze.links()
    graph = coo_matrix((np.ones(len(links)), (links[:, 0], links[:, 1])), shape=(n, n))
    pieces = connected_components(graph, directed=False)[1].reshape(p.shape)
    n_pieces = len(np.unique(pieces[p]))
    assert maze.n_passages == maze.n_cells - n_pieces, "a loop"


def test_backtracker_is_the_weighted_dfs_walk():
    """Two implementations of one walk: a visited flag, and the weighted DFS's lattice rule."""
    for seed in range(20):
        weights = np.where(np.random.default_rng(seed).random((17, 23)) < 0.8, FREE, 1000)
        a = ALGORITHMS["backtracker"].func(weights, np.random.default_rng(seed))
        b = ALGORITHMS["weighted-dfs"].func(weights, np.random.default_rng(seed), geometry="cells")
        assert np.array_equal(a.passages, b.passages)


def test_growing_tree_newest_is_the_backtracker():
    weights = np.zeros((15, 19), dtype=np.int32)
    for seed in range(10):
        a = ALGORITHMS["backtracker"].func(weights, np.random.default_rng(seed))
        b = ALGORITHMS["growing-tree"].func(weights, np.random.default_rng(seed), select="newest")
        assert np.array_equal(a.passages, b.passages)


def dead_end_share(name: str, **options) -> float:
    maze = generate(np.zeros((60, 60), dtype=np.int32), algorithm=name, rng=5, **options)
    degree = sum(((maze.passages & bit) != 0).astype(int) for bit in (N, E, S, W))
    return float(np.mean(degree[maze.mask] == 1))


def test_textures_differ_as_the_literature_says():
    # Depth-first walks leave few dead ends; Prim's and random growth leave many.
    dfs = dead_end_share("backtracker")
    assert dfs < 0.15
    assert dead_end_share("growing-tree", select="newest") == pytest.approx(dfs)
    assert dead_end_share("hunt-and-kill") < 0.15
    assert dead_end_share("prim") > 0.33
    random_growth = dead_end_share("growing-tree", select="random")
    assert random_growth > 0.22
    assert dfs < dead_end_share("growing-tree", select="mix", bias=0.9) < random_growth
    assert dead_end_share("growing-tree", select="oldest") < 0.06  # long spokes from the start
    for name in ("kruskal", "wilson", "aldous-broder", "eller", "sidewinder", "division"):
        assert 0.22 < dead_end_share(name) < 0.34, name


def test_binary_tree_signature():
    maze = generate(np.zeros((12, 16), dtype=np.int32), algorithm="binary-tree", rng=3)
    p = maze.passages
    assert np.all(p[0, 1:] & W) and np.all(p[1:, 0] & N)  # straight top row and left column
    opens_nw = (p & (N | W)) != 0
    assert opens_nw.sum() == maze.n_cells - 1 and not opens_nw[0, 0]


def test_sidewinder_signature():
    maze = generate(np.zeros((12, 16), dtype=np.int32), algorithm="sidewinder", rng=3)
    p = maze.passages
    assert np.all(p[0, :-1] & E)  # the top row is one corridor
    for r in range(1, 12):
        runs = np.split(np.arange(16), np.flatnonzero(~(p[r, :-1] & E).astype(bool)) + 1)
        for run in runs:
            assert np.count_nonzero(p[r, run] & N) == 1  # each run opens north once


def test_division_leaves_long_walls():
    maze = generate(np.zeros((32, 32), dtype=np.int32), algorithm="division", rng=8)
    hor, ver = maze.walls(doors=False)
    # The first cut spans the grid but for one door: some interior line is nearly all wall.
    full = max(hor[1:-1].sum(axis=1).max(), ver[:, 1:-1].sum(axis=0).max())
    assert full >= 31


def test_eller_streams_a_very_tall_maze():
    weights = np.zeros((100_000, 10), dtype=np.int32)
    maze = generate(weights, algorithm="eller", rng=1)
    assert maze.n_passages == maze.n_cells - 1
    n = maze.mask.size
    links = maze.links()
    graph = coo_matrix((np.ones(len(links)), (links[:, 0], links[:, 1])), shape=(n, n))
    assert connected_components(graph, directed=False)[0] == 1


def test_growing_tree_options_are_checked():
    weights = np.zeros((5, 5), dtype=np.int32)
    with pytest.raises(ValueError, match="select must be one of"):
        generate(weights, algorithm="growing-tree", select="middle")
    with pytest.raises(ValueError, match=r"bias must be a finite number in \[0, 1\]"):
        generate(weights, algorithm="growing-tree", bias=2.0)
    maze = generate(weights, algorithm="growing-tree", rng=1, select="oldest")
    assert maze.meta["options"] == {"select": "oldest", "bias": 0.5}
