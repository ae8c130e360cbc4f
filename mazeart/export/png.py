"""PNG export: the drawing scene painted on a palette picture, ``cell_size`` pixels per cell.

The picture is laid out like the SVG: cell ``(r, c)`` covers pixels
``[m + r*cs, m + (r+1)*cs)`` down and ``[m + c*cs, m + (c+1)*cs)`` across, with
``m = round(margin * cs)``; a maze on any grid likewise puts drawing point
``(x, y)`` at pixel ``(m + x*cs, m + y*cs)``. Rectangles (fills, and strokes along the axes with
their square ends) are painted by one compiled loop over arrays, other strokes by another
(every pixel whose centre lies within half the stroke's width of it, so a stroke has no
pinholes at any angle), areas bounded by rings by the even-odd rule at pixel centres; dots and
the legend's text (DejaVu Sans, not anti-aliased) by Pillow. The picture has a colour
palette of the few colours it uses (so Pillow writes it with 1, 2, 4 or 8 bits a pixel),
white outside the maze unless another background is given (``background="transparent"``
for none). The maze's metadata is stored as a
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
from mazeart.export.scene import Fill, Label, Lines, Scene, Stroke, build_scene, label_font
from mazeart.maze import Maze

__all__ = ["to_png_image", "write_png"]

_PNG_STYLE = Style(floor="#ffffff", background="#ffffff")


def _rgba(colour: str | None) -> tuple[int, int, int, int]:
    from PIL import ImageColor

    if colour is None:
        return (0, 0, 0, 0)
    try:
        return ImageColor.getcolor(colour, "RGBA")  # type: ignore[return-value]
    except ValueError:
        raise MazeartError(f"unknown colour {colour!r}") from None


@njit(cache=True, work="boxes")
def _paint(canvas, boxes, cs, m, n, value, lines):
    """Paint boxes ``x0, y0, x1, y1`` (maze units): every pixel whose centre lies in one.

    With ``lines``, the boxes are segments: axis-parallel ones are painted as strokes
    ``n`` pixels wide with square ends (the ``n`` rows or columns whose centres lie
    nearest the line, so any stroke stops a flood fill), the others skipped and
    flagged in the result.
    """
    h, w = canvas.shape
    skipped = np.zeros(boxes.shape[0], np.bool_)
    half = n / 2
    for i in range(boxes.shape[0]):
        x0, y0, x1, y1 = boxes[i, 0], boxes[i, 1], boxes[i, 2], boxes[i, 3]
        if lines and x0 != x1 and y0 != y1:
            skipped[i] = True
            continue
        lo_x, hi_x = m + min(x0, x1) * cs, m + max(x0, x1) * cs
        lo_y, hi_y = m + min(y0, y1) * cs, m + max(y0, y1) * cs
        if lines:  # the n pixels nearest the line across it, and half a width past its ends
            px0, px1 = int(np.floor(lo_x - half + 0.5)), int(np.floor(hi_x + half - 0.5))
            py0, py1 = int(np.floor(lo_y - half + 0.5)), int(np.floor(hi_y + half - 0.5))
        else:  # pixels whose centre is inside
            px0, px1 = int(np.ceil(lo_x - 0.5)), int(np.floor(hi_x - 0.5))
            py0, py1 = int(np.ceil(lo_y - 0.5)), int(np.floor(hi_y - 0.5))
        canvas[max(py0, 0) : max(min(py1 + 1, h), 0), max(px0, 0) : max(min(px1 + 1, w), 0)] = value
    return skipped


def _stroke_work(canvas: Any, segs: Any, cs: float, m: float, radius: float, value: Any) -> int:
    """What painting ``segs`` costs as Python, in the kernels' units of work: a third of
    the pixels tested (each segment's box, about a cell and a stroke's width each way)."""
    return int(segs.shape[0] * (cs + 2.0 * radius + 2.0) ** 2) // 3


@njit(cache=True, work=_stroke_work)
def _paint_segments(canvas, segs, cs, m, radius, value):
    """Paint every pixel whose centre lies within ``radius`` px of a segment
    ``x0, y0, x1, y1`` (maze units): strokes with round ends and joins, exact at any angle.
    A radius of at least half a pixel leaves no two side-by-side pixels on either side of a
    stroke both unpainted, so a stroke is watertight for a flood fill."""
    h, w = canvas.shape
    r2 = radius * radius
    for i in range(segs.shape[0]):
        ax, ay = m + segs[i, 0] * cs, m + segs[i, 1] * cs
        bx, by = m + segs[i, 2] * cs, m + segs[i, 3] * cs
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        x0 = max(int(np.floor(min(ax, bx) - radius - 0.5)), 0)
        x1 = min(int(np.ceil(max(ax, bx) + radius - 0.5)), w - 1)
        y0 = max(int(np.floor(min(ay, by) - radius - 0.5)), 0)
        y1 = min(int(np.ceil(max(ay, by) + radius - 0.5)), h - 1)
        for y in range(y0, y1 + 1):
            py = y + 0.5
            for x in range(x0, x1 + 1):
                px = x + 0.5
                t = 0.0
                if length2 > 0.0:
                    t = min(1.0, max(0.0, ((px - ax) * dx + (py - ay) * dy) / length2))
                ex, ey = ax + t * dx - px, ay + t * dy - py
                if ex * ex + ey * ey <= r2:
                    canvas[y, x] = value


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

    def flush(self) -> None:
        """Take back what Pillow drew, to paint the array itself."""
        if self._pil is not None:
            self.pixels, self._pil = np.array(self._pil), None

    def paint(self, boxes: NDArray[np.float64], colour: str, width: int = 0) -> Any:
        """Boxes, or with a ``width`` (px) the axis-parallel segments; the rest left out."""
        self.flush()
        boxes = np.ascontiguousarray(boxes, dtype=np.float64).reshape(-1, 4)
        args = (float(self.cs), float(self.m), int(width), self.index(colour), width > 0)
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
        _fill_rings(canvas, fill.rings, canvas.index(fill.colour))


def _fill_rings(canvas: _Canvas, rings: Lines, idx: int) -> None:
    """Paint the area the rings enclose by the even-odd rule, as the SVG's ``fill-rule`` and
    the PDF do: a ring inside another is a hole (the counter of a letter), not more floor.
    A pixel is painted when its centre is inside or within 0.45 px of a ring, so rings that
    share an edge (the cells of a grid) leave no pinhole between them, and a stroke along a
    ring (at least the pixel nearest it) covers every pixel the band adds."""
    from mazeart.outline import _lattice_inside, _lattice_near

    canvas.flush()
    h, w = canvas.pixels.shape
    pts = rings.points * canvas.cs + canvas.m
    x0, y0 = (max(0, int(np.floor(v))) for v in pts.min(axis=0))
    x1 = min(w, int(np.ceil(pts[:, 0].max())) + 1)
    y1 = min(h, int(np.ceil(pts[:, 1].max())) + 1)
    if x1 <= x0 or y1 <= y0:
        return
    origin = ((x0 + 0.5 - canvas.m) / canvas.cs, (y0 + 0.5 - canvas.m) / canvas.cs)
    step, (ny, nx) = 1.0 / canvas.cs, (y1 - y0, x1 - x0)
    a, b = rings.ring_edges()
    inside = _lattice_inside(a, b, origin[0], origin[1], step, nx, ny)
    inside |= _lattice_near(a, b, origin[0], origin[1], step, nx, ny, 0.45 * step)
    canvas.pixels[y0:y1, x0:x1][inside] = idx


def _stroke(canvas: _Canvas, stroke: Stroke) -> None:
    t = max(1, round(stroke.width * canvas.cs))  # at least a pixel: no pinhole in a wall
    segs = stroke.lines.segments()
    skipped = canvas.paint(segs, stroke.colour, t)
    if skipped.any():  # other curves: round strokes, by the same compiled loop
        radius = max(0.5, stroke.width * canvas.cs / 2)
        curved = np.ascontiguousarray(segs[skipped], dtype=np.float64)
        idx = canvas.index(stroke.colour)
        _paint_segments(canvas.pixels, curved, float(canvas.cs), float(canvas.m), radius, idx)


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
    h = round((scene.height + scene.below) * cell_size) + 2 * margin
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
    maze: Maze,
    *,
    style: Style | None = None,
    solutions: Sequence[ArrayLike] | None = None,
    **options: Any,
) -> Any:
    """Draw a maze as a Pillow image.

    Parameters
    ----------
    maze : Maze
        A square maze, or a maze on any grid (hexagons, triangles, rings, ...).
    style : Style, optional
        Base drawing options; keyword ``options`` override single fields.
        ``cell_size`` is in pixels (a drawing unit: a square cell) and must
        be a whole number of at least 2.
    solutions : sequence of array_like, optional
        Paths to draw, each in its own colour (default: the shortest path
        when ``solution=True``): ``(L, 2)`` cells of a Maze, ``(L,)`` cell
        ids of a Maze.

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


def write_png(maze: Maze, fh: Any, **options: Any) -> None:
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
    if not maze.is_square:
        meta["grid"] = maze.kind
    info.add_text("mazeart", dump_json(meta))
    img.save(fh, format="PNG", pnginfo=info, optimize=False, compress_level=_zlib_level(img))


def _zlib_level(img: Any) -> int:
    """The zlib level a picture is written with: the fastest on big pictures (6x faster than
    the default for 1.1x the bytes), the default below 4 Mpx."""
    return 6 if img.width * img.height < 4_000_000 else 1
