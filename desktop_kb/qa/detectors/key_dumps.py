"""A private key written out as bytes: OpenSSL's text dump of a key, and a byte array in code.

``openssl ec|rsa|pkey -text`` prints the secret half as colon-separated hex under ``priv:`` (EC,
Ed25519/X25519, DSA), ``privateExponent:``, ``prime1:`` … ``coefficient:`` (RSA) or ``private-key:``
(DH); the public half (``pub:``, ``modulus:``, ``publicExponent:``) is public. In code, a seed or a key
is written as a list of byte literals (Go ``[]byte{0xec, …}``, C ``uint8_t sk[32] = {…}``, Rust
``[u8; 32] = […]``, Python ``bytes([236, …])``, JS ``new Uint8Array([…])``, Java ``(byte) 0x..``) under
a name that says so (seed, priv, private, secret, sk, key). Sixteen bytes at least, as a key has;
bytes that count or repeat are a test vector's (see published.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_kb.qa.detectors.base import PRIVATE_KEY, RECOVERY_CODE, Finding
from desktop_kb.qa.detectors.published import patterned_bytes

_DUMP_LABEL_RE = re.compile(
    r"(?im)^[ \t]*(?:priv|privateExponent|prime1|prime2|exponent1|exponent2|coefficient|private-key)[ \t]*:[ \t]*\n")
_HEX_LINE_RE = re.compile(r"[ \t]*[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2})+:?[ \t]*(?:\n|$)")


def _dumps(text: str) -> Iterator[Finding]:
    for label in _DUMP_LABEL_RE.finditer(text):
        pos, start, end = label.end(), -1, -1
        while (line := _HEX_LINE_RE.match(text, pos)) is not None:
            body = line.group(0).strip()
            if start < 0:
                start = line.start() + line.group(0).index(body)
            end = line.start() + line.group(0).index(body) + len(body)
            pos = line.end()
        if start >= 0:
            yield Finding(PRIVATE_KEY, start, end)


_BYTE = r"(?:\(byte\)[ \t]*)?(?:0[xX][0-9a-fA-F]{1,2}|\d{1,3})(?![\w.])"
_ARRAY_RE = re.compile(rf"(?<![\w.])(?P<first>{_BYTE})(?:[ \t]*,[ \t]*(?://[^\n]*)?\s*{_BYTE}){{15,}}")
# The name the array is given, on its line or the one above (a declaration opens the array there).
_SECRET_NAME_RE = re.compile(
    r"(?i)(?<![a-z])(?:seed|priv|private|privkey|private_?key|secret|secret_?key|sk|signing_?key|key|master_?key|"
    r"aes_?key|hmac_?key|enc(?:ryption)?_?key|mnemonic|entropy)(?:_?bytes)?(?![A-Za-z_])")
_PUBLIC_NAME_RE = re.compile(r"(?i)(?<![a-z])(?:pub|public|pubkey|public_?key|iv|nonce|salt|mac|tag|digest|hash|"
                             r"sha\d*|md5|crc|magic|header|signature|sig)(?![a-z])")


def _byte_arrays(text: str) -> Iterator[Finding]:
    for m in _ARRAY_RE.finditer(text):
        values = [int(v, 16) if v.lower().startswith("0x") else int(v)
                  for v in re.findall(r"0[xX][0-9a-fA-F]{1,2}|\d{1,3}", re.sub(r"//[^\n]*|\(byte\)", "", m.group(0)))]
        if any(v > 255 for v in values) or patterned_bytes(bytes(values)) \
                or sum(v >= 16 for v in values) < len(values) // 2:
            continue  # (a key's bytes are mostly 16 or more; a list of small counts is data)
        line_start = text.rfind("\n", 0, m.start()) + 1
        above = text.rfind("\n", 0, max(0, line_start - 1)) + 1
        declared = text[max(above, m.start() - 160):m.start()]
        name = _SECRET_NAME_RE.search(declared)
        if name is None or _PUBLIC_NAME_RE.search(declared[name.end():]) or _PUBLIC_NAME_RE.search(
                declared[max(0, name.start() - 12):name.start()]):
            continue
        phrase = name.group(0).lower().startswith(("mnemonic", "entropy"))  # (MetaMask's vault: the phrase's bytes)
        yield Finding(RECOVERY_CODE if phrase else PRIVATE_KEY, m.start(), m.end())


def key_dumps(text: str) -> Iterator[Finding]:
    if ":" in text and ("priv" in text or "prime" in text or "coefficient" in text or "exponent" in text):
        yield from _dumps(text)
    if "," in text:
        yield from _byte_arrays(text)
