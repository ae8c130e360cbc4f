"""The grids carved without their explicit arrays: the framed lattice, the polar table.

A :class:`~mazeart.grids.core.LatticeGrid` holds no per-cell array; the kernels carve it
on a framed copy whose steps and wall slots are arithmetic
(:func:`~mazeart._kernels.topology.lattice_topology`), and the slots opened are numbered
as the explicit grid's walls at the end (:func:`~mazeart._kernels.topology.lattice_walls`).
Everything here is checked against the explicit grid, which ``test_grid_builders.py``
checks against plain references: the neighbours of every cell in order, the wall behind
every slot, the number of walls and the drawing's size; and the mazes carved on the
lattice are spanning trees of each free part as networkx sees them on the explicit walls.
The polar grid's table, computed from its rings' counts alone, must equal the one made
from its explicit arrays slot for slot.
"""

from __future__ import annotations

import itertools
import pickle

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import mazeart
from mazeart._jit import jit_mode, njit
from mazeart._kernels.topology import (
    cell,
    degree,
    graph_topology,
    join_view,
    lattice_walls,
    look,
    look_view,
    slot,
    step,
    step_view,
    unusual,
    usual,
    view,
    walker,
)
from mazeart.grids import make_grid
from mazeart.grids.carve import GRAPH_ALGORITHMS, carve_graph
from mazeart.grids.core import LATTICES, LatticeGrid, PolarGrid

KINDS = ("hex", "triangle", "upsilon")
SIZES = [(r, c) for r, c in itertools.product((1, 2, 3, 4, 5, 8), (1, 2, 3, 4, 7))]


def sizes(kind: str) -> list[tuple[int, int]]:
    return [(r, c) for r, c in SIZES if not (kind == "triangle" and c == 1 and r > 2)]


def framed_ids(grid: LatticeGrid) -> tuple[np.ndarray, np.ndarray]:
    """Each grid cell's framed id, and the grid id of each framed cell (-1 on the frame)."""
    stride = 1 << int(grid.topology()[1])
    r, c = np.divmod(np.arange(grid.n_cells), grid.cols)
    framed = (r + 1) * stride + c + 1
    back = np.full((grid.rows + 2) * stride, -1)
    back[framed] = np.arange(grid.n_cells)
    return framed, back


@pytest.mark.parametrize("mode", ["never", "always"])
@pytest.mark.parametrize("kind", KINDS)
def test_the_lattice_is_the_explicit_grid(kind, mode):
    """Neighbours in order, the wall behind each slot (from either side), records, the
    number of walls and the size: the same as the explicit grid's, at every size."""
    with jit_mode(mode):
        for rows, cols in sizes(kind):
            grid = make_grid(kind, rows=rows, cols=cols)
            assert isinstance(grid, LatticeGrid)
            explicit = LATTICES[kind].arrays(rows, cols)
            assert grid.size == explicit.size and grid.n_walls == explicit.n_walls
            topo = grid.topology()
            framed, back = framed_ids(grid)
            none = np.zeros(0, np.bool_)
            assert lattice_walls(topo, rows, cols, none, none) == explicit.n_walls
            for a in range(grid.n_cells):
                steps = [int(step(topo, framed[a], d)) for d in range(degree(topo))]
                near = [int(back[f]) for f in steps if f >= 0 and back[f] >= 0]
                assert near == explicit.neighbours(a).tolist(), (rows, cols, a)
                for d, f in enumerate(steps):
                    if f < 0 or back[f] < 0:
                        continue
                    b = int(back[f])
                    s = int(slot(topo, framed[a], d))
                    back_side = steps_of(topo, f).index(framed[a])
                    assert s == int(slot(topo, f, back_side))  # one slot, seen from either cell
                    links = np.zeros((int(framed.max()) + 1) << int(topo[3]), np.bool_)
                    links[s] = True
                    opened = np.zeros(grid.n_walls, np.bool_)
                    lattice_walls(topo, rows, cols, links, opened)
                    assert np.flatnonzero(opened).tolist() == [explicit.wall_between(a, b)]


def steps_of(topo, f: int) -> list[int]:
    return [int(step(topo, f, d)) for d in range(degree(topo))]


