"""Giving freed memory back to the system between the phases of a build.

A build's read phase frees millions of small objects (each chunk's decoded rows); the C
allocator keeps the freed pages for reuse, and the next phase's large arrays, which it maps
fresh, come on top of them: the process's peak RSS is then the read phase's high mark plus
the layout's. `release()` asks glibc to return the free pages (`malloc_trim(0)`, which also
releases free pages inside the heap, not only at its top); elsewhere it does nothing.
"""

from __future__ import annotations

_trim = None


def release() -> bool:
    """Return freed heap pages to the system; False where the C library cannot."""
    global _trim
    if _trim is None:
        try:
            import ctypes

            _trim = ctypes.CDLL("libc.so.6").malloc_trim
            _trim.argtypes = [ctypes.c_size_t]
        except (OSError, AttributeError):
            _trim = False
    if not _trim:
        return False
    _trim(0)
    return True
