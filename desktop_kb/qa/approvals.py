"""Approval per act (I8): what the person said yes to, and for how long.

A request leaves only with an approval given for that very request (the
preview's "Send", the CLI's ``--yes`` on that command) or, inside the running
app, "send for this session" for one provider host. Session approvals live in
this process's memory only — never in the library — so no other process (a
CLI ``ask --session N``, the app after a restart) can inherit one.
"""

from __future__ import annotations

import threading


class SessionApprovals:
    """``(session id, provider host)`` pairs the person approved in this running app."""

    def __init__(self) -> None:
        self._approved: set[tuple[int, str]] = set()
        self._lock = threading.Lock()

    def approve(self, session_id: int, host: str) -> None:
        with self._lock:
            self._approved.add((session_id, host))

    def revoke(self, session_id: int) -> None:
        with self._lock:
            self._approved = {a for a in self._approved if a[0] != session_id}

    def approved(self, session_id: int | None, host: str) -> bool:
        if session_id is None or not host:
            return False
        with self._lock:
            return (session_id, host) in self._approved
