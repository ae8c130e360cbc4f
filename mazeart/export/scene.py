"""One drawing of a maze, built once, that every renderer translates.

:func:`build_scene` turns a :class:`~mazeart.maze.Maze` (with its outline, edge
curves, tone, rooms, tags, ends and solution paths) into plain geometry in maze
units (``x`` across, ``y`` down, a cell one unit wide): named :class:`Layer` s of
:class:`Stroke` s (polylines of one width), :class:`Fill` s (rectangles and
polygons), :class:`Dot` s and :class:`Label` s. SVG, PNG and PDF only translate
it, so they show the same ink. A maze on another grid
(maze on another grid: hexagons, triangles, rings, ...)
draws through the same primitives: its cells' polygons, its walls as
polylines, its path through the cells' centres.

The scene is plotter-grade as built:

- **clipped by geometry**: with a smooth outline, walls are cut to the outline
  (and the bridges across the ground) here, not by a renderer's clipping path,
  so a pen plotter, vpype and a PNG see the same ink;
- **merged and ordered**: wall runs that meet are chained into long polylines
  (walking through every junction, straight on where it can), and within each
  stroke the polylines are ordered greedily, nearest end first, reversed when
  that end is nearer, to keep pen-up travel short;
- :meth:`Scene.for_plotter` makes everything strokes of one pen width: thick
  (tone) strokes become parallel pen lines, fills become hatching, dots circles.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib.resources import files
from io import BytesIO
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mazeart._graph import runs
from mazeart._io import plain
from mazeart._jit import njit
from mazeart.export._style import Style, tag_colour, tag_legend
from mazeart.export._walls import door, drawn_walls, segments_of, wall_segments
from mazeart.export.lines import (
    Lines,
    chain_lines,
    chain_segments,
    concat,
    order_lines,
    pen_up_travel,
)
from mazeart.grids import Grid
from mazeart.maze import STEP, Maze

__all__ = [
    "Dot",
    "Fill",
    "Label",
    "Layer",
    "Lines",
    "Scene",
    "Stroke",
    "build_scene",
    "chain_segments",
    "label_font",
    "order_lines",
    "pen_up_travel",
    "text_width",
]

PATH_COLOURS = ("#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#e377c2", "#8c564b")
"""Colours of the second, third, ... solution path (the first uses ``Style.solution_color``)."""


# ----------------------------------------------------------------------------- primitives


@dataclass(frozen=True, eq=False)
class Stroke:
    """Polylines drawn with one pen: a width (maze units), a colour and a cap."""

    lines: Lines
    width: float
    colour: str
    cap: str = "round"
    """``"square"`` (wall runs: corners close) or ``"round"`` (curves, paths)."""
    attrs: Mapping[str, str] = field(default_factory=dict)
    """Extra attributes an SVG writer keeps (e.g. ``data-path``)."""


@dataclass(frozen=True, eq=False)
class Fill:
    """A filled area: axis-parallel rectangles and/or polygons (even-odd), one colour."""

    colour: str
    rects: NDArray[np.float64] = field(default_factory=lambda: np.zeros((0, 4)))
    """``(K, 4)`` rows ``x0, y0, x1, y1``."""
    rings: Lines = field(default_factory=Lines)
    """Closed rings (first point not repeated)."""
    attrs: Mapping[str, str] = field(default_factory=dict)
    title: str = ""


@dataclass(frozen=True, eq=False)
class Dot:
    """A filled disc."""

    x: float
    y: float
    radius: float
    colour: str
    attrs: Mapping[str, str] = field(default_factory=dict)
    title: str = ""


@dataclass(frozen=True, eq=False)
class Label:
    """A line of text in DejaVu Sans (the font in ``mazeart/fonts``), left-aligned."""

    x: float
    y: float
    """The baseline."""
    text: str
    size: float
    """Font size (maze units)."""
    colour: str
    attrs: Mapping[str, str] = field(default_factory=dict)


LEGEND_TEXT = "#333333"
LEGEND_SHARE = 0.025
"""The legend's smallest type, as a share of the picture's width (4.5 mm on 180 mm)."""
"""Colour of the legend's names."""

FONT_FILE = "DejaVuSans.ttf"
"""The font of :class:`Label` s, in ``mazeart/fonts``."""


@cache
def label_font(size: float) -> Any:
    """The Pillow font of :class:`Label` s at ``size`` (pixels when drawing a picture)."""
    from PIL import ImageFont

    with files("mazeart").joinpath("fonts", FONT_FILE).open("rb") as fh:
        return ImageFont.truetype(BytesIO(fh.read()), size=size)


def text_width(text: str, size: float) -> float:
    """Advance width of ``text`` set in :data:`FONT_FILE` at font size ``size`` (same units)."""
    return float(label_font(100.0).getlength(text)) * size / 100.0


@dataclass(frozen=True, eq=False)
class Layer:
    """A named layer, drawn in order: fills, then strokes, then dots, then labels."""

    name: str
    fills: tuple[Fill, ...] = ()
    strokes: tuple[Stroke, ...] = ()
    dots: tuple[Dot, ...] = ()
    labels: tuple[Label, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.fills or self.strokes or self.dots or self.labels)