@pytest.mark.parametrize("kind", KINDS)
def test_carving_reads_no_table(kind):
    """A lattice is carved without its explicit arrays: none is built."""
    grid = make_grid(kind, rows=30, cols=40)
    for name in GRAPH_ALGORITHMS:
        if name == "flow":
            continue  # the flow field is drawn on the cells' centres
        carve_graph(grid, np.ones(grid.n_cells, bool), name, 1)
        assert "arrays" not in grid._cache, name


@st.composite
def lattices(draw):
    kind = draw(st.sampled_from(KINDS))
    rows = draw(st.integers(1, 12))
    cols = draw(st.integers(2 if kind == "triangle" else 1, 12))
    free = draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))
    return kind, rows, cols, np.array(free, bool)


@given(lattices(), st.sampled_from(sorted(set(GRAPH_ALGORITHMS) - {"flow"})),
       st.integers(0, 2**32))  # fmt: skip
def test_each_free_part_is_one_spanning_tree(case, algorithm, seed):
    """On random masks, as networkx sees the opened walls on the explicit grid: one tree per
    free part, no wall to a cell that is not free."""
    kind, rows, cols, free = case
    grid = make_grid(kind, rows=rows, cols=cols)
    opened = carve_graph(grid, free, algorithm, seed)
    explicit = LATTICES[kind].arrays(rows, cols)
    ground = nx.Graph()
    ground.add_nodes_from(np.flatnonzero(free).tolist())
    for a, b in explicit.wall_cells[explicit.wall_cells[:, 1] >= 0].tolist():
        if free[a] and free[b]:
            ground.add_edge(a, b)
    tree = nx.Graph()
    tree.add_nodes_from(ground.nodes)
    for a, b in explicit.wall_cells[opened].tolist():
        assert b >= 0 and free[a] and free[b]
        tree.add_edge(a, b)
    parts = nx.number_connected_components(ground)
    assert nx.number_connected_components(tree) == parts
    assert tree.number_of_edges() == tree.number_of_nodes() - parts  # so a forest


def test_a_lattice_pickles_as_its_parameters():
    grid = make_grid("upsilon", rows=5, cols=6)
    again = pickle.loads(pickle.dumps(grid))
    assert isinstance(again, LatticeGrid) and dict(again.params) == {"rows": 5, "cols": 6}
    assert again.kind == "upsilon" and again.neighbours(7).tolist() == grid.neighbours(7).tolist()
    assert len(pickle.dumps(make_grid("hex", rows=300, cols=300))) < 300


def test_a_million_hexagons_cost_nothing_until_drawn():
    """The builder keeps no per-cell array: the grid is its parameters."""
    with mazeart.limits(max_cells=4_000_000):
        grid = make_grid("hex", rows=1000, cols=1000)
    assert grid.n_cells == 1_000_000 and not grid._cache


def test_the_polar_rings_are_the_explicit_grids_table():
    """Every cell's neighbours and walls, slot by slot, as the explicit grid's table has them
    (padded to its widest cell), and the number of walls, for 1 to 30 rings."""
    from mazeart._kernels.topology import degree, slot, step

    for rings in range(1, 31):
        grid = make_grid("polar", rings=rings)
        assert isinstance(grid, PolarGrid)
        topo = grid.own_topology()
        explicit = grid._arrays()
        nbr, wall, width, _ = graph_topology(explicit.indptr, explicit.indices,
                                             explicit.wall_of, explicit.wall_cells)  # fmt: skip
        assert grid.n_walls == explicit.n_walls and degree(topo) == 6 >= width
        cells = range(grid.n_cells)
        # (the centre's six slots are kept when it is the only ring, and hold no neighbour)
        assert [step(topo, c, d) for c in cells for d in range(width, 6)] == [-1] * (
            grid.n_cells * (6 - width)
        )
        assert [step(topo, c, d) for c in cells for d in range(width)] == nbr.tolist()
        assert [slot(topo, c, d) if nbr[c * width + d] >= 0 else -1
                for c in cells for d in range(width)] == wall.tolist()  # fmt: skip
        # a look (by the ring's plain rows where the cell is plain: from 6 rings on) gives
        # the neighbour, or the cell where it has none
        own = [b if b >= 0 else c for c in cells for b in nbr[c * width : (c + 1) * width]]
        assert [look_view(topo, view(topo, c), d) for c in cells for d in range(width)] == own
        # a random walk's table: the four neighbours of a free cell that has four, else -1s
        rows = nbr.reshape(grid.n_cells, width)
        free = np.random.default_rng(rings).random(grid.n_cells) < 0.7
        four = ((rows >= 0).sum(axis=1) == 4) & free
        expected = np.full((grid.n_cells, 4), -1)
        if width >= 4:  # (else no cell has four)
            expected[four] = rows[four, :4]
        assert walker(topo, free).reshape(-1, 4).tolist() == expected.tolist()


