"""The grids (square, hex, triangle, polar, upsilon) and sampling pictures on them.

The geometry is checked independently of the builders' own tables: which cells are
neighbours, which cells a wall separates and what the grid's outline is are all
worked out again with shapely from the cell polygons alone.
"""

from __future__ import annotations

import itertools
import math
from functools import cache

import networkx as nx
import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point, Polygon, box

import mazeart
from mazeart.errors import MazeartError
from mazeart.grids import GRIDS, Grid, make_grid
from mazeart.grids.sample import Transform, cell_coverage, fit_grid
from mazeart.grids.shapes import (
    CHORD_ERROR,
    hex_grid,
    polar_counts,
    polar_grid,
    triangle_grid,
    upsilon_grid,
)

KINDS = ["square", "hex", "triangle", "polar", "upsilon"]
EPS = 1e-6


def params_for(kind: str, a: int, b: int) -> dict[str, int]:
    return {"rings": a + 1} if kind == "polar" else {"rows": a, "cols": b}


@cache
def built(kind: str, a: int, b: int) -> Grid:
    return make_grid(kind, **params_for(kind, a, b))


@cache
def polygons(kind: str, a: int, b: int) -> list[Polygon]:
    g = built(kind, a, b)
    return [Polygon(g.polygon(i)) for i in range(g.n_cells)]


def sizes():
    """A kind and a small size: rows and columns 1..5, or 2..6 rings."""
    return st.tuples(st.sampled_from(KINDS), st.integers(1, 5), st.integers(1, 5)).filter(
        lambda s: not (s[0] == "triangle" and s[1] > 2 and s[2] == 1)  # refused: see below
    )


def shoelace(p: np.ndarray) -> float:
    x, y = p[:, 0], p[:, 1]
    return float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y) / 2.0)


# ---------------------------------------------------------------------------------------
# The tables


def test_the_grids_a_recipe_names_are_the_registry_s():
    """The command line offers the grids from a list of names (it answers --help without
    loading the grids): the list is the registry's, in its order, but the weave (made by
    --weave)."""
    from mazeart._names import GRID_KINDS

    assert GRID_KINDS == tuple(kind for kind in GRIDS if kind != "weave")


@given(sizes())
def test_the_neighbour_table_is_symmetric_and_names_the_walls(size):
    g = built(*size)
    assert set(GRIDS) >= set(KINDS)
    inner = np.flatnonzero(g.wall_cells[:, 1] >= 0)
    assert len(g.indices) == len(g.wall_of) == 2 * len(inner) == g.indptr[-1]
    assert np.all(np.diff(g.indptr) >= 0) and g.indptr[0] == 0
    for a in range(g.n_cells):
        row = g.neighbours(a).tolist()
        assert len(row) == len(set(row)) and a not in row
        for b, w in zip(row, g.wall_of[g.indptr[a] : g.indptr[a + 1]].tolist(), strict=True):
            assert a in g.neighbours(b).tolist()
            assert g.wall_between(a, b) == g.wall_between(b, a) == w
            assert sorted(g.wall_cells[w].tolist()) == sorted([a, b])
    # every inner wall is in the table, twice, once for each of its cells
    assert sorted(g.wall_of.tolist()) == sorted(inner.tolist() * 2)
    assert np.all(g.wall_cells[inner, 0] < g.wall_cells[inner, 1])
    graph = nx.Graph()
    graph.add_nodes_from(range(g.n_cells))
    graph.add_edges_from(g.wall_cells[inner].tolist())
    assert nx.is_connected(graph)


@given(sizes())
@settings(max_examples=30)
def test_each_wall_lies_on_exactly_the_outlines_of_its_cells(size):
    g, polys = built(*size), polygons(*size)
    tree = shapely.STRtree(polys)
    rims = [p.exterior.buffer(EPS) for p in polys]
    for w in range(g.n_walls):
        line = LineString(g.wall(w))
        assert line.length > 0.1
        near = tree.query(line, predicate="intersects").tolist()
        on = sorted(i for i in near if rims[i].covers(line))
        a, b = g.wall_cells[w].tolist()
        assert on == sorted([a, b] if b >= 0 else [a]), (w, on, a, b)


