"""Polylines as text, a piece at a time: the SVG's path data and the PDF's path operators.

A drawing of millions of walls is millions of numbers; formatting them one f-string at
a time is what a large SVG or PDF used to spend its time on. Here a kernel writes the
bytes of many lines at once into a buffer, and the writers stream the pieces to the
file. Every number is rounded to four places and written as short as it goes: a whole
number without a point, else its trailing zeros dropped (``12``, ``12.5``, ``-0.125``).

>>> import numpy as np
>>> from mazeart.export.scene import Lines
>>> lines = Lines(np.array([[0, 0], [2, 0], [2, 1.5], [3, 2.25]]), np.array([0, 4]))
>>> b"".join(svg_path(lines, 2.0)).decode()
'M0 0H4V3L6 4.5'
>>> b"".join(pdf_path(lines, close=True)).decode()
'0 0 m 2 0 l 2 1.5 l 3 2.25 l h'
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from mazeart._jit import njit

__all__ = ["number_text", "pdf_path", "svg_path"]

PIECE = 1 << 16
"""Points a piece of text holds at most (a piece is written to the file, then the next)."""

_WIDE = 56
"""Bytes a point takes at most: an operator, two numbers of up to 25 characters, spaces."""


def _work(points: Any, starts: Any, first: int, last: int, *rest: Any) -> int:
    """A piece's work as Python: eight a point (two numbers of a few digits each), so that
    only a small drawing's text is written by Python rather than loading the compiler."""
    return 8 * int(starts[last] - starts[first])


@njit(cache=True)
def _put(out, at, v):  # type: ignore[no-untyped-def]
    """Write ``v`` rounded to four places at ``out[at:]``, as short as it goes; returns
    where the next byte goes."""
    q = np.int64(np.rint(v * 10000.0))
    if q < 0:
        out[at] = 45  # -
        at += 1
        q = -q
    whole = q // 10000
    part = q - whole * 10000
    digits = 1
    scale = np.int64(10)
    while scale <= whole:
        digits += 1
        scale *= 10
    for i in range(digits - 1, -1, -1):
        out[at + i] = 48 + whole % 10
        whole //= 10
    at += digits
    if part:
        out[at] = 46  # .
        at += 1
        unit = 1000
        while part:
            out[at] = 48 + part // unit
            at += 1
            part %= unit
            unit //= 10
    return at


@njit(cache=True, work=_work)
def _svg_piece(points, starts, first, last, scale, close, out):  # type: ignore[no-untyped-def]
    """Path data of lines ``first`` to ``last - 1`` into ``out``: ``M`` to each start,
    then ``H`` or ``V`` along an axis, else ``L`` (``Z`` to close). Returns its length."""
    at = 0
    for i in range(first, last):
        a = starts[i]
        x0 = points[a, 0] * scale
        y0 = points[a, 1] * scale
        out[at] = 77  # M
        at = _put(out, at + 1, x0)
        out[at] = 32
        at = _put(out, at + 1, y0)
        for j in range(a + 1, starts[i + 1]):
            x1 = points[j, 0] * scale
            y1 = points[j, 1] * scale
            if y0 == y1:
                out[at] = 72  # H
                at = _put(out, at + 1, x1)
            elif x0 == x1:
                out[at] = 86  # V
                at = _put(out, at + 1, y1)
            else:
                out[at] = 76  # L
                at = _put(out, at + 1, x1)
                out[at] = 32
                at = _put(out, at + 1, y1)
            x0 = x1
            y0 = y1
        if close:
            out[at] = 90  # Z
            at += 1
    return at


@njit(cache=True, work=_work)
def _pdf_piece(points, starts, first, last, close, out):  # type: ignore[no-untyped-def]
    """PDF path operators of lines ``first`` to ``last - 1`` into ``out``: ``x y m`` to each
    start, ``x y l`` on (`` h`` to close), one space apart. Returns its length."""
    at = 0
    for i in range(first, last):
        for j in range(starts[i], starts[i + 1]):
            if at:
                out[at] = 32
                at += 1
            at = _put(out, at, points[j, 0])
            out[at] = 32
            at = _put(out, at + 1, points[j, 1])
            out[at] = 32
            out[at + 1] = 109 if j == starts[i] else 108  # m, l
            at += 2
        if close:
            out[at] = 32
            out[at + 1] = 104  # h
            at += 2
    return at


def _pieces(starts: Any, write: Any) -> Iterator[bytes]:
    """The text of the lines ``starts`` bounds, in pieces of about :data:`PIECE` points,
    ``write(first, last, out)`` filling a buffer with that of lines ``first`` to ``last - 1``."""
    count = len(starts) - 1
    if count <= 0:
        return
    out = np.empty(0, np.uint8)
    first = 0
    while first < count:  # as many lines as fit PIECE points (one at least)
        last = int(np.searchsorted(starts, starts[first] + PIECE, side="right")) - 1
        last = min(count, max(last, first + 1))
        need = _WIDE * int(starts[last] - starts[first]) + 2 * (last - first) + 1
        if out.size < need:
            out = np.empty(need, np.uint8)
        size = write(first, last, out)
        yield out[:size].tobytes()
        first = last


def svg_path(lines: Any, scale: float, *, close: bool = False) -> Iterator[bytes]:
    """SVG path data of ``lines`` (:class:`~mazeart.export.scene.Lines`) times ``scale``,
    in pieces."""
    points = np.ascontiguousarray(lines.points, np.float64)
    starts = np.ascontiguousarray(lines.starts, np.int64)
    yield from _pieces(
        starts, lambda a, b, out: _svg_piece(points, starts, a, b, float(scale), close, out)
    )


def pdf_path(lines: Any, *, close: bool = False) -> Iterator[bytes]:
    """PDF path operators of ``lines``, in pieces (each after the first starts with a
    space)."""
    points = np.ascontiguousarray(lines.points, np.float64)
    starts = np.ascontiguousarray(lines.starts, np.int64)
    pieces = _pieces(starts, lambda a, b, out: _pdf_piece(points, starts, a, b, close, out))
    for i, piece in enumerate(pieces):
        if i:
            yield b" "
        yield piece


def number_text(value: float) -> str:
    """One number as the pieces write it (four places, as short as it goes).

    >>> number_text(2.50004), number_text(-0.00001), number_text(1e6)
    ('2.5', '0', '1000000')
    """
    out = np.empty(_WIDE, np.uint8)
    return out[: _put(out, 0, float(value))].tobytes().decode("ascii")
