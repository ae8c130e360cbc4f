"""Laser cutting: a maze as closed outlines on a sheet, in millimetres.

``write_svg(..., cut=True)`` writes the outlines a cutter follows instead of a
drawing: the edges of the maze's material (:func:`mazeart.export.solid.plan`).
The sheet keeps the walls and a rim; the corridors are cut out of it. The walls
of a perfect maze all reach its outline, so the sheet stays one piece (glue it
on a backing board and the maze is a tray); a wall that a loop frees from the
rest falls out, and a warning counts the pieces.

- **kerf**: the beam burns a line ``kerf`` wide; the outlines are moved half of
  it into the waste, so the walls and the corridors come out their drawn size;
- **order**: the holes are cut before the outline around them, so the sheet
  does not move before its inside is done;
- **layers**: ``cut`` (red hairlines, the colour most cutters' software maps to
  cutting) and, with ``engrave``, ``engrave``: the walls as filled black areas to
  engrave, the corridors left standing, only the piece's outline cut.

The document's units are millimetres (``viewBox`` in mm), so Inkscape, LightBurn
and vpype import it at its size.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, BinaryIO

import numpy as np
from numpy.typing import ArrayLike

from mazeart.errors import MazeartWarning, check_number
from mazeart.export._numbers import svg_path
from mazeart.export.lines import Lines, order_lines
from mazeart.export.solid import length_mm, plan
from mazeart.maze import Maze

__all__ = ["CUT_COLOUR", "HAIRLINE_MM", "cut_outlines", "write_cut"]

CUT_COLOUR = "#ff0000"
"""The cut layer's colour."""

HAIRLINE_MM = 0.05
"""The cut lines' stroke width: a hairline, which cutters read as 'cut along'."""

FIT_MM = (180.0, 257.0)
"""Without a size, the sheet is fitted in this many millimetres across and down."""


def _contours(area: Any, height: float) -> tuple[Lines, Lines]:
    """An area's outlines (``y`` down again, for the SVG): its holes, then its outer
    rings, each in pen order."""
    holes: list[np.ndarray] = []
    outer: list[np.ndarray] = []
    for ring in area.to_polygons():
        pts = np.asarray(ring, np.float64)
        if len(pts) < 3:
            continue
        x, y = pts[:, 0], pts[:, 1]
        signed = float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))
        pts = np.stack([x, height - y], axis=1)
        (outer if signed > 0 else holes).append(pts)
    return order_lines(Lines.from_list(holes)), order_lines(Lines.from_list(outer))


def cut_outlines(
    maze: Maze,
    *,
    size: str | float | None = None,
    line_width: float | None = None,
    margin: float = 1.0,
    kerf: float = 0.0,
    engrave: bool = False,
) -> tuple[Lines, Lines | None, float, float, int]:
    """What a cutter follows: the outlines of the sheet's piece, and what it engraves.

    Parameters
    ----------
    maze : Maze
    size : str or float, optional
        The sheet's width, rim included (``"200mm"``, ``"8in"``, a number of mm;
        default: fitted in 180 x 257 mm).
    line_width : float, optional
        The walls' thickness as a share of a cell (default: the drawing's, at least
        :data:`mazeart.export.solid.MIN_WALL_MM`).
    margin : float, default 1
        The rim around the maze (cells).
    kerf : float, default 0
        The width the beam burns (mm).
    engrave : bool, default False
        Engrave the walls and cut the piece's outline only.

    Returns
    -------
    cut : Lines
        Closed rings (the last point joins the first), the holes first, in mm with
        ``y`` down.
    engraved : Lines or None
        With ``engrave``, the walls' rings (fill them even-odd).
    width, height : float
        The sheet (mm): the piece, and half the kerf around it.
    pieces : int
        How many pieces the cut makes.
    """
    from manifold3d import JoinType

    check_number(kerf, "kerf", low=0, high=100)
    width_u = float(maze.width if maze.is_square else maze.grid.size[0]) + 2 * margin
    height_u = float(maze.height if maze.is_square else maze.grid.size[1]) + 2 * margin
    if size is None:
        across = min(FIT_MM[0], FIT_MM[1] * width_u / height_u)
    else:
        across = length_mm(size, "size")
    mat = plan(maze, size=across, line_width=line_width, margin=margin, what="a cut maze")
    piece = mat.plate if engrave else mat.plate - mat.corridors()
    walls = mat.walls
    if kerf > 0:  # the outline moves out by half the kerf: the sheet grows to hold it
        piece = piece.offset(kerf / 2, JoinType.Miter).translate((kerf / 2, kerf / 2))
        walls = walls.translate((kerf / 2, kerf / 2))
    width, height = mat.width + kerf, mat.height + kerf
    holes, outer = _contours(piece, height)
    cut = Lines.from_list([*holes, *outer])
    engraved = None
    if engrave:
        rings = [np.asarray(r, np.float64) for r in walls.to_polygons()]
        engraved = Lines.from_list([np.stack([r[:, 0], height - r[:, 1]], 1) for r in rings])
    return cut, engraved, width, height, len(piece.decompose())


def write_cut(
    maze: Maze,
    fh: BinaryIO,
    *,
    size: str | float | None = None,
    line_width: float | None = None,
    margin: float = 1.0,
    kerf: float = 0.0,
    engrave: bool = False,
    solutions: Sequence[ArrayLike] | None = None,
    **_drawing: Any,
) -> None:
    """Write the SVG a laser cutter follows (see the module's text).

    Drawing options that mean nothing to a cutter (colours, the solution) are
    accepted and left out.
    """
    from mazeart.export.svg import MAZEART_NS, _meta_attrs, _num

    cut, engraved, width, height, pieces = cut_outlines(
        maze, size=size, line_width=line_width, margin=margin, kerf=kerf, engrave=engrave
    )
    if pieces > 1 and not engrave:
        warnings.warn(
            f"the cut sheet falls in {pieces} pieces: walls that loops free from the rest "
            "cannot be held by it (glue them on a backing board)",
            MazeartWarning,
            stacklevel=2,
        )
    w, h = _num(width), _num(height)
    fh.write(
        (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" '
            f'xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" '
            f'xmlns:mazeart="{MAZEART_NS}" width="{w}mm" height="{h}mm" viewBox="0 0 {w} {h}">\n'
            f"<title>mazeart maze to cut, {w} x {h} mm</title>\n"
            f"<metadata><mazeart:maze {_meta_attrs(maze)}/></metadata>\n"
        ).encode()
    )
    if engraved is not None:
        fh.write(b'<g id="engrave" inkscape:groupmode="layer" inkscape:label="engrave">'
                 b'<path d="')  # fmt: skip
        for part in svg_path(engraved, 1.0, close=True):
            fh.write(part)
        fh.write(b'" fill="#000000" fill-rule="evenodd" stroke="none"/></g>\n')
    fh.write(b'<g id="cut" inkscape:groupmode="layer" inkscape:label="cut"><path d="')
    for part in svg_path(cut, 1.0, close=True):
        fh.write(part)
    fh.write(
        f'" fill="none" stroke="{CUT_COLOUR}" stroke-width="{_num(HAIRLINE_MM)}"/></g>\n'
        "</svg>\n".encode()
    )
