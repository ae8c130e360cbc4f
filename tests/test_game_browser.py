"""The browser game played in real headless Chromium (Playwright): levels and their best times,
the solution that costs the record, the size field's generated mazes, touch and on-screen
arrows; the tag colours, one table for the SVG, the PNG, the PDF and the page; and the game on
the other grids (hexagons, triangles, rings, octagons, weave), by clicks, keys and swipes,
against the saved maze's passages."""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import pytest
from conftest import run_cli
from PIL import Image, ImageColor

from mazeart import generate, make, solve
from mazeart.errors import MazeartError
from mazeart.export._style import GAME_COLOURS, tag_colour, tag_colours
from mazeart.export.html import to_html
from mazeart.export.pdf import to_pdf_bytes
from mazeart.export.png import to_png_image
from mazeart.export.svg import to_svg
from mazeart.mazefile import dumps
from mazeart.play.game import REACH, maze_key
from mazeart.weights import preset_from_text

STEP = {(-1, 0): "up", (1, 0): "down", (0, -1): "left", (0, 1): "right"}
KEYS = {"up": "ArrowUp", "down": "ArrowDown", "left": "a", "right": "d"}
BITS = {"up": 1, "right": 2, "down": 4, "left": 8}
OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}


def directions(path) -> list[str]:
    path = np.asarray(path)
    return [STEP[(int(b[0] - a[0]), int(b[1] - a[1]))] for a, b in itertools.pairwise(path)]


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        if os.environ.get("MAZEART_REQUIRE_TOOLS"):
            pytest.fail(f"{name} is not installed")
        pytest.skip(f"{name} is not installed")
    return path


def open_game(browser, path, **context):
    ctx = browser.new_context(**context)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    return page, errors


def state(page) -> tuple[int, int, str]:
    c = page.locator("#game")
    return (
        int(c.get_attribute("data-row")),
        int(c.get_attribute("data-col")),
        c.get_attribute("data-won"),
    )


def stored(page) -> dict[str, list[float]]:
    return page.evaluate(
        "() => Object.fromEntries(Object.keys(localStorage).map("
        "k => [k, JSON.parse(localStorage.getItem(k))]))"
    )


def walk(page, path) -> None:
    for d in directions(path):
        page.keyboard.press(KEYS[d])


def closed_side(maze) -> str:
    r, c = maze.entrance
    return next(d for d in ("up", "down", "left", "right") if not maze.passages[r, c] & BITS[d])


def same_size_levels() -> list:
    return [generate(np.zeros((7, 10), np.int32), rng=s, algorithm="kruskal") for s in (1, 2)]


# ----------------------------------------------------------------------------- levels


def test_browser_game_is_won_along_the_solution(tmp_path, browser):
    mazes = same_size_levels()
    page_file = tmp_path / "game.html"
    page_file.write_text(to_html(mazes, title="Two </script><b>levels</b> & more"))
    page, errors = open_game(browser, page_file)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.reload()
    assert page.title() == "Two </script><b>levels</b> & more"  # shown as text, not markup
    assert page.locator("h1 b").count() == 0
    for level, maze in enumerate(mazes, start=1):
        assert page.locator("#game").get_attribute("data-level") == str(level)
        assert state(page)[:2] == maze.entrance
        page.keyboard.press(KEYS[closed_side(maze)])  # a wall blocks
        assert state(page)[:2] == maze.entrance
        walk(page, solve(maze))
        assert state(page) == (*maze.exit, "true")
        message = page.locator("#message").text_content()
        assert message.startswith("Solved in") and "a new best!" in message
        assert page.locator("#scores").is_visible()
        if level < len(mazes):
            page.keyboard.press("x")  # any key: the next maze
    assert sorted(stored(page)) == sorted(f"mazeart-times {maze_key(m)}" for m in mazes)
    page.click("#toggle")
    assert page.locator("#toggle").text_content() == "Hide solution"
    assert errors == []
    assert all(u.startswith("file:") for u in requests)  # nothing from the network


