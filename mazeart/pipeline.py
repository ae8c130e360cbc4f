"""The recipe: a source and options in, a finished maze out.

:func:`make` does what ``mazeart SOURCE -o OUT`` does, and :func:`save` writes
the result in any format; the command line only parses its arguments into
these calls and prints what they return.

>>> import mazeart
>>> made = mazeart.make("....\\n.##.\\n....", rng=3)
>>> made.maze.n_cells, made.maze.meta["seed"]
(10, 3)

The steps, in order: read the source (a picture, a preset, or a saved maze);
apply a difficulty's defaults where the caller left an option unset; read what
the picture adds (a smooth outline, colour-region walls and textures, a tone
map; :mod:`mazeart.guide`); generate (:func:`mazeart.generate`: carve, rooms,
bridges, pruning, braiding, ends, tags), once or ``best_of`` times keeping the
candidate that fits the difficulty; attach the picture's drawing data.

Seeds: a run with seed ``S`` makes maze ``index`` from seed ``S + index * K + i``
for candidate ``i`` of ``K``, so every maze records the one seed that makes it
again alone, and a book's page ``i`` or a game's level ``i`` is ``index=i``.
"""

from __future__ import annotations

import contextvars
import dataclasses
import functools
import math
import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

import numpy as np
from numpy.typing import NDArray

from mazeart._io import atomic_write, existing_file, open_image
from mazeart._limits import check_cells, check_count, check_work, current
from mazeart._pool import check_jobs, ordered_map
from mazeart._progress import step
from mazeart._rng import RngLike, as_generator, check_seed, fresh_seed
from mazeart.analyze import DIFFICULTIES, best_of, measure, pick_best
from mazeart.design import Design, TagAt, is_design_file, load_design
from mazeart.errors import MazeartError, MazeartWarning, check_choice, check_int, check_number
from mazeart.export import FORMAT_OPTIONS, check_output_path, write
from mazeart.figures import RECTANGLE, in_words, is_figure
from mazeart.generators import DEFAULT_ALGORITHM, generate, get_algorithm
from mazeart.image import weights_from_image
from mazeart.maze import Guide, Maze
from mazeart.mazefile import dumps, is_maze_file, load_maze, loads
from mazeart.recipe import DEFAULTS, At, Recipe
from mazeart.rooms import Room, RoomSpec, resolve_rooms, room_summary, stamp_rooms
from mazeart.shape import ShapeReport
from mazeart.solvers import SOLVERS, random_paths, solve
from mazeart.weights import (
    FORBIDDEN,
    FREE,
    is_preset_file,
    load_preset,
    preset_from_text,
)

if TYPE_CHECKING:
    from PIL.Image import Image

    from mazeart.animate import Recording
    from mazeart.grids import Grid
    from mazeart.guide import Guidance
    from mazeart.maze import Guide

__all__ = [
    "Made",
    "make",
    "make_book",
    "make_design",
    "make_many",
    "make_preset",
    "play_levels",
    "save",
    "solutions",
]

Source = str | os.PathLike[str] | NDArray[np.integer] | Maze | Any
"""A picture (path or PIL image), a preset (path, array, or ASCII text), or a saved maze."""

_DEFAULTS = DEFAULTS
"""Every option of :func:`make` that shapes a new maze, and its default."""


@dataclass(frozen=True, eq=False)
class Made:
    """A maze and how it came to be.

    Attributes
    ----------
    maze : Maze
        The finished maze, on the grid asked for.
    preset : (H, W) ndarray of int32, or None
        The preset read from the source, before the picture's guidance changed
        it (``None`` for a saved maze).
    report : ShapeReport
        What the connect-and-shape steps did to the kept maze.
    candidates : int
        How many candidates ``best_of`` made (1 without it).
    kept : int
        Which candidate was kept (its seed is the run's seed plus this).
    picture : PIL.Image.Image or None
        The decoded picture, when the source was one.
    threshold, invert
        How the picture was split into figure and ground.
    recording : Recording or None
        The carve order of every candidate, when :func:`make` was asked to
        ``record`` (for a ``.gif`` from :func:`save`).
    specks : (int, int)
        How many islands of the picture's figure smaller than ``min_island``
        cells were left out, and their cells.
    notes : tuple of str
        How the picture was read when ``mode='auto'`` chose (a photograph by
        its tones, a logo's colour regions walled).
    warnings : tuple of str
        What may not be what the user wanted: a figure of a handful of cells,
        strokes thinner than a cell that the grid loses (see :func:`fit_warnings`).
    """

    maze: Maze
    preset: NDArray[np.int32] | None = None
    report: ShapeReport = field(default_factory=ShapeReport)
    candidates: int = 1
    kept: int = 0
    picture: Image | None = None
    threshold: float | None = None
    invert: bool = False
    recording: Recording | None = None
    specks: tuple[int, int] = (0, 0)
    min_island: int = 3
    notes: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    laid: Callable[[], NDArray[np.float64]] | None = field(default=None, repr=False)

    def places(self) -> NDArray[np.float64]:
        """Each cell's centre in fractions of the picture (of the grid, without one).

        Returns
        -------
        (n, 2) ndarray of float64
            ``x`` across from the picture's left edge and ``y`` down from its top, 0 to 1
            over the picture, one row per cell of :attr:`maze`'s grid (in its ids).

        Examples
        --------
        >>> made = make("4x2", rng=1)
        >>> made.places()[[0, 7]].tolist()
        [[0.125, 0.25], [0.875, 0.75]]
        """
        if self.laid is not None:
            return self.laid()
        g = self.maze.grid
        return g.centres / np.asarray(g.size, dtype=np.float64)

    def summary(self) -> str:
        """One line: algorithm, geometry, seed, size, and what the shaping steps did."""
        maze = self.maze
        extras = [*self.notes, self.report.summary()]
        if self.specks[0]:
            n, cells = self.specks
            extras.append(
                f"dropped {n} speck{'s' * (n != 1)} of the picture ({cells} "
                f"cell{'s' * (cells != 1)}), islands smaller than {self.min_island} cells"
            )
        if self.candidates > 1:
            score = measure(maze).difficulty
            extras.append(f"best of {self.candidates} candidates, difficulty {score:g}")
        if maze.rooms:
            extras.append(room_summary(list(maze.rooms)))
        if maze.tags:
            kinds: dict[str, int] = {}
            for kind in maze.tags.values():
                kinds[kind] = kinds.get(kind, 0) + 1
            extras.append(", ".join(f"{n} {k}" for k, n in kinds.items()))
        detail = "; ".join(e for e in extras if e)
        seed = maze.meta.get("seed")
        if maze.is_square:
            where = f"{maze.geometry}, seed {seed}, {maze.width} x {maze.height} grid"
        else:  # another grid: its size by its own parameters
            size = ", ".join(
                f"{v} {k}" for k, v in maze.grid.params.items() if not isinstance(v, str)
            )  # not the adaptive grid's splits
            where = f"{maze.grid.kind} grid ({size}), seed {seed}"
        return f"{maze.meta.get('algorithm', 'maze')}, {where}, {maze.n_cells} maze cells" + (
            f"; {detail}" if detail else ""
        )

    def metrics(self) -> dict[str, Any]:
        """The maze's :class:`~mazeart.analyze.Metrics`, plus fidelity to the picture.

        With a picture (square grid): ``footprint_iou``, ``edge_share`` and
        ``edge_share_chance`` (see :func:`mazeart.guide.fidelity`). On any grid,
        what the drawing allows (:func:`mazeart.guide.drawn`, read off the
        rendered picture): ``drawn_reachable``, the share of its floor a pen
        reaches from the entrance; ``drawn_pockets``, the pieces of floor it
        cannot reach; ``drawn_exit`` and ``drawn_doors``, whether it reaches the
        exit and both doors open onto the ground around the maze; ``drawn_gaps``,
        the gaps in its walls besides the doors.
        """
        out: dict[str, Any] = dict(measure(self.maze).to_dict())
        if self.maze.entrance is not None:
            from mazeart.guide import drawn

            # a pixel budget, not a cliff: 12 px a cell for small mazes, down to 4 px from
            # 375,000 cells on (a 499 x 499 maze once took 36 Mpx and 1 GB at 12)
            cells = self.maze.grid.n_cells
            check = drawn(self.maze, scale=int(min(12, max(4, math.sqrt(DRAWN_PIXELS / cells)))))
            out["drawn_reachable"] = check["reachable"]
            out["drawn_pockets"] = check["pockets"]
            out["drawn_exit"] = check["exit"]
            out["drawn_doors"] = check["doors"]
            out["drawn_gaps"] = check["leaks"]
        if not self.maze.is_square:  # another grid: no picture fidelity yet
            return out
        if self.picture is not None and self.preset is not None:
            from mazeart.guide import fidelity

            allowed = self.preset != FORBIDDEN  # the picture's cells (bridges aside)
            if allowed.shape == self.maze.shape:
                fid = fidelity(
                    self.maze,
                    self.picture,
                    threshold=self.threshold,
                    invert=self.invert,
                    allowed=allowed,
                )
                out["footprint_iou"] = fid["iou"]
                out["edge_share"] = fid["edge_share"]
                out["edge_share_chance"] = fid["wall_share"]
        return out


# ----------------------------------------------------------------------------- reading sources


def _rectangle(source: Source) -> NDArray[np.int32] | None:
    """A plain rectangle when the source is ``"WxH"`` (``"30x20"``: 30 cells across, 20 down)
    and no file of that name exists; else None."""
    if not isinstance(source, str | os.PathLike):
        return None
    m = RECTANGLE.fullmatch(str(source))
    if m is None or Path(source).exists():
        return None
    cols, rows = int(m.group(1)), int(m.group(2))
    if rows < 1 or cols < 1:
        raise MazeartError(f"a rectangle needs at least one cell each way, got {source}")
    check_cells(rows, cols, "the rectangle")
    return np.zeros((rows, cols), dtype=np.int32)


def _read_source(source: Source, opts: dict[str, Any]) -> tuple[NDArray[np.int32], Any]:
    """The preset a source stands for, and the decoded picture (None for a preset). With
    ``opts["fit"]`` (a difficulty), a picture's cells are fitted to it (:func:`fit_cells`)
    and ``opts["cells"]`` says what they came to."""
    from PIL import Image as PILImage

    cells = check_int(opts["cells"], "cells")
    fit = opts.get("fit")
    if cells > current().max_cells:
        raise MazeartError(
            f"cells {cells:,} is more than max_cells {current().max_cells:,} "
            "(raise max_cells to allow it)"
        )
    threshold = opts["threshold"]
    if threshold is not None:
        threshold = check_number(threshold, "threshold", low=0, high=255)
    coverage = float(opts["coverage"])
    picture = None
    if isinstance(source, PILImage.Image):
        picture = source
    elif isinstance(source, str) and ("\n" in source or not source.strip()):
        weights = preset_from_text(source)
    elif (rectangle := _rectangle(source)) is not None:
        weights = rectangle
    elif isinstance(source, str | os.PathLike):
        path = existing_file(source, "a picture, a preset or a saved maze")
        if opts["preset"] or is_preset_file(path):
            weights = load_preset(path)
        else:
            picture = _open_picture(path, FIT_MAX if fit else cells)
    elif isinstance(source, np.ndarray):
        from mazeart.weights import validate_weights

        weights = validate_weights(source)
    else:
        raise TypeError(
            f"source must be a path, a PIL image, a preset array or a Maze, "
            f"got {type(source).__name__}"
        )
    if picture is not None:
        if fit:
            picture = _working_size(picture, FIT_MAX)
            cells = fit_cells(picture, difficulty=fit, threshold=threshold, invert=opts["invert"])
            opts["cells"] = cells
        picture = _working_size(picture, cells)
        weights = weights_from_image(
            picture,
            cells=cells,
            threshold=threshold,
            invert=opts["invert"],
            coverage=coverage,
            colour_rooms=opts["colour_rooms"],
            paint=_paint(opts),
        )
    else:
        if opts["invert"]:
            free = weights == FREE
            weights = weights.copy()
            weights[free] = FORBIDDEN
            weights[~free & (weights == FORBIDDEN)] = FREE
        weights = _painted_cells(weights, _paint(opts))
    check_cells(weights.shape[0], weights.shape[1], "the preset")
    if not (weights == FREE).any():
        h, w = weights.shape
        hint = " (try invert or a threshold)" if picture is not None else ""
        if picture is not None:
            thin = fit_warnings(picture, weights, threshold=threshold, invert=opts["invert"])
            hint = f": {thin[-1]}" if thin and "strokes" in thin[-1] else hint
        raise MazeartError(f"no cell of the {w} x {h} grid is free, nothing to carve{hint}")
    return weights, picture


