"""Wallet secrets, found by their own checksums: Base58Check private keys and BIP39 phrases.

A Bitcoin private key in WIF (``5K…``, ``K…``/``L…``) or an extended private key
(``xprv…``) carries a 32-bit checksum, so a run that decodes with a valid one and
a private-key version byte is a key whatever surrounds it; public keys and
addresses (``1A1z…``, ``xpub…``) have other version bytes and pass.

A recovery phrase is 12–24 words of one BIP39 list (English, Chinese
characters written apart, or the Japanese, Korean, Spanish, French, Italian,
Czech and Portuguese lists — accents optional, as wallets accept them), its
last word carrying a checksum of the rest. Runs of list words are read across
spaces, commas, line breaks, list numbers, table cells and the quotes of a
JSON array ("1. unfold / 2. bamboo …", "| 10. boss | 11. actor |"); a run is a
phrase when it is 12, 15, 18, 21 or 24 words long and checks out, or when the
words for a phrase (助记词, seed phrase, リカバリーフレーズ, frase semilla …)
stand just before it. Prose never strings twelve list words together: "the",
"of", "de", "la", "の" and "은" are not on the lists.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterator, Sequence
from functools import lru_cache

from desktop_kb.qa.detectors.base import PRIVATE_KEY, RECOVERY_CODE, Finding
from desktop_kb.qa.detectors.published import patterned_bytes

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


# An extended private key named by its prefix (xprv, tprv, yprv, zprv, uprv, vprv and the multisig Yprv/Zprv/
# Uprv/Vprv) and about its length, whether or not its checksum holds: a copy with a typo or a character
# dropped is still the key (an "xpub" is public and has its own prefix).
_PRV_PREFIX_RE = re.compile(r"[xtyzuvYZUV]prv[1-9A-HJ-NP-Za-km-z]{95,125}(?![A-Za-z0-9])")


def base58_private_keys(text: str) -> Iterator[Finding]:
    if "prv" in text:
        for m in _PRV_PREFIX_RE.finditer(text):
            if not (m.start() and text[m.start() - 1].isalnum()):
                yield Finding(PRIVATE_KEY, m.start(), m.end())
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
    r"backup\s+phrase|secret\s+phrase|wallet|钱包|錢包|"
    # Japanese, Korean, Spanish/Portuguese/Italian, French, Czech
    r"ウォレット|リカバリー|ニーモニック|シード|復元|秘密の言葉|지갑|니모닉|복구|시드|"
    r"semilla|semente|frase\s+(?:de|di)\s+(?:recuperaci[oó]n|recupera[cç][aã]o|recupero|respaldo|seguran[cç]a)|"
    r"cartera|billetera|monedero|carteira|portafoglio|portefeuille|phrase\s+de\s+r[ée]cup[ée]ration|"
    r"mots?\s+de\s+r[ée]cup[ée]ration|mn[ée]monique|pen[eě][zž]enk|obnovovac|z[aá]lo[zž]n[ií]\s+fr[aá]z")


@lru_cache(maxsize=1)
def _lists() -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    from desktop_kb.qa.detectors import bip39_words

    return ({w: i for i, w in enumerate(bip39_words.ENGLISH.split())},
            {w: i for i, w in enumerate(bip39_words.CHINESE_SIMPLIFIED)},
            {w: i for i, w in enumerate(bip39_words.CHINESE_TRADITIONAL)})


def _checked(indexes: Sequence[int]) -> tuple[bytes, bool]:
    """The entropy of a phrase, and whether its last len/3 bits are the first bits of its SHA-256."""
    bits = "".join(format(i, "011b") for i in indexes)
    cs = len(indexes) // 3
    entropy = int(bits[:-cs], 2).to_bytes((len(bits) - cs) // 8, "big")
    return entropy, format(hashlib.sha256(entropy).digest()[0], "08b")[:cs] == bits[-cs:]


def checksum_ok(indexes: Sequence[int]) -> bool:
    """The BIP39 checksum: the last len/3 bits are the first bits of SHA-256 of the rest."""
    return _checked(indexes)[1]


def is_test_vector(indexes: Sequence[int]) -> bool:
    """BIP39's published test vectors (all-zero entropy: "abandon … about", 7f7f…: "legal winner …",
    ff…: "zoo … wrong") check out too: their entropy repeats or counts, a wallet's never does."""
    if len(indexes) not in _PHRASE_LENGTHS:
        return False
    entropy, ok = _checked(indexes)
    return ok and patterned_bytes(entropy)


