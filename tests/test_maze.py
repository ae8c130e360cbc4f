"""The Maze model: validation, raster and text views, walls, boundary, endpoints, solving.

Shortest paths and the farthest boundary pair are checked with networkx.
"""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest
from conftest import presets
from hypothesis import given
from hypothesis import strategies as st

from mazeart import Maze, distances, generate, solve
from mazeart.export.text import to_ascii
from mazeart.maze import E, N, S, W, passages_from_links

SMALL = """
#########
#S  #   #
### # # #
#   # # #
# ##### #
#      E#
#########
"""


def to_graph(maze: Maze) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(zip(*np.nonzero(maze.mask), strict=True))
    for a, b in maze.links():
        g.add_edge(divmod(int(a), maze.width), divmod(int(b), maze.width))
    return g


def test_from_text_reads_cells_passages_and_ends():
    maze = Maze.from_text(SMALL)
    assert maze.shape == (3, 4)
    assert maze.entrance == (0, 0) and maze.exit == (2, 3)
    assert maze.n_cells == 12 and maze.n_passages == 11
    assert maze.neighbours((0, 0)) == [(0, 1)]
    assert maze.is_open((0, 1), S) and not maze.is_open((0, 1), E)
    assert to_ascii(maze, doors=False).strip() == SMALL.strip()


@given(presets(), st.integers(0, 2**31), st.sampled_from(["cells", "blocks"]))
def test_raster_and_text_roundtrip(weights, seed, geometry):
    maze = generate(weights, rng=seed, geometry=geometry)
    back = Maze.from_raster(maze.raster(), entrance=maze.entrance, exit=maze.exit)
    assert np.array_equal(back.mask, maze.mask)
    assert np.array_equal(back.passages, maze.passages)
    if geometry == "cells":  # the drawing of a cells maze is its raster
        text = Maze.from_text(to_ascii(maze, ground="#", doors=False))
        assert np.array_equal(text.passages, maze.passages)
        assert (text.entrance, text.exit) == (maze.entrance, maze.exit)


def test_validation_rejects_broken_layouts():
    mask = np.ones((2, 2), bool)
    with pytest.raises(ValueError, match="not symmetric"):
        Maze(mask, np.array([[E, 0], [0, 0]], np.uint8))
    with pytest.raises(ValueError, match="off the grid"):
        Maze(mask, np.array([[N, 0], [0, 0]], np.uint8))
    with pytest.raises(ValueError, match="outside the mask"):
        Maze(np.array([[True, False]]), np.array([[E, W]], np.uint8))
    with pytest.raises(ValueError, match="shape"):
        Maze(mask, np.zeros((3, 2), np.uint8))
    with pytest.raises(ValueError, match="not a maze cell"):
        Maze(mask, np.zeros((2, 2), np.uint8), entrance=(5, 0))
    with pytest.raises(ValueError, match="geometry"):
        Maze(mask, np.zeros((2, 2), np.uint8), geometry="hex")
    with pytest.raises(ValueError, match="inside the region"):
        Maze(mask, np.zeros((2, 2), np.uint8), region=np.zeros((2, 2), bool))
    maze = Maze(mask, passages_from_links([[1, 0], [0, 0]], [[0, 0], [0, 0]]))
    assert maze.passages.tolist() == [[E, W], [0, 0]]
    with pytest.raises(ValueError):
        maze.passages[0, 0] = 0  # read-only: a Maze does not change under its users


def reference_walls(maze: Maze):
    """Unit walls by a plain loop over cells and sides."""
    h, w = maze.shape
    hor = np.zeros((h + 1, w), bool)
    ver = np.zeros((h, w + 1), bool)
    for r in range(h):
        for c in range(w):
            if not maze.mask[r, c]:
                continue
            if not maze.passages[r, c] & N:
                hor[r, c] = True
            if not maze.passages[r, c] & S:
                hor[r + 1, c] = True
            if not maze.passages[r, c] & W:
                ver[r, c] = True
            if not maze.passages[r, c] & E:
                ver[r, c + 1] = True
    return hor, ver


