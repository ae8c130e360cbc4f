"""Every default maze is solvable as drawn: checked on the rendered picture, never the model.

For each picture of a set drawn here and never tuned on (``tests/holdout.py``: colour logos
with letters, icons with small inner shapes, glyphs with counters, words), at 50 cells
on every grid (and the smooth outline, each picture on one grid in turn, and weave) and at
200 cells for each picture on three or four of them, the default output is
rendered and flood-filled from the entrance with this file's own code: the exit is reached,
at least 99.9 % of the floor is reached, both doors open onto the ground around the maze and
no other gap in the walls lets the ground in. The positions of the two ends come from the
maze; everything else comes from the pixels. ``mazeart.guide.drawn`` (what ``mazeart info``
reports) must say the same.
"""

from __future__ import annotations

import subprocess

import numpy as np
import pytest
from conftest import REPO
from holdout import PICTURES
from PIL import Image
from scipy import ndimage

import mazeart
from mazeart.export.png import to_png_image
from mazeart.guide import drawn

SCALE = 8  # pixels a cell
MARGIN = 6  # cells of ground around the drawing
FLOOR, GROUND, INK = (255, 255, 255), (0, 255, 0), (0, 0, 0)


def ends_of(maze) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each end's centre and the way out through its door, in drawing units (from the model:
    where the ends are is the maze's business; whether they are open is the picture's)."""
    from mazeart.maze import STEP

    out = []
    if not maze.is_square:
        g = maze.grid
        for cell in (maze.entrance, maze.exit):
            centre = g.centres[cell]
            wall = maze.door_wall(cell)
            way = np.zeros(2) if wall < 0 else g.wall(wall).mean(axis=0) - centre
            out.append((centre, way / max(np.hypot(*way), 1e-9)))
        return out
    for cell, side in ((maze.entrance, maze.entrance_side), (maze.exit, maze.exit_side)):
        dr, dc = STEP[side] if side else (0, 0)
        out.append((np.array([cell[1] + 0.5, cell[0] + 0.5]), np.array([dc, dr], float)))
    return out


def crossings(maze) -> list[tuple[np.ndarray, np.ndarray]]:
    """Where a weave maze's corridor passes under another: the over cell's centre and the
    direction of the corridor beneath (the under node's two neighbours)."""
    if maze.grid.kind != "weave":
        return []
    g = maze.grid
    n = int(g.params["rows"]) * int(g.params["cols"])
    out = []
    for u in np.flatnonzero(maze.mask[n:]) + n:
        a, b = maze.neighbours(int(u))
        d = g.centres[b] - g.centres[a]
        out.append(((g.centres[a] + g.centres[b]) / 2, d / np.hypot(*d)))
    return out


def flood(rgb: np.ndarray, maze, scale: int = SCALE) -> dict:
    """Walk the picture: floor pixels from the entrance, openings onto the ground."""
    floor = (rgb == FLOOR).all(axis=2)
    ground = (rgb == GROUND).all(axis=2)
    s, m = scale, MARGIN * scale

    def px(p):
        x, y = m + np.asarray(p) * s
        return int(y), int(x)

    parts, n = ndimage.label(floor)
    size = np.bincount(parts.ravel(), minlength=n + 1)
    real = size >= s * s / 8  # smaller specks are where two strokes meet at a slant
    real[0] = False
    parent = list(range(n + 1))

    def find(x):
        while parent[x] != x:
            x = parent[x]
        return x

    for centre, d in crossings(maze):  # a reader goes on under the corridor on top
        a, b = parts[px(centre - 0.42 * d)], parts[px(centre + 0.42 * d)]
        assert a and b, "a crossing without a corridor on both sides of it"
        parent[find(a)] = find(b)
    group = np.array([find(i) for i in range(n + 1)])
    (start, way_in), (goal, way_out) = ends_of(maze)
    reached = real[parts] & (group[parts] == group[parts[px(start)]])
    share = reached.sum() / (real[parts]).sum()
    # the ground around the drawing, and where the floor meets it with no ink between
    around, _ = ndimage.label(ground)
    rim = np.concatenate([around[0], around[-1], around[:, 0], around[:, -1]])
    outer = np.isin(around, np.unique(rim)) & (around > 0)
    meets = np.zeros_like(floor)  # floor beside ground (any), and beside the ground around
    meets_outer = np.zeros_like(floor)
    for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        meets |= floor & np.roll(np.roll(ground, dy, 0), dx, 1)
        meets_outer |= floor & np.roll(np.roll(outer, dy, 0), dx, 1)
    openings, k = ndimage.label(ndimage.binary_dilation(meets, iterations=2))
    yy, xx = np.nonzero(openings)
    at = np.stack([(xx - m) / s, (yy - m) / s], axis=1)
    door_of = np.zeros(k + 1, bool)
    open_doors = 0
    for centre, way in ((start, way_in), (goal, way_out)):
        if not way.any():
            open_doors += 1  # a round maze's middle has no door
            continue
        t = np.clip((at - centre) @ way, 0, 4.5)
        near = np.hypot(*(at - centre - t[:, None] * way).T) <= 1.0
        door_of[np.unique(openings[yy[near], xx[near]])] = True
        here = np.zeros_like(floor)
        here[yy[near], xx[near]] = True
        open_doors += bool((here & reached & meets_outer).any())
    gaps = int(np.count_nonzero(~door_of[1:]))
    return {"share": float(share), "exit": bool(reached[px(goal)]), "doors": open_doors == 2,
            "gaps": gaps}  # fmt: skip


def render(maze) -> np.ndarray:
    img = to_png_image(maze, cell_size=SCALE, margin=MARGIN, floor="#ffffff",
                       background="#00ff00", wall="#000000", tags=False, markers=False)  # fmt: skip
    return np.asarray(img.convert("RGB"))


def solvable(result: dict) -> bool:
    return (result["share"] >= 0.999 and result["exit"] and result["doors"]
            and result["gaps"] == 0)  # fmt: skip


FINE_ALL = 100
"""Mazes finer than this are drawn for half the pictures on each grid (the other half on the
next), which keeps every picture checked fine on several grids at half the time."""
GRIDS = [("square", {}), ("square", {"outline": "smooth"}), ("square", {"weave": True}),
         ("hex", {}), ("triangle", {}), ("polar", {}), ("upsilon", {}), ("adaptive", {}),
         ("any", {"outline": "smooth"})]  # fmt: skip
TURNS = ["hex", "triangle", "polar", "upsilon", "adaptive"]
"""The grids ``any`` takes in turn, a picture each (``tests/test_grid_outline.py`` walks
random ones)."""


@pytest.fixture(scope="module")
def pictures():
    return {name: draw() for name, draw in PICTURES.items()}


def walk_one(name: str, grid: str, how: dict, cells: int) -> tuple[str, dict, dict]:
    """The default maze of picture ``name``, walked by this file's flood and by ``drawn``."""
    made = mazeart.make(PICTURES[name](), cells=cells, rng=1, grid=grid, **how)
    walked = flood(render(made.maze), made.maze)
    reported = drawn(made.maze, scale=SCALE)  # what `mazeart info` computes, at 8 px
    return name, walked, reported


@pytest.fixture(scope="module")
def pool():
    """Both cores, for the whole file: its processes keep their kernels from test to test."""
    import os
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=min(2, os.cpu_count() or 1)) as workers:
        yield workers


