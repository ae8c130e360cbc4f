"""Hostile and careless inputs for the ``mazeart`` command line, run through the real CLI.

The corpus (:func:`corpus`) holds cases in seven classes: absurd ``sizes``, deep
``nesting``, ``nonfinite`` numbers, ``control`` characters, ``special`` files,
``partial`` writes and ``signals``. Each case writes its input files into a fresh
directory, runs ``python -m mazeart ...`` there in a process of its own
(:func:`run_case`) and checks that the command fails the way it promises:

- the expected exit status (2 for bad input, 130 for Ctrl-C);
- stderr is one line, ``mazeart: error: ...`` (``mazeart: interrupted``);
- no ``Traceback`` on stdout or stderr, and no raw control characters;
- no new file in the directory (a successful run may write only its outputs), no
  temporary ``.NAME.*.part`` file left, every file that was there byte-identical;
- a peak resident set of at most 1 GiB, and an answer within 60 s;
- whatever a successful run writes is well-formed (XML parses, JSON is strict JSON
  with no ``NaN`` or ``Infinity``, the HTML game's embedded data too).

The child runs with ``MAZEART_DATA_DIR`` in the run's temporary directory, with
``RLIMIT_AS`` = 4 GiB (a normal run maps 0.5-0.9 GiB of address space, most of it
numba's and LLVM's, and fails below about 0.8 GiB: four times that is room for the
largest legitimate job, while a runaway allocation still stops long before it
hurts the machine) and ``RLIMIT_FSIZE`` = 1 GiB. Run as root, the child also loses
``CAP_DAC_OVERRIDE``, ``CAP_DAC_READ_SEARCH`` and ``CAP_FOWNER`` from its capability
bounding set, so file modes bind it as they bind an ordinary user: a 0444 file
cannot be written, a 000 file cannot be read.

Run ``python tests/hostile.py [--jobs 2] [--only CLASS] [--case TEXT] [--keep] [--list]``
for the whole corpus, a table per class and every failing case; it exits 1 if any
case failed. ``tests/test_hostile.py`` runs a representative subset under pytest.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import fcntl
import fnmatch
import functools
import hashlib
import itertools
import json
import multiprocessing
import os
import pty
import re
import resource
import select
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import termios
import time
import xml.etree.ElementTree as ET
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples"

TIMEOUT = 60.0
PHASE_TIMEOUT = 900.0
"""How long a signal case may take to reach the phase its signal waits for."""
RSS_LIMIT = 1 << 30
ADDRESS_LIMIT = 4 << 30
FILE_SIZE_LIMIT = 1 << 30

CLASSES = ("sizes", "nesting", "nonfinite", "control", "special", "partial", "signals")
KINDS = tuple("traceback exit stderr control files changed memory timeout content".split())
"""Failure kinds, in the order of the table's columns."""

NONZERO: tuple[int, ...] = ()
"""``Case.expect`` for "any nonzero status"."""
ANY_STATUS = None
"""``Case.expect`` for "any status at all" (the other checks still apply)."""

Setup = Callable[[Path, Path], None]
"""Writes a case's files: ``setup(work_dir, data_dir)``."""
Check = Callable[[Path, str], list[str]]
"""Extra check of a successful run: ``check(work_dir, stdout)`` -> problems."""


@dataclass(frozen=True)
class Case:
    """One hostile input: files, a command line, and what the CLI must do with them.

    ``outputs`` are the files a successful run may create or replace (derived from
    ``-o``/``--animate`` unless given); every other file in the directory is
    guarded. ``expect`` lists the exit statuses that pass (:data:`NONZERO`: any
    failure; :data:`ANY_STATUS`: anything). ``sig`` is sent ``sig_at`` seconds after
    the start, or, with ``sig_on_part`` (a pattern such as ``"*"``), as soon as a
    matching ``.part`` file appears. ``keys`` runs the child on a pseudo-terminal
    and types them, one every 0.6 s from 3 s on; ``closed_stdout`` gives it a pipe
    whose reader is gone. ``kept`` are folders a stopped run may leave what it finished
    in (a batch keeps its finished mazes): each file there well-formed, and a
    ``metrics.json`` there naming exactly the other files.
    """

    name: str
    cls: str
    argv: tuple[str, ...]
    setup: Setup
    expect: tuple[int, ...] | None = (2,)
    outputs: tuple[str, ...] = ()
    check: Check | None = None
    sig: int | None = None
    sig_at: float = 2.0
    sig_on_part: str = ""
    keys: str = ""
    closed_stdout: bool = False
    kept: tuple[str, ...] = ()
    timeout: float = TIMEOUT
    note: str = ""


@dataclass
class Result:
    """What one run did, and the failures found (kind -> detail)."""

    name: str
    cls: str
    status: int | None
    stdout: str
    stderr: str
    seconds: float
    max_rss: int
    timed_out: bool
    failures: dict[str, str] = field(default_factory=dict)


# ----------------------------------------------------------------------------- setups


def _nothing(work: Path, data: Path) -> None:
    """A case that needs no file."""


def _all(*setups: Setup) -> Setup:
    """Run several setups in turn."""

    def setup(work: Path, data: Path) -> None:
        for s in setups:
            s(work, data)

    return setup


def _put(
    name: str, content: bytes | str | Callable[[], bytes | str], mode: int | None = None
) -> Setup:
    """Write a file (text is UTF-8); ``content`` may be a function, called at setup."""

    def setup(work: Path, data: Path) -> None:
        value = content() if callable(content) else content
        p = work / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(value.encode("utf-8", "surrogateescape") if isinstance(value, str) else value)
        if mode is not None:
            p.chmod(mode)

    return setup


def _put_data(name: str, content: str) -> Setup:
    """Write a file into the case's data directory (``MAZEART_DATA_DIR``)."""

    def setup(work: Path, data: Path) -> None:
        (data / name).write_text(content, "utf-8")

    return setup


def _sample(name: str, as_: str | None = None, mode: int | None = None) -> Setup:
    """Copy a file of ``samples/`` into the case directory."""
    return _put(as_ or name, lambda: (SAMPLES / name).read_bytes(), mode)


def _chmod(name: str, mode: int) -> Setup:
    def setup(work: Path, data: Path) -> None:
        (work / name).chmod(mode)

    return setup


def _mkdir(name: str, mode: int | None = None, where: str = "work") -> Setup:
    """Make a directory (in the case or data directory), optionally with a mode."""

    def setup(work: Path, data: Path) -> None:
        p = (work if where == "work" else data) / name
        p.mkdir(parents=True, exist_ok=True)
        if mode is not None:
            p.chmod(mode)

    return setup


def _fifo(name: str, where: str = "work") -> Setup:
    def setup(work: Path, data: Path) -> None:
        os.mkfifo((work if where == "work" else data) / name)

    return setup


def _symlink(name: str, target: str) -> Setup:
    def setup(work: Path, data: Path) -> None:
        os.symlink(target, work / name)

    return setup


def _sparse(name: str, head: bytes | Callable[[], bytes], size: int) -> Setup:
    """A file of ``size`` bytes that starts with ``head`` and is a hole after it."""

    def setup(work: Path, data: Path) -> None:
        with open(work / name, "wb") as fh:
            fh.write(head() if callable(head) else head)
            fh.truncate(size)

    return setup


def _asset(name: str, build: Callable[[Path], None], as_: str) -> Setup:
    """Copy a file built once per run (``build(path)``) into the case directory."""

    def setup(work: Path, data: Path) -> None:
        shutil.copyfile(_cached(work.parents[1] / "assets", name, build), work / as_)

    return setup


def _cached(folder: Path, name: str, build: Callable[[Path], None]) -> Path:
    """``folder/name``, built by ``build`` unless there (concurrent builders are harmless)."""
    path = folder / name
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f"{name}.", suffix=".tmp")
        os.close(fd)
        build(Path(tmp))
        os.replace(tmp, path)
    return path


# ----------------------------------------------------------------------------- file makers


def _deep_list(depth: int) -> str:
    return "[" * depth + "]" * depth


def _raw_json(doc: Any, raw: dict[str, str]) -> str:
    """JSON of ``doc`` with each string ``"@NAME@"`` replaced by the raw text ``raw[NAME]``."""
    text = json.dumps(doc, indent=1)
    for key, value in raw.items():
        text = text.replace(json.dumps(f"@{key}@"), value)
    return text


def _horse_maze() -> dict[str, Any]:
    return json.loads((SAMPLES / "horse-maze.json").read_text("utf-8"))


def _maze_text(edit: Callable[[dict[str, Any]], None], raw: dict[str, str] | None = None) -> str:
    """``samples/horse-maze.json`` after ``edit`` (raw JSON tokens as in :func:`_raw_json`)."""
    doc = _horse_maze()
    edit(doc)
    return _raw_json(doc, raw or {})


