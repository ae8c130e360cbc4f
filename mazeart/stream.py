"""Mazes bigger than memory: a rectangle carved row by row straight into its file.

Eller's algorithm, the sidewinder and the binary tree are row-local: each row
of the maze is final once the row after it has been carved. :func:`carved_rows`
carves a full ``rows x cols`` rectangle with their row kernels (the very
functions the in-memory generators loop over) and hands over each row when it
is final. :func:`stream_png` draws it as scanlines of the block raster
(:meth:`mazeart.maze.Maze.raster`) fed to a zlib stream that becomes the PNG's
image data as it goes; :func:`stream_json` writes it as a grid line of the
saved-maze format. Nothing the height of the maze is ever held: the working
memory is three framed rows of cells, one row of carried state and one line,
so a 50,000 x 50,000 maze (2.5 x 10^9 cells) adds a few megabytes to the process.

For the same ``rng`` the streamed maze is the in-memory generator's maze on
the full rectangle (and :func:`mazeart.make`'s on ``"WxH"``), drawn the same way:
both call the same row kernel with the same random stream. Only full rectangles stream (no
preset shapes, rooms, entrance or exit): for those use :func:`mazeart.make`.
The in-memory cell limit (``max_cells``) does not apply here, since this is
the way past it; the width is capped at :data:`MAX_COLUMNS` columns.
"""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

import numpy as np
from numpy.typing import NDArray

from mazeart._graph import BITS
from mazeart._io import atomic_write, check_writable
from mazeart._jit import njit
from mazeart._rng import _GOLDEN, RngLike, as_generator, kernel_state
from mazeart.errors import MazeartError, check_choice, check_int
from mazeart.generators.binary_tree import binary_tree_row
from mazeart.generators.eller import eller_row, row_state
from mazeart.generators.sidewinder import sidewinder_row

__all__ = ["MAX_COLUMNS", "STREAMED", "carved_rows", "stream_json", "stream_png"]

MAX_COLUMNS = 10_000_000
"""Widest maze :func:`stream_png` draws (its rows are held in memory)."""

STREAMED = ("eller", "sidewinder", "binary-tree")
"""The row-local algorithms that can stream."""

_MAX_SIDE = 2**31 - 1  # PNG's largest width and height in pixels
_CHUNK = 1 << 20  # bytes of compressed data per IDAT chunk
_E, _S = BITS[1], BITS[2]