@given(presets(), st.integers(0, 2**31))
def test_walls_match_a_cell_by_cell_count(weights, seed):
    maze = generate(weights, rng=seed)
    hor, ver = maze.walls(doors=False)
    ref_h, ref_v = reference_walls(maze)
    assert np.array_equal(hor, ref_h) and np.array_equal(ver, ref_v)
    # Doors remove exactly one outer wall at each end that faces the outside.
    dh, dv = maze.walls(doors=True)
    removed = int(hor.sum() + ver.sum() - dh.sum() - dv.sum())
    expected = int(bool(maze.entrance_side)) + int(bool(maze.exit_side))
    if maze.entrance == maze.exit and maze.entrance_side == maze.exit_side:
        expected = min(expected, 1)
    assert removed == expected


@given(presets(), st.integers(0, 2**31), st.sampled_from(["cells", "blocks"]))
def test_shortest_path_matches_networkx(weights, seed, geometry):
    maze = generate(weights, rng=seed, geometry=geometry)
    g = to_graph(maze)
    path = solve(maze)
    assert tuple(path[0]) == maze.entrance and tuple(path[-1]) == maze.exit
    assert len(path) - 1 == nx.shortest_path_length(g, maze.entrance, maze.exit)
    for a, b in itertools.pairwise(map(tuple, path)):
        assert g.has_edge(a, b)
    d = distances(maze, maze.entrance)
    lengths = nx.single_source_shortest_path_length(g, maze.entrance)
    for cell, length in lengths.items():
        assert d[cell] == length
    assert np.count_nonzero(d >= 0) == len(lengths)


def facing(maze: Maze, cell: tuple[int, int], dr: int, dc: int) -> bool:
    r, c = cell[0] + dr, cell[1] + dc
    return not (0 <= r < maze.height and 0 <= c < maze.width) or bool(maze.outside[r, c])


def end_candidates(maze: Maze, g: nx.Graph, piece: set) -> dict[tuple[int, int], tuple]:
    """Every cell the ends may use, mapped to (the maze cell it hangs on, extra steps): cells of
    the piece with a side on the outside and, on a blocks maze, the wall blocks of the region's
    border beside exactly one path block (cut through for a door)."""
    sides = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    out = {}
    for cell in itertools.product(range(maze.height), range(maze.width)):
        if not any(facing(maze, cell, dr, dc) for dr, dc in sides):
            continue
        if cell in piece:
            out[cell] = (cell, 0)
        elif maze.geometry == "blocks" and maze.region[cell] and not maze.mask[cell]:
            near = [(cell[0] + dr, cell[1] + dc) for dr, dc in sides]
            near = [n for n in near if n in g]
            if len(near) == 1 and near[0] in piece:
                out[cell] = (near[0], 1)
    return out


@given(presets(max_side=10), st.integers(0, 2**31), st.sampled_from(["cells", "blocks"]))
def test_endpoints_are_the_farthest_boundary_pair(weights, seed, geometry):
    maze = generate(weights, rng=seed, geometry=geometry)
    g = to_graph(maze)
    piece = max(nx.connected_components(g), key=len)
    cand = end_candidates(maze, g, piece)
    outward = bool(cand)
    if not outward:
        cand = {c: (c, 0) for c in piece}
    assert maze.entrance in cand and maze.exit in cand

    def dist(a, b):
        (x, i), (y, j) = cand[a], cand[b]
        return nx.shortest_path_length(g, x, y) + i + j if a != b else 0

    tops = [c for c in cand if facing(maze, c, -1, 0)]
    bottoms = [c for c in cand if facing(maze, c, 1, 0)]
    if (geometry == "blocks" or maze.region.all()) and tops and bottoms:
        # The entrance opens to the north and the exit to the south (as the block Prim's maze
        # has them), the exit as far from the entrance as a south-facing end can be.
        assert maze.entrance in tops and maze.exit in bottoms
        assert dist(maze.entrance, maze.exit) == max(dist(maze.entrance, b) for b in bottoms)
    else:
        pairs = itertools.combinations_with_replacement(cand, 2)
        assert dist(maze.entrance, maze.exit) == max(dist(a, b) for a, b in pairs)
    if outward:  # both open to the outside
        assert maze.entrance_side and maze.exit_side


