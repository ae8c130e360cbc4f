"""The studio's server: one page, a handful of JSON requests, one maze made at a time.

Requests (each needs the token: in the page's address, then in an ``X-Mazeart-Token``
header):

``GET /?token=T``         the page
``GET /api/start``        what the page starts from: the picture's size, the design, the
                          choices of every control
``GET /api/picture``      the picture under the maze, as PNG
``POST /api/preview``     a design in, the maze drawn (SVG), where it lies on the picture,
                          the report line and the metrics out
``POST /api/export``      a design and a format in, the file the command line writes out
``POST /api/design``      a design in, its file out (the picture in it: it travels alone)
``POST /api/save``        a design in, written to the design file the studio opened
``POST /api/upload``      a picture's bytes in (at most :data:`MAX_UPLOAD`), the new start
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hmac
import http.server
import io
import json
import os
import secrets
import shutil
import signal
import socket
import sys
import tempfile
import threading
import urllib.parse
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np

from mazeart._jit import jit_mode
from mazeart.errors import MazeartError

__all__ = ["MAX_CELLS", "MAX_UPLOAD", "Studio", "serve"]

MAX_UPLOAD = 32 * 2**20
"""The largest picture the page may upload, in bytes."""

MAX_BODY = 64 * 2**20
"""The largest request body (a design with its paint)."""

MAX_CELLS = 400_000
"""The most cells a maze made in the studio may have (a preview is meant to be quick)."""

BUSY_SECONDS = 30.0
"""How long a request waits for the maze before it is refused: the work is bounded, not
queued forever."""

FORMATS = {
    "svg": "image/svg+xml",
    "png": "image/png",
    "pdf": "application/pdf",
    "json": "application/json",
    "html": "text/html",
    "tmj": "application/json",
    "tmx": "application/xml",
    "txt": "text/plain",
}
"""What the page exports: every format the command line writes, by its suffix."""

UNIT = 10.0
"""The preview's SVG units a cell."""

_PAINT_SIDE = 2048
"""The paint layer's longest side: the picture's own resolution up to this."""


