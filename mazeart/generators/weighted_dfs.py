"""The weighted depth-first search (Boydston's algorithm): a weight matrix steers the carve.

The search keeps one integer per cell instead of a visited flag:
``0`` unseen, ``1..4`` seen by that many path cells, ``500`` path, ``1000``
forbidden. From the cell on top of the stack it may step only into a neighbour
of weight ``0``; after looking, the cell records that it has seen all its
neighbours by adding one to their weights. When the search backs up to a cell,
the cell first forgets its own look (subtracting one), so the neighbours that
only *it* had seen become choosable again, picks one if any is left, and looks
again. A neighbour that some *other* path cell has seen stays closed, which is
what keeps corridors from running side by side.

The original program's steps and where they are in :func:`_carve`:

=====================  ===================================================
step                   here
=====================  ===================================================
1 weights, border      the caller's preset inside a non-free frame
2 random start         one random cell of every free part (``starts``)
3 stack empty → done   ``while top >= 0``
4 top becomes path     ``w[nxt] = PATH`` when pushed
5-7 valid neighbours   the four sides whose weight is ``FREE``
8 random choice        ``below(state, k)``; none → back-track
9 increment neighbours ``+1`` on the four sides (counters only)
10-11 carve, push      ``w[nxt] = PATH``; push
A1 pop                 ``top -= 1``
A2 forget own look     ``-1`` on the four sides (counters only) ...
A3-A4 choose again     ... a side is valid when its count is then ``0`` ...
A5 look again          ... and ``+1`` restores every count A2 lowered
A6 push                as 10-11
=====================  ===================================================

A2 and A5 cancel on every counter, so the kernel applies them as one: after
forgetting, a counter is ``0`` exactly when it was ``1``. The matrix is the
same at every step as the literal sequence gives (the tests replay the literal
sequence in plain Python and compare).

Two readings make the original program's stated guarantee hold; both are forced
by its own intent ("a path never touches another corridor side by side"):

- *Every path cell looks* (step 9 / A5 run even when there is nothing to choose).
  Read literally, a dead-end cell never records its look and a cell whose
  re-choice fails keeps its look forgotten, and later corridors then run
  alongside them, closing loops (every literal run on a 30 x 30 grid does).
- *Only counters count*: increments and decrements touch weights below
  ``PATH``, so ``500`` keeps meaning path and ``1000`` forbidden.

After the run every free cell that is not path holds the number of path cells
beside it, as the original program's matrix promises.

Geometries
----------
``blocks``
    The original program's own picture: the preset's cells are the blocks, path or wall.
``cells``
    The same search runs on the ``(2H+1, 2W+1)`` lattice of
    :func:`~mazeart.generators._common.lattice_weights`, whose corridors
    alternate cell, slot, cell; read back, it is a perfect maze with thin walls
    that fills every free cell.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from mazeart._jit import njit
from mazeart._rng import as_generator, below, kernel_state
from mazeart.errors import MazeartError
from mazeart.generators._common import (
    block_times,
    lattice_passages,
    lattice_weights,
    mark,
    maze_from_path_blocks,
    order_buffer,
    owned,
    part_starts,
    report_carving,
)
from mazeart.generators._registry import register
from mazeart.maze import Maze
from mazeart.weights import FORBIDDEN, FREE, PATH, is_free, validate_weights

__all__ = ["carve_weights", "weighted_dfs"]


@njit(cache=True)
def _carve(w, width, starts, state, stack, order):
    """Run the weighted DFS in place on flat weights ``w`` (row length ``width``).

    ``w`` must have a non-free frame so the four neighbours of a free cell
    always exist. Each start that is still ``FREE`` when its turn comes begins a
    walk. ``stack`` is scratch space with room for every free cell; ``order``
    records the carve order (see :func:`mazeart.generators._common.mark`). Returns
    the number of cells carved.
    """
    offsets = np.array([-width, 1, width, -1], np.int64)  # N, E, S, W
    frontier = np.empty(4, np.int64)
    carved = 0
    for s in starts:  # 2: one walk per free part
        if w[s] != FREE:
            continue
        w[s] = PATH
        mark(order, s)
        carved += 1
        top = 0
        stack[0] = s
        fresh = True  # the top cell has not looked yet
        while top >= 0:  # 3
            cur = np.int64(stack[top])
            k = 0
            if fresh:
                # 5-7: frontier = neighbours of weight FREE;
                # 9: then record the look on every neighbour counter.
                for i in range(4):
                    nb = cur + offsets[i]
                    v = w[nb]
                    if v == FREE:
                        frontier[k] = nb
                        k += 1
                    if v < PATH:
                        w[nb] = v + 1
            else:
                # A2 forget the look (-1), A3 frontier = weight FREE, A5 look again
                # (+1). A2 and A5 cancel on every counter, and a counter is FREE
                # after A2 exactly when it is 1, so the frontier is read directly.
                for i in range(4):
                    nb = cur + offsets[i]
                    if w[nb] == 1:
                        frontier[k] = nb
                        k += 1
            if k == 0:  # 8 / A4 with an empty frontier: A1, back up
                top -= 1
                fresh = False
                continue
            nxt = frontier[0] if k == 1 else frontier[below(state, k)]  # 8 / A4
            w[nxt] = PATH  # 10 (and 4)
            mark(order, nxt)
            carved += 1
            top += 1
            stack[top] = nxt  # 11 / A6
            fresh = True
    return carved


def carve_weights(
    weights: NDArray[np.int32],
    starts: NDArray[np.int64],
    state: NDArray[np.uint64],
    order: NDArray[np.int64] | None = None,
) -> int:
    """Run the weighted DFS in place on a framed weight matrix.

    Parameters
    ----------
    weights : (H, W) ndarray of int32, C-contiguous
        Working weights whose outermost ring is not free (so every free cell has
        four neighbours). Carved cells become ``PATH``; free cells end holding
        the number of path cells beside them.
    starts : (k,) ndarray of int64
        Flat indices where walks begin, in order; a start already reached by an
        earlier walk is skipped.
    state : (1,) ndarray of uint64
        Kernel random state (advanced in place).
    order : ndarray of int64, optional
        Carve-order buffer (:func:`mazeart.generators._common.order_buffer`).

    Returns
    -------
    int
        Number of cells carved.
    """
    if weights.dtype != np.int32 or not weights.flags.c_contiguous or weights.ndim != 2:
        raise MazeartError("carve_weights needs a C-contiguous 2-D int32 array")
    ring = np.concatenate([weights[0], weights[-1], weights[:, 0], weights[:, -1]])
    if np.any((ring >= FREE) & (ring < PATH)):
        raise MazeartError("the weight matrix's outer ring must not be free")
    flat = weights.reshape(-1)
    # np.empty only reserves: pages are touched as deep as the walk goes.
    stack = np.empty(flat.size, dtype=np.int32 if flat.size < 2**31 else np.int64)
    if order is None:
        order = np.zeros(1, np.int64)
    return int(_carve(flat, weights.shape[1], np.asarray(starts, np.int64), state, stack, order))


@register(
    "weighted-dfs",
    description="weighted DFS (Boydston): seen-counts in the weight matrix steer the carve",
    geometries=("cells", "blocks"),
)
def weighted_dfs(
    weights: NDArray[np.int32], rng: np.random.Generator, *, geometry: str = "cells"
) -> Maze:
    """Carve a perfect maze in every free part of ``weights`` with the weighted DFS.

    Parameters
    ----------
    weights : (H, W) array_like of int
        Preset; only :data:`~mazeart.weights.FREE` cells are carved.
    rng : numpy.random.Generator
        Source of randomness.
    geometry : {'cells', 'blocks'}, default 'cells'
        ``cells``: every free cell becomes maze, walls drawn between cells.
        ``blocks``: free cells become path or wall blocks, corridors one block
        wide that never touch side by side.

    Returns
    -------
    Maze
        One spanning tree per free part (``cells``), or one induced tree of path
        blocks per free part (``blocks``).
    """
    rng = as_generator(rng)
    w = validate_weights(weights)
    free = is_free(w)
    state = kernel_state(rng)
    starts = part_starts(free, state)
    h, wd = free.shape
    rows, cols = np.divmod(starts, wd)
    if geometry == "blocks":
        work = np.full((h + 2, wd + 2), FORBIDDEN, dtype=np.int32)
        work[1:-1, 1:-1][free] = FREE
        order = order_buffer(work.size)
        carve_weights(work, (rows + 1) * (wd + 2) + cols + 1, state, order)
        if order.size > 1:
            report_carving("blocks", block_times(order, free.shape))
        return maze_from_path_blocks(work[1:-1, 1:-1] == PATH, free)
    if geometry != "cells":
        raise MazeartError(f"weighted-dfs supports geometries cells, blocks; got {geometry!r}")
    lat = lattice_weights(free)
    order = order_buffer(lat.size)
    carve_weights(lat, (2 * rows + 1) * (2 * wd + 1) + 2 * cols + 1, state, order)
    if order.size > 1:  # the lattice's wall slots between cells are the passages
        ticks = order[1:].reshape(lat.shape)
        report_carving(
            "cells", {"east": ticks[1:-1:2, 2::2].copy(), "south": ticks[2::2, 1:-1:2].copy()}
        )
    mask, passages = lattice_passages(lat, PATH)
    return Maze(owned(mask, passages, free), passages, region=free)
