"""SVG pictures: recognised by their content, made safe, and rasterised with resvg.

A file is an SVG drawing when, after an optional byte-order mark, XML
declaration, comments, processing instructions and document type, its root
element is ``<svg``; a gzip-compressed file (``.svgz``) is looked into the same
way. The suffix does not matter.

Reading one takes four steps:

1. **Parse** with the standard library's expat parser, bounded: at most
   :data:`MAX_BYTES` of file and of uncompressed text, :data:`MAX_ELEMENTS`
   elements, nesting no deeper than :data:`MAX_DEPTH`. Internal entities are
   expanded within expat's amplification limit (a "billion laughs" file is
   refused); external entities and document types are never fetched.
2. **Cut every link out of the document.** A reference to another part of the
   drawing (``href="#id"``) and embedded data (``href="data:..."``) stay; every
   other ``href`` (a file beside the drawing, an absolute path, a URL) is
   removed, so nothing outside the file is read or fetched and such an image is
   simply not drawn.
3. **Size.** The drawing's aspect ratio comes from its ``width`` and ``height``
   (any CSS unit), else its ``viewBox``; it is drawn :data:`PIXELS_PER_CELL`
   pixels a cell across the grid it is for (or :data:`DEFAULT_SIDE` pixels on
   its longer side when the grid is not known), within ``max_pixels`` (see
   :func:`mazeart.limits`), checked before anything is drawn.
4. **Draw** with `resvg <https://github.com/linebender/resvg>`_ (the optional
   ``resvg-py`` package: ``pip install 'mazeart[svg]'``) on a transparent
   canvas, so that alpha decides the figure as for a PNG logo. The renderer
   runs in a child process with a memory ceiling and a time limit, in an empty
   working folder: a drawing that makes it crash, loop or run out of memory
   ends in a one-line error, not in the caller's process. Text is set in the
   system's fonts; where they lack the family asked for (and its generic
   fallback), the text is not drawn: a logo's lettering is best turned into paths.
"""

from __future__ import annotations

import importlib.util
import io
import json
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import warnings
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

from mazeart._limits import check_pixels, current
from mazeart.errors import FileFormatError, MazeartError, check_int, printable

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = [
    "DEFAULT_SIDE",
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_ELEMENTS",
    "PIXELS_PER_CELL",
    "RENDER_MEMORY",
    "RENDER_SECONDS",
    "is_svg",
    "read_svg",
]

MAX_BYTES = 32 * 2**20
"""Largest SVG file read, and largest text a compressed one may unpack to."""
MAX_ELEMENTS = 1_000_000
"""Most elements a drawing may hold (after its entities are expanded)."""
MAX_DEPTH = 256
"""Deepest nesting of elements a drawing may have."""
PIXELS_PER_CELL = 16
"""Pixels a grid cell gets across when the drawing is rasterised for a grid."""
DEFAULT_SIDE = 2048
"""Pixels on the drawing's longer side when the grid it is for is not known."""
RENDER_SECONDS = 120
"""Longest the renderer may take over one drawing."""

INSTALL_HINT = "reading SVG needs the optional renderer: pip install 'mazeart[svg]'"

_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK_NS = "http://www.w3.org/1999/xlink"
_XML_NS = "http://www.w3.org/XML/1998/namespace"
_HEAD = 64 * 1024
_TEXT_LIMIT = 2 * MAX_BYTES  # characters of text and attribute values, entities expanded
_RENDERER = "resvg_py"
_STACK = 256 * 2**20  # the renderer recurses once per level of nesting and of reference
_BASE_MEMORY = 512 * 2**20  # the child's address space: interpreter, stack, fonts, document...
_LAYERS = 8  # ...and this many canvases of the output's size (groups, masks, filters)
RENDER_MEMORY = 900 * 2**20
"""The most address space the renderer's child may use, whatever the drawing: a drawing that
needs more (filter chains, masks within masks, tens of thousands of texts) is refused."""

# Prolog items before the root element: XML declaration and other processing
# instructions, comments, and a document type with or without an internal subset.
_PROLOG = re.compile(r"\s*(?:<\?.*?\?>|<!--.*?-->|<!DOCTYPE(?:[^\[>]|\[.*?\])*>)", re.S)
_ROOT = re.compile(r"\s*<(?:[A-Za-z_][\w.-]*:)?svg[\s/>]")
_LENGTH = re.compile(
    r"\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(px|pt|pc|mm|cm|in|em|ex|%)?\s*",
)
_UNITS = {
    None: 1.0,
    "px": 1.0,
    "pt": 4 / 3,
    "pc": 16.0,
    "mm": 96 / 25.4,
    "cm": 96 / 2.54,
    "in": 96.0,
    "em": 16.0,
    "ex": 8.0,
}


# ----------------------------------------------------------------------------- recognising


