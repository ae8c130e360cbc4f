"""Rooms: reserved open areas of a maze, entered only through their doors.

A room is a set of grid cells that the maze treats as one open space: every
cell inside joins its neighbours inside, the room's outline is wall, and each
door opens one edge cell onto the maze outside. Game levels use them for
treasuries, arenas and spawn halls; the hybrid algorithm calls them structures.

Rooms reach a maze three ways, all ending as codes in the weight matrix
(``ROOM + i`` on the cells of room ``i``, ``DOOR + i`` on its door cells; see
:mod:`mazeart.weights`):

- a rooms file (:func:`load_rooms`), JSON or TOML, in grid cells::

      [[rooms]]
      name = "treasury"          # optional
      kind = "loot"              # optional, free text
      rect = [4, 10, 3, 5]       # row, col, height, width
      doors = [[4, 12], [6, 10, "W"]]   # edge cells, side optional

      [[rooms]]
      origin = [12, 3]           # a small mask instead of a rectangle:
      mask = ["##.", "###"]      # '#' marks the room's cells
      doors = [[13, 5]]

  or in fractions of the picture, or in its pixels, so that one file serves
  any number of cells::

      units = "fraction"         # before the first [[rooms]]: every room's units

      [[rooms]]
      name = "treasury"
      rect = [0.45, 0.5, 0.08, 0.09]            # top, left, height, width
      doors = [[0.45, 0.54], [0.52, 0.5, "W"]]  # points [down, across], side optional

      [[rooms]]
      units = "pixels"           # a room may give its own units
      rect = [200, 100, 30, 40]
      doors = [[215, 100]]

- a colour key in the input picture (``weights_from_image(colour_rooms=True)``):
  pure red regions are rooms, pure blue marks on a room's edge are doors, one
  door a mark, at the room's edge cell nearest the mark's centre (a red region
  with no blue mark gets one door, in the middle of its side that faces the
  most maze); a mark painted over the room's edge does not cut into the room;
- codes painted directly into a preset.

Units: ``units`` is ``"cells"`` (the default: whole numbers, rows and columns
of the grid), ``"fraction"`` (numbers from 0 to 1 across the picture: 0 is its
top or left edge, 1 its bottom or right edge; without a picture, the grid's) or
``"pixels"`` (the picture's own pixels, upright as a viewer shows it; only with
a picture). Given at the top of a file it holds for every room; given in a
room, for that room. In fractions and pixels a room is a ``rect``
``[top, left, height, width]`` (masks are drawn in cells) and each door a point
``[down, across]`` on or inside it. Placed on a grid (:func:`resolve_rooms`),
the rect's edges round to the nearest grid lines, keeping at least one cell
each way (two where doors face each other across the room), and each door
opens through the wall nearest its point (or the side it names), at that
wall's cell nearest the point. Two doors that fall on one cell are an error
that names them: the grid is too coarse for the room.

From Python, wherever rooms are taken (:func:`resolve_rooms`,
:func:`stamp_rooms`, :func:`mazeart.make`'s ``rooms``), a room may be a
:class:`Room` (:meth:`Room.rect` builds a rectangle with its doors), a
``(Room, doors)`` pair, or a dict shaped like one room of a rooms file; rooms
come as a list of these, a dict shaped like a whole file, or a rooms file's
path.

The codes record which edge cell holds a door, not which way it opens: read
from codes, a door opens through the first side (N, E, S, W) of its cell that
faces a free cell. That only matters on a room's corners; a rooms file can
name the side there.
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mazeart._graph import DIRECTIONS, SIDE_BIT, SIDE_LETTER, STEP, E, N, S, W
from mazeart._io import check_text, load_json, load_toml, read_bytes
from mazeart._limits import check_cells
from mazeart.errors import MazeartError, check_int
from mazeart.weights import DOOR, FORBIDDEN, MAX_ROOMS, ROOM, is_free, validate_weights

__all__ = [
    "UNITS",
    "Door",
    "Room",
    "load_rooms",
    "place_rooms_on_grid",
    "resolve_rooms",
    "rooms_from_weights",
    "stamp_rooms",
]

UNITS = ("cells", "fraction", "pixels")
"""What a rooms file's numbers count: grid cells, fractions of the picture, or its pixels."""


def _cell_value(cell: Any, what: str) -> Any:
    """A cell as rooms name it: ``(row, col)`` on the square grid, an id on the others."""
    if isinstance(cell, numbers.Integral) and not isinstance(cell, bool):
        return int(cell)
    if (
        isinstance(cell, str | bytes)
        or not isinstance(cell, Sequence | np.ndarray)
        or len(cell) != 2
    ):
        raise TypeError(f"{what} must be (row, col) or a cell id, got {cell!r}")
    return (check_int(cell[0], f"{what}'s row", minimum=None),
            check_int(cell[1], f"{what}'s col", minimum=None))  # fmt: skip


@dataclass(frozen=True)
class Door:
    """A room's door: its cell ``cell`` opening onto the maze cell ``outside``.

    Cells are named as the maze names them: ``(row, col)`` on the square grid (where
    :meth:`through` builds a door from a side, and :attr:`row`, :attr:`col` and
    :attr:`side` read it back), cell ids on the other grids.

    >>> d = Door.through(3, 6, N)
    >>> d.cell, d.outside, str(d)
    ((3, 6), (2, 6), '(3, 6) N')
    >>> str(Door(12, 19))
    'cell 12 onto 19'
    """

    cell: Any
    outside: Any

    def __post_init__(self) -> None:
        object.__setattr__(self, "cell", _cell_value(self.cell, "a door's cell"))
        object.__setattr__(self, "outside", _cell_value(self.outside, "a door's outside"))
        if isinstance(self.cell, int) != isinstance(self.outside, int):
            raise TypeError("a door's cell and outside must both be (row, col) or both ids")
        if not isinstance(self.cell, int) and self.side == 0:
            raise MazeartError(f"door {self.cell} does not open onto a neighbour, "
                               f"{self.outside}")  # fmt: skip

    @classmethod
    def through(cls, row: int, col: int, side: int) -> Door:
        """The square grid's door in cell ``(row, col)`` through ``side`` (N=1 E=2 S=4 W=8)."""
        if side not in STEP:
            raise MazeartError(f"a door's side must be N, E, S or W, got {side!r}")
        dr, dc = STEP[side]
        return cls((row, col), (row + dr, col + dc))

    def _square(self) -> tuple[int, int]:
        if isinstance(self.cell, int):
            raise MazeartError("rows, columns and sides name the square grid's doors; "
                               f"this one opens cell {self.cell} onto {self.outside}")  # fmt: skip
        return self.cell

    @property
    def row(self) -> int:
        """The door cell's row (square grid)."""
        return self._square()[0]

    @property
    def col(self) -> int:
        """The door cell's column (square grid)."""
        return self._square()[1]

    @property
    def side(self) -> int:
        """The side the door opens through (N=1 E=2 S=4 W=8; square grid; 0 for none)."""
        r, c = self._square()
        step = (self.outside[0] - r, self.outside[1] - c)
        return next((bit for bit, d in STEP.items() if d == step), 0)

    def __str__(self) -> str:
        if isinstance(self.cell, int):
            return f"cell {self.cell} onto {self.outside}"
        return f"({self.row}, {self.col}) {SIDE_LETTER.get(self.side, '?')}"


