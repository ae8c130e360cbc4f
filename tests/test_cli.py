"""The command line: a few runs of the real process end to end, the rest in-process.

What a maze *is* (difficulty presets, best-of, solvers, metrics) is tested on the
library (``mazeart.make`` and friends), which the command line only calls; what
the command line adds (parsing, exit codes, one-line errors, nothing written on
failure) is tested through ``main()`` in this process, and the real process and
its console entry are covered by the ``run_process`` tests.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from conftest import REPO, SKIMAGE_DATA, run_cli, run_process
from PIL import Image

import mazeart
from mazeart import ALGORITHMS, load_preset, make, measure, save, weights_from_image
from mazeart.mazefile import load_maze
from mazeart.pipeline import solutions
from mazeart.weights import FREE

SVG = "{http://www.w3.org/2000/svg}"
META = f"{SVG}metadata/{{https://mazeart.dev/ns/1}}maze"


def assert_clean_failure(result, *, mentions: str) -> None:
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("mazeart: error: ")
    assert mentions.lower() in lines[0].lower(), lines[0]
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


# ----------------------------------------------------------------------------- the real process


def test_horse_to_svg_and_png(tmp_path, horse_png):
    svg = tmp_path / "horse.svg"
    res = run_process(horse_png, "-o", svg, "--cells", "60", "--seed", "7", "--solution")
    assert res.returncode == 0, res.stderr
    assert "seed 7" in res.stderr
    root = ET.fromstring(svg.read_text())
    assert root.find(f"{SVG}g[@id='solution']") is not None
    png = tmp_path / "horse.png"
    res = run_process("make", horse_png, "-o", png, "--cells", "60", "--seed", "7", "-q")
    assert res.returncode == 0 and res.stderr == ""
    img = Image.open(png)
    assert img.size == (620, 10 * 49 + 20)


def test_help_version_and_a_failure_in_the_real_process(tmp_path):
    assert run_process("--version").stdout.startswith("mazeart ")
    assert "weights" in run_process("--help").stdout
    res = run_process(tmp_path / "missing.png", "-o", tmp_path / "out.svg")
    assert_clean_failure(res, mentions="no such file")
    assert list(tmp_path.iterdir()) == []


SCRIPT = """\
import sys

import mazeart

