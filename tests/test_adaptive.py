"""The adaptive grid, checked from the saved file.

Each maze is saved and read back with ``json`` alone; the grid's squares are decoded from
the file's parameters by the format's text (the schema's description of ``splits``: a bit
a node, level by level, each level's nodes by row and column, eight to a byte, base64),
written here again without the package. Over hypothesis-drawn pictures, sizes, levels,
seeds and every graph generator: the squares tile the grid and their centres are the
file's; the maze is one spanning tree over its cells; every passage joins two squares
that share a wall segment (shapely); squares side by side differ in size twice at most.
The rendered footprint is compared with the square grid's at the same count of maze cells.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw
from shapely.geometry import box

import mazeart
from mazeart.grids.carve import GRAPH_ALGORITHMS
from mazeart.mazefile import dumps

REPO = Path(__file__).resolve().parents[1]


def squares(params: dict) -> list[tuple[int, int, int]]:
    """The grid's squares ``(x, y, side)`` from its saved parameters, in reading order."""
    rows, cols, levels = params["rows"], params["cols"], params["levels"]
    raw = base64.b64decode(params["splits"])
    bits = [(byte >> (7 - k)) & 1 for byte in raw for k in range(8)]
    at = 0
    nodes = [(i, j) for i in range(rows) for j in range(cols)]  # this level's, by row and column
    leaves = []
    for level in range(levels + 1):
        side = 2 ** (levels - level)
        split = []
        for i, j in sorted(nodes):
            bit = bits[at] if level < levels and at < len(bits) else 0
            at += level < levels
            if bit:
                split.append((i, j))
            else:
                leaves.append((j * side, i * side, side))
        nodes = [(2 * i + a, 2 * j + b) for i, j in split for a in (0, 1) for b in (0, 1)]
    assert not any(bits[at:]), "bits left over"
    return sorted(leaves, key=lambda s: (s[1], s[0]))


@st.composite
def pictures(draw) -> Image.Image:
    """A few ellipses and bars on white: blobs with thin parts."""
    img = Image.new("L", (240, 180), 255)
    d = ImageDraw.Draw(img)
    for _ in range(draw(st.integers(1, 4))):
        x, y = draw(st.integers(10, 200)), draw(st.integers(10, 140))
        w, h = draw(st.integers(4, 120)), draw(st.integers(4, 90))
        if draw(st.booleans()):
            d.ellipse((x, y, x + w, y + h), fill=0)
        else:
            d.rectangle((x, y, x + w, y + h), fill=0)
    return img


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(picture=pictures(), cells=st.integers(6, 30), detail=st.integers(0, 3),
       algorithm=st.sampled_from(sorted(GRAPH_ALGORITHMS)),
       seed=st.integers(0, 2**32 - 1))  # fmt: skip
def test_an_adaptive_maze_is_a_spanning_tree_of_squares_that_share_walls(
    picture, cells, detail, algorithm, seed
):
    try:
        maze = mazeart.make(picture, grid="adaptive", cells=cells, detail=detail,
                            algorithm=algorithm, rng=seed, min_island=1).maze  # fmt: skip
    except mazeart.MazeartError as err:  # a picture too small for its cells
        assert "no cell" in str(err), err
        return
    doc = json.loads(dumps(maze))
    assert doc["grid"]["kind"] == "adaptive"
    params = doc["grid"]["params"]
    sq = squares(params)
    width, height = params["cols"] * 2 ** params["levels"], params["rows"] * 2 ** params["levels"]
    assert len(sq) == doc["n_cells"]
    assert sum(s * s for _, _, s in sq) == width * height  # they tile the grid ...
    centres = np.array([(x + s / 2, y + s / 2) for x, y, s in sq])
    assert np.allclose(centres, doc["centres"])  # ... in the file's ids
    boxes = [box(x, y, x + s, y + s) for x, y, s in sq]
    tree = nx.Graph()
    tree.add_nodes_from(doc["cells"])
    tree.add_edges_from(map(tuple, doc["passages"]))
    assert nx.is_tree(tree)
    for a, b in doc["passages"]:
        shared = boxes[a].intersection(boxes[b])
        assert shared.area == 0 and shared.length > 0, (a, b, shared)
        side_a, side_b = sq[a][2], sq[b][2]
        assert max(side_a, side_b) <= 2 * min(side_a, side_b)


def test_squares_side_by_side_differ_twice_at_most():
    picture = Image.open(REPO / "samples" / "horse.png")
    doc = json.loads(dumps(mazeart.make(picture, grid="adaptive", cells=30, detail=3,
                                        rng=1).maze))  # fmt: skip
    sq = squares(doc["grid"]["params"])
    assert len({s for _, _, s in sq}) >= 3  # refined, not uniform
    boxes = [box(x, y, x + s, y + s) for x, y, s in sq]
    from shapely.strtree import STRtree

    index = STRtree(boxes)
    for a, square in enumerate(boxes):
        for b in index.query(square, predicate="touches"):
            if square.intersection(boxes[b]).length > 0:  # a side shared, not a corner
                assert max(sq[a][2], sq[b][2]) <= 2 * min(sq[a][2], sq[b][2])


