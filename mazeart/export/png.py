"""PNG export with Pillow: ``cell_size`` pixels per cell, transparent outside the maze.

The picture is laid out like the SVG: cell ``(r, c)`` covers pixels
``[m + r*cs, m + (r+1)*cs)`` down and ``[m + c*cs, m + (c+1)*cs)`` across, with
``m = round(margin * cs)``. Walls are centred on the grid lines. The maze's
metadata is stored as a ``mazeart`` text chunk (JSON).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from mazeart.errors import MazeartError
from mazeart.export._style import Style, solution_paths, style_from, wall_runs
from mazeart.maze import Maze

__all__ = ["to_png_image", "write_png"]

_PNG_STYLE = Style(floor="#ffffff")


def _rgba(colour: str | None) -> tuple[int, int, int, int]:
    from PIL import ImageColor

    if colour is None:
        return (0, 0, 0, 0)
    try:
        return ImageColor.getcolor(colour, "RGBA")  # type: ignore[return-value]
    except ValueError:
        raise MazeartError(f"unknown colour {colour!r}") from None


def to_png_image(
    maze: Maze,
    *,
    style: Style | None = None,
    solutions: Sequence[ArrayLike] | None = None,
    **options: Any,
):
    """Draw a maze as a Pillow image.

    Parameters
    ----------
    maze : Maze
    style : Style, optional
        Base drawing options; keyword ``options`` override single fields.
        ``cell_size`` is in pixels and must be a whole number of at least 2.
    solutions : sequence of (L, 2) array_like, optional
        Paths to draw, each in its own colour (default: the shortest path
        when ``solution=True``).

    Returns
    -------
    PIL.Image.Image
        RGBA image.
    """
    from PIL import Image, ImageDraw

    st = style_from(options, base=style or _PNG_STYLE)
    cs = st.cell_size
    if cs != int(cs) or cs < 2:
        raise MazeartError(f"PNG cell size must be a whole number of pixels >= 2, got {cs}")
    cs = int(cs)
    m = round(st.margin * cs)
    h, w = maze.shape
    size_px = (w * cs + 2 * m, h * cs + 2 * m)
    if size_px[0] * size_px[1] > 400_000_000:
        raise MazeartError(
            f"a {size_px[0]} x {size_px[1]} pixel PNG is too large; lower the cell size"
        )
    canvas = np.zeros((size_px[1], size_px[0], 4), dtype=np.uint8)
    canvas[...] = _rgba(st.background)
    inner = canvas[m : m + h * cs, m : m + w * cs]
    if maze.geometry == "cells":
        if st.floor:
            big = np.repeat(np.repeat(maze.mask, cs, axis=0), cs, axis=1)
            inner[big] = _rgba(st.floor)
        for room in maze.rooms:
            big = np.repeat(np.repeat(room.mask(maze.shape), cs, axis=0), cs, axis=1)
            inner[big] = _rgba(st.room_fill)
        img = Image.fromarray(canvas)
        draw = ImageDraw.Draw(img)
        t = max(1, round(st.line_width * cs))
        wall = _rgba(st.wall)
        rings = maze.guide.outline
        target = Image.new("RGBA", img.size, (0, 0, 0, 0)) if rings else img
        wdraw = ImageDraw.Draw(target)
        if maze.guide.tone is not None and not rings:  # wall ink follows the picture's darkness
            from mazeart.tone import tone_walls

            groups: list[tuple[int, Any]] = [
                (max(1, round(width * cs)), segs) for width, segs in tone_walls(maze)
            ]
        else:
            groups = [(t, wall_runs(maze))]
        for thick, segs in groups:
            a, b = thick // 2, thick - thick // 2
            for x0, y0, x1, y1 in segs:
                px0, py0 = m + x0 * cs - a, m + y0 * cs - a
                px1, py1 = m + x1 * cs + b - 1, m + y1 * cs + b - 1
                wdraw.rectangle((int(px0), int(py0), int(px1), int(py1)), fill=wall)
        if rings:  # walls clipped to the smooth outline, which is drawn as the outer wall
            from mazeart.outline import outline_paths

            inside = np.zeros((img.size[1], img.size[0]), dtype=bool)
            for ring in rings:
                layer = Image.new("1", img.size, 0)
                ImageDraw.Draw(layer).polygon(
                    [(m + x * cs, m + y * cs) for x, y in ring], fill=1, outline=1
                )
                inside ^= np.asarray(layer, dtype=bool)
            from mazeart.outline import bridge_cells

            bridges = np.repeat(np.repeat(bridge_cells(maze), cs, axis=0), cs, axis=1)
            inside[m : m + h * cs, m : m + w * cs] |= bridges
            if st.floor:
                base = np.asarray(img).copy()
                base[..., :] = np.where(inside[..., None], _rgba(st.floor), _rgba(st.background))
                for room in maze.rooms:
                    big = np.repeat(np.repeat(room.mask(maze.shape), cs, axis=0), cs, axis=1)
                    base[m : m + h * cs, m : m + w * cs][big] = _rgba(st.room_fill)
                img = Image.fromarray(base)
            walls_px = np.asarray(target).copy()
            walls_px[~inside] = 0
            img.alpha_composite(Image.fromarray(walls_px))
            draw = ImageDraw.Draw(img)
            for path in outline_paths(maze):
                draw.line([(m + x * cs, m + y * cs) for x, y in path], fill=wall, width=t,
                          joint="curve")  # fmt: skip
        else:
            draw = ImageDraw.Draw(img)
        if (
            maze.guide.edge_labels is not None
        ):  # colour-region boundaries, drawn as the curves they are
            from mazeart.outline import edge_paths

            for path in edge_paths(maze):
                draw.line([(m + x * cs, m + y * cs) for x, y in path], fill=wall, width=t,
                          joint="curve")  # fmt: skip
    else:
        blocks = maze.blocks()
        colours = np.array([_rgba(st.background), _rgba(st.wall), _rgba(st.floor)], np.uint8)
        ext = colours[blocks].repeat(cs, axis=0).repeat(cs, axis=1)
        # blocks() adds a one-block frame; it sits in the margin (cropped if the margin is thinner).
        off = cs - m
        if off >= 0:
            canvas[...] = ext[off : off + canvas.shape[0], off : off + canvas.shape[1]]
        else:
            canvas[-off : -off + ext.shape[0], -off : -off + ext.shape[1]] = ext
        img = Image.fromarray(canvas)
        draw = ImageDraw.Draw(img)
    for pts, colour, width in solution_paths(maze, st, solutions):
        pts = pts * cs + m
        draw.line(
            [(float(x), float(y)) for x, y in pts],
            fill=_rgba(colour),
            width=max(1, round(width * cs)),
            joint="curve",
        )
    if st.tags and maze.tags:
        from mazeart.tags import TAG_COLOURS

        r = 0.28 * cs
        for (row, col), kind in maze.tags.items():
            cx, cy = m + (col + 0.5) * cs, m + (row + 0.5) * cs
            draw.ellipse(
                (cx - r, cy - r, cx + r, cy + r), fill=_rgba(TAG_COLOURS.get(kind, "#7f7f7f"))
            )
    if st.markers:
        r = 0.3 * cs
        for cell, colour in ((maze.entrance, st.entrance_color), (maze.exit, st.exit_color)):
            if cell is not None:
                cx, cy = m + (cell[1] + 0.5) * cs, m + (cell[0] + 0.5) * cs
                draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=_rgba(colour))
    return img


def write_png(maze: Maze, fh: Any, **options: Any) -> None:
    """Write :func:`to_png_image` output, with the maze's metadata, to a binary file object."""
    from PIL import PngImagePlugin

    img = to_png_image(maze, **options)
    info = PngImagePlugin.PngInfo()
    meta = {
        "rows": maze.height,
        "cols": maze.width,
        "geometry": maze.geometry,
        "entrance": maze.entrance,
        "exit": maze.exit,
        **{k: maze.meta.get(k) for k in ("algorithm", "seed")},
    }
    info.add_text("mazeart", json.dumps(meta))
    img.save(fh, format="PNG", pnginfo=info, optimize=False)
