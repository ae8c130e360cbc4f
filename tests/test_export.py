"""SVG and PNG exports read back and compared with the model.

The SVG is parsed as XML and its path data decoded by the small parser below;
the PNG is decoded by Pillow and sampled at cell centres and wall midpoints.
"""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from conftest import presets
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from mazeart import generate, save, solve
from mazeart.export import to_png_image, to_svg
from mazeart.maze import DIRECTIONS

SVG = "{http://www.w3.org/2000/svg}"
NS_MAZEART = "https://mazeart.dev/ns/1"


def layer(root: ET.Element, name: str) -> ET.Element | None:
    return root.find(f"{SVG}g[@id='{name}']")


def parse_path(d: str) -> list[list[tuple[float, float]]]:
    """Decode M/H/V/L/h/v/z path data into absolute polylines."""
    subpaths: list[list[tuple[float, float]]] = []
    x = y = 0.0
    for cmd, args in re.findall(r"([MLHVhvz])([^MLHVhvz]*)", d):
        nums = [float(t) for t in re.findall(r"-?\d+(?:\.\d+)?", args)]
        if cmd == "M":
            x, y = nums
            subpaths.append([(x, y)])
            continue
        if cmd == "L":
            x, y = nums
        elif cmd == "H":
            x = nums[0]
        elif cmd == "V":
            y = nums[0]
        elif cmd == "h":
            x += nums[0]
        elif cmd == "v":
            y += nums[0]
        elif cmd == "z":
            x, y = subpaths[-1][0]
        subpaths[-1].append((x, y))
    return subpaths


def unit_walls_from_svg(root: ET.Element, cs: float) -> tuple[set, int]:
    """The unit walls the SVG's wall layer draws (each exactly once), and its polyline count."""
    walls = layer(root, "walls")
    assert walls is not None
    units: list[tuple[str, int, int]] = []
    lines = 0
    for p in walls.findall(f"{SVG}path"):
        for sub in parse_path(p.get("d")):
            lines += 1
            for (x0, y0), (x1, y1) in itertools.pairwise(sub):
                a, b = round(x0 / cs), round(x1 / cs)
                c, e = round(y0 / cs), round(y1 / cs)
                assert a == b or c == e, "walls run along the grid lines"
                if c == e:
                    units.extend(("h", c, x) for x in range(min(a, b), max(a, b)))
                else:
                    units.extend(("v", a, y) for y in range(min(c, e), max(c, e)))
    assert len(units) == len(set(units)), "no wall is drawn twice"
    return set(units), lines


def unit_walls_from_model(maze) -> set:
    hor, ver = maze.walls()
    return {("h", y, x) for y, x in zip(*np.nonzero(hor), strict=True)} | {
        ("v", x, y) for y, x in zip(*np.nonzero(ver), strict=True)
    }


@given(presets(), st.integers(0, 2**31), st.sampled_from([4.0, 10.0, 7.5]))
def test_svg_walls_are_the_model_walls(weights, seed, cs):
    maze = generate(weights, rng=seed)
    root = ET.fromstring(to_svg(maze, cell_size=cs))
    units, lines = unit_walls_from_svg(root, cs)
    assert units == unit_walls_from_model(maze)
    # Merged: one <path>, and never more polylines than straight runs; at least as
    # many as a walk through the wall graph needs (half its odd-degree corners).
    assert len(layer(root, "walls").findall(f"{SVG}path")) == 1
    hor = sorted((y, x) for kind, y, x in units if kind == "h")
    joined_rows = {(y, x) for y, x in hor}
    runs = sum(1 for y, x in hor if (y, x - 1) not in joined_rows)
    vert = {(x, y) for kind, x, y in units if kind == "v"}
    runs += sum(1 for x, y in vert if (x, y - 1) not in vert)
    degree: dict[tuple[int, int], int] = {}
    for kind, a, b in units:
        ends = ((b, a), (b + 1, a)) if kind == "h" else ((a, b), (a, b + 1))
        for corner in ends:
            degree[corner] = degree.get(corner, 0) + 1
    odd = sum(1 for d in degree.values() if d % 2)
    assert odd // 2 <= lines <= runs


