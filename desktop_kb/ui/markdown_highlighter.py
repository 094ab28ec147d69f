"""Light Markdown highlighting: headings, emphasis, code, links, lists, quotes.

Line-local regexes only (plus fenced code state), so highlighting a long
note stays cheap on the GUI thread.
"""

from __future__ import annotations

import re

from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat, QTextDocument

from desktop_kb.ui.text_offsets import to_utf16


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


class MarkdownHighlighter(QSyntaxHighlighter):
    _RULES = [
        (re.compile(r"^\s{0,3}#{1,6}\s.*$"), _fmt("#1f4e8c", bold=True)),
        (re.compile(r"^\s*(?:[-*+]|\d+[.)])\s"), _fmt("#b35c00", bold=True)),
        (re.compile(r"^\s*>.*$"), _fmt("#5b6b5b", italic=True)),
        (re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1"), _fmt("#222222", bold=True)),
        (re.compile(r"(?<![*\w])\*(?=\S)([^*]+?)(?<=\S)\*(?!\*)"), _fmt("#333333", italic=True)),
        (re.compile(r"`[^`]+`"), _fmt("#a0306e", mono=True)),
        (re.compile(r"\[[^\]]+\]\([^)]+\)"), _fmt("#2f6fb3")),
    ]
    _FENCE = re.compile(r"^\s*(```|~~~)")
    _CODE = _fmt("#6a4c9c", mono=True)

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)

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