@dataclass(frozen=True, eq=False)
class Scene:
    """Everything one maze draws, in maze units over ``[0, width] x [0, height]``."""

    width: float
    height: float
    layers: tuple[Layer, ...]
    background: str | None = None
    below: float = 0.0
    """Room under the bottom margin for the legend (maze units): the picture is this much taller."""

    def layer(self, name: str) -> Layer | None:
        """The layer called ``name``, if the scene has it."""
        return next((lay for lay in self.layers if lay.name == name), None)

    def without(self, *names: str) -> Scene:
        """The scene without the named layers (e.g. the solution on a puzzle page)."""
        return replace(self, layers=tuple(x for x in self.layers if x.name not in names))

    def for_plotter(self, pen: float, *, one_stroke: bool = False) -> Scene:
        """Everything as strokes of one pen ``pen`` wide (maze units): nothing filled.

        A stroke wider than the pen becomes parallel pen lines across its width
        (so tone keeps its density), a fill becomes hatching at the pen's
        spacing (rooms at four times it: a tint), a dot a filled circle of
        rings. Each colour stays its own stroke (a pen per colour); the floor,
        which is the paper, and the legend, which is text, are left out.

        With ``one_stroke``, each connected group of a pen's lines is one path
        (:func:`mazeart.export.stroke.one_stroke`), and the walls, the outline and
        the design's edges, drawn by one pen, are one layer ``walls``.
        """
        out: list[Layer] = []
        pooled: dict[str, list[Lines]] = {}  # the ink layers' lines by colour (one_stroke)
        ink_at: int | None = None  # where the pooled layer goes
        for lay in self.layers:
            if lay.name in ("floor", "legend"):
                continue
            by_colour: dict[str, list[Lines]] = {}
            if one_stroke and lay.name in _INK:
                by_colour = pooled
            for fill in lay.fills:
                gap = pen * (4 if lay.name == "rooms" else 1)
                by_colour.setdefault(fill.colour, []).append(hatch(fill, gap))
            for stroke in lay.strokes:
                wide = widen(
                    stroke.lines,
                    stroke.width,
                    pen,
                    square=stroke.cap == "square",
                    closed=one_stroke,
                )
                by_colour.setdefault(stroke.colour, []).append(wide)
            for dot in lay.dots:
                t = np.linspace(0, 2 * np.pi, 25)
                rings = [np.stack([dot.x + r * np.cos(t), dot.y + r * np.sin(t)], axis=1)
                         for r in np.arange(dot.radius, 0, -pen)]  # fmt: skip
                by_colour.setdefault(dot.colour, []).append(Lines.from_list(rings))
            if by_colour is pooled:
                if ink_at is None:  # filled in below, in the first ink layer's place
                    ink_at = len(out)
                    out.append(Layer("walls"))
                continue
            strokes = tuple(
                Stroke(_pen_order(concat(parts), one_stroke), pen, colour, "round")
                for colour, parts in by_colour.items()
            )
            if strokes:
                out.append(Layer(lay.name, strokes=strokes))
        if ink_at is not None:
            out[ink_at] = Layer("walls", strokes=tuple(
                Stroke(_pen_order(concat(parts), True), pen, colour, "round")
                for colour, parts in pooled.items()))  # fmt: skip
        return replace(self, layers=tuple(x for x in out if x), background=None, below=0.0)

    def one_stroke(self) -> Scene:
        """Every stroke as one path per connected group of its lines
        (:func:`mazeart.export.stroke.one_stroke`); the outline and the design's edges
        join the walls where they are drawn with the same width and colour."""
        from mazeart.export.stroke import one_stroke

        pens: dict[tuple[str, float], list[Stroke]] = {}  # the ink layers' strokes by pen
        home: dict[tuple[str, float], str] = {}  # the layer of a pen's first stroke
        for lay in self.layers:
            for st in lay.strokes if lay.name in _INK else ():
                pens.setdefault((st.colour, st.width), []).append(st)
                home.setdefault((st.colour, st.width), lay.name)

        def joined(group: list[Stroke]) -> Stroke:
            square = any(g.cap == "square" for g in group)
            lines = one_stroke(concat([g.lines for g in group]),
                               tips=group[0].width / 2 if square else 0.0)  # fmt: skip
            return replace(group[0], lines=lines, cap="square" if square else group[0].cap)

        out = []
        for lay in self.layers:
            if lay.name in _INK:
                strokes = tuple(joined(pens[k]) for k in pens if home[k] == lay.name)
            else:
                strokes = tuple(joined([st]) for st in lay.strokes)
            out.append(replace(lay, strokes=strokes))
        return replace(self, layers=tuple(x for x in out if x))


_INK = ("walls", "outline", "edges")
"""The layers that draw the maze's lines (its walls, the picture's outline, the design)."""


def _pen_order(lines: Lines, one_stroke: bool) -> Lines:
    """Lines as a plotter draws them: each connected group as one path with ``one_stroke``,
    else runs chained, and in pen order either way."""
    if one_stroke:
        from mazeart.export.stroke import one_stroke as strokes

        return strokes(lines)
    return order_lines(chain_lines(lines))