@pytest.mark.parametrize("name", ["horse", "logo"])
def test_the_adaptive_grid_has_the_square_mazes_cells_and_reads_closer(name):
    """At the same count of maze cells, the adaptive grid's footprint is closer to the
    figure than the square grid's (measured on the rendered floor)."""
    from test_grid_outline import footprint_iou

    picture = Image.open(REPO / "samples" / f"{name}.png")
    for cells in (16, 30):
        square = mazeart.make(picture, grid="square", cells=cells, rng=1, edges=False).maze
        adaptive = mazeart.make(picture, grid="adaptive", cells=cells, rng=1, edges=False).maze
        assert 0.85 * square.n_cells <= adaptive.n_cells <= 1.03 * square.n_cells
        plain = footprint_iou(square, picture, "square", cells)
        fine = footprint_iou(adaptive, picture, "adaptive", cells)
        assert fine >= plain + 0.02, (name, cells, plain, fine)


def test_a_word_reads_through_the_smooth_outline_with_narrow_bridges():
    """A word on the adaptive grid with the smooth outline at about 150 maze cells: its
    letters are islands joined by bridges drawn as corridors half a cell wide, not as
    blocks of big ground squares, so the rendered floor matches the word (IoU 0.954
    measured; 0.861 with the bridges drawn as cells)."""
    from PIL import ImageDraw, ImageFont
    from test_grid_outline import footprint_iou

    face = ImageFont.truetype(str(REPO / "mazeart" / "fonts" / "DejaVuSans.ttf"), 160)
    left, top, right, bottom = face.getbbox("Maze")
    word = Image.new("L", (right - left + 40, bottom - top + 40), 255)
    ImageDraw.Draw(word).text((20 - left, 20 - top), "Maze", font=face, fill=0)
    maze = mazeart.make(word, grid="adaptive", cells=47, rng=1, edges=False,
                        mode="silhouette", outline="smooth").maze  # fmt: skip
    assert footprint_iou(maze, word, "adaptive", 47) >= 0.93


def test_the_kids_puzzle_command(tmp_path):
    """The issue's command: a PDF of a horse at a 20-cell maze's difficulty, smooth outlined."""
    out = tmp_path / "kids.pdf"
    done = subprocess.run([sys.executable, "-m", "mazeart", str(REPO / "samples" / "horse.png"),
                           "-o", str(out), "--grid", "adaptive", "--cells", "20", "--outline",
                           "smooth", "--seed", "3"], capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert out.read_bytes().startswith(b"%PDF")
    assert "adaptive grid" in done.stderr


def test_bad_adaptive_parameters_are_one_line():
    from mazeart.grids import make_grid

    with pytest.raises(mazeart.MazeartError, match="not base64"):
        make_grid("adaptive", rows=2, cols=2, levels=1, splits="!!")
    with pytest.raises(mazeart.MazeartError, match="more bits"):
        make_grid("adaptive", rows=1, cols=1, levels=1, splits="/w==")
    with pytest.raises(mazeart.MazeartError, match="levels"):
        make_grid("adaptive", rows=1, cols=1, levels=9)
    with pytest.raises(mazeart.MazeartError, match="detail"):
        mazeart.make("20x10", grid="adaptive", detail=7)


@pytest.mark.parametrize("cells", [47, 60])
def test_a_bridge_across_the_ground_is_the_shortest_corridor(cells):
    """The adaptive grid's squares of the ground differ in size, so the fewest cells are not
    the shortest way: "Ma" at 47 cells was joined over the top of the M through big
    squares, 20 small squares long where 16 would do. Its two letters, carved apart, are
    joined by a corridor as long as the shortest across the ground, found by scipy's
    Dijkstra over the grid's neighbours (a step into a square of the ground costs its
    side)."""
    from PIL import ImageFont
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components, dijkstra

    from mazeart.shape import connect

    face = ImageFont.truetype(str(REPO / "mazeart" / "fonts" / "DejaVuSans.ttf"), 160)
    left, top, right, bottom = face.getbbox("Ma")
    word = Image.new("L", (right - left + 40, bottom - top + 40), 255)
    ImageDraw.Draw(word).text((20 - left, 20 - top), "Ma", font=face, fill=0)
    apart = mazeart.make(word, cells=cells, rng=1, grid="adaptive", islands="separate").maze
    g, mask, n = apart.grid, apart.mask, apart.grid.n_cells
    indptr, indices = apart.open_table
    opened = csr_matrix((np.ones(len(indices)), (np.repeat(np.arange(n), np.diff(indptr)),
                                                 indices)), shape=(n, n))  # fmt: skip
    piece = connected_components(opened, directed=False)[1]
    one, other = np.unique(piece[mask])  # the M and the a
    x, starts = g.cell_points[:, 0], g.cell_ptr[:-1]
    side = np.maximum.reduceat(x, starts) - np.minimum.reduceat(x, starts)
    src, dst = np.repeat(np.arange(n), np.diff(g.indptr)), g.indices.astype(np.int64)
    steps = csr_matrix((np.where(mask[dst], 1e-9, side[dst]), (src, dst)), shape=(n, n))
    far = dijkstra(steps, indices=np.flatnonzero(mask & (piece == one)), min_only=True)
    shortest = far[mask & (piece == other)].min()
    bridge = connect(apart).mask & ~mask
    assert side[bridge].sum() == pytest.approx(shortest, abs=1e-6)
