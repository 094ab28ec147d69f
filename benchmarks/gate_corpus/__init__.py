"""Labelled corpora for the content gate (see benchmarks/bench_gate.py).

Each :class:`Case` is a realistic piece of a note or an imported file with the
secret or personal data in it written out in ``secrets``: every character of
each of those strings must be withheld or redacted before anything leaves.
Secrets are invented for the corpus (keys generated for it and thrown away,
ID and card numbers built to pass their checksums); none belongs to anyone.

* ``written`` — the corpus the detectors were built against.
* ``heldout`` — written after the detectors passed ``written`` and never used
  while changing them; its recall is reported as a separate figure.
"""

from __future__ import annotations

from dataclasses import dataclass

CATEGORIES = ("api_key", "auth_header", "connection_string", "private_key", "password",
              "resident_id", "mobile", "bank_card", "email", "passport", "address",
              "otp_secret", "recovery_phrase", "licence_plate")
CONTAINERS = ("note", "env", "md", "json", "yaml", "py", "txt")


@dataclass(frozen=True)
class Case:
    id: str
    category: str  # one of CATEGORIES: what the case is about
    container: str  # one of CONTAINERS: a note (``env``: a pasted .env file) or an imported file's format
    text: str
    secrets: tuple[str, ...]

    def __post_init__(self) -> None:
        assert self.category in CATEGORIES, self.category
        assert self.container in CONTAINERS, self.container
        for secret in self.secrets:
            assert secret in self.text, (self.id, secret)