_PIXELS_PER_CELL = 16
"""A picture much larger than its grid is first reduced to this many pixels a cell across."""


def _paint(opts: Mapping[str, Any]) -> NDArray[np.uint8] | None:
    """The paint layer of the options (:func:`mazeart.image.paint_layer`), if any."""
    from mazeart.image import paint_layer

    return None if opts.get("paint") is None else paint_layer(opts["paint"])


def _painted_cells(weights: NDArray[np.int32], layer: NDArray[np.uint8] | None) -> NDArray:
    """A preset's plain cells (free or forbidden, not rooms) with a paint layer stretched
    over the grid laid on top."""
    from mazeart.image import paint_over

    if layer is None:
        return weights
    over = paint_over((weights == FREE).astype(np.float32), layer)
    plain = (weights == FREE) | (weights == FORBIDDEN)
    return np.where(plain, np.where(over >= 0.5, FREE, FORBIDDEN), weights).astype(np.int32)


def _working_size(picture: Image, cells: int) -> Image:
    """The picture, reduced by a whole factor when it is far larger than its grid needs:
    a 50 Mpx photo for an 80-cell maze is read as well from 1/16 of its pixels, faster
    and in a fraction of the memory."""
    factor = picture.width // (_PIXELS_PER_CELL * cells)
    if factor < 2 or picture.width * picture.height < 4_000_000:
        return picture
    if picture.mode not in ("L", "LA", "RGB", "RGBA", "I", "F"):
        alpha = picture.mode in ("PA", "RGBa", "La") or "transparency" in picture.info
        picture = picture.convert("RGBA" if alpha else "RGB")
    return picture.reduce(factor)


_READING = ("edges", "regions", "tone", "outline", "threshold", "invert", "coverage",
            "colour_rooms", "segments", "textures")  # fmt: skip
"""Options that say how to read the picture: given any, ``mode='auto'`` leaves it to them."""


def _read_as(
    picture: Image | None, preset: NDArray[np.int32], opts: dict[str, Any], given: Mapping
) -> list[str]:
    """Decide how to read a picture (``mode``): by its tones or as a silhouette, with its
    colour regions walled or not; the notes say what ``auto`` chose."""
    mode = opts["mode"]
    if picture is None:
        if mode == "tone":
            raise MazeartError("mode 'tone' reads the picture's tones; give a picture")
        opts["edges"] = bool(opts["edges"])
        return []
    if mode == "tone":
        opts["tone"] = True
    notes = []
    chosen = [k for k in _READING if given.get(k) not in (None, False, _DEFAULTS[k])]
    blocks = opts["geometry"] not in (None, "cells")
    from mazeart.image import colour_regions, figure_coverage, is_photograph

    if mode == "auto" and not chosen and not blocks and opts["rooms"] is None:
        if is_photograph(picture):
            opts["tone"] = True
            notes.append("a photograph: drawn by its tones (mode='silhouette' for its shape)")
        elif opts["edges"] is None:
            figure = figure_coverage(picture) >= 0.5
            if colour_regions(picture, figure):
                opts["edges"] = True
                notes.append("its colour regions walled (edges=False for the silhouette alone)")
    elif not opts["tone"] and opts["threshold"] is None and is_photograph(picture):
        why = (
            "the blocks geometry" if blocks else "rooms" if opts["rooms"] is not None
            else ", ".join(chosen) if chosen else "mode='silhouette'"
        )  # fmt: skip
        notes.append(_photo_note(why))
    opts["edges"] = bool(opts["edges"])
    return notes


def _photo_note(why: str) -> str:
    """What the report says of a photograph read as a silhouette because of ``why``."""
    return (
        f"a photograph read as a silhouette of its dark tones ({why}); "
        "mode='tone' draws all its tones, with none of edges, regions, a smooth outline "
        "or blocks"
    )


