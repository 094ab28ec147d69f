"""Handing memory freed by one-off loads back to the system.

glibc's ``free`` keeps what a program frees for its next allocations; it returns
pages to the system only from the top of each heap, and it raises its mmap
threshold after every large block freed, so later large blocks come from the heap
and stay there too. Opening a library frees a lot once: onnxruntime parses the
whole model file and then keeps only its tensors (the default model: 35 MB freed,
still resident), loading the dense index's sign bits and measuring the model on
the library free their buffers. ``malloc_trim(0)`` returns every free page of every
heap (glibc ≥ 2.8 releases pages inside heaps too, not only at their tops): called
after those loads, never per search, whose buffers the next search reuses.
On other C libraries and systems it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import sys
import threading

_lock = threading.Lock()


@functools.cache
def _malloc_trim() -> ctypes._CFuncPtr | None:  # type: ignore[name-defined]
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim  # glibc only (musl has no such function)
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def release_freed_memory() -> bool:
    """Return the pages the C heap holds free to the system (True: some were returned)."""
    trim = _malloc_trim()
    if trim is None:
        return False
    with _lock:  # two trims at once would only walk the same heaps twice
        return bool(trim(0))
