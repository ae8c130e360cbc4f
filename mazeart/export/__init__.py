"""Exporters: one Maze, many formats, picked by the output file's suffix.

>>> import mazeart
>>> maze = mazeart.generate(mazeart.preset_from_text("......\\n......"), seed=1)
>>> svg = mazeart.export.to_svg(maze, solution=True)
>>> svg.startswith("<?xml")
True

:func:`save` writes atomically: the file appears complete or not at all, and a
failure leaves whatever was at the path before untouched.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mazeart._io import atomic_write
from mazeart.export._style import Style
from mazeart.export.html import write_html
from mazeart.export.pdf import write_pdf
from mazeart.export.png import to_png_image, write_png
from mazeart.export.svg import to_svg, write_svg
from mazeart.export.text import to_ascii, write_ascii
from mazeart.export.tiled import write_tiled
from mazeart.maze import Maze
from mazeart.mazefile import write_json

__all__ = [
    "EXPORT_FORMATS",
    "Style",
    "check_output_path",
    "save",
    "to_ascii",
    "to_png_image",
    "to_svg",
]

EXPORT_FORMATS: dict[str, tuple[Callable[..., None], str]] = {
    ".svg": (write_svg, "vector drawing (print, pen plotters)"),
    ".png": (write_png, "raster image"),
    ".pdf": (write_pdf, "printable vector PDF with an answer key"),
    ".json": (write_json, "saved maze / game level (mazeart.mazefile)"),
    ".txt": (write_ascii, "ASCII drawing"),
    ".html": (write_html, "browser game, one self-contained page"),
    ".tmj": (write_tiled, "Tiled map, JSON (tileset image written beside it)"),
    ".tmx": (write_tiled, "Tiled map, XML (tileset image written beside it)"),
}
"""Output suffix → (writer, description)."""


def check_output_path(path: str | os.PathLike[str]) -> Path:
    """Check that ``path`` has a known suffix and a directory to live in.

    Raises
    ------
    ValueError
        Naming the known formats, or the missing directory.
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in EXPORT_FORMATS:
        valid = ", ".join(EXPORT_FORMATS)
        raise ValueError(
            f"cannot write {p}: unknown format {suffix or '(no suffix)'!r} (choose from {valid})"
        )
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise ValueError(f"cannot write {p}: directory {parent} does not exist")
    if p.is_dir():
        raise ValueError(f"cannot write {p}: it is a directory")
    return p


def save(maze: Maze, path: str | os.PathLike[str], **options: Any) -> Path:
    """Write ``maze`` to ``path`` in the format its suffix names.

    Parameters
    ----------
    maze : Maze
    path : str or path-like
        Destination; ``.svg`` or ``.png`` (see :data:`EXPORT_FORMATS`).
    **options
        Drawing options (see :class:`~mazeart.export._style.Style`).

    Returns
    -------
    pathlib.Path
    """
    p = check_output_path(path)
    writer, _ = EXPORT_FORMATS[p.suffix.lower()]
    if writer is write_tiled:  # it writes its tileset image beside the map
        options = {"path": p, **options}
    with atomic_write(p) as fh:
        writer(maze, fh, **options)
    return p