@dataclass(frozen=True)
class Room:
    """A room: its cells, its doors, and an optional name and kind.

    Attributes
    ----------
    cells : tuple of (int, int), or of int
        Cells of the room in order: ``(row, col)`` on the square grid, cell ids on
        the others.
    doors : tuple of Door
    name : str
    kind : str
        Free text for games (``"arena"``, ``"loot"``, ...).
    """

    cells: tuple[Any, ...]
    doors: tuple[Door, ...]
    name: str = "room"
    kind: str = "room"
    _set: frozenset = field(default=frozenset(), repr=False, compare=False)

    def __post_init__(self) -> None:
        check_text(self.name, "a room's name")
        check_text(self.kind, f"the kind of room {self.name!r}")
        what = f"a cell of room {self.name!r}"
        cells = {_cell_value(cell, what) for cell in self.cells}
        if len({isinstance(c, int) for c in cells}) > 1:
            raise TypeError(f"room {self.name!r} mixes (row, col) cells and cell ids")
        object.__setattr__(self, "cells", tuple(sorted(cells)))
        for door in self.doors:
            if not isinstance(door, Door):
                raise TypeError(f"the doors of room {self.name!r} must be Door objects")
        object.__setattr__(self, "_set", frozenset(self.cells))

    @classmethod
    def rect(
        cls,
        top: int,
        left: int,
        height: int,
        width: int,
        *,
        doors: Iterable[Sequence[Any]] = (),
        name: str = "room",
        kind: str = "room",
    ) -> Room:
        """A rectangular room of grid cells, with its doors.

        Parameters
        ----------
        top, left : int
            Row and column of the room's top-left cell.
        height, width : int
            Its size in cells, at least 1 each way.
        doors : iterable of (row, col) or (row, col, side)
            Edge cells of the room that hold a door; ``side`` (``"N"``,
            ``"E"``, ``"S"``, ``"W"``) says which way it opens, and is needed
            only where a cell has more than one outer side (a corner).
        name, kind : str
            As in a rooms file.

        Returns
        -------
        Room

        Raises
        ------
        MazeartError
            A size below 1, a door off the room's edge, a side that opens into
            the room, a door listed twice, or a corner door without its side.
        TypeError
            A position or size that is not an integer.

        Notes
        -----
        For a room in fractions of the picture, give a dict shaped like a
        rooms file's room (see the module's text) where rooms are taken.

        Examples
        --------
        >>> hall = Room.rect(2, 3, 2, 4, name="hall", doors=[(2, 4), (3, 6, "E")])
        >>> len(hall.cells), [str(d) for d in hall.doors]
        (8, ['(2, 4) N', '(3, 6) E'])
        """
        top = check_int(top, "top", minimum=0)
        left = check_int(left, "left", minimum=0)
        height = check_int(height, "height")
        width = check_int(width, "width")
        check_cells(height, width, f"room {name!r}")
        room = cls(
            tuple((top + i, left + j) for i in range(height) for j in range(width)),
            (),
            name=name,
            kind=kind,
        )
        if isinstance(doors, str | bytes) or not isinstance(doors, Iterable):
            raise TypeError(f"doors must be a list of (row, col[, side]), got {doors!r}")
        placed: list[Door] = []
        seen: set[tuple[int, int]] = set()
        for d in doors:
            if isinstance(d, str | bytes) or not isinstance(d, Sequence) or len(d) not in (2, 3):
                raise TypeError(f"a door must be (row, col) or (row, col, side), got {d!r}")
            r, c = (
                check_int(d[0], "a door's row", minimum=0),
                check_int(d[1], "a door's col", minimum=0),
            )
            outer = room.edge_sides((r, c))
            if (r, c) not in room or not outer:
                raise MazeartError(f"door ({r}, {c}) of room {name!r} is not on its edge")
            if (r, c) in seen:
                raise MazeartError(f"room {name!r}: door ({r}, {c}) is listed twice")
            seen.add((r, c))
            if len(d) == 3:
                side = _side(d[2], f"room {name!r}: door side")
                if side not in outer:
                    raise MazeartError(
                        f"door ({r}, {c}) {SIDE_LETTER[side]} of room {name!r} opens into the room"
                    )
            elif len(outer) == 1:
                side = outer[0]
            else:
                sides = " or ".join(SIDE_LETTER[s] for s in outer)
                raise MazeartError(
                    f"door ({r}, {c}) of room {name!r} could open {sides}: give its side"
                )
            placed.append(Door.through(r, c, side))
        return cls(room.cells, tuple(placed), name=name, kind=kind)

    def __contains__(self, cell: object) -> bool:
        return cell in self._set

    def mask(self, shape: tuple[int, ...]) -> NDArray[np.bool_]:
        """The room's cells as a boolean grid: ``(H, W)`` on the square grid, ``(n,)`` for
        a room of cell ids."""
        out = np.zeros(shape, dtype=bool)
        if self.cells:
            at = np.array(self.cells)
            out[at if at.ndim == 1 else tuple(at.T)] = True
        return out

    @property
    def on_ids(self) -> bool:
        """Whether the room's cells are cell ids (a grid other than the square one)."""
        return bool(self.cells) and isinstance(self.cells[0], int)

    def edge_sides(self, cell: tuple[int, int]) -> list[int]:
        """Sides of ``cell`` that face out of the room (square grid)."""
        r, c = cell
        return [bit for bit, dr, dc in DIRECTIONS if (r + dr, c + dc) not in self._set]


RawDoor = tuple[int, int, int | str | None]
"""A door as a rooms file gives it in cells: ``(row, col, side or None)``."""

RoomSpec = tuple[Room, list[Any]]
"""A room placed on the grid with its unchecked doors, as :func:`stamp_rooms` takes it."""

RoomsLike = (
    str
    | os.PathLike[str]
    | Mapping[str, Any]
    | Room
    | Sequence[Room | tuple[Room, Sequence[Sequence[Any]]] | Mapping[str, Any]]
)
"""Rooms in any form taken: a file's path, dicts, Room objects, pairs, or a list of them."""


def _side(value: Any, what: str, *, bits: bool = True) -> int:
    """A side bit from its letter (any case) or, unless ``bits`` is off (files), its bit."""
    if isinstance(value, str) and value.upper() in SIDE_BIT:
        return SIDE_BIT[value.upper()]
    if bits and isinstance(value, int) and not isinstance(value, bool) and value in SIDE_LETTER:
        return value
    raise MazeartError(f"{what} must be N, E, S or W, got {value!r}")


# ----------------------------------------------------------------------------- files


_MAX_ROOMS_FILE = 16 * 2**20
"""A rooms file's size limit: far above any hand-written or generated file."""


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        hint = ' (units = "fraction" or "pixels" takes other numbers)'
        raise MazeartError(
            f"{what} must be a whole number, got {value!r}"
            + (hint if isinstance(value, float) and math.isfinite(value) else "")
        )
    if abs(int(value)) > 10**9:
        raise MazeartError(f"{what} is out of range, got {value!r}")
    return int(value)


def _ints(value: Any, n: int, what: str) -> list[int]:
    if not isinstance(value, list | tuple) or len(value) != n:
        raise MazeartError(f"{what} must be a list of {n} whole numbers, got {value!r}")
    return [_int(v, what) for v in value]


def _numbers(value: Any, n: int, what: str, high: float | None) -> list[float]:
    """``n`` finite numbers from 0 (to ``high``, when given)."""
    want = f"a list of {n} numbers from 0" + ("" if high is None else f" to {high:g}")
    if not isinstance(value, list | tuple) or len(value) != n:
        raise MazeartError(f"{what} must be {want}, got {value!r}")
    out = []
    for v in value:
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise MazeartError(f"{what} must be {want}, got {value!r}")
        f = float(v)
        if not math.isfinite(f) or f < 0 or (high is not None and f > high):
            raise MazeartError(f"{what} must be {want}, got {value!r}")
        out.append(f)
    return out


def _units(value: Any, what: str) -> str:
    if not isinstance(value, str) or value not in UNITS:
        raise MazeartError(f"{what} must be one of {', '.join(map(repr, UNITS))}, got {value!r}")
    return value


def _near(a: float, b: float) -> float:
    """A tolerance for comparing positions ``a`` and ``b`` given as decimals."""
    return 1e-9 * max(1.0, abs(a), abs(b))


