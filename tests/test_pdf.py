"""PDF output read back by real readers: pypdf for structure, poppler's pdftoppm for pixels."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import numpy as np
import pytest
from conftest import REPO, run_cli
from PIL import Image
from pypdf import PdfReader

from mazeart import Maze, generate, preset_from_text, save
from mazeart.export.pdf import page_size, to_pdf_bytes

WORD = REPO / "samples" / "word.png"
HORSE = REPO / "samples" / "horse.png"


def render(pdf, page: int, tmp_path, dpi: int = 50) -> np.ndarray:
    """Page ``page`` (1-based) as an RGB array, drawn by pdftoppm."""
    if shutil.which("pdftoppm") is None:
        if os.environ.get("MAZEART_REQUIRE_TOOLS"):
            pytest.fail("pdftoppm (poppler-utils) is not installed")
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    stem = tmp_path / f"page{page}"
    subprocess.run(
        ["pdftoppm", "-r", str(dpi), "-f", str(page), "-l", str(page), "-png", "-singlefile",
         str(pdf), str(stem)],
        check=True,
    )  # fmt: skip
    return np.asarray(Image.open(f"{stem}.png").convert("RGB")).astype(int)


def reddish(img: np.ndarray) -> int:
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    return int(np.count_nonzero((r > 150) & (g < 110) & (b < 110)))


def dark(img: np.ndarray) -> int:
    return int(np.count_nonzero(img.sum(axis=2) < 200))


def test_single_maze_with_answer_key(tmp_path):
    maze = generate(np.zeros((30, 40), np.int32), rng=3)
    pdf = tmp_path / "maze.pdf"
    save(maze, pdf, title="Thirty by forty", footer="mazeart test")
    reader = PdfReader(pdf)
    assert len(reader.pages) == 2
    assert reader.metadata.title == "Thirty by forty"
    w, h = (float(x) * 25.4 / 72 for x in reader.pages[0].mediabox.upper_right)
    assert (round(w), round(h)) == (210, 297)
    text = reader.pages[0].extract_text()
    assert "Thirty by forty" in text and "seed 3" in text and "mazeart test" in text
    assert "Answer" in reader.pages[1].extract_text()
    for page in reader.pages:  # vector: no embedded images
        assert "/XObject" not in page["/Resources"]
    puzzle, key = render(pdf, 1, tmp_path), render(pdf, 2, tmp_path)
    assert dark(puzzle) > 2000  # walls were drawn
    assert reddish(key) > 10 * max(reddish(puzzle), 50)  # the solution is on the key only


def test_no_answer_and_page_sizes(tmp_path):
    maze = generate(np.zeros((10, 10), np.int32), rng=1, geometry="blocks")
    data = to_pdf_bytes(maze, answer=False, page="letter", landscape=True)
    pdf = tmp_path / "m.pdf"
    pdf.write_bytes(data)
    reader = PdfReader(pdf)
    assert len(reader.pages) == 1
    w, h = (float(x) / 72 for x in reader.pages[0].mediabox.upper_right)
    assert (round(w, 2), round(h, 2)) == (11.0, 8.5)
    assert page_size("100x150mm") == (100.0, 150.0)
    assert page_size("4x6in") == pytest.approx((101.6, 152.4))
    for bad in ("A9", "10x10", "wide"):
        with pytest.raises(ValueError, match="page"):
            page_size(bad)
    with pytest.raises(ValueError, match=r"'迷', which the PDF font .* has no glyph"):
        to_pdf_bytes(maze, title="迷路")


def test_any_european_text_prints_in_an_embedded_font(tmp_path):
    import shutil
    import subprocess

    maze = generate(np.zeros((6, 6), np.int32), rng=1)
    pdf = tmp_path / "m.pdf"
    pdf.write_bytes(to_pdf_bytes(maze, title="Jamie’s maze – 5 €", footer="Été ☃ Ωμέγα"))
    text = "".join(page.extract_text() for page in PdfReader(pdf).pages)
    assert "Jamie’s maze – 5 €" in text and "Été ☃ Ωμέγα" in text
    fonts = [f for page in PdfReader(pdf).pages for f in page["/Resources"]["/Font"].values()]
    assert fonts
    for font in fonts:  # every font a subset with its program in the file
        desc = font.get_object()["/DescendantFonts"][0].get_object()["/FontDescriptor"]
        assert "/FontFile2" in desc.get_object() and "+" in str(font.get_object()["/BaseFont"])
    if shutil.which("pdffonts"):  # poppler's own reading agrees
        rows = subprocess.run(["pdffonts", pdf], capture_output=True, text=True).stdout
        table = rows.splitlines()[2:]
        assert table and all(row.split()[-5] == "yes" for row in table), rows


def test_blocks_and_rooms_render(tmp_path):
    text = "..........\n..AAa.....\n..AAA.....\n..........\n.........."
    maze = generate(preset_from_text(text), rng=2)
    pdf = tmp_path / "rooms.pdf"
    save(maze, pdf)
    assert dark(render(pdf, 1, tmp_path)) > 500


def test_book_pages_and_regenerable_seeds(tmp_path):
    book = tmp_path / "book.pdf"
    res = run_cli(
        "book", WORD, HORSE, "--count", "5", "-o", book, "--seed", "40", "--cells", "40",
        "--title", "Puzzles", "--footer", "page footer",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert res.stderr.count("\n") == 1  # no progress bar when stderr is not a terminal
    reader = PdfReader(book)
    assert len(reader.pages) == 2 + 5 + 2  # cover, contents, puzzles, answer keys 4 a page
    texts = [p.extract_text() for p in reader.pages]
    assert "Puzzles" in texts[0] and "5 mazes" in texts[0] and "page footer" not in texts[0]
    for i, text in enumerate(texts[1:], start=2):
        assert re.search(rf"(^|\D){i}(\D|$)", text), f"page number {i} missing"
        assert "page footer" in text
    assert "Answers" in texts[7] and "Answers" in texts[8]
    seeds = [int(re.search(r"seed (\d+)", t).group(1)) for t in texts[2:7]]
    assert seeds == [40, 41, 42, 43, 44]
    # Puzzle 4 (the horse, seed 43, page 6) made again on its own draws the same maze.
    single = tmp_path / "again.pdf"
    res = run_cli(
        HORSE, "-o", single, "--seed", "43", "--cells", "40", "--title", "Puzzles #4",
        "--footer", "page footer", "--no-answer",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    a, b = render(book, 6, tmp_path), render(single, 1, tmp_path)
    body = slice(0, int(a.shape[0] * 0.9))  # above the footer's page number
    assert np.array_equal(a[body], b[body])
    assert reddish(render(book, 8, tmp_path)) > 200


def _boxes(pdf) -> list[dict[str, list[float]]]:
    """Every page's boxes as poppler's pdfinfo reads them."""
    if shutil.which("pdfinfo") is None:
        if os.environ.get("MAZEART_REQUIRE_TOOLS"):
            pytest.fail("pdfinfo (poppler-utils) is not installed")
        pytest.skip("pdfinfo (poppler-utils) is not installed")
    out = subprocess.run(
        ["pdfinfo", "-box", "-f", "1", "-l", "999", str(pdf)], check=True, capture_output=True,
        text=True,
    ).stdout  # fmt: skip
    pages: dict[int, dict[str, list[float]]] = {}
    for page, box, numbers in re.findall(r"Page\s+(\d+) (\w+Box):\s+([\d. ]+)", out):
        pages.setdefault(int(page), {})[box] = [float(x) for x in numbers.split()]
    return [pages[k] for k in sorted(pages)]


@pytest.mark.parametrize(("page", "trim"), [("6x9in", (432, 648)), ("8.5x11in", (612, 792))])
def test_book_trim_and_bleed_read_by_pdfinfo(tmp_path, page, trim):
    """With --bleed every sheet is the trim plus 1/8 in on the top, bottom and outer edge
    (the right of odd pages, the left of even ones), its TrimBox the trim itself."""
    book = tmp_path / "kdp.pdf"
    res = run_cli("book", HORSE, "-o", book, "--count", "3", "--page", page, "--bleed",
                  "--seed", "1", "--title", "Horses")  # fmt: skip
    assert res.returncode == 0, res.stderr
    boxes = _boxes(book)
    assert len(boxes) == 2 + 3 + 1
    w, h = trim
    for number, box in enumerate(boxes, start=1):
        assert box["MediaBox"] == [0, 0, w + 9, h + 18]
        assert box["BleedBox"] == box["MediaBox"]
        x = 0 if number % 2 else 9  # the outer edge: right on odd pages, left on even
        assert box["TrimBox"] == [x, 9, x + w, 9 + h]
    # Without --bleed the sheet is the trim.
    res = run_cli("book", HORSE, "-o", book, "--count", "1", "--page", page, "--seed", "1")
    assert res.returncode == 0, res.stderr
    assert all(b["MediaBox"] == [0, 0, w, h] == b["TrimBox"] for b in _boxes(book))
    # The drawing stays inside the trim, away from its edges: the margins hold.
    res = run_cli("book", HORSE, "-o", book, "--count", "2", "--page", page, "--bleed",
                  "--seed", "1")  # fmt: skip
    for number in (3, 4):
        img = render(book, number, tmp_path, dpi=72)  # a pixel a point
        ink = np.argwhere(img.sum(axis=2) < 600)
        x0 = 0 if number % 2 else 9
        assert ink[:, 1].min() > x0 + 20 and ink[:, 1].max() < x0 + w - 20
        assert ink[:, 0].min() > 9 + 20 and ink[:, 0].max() < 9 + h - 20


def test_book_contents_point_at_the_puzzles(tmp_path):
    """Each contents line names a puzzle, its picture and a page; that page is headed by it."""
    book = tmp_path / "book.pdf"
    res = run_cli("book", HORSE, WORD, "--count", "4", "-o", book, "--seed", "3")
    assert res.returncode == 0, res.stderr
    texts = [p.extract_text() for p in PdfReader(book).pages]
    line = r"(Maze \d+)\s+(\S+\.png)\s*/\s*(\d+) x (\d+), ([\d,]+) cells[ .]*?(\d+)\s*$"
    lines = re.findall(line, texts[1], re.M)
    assert [name for name, *_ in lines] == ["Maze 1", "Maze 2", "Maze 3", "Maze 4"]
    assert [src for _, src, *_ in lines] == ["horse.png", "word.png"] * 2
    for name, _, width, height, _, page in lines:
        assert name in texts[int(page) - 1].split("\n")[:2]  # its heading (after its number)
        assert f"{width} x {height}" in texts[int(page) - 1]  # the page's caption
    answers = re.search(r"Answers[ .]*?(\d+)\s*$", texts[1], re.M)
    assert answers and "Answers" in texts[int(answers.group(1)) - 1].split("\n")[:2]
    # No cover, no contents: the puzzles start on page 1.
    res = run_cli("book", HORSE, "--count", "1", "-o", book, "--no-cover", "--no-contents")
    assert PdfReader(book).pages[0].extract_text().split("\n")[:2] == ["1", "Maze 1"]


def test_book_sizes_each_picture_for_its_page(tmp_path):
    """A word and a horse in one book: each sized on its own, the word's letters wider than
    one --cells for both made them, both about as many cells, no cell under 1.5 mm."""
    from mazeart import make
    from mazeart.pipeline import _figure_strokes

    book = tmp_path / "book.pdf"
    res = run_cli("book", HORSE, WORD, "--count", "2", "-o", book, "--seed", "3", "--landscape")
    assert res.returncode == 0, res.stderr
    contents = PdfReader(book).pages[1].extract_text()
    sizes = [tuple(int(v.replace(",", "")) for v in m) for m in
             re.findall(r"(\d+) x (\d+), ([\d,]+) cells", contents)]  # fmt: skip
    (_, _, horse_cells), (ww, _, word_cells) = sizes
    assert 0.5 < word_cells / horse_cells < 2.0
    page_w, _ = page_size("A4", landscape=True)
    assert (page_w - 30) / ww >= 1.5  # mm a printed cell, the page's width across

    def stroke(cells: int) -> float:  # the word's maze: its strokes in cells
        region = make(WORD, cells=cells, rng=1).maze.region
        from PIL import Image as PILImage

        picture = PILImage.fromarray(np.where(region, 0, 255).astype(np.uint8))
        return _figure_strokes(picture, 128, False)[2]

    assert stroke(ww) >= 1.5 and stroke(ww) > 1.4 * stroke(45)


def test_book_bad_inputs(tmp_path):
    out = tmp_path / "b.pdf"
    res = run_cli("book", WORD, "-o", tmp_path / "b.svg")
    assert res.returncode == 2 and "a book is a .pdf" in res.stderr
    res = run_cli("book", WORD, "-o", out, "--count", "0")
    assert res.returncode == 2 and "count must be an integer" in res.stderr
    res = run_cli("book", WORD, "-o", out, "--title", "迷路")
    assert res.returncode == 2 and "no glyph" in res.stderr
    assert not out.exists()
    assert not list(tmp_path.iterdir())  # no temporary files left either


def test_pdf_scales_a_maze_to_any_page(tmp_path):
    maze = Maze.from_text("#####\n#S  #\n### #\n#E  #\n#####")
    for page in ("A5", "A3", "60x60mm"):
        pdf = tmp_path / f"{page}.pdf"
        pdf.write_bytes(to_pdf_bytes(maze, page=page, page_margin=5))
        img = render(pdf, 2, tmp_path)
        assert dark(img) > 0 and reddish(img) > 0