def test_best_times_are_kept_per_level_not_per_size(tmp_path, browser):
    mazes = same_size_levels()
    assert mazes[0].shape == mazes[1].shape and maze_key(mazes[0]) != maze_key(mazes[1])
    page_file = tmp_path / "game.html"
    page_file.write_text(to_html(mazes))
    page, errors = open_game(browser, page_file)
    keys = [f"mazeart-times {maze_key(m)}" for m in mazes]
    assert page.locator("#game").get_attribute("data-key") == maze_key(mazes[0])
    walk(page, solve(mazes[0]))
    assert state(page)[2] == "true"
    (first,) = stored(page)[keys[0]]
    assert list(stored(page)) == [keys[0]]
    page.keyboard.press("Enter")
    # level 2, of the same size: no best of its own, none borrowed from level 1
    assert page.locator("#game").get_attribute("data-level") == "2"
    assert page.locator("#best").text_content() == ""
    assert page.evaluate("() => window.mazeart.state().times") == []
    assert list(stored(page)) == [keys[0]]
    walk(page, solve(mazes[1]))
    assert "a new best!" in page.locator("#message").text_content()
    assert sorted(stored(page)) == sorted(keys)
    # the same maze played again shares its table: level 1 after a reload shows its best
    # Chromium commits a page's localStorage to its browser process a moment after the
    # write; on a loaded machine a reload can start first and read the older table, so the
    # reload is tried again (three times at most) until the stored table is read back
    for _ in range(3):
        page.reload()
        try:
            page.wait_for_function(
                "() => document.getElementById('best').textContent !== ''", timeout=10_000
            )
            break
        except Exception:  # playwright's TimeoutError: read again
            continue
    # the page writes JavaScript's toFixed(1): the exact value rounded half up (0.25 -> 0.3),
    # where Python's format rounds half to even
    shown = Decimal(first).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    assert page.locator("#best").text_content() == f"best {shown} s"
    assert page.evaluate("() => window.mazeart.state().times") == [first]
    assert errors == []


def test_the_table_keeps_the_five_best_times_and_marks_the_run(tmp_path, browser):
    (maze,) = same_size_levels()[:1]
    page_file = tmp_path / "game.html"
    page_file.write_text(to_html(maze))
    page, errors = open_game(browser, page_file)
    key = f"mazeart-times {maze_key(maze)}"
    # two times no run beats (a tie goes after them) and three slower than any
    page.evaluate(f"() => localStorage.setItem({json.dumps(key)}, '[0.001, 0.001, 5e5, 6e5, 7e5]')")
    page.reload()
    assert page.locator("#best").text_content() == "best 0.0 s"
    walk(page, solve(maze))
    rows = page.locator("#scores tbody tr")
    assert rows.count() == 5
    texts = [rows.nth(i).inner_text().split() for i in range(5)]
    assert [t[0] for t in texts] == ["1.", "2.", "3.", "4.", "5."]
    assert [t[1] for t in (texts[0], texts[1], texts[3], texts[4])] == ["0.0", "0.0", "500000.0",
                                                                        "600000.0"]  # fmt: skip
    assert page.locator("#scores tr.this").count() == 1
    assert page.locator("#scores tr.this td").first.text_content() == "3."
    assert page.locator("#game").get_attribute("data-recorded") == "true"
    times = stored(page)[key]
    assert len(times) == 5 and times[:2] == [0.001, 0.001] and times[3:] == [5e5, 6e5]
    assert errors == []


def test_no_best_when_the_solution_was_shown(tmp_path, browser):
    mazes = same_size_levels()
    page_file = tmp_path / "game.html"
    page_file.write_text(to_html(mazes))
    page, errors = open_game(browser, page_file)
    moves = directions(solve(mazes[0]))
    page.keyboard.press(KEYS[moves[0]])
    page.click("#toggle")  # shown during the run...
    assert "will not be recorded" in page.locator("#message").text_content()
    page.click("#toggle")  # ...and hidden again: the run still does not count
    assert page.locator("#game").get_attribute("data-peeked") == "true"
    for d in moves[1:]:
        page.keyboard.press(KEYS[d])
    assert state(page)[2] == "true"
    message = page.locator("#message").text_content()
    assert message.startswith("Solved in") and "not recorded: the solution was shown" in message
    assert page.locator("#game").get_attribute("data-recorded") == "false"
    assert stored(page) == {} and page.locator("#best").text_content() == ""
    assert page.locator("#scores").is_visible() and page.locator("#scores tr.this").count() == 0
    # the next level, played without the solution, counts
    page.click("#next")
    assert page.locator("#game").get_attribute("data-peeked") == "false"
    walk(page, solve(mazes[1]))
    assert page.locator("#game").get_attribute("data-recorded") == "true"
    assert list(stored(page)) == [f"mazeart-times {maze_key(mazes[1])}"]
    assert errors == []


