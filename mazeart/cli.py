"""The ``mazeart`` command: a thin typer layer over the library.

``mazeart IMAGE -o maze.svg`` is short for ``mazeart make IMAGE -o maze.svg``.
Every failure the user can cause prints one line, ``mazeart: error: ...``, and
exits with status 2; nothing is written unless the whole job succeeds.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import json
import os
import sys
import time
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer
from typer.core import TyperGroup

import mazeart
from mazeart.analyze import DIFFICULTIES, best_of, measure
from mazeart.export import EXPORT_FORMATS, check_output_path, save
from mazeart.generate import ALGORITHMS, DEFAULT_ALGORITHM, generate, get_algorithm
from mazeart.image import weights_from_image
from mazeart.maze import Maze
from mazeart.mazefile import is_maze_file, load_maze
from mazeart.rooms import load_rooms, room_summary, stamp_rooms
from mazeart.shape import ShapeReport
from mazeart.solve import random_paths, solve
from mazeart.weights import FREE, PRESET_SUFFIXES, is_preset_file, load_preset, save_preset

_DEFAULT_COMMAND = "make"


class _DefaultCommandGroup(TyperGroup):
    """Route ``mazeart IMAGE ...`` to ``mazeart make IMAGE ...``."""

    def parse_args(self, ctx, args: list[str]) -> list[str]:  # type: ignore[no-untyped-def]
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h", "--version"):
            args = [_DEFAULT_COMMAND, *args]
        return super().parse_args(ctx, args)


app = typer.Typer(
    cls=_DefaultCommandGroup,
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Turn pictures into mazes that trace them.\n\n"
    "mazeart IMAGE -o maze.svg is short for mazeart make IMAGE -o maze.svg.",
)


class Islands(StrEnum):
    connect = "connect"
    separate = "separate"


class Geometry(StrEnum):
    cells = "cells"
    blocks = "blocks"


class Outline(StrEnum):
    cells = "cells"
    smooth = "smooth"


class Difficulty(StrEnum):
    easy = "easy"
    medium = "medium"
    hard = "hard"


class Solver(StrEnum):
    bfs = "bfs"
    astar = "astar"
    dead_end_filling = "dead-end-filling"
    wall_follower = "wall-follower"


class Hand(StrEnum):
    left = "left"
    right = "right"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"mazeart {mazeart.__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version."),
    ] = False,
) -> None:
    """Turn pictures into mazes that trace them."""


# ----------------------------------------------------------------------------- shared options

_INPUT = "Input"
_MAZE = "Maze"
_SHAPE = "Connect and shape"
_DRAW = "Drawing"
_SOLVE = "Solution"
_ART = "Image-guided"
_PDF = "PDF"

Source = Annotated[
    Path,
    typer.Argument(
        help="Picture (any format Pillow reads), preset (.npy, .txt, preset .png) "
        "or saved maze (.json).",
        show_default=False,
    ),
]
Cells = Annotated[int, typer.Option(help="Grid columns across the image.", rich_help_panel=_INPUT)]
Threshold = Annotated[
    float | None,
    typer.Option(help="Luminance threshold 0-255 (default: Otsu's).", rich_help_panel=_INPUT),
]
Invert = Annotated[bool, typer.Option(help="Swap figure and ground.", rich_help_panel=_INPUT)]
Coverage = Annotated[
    float,
    typer.Option(
        help="Share of a cell that must be figure for it to hold maze.", rich_help_panel=_INPUT
    ),
]
ColourRooms = Annotated[
    bool,
    typer.Option(
        "--colour-rooms",
        help="Pure red regions of the picture are rooms, pure blue marks their doors.",
        rich_help_panel=_INPUT,
    ),
]
RoomsFile = Annotated[
    Path | None,
    typer.Option(
        "--rooms", help="Rooms file (JSON or TOML) to reserve in the grid.", rich_help_panel=_INPUT
    ),
]
PresetFlag = Annotated[
    bool,
    typer.Option(
        "--preset",
        help="Read a PNG as a preset (one pixel per cell) even without its colour key.",
        rich_help_panel=_INPUT,
    ),
]


def _load_weights(
    source: Path,
    *,
    cells: int,
    threshold: float | None,
    invert: bool,
    coverage: float,
    preset: bool,
    colour_rooms: bool = False,
):
    if isinstance(cells, bool) or cells < 1:
        raise ValueError(f"--cells must be a positive integer, got {cells}")
    if not 0 < coverage <= 1:
        raise ValueError(f"--coverage must be in (0, 1], got {coverage}")
    if threshold is not None and not 0 <= threshold <= 255:
        raise ValueError(f"--threshold must be between 0 and 255, got {threshold}")
    if not source.exists():
        raise ValueError(f"{source}: no such file")
    if preset or is_preset_file(source):
        weights = load_preset(source)
        if invert:
            weights = weights.copy()
            free = weights == FREE
            weights[free] = mazeart.FORBIDDEN
            weights[~free & (weights == mazeart.FORBIDDEN)] = FREE
    else:
        weights = weights_from_image(
            source,
            cells=cells,
            threshold=threshold,
            invert=invert,
            coverage=coverage,
            colour_rooms=colour_rooms,
        )
    if not (weights == FREE).any():
        h, w = weights.shape
        hint = "" if preset or is_preset_file(source) else " (try --invert or --threshold)"
        raise ValueError(f"{source}: no cell of the {w} x {h} grid is free, nothing to carve{hint}")
    return weights


def _parse_cell(text: str | None, name: str) -> tuple[int, int] | None:
    if text is None:
        return None
    try:
        r, c = (int(part) for part in text.split(","))
    except ValueError:
        raise ValueError(f"{name} must be ROW,COL (e.g. 0,12), got {text!r}") from None
    return r, c


def _report(message: str, quiet: bool) -> None:
    if not quiet:
        typer.echo(f"mazeart: {message}", err=True)


class _Progress:
    """A one-line progress bar on stderr, drawn only when stderr is a terminal."""

    def __init__(self, label: str, total: int, *, quiet: bool) -> None:
        self.label, self.total = label, total
        self.live = not quiet and total > 1 and sys.stderr.isatty()
        self.started = time.perf_counter()

    def __call__(self, done: int) -> None:
        if not self.live:
            return
        width = 24
        full = round(width * done / self.total)
        elapsed = time.perf_counter() - self.started
        sys.stderr.write(
            f"\r{self.label} [{'#' * full}{'.' * (width - full)}] {done}/{self.total} "
            f"{elapsed:.1f} s"
        )
        if done >= self.total:
            sys.stderr.write("\r" + " " * (len(self.label) + width + 24) + "\r")
        sys.stderr.flush()


# ----------------------------------------------------------------------------- option groups

Algorithm = Annotated[
    str,
    typer.Option(
        "--algorithm", "-a", help="Generator (see: mazeart algorithms).", rich_help_panel=_MAZE
    ),
]

_GENERATION: list[tuple[str, Any, Any]] = [
    ("cells", Cells, 80),
    ("threshold", Threshold, None),
    ("invert", Invert, False),
    ("coverage", Coverage, 0.5),
    ("preset", PresetFlag, False),
    ("colour_rooms", ColourRooms, False),
    ("rooms", RoomsFile, None),
    (
        "edges",
        Annotated[
            bool,
            typer.Option(
                "--edges",
                help="Walls along the boundaries between the picture's colour regions, crossed "
                "by as few doors as keep the maze connected.",
                rich_help_panel=_ART,
            ),
        ],
        False,
    ),
    (
        "regions",
        Annotated[
            bool,
            typer.Option(
                "--regions",
                help="Give each colour region of the picture its own texture (the flow generator).",
                rich_help_panel=_ART,
            ),
        ],
        False,
    ),
    (
        "segments",
        Annotated[
            int,
            typer.Option(help="Colour clusters for --edges and --regions.", rich_help_panel=_ART),
        ],
        2,
    ),
    (
        "tone",
        Annotated[
            bool,
            typer.Option(
                "--tone",
                help="Fill the whole picture and draw each wall as thick as the picture is dark "
                "under it (SVG, PNG): a photograph read from a distance.",
                rich_help_panel=_ART,
            ),
        ],
        False,
    ),
    (
        "outline",
        Annotated[
            Outline,
            typer.Option(
                help="Draw the figure's outer wall as cell sides, or as the picture's smooth "
                "contour (SVG, PNG, PDF).",
                rich_help_panel=_ART,
            ),
        ],
        None,
    ),
    (
        "textures",
        Annotated[
            str | None,
            typer.Option(
                help="Textures for --regions, largest region first: horizontal, vertical, spiral, "
                "vortex, gradient, isolines, random (default: in that order).",
                rich_help_panel=_ART,
            ),
        ],
        None,
    ),
    ("algorithm", Algorithm, DEFAULT_ALGORITHM),
    (
        "geometry",
        Annotated[
            Geometry | None,
            typer.Option(
                help="Thin walls between cells, or path/wall blocks "
                "(default: the algorithm's first).",
                rich_help_panel=_MAZE,
            ),
        ],
        None,
    ),
    (
        "seed",
        Annotated[
            int | None,
            typer.Option(
                help="Random seed (default: a fresh one, reported).", rich_help_panel=_MAZE
            ),
        ],
        None,
    ),
    (
        "entrance",
        Annotated[
            str | None,
            typer.Option(help="Entrance cell ROW,COL (default: automatic).", rich_help_panel=_MAZE),
        ],
        None,
    ),
    (
        "exit_",
        Annotated[
            str | None,
            typer.Option(
                "--exit", help="Exit cell ROW,COL (default: automatic).", rich_help_panel=_MAZE
            ),
        ],
        None,
    ),
    (
        "difficulty",
        Annotated[
            Difficulty | None,
            typer.Option(
                help="Pick size, algorithm and braid for easy, medium or hard puzzles "
                "(options you give win), and what --best-of aims for.",
                rich_help_panel=_MAZE,
            ),
        ],
        None,
    ),
    (
        "best_of",
        Annotated[
            int,
            typer.Option(
                help="Make K candidates (seeds SEED, SEED+1, ...) and keep the one that best "
                "fits --difficulty (hardest by default).",
                rich_help_panel=_MAZE,
            ),
        ],
        1,
    ),
    (
        "islands",
        Annotated[
            Islands,
            typer.Option(
                help="Join separate parts with bridges, or keep them apart.",
                rich_help_panel=_SHAPE,
            ),
        ],
        Islands.connect,
    ),
    (
        "prune_dead_ends",
        Annotated[
            bool,
            typer.Option(
                "--prune-dead-ends",
                help="Remove one-cell dead ends off junctions.",
                rich_help_panel=_SHAPE,
            ),
        ],
        False,
    ),
    (
        "braid",
        Annotated[
            float,
            typer.Option(
                help="Share of dead ends (0-1) to open into loops.", rich_help_panel=_SHAPE
            ),
        ],
        0.0,
    ),
    (
        "place",
        Annotated[
            str | None,
            typer.Option(
                help="Tags to place, e.g. loot=5,spawn=2 (kinds: spawn, loot, key, npc, trap).",
                rich_help_panel=_SHAPE,
            ),
        ],
        None,
    ),
]

_DRAWING: list[tuple[str, Any, Any]] = [
    (
        "solution",
        Annotated[bool, typer.Option(help="Draw the solution path.", rich_help_panel=_SOLVE)],
        False,
    ),
    (
        "solver",
        Annotated[Solver, typer.Option(help="How to find the solution.", rich_help_panel=_SOLVE)],
        Solver.bfs,
    ),
    (
        "hand",
        Annotated[Hand, typer.Option(help="The wall follower's hand.", rich_help_panel=_SOLVE)],
        Hand.left,
    ),
    (
        "paths",
        Annotated[
            int,
            typer.Option(
                help="Draw up to K different paths found by random recursive backtracking "
                "(each its own colour).",
                rich_help_panel=_SOLVE,
            ),
        ],
        1,
    ),
    (
        "markers",
        Annotated[
            bool, typer.Option(help="Mark entrance and exit with dots.", rich_help_panel=_DRAW)
        ],
        False,
    ),
    (
        "cell_size",
        Annotated[
            float,
            typer.Option(help="Cell size: pixels (PNG) or SVG user units.", rich_help_panel=_DRAW),
        ],
        10.0,
    ),
    (
        "line_width",
        Annotated[
            float,
            typer.Option(help="Wall thickness as a fraction of a cell.", rich_help_panel=_DRAW),
        ],
        0.15,
    ),
    (
        "margin",
        Annotated[float, typer.Option(help="Blank border, in cells.", rich_help_panel=_DRAW)],
        1.0,
    ),
    (
        "size",
        Annotated[
            str | None,
            typer.Option(help="SVG physical width, e.g. 180mm, 7in, 800px.", rich_help_panel=_DRAW),
        ],
        None,
    ),
    (
        "page",
        Annotated[
            str,
            typer.Option(
                help="PDF page: A3, A4, A5, letter, legal or WxH[mm|cm|in].", rich_help_panel=_PDF
            ),
        ],
        "A4",
    ),
    (
        "landscape",
        Annotated[bool, typer.Option(help="Turn the PDF page sideways.", rich_help_panel=_PDF)],
        False,
    ),
    (
        "page_margin",
        Annotated[float, typer.Option(help="PDF page margin in mm.", rich_help_panel=_PDF)],
        15.0,
    ),
    (
        "title",
        Annotated[str, typer.Option(help="PDF title (top of the page).", rich_help_panel=_PDF)],
        "",
    ),
    (
        "footer",
        Annotated[str, typer.Option(help="PDF footer text.", rich_help_panel=_PDF)],
        "",
    ),
    (
        "answer",
        Annotated[bool, typer.Option(help="Add the PDF answer-key page.", rich_help_panel=_PDF)],
        True,
    ),
]

_PAGE_OPTIONS = ("page", "landscape", "page_margin", "title", "footer", "answer")


@dataclass
class _Options:
    """Values of an option group, and which of them the user gave."""

    values: dict[str, Any]
    given: set[str] = field(default_factory=set)

    def __getattr__(self, name: str) -> Any:
        try:
            return self.values[name]
        except KeyError:
            raise AttributeError(name) from None


def _with_options(group_name: str, group: list[tuple[str, Any, Any]]):
    """Add an option group to a command: its options appear on the command line and reach the
    function as one ``_Options`` under ``group_name`` (the function takes ``ctx`` first)."""

    def decorate(func):
        sig = inspect.signature(func, eval_str=True)
        names = {name for name, _, _ in group}

        @functools.wraps(func)
        def wrapper(**kwargs):
            ctx = kwargs["ctx"]
            values = {name: kwargs.pop(name) for name in names}
            given = {
                name
                for name in names
                if getattr(ctx.get_parameter_source(name), "name", "DEFAULT") != "DEFAULT"
            }
            kwargs[group_name] = _Options(values, given)
            return func(**kwargs)

        params = [p for p in sig.parameters.values() if p.name != group_name]
        extra = [
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=ann)
            for name, ann, default in group
        ]
        new_params = [
            p.replace(kind=inspect.Parameter.KEYWORD_ONLY) if p.name != "ctx" else p for p in params
        ]
        ctx_first = [p for p in new_params if p.name == "ctx"]
        rest = [p for p in new_params if p.name != "ctx"]
        wrapper.__signature__ = sig.replace(parameters=[*ctx_first, *rest, *extra])
        wrapper.__annotations__ = {
            **{p.name: p.annotation for p in new_params},
            **{name: ann for name, ann, _ in group},
        }
        return wrapper

    return decorate


# ----------------------------------------------------------------------------- making mazes


def _algorithm_options(algorithm: str, extra: list[str]) -> dict[str, object]:
    """Read ``--name value`` pairs left over by the CLI as options of the chosen algorithm."""
    algo = get_algorithm(algorithm)
    options: dict[str, object] = {}
    tokens = list(extra)
    while tokens:
        token = tokens.pop(0)
        if not token.startswith("--") or token == "--":
            raise ValueError(f"unexpected argument {token!r}")
        name, eq, value = token[2:].partition("=")
        key = name.replace("-", "_")
        negated = key.startswith("no_") and isinstance(algo.options.get(key[3:]), bool)
        if negated or (isinstance(algo.options.get(key), bool) and not eq):
            if eq:
                raise ValueError(f"--{name} takes no value")
            options[key[3:] if negated else key] = not negated
            continue
        if algo.options.get(key, "") is None:  # an array option, for the library only
            key = "\0"
        if key not in algo.options:
            offered = ", ".join(
                "--" + o.replace("_", "-") for o, v in algo.options.items() if v is not None
            )
            takes = f"its options: {offered}" if offered else "it takes no options"
            raise ValueError(f"no such option --{name} for algorithm {algo.name} ({takes})")
        if not eq:
            if not tokens or tokens[0].startswith("--"):
                raise ValueError(f"option --{name} needs a value")
            value = tokens.pop(0)
        options[key] = algo.coerce(key, value)
    return options


def _flag(name: str) -> str:
    return "--" + name.rstrip("_").replace("_", "-")


@dataclass
class _Made:
    maze: Maze
    report: ShapeReport
    candidates: int = 1
    index: int = 0  # which candidate was kept
    weights: Any = None  # the preset read from the source (before any image guidance)


def _make_maze(
    source: Path, gen: _Options, extra: list[str], *, quiet: bool, index: int = 0
) -> _Made:
    """The maze a command works on: a saved maze as it is, or one generated from SOURCE.

    ``index`` shifts the seed (book pages): maze ``i`` of a run with seed S uses S + i
    (and its best-of candidates S + i*K, ...), so every maze names a seed that remakes it.
    """
    if is_maze_file(source):
        if gen.given or extra:
            names = sorted(_flag(n) for n in gen.given) + [t for t in extra if t.startswith("--")]
            raise ValueError(
                f"{', '.join(names)}: generation options do not apply to a saved maze ({source})"
            )
        return _Made(load_maze(source), ShapeReport())
    if source.suffix.lower() == ".json":
        if not source.exists():
            raise ValueError(f"{source}: no such file")
        load_maze(source)  # names what is wrong with it
    preset_values = DIFFICULTIES[gen.difficulty.value] if gen.difficulty is not None else {}

    def pick(name: str) -> Any:
        if name in preset_values and name not in gen.given:
            return preset_values[name]
        return gen.values[name]

    algorithm = "flow" if gen.regions else pick("algorithm")
    options = _algorithm_options(algorithm, extra)
    braid = pick("braid")
    if not 0 <= braid <= 1:
        raise ValueError(f"--braid must be between 0 and 1, got {braid}")
    if isinstance(gen.best_of, bool) or gen.best_of < 1:
        raise ValueError(f"--best-of must be a positive integer, got {gen.best_of}")
    room_specs = load_rooms(gen.rooms) if gen.rooms is not None else None
    weights = _load_weights(
        source,
        cells=pick("cells"),
        threshold=gen.threshold,
        invert=gen.invert,
        coverage=gen.coverage,
        preset=gen.preset,
        colour_rooms=gen.colour_rooms,
    )
    regions_bias = options.pop("bias", None) if gen.regions else None
    preset_weights = weights
    guided = _guidance(source, gen, weights, pick("algorithm"), regions_bias)
    if guided.get("angle") is not None:
        options = {**options, "angle": guided["angle"], "bias": guided["bias"]}
    if guided.get("weights") is not None:
        weights = guided["weights"]
    seed = gen.seed
    if seed is None:
        seed = int(time.time_ns() % (2**31))
    elif seed < 0:
        raise ValueError(f"--seed must be a non-negative integer, got {seed}")
    k = gen.best_of
    reports: list[ShapeReport] = []

    def candidate(i: int) -> Maze:
        report = ShapeReport()
        reports.append(report)
        return generate(
            weights,
            algorithm=algorithm,
            geometry=None if gen.geometry is None else gen.geometry.value,
            seed=seed + index * k + i,
            entrance=_parse_cell(gen.entrance, "--entrance"),
            exit=_parse_cell(gen.exit_, "--exit"),
            rooms=room_specs,
            islands=gen.islands.value,
            prune=gen.prune_dead_ends,
            braid=braid,
            place=gen.place,
            walls=guided.get("walls"),
            report=report,
            **options,
        )

    carried = {key: guided[key] for key in ("outline", "edges", "tone") if guided.get(key)}
    if carried:
        plain_candidate = candidate

        def candidate(i: int) -> Maze:  # the contour or tone map travels with the maze
            maze = plain_candidate(i)
            return maze.replace(meta={**maze.meta, **carried})

    if k == 1:
        maze = candidate(0)
        return _Made(maze, reports[0], weights=preset_weights)
    target = gen.difficulty.value if gen.difficulty is not None else "hard"
    progress = _Progress(f"best of {k}", k, quiet=quiet)
    maze, _ = best_of(candidate, k, target=target, progress=progress)
    kept = maze.meta["seed"] - (seed + index * k)
    return _Made(maze, reports[kept], candidates=k, index=kept, weights=preset_weights)


def _guidance(
    source: Path, gen: _Options, weights, algorithm: str, bias: float | None = None
) -> dict[str, Any]:
    """What --edges and --regions read from the picture: walls, a texture field, the weights."""
    smooth = gen.outline is Outline.smooth
    if gen.tone:
        if gen.edges or gen.regions or smooth:
            raise ValueError("--tone draws the whole picture; it does not mix with --edges, "
                             "--regions or --outline smooth")  # fmt: skip
        if gen.preset or is_preset_file(source):
            raise ValueError("--tone reads the picture's tones; give a picture")
        from mazeart.guide import guidance

        return guidance(source, weights, tone=True)
    if not (gen.edges or gen.regions or smooth):
        for name in ("segments", "textures"):
            if name in gen.given:
                raise ValueError(f"{_flag(name)} applies with --edges or --regions")
        return {}
    if gen.preset or is_preset_file(source):
        raise ValueError("--edges, --regions and --outline smooth read the picture; give one")
    if gen.geometry is not None and gen.geometry.value != "cells":
        raise ValueError("--edges, --regions and --outline smooth need the cells geometry")
    if gen.regions and "algorithm" in gen.given and algorithm != "flow":
        raise ValueError(f"--regions draws its textures with the flow generator, not {algorithm}")
    from mazeart.guide import guidance

    textures = [t.strip() for t in gen.textures.split(",")] if gen.textures else None
    return guidance(
        source,
        weights,
        edges=gen.edges,
        regions=gen.regions,
        outline="smooth" if smooth else "cells",
        segments=gen.segments,
        textures=textures,
        threshold=gen.threshold,
        invert=gen.invert,
        bias=0.9 if bias is None else bias,
    )


def _solutions(maze: Maze, draw: _Options, *, want: bool) -> list | None:
    """The paths to draw, by the chosen solver; None when no solution is wanted."""
    if isinstance(draw.paths, bool) or draw.paths < 1:
        raise ValueError(f"--paths must be a positive integer, got {draw.paths}")
    if not want:
        return None
    if maze.entrance is None or maze.exit is None:
        raise ValueError("the maze has no entrance or exit to solve between")
    if draw.paths > 1:
        seed = maze.meta.get("seed")
        rng = np.random.default_rng(None if seed is None else [int(seed), 2])
        return random_paths(maze, draw.paths, rng)
    return [solve(maze, method=draw.solver.value, hand=draw.hand.value)]


def _drawing(draw: _Options) -> dict[str, Any]:
    return {
        "markers": draw.markers,
        "cell_size": draw.cell_size,
        "line_width": draw.line_width,
        "margin": draw.margin,
        "size": draw.size,
    }


@contextlib.contextmanager
def _nothing():
    yield


def _write(
    maze: Maze, out: Path, draw: _Options, solutions: list | None, *, levels: list | None = None
) -> None:
    drawing = _drawing(draw)
    suffix = out.suffix.lower()
    if suffix == ".pdf":
        drawing.update({k: draw.values[k] for k in _PAGE_OPTIONS})
        drawing.pop("size")
        drawing.pop("cell_size")
        if not draw.answer:
            solutions = None
        elif solutions is None:
            solutions = _solutions(maze, draw, want=maze.entrance is not None)
    elif suffix in (".json", ".tmj", ".tmx", ".txt"):
        drawing = {}
        solutions = None
    elif suffix == ".html":
        drawing = {"title": draw.title or "mazeart", "levels": levels or [maze]}
        solutions = None
    save(maze, out, solutions=solutions, **drawing)


def _summary(made: _Made) -> str:
    maze = made.maze
    extras = [made.report.summary()]
    if made.candidates > 1:
        extras.append(
            f"best of {made.candidates} candidates, difficulty {measure(maze).difficulty:g}"
        )
    if maze.rooms:
        extras.append(room_summary(list(maze.rooms)))
    if maze.tags:
        kinds: dict[str, int] = {}
        for kind in maze.tags.values():
            kinds[kind] = kinds.get(kind, 0) + 1
        extras.append(", ".join(f"{n} {k}" for k, n in kinds.items()))
    detail = "; ".join(e for e in extras if e)
    seed = maze.meta.get("seed")
    return (
        f"{maze.meta.get('algorithm', 'maze')}, {maze.geometry}, seed {seed}, "
        f"{maze.width} x {maze.height} grid, {maze.n_cells} maze cells"
        + (f"; {detail}" if detail else "")
    )


Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing on success.")]
Output = Annotated[
    Path,
    typer.Option(
        "--output", "-o", help=f"Output file: {', '.join(EXPORT_FORMATS)}.", show_default=False
    ),
]
_EXTRA = {"allow_extra_args": True, "ignore_unknown_options": True}
_EPILOG = (
    "Options of the chosen algorithm follow as --name value "
    "(e.g. --select newest --bias 0.7 for growing-tree); see: mazeart algorithms."
)


# ----------------------------------------------------------------------------- commands


@app.command(_DEFAULT_COMMAND, context_settings=_EXTRA, epilog=_EPILOG)
@_with_options("draw", _DRAWING)
@_with_options("gen", _GENERATION)
def make(
    ctx: typer.Context,
    source: Source,
    output: Output = None,  # type: ignore[assignment]
    ascii_: Annotated[
        bool,
        typer.Option("--ascii", help="Print the maze in plain characters.", rich_help_panel=_DRAW),
    ] = False,
    levels: Annotated[
        int,
        typer.Option(
            help="HTML game: this many mazes (seeds SEED, SEED+1, ...), played in turn.",
            rich_help_panel=_MAZE,
        ),
    ] = 1,
    animate: Annotated[
        Path | None,
        typer.Option(
            help="Also write a GIF of the carving (frames drawn like the PNG export).",
            rich_help_panel=_DRAW,
        ),
    ] = None,
    quiet: Quiet = False,
    gen: _Options = None,  # type: ignore[assignment]
    draw: _Options = None,  # type: ignore[assignment]
) -> None:
    """Make a maze from a picture or preset (or redraw a saved one) and write it to OUTPUT.

    The format follows OUTPUT's suffix: .svg, .png, .pdf (with an answer key),
    .json (a saved maze, which every command reads back).
    """
    started = time.perf_counter()
    if output is None and not ascii_:
        raise ValueError("say where to write the maze with -o FILE (or print it with --ascii)")
    out = None if output is None else check_output_path(output)
    if isinstance(levels, bool) or levels < 1:
        raise ValueError(f"--levels must be a positive integer, got {levels}")
    if levels > 1 and (out is None or out.suffix.lower() != ".html"):
        raise ValueError("--levels applies to an HTML game (-o game.html)")
    if animate is not None:
        if animate.suffix.lower() != ".gif":
            raise ValueError(f"--animate writes a GIF, got {animate}")
        if is_maze_file(source):
            raise ValueError(f"--animate records a carve; {source} is a saved maze, already carved")
        check_output_path(animate.with_suffix(".png"))  # its directory exists
    recording = None
    if animate is not None:
        from mazeart.animate import Recording

        recording = Recording()
    with recording if recording is not None else _nothing():
        made = _make_maze(source, gen, ctx.args, quiet=quiet)
    maze = made.maze
    want = draw.solution or draw.paths > 1
    solutions = _solutions(maze, draw, want=want)
    extra_levels = [
        _make_maze(source, gen, ctx.args, quiet=True, index=i).maze for i in range(1, levels)
    ]
    if out is not None:
        _write(maze, out, draw, solutions, levels=[maze, *extra_levels])
    if animate is not None:
        from mazeart.animate import write_gif

        drawing = {k: v for k, v in _drawing(draw).items() if k != "size"}
        write_gif(recording, maze, animate, index=made.index, solutions=solutions, **drawing)
    if ascii_:
        from mazeart.export.text import to_ascii

        typer.echo(to_ascii(maze), nl=False)
    elapsed = time.perf_counter() - started
    wrote = ", ".join(str(p) for p in (out, animate) if p is not None) or "nothing"
    _report(f"wrote {wrote} ({_summary(made)}, {elapsed:.2f} s)", quiet)


@app.command("solve", context_settings=_EXTRA, epilog=_EPILOG)
@_with_options("draw", _DRAWING)
@_with_options("gen", _GENERATION)
def solve_command(
    ctx: typer.Context,
    source: Source,
    output: Output,
    quiet: Quiet = False,
    gen: _Options = None,  # type: ignore[assignment]
    draw: _Options = None,  # type: ignore[assignment]
) -> None:
    """Solve a saved maze (or one made from a picture) and draw it with its solution.

    --solver picks the method (bfs, astar, dead-end-filling, wall-follower with
    --hand); --paths K draws up to K different paths by random backtracking.
    A wall follower that cannot reach the exit says so and writes nothing.
    """
    out = check_output_path(output)
    made = _make_maze(source, gen, ctx.args, quiet=quiet)
    maze = made.maze
    solutions = _solutions(maze, draw, want=True)
    assert solutions is not None
    _write(maze, out, draw, solutions)
    lengths = ", ".join(str(len(p)) for p in solutions)
    method = "random backtracking" if draw.paths > 1 else draw.solver.value
    if draw.solver is Solver.wall_follower and draw.paths == 1:
        method += f" ({draw.hand.value} hand)"
    found = (
        f"{len(solutions)} path{'s' * (len(solutions) != 1)} of {lengths} cells"
        if draw.paths > 1
        else f"a path of {lengths} cells"
    )
    if draw.paths > len(solutions):
        found += f" (asked for {draw.paths}; the maze has no more)"
    _report(f"wrote {out}: {method} found {found}", quiet)


_INFO_LABELS = {
    "rows": "rows",
    "cols": "columns",
    "geometry": "geometry",
    "cells": "maze cells",
    "passages": "passages",
    "parts": "parts",
    "loops": "loops (passages beyond a tree)",
    "solution_length": "solution length (cells)",
    "solution_share": "solution share of cells",
    "tortuosity": "solution tortuosity",
    "decisions": "decisions on the solution",
    "dead_ends": "dead ends",
    "dead_end_mean": "dead-end length, mean",
    "dead_end_max": "dead-end length, max",
    "junctions_3": "3-way junctions",
    "junctions_4": "4-way junctions",
    "straightness": "straightness",
    "longest_corridor": "longest corridor (cells)",
    "difficulty": "difficulty score",
    "footprint_iou": "footprint IoU with the picture",
    "edge_share": "picture edges on walls",
    "edge_share_chance": "  (a blind maze: about)",
}


@app.command("info", context_settings=_EXTRA, epilog=_EPILOG)
@_with_options("gen", _GENERATION)
def info_command(
    ctx: typer.Context,
    source: Source,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
    gen: _Options = None,  # type: ignore[assignment]
) -> None:
    """Measure a saved maze (or one made from a picture): size, solution, dead ends, loops."""
    made = _make_maze(source, gen, ctx.args, quiet=as_json)
    maze = made.maze
    metrics = measure(maze).to_dict()
    about = {
        "source": str(source),
        "algorithm": maze.meta.get("algorithm"),
        "seed": maze.meta.get("seed"),
        "entrance": list(maze.entrance) if maze.entrance else None,
        "exit": list(maze.exit) if maze.exit else None,
    }
    if not is_maze_file(source) and not (gen.preset or is_preset_file(source)):
        from mazeart.guide import fidelity

        allowed = made.weights != mazeart.FORBIDDEN  # the picture's cells (bridges aside)
        if allowed.shape == maze.shape:
            fid = fidelity(
                maze, source, threshold=gen.threshold, invert=gen.invert, allowed=allowed
            )
            metrics.update(
                {
                    "footprint_iou": fid["iou"],
                    "edge_share": fid["edge_share"],
                    "edge_share_chance": fid["wall_share"],
                }
            )
    if as_json:
        typer.echo(json.dumps({**about, **metrics}, indent=2))
        return
    width = max(len(v) for v in _INFO_LABELS.values())
    typer.echo(f"{'source':<{width}}  {source}")
    typer.echo(f"{'algorithm, seed':<{width}}  {about['algorithm']}, {about['seed']}")
    ends = f"{maze.entrance} -> {maze.exit}" if maze.entrance else "none"
    typer.echo(f"{'entrance -> exit':<{width}}  {ends}")
    for key, label in _INFO_LABELS.items():
        if key not in metrics:
            continue
        value = metrics[key]
        if key in ("solution_share", "straightness", "edge_share", "edge_share_chance"):
            value = f"{100 * value:.1f} %"
        typer.echo(f"{label:<{width}}  {value}")


@app.command("book", context_settings=_EXTRA, epilog=_EPILOG)
@_with_options("gen", _GENERATION)
def book_command(
    ctx: typer.Context,
    sources: Annotated[
        list[Path],
        typer.Argument(
            help="Pictures, presets or saved mazes; used in turn for the pages.",
            show_default=False,
        ),
    ],
    output: Annotated[
        Path, typer.Option("--output", "-o", help="The book (.pdf).", show_default=False)
    ],
    count: Annotated[int, typer.Option(help="Mazes in the book.")] = 10,
    page: Annotated[str, typer.Option(help="Page: A3, A4, A5, letter, legal or WxH.")] = "A4",
    landscape: Annotated[bool, typer.Option(help="Turn the pages sideways.")] = False,
    page_margin: Annotated[float, typer.Option(help="Page margin in mm.")] = 15.0,
    title: Annotated[str, typer.Option(help="Book title; pages read 'TITLE #n'.")] = "",
    footer: Annotated[str, typer.Option(help="Footer text on every page.")] = "",
    answer: Annotated[bool, typer.Option(help="Answer keys at the back.")] = True,
    line_width: Annotated[float, typer.Option(help="Wall thickness, share of a cell.")] = 0.15,
    quiet: Quiet = False,
    gen: _Options = None,  # type: ignore[assignment]
) -> None:
    """Make a printable puzzle book: COUNT mazes, one per page, answer keys at the back.

    Each page prints its maze's algorithm and seed, so any page can be made
    again with mazeart SOURCE --seed SEED.
    """
    started = time.perf_counter()
    if output.suffix.lower() != ".pdf":
        raise ValueError(f"cannot write {output}: a book is a .pdf")
    check_output_path(output)
    if count < 1:
        raise ValueError(f"--count must be a positive integer, got {count}")
    for src in sources:
        if not src.exists():
            raise ValueError(f"{src}: no such file")
    if gen.seed is None:
        gen.values["seed"] = int(time.time_ns() % (2**31))
        gen.given.add("seed")
    saved = [s for s in sources if is_maze_file(s)]
    if saved and (gen.given - {"seed"} or ctx.args):
        raise ValueError(f"generation options do not apply to a saved maze ({saved[0]})")
    progress = _Progress("book", count, quiet=quiet)

    def maze_for(i: int) -> Maze:
        src = sources[i % len(sources)]
        if is_maze_file(src):
            return load_maze(src)
        return _make_maze(src, gen, ctx.args, quiet=True, index=i).maze

    from mazeart._io import atomic_write
    from mazeart.export.pdf import write_book

    with atomic_write(output) as fh:
        write_book(
            maze_for,
            fh,
            count=count,
            page=page,
            landscape=landscape,
            page_margin=page_margin,
            title=title,
            footer=footer,
            answer=answer,
            progress=progress,
            line_width=line_width,
        )
    elapsed = time.perf_counter() - started
    _report(f"wrote {output} ({count} mazes, {elapsed:.1f} s)", quiet)


@app.command("play", context_settings=_EXTRA, epilog=_EPILOG)
@_with_options("gen", _GENERATION)
def play_command(
    ctx: typer.Context,
    source: Annotated[
        Path | None,
        typer.Argument(
            help="Picture, preset or saved maze (default: a maze that fits the terminal).",
            show_default=False,
        ),
    ] = None,
    levels: Annotated[int, typer.Option(help="Mazes to play; 0 plays until you quit with q.")] = 3,
    gen: _Options = None,  # type: ignore[assignment]
) -> None:
    """Play in the terminal: arrow keys or WASD, a timer, a fresh maze after each win.

    Best times per maze size are kept in the user's data directory
    ($MAZEART_DATA_DIR overrides it). Mazes larger than the terminal scroll.
    """
    if isinstance(levels, bool) or levels < 0:
        raise ValueError(f"--levels must be 0 or more, got {levels}")
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        raise ValueError("mazeart play needs a terminal")
    if gen.seed is None:
        gen.values["seed"] = int(time.time_ns() % (2**31))
    first: Maze | None = None
    if source is not None and is_maze_file(source):
        # The saved maze is level 1; later levels are new mazes of its shape.
        ignored = sorted(_flag(n) for n in gen.given - {"seed", "algorithm"})
        if ignored:
            raise ValueError(
                f"{', '.join(ignored)}: generation options do not apply to a saved maze ({source})"
            )
        first = load_maze(source)
        base = np.where(first.region, FREE, mazeart.FORBIDDEN).astype(np.int32)
        algorithm = (
            gen.algorithm
            if "algorithm" in gen.given
            else str(first.meta.get("algorithm") or DEFAULT_ALGORITHM)
        )
        geometry = first.geometry
    elif source is None:
        import shutil

        columns, lines = shutil.get_terminal_size((80, 24))
        wide = max(4, (columns // 2 - 1) // 2)
        tall = max(3, (lines - 3) // 2)
        base = np.zeros((tall, wide), np.int32)
        algorithm, geometry = gen.algorithm, None if gen.geometry is None else gen.geometry.value
    else:
        _make_maze(source, gen, ctx.args, quiet=True)  # check the options before the screen opens

    def level(i: int) -> Maze:
        if source is not None and not is_maze_file(source):
            return _make_maze(source, gen, ctx.args, quiet=True, index=i).maze
        if i == 0 and first is not None:
            return first
        return generate(
            base,
            algorithm=algorithm,
            geometry=geometry,
            seed=gen.seed + i,
            **_algorithm_options(algorithm, ctx.args),
        )

    from mazeart.play.terminal import play

    result = play(level, count=levels or None)
    if result.times:
        pairs = zip(result.times, result.records, strict=True)
        times = ", ".join(f"{t:.1f} s{' (best)' * new}" for t, new in pairs)
        n = len(result.times)
        typer.echo(f"mazeart: solved {n} maze{'s' * (n != 1)}: {times}")
    elif result.quit:
        typer.echo("mazeart: quit before solving a maze")


@app.command("weights")
def weights_command(
    source: Source,
    output: Annotated[
        Path,
        typer.Option(
            "--output", "-o", help=f"Preset file: {', '.join(PRESET_SUFFIXES)}.", show_default=False
        ),
    ],
    cells: Cells = 80,
    threshold: Threshold = None,
    invert: Invert = False,
    coverage: Coverage = 0.5,
    preset: PresetFlag = False,
    colour_rooms: ColourRooms = False,
    rooms: RoomsFile = None,
    quiet: Quiet = False,
) -> None:
    """Write the preset weight matrix of a picture, to edit and feed back to mazeart."""
    suffix = output.suffix.lower()
    if suffix not in PRESET_SUFFIXES:
        raise ValueError(
            f"cannot write {output}: unknown preset format {suffix or '(no suffix)'!r} "
            f"(choose from {', '.join(PRESET_SUFFIXES)})"
        )
    room_specs = load_rooms(rooms) if rooms is not None else None
    weights = _load_weights(
        source,
        cells=cells,
        threshold=threshold,
        invert=invert,
        coverage=coverage,
        preset=preset,
        colour_rooms=colour_rooms,
    )
    if room_specs:
        weights, _ = stamp_rooms(weights, room_specs)
    save_preset(weights, output)
    h, w = weights.shape
    _report(f"wrote {output} ({w} x {h} cells, {int((weights == FREE).sum())} free)", quiet)


@app.command("algorithms")
def algorithms_command() -> None:
    """List the maze generators."""
    width = max(len(name) for name in ALGORITHMS)
    for algo in ALGORITHMS.values():
        uniform = "uniform" if algo.uniform else "biased"
        typer.echo(f"{algo.name:<{width}}  {algo.description}")
        typer.echo(f"{'':<{width}}  geometries: {', '.join(algo.geometries)}; {uniform}")
        shown = {k: v for k, v in algo.options.items() if v is not None}  # arrays: library only
        if shown:
            opts = ", ".join(f"--{k.replace('_', '-')} {v}" for k, v in shown.items())
            typer.echo(f"{'':<{width}}  options: {opts}")


# ----------------------------------------------------------------------------- entry point


def _fail(message: str) -> int:
    message = " ".join(str(message).split())  # one line, whatever the exception said
    print(f"mazeart: error: {message}", file=sys.stderr)
    return 2


def _is_usage_error(exc: BaseException) -> bool:
    """Click's errors (bad option, missing argument, ...), whether typer vendors click or not."""
    return hasattr(exc, "format_message") and hasattr(exc, "exit_code")


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; return the exit status (also used as the console script)."""
    debug = bool(os.environ.get("MAZEART_DEBUG"))
    try:
        status = app(args=argv, prog_name="mazeart", standalone_mode=False)
    except KeyboardInterrupt:
        print("mazeart: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":
            ctx = getattr(exc, "ctx", None)
            print(ctx.get_help() if ctx is not None else "", file=sys.stderr)
            return 2
        if type(exc).__name__ == "Abort":
            return _fail("aborted")
        if _is_usage_error(exc):
            return _fail(exc.format_message())  # type: ignore[attr-defined]
        if isinstance(exc, ValueError | OSError) and not debug:
            return _fail(str(exc))
        raise
    return status if isinstance(status, int) else 0
