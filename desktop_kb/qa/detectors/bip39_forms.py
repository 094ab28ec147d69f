"""A BIP39 phrase written another way than words and spaces, found by its checksum.

People keep the phrase in the form their wallet, backup plate or password manager made easy:
words joined by hyphens or underscores (``cushion-inhale-odor-…``), Chinese characters joined by
、 or ， or run together (辟跑滩码么较忧走显火松纸), each word cut to its first four letters (all a
wallet needs: ``01 BUBB 02 THEO …``), the words' numbers on the list (1-based or 0-based), or a
SeedQR's digit string (four digits per word, 48 for twelve words).

Each form is decoded to word numbers and judged by the phrase's own checksum (12 words: 4 bits,
24 words: 8), so the run must be exactly a phrase's length. Where a form is common in ordinary text,
the checksum alone is not enough and the word for a phrase (助记词, seed, mnemonic …) or the list
(BIP39, 词表, wordlist) must stand just before it: a list of twelve years or twelve Chinese
characters in a row would pass a 4-bit checksum once in sixteen. A SeedQR string needs no word:
48 digits whose every group of four is under 2048 and which check out do not happen by chance
(the digits of π, an order number, a bank reference fail at the first groups).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from desktop_kb.qa.detectors.base import RECOVERY_CODE, Finding
from desktop_kb.qa.detectors.wallets import _CONTEXT_RE, _lists, checksum_ok

_LENGTHS = (12, 15, 18, 21, 24)
# English words joined by one character that is not a space (spaces are wallets.recovery_phrases').
# (Each pattern starts with a plain class and looks behind after it: the engine then skips ahead fast.)
_JOINED_RE = re.compile(r"[A-Za-z](?<![A-Za-z0-9][A-Za-z])[A-Za-z]{2,7}(?P<sep>[-_.+/])[A-Za-z]{3,8}(?:(?P=sep)[A-Za-z]{3,8}){10,22}"
                        r"(?![A-Za-z0-9])")
# Chinese list characters joined by 、，, (or nothing, after the word for a phrase).
# (from the first separator: the character before it is checked in code)
_HAN_JOINED_RE = re.compile(r"[、，,;；][ \t]*[\u4e00-\u9fff](?:[ \t]*[、，,;；][ \t]*[\u4e00-\u9fff]){10,22}"
                            r"(?![\u4e00-\u9fff])")
_HAN_RUN_RE = re.compile(r"[\u4e00-\u9fff]{12,40}")
# Four-letter prefixes (or the whole word when shorter), each optionally numbered: "01 BUBB  02 THEO".
_PREFIX_RUN_RE = re.compile(r"[A-Za-z](?<![A-Za-z0-9][A-Za-z])[A-Za-z]{2,3}(?![A-Za-z])(?:[ \t,;|]*(?:\n[ \t,;|]*)?"
                            r"(?:\d{1,2}[.):]?[ \t]+)?[A-Za-z]{3,4}(?![A-Za-z])){11,23}(?![A-Za-z])")
_NUMBER_BEFORE_RE = re.compile(r"\d{1,2}[.):]?[ \t]+$")
_PREFIX_RE = re.compile(r"(?<![A-Za-z])[A-Za-z]{3,4}(?![A-Za-z])")
# Word numbers: 1-4 digits each, separated by commas, spaces or list numbers on their own lines.
_NUMBERS_RE = re.compile(r"\d(?<![\d.]\d)\d{0,3}(?:(?:[ \t]*[,，;、][ \t]*|[ \t]+|[ \t]*\n(?:[ \t]*\d{1,2}[.)][ \t]+)?)"
                         r"\d{1,4}(?![\d.])){11,23}")
_LISTED_NUMBER_RE = re.compile(r"(?m)(?:^[ \t]*\d{1,2}[.)][ \t]+)?(?P<n>\d{1,4})(?![\d.])")
_SEEDQR_RE = re.compile(r"\d{48,}")  # (a digit run; its exact length is checked in code)
# The list itself named just before word numbers or run-together characters.
_LIST_RE = re.compile(r"(?i)bip[- ]?39|词表|詞表|word\s*list|单词表|單詞表|recovery\s+words?|backup\s+words?")


def _context(text: str, start: int, span: int = 80) -> bool:
    before = text[max(0, start - span):start]
    return _CONTEXT_RE.search(before) is not None or _LIST_RE.search(before) is not None


@lru_cache(maxsize=1)
def _prefixes() -> dict[str, int]:
    """First four letters (the whole word when shorter) → index: BIP39's English words are unique by them."""
    english, _zh, _tw = _lists()
    return {w[:4]: i for w, i in english.items()}


