"""Start-up: answering without doing work must not load the compiler.

``mazeart --help``, ``mazeart algorithms`` and a command line with a mistake answer
without importing numba (about a third of a second); the kernels load when a maze is
made. Each case runs in a fresh interpreter and reports whether numba was imported.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

PROBE = """
import contextlib, io, json, sys
from mazeart.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
    try:
        status = main(json.loads(sys.argv[1]))
    except SystemExit as exc:
        status = exc.code
print(json.dumps({"numba": "numba" in sys.modules, "status": status,
                  "stats": "scipy.stats" in sys.modules}))
"""


def probe(args: list[str]) -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args)], capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    "args",
    [["--help"], ["algorithms"], ["make", "--help"], ["30x20", "--cels", "3", "-o", "m.svg"],
     ["30x20", "-o", "/nonexistent/folder/m.svg"], ["30x20", "-o", "m.bmp"]],
)  # fmt: skip
def test_answers_without_the_compiler(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = probe(args)
    assert result["numba"] is False, f"{args} imported numba"


def test_a_colour_logo_does_not_load_the_statistics(tmp_path, monkeypatch):
    """The design's curves are simplified by shapely: scikit-image's polygon code would pull
    in scipy.signal and scipy.stats, a second and a half of imports for nothing."""
    monkeypatch.chdir(tmp_path)
    logo = Path(__file__).resolve().parents[1] / "samples" / "logo.png"
    result = probe([str(logo), "-o", "m.svg", "--seed", "1", "--cells", "30"])
    assert result["status"] in (0, None) and result["stats"] is False


def test_making_a_maze_does_load_the_kernels(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = probe(["12x8", "-o", "m.svg", "--seed", "1"])
    assert result["status"] in (0, None) and result["numba"] is True
    assert (tmp_path / "m.svg").is_file()


# ----------------------------------------------------------------------------- ahead of time

from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from mazeart import _aot  # noqa: E402

SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "horse.png"


@pytest.fixture
def built(aot_build: Path | None) -> Path:
    """The main job's kernels built ahead of time (see ``aot_build``)."""
    if aot_build is None:
        pytest.skip("no C compiler or setuptools: the kernels cannot be built ahead of time here")
    return aot_build


def run_job(folder: Path, args: list[str], *, aot: bool) -> dict:
    env = {**os.environ, "MAZEART_AOT": "1" if aot else "0", "MAZEART_AOT_DIR": str(folder)}
    env["SOURCE_DATE_EPOCH"] = "1700000000"  # a PDF's creation date, the same in both runs
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args)], env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    ("job", "suffix"),
    [([str(SAMPLE), "--cells", "60"], ".svg"), (["30x20"], ".svg"),
     ([str(SAMPLE.with_name("badge.svg")), "--cells", "40"], ".svg"),
     ([str(SAMPLE), "--cells", "60"], ".png"), ([str(SAMPLE), "--cells", "40"], ".pdf")],
    ids=["picture-svg", "rectangle-svg", "parts-svg", "png", "pdf"],
)  # fmt: skip
def test_with_the_kernels_built_the_main_job_runs_without_numba(built, tmp_path, job, suffix):
    """Same file as numba's kernels make, and numba never imported: a picture of one part
    or of several (joined), or a rectangle, drawn as SVG, PNG or a PDF with its answer key."""
    fast_out, slow_out = tmp_path / f"aot{suffix}", tmp_path / f"jit{suffix}"
    fast = run_job(built, [*job, "--seed", "4", "-o", str(fast_out)], aot=True)
    slow = run_job(built, [*job, "--seed", "4", "-o", str(slow_out)], aot=False)
    assert (fast["numba"], fast["status"], slow["numba"], slow["status"]) == (False, 0, True, 0)
    assert fast_out.read_bytes() == slow_out.read_bytes()
    assert sorted(p.name for p in built.iterdir())[0].startswith("mazeart_aot_")


