"""numba's ``njit``, run by Python for small work and compiled for the rest.

Decorating a kernel imports nothing. A kernel is one Python function that runs
two ways, with the same results:

- **as Python**, while the work it has been given in this process is small
  (:data:`BUDGET`: its largest array argument, summed over its calls, at most
  100,000 elements; 10,000, :data:`WARM_BUDGET`, once another kernel has loaded
  numba and this one is in numba's cache, since reading it is then cheap). A maze of a
  few thousand cells takes Python a few tenths of a second, less than loading
  numba (a third of a second to import, as much again to set up its compiler
  and read a cached kernel): so the main job on a picture starts and finishes
  without numba, on the first run after installing as on every other;
- **compiled by numba** (``cache=True``: read from numba's cache after the first
  time) once the work is larger. A compiled kernel calls the kernels it names as
  compiled code, whichever way they ran before.

``MAZEART_JIT=always`` compiles every call and ``MAZEART_JIT=never`` runs every
call as Python (:func:`jit_mode` sets either within a block): the tests run the
package both ways and compare.

numba caches compiled kernels beside the source (``__pycache__``) or in the
user's cache directory, and refuses to decorate a ``cache=True`` function
when it can write to neither (a read-only install with an unwritable home).
This module picks the cache before any kernel is decorated: numba's own
choice when it can write there, else a per-user folder in the temporary
directory, else no cache at all (kernels compile on each run), said once on
stderr.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["BUDGET", "caching", "jit_mode", "njit", "readonly"]


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


BUDGET = 100_000
"""How much work a kernel may be given as Python in one process: the size of its largest
array argument, summed over its calls; beyond it the kernel is compiled."""

WARM_BUDGET = 10_000
"""The same once numba is set up in the process (a kernel has been compiled): reading
another kernel from the cache then costs a few hundredths of a second, not the half second
of loading numba, so a kernel's Python is worth less of it."""

_WARM: list[bool] = []

_MODES = ("auto", "always", "never")
_MODE: list[str] = []


def _mode() -> str:
    if not _MODE:
        chosen = os.environ.get("MAZEART_JIT", "auto").strip().lower() or "auto"
        if chosen not in _MODES:
            sys.stderr.write(f"mazeart: warning: MAZEART_JIT={chosen!r} is not one of "
                             f"{', '.join(_MODES)}; using auto\n")  # fmt: skip
            chosen = "auto"
        _MODE.append(chosen)
    return _MODE[0]


@contextlib.contextmanager
def jit_mode(mode: str) -> Iterator[None]:
    """Within the block, run every kernel call as ``'never'`` (Python), ``'always'``
    (compiled) or ``'auto'`` (see the module's text). The mode is the process's: for
    tests and benchmarks, not for threads that want different ones."""
    if mode not in _MODES:
        raise ValueError(f"jit mode must be one of {', '.join(_MODES)}, got {mode!r}")
    before = _mode()
    _MODE[0] = mode
    try:
        yield
    finally:
        _MODE[0] = before


class _Local(threading.local):
    inside = False  # a kernel runs as Python on this thread: the kernels it calls do too


_LOCAL = _Local()
_COMPILING = threading.RLock()

_BEFORE_COMPILE: list[Callable[[], None]] = []


def before_compile(hook: Callable[[], None]) -> Callable[[], None]:
    """Run ``hook`` before the first kernel compiles (it must be safe to run again): how a
    module teaches numba functions of its own (:mod:`mazeart._kernels.topology`)
    without this module importing it."""
    _BEFORE_COMPILE.append(hook)
    return hook


def _work(args: tuple[Any, ...]) -> int:
    """A call's size: its largest array argument (one level of tuples looked into), but not
    a grid's topology when it comes first as a tuple (a neighbour table holds a row of
    slots a cell: the cells' own arrays beside it measure the work)."""
    most = 1
    if args and isinstance(args[0], tuple) and len(args) > 1:
        args = args[1:]
    for a in args:
        if isinstance(a, np.ndarray):
            most = max(most, a.size)
        elif isinstance(a, tuple):
            for x in a:
                if isinstance(x, np.ndarray):
                    most = max(most, x.size)
    return most


_TYPED: list[bool] = []


def _teach_numba() -> None:
    """Let numba type a kernel named by another as its compiled dispatcher (once)."""
    if _TYPED:
        return
    from numba import typeof
    from numba.extending import typeof_impl

    @typeof_impl.register(_Kernel)
    def _typeof_kernel(value: _Kernel, context: Any) -> Any:
        return typeof(value.compiled(), context)

    _TYPED.append(True)


class _Kernel:
    """A kernel: run as Python or compiled by numba (see the module's text)."""

    def __init__(self, func: Callable[..., Any], options: dict[str, Any]) -> None:
        self.py_func = func
        options = dict(options)
        measure = options.pop("work", None)  # the argument whose size is the work, if not all
        self.counter: Callable[..., int] | None = measure if callable(measure) else None
        self.measure = None
        if isinstance(measure, str):
            self.measure = func.__code__.co_varnames.index(measure)
        self.options = options
        self.dispatcher: Any = None
        self.work = 0  # array elements run as Python so far
        self.in_cache: bool | None = None  # whether numba's cache holds it (once asked)
        self.__name__ = func.__name__
        self.__qualname__ = func.__qualname__
        self.__module__ = func.__module__
        self.__doc__ = func.__doc__
        self.__wrapped__ = func

    @property
    def targetoptions(self) -> dict[str, Any]:
        """The options numba's passes read of a function a kernel calls, as of its
        dispatchers (numba inlines only the random draws, ``inline="always"``: a kernel
        calls the other kernels it names as compiled functions, and LLVM inlines the small
        ones, at a third less compile time than numba's own inlining and no loss of
        speed)."""
        return self.options

    def compiled(self) -> Any:
        """The numba dispatcher (compiling, or loading from the cache, the first time).

        One thread at a time sets numba up (the topology functions are taught to it by
        the hooks): another thread's first compile waits until they are in place."""
        if self.dispatcher is not None:
            return self.dispatcher
        with _COMPILING:
            return self._compile()

    def _compile(self) -> Any:
        if self.dispatcher is None:
            import numba

            _teach_numba()
            for hook in _BEFORE_COMPILE:  # e.g. the grid topologies' functions
                hook()
            options = dict(self.options)
            if not caching():
                options.pop("cache", None)
            self.dispatcher = numba.njit(**options)(self.py_func)
            _WARM[:] = [True]
        return self.dispatcher

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if _LOCAL.inside:
            return self.py_func(*args, **kwargs)
        mode = _MODE[0] if _MODE else _mode()
        if mode == "auto":
            if self.dispatcher is not None:
                return self.dispatcher(*args, **kwargs)
            if self.counter is not None:
                work = int(self.counter(*args, **kwargs))
            else:
                work = _work(args if self.measure is None else (args[self.measure],))
            if self.work + work <= self._budget():
                self.work += work
                return self._as_python(args, kwargs)
        elif mode == "never":
            return self._as_python(args, kwargs)
        return (self.dispatcher or self.compiled())(*args, **kwargs)

    def _budget(self) -> int:
        """:data:`WARM_BUDGET` once numba is set up and the cache holds this kernel (only
        read, not compiled, it is cheap), else :data:`BUDGET`."""
        if not _WARM:
            return BUDGET
        if self.in_cache is None:
            self.in_cache = bool(self.options.get("cache")) and caching() and self._indexed()
        return WARM_BUDGET if self.in_cache else BUDGET

    def _indexed(self) -> bool:
        """Whether numba's cache has an index of this kernel's compiled signatures."""
        try:
            from numba.core.caching import FunctionCache

            return os.path.exists(FunctionCache(self.py_func)._cache_file._index_path)
        except Exception:  # a numba without that layout: the budget as before
            return False

    def _as_python(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        _LOCAL.inside = True
        try:
            with np.errstate(over="ignore"):  # numba's integers wrap silently; numpy's warn
                return self.py_func(*args, **kwargs)
        finally:
            _LOCAL.inside = False

    def __repr__(self) -> str:
        return f"<kernel {self.__qualname__}>"


def readonly(value: Any) -> Any:
    """``value`` with each array in it (itself, or the items of a tuple) as a read-only
    view: numba compiles a kernel once per array type, and whether an array may be
    written is part of its type, so a kernel's inputs are handed over read-only whether
    the caller's arrays were frozen or not (one compile, not one per mixture).

    >>> import numpy as np
    >>> a = np.zeros(3)
    >>> readonly(a).flags.writeable, a.flags.writeable
    (False, True)
    """
    if isinstance(value, np.ndarray):
        view = value.view()
        view.flags.writeable = False
        return view
    if isinstance(value, tuple):
        return tuple(readonly(v) for v in value)
    return value


def njit(*args: Any, **options: Any) -> Any:
    """:func:`numba.njit`, compiled on first call, caching only where a folder can be written.

    Used as ``@njit(cache=True)`` (or bare ``@njit``) on a kernel. ``work="name"``
    says which argument's size measures the kernel's work as Python, when the largest
    array is not it (a canvas a few boxes are painted on); ``work=function`` counts it
    from the call's arguments (the pixels strokes cover).
    """
    if args and callable(args[0]):
        return _Kernel(args[0], options)

    def decorate(func: Callable[..., Any]) -> _Kernel:
        return _Kernel(func, options)

    return decorate