@dataclass(frozen=True)
class _Scaled:
    """A rect room in fractions of the picture or in its pixels, placed once the grid is known."""

    name: str
    kind: str
    units: str
    rect: tuple[float, float, float, float]
    doors: tuple[tuple[float, float, int | None], ...]
    origin: str = ""
    """The rooms file it comes from, named in the errors of placing it."""

    def place(self, shape: tuple[int, int], picture_size: tuple[int, int] | None) -> RoomSpec:
        """The room's cells and doors on a grid of ``shape`` (rows, cols)."""
        rows, cols = shape
        name = self.name
        top, left, height, width = self.rect
        if self.units == "pixels":
            if picture_size is None:
                raise MazeartError(
                    f"room {name!r} is given in pixels, but there is no picture to measure "
                    "them on (give it in cells or as a fraction)"
                )
            pw, ph = picture_size
            if top + height > ph + _near(top + height, ph) or left + width > pw + _near(
                left + width, pw
            ):
                raise MazeartError(f"room {name!r} lies outside the {pw} x {ph} picture")
            sy, sx = rows / ph, cols / pw
        else:
            sy, sx = float(rows), float(cols)
        y0, y1, x0, x1 = top * sy, (top + height) * sy, left * sx, (left + width) * sx
        sides = []
        for y, x, side in self.doors:
            if side is None:  # the nearest wall, measured in cells; ties go N, E, S, W
                gaps = ((y * sy - y0, N), (x1 - x * sx, E), (y1 - y * sy, S), (x * sx - x0, W))
                side = min(gaps, key=lambda g: (g[0], (N, E, S, W).index(g[1])))[1]
            sides.append(side)
        r0, nh = _span(y0, y1, rows, 2 if {N, S} <= set(sides) else 1, name, "rows")
        c0, nw = _span(x0, x1, cols, 2 if {E, W} <= set(sides) else 1, name, "columns")
        cells = tuple((r0 + i, c0 + j) for i in range(nh) for j in range(nw))
        doors: list[RawDoor] = []
        given: dict[tuple[int, int], tuple[float, float]] = {}
        for (y, x, _), side in zip(self.doors, sides, strict=True):
            row = min(max(math.floor(y * sy), r0), r0 + nh - 1)
            col = min(max(math.floor(x * sx), c0), c0 + nw - 1)
            cell = (
                r0 if side == N else r0 + nh - 1 if side == S else row,
                c0 if side == W else c0 + nw - 1 if side == E else col,
            )
            if cell in given:
                a, b = given[cell], (y, x)
                raise MazeartError(
                    f"room {name!r}: doors [{a[0]:g}, {a[1]:g}] and [{b[0]:g}, {b[1]:g}] fall on "
                    f"one cell {cell} of the {cols} x {rows} grid (move them apart, or use more "
                    "cells)"
                )
            given[cell] = (y, x)
            doors.append((cell[0], cell[1], side))
        return Room(cells, (), name=name, kind=self.kind), doors


def _span(lo: float, hi: float, n: int, least: int, name: str, what: str) -> tuple[int, int]:
    """First cell and count of cells between grid coordinates ``lo`` and ``hi`` (rounded to
    the nearest grid lines, at least ``least`` cells, kept inside ``n``)."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or max(abs(lo), abs(hi)) > 4 * n + 4:
        raise MazeartError(f"room {name!r} lies far outside the grid's {n} {what}")
    first = math.floor(lo + 0.5)
    count = max(math.floor(hi + 0.5) - first, least)
    if count > n:
        raise MazeartError(f"room {name!r} needs {count} {what}, more than the grid's {n}")
    return min(first, n - count), count


def _parse_room(spec: Any, index: int, units: str = "cells") -> RoomSpec | _Scaled:
    if not isinstance(spec, Mapping):
        raise MazeartError(f"room {index + 1} must be a table of keys, got {type(spec).__name__}")
    name = check_text(spec.get("name", f"room {index + 1}"), f"room {index + 1}: name")
    kind = check_text(spec.get("kind", "room"), f"room {name!r}: kind")
    unknown = set(spec) - {"name", "kind", "units", "rect", "mask", "origin", "doors"}
    if unknown:
        raise MazeartError(f"room {name!r}: unknown key(s) {', '.join(map(repr, sorted(unknown)))}")
    if "units" in spec:
        units = _units(spec["units"], f"room {name!r}: units")
    if units != "cells":
        return _parse_scaled(spec, name, kind, units)
    if "rect" in spec:
        r0, c0, h, w = _ints(spec["rect"], 4, f"room {name!r}: rect")
        if h < 1 or w < 1:
            raise MazeartError(f"room {name!r}: rect height and width must be at least 1")
        check_cells(h, w, f"room {name!r}")
        cells = [(r0 + i, c0 + j) for i in range(h) for j in range(w)]
    elif "mask" in spec:
        r0, c0 = _ints(spec.get("origin", [0, 0]), 2, f"room {name!r}: origin")
        rows = spec["mask"]
        if isinstance(rows, str):
            rows = rows.strip("\n").splitlines()
        if not isinstance(rows, list | tuple) or not all(isinstance(line, str) for line in rows):
            raise MazeartError(f"room {name!r}: mask must be a list of strings")
        marked = sum(line.count(ch) for line in rows for ch in "#xX@")
        check_cells(1, marked, f"room {name!r}")
        cells = [
            (r0 + i, c0 + j)
            for i, line in enumerate(rows)
            for j, ch in enumerate(line)
            if ch in "#xX@"
        ]
    else:
        raise MazeartError(f"room {name!r} needs a 'rect' or a 'mask'")
    doors: list[RawDoor] = []
    seen: set[tuple[int, int]] = set()
    for d in _door_list(spec, name, "[row, col] or [row, col, side]"):
        r, c = _ints(list(d[:2]), 2, f"room {name!r}: a door")
        side = _side(d[2], f"room {name!r}: door side", bits=False) if len(d) == 3 else None
        if (r, c) in seen:
            raise MazeartError(f"room {name!r}: door ({r}, {c}) is listed twice")
        seen.add((r, c))
        doors.append((r, c, side))
    if not cells:
        raise MazeartError(f"room {name!r} has no cells")
    return Room(tuple(cells), (), name=name, kind=kind), doors


def _door_list(spec: Mapping[str, Any], name: str, form: str) -> list[Sequence[Any]]:
    raw = spec.get("doors", [])
    if not isinstance(raw, list | tuple):
        raise MazeartError(f"room {name!r}: doors must be a list of {form}")
    for d in raw:
        if not isinstance(d, list | tuple) or len(d) not in (2, 3):
            raise MazeartError(f"room {name!r}: a door must be {form}")
    return list(raw)


def _parse_scaled(spec: Mapping[str, Any], name: str, kind: str, units: str) -> _Scaled:
    """A rect room given in fractions or pixels, checked as far as it can be without a grid."""
    if "rect" not in spec:
        if "mask" in spec:
            raise MazeartError(f"room {name!r}: a mask is drawn in cells; give a rect in {units}")
        raise MazeartError(f"room {name!r} needs a 'rect'")
    if "origin" in spec or "mask" in spec:
        raise MazeartError(f"room {name!r}: a mask is drawn in cells; give a rect in {units}")
    high = 1.0 if units == "fraction" else None
    top, left, height, width = _numbers(spec["rect"], 4, f"room {name!r}: rect in {units}", high)
    if height <= 0 or width <= 0:
        raise MazeartError(f"room {name!r}: rect height and width must be more than 0")
    bottom, right = top + height, left + width
    if high is not None and (bottom > 1 + _near(bottom, 1) or right > 1 + _near(right, 1)):
        raise MazeartError(
            f"room {name!r} reaches past the picture (top + height and left + width must be "
            "at most 1)"
        )
    doors: list[tuple[float, float, int | None]] = []
    seen: set[tuple[float, float]] = set()
    form = "[down, across] or [down, across, side]"
    for d in _door_list(spec, name, form):
        y, x = _numbers(list(d[:2]), 2, f"room {name!r}: a door in {units}", high)
        side = _side(d[2], f"room {name!r}: door side", bits=False) if len(d) == 3 else None
        if not (
            top - _near(y, top) <= y <= bottom + _near(y, bottom)
            and left - _near(x, left) <= x <= right + _near(x, right)
        ):
            raise MazeartError(f"room {name!r}: door [{y:g}, {x:g}] is not on the room's rect")
        if (y, x) in seen:
            raise MazeartError(f"room {name!r}: door [{y:g}, {x:g}] is listed twice")
        seen.add((y, x))
        doors.append((y, x, side))
    return _Scaled(name, kind, units, (top, left, height, width), tuple(doors))


def _parse_document(doc: Any) -> list[RoomSpec | _Scaled]:
    """The rooms of a whole rooms file's document (a dict with ``rooms``, or the list)."""
    units = "cells"
    if isinstance(doc, Mapping):
        if "units" in doc:
            units = _units(doc["units"], "units")
        specs = doc.get("rooms")
    else:
        specs = doc
    if not isinstance(specs, list | tuple) or not specs:
        raise MazeartError("no rooms found (expected a 'rooms' list)")
    if len(specs) > MAX_ROOMS:
        raise MazeartError(f"{len(specs)} rooms; at most {MAX_ROOMS} fit in the weight matrix")
    return [_parse_room(spec, i, units) for i, spec in enumerate(specs)]


