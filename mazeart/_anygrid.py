"""Public functions that take a maze on any grid.

The square grid's functions read passage bits by row and column; a maze on
another grid (:class:`~mazeart.grids.maze.GridMaze`) is served by the same
function of :mod:`mazeart.grids`, with cells as ids. :func:`any_grid` is the
one place that sends a maze to its grid's implementation, so that every public
function takes a maze of every grid kind, and anything else is a
:class:`TypeError` naming what it got.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

__all__ = ["any_grid", "check_maze"]


def check_maze(maze: Any) -> None:
    """A :class:`TypeError` unless ``maze`` is a maze of some grid."""
    from mazeart.grids.maze import GridMaze
    from mazeart.maze import Maze

    if not isinstance(maze, Maze | GridMaze):
        raise TypeError(f"maze must be a Maze or a GridMaze, got {type(maze).__name__}")


def any_grid(target: str) -> Callable[[F], F]:
    """Let a function of the square grid take a maze on any grid.

    Parameters
    ----------
    target : str
        ``"module:function"``: the same function for a
        :class:`~mazeart.grids.maze.GridMaze`, called with the same arguments
        (imported when first needed, so the square path loads no grid code).
    """
    module, name = target.split(":")

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(maze: Any, *args: Any, **kwargs: Any) -> Any:
            from mazeart.maze import Maze

            if isinstance(maze, Maze):
                return func(maze, *args, **kwargs)
            check_maze(maze)
            return getattr(importlib.import_module(module), name)(maze, *args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate
