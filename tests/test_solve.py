"""Solvers against independent shortest paths (networkx, SciPy) and their own promises."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest
from conftest import presets
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import shortest_path

from mazeart import ALGORITHMS, Maze, braid, distances, generate
from mazeart.maze import passages_from_links
from mazeart.solvers import SOLVERS, dead_end_filling, random_paths, solve, wall_follower

CASES = [(name, geo) for name, algo in ALGORITHMS.items() for geo in algo.geometries]


def maze_graph(maze: Maze) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(map(tuple, np.argwhere(maze.mask)))
    w = maze.width
    for a, b in maze.links():
        g.add_edge(divmod(int(a), w), divmod(int(b), w))
    return g


def assert_walkable(maze: Maze, path: np.ndarray, *, simple: bool = True) -> None:
    """Consecutive cells are joined by a passage; ends are the maze's; no cell twice."""
    assert tuple(path[0]) == maze.entrance and tuple(path[-1]) == maze.exit
    for (r0, c0), (r1, c1) in itertools.pairwise(path):
        assert (int(r1), int(c1)) in maze.neighbours((int(r0), int(c0)))
    if simple:
        assert len({tuple(p) for p in path}) == len(path)


@pytest.mark.parametrize(("algorithm", "geometry"), CASES)
@given(weights=presets(max_side=12), seed=st.integers(0, 2**32 - 1), loops=st.booleans())
def test_shortest_paths_match_networkx_and_scipy(algorithm, geometry, weights, seed, loops):
    maze = generate(weights, algorithm=algorithm, geometry=geometry, rng=seed)
    if loops:
        maze = braid(maze, 0.6, np.random.default_rng(seed))
    g = maze_graph(maze)
    expected = nx.shortest_path_length(g, maze.entrance, maze.exit)
    n = maze.height * maze.width
    links = maze.links()
    csg = coo_matrix((np.ones(len(links)), (links[:, 0], links[:, 1])), shape=(n, n))
    src = maze.entrance[0] * maze.width + maze.entrance[1]
    dst = maze.exit[0] * maze.width + maze.exit[1]
    assert shortest_path(csg, directed=False, indices=src)[dst] == expected
    for method in ("bfs", "astar", "dead-end-filling"):
        path = solve(maze, method=method)
        assert len(path) - 1 == expected, method
        assert_walkable(maze, path)
    if not loops:
        # A perfect maze: the one path, found by every method, and all that filling leaves.
        path = solve(maze)
        assert np.array_equal(solve(maze, method="wall-follower"), path)
        assert np.array_equal(solve(maze, method="wall-follower", hand="right"), path)
        left = dead_end_filling(maze)
        on_path = np.zeros(maze.shape, dtype=bool)
        on_path[path[:, 0], path[:, 1]] = True
        assert np.array_equal(left, on_path)


@given(seed=st.integers(0, 2**32 - 1))
def test_random_paths_are_valid_and_distinct(seed):
    maze = generate(np.zeros((12, 16), np.int32), algorithm="kruskal", rng=seed, braid=0.7)
    paths = random_paths(maze, 6, np.random.default_rng(seed))
    assert 1 <= len(paths) <= 6
    assert len({p.tobytes() for p in paths}) == len(paths)
    for p in paths:
        assert_walkable(maze, p)  # simple, joined by passages, entrance to exit


# Two rings in a row: exactly four simple paths from S to E (networkx counts them too).
TWO_RINGS = """
#########
#S     E#
# # # # #
#   #   #
#########
"""


def test_random_paths_find_every_path_when_there_are_few():
    maze = Maze.from_text(TWO_RINGS)
    every = {tuple(map(tuple, p)) for p in nx.all_simple_paths(maze_graph(maze), maze.entrance,
                                                                 maze.exit)}  # fmt: skip
    assert len(every) == 4
    paths = random_paths(maze, 10, np.random.default_rng(1))
    assert {tuple(map(tuple, p.tolist())) for p in paths} == every


def test_random_paths_on_a_perfect_maze_find_the_one_path():
    maze = generate(np.zeros((15, 15), np.int32), rng=2, algorithm="wilson")
    paths = random_paths(maze, 5, np.random.default_rng(0))
    assert len(paths) == 1
    assert np.array_equal(paths[0], solve(maze))


