"""Ctrl-C, SIGTERM, SIGHUP and every other signal that would end the process, on the command
line: one line, the right status, no temporary file left.

The handlers raise :class:`Stopped`, a :class:`BaseException` that nothing on
the way out swallows; every temporary file is removed as it passes (see
:func:`mazeart._io.atomic_write`). A signal that arrives while a compiled
kernel returns surfaces as a ``SystemError`` whose cause is the
:class:`Stopped`: :func:`stopped` finds it either way.

A signal can also land between two steps of the writer's bookkeeping (just
after the temporary file is made, or inside a context manager's entry or
exit). So a temporary file is made with the signals :func:`held` and noted in
:data:`PENDING` in the same breath, and :func:`guarded` removes whatever is
still noted when a signal ends the run.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

_FATAL = ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGVTALRM",
          "SIGPROF", "SIGXCPU")  # fmt: skip
HANDLED = tuple(getattr(signal, name) for name in _FATAL if hasattr(signal, name))
"""Ctrl-C, a polite kill, a closed terminal, and every other signal whose default ends a
process (a stray SIGUSR1, a CPU limit): each ends the run cleanly, its temporary files
removed."""


class Stopped(BaseException):
    """A signal asked the run to stop."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_HOLDING = [0]  # how deep the main thread is in held() blocks
_DEFERRED: list[int] = []  # signals that came while it was


_RAISED: list[int] = []  # signals whose Stopped was raised and not yet seen out


def _stop(signum: int, frame: object) -> None:
    if _HOLDING[0]:
        _DEFERRED.append(signum)
        return
    _RAISED.append(signum)
    raise Stopped(signum)


def checkpoint() -> None:
    """Raise again a stop that something swallowed: Python drops an exception raised
    inside a ctypes callback (numba's cache writing while it compiles), so a signal that
    lands there is noted and the run stops here instead, before it writes anything."""
    if _RAISED:
        raise Stopped(_RAISED[0])


PENDING: set[str] = set()
"""Temporary files not yet moved into place nor removed: removed if a signal ends the run."""


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Hold the handled signals for a few steps that must not be split; a signal that
    comes meanwhile stops the run as the block ends.

    Two holds, because the operating system may hand a process's signal to any
    of its threads: the handler (which always runs in the main thread) puts the
    signal aside while the main thread is in the block, and the thread's own
    signal mask covers Python's default Ctrl-C handler when ours is not installed.
    """
    main = threading.current_thread() is threading.main_thread()
    mask = getattr(signal, "pthread_sigmask", None)
    previous = None
    _HOLDING[0] += main  # first: a handler may run inside the masking call itself
    try:
        if mask is not None:
            previous = mask(signal.SIG_BLOCK, HANDLED)
        yield
    finally:
        if mask is not None and previous is not None:
            mask(signal.SIG_SETMASK, previous)
        _HOLDING[0] -= main
        if main and _DEFERRED and not _HOLDING[0]:
            signum = _DEFERRED[0]
            _DEFERRED.clear()
            raise Stopped(signum)


def _remove_pending() -> None:
    for path in list(PENDING):
        with contextlib.suppress(OSError):
            os.unlink(path)
        PENDING.discard(path)


def _unraisable(hook: Callable[[Any], object]) -> Callable[[Any], object]:
    """Python's report of an exception it had to drop, quiet for a stop: a signal that
    lands in a callback Python cannot raise from (the bookkeeping a process pool's fork
    runs) is already noted for :func:`checkpoint`, and its traceback is no one's business."""

    def unraisable(info: Any) -> object:
        if isinstance(info.exc_value, Stopped):
            return None
        return hook(info)

    return unraisable


def install() -> dict[int, Any]:
    """Install the handlers (in the main thread only); return the ones they replace."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {sig: signal.signal(sig, _stop) for sig in HANDLED}


def restore(previous: dict[int, Any]) -> None:
    """Put back the handlers :func:`install` replaced."""
    for sig, handler in previous.items():
        signal.signal(sig, handler)


def stopped(exc: BaseException | None) -> Stopped | None:
    """The signal behind an exception: raised directly, or while a compiled kernel returned."""
    for _ in range(10):
        if exc is None or isinstance(exc, Stopped):
            return exc
        exc = exc.__cause__ or exc.__context__
    return None


def report(stop: Stopped) -> int:
    """Say why the run ended; return its exit status (128 + the signal's number)."""
    interrupted = stop.signum == signal.SIGINT
    try:  # after a hang-up there may be no terminal left to tell
        print(f"mazeart: {'interrupted' if interrupted else 'terminated'}", file=sys.stderr)
    except OSError:
        pass
    return 128 + stop.signum


def guarded(run: Callable[[], int]) -> int:
    """``run()`` with the handlers installed: its status, or the signal's."""
    previous = install()
    hook = sys.unraisablehook
    sys.unraisablehook = _unraisable(hook)
    try:
        return run()
    except BaseException as exc:
        stop = stopped(exc)
        if stop is None:
            raise
        _HOLDING[0] += 1  # a second Ctrl-C waits: the clean-up is not cut short
        try:
            _remove_pending()
            return report(stop)
        finally:
            _HOLDING[0] -= 1
            _DEFERRED.clear()
    finally:
        _RAISED.clear()  # seen out (or the run ended without one)
        restore(previous)
        sys.unraisablehook = hook
