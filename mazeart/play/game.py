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
    "HEADINGS",
    "KEEP",
    "MOVES",
    "REACH",
    "Game",
    "Score",
    "best_times_path",
    "load_best_times",
    "load_scores",
    "maze_key",
    "record_score",
    "record_time",
    "size_key",
    "step_towards",
    "top_times",
]

KEEP = 5
"""Times kept per maze."""

MOVES = {"up": DIRECTIONS[0], "right": DIRECTIONS[1], "down": DIRECTIONS[2], "left": DIRECTIONS[3]}
"""Direction name → ``(bit, d_row, d_col)`` on the square grid."""

HEADINGS = {
    "right": 0.0, "down-right": 45.0, "down": 90.0, "down-left": 135.0,
    "left": 180.0, "up-left": 225.0, "up": 270.0, "up-right": 315.0,
}  # fmt: skip
"""Direction name → its heading in degrees, clockwise from east (``y`` grows down): a step
on any grid goes to the open neighbour whose centre lies nearest that heading."""

REACH = 50.0
"""How far (degrees) a neighbour's heading may lie from a direction and still be its step:
every neighbour on every grid is within reach of an arrow key (a hexagon's six at 30
degrees from one; a triangle's three too), and a neighbour well off to the side (60
degrees) is not taken."""


def step_towards(maze: Maze, cell: int, direction: str) -> int | None:
    """The cell a step ``direction`` leads to from ``cell`` of a maze on any grid: of the
    neighbours a passage joins to ``cell``, the one whose centre's heading is nearest the
    direction's (within :data:`REACH` degrees; the lower id on a tie), or None.

    Examples
    --------
    >>> import mazeart
    >>> m = mazeart.make("6x5", grid="hex", rng=2).maze
    >>> start = m.entrance
    >>> [d for d in HEADINGS if step_towards(m, start, d) is not None] != []
    True
    """
    if direction not in HEADINGS:
        raise MazeartError(f"direction must be one of {', '.join(HEADINGS)}, got {direction!r}")
    joined = maze.neighbours(cell)
    if not joined:
        return None
    centres = maze.grid.centres
    delta = centres[joined] - centres[cell]
    heading = np.degrees(np.arctan2(delta[:, 1], delta[:, 0]))
    off = np.round(np.abs((heading - HEADINGS[direction] + 180.0) % 360.0 - 180.0), 6)
    best = int(np.argmin(off))  # the first of equals (to a millionth of a degree): the lower id
    return int(joined[best]) if off[best] <= REACH else None


class Game:
    """One maze being played, on any grid.

    Parameters
    ----------
    maze : Maze
        Needs an entrance and an exit.
    clock : callable, default time.monotonic
        Seconds; tests pass a fake.

    Attributes
    ----------
    position : (int, int) or int
        The player's cell: ``(row, col)`` on the square grid, a cell id on the others.
    """

    def __init__(self, maze: Maze, *, clock: Callable[[], float] = time.monotonic) -> None:
        if not isinstance(maze, Maze):
            raise TypeError(f"a game needs a Maze, got {type(maze).__name__}")
        if maze.entrance is None or maze.exit is None:
            raise MazeartError("a game needs a maze with an entrance and an exit")
        self.maze = maze
        self.position: Any = maze.entrance
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
        """Step ``'up'``, ``'down'``, ``'left'``, ``'right'`` or a diagonal (``'up-left'``,
        ...); False when a wall is in the way (or, on the square grid, for a diagonal).

        On another grid the step goes to the open neighbour nearest the direction
        (:func:`step_towards`). The clock starts at the first step; reaching the exit
        stops it.
        """
        maze = self.maze
        if not maze.is_square:
            target = step_towards(maze, self.position, direction)
            return target is not None and self.move_to(target)
        if direction not in HEADINGS:
            raise MazeartError(f"direction must be one of {', '.join(HEADINGS)}, got {direction!r}")
        if direction not in MOVES:
            return False
        bit, dr, dc = MOVES[direction]
        r, c = self.position
        if not maze.passages[r, c] & bit:
            return False
        return self.move_to((r + dr, c + dc))

    def move_to(self, cell: Any) -> bool:
        """Step onto ``cell`` (a click on it): True when a passage joins it to the player's."""
        if self.won:
            return False
        maze = self.maze
        if not maze.is_square:
            if not maze.is_cell(cell) or int(cell) not in maze.neighbours(self.position):
                return False
            cell = int(cell)
        else:
            try:
                cell = (int(cell[0]), int(cell[1]))
            except (TypeError, ValueError, IndexError):
                return False
            if cell not in maze.neighbours(self.position):
                return False
        if self._started is None:
            self._started = self._clock()
        self.position = cell
        self.moves += 1
        if self.position == maze.exit:
            self._finished = self._clock()
        return True


