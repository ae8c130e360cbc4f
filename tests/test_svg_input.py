"""SVG pictures as input: recognised by content, rasterised for the grid, traced like a PNG logo.

The reference for what a maze should cover is the logo's own geometry: a circle
and a rectangle whose share of every cell is computed here (exactly for the
rectangle, on a fine lattice of points for the circle), not drawn by any
renderer. Where Chromium is installed, its rendering of the same file is a
second reference.
"""

from __future__ import annotations

import gzip
import os
import shutil
import socket
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli
from PIL import Image

import mazeart
from mazeart import _svg
from mazeart._io import open_image
from mazeart.errors import FileFormatError, MazeartError
from mazeart.image import weights_from_image
from mazeart.mazefile import load_maze
from mazeart.weights import FREE

HINT = "reading SVG needs the optional renderer: pip install 'mazeart[svg]'"

# A logo in a 200 x 100 user space drawn at 400 x 200 px: a disc and a bar, edges off
# the 5-unit cells of a 40-cell grid so that few cells sit at exactly half coverage.
CX, CY, R = 50.0, 50.0, 38.0
X0, Y0, X1, Y1 = 106.0, 17.0, 187.0, 83.0
LOGO = f"""<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200" viewBox="0 0 200 100">
  <circle cx="{CX:g}" cy="{CY:g}" r="{R:g}" fill="#123456"/>
  <rect x="{X0:g}" y="{Y0:g}" width="{X1 - X0:g}" height="{Y1 - Y0:g}" fill="#123456"/>
</svg>
"""
CELLS = 40  # 5 user units a cell: a 20 x 40 grid


def expected_coverage(cells: int = CELLS) -> np.ndarray:
    """Each cell's share covered by the logo, from its geometry."""
    size = 200.0 / cells
    rows = round(cells * 100 / 200)
    edges_x = np.arange(cells + 1) * size
    edges_y = np.arange(rows + 1) * size
    # the bar: exact overlap of intervals
    ox = np.clip(np.minimum(edges_x[1:], X1) - np.maximum(edges_x[:-1], X0), 0, None)
    oy = np.clip(np.minimum(edges_y[1:], Y1) - np.maximum(edges_y[:-1], Y0), 0, None)
    bar = np.outer(oy, ox) / size**2
    # the disc: the share of a 64 x 64 lattice of points per cell inside it
    k = 64
    t = (np.arange(k) + 0.5) / k * size
    px = (edges_x[:-1, None] + t[None, :]).reshape(-1)
    py = (edges_y[:-1, None] + t[None, :]).reshape(-1)
    inside = (px[None, :] - CX) ** 2 + (py[:, None] - CY) ** 2 <= R**2
    disc = inside.reshape(rows, k, cells, k).mean(axis=(1, 3))
    return bar + disc  # the shapes do not overlap


def iou(a: np.ndarray, b: np.ndarray) -> float:
    return float((a & b).sum() / max(1, (a | b).sum()))


@pytest.fixture(scope="module")
def renderer():
    if not _svg._installed():
        if os.environ.get("MAZEART_REQUIRE_TOOLS"):
            pytest.fail("resvg-py is not installed (pip install 'mazeart[svg]')")
        pytest.skip("resvg-py is not installed")


@pytest.fixture
def logo(tmp_path: Path) -> Path:
    path = tmp_path / "logo.svg"
    path.write_text(LOGO, encoding="utf-8")
    return path


def alpha(img: Image.Image) -> np.ndarray:
    return np.asarray(img.getchannel("A"), dtype=np.float64) / 255.0


# ----------------------------------------------------------------------------- tracing


def test_the_picture_is_drawn_16_pixels_a_cell_on_a_transparent_canvas(renderer, logo):
    img = open_image(logo, grid=CELLS)
    assert img.mode == "RGBA" and img.size == (16 * CELLS, 8 * CELLS)
    a = alpha(img)
    assert a[0, 0] == 0 and a[-1, -1] == 0  # the corners are ground: transparent
    assert a[160, 160] == 1  # the disc's centre (50, 50) at 3.2 px a unit
    # coverage of the whole canvas: the shapes' area over the canvas's
    area = np.pi * R**2 + (X1 - X0) * (Y1 - Y0)
    assert a.mean() == pytest.approx(area / 20_000, rel=0.01)