def is_test_vector_words(words: Sequence[str]) -> bool:
    """Whether a phrase's length of these words in a row (English or Chinese, from the first) is a
    test vector."""
    for table in _lists():
        indexes = []
        for w in words:
            if w.lower() not in table:
                break
            indexes.append(table[w.lower()])
        if len(indexes) >= 12 and _holds_test_vector(indexes):
            return True
    return False


def _holds_test_vector(indexes: Sequence[int]) -> bool:
    return any(is_test_vector(indexes[i:i + n]) for n in _PHRASE_LENGTHS for i in range(len(indexes) - n + 1))


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
# (Up to 16 between words: '",\n    "' in a JSON array, " |\n| 10. " in a table of numbered cells.)
_EN_STRETCH_RE = re.compile(r"[A-Za-z](?<![A-Za-z][A-Za-z])[A-Za-z]{2,7}(?![A-Za-z])[^A-Za-z]{1,16}"
                            r"(?:[A-Za-z]{3,8}(?![A-Za-z])[^A-Za-z]{1,16}){10}[A-Za-z]{3,8}(?![A-Za-z])")
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


def _context_at(text: str, run: Sequence[tuple[int, int, int]]) -> bool:
    """The word for a phrase before the run, or among its first two words ("semilla" is a list word)."""
    return _CONTEXT_RE.search(text, max(0, run[0][0] - 80), run[min(2, len(run) - 1)][0]) is not None


# ----- the other lists (Japanese, Korean, Spanish, French, Italian, Czech, Portuguese) ------------

# Letters with their combining marks: a phrase copied from the NFKD list files keeps が as か + ゛.
_LETTERS_RE = re.compile(r"(?:[^\W\d_]|[\u0300-\u036f\u3099\u309a])+")
_MARKS_RE = re.compile(r"[\u0300-\u036f\u3099\u309a]")
_PLAIN_LETTERS_RE = re.compile(r"[^\W\d_]+")  # (twice as fast, for text without combining marks)
# Between two words: no letter, at most 16 characters, numbers only one or two digits long (list numbers).
_ANY_GAP_RE = re.compile(r"(?:[^\w]|_|(?<!\d)\d{1,2}(?!\d))*")


def _key(word: str) -> str:
    """A word as the lists are keyed: lower case, accents dropped (wallets accept "abaco" for "ábaco")."""
    word = word.lower()
    if word.isascii():
        return word
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


@lru_cache(maxsize=1)
def _other_lists() -> dict[str, tuple[tuple[int, int], ...]]:
    """Word → (list, index) for every list it is on (Spanish, Italian and Portuguese share words)."""
    from desktop_kb.qa.detectors import bip39_more

    table: dict[str, list[tuple[int, int]]] = {}
    for n, name in enumerate(_OTHER_LISTS):
        words = getattr(bip39_more, name).split()
        # Hiragana and Hangul keep their marks (が is not か); only Latin letters lose accents.
        for i, w in enumerate(words):
            table.setdefault(w if name in ("JAPANESE", "KOREAN") else _key(w), []).append((n, i))
    return {w: tuple(v) for w, v in table.items()}


_OTHER_LISTS = ("JAPANESE", "KOREAN", "SPANISH", "FRENCH", "ITALIAN", "CZECH", "PORTUGUESE")


def _close(text: str, run: list[tuple[int, int, int]]) -> Iterator[Finding]:
    if len(run) < 12:
        return
    if _context_at(text, run):
        # "frase: …", "Palabras semilla: …": a label whose words are on the list ends with a colon.
        label = next((k for k in range(min(2, len(run) - 12)) if ":" in text[run[k][1]:run[k + 1][0]]), -1)
        yield Finding(RECOVERY_CODE, run[label + 1][0], run[-1][1])
        return
    # A header or label word on the list ("palavra" over a CSV column) may stand before the phrase.
    for k in range(min(3, len(run) - 11)):
        if len(run) - k in _PHRASE_LENGTHS and checksum_ok([i for _s, _e, i in run[k:]]):
            yield Finding(RECOVERY_CODE, run[k][0], run[-1][1])
            return


def _listed(word: str, table: dict[str, tuple[tuple[int, int], ...]]) -> tuple[tuple[int, int], ...]:
    if not 2 <= len(word) <= (9 if word.isascii() else 18):  # (no list word is longer, even decomposed)
        return ()
    return table.get(_key(word) if word[0] < "\u0250" else unicodedata.normalize("NFC", word), ())  # Latin or not


def _twelve_listed(words: list[str], table: dict[str, tuple[tuple[int, int], ...]], k: int = 12) -> bool:
    """Whether ``k`` words in a row are on some list, looking at every k-th word first (a word on
    no list rules out the k-1 before it): most text is passed over reading a k-th of its words."""
    i = k - 1
    while i < len(words):
        if not _listed(words[i], table):
            i += k
            continue
        j = i - 1
        while j > i - k and _listed(words[j], table):
            j -= 1
        if j == i - k:
            return True
        i = j + k
    return False


