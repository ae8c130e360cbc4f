"""Rooms: reserved open areas of a maze, entered only through their doors.

A room is a set of grid cells that the maze treats as one open space: every
cell inside joins its neighbours inside, the room's outline is wall, and each
door opens one edge cell onto the maze outside. Game levels use them for
treasuries, arenas and spawn halls; the seed 002 hybrid calls them structures.

Rooms reach a maze three ways, all ending as codes in the weight matrix
(``ROOM + i`` on the cells of room ``i``, ``DOOR + i`` on its door cells; see
:mod:`mazeart.weights`):

- a rooms file (:func:`load_rooms`), JSON or TOML::

      [[rooms]]
      name = "treasury"          # optional
      kind = "loot"              # optional, free text
      rect = [4, 10, 3, 5]       # row, col, height, width
      doors = [[4, 12], [6, 10, "W"]]   # edge cells, side optional

      [[rooms]]
      origin = [12, 3]           # a small mask instead of a rectangle:
      mask = ["##.", "###"]      # '#' marks the room's cells
      doors = [[13, 5]]

- a colour key in the input picture (``weights_from_image(colour_rooms=True)``):
  pure red regions are rooms, pure blue marks on a room's edge are doors (a red
  region with no blue mark gets one door, in the middle of its side that faces
  the most maze);
- codes painted directly into a preset.

The codes record which edge cell holds a door, not which way it opens: read
from codes, a door opens through the first side (N, E, S, W) of its cell that
faces a free cell. That only matters on a room's corners; a rooms file can
name the side there.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from mazeart._graph import DIRECTIONS, SIDE_BIT, SIDE_LETTER, STEP
from mazeart._io import check_text, load_json, load_toml, read_bytes
from mazeart._limits import check_cells
from mazeart.errors import MazeartError
from mazeart.weights import DOOR, FORBIDDEN, MAX_ROOMS, ROOM, is_free, validate_weights

__all__ = [
    "Door",
    "Room",
    "load_rooms",
    "rooms_from_weights",
    "stamp_rooms",
]


@dataclass(frozen=True)
class Door:
    """A door: the room's edge cell ``(row, col)`` opening through ``side`` (N=1 E=2 S=4 W=8)."""

    row: int
    col: int
    side: int

    @property
    def outside(self) -> tuple[int, int]:
        """The maze cell the door opens onto."""
        dr, dc = STEP[self.side]
        return self.row + dr, self.col + dc

    def __str__(self) -> str:
        return f"({self.row}, {self.col}) {SIDE_LETTER.get(self.side, '?')}"


@dataclass(frozen=True)
class Room:
    """A room: its cells, its doors, and an optional name and kind.

    Attributes
    ----------
    cells : tuple of (int, int)
        Grid cells of the room, in reading order.
    doors : tuple of Door
    name : str
    kind : str
        Free text for games (``"arena"``, ``"loot"``, ...).
    """

    cells: tuple[tuple[int, int], ...]
    doors: tuple[Door, ...]
    name: str = "room"
    kind: str = "room"
    _set: frozenset = field(default=frozenset(), repr=False, compare=False)

    def __post_init__(self) -> None:
        check_text(self.name, "a room's name")
        check_text(self.kind, f"the kind of room {self.name!r}")
        object.__setattr__(self, "cells", tuple(sorted((int(r), int(c)) for r, c in self.cells)))
        object.__setattr__(self, "_set", frozenset(self.cells))

    def __contains__(self, cell: object) -> bool:
        return cell in self._set

    def mask(self, shape: tuple[int, int]) -> NDArray[np.bool_]:
        """The room's cells as an ``(H, W)`` boolean grid."""
        out = np.zeros(shape, dtype=bool)
        if self.cells:
            rows, cols = np.array(self.cells).T
            out[rows, cols] = True
        return out

    def edge_sides(self, cell: tuple[int, int]) -> list[int]:
        """Sides of ``cell`` that face out of the room."""
        r, c = cell
        return [bit for bit, dr, dc in DIRECTIONS if (r + dr, c + dc) not in self._set]


# ----------------------------------------------------------------------------- files


_MAX_ROOMS_FILE = 16 * 2**20
"""A rooms file's size limit: far above any hand-written or generated file."""


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MazeartError(f"{what} must be a whole number, got {value!r}")
    if abs(value) > 10**9:
        raise MazeartError(f"{what} is out of range, got {value!r}")
    return value


def _ints(value: Any, n: int, what: str) -> list[int]:
    if not isinstance(value, list | tuple) or len(value) != n:
        raise MazeartError(f"{what} must be a list of {n} whole numbers, got {value!r}")
    return [_int(v, what) for v in value]


def _parse_room(spec: Any, index: int) -> tuple[Room, list[tuple[int, int, int | None]]]:
    if not isinstance(spec, dict):
        raise MazeartError(f"room {index + 1} must be a table of keys, got {type(spec).__name__}")
    name = check_text(spec.get("name", f"room {index + 1}"), f"room {index + 1}: name")
    kind = check_text(spec.get("kind", "room"), f"room {name!r}: kind")
    unknown = set(spec) - {"name", "kind", "rect", "mask", "origin", "doors"}
    if unknown:
        raise MazeartError(f"room {name!r}: unknown key(s) {', '.join(map(repr, sorted(unknown)))}")
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
        if not isinstance(rows, list) or not all(isinstance(line, str) for line in rows):
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
    raw_doors = spec.get("doors", [])
    if not isinstance(raw_doors, list):
        raise MazeartError(f"room {name!r}: doors must be a list of [row, col] or [row, col, side]")
    doors = []
    seen: set[tuple[int, int]] = set()
    for d in raw_doors:
        if not isinstance(d, list | tuple) or len(d) not in (2, 3):
            raise MazeartError(f"room {name!r}: a door must be [row, col] or [row, col, side]")
        r, c = _ints(list(d[:2]), 2, f"room {name!r}: a door")
        side = None
        if len(d) == 3:
            side = SIDE_BIT.get(d[2].upper()) if isinstance(d[2], str) else None
            if side is None:
                raise MazeartError(f"room {name!r}: door side must be N, E, S or W, got {d[2]!r}")
        if (r, c) in seen:
            raise MazeartError(f"room {name!r}: door ({r}, {c}) is listed twice")
        seen.add((r, c))
        doors.append((r, c, side))
    if not cells:
        raise MazeartError(f"room {name!r} has no cells")
    return Room(tuple(cells), (), name=name, kind=kind), doors