# ----------------------------------------------------------------------------- plotter helpers


def widen(
    lines: Lines, width: float, pen: float, *, square: bool = False, closed: bool = False
) -> Lines:
    """A stroke ``width`` wide as parallel lines a pen apart (``lines`` when it is one pen).

    With ``square`` ends, each line runs on past its segment's ends by half the
    width, as a square-capped stroke does, so corners and junctions close. With
    ``closed``, a line across each end joins the parallel lines, so that every
    piece of the wide stroke is one connected drawing (for one stroke of the pen).
    """
    n = max(1, round(width / pen))
    if n == 1 or not len(lines):
        return lines
    segs = lines.segments()
    d = segs[:, 2:] - segs[:, :2]
    unit = d / np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1e-12)
    normal = np.hstack([-unit[:, 1:], unit[:, :1]])
    if square:
        reach = unit * (width - pen) / 2
        segs = np.hstack([segs[:, :2] - reach, segs[:, 2:] + reach])
    out = []
    offsets = (np.arange(n) - (n - 1) / 2) * (width - pen) / max(n - 1, 1)
    for off in offsets:
        out.append(segs + np.hstack([normal, normal]) * off)
    if closed:
        for end in (segs[:, :2], segs[:, 2:]):
            out.append(np.hstack([end + normal * offsets[0], end + normal * offsets[-1]]))
    return Lines.from_segments(np.vstack(out))


def hatch(fill: Fill, gap: float) -> Lines:
    """Horizontal hatching of a fill, lines ``gap`` apart (its outline drawn too)."""
    parts = []
    r = fill.rects
    if len(r):
        heights = r[:, 3] - r[:, 1]
        n = np.maximum(1, np.round(heights / gap).astype(np.int64))
        which = np.repeat(np.arange(len(r)), n)
        k = np.arange(len(which)) - np.repeat(np.cumsum(n) - n, n)
        y = r[which, 1] + (k + 0.5) * heights[which] / n[which]
        parts.append(Lines.from_segments(np.stack([r[which, 0], y, r[which, 2], y], axis=1)))
        parts.append(Lines.from_segments(_rect_outline(r)))
    if len(fill.rings):
        from mazeart.outline import clip_segments

        rings = list(fill.rings)
        lo = fill.rings.points.min(axis=0)
        hi = fill.rings.points.max(axis=0)
        ys = np.arange(lo[1] + gap / 2, hi[1], gap)
        lines = np.stack([np.full_like(ys, lo[0]), ys, np.full_like(ys, hi[0]), ys], axis=1)
        parts.append(Lines.from_segments(clip_segments(lines, rings)))
        parts.append(Lines.from_list([np.vstack([q, q[:1]]) for q in rings]))
    return concat(parts)


def _rect_outline(r: NDArray[np.float64]) -> NDArray[np.float64]:
    x0, y0, x1, y1 = r.T
    return np.vstack(
        [
            np.stack([x0, y0, x1, y0], 1),
            np.stack([x1, y0, x1, y1], 1),
            np.stack([x1, y1, x0, y1], 1),
            np.stack([x0, y1, x0, y0], 1),
        ]
    )


# ----------------------------------------------------------------------------- building


def _run_rects(cells: NDArray[np.bool_], shift: int = 0) -> NDArray[np.float64]:
    """Rectangles covering the True cells, one per horizontal run (``x0, y0, x1, y1``)."""
    r, a, b = runs(cells)
    return np.stack([a - shift, r - shift, b - shift, r + 1 - shift], axis=1).astype(np.float64)


@njit(cache=True)
def _side_runs(hor, ver):  # type: ignore[no-untyped-def]
    """Wall runs on the grid lines as segments ``x0, y0, x1, y1``: the horizontal ones row
    by row, then the vertical ones column by column (each top to bottom). Both are read
    row by row (a column's runs are counted first, then written at their column's place)."""
    nh = 0
    for y in range(hor.shape[0]):
        for x in range(hor.shape[1]):
            if hor[y, x] and (x == 0 or not hor[y, x - 1]):
                nh += 1
    h, w = ver.shape
    place = np.zeros(w + 1, np.int64)  # where each column's runs go
    for y in range(h):
        for x in range(w):
            if ver[y, x] and (y == 0 or not ver[y - 1, x]):
                place[x + 1] += 1
    place[0] = nh
    for x in range(w):
        place[x + 1] += place[x]
    out = np.empty((place[w], 4), np.float64)
    k = 0
    for y in range(hor.shape[0]):
        x = 0
        while x < hor.shape[1]:
            if hor[y, x]:
                x0 = x
                while x < hor.shape[1] and hor[y, x]:
                    x += 1
                out[k, 0], out[k, 1], out[k, 2], out[k, 3] = x0, y, x, y
                k += 1
            else:
                x += 1
    top = np.zeros(w, np.int64)
    for y in range(h):
        for x in range(w):
            if ver[y, x]:
                if y == 0 or not ver[y - 1, x]:
                    top[x] = y
                if y == h - 1 or not ver[y + 1, x]:
                    k = place[x]
                    out[k, 0], out[k, 1], out[k, 2], out[k, 3] = x, top[x], x, y + 1
                    place[x] = k + 1
    return out


