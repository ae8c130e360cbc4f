"""Every public function that takes a maze takes one of every grid kind, or refuses it in one line.

Each maze is made through the public API on the square, hex, triangle, polar,
upsilon and weave grids, handed to every public function that takes a maze,
and what comes back is saved and read again with ``json`` alone: its passages
make a networkx graph (the square format's passage bits are decoded here, not
by the package), against which distances, paths, braiding, pruning, bridges
and tags are checked. A public function that takes a maze and is missing from
the table below fails the first test, so a new one cannot skip the other grids.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

import mazeart
from mazeart.errors import MazeartError
from mazeart.grids import GRIDS
from mazeart.mazefile import dumps

KINDS = list(GRIDS)  # every grid kind there is, the weave included


def make(source, kind: str, **options):
    if kind == "weave":
        return mazeart.make(source, weave=True, **options).maze
    return mazeart.make(source, grid=kind, **options).maze


def graph(maze) -> tuple[nx.Graph, object, object, dict]:
    """The saved maze as a networkx graph, with its entrance, exit and tags, read by json."""
    doc = json.loads(dumps(maze))
    g = nx.Graph()
    if doc["version"] == 2:  # rows of hex digits: passage bits N=1, E=2, S=4, W=8; "." no cell
        rows = doc["grid"]
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch in ".#":
                    continue
                bits = int(ch, 16)
                g.add_node((r, c))
                if bits & 2:
                    g.add_edge((r, c), (r, c + 1))
                if bits & 4:
                    g.add_edge((r, c), (r + 1, c))
        ends = [tuple(doc["entrance"]), tuple(doc["exit"])]
        tags = {(t[0], t[1]): t[2] for t in doc["tags"]}
    else:
        g.add_nodes_from(doc["cells"])
        g.add_edges_from(map(tuple, doc["passages"]))
        ends = [doc["entrance"], doc["exit"]]
        tags = {t[0]: t[1] for t in doc.get("tags", [])}
    return g, ends[0], ends[1], tags


def node(cell):
    return tuple(int(x) for x in cell) if np.ndim(cell) else int(cell)


def dead_ends(g: nx.Graph, *ends) -> int:
    return sum(1 for c, d in g.degree() if d == 1 and c not in ends)


# ------------------------------------------------------------------------ the public API


def check_distances(maze):
    g, entrance, _, _ = graph(maze)
    d = mazeart.distances(maze, maze.entrance)
    expected = nx.single_source_shortest_path_length(g, entrance)
    for cell, steps in expected.items():
        assert d[cell] == steps
    assert int((np.asarray(d) >= 0).sum()) == len(expected)


def check_solve(maze):
    g, entrance, exit_, _ = graph(maze)
    path = [node(c) for c in mazeart.solve(maze)]
    assert path[0] == entrance and path[-1] == exit_
    assert nx.is_path(g, path)
    assert len(path) - 1 == nx.shortest_path_length(g, entrance, exit_)


def check_random_paths(maze):
    loops = mazeart.braid(maze, 1.0, rng=2)
    g, entrance, exit_, _ = graph(loops)
    paths = mazeart.random_paths(loops, 3, rng=2)
    assert paths
    seen = set()
    for p in paths:
        cells = [node(c) for c in p]
        assert cells[0] == entrance and cells[-1] == exit_
        assert nx.is_path(g, cells) and len(set(cells)) == len(cells)
        seen.add(tuple(cells))
    assert len(seen) == len(paths)


def check_braid(maze):
    before, *_ = graph(maze)
    braided = mazeart.braid(maze, 1.0, rng=1)
    after, *_ = graph(braided)
    assert after.number_of_nodes() == before.number_of_nodes()
    assert nx.is_connected(after)
    assert dead_ends(after) < dead_ends(before)
    assert after.number_of_edges() > after.number_of_nodes() - 1  # loops


def check_prune(maze):
    before, entrance, exit_, _ = graph(maze)
    pruned = mazeart.prune_dead_ends(maze)
    after, *_ = graph(pruned)
    assert nx.is_tree(after)
    assert after.number_of_nodes() < before.number_of_nodes()
    assert entrance in after and exit_ in after
    for cell in set(before) - set(after):  # only dead ends went
        assert before.degree(cell) == 1


def check_connect(kind, tmp_path):
    from PIL import Image, ImageDraw

    picture = Image.new("L", (200, 100), 255)  # two discs apart: a maze in two parts
    draw = ImageDraw.Draw(picture)
    draw.ellipse((5, 10, 85, 90), fill=0)
    draw.ellipse((115, 10, 195, 90), fill=0)
    picture.save(tmp_path / "two.png")
    apart = make(str(tmp_path / "two.png"), kind, rng=4, islands="separate", cells=16)
    g, *_ = graph(apart)
    assert nx.number_connected_components(g) >= 2
    joined, *_ = graph(mazeart.connect(apart))
    assert nx.is_connected(joined)
    assert joined.number_of_edges() == joined.number_of_nodes() - 1


def check_place_tags(maze):
    tagged = mazeart.place_tags(maze, {"loot": 3, "spawn": 1}, rng=5)
    g, entrance, exit_, tags = graph(tagged)
    assert sorted(tags.values()) == ["loot", "loot", "loot", "spawn"]
    assert all(cell in g and cell not in (entrance, exit_) for cell in tags)
    assert all(g.degree(cell) == 1 for cell, kind in tags.items() if kind == "loot")


def check_measure(maze):
    g, entrance, exit_, _ = graph(maze)
    m = mazeart.measure(maze)
    assert m.cells == g.number_of_nodes()
    assert m.dead_ends == dead_ends(g, entrance, exit_)
    assert m.solution_length == nx.shortest_path_length(g, entrance, exit_) + 1


def check_default_endpoints(maze):
    """On a full grid, a perfect maze's entrance on the top row and exit on the bottom row
    are the two such cells farthest apart along the passages (networkx measures every
    pair); on the polar grid the entrance is the rim cell farthest from the centre, the
    exit; on the weave, whose crossings are no cells, the two cells on the outside
    farthest apart."""
    g, *_ = graph(maze)
    a, b = (node(c) for c in mazeart.default_endpoints(maze))
    assert a in g and b in g and a != b
    assert nx.is_tree(g)  # as made below: so the pair is exact
    steps = dict(nx.all_pairs_shortest_path_length(g))
    if not maze.mask.all():  # the weave's crossings: any two cells on the outside
        top = bottom = [int(v) for v in np.flatnonzero(maze.boundary)]
    elif maze.is_square:
        top = [v for v in g if v[0] == 0]
        bottom = [v for v in g if v[0] == maze.height - 1]
    elif maze.grid.kind == "polar":
        rim = np.hypot(*(maze.grid.centres - maze.grid.centres[0]).T)
        top, bottom = [int(v) for v in np.flatnonzero(rim >= rim.max() - 0.5)], [0]
    else:
        y = maze.grid.centres[:, 1]
        top = [int(v) for v in np.flatnonzero(y <= y.min() + 0.5)]
        bottom = [int(v) for v in np.flatnonzero(y >= y.max() - 0.5)]
    assert a in top and b in bottom
    assert steps[a][b] == max(steps[s][f] for s in top for f in bottom if s != f)


def check_save(maze, tmp_path: Path):
    g, *_ = graph(mazeart.load_maze(mazeart.save_maze(maze, tmp_path / "m.json")))
    assert nx.utils.graphs_equal(g, graph(maze)[0])
    for suffix in ("svg", "png", "pdf"):
        assert mazeart.save(maze, tmp_path / f"m.{suffix}").stat().st_size > 0


# name -> what calls it (on a maze of the kind; connect makes its own maze in two parts)
CALLS = {
    "distances": check_distances,
    "solve": check_solve,
    "random_paths": check_random_paths,
    "braid": check_braid,
    "prune_dead_ends": check_prune,
    "connect": None,
    "place_tags": check_place_tags,
    "measure": check_measure,
    "default_endpoints": check_default_endpoints,
    "save_maze": None,
}


def takes_a_maze(name: str) -> bool:
    value = getattr(mazeart, name)
    if not callable(value) or inspect.isclass(value):
        return False
    params = list(inspect.signature(value).parameters)
    return bool(params) and params[0] == "maze"


def test_every_public_function_of_a_maze_is_called_on_every_grid():
    public = {name for name in mazeart.__all__ if takes_a_maze(name)}
    assert public == set(CALLS), f"add {sorted(public - set(CALLS))} to CALLS"


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", sorted(CALLS))
def test_public_functions_take_a_maze_of_every_grid(name, kind, tmp_path):
    if name == "connect":
        check_connect(kind, tmp_path)
        return
    maze = make("9x7", kind, rng=3)
    if name == "save_maze":
        check_save(maze, tmp_path)
    else:
        CALLS[name](maze)


@pytest.mark.parametrize("kind", [k for k in KINDS if k != "weave"])
@pytest.mark.parametrize("seed", range(6))
def test_the_wall_follower_walks_one_side_of_the_path_on_every_grid(kind, seed):
    """In a tree, the left hand sweeps the branches on the left of the way to the goal and
    the right hand those on the right; branches beyond the goal stay unseen. So the two
    walks' steps add up to twice the edges of the part the start is in once the goal is
    taken away, plus the last step twice, and each walk is a walk of the saved maze that
    ends at the goal. (The turning order itself is checked on a maze worked out by hand:
    tests/test_saved_fixture.py.)"""
    from mazeart.solvers import wall_follower

    maze = make("12x9", kind, rng=seed)
    g, entrance, exit_, _ = graph(maze)
    rest = g.copy()
    rest.remove_node(exit_)
    near = rest.subgraph(nx.node_connected_component(rest, entrance))
    steps = 0
    for hand in ("left", "right"):
        path, walk = wall_follower(maze, hand=hand)
        cells = [node(c) for c in walk]
        assert cells[0] == entrance and cells[-1] == exit_ and nx.is_path(g, cells)
        assert [node(c) for c in path] == nx.shortest_path(g, entrance, exit_)
        steps += len(cells) - 1
    assert steps == 2 * near.number_of_edges() + 2


def test_a_weave_refuses_the_wall_follower_in_one_line():
    maze = make("6x5", "weave", rng=1)
    with pytest.raises(MazeartError) as err:
        mazeart.solve(maze, method="wall-follower")
    assert "\n" not in str(err.value) and "weave" in str(err.value)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_a_non_maze_is_a_type_error_naming_it(name):
    fn = getattr(mazeart, name)
    args = {"distances": (0,), "random_paths": (1,), "braid": (0.5,), "place_tags": ("loot=1",)}
    if name == "save_maze":
        args[name] = ("out.json",)
    with pytest.raises(TypeError, match="ndarray"):
        fn(np.zeros((3, 3), np.uint8), *args.get(name, ()))


@pytest.mark.parametrize("kind", ["hex", "polar", "weave"])
def test_best_of_keeps_the_hardest_candidate_on_every_grid(kind):
    def made(**options):
        if kind == "weave":
            return mazeart.make("14x10", weave=True, **options)
        return mazeart.make("14x10", grid=kind, algorithm="prim", **options)

    best = made(best_of=4, difficulty="hard", rng=3)
    assert best.candidates == 4
    seed = best.maze.meta["seed"]
    assert seed in range(3, 7)
    options = {} if kind == "weave" else {"difficulty": "hard"}
    scores = [mazeart.measure(made(rng=s, **options).maze).difficulty for s in range(3, 7)]
    assert graph(made(rng=seed, **options).maze)[0].edges == graph(best.maze)[0].edges
    assert mazeart.measure(best.maze).difficulty == max(scores)
