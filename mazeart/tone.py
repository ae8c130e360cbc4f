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

__all__ = ["LEVELS", "darkness", "tone_walls"]

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
    dark = resample_coverage(1.0 - _luminance(img), cells)
    lo, hi = np.percentile(dark, [1, 99])
    if hi - lo < 1e-3:
        return np.clip(dark, 0, 1)
    return np.clip((dark - lo) / (hi - lo), 0.0, 1.0).astype(np.float32)


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
    level_h = np.minimum((t_h * LEVELS).astype(int), LEVELS - 1)
    level_v = np.minimum((t_v * LEVELS).astype(int), LEVELS - 1)
    out = []
    for k in range(LEVELS):
        width = _THINNEST + (_THICKEST - _THINNEST) * (k + 0.5) / LEVELS
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