def fit_warnings(
    picture: Image,
    weights: NDArray[np.int32],
    *,
    threshold: float | None = None,
    invert: bool = False,
) -> list[str]:
    """What a grid loses of the picture's figure, when it is enough to surprise.

    Two things make a maze that does not look like its picture: a figure of a
    handful of cells (a threshold that keeps only thin dark lines), and strokes
    thinner than a cell, which fall below the coverage a cell needs and vanish.
    The stroke width is measured as twice the figure's area over its perimeter
    (exact for long strokes of even width); strokes under a cell are reported
    when the grid keeps less than 60 % of the figure's area or breaks it into
    more pieces than the picture has.

    Parameters
    ----------
    picture : PIL.Image.Image
        The picture as read (its working size).
    weights : (H, W) ndarray of int32
        The preset the grid made of it.
    threshold, invert
        How the picture is split into figure and ground.

    Returns
    -------
    list of str
        Empty when the grid keeps the figure well.

    Examples
    --------
    >>> import numpy as np
    >>> from PIL import Image
    >>> lines = np.full((400, 400), 255, np.uint8)
    >>> lines[::40, :] = 0  # one-pixel dark lines, ten pixels per cell at 40 cells
    >>> from mazeart.image import weights_from_image
    >>> w = weights_from_image(Image.fromarray(lines), cells=40)
    >>> fit_warnings(Image.fromarray(lines), w)[0]
    'the figure holds only 0 of the 40 x 40 cells (check --threshold and --invert)'
    """
    out = []
    rows, cols = weights.shape
    free = int(np.count_nonzero(weights == FREE))
    if free < max(25, weights.size // 100):
        out.append(
            f"the figure holds only {free} of the {cols} x {rows} cells "
            "(check --threshold and --invert)"
        )
    figure, area, stroke_px = _figure_strokes(picture, threshold, invert)
    if area == 0:
        return out
    cell = figure.shape[1] / cols  # pixels per cell
    stroke = stroke_px / cell  # in cells
    if stroke >= 1.0:
        return out
    from scipy import ndimage

    kept = free * cell * cell / area  # the grid's figure over the picture's
    labels, _ = ndimage.label(figure)
    sizes = np.bincount(labels.reshape(-1))[1:]
    pieces = int(np.count_nonzero(sizes >= cell * cell))  # the picture's, a cell or more
    broken = ndimage.label(weights == FREE)[1] > max(pieces, 1)
    if kept < 0.6 or broken:
        from mazeart.image import cells_for_strokes

        wanted = cells_for_strokes(cols, stroke)
        lost = "breaks it into pieces" if broken else f"keeps {min(kept, 1.0):.0%} of it"
        out.append(
            f"the figure's strokes are about {stroke:.1f} cells wide and the grid {lost} "
            f"(more --cells, about {wanted}, keep thin strokes)"
        )
    return out


def _figure_strokes(
    picture: Image, threshold: float | None, invert: bool
) -> tuple[NDArray[np.bool_], int, float]:
    """The picture's figure, its area and its strokes' width (pixels): twice the area over
    the perimeter, exact for long strokes of even width."""
    from mazeart.image import figure_coverage, stroke_width

    figure = figure_coverage(picture, threshold=threshold, invert=invert) >= 0.5
    return figure, int(np.count_nonzero(figure)), stroke_width(figure)


DRAWN_PIXELS = 6_000_000
"""Pixels the drawn check of :meth:`Made.metrics` renders a maze at (at most 12 px a cell)."""

FIT_STROKE = 2.5
"""Cells across the figure's strokes that :func:`fit_cells` asks for: room for a maze inside
a letter, not a corridor one cell wide."""
FIT_SHARE = 0.3
"""Maze cells :func:`fit_cells` aims for, as a share of a difficulty's grid: a figure fills
about this much of its picture (the horse a third), so a typical picture keeps its size."""
FIT_MAX = 160
"""The most cells across :func:`fit_cells` gives: 1.1 mm a cell on a page 180 mm wide."""
PRINT_CELL_MM = 1.5
"""The smallest printed cell of a book's page (mm): a pencil still finds its way."""


def fit_cells(
    picture: Image,
    *,
    difficulty: str = "medium",
    threshold: float | None = None,
    invert: bool = False,
    most: int = FIT_MAX,
) -> int:
    """Cells across a picture so its thinnest strokes are walkable and its size fits a
    difficulty.

    A difficulty's grid (:data:`mazeart.analyze.DIFFICULTIES`, ``c`` cells
    across) stands for ``FIT_SHARE * c**2`` maze cells, whatever the picture:
    the figure of a horse and the letters of a word then make mazes of about
    the same size. The strokes, measured as twice the figure's area over its
    perimeter, get at least :data:`FIT_STROKE` cells across, which may make a
    word's maze larger than its difficulty asks (walkable comes first); the
    result is at most :data:`FIT_MAX`.

    Parameters
    ----------
    picture : PIL.Image.Image
    difficulty : {'easy', 'medium', 'hard'}, default 'medium'
    threshold, invert
        How the picture is split into figure and ground.
    most : int, default FIT_MAX
        The most cells across (a page's print size, say).

    Returns
    -------
    int

    Examples
    --------
    >>> from PIL import Image, ImageDraw
    >>> disc, bar = Image.new("L", (400, 400), 255), Image.new("L", (400, 400), 255)
    >>> ImageDraw.Draw(disc).ellipse((50, 50, 350, 350), fill=0)
    >>> ImageDraw.Draw(bar).rectangle((20, 190, 380, 210), fill=0)  # a stroke 20 px wide
    >>> fit_cells(disc, difficulty="easy"), fit_cells(disc), fit_cells(bar, difficulty="easy")
    (20, 37, 60)
    """
    return _fit(picture, difficulty, threshold, invert, most)[0]


def _fit(
    picture: Image, difficulty: str, threshold: float | None, invert: bool, most: int
) -> tuple[int, float]:
    """:func:`fit_cells`, and the strokes' width in those cells."""
    check_choice(difficulty, "difficulty", tuple(DIFFICULTIES))
    most = check_int(most, "most", minimum=8)
    across = int(DIFFICULTIES[difficulty]["cells"])  # type: ignore[call-overload]
    _, area, stroke = _figure_strokes(picture, threshold, invert)
    if area == 0:
        return min(most, across), 0.0
    width = picture.width
    by_size = width * math.sqrt(FIT_SHARE * across * across / area)
    by_stroke = FIT_STROKE * width / max(stroke, 1e-9)
    cells = int(min(most, max(8, round(by_size), math.ceil(by_stroke))))
    return cells, stroke * cells / width


def _drop_specks(
    weights: NDArray[np.int32], min_island: int
) -> tuple[NDArray[np.int32], tuple[int, int]]:
    """The preset without the free islands smaller than ``min_island`` cells (noise, JPEG
    artefacts: each would cost a bridge), and how many were dropped, with their cells.
    The largest island always stays."""
    from mazeart._kernels.parts import label_mask

    free = weights == FREE
    labels, n = label_mask(free)
    if n <= 1:
        return weights, (0, 0)
    sizes = np.bincount(labels.reshape(-1), minlength=n + 1)
    sizes[0] = 0
    small = sizes < min_island
    small[0] = False
    small[int(np.argmax(sizes))] = False
    if not small.any():
        return weights, (0, 0)
    drop = small[labels]
    out = weights.copy()
    out[drop] = FORBIDDEN
    return out, (int(small.sum()), int(drop.sum()))


def _rooms(
    rooms: Any, weights: NDArray[np.int32], source: Source, picture: Image | None
) -> list[RoomSpec] | None:
    """Rooms (a rooms file's path, dicts shaped like its rooms, Room objects or
    ``(Room, doors)`` pairs, or a list of them) placed on the preset's grid."""
    if rooms is None:
        return None
    size = None if picture is None else _picture_size(source, picture)
    return resolve_rooms(rooms, weights.shape, picture_size=size)


def _picture_size(source: Source, picture: Image) -> tuple[int, int]:
    """The picture's width and height in its own pixels, upright, before any reduction for
    the grid (what a rooms file in pixels measures)."""
    from PIL import Image as PILImage

    if isinstance(source, PILImage.Image):
        return source.size
    if not isinstance(source, str | os.PathLike):
        return picture.size
    try:
        with PILImage.open(source) as img:  # the header: size and orientation
            width, height = img.size
            turned = img.getexif().get(0x0112) in (5, 6, 7, 8)  # EXIF: a quarter turn
    except (OSError, ValueError, SyntaxError):
        return picture.size
    return (height, width) if turned else (width, height)


def _guidance(weights: NDArray[np.int32], picture: Any, opts: dict[str, Any]) -> Guidance | None:
    """What the picture adds, after checking that the options fit together."""
    smooth = opts["outline"] == "smooth"
    if opts["textures"] is not None and not opts["regions"]:
        raise MazeartError("textures applies with regions")
    if opts["tone"]:
        if opts["edges"] or opts["regions"] or smooth:
            raise MazeartError(
                "tone draws the whole picture; it does not mix with edges, regions "
                "or a smooth outline"
            )
        if picture is None:
            raise MazeartError("tone reads the picture's tones; give a picture, not a preset")
    elif not (opts["edges"] or opts["regions"] or smooth):
        if opts["segments"] is not None:
            raise MazeartError("segments applies with edges or regions")
        return None
    elif picture is None:
        raise MazeartError("edges, regions and a smooth outline read the picture; give one")
    elif opts["geometry"] not in (None, "cells"):
        raise MazeartError("edges, regions and a smooth outline need the cells geometry")
    from mazeart.guide import guidance

    return guidance(
        picture,
        weights,
        edges=opts["edges"],
        regions=opts["regions"],
        outline="smooth" if smooth else "cells",
        tone=opts["tone"],
        segments=opts["segments"],
        textures=_textures(opts),
        threshold=opts["threshold"],
        invert=opts["invert"],
        bias=opts.pop("texture_bias"),
    )


def _cell_id(value: Any, name: str, kind: str) -> int | None:
    """A cell id of another grid, from an int or its digits (the saved file's ids)."""
    if value is None:
        return None
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    if isinstance(value, int | np.integer) and not isinstance(value, bool) and value >= 0:
        return int(value)
    raise MazeartError(
        f"{name} on the {kind} grid is a cell id (a whole number, as the saved file numbers "
        f"its cells), got {value!r}"
    )


_CENTRE_ROOM = {"name": "centre", "kind": "room", "units": "fraction",
                "rect": [0.4, 0.4, 0.2, 0.2], "doors": [[0.4, 0.5]]}  # fmt: skip
"""``room_centre``: a fifth of the picture each way, in its middle, its door on top."""


def _figure(source: Source, opts: dict[str, Any], given: Mapping[str, Any]) -> Source:
    """A text or shape source as its picture (:mod:`mazeart.figures`), its size the cells
    across unless given; and the centre room when asked for."""
    from mazeart.figures import figure_source

    figure = figure_source(source, font=opts["font"])
    words = figure is not None and str(source).startswith("text:")
    if opts["font"] is not None and not (words or opts.get("solution_text")):
        raise MazeartError("font sets the words of a text:WORDS source or of solution_text")
    if figure is not None:
        source, across = figure
        opts["fit"] = None  # a figure is drawn to its own size
        if given.get("cells") is None:
            opts["cells"] = across
    if opts["room_centre"]:
        if opts["rooms"] is not None:
            raise MazeartError("room_centre adds one room; with a rooms file, put it there")
        opts["rooms"] = [_CENTRE_ROOM]
    return source


def _textures(opts: dict[str, Any]) -> list[str] | None:
    """The textures asked for (a list, or text ``"a,b"``), in order."""
    textures = opts["textures"]
    if textures is None:
        return None
    names = [t.strip() for t in textures.split(",")] if isinstance(textures, str) else textures
    if not names or not all(names):
        raise MazeartError(f"textures must name textures, comma-separated, got {textures!r}")
    return list(names)


def _route_lines(given: Any) -> list[NDArray[np.float64]]:
    """Route lines given in Python: one line (``[[x, y], ...]``) or several, in fractions."""
    try:
        if isinstance(given, np.ndarray) and given.ndim == 2:
            given = [given]
        elif isinstance(given, list | tuple) and given and np.ndim(given[0]) == 1:
            given = [given]
        lines = [np.asarray(line, np.float64).reshape(-1, 2) for line in given]
    except (TypeError, ValueError):
        raise MazeartError("route lines are lists of [x, y] points in fractions (0-1)") from None
    if not lines or not all(len(a) and np.isfinite(a).all() for a in lines):
        raise MazeartError("route lines are lists of [x, y] points in fractions (0-1)")
    return lines


def _routed(opts: Mapping[str, Any]) -> bool:
    """Whether the options ask for a route the solution follows."""
    return any(opts.get(k) is not None for k in ("route", "solution_text", "solution_picture"))


def _figure_mask(picture: Image | None, opts: Mapping[str, Any], plain: NDArray[np.bool_]) -> Any:
    """Where a route's strokes may go, at the picture's resolution: its figure (painted
    over), or without a picture ``plain`` (the free cells, or the whole grid)."""
    if picture is None:
        return plain
    from mazeart.image import figure_coverage, paint_over

    if opts.get("tone"):  # the whole picture is maze
        return np.ones(picture.size[::-1], bool)
    cover = figure_coverage(picture, threshold=opts["threshold"], invert=opts["invert"])
    return paint_over(cover, _paint(opts)) >= 0.5


ROUTE_HEIGHT = 24
"""How many cells tall a solution's words or picture are drawn when ``cells`` is not given:
the picture gets the cells it takes (at most :data:`ROUTE_MOST_CELLS` across)."""
ROUTE_MOST_CELLS = 250


def _cells_for_strokes(source: Source, opts: dict[str, Any]) -> int:
    """Cells across a picture so that the solution's words or picture, fitted into its
    figure, are :data:`ROUTE_HEIGHT` cells tall (never fewer than ``opts['cells']``)."""
    from PIL import Image as PILImage

    from mazeart.route import strokes_box

    cells = int(opts["cells"])
    drawing = _drawing(opts)
    if drawing is None:  # a route file: its lines are what they are
        return cells
    if isinstance(source, PILImage.Image):
        picture = source
    elif isinstance(source, str | os.PathLike) and _rectangle(source) is None:
        if isinstance(source, str) and ("\n" in source or not source.strip()):
            return cells  # a preset in text
        path = existing_file(source, "a picture")
        if is_preset_file(path) or path.suffix.lower() in (".npy", ".txt"):
            return cells
        picture = _open_picture(path, cells)
    else:
        return cells
    picture = _working_size(picture, ROUTE_MOST_CELLS)
    figure = _figure_mask(picture, opts, np.ones(picture.size[::-1], bool))
    top, bottom = strokes_box(drawing, figure)[1::2]
    tall = (bottom - top) / figure.shape[1]  # the strokes' height in cells, a cell across
    return int(min(ROUTE_MOST_CELLS, max(cells, math.ceil(ROUTE_HEIGHT / max(tall, 1e-9)))))


def _drawing(opts: Mapping[str, Any]) -> Image | None:
    """The picture whose strokes the solution draws: the options' words, set, or their
    picture; None for a route file."""
    from mazeart.route import text_picture

    if opts.get("solution_text"):
        return text_picture(opts["solution_text"], font=opts.get("font"))
    if opts.get("solution_picture"):
        return _open_picture(existing_file(opts["solution_picture"], "a picture"), None)
    return None


def _route_shape(opts: Mapping[str, Any]) -> dict[str, float]:
    """The route's decoys and wander, as the options say (the wander by default
    :data:`mazeart.route.WANDER` for a word or picture, none for a route file, which is
    followed as drawn)."""
    from mazeart.route import WANDER

    wander = opts.get("wander")
    if wander is None:
        drawing = opts.get("solution_text") or opts.get("solution_picture")
        wander = WANDER if drawing else 0.0
    return {"decoys": float(opts["decoys"]), "wander": float(wander)}


ROUTE_DRAWN = 0.9
"""The share of a solution's words or picture below which the report says what is left out."""


def _route(
    source: Source,
    opts: Mapping[str, Any],
    grid: Grid,
    free: NDArray[np.bool_],
    places: NDArray[np.float64],
    figure: NDArray[np.bool_],
    picture: Image | None,
    warnings: list[str],
) -> NDArray[np.int64]:
    """The cells the solution follows (:mod:`mazeart.route`), from the options' route file,
    words or picture."""
    from mazeart.route import plan_route, read_route, stroke_points

    drawing = _drawing(opts)
    if drawing is None:
        given = opts["route"]
        if isinstance(given, str | os.PathLike):  # pixels of the picture as given (no picture:
            size = grid.size if picture is None else _picture_size(source, picture)
            lines = read_route(given, (float(size[0]), float(size[1])))  # the grid's cells)
        else:  # lines of points in fractions of the picture (a design's)
            lines = _route_lines(given)
        return plan_route(grid, free, places, lines=lines)
    drawn: dict[str, float] = {}
    route = plan_route(grid, free, places, strokes=stroke_points(drawing, figure), drawn=drawn)
    if drawn["share"] < ROUTE_DRAWN:
        warnings.append(
            f"the solution draws {drawn['share']:.0%} of the strokes: where they cross or close "
            "in on each other a route cannot (more --cells draws more)"
        )
    return route


def _nearest(
    at: At, places: NDArray[np.float64], edge: NDArray[np.bool_], free: NDArray[np.bool_]
) -> int:
    """The cell nearest ``at`` (``places`` are the cells' centres in fractions of the
    picture) among the ``edge`` cells (else among the ``free`` ones)."""
    pick = edge if edge.any() else free
    if not pick.any():
        raise MazeartError("no cell of the grid is free to put an end on")
    ids = np.flatnonzero(pick.reshape(-1))
    d = np.hypot(places[ids, 0] - at.x, places[ids, 1] - at.y)
    return int(ids[np.argmin(d)])


def _square_end(value: Any, name: str, preset: NDArray[np.int32]) -> tuple[int, int] | None:
    """An end on the square grid: a ``(row, col)``, from a pair, text ``"ROW,COL"`` or an
    :class:`~mazeart.recipe.At` (the free cell on the figure's edge nearest it)."""
    if not isinstance(value, At):
        return _cell(value, name)
    rows, cols = preset.shape
    free = preset == FREE
    out = ~np.pad(free, 1)
    edge = free & (out[:-2, 1:-1] | out[2:, 1:-1] | out[1:-1, :-2] | out[1:-1, 2:])
    r, c = np.divmod(np.arange(rows * cols), cols)
    places = np.stack([(c + 0.5) / cols, (r + 0.5) / rows], axis=1)
    return divmod(_nearest(value, places, edge.reshape(-1), free.reshape(-1)), cols)


def _cell(value: Any, name: str) -> tuple[int, int] | None:
    """A ``(row, col)`` from a pair or from text ``"ROW,COL"``."""
    if value is None or not isinstance(value, str):
        return value
    try:
        r, c = (int(part) for part in value.split(","))
    except ValueError:
        raise MazeartError(f"{name} must be ROW,COL (e.g. 0,12), got {value!r}") from None
    return r, c


def square_only(maze: Maze, what: str) -> Maze:
    """``maze`` when it is on the square grid; else a one-line refusal naming ``what``."""
    if not maze.is_square:
        raise MazeartError(f"{what} is for the square grid only, not the {maze.grid.kind} grid")
    return maze


def _saved(source: Source) -> Maze | None:
    """The maze a source is when it is a saved maze (a Maze, or a saved-maze file), else None."""

    if isinstance(source, Maze):
        return source
    if isinstance(source, str | os.PathLike) and is_maze_file(source):
        return load_maze(source)
    return None


def _seed(rng: RngLike) -> int:
    """The run's seed: given, drawn from a given Generator, or fresh."""
    if rng is None:
        return fresh_seed()
    if isinstance(rng, np.random.Generator):
        return int(rng.integers(0, 2**31))
    as_generator(rng)  # checks type and sign
    return int(rng)


# ----------------------------------------------------------------------------- making


def make(
    source: Source,
    *,
    recipe: Recipe | None = None,
    rng: RngLike = None,
    index: int = 0,
    record: bool = False,
    progress: Callable[[int], None] | None = None,
    args: Sequence[str] = (),
    jobs: int | None = 1,
    executor: Executor | None = None,
    **options: Any,
) -> Made:
    """Make a maze from a picture, a preset or a saved maze: the whole ``mazeart`` recipe.

    Parameters
    ----------
    source : path, PIL.Image.Image, (H, W) ndarray of int, str or Maze
        A picture (any format Pillow reads, or SVG with ``mazeart[svg]``), a
        preset (``.npy``, ``.txt``, a preset ``.png``, an array, or ASCII text with a newline; see
        :mod:`mazeart.weights`), ``"WxH"`` for a plain rectangle (``"30x20"``),
        ``"text:WORDS"`` or a shape ``"circle:N"`` (``triangle``, ``hexagon``, ``heart``;
        ``N`` cells across; :mod:`mazeart.figures`), or a saved maze (``.json`` or a
        :class:`Maze`), which is returned as it is.
    recipe : Recipe, optional
        The options as one checked object (:class:`mazeart.Recipe`); ``options``
        given beside it win.
    rng : int or numpy.random.Generator, optional
        The run's seed (fresh when omitted; a Generator gives one). The maze
        records the seed that makes it again.
    index : int, default 0
        Which maze of a series this is (book page, game level): its seed is
        shifted by ``index`` (times ``best_of``).
    record : bool, default False
        Keep the carve order for an animation (``save(made, "carve.gif")``).
    progress : callable, optional
        Called with the number of ``best_of`` candidates made so far.
    args : sequence of str, optional
        Options of the algorithm as command-line text (``["--select", "newest"]``).
    jobs : int or None, default 1
        ``best_of`` candidates are made here one after another, or on a process
        pool of this many workers (None: every core, as the command line does).
        The kept maze is the same for any number.
    executor : concurrent.futures.Executor, optional
        Where to make the candidates instead (a Dask ``client.get_executor()``;
        ``jobs`` is then left at its default).
    **options
        The command line's options, by their Python names:

        - picture: ``cells`` (80), ``threshold``, ``invert``, ``coverage`` (0.5),
          ``preset`` (read a PNG as a preset), ``colour_rooms``;
        - the picture's guidance: ``edges``, ``regions``, ``segments``,
          ``textures``, ``tone``, ``outline`` (``'cells'`` or ``'smooth'``);
        - generation: ``algorithm`` (``'weighted-dfs'``), ``geometry``,
          ``entrance``, ``exit`` (``(row, col)`` or ``"ROW,COL"``), ``rooms``
          (a rooms file, Room objects, or dicts shaped like a rooms file's
          rooms; in cells, fractions of the picture or its pixels: see
          :mod:`mazeart.rooms`), ``difficulty`` (``'easy'``,
          ``'medium'``, ``'hard'``: picks ``cells``, ``algorithm`` and ``braid``
          where they are not given), ``best_of`` (1);
        - shaping: ``islands`` (``'connect'``), ``prune``, ``braid`` (0),
          ``place`` (``"loot=5,spawn=2"``), ``min_island`` (3: a picture's
          islands of fewer cells are left out; 0 keeps every one);
        - anything else is an option of the algorithm (e.g. ``select='newest'``
          for growing-tree; with ``regions``, ``bias`` is the textures' strength).

    Returns
    -------
    Made

    Raises
    ------
    MazeartError
        For a source that cannot be read or options that do not fit together.
    TypeError
        For an option of the wrong type.

    Examples
    --------
    >>> made = make("30x20", rng=4)  # a plain rectangle, 30 cells across
    >>> made.summary()
    'weighted-dfs, cells, seed 4, 30 x 20 grid, 600 maze cells; 1 part'
    >>> from skimage import data
    >>> from PIL import Image
    >>> horse = make(Image.fromarray(data.horse()), cells=40, algorithm="wilson", rng=1)
    >>> horse.maze.shape, horse.maze.meta["algorithm"]
    ((33, 40), 'wilson')
    >>> make("30x20", rng=4, braid=2)
    Traceback (most recent call last):
    ...
    mazeart.errors.MazeartError: braid must be a finite number in [0, 1], got 2
    """
    if "seed" in options:
        raise TypeError("make() takes the seed as rng=SEED (an int or a numpy Generator)")
    token = _OPENED.set({})
    try:
        return _make(source, recipe=recipe, rng=rng, index=index, record=record,
                     progress=progress, args=args, jobs=jobs, executor=executor,
                     **options)  # fmt: skip
    finally:
        _OPENED.reset(token)


_OPENED: contextvars.ContextVar[dict[tuple[str, int | None], Image] | None] = (
    contextvars.ContextVar("mazeart_opened", default=None)
)
"""The pictures one :func:`make` has decoded: sizing a route and then reading the picture
decode it once (nothing is kept after the make)."""


def _open_picture(path: Path, grid: int | None) -> Image:
    """:func:`open_image`, once a :func:`make` (an SVG drawing once a grid size)."""
    memo = _OPENED.get()
    if memo is None:
        return open_image(path, grid=grid)
    from mazeart._svg import is_svg

    key = (str(path), grid if is_svg(path) else None)
    if key not in memo:
        memo[key] = open_image(path, grid=grid)
    return memo[key]


def _make(
    source: Source,
    *,
    recipe: Recipe | None,
    rng: RngLike,
    index: int,
    record: bool,
    progress: Callable[[int], None] | None,
    args: Sequence[str],
    jobs: int | None,
    executor: Executor | None,
    **options: Any,
) -> Made:
    if recipe is not None:
        if not isinstance(recipe, Recipe):
            raise TypeError(f"recipe must be a Recipe, got {type(recipe).__name__}")
        chosen = {k: v for k, v in recipe.as_dict().items() if v != DEFAULTS[k]}
        options = {**chosen, **options}
    if executor is not None and jobs == 1:  # the default gives way to a given executor
        jobs = None
    check_jobs(jobs, executor)
    index = check_int(index, "index", minimum=0)
    if isinstance(source, str | os.PathLike) and is_design_file(source):
        design, base = load_design(source)  # its options, with those given here winning
        seeded: dict[str, Any] = {"rng": rng} if rng is not None else {}
        return make_design(design, base=base, index=index, record=record, progress=progress,
                           args=args, jobs=jobs, executor=executor, **seeded,
                           **options)  # fmt: skip
    saved = _saved(source)
    if saved is not None:
        given = sorted(k for k, v in options.items() if v != _DEFAULTS.get(k, object()))
        given += [t for t in args if t.startswith("--")]
        if given or rng is not None or record:
            names = ", ".join(given + ["rng"] * (rng is not None) + ["record"] * record)
            raise MazeartError(f"{names}: generation options do not apply to a saved maze")
        return Made(saved)
    if isinstance(source, str | os.PathLike) and Path(source).suffix.lower() == ".json":
        load_maze(source)  # not a saved maze: say what is wrong with it
    recipe, extra = Recipe.split(options)  # every value checked, once
    opts = recipe.as_dict()
    difficulty = opts["difficulty"]
    if difficulty is not None:
        for name, value in DIFFICULTIES[difficulty].items():
            if options.get(name) is None:
                opts[name] = value
    # a picture is sized to its difficulty (fit_cells) unless cells are given
    opts["fit"] = difficulty if options.get("cells") is None else None
    if _routed(opts) and opts["edges"] is None:  # a route is the one way: no walled regions
        opts["edges"] = False
    source = _figure(source, opts, options)  # its size wins over a difficulty's
    for name in ("cells", "algorithm", "braid"):
        if opts[name] is None:
            opts[name] = _DEFAULTS[name]
    if _routed(opts) and options.get("cells") is None and not opts["fit"]:
        opts["cells"] = _cells_for_strokes(source, opts)
    if opts["regions"]:
        if options.get("algorithm") not in (None, "flow"):
            raise MazeartError(
                f"regions draws its textures with the flow generator, not {opts['algorithm']}"
            )
        opts["algorithm"] = "flow"
        opts["texture_bias"] = check_number(extra.pop("bias", 0.9), "bias", low=0, high=1)
    else:
        opts["texture_bias"] = 0.9
    kind = opts["grid"]
    if (
        kind != "square"
        and options.get("algorithm") is None
        and difficulty is None
        and not opts["regions"]
    ):
        opts["algorithm"] = "backtracker"  # the weighted DFS is the square grid's own
    algo = get_algorithm(opts["algorithm"])
    opts["algorithm"] = algo.name
    if args:
        parsed = algo.parse_args(args)
        if opts["regions"] and "bias" in parsed:
            opts["texture_bias"] = check_number(parsed.pop("bias"), "bias", low=0, high=1)
        extra = {**extra, **parsed}
    k = int(opts["best_of"])
    step("reading the picture")
    if kind != "square" and opts["weave"]:
        raise MazeartError(f"weave mazes are on the square grid, not the {kind} grid")
    plan = (_grid_plan if kind != "square" else _weave_plan if opts["weave"] else _square_plan)(
        source, opts, options, extra, k
    )
    seed = _seed(rng)
    check_seed(seed, span=index * k + k)
    seeds = [seed + index * k + i for i in range(k)]
    step("carving")
    recording = None
    if record and plan.records:
        from mazeart.animate import Recording

        recording = Recording()
        with recording:
            kept, maze, report = _choose(plan.job, seeds, opts["difficulty"], record, jobs,
                                         executor, progress)  # fmt: skip
    else:
        kept, maze, report = _choose(plan.job, seeds, opts["difficulty"], record, jobs, executor,
                                     progress)  # fmt: skip
    return Made(
        maze,
        preset=plan.preset,
        report=report,
        candidates=k,
        kept=kept,
        picture=plan.picture,
        threshold=plan.threshold,
        invert=opts["invert"],
        recording=recording,
        specks=plan.specks,
        min_island=int(opts["min_island"]),
        notes=tuple(plan.notes),
        warnings=(*plan.warnings, *_unreadable(plan, report, maze)),
        laid=plan.laid,
    )


MANY_PARTS = 10
"""Parts of a figure from which the report says it may not read as one picture."""


def _unreadable(plan: _Plan, report: Any, maze: Maze) -> list[str]:
    """What the report advises when a picture's maze will not read: its figure in many
    parts joined by bridges, or most of it dropped as specks."""
    if plan.picture is None or maze.guide.tone is not None:
        return []
    out = []
    parts = int(getattr(report, "parts", 0) or 0)
    if parts >= MANY_PARTS:
        out.append(
            f"the figure falls into {parts} parts joined by bridges and may not read as one "
            "picture (--mode tone draws a photograph by its tones; more --cells keeps thin "
            "links; --islands separate leaves them apart)"
        )
    dropped = plan.specks[1]
    if dropped and dropped > maze.n_cells:
        out.append(
            f"most of the figure ({dropped} of {dropped + maze.n_cells} cells) was dropped as "
            "specks (--min-island 1 keeps them; --mode tone draws a photograph by its tones)"
        )
    return out


@dataclass(frozen=True)
class _Plan:
    """What :func:`make` has read and decided before it makes a candidate, on any grid:
    the job that makes one from its seed (picklable, so a process pool can run it), and
    what :class:`Made` tells of the source."""

    job: _Job
    preset: NDArray[np.int32] | None = None
    picture: Image | None = None
    threshold: float | None = None
    specks: tuple[int, int] = (0, 0)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    records: bool = False  # whether the job's carve can be recorded (the square generators)
    laid: Callable[[], NDArray[np.float64]] | None = None  # the cells in picture fractions


def _choose(
    job: _Job,
    seeds: list[int],
    difficulty: str | None,
    record: bool,
    jobs: int | None,
    executor: Executor | None,
    progress: Callable[[int], None] | None,
) -> tuple[int, Maze, ShapeReport]:
    """The kept candidate (the one of ``seeds`` nearest the difficulty: ``best_of``), its
    number and its shaping report; made here one after another, or on a pool."""
    k = len(seeds)
    if k == 1:
        maze, report = job.make(seeds[0])
        return 0, maze, report
    if record or check_jobs(jobs, executor) == 1:  # a recording watches this process
        reports: list[ShapeReport] = []

        def candidate(i: int) -> Maze:
            maze, report = job.make(seeds[i])
            reports.append(report)
            return maze

        best = best_of(candidate, k, target=difficulty or "hard", progress=progress)
        return best.candidate, best.maze, reports[best.candidate]
    made = []
    for maze, score, report in ordered_map(job, seeds, executor=executor, jobs=jobs):
        made.append((maze, score, report))
        if progress is not None:
            progress(len(made))
    pick = pick_best([score for _, score, _ in made], difficulty or "hard")
    return pick, made[pick][0], made[pick][2]


def _square_plan(
    source: Source, opts: dict[str, Any], given: Mapping[str, Any], extra: dict[str, Any], k: int
) -> _Plan:
    """The square grid: the source's preset, the picture's guidance and rooms."""
    preset, picture = _read_source(source, opts)
    rooms = _rooms(opts["rooms"], preset, source, picture)
    notes = _read_as(picture, preset, opts, given)
    min_island = int(opts["min_island"])
    warnings = []
    if picture is not None and not opts["tone"] and not opts["colour_rooms"]:
        warnings = fit_warnings(picture, preset, threshold=opts["threshold"], invert=opts["invert"])
    specks = (0, 0)
    if picture is not None and min_island > 1 and not opts["tone"]:  # tone fills it all
        preset, specks = _drop_specks(preset, min_island)
    if k > 1:
        check_work(k, preset.size, f"best_of {k}")
    guided = _guidance(preset, picture, opts)
    if guided is not None and picture is not None and not (guided.weights == FREE).any():
        h, w = preset.shape  # (a smooth outline keeps the cells whose centre is inside it)
        thin = fit_warnings(picture, preset, threshold=opts["threshold"], invert=opts["invert"])
        hint = f": {thin[-1]}" if thin and "strokes" in thin[-1] else ""
        raise MazeartError(f"no cell of the {w} x {h} grid lies inside the picture's outline, "
                           f"nothing to carve{hint}")  # fmt: skip
    if guided is not None and guided.angle is not None:
        extra = {**extra, "angle": guided.angle, "bias": guided.bias}
    arguments = dict(
        algorithm=opts["algorithm"],
        geometry=opts["geometry"],
        entrance=_square_end(opts["entrance"], "entrance", preset),
        exit=_square_end(opts["exit"], "exit", preset),
        rooms=rooms,
        islands=opts["islands"],
        prune=opts["prune"],
        braid=float(opts["braid"]),
        place=opts["place"],
        walls=None if guided is None else guided.walls,
        inside=None if guided is None else guided.inside,
        **extra,
    )
    if _routed(opts):
        from mazeart.grids import square_grid
        from mazeart.weights import is_free

        grid = square_grid(*preset.shape)
        carved = preset if guided is None else guided.weights  # tone fills the whole picture
        free = is_free(carved).reshape(-1)
        arguments["route"] = _route(source, opts, grid, free, grid.centres / np.asarray(grid.size),
                                    _figure_mask(picture, opts, free.reshape(preset.shape)),
                                    picture, warnings)  # fmt: skip
        arguments.update(_route_shape(opts))
    walls = "edge walls" if opts["edges"] else "outline walls"
    job = _Candidate(preset if guided is None else guided.weights, arguments, walls,
                     None if guided is None else guided.guide)  # fmt: skip
    return _Plan(job, preset=preset, picture=picture, threshold=opts["threshold"],
                 specks=specks, notes=notes, warnings=warnings, records=True)  # fmt: skip


def _point(value: Any, scale: float) -> tuple[float, float] | None:
    """The polar grid's centre as ``(x, y)`` pixels of the working picture, from ``(x, y)`` or
    ``"X,Y"`` pixels of the picture as given (it may have been reduced)."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            x, y = (float(part) for part in value.split(","))
        except ValueError:
            raise MazeartError(
                f"centre must be X,Y in pixels (e.g. 120,80), got {value!r}"
            ) from None
    else:
        x, y = value
    x = check_number(x, "centre x")  # its range is the picture's (fit_grid)
    y = check_number(y, "centre y")
    return x / scale, y / scale


def _grid_plan(
    source: Source, opts: dict[str, Any], given: Mapping[str, Any], extra: dict[str, Any], k: int
) -> _Plan:
    """Another grid (see :mod:`mazeart.grids.recipe`): laid over the picture (or ``WxH``)."""
    from PIL import Image as PILImage

    from mazeart.grids.recipe import SQUARE_ONLY, grid_for_rectangle, grid_over_picture

    kind = opts["grid"]

    for name, what in SQUARE_ONLY.items():
        value = given.get(name)
        if value not in (None, False, _DEFAULTS[name]):
            raise MazeartError(f"the square grid alone takes {what}, not the {kind} grid")
    if opts["geometry"] not in (None, "cells"):
        raise MazeartError(f"the blocks geometry is the square grid's; the {kind} grid has cells")
    if opts["centre"] is not None and kind != "polar":
        raise MazeartError(f"centre places the polar grid; the {kind} grid is laid edge to edge")
    ends = {name: None if isinstance(opts[name], At) else _cell_id(opts[name], name, kind)
            for name in ("entrance", "exit")}  # fmt: skip
    cells = check_int(opts["cells"], "cells", maximum=current().max_cells)
    min_island = int(opts["min_island"])
    coverage = float(opts["coverage"])
    threshold = opts["threshold"]
    if threshold is not None:
        threshold = check_number(threshold, "threshold", low=0, high=255)
    picture, specks, guide, labels = None, (0, 0), None, None
    notes: list[str] = []
    rect = _rectangle(source)
    if rect is not None:
        if opts["tone"] or opts["mode"] == "tone":
            raise MazeartError("tone reads the picture's tones; give a picture, not WxH")
        if opts["edges"] or opts["regions"] or opts["outline"] == "smooth":
            raise MazeartError(
                "edges, regions and a smooth outline read the picture; give one, not WxH"
            )
        if opts["colour_rooms"]:
            raise MazeartError("colour rooms are read off the picture; give one, not WxH")
        grid = grid_for_rectangle(kind, rect.shape[1], rect.shape[0])
        weights = np.full(grid.n_cells, FREE, np.int32)
        layer = _paint(opts)
        if layer is not None:  # stretched over the grid, read at each cell's centre
            at = np.clip(grid.centres / np.asarray(grid.size, float), 0, 1 - 1e-9)
            held = layer[(at[:, 1] * layer.shape[0]).astype(int),
                         (at[:, 0] * layer.shape[1]).astype(int)]  # fmt: skip
            weights[held == 1] = FORBIDDEN
        transform = None
    else:
        if isinstance(source, PILImage.Image):
            picture = source
        elif isinstance(source, str | os.PathLike):
            path = existing_file(source, "a picture")
            if is_preset_file(path) or path.suffix.lower() in (".npy", ".txt"):
                raise MazeartError(
                    f"{path}: a preset is a square grid; for the {kind} grid give a picture or WxH"
                )
            picture = _open_picture(path, cells)
        else:
            raise MazeartError(f"the {kind} grid is laid over a picture or WxH, not a preset")
        given_width = picture.width
        picture = _working_size(picture, cells << opts["detail"] if kind == "adaptive" else cells)
        centre = _point(opts["centre"], given_width / picture.width)
        notes = _grid_mode(kind, picture, opts, given)
        if opts["tone"] and opts["edges"]:
            raise MazeartError("tone draws the whole picture; it does not mix with edges")
        if opts["segments"] is not None and not (opts["edges"] or opts["regions"]):
            raise MazeartError("segments applies with edges or regions")
        if opts["textures"] is not None and not opts["regions"]:
            raise MazeartError("textures applies with regions")
        if opts["tone"] and opts["regions"]:
            raise MazeartError("tone draws the whole picture; it does not mix with regions")
        if opts["tone"] and opts["outline"] == "smooth":
            raise MazeartError(
                "tone draws the whole picture; it does not mix with a smooth outline"
            )
        laid = grid_over_picture(
            kind, picture, cells=cells, threshold=threshold, invert=opts["invert"],
            coverage=coverage, min_island=min_island, centre=centre, tone=opts["tone"],
            edges=bool(opts["edges"]), segments=opts["segments"], regions=opts["regions"],
            outline=opts["outline"] == "smooth", paint=_paint(opts), detail=opts["detail"],
        )  # fmt: skip
        grid, weights, specks, labels = laid.grid, laid.weights, laid.specks, laid.labels
        transform = laid.transform
        if opts["regions"] and labels is not None:
            from mazeart.grids.recipe import grid_textures

            angle, bias = grid_textures(picture, grid, transform, labels, weights == FREE,
                                        textures=_textures(opts),
                                        bias=opts["texture_bias"])  # fmt: skip
            extra = {**extra, "angle": angle, "bias": bias}
            labels = labels if opts["edges"] else None
        if laid.darkness is not None:
            tone = np.asarray(laid.darkness, dtype=np.float64)  # then rounded: 0.01, not
            guide = Guide(tone=np.round(tone, 2))  # float32's 0.0099999998
        elif laid.outline:
            guide = Guide(outline=laid.outline)
            extra = {**extra, "inside": laid.inside}
        else:
            notes += _grid_notes(kind, picture, threshold, opts["invert"], photo=False)
    check_cells(1, grid.n_cells, f"the {kind} grid", kind=kind)
    if k > 1:
        check_work(k, grid.n_cells, f"best_of {k}")
    rooms = _grid_rooms(opts, source, picture, grid, transform, weights == FREE)
    placed = None
    if transform is not None and picture is not None:  # the cells in fractions of the picture
        placed = functools.partial(_placed, grid, transform, picture.size)
    if any(isinstance(opts[name], At) for name in ends):
        places = grid.centres / np.asarray(grid.size, float) if placed is None else placed()
        a, b = grid.wall_cells[:, 0], grid.wall_cells[:, 1]
        free = weights == FREE
        edge = np.zeros(grid.n_cells, bool)
        edge[a[(b < 0) | ~free[np.maximum(b, 0)]]] = True
        edge[b[(b >= 0) & ~free[a]]] = True
        for name in ends:
            if isinstance(opts[name], At):
                ends[name] = _nearest(opts[name], places, free & edge, free)
    arguments = dict(algorithm=opts["algorithm"], islands=opts["islands"], prune=opts["prune"],
                     braid=float(opts["braid"]), place=opts["place"], labels=labels,
                     rooms=rooms, **ends, **extra)  # fmt: skip
    warned: list[str] = []
    if _routed(opts):
        places = grid.centres / np.asarray(grid.size, float) if placed is None else placed()
        held = weights == FREE
        shape = (round(1000 * grid.size[1] / grid.size[0]), 1000)
        figure = _figure_mask(picture, opts, np.ones(shape, bool))
        arguments["route"] = _route(source, opts, grid, held, places, figure, picture, warned)
        arguments.update(_route_shape(opts))
    return _Plan(_GridCandidate(weights, grid, arguments, guide), picture=picture,
                 threshold=threshold, specks=specks, notes=notes, laid=placed,
                 warnings=warned)  # fmt: skip


def _placed(grid: Grid, transform: Any, size: tuple[int, int]) -> NDArray[np.float64]:
    """The centres of ``grid``'s cells in fractions of a picture of ``size`` pixels it is
    laid over by ``transform``."""
    return np.asarray(transform.to_pixels(grid.centres), float) / np.asarray(size, float)


def _grid_rooms(
    opts: dict[str, Any],
    source: Source,
    picture: Image | None,
    grid: Grid,
    transform: Any,
    free: NDArray[np.bool_],
) -> list[Room] | None:
    """Rooms on another grid: a rooms file's (in fractions of the picture or its pixels,
    or cell ids), and with ``colour_rooms`` the picture's red regions and blue doors."""
    from mazeart.rooms import grid_colour_rooms, place_rooms_on_grid

    if opts["rooms"] is None and not opts["colour_rooms"]:
        return None
    rooms: list[Room] = []
    if opts["colour_rooms"] and picture is not None:
        rgb = np.asarray(picture.convert("RGB"))
        rooms = grid_colour_rooms(rgb, grid, transform, free)
    if opts["rooms"] is not None:
        frame, size = None, None
        if picture is not None:
            (x0, y0), (x1, y1) = transform.to_grid([[0, 0], list(picture.size)])
            frame, size = (x0, y0, x1 - x0, y1 - y0), _picture_size(source, picture)
        taken = free.copy()
        for room in rooms:
            taken[list(room.cells)] = False
        rooms += place_rooms_on_grid(opts["rooms"], grid, taken, frame=frame, picture_size=size)
    return rooms or None


def _grid_mode(kind: str, picture: Image, opts: dict[str, Any], given: Mapping) -> list[str]:
    """Decide how to read a picture under another grid (``mode``), as :func:`_read_as` does
    on squares: by its tones (a photograph, unless a reading option is given) or as a
    silhouette."""
    from mazeart.image import is_photograph

    mode = opts["mode"]
    chosen = [k for k in _READING if given.get(k) not in (None, False, _DEFAULTS[k])]
    if mode == "tone":
        opts["tone"] = True
    elif not opts["tone"] and opts["threshold"] is None and is_photograph(picture):
        if mode == "auto" and not chosen:
            opts["tone"] = True
            return [f"a photograph: drawn by its tones on the {kind} grid "
                    "(mode='silhouette' for its shape)"]  # fmt: skip
        return [_photo_note(", ".join(chosen) if chosen else "mode='silhouette'")]
    elif mode == "auto" and not chosen and opts["edges"] is None:
        from mazeart.image import colour_regions, figure_coverage

        if colour_regions(picture, figure_coverage(picture) >= 0.5):
            opts["edges"] = True
            return ["its colour regions walled (edges=False for the silhouette alone)"]
    return []


def _grid_notes(
    kind: str, picture: Image, threshold: float | None, invert: bool, *, photo: bool = True
) -> list[str]:
    """What the report says of a picture laid under another grid (or woven): a photograph
    read as a silhouette (unless ``photo`` is False: said already); a figure too wide (or
    tall) for the polar grid's rings to read."""
    from mazeart.image import figure_coverage, is_photograph

    notes = []
    if photo and threshold is None and is_photograph(picture):
        notes.append(_photo_note(f"the {kind} grid"))
    if kind == "polar":
        rows, cols = np.nonzero(figure_coverage(picture, threshold=threshold, invert=invert))
        if len(rows):
            h, w = int(np.ptp(rows)) + 1, int(np.ptp(cols)) + 1
            ratio = max(h, w) / max(1, min(h, w))
            if ratio > 2.0:
                shape = "wide" if w > h else "tall"
                notes.append(
                    f"the figure is {ratio:.1f} times as {shape} as it is "
                    f"{'tall' if w > h else 'wide'}: the polar grid's rings fit a round one, "
                    "so this one gets few of them (grid='hex' or 'square' reads it better)"
                )
    return notes