# A loop around an island: the exit sits on the island's wall, which the entrance's
# wall never touches, so a wall follower circles the outer wall for ever.
ISLAND = """
#########
#S      #
# ##### #
# #E  # #
# ### # #
#       #
#########
"""


def test_wall_follower_reports_failure_honestly():
    maze = Maze.from_text(ISLAND)
    assert maze.n_passages - maze.n_cells + 1 == 1  # one loop
    assert len(solve(maze)) - 1 == nx.shortest_path_length(
        maze_graph(maze), maze.entrance, maze.exit
    )
    for hand in ("left", "right"):
        with pytest.raises(ValueError, match="went round without reaching"):
            wall_follower(maze, hand=hand)
    # the other solvers are not fooled
    for method in ("bfs", "astar", "dead-end-filling"):
        assert_walkable(maze, solve(maze, method=method))


def test_wall_follower_walk_and_hands_differ():
    maze = generate(np.zeros((10, 10), np.int32), rng=5, algorithm="prim")
    _, left = wall_follower(maze, hand="left")
    _, right = wall_follower(maze, hand="right")
    assert len(left) != len(right) or not np.array_equal(left, right)
    for walk in (left, right):  # every step is through a passage
        for (r0, c0), (r1, c1) in itertools.pairwise(walk):
            assert (int(r1), int(c1)) in maze.neighbours((int(r0), int(c0)))


def test_bad_solver_inputs():
    maze = generate(np.zeros((4, 4), np.int32), rng=1)
    with pytest.raises(ValueError, match="unknown solver"):
        solve(maze, method="magic")
    with pytest.raises(ValueError, match="hand"):
        wall_follower(maze, hand="middle")
    with pytest.raises(ValueError, match=">= 1, got 0"):
        random_paths(maze, 0, np.random.default_rng(0))
    with pytest.raises(TypeError, match="integer"):
        random_paths(maze, 2.0, 0)
    assert len(random_paths(maze, np.int64(2), 0)) == 1  # numpy integers are integers
    assert set(SOLVERS) == {"bfs", "astar", "dead-end-filling", "wall-follower"}
    apart = Maze.from_text("#####\n#S#E#\n#####")
    for method in SOLVERS:
        with pytest.raises(ValueError):
            solve(apart, method=method)


@given(presets(), st.integers(0, 2**31), st.integers(1, 6))
def test_one_pass_from_many_sources_is_the_nearest_single_source(weights, seed, k):
    """The one-pass distances from a set of cells (tags' rules use it) equal the minimum
    of one breadth-first search per cell."""
    from mazeart.solvers import distances_from

    maze = generate(weights, rng=seed, braid=0.3)
    cells = np.argwhere(maze.mask)
    rng = np.random.default_rng(seed)
    sources = cells[rng.choice(len(cells), size=min(k, len(cells)), replace=False)]
    got = distances_from(maze, [tuple(int(x) for x in s) for s in sources])
    each = np.stack([distances(maze, tuple(s)) for s in sources])
    want = np.where((each >= 0).any(0), np.where(each >= 0, each, 10**9).min(0), -1)
    assert np.array_equal(got, want)


def lowest_farthest_pair(
    g: nx.Graph, w: int, firsts: np.ndarray, seconds: np.ndarray, piece: set
) -> tuple[int, int]:
    """By networkx: of the pairs of a first and another second in ``piece`` at the greatest
    distance, the lowest (first, then second), as flat cells; ``(-1, -1)`` when none."""
    near = {c: nx.single_source_shortest_path_length(g, divmod(int(c), w)) for c in firsts}
    pairs = [
        (near[x][divmod(int(y), w)], int(x), int(y))
        for x in firsts
        for y in seconds
        if x != y and divmod(int(x), w) in piece and divmod(int(y), w) in piece
    ]
    if not pairs:
        return -1, -1
    far = max(p[0] for p in pairs)
    return min(p for p in pairs if p[0] == far)[1:]