def _rooms_doc() -> dict[str, Any]:
    """``samples/rooms.toml`` as JSON (one valid room for horse.png)."""
    return {
        "rooms": [
            {"name": "treasury", "kind": "loot", "rect": [30, 40, 5, 7],
             "doors": [[30, 43], [34, 40, "W"]]},
        ]
    }  # fmt: skip


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _write_bilevel_png(
    path: Path, width: int, height: int, *, palette: bool = False, text: str | None = None
) -> None:
    """A 1-bit PNG, written row by row so that a huge one costs next to nothing.

    Grayscale: white with a black block in the middle third (a figure to trace).
    Palette: one white entry, every pixel white (with ``text``: a preset of free cells).
    """
    row_bytes = (width + 7) // 8
    if palette:
        plain = band = b"\x00" * (row_bytes + 1)
    else:
        plain = b"\x00" + b"\xff" * row_bytes
        third = row_bytes // 3
        band = b"\x00" + b"\xff" * third + b"\x00" * (row_bytes - 2 * third) + b"\xff" * third
    comp = zlib.compressobj(9)
    parts = []
    for y in range(height):
        parts.append(comp.compress(band if height // 3 <= y < 2 * height // 3 else plain))
    parts.append(comp.flush())
    ihdr = struct.pack(">IIBBBBB", width, height, 1, 3 if palette else 0, 0, 0, 0)
    with open(path, "wb") as fh:
        fh.write(b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr))
        if palette:
            fh.write(_png_chunk(b"PLTE", b"\xff\xff\xff"))
        if text is not None:
            fh.write(_png_chunk(b"tEXt", b"mazeart-preset\x00" + text.encode("latin-1")))
        fh.write(_png_chunk(b"IDAT", b"".join(parts)) + _png_chunk(b"IEND", b""))


@functools.cache
def _preset_key_text() -> str:
    """The colour-key text that :func:`mazeart.weights.save_preset` writes into a PNG."""
    import numpy as np
    from PIL import Image

    from mazeart.weights import save_preset

    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "small.png"
        save_preset(np.zeros((4, 4), np.int32), p)
        with Image.open(p) as img:
            return str(img.info["mazeart-preset"])


def _key_png(width: int, height: int, text: str | None = None) -> Callable[[Path], None]:
    """Builder of a colour-keyed preset PNG, every cell free."""
    return lambda p: _write_bilevel_png(
        p, width, height, palette=True, text=_preset_key_text() if text is None else text
    )


def _picture(width: int, height: int) -> Callable[[Path], None]:
    return lambda p: _write_bilevel_png(p, width, height)


def _npy(shape: tuple[int, ...], descr: str = "<i4", data: bytes = b"") -> Callable[[], bytes]:
    """A ``.npy`` file whose header claims ``shape`` (followed by ``data`` only)."""

    def make() -> bytes:
        import io

        from numpy.lib import format as npformat

        buf = io.BytesIO()
        header = {"descr": descr, "fortran_order": False, "shape": shape}
        npformat.write_array_header_1_0(buf, header)
        return buf.getvalue() + data

    return make


def _rooms_maze(path: Path) -> None:
    """Build a saved maze of horse.png with rooms and tags (the CLI makes it)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "base.json"
        rooms = ("--rooms", str(SAMPLES / "rooms.toml"))
        opts = "-a hybrid --place loot=4,spawn=3 --seed 1 -q".split()
        argv = [sys.executable, "-m", "mazeart", str(SAMPLES / "horse.png"), *rooms, *opts]
        env = _child_env(Path(tmp))
        subprocess.run([*argv, "-o", str(out)], check=True, env=env, capture_output=True)
        shutil.copyfile(out, path)


def _rooms_maze_with(edit: Callable[[dict[str, Any]], None]) -> Setup:
    """The saved maze with rooms and tags, edited, as ``m.json``."""

    def setup(work: Path, data: Path) -> None:
        doc = json.loads(
            _cached(work.parents[1] / "assets", "rooms-maze.json", _rooms_maze).read_text()
        )
        edit(doc)
        (work / "m.json").write_text(json.dumps(doc, indent=1), "utf-8")

    return setup


def _kill_mid_write(argv: Sequence[str]) -> Setup:
    """Run the CLI and SIGKILL it as soon as its temporary ``.part`` file appears."""

    def setup(work: Path, data: Path) -> None:
        proc = subprocess.Popen(
            [sys.executable, "-m", "mazeart", *argv],
            cwd=work,
            env=_child_env(data),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + TIMEOUT
        while proc.poll() is None and time.monotonic() < deadline:
            if _part_files(work):
                proc.kill()
                break
            time.sleep(0.005)
        proc.kill()
        proc.wait()

    return setup


# ----------------------------------------------------------------------------- commands

_COMMANDS: dict[str, tuple[str, ...]] = {
    "svg": ("{}", "-o", "out.svg"),
    "png": ("{}", "-o", "out.png"),
    "pdf": ("{}", "-o", "out.pdf"),
    "html": ("{}", "-o", "out.html"),
    "json": ("{}", "-o", "out.json"),
    "tmj": ("{}", "-o", "out.tmj"),
    "tmx": ("{}", "-o", "out.tmx"),
    "ascii": ("{}", "--ascii"),
    "info": ("info", "{}"),
    "info-json": ("info", "--json", "{}"),
    "solve": ("solve", "{}", "-o", "sol.png"),
    "weights": ("weights", "{}", "-o", "w.npy"),
    "book": ("book", "{}", "-o", "book.pdf", "--count", "2"),
}


def _cmd(label: str, src: str, *extra: str) -> tuple[str, ...]:
    """The command ``label`` of :data:`_COMMANDS` on ``src``, with ``extra`` arguments."""
    return tuple(src if a == "{}" else a for a in _COMMANDS[label]) + extra


def _outputs(argv: Sequence[str]) -> tuple[str, ...]:
    """Files a successful run of ``argv`` writes: ``-o``, ``--animate``, a Tiled tileset."""
    out = []
    for flag, value in itertools.pairwise(argv):
        if flag in ("-o", "--output", "--animate"):
            out.append(value)
            p = Path(value)
            if p.suffix.lower() in (".tmj", ".tmx"):
                out.append(str(p.with_name(f"{p.stem}.tiles.png")))
    return tuple(out)


_SLUG = re.compile(r"[^A-Za-z0-9.,=+-]+")


def _slug(*parts: str) -> str:
    return "-".join(_SLUG.sub("_", p).strip("_") or "_" for p in parts)[:90]


def _case(cls: str, name: str, argv: Sequence[str], setup: Setup = _nothing, **kw: Any) -> Case:
    kw.setdefault("outputs", _outputs(argv))
    return Case(name=f"{cls}-{name}", cls=cls, argv=tuple(argv), setup=setup, **kw)


HORSE = _sample("horse.png")
MAZE = _sample("horse-maze.json", "maze.json")
EITHER = (0, 2)
"""``Case.expect`` where a clean success is as good as a refusal."""
OLD_SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><!-- the user\'s own drawing --></svg>\n'

# A cross: (flag, values, source, its setup, commands, extra arguments)
Cross = tuple[str, list[str], str, Setup, list[str], tuple[str, ...]]


def _crossed(c: str, crosses: list[Cross]) -> Iterator[Case]:
    """Each value of each flag, on each of its commands.

    A value marked ``~`` is legal, if extreme: success is as good as a refusal.
    """
    for flag, values, src, setup, labels, extra in crosses:
        for value in values:
            expect = EITHER if value.startswith("~") else (2,)
            value = value.removeprefix("~")
            for label in labels:
                name = _slug(flag.lstrip("-"), value, label, *(e.lstrip("-") for e in extra))
                argv = _cmd(label, src, *extra, flag, value)
                yield _case(c, name, argv, setup, expect=expect)


# ----------------------------------------------------------------------------- sizes


def sizes() -> Iterator[Case]:
    """Absurd numbers: grid sizes, drawing sizes, counts, huge claimed dimensions."""
    c = "sizes"
    add = functools.partial(_case, c)
    for label, src, setup in (("svg", "horse.png", HORSE), ("html", "maze.json", MAZE)):
        yield add(f"baseline-{label}", _cmd(label, src), setup, expect=(0,))
    yield add("baseline-png-300", _cmd("png", "horse.png", "--cells", "300"), HORSE, expect=(0,))
    # the largest grid of each kind the limit allows runs, in under 1 GiB, in every drawing
    largest = {"square": ("1414x1414",), "hex": ("816x816", "--grid", "hex"),
               "upsilon": ("816x816", "--grid", "upsilon"),
               "triangle": ("1000x1000", "--grid", "triangle"),
               "polar": ("920x920", "--grid", "polar"),
               "weave": ("632x632", "--weave")}  # fmt: skip
    for kind, size in largest.items():
        for ext in ("svg", "pdf", "json") + (("png",) if kind != "square" else ()):
            yield add(f"largest-{kind}-{ext}", (*size, "-o", f"out.{ext}"), expect=(0,),
                      timeout=PHASE_TIMEOUT)  # fmt: skip
    yield add("past-the-cost-hex", ("1414x1414", "--grid", "hex", "-o", "out.svg"))

    # drawings that cost the renderer more than its memory bound: masks within masks, texts
    def _mask(i: int) -> str:
        inner = f' mask="url(#m{i - 1})"' if i else ""
        return f'<mask id="m{i}"><rect width="4000" height="4000" fill="white"{inner}/></mask>'

    masks = "".join(_mask(i) for i in range(60))
    text = (f'<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000"><defs>{masks}'
            '</defs><rect width="4000" height="4000" mask="url(#m59)"/></svg>')  # fmt: skip
    yield add("svg-masks-in-masks", ("in.svg", "--cells", "200", "-o", "out.png"),
              _put("in.svg", text))  # fmt: skip
    texts = "".join(f'<text x="{i % 200 * 10}" y="{i // 200 * 10}" font-size="9">maze {i} '
                    "lorem ipsum dolor</text>" for i in range(40_000))  # fmt: skip
    text = f'<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000">{texts}</svg>'
    yield add("svg-40000-texts", ("in.svg", "--cells", "200", "-o", "out.png"),
              _put("in.svg", text))  # fmt: skip

    yield from _crossed(c, [
        ("--cells", ["100000", "1000000000", "1180591620717411303424", "0", "-5"],
         "horse.png", HORSE,
         ["svg", "png", "json", "ascii", "info", "weights", "book", "solve"], ()),
        ("--cell-size", ["inf", "-inf", "1e300", "nan", "0", "-1", "~1e-300", "20000"],
         "maze.json", MAZE, ["svg", "png", "pdf", "solve"], ()),
        ("--margin", ["inf", "1e12", "nan", "-1", "~10000"], "maze.json", MAZE,
         ["svg", "png", "pdf"], ()),
        ("--line-width", ["nan", "inf", "1e300", "-1", "0"], "maze.json", MAZE,
         ["svg", "png", "pdf", "book"], ()),
        ("--paths", ["1000000000", "1180591620717411303424", "0", "-1"], "maze.json", MAZE,
         ["solve"], ()),
        ("--paths", ["1000000000"], "maze.json", MAZE, ["png"], ("--solution",)),
        ("--best-of", ["1000000000", "0"], "horse.png", HORSE, ["svg", "info"], ()),
        ("--levels", ["1000000000", "0", "-1"], "horse.png", HORSE, ["html"], ()),
        ("--count", ["1000000000", "0", "-3"], "horse.png", HORSE, ["book"], ()),
        ("--segments", ["1000000000", "0"], "horse.png", HORSE, ["png"], ("--edges",)),
        ("--segments", ["100000"], "horse.png", HORSE, ["png"], ("--regions",)),
    ])  # fmt: skip

    # the largest values the CLI allows: it must finish, or refuse, within the time
    for flag, value, label in (
        ("--best-of", "10000", "svg"),
        ("--levels", "100000", "html"),
        ("--count", "100000", "book"),
    ):
        argv = _cmd(label, "horse.png", flag, value)
        yield add(_slug("max", flag.lstrip("-"), value, label), argv, HORSE, expect=EITHER)
    for seed in ("-1", "1180591620717411303424", str(2**200)):
        for label in ("svg", "info"):
            argv = _cmd(label, "horse.png", "--seed", seed)
            yield add(_slug("seed", seed[:24], label), argv, HORSE, expect=EITHER)

    # saved mazes that claim enormous grids
    claims: dict[str, tuple[int, int, list[str]]] = {
        "cols1e9-nogrid": (1, 10**9, []),
        "cols1e9-shortgrid": (1, 10**9, ["." * 40]),
        "rows1e9-cols1e9": (10**9, 10**9, ["."]),
        "rows1e5-cols1e5": (10**5, 10**5, ["."]),
        "rows2e5-cols1": (200_000, 1, ["."] * 10),
    }
    for label, (rows, cols, grid) in claims.items():
        text = functools.partial(_maze_text, _updater(rows=rows, cols=cols, grid=grid))
        for cmd in ("info", "svg"):
            yield add(_slug("maze", label, cmd), _cmd(cmd, "big.json"), _put("big.json", text))

    # .npy headers that claim enormous arrays, with no data behind them
    npys = {
        "1e5x1e5-i4": _npy((100000, 100000)),
        "1e5x1e5-i1": _npy((100000, 100000), "|i1"),
        "2p31x2p31": _npy((2**31, 2**31)),
        "1x1e9-short": _npy((1, 10**9), "<i4", b"\x00" * 64),
        "1d-2p40": _npy((2**40,)),
        "0x5": _npy((0, 5)),
        "object": _npy((2, 2), "|O"),
    }
    for label, make in npys.items():
        setup = _put("big.npy", make)
        for cmd in ("svg", "info"):
            yield add(_slug("npy", label, cmd), _cmd(cmd, "big.npy"), setup)
        yield add(_slug("npy", label, "weights"), ("weights", "big.npy", "-o", "w.txt"), setup)

    # colour-keyed preset PNGs: a small one, and huge canvases of one colour
    small = _asset("key-4x4.png", _key_png(4, 4), "p.png")
    yield add("preset-png-4x4", _cmd("svg", "p.png"), small, expect=EITHER)
    for side in (30000, 13000, 9500, 3000):
        setup = _asset(f"key-{side}.png", _key_png(side, side), "p.png")
        for cmd in ("svg", "info"):
            yield add(_slug("preset-png", f"{side}x{side}", cmd), _cmd(cmd, "p.png"), setup)

    # rooms files that ask for astronomically many cells
    door = {"doors": [[0, 0]]}
    huge_rooms = {
        "rect-1e8-json": ("r.json", {"rooms": [{"rect": [0, 0, 10**8, 10**8], **door}]}),
        "rect-1x1e12-json": ("r.json", {"rooms": [{"rect": [0, 0, 1, 10**12], **door}]}),
        "rect-1e8-toml": ("r.toml", "[[rooms]]\nrect = [0, 0, 100000000, 100000000]\n"
                                    "doors = [[0, 0]]\n"),
        "mask-5e6-json": ("r.json", {"rooms": [{"mask": ["#" * 5_000_000], **door}]}),
        "doors-1e6-json": ("r.json", {"rooms": [{"rect": [30, 40, 5, 7],
                                                 "doors": [[30, 43]] * 1_000_000}]}),
        "rooms-1e5-json": ("r.json", {"rooms": [{"rect": [0, 0, 1, 1], **door}] * 100_000}),
    }  # fmt: skip
    for label, (fname, doc) in huge_rooms.items():
        text = doc if isinstance(doc, str) else json.dumps(doc)
        for cmd in ("svg", "info"):
            argv = _cmd(cmd, "horse.png", "--rooms", fname)
            yield add(_slug("rooms", label, cmd), argv, _all(HORSE, _put(fname, text)))

    # pictures of extreme shape, and decompression bombs
    for w, h in ((1, 5000), (5000, 1), (1, 1), (65000, 2)):
        setup = _asset(f"pic-{w}x{h}.png", _picture(w, h), "pic.png")
        for cmd in ("svg", "png", "info"):
            argv = _cmd(cmd, "pic.png")
            yield add(_slug("picture", f"{w}x{h}", cmd), argv, setup, expect=EITHER)
    for side in (13000, 9500, 30000):  # 9500 x 9500 is under Pillow's limit, though not by far
        setup = _asset(f"pic-{side}.png", _picture(side, side), "bomb.png")
        expect = EITHER if side == 9500 else (2,)
        for cmd in ("svg", "info", "weights"):
            argv = _cmd(cmd, "bomb.png")
            yield add(_slug("bomb", f"{side}x{side}", cmd), argv, setup, expect=expect)


def _updater(**values: Any) -> Callable[[dict[str, Any]], None]:
    """An edit that sets top-level keys of a saved maze."""
    return lambda doc: doc.update(values)


# ----------------------------------------------------------------------------- nesting


def nesting() -> Iterator[Case]:
    """JSON and TOML nested far deeper than any parser's recursion allows."""
    c = "nesting"
    add = functools.partial(_case, c)
    for depth in (100_000, 5_000, 900):
        deep, d = _deep_list(depth), str(depth)
        deep_object = '{"a": ' * depth + "1" + "}" * depth
        room = '"rect": [30, 40, 5, 7], "doors": [[30, 43]]'
        rooms = {
            "json-whole": ("r.json", deep),
            "json-rect": ("r.json", '{"rooms": [{"rect": ' + deep + ', "doors": [[30, 43]]}]}'),
            "json-name": ("r.json", '{"rooms": [{"name": ' + deep_object + ", " + room + "}]}"),
            "toml-array": ("r.toml", "a = " + deep + "\n"),
            "toml-inline": ("r.toml", "a = " + "{b = " * depth + "1" + "}" * depth + "\n"),
            "toml-dotted": ("r.toml", "a" + ".a" * depth + " = 1\n"),
        }
        for label, (fname, text) in rooms.items():
            for cmd in ("svg", "info"):
                argv = _cmd(cmd, "horse.png", "--rooms", fname)
                yield add(_slug("rooms", label, d, cmd), argv, _all(HORSE, _put(fname, text)))
        raw = {"DEEP": deep}
        mazes: dict[str, Callable[[], str]] = {
            "meta": functools.partial(_maze_text, lambda m: m["meta"].update(x="@DEEP@"), raw),
            "outline": functools.partial(
                _maze_text, lambda m: m["guide"].update(outline="@DEEP@"), raw
            ),
            "tags": functools.partial(_maze_text, _updater(tags="@DEEP@"), raw),
            "whole": functools.partial(
                str, '{"format": "mazeart-maze", "version": 2, "x": ' + deep + "}"
            ),
        }
        for label, make in mazes.items():
            for cmd in ("info", "svg", "html"):
                argv = _cmd(cmd, "deep.json")
                yield add(_slug("maze", label, d, cmd), argv, _put("deep.json", make))
        key = '{"version": 1, "key": [[0, ' + deep + "]]}"
        for label, text in (("chunk", deep), ("key", key)):
            setup = _asset(f"key-deep-{label}-{d}.png", _key_png(8, 8, text), "p.png")
            for cmd in ("svg", "info"):
                yield add(_slug("preset-png", label, d, cmd), _cmd(cmd, "p.png"), setup)
        play = ("play", "tiny.txt", "--levels", "1")
        setup = _all(_put("tiny.txt", "..\n"), _put_data("best-times.json", deep))
        note = "play refuses without a terminal, before it reads the best times"
        yield add(_slug("best-times", d, "play-notty"), play, setup, note=note)
        yield add(_slug("best-times", d, "play-tty"), play, setup, keys="dadq", expect=EITHER)


# ----------------------------------------------------------------------------- nonfinite


_BAD_SEEDS = {
    "Infinity": "Infinity", "-Infinity": "-Infinity", "NaN": "NaN", "1e400": "1e400",
    "-1e400": "-1e400", "list": "[1, 2]", "string": '"seven"', "object": '{"a": 1}',
    "true": "true", "null": "null", "negative": "-1", "2p70": "1180591620717411303424",
    "float": "1.5",
}  # fmt: skip

_BAD_INTS = {
    "Infinity": "Infinity", "-Infinity": "-Infinity", "NaN": "NaN", "1e400": "1e400",
    "1.5": "1.5", "true": "true", "str3": '"3"', "null": "null", "list": "[1]",
    "1e20": "1e20", "1e30int": str(10**30),
}  # fmt: skip


def _setter(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """An edit that sets ``doc[a][b]...`` for ``path`` = ``"a.b"`` (list indices as digits)."""
    *parents, last = [int(k) if k.isdigit() else k for k in path.split(".")]

    def edit(doc: dict[str, Any]) -> None:
        target: Any = doc
        for key in parents:
            target = target[key]
        target[last] = value(doc) if callable(value) else value

    return edit


def nonfinite() -> Iterator[Case]:
    """NaN, infinities, overflowing and mistyped numbers in options and files."""
    c = "nonfinite"
    add = functools.partial(_case, c)
    for label, raw in _BAD_SEEDS.items():
        text = functools.partial(_maze_text, _setter("meta.seed", "@X@"), {"X": raw})
        every = label in ("Infinity", "NaN", "1e400", "string", "object")
        all_cmds = ("info", "info-json", "svg", "html", "json", "pdf", "book")
        for cmd in all_cmds if every else ("info-json", "html", "json"):
            argv = _cmd(cmd, "m.json")
            yield add(_slug("seed", label, cmd), argv, _put("m.json", text), expect=EITHER)

    tone = lambda doc: [["@X@"] * doc["cols"]] * doc["rows"]  # noqa: E731
    others: dict[str, tuple[str, Any, str | None]] = {
        "meta-algorithm-inf": ("meta.algorithm", "@X@", "Infinity"),
        "meta-braid-nan": ("meta.braid", "@X@", "NaN"),
        "meta-options-bias-inf": ("meta.options", {"bias": "@X@"}, "Infinity"),
        "entrance-1e400": ("entrance", ["@X@", 0], "1e400"),
        "entrance-float": ("entrance", [8.0, 38.0], None),
        "entrance-true": ("entrance", [True, 0], None),
        "entrance-huge": ("entrance", [10**30, 0], None),
        "entrance-negative": ("entrance", [-1, -1], None),
        "rows-float": ("rows", 33.0, None),
        "rows-inf": ("rows", "@X@", "Infinity"),
        "version-inf": ("version", "@X@", "Infinity"),
        "version-1e400": ("version", "@X@", "1e400"),
        "tone-nan": ("guide.tone", tone, "NaN"),
        "tone-inf": ("guide.tone", tone, "Infinity"),
        "outline-inf": ("guide.outline", [[[0, 0], ["@X@", 1], [2, 2]]], "Infinity"),
        "outline-nan": ("guide.outline", [[[0, 0], ["@X@", 1], [2, 2]]], "NaN"),
        "curves-1e400": ("guide.edge_curves", [[[0, 0], ["@X@", 1]]], "1e400"),
    }
    for label, (path, value, raw) in others.items():
        text = functools.partial(_maze_text, _setter(path, value), {"X": raw} if raw else {})
        for cmd in ("info", "svg", "png", "html"):
            argv = _cmd(cmd, "m.json")
            yield add(_slug("maze", label, cmd), argv, _put("m.json", text), expect=EITHER)

    for label, raw in _BAD_INTS.items():
        for slot in (0, 3):
            doc = _rooms_doc()
            doc["rooms"][0]["rect"][slot] = "@X@"
            setup = _all(HORSE, _put("r.json", _raw_json(doc, {"X": raw})))
            for cmd in ("svg", "info"):
                argv = _cmd(cmd, "horse.png", "--rooms", "r.json")
                yield add(_slug("rooms-rect", str(slot), label, cmd), argv, setup)
        doc = _rooms_doc()
        doc["rooms"][0]["doors"] = [[30, "@X@"]]
        setup = _all(HORSE, _put("r.json", _raw_json(doc, {"X": raw})))
        yield add(_slug("rooms-door", label), _cmd("svg", "horse.png", "--rooms", "r.json"), setup)
    for label, raw in (("inf", "inf"), ("-inf", "-inf"), ("nan", "nan"), ("1.5", "1.5"),
                       ("true", "true"), ("str3", '"3"'), ("1e30", str(10**30))):  # fmt: skip
        text = f"[[rooms]]\nrect = [30, 40, {raw}, 7]\ndoors = [[30, 43]]\n"
        argv = _cmd("svg", "horse.png", "--rooms", "r.toml")
        yield add(_slug("rooms-toml-rect", label), argv, _all(HORSE, _put("r.toml", text)))

    # numbers past what Python parses (4300 digits), in rooms files and a preset's key
    huge = "9" * 5000
    text = f"[[rooms]]\nrect = [{huge}, 40, 3, 7]\ndoors = [[30, 43]]\n"
    argv = _cmd("svg", "horse.png", "--rooms", "r.toml")
    yield add("rooms-toml-5000-digits", argv, _all(HORSE, _put("r.toml", text)))
    doc = _rooms_doc()
    doc["rooms"][0]["rect"][0] = "@X@"
    setup = _all(HORSE, _put("r.json", _raw_json(doc, {"X": huge})))
    yield add("rooms-json-5000-digits", _cmd("svg", "horse.png", "--rooms", "r.json"), setup)
    far = '{"units": "pixels", "rooms": [{"rect": [1e308, 1e308, 1e308, 1e308]}]}'
    argv = _cmd("svg", "horse.png", "--rooms", "r.json")
    yield add("rooms-json-1e308-pixels", argv, _all(HORSE, _put("r.json", far)))
    # a centre far from the picture: rings by the million
    for centre in ("1e308,1e308", "10000,0", "0,1e12"):
        argv = ("horse.png", "--grid", "polar", f"--centre={centre}", "-o", "out.svg")
        yield add(_slug("centre", centre), argv, HORSE)

    yield from _crossed(c, [
        ("--bias", ["nan", "inf", "-inf", "1e400", "-0.5", "2"], "horse.png", HORSE, ["svg"],
         ("-a", "growing-tree")),
        ("--bias", ["nan", "inf"], "horse.png", HORSE, ["svg"], ("-a", "flow")),
        ("--place", [",,,", "loot=nan", "loot=-1", "=3", "loot=inf", "loot=1e9",
                     "loot=99999999999999999999", "loot", "~loot=3,loot=4", "dragon=2", "=",
                     "loot=1.5"], "horse.png", HORSE, ["svg", "json"], ()),
        ("--threshold", ["nan", "inf", "-inf", "1e400", "-1", "256"], "horse.png", HORSE,
         ["svg", "info"], ()),
        ("--coverage", ["nan", "inf", "0", "-0.5", "2"], "horse.png", HORSE, ["svg"], ()),
        ("--braid", ["nan", "inf", "-1", "2"], "horse.png", HORSE, ["svg"], ()),
        ("--entrance", ["nan,1", "0", "1e400,0", "-1,-1", "99999999,0", ",", "1,2,3", "a,b",
                        "inf,inf", "1.5,2"], "horse.png", HORSE, ["svg"], ()),
        ("--exit", ["nan,1", "-1,-1", "99999999999999999999,0"], "horse.png", HORSE, ["svg"],
         ()),
        ("--page", ["1e400x10", "nanxnan", "infxinf", "0x0", "-10x-10", "1e9x1e9", "10x", "x",
                    "1e-9x1e-9"], "maze.json", MAZE, ["pdf", "book"], ()),
        ("--page-margin", ["nan", "inf", "-5", "1e9", "1e400"], "maze.json", MAZE,
         ["pdf", "book"], ()),
        ("--size", ["1e400mm", "infmm", "nanmm", "0mm", "-5mm", "1e300in", "mm", "5parsecs"],
         "maze.json", MAZE, ["svg"], ()),
    ])  # fmt: skip


# ----------------------------------------------------------------------------- control


_CONTROL_TEXT = {
    "esc-clear": "loot\x1b[2J",
    "esc-red": "\x1b[31mred",
    "nul": "nul\x00x",
    "bell": "bell\x07",
    "vt": "vt\x0b",
    "c1-csi": "csi\x9b31m",
    "del": "del\x7f",
    "newline": "nl\nline",
    "cr": "cr\rret",
    "script": "</script><b>x",
    "markup": "<&\"'>",
    "rtl": "\u202eevil",
    "line-sep": "line\u2028sep",
    "para-sep": "para\u2029sep",
    "surrogate": "lone\ud800half",
}


def _html_lacks(text: str) -> Check | None:
    """A check that no ``.html`` output holds ``text`` verbatim (None unless it is markup)."""
    if "<" not in text:
        return None

    def check(work: Path, stdout: str) -> list[str]:
        pages = [p for p in work.glob("*.html") if text in p.read_text("utf-8", "replace")]
        return [f"{p.name} holds {text!r} verbatim" for p in pages]

    return check


def control() -> Iterator[Case]:
    """Control characters (and markup) in names, kinds, titles and file names."""
    c = "control"
    add = functools.partial(_case, c)
    drawn = ("info", "svg", "tmx", "tmj", "html", "pdf", "json", "png")
    for label, text in _CONTROL_TEXT.items():
        setup, check = _rooms_maze_with(_setter("tags.0.2", text)), _html_lacks(text)
        every = label in ("esc-clear", "nul", "newline", "script")
        for cmd in drawn if every else ("info", "svg", "tmx", "html"):
            argv = _cmd(cmd, "m.json")
            yield add(_slug("maze-tag", label, cmd), argv, setup, expect=EITHER, check=check)
    for label in ("esc-clear", "nul", "bell", "vt", "script", "newline"):
        text, check = _CONTROL_TEXT[label], _html_lacks(_CONTROL_TEXT[label])
        setup = _rooms_maze_with(_setter("rooms.0.name", text))
        for cmd in drawn:
            argv = _cmd(cmd, "m.json")
            yield add(_slug("maze-room-name", label, cmd), argv, setup, expect=EITHER, check=check)
        setup = _rooms_maze_with(_setter("rooms.1.kind", text))
        for cmd in ("info", "svg", "tmj", "html"):
            argv = _cmd(cmd, "m.json")
            yield add(_slug("maze-room-kind", label, cmd), argv, setup, expect=EITHER, check=check)

    # rooms files: names and kinds that reach the maze, and names that reach an error
    for label in ("esc-clear", "nul", "bell", "vt", "c1-csi", "script"):
        text, check = _CONTROL_TEXT[label], _html_lacks(_CONTROL_TEXT[label])
        good = _rooms_doc()
        good["rooms"][0].update(name=text, kind=text)
        setup = _all(HORSE, _put("r.json", json.dumps(good)))
        for cmd in ("svg", "info", "tmj", "html"):
            argv = _cmd(cmd, "horse.png", "--rooms", "r.json")
            yield add(_slug("rooms-name", label, cmd), argv, setup, expect=EITHER, check=check)
        bad = {"rooms": [{"name": text, "rect": [500, 500, 2, 2], "doors": [[500, 500]]}]}
        argv = _cmd("svg", "horse.png", "--rooms", "r.json")
        yield add(
            _slug("rooms-name-error", label), argv, _all(HORSE, _put("r.json", json.dumps(bad)))
        )
        toml = (
            f"[[rooms]]\nname = {json.dumps(text)}\nrect = [500, 500, 2, 2]\ndoors = [[500, 500]]\n"
        )
        argv = _cmd("svg", "horse.png", "--rooms", "r.toml")
        yield add(_slug("rooms-toml-name-error", label), argv, _all(HORSE, _put("r.toml", toml)))

    # option values that come back in messages or outputs
    for label in ("esc-red", "bell", "newline"):  # an argument cannot hold NUL
        t = _CONTROL_TEXT[label]
        yield add(_slug("place-kind", label), _cmd("svg", "horse.png", "--place", f"{t}=3"), HORSE)
        yield add(_slug("solver", label), _cmd("solve", "maze.json", "--solver", t), MAZE)
        yield add(_slug("algorithm", label), _cmd("svg", "horse.png", "-a", t), HORSE)
        argv = _cmd("svg", "horse.png", "-a", "growing-tree", f"--sel{t}ect", "newest")
        yield add(_slug("algo-option", label), argv, HORSE)
        yield add(_slug("unknown-option", label), _cmd("svg", "horse.png", f"--{t}"), HORSE)
        yield add(_slug("page", label), _cmd("pdf", "maze.json", "--page", t), MAZE)
        yield add(_slug("size", label), _cmd("svg", "maze.json", "--size", f"5{t}"), MAZE)
    for label in ("esc-red", "bell", "script", "newline"):
        text, check = _CONTROL_TEXT[label], _html_lacks(_CONTROL_TEXT[label])
        for cmd in ("html", "pdf"):
            argv = _cmd(cmd, "maze.json", "--title", text)
            yield add(_slug("title", label, cmd), argv, MAZE, expect=EITHER, check=check)
        argv = _cmd("pdf", "maze.json", "--footer", text)
        yield add(_slug("footer", label, "pdf"), argv, MAZE, expect=EITHER)

    # file names with escape sequences, line breaks, and bytes that are not UTF-8
    names = {
        "esc": "a\x1b[31mb", "newline": "a\nb", "cr": "a\rb", "bell": "\x07", "c1": "a\x9bb",
        "badutf8": "bad\udcff",
    }  # fmt: skip
    for label, stem in names.items():
        setup = _sample("horse.png", f"{stem}.png")
        for cmd in ("svg", "info"):
            argv = _cmd(cmd, f"{stem}.png")
            yield add(_slug("source-name", label, cmd), argv, setup, expect=EITHER)
        argv = ("horse.png", "-o", f"{stem}.svg")
        yield add(_slug("output-name", label, "svg"), argv, HORSE, expect=EITHER)
        yield add(_slug("missing-source", label), _cmd("svg", f"no{stem}such.png"))
        yield add(_slug("missing-dir", label), ("horse.png", "-o", f"d{stem}/x.svg"), HORSE)
    argv = ("maze.json", "-o", "a\x1b[31mb.tmj")
    yield add("output-name-esc-tmj", argv, MAZE, expect=EITHER)
    argv = ("horse.png", "--animate", "a\x1b[31mb.gif", "-o", "out.svg")
    yield add("output-name-esc-animate", argv, HORSE, expect=EITHER)


# ----------------------------------------------------------------------------- special


def special() -> Iterator[Case]:
    """FIFOs, directories, devices, empty files, symlink loops, unreadable and sparse files."""
    c = "special"
    add = functools.partial(_case, c)
    kinds: dict[str, Callable[[str], Setup]] = {
        "fifo": _fifo,
        "dir": _mkdir,
        "empty": lambda name: _put(name, b""),
        "zero-link": lambda name: _symlink(name, "/dev/zero"),
        "loop": lambda name: _symlink(name, name),
        "dangling": lambda name: _symlink(name, "gone/nowhere"),
    }
    for kind, make in kinds.items():
        for fname in ("in.png", "in.json", "in.npy", "in.txt", "in.jpg"):
            for cmd in ("svg", "info"):
                yield add(_slug(f"{kind}-source", fname, cmd), _cmd(cmd, fname), make(fname))
        for fname in ("r.toml", "r.json"):
            for cmd in ("svg", "info"):
                argv = _cmd(cmd, "horse.png", "--rooms", fname)
                yield add(_slug(f"{kind}-rooms", fname, cmd), argv, _all(HORSE, make(fname)))
    for i, (fname, content) in enumerate([
        ("in.PNG", b""), ("in", b""), ("in.bmp", b""), ("in.gif", b""), ("in.json", b"   \n"),
        ("in.json", "\ufeff"), ("in.txt", "\n\n"), ("in.png", b"\x89PNG\r\n\x1a\n"),
    ]):  # fmt: skip
        yield add(_slug("empty-ish", str(i), fname), _cmd("svg", fname), _put(fname, content))
    for src in ("/dev/zero", "/dev/null", "/dev/stdin", "-", "/proc/self/mem", "/"):
        yield add(_slug("device-source", src), _cmd("svg", src))
    for cmd in ("svg", "info"):
        argv = _cmd(cmd, "horse.png", "--rooms", "/dev/zero")
        yield add(_slug("devzero-rooms", cmd), argv, HORSE)

    # outputs that are not regular files (never a path outside the case directory)
    for out in ("out.svg", "out.png", "out.json", "out.pdf"):
        argv = ("horse.png", "-o", out)
        yield add(_slug("fifo-output", out), argv, _all(HORSE, _fifo(out)))
        yield add(_slug("dir-output", out), argv, _all(HORSE, _mkdir(out)))
        yield add(_slug("loop-output", out), argv, _all(HORSE, _symlink(out, out)))
    argv = ("horse.png", "-o", "out.svg", "--animate", "a.gif")
    yield add("fifo-animate", argv, _all(HORSE, _fifo("a.gif")), outputs=("out.svg",))
    yield add("dir-output-dot", ("horse.png", "-o", "."), HORSE)
    yield add("dir-output-slash", ("horse.png", "-o", "sub/"), _all(HORSE, _mkdir("sub")))
    argv = ("weights", "horse.png", "-o", "w.npy")
    yield add("weights-fifo-output", argv, _all(HORSE, _fifo("w.npy")))

    # permissions (they bind: the child has no CAP_DAC_OVERRIDE)
    perms = {
        "unreadable-png": ("horse.png", _sample("horse.png", mode=0)),
        "unreadable-json": ("maze.json", _sample("horse-maze.json", "maze.json", mode=0)),
        "unreadable-npy": ("p.npy", _put("p.npy", _npy((2, 2), "<i4", b"\x00" * 16), mode=0)),
        "unreadable-txt": ("p.txt", _put("p.txt", "...\n...\n", mode=0)),
        "locked-dir": ("locked/horse.png",
                       _all(_sample("horse.png", "locked/horse.png"), _chmod("locked", 0))),
    }  # fmt: skip
    for label, (src, setup) in perms.items():
        for cmd in ("svg", "info"):
            yield add(_slug(label, cmd), _cmd(cmd, src), setup)
    argv = _cmd("svg", "horse.png", "--rooms", "r.toml")
    yield add("unreadable-rooms", argv, _all(HORSE, _sample("rooms.toml", "r.toml", mode=0)))
    argv = ("horse.png", "-o", "locked/out.svg")
    yield add("output-locked-dir", argv, _all(HORSE, _mkdir("locked", 0)))
    argv = ("horse.png", "-o", "ro/out.svg")
    yield add("output-readonly-dir", argv, _all(HORSE, _mkdir("ro", 0o555)))

    # sparse files: a few bytes of header, then gigabytes of nothing
    gib8 = 8 << 30
    sparse: dict[str, tuple[str, bytes | Callable[[], bytes]]] = {
        "json": ("huge.json", b'{"format": "mazeart-maze", "version": 2, "rows": 1, '),
        "txt": ("huge.txt", b"....\n"),
        "npy": ("huge.npy", _npy((50_000, 50_000))),
        "png": ("huge.png", b"\x89PNG\r\n\x1a\n"),
        "toml": ("huge.toml", b"[[rooms]]\n"),
    }
    for label, (fname, head) in sparse.items():
        if label == "toml":
            argv = _cmd("svg", "horse.png", "--rooms", fname)
        else:
            argv = _cmd("svg", fname)
        yield add(_slug("sparse-8g", label), argv, _all(HORSE, _sparse(fname, head, gib8)))

    # the best-times file of `play` as something that is not a file
    tiny = _put("tiny.txt", "..\n")
    play = ("play", "tiny.txt", "--levels", "1")
    setup = _all(tiny, _fifo("best-times.json", "data"))
    yield add("best-times-fifo-play-tty", play, setup, keys="dadq", expect=EITHER)
    setup = _all(tiny, _mkdir("best-times.json", where="data"))
    yield add("best-times-dir-play-tty", play, setup, keys="dadq", expect=EITHER)
    yield add("play-notty", play, tiny)


# ----------------------------------------------------------------------------- partial


def partial() -> Iterator[Case]:
    """A job that fails half-way must leave every file as it found it."""
    c = "partial"
    add = functools.partial(_case, c, outputs=())
    old = _put("out.svg", OLD_SVG)
    animate_fail = {
        "missing-dir": ("missing/x.gif", _nothing),
        "is-dir": ("x.gif", _mkdir("x.gif")),
        "readonly-dir": ("ro/x.gif", _mkdir("ro", 0o555)),
        "locked-dir": ("locked/x.gif", _mkdir("locked", 0)),
        "readonly-file": ("x.gif", _put("x.gif", b"GIF89a old", 0o444)),
    }
    for label, (gif, setup) in animate_fail.items():
        argv = ("horse.png", "-o", "out.svg", "--animate", gif)
        yield add(_slug("animate", label), argv, _all(HORSE, old, setup))
    for out in ("out.png", "out.pdf", "out.json", "out.html", "out.tmj"):
        argv = ("horse.png", "-o", out, "--animate", "missing/x.gif")
        setup = _all(HORSE, _put(out, b"the user's old file\n"))
        yield add(_slug("animate-missing-dir", out), argv, setup)

    # Tiled maps write NAME.tiles.png beside the map: the user's file of that name stays
    tiles = _put("level.tiles.png", b"\x89PNG\r\n\x1a\nthe user's own tileset")
    for out in ("level.tmj", "level.tmx"):
        argv = ("maze.json", "-o", out)
        yield add(
            _slug("tiles-exists", out), argv, _all(MAZE, tiles), expect=EITHER, outputs=(out,)
        )
        setup = _all(MAZE, _put(out, b"old map\n"), _mkdir("level.tiles.png"))
        yield add(_slug("tiles-is-dir", out), argv, setup)
        setup = _all(MAZE, _put("level.tiles.png", b"\x89PNG old", 0o444))
        yield add(_slug("tiles-readonly", out), argv, setup, expect=EITHER, outputs=(out,))

    # read-only outputs: refuse, as the shell's > would
    for out, argv in (
        ("ro.svg", ("horse.png", "-o", "ro.svg")),
        ("ro.png", ("horse.png", "-o", "ro.png")),
        ("ro.json", ("maze.json", "-o", "ro.json")),
        ("ro.pdf", ("maze.json", "-o", "ro.pdf")),
        ("ro.html", ("maze.json", "-o", "ro.html")),
        ("ro.npy", ("weights", "horse.png", "-o", "ro.npy")),
        ("ro-book.pdf", ("book", "horse.png", "-o", "ro-book.pdf", "--count", "2")),
        ("ro-sol.svg", ("solve", "maze.json", "-o", "ro-sol.svg")),
    ):
        setup = _all(HORSE, MAZE, _put(out, b"the user's read-only file\n", 0o444))
        yield add(_slug("readonly-output", out), argv, setup)

    # jobs that fail after a first step
    argv = ("book", "horse.png", "bad.png", "-o", "book.pdf", "--count", "2")
    setup = _all(HORSE, _put("bad.png", b"not a picture"), _put("book.pdf", b"%PDF old\n"))
    yield add("book-bad-second-source", argv, setup)
    argv = ("maze.json", "--levels", "3", "-o", "game.html")
    setup = _all(MAZE, _put("game.html", b"<html>old game</html>\n"))
    yield add("levels-from-saved-maze", argv, setup, expect=EITHER, outputs=("game.html",))
    setup = _all(_put("bad.png", b"GIF89a truncated"), old)
    yield add("bad-source-keeps-output", ("bad.png", "-o", "out.svg"), setup)
    yield add("missing-output-dir", ("horse.png", "-o", "missing/out.svg"), HORSE)
    note = "writing the maze over its own picture destroys the input"
    yield add("output-is-source", ("horse.png", "-o", "horse.png"), HORSE, expect=EITHER, note=note)


# ----------------------------------------------------------------------------- signals


def signals() -> Iterator[Case]:
    """Ctrl-C, SIGTERM, SIGHUP, SIGUSR1 and the other fatal signals, and SIGKILL, mid-job;
    a batch stopped; a reader that goes away."""
    c = "signals"
    # A signal waits for its phase (a time into the job, or the .part file appearing), never
    # for a clock running out: on a busy machine the job may take minutes to get there.
    add = functools.partial(_case, c, timeout=PHASE_TIMEOUT)
    big = ("horse.png", "--cells", "1500", "--best-of", "20", "-o", "big.svg")  # about 5 s
    sigint = signal.SIGINT
    yield add("sigint-working", big, HORSE, sig=sigint, sig_at=2.0, expect=(130,))
    yield add("sigint-startup", big, HORSE, sig=sigint, sig_at=0.3, expect=(130,))
    yield add("sigint-writing", big, HORSE, sig=sigint, sig_on_part="*", expect=(130,))
    argv = ("horse.png", "--cells", "500", "--best-of", "10", "-o", "out.svg", "--animate", "a.gif")
    setup = _all(HORSE, _put("out.svg", OLD_SVG))
    yield add("sigint-writing-animate", argv, setup, sig=sigint, sig_on_part="*", expect=(130,))
    argv = ("book", "horse.png", "--count", "200", "-o", "book.pdf")
    yield add("sigint-book", argv, HORSE, sig=sigint, sig_at=2.5, expect=(130,))
    for sig, label in ((signal.SIGTERM, "sigterm"), (signal.SIGHUP, "sighup")):
        yield add(f"{label}-working", big, HORSE, sig=sig, sig_at=2.0, expect=NONZERO)
        yield add(f"{label}-writing", big, HORSE, sig=sig, sig_on_part="*", expect=NONZERO)
    # every other signal whose default ends a process cleans up the same way
    for label in ("SIGUSR1", "SIGUSR2", "SIGQUIT", "SIGALRM", "SIGXCPU"):
        sig = getattr(signal, label)
        yield add(f"{label.lower()}-writing", big, HORSE, sig=sig, sig_on_part="*",
                  expect=(128 + sig,))  # fmt: skip
    argv = ("batch", "horse.png", "--count", "40", "--cells", "300", "-o", "out", "--jobs", "2")
    yield add("sigterm-batch", argv, HORSE, sig=signal.SIGTERM, sig_at=3.0, expect=NONZERO,
              outputs=("out",), kept=("out",))  # fmt: skip
    stale = _put(".out.png.k3x9q2zv.part", b"\x89PNG\r\n\x1a\nhalf a picture")
    argv = ("horse.png", "-o", "out.png")
    yield add("sigkill-stale-part-rerun", argv, _all(HORSE, stale), expect=(0,))
    yield add("sigkill-mid-write-rerun", big, _all(HORSE, _kill_mid_write(big)), expect=(0,))
    for label, argv in (
        ("ascii", ("horse.png", "--ascii")),
        ("info", ("info", "maze.json")),
        ("algorithms", ("algorithms",)),
        ("help", ("--help",)),
    ):
        setup = _all(HORSE, MAZE)
        yield add(f"closed-stdout-{label}", argv, setup, closed_stdout=True, expect=ANY_STATUS)


# ----------------------------------------------------------------------------- corpus


GENERATORS: dict[str, Callable[[], Iterable[Case]]] = {
    "sizes": sizes,
    "nesting": nesting,
    "nonfinite": nonfinite,
    "control": control,
    "special": special,
    "partial": partial,
    "signals": signals,
}


@functools.cache
def corpus() -> dict[str, Case]:
    """Every case, by name."""
    out: dict[str, Case] = {}
    for cls, gen in GENERATORS.items():
        for case in gen():
            assert case.cls == cls and case.name not in out, case.name
            out[case.name] = case
    return out


# ----------------------------------------------------------------------------- running

_PRCTL = ctypes.CDLL(None, use_errno=True).prctl
_PR_CAPBSET_DROP = 24
_DAC_CAPS = (1, 2, 3)  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER


def _limit_child() -> None:
    """In the child before exec: resource limits, and no root bypass of file modes."""
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_LIMIT, ADDRESS_LIMIT))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_LIMIT, FILE_SIZE_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if os.geteuid() == 0:
        for cap in _DAC_CAPS:
            _PRCTL(_PR_CAPBSET_DROP, cap, 0, 0, 0)


