"""The package's errors, and the checks that raise them.

Everything a user can get wrong raises :class:`MazeartError` (a
:class:`ValueError`, so ``except ValueError`` keeps working) with a one-line
message that names the problem; the command line prints that line and exits
with status 2. A value of the wrong *type* raises :class:`TypeError`. Anything
else that escapes is a bug.

>>> from mazeart.errors import check_int
>>> check_int(3, "cells")
3
>>> check_int(0, "cells")
Traceback (most recent call last):
...
mazeart.errors.MazeartError: cells must be an integer >= 1, got 0
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Iterable
from typing import Any

__all__ = [
    "FileFormatError",
    "InvalidMazeError",
    "MazeartError",
    "NoPathError",
    "check_choice",
    "check_int",
    "check_number",
]


CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
"""Control characters (C0, DEL, C1), the line and paragraph separators and lone surrogates
(which no UTF-8 file can hold): never printed raw nor stored in names."""

_LONG_NUMBER = re.compile(r"\d{40,}")


def printable(text: object) -> str:
    """``text`` with control characters shown as escapes, safe to print to a terminal.

    >>> print(printable("bad" + chr(27) + "[2Jname"))
    bad\\x1b[2Jname
    >>> print(printable(f"got {10**60}"))
    got 10000000...(61 digits)
    """
    text = _LONG_NUMBER.sub(lambda m: f"{m.group()[:8]}...({len(m.group())} digits)", str(text))
    return CONTROL.sub(lambda m: repr(m.group())[1:-1], text)


class MazeartError(ValueError):
    """A problem with what the user gave: an option, a file, a maze."""


class MazeartWarning(UserWarning):
    """Something about a result a user should know (the command line prints it as a warning)."""


class InvalidMazeError(MazeartError):
    """A maze that breaks the model's rules (asymmetric passages, an open room, ...)."""


class NoPathError(MazeartError):
    """No way from the entrance to the exit (or the solver cannot find one)."""


class FileFormatError(MazeartError):
    """A file that cannot be read as what it should be (picture, preset, saved maze, rooms)."""


def check_int(value: Any, name: str, *, minimum: int | None = 1, maximum: int | None = None) -> int:
    """``value`` as an ``int`` within ``[minimum, maximum]``.

    Python and numpy integers pass; ``bool`` and everything else raise
    :class:`TypeError`; an integer out of range raises :class:`MazeartError`.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    v = int(value)
    if (minimum is not None and v < minimum) or (maximum is not None and v > maximum):
        if maximum is None:
            want = f">= {minimum}"
        elif minimum is None:
            want = f"<= {maximum}"
        else:
            want = f"from {minimum} to {maximum}"
        raise MazeartError(f"{name} must be an integer {want}, got {v}")
    return v


def check_number(
    value: Any,
    name: str,
    *,
    low: float | None = None,
    high: float | None = None,
    low_open: bool = False,
) -> float:
    """``value`` as a finite ``float`` within ``[low, high]`` (``(low, high]`` if ``low_open``).

    Real numbers pass (``bool`` does not: :class:`TypeError`); NaN, infinities
    and values out of range raise :class:`MazeartError`.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {type(value).__name__} {value!r}")
    v = float(value)
    below = low is not None and (v <= low if low_open else v < low)
    if not math.isfinite(v) or below or (high is not None and v > high):
        lo = "" if low is None else f"{'(' if low_open else '['}{low:g}, "
        hi = "" if high is None else f"{high:g}]"
        want = f" in {lo or '(-inf, '}{hi or 'inf)'}" if (low, high) != (None, None) else ""
        raise MazeartError(f"{name} must be a finite number{want}, got {value!r}")
    return v


def check_choice(value: Any, name: str, choices: Iterable[str]) -> str:
    """``value`` if it is one of ``choices``, else a :class:`MazeartError` naming them."""
    options = tuple(choices)
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {type(value).__name__} {value!r}")
    if value not in options:
        raise MazeartError(f"unknown {name} {value!r} (choose from {', '.join(options)})")
    return value
