"""A design: everything a designer decided about one maze, in one file.

The studio (``mazeart studio``) saves what the designer did as a design file, and
``mazeart design.json -o maze.svg`` renders it again from the command line
(:func:`mazeart.make_design`): the same maze for the same seed. A design is the source
(a picture beside the file, a picture embedded in it, or a source in words such as
``30x20``) and, laid over it in fractions of the picture so that they hold at any number
of cells and on any grid:

- the **paint**: where the designer overrode the picture, at the picture's resolution
  (:func:`mazeart.image.paint_layer`: red keeps maze out, green puts it in);
- the **rooms**, each a rectangle with its doors (a rooms file's rooms in fractions,
  see :mod:`mazeart.rooms`);
- the **entrance** and **exit**, points the nearest cell on the maze's edge takes;
- the **tags**, points whose nearest maze cell carries the tag;
- the **options** of :func:`mazeart.make` (by their Python names) and the **seed**.

The file is JSON; its schema is ``mazeart/schema/design-1.schema.json``::

    {
      "format": "mazeart-design",
      "version": 1,
      "source": "horse.png",
      "picture": null,
      "paint": {"png": "iVBORw0KGgo..."},
      "rooms": [{"name": "hall", "rect": [0.4, 0.3, 0.2, 0.25],
                 "doors": [[0.4, 0.4], [0.6, 0.5]]}],
      "entrance": {"x": 0.02, "y": 0.8},
      "exit": {"x": 0.97, "y": 0.2},
      "tags": [{"kind": "loot", "x": 0.5, "y": 0.5}],
      "options": {"cells": 60, "grid": "hex"},
      "seed": 7
    }

``source`` is a path relative to the design file's folder (or a source in words);
``picture`` holds a picture's file embedded instead (``{"data": BASE64}``, with
``source`` ``"embedded"``). Rooms follow the rooms file's order, ``rect = [top, left, height,
width]`` and doors ``[down, across]``; points are ``{"x": across, "y": down}``.

>>> d = Design(source="30x20", options={"cells": 30}, seed=4)
>>> Design.from_dict(d.to_dict()) == d
True
"""

from __future__ import annotations

import base64
import binascii
import io
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from mazeart._io import atomic_write
from mazeart.errors import FileFormatError, MazeartError, check_number
from mazeart.recipe import DEFAULTS, At

__all__ = [
    "DESIGN_FORMAT",
    "Design",
    "TagAt",
    "is_design_file",
    "load_design",
    "save_design",
]

DESIGN_FORMAT = "mazeart-design"
"""The ``format`` field of a design file."""

VERSION = 1

MAX_ROOMS, MAX_TAGS, MAX_ROUTE = 256, 1000, 20_000
"""The most rooms, tags and route points a design holds."""

MAX_BYTES = 64 * 2**20
"""The largest design file read: an embedded picture and its paint, in base64."""

EMBEDDED = "embedded"
"""The ``source`` of a design whose picture is in the file."""

_NOT_OPTIONS = ("paint", "rooms", "entrance", "exit", "room_centre", "colour_rooms", "route")
"""Recipe options a design holds in its own fields (or leaves to them), not in ``options``."""


@dataclass(frozen=True)
class TagAt:
    """A tag of ``kind`` (:data:`mazeart.tags.TAG_KINDS`) at a place on the picture."""

    kind: str
    at: At


