"""The names a user chooses among: grids, ways of reading a picture, output formats,
preset files, tags.

They live here, with nothing heavier than the standard library, so the command line can
offer and check them (``mazeart --help``, a mistyped option) before numpy or numba load.
Each registry takes its names from here: :data:`mazeart.export.EXPORT_FORMATS` its
writers, :data:`mazeart.grids.recipe.GRID_KINDS` the grids the registry holds.

>>> GRID_KINDS[0], MODES[0]
('square', 'auto')
"""

from __future__ import annotations

__all__ = ["BATCH_FORMATS", "FORMATS", "GRID_KINDS", "MODES", "PRESET_SUFFIXES", "TAG_COLOURS",
           "TAG_KINDS"]  # fmt: skip

GRID_KINDS = ("square", "hex", "triangle", "polar", "upsilon", "adaptive")
"""The grids a recipe names (``square`` is :class:`~mazeart.maze.Maze`'s own; the weave
grid is made by ``weave=True``)."""

MODES = ("auto", "silhouette", "tone")
"""How a picture is read (``mode``)."""

FORMATS: dict[str, tuple[str, str, str]] = {
    ".svg": ("mazeart.export.svg", "write_svg", "vector drawing (print, pen plotters)"),
    ".png": ("mazeart.export.png", "write_png", "raster image"),
    ".pdf": ("mazeart.export.pdf", "write_pdf", "printable vector PDF with an answer key"),
    ".json": ("mazeart.mazefile", "write_json", "saved maze / game level (mazeart.mazefile)"),
    ".txt": ("mazeart.export.text", "write_ascii", "ASCII drawing"),
    ".html": ("mazeart.export.html", "write_html", "browser game, one self-contained page"),
    ".tmj": ("mazeart.export.tiled", "write_tiled",
             "Tiled map, JSON (tileset image written beside it)"),
    ".tmx": ("mazeart.export.tiled", "write_tiled",
             "Tiled map, XML (tileset image written beside it)"),
    ".stl": ("mazeart.export.mesh", "write_stl",
             "3-D print: walls on a plate, millimetres (binary STL)"),
    ".3mf": ("mazeart.export.mesh", "write_3mf",
             "3-D print: walls on a plate, millimetres (3MF package)"),
}  # fmt: skip
"""Output suffix → (the writer's module, its function, a description)."""

BATCH_FORMATS = ("svg", "png", "pdf", "json", "txt", "html")
"""The formats a batch writes, one file per maze each."""

TAG_KINDS: dict[str, int] = {"spawn": 1, "loot": 2, "key": 3, "npc": 4, "trap": 5}
"""Tag kind name → code ``k`` (stored as ``TAG + k``; :func:`mazeart.tags.register_tag` adds
to it)."""

TAG_COLOURS: dict[str, str] = {
    "spawn": "#e377c2",  # not the green of the exit and the entrance marker
    "loot": "#e6a800",
    "key": "#1f77b4",
    "npc": "#9467bd",
    "trap": "#8c564b",  # brown: an orange would pass for the gold of loot
}
"""Drawing colour per kind (exports fall back to grey)."""

PRESET_SUFFIXES = (".npy", ".txt", ".png")
"""File suffixes :func:`~mazeart.weights.load_preset` and
:func:`~mazeart.weights.save_preset` understand."""
