"""Printable PDF with fpdf2: vector walls, marked ends, an answer key, and puzzle books.

A maze page has an optional title at the top, the maze scaled to fit the
space between the margins (walls are stroked vector lines with square caps,
or filled blocks in the ``blocks`` geometry), an arrow into the entrance and
one out of the exit, a small line under the maze with the algorithm, seed and
size (enough to regenerate it), and a footer with optional text and the page
number. The answer key repeats the maze on the next page with the solution
drawn in.

:func:`write_pdf` writes one maze; :func:`write_book` writes many, puzzles
first and answer keys at the back, four to a page.

Text is set in the PDF core font Helvetica, which covers Latin-1; other
characters give a clear error rather than silently missing glyphs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from mazeart.errors import MazeartError, check_int
from mazeart.export._style import Style, _runs, solution_paths, style_from, wall_runs
from mazeart.maze import STEP, Maze

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


def _latin1(text: str, what: str) -> str:
    try:
        text.encode("latin-1")
    except UnicodeEncodeError as exc:
        bad = text[exc.start]
        raise MazeartError(
            f"the {what} holds {bad!r}, which the PDF core font cannot print (Latin-1 only)"
        ) from None
    return text


def _rgb(colour: str) -> tuple[int, int, int]:
    from PIL import ImageColor

    try:
        return ImageColor.getrgb(colour)[:3]  # type: ignore[return-value]
    except ValueError:
        raise MazeartError(f"unknown colour {colour!r}") from None


class _Document:
    """An fpdf2 document with page numbers and the maze-drawing primitive."""

    def __init__(self, size: tuple[float, float], margin: float, footer: str, title: str):
        from fpdf import FPDF

        from mazeart._version import __version__

        self.width, self.height = size
        if not 0 <= margin < min(size) / 3:
            raise MazeartError(
                f"page margin must be between 0 and a third of the page, got {margin}"
            )
        self.margin = margin
        self.footer = _latin1(footer, "footer")
        self.pdf = FPDF(unit="mm", format=size)
        self.pdf.set_auto_page_break(False)
        self.pdf.set_margins(margin, margin, margin)
        self.pdf.set_creator(f"mazeart {__version__}")
        self.pdf.set_title(_latin1(title, "title") or "mazeart maze")

    def new_page(self) -> None:
        pdf = self.pdf
        pdf.add_page()
        pdf.set_font("helvetica", size=8)
        pdf.set_text_color(90, 90, 90)
        y = self.height - self.margin / 2
        number = str(pdf.page_no())
        pdf.text(self.width - self.margin - pdf.get_string_width(number), y, number)
        if self.footer:
            pdf.text(self.margin, y, self.footer)
        pdf.set_text_color(0, 0, 0)

    def heading(self, text: str, *, size: float = 16) -> float:
        """Write a centred heading at the top; return the space it took (mm)."""
        if not text:
            return 0.0
        pdf = self.pdf
        pdf.set_font("helvetica", style="B", size=size)
        w = pdf.get_string_width(text)
        line = size * 0.3528  # points to mm
        pdf.text((self.width - w) / 2, self.margin + line, text)
        return line * 1.8

    def caption(self, text: str, x: float, y: float, w: float) -> None:
        pdf = self.pdf
        pdf.set_font("helvetica", size=6.5)
        pdf.set_text_color(110, 110, 110)
        pdf.text(x + (w - pdf.get_string_width(text)) / 2, y, text)
        pdf.set_text_color(0, 0, 0)

    def maze(
        self,
        maze: Maze,
        box: tuple[float, float, float, float],
        st: Style,
        solutions: Sequence[ArrayLike] | None,
        *,
        answer: bool,
    ) -> tuple[float, float, float, float]:
        """Draw ``maze`` centred in ``box`` (x, y, w, h); return where it went."""
        pdf = self.pdf
        bx, by, bw, bh = box
        pad = max(st.margin, 1.0)  # room for the arrows at the doors
        cell = min(bw / (maze.width + 2 * pad), bh / (maze.height + 2 * pad))
        if cell <= 0:
            raise MazeartError("the page leaves no room for the maze")
        mw, mh = maze.width * cell, maze.height * cell
        ox, oy = bx + (bw - mw) / 2, by + (bh - mh) / 2
        if maze.rooms:
            pdf.set_fill_color(*_rgb(st.room_fill))
            for room in maze.rooms:
                rows, a, b = _runs(room.mask(maze.shape))
                for r, c0, c1 in zip(rows, a, b, strict=True):
                    pdf.rect(ox + c0 * cell, oy + r * cell, (c1 - c0) * cell, cell, style="F")
        pdf.set_draw_color(*_rgb(st.wall))
        pdf.set_fill_color(*_rgb(st.wall))
        if maze.geometry == "cells":
            curves = []
            if maze.guide.outline or maze.guide.edge_labels is not None:
                from mazeart.outline import bridge_cells, clip_segments, edge_paths, outline_paths

                runs = wall_runs(maze)
                rings = list(maze.guide.outline)
                if rings:  # no clipping path here: cut the walls to the outline instead
                    bridges = bridge_cells(maze)
                    squares = [np.array([[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]], float)
                               for r, c in zip(*np.nonzero(bridges), strict=True)]  # fmt: skip
                    runs = np.vstack(
                        [clip_segments(runs, rings)] + [clip_segments(runs, [q]) for q in squares]
                    )
                    curves += outline_paths(maze)
                curves += edge_paths(maze)
            else:
                runs = wall_runs(maze)
            with pdf.local_context(
                stroke_cap_style="square", line_width=max(st.line_width * cell, 0.1)
            ):
                for x0, y0, x1, y1 in runs:
                    pdf.line(ox + x0 * cell, oy + y0 * cell, ox + x1 * cell, oy + y1 * cell)
            with pdf.local_context(
                stroke_cap_style="round",
                stroke_join_style="round",
                line_width=max(st.line_width * cell, 0.1),
            ):
                for path in curves:
                    pdf.polyline([(ox + x * cell, oy + y * cell) for x, y in path])
        else:
            blocks = maze.blocks() == 1
            rows, a, b = _runs(blocks)
            for r, c0, c1 in zip(rows, a, b, strict=True):
                x, y = ox + (c0 - 1) * cell, oy + (r - 1) * cell
                pdf.rect(x, y, (c1 - c0) * cell, cell, style="F")
        if answer:
            for pts, colour, width in solution_paths(maze, st, solutions):
                pdf.set_draw_color(*_rgb(colour))
                with pdf.local_context(
                    stroke_cap_style="round",
                    stroke_join_style="round",
                    line_width=max(width * cell, 0.15),
                ):
                    pdf.polyline([(ox + x * cell, oy + y * cell) for x, y in pts])
        self._arrows(maze, ox, oy, cell, st)
        return ox, oy, mw, mh

    def _arrows(self, maze: Maze, ox: float, oy: float, cell: float, st: Style) -> None:
        """A filled arrow pointing in at the entrance and out at the exit."""
        pdf = self.pdf
        reach = 0.5 if maze.geometry == "cells" else 1.0
        for cell_rc, side, inward, colour in (
            (maze.entrance, maze.entrance_side, True, st.entrance_color),
            (maze.exit, maze.exit_side, False, st.exit_color),
        ):
            if cell_rc is None:
                continue
            r, c = cell_rc
            cx, cy = ox + (c + 0.5) * cell, oy + (r + 0.5) * cell
            if side:
                dr, dc = STEP[side]
                # the door's outer edge, then a cell further out
                ex, ey = cx + dc * (reach + 0.15) * cell, cy + dr * (reach + 0.15) * cell
                base = 0.8 * cell
                if inward:
                    tip = (ex, ey)
                    back = (ex + dc * base, ey + dr * base)
                else:
                    back = (ex, ey)
                    tip = (ex + dc * base, ey + dr * base)
                half = 0.4 * cell
                px, py = -dr * half, dc * half  # perpendicular
                pts = [tip, (back[0] + px, back[1] + py), (back[0] - px, back[1] - py)]
                pdf.set_fill_color(*_rgb(colour))
                pdf.polyline(pts, polygon=True, style="F")
            else:  # an end inside the figure: a dot
                pdf.set_fill_color(*_rgb(colour))
                pdf.circle(cx, cy, 0.3 * cell, style="F")

    def output(self) -> bytes:
        return bytes(self.pdf.output())


def _caption(maze: Maze) -> str:
    algo = maze.meta.get("algorithm", "maze")
    seed = maze.meta.get("seed")
    bits = [str(algo)]
    if seed is not None:
        bits.append(f"seed {seed}")
    bits.append(f"{maze.width} x {maze.height}")
    if maze.meta.get("source"):
        bits.append(str(maze.meta["source"]))
    return _latin1(" / ".join(bits), "caption")


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
    solutions : sequence of (L, 2) array_like, optional
        Paths for the answer key (default: the shortest path).
    style : Style, optional
        Line width, colours and so on; ``cell_size`` and ``size`` do not
        apply (the maze is scaled to the page).

    Returns
    -------
    bytes
    """
    st = style_from({"solution": True, **options}, base=style)
    doc = _Document(page_size(page, landscape=landscape), page_margin, footer, title)
    if answer and not solution_paths(maze, st, solutions):
        raise MazeartError("an answer key needs an entrance and an exit (or use --no-answer)")
    for is_answer in (False, True) if answer else (False,):
        doc.new_page()
        heading = (f"Answer: {title}" if title else "Answer") if is_answer else title
        top = doc.margin + doc.heading(_latin1(heading, "title"))
        box = (doc.margin, top, doc.width - 2 * doc.margin, doc.height - top - 1.6 * doc.margin)
        x, y, w, h = doc.maze(maze, box, st, solutions, answer=is_answer)
        doc.caption(_caption(maze), x, y + h + 0.35 * doc.margin + 2, w)
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
    progress: Callable[[int], None] | None = None,
    style: Style | None = None,
    **options: Any,
) -> None:
    """A puzzle book: one maze per page, answer keys four to a page at the back.

    Parameters
    ----------
    mazes : sequence of Maze, or callable
        The mazes, or a function ``i -> Maze`` called for ``i`` in ``range(count)``
        (so a long book never holds more than the drawing it is making).
    fh : binary file object
    count : int, optional
        Number of mazes when ``mazes`` is a callable.
    page, landscape, page_margin, footer, style, options
        As for :func:`to_pdf_bytes`.
    title : str
        Book title; puzzle ``i`` is headed ``"<title> #i"`` (or ``"Maze i"``).
    answer : bool, default True
        Add the answer keys.
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
    doc = _Document(page_size(page, landscape=landscape), page_margin, footer, title)
    title = _latin1(title, "title")
    keys: list[tuple[Maze, str, int]] = []
    for i in range(n):
        maze = make(i)
        name = f"{title} #{i + 1}" if title else f"Maze {i + 1}"
        doc.new_page()
        top = doc.margin + doc.heading(name)
        box = (doc.margin, top, doc.width - 2 * doc.margin, doc.height - top - 1.6 * doc.margin)
        x, y, w, h = doc.maze(maze, box, st, None, answer=False)
        doc.caption(_caption(maze), x, y + h + 0.35 * doc.margin + 2, w)
        if answer:
            if maze.entrance is None or maze.exit is None:
                raise MazeartError(f"{name} has no entrance or exit for its answer key")
            keys.append((maze, name, doc.pdf.page_no()))
        if progress is not None:
            progress(i + 1)
    per_page = 4
    for start in range(0, len(keys), per_page):
        doc.new_page()
        top = doc.margin + doc.heading("Answers", size=14)
        cw = (doc.width - 2 * doc.margin) / 2
        ch = (doc.height - top - 1.6 * doc.margin) / 2
        for j, (maze, name, page_no) in enumerate(keys[start : start + per_page]):
            bx = doc.margin + (j % 2) * cw
            by = top + (j // 2) * ch
            x, y, w, h = doc.maze(maze, (bx, by + 5, cw, ch - 9), st, None, answer=True)
            doc.caption(f"{name} (page {page_no})", x, by + 4, w)
            doc.caption(_caption(maze), x, y + h + 4, w)
    fh.write(doc.output())
