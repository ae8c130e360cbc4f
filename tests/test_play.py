"""The games: rules, best times and the terminal game, through a pseudo-terminal and on a
recording screen (the browser game is played in tests/test_game_browser.py)."""

from __future__ import annotations

import itertools
import json
import os
import re
import sys

import numpy as np
import pytest
from conftest import run_cli

from mazeart import Maze, MazeartError, generate, solve
from mazeart.mazefile import load_maze, save_maze
from mazeart.play.game import (
    REACH,
    Game,
    load_best_times,
    load_scores,
    maze_key,
    record_score,
    record_time,
    size_key,
    top_times,
)

STEP = {(-1, 0): "up", (1, 0): "down", (0, -1): "left", (0, 1): "right"}

CORRIDOR = """
#########
#S    # #
##### # #
#E      #
#########
"""


def directions(path: np.ndarray) -> list[str]:
    return [STEP[(int(b[0] - a[0]), int(b[1] - a[1]))] for a, b in itertools.pairwise(path)]


def test_game_rules():
    t = [100.0]
    maze = Maze.from_text(CORRIDOR)
    game = Game(maze, clock=lambda: t[0])
    assert game.position == (0, 0) and game.elapsed == 0.0
    assert not game.move("up") and not game.move("left")  # walls
    assert not game.move("down")
    assert game.moves == 0 and game.elapsed == 0.0  # the clock waits for a first step
    moves = directions(solve(maze))
    for i, d in enumerate(moves):
        t[0] += 0.5
        assert game.move(d)
        assert game.won == (i == len(moves) - 1)
    t[0] += 10
    assert game.won and game.elapsed == pytest.approx(0.5 * (len(moves) - 1))
    assert not game.move("left")  # nothing moves after the win
    with pytest.raises(ValueError, match="direction"):
        game.move("north")


def test_best_times_file_keeps_five_per_maze(tmp_path):
    path = tmp_path / "deep" / "best.json"
    maze = generate(np.zeros((4, 6), np.int32), rng=1)
    other = generate(np.zeros((4, 6), np.int32), rng=2)  # the same size, another maze
    assert maze_key(maze) != maze_key(other) and maze_key(maze).startswith("6x4 cells ")
    assert load_best_times(path) == {} and top_times(maze, path) == []
    assert record_time(maze, 12.5, path) == (True, 12.5)
    assert record_time(maze, 14.0, path) == (False, 12.5)
    assert record_time(maze, 9.25, path) == (True, 9.25)
    assert top_times(other, path) == []  # levels of one size do not share a table
    score = record_score(other, 30.0, path)
    assert score.new_best and score.times == (30.0,) and score.rank == 1
    for t in (11.0, 20.0, 13.0):
        record_score(maze, t, path)
    assert json.loads(path.read_text()) == {
        maze_key(maze): [9.25, 11.0, 12.5, 13.0, 14.0],
        maze_key(other): [30.0],
    }
    score = record_score(maze, 12.5, path)  # a tie goes after the time it ties with
    assert (score.rank, score.best, score.new_best) == (4, 9.25, False)
    assert score.times == (9.25, 11.0, 12.5, 12.5, 13.0)  # the slowest fell off
    slow = record_score(maze, 99.0, path)
    assert slow.rank is None and slow.times == score.times  # not in the table
    assert top_times(maze, path) == list(score.times)
    assert load_best_times(path) == {maze_key(maze): 9.25, maze_key(other): 30.0}
    with pytest.raises(ValueError, match="a time must be"):
        record_score(maze, float("nan"), path)
    path.write_text("not json")
    assert load_best_times(path) == {}  # a broken file never stops the game


def test_the_same_maze_loaded_again_shares_its_table(tmp_path):
    maze = generate(np.zeros((5, 7), np.int32), rng=3, algorithm="wilson")
    saved = tmp_path / "m.json"
    save_maze(maze, saved)
    again = load_maze(saved)
    assert maze_key(again) == maze_key(maze)
    moved = maze.replace(exit=maze.entrance, entrance=maze.exit)  # other ends: another game
    assert maze_key(moved) != maze_key(maze)