def load_rooms(path: str | os.PathLike[str]) -> list[tuple[Room, list]]:
    """Read room specifications from a JSON or TOML file.

    Returns unchecked rooms with their raw door list; :func:`stamp_rooms` checks
    them against a grid (bounds, overlaps, doors on edges).

    Parameters
    ----------
    path : str or path-like
        ``.json`` (an object with a ``rooms`` list, or the list itself) or ``.toml``
        (``[[rooms]]`` tables).

    Returns
    -------
    list of (Room, list of (row, col, side or None))
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in (".json", ".toml"):
        raise MazeartError(f"{p}: a rooms file must be .json or .toml")
    data = read_bytes(p, "a rooms file", limit=_MAX_ROOMS_FILE)
    try:
        doc = load_toml(data) if suffix == ".toml" else load_json(data)
        specs = doc.get("rooms") if isinstance(doc, dict) else doc
        if not isinstance(specs, list) or not specs:
            raise MazeartError("no rooms found (expected a 'rooms' list)")
        if len(specs) > MAX_ROOMS:
            raise MazeartError(f"{len(specs)} rooms; at most {MAX_ROOMS} fit in the weight matrix")
        return [_parse_room(spec, i) for i, spec in enumerate(specs)]
    except MazeartError as exc:
        raise type(exc)(f"{p}: {exc}") from None


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
    weights: NDArray[np.int32], specs: list[tuple[Room, list]]
) -> tuple[NDArray[np.int32], list[Room]]:
    """Check rooms against a preset and write them into a copy of it.

    Parameters
    ----------
    weights : (H, W) ndarray of int32
    specs : list of (Room, doors)
        As :func:`load_rooms` returns them; doors are ``(row, col, side or None)``.

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
    """
    w = validate_weights(weights).copy()
    h, wd = w.shape
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
        if not raw_doors:
            raise MazeartError(f"room {room.name!r} has no door")
        doors = []
        for r, c, side in raw_doors:
            if isinstance(side, str):
                if side.upper() not in SIDE_BIT:
                    raise MazeartError(f"room {room.name!r}: door side must be N, E, S or W")
                side = SIDE_BIT[side.upper()]
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
            door = Door(r, c, side)
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
            doors.append(Door(cell[0], cell[1], side))
        if not doors:
            raise MazeartError(f"{room.name} has no door")
        rooms.append(Room(room.cells, tuple(doors), name=room.name))
    return rooms


def colour_rooms(
    rgb: NDArray[np.uint8], coverage_fn, weights: NDArray[np.int32]
) -> NDArray[np.int32]:
    """Mark a picture's pure red regions as rooms and pure blue marks as their doors.

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
    from mazeart._graph import label_mask

    px = rgb.astype(np.int16)
    red = (px[..., 0] >= 200) & (px[..., 1] <= 70) & (px[..., 2] <= 70)
    blue = (px[..., 2] >= 200) & (px[..., 0] <= 70) & (px[..., 1] <= 70)
    room_cells = coverage_fn(red.astype(np.float32)) >= 0.5
    door_marks = coverage_fn(blue.astype(np.float32)) > 0.05
    labels, n = label_mask(room_cells)
    w = weights.copy()
    w[room_cells] = FORBIDDEN  # not maze, and not free, while doors are found
    free = is_free(w)
    h, wd = w.shape
    specs = []
    for i in range(1, n + 1):
        rows, cols = np.nonzero(labels == i)
        room = Room(tuple(zip(rows.tolist(), cols.tolist(), strict=True)), (), name=f"room {i}")
        marked, candidates = [], []
        for cell in room.cells:
            for side in room.edge_sides(cell):
                dr, dc = STEP[side]
                rr, cc = cell[0] + dr, cell[1] + dc
                if 0 <= rr < h and 0 <= cc < wd and free[rr, cc]:
                    candidates.append((cell, side))
                    if door_marks[cell] or door_marks[rr, cc]:
                        marked.append((cell[0], cell[1], side))
        if not candidates:
            continue  # a red region that touches no maze cannot be entered: leave it out
        if not marked:
            # One door, in the middle of the side facing the most maze.
            by_side: dict[int, list] = {}
            for cell, side in candidates:
                by_side.setdefault(side, []).append(cell)
            side = max(by_side, key=lambda s: (len(by_side[s]), -s))
            cells = sorted(by_side[side])
            cell = cells[len(cells) // 2]
            marked = [(cell[0], cell[1], side)]
        seen = set()
        doors = []
        for r, c, side in marked:
            if (r, c) not in seen:
                seen.add((r, c))
                doors.append((r, c, side))
        specs.append((room, doors))
    if not specs:
        return weights
    stamped, _ = stamp_rooms(w, specs)
    return stamped


def room_summary(rooms: list[Room]) -> str:
    """One line describing rooms, for reports."""
    doors = sum(len(r.doors) for r in rooms)
    return f"{len(rooms)} room{'s' * (len(rooms) != 1)} with {doors} door{'s' * (doors != 1)}"
