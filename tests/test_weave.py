"""Weave mazes, checked from the outside.

Every generated maze is saved and the file is read back with ``json`` alone into a
networkx graph; the grid's geometry is taken from the file's centres (an under node
is the node whose centre repeats a square cell's). Over hypothesis-drawn presets,
seeds and densities: the weave rule holds, each free part's cells and the under
nodes used beneath them form one tree, passages only join neighbours, nothing lies
outside the mask, the connectivity pass leaves one tree, the file round-trips
exactly and the solver's path is a walk through the passages. The drawing is
rendered with Pillow and its pixels read at every crossing and every passage.
"""

from __future__ import annotations

import itertools
import json
import re

import networkx as nx
import numpy as np
import pytest
import shapely
from conftest import presets
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from mazeart.errors import InvalidMazeError, MazeartError
from mazeart.grids import grid_from_pairs, make_grid, square_grid
from mazeart.grids.weave import check_weave, weave_floor, weave_grid, weave_maze, weave_walls
from mazeart.guide import drawn
from mazeart.maze import Maze
from mazeart.mazefile import dumps, loads
from mazeart.shape import connect
from mazeart.solvers import solve

# ----------------------------------------------------------------------------- helpers


def opened(grid, pairs) -> np.ndarray:
    return np.isin(np.arange(grid.n_walls), [grid.wall_between(a, b) for a, b in pairs])


def from_file(text: str) -> tuple[dict, nx.Graph, dict[int, int], int, int]:
    """The saved maze as a graph, the square cell above each under node, rows and cols."""
    doc = json.loads(text)
    assert doc["grid"]["kind"] == "weave"
    rows, cols = doc["grid"]["params"]["rows"], doc["grid"]["params"]["cols"]
    n = rows * cols
    centres = [tuple(p) for p in doc["centres"]]
    square_at = {centres[i]: i for i in range(n)}
    above = {u: square_at[centres[u]] for u in range(n, len(centres))}
    graph = nx.Graph()
    graph.add_nodes_from(doc["cells"])
    graph.add_edges_from(map(tuple, doc["passages"]))
    return doc, graph, above, rows, cols


def side_step(doc: dict, a: int, b: int) -> tuple[float, float]:
    (xa, ya), (xb, yb) = doc["centres"][a], doc["centres"][b]
    return xb - xa, yb - ya


def check_from_file(doc: dict, graph: nx.Graph, above: dict[int, int], n: int) -> None:
    """Neighbours only, and the weave rule, from the file's ids and centres alone."""
    for a, b in graph.edges:
        a, b = min(a, b), max(a, b)
        dx, dy = side_step(doc, a, b)
        assert a < n, f"passage {a}-{b} joins two under nodes"
        assert abs(dx) + abs(dy) == pytest.approx(1.0) and dx * dy == 0, (a, b)
    for u, cell in above.items():
        if u not in graph:
            continue
        ends = list(graph.neighbors(u))
        assert len(ends) == 2, f"under node {u} has {len(ends)} passages"
        steps = [side_step(doc, cell, e) for e in ends]
        assert steps[0] == pytest.approx((-steps[1][0], -steps[1][1])), "not straight"
        over = list(graph.neighbors(cell))
        assert len(over) == 2 and all(o < n for o in over)
        across = [side_step(doc, cell, o) for o in over]
        assert across[0] == pytest.approx((-across[1][0], -across[1][1]))
        assert abs(np.dot(steps[0], across[0])) < 1e-9, "the over corridor is not across"


def free_parts(free: np.ndarray) -> list[set[int]]:
    rows, cols = free.shape
    lattice = nx.grid_2d_graph(rows, cols)
    keep = [(r, c) for r, c in lattice.nodes if free[r, c]]
    return [{r * cols + c for r, c in part}
            for part in nx.connected_components(lattice.subgraph(keep))]  # fmt: skip


