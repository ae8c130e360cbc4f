"""The ``mazeart`` recipe on another grid: a picture (or ``WxH``) in, a :class:`Maze` out.

:func:`mazeart.make` hands over here when ``grid`` is not ``'square'``. The
picture is read as for squares (alpha, or luminance at Otsu's threshold), the
grid is laid over it (a polar grid centred on the figure, or on ``centre``), each
cell keeps the figure's share of its own polygon, and the cells covered enough
(``coverage``) hold the maze.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from mazeart._names import GRID_KINDS
from mazeart.errors import MazeartError, check_choice, check_int
from mazeart.grids import Grid, make_grid
from mazeart.weights import FORBIDDEN, FREE

__all__ = ["GRID_KINDS", "SQUARE_ONLY", "grid_for_rectangle", "grid_over_picture"]

SQUARE_ONLY = {
    "preset": "presets",
}
"""Options that work on the square grid only, and how to name them in a refusal."""


def grid_for_rectangle(kind: str, cols: int, rows: int) -> Grid:
    """The grid of ``kind`` for a plain ``WxH`` rectangle: ``rows`` by ``cols`` cells, or
    for the polar grid, a disc ``cols`` cells across."""
    if kind == "polar":
        return make_grid("polar", rings=max(2, cols // 2))
    return make_grid(kind, rows=rows, cols=cols)


def _drop_small(
    grid: Grid, free: NDArray[np.bool_], min_island: int, pieces: NDArray[np.int64] | None = None
) -> tuple[NDArray, tuple]:
    """``free`` without its islands of fewer than ``min_island`` cells, and how many were
    dropped with their cells. With ``pieces`` (each cell's piece of the picture's figure,
    :func:`figure_pieces`), an island is small only if every piece it lies in holds fewer
    than ``min_island`` free cells in all: a few cells cut off from the rest where the
    figure narrows are part of a larger piece, and are joined to it, not dropped."""
    from mazeart.grids.carve import label_parts

    labels, parts = label_parts(grid, free)
    if parts <= 1 or min_island <= 1:
        return free, (0, 0)
    sizes = np.bincount(labels[labels >= 0], minlength=parts)
    small = sizes < min_island
    if pieces is not None:
        held = np.bincount(pieces[free], minlength=int(pieces.max()) + 1)
        held[0] = 0  # (no piece: the island alone counts)
        big = np.zeros(parts, bool)
        np.logical_or.at(big, labels[free], held[pieces[free]] >= min_island)
        small &= ~big
    small[int(np.argmax(sizes))] = False
    if not small.any():
        return free, (0, 0)
    drop = (labels >= 0) & small[np.maximum(labels, 0)]
    return free & ~drop, (int(small.sum()), int(drop.sum()))


def figure_pieces(figure: NDArray[np.bool_], points: NDArray[np.float64]) -> NDArray[np.int64]:
    """Which connected piece of ``figure`` (pixels, eight neighbours) holds each of
    ``points`` (``(n, 2)`` pixels ``x, y``): 1, 2, ... by the piece, the nearest figure
    pixel's for a point on the ground (a cell's centre just inside the smooth contour),
    0 where the figure is empty."""
    from scipy import ndimage

    lab, n = ndimage.label(figure, structure=np.ones((3, 3), bool))
    if not n:
        return np.zeros(len(points), np.int64)
    h, w = figure.shape
    x = np.clip(np.floor(points[:, 0]).astype(np.int64), 0, w - 1)
    y = np.clip(np.floor(points[:, 1]).astype(np.int64), 0, h - 1)
    out = lab[y, x].astype(np.int64)
    ground = out == 0
    if ground.any():
        _, (iy, ix) = ndimage.distance_transform_edt(~figure, return_indices=True)
        out[ground] = lab[iy[y[ground], x[ground]], ix[y[ground], x[ground]]]
    return out


class Laid(NamedTuple):
    """A grid laid over a picture (:func:`grid_over_picture`)."""

    grid: Grid
    weights: NDArray[np.int32]  # one code a cell: 0 free, 1000 forbidden
    specks: tuple[int, int]  # islands dropped, and their cells
    darkness: NDArray[np.float32] | None = None  # per cell, with tone
    labels: NDArray[np.int8] | None = None  # each cell's colour region, with edges
    transform: Any = None  # where the grid lies on the picture (grid units to pixels)
    outline: tuple[NDArray[np.float64], ...] = ()  # the smooth outline's rings, grid units
    inside: NDArray[np.bool_] | None = None  # with outline: figure cells holding no maze


def grid_over_picture(
    kind: str,
    picture: Any,
    *,
    cells: int,
    threshold: float | None = None,
    invert: bool = False,
    coverage: float = 0.5,
    min_island: int = 3,
    centre: tuple[float, float] | None = None,
    tone: bool = False,
    edges: bool = False,
    segments: int | None = None,
    regions: bool = False,
    outline: bool = False,
    paint: NDArray[np.uint8] | None = None,
    detail: int = 2,
) -> Laid:
    """The grid of ``kind`` laid over a picture, and a weight per cell.

    Parameters
    ----------
    kind : str
        One of :data:`GRID_KINDS` but ``'square'``.
    picture : PIL.Image.Image
    cells : int
        Cells across the picture.
    threshold, invert, coverage
        How the picture is split into figure and ground (as for squares).
    min_island : int
        Parts of the figure smaller than this many cells are left out.
    centre : (float, float), optional
        The polar grid's centre in picture pixels (default: the figure's centroid).
    tone : bool, default False
        Draw the picture's tones (:mod:`mazeart.tone`): every cell the picture covers
        is maze (a polar grid centred on the picture), and each cell's darkness is
        returned.
    edges, segments : bool, int or None
        Read the figure's colour regions (its own flat colours, or ``segments`` clusters;
        as on squares): each cell takes the region covering most of it.
    regions : bool, default False
        Read the colour regions too (for their textures), without walling them.
    outline : bool, default False
        A smooth outline (:mod:`mazeart.outline`): the figure's contour in grid units
        is returned, and the maze cells are those whose centre lies inside it, a fifth
        of a cell clear of it (instead of the cells covered enough).
    paint : (H, W) ndarray of uint8, optional
        A paint layer over the picture (:func:`mazeart.image.paint_layer`): where it says
        no maze or maze, it wins over the picture.
    detail : int, default 2
        How far the adaptive grid refines (:func:`~mazeart.grids.sample.fit_grid`).

    Returns
    -------
    Laid
        ``weights`` is ``(n,)`` int32 (``0`` free, ``1000`` forbidden); ``specks``
        counts the islands dropped and their cells; ``darkness`` is ``(n,)`` float32
        from 0 (white) to 1 (black) with ``tone``; ``labels`` ``(n,)`` int8 with
        ``edges``; ``outline`` the contour's rings and ``inside`` the cells whose centre
        is inside it but hold no maze, with ``outline``.

    Raises
    ------
    MazeartError
        For a picture whose figure covers no cell.
    """
    from mazeart.grids.sample import cell_coverage, fit_grid
    from mazeart.image import figure_coverage, paint_over

    check_choice(kind, "grid", GRID_KINDS[1:])
    cells = check_int(cells, "cells")
    if tone:
        from mazeart.tone import grid_darkness

        grid, transform = fit_grid(kind, picture.size, cells, centre=centre, detail=detail)
        whole = paint_over(np.ones(picture.size[::-1], np.float32), paint)
        share = cell_coverage(grid, transform, whole)
        free = share >= 0.5  # the cells the picture lies under
        dark = grid_darkness(picture, grid, transform)
        weights = np.where(free, FREE, FORBIDDEN).astype(np.int32)
        return Laid(grid, weights, (0, 0), dark, transform=transform)
    cover = paint_over(figure_coverage(picture, threshold=threshold, invert=invert), paint)
    grid, transform = fit_grid(kind, picture.size, cells, figure=cover >= 0.5, centre=centre,
                               detail=detail)  # fmt: skip
    if edges:  # a thin line of ground inside the figure is a border between its regions:
        from mazeart.guide import close_gaps  # figure, walled along it (as on squares)

        reach = max(1, round(transform.scale))  # a cell, in the picture's pixels
        cover = np.maximum(cover, close_gaps(cover >= 0.5, width=reach).astype(cover.dtype))
    rings: tuple[NDArray[np.float64], ...] = ()
    figure = None
    if outline:
        from mazeart.outline import grid_contours, inside_points, margin_of

        rings = tuple(np.round(r, 3) for r in grid_contours(cover, transform))
        figure = inside_points(rings, grid.centres)
        free = figure & inside_points(rings, grid.centres, margin=margin_of(grid))
        pieces = np.zeros(grid.n_cells, np.int64)  # (only the free cells' are read)
        pieces[free] = figure_pieces(cover >= 0.5, transform.to_pixels(grid.centres[free]))
    else:
        share = cell_coverage(grid, transform, cover)
        free = share >= float(coverage) - 1e-6
        pieces = None
    free, specks = _drop_small(grid, free, min_island, pieces)
    if not free.any():
        from mazeart.image import cells_for_strokes, stroke_width

        stroke = stroke_width(cover >= 0.5) / (picture.width / cells)  # in cells
        hint = (f": the figure's strokes are about {stroke:.1f} cells wide (more --cells, about "
                f"{cells_for_strokes(cells, stroke)}, keep thin strokes)" if 0 < stroke < 1
                else " (try invert or a threshold)")  # fmt: skip
        raise MazeartError(
            f"no cell of the {kind} grid ({grid.n_cells} cells) is free, nothing to carve{hint}"
        )
    labels = None
    if edges or regions:
        labels = cell_labels(picture, grid, transform, figure=cover >= 0.5, segments=segments)
        least = max(3, min_island, int(free.sum()) // 150)  # a speck: under 1/150 of it
        labels = _merge_specks(grid, free, labels, least=least)
    weights = np.where(free, FREE, FORBIDDEN).astype(np.int32)
    inside = None if figure is None else figure & ~free
    return Laid(grid, weights, specks, labels=labels, transform=transform, outline=rings,
                inside=inside)  # fmt: skip


def cell_labels(
    picture: Any, grid: Grid, transform: Any, *, figure: NDArray[np.bool_], segments: int | None
) -> NDArray[np.int8]:
    """Each cell's colour region: the figure's colour (its flat colours, or ``segments``
    clusters: :func:`mazeart.guide.segment_cells`'s reading) covering most of the cell."""
    from mazeart.grids.sample import cell_coverage
    from mazeart.guide import _pixel_labels

    pixels, read = _pixel_labels(picture, segments=segments, figure=figure, rng=0)
    k = int(pixels.max()) + 1
    shares = np.stack([cell_coverage(grid, transform, (pixels == j) & read) for j in range(k)])
    return np.argmax(shares, axis=0).astype(np.int8)


def region_parts(
    grid: Grid, free: NDArray[np.bool_], labels: NDArray[np.integer]
) -> tuple[NDArray[np.int64], int]:
    """The connected parts of each colour region of the ``free`` cells: a part per cell
    (``-1`` where not free, numbered from 0 region after region) and their count."""
    from mazeart._kernels.parts import label_parts

    parts = np.full(grid.n_cells, -1, np.int64)
    count = 0
    for label in np.unique(labels[free]):
        own, n = label_parts(grid, free & (labels == label))
        parts[own >= 0] = own[own >= 0] + count
        count += n
    return parts, count


def _merge_specks(
    grid: Grid, free: NDArray[np.bool_], labels: NDArray[np.int8], *, least: int
) -> NDArray[np.int8]:
    """Colour regions of fewer than ``least`` cells (a cell or two where the picture's
    colours meet) join the region most of their neighbours hold, so each door the maze
    needs crosses a line of the design, not a speck."""

    out = labels.copy()
    src = np.repeat(np.arange(grid.n_cells), np.diff(grid.indptr))
    dst = grid.indices.astype(np.int64)
    for _ in range(3):
        parts, count = region_parts(grid, free, out)
        sizes = np.bincount(parts[free], minlength=count)
        small = free & (sizes[np.maximum(parts, 0)] < least)
        if not small.any():
            break
        # each small part takes the label most of its outside neighbours (free) hold
        edge = small[src] & free[dst] & (parts[src] != parts[dst])
        votes = np.zeros((count, int(out.max()) + 1), np.int64)
        np.add.at(votes, (parts[src[edge]], out[dst[edge]]), 1)
        has = votes.sum(axis=1) > 0
        winner = np.argmax(votes, axis=1)
        change = small & has[np.maximum(parts, 0)]
        out[change] = winner[parts[change]].astype(np.int8)
    return out


def grid_textures(
    picture: Any,
    grid: Grid,
    transform: Any,
    labels: NDArray[np.int8],
    free: NDArray[np.bool_],
    *,
    textures: Any = None,
    bias: float = 0.9,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Each cell's flow angle and bias for ``regions`` on another grid: every connected
    colour region its own texture (:func:`mazeart.guide.texture_field`), the luminance
    gradient read at the cells' centres on the picture."""
    from scipy import ndimage

    from mazeart.guide import _rgb, texture_field

    parts, count = region_parts(grid, free, labels)
    regions = parts + 1  # 0: no region

    def luminance() -> NDArray[np.float64]:
        lum = _rgb(picture) @ np.array([0.299, 0.587, 0.114])
        smooth = ndimage.gaussian_filter(lum, 1.5 * transform.scale)
        gy, gx = np.gradient(smooth)
        px = transform.to_pixels(grid.centres)
        h, w = lum.shape
        col = np.clip(px[:, 0].astype(np.int64), 0, w - 1)
        row = np.clip(px[:, 1].astype(np.int64), 0, h - 1)
        return np.arctan2(gy[row, col], gx[row, col])

    angle, strength, _ = texture_field(grid.centres, regions, count, textures=textures,
                                       luminance=luminance, bias=bias)  # fmt: skip
    return angle, strength
