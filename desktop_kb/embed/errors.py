"""Errors the model manager raises for reasons a person can act on."""

from __future__ import annotations

#: A full disk stopped an install: said as what the person can do, not "[Errno 28] No space
#: left on device" (English inside the Chinese window).
DISK_FULL_MESSAGE = ("The disk is full, so the model {0} was not installed and nothing was "
                     "changed: free some space and install it again.")

#: The library's folder is on a read-only disk (a CD, a read-only share): "[Errno 30]
#: Read-only file system" said less.
READ_ONLY_MESSAGE = ("The library's folder cannot be written (a read-only disk, share or CD), so "
                     "the model {0} was not installed: copy the folder to a disk you can write to "
                     "and install it there.")


class ModelInstallError(Exception):
    """An install failed; the message says what failed and what to do, on one line.

    Messages are folded to one line here (pip output, paths, library errors can
    carry newlines) so every front end can show them as they are.
    """

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(str(message).split()))


class ModelNotFoundError(LookupError):
    """The requested model is not installed."""
