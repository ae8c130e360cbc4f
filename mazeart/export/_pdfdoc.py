"""A minimal PDF 1.7 writer: pages of vector drawing and text in embedded TrueType subsets.

Just what the printable mazes need (:mod:`mazeart.export.pdf`), written from the PDF
specification (ISO 32000-1) rather than through a general library:

- pages of any size, given in millimetres; positions on a page are millimetres from
  its top-left corner, as on paper;
- a content stream per page: raw path operators (the maze's drawing, appended as they
  come), text, filled ellipses; each stream compressed with zlib at a level chosen
  for the document when it is written (1, zlib's fastest, for a drawing of more
  than :data:`BIG_DRAWING` bytes, else 6), so no state outlives the document;
- text in TrueType fonts embedded as subsets (fontTools' subsetter) and referred to
  as Type0 fonts with a CIDFontType2 descendant, Identity-H encoding, a ``/W`` widths
  array and a ``/ToUnicode`` CMap, so readers extract and search the words;
- an Info dictionary (title, creator, producer, creation date) and a file ID that is
  a digest of the file's body, so the same content and date give the same bytes.

Character codes (CIDs) are handed out in the order characters are first written, one
per character (1, 2, ...; 0 stays .notdef); ``/CIDToGIDMap`` maps them to the glyphs
of the subset, whose numbering is only known when the document is written.
"""

from __future__ import annotations

import hashlib
import io
import threading
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

PT_PER_MM = 72 / 25.4
"""Points (the PDF's unit, 1/72 inch) per millimetre."""

BIG_DRAWING = 2_000_000
"""Bytes of raw drawing above which the content streams are compressed at level 1."""

_TABLES_UNUSED = ("GSUB", "GPOS", "GDEF", "BASE", "JSTF", "MATH", "kern", "FFTM", "DSIG")
"""Font tables a PDF reader never looks at (no shaping: one glyph a character)."""


def _num(value: float, places: int = 2) -> str:
    """A number as short PDF text: fixed ``places`` decimals, trailing zeros dropped."""
    text = f"{value:.{places}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _text_string(text: str) -> bytes:
    """A PDF text string: literal when printable ASCII, else UTF-16BE with its BOM in hex."""
    if all(" " <= ch <= "~" for ch in text):
        escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        return f"({escaped})".encode("ascii")
    return b"<FEFF" + text.encode("utf-16-be").hex().upper().encode("ascii") + b">"


