"""Tone: a photograph read from a distance, drawn with the maze's own walls.

A perfect maze on ``N`` cells always has ``N - 1`` passages, so the *number*
of walls cannot follow the picture: every region has about half its cell sides
walled. What can follow it is how much ink each wall carries. With ``--tone``
every wall is drawn with a thickness that grows with the darkness of the
picture under it, from a hairline in the highlights to most of a cell in the
shadows, like the lines of an engraving. Up close it is an ordinary maze (every
passage stays open: a wall never grows past the middle of the cells beside it);
from a distance the walls' ink averages to the picture's grey.

The darkness per cell (``1 - luminance``, averaged over the cell's area)
travels with the maze in ``maze.guide.tone``, so saved mazes keep it and the
SVG and PNG exporters draw it.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from numpy.typing import NDArray

from mazeart.errors import MazeartError
from mazeart.maze import Maze

__all__ = ["LEVELS", "darkness", "grid_darkness", "level_width", "tone_levels", "tone_walls"]

LEVELS = 12
"""Distinct wall widths drawn (SVG draws one path per width)."""

_THINNEST, _THICKEST = 0.04, 0.85


def darkness(image: Any, cells: int) -> NDArray[np.float32]:
    """Per-cell darkness (0 white .. 1 black) of a picture on a grid ``cells`` wide.

    The curve is stretched so the picture's darkest and lightest cells span
    the full range.
    """
    from mazeart.image import _luminance, open_image, resample_coverage

    img = open_image(image) if isinstance(image, str | os.PathLike) else image
    return _stretch(resample_coverage(1.0 - _luminance(img), cells))


def grid_darkness(image: Any, grid: Any, transform: Any) -> NDArray[np.float32]:
    """Per-cell darkness (0 white .. 1 black) of a picture under the cells of any grid
    (``transform`` from the grid's units to the picture's pixels, as
    :func:`mazeart.grids.sample.fit_grid` gives), stretched as :func:`darkness` is."""
    from mazeart.grids.sample import cell_coverage
    from mazeart.image import _luminance

    return _stretch(cell_coverage(grid, transform, 1.0 - _luminance(image)))


def _stretch(dark: NDArray[Any]) -> NDArray[np.float32]:
    """Darkness stretched so the darkest and lightest cells (1st and 99th percentile)
    span the full range."""
    lo, hi = np.percentile(dark, [1, 99])
    if hi - lo < 1e-3:
        return np.clip(dark, 0, 1).astype(np.float32)
    return np.clip((dark - lo) / (hi - lo), 0.0, 1.0).astype(np.float32)


def tone_levels(tone: NDArray[Any]) -> NDArray[np.int64]:
    """The width level (``0 .. LEVELS - 1``) of each darkness value."""
    return np.minimum((np.asarray(tone) * LEVELS).astype(np.int64), LEVELS - 1)


def level_width(level: int, unit: float = 1.0) -> float:
    """The drawn width of a wall of ``level``, as a share of ``unit`` (a cell's side on the
    square grid; a grid's shortest inner wall on another, so an open wall keeps a gap)."""
    return unit * (_THINNEST + (_THICKEST - _THINNEST) * (level + 0.5) / LEVELS)


def wall_tone(maze: Maze) -> NDArray[np.int64]:
    """Every wall's width level on a grid other than squares: the level whose width
    (:func:`level_width`) is nearest below the width the darkness under it asks for.

    A wall's darkness is the mean of the cells on its two sides (its one cell on the
    grid's edge), and asks for that share of the widest the wall may be drawn: the
    least of its cells' *room* (:func:`_cell_room`), so that the thickest walls
    still leave every passage open and every cell room to pass through, as a square
    cell's 0.85 does, with a gap wide enough to survive a slanted line's
    anti-aliasing.

    Returns
    -------
    (n_walls,) ndarray of int64
        Levels ``0 .. LEVELS - 1``.
    """
    tone, g = maze.guide.tone, maze.grid
    if tone is None:
        raise MazeartError("the maze has no tone map")
    a, b = g.wall_cells[:, 0], g.wall_cells[:, 1]
    other = np.where(b >= 0, b, a)
    room = _cell_room(g)
    widths = np.array([level_width(k) for k in range(LEVELS)])
    share = widths[tone_levels((tone[a] + tone[other]) / 2)] / _THICKEST
    want = share * np.minimum(room[a], room[other])
    return np.maximum(np.searchsorted(widths, want + 1e-12, side="right") - 1, 0)


_GAP = 0.25
"""The gap an open wall keeps between the thickest walls beside it, and a cell keeps
inside them, as a share of the cell's size (the square root of its area)."""


def _cell_room(g: Any) -> NDArray[np.float64]:
    """The widest each cell's walls may be drawn: its shortest inner wall less the gap
    (round caps reach half a width along an open wall from each end), and twice its
    inradius less the gap (walls on every side close in by half a width); kept in the
    grid's cache."""
    room = g._cache.get("tone room")
    if room is None:
        seg = np.hypot(*np.diff(g.wall_points, axis=0).T)
        owner = np.repeat(np.arange(g.n_walls), np.diff(g.wall_ptr))[:-1]
        seg[g.wall_ptr[1:-1] - 1] = 0.0  # no segment from one wall's end to the next wall
        length = np.bincount(owner, weights=seg, minlength=g.n_walls)
        shortest = np.full(g.n_cells, np.inf)
        inner = g.wall_cells[:, 1] >= 0
        for side in (0, 1):
            np.minimum.at(shortest, g.wall_cells[inner, side], length[inner])
        pts, ptr = g.cell_points, g.cell_ptr
        cell = np.repeat(np.arange(g.n_cells), np.diff(ptr))
        nxt = np.arange(len(pts)) + 1
        nxt[ptr[1:] - 1] = ptr[:-1]  # each polygon closes on its first point
        cross = pts[:, 0] * pts[nxt, 1] - pts[nxt, 0] * pts[:, 1]
        area = np.abs(np.bincount(cell, weights=cross, minlength=g.n_cells)) / 2
        perimeter = np.bincount(cell, weights=np.hypot(*(pts[nxt] - pts).T), minlength=g.n_cells)
        gap = _GAP * np.sqrt(area)
        inradius = 2 * area / np.maximum(perimeter, 1e-12)
        room = np.clip(np.minimum(shortest - gap, 2 * inradius - gap), 0.0, _THICKEST)
        g._cache["tone room"] = room
    return room  # type: ignore[no-any-return]


def tone_walls(maze: Maze) -> list[tuple[float, NDArray[np.float64]]]:
    """Unit wall segments grouped by drawn width (as a share of a cell).

    Returns
    -------
    list of (width, (K, 4) ndarray)
        ``x0, y0, x1, y1`` in cell units for each width level used.
    """
    tone = maze.guide.tone
    if tone is None:
        raise MazeartError("the maze has no tone map")
    hor, ver = maze.walls()
    pad = np.pad(tone, 1, mode="edge")
    # a wall's darkness: the mean of the two cells it separates
    t_h = (pad[:-1, 1:-1] + pad[1:, 1:-1]) / 2  # (H + 1, W)
    t_v = (pad[1:-1, :-1] + pad[1:-1, 1:]) / 2  # (H, W + 1)
    level_h, level_v = tone_levels(t_h), tone_levels(t_v)
    out = []
    for k in range(LEVELS):
        width = level_width(k)
        yh, xh = np.nonzero(hor & (level_h == k))
        yv, xv = np.nonzero(ver & (level_v == k))
        segs = np.concatenate(
            [
                np.stack([xh, yh, xh + 1, yh], axis=1),
                np.stack([xv, yv, xv, yv + 1], axis=1),
            ]
        ).astype(np.float64)
        if len(segs):
            out.append((width, segs))
    return out