@njit(cache=True)
def _scanline(passages, off, cols, south, cs, wall, out):
    """Pack one scanline (filter byte 0, then 1 bit a pixel, white = open) into ``out``.

    The cell row ``r`` of the framed ``passages`` starting at ``off`` gives the
    scanline through its cells (``south`` false: cells open, east walls where
    there is no east passage) or through the walls below them (``south``
    true: open only where a south passage is).
    """
    out[:] = 0
    x = 0
    for j in range(2 * cols + 1):
        if j % 2 == 1:
            width = cs
            if south:
                is_open = (passages[off + (j + 1) // 2] & _S) != 0
            else:
                is_open = True
        else:
            width = wall
            is_open = not south and 0 < j < 2 * cols and (passages[off + j // 2] & _E) != 0
        if is_open:
            for p in range(x, x + width):
                out[1 + (p >> 3)] |= np.uint8(0x80 >> (p & 7))
        x += width


def _chunk(fh: BinaryIO, kind: bytes, data: bytes) -> None:
    fh.write(struct.pack(">I", len(data)) + kind + data)
    fh.write(struct.pack(">I", zlib.crc32(data, zlib.crc32(kind))))


def _skip(state: NDArray[np.uint64], draws: int) -> None:
    """Advance the kernel stream by ``draws`` numbers (it steps by a constant, modulo 2**64)."""
    state[0] = np.uint64((int(state[0]) + int(_GOLDEN) * draws) % 2**64)


def _checked(rows: int, cols: int, algorithm: str) -> tuple[int, int]:
    """The size of a streamed maze, checked, and its algorithm checked."""
    rows = check_int(rows, "rows")
    cols = check_int(cols, "cols", maximum=MAX_COLUMNS)
    check_choice(algorithm, "algorithm", STREAMED)
    return rows, cols


def carved_rows(
    rows: int,
    cols: int,
    *,
    algorithm: str = "eller",
    rng: RngLike = None,
    progress: Callable[[int], None] | None = None,
) -> Iterator[NDArray[np.uint8]]:
    """Carve a ``rows x cols`` rectangle row by row, yielding each row once it is final.

    A row is final when the row below it has been carved (that row's way north
    opens the one above). Each yielded array is the row's framed passage bits
    (``cols + 2`` values, N=1 E=2 S=4 W=8, the frame's two ends zero); it is
    reused for the next row, so copy it to keep it.

    Parameters
    ----------
    rows, cols : int
        Height and width of the maze in cells (``cols`` at most :data:`MAX_COLUMNS`).
    algorithm : {'eller', 'sidewinder', 'binary-tree'}, default 'eller'
    rng : int or numpy.random.Generator, optional
        The same seed or generator given to the in-memory generator on a full
        ``rows x cols`` rectangle carves the same maze.
    progress : callable, optional
        Called with the number of rows done, now and then and at the end.

    Yields
    ------
    (cols + 2,) ndarray of uint8

    Examples
    --------
    >>> import numpy as np
    >>> from mazeart import ALGORITHMS
    >>> rows = [row[1:-1].copy() for row in carved_rows(4, 6, rng=3)]
    >>> maze = ALGORITHMS["eller"].func(np.zeros((4, 6), np.int32), np.random.default_rng(3))
    >>> bool(np.array_equal(np.array(rows), maze.passages))
    True
    """
    rows, cols = _checked(rows, cols, algorithm)
    state = kernel_state(as_generator(rng))
    _skip(state, 1)  # the in-memory generator's pick of a start cell (one draw)
    stride = cols + 2
    free = np.zeros(3 * stride, dtype=bool)  # the rows above, at and below the carved one
    free[stride + 1 : 2 * stride - 1] = True
    passages = np.zeros(3 * stride, dtype=np.uint8)
    order = np.zeros(1, np.int64)  # no carve-order recording
    work, coins = row_state(stride)
    north = np.empty(stride, np.int64)
    every = max(1, rows // 500)
    for r in range(rows):
        free[1 : stride - 1] = r > 0
        free[2 * stride + 1 : 3 * stride - 1] = r < rows - 1
        if algorithm == "eller":
            eller_row(free, stride, r == rows - 1, work, coins, state, passages, order)
        elif algorithm == "sidewinder":
            sidewinder_row(free, stride, stride, coins, state, passages, order, north)
        else:
            binary_tree_row(free, stride, stride, coins, state, passages, order)
        if r > 0:
            yield passages[:stride]  # the row above is final now
        passages[: 2 * stride] = passages[stride:]
        passages[2 * stride :] = 0
        if progress is not None and (r + 1) % every == 0 and r + 1 < rows:
            progress(r + 1)
    yield passages[:stride]
    if progress is not None:
        progress(rows)


def stream_png(
    path: str | Path,
    rows: int,
    cols: int,
    *,
    algorithm: str = "eller",
    rng: RngLike = None,
    cell_size: int = 2,
    wall: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[int, int]:
    """Carve a ``rows x cols`` rectangle row by row and write it as a 1-bit PNG.

    The picture is the maze's block raster: ``2*rows + 1`` bands of blocks down
    and ``2*cols + 1`` across, walls black and floor white. Cells and the
    passages between them are ``cell_size`` pixels wide, walls ``wall``.
    Memory grows with ``cols`` only; the file is written through a temporary
    file, so a failure or an interrupt leaves nothing at ``path``.

    Parameters
    ----------
    path : str or Path
        The PNG to write.
    rows, cols : int
        Height and width of the maze in cells (``cols`` at most
        :data:`MAX_COLUMNS`; no ``max_cells`` limit).
    algorithm : {'eller', 'sidewinder', 'binary-tree'}, default 'eller'
    rng : int or numpy.random.Generator, optional
        Seed or generator: the same one given to the in-memory generator on a
        full ``rows x cols`` rectangle carves the same maze.
    cell_size : int, default 2
        Pixels of a cell (1 to 64).
    wall : int, optional
        Pixels of a wall (1 to 64); by default ``cell_size``, which draws the
        block raster scaled by ``cell_size``.
    progress : callable, optional
        Called with the number of rows done, now and then and at the end.

    Returns
    -------
    (int, int)
        The picture's width and height in pixels.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from PIL import Image
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     out = pathlib.Path(tmp, "maze.png")
    ...     size = stream_png(out, 20, 30, rng=1)
    ...     with Image.open(out) as img:
    ...         print(size, img.mode, img.size)
    (122, 82) 1 (122, 82)
    """
    rows, cols = _checked(rows, cols, algorithm)
    cs = check_int(cell_size, "cell_size", maximum=64)
    wl = cs if wall is None else check_int(wall, "wall", maximum=64)
    width, height = (cols + 1) * wl + cols * cs, (rows + 1) * wl + rows * cs
    if max(width, height) > _MAX_SIDE:
        raise MazeartError(
            f"a {cols} x {rows} maze at {cs} px cells would be {width} x {height} px, "
            f"more than a PNG's {_MAX_SIDE} px a side"
        )
    check_writable(path)
    line = np.zeros(1 + (width + 7) // 8, dtype=np.uint8)
    blank = bytes(len(line))  # a scanline of wall
    carved = carved_rows(rows, cols, algorithm=algorithm, rng=rng, progress=progress)

    with atomic_write(path) as fh:
        fh.write(b"\x89PNG\r\n\x1a\n")
        _chunk(fh, b"IHDR", struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0))
        z = zlib.compressobj(1 if width * height > 4_000_000 else 6)
        pending = bytearray()
        for _ in range(wl):
            pending.extend(z.compress(blank))
        for row in carved:
            for south, times in ((False, cs), (True, wl)):
                _scanline(row, 0, cols, south, cs, wl, line)
                scan = line.tobytes()
                for _ in range(times):  # one scanline at a time: no copy grows with the size
                    pending.extend(z.compress(scan))
                    if len(pending) >= _CHUNK:
                        _chunk(fh, b"IDAT", bytes(pending))
                        pending.clear()
        pending.extend(z.flush())
        _chunk(fh, b"IDAT", bytes(pending))
        _chunk(fh, b"IEND", b"")
    return width, height


def stream_json(
    path: str | Path,
    rows: int,
    cols: int,
    *,
    algorithm: str = "eller",
    rng: RngLike = None,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Carve a ``rows x cols`` rectangle row by row into a saved maze (``.json``).

    The file is the saved-maze format (:mod:`mazeart.mazefile`, version 2), one
    grid row a line, written as the rows are carved: memory grows with ``cols``
    only. Its passages are the in-memory generator's for the same ``rng``. Its
    ends cannot be the farthest pair (that needs the whole maze): the maze is
    entered at the top-left cell and left at the bottom-right one. Files up to
    the cell limit load with :func:`mazeart.load_maze` like any other.

    Parameters
    ----------
    path : str or Path
        The ``.json`` file to write (through a temporary file: a failure or an
        interrupt leaves nothing at ``path``).
    rows, cols, algorithm, rng, progress
        As for :func:`carved_rows`.

    Returns
    -------
    int
        The seed recorded in the file's ``meta``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from mazeart import load_maze
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     out = pathlib.Path(tmp, "maze.json")
    ...     seed = stream_json(out, 20, 30, rng=1)
    ...     maze = load_maze(out)
    >>> maze.shape, maze.entrance, maze.exit, maze.n_passages
    ((20, 30), (0, 0), (19, 29), 599)
    """
    from mazeart._rng import fresh_seed
    from mazeart.mazefile import document_lines, row_text

    rows, cols = _checked(rows, cols, algorithm)
    if rng is None or isinstance(rng, np.random.Generator):
        seed = int(as_generator(rng).integers(0, 2**31)) if rng is not None else fresh_seed()
    else:
        as_generator(rng)  # checks the seed's type and sign
        seed = int(rng)
    check_writable(path)
    head = {
        "geometry": "cells",
        "rows": rows,
        "cols": cols,
        "entrance": [0, 0],
        "exit": [rows - 1, cols - 1],
    }
    meta = {
        "algorithm": algorithm,
        "seed": seed,
        "geometry": "cells",
        "options": {},
        "islands": "connect",
        "prune": False,
        "braid": 0.0,
    }
    carved = carved_rows(rows, cols, algorithm=algorithm, rng=seed, progress=progress)
    grid = (row_text(row[1:-1]) for row in carved)
    lines = document_lines(head, grid, [], [], {}, json.dumps(meta, separators=(", ", ": ")))
    with atomic_write(path) as fh:
        for line in lines:
            fh.write(line.encode("ascii") + b"\n")
    return seed
