"""Shared strategies and helpers for the test suite."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from mazeart.weights import FORBIDDEN, FREE

# CI runs a fixed, reproducible set of examples; HYPOTHESIS_PROFILE=thorough explores afresh.
settings.register_profile(
    "default",
    deadline=None,
    max_examples=60,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "thorough",
    deadline=None,
    max_examples=1000,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_configure(config) -> None:
    """Before the workers start, compile the kernels once (``warm``)."""
    if not hasattr(config, "workerinput") and config.getoption("numprocesses", None):
        warm()


def warm() -> None:
    """Compile every kernel the public API reaches into numba's cache, in two processes that
    compile different ones (the square grid's and the other grids'), so that the test
    workers read them rather than each compiling its own (the tree's package, which the
    tests import; an installed copy keeps a cache of its own for the commands).
    A cache that is warm already makes this a few seconds; ``MAZEART_TEST_WARM=0`` skips
    it."""
    if os.environ.get("MAZEART_TEST_WARM", "1") == "0" or _cache_is_warm():
        return
    code = (
        "import sys, tempfile, pathlib; sys.path.insert(0, sys.argv[1])\n"
        "from mazeart._jit import jit_mode\n"
        "from test_two_ways import workload\n"
        "with tempfile.TemporaryDirectory() as tmp, jit_mode('always'):\n"
        "    workload(pathlib.Path(tmp), sys.argv[2])\n"
    )
    here = Path(__file__).resolve().parent
    # the tree's own package, as the tests import it (pyproject's pythonpath): its cache
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(here.parent), os.environ.get("PYTHONPATH")) if p))  # fmt: skip
    runs = [subprocess.Popen([sys.executable, "-c", code, str(here), part], cwd=here, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            for part in ("square", "grids")]  # fmt: skip
    for run in runs:
        _, err = run.communicate()
        if run.returncode:  # the tests will say what is wrong; this only saves time
            sys.stderr.write(f"conftest: warming the kernels failed:\n{err[-2000:]}\n")


def _cache_is_warm() -> bool:
    """Whether every file of the tree's package that holds kernels has compiled ones in
    numba's cache beside it, newer than itself (the warm-up would only read them)."""
    package = Path(__file__).resolve().parents[1] / "mazeart"
    kernel = re.compile(r"^@njit\(cache=True", re.MULTILINE)  # (inlined ones are not kept)
    for source in package.rglob("*.py"):
        if not kernel.search(source.read_text(encoding="utf-8")):
            continue
        cached = list((source.parent / "__pycache__").glob(f"{source.stem}.*.nbi"))
        if not cached or max(c.stat().st_mtime for c in cached) < source.stat().st_mtime:
            return False
    return True


SKIMAGE_DATA = Path(__import__("skimage.data", fromlist=["x"]).__file__).parent
REPO = Path(__file__).resolve().parents[1]

# Values a preset may hold besides FREE that generators must leave alone (rooms and
# tags have their own tests: a room code needs a door, a tag code is free).
RESERVED = (FORBIDDEN, 1001, 1500, 4321)


@st.composite
def free_masks(draw, max_side: int = 14) -> np.ndarray:
    """Boolean grids of free cells: noise, or rectangles with holes and islands."""
    h = draw(st.integers(1, max_side))
    w = draw(st.integers(1, max_side))
    kind = draw(st.sampled_from(["noise", "shapes", "full"]))
    if kind == "full":
        free = np.ones((h, w), dtype=bool)
    elif kind == "noise":
        free = draw(arrays(bool, (h, w), elements=st.booleans()))
    else:
        free = np.zeros((h, w), dtype=bool)
        rect = st.tuples(
            st.integers(0, h - 1), st.integers(0, w - 1), st.integers(1, h), st.integers(1, w)
        )
        for r, c, rh, cw in draw(st.lists(rect, min_size=1, max_size=4)):
            free[r : r + rh, c : c + cw] = True
        for r, c, rh, cw in draw(st.lists(rect, max_size=3)):
            free[r : r + max(1, rh // 3), c : c + max(1, cw // 3)] = False
    if not free.any():
        free[draw(st.integers(0, h - 1)), draw(st.integers(0, w - 1))] = True
    return free


@st.composite
def presets(draw, max_side: int = 14) -> np.ndarray:
    """Random preset weight matrices: free cells plus forbidden and reserved codes."""
    free = draw(free_masks(max_side=max_side))
    codes = draw(arrays(np.int32, free.shape, elements=st.sampled_from(RESERVED)))
    return np.where(free, FREE, codes).astype(np.int32)


def run_process(
    *args: str | os.PathLike[str], cwd: Path | None = None
) -> subprocess.CompletedProcess:
    """Run the real command line in a fresh interpreter (``python -m mazeart``)."""
    return subprocess.run(
        [sys.executable, "-m", "mazeart", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


def run_cli(*args: str | os.PathLike[str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run the command line's ``main()`` in this process, capturing what it prints.

    The same entry point the console script calls, without paying an interpreter
    start per call; ``run_process`` covers the real process end to end.
    """
    from mazeart.cli import main

    out, err = io.StringIO(), io.StringIO()
    argv = [str(a) for a in args]
    with contextlib.chdir(cwd or Path.cwd()), contextlib.redirect_stdout(out), \
            contextlib.redirect_stderr(err):  # fmt: skip
        try:
            status = main(argv)
        except SystemExit as exc:  # typer's --help and --version
            status = exc.code if isinstance(exc.code, int) else 0
    return subprocess.CompletedProcess(argv, status, out.getvalue(), err.getvalue())


@pytest.fixture
def horse_png() -> Path:
    return SKIMAGE_DATA / "horse.png"


# The longest files, first: spread over several workers (pytest-xdist, a run of tests each),
# they then run beside the many short ones instead of alone at the end.
_LONG_FIRST = ("test_readme.py", "test_drawn.py", "test_hostile.py", "test_cli.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(_LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""How the browser tests start Chromium (no sandbox as root, nothing fetched in the background)."""


SYSTEM_FONTS = Path("/usr/share/fonts/truetype/dejavu")
"""Where Debian's ``fonts-dejavu-core`` puts the DejaVu faces the package does not bundle."""


def system_font(name: str) -> Path:
    """A DejaVu face from :data:`SYSTEM_FONTS` (the test is skipped without it, unless
    ``MAZEART_REQUIRE_TOOLS`` says every tool must be there)."""
    path = SYSTEM_FONTS / name
    if not path.is_file():
        if os.environ.get("MAZEART_REQUIRE_TOOLS"):
            pytest.fail(f"{path} is not installed (fonts-dejavu-core)")
        pytest.skip(f"{path} is not installed (fonts-dejavu-core)")
    return path


@pytest.fixture(scope="module")
def browser():
    """The system's Chromium under Playwright, one a test module (skipped without it, unless
    ``MAZEART_REQUIRE_TOOLS`` says every tool must be there)."""
    import shutil

    sync_api = pytest.importorskip("playwright.sync_api")
    exe = "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None
    exe = exe or shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        if os.environ.get("MAZEART_REQUIRE_TOOLS"):
            pytest.fail("chromium is not installed")
        pytest.skip("chromium is not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        yield b
        b.close()
