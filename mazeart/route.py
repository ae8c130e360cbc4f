"""The solution as part of the art: a route the solution follows, on any grid.

A designer gives the route as lines (``route``: an SVG path or polyline, or points in a
JSON or text file), or as a picture whose strokes the solution should draw
(``solution_picture``: its figure thinned to a skeleton; ``solution_text``: words set in
the shipped font). Either way the route becomes a chain of cells, each a neighbour of the
one before and none twice, from a cell on the maze's edge (the entrance) to another (the
exit):

- lines are followed in their order, cell after cell, the gaps between lines bridged by
  the shortest way through cells the route has not used;
- strokes are drawn as a pen would: along a stroke while it goes on, then the shortest way
  to the nearest stroke not drawn yet; where strokes cross, the route steps round the cell
  it has used already.

Then :func:`carve_route` opens the route's passages and grows the rest of the maze around
it, so the maze is a tree and the route is the only way from the entrance to the exit. The
rest grows from a few of the route's cells (``decoys``, a share of them) by depth-first
walks that go on at once, each a step at a time in random turn
(:func:`mazeart._kernels.carve.grow_forest`): each branch leaving the route is a long
winding wrong turn of its own share of the maze, as deep as those of a depth-first maze,
the route does not show as the one corridor with openings all along it, and the walls
along it are as dense as anywhere else in the maze.
"""

from __future__ import annotations

import functools
import itertools
import os
import re
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from mazeart.errors import MazeartError

__all__ = [
    "DECOYS",
    "DETOUR",
    "WANDER",
    "carve_route",
    "plan_route",
    "read_route",
    "stroke_points",
    "strokes_box",
    "text_picture",
    "wander",
]

MAX_POINTS, MAX_LINES = 20_000, 200
"""The most points and lines a route holds."""

FRACTION_SLACK = 0.05
"""How far past 0-1 a route's numbers may stray and still be fractions of the picture."""

DECOYS = 0.15
"""The share of the route's cells where a wrong turn may leave it: about one in seven, so the
walls along the route stand nearly as densely as elsewhere."""

WANDER = 0.7
"""A hidden word's or picture's route: the share of its steps that go round beside it
(:func:`wander`). Without them a word's strokes run straight, three in four of its cells a
straight corridor against three in ten elsewhere, and the long walls beside them show the
word; with them the route's cells are about as often straight as the rest's."""

DETOUR = 4
"""The most cells a detour of :func:`wander` takes: one or two round a step on the square,
hex and upsilon grids, four on the triangle grid, whose cells meet in sixes round a corner."""

LETTER_GAP = 0.25
"""Room between the letters of a solution's words, in ems (their font size)."""

STEPS_BACK = 64
"""The most steps back a pen takes out of places its strokes walled it into."""

JUMP_TO_END = 6
"""Steps a pen going to the next stroke walks further to start at a stroke's end rather than
in its middle (which would draw half the stroke twice)."""


# ----------------------------------------------------------------------------- what to draw


def read_route(
    path: str | os.PathLike[str], size: tuple[float, float] | None = None
) -> list[NDArray[np.float64]]:
    """Lines from a route file, in fractions of the picture: an SVG's paths and polylines
    (straight segments between their points; curves by their end points) over its
    ``viewBox`` (the drawing laid over the picture), points in JSON (``[[x, y], ...]`` or
    a list of such lines) or text (``x y`` or ``x,y`` a line; a blank line starts a new one):
    fractions when every number is within 0-1, else the picture's pixels; or a picture of
    lines laid over the maze's picture (its line thinned and followed from its left end).

    Parameters
    ----------
    path : str or path-like
    size : (float, float), optional
        The picture's size in pixels (without a picture, the grid's in cells), for points
        given in pixels.

    Returns
    -------
    list of (k, 2) ndarray of float64

    Raises
    ------
    MazeartError
        For a file with no line of at least one point, or numbers that are not.
    """
    from mazeart._io import load_json, read_bytes

    data = read_bytes(path, "a route", limit=4 * 2**20)
    if data.startswith(_PICTURE_MAGIC):
        return _picture_lines(path)
    if data[:2] == b"\x1f\x8b":
        raise MazeartError(f"{path}: a compressed route: give the SVG or points uncompressed")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise MazeartError(f"{path}: a route is UTF-8 text (SVG, JSON or points)") from None
    lines: list[list[tuple[float, float]]] = []
    frame = None
    if text.lstrip().startswith("<"):
        lines, frame = _svg_lines(text)
    elif text.lstrip().startswith(("[", "{")):
        doc = load_json(data.decode("utf-8-sig"))
        rows = doc.get("points", doc.get("lines")) if isinstance(doc, dict) else doc
        if isinstance(rows, list) and rows and _is_point(rows[0]):
            rows = [rows]
        if not isinstance(rows, list):
            raise MazeartError(f"{path}: a route's points are [x, y] pairs of numbers")
        for row in rows:
            if not isinstance(row, list) or not all(_is_point(p) for p in row):
                raise MazeartError(f"{path}: a route's points are [x, y] pairs of numbers")
            lines.append([(float(p[0]), float(p[1])) for p in row])
    else:
        current: list[tuple[float, float]] = []
        for raw in text.splitlines():
            raw = raw.split("#")[0].strip()
            if not raw:
                if current:
                    lines.append(current)
                current = []
                continue
            parts = re.split(r"[\s,;]+", raw)
            try:
                x, y = float(parts[0]), float(parts[1])
            except (IndexError, ValueError):
                raise MazeartError(f"{path}: {raw!r} is not a point (x y)") from None
            current.append((x, y))
        if current:
            lines.append(current)
    out = [np.asarray(line, np.float64).reshape(-1, 2) for line in lines if line]
    if not out or not all(np.isfinite(a).all() for a in out):
        raise MazeartError(f"{path}: the route holds no point")
    if sum(len(a) for a in out) > MAX_POINTS or len(out) > MAX_LINES:
        raise MazeartError(f"{path}: a route holds at most {MAX_POINTS:,} points in "
                           f"{MAX_LINES} lines")  # fmt: skip
    spread = max(float(np.abs(a).max()) for a in out)
    if frame is None and spread > 1 + FRACTION_SLACK:  # pixels
        if size is None:
            raise MazeartError(f"{path}: give the route's points in fractions of the picture (0-1)")
        frame = size
    if frame is not None:
        w, h = frame[0], frame[1]
        origin = np.asarray(frame[2:4] if len(frame) > 2 else (0.0, 0.0), float)
        out = [(a - origin) / np.asarray((w, h), float) for a in out]
    return out


