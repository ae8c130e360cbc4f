"""Compiled flood fills on grids: the 4-connected parts of a mask, and the parts of a maze graph."""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

__all__ = ["label_mask", "label_passages"]


@njit(cache=True)
def _label_framed(mask, stride):
    """Flood-fill labels on a flat mask whose outer ring is False (no bounds checks)."""
    n = mask.size
    labels = np.zeros(n, np.int32)
    queue = np.empty(n, np.int64)
    count = 0
    for start in range(n):
        if not mask[start] or labels[start] != 0:
            continue
        count += 1
        labels[start] = count
        queue[0] = start
        head = 0
        tail = 1
        while head < tail:
            cur = queue[head]
            head += 1
            for nb in (cur - stride, cur + 1, cur + stride, cur - 1):
                if mask[nb] and labels[nb] == 0:
                    labels[nb] = count
                    queue[tail] = nb
                    tail += 1
    return labels, count


@njit(cache=True)
def label_passages(passages, mask, stride):
    """Label the parts of ``mask`` cells joined by passages, on flat arrays.

    ``passages`` holds the N=1 E=2 S=4 W=8 bits of a grid with rows of length
    ``stride`` (framed or not: a passage never leads off the grid). Cells join
    only if both are in ``mask``. Returns ``(labels, n)``: ``0`` outside the
    mask, ``1..n`` per part in reading order of each part's first cell.
    """
    n = passages.size
    labels = np.zeros(n, np.int32)
    queue = np.empty(n, np.int64)
    steps = (-stride, 1, stride, -1)
    count = 0
    for start in range(n):
        if not mask[start] or labels[start] != 0:
            continue
        count += 1
        labels[start] = count
        queue[0] = start
        head, tail = 0, 1
        while head < tail:
            cur = queue[head]
            head += 1
            bits = passages[cur]
            for k in range(4):
                if bits & (1 << k):
                    nb = cur + steps[k]
                    if mask[nb] and labels[nb] == 0:
                        labels[nb] = count
                        queue[tail] = nb
                        tail += 1
    return labels, count


def label_mask(mask: NDArray[np.bool_]) -> tuple[NDArray[np.int32], int]:
    """Label the 4-connected parts of a boolean grid.

    Parameters
    ----------
    mask : (H, W) ndarray of bool

    Returns
    -------
    labels : (H, W) ndarray of int32
        ``0`` where ``mask`` is False, ``1..n`` per part, numbered in reading
        order of each part's first cell.
    n : int
        Number of parts.
    """
    m = np.asarray(mask, dtype=bool)
    h, w = m.shape
    framed = np.zeros((h + 2, w + 2), dtype=bool)
    framed[1:-1, 1:-1] = m
    labels, n = _label_framed(framed.reshape(-1), w + 2)
    return np.ascontiguousarray(labels.reshape(h + 2, w + 2)[1:-1, 1:-1]), int(n)