def test_library_traces_an_svg_logo_as_its_geometry_says(renderer, logo):
    cover = expected_coverage()
    weights = weights_from_image(logo, cells=CELLS)
    assert weights.shape == cover.shape == (20, 40)
    free = weights == FREE
    clear = np.abs(cover - 0.5) > 0.1  # cells not balanced on the threshold
    assert np.array_equal(free[clear], cover[clear] >= 0.5)
    assert iou(free, cover >= 0.5) > 0.97


def test_make_carves_the_svg_logo(renderer, logo):
    made = mazeart.make(logo, cells=CELLS, rng=3)
    cover = expected_coverage()
    assert iou(made.preset == FREE, cover >= 0.5) > 0.97
    assert iou(made.maze.mask, cover >= 0.5) > 0.95  # the maze adds a bridge between shapes


def test_cli_traces_an_svg_logo(renderer, logo, tmp_path):
    res = run_cli(logo, "-o", "maze.json", "--cells", CELLS, "--seed", 5, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    maze = load_maze(tmp_path / "maze.json")
    cover = expected_coverage()
    assert maze.mask.shape == cover.shape
    assert iou(maze.mask, cover >= 0.5) > 0.95
    res = run_cli(logo, "-o", "maze.svg", "--cells", CELLS, "--seed", 5, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "maze.svg").read_text().lstrip().startswith(("<?xml", "<svg"))


def test_chromium_draws_the_same_figure(renderer, logo, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        if os.environ.get("MAZEART_REQUIRE_TOOLS"):
            pytest.fail("chromium is not installed")
        pytest.skip("chromium is not installed")
    page_file = tmp_path / "page.html"
    page_file.write_text(
        '<html><body style="margin:0;background:transparent">'
        '<img id="logo" src="logo.svg" style="display:block;width:640px;height:320px">'
        "</body></html>"
    )
    shot = tmp_path / "chromium.png"
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 640, "height": 320}, device_scale_factor=1)
        page.goto(page_file.as_uri())
        page.wait_for_function("document.getElementById('logo').naturalWidth > 0")
        page.screenshot(path=str(shot), omit_background=True)
        browser.close()
    ours, theirs = alpha(open_image(logo, grid=CELLS)), alpha(Image.open(shot).convert("RGBA"))
    assert theirs.shape == ours.shape
    assert np.abs(ours - theirs).mean() < 0.005
    assert iou(ours > 0.5, theirs > 0.5) > 0.99
    from_svg = weights_from_image(logo, cells=CELLS) == FREE
    from_png = weights_from_image(shot, cells=CELLS) == FREE
    assert iou(from_svg, from_png) > 0.98


# ----------------------------------------------------------------------------- size and form


def test_a_viewbox_alone_gives_the_aspect_ratio(renderer, tmp_path):
    path = tmp_path / "wide.svg"
    path.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="-50 10 300 100">'
        '<rect x="-50" y="10" width="150" height="100"/></svg>'
    )
    img = open_image(path, grid=30)
    assert img.size == (480, 160)
    a = alpha(img)
    assert a[:, :236].min() == 1 and a[:, 244:].max() == 0  # the left half, from x = -50
    weights = weights_from_image(path, cells=30)
    assert weights.shape == (10, 30)
    assert (weights[:, :15] == FREE).all() and not (weights[:, 15:] == FREE).any()


