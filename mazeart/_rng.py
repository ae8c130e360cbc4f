"""A counter-based random stream for compiled kernels, seeded from a numpy Generator.

Kernels draw millions of small integers; calling back into a
:class:`numpy.random.Generator` per draw would dominate their run time. Instead
each kernel receives a one-word state taken from the caller's Generator and
advances it with SplitMix64 (Steele, Lea & Flood 2014; passes BigCrush). The
caller's Generator stays the single source of randomness: same Generator state,
same maze.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np
from numpy.typing import NDArray

from mazeart._jit import njit
from mazeart.errors import MazeartError

RngLike = int | np.integer | np.random.Generator | None
"""What an ``rng`` argument accepts: an int seed, a Generator, or None for fresh entropy."""

SEED_LIMIT = 2**63
"""Seeds are below this: a saved maze records its seed as a JSON integer every reader keeps
exactly (a signed 64-bit one)."""


def check_seed(seed: int, *, span: int = 1) -> int:
    """``seed`` when it and the ``span - 1`` seeds after it (a batch's, a book's, the
    candidates of best-of) are all below :data:`SEED_LIMIT`; else a one-line error."""
    if seed < 0:
        raise MazeartError(f"a seed must be a non-negative integer, got {seed}")
    if seed + span - 1 >= SEED_LIMIT:
        more = f" (and the {span - 1} after it)" if span > 1 else ""
        raise MazeartError(
            f"a seed{more} must be below 2**63 = {SEED_LIMIT}, the most a saved maze records; "
            f"got {seed}"
        )
    return seed


_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


def as_generator(rng: Any) -> np.random.Generator:
    """The :class:`numpy.random.Generator` an ``rng`` argument stands for.

    Every public function that draws random numbers takes one ``rng`` argument
    (scikit-image's and SPEC 7's convention): an ``int`` seed, a Generator
    (used as is), or ``None`` for fresh entropy.

    Raises
    ------
    TypeError
        For anything else (a float, a bool, a string, ...).
    MazeartError
        For a negative seed, or one of 2**63 or more (:data:`SEED_LIMIT`).
    """
    if rng is None or isinstance(rng, np.random.Generator):
        return np.random.default_rng(rng)
    if isinstance(rng, bool) or not isinstance(rng, numbers.Integral):
        raise TypeError(
            f"rng must be an int seed or a numpy.random.Generator, got {type(rng).__name__}"
        )
    return np.random.default_rng(check_seed(int(rng)))


def fresh_seed() -> int:
    """A new seed from the operating system's entropy (recorded, so the maze can be made again)."""
    return int(np.random.default_rng().integers(0, 2**31))


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
    return as_generator(rng).integers(
        0, np.iinfo(np.uint64).max, size=1, dtype=np.uint64, endpoint=True
    )


# The random draws alone are inlined by numba into every kernel that calls them: a few lines
# each, called from nearly every kernel, they cost less typed in place than compiled apart
# (a 400 x 300 maze's first run, 7 % less compiling); every other helper is left to LLVM.
@njit(inline="always", cache=True)
def next_u64(state):
    """Advance ``state`` and return 64 random bits."""
    s = state[0] + _GOLDEN
    state[0] = s
    z = (s ^ (s >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(inline="always", cache=True)
def nth_u64(seed, i):
    """The number a generator whose state is ``seed`` gives on its ``i + 1``-th call, without
    the calls before: for a fixed ``seed`` a bijection of ``i``, so no two ``i`` share one."""
    z = seed + (np.uint64(i) + np.uint64(1)) * _GOLDEN
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(inline="always", cache=True)
def below(state, k):
    """Uniform integer in ``[0, k)`` for ``1 <= k < 2**32`` (Lemire's multiply-shift)."""
    return below_of(draw32(state), k)


@njit(inline="always", cache=True)
def draw32(state):
    """32 random bits (as a uint64), the draw :func:`below` scales."""
    return next_u64(state) >> _S32


@njit(inline="always", cache=True)
def below_of(u, k):
    """:func:`below` for a draw ``u`` of :func:`draw32` already made: one draw may then be
    scaled to ``k`` after a guess at another count (a random walk's), as if made for it."""
    return np.int64((u * np.uint64(k)) >> _S32)


@njit(inline="always", cache=True)
def uniform(state):
    """Uniform float in ``[0, 1)`` with 53 random bits."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(inline="always", cache=True)
def nth_uniform(seed, k):
    """The ``k``-th uniform float in ``[0, 1)`` of the stream a kernel state ``seed``
    starts (``k >= 1``), without the ones before it: SplitMix64 is counter-based, so
    any draw can be made again from its number."""
    return np.float64(nth_u64(seed, k - 1) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(inline="always", cache=True)
def flip(coins, state):
    """A fair coin: one of 64 flips buffered from a single draw.

    ``coins`` is a ``(2,)`` uint64 array, the unused flips and how many are left
    (start with zeros); it carries over between calls, so a row-by-row kernel
    spends one draw per 64 flips instead of one per flip.
    """
    if coins[1] == 0:
        coins[0] = next_u64(state)
        coins[1] = 64
    heads = (coins[0] & np.uint64(1)) != 0
    coins[0] >>= np.uint64(1)
    coins[1] -= np.uint64(1)
    return heads