def _weave_plan(
    source: Source, opts: dict[str, Any], given: Mapping[str, Any], extra: dict[str, Any], k: int
) -> _Plan:
    """:func:`make` for a weave maze (see :mod:`mazeart.grids.weave`): the square preset of
    the source, carved by Kruskal's algorithm with crossings placed first."""
    from mazeart.grids.recipe import SQUARE_ONLY

    if _routed(opts):
        raise MazeartError("a route is carved on the square and the other grids, not in a weave")
    density = 0.2 if opts["weave"] is True else opts["weave"]
    density = check_number(density, "weave", low=0, high=1)
    if opts["mode"] == "tone":
        raise MazeartError("a weave maze does not take tone")
    for name, what in {**SQUARE_ONLY, "tone": "tone", "edges": "edges",
                       "outline": "a smooth outline", "segments": "segments"}.items():  # fmt: skip
        value = given.get(name)
        plain = name in ("outline", "preset") and value in ("cells", True)
        if value not in (None, False, _DEFAULTS[name]) and not plain:
            raise MazeartError(f"a weave maze does not take {what}")
    if given.get("algorithm") not in (None, "kruskal") or extra:
        raise MazeartError("a weave maze is carved by Kruskal's algorithm with its crossings")
    if opts["geometry"] not in (None, "cells"):
        raise MazeartError("a weave maze has the cells geometry")
    preset, picture = _read_source(source, opts)
    rooms = _rooms(opts["rooms"], preset, source, picture)
    min_island = int(opts["min_island"])
    specks = (0, 0)
    if picture is not None and min_island > 1:
        preset, specks = _drop_specks(preset, min_island)
    if k > 1:
        check_work(k, preset.size, f"best_of {k}")
    notes = [] if picture is None else _grid_notes("weave", picture, opts["threshold"],
                                                  opts["invert"])  # fmt: skip
    shaping = {"prune": bool(opts["prune"]), "braid": float(opts["braid"]),
               "entrance": _square_end(opts["entrance"], "entrance", preset),
               "exit": _square_end(opts["exit"], "exit", preset)}  # fmt: skip
    job = _WeaveCandidate(preset, density, opts["islands"], opts["place"], rooms, shaping)
    return _Plan(job, preset=preset, picture=picture, threshold=opts["threshold"],
                 specks=specks, notes=notes)  # fmt: skip