def test_an_old_best_times_file_still_loads(tmp_path):
    """Files of one best time per maze size load as tables of one, and are kept."""
    path = tmp_path / "best-times.json"
    path.write_text('{"6x4 cells": 12.5, "9x9 blocks": 3, "bad": true, "worse": [0, -1, "x"]}')
    assert load_scores(path) == {"6x4 cells": [12.5], "9x9 blocks": [3.0]}
    assert load_best_times(path) == {"6x4 cells": 12.5, "9x9 blocks": 3.0}
    maze = generate(np.zeros((4, 6), np.int32), rng=1)
    assert size_key(maze) == "6x4 cells"
    assert record_score(maze, 20.0, path).new_best  # a maze's table is its own
    assert load_scores(path) == {"6x4 cells": [12.5], "9x9 blocks": [3.0], maze_key(maze): [20.0]}


# ----------------------------------------------------------------------------- terminal


def sgr_runs(raw: str) -> list[tuple[str, int | None, int | None]]:
    """The printed text of terminal output with the foreground and background colour of each run.

    A small reader of what curses writes for xterm: SGR sequences set colours (30-37,
    40-47; 0, 39, 49 and the ``sgr0`` ``ESC ( B ESC [ m`` reset them); every other escape
    sequence is skipped.
    """
    runs: list[tuple[str, int | None, int | None]] = []
    fg = bg = None
    for m in re.finditer(r"\x1b\[([0-9;?]*)([A-Za-z@])|\x1b[()][A-Z0-9]|\x1b.|([^\x1b]+)", raw):
        if m.group(3) is not None:
            runs.append((m.group(3), fg, bg))
        elif m.group(2) == "m":
            for code in (int(x) if x else 0 for x in m.group(1).split(";")):
                if code == 0:
                    fg = bg = None
                elif 30 <= code <= 37:
                    fg = code - 30
                elif 40 <= code <= 47:
                    bg = code - 40
                elif code == 39:
                    fg = None
                elif code == 49:
                    bg = None
    return runs


GAP = r"(?: |\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9])+"
"""Blanks on a terminal: spaces, cursor moves over cells that are blank already, attributes."""


def spawn_play(pexpect, saved, tmp_path, *, levels: int, size: tuple[int, int] = (24, 80)):
    env = dict(os.environ, TERM="xterm", MAZEART_DATA_DIR=str(tmp_path / "data"))
    for name in ("LINES", "COLUMNS"):  # (set by pytest-xdist's workers): curses would take
        env.pop(name, None)  # them over the terminal's own size
    child = pexpect.spawn(
        sys.executable, ["-m", "mazeart", "play", str(saved), "--levels", str(levels),
                         "--seed", "4"],
        env=env, dimensions=size, encoding="utf-8", timeout=30,
    )  # fmt: skip
    child.delaybeforesend = None
    return child


