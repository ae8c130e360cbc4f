"""Mazes on any grid draw through the one scene: the pictures show the model.

Every wall of a :class:`~mazeart.maze.Maze` is looked up in the PNG,
in the SVG as rsvg-convert paints it and in the PDF as pdftoppm paints it: an
open wall shows no wall ink, a closed wall beside a maze cell does, the doors
are open and a wall between two cells that are not maze is not drawn. The grid
kinds are read from :data:`mazeart.grids.GRIDS` when the tests are collected,
so a newly registered grid is tested too.
"""

from __future__ import annotations

import inspect
import io
import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Callable

import numpy as np
import pytest
from PIL import Image

import mazeart.grids.shapes  # noqa: F401  (registers the grids beyond squares)
from mazeart import generate
from mazeart.errors import MazeartError
from mazeart.export import to_png_image, to_svg, write
from mazeart.export._style import Style
from mazeart.export.pdf import to_pdf_bytes
from mazeart.export.scene import build_scene, pen_up_travel
from mazeart.grids import GRIDS, Grid, grid_from_pairs, make_grid, square_grid
from mazeart.grids.carve import carve_graph, label_parts
from mazeart.maze import Maze

SVG = "{http://www.w3.org/2000/svg}"
CS = 20
"""Pixels per drawing unit in the rendered pictures."""
LW = 0.15
"""Wall width (drawing units): 3 pixels."""


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        if os.environ.get("MAZEART_REQUIRE_TOOLS"):
            pytest.fail(f"{name} is not installed")
        pytest.skip(f"{name} is not installed")
    return path


# ----------------------------------------------------------------------------- mazes


def small_grid(kind: str, size: int = 6) -> Grid:
    """The grid of ``kind`` with every required parameter (rows, cols, rings, ...) ``size``."""
    params = inspect.signature(GRIDS[kind]).parameters.values()
    return make_grid(kind, **{p.name: size for p in params if p.default is p.empty})


def triangles() -> Grid:
    """A small grid made by hand: a 4 x 5 lattice of squares, each cut into two triangles
    along alternating diagonals."""
    rows, cols = 4, 5
    polys = []
    for r in range(rows):
        for c in range(cols):
            a, b, d, e = (c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)
            polys += [(a, b, d), (a, d, e)] if (r + c) % 2 else [(a, b, e), (b, d, e)]
    edges: dict[tuple, list[int]] = {}
    for i, poly in enumerate(polys):
        for p, q in zip(poly, poly[1:] + poly[:1], strict=True):
            edges.setdefault(tuple(sorted((p, q))), []).append(i)
    walls = [(cells[0], cells[1] if len(cells) > 1 else -1, np.array(edge, float))
             for edge, cells in edges.items()]  # fmt: skip
    polygons = [np.array(poly, float) for poly in polys]
    centres = np.array([p.mean(axis=0) for p in polygons])
    return grid_from_pairs("triangles", {}, centres, polygons, walls, (cols, rows))


def carved(grid: Grid, *, hole: bool = True, seed: int = 1) -> Maze:
    """A perfect maze on ``grid`` (around a hole in the middle: two neighbouring cells that
    are not maze), entered on the left edge and left on the right."""
    mask = np.ones(grid.n_cells, bool)
    if hole:
        middle = grid.cell_at(*grid.centres.mean(axis=0))
        mask[[middle, grid.neighbours(middle)[0]]] = False
        labels, parts = label_parts(grid, mask)
        mask = labels == np.argmax(np.bincount(labels[labels >= 0], minlength=parts))
    opened = carve_graph(grid, mask, "backtracker", np.random.default_rng(seed))
    edge = np.zeros(grid.n_cells, bool)
    edge[grid.wall_cells[grid.wall_cells[:, 1] < 0, 0]] = True
    ends = np.flatnonzero(edge & mask)
    x = grid.centres[ends, 0]
    entrance, exit_ = int(ends[np.argmin(x)]), int(ends[np.argmax(x)])
    return Maze(mask, opened, grid=grid, entrance=entrance, exit=exit_,
                meta={"algorithm": "backtracker", "seed": seed})  # fmt: skip


