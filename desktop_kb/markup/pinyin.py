"""Toneless pinyin readings of Han characters, for finding "安装" by typing "anzhuang" or "az".

Every reading of a character is kept (重 → zhong, chong, tong), so a title is
found whichever reading the person has in mind; no phrase dictionary is needed
for matching. The table is xpinyin's ``Mandarin.dat`` (MIT), read once, lazily.
"""

from __future__ import annotations

import functools
import re
from importlib import resources

_READING_RE = re.compile(r"[A-Z]+")


@functools.cache
def _table() -> dict[int, tuple[str, ...]]:
    """Code point → readings; empty when the table is missing (matching then skips pinyin)."""
    try:
        raw = (resources.files("xpinyin") / "Mandarin.dat").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, OSError):
        return {}
    table: dict[int, tuple[str, ...]] = {}
    for line in raw.splitlines():
        code, _tab, readings = line.partition("\t")
        if not readings:
            continue
        found = tuple(dict.fromkeys(r.lower() for r in _READING_RE.findall(readings)))
        if found:
            table[int(code, 16)] = found
    return table


def readings(char: str) -> tuple[str, ...]:
    """Every toneless reading of one character; () for anything that is not Han."""
    return _table().get(ord(char), ()) if len(char) == 1 else ()


def available() -> bool:
    return bool(_table())
