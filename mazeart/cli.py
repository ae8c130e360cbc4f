"""The ``mazeart`` command: parse the arguments, call the library, print what it says.

``mazeart IMAGE -o maze.svg`` is short for ``mazeart make IMAGE -o maze.svg``.
Every failure the user can cause is a :class:`~mazeart.errors.MazeartError`,
printed as one line, ``mazeart: error: ...``, with exit status 2; nothing is
written unless the whole job succeeds. Any other exception is a bug and shows
as one.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import inspect
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

import mazeart
from mazeart._io import all_or_nothing, check_writable, dump_json
from mazeart._limits import check_count, limits
from mazeart._names import BATCH_FORMATS, FORMATS, GRID_KINDS, MODES, PRESET_SUFFIXES
from mazeart._signals import guarded, stopped
from mazeart.errors import MazeartError, check_int, check_number, printable
from mazeart.recipe import Recipe, option_table

# The command line answers --help and a slip in its arguments from the names above, without
# numpy or numba; each command imports the library when its arguments hold.

_DEFAULT_COMMAND = "make"
_GROUP_OPTIONS = ("--help", "-h", "--version", "--install-completion", "--show-completion")


def _plain_help(params: list[Any]) -> list[Any]:
    """Show no type after a flag or an argument in the help (the name says it: ``SOURCE``,
    ``--quiet``); options show their metavar."""
    for param in params:
        if getattr(param, "is_flag", False) or param.param_type_name == "argument":
            param.display_type_rich = lambda ctx: None
    return params


class _Command(TyperCommand):
    """A command whose help reads ``mazeart make [OPTIONS] SOURCE``: no braces, no types
    after flags, the options in sections (Input, Maze, Drawing, ...)."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _plain_help(super().get_params(ctx))

    def format_options(self, ctx: Any, formatter: Any) -> None:
        sections: dict[str, list[tuple[str, str]]] = {}
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is not None:
                name = "Arguments" if param.param_type_name == "argument" else (
                    getattr(param, "rich_help_panel", None) or "Options")  # fmt: skip
                sections.setdefault(name, []).append(record)
        # one column for the flags in every section, the sections in the pipeline's order
        width = min(max(len(term) for records in sections.values() for term, _ in records), 30)
        order = [*_SECTIONS, *sections]
        for name in sorted(sections, key=order.index):
            with formatter.section(name):
                formatter.write_dl([(term.ljust(width), text) for term, text in sections[name]])

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        return [re.sub(r"^\{(.*)\}", r"\1", p) for p in super().collect_usage_pieces(ctx)]


class _DefaultCommandGroup(TyperGroup):
    """Route ``mazeart IMAGE ...`` to ``mazeart make IMAGE ...``.

    Each command is built from its function (:data:`_commands`) when first named: building
    them all, a hundred options each, would cost more than the help takes to print.
    """

    def get_params(self, ctx: Any) -> list[Any]:
        return _plain_help(super().get_params(ctx))

    def list_commands(self, ctx: Any) -> list[str]:
        return [info.name for info in _commands.registered_commands if info.name]

    def get_command(self, ctx: Any, name: str) -> Any:
        if name not in self.commands:
            info = next((c for c in _commands.registered_commands if c.name == name), None)
            if info is None:
                return None
            self.commands[name] = typer.main.get_command_from_info(
                info,
                pretty_exceptions_short=app.pretty_exceptions_short,
                rich_markup_mode=app.rich_markup_mode,
            )
        return self.commands[name]

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """Each command with the first paragraph of its text whole (click would cut it to a
        line), read from its function: the command itself is not built."""
        rows = []
        for info in _commands.registered_commands:
            text = (inspect.getdoc(info.callback) or "").split("\n\n")[0]
            rows.append((info.name or "", " ".join(text.split())))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def parse_args(self, ctx, args: list[str]) -> list[str]:  # type: ignore[no-untyped-def]
        names = self.list_commands(ctx)
        if args and args[0] not in names and args[0] not in _GROUP_OPTIONS:
            _mistyped_command(args[0], names)
            args = [_DEFAULT_COMMAND, *args]
        return super().parse_args(ctx, args)


def _mistyped_command(word: str, commands: list[str]) -> None:
    """Refuse a first word that is no file, no size and no source but is near a command's
    name (``mazeart mkae horse.png``), naming the command."""
    import difflib

    if not re.fullmatch(r"[a-z]{2,12}", word) or Path(word).exists():
        return
    near = difflib.get_close_matches(word, commands, n=1, cutoff=0.6)
    if near:
        raise MazeartError(f"{word!r} is no command and no picture here: did you mean "
                           f"'mazeart {near[0]}'?")  # fmt: skip


_commands = typer.Typer()
"""The commands, each built into the group when it is named (:class:`_DefaultCommandGroup`)."""

app = typer.Typer(
    cls=_DefaultCommandGroup,
    add_completion=True,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: rich and its markdown cost more than numba to load
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Turn pictures into mazes that trace them.\n\n"
    "mazeart IMAGE -o maze.svg is short for mazeart make IMAGE -o maze.svg.",
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"mazeart {mazeart.__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version.", metavar=""
        ),
    ] = False,
) -> None:
    """Turn pictures into mazes that trace them."""


# ----------------------------------------------------------------------------- options


def _option(
    help: str,
    panel: str | None = None,
    *decls: str,
    metavar: str | None = None,
    choices: tuple[str, ...] | Callable[[], Iterable[str]] | None = None,
) -> Any:
    """An option; ``choices`` (or a function giving them when completing) complete it."""

    def complete(incomplete: str) -> list[str]:
        offered = choices() if callable(choices) else choices or ()
        return [c for c in offered if c.startswith(incomplete)]

    return typer.Option(
        *decls,
        help=help,
        rich_help_panel=panel,
        metavar=metavar,
        autocompletion=complete if choices else None,
    )


def _algorithms() -> list[str]:
    """The generators' names (the registry loads when a shell completes --algorithm)."""
    from mazeart.generators import ALGORITHMS

    return list(ALGORITHMS)


_METAVARS = {int: "N", float: "NUMBER", str: "TEXT", Path: "FILE", bool: ""}
_NAMED_METAVARS = {
    "threshold": "0-255", "coverage": "0-1", "braid": "0-1", "entrance": "ROW,COL", "decoys": "0-1",
    "wander": "0-1", "exit_": "ROW,COL", "place": "KIND=N,...", "size": "LENGTH", "page": "SIZE",
    "background": "COLOUR",
    "algorithm": "NAME", "textures": "NAME,...", "seed": "N", "line_width": "0-1",
    "margin": "CELLS", "page_margin": "MM", "cell_size": "SIZE", "centre": "X,Y",
}  # fmt: skip


def _metavar(param: str, kind: Any) -> str:
    """What the help shows after an option: its choices, its form, or its kind of value."""
    if param in _CHOICES:
        return "|".join(_CHOICES[param])
    if param in _NAMED_METAVARS:
        return _NAMED_METAVARS[param]
    bare = [k for k in getattr(kind, "__args__", (kind,)) if k is not type(None)]
    return _METAVARS.get(bare[0], "VALUE")


