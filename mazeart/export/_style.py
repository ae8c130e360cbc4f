"""Drawing options and colours shared by every exporter and both games.

:class:`Style` is the one defaults table of the drawings, merged with the
caller's options by :func:`style_from`. The tag colours are one table too,
:data:`TAG_COLOURS` (:func:`mazeart.tags.register_tag` adds to it): the SVG,
PNG and PDF scenes draw tags with :func:`tag_colour` and list them with
:func:`tag_legend`, and the browser game embeds :func:`tag_colours` in its page.
:data:`GAME_COLOURS` are the colours of the games' board: the exit is green in
the browser and in the terminal alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, fields, replace
from typing import Any

from mazeart._names import TAG_COLOURS, TAG_KINDS
from mazeart.errors import MazeartError, check_number

__all__ = [
    "GAME_COLOURS",
    "TAG_COLOURS",
    "TAG_FALLBACK",
    "Style",
    "style_from",
    "tag_colour",
    "tag_colours",
    "tag_legend",
]

TAG_FALLBACK = "#7f7f7f"
"""Colour of a tag whose kind has no colour of its own."""

GAME_COLOURS: dict[str, str] = {
    "wall": "#222222",
    "floor": "#ffffff",
    "room": "#f4e2b0",
    "entrance": "#dce8f5",
    "exit": "#2ca02c",
    "player": "#1f3a93",
    "solution": "rgba(214, 39, 40, 0.75)",
}
"""The games' board: walls, floor, rooms, the entrance and the (green) exit, the player."""


def tag_colour(kind: str) -> str:
    """The drawing colour of tag ``kind`` (:data:`TAG_FALLBACK` for a kind without one).

    Parameters
    ----------
    kind : str
        A tag kind, e.g. ``"loot"``.

    Returns
    -------
    str
        A ``#rrggbb`` colour.

    Examples
    --------
    >>> tag_colour("loot"), tag_colour("no such kind")
    ('#e6a800', '#7f7f7f')
    """
    return TAG_COLOURS.get(kind, TAG_FALLBACK)


def tag_colours() -> dict[str, str]:
    """Every registered tag kind and its colour (a copy of :data:`TAG_COLOURS`).

    Returns
    -------
    dict of str to str
    """
    return dict(TAG_COLOURS)


def tag_legend(kinds: Iterable[str]) -> list[tuple[str, str]]:
    """The legend of the tags drawn: ``(kind, colour)`` once per kind.

    Parameters
    ----------
    kinds : iterable of str
        The kinds of the tags drawn (repeats allowed).

    Returns
    -------
    list of (str, str)
        Registered kinds in the order of their codes, then any others by name.

    Examples
    --------
    >>> tag_legend(["loot", "spawn", "loot"])
    [('spawn', '#e377c2'), ('loot', '#e6a800')]
    """
    seen = set(kinds)
    order = sorted(seen, key=lambda k: (TAG_KINDS.get(k, 1_000_000), k))
    return [(kind, tag_colour(kind)) for kind in order]


@dataclass(frozen=True)
class Style:
    """How a maze is drawn.

    Attributes
    ----------
    cell_size : float
        Size of one cell: pixels in PNG, user units in SVG.
    line_width : float
        Wall thickness as a fraction of a cell.
    edge_width : float or None
        Thickness of the design's walls (``--edges``: the boundaries between the
        picture's colour regions), a fraction of a cell; ``None``: twice
        ``line_width``, so the design shows through the maze's texture.
    margin : float
        Blank border around the maze, in cells.
    wall : str
        Wall colour.
    floor : str or None
        Fill of maze cells (``None``: leave transparent). SVG leaves it off by
        default so that a pen plotter draws walls only; PNG fills white.
    background : str or None
        Fill outside the maze: a colour, or ``None`` / ``"transparent"`` for none. PNG
        fills white unless told otherwise (a transparent PNG shows black walls on black
        in viewers that drop its alpha); SVG leaves it out.
    solution : bool
        Draw the shortest path from entrance to exit.
    solution_color : str
        Colour of the solution path.
    solution_width : float
        Solution stroke as a fraction of a cell.
    markers : bool
        Mark the entrance (green) and the exit (red) with dots, so a person sees where
        to start and finish (on by default; ``False`` for the two doors alone).
    entrance_color, exit_color : str
        Marker colours.
    size : str or None
        SVG only: physical width such as ``"180mm"`` or ``"800px"``; the height
        follows the aspect ratio. Default: the drawing fitted in 180 x 257 mm (an A4
        page's printable area), so plotters and editors read millimetres.
    room_fill : str
        Fill of room cells.
    tags : bool
        Draw tags (coloured dots, one colour per kind, :func:`tag_colour`)
        and their legend: in the bottom margin of an SVG or PNG (when the
        margin is at least a quarter of a cell; not for ``plotter``), under
        the caption of a PDF.
    plotter : bool
        Everything as strokes of one pen (``line_width`` wide): tone as
        parallel lines, blocks and rooms hatched, dots as circles; nothing filled.
    one_stroke : bool
        Each connected group of lines drawn as one continuous path (the walls
        with the outline they meet, retracing the least it can), so a plotter
        lifts its pen once per group (:mod:`mazeart.export.stroke`).
    """

    cell_size: float = 10.0
    line_width: float = 0.15
    edge_width: float | None = None
    margin: float = 1.0
    wall: str = "#000000"
    floor: str | None = None
    background: str | None = None
    solution: bool = False
    solution_color: str = "#d62728"
    solution_width: float = 0.3
    markers: bool = True
    entrance_color: str = "#2ca02c"
    exit_color: str = "#d62728"
    size: str | None = None
    room_fill: str = "#f4e2b0"
    tags: bool = True
    plotter: bool = False
    one_stroke: bool = False


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
    if style.edge_width is not None:
        check_number(style.edge_width, "edge_width", low=0, high=1, low_open=True)
    check_number(style.margin, "margin", low=0, high=10_000)
    if style.background is not None:
        if not isinstance(style.background, str):
            raise TypeError(f"background must be a colour or 'transparent', got "
                            f"{style.background!r}")  # fmt: skip
        if style.background.strip().lower() == "transparent":
            return replace(style, background=None)
        check_colour(style.background, "background")
    return style


def check_colour(colour: str, what: str) -> str:
    """``colour`` if Pillow (and so SVG and PDF) can read it: ``#rgb``, ``#rrggbb`` or a name.

    Raises
    ------
    MazeartError
        For anything else, naming ``what``.
    """
    from PIL import ImageColor

    if not isinstance(colour, str) or not re.fullmatch(r"#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,30}", colour):
        raise MazeartError(f"{what} must be a colour such as #ffffff or white, got {colour!r}")
    try:
        ImageColor.getrgb(colour)
    except ValueError:
        raise MazeartError(f"{what}: unknown colour {colour!r}") from None
    return colour