def test_without_a_grid_the_longer_side_gets_the_default(renderer, tmp_path):
    path = tmp_path / "tall.svg"
    path.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="1in" height="2in"/>')
    assert open_image(path).size == (_svg.DEFAULT_SIDE // 2, _svg.DEFAULT_SIDE)


def test_a_compressed_svg_reads_as_the_plain_one(renderer, logo, tmp_path):
    packed = tmp_path / "logo.svgz"
    packed.write_bytes(gzip.compress(logo.read_bytes()))
    plain, unpacked = open_image(logo, grid=20), open_image(packed, grid=20)
    assert np.array_equal(np.asarray(plain), np.asarray(unpacked))


@pytest.mark.parametrize("name", ["logo.png", "logo", "logo.txt.svg"])
def test_an_svg_is_known_by_its_content_not_its_name(renderer, tmp_path, name):
    prolog = (
        "\ufeff<?xml version='1.0' encoding='UTF-8' standalone='no'?>\n"
        "<!-- Created with a drawing program: <svg> in a comment is not the root -->\n"
        '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
        '"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [\n'
        '  <!ENTITY ns_svg "http://www.w3.org/2000/svg">\n'
        '  <!ENTITY fill "fill:#000">\n]>\n'
    )
    body = (
        '<svg xmlns="&ns_svg;" width="20" height="10">'
        '<rect style="&fill;" width="10" height="10"/></svg>'
    )
    path = tmp_path / name
    path.write_text(prolog + body, encoding="utf-8")
    a = alpha(open_image(path, grid=2))  # 32 x 16: the left half is the square
    assert a.shape == (16, 32)
    assert a[:, :16].min() == 1 and a[:, 16:].max() == 0


def test_other_xml_is_still_not_an_image(tmp_path):
    path = tmp_path / "page.svg"
    path.write_text("<?xml version='1.0'?><html><body><svg/></body></html>")
    with pytest.raises(FileFormatError, match="not an image"):
        open_image(path)


def test_an_svg_is_no_preset(tmp_path, logo):
    with pytest.raises(FileFormatError, match="cannot be a preset"):
        open_image(logo, cells=True)


def test_the_pixel_limit_shrinks_the_drawing_before_it_is_drawn(renderer, logo):
    with mazeart.limits(max_pixels=20_000):
        img = open_image(logo, grid=CELLS)  # 640 x 320 would be 204,800 px
    assert img.width * img.height <= 20_000
    assert img.size == (200, 100)


def test_a_drawing_too_thin_for_the_pixel_limit_is_refused_undrawn(tmp_path, monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("the drawing was rendered")

    monkeypatch.setattr(_svg, "_render", never)
    monkeypatch.setattr(_svg, "_installed", lambda: True)
    path = tmp_path / "thread.svg"
    path.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 5000"/>')
    with mazeart.limits(max_pixels=1000), pytest.raises(MazeartError, match="max_pixels"):
        open_image(path, grid=1)


# ----------------------------------------------------------------------------- safety


def test_a_linked_file_is_not_drawn(renderer, tmp_path):
    red = tmp_path / "red.png"
    Image.new("RGBA", (8, 8), (255, 0, 0, 255)).save(red)
    (tmp_path / "sub").mkdir()
    path = tmp_path / "sub" / "linked.svg"
    path.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="100" height="100">'
        '<rect width="10" height="10"/>'
        f'<image href="{red}" width="100" height="100"/>'
        f'<image xlink:href="{red.as_uri()}" width="100" height="100"/>'
        '<image href="../red.png" width="100" height="100"/>'
        '<image xlink:href="red.png" width="100" height="100"/>'
        "</svg>"
    )
    shutil.copy(red, tmp_path / "sub" / "red.png")
    a = alpha(open_image(path, grid=10))  # 160 x 160: the square is the top-left 16 x 16
    assert a[:16, :16].min() == 1
    a[:16, :16] = 0
    assert a.max() == 0


def test_embedded_data_is_drawn(renderer, tmp_path):
    import base64
    import io

    png = io.BytesIO()
    Image.new("RGBA", (8, 8), (255, 0, 0, 255)).save(png, "PNG")
    path = tmp_path / "embedded.svg"
    path.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">'
        f'<image href="data:image/png;base64,{base64.b64encode(png.getvalue()).decode()}" '
        'x="50" width="50" height="100" preserveAspectRatio="none"/></svg>'
    )
    a = alpha(open_image(path, grid=10))
    assert a[:, 84:].min() == 1 and a[:, :76].max() == 0


