"""The committed samples are what ``python samples/make_samples.py`` writes.

The script runs, as its one command, into a temporary folder, and each file it
writes is compared with the committed one by its kind: JSON and Tiled maps as
data (numbers to a relative 1e-9), the SVG as XML (the same elements and
attributes, numbers to a relative 1e-6), the HTML game by its embedded data as
data and the rest as text, pictures (PNG, every GIF frame) by their text chunks
and pixels, and the PDF by its page count, its pages drawn by poppler's
pdftoppm and its words (pdftotext).

Pixels may differ by an edge moved one pixel (rounding) and by little ink (a
mean difference up to 1 of 255); in pictures with text (:data:`TYPESET`) a
fifth of a percent of the pixels may change besides, for the glyphs a
different font renderer draws. A changed wall, block or colour is a stale
sample. A second run, with another hash seed, must write the same bytes as the
first. The samples folder holds the script's outputs, its inputs and room files
written by hand, nothing else.
"""

from __future__ import annotations

import json
import math
import os
import re
import runpy
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageSequence

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples"
SCRIPT = SAMPLES / "make_samples.py"
REGENERATE = "regenerate the samples with `python samples/make_samples.py`"

MEAN_DIFFERENCE = 1.0
"""Largest mean absolute difference of two pictures' channels (0-255)."""
SIMILAR = 64
"""Channels this close (0-255) are the same ink."""
TYPESET = frozenset(
    {"algorithms.png", "level.png", "puzzle-page1.png", "puzzle-page2.png", "puzzle.pdf"}
)
"""Pictures with text: their glyphs may be drawn differently (font hinting, antialiasing)."""
TYPESET_CHANGE = 0.002
"""The share of a typeset picture's pixels that may change (in the others, none)."""
PDF_DPI = 30
PREVIEWS = ("puzzle-page1.png", "puzzle-page2.png")
"""Written only with pdftoppm at hand."""


def script_globals() -> dict:
    return runpy.run_path(str(SCRIPT), run_name="make_samples")


def tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        if os.environ.get("MAZEART_REQUIRE_TOOLS"):
            pytest.fail(f"{name} is not installed")
        pytest.skip(f"{name} is not installed")
    return path


def regenerate(out: Path, hash_seed: str) -> Path:
    """Run the script, as its one command, into ``out`` with the tree's own package."""
    env = dict(os.environ, PYTHONHASHSEED=hash_seed)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(out)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, f"make_samples.py failed:\n{done.stderr}"
    return out


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    return regenerate(tmp_path_factory.mktemp("samples"), "0")


# ----------------------------------------------------------------------------- comparisons


def same_number(a: float, b: float, rel: float) -> bool:
    return math.isclose(a, b, rel_tol=rel, abs_tol=rel * 1e-3)


def data_difference(new, old, where: str = "", rel: float = 1e-9) -> str | None:
    """Where two parsed documents differ (numbers to a relative ``rel``), or None."""
    place = where or "top level"
    numbers = (int, float)
    if isinstance(new, numbers) and isinstance(old, numbers) and bool not in (type(new), type(old)):
        return None if same_number(new, old, rel) else f"{place}: {new!r} != {old!r}"
    if type(new) is not type(old):
        return f"{place}: {type(new).__name__} != {type(old).__name__}"
    if isinstance(new, dict):
        if new.keys() != old.keys():
            return f"{place}: keys {sorted(new.keys() ^ old.keys())} in one only"
        for key in new:
            found = data_difference(new[key], old[key], f"{where}.{key}", rel)
            if found:
                return found
        return None
    if isinstance(new, list):
        if len(new) != len(old):
            return f"{place}: {len(new)} items != {len(old)}"
        for i, (a, b) in enumerate(zip(new, old, strict=True)):
            found = data_difference(a, b, f"{where}[{i}]", rel)
            if found:
                return found
        return None
    return None if new == old else f"{place}: {new!r} != {old!r}"


NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def text_difference(new: str, old: str, where: str, rel: float = 1e-6) -> str | None:
    """Whether two attribute values or texts differ beyond their numbers' tolerance."""
    if NUMBER.split(new) != NUMBER.split(old):
        return f"{where}: {new[:80]!r} != {old[:80]!r}"
    pairs = zip(NUMBER.findall(new), NUMBER.findall(old), strict=True)
    for a, b in pairs:
        if not same_number(float(a), float(b), rel):
            return f"{where}: {a} != {b}"
    return None