def test_svg_metadata_size_and_solution_layer():
    weights = np.zeros((12, 20), np.int32)
    maze = generate(weights, rng=42)
    text = to_svg(maze, solution=True, size="180mm", markers=True)
    root = ET.fromstring(text)
    assert root.get("width") == "180mm"
    assert root.get("height") == f"{180 * 14 / 22:.4f}".rstrip("0") + "mm"
    meta = root.find(f"{SVG}metadata/{{{NS_MAZEART}}}maze")
    assert meta.get("algorithm") == "weighted-dfs" and meta.get("seed") == "42"
    assert (meta.get("rows"), meta.get("cols")) == ("12", "20")
    assert meta.get("entrance") == f"{maze.entrance[0]},{maze.entrance[1]}"
    sol = layer(root, "solution")
    pts = parse_path(sol.find(f"{SVG}path").get("d"))[0]
    # Every step of the drawn solution follows an open passage between cell centres.
    cells = []
    for (x0, y0), (x1, y1) in itertools.pairwise(pts):
        n = round(max(abs(x1 - x0), abs(y1 - y0)) / 10 * 2)
        for t in range(n + 1):
            x = x0 + (x1 - x0) * t / max(n, 1)
            y = y0 + (y1 - y0) * t / max(n, 1)
            if abs((x / 10) % 1 - 0.5) < 1e-6 and abs((y / 10) % 1 - 0.5) < 1e-6:
                cell = (int(y // 10), int(x // 10))
                if not cells or cells[-1] != cell:
                    cells.append(cell)
    assert cells == [tuple(c) for c in solve(maze)]
    assert len(layer(root, "markers").findall(f"{SVG}circle")) == 2


def test_svg_rejects_bad_size():
    maze = generate(np.zeros((3, 3), np.int32), rng=1)
    with pytest.raises(ValueError, match="size must look like"):
        to_svg(maze, size="big")
    with pytest.raises(ValueError, match="unknown drawing option"):
        to_svg(maze, colour="red")


@given(presets(), st.integers(0, 2**31))
def test_blocks_svg_fills_exactly_the_wall_blocks(weights, seed):
    maze = generate(weights, rng=seed, geometry="blocks")
    root = ET.fromstring(to_svg(maze, cell_size=10))
    filled = set()
    for sub in parse_path(layer(root, "walls").find(f"{SVG}path").get("d") or ""):
        xs = [p[0] for p in sub]
        ys = [p[1] for p in sub]
        for x in range(round(min(xs) / 10), round(max(xs) / 10)):
            for y in range(round(min(ys) / 10), round(max(ys) / 10)):
                assert (y, x) not in filled, "overlapping wall rectangles"
                filled.add((y, x))
    # Independent expectation: unused region cells plus the ground ring around the
    # region, minus the door blocks in front of the entrance and exit.
    h, w = maze.shape
    expected = set()
    for y in range(-1, h + 1):
        for x in range(-1, w + 1):
            inside = 0 <= y < h and 0 <= x < w
            if inside and maze.region[y, x]:
                if not maze.mask[y, x]:
                    expected.add((y, x))
                continue
            near = any(
                0 <= y + dy < h and 0 <= x + dx < w and maze.region[y + dy, x + dx]
                for dy in (-1, 0, 1)
                for dx in (-1, 0, 1)
            )
            if near:
                expected.add((y, x))
    for cell, side in ((maze.entrance, maze.entrance_side), (maze.exit, maze.exit_side)):
        if side:
            _, dr, dc = next(d for d in DIRECTIONS if d[0] == side)
            expected.discard((cell[0] + dr, cell[1] + dc))
    assert filled == expected


def rgba_at(img: Image.Image, x: float, y: float) -> tuple[int, ...]:
    return img.getpixel((int(x), int(y)))


@given(presets(), st.integers(0, 2**31), st.integers(4, 12))
def test_png_sampled_at_cells_and_walls(weights, seed, cs):
    maze = generate(weights, rng=seed)
    img = to_png_image(maze, cell_size=cs, line_width=0.2, margin=1, markers=False,
                       background="transparent").convert("RGBA")  # fmt: skip
    m = cs
    h, w = maze.shape
    assert img.size == (w * cs + 2 * m, h * cs + 2 * m)
    hor, ver = maze.walls()
    for r in range(h):
        for c in range(w):
            centre = rgba_at(img, m + (c + 0.5) * cs, m + (r + 0.5) * cs)
            assert centre == ((255, 255, 255, 255) if maze.mask[r, c] else (0, 0, 0, 0))
    for y in range(h + 1):
        for x in range(w):
            px = rgba_at(img, m + (x + 0.5) * cs, m + y * cs)
            if hor[y, x]:
                assert px == (0, 0, 0, 255)
            elif y < h and maze.mask[y, x]:  # the line's pixel row belongs to the cell below
                assert px == (255, 255, 255, 255)
    for y in range(h):
        for x in range(w + 1):
            px = rgba_at(img, m + x * cs, m + (y + 0.5) * cs)
            if ver[y, x]:
                assert px == (0, 0, 0, 255)
            elif x < w and maze.mask[y, x]:
                assert px == (255, 255, 255, 255)


@given(presets(), st.integers(0, 2**31))
def test_blocks_png_sampled_at_block_centres(weights, seed):
    maze = generate(weights, rng=seed, geometry="blocks")
    cs = 6
    img = to_png_image(maze, cell_size=cs, margin=1, markers=False,
                       background="transparent").convert("RGBA")  # fmt: skip
    blocks = maze.blocks()
    colours = {0: (0, 0, 0, 0), 1: (0, 0, 0, 255), 2: (255, 255, 255, 255)}
    for (y, x), kind in np.ndenumerate(blocks):
        assert rgba_at(img, (x + 0.5) * cs, (y + 0.5) * cs) == colours[int(kind)]


def test_png_solution_is_drawn_on_the_path():
    maze = generate(np.zeros((10, 14), np.int32), rng=9)
    img = to_png_image(maze, cell_size=10, solution=True, markers=False).convert("RGBA")
    for r, c in solve(maze):
        assert rgba_at(img, 10 + (c + 0.5) * 10, 10 + (r + 0.5) * 10)[:3] == (214, 39, 40)


def test_png_cell_size_must_be_whole():
    maze = generate(np.zeros((3, 3), np.int32), rng=1)
    with pytest.raises(ValueError, match="whole number"):
        to_png_image(maze, cell_size=2.5)


def test_save_picks_format_and_is_atomic(tmp_path, monkeypatch):
    maze = generate(np.zeros((6, 8), np.int32), rng=2)
    svg = save(maze, tmp_path / "m.svg")
    png = save(maze, tmp_path / "m.PNG")
    assert svg.read_bytes().startswith(b"<?xml")
    assert png.read_bytes().startswith(b"\x89PNG")
    with pytest.raises(ValueError, match=r"unknown format '\.bmp'"):
        save(maze, tmp_path / "m.bmp")
    assert not (tmp_path / "m.bmp").exists()
    with pytest.raises(ValueError, match="record=True"):  # a GIF animates a recorded carve
        save(maze, tmp_path / "m.gif")
    assert not (tmp_path / "m.gif").exists()

    # A writer that fails half-way leaves the old file and no debris.
    import mazeart.export as export

    def broken(maze, fh, **options):
        fh.write(b"<?xml half")
        raise RuntimeError("disk on fire")

    before = svg.read_bytes()
    monkeypatch.setitem(export.EXPORT_FORMATS, ".svg", (broken, "broken"))
    with pytest.raises(RuntimeError):
        save(maze, svg)
    assert svg.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.PNG", "m.svg"]


# ----------------------------------------------------------------------------- numbers as text


def _python_text(v: float) -> str:
    """A number to four places, as short as it goes, by Python's own formatting."""
    text = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


@given(st.floats(-1e7, 1e7, allow_nan=False))
def test_a_number_is_written_as_python_writes_it(v):
    from mazeart.export._numbers import number_text

    text = number_text(v)
    scaled = v * 10000.0
    near_tie = 1e-6 + 4 * np.spacing(abs(scaled))  # the product's own rounding error
    if abs(abs(scaled - np.floor(scaled)) - 0.5) > near_tie:  # a tie rounding may break
        assert text == _python_text(v)
    assert abs(float(text) - v) <= 0.00005 + 1e-9 * abs(v)


@pytest.mark.parametrize("mode", ["never", "always"])
@given(data=st.data())
def test_path_text_reads_back_as_the_lines(mode, data):
    """SVG path data and PDF path operators, compiled and as Python, read back (by a regular
    expression, not the package) as the polylines' points to four places."""
    from mazeart._jit import jit_mode
    from mazeart.export._numbers import pdf_path, svg_path
    from mazeart.export.scene import Lines

    counts = data.draw(st.lists(st.integers(2, 6), min_size=1, max_size=12))
    coords = st.one_of(st.integers(-50, 50).map(float), st.floats(-500, 500, allow_nan=False))
    points = np.array(data.draw(st.lists(st.tuples(coords, coords), min_size=sum(counts),
                                         max_size=sum(counts))), float)  # fmt: skip
    starts = np.concatenate([[0], np.cumsum(counts)])
    lines = Lines(points, starts)
    with jit_mode(mode):
        svg = b"".join(svg_path(lines, 1.0)).decode()
        pdf = b"".join(pdf_path(lines, close=True)).decode()
    number = r"-?\d+(?:\.\d+)?"
    read, at = [], None
    for op, a, b in re.findall(rf"([MHVL])({number})(?: ({number}))?", svg):
        x, y = (float(a), float(b)) if op in "ML" else (
            (float(a), at[1]) if op == "H" else (at[0], float(a)))  # fmt: skip
        at = (x, y)
        read.append(at)
    assert svg.count("M") == len(counts)
    np.testing.assert_allclose(read, points, atol=0.00005 + 1e-12)
    ops = re.findall(rf"({number}) ({number}) ([ml])", pdf)
    assert [o for *_, o in ops] == ["m" if i in starts else "l" for i in range(len(points))]
    np.testing.assert_allclose([(float(x), float(y)) for x, y, _ in ops], points, atol=0.00005)
    assert pdf.count(" h") == len(counts)
