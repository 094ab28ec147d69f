"""Private keys in their own encodings, not PEM: bech32 secret keys, byte-array keypairs, signify files.

* Bech32 with a secret key's prefix (``nsec1…`` of nostr, ``AGE-SECRET-KEY-1…`` of age), read by
  the bech32 checksum; the public halves (``npub1``, ``age1``, ``bc1…`` addresses) pass.
* A keypair or seed written as an array of bytes (Solana's ``id.json``, ``[u8; 32]`` in Rust,
  ``Uint8Array.from([…])``): 64 numbers up to 255 near a word for a key or a wallet, or 32 near a
  word for a secret, a seed or a private key (a SHA-256 digest is 32 bytes too, and public).
* A signify or minisign key file: the line after ``untrusted comment: … secret key``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_kb.qa.detectors.base import PRIVATE_KEY, Finding

_BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
_SECRET_BECH32_RE = re.compile(
    r"(?<![A-Za-z0-9])(?P<v>(?:nsec|NSEC)1[02-9ac-hj-np-zAC-HJ-NP-Z]{58}|AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58})"
    r"(?![A-Za-z0-9])")


def _bech32_ok(value: str) -> bool:
    value = value.lower()
    hrp, _, data = value.rpartition("1")
    if not hrp or any(c not in _BECH32 for c in data):
        return False
    values = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp] + [_BECH32.index(c) for c in data]
    gen = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if (top >> i) & 1 else 0
    return chk in (1, 0x2BC830A3)  # bech32, bech32m


_BYTE_ARRAY_RE = re.compile(r"\[(?P<v>(?:[ \t\n]*\d{1,3}[ \t\n]*,){31,63}[ \t\n]*\d{1,3})[ \t\n]*,?[ \t\n]*\]")
_KEYPAIR_WORDS_RE = re.compile(
    r"(?i)key|secret|seed|wallet|keygen|id\.json|solana|私钥|私鑰|密钥|密鑰|钱包|錢包|秘密鍵|助记|种子|種子")
_SECRET_WORDS_RE = re.compile(r"(?i)secret|seed|priv|私钥|私鑰|密钥|密鑰|秘密鍵|种子|種子")
_PUBLIC_WORDS_RE = re.compile(r"(?i)public|pubkey|公钥|公鑰|公開鍵|digest|hash|sha-?256|哈希|摘要")
_SIGNIFY_RE = re.compile(r"(?i)untrusted comment:[^\n]*\bsecret key[^\n]*\n(?P<v>[A-Za-z0-9+/]{40,}={0,2})")


def _byte_keys(text: str) -> Iterator[Finding]:
    for m in _BYTE_ARRAY_RE.finditer(text):
        numbers = [int(n) for n in re.findall(r"\d+", m.group("v"))]
        if len(numbers) not in (32, 64) or max(numbers) > 255 or max(numbers) < 128 \
                or len(set(numbers)) < 0.6 * len(numbers):
            continue  # not bytes, or not random ones (scores, a quantisation table)
        line_start = text.rfind("\n", 0, max(0, text.rfind("\n", 0, m.start())))
        context = text[max(0, line_start, m.start() - 160):m.start()]
        words = _KEYPAIR_WORDS_RE if len(numbers) == 64 else _SECRET_WORDS_RE
        if words.search(context) and not (len(numbers) == 32 and _PUBLIC_WORDS_RE.search(context)):
            yield Finding(PRIVATE_KEY, m.start(), m.end())


def encoded_private_keys(text: str) -> Iterator[Finding]:
    if "1" in text and ("sec1" in text or "SEC1" in text or "KEY-1" in text):
        for m in _SECRET_BECH32_RE.finditer(text):
            if _bech32_ok(m.group("v")):
                yield Finding(PRIVATE_KEY, m.start("v"), m.end("v"))
    if "[" in text and "," in text:
        yield from _byte_keys(text)
    if "untrusted comment" in text.lower():
        for m in _SIGNIFY_RE.finditer(text):
            yield Finding(PRIVATE_KEY, m.start("v"), m.end("v"))
