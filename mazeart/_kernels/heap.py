"""The kernels' binary min-heap: ``keys`` and the ``items`` beside them, two arrays of a
size the caller allots, and a count of entries the caller keeps (each call hands back the
new one). Of equal keys, the heap's order decides, the same way on every grid; a caller
that wants first come, first served folds an arrival count into the key."""

from __future__ import annotations

from mazeart._jit import njit

__all__ = ["heap_pop", "heap_push"]


@njit(cache=True)
def heap_push(keys, items, size, key, item):  # type: ignore[no-untyped-def]
    """Put ``item`` with ``key`` on the heap of ``size`` entries; the new size."""
    i = size
    while i > 0:  # up from the last place
        up = (i - 1) // 2
        if keys[up] <= key:
            break
        keys[i] = keys[up]
        items[i] = items[up]
        i = up
    keys[i] = key
    items[i] = item
    return size + 1


@njit(cache=True)
def heap_pop(keys, items, size):  # type: ignore[no-untyped-def]
    """Take the least entry (``items[0]``, read it first) off the heap of ``size``
    entries; the new size."""
    size -= 1  # the last entry down from the root into the hole
    key, item = keys[size], items[size]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and keys[child + 1] < keys[child]:
            child += 1
        if keys[child] >= key:
            break
        keys[i] = keys[child]
        items[i] = items[child]
        i = child
    if size > 0:
        keys[i] = key
        items[i] = item
    return size
