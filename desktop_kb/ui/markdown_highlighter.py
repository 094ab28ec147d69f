"""Light Markdown highlighting: headings, emphasis, code, links, lists, quotes, [[links]], #tags.

Line-local regexes only (plus fenced code state), so highlighting a long
note stays cheap on the GUI thread. Colours come in a light and a dark set;
a ``[[link]]`` to a note that does not exist yet is drawn dashed and muted.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat, QTextDocument

from desktop_kb.markup.literal import LiteralMask
from desktop_kb.markup.tags import parse_tags
from desktop_kb.markup.wiki_links import parse_wiki_links
from desktop_kb.ui.text_offsets import to_utf16

# name: (light, dark)
PALETTE: dict[str, tuple[str, str]] = {
    "heading": ("#1f4e8c", "#8ab4f8"),
    "bullet": ("#b35c00", "#f0a45d"),
    "quote": ("#5b6b5b", "#9fb39f"),
    "strong": ("#222222", "#f2f2f2"),
    "emphasis": ("#333333", "#e0e0e0"),
    "code": ("#a0306e", "#f28fbf"),
    "md_link": ("#2f6fb3", "#7fb0ea"),
    "fence": ("#6a4c9c", "#b9a2e6"),
    "wiki": ("#2f6fb3", "#7fb0ea"),
    "wiki_missing": ("#8a8a8a", "#9a9a9a"),
    "tag": ("#2e7d32", "#81c995"),
}


def _fmt(color: str, *, bold: bool = False, italic: bool = False, mono: bool = False) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setForeground(QColor(color))
    if bold:
        fmt.setFontWeight(QFont.Weight.Bold)
    if italic:
        fmt.setFontItalic(True)
    if mono:
        fmt.setFontFamilies(["monospace"])
    return fmt


def _rules(dark: bool) -> list[tuple[re.Pattern[str], QTextCharFormat]]:
    c = {name: pair[1 if dark else 0] for name, pair in PALETTE.items()}
    return [
        (re.compile(r"^\s{0,3}#{1,6}\s.*$"), _fmt(c["heading"], bold=True)),
        (re.compile(r"^\s*(?:[-*+]|\d+[.)])\s"), _fmt(c["bullet"], bold=True)),
        (re.compile(r"^\s*>.*$"), _fmt(c["quote"], italic=True)),
        (re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1"), _fmt(c["strong"], bold=True)),
        (re.compile(r"(?<![*\w])\*(?=\S)([^*]+?)(?<=\S)\*(?!\*)"), _fmt(c["emphasis"], italic=True)),
        (re.compile(r"`[^`]+`"), _fmt(c["code"], mono=True)),
        (re.compile(r"\[[^\]]+\]\([^)]+\)"), _fmt(c["md_link"])),
    ]


class MarkdownHighlighter(QSyntaxHighlighter):
    _FENCE = re.compile(r"^\s*(```|~~~)")

    def __init__(self, document: QTextDocument, resolves: Callable[[str], bool] | None = None) -> None:
        super().__init__(document)
        self._resolves = resolves
        self.set_dark(False)

    def set_dark(self, dark: bool) -> None:
        self.dark = dark
        c = {name: pair[1 if dark else 0] for name, pair in PALETTE.items()}
        self._RULES = _rules(dark)
        self._CODE = _fmt(c["fence"], mono=True)
        self._wiki = _fmt(c["wiki"])
        self._wiki.setFontUnderline(True)
        self._missing = _fmt(c["wiki_missing"])
        self._missing.setUnderlineStyle(QTextCharFormat.UnderlineStyle.DashUnderline)
        self._tag = _fmt(c["tag"])

    def set_resolver(self, resolves: Callable[[str], bool] | None) -> None:
        """Takes effect at the next (re)highlight; the owner decides when to redraw."""
        self._resolves = resolves

    def highlightBlock(self, text: str) -> None:  # noqa: N802 - Qt naming
        in_code = self.previousBlockState() == 1
        if self._FENCE.match(text):
            self.setFormat(0, len(text), self._CODE)
            self.setCurrentBlockState(0 if in_code else 1)
            return
        if in_code:
            self.setFormat(0, len(text), self._CODE)
            self.setCurrentBlockState(1)
            return
        self.setCurrentBlockState(0)
        for pattern, fmt in self._RULES:
            for match in pattern.finditer(text):
                start, end = to_utf16(text, match.start()), to_utf16(text, match.end())
                self.setFormat(start, end - start, fmt)
        if "[[" not in text and "#" not in text:
            return
        mask = LiteralMask.of(text)
        for link in parse_wiki_links(text, mask):
            found = not link.title or self._resolves is None or any(
                self._resolves(k) for k in link.candidate_keys)
            start, end = to_utf16(text, link.start), to_utf16(text, link.end)
            self.setFormat(start, end - start, self._wiki if found else self._missing)
        for tag in parse_tags(text, mask):
            start, end = to_utf16(text, tag.start), to_utf16(text, tag.end)
            self.setFormat(start, end - start, self._tag)

