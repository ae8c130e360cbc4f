"""Pictures on grids: fit a grid over a picture, and average the picture over each cell.

:func:`fit_grid` chooses a grid of a given kind whose cells are a given fraction of
the picture's width and places it on the picture (a :class:`Transform` from grid
units to pixels); :func:`cell_coverage` averages a per-pixel figure coverage over
each cell's polygon. A pixel belongs to the cell whose polygon holds the pixel's
centre (pixel ``(i, j)`` covers ``[j, j + 1] x [i, i + 1]``), so every pixel
belongs to at most one cell and the cells' pixels are the picture's pixels.

>>> import numpy as np
>>> grid, to_px = fit_grid("hex", (200, 100), 10)
>>> grid, to_px.scale
(Grid(hex: rows=6, cols=10; 60 cells), 20.0)
>>> coverage = np.zeros((100, 200), np.float32)
>>> coverage[:, :100] = 1.0  # the left half is figure
>>> cov = cell_coverage(grid, to_px, coverage)
>>> cov.shape, float(cov.min()), float(cov.max())
((60,), 0.0, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mazeart._limits import current
from mazeart.errors import MazeartError, check_choice, check_int, check_number
from mazeart.grids import GRIDS, Grid, make_grid
from mazeart.grids.shapes import CHORD_ERROR  # (importing it registers every kind)

__all__ = ["Transform", "cell_coverage", "fit_grid"]


@dataclass(frozen=True)
class Transform:
    """Grid units to picture pixels: ``pixel = scale * point + offset``.

    Attributes
    ----------
    scale : float
        Pixels per grid unit.
    offset : (float, float)
        Where the grid's origin ``(0, 0)`` falls on the picture, in pixels.

    Examples
    --------
    >>> t = Transform(20.0, (5.0, -10.0))
    >>> t.to_pixels([[1.0, 2.0]]).tolist(), t.to_grid([[25.0, 30.0]]).tolist()
    ([[25.0, 30.0]], [[1.0, 2.0]])
    """

    scale: float
    offset: tuple[float, float]

    def to_pixels(self, points: ArrayLike) -> NDArray[np.float64]:
        """Grid points ``(..., 2)`` as picture pixels ``(x, y)``.

        Parameters
        ----------
        points : (..., 2) array_like of float

        Returns
        -------
        (..., 2) ndarray of float64
        """
        return np.asarray(points, np.float64) * self.scale + np.asarray(self.offset)

    def to_grid(self, points: ArrayLike) -> NDArray[np.float64]:
        """Picture pixels ``(..., 2)`` as grid points (the inverse of :meth:`to_pixels`).

        Parameters
        ----------
        points : (..., 2) array_like of float

        Returns
        -------
        (..., 2) ndarray of float64
        """
        return (np.asarray(points, np.float64) - np.asarray(self.offset)) / self.scale


def _centred(grid: Grid, scale: float, width: float, height: float) -> Transform:
    gw, gh = grid.size
    return Transform(scale, ((width - gw * scale) / 2.0, (height - gh * scale) / 2.0))


def fit_grid(
    kind: str,
    picture_size: tuple[int, int],
    cells: int,
    *,
    figure: NDArray[np.bool_] | None = None,
    centre: tuple[float, float] | None = None,
    detail: int = 2,
) -> tuple[Grid, Transform]:
    """A grid of ``kind`` over a picture, ``cells`` grid units across it.

    One grid unit (a square's side, a hexagon's width, a triangle's side, a polar
    ring's depth, the distance between upsilon cells) is ``width / cells`` pixels.
    The square, hex and upsilon grids have ``cells`` columns and the triangle grid
    ``2 * cells - 1`` triangles a row (``cells`` units across; at least 2); all have as many rows
    as fill the picture's height (rounded, at least one) and are centred on it. The
    polar grid is centred on ``centre``, else on the centroid of ``figure``, else on
    the picture's centre, and has enough rings to cover every pixel of ``figure``
    (or, without a figure, the whole picture).

    Parameters
    ----------
    kind : str
        A kind of :data:`~mazeart.grids.GRIDS`.
    picture_size : (int, int)
        The picture's width and height in pixels.
    cells : int
        Grid units across the picture's width.
    figure : (height, width) ndarray of bool, optional
        The picture's figure; the polar grid is centred on it and covers it (an
        empty figure counts as none). The other grids ignore it.
    centre : (float, float), optional
        The polar grid's centre, pixel ``(x, y)``, no farther outside the picture
        than its own width (across) and height (down): the rings of a centre
        far away would be many, and only a sliver of them on the picture. The
        other grids ignore it.
    detail : int, default 2
        The adaptive grid's: its cells are as many as the square grid's of ``cells``
        columns over ``figure``, from twice that size (inside) to ``2 ** -detail`` of it
        (where the outline needs them: :func:`mazeart.grids.adaptive.refine`); a grid unit
        is the smallest square. Without a figure its cells are that square grid's.

    Returns
    -------
    grid : Grid
    transform : Transform
        From the grid's units to the picture's pixels.

    Raises
    ------
    MazeartError
        For an unknown kind, a size or cell count out of range, or a figure whose
        shape is not the picture's.

    Examples
    --------
    >>> grid, t = fit_grid("polar", (100, 100), 10)  # 80 px round: past the corners
    >>> grid.params["rings"], t.scale, t.to_pixels(grid.centres[0]).tolist()
    (8, 10.0, [50.0, 50.0])
    >>> fit_grid("triangle", (100, 50), 10)[0]
    Grid(triangle: rows=6, cols=19; 114 cells)
    """
    kind = check_choice(kind, "grid", GRIDS)
    if len(picture_size) != 2:
        raise MazeartError(f"picture_size must be (width, height), got {picture_size!r}")
    width = check_number(picture_size[0], "picture width", low=0, low_open=True)
    height = check_number(picture_size[1], "picture height", low=0, low_open=True)
    cells = check_int(cells, "cells", maximum=current().max_cells)
    scale = width / cells
    across, down = cells, height / scale  # the picture in grid units
    if figure is not None:
        figure = np.asarray(figure, dtype=bool)
        if figure.shape != (round(height), round(width)):
            raise MazeartError(
                f"figure has shape {figure.shape}, not the picture's (height, width) "
                f"({height:g}, {width:g})"
            )
    if kind == "polar":
        return _fit_polar(scale, width, height, figure, centre)
    if kind == "adaptive":
        detail = check_int(detail, "detail", minimum=0, maximum=4)
        return _fit_adaptive(width, height, cells, figure, detail)
    if kind == "hex":
        grid = make_grid(kind, rows=max(1, round(down / (math.sqrt(3.0) / 2.0))), cols=across)
    elif kind == "triangle":
        rows = max(1, round(down / (math.sqrt(3.0) / 2.0)))
        grid = make_grid(kind, rows=rows, cols=max(2, 2 * across - 1))
    else:
        grid = make_grid(kind, rows=max(1, round(down)), cols=across)
    return grid, _centred(grid, scale, width, height)


def _fit_polar(
    scale: float,
    width: float,
    height: float,
    figure: NDArray[np.bool_] | None,
    centre: Sequence[float] | None,
) -> tuple[Grid, Transform]:
    ys, xs = np.nonzero(figure) if figure is not None else (np.zeros(0), np.zeros(0))
    if centre is not None:
        if len(centre) != 2:
            raise MazeartError(f"centre must be a pixel (x, y), got {centre!r}")
        cx = check_number(centre[0], "centre x", low=-width, high=2 * width)
        cy = check_number(centre[1], "centre y", low=-height, high=2 * height)
    elif xs.size:
        cx, cy = float(xs.mean()) + 0.5, float(ys.mean()) + 0.5
    else:
        cx, cy = width / 2.0, height / 2.0
    if xs.size:  # the farthest pixel corner of the figure
        far = float(np.hypot(np.abs(xs + 0.5 - cx) + 0.5, np.abs(ys + 0.5 - cy) + 0.5).max())
    else:
        far = math.hypot(max(cx, width - cx), max(cy, height - cy))
    rings = max(1, math.ceil(far / scale + CHORD_ERROR))
    grid = make_grid("polar", rings=rings)
    return grid, Transform(scale, (cx - rings * scale, cy - rings * scale))


def _fit_adaptive(
    width: float, height: float, cells: int, figure: NDArray[np.bool_] | None, detail: int
) -> tuple[Grid, Transform]:
    """The adaptive grid over a picture (see :func:`fit_grid`): roots twice the square
    grid's cells, refined over ``figure`` to the square grid's count of maze cells."""
    from mazeart.grids.adaptive import encode_splits, refine

    levels = detail + 1
    unit = width / (cells << detail)  # the smallest square, in pixels
    side = 1 << levels
    cols = max(1, math.ceil(cells / 2))
    rows = max(1, math.ceil(height / unit / side - 0.25))
    gw, gh = cols * side * unit, rows * side * unit  # the grid, centred on the picture
    transform = Transform(unit, ((width - gw) / 2.0, (height - gh) / 2.0))
    if figure is None or not figure.any():  # the square grid's cells, uniform
        splits = [np.ones((rows, cols), bool)] + [
            np.zeros((rows << d, cols << d), bool) for d in range(1, levels)
        ]
        return make_grid("adaptive", rows=rows, cols=cols, levels=levels,
                         splits=encode_splits(splits)), transform  # fmt: skip
    cover = _squares_cover(figure, transform, rows << levels, cols << levels)
    down = max(1, round(height / (width / cells)))  # the square grid, as fit_grid lays it
    laid = Transform(width / cells, (0.0, (height - down * width / cells) / 2.0))
    target = int((_squares_cover(figure, laid, down, cells) >= 0.5).sum())
    splits = refine(cover, rows, cols, levels, max(1, target))
    grid = make_grid("adaptive", rows=rows, cols=cols, levels=levels, splits=encode_splits(splits))
    return grid, transform


def _squares_cover(
    figure: NDArray[np.floating] | NDArray[np.bool_], transform: Transform, rows: int, cols: int
) -> NDArray[np.float64]:
    """The figure's share of each unit square of a grid of ``rows`` by ``cols`` unit squares
    laid by ``transform``: the picture box-averaged (outside it counts as ground)."""
    from PIL import Image

    h, w = figure.shape
    x0, y0 = transform.offset
    x1, y1 = x0 + cols * transform.scale, y0 + rows * transform.scale
    left, top = max(0, math.ceil(-x0)), max(0, math.ceil(-y0))
    pad = np.zeros((h + top + max(0, math.ceil(y1 - h)), w + left + max(0, math.ceil(x1 - w))),
                   np.float32)  # fmt: skip
    pad[top : top + h, left : left + w] = figure
    img = Image.fromarray(pad)  # 32-bit floats: mode F
    box = (x0 + left, y0 + top, x1 + left, y1 + top)
    return np.asarray(img.resize((cols, rows), Image.Resampling.BOX, box=box), np.float64)


def _adaptive_coverage(grid: Grid, transform: Transform, cov: NDArray[np.float64]) -> NDArray:
    """:func:`cell_coverage` of an adaptive grid: the picture box-averaged over its smallest
    squares, then over each square."""
    from mazeart.grids.adaptive import grid_squares, square_shares

    levels = int(grid.params["levels"])
    rows, cols = int(grid.params["rows"]) << levels, int(grid.params["cols"]) << levels
    fine = _squares_cover(cov, transform, rows, cols)
    return square_shares(fine, grid_squares(grid)).astype(np.float32)


def _spans(
    points: NDArray[np.float64], ptr: NDArray[np.int64]
) -> tuple[NDArray[np.intp], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """The runs of pixel centres inside each polygon, row by row (even-odd rule).

    Returns ``(cell, row, start, stop)``: pixels ``start .. stop - 1`` of ``row``
    have their centres in polygon ``cell``. Rows and columns are not clipped to any
    picture: runs may lie outside it.
    """
    counts = np.diff(ptr)
    cell = np.repeat(np.arange(len(counts)), counts)
    following = np.arange(1, len(points) + 1)
    last = ptr[1:][counts > 0] - 1
    following[last] = ptr[:-1][counts > 0]
    a, b = points, points[following]
    # Each edge from its upper end, so the two cells that share it compute it alike.
    swap = (b[:, 1] < a[:, 1]) | ((b[:, 1] == a[:, 1]) & (b[:, 0] < a[:, 0]))
    a, b = np.where(swap[:, None], b, a), np.where(swap[:, None], a, b)
    first = np.ceil(a[:, 1] - 0.5).astype(np.int64)  # rows whose centre y + 0.5 is in [ya, yb)
    rows = np.maximum(np.ceil(b[:, 1] - 0.5).astype(np.int64) - first, 0)
    edge = np.repeat(np.arange(len(a)), rows)
    row = first[edge] + np.arange(len(edge)) - np.repeat(np.cumsum(rows) - rows, rows)
    ea, eb = a[edge], b[edge]
    x = ea[:, 0] + (row + 0.5 - ea[:, 1]) * (eb[:, 0] - ea[:, 0]) / (eb[:, 1] - ea[:, 1])
    owner = cell[edge]
    order = np.lexsort((x, row, owner))
    x, row, owner = x[order], row[order], owner[order]
    start = np.ceil(x[0::2] - 0.5).astype(np.int64)  # columns whose centre is in [x_in, x_out)
    stop = np.ceil(x[1::2] - 0.5).astype(np.int64)
    keep = stop > start
    return owner[0::2][keep], row[0::2][keep], start[keep], stop[keep]


def cell_coverage(grid: Grid, transform: Transform, coverage: ArrayLike) -> NDArray[np.float32]:
    """The mean of a per-pixel figure coverage over each cell of ``grid``.

    Each cell's polygon is rasterised at the picture's resolution (the pixels whose
    centres it holds) and the coverage summed over them. The part of a cell outside
    the picture counts as ground: its pixels add nothing but still count. A cell
    that holds no pixel centre (smaller than a pixel) takes the coverage of the pixel
    under its centre, or 0 off the picture.

    Parameters
    ----------
    grid : Grid
    transform : Transform
        From the grid's units to the picture's pixels (as from :func:`fit_grid`).
    coverage : (height, width) array_like of float
        How much of each pixel is figure, from 0 to 1.

    Returns
    -------
    (n_cells,) ndarray of float32

    Raises
    ------
    MazeartError
        If ``coverage`` is not a non-empty 2-D array.

    Examples
    --------
    >>> from mazeart.grids import square_grid
    >>> cov = np.zeros((4, 4))
    >>> cov[:2, :3] = 1.0
    >>> cell_coverage(square_grid(2, 2), Transform(2.0, (0.0, 0.0)), cov).tolist()
    [1.0, 0.5, 0.0, 0.0]
    """
    cov = np.asarray(coverage, dtype=np.float64)
    if cov.ndim != 2 or cov.size == 0:
        raise MazeartError(f"coverage must be a non-empty 2-D array, got shape {cov.shape}")
    if grid.kind == "adaptive":  # squares on a lattice: averaged over their exact areas, as
        return _adaptive_coverage(grid, transform, cov)  # its refinement measured them
    height, width = cov.shape
    n = grid.n_cells
    cell, row, start, stop = _spans(transform.to_pixels(grid.cell_points), grid.cell_ptr)
    pixels = np.bincount(cell, weights=stop - start, minlength=n)
    inside = (row >= 0) & (row < height)
    cell, row = cell[inside], row[inside]
    start, stop = np.clip(start[inside], 0, width), np.clip(stop[inside], 0, width)
    runs = stop - start
    flat = np.repeat(row * width + start - np.cumsum(runs) + runs, runs) + np.arange(runs.sum())
    total = np.bincount(np.repeat(cell, runs), weights=cov.ravel()[flat], minlength=n)
    out = np.divide(total, pixels, out=np.zeros(n), where=pixels > 0)
    small = np.flatnonzero(pixels == 0)
    if small.size:
        at = np.floor(transform.to_pixels(grid.centres[small])).astype(np.int64)
        on = (at[:, 0] >= 0) & (at[:, 0] < width) & (at[:, 1] >= 0) & (at[:, 1] < height)
        out[small[on]] = cov[at[on, 1], at[on, 0]]
    return out.astype(np.float32)