_IN, _MAZE, _SHAPE, _DRAW, _SOLVE, _ART, _PDF, _MAKE = (
    "Input", "Maze", "Connect and shape", "Drawing", "Solution", "Image-guided", "PDF",
    "Cut and print",
)  # fmt: skip
_SECTIONS = ("Arguments", "Options", _IN, _MAZE, _SHAPE, _ART, "Solution route", _DRAW, _SOLVE,
             _MAKE, _PDF, "Batch", "Limits")  # fmt: skip
"""The help's sections in the order of the pipeline (a section named elsewhere comes last)."""
_CHOICES = {
    "mode": MODES,
    "outline": ("cells", "smooth"),
    "geometry": ("cells", "blocks"),
    "grid": GRID_KINDS,
    "difficulty": ("easy", "medium", "hard"),
    "islands": ("connect", "separate"),
    "solver": ("bfs", "astar", "dead-end-filling", "wall-follower"),
    "hand": ("left", "right"),
}

# (parameter, library keyword, type, default, help, panel, flag names): the recipe's fields
# (mazeart.recipe, where each default lives), and the seed, which is make()'s rng.
_GENERATION: list[tuple[str, str, Any, Any, str, str, tuple[str, ...]]] = option_table()
_GENERATION.insert(
    [row[1] for row in _GENERATION].index("entrance"),
    ("seed", "rng", int | None, None, "Random seed (default: a fresh one, reported).", _MAZE, ()),
)

_DRAWING: list[tuple[str, str, Any, Any, str, str, tuple[str, ...]]] = [
    ("solution", "solution", bool, False, "Draw the solution path.", _SOLVE, ()),
    ("solver", "solver", str, "bfs", "How to find the solution: bfs, astar, dead-end-filling "
     "or wall-follower.", _SOLVE, ()),
    ("hand", "hand", str, "left", "The wall follower's hand: left or right.", _SOLVE, ()),
    ("paths", "paths", int, 1, "Draw up to K different paths found by random recursive "
     "backtracking (each its own colour).", _SOLVE, ()),
    ("markers", "markers", bool, True, "Mark the entrance (green) and the exit (red) with "
     "dots.", _DRAW, ()),
    ("background", "background", str | None, None, "Fill outside the maze: a colour "
     "(#rrggbb or a name) or transparent (default: white in PNG, none in SVG).", _DRAW, ()),
    ("plotter", "plotter", bool, False, "Strokes of one pen only (--line-width wide): tone as "
     "parallel lines, blocks and rooms hatched, nothing filled (SVG, PDF, PNG).", _DRAW,
     ("--plotter",)),
    ("one_stroke", "one_stroke", bool, False, "Each connected group of walls as one "
     "continuous line, retracing the least it can: one pen lift per group (SVG, PDF).", _DRAW,
     ("--one-stroke",)),
    ("cell_size", "cell_size", float, 10.0, "Cell size: pixels (PNG) or SVG user units.", _DRAW,
     ()),
    ("line_width", "line_width", float, 0.15, "Wall thickness as a fraction of a cell.", _DRAW,
     ()),
    ("margin", "margin", float, 1.0, "Blank border, in cells.", _DRAW, ()),
    ("size", "size", str | None, None, "Physical width, e.g. 180mm, 7in, 800px: an SVG's "
     "(default: fitted in 180 x 257 mm), an STL/3MF model's (default 100mm).", _DRAW, ()),
    ("cut", "cut", bool, False, "SVG for a laser cutter: the outlines of walls and rim "
     "in mm, corridors cut out of one sheet (with --kerf).", _MAKE, ("--cut",)),
    ("engrave", "engrave", bool, False, "SVG for a laser cutter: walls engraved, only the "
     "outline cut.", _MAKE, ("--engrave",)),
    ("kerf", "kerf", float, 0.0, "The width a laser's cut burns (mm); the outlines keep the "
     "walls and corridors their size.", _MAKE, ()),
    ("wall_height", "wall_height", float, 4.0, "STL/3MF: the walls' height above the floor "
     "(mm).", _MAKE, ()),
    ("base", "base", float, 2.0, "STL/3MF: the plate's thickness (mm); --solution grooves "
     "the path in its floor.", _MAKE, ()),
    ("page", "page", str, "A4", "PDF page: A3, A4, A5, letter, legal or WxH[mm|cm|in].", _PDF,
     ()),
    ("landscape", "landscape", bool, False, "Turn the PDF page sideways.", _PDF, ()),
    ("page_margin", "page_margin", float, 15.0, "PDF page margin in mm.", _PDF, ()),
    ("title", "title", str, "", "Title (top of a PDF page, the HTML game's heading).", _PDF, ()),
    ("footer", "footer", str, "", "PDF footer text.", _PDF, ()),
    ("answer", "answer", bool, True, "Add the PDF answer-key page.", _PDF, ()),
]  # fmt: skip

_LIMITS: list[tuple[str, str, Any, Any, str, str, tuple[str, ...]]] = [
    ("max_cells", "max_cells", int | None, None, "Refuse grids (and mazes held at once) of "
     "more cells than this (default: 2,000,000).", "Limits", ()),
    ("max_pixels", "max_pixels", int | None, None, "Refuse pictures to read and PNGs to draw "
     "of more pixels than this (default: 100,000,000).", "Limits", ()),
]  # fmt: skip

_SOLUTION_KEYS = ("solution", "solver", "hand", "paths")

_Given = dict[str, Any]
"""An option group as a command receives it: the options the user gave, by library name."""


def _given(ctx: typer.Context, group: list, values: dict[str, Any]) -> dict[str, Any]:
    """The options of a group the user gave, by their library names (choices checked)."""
    out = {}
    for param, key, *_ in group:
        source = ctx.get_parameter_source(param)
        if getattr(source, "name", "DEFAULT") != "DEFAULT":
            value = values[param]
            choices = _CHOICES.get(param)
            if choices and value is not None and value not in choices:
                raise MazeartError(f"--{param} must be one of {', '.join(choices)}, got {value!r}")
            out[key] = value
    return out


def _with_options(name: str, group: list) -> Any:
    """Add an option group to a command; it reaches the function as ``name``: a dict of
    the options the user gave, keyed by the library's names (the function takes ``ctx``)."""

    def decorate(func: Any) -> Any:
        sig = inspect.signature(func, eval_str=True)

        @functools.wraps(func)
        def wrapper(**kwargs: Any) -> Any:
            values = {param: kwargs.pop(param) for param, *_ in group}
            kwargs[name] = _given(kwargs["ctx"], group, values)
            if name == "gen":  # the recipe's values, checked before the library loads
                Recipe.split(kwargs[name])
            return func(**kwargs)

        params = [p for p in sig.parameters.values() if p.name != name]
        extra = [
            inspect.Parameter(
                param, inspect.Parameter.KEYWORD_ONLY, default=default,
                annotation=Annotated[
                    kind,
                    _option(
                        help_, panel, *decls, metavar=_metavar(param, kind),
                        choices=_algorithms if param == "algorithm" else _CHOICES.get(param),
                    ),
                ],
            )
            for param, _, kind, default, help_, panel, decls in group
        ]  # fmt: skip
        wrapper.__signature__ = sig.replace(parameters=[*params, *extra])  # type: ignore[attr-defined]
        wrapper.__annotations__ = {p.name: p.annotation for p in [*params, *extra]}
        return wrapper

    return decorate