made = mazeart.make(
    "samples/horse.png", cells=60, difficulty="hard", best_of=5, outline="smooth", rng=3
)
mazeart.save(made, sys.argv[1])
"""


def test_a_short_script_makes_what_the_command_makes(tmp_path):
    """The library recipe is the command line's: same options, same bytes."""
    assert len(SCRIPT.splitlines()) < 20
    (tmp_path / "recipe.py").write_text(SCRIPT)
    by_cli, by_script = tmp_path / "cli.svg", tmp_path / "script.svg"
    res = run_process(
        "samples/horse.png", "-o", by_cli, "--cells", "60", "--difficulty", "hard",
        "--best-of", "5", "--outline", "smooth", "--seed", "3", cwd=REPO,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    import subprocess

    done = subprocess.run(
        [sys.executable, tmp_path / "recipe.py", by_script], cwd=REPO, capture_output=True
    )
    assert done.returncode == 0, done.stderr
    assert by_script.read_bytes() == by_cli.read_bytes()
    assert b"hunt-and-kill" in by_cli.read_bytes()  # the difficulty's algorithm


def test_progress_bars_on_a_terminal(tmp_path, horse_png):
    pexpect = pytest.importorskip("pexpect")

    for args, label in (
        ([str(horse_png), "-o", str(tmp_path / "m.svg"), "--best-of", "4"], "best of 4"),
        (["book", str(horse_png), "-o", str(tmp_path / "b.pdf"), "--count", "3"], "book"),
    ):
        child = pexpect.spawn(
            sys.executable, ["-m", "mazeart", *args, "--cells", "20", "--seed", "1"],
            dimensions=(24, 80), encoding="utf-8", timeout=120,
        )  # fmt: skip
        child.expect(label + r" \[#+")  # the bar, filling
        child.expect("wrote")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0


# ----------------------------------------------------------------------------- the command line


def test_same_seed_same_file(tmp_path, horse_png):
    a, b, c = tmp_path / "a.svg", tmp_path / "b.svg", tmp_path / "c.svg"
    for out, seed in ((a, "3"), (b, "3"), (c, "4")):
        assert run_cli(horse_png, "-o", out, "--cells", "40", "--seed", seed).returncode == 0
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != c.read_bytes()
    save(make(horse_png, cells=40, rng=3), tmp_path / "lib.svg")
    assert (tmp_path / "lib.svg").read_bytes() == a.read_bytes()


def test_preset_roundtrip_through_files(tmp_path, horse_png):
    direct = weights_from_image(horse_png, cells=50)
    for suffix in (".png", ".npy", ".txt"):
        preset = tmp_path / f"preset{suffix}"
        res = run_cli("weights", horse_png, "-o", preset, "--cells", "50")
        assert res.returncode == 0, res.stderr
        assert np.array_equal(load_preset(preset) == FREE, direct == FREE)
        out = tmp_path / f"from{suffix}.svg"
        res = run_cli(preset, "-o", out, "--seed", "1")
        assert res.returncode == 0, res.stderr
        meta = ET.fromstring(out.read_text()).find(META)
        assert int(meta.get("cells")) == int((direct == FREE).sum())


def test_blocks_geometry_and_algorithms_listing(tmp_path, horse_png):
    out = tmp_path / "blocks.png"
    res = run_cli(horse_png, "-o", out, "--geometry", "blocks", "--cells", "80", "--seed", "2")
    assert res.returncode == 0, res.stderr
    listing = run_cli("algorithms")
    assert listing.returncode == 0
    for name, algo in ALGORITHMS.items():
        assert name in listing.stdout and algo.description in listing.stdout
    assert "--select mix" in listing.stdout and "--bias 0.5" in listing.stdout


@pytest.mark.parametrize("name", list(ALGORITHMS))
def test_every_algorithm_through_the_command_line(tmp_path, horse_png, name):
    out = tmp_path / "m.svg"
    res = run_cli(horse_png, "-o", out, "--algorithm", name, "--cells", "40", "--seed", "4")
    assert res.returncode == 0, res.stderr
    meta = ET.fromstring(out.read_text()).find(META)
    assert meta.get("algorithm") == name
    assert meta.get("geometry") == ALGORITHMS[name].geometries[0]


def test_algorithm_options_reach_the_generator(tmp_path, horse_png):
    a, b = tmp_path / "a.svg", tmp_path / "b.svg"
    common = [horse_png, "--cells", "40", "--seed", "4", "-a", "growing-tree"]
    assert run_cli(*common, "-o", a, "--select", "newest").returncode == 0
    assert run_cli(*common, "-o", b, "--select=random", "--bias", "0.2").returncode == 0
    assert a.read_text() != b.read_text()
    # newest is the backtracker's walk: the same maze for the same seed
    newest = make(horse_png, cells=40, rng=4, algorithm="growing-tree", select="newest").maze
    back = make(horse_png, cells=40, rng=4, algorithm="backtracker").maze
    assert np.array_equal(newest.passages, back.passages)
    assert load_maze_from_svg_equal(a, newest)


def load_maze_from_svg_equal(svg, maze) -> bool:
    """The SVG's metadata names the maze's seed, size and ends."""
    meta = ET.fromstring(svg.read_text()).find(META)
    return (
        int(meta.get("seed")) == maze.meta["seed"]
        and int(meta.get("cells")) == maze.n_cells
        and meta.get("entrance") == f"{maze.entrance[0]},{maze.entrance[1]}"
    )


@pytest.fixture
def bad_inputs(tmp_path):
    (tmp_path / "notes.png").write_text("this is not a picture")
    whole = (SKIMAGE_DATA / "horse.png").read_bytes()
    (tmp_path / "cut.png").write_bytes(whole[: len(whole) // 3])
    Image.new("L", (40, 30), 0).save(tmp_path / "black.png")
    (tmp_path / "walls.txt").write_text("###\n###\n")
    return tmp_path


@pytest.mark.parametrize(
    ("args", "mentions"),
    [
        (["missing.png", "-o", "out.svg"], "no such file"),
        (["notes.png", "-o", "out.svg"], "not an image"),
        (["cut.png", "-o", "out.svg"], "truncated or corrupt"),
        (["black.png", "-o", "out.svg"], "flat tone"),
        (["walls.txt", "-o", "out.svg"], "no cell of the 3 x 2 grid is free"),
        (
            ["HORSE", "-o", "out.svg", "--cells", "0"],
            "cells must be an integer >= 1, got 0",
        ),
        (
            ["HORSE", "-o", "out.svg", "--cells", "-5"],
            "cells must be an integer >= 1, got -5",
        ),
        (["HORSE", "-o", "out.svg", "--cells", "many"], "--cells"),
        (["HORSE", "-o", "out.bmp"], "unknown format '.bmp'"),
        (["HORSE", "-o", "out"], "unknown format"),
        (["HORSE", "-o", "nowhere/out.svg"], "does not exist"),
        (
            ["HORSE", "-o", "out.svg", "--algorithm", "nope"],
            "choose from weighted-dfs, backtracker",
        ),
        (
            ["HORSE", "-o", "out.svg", "-a", "growing-tree", "--speed", "3"],
            "no such option --speed",
        ),
        (["HORSE", "-o", "out.svg", "-a", "growing-tree", "--bias", "x"], "wants a float"),
        (["HORSE", "-o", "out.svg", "-a", "growing-tree", "--bias", "2"], "bias must be a finite"),
        (["HORSE", "-o", "out.svg", "--bias", "0.3"], "takes no options"),
        (["HORSE", "other.png", "-o", "out.svg"], "unexpected argument"),
        (["HORSE", "-o", "out.svg", "-a", "digging", "--geometry", "cells"], "does not support"),
        (["HORSE", "-o", "out.svg", "--geometry", "hex"], "--geometry must be one of"),
        (["HORSE", "-o", "out.svg", "--outline", "wavy"], "--outline must be one of"),
        (["HORSE", "-o", "out.svg", "--entrance", "a,b"], "entrance must be ROW,COL"),
        (["HORSE", "-o", "out.svg", "--entrance", "0,0"], "not a maze cell"),
        (["HORSE", "-o", "out.svg", "--threshold", "999"], "threshold must be"),
        (["HORSE", "-o", "out.svg", "--best-of", "0"], "--best-of must be an integer"),
        (["HORSE", "-o", "out.svg", "--size", "huge"], "size must look like"),
        (["HORSE", "-o", "out.png", "--cell-size", "2.5"], "whole number"),
        (["HORSE", "-o", "out.svg", "--segments", "3"], "--segments applies with"),
        (["HORSE", "-o", "out.html", "--levels", "0"], "--levels must be an integer"),
        (["HORSE", "-o", "out.gif"], "--animate"),
        (["HORSE"], "with -o FILE"),
        (["weights", "HORSE", "-o", "preset.jpg"], "unknown preset format"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_no_file(bad_inputs, horse_png, args, mentions):
    args = [str(horse_png) if a == "HORSE" else a for a in args]
    before = sorted(p.name for p in bad_inputs.iterdir())
    res = run_cli(*args, cwd=bad_inputs)
    assert_clean_failure(res, mentions=mentions)
    assert sorted(p.name for p in bad_inputs.iterdir()) == before


def test_failure_leaves_an_existing_output_untouched(tmp_path, horse_png):
    out = tmp_path / "keep.svg"
    out.write_text("precious")
    res = run_cli(horse_png, "-o", out, "--entrance", "0,0")
    assert_clean_failure(res, mentions="not a maze cell")
    assert out.read_text() == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.svg"]


def test_only_the_packages_errors_are_caught(monkeypatch, tmp_path, horse_png):
    """A bug is not dressed up as a user error: it raises, with its traceback."""

    def broken(*args, **kwargs):
        raise ValueError("an internal slip")

    monkeypatch.setattr("mazeart.pipeline.make", broken)
    with pytest.raises(ValueError, match="internal slip"):
        run_cli(horse_png, "-o", tmp_path / "x.svg")


def test_readme_quick_start_names_real_files():
    readme = (REPO / "README.md").read_text()
    assert "pip install . && mazeart samples/" in readme
    sample = readme.split("pip install . && mazeart ")[1].split()[0]
    assert (REPO / sample).is_file()


# ----------------------------------------------------------------------------- saved mazes


def test_solve_and_info_on_a_saved_maze(tmp_path, horse_png):
    saved = tmp_path / "horse.json"
    assert run_cli(horse_png, "-o", saved, "--cells", "40", "--seed", "2", "-q").returncode == 0
    maze = load_maze(saved)
    assert maze == make(horse_png, cells=40, rng=2).maze
    res = run_cli("info", saved, "--json")
    assert res.returncode == 0, res.stderr
    info = json.loads(res.stdout)
    assert {k: info[k] for k in measure(maze).to_dict()} == measure(maze).to_dict()
    assert info["seed"] == 2 and info["algorithm"] == "weighted-dfs"
    table = run_cli("info", saved)
    assert "dead ends" in table.stdout and "difficulty score" in table.stdout
    for solver in ("bfs", "astar", "dead-end-filling", "wall-follower"):
        out = tmp_path / f"{solver}.svg"
        res = run_cli("solve", saved, "-o", out, "--solver", solver)
        assert res.returncode == 0, res.stderr
        assert f"a path of {measure(maze).solution_length} cells" in res.stderr
        assert ET.fromstring(out.read_text()).find(f"{SVG}g[@id='solution']") is not None
    res = run_cli(saved, "-o", tmp_path / "again.svg", "--cells", "20")
    assert_clean_failure(res, mentions="do not apply to a saved maze")
    with pytest.raises(mazeart.MazeartError, match="cells: generation options"):
        make(saved, cells=20)


def test_info_on_a_picture_reports_fidelity(horse_png):
    made = make(horse_png, cells=40, rng=1)
    metrics = made.metrics()
    assert 0.85 < metrics["footprint_iou"] <= 1
    assert metrics["edge_share"] > metrics["edge_share_chance"] > 0
    res = run_cli("info", horse_png, "--cells", "40", "--seed", "1", "--json")
    assert json.loads(res.stdout)["footprint_iou"] == metrics["footprint_iou"]
    assert "footprint_iou" not in make(made.maze).metrics()  # a saved maze has no picture


def test_wall_follower_failure_writes_nothing(tmp_path):
    from mazeart import Maze
    from mazeart.mazefile import save_maze

    island = "#########\n#S      #\n# ##### #\n# #E  # #\n# ### # #\n#       #\n#########"
    saved = tmp_path / "island.json"
    save_maze(Maze.from_text(island), saved)
    out = tmp_path / "solved.png"
    res = run_cli("solve", saved, "-o", out, "--solver", "wall-follower")
    assert_clean_failure(res, mentions="went round without reaching")
    assert not out.exists()
    assert run_cli("solve", saved, "-o", out, "--solver", "astar").returncode == 0


def test_several_paths_each_in_its_own_colour(tmp_path):
    made = make(SKIMAGE_DATA / "horse.png", cells=30, algorithm="kruskal", braid=0.6, rng=4)
    found = solutions(made.maze, paths=4)
    assert len(found) == 4 and len({p.tobytes() for p in found}) == 4
    saved = tmp_path / "loops.json"
    save(made, saved)
    out = tmp_path / "paths.svg"
    res = run_cli("solve", saved, "-o", out, "--paths", "4")
    assert res.returncode == 0 and "4 paths" in res.stderr
    paths = ET.fromstring(out.read_text()).findall(f"{SVG}g[@id='solution']/{SVG}path")
    assert len(paths) == 4
    assert len({p.get("stroke") for p in paths}) == 4
    assert len({p.get("d") for p in paths}) == 4


def test_difficulty_presets_and_best_of(horse_png):
    easy = make(horse_png, difficulty="easy").maze  # a picture's size fitted to it
    assert easy.meta["algorithm"] == "prim"
    sizes = [make(horse_png, difficulty=d).maze.n_cells for d in ("easy", "medium", "hard")]
    assert sizes == sorted(sizes) and sizes[0] == easy.n_cells and sizes[2] > 4 * sizes[0]
    mine = make(horse_png, difficulty="hard", cells=30, algorithm="prim").maze
    assert mine.meta["algorithm"] == "prim" and mine.width == 30  # what the user says wins
    best = make(horse_png, cells=30, rng=5, best_of=4)
    assert best.candidates == 4 and "best of 4 candidates" in best.summary()
    scores = {s: measure(make(horse_png, cells=30, rng=s).maze).difficulty for s in range(5, 9)}
    assert best.maze.meta["seed"] == max(scores, key=scores.get) == 5 + best.kept
    again = make(horse_png, cells=30, rng=best.maze.meta["seed"]).maze  # the seed alone remakes it
    assert again == best.maze
    easiest = make(
        horse_png, cells=30, rng=5, best_of=4, difficulty="easy", algorithm="weighted-dfs"
    ).maze
    assert easiest.meta["seed"] == min(scores, key=scores.get)
    with pytest.raises(TypeError, match="best_of"):
        make(horse_png, best_of=2.5)
    assert make(horse_png, cells=20, rng=1, best_of=np.int64(2)).candidates == 2
    res = run_cli("info", horse_png, "--difficulty", "easy", "--json")
    assert json.loads(res.stdout)["algorithm"] == "prim"


def test_bare_mazeart_shows_the_help_once(capsys):
    from mazeart.cli import main

    status = main([])
    out, err = capsys.readouterr()
    assert status == 2
    assert (out + err).count("Usage: mazeart") == 1


@pytest.mark.parametrize(
    ("typo", "meant"),
    [(["--cels", "20"], "--cells"), (["--cel-size", "4"], "--cell-size"),
     (["-a", "growing-tree", "--selct", "newest"], "--select")],
)  # fmt: skip
def test_a_mistyped_option_gets_the_nearest_one(tmp_path, horse_png, typo, meant):
    run = run_cli(horse_png, "-o", tmp_path / "m.svg", *typo)
    assert run.returncode == 2
    assert f"did you mean {meant}?" in run.stderr
    assert not (tmp_path / "m.svg").exists()


def test_a_plain_rectangle_needs_no_file(tmp_path):
    run = run_cli("30x20", "-o", tmp_path / "puzzle.pdf", "--seed", "1", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "30 x 20 grid, 600 maze cells" in run.stderr
    (tmp_path / "30x20").write_text("....\n")  # a file of that name is read as itself
    run = run_cli("30x20", "-o", tmp_path / "again.pdf", cwd=tmp_path)
    assert run.returncode == 2 and "not an image" in run.stderr
    run = run_cli("0x5", "-o", tmp_path / "r.svg", cwd=tmp_path)
    assert run.returncode == 2 and "at least one cell" in run.stderr


def test_the_package_says_it_is_typed():
    from importlib import resources

    assert resources.files("mazeart").joinpath("py.typed").is_file()


def test_shell_completion_is_on():
    """--show-completion prints a script, and the completion protocol answers options,
    choices and algorithm names (as the shell asks for them)."""
    env = {**os.environ, "_MAZEART_COMPLETE": "source_bash"}
    run = subprocess.run([sys.executable, "-m", "mazeart"], env=env, capture_output=True,
                         text=True, timeout=120)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "_MAZEART_COMPLETE" in run.stdout and "complete " in run.stdout
    assert "--install-completion" in run_cli("--help").stdout

    def complete(words: str) -> list[str]:
        env = {**os.environ, "_MAZEART_COMPLETE": "complete_bash", "COMP_WORDS": words,
               "COMP_CWORD": str(len(words.split()) - (not words.endswith(" ")))}  # fmt: skip
        done = subprocess.run([sys.executable, "-m", "mazeart"], env=env, capture_output=True,
                              text=True, timeout=120)  # fmt: skip
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    assert "--cells" in complete("mazeart logo.png --cel")
    assert complete("mazeart logo.png --outline ") == ["cells", "smooth"]
    assert set(complete("mazeart logo.png -a wil")) == {"wilson", "wilson-nocross"}
    assert "book" in complete("mazeart bo")


@pytest.mark.parametrize("fmt", ["svg", "json", "txt", "html", "png", "pdf"])
def test_output_to_standard_output(tmp_path, fmt):
    """-o - writes the same bytes the file would hold (into a pipe), and nothing else."""
    args = ["12x8", "--seed", "3", "-q"]
    as_file = run_process(*args, "-o", tmp_path / f"m.{fmt}")
    assert as_file.returncode == 0, as_file.stderr
    piped = subprocess.run([sys.executable, "-m", "mazeart", *args, "-o", "-", "--format", fmt],
                           capture_output=True, timeout=300, cwd=tmp_path)  # fmt: skip
    assert piped.returncode == 0, piped.stderr
    want = (tmp_path / f"m.{fmt}").read_bytes()
    if fmt == "pdf":  # the same pages; the file's creation stamp differs
        import pypdf

        texts = [
            [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(b)).pages]
            for b in (want, piped.stdout)
        ]
        assert texts[0] == texts[1]
    else:
        assert piped.stdout == want
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"m.{fmt}"]  # no stray file


def test_standard_output_refusals(tmp_path):
    def refused(*args: str) -> str:
        run = run_cli("12x8", *args)
        assert run.returncode == 2 and run.stdout == ""
        return run.stderr

    assert "--format must be one of" in refused("-o", "-", "--format", "tmj")
    assert "written as its suffix says" in refused("-o", str(tmp_path / "m.svg"), "--format", "png")
    assert "choose one" in refused("-o", "-", "--ascii")
    assert "--format applies to -o -" in refused("--ascii", "--format", "svg")
    # Binary output is not thrown at a terminal.
    import pty

    leader, follower = pty.openpty()
    try:
        argv = [sys.executable, "-m", "mazeart", "12x8", "-o", "-", "--format", "png"]
        run = subprocess.run(argv, stdout=follower, stderr=subprocess.PIPE, text=True, timeout=300)
    finally:
        os.close(follower)
        os.close(leader)
    assert run.returncode == 2 and "not for a terminal" in run.stderr


@pytest.mark.parametrize(
    ("out", "given", "named"),
    [("m.png", ["--size", "80mm"], "--size does not apply to .png output"),
     ("m.svg", ["--title", "T", "--page", "A5"], "--page, --title do not apply to .svg output"),
     ("m.json", ["--solution", "--line-width", "0.2"], "--solution, --line-width do not apply")],
)  # fmt: skip
def test_options_the_output_does_not_take_are_named(tmp_path, out, given, named):
    run = run_cli("12x8", "-o", tmp_path / out, *given)
    assert run.returncode == 0, run.stderr
    assert f"mazeart: warning: {named}" in run.stderr
    assert (tmp_path / out).exists()
    quiet = run_cli("12x8", "-o", tmp_path / out, *given, "-q")  # the warning, nothing else
    assert quiet.returncode == 0 and quiet.stderr.splitlines() == run.stderr.splitlines()[:1]


def test_help_shows_readable_metavars():
    for command in ("make", "solve", "book", "info", "play", "weights"):
        run = run_cli(command, "--help")
        assert run.returncode == 0
        text = run.stdout + run.stderr
        # (a positional argument's kind, "<path>", is typer's own column: not odd)
        for odd in ("<bool>", "{source}", "{SOURCE}", "<list[Path]>", "<str>", "<int>",
                    "<float>"):  # fmt: skip
            assert odd not in text, (command, odd)
    make_help = run_cli("make", "--help").stdout
    assert "make [OPTIONS] SOURCE" in make_help
    assert "auto|silhouette|tone" in make_help and "ROW,COL" in make_help


def test_animate_names_its_own_file(tmp_path):
    run = run_cli("12x8", "-o", tmp_path / "m.svg", "--animate", "/nonexistent/x.gif")
    assert run.returncode == 2
    assert "cannot write /nonexistent/x.gif: directory /nonexistent does not exist" in run.stderr
    assert not (tmp_path / "m.svg").exists()


def test_a_figure_the_grid_loses_is_warned_about(tmp_path):
    """--threshold 100 on the logo keeps only its thin dark lines: a maze of a few cells.
    The user hears why, and how to get more; the usual reading raises no warning."""
    logo = REPO / "samples" / "logo.png"
    run = run_cli(logo, "-o", tmp_path / "m.svg", "--threshold", "100")
    assert run.returncode == 0, run.stderr
    assert "warning: the figure holds only" in run.stderr
    assert "strokes are about" in run.stderr and "more --cells" in run.stderr
    plain = run_cli(logo, "-o", tmp_path / "n.svg")
    assert plain.returncode == 0 and "warning" not in plain.stderr
    # Thin lines drawn on a canvas: fine at a fine grid, lost at a coarse one.
    lines = np.full((600, 600), 255, np.uint8)
    lines[50:550:50, 50:550] = 0
    lines[50:550, 50:550:50] = 0
    for width in range(1, 4):
        lines[50 + width : 550 : 50, 50:550] = 0
        lines[50:550, 50 + width : 550 : 50] = 0
    Image.fromarray(lines).save(tmp_path / "grid.png")
    coarse = run_cli(tmp_path / "grid.png", "-o", tmp_path / "c.svg", "--cells", "40")
    assert coarse.returncode == 2  # not a cell left: the error says why
    assert "strokes are about 0.3 cells wide" in coarse.stderr and "more --cells" in coarse.stderr
    some = run_cli(tmp_path / "grid.png", "-o", tmp_path / "s.svg", "--cells", "70")
    assert some.returncode == 0 and "strokes are about 0.5 cells wide" in some.stderr
    fine = run_cli(tmp_path / "grid.png", "-o", tmp_path / "f.svg", "--cells", "200")
    assert "warning" not in fine.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [(["mkae", "samples/horse.png"], "'mkae' is no command and no picture here: did you mean "
                                      "'mazeart make'?"),
     (["pley"], "'pley' is no command and no picture here: did you mean 'mazeart play'?"),
     (["samples/horse.png", "--cells", "abc", "-o", "x.svg"],
      "--cells must be a whole number, got 'abc'"),
     (["samples/horse.png", "--line-width", "thin", "-o", "x.svg"],
      "--line-width must be a number, got 'thin'"),
     (["samples/horse.png", "--background", "blah", "-o", "x.png"],
      "background: unknown colour 'blah'")],
)  # fmt: skip
def test_slips_a_newcomer_makes_are_named_in_one_line(args, message, tmp_path):
    import shutil

    shutil.copytree(REPO / "samples", tmp_path / "samples")
    run = run_cli(*args, cwd=tmp_path)
    assert run.returncode == 2 and run.stderr == f"mazeart: error: {message}\n", run.stderr
    assert not (tmp_path / "x.svg").exists() and not (tmp_path / "x.png").exists()


def test_the_help_names_the_dask_extra():
    run = run_cli("batch", "--help")
    assert "mazeart[dask]" in " ".join(run.stdout.split())


def test_a_long_job_shows_its_progress_on_a_terminal_only(tmp_path):
    """On a terminal, a job that runs past a second draws a progress line (its step as a bar,
    the time so far) and clears it before the report; with -q, or into a pipe, nothing."""
    pexpect = pytest.importorskip("pexpect")
    from conftest import REPO

    argv = ["samples/horse.png", "--cells", "160", "--outline", "smooth", "--seed", "1"]
    argv = ["-m", "mazeart", *argv]
    child = pexpect.spawn(sys.executable, [*argv, "-o", str(tmp_path / "a.svg")], cwd=REPO,
                          timeout=300, encoding="utf-8")  # fmt: skip
    shown = child.read()
    child.close()
    assert child.exitstatus == 0, shown
    lines = shown.rstrip().split("\r")
    steps = [line for line in lines if line.startswith("mazeart: [")]
    assert steps and all(re.match(r"mazeart: \[[#.]{3}\] [a-z ]+ \d+\.\d s *$", s) for s in steps)
    assert lines[-1].startswith("mazeart: wrote")  # the line was cleared before the report
    child = pexpect.spawn(sys.executable, [*argv, "-q", "-o", str(tmp_path / "b.svg")],
                          cwd=REPO, timeout=300, encoding="utf-8")  # fmt: skip
    assert "mazeart: [" not in child.read()
    piped = subprocess.run([sys.executable, *argv, "-o", str(tmp_path / "c.svg")], cwd=REPO,
                           capture_output=True, text=True, timeout=300)  # fmt: skip
    assert piped.returncode == 0 and "mazeart: [" not in piped.stderr