MAZES: dict[str, Callable[[], Maze]] = {
    "square": lambda: generate(np.zeros((6, 8), np.int32), rng=2),
    "hand-made": lambda: carved(triangles()),
    # the weave grid draws insets and gaps by its own rules (tests/test_weave.py)
    **{kind: (lambda kind=kind: carved(small_grid(kind))) for kind in GRIDS if kind != "weave"},
}


# ----------------------------------------------------------------------------- the pictures


def on_white(img: Image.Image) -> np.ndarray:
    base = Image.new("RGBA", img.size, "white")
    return np.asarray(Image.alpha_composite(base, img.convert("RGBA")).convert("RGB"))


Picture = tuple[np.ndarray, np.ndarray]
"""Pixels (RGB) and where drawing point (0, 0) lies in them (x, y)."""


def png_picture(maze: Maze, tmp_path) -> Picture:
    img = to_png_image(maze, cell_size=CS, margin=1, line_width=LW, markers=False)
    return on_white(img), np.array([CS, CS], float)  # margin: round(1 * CS) pixels


def svg_picture(maze: Maze, tmp_path) -> Picture:
    text = to_svg(maze, cell_size=CS, margin=1, line_width=LW, markers=False)
    (tmp_path / "m.svg").write_text(text)
    width = ET.fromstring(text).get("viewBox").split()[2]  # a pixel a unit, as the PNG
    subprocess.run([tool("rsvg-convert"), "-w", width, tmp_path / "m.svg",
                    "-o", tmp_path / "svg.png"], check=True)  # fmt: skip
    return on_white(Image.open(tmp_path / "svg.png")), np.array([CS, CS], float)


def pdf_picture(maze: Maze, tmp_path) -> Picture:
    from pypdf import PdfReader

    pdf = tmp_path / "m.pdf"
    pdf.write_bytes(to_pdf_bytes(maze, answer=False, line_width=LW, markers=False))
    page = PdfReader(pdf).pages[0]
    s, _, tx, ty = map(float, re.search(
        rb"q ([\d.]+) 0 0 -([\d.]+) ([\d.]+) ([\d.]+) cm", page.get_contents().get_data()
    ).groups())  # fmt: skip
    dpi = CS * 72 / s  # one drawing unit: CS pixels
    stem = tmp_path / "page"
    subprocess.run([tool("pdftoppm"), "-r", f"{dpi:.6f}", "-png", "-singlefile", pdf, stem],
                   check=True)  # fmt: skip
    rgb = np.asarray(Image.open(f"{stem}.png").convert("RGB"))
    origin = np.array([tx * dpi / 72, (float(page.mediabox.height) - ty) * dpi / 72])
    return rgb, origin


RENDERERS = {"png": png_picture, "svg": svg_picture, "pdf": pdf_picture}


def point_along(line: np.ndarray, t: float) -> np.ndarray:
    """The point a share ``t`` of the way along a polyline."""
    d = np.diff(line, axis=0)
    cum = np.concatenate([[0.0], np.cumsum(np.hypot(*d.T))])
    at = t * cum[-1]
    k = min(int(np.searchsorted(cum, at, side="right")) - 1, len(d) - 1)
    return line[k] + (at - cum[k]) / (cum[k + 1] - cum[k]) * d[k]


def wall_ink(picture: Picture, grid: Grid) -> tuple[np.ndarray, np.ndarray]:
    """For every wall: whether all of a few points about its middle are wall ink (dark
    grey), and whether none is."""
    rgb, origin = picture
    pts = np.array([[point_along(grid.wall(w), t) for t in (0.4, 0.5, 0.6)]
                    for w in range(grid.n_walls)])  # fmt: skip
    px = np.floor(origin + pts * CS).astype(int)
    colour = rgb[px[..., 1], px[..., 0]].astype(int)
    dark = colour.max(axis=-1) < 128  # wall ink; the PDF's coloured arrows are not
    clear = colour.max(axis=-1) >= 200
    return dark.all(axis=1), clear.all(axis=1)