def _limited(func: Any) -> Any:
    """Add --max-cells and --max-pixels to a command; its body runs within those limits."""

    @_with_options("lim", _LIMITS)
    @functools.wraps(func)
    def run(*args: Any, lim: dict[str, Any], **kwargs: Any) -> Any:
        with limits(**lim):
            return func(*args, **kwargs)

    return run


class _Progress:
    """A one-line progress bar on stderr, drawn only when stderr is a terminal."""

    def __init__(self, label: str, total: int, *, quiet: bool) -> None:
        self.label, self.total = label, total
        self.live = not quiet and total > 1 and sys.stderr.isatty()
        self.started = time.perf_counter()

    def __call__(self, done: int) -> None:
        if not self.live:
            return
        full = round(24 * done / self.total)
        elapsed = time.perf_counter() - self.started
        sys.stderr.write(
            f"\r{self.label} [{'#' * full}{'.' * (24 - full)}] {done}/{self.total} {elapsed:.1f} s"
        )
        if done >= self.total:
            sys.stderr.write("\r" + " " * (len(self.label) + 48) + "\r")
        sys.stderr.flush()


class _Ticker:
    """A job's progress line on stderr: its step among :data:`mazeart._progress.STEPS` as
    a bar, and the time so far. Drawn only on a terminal, not with ``--quiet``, and only
    once the job has run a second, every fifth of a second from a thread of its own."""

    active: _Ticker | None = None
    """The ticker drawing now, which a warning asks to make way (:meth:`clear`)."""

    def __init__(self, *, quiet: bool, delay: float = 1.0) -> None:
        self.lock = threading.Lock()
        self.live = not quiet and sys.stderr.isatty()
        self.delay = delay
        self.name = "starting"
        self.started = time.perf_counter()
        self.shown = 0

    def heard(self, name: str) -> None:
        self.name = name

    def line(self) -> str:
        from mazeart._progress import STEPS

        done = STEPS.index(self.name) if self.name in STEPS else 0
        bar = "#" * (done + 1) + "." * (len(STEPS) - done - 1)
        return f"mazeart: [{bar}] {self.name} {time.perf_counter() - self.started:.1f} s"

    def __enter__(self) -> _Ticker:
        from mazeart._progress import listening

        self.stack = contextlib.ExitStack()
        self.stack.enter_context(listening(self.heard))
        self.stop = threading.Event()
        if self.live:
            self.thread = threading.Thread(target=self.run, daemon=True)
            self.thread.start()
        _Ticker.active = self
        return self

    def run(self) -> None:
        if self.stop.wait(self.delay):
            return
        while not self.stop.is_set():
            text = self.line()
            with self.lock:
                sys.stderr.write("\r" + text.ljust(self.shown))
                sys.stderr.flush()
                self.shown = len(text)
            self.stop.wait(0.2)

    def say(self, text: str) -> None:
        """Print a line on stderr where the progress line was."""
        with self.lock:
            if self.shown:
                sys.stderr.write("\r" + " " * self.shown + "\r")
                self.shown = 0
            typer.echo(text, err=True)

    def clear(self) -> None:
        """Wipe the progress line (it comes back at the next tick, below what was said)."""
        with self.lock:
            if self.shown:
                sys.stderr.write("\r" + " " * self.shown + "\r")
                sys.stderr.flush()
                self.shown = 0

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        if self.live:
            self.thread.join()
            self.clear()
        _Ticker.active = None
        self.stack.close()


_AS_FLAGS = {
    "mode='silhouette'": "--mode silhouette", "mode='tone'": "--mode tone",
    "edges=False": "--no-edges", "grid='hex' or 'square'": "--grid hex or square",
}  # fmt: skip


def _extras(ctx: typer.Context) -> list[str]:
    """The command line's extra options (the algorithm's), after catching typos of the
    command's own: ``--cels 20`` is answered with "did you mean --cells?"."""
    import difflib

    from mazeart.generators import ALGORITHMS

    known = {
        name.replace("_", "-")
        for algo in ALGORITHMS.values()
        for option in algo.options
        for name in (option, f"no_{option}")
    }
    flags = [o for p in ctx.command.params for o in getattr(p, "opts", []) if o.startswith("--")]
    flags += [o for p in ctx.command.params for o in getattr(p, "secondary_opts", [])]
    flags += [f"--{name}" for name in sorted(known)]  # the algorithms' own
    for token in ctx.args:
        if not token.startswith("--") or token == "--":
            continue
        name = token[2:].split("=", 1)[0]
        if name in known:
            continue
        close = difflib.get_close_matches(f"--{name}", flags, n=1, cutoff=0.6)
        if close:
            raise MazeartError(f"no such option --{name} (did you mean {close[0]}?)")
    return list(ctx.args)


def _not_an_input(output: Path | None, *inputs: Path | None) -> None:
    """Refuse to write over a file the command reads (``mazeart logo.png -o logo.png``)."""
    if output is None or not output.exists():
        return
    for given in inputs:
        if given is not None and given.exists() and output.resolve() == given.resolve():
            raise MazeartError(
                f"cannot write {output}: it is the input {given}; choose another name"
            )


def _report(message: str, quiet: bool) -> None:
    if not quiet:
        for name, flag in _AS_FLAGS.items():  # the library's words for options, as flags
            message = message.replace(name, flag)
        typer.echo(f"mazeart: {printable(message)}", err=True)


Source = Annotated[
    Path,
    typer.Argument(
        help="Picture (any format Pillow reads, or SVG), preset (.npy, .txt, preset .png), "
        "saved maze (.json), or WxH for a plain rectangle (30x20).",
        show_default=False,
        metavar="SOURCE",
    ),
]
Quiet = Annotated[
    bool, typer.Option("--quiet", "-q", help="Print nothing on success but warnings.", metavar="")
]
Output = Annotated[
    Path,
    typer.Option(
        "--output",
        "-o",
        help=f"Output file: {', '.join(FORMATS)}; - for standard output (see --format).",
        show_default=False,
        metavar="FILE",
    ),
]
_EXTRA = {"allow_extra_args": True, "ignore_unknown_options": True}
_STREAMED = ("svg", "json", "txt", "html", "png", "pdf")
"""Formats ``-o -`` writes to standard output (PNG and PDF only into a pipe or a file)."""
_EPILOG = (
    "Options of the chosen algorithm follow as --name value "
    "(e.g. --select newest --bias 0.7 for growing-tree); see: mazeart algorithms."
)


