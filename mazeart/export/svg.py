"""SVG export: the drawing scene as layers of paths, ready for print and pen plotters.

Each layer of the scene (:mod:`mazeart.export.scene`) is a top-level ``<g>``
with an Inkscape layer label (vpype and Inkscape read them as layers): a fill
is one ``<path>`` (rectangles and even-odd rings), a stroke one ``<path>`` of
all its polylines in pen order, a dot a ``<circle>``, a label (the tags' legend,
``<g id="legend">``) a ``<text>`` in DejaVu Sans. There is no clipping
path: the scene is already cut to the outline, so a plotter draws what a
browser shows. The maze's metadata (algorithm, seed, size, ends) is stored in
``<metadata>`` as attributes of a ``mazeart:maze`` element; for a maze on any
grid (maze on another grid) also ``data-grid`` (its kind,
e.g. ``hex``), its entrance and exit given as cell ids.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from html import escape as _escape
from typing import Any

from numpy.typing import ArrayLike

from mazeart._io import plain
from mazeart.errors import MazeartError
from mazeart.export._numbers import svg_path
from mazeart.export._style import Style, style_from
from mazeart.export.scene import Fill, Layer, build_scene
from mazeart.maze import Maze

__all__ = ["MAZEART_NS", "to_svg"]

MAZEART_NS = "https://mazeart.dev/ns/1"
"""XML namespace of the ``<mazeart:maze>`` metadata element."""

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(mm|cm|in|px|pt)?\s*$")


def escape(text: str) -> str:
    """Text for XML: markup escaped, control characters (which XML 1.0 cannot hold) as spaces."""
    return _escape(plain(text))


def _num(x: float) -> str:
    """Compact number: integers without a decimal point, others to 4 places."""
    r = round(float(x), 4)
    return str(int(r)) if r == int(r) else f"{r:.4f}".rstrip("0")


FIT_MM = (180.0, 257.0)
"""Without ``size``, an SVG is fitted in this many millimetres across and down (an A4
page less 15 and 20 mm margins), so what reads it (vpype, Inkscape, a browser's print)
gets a physical size, not pixels."""


def _physical_size(size: str | None, vb_w: float, vb_h: float) -> tuple[str, str]:
    if size is None:
        scale = min(FIT_MM[0] / vb_w, FIT_MM[1] / vb_h)
        return f"{_num(vb_w * scale)}mm", f"{_num(vb_h * scale)}mm"
    m = _SIZE.match(size)
    if not m:
        raise MazeartError(f"size must look like '180mm', '7in' or '800px', got {size!r}")
    width = float(m.group(1))
    if width <= 0:
        raise MazeartError(f"size must be positive, got {size!r}")
    unit = m.group(2) or "px"
    return f"{_num(width)}{unit}", f"{_num(width * vb_h / vb_w)}{unit}"


def _cell_text(cell: tuple[int, int] | int) -> str:
    """A cell as ``row,col`` (square grid) or as its id (any grid)."""
    return str(cell) if isinstance(cell, int) else f"{cell[0]},{cell[1]}"


def _meta_attrs(maze: Maze) -> str:
    attrs: dict[str, Any] = {
        "rows": maze.height,
        "cols": maze.width,
        "cells": maze.n_cells,
        "geometry": maze.geometry,
    }
    if not maze.is_square:
        attrs["data-grid"] = maze.kind
    for key in ("algorithm", "seed"):
        if maze.meta.get(key) is not None:
            attrs[key] = maze.meta[key]
    if maze.entrance is not None:
        attrs["entrance"] = _cell_text(maze.entrance)
    if maze.exit is not None:
        attrs["exit"] = _cell_text(maze.exit)
    return " ".join(f'{k}="{escape(str(v))}"' for k, v in attrs.items())


def _fill_d(fill: Fill, cs: float) -> Iterator[bytes]:
    yield "".join(
        f"M{_num(x0 * cs)} {_num(y0 * cs)}h{_num((x1 - x0) * cs)}v{_num((y1 - y0) * cs)}"
        f"h{_num((x0 - x1) * cs)}z"
        for x0, y0, x1, y1 in fill.rects
    ).encode("ascii")
    yield from svg_path(fill.rings, cs, close=True)


def _attrs(attrs: Mapping[str, str]) -> str:
    return "".join(f' {k}="{escape(str(v))}"' for k, v in attrs.items())


def _title(text: str) -> str:
    return f"<title>{escape(text)}</title>" if text else ""


def _layer_svg(layer: Layer, cs: float) -> Iterator[bytes]:
    name = layer.name
    yield f'<g id="{name}" inkscape:groupmode="layer" inkscape:label="{name}">'.encode()
    for fill in layer.fills:
        yield b'<path d="'
        yield from _fill_d(fill, cs)
        yield (
            f'" fill="{fill.colour}" fill-rule="evenodd" '
            f'stroke="none"{_attrs(fill.attrs)}>{_title(fill.title)}</path>'
        ).encode()
    for st in layer.strokes:
        join = "miter" if st.cap == "square" else "round"
        yield b'<path d="'
        yield from svg_path(st.lines, cs)
        yield (
            f'" fill="none" stroke="{st.colour}" '
            f'stroke-width="{_num(st.width * cs)}" stroke-linecap="{st.cap}" '
            f'stroke-linejoin="{join}"{_attrs(st.attrs)}/>'
        ).encode()
    body: list[str] = []
    for dot in layer.dots:
        body.append(
            f'<circle cx="{_num(dot.x * cs)}" cy="{_num(dot.y * cs)}" r="{_num(dot.radius * cs)}" '
            f'fill="{dot.colour}" stroke="none"{_attrs(dot.attrs)}>{_title(dot.title)}</circle>'
        )
    for label in layer.labels:
        body.append(
            f'<text x="{_num(label.x * cs)}" y="{_num(label.y * cs)}" '
            f'font-family="DejaVu Sans, sans-serif" font-size="{_num(label.size * cs)}" '
            f'fill="{label.colour}"{_attrs(label.attrs)}>{escape(label.text)}</text>'
        )
    yield ("".join(body) + "</g>").encode("utf-8")


def to_svg(
    maze: Maze,
    *,
    style: Style | None = None,
    solutions: Sequence[ArrayLike] | None = None,
    **options: Any,
) -> str:
    """Draw a maze as an SVG document.

    Parameters
    ----------
    maze : Maze
        A square maze, or a maze on any grid (hexagons, triangles, rings, ...).
    style : Style, optional
        Base drawing options; keyword ``options`` override single fields
        (``cell_size``, ``line_width``, ``solution``, ``size``, ``plotter``, ...).
    solutions : sequence of array_like, optional
        Paths to draw in the ``solution`` layer, each in its own colour
        (default: the shortest path when ``solution=True``): ``(L, 2)``
        cells of a Maze, ``(L,)`` cell ids of a Maze.

    Returns
    -------
    str
        The SVG document: one ``<g>`` layer per layer of the scene
        (:func:`mazeart.export.scene.build_scene`).
    """
    return b"".join(_svg_parts(maze, style, solutions, options)).decode("utf-8")


def _svg_parts(
    maze: Maze, style: Style | None, solutions: Sequence[ArrayLike] | None, options: Any
) -> Iterator[bytes]:
    """:func:`to_svg`'s document in pieces, as they are written."""
    st = style_from(options, base=style)
    scene = build_scene(maze, st, solutions=solutions)
    cs = float(st.cell_size)
    m = st.margin * cs
    vb_w = scene.width * cs + 2 * m
    vb_h = (scene.height + scene.below) * cs + 2 * m
    width, height = _physical_size(st.size, vb_w, vb_h)
    algo = maze.meta.get("algorithm", "maze")
    if not maze.is_square:
        title = f"mazeart {algo} maze, {maze.n_cells} cells on the {maze.kind} grid"
    else:
        title = f"mazeart {algo} maze, {maze.width} x {maze.height} cells"
    head: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" '
        f'xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" '
        f'xmlns:mazeart="{MAZEART_NS}" width="{width}" height="{height}" '
        f'viewBox="{_num(-m)} {_num(-m)} {_num(vb_w)} {_num(vb_h)}">',
        f"<title>{escape(title)}</title>",
        f"<metadata><mazeart:maze {_meta_attrs(maze)}/></metadata>",
    ]
    if scene.background:
        head.append(
            f'<rect id="background" x="{_num(-m)}" y="{_num(-m)}" width="{_num(vb_w)}" '
            f'height="{_num(vb_h)}" fill="{scene.background}"/>'
        )
    yield "\n".join(head).encode("utf-8")
    for layer in scene.layers:
        yield b"\n"
        yield from _layer_svg(layer, cs)
    yield b"\n</svg>\n"


def write_svg(maze: Maze, fh: Any, **options: Any) -> None:
    """Write :func:`to_svg` output to a binary file object, a piece at a time."""
    style = options.pop("style", None)
    solutions = options.pop("solutions", None)
    for part in _svg_parts(maze, style, solutions, options):
        fh.write(part)
