"""Batches on a process pool or a Dask cluster: the same files for any number of workers."""

from __future__ import annotations

import builtins
import json
from pathlib import Path

import numpy as np
import pytest

from mazeart import load_maze, make
from mazeart.batch import run_batch
from mazeart.cli import main
from mazeart.errors import MazeartError
from mazeart.pipeline import make_book

RECIPE = {"cells": 16, "algorithm": "wilson", "braid": 0.1}


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_batch_same_files_for_one_and_two_jobs(tmp_path):
    one = run_batch("16x10", 5, tmp_path / "one", rng=3, jobs=1, formats="svg,json", **RECIPE)
    two = run_batch("16x10", 5, tmp_path / "two", rng=3, jobs=2, formats="svg,json", **RECIPE)
    assert one == two
    assert files(tmp_path / "one") == files(tmp_path / "two")
    assert len(files(tmp_path / "one")) == 11  # 5 mazes in two formats, and metrics.json
    rows = json.loads((tmp_path / "two" / "metrics.json").read_text())
    assert rows == one
    assert [r["seed"] for r in rows] == [3, 4, 5, 6, 7]
    # a row's seed makes its maze again, alone
    again = make("16x10", rng=rows[2]["seed"], **RECIPE)
    assert again.maze.meta["seed"] == rows[2]["seed"]
    assert again.metrics()["dead_ends"] == rows[2]["dead_ends"]


def test_picture_batch_over_a_pool(tmp_path):
    horse = Path(__file__).parents[1] / "samples" / "horse.png"
    rows = run_batch(horse, 3, tmp_path / "out", rng=1, jobs=2, cells=20)
    assert len(rows) == 3 and "footprint_iou" in rows[0]
    run_batch(horse, 3, tmp_path / "one", rng=1, jobs=1, cells=20)
    assert files(tmp_path / "out") == files(tmp_path / "one")


def test_failing_item_leaves_no_folder(tmp_path):
    out = tmp_path / "out"
    with pytest.raises(MazeartError, match="braid"):
        run_batch("16x10", 4, out, rng=1, jobs=2, braid=3)
    assert not out.exists()
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "note.txt").write_text("mine")
    with pytest.raises(MazeartError):
        run_batch("16x10", 4, kept, rng=1, jobs=1, braid=3)
    assert [p.name for p in kept.iterdir()] == ["note.txt"]  # no staging folder left


def test_batch_refuses_bad_options(tmp_path):
    with pytest.raises(MazeartError, match="format must be one of"):
        run_batch("16x10", 2, tmp_path / "x", formats="gif")
    with pytest.raises(MazeartError, match="jobs must be"):
        run_batch("16x10", 2, tmp_path / "x", jobs=0)
    assert not (tmp_path / "x").exists()


