"""The game of a maze: a player on the entrance, moves through passages, a clock, a win.

The weighted-DFS program was a game (arrow keys, a timer, three mazes in a row),
and high scores were wished for: every maze keeps a table of its :data:`KEEP` best times, in
the user's data directory (:func:`best_times_path`), under the maze's
fingerprint (:func:`maze_key`), so the same maze played again shares its table
and different levels of one size do not.

The file is one JSON object, fingerprint → times, fastest first::

    {"12x8 cells 5d41402abc4b2a76": [9.25, 12.5, 14.0]}

A file of the older kind (one number per maze size, ``{"12x8 cells": 9.25}``)
still loads, each number as a table of one time.
"""

from __future__ import annotations

import bisect
import hashlib
import math
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mazeart._io import atomic_write, dump_json, load_json, read_bytes
from mazeart.errors import MazeartError
from mazeart.maze import DIRECTIONS, Maze

__all__ = [
    "KEEP",
    "MOVES",
    "Game",
    "Score",
    "best_times_path",
    "load_best_times",
    "load_scores",
    "maze_key",
    "record_score",
    "record_time",
    "size_key",
    "top_times",
]

KEEP = 5
"""Times kept per maze."""

MOVES = {"up": DIRECTIONS[0], "right": DIRECTIONS[1], "down": DIRECTIONS[2], "left": DIRECTIONS[3]}
"""Direction name → ``(bit, d_row, d_col)``."""


class Game:
    """One maze being played.

    Parameters
    ----------
    maze : Maze
        Needs an entrance and an exit.
    clock : callable, default time.monotonic
        Seconds; tests pass a fake.
    """

    def __init__(self, maze: Maze, *, clock: Callable[[], float] = time.monotonic) -> None:
        if maze.entrance is None or maze.exit is None:
            raise MazeartError("a game needs a maze with an entrance and an exit")
        self.maze = maze
        self.position: tuple[int, int] = maze.entrance
        self.moves = 0
        self._clock = clock
        self._started: float | None = None
        self._finished: float | None = None

    @property
    def won(self) -> bool:
        """Whether the player stands on the exit."""
        return self._finished is not None

    @property
    def elapsed(self) -> float:
        """Seconds since the first move (frozen at the win)."""
        if self._started is None:
            return 0.0
        end = self._finished if self._finished is not None else self._clock()
        return end - self._started

    def move(self, direction: str) -> bool:
        """Step ``'up'``, ``'down'``, ``'left'`` or ``'right'``; False when a wall is in the way.

        The clock starts at the first step; reaching the exit stops it.
        """
        if direction not in MOVES:
            raise MazeartError(f"direction must be one of {', '.join(MOVES)}, got {direction!r}")
        if self.won:
            return False
        bit, dr, dc = MOVES[direction]
        r, c = self.position
        if not self.maze.passages[r, c] & bit:
            return False
        if self._started is None:
            self._started = self._clock()
        self.position = (r + dr, c + dc)
        self.moves += 1
        if self.position == self.maze.exit:
            self._finished = self._clock()
        return True


def size_key(maze: Maze) -> str:
    """The key best times had before they were kept per maze: ``"40x30 cells"``.

    Files of that kind still load (:func:`load_scores`); new times go under
    :func:`maze_key`.
    """
    return f"{maze.width}x{maze.height} {maze.geometry}"


def maze_key(maze: Maze) -> str:
    """A maze's fingerprint, the key of its best times: size, geometry and a hash.

    The hash (SHA-256, 16 hex digits kept) covers the grid's shape and
    geometry, which cells are maze, every passage, the entrance and the exit:
    the same maze, however it was made or loaded, has the same key, and two
    mazes that differ in one wall do not.

    Parameters
    ----------
    maze : Maze

    Returns
    -------
    str
        E.g. ``"12x8 cells 5d41402abc4b2a76"``.
    """
    h = hashlib.sha256()
    h.update(f"{maze.geometry} {maze.height} {maze.width}".encode())
    h.update(f" {maze.entrance} {maze.exit} ".encode())
    h.update(np.packbits(np.asarray(maze.mask, dtype=bool)).tobytes())
    h.update(np.ascontiguousarray(maze.passages, dtype=np.uint8).tobytes())
    return f"{size_key(maze)} {h.hexdigest()[:16]}"


def best_times_path() -> Path:
    """Where best times are kept: ``$MAZEART_DATA_DIR`` or the platform's user data directory.

    Linux and other Unix: ``$XDG_DATA_HOME/mazeart`` (``~/.local/share/mazeart``);
    macOS: ``~/Library/Application Support/mazeart``; Windows: ``%APPDATA%\\mazeart``.
    """
    override = os.environ.get("MAZEART_DATA_DIR")
    if override:
        base = Path(override)
    elif sys.platform == "win32":
        base = Path(os.environ.get("APPDATA", Path.home() / "AppData" / "Roaming")) / "mazeart"
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support" / "mazeart"
    else:
        xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        base = Path(xdg) / "mazeart"
    return base / "best-times.json"


