"""PNG export: the drawing scene painted on a palette picture, ``cell_size`` pixels per cell.

The picture is laid out like the SVG: cell ``(r, c)`` covers pixels
``[m + r*cs, m + (r+1)*cs)`` down and ``[m + c*cs, m + (c+1)*cs)`` across, with
``m = round(margin * cs)``; a maze on any grid likewise puts drawing point
``(x, y)`` at pixel ``(m + x*cs, m + y*cs)``. Rectangles (fills, and strokes along the axes with
their square ends) are painted by one compiled loop over arrays; other curves,
polygons, dots and the legend's text (DejaVu Sans, not anti-aliased) by Pillow,
a call per polyline. The picture has a colour palette of the few colours it
uses (so Pillow writes it with 1, 2, 4 or 8 bits a pixel), transparent outside
the maze unless a background is given. The maze's metadata is stored as a
``mazeart`` text chunk (JSON).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mazeart._io import dump_json
from mazeart._jit import njit
from mazeart._limits import check_pixels
from mazeart.errors import MazeartError
from mazeart.export._style import Style, style_from
from mazeart.export.scene import Fill, Label, Scene, Stroke, build_scene, label_font
from mazeart.grids.maze import GridMaze
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


@njit(cache=True)
def _paint(canvas, boxes, cs, m, a, b, value, lines):
    """Paint boxes ``x0, y0, x1, y1`` (maze units) grown by ``a`` px before and ``b`` after.

    With ``lines``, the boxes are segments: axis-parallel ones are painted (a
    stroke with square ends), the others skipped and flagged in the result.
    """
    h, w = canvas.shape
    skipped = np.zeros(boxes.shape[0], np.bool_)
    for i in range(boxes.shape[0]):
        x0, y0, x1, y1 = boxes[i, 0], boxes[i, 1], boxes[i, 2], boxes[i, 3]
        if lines and x0 != x1 and y0 != y1:
            skipped[i] = True
            continue
        px0 = int(np.rint(m + min(x0, x1) * cs)) - a
        py0 = int(np.rint(m + min(y0, y1) * cs)) - a
        px1 = int(np.rint(m + max(x0, x1) * cs)) + b
        py1 = int(np.rint(m + max(y0, y1) * cs)) + b
        for y in range(max(py0, 0), min(py1, h)):
            for x in range(max(px0, 0), min(px1, w)):
                canvas[y, x] = value
    return skipped


class _Canvas:
    """A palette-indexed picture: boxes painted by a compiled loop, curves by Pillow."""

    def __init__(self, size: tuple[int, int], background: str | None, cs: int, m: int) -> None:
        self.pixels = np.zeros((size[1], size[0]), dtype=np.uint8)
        self.colours: list[tuple[int, int, int, int]] = [_rgba(background)]
        self.cs, self.m = cs, m
        self._pil: Any = None

    def index(self, colour: str) -> int:
        rgba = _rgba(colour)
        if rgba not in self.colours:
            if len(self.colours) == 256:
                raise MazeartError("a PNG of more than 256 colours")
            self.colours.append(rgba)
        return self.colours.index(rgba)

    def paint(self, boxes: NDArray[np.float64], colour: str, width: int = 0) -> Any:
        """Boxes, or with a ``width`` (px) the axis-parallel segments; the rest left out."""
        if self._pil is not None:
            self.pixels, self._pil = np.array(self._pil), None
        boxes = np.ascontiguousarray(boxes, dtype=np.float64).reshape(-1, 4)
        a, b = width // 2, width - width // 2
        args = (self.cs, self.m, a, b, self.index(colour), width > 0)
        return _paint(self.pixels, boxes, *args)

    def draw(self) -> Any:
        from PIL import Image, ImageDraw

        if self._pil is None:
            self._pil = Image.fromarray(self.pixels)
        return ImageDraw.Draw(self._pil)

    def points(self, line: NDArray[np.float64]) -> list[tuple[float, float]]:
        return [tuple(p) for p in (self.m + line * self.cs).tolist()]

    def image(self) -> Any:
        from PIL import Image

        img = self._pil if self._pil is not None else Image.fromarray(self.pixels)
        img.putpalette([c for rgba in self.colours for c in rgba[:3]])
        alpha = bytes(rgba[3] for rgba in self.colours)
        if alpha[1:].strip(b"\xff"):  # translucent colours: a full alpha table
            img.info["transparency"] = alpha
        elif alpha[0] != 255:  # only the background is clear
            img.info["transparency"] = 0
        return img


def _fill(canvas: _Canvas, fill: Fill) -> None:
    canvas.paint(fill.rects, fill.colour)
    if len(fill.rings):
        draw, idx = canvas.draw(), canvas.index(fill.colour)
        for ring in fill.rings:
            draw.polygon(canvas.points(ring), fill=idx)


def _stroke(canvas: _Canvas, stroke: Stroke) -> None:
    t = max(1, round(stroke.width * canvas.cs))
    skipped = canvas.paint(stroke.lines.segments(), stroke.colour, t)
    if skipped.any():  # other curves: Pillow, a call per polyline
        draw, idx = canvas.draw(), canvas.index(stroke.colour)
        for line in stroke.lines:
            d = np.diff(line, axis=0)
            if not np.all((d[:, 0] == 0) | (d[:, 1] == 0)):
                draw.line(canvas.points(line), fill=idx, width=t, joint="curve")


def _label(canvas: _Canvas, label: Label) -> None:
    """Text on its baseline; a palette picture sets it without anti-aliasing."""
    size = label.size * canvas.cs
    if size < 1:
        return
    draw, idx = canvas.draw(), canvas.index(label.colour)
    draw.fontmode = "1"  # palette indices cannot be blended: no anti-aliasing
    at = (canvas.m + label.x * canvas.cs, canvas.m + label.y * canvas.cs)
    draw.text(at, label.text, fill=idx, font=label_font(size), anchor="ls")


def render(scene: Scene, *, cell_size: int, margin: int) -> Any:
    """A scene as a palette Pillow image, ``cell_size`` pixels per maze unit."""
    w = round(scene.width * cell_size) + 2 * margin
    h = round(scene.height * cell_size) + 2 * margin
    check_pixels(w, h, "the PNG")
    canvas = _Canvas((w, h), scene.background, cell_size, margin)
    for layer in scene.layers:
        for fill in layer.fills:
            _fill(canvas, fill)
        for stroke in layer.strokes:
            _stroke(canvas, stroke)
        for dot in layer.dots:
            draw, idx = canvas.draw(), canvas.index(dot.colour)
            x, y = canvas.m + dot.x * cell_size, canvas.m + dot.y * cell_size
            r = dot.radius * cell_size
            draw.ellipse((x - r, y - r, x + r, y + r), fill=idx)
        for label in layer.labels:
            _label(canvas, label)
    return canvas.image()


def to_png_image(
    maze: Maze | GridMaze,
    *,
    style: Style | None = None,
    solutions: Sequence[ArrayLike] | None = None,
    **options: Any,
) -> Any:
    """Draw a maze as a Pillow image.

    Parameters
    ----------
    maze : Maze or GridMaze
        A square maze, or a maze on any grid (hexagons, triangles, rings, ...).
    style : Style, optional
        Base drawing options; keyword ``options`` override single fields.
        ``cell_size`` is in pixels (a drawing unit: a square cell) and must
        be a whole number of at least 2.
    solutions : sequence of array_like, optional
        Paths to draw, each in its own colour (default: the shortest path
        when ``solution=True``): ``(L, 2)`` cells of a Maze, ``(L,)`` cell
        ids of a GridMaze.

    Returns
    -------
    PIL.Image.Image
        A palette (``"P"``) image, its ``transparency`` set where the
        background is transparent; ``.convert("RGBA")`` for pixels.
    """
    st = style_from(options, base=style or _PNG_STYLE)
    cs = st.cell_size
    if cs != int(cs) or cs < 2:
        raise MazeartError(f"PNG cell size must be a whole number of pixels >= 2, got {cs}")
    margin = round(st.margin * cs)
    check_pixels(maze.width * cs + 2 * margin, maze.height * cs + 2 * margin, "the PNG")
    scene = build_scene(maze, st, solutions=solutions, ordered=False)
    return render(scene, cell_size=int(cs), margin=margin)


def write_png(maze: Maze | GridMaze, fh: Any, **options: Any) -> None:
    """Write :func:`to_png_image` output, with the maze's metadata, to a binary file object.

    A maze on any grid adds its kind (``"grid"``); its ends are cell ids.
    """
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
    if isinstance(maze, GridMaze):
        meta["grid"] = maze.kind
    info.add_text("mazeart", dump_json(meta))
    # zlib's fastest level on big pictures: 6x faster than the default for 1.1x the bytes
    level = 6 if img.width * img.height < 4_000_000 else 1
    img.save(fh, format="PNG", pnginfo=info, optimize=False, compress_level=level)
