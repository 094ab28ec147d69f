"""The machine-readable zone of a passport or ID card (the ``P<CHN…<<<`` lines under the photo).

An MRZ holds the document number, nationality, birth date and expiry, each
with a check digit (ICAO 9303: weights 7, 3, 1). A line whose document number,
birth date and expiry all check out is an MRZ line, and the zone — that line
and the MRZ lines next to it (the name line) — is withheld as a passport.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_kb.qa.detectors.base import PASSPORT, Finding

_MRZ_LINE_RE = re.compile(r"(?m)^[ \t]*(?P<v>[A-Z0-9<]{30,44})[ \t]*$")
# TD3 (passports, 44) and TD2 (36) second lines; TD1 (ID cards, 30) first line.
_TD3_TD2_RE = re.compile(r"(?P<doc>[A-Z0-9<]{9})(?P<dc>\d)[A-Z<]{3}(?P<dob>\d{6})(?P<bc>\d)[MFX<]"
                         r"(?P<exp>\d{6})(?P<ec>\d)")
_TD1_RE = re.compile(r"[A-Z][A-Z<][A-Z<]{3}(?P<doc>[A-Z0-9<]{9})(?P<dc>\d)")


def _check(field: str) -> int:
    def value(c: str) -> int:
        return int(c) if c.isdigit() else 0 if c == "<" else ord(c) - 55
    return sum(value(c) * (7, 3, 1)[i % 3] for i, c in enumerate(field)) % 10


def _valid(line: str) -> bool:
    m = _TD3_TD2_RE.match(line)
    if m is not None and len(line) in (36, 44):
        return all(_check(m.group(f)) == int(m.group(c)) for f, c in (("doc", "dc"), ("dob", "bc"), ("exp", "ec")))
    m = _TD1_RE.match(line)
    return m is not None and len(line) == 30 and "<" in line and _check(m.group("doc")) == int(m.group("dc"))


def machine_readable_zones(text: str) -> Iterator[Finding]:
    if "<<" not in text:
        return
    lines = list(_MRZ_LINE_RE.finditer(text))
    for i, m in enumerate(lines):
        if not _valid(m.group("v")):
            continue
        start, end = m.start("v"), m.end("v")
        # The zone's other lines sit right above and below (no blank line between).
        j = i
        while j > 0 and text.count("\n", lines[j - 1].end(), lines[j].start()) == 1:
            j -= 1
            start = lines[j].start("v")
        k = i
        while k + 1 < len(lines) and text.count("\n", lines[k].end(), lines[k + 1].start()) == 1:
            k += 1
            end = lines[k].end("v")
        yield Finding(PASSPORT, start, end)
