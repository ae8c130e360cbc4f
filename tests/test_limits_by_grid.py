"""The size limit set by what a job costs: each grid's cells weighed against the square
grid's, checked before anything is built, so every size allowed runs in under 1 GiB (the
measurements are in ``mazeart._limits.GRID_COST``; ``python tests/hostile.py --only sizes``
runs the largest allowed of each in a child capped at 1 GiB)."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from conftest import run_cli

from mazeart._limits import GRID_COST, grid_cap


@pytest.mark.parametrize(
    ("args", "kind"),
    [(("1414x1414", "--grid", "hex"), "hex"), (("2000x1000", "--grid", "hex"), "hex"),
     (("1414x1414", "--grid", "upsilon"), "upsilon"), (("1200x1200", "--grid", "triangle"),
     "triangle"), (("1000x1000", "--weave"), "weave"), (("1000x1000", "--grid", "polar"),
     "polar")],
)  # fmt: skip
def test_a_grid_past_its_cost_is_refused_before_it_is_built(args, kind, tmp_path):
    out = tmp_path / "o.svg"
    started = time.monotonic()
    res = run_cli(*args, "-o", out)
    assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stderr
    assert f"{grid_cap(kind):,}" in res.stderr and not out.exists()
    assert time.monotonic() - started < 20  # refused up front, not after building


def test_the_caps_follow_the_costs():
    assert grid_cap("square") == 2_000_000
    assert all(grid_cap(k) * GRID_COST[k] <= 2_000_000 for k in GRID_COST)
    assert grid_cap("hex") < grid_cap("triangle") < grid_cap("square")


def test_a_small_file_naming_a_vast_grid_is_refused_in_a_moment(tmp_path):
    """A saved maze of a few hundred bytes whose params name a grid of a million cells: the
    loader compares them with n_cells before building anything."""
    small = run_cli("6x4", "--grid", "hex", "-o", tmp_path / "small.json", "--seed", "1")
    assert small.returncode == 0, small.stderr
    doc = json.loads((tmp_path / "small.json").read_text())
    doc["grid"]["params"] = {"rows": 1000, "cols": 600}
    bad = tmp_path / "vast.json"
    bad.write_text(json.dumps(doc))
    assert bad.stat().st_size < 8000
    code = (
        "import resource, sys, time\n"
        "from mazeart.cli import main\n"
        "t = time.monotonic(); status = main(['info', sys.argv[1]])\n"
        "print(status, time.monotonic() - t,"
        " resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    res = subprocess.run([sys.executable, "-c", code, str(bad)], capture_output=True, text=True,
                         timeout=120)  # fmt: skip
    status, seconds, rss_kb = res.stdout.split()
    assert status == "2" and "n_cells" in res.stderr, res.stderr
    assert float(seconds) < 5 and int(rss_kb) < 600_000


@pytest.mark.parametrize("key", ["passages", "tags", "centres"])
def test_a_saved_list_longer_than_its_cells_allow_is_refused_before_building(key, tmp_path):
    """A saved maze's lists are sized by its cell count before anything is built of them
    (a 120 MB file of repeated passages once took gigabytes)."""
    small = run_cli("6x4", "--grid", "hex", "-o", tmp_path / "m.json", "--seed", "1")
    assert small.returncode == 0, small.stderr
    doc = json.loads((tmp_path / "m.json").read_text())
    filler = {"passages": [0, 1], "tags": [0, "loot"], "centres": [0.5, 0.5]}[key]
    doc[key] = doc[key] + [filler] * (5 * doc["n_cells"])
    (tmp_path / "m.json").write_text(json.dumps(doc))
    res = run_cli("info", tmp_path / "m.json")
    assert res.returncode == 2 and f'"{key}" holds' in res.stderr, res.stderr


def test_the_largest_saved_grid_fits_the_read_limit():
    """The read limit covers the largest file any allowed grid saves (a triangle grid of
    1,000,000 cells: 50 MB, measured), with room to spare and no more."""
    from mazeart.mazefile import SAVED_BYTES_PER_CELL

    limit = SAVED_BYTES_PER_CELL * 2_000_000
    assert 50_211_977 < limit < 64 * 2**20
