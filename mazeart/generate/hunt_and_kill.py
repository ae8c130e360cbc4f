"""Hunt-and-kill: random walks into unvisited cells; when stuck, hunt for the next start.

The *kill* phase walks from the current cell into random unvisited neighbours
until it is boxed in. The *hunt* phase then takes the first cell in reading
order that is unvisited but touches the maze, joins it through a random visited
neighbour, and walks on from there. Long corridors like the backtracker's, with
the hunts sweeping the grid from the top.

The hunt does not rescan the grid: cells that touch the maze are kept in one
bitset word per 64 columns, with a count per row and a pointer to the first
row that may hold one. The pointer only moves back as far as a walk reaches up,
so all hunts together cost O(cells) plus one row of words each.
"""

from __future__ import annotations

import numpy as np

from mazeart._jit import njit
from mazeart._rng import below
from mazeart.generate._common import carve, kernel_generator

__all__ = ["hunt_and_kill"]

_ONE = np.uint64(1)


@njit(inline="always", cache=True)
def _flag(marks, counts, words, r, col, on):
    w = r * words + (col >> 6)
    bit = _ONE << np.uint64(col & 63)
    has = (marks[w] & bit) != 0
    if on and not has:
        marks[w] |= bit
        counts[r] += 1
    elif not on and has:
        marks[w] &= ~bit
        counts[r] -= 1


@njit(cache=True)
def _hunt_and_kill(free, offsets, stride, starts, state, passages, order):
    n = free.size
    rows = n // stride
    words = (stride + 63) // 64
    visited = np.zeros(n, np.bool_)
    marks = np.zeros(rows * words, np.uint64)
    counts = np.zeros(rows, np.int64)
    options = np.empty(4, np.int64)
    d_row = np.array([-1, 0, 1, 0], np.int64)
    d_col = np.array([0, 1, 0, -1], np.int64)
    first_row = rows
    for s in starts:
        if visited[s]:
            continue
        cur = s
        r = s // stride
        col = s - r * stride
        joined = True
        while joined:
            # visit cur: it stops being a hunt target; its unvisited neighbours become targets
            visited[cur] = True
            _flag(marks, counts, words, r, col, False)
            k = 0
            for d in range(4):
                nb = cur + offsets[d]
                if free[nb] and not visited[nb]:
                    _flag(marks, counts, words, r + d_row[d], col + d_col[d], True)
                    options[k] = d
                    k += 1
            if r - 1 < first_row and k > 0:
                first_row = max(r - 1, 0)
            # kill: walk into a random unvisited neighbour
            if k > 0:
                d = options[0] if k == 1 else options[below(state, k)]
                nb = cur + offsets[d]
                carve(passages, order, cur, d, nb)
                cur = nb
                r += d_row[d]
                col += d_col[d]
                continue
            # hunt: the first target in reading order
            while first_row < rows and counts[first_row] == 0:
                first_row += 1
            if first_row == rows:
                joined = False
                continue
            base = first_row * words
            w = base
            while marks[w] == 0:
                w += 1
            x = marks[w]
            low = x & (~x + _ONE)
            bit = 0
            while (low >> np.uint64(bit)) != _ONE:
                bit += 1
            r = first_row
            col = (w - base) * 64 + bit
            cur = r * stride + col
            k = 0
            for d in range(4):
                if visited[cur + offsets[d]]:
                    options[k] = d
                    k += 1
            d = options[0] if k == 1 else options[below(state, k)]
            nb = cur + offsets[d]
            carve(passages, order, cur, d, nb)


hunt_and_kill = kernel_generator(
    "hunt-and-kill",
    _hunt_and_kill,
    description="hunt-and-kill: random walks, then hunt the first cell beside the maze",
    summary="Carve a perfect maze with the hunt-and-kill algorithm.",
)
