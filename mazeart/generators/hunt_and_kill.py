"""Hunt-and-kill: random walks into unvisited cells; when stuck, hunt for the next start.

The *kill* phase walks from the current cell into random unvisited neighbours
until it is boxed in. The *hunt* phase then takes the first cell in reading
order that is unvisited but touches the maze, joins it through a random visited
neighbour, and walks on from there. Long corridors like the backtracker's, with
the hunts sweeping the grid from the top.

The hunt does not rescan the grid: cells that touch the maze are bits of one
bitset, with a pointer to the first word that may hold one. The pointer only
moves back as far as a walk reaches up, so all hunts together cost O(cells) in
words plus one word each (:func:`mazeart._kernels.carve.hunt_and_kill`, the one
kernel of every grid).
"""

from __future__ import annotations

from mazeart._kernels.carve import hunt_and_kill as _hunt_and_kill
from mazeart.generators._common import kernel_generator

__all__ = ["hunt_and_kill"]


hunt_and_kill = kernel_generator(
    "hunt-and-kill",
    _hunt_and_kill,
    description="hunt-and-kill: random walks, then hunt the first cell beside the maze",
    summary="Carve a perfect maze with the hunt-and-kill algorithm.",
    topology=True,
)
