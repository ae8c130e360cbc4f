"""The library recipe (make, save), the immutable model, one rng, one kind of error."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import SKIMAGE_DATA, presets
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

import mazeart
from mazeart import Guide, Maze, MazeartError, generate, make, save
from mazeart.errors import FileFormatError, InvalidMazeError, NoPathError, check_int, check_number
from mazeart.mazefile import dumps, loads

HORSE = SKIMAGE_DATA / "horse.png"


# ----------------------------------------------------------------------------- errors


def test_one_exception_family():
    for cls in (InvalidMazeError, NoPathError, FileFormatError):
        assert issubclass(cls, MazeartError) and issubclass(cls, ValueError)
    with pytest.raises(InvalidMazeError, match="symmetric"):
        Maze(np.ones((1, 2), bool), np.array([[2, 0]], np.uint8))
    maze = Maze.from_text("#####\n#S# #\n### #\n#  E#\n#####")
    with pytest.raises(NoPathError):
        mazeart.solve(maze)
    with pytest.raises(FileFormatError, match="not valid JSON"):
        loads("{")


@pytest.mark.parametrize("good", [3, np.int64(3), np.uint8(3)])
def test_integer_checks_take_any_integer(good):
    assert check_int(good, "n") == 3 and type(check_int(good, "n")) is int


@pytest.mark.parametrize("bad", [True, 3.0, "3", None, np.float64(3)])
def test_integer_checks_refuse_other_types(bad):
    with pytest.raises(TypeError, match="n must be an integer"):
        check_int(bad, "n")


def test_range_checks_name_the_range():
    with pytest.raises(MazeartError, match="n must be an integer from 1 to 5, got 9"):
        check_int(9, "n", maximum=5)
    with pytest.raises(MazeartError, match=r"x must be a finite number in \[0, 1\], got nan"):
        check_number(float("nan"), "x", low=0, high=1)
    with pytest.raises(MazeartError, match=r"\(0, 1\]"):
        check_number(0, "x", low=0, high=1, low_open=True)
    assert check_number(np.float32(0.5), "x", low=0, high=1) == 0.5


# ----------------------------------------------------------------------------- rng


def test_rng_is_a_seed_or_a_generator_everywhere():
    weights = np.zeros((12, 12), np.int32)
    by_int = generate(weights, rng=5, braid=0.5, place="loot=2")
    assert by_int.meta["seed"] == 5
    again = generate(weights, rng=5, braid=0.5, place="loot=2")
    assert again == by_int
    by_gen = generate(weights, rng=np.random.default_rng(5), braid=0.5, place="loot=2")
    assert by_gen.meta["seed"] is None  # a Generator carries no seed to record
    fresh = generate(weights)
    assert isinstance(fresh.meta["seed"], int)  # a fresh seed is drawn and recorded
    assert generate(weights, rng=fresh.meta["seed"]) == fresh
    assert mazeart.braid(by_int, 1.0, 3) == mazeart.braid(by_int, 1.0, np.random.default_rng(3))
    with pytest.raises(TypeError, match="rng=SEED"):
        generate(weights, seed=5)
    with pytest.raises(TypeError, match="rng"):
        generate(weights, rng=5.0)
    with pytest.raises(MazeartError, match="non-negative"):
        make(weights, rng=-1)


# ----------------------------------------------------------------------------- the model


def test_a_maze_cannot_be_changed_in_place():
    made = make(HORSE, cells=30, outline="smooth", rng=2, place="loot=2")
    maze = made.maze
    with pytest.raises(AttributeError, match="immutable"):
        maze.entrance = (0, 0)  # type: ignore[misc]
    with pytest.raises(TypeError):
        maze.meta["seed"] = 3  # type: ignore[index]
    with pytest.raises(TypeError):
        maze.meta["options"]["anything"] = 1  # type: ignore[index]
    with pytest.raises(TypeError):
        maze.tags[(0, 0)] = "loot"  # type: ignore[index]
    for arr in (maze.mask, maze.passages, maze.region, *maze.guide.outline):
        with pytest.raises(ValueError, match="read-only"):
            arr[0] = 0
    assert maze.guide.outline and maze.guide.tone is None
    assert "outline" not in maze.meta  # meta is provenance only
    moved = maze.replace(entrance=maze.exit, exit=maze.entrance)
    assert moved.entrance == maze.exit and maze.entrance != maze.exit


def test_guide_checks_its_data():
    with pytest.raises(InvalidMazeError, match="from 0 to 1"):
        Guide(tone=[[0.5, 2.0]])
    with pytest.raises(InvalidMazeError, match="not finite"):
        Guide(outline=[[[0, 0], [1, np.inf], [1, 1]]])
    with pytest.raises(InvalidMazeError, match="tone map"):
        generate(np.zeros((2, 2), np.int32), rng=1).replace(guide=Guide(tone=np.zeros((3, 3))))
    with pytest.raises(TypeError, match="Guide"):
        generate(np.zeros((2, 2), np.int32), rng=1).replace(guide={"tone": None})


@given(presets(max_side=10), st.integers(0, 2**31 - 1))
def test_a_guide_survives_the_saved_format(weights, seed):
    maze = generate(weights, rng=seed)
    rng = np.random.default_rng(seed)
    guide = Guide(
        outline=[rng.random((5, 2)).round(3) * maze.width],
        edge_labels=rng.integers(0, 36, maze.shape),
        edge_curves=[rng.random((3, 2))],
        tone=rng.random(maze.shape),
    )
    guided = maze.replace(guide=guide)
    back = loads(dumps(guided))
    assert back == guided and back.guide == guide
    assert dumps(back) == dumps(guided)


# ----------------------------------------------------------------------------- make and save


def test_every_kind_of_source():
    img = Image.open(HORSE)
    by_path = make(HORSE, cells=30, rng=1)
    by_image = make(img, cells=30, rng=1)
    assert by_path.maze == by_image.maze and by_path.picture is not None
    by_array = make(by_path.preset, rng=1)
    assert by_array.maze == by_path.maze and by_array.picture is None
    by_text = make("....\n.##.\n....", rng=1)
    assert by_text.maze.n_cells == 10
    assert make(by_path.maze).maze is by_path.maze  # a maze is a saved maze: used as it is
    with pytest.raises(MazeartError, match="algorithm: generation options do not apply"):
        make(by_path.maze, algorithm="prim")
    with pytest.raises(TypeError, match="source"):
        make(3.5)
    with pytest.raises(MazeartError, match="no such file"):
        make("missing.png")


def test_options_that_do_not_fit_together_are_refused():
    with pytest.raises(MazeartError, match="does not mix"):
        make(HORSE, tone=True, edges=True)
    with pytest.raises(MazeartError, match="segments applies with edges or regions"):
        make(HORSE, segments=3)
    with pytest.raises(MazeartError, match="read the picture"):
        make(np.zeros((5, 5), np.int32), outline="smooth")
    with pytest.raises(MazeartError, match="flow generator, not prim"):
        make(HORSE, regions=True, algorithm="prim")
    with pytest.raises(MazeartError, match="cells geometry"):
        make(HORSE, edges=True, geometry="blocks")
    with pytest.raises(MazeartError, match="unknown difficulty"):
        make(HORSE, difficulty="brutal")
    with pytest.raises(MazeartError, match="has no option"):
        make(HORSE, cells=20, speed=3)


def test_regions_choose_the_flow_generator_and_its_bias():
    made = make(HORSE, cells=30, regions=True, segments=1, rng=1, bias=0.2)
    assert made.maze.meta["algorithm"] == "flow"
    by_args = make(HORSE, cells=30, regions=True, segments=1, rng=1, args=["--bias", "0.2"])
    assert by_args.maze == made.maze


def test_levels_and_books_shift_the_seed(tmp_path):
    levels = mazeart.make_many(HORSE, 3, cells=20, rng=7)
    assert [m.maze.meta["seed"] for m in levels] == [7, 8, 9]
    assert levels[2].maze == make(HORSE, cells=20, rng=9).maze
    book = mazeart.make_book([HORSE], tmp_path / "b.pdf", count=2, rng=7, cells=20)
    assert book.read_bytes().startswith(b"%PDF")


def test_save_knows_each_formats_options(tmp_path):
    made = make(HORSE, cells=20, rng=1, record=True)
    with pytest.raises(MazeartError, match=r"title: not an option of \.svg"):
        save(made, tmp_path / "m.svg", title="no titles in SVG")
    with pytest.raises(MazeartError, match=r"cell_size: not an option of \.json"):
        save(made, tmp_path / "m.json", cell_size=4)
    with pytest.raises(MazeartError, match="drawn in"):
        save(made, tmp_path / "m.txt", solution=True)
    assert list(tmp_path.iterdir()) == []
    gif = save(made, tmp_path / "m.gif", cell_size=4)
    assert Image.open(gif).n_frames > 2
    assert save(made, tmp_path / "m.pdf", title="Horse").read_bytes().startswith(b"%PDF")


def test_write_errors_are_the_packages(tmp_path, monkeypatch):
    made = make("...\n...", rng=1)

    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("tempfile.mkstemp", full)
    with pytest.raises(MazeartError, match=r"cannot write .*No space left"):
        save(made, tmp_path / "m.svg")


def test_special_files_are_refused_at_once(tmp_path):
    import os

    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    with pytest.raises(MazeartError, match="not a regular file"):
        make(fifo)
    rooms = tmp_path / "rooms.json"
    os.mkfifo(rooms)
    with pytest.raises(MazeartError, match="not a regular file"):
        make("...\n...", rooms=rooms)


@settings(max_examples=6, deadline=None)
@given(
    radius=st.integers(40, 190),
    difficulty=st.sampled_from(["easy", "medium", "hard"]),
    bar=st.integers(6, 40),
)
def test_a_difficulty_fits_any_picture(radius, difficulty, bar):
    """On a picture, --difficulty without --cells gives about FIT_SHARE * c**2 maze cells
    whatever the figure's size, and at least about FIT_STROKE cells across a thin stroke:
    counted on the maze made, not on the sizing's own arithmetic."""
    from PIL import ImageDraw

    from mazeart.analyze import DIFFICULTIES
    from mazeart.pipeline import FIT_SHARE, FIT_STROKE

    disc = Image.new("L", (400, 400), 255)
    ImageDraw.Draw(disc).ellipse((200 - radius, 200 - radius, 200 + radius, 200 + radius), 0)
    maze = make(disc, difficulty=difficulty, rng=1).maze
    want = FIT_SHARE * DIFFICULTIES[difficulty]["cells"] ** 2
    if maze.width < 160 and 2 * radius * maze.width / 400 > 2 * FIT_STROKE:  # not stroke-bound
        assert 0.75 * want < maze.n_cells < 1.3 * want
    line = Image.new("L", (600, 300), 255)
    ImageDraw.Draw(line).rectangle((20, 150 - bar // 2, 580, 150 - bar // 2 + bar - 1), 0)
    made = make(line, difficulty=difficulty, rng=1).maze
    rows = np.flatnonzero(made.region.any(axis=1))
    across = bar * made.width / 600  # the stroke in cells
    assert len(rows) >= min(across, FIT_STROKE) - 1  # coverage rounds a part-covered row away
    assert across >= FIT_STROKE - 0.05 or made.width == 160
