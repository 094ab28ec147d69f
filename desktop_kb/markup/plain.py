"""Markdown markers stripped from a snippet for display, with highlight offsets carried along.

Search snippets are cut from the source text ("## 步骤\n**先**备份"); shown as
they are, the markers read as noise. This drops heading hashes, quote and
list markers, emphasis and code marks, code-fence lines (```` ```console ````),
link syntax (keeping the link text, inline or ``[text][ref]``), ``[[target|label]]``
(keeping the label) and inline HTML tags (``<span class="caption">``, ``</span>``:
the Rust book's captions), and maps every kept character back to its offset so
highlights still land on the right words. Inside a code span only its backticks
go: ``__init__`` and ``2**3`` stay as written, and ``Rc<T>`` is never a tag.
Character references outside code spans read as their characters (``&vert;`` as "|").
"""

from __future__ import annotations

import html
import re

# Quote marks (nested too), then a heading or list marker: "> ### 栈与堆" reads "栈与堆".
_LINE_MARK_RE = re.compile(
    r"^[ \t]*(?:>[ \t]?)*(?:#{1,6}[ \t]+|(?:[-*+]|\d+[.)])[ \t]+)?", re.MULTILINE)
_FENCE_LINE_RE = re.compile(r"^ {0,3}(?:`{3,}|~{3,})[^\n]*\n?", re.MULTILINE)
_CODE_SPAN_RE = re.compile(r"(?<!`)(`+)(?!`)([^\n]+?)(?<!`)\1(?!`)")
_WIKI_RE = re.compile(r"\[\[([^\[\]\n|]*)(?:\|([^\[\]\n]*))?\]\]")
_LINK_RE = re.compile(r"!?\[([^\[\]\n]*)\](?:\([^()\s]*(?:\s+\"[^\"]*\")?\)|\[[^\[\]\n]*\])")
# Closing tags, tags with a quoted attribute, a few bare ones and comments: generics such
# as ``Vec<String>``, ``Pin<P>`` or ``Box<dyn Error>`` are none of these.
_HTML_TAG_RE = re.compile(
    r"</[a-z][a-z0-9]*\s*>"
    r"|<[a-z][a-z0-9]*(?:\s+[a-zA-Z_:][-a-zA-Z0-9_:.]*\s*=\s*(?:\"[^\"\n]*\"|'[^'\n]*'))+\s*/?>"
    r"|<(?:br|hr|wbr|span|div|sup|sub|kbd|em|strong|code|pre|small|figure|figcaption|details|summary)\s*/?>"
    r"|<!--.*?-->")
# Strong and strikethrough only as a pair ("2**3" is arithmetic); lone marks as before.
# Emphasis with one underscore too, as Markdown reads it: not inside a word (snake_case stays),
# "（_multiple producer, single consumer_）" reads without its marks.
_PAIR_RE = re.compile(r"(?<!\*)(\*\*|~~)(?=[^\s*~])[^\n]*?[^\s*~]\1(?!\*)|(?<!\w)(__)(?=\S)[^\n]*?\S__(?!\w)"
                      r"|(?<![\w_])(_)(?=[^\s_])[^\n_]*?[^\s_]_(?![\w_])")
_MARK_RE = re.compile(r"`+|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])")
# Character references, as Markdown reads them outside code spans: the Rust book writes its
# operator table's "|" as <code>&vert;</code> so the table's own bars stay columns.
_ENTITY_RE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def strip_markdown(text: str) -> tuple[str, list[int]]:
    """(plain text, source offset of each plain character)."""
    drop = bytearray(len(text))  # 1 = not shown
    code = bytearray(len(text))  # 1 = inside a code span: shown as written

    def mark(a: int, b: int) -> None:
        drop[a:b] = b"\x01" * (b - a)

    def in_code(m: re.Match[str]) -> bool:
        return any(code[m.start():m.end()])

    for m in _FENCE_LINE_RE.finditer(text):
        mark(*m.span())
    for m in _CODE_SPAN_RE.finditer(text):
        if any(drop[m.start():m.end()]):
            continue
        mark(*m.span(1))
        mark(m.end(2), m.end())
        code[m.start(2):m.end(2)] = b"\x01" * (m.end(2) - m.start(2))
    for m in _WIKI_RE.finditer(text):
        if in_code(m):
            continue
        keep = m.span(2) if m.group(2) else m.span(1)
        mark(m.start(), keep[0])
        mark(keep[1], m.end())
    for m in _LINK_RE.finditer(text):
        # A link that starts in code or a fence line is code; one whose text is code
        # ("[`drop`][drop]", as the Rust book writes its API links) is a link.
        if drop[m.start()] or code[m.start()]:
            continue
        mark(m.start(), m.start(1))
        mark(m.end(1), m.end())
    for m in _HTML_TAG_RE.finditer(text):
        if not in_code(m):
            mark(*m.span())
    for m in _LINE_MARK_RE.finditer(text):
        mark(*m.span())
    for m in _PAIR_RE.finditer(text):
        if not in_code(m):
            width = len(m.group(1) or m.group(2) or m.group(3))
            mark(m.start(), m.start() + width)
            mark(m.end() - width, m.end())
    for m in _MARK_RE.finditer(text):
        if not in_code(m):
            mark(*m.span())
    shown: dict[int, str] = {}  # a character reference's first character -> what it reads as
    if "&" in text:
        for m in _ENTITY_RE.finditer(text):
            if drop[m.start()] or code[m.start()]:
                continue
            char = html.unescape(m.group())
            if char != m.group():
                shown[m.start()] = char
                mark(m.start() + 1, m.end())
    kept = [i for i in range(len(text)) if not drop[i]]
    if not shown:
        return "".join(text[i] for i in kept), kept
    plain: list[str] = []
    origin: list[int] = []
    for i in kept:
        piece = shown.get(i, text[i])
        plain.append(piece)
        origin.extend([i] * len(piece))
    return "".join(plain), origin


