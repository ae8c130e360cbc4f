"""ASCII export: the maze in plain characters, as console maze programs print theirs.

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

from mazeart.errors import MazeartError
from mazeart.maze import Maze

__all__ = ["to_ascii", "write_ascii"]


def to_ascii(
    maze: Maze, *, wall: str = "#", floor: str = " ", ground: str = " ", doors: bool = True
) -> str:
    """Draw ``maze`` in plain characters.

    Parameters
    ----------
    maze : Maze
    wall, floor, ground : str
        One character each: wall, maze floor, and the ground outside the figure.
        With ``ground="#"`` and ``doors=False`` a ``cells`` maze reads back with
        :meth:`mazeart.Maze.from_text`.
    doors : bool, default True
        Open the outline in front of the entrance and the exit.

    Returns
    -------
    str
        Lines ending in ``\\n``.
    """
    if not maze.is_square:
        from mazeart.maze import check_maze

        check_maze(maze)
        raise MazeartError("ASCII draws the square grid only (SVG, PNG and PDF draw any grid)")
    if len(wall) != 1 or len(floor) != 1 or len(ground) != 1:
        raise MazeartError("wall, floor and ground must be one character each")
    pic = maze.picture(doors=doors)
    chars = np.array([ground, wall, floor], dtype="<U1")[pic]
    at = maze.picture_position
    for room in maze.rooms:
        for r, c in room.cells:
            chars[at((r, c))] = "."
    for (r, c), kind in maze.tags.items():
        chars[at((r, c))] = kind[:1].lower() or "?"
    for cell, mark in ((maze.entrance, "S"), (maze.exit, "E")):
        if cell is not None:
            chars[at(cell)] = "X" if maze.entrance == maze.exit else mark
    return "\n".join("".join(row).rstrip() for row in chars) + "\n"


def write_ascii(maze: Maze, fh: Any, **options: Any) -> None:
    """Exporter entry: write :func:`to_ascii` to a binary file object (UTF-8)."""
    known = {k: options[k] for k in ("wall", "floor") if k in options}
    fh.write(to_ascii(maze, **known).encode("utf-8"))
