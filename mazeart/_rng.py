"""A counter-based random stream for compiled kernels, seeded from a numpy Generator.

Kernels draw millions of small integers; calling back into a
:class:`numpy.random.Generator` per draw would dominate their run time. Instead
each kernel receives a one-word state taken from the caller's Generator and
advances it with SplitMix64 (Steele, Lea & Flood 2014; passes BigCrush). The
caller's Generator stays the single source of randomness: same Generator state,
same maze.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


def kernel_state(rng: np.random.Generator) -> NDArray[np.uint64]:
    """Draw a fresh kernel state from ``rng``.

    Parameters
    ----------
    rng : numpy.random.Generator

    Returns
    -------
    (1,) ndarray of uint64
        Mutable state to pass to a kernel.
    """
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    return rng.integers(0, np.iinfo(np.uint64).max, size=1, dtype=np.uint64, endpoint=True)


@njit(inline="always", cache=True)
def next_u64(state):
    """Advance ``state`` and return 64 random bits."""
    s = state[0] + _GOLDEN
    state[0] = s
    z = (s ^ (s >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(inline="always", cache=True)
def below(state, k):
    """Uniform integer in ``[0, k)`` for ``1 <= k < 2**32`` (Lemire's multiply-shift)."""
    hi = next_u64(state) >> _S32
    return np.int64((hi * np.uint64(k)) >> _S32)


@njit(inline="always", cache=True)
def uniform(state):
    """Uniform float in ``[0, 1)`` with 53 random bits."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
