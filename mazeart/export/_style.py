"""Drawing options shared by every exporter: one defaults table, merged with the caller's."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any

from mazeart.errors import MazeartError, check_number

__all__ = ["Style", "style_from"]


@dataclass(frozen=True)
class Style:
    """How a maze is drawn.

    Attributes
    ----------
    cell_size : float
        Size of one cell: pixels in PNG, user units in SVG.
    line_width : float
        Wall thickness as a fraction of a cell.
    margin : float
        Blank border around the maze, in cells.
    wall : str
        Wall colour.
    floor : str or None
        Fill of maze cells (``None``: leave transparent). SVG leaves it off by
        default so that a pen plotter draws walls only; PNG fills white.
    background : str or None
        Fill outside the maze (``None``: transparent).
    solution : bool
        Draw the shortest path from entrance to exit.
    solution_color : str
        Colour of the solution path.
    solution_width : float
        Solution stroke as a fraction of a cell.
    markers : bool
        Mark the entrance and exit with dots.
    entrance_color, exit_color : str
        Marker colours.
    size : str or None
        SVG only: physical width such as ``"180mm"`` or ``"800px"``; the height
        follows the aspect ratio.
    room_fill : str
        Fill of room cells.
    tags : bool
        Draw tags (coloured dots, one colour per kind).
    plotter : bool
        Everything as strokes of one pen (``line_width`` wide): tone as
        parallel lines, blocks and rooms hatched, dots as circles; nothing filled.
    """

    cell_size: float = 10.0
    line_width: float = 0.15
    margin: float = 1.0
    wall: str = "#000000"
    floor: str | None = None
    background: str | None = None
    solution: bool = False
    solution_color: str = "#d62728"
    solution_width: float = 0.3
    markers: bool = False
    entrance_color: str = "#2ca02c"
    exit_color: str = "#d62728"
    size: str | None = None
    room_fill: str = "#f4e2b0"
    tags: bool = True
    plotter: bool = False


_FIELD_NAMES = {f.name for f in fields(Style)}


def style_from(options: dict[str, Any], *, base: Style | None = None) -> Style:
    """Merge keyword options over the defaults, rejecting unknown names and bad values."""
    unknown = set(options) - _FIELD_NAMES
    if unknown:
        raise MazeartError(
            f"unknown drawing option(s) {', '.join(sorted(unknown))} "
            f"(valid: {', '.join(sorted(_FIELD_NAMES))})"
        )
    style = replace(base or Style(), **{k: v for k, v in options.items() if v is not None})
    check_number(style.cell_size, "cell_size", low=0, high=10_000, low_open=True)
    check_number(style.line_width, "line_width", low=0, high=1, low_open=True)
    check_number(style.margin, "margin", low=0, high=10_000)
    return style
