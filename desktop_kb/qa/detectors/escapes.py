"""Values written in escape sequences: ``\\u0031\\u0033…`` (JSON written with ASCII only, Python's
``json.dumps`` default), ``\\x41\\x49…`` (a "hidden" key in JavaScript), ``ohhpgl029\\u0040qq.com``.

A secret spelled in escapes matches no pattern, and neither does its neighbourhood (``"\\u5f20\\u4f1f"``
is a name, ``"\\u624b\\u673a"`` the word 手机). So the stretch of a line around the escapes is read again
with every escape decoded, labels and all, and each finding there is mapped back onto the characters
that spell it (a decoded escape's finding withholds its six characters).
Text without a backslash-u or backslash-x costs one substring test.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence

from desktop_kb.qa.detectors.base import Finding
from desktop_kb.qa.detectors.normalize import normalize

# (\" too: JSON kept as a string inside JSON or a log line, "{\"password\": \"…\"}", reads as JSON again)
# (and HTML's character references, &#x41; and &#65;: a key in a saved page's attribute, an address
# written so that crawlers cannot read it)
# (and octal, three digits: bash's $'\163\153…', printf '\163…', a C string: a key its writer hid from a glance)
_ESCAPE_RE = re.compile(r"\\(?:u(?P<u>[0-9a-fA-F]{4})|x(?P<x>[0-9a-fA-F]{2})|(?P<q>\")|(?P<o>[0-3][0-7]{2}))|"
                        r"&(?:#(?:[xX](?P<hx>[0-9a-fA-F]{1,6})|(?P<dec>\d{1,7}))|(?P<ent>quot|apos|amp|lt|gt));")
_ENTITIES = {"quot": '"', "apos": "'", "amp": "&", "lt": "<", "gt": ">"}  # (XML's named ones: Android's saved Wi-Fi)
_OCTAL_RE = re.compile(r"\\[0-3][0-7]{2}\\[0-3][0-7]{2}")  # (two in a row: "C:\123" alone is a path)
_AROUND = 100  # characters read on each side of a cluster of escapes (a label, the rest of the value)
_GAP = 64  # escapes closer than this share one stretch


def _stretches(text: str, escapes: list[re.Match[str]]) -> Iterator[tuple[int, int]]:
    start = end = -1
    for m in escapes:
        if start < 0 or m.start() - end > _GAP:
            if end > start:
                yield start, end
            start = m.start()
        end = m.end()
    if end > start:
        yield start, end


def escaped_findings(text: str, detect_excerpt: Callable[[str], Sequence[Finding]]) -> Iterator[Finding]:
    if "\\u" not in text and "\\x" not in text and '\\"' not in text and "&#" not in text and "&quot;" not in text \
            and ("\\" not in text or _OCTAL_RE.search(text) is None):
        return
    escapes = list(_ESCAPE_RE.finditer(text))
    for first, last in _stretches(text, escapes):
        line_start = text.rfind("\n", 0, first) + 1
        line_end = text.find("\n", last)
        start = max(line_start, first - _AROUND)
        end = min(len(text) if line_end < 0 else line_end, last + _AROUND)
        pieces: list[str] = []
        origin: list[tuple[int, int]] = []  # per decoded character: its span in ``text``
        pos = start
        for m in _ESCAPE_RE.finditer(text, start, end):
            for i in range(pos, m.start()):
                pieces.append(text[i])
                origin.append((i, i + 1))
            code = ord(_ENTITIES[m.group("ent")]) if m.group("ent") else ord('"') if m.group("q") \
                else int(m.group("dec")) if m.group("dec") \
                else int(m.group("o"), 8) if m.group("o") else int(m.group("u") or m.group("x") or m.group("hx"), 16)
            pieces.append(chr(code) if not 0xD800 <= code <= 0xDFFF and code < 0x110000 else "\ufffd")
            origin.append((m.start(), m.end()))
            pos = m.end()
        for i in range(pos, end):
            pieces.append(text[i])
            origin.append((i, i + 1))
        decoded = "".join(pieces)
        norm = normalize(decoded)  # (an escaped full-width digit reads as a digit, as typed text does)
        for f in detect_excerpt(norm.text):
            a, b = norm.span(f.start, f.end)
            if b > a:  # (a plain value under an escaped label "\u624b\u673a" counts too)
                yield Finding(f.kind, origin[a][0], origin[b - 1][1])


# ----- a value written as its characters' codes or in listed pieces ------------------------------------
# String.fromCharCode(78,120,…), bytes([115,107,…]).decode(), ''.join(map(chr, […])), ''.join(['8','7',…]),
# ['ghp_','R8x…'].join(''), new String(new char[]{'a','b',…}): code that builds a string the reader cannot
# see. The call is read as the string it makes, quoted, on its line (a label before it stays in view), and a
# finding there withholds the codes or pieces that spell it.
_NUMBERS = r"\d{1,7}(?:[ \t]*,[ \t]*\d{1,7}){3,300}"
_ITEMS = r"(?:[\"'][^\"'\n]{0,40}[\"'][ \t]*,[ \t]*){1,300}[\"'][^\"'\n]{0,40}[\"']"
_CODED_RE = re.compile(
    rf"(?:String\.fromCharCode|fromCharCode)[ \t]*\([ \t]*(?P<codes>{_NUMBERS})[ \t]*\)|"
    rf"bytes(?:array)?[ \t]*\([ \t]*\[[ \t]*(?P<bytes>{_NUMBERS})[ \t]*,?[ \t]*\][ \t]*\)[ \t]*\.decode\([^()\n]{{0,20}}\)|"
    rf"(?P<jp>[\"'][\"'][ \t]*\.[ \t]*join[ \t]*\([ \t]*)?map[ \t]*\([ \t]*chr[ \t]*,[ \t]*[\[(][ \t]*(?P<mapped>{_NUMBERS})"
    rf"[ \t]*,?[ \t]*[\])][ \t]*\)(?(jp)[ \t]*\))|"
    rf"(?P<sep>[\"'][^\"'\n]{{0,3}}[\"'])[ \t]*\.[ \t]*join[ \t]*\([ \t]*[\[(][ \t]*(?P<items>{_ITEMS})[ \t]*,?[ \t]*[\])][ \t]*\)|"
    rf"\[[ \t]*(?P<jsitems>{_ITEMS})[ \t]*\][ \t]*\.join[ \t]*\([ \t]*(?P<jssep>[\"'][^\"'\n]{{0,3}}[\"'])[ \t]*\)|"
    rf"new[ \t]+String[ \t]*\([ \t]*new[ \t]+char[ \t]*\[[ \t]*\][ \t]*\{{[ \t]*(?P<chars>{_ITEMS})[ \t]*\}}[ \t]*\)")
_CODE_RE = re.compile(r"\d+")
_ITEM_RE = re.compile(r"[\"'](?P<s>[^\"'\n]{0,40})[\"']")


def _spelled(m: re.Match[str]) -> list[tuple[str, int, int]] | None:
    """(piece of the string, start, end of what spells it) per piece, or None when it makes no text."""
    for group in ("codes", "bytes", "mapped"):
        if m.group(group) is not None:
            out = []
            for c in _CODE_RE.finditer(m.group(0), m.start(group) - m.start(), m.end(group) - m.start()):
                code = int(c.group(0))
                if not 32 <= code < 0x110000 or 0xD800 <= code <= 0xDFFF:
                    return None
                out.append((chr(code), m.start() + c.start(), m.start() + c.end()))
            return out
    group, sep = next((g, s) for g, s in (("items", "sep"), ("jsitems", "jssep"), ("chars", None))
                      if m.group(g) is not None)
    joint = m.group(sep)[1:-1] if sep else ""
    out = []
    for n, item in enumerate(_ITEM_RE.finditer(m.group(0), m.start(group) - m.start(), m.end(group) - m.start())):
        if n and joint:
            out.append((joint, m.start() + item.start(), m.start() + item.start() + 1))
        out.append((item.group("s"), m.start() + item.start(), m.start() + item.end()))  # (its quotes too)
    return out


def coded_findings(text: str, detect_excerpt: Callable[[str], Sequence[Finding]]) -> Iterator[Finding]:
    if "fromCharCode" not in text and ".decode(" not in text and "chr" not in text and "join" not in text \
            and "new String" not in text:
        return
    for m in _CODED_RE.finditer(text):
        pieces = _spelled(m)
        if not pieces:
            continue
        line_start = max(text.rfind("\n", 0, m.start()) + 1, m.start() - _AROUND)
        line_end = text.find("\n", m.end())
        line_end = min(len(text) if line_end < 0 else line_end, m.end() + _AROUND)
        chars: list[str] = []
        origin: list[tuple[int, int]] = []
        for i in range(line_start, m.start()):
            chars.append(text[i])
            origin.append((i, i + 1))
        chars.append('"')
        origin.append((m.start(), m.start() + 1))
        for piece, start, end in pieces:
            for ch in piece:
                chars.append(ch)
                origin.append((start, end))
        chars.append('"')
        origin.append((m.end() - 1, m.end()))
        for i in range(m.end(), line_end):
            chars.append(text[i])
            origin.append((i, i + 1))
        norm = normalize("".join(chars))
        for f in detect_excerpt(norm.text):
            a, b = norm.span(f.start, f.end)
            if b > a and origin[b - 1][1] > m.start() and origin[a][0] < m.end():
                yield Finding(f.kind, origin[a][0], origin[b - 1][1])


# ----- a value inside markup -------------------------------------------------------------------------
# "密码：\texttt{Qwer9306@yu}", "Password: <code>…</code>", "[b]Passwort:[/b] [code]…[/code]", "Key: ``…``":
# LaTeX, HTML, BBCode or reST around a label or a value is no part of either. The text is read once more
# with the markup taken out (a LaTeX command's closing brace too), and what is found there is mapped back.
_MARKUP_TOKEN_RE = re.compile(
    r"\\(?P<tex>texttt|textbf|textit|textsf|textrm|emph|code|url|path|lstinline|mbox|underline|text|ttfamily)\{|"
    r"</?(?:code|b|strong|i|em|kbd|samp|tt|var|mark|u|s|span|font|pre|td|th|li|p|div|label|small|big|sup|sub)"
    r"(?:[ \t][^<>\n]{0,120})?/?>|\[/?(?:code|b|i|u|s|tt|kbd|quote|color(?:=[#\w]{1,20})?|font(?:=[\w ]{1,20})?)\]|``")


# A value wrapped whole (no space inside): only the lines that hold one are read again, with the line above
# (a label over a value), so a page or a book full of markup costs the lines that matter.
_WRAPPED_RE = re.compile(
    r"\\(?:texttt|textbf|textit|textsf|emph|code|url|path|lstinline|mbox|text)\{[^{}\s]{4,200}\}|"
    r"<(?P<tag>code|b|strong|kbd|samp|tt|var|mark|span|font|td|i|em|u|s)(?:[ \t][^<>\n]{0,120})?>[^<>\s]{4,200}</(?P=tag)>|"
    r"\[(?P<bb>code|b|i|u|tt|kbd)\][^\[\]\s]{4,200}\[/(?P=bb)\]|``[^`\s]{4,200}``")


def markup_findings(text: str, detect_excerpt: Callable[[str], Sequence[Finding]]) -> Iterator[Finding]:
    if "\\" not in text and "<" not in text and "[" not in text and "``" not in text:
        return
    regions: list[tuple[int, int]] = []
    for m in _WRAPPED_RE.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        start = text.rfind("\n", 0, max(0, line_start - 1)) + 1 if line_start else 0
        end = text.find("\n", m.end())
        end = len(text) if end < 0 else end
        if regions and start <= regions[-1][1]:
            regions[-1] = (regions[-1][0], max(regions[-1][1], end))
        else:
            regions.append((start, end))
    for start, end in regions:
        yield from _unmarked(text, start, end, detect_excerpt)


def _unmarked(text: str, start: int, end: int, detect_excerpt: Callable[[str], Sequence[Finding]]) -> Iterator[Finding]:
    chars: list[str] = []
    origin: list[int] = []
    removed: list[tuple[int, int]] = []
    braces = 0  # LaTeX commands whose closing brace is still ahead (on their line)
    pos = start
    for m in [*_MARKUP_TOKEN_RE.finditer(text, start, end), None]:
        stop = end if m is None else m.start()
        for i in range(pos, stop):
            c = text[i]
            if c == "\n":
                braces = 0
            if c == "}" and braces:
                braces -= 1
                removed.append((i, i + 1))
                continue
            chars.append(c)
            origin.append(i)
        if m is None:
            break
        removed.append((m.start(), m.end()))
        braces += 1 if m.group("tex") else 0
        pos = m.end()
    for f in detect_excerpt("".join(chars)):
        if f.end <= f.start:
            continue
        a, b = origin[f.start], origin[f.end - 1] + 1
        if any(x <= b and a <= y for x, y in removed):  # only what the markup hid is new
            yield Finding(f.kind, a, b)