def test_browser_game_blocks_geometry_and_cli(tmp_path, browser, horse_png):
    out = tmp_path / "g.html"
    res = run_cli(horse_png, "-o", out, "--cells", "40", "--geometry", "blocks", "--seed", "3",
                  "--levels", "2", "--title", "Blocky")  # fmt: skip
    assert res.returncode == 0, res.stderr
    page, errors = open_game(browser, out)
    data = json.loads(page.eval_on_selector("#mazeart-data", "e => e.textContent"))
    assert len(data["levels"]) == 2 and data["levels"][0]["geometry"] == "blocks"
    level = data["levels"][0]
    path = np.array(level["solution"])
    assert tuple(path[0]) == tuple(level["entrance"])
    walk(page, path)
    assert state(page)[2] == "true"
    assert errors == []
    res = run_cli(horse_png, "-o", tmp_path / "g.svg", "--levels", "2")
    assert res.returncode == 2 and "HTML" in res.stderr


# ----------------------------------------------------------------------------- the size field


def check_perfect(grid: list[list[int]], rows: int, cols: int) -> list[tuple[int, int]]:
    """Assert ``grid`` is a spanning tree of the rows x cols rectangle; return the path from
    the top-left to the bottom-right cell (breadth-first through the passages)."""
    nx = pytest.importorskip("networkx")
    assert len(grid) == rows and all(len(row) == cols for row in grid)
    g = nx.Graph()
    g.add_nodes_from((r, c) for r in range(rows) for c in range(cols))
    for r, c in itertools.product(range(rows), range(cols)):
        v = grid[r][c]
        assert 0 <= v <= 15
        for d, bit in BITS.items():
            dr, dc = next(k for k, name in STEP.items() if name == d)
            rr, cc = r + dr, c + dc
            inside = 0 <= rr < rows and 0 <= cc < cols
            if v & bit:
                assert inside, ("a passage out of the rectangle", r, c, d)
                assert grid[rr][cc] & BITS[OPPOSITE[d]], ("a one-way passage", r, c, d)
                g.add_edge((r, c), (rr, cc))
    assert g.number_of_edges() == rows * cols - 1 and nx.is_tree(g)  # perfect: a spanning tree
    return nx.shortest_path(g, (0, 0), (rows - 1, cols - 1))


def test_the_size_field_makes_a_perfect_maze_without_reloading(tmp_path, browser):
    page_file = tmp_path / "game.html"
    page_file.write_text(to_html(generate(np.zeros((5, 6), np.int32), rng=1)))
    page, errors = open_game(browser, page_file)
    page.evaluate("() => { window.notReloaded = true; }")
    page.fill("#size", "13x9")
    page.press("#size", "Enter")
    game = page.locator("#game")
    assert (game.get_attribute("data-cols"), game.get_attribute("data-rows")) == ("13", "9")
    assert page.evaluate("() => window.notReloaded") is True  # the same page, no navigation
    assert game.get_attribute("data-level") == "random"
    s = page.evaluate("() => window.mazeart.state()")
    assert (s["rows"], s["cols"], s["entrance"], s["exit"]) == (9, 13, [0, 0], [8, 12])
    path = check_perfect(s["grid"], 9, 13)
    assert [list(p) for p in path] == s["solution"]
    seed = s["seed"]
    assert game.get_attribute("data-key") == f"random 13x9 seed {seed}"
    assert state(page)[:2] == (0, 0)
    walk(page, path)
    assert state(page) == (8, 12, "true")
    assert "a new best!" in page.locator("#message").text_content()
    assert list(stored(page)) == [f"mazeart-times random 13x9 seed {seed}"]
    # the same size and seed make the same maze (its best times are its own)
    page.evaluate(f"() => window.mazeart.newMaze(13, 9, {seed})")
    again = page.evaluate("() => window.mazeart.state()")
    assert again["grid"] == s["grid"] and again["key"] == s["key"]
    assert again["times"] == stored(page)[f"mazeart-times {s['key']}"]
    # one number: a square maze; the next maze after a win: a new one of that size
    page.fill("#size", "7")
    page.click("#new button[type=submit]")
    s7 = page.evaluate("() => window.mazeart.state()")
    assert (s7["rows"], s7["cols"]) == (7, 7)
    check_perfect(s7["grid"], 7, 7)
    walk(page, s7["solution"])
    page.keyboard.press("n")
    s7b = page.evaluate("() => window.mazeart.state()")
    assert (s7b["rows"], s7b["cols"], s7b["won"]) == (7, 7, False)
    check_perfect(s7b["grid"], 7, 7)
    # a size out of range is refused and says so; the maze stays
    page.fill("#size", "1x500")
    page.press("#size", "Enter")
    assert "from 2 to 200" in page.locator("#message").text_content()
    assert page.evaluate("() => window.mazeart.state().grid") == s7b["grid"]
    # a big one still is a perfect maze
    page.fill("#size", "200x150")
    page.press("#size", "Enter")
    check_perfect(page.evaluate("() => window.mazeart.state().grid"), 150, 200)
    assert page.evaluate("() => window.notReloaded") is True
    assert errors == []


