"""Maze art checked on what is drawn: every maze walkable as printed, no gap in its outer wall
but its two doors, on pictures made here (words in two weights of type, a multi-part logo,
a shape with a hole) and the samples."""

from __future__ import annotations

import pytest
from conftest import REPO
from PIL import Image, ImageDraw, ImageFont

from mazeart import make
from mazeart.guide import drawn

FONTS = REPO / "mazeart" / "fonts"


def _word(tmp_path, text: str, font: str, size: int) -> str:
    face = ImageFont.truetype(str(FONTS / font), size)
    left, top, right, bottom = face.getbbox(text)
    img = Image.new("L", (right - left + 40, bottom - top + 40), 255)
    ImageDraw.Draw(img).text((20 - left, 20 - top), text, font=face, fill=0)
    path = tmp_path / f"{text}-{font}.png"
    img.save(path)
    return str(path)


def _logo(tmp_path) -> str:
    """Separate islands of different sizes, one with a hole, one thin."""
    img = Image.new("RGB", (600, 400), "white")
    pen = ImageDraw.Draw(img)
    pen.ellipse((20, 40, 260, 280), fill="black")
    pen.ellipse((90, 110, 190, 210), fill="white")  # a hole
    pen.rectangle((300, 60, 560, 120), fill="black")
    pen.polygon([(300, 360), (430, 160), (560, 360)], fill="black")
    pen.line((40, 340, 260, 300), fill="black", width=14)  # a thin stroke
    path = tmp_path / "logo.png"
    img.save(path)
    return str(path)