def _text_of(head: bytes) -> str:
    """The start of a file as text, for looking at its markup (a cut character is dropped)."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return head.decode("utf-16", errors="ignore")
    return head.removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace")


def _root_is_svg(text: str) -> bool:
    pos = 0
    while (m := _PROLOG.match(text, pos)) is not None and m.end() > pos:
        pos = m.end()
    return _ROOT.match(text, pos) is not None


def is_svg(path: Path) -> bool:
    """Whether the file at ``path`` holds an SVG drawing, plain or gzip-compressed.

    Only the first 64 KiB are read (and unpacked): the root element must be
    ``<svg`` (with or without a namespace prefix) after the prolog.

    Parameters
    ----------
    path : Path
        An existing regular file.

    Returns
    -------
    bool
    """
    try:
        with open(path, "rb") as fh:
            head = fh.read(_HEAD)
    except OSError as exc:
        raise MazeartError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    if head.startswith(b"\x1f\x8b"):
        try:
            head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, _HEAD)
        except zlib.error:
            return False
    return _root_is_svg(_text_of(head))


# ----------------------------------------------------------------------------- parsing


class _Bounded(ET.TreeBuilder):
    """A tree builder that stops a document bigger than the limits allow."""

    def __init__(self, name: Path) -> None:
        super().__init__()
        self._name = name
        self._elements = 0
        self._depth = 0
        self._chars = 0

    def _count(self, chars: int) -> None:
        self._chars += chars
        if self._chars > _TEXT_LIMIT:
            raise FileFormatError(
                f"{self._name}: the SVG expands to more than {_TEXT_LIMIT // 2**20} MiB of text"
            )

    def start(self, tag: str, attrs: dict[str, str]) -> ET.Element:
        self._elements += 1
        self._depth += 1
        if self._elements > MAX_ELEMENTS:
            raise FileFormatError(f"{self._name}: the SVG has more than {MAX_ELEMENTS:,} elements")
        if self._depth > MAX_DEPTH:
            raise FileFormatError(f"{self._name}: the SVG nests elements over {MAX_DEPTH} deep")
        self._count(sum(len(k) + len(v) for k, v in attrs.items()))
        return super().start(tag, attrs)

    def end(self, tag: str) -> ET.Element:
        self._depth -= 1
        return super().end(tag)

    def data(self, data: str) -> None:
        self._count(len(data))
        super().data(data)


def _gunzip(data: bytes, name: Path) -> bytes:
    unpack = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = unpack.decompress(data, MAX_BYTES + 1)
    except zlib.error:
        raise FileFormatError(f"{name}: the compressed SVG is corrupt") from None
    if len(out) > MAX_BYTES:
        raise FileFormatError(
            f"{name}: the compressed SVG unpacks to more than {MAX_BYTES // 2**20} MiB"
        )
    if not unpack.eof:
        raise FileFormatError(f"{name}: the compressed SVG is truncated")
    return out


def _parse(data: bytes, name: Path) -> ET.Element:
    """The document's root element, or a one-line error."""
    parser = ET.XMLParser(target=_Bounded(name))
    try:
        parser.feed(data)
        root = parser.close()
    except ET.ParseError as exc:
        raise FileFormatError(f"{name}: not a valid SVG ({exc})") from None
    if root.tag not in (f"{{{_SVG_NS}}}svg", "svg"):
        raise FileFormatError(f"{name}: not a valid SVG (its root element is {root.tag})")
    return root


def _cut_links(root: ET.Element) -> int:
    """Remove every ``href`` that points outside the document; return how many."""
    cut = 0
    for element in root.iter():
        for key in [k for k in element.attrib if k.rpartition("}")[2] == "href"]:
            target = element.attrib[key].strip()
            if not (target.startswith("#") or target[:5].lower() == "data:"):
                del element.attrib[key]
                cut += 1
    return cut


# ----------------------------------------------------------------------------- sizing


def _length(value: str | None) -> float | None:
    """An absolute length in CSS pixels, or None (missing, a percentage, not positive)."""
    if value is None:
        return None
    m = _LENGTH.fullmatch(value)
    if m is None or m.group(2) == "%":
        return None
    px = float(m.group(1)) * _UNITS[m.group(2)]
    return px if math.isfinite(px) and px > 0 else None


def _view_box(value: str | None) -> tuple[float, float, float, float] | None:
    if value is None:
        return None
    try:
        x, y, w, h = (float(v) for v in re.split(r"[\s,]+", value.strip()))
    except ValueError:
        return None
    box = (x, y, w, h)
    return box if all(map(math.isfinite, box)) and w > 0 and h > 0 else None


