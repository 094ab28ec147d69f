"""Citation validation for model answers (I10).

Models write citations in many shapes: ``[1]``, ``[1, 2]``, ``[1][2]``,
full-width ``［1］``, ``【1】`` and ``〔1〕``, footnotes ``[^1]``, ranges ``[1-3]``,
file-search markers ``[1†source]`` / ``【1:0†source】``, labelled ``[snippet 2]`` /
``[Source: 3]`` / ``[#2]``. Every shape is
normalised to ``[n]`` for each number that matches a sent snippet; a number
that matches none is removed and the answer is flagged, also when valid
markers sit next to it. An answer without any valid marker is "unsupported"
and is shown next to the hit list rather than instead of it. Brackets inside
code (``arr[1]``) and Markdown links (``[1](url)``) are not citations.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection
from dataclasses import dataclass, field

_NUM = r"[0-9０-９]{1,6}"
_SEP = r"\s*(?:[,，、;；]|[-–—~～]|and|&)\s*"
# Words models put before the number: "[snippet 2]", "[Source: 3]", "[#2]", "【来源 1】".
_LABEL = r"(?:(?i:snippets?|sources?|refs?|references?|citations?)|片段|来源|來源|资料|資料|引用|#)\s*[:：]?\s*"
_MARKER_RE = re.compile(
    rf"[\[［【〔]\s*\^?\s*(?:{_LABEL})?(?P<body>{_NUM}(?:{_SEP}{_NUM})*)\s*(?::\s*{_NUM})?\s*"
    rf"(?:†[^\]］】〕\n]{{0,80}})?[,，.。]?\s*[\]］】〕]"
    r"(?!\()")
_REPEAT_RE = re.compile(r"(\[\d+\])(?:\1)+")  # "[1][1]" says nothing "[1]" does not
_CODE_RE = re.compile(r"```.*?(?:```|\Z)|`[^`\n]*`", re.S)
MAX_RANGE = 200  # a wider "range" is two numbers, not an expansion

FLAG_INVALID = "invalid_citations_removed"
FLAG_UNSUPPORTED = "unsupported"


@dataclass
class Validated:
    text: str
    cited: list[int] = field(default_factory=list)  # valid numbers in order of first use
    removed: list[int] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)


def marker_numbers(body: str) -> list[int]:
    """The numbers one marker names, ranges expanded: "1-3" → [1, 2, 3], "２，5" → [2, 5]."""
    body = unicodedata.normalize("NFKC", body)
    numbers: list[int] = []
    for part in re.split(r"\s*(?:[,、;；]|and|&)\s*", body):
        bounds = [int(x) for x in re.split(r"\s*[-–—~～]\s*", part) if x.strip()]
        if len(bounds) == 2 and bounds[0] < bounds[1] and bounds[1] - bounds[0] <= MAX_RANGE:
            numbers += range(bounds[0], bounds[1] + 1)
        else:
            numbers += bounds
    return numbers


def _code_spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _CODE_RE.finditer(text)]


def validate_answer(text: str, valid: Collection[int]) -> Validated:
    valid_set = set(valid)
    cited: dict[int, None] = {}
    removed: dict[int, None] = {}
    code = _code_spans(text)

    def replace(m: re.Match[str]) -> str:
        if any(a <= m.start() < b for a, b in code):
            return m.group(0)
        numbers = marker_numbers(m.group("body"))
        keep = list(dict.fromkeys(n for n in numbers if n in valid_set))
        for n in numbers:
            (cited if n in valid_set else removed)[n] = None
        return "".join(f"[{n}]" for n in keep)

    cleaned = _REPEAT_RE.sub(r"\1", _MARKER_RE.sub(replace, text))
    if removed:
        cleaned = re.sub(r"[ \t]+([。，．.,;；])", r"\1", cleaned)
    out = Validated(text=cleaned, cited=list(cited), removed=list(removed))
    if removed:
        out.flags.append(FLAG_INVALID)
    if not cited:
        out.flags.append(FLAG_UNSUPPORTED)
    return out


def markers(text: str) -> list[int]:
    """Every cited number in ``text`` in order (duplicates kept), code excluded."""
    code = _code_spans(text)
    found: list[int] = []
    for m in _MARKER_RE.finditer(text):
        if not any(a <= m.start() < b for a, b in code):
            found += marker_numbers(m.group("body"))
    return found