# Markup between a phrase's words is no word of it: a LaTeX table's "& 2. 현장 \\ \hline", an HTML table's
# "</td><td>".
_MARKUP_RE = re.compile(r"\\[A-Za-z]+|</?[A-Za-z][^<>\n]{0,40}>")
_PART_GAP = 160  # (characters between two parts of one phrase: a message's or a line's prefix)


def other_language_phrases(text: str) -> Iterator[Finding]:
    """Runs of one list's words, each run judged as a phrase (see the module's docstring); runs shorter
    than a phrase that follow each other closely are read as its parts ("[SMS 1/2] …" "[SMS 2/2] …")."""
    table = _other_lists()
    letters = _LETTERS_RE if _MARKS_RE.search(text) else _PLAIN_LETTERS_RE
    markup = list(_MARKUP_RE.finditer(text)) if "\\" in text or "<" in text else []
    plain = _MARKUP_RE.sub(" ", text) if markup else text
    words = letters.findall(plain)
    if not _twelve_listed(words, table, 6):
        return
    whole = _twelve_listed(words, table)
    in_markup = {i for m in markup for i in range(m.start(), m.end())}
    runs: dict[int, list[tuple[int, int, int]]] = {}
    closed: list[tuple[int, list[tuple[int, int, int]]]] = []
    last_end = -1
    for m in _LETTERS_RE.finditer(text):
        if m.start() in in_markup:
            continue
        hits = _listed(m.group(0), table)
        if runs:
            gap = _MARKUP_RE.sub("", text[last_end:m.start()]) if markup else None
            joined = (m.start() - last_end <= 16 and _ANY_GAP_RE.fullmatch(text, last_end, m.start()) is not None
                      if gap is None else len(gap) <= 16 and _ANY_GAP_RE.fullmatch(gap) is not None)
            listed = dict(hits)
            for n in list(runs):
                if n not in listed or not joined:
                    closed.append((n, runs.pop(n)))
        for n, i in hits:
            runs.setdefault(n, []).append((m.start(), m.end(), i))
        last_end = m.end()
    closed += list(runs.items())
    found = False
    for _n, run in closed:
        for f in _close(text, run) if whole else ():
            found = True
            yield f
    if not found:
        yield from _parts(text, sorted((run[0][0], n, run) for n, run in closed if len(run) >= 4))


def _parts(text: str, runs: list[tuple[int, int, list[tuple[int, int, int]]]]) -> Iterator[Finding]:
    """Runs of one list of four words or more on lines that follow each other, whose words together are
    a phrase that checks out (24 words: odds of 1 in 256 by chance; 12: 1 in 16, so twelve need three
    parts at least). Prose strings a few list words together often, but not line after line."""
    for a in range(len(runs)):
        n, words, last = runs[a][1], list(runs[a][2]), runs[a][2][-1][1]
        pieces = [runs[a][2]]
        for b in range(a + 1, len(runs)):
            start, m, run = runs[b]
            if start - last > _PART_GAP or len(words) >= 24 or "\n" not in text[last:start]:
                break
            if m != n:
                continue
            words += run
            pieces.append(run)
            last = run[-1][1]
            if len(words) in _PHRASE_LENGTHS and (len(words) > 12 or len(pieces) >= 3) \
                    and checksum_ok([i for _s, _e, i in words]):
                for piece in pieces:
                    yield Finding(RECOVERY_CODE, piece[0][0], piece[-1][1])
                return


def recovery_phrases(text: str) -> Iterator[Finding]:
    if text.count(" ") + text.count("\n") + text.count("\t") + text.count("\u3000") + text.count("<") < 11:
        return  # twelve words need eleven gaps, and the gaps hold a space, a line break, a tab or a tag
    english, simplified, traditional = _lists()
    for start, end in _stretches(text, _EN_STRETCH_RE):
        for run in _runs(text[:end], _WORD_RE, english, _GAP_RE, start):
            if _phrase(text, run, english):
                yield Finding(RECOVERY_CODE, run[0].start(), run[-1].end())
    yield from other_language_phrases(text)
    if len(_CJK_ALONE_RE.findall(text)) < 5:
        return  # twelve characters written apart leave at least five standing alone between spaces
    for start, end in _stretches(text, _CJK_STRETCH_RE):
        for words in (simplified, traditional):
            for run in _runs(text[:end], _CJK_WORD_RE, words, _CJK_GAP_RE, start):
                if _phrase(text, run, words):
                    yield Finding(RECOVERY_CODE, run[0].start(), run[-1].end())
