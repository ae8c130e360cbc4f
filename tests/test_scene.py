"""One drawing scene: the same ink in SVG, PNG and PDF; plotter-grade SVG as vpype reads it."""

from __future__ import annotations

import io
import itertools
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from conftest import REPO, SKIMAGE_DATA
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image
from scipy import ndimage

from mazeart import generate, make, preset_from_text
from mazeart.export import to_png_image, to_svg
from mazeart.export.pdf import to_pdf_bytes
from mazeart.export.scene import Lines, chain_segments, order_lines

HORSE = REPO / "samples" / "horse.png"
LOGO = REPO / "samples" / "logo.png"
SVG = "{http://www.w3.org/2000/svg}"


def inside_evenodd(points, rings):
    """Even-odd inside test by scikit-image (independent of mazeart's compiled one)."""
    from skimage.measure import points_in_poly

    inside = np.zeros(len(points), dtype=bool)
    for ring in rings:
        inside ^= points_in_poly(points, ring)
    return inside


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        if os.environ.get("MAZEART_REQUIRE_TOOLS"):
            pytest.fail(f"{name} is not installed")
        pytest.skip(f"{name} is not installed")
    return path


# ----------------------------------------------------------------------------- merging, ordering


@st.composite
def lattice_segments(draw):
    """Unit segments on a small lattice, some repeated ends, like a maze's walls."""
    n = draw(st.integers(1, 60))
    pts = draw(st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=n, max_size=n))
    horizontal = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    segs = {
        (x, y, x + 1, y) if h else (x, y, x, y + 1)
        for (x, y), h in zip(pts, horizontal, strict=True)
    }
    return np.array(sorted(segs), float)


def units(lines: Lines) -> list[tuple[float, ...]]:
    """Every unit step the lines draw, each as a sorted pair of lattice points."""
    out = []
    for a, b in (tuple(map(tuple, s.reshape(2, 2))) for s in lines.segments()):
        n = round(abs(b[0] - a[0]) + abs(b[1] - a[1]))
        for t in range(n):
            p = (a[0] + (b[0] - a[0]) * t / n, a[1] + (b[1] - a[1]) * t / n)
            q = (a[0] + (b[0] - a[0]) * (t + 1) / n, a[1] + (b[1] - a[1]) * (t + 1) / n)
            out.append(tuple(sorted([p, q])))
    return out


@given(lattice_segments())
def test_chaining_draws_every_segment_once_in_few_lines(segs):
    lines = chain_segments(segs)
    drawn = units(lines)
    assert sorted(drawn) == sorted(units(Lines.from_segments(segs)))  # each exactly once
    degree: dict = {}
    for a, b in drawn:
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
    odd = sum(d % 2 for d in degree.values())
    assert len(lines) <= len(segs)
    assert len(lines) >= odd // 2  # no walk does better than the odd corners allow


@given(lattice_segments(), st.floats(0.1, 3.0), st.integers(0, 2**31))
def test_chaining_joins_points_off_the_lattice_that_agree_to_a_millionth(segs, scale, seed):
    """Ends that are not whole numbers (a hexagon's corners) are matched by value: any two
    within 1e-9 of each other are one point, so the lines are those of the lattice's."""
    rng = np.random.default_rng(seed)
    moved = segs * scale * np.sqrt(0.75) + 0.1  # no longer lattice points
    jitter = moved + rng.uniform(-1e-9, 1e-9, moved.shape)  # each end a little off
    lines = chain_segments(jitter)
    reference = chain_segments(segs)  # the lattice's own numbering, with no matching
    assert len(lines) == len(reference)
    back = np.round((lines.points - 0.1) / (scale * np.sqrt(0.75)), 6)
    assert sorted(units(Lines(back, lines.starts))) == sorted(units(Lines.from_segments(segs)))