def _read_file(path: str | os.PathLike[str]) -> list[RoomSpec | _Scaled]:
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in (".json", ".toml"):
        raise MazeartError(f"{p}: a rooms file must be .json or .toml")
    data = read_bytes(p, "a rooms file", limit=_MAX_ROOMS_FILE)
    try:
        plans = _parse_document(load_toml(data) if suffix == ".toml" else load_json(data))
    except MazeartError as exc:
        raise type(exc)(f"{p}: {exc}") from None
    return [replace(plan, origin=str(p)) if isinstance(plan, _Scaled) else plan for plan in plans]


def _placed(
    plans: list[RoomSpec | _Scaled],
    shape: tuple[int, int] | None,
    picture_size: tuple[int, int] | None,
) -> list[RoomSpec]:
    out = []
    for plan in plans:
        if not isinstance(plan, _Scaled):
            room, raw = plan
            if room.on_ids and shape is not None:  # cell ids of the square grid: (row, col)
                cols = shape[1]
                pairs = [Door(divmod(d.cell, cols), divmod(d.outside, cols))
                         for d in raw if isinstance(d, Door)]  # fmt: skip
                if len(pairs) != len(raw):
                    raise TypeError(f"the doors of room {room.name!r}, a room of cell ids, "
                                    "must be Door(cell, outside)")  # fmt: skip
                room = Room(tuple(divmod(c, cols) for c in room.cells), (), name=room.name,
                            kind=room.kind)  # fmt: skip
                raw = [(d.row, d.col, d.side) for d in pairs]
            out.append((room, raw))
            continue
        try:
            if shape is None:
                raise MazeartError(
                    f"room {plan.name!r} is given in {plan.units}: it needs the grid's shape "
                    "to be placed"
                )
            out.append(plan.place(shape, picture_size))
        except MazeartError as exc:
            if not plan.origin:
                raise
            raise type(exc)(f"{plan.origin}: {exc}") from None
    return out


def _picture_size(picture_size: Any) -> tuple[int, int] | None:
    if picture_size is None:
        return None
    if (
        not isinstance(picture_size, tuple | list)
        or len(picture_size) != 2
        or not all(
            isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in picture_size
        )
    ):
        raise TypeError(f"picture_size must be (width, height) in pixels, got {picture_size!r}")
    return check_int(picture_size[0], "picture width"), check_int(picture_size[1], "picture height")


def load_rooms(
    path: str | os.PathLike[str],
    *,
    shape: tuple[int, int] | None = None,
    picture_size: tuple[int, int] | None = None,
) -> list[RoomSpec]:
    """Read room specifications from a JSON or TOML file.

    Returns unchecked rooms with their raw door list; :func:`stamp_rooms` checks
    them against a grid (bounds, overlaps, doors on edges).

    Parameters
    ----------
    path : str or path-like
        ``.json`` (an object with a ``rooms`` list, or the list itself) or ``.toml``
        (``[[rooms]]`` tables); see the module's text for the keys and units.
    shape : (int, int), optional
        The grid's rows and columns, to place rooms given in fractions or pixels.
    picture_size : (int, int), optional
        The picture's width and height in pixels, for rooms given in pixels.

    Returns
    -------
    list of (Room, list of (row, col, side or None))

    Raises
    ------
    MazeartError
        A file that cannot be read or holds a bad room (the message starts
        with the file's name), or a room in fractions or pixels without a
        ``shape`` to place it on.
    """
    shape = None if shape is None else _shape(shape)
    return _placed(_read_file(path), shape, _picture_size(picture_size))


def _shape(shape: Any) -> tuple[int, int]:
    if (
        not isinstance(shape, tuple | list)
        or len(shape) != 2
        or not all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in shape)
    ):
        raise TypeError(f"shape must be (rows, cols), got {shape!r}")
    return check_int(shape[0], "rows"), check_int(shape[1], "cols")


def _is_pair(item: Any) -> bool:
    """Whether ``item`` is a ``(Room, doors)`` pair."""
    return (
        isinstance(item, tuple)
        and len(item) == 2
        and isinstance(item[0], Room)
        and not isinstance(item[1], Room | Mapping)
    )


def _raw_door(door: Any, name: str) -> RawDoor:
    """A door of a ``(Room, doors)`` pair: ``(row, col)`` or ``(row, col, side)``."""
    if isinstance(door, str | bytes) or not isinstance(door, Sequence) or len(door) not in (2, 3):
        raise TypeError(
            f"a door of room {name!r} must be (row, col) or (row, col, side), got {door!r}"
        )
    r = check_int(door[0], f"a door's row in room {name!r}", minimum=None)
    c = check_int(door[1], f"a door's col in room {name!r}", minimum=None)
    return r, c, door[2] if len(door) == 3 else None


def _plans(rooms: Any) -> list[RoomSpec | _Scaled]:
    """Rooms in any accepted form, parsed but not yet placed."""
    if isinstance(rooms, str | os.PathLike):
        return _read_file(rooms)
    if isinstance(rooms, Mapping):
        return _parse_document(rooms) if "rooms" in rooms else [_parse_room(rooms, 0)]
    if isinstance(rooms, Room) or _is_pair(rooms):
        rooms = [rooms]
    if isinstance(rooms, bytes) or not isinstance(rooms, Iterable):
        raise TypeError(
            "rooms must be a rooms file, a dict shaped like its rooms, Room objects, "
            f"or a list of them, got {type(rooms).__name__}"
        )
    items = list(rooms)
    if len(items) > MAX_ROOMS:
        raise MazeartError(f"{len(items)} rooms; at most {MAX_ROOMS} fit in the weight matrix")
    out: list[RoomSpec | _Scaled] = []
    for i, item in enumerate(items):
        if isinstance(item, Room):
            out.append((item, list(item.doors) if item.on_ids else
                        [(d.row, d.col, d.side) for d in item.doors]))  # fmt: skip
        elif _is_pair(item):
            room, doors = item
            if isinstance(doors, str | bytes) or not isinstance(doors, Iterable):
                raise TypeError(f"the doors of room {room.name!r} must be a list, got {doors!r}")
            out.append((room, [_raw_door(d, room.name) for d in doors]))
        elif isinstance(item, Mapping):
            out.append(_parse_room(item, i))
        else:
            raise TypeError(
                "rooms must be Room objects, (Room, doors) pairs or dicts shaped like a rooms "
                f"file's rooms, got {type(item).__name__}"
            )
    return out


