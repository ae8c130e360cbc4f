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
from collections.abc import Callable, Sequence
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
    image: Any, *, segments: int | None, figure: NDArray[np.bool_] | None, rng: RngLike
) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
    """The colour of every pixel (an index into the figure's colours), and the pixels that
    were read. ``segments=None`` takes the figure's own flat colours
    (:func:`mazeart.image.design_colours`: a logo's design); a number clusters the figure's
    colours into that many by k-means in CIE Lab."""
    from mazeart.image import design_colours, srgb_to_lab

    img = image if not isinstance(image, str | os.PathLike) else open_image(image)
    rgb = np.asarray(img.convert("RGB"))  # bytes: srgb_to_lab reads them through a table
    mask = np.ones(rgb.shape[:2], bool) if figure is None else np.asarray(figure, bool)
    lab = srgb_to_lab(rgb).reshape(-1, 3)
    if segments is None:
        centroids = design_colours(img, mask)
        if len(centroids) < 2:  # one colour: one region
            return np.zeros(rgb.shape[:2], np.int64), mask
    else:
        from scipy.cluster.vq import kmeans2

        segments = check_int(segments, "segments", minimum=2, maximum=12)
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
    segments: int | None = None,
    figure: NDArray[np.bool_] | None = None,
    rng: RngLike = 0,
) -> NDArray[np.int32]:
    """The colour region of every grid cell.

    Parameters
    ----------
    image : PIL.Image.Image or path
    shape : (int, int)
        Grid ``(rows, cols)`` (as made by :func:`mazeart.image.weights_from_image`).
    segments : int, optional
        Colour clusters (k of k-means); by default the figure's own flat colours
        (:func:`mazeart.image.design_colours`). 1 makes every cell one colour, so
        that ``--regions`` gives each separate part of the figure its own texture.
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
    k = int(labels.max()) + 1
    share = np.stack(
        [resample_coverage(((labels == j) & mask).astype(np.float32), cols) for j in range(k)]
    )
    if share.shape[1:] != (rows, cols):
        raise MazeartError(f"the grid {shape} does not match the picture's aspect")
    cell = np.argmax(share, axis=0).astype(np.int32)
    empty = share.max(axis=0) < 0.05
    if empty.any() and not empty.all():
        _, (ri, ci) = ndimage.distance_transform_edt(empty, return_indices=True)
        cell = cell[ri, ci]
    return cell


_FINE = 5
"""Raster steps a cell for the region boundaries (odd: a cell's centre is a raster point)."""
_SMALLEST = 3
"""A colour region of fewer cells is no region: its cells join the colour around them."""


def _cell_regions(cell: NDArray[np.int32], floor: NDArray[np.bool_]) -> NDArray[np.int32]:
    """``cell`` with the regions (connected cells of one colour on the floor) of fewer than
    :data:`_SMALLEST` cells given the colour most of their neighbours have."""
    from scipy import ndimage

    out = cell.copy()
    for _ in range(3):
        changed = False
        for value in np.unique(out[floor]):
            parts, n = ndimage.label(floor & (out == value))
            if not n:
                continue
            sizes = np.bincount(parts.reshape(-1), minlength=n + 1)
            for part in np.flatnonzero(sizes[1:] < _SMALLEST) + 1:
                ring = ndimage.binary_dilation(parts == part) & floor & (parts != part)
                if ring.any():
                    out[parts == part] = np.bincount(out[ring]).argmax()
                    changed = True
        if not changed:
            break
    return out


def _trace(fine: NDArray[np.int64]) -> list[NDArray[np.float64]]:
    """The boundaries between raster points of different labels (``>= 0``; ``-1`` is
    outside), as chains of unit pixel edges in raster units, broken where three or more
    regions meet and where a boundary reaches the outside."""
    h, w = fine.shape
    a, b = fine[:, :-1], fine[:, 1:]  # vertical edges between columns j and j + 1
    vr, vc = np.nonzero((a != b) & (a >= 0) & (b >= 0))
    a, b = fine[:-1], fine[1:]  # horizontal edges between rows i and i + 1
    hr, hc = np.nonzero((a != b) & (a >= 0) & (b >= 0))
    # corner points (x, y) on the lattice of pixel corners, (w + 1) across
    p0 = np.concatenate([vr * (w + 1) + vc + 1, (hr + 1) * (w + 1) + hc])
    p1 = np.concatenate([(vr + 1) * (w + 1) + vc + 1, (hr + 1) * (w + 1) + hc + 1])
    if not len(p0):
        return []
    degree = np.bincount(np.concatenate([p0, p1]), minlength=(h + 1) * (w + 1))
    # a corner touching the outside ends a boundary there
    pad = np.pad(fine, 1, constant_values=-1)
    touch = (pad[:-1, :-1] < 0) | (pad[:-1, 1:] < 0) | (pad[1:, :-1] < 0) | (pad[1:, 1:] < 0)
    stop = (degree != 2) | touch.reshape(-1)
    edges = np.stack([p0, p1], axis=1)
    order = np.argsort(edges.reshape(-1), kind="stable")
    ends = edges.reshape(-1)[order]
    first = np.searchsorted(ends, np.arange(len(degree)))
    used = np.zeros(len(edges), bool)

    def incident(p: int) -> NDArray[np.int64]:
        return order[first[p] : first[p] + degree[p]] // 2

    chains = []
    starts = [int(p) for p in np.flatnonzero(stop & (degree > 0))]
    for pass_ in (0, 1):  # chains between stops, then closed loops
        pool = starts if pass_ == 0 else [int(p) for p in np.unique(edges[~used])]
        for s0 in pool:
            for e in incident(s0):
                if used[e]:
                    continue
                chain = [s0]
                p, cur = s0, int(e)
                while True:
                    used[cur] = True
                    q = int(edges[cur, 1] if edges[cur, 0] == p else edges[cur, 0])
                    chain.append(q)
                    if q == s0 or stop[q]:
                        break
                    nxt = [int(x) for x in incident(q) if not used[x]]
                    if not nxt:
                        break
                    p, cur = q, nxt[0]
                pts = np.array(chain)
                chains.append(np.stack([pts % (w + 1), pts // (w + 1)], axis=1).astype(float))
    return chains


def _smooth(chain: NDArray[np.float64], rounds: int = 6) -> NDArray[np.float64]:
    """A staircase chain smoothed along its length (its ends fixed, a closed one all round)."""
    closed = len(chain) > 3 and np.array_equal(chain[0], chain[-1])
    pts = chain[:-1].copy() if closed else chain.copy()
    if len(pts) < 3:
        return chain
    for _ in range(rounds):
        if closed:
            pts = 0.5 * pts + 0.25 * (np.roll(pts, 1, axis=0) + np.roll(pts, -1, axis=0))
        else:
            pts[1:-1] = 0.5 * pts[1:-1] + 0.25 * (pts[:-2] + pts[2:])
    return np.vstack([pts, pts[:1]]) if closed else pts


def edge_layout(
    image: Any,
    free: NDArray[np.bool_],
    *,
    segments: int | None = None,
    figure: NDArray[np.bool_] | None = None,
    rng: RngLike = 0,
) -> tuple[NDArray[np.int32], list[NDArray[np.float64]]]:
    """Colour regions as cell labels and their boundaries as smooth curves.

    Each colour's pixel share is blurred a little (a third of a cell) and every
    cell takes the colour strongest at its centre; regions of fewer than three
    cells take the colour around them. The boundaries are then drawn on a raster
    of five points a cell: each point takes the colour strongest there, except
    that a cell's centre and the straight way between the centres of two
    neighbouring cells of one colour keep that colour (with a point's margin),
    and a patch of colour holding no such point joins the colour nearest it.
    The borders between the raster's colours, smoothed along their length, are
    the curves. So a curve never crosses the way between two cells of one
    region, and always separates two cells of different regions; a patch of
    colour too small to hold a cell (a letter's counter, a fleck) draws nothing.

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
        Polylines of ``(x, y)`` in cell units (a closed one repeats its first point).
    """
    import shapely
    from scipy import ndimage

    labels_px, mask = _pixel_labels(image, segments=segments, figure=figure, rng=rng)
    h, w = labels_px.shape
    rows, cols = free.shape
    px = w / cols
    k = int(labels_px.max()) + 1
    # pixels of the ground inside the maze (a closed gap, a filled pocket) take the colour of
    # the figure nearest them, so they draw no boundary of their own
    if not mask.all() and mask.any():
        _, (ri, ci) = ndimage.distance_transform_edt(~mask, return_indices=True)
        labels_px = labels_px[ri, ci]
    probs = np.stack(
        [ndimage.gaussian_filter((labels_px == j).astype(np.float32), px / 3) for j in range(k)]
    )
    cy = np.minimum(((np.arange(rows) + 0.5) * h / rows).astype(int), h - 1)
    cx = np.minimum(((np.arange(cols) + 0.5) * w / cols).astype(int), w - 1)
    cell = np.argmax(probs[:, cy][:, :, cx], axis=0).astype(np.int32)
    cell = _cell_regions(cell, free)
    if k < 2 or len(np.unique(cell[free])) < 2:
        return cell, []
    # the raster: point (i, j) at ((j + 0.5) / F, (i + 0.5) / F) cells
    f = _FINE
    fy = np.minimum(((np.arange(rows * f) + 0.5) * h / (rows * f)).astype(int), h - 1)
    fx = np.minimum(((np.arange(cols * f) + 0.5) * w / (cols * f)).astype(int), w - 1)
    fine = np.argmax(probs[:, fy][:, :, fx], axis=0).astype(np.int64)
    floor = np.repeat(np.repeat(free, f, axis=0), f, axis=1)
    held = np.zeros(fine.shape, bool)  # points whose colour is the cells'
    c = f // 2
    rr, cc = np.nonzero(free)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            fine[rr * f + c + dr, cc * f + c + dc] = cell[rr, cc]
            held[rr * f + c + dr, cc * f + c + dc] = True
    same_e = free[:, :-1] & free[:, 1:] & (cell[:, :-1] == cell[:, 1:])
    same_s = free[:-1] & free[1:] & (cell[:-1] == cell[1:])
    for (er, ec), (dr, dc) in ((np.nonzero(same_e), (0, 1)), (np.nonzero(same_s), (1, 0))):
        for t in range(f + 1):
            for side in (-1, 0, 1):
                y = er * f + c + dr * t + dc * side
                x = ec * f + c + dc * t + dr * side
                fine[y, x] = cell[er, ec]
                held[y, x] = True
    fine[~floor] = -1
    held &= floor
    # a patch holding no held point joins the colour of the held point nearest it
    loose = np.zeros(fine.shape, bool)
    for value in range(k):
        parts, n = ndimage.label((fine == value) & floor)
        if n:
            anchored = np.zeros(n + 1, bool)
            anchored[np.unique(parts[held & (fine == value)])] = True
            anchored[0] = True
            loose |= ~anchored[parts]
    if loose.any():
        _, (ri, ci) = ndimage.distance_transform_edt(~held, return_indices=True)
        fine[loose] = fine[ri[loose], ci[loose]]
    chains = _trace(fine)
    # the ways a curve must not cross: between the centres of two cells of one colour
    (er, ec), (sr, sc) = np.nonzero(same_e), np.nonzero(same_s)
    ways = np.concatenate([
        np.stack([ec + 0.5, er + 0.5, ec + 1.5, er + 0.5], axis=1),
        np.stack([sc + 0.5, sr + 0.5, sc + 0.5, sr + 1.5], axis=1),
    ])  # fmt: skip
    guard = shapely.multilinestrings(shapely.linestrings(ways.reshape(-1, 2, 2)))
    shapely.prepare(guard)
    curves: list[NDArray[np.float64]] = []
    for chain in chains:
        smooth = shapely.simplify(shapely.linestrings(_smooth(chain) / f), 0.02)
        if not shapely.intersects(guard, smooth):
            curves.append(shapely.get_coordinates(smooth))
        else:  # where smoothing would cut across a way, the raster's own border
            raw = shapely.simplify(shapely.linestrings(chain / f), 0.0)
            curves.append(shapely.get_coordinates(raw))
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
    # (the inside of a ring), or any hole the closing did not touch (a counter, the hole of
    # a bow), is the figure's own shape and stays ground.
    holes, n = ndimage.label(ndimage.binary_fill_holes(filled) & ~filled)
    if n:
        small = np.bincount(holes.reshape(-1), minlength=n + 1) <= 4 * (2 * width + 1) ** 2
        touched = np.zeros(n + 1, bool)
        touched[np.unique(holes[ndimage.binary_dilation(filled & ~free, structure=st)])] = True
        small &= touched
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


def _notches(coverage: NDArray[np.floating], shape: tuple[int, int]) -> NDArray[np.bool_]:
    """Cells whose centre lies on ground too narrow for a door's way out (a notch between two
    strokes, the inside of a wedge): ground a disc a cell across does not fit in."""
    from scipy import ndimage

    h, w = coverage.shape
    rows, cols = shape
    r = 0.5 * w / cols  # half a cell, in pixels
    pad = int(np.ceil(r)) + 1
    ground = np.pad(coverage < 0.5, pad, constant_values=True)
    core = ndimage.distance_transform_edt(ground) > r
    fits = ndimage.distance_transform_edt(~core) <= r
    fits = fits[pad:-pad, pad:-pad]
    ri = np.minimum(((np.arange(rows) + 0.5) * h / rows).astype(int), h - 1)
    ci = np.minimum(((np.arange(cols) + 0.5) * w / cols).astype(int), w - 1)
    centre_ground = (coverage < 0.5)[np.ix_(ri, ci)]
    return centre_ground & ~fits[np.ix_(ri, ci)]


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

    shape = free.shape
    regions = np.zeros(shape, np.int64)
    count = 0
    for value in np.unique(labels[free]):
        lab, n = ndimage.label(free & (labels == value))
        regions[lab > 0] = lab[lab > 0] + count
        count += n
    yy, xx = np.mgrid[0 : shape[0], 0 : shape[1]]

    def luminance() -> NDArray[np.float64]:
        smooth = ndimage.gaussian_filter(_luminance_cells(image, shape), 1.5)
        gy, gx = np.gradient(smooth)
        return np.arctan2(gy, gx).reshape(-1)

    angle, strength, assigned = texture_field(
        np.stack([xx.reshape(-1), yy.reshape(-1)], axis=1), regions.reshape(-1), count,
        textures=textures, luminance=None if image is None else luminance, bias=bias,
    )  # fmt: skip
    return angle.reshape(shape), strength.reshape(shape), assigned


def texture_field(
    xy: NDArray[np.floating],
    regions: NDArray[np.int64],
    count: int,
    *,
    textures: Sequence[str] | None,
    luminance: Callable[[], NDArray[np.float64]] | None,
    bias: float,
) -> tuple[NDArray[np.float64], NDArray[np.float64], list[tuple[int, str]]]:
    """The flow field of :func:`region_textures` on any grid: each cell's angle and bias
    from its region's texture.

    Parameters
    ----------
    xy : (n, 2) ndarray of float
        Each cell's centre, ``x`` across and ``y`` down.
    regions : (n,) ndarray of int
        Each cell's region, ``1..count`` (``0``: none).
    count : int
    textures : sequence of str, optional
        One per region, largest region first, cycled.
    luminance : callable, optional
        The angle of the picture's luminance gradient at each cell (asked for once, by
        ``gradient`` and ``isolines``).
    bias : float

    Returns
    -------
    angle, bias : (n,) ndarray of float
    assigned : list of (int, str)
    """
    from mazeart.generators.flow import direction_at

    chosen = list(textures) if textures else list(TEXTURES[:6])
    bad = [t for t in chosen if t not in TEXTURES]
    if bad:
        raise MazeartError(
            f"unknown texture(s) {', '.join(bad)} (choose from {', '.join(TEXTURES)})"
        )
    sizes = np.bincount(regions, minlength=count + 1)[1:]
    order = np.argsort(-sizes, kind="stable")
    angle = np.full(regions.shape, np.nan)
    strength = np.zeros(regions.shape)
    assigned = []
    lum = None
    x, y = xy[:, 0], xy[:, 1]
    for rank, idx in enumerate(order):
        cells = regions == idx + 1
        texture = chosen[rank % len(chosen)]
        assigned.append((int(sizes[idx]), texture))
        if texture in ("gradient", "isolines"):
            if luminance is None:
                raise MazeartError(f"the {texture} texture needs the picture")
            if lum is None:
                lum = luminance()
            field = lum[cells] if texture == "gradient" else lum[cells] + np.pi / 2
        else:
            centre = (float(x[cells].mean()), float(y[cells].mean()))
            field = direction_at(x[cells], y[cells], texture, centre=centre)
        angle[cells] = field
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


_CHECK_FLOOR = "#ffffff"
_CHECK_GROUND = "#00ff00"
_CHECK_INK = "#000000"


def _ends(maze: Any) -> list[tuple[NDArray[np.float64], NDArray[np.float64]]]:
    """Each end's centre and the unit direction in which its door opens, drawing units."""
    from mazeart.maze import STEP

    out = []
    if not maze.is_square:
        g = maze.grid
        for cell in (maze.entrance, maze.exit):
            if cell is None:
                continue
            centre = g.centres[cell].astype(np.float64)
            wall = maze.door_wall(cell)
            step = np.zeros(2) if wall < 0 else g.wall(wall).mean(axis=0) - centre
            out.append((centre, step / max(float(np.hypot(*step)), 1e-9)))
        return out
    for cell, side in ((maze.entrance, maze.entrance_side), (maze.exit, maze.exit_side)):
        if cell is None:
            continue
        dr, dc = STEP[side] if side else (0, 0)
        out.append((np.array([cell[1] + 0.5, cell[0] + 0.5]), np.array([dc, dr], float)))
    return out


def _tunnels(maze: Any) -> list[tuple[NDArray[np.float64], NDArray[np.float64]]]:
    """Each crossing of a weave maze: the cell's centre and the direction of the corridor
    that passes under it (none on other grids)."""

    if not (not maze.is_square) or maze.grid.kind != "weave":
        return []
    from mazeart.grids.weave import _sides

    _, _, under = _sides(maze)
    cols = int(maze.grid.params["cols"])
    out = []
    for cell in np.flatnonzero(under):
        r, c = divmod(int(cell), cols)
        d = np.array([0.0, 1.0]) if under[cell] & 5 else np.array([1.0, 0.0])
        out.append((np.array([c + 0.5, r + 0.5]), d))
    return out


def drawn(maze: Any, *, scale: int = 12, _maps: dict | None = None) -> dict[str, Any]:
    """What the printed maze lets a pen do: checked on the drawing, not on the model.

    The maze (on any grid) is drawn by the PNG exporter at ``scale`` pixels a
    cell, its floor in one colour, its walls in another and the ground around
    it in a third. Then, reading only those pixels:

    - ``reachable``: the share of the floor a pen reaches from the entrance
      without crossing ink or leaving the floor (specks of floor smaller than
      an eighth of a cell, where two strokes meet at a slant, are not floor; a
      weave maze's pen goes on under a crossing, from one end of the corridor
      beneath to the other);
    - ``pockets``: the separate pieces of floor it does not reach;
    - ``exit``: whether it reaches the exit;
    - ``doors``: whether the floor it reaches meets the ground around the maze
      (not a hole inside it) at both doors, so the maze can be entered and left
      as drawn;
    - ``leaks``: how many other places the floor meets the ground with no ink
      between (gaps in the outer wall), and ``leak_cells``, their extent in cells.

    A door is where the floor meets the ground near an end: within a cell of
    the line from the end's centre out through its door, up to four and a half
    cells (a smooth outline's door corridor runs out to the outline).

    Parameters
    ----------
    maze : Maze
    scale : int, default 12
        Pixels a cell.

    Returns
    -------
    dict
    """
    from scipy import ndimage

    from mazeart.export.png import to_png_image

    s = max(4, int(scale))
    margin = 6
    img = to_png_image(
        maze, cell_size=s, margin=margin, floor=_CHECK_FLOOR, background=_CHECK_GROUND,
        wall=_CHECK_INK, tags=False, markers=False, solution=False,
    )  # fmt: skip
    pal = np.asarray(img.getpalette() or [], dtype=np.int64).reshape(-1, 3)
    kind = np.zeros(256, np.uint8)  # by palette entry: 0 floor, 1 ground, 2 ink
    kind[: len(pal)][(pal == (0, 255, 0)).all(axis=1)] = 1
    kind[: len(pal)][(pal == 0).all(axis=1)] = 2
    pixels = kind[np.asarray(img)]
    ground, ink = pixels == 1, pixels == 2
    floor = pixels == 0
    speck = s * s / 8
    parts, n = ndimage.label(floor)
    sizes = np.bincount(parts.reshape(-1), minlength=n + 1)
    real = sizes >= speck
    real[0] = False
    floor &= real[parts]
    out: dict[str, Any] = {"reachable": 1.0, "pockets": 0, "exit": True, "doors": True,
                           "leaks": 0, "leak_cells": 0}  # fmt: skip
    ends = _ends(maze)
    if not ends or not floor.any():
        return out
    m = margin * s

    def at(point: NDArray[np.float64]) -> tuple[int, int]:
        x, y = m + point * s
        return min(max(int(y), 0), floor.shape[0] - 1), min(max(int(x), 0), floor.shape[1] - 1)

    # a weave maze's corridor passes under another: the drawing shows its two ends on either
    # side of the corridor over it, and a reader carries on across
    joined = np.arange(n + 1)

    def root(x: int) -> int:
        while joined[x] != x:
            joined[x] = joined[joined[x]]
            x = int(joined[x])
        return x

    for centre, direction in _tunnels(maze):
        a, b = parts[at(centre - 0.42 * direction)], parts[at(centre + 0.42 * direction)]
        if a and b:
            joined[root(int(a))] = root(int(b))
    roots = np.array([root(i) for i in range(n + 1)])
    start = parts[at(ends[0][0])]
    if start and real[start]:
        reached = (roots[parts] == roots[start]) & floor
    else:
        reached = np.zeros_like(floor)
    total = int(np.count_nonzero(floor))
    out["reachable"] = round(float(np.count_nonzero(reached) / total), 4)
    pieces = np.unique(roots[np.flatnonzero(real)])
    out["pockets"] = len(pieces) - int(bool(reached.any()))
    out["exit"] = bool(reached[at(ends[-1][0])])
    # where the floor meets the ground with no ink between: doors and gaps
    touch = np.zeros_like(floor)
    touch[:-1] |= floor[:-1] & ground[1:]
    touch[1:] |= floor[1:] & ground[:-1]
    touch[:, :-1] |= floor[:, :-1] & ground[:, 1:]
    touch[:, 1:] |= floor[:, 1:] & ground[:, :-1]
    # the ground around the maze (a hole inside the figure is ground too, but no way out)
    around, _ = ndimage.label(ground)
    outer = np.isin(around, np.unique(np.concatenate([around[0], around[-1], around[:, 0],
                                                      around[:, -1]])))  # fmt: skip
    outer &= around > 0
    out_touch = np.zeros_like(floor)
    out_touch[:-1] |= floor[:-1] & outer[1:]
    out_touch[1:] |= floor[1:] & outer[:-1]
    out_touch[:, :-1] |= floor[:, :-1] & outer[:, 1:]
    out_touch[:, 1:] |= floor[:, 1:] & outer[:, :-1]
    # the places, at the scale of a third of a cell: touching pixels a few apart are one
    third = max(1, s // 3)
    h, w = touch.shape
    padded = np.pad(touch, ((0, -h % third), (0, -w % third)))
    blocks = padded.reshape(padded.shape[0] // third, third, -1, third).any(axis=(1, 3))
    coarse, k = ndimage.label(blocks, structure=np.ones((3, 3), bool))
    spots = np.repeat(np.repeat(coarse, third, axis=0), third, axis=1)[:h, :w]
    near_door = np.zeros(k + 1, bool)
    doors_open = []
    for centre, step in ends:  # the door's zone, in a window around the end
        (r0, c0), (r1, c1) = at(centre - 6.0), at(centre + 6.0)
        yy, xx = np.mgrid[r0 : r1 + 1, c0 : c1 + 1]
        p = np.stack([(xx + 0.5 - m) / s - centre[0], (yy + 0.5 - m) / s - centre[1]], axis=-1)
        t = np.clip(p @ step, 0.0, 4.5) if step.any() else np.zeros(p.shape[:2])
        zone = np.hypot(*(p - t[..., None] * step).transpose(2, 0, 1)) <= 1.0
        window = (slice(r0, r1 + 1), slice(c0, c1 + 1))
        here = np.unique(spots[window][zone & touch[window]])
        near_door[here[here > 0]] = True
        if step.any():  # an end with no door (a round maze's middle) has nothing to open
            doors_open.append(bool(np.any(zone & out_touch[window] & reached[window])))
    out["doors"] = all(doors_open)
    gaps = np.unique(spots[touch])
    gaps = gaps[(gaps > 0) & ~near_door[gaps]]
    out["leaks"] = len(gaps)
    if len(gaps):
        out["leak_cells"] = round(float(np.count_nonzero(np.isin(spots, gaps) & touch)) / s, 1)
    if _maps is not None:
        _maps.update(ink=ink, floor=floor, reached=reached, ground=ground, touch=touch)
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
    inside : (H, W) ndarray of bool, or None
        Cells inside a smooth outline that hold no maze, for
        ``generate(inside=...)``: no door opens onto them.
    """

    weights: NDArray[np.int32]
    walls: tuple[NDArray[np.bool_], NDArray[np.bool_]] | None = None
    angle: NDArray[np.float64] | None = None
    bias: NDArray[np.float64] | None = None
    guide: Guide = field(default_factory=Guide)
    inside: NDArray[np.bool_] | None = None


def guidance(
    image: Any,
    weights: NDArray[np.int32],
    *,
    edges: bool = False,
    regions: bool = False,
    outline: str = "cells",
    tone: bool = False,
    segments: int | None = None,
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
        ``--tone``, ``--segments`` and ``--textures``; ``segments=None`` reads
        the figure's own colours (:func:`mazeart.image.design_colours`).
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
    figure = coverage >= 0.5
    rings: list[NDArray[np.float64]] = []
    walls = None
    margin = None
    if outline == "smooth":
        from mazeart.outline import figure_contours, inside_cells, passable_sides

        if edges:  # the gaps edges close are figure: the outline goes round them, not in
            free = weights == FREE
            added = close_gaps(free) & (weights == FORBIDDEN)
            if added.any():
                h, w = coverage.shape
                rows, cols = weights.shape
                ri = np.minimum((np.arange(h) + 0.5) * rows / h, rows - 1).astype(int)
                ci = np.minimum((np.arange(w) + 0.5) * cols / w, cols - 1).astype(int)
                coverage = np.maximum(coverage, added[np.ix_(ri, ci)].astype(np.float32))
        raw = figure_contours(coverage, weights.shape)
        rings = [np.round(r, 3) for r in raw]
        inside = inside_cells(raw, weights.shape)
        weights = weights.copy()
        weights[(weights == FREE) & ~inside] = FORBIDDEN
        weights[inside & (weights == FORBIDDEN)] = FREE
        ok_e, ok_s = passable_sides(raw, weights.shape)
        walls = (inside & ~ok_e, inside & ~ok_s)
        margin = (
            inside_cells(raw, weights.shape, margin=0.0) | _notches(coverage, weights.shape)
        ) & (weights != FREE)
    if not (edges or regions):
        return Guidance(weights, walls=walls, guide=Guide(outline=tuple(rings)), inside=margin)
    if edges and segments is not None and segments < 2:
        raise MazeartError("--edges needs at least 2 colour segments")
    free = weights == FREE
    edge_labels = None
    curves: list[NDArray[np.float64]] = []
    if edges:
        closed = close_gaps(free) & ((weights == FREE) | (weights == FORBIDDEN))
        weights = weights.copy()
        weights[closed & ~free] = FREE
        labels, found = edge_layout(img, closed, segments=segments, figure=figure)
        edge_labels = labels.astype(np.int8)
        curves = [np.round(c, 3) for c in found]
        e, s = segment_walls(labels, closed)
        if walls is not None:
            e, s = e | walls[0], s | walls[1]
        walls = (e, s)
        free = closed
    else:
        labels = segment_cells(img, weights.shape, segments=segments, figure=figure)
    angle = strength = None
    if regions:
        angle, strength, _ = region_textures(labels, free, textures=textures, image=img, bias=bias)
    guide = Guide(outline=tuple(rings), edge_labels=edge_labels, edge_curves=tuple(curves))
    if margin is not None:
        margin &= weights != FREE
    return Guidance(weights, walls=walls, angle=angle, bias=strength, guide=guide, inside=margin)
