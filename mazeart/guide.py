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
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from mazeart._rng import RngLike, as_generator
from mazeart.errors import MazeartError, check_choice, check_int
from mazeart.image import figure_coverage, open_image, resample_coverage
from mazeart.maze import Guide, Maze

__all__ = [
    "TEXTURES",
    "Guidance",
    "close_gaps",
    "edge_layout",
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


def _pixel_labels(
    image: Any, *, segments: int, figure: NDArray[np.bool_] | None, rng: RngLike
) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
    """k-means colour cluster of every pixel (CIE Lab), and the pixels that were clustered."""
    from scipy.cluster.vq import kmeans2
    from skimage.color import rgb2lab

    segments = check_int(segments, "segments", minimum=2, maximum=12)
    rgb = _rgb(image)
    lab = rgb2lab(rgb).reshape(-1, 3)
    mask = np.ones(rgb.shape[:2], bool) if figure is None else np.asarray(figure, bool)
    pixels = lab[mask.reshape(-1)]
    if len(pixels) < segments:
        raise MazeartError("the picture has too few figure pixels to segment")
    gen = as_generator(rng)
    sample = pixels[gen.choice(len(pixels), size=min(len(pixels), 20000), replace=False)]
    # an int seeds the sample and k-means each afresh; a Generator serves both
    kseed = gen if rng is None or isinstance(rng, np.random.Generator) else int(rng)
    with warnings.catch_warnings():  # a picture of fewer colours leaves a cluster empty
        warnings.simplefilter("ignore")
        centroids, _ = kmeans2(sample, segments, minit="++", seed=kseed, iter=30)
    d = ((lab[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
    return np.argmin(d, axis=1).reshape(rgb.shape[:2]), mask


def segment_cells(
    image: Any,
    shape: tuple[int, int],
    *,
    segments: int = 2,
    figure: NDArray[np.bool_] | None = None,
    rng: RngLike = 0,
) -> NDArray[np.int32]:
    """The colour cluster of every grid cell.

    Parameters
    ----------
    image : PIL.Image.Image or path
    shape : (int, int)
        Grid ``(rows, cols)`` (as made by :func:`mazeart.image.weights_from_image`).
    segments : int, default 2
        Colour clusters (k of k-means); 1 makes every cell one colour, so that
        ``--regions`` gives each separate part of the figure its own texture.
    figure : (h, w) ndarray of bool, optional
        Pixels to cluster (default: every pixel).
    rng : int or numpy.random.Generator, default 0
        For k-means (fixed by default: the clusters do not depend on the maze's seed).

    Returns
    -------
    (rows, cols) ndarray of int32
        Cluster index per cell; cells with no figure pixel take their nearest
        labelled cell's cluster.
    """
    from scipy import ndimage

    if segments == 1:  # one colour: the regions are the figure's separate parts
        return np.zeros(shape, np.int32)
    labels, mask = _pixel_labels(image, segments=segments, figure=figure, rng=rng)
    rows, cols = shape
    share = np.stack(
        [
            resample_coverage(((labels == j) & mask).astype(np.float32), cols)
            for j in range(segments)
        ]
    )
    if share.shape[1:] != (rows, cols):
        raise MazeartError(f"the grid {shape} does not match the picture's aspect")
    cell = np.argmax(share, axis=0).astype(np.int32)
    empty = share.max(axis=0) < 0.05
    if empty.any() and not empty.all():
        _, (ri, ci) = ndimage.distance_transform_edt(empty, return_indices=True)
        cell = cell[ri, ci]
    return cell


def edge_layout(
    image: Any,
    free: NDArray[np.bool_],
    *,
    segments: int = 2,
    figure: NDArray[np.bool_] | None = None,
    rng: RngLike = 0,
) -> tuple[NDArray[np.int32], list[NDArray[np.float64]]]:
    """Colour regions as cell labels and their boundaries as smooth curves.

    Each colour cluster's pixel share is blurred a little (a third of a cell);
    a cell takes the cluster strongest at its centre, and the boundaries are
    the contours where the strongest cluster changes, kept inside the figure
    (away from its outline) and lightly smoothed. So a cell lies on the side of
    every curve its label says: passages within a region never cross a curve.

    Parameters
    ----------
    image : PIL.Image.Image or path
    free : (H, W) ndarray of bool
        The cells that will hold maze (the grid covers the whole picture).
    segments, figure, rng
        As for :func:`segment_cells`.

    Returns
    -------
    labels : (H, W) ndarray of int32
    curves : list of (P, 2) ndarray of float
        Open polylines of ``(x, y)`` in cell units.
    """
    from scipy import ndimage
    from skimage.measure import approximate_polygon, find_contours

    labels_px, mask = _pixel_labels(image, segments=segments, figure=figure, rng=rng)
    h, w = labels_px.shape
    rows, cols = free.shape
    px = w / cols
    probs = np.stack(
        [ndimage.gaussian_filter(((labels_px == j) & mask).astype(float), px / 3)
         for j in range(segments)]
    )  # fmt: skip
    cy = np.minimum(((np.arange(rows) + 0.5) * h / rows).astype(int), h - 1)
    cx = np.minimum(((np.arange(cols) + 0.5) * w / cols).astype(int), w - 1)
    cell = np.argmax(probs[:, cy][:, :, cx], axis=0).astype(np.int32)
    row_of = np.minimum((np.arange(h) * rows / h).astype(int), rows - 1)
    col_of = np.minimum((np.arange(w) * cols / w).astype(int), cols - 1)
    inside = ndimage.binary_erosion(free[np.ix_(row_of, col_of)], iterations=max(1, round(px / 4)))
    curves: list[NDArray[np.float64]] = []
    for j in range(segments if segments > 2 else 1):
        others = np.delete(probs, j, axis=0).max(axis=0)
        for c in find_contours(probs[j] - others, 0.0, mask=inside):
            xy = np.stack([(c[:, 1] + 0.5) * cols / w, (c[:, 0] + 0.5) * rows / h], axis=1)
            xy = approximate_polygon(xy, tolerance=0.05)
            if len(xy) >= 2 and np.linalg.norm(np.diff(xy, axis=0), axis=1).sum() >= 1.0:
                curves.append(xy)
    return cell, curves


def close_gaps(free: NDArray[np.bool_], *, width: int = 1) -> NDArray[np.bool_]:
    """The figure with its inner ground gaps up to ``2 * width`` cells wide closed (and the
    small holes they leave filled), its own gaps to the outside and its real holes kept open.

    A thin ground line inside a figure (the white S of scikit-image's logo) is a
    border between two parts of the picture; with ``--edges`` it becomes maze
    with a wall along it rather than a gap the maze must bridge. The ground that
    reaches the picture's border (between the letters of a word, around the
    parts of a logo), and a hole wider than the closing reaches (the inside of a
    ring), are the figure's own shape and stay ground.
    """
    from scipy import ndimage

    st = np.ones((3, 3), bool)
    closed = ndimage.binary_closing(np.pad(free, width + 1), structure=st, iterations=width)
    closed = closed[width + 1 : -width - 1, width + 1 : -width - 1]
    filled = closed | free
    # Pockets the closing leaves inside a closed line are filled too; a hole of real size
    # (the inside of a ring) is the figure's own shape and stays ground.
    holes, n = ndimage.label(ndimage.binary_fill_holes(filled) & ~filled)
    if n:
        small = np.bincount(holes.reshape(-1), minlength=n + 1) <= 4 * (2 * width + 1) ** 2
        small[0] = False
        filled |= small[holes]
    # A closed gap that meets the ground outside along much of its length is a gap of the
    # figure's own shape (between letters, between the parts of a logo): it stays open.
    # A line of ground that reaches the outside only at its ends is a border inside.
    outside = ~np.pad(filled, 1, constant_values=False)
    touch = ndimage.binary_dilation(outside)[1:-1, 1:-1]
    gaps, n = ndimage.label(filled & ~free)
    if n:
        size = np.bincount(gaps.reshape(-1), minlength=n + 1)
        contact = np.bincount(gaps[touch].reshape(-1), minlength=n + 1)
        own = contact > 0.1 * size
        own[0] = False
        filled &= ~own[gaps]
    return filled | free


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
        raise MazeartError(
            f"unknown texture(s) {', '.join(bad)} (choose from {', '.join(TEXTURES)})"
        )
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
                raise MazeartError(f"the {texture} texture needs the picture")
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


def _ink(maze: Maze, size: tuple[int, int]) -> NDArray[np.bool_]:
    """Pixels of a ``size = (h, w)`` picture laid over the grid that the drawn walls cover.

    The maze is drawn by the PNG exporter (outline, edge curves and clipping
    included) at the nearest whole cell size and laid over the picture.
    """
    from PIL import Image

    from mazeart.export.png import to_png_image

    h, w = size
    cs = max(2, round(min(h / maze.height, w / maze.width)))
    img = to_png_image(maze, cell_size=cs, margin=0, floor=None, tags=False, line_width=0.15)
    img = img.convert("RGBA")
    a = np.asarray(img)
    ink = (a[..., 3] > 0) & (a[..., :3].astype(int).sum(axis=2) < 200)
    return np.asarray(Image.fromarray(ink).resize((w, h), Image.Resampling.NEAREST), dtype=bool)


def drawn(maze: Maze, *, scale: int = 24, _maps: dict | None = None) -> dict[str, float]:
    """What the printed maze lets a pen do: checked on the drawing, not on the model.

    The maze is drawn by the PNG exporter at ``scale`` pixels a cell (whatever
    the picture's size), its walls become ink, both doors are inked shut across
    their mouths, and the floor is flood-filled:

    - ``reachable``: the share of the maze's floor (its cells' squares, inside
      a smooth outline, bridges included) reached from the entrance without
      crossing ink: 1.0 when every cell can be walked to as drawn;
    - ``leaks``: how many separate places the outside still reaches the floor
      (gaps in the outer wall besides the doors), and ``leak_cells``, how many
      cells it reaches.

    Parameters
    ----------
    maze : Maze
    scale : int, default 24
        Pixels a cell.

    Returns
    -------
    dict
    """
    from PIL import Image, ImageDraw
    from scipy import ndimage

    from mazeart.export.png import to_png_image

    s = int(scale)
    margin = 2
    img = to_png_image(
        maze, cell_size=s, margin=margin, floor=None, tags=False, markers=False
    ).convert("RGBA")
    a = np.asarray(img)
    ink = (a[..., 3] > 0) & (a[..., :3].astype(int).sum(axis=2) < 200)
    m = margin * s
    floor = np.zeros(ink.shape, dtype=bool)
    cells = np.kron(maze.mask, np.ones((s, s), dtype=bool))
    floor[m : m + cells.shape[0], m : m + cells.shape[1]] = cells
    if maze.guide.outline:  # a smooth maze's floor is what lies inside its outline
        from mazeart.outline import _on_lattice, bridge_cells

        ny, nx = floor.shape
        start = (0.5 - m) / s
        inside = _on_lattice(list(maze.guide.outline), (start, start), 1.0 / s, (ny, nx), 0.0)
        bridges = np.zeros_like(floor)
        bridges[m : m + cells.shape[0], m : m + cells.shape[1]] = np.kron(
            bridge_cells(maze), np.ones((s, s), dtype=bool)
        )
        floor &= inside | bridges
    floor &= ~ink
    out = {"reachable": 1.0, "leaks": 0, "leak_cells": 0}
    if maze.entrance is None or not floor.any():
        return out
    # shut the doors with ink across their openings: the maze is walked inside, and the
    # outside may reach in only through a gap in the wall
    shut = Image.fromarray(ink)
    pen = ImageDraw.Draw(shut)
    width = max(2, round(0.15 * s))  # a wall's width
    mouths = []
    if maze.guide.outline:  # a smooth outline's door: its mouth, from side to side
        from mazeart.outline import door_mouths

        mouths = [(m + s * p, m + s * q) for p, q in door_mouths(maze)]
    else:  # a door in the cells' own walls: its side
        for (r, c), side in maze.end_doors:
            x0, y0 = m + c * s, m + r * s
            corner = {1: (0, 0), 4: (0, s), 8: (0, 0), 2: (s, 0)}[side]
            other = (corner[0] + s, corner[1]) if side in (1, 4) else (corner[0], corner[1] + s)
            mouths.append((np.add((x0, y0), corner), np.add((x0, y0), other)))
    for p, q in mouths:  # ink a little past both ends, as the door's own walls would
        d = (q - p) / max(1e-9, float(np.hypot(*(q - p)))) * width / 2
        pen.line((*(p - d), *(q + d)), fill=True, width=width)
    closed = np.asarray(shut, dtype=bool)
    labels, _ = ndimage.label(~closed)
    r, c = maze.entrance
    start = labels[m + r * s + s // 2, m + c * s + s // 2]
    reached = labels == start if start else np.zeros_like(ink)
    out["reachable"] = round(float(np.count_nonzero(reached & floor) / floor.sum()), 4)
    outside = labels == labels[0, 0]
    leaked = outside & floor & ~closed
    if _maps is not None:
        _maps.update(ink=closed, floor=floor, reached=reached, leaked=leaked)
    if leaked.any():
        # a gap lets the outside flood the floor behind it; a few pixels where two strokes
        # meet at a slant are the raster's, not the drawing's (under an eighth of a cell)
        spots, n = ndimage.label(leaked)
        big = np.bincount(spots.reshape(-1), minlength=n + 1) >= s * s / 8
        big[0] = False
        leaked = big[spots]
        _, gaps = ndimage.label(ndimage.binary_dilation(leaked, iterations=s // 2))
        centres = maze.mask & leaked[m + s // 2 :: s, m + s // 2 :: s][: maze.height, : maze.width]
        out["leaks"] = int(gaps) if leaked.any() else 0
        out["leak_cells"] = int(np.count_nonzero(centres))
    return out


_FIDELITY_PX = 16
"""Pixels a cell at which footprints are compared, whatever the picture's own size."""


def floor_raster(maze: Maze, scale: int) -> NDArray[np.bool_]:
    """The area the drawn maze covers, ``scale`` pixels a cell: its cells' squares (bridges
    included) or, with a smooth outline, the area inside it with its bridges and corridors."""
    if maze.guide.outline and maze.geometry == "cells":
        from mazeart.outline import _on_lattice, _region_rings, drawn_region

        start = 0.5 / scale
        size = (maze.height * scale, maze.width * scale)
        return _on_lattice(_region_rings(drawn_region(maze)), (start, start), 1 / scale, size, 0)
    return np.kron(maze.mask, np.ones((scale, scale), dtype=bool))


def footprint_iou(
    maze: Maze,
    coverage: NDArray[np.floating],
    *,
    allowed: NDArray[np.bool_] | None = None,
    scale: int = _FIDELITY_PX,
) -> float:
    """Intersection over union of the drawn maze and the picture's figure.

    Both are laid on one raster, ``scale`` pixels a cell (a small picture is
    supersampled, a large one averaged), so the number does not depend on the
    picture's size; the maze counts as drawn, bridges and a smooth outline
    included.

    Parameters
    ----------
    maze : Maze
    coverage : (h, w) ndarray of float
        The figure's share of each pixel (:func:`mazeart.image.figure_coverage`).
    allowed : (H, W) ndarray of bool, optional
        Accepted for compatibility; every drawn cell counts.
    scale : int, default 16

    Returns
    -------
    float
    """
    from PIL import Image

    size = (maze.width * scale, maze.height * scale)
    while size[0] * size[1] > 40_000_000 and scale > 2:  # a huge maze: a coarser raster
        scale //= 2
        size = (maze.width * scale, maze.height * scale)
    cov = Image.fromarray(np.ascontiguousarray(coverage, dtype=np.float32))
    figure = np.asarray(cov.resize(size, Image.Resampling.BILINEAR)) >= 0.5
    floor = floor_raster(maze, scale)
    union = np.count_nonzero(floor | figure)
    return round(float(np.count_nonzero(floor & figure) / union), 4) if union else 1.0


def _smooth_footprint(maze: Maze, size: tuple[int, int], rows, cols) -> NDArray[np.bool_]:
    """Pixels of the drawn maze inside a smooth outline: owned cells clipped to the contour."""
    from skimage.draw import polygon2mask

    from mazeart.outline import owners

    h, w = size
    inside = np.zeros((h, w), dtype=bool)
    for r in maze.guide.outline:  # a pixel is inside when its centre is
        rc = np.stack([r[:, 1] * h / maze.height - 0.5, r[:, 0] * w / maze.width - 0.5], axis=1)
        inside ^= polygon2mask((h, w), rc)
    return (owners(maze) >= 0)[np.ix_(rows, cols)] & inside


def fidelity(
    maze: Maze,
    image: Any,
    *,
    threshold: float | None = None,
    invert: bool = False,
    allowed: NDArray[np.bool_] | None = None,
    edges: NDArray[np.bool_] | None = None,
    tolerance: float = 0.25,
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
    tolerance : float, default 0.25
        How near (in cells, and at least 1.5 pixels) a pixel must be to drawn
        wall ink to lie on it: a wall is drawn 0.15 of a cell thick; the rest
        allows for drawing on whole pixels.
    Returns
    -------
    dict
        ``iou``: footprint IoU of the drawn maze and the figure
        (:func:`footprint_iou`);
        ``edge_share``: share of edge pixels that lie on a wall, i.e. within
        ``tolerance`` of a cell of the ink the maze is drawn with;
        ``edge_pixels``; ``wall_share``: the same share over every pixel of
        the maze, the level a maze blind to the edges reaches.
    """
    img = image if not isinstance(image, str | os.PathLike) else open_image(image)
    coverage = figure_coverage(img, threshold=threshold, invert=invert)
    figure = coverage >= 0.5
    h, w = figure.shape
    iou = footprint_iou(maze, coverage, allowed=allowed)
    # each pixel belongs to the cell its centre falls in
    rows = np.minimum(((np.arange(h) + 0.5) * maze.height / h).astype(int), maze.height - 1)
    cols = np.minimum(((np.arange(w) + 0.5) * maze.width / w).astype(int), maze.width - 1)
    cells = maze.mask if allowed is None else maze.mask & allowed
    foot = cells[np.ix_(rows, cols)]
    if maze.guide.outline and maze.geometry == "cells":
        foot = _smooth_footprint(maze, (h, w), rows, cols)
    inside = foot
    if edges is None:  # the picture's own edges, where the maze is
        from skimage.feature import canny

        lum = np.asarray(img.convert("L"), dtype=np.float64) / 255.0
        e = canny(lum, sigma=2.0) & inside
    else:  # given edges count wherever they are
        e = np.asarray(edges, bool)
    from scipy import ndimage

    ink = _ink(maze, (h, w))
    cell_px = min(h / maze.height, w / maze.width)
    near = ndimage.distance_transform_edt(~ink) <= max(1.5, tolerance * cell_px)
    n_edges = int(np.count_nonzero(e))
    return {
        "iou": round(float(iou), 4),
        "edge_share": round(float(np.count_nonzero(e & near) / n_edges), 4) if n_edges else 0.0,
        "edge_pixels": n_edges,
        "wall_share": round(float(np.count_nonzero(near & inside) / max(1, inside.sum())), 4),
    }


@dataclass(frozen=True, eq=False)
class Guidance:
    """What a picture adds to a preset made from it (see :func:`guidance`).

    Attributes
    ----------
    weights : (H, W) ndarray of int32
        The preset to carve (the input one, or changed by the outline or edges).
    walls : (east, south) pair of (H, W) ndarray of bool, or None
        Walls for ``generate(walls=...)``.
    angle, bias : (H, W) ndarray of float, or None
        Options of the ``flow`` generator (``regions``).
    guide : Guide
        What the drawing needs: outline, edge labels and curves, tone map.
    """

    weights: NDArray[np.int32]
    walls: tuple[NDArray[np.bool_], NDArray[np.bool_]] | None = None
    angle: NDArray[np.float64] | None = None
    bias: NDArray[np.float64] | None = None
    guide: Guide = field(default_factory=Guide)


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
    bias: float = 0.9,
) -> Guidance:
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
    bias : float, default 0.9
        How strongly ``regions`` textures are followed (0 to 1).

    Returns
    -------
    Guidance
    """
    from mazeart.image import figure_coverage
    from mazeart.weights import FORBIDDEN, FREE

    check_choice(outline, "outline", ("cells", "smooth"))
    img = image if not isinstance(image, str | os.PathLike) else open_image(image)
    if tone:
        from mazeart.tone import darkness

        dark = darkness(img, weights.shape[1])
        carved = np.where(weights == FORBIDDEN, FREE, weights).astype(np.int32)
        return Guidance(carved, guide=Guide(tone=np.round(dark, 2).astype(np.float64)))
    coverage = figure_coverage(img, threshold=threshold, invert=invert)
    rings: list[NDArray[np.float64]] = []
    walls = None
    if outline == "smooth":
        from mazeart.outline import figure_contours, inside_cells, passable_sides

        raw = figure_contours(coverage, weights.shape)
        rings = [np.round(r, 3) for r in raw]
        inside = inside_cells(raw, weights.shape)
        weights = weights.copy()
        weights[(weights == FREE) & ~inside] = FORBIDDEN
        weights[inside & (weights == FORBIDDEN)] = FREE
        ok_e, ok_s = passable_sides(raw, weights.shape)
        walls = (inside & ~ok_e, inside & ~ok_s)
    if not (edges or regions):
        return Guidance(weights, walls=walls, guide=Guide(outline=tuple(rings)))
    if edges and segments < 2:
        raise MazeartError("--edges needs at least 2 colour segments")
    labels = segment_cells(img, weights.shape, segments=segments, figure=coverage >= 0.5)
    free = weights == FREE
    edge_labels = None
    curves: list[NDArray[np.float64]] = []
    if edges:
        closed = close_gaps(free) & ((weights == FREE) | (weights == FORBIDDEN))
        weights = weights.copy()
        weights[closed & ~free] = FREE
        labels, found = edge_layout(img, closed, segments=segments, figure=coverage >= 0.5)
        edge_labels = labels.astype(np.int8)
        curves = [np.round(c, 3) for c in found]
        e, s = segment_walls(labels, closed)
        if walls is not None:
            e, s = e | walls[0], s | walls[1]
        walls = (e, s)
        free = closed
    angle = strength = None
    if regions:
        angle, strength, _ = region_textures(labels, free, textures=textures, image=img, bias=bias)
    guide = Guide(outline=tuple(rings), edge_labels=edge_labels, edge_curves=tuple(curves))
    return Guidance(weights, walls=walls, angle=angle, bias=strength, guide=guide)
