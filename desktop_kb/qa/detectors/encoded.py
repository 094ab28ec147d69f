"""Text hidden in an encoding: base64 (also URL-safe), hex, percent-encoding, Base32 and Ascii85.

Encoding a secret hides it from every pattern (a Kubernetes ``Secret`` stores
its values in base64; people base64 a key "so scanners miss it"). So a run
that decodes to readable text is decoded and the decoded text goes through
the detectors again; what they find there withholds the whole run, named by
the kind found. Runs that decode to bytes (images, hashes, compressed data)
or to plain words ("Hello world") change nothing, so study text is judged as
before. Bytes are read the way programs write text into base64: UTF-8, UTF-16LE (PowerShell's
``-EncodedCommand``) and gzip (a ``.env`` kept as ``H4sI…`` in a CI variable).
"""

from __future__ import annotations

import base64
import binascii
import re
import urllib.parse
import zlib
from collections.abc import Iterator

from desktop_kb.text.han import HAN_CHARS

# (A run may start right after "NAME=": an environment line's value is often base64.)
_BASE64_RE = re.compile(r"(?:(?<![A-Za-z0-9+/=_-])|(?<=\w=))[A-Za-z0-9+/_-]{12,}={0,2}(?![A-Za-z0-9+/=_-])")
_HEX_RE = re.compile(r"(?<![0-9A-Za-z])(?:[0-9A-Fa-f]{2}){8,}(?![0-9A-Za-z])")
_PERCENT_RE = re.compile(r"(?:[A-Za-z0-9._~!*'()+@:=-]|%[0-9A-Fa-f]{2}){4,}")
# Base32 (RFC 4648, upper case, padded to eight): only a run that decodes to readable text counts, so a
# TOTP seed or an onion address (random bytes) and words in capitals pass as before.
_BASE32_RE = re.compile(r"(?<![A-Za-z0-9+/=])[A-Z2-7]{16,}={0,6}(?![A-Za-z0-9+/=])")
# Ascii85 as Adobe writes it, between <~ and ~> (PostScript, PDF streams, Python's a85encode(adobe=True)).
_ASCII85_RE = re.compile(r"<~[!-uz\s]{8,20000}~>")  # ("~" is no Ascii85 character: the run ends at it)
# What decoded text must look like to be read again: printable, mostly ASCII or Chinese.
# (Zero-width characters too: one typed into a value before it was encoded is still in it.)
_READABLE_RE = re.compile(rf"[\x20-\x7e\t\n\r{HAN_CHARS}\u3000-\u303f\uff00-\uffef\u200b-\u200f\u2060\ufeff]+")
MAX_RUN = 20_000  # a base64-encoded key file is a few KB; longer runs are data, not secrets


MAX_INFLATED = 65_536  # a gzip member is read this far at most (a small file, never a bomb)


def _readable(raw: bytes, _depth: int = 0) -> str | None:
    if raw[:2] == b"\x1f\x8b" and _depth == 0:
        try:  # gzip: the text it holds (wbits 16+: the gzip header)
            raw = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(raw, MAX_INFLATED)
        except zlib.error:
            return None
        return _readable(raw, 1)
    if len(raw) >= 12 and len(raw) % 2 == 0 and raw[1::2].count(0) >= 0.9 * (len(raw) // 2):
        try:  # UTF-16LE: PowerShell's -EncodedCommand, .NET's Encoding.Unicode
            text = raw.decode("utf-16-le")
        except UnicodeDecodeError:
            return None
    else:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return None
    if len(text) < 6 or _READABLE_RE.fullmatch(text) is None:
        return None
    return text


def _from_base64(run: str) -> str | None:
    core = run.rstrip("=")
    if len(core) % 4 == 1 or not re.search(r"[A-Z]", core) or not re.search(r"[a-z0-9]", core):
        return None  # impossible length; words in one case are names, not base64
    alphabet = "-_" if re.search(r"[-_]", core) else "+/"
    if alphabet == "-_" and re.search(r"[+/]", core):
        return None
    try:
        raw = base64.b64decode(core + "=" * (-len(core) % 4), altchars=alphabet.encode(), validate=True)
    except (binascii.Error, ValueError):
        return None
    return _readable(raw)


_PROSE_RE = re.compile(rf"[{HAN_CHARS}]|[A-Za-z]+[ ,.!?]+[A-Za-z{HAN_CHARS}]")


def base64_of_prose(run: str) -> bool:
    """Whether ``run`` is base64 of sentences ("Hello, 世界! 学习编码"): an exercise's or an example's text. What
    such text holds is read by the detectors anyway (:func:`encoded_runs`)."""
    decoded = _from_base64(run)
    return decoded is not None and _PROSE_RE.search(decoded) is not None


def encoded_runs(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, decoded text) for every run of ``text`` that decodes to readable text."""
    for m in _BASE64_RE.finditer(text):
        if len(m.group(0)) <= MAX_RUN and (decoded := _from_base64(m.group(0))) is not None:
            yield m.start(), m.end(), decoded
    for m in _HEX_RE.finditer(text):
        if len(m.group(0)) <= MAX_RUN and (decoded := _readable(bytes.fromhex(m.group(0)))) is not None:
            yield m.start(), m.end(), decoded
    for m in _BASE32_RE.finditer(text):
        if len(m.group(0)) % 8 == 0 and (decoded := _from_base32(m.group(0))) is not None:
            yield m.start(), m.end(), decoded
    if "<~" in text:
        for m in _ASCII85_RE.finditer(text):
            try:
                raw = base64.a85decode(m.group(0), adobe=True)
            except ValueError:
                continue
            if (decoded := _readable(raw)) is not None:
                yield m.start(), m.end(), decoded
    if "%" in text:
        for m in _PERCENT_RE.finditer(text):
            run = m.group(0)
            if run.count("%") >= 2 and (decoded := _from_percent(run)) is not None:
                yield m.start(), m.end(), decoded


def _from_base32(run: str) -> str | None:
    try:
        return _readable(base64.b32decode(run))
    except (binascii.Error, ValueError):
        return None


def decode_bytes(raw: bytes) -> str | None:
    """Readable text in decoded bytes (UTF-8, UTF-16LE or gzip of either), else None."""
    return _readable(raw)


def _from_percent(run: str) -> str | None:
    try:
        decoded = urllib.parse.unquote(run, errors="strict")
    except UnicodeDecodeError:
        return None
    return decoded if decoded != run else None