class Studio:
    """What the studio serves: its source and the design it was started with.

    Parameters
    ----------
    source : str or path-like, optional
        A picture, a preset, a saved maze, a design file, or a source in words
        (``30x20``, ``text:HELLO``); ``40x30`` when omitted.
    folder : path-like
        A private folder for what the studio holds while it runs (uploads, a saved
        maze's preset); removed when it stops.
    """

    def __init__(self, source: str | os.PathLike[str] | None, *, folder: str | os.PathLike[str]):
        from mazeart.design import Design, is_design_file, load_design

        self.folder = Path(folder)
        self.lock = threading.Lock()
        self.save_to: Path | None = None  # the design file the studio opened
        self.base = Path.cwd()
        self.embedded: bytes | None = None  # an uploaded picture's file
        self.name = "maze"
        text = "40x30" if source is None else os.fspath(source)
        if source is not None and is_design_file(text):
            design, self.base = load_design(text)
            self.save_to = Path(text).resolve()
            self.name = Path(text).stem
        else:
            design = Design(source=self._own_source(text))
        self.design = design
        self._paint_cache: tuple[str, Any] = ("", None)
        self._load_picture()

    # ------------------------------------------------------------------ the source

    def _own_source(self, text: str) -> str:
        """The source as a design holds it: a file by its absolute path (a saved maze as
        its region, a preset of the studio's own folder), words as they are."""
        from mazeart._io import existing_file
        from mazeart.figures import in_words
        from mazeart.mazefile import is_maze_file

        if in_words(text):
            self.name = "maze"
            return text
        path = existing_file(text, "a picture, a preset, a saved maze or a design")
        self.name = path.stem
        if is_maze_file(path):
            from mazeart.pipeline import make_preset
            from mazeart.weights import save_preset

            held = self.folder / f"{path.stem}.npy"
            save_preset(make_preset(path), held)
            return str(held)
        return str(path.resolve())

    def _load_picture(self) -> None:
        """The picture the maze is laid over, and its size (a preset or words: drawn)."""
        from mazeart.figures import in_words
        from mazeart.pipeline import make

        d = self.design
        made = None
        if d.picture is None and Path(d.source).suffix.lower() not in (".npy", ".txt"):
            try:
                made = make(self._source_for(d), cells=8, rng=1)
            except MazeartError:
                made = None
        if made is not None and made.picture is not None:
            picture = made.picture
        else:  # a preset or a rectangle: its cells, free white and the rest grey
            made = self._make(replace(d, paint=None, rooms=(), tags=(), entrance=None, exit=None))
            picture = _preset_picture(made)
        self.picture = picture.convert("RGBA") if picture.mode not in ("RGB", "RGBA") else picture
        self.picture_png: bytes | None = None
        self._decoded = None  # a raster picture, decoded once for the previews
        if made.picture is not None and not in_words(d.source):
            from mazeart._io import open_image
            from mazeart._svg import is_svg

            path = self.base / d.source
            if d.picture is not None:
                path = self.folder / "picture"
                path.write_bytes(d.picture)
            if not is_svg(path):  # a drawing is rasterised for its grid: read it each time
                self._decoded = open_image(path)

    def _source_for(self, design: Any) -> Any:
        from mazeart.figures import in_words

        if design.picture is not None or in_words(design.source):
            return design.source
        return self.base / design.source

    def _make(self, design: Any, *, exact: bool = True) -> Any:
        """The design's maze; a preview (not ``exact``) reads the picture decoded once."""
        from mazeart._limits import limits
        from mazeart.pipeline import make_design

        read = None if exact else self._decoded
        with limits(max_cells=MAX_CELLS):
            return make_design(design, base=self.base, read=read)

    # ------------------------------------------------------------------ requests

    def start(self) -> dict[str, Any]:
        """What the page starts from."""
        from mazeart._rng import fresh_seed
        from mazeart.export._style import tag_colours
        from mazeart.generators import ALGORITHMS
        from mazeart.grids.recipe import GRID_KINDS
        from mazeart.recipe import DEFAULTS, MODES
        from mazeart.tags import TAG_KINDS

        if self.design.seed is None:  # a seed from the start: an edit changes what it edits
            self.design = replace(self.design, seed=fresh_seed())
        d = self.design.to_dict()
        paint = d.pop("paint")
        d.pop("picture")
        w, h = self.picture.size
        scale = min(1.0, _PAINT_SIDE / max(w, h))
        algorithms = {
            name: {"grids": list(a.grids), "geometries": list(a.geometries),
                   "options": dict(a.options), "description": a.description}
            for name, a in ALGORITHMS.items()
        }  # fmt: skip
        return {
            "name": self.name,
            "picture": {"width": w, "height": h},
            "paint_size": [max(1, round(w * scale)), max(1, round(h * scale))],
            "paint": None if paint is None else "data:image/png;base64," + paint["png"],
            "design": d,
            "save_to": None if self.save_to is None else self.save_to.name,
            "choices": {
                "grid": list(GRID_KINDS),
                "algorithm": algorithms,
                "mode": list(MODES),
                "outline": ["cells", "smooth"],
                "difficulty": ["easy", "medium", "hard"],
                "islands": ["connect", "separate"],
                "tags": list(TAG_KINDS),
                "tag_colours": tag_colours(),
                "formats": list(FORMATS),
                "max_upload": MAX_UPLOAD,
                "defaults": {k: v for k, v in DEFAULTS.items() if _plain(v)},
            },
        }

    def picture_bytes(self) -> bytes:
        """The picture under the maze, as PNG."""
        if self.picture_png is None:
            out = io.BytesIO()
            self.picture.save(out, format="PNG", compress_level=1)
            self.picture_png = out.getvalue()
        return self.picture_png

    def design_from(self, doc: Mapping[str, Any]) -> Any:
        """The design a page sends: its paint (a PNG data URL, or the last one by its
        version), rooms, ends, tags, options and seed, over the studio's source."""
        from mazeart.design import Design

        if not isinstance(doc, Mapping):
            raise MazeartError("a design is a JSON object")
        paint = self._paint(doc.get("paint"), str(doc.get("paint_version", "")))
        options = doc.get("options") or {}
        if not isinstance(options, Mapping):
            raise MazeartError("options are a JSON object")
        options = {k: v for k, v in options.items() if v is not None and v != ""}
        held = {"format": "mazeart-design", "version": 1, "source": self.design.source,
                "rooms": doc.get("rooms") or [], "entrance": doc.get("entrance"),
                "exit": doc.get("exit"), "tags": doc.get("tags") or [], "options": options,
                "seed": doc.get("seed")}  # fmt: skip
        if self.design.picture is not None:
            held["picture"] = {"data": base64.b64encode(self.design.picture).decode()}
        design = Design.from_dict(held)
        return replace(design, paint=paint) if paint is not None else design

    def _paint(self, value: Any, version: str) -> Any:
        """A paint layer from a PNG data URL (kept by its version: the page sends it only
        when it changed)."""
        from PIL import Image

        from mazeart.image import paint_layer

        if value is None:
            return None
        if value == "same":
            if self._paint_cache[0] != version:
                raise MazeartError("the paint changed; send it again")
            return self._paint_cache[1]
        if not isinstance(value, str) or not value.startswith("data:image/png;base64,"):
            raise MazeartError("the paint is a PNG data URL")
        try:
            raw = base64.b64decode(value.split(",", 1)[1], validate=True)
            with Image.open(io.BytesIO(raw)) as img:
                if img.width * img.height > 4 * _PAINT_SIDE**2:
                    raise MazeartError("the paint layer is larger than the page paints")
                layer = paint_layer(img)
        except (binascii.Error, OSError):
            raise MazeartError("the paint is not a PNG") from None
        held = layer if layer.any() else None
        self._paint_cache = (version, held)
        return held

    @contextmanager
    def _turn(self) -> Iterator[None]:
        """One maze at a time; a request that would wait too long is refused."""
        if not self.lock.acquire(timeout=BUSY_SECONDS):
            raise MazeartError("the studio is busy with another maze; try again")
        try:
            yield
        finally:
            self.lock.release()

    def warm(self) -> None:
        """Make one maze of the start before the page asks: the kernels a preview runs are
        compiled (or loaded from numba's cache) while the page loads."""
        with contextlib.suppress(Exception):
            self.preview({"options": dict(self.design.options), "seed": 1})

    def preview(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        """The maze of a design, drawn, with where it lies on the picture and its numbers."""
        from mazeart.analyze import measure
        from mazeart.export import to_svg

        design = self.design_from(doc)
        with self._turn():
            made = self._make(design, exact=False)
            maze = made.maze
            solution = bool(doc.get("solution"))
            svg = to_svg(maze, margin=0, cell_size=UNIT, background="transparent",
                         solution=solution and maze.entrance is not None)  # fmt: skip
            m = measure(maze)
            places = made.places()
        metrics = {"cells": int(maze.n_cells), "solution_length": int(m.solution_length),
                   "dead_ends": int(m.dead_ends),
                   "difficulty": round(float(m.difficulty), 3)}  # fmt: skip
        if made.picture is not None and maze.is_square and made.preset is not None:
            from mazeart.guide import fidelity

            fid = fidelity(maze, made.picture, threshold=made.threshold, invert=made.invert)
            metrics["fidelity"] = round(float(fid["iou"]), 3)
        ends = {}
        for name in ("entrance", "exit"):
            cell = getattr(maze, name)
            if cell is not None:
                x, y = places[maze.cell_index(cell)]
                ends[name] = {"x": round(float(x), 5), "y": round(float(y), 5)}
        return {
            "svg": svg,
            "box": _placement(maze, places),
            "size": [float(v) for v in maze.grid.size],
            "unit": UNIT,
            "summary": made.summary(),
            "warnings": list(made.warnings),
            "metrics": metrics,
            "ends": ends,
            "seed": int(maze.meta.get("seed", 0)),
        }

    def export(self, doc: Mapping[str, Any], fmt: str) -> tuple[bytes, str, str]:
        """The file the command line writes for the design, in format ``fmt``: its bytes,
        its name and its type."""
        from mazeart.pipeline import save

        if fmt not in FORMATS:
            raise MazeartError(f"the studio exports {', '.join(FORMATS)}, not {fmt!r}")
        design = self.design_from(doc)
        with self._turn():
            made = self._make(design)
            with tempfile.TemporaryDirectory(dir=self.folder) as out:
                path = Path(out) / f"{self.name}.{fmt}"
                save(made, path)
                return path.read_bytes(), path.name, FORMATS[fmt]

    def design_file(self, doc: Mapping[str, Any]) -> tuple[bytes, str]:
        """The design's file, its picture held in it (so that it travels alone)."""
        design = self.design_from(doc)
        if design.picture is None and not _words(design.source):
            data = (self.base / design.source).read_bytes()
            design = replace(design, source="embedded", picture=data)
        text = json.dumps(design.to_dict(), indent=1) + "\n"
        return text.encode("utf-8"), f"{self.name}.design.json"

    def save(self, doc: Mapping[str, Any]) -> str:
        """Write the design to the design file the studio opened; returns its name."""
        from mazeart.design import save_design

        if self.save_to is None:
            raise MazeartError("the studio was not opened on a design file: download it")
        design = self.design_from(doc)
        save_design(design, self.save_to)
        self.design = design
        return self.save_to.name

    def upload(self, data: bytes, name: str) -> dict[str, Any]:
        """A new picture: read with the command line's checks, then the new start."""
        from mazeart._io import open_image
        from mazeart.design import Design

        if len(data) > MAX_UPLOAD:
            raise MazeartError(f"the picture is larger than {MAX_UPLOAD // 2**20} MiB")
        held = self.folder / "upload"
        held.write_bytes(data)
        open_image(held)  # one line for anything Pillow (or the SVG reader) refuses
        self.design = Design(source="embedded", picture=data, options=self.design.options)
        self.save_to = None
        stem = Path(name).stem.strip() or "maze"
        self.name = "".join(c for c in stem if c.isalnum() or c in "-_ ")[:60] or "maze"
        self._load_picture()
        return self.start()


def _words(source: str) -> bool:
    from mazeart.figures import in_words

    return in_words(source)


def _plain(value: Any) -> bool:
    return value is None or isinstance(value, bool | int | float | str)


def _preset_picture(made: Any) -> Any:
    """A preset's cells as a picture, 8 pixels a cell: free white, the rest light grey."""
    from PIL import Image

    from mazeart.weights import FREE

    preset = made.preset if made.preset is not None else np.zeros(made.maze.shape, np.int32)
    grey = np.where(preset == FREE, 255, 225).astype(np.uint8)
    return Image.fromarray(np.kron(grey, np.ones((8, 8), np.uint8)), "L").convert("RGB")


def _placement(maze: Any, places: np.ndarray) -> list[float]:
    """Where the grid's drawing lies on the picture: ``[x0, y0, x1, y1]`` in fractions of
    it, for the grid's origin and its far corner (a cell's place is an affine map of its
    centre)."""
    g = maze.grid
    centres = g.centres
    pick = np.linspace(0, len(centres) - 1, min(len(centres), 64)).astype(int)
    box = []
    for axis in (0, 1):
        c, p = centres[pick, axis], places[pick, axis]
        span = float(c.max() - c.min())
        a = float((p.max() - p.min()) / span) if span > 0 else 1.0 / float(g.size[axis])
        b = float(np.mean(p - a * c))
        box.append((b, b + a * float(g.size[axis])))
    return [box[0][0], box[1][0], box[0][1], box[1][1]]


# ----------------------------------------------------------------------------- HTTP


def _page(token: str) -> bytes:
    text = files("mazeart.studio").joinpath("page.html").read_text("utf-8")
    return text.replace("__TOKEN__", token).encode("utf-8")


class _Handler(http.server.BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass  # a quiet server: the terminal shows the address and errors only

    # -------------------------------------------------------------- checks

    def _allowed(self, token: str | None) -> bool:
        """The request is the page's own: its Host and Origin are the server's, and it
        carries the token."""
        own = self.server.own_hosts
        if self.headers.get("Host", "") not in own:
            self._send(403, {"error": "this server answers to its own address only"})
            return False
        origin = self.headers.get("Origin")
        if origin is not None and origin.removeprefix("http://") not in own:
            self._send(403, {"error": "requests from other pages are refused"})
            return False
        if token is None or not hmac.compare_digest(token, self.server.token):
            self._send(403, {"error": "the studio's address holds a token: open that address"})
            return False
        return True

    def _send(self, code: int, body: Any, kind: str = "application/json",
              name: str | None = None) -> None:  # fmt: skip
        data = body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Content-Security-Policy", "default-src 'self' 'unsafe-inline' blob: "
                         "data:; connect-src 'self'; frame-ancestors 'none'")  # fmt: skip
        if name is not None:
            self.send_header("Content-Disposition", f'attachment; filename="{name}"')
        self.end_headers()
        self.wfile.write(data)

    def _body(self, limit: int) -> bytes | None:
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            length = -1
        if length < 0 or length > limit:
            self.close_connection = True
            self._send(413, {"error": f"the request is larger than {limit // 2**20} MiB"})
            return None
        return self.rfile.read(length)

    # -------------------------------------------------------------- routes

    def do_GET(self) -> None:
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        if url.path == "/":
            if self._allowed(query.get("token", [""])[0] or None):
                self._send(200, _page(self.server.token), "text/html; charset=utf-8")
            return
        if not self._allowed(self.headers.get("X-Mazeart-Token")):
            return
        studio = self.server.studio
        if url.path == "/api/start":
            self._answer(studio.start)
        elif url.path == "/api/picture":
            self._send(200, studio.picture_bytes(), "image/png")
        else:
            self._send(404, {"error": "no such page"})

    def do_POST(self) -> None:
        url = urllib.parse.urlsplit(self.path)
        if not self._allowed(self.headers.get("X-Mazeart-Token")):
            return
        studio = self.server.studio
        if url.path == "/api/upload":
            data = self._body(MAX_UPLOAD)
            if data is not None:
                name = urllib.parse.parse_qs(url.query).get("name", ["picture"])[0]
                self._answer(lambda: studio.upload(data, name))
            return
        body = self._body(MAX_BODY)
        if body is None:
            return
        try:
            doc = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            self._send(400, {"error": "the request is not JSON"})
            return
        if url.path == "/api/preview":
            self._answer(lambda: studio.preview(doc))
        elif url.path == "/api/save":
            self._answer(lambda: {"saved": studio.save(doc)})
        elif url.path == "/api/design":
            self._file(lambda: (*studio.design_file(doc), "application/json"))
        elif url.path == "/api/export":
            fmt = str(urllib.parse.parse_qs(url.query).get("format", [""])[0])
            self._file(lambda: studio.export(doc, fmt))
        else:
            self._send(404, {"error": "no such request"})

    def _answer(self, work: Callable[[], Any]) -> None:
        try:
            self._send(200, work())
        except (MazeartError, TypeError) as err:  # the user's mistake: one line
            self._send(400, {"error": _line(err)})

    def _file(self, work: Callable[[], tuple[bytes, str, str]]) -> None:
        try:
            data, name, kind = work()
        except (MazeartError, TypeError) as err:
            self._send(400, {"error": _line(err)})
            return
        self._send(200, data, kind, name)


def _line(err: BaseException) -> str:
    from mazeart.errors import printable

    return printable(str(err)).splitlines()[0] if str(err) else type(err).__name__


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = False

    def __init__(self, address: tuple[str, int], studio: Studio, token: str, names: list[str]):
        self.studio = studio
        self.token = token
        super().__init__(address, _Handler)
        port = self.server_address[1]
        self.own_hosts = {f"{name}:{port}" for name in names}


def serve(
    source: str | os.PathLike[str] | None = None,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    browser: bool = True,
    ready: Callable[[str], None] | None = None,
) -> None:
    """Serve the studio until Ctrl-C or SIGTERM, then stop with nothing left behind.

    Parameters
    ----------
    source : str or path-like, optional
        What to start from (see :class:`Studio`).
    host : str, default "127.0.0.1"
        The address to listen on; another than the loopback's lets other machines in.
    port : int, default 0
        The port (0: a free one).
    browser : bool, default True
        Open the page in the browser.
    ready : callable, optional
        Called with the page's address (token included) once the server listens;
        by default it is printed.
    """
    folder = Path(tempfile.mkdtemp(prefix="mazeart-studio-"))
    try:
        studio = Studio(source, folder=folder)
        token = secrets.token_urlsafe(24)
        names = ["127.0.0.1", "localhost"] if host in ("127.0.0.1", "localhost") else [host]
        try:
            httpd = _Server((host, port), studio, token, names)
        except OSError as err:
            raise MazeartError(f"cannot listen on {host}:{port} ({err.strerror or err})") from None
        shown = names[0] if ":" not in names[0] else f"[{names[0]}]"
        url = f"http://{shown}:{httpd.server_address[1]}/?token={token}"
        stop = threading.Event()

        def halt(signum: int, frame: Any) -> None:
            stop.set()
            threading.Thread(target=httpd.shutdown, daemon=True).start()

        previous = signal.signal(signal.SIGTERM, halt)
        compiled = jit_mode("always")  # a server's kernels are worth compiling (or loading)
        compiled.__enter__()
        threading.Thread(target=studio.warm, daemon=True).start()
        try:
            (ready or _announce)(url)
            if browser:
                import webbrowser

                threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
            httpd.serve_forever(poll_interval=0.2)
        except BaseException as exc:  # Ctrl-C (as the command line raises it) ends the serving
            from mazeart._signals import stopped

            if not isinstance(exc, KeyboardInterrupt) and stopped(exc) is None:
                raise
        finally:
            signal.signal(signal.SIGTERM, previous)
            httpd.server_close()
            compiled.__exit__(None, None, None)
            if studio.lock.acquire(timeout=10):  # a maze being written finishes first
                studio.lock.release()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _announce(url: str) -> None:
    sys.stdout.write(f"mazeart studio: {url}\n(Ctrl-C stops it)\n")
    sys.stdout.flush()


def free_port() -> int:
    """A port free on the loopback address now (for tests and benchmarks)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
