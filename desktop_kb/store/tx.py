"""Explicit write transactions (connections run in autocommit mode)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

from desktop_kb.store.errors import environment_error


@contextmanager
def transaction(conn: sqlite3.Connection, what: str = "Saving to the library") -> Iterator[None]:
    """BEGIN IMMEDIATE … COMMIT; environment failures become StoreError, bugs propagate."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as exc:
        err = environment_error(exc, what)
        if err is None:
            raise
        raise err from exc
    try:
        yield
        conn.execute("COMMIT")
    except BaseException as exc:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            err = environment_error(exc, what)
            if err is not None:
                raise err from exc
        raise
