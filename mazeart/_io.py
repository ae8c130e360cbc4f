"""The file edges: reading what the user gave, and writing so that a failure loses nothing.

Reading: only regular files (a FIFO or a device could block or never end),
no bigger than what they can hold; JSON and TOML parsed with a depth limit
and finite numbers only; pictures checked against the pixel limit before they
are decoded, and turned upright by their EXIF orientation.

Writing: every file is written to a temporary file beside it
(``.NAME.XXXXXXXX.part``, locked while it is written) and moved into place
only when complete, so a failure never leaves a partial file or clobbers an
old one. Inside :func:`all_or_nothing` the moves wait until every file of the
job is complete. Temporary files that a killed run left behind are swept on
the next write to the same place.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import math
import os
import tempfile
import tomllib
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from mazeart._signals import PENDING, checkpoint, held
from mazeart.errors import CONTROL, FileFormatError, MazeartError

if TYPE_CHECKING:
    from PIL.Image import Image

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locks, no sweeping
    fcntl = None  # type: ignore[assignment]


def check_text(value: Any, what: str) -> str:
    """``value`` if it is a string without control characters (names reach XML and terminals)."""
    if not isinstance(value, str):
        raise FileFormatError(f"{what} must be a string, got {type(value).__name__}")
    bad = CONTROL.search(value)
    if bad:
        raise FileFormatError(f"{what} contains a control character ({bad.group()!r})")
    return value


def plain(text: str) -> str:
    """``text`` with each control character replaced by a space (titles and footers)."""
    return CONTROL.sub(" ", text)


def existing_file(path: str | os.PathLike[str], what: str) -> Path:
    """``path`` as a Path, or a one-line error if it is missing or not a regular file."""
    p = Path(path)
    try:
        if not p.exists():
            raise MazeartError(f"{p}: no such file")
        if p.is_dir():
            raise MazeartError(f"{p}: is a directory, not {what}")
        if not p.is_file():  # a FIFO, a device, a socket: reading it could block forever
            raise MazeartError(f"{p}: not a regular file, not {what}")
    except OSError as exc:  # a symlink loop, a folder it may not enter, a name too long
        raise MazeartError(f"{p}: cannot read it ({exc.strerror or exc})") from None
    return p


def read_bytes(path: str | os.PathLike[str], what: str, *, limit: int | None = None) -> bytes:
    """The contents of an existing regular file of at most ``limit`` bytes, or a one-line error."""
    p = existing_file(path, what)
    try:
        size = p.stat().st_size
        if limit is not None and size > limit:
            raise MazeartError(
                f"{p}: {size / 2**20:,.1f} MiB is more than {what} can hold "
                f"({limit / 2**20:,.1f} MiB)"
            )
        return p.read_bytes()
    except OSError as exc:
        raise MazeartError(f"{p}: cannot read it ({exc.strerror or exc})") from None


def _not_a_number(token: str) -> float:
    raise FileFormatError(f"{token} is not a number JSON allows")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise FileFormatError(f"the number {text} is too large")
    return value


def load_json(data: str | bytes) -> Any:
    """Parse JSON text: finite numbers only, nesting no deeper than Python's recursion allows.

    Raises
    ------
    FileFormatError
        ``not valid JSON (...)``, ``nested too deeply``, or a non-finite number.
    """
    try:
        return json.loads(data, parse_constant=_not_a_number, parse_float=_finite)
    except RecursionError:
        raise FileFormatError("not valid JSON: nested too deeply") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise FileFormatError(f"not valid JSON ({exc})") from None
    except ValueError:  # an integer past Python's 4300 digits
        raise FileFormatError("not valid JSON: a number with thousands of digits") from None


_TOML_DEPTH = 64


def load_toml(data: bytes) -> Any:
    """Parse TOML text: finite numbers only, and a clear error for deep nesting (of arrays, and
    of dotted keys, which the parser would otherwise build table by table)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileFormatError(f"not valid TOML ({exc})") from None
    for line in text.splitlines():
        key = line.split("=", 1)[0] if "=" in line else line
        if key.count(".") > _TOML_DEPTH or line.count("[") > _TOML_DEPTH:
            raise FileFormatError("not valid TOML: nested too deeply")
    try:
        return tomllib.loads(text, parse_float=_finite)
    except RecursionError:
        raise FileFormatError("not valid TOML: nested too deeply") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise FileFormatError(f"not valid TOML ({exc})") from None
    except ValueError:  # an integer past Python's 4300 digits
        raise FileFormatError("not valid TOML: a number with thousands of digits") from None


