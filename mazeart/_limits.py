"""How big a job mazeart takes on before it refuses, checked before the work starts.

Every size a user can ask for (a grid, a picture, a drawing, a count of mazes)
is estimated before anything is allocated, and a job beyond these limits is
refused with one line that says what it would need and how to allow it. The
defaults keep any single run well inside a gigabyte of memory:

- ``max_cells`` (2,000,000): cells of one maze's grid, and of all the mazes a
  job holds at once (the levels of a game, the pages of a book);
- ``max_pixels`` (100,000,000): pixels of a picture to decode and of a PNG to
  draw.

Counts that multiply work (``best_of``, ``paths``, levels, pages) are capped
as well, and ``best_of`` candidates together may make at most
:data:`WORK_FACTOR` times ``max_cells`` cells.

>>> import mazeart
>>> with mazeart.limits(max_cells=100):  # doctest: +ELLIPSIS
...     mazeart.make("." * 200 + "\\n", rng=1)
Traceback (most recent call last):
...
mazeart.errors.MazeartError: the preset would be 200 x 1 = 200 cells, more than max_cells 100 ...
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from dataclasses import dataclass, replace

from mazeart.errors import MazeartError, check_int

__all__ = [
    "MAX_COUNT",
    "WORK_FACTOR",
    "Limits",
    "check_cells",
    "check_count",
    "check_pixels",
    "check_work",
    "current",
    "limits",
]

MAX_COUNT = 1000
"""Most candidates (``best_of``), paths, game levels or book pages one run makes."""

WORK_FACTOR = 100
"""``best_of`` candidates, made one after another, may add up to this many times ``max_cells``."""


@dataclass(frozen=True)
class Limits:
    """The sizes a run may reach (see the module's text)."""

    max_cells: int = 2_000_000
    max_pixels: int = 100_000_000


_DEFAULT = Limits()
_CURRENT: contextvars.ContextVar[Limits] = contextvars.ContextVar(
    "mazeart_limits",
    default=_DEFAULT,
)


def current() -> Limits:
    """The limits in force (the defaults, or those of the innermost :func:`limits` block)."""
    return _CURRENT.get()


@contextlib.contextmanager
def limits(*, max_cells: int | None = None, max_pixels: int | None = None) -> Iterator[Limits]:
    """Raise (or lower) the limits for the code inside the ``with`` block.

    Parameters
    ----------
    max_cells : int, optional
        Cells of one grid, and of all the mazes a job holds at once.
    max_pixels : int, optional
        Pixels of a picture to decode or a PNG to draw.

    Yields
    ------
    Limits
        The limits in force inside the block.

    Examples
    --------
    >>> from mazeart import make
    >>> with limits(max_cells=100):
    ...     make("20x20")
    Traceback (most recent call last):
    ...
    mazeart.errors.MazeartError: ...max_cells 100...
    >>> current().max_cells  # back to the default outside the block
    2000000
    """
    new = current()
    if max_cells is not None:
        new = replace(new, max_cells=check_int(max_cells, "max_cells"))
    if max_pixels is not None:
        new = replace(new, max_pixels=check_int(max_pixels, "max_pixels"))
    token = _CURRENT.set(new)
    try:
        yield new
    finally:
        _CURRENT.reset(token)


GRID_COST: dict[str, int] = {"square": 1, "triangle": 2, "hex": 3, "upsilon": 3, "polar": 3,
                             "adaptive": 4, "weave": 5}  # fmt: skip
"""What a cell of each grid costs against ``max_cells``, in the square grid's cells: a grid's
explicit topology, its drawing and its saved file take two to four times the memory of a
square cell's (measured end to end, peak resident: a square grid of 2,000,000 cells draws
as SVG in 0.48 GB, as PDF in 0.66 GB; a hexagonal one of 666,666 as PNG in 0.98 GB; a weave
of 1,000,000 as SVG in 1.7 GB), so every size the limit allows runs in under 1 GiB (the
browser game on other grids has its own, smaller cap)."""


def grid_cap(kind: str = "square") -> int:
    """The most cells a grid of ``kind`` may have under the limits in force."""
    return current().max_cells // GRID_COST.get(kind, 1)


def check_cells(
    rows: int, cols: int, what: str = "the grid", *, count: int = 1, kind: str = "square"
) -> None:
    """Refuse ``count`` grids of ``rows`` x ``cols`` cells of ``kind`` (held at once) over the
    limit (:data:`GRID_COST`)."""
    cap = grid_cap(kind)
    total = int(rows) * int(cols) * int(count)
    if total > cap:
        many = f"{count:,} of " if count > 1 else ""
        on = ""
        if GRID_COST.get(kind, 1) > 1:
            on = f" {cap:,} on the {kind} grid, where a cell costs {GRID_COST[kind]} square ones,"
        raise MazeartError(
            f"{what} would be {many}{int(cols):,} x {int(rows):,} = {total:,} cells, "
            f"more than max_cells{on or ' ' + format(cap, ',')} (raise max_cells to allow it)"
        )


def check_pixels(width: float, height: float, what: str) -> None:
    """Refuse a picture or drawing of ``width`` x ``height`` pixels over the limit."""
    cap = current().max_pixels
    total = float(width) * float(height)
    if total > cap:
        raise MazeartError(
            f"{what} is {width:,.0f} x {height:,.0f} = {total / 1e6:,.0f} Mpx, "
            f"more than max_pixels {cap / 1e6:,.0f} Mpx (raise max_pixels to allow it)"
        )


def check_work(count: int, cells: int, what: str) -> None:
    """Refuse ``count`` mazes of ``cells`` cells made one after another, over the work limit."""
    cap = WORK_FACTOR * current().max_cells
    total = int(count) * int(cells)
    if total > cap:
        raise MazeartError(
            f"{what} would make {count:,} x {cells:,} = {total:,} cells, more than "
            f"{WORK_FACTOR} x max_cells {current().max_cells:,} (raise max_cells to allow it)"
        )


def check_count(value: int, name: str) -> int:
    """``value`` as a count from 1 to :data:`MAX_COUNT`."""
    return check_int(value, name, maximum=MAX_COUNT)