@pytest.fixture(scope="module")
def pictures(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("art")
    return {
        "bold word": _word(tmp, "MAZE", "DejaVuSans-Bold.ttf", 160),
        "thin word": _word(tmp, "maze art", "DejaVuSans.ttf", 120),
        "logo": _logo(tmp),
        "horse": str(REPO / "samples" / "horse.png"),
    }


@pytest.mark.parametrize("outline", [None, "smooth"])
@pytest.mark.parametrize("cells", [50, 120])
@pytest.mark.parametrize("name", ["bold word", "thin word", "logo", "horse"])
def test_every_maze_is_walkable_as_drawn(pictures, name, cells, outline):
    made = make(pictures[name], cells=cells, rng=3, outline=outline)
    check = drawn(made.maze)
    assert check["reachable"] >= 0.99, check
    assert check["leaks"] == 0, check


def test_the_check_sees_a_sealed_maze_and_a_gap(pictures, monkeypatch):
    """The drawn check is not blind: a wall across the maze, or a hole in the outline, shows."""
    import numpy as np

    import mazeart.outline
    from mazeart.maze import Maze

    maze = make(pictures["bold word"], cells=60, rng=3).maze
    whole_maze = drawn(maze)
    assert whole_maze["reachable"] >= 0.99 and whole_maze["leaks"] == 0
    # close every passage across one column: the far side cannot be walked to
    p = maze.passages.copy()
    mid = maze.width // 2
    p[:, mid - 1] &= ~np.uint8(2)
    p[:, mid] &= ~np.uint8(8)
    cut = Maze(maze.mask, p, region=maze.region, entrance=maze.entrance, exit=maze.exit)
    assert drawn(cut)["reachable"] < 0.9
    # a smooth maze whose drawn outline loses a piece: the outside gets in there
    smooth = make(pictures["bold word"], cells=60, rng=3, outline="smooth").maze
    assert drawn(smooth)["leaks"] == 0
    whole = mazeart.outline.outline_paths

    def torn(m, **options):
        paths = whole(m, **options)
        longest = max(range(len(paths)), key=lambda i: len(paths[i]))
        line = paths[longest]
        k = len(line) // 2
        return [*paths[:longest], line[:k], line[k + 3 :], *paths[longest + 1 :]]

    monkeypatch.setattr(mazeart.outline, "outline_paths", torn)
    assert drawn(smooth)["leaks"] >= 1


def test_a_photograph_reads_as_itself_by_default():
    """scikit-image's cameraman: drawn by its tones, so a blurred render looks like the photo."""
    import numpy as np
    from conftest import SKIMAGE_DATA
    from PIL import ImageFilter

    from mazeart.export import to_png_image

    camera = SKIMAGE_DATA / "camera.png"
    made = make(camera, cells=100, rng=1)
    assert any("photograph" in note for note in made.notes)
    grey = np.asarray(Image.open(camera).convert("L").resize((50, 50), Image.Resampling.BOX), float)
    render = to_png_image(made.maze, cell_size=6, margin=0).convert("L")
    small = render.filter(ImageFilter.GaussianBlur(4)).resize((50, 50), Image.Resampling.BOX)
    r = np.corrcoef(np.asarray(small, float).ravel(), grey.ravel())[0, 1]
    assert r >= 0.8
    # read as a silhouette (asked for, or by an option that reads one), the photograph is
    # its dark tones: a positive of it, and the report says so
    for how in ({"mode": "silhouette"}, {"grid": "hex", "mode": "silhouette"},
                {"outline": "smooth"}):  # fmt: skip
        made = make(camera, cells=100, rng=1, **how)
        assert any("photograph read as a silhouette" in note for note in made.notes), how
        render = to_png_image(made.maze, cell_size=6, margin=0, background="#ffffff")
        small = render.convert("L").filter(ImageFilter.GaussianBlur(4))
        small = np.asarray(small.resize((50, 50), Image.Resampling.BOX), float)
        assert np.corrcoef(small.ravel(), grey.ravel())[0, 1] >= 0.8, how


@pytest.mark.parametrize(("grid", "least"), [("hex", 0.85), ("triangle", 0.85), ("polar", 0.85),
                                             ("upsilon", 0.25)])  # fmt: skip
def test_a_photograph_reads_as_itself_on_every_grid(grid, least):
    """Tone on another grid: the walls' widths follow the photograph's darkness, so the
    blurred render (cropped to the maze's cells: a polar grid's disc reaches past the
    picture) looks like it. The upsilon grid's short sides leave its walls little room
    (every passage must stay open as drawn): a faint likeness, but one."""
    import numpy as np
    from conftest import SKIMAGE_DATA
    from PIL import ImageFilter

    from mazeart.export import to_png_image

    camera = SKIMAGE_DATA / "camera.png"
    made = make(camera, cells=100, rng=1, grid=grid)
    assert any("drawn by its tones" in note for note in made.notes)
    maze, g = made.maze, made.maze.grid
    corners = np.concatenate([g.polygon(int(c)) for c in np.flatnonzero(maze.mask)]) * 6
    box = (*corners.min(axis=0), *corners.max(axis=0))
    render = to_png_image(maze, cell_size=6, margin=0, background="#ffffff").convert("L")
    small = render.crop(box).filter(ImageFilter.GaussianBlur(4))
    small = np.asarray(small.resize((50, 50), Image.Resampling.BOX), float)
    grey = np.asarray(Image.open(camera).convert("L").resize((50, 50), Image.Resampling.BOX), float)
    assert np.corrcoef(small.ravel(), grey.ravel())[0, 1] >= least


def test_a_logos_design_shows_by_default_and_a_silhouette_stays_one(pictures, tmp_path):
    import warnings

    logo = make(REPO / "samples" / "logo.png", cells=60, rng=1)
    assert any("colour regions" in note for note in logo.notes)
    assert logo.maze.guide.edge_labels is not None
    plain = make(REPO / "samples" / "logo.png", cells=60, rng=1, edges=False)
    assert plain.maze.guide.edge_labels is None and not plain.notes
    disc = Image.new("RGB", (200, 200), "white")
    ImageDraw.Draw(disc).ellipse((20, 20, 180, 180), fill="red")
    disc.save(tmp_path / "disc.png")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no library warning reaches the user
        one = make(tmp_path / "disc.png", cells=40, rng=1)
    assert not one.notes and one.maze.guide.edge_labels is None
    assert make(pictures["bold word"], cells=60, rng=1).maze.guide.edge_labels is None


def test_specks_of_a_noisy_picture_are_left_out_and_said(tmp_path):
    import numpy as np

    rng = np.random.default_rng(1)
    a = np.full((300, 400), 255, np.uint8)
    a[50:250, 50:350] = 0
    noise = rng.random(a.shape) < 0.02
    a[noise] = 255 - a[noise]
    Image.fromarray(a).save(tmp_path / "noisy.jpg", quality=30)
    made = make(tmp_path / "noisy.jpg", cells=200, rng=1)
    assert made.specks[0] > 10 and "specks" in made.summary()
    assert made.report.bridges <= 2
    web = make(tmp_path / "noisy.jpg", cells=200, rng=1, min_island=0)
    assert web.report.bridges > 10 * max(1, made.report.bridges)


def test_a_wide_word_on_rings_is_said_to_read_poorly(pictures):
    """The polar grid fits a round figure: a word four times as wide as tall gets few rings
    across its height, and the report says so (and what reads it better)."""
    made = make(pictures["bold word"], cells=40, rng=1, grid="polar")
    assert any("polar grid's rings fit a round one" in note for note in made.notes)
    assert "grid='hex'" in made.summary()
    round_one = make(REPO / "samples" / "horse.png", cells=40, rng=1, grid="polar")
    assert not any("rings" in note for note in round_one.notes)


def _icon(char: str, colour: str, *, jpeg: bool, tmp_path) -> str:
    """A glyph of the shipped font as a flat icon, saved as PNG or as a JPEG's noisy copy."""
    face = ImageFont.truetype(str(FONTS / "DejaVuSans.ttf"), 300)
    img = Image.new("RGB", (360, 360), "white")
    ImageDraw.Draw(img).text((180, 180), char, font=face, fill=colour, anchor="mm")
    path = tmp_path / f"icon-{ord(char)}.{'jpg' if jpeg else 'png'}"
    img.save(path, quality=70) if jpeg else img.save(path)
    return str(path)


@pytest.mark.parametrize(
    ("name", "photo"),
    [("chelsea.png", True), ("rocket.jpg", True), ("moon.png", True), ("coins.png", True),
     ("hubble_deep_field.jpg", True), ("microaneurysms.png", True), ("horse.png", False),
     ("logo.png", False)],
)  # fmt: skip
def test_photographs_and_drawings_are_told_apart(name, photo, tmp_path):
    """Photographs of every kind (colour, grey, dim, low contrast, starry) are read by their
    tones; drawings, flat or anti-aliased, are read as figures. The cat and the rocket once
    came out as a silhouette's blobs joined by bridges."""
    from conftest import SKIMAGE_DATA

    made = make(SKIMAGE_DATA / name, cells=40, rng=1)
    assert (made.maze.guide.tone is not None) == photo, made.summary()


@pytest.mark.parametrize(("char", "colour"), [("★", "black"), ("♞", "#c0392b"), ("✈", "#1e6fb8")])
@pytest.mark.parametrize("jpeg", [False, True], ids=["png", "jpeg"])
def test_icons_read_as_figures_even_as_jpeg(char, colour, jpeg, tmp_path):
    made = make(_icon(char, colour, jpeg=jpeg, tmp_path=tmp_path), cells=40, rng=1)
    assert made.maze.guide.tone is None and made.report.parts <= 2, made.summary()


def test_a_result_that_will_not_read_says_what_to_try():
    """A photograph read as a silhouette that falls into many parts: the warning names it
    and the options that help; a figure that reads well gets no such warning."""
    from conftest import SKIMAGE_DATA

    made = make(SKIMAGE_DATA / "brick.png", cells=60, rng=1, mode="silhouette")
    said = [w for w in made.warnings if "may not read" in w]
    assert len(said) == 1 and "--mode tone" in said[0] and f"{made.report.parts} parts" in said[0]
    assert made.report.parts >= 10
    assert not [w for w in make(REPO / "samples" / "horse.png", cells=60, rng=1).warnings]
