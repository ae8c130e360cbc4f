"""Carving primitives shared by every kernel, and the carve-order record for animations."""

from __future__ import annotations

from contextvars import ContextVar

import numpy as np
from numpy.typing import NDArray

from mazeart._graph import BITS, OPPOSITE_BITS
from mazeart._jit import njit
from mazeart._kernels.topology import carve  # the square grid's join, for its own kernels

__all__ = ["carve", "close", "mark", "order_buffer", "report_carving"]

# ----------------------------------------------------------------------------- carve order
#
# Kernels can record the order in which they carve, for the generation animation
# (:mod:`mazeart.animate`). They receive an int64 ``order`` buffer: of size 1 when
# nobody is recording (the helpers below then only carve), otherwise ``order[0]`` is
# a clock and ``order[1 + slot]`` the tick at which a slot changed. For cell kernels
# a framed cell ``c`` owns two slots, ``2c`` (its east passage) and ``2c + 1`` (its
# south passage); a positive tick opened the passage, a negative one closed it
# (recursive division adds walls). Block kernels own one slot per block, the tick at
# which it became path.

_RECORDING: ContextVar[list | None] = ContextVar("mazeart_recording", default=None)


def order_buffer(slots: int) -> NDArray[np.int64]:
    """A kernel's carve-order buffer: recording when a recording is active, else inert."""
    if _RECORDING.get() is None:
        return np.zeros(1, np.int64)
    return np.zeros(slots + 1, np.int64)


def report_carving(kind: str, times: dict[str, NDArray[np.int64]]) -> None:
    """Hand a finished kernel's carve order to the active recording (if any)."""
    sink = _RECORDING.get()
    if sink is not None:
        sink.append((kind, times))


@njit(cache=True)
def close(passages, order, a, d, b):
    """Close the passage from ``a`` in direction ``d`` to ``b`` (a wall is added)."""
    passages[a] &= ~BITS[d]
    passages[b] &= ~OPPOSITE_BITS[d]
    if order.size > 1:
        order[0] += 1
        if d == 1:
            order[1 + 2 * a] = -order[0]
        elif d == 2:
            order[2 + 2 * a] = -order[0]
        elif d == 3:
            order[1 + 2 * b] = -order[0]
        else:
            order[2 + 2 * b] = -order[0]


@njit(cache=True)
def mark(order, i):
    """Record that block ``i`` became path."""
    if order.size > 1:
        order[0] += 1
        order[1 + i] = order[0]
