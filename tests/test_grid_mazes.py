"""Mazes on every grid, checked from the outside.

Every maze is saved, and the file is read back with ``json`` alone: its cells and
passages make a networkx graph, and the grid's neighbours are derived from the
cell polygons with shapely (two cells are neighbours when their outlines share a
boundary of positive length), not from the grid's own table. Over hypothesis-drawn
masks and seeds, for every grid and every graph generator: each free part is one
spanning tree, passages only join neighbours, nothing lies outside the mask; after
the connectivity pass there is one part; the saved file round-trips exactly. The
uniform generators are checked for uniformity on small hex and polar grids against
an enumeration of their spanning trees (chi-square).
"""

from __future__ import annotations

import functools
import itertools
import json
from collections import Counter

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import stats

from mazeart.grids import GRIDS, make_grid
from mazeart.grids.carve import GRAPH_ALGORITHMS, UNIFORM, carve_graph
from mazeart.grids.generate import generate_on_grid
from mazeart.mazefile import dumps, loads

SIZES = {
    "square": {"rows": 4, "cols": 5},
    "hex": {"rows": 4, "cols": 5},
    "triangle": {"rows": 3, "cols": 7},
    "polar": {"rings": 4},
    "upsilon": {"rows": 4, "cols": 5},
    "adaptive": {"rows": 2, "cols": 2, "levels": 2, "splits": "4EA="},  # 16 squares, 3 sizes
}
KINDS = sorted(SIZES)


@functools.cache
def grid(kind: str):
    return make_grid(kind, **SIZES[kind])


@functools.cache
def geometric_neighbours(kind: str) -> nx.Graph:
    """Neighbours from the cell outlines alone (shared boundary longer than a hair)."""
    from shapely.geometry import Polygon

    g = grid(kind)
    polys = [Polygon(g.polygon(i)) for i in range(g.n_cells)]
    out = nx.Graph()
    out.add_nodes_from(range(g.n_cells))
    for a, b in itertools.combinations(range(g.n_cells), 2):
        if polys[a].distance(polys[b]) > 1e-9:
            continue
        shared = polys[a].boundary.intersection(polys[b].boundary)
        if shared.length > 1e-6:
            out.add_edge(a, b, length=shared.length)
    for a in range(g.n_cells):
        out.nodes[a]["outline"] = polys[a].length
    return out


def from_file(text: str) -> tuple[dict, nx.Graph]:
    doc = json.loads(text)
    maze = nx.Graph()
    maze.add_nodes_from(doc["cells"])
    maze.add_edges_from(map(tuple, doc["passages"]))
    return doc, maze


@st.composite
def masks(draw, kind: str) -> np.ndarray:
    n = grid(kind).n_cells
    bits = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    free = np.array(bits, bool)
    if not free.any():
        free[draw(st.integers(0, n - 1))] = True
    return free


CASES = [(k, a) for k in KINDS for a in GRAPH_ALGORITHMS]


def test_every_grid_kind_is_tested():
    # the weave grid has its own generator and rules (tests/test_weave.py)
    assert set(GRIDS) - {"weave"} <= set(KINDS), "a grid without a size here goes untested"


