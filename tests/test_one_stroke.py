"""One pen stroke per group of lines: checked against GEOS's noding, networkx's graphs and
matchings, and the file as vpype reads it."""

from __future__ import annotations

import itertools
import re
import subprocess

import networkx as nx
import numpy as np
import pytest
import shapely
from conftest import REPO, run_cli
from hypothesis import given
from hypothesis import strategies as st
from test_scene import layer_lines, read_vpype, tool

from mazeart import generate, make
from mazeart.export import to_svg
from mazeart.export.scene import Lines
from mazeart.export.stroke import node_segments, plan_strokes
from mazeart.grids.recipe import GRID_KINDS

HORSE = REPO / "samples" / "horse.png"


def reference_graph(segs: np.ndarray, grid: float | None = None) -> nx.Graph:
    """The drawing as a graph, noded by GEOS (shapely) rather than by mazeart: a vertex
    wherever lines meet, an edge per piece between, weighted by its length. With
    ``grid``, noded by GEOS's snap-rounding overlay at that precision (lines that meet
    in a file's rounded numbers meet a hair off)."""
    lines = shapely.MultiLineString([s.reshape(2, 2) for s in segs])
    graph = nx.Graph()
    noded = shapely.node(lines) if grid is None else shapely.union_all(lines, grid_size=grid)
    for piece in getattr(noded, "geoms", [noded]):
        c = np.asarray(piece.coords)
        for p, q in itertools.pairwise(c):
            a, b = tuple(np.round(p, 5)), tuple(np.round(q, 5))
            if a != b:
                graph.add_edge(a, b, weight=float(np.hypot(*(q - p))))
    return graph


def least_retrace(graph: nx.Graph) -> float:
    """The least length an open pen stroke per group retraces: per group, a least-weight
    matching of its odd vertices by shortest paths, two of them free (networkx's exact
    blossom matching)."""
    total = 0.0
    for group in nx.connected_components(graph):
        sub = graph.subgraph(group)
        odd = [v for v in sub if sub.degree(v) % 2]
        if not odd:
            continue
        pairs = nx.Graph()
        for v in odd:
            far = nx.single_source_dijkstra_path_length(sub, v, weight="weight")
            for u in odd:
                if u != v:
                    pairs.add_edge(v, u, weight=-far[u])
            pairs.add_edge(v, "free 1", weight=0.0)
            pairs.add_edge(v, "free 2", weight=0.0)
        pairs.add_edge("free 1", "free 2", weight=0.0)
        matching = nx.max_weight_matching(pairs, maxcardinality=True, weight="weight")
        total -= sum(pairs[a][b]["weight"] for a, b in matching)
    return total


def pen_down_length(lines: Lines) -> float:
    return float(sum(np.hypot(*np.diff(line, axis=0).T).sum() for line in lines))


def ink(segs: np.ndarray):
    return shapely.union_all(shapely.MultiLineString([s.reshape(2, 2) for s in segs]))


def assert_same_ink(before: np.ndarray, after: Lines, tol: float = 1e-6) -> None:
    """The stroke draws every piece of the drawing and nothing else (up to ``tol``)."""
    a, b = ink(before), ink(after.segments())
    assert shapely.difference(a, b.buffer(tol)).length < tol
    assert shapely.difference(b, a.buffer(tol)).length < tol


FILE = 1e-3
"""How near two points of an SVG as vpype reads it are one (its numbers have four places,
and vpype's millimetres are scaled back to the drawing's units)."""


@st.composite
def drawings(draw):
    """Segments on a small lattice (walls), with a few crossing diagonals and repeats."""
    n = draw(st.integers(1, 40))
    out = []
    for _ in range(n):
        x, y = draw(st.integers(0, 6)), draw(st.integers(0, 6))
        kind = draw(st.sampled_from(["h", "v", "h2", "d"]))
        if kind == "h":
            out.append((x, y, x + 1, y))
        elif kind == "v":
            out.append((x, y, x, y + 1))
        elif kind == "h2":  # a run over two units, which others meet in its middle
            out.append((x, y, x + 2, y))
        else:
            out.append((x, y, x + draw(st.integers(1, 3)), y + draw(st.integers(-2, 2))))
    return np.array(out, np.float64)


@given(drawings())
def test_one_stroke_per_group_draws_the_same_ink(segs):
    plan = plan_strokes(Lines.from_segments(segs))
    graph = reference_graph(segs)
    assert plan.strokes == nx.number_connected_components(graph)
    assert_same_ink(segs, plan.lines)
    assert plan.drawn == pytest.approx(graph.size(weight="weight"), rel=1e-9)
    # the pen goes down once per stroke: its length is the ink and what it retraces
    assert pen_down_length(plan.lines) == pytest.approx(plan.drawn + plan.retraced, rel=1e-9)
    assert plan.retraced >= least_retrace(graph) - 1e-6  # nothing beats the least


@given(drawings().filter(lambda s: len(s) <= 25))
def test_retracing_is_the_least_on_forests(segs):
    """On a drawing without loops (a perfect maze's walls are trees) the pairing is exact."""
    graph = reference_graph(segs)
    if not nx.is_forest(graph):
        return
    plan = plan_strokes(Lines.from_segments(segs))
    assert plan.retraced == pytest.approx(least_retrace(graph), abs=1e-6)


def test_noding_agrees_with_geos():
    rng = np.random.default_rng(3)
    segs = rng.integers(0, 8, size=(60, 4)).astype(np.float64)
    ours = node_segments(segs)
    theirs = reference_graph(segs)
    graph = nx.Graph()
    for x0, y0, x1, y1 in ours:
        a, b = (round(x0, 5), round(y0, 5)), (round(x1, 5), round(y1, 5))
        if a != b:
            graph.add_edge(a, b)
    assert set(map(frozenset, graph.edges)) == set(map(frozenset, theirs.edges))


