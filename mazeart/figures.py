"""Figures without a picture: a word set in the shipped font, or a shape.

A source ``"text:HELLO"`` is the word in DejaVu Sans Bold (``font=`` another TrueType
file), black on white, and ``"circle:40"``, ``"triangle:40"``, ``"hexagon:40"`` or
``"heart:40"`` the shape, 40 cells across. Each becomes a picture that the rest of the
pipeline reads as it reads any other, on every grid. A word's letters are separate
islands, joined by the connectivity pass's bridges; unless ``cells`` is given, a word is
sized so that its letters' strokes are :data:`STROKE_CELLS` cells wide.

>>> picture, cells = figure_source("circle:40")
>>> picture.size, cells
((800, 800), 40)
>>> figure_source("horse.png") is None
True
"""

from __future__ import annotations

import math
import os
import re
import unicodedata
from importlib.resources import files
from io import BytesIO
from pathlib import Path
from typing import Any

import numpy as np

from mazeart.errors import MazeartError, check_int

__all__ = ["RECTANGLE", "SHAPES", "STROKE_CELLS", "figure_source", "in_words", "is_figure"]

RECTANGLE = re.compile(r"(\d{1,9})[xX](\d{1,9})")
"""A plain rectangle's source: ``"30x20"``, 30 cells across and 20 down."""

SHAPES = ("circle", "triangle", "hexagon", "heart")
"""The shapes a source can name (``"heart:40"``)."""

STROKE_CELLS = 6
"""How many cells wide a word's strokes are when no ``cells`` is given."""

_SIDE = 800  # pixels across a shape's picture
_FONT_PX = 240  # the word's font size, in pixels
_SHAPE = re.compile(r"(circle|triangle|hexagon|heart):(.*)", re.IGNORECASE | re.DOTALL)
_MAX_TEXT = 200


def figure_source(source: Any, *, font: str | os.PathLike[str] | None = None) -> Any:
    """The picture a text or shape source stands for, and its cells across; else None.

    Parameters
    ----------
    source : str or any
        ``"text:WORDS"`` or ``"SHAPE:N"`` (:data:`SHAPES`); anything else (a file that
        exists by that name included) is not a figure.
    font : path, optional
        A TrueType or OpenType font for the text (default: DejaVu Sans Bold).

    Returns
    -------
    (PIL.Image.Image, int) or None
        The picture (black figure on white) and the cells across it (``N`` for a shape;
        for a word, as many as make its strokes :data:`STROKE_CELLS` cells wide).

    Raises
    ------
    MazeartError
        For empty text, text too long, a size below 2, or a font that cannot be read.
    """
    if isinstance(source, os.PathLike):  # (the command line gives a path)
        source = os.fspath(source)
    if not is_figure(source):
        return None
    if source[:5].lower() == "text:":
        return _text(source[5:], font)
    shape = _SHAPE.fullmatch(source)
    assert shape is not None
    name, size = shape.group(1).lower(), shape.group(2)
    if not re.fullmatch(r"\d{1,9}", size):
        raise MazeartError(f"{name}:N takes N, the cells across it (a whole number from 2), "
                           f"as in {name}:40; got {source!r}")  # fmt: skip
    return _shape(name), check_int(int(size), f"the {name}'s cells", minimum=2)


def is_figure(source: Any) -> bool:
    """Whether ``source`` names a word or a shape (and no file of that name exists)."""
    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    if not isinstance(source, str) or _is_file(source):
        return False
    return source[:5].lower() == "text:" or _SHAPE.fullmatch(source) is not None


def in_words(source: Any) -> bool:
    """Whether ``source`` is a source in words: a rectangle (``"30x20"``), a word or a shape
    (and no file of that name exists)."""
    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    if not isinstance(source, str) or _is_file(source):
        return False
    return RECTANGLE.fullmatch(source) is not None or is_figure(source)


def _is_file(name: str) -> bool:
    try:
        return Path(name).exists()
    except (OSError, ValueError):  # a name too long, or with a NUL, is no file
        return False