@pytest.fixture
def listener():
    """A TCP server on the loopback that records every connection made to it."""
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    server.settimeout(0.05)
    seen: list[tuple[str, int]] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, peer = server.accept()
            except TimeoutError:
                continue
            seen.append(peer)
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1], seen
    stop.set()
    thread.join()
    server.close()


def _drain(port: int, seen: list) -> int:
    """Connect once to the listener and wait until it has seen it: returns the count before."""
    before = len(seen)
    with socket.create_connection(("127.0.0.1", port)):
        pass
    while len(seen) == before:
        threading.Event().wait(0.01)
    return before


def test_nothing_is_fetched_from_the_network(renderer, tmp_path, listener):
    port, seen = listener
    url = f"http://127.0.0.1:{port}"
    path = tmp_path / "remote.svg"
    path.write_text(
        f'<?xml-stylesheet type="text/css" href="{url}/sheet.css"?>\n'
        f'<!DOCTYPE svg SYSTEM "{url}/svg.dtd">\n'
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'width="100" height="100">'
        f"<style>@import url({url}/import.css);</style>"
        '<rect width="10" height="10" fill="black"/>'
        f'<image href="{url}/a.png" width="100" height="100"/>'
        f'<use xlink:href="{url}/b.svg#shape"/>'
        f'<filter id="f"><feImage href="{url}/c.png"/></filter>'
        '<rect x="50" width="10" height="10" filter="url(#f)"/>'
        "</svg>"
    )
    a = alpha(open_image(path, grid=10))
    assert a[:16, :16].min() == 1
    # every connection made so far is counted before this one of our own
    assert _drain(port, seen) == 0


def test_cli_reads_no_linked_file_and_fetches_nothing(renderer, tmp_path, listener):
    port, seen = listener
    secret = tmp_path / "secret.png"
    Image.new("RGBA", (4, 4), (0, 0, 0, 255)).save(secret)
    path = tmp_path / "logo.svg"
    path.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        '<rect x="30" y="30" width="40" height="40"/>'
        f'<image href="{secret}" width="100" height="100"/>'
        f'<image href="http://127.0.0.1:{port}/x.png" width="100" height="100"/>'
        "</svg>"
    )
    res = run_cli(path, "-o", "maze.json", "--cells", 20, "--seed", 1, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    mask = load_maze(tmp_path / "maze.json").mask
    expected = np.zeros((20, 20), bool)
    expected[6:14, 6:14] = True  # the square, not the whole canvas the image would cover
    assert np.array_equal(mask, expected)
    assert _drain(port, seen) == 0


def _entities(depth: int = 9) -> str:
    lol = ['<!ENTITY l0 "lollollollol">']
    lol += [f'<!ENTITY l{i} "{("&l" + str(i - 1) + ";") * 10}">' for i in range(1, depth + 1)]
    return f"<!DOCTYPE svg [{''.join(lol)}]>"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>', "not a valid SVG (mismatched tag"),
        (
            _entities() + '<svg xmlns="http://www.w3.org/2000/svg"><text>&l9;</text></svg>',
            "not a valid SVG (limit on input amplification",
        ),
        (
            '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            '<svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>',
            "not a valid SVG (undefined entity",
        ),
        (
            '<svg xmlns="http://www.w3.org/2000/svg">' + "<g>" * 300 + "</g>" * 300 + "</svg>",
            f"nests elements over {_svg.MAX_DEPTH} deep",
        ),
        ('<svg xmlns="http://example.com/not-svg"/>', "its root element is {http://example.com"),
        (  # six levels of ten <use> each: a million copies, which the renderer refuses
            '<svg xmlns="http://www.w3.org/2000/svg"><defs><g id="u0"><rect width="1"/></g>'
            + "".join(
                f'<g id="u{i}">' + f'<use href="#u{i - 1}"/>' * 10 + "</g>" for i in range(1, 7)
            )
            + '</defs><use href="#u6"/></svg>',
            "not a valid SVG (SVG data parsing failed cause nodes limit reached)",
        ),
    ],
    ids=["malformed", "billion-laughs", "external-entity", "too-deep", "foreign-root", "use-bomb"],
)
def test_a_bad_svg_is_one_line_exit_2_and_no_output(renderer, tmp_path, content, message):
    path = tmp_path / "bad.svg"
    path.write_text(content)
    res = run_cli(path, "-o", "out.svg", cwd=tmp_path)
    assert res.returncode == 2
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr + res.stdout
    assert str(path) in res.stderr and message in res.stderr
    assert "root:" not in res.stderr  # nothing of /etc/passwd
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.svg"]


