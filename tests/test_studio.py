"""The studio, used as a designer uses it: the real command serving the page, driven in real
Chromium (Playwright), its downloads read by mazeart's reader and compared with what the
command line writes. Its guards are tried with plain HTTP requests.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import pytest
from conftest import REPO

import mazeart

HORSE = REPO / "samples" / "horse.png"
EPOCH = "1767225600"  # the PDFs' date, the same for the studio and the command line


class Served:
    """A running ``mazeart studio``: its address, token and process."""

    def __init__(self, source: Path | str, tmp: Path):
        self.temp = tmp / "temp"
        self.temp.mkdir(exist_ok=True)
        env = {**os.environ, "PYTHONPATH": str(REPO), "TMPDIR": str(self.temp),
               "SOURCE_DATE_EPOCH": EPOCH}  # fmt: skip
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mazeart", "studio", str(source), "--no-browser"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp,
        )  # fmt: skip
        line = self.proc.stdout.readline()
        found = re.search(r"(http://[\d.]+:(\d+)/\?token=(\S+))", line)
        if found is None:
            self.proc.kill()
            raise AssertionError(f"no address: {line!r} {self.proc.stderr.read()}")
        self.url, self.port, self.token = found.group(1), int(found.group(2)), found.group(3)
        self.root = f"http://127.0.0.1:{self.port}"

    def request(self, path: str, *, data: bytes | None = None, headers: dict | None = None,
                token: bool = True) -> tuple[int, bytes]:  # fmt: skip
        head = {"X-Mazeart-Token": self.token} if token else {}
        head.update(headers or {})
        req = urllib.request.Request(self.root + path, data=data, headers=head)
        try:
            with urllib.request.urlopen(req, timeout=60) as res:
                return res.status, res.read()
        except urllib.error.HTTPError as err:
            return err.code, err.read()

    def stop(self, signum: int = signal.SIGINT) -> tuple[int, str]:
        if self.proc.poll() is None:
            self.proc.send_signal(signum)
        code = self.proc.wait(timeout=30)
        return code, self.proc.stdout.read()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("studio")
    shutil.copy(HORSE, tmp / "horse.png")
    s = Served(tmp / "horse.png", tmp)
    yield s
    s.stop()


class Page:
    """The studio's page in Chromium, with the designer's gestures in picture fractions."""

    def __init__(self, browser, served: Served):
        size = {"width": 1400, "height": 900}
        self.ctx = browser.new_context(viewport=size, accept_downloads=True)
        self.page = self.ctx.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(served.url)
        self.previews = 0
        self.settled()

    def settled(self) -> None:
        """Wait for the next preview to come back (each change ends in one)."""
        self.previews += 1
        self.page.wait_for_selector(f'body[data-previews="{self.previews}"], body[data-errors]',
                                    timeout=60_000)  # fmt: skip
        self.page.wait_for_timeout(50)
        self.previews = int(self.page.get_attribute("body", "data-previews") or 0)

    def at(self, x: float, y: float) -> tuple[float, float]:
        box = self.page.locator("#overlay").bounding_box()
        return box["x"] + x * box["width"], box["y"] + y * box["height"]

    def drag(self, a: tuple[float, float], b: tuple[float, float], steps: int = 12) -> None:
        m = self.page.mouse
        m.move(*self.at(*a))
        m.down()
        m.move(*self.at(*b), steps=steps)
        m.up()

    def click(self, x: float, y: float) -> None:
        self.page.mouse.click(*self.at(x, y))

    def tool(self, name: str) -> None:
        self.page.click(f'#tools button[data-tool="{name}"]')

    def download(self, selector: str) -> bytes:
        with self.page.expect_download() as got:
            self.page.click(selector)
        return Path(got.value.path()).read_bytes()

    def export(self, fmt: str) -> bytes:
        self.page.select_option("#format", fmt)
        return self.download("#export")

    def close(self) -> None:
        assert not self.errors, self.errors
        self.ctx.close()


@pytest.fixture
def page(browser, served):
    p = Page(browser, served)
    yield p
    p.close()


def saved(data: bytes, tmp_path: Path) -> mazeart.Maze:
    path = tmp_path / "maze.json"
    path.write_bytes(data)
    return mazeart.load_maze(path)


def square_place(maze, cell) -> tuple[float, float]:
    r, c = cell
    return (c + 0.5) / maze.width, (r + 0.5) / maze.height


# ----------------------------------------------------------------------------- in the browser


def test_a_painted_stroke_keeps_the_maze_off_those_cells(page, tmp_path):
    page.page.fill("#seed", "3")
    page.page.press("#seed", "Enter")
    page.settled()
    before = saved(page.export("json"), tmp_path)
    page.tool("out")
    page.page.fill("#brush", "40")
    page.page.dispatch_event("#brush", "input")
    page.drag((0.30, 0.45), (0.62, 0.45), steps=20)  # across the horse's body
    page.settled()
    maze = saved(page.export("json"), tmp_path)
    band = [(r, c) for r in range(maze.height) for c in range(maze.width)
            if 0.32 < square_place(maze, (r, c))[0] < 0.60
            and abs(square_place(maze, (r, c))[1] - 0.45) < 0.01]  # fmt: skip
    assert band and before.mask[tuple(np.array(band).T)].all()  # maze there before
    assert not maze.mask[tuple(np.array(band).T)].any()  # and none after


def test_a_room_with_two_doors_and_the_exit_on_the_nose(page, tmp_path):
    page.tool("room")
    page.drag((0.40, 0.38), (0.55, 0.50))
    page.settled()
    page.tool("door")
    page.click(0.47, 0.38)  # its top wall
    page.settled()
    page.click(0.47, 0.50)  # its bottom wall
    page.settled()
    nose = (0.96, 0.28)
    exit_ = page.page.locator('#overlay circle[data-end="exit"]').bounding_box()
    o = page.page.locator("#overlay").bounding_box()
    page.drag(((exit_["x"] + exit_["width"] / 2 - o["x"]) / o["width"],
               (exit_["y"] + exit_["height"] / 2 - o["y"]) / o["height"]), nose)  # fmt: skip
    page.settled()
    maze = saved(page.export("json"), tmp_path)
    (room,) = maze.rooms
    assert len(room.doors) == 2
    x, y = square_place(maze, maze.exit)
    assert np.hypot(x - nose[0], y - nose[1]) < 0.08
    assert maze.door_wall(maze.exit) >= 0
    page.page.screenshot(path=str(tmp_path / "studio.png"))


def test_hex_undo_redo_and_the_command_line_draws_the_same(page, tmp_path):
    page.page.select_option("#grid", "hex")
    page.settled()
    assert "hex grid" in page.page.inner_text("#summary")
    page.tool("out")
    page.drag((0.30, 0.45), (0.60, 0.45))
    page.settled()
    painted = page.page.inner_text("#summary")
    page.page.keyboard.press("Control+z")
    page.settled()
    undone = page.page.inner_text("#summary")
    page.page.keyboard.press("Control+Shift+z")
    page.settled()
    assert page.page.inner_text("#summary") == painted != undone
    exported = {fmt: page.export(fmt) for fmt in ("svg", "pdf")}
    design = tmp_path / "d.json"
    design.write_bytes(page.download("#download"))
    doc = json.loads(design.read_text())
    assert doc["options"]["grid"] == "hex" and doc["paint"] is not None and doc["seed"] is not None
    for fmt, data in exported.items():
        out = tmp_path / f"cli.{fmt}"
        run = subprocess.run([sys.executable, "-m", "mazeart", str(design), "-o", str(out)],
                             capture_output=True, text=True,
                             env={**os.environ, "PYTHONPATH": str(REPO),
                                  "SOURCE_DATE_EPOCH": EPOCH})  # fmt: skip
        assert run.returncode == 0, run.stderr
        assert out.read_bytes() == data, fmt


def test_a_route_drawn_with_the_mouse_is_the_solution(page, tmp_path):
    page.tool("route")
    page.drag((0.25, 0.45), (0.60, 0.45), steps=15)  # along the horse's body
    page.settled()
    assert "route" in page.page.inner_text("#summary")
    maze = saved(page.export("json"), tmp_path)
    assert maze.meta["algorithm"] == "route"
    path = [square_place(maze, c) for c in mazeart.solve(maze)]
    for x in (0.3, 0.4, 0.5, 0.58):  # the solution passes along the line drawn
        assert min(np.hypot(px - x, py - 0.45) for px, py in path) < 1.5 / maze.width
    page.page.click("#clear-route")
    page.settled()
    assert "route" not in page.page.inner_text("#summary").split(",")[0]


def test_a_bad_upload_is_one_line_in_the_page(page, tmp_path):
    bad = tmp_path / "broken.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n not really")
    page.page.set_input_files("#upload", str(bad))
    page.page.wait_for_selector("#error:not(:empty)", timeout=30_000)
    text = page.page.inner_text("#error")
    assert "\n" not in text and ("not an image" in text or "corrupt" in text)
    page.page.fill("#cells", "30")  # the server keeps going
    page.page.dispatch_event("#cells", "change")
    page.settled()
    assert "30 x" in page.page.inner_text("#summary")
    assert "token" not in page.page.url  # it left the address bar; a reload finds the cookie
    page.page.reload()
    page.previews = 0
    page.settled()
    assert page.page.inner_text("#error") == ""


# ----------------------------------------------------------------------------- the guards


def test_requests_without_the_token_or_from_elsewhere_are_refused(served):
    assert served.request("/api/start")[0] == 200
    assert served.request("/api/start", token=False)[0] == 403
    assert served.request("/", token=False)[0] == 403
    assert served.request(f"/?token={served.token}", token=False)[0] == 200
    assert served.request("/api/start", headers={"Host": f"evil.example:{served.port}"})[0] == 403
    assert served.request("/api/start", headers={"Origin": "http://evil.example"})[0] == 403
    import http.client  # a body too large is refused on its length, before it is read

    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
    conn.putrequest("POST", "/api/upload?name=x.png")
    conn.putheader("X-Mazeart-Token", served.token)
    conn.putheader("Content-Length", str(33 * 2**20))
    conn.endheaders()
    res = conn.getresponse()
    assert res.status == 413 and b"larger than" in res.read()
    conn.close()
    code, body = served.request("/api/preview", data=b'{"options": {"cells": "many"}}')
    assert code == 400 and len(json.loads(body)["error"].splitlines()) == 1
    code, body = served.request("/api/preview", data=b'{"options": {"cells": 40}}')
    assert code == 200 and json.loads(body)["metrics"]["cells"] > 100
    assert served.request("/api/start", headers={"X-Mazeart-Token": "\u00e9"})[0] == 403


def one_line(code_body: tuple[int, bytes]) -> str:
    code, body = code_body
    assert code == 400, body
    (line,) = json.loads(body)["error"].splitlines()
    return line


def test_hostile_requests_get_one_line_and_the_server_goes_on(served, tmp_path):
    import base64
    import struct
    import zlib

    assert "thousands of digits" in one_line(served.request(
        "/api/preview", data=b'{"seed": ' + b"9" * 5000 + b"}"))  # fmt: skip
    assert "nested too deeply" in one_line(served.request("/api/preview", data=b"[" * 100_000))
    from PIL import Image

    small = __import__("io").BytesIO()
    Image.new("RGBA", (4, 4)).save(small, format="PNG")
    for side in (5_000, 100_000):  # a paint whose header claims that many: refused unread
        png = bytearray(small.getvalue())
        png[16:24] = struct.pack(">II", side, side)
        png[29:33] = struct.pack(">I", zlib.crc32(bytes(png[12:29])))
        paint = "data:image/png;base64," + base64.b64encode(bytes(png)).decode()
        body = json.dumps({"paint": paint}).encode()
        assert "than a paint layer may be" in one_line(served.request("/api/preview", data=body))
    tags = [{"kind": "loot", "x": 0.5, "y": 0.5}] * 1001
    assert "at most 1000 tags" in one_line(served.request(
        "/api/preview", data=json.dumps({"tags": tags}).encode()))  # fmt: skip
    font = {"options": {"font": "/etc/passwd"}}
    assert "no font" in one_line(served.request("/api/preview", data=json.dumps(font).encode()))
    chosen = {"options": {"algorithm": "growing-tree", "select": "newest"}, "seed": 1}
    assert served.request("/api/preview", data=json.dumps(chosen).encode())[0] == 200
    code, body = served.request("/api/export?format=tmj", data=b'{"options": {"cells": 30}}')
    import zipfile

    names = zipfile.ZipFile(__import__("io").BytesIO(body)).namelist()
    assert code == 200 and sorted(names) == ["horse.tiles.png", "horse.tmj"]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_the_studio_stops_on_a_signal_and_leaves_nothing(tmp_path, signum):
    s = Served("30x20", tmp_path)
    assert s.request("/api/preview", data=b'{"options": {}}')[0] == 200
    code, body = s.request("/api/export?format=png", data=b'{"options": {}}')
    assert code == 200 and body.startswith(b"\x89PNG")
    code, out = s.stop(signum)
    assert code == 0 and "stopped" in out
    assert list(s.temp.iterdir()) == []


def test_an_uploaded_picture_is_the_one_under_the_maze(tmp_path):
    from PIL import Image

    s = Served("30x20", tmp_path)
    try:
        pic = Image.new("L", (200, 150), 255)
        pic.paste(0, (40, 30, 160, 120))
        up = tmp_path / "box.png"
        pic.save(up)
        code, body = s.request("/api/upload?name=box%20%D0%A4.png", data=up.read_bytes())
        assert code == 200 and json.loads(body)["picture"] == {"width": 200, "height": 150}
        code, shown = s.request("/api/picture")
        assert Image.open(__import__("io").BytesIO(shown)).size == (200, 150)
        code, body = s.request("/api/design", data=b'{"options": {"cells": 20}, "seed": 3}')
        assert code == 200
        design = tmp_path / "box.design.json"
        design.write_bytes(body)
        assert json.loads(body)["source"] == "embedded"
        maze = mazeart.make(design).maze
        assert maze.n_cells == 12 * 9  # the box: 120 x 90 of 200 x 150 pixels, 20 cells across
    finally:
        s.stop()


def test_the_page_starts_while_a_maze_is_being_made(tmp_path):
    """The page's start and its picture do not wait for the maze in hand (the first
    preview may spend a while compiling kernels on a fresh install, beyond the time a
    request waits for a maze): they answer at once, and a second maze is refused."""
    import threading
    import time

    from mazeart.errors import MazeartError
    from mazeart.studio import Studio
    from mazeart.studio import server as studio_server

    studio = Studio(str(REPO / "samples" / "horse.png"), folder=tmp_path)
    held, release = threading.Event(), threading.Event()

    def busy() -> None:
        with studio._turn():
            held.set()
            release.wait(30)

    worker = threading.Thread(target=busy)
    worker.start()
    try:
        assert held.wait(10)
        started = time.perf_counter()
        assert studio.start()["picture"]["width"] == 400
        assert studio.picture_bytes().startswith(b"\x89PNG")
        assert time.perf_counter() - started < 5
        old, studio_server.BUSY_SECONDS = studio_server.BUSY_SECONDS, 0.2
        try:
            with pytest.raises(MazeartError, match="busy"):
                studio.preview({"options": {}, "seed": 1})
        finally:
            studio_server.BUSY_SECONDS = old
    finally:
        release.set()
        worker.join()


@pytest.mark.parametrize("kind", ["preset", "saved maze"])
def test_the_studio_starts_from_a_preset_or_a_saved_maze(tmp_path, kind):
    from mazeart.studio import Studio

    source = tmp_path / ("p.npy" if kind == "preset" else "m.json")
    preset = np.zeros((12, 20), np.int32)
    preset[:6, :10] = mazeart.FORBIDDEN
    if kind == "preset":
        mazeart.save_preset(preset, source)
    else:
        mazeart.save(mazeart.make(preset, rng=1), source)
    studio = Studio(source, folder=tmp_path)
    start = studio.start()
    assert start["picture"]["width"] / start["picture"]["height"] == pytest.approx(20 / 12)
    shown = studio.preview({"options": {}, "seed": 2})
    assert shown["metrics"]["cells"] == 20 * 12 - 6 * 10
    assert shown["box"] == pytest.approx([0, 0, 1, 1])


def test_a_design_opens_again_and_saves_where_it_came_from(browser, tmp_path):
    """Opened on a design file, the studio shows that design (its seed, its paint) and Save
    writes the file back; the command line renders what was saved."""
    design = tmp_path / "d.json"
    shutil.copy(REPO / "tests" / "fixtures" / "design-v1.json", design)
    s = Served(design, tmp_path)
    try:
        p = Page(browser, s)
        assert p.page.input_value("#seed") == "11"
        assert "seed 11" in p.page.inner_text("#summary") and "1 room" in p.page.inner_text(
            "#summary"
        )
        p.page.fill("#cells", "20")
        p.page.dispatch_event("#cells", "change")
        p.settled()
        p.page.click("#save")
        p.page.wait_for_selector('body[data-saved="d.json"]', state="attached", timeout=30_000)
        p.close()
    finally:
        s.stop()
    doc = json.loads(design.read_text())
    assert doc["options"]["cells"] == 20 and doc["seed"] == 11 and doc["source"] == "24x16"
    assert doc["paint"] is not None and len(doc["rooms"]) == 1
    out = tmp_path / "m.json"
    run = subprocess.run([sys.executable, "-m", "mazeart", str(design), "-o", str(out)],
                         capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(REPO)})  # fmt: skip
    assert run.returncode == 0, run.stderr
    maze = mazeart.load_maze(out)
    assert maze.meta["seed"] == 11 and not maze.mask[: maze.height // 2, : maze.width // 2].any()
