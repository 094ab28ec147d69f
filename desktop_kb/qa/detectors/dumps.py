"""Secrets inside a tool's rendering of bytes: hex dumps, uuencoded files, quoted-printable mail.

``hexdump -C``, ``xxd`` and ``tcpdump -X`` print a file or a packet as offsets, hex bytes and an ASCII
column cut every 16 bytes; ``uuencode`` (old mail clients, a forwarded attachment) turns a file into
lines of printable characters; a saved e-mail in quoted-printable breaks a long line with ``=`` and
writes ``=3D`` for ``=``. A key in any of them matches no pattern, and its printable pieces are cut
apart. Each rendering is decoded back to its bytes, the bytes read as text are judged like any other,
and a finding there withholds the whole dump or block (both columns: the ASCII column spells the key
in pieces) or, for quoted-printable, the characters that spell it.
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Callable, Iterator, Sequence

from desktop_kb.qa.detectors.base import Finding
from desktop_kb.qa.detectors.encoded import decode_bytes

# An offset (4 to 8 hex digits, perhaps 0x and a colon), then 2 to 16 bytes as hex pairs (hexdump -C, tcpdump
# -X's pairs) or 1 to 8 groups of four hex digits (xxd, tcpdump -X); the ASCII column after is left.
_DUMP_LINE_RE = re.compile(
    r"(?m)^[ \t]*(?:0x)?[0-9a-fA-F]{4,8}:?[ \t]+(?P<hex>(?:[0-9a-fA-F]{2}[ \t]{1,2}){1,15}[0-9a-fA-F]{2}(?![0-9A-Fa-f])|"
    r"(?:[0-9a-fA-F]{4}[ \t]){0,7}[0-9a-fA-F]{2,4}(?![0-9A-Fa-f]))[^\n]*$")
_UU_BLOCK_RE = re.compile(r"(?m)^begin[ \t]+[0-7]{3,4}[ \t]+\S[^\n]*\n(?P<body>(?:[^\n]*\n){1,400}?)[ \t]*`?[ \t]*\n?end[ \t]*$")
_QP_SOFT_RE = re.compile(r"=\r?\n|=[0-9A-F]{2}")


def _decoded_findings(raw: bytes, detect_excerpt: Callable[[str], Sequence[Finding]]) -> Sequence[Finding]:
    text = decode_bytes(raw)
    if text is None:
        text = raw.decode("latin-1")
    return detect_excerpt(text) if text.strip() else []


def _hex_dumps(text: str, detect_excerpt: Callable[[str], Sequence[Finding]]) -> Iterator[Finding]:
    run: list[re.Match[str]] = []
    for m in [*_DUMP_LINE_RE.finditer(text), None]:
        if m is not None and (not run or text.count("\n", run[-1].end(), m.start()) <= 1):
            run.append(m)
            continue
        if run and (len(run) >= 2 or len(re.sub(r"\s", "", run[0].group("hex"))) >= 16):
            raw = bytes.fromhex("".join(re.sub(r"\s", "", r.group("hex")) for r in run))
            found = _decoded_findings(raw, detect_excerpt)
            if found:
                yield Finding(min(found, key=lambda f: f.start).kind, run[0].start(), run[-1].end())
        run = [m] if m is not None else []


def _uuencoded(text: str, detect_excerpt: Callable[[str], Sequence[Finding]]) -> Iterator[Finding]:
    for m in _UU_BLOCK_RE.finditer(text):
        raw = b""
        for line in m.group("body").split("\n"):
            if not line.strip() or line.strip() == "`":
                continue
            try:
                raw += binascii.a2b_uu(line)
            except binascii.Error:
                raw = b""
                break
        if raw and (found := _decoded_findings(raw, detect_excerpt)):
            yield Finding(found[0].kind, m.start("body"), m.end("body"))


def _quoted_printable(text: str, detect_excerpt: Callable[[str], Sequence[Finding]]) -> Iterator[Finding]:
    pieces: list[str] = []
    origin: list[tuple[int, int]] = []
    pos = 0
    for m in _QP_SOFT_RE.finditer(text):
        for i in range(pos, m.start()):
            pieces.append(text[i])
            origin.append((i, i + 1))
        if m.group(0).startswith("=\n") or m.group(0).startswith("=\r"):
            if origin:  # (a soft break joins the lines: the break goes with the character before it)
                origin[-1] = (origin[-1][0], m.end())
        else:
            pieces.append(chr(int(m.group(0)[1:], 16)))
            origin.append((m.start(), m.end()))
        pos = m.end()
    if not origin:
        return
    for i in range(pos, len(text)):
        pieces.append(text[i])
        origin.append((i, i + 1))
    for f in detect_excerpt("".join(pieces)):
        if f.end > f.start:
            yield Finding(f.kind, origin[f.start][0], origin[f.end - 1][1])


def dump_findings(text: str, detect_excerpt: Callable[[str], Sequence[Finding]]) -> Iterator[Finding]:
    if "\n" not in text:
        return
    if re.search(r"(?m)^[ \t]*(?:0x)?[0-9a-fA-F]{4,8}:?[ \t]+[0-9a-fA-F]{2}", text):
        yield from _hex_dumps(text, detect_excerpt)
    if "begin " in text and "\nend" in text:
        yield from _uuencoded(text, detect_excerpt)
    if "quoted-printable" in text.lower() and "=\n" in text:
        yield from _quoted_printable(text, detect_excerpt)