def test_terminal_game_through_a_pty(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    import curses

    maze = generate(np.zeros((6, 9), np.int32), rng=11, algorithm="wilson")
    saved = tmp_path / "maze.json"
    save_maze(maze, saved)
    curses.setupterm("xterm", 1)
    keys = {
        "up": curses.tigetstr("kcuu1").decode(),
        "down": curses.tigetstr("kcud1").decode(),
        "left": "a",
        "right": "d",
    }
    child = spawn_play(pexpect, saved, tmp_path, levels=2)
    child.expect("level 1/2")
    child.expect("q quits")  # the bottom line: the whole first screen is out
    first = child.before
    # the exit is drawn green: black "EE" on a green background
    assert any("EE" in text and bg == curses.COLOR_GREEN for text, _, bg in sgr_runs(first))
    r, c = maze.entrance
    closed = next(d for d, bit in (("up", 1), ("down", 4), ("left", 8), ("right", 2))
                  if not maze.passages[r, c] & bit)  # fmt: skip
    child.send(keys[closed])  # into a wall: nothing moves, the path below still works
    for d in directions(solve(maze)):
        child.send(keys[d])
    child.expect("Solved in")
    # the maze's table of best times: one so far, this run's
    child.expect(f"Best{GAP}times,{GAP}this{GAP}maze:")
    child.expect(rf" 1\.{GAP}\d+\.\d s{GAP}<- this run")
    child.send(" ")
    child.expect("level 2/2")  # a fresh maze of the same shape
    child.send("q")
    child.expect("solved 1 maze")
    child.expect(pexpect.EOF)
    best = json.loads((tmp_path / "data" / "best-times.json").read_text())
    assert list(best) == [maze_key(maze)] and len(best[maze_key(maze)]) == 1
    assert best[maze_key(maze)][0] > 0


def test_terminal_game_shows_the_top_five_after_a_win(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    maze = generate(np.zeros((3, 4), np.int32), rng=2, algorithm="wilson")
    saved = tmp_path / "maze.json"
    save_maze(maze, saved)
    data = tmp_path / "data" / "best-times.json"
    data.parent.mkdir()
    # two times no run beats (a tie goes after) and three slower than any; the slowest falls off
    data.write_text(json.dumps({maze_key(maze): [0.001, 0.001, 5e5, 6e5, 7e5]}))
    child = spawn_play(pexpect, saved, tmp_path, levels=1)
    child.expect("q quits")
    for d in directions(solve(maze)):
        child.send({"up": "w", "down": "s", "left": "a", "right": "d"}[d])
    child.expect(rf"Solved in \d+\.\d s{GAP}\(best 0\.0 s\)")
    child.expect(f"Best{GAP}times,{GAP}this{GAP}maze:")
    child.expect(rf" 1\.{GAP}0\.0 s")
    child.expect(rf" 2\.{GAP}0\.0 s")
    child.expect(rf" 3\.{GAP}\d+\.\d s{GAP}<- this run")
    child.expect(rf" 4\.{GAP}500000\.0 s")
    child.expect(rf" 5\.{GAP}600000\.0 s")
    child.send(" ")
    child.expect(pexpect.EOF)
    times = json.loads(data.read_text())[maze_key(maze)]
    assert len(times) == 5 and times[:2] == [0.001, 0.001] and times[3:] == [5e5, 6e5]


def test_a_step_writes_a_few_bytes_not_the_screen(tmp_path):
    """On a 60 x 250 terminal and a maze larger than it, a step is the player's two blocks."""
    pexpect = pytest.importorskip("pexpect")
    maze = generate(np.zeros((40, 150), np.int32), rng=5, algorithm="wilson")
    saved = tmp_path / "maze.json"
    save_maze(maze, saved)
    child = spawn_play(pexpect, saved, tmp_path, levels=1, size=(60, 250))
    child.expect("q quits")  # the bottom line ends the first screen
    first = len(child.before) + len(child.after)
    assert first > 20_000  # the screen is full of maze
    # one step and q: what is written between the first screen and the end of the program
    child.send({"up": "w", "down": "s", "left": "a", "right": "d"}[directions(solve(maze))[0]])
    child.send("q")
    child.expect(pexpect.EOF)
    assert "@@" in child.before  # the player was drawn where it stepped
    assert len(child.before) < first / 50, (len(child.before), first)


class Screen:
    """A curses window that records what is written to it."""

    def __init__(self, height: int, width: int) -> None:
        self.size = (height, width)
        self.cells: dict[tuple[int, int], tuple[str, int]] = {}
        self.writes: list[tuple[int, int, str, int]] = []
        self.erased = 0

    def getmaxyx(self) -> tuple[int, int]:
        return self.size

    def erase(self) -> None:
        self.erased += 1
        self.cells.clear()

    def addstr(self, y: int, x: int, text: str, attr: int = 0) -> None:
        self.writes.append((y, x, text, attr))
        for i, ch in enumerate(text):
            self.cells[(y, x + i)] = (ch, attr)

    def move(self, y: int, x: int) -> None:
        pass

    def clrtoeol(self) -> None:
        pass

    def refresh(self) -> None:
        pass

    def text(self, y: int) -> str:
        return "".join(self.cells.get((y, x), (" ", 0))[0] for x in range(self.size[1])).rstrip()


def test_a_step_redraws_two_blocks_and_only_a_scroll_redraws_all():
    import curses

    from mazeart.play.terminal import Board

    maze = generate(np.zeros((40, 150), np.int32), rng=5, algorithm="wilson")
    game = Game(maze, clock=lambda: 0.0)
    scr = Screen(60, 250)
    green = curses.A_BOLD | 1 << 8  # stands for a colour pair's attribute
    board = Board(scr, game, exit_attr=green)
    board.draw("status", "help")
    full = len(scr.writes)
    assert full > 3000 and scr.erased == 1
    path = solve(maze)
    moves = directions(path)
    scrolls = 0
    for i, d in enumerate(moves, start=1):
        scr.writes.clear()
        assert game.move(d)
        board.draw("status", "help")
        if scr.erased > 1 + scrolls:  # the view scrolled: one full redraw
            scrolls += 1
            continue
        # the block left and the block entered, nothing else (the lines did not change)
        at = maze.picture_position
        assert sorted((y, x) for y, x, _, _ in scr.writes) == sorted(
            (p[0] - board.top + 1, 2 * (p[1] - board.left)) for p in (at(tuple(path[i - 1])),
                                                                       at(tuple(path[i])))
        )  # fmt: skip
        player = at(tuple(path[i]))
        assert scr.cells[(player[0] - board.top + 1, 2 * (player[1] - board.left))][0] == "@"
    assert 0 < scrolls < len(moves) / 8  # the view scrolls now and then, not at every step
    # the status line alone when only the time changes
    scr.writes.clear()
    board.draw("status 2", "help")
    assert [w[0] for w in scr.writes] == [0] and scr.text(0) == "status 2"
    # a resized terminal: everything again
    scr.size = (30, 100)
    board.draw("status 2", "help")
    assert scr.erased == 2 + scrolls and scr.text(29) == "help"


def test_the_exit_is_green_and_the_table_lists_the_best_times():
    import curses

    from mazeart.play.game import Score
    from mazeart.play.terminal import Board

    maze = generate(np.zeros((5, 6), np.int32), rng=1, algorithm="wilson")
    scr = Screen(24, 80)
    green = curses.A_BOLD | 1 << 8
    board = Board(scr, Game(maze), exit_attr=green)
    board.draw("status", "help")
    r, c = maze.picture_position(maze.exit)
    assert scr.cells[(r + 1, 2 * c)] == ("E", green)
    board.table("Solved in 3.0 s", Score(3.0, (1.0, 2.0, 3.0, 4.0, 5.0), 3))
    shown = [scr.text(y) for y in range(24)]
    rows = [line for line in shown if re.search(r"\| +\d\. ", line)]
    assert [re.search(r"(\d)\. +(\S+) s", line).groups() for line in rows] == [
        ("1", "1.0"), ("2", "2.0"), ("3", "3.0"), ("4", "4.0"), ("5", "5.0")
    ]  # fmt: skip
    assert "<- this run" in rows[2] and all("<-" not in x for x in rows[:2] + rows[3:])
    assert any("Best times, this maze:" in line for line in shown)


def test_play_needs_a_terminal():
    res = run_cli("play")
    assert res.returncode == 2 and "needs a terminal" in res.stderr


def test_play_without_curses_is_one_line(monkeypatch):
    """A Python without curses (Windows without windows-curses) is told what to install."""
    monkeypatch.setitem(sys.modules, "curses", None)  # import curses raises ImportError
    res = run_cli("play", "10x10")
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert res.stderr.count("\n") == 1 and "pip install windows-curses" in res.stderr


def test_windows_gets_curses_from_its_dependencies():
    """The package asks for windows-curses where Python lacks curses, and only there."""
    import tomllib
    from pathlib import Path

    from packaging.requirements import Requirement

    deps = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    reqs = [Requirement(d) for d in deps["project"]["dependencies"]]
    curses = [r for r in reqs if r.name == "windows-curses"]
    assert len(curses) == 1 and curses[0].marker is not None
    assert curses[0].marker.evaluate({"sys_platform": "win32"})
    assert not curses[0].marker.evaluate({"sys_platform": "linux"})


# ----------------------------------------------------------------------------- other grids

HEADING_KEYS = {0: "6", 45: "3", 90: "2", 135: "1", 180: "4", 225: "7", 270: "8", 315: "9"}
"""The number keys by their heading, degrees clockwise from east (y down), as on a keypad."""
KEY_NAMES = {"6": "right", "3": "down-right", "2": "down", "1": "down-left", "4": "left",
             "7": "up-left", "8": "up", "9": "up-right"}  # fmt: skip


def saved_graph(maze):
    """The saved maze read by json alone: networkx graph, centres, entrance, exit."""
    import networkx as nx

    from mazeart.mazefile import dumps

    doc = json.loads(dumps(maze))
    g = nx.Graph()
    g.add_nodes_from(doc["cells"])
    g.add_edges_from(map(tuple, doc["passages"]))
    return g, np.asarray(doc["centres"], float), doc["entrance"], doc["exit"]


def key_towards(centres, a: int, b: int) -> str:
    """The keypad key whose heading is nearest the step from ``a``'s centre to ``b``'s."""
    dx, dy = centres[b] - centres[a]
    heading = np.degrees(np.arctan2(dy, dx)) % 360
    best = min(HEADING_KEYS, key=lambda h: abs((heading - h + 180) % 360 - 180))
    return HEADING_KEYS[best]


def grid_maze(kind: str, size: str = "9x7", seed: int = 3):
    import mazeart

    options = {"weave": True} if kind == "weave" else {"grid": kind}
    return mazeart.make(size, rng=seed, **options).maze


@pytest.mark.parametrize("kind", ["hex", "triangle", "polar", "upsilon", "weave"])
def test_a_maze_on_any_grid_is_walked_by_its_directions(kind):
    """Every step of the shortest path (networkx, on the saved file) is the key nearest its
    heading; walls stop the player; a click moves only to a joined neighbour."""
    import networkx as nx

    maze = grid_maze(kind)
    g, centres, entrance, exit_ = saved_graph(maze)
    path = nx.shortest_path(g, entrance, exit_)
    game = Game(maze)
    assert game.position == entrance
    for a, b in itertools.pairwise(path):
        far = next((c for c in g.nodes if c not in g[a] and c != a), None)
        assert not game.move_to(far)  # not a neighbour through a passage
        assert game.move(KEY_NAMES[key_towards(centres, a, b)]), (a, b)
        assert game.position == b
    assert game.won and game.moves == len(path) - 1
    fresh = Game(maze)
    for key, name in KEY_NAMES.items():  # a key with no open neighbour near it: no step
        heading = next(h for h, k in HEADING_KEYS.items() if k == key)
        near = [
            c for c in g[entrance]
            if abs((np.degrees(np.arctan2(*(centres[c] - centres[entrance])[::-1])) % 360
                    - heading + 180) % 360 - 180) <= REACH
        ]  # fmt: skip
        moved = fresh.move(name)
        assert moved == bool(near)
        if moved:
            assert fresh.position in near
            fresh = Game(maze)


def test_best_times_of_other_grids_are_kept_by_their_kind(tmp_path):
    hexes, triangles = grid_maze("hex"), grid_maze("triangle")
    assert maze_key(hexes).split()[1] == "hex" and maze_key(triangles).split()[1] == "triangle"
    record_score(hexes, 12.5, tmp_path / "best.json")
    assert top_times(hexes, tmp_path / "best.json") == [12.5]
    assert top_times(triangles, tmp_path / "best.json") == []


@pytest.mark.parametrize("kind", ["hex", "polar"])
def test_terminal_game_on_another_grid_through_a_pty(tmp_path, kind):
    pexpect = pytest.importorskip("pexpect")
    import networkx as nx

    maze = grid_maze(kind, "8x6", 5)
    saved = tmp_path / "maze.json"
    save_maze(maze, saved)
    g, centres, entrance, exit_ = saved_graph(maze)
    child = spawn_play(pexpect, saved, tmp_path, levels=1, size=(50, 120))
    child.expect("7 9 1 3 diagonally")
    for a, b in itertools.pairwise(nx.shortest_path(g, entrance, exit_)):
        child.send(key_towards(centres, a, b))
    child.expect("Solved in")
    child.expect(f"Best{GAP}times,{GAP}this{GAP}maze:")
    child.send(" ")
    child.expect(pexpect.EOF)
    best = json.loads((tmp_path / "data" / "best-times.json").read_text())
    assert list(best) == [maze_key(maze)]


def test_a_grid_picture_has_floor_under_every_cell_and_walls_between_closed_cells():
    """The terminal's picture of a hex maze: each maze cell's block is floor, and the blocks
    on the straight line between two neighbours are all floor exactly when a passage joins
    them (the line crosses their shared wall at its middle)."""
    from mazeart.play.terminal import grid_picture

    maze = grid_maze("hex", "10x8", 9)
    picture, at = grid_picture(maze)
    g, *_ = saved_graph(maze)
    cells = [c for c in range(maze.grid.n_cells) if maze.mask[c]]
    assert all(picture[at(c)] == 2 for c in cells)  # floor
    for a in cells:
        for b in maze.grid.neighbours(a):
            if b < a or not maze.mask[b]:
                continue
            (ra, ca), (rb, cb) = at(a), at(int(b))
            steps = max(abs(rb - ra), abs(cb - ca))
            line = {(round(ra + (rb - ra) * t / steps), round(ca + (cb - ca) * t / steps))
                    for t in range(steps + 1)}  # fmt: skip
            walled = any(picture[p] == 1 for p in line)
            assert walled != g.has_edge(a, int(b)), (a, int(b))


def test_a_big_best_times_file_is_merged_never_replaced(tmp_path):
    """16,000 mazes' tables (1.3 MB) and one more win: every table is still there, the
    new time added to its maze's; entries this version does not read stay as they were."""
    path = tmp_path / "best-times.json"
    rng = np.random.default_rng(0)
    tables = {f"maze-{i:05d}-{'x' * 40}": sorted(rng.uniform(1, 500, 5).round(3).tolist())
              for i in range(16_000)}  # fmt: skip
    tables["from-a-later-version"] = {"times": [1.0], "replay": "abc"}
    tables["huge"] = [10**400, 3.5]
    path.write_text(json.dumps(tables))
    assert path.stat().st_size > 1_300_000
    maze = generate(np.zeros((4, 5), np.int32), rng=1)
    score = record_score(maze, 2.5, path)
    after = json.loads(path.read_text())
    assert set(after) == set(tables) | {maze_key(maze)}
    assert {k: after[k] for k in tables} == tables
    assert after[maze_key(maze)] == [2.5] and score.rank == 1
    assert load_scores(path)["huge"] == [3.5]  # the number no float holds is left out


@pytest.mark.parametrize("damage", ["not json", "[1, 2]", '{"a": [1e999]}', "big"])
def test_a_best_times_file_that_cannot_be_read_is_left_as_it_is(damage, tmp_path):
    path = tmp_path / "best-times.json"
    raw = ('{"a": [' + "9" * 5000 + "]}") if damage == "big" else damage
    path.write_text(raw)
    maze = generate(np.zeros((4, 5), np.int32), rng=1)
    assert load_scores(path) == {}  # the game goes on
    with pytest.raises(MazeartError, match=r"time not recorded: .*left as it is"):
        record_score(maze, 2.5, path)
    assert path.read_text() == raw


def test_a_data_folder_that_is_a_file_is_one_line(tmp_path, monkeypatch):
    blocker = tmp_path / "data"
    blocker.write_text("a file where the folder should be")
    monkeypatch.setenv("MAZEART_DATA_DIR", str(blocker))
    maze = generate(np.zeros((4, 5), np.int32), rng=1)
    assert load_scores() == {}
    with pytest.raises(MazeartError, match="time not recorded") as caught:
        record_score(maze, 2.5)
    assert "\n" not in str(caught.value)
    assert blocker.read_text() == "a file where the folder should be"
