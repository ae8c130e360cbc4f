"""Printable PDF: vector walls, marked ends, an answer key, and puzzle books.

A maze page has an optional title at the top, the maze scaled to fit the
space between the margins (walls are stroked vector lines with square caps,
or filled blocks in the ``blocks`` geometry), an arrow into the entrance and
one out of the exit, a small line under the maze with the algorithm, seed and
size (enough to regenerate it), under it the tags' legend when tags are drawn
(a dot in each kind's colour and its name), and a footer with optional text and
the page number. The answer key repeats the maze on the next page with the
solution drawn in.

:func:`write_pdf` writes one maze; :func:`write_book` writes many, puzzles
first and answer keys at the back, four to a page.

The file is written by mazeart's own small PDF writer
(:mod:`mazeart.export._pdfdoc`). The drawing is the scene every renderer shares
(:mod:`mazeart.export.scene`), written straight into the page's content stream as
compact path operators in maze units under one transformation, so a million walls
cost a few megabytes and a second, not a call each. Text is set in DejaVu Sans,
shipped with the package (``mazeart/fonts``, Bitstream Vera licence) and embedded
as a subset (fontTools) in every PDF, as print-on-demand services require, with a
ToUnicode map so the words can be searched and copied; a character the font lacks
is a one-line error rather than a missing glyph. With ``SOURCE_DATE_EPOCH`` set, the
same maze gives the same bytes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from importlib.resources import files
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mazeart.errors import MazeartError, check_int, check_number
from mazeart.export._numbers import pdf_path
from mazeart.export._style import Style, style_from, tag_legend
from mazeart.export.scene import Layer, Lines, Scene, build_scene
from mazeart.maze import Maze

__all__ = ["PAGE_SIZES", "page_size", "to_pdf_bytes", "write_book", "write_pdf"]

PAGE_SIZES: dict[str, tuple[float, float]] = {
    "a3": (297.0, 420.0),
    "a4": (210.0, 297.0),
    "a5": (148.0, 210.0),
    "letter": (215.9, 279.4),
    "legal": (215.9, 355.6),
}
"""Named page sizes, portrait ``(width, height)`` in millimetres."""

_CUSTOM = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*(mm|cm|in)?\s*$", re.I)
_UNIT_MM = {"mm": 1.0, "cm": 10.0, "in": 25.4}


def page_size(page: str, *, landscape: bool = False) -> tuple[float, float]:
    """Page ``(width, height)`` in mm from a name (``A4``, ``letter``, ...) or ``WxH[mm|cm|in]``.

    Raises
    ------
    ValueError
        Naming the valid choices.
    """
    key = page.strip().lower()
    if key in PAGE_SIZES:
        w, h = PAGE_SIZES[key]
    else:
        m = _CUSTOM.match(page)
        if not m:
            names = ", ".join(k.upper() if k[0] == "a" else k for k in PAGE_SIZES)
            raise MazeartError(
                f"page must be one of {names} or WIDTHxHEIGHT[mm|cm|in], got {page!r}"
            )
        unit = _UNIT_MM[(m.group(3) or "mm").lower()]
        w, h = float(m.group(1)) * unit, float(m.group(2)) * unit
        if not (50 <= w <= 2000 and 50 <= h <= 2000):
            raise MazeartError(f"page sides must be between 50 and 2000 mm, got {w:g} x {h:g} mm")
    return (h, w) if landscape else (w, h)


_FONTS = files("mazeart").joinpath("fonts")
_FONT_FILES = {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf"}


@functools.cache
def _glyphs() -> frozenset[int]:
    """Code points the shipped font can print (its cmap, read by fontTools)."""
    from mazeart.export._pdfdoc import font_file

    return frozenset(font_file(_FONTS.joinpath(_FONT_FILES["regular"])).cmap)


def _printable(text: str, what: str) -> str:
    missing = [ch for ch in text if ord(ch) not in _glyphs() and ch.isprintable()]
    if missing:
        raise MazeartError(
            f"the {what} holds {missing[0]!r}, which the PDF font (DejaVu Sans) has no glyph for"
        )
    return " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())


def _numbers(values: NDArray[np.float64]) -> list[str]:
    """Numbers as short text: integers plain, others to four places."""
    if np.all(values == np.round(values)):
        return list(map(str, values.astype(np.int64).tolist()))
    return [f"{v:.4f}".rstrip("0").rstrip(".") for v in np.round(values, 4).tolist()]


def _path(lines: Lines, *, close: bool = False) -> str:
    """PDF path operators for polylines (``m`` to each start, ``l`` on, ``h`` to close;
    :func:`mazeart.export._numbers.pdf_path`)."""
    return b"".join(pdf_path(lines, close=close)).decode("ascii")


def _colour(colour: str, op: str) -> str:
    r, g, b = _rgb(colour)
    return f"{r / 255:.3f} {g / 255:.3f} {b / 255:.3f} {op}"


class _Drawing:
    """A scene's layers as content-stream operators in maze units, written out once.

    The legend is text, set by :meth:`_Document.legend` under the caption instead.
    """

    def __init__(self, scene: Scene) -> None:
        self.size = (scene.width, scene.height)
        self.layers = [
            (layer.name, "\n".join(_layer_ops(layer)))
            for layer in scene.layers
            if layer.name != "legend"
        ]

    def ops(self, *, without: tuple[str, ...] = ()) -> list[str]:
        return [text for name, text in self.layers if name not in without and text]


def _layer_ops(layer: Layer) -> list[str]:
    """Content-stream operators of one layer, in maze units."""
    out = []
    kappa = 0.5523
    for fill in layer.fills:
        rects = " ".join(
            f"{a} {b} {c} {d} re"
            for a, b, c, d in zip(
                *(_numbers(v) for v in (fill.rects[:, 0], fill.rects[:, 1],
                  fill.rects[:, 2] - fill.rects[:, 0], fill.rects[:, 3] - fill.rects[:, 1])),
                strict=True,
            )
        )  # fmt: skip
        out += [_colour(fill.colour, "rg"), rects, _path(fill.rings, close=True), "f*"]
    for st in layer.strokes:
        ends = "2 J 0 j" if st.cap == "square" else "1 J 1 j"  # square caps, miters / round
        out += [_colour(st.colour, "RG"), f"{st.width:.4f} w {ends}", _path(st.lines), "S"]
    for dot in layer.dots:
        x, y, r, k = dot.x, dot.y, dot.radius, kappa * dot.radius
        out += [
            _colour(dot.colour, "rg"),
            f"{x + r:.4f} {y:.4f} m {x + r:.4f} {y + k:.4f} {x + k:.4f} {y + r:.4f} "
            f"{x:.4f} {y + r:.4f} c {x - k:.4f} {y + r:.4f} {x - r:.4f} {y + k:.4f} "
            f"{x - r:.4f} {y:.4f} c {x - r:.4f} {y - k:.4f} {x - k:.4f} {y - r:.4f} "
            f"{x:.4f} {y - r:.4f} c {x + k:.4f} {y - r:.4f} {x + r:.4f} {y - k:.4f} "
            f"{x + r:.4f} {y:.4f} c f",
        ]
    return [op for op in out if op]


def _rgb(colour: str) -> tuple[int, int, int]:
    from PIL import ImageColor

    try:
        return ImageColor.getrgb(colour)[:3]  # type: ignore[return-value]
    except ValueError:
        raise MazeartError(f"unknown colour {colour!r}") from None


def _source_date() -> Any:
    """The creation date ``SOURCE_DATE_EPOCH`` asks for (the reproducible-builds convention:
    seconds since 1970, UTC), or None to stamp the time of writing."""
    import os
    from datetime import UTC, datetime

    raw = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not raw.isdigit():
        return None
    try:
        return datetime.fromtimestamp(int(raw), UTC)
    except (OverflowError, OSError, ValueError):
        return None


class _Document:
    """A PDF (:class:`~mazeart.export._pdfdoc.PdfDoc`) with page numbers and the maze drawing."""

    def __init__(
        self, size: tuple[float, float], margin: float, footer: str, title: str, bleed: float = 0.0
    ):
        from mazeart._version import __version__
        from mazeart.export._pdfdoc import PdfDoc

        self.width, self.height = size
        self.bleed = check_number(bleed, "bleed", low=0, high=10)
        if not 0 <= margin < min(size) / 3:
            raise MazeartError(
                f"page margin must be between 0 and a third of the page, got {margin}"
            )
        self.margin = margin
        self.footer = _printable(footer, "footer")
        self.pdf = PdfDoc(
            title=_printable(title, "title") or "mazeart maze",
            creator=f"mazeart {__version__}",
            producer=f"mazeart {__version__} (mazeart.export._pdfdoc)",
            created=_source_date(),  # reproducible builds: the same input, the same bytes
            fonts={style: _FONTS.joinpath(name) for style, name in _FONT_FILES.items()},
        )

    def new_page(self, *, number: bool = True) -> None:
        pdf = self.pdf
        pdf.add_page(self.width, self.height, bleed=self.bleed)
        if not number:
            return
        pdf.set_font("regular", 8)
        pdf.set_text_color(90, 90, 90)
        y = self.height - self.margin / 2
        shown = str(pdf.page_count)
        pdf.text(self.width - self.margin - pdf.string_width(shown), y, shown)
        if self.footer:
            pdf.text(self.margin, y, self.footer)
        pdf.set_text_color(0, 0, 0)

    def heading(self, text: str, *, size: float = 16) -> float:
        """Write a centred heading at the top; return the space it took (mm)."""
        if not text:
            return 0.0
        pdf = self.pdf
        room = self.width - 2 * self.margin
        pdf.set_font("bold", size)
        w = pdf.string_width(text)
        if w > room:  # a long title: smaller type, down to 7 pt, then cut with an ellipsis
            size = max(7.0, size * room / w)
            pdf.set_font("bold", size)
            while pdf.string_width(text) > room + 1e-6 and len(text) > 1:  # 1e-6: rounding
                text = text[: max(1, int(len(text) * room / pdf.string_width(text)) - 1)]
                text = text.rstrip() + "…"
            w = pdf.string_width(text)
        line = size * 0.3528  # points to mm
        pdf.text((self.width - w) / 2, self.margin + line, text)
        return line * 1.8

    def caption(self, text: str, x: float, y: float, w: float) -> None:
        pdf = self.pdf
        pdf.set_font("regular", 6.5)
        pdf.set_text_color(110, 110, 110)
        pdf.text(x + (w - pdf.string_width(text)) / 2, y, text)
        pdf.set_text_color(0, 0, 0)

    def legend(self, maze: Maze, style: Style, x: float, y: float, w: float) -> None:
        """The tags' legend centred under the maze's caption (``y``: the caption's baseline)."""
        if not (style.tags and maze.tags):
            return
        pdf = self.pdf
        pdf.set_font("regular", 7)
        entries = [(_legend_name(kind), colour) for kind, colour in tag_legend(maze.tags.values())]
        r, gap, between = 0.9, 1.0, 3.5  # mm
        total = sum(2 * r + gap + pdf.string_width(name) for name, _ in entries)
        total += between * (len(entries) - 1)
        at = max(self.margin, x + (w - total) / 2)
        base = y + 3.6
        pdf.set_text_color(51, 51, 51)
        for name, colour in entries:
            pdf.set_fill_color(*_rgb(colour))
            pdf.ellipse(at, base - 0.85 - r, 2 * r, 2 * r)
            at += 2 * r + gap
            pdf.text(at, base, name)
            at += pdf.string_width(name) + between
        pdf.set_text_color(0, 0, 0)

    def maze(
        self,
        size: tuple[float, float],
        ops: list[str],
        box: tuple[float, float, float, float],
        pad: float,
        *,
        turn: bool = False,
    ) -> tuple[float, float, float, float]:
        """Draw ``ops`` (of a scene ``size`` wide and high) centred in ``box`` (x, y, w, h),
        with ``turn`` turned a quarter when that prints its cells :data:`TURN_GAIN` times
        larger (a wide word on a book's tall page); return where, on the page."""
        from mazeart.export._pdfdoc import PT_PER_MM as k

        bx, by, bw, bh = box
        width, height = size
        pad = max(pad, 1.0)  # room for the arrows at the doors
        padded = (width + 2 * pad, height + 2 * pad)
        cell, turned = (
            fit_box(padded, (bw, bh)) if turn else (min(bw / padded[0], bh / padded[1]), False)
        )
        if cell <= 0:
            raise MazeartError("the page leaves no room for the maze")
        mw, mh = (height * cell, width * cell) if turned else (width * cell, height * cell)
        ox, oy = bx + (bw - mw) / 2, by + (bh - mh) / 2
        top = (self.height - oy) * k
        c = cell * k
        if turned:  # the maze's top along the page's left edge, as a book turns a wide table
            head = f"q 0 {c:.5f} {c:.5f} 0 {ox * k:.4f} {top - mh * k:.4f} cm"
        else:  # one transformation: maze units, y down, the maze's corner at (ox, oy)
            head = f"q {c:.5f} 0 0 {-c:.5f} {ox * k:.4f} {top:.4f} cm"
        self.pdf.raw(head, *ops, "Q")  # big mazes: zlib's fastest level, see _pdfdoc
        return ox, oy, mw, mh

    def output(self) -> bytes:
        return self.pdf.output()


TURN_GAIN = 1.25
"""How much larger a quarter turn must print a maze's cells for the page to turn it."""


def fit_box(size: tuple[float, float], box: tuple[float, float]) -> tuple[float, bool]:
    """The scale that fits ``size`` (w, h) in ``box`` (w, h), and whether it is turned a
    quarter for it (when that is :data:`TURN_GAIN` times larger).

    >>> fit_box((100, 20), (120, 200))  # a wide maze on a tall page: turned
    (2.0, True)
    >>> fit_box((100, 80), (120, 200))
    (1.2, False)
    """
    (w, h), (bw, bh) = size, box
    straight = min(bw / w, bh / h)
    turned = min(bw / h, bh / w)
    if turned > TURN_GAIN * straight:
        return turned, True
    return straight, False


def _legend_name(kind: str) -> str:
    """A tag kind as the PDF font sets it: control characters as spaces, others it lacks as ?."""
    text = " ".join("".join(ch if ch.isprintable() else " " for ch in kind).split())
    return "".join(ch if ord(ch) in _glyphs() else "?" for ch in text)


def _caption(maze: Maze) -> str:
    algo = maze.meta.get("algorithm", "maze")
    seed = maze.meta.get("seed")
    bits = [str(algo)]
    if seed is not None:
        bits.append(f"seed {seed}")
    if not maze.is_square:
        bits.append(f"{maze.kind} grid, {maze.n_cells} cells")
    else:
        bits.append(f"{maze.width} x {maze.height}")
    if maze.meta.get("source"):
        bits.append(str(maze.meta["source"]))
    return _printable(" / ".join(bits), "caption")


def to_pdf_bytes(
    maze: Maze,
    *,
    page: str = "A4",
    landscape: bool = False,
    page_margin: float = 15.0,
    title: str = "",
    footer: str = "",
    answer: bool = True,
    solutions: Sequence[ArrayLike] | None = None,
    style: Style | None = None,
    **options: Any,
) -> bytes:
    """One maze as a PDF: the puzzle, then (by default) its answer key.

    Parameters
    ----------
    maze : Maze
        A square maze, or a maze on any grid (hexagons, triangles, rings, ...).
    page : str, default 'A4'
        ``A3``, ``A4``, ``A5``, ``letter``, ``legal`` or ``WIDTHxHEIGHT`` with
        ``mm`` (default), ``cm`` or ``in``.
    landscape : bool, default False
    page_margin : float, default 15
        Margin in millimetres.
    title, footer : str
        Text at the top of the page and at the bottom left.
    answer : bool, default True
        Add the answer-key page.
    solutions : sequence of array_like, optional
        Paths for the answer key (default: the shortest path): ``(L, 2)``
        cells of a Maze, ``(L,)`` cell ids of a Maze.
    style : Style, optional
        Line width, colours and so on; ``cell_size`` and ``size`` do not
        apply (the maze is scaled to the page).

    Returns
    -------
    bytes
    """
    st = style_from({"solution": answer, **options}, base=style)
    doc = _Document(page_size(page, landscape=landscape), page_margin, footer, title)
    # a printer draws lines in any order: chained, with no pen order (the SVG's, for plotters)
    scene = build_scene(maze, st, solutions=solutions if answer else None, arrows=True,
                        ordered=False, chained=True)  # fmt: skip
    if answer and scene.layer("solution") is None:
        raise MazeartError("an answer key needs an entrance and an exit (or use --no-answer)")
    drawing = _Drawing(scene)
    for is_answer in (False, True) if answer else (False,):
        doc.new_page()
        heading = (f"Answer: {title}" if title else "Answer") if is_answer else title
        top = doc.margin + doc.heading(_printable(heading, "title"))
        box = (doc.margin, top, doc.width - 2 * doc.margin, doc.height - top - 1.6 * doc.margin)
        ops = drawing.ops(without=() if is_answer else ("solution",))
        x, y, w, h = doc.maze(drawing.size, ops, box, st.margin)
        doc.caption(_caption(maze), x, y + h + 0.35 * doc.margin + 2, w)
        doc.legend(maze, st, x, y + h + 0.35 * doc.margin + 2, w)
    return doc.output()


def write_pdf(maze: Maze, fh: Any, **options: Any) -> None:
    """Write :func:`to_pdf_bytes` output to a binary file object."""
    fh.write(to_pdf_bytes(maze, **options))


def write_book(
    mazes: Sequence[Maze] | Callable[[int], Maze],
    fh: Any,
    *,
    count: int | None = None,
    page: str = "A4",
    landscape: bool = False,
    page_margin: float = 15.0,
    title: str = "",
    footer: str = "",
    answer: bool = True,
    cover: Maze | None = None,
    contents: bool = True,
    sources: Sequence[str] = (),
    bleed: float = 0.0,
    progress: Callable[[int], None] | None = None,
    style: Style | None = None,
    **options: Any,
) -> None:
    """A puzzle book: a cover, the contents, one maze per page, answer keys four to a page.

    Parameters
    ----------
    mazes : sequence of Maze, or callable
        The mazes, or a function ``i -> maze`` called for ``i`` in ``range(count)``
        (made one at a time; only their answer keys' drawings wait for the back pages).
    fh : binary file object
    count : int, optional
        Number of mazes when ``mazes`` is a callable.
    page, landscape, page_margin, footer, style, options
        As for :func:`to_pdf_bytes`; ``page`` is the trimmed page.
    title : str
        Book title, on the cover; puzzle ``i`` is headed ``"<title> #i"`` (or ``"Maze i"``).
    answer : bool, default True
        Add the answer keys.
    cover : Maze, optional
        The maze drawn on the cover (page 1, unnumbered) under the title; no
        cover without one.
    contents : bool, default True
        A contents page: a line per puzzle (its name, picture, size and page)
        and one for the answers.
    sources : sequence of str
        Names of the pictures the puzzles were made from, in turn (for the contents).
    bleed : float, default 0
        Millimetres of bleed on the top, the bottom and the outer edge of
        every page (3.175, an eighth of an inch, is what print-on-demand
        services ask for); each page's ``/TrimBox`` is ``page``.
    progress : callable, optional
        Called with the number of mazes done after each one.
    """
    if callable(mazes):
        make, n = mazes, check_int(count, "count")
    else:
        seq = list(mazes)
        if not seq:
            raise MazeartError("a book needs at least one maze")
        make, n = seq.__getitem__, len(seq)
    st = style_from({"solution": True, **options}, base=style)
    doc = _Document(page_size(page, landscape=landscape), page_margin, footer, title, bleed)
    title = _printable(title, "title")
    names = [_printable(name, "source name") for name in sources]
    if cover is not None:
        _cover(doc, cover, st, title, n, answer)
    contents_pages = _contents_pages(doc, n + answer) if contents else 0
    first_contents = doc.pdf.page_count + 1
    for _ in range(contents_pages):
        doc.new_page()
    lines: list[tuple[str, str, int]] = []
    keys: list[tuple[Maze, _Drawing, str, int]] = []
    for i in range(n):
        maze = make(i)
        name = f"{title} #{i + 1}" if title else f"Maze {i + 1}"
        doc.new_page()
        top = doc.margin + doc.heading(name)
        box = (doc.margin, top, doc.width - 2 * doc.margin, doc.height - top - 1.6 * doc.margin)
        scene = build_scene(maze, st, arrows=True, ordered=False, chained=True)
        drawing = _Drawing(scene)
        ops = drawing.ops(without=("solution",))
        x, y, w, h = doc.maze(drawing.size, ops, box, st.margin, turn=True)
        doc.caption(_caption(maze), x, y + h + 0.35 * doc.margin + 2, w)
        doc.legend(maze, st, x, y + h + 0.35 * doc.margin + 2, w)
        size = f"{maze.width} x {maze.height}" if maze.is_square else f"{maze.kind} grid"
        about = [names[i % len(names)]] if names else []
        lines.append((name, " / ".join([*about, f"{size}, {maze.n_cells:,} cells"]),
                      doc.pdf.page_count))  # fmt: skip
        if answer:
            if scene.layer("solution") is None:
                raise MazeartError(f"{name} has no entrance or exit for its answer key")
            keys.append((maze, drawing, name, doc.pdf.page_count))
        if progress is not None:
            progress(i + 1)
    if answer:
        lines.append(("Answers", "", doc.pdf.page_count + 1))
    per_page = 4
    for start in range(0, len(keys), per_page):
        doc.new_page()
        top = doc.margin + doc.heading("Answers", size=14)
        cw = (doc.width - 2 * doc.margin) / 2
        ch = (doc.height - top - 1.6 * doc.margin) / 2
        for j, (maze, drawing, name, page_no) in enumerate(keys[start : start + per_page]):
            bx = doc.margin + (j % 2) * cw
            by = top + (j // 2) * ch
            key = (bx, by + 5, cw, ch - 9)
            x, y, w, h = doc.maze(drawing.size, drawing.ops(), key, st.margin, turn=True)
            doc.caption(f"{name} (page {page_no})", x, by + 4, w)
            doc.caption(_caption(maze), x, y + h + 4, w)
    if contents_pages:
        _write_contents(doc, first_contents, contents_pages, lines)
    fh.write(doc.output())


_CONTENTS_LINE = 6.0
"""Millimetres between the contents' lines."""


def _contents_top(doc: _Document) -> float:
    return doc.margin + 16 * 0.3528 * 1.8 + 4  # under a 16 pt heading (see _Document.heading)


def _contents_per_page(doc: _Document) -> int:
    """Contents lines a page holds under its heading."""
    return max(1, int((doc.height - _contents_top(doc) - 1.6 * doc.margin) // _CONTENTS_LINE))


def _contents_pages(doc: _Document, lines: int) -> int:
    """Pages the contents take: a line per puzzle and one for the answers."""
    return -(-lines // _contents_per_page(doc))


def _write_contents(
    doc: _Document, first: int, pages: int, lines: Sequence[tuple[str, str, int]]
) -> None:
    """The contents on the pages kept for them: name, what it is, dot leaders, the page."""
    pdf = doc.pdf
    per_page = _contents_per_page(doc)
    left, right = doc.margin, doc.width - doc.margin
    for k in range(pages):
        pdf.goto(first + k)
        doc.heading("Contents" if k == 0 else "Contents (continued)")
        for j, (name, about, number) in enumerate(lines[k * per_page : (k + 1) * per_page]):
            y = _contents_top(doc) + (j + 0.7) * _CONTENTS_LINE
            pdf.set_font("bold", 10)
            pdf.text(left, y, name)
            at = left + pdf.string_width(name) + 3
            pdf.set_font("regular", 10)
            page_no = str(number)
            end = right - pdf.string_width(page_no)
            if about:
                pdf.set_font("regular", 8.5)
                pdf.set_text_color(100, 100, 100)
                about = _fitted(pdf, about, end - at - 8)
                pdf.text(at, y, about)
                at += pdf.string_width(about) + 2
                pdf.set_font("regular", 10)
            dots = int((end - 2 - at) // pdf.string_width(" ."))
            if dots > 0:
                pdf.set_text_color(150, 150, 150)
                pdf.text(end - 2 - dots * pdf.string_width(" ."), y, " ." * dots)
            pdf.set_text_color(0, 0, 0)
            pdf.text(end, y, page_no)


def _fitted(pdf: Any, text: str, room: float) -> str:
    """``text`` cut with an ellipsis to ``room`` mm in the current font."""
    if pdf.string_width(text) <= room:
        return text
    while len(text) > 1 and pdf.string_width(text + "…") > room:
        text = text[:-1]
    return text.rstrip() + "…"


def _cover(doc: _Document, maze: Maze, style: Style, title: str, n: int, answer: bool) -> None:
    """The cover: the title, what the book holds, and a maze that is not one of its puzzles."""
    from dataclasses import replace

    doc.new_page(number=False)
    pdf = doc.pdf
    top = doc.margin + 0.12 * doc.height
    size = 30.0
    pdf.set_font("bold", size)
    room = doc.width - 2 * doc.margin
    text = title or "Mazes"
    if pdf.string_width(text) > room:
        size = max(12.0, size * room / pdf.string_width(text))
        pdf.set_font("bold", size)
        text = _fitted(pdf, text, room)
    pdf.text((doc.width - pdf.string_width(text)) / 2, top, text)
    pdf.set_font("regular", 12)
    pdf.set_text_color(90, 90, 90)
    what = f"{n} maze{'s' * (n != 1)}" + (", answers at the back" if answer else "")
    pdf.text((doc.width - pdf.string_width(what)) / 2, top + 10, what)
    pdf.set_text_color(0, 0, 0)
    plain = replace(style, solution=False, tags=False, markers=False)
    drawing = _Drawing(build_scene(maze, plain, ordered=False, chained=True))
    box_top = top + 22
    box = (doc.margin, box_top, room, doc.height - box_top - 1.6 * doc.margin)
    doc.maze(drawing.size, drawing.ops(), box, style.margin)