def check_walk(maze: Maze, path: np.ndarray) -> None:
    """A walk through the passages, each node once, straight through every under node; a
    square is passed twice only once over and once under."""
    g = maze.grid
    n = int(g.params["rows"]) * int(g.params["cols"])
    assert path[0] == maze.entrance and path[-1] == maze.exit
    assert len(set(path.tolist())) == len(path)
    for a, b in itertools.pairwise(path):
        assert maze.passages[g.wall_between(int(a), int(b))]
    for k in range(1, len(path) - 1):
        if path[k] >= n:
            before, after = g.centres[path[k - 1]], g.centres[path[k + 1]]
            assert np.allclose(before + after, 2 * g.centres[path[k]]), "turned under a cell"
    spots = [tuple(g.centres[c]) for c in path]
    for spot in set(spots):
        ids = [int(c) for c, s in zip(path, spots, strict=True) if s == spot]
        assert len(ids) == 1 or (len(ids) == 2 and sum(i >= n for i in ids) == 1)


def crossings(maze: Maze) -> list[tuple[int, bool]]:
    """Each crossing's cell and whether its over corridor runs east-west."""
    g = maze.grid
    rows, cols = int(g.params["rows"]), int(g.params["cols"])
    out = []
    for u in np.flatnonzero(maze.mask[rows * cols :]) + rows * cols:
        cell = g.cell_at(*g.centres[u])
        out.append((cell, cell - 1 in maze.neighbours(cell)))
    return out


# ----------------------------------------------------------------------------- the grid


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 4), (2, 5), (3, 3), (5, 4), (6, 7)])
def test_the_grid_is_the_square_grid_and_an_under_node_below_each_interior_cell(rows, cols):
    g, sq = make_grid("weave", rows=rows, cols=cols), square_grid(rows, cols)
    assert dict(g.params) == {"rows": rows, "cols": cols}
    assert weave_grid(rows, cols).n_walls == g.n_walls
    n, inner = rows * cols, max(rows - 2, 0) * max(cols - 2, 0)
    assert g.kind == "weave" and g.n_cells == n + inner and g.size == (cols, rows)
    np.testing.assert_array_equal(g.centres[:n], sq.centres)
    np.testing.assert_array_equal(g.cell_points[: g.cell_ptr[n]], sq.cell_points)

    def walls(grid, keep):
        return sorted((a, b, grid.wall(w).round(9).tolist())
                      for w, (a, b) in enumerate(grid.wall_cells.tolist()) if keep(b))  # fmt: skip

    assert walls(g, lambda b: b < n) == walls(sq, lambda b: True)
    interior = [r * cols + c for r in range(1, rows - 1) for c in range(1, cols - 1)]
    for k, cell in enumerate(interior):
        u = n + k
        np.testing.assert_array_equal(g.centres[u], g.centres[cell])
        np.testing.assert_array_equal(g.polygon(u), g.polygon(cell))
        assert sorted(g.neighbours(u).tolist()) == sorted(sq.neighbours(cell).tolist())
        for nb in sq.neighbours(cell).tolist():
            np.testing.assert_array_equal(g.wall(g.wall_between(u, nb)),
                                          sq.wall(sq.wall_between(cell, nb)))  # fmt: skip
    # the same grid as the generic builder makes from its walls and polygons
    pairs = [(a, b, g.wall(w)) for w, (a, b) in enumerate(g.wall_cells.tolist())]
    again = grid_from_pairs("weave", dict(g.params), g.centres,
                            [g.polygon(i) for i in range(g.n_cells)], pairs, g.size)  # fmt: skip
    for name in ("indptr", "indices", "wall_of", "wall_cells", "wall_points", "cell_points"):
        np.testing.assert_array_equal(getattr(g, name), getattr(again, name))


# ----------------------------------------------------------------------------- generating


@settings(max_examples=60)
@given(preset=presets(max_side=12), seed=st.integers(0, 2**32 - 1),
       density=st.floats(0.0, 1.0))  # fmt: skip
