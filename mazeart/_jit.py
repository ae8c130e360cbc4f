"""numba's ``njit``, with a kernel cache that works wherever mazeart runs.

numba caches compiled kernels beside the source (``__pycache__``) or in the
user's cache directory, and refuses to decorate a ``cache=True`` function
when it can write to neither (a read-only install with an unwritable home).
This module picks the cache before any kernel is decorated: numba's own
choice when it can write there, else a per-user folder in the temporary
directory, else no cache at all (kernels compile on each run), said once on
stderr.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
from numba.core import config

__all__ = ["CACHING", "njit"]


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def _user_cache() -> Path:
    from numba.misc.appdirs import AppDirs

    return Path(AppDirs(appname="numba", appauthor=False).user_cache_dir)


def _choose_cache() -> bool:
    """Whether kernels can be cached; sets numba's cache folder when its own will not do."""
    given = getattr(config, "CACHE_DIR", "")
    if given:
        if _writable(Path(given)):
            return True
    else:
        here = Path(__file__).parent
        packages = (here, here / "generate", here / "export")
        if all(_writable(p / "__pycache__") for p in packages) or _writable(_user_cache()):
            return True
    uid = os.getuid() if hasattr(os, "getuid") else "user"
    fallback = Path(tempfile.gettempdir()) / f"mazeart-numba-cache-{uid}"
    if _writable(fallback):
        config.CACHE_DIR = str(fallback)  # type: ignore[attr-defined]
        return True
    sys.stderr.write(
        "mazeart: warning: no writable cache folder, so compiled kernels are not kept "
        "(set NUMBA_CACHE_DIR to a writable folder)\n"
    )
    return False


CACHING = _choose_cache()
"""Whether compiled kernels are cached between runs."""


def njit(*args: Any, **options: Any) -> Callable[..., Any]:
    """:func:`numba.njit`, caching only where a cache folder can be written."""
    if not CACHING:
        options.pop("cache", None)
    return numba.njit(*args, **options)  # type: ignore[no-any-return]
