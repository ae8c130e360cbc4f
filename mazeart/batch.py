"""Batches: many mazes of one recipe, made on every core (or a cluster), written to a folder.

:func:`run_batch` makes maze ``i`` with ``make(source, rng=seed, index=i, ...)``,
as :func:`mazeart.make_many` does, so the files are the same whatever the
number of worker processes, and any maze can be made again alone from the seed
its row of ``metrics.json`` records.

The workers send back each maze's files as bytes and its metrics; this process
writes them, in the items' order, into a hidden folder inside the output
folder, and moves them into place only when every item has succeeded: a failed
batch leaves the output folder as it was (and removes it if it made it).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from functools import partial
from pathlib import Path
from typing import Any

from mazeart._io import dump_json, existing_file
from mazeart._limits import check_count
from mazeart._names import BATCH_FORMATS
from mazeart._pool import WorkerDied, check_jobs, ordered_map
from mazeart._rng import RngLike, check_seed
from mazeart._signals import stopped
from mazeart.errors import MazeartError
from mazeart.export import FORMAT_OPTIONS
from mazeart.figures import is_figure
from mazeart.pipeline import _rectangle, _seed, make, save

METRICS = "metrics.json"
"""The batch's table: one row per maze, its index, seed, files and metrics."""

_SOLVING = ("solution", "paths", "solver", "hand")


def _item(
    source: Any,
    seed: int,
    formats: tuple[str, ...],
    drawing: Mapping[str, Any],
    options: Mapping[str, Any],
    index: int,
) -> tuple[dict[str, bytes], dict[str, Any]]:
    """Make maze ``index`` and return its files' bytes (by suffix) and its metrics row."""
    made = make(source, rng=seed, index=index, **options)
    files: dict[str, bytes] = {}
    with tempfile.TemporaryDirectory(prefix="mazeart-batch-") as tmp:
        for fmt in formats:
            suffix = f".{fmt}"
            take = {
                k: v for k, v in drawing.items() if k in FORMAT_OPTIONS[suffix] or k in _SOLVING
            }
            path = save(made, Path(tmp, f"maze{suffix}"), **take)
            files[suffix] = path.read_bytes()
    row = {"index": index, "seed": made.maze.meta.get("seed"), **made.metrics()}
    return files, row


def _formats(formats: Sequence[str] | str) -> tuple[str, ...]:
    """The formats asked for, checked: ``("svg", "png")`` or ``"svg,png"``."""
    names = formats.split(",") if isinstance(formats, str) else list(formats)
    out = tuple(dict.fromkeys(n.strip().lower().lstrip(".") for n in names))
    for name in out:
        if name not in BATCH_FORMATS:
            raise MazeartError(
                f"format must be one of {', '.join(BATCH_FORMATS)}, got {name or '(none)'!r}"
            )
    if not out:
        raise MazeartError("a batch needs at least one format")
    return out