@pytest.mark.parametrize("cells", [50, 200])  # a small maze and a fine one
@pytest.mark.parametrize("grid, how", GRIDS, ids=["square", "smooth", "weave", "hex",
                                                  "triangle", "polar", "upsilon", "adaptive",
                                                  "smooth-grids"])  # fmt: skip
def test_every_default_maze_is_solvable_as_drawn(grid, how, cells, pool):
    names = list(PICTURES)
    if cells > FINE_ALL:  # every other picture (or fewer), alternating by grid
        turn = [g for g, _ in GRIDS].index(grid) + len(how)
        # (the adaptive grid's fine mazes refine to several times as many cells, each drawn
        # at its smallest squares' size: every fourth picture; the smooth outline on the
        # other grids, the slowest drawing to make and check, every third)
        every = 4 if grid == "adaptive" else 3 if grid == "any" else 2
        names = names[turn % every :: every]
    grids = [TURNS[(i + cells) % len(TURNS)] if grid == "any" else grid
             for i in range(len(names))]  # fmt: skip
    results = list(pool.map(walk_one, names, grids, [how] * len(names),
                            [cells] * len(names)))  # fmt: skip
    failures = []
    for name, walked, reported in results:
        says_ok = (reported["reachable"] >= 0.999 and reported["exit"] and reported["doors"]
                   and reported["leaks"] == 0 and reported["pockets"] == 0)  # fmt: skip
        if not solvable(walked) or not says_ok:
            failures.append((name, walked, reported))
    assert not failures, failures