@given(
    presets(max_side=10),
    st.integers(0, 2**31),
    st.sampled_from(["cells", "blocks"]),
    st.booleans(),
    st.integers(0, 10**6),
)
def test_one_given_end_gets_the_farthest_other(weights, seed, geometry, give_entrance, pick):
    """With one end given, the other is the candidate farthest from it (networkx), on the
    side it opens to on a rectangle or blocks maze, and never the given cell itself."""
    auto = generate(weights, rng=seed, geometry=geometry)
    g = to_graph(auto)
    piece = max(nx.connected_components(g), key=len)
    cand = end_candidates(auto, g, piece)
    if len(cand) < 2:
        return
    given = sorted(cand)[pick % len(cand)]
    kw = {"entrance": given} if give_entrance else {"exit": given}
    maze = generate(weights, rng=seed, geometry=geometry, **kw)
    other = maze.exit if give_entrance else maze.entrance
    assert (maze.entrance if give_entrance else maze.exit) == given
    g = to_graph(auto)  # the maze before its doors are cut

    def dist(a, b):
        (x, i), (y, j) = cand[a], cand[b]
        return nx.shortest_path_length(g, x, y) + i + j

    pool = [c for c in cand if c != given]
    if geometry == "blocks" or auto.region.all():
        toward = [c for c in pool if facing(auto, c, 1 if give_entrance else -1, 0)]
        pool = toward or pool
    assert other != given and other in pool
    assert dist(given, other) == max(dist(given, c) for c in pool)


def test_prim_blocks_rectangle_doors_cut_in_top_and_bottom_borders():
    """The block Prim's maze: on a rectangle the outer ring stays wall; the entry is cut
    through the top border, the exit through the bottom one, and the maze is walked from
    one to the other."""
    for seed in range(20):
        maze = generate(np.zeros((12, 17), np.int32), algorithm="prim-blocks", rng=seed)
        (er, ec), (xr, xc) = maze.entrance, maze.exit
        assert er == 0 and xr == maze.height - 1
        assert maze.entrance_side == N and maze.exit_side == S
        ring = np.ones(maze.shape, bool)
        ring[1:-1, 1:-1] = False
        assert set(zip(*np.nonzero(maze.mask & ring), strict=True)) == {maze.entrance, maze.exit}
        pic = maze.blocks(doors=True)
        assert pic[0, ec + 1] == 2 and pic[-1, xc + 1] == 2  # the frame is open there
        assert len(solve(maze)) >= 2
    # A door the user names on the border is cut the same way; an inner wall block is refused.
    maze = generate(np.zeros((12, 17), np.int32), algorithm="prim-blocks", rng=0)
    row1 = [c for c in range(17) if maze.mask[1, c] and not maze.mask[1, c - 1 : c + 2 : 2].any()]
    top = (0, row1[0])
    again = generate(np.zeros((12, 17), np.int32), algorithm="prim-blocks", rng=0, entrance=top)
    assert again.entrance == top and again.entrance_side == N
    inner = next(zip(*np.nonzero(~maze.mask[2:-2, 2:-2]), strict=False))
    with pytest.raises(ValueError, match="neither a path block nor a border block"):
        generate(
            np.zeros((12, 17), np.int32),
            algorithm="prim-blocks",
            rng=0,
            entrance=(inner[0] + 2, inner[1] + 2),
        )


def test_outside_excludes_holes():
    weights = np.zeros((7, 7), np.int32)
    weights[3, 3] = 1000  # a hole inside the figure
    weights[0, :] = 1000  # ground along the top
    maze = generate(weights, rng=1)
    assert maze.outside[0].all()
    assert not maze.outside[3, 3]
    assert not maze.boundary_cells()[2, 3]  # beside the hole only
    assert maze.boundary_cells()[1, 3]  # beside the ground


def test_overridden_endpoints_and_solve_errors():
    weights = np.zeros((5, 6), np.int32)
    maze = generate(weights, rng=3, entrance=(2, 2), exit=(4, 5))
    assert maze.entrance == (2, 2) and maze.entrance_side == 0
    path = solve(maze)
    assert tuple(path[0]) == (2, 2)
    split = np.zeros((3, 5), np.int32)
    split[:, 2] = 1000
    two = generate(split, rng=1, islands="separate")
    left, right = (0, 0), (0, 4)
    with pytest.raises(ValueError, match="no path joins"):
        solve(two, start=left, goal=right)
    with pytest.raises(ValueError, match="not a maze cell"):
        solve(two, start=(0, 2), goal=right)