_PICTURE_MAGIC = (b"\x89PNG", b"\xff\xd8\xff", b"GIF8", b"BM", b"II*\x00", b"MM\x00*", b"RIFF")
"""How a picture file begins (PNG, JPEG, GIF, BMP, TIFF, WebP): a route drawn as lines."""


def _picture_lines(path: str | os.PathLike[str]) -> list[NDArray[np.float64]]:
    """:func:`read_route` of a picture of lines laid over the maze's picture (the whole of
    each on the whole of the other, as a layer drawn over it), its figure read as a maze's
    picture's is (dark on light, or opaque on a transparent layer): thinned to a skeleton
    and traced from end to end, the first line from the end nearest the picture's left,
    each next from its end nearest where the one before ended."""
    from skimage.morphology import skeletonize

    from mazeart._io import open_image
    from mazeart.image import figure_coverage

    picture = open_image(path)
    try:
        ink = figure_coverage(picture) >= 0.5
    except MazeartError:  # one flat tone
        ink = np.zeros(picture.size[::-1], bool)
    if not ink.any() or ink.all():
        raise MazeartError(f"{path}: the route's picture has no line to follow")
    bone = skeletonize(ink)
    if int(bone.sum()) > 10 * MAX_POINTS:  # (traced a pixel at a time)
        raise MazeartError(f"{path}: the route's picture holds {int(bone.sum()):,} pixels of "
                           f"line, more than a route's {10 * MAX_POINTS:,}")  # fmt: skip
    h, w = bone.shape
    width = ink.sum() / max(int(bone.sum()), 1)  # the lines' width in pixels, about
    lines = [line for line in _trace(bone) if len(line) >= max(3.0, 2 * width)]  # no spurs
    if not lines:
        raise MazeartError(f"{path}: the route's picture has no line to follow")
    if len(lines) > MAX_LINES:
        raise MazeartError(f"{path}: a route holds at most {MAX_LINES} lines; the picture has "
                           f"{len(lines)}")  # fmt: skip
    ordered = [min(lines, key=lambda line: float(line[:, 0].min()))]
    lines = [line for line in lines if line is not ordered[0]]
    if ordered[0][-1, 0] < ordered[0][0, 0]:
        ordered[0] = ordered[0][::-1]
    while lines:  # the nearest end to the last line's end next, drawn from there
        end = ordered[-1][-1]
        gaps = [min(np.hypot(*(line[0] - end)), np.hypot(*(line[-1] - end))) for line in lines]
        line = lines.pop(int(np.argmin(gaps)))
        ordered.append(line if np.hypot(*(line[0] - end)) <= np.hypot(*(line[-1] - end))
                       else line[::-1])  # fmt: skip
    total = sum(len(line) for line in ordered)
    every = max(1, -(-total // (MAX_POINTS // 2)))  # within the points a route may hold
    return [(np.vstack([line[::every], line[-1:]]) + 0.5) / (w, h) for line in ordered]


def _trace(bone: NDArray[np.bool_]) -> list[NDArray[np.float64]]:
    """A skeleton's pixels as lines of ``x, y`` points, each pixel in one: walks from a pixel
    with the fewest pixels left beside it (an end first, the left one first), each step to
    the pixel left beside it that goes on most nearly straight (a side before a corner)."""
    ys, xs = np.nonzero(bone)
    at = np.pad(np.where(bone, 0, -1), 1, constant_values=-1)  # framed: no bound to check
    at[ys + 1, xs + 1] = np.arange(ys.size)
    around = [(dy, dx) for dy in (0, 1, 2) for dx in (0, 1, 2) if dy != 1 or dx != 1]
    near = [[int(at[y + dy, x + dx]) for dy, dx in around if at[y + dy, x + dx] >= 0]
            for y, x in zip(ys.tolist(), xs.tolist(), strict=True)]  # fmt: skip
    left = np.ones(ys.size, bool)
    count = np.array([len(n) for n in near])
    lines = []
    while left.any():
        idle = np.flatnonzero(left)
        start = int(idle[np.lexsort((xs[idle], count[idle]))[0]])
        line, cur, heading = [start], start, (0.0, 0.0)
        left[start] = False
        for n in near[start]:
            count[n] -= 1
        while True:
            options = [n for n in near[cur] if left[n]]
            if not options:
                break

            def rank(n: int, cur: int = cur, heading: tuple[float, float] = heading) -> tuple:
                dy, dx = ys[n] - ys[cur], xs[n] - xs[cur]
                step = float(np.hypot(dy, dx))
                return (-(dx * heading[0] + dy * heading[1]) / step, step)

            nxt = min(options, key=rank)
            heading = (float(xs[nxt] - xs[cur]), float(ys[nxt] - ys[cur]))
            heading = (heading[0] / np.hypot(*heading), heading[1] / np.hypot(*heading))
            cur = nxt
            line.append(cur)
            left[cur] = False
            for n in near[cur]:
                count[n] -= 1
        lines.append(np.stack([xs[line], ys[line]], axis=1).astype(np.float64))
    return lines


def _is_point(p: Any) -> bool:
    return (isinstance(p, list) and len(p) == 2
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in p))  # fmt: skip


_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _svg_lines(text: str) -> tuple[list[list[tuple[float, float]]], tuple[float, ...] | None]:
    """The polylines of an SVG's ``path`` (M, L, H, V, Z and curve end points, absolute and
    relative), ``polyline``, ``polygon`` and ``line`` elements, and the drawing's frame
    ``(width, height, x0, y0)`` (its viewBox, else its width and height; None without)."""
    import xml.etree.ElementTree as ET

    try:
        root = ET.fromstring(text)
    except ET.ParseError as err:
        raise MazeartError(f"the route is not a readable SVG ({err})") from None
    frame = None
    box = [float(v) for v in _NUMBER.findall(root.get("viewBox", ""))]
    if len(box) == 4 and box[2] > 0 and box[3] > 0:
        frame = (box[2], box[3], box[0], box[1])
    else:
        dims = [_NUMBER.match(root.get(k, "")) for k in ("width", "height")]
        if all(dims) and float(dims[0].group()) > 0 and float(dims[1].group()) > 0:  # type: ignore[union-attr]
            frame = (float(dims[0].group()), float(dims[1].group()), 0.0, 0.0)  # type: ignore[union-attr]
    lines: list[list[tuple[float, float]]] = []
    hidden = {id(x) for el in root.iter() if el.tag.rsplit("}", 1)[-1] in _UNDRAWN
              for x in el.iter()}  # fmt: skip
    for el in root.iter():
        tag = el.tag.rsplit("}", 1)[-1]
        if id(el) in hidden:
            continue
        if el.get("transform"):
            raise MazeartError("the route's SVG moves its lines with a transform: flatten it "
                               "(Inkscape: Path > Object to Path, then ungroup)")  # fmt: skip
        if tag in ("polyline", "polygon"):
            nums = [float(v) for v in _NUMBER.findall(el.get("points", ""))]
            pts = list(zip(nums[0::2], nums[1::2], strict=False))
            if tag == "polygon" and pts:
                pts.append(pts[0])
            lines.append(pts)
        elif tag == "line":
            ends = [_svg_number(el.get(k, "0")) for k in ("x1", "y1", "x2", "y2")]
            lines.append([(ends[0], ends[1]), (ends[2], ends[3])])
        elif tag == "path":
            lines.extend(_path_lines(el.get("d", "")))
    return [line for line in lines if line], frame


_UNDRAWN = ("defs", "clipPath", "mask", "marker", "symbol", "pattern", "metadata")
"""SVG elements whose content is not drawn where it stands."""


def _svg_number(text: str) -> float:
    found = _NUMBER.match(text.strip())
    if found is None:
        raise MazeartError(f"the route's SVG has {text!r} where a number goes")
    return float(found.group())


_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}