class _Job:
    """One ``best_of`` candidate's making, from its seed (a subclass says how): picklable,
    so that a process pool can make candidates."""

    def make(self, seed: int) -> tuple[Maze, ShapeReport]:
        raise NotImplementedError

    def __call__(self, seed: int) -> tuple[Maze, float, ShapeReport]:
        maze, report = self.make(seed)
        return maze, measure(maze).difficulty, report


@dataclass(frozen=True)
class _GridCandidate(_Job):
    """A candidate on another grid: its weights per cell and
    :func:`~mazeart.grids.generate.generate_on_grid`'s arguments, and a picture's tone."""

    weights: NDArray[np.int32]
    grid: Grid
    arguments: dict[str, Any]
    guide: Guide | None = None

    def make(self, seed: int) -> tuple[Maze, ShapeReport]:
        from mazeart.grids.generate import generate_on_grid

        walls = "outline walls" if self.arguments.get("labels") is None else "edge walls"

        def carve(arguments: dict[str, Any]) -> tuple[Maze, ShapeReport]:
            report = ShapeReport(walls=walls)
            maze = generate_on_grid(self.weights, self.grid, rng=seed, report=report,
                                    **arguments)  # fmt: skip
            if self.guide is None:
                return maze, report
            guide = dataclasses.replace(self.guide, edge_labels=maze.guide.edge_labels)
            return maze.replace(guide=guide), report

        return _doors_out(carve, self.arguments, (self.grid.n_cells,))


@dataclass(frozen=True)
class _WeaveCandidate(_Job):
    """A weave maze's candidate: the square preset, the share of crossings, tags."""

    preset: NDArray[np.int32]
    density: float
    islands: str
    place: Any
    rooms: list[RoomSpec] | None = None
    shaping: Mapping[str, Any] | None = None

    def make(self, seed: int) -> tuple[Maze, ShapeReport]:
        from mazeart.grids.weave import weave_maze
        from mazeart.shape import braid, prune_dead_ends

        shaping = self.shaping or {}
        maze = weave_maze(self.preset, seed, density=self.density, islands=self.islands,
                          rooms=self.rooms, entrance=shaping.get("entrance"),
                          exit=shaping.get("exit"))  # fmt: skip
        report = ShapeReport()
        if shaping.get("prune"):  # (neither opens nor shuts a crossing's passage)
            maze = prune_dead_ends(maze, report=report)
        if shaping.get("braid"):
            maze = braid(maze, float(shaping["braid"]), rng=seed, report=report)
        if self.place:  # on the preset's square cells and rooms (not under, not a bridge)
            from mazeart.tags import place_tags

            allowed = maze.room_mask.copy()
            allowed[: self.preset.size] |= (self.preset == FREE).reshape(-1)
            maze = place_tags(maze, self.place, seed, allowed=allowed)
        return maze, report


