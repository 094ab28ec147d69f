"""The content gate's detectors before issue 10 (commit 0043297), kept as the bench's baseline.

Per-window regexes with no normalisation and no context; bench_gate.py runs
them on the same corpora and sets to show what the rewrite changed.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    kind: str
    start: int
    end: int



_TOKEN_RES = [
    re.compile(r"(?<![A-Za-z0-9_-])sk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}"),
    re.compile(r"(?<![A-Z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Z0-9])"),
    re.compile(r"(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36,}"),
    re.compile(r"github_pat_[A-Za-z0-9_]{40,}"),
    re.compile(r"(?<![A-Za-z0-9-])glpat-[A-Za-z0-9_-]{20,}"),
    re.compile(r"xox[abposr]-[A-Za-z0-9-]{10,}"),
    re.compile(r"(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}"),
    re.compile(r"eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"),  # JWT
    re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/-]{20,}=*"),
]
_PRIVATE_KEY_RE = re.compile(
    r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY"
    r"(?: BLOCK)?-----|\Z)")
# key = value / key: value / 密码：value. The value is what gets redacted.
_PASSWORD_RE = re.compile(
    r"(?i)(?:\b(?:password|passwd|pwd|pass|secret|api[_-]?key|access[_-]?token|auth[_-]?token|"
    r"client[_-]?secret)\b|密码|口令|密钥)"
    r"[\"']?\s*(?:[:=：]|是|为)\s*[\"']?(?P<value>[^\s\"'，。；,;]{4,})")
_ID_RE = re.compile(r"(?<![0-9A-Za-z])[1-9]\d{16}[0-9Xx](?![0-9A-Za-z])")
_MOBILE_RE = re.compile(r"(?<![0-9])(?:\+?86[- ]?)?1[3-9]\d(?:[- ]?\d{4}){2}(?![0-9])")
_CARD_RE = re.compile(r"(?<![0-9])(?:\d[ -]?){12,18}\d(?![0-9])")
_EMAIL_RE = re.compile(r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")

_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"


def valid_resident_id(number: str) -> bool:
    """Chinese resident ID (GB 11643): checksum plus a real birth date."""
    if len(number) != 18 or not number[:17].isdigit():
        return False
    total = sum(int(d) * w for d, w in zip(number[:17], _ID_WEIGHTS, strict=True))
    if _ID_CHECK[total % 11] != number[17].upper():
        return False
    try:
        born = datetime.date(int(number[6:10]), int(number[10:12]), int(number[12:14]))
    except ValueError:
        return False
    return 1900 <= born.year <= datetime.date.today().year


def luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


_CARD_PREFIX_RE = re.compile(r"^(?:62|4|5[1-5]|2[2-7]|3[47]|35|6011|65|9)")


def _cards(text: str) -> list[Finding]:
    out = []
    for m in _CARD_RE.finditer(text):
        raw = m.group(0)
        digits = re.sub(r"[ -]", "", raw)
        if not 13 <= len(digits) <= 19 or len(set(digits)) < 2:
            continue
        if ("-" in raw or " " in raw) and not re.fullmatch(r"\d{4}(?:[ -]\d{4}){2,3}(?:[ -]\d{1,3})?", raw):
            continue  # grouped cards come in fours; other groupings are phone or order numbers
        if _CARD_PREFIX_RE.match(digits) and luhn_ok(digits):
            out.append(Finding("bank_card", m.start(), m.end()))
    return out


def _regex(kind: str, pattern: re.Pattern[str], group: str | int = 0,
           check: Callable[[str], bool] | None = None) -> Callable[[str], list[Finding]]:
    def detect(text: str) -> list[Finding]:
        found = []
        for m in pattern.finditer(text):
            if check is not None and not check(m.group(0)):
                continue
            found.append(Finding(kind, m.start(group), m.end(group)))
        return found
    return detect


def _tokens(text: str) -> list[Finding]:
    return [Finding("api_key", m.start(), m.end()) for rx in _TOKEN_RES for m in rx.finditer(text)]


DETECTORS: list[Callable[[str], list[Finding]]] = [
    _regex("private_key", _PRIVATE_KEY_RE),
    _tokens,
    _regex("password", _PASSWORD_RE, "value"),
    _regex("resident_id", _ID_RE, check=valid_resident_id),
    _regex("mobile", _MOBILE_RE),
    _cards,
    _regex("email", _EMAIL_RE),
]


def detect(text: str) -> list[Finding]:
    """Every finding, sorted; overlapping findings are merged into the first (stronger) kind."""
    found: list[Finding] = []
    for detector in DETECTORS:
        for f in detector(text):
            if not any(f.start < g.end and g.start < f.end for g in found):
                found.append(f)
    return sorted(found, key=lambda f: f.start)