@given(st.integers(1, 3000), st.floats(1e-4, 50.0), st.integers(0, 2**31))
def test_points_are_numbered_in_order_of_first_appearance(n, spread, seed):
    """Points numbered by value (to a millionth), in order of first appearance, as numpy's
    own sorting numbers them: whether they are spread out (the spatial table) or crowded
    in a corner (many a slot: the mixing hash takes over)."""
    from mazeart.export.lines import _number_points, _point_ids

    rng = np.random.default_rng(seed)
    pool = rng.uniform(0, spread, (max(1, n // 3), 2))
    points = pool[rng.integers(0, len(pool), n)]  # each point about three times
    ids, first = _point_ids(points)
    keys = np.floor(points * 1e6 + 0.5).astype(np.int64)
    _, index, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    rank = np.empty(len(index), np.int64)
    rank[np.argsort(index)] = np.arange(len(index))
    assert ids.tolist() == rank[inverse.ravel()].tolist()
    assert first.tolist() == np.sort(index).tolist()
    crowded = _number_points(rng.uniform(0, 1e-3, (400, 2)), True)
    assert crowded[2] is False  # a crowd of points in one place: the spatial table gives up


@given(lattice_segments(), st.integers(0, 2**31))
def test_ordering_keeps_the_lines_nearest_end_first(segs, seed):
    lines = chain_segments(segs)
    rng = np.random.default_rng(seed)
    spans = rng.permutation(np.stack([lines.starts[:-1], lines.starts[1:]], axis=1))
    shuffled = Lines.from_list([lines.points[a:b] for a, b in spans])
    ordered = order_lines(shuffled)
    assert sorted(units(ordered)) == sorted(units(shuffled))
    assert len(ordered) == len(shuffled)
    # greedy: each next line starts at the free end nearest where the pen is
    pen = np.zeros(2)
    left = [(p[0], p[-1]) for p in shuffled]
    for line in ordered:
        dists = [min(np.linalg.norm(a - pen), np.linalg.norm(b - pen)) for a, b in left]
        assert np.linalg.norm(line[0] - pen) == pytest.approx(min(dists))
        ends = {tuple(line[0]), tuple(line[-1])}
        left.pop(next(i for i, (a, b) in enumerate(left) if {tuple(a), tuple(b)} == ends))
        pen = line[-1]


# ----------------------------------------------------------------------------- same ink everywhere


def tags_and_rooms():
    text = "\n".join(["." * 24] * 3 + ["....AAAa" + "." * 16] * 1 + ["....AAAA" + "." * 16] * 2
                     + ["." * 24] * 8)  # fmt: skip
    return generate(preset_from_text(text), rng=2, place="loot=3,spawn=2")


MODES = {
    "plain": lambda: make(HORSE, cells=30, rng=1).maze,
    "smooth": lambda: make(HORSE, cells=30, rng=1, outline="smooth").maze,
    "edges": lambda: make(LOGO, cells=40, rng=1, edges=True).maze,
    "tone": lambda: make(SKIMAGE_DATA / "camera.png", cells=30, rng=1, tone=True).maze,
    "blocks": lambda: make(HORSE, cells=40, rng=1, geometry="blocks").maze,
    "rooms-tags": tags_and_rooms,
}


def classes(rgb: np.ndarray) -> dict[str, np.ndarray]:
    """Ink by kind: walls (grey to black, hairlines included), solution red, other colours."""
    r, g, b = (rgb[..., i].astype(int) for i in range(3))
    spread = np.ptp(rgb.astype(int), axis=2)
    hue = np.asarray(Image.fromarray(np.ascontiguousarray(rgb)).convert("HSV"))[..., 0]
    reddish = (hue < 12) | (hue > 243)  # the solution, and its edges blended over walls
    return {
        "wall": (np.maximum(np.maximum(r, g), b) < 200) & (spread < 40),
        "red": (r > 150) & (g < 110) & (b < 110),
        "colour": (spread > 60) & (np.minimum(np.minimum(r, g), b) < 100) & ~reddish,
    }


def on_white(img: Image.Image) -> np.ndarray:
    base = Image.new("RGBA", img.size, "white")
    return np.asarray(Image.alpha_composite(base, img.convert("RGBA")).convert("RGB"))


def same_ink(a: np.ndarray, b: np.ndarray, *, tol: int = 2) -> float:
    """Share of ink pixels in either picture with no ink of the other within ``tol`` px."""
    grow = np.ones((2 * tol + 1, 2 * tol + 1), bool)
    off = (a & ~ndimage.binary_dilation(b, grow)) | (b & ~ndimage.binary_dilation(a, grow))
    return max(0, off.sum() - 8) / max(1, a.sum() + b.sum())  # a few stray edge pixels aside


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("solution", [False, True], ids=["puzzle", "solved"])
def test_svg_png_and_pdf_have_the_same_ink(mode, solution, tmp_path):
    maze = MODES[mode]()
    cs = 10
    drawing = {"cell_size": cs, "margin": 1, "solution": solution, "markers": False}
    png = on_white(to_png_image(maze, **drawing))
    (tmp_path / "m.svg").write_text(to_svg(maze, **drawing))
    subprocess.run([tool("rsvg-convert"), "-w", str(png.shape[1]), tmp_path / "m.svg",
                    "-o", tmp_path / "svg.png"], check=True)  # fmt: skip
    svg = on_white(Image.open(tmp_path / "svg.png"))
    assert svg.shape == png.shape
    want, got = classes(png), classes(svg)
    for name in want:
        assert same_ink(want[name], got[name]) < 0.01, (name, same_ink(want[name], got[name]))
    assert want["wall"].sum() > 500
    assert want["red"].any() == solution

    # the PDF: where its drawing sits is what its content stream says (one "cm")
    from pypdf import PdfReader

    pdf = tmp_path / "m.pdf"
    blue = {"entrance_color": "#0000ff", "exit_color": "#0000ff"}  # the PDF's arrows: neither class
    pdf.write_bytes(to_pdf_bytes(maze, answer=solution, line_width=0.15, **blue))
    page = PdfReader(pdf).pages[-1]
    s, _, tx, ty = map(float, re.search(
        rb"q ([\d.]+) 0 0 -([\d.]+) ([\d.]+) ([\d.]+) cm", page.get_contents().get_data()
    ).groups())  # fmt: skip
    dpi = cs * 72 / s  # one cell: cs pixels
    stem = tmp_path / "page"
    number = "2" if solution else "1"
    subprocess.run(
        [tool("pdftoppm"), "-r", f"{dpi:.6f}", "-f", number, "-l", number, "-png", "-singlefile",
         pdf, stem], check=True,
    )  # fmt: skip
    page_px = np.asarray(Image.open(f"{stem}.png").convert("RGB"))
    height_pt = float(page.mediabox.height)
    x0, y0 = round(tx * dpi / 72), round((height_pt - ty) * dpi / 72)
    h, w = maze.height * cs, maze.width * cs
    inner = slice(cs, cs + h), slice(cs, cs + w)
    crop = page_px[y0 - 2 : y0 + h + 2, x0 - 2 : x0 + w + 2]  # a rim for strokes on the edge
    want_pdf = {k: np.pad(v[inner], 2) for k, v in classes(png).items()}
    got_pdf = classes(crop)
    for name in ("wall", "red"):
        assert same_ink(want_pdf[name], got_pdf[name]) < 0.02, (
            name,
            same_ink(want_pdf[name], got_pdf[name]),
        )


# ----------------------------------------------------------------------------- plotters


def read_vpype(svg_text: str):
    """The SVG as vpype reads it, its coordinates brought back from the page's physical size
    (CSS pixels of the millimetres the SVG declares) to the drawing's own units."""
    vpype = pytest.importorskip("vpype")
    doc = vpype.read_multilayer_svg(io.StringIO(svg_text), quantization=0.05)
    root = ET.fromstring(svg_text)
    width = vpype.convert_length(root.get("width"))
    doc.scale(float(root.get("viewBox").split()[2]) / width)
    return doc


def layer_lines(doc, name: str) -> list[np.ndarray]:
    for lc in doc.layers.values():
        if lc.property("vp_name") == name:
            return [np.stack([line.real, line.imag], axis=1) for line in lc]
    return []


def test_smooth_walls_stay_inside_the_outline_as_vpype_reads_them():
    """Walls stay within the floor's area: the figure, its bridges and door corridors."""
    from mazeart.outline import _region_rings, drawn_region

    maze = make(HORSE, cells=60, rng=2, outline="smooth").maze
    cs, lw = 10.0, 0.15
    doc = read_vpype(to_svg(maze, cell_size=cs, line_width=lw, margin=1))
    walls = layer_lines(doc, "walls")
    assert walls
    pts = np.vstack([np.vstack([line[:-1] + (line[1:] - line[:-1]) * t for t in
                                np.linspace(0, 1, 5)]) for line in walls])  # fmt: skip
    pts = pts / cs - 1.0  # vpype's page units back to maze units
    rings = _region_rings(drawn_region(maze))
    inside = inside_evenodd(pts, rings)
    near = np.full(len(pts), np.inf)
    for ring in rings:
        a, b = ring, np.roll(ring, -1, axis=0)
        ab = b - a
        t = np.clip(((pts[:, None, :] - a) * ab).sum(-1) / (ab * ab).sum(-1), 0, 1)
        d = np.linalg.norm(pts[:, None, :] - (a + t[..., None] * ab), axis=-1).min(axis=1)
        near = np.minimum(near, d)
    outside = ~inside & (near > lw / 2 + 1e-6)
    assert not outside.any(), pts[outside][:5]


def test_plotter_output_is_strokes_of_one_pen(tmp_path):
    maze = make(SKIMAGE_DATA / "camera.png", cells=30, rng=1, tone=True).maze
    text = to_svg(maze, plotter=True, cell_size=10, line_width=0.1)
    root = ET.fromstring(text)
    widths = set()
    for el in root.iter():
        if el.tag in (f"{SVG}circle", f"{SVG}rect", f"{SVG}polygon"):
            raise AssertionError(f"a filled shape: {el.tag}")
        if el.tag == f"{SVG}path":
            assert el.get("fill") == "none"
            widths.add(el.get("stroke-width"))
    assert widths == {"1"}  # one pen: 0.1 of a 10-unit cell
    # tone survives as density: dark parts carry more pen lines than light ones
    doc = read_vpype(text)
    walls = layer_lines(doc, "walls")
    length = np.zeros(maze.shape)
    for line in walls:
        for a, b in itertools.pairwise(line / 10 - 1):
            mid = np.clip(((a + b) / 2)[::-1].astype(int), 0, np.array(maze.shape) - 1)
            length[tuple(mid)] += np.linalg.norm(b - a)
    tone = maze.guide.tone
    dark, light = length[tone > 0.7].mean(), length[tone < 0.3].mean()
    assert dark > 2 * light
    # blocks and rooms hatched, not filled
    blocks = to_svg(make(HORSE, cells=30, rng=1, geometry="blocks").maze, plotter=True)
    assert 'fill="none"' in blocks and "evenodd" not in blocks
    rooms = to_svg(tags_and_rooms(), plotter=True)
    assert "<circle" not in rooms and len(layer_lines(read_vpype(rooms), "rooms")) > 3


@pytest.mark.parametrize("cells", [100, 300])
def test_pen_up_travel_is_near_what_vpype_reaches(cells, tmp_path):
    vpype_cli = shutil.which("vpype")
    if vpype_cli is None:
        pytest.skip("vpype is not installed")
    maze = make(HORSE, cells=cells, rng=3).maze
    ours = tmp_path / "ours.svg"
    ours.write_text(to_svg(maze, cell_size=2, margin=1))
    tidy = tmp_path / "tidy.svg"
    subprocess.run([vpype_cli, "read", ours, "linemerge", "linesort", "write", tidy], check=True)

    def travel(path) -> float:
        doc = read_vpype(path.read_text())
        return sum(lc.pen_up_length()[0] for lc in doc.layers.values())

    assert travel(ours) <= 1.25 * travel(tidy)


def test_a_bridge_across_the_ground_is_a_walled_corridor_narrower_than_a_cell():
    """Where a bridge crosses the ground between two letters, it is drawn as a corridor half
    a cell wide: a line across it, halfway between two bridge cells, meets the drawn strokes
    (walls and outline) twice, half a cell apart, one either side of the passage."""
    import shapely

    from mazeart.export._style import Style
    from mazeart.export.scene import build_scene
    from mazeart.outline import _figure, _rings, bridge_cells

    maze = make(REPO / "samples" / "word.png", cells=80, rng=2, outline="smooth").maze
    bridges = bridge_cells(maze).reshape(-1)
    scene = build_scene(maze, Style())
    segs = np.vstack(
        [scene.layer(name).strokes[0].lines.segments() for name in ("walls", "outline")]
    )
    strokes = shapely.multilinestrings([[s[:2], s[2:]] for s in segs])
    figure = _figure(_rings(maze))
    checked = 0
    for a, b in maze.links():
        if not (bridges[a] and bridges[b]):
            continue
        (ra, ca), (rb, cb) = divmod(int(a), maze.width), divmod(int(b), maze.width)
        mid = np.array([(ca + cb) / 2 + 0.5, (ra + rb) / 2 + 0.5])
        if shapely.distance(figure, shapely.Point(mid)) < 0.75:  # clear of the letters
            continue
        across = np.array([rb - ra, ca - cb], float)  # square to the passage
        line = shapely.LineString([mid - 0.5 * across, mid + 0.5 * across])
        hits = shapely.get_coordinates(shapely.intersection(line, strokes))
        side = (hits - mid) @ across
        assert len(hits) == 2 and side.min() < 0 < side.max(), (a, b, hits)
        assert abs(np.ptp(side) - 0.5) < 0.05, (a, b, np.ptp(side))
        checked += 1
    assert checked >= 4


def test_plotter_keeps_a_pen_per_colour():
    made = make(HORSE, cells=20, rng=1, braid=1.0)
    from mazeart.pipeline import solutions

    paths = solutions(made.maze, paths=3)
    root = ET.fromstring(to_svg(made.maze, plotter=True, solutions=paths, markers=True))
    strokes = {p.get("stroke") for p in root.iter(f"{SVG}path")}
    assert {"#d62728", "#1f77b4", "#2ca02c", "#000000"} <= strokes
    assert root.find(f"{SVG}g[@id='floor']") is None