@pytest.mark.parametrize(("kind", "algorithm"), CASES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_each_free_part_is_one_spanning_tree(kind, algorithm, data, seed):
    free = data.draw(masks(kind))
    weights = np.where(free, 0, 1000).astype(np.int32)
    alone = generate_on_grid(weights, grid(kind), algorithm=algorithm, rng=seed,
                             islands="separate")  # fmt: skip
    doc, maze = from_file(dumps(alone, version=3))
    adjacency = geometric_neighbours(kind)
    assert set(maze.nodes) == set(np.flatnonzero(free).tolist())  # nothing outside the mask
    for a, b in maze.edges:
        assert adjacency.has_edge(a, b), f"passage {a}-{b} joins cells that are not neighbours"
    parts = list(nx.connected_components(adjacency.subgraph(np.flatnonzero(free).tolist())))
    for part in parts:
        sub = maze.subgraph(part)
        assert nx.is_tree(sub), "a free part is not one spanning tree"
    assert nx.number_connected_components(maze) == len(parts)
    assert loads(dumps(alone, version=3)) == alone and dumps(
        loads(dumps(alone, version=3)), version=3
    ) == dumps(alone, version=3)

    joined = generate_on_grid(weights, grid(kind), algorithm=algorithm, rng=seed)
    doc, maze = from_file(dumps(joined, version=3))
    assert set(np.flatnonzero(free).tolist()) <= set(maze.nodes)  # bridges add cells only
    assert nx.is_tree(maze), "after the connectivity pass: one tree"
    for a, b in maze.edges:
        assert adjacency.has_edge(a, b)
    assert doc["entrance"] in maze and doc["exit"] in maze
    assert loads(dumps(joined, version=3)) == joined


@pytest.mark.parametrize("kind", ["hex", "polar", "upsilon"])
@pytest.mark.parametrize("algorithm", sorted(UNIFORM))
def test_uniform_generators_are_uniform_on_hex_and_polar(kind, algorithm):
    """(On the upsilon grid a square's random step folds the octagons' eight sides onto
    its four.)"""
    small = {"hex": {"rows": 2, "cols": 3}, "polar": {"rings": 2},
             "upsilon": {"rows": 2, "cols": 3}}[kind]  # fmt: skip
    g = make_grid(kind, **small)
    adjacency = nx.Graph()
    adjacency.add_nodes_from(range(g.n_cells))
    adjacency.add_edges_from(g.wall_cells[g.wall_cells[:, 1] >= 0].tolist())
    lap = nx.laplacian_matrix(adjacency).toarray().astype(float)
    trees = round(float(np.linalg.det(lap[1:, 1:])))
    enumerated = sum(1 for _ in nx.SpanningTreeIterator(adjacency))
    assert enumerated == trees  # the enumeration the counts are checked against
    rng = np.random.default_rng(2026)
    free = np.ones(g.n_cells, bool)
    counts = Counter(carve_graph(g, free, algorithm, rng).tobytes() for _ in range(trees * 40))
    assert len(counts) == trees
    observed = np.array(list(counts.values()))
    assert stats.chisquare(observed).pvalue > 0.001
    if algorithm == "wilson":  # the test can fail: a biased generator is rejected
        biased = Counter(
            carve_graph(g, free, "backtracker", rng).tobytes() for _ in range(trees * 40)
        )
        observed = np.array(list(biased.values()) + [0] * (trees - len(biased)))
        assert stats.chisquare(observed).pvalue < 1e-6


@pytest.mark.parametrize("kind", KINDS)
def test_solvers_agree_with_networkx(kind):
    from mazeart.solvers import solve

    g = grid(kind)
    maze = generate_on_grid(np.zeros(g.n_cells, np.int32), g, rng=3, braid=0.5)
    doc, graph = from_file(dumps(maze, version=3))
    want = nx.shortest_path_length(graph, doc["entrance"], doc["exit"])
    for method in ("bfs", "astar", "dead-end-filling"):
        path = [maze.cell_index(c) for c in solve(maze, method=method).tolist()]
        assert len(path) - 1 == want, method
        assert all(graph.has_edge(a, b) for a, b in itertools.pairwise(path))


def test_bad_saved_grid_files_are_refused():
    g = grid("hex")
    maze = generate_on_grid(np.zeros(g.n_cells, np.int32), g, rng=1)
    doc = json.loads(dumps(maze, version=3))
    not_neighbours = next(
        (a, b) for a, b in itertools.combinations(range(g.n_cells), 2)
        if not geometric_neighbours("hex").has_edge(a, b)
    )  # fmt: skip
    for change, message in [
        ({"grid": {"kind": "hexx", "params": {"rows": 4, "cols": 5}}}, "unknown grid"),
        ({"n_cells": 21}, "n_cells"),
        ({"passages": [list(not_neighbours)]}, "not neighbours"),
        ({"centres": doc["centres"][:-1]}, "centres"),
        ({"cells": [999]}, "outside"),
        ({"cells": [10**30]}, "outside"),  # beyond int64: still one line
        ({"passages": [[0, 10**30]]}, "outside"),
        ({"region": [10**30]}, "outside"),
        ({"passages": [[3, 3]]}, "not neighbours"),
        ({"entrance": 10**6}, "entrance"),
        ({"grid": {"kind": "hex", "params": {"rows": 10**6, "cols": 10**6}}}, "cells"),
    ]:
        with pytest.raises(ValueError, match=message):
            loads(json.dumps({**doc, **change}))


def test_round_mazes_lead_to_the_middle_and_full_grids_from_top_to_bottom():
    polar = make_grid("polar", rings=6)
    maze = generate_on_grid(np.zeros(polar.n_cells, np.int32), polar, rng=4)
    assert maze.exit == 0 and maze.boundary[maze.entrance]
    radius = np.hypot(*(polar.centres[maze.entrance] - polar.centres[0]))
    assert radius == pytest.approx(5.5, abs=0.01)  # on the outer ring
    hexes = make_grid("hex", rows=6, cols=8)
    maze = generate_on_grid(np.zeros(hexes.n_cells, np.int32), hexes, rng=4)
    assert maze.entrance < 8 and maze.exit >= 5 * 8  # top row in, bottom row out
    _, graph = from_file(dumps(maze, version=3))
    bottom = range(40, 48)
    lengths = nx.single_source_shortest_path_length(graph, maze.entrance)
    assert lengths[maze.exit] == max(lengths[c] for c in bottom)


@pytest.mark.parametrize("kind", ["hex", "triangle", "polar", "upsilon"])
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_a_perfect_maze_opens_at_the_two_outside_cells_farthest_apart(kind, data, seed):
    """Over random masks, the default ends of a perfect maze of one part are the pair of
    cells on its outside (a side on the grid's edge or on a cell that is no maze and no
    hole: joined to the edge by such cells) farthest apart, as networkx measures every
    pair (on a full grid the top row to the bottom one; on a polar grid with its centre
    the centre is the exit)."""
    from mazeart import default_endpoints

    free = data.draw(masks(kind))
    weights = np.where(free, 0, 1000).astype(np.int32)
    maze = generate_on_grid(weights, grid(kind), rng=seed)
    _, g = from_file(dumps(maze, version=3))  # the maze's cells (free ones and bridges)
    if g.number_of_nodes() < 2 or g.number_of_nodes() == len(free) or (kind == "polar" and 0 in g):
        return  # one cell; or the rules for full and round grids, tested above
    assert nx.is_tree(g)
    near = geometric_neighbours(kind)  # on the edge: its outline not all shared
    edge = {v for v in near if sum(e["length"] for *_, e in near.edges(v, data=True))
            < near.nodes[v]["outline"] - 1e-6}  # fmt: skip
    beyond = near.subgraph(v for v in near if v not in g)  # no maze: outside unless a hole
    out = set().union(*(c for c in nx.connected_components(beyond) if c & edge))
    outside = [v for v in g if v in edge or any(u in out for u in near[v])]
    a, b = default_endpoints(maze)
    steps = dict(nx.all_pairs_shortest_path_length(g))
    assert a in outside and b in outside
    assert steps[a][b] == max(steps[s][f] for s in outside for f in outside)


@pytest.mark.parametrize("kind", KINDS)
def test_saved_grid_mazes_follow_their_json_schema(kind):
    import jsonschema

    from mazeart.mazefile import schema

    g = grid(kind)
    maze = generate_on_grid(np.zeros(g.n_cells, np.int32), g, rng=2)
    doc = json.loads(dumps(maze, version=3))
    jsonschema.validate(doc, schema(3))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**doc, "passages": [[1]]}, schema(3))


