"""ASCII export: the maze in plain characters, as seeds 002 and 003 printed theirs.

A ``cells`` maze is drawn on its ``(2H+1, 2W+1)`` raster: ``#`` for wall, a
space for floor and for a passage between two cells. A ``blocks`` maze is drawn
block for block with a one-block frame. ``S`` marks the entrance and ``E`` the
exit (``X`` when they are one cell), and a door in the outline is left open in
front of each; tagged cells show the first letter of their kind in lower case
(``l`` loot, ``s`` spawn, ``k`` key, ``n`` npc, ``t`` trap) and room floor is
``.``. :meth:`mazeart.Maze.from_text` reads a ``cells`` drawing back (tags and
rooms aside).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mazeart.maze import DIRECTIONS, Maze

__all__ = ["to_ascii", "write_ascii"]


def to_ascii(maze: Maze, *, wall: str = "#", floor: str = " ", doors: bool = True) -> str:
    """Draw ``maze`` in plain characters.

    Parameters
    ----------
    maze : Maze
    wall, floor : str
        One character each.
    doors : bool, default True
        Open the outline in front of the entrance and the exit.

    Returns
    -------
    str
        Lines ending in ``\\n``.
    """
    if len(wall) != 1 or len(floor) != 1:
        raise ValueError("wall and floor must be one character each")
    if maze.geometry == "cells":
        open_ = maze.raster()
        at = lambda r, c: (2 * r + 1, 2 * c + 1)  # noqa: E731
    else:
        open_ = maze.blocks(doors=False) == 2
        at = lambda r, c: (r + 1, c + 1)  # noqa: E731
    chars = np.where(open_, floor, wall).astype("<U1")
    # Ground outside the figure stays blank rather than solid wall.
    if maze.geometry == "cells":
        outside = np.ones_like(open_)
        outside[1::2, 1::2] = ~maze.mask
        grown = np.zeros((open_.shape[0] + 2, open_.shape[1] + 2), dtype=bool)
        grown[1:-1, 1:-1] = ~outside
        near = np.zeros_like(open_)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                near |= grown[1 + dr : grown.shape[0] - 1 + dr, 1 + dc : grown.shape[1] - 1 + dc]
        chars[~near] = " "
    else:
        chars[maze.blocks(doors=False) == 0] = " "
    for room in maze.rooms:
        for r, c in room.cells:
            chars[at(r, c)] = "."
    for (r, c), kind in maze.tags.items():
        chars[at(r, c)] = kind[:1].lower() or "?"
    for cell, side, mark in (
        (maze.entrance, maze.entrance_side, "S"),
        (maze.exit, maze.exit_side, "E"),
    ):
        if cell is None:
            continue
        pos = at(*cell)
        chars[pos] = "X" if maze.entrance == maze.exit else mark
        if doors and side:
            _, dr, dc = next(d for d in DIRECTIONS if d[0] == side)
            chars[pos[0] + dr, pos[1] + dc] = floor  # the outline position in front
    return "\n".join("".join(row).rstrip() for row in chars) + "\n"


def write_ascii(maze: Maze, fh: Any, **options: Any) -> None:
    """Exporter entry: write :func:`to_ascii` to a binary file object (UTF-8)."""
    known = {k: options[k] for k in ("wall", "floor") if k in options}
    fh.write(to_ascii(maze, **known).encode("utf-8"))
