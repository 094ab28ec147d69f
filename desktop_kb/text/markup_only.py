"""Markup-only pieces: text that says nothing on its own and must not be a chunk of its own.

Books written for mdBook and other Markdown tools end chapters with blocks of
link-reference definitions (``[foo]: https://…``) and pull listings in with
directives inside a code fence (```` ```rust ```` / ``{{#rustdoc_include …}}`` /
```` ``` ````).  When the cutter puts such a block in a piece of its own, that
piece is found by nothing a person asks yet crowds dense results (its vector is
"generic"), and it is a citation that tells the reader nothing.  Like a bare
heading (``text.headings``), it is context for its neighbour: it is glued to the
piece before it (or after it, at the start of a span), so no text is lost and the
offsets stay exact.

A line counts as markup only if it is, as a whole, one of: a link-reference
definition whose destination looks like a link (a URL, a path, an anchor — not
prose), a ``{{#name …}}`` directive, or a code-fence line.  Footnote definitions
(``[^1]: …``) are content.  A piece is markup-only when every non-blank line is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["glue_markup_only", "is_markup_only", "is_markup_span", "may_hold_markup"]

_MARKUP_LINE = re.compile(
    r"[ \t]*(?:"
    # [label]: destination "optional title" — the destination must look like a link.
    r"\[(?!\^)[^\[\]\n]+\]:[ \t]*(?:<[^<>\n]*>|[^\s<>]*[/.#:][^\s<>]*)"
    r"(?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?"
    # {{#include path}}, {{#rustdoc_include path:anchor}}, {{#playground …}}
    r"|\{\{#[A-Za-z_][\w-]*(?:[ \t][^{}\n]*)?\}\}"
    # ``` / ~~~ fence lines, with or without an info string
    r"|(?:`{3,}|~{3,})[^`\n]*"
    r")[ \t]*\r?"
)


# A definition whose destination is on the next line, as CommonMark allows (the Rust book
# wraps long ones): "[stack-only-data-copy]:" then "ch04-01-what-is-ownership.html#…".
_LABEL_ONLY = re.compile(r"[ \t]*\[(?!\^)[^\[\]\n]+\]:[ \t]*\r?")


# A character every markup line holds (a definition's "[", a directive's "{", a fence's "`" or
# "~"): snippets judge a chunk's sentences one by one, and most lines hold none of them.
_MAY_BE_MARKUP = re.compile(r"[\[{`~]")


def _markup_flags(lines: Sequence[str]) -> list[bool]:
    """Which lines are markup; a label line and the destination line under it go together."""
    flags = [bool(_MARKUP_LINE.fullmatch(line)) for line in lines]
    for i in range(len(lines) - 1):
        if (not flags[i] and _LABEL_ONLY.fullmatch(lines[i])
                and _MARKUP_LINE.fullmatch(lines[i].rstrip() + " " + lines[i + 1].strip())):
            flags[i] = flags[i + 1] = True
    return flags


def is_markup_only(text: str) -> bool:
    """True if ``text`` has a non-blank line and every non-blank line is markup."""
    lines = text.split("\n")
    content = [flag for line, flag in zip(lines, _markup_flags(lines), strict=True) if line.strip()]
    return bool(content) and all(content)


def _lines_around(source: str, start: int, end: int) -> tuple[int, int, int, int]:
    """(start of the line before, start of the first line, end of the last line, end of the
    line after) of ``source[start:end]``; each only moves on as ``start`` and ``end`` do."""
    line_start = source.rfind("\n", 0, start) + 1
    line_end = source.find("\n", end)
    line_end = len(source) if line_end < 0 else line_end
    before = source.rfind("\n", 0, max(0, line_start - 1)) + 1 if line_start else line_start
    after = source.find("\n", line_end + 1) if line_end < len(source) else line_end
    after = len(source) if after < 0 else after
    return before, line_start, line_end, after


def may_hold_markup(source: str, start: int, end: int) -> bool:
    """False when no piece of ``source[start:end]`` can be :func:`is_markup_span`: the lines it
    reads (the piece's, one before and one after) hold no character a markup line needs."""
    before, _, _, after = _lines_around(source, start, end)
    return _MAY_BE_MARKUP.search(source, before, after) is not None


def is_markup_span(source: str, start: int, end: int) -> bool:
    """Markup only, in whole lines: a piece cut out of the middle of a line is not.

    The whole lines are judged, not the piece: the cutter trims any white space
    (an ideographic space too), but only spaces and tabs may stand before markup
    (\u3000 before a fence makes that line text). The lines just before and after
    are read too, so half of a definition written on two lines is still markup.
    """
    before, line_start, line_end, after = _lines_around(source, start, end)
    if source[line_start:start].strip() or source[end:line_end].strip():
        return False
    text = source[before:after]
    if not _MAY_BE_MARKUP.search(text):  # every markup line holds one of these
        return False
    lines = text.split("\n")
    flags = _markup_flags(lines)
    first = source.count("\n", before, line_start)  # the span's own lines among them
    last = first + source.count("\n", line_start, line_end)
    own = [flag for line, flag in zip(lines[first:last + 1], flags[first:last + 1], strict=True)
           if line.strip()]
    return bool(own) and all(own)


def glue_markup_only(
    source: str, spans: Sequence[tuple[int, int]], limit: int,
) -> list[tuple[int, int]]:
    """``spans`` (consecutive pieces of one section) with markup-only ones joined to a neighbour.

    A span is markup-only if it is whole lines that are all markup.
    A markup-only span joins the span before it; leading ones join the first
    span with content.  A join that would make a piece longer than ``limit``
    is not made (a wall of link definitions is then a piece in its own right,
    and a piece's size stays bounded).  If every span is markup-only, they are
    all there is and stay as they are.
    """
    markup = [is_markup_span(source, s, e) for s, e in spans]
    if all(markup) or not any(markup):
        return list(spans)
    out: list[tuple[int, int]] = []
    leading: list[tuple[int, int]] = []  # markup-only spans before any content
    for (s, e), is_markup in zip(spans, markup, strict=True):
        if is_markup and not out:
            leading.append((s, e))
        elif is_markup and e - out[-1][0] <= limit:
            out[-1] = (out[-1][0], e)
        elif leading and e - leading[0][0] <= limit:
            out.append((leading[0][0], e))
            leading = []
        else:
            out.extend(leading)
            leading = []
            out.append((s, e))
    return out
