"""The game of a maze: a player on the entrance, moves through passages, a clock, a win.

Seed 000 is a game (arrow keys, a timer, three mazes in a row), seed 003 wished
for high scores: best times are kept per maze size in the user's data
directory (:func:`best_times_path`).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from mazeart._io import atomic_write, dump_json, load_json, read_bytes
from mazeart.errors import MazeartError
from mazeart.maze import DIRECTIONS, Maze

__all__ = ["MOVES", "Game", "best_times_path", "load_best_times", "record_time", "size_key"]

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
    """The best-times key of a maze: its grid size and geometry, e.g. ``"40x30 cells"``."""
    return f"{maze.width}x{maze.height} {maze.geometry}"


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


def load_best_times(path: Path | None = None) -> dict[str, float]:
    """Best times by :func:`size_key`; empty when there are none or the file is unreadable."""
    p = best_times_path() if path is None else path
    if not p.exists():
        return {}
    try:
        data = load_json(read_bytes(p, "a best-times file", limit=2**20))
    except MazeartError:  # damaged: start afresh (the next record replaces it)
        return {}
    if not isinstance(data, dict):
        return {}
    return {
        k: float(v)
        for k, v in data.items()
        if isinstance(v, int | float) and not isinstance(v, bool) and 0 < v < 1e9
    }


def record_time(maze: Maze, seconds: float, path: Path | None = None) -> tuple[bool, float]:
    """Record a finished time; return whether it is a new best, and the best.

    The file is rewritten atomically, so a crash never loses the old records.
    """
    p = best_times_path() if path is None else path
    times = load_best_times(p)
    key = size_key(maze)
    old = times.get(key)
    if old is not None and old <= seconds:
        return False, old
    times[key] = round(float(seconds), 3)
    p.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(p) as fh:
        fh.write((dump_json(times, indent=1, sort_keys=True) + "\n").encode("utf-8"))
    return True, times[key]
