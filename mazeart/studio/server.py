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
import hashlib
import hmac
import http.cookies
import http.server
import io
import json
import os
import secrets
import shutil
import signal
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

from mazeart._io import load_json
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
        A private folder for what the studio holds while it runs (uploads, a preset
        read from a file); removed when it stops.
    """

    def __init__(self, source: str | os.PathLike[str] | None, *, folder: str | os.PathLike[str]):
        from mazeart.design import Design, is_design_file, load_design

        self.folder = Path(folder)
        self.lock = threading.Lock()  # one maze at a time
        # the design, picture and name, read and set in a moment: the page's start never
        # waits for a maze (the first preview may be compiling the kernels for a while)
        self.state = threading.Lock()
        self.save_to: Path | None = None  # the design file the studio opened
        text = "40x30" if source is None else os.fspath(source)
        if source is not None and is_design_file(text):
            design, base = load_design(text)
            self.save_to = Path(text).resolve()
            name = Path(text).stem.removesuffix(".design")
        else:
            name, held = self._own_source(text)
            design, base = Design(source=held), Path.cwd()
        self._adopt(design, base, name)
        self._paints: dict[str, Any] = {}  # the paint layers the page sent, by their digest

    # ------------------------------------------------------------------ the source

    def _own_source(self, text: str) -> tuple[str, str]:
        """The studio's name for the source, and the source as a design holds it: words as
        they are, a picture by its absolute path, a preset or a saved maze's region as a
        preset of the studio's own folder (so that a design file can carry it)."""
        from mazeart._io import existing_file
        from mazeart.figures import in_words
        from mazeart.mazefile import is_maze_file
        from mazeart.weights import is_preset_file

        if in_words(text):
            return "maze", text
        path = existing_file(text, "a picture, a preset, a saved maze or a design")
        if is_maze_file(path) or is_preset_file(path) or path.suffix.lower() in (".npy", ".txt"):
            from mazeart.pipeline import make_preset
            from mazeart.weights import save_preset

            held = self.folder / f"{_safe_name(path.stem)}.npy"
            save_preset(make_preset(path), held)
            return path.stem, str(held)
        return path.stem, str(path.resolve())

    def _adopt(self, design: Any, base: Path, name: str) -> None:
        """Take a new source: its design, its picture under the maze and its name, all at
        once (what fails to read leaves the studio as it was)."""
        picture, decoded = self._read(design, base)
        with self.state:
            self.design, self.base, self.name = design, base, _safe_name(name)
            self.picture, self._decoded = picture, decoded
            self.picture_png: bytes | None = None

    def _read(self, design: Any, base: Path) -> tuple[Any, Any]:
        """The picture the maze is laid over (a preset or a rectangle: its cells drawn) and
        the picture decoded once for the previews (None for a drawing, rasterised anew for
        each grid)."""
        from mazeart._io import open_image
        from mazeart._svg import is_svg
        from mazeart.figures import in_words
        from mazeart.weights import is_preset_file

        path: Path | None = None
        if design.picture is not None and not design.picture.startswith(b"\x93NUMPY"):
            fd, name = tempfile.mkstemp(dir=self.folder, prefix="picture-")
            with os.fdopen(fd, "wb") as fh:
                fh.write(design.picture)
            path = Path(name)
        elif design.picture is None and not in_words(design.source):
            path = base / design.source
            if is_preset_file(path) or path.suffix.lower() in (".npy", ".txt"):
                path = None
        if path is not None:
            try:
                picture = open_image(path)
                return _viewable(picture), None if is_svg(path) else picture
            finally:
                if design.picture is not None:
                    path.unlink(missing_ok=True)
        bare = replace(design, paint=None, rooms=(), tags=(), entrance=None, exit=None)
        made = self._make(bare, base=base)
        if made.picture is not None:  # a word or a shape: the picture drawn for it
            return _viewable(made.picture), None
        return _preset_picture(made), None

    def _make(self, design: Any, *, exact: bool = True, base: Path | None = None) -> Any:
        """The design's maze; a preview (not ``exact``) reads the picture decoded once."""
        from mazeart._limits import limits
        from mazeart.pipeline import make_design

        read = None if exact else self._decoded
        with limits(max_cells=MAX_CELLS):
            return make_design(design, base=self.base if base is None else base, read=read)

    # ------------------------------------------------------------------ requests

    def start(self) -> dict[str, Any]:
        """What the page starts from."""
        from mazeart._rng import fresh_seed
        from mazeart.export._style import tag_colours
        from mazeart.generators import ALGORITHMS
        from mazeart.grids.recipe import GRID_KINDS
        from mazeart.recipe import DEFAULTS, MODES
        from mazeart.tags import TAG_KINDS

        with self.state:
            if self.design.seed is None:  # a seed from the start: an edit changes what it edits
                self.design = replace(self.design, seed=fresh_seed())
            design, name, save_to = self.design, self.name, self.save_to
            w, h = self.picture.size
        paint = None
        if design.paint is not None:
            from mazeart.design import _paint_png

            paint = "data:image/png;base64," + base64.b64encode(_paint_png(design.paint)).decode()
        scale = min(1.0, _PAINT_SIDE / max(w, h))
        algorithms = {
            key: {"grids": list(a.grids), "geometries": list(a.geometries),
                  "options": dict(a.options), "description": a.description}
            for key, a in ALGORITHMS.items()
        }  # fmt: skip
        shown = {"route": [[list(p) for p in line] for line in design.route],
                 "rooms": [dict(r) for r in design.rooms],
                 "entrance": _point(design.entrance), "exit": _point(design.exit),
                 "tags": [{"kind": t.kind, "x": t.at.x, "y": t.at.y} for t in design.tags],
                 "options": dict(design.options), "seed": design.seed}  # fmt: skip
        return {
            "name": name,
            "picture": {"width": w, "height": h},
            "paint_size": [max(1, round(w * scale)), max(1, round(h * scale))],
            "paint": paint,
            "design": shown,
            "save_to": None if save_to is None else save_to.name,
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
        with self.state:
            if self.picture_png is None:
                out = io.BytesIO()
                self.picture.save(out, format="PNG", compress_level=1)
                self.picture_png = out.getvalue()
            return self.picture_png

    def design_from(self, doc: Any) -> Any:
        """The design a page sends (its paint a PNG data URL, or ``"same:DIGEST"`` for one it
        sent before; rooms, ends, tags, options, seed) over the studio's source, every field
        checked as a design file's are."""
        from mazeart.design import Design

        if not isinstance(doc, Mapping):
            raise MazeartError("a design is a JSON object")
        options = doc.get("options") or {}
        if not isinstance(options, Mapping):
            raise MazeartError("options are a JSON object")
        options = {k: v for k, v in options.items() if v is not None and v != ""}
        for name in ("font", "solution_picture"):  # paths: the page reads no file
            if name in options:
                raise MazeartError(f"the studio takes no {name.replace('_', ' ')} path")
        held = {"format": "mazeart-design", "version": 1, "source": "9x9",
                "rooms": doc.get("rooms"), "entrance": doc.get("entrance"),
                "exit": doc.get("exit"), "tags": doc.get("tags"), "options": options,
                "seed": doc.get("seed"), "route": doc.get("route")}  # fmt: skip
        checked = Design.from_dict(held)  # the page's fields, as a file's would be read
        source = self.design
        return replace(checked, source=source.source, picture=source.picture,
                       paint=self._paint(doc.get("paint")))  # fmt: skip

    def _paint(self, value: Any) -> Any:
        """A paint layer from a PNG data URL, or one sent before by its digest."""
        from mazeart.image import read_paint_png

        if value is None:
            return None
        if isinstance(value, str) and value.startswith("same:"):
            layer = self._paints.get(value[5:], False)
            if layer is False:
                raise MazeartError("the paint changed; send it again")
            return layer
        if not isinstance(value, str) or not value.startswith("data:image/png;base64,"):
            raise MazeartError("the paint is a PNG data URL")
        try:
            raw = base64.b64decode(value.split(",", 1)[1], validate=True)
        except (binascii.Error, ValueError):
            raise MazeartError("the paint is not base64") from None
        layer = read_paint_png(raw)
        held = layer if layer.any() else None
        digest = hashlib.sha256(raw).hexdigest()[:32]
        while len(self._paints) >= 8:  # the last few: a page, or two, working at once
            self._paints.pop(next(iter(self._paints)))
        self._paints[digest] = held
        self._last_digest = digest
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

        with self._turn():
            self._last_digest = ""
            design = self.design_from(doc)
            digest = self._last_digest
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
            "paint_id": digest or None,
        }

    def export(self, doc: Mapping[str, Any], fmt: str) -> tuple[bytes, str, str]:
        """The file the command line writes for the design, in format ``fmt``: its bytes,
        its name and its type (a Tiled map and its tileset picture together, as a zip)."""
        from mazeart.pipeline import save

        if fmt not in FORMATS:
            raise MazeartError(f"the studio exports {', '.join(FORMATS)}, not {fmt!r}")
        with self._turn():
            design = self.design_from(doc)
            made = self._make(design)
            with tempfile.TemporaryDirectory(dir=self.folder) as out:
                path = Path(out) / f"{self.name}.{fmt}"
                save(made, path)
                written = sorted(Path(out).iterdir())
                if len(written) == 1:
                    return path.read_bytes(), path.name, FORMATS[fmt]
                import zipfile

                pack = io.BytesIO()
                with zipfile.ZipFile(pack, "w", zipfile.ZIP_DEFLATED) as z:
                    for file in written:
                        z.write(file, file.name)
                return pack.getvalue(), f"{self.name}-{fmt}.zip", "application/zip"

    def design_file(self, doc: Mapping[str, Any]) -> tuple[bytes, str]:
        """The design's file, its picture held in it (so that it travels alone)."""
        from mazeart.figures import in_words

        with self._turn():
            design = self.design_from(doc)
            if design.picture is None and not in_words(design.source):
                data = (self.base / design.source).read_bytes()
                design = replace(design, source="embedded", picture=data)
            name = self.name
        text = json.dumps(design.to_dict(), indent=1) + "\n"
        return text.encode("utf-8"), f"{name}.design.json"

    def save(self, doc: Mapping[str, Any]) -> str:
        """Write the design to the design file the studio opened; returns its name."""
        from mazeart.design import save_design

        with self._turn():
            if self.save_to is None:
                raise MazeartError("the studio was not opened on a design file: download it")
            design = self.design_from(doc)
            save_design(design, self.save_to)
            with self.state:
                self.design = design
            return self.save_to.name

    def upload(self, data: bytes, name: str) -> dict[str, Any]:
        """A new picture: read with the command line's checks, then the new start (a picture
        that cannot be read leaves the studio as it was)."""
        from mazeart.design import Design

        if len(data) > MAX_UPLOAD:
            raise MazeartError(f"the picture is larger than {MAX_UPLOAD // 2**20} MiB")
        with self._turn():
            design = Design(source="embedded", picture=data, options=self.design.options)
            self._adopt(design, self.base, Path(name).stem or "maze")
            with self.state:
                self.save_to = None
        return self.start()