def _child_env(data: Path) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("MAZEART_") and k not in ("PYTHONWARNINGS", "PYTHONDEVMODE")
    }
    env["MAZEART_DATA_DIR"] = str(data)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


def _part_files(folder: Path) -> list[str]:
    """Temporary files of mazeart's atomic writes (``.NAME.XXXX.part``), anywhere below."""
    found = []
    for dirpath, _dirs, files in os.walk(folder):
        for name in files:
            if name.startswith(".") and name.endswith(".part"):
                found.append(os.path.relpath(os.path.join(dirpath, name), folder))
    return found


def _snapshot(top: Path) -> dict[str, tuple[Any, ...]]:
    """Every entry below ``top``: kind, and contents (hash) or target, and mode."""
    out: dict[str, tuple[Any, ...]] = {}
    for dirpath, dirs, files in os.walk(top):
        for name in dirs + files:
            p = os.path.join(dirpath, name)
            rel = os.path.relpath(p, top)
            st = os.lstat(p)
            mode = stat.S_IMODE(st.st_mode)
            if stat.S_ISREG(st.st_mode):
                if st.st_size > 64 << 20:  # sparse giants: size and time, not contents
                    out[rel] = ("file", st.st_size, st.st_mtime_ns, mode)
                else:
                    with open(p, "rb") as fh:
                        out[rel] = ("file", hashlib.sha256(fh.read()).hexdigest(), mode)
            elif stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(p))
            elif stat.S_ISDIR(st.st_mode):
                out[rel] = ("dir", mode)
            elif stat.S_ISFIFO(st.st_mode):
                out[rel] = ("fifo", mode)
            else:
                out[rel] = ("other", st.st_mode)
    return out