def expected_walls(maze: Maze) -> np.ndarray:
    """The walls the model says are drawn: closed, beside a maze cell, not a door."""
    a, b = maze.grid.wall_cells.T
    mask = maze.mask.reshape(-1)
    drawn = ~maze.open_walls & (mask[a] | ((b >= 0) & mask[np.maximum(b, 0)]))
    drawn[[maze.door_wall(maze.entrance), maze.door_wall(maze.exit)]] = False
    return drawn


@pytest.mark.parametrize("renderer", list(RENDERERS))
@pytest.mark.parametrize("name", list(MAZES))
def test_rendered_pictures_match_the_model(name, renderer, tmp_path):
    maze = MAZES[name]()
    grid = maze.grid
    want = expected_walls(maze)
    a, b = grid.wall_cells.T
    mask, opened = maze.mask.reshape(-1), maze.open_walls
    inner = (b >= 0) & mask[a] & mask[np.maximum(b, 0)]
    assert (inner & opened).any() and (inner & ~opened).any()
    assert (~mask).any() or name == "square"  # walls between non-maze cells too
    dark, clear = wall_ink(RENDERERS[renderer](maze, tmp_path), grid)
    for what, bad in (
        ("an open wall (a passage) shows ink", opened & ~clear),
        ("a closed wall between maze cells shows no ink", inner & ~opened & ~dark),
        ("a wall the model draws shows no ink", want & ~dark),
        ("a wall the model leaves out shows ink", ~want & ~clear),
    ):
        walls = np.flatnonzero(bad)
        assert not walls.size, (what, [(int(w), grid.wall_cells[w].tolist()) for w in walls[:5]])
    doors = [maze.door_wall(maze.entrance), maze.door_wall(maze.exit)]
    assert min(doors) >= 0 and clear[doors].all()  # the doors are open


# ----------------------------------------------------------------------------- the scene


