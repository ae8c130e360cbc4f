"""The terminal game (curses): arrow keys or WASD, a timer, best times, level after level.

The maze is drawn on its block picture (the raster of a ``cells`` maze, the
blocks of a ``blocks`` maze), two terminal columns per block so it looks square;
walls are reverse-video blanks, so no special characters are needed. A maze on
another grid (hexagons, triangles, rings, the upsilon tiling, a weave) is its
drawing's walls painted at a few blocks a cell (:func:`grid_picture`), the
player on its cell's centre; a key steps to the open neighbour nearest its
direction (:func:`mazeart.play.game.step_towards`), and 7, 9, 1 and 3 (or Home,
PgUp, End, PgDn) are the diagonals a hexagon's six sides need. The exit
is green (black ``EE`` on green where the terminal has colours, bold ``EE``
where it has none).

The screen is drawn in full once per maze, when the terminal is resized and
when the view scrolls; a step redraws only the two blocks the player left and
entered, and the clock only the status line, so a key costs the same on a
250-column terminal as on 80 x 24. A maze larger than the terminal scrolls
when the player comes within a quarter of the view of its edge, re-centring
the view on the player; 80 x 24 is enough.

After a win the maze's table of best times (:data:`mazeart.play.game.KEEP`,
kept per maze by :func:`mazeart.play.game.record_score`) is shown over the
maze, this run's line marked.
"""

from __future__ import annotations

import curses
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from mazeart.errors import MazeartError, check_int
from mazeart.maze import Maze
from mazeart.play.game import Game, Score, record_score

__all__ = ["Board", "PlayResult", "grid_picture", "play"]

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
    ord("8"): "up",
    ord("2"): "down",
    ord("4"): "left",
    ord("6"): "right",
    ord("7"): "up-left",
    ord("9"): "up-right",
    ord("1"): "down-left",
    ord("3"): "down-right",
    curses.KEY_HOME: "up-left",
    curses.KEY_PPAGE: "up-right",
    curses.KEY_END: "down-left",
    curses.KEY_NPAGE: "down-right",
}
_QUIT = (ord("q"), ord("Q"))
EXIT_PAIR = 1
"""The curses colour pair of the exit: black on green."""


@dataclass
class PlayResult:
    """What happened: seconds per solved maze, whether the player quit early, and why any
    time was not recorded."""

    times: list[float] = field(default_factory=list)
    records: list[bool] = field(default_factory=list)
    quit: bool = False
    problems: list[str] = field(default_factory=list)
    """Why times were not recorded (each reason once)."""


def _colours() -> int:
    """Set up the colour pairs; the exit's attribute (bold, and green when the terminal can)."""
    try:
        if curses.has_colors():
            curses.start_color()
            try:
                curses.use_default_colors()  # the terminal's own colours everywhere else
            except curses.error:
                pass
            curses.init_pair(EXIT_PAIR, curses.COLOR_BLACK, curses.COLOR_GREEN)
            return curses.color_pair(EXIT_PAIR) | curses.A_BOLD
    except curses.error:  # a terminal that claims colours it cannot set
        pass
    return curses.A_BOLD


BLOCKS_PER_CELL = {"triangle": 5, "weave": 3}
"""Blocks a maze unit is painted at on grids other than the square (4 where not named): a
triangle needs five for a floor block inside it."""


def grid_picture(maze: Maze) -> tuple[NDArray[np.int8], Callable[[int], tuple[int, int]]]:
    """A maze on another grid as a block picture (0 ground, 1 wall, 2 floor, as
    :meth:`mazeart.maze.Maze.picture`), and where each cell is.

    The drawing's walls (:func:`mazeart.export.scene.build_scene`) are painted at
    :data:`BLOCKS_PER_CELL` blocks a maze unit, a block a side of margin; a cell is the
    block under its centre.

    Parameters
    ----------
    maze : Maze

    Returns
    -------
    picture : (h, w) ndarray of int8
    position : callable
        Cell id → ``(row, col)`` in the picture.
    """
    from mazeart.export._style import style_from
    from mazeart.export.png import render
    from mazeart.export.scene import Scene, build_scene

    cs = BLOCKS_PER_CELL.get(maze.grid.kind, 4)
    scene = build_scene(maze, style_from({}))

    def painted(layer: str) -> NDArray[np.bool_]:
        """The blocks the layer covers: its shapes painted black on white."""
        found = scene.layer(layer)
        shapes = () if found is None else (
            replace(found, fills=tuple(replace(f, colour="black") for f in found.fills),
                    strokes=tuple(replace(k, colour="black") for k in found.strokes)),
        )  # fmt: skip
        alone = Scene(scene.width, scene.height, shapes, background="white")
        return np.asarray(render(alone, cell_size=cs, margin=1).convert("L")) < 128

    wall = painted("walls")
    picture = np.where(wall, 1, np.where(painted("floor"), 2, 0)).astype(np.int8)
    centres = np.floor(1 + maze.grid.centres * cs).astype(np.int64)
    rows, cols = picture.shape
    centres[:, 0] = np.clip(centres[:, 0], 0, cols - 1)
    centres[:, 1] = np.clip(centres[:, 1], 0, rows - 1)
    picture[centres[maze.mask, 1], centres[maze.mask, 0]] = 2  # a cell's block is floor

    def position(cell: int) -> tuple[int, int]:
        return int(centres[cell, 1]), int(centres[cell, 0])

    return picture, position