def test_weave_mazes_keep_the_rule_and_are_trees_from_the_saved_file(preset, seed, density):
    free = preset == 0
    n = free.size
    parts = free_parts(free)

    alone = weave_maze(preset, seed, density=density, islands="separate")
    check_weave(alone)
    doc, graph, above, _, _ = from_file(dumps(alone))
    check_from_file(doc, graph, above, n)
    squares = {c for c in graph.nodes if c < n}
    assert squares == set(np.flatnonzero(free).tolist()), "nothing outside the mask"
    assert all(above[u] in squares for u in graph.nodes if u >= n)
    for part in parts:
        nodes = part | {u for u in graph.nodes if u >= n and above[u] in part}
        assert nx.is_tree(graph.subgraph(nodes)), "a free part is not one tree"
    assert nx.number_connected_components(graph) == len(parts)
    assert loads(dumps(alone)) == alone and dumps(loads(dumps(alone))) == dumps(alone)

    joined = weave_maze(preset, seed, density=density)
    check_weave(joined)
    doc, graph, above, rows, cols = from_file(dumps(joined))
    check_from_file(doc, graph, above, n)
    assert set(np.flatnonzero(free).tolist()) <= set(graph.nodes)  # bridges add cells only
    # the bridges open no wall of a crossing cell or of an under node
    assert not (alone.passages & ~joined.passages).any()
    bridged = joined.grid.wall_cells[joined.passages & ~alone.passages]
    touched = [cell for cell, _ in crossings(joined)] + list(range(n, joined.grid.n_cells))
    assert not np.isin(bridged, touched).any()
    assert nx.is_tree(graph), "after the connectivity pass: one tree"
    assert loads(dumps(joined)) == joined
    meta = {"algorithm": "kruskal-weave", "seed": seed, "grid": "weave", "density": density,
            "islands": "connect"}  # fmt: skip
    assert dict(joined.meta) == meta
    # the ends open to the outside: the grid's edge or a square that is not maze
    for end in (joined.entrance, joined.exit):
        r, c = divmod(end, cols)
        around = [(r + dr, c + dc) for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1))]
        assert any(not (0 <= y < rows and 0 <= x < cols) or (y * cols + x) not in graph
                   for y, x in around), f"end {end} is not on the maze's outside"  # fmt: skip
    check_walk(joined, solve(joined))
    check_walk(joined, solve(joined, method="astar"))


ROOMS = {
    "rooms": [
        {"name": "hall", "rect": [3, 3, 3, 4], "doors": [[3, 4, "N"], [5, 6, "E"]]},
        {"name": "nook", "rect": [9, 10, 2, 2], "doors": [[10, 10, "W"]]},
    ]
}


@settings(max_examples=25)
@given(seed=st.integers(0, 2**32 - 1), density=st.floats(0.3, 1.0))
def test_rooms_in_a_weave_maze_keep_the_rule_and_the_tree(seed, density):
    """Read from the saved file: every room entered only by its doors, the maze one tree
    with each room taken as one node, the weave rule kept, and no crossing within two
    steps of a room."""
    from mazeart.rooms import resolve_rooms

    maze = weave_maze(np.zeros((14, 16), np.int32), seed, density=density,
                      rooms=resolve_rooms(ROOMS, (14, 16)))  # fmt: skip
    check_weave(maze)
    doc, graph, above, rows, cols = from_file(dumps(maze))
    n = rows * cols
    check_from_file(doc, graph, above, n)
    rooms = {room["name"]: {int(c) for c in room["cells"]} for room in doc["rooms"]}
    assert {name: len(cells) for name, cells in rooms.items()} == {"hall": 12, "nook": 4}
    owner = {c: name for name, cells in rooms.items() for c in cells}
    for name, cells in rooms.items():
        ways_out = [(a, b) for a in cells for b in graph.neighbors(a) if b not in cells]
        doors = next(r for r in doc["rooms"] if r["name"] == name)["doors"]
        assert set(ways_out) == {(a, b) for a, b in doors} and len(doors) == len(ways_out)
    as_drawn = drawn(maze, scale=8)  # the rooms' floors drawn open and walled
    assert as_drawn["reachable"] == 1.0 and as_drawn["leaks"] == as_drawn["pockets"] == 0
    contracted = nx.relabel_nodes(graph, lambda c: owner.get(c, c))
    contracted.remove_edges_from([(a, b) for a, b in contracted.edges if a == b])
    assert nx.is_tree(contracted), "with each room one node, the maze is one tree"
    for u in graph.nodes:
        if u >= n:
            r, c = divmod(above[u], cols)
            near = [divmod(x, cols) for x in owner]
            assert min(abs(r - y) + abs(c - x) for y, x in near) > 2


