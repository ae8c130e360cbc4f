"""The solution as part of the art: routes, words and pictures the solution draws.

The maze is read back from its saved file by networkx alone: it must be a tree, and the one
path between its entrance and exit must be the route it recorded, passing where the route
was asked to go.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys

import networkx as nx
import numpy as np
import pytest
from conftest import REPO
from hypothesis import given, settings
from hypothesis import strategies as st

import mazeart
from mazeart.grids import make_grid
from mazeart.grids.generate import generate_on_grid
from mazeart.route import plan_route, read_route, stroke_points, text_picture

HORSE = REPO / "samples" / "horse.png"
GRIDS = ("square", "hex", "triangle", "polar", "upsilon")


def graph_of_saved(path) -> tuple[nx.Graph, dict]:
    """The maze's cells and passages from its saved file (format 2 or 3), by hand."""
    doc = json.loads(path.read_text())
    g = nx.Graph()
    if doc["version"] == 3:
        g.add_nodes_from(doc["cells"])
        g.add_edges_from(map(tuple, doc["passages"]))
        ends = (doc["entrance"], doc["exit"])
    else:
        rows = doc["grid"]
        width = len(rows[0])
        for r, row in enumerate(rows):
            for c, digit in enumerate(row):
                bits = 0 if digit == "." else int(digit, 16)
                if bits:
                    g.add_node(r * width + c)
                if bits & 2:
                    g.add_edge(r * width + c, r * width + c + 1)
                if bits & 4:
                    g.add_edge(r * width + c, (r + 1) * width + c)
        ends = tuple(e[0] * width + e[1] for e in (doc["entrance"], doc["exit"]))
    return g, {"ends": ends, "meta": doc["meta"]}


def the_one_path(path) -> list[int]:
    g, info = graph_of_saved(path)
    a, b = info["ends"]
    part = g.subgraph(nx.node_connected_component(g, a))
    assert nx.is_tree(part), "the maze holding the route is not a tree"
    return nx.shortest_path(part, a, b)


@pytest.mark.parametrize("grid", ["square", "hex"])
def test_the_solution_writes_the_words_and_is_the_one_way(grid, tmp_path):
    made = mazeart.make(HORSE, cells=80, rng=4, solution_text="HI", grid=grid)
    out = tmp_path / "m.json"
    mazeart.save(made, out)
    path = the_one_path(out)
    assert path == list(made.maze.meta["route"])
    # every stroke of the words lies within about half a cell of the path drawn
    from mazeart.image import figure_coverage, paint_over  # noqa: F401

    figure = figure_coverage(__import__("PIL.Image").Image.open(HORSE)) >= 0.5
    strokes = stroke_points(text_picture("HI"), figure)
    places = made.places()
    on = places[path]
    cell = float(np.median(np.hypot(*np.diff(on, axis=0).T)))
    from scipy.spatial import cKDTree

    gap, _ = cKDTree(on).query(strokes)
    assert np.mean(gap <= 0.75 * cell) > 0.95 and gap.max() < 2.5 * cell


@pytest.mark.parametrize("grid", ["square", "hex"])
def test_the_route_is_not_given_away_by_its_walls(grid):
    """Along the route the walls stand as densely as in the rest of the maze (within a
    tenth), and the solution offers wrong turns, as a plain maze of the size does."""
    made = mazeart.make(HORSE, cells=100, rng=2, solution_text="HI", grid=grid)
    maze = made.maze
    indptr = maze.open_table[0]
    open_sides = np.diff(indptr)
    g = maze.grid
    sides = np.diff(g.indptr) + np.bincount(g.wall_cells[g.wall_cells[:, 1] < 0, 0],
                                            minlength=g.n_cells)  # fmt: skip
    closed = 1 - open_sides / sides
    on = np.zeros(g.n_cells, bool)
    on[list(maze.meta["route"])] = True
    cells = maze.mask.reshape(-1)
    along, rest = closed[on].mean(), closed[cells & ~on].mean()
    assert abs(along / rest - 1) <= 0.1, (along, rest)
    plain = mazeart.measure(mazeart.make(HORSE, cells=100, rng=2, grid=grid).maze)
    drawn = mazeart.measure(maze)  # against the plain maze mazeart makes by default
    assert drawn.decisions / drawn.solution_length >= plain.decisions / plain.solution_length