@njit
def _each_side_asked(topo, cells, sides, links):
    """For each of ``cells`` and each side in ``sides`` (read at run time, as a kernel's
    random choice is, so no branch on the side is compiled away), what the topology says:
    ``look``, ``look_view``, the cell of ``step_view`` (-1: none), the slots ``join_view``
    opens (each opened slot's number; -1 when it opens none, -2 when more than one), and
    whether the cell's view is ``unusual``."""
    out = np.full((cells.size, sides.size, 4), -1, np.int64)
    more = np.zeros(cells.size, np.bool_)
    order = np.zeros(1, np.int64)
    for i in range(cells.size):
        c = cells[i]
        v = view(topo, c)
        more[i] = unusual(topo, v)
        for j in range(sides.size):
            d = sides[j]
            out[i, j, 0] = look(topo, c, d)
            out[i, j, 1] = look_view(topo, v, d)
            nv = step_view(topo, v, d)
            if nv >= 0:
                b = cell(topo, nv)
                out[i, j, 2] = b
                join_view(topo, links, order, v, d, b)
                opened = np.flatnonzero(links)
                out[i, j, 3] = opened[0] if opened.size == 1 else -1 - (opened.size > 1)
                links[:] = False
    return out, more


@pytest.mark.parametrize("mode", ["never", "always"])
@pytest.mark.parametrize("kind", ["polar", *KINDS])
def test_a_side_chosen_at_run_time_is_the_explicit_grids(kind, mode):
    """The ways a kernel asks for a side it chose (a neighbour to look at, to step to by its
    view, a wall to open), each worked out without a branch on the side, give the explicit
    grid's neighbour and wall (through :func:`step` and :func:`slot`, which the tests above
    hold to the explicit grid), and a cell with a side past the usual ones says so."""
    shapes = [{"rings": r} for r in (1, 2, 3, 5, 9)] if kind == "polar" else [
        {"rows": r, "cols": c} for r, c in ((1, 2), (3, 4), (5, 7), (8, 3))]  # fmt: skip
    with jit_mode(mode):
        for params in shapes:
            grid = make_grid(kind, **params)
            if kind == "polar":
                topo, cells = grid.own_topology(), np.arange(grid.n_cells)
                links = np.zeros(grid.n_walls, np.bool_)
            else:
                topo, cells = grid.topology(), framed_ids(grid)[0]
                links = np.zeros((int(cells.max()) + 2) << int(topo[3]), np.bool_)
            width = degree(topo)
            asked, more = _each_side_asked(topo, cells, np.arange(width), links)
            for i, c in enumerate(cells.tolist()):
                near = [int(step(topo, c, d)) for d in range(width)]
                assert asked[i, :, 0].tolist() == [b if b >= 0 else c for b in near], params
                assert asked[i, :, 1].tolist() == [b if b >= 0 else c for b in near], params
                assert asked[i, :, 2].tolist() == near, params
                walls = [int(slot(topo, c, d)) if b >= 0 else -1 for d, b in enumerate(near)]
                assert asked[i, :, 3].tolist() == walls, params
                beyond = any(b >= 0 for b in near[usual(topo) :])
                assert more[i] or not beyond, (params, c)  # sides past the usual: said
                if kind == "polar":  # and said of the centre and the cells two grow from
                    assert more[i] == (c == 0 or sum(b >= 0 for b in near) == 5), (params, c)


def test_a_polar_maze_is_carved_without_its_arcs():
    """Carving a polar maze reads no explicit array (drawing it will)."""
    grid = make_grid("polar", rings=12)
    free = np.ones(grid.n_cells, bool)
    opened = carve_graph(grid, free, "wilson", 3)
    assert int(opened.sum()) == grid.n_cells - 1 and "arrays" not in grid._cache