def _natural_size(root: ET.Element) -> tuple[float, float, tuple[float, float, float, float]]:
    """The drawing's size in CSS pixels and the viewBox that maps its user space onto it.

    As a browser does: ``width`` and ``height`` when given, a missing one
    following the viewBox's aspect ratio, both the viewBox's when neither is
    given, and 100 x 100 when there is nothing to go by.
    """
    width = _length(root.get("width"))
    height = _length(root.get("height"))
    box = _view_box(root.get("viewBox"))
    if box is not None:
        ratio = box[3] / box[2]
        if width is None and height is None:
            width, height = box[2], box[3]
        elif width is None and height is not None:
            width = height / ratio
        elif height is None and width is not None:
            height = width * ratio
    width = width or 100.0
    height = height or 100.0
    return width, height, box or (0.0, 0.0, width, height)


def _canvas(width: float, height: float, grid: int | None, name: Path) -> tuple[int, int]:
    """Pixels to draw the drawing at: so many a cell (or the default), within ``max_pixels``."""
    cap = current().max_pixels
    ratio = height / width
    if not 0 < ratio < math.inf or max(ratio, 1 / ratio) > cap:
        raise MazeartError(
            f"{name}: the drawing is {width:g} x {height:g} px, too thin to draw within "
            f"max_pixels {cap / 1e6:,.0f} Mpx"
        )
    if grid is not None:
        across = float(PIXELS_PER_CELL * grid)
    else:
        across = DEFAULT_SIDE * min(1.0, 1 / ratio)
    down = across * ratio
    if across * down > cap:  # fewer pixels a cell rather than a refusal
        shrink = math.sqrt(cap / (across * down))
        w, h = max(1, math.floor(across * shrink)), max(1, math.floor(down * shrink))
    else:
        w, h = max(1, round(across)), max(1, round(down))
    check_pixels(w, h, f"{name}: the drawing")
    return w, h


# ----------------------------------------------------------------------------- writing out


def _attribute(value: str) -> str:
    return (
        value.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace('"', "&quot;")
        .replace("\n", "&#10;")
        .replace("\r", "&#13;")
        .replace("\t", "&#9;")
    )


def _text(value: str) -> str:
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _serialise(root: ET.Element) -> str:
    """The tree as SVG markup: SVG elements unprefixed in the default namespace (and so are
    elements without a namespace), every other namespace declared on the root."""
    prefixes = {_XML_NS: "xml", _XLINK_NS: "xlink", _SVG_NS: "svg"}
    for element in root.iter():
        for qname in (element.tag, *element.attrib):
            if qname.startswith("{"):
                prefixes.setdefault(qname[1:].partition("}")[0], f"ns{len(prefixes)}")
    declared = {_SVG_NS: ""} | {u: p for u, p in prefixes.items() if u not in (_XML_NS, _SVG_NS)}

    def qualified(qname: str, *, attribute: bool) -> str:
        if not qname.startswith("{"):
            return qname
        uri, _, local = qname[1:].partition("}")
        return local if uri == _SVG_NS and not attribute else f"{prefixes[uri]}:{local}"

    out: list[str] = []

    def write(element: ET.Element, extra: str = "") -> None:
        tag = qualified(element.tag, attribute=False)
        attrs = "".join(
            f' {qualified(k, attribute=True)}="{_attribute(v)}"' for k, v in element.attrib.items()
        )
        out.append(f"<{tag}{extra}{attrs}>{_text(element.text or '')}")
        for child in element:
            write(child)
            out.append(_text(child.tail or ""))
        out.append(f"</{tag}>")

    write(root, "".join(f' xmlns{":" * bool(p)}{p}="{_attribute(u)}"' for u, p in declared.items()))
    return "".join(out)


# ----------------------------------------------------------------------------- drawing

# The child process: reads the document on stdin and writes the PNG on stdout. It exits
# with status 3 when the renderer cannot be imported, 4 when the renderer refuses the
# drawing and 5 when it fails, with the renderer's message as one line on stdout.
_CHILD = """\
import json, sys, threading
options = json.loads(sys.argv[1])
sys.path[:0] = options.pop("path")
memory, stack = options.pop("memory"), options.pop("stack")
try:
    import resource
    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    if hard != resource.RLIM_INFINITY:
        memory = min(memory, hard)
    resource.setrlimit(resource.RLIMIT_AS, (memory, hard))
except (ImportError, ValueError, OSError):
    pass
try:
    import resvg_py
except ImportError:
    sys.exit(3)
svg = sys.stdin.buffer.read().decode("utf-8")
result = []
def render():
    try:
        result.append(bytes(resvg_py.svg_to_bytes(svg_string=svg, **options)))
    except BaseException as exc:
        result.append(exc)
threading.stack_size(stack)
worker = threading.Thread(target=render)
worker.start()
worker.join()
if not result or not isinstance(result[0], bytes):
    sys.stdout.write(" ".join(str(result[0] if result else "no picture").split())[:300])
    sys.exit(4 if result and isinstance(result[0], Exception) else 5)
sys.stdout.buffer.write(result[0])
"""