def straight_shares(path) -> tuple[float, float]:
    """From a saved maze, by networkx and the cells' centres alone: the share of the one
    path's cells that are straight corridors (two passages, their neighbours on opposite
    sides: at least 150 degrees apart), and the same share in the rest of the maze."""
    doc = json.loads(path.read_text())
    g, _ = graph_of_saved(path)
    if doc["version"] == 3:
        centres = np.asarray(doc["centres"], float)
    else:
        width = len(doc["grid"][0])
        ids = np.arange(len(doc["grid"]) * width)
        centres = np.stack([ids % width, ids // width], axis=1).astype(float)
    on = set(the_one_path(path))

    def straight(c: int) -> bool:
        if g.degree(c) != 2:
            return False
        u, v = (centres[n] - centres[c] for n in g[c])
        return float(u @ v) / float(np.hypot(*u) * np.hypot(*v)) <= np.cos(np.radians(150))

    along = [straight(c) for c in on]
    rest = [straight(c) for c in g if c not in on]
    return float(np.mean(along)), float(np.mean(rest))


@pytest.mark.parametrize("grid", ["square", "hex"])
def test_a_hidden_words_strokes_do_not_show_as_straight_corridors(grid, tmp_path):
    """A word's strokes run straight, and a route that follows them cell by cell is a long
    straight corridor whose walls draw the word on the unsolved page (measured: three in
    four of its cells straight corridors, against three in ten in the rest of the maze).
    Going round beside them (the default wander) bends the route as the maze's own
    corridors bend: read from the saved file, its share of straight cells is within a
    quarter of the rest's, and without the wander it is not."""
    for seed in (1, 2):
        for wander, hidden in ((None, True), (0.0, False)):
            made = mazeart.make(HORSE, cells=90, rng=seed, solution_text="HI", grid=grid,
                                wander=wander)  # fmt: skip
            mazeart.save(made, tmp_path / "m.json")
            along, rest = straight_shares(tmp_path / "m.json")
            assert (along <= 1.25 * rest) == hidden, (seed, wander, along, rest)


def wrong_turn_depths(path) -> list[int]:
    """From a saved maze, by networkx alone: for each branch leaving the one path between
    the entrance and the exit, the most steps into it before it ends."""
    g, _ = graph_of_saved(path)
    on = set(the_one_path(path))
    rest = g.subgraph(set(g) - on)
    depths = []
    for part in nx.connected_components(rest):
        (door,) = [c for c in part if any(n in on for n in g[c])]  # a tree: one way in
        depths.append(1 + max(nx.single_source_shortest_path_length(rest, door).values()))
    return depths


@pytest.mark.parametrize(
    ("grid", "tone"), list(itertools.product(("square", "hex"), (False, True)))
)
def test_the_routes_wrong_turns_are_deeper_than_a_plain_mazes(grid, tone, tmp_path):
    """A solver leaving the route meets wrong turns no shallower than in the plain maze of
    the same picture and cells (the default generator, a depth-first one), and no fewer:
    measured, their mean depth is 3.2 to 6.6 times the plain maze's here (loop-erased walks
    grown from the route gave 0.9 to 3.2)."""
    for seed in (1, 2):
        made = mazeart.make(HORSE, cells=60, rng=seed, solution_text="HI", grid=grid, tone=tone)
        plain = mazeart.make(HORSE, cells=60, rng=seed, grid=grid, tone=tone)
        mazeart.save(made, tmp_path / "route.json")
        mazeart.save(plain, tmp_path / "plain.json")
        drawn, usual = (
            wrong_turn_depths(tmp_path / "route.json"),
            wrong_turn_depths(tmp_path / "plain.json"),
        )
        assert np.mean(drawn) >= 2 * np.mean(usual), (seed, np.mean(drawn), np.mean(usual))
        assert len(drawn) / len(the_one_path(tmp_path / "route.json")) >= len(usual) / len(
            the_one_path(tmp_path / "plain.json")
        )


@pytest.mark.parametrize("grid", GRIDS)
def test_the_maze_around_a_route_is_the_same_as_python_and_compiled(grid):
    from mazeart._jit import jit_mode

    mazes = []
    for mode in ("never", "always"):
        with jit_mode(mode):
            made = mazeart.make(HORSE, cells=30, rng=3, solution_text="HI", grid=grid)
        mazes.append(np.flatnonzero(made.maze.open_walls))
    assert np.array_equal(*mazes)


@st.composite
def lines_on_a_grid(draw):
    kind = draw(st.sampled_from(GRIDS))
    n = draw(st.integers(1, 3))
    lines = []
    for _ in range(n):
        k = draw(st.integers(2, 4))
        pts = draw(st.lists(st.tuples(st.floats(0.1, 0.9), st.floats(0.1, 0.9)),
                            min_size=k, max_size=k))  # fmt: skip
        lines.append(np.array(pts))
    return kind, lines, draw(st.integers(0, 2**31)), draw(st.floats(0, 1))


@settings(max_examples=40, deadline=None)
@given(lines_on_a_grid())
def test_any_route_on_any_grid_is_the_only_way_through(case):
    kind, lines, seed, decoys = case
    params = {"rings": 12} if kind == "polar" else {"rows": 14, "cols": 18}
    grid = make_grid(kind, **params)
    free = np.ones(grid.n_cells, bool)
    places = grid.centres / np.asarray(grid.size)
    try:
        route = plan_route(grid, free, places, lines=lines)
    except mazeart.MazeartError as err:  # a route that crosses itself is refused in a line
        assert "\n" not in str(err) and any(
            why in str(err) for why in ("crosses", "joined", "leaves", "walled in")
        )
        return
    steps = {tuple(pair) for pair in grid.wall_cells.tolist()}
    assert len(set(route.tolist())) == len(route)  # no cell twice
    for a, b in itertools.pairwise(route):
        assert (a, b) in steps or (b, a) in steps  # each a neighbour of the one before
    maze = generate_on_grid(np.zeros(grid.n_cells, np.int32), grid, rng=seed, route=route,
                            decoys=decoys)  # fmt: skip
    g = nx.Graph()
    g.add_nodes_from(range(grid.n_cells))
    opened = maze.open_walls
    g.add_edges_from(map(tuple, grid.wall_cells[opened & (grid.wall_cells[:, 1] >= 0)]))
    assert nx.is_tree(g)
    assert nx.shortest_path(g, int(route[0]), int(route[-1])) == route.tolist()
    for line in lines:  # the route passes over the lines' points, in their order
        _, near = __import__("scipy.spatial").spatial.cKDTree(places).query(line)
        assert set(near.tolist()) <= set(route.tolist())


@pytest.mark.parametrize("grid", GRIDS)
def test_a_hidden_words_route_wanders_on_every_grid(grid):
    """Every grid has detours for a word's strokes: a cell next to both ends of a step
    (hex), two (square, upsilon, polar), or four round the corner two triangles share (a
    triangle grid's cells meet in sixes, so no fewer lead round); by default the route
    takes them, and a route file's is followed as given."""
    made = {w: mazeart.make(HORSE, cells=60, rng=1, solution_text="HI", grid=grid, wander=w)
            for w in (None, 0.0)}  # fmt: skip
    bent, straight = (list(made[w].maze.meta["route"]) for w in (None, 0.0))
    assert len(bent) >= len(straight) + 6, (len(straight), len(bent))
    assert [c for c in bent if c in set(straight)] == straight


@settings(max_examples=40, deadline=None)
@given(lines_on_a_grid(), st.floats(0, 1))
def test_a_route_that_wanders_keeps_its_cells_in_order_and_is_the_only_way(case, share):
    """:func:`mazeart.route.wander` on any grid: the same ends, every cell of the route
    asked for in its order, each added cell within two steps of the step it goes round and
    beside no other part of the route; carved, the one path (networkx, from the walls) is
    the route the maze records."""
    from mazeart.route import wander

    kind, lines, seed, decoys = case
    params = {"rings": 12} if kind == "polar" else {"rows": 14, "cols": 18}
    grid = make_grid(kind, **params)
    free = np.ones(grid.n_cells, bool)
    try:
        route = plan_route(grid, free, grid.centres / np.asarray(grid.size), lines=lines)
    except mazeart.MazeartError:
        return
    bent = wander(grid, free, route, np.random.default_rng(seed), share=share)
    g = nx.Graph()
    g.add_edges_from(map(tuple, grid.wall_cells[grid.wall_cells[:, 1] >= 0].tolist()))
    assert bent[0] == route[0] and bent[-1] == route[-1]
    assert len(set(bent.tolist())) == len(bent)
    assert all(g.has_edge(a, b) for a, b in itertools.pairwise(bent.tolist()))
    place = {c: i for i, c in enumerate(bent.tolist())}
    assert [place[c] for c in route.tolist()] == sorted(place[c] for c in route.tolist())
    asked = set(route.tolist())
    for i, c in enumerate(bent.tolist()):
        if c not in asked:  # a detour's cell: beside the route only where it goes round
            j = i
            while bent[j] not in asked:
                j -= 1
            k = i
            while bent[k] not in asked:
                k += 1
            step = set(bent[j : k + 1].tolist())
            assert {n for n in g[c] if n in place} <= step
            near = nx.single_source_shortest_path_length(g, c, cutoff=2)
            assert int(bent[j]) in near or int(bent[k]) in near
    maze = generate_on_grid(np.zeros(grid.n_cells, np.int32), grid, rng=seed, route=route,
                            decoys=decoys, wander=share)  # fmt: skip
    assert list(maze.meta["route"]) == bent.tolist()
    carved = nx.Graph()
    carved.add_nodes_from(range(grid.n_cells))
    carved.add_edges_from(
        map(tuple, grid.wall_cells[maze.open_walls & (grid.wall_cells[:, 1] >= 0)])
    )
    assert nx.is_tree(carved)
    assert nx.shortest_path(carved, int(bent[0]), int(bent[-1])) == bent.tolist()


def run(*args, cwd=None):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "mazeart", *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd, env=env)


def test_a_route_file_on_the_command_line(tmp_path):
    route = tmp_path / "route.json"
    # turns at the centres of (row 10, column 15) and (row 1, column 15)
    route.write_text(json.dumps([[0.05, 0.525], [15.5 / 30, 0.525], [15.5 / 30, 0.075],
                                 [0.95, 0.075]]))  # fmt: skip
    out = tmp_path / "m.json"
    done = run("30x20", "--route", route, "--seed", "3", "-o", out)
    assert done.returncode == 0, done.stderr
    path = the_one_path(out)
    width = 30
    corner = 1 * width + 15  # (row 1, column 15): the route's turn at (0.5, 0.1)
    middle = 10 * width + 15  # (row 10, column 15): its turn at (0.5, 0.5)
    assert path.index(middle) < path.index(corner)
    svg = tmp_path / "route.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 200">'
                   '<path d="M 15 100 L 150 100 L 150 20 L 285 20"/></svg>')  # fmt: skip
    done = run("30x20", "--route", svg, "--seed", "3", "-o", tmp_path / "s.json")
    assert done.returncode == 0, done.stderr


