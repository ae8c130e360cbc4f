"""Recursive backtracker: a depth-first walk with an explicit stack.

From the cell on top of the stack, carve into a random unvisited neighbour and
push it; when none is left, pop. Long winding corridors, few dead ends, a
river factor near one. On a preset every free part gets its own walk from a
random cell, so parts of any shape are filled.

With the same Generator it carves exactly the maze that the weighted DFS carves
in ``cells`` geometry (both draw the same numbers in the same order): two
independent implementations of one walk, which the tests compare.
"""

from __future__ import annotations

from mazeart._kernels.carve import backtracker as _backtracker
from mazeart.generators._common import kernel_generator

__all__ = ["backtracker"]


backtracker = kernel_generator(
    "backtracker",
    _backtracker,
    description="recursive backtracker: depth-first walk, explicit stack",
    summary="Carve a perfect maze with an iterative depth-first search.",
    topology=True,
)
