"""numba's ``njit``, compiled on first use, with a kernel cache that works wherever mazeart runs.

Decorating a kernel imports nothing: numba (about a third of a second to
import) is loaded, the cache chosen and the kernel compiled or read from the
cache when the kernel is first called. So ``mazeart --help``, ``mazeart
algorithms`` and a mistyped option answer without numba. When a kernel is
compiled, the kernels it calls by their global names are compiled first and
put in its globals, as numba needs.

The kernels of the main job are also built ahead of time, once, into a module
that loads without numba (see :mod:`mazeart._aot`); a kernel calls its built
function when there is one and the arguments are of the types it was built for.

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

__all__ = ["caching", "njit"]


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def _user_cache() -> Path:  # numba is imported by the caller
    from numba.misc.appdirs import AppDirs

    return Path(AppDirs(appname="numba", appauthor=False).user_cache_dir)


def _choose_cache() -> bool:
    """Whether kernels can be cached; sets numba's cache folder when its own will not do."""
    from numba.core import config

    given = getattr(config, "CACHE_DIR", "")
    if given:
        if _writable(Path(given)):
            return True
    else:
        here = Path(__file__).parent
        packages = (here, *(p.parent for p in here.glob("*/__init__.py")))
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


_CACHING: list[bool] = []


def caching() -> bool:
    """Whether compiled kernels are cached between runs (decided once, on first need)."""
    if not _CACHING:
        _CACHING.append(_choose_cache())
    return _CACHING[0]


_UNSEEN = object()

_BEFORE_COMPILE: list[Callable[[], None]] = []


def before_compile(hook: Callable[[], None]) -> Callable[[], None]:
    """Run ``hook`` before the first kernel compiles (it must be safe to run again): how a
    module teaches numba functions of its own (:mod:`mazeart._kernels.topology`)
    without this module importing it."""
    _BEFORE_COMPILE.append(hook)
    return hook


class _Kernel:
    """A kernel that numba compiles when it is first called (see the module's text)."""

    def __init__(self, func: Callable[..., Any], options: dict[str, Any]) -> None:
        self.py_func = func
        self.options = options
        self.dispatcher: Any = None
        self.__name__ = func.__name__
        self.__qualname__ = func.__qualname__
        self.__module__ = func.__module__
        self.__doc__ = func.__doc__
        self.__wrapped__ = func
        self.built: Any = _UNSEEN  # the function built ahead of time (see mazeart._aot)

    def compiled(self) -> Any:
        """The numba dispatcher (compiling, or loading from the cache, the first time)."""
        if self.dispatcher is None:
            import numba

            for hook in _BEFORE_COMPILE:  # e.g. the grid topologies' functions
                hook()
            names = self.py_func.__globals__
            for name in self.py_func.__code__.co_names:  # the kernels it calls, first
                other = names.get(name)
                if isinstance(other, _Kernel):
                    names[name] = other.compiled()
            options = dict(self.options)
            if not caching():
                options.pop("cache", None)
            self.dispatcher = numba.njit(**options)(self.py_func)
        return self.dispatcher

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        built = self.built
        if built is _UNSEEN:
            from mazeart import _aot

            built = self.built = _aot.function(self.__module__, self.__qualname__)
        if built is not None and not kwargs:
            from mazeart._aot import fits

            if fits(self.__module__, self.__qualname__, args):
                return built(*args)
        return (self.dispatcher or self.compiled())(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<kernel {self.__qualname__}>"


def njit(*args: Any, **options: Any) -> Any:
    """:func:`numba.njit`, compiled on first call, caching only where a folder can be written.

    Used as ``@njit(cache=True)`` (or bare ``@njit``) on a kernel.
    """
    if args and callable(args[0]):
        return _Kernel(args[0], options)

    def decorate(func: Callable[..., Any]) -> _Kernel:
        return _Kernel(func, options)

    return decorate