def resolve_rooms(
    rooms: RoomsLike, shape: tuple[int, int], *, picture_size: tuple[int, int] | None = None
) -> list[RoomSpec]:
    """Rooms in any form they are taken, placed on a grid of ``shape``.

    Rooms in cells pass as they are; rooms in fractions of the picture or in its
    pixels are rounded onto the grid (see the module's text), so the same rooms
    serve a grid of any size. Nothing is checked against the grid's contents
    yet: :func:`stamp_rooms` does that.

    Parameters
    ----------
    rooms : path, dict, Room, (Room, doors), or a list of them
        A rooms file (JSON or TOML); a dict shaped like one room of a rooms
        file, or like the whole file (``{"units": ..., "rooms": [...]}``);
        :class:`Room` objects (their doors as they are); ``(Room, doors)``
        pairs with doors ``(row, col, side or None)``; or a list of rooms in
        any of these forms.
    shape : (int, int)
        The grid's rows and columns.
    picture_size : (int, int), optional
        The picture's width and height in pixels, for rooms given in pixels.

    Returns
    -------
    list of (Room, list of (row, col, side or None))

    Raises
    ------
    MazeartError
        A bad room (the same messages as in a rooms file), a room in pixels
        without a picture, a grid too small for a room, or two doors that fall
        on one cell.
    TypeError
        Rooms, a shape or a picture size of the wrong type.

    Examples
    --------
    >>> hall = {"units": "fraction", "rect": [0.25, 0.25, 0.5, 0.5], "doors": [[0.25, 0.5]]}
    >>> for shape in [(8, 8), (20, 20)]:
    ...     [(room, doors)] = resolve_rooms([hall], shape)
    ...     print(len(room.cells), room.cells[0], doors)
    16 (2, 2) [(2, 4, 1)]
    100 (5, 5) [(5, 10, 1)]
    """
    return _placed(_plans(rooms), _shape(shape), _picture_size(picture_size))


# ----------------------------------------------------------------------------- grid


def _door_side(room: Room, cell: tuple[int, int], free: NDArray[np.bool_]) -> int | None:
    """First side (N, E, S, W) of an edge cell that opens onto a free cell."""
    h, w = free.shape
    for side in room.edge_sides(cell):
        dr, dc = STEP[side]
        rr, cc = cell[0] + dr, cell[1] + dc
        if 0 <= rr < h and 0 <= cc < w and free[rr, cc]:
            return side
    return None


def stamp_rooms(
    weights: NDArray[np.int32],
    specs: RoomsLike,
    *,
    picture_size: tuple[int, int] | None = None,
) -> tuple[NDArray[np.int32], list[Room]]:
    """Check rooms against a preset and write them into a copy of it.

    Parameters
    ----------
    weights : (H, W) ndarray of int32
    specs : rooms in any form :func:`resolve_rooms` takes
        Typically as :func:`load_rooms` returns them, ``(Room, doors)`` with
        doors ``(row, col, side or None)``; rooms in fractions or pixels are
        placed on the preset's grid first.
    picture_size : (int, int), optional
        The picture's width and height in pixels, for rooms given in pixels.

    Returns
    -------
    weights : (H, W) ndarray of int32
        With ``ROOM + i`` and ``DOOR + i`` codes.
    rooms : list of Room
        The rooms with their checked doors (sides filled in).

    Raises
    ------
    ValueError
        A room outside the grid, two rooms overlapping, a room with no door, a
        door not on its room's edge, or a door that opens onto no maze cell.
    TypeError
        Rooms of the wrong type.
    """
    w = validate_weights(weights).copy()
    h, wd = w.shape
    specs = resolve_rooms(specs, (h, wd), picture_size=picture_size)
    if len(specs) > MAX_ROOMS:
        raise MazeartError(f"at most {MAX_ROOMS} rooms fit in the weight matrix")
    owner = np.zeros((h, wd), dtype=np.int32)
    free = is_free(w)
    rooms: list[Room] = []
    for i, (room, raw_doors) in enumerate(specs, start=1):
        for r, c in room.cells:
            if not (0 <= r < h and 0 <= c < wd):
                raise MazeartError(
                    f"room {room.name!r} lies outside the {wd} x {h} grid (cell {r}, {c})"
                )
            if owner[r, c]:
                other = rooms[owner[r, c] - 1].name
                raise MazeartError(f"rooms {other!r} and {room.name!r} overlap at ({r}, {c})")
        if not room.cells:
            raise MazeartError(f"room {room.name!r} has no cells")
        if not raw_doors:
            raise MazeartError(f"room {room.name!r} has no door")
        doors = []
        for r, c, given in raw_doors:
            side = None if given is None else _side(given, f"room {room.name!r}: door side")
            cell = (r, c)
            if cell not in room or not room.edge_sides(cell):
                raise MazeartError(f"door ({r}, {c}) of room {room.name!r} is not on its edge")
            if side is None:
                side = _door_side(room, cell, free)
                if side is None:
                    raise MazeartError(
                        f"door ({r}, {c}) of room {room.name!r} opens onto no maze cell"
                    )
            elif side not in room.edge_sides(cell):
                raise MazeartError(
                    f"door ({r}, {c}) {SIDE_LETTER[side]} of room {room.name!r} opens into the room"
                )
            door = Door.through(r, c, side)
            orr, occ = door.outside
            if not (0 <= orr < h and 0 <= occ < wd) or not free[orr, occ]:
                raise MazeartError(f"door {door} of room {room.name!r} opens onto no maze cell")
            doors.append(door)
        rows, cols = np.array(room.cells).T
        owner[rows, cols] = i
        rooms.append(Room(room.cells, tuple(doors), name=room.name, kind=room.kind))
    for i, room in enumerate(rooms, start=1):
        rows, cols = np.array(room.cells).T
        w[rows, cols] = ROOM + i
        for d in room.doors:
            w[d.row, d.col] = DOOR + i
    # A door must still open onto a free cell once every room is in place.
    free = is_free(w)
    for room in rooms:
        for d in room.doors:
            if not free[d.outside]:
                raise MazeartError(f"door {d} of room {room.name!r} opens onto no maze cell")
    return w, rooms


def rooms_from_weights(weights: NDArray[np.int32]) -> list[Room]:
    """Rooms written into a preset as ``ROOM + i`` / ``DOOR + i`` codes.

    Door sides are read as the first side (N, E, S, W) of the door cell that
    opens onto a free cell.

    Raises
    ------
    ValueError
        A door code outside its room's edge, a room without a door, or a door
        that opens onto no maze cell.
    """
    w = validate_weights(weights)
    if w.max() <= ROOM:
        return []
    ids = np.where((w > ROOM) & (w <= ROOM + MAX_ROOMS), w - ROOM, 0)
    ids = np.where((w > DOOR) & (w <= DOOR + MAX_ROOMS), w - DOOR, ids)
    free = is_free(w)
    rooms = []
    for i in np.unique(ids[ids > 0]):
        rows, cols = np.nonzero(ids == i)
        room = Room(tuple(zip(rows.tolist(), cols.tolist(), strict=True)), (), name=f"room {i}")
        doors = []
        for r, c in zip(*np.nonzero(w == DOOR + i), strict=True):
            cell = (int(r), int(c))
            if not room.edge_sides(cell):
                raise MazeartError(f"door ({r}, {c}) of {room.name} is not on its edge")
            side = _door_side(room, cell, free)
            if side is None:
                raise MazeartError(f"door ({r}, {c}) of {room.name} opens onto no maze cell")
            doors.append(Door.through(cell[0], cell[1], side))
        if not doors:
            raise MazeartError(f"{room.name} has no door")
        rooms.append(Room(room.cells, tuple(doors), name=room.name))
    return rooms