def _warn(message: str, quiet: bool) -> None:
    """A warning line on stderr; ``--quiet`` keeps it (it is about the result, not progress)."""
    text = f"mazeart: warning: {printable(message)}"
    if _Ticker.active is not None:  # a progress line makes way, and comes back below
        _Ticker.active.say(text)
    else:
        typer.echo(text, err=True)


@contextlib.contextmanager
def _warnings_said(quiet: bool) -> Iterator[None]:
    """The library's warnings (:class:`~mazeart.errors.MazeartWarning`) said as
    :func:`_warn` lines as they come."""
    import warnings

    from mazeart.errors import MazeartWarning

    with warnings.catch_warnings():
        warnings.simplefilter("always", MazeartWarning)
        shown = warnings.showwarning

        def say(message: Any, category: Any, *args: Any, **kwargs: Any) -> None:
            if issubclass(category, MazeartWarning):
                _warn(str(message), quiet)
            else:
                shown(message, category, *args, **kwargs)

        warnings.showwarning = say
        yield


class _Destination:
    """Where a command's output goes: a file, or standard output for ``-o -``.

    Standard output is written through a file in a private temporary folder, so
    every writer serves both, and nothing reaches the stream unless the whole
    job succeeded.
    """

    def __init__(self, output: Path, format_: str | None) -> None:
        self.stream = str(output) == "-"
        fmt = None
        if format_ is not None:
            fmt = format_.lower().lstrip(".")
            if fmt not in _STREAMED:
                raise MazeartError(
                    f"--format must be one of {', '.join(_STREAMED)}, got {format_!r}"
                )
            if not self.stream and output.suffix.lower() != f".{fmt}":
                raise MazeartError(
                    f"--format {fmt} is the format of -o - (standard output); "
                    f"{output} is written as its suffix says"
                )
        if self.stream:
            fmt = fmt or "svg"
            if fmt in ("png", "pdf") and sys.stdout.isatty():
                raise MazeartError(
                    f"a {fmt.upper()} is not for a terminal: redirect it (> maze.{fmt}) or "
                    "name a file with -o"
                )
            import tempfile

            self._folder = tempfile.TemporaryDirectory(prefix="mazeart-")
            self.path = Path(self._folder.name) / f"maze.{fmt}"
        else:
            from mazeart.export import check_output_path

            self.path = check_output_path(output)
        self.suffix = self.path.suffix.lower()
        self.name = "standard output" if self.stream else str(output)

    def applicable(self, draw: dict[str, Any], quiet: bool) -> dict[str, Any]:
        """The drawing options this format takes; a warning names the others."""
        from mazeart.export import _CUT, _DRAWN, FORMAT_OPTIONS

        takes = set(FORMAT_OPTIONS[self.suffix])
        if self.suffix == ".html":
            takes.add("levels")
        if self.suffix in _DRAWN:
            takes = takes | set(_SOLUTION_KEYS)
        ignored = [k for k in draw if k not in takes]
        if ignored:  # ignored, but not when wrong: a bad value is an error whatever the format
            from mazeart.export._style import style_from

            every = FORMAT_OPTIONS[".svg"] - _CUT  # every drawing option
            style_from({k: draw[k] for k in ignored if k in every})
            for k in set(ignored) & {"kerf", "wall_height", "base"}:  # millimetres
                check_number(draw[k], _FLAGS.get(k, "--" + k.replace("_", "-")), low=0,
                             high=10_000, low_open=k != "kerf")  # fmt: skip
            flags = ", ".join(_FLAGS.get(k, "--" + k.replace("_", "-")) for k in ignored)
            verb = "does" if len(ignored) == 1 else "do"
            _warn(f"{flags} {verb} not apply to {self.suffix} output (ignored)", quiet)
        return {k: v for k, v in draw.items() if k in takes}

    def deliver(self) -> None:
        """Copy a streamed output to standard output (nothing to do for a file)."""
        if self.stream:
            data = self.path.read_bytes()
            self._folder.cleanup()
            sys.stdout.flush()
            raw = getattr(sys.stdout, "buffer", None)
            if raw is None:  # a text-only stream (an embedding program's)
                sys.stdout.write(data.decode("utf-8", errors="replace"))
                return
            raw.write(data)
            raw.flush()


# ----------------------------------------------------------------------------- workers

Jobs = Annotated[
    int | None,
    _option("Worker processes (default: every core; 1: none).", "Batch", metavar="N"),
]
Scheduler = Annotated[
    str | None,
    _option(
        "Run on a Dask cluster: its scheduler's ADDRESS (needs mazeart[dask]).",
        "Batch",
        metavar="ADDRESS",
    ),
]
_CONNECT_TIMEOUT = 10.0
"""Seconds to wait for a Dask scheduler to answer."""


@contextlib.contextmanager
def _workers(jobs: int | None, scheduler: str | None) -> Iterator[dict[str, Any]]:
    """The library's ``jobs`` or ``executor`` for --jobs and --scheduler (a Dask client's
    executor, connected for the block)."""
    if jobs is not None:
        from mazeart._pool import MAX_JOBS

        check_int(jobs, "--jobs", minimum=1, maximum=MAX_JOBS)
    if scheduler is None:
        yield {"jobs": jobs}
        return
    if jobs is not None:
        raise MazeartError("--jobs and --scheduler: the cluster's workers do the work; give one")
    try:
        from distributed import Client
    except ImportError:
        raise MazeartError(
            "--scheduler needs Dask's distributed scheduler: pip install 'mazeart[dask]'"
        ) from None
    client = _connect(Client, scheduler)
    with client:
        if not client.scheduler_info().get("workers"):
            raise MazeartError(f"the scheduler {scheduler} has no workers to do the work")

        def alive() -> bool:
            return bool(client.scheduler_info().get("workers"))

        from mazeart._pool import Watched

        yield {"jobs": None, "executor": Watched(client.get_executor(), alive)}


def _connect(client_class: Any, scheduler: str) -> Any:
    """A Dask client of ``scheduler``, or a one-line error: within a deadline, whatever the
    other end does (refuses, or accepts and says nothing)."""
    import threading

    made: list[Any] = []

    def connect() -> None:
        try:
            made.append(client_class(scheduler, timeout=_CONNECT_TIMEOUT, set_as_default=False))
        except Exception as exc:  # said below, in this thread
            made.append(exc)

    thread = threading.Thread(target=connect, daemon=True)
    thread.start()
    thread.join(2 * _CONNECT_TIMEOUT)
    if not made:
        raise MazeartError(
            f"the scheduler {scheduler} did not answer within {2 * _CONNECT_TIMEOUT:g} s"
        )
    if isinstance(made[0], Exception):
        raise MazeartError(f"cannot reach the scheduler {scheduler}: {made[0]}")
    return made[0]


# ----------------------------------------------------------------------------- commands