def segments_cross(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Which segments of ``p`` (rows x0, y0, x1, y1) properly cross any segment of ``q``."""

    def side(a, b, c):
        return np.sign((b[..., 0] - a[..., 0]) * (c[..., 1] - a[..., 1])
                       - (b[..., 1] - a[..., 1]) * (c[..., 0] - a[..., 0]))  # fmt: skip

    a, b = p[:, None, :2], p[:, None, 2:]
    c, d = q[None, :, :2], q[None, :, 2:]
    return ((side(a, b, c) * side(a, b, d) < 0) & (side(c, d, a) * side(c, d, b) < 0)).any(axis=1)


def shortest(maze: Maze) -> list[int]:
    import networkx as nx

    return nx.shortest_path(nx.Graph(maze.links().tolist()), maze.entrance, maze.exit)


@pytest.mark.parametrize("name", [name for name in MAZES if name != "square"])
def test_the_solution_visits_the_path_cells_in_order_through_the_doors(name):
    maze = MAZES[name]()
    grid = maze.grid
    path = shortest(maze)
    default = build_scene(maze, Style(solution=True))
    given = build_scene(maze, Style(), solutions=[path])
    for scene in (default, given):
        (stroke,) = scene.layer("solution").strokes
        (line,) = list(stroke.lines)
        for end, cell in ((line[0], maze.entrance), (line[-1], maze.exit)):
            door = point_along(grid.wall(maze.door_wall(cell)), 0.5)
            np.testing.assert_allclose(end, door, atol=1e-9)  # out through the door's middle
        d = np.diff(line, axis=0)
        cum = np.concatenate([[0.0], np.cumsum(np.hypot(*d.T))])
        at = []
        for centre in grid.centres[path]:
            rel = centre - line[:-1]
            t = np.clip((rel * d).sum(1) / (d * d).sum(1), 0, 1)
            gap = np.hypot(*(rel - t[:, None] * d).T)
            k = int(np.argmin(gap))
            assert gap[k] < 1e-9, centre  # every centre of the path is on the line
            at.append(cum[k] + t[k] * np.hypot(*d[k]))
        assert np.all(np.diff(at) > 0)  # in the path's order
        walls = scene.layer("walls").strokes[0].lines.segments()
        assert not segments_cross(stroke.lines.segments(), walls).any()  # along the corridors
    # a path that stops inside the maze ends at its last cell's centre, in a colour of its own
    half = path[: len(path) // 2 + 1]
    first, second = build_scene(maze, Style(), solutions=[path, half]).layer("solution").strokes
    (line,) = list(second.lines)
    np.testing.assert_allclose(line[-1], grid.centres[half[-1]], atol=1e-9)
    assert first.colour != second.colour and second.width < first.width


def test_walls_are_chained_and_the_doors_left_out():
    grid = small_grid("hex") if "hex" in GRIDS else triangles()
    maze = carved(grid)
    walls = build_scene(maze, Style()).layer("walls").strokes[0].lines
    assert len(walls) < np.count_nonzero(expected_walls(maze)) / 2  # runs, not single walls
    drawn = walls.segments()
    mids = (drawn[:, :2] + drawn[:, 2:]) / 2
    for cell in (maze.entrance, maze.exit):
        door = point_along(grid.wall(maze.door_wall(cell)), 0.5)
        assert np.hypot(*(mids - door).T).min() > 1e-6


@pytest.mark.parametrize("kind", sorted(set(GRIDS) - {"square", "weave"}))
def test_the_floor_is_the_union_of_the_maze_cells(kind):
    """The floor is drawn as the outline of the maze cells taken together (even-odd): the
    area it fills is the union shapely makes of the cells' own polygons, hole and all."""
    from shapely import symmetric_difference, unary_union
    from shapely.geometry import Polygon

    grid = small_grid(kind, 7)
    maze = carved(grid)
    (floor,) = build_scene(maze, Style(floor="#ffeecc")).layer("floor").fills
    filled = Polygon()
    for ring in floor.rings:  # even-odd: each ring flips what it encloses
        filled = symmetric_difference(filled, Polygon(ring))
    cells = unary_union([Polygon(grid.polygon(c)) for c in np.flatnonzero(maze.mask)])
    assert cells.area > 0 and len(floor.rings) < np.count_nonzero(maze.mask) / 4
    assert symmetric_difference(filled, cells).area < 1e-9 * cells.area


def test_plotter_output_of_a_hex_maze_has_no_fills():
    kind = "hex" if "hex" in GRIDS else "square"
    maze = carved(small_grid(kind, 8))
    text = to_svg(maze, plotter=True, solution=True, markers=True, floor="#ffffff",
                  cell_size=10, line_width=0.1)  # fmt: skip
    root = ET.fromstring(text)
    widths = set()
    for el in root.iter():
        assert el.tag not in (f"{SVG}circle", f"{SVG}rect", f"{SVG}polygon"), el.tag
        if el.tag == f"{SVG}path":
            assert el.get("fill") == "none"
            widths.add(el.get("stroke-width"))
    assert widths == {"1"}  # one pen: 0.1 of a 10-unit cell
    layers = {g.get("id") for g in root.iter(f"{SVG}g")}
    assert {"walls", "solution", "markers"} <= layers and "floor" not in layers


@pytest.mark.parametrize("kind", [k for k in GRIDS if k != "weave"])
def test_pen_up_travel_is_near_what_vpype_reaches(kind, tmp_path):
    vpype_cli = shutil.which("vpype")
    if vpype_cli is None:
        pytest.skip("vpype is not installed")
    vpype = pytest.importorskip("vpype")
    if kind == "square":
        grid = square_grid(50, 50)
    else:
        grid = small_grid(kind, 40 if kind != "polar" else 20)
    maze = carved(grid, hole=False)
    ours = tmp_path / "ours.svg"
    ours.write_text(to_svg(maze, cell_size=2, margin=1))
    tidy = tmp_path / "tidy.svg"
    subprocess.run([vpype_cli, "read", ours, "linemerge", "linesort", "write", tidy], check=True)

    def travel(path) -> float:
        doc = vpype.read_multilayer_svg(io.StringIO(path.read_text()), quantization=0.05)
        return sum(lc.pen_up_length()[0] for lc in doc.layers.values())

    assert travel(ours) <= 1.25 * travel(tidy)
    walls = build_scene(maze, Style()).layer("walls").strokes[0].lines
    unordered = build_scene(maze, Style(), ordered=False).layer("walls").strokes[0].lines
    assert pen_up_travel(walls) <= pen_up_travel(unordered)


# ----------------------------------------------------------------------------- the files


def test_svg_and_png_say_which_grid_and_cells(tmp_path):
    maze = carved(small_grid("hex") if "hex" in GRIDS else triangles())
    kind = maze.grid.kind
    svg = write(maze, tmp_path / "m.svg", solution=True)
    meta = ET.parse(svg).getroot().find(f"{SVG}metadata")[0]
    assert meta.get("data-grid") == kind
    assert (meta.get("entrance"), meta.get("exit")) == (str(maze.entrance), str(maze.exit))
    assert (meta.get("cols"), meta.get("rows")) == (str(maze.width), str(maze.height))
    png = Image.open(write(maze, tmp_path / "m.png"))
    info = json.loads(png.info["mazeart"])
    assert (info["grid"], info["entrance"], info["exit"]) == (kind, maze.entrance, maze.exit)
    assert png.size == tuple(round(s * 10) + 20 for s in maze.grid.size)  # cell_size 10, margin 1
    pdf = write(maze, tmp_path / "m.pdf")
    assert pdf.read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize(
    ("suffix", "message"),
    [(".txt", r"square grid only \(SVG, PNG, PDF and HTML take any grid\)"),
     (".tmj", "grid has no Tiled map kind"),
     (".tmx", "grid has no Tiled map kind")],
)  # fmt: skip
def test_square_only_formats_refuse_other_grids(suffix, message, tmp_path):
    maze = carved(triangles())
    with pytest.raises(MazeartError, match=message):
        write(maze, tmp_path / f"m{suffix}")
    assert not list(tmp_path.iterdir())  # nor the map's tileset


@pytest.mark.parametrize("kind", ["hex", "triangle", "polar", "upsilon"])
def test_the_tags_legend_lies_inside_the_drawing(kind, tmp_path):
    """The legend sits in the bottom margin of the picture, whatever the grid's size (not
    below it, where the viewBox cuts it off)."""
    import xml.etree.ElementTree as ET

    import mazeart

    made = mazeart.make("10x8", grid=kind, rng=3, place="loot=2,key=1")
    root = ET.parse(mazeart.save(made, tmp_path / "m.svg")).getroot()
    x0, y0, w, h = map(float, root.get("viewBox").split())
    ns = "{http://www.w3.org/2000/svg}"
    legend = next(g for g in root.iter(f"{ns}g") if g.get("id") == "legend")
    dots = list(legend.iter(f"{ns}circle"))
    assert len(dots) == 2
    for dot in dots:
        cx, cy, r = (float(dot.get(k)) for k in ("cx", "cy", "r"))
        assert x0 <= cx - r and cx + r <= x0 + w
        assert y0 <= cy - r and cy + r <= y0 + h
    for text in legend.iter(f"{ns}text"):
        assert float(text.get("y")) <= y0 + h
