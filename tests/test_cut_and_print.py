"""A laser cutter's sheet and a 3-D printer's model, read by others: the cut SVG by vpype and
shapely, drawn by rsvg and flood-filled; the STL and 3MF by trimesh, lib3mf, admesh and a
slicer; the model's top seen from above, against the maze's own passages."""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
import shapely
import shapely.affinity
from conftest import REPO, run_cli
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw
from scipy import ndimage
from test_scene import tool

from mazeart import generate, make, solve
from mazeart.export import write
from mazeart.export.mesh import solid_model
from mazeart.export.solid import plan
from mazeart.grids.recipe import GRID_KINDS

HORSE = REPO / "samples" / "horse.png"
LOGO = REPO / "samples" / "logo.png"
SVG = "{http://www.w3.org/2000/svg}"


# ----------------------------------------------------------------------------- the cut sheet


def cut_rings(svg: Path, layer: str = "cut") -> list[np.ndarray]:
    """The closed outlines of a layer as vpype reads them, in the document's millimetres."""
    vpype = pytest.importorskip("vpype")
    doc = vpype.read_multilayer_svg(str(svg), quantization=0.01)
    root = ET.parse(svg).getroot()
    width_mm = float(root.get("width").removesuffix("mm"))
    # vpype reads in CSS pixels of the physical size: back to millimetres
    doc.scale(width_mm / vpype.convert_length(root.get("width")))
    for lc in doc.layers.values():
        if lc.property("vp_name") == layer:
            return [np.stack([ln.real, ln.imag], axis=1) for ln in lc]
    return []


def piece_of(rings: list[np.ndarray]):
    """The material the outlines enclose, by the even-odd rule (shapely, not mazeart)."""
    area = shapely.Polygon()
    for ring in rings:
        area = area.symmetric_difference(shapely.make_valid(shapely.Polygon(ring)))
    return area


def filled(svg: Path, tmp_path: Path, width_px: int) -> np.ndarray:
    """The cut sheet drawn by rsvg with its outlines filled even-odd: True on material."""
    rsvg = tool("rsvg-convert")
    text = svg.read_text().replace('fill="none" stroke="#ff0000"',
                                   'fill="#000000" fill-rule="evenodd" stroke="none"')  # fmt: skip
    solid, png = tmp_path / "filled.svg", tmp_path / "filled.png"
    solid.write_text(text)
    subprocess.run([rsvg, "-w", str(width_px), "-b", "white", solid, "-o", png], check=True)
    return np.asarray(Image.open(png).convert("L")) < 128


def test_the_cut_sheet_is_one_piece_with_the_corridors_cut_out(tmp_path):
    out = tmp_path / "horse.svg"
    done = run_cli(HORSE, "-o", out, "--cut", "--size", "200mm", "--seed", "4", "--cells", "66")
    assert done.returncode == 0, done.stderr
    assert "pieces" not in done.stderr
    root = ET.parse(out).getroot()
    assert root.get("width") == "200mm"
    assert root.get("viewBox").split()[2] == "200"  # one user unit is a millimetre
    rings = cut_rings(out)
    assert max(np.ptp(r[:, 0]) for r in rings) == pytest.approx(200, abs=0.05)
    # the outline is cut after the holes it holds
    assert shapely.Polygon(rings[-1]).area == max(shapely.Polygon(r).area for r in rings)
    # drawn and filled: the material is one piece (4-connected pixels at 10 a millimetre)
    material = filled(out, tmp_path, 2000)
    parts, _ = ndimage.label(material)
    sizes = np.bincount(parts.ravel())[1:]
    assert (sizes > 20).sum() == 1, sorted(sizes)[-5:]
    # a perfect maze's corridors are one tree: every cell's centre lies in one hole
    maze = make(HORSE, rng=4, cells=66).maze
    mat = plan(maze, size=200.0, what="a cut maze")
    rows, cols = np.nonzero(maze.mask)
    xy = mat.to_mm(np.stack([cols + 0.5, rows + 0.5], axis=1)) * 10
    free, _ = ndimage.label(~material)
    holes = free[(material.shape[0] - xy[:, 1]).astype(int), xy[:, 0].astype(int)]
    assert len(set(holes.tolist())) == 1 and holes[0] != free[0, 0]