@pytest.mark.parametrize("kind", ["hex", "triangle", "polar", "upsilon", "weave"])
def test_the_command_line_makes_saves_and_reads_every_grid(kind, tmp_path, horse_png):
    """`mazeart PICTURE --grid KIND` (or --weave) traces the picture; the saved file reads
    back in `info` and `solve`, and its passages make one tree over the figure's cells."""
    from conftest import run_cli

    flag = ["--weave"] if kind == "weave" else ["--grid", kind]
    run = run_cli(horse_png, "-o", tmp_path / "m.json", "--cells", "40", "--seed", "3", *flag)
    assert run.returncode == 0, run.stderr
    assert f"{kind} grid" in run.stderr
    doc, graph = from_file((tmp_path / "m.json").read_text())
    assert doc["grid"]["kind"] == kind and nx.is_tree(graph)
    assert nx.number_of_nodes(graph) > 200  # the horse, not a speck
    info = run_cli("info", tmp_path / "m.json", "--json")
    assert info.returncode == 0 and json.loads(info.stdout)["cells"] == graph.number_of_nodes()
    solved = run_cli("solve", tmp_path / "m.json", "-o", tmp_path / "s.svg")
    assert solved.returncode == 0 and "found a path of" in solved.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--grid", "hex", "-a", "eller"], "eller does not run on the hex grid"),
     (["--grid", "hex", "--outline", "smooth"], "a smooth outline read the picture; give one"),
     (["--grid", "polar", "--geometry", "blocks"], "blocks geometry"),
     (["--grid", "octagon"], "--grid must be one of"),
     (["--weave", "-a", "prim"], "Kruskal"),
     (["--weave", "--grid", "hex"], "square grid"),
     (["--grid", "hex", "-o", "m.txt"], "square grid only")],
)  # fmt: skip
def test_what_other_grids_do_not_do_is_one_line(args, message, tmp_path):
    from conftest import run_cli

    if "-o" not in args:
        args = [*args, "-o", str(tmp_path / "m.svg")]
    run = run_cli("12x8", *args, cwd=tmp_path)
    assert run.returncode == 2 and message in run.stderr, run.stderr
    assert len(run.stderr.splitlines()) == 1