def xml_difference(new: ET.Element, old: ET.Element, where: str = "") -> str | None:
    """Where two XML trees differ: elements, attributes, texts (numbers to 1e-6)."""
    where = f"{where}/{new.tag.rpartition('}')[2]}"
    if new.tag != old.tag:
        return f"{where}: element {new.tag} != {old.tag}"
    if new.attrib.keys() != old.attrib.keys():
        return f"{where}: attributes {sorted(new.attrib.keys() ^ old.attrib.keys())} in one only"
    for key in new.attrib:
        found = text_difference(new.attrib[key], old.attrib[key], f"{where}@{key}")
        if found:
            return found
    for part in ("text", "tail"):
        found = text_difference(
            (getattr(new, part) or "").strip(), (getattr(old, part) or "").strip(), where
        )
        if found:
            return found
    if len(new) != len(old):
        return f"{where}: {len(new)} child elements != {len(old)}"
    for a, b in zip(new, old, strict=True):
        found = xml_difference(a, b, where)
        if found:
            return found
    return None


def unmatched(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pixels of ``a`` with no pixel of ``b`` within one pixel of them in the same ink."""
    h, w = a.shape[:2]
    padded = np.pad(b, ((1, 1), (1, 1), (0, 0)), mode="edge")
    matched = np.zeros((h, w), bool)
    for dy in range(3):
        for dx in range(3):
            near = padded[dy : dy + h, dx : dx + w]
            matched |= np.abs(a - near).max(axis=2) <= SIMILAR
    return ~matched


def picture_difference(
    new: Image.Image, old: Image.Image, where: str = "", *, typeset: bool = False
) -> str | None:
    """Whether two pictures differ by more than an edge moved by a pixel (rounding, font
    hinting) or a glyph drawn a little differently (``typeset``: a share of the pixels)."""
    if new.size != old.size:
        return f"{where}size {new.size} != {old.size}"
    a = np.asarray(new.convert("RGBA"), dtype=np.int16)
    b = np.asarray(old.convert("RGBA"), dtype=np.int16)
    mean = float(np.abs(a - b).mean())
    if mean > MEAN_DIFFERENCE:
        return f"{where}mean difference {mean:.3f} (at most {MEAN_DIFFERENCE})"
    changed = unmatched(a, b) | unmatched(b, a)
    allowed = int(TYPESET_CHANGE * changed.size) if typeset else 0
    if changed.sum() > allowed:
        y, x = np.argwhere(changed)[0]
        return (
            f"{where}{changed.sum()} pixels changed (at most {allowed}), the first at x={x} y={y}"
        )
    return None


def chunks_difference(new: Image.Image, old: Image.Image) -> str | None:
    """The pictures' text chunks (a PNG's maze data) compared, as data when they are JSON."""
    a = {k: v for k, v in new.info.items() if isinstance(v, str)}
    b = {k: v for k, v in old.info.items() if isinstance(v, str)}
    if a.keys() != b.keys():
        return f"text chunks {sorted(a.keys() ^ b.keys())} in one only"
    for key in a:
        try:
            found = data_difference(json.loads(a[key]), json.loads(b[key]), key)
        except ValueError:
            found = None if a[key] == b[key] else f"text chunk {key}: {a[key]!r} != {b[key]!r}"
        if found:
            return found
    return None


def frames_difference(new: Path, old: Path, *, typeset: bool) -> str | None:
    """Pictures and animations: their text chunks, frames, frame times and pixels."""
    with Image.open(new) as a, Image.open(old) as b:
        if a.format != b.format:
            return f"format {a.format} != {b.format}"
        found = chunks_difference(a, b)
        if found:
            return found
        if getattr(a, "n_frames", 1) != getattr(b, "n_frames", 1):
            return f"{a.n_frames} frames != {b.n_frames}"
        for i, (fa, fb) in enumerate(
            zip(ImageSequence.Iterator(a), ImageSequence.Iterator(b), strict=True)
        ):
            if fa.info.get("duration") != fb.info.get("duration"):
                return f"frame {i}: duration {fa.info.get('duration')} != {fb.info.get('duration')}"
            where = f"frame {i}: " if getattr(a, "n_frames", 1) > 1 else ""
            found = picture_difference(fa, fb, where, typeset=typeset)
            if found:
                return found
    return None


def pdf_pages(pdf: Path, folder: Path) -> list[Path]:
    folder.mkdir()
    subprocess.run(
        [tool("pdftoppm"), "-r", str(PDF_DPI), "-png", str(pdf), str(folder / "page")], check=True
    )
    return sorted(folder.glob("page-*.png"))


def pdf_words(pdf: Path) -> list[str]:
    done = subprocess.run(
        [tool("pdftotext"), str(pdf), "-"], check=True, capture_output=True, text=True
    )
    return done.stdout.split()


def pdf_difference(new: Path, old: Path, tmp_path: Path) -> str | None:
    """A PDF's pages drawn by pdftoppm (as typeset pictures) and its words."""
    a, b = pdf_pages(new, tmp_path / "new"), pdf_pages(old, tmp_path / "old")
    if len(a) != len(b):
        return f"{len(a)} pages != {len(b)}"
    for i, (pa, pb) in enumerate(zip(a, b, strict=True), 1):
        with Image.open(pa) as ia, Image.open(pb) as ib:
            found = picture_difference(ia, ib, f"page {i}: ", typeset=True)
        if found:
            return found
    words, before = pdf_words(new), pdf_words(old)
    if words != before:
        return f"text {' '.join(words)!r} != {' '.join(before)!r}"
    return None


