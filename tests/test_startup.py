"""Start-up: answering without doing work must not load the compiler.

``mazeart --help``, ``mazeart algorithms`` and a command line with a mistake answer
without importing numba (about a third of a second); the kernels load when a maze is
made. Each case runs in a fresh interpreter and reports whether numba was imported.
"""

from __future__ import annotations

import json
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
print(json.dumps({"numba": "numba" in sys.modules, "status": status}))
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


def test_making_a_maze_does_load_the_kernels(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = probe(["12x8", "-o", "m.svg", "--seed", "1"])
    assert result["status"] in (0, None) and result["numba"] is True
    assert (tmp_path / "m.svg").is_file()