def test_the_shortest_path_goes_under_and_may_pass_a_crossing_twice():
    g = weave_grid(3, 3)  # cells 0-8, under node 9 below cell 4
    links = [(1, 9), (7, 9), (3, 4), (4, 5), (0, 1), (0, 3), (2, 5), (6, 7), (7, 8)]
    maze = Maze(np.ones(10, bool), opened(g, links), grid=g, entrance=1, exit=7)
    check_weave(maze)
    assert solve(maze).tolist() == [1, 9, 7]  # straight down, under the corridor 3-4-5
    for method in ("bfs", "astar", "dead-end-filling"):
        path = solve(maze, method=method, start=6, goal=5)
        assert path.tolist() == [6, 7, 9, 1, 0, 3, 4, 5]  # under cell 4, then over it
        check_walk(maze.replace(entrance=6, exit=5), path)


def test_crossings_occur_at_density_0_3_and_never_at_0():
    rect = np.zeros((20, 20), np.int32)
    for seed in range(5):
        maze = weave_maze(rect, seed, density=0.3)
        check_weave(maze)
        assert len(crossings(maze)) >= 10
        assert maze.n_passages == maze.n_cells - 1  # one tree
        plain = weave_maze(rect, seed, density=0.0)
        assert crossings(plain) == [] and not plain.mask[400:].any()
        assert plain.n_passages == plain.n_cells - 1 == 399


def test_the_same_seed_makes_the_same_maze():
    preset = np.zeros((9, 11), np.int32)
    preset[4, 2:9] = 1000
    a, b = weave_maze(preset, 17, density=0.6), weave_maze(preset, 17, density=0.6)
    assert a == b and dumps(a) == dumps(b)
    assert a != weave_maze(preset, 18, density=0.6)
    assert weave_maze(preset, np.random.default_rng(1)).meta["seed"] is None
    assert isinstance(weave_maze(preset).meta["seed"], int)


def test_a_part_joined_only_through_a_crossing_cell_stays_one_tree():
    # a plus: the middle cell is a crossing's only place, and its arms meet nowhere else
    preset = np.full((5, 5), 1000, np.int32)
    preset[2, :] = preset[:, 2] = 0
    for seed in range(20):
        maze = weave_maze(preset, seed, density=1.0, islands="separate")
        check_weave(maze)
        assert maze.n_passages == maze.n_cells - 1 == 8
        assert not maze.mask[25:].any()  # the crossing became a plain junction


def test_bridges_avoid_crossing_cells_and_under_nodes():
    g = weave_grid(3, 3)
    mask = np.zeros(10, bool)
    mask[[1, 7]] = True
    free_way = connect(Maze(mask, np.zeros(g.n_walls, bool), grid=g))
    # straight through the middle cell, never through an under node (a tunnel with no crossing)
    assert free_way.n_cells == 3 and free_way.mask[4] and not free_way.mask[9]
    # a crossing at 4: the over corridor 3-4-5, a tunnel 1-9-7 under it; two parts
    mask = np.zeros(10, bool)
    mask[[1, 3, 4, 5, 7, 9]] = True
    crossing = Maze(mask, opened(g, [(3, 4), (4, 5), (1, 9), (7, 9)]), grid=g)
    joined = connect(crossing)
    new = joined.passages & ~crossing.passages
    assert joined.n_cells == 7 and new.sum() == 2  # around a corner: one bridge cell
    assert not np.isin(g.wall_cells[new], [4, 9]).any()
    check_weave(joined)