@dataclass(frozen=True)
class _Candidate(_Job):
    """One ``best_of`` candidate, made in a worker: the preset, :func:`generate`'s
    arguments and the report's wall kind; called with the candidate's seed."""

    weights: NDArray[np.int32]
    arguments: dict[str, Any]
    walls: str
    guide: Guide | None = None

    def make(self, seed: int) -> tuple[Maze, ShapeReport]:
        """The candidate of ``seed`` and what its shaping did, with the picture's drawing.

        With a smooth outline, an end whose door would run into the figure again (a
        notch the outline leaves no way out of) is moved: the cell in front of it joins
        the figure's cells that take no door, and the same carve gets other ends."""

        def carve(arguments: dict[str, Any]) -> tuple[Maze, ShapeReport]:
            report = ShapeReport(walls=self.walls)
            maze = generate(self.weights, rng=seed, report=report, **arguments)
            return (maze if self.guide is None else maze.replace(guide=self.guide)), report

        return _doors_out(carve, self.arguments, self.weights.shape)


def _doors_out(
    carve: Callable[[dict[str, Any]], tuple[Maze, ShapeReport]],
    arguments: dict[str, Any],
    shape: tuple[int, ...],
) -> tuple[Maze, ShapeReport]:
    """``carve(arguments)``, and with a smooth outline and ends not given, again (up to
    three times) while an end's door would run into the figure again: the cells in front
    of such doors join ``inside`` (figure that takes no door), so the same carve gets
    other ends."""
    from mazeart.outline import blocked_doors

    fixed = arguments.get("route") is not None or (
        arguments.get("entrance") is not None and arguments.get("exit") is not None
    )
    for _ in range(1 if fixed else 4):  # ends the caller chose stay where they are
        maze, report = carve(arguments)
        blocked = blocked_doors(maze)
        if not blocked:
            break
        inside = np.zeros(shape, bool)
        if arguments.get("inside") is not None:
            inside |= np.asarray(arguments["inside"], bool).reshape(shape)
        for cell in blocked:  # (row, col) on the square grid, an id on another
            at = tuple(int(i) for i in np.atleast_1d(cell))
            if all(0 <= i < n for i, n in zip(at, shape, strict=True)):
                inside[at] = True
        arguments = {**arguments, "inside": inside}
    return maze, report


@dataclass(frozen=True)
class _Level:
    """Level ``i`` of :func:`make_many`, made in a worker."""

    source: Any
    seed: int
    options: dict[str, Any]

    def __call__(self, index: int) -> Made:
        return make(self.source, rng=self.seed, index=index, jobs=1, **self.options)


def make_design(
    design: Design, *, base: str | os.PathLike[str] = ".", read: Any = None, **options: Any
) -> Made:
    """Make the maze of a design: :func:`mazeart.make` of its source with its paint, rooms,
    ends, options and seed, then its tags on the maze cells nearest their places.

    Parameters
    ----------
    design : Design
    base : path, default "."
        The folder the design's source path is relative to (its file's folder).
    read : PIL.Image.Image, optional
        The design's picture, already decoded (a studio reads it once for every preview).
    **options
        :func:`mazeart.make`'s options, winning over the design's (``rng`` over its seed).

    Returns
    -------
    Made

    Examples
    --------
    >>> made = make_design(Design(source="12x8", exit=At(1.0, 0.0), seed=3))
    >>> made.maze.exit
    (0, 11)
    """
    source: Any = design.source
    if design.picture is None and not in_words(source):
        source = Path(base) / source
    opts: dict[str, Any] = {**design.options}
    if opts.get("font") is not None:  # a font file beside the design
        opts["font"] = Path(base) / opts["font"]
    if design.paint is not None:
        opts["paint"] = design.paint
    if design.rooms:
        opts["rooms"] = {"units": "fraction", "rooms": [dict(r) for r in design.rooms]}
    for name in ("entrance", "exit"):
        if getattr(design, name) is not None:
            opts[name] = getattr(design, name)
    if design.route:
        opts["route"] = [np.asarray(line, np.float64) for line in design.route]
    opts.update(options)
    rng = opts.pop("rng", design.seed)
    if read is not None:
        made = make(read, rng=rng, **opts)
    elif design.picture is None:
        made = make(source, rng=rng, **opts)
    else:  # read through a file, as a picture given on the command line is
        import tempfile

        with tempfile.TemporaryDirectory(prefix="mazeart-") as folder:
            preset = design.picture.startswith(b"\x93NUMPY")  # a preset's cells, held
            held = Path(folder) / ("preset.npy" if preset else "picture")
            held.write_bytes(design.picture)
            made = make(held, rng=rng, **opts)
    if design.tags:
        made = _with_tags(made, design.tags)
    return made


def _with_tags(made: Made, tags: tuple[TagAt, ...]) -> Made:
    """``made`` with each tag on the free maze cell nearest its place (not an end, another
    tag's cell or a room's)."""
    maze = made.maze
    places = made.places()
    free = maze.mask.reshape(-1).copy()
    for room in maze.rooms:
        free[[maze.cell_index(c) for c in room.cells]] = False
    for cell in (maze.entrance, maze.exit, *maze.tags):
        if cell is not None:
            free[maze.cell_index(cell)] = False
    out = dict(maze.tags)
    ids = np.flatnonzero(free)
    if len(tags) > ids.size:
        raise MazeartError(f"the design's {len(tags)} tags are more than its free maze cells")
    from scipy.spatial import cKDTree

    tree = cKDTree(places[ids])
    for tag in tags:  # the nearest cell no tag took yet: a few more asked each time it is taken
        k = 1
        while True:
            near = np.atleast_1d(tree.query((tag.at.x, tag.at.y), k=min(k, ids.size))[1])
            left = [int(ids[i]) for i in near if free[ids[i]]]
            if left or k >= ids.size:
                break
            k *= 4
        at = left[0]
        free[at] = False
        out[divmod(at, maze.width) if maze.is_square else at] = tag.kind
    return dataclasses.replace(made, maze=maze.replace(tags=out))


def make_many(
    source: Source,
    count: int,
    *,
    rng: RngLike = None,
    jobs: int | None = 1,
    executor: Executor | None = None,
    **options: Any,
) -> list[Made]:
    """``count`` mazes of one recipe, maze ``i`` made with ``index=i`` (the levels of a game).

    Parameters
    ----------
    source, rng, **options
        As for :func:`make`.
    count : int
    jobs : int or None, default 1
        Make them here one after another, or on a process pool of this many
        workers (None: every core, as the command line does). The mazes are the
        same for any number.
    executor : concurrent.futures.Executor, optional
        Where to make them instead (a Dask ``client.get_executor()``; ``jobs`` is
        then left at its default).

    Returns
    -------
    list of Made
    """
    count = check_count(count, "count")
    if executor is not None and jobs == 1:  # the default gives way to a given executor
        jobs = None
    check_jobs(jobs, executor)
    seed = check_seed(_seed(rng), span=count * int(options.get("best_of") or 1))
    first = make(source, rng=seed, jobs=jobs, executor=executor, **options)
    check_cells(1, first.maze.n_cells, f"{count} levels", count=count, kind=first.maze.kind)
    if count == 1:
        return [first]
    if options.get("record"):  # a recording watches this process
        jobs, executor = 1, None
    level = _Level(source, seed, {k: v for k, v in options.items() if k != "progress"})
    rest = ordered_map(level, range(1, count), executor=executor, jobs=jobs)
    return [first, *rest]


def make_preset(source: Source, **options: Any) -> NDArray[np.int32]:
    """The preset weight matrix a picture or preset file stands for, rooms stamped in.

    Parameters
    ----------
    source : path, PIL.Image.Image, ndarray or Maze
        A picture, a preset, or a saved maze (its region becomes the free part).
    **options
        ``cells``, ``threshold``, ``invert``, ``coverage``, ``preset``,
        ``colour_rooms`` and ``rooms``, as for :func:`make`.

    Returns
    -------
    (H, W) ndarray of int32
        To save with :func:`mazeart.save_preset`, edit, and feed back.

    Examples
    --------
    >>> from skimage import data
    >>> from PIL import Image
    >>> preset = make_preset(Image.fromarray(data.horse()), cells=20)
    >>> preset.shape, int((preset == 0).sum()) > 100
    ((16, 20), True)
    """
    unknown = set(options) - {
        "cells", "threshold", "invert", "coverage", "preset", "colour_rooms", "rooms", "paint"
    }  # fmt: skip
    if unknown:
        raise TypeError(f"make_preset() got unknown option(s) {', '.join(sorted(unknown))}")
    opts = Recipe(**options).as_dict()
    source = _figure(source, opts, options)
    saved = _saved(source)
    if saved is not None:  # a saved maze: its region is the preset's free part
        region = square_only(saved, "a preset").region
        weights, picture = np.where(region, FREE, FORBIDDEN).astype(np.int32), None
    else:
        weights, picture = _read_source(source, opts)
    rooms = _rooms(opts["rooms"], weights, source, picture)
    if rooms:
        weights, _ = stamp_rooms(weights, rooms)
    return weights


def play_levels(
    source: Source | None, *, rng: RngLike = None, **options: Any
) -> Callable[[int], Maze]:
    """The levels of a game: a function ``i -> Maze`` for ``i = 0, 1, ...``.

    From a picture or preset, level ``i`` is ``make(source, index=i)``. From a
    saved maze, level 0 is that maze and later levels are new mazes of its
    shape (on its grid), by its algorithm unless ``algorithm`` is given. The
    options are checked (level 0 is made) before this returns.

    Parameters
    ----------
    source : as for :func:`make`
    rng, **options
        As for :func:`make`.

    Returns
    -------
    callable
    """
    seed = _seed(rng)
    saved = _saved(source)
    if saved is not None:
        algorithm = options.pop("algorithm", None)
        first = make(saved, **options).maze
        if not first.is_square:
            from mazeart.grids.carve import GRAPH_ALGORITHMS
            from mazeart.grids.generate import generate_on_grid

            cells = np.where(first.mask, FREE, FORBIDDEN).astype(np.int32)
            grid = first.grid
            kind = str(first.meta.get("algorithm"))
            on_grid = algorithm or (kind if kind in GRAPH_ALGORITHMS else "backtracker")

            def grid_level(i: int) -> Maze:
                if i == 0:
                    return first
                if grid.kind == "weave":  # crossings and tunnels: the weave's own Kruskal
                    from mazeart.grids.weave import weave_maze

                    rows, cols = int(grid.params["rows"]), int(grid.params["cols"])
                    preset = cells[: rows * cols].reshape(rows, cols)
                    density = float(first.meta.get("density", 0.2))
                    return weave_maze(preset, seed + i, density=density)
                return generate_on_grid(cells, grid, algorithm=on_grid, rng=seed + i)

            return grid_level
        base = np.where(first.region, FREE, FORBIDDEN).astype(np.int32)
        algorithm = algorithm or str(first.meta.get("algorithm") or DEFAULT_ALGORITHM)

        def level(i: int) -> Maze:
            if i == 0:
                return first
            return make(base, rng=seed, index=i, algorithm=algorithm, geometry=first.geometry).maze

        return level
    first = make(source, rng=seed, **options).maze
    return lambda i: first if i == 0 else make(source, rng=seed, index=i, **options).maze