def test_compressed_svg_bombs_and_truncations_are_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(_svg, "_installed", lambda: True)
    bomb = tmp_path / "bomb.svgz"
    bomb.write_bytes(
        gzip.compress(b'<svg xmlns="http://www.w3.org/2000/svg">' + b" " * (_svg.MAX_BYTES + 1))
    )
    truncated = tmp_path / "cut.svgz"
    truncated.write_bytes(gzip.compress(LOGO.encode())[:-12])
    with pytest.raises(FileFormatError, match=f"unpacks to more than {_svg.MAX_BYTES >> 20} MiB"):
        open_image(bomb)
    with pytest.raises(FileFormatError, match="truncated"):
        open_image(truncated)


def test_an_oversized_file_is_not_read(tmp_path, monkeypatch):
    monkeypatch.setattr(_svg, "MAX_BYTES", 1000)
    monkeypatch.setattr(_svg, "_installed", lambda: True)
    path = tmp_path / "big.svg"
    path.write_text('<svg xmlns="http://www.w3.org/2000/svg">' + " " * 2000 + "</svg>")
    with pytest.raises(MazeartError, match="more than an SVG drawing can hold"):
        open_image(path)


# ----------------------------------------------------------------------------- the renderer


def test_a_missing_renderer_says_how_to_install_it(logo, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "resvg_py", None)  # import resvg_py now fails
    with pytest.raises(FileFormatError) as info:
        open_image(logo)
    assert str(info.value) == f"{logo}: {HINT}"
    res = run_cli(logo, "-o", "out.svg", cwd=tmp_path)
    assert res.returncode == 2
    assert res.stderr.strip().endswith(HINT) and res.stderr.count("\n") == 1
    assert not (tmp_path / "out.svg").exists()


@pytest.mark.parametrize(
    ("child", "message"),
    [
        ("import sys; sys.exit(3)", HINT),  # the renderer cannot be imported where it runs
        (
            "import sys; print('SVG has an invalid size'); sys.exit(4)",
            "not a valid SVG (SVG has an invalid size)",
        ),
        (
            "import sys; print('thread panicked:\\n  at usvg'); sys.exit(5)",
            "the SVG renderer failed on it (thread panicked: at usvg)",
        ),
        (
            "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)",
            "the SVG renderer failed on it (killed by SIGSEGV",
        ),
    ],
    ids=["not-importable", "refused", "panicked", "crashed"],
)
def test_what_befalls_the_renderer_is_one_line(logo, monkeypatch, child, message):
    if sys.platform == "win32" and "SIGSEGV" in message:
        pytest.skip("no signals on Windows")
    monkeypatch.setattr(_svg, "_CHILD", child)
    monkeypatch.setattr(_svg, "_installed", lambda: True)
    with pytest.raises(FileFormatError) as info:
        open_image(logo)
    text = str(info.value)
    assert text.startswith(f"{logo}: ") and message in text and "\n" not in text


def test_a_drawing_nested_as_deep_as_allowed_is_drawn(renderer, tmp_path):
    # resvg recurses once per level: on a default 8 MiB stack it crashes near 230 levels
    depth = _svg.MAX_DEPTH - 1
    path = tmp_path / "deep.svg"
    path.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
        + "<g>" * (depth - 1)
        + '<rect width="5" height="10"/>'
        + "</g>" * (depth - 1)
        + "</svg>"
    )
    a = alpha(open_image(path, grid=1))
    assert a[:, :8].min() == 1 and a[:, 8:].max() == 0