@_commands.command(_DEFAULT_COMMAND, cls=_Command, context_settings=_EXTRA, epilog=_EPILOG)
@_limited
@_with_options("draw", _DRAWING)
@_with_options("gen", _GENERATION)
def make_command(
    ctx: typer.Context,
    source: Source,
    output: Output = None,  # type: ignore[assignment]
    ascii_: Annotated[
        bool, _option("Print the maze in plain characters.", _DRAW, "--ascii", metavar="")
    ] = False,
    levels: Annotated[
        int, _option("HTML game: this many mazes (seeds SEED, SEED+1, ...).", metavar="N")
    ] = 1,
    animate: Annotated[
        Path | None, _option("Also write a GIF of the carving.", _DRAW, metavar="FILE.gif")
    ] = None,
    format_: Annotated[
        str | None,
        _option(
            f"Format of -o - (standard output): {', '.join(_STREAMED)} (default svg).",
            None,
            "--format",
            metavar="|".join(_STREAMED),
        ),
    ] = None,
    jobs: Jobs = None,
    scheduler: Scheduler = None,
    quiet: Quiet = False,
    gen: _Given = None,  # type: ignore[assignment]
    draw: _Given = None,  # type: ignore[assignment]
) -> None:
    """Make a maze from a picture or preset (or redraw a saved one) and write it to OUTPUT.

    The format follows OUTPUT's suffix: .svg, .png, .pdf (with an answer key),
    .json (a saved maze, which every command reads back), .txt, .html, .tmj, .tmx,
    .stl and .3mf (a model to print).
    """
    started = time.perf_counter()
    dest = _make_destination(source, output, animate, format_, ascii_, levels, gen)
    args = _extras(ctx)
    from mazeart.pipeline import make, make_many, square_only  # the arguments hold: to work

    if dest is not None and (dest.suffix in _MODELS or draw.get("cut") or draw.get("engrave")):
        _model_cells(source, dest.suffix, gen, draw)
    progress = _Progress(f"best of {gen.get('best_of', 1)}", gen.get("best_of", 1), quiet=quiet)
    opts = {"args": args, "record": animate is not None, "progress": progress, **gen}
    best_of = gen.get("best_of", 1) > 1  # (--best-of draws its own bar)
    with _Ticker(quiet=quiet or best_of):
        with _workers(jobs, scheduler) as workers:  # --best-of's candidates, --levels' mazes
            opts.update(workers)
            made_all = (make_many(source, levels, **opts) if levels != 1
                        else [make(source, **opts)])  # fmt: skip
        made = made_all[0]
        for warning in made.warnings:
            _warn(warning, quiet)
        _write_made(made_all, dest, animate, draw, quiet)
    if ascii_:
        from mazeart.export.text import to_ascii

        typer.echo(to_ascii(square_only(made.maze, "--ascii")), nl=False)
    elapsed = time.perf_counter() - started
    names = [dest.name if dest is not None else None, None if animate is None else str(animate)]
    wrote = ", ".join(n for n in names if n is not None) or "nothing"
    _report(f"wrote {wrote} ({made.summary()}, {elapsed:.2f} s)", quiet)


_MODELS = (".stl", ".3mf")


def _model_cells(source: Path, suffix: str, gen: dict[str, Any], draw: dict[str, Any]) -> None:
    """A picture made to print or cut, with no --cells: cells a printer or a laser can make
    at the piece's size (:func:`mazeart.pipeline.model_cells`)."""
    from mazeart.export.mesh import MODEL_SIZE
    from mazeart.export.solid import length_mm
    from mazeart.pipeline import model_cells

    if suffix in _MODELS:
        size = length_mm(draw.get("size") or MODEL_SIZE, "--size")
    else:
        from mazeart.export.cut import FIT_MM

        size = length_mm(draw["size"], "--size") if draw.get("size") else FIT_MM[0]
    cells = model_cells(source, size, gen)
    if cells is not None:
        gen["cells"] = cells


def _make_destination(
    source: Path,
    output: Path | None,
    animate: Path | None,
    format_: str | None,
    ascii_: bool,
    levels: int,
    gen: dict[str, Any],
) -> _Destination | None:
    """Check where ``mazeart make`` writes, before any work: a clear error for an output
    that cannot be, and the destination (None when the maze is only printed)."""
    if output is None and not ascii_:
        raise MazeartError("say where to write the maze with -o FILE (or print it with --ascii)")
    check_count(levels, "--levels")
    if output is not None and output.suffix.lower() == ".gif":
        raise MazeartError("a GIF animates the carve: write it with --animate carve.gif")
    if animate is not None and animate.suffix.lower() != ".gif":
        raise MazeartError(f"--animate writes a GIF, got {animate}")
    if output is None and format_ is not None:
        raise MazeartError("--format applies to -o - (standard output)")
    dest = None if output is None else _Destination(output, format_)
    if dest is not None and dest.stream and ascii_:
        raise MazeartError("--ascii and -o - both print to standard output; choose one")
    if dest is not None and dest.stream and dest.suffix in (".tmj", ".tmx"):
        raise MazeartError("a Tiled map comes with its tileset image: write it to a file")
    if levels != 1 and (dest is None or dest.suffix != ".html"):
        raise MazeartError("--levels applies to an HTML game (-o game.html)")
    if animate is not None:
        check_writable(animate)
    for out in (output, animate):
        _not_an_input(out, source, gen.get("rooms"))
    return dest


def _write_made(
    made_all: list[Any],
    dest: _Destination | None,
    animate: Path | None,
    draw: dict[str, Any],
    quiet: bool,
) -> None:
    """Write the made maze (and an HTML game's other levels, the carve's GIF): every file
    moves into place only when all are written."""
    from mazeart.export import FORMAT_OPTIONS
    from mazeart.pipeline import save

    made = made_all[0]
    with all_or_nothing(), _warnings_said(quiet):  # what writing found (a cut in pieces)
        if dest is not None:
            todo = dest.applicable(draw, quiet)
            if dest.suffix == ".html":
                todo.setdefault("levels", made_all)
            save(made, dest.path, **todo)
        if animate is not None:
            gif = FORMAT_OPTIONS[".png"] | set(_SOLUTION_KEYS)  # a GIF's frames: PNG drawings
            save(made, animate, **{k: v for k, v in draw.items() if k in gif})
    if dest is not None:
        dest.deliver()


