"""Exporters: one Maze, many formats, picked by the output file's suffix.

>>> import mazeart
>>> maze = mazeart.generate(mazeart.preset_from_text("......\\n......"), rng=1)
>>> svg = mazeart.export.to_svg(maze, solution=True)
>>> svg.startswith("<?xml")
True

:func:`write` writes atomically: the file appears complete or not at all, and a
failure leaves whatever was at the path before untouched.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mazeart._io import atomic_write, check_writable, plain
from mazeart._names import FORMATS
from mazeart.errors import MazeartError
from mazeart.export._style import Style

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from mazeart.maze import Maze


class _Writer:
    """A format's writer, imported when first used (the PDF, HTML and Tiled writers pull in
    libraries a run that writes an SVG does not need)."""

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        import importlib

        return getattr(importlib.import_module(self.module), self.name)(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<writer {self.module}.{self.name}>"


def __getattr__(name: str) -> Any:
    """``to_svg``, ``to_png_image`` and ``to_ascii``, imported on first use."""
    homes = {"to_svg": "mazeart.export.svg", "to_png_image": "mazeart.export.png",
             "to_ascii": "mazeart.export.text"}  # fmt: skip
    if name in homes:
        import importlib

        return getattr(importlib.import_module(homes[name]), name)
    raise AttributeError(f"module 'mazeart.export' has no attribute {name!r}")


__all__ = [
    "EXPORT_FORMATS",
    "FORMAT_OPTIONS",
    "Style",
    "check_output_path",
    "to_ascii",
    "to_png_image",
    "to_svg",
    "write",
]

EXPORT_FORMATS: dict[str, tuple[Callable[..., None], str]] = {
    suffix: (_Writer(module, name), about) for suffix, (module, name, about) in FORMATS.items()
}
"""Output suffix → (writer, description)."""

_STYLE = frozenset(f.name for f in fields(Style))
_CUT = frozenset({"cut", "engrave", "kerf"})
"""A sheet to cut's options, which an SVG takes (:mod:`mazeart.export.cut`)."""
_SOLID = frozenset({"size", "line_width", "margin", "wall_height", "base", "title"})
_PAGE = frozenset({"page", "landscape", "page_margin", "title", "footer", "answer"})
FORMAT_OPTIONS: dict[str, frozenset[str]] = {
    ".svg": _STYLE | _CUT,
    ".png": _STYLE - {"size", "one_stroke"},
    ".pdf": (_STYLE - {"cell_size", "size", "background"}) | _PAGE,
    ".json": frozenset(),
    ".txt": frozenset({"wall", "floor"}),
    ".html": frozenset({"title", "levels"}),
    ".tmj": frozenset({"tile_size"}),
    ".tmx": frozenset({"tile_size"}),
    ".stl": _SOLID,
    ".3mf": _SOLID,
}
"""The options each format takes (:class:`Style` fields for the drawings)."""

_DRAWN = (".svg", ".png", ".pdf", ".stl", ".3mf")
_ANY_GRID = (*_DRAWN, ".json", ".html")
"""The formats that take a maze on any grid (maze on another grid): the
drawings and models (whose floor a solution is grooved in), the saved maze and the
browser game."""


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
        raise MazeartError(
            f"cannot write {p}: unknown format {suffix or '(no suffix)'!r} (choose from {valid})"
        )
    check_writable(p)
    if suffix in (".tmj", ".tmx"):  # and the tileset beside it
        from mazeart.export.tiled import check_tileset

        check_tileset(p)
    return p


def write(
    maze: Maze,
    path: str | os.PathLike[str],
    *,
    solutions: Sequence[ArrayLike] | None = None,
    **options: Any,
) -> Path:
    """Write ``maze`` to ``path`` in the format its suffix names, atomically.

    (:func:`mazeart.save` is the friendlier entry: it finds the solution too.)

    Parameters
    ----------
    maze : Maze
        A square maze, or a maze on any grid (``.svg``, ``.png``, ``.pdf``
        and ``.json`` only).
    path : str or path-like
        Destination (see :data:`EXPORT_FORMATS`).
    solutions : sequence of array_like, optional
        Paths to draw (``.svg``, ``.png``, ``.pdf``): ``(L, 2)`` cells of a
        Maze, ``(L,)`` cell ids of a Maze.
    **options
        The format's options (see :data:`FORMAT_OPTIONS`).

    Returns
    -------
    pathlib.Path

    Raises
    ------
    MazeartError
        For an unknown format, a missing directory, an option the format
        does not take, or a maze on another grid than squares for a format
        that draws squares only.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> import numpy as np
    >>> from mazeart import generate, solve
    >>> maze = generate(np.zeros((6, 9), np.int32), rng=1)
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> write(maze, folder / "maze.png", solutions=[solve(maze)], cell_size=8).name
    'maze.png'
    >>> write(maze, folder / "maze.txt", size="10cm")
    Traceback (most recent call last):
    ...
    mazeart.errors.MazeartError: size: not an option of .txt output
    """
    from mazeart.maze import check_maze

    check_maze(maze)
    p = check_output_path(path)
    suffix = p.suffix.lower()
    writer, _ = EXPORT_FORMATS[suffix]
    tiled = suffix in (".tmj", ".tmx")  # the map says which grids it takes
    if (not maze.is_square) and suffix not in _ANY_GRID and not tiled:
        raise MazeartError(
            f"{suffix} output is drawn for the square grid only "
            "(SVG, PNG, PDF and HTML take any grid)"
        )
    unknown = sorted(set(options) - FORMAT_OPTIONS[suffix])
    if unknown:
        names = ", ".join(unknown)
        raise MazeartError(f"{names}: not an option of {suffix} output")
    for key in ("title", "footer"):  # text for XML, PDF and HTML: no control characters
        if isinstance(options.get(key), str):
            options[key] = plain(options[key])
    if solutions is not None:
        if suffix not in _DRAWN:
            raise MazeartError(f"a solution is drawn in {', '.join(_DRAWN)} only, not {suffix}")
        options["solutions"] = solutions
    if suffix in (".tmj", ".tmx"):  # it writes its tileset image beside the map
        options = {"path": p, **options}
    cutting = {k: options.pop(k) for k in _CUT if k in options}
    if cutting.pop("cut", False) or cutting.get("engrave"):  # a sheet to cut, not a drawing
        writer = _Writer("mazeart.export.cut", "write_cut")
        options.update(cutting)
    elif cutting.get("kerf"):
        raise MazeartError("kerf is a cut sheet's: give it with cut (--cut)")
    with atomic_write(p) as fh:
        writer(maze, fh, **options)
    return p