def _path_lines(d: str) -> list[list[tuple[float, float]]]:
    lines: list[list[tuple[float, float]]] = []
    x = y = 0.0
    start = (0.0, 0.0)
    for cmd, args in re.findall(r"([MmLlHhVvCcSsQqTtAaZz])([^MmLlHhVvCcSsQqTtAaZz]*)", d):
        nums = _arc_numbers(args) if cmd in "Aa" else [float(v) for v in _NUMBER.findall(args)]
        k = _ARGS[cmd.upper()]
        rel = cmd.islower()
        if cmd in "Zz":
            if lines:
                lines[-1].append(start)
            x, y = start
            continue
        groups = [nums[i : i + k] for i in range(0, len(nums), k)] if k else []
        for j, g in enumerate(groups):
            if len(g) < k:
                break
            c = cmd.upper()
            if c == "H":
                x = g[0] + (x if rel else 0)
            elif c == "V":
                y = g[0] + (y if rel else 0)
            else:  # the segment's end point (a curve's too)
                x, y = g[-2] + (x if rel else 0), g[-1] + (y if rel else 0)
            if c == "M" and j == 0:
                lines.append([(x, y)])
                start = (x, y)
            elif lines:
                lines[-1].append((x, y))
            else:
                lines.append([(x, y)])
    return lines


def _arc_numbers(args: str) -> list[float]:
    """An arc command's numbers, whose two flags (the 4th and 5th of each 7) may be written
    as single digits run together (``a10 10 0 0110 0``)."""
    out: list[float] = []
    i = 0
    while i < len(args):
        if args[i] in " \t\r\n,":
            i += 1
            continue
        if len(out) % 7 in (3, 4):  # a flag: one digit
            if args[i] not in "01":
                raise MazeartError(f"the route's SVG arc has {args[i]!r} where a flag goes")
            out.append(float(args[i]))
            i += 1
            continue
        found = _NUMBER.match(args, i)
        if found is None:
            raise MazeartError(f"the route's SVG path has {args[i : i + 10]!r} where a number goes")
        out.append(float(found.group()))
        i = found.end()
    return out


def text_picture(text: str, *, font: str | os.PathLike[str] | None = None) -> Any:
    """Words set in the shipped font (DejaVu Sans, not bold: thin strokes make a clean
    skeleton), black on white, as a picture for :func:`stroke_points`.

    The same words in the same font give the same picture object (the last few are kept),
    so that what is read of it (its figure, its strokes) is read once.
    """
    if not isinstance(text, str) or not text.strip():
        raise MazeartError("solution_text is empty: give the words the solution writes")
    if len(text) > 40:
        raise MazeartError(f"solution_text holds {len(text)} characters; a route draws 40 at most")
    return _set_text(text, None if font is None else os.fspath(font))