def test_kerf_moves_every_outline_half_its_width_into_the_waste(tmp_path):
    plain, kerfed = tmp_path / "plain.svg", tmp_path / "kerf.svg"
    for path, extra in ((plain, []), (kerfed, ["--kerf", "0.4"])):
        done = run_cli("14x10", "-o", path, "--cut", "--size", "150mm", "--seed", "2", *extra)
        assert done.returncode == 0, done.stderr
    a, b = piece_of(cut_rings(plain)), piece_of(cut_rings(kerfed))
    a = shapely.affinity.translate(a, 0.2, 0.2)  # the sheet grew by the kerf: half each side
    grown = b.area - a.area
    # growing by 0.2 mm adds a band along the outline (less at inner corners)
    assert grown == pytest.approx(0.2 * a.length, rel=0.03)
    assert b.contains(a.buffer(0.19))


def test_the_cut_maze_is_solvable_as_drawn(tmp_path):
    """The sheet drawn by rsvg, its material filled: from the entrance's cell the
    corridors flood to the exit's, and no corridor leads out of the sheet."""
    out = tmp_path / "maze.svg"
    maze = make(LOGO, cells=30, rng=6, edges=False).maze
    write(maze, out, cut=True, size="150mm")
    free = ~filled(out, tmp_path, 1500)
    labels, _ = ndimage.label(free)
    mat = plan(maze, size=150.0, what="a cut maze")
    k = 1500 / 150  # pixels a millimetre

    def pixel(cell):
        x, y = mat.to_mm([[cell[1] + 0.5, cell[0] + 0.5]])[0]
        return int((mat.height - y) * k), int(x * k)

    start, end = labels[pixel(maze.entrance)], labels[pixel(maze.exit)]
    assert start > 0 and start == end
    assert labels[0, 0] != start  # the corridors do not reach the sheet's outside


def test_engraving_cuts_the_outline_only(tmp_path):
    out = tmp_path / "horse.svg"
    done = run_cli(HORSE, "-o", out, "--engrave", "--seed", "4", "--cells", "30")
    assert done.returncode == 0, done.stderr
    cut = piece_of(cut_rings(out))
    assert cut.geom_type == "Polygon" and not cut.interiors
    walls = piece_of(cut_rings(out, "engrave"))
    assert cut.contains(walls) and walls.area > 0.1 * cut.area


def test_kerf_without_cut_is_a_clear_error(tmp_path):
    done = run_cli("6x4", "-o", tmp_path / "m.svg", "--kerf", "0.2")
    assert done.returncode == 2
    assert done.stderr.strip() == "mazeart: error: kerf is a cut sheet's: give it with cut (--cut)"
    assert not (tmp_path / "m.svg").exists()


# ----------------------------------------------------------------------------- the model


def admesh_report(stl: Path) -> dict[str, float]:
    text = subprocess.run([tool("admesh"), str(stl)], capture_output=True, text=True).stdout
    keys = ("Number of parts", "Degenerate facets", "Edges fixed", "Facets removed",
            "Facets added", "Facets reversed", "Backwards edges", "Normals fixed")  # fmt: skip
    return {k: float(re.search(rf"{k}\s*:\s*([\d.]+)", text).group(1)) for k in keys}


def test_the_coaster_is_watertight_and_sliceable(tmp_path):
    """The README's command: trimesh calls the model a closed volume, admesh finds nothing
    to fix, and a slicer turns it into layers as high as the model."""
    trimesh = pytest.importorskip("trimesh")
    out = tmp_path / "coaster.stl"
    done = run_cli(LOGO, "-o", out, "--size", "90mm", "--seed", "1")
    assert done.returncode == 0, done.stderr
    mesh = trimesh.load(out)
    assert mesh.is_watertight and mesh.is_winding_consistent and mesh.is_volume
    assert mesh.volume > 0
    lo, hi = mesh.bounds
    assert hi[0] - lo[0] == pytest.approx(90, abs=0.01)
    assert hi[2] - lo[2] == pytest.approx(6, abs=1e-4)  # a 2 mm plate, walls 4 mm above
    assert mesh.body_count == 1
    report = admesh_report(out)
    assert report.pop("Number of parts") == 1
    assert not any(report.values()), report
    slicer = shutil.which("slic3r")
    if slicer is None:
        if __import__("os").environ.get("MAZEART_REQUIRE_TOOLS"):
            pytest.fail("slic3r is not installed")
        pytest.skip("slic3r is not installed")
    gcode = tmp_path / "coaster.gcode"
    sliced = subprocess.run([slicer, str(out), "--layer-height", "0.2", "--output", str(gcode)],
                            capture_output=True, text=True, timeout=300)  # fmt: skip
    assert sliced.returncode == 0, sliced.stdout + sliced.stderr
    heights = {float(z) for z in re.findall(r"^G1 Z([\d.]+)", gcode.read_text(), re.M)}
    assert max(heights) == pytest.approx(6.0, abs=0.25)


