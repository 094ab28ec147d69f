"""A value decoded at run time: ``API_KEY = base64.b85decode("…").decode()``, ``bytes.fromhex('…')``,
``atob('…')``, ``Buffer.from('…', 'base64')``, ``[Convert]::FromBase64String('…')``.

People encode a key "so it is not in the repository in plain text". The decoded value alone is often
just a random string, which says nothing without the name it is assigned to; so the call is read as the
string it makes, quoted, on its line (as :mod:`escapes` reads character codes), and a finding there
withholds the encoded literal. A literal that decodes to bytes (an image, a hash) changes nothing.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Iterator, Sequence

from desktop_kb.qa.detectors.base import Finding
from desktop_kb.qa.detectors.encoded import decode_bytes
from desktop_kb.qa.detectors.normalize import normalize

# Decoding functions by the alphabet they read (Python, JavaScript, Java, .NET, Go, PHP, Ruby, Rust).
_B64 = (r"b64decode|urlsafe_b64decode|standard_b64decode|decodebytes|decodestring|atob|FromBase64String|"
        r"(?:get(?:Mime|Url)?Decoder\(\)\.)decode|DecodeString|base64_decode|decode64|strict_decode64|"
        r"urlsafe_decode64|decodeBase64|base64::decode|STANDARD\.decode")
_HEX = r"fromhex|unhexlify|a2b_hex|hex2bin|decodeHex|hex::decode|parseHexBinary"
_CALL_RE = re.compile(
    rf"(?<![\w$])(?:(?P<b64>{_B64})|(?P<b85>b85decode)|(?P<a85>a85decode)|(?P<b32>b32decode)|(?P<hex>{_HEX}))"
    r"[ \t]*\([ \t\n]*b?(?P<q>[\"'])(?P<v>[A-Za-z0-9+/=_\-!#$%&()*;<>?@^`{|}~.:,\[\]\\ ]{8,20000}?)(?P=q)[ \t\n]*"
    r"(?:,[ \t]*[^()\n]{0,30})?\)"
    r"|Buffer\.from[ \t]*\([ \t]*(?P<bq>[\"'])(?P<bv>[A-Za-z0-9+/=_-]{8,20000})(?P=bq)[ \t]*,[ \t]*[\"'](?P<benc>base64|hex|base64url)[\"'][ \t]*\)")
_AFTER_RE = re.compile(r"[ \t]*\.(?:decode|toString|toString\(\)\.trim|encode)[ \t]*\([^()\n]{0,20}\)")
_AROUND = 100


def _decoded(m: re.Match[str], path: str) -> str | None:
    value = m.group("v") if m.group("v") is not None else m.group("bv")
    try:
        if m.group("hex") or m.group("benc") == "hex" or path.endswith("hex."):  # (Go's hex.DecodeString)
            raw = bytes.fromhex(re.sub(r"\s", "", value))
        elif m.group("b85"):
            raw = base64.b85decode(value)
        elif m.group("a85"):
            raw = base64.a85decode(value, adobe=value.startswith("<~"))
        elif m.group("b32"):
            raw = base64.b32decode(value + "=" * (-len(value) % 8))
        else:
            core = re.sub(r"\s", "", value).rstrip("=")
            alt = b"-_" if re.search(r"[-_]", core) else b"+/"
            raw = base64.b64decode(core + "=" * (-len(core) % 4), altchars=alt, validate=True)
    except (binascii.Error, ValueError):
        return None
    return decode_bytes(raw)


_HINTS = ("decode", "fromhex", "unhexlify", "a2b_hex", "hex2bin", "atob", "frombase64", "buffer.from", "parsehexbinary")
# A module or object path before the call (base64., binascii., Base64.getDecoder().), read backwards from it.
_PATH_BEFORE_RE = re.compile(r"(?:[A-Za-z_$][\w$]{0,40}(?:\(\))?\.){1,4}$")


def decoded_calls(text: str, detect_excerpt: Callable[[str], Sequence[Finding]]) -> Iterator[Finding]:
    if "(" not in text:
        return
    low = text.lower()
    if not any(h in low for h in _HINTS):
        return
    for m in _CALL_RE.finditer(text):
        path = _PATH_BEFORE_RE.search(text, max(0, m.start() - 120), m.start())
        decoded = _decoded(m, path.group(0) if path is not None else "")
        if decoded is None:
            continue
        start = path.start() if path is not None else m.start()
        end = m.end()
        if (after := _AFTER_RE.match(text, end)) is not None:
            end = after.end()
        line_start = max(text.rfind("\n", 0, start) + 1, start - _AROUND)
        line_end = text.find("\n", end)
        line_end = min(len(text) if line_end < 0 else line_end, end + _AROUND)
        excerpt = text[line_start:start] + '"' + decoded + '"' + text[end:line_end]
        inside = (start - line_start, start - line_start + len(decoded) + 2)
        norm = normalize(excerpt)
        for f in detect_excerpt(norm.text):
            a, b = norm.span(f.start, f.end)
            if a < inside[1] and b > inside[0]:  # the decoded value (or a label with it) holds a finding
                yield Finding(f.kind, start, end)
                break