@_commands.command("solve", cls=_Command, context_settings=_EXTRA, epilog=_EPILOG)
@_limited
@_with_options("draw", _DRAWING)
@_with_options("gen", _GENERATION)
def solve_command(
    ctx: typer.Context,
    source: Source,
    output: Output,
    format_: Annotated[
        str | None,
        _option(
            "Format of -o - (standard output): svg, png or pdf (default svg).",
            None,
            "--format",
            metavar="svg|png|pdf",
        ),
    ] = None,
    quiet: Quiet = False,
    gen: _Given = None,  # type: ignore[assignment]
    draw: _Given = None,  # type: ignore[assignment]
) -> None:
    """Solve a saved maze (or one made from a picture) and draw it with its solution.

    --solver picks the method (bfs, astar, dead-end-filling, wall-follower with
    --hand); --paths K draws up to K different paths by random backtracking.
    A wall follower that cannot reach the exit says so and writes nothing.
    """
    from mazeart.export import _DRAWN
    from mazeart.pipeline import make, save, solutions

    dest = _Destination(output, format_)
    if dest.suffix not in _DRAWN:
        raise MazeartError(f"a solution is drawn in {', '.join(_DRAWN)}, not {dest.suffix}")
    _not_an_input(output, source, gen.get("rooms"))
    made = make(source, args=_extras(ctx), **gen)
    for warning in made.warnings:
        _warn(warning, quiet)
    how = {k: draw.pop(k) for k in _SOLUTION_KEYS if k in draw}
    how.pop("solution", None)
    found = solutions(made.maze, **how)
    with _warnings_said(quiet):
        save(made, dest.path, solution=True, **how, **dest.applicable(draw, quiet))
    dest.deliver()
    paths = how.get("paths", 1)
    lengths = ", ".join(str(len(p)) for p in found)
    method = "random backtracking" if paths > 1 else how.get("solver", "bfs")
    if method == "wall-follower":
        method += f" ({how.get('hand', 'left')} hand)"
    what = f"{len(found)} path{'s' * (len(found) != 1)} of" if paths > 1 else "a path of"
    note = f" (asked for {paths}; the maze has no more)" if paths > len(found) else ""
    _report(f"wrote {dest.name}: {method} found {what} {lengths} cells{note}", quiet)


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
    "drawn_reachable": "floor a pen reaches, as drawn",
    "drawn_pockets": "floor sealed off, as drawn",
    "drawn_exit": "exit reached, as drawn",
    "drawn_doors": "both doors open, as drawn",
    "drawn_gaps": "gaps in the outer wall",
    "footprint_iou": "footprint IoU with the picture",
    "edge_share": "picture edges on walls",
    "edge_share_chance": "  (a blind maze: about)",
}
_PERCENT = (
    "solution_share", "straightness", "edge_share", "edge_share_chance", "drawn_reachable"
)  # fmt: skip


def _end(cell: Any) -> Any:
    """An end for the report: ``[row, col]`` on squares, a cell id on other grids."""
    return None if cell is None else list(cell) if isinstance(cell, tuple) else cell


@_commands.command("info", cls=_Command, context_settings=_EXTRA, epilog=_EPILOG)
@_limited
@_with_options("gen", _GENERATION)
def info_command(
    ctx: typer.Context,
    source: Source,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print JSON instead of a table.", metavar="")
    ] = False,
    gen: _Given = None,  # type: ignore[assignment]
) -> None:
    """Measure a saved maze (or one made from a picture): size, solution, dead ends, loops."""
    from mazeart.pipeline import make

    made = make(source, args=_extras(ctx), **gen)
    maze = made.maze
    metrics = made.metrics()
    about = {
        "source": str(source),
        "algorithm": maze.meta.get("algorithm"),
        "seed": maze.meta.get("seed"),
        "entrance": _end(maze.entrance),
        "exit": _end(maze.exit),
    }
    if as_json:
        typer.echo(dump_json({**about, **metrics}, indent=2))
        return
    width = max(len(v) for v in _INFO_LABELS.values())
    ends = f"{maze.entrance} -> {maze.exit}" if maze.entrance else "none"
    typer.echo(f"{'source':<{width}}  {printable(source)}")
    typer.echo(f"{'algorithm, seed':<{width}}  {printable(about['algorithm'])}, {about['seed']}")
    typer.echo(f"{'entrance -> exit':<{width}}  {ends}")
    for key, label in _INFO_LABELS.items():
        if key in metrics:
            value = metrics[key]
            shown = ("yes" if value else "no") if isinstance(value, bool) else value
            typer.echo(f"{label:<{width}}  {f'{100 * value:.1f} %' if key in _PERCENT else shown}")


# ----------------------------------------------------------------------------- batches


@_commands.command("batch", cls=_Command, context_settings=_EXTRA, epilog=_EPILOG)
@_limited
@_with_options("gen", _GENERATION)
def batch_command(
    ctx: typer.Context,
    source: Source,
    output: Annotated[
        Path,
        typer.Option(
            "--output",
            "-o",
            help="The folder to write (made if missing).",
            show_default=False,
            metavar="DIR",
        ),
    ],
    count: Annotated[int, _option("Mazes to make.", metavar="N")] = 10,
    format_: Annotated[
        str,
        _option(
            f"Files per maze, any of {','.join(BATCH_FORMATS)}.",
            None,
            "--format",
            metavar="FMT,...",
        ),
    ] = "svg",
    solution: Annotated[bool, _option("Draw the solution path.", metavar="")] = False,
    jobs: Jobs = None,
    scheduler: Scheduler = None,
    quiet: Quiet = False,
    gen: _Given = None,  # type: ignore[assignment]
) -> None:
    """Make COUNT mazes of one recipe into a folder, with their metrics (metrics.json).

    Maze i is made with the run's seed and index i, so the files are the same
    for any --jobs, and each row of metrics.json records the seed that makes
    its maze again. Nothing is written unless every maze succeeds.
    """
    from mazeart.batch import run_batch

    started = time.perf_counter()
    _not_an_input(output, source, gen.get("rooms"))
    options = {**gen, **({"args": _extras(ctx)} if ctx.args else {})}
    with _workers(jobs, scheduler) as workers:
        rows = run_batch(
            str(source), count, output, formats=format_, drawing={"solution": solution},
            progress=_Progress("batch", count, quiet=quiet), **workers, **options,
        )  # fmt: skip
    elapsed = time.perf_counter() - started
    seed = rows[0]["seed"]
    _report(f"wrote {count} mazes to {output} (seed {seed}, {elapsed:.1f} s)", quiet)


