"""Atomic file output: a failure never leaves a partial file or clobbers an old one."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from mazeart.errors import FileFormatError, MazeartError

if TYPE_CHECKING:
    from PIL.Image import Image


def existing_file(path: str | os.PathLike[str], what: str) -> Path:
    """``path`` as a Path, or a one-line ValueError if it is missing or a directory."""
    p = Path(path)
    if not p.exists():
        raise MazeartError(f"{p}: no such file")
    if p.is_dir():
        raise MazeartError(f"{p}: is a directory, not {what}")
    if not p.is_file():  # a FIFO, a device, a socket: reading it could block forever
        raise MazeartError(f"{p}: not a regular file, not {what}")
    return p


def read_bytes(path: str | os.PathLike[str], what: str) -> bytes:
    """The contents of an existing regular file, or a one-line error saying why not."""
    p = existing_file(path, what)
    try:
        return p.read_bytes()
    except OSError as exc:
        raise MazeartError(f"{p}: cannot read it ({exc.strerror or exc})") from None


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """Open a temporary file beside ``path`` and move it into place on success.

    The temporary file lives in the destination's directory, so the final
    :func:`os.replace` is atomic on POSIX and Windows. If the body raises, the
    temporary file is removed and whatever was at ``path`` before is untouched.

    Parameters
    ----------
    path : str or path-like
        Final destination.

    Yields
    ------
    BinaryIO
        A binary file object to write into.
    """
    dest = Path(path)
    parent = dest.parent if str(dest.parent) else Path(".")
    if not parent.is_dir():
        raise MazeartError(f"cannot write {dest}: directory {parent} does not exist")
    if dest.is_dir():
        raise MazeartError(f"cannot write {dest}: it is a directory")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".part", dir=parent)
    except OSError as exc:
        raise MazeartError(f"cannot write {dest}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        # mkstemp creates 0600; give the result the permissions a plain open() would.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, dest)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(exc, OSError):  # disk full, permissions, ...: the user's to fix
            raise MazeartError(f"cannot write {dest}: {exc.strerror or exc}") from None
        raise


def open_image(path: str | os.PathLike[str]) -> Image:
    """Open and fully decode an image file, with one-line errors for bad input.

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    PIL.Image.Image
        The decoded image (pixel data loaded, file closed).

    Raises
    ------
    ValueError
        If the file is missing, is not an image, or its data is truncated or corrupt.
    """
    from PIL import Image, UnidentifiedImageError

    p = existing_file(path, "an image")
    try:
        with Image.open(p) as img:
            img.load()
            return img
    except UnidentifiedImageError:
        raise FileFormatError(f"{p}: not an image (Pillow cannot identify it)") from None
    except Image.DecompressionBombError as exc:
        raise FileFormatError(f"{p}: image is too large to decode safely ({exc})") from None
    except (OSError, SyntaxError, ValueError, EOFError):
        raise FileFormatError(f"{p}: the image data is truncated or corrupt") from None
