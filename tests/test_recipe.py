"""The recipe: one checked object for every option that shapes a maze.

``make(source, recipe=Recipe(...))`` makes the maze that the same options as keywords
make; a bad value is refused when the recipe is made, in one line naming it; the
command line offers exactly the recipe's options (plus the seed), each with the
recipe's default, so a default cannot drift between the two.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import numpy as np
import pytest

import mazeart
from mazeart import MazeartError, Recipe
from mazeart.mazefile import dumps


@pytest.mark.parametrize(
    "options",
    [{}, {"braid": 0.4, "algorithm": "wilson"}, {"grid": "hex", "place": "loot=3"},
     {"grid": "polar", "difficulty": "easy"}, {"weave": True}],
)  # fmt: skip
def test_a_recipe_makes_what_its_options_make(options):
    by_keywords = mazeart.make("16x12", rng=3, **options).maze
    by_recipe = mazeart.make("16x12", rng=3, recipe=Recipe(**options)).maze
    assert dumps(by_recipe) == dumps(by_keywords)


def test_keywords_beside_a_recipe_win():
    recipe = Recipe(braid=0.5, algorithm="prim")
    made = mazeart.make("16x12", rng=1, recipe=recipe, braid=0.0)
    assert made.maze.meta["algorithm"] == "prim"
    assert dumps(made.maze) == dumps(mazeart.make("16x12", rng=1, algorithm="prim").maze)


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [({"braid": 2}, MazeartError, r"^braid must be a finite number in \[0, 1\], got 2$"),
     ({"grid": "hexagon"}, MazeartError, r"^unknown grid 'hexagon' \(choose from square, hex"),
     ({"mode": "photo"}, MazeartError, r"^unknown mode 'photo'"),
     ({"cells": 0}, MazeartError, r"^cells must be"),
     ({"cells": 2.5}, TypeError, r"^cells must be an integer"),
     ({"best_of": 10**9}, MazeartError, r"^best_of must be"),
     ({"islands": "merge"}, MazeartError, r"^unknown islands 'merge'"),
     ({"coverage": 0}, MazeartError, r"^coverage must be"),
     ({"algorithm": 3}, TypeError, r"^algorithm must be a string")],
)  # fmt: skip
def test_bad_values_are_refused_when_the_recipe_is_made(options, error, message):
    with pytest.raises(error, match=message):
        Recipe(**options)
    with pytest.raises(error, match=message):  # and by make, the same way
        mazeart.make("10x10", **options)


def test_a_recipe_is_frozen_and_keyword_only():
    recipe = Recipe(cells=40)
    with pytest.raises(dataclasses.FrozenInstanceError):
        recipe.cells = 50  # type: ignore[misc]
    with pytest.raises(TypeError):
        Recipe(40)  # type: ignore[misc]
    assert recipe.replace(braid=0.2).braid == 0.2 and recipe.braid == 0.0
    with pytest.raises(MazeartError):
        recipe.replace(braid=-1)
    with pytest.raises(TypeError, match="recipe must be a Recipe"):
        mazeart.make("10x10", recipe={"cells": 40})


def test_the_command_line_offers_the_recipe_with_its_defaults():
    """Read from the command's help as a user sees it: every recipe field is an option, and
    the default shown is the recipe's."""
    import re

    done = subprocess.run([sys.executable, "-m", "mazeart", "make", "--help"], text=True,
                          capture_output=True, env={"COLUMNS": "250", "PATH": ""},
                          check=True)  # fmt: skip
    text = done.stdout
    # each option's help record: its line of flags and the lines its text wraps onto
    records: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("  -"):
            flags, _, rest = line.strip().partition("  ")
            key = flags.replace(",", " ")
            records[key] = rest
        elif line.startswith("   ") and records:
            records[key] += " " + line.strip()
    for f in dataclasses.fields(Recipe):
        flag = "--" + (f.metadata["cli"] or f.name).rstrip("_").replace("_", "-")
        if f.metadata["flags"]:
            flag = f.metadata["flags"][0].split("/")[0]
        assert flag in text, f.name
        record = records[next(k for k in records if flag in k.split())]
        if f.default not in (None, False, True):
            shown = re.search(r"\[default: ([^\]]+)\]", record)
            assert shown is not None, (f.name, record)
            assert re.sub(r"-\s+", "-", shown.group(1)) == str(f.default), (f.name, record)
    assert np.isin(["--seed"], text.split()).all()


