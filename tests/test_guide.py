"""Image-guided mazes: extra walls with minimal doors, textures per region, fidelity numbers."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import REPO, SKIMAGE_DATA, free_masks, run_cli
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import ndimage
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import connected_components

from mazeart import Guide, generate, make, weights_from_image
from mazeart.guide import fidelity, region_textures, segment_cells, segment_walls
from mazeart.image import figure_coverage
from mazeart.shape import ShapeReport
from mazeart.weights import FORBIDDEN, FREE

LOGO = REPO / "samples" / "logo.png"


def inside_evenodd(points, rings):
    """Even-odd inside test by scikit-image (independent of mazeart's compiled one)."""
    from skimage.measure import points_in_poly

    inside = np.zeros(len(points), dtype=bool)
    for ring in rings:
        inside ^= points_in_poly(points, ring)
    return inside


def components(maze, *, cut_e=None, cut_s=None) -> int:
    """Parts of the maze graph (passages across the given walls left out), by SciPy."""
    n = maze.height * maze.width
    p = maze.passages
    e = (p & 2) != 0
    s = (p & 4) != 0
    if cut_e is not None:
        e, s = e & ~cut_e, s & ~cut_s
    idx = np.arange(n).reshape(maze.shape)
    a = np.concatenate([idx[e], idx[s]])
    b = np.concatenate([idx[e] + 1, idx[s] + maze.width])
    graph = coo_matrix((np.ones(len(a)), (a, b)), shape=(n, n))
    _, labels = connected_components(graph, directed=False)
    return len(np.unique(labels.reshape(maze.shape)[maze.mask]))


@given(
    free=free_masks(max_side=12),
    data=st.data(),
    seed=st.integers(0, 2**32 - 1),
    algorithm=st.sampled_from(["weighted-dfs", "wilson", "prim", "division", "flow"]),
)
def test_extra_walls_are_crossed_by_as_few_doors_as_possible(free, data, seed, algorithm):
    labels = data.draw(arrays(np.int8, free.shape, elements=st.integers(0, 2)))
    east, south = segment_walls(labels, free)
    weights = np.where(free, FREE, FORBIDDEN).astype(np.int32)
    report = ShapeReport()
    maze = generate(weights, rng=seed, algorithm=algorithm, walls=(east, south),
                    islands="separate", report=report)  # fmt: skip
    # still a perfect maze in every free part
    parts = ndimage.label(free)[1]
    assert components(maze) == parts
    assert maze.n_passages == maze.n_cells - parts
    # passages across the walls are exactly the doors, and no more than needed:
    # one per join of two wall-separated sides
    crossing = int(np.count_nonzero(((maze.passages & 2) != 0) & east) +
                   np.count_nonzero(((maze.passages & 4) != 0) & south))  # fmt: skip
    assert crossing == report.doors
    sides = components(maze, cut_e=east, cut_s=south)
    assert crossing == sides - parts
    # and each side is a tree of its own (no side is split further than the walls force)
    side_parts = 0
    for value in np.unique(labels[free]):
        side_parts += ndimage.label(free & (labels == value))[1]
    assert sides == side_parts


def test_flow_textures_follow_their_direction():
    weights = np.zeros((40, 60), np.int32)
    shares = {}
    for direction in ("horizontal", "vertical", "random"):
        m = generate(weights, rng=3, algorithm="flow", direction=direction)
        e, s = np.count_nonzero(m.passages & 2), np.count_nonzero(m.passages & 4)
        shares[direction] = e / (e + s)
    assert shares["horizontal"] > 0.85 and shares["vertical"] < 0.15
    assert 0.4 < shares["random"] < 0.6


def test_flow_refuses_a_bias_it_cannot_read_and_survives_any_angle():
    """A NaN bias is an error (not a key the bucket sort cannot place); NaN or infinite
    angles mean no direction; a spiral's field keeps the maze perfect."""
    weights = np.zeros((20, 30), np.int32)
    for bias in (float("nan"), -0.1, 1.5, np.where(np.eye(20, 30) > 0, np.nan, 0.5)):
        with pytest.raises(ValueError, match="bias must be between 0 and 1"):
            generate(weights, rng=1, algorithm="flow", bias=bias)
    angle = np.full((20, 30), np.nan)
    angle[::3] = np.inf
    for options in ({"angle": angle}, {"direction": "spiral"}, {"direction": "vortex"}):
        m = generate(weights, rng=1, algorithm="flow", **options)
        assert m.n_passages == m.n_cells - 1 == 599


def horizontal_share(maze, cells) -> float:
    e = np.count_nonzero((maze.passages & 2)[cells])
    s = np.count_nonzero((maze.passages & 4)[cells])
    return e / max(e + s, 1)


def test_regions_on_the_logo_get_different_textures():
    weights = weights_from_image(LOGO, cells=80)
    figure = figure_coverage(LOGO) >= 0.5
    labels = segment_cells(LOGO, weights.shape, segments=2, figure=figure)
    free = weights == FREE
    angle, bias, assigned = region_textures(labels, free, textures=["horizontal", "vertical"])
    assert [t for _, t in assigned[:2]] == ["horizontal", "vertical"]
    maze = generate(weights, rng=2, algorithm="flow", angle=angle, bias=bias)
    big = [v for v in np.unique(labels[free])]
    shares = sorted(horizontal_share(maze, free & (labels == v)) for v in big)
    assert shares[0] < 0.25 and shares[-1] > 0.75  # one half vertical, the other horizontal


def test_regions_on_coins_through_the_cli(tmp_path):
    from PIL import Image

    from mazeart.mazefile import load_maze

    coins = tmp_path / "coins.png"
    Image.open(SKIMAGE_DATA / "coins.png").save(coins)
    out = tmp_path / "coins.json"
    res = run_cli(coins, "-o", out, "--regions", "--cells", "90", "--seed", "1",
                  "--textures", "spiral,horizontal,vertical")  # fmt: skip
    assert res.returncode == 0, res.stderr
    maze = load_maze(out)
    assert maze.meta["algorithm"] == "flow"
    res = run_cli(LOGO, "-o", out, "--regions", "-a", "prim")
    assert res.returncode == 2 and "flow generator" in res.stderr
    res = run_cli(LOGO, "-o", out, "--segments", "3")
    assert res.returncode == 2 and "segments applies with edges or regions" in res.stderr


@pytest.mark.parametrize("cells", [50, 80, 100])
def test_edges_on_the_logo_wall_the_s_curve(cells):
    from PIL import Image
    from skimage.morphology import skeletonize

    # The S-curve: the centre line of the white band between the green and orange halves
    # (the largest white patch inside the disk).
    rgb = np.asarray(Image.open(LOGO).convert("RGB")).astype(int)
    figure = figure_coverage(LOGO) >= 0.5
    disk = ndimage.binary_fill_holes(ndimage.binary_closing(figure, iterations=6))
    white = ndimage.binary_erosion(disk, iterations=8) & (rgb.min(axis=2) > 200)
    lab, _ = ndimage.label(white)
    s_curve = skeletonize(lab == np.argmax(np.bincount(lab.ravel())[1:]) + 1)
    assert s_curve.sum() > 800

    made = make(LOGO, cells=cells, edges=True, rng=1)
    maze, report = made.maze, made.report
    blind = generate(weights_from_image(LOGO, cells=cells), rng=1)
    guided, plain = fidelity(maze, LOGO, edges=s_curve), fidelity(blind, LOGO, edges=s_curve)
    assert report.doors >= 1 and components(maze) == 1  # every cell still reachable
    assert guided["edge_share"] >= 0.9  # measured 0.95-0.96 at 50, 80 and 100 cells
    assert plain["edge_share"] < 0.6  # a maze blind to the curve


@pytest.mark.parametrize(("cells", "low", "high"), [(50, 0.89, 0.93), (100, 0.94, 0.96),
                                                   (200, 0.97, 0.985)])  # fmt: skip
def test_silhouette_iou_is_the_grids_quantisation_bound(cells, low, high, horse_png):
    weights = weights_from_image(horse_png, cells=cells)
    maze = generate(weights, rng=1)
    fid = fidelity(maze, horse_png, allowed=weights == FREE)
    assert low <= fid["iou"] <= high
    # independently: IoU of the free cells laid over the pixels equals the maze's
    figure = figure_coverage(horse_png) >= 0.5
    h, w = figure.shape
    rows = ((2 * np.arange(h) + 1) * weights.shape[0] // (2 * h)).clip(max=weights.shape[0] - 1)
    cols = ((2 * np.arange(w) + 1) * weights.shape[1] // (2 * w)).clip(max=weights.shape[1] - 1)
    foot = (weights == FREE)[np.ix_(rows, cols)]
    assert fid["iou"] == pytest.approx((foot & figure).sum() / (foot | figure).sum(), abs=2e-3)


# ----------------------------------------------------------------------------- smooth outline


def smooth_maze(path, cells, seed=1):
    return make(path, cells=cells, outline="smooth", rng=seed).maze


def test_smooth_outline_fits_the_picture_and_stays_passable(horse_png):
    from mazeart.outline import bridge_cells, outline_paths

    maze = smooth_maze(horse_png, 100)
    plain = generate(weights_from_image(horse_png, cells=100), rng=1)
    smooth_iou = fidelity(maze, horse_png)["iou"]
    assert smooth_iou >= 0.97 > fidelity(plain, horse_png)["iou"]
    rings = maze.guide.outline
    bridges = bridge_cells(maze)
    t = np.linspace(0, 1, 9)[:, None]
    for a, b in maze.links():  # centre -> shared side -> centre stays inside the outline
        (r0, c0), (r1, c1) = divmod(int(a), maze.width), divmod(int(b), maze.width)
        if bridges[r0, c0] or bridges[r1, c1]:
            continue
        p0, p1 = np.array([c0 + 0.5, r0 + 0.5]), np.array([c1 + 0.5, r1 + 0.5])
        assert inside_evenodd(p0 + (p1 - p0) * t, rings).all()
    # the doors: nothing of the drawn outline crosses the way out of the entrance and exit,
    # from the end cell's centre to the door's mouth
    from mazeart.outline import door_mouths

    paths = outline_paths(maze)
    ends = ((maze.entrance, maze.entrance_side), (maze.exit, maze.exit_side))
    for (cell, side), mouth in zip(ends, door_mouths(maze), strict=True):
        step = {1: (0, -1), 2: (1, 0), 4: (0, 1), 8: (-1, 0)}[side]
        centre = np.array([cell[1] + 0.5, cell[0] + 0.5])
        reach = float(np.dot((mouth[0] + mouth[1]) / 2 - centre, step))
        way = centre + np.outer(np.linspace(0, reach, 61), step)
        for path in paths:  # room for the pen: the outline stays a fifth of a cell away
            near = np.min(np.linalg.norm(way[:, None, :] - path[None, :, :], axis=2))
            assert near > 0.2


def test_smooth_outline_drawn_in_svg_and_png(tmp_path, horse_png):
    import xml.etree.ElementTree as ET

    from mazeart import save
    from mazeart.export import to_png_image

    maze = smooth_maze(horse_png, 40)
    svg = tmp_path / "m.svg"
    save(maze, svg)
    root = ET.fromstring(svg.read_text())
    ns = "{http://www.w3.org/2000/svg}"
    assert root.find(f".//{ns}clipPath") is None  # cut by geometry, not by the renderer
    assert root.find(f"{ns}g[@id='outline']/{ns}path").get("d").count("L") > 100
    walls = root.find(f"{ns}g[@id='walls']")
    assert walls.get("clip-path") is None and walls.find(f"{ns}path") is not None
    img = np.asarray(
        to_png_image(maze, cell_size=10, margin=1, markers=False, background="transparent").convert(
            "RGBA"
        )
    )
    # ink only inside the outline (give or take the outline's own stroke)
    import shapely
    from PIL import Image, ImageDraw

    from mazeart.outline import drawn_region

    # the floor's area: the figure, the bridges between islands, the doors' corridors
    region = drawn_region(maze)
    inside = np.zeros(img.shape[:2], bool)
    for poly in shapely.get_parts(region):
        for ring in (poly.exterior, *poly.interiors):
            layer = Image.new("1", (img.shape[1], img.shape[0]), 0)
            points = [(10 + x * 10, 10 + y * 10) for x, y in ring.coords]
            ImageDraw.Draw(layer).polygon(points, fill=1)
            inside ^= np.asarray(layer, bool)
    grown = ndimage.binary_dilation(inside, iterations=3)
    ink = img[..., 3] > 0
    assert not np.any(ink & ~grown)
    # and it survives a save and load
    from mazeart.mazefile import dumps, loads

    assert loads(dumps(maze)).guide == maze.guide


def test_tone_reads_as_the_photograph():
    from PIL import Image, ImageFilter

    from mazeart.export import to_png_image

    camera = SKIMAGE_DATA / "camera.png"
    toned = make(camera, cells=128, threshold=128, tone=True, rng=1).maze
    assert toned.mask.all()  # the whole picture is maze
    maze = toned.replace(guide=Guide())
    grey = np.asarray(Image.open(camera).convert("L").resize((64, 64), Image.Resampling.BOX), float)

    def corr(m) -> float:
        img = to_png_image(m, cell_size=6, margin=0).convert("L")
        small = img.filter(ImageFilter.GaussianBlur(4)).resize((64, 64), Image.Resampling.BOX)
        return float(np.corrcoef(np.asarray(small, float).ravel(), grey.ravel())[0, 1])

    assert corr(toned) >= 0.95  # measured 0.98
    assert abs(corr(maze)) < 0.3  # the same maze, every wall alike


def test_clip_segments_keeps_exactly_the_inside_parts():
    from mazeart.outline import clip_segments

    t = np.linspace(0, 2 * np.pi, 60, endpoint=False)
    outer = np.stack([10.13 + 8 * np.cos(t), 10.07 + 6 * np.sin(t)], axis=1)
    hole = np.stack([10.13 + 3 * np.cos(t), 10.07 + 2 * np.sin(t)], axis=1)  # off the grid lines
    rng = np.random.default_rng(0)
    segs = []
    for _ in range(300):
        a, b = sorted(rng.integers(0, 21, 2))
        level = rng.integers(0, 21)
        segs.append((a, level, b, level) if rng.random() < 0.5 else (level, a, level, b))
    clipped = clip_segments(np.array(segs, float), [outer, hole])
    inside_len = sum(np.hypot(x1 - x0, y1 - y0) for x0, y0, x1, y1 in clipped)
    # the same by sampling every segment finely
    sampled = 0.0
    for x0, y0, x1, y1 in segs:
        n = 2000
        pts = np.stack([np.linspace(x0, x1, n), np.linspace(y0, y1, n)], axis=1)
        sampled += np.hypot(x1 - x0, y1 - y0) * inside_evenodd(pts, [outer, hole]).mean()
    assert inside_len == pytest.approx(sampled, rel=0.01)
    mids = np.stack([(clipped[:, 0] + clipped[:, 2]) / 2, (clipped[:, 1] + clipped[:, 3]) / 2], 1)
    assert inside_evenodd(mids, [outer, hole]).all()


def test_smooth_outline_in_the_pdf(tmp_path, horse_png):
    from pypdf import PdfReader

    from mazeart.export.pdf import to_pdf_bytes

    maze = smooth_maze(horse_png, 40)
    pdf = tmp_path / "m.pdf"
    pdf.write_bytes(to_pdf_bytes(maze))
    assert len(PdfReader(pdf).pages) == 2


def test_close_gaps_keeps_a_rings_hole_and_fills_a_pocket():
    """The inside of a ring (a badge's ring around its star) is the figure's own shape: it
    stays ground; a pocket a cell or two across inside the figure is closed."""
    from mazeart.guide import close_gaps

    yy, xx = np.mgrid[:60, :60]
    r = np.hypot(yy - 30, xx - 30)
    ring = (r < 28) & (r > 18)
    out = close_gaps(ring)
    assert not out[30, 30] and np.array_equal(out, ring)
    disc = r < 28
    pocket = disc.copy()
    pocket[29:31, 29:31] = False  # 2 x 2 cells of ground inside
    assert close_gaps(pocket)[disc].all()
