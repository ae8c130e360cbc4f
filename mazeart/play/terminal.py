"""The terminal game (curses): arrow keys or WASD, a timer, best times, level after level.

The maze is drawn on its block picture (the raster of a ``cells`` maze, the
blocks of a ``blocks`` maze), two terminal columns per block so it looks square;
walls are reverse-video blanks, so no special characters are needed. A maze
larger than the terminal scrolls to keep the player in view; 80 x 24 is enough.
"""

from __future__ import annotations

import curses
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from mazeart.errors import check_int
from mazeart.maze import Maze
from mazeart.play.game import Game, record_time

__all__ = ["PlayResult", "play"]

_KEYS = {
    curses.KEY_UP: "up",
    curses.KEY_DOWN: "down",
    curses.KEY_LEFT: "left",
    curses.KEY_RIGHT: "right",
    ord("w"): "up",
    ord("s"): "down",
    ord("a"): "left",
    ord("d"): "right",
    ord("W"): "up",
    ord("S"): "down",
    ord("A"): "left",
    ord("D"): "right",
}
_QUIT = (ord("q"), ord("Q"))


@dataclass
class PlayResult:
    """What happened: seconds per solved maze, and whether the player quit early."""

    times: list[float] = field(default_factory=list)
    records: list[bool] = field(default_factory=list)
    quit: bool = False


def _view_start(player: int, size: int, view: int) -> int:
    """First row/column shown so the player stays in view (centred, clamped to the picture)."""
    if size <= view:
        return 0
    return int(min(max(player - view // 2, 0), size - view))


def _draw(scr, game: Game, pic: np.ndarray, status: str, note: str) -> None:
    scr.erase()
    height, width = scr.getmaxyx()
    view_h, view_w = max(height - 2, 1), max(width // 2, 1)
    maze = game.maze
    at = maze.picture_position
    pr, pc = at(game.position)
    top = _view_start(pr, pic.shape[0], view_h)
    left = _view_start(pc, pic.shape[1], view_w)
    marks = {}
    for (r, c), kind in maze.tags.items():
        marks[at((r, c))] = kind[:1].lower()
    for cell, mark in ((maze.entrance, "S"), (maze.exit, "E")):
        if cell is not None:
            marks[at(cell)] = mark
    for y in range(min(view_h, pic.shape[0] - top)):
        row = pic[top + y]
        for x in range(min(view_w, pic.shape[1] - left)):
            v = row[left + x]
            if v == 0:
                continue
            pos = (top + y, left + x)
            try:
                if pos == (pr, pc):
                    scr.addstr(1 + y, 2 * x, "@@", curses.A_BOLD)
                elif v == 1:
                    scr.addstr(1 + y, 2 * x, "  ", curses.A_REVERSE)
                elif pos in marks:
                    scr.addstr(1 + y, 2 * x, marks[pos] * 2, curses.A_BOLD)
            except curses.error:  # the bottom-right cell cannot be written; skip it
                pass
    for line, text, attr in ((0, status, curses.A_BOLD), (height - 1, note, curses.A_NORMAL)):
        try:
            scr.addstr(line, 0, text[: max(width - 1, 0)], attr)
        except curses.error:
            pass
    scr.refresh()


def _run(scr, levels: Iterator[Maze], count: int | None, result: PlayResult, best_path) -> None:
    try:
        curses.curs_set(0)
    except curses.error:  # a terminal that cannot hide its cursor
        pass
    scr.keypad(True)
    scr.timeout(100)
    for number, maze in enumerate(levels, start=1):
        game = Game(maze)
        pic = maze.picture()
        total = f"/{count}" if count else ""
        help_line = "arrows or WASD move, q quits"
        while not game.won:
            status = (
                f"mazeart  level {number}{total}  {game.elapsed:6.1f} s  "
                f"({maze.width}x{maze.height})"
            )
            _draw(scr, game, pic, status, help_line)
            key = scr.getch()
            if key in _QUIT:
                result.quit = True
                return
            if key in _KEYS:
                game.move(_KEYS[key])
        new, best = record_time(maze, game.elapsed, best_path)
        result.times.append(game.elapsed)
        result.records.append(new)
        last = count is not None and number >= count
        message = f"Solved in {game.elapsed:.1f} s" + (
            " - a new best!" if new else f" (best {best:.1f} s)"
        )
        after = "press a key to finish" if last else "press a key for the next maze, q quits"
        scr.timeout(-1)
        _draw(scr, game, pic, message, after)
        key = scr.getch()
        scr.timeout(100)
        if last:
            return
        if key in _QUIT:
            result.quit = True
            return


def play(
    levels: Callable[[int], Maze],
    *,
    count: int | None = 3,
    best_path=None,
) -> PlayResult:
    """Play mazes in the terminal until ``count`` are solved (None: until q).

    Parameters
    ----------
    levels : callable
        ``i -> Maze`` for level ``i`` (from 0); called when the level starts, so
        each maze is freshly made.
    count : int or None, default 3
        Levels to play (seed 000 plays three).
    best_path : path, optional
        Best-times file (default: :func:`mazeart.play.game.best_times_path`).

    Returns
    -------
    PlayResult
    """
    if count is not None:
        count = check_int(count, "the number of levels")

    def stream() -> Iterator[Maze]:
        i = 0
        while count is None or i < count:
            yield levels(i)
            i += 1

    result = PlayResult()
    curses.wrapper(_run, stream(), count, result, best_path)
    return result