@pytest.mark.parametrize("kind", ["hex", "polar", "weave"])
def test_tags_follow_their_rules_on_any_grid(kind, tmp_path):
    """Loot and keys at dead ends, NPCs at junctions, traps on the solution, none on the ends;
    saved and drawn (SVG dots with their kind)."""
    from mazeart import make, save

    grid = {"weave": {"weave": True}}.get(kind, {"grid": kind})
    made = make("14x10", rng=6, place="loot=3,key=1,npc=2,trap=2,spawn=2", **grid)
    maze = made.maze
    assert sorted(maze.tags.values()) == ["key", "loot", "loot", "loot", "npc", "npc", "spawn",
                                          "spawn", "trap", "trap"]  # fmt: skip
    _, graph = from_file(dumps(maze, version=3))
    path = nx.shortest_path(graph, maze.entrance, maze.exit)
    for cell, tag in maze.tags.items():
        assert cell not in (maze.entrance, maze.exit)
        if tag in ("loot", "key"):
            assert graph.degree(cell) == 1
        if tag == "npc":
            assert graph.degree(cell) >= 3
        if tag == "trap":
            assert cell in path
    assert loads(dumps(maze, version=3)) == maze
    save(made, tmp_path / "t.svg")
    svg = (tmp_path / "t.svg").read_text()
    assert svg.count('data-kind="loot"') >= 3 and 'id="legend"' in svg


def test_the_polar_grid_is_centred_where_asked(tmp_path):
    """A ring: centred on the figure's centroid, the middle cell lies in the ring's hole (no
    maze); centred on a point of the ring (centre=X,Y, picture pixels), it is maze."""
    from PIL import Image

    from mazeart import make

    yy, xx = np.mgrid[:400, :400]
    r = np.hypot(xx - 200, yy - 200)
    Image.fromarray(np.where((r > 120) & (r < 170), 0, 255).astype(np.uint8)).save(
        tmp_path / "ring.png"
    )
    plain = make(tmp_path / "ring.png", grid="polar", cells=40, rng=1).maze
    assert not plain.mask[0]
    moved = make(tmp_path / "ring.png", grid="polar", cells=40, rng=1, centre="55,200").maze
    assert moved.mask[0]
    with pytest.raises(ValueError, match="centre must be X,Y"):
        make(tmp_path / "ring.png", grid="polar", cells=40, centre="left")


@pytest.mark.parametrize("kind", ["hex", "polar"])
def test_an_end_given_on_another_grid_and_the_other_farthest(kind, tmp_path):
    """--entrance ID (the saved file's cell ids): the exit is the boundary cell farthest from
    it along the passages (networkx on the saved file); the refusals are one line."""
    from conftest import run_cli

    run = run_cli("14x10", "--grid", kind, "--entrance", "3", "--seed", "5",
                  "-o", tmp_path / "m.json")  # fmt: skip
    assert run.returncode == 0, run.stderr
    doc, graph = from_file((tmp_path / "m.json").read_text())
    assert doc["entrance"] == 3
    far = nx.single_source_shortest_path_length(graph, 3)
    maze = loads((tmp_path / "m.json").read_text())
    rim = [c for c in np.flatnonzero(maze.boundary).tolist() if c != 3]
    assert far[doc["exit"]] == max(far[c] for c in rim)
    for bad, message in (("2,3", "is a cell id"), ("99999", "is not a maze cell")):
        run = run_cli("14x10", "--grid", kind, "--exit", bad, "-o", tmp_path / "x.json")
        assert run.returncode == 2 and message in run.stderr and len(run.stderr.splitlines()) == 1
        assert not (tmp_path / "x.json").exists()


@pytest.mark.parametrize("kind", KINDS)
def test_the_grid_driver_finishes_as_the_square_one(kind):
    """generate_on_grid: a weight a cell, carved, joined, ended, braided and tagged by the
    same finishing steps as generate() (the ground cell stays out)."""
    from mazeart.errors import MazeartError

    g = grid(kind)
    free = np.ones(g.n_cells, bool)
    free[0] = False
    maze = generate_on_grid(np.where(free, 0, 1000).astype(np.int32), g, rng=3, braid=0.5,
                            place="loot=1")  # fmt: skip
    _, graph = from_file(dumps(maze, version=3))
    assert maze.grid.kind == kind and sorted(graph.nodes) == np.flatnonzero(free).tolist()
    assert nx.is_connected(graph) and set(graph.edges) <= set(geometric_neighbours(kind).edges)
    assert maze.meta["algorithm"] == "backtracker" and list(maze.tags.values()) == ["loot"]
    with pytest.raises(MazeartError, match="not a maze cell"):
        generate_on_grid(np.where(free, 0, 1000).astype(np.int32), g, rng=3, entrance=0)
