"""The weight-matrix contract: one int32 grid that steers every generator.

A *preset* is an ``(H, W) ndarray of int32``, one value per grid cell. The values
follow the weighted depth-first search that mazeart grew from, and its idea that
the numbers between can mark rooms, doors and the subtypes of path cells:

=================  =============  ==================================================
value              name           meaning
=================  =============  ==================================================
``0``              ``FREE``       the cell may become maze; nothing has seen it yet
``1..4``           (counts)       free, and seen by that many neighbouring path
                                  cells (only while, and after, the weighted DFS runs)
``500``            ``PATH``       carved: the cell is part of the maze
``501..999``       ``TAG + k``    free (carved like ``0``) and carrying tag kind ``k``
                                  (spawn, loot, ...: :mod:`mazeart.tags`); in a
                                  finished maze, a path cell with that tag
``1000``           ``FORBIDDEN``  never carved: background, border, anything reserved
``2001..2999``     ``ROOM + i``   a cell of room ``i``: open inside, never carved
                                  through (:mod:`mazeart.rooms`)
``3001..3999``     ``DOOR + i``   a cell on the edge of room ``i`` with a door
=================  =============  ==================================================

Generators only ever carve cells whose value is ``FREE``; every other value is
left alone, so painting ``FORBIDDEN`` onto a preset is how an image, a border or a
hand-drawn mask steers the maze. :func:`mazeart.generate` reads tags and rooms out
of a preset before carving (tag cells become free, rooms are installed after).
Any other value is reserved and treated as forbidden.

Presets travel as ``.npy`` (exact), ``.txt`` (ASCII art, one character per cell,
see :data:`TEXT_KEY`) and ``.png`` (one pixel per cell, colour-keyed, so it can be
painted on and fed back). :func:`load_preset` and :func:`save_preset` read and
write all three.
"""

from __future__ import annotations

import json
import os
import textwrap
import tokenize
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike, NDArray

from mazeart._io import atomic_write, existing_file, load_json, open_image, read_bytes
from mazeart._limits import check_cells, current
from mazeart._names import PRESET_SUFFIXES
from mazeart.errors import MazeartError

__all__ = [
    "DOOR",
    "FORBIDDEN",
    "FREE",
    "PATH",
    "PRESET_SUFFIXES",
    "ROOM",
    "TAG",
    "TEXT_KEY",
    "free_cells",
    "is_free",
    "is_preset_file",
    "load_preset",
    "preset_from_text",
    "preset_to_text",
    "save_preset",
    "validate_weights",
]

FREE = 0
"""Weight of a cell that may be carved and that no path cell has seen."""
PATH = 500
"""Weight of a carved cell (seed convention)."""
FORBIDDEN = 1000
"""Weight of a cell that must never be carved (seed convention)."""
TAG = PATH
"""Tag kind ``k`` (1..499) is stored as ``TAG + k``: a path cell with a subtype."""
ROOM = 2000
"""Room ``i`` (1..999) is stored as ``ROOM + i`` on its cells."""
DOOR = 3000
"""A door of room ``i`` is stored as ``DOOR + i`` on the room's edge cell that holds it."""
MAX_ROOMS = 999
MAX_TAG_KIND = 499

TEXT_KEY: dict[str, int] = {
    ".": FREE,
    "#": FORBIDDEN,
    "*": PATH,
    **{chr(ord("A") + i): ROOM + 1 + i for i in range(26)},
    **{chr(ord("a") + i): DOOR + 1 + i for i in range(26)},
    **{str(k): TAG + k for k in range(1, 10)},
}
"""Characters of the ASCII preset format: ``.`` free, ``#`` forbidden, ``*`` path,
``A``-``Z`` the cells of rooms 1-26, ``a``-``z`` their door cells, ``1``-``9`` free
cells carrying tag kinds 1-9."""


def is_free(weights: NDArray[np.int32]) -> NDArray[np.bool_]:
    """Cells a generator may carve once tags are read off: ``FREE`` or ``TAG + k``."""
    free = weights == FREE
    if weights.size and weights.max() > TAG:  # any tags at all? (one quick pass)
        free |= (weights > TAG) & (weights <= TAG + MAX_TAG_KIND)
    return free


_PNG_KEY_CHUNK = "mazeart-preset"
_PNG_DEFAULT_KEY: dict[int, tuple[int, int, int]] = {
    FREE: (255, 255, 255),
    FORBIDDEN: (0, 0, 0),
    PATH: (0, 128, 255),
    ROOM + 1: (255, 0, 0),
    DOOR + 1: (0, 0, 255),
}