@dataclass(frozen=True, eq=False)
class Design:
    """What a designer decided about one maze (see the module's text).

    Parameters
    ----------
    source : str
        A path (relative to the design file's folder once saved), a source in words
        (``"30x20"``, ``"text:HELLO"``, ``"circle:30"``), or ``"embedded"`` with
        ``picture``.
    picture : bytes, optional
        A picture's file (PNG, JPEG, ...) held in the design.
    paint : (H, W) ndarray of uint8, optional
        The paint layer (:func:`mazeart.image.paint_layer`), at the picture's resolution.
    rooms : list of dict
        Rooms as a rooms file gives them, in fractions of the picture.
    entrance, exit : At, optional
    tags : tuple of TagAt
    options : dict
        :func:`mazeart.make`'s options by their Python names.
    seed : int, optional
    route : tuple of lines, optional
        Lines the solution follows, in their order (:mod:`mazeart.route`), each a tuple of
        ``(x, y)`` points in fractions of the picture.
    """

    source: str
    picture: bytes | None = None
    paint: NDArray[np.uint8] | None = None
    rooms: tuple[Mapping[str, Any], ...] = ()
    entrance: At | None = None
    exit: At | None = None
    tags: tuple[TagAt, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int | None = None
    route: tuple[tuple[tuple[float, float], ...], ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.source, str) or not self.source:
            raise MazeartError("a design's source is a path or a source in words")
        if (self.source == EMBEDDED) != (self.picture is not None):
            raise MazeartError('a design embeds a picture exactly when its source is "embedded"')
        unknown = sorted(set(self.options) - set(DEFAULTS) - _algorithm_options())
        if unknown:
            raise MazeartError(f"a design's options are make()'s; unknown: {', '.join(unknown)}")
        held = sorted(set(self.options) & set(_NOT_OPTIONS))
        if held:
            raise MazeartError(f"a design holds {', '.join(held)} in its own fields, not options")
        if self.paint is not None:
            from mazeart.image import paint_layer

            object.__setattr__(self, "paint", paint_layer(self.paint))
        if self.seed is not None and (
            isinstance(self.seed, bool) or not isinstance(self.seed, int)
        ):
            raise TypeError(f"a design's seed is an int, got {type(self.seed).__name__}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Design):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------------ the file

    def to_dict(self) -> dict[str, Any]:
        """The design as the file's JSON object."""

        def point(at: At | None) -> dict[str, float] | None:
            return None if at is None else {"x": float(at.x), "y": float(at.y)}

        return {
            "format": DESIGN_FORMAT,
            "version": VERSION,
            "source": self.source,
            "picture": None if self.picture is None else {"data": _b64(self.picture)},
            "paint": None if self.paint is None else {"png": _b64(_paint_png(self.paint))},
            "rooms": [dict(room) for room in self.rooms],
            "entrance": point(self.entrance),
            "exit": point(self.exit),
            "tags": [{"kind": t.kind, "x": float(t.at.x), "y": float(t.at.y)} for t in self.tags],
            "options": dict(self.options),
            "seed": self.seed,
            "route": [[[float(x), float(y)] for x, y in line] for line in self.route],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Design:
        """A design from the file's JSON object (every field checked, errors one line)."""
        if not isinstance(data, Mapping) or data.get("format") != DESIGN_FORMAT:
            raise FileFormatError(f'not a design file (its "format" is not "{DESIGN_FORMAT}")')
        if type(data.get("version")) is not int or data.get("version") != VERSION:
            raise FileFormatError(
                f"design file version {data.get('version')!r} is not one this mazeart reads "
                f"({VERSION})"
            )
        unknown = sorted(set(data) - {"format", "version", "source", "picture", "paint", "rooms",
                                      "entrance", "exit", "tags", "options", "seed",
                                      "route"})  # fmt: skip
        if unknown:
            raise FileFormatError(f"a design file has no field {', '.join(unknown)}")
        picture = _blob(data.get("picture"), "data", "picture")
        paint = _blob(data.get("paint"), "png", "paint")
        layer = None
        if paint is not None:
            from mazeart.image import read_paint_png

            layer = read_paint_png(paint, "the design's paint")
        rooms = _listed(data, "rooms", "a list of rooms (objects)", MAX_ROOMS)
        for room in rooms:
            if "units" in room:
                raise FileFormatError("a design's rooms are in fractions of the picture: no units")
        tags = _listed(data, "tags", "a list of {kind, x, y}", MAX_TAGS)
        options = data.get("options", {})
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise FileFormatError("a design's options are an object of make()'s options")
        seed = data.get("seed")
        if seed is not None and (type(seed) is not int or seed < 0):
            raise FileFormatError(f"a design's seed is a whole number or null, got {seed!r}")
        return cls(
            source=data.get("source"),  # type: ignore[arg-type]
            picture=picture,
            paint=layer,
            rooms=tuple(dict(r) for r in rooms),
            entrance=_at(data.get("entrance"), "entrance"),
            exit=_at(data.get("exit"), "exit"),
            tags=tuple(_tag(t) for t in tags),
            options=dict(options),
            seed=seed,
            route=_route_lines(data.get("route")),
        )


def _algorithm_options() -> set[str]:
    """The names of every generator's own options (``select``, ``bias``, ...)."""
    from mazeart.generators import ALGORITHMS

    return {name for algo in ALGORITHMS.values() for name in algo.options}


def _route_lines(value: Any) -> tuple[tuple[tuple[float, float], ...], ...]:
    """A design's route: lines of ``[x, y]`` points in fractions (at most :data:`MAX_ROUTE`
    points in all)."""
    if value is None:
        return ()
    bad = FileFormatError("a design's route is a list of lines, each a list of [x, y] pairs in 0-1")
    if not isinstance(value, list) or not all(isinstance(line, list) for line in value):
        raise bad
    if sum(len(line) for line in value) > MAX_ROUTE:
        raise FileFormatError(f"a design's route holds at most {MAX_ROUTE} points")
    out = []
    for line in value:
        points = []
        for p in line:
            if not (isinstance(p, list) and len(p) == 2 and all(
                    isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 1
                    for v in p)):  # fmt: skip
                raise bad
            points.append((float(p[0]), float(p[1])))
        if points:
            out.append(tuple(points))
    return tuple(out)


def _listed(data: Mapping[str, Any], key: str, what: str, most: int) -> list[Mapping[str, Any]]:
    """The list ``data[key]`` of objects (none when absent or null), at most ``most``."""
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, Mapping) for v in value):
        raise FileFormatError(f"a design's {key} are {what}")
    if len(value) > most:
        raise FileFormatError(f"a design holds at most {most} {key}, this one {len(value)}")
    return value


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _blob(value: Any, key: str, name: str) -> bytes | None:
    if value is None:
        return None
    if not isinstance(value, Mapping) or not isinstance(value.get(key), str):
        raise FileFormatError(f'a design\'s {name} is {{"{key}": BASE64}} or null')
    try:
        return base64.b64decode(value[key], validate=True)
    except (binascii.Error, ValueError):
        raise FileFormatError(f"a design's {name} is not base64") from None


def _paint_png(layer: NDArray[np.uint8]) -> bytes:
    from mazeart.image import paint_image

    out = io.BytesIO()
    paint_image(layer).save(out, format="PNG", optimize=True)
    return out.getvalue()


def _at(value: Any, name: str) -> At | None:
    if value is None:
        return None
    if not isinstance(value, Mapping) or set(value) != {"x", "y"}:
        raise FileFormatError(f'a design\'s {name} is {{"x": ACROSS, "y": DOWN}} or null')
    x = check_number(value["x"], f"{name} x", low=0, high=1)
    return At(x, check_number(value["y"], f"{name} y", low=0, high=1))


def _tag(value: Mapping[str, Any]) -> TagAt:
    from mazeart.tags import TAG_KINDS

    if set(value) != {"kind", "x", "y"}:
        raise FileFormatError("a design's tag is {kind, x, y}")
    kind = value.get("kind")
    if kind not in TAG_KINDS:
        raise FileFormatError(f"a design's tag kind is one of {', '.join(TAG_KINDS)}, got {kind!r}")
    return TagAt(kind, _at({k: value.get(k) for k in ("x", "y")}, f"{kind} tag"))  # type: ignore[arg-type]


def is_design_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a JSON file that says it is a design (read no further than that)."""
    p = Path(path)
    if p.suffix.lower() != ".json" or not p.is_file():
        return False
    try:
        with p.open("rb") as fh:
            head = fh.read(4096)
    except OSError:
        return False
    return b'"format"' in head and DESIGN_FORMAT.encode() in head


def load_design(path: str | os.PathLike[str]) -> tuple[Design, Path]:
    """Read a design file: the design and the folder its source's path is relative to.

    Parameters
    ----------
    path : str or path-like
        A design file (JSON, ``"format": "mazeart-design"``).

    Returns
    -------
    design : Design
    base : Path
        The file's folder.

    Raises
    ------
    FileFormatError
        For a file that is not a design, naming what is wrong in one line.
    """
    from mazeart._io import existing_file, load_json, read_bytes

    p = existing_file(path, "a design")
    raw = read_bytes(p, "a design file", limit=MAX_BYTES)
    try:
        data = load_json(raw)
    except FileFormatError as err:
        raise FileFormatError(f"{p}: {err}") from None
    try:
        return Design.from_dict(data), p.resolve().parent
    except (MazeartError, TypeError) as err:
        raise FileFormatError(f"{p}: {err}") from None


def save_design(design: Design, path: str | os.PathLike[str]) -> Path:
    """Write a design file, whole or not at all.

    Parameters
    ----------
    design : Design
    path : str or path-like
        Where to write it (a source path in the design is relative to its folder).

    Returns
    -------
    Path
    """
    text = json.dumps(design.to_dict(), indent=1) + "\n"
    with atomic_write(path) as fh:
        fh.write(text.encode("utf-8"))
    return Path(path)
