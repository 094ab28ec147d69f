"""Wallet secrets, found by their own checksums: Base58Check private keys and BIP39 phrases.

A Bitcoin private key in WIF (``5K…``, ``K…``/``L…``) or an extended private key
(``xprv…``) carries a 32-bit checksum, so a run that decodes with a valid one and
a private-key version byte is a key whatever surrounds it; public keys and
addresses (``1A1z…``, ``xpub…``) have other version bytes and pass.

A recovery phrase is 12–24 words of the BIP39 list (English, or Chinese
characters written apart), its last word carrying a checksum of the rest.
Runs of list words are read across spaces, commas, line breaks and list
numbers ("1. unfold / 2. bamboo …"); a run is a phrase when it is 12, 15, 18,
21 or 24 words long and checks out, or when the words for a phrase (助记词,
seed phrase …) stand just before it. Prose never strings twelve list
words together: "the", "of", "and" and "is" are not on the list.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from functools import lru_cache

from desktop_kb.qa.detectors.base import PRIVATE_KEY, RECOVERY_CODE, Finding

_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
_B58_INDEX = {c: i for i, c in enumerate(_B58)}
_B58_RUN_RE = re.compile(r"[1-9A-HJ-NP-Za-km-z]{50,112}(?![A-Za-z0-9])")  # the start is checked in code
# Version bytes of private keys: WIF main/test net, BIP32 xprv/tprv and BIP49/84 yprv/zprv/uprv/vprv.
_EXTENDED_PRIVATE = {bytes.fromhex(v) for v in ("0488ade4", "04358394", "049d7878", "04b2430c",
                                                 "044a4e28", "045f18bc")}


def _b58decode(run: str) -> bytes:
    n = 0
    for c in run:
        n = n * 58 + _B58_INDEX[c]
    body = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return b"\0" * (len(run) - len(run.lstrip("1"))) + body


def _private_base58(run: str) -> bool:
    raw = _b58decode(run)
    payload, check = raw[:-4], raw[-4:]
    if len(raw) < 5 or hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4] != check:
        return False
    if payload[:1] in (b"\x80", b"\xef"):  # WIF: 32 bytes, +0x01 when the public key is compressed
        return len(payload) == 33 or (len(payload) == 34 and payload[-1] == 1)
    return len(payload) == 78 and payload[:4] in _EXTENDED_PRIVATE


def base58_private_keys(text: str) -> Iterator[Finding]:
    for m in _B58_RUN_RE.finditer(text):
        if m.start() and text[m.start() - 1].isalnum():
            continue
        if _private_base58(m.group(0)):
            yield Finding(PRIVATE_KEY, m.start(), m.end())


# ----- BIP39 recovery phrases ----------------------------------------------------------------

_PHRASE_LENGTHS = (24, 21, 18, 15, 12)
# A word in lower case, Capitalised (the first of a sentence) or in capitals.
_WORD_RE = re.compile(r"(?<![A-Za-z])(?:[A-Za-z][a-z]{2,7}|[A-Z]{3,8})(?![A-Za-z])")
# What may stand between two words of a written-out phrase: spaces, line breaks, commas, list
# numbers, the quotes and brackets of a list in code.
_GAP_RE = re.compile(r"(?:[\s,，、;；|\"'\[\]]|(?<![A-Za-z])\d{1,2}[.)、:：]?|[-*•])*")
_CJK_WORD_RE = re.compile(r"[\u4e00-\u9fff]")
_CONTEXT_RE = re.compile(
    r"(?i)助记词|助記詞|记忆词|記憶詞|恢复短语|恢復短語|恢复词|種子|种子|mnemonic|seed|recovery\s+phrase|"
    r"backup\s+phrase|secret\s+phrase|wallet|钱包|錢包")


@lru_cache(maxsize=1)
def _lists() -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    from desktop_kb.qa.detectors import bip39_words

    return ({w: i for i, w in enumerate(bip39_words.ENGLISH.split())},
            {w: i for i, w in enumerate(bip39_words.CHINESE_SIMPLIFIED)},
            {w: i for i, w in enumerate(bip39_words.CHINESE_TRADITIONAL)})


def checksum_ok(indexes: Sequence[int]) -> bool:
    """The BIP39 checksum: the last len/3 bits are the first bits of SHA-256 of the rest."""
    bits = "".join(format(i, "011b") for i in indexes)
    cs = len(indexes) // 3
    entropy = int(bits[:-cs], 2).to_bytes((len(bits) - cs) // 8, "big")
    return format(hashlib.sha256(entropy).digest()[0], "08b")[:cs] == bits[-cs:]


def _runs(text: str, word_re: re.Pattern[str], words: dict[str, int],
          gap: re.Pattern[str], start: int = 0) -> Iterator[list[re.Match[str]]]:
    run: list[re.Match[str]] = []
    for m in word_re.finditer(text, start):
        listed = m.group(0).lower() in words
        if listed and (not run or gap.fullmatch(text, run[-1].end(), m.start())):
            run.append(m)
            continue
        if len(run) >= 12:
            yield run
        run = [m] if listed else []
    if len(run) >= 12:
        yield run


def _phrase(text: str, run: list[re.Match[str]], words: dict[str, int]) -> bool:
    """With the word for a phrase just before it, any run of 12+ list words is one. Without it, the
    run must be exactly a phrase's length and check out: a longer run of list words (a vocabulary
    list, a poem written with spaces) would pass some window's checksum by chance."""
    context = _CONTEXT_RE.search(text, max(0, run[0].start() - 80), run[0].start()) is not None
    if context:
        return True
    return len(run) in _PHRASE_LENGTHS and checksum_ok([words[m.group(0).lower()] for m in run])


