"""Detectors for secrets and personal data (Qt-free), run on normalised text.

:func:`detect` is the one entry point: it normalises (NFKC, invisible
characters removed), runs every detector, maps the findings back to the
original text and merges overlaps. Detectors prefer structure and context
to guessing, so ordinary study text — hashes, UUIDs, ISBNs, statistics,
crypto vocabulary — passes (see benchmarks/bench_gate.py for both figures).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from desktop_kb.qa.detectors.accounts import bank_accounts
from desktop_kb.qa.detectors.address_pairs import pair_addresses
from desktop_kb.qa.detectors.addresses import addresses
from desktop_kb.qa.detectors.assignments import assignments, spaced_pairs, table_cells
from desktop_kb.qa.detectors.base import KINDS, Finding
from desktop_kb.qa.detectors.bip39_forms import written_phrases
from desktop_kb.qa.detectors.command_lines import urls_and_headers
from desktop_kb.qa.detectors.config_secrets import config_secrets
from desktop_kb.qa.detectors.decode_calls import decoded_calls
from desktop_kb.qa.detectors.dumps import dump_findings
from desktop_kb.qa.detectors.email import emails
from desktop_kb.qa.detectors.encoded import encoded_runs
from desktop_kb.qa.detectors.escapes import coded_findings, escaped_findings, markup_findings
from desktop_kb.qa.detectors.examples import drop_examples
from desktop_kb.qa.detectors.id_documents import id_documents
from desktop_kb.qa.detectors.id_labels import labelled_ids
from desktop_kb.qa.detectors.joins import joined_findings
from desktop_kb.qa.detectors.key_dumps import key_dumps
from desktop_kb.qa.detectors.key_encodings import encoded_private_keys
from desktop_kb.qa.detectors.key_places import key_places
from desktop_kb.qa.detectors.keys import private_keys
from desktop_kb.qa.detectors.label_lines import label_lines
from desktop_kb.qa.detectors.labelled import labelled_values, worded_mobiles
from desktop_kb.qa.detectors.literals import long_literals
from desktop_kb.qa.detectors.lock_codes import lock_codes
from desktop_kb.qa.detectors.mrz import machine_readable_zones
from desktop_kb.qa.detectors.normalize import normalize
from desktop_kb.qa.detectors.numbers import (
    bank_cards,
    luhn_ok,
    phones,
    resident_ids,
    valid_resident_id,
)
from desktop_kb.qa.detectors.plates import licence_plates
from desktop_kb.qa.detectors.prose import keyword_tokens, prose
from desktop_kb.qa.detectors.published import public_key_id
from desktop_kb.qa.detectors.recovery import recovery_codes
from desktop_kb.qa.detectors.roles import key_roles, layout_phrases, password_roles, spoken_emails
from desktop_kb.qa.detectors.spelled_digits import spelled_digit_findings, spoken_findings
from desktop_kb.qa.detectors.split_tokens import continued_tokens
from desktop_kb.qa.detectors.tokens import service_tokens
from desktop_kb.qa.detectors.tool_secrets import (
    call_arguments,
    property_flags,
    setup_commands,
    tool_flags,
)
from desktop_kb.qa.detectors.wallets import base58_private_keys, recovery_phrases

DETECTORS: tuple[Callable[[str], Iterable[Finding]], ...] = (
    private_keys, encoded_private_keys, key_dumps, base58_private_keys, service_tokens, assignments, spaced_pairs, table_cells, label_lines,
    labelled_values, prose, keyword_tokens, urls_and_headers, tool_flags, setup_commands, property_flags, call_arguments, long_literals, recovery_phrases, written_phrases, recovery_codes, resident_ids,
    machine_readable_zones, id_documents, labelled_ids, bank_cards, bank_accounts, phones, worded_mobiles, emails, addresses, pair_addresses, licence_plates,
    lock_codes, key_places, config_secrets, spoken_emails, layout_phrases, password_roles, key_roles)
_RANK = {kind: i for i, kind in enumerate(KINDS)}
MAX_DECODE_DEPTH = 2  # base64 of base64 is still read; deeper nesting is not a note's


def detect(text: str, _depth: int = 0) -> list[Finding]:
    """Every finding in ``text`` (original offsets), sorted; overlapping findings are merged."""
    norm = normalize(text)
    raw = _detect_normalised(norm.text, _depth)
    raw += joined_findings(norm.text, lambda excerpt: _detect_normalised(excerpt, _depth))
    raw += spelled_digit_findings(norm.text, lambda excerpt: _detect_normalised(excerpt, _depth))
    raw += escaped_findings(norm.text, lambda excerpt: _detect_normalised(excerpt, _depth))
    raw += coded_findings(norm.text, lambda excerpt: _detect_normalised(excerpt, _depth))
    if _depth < MAX_DECODE_DEPTH:
        raw += decoded_calls(norm.text, lambda excerpt: detect(excerpt, _depth + 1))
    raw += markup_findings(norm.text, lambda excerpt: _detect_normalised(excerpt, _depth))
    if _depth < MAX_DECODE_DEPTH:  # hex dumps, uuencoded blocks, quoted-printable mail, read as the bytes they render
        raw += dump_findings(norm.text, lambda excerpt: detect(excerpt, _depth + 1))
    raw += spoken_findings(norm.text, lambda excerpt: _detect_normalised(excerpt, _depth))
    spans = []
    raw = list(dict.fromkeys(raw))  # (two detectors often find the same span: judge it once)
    for f in drop_examples(norm.text, raw):  # a standard's or a vendor's example, shown as one
        if public_key_id(norm.text, f.start, f.end):
            continue  # a public key's ID or fingerprint, named as one
        start, end = norm.span(f.start, f.end)
        if end > start:
            spans.append(Finding(f.kind, start, end))
    return merge(spans + _repeated(text, spans))


_REPEATABLE_RE = re.compile(r"[^\s]*[A-Za-z][^\s]*|\d{8,}")


def _repeated(text: str, spans: list[Finding]) -> list[Finding]:
    """A value found once is withheld wherever else the source writes it ("Wi-Fi 密码：… 也就是 zuhg9585"
    under a spelled-out one, a key pasted twice, the second time with no label)."""
    out: list[Finding] = []
    seen: set[str] = set()
    for f in spans:
        value = text[f.start:f.end].strip()
        if len(value) < 6 or value in seen or not _REPEATABLE_RE.fullmatch(value):
            continue
        seen.add(value)
        pos = text.find(value)
        for _ in range(50):
            if pos < 0:
                break
            end = pos + len(value)
            if not (pos and text[pos - 1].isalnum() or end < len(text) and text[end].isalnum()):
                out.append(Finding(f.kind, pos, end))
            pos = text.find(value, end)
    return out


def _detect_normalised(text: str, depth: int) -> list[Finding]:
    raw: list[Finding] = []
    for detector in DETECTORS:
        raw.extend(detector(text))
    if depth < MAX_DECODE_DEPTH:
        raw.extend(_decoded(text, depth))
    raw += list(continued_tokens(text, raw))
    return raw


def _decoded(text: str, depth: int) -> Iterable[Finding]:
    """An encoded run whose decoded text holds a finding is withheld whole, as that kind."""
    for start, end, decoded in encoded_runs(text):
        inner = detect(decoded, depth + 1)
        if inner:
            kind = min((f.kind for f in inner), key=lambda k: _RANK.get(k, 99))
            yield Finding(kind, start, end)


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