def _phrase(indexes: list[int]) -> bool:
    return len(indexes) in _LENGTHS and checksum_ok(indexes)


# Or run together, each word capitalised ("FantasyVideoTorch…"): a name in code is never twelve list words long.
_CAMEL_JOINED_RE = re.compile(r"[A-Z](?<![A-Za-z0-9][A-Z])[a-z]{2,7}(?:[A-Z][a-z]{2,7}){11,23}(?![A-Za-z0-9])")
_CAPITAL_RE = re.compile(r"[A-Z][a-z]+")


def _joined_words(text: str) -> Iterator[Finding]:
    english, _zh, _tw = _lists()
    for m in _CAMEL_JOINED_RE.finditer(text):
        words = [w.lower() for w in _CAPITAL_RE.findall(m.group(0))]
        if all(w in english for w in words) and (_phrase([english[w] for w in words])
                                                   or len(words) in _LENGTHS and _context(text, m.start())):
            yield Finding(RECOVERY_CODE, m.start(), m.end())
    for m in _JOINED_RE.finditer(text) if any(c in text for c in "-_.+/") else ():
        words = [w.lower() for w in m.group(0).split(m.group("sep"))]
        if all(w in english for w in words) and (_phrase([english[w] for w in words])
                                                   or len(words) in _LENGTHS and _context(text, m.start())):
            yield Finding(RECOVERY_CODE, m.start(), m.end())


# Words that stand before characters run together (a cheap test before any Han run is read).
_HAN_CONTEXT_WORDS = ("助记", "助記", "记忆词", "記憶詞", "种子", "種子", "钱包", "錢包", "恢复", "恢復", "seed", "mnemonic",
                      "wallet", "bip")


def _han(text: str) -> Iterator[Finding]:
    _en, simplified, traditional = _lists()
    joined = sum(text.count(c) for c in "、，,;；") >= 11
    for m in _HAN_JOINED_RE.finditer(text) if joined else ():
        first = m.start() - 1
        while first >= 0 and text[first] in " \t":
            first -= 1
        if first < 0 or not "\u4e00" <= text[first] <= "\u9fff":
            continue
        chars = [text[first], *re.findall(r"[\u4e00-\u9fff]", m.group(0))]
        for table in (simplified, traditional):
            if all(c in table for c in chars) and _phrase([table[c] for c in chars]):
                yield Finding(RECOVERY_CODE, first, m.end())
                break
    low = text.lower()
    if not any(w in low for w in _HAN_CONTEXT_WORDS):
        return
    for m in _HAN_RUN_RE.finditer(text):
        # Run together, the characters are a phrase only right after its word ("助记词：", "助记词是").
        if _CONTEXT_RE.search(text, max(0, m.start() - 16), m.start() + 10) is None:
            continue
        for k in range(0, min(10, len(m.group(0)) - 11)):  # (the word itself may end the run: 助记词是…)
            chars = m.group(0)[k:]
            if not _context(text, m.start() + k, 16):
                continue
            for table in (simplified, traditional):
                if all(c in table for c in chars) and _phrase([table[c] for c in chars]):
                    yield Finding(RECOVERY_CODE, m.start() + k, m.end())
                    return


def _cut_words(text: str) -> Iterator[Finding]:
    prefixes = _prefixes()
    for m in _PREFIX_RUN_RE.finditer(text):
        words = list(_PREFIX_RE.finditer(text, m.start(), m.end()))
        indexes = [prefixes.get(w.group(0).lower(), -1) for w in words]
        numbered = re.search(r"(?<![A-Za-z0-9])0?1[.):]?[ \t]+$", text[max(0, m.start() - 6):m.start()]) is not None
        if -1 not in indexes and _phrase(indexes) and (numbered or _context(text, m.start())):
            start = m.start() - (len(numbered_prefix.group(0)) if (numbered_prefix := _NUMBER_BEFORE_RE.search(
                text, max(0, m.start() - 6), m.start())) else 0)
            yield Finding(RECOVERY_CODE, start, m.end())  # (with its list numbers: one plate's rows)


def _word_numbers(text: str) -> Iterator[Finding]:
    for m in _NUMBERS_RE.finditer(text):
        numbers = [(n.start("n"), n.end("n"), int(n.group("n")))
                   for n in _LISTED_NUMBER_RE.finditer(text, m.start(), m.end())]
        if len(numbers) not in _LENGTHS or not _context(text, m.start()):
            continue
        values = [v for _s, _e, v in numbers]
        for base in (1, 0):  # "编号（1 开始）" or the 0-based numbers code uses
            indexes = [v - base for v in values]
            if all(0 <= i < 2048 for i in indexes) and checksum_ok(indexes):
                yield Finding(RECOVERY_CODE, numbers[0][0], numbers[-1][1])
                break