# Where twelve words could stand: twelve short lower-case words (or single ideographs) with only
# a few non-letters between them. Word and gap share no character, so this scan is linear; the
# word lists and checksums are read only inside such a stretch.
# (Starting with a plain character class lets the regex engine skip ahead fast.)
_EN_STRETCH_RE = re.compile(r"[A-Za-z](?<![A-Za-z][A-Za-z])[A-Za-z]{2,7}(?![A-Za-z])[^A-Za-z]{1,6}"
                            r"(?:[A-Za-z]{3,8}(?![A-Za-z])[^A-Za-z]{1,6}){10}[A-Za-z]{3,8}(?![A-Za-z])")
_CJK_STRETCH_RE = re.compile(r"(?:[\u4e00-\u9fff][^\u4e00-\u9fffA-Za-z]{1,6}){11}[\u4e00-\u9fff]")
_CJK_ALONE_RE = re.compile(r"[ \t\n\u3000][\u4e00-\u9fff][ \t\n\u3000]")
_CJK_GAP_RE = re.compile(r"[ \t\u3000]+|[ \t]*\n[ \t]*|[ \t]*(?:\d{1,2}[.)、:：])[ \t]*")


def _stretches(text: str, rx: re.Pattern[str]) -> Iterator[tuple[int, int]]:
    """Maximal stretches made of overlapping matches of ``rx``."""
    start = end = -1
    pos = 0
    while (m := rx.search(text, pos)) is not None:
        if m.start() > end:
            if end > start:
                yield start, end
            start = m.start()
        end = max(end, m.end())
        pos = m.start() + 1
    if end > start:
        yield start, end


def recovery_phrases(text: str) -> Iterator[Finding]:
    if text.count(" ") + text.count("\n") + text.count("\u3000") < 11:
        return  # twelve words need eleven gaps, and the gaps hold a space or a line break
    english, simplified, traditional = _lists()
    for start, end in _stretches(text, _EN_STRETCH_RE):
        for run in _runs(text[:end], _WORD_RE, english, _GAP_RE, start):
            if _phrase(text, run, english):
                yield Finding(RECOVERY_CODE, run[0].start(), run[-1].end())
    if len(_CJK_ALONE_RE.findall(text)) < 5:
        return  # twelve characters written apart leave at least five standing alone between spaces
    for start, end in _stretches(text, _CJK_STRETCH_RE):
        for words in (simplified, traditional):
            for run in _runs(text[:end], _CJK_WORD_RE, words, _CJK_GAP_RE, start):
                if _phrase(text, run, words):
                    yield Finding(RECOVERY_CODE, run[0].start(), run[-1].end())
