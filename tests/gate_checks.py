"""What the gate's family tests ask of ``detect``: the findings as (kind, text), and whether a
secret is withheld whole."""

from __future__ import annotations

from desktop_kb.qa.detectors import detect


def found(text: str) -> list[tuple[str, str]]:
    return [(f.kind, text[f.start:f.end]) for f in detect(text)]


def withheld(text: str, secret: str, *, spaces_may_pass: bool = True) -> bool:
    """Every character of every occurrence of ``secret`` is inside a finding (but spaces, unless
    ``spaces_may_pass`` is False)."""
    findings = detect(text)
    pos = text.find(secret)
    assert pos >= 0, secret
    while pos >= 0:
        if not all((spaces_may_pass and text[i].isspace()) or any(f.start <= i < f.end for f in findings)
                   for i in range(pos, pos + len(secret))):
            return False
        pos = text.find(secret, pos + 1)
    return True