@pytest.mark.parametrize("how", [{}, {"grid": "hex"}, {"grid": "polar"}, {"weave": True}])
def test_best_of_keeps_the_same_maze_on_a_pool_on_every_grid(how):
    """make() is one path for every grid: its candidates are picklable jobs, so best_of may
    make them on worker processes, and keeps the same one as when made here."""
    here = mazeart.make("18x14", best_of=3, jobs=1, rng=2, **how)
    pool = mazeart.make("18x14", best_of=3, jobs=2, rng=2, **how)
    assert (pool.kept, pool.candidates) == (here.kept, 3)
    assert dumps(pool.maze) == dumps(here.maze)


def test_true_or_false_options_are_checked():
    for name in ("invert", "tone", "prune", "regions", "preset", "colour_rooms", "edges"):
        with pytest.raises(TypeError, match=f"^{name} must be True or False"):
            Recipe(**{name: "no"})
    with pytest.raises(MazeartError, match=r"^weave must be"):
        Recipe(weave=5)
    assert Recipe(weave=0.3).weave == 0.3


@pytest.mark.parametrize(
    ("source", "options", "message"),
    [("logo", {"weave": True, "edges": True}, "a weave maze does not take edges"),
     ("logo", {"weave": True, "mode": "tone"}, "a weave maze does not take tone"),
     ("camera", {"grid": "hex", "mode": "tone", "edges": True}, "does not mix with edges"),
     ("20x15", {"grid": "hex", "mode": "tone"}, "give a picture"),
     ("20x15", {"grid": "hex", "edges": True}, "give one"),
     ("logo", {"grid": "hex", "segments": 3, "edges": False}, "segments applies with edges"),
     ("logo", {"grid": "hex", "textures": "spiral"}, "textures applies with regions"),
     ("logo", {"textures": "spiral", "edges": True}, "textures applies with regions")],
)  # fmt: skip
def test_options_another_grid_cannot_honour_are_refused(source, options, message):
    """Nothing asked for is dropped in silence: on another grid or a weave, an option that
    cannot apply is refused in one line, as on the square grid."""
    from conftest import REPO, SKIMAGE_DATA

    path = {"logo": REPO / "samples" / "logo.png", "camera": SKIMAGE_DATA / "camera.png"}
    with pytest.raises(MazeartError, match=message):
        mazeart.make(path.get(source, source), cells=30, rng=1, **options)


def test_a_toned_maze_on_another_grid_comes_back_equal(tmp_path):
    from conftest import SKIMAGE_DATA

    maze = mazeart.make(SKIMAGE_DATA / "camera.png", grid="hex", cells=12, rng=1).maze
    assert maze.guide.tone is not None
    mazeart.save_maze(maze, tmp_path / "m.json")
    assert mazeart.load_maze(tmp_path / "m.json") == maze
    assert max(len(repr(t)) for t in maze.guide.tone.tolist()) <= 4  # two decimals: "0.01"


def test_generating_on_the_square_grid_names_its_cells_as_the_square_grid_does():
    from mazeart.grids import square_grid
    from mazeart.grids.generate import generate_on_grid

    g = square_grid(4, 5)
    maze = generate_on_grid(np.zeros(20, np.int32), g, rng=1, entrance=3, place="loot=2",
                            labels=np.arange(20) // 10)  # fmt: skip
    assert maze.is_square and maze.entrance == (0, 3) and len(maze.tags) == 2
    assert maze.guide.edge_labels is not None and maze.guide.edge_labels.shape == (4, 5)


@pytest.mark.parametrize("grid", ["square", "hex", "polar"])
def test_braiding_never_cuts_a_logos_design(grid):
    """Loops are opened inside the colour regions only: the passages across regions stay the
    doors the maze was joined through, however much is braided."""
    from conftest import REPO

    made = mazeart.make(REPO / "samples" / "logo.png", grid=grid, cells=40, rng=2, braid=1.0)
    maze = made.maze
    labels = maze.guide.edge_labels.reshape(-1)
    a, b = maze.links().T
    assert made.report.braided > 0
    assert int((labels[a] != labels[b]).sum()) == made.report.doors