def _status_of(wait_status: int) -> int:
    """An exit status as a shell reports it (128 + N for a death by signal N)."""
    code = os.waitstatus_to_exitcode(wait_status)
    return code if code >= 0 else 128 - code


def run_case(case: Case, root: Path) -> Result:
    """Set up ``case`` under ``root``, run the CLI on it and judge what it did."""
    work, data, logs = root / "work" / case.name, root / "data" / case.name, root / "logs"
    for d in (work, data, logs):
        d.mkdir(parents=True, exist_ok=True)
    try:
        case.setup(work, data)
    except Exception as exc:  # the harness's fault, shown as such
        failure = {"harness": f"setup: {type(exc).__name__}: {exc}"}
        return Result(case.name, case.cls, None, "", "", 0.0, 0, False, failure)
    before = _snapshot(work)
    out_path, err_path = logs / f"{case.name}.out", logs / f"{case.name}.err"
    master = slave = reader = -1
    env = _child_env(data)
    with open(out_path, "wb") as out_fh, open(err_path, "wb") as err_fh:
        stdout: Any = out_fh
        stdin: Any = subprocess.DEVNULL
        if case.keys:
            master, slave = pty.openpty()
            fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
            stdin = stdout = slave
            env["TERM"] = "xterm"
        elif case.closed_stdout:
            reader, stdout = os.pipe()
        started = time.monotonic()
        proc = subprocess.Popen(
            [sys.executable, "-m", "mazeart", *case.argv],
            cwd=work,
            env=env,
            stdin=stdin,
            stdout=stdout,
            stderr=err_fh,
            preexec_fn=_limit_child,
            process_group=0,
        )
        if case.keys:
            os.close(slave)
        elif case.closed_stdout:
            os.close(reader)
            os.close(stdout)
        status, rusage, timed_out, sent = _wait(proc, case, work, started, master)
        seconds = time.monotonic() - started
        if master >= 0:
            os.close(master)
    stdout_text = out_path.read_bytes().decode("utf-8", "backslashreplace")
    stderr_text = err_path.read_bytes().decode("utf-8", "backslashreplace")
    rss = rusage.ru_maxrss * 1024
    result = Result(case.name, case.cls, status, stdout_text, stderr_text, seconds, rss, timed_out)
    result.failures = judge(case, result, before, _snapshot(work), work)
    if case.sig is not None and not sent:
        result.failures["exit"] = (
            result.failures.get("exit", f"exit {status}") + "; the signal was never sent"
        )
    return result


