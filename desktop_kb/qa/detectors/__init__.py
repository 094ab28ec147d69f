"""Detectors for secrets and personal data (Qt-free), run on normalised text.

:func:`detect` is the one entry point: it normalises (NFKC, invisible
characters removed), runs every detector, maps the findings back to the
original text and merges overlaps. Detectors prefer structure and context
to guessing, so ordinary study text — hashes, UUIDs, ISBNs, statistics,
crypto vocabulary — passes (see benchmarks/bench_gate.py for both figures).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from desktop_kb.qa.detectors.assignments import assignments, spaced_pairs, table_cells
from desktop_kb.qa.detectors.base import KINDS, Finding
from desktop_kb.qa.detectors.command_lines import urls_and_headers
from desktop_kb.qa.detectors.email import emails
from desktop_kb.qa.detectors.keys import private_keys
from desktop_kb.qa.detectors.literals import long_literals
from desktop_kb.qa.detectors.normalize import normalize
from desktop_kb.qa.detectors.numbers import (
    bank_cards,
    luhn_ok,
    phones,
    resident_ids,
    valid_resident_id,
)
from desktop_kb.qa.detectors.prose import keyword_tokens, prose
from desktop_kb.qa.detectors.tokens import service_tokens

DETECTORS: tuple[Callable[[str], Iterable[Finding]], ...] = (
    private_keys, service_tokens, assignments, spaced_pairs, table_cells, prose, keyword_tokens,
    urls_and_headers, long_literals, resident_ids, bank_cards, phones, emails)
_RANK = {kind: i for i, kind in enumerate(KINDS)}


def detect(text: str) -> list[Finding]:
    """Every finding in ``text`` (original offsets), sorted; overlapping findings are merged."""
    norm = normalize(text)
    raw: list[Finding] = []
    for detector in DETECTORS:
        raw.extend(detector(norm.text))
    spans = []
    for f in raw:
        start, end = norm.span(f.start, f.end)
        if end > start:
            spans.append(Finding(f.kind, start, end))
    return merge(spans)


def merge(findings: list[Finding]) -> list[Finding]:
    """Overlapping or touching findings become one, named by the strongest kind (KINDS order)."""
    out: list[Finding] = []
    for f in sorted(findings, key=lambda f: (f.start, -f.end)):
        if out and f.start <= out[-1].end:
            last = out[-1]
            kind = last.kind if _RANK.get(last.kind, 99) <= _RANK.get(f.kind, 99) else f.kind
            out[-1] = Finding(kind, last.start, max(last.end, f.end))
        else:
            out.append(f)
    return out


__all__ = ["Finding", "detect", "merge", "luhn_ok", "valid_resident_id"]
