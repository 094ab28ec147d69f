"""The machine-readable zone of a passport, visa or ID card (the ``P<CHN…<<<`` lines under the photo).

An MRZ holds the document number, nationality, birth date and expiry, each
with a check digit (ICAO 9303: weights 7, 3, 1). A line whose document number,
birth date and expiry all check out is an MRZ line, and the zone — that line
and the MRZ lines next to it (the name line) — is withheld as a passport.

The zone arrives as OCR and copy-paste leave it: spaces between the
characters (``P < CHN ZHANG << SAN``), ``«`` for ``<``, inside quotes or after
a key (``"line2": "E12345678…"``), or both lines run into one. So each line
holding ``<<`` is read with its spaces taken out, and the document-number
line is looked for anywhere in it, not only at the line's start.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_kb.qa.detectors.base import PASSPORT, Finding

_MRZ_RUN_RE = re.compile(r"[A-Z0-9<]{30,}")
# TD3 (passports, visas MRV-A: 44) and TD2 (ID cards, visas MRV-B: 36) second lines; TD1 (ID cards, 30) first line.
_TD3_TD2_RE = re.compile(r"(?=(?P<doc>[A-Z0-9<]{9})(?P<dc>\d)[A-Z<]{3}(?P<dob>\d{6})(?P<bc>\d)[MFX<]"
                         r"(?P<exp>\d{6})(?P<ec>\d))")
_TD1_RE = re.compile(r"(?=[A-Z][A-Z<][A-Z<]{3}(?P<doc>[A-Z0-9<]{9})(?P<dc>\d)[A-Z0-9<]{15}(?![A-Z0-9<]))")
_ZONE_START_RE = re.compile(r"[A-Z0-9<«‹](?:[ \t]?[A-Z0-9<«‹]){9,}")


def _check(field: str) -> int:
    def value(c: str) -> int:
        return int(c) if c.isdigit() else 0 if c == "<" else ord(c) - 55
    return sum(value(c) * (7, 3, 1)[i % 3] for i, c in enumerate(field)) % 10


def _valid(run: str) -> bool:
    """Whether ``run`` (an MRZ-character run of one line, spaces taken out) holds a checked MRZ line."""
    for m in _TD3_TD2_RE.finditer(run):
        if all(_check(m.group(f)) == int(m.group(c)) for f, c in (("doc", "dc"), ("dob", "bc"), ("exp", "ec"))):
            return True
    return any(_check(m.group("doc")) == int(m.group("dc")) and "<" in run for m in _TD1_RE.finditer(run))


def _mrz_chars(line: str) -> str:
    return line.replace(" ", "").replace("\t", "").replace("«", "<").replace("‹", "<")


# An airline booking's passport line (SSR DOCS, the data sent to the border before the flight): document type,
# issuing country, number, nationality, birth date, sex, expiry, names — all of it the passport's.
_SSR_DOCS_RE = re.compile(r"(?:SSR|SR)[ \t]*DOCS[ \t]+(?:[A-Z0-9]{2}[ \t]+)?(?:HK|NN|KK)?\d?[ \t/]*"
                          r"(?P<v>[A-Z]{1,2}/[A-Z]{3}/[A-Z0-9]{5,20}/[A-Z]{3}/\d{2}[A-Z]{3}\d{2,4}/[A-Z]{1,2}/"
                          r"\d{2}[A-Z]{3}\d{2,4}(?:/[A-Z][A-Z -]*){0,3})")


def machine_readable_zones(text: str) -> Iterator[Finding]:
    if "DOCS" in text:
        yield from (Finding(PASSPORT, m.start("v"), m.end("v")) for m in _SSR_DOCS_RE.finditer(text))
    if "<<" not in text and "< <" not in text and "«" not in text:
        return
    lines = []  # (start, end, holds a checked line) of the lines that look like a zone's
    pos = 0
    while pos <= len(text):
        nl = text.find("\n", pos)
        nl = len(text) if nl < 0 else nl
        if text.count("<", pos, nl) + text.count("«", pos, nl) >= 2:
            runs = _MRZ_RUN_RE.findall(_mrz_chars(text[pos:nl]))
            zone = _ZONE_START_RE.search(text, pos, nl)
            if runs and zone is not None:
                end = nl - (nl - pos - len(text[pos:nl].rstrip(" \t\"',`|]})")))
                lines.append((zone.start(), end, any(_valid(r) for r in runs)))
        pos = nl + 1
    for i, (start, end, valid) in enumerate(lines):
        if not valid:
            continue
        # The zone's other lines sit right above and below (no blank line between).
        j = i
        while j > 0 and text.count("\n", lines[j - 1][1], lines[j][0]) == 1:
            j -= 1
            start = lines[j][0]
        k = i
        while k + 1 < len(lines) and text.count("\n", lines[k][1], lines[k + 1][0]) == 1:
            k += 1
            end = lines[k][1]
        yield Finding(PASSPORT, start, end)