def _outline_inset(style: Style) -> float:
    """How far inside the picture's contour a smooth outline's line runs, and the floor and
    walls end: half its width, so that its outer edge lies on the contour."""
    return style.line_width / 2


def _side_segments(hor: NDArray[np.bool_], ver: NDArray[np.bool_]) -> NDArray[np.float64]:
    """Wall runs on the grid lines as segments ``x0, y0, x1, y1`` (horizontal walls first)."""
    return _side_runs(np.ascontiguousarray(hor), np.ascontiguousarray(ver))


def _walls_in_outline(
    maze: Maze, hor: NDArray[np.bool_], ver: NDArray[np.bool_], style: Style
) -> NDArray[np.float64]:
    """Wall runs cut to the area the smooth maze's floor covers (its outline, bridges and
    door corridors: :func:`mazeart.outline.drawn_region`), as far inside it as the outline
    runs (:func:`_outline_inset`)."""
    from mazeart.outline import _region_rings, clip_segments, walled_region

    rings = _region_rings(walled_region(maze, inset=_outline_inset(style)))
    return clip_segments(_side_segments(hor, ver), rings)


def _wall_strokes(maze: Maze, st: Style, ordered: bool, chained: bool) -> tuple[Stroke, ...]:
    """The walls of a cells maze: chained, clipped and ordered runs (per width for tone)."""
    from mazeart.outline import drawn_sides

    g = maze.guide
    if g.tone is not None and not g.outline:
        from mazeart.tone import tone_walls

        groups = [(width, segs) for width, segs in tone_walls(maze)]
    else:
        smooth = bool(g.outline) or g.edge_labels is not None
        hor, ver = drawn_sides(maze) if smooth else maze.walls()
        segs = _walls_in_outline(maze, hor, ver, st) if g.outline else _side_segments(hor, ver)
        groups = [(st.line_width, segs)]
    out = []
    for width, segs in groups:
        lines = chain_segments(segs) if chained or ordered else Lines.from_segments(segs)
        if ordered:
            lines = order_lines(lines)
        out.append(Stroke(lines, float(width), st.wall, "square"))
    return tuple(out)


def solution_polyline(maze: Maze, path: ArrayLike) -> NDArray[np.float64]:
    """Turning points of a path in maze units, reaching out through the doors at its ends."""
    cells = np.asarray(path, dtype=np.float64).reshape(-1, 2)
    arr = cells[:, ::-1] + 0.5
    reach = 0.5 if maze.geometry == "cells" else 1.0
    if len(arr):
        for end, side in ((0, maze.entrance_side), (-1, maze.exit_side)):
            if side:
                dr, dc = STEP[side]
                outer = arr[end] + np.array([dc, dr]) * reach
                arr = np.vstack([outer[None], arr] if end == 0 else [arr, outer[None]])
    if len(arr) <= 2:
        return arr
    d = np.sign(np.diff(arr, axis=0))
    turn = np.any(d[1:] != d[:-1], axis=1)
    return arr[np.concatenate([[True], turn, [True]])]


def _solution_strokes(
    maze: Maze, st: Style, solutions: Sequence[ArrayLike] | None
) -> tuple[Stroke, ...]:
    if solutions is None:
        if not st.solution or maze.entrance is None or maze.exit is None:
            return ()
        from mazeart.solvers import solve

        solutions = [solve(maze)]
    colours = (st.solution_color, *PATH_COLOURS)
    k = len(solutions)
    return tuple(
        Stroke(
            Lines.from_list([solution_polyline(maze, path)]),
            st.solution_width * (1 - 0.65 * i / max(k - 1, 1)),  # overlaps show every colour
            colours[i % len(colours)],
            "round",
            {"data-path": str(i + 1)},
        )
        for i, path in enumerate(solutions)
    )


def _arrows(maze: Maze, st: Style) -> tuple[tuple[Fill, ...], tuple[Dot, ...]]:
    """A filled arrow pointing in at the entrance and out at the exit (a dot inside)."""
    reach = 0.5 if maze.geometry == "cells" else 1.0
    fills, dots = [], []
    for cell, side, inward, colour in (
        (maze.entrance, maze.entrance_side, True, st.entrance_color),
        (maze.exit, maze.exit_side, False, st.exit_color),
    ):
        if cell is None:
            continue
        cx, cy = cell[1] + 0.5, cell[0] + 0.5
        if not side:
            dots.append(Dot(cx, cy, 0.3, colour))
            continue
        dr, dc = STEP[side]
        ex, ey = cx + dc * (reach + 0.15), cy + dr * (reach + 0.15)
        back = (ex + dc * 0.8, ey + dr * 0.8)
        tip = (ex, ey)
        if not inward:
            tip, back = back, tip
        px, py = -dr * 0.4, dc * 0.4
        tri = [tip, (back[0] + px, back[1] + py), (back[0] - px, back[1] - py)]
        fills.append(Fill(colour, rings=Lines.from_list([tri])))
    return tuple(fills), tuple(dots)