@pytest.mark.parametrize("kind", [k for k in GRID_KINDS if k not in ("weave",)] + ["weave"])
def test_a_mazes_walls_retrace_the_least_on_every_grid(kind):
    opts = {"weave": True} if kind == "weave" else {"grid": kind}
    maze = make(HORSE, cells=14, rng=4, **opts).maze
    plain = read_vpype(to_svg(maze, plotter=True))
    segs = np.vstack([np.hstack([ln[:-1], ln[1:]]) for ln in layer_lines(plain, "walls")])
    one = read_vpype(to_svg(maze, plotter=True, one_stroke=True))
    strokes = layer_lines(one, "walls")
    graph = reference_graph(segs, FILE)
    ours = Lines.from_list(strokes)
    assert len(strokes) == nx.number_connected_components(graph)
    if kind != "weave":  # (the weave's outline is its own layer, joined to the walls)
        assert_same_ink(segs, ours, FILE)
        retraced = pen_down_length(ours) - graph.size(weight="weight")
        assert retraced == pytest.approx(least_retrace(graph), rel=1e-3, abs=1e-3)


@pytest.mark.parametrize("opts", [{"tone": True}, {"outline": "smooth"}, {"edges": True},
                                  {"tone": True, "grid": "hex"}, {"rooms": True}])  # fmt: skip
def test_one_stroke_keeps_every_line_of_the_picture(opts, tmp_path):
    """Tone's parallel pen lines, rooms' hatching, the smooth outline and the design's
    edges: as many strokes as the drawing has separate groups, the same ink."""
    if opts.get("rooms"):
        from test_rooms import room_specs

        maze = generate(np.zeros((16, 20), np.int32), rng=5, rooms=room_specs(tmp_path))
    else:
        source = REPO / "samples" / ("logo.png" if "edges" in opts else "horse.png")
        maze = make(source, cells=24, rng=5, **opts).maze
    plain = read_vpype(to_svg(maze, plotter=True))
    one = read_vpype(to_svg(maze, plotter=True, one_stroke=True))
    names = ("walls", "outline", "edges")
    segs = np.vstack([np.hstack([ln[:-1], ln[1:]]) for name in names
                      for ln in layer_lines(plain, name)])  # fmt: skip
    strokes = layer_lines(one, "walls")
    assert not layer_lines(one, "outline") and not layer_lines(one, "edges")
    graph = reference_graph(segs, FILE)
    groups = nx.number_connected_components(graph)
    if "tone" in opts or "edges" in opts:
        # strokes wider than the pen are closed at their ends for one stroke: the same
        # lines and their ends, in no more groups
        assert len(strokes) <= groups
        a, b = ink(segs), ink(Lines.from_list(strokes).segments())
        assert shapely.difference(a, b.buffer(FILE)).length < FILE
    else:
        assert len(strokes) == groups
        assert_same_ink(segs, Lines.from_list(strokes), FILE)
    if opts.get("rooms"):  # the rooms' hatching: one stroke a room
        hatched = layer_lines(one, "rooms")
        assert 0 < len(hatched) <= len(maze.rooms) < len(layer_lines(plain, "rooms"))


def test_the_horse_plots_with_one_pen_lift_per_wall_group(tmp_path):
    """The command of the README: vpype reads as many wall paths as the walls have groups,
    and the picture is the same drawn either way."""
    plain, one = tmp_path / "plain.svg", tmp_path / "horse.svg"
    run_cli(HORSE, "-o", plain, "--plotter", "--seed", "3")
    done = run_cli(HORSE, "-o", one, "--plotter", "--one-stroke", "--seed", "3")
    assert done.returncode == 0, done.stderr
    walls = layer_lines(read_vpype(plain.read_text()), "walls")
    segs = np.vstack([np.hstack([ln[:-1], ln[1:]]) for ln in walls])
    strokes = layer_lines(read_vpype(one.read_text()), "walls")
    assert len(strokes) == nx.number_connected_components(reference_graph(segs, FILE)) == 2
    rsvg = tool("rsvg-convert")
    pictures = []
    for path in (plain, one):
        png = path.with_suffix(".png")
        subprocess.run([rsvg, "-w", "800", "-b", "white", path, "-o", png], check=True)
        from PIL import Image

        pictures.append(np.asarray(Image.open(png).convert("L")) < 128)
    a, b = pictures
    assert (a & b).sum() / (a | b).sum() > 0.97


def test_one_stroke_pdf_draws_the_walls_as_a_few_paths(tmp_path):
    out = tmp_path / "maze.pdf"
    done = run_cli("12x9", "-o", out, "--one-stroke", "--seed", "2", "--no-answer")
    assert done.returncode == 0, done.stderr
    from pypdf import PdfReader

    text = PdfReader(out).pages[0].get_contents().get_data().decode("latin-1")
    moves = len(re.findall(r"\bm\b", text))
    plain = tmp_path / "plain.pdf"
    run_cli("12x9", "-o", plain, "--seed", "2", "--no-answer")
    before = PdfReader(plain).pages[0].get_contents().get_data().decode("latin-1")
    assert moves < len(re.findall(r"\bm\b", before)) / 3


def test_one_stroke_is_not_a_png_option(tmp_path):
    done = run_cli("6x4", "-o", tmp_path / "m.png", "--one-stroke")
    assert done.returncode == 0
    assert "--one-stroke does not apply to .png output" in done.stderr
