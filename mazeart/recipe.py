"""The recipe: every option that shapes a new maze, its default, and what it may be.

:func:`mazeart.make` takes its options as keywords and builds a :class:`Recipe` from
them, which checks every value once; the command line builds its options from the
same fields (their help, panel and flags ride in each field's metadata), so each
default lives here and nowhere else.

>>> recipe = Recipe(cells=40, braid=0.25)
>>> recipe.cells, recipe.algorithm, recipe.grid
(40, 'weighted-dfs', 'square')
>>> Recipe(braid=2)
Traceback (most recent call last):
...
mazeart.errors.MazeartError: braid must be a finite number in [0, 1], got 2
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from mazeart._limits import check_count
from mazeart._names import GRID_KINDS, MODES
from mazeart.errors import MazeartError, check_choice, check_int, check_number

__all__ = ["DEFAULTS", "MODES", "At", "Recipe", "option_table"]

_IN, _MAZE, _SHAPE, _ART = "Input", "Maze", "Connect and shape", "Image-guided"
_ROUTE = "Solution route"


def _option(
    default: Any,
    help: str,
    panel: str,
    *,
    cli_type: Any,
    flags: tuple[str, ...] = (),
    cli: str | None = None,
) -> Any:
    """A recipe field: its default, and how the command line offers it (``cli`` names
    the command's parameter when it differs from the field's name)."""
    meta = {"help": help, "panel": panel, "type": cli_type, "flags": flags, "cli": cli}
    return field(default=default, metadata=meta)


def _is_bool(value: Any) -> bool:
    """True or False, Python's or numpy's (a numpy value means numpy is loaded: the recipe
    itself does not load it, so the command line can read its options without it)."""
    np = sys.modules.get("numpy")
    return isinstance(value, bool) or (np is not None and isinstance(value, np.bool_))


def _check_bool(value: Any, name: str) -> None:
    if not _is_bool(value):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__} {value!r}")


@dataclass(frozen=True)
class At:
    """A place on the picture in fractions of it (of the grid, without a picture): ``x``
    across from its left edge, ``y`` down from its top, each from 0 to 1.

    Given as an entrance or an exit, it names the maze cell on the maze's edge whose centre
    lies nearest: the end goes where a designer put it, whatever the grid and its cells.

    >>> At(0.5, 0.25)
    At(x=0.5, y=0.25)
    """

    x: float
    y: float

    def __post_init__(self) -> None:
        check_number(self.x, "x", low=0, high=1)
        check_number(self.y, "y", low=0, high=1)


@dataclass(frozen=True, kw_only=True)
class Recipe:
    """Every option of :func:`mazeart.make` that shapes a new maze (see its text for each).

    Values are checked when a recipe is made: a wrong type is a :class:`TypeError`, a
    value out of range or not among the choices a :class:`~mazeart.errors.MazeartError`,
    both naming the option. What depends on the source (a rooms file, the entrance's
    cell, the cell limit) is checked when the maze is made.
    """

    # the picture
    cells: int | None = _option(80, "Grid columns across the image.", _IN, cli_type=int)
    threshold: float | None = _option(
        None, "Luminance threshold 0-255 (default: Otsu's).", _IN, cli_type=float | None
    )
    invert: bool = _option(False, "Swap figure and ground.", _IN, cli_type=bool)
    coverage: float = _option(0.5, "Share of a cell that must be figure for it to hold maze.",
                              _IN, cli_type=float)  # fmt: skip
    preset: bool = _option(False, "Read a PNG as a preset (one pixel per cell) even without "
                           "its colour key.", _IN, cli_type=bool, flags=("--preset",))  # fmt: skip
    colour_rooms: bool = _option(
        False, "Pure red regions of the picture are rooms, pure blue marks their doors (one "
        "door a mark).", _IN, cli_type=bool, flags=("--colour-rooms",)
    )  # fmt: skip
    rooms: Any = _option(
        None, "Rooms file (JSON or TOML; in cells, fractions of the picture or its pixels) to "
        "reserve in the grid.", _IN, cli_type=Path | None, flags=("--rooms",)
    )  # fmt: skip
    room_centre: bool = _option(
        False, "A room in the middle of the picture (a fifth of it each way), its door on "
        "top.", _IN, cli_type=bool, flags=("--room-centre",)
    )  # fmt: skip
    paint: Any = _option(
        None, "A paint layer over the picture (any size, stretched over it): opaque red "
        "pixels keep maze out, opaque green ones put it in, transparent ones leave it to the "
        "picture.", _IN, cli_type=Path | None, flags=("--paint",)
    )  # fmt: skip
    font: Any = _option(
        None, "The font of a text:WORDS source (TrueType or OpenType; default: DejaVu Sans "
        "Bold).", _IN, cli_type=Path | None, flags=("--font",)
    )  # fmt: skip
    # the picture's guidance
    mode: str = _option(
        "auto", "How to read the picture: silhouette (its figure), tone (its tones: a "
        "photograph) or auto (tone for a photograph; a logo's colour regions walled).", _ART,
        cli_type=str,
    )  # fmt: skip
    edges: bool | None = _option(
        None, "Walls along the boundaries between the picture's colour regions, crossed by as "
        "few doors as keep the maze connected (default: when the figure holds distinct colour "
        "regions).", _ART, cli_type=bool | None, flags=("--edges/--no-edges",)
    )  # fmt: skip
    regions: bool = _option(False, "Give each colour region of the picture its own texture "
                            "(the flow generator).", _ART, cli_type=bool,
                            flags=("--regions",))  # fmt: skip
    segments: int | None = _option(None, "Colour clusters for --edges and --regions (default: "
                                   "the figure's own flat colours).", _ART,
                                   cli_type=int | None)  # fmt: skip
    tone: bool = _option(
        False, "Fill the whole picture and draw each wall as thick as the picture is dark "
        "under it: a photograph read from a distance (every grid but the weave).", _ART,
        cli_type=bool, flags=("--tone",)
    )  # fmt: skip
    outline: str | None = _option(
        None, "Draw the figure's outer wall as cell sides (cells), or as the picture's smooth "
        "contour (smooth; SVG, PNG, PDF).", _ART, cli_type=str | None
    )  # fmt: skip
    textures: Any = _option(
        None, "Textures for --regions, largest region first: horizontal, vertical, spiral, "
        "vortex, gradient, isolines, random.", _ART, cli_type=str | None
    )  # fmt: skip
    route: Any = _option(
        None, "A route the solution follows: an SVG's paths over the picture, points (a "
        "JSON list of x, y pairs, or text: x y a line) in fractions of the picture or in its "
        "pixels, or a picture of the line laid over the picture.", _ROUTE,
        cli_type=Path | None, flags=("--route",)
    )  # fmt: skip
    solution_text: str | None = _option(
        None, "Words the solution writes, set in the shipped font inside the figure: the "
        "maze hides them until it is solved.", _ROUTE, cli_type=str | None
    )  # fmt: skip
    solution_picture: Any = _option(
        None, "A picture whose strokes the solution draws (a line drawing, a word, a heart).",
        _ROUTE, cli_type=Path | None, flags=("--solution-picture",)
    )  # fmt: skip
    decoys: float = _option(
        0.15, "With a route: the share of its cells a wrong turn leaves from.", _ROUTE,
        cli_type=float
    )  # fmt: skip
    wander: float | None = _option(
        None, "With a route: the share of its steps that go round by a cell beside it, so "
        "that its straight runs bend as the maze's corridors do and its long walls do not "
        "show (default: 0.7 for words and pictures, 0 for a route file).", _ROUTE,
        cli_type=float | None
    )  # fmt: skip
    # the maze
    algorithm: str | None = _option("weighted-dfs", "Generator (see: mazeart algorithms).",
                                    _MAZE, cli_type=str, flags=("--algorithm", "-a"))  # fmt: skip
    grid: str = _option(
        "square", "The cells' shape: square, hex, triangle, polar (rings on the figure), "
        "upsilon (octagons and squares), adaptive (squares, small where the outline needs).",
        _MAZE, cli_type=str
    )  # fmt: skip
    detail: int = _option(
        2, "The adaptive grid: how many times a cell may be halved where the outline needs "
        "it (0-4; cells then as many as a square maze of the same --cells).", _MAZE,
        cli_type=int
    )  # fmt: skip
    centre: Any = _option(None, "The polar grid's centre X,Y in the picture's pixels "
                          "(default: the figure's centroid).", _MAZE,
                          cli_type=str | None)  # fmt: skip
    weave: bool | float = _option(
        False, "A weave maze: corridors pass under each other (square grid; Kruskal's algorithm "
        "with crossings).", _MAZE, cli_type=bool, flags=("--weave",)
    )  # fmt: skip
    geometry: str | None = _option(
        None, "cells (thin walls between cells) or blocks (path and wall blocks); default: "
        "the algorithm's first.", _MAZE, cli_type=str | None
    )  # fmt: skip
    entrance: Any = _option(None, "Entrance cell ROW,COL (another grid: a cell id; default: "
                            "automatic).", _MAZE, cli_type=str | None)  # fmt: skip
    exit: Any = _option(None, "Exit cell ROW,COL (another grid: a cell id; default: automatic).",
                        _MAZE,
                        cli_type=str | None, flags=("--exit",), cli="exit_")  # fmt: skip
    difficulty: str | None = _option(
        None, "easy, medium or hard: picks size, algorithm and braid (options you give win), "
        "and what --best-of aims for.", _MAZE, cli_type=str | None
    )  # fmt: skip
    best_of: int = _option(1, "Make K candidates (seeds SEED, SEED+1, ...) and keep the one "
                           "that best fits --difficulty (hardest by default).", _MAZE,
                           cli_type=int)  # fmt: skip
    # connect and shape
    islands: str = _option("connect", "connect: join separate parts with bridges; separate: "
                           "keep them apart.", _SHAPE, cli_type=str)  # fmt: skip
    prune: bool = _option(False, "Remove one-cell dead ends off junctions.", _SHAPE,
                          cli_type=bool, flags=("--prune-dead-ends",),
                          cli="prune_dead_ends")  # fmt: skip
    braid: float | None = _option(0.0, "Share of dead ends (0-1) to open into loops.", _SHAPE,
                                  cli_type=float)  # fmt: skip
    min_island: int = _option(3, "Leave out a picture's islands smaller than this many cells "
                              "(specks of noise; 0 keeps every one).", _SHAPE,
                              cli_type=int)  # fmt: skip
    place: Any = _option(None, "Tags to place, e.g. loot=5,spawn=2 (kinds: spawn, loot, key, "
                         "npc, trap).", _SHAPE, cli_type=str | None)  # fmt: skip

    def __post_init__(self) -> None:
        for name in ("invert", "preset", "colour_rooms", "regions", "tone", "prune"):
            _check_bool(getattr(self, name), name)
        if self.edges is not None:
            _check_bool(self.edges, "edges")
        if not _is_bool(self.weave):
            check_number(self.weave, "weave", low=0, high=1)
        if self.cells is not None:
            check_int(self.cells, "cells")
        if self.threshold is not None:
            check_number(self.threshold, "threshold", low=0, high=255)
        check_number(self.coverage, "coverage", low=0, high=1, low_open=True)
        check_choice(self.mode, "mode", MODES)
        check_choice(self.grid, "grid", GRID_KINDS)
        for name, choices in (("outline", ("cells", "smooth")), ("geometry", ("cells", "blocks")),
                              ("difficulty", ("easy", "medium", "hard"))):  # fmt: skip
            value = getattr(self, name)
            if value is not None:
                check_choice(value, name, choices)
        check_choice(self.islands, "islands", ("connect", "separate"))
        if self.braid is not None:
            check_number(self.braid, "braid", low=0, high=1)
        if self.segments is not None:
            check_int(self.segments, "segments")
        check_int(self.min_island, "min_island", minimum=0)
        check_int(self.detail, "detail", minimum=0, maximum=4)
        check_number(self.decoys, "decoys", low=0, high=1)
        if self.wander is not None:
            check_number(self.wander, "wander", low=0, high=1)
        if self.solution_text is not None and (
            not isinstance(self.solution_text, str) or not self.solution_text.strip()
        ):
            raise MazeartError("solution_text is empty: give the words the solution writes")
        routes = [k for k in ("route", "solution_text", "solution_picture")
                  if getattr(self, k) is not None]  # fmt: skip
        if len(routes) > 1:
            raise MazeartError(f"{' and '.join(routes)}: the solution follows one route")
        shaping = [k for k, given in (("decoys", self.decoys != DEFAULTS["decoys"]),
                                      ("wander", self.wander is not None)) if given]  # fmt: skip
        if shaping and not routes:
            verb = "shape" if len(shaping) > 1 else "shapes"
            raise MazeartError(f"{' and '.join(shaping)} {verb} a route: give route, "
                               "solution_text or solution_picture")  # fmt: skip
        check_count(self.best_of, "best_of")
        if self.algorithm is not None and not isinstance(self.algorithm, str):
            raise TypeError(f"algorithm must be a string, got {type(self.algorithm).__name__}")

    @classmethod
    def split(cls, options: Mapping[str, Any]) -> tuple[Recipe, dict[str, Any]]:
        """The recipe of ``options`` and what is left: the algorithm's own options."""
        names = {f.name for f in fields(cls)}
        recipe = cls(**{k: v for k, v in options.items() if k in names})
        return recipe, {k: v for k, v in options.items() if k not in names}

    def as_dict(self) -> dict[str, Any]:
        """The options as a plain dict (field name to value)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def replace(self, **changes: Any) -> Recipe:
        """A copy with some options changed (checked again)."""
        return dataclasses.replace(self, **changes)


DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(Recipe)}
"""Every recipe option and its default."""


def option_table() -> list[tuple[str, str, Any, Any, str, str, tuple[str, ...]]]:
    """The recipe's fields as the command line's option rows: ``(parameter, keyword, type,
    default, help, panel, flags)``."""
    rows = []
    for f in fields(Recipe):
        meta = f.metadata
        rows.append((meta["cli"] or f.name, f.name, meta["type"], f.default, meta["help"],
                     meta["panel"], meta["flags"]))  # fmt: skip
    return rows
