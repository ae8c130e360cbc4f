"""The real command line, run in a subprocess: happy paths and every bad input."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest
from conftest import REPO, SKIMAGE_DATA, run_cli
from PIL import Image

from mazeart import ALGORITHMS, load_preset, weights_from_image
from mazeart.weights import FREE


def assert_clean_failure(result, *, mentions: str) -> None:
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("mazeart: error: ")
    assert mentions.lower() in lines[0].lower(), lines[0]
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_horse_to_svg_and_png(tmp_path, horse_png):
    svg = tmp_path / "horse.svg"
    res = run_cli(horse_png, "-o", svg, "--cells", "60", "--seed", "7", "--solution")
    assert res.returncode == 0, res.stderr
    assert "seed 7" in res.stderr
    root = ET.fromstring(svg.read_text())
    assert root.find("{http://www.w3.org/2000/svg}g[@id='solution']") is not None
    png = tmp_path / "horse.png"
    res = run_cli("make", horse_png, "-o", png, "--cells", "60", "--seed", "7", "-q")
    assert res.returncode == 0 and res.stderr == ""
    img = Image.open(png)
    assert img.size == (620, 10 * 49 + 20)


def test_same_seed_same_file(tmp_path, horse_png):
    a, b, c = tmp_path / "a.svg", tmp_path / "b.svg", tmp_path / "c.svg"
    for out, seed in ((a, "3"), (b, "3"), (c, "4")):
        assert run_cli(horse_png, "-o", out, "--cells", "40", "--seed", seed).returncode == 0
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != c.read_bytes()


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
        meta = ET.fromstring(out.read_text()).find(
            "{http://www.w3.org/2000/svg}metadata/{https://mazeart.dev/ns/1}maze"
        )
        assert int(meta.get("cells")) == int((direct == FREE).sum())


def test_blocks_geometry_and_algorithms_listing(tmp_path, horse_png):
    out = tmp_path / "blocks.png"
    res = run_cli(horse_png, "-o", out, "--geometry", "blocks", "--cells", "80", "--seed", "2")
    assert res.returncode == 0, res.stderr
    listing = run_cli("algorithms")
    assert listing.returncode == 0
    assert "weighted-dfs" in listing.stdout and "blocks" in listing.stdout


@pytest.mark.parametrize("name", list(ALGORITHMS))
def test_every_algorithm_through_the_command_line(tmp_path, horse_png, name):
    out = tmp_path / "m.svg"
    res = run_cli(horse_png, "-o", out, "--algorithm", name, "--cells", "40", "--seed", "4")
    assert res.returncode == 0, res.stderr
    meta = ET.fromstring(out.read_text()).find(
        "{http://www.w3.org/2000/svg}metadata/{https://mazeart.dev/ns/1}maze"
    )
    assert meta.get("algorithm") == name
    assert meta.get("geometry") == ALGORITHMS[name].geometries[0]


def test_algorithm_options_reach_the_generator(tmp_path, horse_png):
    a, b = tmp_path / "a.svg", tmp_path / "b.svg"
    common = [horse_png, "--cells", "40", "--seed", "4", "-a", "growing-tree"]
    assert run_cli(*common, "-o", a, "--select", "newest").returncode == 0
    assert run_cli(*common, "-o", b, "--select=random", "--bias", "0.2").returncode == 0
    assert a.read_text() != b.read_text()
    # newest is the backtracker's walk: the same maze for the same seed
    c = tmp_path / "c.svg"
    assert (
        run_cli(horse_png, "--cells", "40", "--seed", "4", "-a", "backtracker", "-o", c).returncode
        == 0
    )
    walls = "{http://www.w3.org/2000/svg}g[@id='walls']"
    assert ET.fromstring(a.read_text()).find(walls)[0].get("d") == ET.fromstring(
        c.read_text()
    ).find(walls)[0].get("d")
    listing = run_cli("algorithms").stdout
    assert "--select mix" in listing and "--bias 0.5" in listing


def test_help_and_version():
    assert run_cli("--version").stdout.startswith("mazeart ")
    assert "weights" in run_cli("--help").stdout


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
        (["HORSE", "-o", "out.svg", "--cells", "0"], "--cells must be a positive integer"),
        (["HORSE", "-o", "out.svg", "--cells", "-5"], "--cells must be a positive integer"),
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
        (["HORSE", "-o", "out.svg", "-a", "growing-tree", "--bias", "2"], "between 0 and 1"),
        (["HORSE", "-o", "out.svg", "--bias", "0.3"], "takes no options"),
        (["HORSE", "other.png", "-o", "out.svg"], "unexpected argument"),
        (["HORSE", "-o", "out.svg", "-a", "digging", "--geometry", "cells"], "does not support"),
        (["HORSE", "-o", "out.svg", "--geometry", "hex"], "geometry"),
        (["HORSE", "-o", "out.svg", "--entrance", "a,b"], "--entrance must be ROW,COL"),
        (["HORSE", "-o", "out.svg", "--entrance", "0,0"], "not a maze cell"),
        (["HORSE", "-o", "out.svg", "--threshold", "999"], "--threshold"),
        (["HORSE", "-o", "out.svg", "--size", "huge"], "size must look like"),
        (["HORSE", "-o", "out.png", "--cell-size", "2.5"], "whole number"),
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


def test_readme_quick_start_names_real_files():
    readme = (REPO / "README.md").read_text()
    assert "pip install . && mazeart samples/" in readme
    sample = readme.split("pip install . && mazeart ")[1].split()[0]
    assert (REPO / sample).is_file()


# ----------------------------------------------------------------------------- saved mazes


def test_solve_and_info_on_a_saved_maze(tmp_path, horse_png):
    import json

    from mazeart.analyze import measure
    from mazeart.mazefile import load_maze

    saved = tmp_path / "horse.json"
    assert run_cli(horse_png, "-o", saved, "--cells", "40", "--seed", "2", "-q").returncode == 0
    maze = load_maze(saved)
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


SVG = "{http://www.w3.org/2000/svg}"


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
    saved = tmp_path / "loops.json"
    res = run_cli(
        "make", SKIMAGE_DATA / "horse.png", "-o", saved, "--cells", "30", "-a", "kruskal",
        "--braid", "0.6", "--seed", "4", "-q",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    out = tmp_path / "paths.svg"
    res = run_cli("solve", saved, "-o", out, "--paths", "4")
    assert res.returncode == 0 and "4 paths" in res.stderr
    paths = ET.fromstring(out.read_text()).findall(f"{SVG}g[@id='solution']/{SVG}path")
    assert len(paths) == 4
    assert len({p.get("stroke") for p in paths}) == 4
    assert len({p.get("d") for p in paths}) == 4


def test_difficulty_presets_and_best_of(tmp_path, horse_png):
    import json

    from mazeart.analyze import measure
    from mazeart.mazefile import load_maze

    easy = tmp_path / "easy.json"
    assert run_cli(horse_png, "-o", easy, "--difficulty", "easy", "-q").returncode == 0
    m = load_maze(easy)
    assert m.meta["algorithm"] == "prim" and m.width == 24
    mine = tmp_path / "mine.json"
    res = run_cli(horse_png, "-o", mine, "--difficulty", "hard", "--cells", "30", "-a", "prim")
    assert res.returncode == 0
    m = load_maze(mine)
    assert m.meta["algorithm"] == "prim" and m.width == 30  # what the user says wins
    best = tmp_path / "best.json"
    res = run_cli(horse_png, "-o", best, "--cells", "30", "--seed", "5", "--best-of", "4")
    assert res.returncode == 0 and "best of 4 candidates" in res.stderr
    kept = load_maze(best)
    scores = {}
    for s in range(5, 9):
        one = tmp_path / f"seed{s}.json"
        res = run_cli(horse_png, "-o", one, "--cells", "30", "--seed", str(s), "-q")
        assert res.returncode == 0
        scores[s] = measure(load_maze(one)).difficulty
    assert kept.meta["seed"] == max(scores, key=scores.get)  # the hardest, and it regenerates
    again = tmp_path / f"seed{kept.meta['seed']}.json"
    assert again.read_text() == best.read_text()
    res = run_cli(horse_png, "-o", best, "--best-of", "0")
    assert_clean_failure(res, mentions="--best-of")
    info = json.loads(run_cli("info", horse_png, "--difficulty", "easy", "--json").stdout)
    assert info["algorithm"] == "prim"


def test_progress_bars_on_a_terminal(tmp_path, horse_png):
    pexpect = pytest.importorskip("pexpect")
    import sys

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