def dump_json(value: Any, **options: Any) -> str:
    """``json.dumps`` that refuses NaN and infinities (no reader accepts them)."""
    try:
        return json.dumps(value, allow_nan=False, **options)
    except ValueError as exc:
        raise FileFormatError(f"cannot write JSON: {exc}") from None


# ----------------------------------------------------------------------------- writing

_STAGED: contextvars.ContextVar[list[tuple[int, str, Path]] | None] = contextvars.ContextVar(
    "mazeart_staged", default=None
)


@contextlib.contextmanager
def all_or_nothing() -> Iterator[None]:
    """Write several files as one: inside the block, each :func:`atomic_write` waits, complete,
    beside its destination; they all move into place when the block ends without an error,
    and are all removed if it raises (or is interrupted)."""
    staged: list[tuple[int, str, Path]] = []
    token = _STAGED.set(staged)
    try:
        yield
    except BaseException:
        for fd, tmp, _ in staged:
            _discard(tmp)
            os.close(fd)
        raise
    else:
        try:
            for _, tmp, dest in staged:
                os.replace(tmp, dest)
                PENDING.discard(tmp)
        except OSError as exc:
            raise MazeartError(f"cannot write {dest}: {exc.strerror or exc}") from None
        finally:
            for fd, tmp, _ in staged:
                _discard(tmp)  # only those not moved
                os.close(fd)
    finally:
        _STAGED.reset(token)


def _discard(tmp: str) -> None:
    """Remove a temporary file of ours (if it is still there) and forget it."""
    with contextlib.suppress(OSError):
        os.unlink(tmp)
    PENDING.discard(tmp)