def test_a_route_drawn_as_a_picture_of_a_line(tmp_path):
    from PIL import Image, ImageDraw

    # a layer over the 30 x 20 grid, 10 px a cell: turns at the centres of (row 10,
    # column 15) and (row 1, column 15), drawn dark on light
    line = [(5, 105), (155, 105), (155, 15), (295, 15)]
    img = Image.new("L", (300, 200), 255)
    ImageDraw.Draw(img).line(line, fill=0, width=5)
    img.save(tmp_path / "route.png")
    out = tmp_path / "m.json"
    done = run("30x20", "--route", tmp_path / "route.png", "--seed", "3", "-o", out)
    assert done.returncode == 0, done.stderr
    path = the_one_path(out)
    on_line = [10 * 30 + c for c in range(1, 15)] + [r * 30 + 15 for r in range(10, 1, -1)]
    on_line += [30 + c for c in range(16, 29)]
    assert [c for c in path if c in on_line] == on_line  # all of it, in the line's order
    assert len(path) <= len(on_line) + 4  # and little else: into the maze and out

    # opaque on a transparent layer, read as lines from its left end to its right one
    layer = Image.new("RGBA", (300, 200), (0, 0, 0, 0))
    ImageDraw.Draw(layer).line(line, fill=(20, 20, 20, 255), width=5)
    layer.save(tmp_path / "layer.png")
    (traced,) = read_route(tmp_path / "layer.png")
    drawn = np.asarray(line, float) / (300, 200)
    assert np.abs(traced[0] - drawn[0]).max() < 0.02 and np.abs(traced[-1] - drawn[-1]).max() < 0.02
    gaps = [min(np.hypot(*(p - q)) for q in np.linspace(drawn[i], drawn[i + 1], 300))
            for p in traced for i in range(3)]  # fmt: skip
    assert max(np.asarray(gaps).reshape(-1, 3).min(axis=1)) < 0.01