@functools.lru_cache(maxsize=8)
def _set_text(text: str, font: str | None) -> Any:
    from importlib.resources import files

    from PIL import Image, ImageDraw, ImageFont

    size = 160
    if font is None:
        data = files("mazeart").joinpath("fonts", "DejaVuSans.ttf").read_bytes()
        face = ImageFont.truetype(__import__("io").BytesIO(data), size=size)
    else:
        try:
            face = ImageFont.truetype(font, size=size)
        except OSError:
            raise MazeartError(
                f"{font}: not a font mazeart can read (TrueType, OpenType)"
            ) from None
    lines = text.splitlines() or [text]
    gap = int(size * LETTER_GAP)  # room between letters: a route draws each apart
    widths = [sum(face.getlength(ch) + gap for ch in line) for line in lines]
    height = int(size * 1.3) * len(lines) + 40
    img = Image.new("L", (int(max(widths)) + 40, height), 255)
    draw = ImageDraw.Draw(img)
    for i, line in enumerate(lines):
        x = 20.0
        for ch in line:
            draw.text((x, 20 + i * int(size * 1.3)), ch, font=face, fill=0)
            x += face.getlength(ch) + gap
    return img


def stroke_points(
    picture: Any, figure: NDArray[np.bool_] | None = None, *, fill: float = 0.9
) -> NDArray[np.float64]:
    """The strokes of a picture's figure (its skeleton) as points in fractions of the maze's
    picture: scaled, as large as fits, into ``figure`` (the maze picture's figure, at its
    resolution: the largest box of the strokes' shape inside it, near its middle), or over
    the whole picture without one.

    Returns
    -------
    (k, 2) ndarray of float64
        ``x, y`` in fractions, one a skeleton pixel.
    """
    from skimage.morphology import skeletonize

    ink = _ink(picture)
    bone = skeletonize(ink)
    ys, xs = np.nonzero(bone)
    h, w = ink.shape
    if figure is None:
        return np.stack([(xs + 0.5) / w, (ys + 0.5) / h], axis=1)
    x0, y0, x1, y1 = _fit_box(figure, w / h, fill)
    fh, fw = figure.shape
    return np.stack([(x0 + (xs + 0.5) / w * (x1 - x0)) / fw,
                     (y0 + (ys + 0.5) / h * (y1 - y0)) / fh], axis=1)  # fmt: skip


def _ink(picture: Any) -> NDArray[np.bool_]:
    """A drawing's figure, cropped to its box (read once a picture)."""
    from mazeart.image import _cached

    return _cached(picture, "ink", lambda: _read_ink(picture))  # type: ignore[no-any-return]


def _read_ink(picture: Any) -> NDArray[np.bool_]:
    from mazeart.image import figure_coverage

    ink = figure_coverage(picture) >= 0.5
    if not ink.any():
        raise MazeartError("the solution's picture has no figure to draw")
    rows, cols = np.nonzero(ink)
    return ink[rows.min() : rows.max() + 1, cols.min() : cols.max() + 1]


def strokes_box(picture: Any, figure: NDArray[np.bool_], *, fill: float = 0.9) -> tuple[float, ...]:
    """Where :func:`stroke_points` lays a drawing into ``figure``: ``(x0, y0, x1, y1)`` in
    the figure's pixels."""
    ink = _ink(picture)
    return _fit_box(figure, ink.shape[1] / ink.shape[0], fill)


def _fit_box(figure: NDArray[np.bool_], aspect: float, fill: float) -> tuple[float, ...]:
    """The largest box of ``aspect`` (width over height) inside ``figure``, nearest its
    middle, shrunk to ``fill`` of itself about its centre: ``(x0, y0, x1, y1)`` pixels."""
    step = max(1, int(max(figure.shape) / 200))  # at most 200 a side: a summed-area table
    small = figure[::step, ::step]
    h, w = small.shape
    outside = np.pad((~small).astype(np.int64).cumsum(0).cumsum(1), ((1, 0), (1, 0)))
    ys, xs = np.nonzero(small)
    cy, cx = ys.mean(), xs.mean()
    best = None
    lo, hi = 1, max(h, w)
    while lo <= hi:  # the largest height whose box fits somewhere
        bh = (lo + hi) // 2
        bw = max(1, round(bh * aspect))
        if bh > h or bw > w:
            hi = bh - 1
            continue
        sums = (outside[bh:, bw:] - outside[:-bh, bw:] - outside[bh:, :-bw]
                + outside[:-bh, :-bw])  # fmt: skip
        ok = np.argwhere(sums == 0)
        if ok.size:
            d = np.hypot(ok[:, 0] + bh / 2 - cy, ok[:, 1] + bw / 2 - cx)
            y, x = ok[np.argmin(d)]
            best = (x, y, bw, bh)
            lo = bh + 1
        else:
            hi = bh - 1
    if best is None:
        raise MazeartError("the solution's strokes find no room inside the figure")
    x, y, bw, bh = best
    mx, my = (1 - fill) / 2 * bw, (1 - fill) / 2 * bh
    return ((x + mx) * step, (y + my) * step, (x + bw - mx) * step, (y + bh - my) * step)


# ----------------------------------------------------------------------------- the route