def test_a_built_kernel_takes_only_the_types_it_was_built_for(built, monkeypatch):
    """Anything else goes to numba (the built code would trust it): same answers."""
    import mazeart.export.scene  # noqa: F401

    scene = sys.modules["mazeart.export.scene"]
    monkeypatch.setenv("MAZEART_AOT", "1")
    monkeypatch.setenv("MAZEART_AOT_DIR", str(built))
    monkeypatch.setattr(_aot, "_LOADED", [])
    kernel = scene._row_runs
    monkeypatch.setattr(kernel, "built", _aot.function("mazeart.export.scene", "_row_runs"))
    assert kernel.built is not None
    grid = np.random.default_rng(3).random((9, 14)) < 0.5
    assert _aot.fits("mazeart.export.scene", "_row_runs", (grid,))
    expected = kernel.compiled()(grid)
    assert np.array_equal(kernel(grid), expected)  # the built function
    for other in (grid[:, ::2], grid.astype(np.uint8), grid.reshape(-1), [[True]]):
        assert not _aot.fits("mazeart.export.scene", "_row_runs", (other,))
    assert np.array_equal(kernel(np.asfortranarray(grid)), expected)  # numba's, same answer
    ends = np.arange(4, dtype=np.int64)
    args = (np.zeros(4, np.uint8), 2, 0, ends, ends)
    assert _aot.fits("mazeart.solvers", "_farthest_pair", args)
    swapped = ends.astype(ends.dtype.newbyteorder())  # the same numbers, bytes the other way
    assert not _aot.fits("mazeart.solvers", "_farthest_pair", (*args[:3], swapped, ends))
    frozen = grid.copy()
    frozen.flags.writeable = False
    assert not _aot.fits("mazeart.export.scene", "_row_runs", (frozen,))
    assert _aot.fits("mazeart.maze", "_check_grid", (frozen, np.zeros((9, 14), np.uint8), frozen))


def test_a_broken_or_missing_build_leaves_the_work_to_numba(tmp_path, monkeypatch):
    monkeypatch.setenv("MAZEART_AOT", "1")
    monkeypatch.setenv("MAZEART_AOT_DIR", str(tmp_path))
    monkeypatch.setattr(_aot, "_LOADED", [])
    assert _aot.built() is None  # nothing built yet
    import importlib.machinery

    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (tmp_path / f"{_aot.module_name()}{suffix}").write_bytes(b"\x7fELF half a library")
    monkeypatch.setattr(_aot, "_LOADED", [])
    assert _aot.built() is None  # not loadable: ignored
    monkeypatch.setenv("MAZEART_AOT", "0")
    monkeypatch.setattr(_aot, "_LOADED", [])
    assert _aot.built() is None and _aot.function("mazeart.maze", "_check_grid") is None


def test_one_background_build_at_a_time_and_none_when_turned_off(tmp_path, monkeypatch):
    started: list[list[str]] = []

    class Popen:
        def __init__(self, argv: list[str], **kwargs: object) -> None:
            assert kwargs.get("start_new_session") is True
            assert kwargs.get("cwd") == tmp_path / "cache"  # not the user's folder
            started.append(argv)

    monkeypatch.setattr(_aot.subprocess, "Popen", Popen)
    monkeypatch.setenv("MAZEART_AOT_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(_aot, "_LOADED", [])
    monkeypatch.setenv("MAZEART_AOT", "0")
    _aot.build_later()
    assert started == []
    monkeypatch.setenv("MAZEART_AOT", "1")
    monkeypatch.setattr(_aot, "compiler", lambda: None)
    _aot.build_later()
    assert started == []  # no C compiler: nothing to build with
    monkeypatch.setattr(_aot, "compiler", lambda: "cc")
    _aot.build_later()
    _aot.build_later()  # the first one is still under way (its lock is there)
    name = _aot.module_name()
    assert started == [[sys.executable, "-P", "-m", "mazeart._aot", "--background", name]]
    lock = tmp_path / "cache" / f"{name}.lock"
    lock.unlink()
    lock.with_suffix(".failed").write_text("no compiler after all\n")
    _aot.build_later()  # it failed here: not again until something changes
    assert len(started) == 1


def test_a_background_build_makes_only_what_it_was_asked_for(tmp_path, monkeypatch):
    """A child that would build other sources than its starter's says so, and the lock its
    starter made goes; a build that failed is not tried again in the background."""
    monkeypatch.setenv("MAZEART_AOT_DIR", str(tmp_path))
    lock = tmp_path / f"{_aot.module_name()}.lock"
    lock.write_text("")
    assert _aot.main(["--background", "mazeart_aot_0000000000000000"]) == 1
    assert not lock.exists()
    assert "these sources make" in lock.with_suffix(".failed").read_text()


def test_without_sources_to_hash_nothing_is_loaded(monkeypatch):
    def unreadable() -> str:
        raise NotADirectoryError("mazeart.zip/mazeart/_aot.py")

    monkeypatch.setenv("MAZEART_AOT", "1")
    monkeypatch.setattr(_aot, "module_name", unreadable)
    monkeypatch.setattr(_aot, "_LOADED", [])
    assert _aot.built() is None