@given(sizes())
@settings(max_examples=30)
def test_each_cell_is_bounded_by_its_walls(size):
    g, polys = built(*size), polygons(*size)
    lengths = np.array([LineString(g.wall(w)).length for w in range(g.n_walls)])
    around = np.zeros(g.n_cells)
    np.add.at(around, g.wall_cells[:, 0], lengths)
    inner = g.wall_cells[:, 1] >= 0
    np.add.at(around, g.wall_cells[inner, 1], lengths[inner])
    np.testing.assert_allclose(around, [p.length for p in polys], rtol=1e-9)


@given(sizes())
@settings(max_examples=30)
def test_neighbours_are_the_cells_that_share_a_side(size):
    """Worked out from the polygons alone: a shared stretch of outline longer than a
    point (cells that meet at a corner are not neighbours)."""
    g, polys = built(*size), polygons(*size)
    tree = shapely.STRtree(polys)
    for a, poly in enumerate(polys):
        fat = poly.buffer(1e-7)
        sharing = sorted(
            b
            for b in tree.query(fat, predicate="intersects").tolist()
            if b != a and polys[b].exterior.intersection(fat).length > 1e-3
        )
        assert sharing == sorted(g.neighbours(a).tolist()), a


@given(sizes())
@settings(max_examples=30)
def test_the_cells_tile_a_region_without_overlaps_or_holes(size):
    polys = polygons(*size)
    union = shapely.union_all(polys)
    assert sum(p.area for p in polys) == pytest.approx(union.area, rel=EPS)
    assert isinstance(union, Polygon), union.geom_type
    assert len(union.interiors) == 0


@given(sizes())
@settings(max_examples=30)
def test_the_boundary_walls_are_the_outline(size):
    g, polys = built(*size), polygons(*size)
    outline = shapely.union_all(polys).boundary
    edge = [LineString(g.wall(w)) for w in g.boundary_walls()]
    assert sum(line.length for line in edge) == pytest.approx(outline.length, rel=1e-9)
    rim = outline.buffer(EPS)
    assert all(rim.covers(line) for line in edge)
    assert shapely.union_all(edge).buffer(EPS).covers(outline)
    inside = [LineString(g.wall(w)) for w in np.flatnonzero(g.wall_cells[:, 1] >= 0)]
    assert not any(rim.covers(line) for line in inside)


@given(sizes())
def test_cells_hold_their_centres_and_run_the_same_way_round(size):
    g, polys = built(*size), polygons(*size)
    for i, p in enumerate(polys):
        assert p.is_valid
        assert p.contains(Point(g.centres[i]))
        assert shoelace(g.polygon(i)) > 0  # clockwise on the page (y down), as squares
    points = np.concatenate([g.cell_points, g.wall_points, g.centres])
    assert points.min() >= -1e-12
    assert np.all(points.max(axis=0) <= np.array(g.size) + 1e-12)
    np.testing.assert_allclose(g.cell_points.min(axis=0), 0.0, atol=1e-9)
    np.testing.assert_allclose(g.cell_points.max(axis=0), g.size, atol=CHORD_ERROR)


@given(sizes())
def test_cell_areas(size):
    kind = size[0]
    areas = np.array([p.area for p in polygons(*size)])
    if kind == "square":
        np.testing.assert_allclose(areas, 1.0)
    elif kind == "hex":
        np.testing.assert_allclose(areas, math.sqrt(3) / 2)
    elif kind == "triangle":
        np.testing.assert_allclose(areas, math.sqrt(3) / 4)
    elif kind == "upsilon":
        g = built(*size)
        r, c = np.divmod(np.arange(g.n_cells), g.params["cols"])
        octagon = (r + c) % 2 == 0
        np.testing.assert_allclose(areas[octagon], 4 * math.sqrt(2) - 4)  # regular octagons
        np.testing.assert_allclose(areas[~octagon], (2 - math.sqrt(2)) ** 2)
    else:
        # The centre is a disc of radius 1 (area pi); the ring cells stay within a factor
        # of 3 of each other (cells split in two when they grow twice as wide as deep).
        assert areas[0] == pytest.approx(math.pi, abs=6 * CHORD_ERROR)
        ring = areas[1:]
        if ring.size:
            assert ring.max() / ring.min() < 3
            assert 0.7 < ring.min() and areas[0] / ring.min() < 4.5


