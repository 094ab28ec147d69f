"""``[[wiki links]]`` in a note's Markdown: ``[[title]]``, ``[[title|label]]``, ``[[title#heading]]``.

A link's text is the person's own act of linking: the store keeps one link per
distinct target title (``desktop_kb.store.markup_sync``). Links inside code
spans, fences and URLs are text, not links. ``\\|`` inside a link is a literal
bar (needed in Markdown tables) and separates the label like ``|`` does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from desktop_kb.markup.literal import LiteralMask
from desktop_kb.markup.titles import title_key

# "[[", then anything but brackets and newlines, then "]]". An embed "![[…]]" is a link too.
_LINK_RE = re.compile(r"\[\[([^\[\]\n]+?)\]\]")
MAX_TITLE_CHARS = 200


@dataclass(frozen=True)
class WikiLink:
    start: int  # offsets of the whole "[[…]]" in the text
    end: int
    title: str  # as typed, trimmed; "" for a link to a heading of the same note
    heading: str  # "" when none
    label: str  # what the link reads as: the label, else "title > heading", else title
    target: str  # everything before "|", trimmed: "C# notes" may be a title with a "#"

    @property
    def key(self) -> str:
        return title_key(self.title)

    @property
    def candidate_keys(self) -> tuple[str, ...]:
        """Title keys to try in order: the whole target first, so "[[C# notes]]" can find "C# notes"."""
        keys = [title_key(self.target)] if self.heading and self.title else []
        if self.title:
            keys.append(self.key)
        return tuple(dict.fromkeys(k for k in keys if k))


def _split(inner: str) -> tuple[str, str, str, str]:
    target, bar, label = inner.replace("\\|", "|").partition("|")
    title, _hash, heading = target.partition("#")
    return target.strip(), title.strip(), heading.strip(), label.strip() if bar else ""


def parse_wiki_links(text: str, mask: LiteralMask | None = None) -> list[WikiLink]:
    """Every link outside code and URLs, in text order."""
    mask = mask or LiteralMask.of(text)
    links: list[WikiLink] = []
    for m in _LINK_RE.finditer(text):
        if mask.overlaps(m.start(), m.end()):
            continue
        target, title, heading, label = _split(m.group(1))
        if not title and not heading:
            continue
        if len(title) > MAX_TITLE_CHARS:
            continue
        shown = label or (f"{title} > {heading}" if title and heading else title or heading)
        links.append(WikiLink(m.start(), m.end(), title, heading, shown, target))
    return links


def link_at(text: str, offset: int) -> WikiLink | None:
    """The link whose brackets contain ``offset`` (for clicks and hovering in the editor)."""
    for link in parse_wiki_links(text):
        if link.start <= offset < link.end:
            return link
    return None


def target_keys(text: str) -> list[str]:
    """Distinct title keys the text may link to (same-note heading links left out)."""
    return list(dict.fromkeys(k for link in parse_wiki_links(text) for k in link.candidate_keys))


def open_link_prefix(text_before_cursor: str) -> str | None:
    """The partial title typed after an unclosed ``[[`` on the cursor's line, for autocomplete.

    None when the cursor is not inside an open link; "" right after ``[[``.
    Stops at ``|`` and ``#``: past them the person is typing a label or heading.
    """
    line = text_before_cursor.rsplit("\n", 1)[-1]
    start = line.rfind("[[")
    if start < 0 or "]]" in line[start:]:
        return None
    typed = line[start + 2:]
    if "|" in typed or "#" in typed or "[" in typed or "]" in typed:
        return None
    return typed


def _rewrite(original: str, link: WikiLink, new_title: str, whole: bool) -> str:
    """The link with its title replaced; heading, label and the bar's spelling kept."""
    inner = original[link.start + 2:link.end - 2]
    bar = inner.find("|")
    if bar > 0 and inner[bar - 1] == "\\":
        bar -= 1
    target, rest = (inner, "") if bar < 0 else (inner[:bar], inner[bar:])
    hash_at = -1 if whole else target.find("#")
    tail = "" if hash_at < 0 else target[hash_at:]
    return f"[[{new_title}{tail}{rest}]]"


def retarget(text: str, old_title: str, new_title: str) -> tuple[str, int]:
    """Point every link to ``old_title`` at ``new_title``, keeping headings and labels.

    Returns the new text and how many links changed. Links in code are untouched.
    """
    old = title_key(old_title)
    pieces: list[str] = []
    last = 0
    changed = 0
    for link in parse_wiki_links(text):
        whole = bool(link.heading) and title_key(link.target) == old
        if whole or (link.title and link.key == old):
            pieces.append(text[last:link.start])
            pieces.append(_rewrite(text, link, new_title.strip(), whole))
            last = link.end
            changed += 1
    pieces.append(text[last:])
    return "".join(pieces), changed