def _wait(
    proc: subprocess.Popen, case: Case, work: Path, started: float, master: int
) -> tuple[int | None, Any, bool, bool]:
    """Reap the child (sending its signal, typing its keys); its status and own rusage."""
    sent = timed_out = False
    keys = list(case.keys)
    next_key = started + 3.0
    while True:
        pid, wait_status, rusage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        now = time.monotonic()
        if case.sig is not None and not sent:
            if case.sig_on_part:
                due = bool(fnmatch.filter(_part_files(work), case.sig_on_part))
            else:
                due = now - started >= case.sig_at
            if due:
                os.kill(proc.pid, case.sig)
                sent = True
        if master >= 0:
            while select.select([master], [], [], 0)[0]:
                try:
                    if not os.read(master, 65536):
                        break
                except OSError:
                    break
            if keys and now >= next_key:
                os.write(master, keys.pop(0).encode())
                next_key = now + 0.6
        if now - started > case.timeout:
            timed_out = True
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            pid, wait_status, rusage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.005 if case.sig_on_part else 0.02)
    proc.returncode = os.waitstatus_to_exitcode(wait_status)  # reaped here, not by Popen
    return _status_of(wait_status), rusage, timed_out, sent


# ----------------------------------------------------------------------------- judging

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_FRAME = re.compile(r'File "([^"]*)", line (\d+), in (\S+)')


