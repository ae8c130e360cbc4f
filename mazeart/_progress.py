"""What a long job is doing, for whoever shows it (the command line's progress line).

The pipeline names each step as it starts (:func:`step`); a listener set with
:func:`listening` hears it. With no listener, a step costs a function call.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from mazeart._signals import checkpoint

__all__ = ["STEPS", "listening", "step"]

STEPS = ("reading the picture", "carving", "drawing")
"""The steps of ``mazeart IMAGE -o FILE``, in order."""

_listener: Callable[[str], None] | None = None


def step(name: str) -> None:
    """Say that step ``name`` starts (and stop here if a signal was swallowed on the way:
    :func:`mazeart._signals.checkpoint`)."""
    checkpoint()
    if _listener is not None:
        _listener(name)


@contextlib.contextmanager
def listening(listener: Callable[[str], None]) -> Iterator[None]:
    """Hear the steps started inside the block."""
    global _listener
    before, _listener = _listener, listener
    try:
        yield
    finally:
        _listener = before