def run_batch(
    source: str | os.PathLike[str] | Any,
    count: int,
    out_dir: str | os.PathLike[str],
    *,
    rng: RngLike = None,
    executor: Executor | None = None,
    jobs: int | None = None,
    formats: Sequence[str] | str = ("svg",),
    drawing: Mapping[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
    **options: Any,
) -> list[dict[str, Any]]:
    """Make ``count`` mazes of one recipe and write them, with their metrics, to a folder.

    Maze ``i`` (from 0) is ``make(source, rng=seed, index=i, **options)``, written
    as ``maze-0001.svg`` (numbered from 1; more digits for 10,000 mazes or more),
    one file per format; ``metrics.json`` lists one row per maze: ``index``,
    ``seed`` (``mazeart SOURCE --seed SEED`` makes it again), ``files``, and
    its :meth:`~mazeart.Made.metrics`.

    Parameters
    ----------
    source : path, str or (H, W) ndarray
        As for :func:`mazeart.make` (a picture, a preset or ``"WxH"``); it is
        sent to the workers, so a path rather than a decoded picture.
    count : int
    out_dir : str or path-like
        The folder (made if missing). Files of the same names are replaced; the
        rest of its content is left alone.
    rng : int or numpy.random.Generator, optional
        The run's seed (fresh when omitted).
    executor : concurrent.futures.Executor, optional
        Where to make the mazes (a Dask ``client.get_executor()`` spreads them
        over a cluster); left open.
    jobs : int, optional
        Without ``executor``: worker processes (default: every core; 1 makes
        them in this process). The files are the same for any number.
    formats : sequence of str, or str, default ("svg",)
        Any of ``svg``, ``png``, ``pdf``, ``json``, ``txt``, ``html``.
    drawing : mapping, optional
        Options of :func:`mazeart.save` (``solution``, ``cell_size``, ...);
        each format takes those it knows.
    progress : callable, optional
        Called with the number of mazes done.
    **options
        :func:`mazeart.make`'s options.

    Returns
    -------
    list of dict
        The rows of ``metrics.json``.

    Raises
    ------
    MazeartError
        For a bad option, or the first maze that fails (nothing is written then).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp()) / "mazes"
    >>> rows = run_batch("12x8", 3, folder, rng=5, jobs=1, formats="svg,json")
    >>> sorted(p.name for p in folder.iterdir())  # doctest: +NORMALIZE_WHITESPACE
    ['maze-0001.json', 'maze-0001.svg', 'maze-0002.json', 'maze-0002.svg',
     'maze-0003.json', 'maze-0003.svg', 'metrics.json']
    >>> [(r["index"], r["seed"], r["files"][0]) for r in rows]
    [(0, 5, 'maze-0001.svg'), (1, 6, 'maze-0002.svg'), (2, 7, 'maze-0003.svg')]
    """
    count = check_count(count, "count")
    check_jobs(jobs, executor)
    suffixes = _formats(formats)
    if "rng" in options or "seed" in options:
        raise TypeError("run_batch() takes the seed as rng=SEED")
    if isinstance(source, os.PathLike):
        source = os.fspath(source)
    if isinstance(source, str) and _rectangle(source) is None and not is_figure(source):
        existing_file(source, "a picture, a preset or a saved maze")
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise MazeartError(f"cannot write {out}: not a folder")
    if not out.parent.is_dir():
        raise MazeartError(f"cannot write {out}: no folder {out.parent}")
    seed = check_seed(_seed(rng), span=count * int(options.get("best_of") or 1))
    digits = max(4, len(str(count)))
    _not_inputs(out, count, digits, suffixes, source, options.get("rooms"))
    work = partial(_item, source, seed, suffixes, dict(drawing or {}), dict(options))
    made_dir = not out.exists()
    out.mkdir(exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".mazeart-batch-", dir=out))
    rows: list[dict[str, Any]] = []
    try:
        for i, (files, row) in enumerate(
            ordered_map(work, range(count), executor=executor, jobs=jobs)
        ):
            names = []
            for fmt in suffixes:
                name = f"maze-{i + 1:0{digits}d}.{fmt}"
                Path(staging, name).write_bytes(files[f".{fmt}"])
                names.append(name)
            rows.append({"index": row.pop("index"), "seed": row.pop("seed"), "files": names, **row})
            if progress is not None:
                progress(i + 1)
        _write_metrics(staging, rows)
        _commit(staging, out)
    except BaseException as exc:
        try:
            if rows and (stopped(exc) is not None or isinstance(exc, WorkerDied)):
                # what finished is kept, whole, with a metrics file of just those mazes
                for name in set(os.listdir(staging)) - {n for r in rows for n in r["files"]}:
                    Path(staging, name).unlink()
                _write_metrics(staging, rows)
                _commit(staging, out)
                if isinstance(exc, WorkerDied):
                    raise MazeartError(
                        f"{exc}: the {len(rows)} of {count} mazes finished are in {out} "
                        f"({METRICS} lists them)"
                    ) from None
        finally:
            shutil.rmtree(staging, ignore_errors=True)
            if made_dir:
                with contextlib.suppress(OSError):
                    out.rmdir()
        raise
    shutil.rmtree(staging, ignore_errors=True)
    return rows


def _write_metrics(staging: Path, rows: list[dict[str, Any]]) -> None:
    Path(staging, METRICS).write_text(dump_json(rows, indent=1) + "\n", encoding="utf-8")


def _not_inputs(out: Path, count: int, digits: int, suffixes: Sequence[str], *inputs: Any) -> None:
    """Refuse a batch that would write over one of its inputs (a picture named like a
    maze of the batch, in its folder)."""
    given = [Path(i) for i in inputs if isinstance(i, str | os.PathLike)]
    here = [p for p in given if p.exists() and p.parent.resolve() == out.resolve()]
    for path in here:
        name = path.name
        match = re.fullmatch(rf"maze-(\d{{{digits},}})\.(\w+)", name)
        ours = match is not None and 1 <= int(match[1]) <= count and match[2] in suffixes
        if name == METRICS or ours:
            raise MazeartError(
                f"cannot write {out / name}: it is the batch's input; choose another folder"
            )


def _commit(staging: Path, out: Path) -> None:
    """Move the staged files into ``out``, all or none: a file of the same name is set
    aside first and put back if any move fails."""
    moved: list[tuple[str, bool]] = []
    try:
        for name in sorted(os.listdir(staging)):
            if name.startswith(".old-"):
                continue
            had = (out / name).exists()
            if had:
                os.replace(out / name, staging / f".old-{name}")
            moved.append((name, had))
            os.replace(staging / name, out / name)
    except OSError as exc:
        for name, had in reversed(moved):
            with contextlib.suppress(OSError):
                if (out / name).exists() and not (staging / name).exists():
                    os.replace(out / name, staging / name)
                if had:
                    os.replace(staging / f".old-{name}", out / name)
        raise MazeartError(
            f"could not move the batch into {out} ({exc.strerror or exc}); nothing in it changed"
        ) from None