def _strict_json(text: str) -> Any:
    """``json.loads`` that refuses NaN, Infinity and numbers that overflow to them."""

    def constant(token: str) -> Any:
        raise ValueError(f"non-finite number {token}")

    def number(token: str) -> float:
        value = float(token)
        if value in (float("inf"), float("-inf")):
            raise ValueError(f"number {token} overflows")
        return value

    return json.loads(text, parse_constant=constant, parse_float=number)


_HTML_DATA = re.compile(r'<script id="mazeart-data" type="application/json">(.*?)</script>', re.S)


def _kept(work: Path, folders: tuple[str, ...], new: set[str]) -> dict[str, str | None]:
    """The new entries in the ``kept`` folders of a stopped run, each with why it is wrong
    (None when it is not): a malformed file, or a file its folder's ``metrics.json`` does
    not name (or one it names that is missing)."""
    out: dict[str, str | None] = {}
    for top in folders:
        mine = {rel for rel in new if rel == top or rel.startswith(top + os.sep)}
        for rel in sorted(mine):
            p = work / rel
            out[rel] = _well_formed(p) if p.is_file() and not p.is_symlink() else None
        files = {os.path.basename(r) for r in mine if (work / r).is_file()}
        metrics = work / top / "metrics.json"
        if files and out.get(os.path.join(top, "metrics.json"), "missing") is None:
            named = {f for row in json.loads(metrics.read_text()) for f in row["files"]}
            if named != files - {"metrics.json"}:
                out[os.path.join(top, "metrics.json")] = f"names {sorted(named)}"
        elif files:
            out[os.path.join(top, "metrics.json")] = "missing or malformed"
    return out