def _legend(maze: Maze, style: Style) -> tuple[Layer, float]:
    """The tags' legend under the maze: a dot and the name of each kind drawn.

    Its type is at least :data:`LEGEND_SHARE` of the picture's width (the
    margin's size when that is larger), so it reads at any size the picture
    is printed; where the bottom margin cannot hold it, the picture grows by
    the second value (maze units).
    """
    margin = float(style.margin)
    entries = tag_legend(maze.tags.values())
    if margin < 0.25 or not entries:
        return Layer("legend"), 0.0
    # the scene's extent: a grid's own size (its width and height round it up to whole units)
    width, height = maze.grid.size if (not maze.is_square) else (maze.width, maze.height)
    gap, between = 0.3, 1.0  # after a dot, between entries (font sizes)
    radius = 0.35
    unit = sum(2 * radius + gap + text_width(plain(kind), 1.0) for kind, _ in entries)
    unit += between * (len(entries) - 1)
    size = max(min(0.8 * margin, 1.5), LEGEND_SHARE * (width + 2 * margin))
    size = min(size, (width + margin) / unit)  # one row: smaller type when it is long
    top = height + min(margin, 1.1)  # under the ends' arrows, which reach a cell out
    below = max(0.0, top + 1.6 * size - (height + margin))
    centre = top + 0.8 * size
    baseline = centre + 0.36 * size
    x = 0.0
    dots, labels = [], []
    for kind, colour in entries:
        attrs = {"data-kind": kind}
        dots.append(Dot(x + radius * size, centre, radius * size, colour, attrs, kind))
        x += (2 * radius + gap) * size
        name = plain(kind)  # a saved maze's kind may hold control characters
        labels.append(Label(x, baseline, name, size, LEGEND_TEXT, attrs))
        x += text_width(name, size) + between * size
    return Layer("legend", dots=tuple(dots), labels=tuple(labels)), below


# ----------------------------------------------------------------------------- other grids


def _ragged(points: NDArray[np.float64], ptr: NDArray[np.int64], ids: ArrayLike) -> Lines:
    """The ragged rows ``ids`` of ``points`` (row ``i`` is ``points[ptr[i]:ptr[i + 1]]``)."""
    ids = np.asarray(ids, dtype=np.int64)
    lens = ptr[ids + 1] - ptr[ids]
    starts = np.zeros(len(ids) + 1, np.int64)
    starts[1:] = np.cumsum(lens)
    idx = np.repeat(ptr[ids] - starts[:-1], lens) + np.arange(starts[-1])
    return Lines(points[idx].astype(np.float64), starts)


def _union_rings(maze: Maze) -> Lines:
    """The outline of a grid maze's cells taken together: its boundary walls (a maze cell
    on one side only) chained into closed rings, which the even-odd rule fills as the
    cells' union (holes included) with a ring a hole or an island, not one a cell."""
    g = maze.grid
    a, b = g.wall_cells[:, 0], g.wall_cells[:, 1]
    edge = maze.mask[a] != ((b >= 0) & maze.mask[np.maximum(b, 0)])
    loops = chain_segments(segments_of(g, np.flatnonzero(edge))[0])
    if not len(loops):
        return loops
    keep = np.ones(len(loops.points), bool)  # a ring's closing point (its first) once
    keep[loops.starts[1:] - 1] = False
    return Lines(loops.points[keep], loops.starts - np.arange(len(loops.starts)))


def _grid_walls(maze: Maze) -> tuple[NDArray[np.float64], NDArray[np.intp]]:
    """The segments of the walls a grid maze draws (:func:`mazeart.export._walls.drawn_walls`,
    or with a smooth outline :func:`mazeart.outline.grid_smooth_walls`), and the wall of
    each."""
    if maze.guide.outline:
        from mazeart.outline import grid_smooth_walls

        return wall_segments(maze, grid_smooth_walls(maze))
    return wall_segments(maze, drawn_walls(maze))


def _design_walls(maze: Maze, wall: NDArray[np.intp]) -> NDArray[np.bool_] | None:
    """Which of the drawn walls ``wall`` part two colour regions (``--edges``), or None."""
    if maze.guide.edge_labels is None or maze.grid.kind == "weave":
        return None
    labels = maze.guide.edge_labels.reshape(-1)
    g = maze.grid
    a, b = g.wall_cells[wall, 0], g.wall_cells[wall, 1]
    bb = np.maximum(b, 0)
    return (b >= 0) & maze.mask[a] & maze.mask[bb] & (labels[a] != labels[bb])


def _xy(point: NDArray[np.float64]) -> tuple[float, float]:
    """A point as two floats."""
    return float(point[0]), float(point[1])