@_commands.command("book", cls=_Command)
@_limited
@_with_options("gen", _GENERATION)
def book_command(
    ctx: typer.Context,
    sources: Annotated[
        list[Path],
        typer.Argument(
            help="Pictures, presets or saved mazes; used in turn for the pages.",
            show_default=False,
            metavar="SOURCE",
        ),
    ],
    output: Annotated[
        Path,
        typer.Option(
            "--output", "-o", help="The book (.pdf).", show_default=False, metavar="FILE.pdf"
        ),
    ],
    count: Annotated[int, _option("Mazes in the book.", metavar="N")] = 10,
    page: Annotated[str, _option("Page: A3, A4, A5, letter, legal or WxH.", metavar="SIZE")] = "A4",
    landscape: Annotated[bool, _option("Turn the pages sideways.", metavar="")] = False,
    page_margin: Annotated[float, _option("Page margin in mm.", metavar="MM")] = 15.0,
    title: Annotated[str, _option("Book title; pages read 'TITLE #n'.", metavar="TEXT")] = "",
    footer: Annotated[str, _option("Footer text on every page.", metavar="TEXT")] = "",
    answer: Annotated[bool, _option("Answer keys at the back.", metavar="")] = True,
    cover: Annotated[
        bool, _option("A cover: the title over a maze that is not a puzzle.", metavar="")
    ] = True,
    contents: Annotated[bool, _option("A contents page, a line per puzzle.", metavar="")] = True,
    bleed: Annotated[
        bool,
        _option(
            "Add the 1/8 in (3.2 mm) bleed print-on-demand services ask for on the top, "
            "bottom and outer edges; --page is the trim (e.g. 6x9in).",
            metavar="",
        ),
    ] = False,
    line_width: Annotated[float, _option("Wall thickness, share of a cell.", metavar="0-1")] = 0.15,
    jobs: Jobs = None,
    scheduler: Scheduler = None,
    quiet: Quiet = False,
    gen: _Given = None,  # type: ignore[assignment]
) -> None:
    """Make a printable puzzle book: a cover, the contents, COUNT mazes one per page, answer
    keys at the back.

    Without --cells each picture is sized to --difficulty (medium by default): its
    thinnest strokes wide enough for a maze, every picture about as many cells. Each
    page prints its maze's algorithm, seed and size, so any page can be made again
    with mazeart SOURCE --seed SEED --cells WIDTH.
    """
    from mazeart.pipeline import make_book

    started = time.perf_counter()
    _not_an_input(output, *sources, gen.get("rooms"))
    with _workers(jobs, scheduler) as workers, _warnings_said(quiet):
        make_book(
            sources, output, count=count, progress=_Progress("book", count, quiet=quiet),
            page=page, landscape=landscape, page_margin=page_margin, title=title, footer=footer,
            answer=answer, cover=cover, contents=contents, bleed=3.175 if bleed else 0.0,
            line_width=line_width, **workers, **gen,
        )  # fmt: skip
    elapsed = time.perf_counter() - started
    _report(f"wrote {output} ({count} mazes, {elapsed:.1f} s)", quiet)