def validate_weights(weights: ArrayLike) -> NDArray[np.int32]:
    """Check a preset and return it as a C-contiguous int32 array.

    Parameters
    ----------
    weights : (H, W) array_like of int
        Candidate preset.

    Returns
    -------
    (H, W) ndarray of int32
        The same values; a copy only when the input was not already int32.

    Raises
    ------
    ValueError
        If the array is not two-dimensional, is empty, holds non-integer or
        negative values, or values that do not fit in int32.
    """
    arr = np.asarray(weights)
    if arr.ndim != 2:
        raise MazeartError(f"a weight matrix must be two-dimensional, got shape {arr.shape}")
    if arr.size == 0:
        raise MazeartError("the weight matrix is empty")
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.integer):
        if np.issubdtype(arr.dtype, np.floating) and np.all(np.isfinite(arr)):
            if np.any(arr != np.round(arr)):
                raise MazeartError("weights must be whole numbers")
        else:
            raise MazeartError(f"weights must be integers, got dtype {arr.dtype}")
    if arr.dtype.kind != "u" and arr.min() < 0:  # (a pass each, only where it can fail)
        raise MazeartError(f"weights must not be negative (found {int(arr.min())})")
    if not np.can_cast(arr.dtype, np.int32) and arr.max() > np.iinfo(np.int32).max:
        raise MazeartError("weights do not fit in int32")
    return np.ascontiguousarray(arr, dtype=np.int32)


def free_cells(weights: ArrayLike) -> NDArray[np.bool_]:
    """Cells a generator may carve, after checking the preset (see :func:`is_free`).

    Parameters
    ----------
    weights : (H, W) array_like of int
        A preset.

    Returns
    -------
    (H, W) ndarray of bool
    """
    return is_free(validate_weights(weights))


# --------------------------------------------------------------------------- text


