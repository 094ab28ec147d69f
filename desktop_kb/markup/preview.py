"""Markdown for the preview: ``[[links]]`` and ``#tags`` become clickable Markdown links.

Qt renders standard Markdown only, so typed links are rewritten to
``[label](kb-note:TITLE#HEADING)`` and tags to ``[#tag](kb-tag:KEY)`` before
rendering; code and URLs are left exactly as they are.

A line break the person typed is a line break in the preview, as in other notes
apps: standard Markdown joins the lines of a paragraph ("。 标签：…" ran into the
line above, with a space between Chinese sentences), so each newline outside code
becomes a hard break (two trailing spaces; ignored where a block ends anyway).
"""

from __future__ import annotations

import re
from urllib.parse import quote, unquote

from desktop_kb.markup.literal import LiteralMask
from desktop_kb.markup.tags import parse_tags
from desktop_kb.markup.wiki_links import parse_wiki_links

NOTE_SCHEME = "kb-note"
TAG_SCHEME = "kb-tag"
_LABEL_ESCAPE_RE = re.compile(r"([\[\]\\*_`])")


def _label(text: str) -> str:
    return _LABEL_ESCAPE_RE.sub(r"\\\1", text)


def preview_markdown(text: str) -> str:
    mask = LiteralMask.of(text)
    edits: list[tuple[int, int, str]] = []
    for link in parse_wiki_links(text, mask):
        # "title#heading" travels whole (a title may hold "#"); a same-note heading as "#heading".
        target = quote(link.target, safe="") if link.title else f"#{quote(link.heading, safe='')}"
        edits.append((link.start, link.end, f"[{_label(link.label)}]({NOTE_SCHEME}:{target})"))
    taken = [(a, b) for a, b, _ in edits]
    for tag in parse_tags(text, mask):
        if any(a <= tag.start < b for a, b in taken):
            continue
        edits.append((tag.start, tag.end, f"[\\#{_label(tag.name)}]({TAG_SCHEME}:{quote(tag.key, safe='')})"))
    out: list[str] = []
    pos = 0

    def typed(a: int, b: int) -> str:
        return "".join("  \n" if c == "\n" and not mask.covers(a + i) else c
                       for i, c in enumerate(text[a:b])) if "\n" in text[a:b] else text[a:b]

    for start, end, replacement in sorted(edits):
        out.append(typed(pos, start))
        out.append(replacement)
        pos = end
    out.append(typed(pos, len(text)))
    return "".join(out)


def parse_note_url(url: str) -> str | None:
    """The ``[[…]]`` target text of a preview link ("title", "title#heading", "#heading")."""
    if not url.startswith(f"{NOTE_SCHEME}:"):
        return None
    rest = url[len(NOTE_SCHEME) + 1:]
    body, _hash, fragment = rest.partition("#")
    target = unquote(body)
    return f"#{unquote(fragment)}" if not target and fragment else target


def parse_tag_url(url: str) -> str | None:
    if not url.startswith(f"{TAG_SCHEME}:"):
        return None
    return unquote(url[len(TAG_SCHEME) + 1:])