@given(
    presets(max_side=12),
    st.integers(0, 2**31),
    st.sampled_from(sorted(ALGORITHMS)),
    st.integers(1, 5),
    st.integers(1, 5),
    st.booleans(),
    st.booleans(),
)
def test_farthest_pair_is_the_exact_farthest_pair_on_a_tree(
    weights, seed, algorithm, n_first, n_second, loops, apart
):
    """The one-walk farthest pair (the ends' fast path) against networkx: on a tree the
    pair is a first and a second at the greatest distance of any such pair; on a maze
    with a loop, or with a part the walk cannot reach, it says so instead of answering."""
    from mazeart.solvers import _farthest_pair

    algo = ALGORITHMS[algorithm]
    islands = "separate" if apart else "connect"
    maze = generate(
        weights, algorithm=algorithm, geometry=algo.geometries[0], rng=seed, islands=islands
    )
    if loops:
        maze = braid(maze, 0.5, seed)
    rng = np.random.default_rng(seed)
    cells = np.flatnonzero(maze.mask)
    firsts = np.sort(rng.choice(cells, size=min(n_first, cells.size), replace=False))
    seconds = np.sort(rng.choice(cells, size=min(n_second, cells.size), replace=False))
    source = int(rng.choice(cells))
    w = maze.width
    a, b, reached, tree = _farthest_pair(maze.passages.reshape(-1), w, source, firsts, seconds)
    g = maze_graph(maze)
    piece = nx.node_connected_component(g, divmod(source, w))
    linked = {cell for cell in g if g.degree(cell) > 0}  # the cells the walk must reach
    one_tree = linked <= piece and g.subgraph(piece).number_of_edges() == len(piece) - 1
    assert tree == one_tree
    if not one_tree:
        return
    assert reached == len(piece)
    assert (a, b) == lowest_farthest_pair(g, w, firsts, seconds, piece)
    # the answer is the tree's, not the walk's: from anywhere else, the same pair
    other = int(rng.choice(sorted(piece)) @ (w, 1))
    assert _farthest_pair(maze.passages.reshape(-1), w, other, firsts, seconds)[:2] == (a, b)


@given(
    st.integers(8, 16),
    st.integers(8, 16),
    st.integers(0, 2**31),
    st.booleans(),
    st.integers(1, 4),
    st.integers(1, 4),
)
def test_farthest_pair_both_ways_of_stepping(h, w, seed, serpentine, n_first, n_second):
    """The walk's two ways of stepping give networkx's pair: a Prim's maze (over a fifth of
    its cells are dead ends) is walked looking past the dead ends beside each step, a
    serpentine (two dead ends) is not. Half the firsts and seconds are dead ends, which the
    walk must enter rather than count past."""
    from mazeart.solvers import _farthest_pair

    if serpentine:  # along every row, down at its east end on even rows, west end on odd
        east = np.zeros((h, w), bool)
        east[:, :-1] = True
        south = np.zeros((h, w), bool)
        south[np.arange(h - 1), np.where(np.arange(h - 1) % 2 == 0, w - 1, 0)] = True
        maze = Maze(np.ones((h, w), bool), passages_from_links(east, south))
    else:
        maze = generate(np.zeros((h, w), np.int32), algorithm="prim", rng=seed)
    flat = np.ascontiguousarray(maze.passages).reshape(-1)
    dead = np.flatnonzero(np.isin(flat, (1, 2, 4, 8)))
    assert (dead.size * 5 >= flat.size) == (not serpentine)  # which way the walk steps
    g = maze_graph(maze)
    assert nx.is_tree(g)
    rng = np.random.default_rng(seed)

    def draw(k: int) -> np.ndarray:
        some = rng.choice(dead, size=min(k, dead.size), replace=False)
        return np.unique(np.concatenate([some, rng.choice(flat.size, size=k, replace=False)]))

    firsts, seconds = draw(n_first), draw(n_second)
    source = int(rng.integers(flat.size))
    a, b, reached, tree = _farthest_pair(flat, w, source, firsts, seconds)
    assert tree and reached == h * w
    assert (a, b) == lowest_farthest_pair(g, w, firsts, seconds, set(g))