def _sweep(parent: Path, name: str) -> None:
    """Remove temporary files of ours for ``name`` that no living writer holds."""
    if fcntl is None:
        return
    prefix, suffix = f".{name}.", ".part"
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return
    for entry in entries:
        middle = entry.name[len(prefix) : -len(suffix)]
        if not (
            entry.name.startswith(prefix)
            and entry.name.endswith(suffix)
            and len(middle) == 8
            and middle.replace("_", "").isalnum()
        ):
            continue
        try:
            fd = os.open(entry.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held by a writer still at work?
            os.unlink(entry.path)
        except OSError:
            pass
        finally:
            os.close(fd)


def check_writable(path: str | os.PathLike[str]) -> Path:
    """``path`` if a file can be written there: its folder exists, it is not a folder, and an
    existing file there is one the user may write (as the shell's ``>`` would allow)."""
    dest = Path(path)
    parent = dest.parent if str(dest.parent) else Path(".")
    try:
        if not parent.is_dir():
            raise MazeartError(f"cannot write {dest}: directory {parent} does not exist")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise MazeartError(f"cannot write {dest}: permission denied (directory {parent})")
        if dest.is_dir():
            raise MazeartError(f"cannot write {dest}: it is a directory")
        if dest.exists() and not dest.is_file():
            raise MazeartError(f"cannot write {dest}: not a regular file")
        if dest.exists() and not os.access(dest, os.W_OK):
            raise MazeartError(f"cannot write {dest}: permission denied (the file is read-only)")
    except OSError as exc:
        raise MazeartError(f"cannot write {dest}: {exc.strerror or exc}") from None
    return dest


def _locked_temporary(dest: Path, parent: Path) -> tuple[int, str]:
    """A new temporary file beside ``dest``, noted in :data:`PENDING` and locked as ours.

    Another run's sweep (:func:`_sweep`) may remove a file in the instant between
    its making and its lock; then a new one is made."""
    for _ in range(5):
        fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".part", dir=parent)
        PENDING.add(tmp)
        if fcntl is None:
            return fd, tmp
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            if os.stat(tmp).st_ino == os.fstat(fd).st_ino:
                return fd, tmp
        except FileNotFoundError:
            pass
        os.close(fd)
        PENDING.discard(tmp)
    raise OSError(f"temporary files beside {dest.name} keep being removed")


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """Open a temporary file beside ``path`` and move it into place on success.

    The temporary file lives in the destination's directory, so the final
    :func:`os.replace` is atomic on POSIX and Windows. If the body raises, the
    temporary file is removed and whatever was at ``path`` before is untouched.
    A file that is replaced keeps its permissions.

    Parameters
    ----------
    path : str or path-like
        Final destination.

    Yields
    ------
    BinaryIO
        A binary file object to write into.
    """
    dest = check_writable(path)
    parent = dest.parent if str(dest.parent) else Path(".")
    _sweep(parent, dest.name)
    staged = _STAGED.get()
    fd, tmp = -1, ""
    try:
        with held():  # the file and its note come into being together
            fd, tmp = _locked_temporary(dest, parent)
        with os.fdopen(os.dup(fd), "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        try:
            mode = os.stat(dest).st_mode & 0o7777
        except FileNotFoundError:  # mkstemp creates 0600; give a new file what open() would
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        checkpoint()  # a stop swallowed on the way: the file is not put in place
        if staged is None:
            os.replace(tmp, dest)
            PENDING.discard(tmp)
            os.close(fd)
        else:
            staged.append((fd, tmp, dest))
    except BaseException as exc:
        if tmp:
            _discard(tmp)
            os.close(fd)
        if isinstance(exc, OSError):  # disk full, permissions, ...: the user's to fix
            raise MazeartError(f"cannot write {dest}: {exc.strerror or exc}") from None
        raise


# ----------------------------------------------------------------------------- pictures


def open_image(
    path: str | os.PathLike[str], *, cells: bool = False, grid: int | None = None
) -> Image:
    """Open and fully decode an image file, with one-line errors for bad input.

    Its size is checked before it is decoded: against ``max_pixels`` (see
    :func:`mazeart.limits`), or against ``max_cells`` when each pixel is a cell.
    An SVG drawing (recognised by its content, plain or gzip-compressed) is
    rasterised on a transparent canvas, at a size chosen for ``grid`` (see
    :mod:`mazeart._svg`); it needs the optional renderer (``mazeart[svg]``).

    Parameters
    ----------
    path : str or path-like
    cells : bool, default False
        The image is a preset, one pixel per cell (else a picture, turned as
        its EXIF orientation says: a photo taken sideways comes out upright).
        An SVG drawing cannot be a preset.
    grid : int, optional
        Columns of the grid the picture is for. Only an SVG drawing uses it:
        it is rasterised 16 pixels a cell across (2048 pixels on its longer
        side when ``grid`` is not given).

    Returns
    -------
    PIL.Image.Image
        The decoded image (pixel data loaded, file closed); ``RGBA`` for an SVG drawing.

    Raises
    ------
    ValueError
        If the file is missing, too large, not an image, or its data is truncated or corrupt;
        for an SVG drawing also if it is malformed or the renderer is not installed.
    """
    from PIL import Image, ImageOps, UnidentifiedImageError

    from mazeart._limits import check_cells, check_pixels, current
    from mazeart._svg import MAX_BYTES, is_svg, read_svg

    p = existing_file(path, "an image")
    if is_svg(p):
        if cells:
            raise FileFormatError(
                f"{p}: an SVG drawing cannot be a preset of one pixel per cell (use a PNG)"
            )
        return read_svg(p, read_bytes(p, "an SVG drawing", limit=MAX_BYTES), grid=grid)
    bomb = Image.MAX_IMAGE_PIXELS
    try:
        with warnings.catch_warnings():
            # The limit is ours (checked below); Pillow's stays on, at least as high.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            if bomb is not None:
                Image.MAX_IMAGE_PIXELS = max(bomb, current().max_pixels)
            with Image.open(p) as img:
                if cells:
                    check_cells(img.height, img.width, f"{p}: the preset")
                else:
                    check_pixels(img.width, img.height, f"{p}: the picture")
                img.load()
                if not cells:
                    ImageOps.exif_transpose(img, in_place=True)
                return img
    except UnidentifiedImageError:
        raise FileFormatError(f"{p}: not an image (Pillow cannot identify it)") from None
    except Image.DecompressionBombError as exc:
        raise FileFormatError(f"{p}: image is too large to decode safely ({exc})") from None
    except MazeartError:
        raise
    except (OSError, SyntaxError, ValueError, EOFError, MemoryError):
        raise FileFormatError(f"{p}: the image data is truncated or corrupt") from None
    finally:
        Image.MAX_IMAGE_PIXELS = bomb