@given(sizes())
def test_make_grid_rebuilds_the_same_grid(size):
    g = built(*size)
    again = make_grid(g.kind, **g.params)
    assert again.kind == g.kind and dict(again.params) == dict(g.params)
    assert again.size == g.size
    for name in (
        "centres", "indptr", "indices", "wall_of", "wall_cells",
        "wall_ptr", "wall_points", "cell_ptr", "cell_points",
    ):  # fmt: skip
        np.testing.assert_array_equal(getattr(again, name), getattr(g, name), err_msg=name)


# ---------------------------------------------------------------------------------------
# Each kind's layout


def test_hex_layout():
    g = hex_grid(3, 4)
    assert g.n_cells == 12 and g.size[0] == 4.5
    assert g.size[1] == pytest.approx(3 * math.sqrt(3) / 2 + 0.5 / math.sqrt(3))
    assert np.diff(g.centres[:4, 0]).tolist() == [1.0, 1.0, 1.0]
    assert g.centres[4, 0] - g.centres[0, 0] == 0.5  # odd rows shifted right
    assert g.centres[4, 1] - g.centres[0, 1] == pytest.approx(math.sqrt(3) / 2)
    assert sorted(g.neighbours(5).tolist()) == [1, 2, 4, 6, 9, 10]  # odd row
    assert sorted(g.neighbours(10).tolist()) == [5, 6, 9, 11]  # even row, bottom
    assert np.ptp(g.polygon(0)[:, 0]) == 1.0  # one unit across
    assert max(len(g.neighbours(i)) for i in range(12)) == 6


def test_triangle_layout():
    g = triangle_grid(2, 3)
    up = [shoelace(g.polygon(i)) > 0 and g.polygon(i)[0, 1] < g.centres[i, 1] for i in range(6)]
    assert all(up)
    for i in range(6):
        r, c = divmod(i, 3)
        points_up = g.polygon(i)[:, 1].tolist().count(r * math.sqrt(3) / 2) == 1
        assert points_up == ((r + c) % 2 == 0)
    sides = np.hypot(*np.diff(np.vstack([g.polygon(0), g.polygon(0)[:1]]), axis=0).T)
    np.testing.assert_allclose(sides, 1.0)
    assert [sorted(g.neighbours(i).tolist()) for i in range(6)] == [
        [1, 3], [0, 2], [1, 5], [0, 4], [3, 5], [2, 4],
    ]  # fmt: skip
    assert g.size == pytest.approx((2.0, math.sqrt(3)))


def test_upsilon_layout():
    g = upsilon_grid(3, 3)
    assert [len(g.polygon(i)) for i in range(9)] == [8, 4, 8, 4, 8, 4, 8, 4, 8]
    assert sorted(g.neighbours(4).tolist()) == [0, 1, 2, 3, 5, 6, 7, 8]
    assert sorted(g.neighbours(3).tolist()) == [0, 4, 6]
    np.testing.assert_allclose(np.diff(g.centres[:3, 0]), 1.0)
    np.testing.assert_allclose(g.size, 3 + math.sqrt(2) - 1)


def test_polar_layout():
    assert polar_counts(8) == [1, 6, 12, 24, 24, 24, 48, 48]
    g = polar_grid(8)
    assert g.n_cells == sum(polar_counts(8)) and g.size == (16.0, 16.0)
    centre = np.array(g.size) / 2
    np.testing.assert_array_equal(g.centres[0], centre)
    counts = polar_counts(8)
    first = np.cumsum([0, *counts])
    for r in range(1, 8):
        d = g.centres[first[r] : first[r + 1]] - centre
        angles = np.arctan2(d[:, 1], d[:, 0]) % (2 * math.pi)
        assert 0 < angles[0] < math.pi / 2  # starts east, turns clockwise on the page (y down)
        assert np.all(np.diff(angles) > 0)
        np.testing.assert_allclose(np.hypot(d[:, 0], d[:, 1]), r + 0.5)
        for k, i in enumerate(range(first[r], first[r + 1])):
            n = g.neighbours(i)
            assert ((n >= first[r]) & (n < first[r + 1])).sum() == 2  # either side in the ring
            grown = counts[r + 1] // counts[r] if r + 1 < 8 else 0
            assert (n >= first[r + 1]).sum() == grown  # outward: the cells grown from it
            inward = n[n < first[r]]  # inward: the one it grew from, whose angles hold its own
            assert len(inward) == 1
            j = int(inward[0]) - first[r - 1]
            if r > 1:
                assert j / counts[r - 1] < angles[k] / (2 * math.pi) < (j + 1) / counts[r - 1]
    assert g.neighbours(0).tolist() == list(range(1, 7))


