"""Solvers: distances and shortest paths over a Maze's passages."""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from mazeart.maze import Maze

__all__ = ["distances", "solve"]


@njit(cache=True)
def _bfs(passages, width, source):
    """Breadth-first distances over flat passage bits; -1 where unreachable."""
    n = passages.size
    dist = np.full(n, -1, np.int32)
    queue = np.empty(n, np.int64)
    dist[source] = 0
    queue[0] = source
    head = 0
    tail = 1
    while head < tail:
        cur = queue[head]
        head += 1
        bits = passages[cur]
        nd = dist[cur] + 1
        if bits & 1:
            nb = cur - width
            if dist[nb] < 0:
                dist[nb] = nd
                queue[tail] = nb
                tail += 1
        if bits & 2:
            nb = cur + 1
            if dist[nb] < 0:
                dist[nb] = nd
                queue[tail] = nb
                tail += 1
        if bits & 4:
            nb = cur + width
            if dist[nb] < 0:
                dist[nb] = nd
                queue[tail] = nb
                tail += 1
        if bits & 8:
            nb = cur - 1
            if dist[nb] < 0:
                dist[nb] = nd
                queue[tail] = nb
                tail += 1
    return dist


@njit(cache=True)
def _walk_back(passages, width, dist, target):
    """Cells from the BFS source to ``target``, following distances downhill."""
    length = dist[target]
    out = np.empty(length + 1, np.int64)
    cur = target
    for i in range(length, -1, -1):
        out[i] = cur
        if i == 0:
            break
        bits = passages[cur]
        want = dist[cur] - 1
        if bits & 1 and dist[cur - width] == want:
            cur = cur - width
        elif bits & 2 and dist[cur + 1] == want:
            cur = cur + 1
        elif bits & 4 and dist[cur + width] == want:
            cur = cur + width
        else:
            cur = cur - 1
    return out


def distances(maze: Maze, source: tuple[int, int]) -> NDArray[np.int32]:
    """Passage distance from ``source`` to every cell.

    Parameters
    ----------
    maze : Maze
    source : (int, int)
        A maze cell.

    Returns
    -------
    (H, W) ndarray of int32
        Steps along passages; ``-1`` where unreachable or not maze.
    """
    if not maze.is_cell(source):
        raise ValueError(f"{tuple(source)} is not a maze cell")
    r, c = source
    d = _bfs(maze.passages.reshape(-1), maze.width, r * maze.width + c)
    return d.reshape(maze.shape)


def solve(
    maze: Maze,
    *,
    start: tuple[int, int] | None = None,
    goal: tuple[int, int] | None = None,
) -> NDArray[np.intp]:
    """Shortest path between two cells (breadth-first search).

    Parameters
    ----------
    maze : Maze
    start, goal : (int, int), optional
        Default to the maze's entrance and exit.

    Returns
    -------
    (L, 2) ndarray of intp
        ``(row, col)`` of every cell on the path, ``start`` first.

    Raises
    ------
    ValueError
        If an end is missing or not a maze cell, or the goal cannot be reached.
    """
    start = maze.entrance if start is None else start
    goal = maze.exit if goal is None else goal
    if start is None or goal is None:
        raise ValueError("the maze has no entrance or exit to solve between")
    if not maze.is_cell(goal):
        raise ValueError(f"{tuple(goal)} is not a maze cell")
    dist = distances(maze, start).reshape(-1)
    target = goal[0] * maze.width + goal[1]
    if dist[target] < 0:
        raise ValueError(f"no path joins {tuple(start)} and {tuple(goal)}")
    flat = _walk_back(maze.passages.reshape(-1), maze.width, dist, target)
    return np.stack(np.divmod(flat, maze.width), axis=1).astype(np.intp)