@given(
    st.integers(2, 14),
    st.integers(1, 14),
    st.integers(0, 2**31),
    st.sampled_from(sorted(ALGORITHMS)),
    st.booleans(),
)
def test_row_sweep_finds_the_walks_pair_and_knows_a_row_tree(h, w, seed, algorithm, loops):
    """The one-sweep ends of a full rectangle (binary tree, sidewinder) give the walk's pair,
    top row to bottom row, and answer only for a row tree: every other maze is left to the
    walk."""
    from mazeart.solvers import _farthest_pair, _row_tree_pair

    algo = ALGORITHMS[algorithm]
    maze = generate(np.zeros((h, w), np.int32), algorithm=algorithm, rng=seed)
    if algo.geometries[0] != "cells":
        return
    if loops:
        maze = braid(maze, 1.0, seed)
    flat = np.ascontiguousarray(maze.passages).reshape(-1)
    tops, bottoms = np.arange(w), np.arange((h - 1) * w, h * w)
    swept = _row_tree_pair(flat, h, w)
    g = maze_graph(maze)

    def runs(r: int) -> list[set[tuple[int, int]]]:  # the cells of row r joined east-west
        return list(nx.connected_components(g.subgraph((r, c) for c in range(w))))

    row_tree = (
        nx.is_tree(g)
        and len(runs(0)) == 1
        and all(
            sum(bool(maze.passages[cell] & 1) for cell in run) == 1  # opens north once
            for r in range(1, h)
            for run in runs(r)
        )
    )
    assert (swept[0] >= 0) == row_tree
    if algorithm in ("binary-tree", "sidewinder") and not loops:
        assert row_tree  # what they carve on a full rectangle
    if row_tree:
        walked = _farthest_pair(flat, w, 0, tops, bottoms)[:2]
        assert swept == walked


# ------------------------------------------------------------------ one solver for every grid

GRID_KINDS = ("square", "hex", "triangle", "polar", "upsilon", "weave")


def any_maze(kind: str, seed: int, braided: bool):
    """A maze of ``kind`` through the public API (a square one is a ``Maze``)."""
    import mazeart

    if kind == "weave":
        return mazeart.make("10x8", weave=True, rng=seed).maze
    options = {"braid": 0.6} if braided else {}
    return mazeart.make("10x8", grid=kind, rng=seed, **options).maze


def any_graph(maze) -> nx.Graph:
    """The maze's cells (flat ids) joined by its passages."""
    g = nx.Graph()
    if maze.is_square:
        w = maze.width
        g.add_nodes_from(int(r) * w + int(c) for r, c in np.argwhere(maze.mask))
        g.add_edges_from(map(tuple, maze.links().tolist()))
    else:
        g.add_nodes_from(np.flatnonzero(maze.mask).tolist())
        g.add_edges_from(map(tuple, maze.links().tolist()))
    return g


def flat_path(maze, path: np.ndarray) -> list[int]:
    if maze.is_square:
        return (path[:, 0] * maze.width + path[:, 1]).tolist()
    return path.tolist()


@pytest.mark.parametrize(
    ("kind", "braided"),
    [(k, b) for k in GRID_KINDS for b in (False, True) if k != "weave" or not b],
)
@pytest.mark.parametrize("seed", range(3))
def test_one_solver_answers_alike_on_every_grid(kind, braided, seed):
    """The one implementation against networkx on every grid: the three shortest-path
    methods find a shortest path through the passages, distances are networkx's, and
    dead-end filling leaves exactly what removing non-end cells of one passage or none,
    until there are none, leaves (its answer does not depend on the order, so a plain
    loop is the reference). (A weave maze is never braided.)"""
    maze = any_maze(kind, seed, braided)
    g = any_graph(maze)
    flat = (lambda c: c[0] * maze.width + c[1]) if maze.is_square else int
    a, b = flat(maze.entrance), flat(maze.exit)
    steps = nx.shortest_path_length(g, a, b)
    for method in ("bfs", "astar", "dead-end-filling"):
        cells = flat_path(maze, solve(maze, method=method))
        assert cells[0] == a and cells[-1] == b and len(cells) == steps + 1, method
        assert nx.is_simple_path(g, cells), method
    got = np.asarray(distances(maze, maze.entrance)).reshape(-1)
    want = nx.single_source_shortest_path_length(g, a)
    assert {c: int(got[c]) for c in want} == want
    assert int((got >= 0).sum()) == len(want)
    left = set(g)
    while True:
        dead = [c for c in left if c not in (a, b) and sum(n in left for n in g[c]) <= 1]
        if not dead:
            break
        left -= set(dead)
    kept = np.asarray(dead_end_filling(maze)).reshape(-1)
    assert set(np.flatnonzero(kept).tolist()) == left
    if not braided:  # a tree: the filling leaves the one path
        assert left == set(cells)


@given(
    kind=st.sampled_from(["hex", "triangle", "upsilon"]),
    rows=st.integers(1, 7),
    cols=st.integers(1, 7),
    seed=st.integers(0, 2**16),
    loops=st.booleans(),
)
def test_a_lattice_mazes_ways_are_its_passages(kind, rows, cols, seed, loops):
    """The solvers' bits on a lattice (a code a cell, steps and ways back by code) against
    networkx's graph of the maze's own walls: each cell's open sides lead to exactly its
    neighbours along passages, each way back returns, and distances are networkx's, on
    grids as small as one row or column, with forbidden cells and loops."""
    from mazeart import MazeartError
    from mazeart.grids import make_grid
    from mazeart.grids.generate import generate_on_grid

    try:
        grid = make_grid(kind, rows=rows, cols=cols)
    except MazeartError:  # (a triangle column needs two triangles a row to join rows)
        assume(False)
    rng = np.random.default_rng(seed)
    weights = np.where(rng.random(grid.n_cells) < 0.2, 1000, 0).astype(np.int32)
    weights[rng.integers(grid.n_cells)] = 0
    maze = generate_on_grid(weights, grid, rng=seed)
    if loops:
        maze = braid(maze, 0.7, rng=seed)
    g = any_graph(maze)
    codes, step, back, count = maze.ways

    def sides(c: int) -> list[tuple[int, int]]:  # (cell, way back) of each open side
        code = int(codes[c])
        return [(c + int(step[code, j]), int(back[code, j])) for j in range(int(count[code]))]

    for c in range(grid.n_cells):
        assert sorted(b for b, _ in sides(c)) == sorted(g[c] if c in g else []), c
        for b, bit in sides(c):
            code = int(codes[b])
            assert code & bit and bit & (bit - 1) == 0  # one open side of b's...
            below = bin(code & (bit - 1)).count("1")  # ...its place among them...
            assert sides(b)[below][0] == c  # ...leads back to c
    start = int(rng.choice(list(g))) if len(g) else None
    if start is not None:
        got = np.asarray(distances(maze, start)).reshape(-1)
        want = nx.single_source_shortest_path_length(g, start)
        assert {c: int(got[c]) for c in want} == want
        assert int((got >= 0).sum()) == len(want)


@pytest.mark.parametrize("kind", GRID_KINDS)
def test_random_paths_are_simple_paths_on_every_grid(kind):
    maze = any_maze(kind, 4, kind != "weave")
    g = any_graph(maze)
    found = random_paths(maze, 4, rng=2)
    assert 1 <= len(found) <= 4 and len({p.tobytes() for p in found}) == len(found)
    for p in found:
        cells = flat_path(maze, p)
        assert nx.is_simple_path(g, cells)
        assert cells[-1] == (flat_path(maze, np.asarray([maze.exit]))[0])


@pytest.mark.parametrize("kind", GRID_KINDS)
def test_solver_errors_name_the_cell_the_grids_way(kind):
    """Errors name cells as the maze's grid does: ``(row, col)`` on squares, ids elsewhere."""
    maze = any_maze(kind, 0, False)
    if maze.is_square:
        with pytest.raises(ValueError, match=r"\(99, 99\) is not a maze cell"):
            solve(maze, start=(99, 99))
        with pytest.raises(TypeError, match="source must be a"):
            distances(maze, 3)
    else:
        with pytest.raises(ValueError, match="start 999999 is not a maze cell"):
            solve(maze, start=999999)
        with pytest.raises(ValueError, match=r"source .* is not a maze cell"):
            distances(maze, (0, 0))
    with pytest.raises(ValueError, match="unknown solver"):
        solve(maze, method="magic")
    with pytest.raises(TypeError, match="maze must be a Maze"):
        solve("not a maze")