def test_check_weave_names_what_breaks_the_rule():
    g = weave_grid(3, 3)
    good = [(1, 9), (7, 9), (3, 4), (4, 5)]
    check_weave(Maze(np.ones(10, bool), opened(g, good), grid=g))
    turn = "under node 9 (under cell 4) has passages through N, W, not N and S or E and W"
    dead_end = "under node 9 (under cell 4) has passages through N, not N and S or E and W"
    not_across = "cell 4 over a corridor that passes under it is not a straight corridor"
    cases = [
        (turn, [(1, 9), (3, 9)]),
        (dead_end, [(1, 9), (3, 4), (4, 5)]),
        (not_across, [(1, 9), (7, 9), (3, 4), (4, 5), (1, 4)]),  # cell 4 joins 1 twice
        (not_across, [(1, 9), (7, 9), (3, 4)]),  # half a corridor over it
        (not_across, [(1, 9), (7, 9), (1, 4), (4, 7)]),  # over it the same way
    ]
    for message, pairs in cases:
        with pytest.raises(InvalidMazeError, match=re.escape(message)):
            check_weave(Maze(np.ones(10, bool), opened(g, pairs), grid=g))
    without_cell = np.ones(10, bool)
    without_cell[4] = False
    with pytest.raises(InvalidMazeError, match=re.escape(not_across)):
        check_weave(Maze(without_cell, opened(g, [(1, 9), (7, 9)]), grid=g))
    with pytest.raises(InvalidMazeError, match="weave grid, not the square grid"):
        check_weave(Maze(np.ones(4, bool), np.zeros(12, bool), grid=square_grid(2, 2)))
    # a generated maze with one side of a crossing cell opened
    maze = weave_maze(np.zeros((12, 12), np.int32), 5, density=0.5)
    cell, across = crossings(maze)[0]
    side = maze.grid.wall_between(cell, cell - 12 if across else cell - 1)
    check_weave(maze)
    with pytest.raises(InvalidMazeError, match=f"cell {cell} over"):
        check_weave(maze.replace(passages=maze.passages | (np.arange(maze.grid.n_walls) == side)))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"density": -0.1}, "density"),
        ({"density": 1.5}, "density"),
        ({"islands": "merge"}, "islands"),
    ],
)
def test_bad_options_are_refused_in_one_line(kwargs, message):
    with pytest.raises(MazeartError, match=message):
        weave_maze(np.zeros((4, 4), np.int32), 1, **kwargs)


def test_a_preset_without_free_cells_and_a_bad_inset_are_refused():
    with pytest.raises(MazeartError, match="no free cell"):
        weave_maze(np.full((3, 3), 1000, np.int32), 1)
    maze = weave_maze(np.zeros((3, 3), np.int32), 1)
    for inset in (0.0, 0.5, -1.0):
        with pytest.raises(MazeartError, match="inset"):
            weave_walls(maze, inset=inset)
        with pytest.raises(MazeartError, match="inset"):
            weave_floor(maze, inset=inset)


# ----------------------------------------------------------------------------- drawing

UNIT, MARGIN = 40, 10


def render(maze: Maze, inset: float) -> Image.Image:
    cols, rows = int(maze.grid.params["cols"]), int(maze.grid.params["rows"])
    img = Image.new("L", (cols * UNIT + 2 * MARGIN, rows * UNIT + 2 * MARGIN), 255)
    draw = ImageDraw.Draw(img)
    for line in weave_walls(maze, inset=inset):
        draw.line([(MARGIN + x * UNIT, MARGIN + y * UNIT) for x, y in line], fill=0, width=3)
    return img


def ink(img: Image.Image, x: float, y: float) -> bool:
    return img.getpixel((round(MARGIN + x * UNIT), round(MARGIN + y * UNIT))) < 128