def test_the_3mf_is_read_by_the_consortiums_library(tmp_path):
    lib3mf = pytest.importorskip("lib3mf")
    out = tmp_path / "maze.3mf"
    maze = make(HORSE, cells=20, rng=3).maze
    write(maze, out, size="80mm", title="A horse", solutions=[solve(maze)])
    model = solid_model(maze, size="80mm", solutions=[solve(maze)])
    wrapper = lib3mf.get_wrapper()
    read = wrapper.CreateModel()
    read.QueryReader("3mf").ReadFromFile(str(out))
    assert read.GetUnit() == lib3mf.ModelUnit.MilliMeter
    objects = read.GetMeshObjects()
    assert objects.MoveNext()
    mesh = objects.GetCurrentMeshObject()
    assert mesh.IsManifoldAndOriented()
    assert mesh.GetVertexCount() == len(model.vertices)
    assert mesh.GetTriangleCount() == len(model.triangles)


def top_view(mesh, top: float, scale: float, size: tuple[int, int]) -> np.ndarray:
    """Where the model stands ``top`` high, seen from above: its upward faces at that
    height filled by Pillow (``scale`` pixels a millimetre, ``y`` down)."""
    image = Image.new("1", size, 0)
    draw = ImageDraw.Draw(image)
    tris = mesh.vertices[mesh.faces]
    up = (mesh.face_normals[:, 2] > 0.99) & (np.abs(tris[:, :, 2] - top).max(axis=1) < 1e-4)
    for tri in tris[up]:
        draw.polygon([(x * scale, size[1] - y * scale) for x, y, _ in tri], fill=1)
    return np.asarray(image)


def wall_heights_match_passages(maze, mesh, size: float, line_width: float) -> None:
    """At each wall's middle the model stands to the walls' top exactly where the maze
    has the wall closed (the maze's own passages: what the generator carved)."""
    g = maze.grid
    mat = plan(maze, size=size, line_width=line_width)
    scale = 8.0  # pixels a millimetre
    shape = (int(mat.width * scale) + 2, int(mat.height * scale) + 2)
    tops = top_view(mesh, float(mesh.bounds[1][2]), scale, shape)
    a, b = g.wall_cells[:, 0], g.wall_cells[:, 1]
    mask = maze.mask.reshape(-1)
    inner = np.flatnonzero((b >= 0) & mask[a] & mask[np.maximum(b, 0)])
    middles = []
    for w in inner:
        line = g.wall(w)
        half = len(line) // 2
        middles.append(line[half] if len(line) % 2 else line[half - 1 : half + 1].mean(axis=0))
    xy = mat.to_mm(np.array(middles)) * scale
    stands = tops[(shape[1] - xy[:, 1]).astype(int), xy[:, 0].astype(int)]
    assert len(inner) > 10
    assert np.array_equal(stands, ~wall_open(maze, a[inner], b[inner]))