def size_key(maze: Maze) -> str:
    """The key best times had before they were kept per maze: ``"40x30 cells"`` (the
    drawing's size and the geometry; on another grid its kind, ``"12x10 hex"``).

    Files of that kind still load (:func:`load_scores`); new times go under
    :func:`maze_key`.
    """
    kind = maze.grid.kind if (not maze.is_square) else maze.geometry
    return f"{maze.width}x{maze.height} {kind}"


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
    try:
        t = float(value)
    except OverflowError:  # an integer past any float
        return None
    return t if math.isfinite(t) and 0 < t < 1e9 else None


BEST_TIMES_LIMIT = 64 * 2**20
"""The largest best-times file read (64 MiB: some 800,000 mazes' tables)."""


def _table(p: Path) -> dict[str, Any] | None:
    """The best-times file as it is (None when there is none); a one-line error when it
    cannot be read or is not a table."""
    if not p.exists():
        return None
    data = load_json(read_bytes(p, "a best-times file", limit=BEST_TIMES_LIMIT))
    if not isinstance(data, dict):
        raise MazeartError(f"{p} is not a best-times file (it holds no table of mazes)")
    return data


def _times(data: dict[str, Any]) -> dict[str, list[float]]:
    scores: dict[str, list[float]] = {}
    for key, value in data.items():
        values = value if isinstance(value, list) else [value]
        times = sorted(t for t in map(_time, values) if t is not None)[:KEEP]
        if times:
            scores[key] = times
    return scores


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
        a game (nor is it replaced: :func:`record_score` refuses to write over
        it). Entries that are not times are left out here; an older file's
        single numbers are tables of one.
    """
    p = best_times_path() if path is None else path
    try:
        data = _table(p)
    except (MazeartError, OSError):
        return {}
    return {} if data is None else _times(data)


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
        If ``seconds`` is not a time, or the file cannot be read or written
        (``time not recorded: ...``; an unreadable file is never replaced).
    """
    valid = isinstance(seconds, int | float) and not isinstance(seconds, bool)
    if not (valid and math.isfinite(seconds) and 0 <= seconds < 1e9):
        raise MazeartError(f"a time must be a number of seconds, got {seconds!r}")
    t = max(round(float(seconds), 3), 0.001)  # kept to the millisecond, never 0
    p = best_times_path() if path is None else path
    try:
        data = _table(p) or {}
    except (MazeartError, OSError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise MazeartError(f"time not recorded: {reason}; the file is left as it is") from None
    key = maze_key(maze)
    times = _times({key: data[key]}).get(key, []) if key in data else []
    at = bisect.bisect_right(times, t)
    if at >= KEEP:
        return Score(t, tuple(times), None)
    times = [*times[:at], t, *times[at:]][:KEEP]
    data[key] = times  # every other entry written back as it was read
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        with atomic_write(p) as fh:
            fh.write((dump_json(data, indent=1, sort_keys=True) + "\n").encode("utf-8"))
    except OSError as exc:
        raise MazeartError(f"time not recorded: cannot write {p} ({exc.strerror})") from None
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