def _picture(maze: Maze) -> tuple[NDArray[np.int8], Callable[[Any], tuple[int, int]]]:
    if not maze.is_square:
        return grid_picture(maze)
    return maze.picture(), maze.picture_position


def _centred(player: int, size: int, view: int) -> int:
    """First row/column shown with the player in the middle (clamped to the picture)."""
    if size <= view:
        return 0
    return int(min(max(player - view // 2, 0), size - view))


def _keeps(player: int, start: int, size: int, view: int) -> bool:
    """Whether the view from ``start`` stays: the player is not near an edge that can scroll."""
    if size <= view:
        return True
    edge = view // 4
    low = start == 0 or player >= start + edge
    high = start + view >= size or player < start + view - edge
    return low and high


class Board:
    """The screen of one game: drawn in full, then redrawn only where it changed.

    Parameters
    ----------
    scr : curses window
        Needs ``getmaxyx``, ``erase``, ``addstr``, ``clrtoeol``, ``move`` and
        ``refresh``.
    game : Game
    exit_attr : int, default curses.A_BOLD
        How the exit is drawn (:func:`_colours` gives its green).
    """

    def __init__(self, scr: Any, game: Game, *, exit_attr: int = curses.A_BOLD) -> None:
        self.scr = scr
        self.game = game
        maze = game.maze
        self.pic, at = _picture(maze)
        self.at = at
        self.exit_attr = exit_attr
        self.marks: dict[tuple[int, int], tuple[str, int]] = {
            at(cell): (kind[:1].lower() * 2, curses.A_BOLD) for cell, kind in maze.tags.items()
        }
        if maze.entrance is not None:
            self.marks[at(maze.entrance)] = ("SS", curses.A_BOLD)
        if maze.exit is not None:
            self.marks[at(maze.exit)] = ("EE", exit_attr)
        self.size: tuple[int, int] | None = None
        self.top = self.left = 0
        self.player: tuple[int, int] | None = None
        self.lines: dict[int, str] = {}

    def _view(self) -> tuple[int, int, int, int]:
        height, width = self.scr.getmaxyx()
        return height, width, max(height - 2, 1), max(width // 2, 1)

    def _block(self, pos: tuple[int, int], *, blank: bool = True) -> None:
        """Draw the block at picture position ``pos`` if it is in view.

        With ``blank`` False a plain floor block is left as it is (an erased screen).
        """
        _, _, view_h, view_w = self._view()
        y, x = pos[0] - self.top, pos[1] - self.left
        if not (0 <= y < view_h and 0 <= x < view_w):
            return
        v = self.pic[pos]
        if pos == self.player:
            text, attr = "@@", curses.A_BOLD
        elif v == 1:
            text, attr = "  ", curses.A_REVERSE
        elif pos in self.marks:
            text, attr = self.marks[pos]
        elif blank:
            text, attr = "  ", curses.A_NORMAL
        else:
            return
        try:
            self.scr.addstr(1 + y, 2 * x, text, attr)
        except curses.error:  # the bottom-right cell cannot be written; skip it
            pass

    def _line(self, line: int, text: str, attr: int) -> None:
        """Write a status line when its text changed (the rest of the row cleared)."""
        height, width = self.scr.getmaxyx()
        row = line % height
        if self.lines.get(row) == text:
            return
        self.lines[row] = text
        try:
            self.scr.move(row, 0)
            self.scr.clrtoeol()
            self.scr.addstr(row, 0, text[: max(width - 1, 0)], attr)
        except curses.error:
            pass

    def draw(self, status: str, note: str) -> None:
        """Show the game: in full when needed, else only the player's move and the lines."""
        player = self.at(self.game.position)
        height, width, view_h, view_w = self._view()
        rows, cols = self.pic.shape
        full = self.size != (height, width) or not (
            _keeps(player[0], self.top, rows, view_h) and _keeps(player[1], self.left, cols, view_w)
        )
        if full:
            self.size = (height, width)
            self.top = _centred(player[0], rows, view_h)
            self.left = _centred(player[1], cols, view_w)
            self.player = player
            self.lines = {}
            self._full()
        elif player != self.player:
            old, self.player = self.player, player
            if old is not None:
                self._block(old)
            self._block(player)
        self._line(0, status, curses.A_BOLD)
        self._line(-1, note, curses.A_NORMAL)
        self.scr.refresh()

    def _full(self) -> None:
        self.scr.erase()
        _, _, view_h, view_w = self._view()
        block = self.pic[self.top : self.top + view_h, self.left : self.left + view_w]
        for y, x in zip(*np.nonzero(block), strict=True):
            self._block((self.top + int(y), self.left + int(x)), blank=False)

    def table(self, heading: str, score: Score | None) -> None:
        """A box over the maze: ``heading`` and the maze's best times, this run's marked."""
        rows = [heading, "", "Best times, this maze:"]
        times = score.times if score is not None else ()
        for i, t in enumerate(times, start=1):
            mark = "  <- this run" if score is not None and i == score.rank else ""
            rows.append(f"{i:2d}. {t:8.1f} s{mark}")
        if not times:
            rows.append("  (none yet)")
        height, width = self.scr.getmaxyx()
        inner = min(max(len(r) for r in rows) + 2, max(width - 4, 1))
        top = max((height - len(rows) - 2) // 2, 1)
        left = max((width - inner - 2) // 2, 0)
        edge = "+" + "-" * inner + "+"
        lines = [edge, *("|" + f" {r}".ljust(inner)[:inner] + "|" for r in rows), edge]
        for i, text in enumerate(lines):
            attr = curses.A_BOLD if "<-" in text or i == 1 else curses.A_NORMAL
            try:
                self.scr.addstr(top + i, left, text, attr)
            except curses.error:
                pass
        self.size = None  # the box covers the maze: the next draw is a full one
        self.scr.refresh()


def _run(
    scr: Any,
    levels: Iterator[Maze],
    count: int | None,
    result: PlayResult,
    best_path: Any,
) -> None:
    try:
        curses.curs_set(0)
    except curses.error:  # a terminal that cannot hide its cursor
        pass
    exit_attr = _colours()
    scr.keypad(True)
    scr.timeout(100)
    for number, maze in enumerate(levels, start=1):
        game = Game(maze)
        board = Board(scr, game, exit_attr=exit_attr)
        total = f"/{count}" if count else ""
        help_line = "arrows or WASD move to the green EE, q quits"
        if not maze.is_square:
            help_line = "arrows or WASD, 7 9 1 3 diagonally, to the green EE; q quits"
        while not game.won:
            status = (
                f"mazeart  level {number}{total}  {game.elapsed:6.1f} s  "
                f"({maze.width}x{maze.height})"
            )
            board.draw(status, help_line)
            key = scr.getch()
            if key == curses.KEY_RESIZE:
                board.size = None
            if key in _QUIT:
                result.quit = True
                return
            if key in _KEYS:
                game.move(_KEYS[key])
        try:
            score: Score | None = record_score(maze, game.elapsed, best_path)
        except MazeartError as exc:  # the game goes on; the command says why, after
            score = None
            if str(exc) not in result.problems:
                result.problems.append(str(exc))
        result.times.append(game.elapsed)
        result.records.append(score is not None and score.new_best)
        last = count is not None and number >= count
        message = f"Solved in {game.elapsed:.1f} s" + (
            " (not recorded)" if score is None
            else " - a new best!" if score.new_best else f" (best {score.best:.1f} s)"
        )  # fmt: skip
        after = "press a key to finish" if last else "press a key for the next maze, q quits"
        scr.timeout(-1)
        board.draw(message, after)
        board.table(message, score)
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
    best_path: Path | None = None,
) -> PlayResult:
    """Play mazes in the terminal until ``count`` are solved (None: until q).

    Parameters
    ----------
    levels : callable
        ``i -> Maze`` (or a maze on another grid) for level ``i``
        (from 0); called when the level starts, so
        each maze is freshly made.
    count : int or None, default 3
        Levels to play (three by default, as the weighted-DFS game played).
    best_path : Path, optional
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