def _well_formed(path: Path) -> str | None:
    """Why the output file ``path`` is malformed, or None."""
    suffix = path.suffix.lower()
    raw = path.read_bytes()
    try:
        if suffix in (".svg", ".tmx"):
            ET.fromstring(raw)
        elif suffix in (".json", ".tmj"):
            _strict_json(raw.decode("utf-8"))
        elif suffix == ".html":
            match = _HTML_DATA.search(raw.decode("utf-8"))
            if match is None:
                return "no embedded game data"
            _strict_json(match.group(1))
        elif suffix == ".png" and not raw.startswith(b"\x89PNG\r\n\x1a\n"):
            return "not a PNG"
        elif suffix == ".pdf" and not raw.startswith(b"%PDF-"):
            return "not a PDF"
        elif suffix == ".gif" and not raw.startswith(b"GIF8"):
            return "not a GIF"
    except (ET.ParseError, ValueError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def _lines(text: str) -> list[str]:
    return text[:-1].split("\n") if text.endswith("\n") else text.split("\n") if text else []


def judge(
    case: Case,
    result: Result,
    before: dict[str, tuple[Any, ...]],
    after: dict[str, tuple[Any, ...]],
    work: Path,
) -> dict[str, str]:
    """The failures of one run, by kind (see :data:`KINDS`)."""
    f: dict[str, str] = {}
    status, out, err = result.status, result.stdout, result.stderr
    if result.timed_out:
        f["timeout"] = f"killed after {case.timeout:.0f} s"
    if "Traceback" in out or "Traceback" in err:
        f["traceback"] = traceback_summary(err if "Traceback" in err else out)
    if not result.timed_out and not _status_ok(case.expect, status):
        f["exit"] = f"exit {status}, expected {_show_expect(case.expect)}"
    lines = _lines(err)
    if not result.timed_out:
        if status == 2:
            ok = len(lines) == 1 and lines[0].startswith("mazeart: error: ")
        elif status == 130:
            ok = lines == ["mazeart: interrupted"]
        elif status == 0:  # its report, after any warnings about the result
            said = [line for line in lines if not line.startswith("mazeart: warning: ")]
            ok = len(said) <= 1 and all(line.startswith("mazeart: ") for line in lines)
        else:
            ok = len(lines) <= 1
        if not ok:
            f["stderr"] = f"{len(lines)} line(s) on stderr"
    bad = _CONTROL.search(out + err)
    if bad:
        f["control"] = f"raw {bad.group()!r} in {'stderr' if _CONTROL.search(err) else 'stdout'}"
    allowed = set(case.outputs) if status == 0 else set()
    left = _kept(work, case.kept, set(after) - set(before)) if status != 0 else {}
    new = sorted(set(after) - set(before) - allowed - set(left))
    if any(left.values()):
        f["content"] = "; ".join(f"{rel!r}: {why}" for rel, why in left.items() if why)
    parts = _part_files(work)
    problems = [f"new {n!r}" for n in new if n not in parts] + [f"temp {p!r}" for p in parts]
    if problems:
        f["files"] = ", ".join(problems)
    changed = [
        rel
        for rel, entry in before.items()
        if after.get(rel) != entry and rel not in allowed and rel not in parts
        and not (rel.endswith(".part") and rel not in after)
    ]  # fmt: skip
    if changed:
        f["changed"] = ", ".join(
            f"{rel!r} {'removed' if rel not in after else 'changed'}" for rel in changed
        )
    if result.max_rss > RSS_LIMIT:
        f["memory"] = f"peak RSS {result.max_rss / 2**30:.2f} GiB"
    if status == 0:
        content = []
        for rel in sorted(allowed & set(after)):
            p = work / rel
            if p.is_file() and not p.is_symlink():
                why = _well_formed(p)
                if why:
                    content.append(f"{rel!r}: {why}")
        if "--json" in case.argv and case.argv[:1] == ("info",):
            try:
                _strict_json(out)
            except ValueError as exc:
                content.append(f"info --json stdout: {exc}")
        if case.check is not None:
            content += case.check(work, out)
        if content:
            f["content"] = "; ".join(content)
    return f


def _status_ok(expect: tuple[int, ...] | None, status: int | None) -> bool:
    if expect is ANY_STATUS:
        return True
    if status is None:
        return False
    return status != 0 if expect == NONZERO else status in expect


def _show_expect(expect: tuple[int, ...] | None) -> str:
    if expect is ANY_STATUS:
        return "any"
    return "nonzero" if expect == NONZERO else " or ".join(map(str, expect))


def traceback_summary(text: str) -> str:
    """``ExcType: message (mazeart/file.py:LINE in func)``: the last exception, innermost frame."""
    lines = text.splitlines()
    start = max(i for i, line in enumerate(lines) if line.startswith("Traceback"))
    tail = lines[start:]
    frames = [m for line in tail if (m := _FRAME.search(line)) and "/mazeart/" in m.group(1)]
    last = [line for line in tail if line.strip() and not line.startswith((" ", "\t"))]
    exc = last[-1] if last else "?"
    where = ""
    if frames:
        path, line, func = frames[-1].groups()
        where = f" (mazeart/{path.rsplit('/mazeart/', 1)[1]}:{line} in {func})"
    return f"{exc[:160]}{where}"


# ----------------------------------------------------------------------------- the table


def _run_named(name: str, root: str) -> Result:
    return run_case(corpus()[name], Path(root))


def run_cases(
    names: Sequence[str], root: Path, jobs: int = 2, progress: bool = False
) -> dict[str, Result]:
    """Run the named cases, ``jobs`` at a time (each in a worker process of its own)."""
    results: dict[str, Result] = {}
    ctx = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=max(1, jobs), mp_context=ctx) as pool:
        futures = {pool.submit(_run_named, n, str(root)): n for n in names}
        for i, fut in enumerate(as_completed(futures), start=1):
            name = futures[fut]
            try:
                res = fut.result()
            except Exception as exc:  # the harness's fault, shown as such
                failure = {"harness": f"{type(exc).__name__}: {exc}"}
                res = Result(name, corpus()[name].cls, None, "", "", 0.0, 0, False, failure)
            results[res.name] = res
            if progress:
                mark = "FAIL " + ",".join(res.failures) if res.failures else "ok"
                print(
                    f"[{i}/{len(names)}] {res.name} {res.seconds:.1f} s {mark}",
                    file=sys.stderr,
                    flush=True,
                )
    return {n: results[n] for n in names}


