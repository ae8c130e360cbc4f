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
from pathlib import Path

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
print(json.dumps({"numba": "numba" in sys.modules, "numpy": "numpy" in sys.modules,
                  "status": status,
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


@pytest.mark.parametrize(
    "args",
    [["--help"], [], ["make", "--help"], ["book", "--help"], ["30x20", "-o", "m.bmp"],
     ["30x20", "-o", "/nonexistent/folder/m.svg"], ["30x20", "--cells", "abc", "-o", "m.svg"],
     ["30x20", "--cells", "-3", "-o", "m.svg"], ["30x20", "--grid", "hexx", "-o", "m.svg"],
     ["mkae", "30x20"], ["30x20", "-o", "m.svg", "--solution-text", "A", "--route", "r.svg"]],
)  # fmt: skip
def test_the_help_and_a_mistake_answer_before_numpy_loads(args, tmp_path, monkeypatch):
    """The help and a slip in the arguments (a value, a format, a folder) are answered
    from the names alone, in about a quarter of numba's import: nothing heavier than the
    command line's parser is loaded."""
    monkeypatch.chdir(tmp_path)
    result = probe(args)
    assert result["numpy"] is False, f"{args} imported numpy"
    assert result["status"] in (0, 2)


def test_a_colour_logo_does_not_load_the_statistics(tmp_path, monkeypatch):
    """The design's curves are simplified by shapely: scikit-image's polygon code would pull
    in scipy.signal and scipy.stats, a second and a half of imports for nothing."""
    monkeypatch.chdir(tmp_path)
    logo = Path(__file__).resolve().parents[1] / "samples" / "logo.png"
    result = probe([str(logo), "-o", "m.svg", "--seed", "1", "--cells", "30"])
    assert result["status"] in (0, None) and result["stats"] is False


def run_job(args: list[str], **env: str) -> dict:
    environ = {**os.environ, "SOURCE_DATE_EPOCH": "1700000000", **env}  # a PDF's date: fixed
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps(args)], env=environ,
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "horse.png"


@pytest.mark.parametrize(
    ("job", "suffix"),
    [([str(SAMPLE)], ".svg"), (["30x20"], ".svg"),
     ([str(SAMPLE.with_name("badge.svg")), "--cells", "40"], ".svg"),
     ([str(SAMPLE), "--cells", "60"], ".png"), ([str(SAMPLE), "--cells", "40"], ".pdf")],
    ids=["picture-svg", "rectangle-svg", "parts-svg", "png", "pdf"],
)  # fmt: skip
def test_the_main_job_runs_without_numba(tmp_path, job, suffix):
    """A picture of one part or of several (joined), or a rectangle, drawn as SVG, PNG or a
    PDF with its answer key: its kernels run as Python and numba is never imported, on the
    first run as on every other; compiled, they make the same file."""
    quick, compiled = tmp_path / f"python{suffix}", tmp_path / f"numba{suffix}"
    first = run_job([*job, "--seed", "4", "-o", str(quick)])
    second = run_job([*job, "--seed", "4", "-o", str(compiled)], MAZEART_JIT="always")
    assert (first["numba"], first["status"]) == (False, 0)
    assert (second["numba"], second["status"]) == (True, 0)
    assert quick.read_bytes() == compiled.read_bytes()


def test_a_large_maze_is_compiled(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = probe(["400x300", "-o", "m.svg", "--seed", "1"])
    assert result["status"] in (0, None) and result["numba"] is True
    assert (tmp_path / "m.svg").is_file()


def test_a_kernel_in_numbas_cache_is_known_to_be_there():
    """The smaller budget applies to kernels numba's cache holds: a kernel compiled once is
    found there (numba's cache layout read as this numba writes it)."""
    import numpy as np

    from mazeart._jit import caching, jit_mode
    from mazeart.outline import _crossings

    if not caching():
        pytest.skip("no writable cache folder here")
    with jit_mode("always"):
        _crossings(np.zeros(1), np.zeros(1), np.ones(1), np.ones(1), np.array([0.5]))
    assert _crossings._indexed()


@pytest.mark.parametrize("warm", [False, True], ids=["numba-not-loaded", "numba-loaded"])
def test_a_kernel_is_compiled_once_its_work_is_no_longer_small(monkeypatch, warm):
    """Called again and again (a batch, a loop in a notebook), a kernel stops running as
    Python once it has been given :data:`BUDGET` array elements (:data:`WARM_BUDGET` once
    another kernel has loaded numba), and gives the same answers compiled."""
    import numpy as np

    import mazeart._jit as jit

    monkeypatch.setattr(jit, "_WARM", [True] if warm else [])
    budget = jit.WARM_BUDGET if warm else jit.BUDGET

    def total(a):  # type: ignore[no-untyped-def]
        s = 0
        for x in a:
            s += x
        return s

    kernel = jit._Kernel(total, {})
    kernel.in_cache = True  # as if numba's cache held it (only read, not compiled)
    small = np.arange(1000, dtype=np.int64)
    answers = [kernel(small) for _ in range(budget // 1000)]
    assert kernel.dispatcher is None  # within the budget: Python
    answers += [kernel(small) for _ in range(2)]
    assert kernel.dispatcher is not None  # compiled at last
    assert kernel.work == budget
    assert set(answers) == {int(small.sum())}


def test_an_unknown_jit_mode_is_said_and_ignored(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    done = subprocess.run([sys.executable, "-m", "mazeart", "12x8", "-o", "m.svg"],
                          env={**os.environ, "MAZEART_JIT": "fast"}, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0
    assert "MAZEART_JIT='fast' is not one of auto, always, never; using auto" in done.stderr


RACE = """
import os, threading, time
import numpy as np
import numba.extending as ne
from mazeart._kernels.parts import label_cells, label_links
from mazeart._kernels.topology import square_topology

slow = ne.overload
def overload(*args, **kwargs):  # teaching numba the topology takes a while
    time.sleep(0.2)
    return slow(*args, **kwargs)
ne.overload = overload
keep = np.zeros(100, bool)
keep[11:19] = True
topo, errors, both = square_topology(10), [], threading.Barrier(2)
def first():
    both.wait()
    try:
        label_cells(topo, keep)
    except Exception as exc:
        errors.append(type(exc).__name__)
def second():
    both.wait()
    time.sleep(0.01)
    try:
        label_links(topo, keep, np.zeros(100, np.uint8))
    except Exception as exc:
        errors.append(type(exc).__name__)
threads = [threading.Thread(target=first), threading.Thread(target=second)]
for t in threads: t.start()
for t in threads: t.join()
print(errors or "ok")
"""


def test_two_threads_compiling_at_once_both_get_their_kernels(tmp_path):
    """A thread's first compile waits while another teaches numba the topology functions
    (a batch on a thread pool compiles two kernels at the same moment)."""
    env = {**os.environ, "MAZEART_JIT": "always", "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", RACE], env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "ok"
