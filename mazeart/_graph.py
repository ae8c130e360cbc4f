"""Compiled flood fills on grids: parts of a mask and pieces of a maze graph."""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

__all__ = ["label_mask", "label_passages"]


@njit(cache=True)
def _label_mask(mask, height, width):
    n = height * width
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
            r = cur // width
            c = cur - r * width
            if r > 0:
                nb = cur - width
                if mask[nb] and labels[nb] == 0:
                    labels[nb] = count
                    queue[tail] = nb
                    tail += 1
            if c < width - 1:
                nb = cur + 1
                if mask[nb] and labels[nb] == 0:
                    labels[nb] = count
                    queue[tail] = nb
                    tail += 1
            if r < height - 1:
                nb = cur + width
                if mask[nb] and labels[nb] == 0:
                    labels[nb] = count
                    queue[tail] = nb
                    tail += 1
            if c > 0:
                nb = cur - 1
                if mask[nb] and labels[nb] == 0:
                    labels[nb] = count
                    queue[tail] = nb
                    tail += 1
    return labels, count


@njit(cache=True)
def _label_passages(passages, mask, width):
    n = passages.size
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
            bits = passages[cur]
            for bit, step in ((1, -width), (2, 1), (4, width), (8, -1)):
                if bits & bit:
                    nb = cur + step
                    if labels[nb] == 0:
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
    m = np.ascontiguousarray(mask, dtype=bool)
    h, w = m.shape
    labels, n = _label_mask(m.reshape(-1), h, w)
    return labels.reshape(h, w), int(n)


def label_passages(
    passages: NDArray[np.uint8], mask: NDArray[np.bool_]
) -> tuple[NDArray[np.int32], int]:
    """Label the connected pieces of a maze graph (cells joined by passages).

    Parameters
    ----------
    passages : (H, W) ndarray of uint8
    mask : (H, W) ndarray of bool

    Returns
    -------
    labels : (H, W) ndarray of int32
        ``0`` outside the mask, ``1..n`` per piece.
    n : int
    """
    p = np.ascontiguousarray(passages, dtype=np.uint8)
    m = np.ascontiguousarray(mask, dtype=bool)
    labels, n = _label_passages(p.reshape(-1), m.reshape(-1), p.shape[1])
    return labels.reshape(p.shape), int(n)