GAME_DATA = re.compile(
    r'(<script id="mazeart-data" type="application/json">)(.*?)(</script>)', re.DOTALL
)


def html_difference(new: str, old: str) -> str | None:
    """The game's embedded data compared as data, the rest of the page as text."""
    a, b = GAME_DATA.search(new), GAME_DATA.search(old)
    if a is None or b is None:
        return "no embedded game data"
    found = data_difference(json.loads(a.group(2)), json.loads(b.group(2)), "data")
    if found:
        return found
    if GAME_DATA.sub(r"\1\3", new) != GAME_DATA.sub(r"\1\3", old):
        return "the page around the data"
    return None


def _paint_pixels(paint: dict) -> np.ndarray:
    import base64
    import io

    return np.asarray(Image.open(io.BytesIO(base64.b64decode(paint["png"]))).convert("RGBA"))


def difference(new: Path, old: Path, tmp_path: Path) -> str | None:
    """How a regenerated sample differs from the committed one, compared by its kind."""
    kind = new.suffix.lower()
    if kind in (".json", ".tmj"):
        a, b = json.loads(new.read_bytes()), json.loads(old.read_bytes())
        if a.get("format") == "mazeart-design":  # its paint is a PNG: compared by its pixels
            paints = [d.pop("paint") for d in (a, b)]
            if (paints[0] is None) != (paints[1] is None):
                return "a paint layer came or went"
            if paints[0] is not None and not np.array_equal(*map(_paint_pixels, paints)):
                return "the paint layer's pixels differ"
        return data_difference(a, b)
    if kind == ".svg":
        return xml_difference(ET.parse(new).getroot(), ET.parse(old).getroot())
    if kind == ".html":
        return html_difference(new.read_text(encoding="utf-8"), old.read_text(encoding="utf-8"))
    if kind in (".png", ".gif"):
        return frames_difference(new, old, typeset=new.name in TYPESET)
    if kind == ".pdf":
        return pdf_difference(new, old, tmp_path)
    raise AssertionError(f"no comparison for {kind} files: add one to tests/test_samples.py")


# ----------------------------------------------------------------------------- the samples

INPUTS = frozenset(script_globals()["INPUTS"])


def written_by_hand(path: Path) -> bool:
    """The script itself and room files (the script writes no TOML)."""
    return path == SCRIPT or path.suffix == ".toml"


OUTPUTS = sorted(
    p.name
    for p in SAMPLES.iterdir()
    if p.is_file() and p.name not in INPUTS and not written_by_hand(p)
)


def test_every_output_is_committed_and_every_sample_is_made(made):
    written = {p.name for p in made.iterdir()}
    if shutil.which("pdftoppm") is None and not os.environ.get("MAZEART_REQUIRE_TOOLS"):
        written |= set(PREVIEWS)  # not written without pdftoppm
    assert not written - set(OUTPUTS), (
        f"make_samples.py writes {sorted(written - set(OUTPUTS))}, not in samples/: {REGENERATE}"
    )
    assert not set(OUTPUTS) - written, (
        f"samples/ holds {sorted(set(OUTPUTS) - written)}, which make_samples.py does not write "
        "(remove them, or list them in its INPUTS if it reads them)"
    )
    assert INPUTS <= {p.name for p in SAMPLES.iterdir()}, "an input of make_samples.py is missing"


