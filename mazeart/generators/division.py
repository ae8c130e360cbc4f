"""Recursive division: start open, then wall chambers in two, leaving one door each time.

Unlike the other generators this one *adds* walls. A chamber is split by a
wall across its shorter side (either way when square) at a random line, with a
door at a random place in it; both halves are split again until they are one
cell wide. The result has long straight walls and a visible box structure.

A preset's shape does not follow chamber lines, so the division runs on the
whole grid and the maze is then cut to the free cells: what remains is a
forest (cutting a tree never closes a loop), whose trees are joined by the
union-find pass of Kruskal's (:func:`~mazeart.generators._forest.complete_forest`)
into one perfect maze per free part. On a rectangle nothing needs joining.
"""

from __future__ import annotations

import numpy as np

from mazeart._jit import njit
from mazeart._rng import below
from mazeart.generators._common import close, kernel_generator

__all__ = ["division"]


@njit(cache=True)
def _divide(free, offsets, stride, starts, state, passages, order):
    rows = free.size // stride
    h = rows - 2
    w = stride - 2
    # all open inside the grid
    for r in range(1, h + 1):
        for c in range(1, w + 1):
            cell = r * stride + c
            bits = 0
            if r > 1:
                bits |= 1
            if c < w:
                bits |= 2
            if r < h:
                bits |= 4
            if c > 1:
                bits |= 8
            passages[cell] = bits
            if order.size > 1:  # everything starts open, at the first tick
                order[1 + 2 * cell] = 1 if bits & 2 else 0
                order[2 + 2 * cell] = 1 if bits & 4 else 0
    if order.size > 1:
        order[0] = 1
    stack = np.empty((2 * h * w + 4, 4), np.int64)
    top = 0
    stack[0, 0], stack[0, 1], stack[0, 2], stack[0, 3] = 1, 1, h, w  # row, col, height, width
    while top >= 0:
        r0, c0, hh, ww = stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3]
        top -= 1
        if hh < 2 or ww < 2:
            continue
        if hh > ww:
            horizontal = True
        elif ww > hh:
            horizontal = False
        else:
            horizontal = below(state, 2) == 0
        if horizontal:
            y = r0 + below(state, hh - 1)  # wall under row y
            door = c0 + below(state, ww)
            for c in range(c0, c0 + ww):
                if c != door:
                    cell = y * stride + c
                    close(passages, order, cell, 2, cell + stride)
            top += 1
            stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3] = r0, c0, y - r0 + 1, ww
            top += 1
            stack[top, 0], stack[top, 1] = y + 1, c0
            stack[top, 2], stack[top, 3] = r0 + hh - 1 - y, ww
        else:
            x = c0 + below(state, ww - 1)  # wall right of column x
            door = r0 + below(state, hh)
            for r in range(r0, r0 + hh):
                if r != door:
                    cell = r * stride + x
                    close(passages, order, cell, 1, cell + 1)
            top += 1
            stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3] = r0, c0, hh, x - c0 + 1
            top += 1
            stack[top, 0], stack[top, 1] = r0, x + 1
            stack[top, 2], stack[top, 3] = hh, c0 + ww - 1 - x
    # cut to the preset's free cells
    for cell in range(free.size):
        if not free[cell]:
            passages[cell] = 0
            continue
        bits = passages[cell]
        if bits & 1 and not free[cell - stride]:
            bits &= ~np.uint8(1)
        if bits & 2 and not free[cell + 1]:
            bits &= ~np.uint8(2)
        if bits & 4 and not free[cell + stride]:
            bits &= ~np.uint8(4)
        if bits & 8 and not free[cell - 1]:
            bits &= ~np.uint8(8)
        passages[cell] = bits


division = kernel_generator(
    "division",
    _divide,
    description="recursive division: add walls across chambers, one door each",
    summary="Carve a perfect maze by recursive division (wall adding).",
    join=True,
)
