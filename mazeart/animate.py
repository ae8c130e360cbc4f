"""Generation animation: the carve, frame by frame, as the weighted-DFS game showed it.

Every registered generator's kernel can record the order in which it carves
(see :func:`mazeart.generators._common.carve`): while a :class:`Recording` is
active, kernels tick a clock at every passage they open (or, for recursive
division, every wall they add; for block mazes, every block that becomes path).
`carve_frames` turns that order into partial mazes at evenly spaced ticks, and
:func:`to_gif` draws them with the PNG exporter, so the last frame is exactly the
PNG export of the finished maze. Whatever the connect-and-shape steps add after
the generator (bridges, braided loops, rooms) appears in the last frame.

>>> import numpy as np, mazeart
>>> from mazeart.animate import Recording, to_gif
>>> with Recording() as rec:
...     maze = mazeart.generate(np.zeros((8, 8), np.int32), rng=1, algorithm="prim")
>>> gif = to_gif(maze, rec.carving(), frames=10)
>>> gif[:6]
b'GIF89a'
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from contextvars import Token
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mazeart._io import atomic_write
from mazeart._limits import current
from mazeart.errors import MazeartError, check_int
from mazeart.generators._carve import _RECORDING
from mazeart.maze import Maze, passages_from_links

__all__ = ["Carving", "Recording", "carve_frames", "to_gif", "write_gif"]

Carving = tuple[str, dict[str, NDArray[np.int64]]]
"""``("cells", {"east": ..., "south": ...})`` or ``("blocks", {"blocks": ...})``: ticks per slot."""


class Recording:
    """Context manager that collects the carve order of every generator run inside it.

    Attributes
    ----------
    carvings : list of Carving
        One per generator run, in order.
    """

    def __init__(self) -> None:
        self.carvings: list[Carving] = []
        self._token: Token[list | None] | None = None

    def __enter__(self) -> Recording:
        self._token = _RECORDING.set(self.carvings)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._token is not None:
            _RECORDING.reset(self._token)

    def carving(self, index: int = -1) -> Carving:
        """The carve order of run ``index`` (default: the last).

        Raises
        ------
        ValueError
            If no generator ran while recording.
        """
        if not self.carvings:
            raise MazeartError("nothing was generated while recording")
        return self.carvings[index]


def _ticks(times: NDArray[np.int64], count: int) -> NDArray[np.int64]:
    top = int(np.abs(times).max(initial=0))
    # From the first tick (a recursive division opens everything there) to the last.
    return np.unique(np.linspace(1, max(top, 1), num=max(count, 2)).round().astype(np.int64))


def carve_frames(maze: Maze, carving: Carving, *, count: int = 60) -> list[Maze]:
    """Partial mazes along the carve, ending with ``maze`` itself.

    Parameters
    ----------
    maze : Maze
        The finished maze the carving belongs to.
    carving : Carving
        From :meth:`Recording.carving`.
    count : int, default 60
        Frames at most (at least 2: the empty start and the finished maze).

    Returns
    -------
    list of Maze
        Intermediate frames carry no rooms or tags; the last is ``maze``.
    """
    count = check_int(count, "frames of an animation", minimum=2)
    kind, times = carving
    if kind != maze.geometry:
        raise MazeartError(f"the carving is of a {kind} maze, the maze is {maze.geometry}")
    out: list[Maze] = []
    m = maze.mask
    if kind == "cells":
        east_t, south_t = times["east"], times["south"]
        if east_t.shape != maze.shape:
            raise MazeartError("the carving does not match the maze's grid")
        fe = (maze.passages & 2) != 0
        fs = (maze.passages & 4) != 0
        both_e = np.zeros_like(m)
        both_e[:, :-1] = m[:, :-1] & m[:, 1:]
        both_s = np.zeros_like(m)
        both_s[:-1] = m[:-1] & m[1:]
        for t in _ticks(np.concatenate([east_t.ravel(), south_t.ravel()]), count - 1):
            east = (fe & (east_t > 0) & (east_t <= t)) | ((east_t < 0) & (-east_t > t) & both_e)
            south = (fs & (south_t > 0) & (south_t <= t)) | (
                (south_t < 0) & (-south_t > t) & both_s
            )
            out.append(
                Maze(
                    m,
                    passages_from_links(east, south),
                    geometry="cells",
                    region=maze.region,
                    entrance=maze.entrance,
                    exit=maze.exit,
                    meta=maze.meta,
                    guide=maze.guide,
                )
            )
    else:
        block_t = times["blocks"]
        if block_t.shape != maze.shape:
            raise MazeartError("the carving does not match the maze's grid")
        for t in _ticks(block_t, count - 1):
            part = m & (block_t > 0) & (block_t <= t)
            east = np.zeros_like(part)
            east[:, :-1] = part[:, :-1] & part[:, 1:]
            south = np.zeros_like(part)
            south[:-1] = part[:-1] & part[1:]
            entrance, exit_ = (
                cell if cell is not None and part[cell] else None
                for cell in (maze.entrance, maze.exit)
            )
            out.append(
                Maze(
                    part,
                    passages_from_links(east, south),
                    geometry="blocks",
                    region=maze.region,
                    meta=maze.meta,
                    entrance=entrance,
                    exit=exit_,
                )
            )
    out.append(maze)
    return out


def _on_white(img) -> Any:
    from PIL import Image

    base = Image.new("RGBA", img.size, (255, 255, 255, 255))
    return Image.alpha_composite(base, img.convert("RGBA")).convert("RGB")


def to_gif(
    maze: Maze,
    carving: Carving,
    *,
    frames: int = 60,
    max_side: int = 800,
    frame_ms: int = 80,
    hold_ms: int = 2500,
    solutions: Sequence[ArrayLike] | None = None,
    **drawing: Any,
) -> bytes:
    """An animated GIF of the carve.

    Parameters
    ----------
    maze : Maze
    carving : Carving
    frames : int, default 60
        Frames at most.
    max_side : int, default 800
        Largest width or height in pixels; a smaller cell size is used when the
        drawing options would exceed it.
    frame_ms, hold_ms : int
        Time per frame, and how long the finished maze is held.
    solutions, **drawing
        As for :func:`mazeart.export.to_png_image`; the solution is drawn on
        the last frame only. Transparent areas become white.

    Returns
    -------
    bytes
    """
    from PIL import Image

    from mazeart.export.png import to_png_image

    cs = int(drawing.pop("cell_size", 10) or 10)
    margin = float(drawing.get("margin", 1.0) or 0.0)
    side = max(maze.width, maze.height) + 2 * margin
    while cs > 2 and side * cs > max_side:
        cs -= 1
    # Every frame is held (as RGB, a colour key and a palette index: 8 bytes a pixel) until
    # the GIF is encoded: a big maze gets fewer frames, within an eighth of max_pixels.
    pixels = (maze.width + 2 * margin) * cs * (maze.height + 2 * margin) * cs
    budget = current().max_pixels // 8
    if 2 * pixels > budget:
        raise MazeartError(
            f"a GIF of this maze needs {pixels / 1e6:,.1f} Mpx a frame; two frames are more "
            f"than max_pixels {current().max_pixels / 1e6:,.0f} Mpx / 8 allows (raise "
            "max_pixels, or draw it as a PNG)"
        )
    frames = max(2, min(check_int(frames, "frames"), int(budget // pixels)))
    mazes = carve_frames(maze, carving, count=frames)
    partial = {k: v for k, v in drawing.items() if k != "solution"}
    pictures = [_on_white(to_png_image(f, cell_size=cs, **partial)) for f in mazes[:-1]]
    last = _on_white(to_png_image(maze, cell_size=cs, solutions=solutions, **drawing))
    for i, p in enumerate(pictures):  # the legend under the finished maze: white below before
        if p.size != last.size:
            grown = Image.new("RGB", last.size, "white")
            grown.paste(p, (0, 0))
            pictures[i] = grown
    pictures.append(last)
    # One palette for every frame, exact for the colours of the drawing.
    keys = []
    for p in pictures:
        a = np.asarray(p).astype(np.int32)
        keys.append(a[..., 0] << 16 | a[..., 1] << 8 | a[..., 2])
    colours = np.unique(np.concatenate([np.unique(k) for k in keys]))
    if len(colours) > 256:
        palette_img = pictures[-1].quantize(colors=256)
        paletted = [p.quantize(palette=palette_img) for p in pictures]
    else:
        rgb = np.stack([colours >> 16, (colours >> 8) & 255, colours & 255], axis=1)
        flat = np.zeros(768, np.uint8)
        flat[: rgb.size] = rgb.reshape(-1)
        paletted = []
        for k in keys:
            img = Image.fromarray(np.searchsorted(colours, k).astype(np.uint8), mode="P")
            img.putpalette(flat.tolist())
            paletted.append(img)
    buf = io.BytesIO()
    durations = [frame_ms] * (len(paletted) - 1) + [hold_ms]
    paletted[0].save(
        buf,
        format="GIF",
        save_all=True,
        append_images=paletted[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
    )
    return buf.getvalue()


def write_gif(
    recording: Recording,
    maze: Maze,
    path: str | os.PathLike[str],
    *,
    index: int = -1,
    **options: Any,
) -> Path:
    """Write :func:`to_gif` of ``recording.carving(index)`` to ``path`` (atomically)."""
    data = to_gif(maze, recording.carving(index), **options)
    with atomic_write(path) as fh:
        fh.write(data)
    return Path(path)