def preset_from_text(text: str) -> NDArray[np.int32]:
    """Read a preset drawn as ASCII art.

    ``.`` is free, ``#`` forbidden, ``*`` path, letters rooms and doors, digits
    tagged free cells (see :data:`TEXT_KEY`). Common
    indentation and blank lines around the drawing are ignored, so a preset can
    sit in a docstring or a test.

    Parameters
    ----------
    text : str
        The drawing, one line per grid row.

    Returns
    -------
    (H, W) ndarray of int32

    Examples
    --------
    >>> preset_from_text('''
    ...     #####
    ...     #...#
    ...     #####
    ... ''').tolist()[1]
    [1000, 0, 0, 0, 1000]
    """
    lines = [line.rstrip() for line in textwrap.dedent(text).strip("\n").splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    if not lines:
        raise MazeartError("the text preset is empty")
    width = max(len(line) for line in lines)
    out = np.empty((len(lines), width), dtype=np.int32)
    for r, line in enumerate(lines):
        if len(line) != width:
            raise MazeartError(
                f"text preset line {r + 1} has {len(line)} characters, expected {width}"
            )
        for c, ch in enumerate(line):
            try:
                out[r, c] = TEXT_KEY[ch]
            except KeyError:
                valid = " ".join(repr(k) for k in TEXT_KEY)
                raise MazeartError(
                    f"text preset line {r + 1}, column {c + 1}: unknown character {ch!r} "
                    f"(use {valid})"
                ) from None
    return out


def preset_to_text(weights: ArrayLike) -> str:
    """Draw a preset as ASCII art (the inverse of :func:`preset_from_text`).

    Seen-counts (``1..4``) are drawn as free; any other value not in
    :data:`TEXT_KEY` (rooms beyond 26, tag kinds beyond 9, reserved codes) is
    drawn as ``#``.

    Parameters
    ----------
    weights : (H, W) array_like of int

    Returns
    -------
    str
        One line per row, ending with a newline.
    """
    w = validate_weights(weights)
    chars = np.full(w.shape, "#", dtype="<U1")
    chars[(w >= FREE) & (w < PATH)] = "."
    for ch, value in TEXT_KEY.items():
        if value not in (FREE, FORBIDDEN):
            chars[w == value] = ch
    return "\n".join("".join(row) for row in chars) + "\n"


# --------------------------------------------------------------------------- png


def _png_key_for(values: NDArray[np.int32]) -> dict[int, tuple[int, int, int]]:
    """Colour key covering every value of a preset; extra values get distinct colours."""
    key = dict(_PNG_DEFAULT_KEY)
    used = set(key.values())
    extra = sorted(int(v) for v in np.unique(values) if int(v) not in key)
    for i, v in enumerate(extra):
        # Golden-angle hues at full saturation: distinct, stable, and far from white/black.
        hue = (i * 0.381966) % 1.0
        rgb = _hsv_to_rgb(hue, 0.85, 0.9)
        while rgb in used:  # pragma: no cover - only for thousands of codes
            hue = (hue + 0.0007) % 1.0
            rgb = _hsv_to_rgb(hue, 0.85, 0.9)
        key[v] = rgb
        used.add(rgb)
    return key


def _hsv_to_rgb(h: float, s: float, v: float) -> tuple[int, int, int]:
    import colorsys

    r, g, b = colorsys.hsv_to_rgb(h, s, v)
    return round(r * 255), round(g * 255), round(b * 255)


def _preset_to_png_image(weights: NDArray[np.int32]):
    from PIL import Image, PngImagePlugin

    key = _png_key_for(weights)
    values = np.array(sorted(key), dtype=np.int64)
    colours = np.array([key[int(v)] for v in values], dtype=np.uint8)
    idx = np.searchsorted(values, weights)
    img = Image.fromarray(colours[idx])
    info = PngImagePlugin.PngInfo()
    payload = {"version": 1, "key": [[int(v), list(key[int(v)])] for v in values]}
    info.add_text(_PNG_KEY_CHUNK, json.dumps(payload, separators=(",", ":")))
    return img, info


def _png_key_from_text(raw: str | None) -> dict[int, tuple[int, int, int]]:
    if raw is None:
        return dict(_PNG_DEFAULT_KEY)
    damaged = "the preset PNG's colour key is damaged"
    try:
        payload = load_json(raw)
    except MazeartError as exc:
        raise MazeartError(f"{damaged}: {exc}") from None
    if not isinstance(payload, dict) or payload.get("version") != 1:
        raise MazeartError(f"{damaged}: no version 1")
    entries = payload.get("key")
    if not isinstance(entries, list) or not entries:
        raise MazeartError(f"{damaged}: no colours")
    key: dict[int, tuple[int, int, int]] = {}
    for entry in entries:
        ok = (
            isinstance(entry, list)
            and len(entry) == 2
            and _whole(entry[0], 0, np.iinfo(np.int32).max)
            and isinstance(entry[1], list)
            and len(entry[1]) == 3
            and all(_whole(v, 0, 255) for v in entry[1])
        )
        if not ok:
            raise MazeartError(f"{damaged}: {entry!r} is not [value, [r, g, b]]")
        key[entry[0]] = (entry[1][0], entry[1][1], entry[1][2])
    return key


def _whole(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _preset_from_png(path: Path) -> NDArray[np.int32]:
    img = open_image(path, cells=True)
    key = _png_key_from_text(img.info.get(_PNG_KEY_CHUNK))
    transparent = None
    if img.mode in ("RGBA", "LA", "PA") or (img.mode == "P" and "transparency" in img.info):
        rgba = np.asarray(img.convert("RGBA"))
        transparent = rgba[..., 3] < 128
        rgb = rgba[..., :3]
    else:
        rgb = np.asarray(img.convert("RGB"))
    values = np.array(list(key), dtype=np.int32)
    colours = np.array([key[int(v)] for v in values], dtype=np.int32)
    # Nearest key colour per pixel, so anti-aliased or slightly-off paint still maps.
    flat = rgb.reshape(-1, 3).astype(np.int32)
    best = np.zeros(len(flat), dtype=np.intp)
    best_d = np.full(len(flat), np.iinfo(np.int32).max, dtype=np.int64)
    for i, col in enumerate(colours):
        d = ((flat - col) ** 2).sum(axis=1)
        closer = d < best_d
        best[closer] = i
        best_d[closer] = d[closer]
    out = values[best].reshape(rgb.shape[:2])
    if transparent is not None:
        out[transparent] = FORBIDDEN
    return np.ascontiguousarray(out, dtype=np.int32)


def is_preset_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` holds a preset rather than a picture.

    ``.npy`` and ``.txt`` files are presets; a ``.png`` is a preset when it carries
    the colour-key chunk that :func:`save_preset` writes.

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    bool
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix in (".npy", ".txt"):
        return True
    import warnings

    from PIL import Image

    try:
        if suffix != ".png" or not p.is_file():
            return False
        with warnings.catch_warnings():  # only its text is read: the size is checked later
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(p) as img:
                return _PNG_KEY_CHUNK in img.info
    except Exception:  # not readable as PNG: let the image loader report it
        return False


# --------------------------------------------------------------------------- files


def _load_npy(p: Path) -> NDArray:
    """A ``.npy`` array, its header checked (shape, type, size) before its data is read."""
    fmt = np.lib.format
    try:
        with open(p, "rb") as fh:
            version = fmt.read_magic(fh)
            if version == (1, 0):
                shape, _, dtype = fmt.read_array_header_1_0(fh)
            elif version == (2, 0):
                shape, _, dtype = fmt.read_array_header_2_0(fh)
            else:
                raise ValueError(f"format version {version}")
            if len(shape) != 2:
                raise MazeartError(f"a preset must be two-dimensional, got shape {shape}")
            if dtype.hasobject or dtype.kind not in "biuf":
                raise MazeartError(f"a preset holds numbers, got dtype {dtype}")
            check_cells(shape[0], shape[1], "the preset")
            need = shape[0] * shape[1] * dtype.itemsize
            if p.stat().st_size - fh.tell() < need:
                raise MazeartError(f"the file ends before its {shape[0]} x {shape[1]} values")
            fh.seek(0)
            arr = fmt.read_array(fh, allow_pickle=False)
    except MazeartError as exc:
        raise MazeartError(f"{p}: {exc}") from None
    except (ValueError, OSError, EOFError, SyntaxError, TypeError, tokenize.TokenError):
        # (numpy reads the header as a Python literal: a damaged one fails in the tokenizer)
        raise MazeartError(f"{p}: not a readable .npy array") from None
    return arr


def load_preset(path: str | os.PathLike[str]) -> NDArray[np.int32]:
    """Read a preset from ``.npy``, ``.txt`` or ``.png``.

    Parameters
    ----------
    path : str or path-like
        The file. A PNG is read one pixel per cell; each pixel takes the value of
        the nearest colour in the file's key (white free, black forbidden when
        the file has no key), and transparent pixels are forbidden.

    Returns
    -------
    (H, W) ndarray of int32

    Raises
    ------
    ValueError
        If the file is missing, of an unknown kind, or does not hold a valid preset.
    """
    p = existing_file(path, "a preset file")
    suffix = p.suffix.lower()
    if suffix == ".npy":
        arr = _load_npy(p)
        try:
            return validate_weights(arr)
        except ValueError as exc:
            raise MazeartError(f"{p}: {exc}") from None
    if suffix == ".txt":
        try:
            # a text preset is a character a cell, and a line end a row
            limit = 2 * current().max_cells + 2**16
            text = read_bytes(p, "a preset file", limit=limit).decode("utf-8")
        except UnicodeDecodeError:
            raise MazeartError(f"{p}: not a UTF-8 text preset") from None
        try:
            return preset_from_text(text)
        except ValueError as exc:
            raise MazeartError(f"{p}: {exc}") from None
    if suffix == ".png":
        return _preset_from_png(p)
    raise MazeartError(
        f"{p}: unknown preset format {suffix or '(no suffix)'!r} (use {', '.join(PRESET_SUFFIXES)})"
    )


def save_preset(weights: ArrayLike, path: str | os.PathLike[str]) -> Path:
    """Write a preset as ``.npy``, ``.txt`` or ``.png``, atomically.

    Parameters
    ----------
    weights : (H, W) array_like of int
        The preset.
    path : str or path-like
        Destination; the suffix picks the format. The PNG holds one pixel per
        cell plus a colour key, so :func:`load_preset` reads back exactly the
        same matrix, and a painted-over copy maps each colour to its value.

    Returns
    -------
    pathlib.Path
        The path written.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> preset = preset_from_text("..#\\n...")
    >>> path = save_preset(preset, pathlib.Path(tempfile.mkdtemp()) / "preset.png")
    >>> bool((load_preset(path) == preset).all())
    True
    """
    w = validate_weights(weights)
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in PRESET_SUFFIXES:
        raise MazeartError(
            f"cannot write {p}: unknown preset format {suffix or '(no suffix)'!r} "
            f"(use {', '.join(PRESET_SUFFIXES)})"
        )
    if suffix == ".npy":
        with atomic_write(p) as fh:
            np.save(fh, w, allow_pickle=False)
    elif suffix == ".txt":
        text = preset_to_text(w)
        with atomic_write(p) as fh:
            fh.write(text.encode("utf-8"))
    else:
        img, info = _preset_to_png_image(w)
        with atomic_write(p) as fh:
            img.save(fh, format="PNG", pnginfo=info)
    return p