@pytest.mark.parametrize("rings", [1, 2, 3, 9, 20])
def test_polar_arcs_stay_near_their_circles(rings):
    g = polar_grid(rings)
    centre = np.array(g.size) / 2
    for points, ptr in ((g.wall_points, g.wall_ptr), (g.cell_points, g.cell_ptr)):
        radius = np.hypot(*(points - centre).T)
        np.testing.assert_allclose(radius, np.round(radius), atol=1e-9)  # on the circles
        for a, b in itertools.pairwise(ptr):
            p = points[a:b]
            q = np.roll(p, -1, axis=0) if ptr is g.cell_ptr else p[1:]
            p = p[: len(q)]
            ra, rb = radius[a : a + len(q)], np.hypot(*(q - centre).T)
            same = np.abs(ra - rb) < 1e-9  # a chord along an arc, not a radial side
            middle = np.hypot(*((p + q) / 2 - centre).T)
            assert np.all(ra[same] - middle[same] < CHORD_ERROR)


def test_polar_walls_on_arcs_have_many_points():
    g = polar_grid(3)
    w = g.wall_between(0, 1)
    assert len(g.wall(w)) > 2
    assert len(g.wall(g.wall_between(1, 2))) == 2  # a radial side is straight


@pytest.mark.parametrize(
    ("builder", "args"),
    [
        (hex_grid, (0, 3)), (hex_grid, (3, 0)), (triangle_grid, (0, 1)),
        (triangle_grid, (2, -1)), (upsilon_grid, (0, 2)), (polar_grid, (0,)),
    ],
)  # fmt: skip
def test_sizes_below_one_are_refused_in_a_line(builder, args):
    with pytest.raises(MazeartError) as info:
        builder(*args)
    assert "\n" not in str(info.value) and "must be an integer >= 1" in str(info.value)


@pytest.mark.parametrize("builder", [hex_grid, triangle_grid, upsilon_grid])
def test_sizes_must_be_integers(builder):
    with pytest.raises(TypeError):
        builder(2.5, 3)
    with pytest.raises(TypeError):
        polar_grid(True)


def test_a_triangle_grid_one_triangle_wide_has_at_most_two_rows():
    """Below those, its triangles would meet the next rows only at corners."""
    assert triangle_grid(2, 1).n_cells == 2
    with pytest.raises(MazeartError, match="at least 2 columns"):
        triangle_grid(3, 1)


def test_grids_over_max_cells_are_refused():
    with mazeart.limits(max_cells=100):
        for make in (lambda: hex_grid(10, 11), lambda: upsilon_grid(20, 6), lambda: polar_grid(7)):
            with pytest.raises(MazeartError, match="max_cells"):
                make()
    with mazeart.limits(max_cells=67 * 3):  # a polar cell costs three square ones
        assert polar_grid(5).n_cells == 67
    with mazeart.limits(max_cells=67 * 3 - 1), pytest.raises(MazeartError, match="max_cells"):
        polar_grid(5)
    with pytest.raises(MazeartError, match="max_cells"):
        polar_grid(10**9)


# ---------------------------------------------------------------------------------------
# Sampling pictures


def cell_pixels(g: Grid, t: Transform) -> list[Polygon]:
    return [Polygon(t.to_pixels(g.polygon(i))) for i in range(g.n_cells)]


def test_transform_round_trips():
    t = Transform(12.5, (-3.0, 40.0))
    points = np.array([[0.0, 0.0], [1.0, 2.0], [-4.5, 7.25]])
    np.testing.assert_allclose(t.to_grid(t.to_pixels(points)), points)
    assert t.to_pixels([1.0, 1.0]).tolist() == [9.5, 52.5]


