"""Pictures drawn here, never tuned on: logos, icons, glyphs and words for the drawn checks.

Each function draws one picture with Pillow (shapes and the shipped DejaVu fonts), so the
set needs no file and no network; :data:`PICTURES` names them all. They are what a user
brings to the main job: multi-colour logos with letters, icons with small inner shapes
(some in colours close together), glyphs with counters, words. The tests that render the
default output of each (``tests/test_drawn.py``) and ``benchmarks/bench_drawn.py`` use them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONTS = Path(__file__).resolve().parents[1] / "mazeart" / "fonts"

__all__ = ["PICTURES", "picture"]


def _font(size: int, bold: bool = True) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONTS / name), size)


def _canvas(w: int, h: int, mode: str = "RGB") -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new(mode, (w, h), (255, 255, 255) if mode == "RGB" else (0, 0, 0, 0))
    return img, ImageDraw.Draw(img)


def _text(draw: ImageDraw.ImageDraw, xy, text: str, size: int, fill, bold: bool = True) -> None:
    draw.text(xy, text, font=_font(size, bold), fill=fill, anchor="mm")


def word_logo() -> Image.Image:
    """A word logo: letters in two colours with counters, and a leaf beside them."""
    img, d = _canvas(640, 240)
    for i, ch in enumerate("Bloom"):
        _text(d, (110 + i * 92, 125), ch, 150, "#0f7b6c" if i % 2 == 0 else "#e06c1f")
    d.ellipse((560, 40, 620, 130), fill="#3a9d23")
    return img


def plus_disc() -> Image.Image:
    """An icon: a plus on a disc, two blues about 21 apart in CIE Lab."""
    img, d = _canvas(400, 400)
    d.ellipse((20, 20, 380, 380), fill="#2f5fb3")
    d.rectangle((165, 80, 235, 320), fill="#5b86d6")
    d.rectangle((80, 165, 320, 235), fill="#5b86d6")
    return img


def gift() -> Image.Image:
    """A gift icon: a red box, a gold ribbon across it and a bow with two holes."""
    img, d = _canvas(400, 420)
    d.rectangle((50, 150, 350, 400), fill="#c0282d")
    d.rectangle((30, 120, 370, 180), fill="#d8323a")
    d.rectangle((180, 120, 220, 400), fill="#f2c230")
    d.rectangle((30, 140, 370, 162), fill="#f2c230")
    for box in ((90, 40, 200, 130), (200, 40, 310, 130)):
        d.ellipse(box, fill="#f2c230")
    d.ellipse((125, 65, 175, 105), fill="white")
    d.ellipse((225, 65, 275, 105), fill="white")
    return img


def at_glyph() -> Image.Image:
    """The "@" glyph, black on white: a counter inside a counter."""
    img, d = _canvas(420, 420)
    _text(d, (210, 220), "@", 380, "black", bold=False)
    return img


def b_glyph() -> Image.Image:
    """A lower-case "b" and an ampersand: bowls and counters."""
    img, d = _canvas(520, 360)
    _text(d, (140, 180), "b", 330, "#202020")
    _text(d, (370, 190), "&", 300, "#202020")
    return img


def badge() -> Image.Image:
    """A badge on a transparent canvas: a navy ring around a yellow star."""
    img, d = _canvas(400, 400, "RGBA")
    d.ellipse((10, 10, 390, 390), fill="#1d3557")
    d.ellipse((60, 60, 340, 340), fill=(0, 0, 0, 0))
    d.regular_polygon((200, 205, 130), 5, fill="#ffb703")
    star = Image.new("L", (400, 400), 0)
    ImageDraw.Draw(star).regular_polygon((200, 205, 130), 5, fill=255)
    inner = Image.new("RGBA", (400, 400), "#ffb703")
    img.paste(inner, (0, 0), star)
    return img


def go_sign() -> Image.Image:
    """A sign: a blue rounded panel with white letters cut out and a red band."""
    img, d = _canvas(560, 300)
    d.rounded_rectangle((20, 20, 540, 280), radius=50, fill="#1565c0")
    d.rectangle((20, 210, 540, 245), fill="#e53935")
    _text(d, (280, 120), "GO!", 150, "white")
    return img


def hearts() -> Image.Image:
    """A red heart with a pink heart inside it."""
    img, d = _canvas(420, 400)

    def heart(cx: float, cy: float, s: float, fill: str) -> None:
        d.ellipse((cx - s, cy - s * 0.6, cx, cy + s * 0.4), fill=fill)
        d.ellipse((cx, cy - s * 0.6, cx + s, cy + s * 0.4), fill=fill)
        d.polygon([(cx - s * 0.97, cy), (cx + s * 0.97, cy), (cx, cy + s * 1.2)], fill=fill)

    heart(210, 150, 190, "#d62839")
    heart(210, 160, 90, "#f7a1b0")
    return img


def house() -> Image.Image:
    """A house icon: a roof, walls, a small window with panes and a door."""
    img, d = _canvas(440, 420)
    d.polygon([(20, 190), (220, 20), (420, 190)], fill="#9c2f2f")
    d.rectangle((60, 180, 380, 400), fill="#c8a06a")
    d.rectangle((100, 230, 190, 310), fill="#8fd3ff")
    d.line((145, 230, 145, 310), fill="#c8a06a", width=8)
    d.line((100, 270, 190, 270), fill="#c8a06a", width=8)
    d.rectangle((250, 260, 320, 400), fill="#5b3a1e")
    return img


def target() -> Image.Image:
    """A target: red and white rings around a blue centre."""
    img, d = _canvas(400, 400)
    for i, colour in enumerate(("#c62828", "white", "#c62828", "white", "#1e4fa0")):
        r = 190 - i * 38
        d.ellipse((200 - r, 200 - r, 200 + r, 200 + r), fill=colour)
    return img


def yin_yang() -> Image.Image:
    """A two-colour disc split by an S-curve, with a dot of each colour in the other."""
    img, d = _canvas(400, 400)
    d.ellipse((10, 10, 390, 390), fill="#222222")
    d.pieslice((10, 10, 390, 390), 90, 270, fill="#e9c46a")
    d.ellipse((105, 10, 295, 200), fill="#e9c46a")
    d.ellipse((105, 200, 295, 390), fill="#222222")
    d.ellipse((175, 80, 225, 130), fill="#222222")
    d.ellipse((175, 270, 225, 320), fill="#e9c46a")
    return img


def chat() -> Image.Image:
    """A speech bubble with three dots cut out of it."""
    img, d = _canvas(460, 380)
    d.rounded_rectangle((20, 20, 440, 290), radius=70, fill="#2a9d8f")
    d.polygon([(90, 270), (170, 270), (70, 360)], fill="#2a9d8f")
    for x in (140, 230, 320):
        d.ellipse((x - 28, 127, x + 28, 183), fill="white")
    return img


def tricolour_word() -> Image.Image:
    """A word whose letters are each their own colour, touching: "Pada"."""
    img, d = _canvas(620, 240)
    colours = ("#6a4c93", "#1982c4", "#8ac926", "#ff595e")
    for i, (ch, colour) in enumerate(zip("Pada", colours, strict=True)):
        _text(d, (105 + i * 140, 120), ch, 190, colour)
    return img


def camera_icon() -> Image.Image:
    """A camera icon: a dark body, a grey lens with a light ring, a small flash."""
    img, d = _canvas(480, 360)
    d.rounded_rectangle((20, 80, 460, 340), radius=40, fill="#37474f")
    d.rectangle((150, 40, 300, 100), fill="#37474f")
    d.ellipse((150, 120, 330, 300), fill="#cfd8dc")
    d.ellipse((185, 155, 295, 265), fill="#546e7a")
    d.rectangle((380, 110, 430, 140), fill="#ffca28")
    return img


PICTURES: dict[str, Callable[[], Image.Image]] = {
    "word-logo": word_logo,
    "plus-disc": plus_disc,
    "gift": gift,
    "at-glyph": at_glyph,
    "b-glyph": b_glyph,
    "badge": badge,
    "go-sign": go_sign,
    "hearts": hearts,
    "house": house,
    "target": target,
    "yin-yang": yin_yang,
    "chat": chat,
    "tricolour-word": tricolour_word,
    "camera-icon": camera_icon,
}
"""Every picture of the set, by name."""


def picture(name: str) -> Image.Image:
    """The picture ``name`` of :data:`PICTURES`."""
    return PICTURES[name]()
