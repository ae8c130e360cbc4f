"""SVG export: vector walls as a few merged paths, ready for print and pen plotters.

Layers are top-level ``<g>`` groups with Inkscape layer labels (vpype and
Inkscape read them as layers): ``floor`` (optional fill), ``walls``,
``solution`` (optional), ``markers`` (optional). In a ``cells`` maze every
maximal straight run of wall is one ``M x y H x`` / ``M x y V y`` sub-path of a
single ``<path>``; a ``blocks`` maze fills its wall blocks, one rectangle per
horizontal run. The maze's metadata (algorithm, seed, size, ends) is stored in
``<metadata>`` as attributes of a ``mazeart:maze`` element.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape
from typing import Any

from numpy.typing import ArrayLike

from mazeart.errors import MazeartError
from mazeart.export._style import Style, _runs, solution_paths, style_from, wall_runs
from mazeart.maze import Maze

__all__ = ["MAZEART_NS", "to_svg"]

MAZEART_NS = "https://mazeart.dev/ns/1"
"""XML namespace of the ``<mazeart:maze>`` metadata element."""

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(mm|cm|in|px|pt)?\s*$")


def _num(x: float) -> str:
    """Compact number: integers without a decimal point, others to 4 places."""
    r = round(float(x), 4)
    return str(int(r)) if r == int(r) else f"{r:.4f}".rstrip("0")


def _physical_size(size: str | None, vb_w: float, vb_h: float) -> tuple[str, str]:
    if size is None:
        return _num(vb_w), _num(vb_h)
    m = _SIZE.match(size)
    if not m:
        raise MazeartError(f"size must look like '180mm', '7in' or '800px', got {size!r}")
    width = float(m.group(1))
    if width <= 0:
        raise MazeartError(f"size must be positive, got {size!r}")
    unit = m.group(2) or "px"
    return f"{_num(width)}{unit}", f"{_num(width * vb_h / vb_w)}{unit}"


def _meta_attrs(maze: Maze) -> str:
    attrs: dict[str, Any] = {
        "rows": maze.height,
        "cols": maze.width,
        "cells": maze.n_cells,
        "geometry": maze.geometry,
    }
    for key in ("algorithm", "seed"):
        if maze.meta.get(key) is not None:
            attrs[key] = maze.meta[key]
    if maze.entrance is not None:
        attrs["entrance"] = f"{maze.entrance[0]},{maze.entrance[1]}"
    if maze.exit is not None:
        attrs["exit"] = f"{maze.exit[0]},{maze.exit[1]}"
    return " ".join(f'{k}="{escape(str(v))}"' for k, v in attrs.items())


def _rects(cells, cs: float, shift: int = 0) -> str:
    """Path data filling the True cells of a grid, one rectangle per horizontal run."""
    rows, starts, stops = _runs(cells)
    return "".join(
        f"M{_num((a - shift) * cs)} {_num((r - shift) * cs)}h{_num((b - a) * cs)}"
        f"v{_num(cs)}h{_num((a - b) * cs)}z"
        for r, a, b in zip(rows, starts, stops, strict=True)
    )


def _layer(name: str, attrs: str, body: str) -> str:
    return f'<g id="{name}" inkscape:groupmode="layer" inkscape:label="{name}" {attrs}>{body}</g>'


def _curves_layer(name: str, paths, st: Style, cs: float) -> str:
    """A layer of open polylines (cell units) stroked like the walls: outline, edge curves."""
    d = "".join("M" + "L".join(f"{_num(x * cs)} {_num(y * cs)}" for x, y in path) for path in paths)
    return _layer(
        name,
        f'fill="none" stroke="{st.wall}" stroke-width="{_num(st.line_width * cs)}" '
        f'stroke-linecap="round" stroke-linejoin="round"',
        f'<path d="{d}"/>',
    )


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
    style : Style, optional
        Base drawing options; keyword ``options`` override single fields
        (``cell_size``, ``line_width``, ``solution``, ``size``, ...).
    solutions : sequence of (L, 2) array_like, optional
        Paths to draw in the ``solution`` layer, each in its own colour
        (default: the shortest path when ``solution=True``).

    Returns
    -------
    str
        The SVG document.
    """
    st = style_from(options, base=style)
    cs = float(st.cell_size)
    m = st.margin * cs
    vb_w = maze.width * cs + 2 * m
    vb_h = maze.height * cs + 2 * m
    width, height = _physical_size(st.size, vb_w, vb_h)
    algo = maze.meta.get("algorithm", "maze")
    title = f"mazeart {algo} maze, {maze.width} x {maze.height} cells"
    out: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" '
        f'xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" '
        f'xmlns:mazeart="{MAZEART_NS}" width="{width}" height="{height}" '
        f'viewBox="{_num(-m)} {_num(-m)} {_num(vb_w)} {_num(vb_h)}">',
        f"<title>{escape(title)}</title>",
        f"<metadata><mazeart:maze {_meta_attrs(maze)}/></metadata>",
    ]
    if st.background:
        out.append(
            f'<rect id="background" x="{_num(-m)}" y="{_num(-m)}" width="{_num(vb_w)}" '
            f'height="{_num(vb_h)}" fill="{st.background}"/>'
        )
    if maze.rooms:
        shapes = []
        for room in maze.rooms:
            d = _rects(room.mask(maze.shape), cs)
            shapes.append(
                f'<path d="{d}" data-name="{escape(room.name)}" data-kind="{escape(room.kind)}">'
                f"<title>{escape(room.name)} ({escape(room.kind)}), "
                f"{len(room.doors)} door{'s' * (len(room.doors) != 1)}</title></path>"
            )
        out.append(_layer("rooms", f'fill="{st.room_fill}" stroke="none"', "".join(shapes)))
    if maze.geometry == "cells":
        rings = maze.guide.outline
        ring_d = "".join(
            "M" + "L".join(f"{_num(x * cs)} {_num(y * cs)}" for x, y in ring) + "Z"
            for ring in rings
        )
        if st.floor:
            d = ring_d if rings else _rects(maze.mask, cs)
            out.append(
                _layer(
                    "floor",
                    f'fill="{st.floor}" fill-rule="evenodd" stroke="none"',
                    f'<path d="{d}"/>',
                )
            )
        runs = wall_runs(maze)
        d = "".join(
            f"M{_num(x0 * cs)} {_num(y0 * cs)}H{_num(x1 * cs)}"
            if y0 == y1
            else f"M{_num(x0 * cs)} {_num(y0 * cs)}V{_num(y1 * cs)}"
            for x0, y0, x1, y1 in runs
        )
        stroke = (
            f'fill="none" stroke="{st.wall}" stroke-width="{_num(st.line_width * cs)}" '
            f'stroke-linecap="square" stroke-linejoin="miter"'
        )
        if rings:  # walls clipped to the smooth outline, which is drawn as the outer wall
            from mazeart.outline import bridge_cells, outline_paths

            bridges = bridge_cells(maze)
            extra = f'<path d="{_rects(bridges, cs)}"/>' if bridges.any() else ""
            out.append(
                f'<defs><clipPath id="outline-clip"><path d="{ring_d}" clip-rule="evenodd"/>'
                f"{extra}</clipPath></defs>"
            )
            out.append(_layer("walls", stroke + ' clip-path="url(#outline-clip)"',
                              f'<path d="{d}"/>'))  # fmt: skip
            out.append(_curves_layer("outline", outline_paths(maze), st, cs))
        elif maze.guide.tone is not None:  # wall ink follows the picture's darkness
            from mazeart.tone import tone_walls

            paths = []
            for ink, segs in tone_walls(maze):
                dd = "".join(
                    f"M{_num(x0 * cs)} {_num(y0 * cs)}L{_num(x1 * cs)} {_num(y1 * cs)}"
                    for x0, y0, x1, y1 in segs
                )
                paths.append(f'<path stroke-width="{_num(ink * cs)}" d="{dd}"/>')
            out.append(
                _layer(
                    "walls",
                    f'fill="none" stroke="{st.wall}" stroke-linecap="square"',
                    "".join(paths),
                )
            )
        else:
            out.append(_layer("walls", stroke, f'<path d="{d}"/>'))
        if (
            maze.guide.edge_labels is not None
        ):  # colour-region boundaries, drawn as the curves they are
            from mazeart.outline import edge_paths

            out.append(_curves_layer("edges", edge_paths(maze), st, cs))
    else:
        blocks = maze.blocks()  # framed: block (r, c) of the grid is at [r + 1, c + 1]
        if st.floor:
            d = _rects(blocks == 2, cs, shift=1)
            out.append(_layer("floor", f'fill="{st.floor}" stroke="none"', f'<path d="{d}"/>'))
        d = _rects(blocks == 1, cs, shift=1)
        out.append(_layer("walls", f'fill="{st.wall}" stroke="none"', f'<path d="{d}"/>'))
    drawn = solution_paths(maze, st, solutions)
    if drawn:
        lines = []
        for i, (pts, colour, thick) in enumerate(drawn):
            d = "M" + "L".join(f"{_num(x * cs)} {_num(y * cs)}" for x, y in pts)
            lines.append(
                f'<path d="{d}" stroke="{colour}" stroke-width="{_num(thick * cs)}" '
                f'data-path="{i + 1}"/>'
            )
        out.append(
            _layer(
                "solution",
                'fill="none" stroke-linecap="round" stroke-linejoin="round"',
                "".join(lines),
            )
        )
    if st.tags and maze.tags:
        from mazeart.tags import TAG_COLOURS

        dots = []
        for (r, c), kind in sorted(maze.tags.items()):
            dots.append(
                f'<circle cx="{_num((c + 0.5) * cs)}" cy="{_num((r + 0.5) * cs)}" '
                f'r="{_num(0.28 * cs)}" fill="{TAG_COLOURS.get(kind, "#7f7f7f")}" '
                f'data-kind="{escape(kind)}"><title>{escape(kind)}</title></circle>'
            )
        out.append(_layer("tags", 'stroke="none"', "".join(dots)))
    if st.markers:
        dots = []
        for cell, colour in ((maze.entrance, st.entrance_color), (maze.exit, st.exit_color)):
            if cell is not None:
                cx, cy = (cell[1] + 0.5) * cs, (cell[0] + 0.5) * cs
                dots.append(
                    f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(0.3 * cs)}" '
                    f'fill="{colour}"/>'
                )
        out.append(_layer("markers", 'stroke="none"', "".join(dots)))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write_svg(maze: Maze, fh: Any, **options: Any) -> None:
    """Write :func:`to_svg` output to a binary file object."""
    fh.write(to_svg(maze, **options).encode("utf-8"))
