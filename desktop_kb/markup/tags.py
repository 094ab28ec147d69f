"""``#tags`` in a note's body: ``#docker``, ``#中文标签``, nested ``#study/rust``.

What is *not* a tag, so the tag pane stays clean:

* headings (``# Title``, ``## 步骤``): a space follows the hashes;
* ``C#``, ``F#``, ``issue#12``, ``&#39;``: the ``#`` follows a letter, digit or ``&``;
* ``#123``, ``#2024-05``: all digits and dashes (issue numbers, dates);
* anything inside code spans, fences, URLs (``https://x.org/#part``) and link
  targets (``[see](#usage)``); ``\\#escaped``.

A tag ends at whitespace or punctuation (``#标签，`` → ``标签``); its body is
letters (any script), digits, ``_``, ``-`` and ``/`` (nesting). Language names keep
their signs: ``#C++``, ``#Notepad++`` and ``#C#`` are those, not ``#C`` (a Latin body
may end in ``+``/``++``; a one-letter one in ``#``); ``#话题#`` stays ``话题``. Tags compare
case-insensitively and NFKC-folded (``#Docker`` = ``#docker`` = ``#ｄｏｃｋｅｒ``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from desktop_kb.markup.literal import LiteralMask

# "#" + a body that starts with a non-separator; "/" only between parts.
_TAG_RE = re.compile(r"#([^\W](?:[^\W]|-)*(?:/(?:[^\W]|-)+)*)")
_ALL_NUMERIC_RE = re.compile(r"[\d\-_]+")
# After a Latin letter or digit: "++" or "+" (C++, Notepad++), or "#" after one letter (C#, F#),
# when nothing word-like follows.
_SIGN_RE = re.compile(r"\+\+?(?![\w+#])|#(?![\w#])")
MAX_TAG_CHARS = 100


@dataclass(frozen=True)
class Tag:
    start: int  # offset of the "#"
    end: int
    name: str  # as typed, without "#"

    @property
    def key(self) -> str:
        return tag_key(self.name)


def tag_key(name: str) -> str:
    """The form tags are stored and compared in: NFKC, case-folded, no leading "#" or slashes."""
    return unicodedata.normalize("NFKC", name).casefold().strip().lstrip("#").strip("/")


def ancestors(key: str) -> list[str]:
    """"a/b/c" → ["a", "a/b"]: a note tagged ``#a/b`` also counts under ``#a``."""
    parts = key.split("/")
    return ["/".join(parts[:i]) for i in range(1, len(parts))]


def _may_start_at(text: str, i: int) -> bool:
    if i == 0:
        return True
    before = text[i - 1]
    return not (before.isalnum() or before in "_&#\\/=@$%^*+.-:'`\"")


def parse_tags(text: str, mask: LiteralMask | None = None) -> list[Tag]:
    mask = mask or LiteralMask.of(text)
    tags: list[Tag] = []
    for m in _TAG_RE.finditer(text):
        if not _may_start_at(text, m.start()) or mask.covers(m.start()):
            continue
        name = m.group(1).rstrip("-_")
        if len(name) == len(m.group(1)) and name[-1].isascii() and name[-1].isalnum():
            sign = _SIGN_RE.match(text, m.end())
            if sign and (sign.group() != "#" or len(name) == 1) and not mask.covers(m.end()):
                name += sign.group()
        if not name or _ALL_NUMERIC_RE.fullmatch(name) or len(name) > MAX_TAG_CHARS:
            continue
        tags.append(Tag(m.start(), m.start() + 1 + len(name), name))
    return tags


def note_tags(text: str, mask: LiteralMask | None = None) -> dict[str, str]:
    """Distinct tags of a text: key → the spelling first used."""
    found: dict[str, str] = {}
    for tag in parse_tags(text, mask):
        found.setdefault(tag.key, tag.name)
    return found