@pytest.mark.parametrize("grid", ["square", "hex", "triangle", "polar", "upsilon"])
def test_tone_keeps_every_passage_open_as_drawn(grid, pool):
    """Walls drawn as thick as the picture is dark still leave every passage open: the
    thickest on a grid's short walls too (a colour logo's flat dark areas ask for it)."""
    names = list(PICTURES)
    results = list(pool.map(walk_one, names, [grid] * len(names), [{"tone": True}] * len(names),
                            [60] * len(names)))  # fmt: skip
    failures = [(name, walked, reported) for name, walked, reported in results
                if not solvable(walked) or reported["reachable"] < 0.999]  # fmt: skip
    assert not failures, failures


def test_the_flood_sees_what_is_wrong(pictures):
    """Not blind: a sealed passage, a gap in the outer wall and a door drawn shut all show,
    here and in what ``mazeart info`` reports."""
    made = mazeart.make(pictures["house"], cells=40, rng=1)
    maze = made.maze
    rgb = render(maze)
    assert solvable(flood(rgb, maze))
    s, m = SCALE, MARGIN * SCALE
    # ink across the whole maze at its middle row: half of it cannot be walked to
    sealed = rgb.copy()
    mid = m + (maze.height // 2) * s
    sealed[mid : mid + 2, m : m + maze.width * s][(sealed[mid : mid + 2, m : m + maze.width * s]
                                                   == FLOOR).all(axis=2)] = INK  # fmt: skip
    assert flood(sealed, maze)["share"] < 0.9
    # the outer wall erased along a stretch of the figure's top: the ground gets in
    torn = rgb.copy()
    top = np.argmax((rgb[:, :, 0] == 0).any(axis=1) & ~(rgb == GROUND).all(axis=2).all(axis=1))
    row = torn[top : top + 2]
    row[(row == INK).all(axis=2)] = FLOOR
    assert flood(torn, maze)["gaps"] >= 1
    # the entrance drawn shut: a door that does not open
    shut = rgb.copy()
    (centre, way), _ = ends_of(maze)
    x, y = (m + (centre + 0.5 * way) * s).astype(int)
    shut[y - s : y + s, x - s : x + s][(shut[y - s : y + s, x - s : x + s] != INK).any(axis=2)] = (
        INK
    )
    assert not flood(shut, maze)["doors"]


def test_the_svg_is_as_walkable_as_the_png(pictures, tmp_path):
    """The default output is SVG: rendered by librsvg, its pixels classified by colour, it
    is walked the same way."""
    if subprocess.run(["which", "rsvg-convert"], capture_output=True).returncode:
        pytest.skip("rsvg-convert (librsvg2-bin) not installed")
    for name, how in (("word-logo", {}), ("house", {}), ("word-logo", {"outline": "smooth"}),
                      ("at-glyph", {"outline": "smooth"})):  # fmt: skip
        if True:
            made = mazeart.make(pictures[name], cells=50, rng=2, **how)
            svg = tmp_path / f"{name}.svg"
            mazeart.save(made, svg, size=None, margin=MARGIN, floor="#ffffff",
                         background="#00ff00", markers=False)  # fmt: skip
            width = (made.maze.width + 2 * MARGIN) * 2 * SCALE  # strokes 2.4 px wide
            png = tmp_path / f"{name}.png"
            subprocess.run(["rsvg-convert", "-w", str(width), "-o", str(png), str(svg)],
                           check=True)  # fmt: skip
            rgb = np.asarray(Image.open(png).convert("RGB")).astype(int)
            # anti-aliased edges: each pixel takes the nearest of the three colours
            palette = np.array([FLOOR, GROUND, INK])
            nearest = np.argmin(((rgb[:, :, None, :] - palette) ** 2).sum(axis=3), axis=2)
            walked = flood(palette[nearest].astype(np.uint8), made.maze, 2 * SCALE)
            assert solvable(walked), (name, how, walked)


def test_a_design_shows_in_the_default_maze(pictures):
    """The design of a logo (its colour regions) lies on drawn walls, and heavier ones, far
    more than in the same maze blind to it (``benchmarks/bench_drawn.py`` for the table)."""
    import sys

    sys.path.insert(0, str(REPO / "benchmarks"))
    from bench_drawn import design_boundary, visibility

    from mazeart.image import figure_coverage

    seen = 0
    for name in ("plus-disc", "gift", "go-sign", "hearts", "house", "yin-yang", "camera-icon"):
        picture = pictures[name]
        made = mazeart.make(picture, cells=100, rng=1)
        assert made.maze.guide.edge_labels is not None, f"{name}: its design is not seen"
        blind = mazeart.make(picture, cells=100, rng=1, edges=False)
        boundary = design_boundary(picture)
        figure = figure_coverage(picture) >= 0.5
        share, ink = visibility(made.maze, boundary, figure)
        chance, ink_blind = visibility(blind.maze, boundary, figure)
        assert share >= 0.9 and share >= chance + 0.2, (name, share, chance)
        assert ink >= 1.5 * ink_blind, (name, ink, ink_blind)
        seen += 1
    assert seen == 7


@pytest.mark.parametrize("grid", ["hex", "triangle", "polar", "upsilon"])
def test_a_design_shows_on_every_grid(grid, pictures):
    """A logo's colour regions on another grid: the walls between regions are closed but
    for as few doors as join the maze (counted from the saved file with networkx), and the
    picture's design boundary, laid over the drawing by the grid's own placement, lies in
    half as much ink again as in the same maze blind to it (measured: 1.8 to 2.7 times)."""
    import json
    import sys

    import networkx as nx

    sys.path.insert(0, str(REPO / "benchmarks"))
    from bench_drawn import design_boundary

    from mazeart.grids.sample import fit_grid
    from mazeart.image import figure_coverage
    from mazeart.mazefile import dumps

    px = 8
    for name in ("plus-disc", "gift", "hearts", "yin-yang"):
        picture = pictures[name]
        made = mazeart.make(picture, cells=60, rng=1, grid=grid)
        assert any("colour regions" in note for note in made.notes), name
        doc = json.loads(dumps(made.maze, version=3))
        regions = doc["regions"]
        g = nx.Graph()
        g.add_nodes_from(doc["cells"])
        g.add_edges_from(map(tuple, doc["passages"]))
        across = [(a, b) for a, b in g.edges if regions[a] != regions[b]]
        same = nx.Graph(e for e in g.edges if regions[e[0]] == regions[e[1]])
        same.add_nodes_from(doc["cells"])
        pieces = nx.number_connected_components(same)
        assert nx.is_tree(g) and len(across) == pieces - 1, (name, len(across), pieces)
        assert made.report.doors == len(across)
        # the design in the drawing: pixels of the picture's colour boundary, placed on the
        # grid as the picture was (fit_grid), near ink, and darker than in the blind maze
        figure = figure_coverage(picture) >= 0.5
        _, transform = fit_grid(grid, picture.size, 60, figure=figure)
        boundary = np.argwhere(design_boundary(picture))[:, ::-1] + 0.5
        at = np.floor(transform.to_grid(boundary) * px).astype(int)

        def ink(maze):
            img = to_png_image(maze, cell_size=px, margin=0, floor=None, tags=False,
                               markers=False)  # fmt: skip
            a = np.asarray(img.convert("RGBA"))
            return (a[..., 3] > 0) & (a[..., :3].astype(int).sum(axis=2) < 200)

        blind = mazeart.make(picture, cells=60, rng=1, grid=grid, edges=False)
        dark = []
        for maze in (made.maze, blind.maze):
            drawn_ink = ink(maze)
            line = np.zeros(drawn_ink.shape, bool)
            inside = (at[:, 0] < line.shape[1]) & (at[:, 1] < line.shape[0]) & (at >= 0).all(1)
            line[at[inside, 1], at[inside, 0]] = True
            band = ndimage.distance_transform_edt(~line) <= 0.25 * px  # a quarter cell off
            dark.append(drawn_ink[band].mean() / drawn_ink.mean())
        assert dark[0] >= 1.5 * dark[1], (name, dark)