def make_book(
    sources: Sequence[Source],
    path: str | os.PathLike[str],
    *,
    count: int = 10,
    rng: RngLike = None,
    progress: Callable[[int], None] | None = None,
    executor: Executor | None = None,
    jobs: int | None = None,
    cover: bool = True,
    contents: bool = True,
    bleed: float = 0.0,
    **options: Any,
) -> Path:
    """A printable puzzle book: a cover, the contents, ``count`` mazes one per page, answer
    keys at the back.

    Page ``i`` is made from ``sources[i % len(sources)]`` with ``index=i`` (a
    saved maze is used as it is), so each page prints a seed that makes it again.
    Without ``cells``, each picture is sized to the book's ``difficulty``
    (``'medium'`` unless given): :func:`fit_cells` gives its thinnest strokes
    room for a maze and every picture about the same number of cells, so a
    word's page is as much a puzzle as a horse's. The pages' mazes are made in
    parallel and the PDF is written here, page by page: the book is the same
    for any ``jobs`` or ``executor``.

    Parameters
    ----------
    sources : sequence of source
        As for :func:`make`, used in turn.
    path : str or path-like
        The ``.pdf`` to write.
    count : int, default 10
    rng, progress
        As for :func:`make` (``progress`` counts pages).
    executor : concurrent.futures.Executor, optional
        Where to make the mazes (a Dask ``client.get_executor()`` included);
        left open.
    jobs : int, optional
        Without ``executor``: worker processes (default: every core; 1 makes
        the mazes in this process).
    cover : bool, default True
        A cover: the title and a maze of the first source that is not one of
        the puzzles.
    contents : bool, default True
        A contents page, a line per puzzle.
    bleed : float, default 0
        Millimetres of bleed for print-on-demand (3.175: an eighth of an inch),
        the page being the trim (e.g. ``page="6x9in"``).
    **options
        The PDF's options (``page``, ``landscape``, ``page_margin``, ``title``,
        ``footer``, ``answer``, ``line_width``, ...; see
        :func:`mazeart.export.pdf.write_book`) and :func:`make`'s.

    Returns
    -------
    pathlib.Path
    """
    from mazeart.export.pdf import write_book

    out = Path(path)
    if out.suffix.lower() != ".pdf":
        raise MazeartError(f"cannot write {out}: a book is a .pdf")
    check_output_path(out)
    count = check_count(count, "count")
    if not sources:
        raise MazeartError("a book needs at least one source")
    for src in sources:
        if isinstance(src, str | os.PathLike) and _rectangle(src) is None and not is_figure(src):
            existing_file(src, "a picture, a preset or a saved maze")
    pages = {k: options.pop(k) for k in FORMAT_OPTIONS[".pdf"] if k in options}
    loaded = [_saved(s) for s in sources]  # saved mazes read once, used as they are
    if any(m is not None for m in loaded) and (options or rng is not None):
        raise MazeartError("generation options do not apply to a saved maze")
    fitted: list[int | None] = [None] * len(sources)
    if options.get("cells") is None and not any(m is not None for m in loaded):
        if options.get("difficulty") is None:
            options["difficulty"] = "medium"
        fitted = [_book_cells(s, options, pages) for s in sources]
    check_jobs(jobs, executor)
    seed = check_seed(_seed(rng), span=(count + 1) * int(options.get("best_of") or 1))
    pending = [i for i in range(count) if loaded[i % len(sources)] is None]
    if cover and loaded[0] is None:
        pending.insert(0, count)  # the cover's maze, first: the first source's, not a puzzle
    if len(pending) < 2 and executor is None:
        jobs = 1  # nothing to share out
    sent = [os.fspath(s) if isinstance(s, os.PathLike) else s for s in sources]
    work = functools.partial(_page, sent, fitted, seed, options)
    made = ordered_map(work, pending, executor=executor, jobs=jobs)

    def maze_for(i: int) -> Maze:
        loaded_maze = loaded[i % len(sources)]
        if loaded_maze is None:
            loaded_maze = loads(next(made))
        if i == 0:  # every page's drawing waits for the answer keys at the back
            check_cells(1, loaded_maze.n_cells, f"a book of {count} pages", count=count,
                        kind=loaded_maze.kind)  # fmt: skip
        return loaded_maze

    try:
        with atomic_write(out) as fh:
            front = None
            if cover:
                front = loaded[0] if loaded[0] is not None else loads(next(made))
            write_book(maze_for, fh, count=count, progress=progress, cover=front,
                       contents=contents, sources=[_source_name(s) for s in sources],
                       bleed=bleed, **pages)  # fmt: skip
    finally:
        made.close()  # a failed page: the pages still waiting are cancelled
    return out


def _source_name(source: Source) -> str:
    """How the contents name a page's source: a file's name, a figure's text, a size."""
    if isinstance(source, str | os.PathLike) and not is_figure(source):
        return Path(source).name
    if isinstance(source, str):
        return source.split(":", 1)[-1] if is_figure(source) else source
    return "a picture" if not isinstance(source, Maze) else "a saved maze"


def _page(
    sources: Sequence[Source],
    cells: Sequence[int | None],
    seed: int,
    options: dict[str, Any],
    i: int,
) -> str:
    """Page ``i``'s maze as a saved maze's text (made in a worker process; any process
    reads it back the same), at its source's fitted cells when it has them."""
    k = i % len(sources)
    sized = options if cells[k] is None else {**options, "cells": cells[k]}
    return dumps(make(sources[k], rng=seed, index=i, **sized).maze)


def _picture_file(source: Source, options: Mapping[str, Any]) -> TypeGuard[str | os.PathLike[str]]:
    """Whether ``source`` names a picture to read (not a size, a figure, a preset, a saved
    maze)."""
    return (
        isinstance(source, str | os.PathLike)
        and _rectangle(source) is None
        and not is_maze_file(source)
        and not is_figure(source)
        and not options.get("preset")
        and not is_preset_file(Path(source))
    )


MODEL_CELL_MM = 3.0
"""A printed or cut maze's cell (mm) when the cells across are not given: walls of
:data:`mazeart.export.solid.MIN_WALL_MM` and corridors wider than them."""


def model_cells(source: Source, size_mm: float, options: Mapping[str, Any]) -> int | None:
    """The cells across a picture's model or sheet ``size_mm`` wide is made with when
    none are given: :data:`MODEL_CELL_MM` a cell (at least 8); None for other sources,
    whose size is their own.

    Examples
    --------
    >>> model_cells("samples/logo.png", 90.0, {}), model_cells("20x10", 90.0, {})
    (30, None)
    """
    if options.get("cells") is not None or options.get("difficulty") is not None:
        return None
    if not _picture_file(source, options):
        return None
    return max(8, int(size_mm // MODEL_CELL_MM))


def _book_cells(source: Source, options: Mapping[str, Any], pages: Mapping[str, Any]) -> int | None:
    """A book's cells across for a picture (None for other sources): :func:`fit_cells` at
    the book's difficulty, bounded by what the page prints at :data:`PRINT_CELL_MM` a cell;
    a warning when the page leaves its strokes under two cells."""
    import warnings

    from PIL import Image as PILImage

    from mazeart.export.pdf import fit_box, page_size

    if isinstance(source, PILImage.Image):
        picture, name = source, "a picture"
    elif _picture_file(source, options):
        picture, name = open_image(source, grid=FIT_MAX), os.fspath(source)
    else:
        return None
    picture = _working_size(picture, FIT_MAX)
    width, height = page_size(str(pages.get("page", "A4")), landscape=bool(pages.get("landscape")))
    margin = float(pages.get("page_margin", 15.0))
    box_w, box_h = width - 2 * margin, height - 3.6 * margin - 12  # heading, caption, footer
    scale, _ = fit_box((picture.width, picture.height), (box_w, box_h))  # mm a pixel
    most = int(scale * picture.width // PRINT_CELL_MM)
    threshold, invert = options.get("threshold"), bool(options.get("invert"))
    cells, stroke = _fit(picture, str(options["difficulty"]), threshold, invert, max(8, most))
    if 0 < stroke < 2 and cells >= most:
        warnings.warn(
            f"{name}: its strokes are {stroke:.1f} cells wide at the {cells} cells across "
            f"the page prints at {PRINT_CELL_MM} mm a cell (a bolder picture, a larger "
            "--page or --landscape give them room)",
            MazeartWarning,
            stacklevel=3,
        )
    return cells


# ----------------------------------------------------------------------------- saving


def solutions(
    maze: Maze, *, paths: int = 1, solver: str = "bfs", hand: str = "left"
) -> list[NDArray[np.intp]]:
    """The paths to draw: the chosen solver's path, or up to ``paths`` random ones.

    Random paths are drawn from the maze's own seed, so a file is the same each time.
    """
    paths = check_count(paths, "paths")
    check_choice(solver, "solver", SOLVERS)
    if paths > 1:
        check_cells(1, maze.n_cells, f"{paths} paths of up to {maze.n_cells:,} cells", count=paths)
    if maze.entrance is None or maze.exit is None:
        raise MazeartError("the maze has no entrance or exit to solve between")
    if paths > 1:
        seed = maze.meta.get("seed")
        rng = np.random.default_rng(None if seed is None else [int(seed), 2])
        return random_paths(maze, paths, rng)
    return [solve(maze, method=solver, hand=hand)]


def save(
    made: Made | Maze,
    path: str | os.PathLike[str],
    *,
    solution: bool = False,
    paths: int = 1,
    solver: str = "bfs",
    hand: str = "left",
    levels: Sequence[Made | Maze] | None = None,
    **drawing: Any,
) -> Path:
    """Write a maze in the format its path's suffix names, atomically.

    Parameters
    ----------
    made : Made or Maze
    path : str or path-like
        ``.svg``, ``.png``, ``.pdf``, ``.json`` (a saved maze), ``.txt``,
        ``.html`` (a browser game), ``.tmj`` / ``.tmx`` (Tiled), or ``.gif``
        (the carve as an animation: needs ``make(..., record=True)``).
    solution : bool, default False
        Draw the solution (a PDF has it on its answer page anyway).
    paths : int, default 1
        Draw up to this many different paths (random backtracking).
    solver, hand
        How the solution is found (see :func:`mazeart.solve`).
    levels : sequence of Made or Maze, optional
        The levels of an ``.html`` game (default: this maze alone).
    **drawing
        The format's own options (see :data:`mazeart.export.FORMAT_OPTIONS`):
        ``cell_size``, ``line_width``, ``margin``, ``markers``, ``size``,
        ``page``, ``title``, ...

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> made = make("12x8", rng=2)
    >>> save(made, folder / "maze.svg", solution=True, size="80mm").name
    'maze.svg'
    >>> save(made, folder / "puzzle.pdf", title="Twelve by eight", page="A5").stat().st_size > 0
    True
    """
    maze = made.maze if isinstance(made, Made) else made
    out = Path(path)
    suffix = out.suffix.lower()
    paths = check_count(paths, "paths")
    step("drawing")
    drawn = None
    if solution or paths > 1 or (suffix == ".pdf" and drawing.get("answer", True)):
        if solution or paths > 1 or maze.entrance is not None:
            drawn = solutions(maze, paths=paths, solver=solver, hand=hand)
    if suffix == ".html":
        drawing["levels"] = [m.maze if isinstance(m, Made) else m for m in (levels or [maze])]
    elif levels is not None:
        raise MazeartError(f"levels apply to an HTML game, not {suffix or out.name}")
    if suffix == ".gif":
        if not isinstance(made, Made) or made.recording is None:
            raise MazeartError("a .gif animates the carve: make the maze with record=True")
        from mazeart.animate import write_gif

        check_output_path(out.with_suffix(".png"))  # its directory exists
        square = square_only(maze, "the carve's animation")
        return write_gif(made.recording, square, out, index=made.kept, solutions=drawn, **drawing)
    return write(maze, out, solutions=drawn, **drawing)