def _signal_name(code: int) -> str:
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"


def _render(svg: str, width: int, height: int, name: Path) -> bytes:
    """PNG bytes of the drawing at ``width`` x ``height``, drawn in a child process."""
    options = {
        "path": [os.path.abspath(p) for p in sys.path if p],
        "memory": min(RENDER_MEMORY, _BASE_MEMORY + _LAYERS * 4 * width * height),
        "stack": _STACK,
        "width": width,
        "height": height,
        "dpi": 96.0,
    }
    with tempfile.TemporaryDirectory(prefix="mazeart-svg-") as empty:
        try:
            child = subprocess.run(
                [sys.executable, "-I", "-c", _CHILD, json.dumps(options)],
                input=svg.encode("utf-8"),
                capture_output=True,
                cwd=empty,
                timeout=RENDER_SECONDS,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise FileFormatError(
                f"{name}: the SVG took more than {RENDER_SECONDS} s to draw"
            ) from None
        except OSError as exc:
            raise MazeartError(f"cannot start the SVG renderer ({exc.strerror or exc})") from None
    message = " ".join(child.stdout.decode("utf-8", errors="replace").split()) or "no reason"
    if child.returncode == 3:
        raise FileFormatError(f"{name}: {INSTALL_HINT}")
    if child.returncode == 4:
        raise FileFormatError(f"{name}: not a valid SVG ({printable(message)})")
    if child.returncode == 5:
        raise FileFormatError(f"{name}: the SVG renderer failed on it ({printable(message)})")
    if child.returncode != 0 and b"memory allocation" in child.stderr:
        cap = min(RENDER_MEMORY, _BASE_MEMORY + _LAYERS * 4 * width * height)
        raise FileFormatError(
            f"{name}: the SVG needs more than the {cap // 2**20} MiB its drawing at "
            f"{width} x {height} px may use (filters, masks or text past that bound)"
        )
    if child.returncode != 0:
        how = (
            f"killed by {_signal_name(child.returncode)}"
            if child.returncode < 0
            else f"exit status {child.returncode}"
        )
        raise FileFormatError(
            f"{name}: the SVG renderer failed on it ({how}: too deep, too large or damaged)"
        )
    return child.stdout


def _installed() -> bool:
    """Whether the renderer can be imported (without importing it: it runs in a child)."""
    return importlib.util.find_spec(_RENDERER) is not None


def read_svg(path: Path, data: bytes, *, grid: int | None = None) -> Image:
    """Rasterise an SVG drawing (plain or gzip-compressed).

    Parameters
    ----------
    path : Path
        The file it was read from, that :func:`is_svg` recognises (named in errors).
    data : bytes
        Its bytes, at most :data:`MAX_BYTES` (``mazeart._io.open_image`` reads them).
    grid : int, optional
        Columns of the grid the picture is for: the drawing is rasterised
        :data:`PIXELS_PER_CELL` pixels a cell across. Without it the longer
        side gets :data:`DEFAULT_SIDE` pixels.

    Returns
    -------
    PIL.Image.Image
        An ``RGBA`` image, transparent where the drawing draws nothing.

    Raises
    ------
    FileFormatError
        If the file is too large, malformed, has no SVG root, nests or expands
        too far, the renderer is not installed, or it fails on the drawing.
    MazeartError
        If the picture would have more than ``max_pixels`` pixels.
    """
    from PIL import Image as PILImage

    if grid is not None:
        grid = check_int(grid, "grid", maximum=current().max_cells)
    if not _installed():
        raise FileFormatError(f"{path}: {INSTALL_HINT}")
    if len(data) > MAX_BYTES:
        raise FileFormatError(f"{path}: the SVG drawing is larger than {MAX_BYTES:,} bytes")
    if data.startswith(b"\x1f\x8b"):
        data = _gunzip(data, path)
    root = _parse(data, path)
    _cut_links(root)
    width, height, box = _natural_size(root)
    w, h = _canvas(width, height, grid, path)
    # The canvas is the drawing's own size: the renderer then scales by exactly w/width.
    root.set("width", str(w))
    root.set("height", str(h))
    root.set("viewBox", " ".join(f"{v:.17g}" for v in box))
    png = _render(_serialise(root), w, h, path)
    bomb = PILImage.MAX_IMAGE_PIXELS
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PILImage.DecompressionBombWarning)
            if bomb is not None:
                PILImage.MAX_IMAGE_PIXELS = max(bomb, w * h)
            with PILImage.open(io.BytesIO(png)) as img:
                img.load()
                return img.convert("RGBA")
    except (OSError, SyntaxError, ValueError) as exc:
        raise FileFormatError(f"{path}: the SVG renderer gave no picture ({exc})") from None
    finally:
        PILImage.MAX_IMAGE_PIXELS = bomb
