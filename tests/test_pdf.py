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
    assert len(reader.pages) == 5 + 2  # five puzzles, answer keys four to a page
    texts = [p.extract_text() for p in reader.pages]
    for i, text in enumerate(texts, start=1):
        assert re.search(rf"(^|\D){i}(\D|$)", text), f"page number {i} missing"
        assert "page footer" in text
    assert "Answers" in texts[5] and "Answers" in texts[6]
    seeds = [int(re.search(r"seed (\d+)", t).group(1)) for t in texts[:5]]
    assert seeds == [40, 41, 42, 43, 44]
    # Page 4 (the horse, seed 43) made again on its own draws the same maze.
    single = tmp_path / "again.pdf"
    res = run_cli(
        HORSE, "-o", single, "--seed", "43", "--cells", "40", "--title", "Puzzles #4",
        "--footer", "page footer", "--no-answer",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    a, b = render(book, 4, tmp_path), render(single, 1, tmp_path)
    body = slice(0, int(a.shape[0] * 0.9))  # above the footer's page number
    assert np.array_equal(a[body], b[body])
    assert reddish(render(book, 6, tmp_path)) > 200


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