@pytest.mark.parametrize("kind", ["square", "hex", "triangle", "upsilon"])
def test_fit_grid_spans_the_picture_centred(kind):
    g, t = fit_grid(kind, (800, 500), 20)
    assert t.scale == 40.0
    low, high = t.to_pixels([0.0, 0.0]), t.to_pixels(g.size)
    np.testing.assert_allclose((low + high) / 2, [400.0, 250.0])
    assert high[0] - low[0] == pytest.approx(800, abs=0.5 * 40)  # about cells units across
    assert high[1] - low[1] == pytest.approx(500, abs=40)


@pytest.mark.parametrize("kind", KINDS)
def test_a_disc_is_sampled_as_its_exact_area(kind):
    width, height, radius, (cx, cy) = 800, 600, 230.0, (430.0, 280.0)
    yy, xx = np.mgrid[0:height, 0:width] + 0.5
    coverage = ((xx - cx) ** 2 + (yy - cy) ** 2 <= radius**2).astype(np.float32)
    g, t = fit_grid(kind, (width, height), 20)
    got = cell_coverage(g, t, coverage)
    assert got.dtype == np.float32 and got.shape == (g.n_cells,)
    disc = Point(cx, cy).buffer(radius, quad_segs=256)
    cells = cell_pixels(g, t)
    exact = np.array([c.intersection(disc).area / c.area for c in cells])
    big = np.array([c.area for c in cells]) > 300  # cells well above pixel size
    assert big.sum() > 0.9 * g.n_cells
    assert np.abs(got - exact)[big].max() < 0.05
    assert (exact > 0.99).sum() > 20 and np.all(got[exact > 0.99] > 0.95)
    assert np.all(got[exact == 0] == 0)


def test_cells_partly_outside_the_picture_count_the_outside_as_ground():
    g, t = fit_grid("polar", (400, 300), 10)  # the rings reach past the corners
    got = cell_coverage(g, t, np.ones((300, 400)))
    picture = box(0, 0, 400, 300)
    cells = cell_pixels(g, t)
    inside = np.array([c.intersection(picture).area / c.area for c in cells])
    np.testing.assert_allclose(got, inside, atol=0.05)
    assert np.all(got[inside == 1.0] == 1.0)
    assert (inside == 0).any() and np.all(got[inside == 0] == 0)


@given(st.sampled_from(KINDS), st.integers(0, 59), st.integers(0, 39))
@settings(max_examples=40)
def test_one_pixel_counts_for_the_one_cell_that_holds_its_centre(kind, x, y):
    g, t = fit_grid(kind, (60, 40), 6)
    coverage = np.zeros((40, 60))
    coverage[y, x] = 1.0
    got = cell_coverage(g, t, coverage)
    holders = [i for i, p in enumerate(cell_pixels(g, t)) if p.intersects(Point(x + 0.5, y + 0.5))]
    lit = np.flatnonzero(got).tolist()
    assert len(lit) <= 1 and set(lit) <= set(holders)
    if holders and len(holders) == 1:
        assert lit == holders


def test_cells_smaller_than_a_pixel_take_the_pixel_under_their_centre():
    rng = np.random.default_rng(5)
    coverage = rng.random((10, 10)).astype(np.float32)
    g, t = fit_grid("square", (10, 10), 30)  # nine cells in every pixel
    got = cell_coverage(g, t, coverage).reshape(30, 30)
    np.testing.assert_array_equal(got, np.kron(coverage, np.ones((3, 3))))
    h, th = fit_grid("hex", (10, 10), 40)
    got = cell_coverage(h, th, coverage)
    at = np.floor(th.to_pixels(h.centres)).astype(int)
    on = np.all((at >= 0) & (at < 10), axis=1)
    assert np.all(got[~on] >= 0) and np.all(got <= 1)
    lone = on & np.isin(got, coverage)
    assert lone.mean() > 0.9  # almost every cell holds one pixel centre or none