@pytest.mark.parametrize("name", OUTPUTS)
def test_sample_matches_what_the_script_writes(name, made, tmp_path):
    new = made / name
    if name in PREVIEWS:
        tool("pdftoppm")
    assert new.is_file(), f"make_samples.py no longer writes {name}"
    found = difference(new, SAMPLES / name, tmp_path)
    assert found is None, f"samples/{name} is stale ({found}): {REGENERATE}"


def test_two_runs_write_the_same_bytes(made, tmp_path):
    again = regenerate(tmp_path / "again", "1")
    names = sorted(p.name for p in made.iterdir())
    assert sorted(p.name for p in again.iterdir()) == names
    changed = [n for n in names if (made / n).read_bytes() != (again / n).read_bytes()]
    assert not changed, f"make_samples.py is not deterministic: {changed} differ between runs"


def test_inputs_are_what_the_script_makes(tmp_path):
    """The pictures the script makes when they are missing are the committed ones."""
    script_globals()["inputs"](tmp_path)
    for name in sorted(INPUTS):
        fresh = tmp_path / name
        if fresh.exists():  # rooms.toml is written by hand
            found = difference(fresh, SAMPLES / name, tmp_path)
            assert found is None, f"samples/{name} differs from what make_samples.py makes"


def test_readme_shows_only_committed_samples():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"\bsamples/([\w.-]+\.\w+)", readme))
    assert named, "README.md names no sample"
    missing = sorted(n for n in named if not (SAMPLES / n).is_file())
    assert not missing, f"README.md names samples that are not committed: {missing}"


# ----------------------------------------------------------------------------- the comparisons


def test_picture_comparison_allows_rounding_and_glyphs_but_not_walls():
    a = np.full((200, 300, 3), 255, np.uint8)
    a[10:190:20, 5:295] = 0  # walls
    a[2:8, 20:40] = 128  # a glyph's antialiased edge
    old = Image.fromarray(a)
    b = a.copy()
    b[2:8, 20:40] = 110  # a little darker
    assert picture_difference(Image.fromarray(b), old) is None
    b[8, 20:40] = 128  # an edge moved by a pixel
    assert picture_difference(Image.fromarray(b), old) is None
    b[3:6, 25:27] = 255  # a glyph drawn differently: in a typeset picture only
    assert "6 pixels changed (at most 0)" in picture_difference(Image.fromarray(b), old)
    assert picture_difference(Image.fromarray(b), old, typeset=True) is None
    b[30:150, 150:152] = 0  # a wall across
    assert "pixels changed" in picture_difference(Image.fromarray(b), old, typeset=True)
    assert "size" in picture_difference(Image.fromarray(a[1:]), old)
    assert "mean difference" in picture_difference(Image.fromarray(255 - a), old)


def test_data_and_xml_comparisons():
    assert data_difference({"a": [1, 2.0000000001]}, {"a": [1, 2]}) is None
    assert data_difference({"a": [1, 2.1]}, {"a": [1, 2]}) == ".a[1]: 2.1 != 2"
    assert "keys" in data_difference({"a": 1}, {"b": 1})
    assert data_difference(True, 1) is not None
    svg = '<svg width="{}mm"><path d="M0 {}V5"/></svg>'
    parse = ET.fromstring
    assert xml_difference(parse(svg.format(180, 2.0000001)), parse(svg.format(180, 2))) is None
    assert "@d" in xml_difference(parse(svg.format(180, 3)), parse(svg.format(180, 2)))
    assert "@width" in xml_difference(parse(svg.format("180.1", 2)), parse(svg.format(180, 2)))
    game = '<p>{}</p><script id="mazeart-data" type="application/json">{}</script>'
    assert html_difference(game.format("x", '{"a": 1.0}'), game.format("x", '{"a": 1}')) is None
    assert html_difference(game.format("y", "{}"), game.format("x", "{}")) is not None
    assert html_difference(game.format("x", '{"a": 2}'), game.format("x", '{"a": 1}')) is not None