@pytest.mark.parametrize(
    ("points", "message"),
    [
        ([[0.2, 0.45], [0.6, 0.45], [0.4, 0.52], [0.4, 0.38]], "crosses itself"),
        ([[0.1, 0.1], [0.4, 0.1]], "leaves the figure"),
    ],
)
def test_a_route_that_cannot_be_is_one_line(tmp_path, points, message):
    route = tmp_path / "route.json"
    route.write_text(json.dumps(points))
    out = tmp_path / "m.svg"
    done = run(HORSE, "--route", route, "-o", out)
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert message in line and not out.exists()


@pytest.mark.parametrize(
    ("options", "message"),
    [({"decoys": 0.3}, "decoys shapes a route"), ({"wander": 0.5}, "wander shapes a route"),
     ({"decoys": 0.3, "wander": 0}, "decoys and wander shape a route")],
)  # fmt: skip
def test_what_shapes_a_route_is_refused_without_one(options, message, tmp_path):
    with pytest.raises(mazeart.MazeartError, match=message):
        mazeart.make("20x12", rng=1, **options)
    out = tmp_path / "x.svg"
    done = run("20x12", *[f"--{k}={v}" for k, v in options.items()], "-o", out)
    assert done.returncode == 2 and message in done.stderr and len(done.stderr.splitlines()) == 1
    assert not out.exists()