def _dot_radius(grid: Grid, cell: int) -> float:
    """A dot's radius at ``cell``'s centre: 0.3, less in a cell too small for it."""
    ring = grid.polygon(cell)
    a, b = ring, np.roll(ring, -1, axis=0)
    ab = b - a
    p = grid.centres[cell]
    t = np.clip(((p - a) * ab).sum(1) / np.maximum((ab * ab).sum(1), 1e-12), 0, 1)
    return min(0.3, 0.6 * float(np.min(np.hypot(*(a + t[:, None] * ab - p).T))))


def grid_solution_polyline(maze: Maze, path: ArrayLike) -> NDArray[np.float64]:
    """Turning points of a path of cell ids through the cells' centres, reaching out through
    the door of an end that is the entrance or the exit.

    Parameters
    ----------
    maze : Maze
    path : (L,) array_like of int
        Cell ids, each a neighbour of the last.

    Returns
    -------
    (P, 2) ndarray of float64
        In drawing units; points where the path goes straight on are left out.
    """
    ids = np.asarray(path, dtype=np.int64).reshape(-1)
    pts = maze.grid.centres[ids]
    if len(ids):
        ends = (maze.entrance, maze.exit)
        first = door(maze, int(ids[0])) if int(ids[0]) in ends else None
        last = door(maze, int(ids[-1])) if int(ids[-1]) in ends else None
        parts = [pts] if first is None else [first[0][None], pts]
        pts = np.vstack(parts if last is None else [*parts, last[0][None]])
    if len(pts) <= 2:
        return pts
    d = np.diff(pts, axis=0)
    cross = d[1:, 0] * d[:-1, 1] - d[1:, 1] * d[:-1, 0]
    scale = np.hypot(*d[1:].T) * np.hypot(*d[:-1].T)
    straight = (np.abs(cross) <= 1e-9 * np.maximum(scale, 1e-12)) & ((d[1:] * d[:-1]).sum(1) > 0)
    return pts[np.concatenate([[True], ~straight, [True]])]


def _room_fills(maze: Maze, style: Style) -> tuple[Fill, ...]:
    """A tint over each room's cells (rows of squares, or the cells' polygons)."""
    g = maze.grid
    fills = []
    for room in maze.rooms:
        if maze.is_square:
            area = Fill(style.room_fill, _run_rects(room.mask(maze.shape)))
        elif g.kind == "weave":  # the room's floor, inside its walls
            from mazeart.grids.weave import weave_boxes

            area = Fill(style.room_fill, weave_boxes(maze, only=list(room.cells)))
        else:
            area = Fill(style.room_fill, rings=_ragged(g.cell_points, g.cell_ptr, room.cells))
        doors = len(room.doors)
        fills.append(replace(area, attrs={"data-name": room.name, "data-kind": room.kind},
                             title=f"{room.name} ({room.kind}), {doors} "
                             f"door{'s' * (doors != 1)}"))  # fmt: skip
    return tuple(fills)