def test_book_same_bytes_for_one_and_two_jobs(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    one = make_book(["16x10", "12x12"], tmp_path / "one.pdf", count=5, rng=2, jobs=1)
    two = make_book(["16x10", "12x12"], tmp_path / "two.pdf", count=5, rng=2, jobs=2)
    assert one.read_bytes() == two.read_bytes()


def test_book_failing_page_writes_nothing(tmp_path):
    with pytest.raises(MazeartError):
        make_book(["16x10"], tmp_path / "b.pdf", count=3, rng=2, jobs=2, braid=3)
    assert list(tmp_path.iterdir()) == []


def test_dask_cluster_gives_the_same_files(tmp_path, monkeypatch):
    distributed = pytest.importorskip("distributed")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    run_batch("16x10", 4, tmp_path / "local", rng=9, jobs=1, formats="svg,png", **RECIPE)
    make_book(["16x10"], tmp_path / "local.pdf", count=3, rng=9, jobs=1)
    with (
        distributed.LocalCluster(
            n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        pool = client.get_executor()
        run_batch("16x10", 4, tmp_path / "dask", rng=9, executor=pool, formats="svg,png", **RECIPE)
        make_book(["16x10"], tmp_path / "dask.pdf", count=3, rng=9, executor=pool)
        best = make("16x10", rng=9, best_of=3, executor=pool, **RECIPE)
        address = cluster.scheduler_address
        status = main(["batch", "16x10", "--count", "2", "-o", str(tmp_path / "cli"),
                       "--seed", "9", "--scheduler", address, "-q"])  # fmt: skip
        assert status == 0
        status = main(["16x10", "-o", str(tmp_path / "best.json"), "--seed", "9",
                       "--best-of", "3", "--scheduler", address, "-q"])  # fmt: skip
        assert status == 0
    here = make("16x10", rng=9, best_of=3, **RECIPE)
    assert (best.kept, best.maze) == (here.kept, here.maze)
    assert load_maze(tmp_path / "best.json") == make("16x10", rng=9, best_of=3).maze
    assert files(tmp_path / "local") == files(tmp_path / "dask")
    assert (tmp_path / "local.pdf").read_bytes() == (tmp_path / "dask.pdf").read_bytes()
    assert len(files(tmp_path / "cli")) == 3


def one_error_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


def test_cli_batch_writes_folder(tmp_path, capsys):
    out = tmp_path / "mazes"
    argv = ["batch", "16x10", "--count", "3", "-o", str(out), "--seed", "4",
            "--format", "svg,json", "--cells", "16", "--jobs", "2"]  # fmt: skip
    assert main(argv) == 0
    assert "wrote 3 mazes" in capsys.readouterr().err
    assert len(files(out)) == 7
    assert main([*argv[:5], str(tmp_path / "again"), *argv[6:-1], "1"]) == 0
    assert files(out) == files(tmp_path / "again")


def test_cli_book_jobs(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    for jobs in ("1", "2"):
        argv = ["book", "16x10", "--count", "3", "-o", str(tmp_path / f"{jobs}.pdf"),
                "--seed", "1", "--jobs", jobs, "-q"]  # fmt: skip
        assert main(argv) == 0
    assert (tmp_path / "1.pdf").read_bytes() == (tmp_path / "2.pdf").read_bytes()


@pytest.mark.parametrize("command", ["batch", "book"])
def test_cli_bad_jobs(tmp_path, capsys, command):
    out = tmp_path / ("x" if command == "batch" else "x.pdf")
    assert main([command, "16x10", "-o", str(out), "--jobs", "0"]) == 2
    assert (
        one_error_line(capsys) == "mazeart: error: --jobs must be an integer from 1 to 256, got 0"
    )
    assert not out.exists()


def test_cli_scheduler_without_dask(tmp_path, capsys, monkeypatch):
    real = builtins.__import__

    def no_dask(name, *args, **kwargs):
        if name.split(".")[0] in ("distributed", "dask"):
            raise ImportError(f"No module named {name!r}")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_dask)
    argv = ["batch", "16x10", "-o", str(tmp_path / "x"), "--scheduler", "tcp://127.0.0.1:8786"]
    assert main(argv) == 2
    line = one_error_line(capsys)
    assert "pip install 'mazeart[dask]'" in line
    assert not (tmp_path / "x").exists()


def test_cli_unreachable_scheduler(tmp_path, capsys, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr("mazeart.cli._CONNECT_TIMEOUT", 2.0)
    argv = ["book", "16x10", "-o", str(tmp_path / "b.pdf"), "--scheduler", "tcp://127.0.0.1:9"]
    assert main(argv) == 2
    line = one_error_line(capsys)
    assert line.startswith("mazeart: error: cannot reach the scheduler tcp://127.0.0.1:9")
    assert not (tmp_path / "b.pdf").exists()


def test_best_of_and_levels_keep_the_same_mazes_on_a_pool(tmp_path):
    """--best-of's candidates and --levels' mazes made on two workers are the mazes made
    here one after another (and the kept candidate is the same one)."""
    from mazeart.pipeline import make_many

    horse = Path(__file__).parents[1] / "samples" / "horse.png"
    opts = {"cells": 30, "best_of": 4, "braid": 0.2, "place": "loot=2"}
    here = make(horse, rng=11, jobs=1, **opts)
    pool = make(horse, rng=11, jobs=2, **opts)
    assert (here.kept, here.candidates) == (pool.kept, pool.candidates) and here.candidates == 4
    assert here.maze == pool.maze and here.report == pool.report
    levels_here = make_many("20x12", 4, rng=5, jobs=1, best_of=2)
    levels_pool = make_many("20x12", 4, rng=5, jobs=2, best_of=2)
    assert [m.maze for m in levels_here] == [m.maze for m in levels_pool]
    assert len({m.maze.meta["seed"] for m in levels_pool}) == 4
    out = tmp_path / "g.html"
    assert main(["20x12", "-o", str(out), "--levels", "3", "--best-of", "2", "--jobs", "2"]) == 0
    assert out.stat().st_size > 0


def test_mazes_travel_between_processes_intact():
    """Mazes are pickled to and from workers: every field comes back equal."""
    import pickle

    horse = Path(__file__).parents[1] / "samples" / "horse.png"
    for made in (
        make(horse, rng=2, cells=24, place="loot=3,spawn=1"),
        make(horse, rng=2, rooms=Path(__file__).parents[1] / "samples" / "rooms.toml"),
        make("12x8", rng=2, grid="hex"),
        make("12x8", rng=2, weave=True),
    ):
        again = pickle.loads(pickle.dumps(made))
        assert again.maze == made.maze
        assert dict(again.maze.meta) == dict(made.maze.meta)
    # What a picture's guide holds comes back read-only, as the maze holds it.
    toned = make(horse, rng=2, cells=24, tone=True).maze
    smooth = make(horse, rng=2, cells=24, outline="smooth").maze
    tone = pickle.loads(pickle.dumps(toned)).guide.tone
    outline = pickle.loads(pickle.dumps(smooth)).guide.outline
    assert tone is not None and np.array_equal(tone, toned.guide.tone) and outline
    assert not tone.flags.writeable and not outline[0].flags.writeable
    # Metadata keeps its values' types on any grid.
    from mazeart import Maze

    hexed = make("12x8", rng=2, grid="hex").maze
    tagged = Maze(hexed.mask, hexed.passages, grid=hexed.grid, meta={"sizes": (1, 2)})
    assert pickle.loads(pickle.dumps(tagged)) == tagged