def test_a_route_refuses_what_would_open_another_way():
    with pytest.raises(mazeart.MazeartError, match="does not take braid"):
        mazeart.make("20x12", solution_text="A", braid=0.5, rng=1)
    with pytest.raises(mazeart.MazeartError, match="one route"):
        mazeart.make("20x12", solution_text="A", route="x.json", rng=1)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("1 6\n1e8 6\n", "leaves the picture"),
        ("0.01 0.01\n0.99 0.99\n" * 12_000, "at most 20,000 points"),
        ('{"points": 5}', "[x, y] pairs"),
        ("0.22 0\n0.22 0.9\n0.8 0.9\n0.8 0.3\n0.27 0.3\n0.27 0.6\n", "walled in"),
        ('<svg xmlns="http://www.w3.org/2000/svg"><g transform="translate(0,20)">'
         '<path d="M 1 1 L 9 9"/></g></svg>', "transform"),
    ],
)  # fmt: skip
def test_a_hostile_route_file_is_one_line_and_quick(tmp_path, content, message):
    route = tmp_path / "route.txt"
    route.write_text(content)
    with pytest.raises(mazeart.MazeartError, match=message.replace("[", r"\[")):
        mazeart.make("20x12", route=route, rng=1)


def test_a_route_leads_in_around_its_own_lines_and_opens_on_the_outer_edge(tmp_path):
    """The way in from the maze's edge does not take cells a later line needs, and no door
    opens onto a hole inside the figure."""
    route = tmp_path / "route.txt"
    route.write_text("0.2 0.5\n0.02 0.5\n")  # towards the edge it starts from
    maze = mazeart.make("20x12", route=route, rng=1).maze
    out = tmp_path / "m.json"
    mazeart.save(maze, out)
    assert the_one_path(out) == list(maze.meta["route"])
    preset = np.zeros((12, 20), np.int32)
    preset[4:8, 7:13] = mazeart.FORBIDDEN  # a hole in the middle
    near = tmp_path / "near.txt"
    near.write_text("0.3 0.3\n0.32 0.5\n")  # beside the hole
    holed = mazeart.make(preset, route=near, rng=1).maze
    for end in (holed.entrance, holed.exit):
        r, c = end
        assert r in (0, 11) or c in (0, 19)  # on the grid's border, not the hole's rim


def test_what_a_route_cannot_draw_is_reported(tmp_path):
    """A star's strokes cross: the route steps round, and the report says how much it drew."""
    from PIL import Image, ImageDraw

    star = Image.new("L", (400, 400), 255)
    a = np.pi / 2 + np.arange(6) * 4 * np.pi / 5
    ImageDraw.Draw(star).line(list(zip(200 + 170 * np.cos(a), 210 - 170 * np.sin(a),
                                       strict=True)), fill=0, width=10)  # fmt: skip
    star.save(tmp_path / "star.png")
    made = mazeart.make(HORSE, solution_picture=tmp_path / "star.png", rng=1)
    (warning,) = [w for w in made.warnings if "of the strokes" in w]
    share = int(warning.split("draws ")[1].split("%")[0])
    assert 50 <= share < 90
    assert not mazeart.make(HORSE, solution_text="HI", rng=1).warnings


def test_svg_paths_are_read_with_their_relative_steps_and_arcs():
    from mazeart.route import _path_lines

    (line,) = _path_lines("M 10 10 h 5 v 5 l -2 0 a 1 1 0 0110 0 L 40 40 z")
    assert line == [(10, 10), (15, 10), (15, 15), (13, 15), (23, 15), (40, 40), (10, 10)]


def test_two_pictures_in_one_maze(tmp_path):
    """With tone the walls draw the horse (thick where it is dark), and the solution writes
    the words: the one way through is still the route."""
    made = mazeart.make(HORSE, tone=True, solution_text="HI", cells=60, rng=2)
    maze = made.maze
    assert maze.guide.tone is not None and maze.meta["algorithm"] == "route"
    dark = np.asarray(maze.guide.tone).reshape(-1)
    assert dark.max() - dark.min() > 0.5  # the horse is in the walls' widths
    out = tmp_path / "m.json"
    mazeart.save(maze, out)
    assert the_one_path(out) == list(maze.meta["route"])