def _seedqr(text: str) -> Iterator[Finding]:
    for m in _SEEDQR_RE.finditer(text):
        digits = m.group(0)
        if len(digits) not in (48, 60, 72, 84, 96):
            continue
        indexes = [int(digits[i:i + 4]) for i in range(0, len(digits), 4)]
        if all(i < 2048 for i in indexes) and checksum_ok(indexes):
            yield Finding(RECOVERY_CODE, m.start(), m.end())


# A phrase spread over a structure: a CSV row's cells, numbered lines in any order (" 2 - drastic"), parts of
# four on lines of their own ("第一段：raw cousin dad fan"). Read in order — or by their numbers when every word
# has one — the block's list words must be a phrase's length and check out, and either the words came numbered
# out of order (a shuffled copy) or the block says what they are (wallet, 助记词, backup …): a vocabulary list
# of twelve words checks out once in sixteen.
_LIST_WORD_RE = re.compile(r"(?:(?P<n>\d{1,2})[ \t]*[-.):：][ \t]*)?(?<![A-Za-z])(?P<w>[a-z]{3,8})(?![A-Za-z])")
_BLOCK_END_RE = re.compile(r"\n[ \t]*\n")
_BACKUP_RE = re.compile(r"(?i)backup|备份|備份|副本|バックアップ|백업")


def _scattered(text: str) -> Iterator[Finding]:
    if text.count("\n") < 2 and text.count(",") < 11:
        return  # (twelve words over three lines at least, or eleven commas)
    words = _lists()[0]
    pos = 0
    while pos < len(text):
        gap = _BLOCK_END_RE.search(text, pos)
        end = gap.start() if gap else len(text)
        if end - pos <= 2000:
            yield from _scattered_block(text, pos, end, words)
        pos = gap.end() if gap else len(text)


def _scattered_block(text: str, start: int, end: int, words: dict[str, int]) -> Iterator[Finding]:
    found: list[re.Match[str]] = []
    pos = start
    while pos < end:  # the lines made of list words only (a heading or a sentence above them is not read)
        line_end = text.find("\n", pos, end)
        line_end = end if line_end < 0 else line_end
        if line_end - pos > 300 or _NOT_LIST_LINE_RE.search(text, pos, line_end):
            pos = line_end + 1
            continue  # (a long line, or one with capitals or code: not a phrase's)
        matches = list(_LIST_WORD_RE.finditer(text, pos, line_end))
        latin = _LATIN_RE.findall(text, pos, line_end)
        if matches and all(m.group("w") in words for m in matches) and len(latin) == len(matches):
            found += matches
        pos = line_end + 1
    numbered = [m for m in found if m.group("n")]
    for run in (found, numbered):  # (a table's header word, "| # | word |", is not numbered)
        if len(run) not in _LENGTHS:
            continue
        numbers = [int(m.group("n")) for m in run if m.group("n")]
        by_number = len(numbers) == len(run) and sorted(numbers) == list(range(1, len(run) + 1))
        order = sorted(run, key=lambda m: int(m.group("n"))) if by_number else run
        if not _phrase([words[m.group("w")] for m in order]):
            continue
        above = text.rfind("\n", 0, max(0, start - 1)) + 1
        if not ((by_number and numbers != sorted(numbers)) or _CONTEXT_RE.search(text, above, end)
                or _BACKUP_RE.search(text, above, end)):
            return
        run_start, run_end = run[0].start(), run[0].end()
        for m in run[1:]:  # words a comma or a space apart are one finding ("supreme,fluid,often,…")
            if _BETWEEN_RE.fullmatch(text, run_end, m.start()):
                run_end = m.end()
                continue
            yield Finding(RECOVERY_CODE, run_start, run_end)
            run_start, run_end = m.start(), m.end()
        yield Finding(RECOVERY_CODE, run_start, run_end)
        return


_LATIN_RE = re.compile(r"(?<![A-Za-z])[A-Za-z]{2,}(?![A-Za-z])")
_NOT_LIST_LINE_RE = re.compile(r"[A-Z{}=<>\[\]_'\"`;]|[a-z]{9}")
_BETWEEN_RE = re.compile(r"[ \t,;|/]{1,4}")


def written_phrases(text: str) -> Iterator[Finding]:
    """Phrases written in the forms above (see the module's docstring)."""
    yield from _joined_words(text)
    if re.search(r"[\u4e00-\u9fff]", text):
        yield from _han(text)
    yield from _cut_words(text)
    if re.search(r"\d", text):
        yield from _word_numbers(text)
        yield from _seedqr(text)
    if "\n" in text or "," in text:
        yield from _scattered(text)