# ----------------------------------------------------------------------------- touch


def test_touch_swipes_and_on_screen_arrows_move_the_player(tmp_path, browser):
    maze = generate(np.zeros((6, 8), np.int32), rng=4, algorithm="wilson")
    page_file = tmp_path / "game.html"
    page_file.write_text(to_html(maze))
    page, errors = open_game(
        browser, page_file, viewport={"width": 390, "height": 844}, device_scale_factor=2,
        is_mobile=True, has_touch=True,
    )  # fmt: skip
    path = [tuple(int(v) for v in p) for p in solve(maze)]
    moves = directions(path)
    # the on-screen arrows: a closed side does nothing, an open one steps
    page.locator(f"#pad [data-dir={closed_side(maze)}]").tap()
    assert state(page)[:2] == maze.entrance
    page.locator(f"#pad [data-dir={moves[0]}]").tap()
    assert state(page)[:2] == path[1]
    page.locator(f"#pad [data-dir={OPPOSITE[moves[0]]}]").tap()
    assert state(page)[:2] == path[0]
    # a swipe: a finger dragged over the maze steps a cell for every cell it travels
    box = page.locator("#game").bounding_box()
    assert box["y"] + box["height"] <= page.locator("#pad").bounding_box()["y"]  # not covered
    cdp = page.context.new_cdp_session(page)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def touch(kind: str, points) -> None:
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", [{"x": x, "y": y}])
    unit = float(page.locator("#game").get_attribute("data-swipe"))
    assert unit >= 14
    for i, d in enumerate(moves, start=1):
        dr, dc = next(k for k, name in STEP.items() if name == d)
        x, y = x + dc * unit, y + dr * unit
        touch("touchMove", [{"x": x, "y": y}])
        page.wait_for_function(
            f"() => document.getElementById('game').dataset.row === '{path[i][0]}' && "
            f"document.getElementById('game').dataset.col === '{path[i][1]}'"
        )
    touch("touchEnd", [])
    assert state(page) == (*maze.exit, "true")
    assert page.locator("#scores").is_visible()
    assert page.evaluate("() => window.scrollY") == 0  # the swipe did not scroll the page
    assert errors == []


# ----------------------------------------------------------------------------- tag colours


TAGGED = "\n".join(["." * 24] * 3 + ["....AAAa" + "." * 16] + ["....AAAA" + "." * 16] * 2
                   + ["." * 24] * 8)  # fmt: skip


def tagged_maze():
    return generate(preset_from_text(TAGGED), rng=2, place="loot=2,spawn=1,key=1,npc=1,trap=1")


def rgb(colour: str) -> tuple[int, int, int]:
    return ImageColor.getrgb(colour)[:3]


