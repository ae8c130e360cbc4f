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

from mazeart import generate, weights_from_image
from mazeart.guide import fidelity, region_textures, segment_cells, segment_walls
from mazeart.image import figure_coverage
from mazeart.shape import ShapeReport
from mazeart.weights import FORBIDDEN, FREE

LOGO = REPO / "samples" / "logo.png"


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
    maze = generate(weights, seed=seed, algorithm=algorithm, walls=(east, south),
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
        m = generate(weights, seed=3, algorithm="flow", direction=direction)
        e, s = np.count_nonzero(m.passages & 2), np.count_nonzero(m.passages & 4)
        shares[direction] = e / (e + s)
    assert shares["horizontal"] > 0.85 and shares["vertical"] < 0.15
    assert 0.4 < shares["random"] < 0.6


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
    maze = generate(weights, seed=2, algorithm="flow", angle=angle, bias=bias)
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
    assert res.returncode == 2 and "--edges or --regions" in res.stderr


def test_edges_on_the_logo_wall_the_s_curve():
    from PIL import Image
    from skimage.morphology import skeletonize

    res_plain = weights_from_image(LOGO, cells=80)
    rgb = np.asarray(Image.open(LOGO).convert("RGB")).astype(int)
    figure = figure_coverage(LOGO) >= 0.5
    disk = ndimage.binary_fill_holes(ndimage.binary_closing(figure, iterations=6))
    s_curve = skeletonize(ndimage.binary_erosion(disk, iterations=8) & (rgb.min(axis=2) > 200))
    assert s_curve.sum() > 800
    from mazeart.guide import close_gaps

    free = close_gaps(res_plain == FREE)
    labels = segment_cells(LOGO, free.shape, segments=2, figure=figure)
    walls = segment_walls(labels, free)
    report = ShapeReport()
    maze = generate(np.where(free, FREE, FORBIDDEN).astype(np.int32), seed=1, walls=walls,
                    report=report)  # fmt: skip
    plain = generate(res_plain, seed=1)
    guided, blind = fidelity(maze, LOGO, edges=s_curve), fidelity(plain, LOGO, edges=s_curve)
    assert report.doors == 1  # two halves, one door
    assert components(maze) == 1
    # the curve's pixels lie on walls far more often than a maze blind to it manages
    assert guided["edge_share"] >= 0.75
    assert blind["edge_share"] < 0.55 and abs(guided["wall_share"] - 0.5) < 0.05


@pytest.mark.parametrize(("cells", "low", "high"), [(50, 0.89, 0.93), (100, 0.94, 0.96),
                                                   (200, 0.97, 0.985)])  # fmt: skip
def test_silhouette_iou_is_the_grids_quantisation_bound(cells, low, high, horse_png):
    weights = weights_from_image(horse_png, cells=cells)
    maze = generate(weights, seed=1)
    fid = fidelity(maze, horse_png, allowed=weights == FREE)
    assert low <= fid["iou"] <= high
    # independently: IoU of the free cells laid over the pixels equals the maze's
    figure = figure_coverage(horse_png) >= 0.5
    h, w = figure.shape
    rows = (np.arange(h) * weights.shape[0] // h).clip(max=weights.shape[0] - 1)
    cols = (np.arange(w) * weights.shape[1] // w).clip(max=weights.shape[1] - 1)
    foot = (weights == FREE)[np.ix_(rows, cols)]
    assert fid["iou"] == pytest.approx((foot & figure).sum() / (foot | figure).sum(), abs=2e-3)