def _grid_scene(
    maze: Maze,
    style: Style,
    *,
    solutions: Sequence[ArrayLike] | None,
    arrows: bool,
    ordered: bool,
    chained: bool,
) -> Scene:
    """The layers of a maze on any grid: floor, walls, solution, markers and arrows."""
    g = maze.grid
    square = g.kind == "square"
    weave = g.kind == "weave"
    layers = []
    if style.floor and weave:  # corridors inset in their cells: the floor is their area
        from mazeart.grids.weave import weave_boxes

        layers.append(Layer("floor", fills=(Fill(style.floor, weave_boxes(maze)),)))
    elif style.floor and maze.guide.outline:  # what the drawn outline encloses
        from mazeart.outline import _region_rings, drawn_region

        rings = Lines.from_list(_region_rings(drawn_region(maze, inset=_outline_inset(style))))
        layers.append(Layer("floor", fills=(Fill(style.floor, rings=rings),)))
    elif style.floor:
        if square:  # whole rows of cells as rectangles, as a square maze's floor is drawn
            shape = (int(g.params["rows"]), int(g.params["cols"]))
            floor = Fill(style.floor, _run_rects(maze.mask.reshape(shape)))
        else:
            floor = Fill(style.floor, rings=_union_rings(maze))
        layers.append(Layer("floor", fills=(floor,)))
    layers.append(Layer("rooms", fills=_room_fills(maze, style)))
    cap = "square" if square or weave else "round"
    # a weave maze draws both sides of every corridor where a plain one draws one wall
    groups = [(style.line_width * (0.6 if weave else 1.0), None)]
    design = None
    if weave:  # the inset drawing whose gaps show the passages under (doors open)
        from mazeart.grids.weave import weave_walls

        segments = np.array([np.ravel(seg) for seg in weave_walls(maze)]).reshape(-1, 4)
    else:
        segments, wall = _grid_walls(maze)
        between = _design_walls(maze, wall)
        design = None if between is None else segments[between]
        if maze.guide.outline:  # cut to the floor, clear of the doors' ways out
            from mazeart.outline import clip_lines, walled_region

            inside = walled_region(maze, inset=_outline_inset(style))
            design = None if design is None else clip_lines(design, inside)
            segments = clip_lines(segments, inside)
        if maze.guide.tone is not None:  # a width per level of darkness (mazeart.tone)
            from mazeart.tone import LEVELS, level_width, wall_tone

            levels = wall_tone(maze)[wall]
            groups = [(level_width(k), levels == k) for k in range(LEVELS)]
    strokes = []
    for width, pick in groups:
        picked = segments if pick is None else segments[pick]
        walls = chain_segments(picked) if chained or ordered else Lines.from_segments(picked)
        if ordered:
            walls = order_lines(walls)
        if pick is None or pick.any():
            strokes.append(Stroke(walls, width, style.wall, cap))
    layers.append(Layer("walls", strokes=tuple(strokes)))
    if not weave and design is not None:  # the design: walls between regions
        curves = chain_segments(design)
        if ordered:
            curves = order_lines(curves)
        heavy = style.edge_width if style.edge_width is not None else 2 * style.line_width
        layers.append(Layer("edges", strokes=(Stroke(curves, heavy, style.wall, "round"),)))
    if weave:  # the figure's outer wall around the inset corridors, open at the doors
        from mazeart.grids.weave import weave_outline

        outline = chain_segments(weave_outline(maze))
        if ordered:
            outline = order_lines(outline)
        layers.append(Layer("outline", strokes=(Stroke(outline, style.line_width, style.wall,
                                                       "square"),)))  # fmt: skip
    elif maze.guide.outline:  # the picture's contour, open at the doors
        from mazeart.outline import outline_paths

        outline = Lines.from_list(outline_paths(maze, inset=_outline_inset(style)))
        if ordered:
            outline = order_lines(outline)
        layers.append(Layer("outline", strokes=(Stroke(outline, style.line_width, style.wall,
                                                       "round"),)))  # fmt: skip
    if solutions is None:
        has_ends = maze.entrance is not None and maze.exit is not None
        if style.solution and has_ends:
            from mazeart.solvers import solve

            solutions = [solve(maze)]
        else:
            solutions = []
    colours = (style.solution_color, *PATH_COLOURS)
    k = len(solutions)
    paths = tuple(
        Stroke(
            Lines.from_list([grid_solution_polyline(maze, path)]),
            style.solution_width * (1 - 0.65 * i / max(k - 1, 1)),
            colours[i % len(colours)],
            "round",
            {"data-path": str(i + 1)},
        )
        for i, path in enumerate(solutions)
    )
    layers.append(Layer("solution", strokes=paths))
    if style.tags and maze.tags:
        dots = tuple(
            Dot(*_xy(g.centres[cell]), min(0.28, _dot_radius(g, cell)), tag_colour(kind),
                {"data-kind": kind}, kind)
            for cell, kind in maze.tags.items()
        )  # fmt: skip
        layers.append(Layer("tags", dots=dots))
    ends = [
        (cell, colour)
        for cell, colour in ((maze.entrance, style.entrance_color), (maze.exit, style.exit_color))
        if cell is not None
    ]
    if style.markers:
        dots = tuple(
            Dot(*_xy(g.centres[cell]), _dot_radius(g, cell), colour) for cell, colour in ends
        )
        layers.append(Layer("markers", dots=dots))
    if arrows or style.markers:  # the ends shown: an arrow in, an arrow out
        fills, marks = [], []
        mouths = {}  # a smooth outline's doors: where each opens it
        if maze.guide.outline and not square:
            from mazeart.outline import _end_doors, door_mouths

            doors = zip(_end_doors(maze), door_mouths(maze), strict=True)
            mouths = {end: mouth for (end, *_), mouth in doors}
        for cell, colour in ends:
            way = door(maze, cell)
            if way is None:
                marks.append(Dot(*_xy(g.centres[cell]), _dot_radius(g, cell), colour))
                continue
            mid, normal = way
            if cell in mouths:  # (a door that opens before its wall, where the figure ends)
                q0, q1 = mouths[cell]
                mid = mid + min(0.0, float(((q0 + q1) / 2 - mid) @ normal)) * normal
            near, far = mid + 0.15 * normal, mid + 0.95 * normal
            tip, back = (near, far) if cell == maze.entrance else (far, near)
            side = np.array([-normal[1], normal[0]]) * 0.4
            tri = np.stack([tip, back + side, back - side])
            fills.append(Fill(colour, rings=Lines.from_list([tri])))
        layers.append(Layer("arrows", fills=tuple(fills), dots=tuple(marks)))
    below = 0.0
    if style.tags and maze.tags:
        legend, below = _legend(maze, style)
        layers.append(legend)
    width, height = g.size
    shown = tuple(x for x in layers if x)
    return Scene(float(width), float(height), shown, style.background, below)