def wall_open(maze, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether the maze has a passage between cells ``a`` and ``b`` (flat ids): its passage
    bits on the square grid, its walls' flags on another."""
    if not maze.is_square:
        g = maze.grid
        walls = {frozenset(p): w for w, p in enumerate(g.wall_cells.tolist())}
        pairs = zip(a.tolist(), b.tolist(), strict=True)
        return np.array([maze.passages[walls[frozenset(p)]] for p in pairs], bool)
    from mazeart.maze import E, S

    lo, hi = np.minimum(a, b), np.maximum(a, b)
    bit = np.where(hi == lo + 1, E, S)
    return (maze.passages.reshape(-1)[lo] & bit) != 0


@pytest.mark.parametrize("kind", [k for k in GRID_KINDS if k not in ("adaptive",)])
def test_the_printed_walls_are_the_mazes_walls_on_every_grid(kind):
    trimesh = pytest.importorskip("trimesh")
    maze = make(HORSE, cells=16, rng=2, grid=kind).maze
    model = solid_model(maze, size="120mm", line_width=0.2)
    mesh = trimesh.Trimesh(model.vertices, model.triangles)
    assert mesh.is_volume
    wall_heights_match_passages(maze, mesh, 120.0, 0.2)


@settings(max_examples=20)
@given(
    seed=st.integers(0, 2**31),
    algorithm=st.sampled_from(["backtracker", "kruskal", "wilson", "prim"]),
    braid=st.sampled_from([0.0, 0.5]),
    grid=st.sampled_from(["square", "hex", "triangle"]),
    wall_height=st.floats(0.5, 12),
    base=st.floats(0.4, 5),
)
def test_every_model_is_a_closed_volume(seed, algorithm, braid, grid, wall_height, base):
    trimesh = pytest.importorskip("trimesh")
    maze = make("9x7", rng=seed, algorithm=algorithm, braid=braid, grid=grid).maze
    model = solid_model(maze, size="60mm", wall_height=wall_height, base=base,
                        solutions=[solve(maze)])  # fmt: skip
    mesh = trimesh.Trimesh(model.vertices, model.triangles, process=False)
    mesh.merge_vertices()  # as an STL reader joins them: by position
    assert mesh.is_watertight and mesh.is_winding_consistent and mesh.volume > 0
    assert mesh.bounds[1][2] == pytest.approx(base + wall_height, rel=1e-5)


def test_a_model_of_a_plain_maze_has_the_volume_of_its_parts():
    """Plate and walls, by their areas measured on the picture mazeart draws (Pillow's
    painter), not by the model's own outline."""
    trimesh = pytest.importorskip("trimesh")
    maze = generate(np.zeros((8, 10), np.int32), rng=1)
    model = solid_model(maze, size="120mm", margin=0, line_width=0.2, wall_height=5, base=2)
    mesh = trimesh.Trimesh(model.vertices, model.triangles)
    from mazeart.export import to_png_image

    px = 50
    picture = np.asarray(to_png_image(maze, cell_size=px, line_width=0.2, margin=1,
                                      markers=False).convert("L")) < 128  # fmt: skip
    mat = plan(maze, size=120.0, margin=0, line_width=0.2)
    walls_mm2 = picture.sum() * (mat.unit / px) ** 2
    plate_mm2 = mat.width * mat.height  # a rectangle (its rim's round corners are 0.05 mm)
    assert mesh.volume == pytest.approx(2 * plate_mm2 + 5 * walls_mm2, rel=0.01)


def test_bad_model_options_are_clear_errors(tmp_path):
    for args, message in (
        (["--size", "90px"], "size must be a length such as 90mm, 9cm or 3.5in, got '90px'"),
        (["--wall-height", "-1"], "--wall-height must be"),
        (["--base", "0"], "--base must be"),
    ):
        out = tmp_path / "m.stl"
        done = run_cli("6x4", "-o", out, *args)
        assert done.returncode == 2, done.stderr
        assert message in done.stderr and "Traceback" not in done.stderr
        assert not out.exists()


def test_a_saved_maze_prints_and_cut_options_elsewhere_are_said(tmp_path):
    saved = tmp_path / "maze.json"
    assert run_cli("10x8", "-o", saved, "--seed", "1").returncode == 0
    done = run_cli(saved, "-o", tmp_path / "maze.stl")
    assert done.returncode == 0, done.stderr
    done = run_cli(saved, "-o", tmp_path / "maze.png", "--cut")
    assert done.returncode == 0
    assert "--cut does not apply to .png output (ignored)" in done.stderr
    done = run_cli(saved, "-o", tmp_path / "other.png", "--kerf", "-1")
    assert done.returncode == 2 and "--kerf must be" in done.stderr
    assert not (tmp_path / "other.png").exists()


def test_cells_too_small_to_make_are_one_warning_line(tmp_path):
    done = run_cli("12x9", "-o", tmp_path / "tiny.svg", "--cut", "--size", "20mm")
    assert done.returncode == 0
    lines = done.stderr.strip().splitlines()
    assert lines[0].startswith("mazeart: warning: cells of 1.4 mm are too small for a cut maze")
    assert len(lines) == 2 and "Traceback" not in done.stderr