_FENCE_OPEN_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def html_hidden(text: str) -> tuple[str, list[int]]:
    """Markdown source with its inline HTML as a reader sees it: (text, source offset of each
    character shown).

    The document reader shows the Markdown as written, but Markdown lets HTML through and a
    browser never shows the tags: the Rust book's ``<span class="caption">示例 15-17: …</span>``
    read as markup in the middle of the chapter. Tags and comments go and character
    references read as their characters (``<code>&vert;</code>`` → "|"); nothing inside a
    fenced block or a code span changes (``<h1>`` in an HTML listing, ``Vec<String>``).
    """
    if "<" not in text and "&" not in text:
        return text, list(range(len(text)))
    drop = bytearray(len(text))
    code = bytearray(len(text))
    fence = ""
    pos = 0
    for line in text.splitlines(keepends=True):  # fenced blocks, fence lines included
        opened = _FENCE_OPEN_RE.match(line)
        if fence or opened:
            code[pos:pos + len(line)] = b"\x01" * len(line)
            if not fence:
                fence = opened.group(1)  # type: ignore[union-attr]
            elif line.strip().startswith(fence) and not line.strip().strip(fence[0]):
                fence = ""
        pos += len(line)
    for m in _CODE_SPAN_RE.finditer(text):
        if not any(code[m.start():m.end()]):
            code[m.start():m.end()] = b"\x01" * (m.end() - m.start())
    for m in _HTML_TAG_RE.finditer(text):
        if not any(code[m.start():m.end()]):
            drop[m.start():m.end()] = b"\x01" * (m.end() - m.start())
    shown: dict[int, str] = {}
    for m in _ENTITY_RE.finditer(text):
        if not code[m.start()] and not drop[m.start()]:
            char = html.unescape(m.group())
            if char != m.group():
                shown[m.start()] = char
                drop[m.start() + 1:m.end()] = b"\x01" * (m.end() - m.start() - 1)
    out: list[str] = []
    origin: list[int] = []
    for i, ch in enumerate(text):
        if not drop[i]:
            piece = shown.get(i, ch)
            out.append(piece)
            origin.extend([i] * len(piece))
    return "".join(out), origin


def plain_title(title: str) -> str:
    """A heading path as a reader sees it: "`Rc<T>` 引用计数" → "Rc<T> 引用计数".

    Only inline marks go (code, emphasis, links, tags); a title such as "1. 引言" or
    "- notes" keeps its start, unlike a snippet line.
    """
    if not any(c in title for c in "`*_~[<"):
        return title
    drop = bytearray(len(title))
    code = bytearray(len(title))
    for m in _CODE_SPAN_RE.finditer(title):
        drop[m.start(1):m.end(1)] = b"\x01" * len(m.group(1))
        drop[m.end(2):m.end()] = b"\x01" * (m.end() - m.end(2))
        code[m.start(2):m.end(2)] = b"\x01" * (m.end(2) - m.start(2))
    for pattern in (_LINK_RE, _HTML_TAG_RE, _PAIR_RE, _MARK_RE):
        for m in pattern.finditer(title):
            if any(code[m.start():m.end()]) or any(drop[m.start():m.end()]):
                continue
            if pattern is _LINK_RE:
                keep = m.span(1)
            elif pattern is _PAIR_RE:
                width = len(m.group(1) or m.group(2) or m.group(3))
                keep = (m.start() + width, m.end() - width)
            else:
                keep = (m.end(), m.end())
            drop[m.start():keep[0]] = b"\x01" * (keep[0] - m.start())
            drop[keep[1]:m.end()] = b"\x01" * (m.end() - keep[1])
    plain = "".join(c for c, d in zip(title, drop, strict=True) if not d)
    return " ".join(plain.split()) or title


def strip_with_spans(text: str, spans: list[tuple[int, int]]) -> tuple[str, list[tuple[int, int]]]:
    """Plain text and ``spans`` (offsets into ``text``) moved to offsets into the plain text.

    A span that is one Latin letter or digit is not shown: "Rc<T> 和 Arc<T>" lit every
    "T" in the hit list, which drew the eye to nothing.
    """
    import bisect

    plain, origin = strip_markdown(text)
    moved: list[tuple[int, int]] = []
    for a, b in spans:
        start = bisect.bisect_left(origin, a)
        end = bisect.bisect_left(origin, b)
        if end - start == 1 and plain[start].isascii() and plain[start].isalnum():
            continue
        if end > start:
            moved.append((start, end))
    return plain, moved


_HEADING_LINE_RE = re.compile(r"[ \t]*(?:#{1,6}[ \t]+)?([^\n]*?)[ \t#]*(?:\n+|$)")


def repeated_headings(snippet: str, title: str) -> int:
    """How many characters at the start of ``snippet`` only repeat headings of ``title``'s path
    (a passage keeps its bare parent headings as context: "# 什么是所有权？\n\n## 所有权规则\n\n首先")."""
    from desktop_kb.retrieval.locators import split_locator
    from desktop_kb.text.headings import split_part

    if not title:
        return 0
    base, _page, _end = split_locator(title)
    path = {plain_title(h).strip() for h in split_part(base)[0].split(" > ")} - {""}
    cut = 0
    while (m := _HEADING_LINE_RE.match(snippet, cut)) and m.end() > cut and m.end() < len(snippet.rstrip()):
        if plain_title(m.group(1)).strip() not in path:
            break
        cut = m.end()
    return cut
