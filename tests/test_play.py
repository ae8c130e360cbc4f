"""The games: rules, best times, the terminal game through a pseudo-terminal, the browser game
in real headless Chromium."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import sys

import numpy as np
import pytest
from conftest import run_cli

from mazeart import Maze, generate, solve
from mazeart.export.html import to_html
from mazeart.mazefile import save_maze
from mazeart.play.game import Game, load_best_times, record_time, size_key

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


def test_best_times_file(tmp_path):
    path = tmp_path / "deep" / "best.json"
    maze = generate(np.zeros((4, 6), np.int32), rng=1)
    assert load_best_times(path) == {}
    assert record_time(maze, 12.5, path) == (True, 12.5)
    assert record_time(maze, 14.0, path) == (False, 12.5)
    assert record_time(maze, 9.25, path) == (True, 9.25)
    assert json.loads(path.read_text()) == {size_key(maze): 9.25}
    path.write_text("not json")
    assert load_best_times(path) == {}  # a broken file never stops the game


def test_terminal_game_through_a_pty(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    import curses

    maze = generate(np.zeros((6, 9), np.int32), rng=11, algorithm="wilson")
    saved = tmp_path / "maze.json"
    save_maze(maze, saved)
    env = dict(os.environ, TERM="xterm", MAZEART_DATA_DIR=str(tmp_path / "data"))
    curses.setupterm("xterm", 1)
    keys = {
        "up": curses.tigetstr("kcuu1").decode(),
        "down": curses.tigetstr("kcud1").decode(),
        "left": "a",
        "right": "d",
    }
    child = pexpect.spawn(
        sys.executable, ["-m", "mazeart", "play", str(saved), "--levels", "2", "--seed", "4"],
        env=env, dimensions=(24, 80), encoding="utf-8", timeout=30,
    )  # fmt: skip
    child.delaybeforesend = None
    child.expect("level 1/2")
    r, c = maze.entrance
    closed = next(d for d, bit in (("up", 1), ("down", 4), ("left", 8), ("right", 2))
                  if not maze.passages[r, c] & bit)  # fmt: skip
    child.send(keys[closed])  # into a wall: nothing moves, the path below still works
    for d in directions(solve(maze)):
        child.send(keys[d])
    child.expect("Solved in")
    child.send(" ")
    child.expect("level 2/2")  # a fresh maze of the same shape
    child.send("q")
    child.expect("solved 1 maze")
    child.expect(pexpect.EOF)
    best = json.loads((tmp_path / "data" / "best-times.json").read_text())
    assert list(best) == [size_key(maze)] and best[size_key(maze)] > 0


def test_play_needs_a_terminal():
    res = run_cli("play")
    assert res.returncode == 2 and "needs a terminal" in res.stderr


# ----------------------------------------------------------------------------- browser


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        if os.environ.get("MAZEART_REQUIRE_TOOLS"):
            pytest.fail("chromium is not installed")
        pytest.skip("chromium is not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        yield b
        b.close()


KEYS = {"up": "ArrowUp", "down": "ArrowDown", "left": "a", "right": "d"}


def state(page) -> tuple[int, int, str]:
    c = page.locator("#game")
    return (
        int(c.get_attribute("data-row")),
        int(c.get_attribute("data-col")),
        c.get_attribute("data-won"),
    )


def test_browser_game_is_won_along_the_solution(tmp_path, browser):
    mazes = [generate(np.zeros((7, 10), np.int32), rng=s, algorithm="kruskal") for s in (1, 2)]
    page_file = tmp_path / "game.html"
    page_file.write_text(to_html(mazes, title="Two </script><b>levels</b> & more"))
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(page_file.as_uri())
    assert page.title() == "Two </script><b>levels</b> & more"  # shown as text, not markup
    assert page.locator("h1 b").count() == 0
    for level, maze in enumerate(mazes, start=1):
        assert page.locator("#game").get_attribute("data-level") == str(level)
        assert state(page)[:2] == maze.entrance
        # a wall blocks: find a closed side of the entrance and press it
        r, c = maze.entrance
        closed = next(d for d, (bit, _, _) in zip(KEYS, ((1, 0, 0), (4, 0, 0), (8, 0, 0),
                                                        (2, 0, 0)), strict=True)
                      if not maze.passages[r, c] & bit)  # fmt: skip
        page.keyboard.press(KEYS[closed])
        assert state(page)[:2] == maze.entrance
        for d in directions(solve(maze)):
            page.keyboard.press(KEYS[d])
        assert state(page) == (*maze.exit, "true")
        message = page.locator("#message").text_content()
        assert message.startswith("Solved in")
        if level == 1:  # the first time of this size is a best (a later one only when faster)
            assert "(best!)" in message
        if level < len(mazes):
            page.keyboard.press("x")  # any key: the next maze
    best = page.evaluate("() => Object.keys(localStorage)")
    assert best == ["mazeart-best-10x7-cells"]
    page.click("#toggle")
    assert page.locator("#toggle").text_content() == "Hide solution"
    assert errors == []
    assert all(u.startswith("file:") for u in requests)  # nothing from the network


def test_browser_game_blocks_geometry_and_cli(tmp_path, browser, horse_png):
    out = tmp_path / "g.html"
    res = run_cli(horse_png, "-o", out, "--cells", "40", "--geometry", "blocks", "--seed", "3",
                  "--levels", "2", "--title", "Blocky")  # fmt: skip
    assert res.returncode == 0, res.stderr
    page = browser.new_page()
    page.goto(out.as_uri())
    data = json.loads(page.eval_on_selector("#mazeart-data", "e => e.textContent"))
    assert len(data["levels"]) == 2 and data["levels"][0]["geometry"] == "blocks"
    level = data["levels"][0]
    path = np.array(level["solution"])
    assert tuple(path[0]) == tuple(level["entrance"])
    for d in directions(path):
        page.keyboard.press(KEYS[d])
    assert state(page)[2] == "true"
    res = run_cli(horse_png, "-o", tmp_path / "g.svg", "--levels", "2")
    assert res.returncode == 2 and "HTML" in res.stderr
