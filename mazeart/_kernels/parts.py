"""The parts of a grid, labelled once for every grid: cells next to each other, or joined by
a maze's open passages.

Both kernels run a breadth-first search over a topology
(:mod:`mazeart._kernels.topology`): the square grid's flat steps or any grid's
neighbour table. Labels are ``1..n`` in the order of each part's first cell,
``0`` for a cell left out.

>>> import numpy as np
>>> labels, n = label_mask(np.array([[1, 1, 0], [0, 0, 1]], bool))
>>> labels.tolist(), n
([[1, 1, 0], [0, 0, 2]], 2)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from mazeart._jit import njit, readonly
from mazeart._kernels.topology import degree, is_open, square_topology, step

__all__ = ["label_cells", "label_links", "label_mask", "label_passages"]


@njit(cache=True)
def _label(topo, keep, links, through):  # type: ignore[no-untyped-def]
    """Breadth-first labels of the parts of the cells ``keep``: neighbours through the grid,
    or (``through``) only through the open passages ``links``. ``(labels, n)``."""
    n = keep.size
    labels = np.zeros(n, np.int32)
    queue = np.empty(n, np.int64)
    width = degree(topo)
    count = 0
    for start in range(n):
        if not keep[start] or labels[start] != 0:
            continue
        count += 1
        labels[start] = count
        queue[0] = start
        head, tail = 0, 1
        while head < tail:
            cur = queue[head]
            head += 1
            for d in range(width):
                nb = step(topo, cur, d)
                if nb < 0 or (through and not is_open(topo, links, cur, d)):
                    continue
                if keep[nb] and labels[nb] == 0:
                    labels[nb] = count
                    queue[tail] = nb
                    tail += 1
    return labels, count


def label_cells(topo: Any, keep: NDArray[np.bool_]) -> tuple[NDArray[np.int32], int]:
    """The parts of the cells ``keep``, neighbours through the grid: ``(labels, n)``.

    On the square grid ``keep`` must be framed (its outer ring False), as every
    square kernel's grid is, so that no step leaves the array."""
    keep = readonly(keep)
    labels, n = _label(readonly(topo), keep, keep, False)
    return labels, int(n)


def label_links(
    topo: Any, keep: NDArray[np.bool_], links: NDArray[Any]
) -> tuple[NDArray[np.int32], int]:
    """The parts of the cells ``keep`` joined by the open passages ``links`` (the
    topology's form: bits per square cell, a bool per wall of a graph): ``(labels, n)``.
    A passage never leads off the grid, so the square grid need not be framed."""
    labels, n = _label(readonly(topo), readonly(keep), readonly(links), True)
    return labels, int(n)


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
    labels, n = label_cells(square_topology(w + 2), framed.reshape(-1))
    return np.ascontiguousarray(labels.reshape(h + 2, w + 2)[1:-1, 1:-1]), n


def label_passages(
    passages: NDArray[np.uint8], mask: NDArray[np.bool_], stride: int
) -> tuple[NDArray[np.int32], int]:
    """The parts of the square grid's ``mask`` cells joined by passages, on flat arrays.

    ``passages`` holds the N=1 E=2 S=4 W=8 bits of a grid with rows of length
    ``stride`` (framed or not). Returns ``(labels, n)``: ``0`` outside the mask,
    ``1..n`` per part in reading order of each part's first cell.
    """
    return label_links(square_topology(stride), mask, passages)


def label_parts(grid: Any, free: NDArray[np.bool_]) -> tuple[NDArray[np.int64], int]:
    """The free parts of ``grid`` (a :class:`~mazeart.grids.Grid`): a label per cell (``-1``
    where not free, parts from 0) and their count."""
    from mazeart._kernels.topology import grid_topology

    labels, n = label_cells(grid_topology(grid), np.ascontiguousarray(free, dtype=np.bool_))
    return labels.astype(np.int64) - 1, int(n)
