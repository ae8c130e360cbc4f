"""Image-guided mazes: the picture's colour regions become walls and textures, and fidelity.

A silhouette decides *where* the maze is; this module lets the picture decide
*how* it runs inside (after Xu & Kaplan, "Image-Guided Maze Construction", 2007):

:func:`segment_cells`
    Cluster the figure's colours (k-means in CIE Lab, seeded, on a sample of
    pixels) and give every grid cell the cluster that covers most of it.
:func:`segment_walls`
    ``--edges``: the boundaries between those colour regions as walls the maze
    respects. :func:`mazeart.shape.respect_walls` cuts every passage across them
    and joins each side again through as few doors as keep it connected.
:func:`region_textures`
    ``--regions``: every region (a connected patch of one colour) gets its own
    flow field for the ``flow`` generator: horizontal, vertical, spiral or vortex
    around the region's centre, along the image gradient or its isolines, or
    plain random.
:func:`fidelity`
    How faithful a maze is to its picture: footprint IoU of the maze's cells
    with the figure, and the share of the picture's edge pixels that lie on
    drawn walls.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from mazeart.image import figure_coverage, open_image, resample_coverage
from mazeart.maze import Maze

__all__ = [
    "TEXTURES",
    "close_gaps",
    "fidelity",
    "guidance",
    "region_textures",
    "segment_cells",
    "segment_walls",
]

TEXTURES = ("horizontal", "vertical", "spiral", "vortex", "gradient", "isolines", "random")
"""Textures a region can take (``auto`` cycles through the first six)."""


def _rgb(image) -> NDArray[np.float64]:
    img = image if not isinstance(image, str | os.PathLike) else open_image(image)
    return np.asarray(img.convert("RGB"), dtype=np.float64) / 255.0


def segment_cells(
    image: Any,
    shape: tuple[int, int],
    *,
    segments: int = 2,
    figure: NDArray[np.bool_] | None = None,
    seed: int = 0,
) -> NDArray[np.int32]:
    """The colour cluster of every grid cell.

    Parameters
    ----------
    image : PIL.Image.Image or path
    shape : (int, int)
        Grid ``(rows, cols)`` (as made by :func:`mazeart.image.weights_from_image`).
    segments : int, default 2
        Colour clusters (k of k-means).
    figure : (h, w) ndarray of bool, optional
        Pixels to cluster (default: every pixel).
    seed : int
        k-means seed (clusters do not depend on the maze's seed).

    Returns
    -------
    (rows, cols) ndarray of int32
        Cluster index per cell; cells with no figure pixel take their nearest
        labelled cell's cluster.
    """
    from scipy import ndimage
    from scipy.cluster.vq import kmeans2
    from skimage.color import rgb2lab

    if isinstance(segments, bool) or not isinstance(segments, int) or not 2 <= segments <= 12:
        raise ValueError(f"segments must be an integer from 2 to 12, got {segments!r}")
    rgb = _rgb(image)
    lab = rgb2lab(rgb).reshape(-1, 3)
    mask = np.ones(rgb.shape[:2], bool) if figure is None else np.asarray(figure, bool)
    pixels = lab[mask.reshape(-1)]
    if len(pixels) < segments:
        raise ValueError("the picture has too few figure pixels to segment")
    rng = np.random.default_rng(seed)
    sample = pixels[rng.choice(len(pixels), size=min(len(pixels), 20000), replace=False)]
    centroids, _ = kmeans2(sample, segments, minit="++", seed=seed, iter=30)
    d = ((lab[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
    labels = np.argmin(d, axis=1).reshape(rgb.shape[:2])
    rows, cols = shape
    share = np.stack(
        [
            resample_coverage(((labels == j) & mask).astype(np.float32), cols)
            for j in range(segments)
        ]
    )
    if share.shape[1:] != (rows, cols):
        raise ValueError(f"the grid {shape} does not match the picture's aspect")
    cell = np.argmax(share, axis=0).astype(np.int32)
    empty = share.max(axis=0) < 0.05
    if empty.any() and not empty.all():
        _, (ri, ci) = ndimage.distance_transform_edt(empty, return_indices=True)
        cell = cell[ri, ci]
    return cell


def close_gaps(free: NDArray[np.bool_], *, width: int = 1) -> NDArray[np.bool_]:
    """The figure with ground gaps up to ``2 * width`` cells wide closed (and holes filled).

    A thin ground line inside a figure (the white S of scikit-image's logo) is a
    border between two parts of the picture; with ``--edges`` it becomes maze
    with a wall along it rather than a gap the maze must bridge.
    """
    from scipy import ndimage

    st = np.ones((3, 3), bool)
    closed = ndimage.binary_closing(np.pad(free, width + 1), structure=st, iterations=width)
    closed = closed[width + 1 : -width - 1, width + 1 : -width - 1]
    return ndimage.binary_fill_holes(closed | free)


def segment_walls(
    labels: NDArray[np.integer], free: NDArray[np.bool_]
) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """Walls between neighbouring free cells of different segments.

    Returns
    -------
    east, south : (H, W) ndarray of bool
        ``east[r, c]``: a wall between ``(r, c)`` and ``(r, c + 1)``; ``south``
        likewise with ``(r + 1, c)``.
    """
    east = np.zeros(free.shape, bool)
    south = np.zeros(free.shape, bool)
    east[:, :-1] = free[:, :-1] & free[:, 1:] & (labels[:, :-1] != labels[:, 1:])
    south[:-1] = free[:-1] & free[1:] & (labels[:-1] != labels[1:])
    return east, south


def _luminance_cells(image: Any, shape: tuple[int, int]) -> NDArray[np.float64]:
    rgb = _rgb(image)
    lum = rgb @ np.array([0.299, 0.587, 0.114])
    return resample_coverage(lum.astype(np.float32), shape[1]).astype(np.float64)


def region_textures(
    labels: NDArray[np.integer],
    free: NDArray[np.bool_],
    *,
    textures: Sequence[str] | None = None,
    image: Any = None,
    bias: float = 0.9,
) -> tuple[NDArray[np.float64], NDArray[np.float64], list[tuple[int, str]]]:
    """A flow field that gives every region its own texture.

    Parameters
    ----------
    labels : (H, W) ndarray of int
        Segment per cell (:func:`segment_cells`).
    free : (H, W) ndarray of bool
    textures : sequence of str, optional
        One per region, largest region first (see :data:`TEXTURES`); cycled
        when shorter. Default: ``horizontal, vertical, spiral, vortex, gradient,
        isolines``.
    image : PIL.Image.Image or path, optional
        Needed for ``gradient`` and ``isolines``.
    bias : float, default 0.9
        How strongly corridors follow the texture.

    Returns
    -------
    angle, bias : (H, W) ndarray of float
        For the ``flow`` generator.
    assigned : list of (int, str)
        Each region's cell count and texture, largest first.
    """
    from scipy import ndimage

    from mazeart.generate.flow import direction_field

    chosen = list(textures) if textures else list(TEXTURES[:6])
    bad = [t for t in chosen if t not in TEXTURES]
    if bad:
        raise ValueError(f"unknown texture(s) {', '.join(bad)} (choose from {', '.join(TEXTURES)})")
    shape = free.shape
    regions = np.zeros(shape, np.int64)
    count = 0
    for value in np.unique(labels[free]):
        lab, n = ndimage.label(free & (labels == value))
        regions[lab > 0] = lab[lab > 0] + count
        count += n
    sizes = np.bincount(regions.reshape(-1), minlength=count + 1)[1:]
    order = np.argsort(-sizes, kind="stable")
    angle = np.full(shape, np.nan)
    strength = np.zeros(shape)
    assigned = []
    lum = None
    for rank, idx in enumerate(order):
        cells = regions == idx + 1
        texture = chosen[rank % len(chosen)]
        assigned.append((int(sizes[idx]), texture))
        if texture in ("gradient", "isolines"):
            if image is None:
                raise ValueError(f"the {texture} texture needs the picture")
            if lum is None:
                smooth = ndimage.gaussian_filter(_luminance_cells(image, shape), 1.5)
                gy, gx = np.gradient(smooth)
                lum = np.arctan2(gy, gx)
            field = lum if texture == "gradient" else lum + np.pi / 2
        elif texture in ("spiral", "vortex"):
            rr, cc = np.nonzero(cells)
            field = direction_field(shape, texture, centre=(rr.mean(), cc.mean()))
        else:
            field = direction_field(shape, texture)
        angle[cells] = field[cells]
        strength[cells] = 0.0 if texture == "random" else bias
    return angle, strength, assigned


def _nearest_side_is_wall(maze: Maze, size: tuple[int, int]) -> NDArray[np.bool_]:
    """For every pixel of a ``size = (h, w)`` picture laid over the grid: is the cell side
    nearest to it a wall? (For a ``blocks`` maze: is its block a wall block?)"""
    h, w = size
    fy = (np.arange(h) + 0.5) * maze.height / h
    fx = (np.arange(w) + 0.5) * maze.width / w
    if maze.geometry == "blocks":
        blocks = maze.blocks(doors=False)[1:-1, 1:-1] == 1
        rows = np.minimum(fy.astype(int), maze.height - 1)
        cols = np.minimum(fx.astype(int), maze.width - 1)
        return blocks[np.ix_(rows, cols)]
    hor, ver = maze.walls()
    line_y = np.rint(fy).astype(int)  # nearest horizontal grid line, per row of pixels
    line_x = np.rint(fx).astype(int)
    cell_y = np.minimum(fy.astype(int), maze.height - 1)
    cell_x = np.minimum(fx.astype(int), maze.width - 1)
    dy = np.abs(fy - line_y)[:, None]
    dx = np.abs(fx - line_x)[None, :]
    on_hor = hor[np.ix_(line_y, cell_x)]
    on_ver = ver[np.ix_(cell_y, line_x)]
    return np.where(dy <= dx, on_hor, on_ver)


def _smooth_footprint(maze: Maze, size: tuple[int, int], rows, cols) -> NDArray[np.bool_]:
    """Pixels of the drawn maze inside a smooth outline: owned cells clipped to the contour."""
    from PIL import Image, ImageDraw

    from mazeart.outline import owners

    h, w = size
    inside = np.zeros((h, w), dtype=bool)
    for ring in maze.meta["outline"]:
        layer = Image.new("1", (w, h), 0)
        pts = [(x * w / maze.width, y * h / maze.height) for x, y in ring]
        ImageDraw.Draw(layer).polygon(pts, fill=1)
        inside ^= np.asarray(layer, dtype=bool)
    return (owners(maze) >= 0)[np.ix_(rows, cols)] & inside


def fidelity(
    maze: Maze,
    image: Any,
    *,
    threshold: float | None = None,
    invert: bool = False,
    allowed: NDArray[np.bool_] | None = None,
    edges: NDArray[np.bool_] | None = None,
) -> dict[str, float]:
    """How faithfully ``maze`` traces ``image``.

    Parameters
    ----------
    maze : Maze
        Made on a grid laid over the whole picture (as ``weights_from_image`` does).
    image : PIL.Image.Image or path
    threshold, invert
        As for :func:`mazeart.image.figure_coverage`.
    allowed : (H, W) ndarray of bool, optional
        Cells the preset left free; maze cells outside it (bridges) are left out
        of the footprint. Default: every maze cell counts.
    edges : (h, w) ndarray of bool, optional
        Edge pixels to check, counted wherever they are; default: Canny on
        luminance (sigma 2) inside the maze's footprint.
    Returns
    -------
    dict
        ``iou``: footprint IoU of the maze's cells and the figure's pixels;
        ``edge_share``: share of edge pixels that lie on a wall, i.e. whose
        nearest cell side is a wall (in a block maze: that fall on a wall
        block); ``edge_pixels``; ``wall_share``: the same share over every
        pixel of the maze, the level a maze blind to the edges reaches.
    """
    img = image if not isinstance(image, str | os.PathLike) else open_image(image)
    figure = figure_coverage(img, threshold=threshold, invert=invert) >= 0.5
    h, w = figure.shape
    rows = np.minimum((np.arange(h) * maze.height / h).astype(int), maze.height - 1)
    cols = np.minimum((np.arange(w) * maze.width / w).astype(int), maze.width - 1)
    cells = maze.mask if allowed is None else maze.mask & allowed
    foot = cells[np.ix_(rows, cols)]
    if maze.meta.get("outline") and maze.geometry == "cells":
        foot = _smooth_footprint(maze, (h, w), rows, cols)
    union = np.count_nonzero(foot | figure)
    iou = np.count_nonzero(foot & figure) / union if union else 1.0
    inside = foot
    if edges is None:  # the picture's own edges, where the maze is
        from skimage.feature import canny

        lum = np.asarray(img.convert("L"), dtype=np.float64) / 255.0
        e = canny(lum, sigma=2.0) & inside
    else:  # given edges count wherever they are
        e = np.asarray(edges, bool)
    near = _nearest_side_is_wall(maze, (h, w))
    n_edges = int(np.count_nonzero(e))
    return {
        "iou": round(float(iou), 4),
        "edge_share": round(float(np.count_nonzero(e & near) / n_edges), 4) if n_edges else 0.0,
        "edge_pixels": n_edges,
        "wall_share": round(float(np.count_nonzero(near & inside) / max(1, inside.sum())), 4),
    }


def guidance(
    image: Any,
    weights: NDArray[np.int32],
    *,
    edges: bool = False,
    regions: bool = False,
    outline: str = "cells",
    tone: bool = False,
    segments: int = 2,
    textures: Sequence[str] | None = None,
    threshold: float | None = None,
    invert: bool = False,
) -> dict[str, Any]:
    """Everything the picture adds to a preset made from it, for :func:`mazeart.generate`.

    Parameters
    ----------
    image : PIL.Image.Image or path
    weights : (H, W) ndarray of int32
        The preset :func:`mazeart.image.weights_from_image` made of ``image``.
    edges, regions, outline, tone, segments, textures
        As the command line's ``--edges``, ``--regions``, ``--outline``,
        ``--tone``, ``--segments`` and ``--textures``.
    threshold, invert
        As for :func:`mazeart.image.figure_coverage`.

    Returns
    -------
    dict
        Any of ``weights`` (the preset to carve instead), ``walls`` (for
        ``generate(walls=...)``), ``angle`` and ``bias`` (options of the ``flow``
        generator), ``outline`` and ``tone`` (to store in ``maze.meta``).
    """
    from mazeart.image import figure_coverage
    from mazeart.weights import FORBIDDEN, FREE

    if outline not in ("cells", "smooth"):
        raise ValueError(f"outline must be 'cells' or 'smooth', got {outline!r}")
    img = image if not isinstance(image, str | os.PathLike) else open_image(image)
    out: dict[str, Any] = {}
    if tone:
        from mazeart.tone import darkness

        dark = darkness(img, weights.shape[1])
        out["weights"] = np.where(weights == FORBIDDEN, FREE, weights).astype(np.int32)
        out["tone"] = np.round(dark, 2).tolist()
        return out
    coverage = figure_coverage(img, threshold=threshold, invert=invert)
    if outline == "smooth":
        from mazeart.outline import figure_contours, inside_cells, passable_sides

        rings = figure_contours(coverage, weights.shape)
        inside = inside_cells(rings, weights.shape)
        weights = weights.copy()
        weights[(weights == FREE) & ~inside] = FORBIDDEN
        weights[inside & (weights == FORBIDDEN)] = FREE
        out["weights"] = weights
        out["outline"] = [np.round(r, 3).tolist() for r in rings]
        ok_e, ok_s = passable_sides(rings, weights.shape)
        out["walls"] = (inside & ~ok_e, inside & ~ok_s)
    if not (edges or regions):
        return out
    labels = segment_cells(img, weights.shape, segments=segments, figure=coverage >= 0.5)
    free = weights == FREE
    if edges:
        closed = close_gaps(free) & ((weights == FREE) | (weights == FORBIDDEN))
        weights = weights.copy()
        weights[closed & ~free] = FREE
        out["weights"] = weights
        e, s = segment_walls(labels, closed)
        if "walls" in out:
            e, s = e | out["walls"][0], s | out["walls"][1]
        out["walls"] = (e, s)
        free = closed
    if regions:
        angle, bias, _ = region_textures(labels, free, textures=textures, image=img)
        out["angle"], out["bias"] = angle, bias
    return out
