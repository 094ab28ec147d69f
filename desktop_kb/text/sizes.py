"""File sizes as a person reads them (``3.4 MB``), for messages and lists."""

from __future__ import annotations


def human_size(n: int, byte_unit: str = "bytes") -> str:
    """``n`` bytes in the largest unit it fills; under 1 KB the whole count, named
    ``byte_unit`` (a message says "512 bytes", a table column "512 B")."""
    size = float(n)
    for power, unit in enumerate(("", "KB", "MB", "GB")):
        if size < 1024 or unit == "GB":
            return f"{n} {byte_unit}" if power == 0 else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} {byte_unit}"  # pragma: no cover
