"""Kruskal's algorithm, and joining a forest into spanning trees.

:func:`complete_forest` takes the passages a generator has carved (any forest)
and removes walls in uniformly random order, keeping those that join two
different trees, until every free part is one tree. Started from no passages
this *is* randomized Kruskal's algorithm; started from the trees a row-by-row
algorithm leaves on a preset (where a shape cuts a run or a set off), it is
the repair that makes that algorithm correct on any mask.
"""

from __future__ import annotations

import numpy as np

from mazeart._kernels.carve import join_forest

__all__ = ["complete_forest"]


def complete_forest(grid, pairs: np.ndarray | None = None) -> int:
    """Join the trees of every free part of a :class:`CellGrid` into one.

    Parameters
    ----------
    grid : CellGrid
        Its ``passages`` must form a forest (no loops); they are extended in place.
    pairs : (k, 2) ndarray of int64, optional
        Framed cells to count as joined already (e.g. the doors of one room).

    Returns
    -------
    int
        Number of passages added.
    """
    n_free = int(np.count_nonzero(grid.flat_free))
    existing = int(np.count_nonzero(grid.passages & 2) + np.count_nonzero(grid.passages & 4))
    if pairs is None:
        pairs = np.zeros((0, 2), dtype=np.int64)
    if n_free - len(grid.starts) - existing <= 0 and not len(pairs):
        return 0  # every part is one tree already
    sample = np.empty(0, np.int32 if 4 * grid.flat_free.size < 2**31 else np.int64)
    added = join_forest(
        grid.topology, grid.flat_free, grid.passages, grid.state, existing, pairs, grid.order,
        sample, np.empty(0, np.uint64),
    )  # fmt: skip
    return int(added)
