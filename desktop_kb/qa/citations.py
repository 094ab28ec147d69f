"""Citation validation for model answers (I10).

Markers are ``[n]`` (also ``[1, 2]``, ``[1][2]`` and full-width ``【1】``).
A number that matches no sent snippet is removed and the answer is flagged;
an answer without any valid marker is "unsupported" and is shown next to the
hit list rather than instead of it.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field

_MARKER_RE = re.compile(r"[\[【]\s*(\d{1,3}(?:\s*[,，、]\s*\d{1,3})*)\s*[\]】]")

FLAG_INVALID = "invalid_citations_removed"
FLAG_UNSUPPORTED = "unsupported"


@dataclass
class Validated:
    text: str
    cited: list[int] = field(default_factory=list)  # valid numbers in order of first use
    removed: list[int] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)


def validate_answer(text: str, valid: Collection[int]) -> Validated:
    valid_set = set(valid)
    out = Validated(text="")
    cited: dict[int, None] = {}
    removed: dict[int, None] = {}

    def replace(m: re.Match[str]) -> str:
        numbers = [int(x) for x in re.split(r"\s*[,，、]\s*", m.group(1).strip())]
        keep = [n for n in numbers if n in valid_set]
        for n in numbers:
            (cited if n in valid_set else removed)[n] = None
        return "".join(f"[{n}]" for n in keep)

    cleaned = _MARKER_RE.sub(replace, text)
    cleaned = re.sub(r"[ \t]+([。，．.,;；])", r"\1", cleaned) if removed else cleaned
    out.text = cleaned
    out.cited = list(cited)
    out.removed = list(removed)
    if removed:
        out.flags.append(FLAG_INVALID)
    if not cited:
        out.flags.append(FLAG_UNSUPPORTED)
    return out


def markers(text: str) -> list[int]:
    """Every cited number in ``text`` in order (duplicates kept)."""
    found: list[int] = []
    for m in _MARKER_RE.finditer(text):
        found += [int(x) for x in re.split(r"\s*[,，、]\s*", m.group(1).strip())]
    return found