def plan_route(
    grid: Any,
    free: NDArray[np.bool_],
    places: NDArray[np.float64],
    *,
    lines: Sequence[NDArray[np.float64]] | None = None,
    strokes: NDArray[np.float64] | None = None,
    drawn: dict[str, float] | None = None,
) -> NDArray[np.int64]:
    """The chain of cells the solution follows: from a free cell on the maze's edge (the
    entrance) through the lines in their order, or over the strokes, to another (the exit).

    Parameters
    ----------
    grid : Grid
    free : (n,) ndarray of bool
        The cells that may hold maze.
    places : (n, 2) ndarray of float
        Each cell's centre in fractions of the picture (:meth:`mazeart.Made.places`).
    lines : sequence of (k, 2) ndarray, optional
        Lines in fractions of the picture, followed in order.
    strokes : (k, 2) ndarray, optional
        Points of strokes (a skeleton's pixels) in fractions of the picture, drawn in the
        order a pen finds them.
    drawn : dict, optional
        Filled, for strokes, with ``share``: the share of the strokes' cells the route
        draws (a pen leaves out what it cannot reach without crossing itself).

    Returns
    -------
    (L,) ndarray of int64
        Cell ids, each a neighbour of the one before, none twice.

    Raises
    ------
    MazeartError
        When the route leaves the figure, crosses itself, or cannot reach the maze's edge.
    """
    from scipy.spatial import cKDTree

    free = np.asarray(free, bool).reshape(-1)
    ids = np.flatnonzero(free)
    if not ids.size:
        raise MazeartError("no cell is free for a route")
    tree = cKDTree(places[ids])
    spacing, reach = _spacing(places, grid)
    nbr = _Neighbours(grid)
    edge = _edge_cells(grid, free)
    used = np.zeros(free.size, bool)
    route: list[int] = []
    if lines is not None:
        chains = []
        budget = 4 * ids.size  # samples a quarter cell apart over at most the cells, twice
        for line in lines:
            line = np.asarray(line, np.float64).reshape(-1, 2)
            if not np.isfinite(line).all():
                raise MazeartError("the route's points are finite numbers")
            far = np.abs(line - 0.5).max()
            if far > 0.5 + FRACTION_SLACK:
                x, y = line[int(np.argmax(np.abs(line - 0.5).max(axis=1)))]
                raise MazeartError(f"the route leaves the picture at ({x:.2f}, {y:.2f})")
            length = float(np.hypot(*np.diff(line, axis=0).T).sum()) if len(line) > 1 else 0.0
            budget -= int(length / (0.25 * spacing))
            if budget < 0:
                raise MazeartError("the route is longer than the maze has cells to hold it")
            cells = _cells_along(line, tree, ids, places, reach)
            if cells:
                chains.append(cells)
        if not chains:
            raise MazeartError("the route's lines lie outside the figure")
        reserved = np.zeros(free.size, bool)  # the lines' own cells: no way between cuts them
        for chain in chains:
            reserved[chain] = True
        for chain in chains:
            for cell in chain:
                if used[cell]:
                    x, y = places[cell]
                    raise MazeartError(f"the route crosses itself at ({x:.2f}, {y:.2f}) of the "
                                       "picture: a cell holds the route once")  # fmt: skip
                if route and cell not in nbr.of(route[-1]):
                    gap = nbr.bfs([route[-1]], free & ~used & ~reserved, target_cells=[cell])
                    gap = gap or nbr.bfs([route[-1]], free & ~used, target_cells=[cell])
                    if gap is None:
                        raise MazeartError(
                            "the route's cells cannot be joined without crossing"
                            " it: draw it with more room between its lines"
                        )
                    for c in gap[1:-1]:
                        used[c] = True
                        route.append(c)
                elif not route:  # the first cell: from the maze's edge
                    way = nbr.bfs([cell], free & ~reserved, goal=edge & ~reserved)
                    way = way or nbr.bfs([cell], free, goal=edge)
                    if way is None:
                        raise MazeartError("the route's start cannot reach the maze's edge")
                    for c in way[::-1][:-1]:
                        used[c] = True
                        route.append(c)
                used[cell] = True
                route.append(cell)
        last = route[-1]
        if not (edge[last] and len(route) > 1):
            way = nbr.bfs([last], free & ~used, goal=edge & ~used)
            if way is None:
                raise MazeartError("the route's end is walled in by the route: it cannot reach "
                                   "the maze's edge")  # fmt: skip
            route.extend(way[1:])
        return np.asarray(route, np.int64)
    if strokes is None or not len(strokes):
        raise MazeartError("a route needs lines or strokes")
    _, near = tree.query(strokes)
    target = np.zeros(free.size, bool)
    hit = np.hypot(*(places[ids[near]] - strokes).T) <= reach
    target[ids[near[hit]]] = True
    if not target.any():
        raise MazeartError("the solution's strokes fall outside the figure")
    route = _draw_strokes(nbr, free, edge, target, places, used)
    if drawn is not None:
        drawn["share"] = float(np.count_nonzero(target[route]) / np.count_nonzero(target))
    keep = _way_out_from(nbr, free, edge, used, route)
    if keep < max(2, len(route) // 2):  # a closed stroke (a ring) is left open at its end
        raise MazeartError("the route cannot reach the maze's edge from its end")
    for c in route[keep:]:
        used[c] = False
    del route[keep:]
    last = route[-1]
    way = [last] if edge[last] and len(route) > 1 else None
    way = way or nbr.bfs([last], free & ~used, goal=edge & ~used)
    if way is not None:
        route.extend(way[1:])
    return np.asarray(route, np.int64)


def _way_out_from(nbr: _Neighbours, free: NDArray[np.bool_], edge: NDArray[np.bool_],
                  used: NDArray[np.bool_], route: list[int]) -> int:  # fmt: skip
    """How many of the route's cells to keep so that its last can reach the maze's edge
    (through free cells off the route, those given back included): the cells off the route
    in connected parts, each part knowing whether it touches the edge, and the route given
    back a cell at a time from its end, each cell joining the parts beside it (0: none)."""
    from scipy.sparse.csgraph import connected_components

    off = free & ~used
    _, labels = connected_components(nbr.graph(off), directed=False)
    parent = list(range(int(labels.max()) + 1))
    out = np.zeros(len(parent), bool)
    out[labels[off & edge]] = True
    outside = out.tolist()

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    keep = len(route)
    while keep > 0:
        last = route[keep - 1]
        if edge[last] and keep > 1:
            return keep
        if any(off[m] and outside[root(int(labels[m]))] for m in nbr.of(last)):
            return keep
        off[last] = True  # given back: it joins the parts beside it
        r = root(int(labels[last]))
        outside[r] = outside[r] or bool(edge[last])
        for m in nbr.of(last):
            if off[m]:
                q = root(int(labels[m]))
                if q != r:
                    parent[q] = r
                    outside[r] = outside[r] or outside[q]
        keep -= 1
    return 0


def _draw_strokes(nbr: _Neighbours, free: NDArray[np.bool_], edge: NDArray[np.bool_],
                  target: NDArray[np.bool_], places: NDArray[np.float64],
                  used: NDArray[np.bool_]) -> list[int]:  # fmt: skip
    """A pen over the target cells: from the maze's edge to the stroke end nearest the
    picture's left, along each stroke while it goes on, then the shortest way (through cells
    not used) to the nearest target left; the target cells are drawn in the end."""
    cells = np.flatnonzero(target)
    ends = cells[nbr.count(target, cells) <= 1]  # a stroke's ends: one stroke cell beside
    ends = ends if ends.size else cells
    first = int(ends[np.lexsort((places[ends, 1], places[ends, 0]))[0]])
    way = nbr.bfs([int(first)], free, goal=edge)
    if way is None:
        raise MazeartError("the solution's strokes cannot reach the maze's edge")
    route = [int(c) for c in way[::-1]]
    for c in route:
        used[c] = True
    left = target.copy()
    left[route] = False
    erased = np.zeros(target.size, bool)  # stroke cells a step back took away once
    steps_back = 0
    cur = route[-1]
    heading = np.zeros(2)
    while left.any():
        step_to = [int(n) for n in nbr.of(cur) if left[n] and not used[n]]
        if step_to:  # along the stroke: straight on where it can, the stroke's end last
            ranks = [_onward(nbr, places, left, cur, heading, n) for n in step_to]
            nxt = step_to[ranks.index(min(ranks))]
            d = places[nxt] - places[cur]
            heading = d / max(float(np.hypot(*d)), 1e-12)
            path = [cur, nxt]
        else:  # to the nearest stroke left, at one of its ends where one is about as near
            dist = nbr.distances(cur, free & ~used)
            reach = np.flatnonzero(left & (dist >= 0))
            back = 1
            worth = max(10, int(target.sum()) // 5)  # a few cells cut off are let go
            while (not reach.size and int(left.sum()) >= worth and len(route) > back
                   and steps_back < STEPS_BACK):  # fmt: skip
                steps_back += 1
                for c in route[-back:]:  # walled in: step back out (twice as far each turn);
                    used[c] = False  # the strokes stepped back over are drawn again later,
                    left[c] = target[c] and not erased[c]  # once
                    erased[c] = True
                del route[-back:]
                cur = route[-1]
                dist = nbr.distances(cur, free & ~used)
                reach = np.flatnonzero(left & (dist >= 0))
                back *= 2
            if not reach.size:  # what is left is walled off by the route: leave it
                break
            mid = nbr.count(left, reach) > 1
            pick = int(reach[np.argmin(dist[reach] + JUMP_TO_END * mid)])
            path = nbr.way_to(dist, pick)
            heading = np.zeros(2)
        for c in path[1:]:
            used[c] = True
            left[c] = False
            route.append(c)
        cur = route[-1]
    return route


def _onward(nbr: _Neighbours, places: NDArray[np.float64], left: NDArray[np.bool_], cur: int,
            heading: NDArray[np.float64], n: int) -> tuple[float, int]:  # fmt: skip
    """How a pen at ``cur`` going ``heading`` ranks the next cell ``n`` of a stroke: straight
    on first, then the one with the fewest stroke cells left beside it (an end last)."""
    d = places[n] - places[cur]
    d = d / max(float(np.hypot(*d)), 1e-12)
    return (-float(d @ heading), sum(int(left[m]) for m in nbr.of(n)))


class _Neighbours:
    """A grid's neighbour table, and the shortest ways through allowed cells (the kernels'
    breadth-first search, :func:`mazeart._kernels.paths.bfs`, over the table as a maze's
    ways whose every wall is open)."""

    def __init__(self, grid: Any):
        from mazeart._jit import readonly

        self.grid = grid
        self.indptr = np.asarray(grid.indptr, np.int64)
        self.indices = np.asarray(grid.indices, np.int64)
        self.ways = readonly((self.indptr, self.indices))
        self.graph = grid.neighbour_graph  # the table between allowed cells, for scipy

    def of(self, c: int) -> NDArray[np.int64]:
        return self.indices[self.indptr[c] : self.indptr[c + 1]]

    def count(self, marked: NDArray[np.bool_], cells: NDArray[np.int64]) -> NDArray[np.int64]:
        """How many ``marked`` neighbours each of ``cells`` has."""
        counts = np.concatenate([[0], np.cumsum(marked[self.indices], dtype=np.int64)])
        return counts[self.indptr[cells + 1]] - counts[self.indptr[cells]]

    def distances(self, source: int, allowed: NDArray[np.bool_]) -> NDArray[np.int32]:
        """Steps from ``source`` to every cell reached through allowed cells (-1: none)."""
        from mazeart._kernels.paths import BLOCKED, bfs

        dist = np.where(allowed, np.int32(-1), BLOCKED).astype(np.int32)
        dist[source] = -1
        bfs(self.ways, dist, np.full(1, source, np.int64))
        dist[dist == BLOCKED] = -1
        return dist

    def way_to(self, dist: NDArray[np.int32], target: int) -> list[int]:
        """The cells from :meth:`distances`'s source to ``target`` (reached), source first."""
        from mazeart._kernels.paths import walk_back

        return walk_back(self.ways, dist, np.int64(target)).tolist()

    def bfs(
        self,
        sources: list[int],
        allowed: NDArray[np.bool_],
        *,
        goal: NDArray[np.bool_] | None = None,
        target_cells: list[int] | None = None,
    ) -> list[int] | None:
        """The shortest way from the source to the nearest goal cell (the source itself
        when it is one of ``goal``), stepping only on allowed cells between: its cells,
        source first; or None."""
        (source,) = sources
        goals = np.zeros(allowed.size, bool) if goal is None else goal.copy()
        if target_cells is not None:
            goals[target_cells] = True
        if goal is not None and goals[source]:
            return [source]
        goals[source] = False
        dist = self.distances(source, allowed | goals)
        reach = np.flatnonzero(goals & (dist >= 0))
        if not reach.size:
            return None
        return self.way_to(dist, int(reach[np.argmin(dist[reach])]))


def _edge_cells(grid: Any, free: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Free cells with a wall on the grid's edge, or towards ground that reaches it (not a
    hole in the figure: a door there would open into the maze's middle)."""
    a, b = grid.wall_cells[:, 0], grid.wall_cells[:, 1]
    ground = _labels(grid, ~free)
    rim = a[b < 0]
    outside = np.zeros(ground.max() + 1, bool)
    outside[ground[rim[~free[rim]]]] = True
    outside[0] = False
    out = np.zeros(free.size, bool)
    out[rim] = True
    bb = np.maximum(b, 0)
    out[a[(b >= 0) & outside[ground[bb]]]] = True
    out[b[(b >= 0) & outside[ground[a]]]] = True
    return out & free


def _spacing(places: NDArray[np.float64], grid: Any) -> tuple[float, float]:
    """A cell's width in fractions of the picture (the distance between neighbours), and how
    far a point of a cell may lie from its centre (its farthest corner, a little more)."""
    a, b = grid.wall_cells[:, 0], grid.wall_cells[:, 1]
    inner = np.flatnonzero(b >= 0)[:200]
    if not inner.size:  # a grid of one cell
        return 1.0, 1.0
    width = float(np.median(np.hypot(*(places[a[inner]] - places[b[inner]]).T)))
    units = float(np.median(np.hypot(*(grid.centres[a[inner]] - grid.centres[b[inner]]).T)))
    corner = max(float(np.hypot(*(grid.polygon(int(c)) - grid.centres[int(c)]).T).max())
                 for c in a[inner[:20]])  # fmt: skip
    return width, 1.05 * width * corner / max(units, 1e-12)


def _cells_along(line: NDArray[np.float64], tree: Any, ids: NDArray[np.int64],
                 places: NDArray[np.float64], reach: float) -> list[int]:  # fmt: skip
    """The cells a line passes over, in its order (points a quarter cell apart; a closed
    line ends where it began, once)."""
    pts = [line[:1]]
    for a, b in itertools.pairwise(line):
        n = max(1, int(np.ceil(np.hypot(*(b - a)) / (0.25 * reach))))
        pts.append(a + (b - a) * (np.arange(1, n + 1)[:, None] / n))
    samples = np.vstack(pts)
    dist, near = tree.query(samples)
    if (dist > reach).any():
        x, y = samples[int(np.argmax(dist))]
        raise MazeartError(f"the route leaves the figure at ({x:.2f}, {y:.2f}) of the picture")
    cells = ids[near].tolist()
    cells = [c for i, c in enumerate(cells) if i == 0 or c != cells[i - 1]]
    if len(cells) > 2 and cells[-1] == cells[0]:  # a closed line: its start is drawn once
        cells.pop()
    return cells


# ----------------------------------------------------------------------------- carving


def carve_route(
    grid: Any,
    free: NDArray[np.bool_],
    route: NDArray[np.int64],
    rng: np.random.Generator,
    *,
    decoys: float = DECOYS,
    wander: float = 0.0,
) -> tuple[NDArray[np.bool_], NDArray[np.int64]]:
    """Open the route's passages and carve the rest of each free part around it (see the
    module's text): the walls opened, one bool per wall of ``grid``, and the route the
    solution follows (``route`` with :func:`wander`'s detours, if asked).

    Parameters
    ----------
    grid : Grid
    free : (n,) ndarray of bool
    route : (L,) ndarray of int
        :func:`plan_route`'s cells.
    rng : numpy.random.Generator
    decoys : float, default :data:`DECOYS`
        The share of route cells a wrong turn may leave from (at least one for each part
        of the maze beside the route, so that every cell is reached).
    wander : float, default 0
        The share of the route's steps that go round by a cell or two beside it
        (:func:`wander`).
    """
    from mazeart._kernels.carve import route_fill
    from mazeart._kernels.parts import label_cells
    from mazeart._kernels.topology import grid_topology
    from mazeart._rng import kernel_state
    from mazeart.errors import check_number

    decoys = check_number(decoys, "decoys", low=0, high=1)
    nbr, free, route = checked = _checked(grid, free, route)
    route = _wander(checked, rng, check_number(wander, "wander", low=0, high=1))
    on = np.zeros(free.size, bool)
    on[route] = True
    beside = free & ~on
    labels = _labels(grid, beside)
    touching = [i for i, c in enumerate(route) if (labels[nbr.of(int(c))] > 0).any()]
    attach = np.zeros(free.size, bool)
    if touching and decoys > 0:  # every k-th route cell that has maze beside it
        k = max(1, min(len(touching), round(1 / decoys)))
        phase = int(rng.integers(k))
        attach[route[[i for j, i in enumerate(touching) if (j + phase) % k == 0]]] = True
    reached: set[int] = set()
    for c in np.flatnonzero(attach):
        reached |= set(labels[nbr.of(int(c))].tolist())
    for i in touching:  # each part beside the route joins it somewhere
        beside_it = set(labels[nbr.of(int(route[i]))].tolist()) - {0}
        if beside_it - reached:
            attach[route[i]] = True
            reached |= beside_it
    walkable = beside | attach
    state = kernel_state(rng)
    topo = grid_topology(grid)
    parts, n_parts = label_cells(topo, walkable)
    rooted = np.zeros(n_parts + 1, bool)
    rooted[parts[attach]] = True
    starts = []
    for p in range(1, n_parts + 1):  # a part that touches no joining cell: its own root
        if not rooted[p]:
            members = np.flatnonzero(parts == p)
            starts.append(int(members[rng.integers(members.size)]))
    links = np.zeros(grid.n_walls, np.bool_)
    route_fill(topo, walkable, route, np.asarray(starts, np.int64), state, links,
               np.zeros(1, np.int64))  # fmt: skip
    return links, route


def wander(
    grid: Any,
    free: NDArray[np.bool_],
    route: NDArray[np.int64],
    rng: np.random.Generator,
    *,
    share: float,
) -> NDArray[np.int64]:
    """The route with detours: each step from one of its cells to the next, tried with
    chance ``share`` in random turn, goes round by the fewest cells beside it that lead
    from one to the other (a cell next to both on the hex grid, two next to each other on
    the square and upsilon grids, four round the corner the two share on the triangle grid;
    at most :data:`DETOUR`), so that its straight runs bend as a maze's corridors do and
    no long wall runs beside it, while it stays where it was within two steps (on the
    square grid within half a cell of the step it replaces, all along).

    A detour's cells are free, off the route, and beside no route cell but the step's two
    ends and each other: the route keeps maze between its parts, and no detour widens into
    another.

    Parameters
    ----------
    grid : Grid
    free : (n,) ndarray of bool
    route : (L,) ndarray of int
        :func:`plan_route`'s cells.
    rng : numpy.random.Generator
    share : float
        Between 0 (the route as it is) and 1 (every step tried).

    Returns
    -------
    (M,) ndarray of int64
        The route's cells in order with the detours' between them: the same ends, each
        cell a neighbour of the one before, none twice.

    Examples
    --------
    >>> import numpy as np
    >>> from mazeart.grids import make_grid
    >>> grid = make_grid("square", rows=3, cols=6)
    >>> straight = np.arange(6, 12)  # along the middle row
    >>> bent = wander(grid, np.ones(18, bool), straight, np.random.default_rng(1), share=1)
    >>> bool(set(straight) <= set(bent.tolist())) and len(bent) > len(straight)
    True
    """
    from mazeart.errors import check_number

    share = check_number(share, "wander", low=0, high=1)
    return _wander(_checked(grid, free, route), rng, share)


_Checked = tuple["_Neighbours", NDArray[np.bool_], NDArray[np.int64]]


def _checked(grid: Any, free: NDArray[np.bool_], route: NDArray[np.int64]) -> _Checked:
    """The grid's neighbours, and ``free`` and ``route`` flat, once the route is checked:
    two or more free cells of the grid, each once, each a neighbour of the one before."""
    free = np.asarray(free, bool).reshape(-1)
    route = np.asarray(route, np.int64).reshape(-1)
    nbr = _Neighbours(grid)
    if route.size < 2 or route.min() < 0 or route.max() >= free.size:
        raise MazeartError(f"a route is two or more cells of the grid's {free.size}")
    if np.unique(route).size != route.size:
        raise MazeartError("a route holds each cell once")
    if not all(b in nbr.of(int(a)) for a, b in itertools.pairwise(route.tolist())):
        raise MazeartError("each cell of a route is a neighbour of the one before")
    if not free[route].all():
        raise MazeartError("the route runs over a cell that holds no maze")
    return nbr, free, route


def _wander(checked: _Checked, rng: np.random.Generator, share: float) -> NDArray[np.int64]:
    """:func:`wander` on a checked route (:func:`_checked`)."""
    from mazeart._kernels.carve import route_detours
    from mazeart._kernels.topology import grid_topology

    nbr, free, route = checked
    if share == 0 or route.size < 2:
        return route
    on = np.zeros(free.size, bool)
    on[route] = True
    tried = rng.permutation(np.flatnonzero(rng.random(route.size - 1) < share))
    out = np.zeros((route.size - 1, DETOUR + 1), np.int64)
    route_detours(grid_topology(nbr.grid), free & ~on, on, route, tried,
                  rng.random(tried.size), DETOUR, out)  # fmt: skip
    taken = out[:, DETOUR]
    if not taken.any():
        return route
    ahead = np.arange(DETOUR)[None, :] < taken[:, None]  # each step's detour cells
    keep = np.concatenate([np.ones((route.size - 1, 1), bool), ahead], axis=1)
    cells = np.concatenate([route[:-1, None], out[:, :DETOUR]], axis=1)[keep]
    return np.concatenate([cells, route[-1:]])


def _labels(grid: Any, keep: NDArray[np.bool_]) -> NDArray[np.int64]:
    """The connected parts of ``keep`` (1, 2, ...; 0 elsewhere): the kernels' labelling on
    the grid's topology."""
    from mazeart._kernels.parts import label_cells
    from mazeart._kernels.topology import grid_topology

    return label_cells(grid_topology(grid), np.ascontiguousarray(keep))[0].astype(np.int64)
