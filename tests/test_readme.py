"""Every ```python block of README.md runs, from a copy of the repository's samples.

Each block runs on its own (a fresh namespace) with the working directory set to
a temporary folder holding a copy of ``samples/``, as the README's relative paths
expect of the repository root; every file the block saves must exist afterwards.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"

FENCE = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)
# mazeart.save(made, "x.svg"), mazeart.export.write(maze, "x.png", ...), save_maze(maze, "x.json")
WRITES = re.compile(r"\b(?:save|save_maze|write)\(\s*[\w.]+\s*,\s*[\"']([^\"']+)[\"']")


def python_blocks(text: str) -> list[str]:
    return FENCE.findall(text)


def written(code: str) -> list[str]:
    return WRITES.findall(code)


BLOCKS = python_blocks(README.read_text(encoding="utf-8"))


def test_readme_has_python_blocks():
    assert BLOCKS, "README.md has no ```python block"
    assert any(written(code) for code in BLOCKS), "no README block saves a file"


def test_the_parsers_find_blocks_and_outputs():
    code = 'import mazeart\nmazeart.save(m, "a.svg", solution=True)\n'
    text = f"x\n```python\n{code}```\n```sh\nls\n```\n"
    assert python_blocks(text) == [code]
    assert written(code) == ["a.svg"]
    assert written('mazeart.export.write(maze, "w.png", cell_size=8)') == ["w.png"]


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_block_runs(code, tmp_path, monkeypatch):
    shutil.copytree(REPO / "samples", tmp_path / "samples")
    monkeypatch.chdir(tmp_path)
    exec(compile(code, str(README), "exec"), {"__name__": "__readme__"})
    for name in written(code):
        out = tmp_path / name
        assert out.is_file() and out.stat().st_size > 0, f"{name} was not written"
