"""``WHERE x IN (?, ?, …)`` over a list of any length, a bounded batch at a time."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")

#: Values bound per statement. SQLite builds before 3.32 (and distributions that
#: keep the old default) stop at 999 variables per statement; 500 leaves room for
#: a query's other parameters.
IN_BATCH = 500


def in_batches(values: Sequence[T], size: int = IN_BATCH) -> Iterator[tuple[Sequence[T], str]]:
    """Each run of at most ``size`` values with its placeholders ``"?,?,…"``.

    For ``f"… IN ({marks})"``: the SQL text holds placeholders only, never a value.
    """
    for start in range(0, len(values), size):
        part = values[start:start + size]
        yield part, ",".join("?" * len(part))