@pytest.mark.parametrize("seed", range(4))
def test_the_drawing_shows_each_crossing_and_opens_each_passage(seed):
    inset = 0.2
    maze = weave_maze(np.zeros((8, 8), np.int32), seed, density=0.6)
    img = render(maze, inset)
    cols = 8
    found = crossings(maze)
    assert found
    along = np.linspace(0.02, 0.98, 30)
    inside = np.linspace(inset + 0.08, 1 - inset - 0.08, 12)
    for cell, across in found:
        r, c = divmod(cell, cols)
        for near in (inset, 1 - inset):
            if across:  # the over corridor's sides y = r + inset, r + 1 - inset
                assert all(ink(img, c + t, r + near) for t in along), "over side broken"
                assert not any(ink(img, c + near, r + t) for t in inside), "no gap under"
                assert ink(img, c + near, r + inset / 2) and ink(img, c + near, r + 1 - inset / 2)
            else:
                assert all(ink(img, c + near, r + t) for t in along), "over side broken"
                assert not any(ink(img, c + t, r + near) for t in inside), "no gap under"
                assert ink(img, c + inset / 2, r + near) and ink(img, c + 1 - inset / 2, r + near)
    g = maze.grid
    gap = np.linspace(-inset + 0.08, inset - 0.08, 5)
    for a, b in maze.links().tolist():
        if b >= 64:  # a tunnel: open up to the crossing's box, whose over side stays
            cell = g.cell_at(*g.centres[b])
            mid = (g.centres[a] + g.centres[cell]) / 2
            assert not ink(img, *mid)
            continue
        r, c = divmod(a, cols)
        if b == a + 1:  # no wall between the boxes, across the whole strip
            assert not any(ink(img, c + 1 + dx, r + t) for dx in gap for t in inside)
        else:
            assert not any(ink(img, c + t, r + 1 + dy) for dy in gap for t in inside)
    # walls stand between boxes with no passage over or under the side between them
    sides = {(a, g.cell_at(*g.centres[b])) if b >= 64 else (a, b)
             for a, b in maze.links().tolist()}  # fmt: skip
    sides |= {(b, a) for a, b in sides}
    for r in range(8):
        for c in range(8):
            a = r * 8 + c
            if c < 7 and (a, a + 1) not in sides:
                assert ink(img, c + 1 - inset, r + 0.5) and ink(img, c + 1 + inset, r + 0.5)
            if r < 7 and (a, a + 8) not in sides:
                assert ink(img, c + 0.5, r + 1 - inset) and ink(img, c + 0.5, r + 1 + inset)
    # the entrance and the exit open through an outer side
    for end in (maze.entrance, maze.exit):
        r, c = divmod(end, cols)
        outer = [(c + 0.5, r), (c + 0.5, r + 1), (c, r + 0.5), (c + 1, r + 0.5)]
        edge = [p for p in outer if p[0] in (0, 8) or p[1] in (0, 8)]
        assert any(not ink(img, *p) for p in edge)


@pytest.mark.parametrize("density", [0.0, 0.5])
def test_the_walls_bound_the_floor(density):
    inset = 0.25
    maze = weave_maze(np.zeros((10, 9), np.int32), 3, density=density)
    rings = weave_floor(maze, inset=inset)
    walls = weave_walls(maze, inset=inset)
    signed = [shapely.Polygon(r).area * (1 if _shoelace(r) > 0 else -1) for r in rings]
    outside = [shapely.Polygon(r) for r, s in zip(rings, signed, strict=True) if s > 0]
    holes = [shapely.Polygon(r) for r, s in zip(rings, signed, strict=True) if s < 0]
    floor = shapely.difference(shapely.union_all(outside), shapely.union_all(holes))
    assert floor.area == pytest.approx(sum(signed))
    boxes = maze.mask[:90].sum() * (1 - 2 * inset) ** 2
    strips = maze.n_passages * 2 * inset * (1 - 2 * inset)  # a tunnel reaches the crossing
    doors = 2 * inset * (1 - 2 * inset)  # the entrance's and the exit's
    assert floor.area == pytest.approx(boxes + strips + doors)
    drawn = shapely.MultiLineString([w.tolist() for w in walls])
    # every wall lies on the floor's boundary, but the over sides across the gaps
    over = len(crossings(maze)) * 2 * (1 - 2 * inset)
    assert drawn.difference(floor.boundary.buffer(1e-9)).length == pytest.approx(over)
    # and walls bound the floor everywhere but at the two doors, on the grid's edge
    rest = floor.boundary.difference(drawn.buffer(1e-9))
    assert rest.length == pytest.approx(2 * (1 - 2 * inset))
    for line in shapely.get_parts(rest):
        (ax, ay), (bx, by) = line.coords[0], line.coords[-1]
        assert (ax == bx and ax in (0, 9)) or (ay == by and ay in (0, 10))