def test_the_polar_grid_centres_on_the_figure():
    width, height = 800, 600
    yy, xx = np.mgrid[0:height, 0:width] + 0.5
    figure = ((xx - 600) ** 2 + (yy - 180) ** 2 <= 90**2) | (
        (np.abs(xx - 640) < 30) & (np.abs(yy - 380) < 120)
    )
    ys, xs = np.nonzero(figure)
    centroid = np.array([xs.mean() + 0.5, ys.mean() + 0.5])
    g, t = fit_grid("polar", (width, height), 20, figure=figure)
    np.testing.assert_allclose(t.to_pixels(g.centres[0]), centroid, atol=1e-9)
    union = shapely.union_all(cell_pixels(g, t))
    corners = [
        (x + dx, y + dy) for x, y in zip(xs, ys, strict=True) for dx in (0, 1) for dy in (0, 1)
    ]
    assert union.covers(shapely.MultiPoint(corners[::7]).convex_hull)
    far = max(np.hypot(*(np.array(c) - centroid)) for c in corners)
    assert g.params["rings"] == math.ceil(far / 40 + CHORD_ERROR)
    # a centre given wins; with neither, the picture's centre, and the rings cover it
    g, t = fit_grid("polar", (width, height), 20, figure=figure, centre=(100, 120))
    np.testing.assert_allclose(t.to_pixels(g.centres[0]), [100.0, 120.0])
    g, t = fit_grid("polar", (width, height), 20)
    np.testing.assert_allclose(t.to_pixels(g.centres[0]), [400.0, 300.0])
    assert shapely.union_all(cell_pixels(g, t)).covers(box(0, 0, width, height))
    g, t = fit_grid("polar", (width, height), 20, figure=np.zeros((height, width), bool))
    np.testing.assert_allclose(t.to_pixels(g.centres[0]), [400.0, 300.0])


def test_bad_sampling_arguments_are_refused():
    with pytest.raises(MazeartError, match="unknown grid"):
        fit_grid("circle", (10, 10), 2)
    with pytest.raises(MazeartError, match="cells"):
        fit_grid("hex", (10, 10), 0)
    with pytest.raises(MazeartError, match="picture width"):
        fit_grid("hex", (0, 10), 2)
    with pytest.raises(MazeartError, match="figure has shape"):
        fit_grid("polar", (10, 10), 2, figure=np.ones((5, 10), bool))
    with pytest.raises(MazeartError, match="2-D"):
        cell_coverage(hex_grid(2, 2), Transform(1.0, (0.0, 0.0)), np.ones(4))


@pytest.mark.parametrize("mode", ["never", "always"])
def test_a_polar_grid_of_one_ring_is_one_cell_with_no_neighbour(mode):
    """The centre alone (a speck of a picture on the polar grid): every generator carves
    nothing and reads no neighbour it does not have (compiled, such a read once crashed)."""
    from mazeart._jit import jit_mode
    from mazeart.grids import make_grid
    from mazeart.grids.carve import GRAPH_ALGORITHMS, carve_graph

    grid = make_grid("polar", rings=1)
    assert grid.n_cells == 1 and len(grid.neighbours(0)) == 0
    with jit_mode(mode):
        for name in GRAPH_ALGORITHMS:
            assert not carve_graph(grid, np.ones(1, bool), name, 1).any(), name


def test_a_cell_with_more_neighbours_than_the_kernels_hold_is_refused_in_one_line():
    """The kernels keep a cell's sides as the bits of one integer: a grid whose cell has more
    than :data:`MAX_SIDES` neighbours is refused with the count, not carved wrong."""
    from mazeart._kernels.topology import MAX_SIDES
    from mazeart.errors import MazeartError
    from mazeart.grids import Grid
    from mazeart.grids.carve import carve_graph

    leaves = MAX_SIDES + 1  # a star: one cell beside all the others
    n = leaves + 1
    indptr = np.r_[0, leaves, leaves + np.arange(1, n)].astype(np.int64)
    indices = np.r_[np.arange(1, n), np.zeros(leaves, int)].astype(np.int32)
    wall_of = np.r_[np.arange(leaves), np.arange(leaves)].astype(np.int32)
    wall_cells = np.c_[np.zeros(leaves, int), np.arange(1, n)].astype(np.int32)
    star = Grid(
        kind="star",
        params={},
        centres=np.zeros((n, 2)),
        indptr=indptr,
        indices=indices,
        wall_of=wall_of,
        wall_cells=wall_cells,
        wall_ptr=np.zeros(leaves + 1, np.int64),
        wall_points=np.zeros((0, 2)),
        cell_ptr=np.zeros(n + 1, np.int64),
        cell_points=np.zeros((0, 2)),
        size=(1.0, 1.0),
    )
    with pytest.raises(MazeartError, match=f"has {leaves} neighbours"):
        carve_graph(star, np.ones(n, bool), "backtracker", 1)
