"""Anything a command writes, every command reads: seeds at and past the edge of what a
saved maze records, through the real command line."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mazeart._rng import SEED_LIMIT

EDGE_SEEDS = st.one_of(
    st.integers(0, 2**31),
    st.integers(SEED_LIMIT - 40, SEED_LIMIT + 40),
    st.sampled_from([2**64, 2**64 + 1, 10**30, 10**400]),
)
WRITERS = {
    "main": lambda out, seed: ("8x6", "-o", out, "--seed", seed, "-q"),
    "stream": lambda out, seed: ("stream", "8x6", "-o", out, "--seed", seed, "-q"),
    "hex": lambda out, seed: ("8x6", "--grid", "hex", "-o", out, "--seed", seed, "-q"),
    "best-of": lambda out, seed: ("8x6", "-o", out, "--seed", seed, "--best-of", "3", "-q"),
}


@settings(
    max_examples=16, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=EDGE_SEEDS, writer=st.sampled_from(sorted(WRITERS)))
def test_a_saved_maze_is_read_back_or_never_written(seed, writer, tmp_path):
    out = tmp_path / f"m-{writer}.json"
    out.unlink(missing_ok=True)
    res = run_cli(*WRITERS[writer](out, str(seed)))
    if res.returncode != 0:  # refused up front: one line, nothing written
        assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stderr
        assert "2**63" in res.stderr and not out.exists()
        assert seed + (3 if writer == "best-of" else 1) > SEED_LIMIT
        return
    recorded = json.loads(out.read_text())["meta"]["seed"]
    assert recorded < SEED_LIMIT
    for reader in (("info", out), ("info", out, "--json"), ("solve", out, "-o", tmp_path / "s.svg"),
                   (out, "-o", tmp_path / "again.png")):  # fmt: skip
        res = run_cli(*reader)
        assert res.returncode == 0, (reader, res.stderr)


@pytest.mark.parametrize("count", [1, 3])
def test_a_batch_whose_seeds_would_pass_the_limit_is_refused_before_any_file(count, tmp_path):
    res = run_cli("batch", "6x6", "-o", tmp_path / "b", "--count", str(count),
                  "--seed", str(SEED_LIMIT - 1), "--format", "json")  # fmt: skip
    assert res.returncode == 0 if count == 1 else res.returncode == 2, res.stderr
    if count > 1:
        assert not (tmp_path / "b").exists() and "2**63" in res.stderr


@pytest.mark.parametrize("args", [("algorithms",), ("8x6", "-o", "-"), ("--version",),
                                  ("info", "8x6")])  # fmt: skip
def test_a_full_standard_output_is_one_line(args, tmp_path):
    """Standard output on a full device (/dev/full): one line naming it, exit 2."""
    import os
    import subprocess
    import sys

    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        argv = [sys.executable, "-m", "mazeart", *args]
        res = subprocess.run(argv, stdout=full, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                             timeout=120)  # fmt: skip
    assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stderr
    assert "cannot write to standard output: No space left on device" in res.stderr