def _shoelace(p: np.ndarray) -> float:
    x, y = p[:, 0], p[:, 1]
    return float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y) / 2.0)


@settings(max_examples=25)
@given(preset=presets(max_side=10), seed=st.integers(0, 2**32 - 1))
def test_walls_and_floor_are_drawn_for_any_preset(preset, seed):
    maze = weave_maze(preset, seed, density=0.5, islands="separate")
    walls, rings = weave_walls(maze), weave_floor(maze)
    assert all(w.shape == (2, 2) and np.ptp(w, axis=0).min() == 0 for w in walls)
    cells = maze.mask[: preset.size].sum()
    assert sum(_shoelace(r) for r in rings) >= cells * 0.6**2 - 1e-9


def test_prune_and_braid_shape_a_weave_maze_and_keep_its_crossings():
    """``prune`` and ``braid`` in :func:`mazeart.make` with ``weave``: fewer dead ends, loops,
    the weave rule kept, the crossings still there."""
    import mazeart

    plain = mazeart.make("24x18", weave=0.5, rng=3).maze
    shaped = mazeart.make("24x18", weave=0.5, rng=3, prune=True, braid=0.5).maze
    check_weave(shaped)
    n = 24 * 18
    assert shaped.mask[n:].any(), "no crossing left"
    degree = np.bincount(shaped.grid.wall_cells[shaped.passages].ravel(), minlength=n)[:n]
    before = np.bincount(plain.grid.wall_cells[plain.passages].ravel(), minlength=n)[:n]
    assert (degree[shaped.mask[:n]] == 1).sum() < 0.5 * (before[plain.mask[:n]] == 1).sum()
    assert shaped.n_passages > shaped.n_cells - 1  # loops


def test_the_ends_of_a_weave_maze_can_be_chosen():
    """``entrance`` and ``exit`` as square cells ``(row, col)``: kept, with their doors drawn
    on the side they face; one alone gets the cell farthest from it; a cell off the grid is a
    one-line refusal."""
    import mazeart
    from mazeart.solvers import distances

    maze = mazeart.make("20x14", weave=0.5, rng=1, entrance=(0, 3), exit="13,10").maze
    assert (maze.entrance, maze.exit) == (3, 13 * 20 + 10)
    check_weave(maze)
    assert drawn(maze, scale=8)["doors"]  # both open onto the ground, as drawn
    one = mazeart.make("20x14", weave=0.5, rng=1, entrance=(0, 3)).maze
    far = distances(one, one.entrance)
    assert one.entrance == 3 and far[one.exit] == far[: 20 * 14].max()
    with pytest.raises(MazeartError, match=r"exit \(14, 0\) is outside the 14 x 20 grid"):
        mazeart.make("20x14", weave=0.5, rng=1, exit=(14, 0))


def test_braid_tags_and_the_next_levels_keep_the_crossings():
    """Braiding opens no wall of a crossing or a tunnel, no tag hides under a crossing, and
    a saved weave maze played again gets weave mazes."""
    import mazeart
    from mazeart.pipeline import play_levels

    maze = mazeart.make("14x11", weave=0.6, rng=0).maze
    n = 14 * 11
    for seed in range(10):
        check_weave(mazeart.braid(mazeart.make("14x11", weave=0.6, rng=seed).maze, 1.0, rng=seed))
    tagged = mazeart.place_tags(maze, "trap=15,spawn=10", rng=1)
    under = set(np.flatnonzero(maze.mask[n:]) + n)
    from mazeart.grids._weavegrid import under_layout

    cell_of, _ = under_layout(int(maze.grid.params["rows"]), int(maze.grid.params["cols"]))
    crossings = {int(cell_of[u - n]) for u in under}  # the cells the tunnels pass under
    assert crossings
    assert not (set(tagged.tags) & (under | crossings))
    levels = play_levels(maze, rng=2)
    for i in range(3):
        check_weave(levels(i))