def colour_rooms(
    rgb: NDArray[np.uint8],
    coverage_fn: Callable[[NDArray[np.float32]], NDArray[np.floating]],
    weights: NDArray[np.int32],
) -> NDArray[np.int32]:
    """Mark a picture's pure red regions as rooms and pure blue marks as their doors.

    Each blue mark (a connected patch of blue pixels) makes one door, at the
    room's edge cell nearest the mark's centre that opens onto the maze,
    however many cells the mark covers. The part of a mark that lies inside its
    room's outline counts as room, so a mark painted over the edge does not
    cut a notch into the room.

    Parameters
    ----------
    rgb : (H, W, 3) ndarray of uint8
        The picture.
    coverage_fn : callable
        Resamples a per-pixel float mask to the grid (area coverage).
    weights : (rows, cols) ndarray of int32
        The preset made from the picture's figure.

    Returns
    -------
    (rows, cols) ndarray of int32
        ``weights`` with ``ROOM + i`` / ``DOOR + i`` codes added.
    """
    from mazeart._kernels.parts import label_mask

    h, wd = weights.shape
    speck = 0.05 * (rgb.shape[0] / h) * (rgb.shape[1] / wd)  # a twentieth of a cell
    red, marks, boxes = _colour_key(rgb, speck)
    room_cells = coverage_fn(red.astype(np.float32)) >= 0.5
    labels, n = label_mask(room_cells)
    w = weights.copy()
    w[room_cells] = FORBIDDEN  # not maze, and not free, while doors are found
    free = is_free(w)
    order = np.argsort(labels.reshape(-1), kind="stable")
    starts = np.searchsorted(labels.reshape(-1)[order], np.arange(1, n + 2))
    rooms: list[Room] = []
    candidates: list[tuple[int, int, int, int]] = []  # room, row, col, side
    for i in range(n):
        rows, cols = np.divmod(order[starts[i] : starts[i + 1]], wd)
        room = Room(tuple(zip(rows.tolist(), cols.tolist(), strict=True)), (), name=f"room {i + 1}")
        for cell in room.cells:
            for side in room.edge_sides(cell):
                dr, dc = STEP[side]
                rr, cc = cell[0] + dr, cell[1] + dc
                if 0 <= rr < h and 0 <= cc < wd and free[rr, cc]:
                    candidates.append((i, cell[0], cell[1], side))
        rooms.append(room)
    doors: list[list[RawDoor]] = [[] for _ in rooms]
    if candidates:
        doorways = _Doorways(np.array(candidates), (h, wd))
        for k, box in boxes:
            doorways.assign(marks, k, box, doors)
    by_room: list[list[tuple[int, int, int]]] = [[] for _ in rooms]
    for i, r, c, side in candidates:
        by_room[i].append((r, c, side))
    specs: list[RoomSpec] = []
    for room, mine, placed in zip(rooms, by_room, doors, strict=True):
        if not mine:
            continue  # a red region that touches no maze cannot be entered: leave it out
        if not placed:
            # One door, in the middle of the side facing the most maze.
            by_side: dict[int, list] = {}
            for r, c, side in mine:
                by_side.setdefault(side, []).append((r, c))
            side = max(by_side, key=lambda s: (len(by_side[s]), -s))
            cells = sorted(by_side[side])
            cell = cells[len(cells) // 2]
            placed.append((cell[0], cell[1], side))
        specs.append((room, placed))
    if not specs:
        return weights
    stamped, _ = stamp_rooms(w, specs)
    return stamped


def _colour_key(
    rgb: NDArray[np.uint8], speck: float
) -> tuple[NDArray[np.bool_], NDArray[np.int32], list[tuple[int, tuple[slice, slice]]]]:
    """A picture's colour key: the rooms' pixels (pure red, and the blue marks' pixels
    inside the red around them), the blue marks labelled, and the boxes of the marks
    of at least ``speck`` pixels."""
    from scipy import ndimage

    px = rgb.astype(np.int16)
    red = (px[..., 0] >= 200) & (px[..., 1] <= 70) & (px[..., 2] <= 70)
    blue = (px[..., 2] >= 200) & (px[..., 0] <= 70) & (px[..., 1] <= 70)
    marks, n_marks = ndimage.label(blue, structure=np.ones((3, 3), dtype=bool))
    sizes = np.bincount(marks.reshape(-1), minlength=n_marks + 1)
    boxes = [
        (k, box)
        for k, box in enumerate(ndimage.find_objects(marks), start=1)
        if box is not None and sizes[k] >= speck
    ]
    return _room_pixels(red, marks, boxes), marks, boxes


def _room_pixels(
    red: NDArray[np.bool_], marks: NDArray[np.int32], boxes: list[tuple[int, tuple[slice, slice]]]
) -> NDArray[np.bool_]:
    """The rooms' pixels: red, and each blue mark's pixels that lie inside the red around it.

    A mark's pixel is inside when, looking past the mark along its row, red lies
    to one side, and along its column too: the room's edges carried straight
    across the mark, corners included.
    """
    out = red.copy()
    h, w = red.shape
    for k, box in boxes:
        rows = slice(max(box[0].start - 1, 0), min(box[0].stop + 1, h))
        cols = slice(max(box[1].start - 1, 0), min(box[1].stop + 1, w))
        mark = marks[rows, cols] == k
        near = red[rows, cols]
        across = _red_beyond(mark, near, 1) | _red_beyond(mark, near, 1, backward=True)
        down = _red_beyond(mark, near, 0) | _red_beyond(mark, near, 0, backward=True)
        out[rows, cols] |= mark & across & down
    return out


def _red_beyond(
    mark: NDArray[np.bool_], red: NDArray[np.bool_], axis: int, *, backward: bool = False
) -> NDArray[np.bool_]:
    """Whether the first pixel past the mark along ``axis`` (before each pixel, or after
    it when ``backward``) is red."""
    if backward:
        return np.flip(_red_beyond(np.flip(mark, axis), np.flip(red, axis), axis), axis)
    n = mark.shape[axis]
    index = np.arange(n).reshape((-1, 1) if axis == 0 else (1, -1))
    last = np.maximum.accumulate(np.where(mark, -1, index), axis=axis)
    found = np.take_along_axis(red, np.maximum(last, 0), axis=axis)
    return (last >= 0) & found


class _Doorways:
    """The rooms' edge cells that open onto the maze, found by the grid cells near them."""

    def __init__(self, candidates: NDArray[np.int64], shape: tuple[int, int]) -> None:
        self.room, self.row, self.col, self.side = candidates.T
        self.shape = shape
        step_r = np.array([0, -1, 0, 0, 0, 1, 0, 0, 0])  # by side bit: N -1, S +1
        step_c = np.array([0, 0, 1, 0, 0, 0, 0, 0, -1])  # E +1, W -1
        dr, dc = step_r[self.side], step_c[self.side]
        # where the door would be: the middle of the wall it opens through
        self.mid_r = self.row + 0.5 + 0.5 * dr
        self.mid_c = self.col + 0.5 + 0.5 * dc
        self.at: dict[tuple[int, int], list[int]] = {}
        ends = zip(self.row.tolist(), self.col.tolist(), (self.row + dr).tolist(),
                   (self.col + dc).tolist(), strict=True)  # fmt: skip
        for j, (r, c, outer_r, outer_c) in enumerate(ends):
            self.at.setdefault((r, c), []).append(j)
            self.at.setdefault((outer_r, outer_c), []).append(j)

    def assign(
        self, marks: NDArray[np.int32], k: int, box: tuple[slice, slice], doors: list[list]
    ) -> None:
        """Make mark ``k`` one door: the edge cell nearest its centre among those within a
        cell of the mark (or the maze cell it opens onto), on a cell no other mark took."""
        ph, pw = marks.shape
        rows, cols = self.shape
        sy, sx = rows / ph, cols / pw
        ys, xs = np.nonzero(marks[box] == k)
        cy = (ys.mean() + box[0].start + 0.5) * sy
        cx = (xs.mean() + box[1].start + 0.5) * sx
        r0, r1 = math.floor(box[0].start * sy) - 1, math.ceil(box[0].stop * sy) + 1
        c0, c1 = math.floor(box[1].start * sx) - 1, math.ceil(box[1].stop * sx) + 1
        near = sorted(
            {j for r in range(r0, r1) for c in range(c0, c1) for j in self.at.get((r, c), ())}
        )
        if not near:
            return  # a blue mark away from every room
        js = np.array(near)
        gap = np.hypot(self.mid_r[js] - cy, self.mid_c[js] - cx)
        room, row, col, side = self.room[js], self.row[js], self.col[js], self.side[js]
        for j in np.lexsort((side, col, row, room, gap)):
            taken = doors[room[j]]
            if all((d[0], d[1]) != (row[j], col[j]) for d in taken):
                taken.append((int(row[j]), int(col[j]), int(side[j])))
                return


def room_summary(rooms: list[Room]) -> str:
    """One line describing rooms, for reports."""
    doors = sum(len(r.doors) for r in rooms)
    return f"{len(rooms)} room{'s' * (len(rooms) != 1)} with {doors} door{'s' * (doors != 1)}"


# ----------------------------------------------------------------------------- other grids

_SIDE_VECTOR = {N: (0.0, -1.0), E: (1.0, 0.0), S: (0.0, 1.0), W: (-1.0, 0.0)}
"""Each side's direction in grid units (``y`` down, as on the page)."""


class _Walls(NamedTuple):
    """The walls of a grid between a room and the cells around it: the room's cell, the
    outside cell, where the wall's middle is and which way it faces (grid units)."""

    wall: NDArray[np.intp]
    cell: NDArray[np.int64]
    outside: NDArray[np.int64]
    middle: NDArray[np.float64]
    facing: NDArray[np.float64]

    @classmethod
    def around(cls, grid: Any, room: NDArray[np.bool_], open_to: NDArray[np.bool_]) -> _Walls:
        """The walls from ``room`` cells to ``open_to`` cells outside it."""
        wc = grid.wall_cells.astype(np.int64)
        a, b = wc[:, 0], wc[:, 1]
        bb = np.maximum(b, 0)
        out_b = (b >= 0) & room[a] & ~room[bb] & open_to[bb]
        out_a = (b >= 0) & room[bb] & ~room[a] & open_to[a]
        wall = np.concatenate([np.flatnonzero(out_b), np.flatnonzero(out_a)])
        cell = np.concatenate([a[out_b], b[out_a]])
        outside = np.concatenate([b[out_b], a[out_a]])
        first, last = grid.wall_ptr[wall], grid.wall_ptr[wall + 1] - 1
        middle = (grid.wall_points[first] + grid.wall_points[last]) / 2.0
        facing = grid.centres[outside] - grid.centres[cell]
        facing = facing / np.maximum(np.hypot(facing[:, 0], facing[:, 1]), 1e-12)[:, None]
        return cls(wall, cell, outside, middle, facing)

    def nearest(self, point: Sequence[float], side: int | None, taken: set[int]) -> int | None:
        """The wall nearest ``point`` (facing ``side`` if given), not among ``taken``."""
        ok = ~np.isin(self.wall, list(taken)) if taken else np.ones(self.wall.size, bool)
        if side is not None:
            ok &= self.facing @ np.array(_SIDE_VECTOR[side]) > 0.38  # within 68 degrees
        if not ok.any():
            return None
        gap = np.hypot(self.middle[:, 0] - point[0], self.middle[:, 1] - point[1])
        return int(np.flatnonzero(ok)[np.argmin(gap[ok])])

    def middle_of_widest_side(self) -> int:
        """The middle wall of the side (N, E, S, W) along which the most walls face out."""
        sides = np.array([N, E, S, W])
        vectors = np.array([_SIDE_VECTOR[int(s)] for s in sides])
        side = sides[np.argmax(self.facing @ vectors.T, axis=1)]
        counts = [int(np.count_nonzero(side == s)) for s in sides]
        best = int(sides[int(np.argmax(counts))])
        mine = np.flatnonzero(side == best)
        along = self.middle[mine, 0 if best in (N, S) else 1]
        return int(mine[np.argsort(along, kind="stable")[mine.size // 2]])


def _solid(grid: Any, cells: NDArray[np.bool_], free: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """``cells`` with the maze cells they would cut off from the rest of the grid (a
    sliver between a room's ragged side and the grid's edge, a notch between its teeth):
    pockets of the grid outside the room, smaller than a quarter of the room, but the
    largest part."""
    from mazeart._kernels.parts import label_parts

    labels, n = label_parts(grid, ~cells)
    if n <= 1:
        return cells
    sizes = np.bincount(labels[labels >= 0], minlength=n)
    small = sizes <= max(3, int(cells.sum()) // 4)
    small[int(np.argmax(sizes))] = False
    pocket = (labels >= 0) & small[np.maximum(labels, 0)]
    return cells | (pocket & free)


def _grid_room(
    grid: Any,
    cells: NDArray[np.bool_],
    doors: Sequence[tuple[Sequence[float], int | None, str]],
    *,
    name: str,
    kind: str,
    free: NDArray[np.bool_],
    taken: set[int],
) -> Room:
    """Room ``name`` on ``cells`` of ``grid`` (their largest piece, made solid), each door
    through the wall nearest its point (a door's text names it in a message); without
    doors, one in the middle of the side that faces the most maze."""
    from mazeart._kernels.parts import label_parts

    pieces, n = label_parts(grid, cells)
    if n > 1:  # a ragged rectangle's cells that do not join up: the largest piece
        cells = pieces == int(np.argmax(np.bincount(pieces[pieces >= 0])))
    cells = _solid(grid, cells, free)
    walls = _Walls.around(grid, cells, free & ~cells)
    if not walls.wall.size:
        raise MazeartError(f"room {name!r} opens onto no maze cell of the {grid.kind} grid")
    placed = []
    for point, side, text in doors:
        j = walls.nearest(point, side, taken)
        if j is None:
            raise MazeartError(
                f"room {name!r}: no wall of the {grid.kind} grid near door {text} opens "
                "onto a maze cell (move it, or use more cells)"
            )
        taken.add(int(walls.wall[j]))
        placed.append(Door(int(walls.cell[j]), int(walls.outside[j])))
    if not placed:
        j = walls.middle_of_widest_side()
        taken.add(int(walls.wall[j]))
        placed.append(Door(int(walls.cell[j]), int(walls.outside[j])))
    ids = np.flatnonzero(cells).tolist()
    return Room(tuple(ids), tuple(placed), name=name, kind=kind)


def place_rooms_on_grid(
    rooms: RoomsLike,
    grid: Any,
    free: ArrayLike,
    *,
    frame: tuple[float, float, float, float] | None = None,
    picture_size: tuple[int, int] | None = None,
) -> list[Room]:
    """Rooms placed on a grid other than the square one (hex, triangle, polar, ...).

    A room in fractions of the picture or in its pixels takes the cells whose centres
    lie inside its rectangle (at least the one nearest its middle; with any sliver of
    maze it would cut off from the rest, such as between its ragged side and the grid's
    edge); each door opens
    through the wall from the room to a maze cell nearest its point (among those facing
    its side, if it names one); a room without doors gets one, in the middle of the
    side that faces the most maze. A :class:`Room` of cell ids passes as it is.

    Parameters
    ----------
    rooms : rooms in any form :func:`resolve_rooms` takes
        In fractions or pixels, or :class:`Room` objects of cell ids with their doors.
    grid : Grid
    free : (n,) array_like of bool
        The cells the maze will hold (a door opens onto one).
    frame : (x, y, width, height), optional
        The picture's rectangle in grid units (default: the grid's own size).
    picture_size : (int, int), optional
        The picture's width and height in its pixels, for rooms given in pixels.

    Returns
    -------
    list of Room

    Raises
    ------
    MazeartError
        A room in cells given as ``(row, col)`` (the square grid's), rooms that overlap,
        a room with no cell or no door onto the maze, or two doors that need one wall.
    """
    ok = np.asarray(free, bool).reshape(-1)
    if ok.size != grid.n_cells:
        raise MazeartError(f"free has {ok.size} cells, the {grid.kind} grid {grid.n_cells}")
    x0, y0, fw, fh = (0.0, 0.0, *grid.size) if frame is None else frame
    size = _picture_size(picture_size)
    taken: set[int] = set()
    owner = np.zeros(grid.n_cells, np.int64)
    out: list[Room] = []
    for plan in _plans(rooms):
        if grid.kind == "square" and not isinstance(plan, _Scaled) and not plan[0].on_ids:
            plan = _as_ids(plan, ok.reshape(grid.params["rows"], grid.params["cols"]))
        if isinstance(plan, _Scaled):
            room = _place_scaled(plan, grid, (x0, y0, fw, fh), size, ok & (owner == 0), taken)
        else:
            room = _check_grid_room(plan, grid, ok & (owner == 0), taken)
        at = np.array(room.cells, np.int64)
        if np.any(owner[at]):
            other = out[int(owner[at][owner[at] > 0][0]) - 1].name
            raise MazeartError(f"rooms {other!r} and {room.name!r} overlap on the {grid.kind} grid")
        owner[at] = len(out) + 1
        out.append(room)
    for room in out:  # a door still opens onto the maze once every room is in place
        for d in room.doors:
            if owner[d.outside]:
                raise MazeartError(f"door {d} of room {room.name!r} opens into another room")
    return out


def _place_scaled(
    plan: _Scaled,
    grid: Any,
    frame: tuple[float, float, float, float],
    size: tuple[int, int] | None,
    free: NDArray[np.bool_],
    taken: set[int],
) -> Room:
    x0, y0, fw, fh = frame
    if plan.units == "pixels":
        if size is None:
            raise MazeartError(
                f"room {plan.name!r} is given in pixels, but there is no picture to measure "
                "them on (give it as a fraction)"
            )
        sx, sy = fw / size[0], fh / size[1]
    else:
        sx, sy = fw, fh
    top, left, height, width = plan.rect
    ya, yb, xa, xb = (
        y0 + top * sy,
        y0 + (top + height) * sy,
        x0 + left * sx,
        x0 + (left + width) * sx,
    )
    cx, cy = grid.centres[:, 0], grid.centres[:, 1]
    cells = (cx >= xa) & (cx < xb) & (cy >= ya) & (cy < yb)
    if not cells.any():
        cells[int(np.argmin(np.hypot(cx - (xa + xb) / 2, cy - (ya + yb) / 2)))] = True
    doors = [((x0 + x * sx, y0 + y * sy), side,
              f"[{y:g}, {x:g}{'' if side is None else ', ' + SIDE_LETTER[side]}]")
             for y, x, side in plan.doors]  # fmt: skip
    try:
        if not doors:
            raise MazeartError(f"room {plan.name!r} has no door")
        return _grid_room(grid, cells, doors, name=plan.name, kind=plan.kind,
                          free=free, taken=taken)  # fmt: skip
    except MazeartError as exc:
        if not plan.origin:
            raise
        raise type(exc)(f"{plan.origin}: {exc}") from None


def _as_ids(plan: RoomSpec, free: NDArray[np.bool_]) -> RoomSpec:
    """A square grid's room in ``(row, col)`` cells, its doors ``(row, col, side)`` (a side
    left out: the first that opens onto a ``free`` cell), as ids."""
    room, raw = plan
    cols = free.shape[1]
    doors = []
    for r, c, given in raw:
        side = None if given is None else _side(given, f"room {room.name!r}: door side")
        if side is None and (r, c) in room:
            side = _door_side(room, (r, c), free)
        if side is None:
            raise MazeartError(f"door ({r}, {c}) of room {room.name!r} opens onto no maze cell")
        d = Door.through(r, c, side)
        doors.append(Door(d.row * cols + d.col, d.outside[0] * cols + d.outside[1]))
    cells = tuple(r * cols + c for r, c in room.cells)
    return Room(cells, (), name=room.name, kind=room.kind), doors


def _check_grid_room(plan: RoomSpec, grid: Any, free: NDArray[np.bool_], taken: set[int]) -> Room:
    """A room of cell ids given as is, checked against ``grid``."""
    room, given = plan
    if not room.on_ids:
        raise MazeartError(
            f"room {room.name!r} is given in (row, col) cells, the square grid's; on the "
            f"{grid.kind} grid give it as a fraction of the picture, in pixels, or as cell ids"
        )
    for cell in room.cells:
        if not 0 <= cell < grid.n_cells:
            raise MazeartError(f"room {room.name!r}: cell {cell} is not on the {grid.kind} grid")
    if not given:
        raise MazeartError(f"room {room.name!r} has no door")
    doors = [Door(d[0], d[1]) if isinstance(d, tuple) and d[2] is None else d for d in given]
    for d in doors:
        if not isinstance(d, Door):
            raise TypeError(
                f"a door of room {room.name!r} on the {grid.kind} grid must be a "
                f"Door(cell, outside) or a (cell, outside) pair, got {d!r}"
            )
        if d.cell not in room or d.outside in room:
            raise MazeartError(f"door {d} of room {room.name!r} is not on its edge")
        if not 0 <= d.outside < grid.n_cells or not free[d.outside]:
            raise MazeartError(f"door {d} of room {room.name!r} opens onto no maze cell")
        wall = int(grid.walls_between([[d.cell, d.outside]])[0])
        if wall in taken:
            raise MazeartError(f"door {d} of room {room.name!r} is listed twice")
        taken.add(wall)
    return Room(room.cells, tuple(doors), name=room.name, kind=room.kind)


def grid_colour_rooms(
    rgb: NDArray[np.uint8], grid: Any, transform: Any, free: ArrayLike
) -> list[Room]:
    """A picture's colour key read on a grid other than the square one.

    As :func:`colour_rooms` on squares: pure red regions are rooms (the cells half
    covered by red, each connected group one room), each pure blue mark one door
    (through the room's wall to a maze cell nearest the mark's centre, within a cell and
    a half of the mark), and a room with no mark gets one door, in the middle of the side
    that faces the most maze; a red region that touches no maze is left out.

    Parameters
    ----------
    rgb : (H, W, 3) ndarray of uint8
    grid : Grid
    transform : mazeart.grids.sample.Transform
        Where the grid lies on the picture.
    free : (n,) array_like of bool
        The cells the maze will hold, rooms aside.

    Returns
    -------
    list of Room
    """
    from mazeart._kernels.parts import label_parts
    from mazeart.grids.sample import cell_coverage

    ok = np.asarray(free, bool).reshape(-1)
    speck = 0.05 * transform.scale**2
    red, marks, boxes = _colour_key(rgb, speck)
    cells = cell_coverage(grid, transform, red.astype(np.float32)) >= 0.5
    labels, n = label_parts(grid, cells)
    ok = ok & ~cells
    centres = []
    for k, box in boxes:
        ys, xs = np.nonzero(marks[box] == k)
        centre = transform.to_grid([[xs.mean() + box[1].start + 0.5,
                                     ys.mean() + box[0].start + 0.5]])[0]  # fmt: skip
        reach = 1.5 + 0.5 * math.hypot(box[0].stop - box[0].start,
                                       box[1].stop - box[1].start) / transform.scale  # fmt: skip
        centres.append((centre, reach))
    around = [_Walls.around(grid, labels == i, ok) for i in range(n)]
    doors: list[list[tuple[tuple[float, float], int | None, str]]] = [[] for _ in range(n)]
    for centre, reach in centres:  # each mark to the room whose wall is nearest it
        gaps = [np.hypot(w.middle[:, 0] - centre[0], w.middle[:, 1] - centre[1]).min()
                if w.wall.size else np.inf for w in around]  # fmt: skip
        if gaps and min(gaps) <= reach:
            doors[int(np.argmin(gaps))].append(((float(centre[0]), float(centre[1])), None,
                                                "of a blue mark"))  # fmt: skip
    rooms: list[Room] = []
    taken: set[int] = set()
    for i in range(n):
        if not around[i].wall.size:
            continue  # a red region that touches no maze cannot be entered: leave it out
        rooms.append(_grid_room(grid, labels == i, doors[i], name=f"room {len(rooms) + 1}",
                                kind="room", free=ok, taken=taken))  # fmt: skip
    return rooms