def _time(value: Any) -> float | None:
    """A stored time, or None for anything that is not one."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    t = float(value)
    return t if math.isfinite(t) and 0 < t < 1e9 else None


def load_scores(path: Path | None = None) -> dict[str, list[float]]:
    """Every maze's best times, fastest first (at most :data:`KEEP`).

    Parameters
    ----------
    path : Path, optional
        The best-times file (default: :func:`best_times_path`).

    Returns
    -------
    dict of str to list of float
        By :func:`maze_key` (or, from an older file, :func:`size_key`). Empty
        when there is no file or it cannot be read: a damaged file never stops
        a game (the next record replaces it). Entries that are not times are
        left out; an older file's single numbers are tables of one.
    """
    p = best_times_path() if path is None else path
    if not p.exists():
        return {}
    try:
        data = load_json(read_bytes(p, "a best-times file", limit=2**20))
    except MazeartError:
        return {}
    if not isinstance(data, dict):
        return {}
    scores: dict[str, list[float]] = {}
    for key, value in data.items():
        values = value if isinstance(value, list) else [value]
        times = sorted(t for t in map(_time, values) if t is not None)[:KEEP]
        if times:
            scores[key] = times
    return scores


def load_best_times(path: Path | None = None) -> dict[str, float]:
    """The best time of every maze in the best-times file (see :func:`load_scores`).

    Parameters
    ----------
    path : Path, optional
        The best-times file (default: :func:`best_times_path`).

    Returns
    -------
    dict of str to float
    """
    return {key: times[0] for key, times in load_scores(path).items()}


def top_times(maze: Maze, path: Path | None = None) -> list[float]:
    """The best times of ``maze``, fastest first (empty when it was never solved).

    Parameters
    ----------
    maze : Maze
    path : Path, optional
        The best-times file (default: :func:`best_times_path`).

    Returns
    -------
    list of float
    """
    return load_scores(path).get(maze_key(maze), [])


@dataclass(frozen=True)
class Score:
    """A finished run and the table of its maze after it.

    Attributes
    ----------
    seconds : float
        The run's time.
    times : tuple of float
        The maze's best times after the run, fastest first.
    rank : int or None
        The run's place in ``times`` (1 is the best), or None when it was
        slower than all of a full table.
    """

    seconds: float
    times: tuple[float, ...]
    rank: int | None

    @property
    def new_best(self) -> bool:
        """Whether the run is the maze's best time."""
        return self.rank == 1

    @property
    def best(self) -> float:
        """The maze's best time (this run's, when it is the best)."""
        return self.times[0]


def record_score(maze: Maze, seconds: float, path: Path | None = None) -> Score:
    """Enter a finished time in the maze's table of :data:`KEEP` best times.

    A time equal to one already in the table goes after it. The file is
    rewritten atomically (and only when the table changes), so a crash never
    loses the old records; tables of other mazes are kept as they were.

    Parameters
    ----------
    maze : Maze
        The maze solved; its table is :func:`maze_key`'s.
    seconds : float
        The time (0 or more; kept to the millisecond).
    path : Path, optional
        The best-times file (default: :func:`best_times_path`).

    Returns
    -------
    Score

    Raises
    ------
    ValueError
        If ``seconds`` is not a time.
    """
    valid = isinstance(seconds, int | float) and not isinstance(seconds, bool)
    if not (valid and math.isfinite(seconds) and 0 <= seconds < 1e9):
        raise MazeartError(f"a time must be a number of seconds, got {seconds!r}")
    t = max(round(float(seconds), 3), 0.001)  # kept to the millisecond, never 0
    p = best_times_path() if path is None else path
    scores = load_scores(p)
    key = maze_key(maze)
    times = scores.get(key, [])
    at = bisect.bisect_right(times, t)
    if at >= KEEP:
        return Score(t, tuple(times), None)
    times = [*times[:at], t, *times[at:]][:KEEP]
    scores[key] = times
    p.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(p) as fh:
        fh.write((dump_json(scores, indent=1, sort_keys=True) + "\n").encode("utf-8"))
    return Score(t, tuple(times), at + 1)


def record_time(maze: Maze, seconds: float, path: Path | None = None) -> tuple[bool, float]:
    """Record a finished time; return whether it is the maze's new best, and the best.

    :func:`record_score` with its answer cut to those two.

    Parameters
    ----------
    maze : Maze
    seconds : float
    path : Path, optional
        The best-times file (default: :func:`best_times_path`).

    Returns
    -------
    (bool, float)
    """
    score = record_score(maze, seconds, path)
    return score.new_best, score.best