def build_scene(
    maze: Maze,
    style: Style,
    *,
    solutions: Sequence[ArrayLike] | None = None,
    arrows: bool = False,
    ordered: bool = True,
    chained: bool | None = None,
) -> Scene:
    """Everything ``maze`` draws with ``style``, as layers of plain geometry.

    Layers, in drawing order (empty ones left out): ``floor``, ``rooms``,
    ``walls``, ``outline``, ``edges``, ``solution``, ``tags``, ``markers``,
    with ``arrows`` (the PDF's ends) ``arrows``, and with tags ``legend``: a
    dot and a name per kind (:func:`mazeart.export._style.tag_legend`) in the
    bottom margin, below the maze.

    A maze on another grid draws ``floor`` (its cells'
    polygons, or what its smooth outline encloses), ``rooms``, ``walls`` (every
    closed wall with a maze cell on a side, the doors of its entrance and exit
    left open; as thick as the picture is dark with tone; cut to the smooth
    outline), ``edges`` (the walls between colour regions), ``outline``,
    ``solution`` (through the cells' centres and out through the doors),
    ``tags``, ``markers`` and ``arrows`` (along the doors' normals). Its scene
    spans the grid's :attr:`~mazeart.grids.Grid.size`.

    Parameters
    ----------
    maze : Maze
    style : Style
    solutions : sequence of array_like, optional
        Paths for the solution layer (default: the shortest, when
        ``style.solution``): ``(L, 2)`` cells of a Maze, ``(L,)`` cell ids of
        a Maze.
    arrows : bool, default False
        Arrows into the entrance and out of the exit (drawn with ``style.markers`` too).
    ordered : bool, default True
        Chain the wall runs and put them in pen order. A raster renderer, for
        which the order is nothing, passes False: the same ink, sooner.
    chained : bool, optional
        Chain the wall runs into polylines even when not ordered (fewer, longer
        paths: a PDF's, which a printer draws in any order); by default as
        ``ordered``.

    Returns
    -------
    Scene
        With ``style.plotter``, :meth:`Scene.for_plotter` of it.
    """
    chain = ordered if chained is None else chained
    if not maze.is_square:
        scene = _grid_scene(maze, style, solutions=solutions, arrows=arrows, ordered=ordered,
                            chained=chain)  # fmt: skip
        return _finished(scene, style)
    from mazeart.outline import edge_paths, outline_paths

    layers = []
    g = maze.guide
    if maze.geometry == "cells":
        if st_floor := style.floor:
            if g.outline:  # what the drawn outline encloses: bridges and doors' ways out too
                from mazeart.outline import _region_rings, drawn_region

                inset = _outline_inset(style)
                rings = Lines.from_list(_region_rings(drawn_region(maze, inset=inset)))
                layers.append(Layer("floor", fills=(Fill(st_floor, rings=rings),)))
            else:
                layers.append(Layer("floor", fills=(Fill(st_floor, _run_rects(maze.mask)),)))
    else:
        blocks = maze.blocks()  # framed: block (r, c) of the grid is at [r + 1, c + 1]
        if style.floor:
            layers.append(Layer("floor", fills=(Fill(style.floor, _run_rects(blocks == 2, 1)),)))
    layers.append(Layer("rooms", fills=_room_fills(maze, style)))
    if maze.geometry == "cells":
        layers.append(Layer("walls", strokes=_wall_strokes(maze, style, ordered, chain)))
        width = style.line_width
        if g.outline:
            outline = order_lines(Lines.from_list(outline_paths(maze, inset=_outline_inset(style))))
            layers.append(Layer("outline", strokes=(Stroke(outline, width, style.wall),)))
        if g.edge_labels is not None:
            curves = order_lines(Lines.from_list(edge_paths(maze)))
            heavy = style.edge_width if style.edge_width is not None else 2 * width
            layers.append(Layer("edges", strokes=(Stroke(curves, heavy, style.wall, "round"),)))
    else:
        walls = Fill(style.wall, _run_rects(blocks == 1, 1))
        layers.append(Layer("walls", fills=(walls,)))
    layers.append(Layer("solution", strokes=_solution_strokes(maze, style, solutions)))
    if style.tags and maze.tags:
        dots = tuple(
            Dot(c + 0.5, r + 0.5, 0.28, tag_colour(kind), {"data-kind": kind}, kind)
            for (r, c), kind in sorted(maze.tags.items())
        )
        layers.append(Layer("tags", dots=dots))
    if style.markers:
        ends = ((maze.entrance, style.entrance_color), (maze.exit, style.exit_color))
        dots = tuple(Dot(c + 0.5, r + 0.5, 0.3, colour) for (r, c), colour in
                     ((cell, colour) for cell, colour in ends if cell is not None))  # fmt: skip
        layers.append(Layer("markers", dots=dots))
    if arrows or style.markers:  # the ends shown: an arrow in, an arrow out
        fills, dots = _arrows(maze, style)
        layers.append(Layer("arrows", fills=fills, dots=dots))
    below = 0.0
    if style.tags and maze.tags:
        legend, below = _legend(maze, style)
        layers.append(legend)
    shown = tuple(x for x in layers if x)
    scene = Scene(float(maze.width), float(maze.height), shown, style.background, below)
    return _finished(scene, style)


def _finished(scene: Scene, style: Style) -> Scene:
    """The scene for a plotter (:meth:`Scene.for_plotter`) or in one stroke per group of
    lines (:meth:`Scene.one_stroke`), as the style asks."""
    if style.plotter:
        return scene.for_plotter(style.line_width, one_stroke=style.one_stroke)
    return scene.one_stroke() if style.one_stroke else scene