def test_tag_colours_are_one_table_with_a_legend_everywhere(tmp_path, browser):
    maze = tagged_maze()
    kinds = sorted(set(maze.tags.values()))
    assert kinds == ["key", "loot", "npc", "spawn", "trap"]
    colours = {k: tag_colour(k) for k in kinds}
    assert len(set(colours.values())) == len(kinds)  # one colour per kind

    # SVG: the tags' dots and the legend (a dot and the name of every kind drawn)
    root = ET.fromstring(to_svg(maze, cell_size=20))
    ns = {"s": "http://www.w3.org/2000/svg"}
    tags = root.find("s:g[@id='tags']", ns)
    for dot in tags.findall("s:circle", ns):
        assert dot.get("fill") == colours[dot.get("data-kind")]
    legend = root.find("s:g[@id='legend']", ns)
    names = [t.text for t in legend.findall("s:text", ns)]
    assert sorted(names) == kinds
    assert {d.get("data-kind"): d.get("fill") for d in legend.findall("s:circle", ns)} == colours
    _, top, _, tall = map(float, root.get("viewBox").split())
    bottom = top + tall  # the legend sits in the bottom margin, below the maze
    assert all(maze.height * 20 < float(t.get("y")) < bottom for t in legend.findall("s:text", ns))

    # PNG: the pixel at each tag's centre, and legend dots in the bottom margin
    cs = 20
    png = np.asarray(to_png_image(maze, cell_size=cs).convert("RGB"))
    for (r, c), kind in maze.tags.items():
        assert tuple(png[cs + r * cs + cs // 2, cs + c * cs + cs // 2]) == rgb(colours[kind])
    margin = png[cs + maze.height * cs :]
    for kind in kinds:
        assert (margin == rgb(colours[kind])).all(axis=2).sum() > 20, kind

    # PDF: rendered, the pixel at each tag's centre (where its one "cm" puts the maze)
    from pypdf import PdfReader

    pdf = tmp_path / "m.pdf"
    pdf.write_bytes(to_pdf_bytes(maze, answer=False))
    page = PdfReader(pdf).pages[0]
    assert all(k in page.extract_text() for k in kinds)  # the legend under the caption
    s, _, tx, ty = map(float, re.search(
        rb"q ([\d.]+) 0 0 -([\d.]+) ([\d.]+) ([\d.]+) cm", page.get_contents().get_data()
    ).groups())  # fmt: skip
    dpi = cs * 72 / s
    subprocess.run([tool("pdftoppm"), "-r", f"{dpi:.6f}", "-png", "-singlefile", pdf,
                    tmp_path / "page"], check=True)  # fmt: skip
    px = np.asarray(Image.open(tmp_path / "page.png").convert("RGB")).astype(int)
    x0, y0 = tx * dpi / 72, (float(page.mediabox.height) - ty) * dpi / 72
    for (r, c), kind in maze.tags.items():
        got = px[round(y0 + (r + 0.5) * cs), round(x0 + (c + 0.5) * cs)]
        assert np.abs(got - rgb(colours[kind])).max() <= 2, (kind, got)

    # HTML: the embedded table is the same, the canvas draws with it, and a legend lists them
    page_file = tmp_path / "game.html"
    page_file.write_text(to_html(maze))
    game, errors = open_game(browser, page_file)
    data = json.loads(game.eval_on_selector("#mazeart-data", "e => e.textContent"))
    assert data["tagColours"] == tag_colours() and data["colours"] == GAME_COLOURS
    cell = int(game.locator("#game").get_attribute("data-scale"))
    for (r, c), kind in maze.tags.items():
        pixel = game.evaluate(
            "([x, y]) => Array.from(document.getElementById('game').getContext('2d')"
            ".getImageData(x, y, 1, 1).data.slice(0, 3))",
            [(c + 1.5) * cell, (r + 1.5) * cell],
        )
        assert tuple(pixel) == rgb(colours[kind]), kind
    items = game.locator("#legend li[data-kind]")
    shown = {}
    for i in range(items.count()):
        li = items.nth(i)
        swatch = li.locator(".swatch").evaluate("e => getComputedStyle(e).backgroundColor")
        shown[li.get_attribute("data-kind")] = (li.inner_text().strip(), swatch)
    assert shown == {k: (k, "rgb({}, {}, {})".format(*rgb(v))) for k, v in colours.items()}
    assert errors == []


def test_the_exit_is_green_in_the_browser(tmp_path, browser):
    maze = generate(np.zeros((5, 7), np.int32), rng=3)
    page_file = tmp_path / "game.html"
    page_file.write_text(to_html(maze))
    page, errors = open_game(browser, page_file)
    cell = int(page.locator("#game").get_attribute("data-scale"))
    r, c = maze.exit
    pixel = page.evaluate(
        "([x, y]) => Array.from(document.getElementById('game').getContext('2d')"
        ".getImageData(x, y, 1, 1).data.slice(0, 3))",
        [(c + 1.5) * cell, (r + 1.5) * cell],
    )
    assert tuple(pixel) == rgb(GAME_COLOURS["exit"]) == (0x2C, 0xA0, 0x2C)
    assert "green" in page.locator(".help").text_content()
    assert errors == []


# ----------------------------------------------------------------------------- other grids

GRID_KINDS = ("hex", "triangle", "polar", "upsilon", "weave")
KEY_ANGLES = {"ArrowRight": 0, "c": 45, "ArrowDown": 90, "z": 135, "ArrowLeft": 180,
              "q": -135, "ArrowUp": -90, "e": -45}  # fmt: skip
"""Keys and their directions, degrees clockwise from the right (y runs down the page)."""
DIGITS = {"e": "9", "q": "7", "z": "1", "c": "3"}


def grid_maze(kind: str, seed: int = 1, **options):
    if kind == "weave":
        return make("12x9", weave=0.5, rng=seed, **options).maze
    return make("12x9", grid=kind, rng=seed, **options).maze


def saved(maze):
    """The independent reference: the saved maze (version 3) read back with json, its passages
    as a networkx graph and its cells' centres."""
    nx = pytest.importorskip("networkx")
    data = json.loads(dumps(maze))
    assert data["version"] == 3 and data["grid"]["kind"] == maze.grid.kind
    graph = nx.Graph()
    graph.add_nodes_from(data["cells"])
    graph.add_edges_from(tuple(p) for p in data["passages"])
    return graph, data


def embedded(page) -> dict:
    return json.loads(page.eval_on_selector("#mazeart-data", "e => e.textContent"))


def at(page) -> tuple[int, str]:
    game = page.locator("#game")
    return int(game.get_attribute("data-cell")), game.get_attribute("data-won")


class Clicker:
    """Clicks at points of the maze (maze units), through the canvas's place and scale."""

    def __init__(self, page) -> None:
        self.page = page
        box = page.locator("#game").bounding_box()
        width = page.evaluate("() => document.getElementById('game').width")
        scale = float(page.locator("#game").get_attribute("data-scale"))
        self.x, self.y, self.unit = box["x"], box["y"], box["width"] / width * scale

    def __call__(self, x: float, y: float) -> None:
        self.page.mouse.click(self.x + (x + 1) * self.unit, self.y + (y + 1) * self.unit)


def pixel(page, x: float, y: float) -> tuple[int, int, int]:
    """The canvas's colour at a point of the maze (maze units)."""
    scale = float(page.locator("#game").get_attribute("data-scale"))
    return tuple(page.evaluate(
        "([x, y]) => Array.from(document.getElementById('game').getContext('2d')"
        ".getImageData(x, y, 1, 1).data.slice(0, 3))",
        [round((x + 1) * scale), round((y + 1) * scale)],
    ))  # fmt: skip


@pytest.mark.parametrize("kind", GRID_KINDS)
def test_a_grid_maze_is_won_by_clicking_along_the_solution(kind, tmp_path, browser):
    maze = grid_maze(kind)
    graph, data = saved(maze)
    page_file = tmp_path / "game.html"
    page_file.write_text(to_html(maze, title=f"{kind} game"))
    page, errors = open_game(browser, page_file)
    level = embedded(page)["levels"][0]
    game = page.locator("#game")
    assert game.get_attribute("data-grid") == kind and level["kind"] == kind
    assert game.get_attribute("data-key") == maze_key(maze) == level["key"]
    assert game.get_attribute("data-row") is None  # the square game's attributes only
    # the embedded cells are the saved maze's: centres, ends, open neighbours, the solution
    centres = np.array(level["centres"]).reshape(-1, 2)
    assert np.abs(centres[data["cells"]] - np.array(data["centres"])[data["cells"]]).max() < 1e-4
    assert (level["entrance"], level["exit"]) == (data["entrance"], data["exit"])
    for cell in data["cells"]:
        assert sorted(level["open"][cell]) == sorted(graph.neighbors(cell)), cell
    path = level["solution"]
    assert path == solve(maze).tolist()
    assert path[0] == data["entrance"] and path[-1] == data["exit"]
    assert nx_path(graph, path) and len(path) - 1 == shortest(graph, data)
    assert pixel(page, *centres[data["exit"]]) == rgb(GAME_COLOURS["exit"])  # the green cell
    assert "green" in page.locator(".help").text_content()
    assert at(page) == (data["entrance"], "false")
    click = Clicker(page)
    under = level.get("under")
    for cell in path[1:]:
        click(*centres[cell])
        assert at(page)[0] == cell
        if under is not None:  # a weave maze's tunnel: under the cell of the same centre
            assert game.get_attribute("data-under") == str(cell >= under).lower()
    assert at(page) == (data["exit"], "true")
    assert page.locator("#message").text_content().startswith("Solved in")
    assert list(stored(page)) == [f"mazeart-times {maze_key(maze)}"]
    state = page.evaluate("() => window.mazeart.state()")
    assert (state["kind"], state["position"], state["won"]) == (kind, data["exit"], True)
    if kind == "weave":
        assert any(cell >= under for cell in path), "the walk passes under a crossing"
    # the solution is drawn on "Show solution": red halfway between two cells of its path
    mid = (centres[path[len(path) // 2]] + centres[path[len(path) // 2 + 1]]) / 2
    assert pixel(page, *mid) == (0, 0, 0)  # nothing drawn there (the page shows it white)
    page.click("#toggle")
    red, green, _ = pixel(page, *mid)
    assert red > 200 and green < 150
    assert errors == []


def nx_path(graph, path) -> bool:
    return all(graph.has_edge(a, b) for a, b in itertools.pairwise(path))


def shortest(graph, data) -> int:
    import networkx as nx

    return nx.shortest_path_length(graph, data["entrance"], data["exit"])


@pytest.mark.parametrize("kind", GRID_KINDS)
def test_a_click_moves_only_onto_a_cell_a_passage_joins(kind, tmp_path, browser):
    maze = grid_maze(kind, seed=2)
    graph, _ = saved(maze)
    page_file = tmp_path / "game.html"
    page_file.write_text(to_html(maze))
    page, errors = open_game(browser, page_file)
    level = embedded(page)["levels"][0]
    centres = np.array(level["centres"]).reshape(-1, 2)
    grid = maze.grid
    click = Clicker(page)
    path = level["solution"]
    blocked = moved = far = 0
    for here in (path[0], path[len(path) // 2]):
        while at(page)[0] != here:  # along the solution to the cell to test from
            click(*centres[path[path.index(at(page)[0]) + 1]])
        near = np.flatnonzero(np.hypot(*(centres - centres[here]).T) < 2.5)
        for target in near.tolist():
            if target == here or not maze.mask[target]:
                continue
            # a click there may land in a cell of the same centre (a crossing and its tunnel)
            there = [c for c in near.tolist() if np.allclose(centres[c], centres[target])]
            joined = [c for c in there if graph.has_edge(here, c)]
            click(*centres[target])
            if joined:
                assert at(page)[0] == joined[0], (here, target)
                moved += 1
                click(*centres[here])  # and back
                assert at(page)[0] == here
            else:
                assert at(page)[0] == here, (here, target)
                if any(c in grid.neighbours(here) for c in there):
                    blocked += 1  # a neighbour behind a closed wall
                else:
                    far += 1  # not a neighbour at all
    assert blocked and moved and far
    assert at(page)[1] == "false" and errors == []


def test_keys_walk_a_hex_maze_every_slant_included(tmp_path, browser):
    maze = grid_maze("hex", seed=3)
    graph, data = saved(maze)
    page_file = tmp_path / "game.html"
    page_file.write_text(to_html(maze))
    page, errors = open_game(browser, page_file)
    centres = np.array(embedded(page)["levels"][0]["centres"]).reshape(-1, 2)

    def off(a: float, b: float) -> float:
        d = abs(a - b) % 360
        return min(d, 360 - d)

    def heading(a: int, b: int) -> float:
        (x0, y0), (x1, y1) = centres[a], centres[b]
        return float(np.degrees(np.arctan2(y1 - y0, x1 - x0)))

    # at the entrance, each key goes to the open neighbour nearest its way, within REACH (50)
    # (the lower id of two as near, as in the terminal game), or nowhere: a closed side
    here = data["entrance"]
    for key, angle in KEY_ANGLES.items():
        ways = sorted((round(off(heading(here, n), angle), 6), n) for n in graph.neighbors(here))
        ways = [w for w in ways if w[0] <= REACH]
        page.keyboard.press(key)
        expect = ways[0][1] if ways else here
        assert at(page)[0] == expect, key
        if expect != here:
            Clicker(page)(*centres[here])
    assert at(page)[0] == here
    # the solution, each step by the key nearest its way (the slants by letter or digit)
    path = solve(maze).tolist()
    used = set()
    for i, (a, b) in enumerate(itertools.pairwise(path)):
        key = min(KEY_ANGLES, key=lambda k: off(KEY_ANGLES[k], heading(a, b)))
        used.add(key)
        page.keyboard.press(DIGITS.get(key, key) if i % 2 else key)
        assert at(page)[0] == b, (a, b, key)
    assert at(page) == (data["exit"], "true")
    assert used & set(DIGITS), "a slant was needed"
    assert errors == []


def test_a_swipe_walks_a_hex_maze(tmp_path, browser):
    maze = grid_maze("hex", seed=4)
    page_file = tmp_path / "game.html"
    page_file.write_text(to_html(maze))
    page, errors = open_game(
        browser, page_file, viewport={"width": 390, "height": 844}, device_scale_factor=2,
        is_mobile=True, has_touch=True,
    )  # fmt: skip
    level = embedded(page)["levels"][0]
    centres = np.array(level["centres"]).reshape(-1, 2)
    path = level["solution"]
    box = page.locator("#game").bounding_box()
    width = page.evaluate("() => document.getElementById('game').width")
    unit = box["width"] / width * float(page.locator("#game").get_attribute("data-scale"))
    # a tap on a joined neighbour steps there, as a click does
    page.locator("#game").tap(position={"x": (centres[path[1]][0] + 1) * unit,
                                        "y": (centres[path[1]][1] + 1) * unit})  # fmt: skip
    assert at(page)[0] == path[1]
    page.locator("#game").tap(position={"x": (centres[path[0]][0] + 1) * unit,
                                        "y": (centres[path[0]][1] + 1) * unit})  # fmt: skip
    assert at(page)[0] == path[0]
    cdp = page.context.new_cdp_session(page)
    x0, y0 = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    def touch(kind: str, points) -> None:
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", [{"x": x0, "y": y0}])
    assert float(page.locator("#game").get_attribute("data-swipe")) >= 14
    for i in range(1, len(path)):
        # the finger travels the player's way, a little over a cell (a step's length) a step
        travel = (centres[path[i]] - centres[path[0]]) * unit
        way = centres[path[i]] - centres[path[i - 1]]
        x, y = np.array([x0, y0]) + travel + 2 * way / np.hypot(*way)
        touch("touchMove", [{"x": float(x), "y": float(y)}])
        page.wait_for_function(
            f"() => document.getElementById('game').dataset.cell === '{path[i]}'"
        )
    touch("touchEnd", [])
    assert at(page) == (path[-1], "true")
    assert page.evaluate("() => window.scrollY") == 0
    assert errors == []


def test_levels_mix_grids_and_tags_keep_their_colours(tmp_path, browser):
    square = same_size_levels()[0]
    hexes = grid_maze("hex", seed=5, place="loot=2,spawn=1,key=1")
    assert maze_key(hexes) != maze_key(grid_maze("triangle", seed=5))
    page_file = tmp_path / "game.html"
    page_file.write_text(to_html([square, hexes]))
    page, errors = open_game(browser, page_file)
    game = page.locator("#game")
    assert game.get_attribute("data-grid") == "square"
    r, c = square.entrance
    assert game.get_attribute("data-cell") == str(r * square.width + c)
    page.keyboard.press("q")  # no slants in the square game
    assert state(page)[:2] == square.entrance
    assert page.locator("#pad [data-dir=upleft]").is_hidden()
    walk(page, solve(square))
    assert state(page)[2] == "true"
    page.keyboard.press("x")  # the next level: the hex maze
    assert game.get_attribute("data-grid") == "hex" and game.get_attribute("data-level") == "2"
    assert game.get_attribute("data-row") is None and at(page) == (hexes.entrance, "false")
    assert page.locator("#pad [data-dir=upleft]").is_visible()
    level = embedded(page)["levels"][1]
    centres = np.array(level["centres"]).reshape(-1, 2)
    kinds = sorted(set(hexes.tags.values()))
    assert kinds == ["key", "loot", "spawn"]
    for cell, kind in hexes.tags.items():
        assert pixel(page, *centres[cell]) == rgb(tag_colour(kind)), kind
    legend = page.locator("#legend li[data-kind]")
    assert sorted(legend.nth(i).get_attribute("data-kind") for i in range(legend.count())) == kinds
    click = Clicker(page)
    for cell in solve(hexes).tolist()[1:]:
        click(*centres[cell])
    assert at(page) == (hexes.exit, "true")
    assert sorted(stored(page)) == sorted(f"mazeart-times {maze_key(m)}" for m in (square, hexes))
    assert errors == []


def test_a_grid_game_needs_both_ends():
    maze = grid_maze("hex")
    with pytest.raises(MazeartError, match="an entrance and an exit"):
        to_html(maze.replace(exit=None))


@pytest.mark.parametrize("kind", ["hex", "polar"])
def test_rooms_are_tinted_in_a_grid_game(kind, tmp_path, browser):
    rooms = {"units": "fraction", "rooms": [{"name": "hall", "rect": [0.3, 0.3, 0.4, 0.4],
                                             "doors": [[0.3, 0.5]]}]}  # fmt: skip
    maze = grid_maze(kind, seed=3, rooms=rooms)
    _, data = saved(maze)
    (hall,) = data["rooms"]
    page_file = tmp_path / "game.html"
    page_file.write_text(to_html(maze))
    page, errors = open_game(browser, page_file)
    centres = np.array(embedded(page)["levels"][0]["centres"]).reshape(-1, 2)
    ends = (data["entrance"], data["exit"])
    tinted = [pixel(page, *centres[c]) for c in hall["cells"] if c not in ends]
    assert tinted and all(p == rgb(GAME_COLOURS["room"]) for p in tinted)
    outside = [c for c in data["cells"] if c not in hall["cells"] and c not in ends]
    assert pixel(page, *centres[outside[0]]) != rgb(GAME_COLOURS["room"])
    assert errors == []
