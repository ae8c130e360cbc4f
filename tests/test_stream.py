"""The streamed PNG maze: the in-memory maze pixel for pixel, a valid 1-bit PNG, memory
proportional to the width, and the ``stream`` command's errors."""

from __future__ import annotations

import os
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import mazeart
from mazeart.errors import MazeartError
from mazeart.generators.binary_tree import binary_tree
from mazeart.generators.eller import eller
from mazeart.generators.sidewinder import sidewinder
from mazeart.stream import stream_json, stream_png
from mazeart.weights import FREE

GENERATORS = {"eller": eller, "sidewinder": sidewinder, "binary-tree": binary_tree}


def _expected(maze, cs: int, wall: int) -> np.ndarray:
    """The maze's block raster with cells ``cs`` and walls ``wall`` pixels wide."""
    ras = maze.raster()
    down = np.where(np.arange(ras.shape[0]) % 2 == 1, cs, wall)
    across = np.where(np.arange(ras.shape[1]) % 2 == 1, cs, wall)
    return np.repeat(np.repeat(ras, down, axis=0), across, axis=1)


@pytest.mark.parametrize("algorithm", list(GENERATORS))
@pytest.mark.parametrize(
    ("rows", "cols", "cs", "wall"), [(200, 300, 2, None), (1, 9, 1, None), (9, 1, 3, 1)]
)
def test_streamed_png_is_the_in_memory_maze(tmp_path, algorithm, rows, cols, cs, wall):
    out = tmp_path / "maze.png"
    size = stream_png(out, rows, cols, algorithm=algorithm, rng=11, cell_size=cs, wall=wall)
    maze = GENERATORS[algorithm](np.full((rows, cols), FREE, np.int32), np.random.default_rng(11))
    with Image.open(out) as img:
        assert img.mode == "1"
        assert img.size == size
        pixels = np.array(img)
    assert np.array_equal(pixels, _expected(maze, cs, cs if wall is None else wall))


def test_same_maze_as_make(tmp_path):
    stream_png(tmp_path / "m.png", 20, 30, algorithm="eller", rng=3)
    made = mazeart.make("30x20", algorithm="eller", rng=3)
    with Image.open(tmp_path / "m.png") as img:
        assert np.array_equal(np.array(img), _expected(made.maze, 2, 2))


def test_streamed_png_is_valid(tmp_path):
    out = tmp_path / "maze.png"
    width, height = stream_png(out, 40, 70, rng=2, cell_size=3, wall=1)
    with Image.open(out) as img:
        img.verify()
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, kinds = 8, b"", []
    while pos < len(data):
        n = int.from_bytes(data[pos : pos + 4], "big")
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + n]
        crc = int.from_bytes(data[pos + 8 + n : pos + 12 + n], "big")
        assert zlib.crc32(body, zlib.crc32(kind)) == crc
        kinds.append(kind)
        idat += body if kind == b"IDAT" else b""
        pos += 12 + n
    assert kinds[0] == b"IHDR" and kinds[-1] == b"IEND"
    assert data[16:26] == width.to_bytes(4, "big") + height.to_bytes(4, "big") + b"\x01\x00"
    raw = zlib.decompress(idat)
    line = 1 + (width + 7) // 8
    assert len(raw) == height * line
    assert all(raw[i * line] == 0 for i in range(height))  # filter "none" on every scanline


def test_same_seed_same_file_and_progress(tmp_path):
    seen: list[int] = []
    stream_png(tmp_path / "a.png", 1200, 5, rng=4, progress=seen.append)
    stream_png(tmp_path / "b.png", 1200, 5, rng=4)
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()
    assert seen == sorted(seen) and seen[-1] == 1200 and len(seen) > 100


def test_refusals_leave_no_file(tmp_path):
    out = tmp_path / "maze.png"
    with pytest.raises(MazeartError, match="choose from"):
        stream_png(out, 5, 5, algorithm="kruskal")
    with pytest.raises(MazeartError, match="cols must be"):
        stream_png(out, 5, 20_000_000)
    with pytest.raises(MazeartError, match="px a side"):
        stream_png(out, 20_000_000, 5, cell_size=64)
    with pytest.raises(MazeartError, match="does not exist"):
        stream_png(tmp_path / "nope" / "maze.png", 5, 5)
    assert list(tmp_path.iterdir()) == []


_CHILD = """
import resource, sys
from mazeart.stream import stream_json, stream_png
write = stream_json if sys.argv[1].endswith(".json") else stream_png
write(sys.argv[1], 1, 200, rng=1)  # compile and import first
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
write(sys.argv[1], int(sys.argv[2]), 200, rng=1)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print((after - before) * 1024)
"""


def _growth(tmp_path: Path, rows: int, suffix: str = ".png") -> int:
    """Peak RSS a child process gains while streaming a 200-wide maze of ``rows`` rows."""
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(tmp_path / f"m{rows}{suffix}"), str(rows)],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(out.stdout)


@pytest.mark.skipif(sys.platform == "win32", reason="resource is POSIX only")
def test_memory_does_not_grow_with_height(tmp_path):
    short = _growth(tmp_path, 20_000)
    tall = _growth(tmp_path, 80_000)
    assert tall - short < 4 * 2**20
    assert tall < 16 * 2**20  # about 3 MB of compressed image data would fill a picture
    # The saved maze: 80,000 rows of 200 cells are 16 MB of text, none of it held.
    short = _growth(tmp_path, 20_000, ".json")
    tall = _growth(tmp_path, 80_000, ".json")
    assert tall - short < 4 * 2**20 and tall < 8 * 2**20
    assert (tmp_path / "m80000.json").stat().st_size > 80_000 * 200


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "mazeart", "stream", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
    )


def test_cli_writes_and_reports(tmp_path):
    done = _cli("30x20", "-o", "m.png", "--seed", "3", "-a", "sidewinder", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("mazeart: wrote m.png (30 x 20 cells, sidewinder, seed 3")
    maze = sidewinder(np.full((20, 30), FREE, np.int32), np.random.default_rng(3))
    with Image.open(tmp_path / "m.png") as img:
        assert np.array_equal(np.array(img), _expected(maze, 2, 2))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("30by20", "-o", "m.png"), "WxH must be"),
        (("0x20", "-o", "m.png"), "WxH must be"),
        (("30x20", "-o", "m.png", "-a", "kruskal"), "unknown algorithm 'kruskal'"),
        (("30x20", "-o", "nope/m.png"), "directory nope does not exist"),
        (("30x20", "-o", "m.svg"), "a PNG picture or a saved maze"),
        (("30x20", "-o", "m.png", "--cell-size", "0"), "--cell-size must be"),
    ],
)
def test_cli_errors(tmp_path, args, message):
    done = _cli(*args, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("mazeart: error: ")
    assert message in done.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("algorithm", list(GENERATORS))
def test_streamed_saved_maze_is_the_in_memory_maze(tmp_path, algorithm):
    """The streamed .json loads as the in-memory generator's maze (its passages, its
    meta), entered top-left and left bottom-right, and saves back to the same bytes."""
    from mazeart import load_maze
    from mazeart.mazefile import dumps

    out = tmp_path / "maze.json"
    assert stream_json(out, 23, 31, algorithm=algorithm, rng=7) == 7
    maze = load_maze(out)
    ref = mazeart.make("31x23", algorithm=algorithm, rng=7).maze
    assert np.array_equal(maze.passages, ref.passages) and maze.mask.all()
    assert dict(maze.meta) == dict(ref.meta)
    assert (maze.entrance, maze.exit) == ((0, 0), (22, 30))
    assert maze.n_passages == maze.n_cells - 1
    assert dumps(maze) == out.read_text()


def test_cli_streams_a_saved_maze(tmp_path):
    done = _cli("40x25", "-o", "m.json", "--seed", "4", "-a", "binary-tree", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("mazeart: wrote m.json (40 x 25 cells, binary-tree, seed 4")
    solved = subprocess.run(
        [sys.executable, "-m", "mazeart", "solve", "m.json", "-o", "s.svg"],
        capture_output=True,
        cwd=tmp_path,
    )
    assert solved.returncode == 0 and (tmp_path / "s.svg").stat().st_size > 0