def _font(font: str | os.PathLike[str] | None, size: int) -> Any:
    from PIL import ImageFont

    if font is None:
        data = files("mazeart").joinpath("fonts", "DejaVuSans-Bold.ttf").read_bytes()
        return ImageFont.truetype(BytesIO(data), size=size)
    try:
        return ImageFont.truetype(os.fspath(font), size=size)
    except OSError:
        raise MazeartError(f"{font}: not a font this can read (give a .ttf or .otf)") from None


def _text(text: str, font: str | os.PathLike[str] | None) -> tuple[Any, int]:
    from PIL import Image, ImageDraw

    words = " ".join(text.split())
    if not words:
        raise MazeartError("text: needs something to write, as in text:HELLO")
    control = [ch for ch in words if unicodedata.category(ch) in ("Cc", "Cs", "Co")]
    if control:
        raise MazeartError(f"text: holds a control character ({control[0]!r}); write letters")
    if len(words) > _MAX_TEXT:
        raise MazeartError(f"text: at most {_MAX_TEXT} characters, got {len(words)}")
    face = _font(font, _FONT_PX)
    missing = [ch for ch in dict.fromkeys(words) if not ch.isspace() and _lacks(face, ch)]
    if missing:
        raise MazeartError(f"text: the font has no letter {missing[0]!r} (give --font a font "
                           "that has it)")  # fmt: skip
    x0, y0, x1, y1 = face.getbbox(words)
    if x1 <= x0 or y1 <= y0:
        raise MazeartError(f"text: the font draws nothing for {words!r}")
    pad = _FONT_PX // 6
    img = Image.new("L", (x1 - x0 + 2 * pad, y1 - y0 + 2 * pad), 255)
    ImageDraw.Draw(img).text((pad - x0, pad - y0), words, font=face, fill=0)
    stem = _stem(face)
    return img.convert("RGB"), max(8, round(img.width / (stem / STROKE_CELLS)))


def _lacks(face: Any, ch: str) -> bool:
    """Whether the font draws ``ch`` as its box for a missing letter (its .notdef glyph)."""

    def drawn(text: str) -> tuple[Any, bytes]:
        mask = face.getmask(text)
        return mask.size, bytes(mask)

    return drawn(ch) == drawn("\U0010fffd") and drawn("\U0010fffd")[0] != (0, 0)


def _stem(face: Any) -> float:
    """The width of the font's vertical strokes, in pixels (its ``l``, or ``I``)."""
    for glyph in ("l", "I"):
        x0, _, x1, _ = face.getbbox(glyph)
        if x1 > x0:
            return float(x1 - x0)
    return _FONT_PX / 6


def _shape(name: str) -> Any:
    from PIL import Image, ImageDraw

    s = _SIDE
    img = Image.new("L", (s, s), 255)
    draw = ImageDraw.Draw(img)
    m = s * 0.02  # a margin of ground around it
    if name == "circle":
        draw.ellipse((m, m, s - m, s - m), fill=0)
    elif name == "triangle":  # pointing up, equilateral, standing on the bottom
        w = s - 2 * m
        h = w * math.sqrt(3) / 2
        top = (s - h) / 2
        draw.polygon([(s / 2, top), (s - m, top + h), (m, top + h)], fill=0)
    elif name == "hexagon":  # flat top
        r = (s - 2 * m) / 2
        draw.polygon([(s / 2 + r * math.cos(a), s / 2 + r * math.sin(a))
                      for a in np.linspace(0, 2 * math.pi, 7)[:-1]], fill=0)  # fmt: skip
    else:  # heart: the classic curve, scaled into the square
        t = np.linspace(0, 2 * math.pi, 400)
        x = 16 * np.sin(t) ** 3
        y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
        scale = (s - 2 * m) / max(np.ptp(x), np.ptp(y))
        x = (x - x.min()) * scale + (s - np.ptp(x) * scale) / 2
        y = (y - y.min()) * scale + (s - np.ptp(y) * scale) / 2
        draw.polygon(list(zip(x.tolist(), y.tolist(), strict=True)), fill=0)
    return img.convert("RGB")