def _date(when: datetime) -> bytes:
    """A PDF date string (``D:YYYYMMDDHHmmSS`` and the offset from UTC)."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    offset = when.utcoffset()
    minutes = int(offset.total_seconds() // 60) if offset is not None else 0
    sign = "+" if minutes >= 0 else "-"
    zone = "Z" if minutes == 0 else f"{sign}{abs(minutes) // 60:02d}'{abs(minutes) % 60:02d}'"
    return f"(D:{when:%Y%m%d%H%M%S}{zone})".encode("ascii")


# ----------------------------------------------------------------------------- fonts


@dataclass(frozen=True)
class _FontFile:
    """What the writer needs to know of a TrueType font, read once per process."""

    raw: bytes
    postscript: str  # the font's PostScript name (name ID 6)
    order: tuple[str, ...]  # glyph names by glyph id
    cmap: Mapping[int, int]  # code point -> glyph id
    advances: tuple[int, ...]  # advance width by glyph id, in font units
    units: int  # font units per em
    ascent: int
    descent: int
    cap_height: int
    bbox: tuple[int, int, int, int]
    italic_angle: float
    weight: int  # OS/2 usWeightClass

    def scale(self, value: float) -> float:
        """Font units to thousandths of an em (the PDF's glyph space)."""
        return value * 1000 / self.units


_FONT_FILES: dict[str, _FontFile] = {}
_FONT_LOCK = threading.Lock()


def font_file(source: Any) -> _FontFile:
    """The font at ``source`` (a path or an ``importlib.resources`` file), cached."""
    key = str(source)
    with _FONT_LOCK:
        if key not in _FONT_FILES:
            with open(source, "rb") if isinstance(source, str) else source.open("rb") as fh:
                _FONT_FILES[key] = _read_font(fh.read())
        return _FONT_FILES[key]


def _read_font(raw: bytes) -> _FontFile:
    from fontTools.ttLib import TTFont

    font = TTFont(io.BytesIO(raw), lazy=True)
    order = tuple(font.getGlyphOrder())
    ids = {name: gid for gid, name in enumerate(order)}
    cmap = {cp: ids[name] for cp, name in font["cmap"].getBestCmap().items() if name in ids}
    hmtx = font["hmtx"]
    advances = tuple(hmtx[name][0] for name in order)
    head, hhea, os2 = font["head"], font["hhea"], font["OS/2"]
    cap = getattr(os2, "sCapHeight", 0) if os2.version >= 2 else 0
    if not cap and "H" in ids:  # older OS/2 tables: the height of a capital H
        cap = getattr(font["glyf"]["H"], "yMax", 0)
    return _FontFile(
        raw=raw,
        postscript=str(font["name"].getDebugName(6) or "Font").replace(" ", ""),
        order=order,
        cmap=cmap,
        advances=advances,
        units=head.unitsPerEm,
        ascent=hhea.ascent,
        descent=hhea.descent,
        cap_height=cap or hhea.ascent,
        bbox=(head.xMin, head.yMin, head.xMax, head.yMax),
        italic_angle=float(font["post"].italicAngle),
        weight=os2.usWeightClass,
    )


@dataclass
class _FontUse:
    """One font as a document uses it: the characters written, each with its CID."""

    file: _FontFile
    resource: str  # its name in the pages' resources, e.g. F1
    cids: dict[str, int] = field(default_factory=dict)  # character -> CID
    gids: list[int] = field(default_factory=lambda: [0])  # glyph id by CID (0: .notdef)

    def encode(self, text: str) -> str:
        """``text`` as a hex string of two-byte CIDs, handing out new ones as needed."""
        codes = []
        for ch in text:
            cid = self.cids.get(ch)
            if cid is None:
                cid = self.cids[ch] = len(self.gids)
                self.gids.append(self.file.cmap.get(ord(ch), 0))
            codes.append(f"{cid:04X}")
        return "<" + "".join(codes) + ">"

    def width(self, text: str) -> float:
        """Advance of ``text`` in font units."""
        cmap, adv = self.file.cmap, self.file.advances
        return float(sum(adv[cmap.get(ord(ch), 0)] for ch in text))


def _subset(use: _FontUse) -> tuple[bytes, list[int]]:
    """The font cut down to the glyphs used, and the subset's glyph id by CID."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(io.BytesIO(use.file.raw), recalcTimestamp=False)  # the same bytes each time
    for tag in _TABLES_UNUSED:
        if tag in font:
            del font[tag]
    options = subset.Options()
    options.layout_features = []
    options.notdef_outline = True
    options.recalc_timestamp = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(
        gids=sorted(set(use.gids)),
        unicodes=[ord(ch) for ch in use.cids if ord(ch) in use.file.cmap],
    )
    subsetter.subset(font)
    new_ids = {name: gid for gid, name in enumerate(font.getGlyphOrder())}
    gids = [new_ids.get(use.file.order[gid], 0) for gid in use.gids]
    out = io.BytesIO()
    font.save(out)
    return out.getvalue(), gids


def _to_unicode(use: _FontUse) -> bytes:
    """A ToUnicode CMap: each CID to the character it was given for."""
    pairs = [
        f"<{cid:04X}> <{ch.encode('utf-16-be').hex().upper()}>" for ch, cid in use.cids.items()
    ]
    blocks = []
    for start in range(0, len(pairs), 100):  # at most 100 entries a block
        chunk = pairs[start : start + 100]
        blocks.append(f"{len(chunk)} beginbfchar\n" + "\n".join(chunk) + "\nendbfchar")
    return "\n".join(
        [
            "/CIDInit /ProcSet findresource begin",
            "12 dict begin",
            "begincmap",
            "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
            "/CMapName /Adobe-Identity-UCS def",
            "/CMapType 2 def",
            "1 begincodespacerange",
            "<0000> <FFFF>",
            "endcodespacerange",
            *blocks,
            "endcmap",
            "CMapName currentdict /CMap defineresource pop",
            "end",
            "end",
        ]
    ).encode("ascii")


def _tag(use: _FontUse) -> str:
    """The subset's six-letter name prefix, from the glyphs it holds (the same each run)."""
    digest = hashlib.md5(
        use.file.postscript.encode() + bytes(str(sorted(set(use.gids))), "ascii"),
        usedforsecurity=False,
    ).digest()
    return "".join(chr(ord("A") + b % 26) for b in digest[:6])


# ----------------------------------------------------------------------------- the document


@dataclass
class _Page:
    width: float  # points: the trimmed page
    height: float
    parts: list[str] = field(default_factory=list)
    bleed: float = 0.0  # points beyond the trim on the top, the bottom and the outer edge
    left: bool = False  # a left-hand page: its outer edge is its left one


class PdfDoc:
    """A PDF being written: pages, text, shapes and raw drawing; :meth:`output` makes the file.

    Parameters
    ----------
    title, creator, producer : str
        The Info dictionary's entries.
    created : datetime, optional
        The creation date (default: now).
    fonts : mapping of str to path or resource
        TrueType fonts by the name :meth:`set_font` takes; each is embedded (as a subset)
        only if text is set in it.
    """

    def __init__(
        self,
        *,
        title: str,
        creator: str,
        producer: str,
        created: datetime | None = None,
        fonts: Mapping[str, Any],
    ) -> None:
        self.info = {"Title": title, "Creator": creator, "Producer": producer}
        self.created = created if created is not None else datetime.now(UTC).replace(microsecond=0)
        self.font_sources = dict(fonts)
        self.fonts: dict[str, _FontUse] = {}
        self.pages: list[_Page] = []
        self.at: int | None = None  # the page drawn on, when not the last (see goto)
        self.drawn = 0  # bytes of raw drawing
        self.font: _FontUse | None = None
        self.size = 12.0
        self.text_rgb = "0 g"
        self.fill_rgb = "0 g"

    # -- state

    @property
    def page_count(self) -> int:
        """Pages so far (the current page's number)."""
        return len(self.pages)

    def _use(self, name: str) -> _FontUse:
        use = self.fonts.get(name)
        if use is None:
            if name not in self.font_sources:
                raise KeyError(f"no font {name!r}")
            index = list(self.font_sources).index(name) + 1
            use = self.fonts[name] = _FontUse(font_file(self.font_sources[name]), f"F{index}")
        return use

    def set_font(self, name: str, size: float) -> None:
        """Set text in font ``name`` at ``size`` points from now on."""
        self.font, self.size = self._use(name), float(size)

    def set_text_color(self, r: int, g: int, b: int) -> None:
        """The colour of text from now on (0-255 a channel)."""
        self.text_rgb = _rgb_op(r, g, b)

    def set_fill_color(self, r: int, g: int, b: int) -> None:
        """The colour of filled shapes from now on (0-255 a channel)."""
        self.fill_rgb = _rgb_op(r, g, b)

    def string_width(self, text: str) -> float:
        """Width of ``text`` in the current font and size, in mm."""
        if self.font is None:
            raise ValueError("no font set")
        return self.font.file.scale(self.font.width(text)) * self.size / 1000 / PT_PER_MM

    # -- drawing

    def add_page(self, width: float, height: float, *, bleed: float = 0.0) -> None:
        """Start a page ``width`` by ``height`` mm (its trim), drawn on from now on.

        With ``bleed`` (mm) the sheet is that much larger on the top, the bottom
        and the outer edge (the right of odd pages, the left of even ones), as
        print-on-demand services lay out a book's interior; its ``/TrimBox``
        says where it is cut. Coordinates stay the trimmed page's.
        """
        left = len(self.pages) % 2 == 1  # page 1 is a right-hand page
        b = bleed * PT_PER_MM
        self.pages.append(_Page(width * PT_PER_MM, height * PT_PER_MM, bleed=b, left=left))
        self.at = None

    def goto(self, number: int) -> None:
        """Draw on page ``number`` (1-based; one added earlier) until the next :meth:`add_page`."""
        if not 1 <= number <= len(self.pages):
            raise ValueError(f"no page {number}")
        self.at = number - 1

    def _page(self) -> _Page:
        if not self.pages:
            raise ValueError("no page: call add_page first")
        return self.pages[-1 if self.at is None else self.at]

    def text(self, x: float, y: float, text: str) -> None:
        """Set ``text`` with its baseline starting at ``(x, y)`` mm from the top-left corner."""
        if not text:
            return
        page, font = self._page(), self.font
        if font is None:
            raise ValueError("no font set")
        page.parts.append(
            f"BT /{font.resource} {_num(self.size)} Tf {self.text_rgb} "
            f"{x * PT_PER_MM:.2f} {page.height - y * PT_PER_MM:.2f} Td {font.encode(text)} Tj ET"
        )

    def ellipse(self, x: float, y: float, w: float, h: float) -> None:
        """Fill the ellipse in the box ``(x, y, w, h)`` mm (four Bezier quarters)."""
        page = self._page()
        rx, ry = w * PT_PER_MM / 2, h * PT_PER_MM / 2
        cx, cy = x * PT_PER_MM + rx, page.height - y * PT_PER_MM - ry
        k = 4 * (2**0.5 - 1) / 3  # the control points' distance for a quarter circle
        kx, ky = k * rx, k * ry
        points = [
            (cx + rx, cy), (cx + rx, cy + ky), (cx + kx, cy + ry), (cx, cy + ry),
            (cx - kx, cy + ry), (cx - rx, cy + ky), (cx - rx, cy),
            (cx - rx, cy - ky), (cx - kx, cy - ry), (cx, cy - ry),
            (cx + kx, cy - ry), (cx + rx, cy - ky), (cx + rx, cy),
        ]  # fmt: skip
        xy = [f"{px:.2f} {py:.2f}" for px, py in points]
        thirds = zip(xy[1::3], xy[2::3], xy[3::3], strict=True)
        curves = " ".join(f"{a} {b} {c} c" for a, b, c in thirds)
        page.parts.append(f"{self.fill_rgb} {xy[0]} m {curves} f")

    def raw(self, *ops: str) -> None:
        """Append content-stream operators to the page as they are (in points, y up)."""
        self._page().parts.extend(ops)
        self.drawn += sum(len(op) for op in ops)

    # -- the file

    def output(self) -> bytes:
        """The PDF file."""
        level = 1 if self.drawn > BIG_DRAWING else 6
        objects = _Objects()
        catalog, pages = objects.reserve(), objects.reserve()
        info = objects.add(self._info())
        fonts = [(use.resource, self._font_objects(objects, use)) for use in self.fonts.values()]
        font_dict = " ".join(f"/{name} {ref} 0 R" for name, ref in fonts)
        resources = f"/Resources << /Font << {font_dict} >> >>" if fonts else "/Resources << >>"
        kids = []
        for page in self.pages:
            parts, boxes = page.parts, f"/MediaBox [0 0 {_num(page.width)} {_num(page.height)}]"
            if page.bleed:
                b = page.bleed
                x = b if page.left else 0.0  # where the trim starts across the sheet
                sheet = f"[0 0 {_num(page.width + b)} {_num(page.height + 2 * b)}]"
                trim = f"[{_num(x)} {_num(b)} {_num(x + page.width)} {_num(b + page.height)}]"
                boxes = f"/MediaBox {sheet} /BleedBox {sheet} /TrimBox {trim}"
                parts = [f"q 1 0 0 1 {_num(x)} {_num(b)} cm", *parts, "Q"]
            contents = objects.add_stream(_deflate(parts, level), {"Filter": "/FlateDecode"})
            kids.append(
                objects.add(
                    f"<< /Type /Page /Parent {pages} 0 R {boxes} {resources} "
                    f"/Contents {contents} 0 R >>".encode()
                )
            )
        objects.put(catalog, f"<< /Type /Catalog /Pages {pages} 0 R >>".encode())
        refs = " ".join(f"{kid} 0 R" for kid in kids)
        objects.put(pages, f"<< /Type /Pages /Kids [{refs}] /Count {len(kids)} >>".encode())
        return objects.file(root=catalog, info=info)

    def _info(self) -> bytes:
        entries = [b"/" + key.encode() + b" " + _text_string(v) for key, v in self.info.items()]
        entries.append(b"/CreationDate " + _date(self.created))
        return b"<< " + b" ".join(entries) + b" >>"

    def _font_objects(self, objects: _Objects, use: _FontUse) -> int:
        """Write one font's objects; return the Type0 font's number."""
        ff = use.file
        program, gids = _subset(use)
        name = f"{_tag(use)}+{ff.postscript}"
        file_ref = objects.add_stream(
            zlib.compress(program, 6), {"Filter": "/FlateDecode", "Length1": str(len(program))}
        )
        flags = 4 | (1 << 6 if ff.italic_angle else 0)  # symbolic; italic
        bbox = " ".join(_num(ff.scale(v), 0) for v in ff.bbox)
        stem = round(10 + 220 * (ff.weight - 50) / 900)  # a guess from the weight class
        descriptor = objects.add(
            (
                f"<< /Type /FontDescriptor /FontName /{name} /Flags {flags} /FontBBox [{bbox}] "
                f"/ItalicAngle {_num(ff.italic_angle)} /Ascent {_num(ff.scale(ff.ascent), 0)} "
                f"/Descent {_num(ff.scale(ff.descent), 0)} "
                f"/CapHeight {_num(ff.scale(ff.cap_height), 0)} /StemV {stem} "
                f"/FontFile2 {file_ref} 0 R >>"
            ).encode()
        )
        cid_map = objects.add_stream(
            zlib.compress(b"".join(g.to_bytes(2, "big") for g in gids), 6),
            {"Filter": "/FlateDecode"},
        )
        widths = " ".join(_num(ff.scale(ff.advances[gid]), 3) for gid in use.gids)
        cid_font = objects.add(
            (
                f"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /{name} "
                "/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> "
                f"/FontDescriptor {descriptor} 0 R /DW {_num(ff.scale(ff.advances[0]), 3)} "
                f"/W [0 [{widths}]] /CIDToGIDMap {cid_map} 0 R >>"
            ).encode()
        )
        cmap = _to_unicode(use)
        to_unicode = objects.add_stream(zlib.compress(cmap, 6), {"Filter": "/FlateDecode"})
        return objects.add(
            (
                f"<< /Type /Font /Subtype /Type0 /BaseFont /{name} /Encoding /Identity-H "
                f"/DescendantFonts [{cid_font} 0 R] /ToUnicode {to_unicode} 0 R >>"
            ).encode()
        )


def _rgb_op(r: int, g: int, b: int) -> str:
    """The nonstroking colour operator: grey when the channels agree, else RGB."""
    if r == g == b:
        return f"{_num(r / 255, 4)} g"
    return f"{_num(r / 255, 4)} {_num(g / 255, 4)} {_num(b / 255, 4)} rg"


def _deflate(parts: Iterable[str], level: int) -> bytes:
    """Content-stream parts, one a line, compressed without joining them first."""
    z = zlib.compressobj(level)
    chunks = []
    for i, part in enumerate(parts):
        if i:
            chunks.append(z.compress(b"\n"))
        chunks.append(z.compress(part.encode("ascii")))
    chunks.append(z.flush())
    return b"".join(chunks)


class _Objects:
    """Numbered indirect objects, and the file made of them."""

    def __init__(self) -> None:
        self.bodies: list[tuple[bytes, ...] | None] = []

    def reserve(self) -> int:
        self.bodies.append(None)
        return len(self.bodies)

    def put(self, number: int, *body: bytes) -> None:
        self.bodies[number - 1] = body

    def add(self, *body: bytes) -> int:
        number = self.reserve()
        self.put(number, *body)
        return number

    def add_stream(self, data: bytes, entries: Mapping[str, str]) -> int:
        extra = "".join(f" /{key} {value}" for key, value in entries.items())
        head = f"<< /Length {len(data)}{extra} >>\nstream\n".encode("ascii")
        return self.add(head, data, b"\nendstream")  # not joined: a drawing may be megabytes

    def file(self, *, root: int, info: int) -> bytes:
        out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")  # high bytes: a binary file
        offsets = []
        for number, body in enumerate(self.bodies, start=1):
            if body is None:
                raise ValueError(f"object {number} was reserved but never written")
            offsets.append(len(out))
            out += b"%d 0 obj\n" % number
            for chunk in body:
                out += chunk
            out += b"\nendobj\n"
        xref = len(out)
        out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(offsets) + 1)
        out += b"".join(b"%010d 00000 n \n" % at for at in offsets)
        digest = hashlib.md5(out, usedforsecurity=False).hexdigest().upper().encode("ascii")
        out += (
            b"trailer\n<< /Size %d /Root %d 0 R /Info %d 0 R /ID [<%s> <%s>] >>\n"
            b"startxref\n%d\n%%%%EOF\n" % (len(offsets) + 1, root, info, digest, digest, xref)
        )
        return bytes(out)