def _safe_name(stem: str) -> str:
    """A file name's stem as a download may carry it: letters, digits, ``-`` and ``_``."""
    kept = "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "-" for c in stem)
    return kept.strip("-")[:60] or "maze"


def _viewable(picture: Any) -> Any:
    """A picture as the page shows it (RGB or RGBA)."""
    return picture if picture.mode in ("RGB", "RGBA") else picture.convert("RGBA")


def _point(at: Any) -> dict[str, float] | None:
    return None if at is None else {"x": float(at.x), "y": float(at.y)}


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
    timeout = 60  # a client that stops sending mid-request frees its thread

    def log_message(self, format: str, *args: Any) -> None:
        pass  # a quiet server: the terminal shows the address and errors only

    # -------------------------------------------------------------- checks

    def _allowed(self, token: str | None) -> bool:
        """The request is the page's own: its Host and Origin are the server's, and it
        carries the token."""
        own = self.server.own_hosts  # None: any name (a studio opened to the network)
        host = self.headers.get("Host", "")
        if own is not None and host not in own:
            return self._refuse("this server answers to its own address only")
        origin = self.headers.get("Origin")
        if origin is not None and origin.removeprefix("http://") not in (own or {host}):
            return self._refuse("requests from other pages are refused")
        given = (token or "").encode("utf-8", "surrogateescape")
        if not token or not hmac.compare_digest(given, self.server.token.encode()):
            return self._refuse("the studio's address holds a token: open that address")
        return True

    def _refuse(self, why: str) -> bool:
        self.close_connection = True  # a body left unread is not the next request
        self._send(403, {"error": why})
        return False

    def _send(self, code: int, body: Any, kind: str = "application/json",
              name: str | None = None, cookie: str | None = None) -> None:  # fmt: skip
        data = body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("Content-Security-Policy", "default-src 'self' 'unsafe-inline' blob: "
                         "data:; connect-src 'self'; frame-ancestors 'none'")  # fmt: skip
        if name is not None:  # a name of letters, digits, - _ and . (_safe_name)
            self.send_header("Content-Disposition", f'attachment; filename="{name}"')
        if cookie is not None:
            self.send_header("Set-Cookie", cookie)
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
        if url.path == "/":  # the token from the address, or from the page's cookie (reloads)
            cookie = http.cookies.SimpleCookie(self.headers.get("Cookie", ""))
            held = cookie.get(self.server.cookie)
            token = query.get("token", [""])[0] or (held.value if held else None)
            if self._allowed(token):
                self._send(200, _page(self.server.token), "text/html; charset=utf-8",
                           cookie=f"{self.server.cookie}={self.server.token}; HttpOnly; "
                           "SameSite=Strict; Path=/")  # fmt: skip
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
            doc = load_json(body)
        except MazeartError as err:
            self._send(400, {"error": f"the request is {_line(err)}"})
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
        out = self._attempt(work)
        if out is not None:
            self._send(200, out)

    def _file(self, work: Callable[[], tuple[bytes, str, str]]) -> None:
        out = self._attempt(work)
        if out is not None:
            data, name, kind = out
            self._send(200, data, kind, name)

    def _attempt(self, work: Callable[[], Any]) -> Any:
        """``work()``, or None with the error answered: the user's mistake as one line (400),
        anything else as one line too (500), its traceback on the server's terminal."""
        try:
            return work()
        except (MazeartError, TypeError) as err:
            self._send(400, {"error": _line(err)})
        except Exception as err:  # a bug: the page says so in a line, the server goes on
            import traceback

            traceback.print_exc()
            self._send(500, {"error": f"the studio failed ({type(err).__name__}: {_line(err)})"})
        return None


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
        self.cookie = f"mazeart_studio_{port}"  # a cookie is the host's, whatever the port
        self.own_hosts: set[str] | None = {f"{name}:{port}" for name in names}
        if address[0] not in ("127.0.0.1", "localhost", "::1"):
            self.own_hosts = None  # reached by the names other machines know it by


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
