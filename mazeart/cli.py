"""The ``mazeart`` command: a thin typer layer over the library.

``mazeart IMAGE -o maze.svg`` is short for ``mazeart make IMAGE -o maze.svg``.
Every failure the user can cause prints one line, ``mazeart: error: ...``, and
exits with status 2; nothing is written unless the whole job succeeds.
"""

from __future__ import annotations

import os
import sys
import time
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from typer.core import TyperGroup

import mazeart
from mazeart.export import EXPORT_FORMATS, check_output_path, save
from mazeart.generate import ALGORITHMS, DEFAULT_ALGORITHM, generate, get_algorithm
from mazeart.image import weights_from_image
from mazeart.rooms import load_rooms, room_summary, stamp_rooms
from mazeart.shape import ShapeReport
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

Source = Annotated[
    Path,
    typer.Argument(
        help="Picture (any format Pillow reads) or preset (.npy, .txt, or a preset .png).",
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


# ----------------------------------------------------------------------------- commands


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
        if key not in algo.options:
            offered = ", ".join("--" + o.replace("_", "-") for o in algo.options)
            takes = f"its options: {offered}" if offered else "it takes no options"
            raise ValueError(f"no such option --{name} for algorithm {algo.name} ({takes})")
        if not eq:
            if not tokens or tokens[0].startswith("--"):
                raise ValueError(f"option --{name} needs a value")
            value = tokens.pop(0)
        options[key] = algo.coerce(key, value)
    return options


@app.command(
    _DEFAULT_COMMAND,
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
    epilog="Options of the chosen algorithm follow as --name value "
    "(e.g. --select newest --bias 0.7 for growing-tree); see: mazeart algorithms.",
)
def make(
    ctx: typer.Context,
    source: Source,
    output: Annotated[
        Path,
        typer.Option(
            "--output", "-o", help=f"Output file: {', '.join(EXPORT_FORMATS)}.", show_default=False
        ),
    ],
    cells: Cells = 80,
    threshold: Threshold = None,
    invert: Invert = False,
    coverage: Coverage = 0.5,
    preset: PresetFlag = False,
    colour_rooms: ColourRooms = False,
    rooms: RoomsFile = None,
    algorithm: Annotated[
        str,
        typer.Option(
            "--algorithm", "-a", help="Generator (see: mazeart algorithms).", rich_help_panel=_MAZE
        ),
    ] = DEFAULT_ALGORITHM,
    geometry: Annotated[
        Geometry | None,
        typer.Option(
            help="Thin walls between cells, or path/wall blocks (default: the algorithm's first).",
            rich_help_panel=_MAZE,
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(help="Random seed (default: a fresh one, reported).", rich_help_panel=_MAZE),
    ] = None,
    entrance: Annotated[
        str | None,
        typer.Option(help="Entrance cell ROW,COL (default: automatic).", rich_help_panel=_MAZE),
    ] = None,
    exit_: Annotated[
        str | None,
        typer.Option(
            "--exit", help="Exit cell ROW,COL (default: automatic).", rich_help_panel=_MAZE
        ),
    ] = None,
    islands: Annotated[
        Islands,
        typer.Option(
            help="Join separate parts with bridges, or keep them apart.", rich_help_panel=_SHAPE
        ),
    ] = Islands.connect,
    prune_dead_ends: Annotated[
        bool,
        typer.Option(
            "--prune-dead-ends",
            help="Remove one-cell dead ends off junctions.",
            rich_help_panel=_SHAPE,
        ),
    ] = False,
    braid: Annotated[
        float,
        typer.Option(help="Share of dead ends (0-1) to open into loops.", rich_help_panel=_SHAPE),
    ] = 0.0,
    place: Annotated[
        str | None,
        typer.Option(
            help="Tags to place, e.g. loot=5,spawn=2 (kinds: spawn, loot, key, npc, trap).",
            rich_help_panel=_SHAPE,
        ),
    ] = None,
    solution: Annotated[
        bool, typer.Option(help="Draw the solution path.", rich_help_panel=_DRAW)
    ] = False,
    markers: Annotated[
        bool, typer.Option(help="Mark entrance and exit with dots.", rich_help_panel=_DRAW)
    ] = False,
    cell_size: Annotated[
        float,
        typer.Option(help="Cell size: pixels (PNG) or SVG user units.", rich_help_panel=_DRAW),
    ] = 10.0,
    line_width: Annotated[
        float, typer.Option(help="Wall thickness as a fraction of a cell.", rich_help_panel=_DRAW)
    ] = 0.15,
    margin: Annotated[
        float, typer.Option(help="Blank border, in cells.", rich_help_panel=_DRAW)
    ] = 1.0,
    size: Annotated[
        str | None,
        typer.Option(help="SVG physical width, e.g. 180mm, 7in, 800px.", rich_help_panel=_DRAW),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing on success.")] = False,
) -> None:
    """Make a maze from a picture or preset and write it to OUTPUT (format from its suffix)."""
    started = time.perf_counter()
    out = check_output_path(output)
    options = _algorithm_options(algorithm, ctx.args)
    if not 0 <= braid <= 1:
        raise ValueError(f"--braid must be between 0 and 1, got {braid}")
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
    report = ShapeReport()
    maze = generate(
        weights,
        algorithm=algorithm,
        geometry=None if geometry is None else geometry.value,
        seed=seed,
        entrance=_parse_cell(entrance, "--entrance"),
        exit=_parse_cell(exit_, "--exit"),
        rooms=room_specs,
        islands=islands.value,
        prune=prune_dead_ends,
        braid=braid,
        place=place,
        report=report,
        **options,
    )
    save(
        maze,
        out,
        solution=solution,
        markers=markers,
        cell_size=cell_size,
        line_width=line_width,
        margin=margin,
        size=size,
    )
    elapsed = time.perf_counter() - started
    extras = [report.summary()]
    if maze.rooms:
        extras.append(room_summary(list(maze.rooms)))
    if maze.tags:
        kinds: dict[str, int] = {}
        for kind in maze.tags.values():
            kinds[kind] = kinds.get(kind, 0) + 1
        extras.append(", ".join(f"{n} {k}" for k, n in kinds.items()))
    detail = "; ".join(e for e in extras if e)
    _report(
        f"wrote {out} ({maze.meta['algorithm']}, {maze.geometry}, seed {maze.meta['seed']}, "
        f"{maze.width} x {maze.height} grid, {maze.n_cells} maze cells, {elapsed:.2f} s)"
        + (f"; {detail}" if detail else ""),
        quiet,
    )


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
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing on success.")] = False,
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
        if algo.options:
            opts = ", ".join(f"--{k.replace('_', '-')} {v}" for k, v in algo.options.items())
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