@_commands.command("play", cls=_Command, context_settings=_EXTRA, epilog=_EPILOG)
@_limited
@_with_options("gen", _GENERATION)
def play_command(
    ctx: typer.Context,
    source: Annotated[
        Path | None,
        typer.Argument(
            help="Picture, preset or saved maze (default: a maze that fits the terminal).",
            show_default=False,
            metavar="SOURCE",
        ),
    ] = None,
    levels: Annotated[
        int, _option("Mazes to play; 0 plays until you quit with q.", metavar="N")
    ] = 3,
    gen: _Given = None,  # type: ignore[assignment]
) -> None:
    """Play in the terminal: arrow keys or WASD, a timer, a fresh maze after each win.

    The five best times of each maze are kept in the user's data directory
    ($MAZEART_DATA_DIR overrides it). Mazes larger than the terminal scroll.
    """
    from mazeart.pipeline import play_levels

    levels = check_int(levels, "--levels", minimum=0)
    try:
        import curses  # noqa: F401
    except ImportError:  # a Python built without it (Windows without windows-curses)
        raise MazeartError(
            "mazeart play needs Python's curses module: pip install windows-curses on Windows, "
            "or play in the browser with -o maze.html"
        ) from None
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        raise MazeartError("mazeart play needs a terminal")
    if source is None:  # a maze that fits the terminal
        import shutil

        import numpy as np

        columns, lines = shutil.get_terminal_size((80, 24))
        kind = gen.get("grid") or ("weave" if gen.get("weave") else "square")
        if kind == "square":
            wide, tall = max(4, (columns // 2 - 1) // 2), max(3, (lines - 3) // 2)
            level = play_levels(np.zeros((tall, wide), np.int32), args=_extras(ctx), **gen)
        else:  # painted at a few blocks a cell (mazeart.play.terminal.grid_picture)
            from mazeart.play.terminal import BLOCKS_PER_CELL

            per = BLOCKS_PER_CELL.get(kind, 4)
            wide, tall = max(4, (columns // 2 - 2) // per), max(3, (lines - 4) // per)
            level = play_levels(f"{wide}x{tall}", args=_extras(ctx), **gen)
    else:
        level = play_levels(source, args=_extras(ctx), **gen)
    from mazeart.play.terminal import play

    result = play(level, count=levels or None)
    for problem in result.problems:
        _warn(problem, False)
    if result.times:
        pairs = zip(result.times, result.records, strict=True)
        times = ", ".join(f"{t:.1f} s{' (best)' * new}" for t, new in pairs)
        n = len(result.times)
        typer.echo(f"mazeart: solved {n} maze{'s' * (n != 1)}: {times}")
    elif result.quit:
        typer.echo("mazeart: quit before solving a maze")


@_commands.command("studio", cls=_Command)
def studio_command(
    source: Annotated[
        str | None,
        typer.Argument(
            help="Picture, preset, saved maze or design file to start from (default: a 40 x 30 "
            "rectangle).",
            show_default=False,
            metavar="SOURCE",
        ),
    ] = None,
    port: Annotated[int, _option("Port to listen on (0: a free one).", None, "--port")] = 0,
    host: Annotated[
        str,
        _option(
            "Address to listen on; another than 127.0.0.1 lets other machines in.", None, "--host"
        ),
    ] = "127.0.0.1",
    browser: Annotated[
        bool, _option("Open the page in the browser.", None, "--browser/--no-browser")
    ] = True,
) -> None:
    """Shape a maze on its picture in the browser: paint, rooms, ends, tags, every option.

    Serves one page on this machine (its address, with a token in it, is printed) until
    Ctrl-C. The page downloads the design as one file, which mazeart DESIGN.json -o
    maze.svg renders again, and exports every format the command line writes.
    """
    from mazeart.studio import serve

    port = check_int(port, "--port", minimum=0, maximum=65535)
    if host not in ("127.0.0.1", "localhost", "::1"):
        _warn(f"listening on {host}: other machines can reach the studio (with its token)", False)
    serve(source, host=host, port=port, browser=browser)
    typer.echo("mazeart studio: stopped")


_PRESET_KEYS = ("cells", "threshold", "invert", "coverage", "preset", "colour_rooms", "rooms")


@_commands.command("weights", cls=_Command)
@_limited
@_with_options("gen", [g for g in _GENERATION if g[0] in _PRESET_KEYS])
def weights_command(
    ctx: typer.Context,
    source: Source,
    output: Annotated[
        Path,
        typer.Option(
            "--output",
            "-o",
            help=f"Preset file: {', '.join(PRESET_SUFFIXES)}.",
            show_default=False,
            metavar="FILE",
        ),
    ],
    quiet: Quiet = False,
    gen: _Given = None,  # type: ignore[assignment]
) -> None:
    """Write the preset weight matrix of a picture, to edit and feed back to mazeart."""
    from mazeart.pipeline import make_preset
    from mazeart.weights import FREE, save_preset

    suffix = output.suffix.lower()
    if suffix not in PRESET_SUFFIXES:
        raise MazeartError(
            f"cannot write {output}: unknown preset format {suffix or '(no suffix)'!r} "
            f"(choose from {', '.join(PRESET_SUFFIXES)})"
        )
    check_writable(output)
    _not_an_input(output, source, gen.get("rooms"))
    weights = make_preset(source, **gen)
    save_preset(weights, output)
    h, w = weights.shape
    _report(f"wrote {output} ({w} x {h} cells, {int((weights == FREE).sum())} free)", quiet)


@_commands.command("stream", cls=_Command)
def stream_command(
    size: Annotated[
        str,
        typer.Argument(
            help="Maze size in cells, WxH (50000x50000).", show_default=False, metavar="WxH"
        ),
    ],
    output: Annotated[
        Path,
        typer.Option(
            "--output",
            "-o",
            help="The picture (.png) or the saved maze (.json).",
            show_default=False,
            metavar="FILE.png|FILE.json",
        ),
    ],
    algorithm: Annotated[
        str,
        _option("eller, sidewinder or binary-tree.", None, "--algorithm", "-a", metavar="NAME"),
    ] = "eller",
    seed: Annotated[int | None, _option("Random seed (default: a fresh one).", metavar="N")] = None,
    cell_size: Annotated[int, _option("Pixels of a cell and of a wall.", metavar="PX")] = 2,
    quiet: Quiet = False,
) -> None:
    """Write a rectangle maze of any height as a 1-bit PNG or a saved maze, row by row.

    Memory grows with the width only, so mazes far beyond --max-cells fit
    (a 50000 x 50000 maze needs no more than a small one). The same --seed gives the
    same maze as mazeart make with that algorithm's generator on the rectangle; a
    streamed .json is entered at its top-left cell and left at its bottom-right one.
    """
    from mazeart._rng import fresh_seed
    from mazeart.stream import stream_json, stream_png

    started = time.perf_counter()
    m = re.fullmatch(r"(\d{1,9})[xX](\d{1,9})", size)
    if m is None or 0 in (int(m.group(1)), int(m.group(2))):
        raise MazeartError(f"WxH must be two whole numbers from 1 up, like 300x200; got {size!r}")
    cols, rows = int(m.group(1)), int(m.group(2))
    suffix = output.suffix.lower()
    if suffix not in (".png", ".json"):
        raise MazeartError(
            f"cannot write {output}: stream writes a PNG picture or a saved maze "
            "(name it .png or .json)"
        )
    seed = fresh_seed() if seed is None else seed
    progress = _Progress("stream", rows, quiet=quiet)
    if suffix == ".json":
        stream_json(output, rows, cols, algorithm=algorithm, rng=seed, progress=progress)
        size = "saved maze"
    else:
        width, height = stream_png(
            output, rows, cols, algorithm=algorithm, rng=seed, cell_size=cell_size,
            progress=progress,
        )  # fmt: skip
        size = f"{width} x {height} px"
    elapsed = time.perf_counter() - started
    mb = output.stat().st_size / 1e6
    _report(
        f"wrote {output} ({cols} x {rows} cells, {algorithm}, seed {seed}, {size}, "
        f"{mb:.1f} MB, {elapsed:.1f} s)",
        quiet,
    )


@_commands.command("algorithms", cls=_Command)
def algorithms_command() -> None:
    """List the maze generators, with the geometries and grids each carves."""
    from mazeart.generators import ALGORITHMS

    width = max(len(name) for name in ALGORITHMS)
    for algo in ALGORITHMS.values():
        uniform = "uniform" if algo.uniform else "biased"
        typer.echo(f"{algo.name:<{width}}  {algo.description}")
        grids = ", ".join(algo.grids)
        typer.echo(f"{'':<{width}}  geometries: {', '.join(algo.geometries)}; grids: {grids}; "
                   f"{uniform}")  # fmt: skip
        shown = {k: v for k, v in algo.options.items() if v is not None}  # arrays: library only
        if shown:
            opts = ", ".join(f"--{k.replace('_', '-')} {v}" for k, v in shown.items())
            typer.echo(f"{'':<{width}}  options: {opts}")


# ----------------------------------------------------------------------------- entry point


_FLAGS = {key: "--" + param.rstrip("_").replace("_", "-") for param, key, *_ in
          _GENERATION + _DRAWING + _LIMITS}  # fmt: skip
_FLAGS["rng"] = "--seed"
_NAMED = re.compile(r"^(\w+)(?=( must | applies |: not an option| does not ))")
_LIMIT_NAMES = re.compile(r"\b(max_cells|max_pixels)\b")


def _fail(message: str) -> int:
    message = " ".join(printable(message).split())  # one line, whatever the exception said
    # the library names its parameters; on the command line they are flags
    message = _NAMED.sub(lambda m: _FLAGS.get(m.group(1), m.group(1)), message)
    message = _LIMIT_NAMES.sub(lambda m: _FLAGS[m.group(1)], message)
    print(f"mazeart: error: {message}", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; return the exit status.

    Ctrl-C exits with status 130 (``mazeart: interrupted``), SIGTERM with 143;
    either way no temporary file is left behind and no output is half-written.
    """
    return guarded(lambda: _run(argv))


def _plain_usage(message: str) -> str:
    """A usage error said the project's way: ``--cells must be a whole number, got 'abc'``."""
    found = re.fullmatch(r"Invalid value for '([^']+)': (['\"])(.*)\2 is not a valid (\w+)\.?",
                         message, re.DOTALL)  # fmt: skip
    if found is None:
        return message
    option, quote, value, kind = found.groups()
    what = {"int": "a whole number", "integer": "a whole number", "float": "a number"}
    return f"{option} must be {what.get(kind, kind)}, got {quote}{value}{quote}"


def _run(argv: list[str] | None) -> int:
    try:
        status = app(args=argv, prog_name="mazeart", standalone_mode=False)
    except MazeartError as exc:
        if os.environ.get("MAZEART_DEBUG"):
            raise
        return _fail(str(exc))
    except OSError as exc:  # an output that cannot take it: a full disk, a closed pipe
        if stopped(exc) is not None or os.environ.get("MAZEART_DEBUG"):
            raise
        if exc.errno == errno.EPIPE and not exc.filename:  # a reader gone (| head): quiet,
            return 1  # as click leaves it when the pipe closes under its own echo
        where = f"write {exc.filename}" if exc.filename else "write to standard output"
        return _fail(f"cannot {where}: {exc.strerror or exc}")
    except Exception as exc:
        if stopped(exc) is not None:  # a signal that arrived inside a compiled kernel
            raise
        name = type(exc).__name__
        if name == "NoArgsIsHelpError":  # a bare ``mazeart``: the help, as a usage error
            exc.show()  # type: ignore[attr-defined]
            return 2
        if name == "Abort":
            return _fail("aborted")
        if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):  # click's usage errors
            return _fail(_plain_usage(exc.format_message()))
        raise
    return status if isinstance(status, int) else 0