def show(text: str) -> str:
    """``text`` with control characters escaped, safe to print on a terminal."""
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)


def report(results: dict[str, Result], cases: dict[str, Case]) -> str:
    """The table per class, then every failing case with its argv and stderr."""
    kinds = [*KINDS, "harness"] if any("harness" in r.failures for r in results.values()) else KINDS
    head = ["class", "cases", "failed", *kinds]
    rows = []
    for cls in CLASSES:
        rs = [r for r in results.values() if r.cls == cls]
        if rs:
            counts = [sum(k in r.failures for r in rs) for k in kinds]
            rows.append([cls, len(rs), sum(bool(r.failures) for r in rs), *counts])
    rows.append(["total", *(sum(row[i] for row in rows) for i in range(1, len(head)))])
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows, strict=True)]
    fmt = lambda row: "  ".join(str(x).rjust(w) for x, w in zip(row, widths, strict=True))  # noqa: E731
    out = [fmt(head), *map(fmt, rows), ""]
    failing = [r for r in results.values() if r.failures]
    if failing:
        out.append(f"{len(failing)} failing case(s):")
    for r in failing:
        case = cases[r.name]
        out.append("")
        out.append(f"[{r.cls}] {r.name}: {', '.join(r.failures)}")
        out.append(f"  argv: mazeart {' '.join(map(_quote, case.argv))}")
        out.append(f"  exit {r.status}, {r.seconds:.1f} s, peak RSS {r.max_rss / 2**20:.0f} MiB")
        for kind, detail in r.failures.items():
            out.append(f"  {kind}: {show(detail)}")
        for line in _lines(r.stderr)[:3]:
            out.append(f"  | {show(line)[:200]}")
        if case.note:
            out.append(f"  note: {case.note}")
    return "\n".join(out)


def _quote(arg: str) -> str:
    shown = show(arg).encode("utf-8", "backslashreplace").decode("ascii", "backslashreplace")
    return shown if re.fullmatch(r"[\w.,:=/+-]+", shown) else repr(shown)


def main(argv: list[str] | None = None) -> int:
    """Run the corpus (or part of it), print the table; 1 if any case failed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--jobs", type=int, default=2, help="cases run at once")
    parser.add_argument("--only", choices=CLASSES, action="append", help="run only this class")
    parser.add_argument("--case", help="run only cases whose name holds this text")
    parser.add_argument("--keep", action="store_true", help="keep the case directories")
    parser.add_argument("--list", action="store_true", help="list the cases and stop")
    args = parser.parse_args(argv)
    cases = corpus()
    names = [
        n
        for n, c in cases.items()
        if (not args.only or c.cls in args.only) and (not args.case or args.case in n)
    ]
    if args.list:
        for n in names:
            print(f"{cases[n].cls:10} {n}: mazeart {' '.join(map(_quote, cases[n].argv))}")
        return 0
    root = Path(tempfile.mkdtemp(prefix="mazeart-hostile-"))
    started = time.monotonic()
    try:
        results = run_cases(names, root, args.jobs, progress=True)
    finally:
        if args.keep:
            print(f"case directories kept in {root}", file=sys.stderr)
        else:
            remove_run(root)
    print(report(results, cases))
    print(f"\n{len(names)} cases in {time.monotonic() - started:.0f} s")
    return 1 if any(r.failures for r in results.values()) else 0


def remove_run(root: Path) -> None:
    """Delete a run's directory, giving back the permissions that cases took away."""
    for dirpath, dirs, _files in os.walk(root):
        for d in dirs:
            p = os.path.join(dirpath, d)
            if not os.path.islink(p):
                os.chmod(p, 0o755)
    shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
