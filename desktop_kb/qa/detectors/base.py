"""What every detector returns, and the small text helpers they share."""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass

# Kinds (the gate's reasons; the UI and CLI name them).
API_KEY = "api_key"
PRIVATE_KEY = "private_key"
PASSWORD = "password"
RESIDENT_ID = "resident_id"
MOBILE = "mobile"
BANK_CARD = "bank_card"
EMAIL = "email"
PASSPORT = "passport"
ADDRESS = "address"
RECOVERY_CODE = "recovery_code"  # wallet recovery phrases, 2FA seeds and backup codes, disk recovery keys
LICENCE_PLATE = "licence_plate"
# Strongest first: overlapping findings are named by the earliest kind (a 2FA seed that is also a
# random token after "密钥" is named a recovery code, the more exact name).
KINDS = (PRIVATE_KEY, RECOVERY_CODE, API_KEY, PASSWORD, RESIDENT_ID, PASSPORT, MOBILE, BANK_CARD, EMAIL,
         ADDRESS, LICENCE_PLATE)


@dataclass(frozen=True)
class Finding:
    kind: str
    start: int  # offsets into the text that was checked
    end: int


def line_bounds(text: str, pos: int) -> tuple[int, int]:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return start, len(text) if end < 0 else end


def near(text: str, start: int, end: int, words: re.Pattern[str], before: int, after: int) -> bool:
    """Whether ``words`` occurs within ``before``/``after`` characters on the same line."""
    line_start, line_end = line_bounds(text, start)
    window = text[max(line_start, start - before):start] + " " + text[end:min(line_end, end + after)]
    return words.search(window) is not None


def entropy(value: str) -> float:
    """Shannon entropy in bits per character."""
    counts = Counter(value)
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in counts.values()) if n else 0.0


def char_classes(value: str) -> int:
    return sum((any(c.islower() for c in value), any(c.isupper() for c in value),
                any(c.isdigit() for c in value), any(not c.isalnum() for c in value)))


_TOKEN_CHARS_RE = re.compile(r"(?:[A-Za-z0-9+/_\-.~:]|%[0-9A-Fa-f]{2})+=*")  # "=" only as padding
_WORD_PART_RE = re.compile(r"[A-Z][a-z]+|(?<![A-Za-z])[a-z]+")
_SHORT_WORDS = frozenset(
    ["key", "get", "set", "max", "min", "url", "api", "add", "new", "old", "raw", "sub", "str", "int", "len", "src", "dst", "tmp", "msg", "err", "ctx", "cfg", "log", "obj", "val", "num", "row", "col", "map", "tag", "doc", "def", "ref", "res", "req", "app", "run", "use", "for", "and", "the", "not", "all", "any", "end", "put", "pop", "has", "out", "dir", "env", "pid", "uid", "gid", "sig", "id", "ip", "db", "io", "os", "fs"])


def _pronounceable(part: str) -> bool:
    """A word-like piece: vowels in it and no long consonant runs (random letters have both)."""
    q = part.lower()
    if len(q) < 4:
        return q in _SHORT_WORDS
    vowels = sum(c in "aeiou" for c in q) + sum(c == "y" for c in q[1:])
    run = max((len(m) for m in re.findall(r"[^aeiouy]+", q)), default=0)
    return vowels / len(q) >= 0.2 and run <= 4


def wordlike(value: str) -> bool:
    """Made of words (``CanonicalNameCredentialSourcer``, ``hello_macro_derive``), as names are.

    Measured on random base62/base64 tokens: judged word-like 1.4 % at 16
    characters, 0.4 % at 20-24, ≤ 0.1 % from 32 (tokens are rarely shorter
    than 20); identifiers of real code pass as words.
    """
    if any(c.isupper() for c in value) and any(c.islower() for c in value):
        letters = sum(c.isalpha() for c in value)
        in_words = sum(len(p) for p in _WORD_PART_RE.findall(value) if _pronounceable(p))
        return letters > 0 and in_words >= 0.6 * letters
    segments = [s for s in re.split(r"[._\-/:~]+", value) if s]
    if len(segments) > 1:
        return all(s.isalpha() or s.isdigit() or re.fullmatch(r"[A-Za-z]+\d{1,2}", s) for s in segments)
    letters = [c for c in value.lower() if c.isalpha()]
    return len(letters) == len(value) > 0 and sum(c in "aeiouy" for c in letters) / len(letters) >= 0.34


_CAMEL_RE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")


def _wordish_segment(segment: str) -> bool:
    """One piece of a dotted/underscored name: a number, words (``get``, ``Flags``, ``b64encode``,
    ``utf8``) or an acronym (``SEM``, ``KQ``, ``DOMBuilder``) — random pieces have lowercase
    scraps and scattered digits instead."""
    if segment.isdigit():
        return True
    if len(re.findall(r"\d+", segment)) > 1:
        return False
    return all(len(p) == 1 or p.lower() in _SHORT_WORDS or (p.isupper() and len(p) <= 6)
               or (len(p) >= 4 and _pronounceable(p)) for p in _CAMEL_RE.findall(segment))


def identifier_like(value: str) -> bool:
    """Words and numbers joined by separators: ``self._fd_to_key.values``, ``fs.s3.cse.enabled``,
    ``select.KQ_FILTER_READ``, ``1.3.6.1.5.5.7.3.2`` — names and versions, not tokens.

    Most of its letters must be in real words, so a random token that happens to
    split into acronym-like scraps is not taken for a name.
    """
    segments = [s for s in re.split(r"[._\-:/~]+", value) if s]
    if len(segments) < 2 or not all(_wordish_segment(s) for s in segments):
        return False
    letters = sum(c.isalpha() for c in value)
    words = sum(len(p) for p in _CAMEL_RE.findall(value)
                if p.lower() in _SHORT_WORDS or (len(p) >= 4 and _pronounceable(p)))
    return letters == 0 or words >= 0.5 * letters


def sequential(value: str) -> bool:
    """``abcdefghijklmnopqrstuvwxyz012345``, ``1234567890abcdef``: a placeholder, not a key."""
    steps = sum(1 for a, b in zip(value, value[1:], strict=False) if ord(b) - ord(a) == 1)
    return steps >= 0.5 * (len(value) - 1)


def _attribute_path(value: str) -> bool:
    """``cin.TokenKind.PUNCTUATION``, ``cin.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD``: names
    joined by dots, each short or made of words (a JWT's or a SendGrid key's parts are random)."""
    parts = value.split(".")
    return len(parts) >= 2 and all(
        re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", p) and (len(p) <= 12 or identifier_like(p) or wordlike(p))
        for p in parts)


# Documentation's own sample keys say so (AWS's AKIAIOSFODNN7EXAMPLE, "…EXAMPLEKEY").
_EXAMPLE_RE = re.compile(r"EXAMPLE|Example|example|PLACEHOLDER|placeholder|REDACTED|redacted")


def is_example(value: str) -> bool:
    return _EXAMPLE_RE.search(value) is not None


# How a media file's bytes begin, in base64 (PNG, JPEG, GIF, WebP/WAV, PDF, WOFF/WOFF2, ICO, TIFF, Ogg, MP3,
# SVG and XML, MP4/HEIC, WebM, TrueType/OpenType, FLAC): an image or a font inlined in a notebook, a data
# URI or a CSS file, not a key (random bytes begin so with odds under one in 16 million).
MEDIA_BASE64 = ("iVBORw0KGgo", "/9j/", "R0lGODlh", "R0lGODdh", "UklGR", "JVBERi0", "d09GR", "d09GMg", "AAABAA",
                "SUkqAA", "TU0AKg", "T2dnUw", "SUQzB", "SUQzA", "PHN2Zy", "PD94bWwg", "AAAAIGZ0eXA", "AAAAHGZ0eXA",
                "AAAAGGZ0eXA", "GkXfo", "AAEAAAA", "T1RUTw", "ZkxhQw")


def looks_random(value: str, *, min_len: int = 16) -> bool:
    """A machine-made token: long, varied, not a word or a number (hashes qualify; UUIDs too)."""
    core = value.strip("=")
    if len(core) < min_len or core.isdigit() or not _TOKEN_CHARS_RE.fullmatch(core) or is_example(core) \
            or core.startswith(MEDIA_BASE64):
        return False
    if re.fullmatch(r"[0-9a-fA-F-]+", core):
        hexdigits = core.replace("-", "")
        return len(hexdigits) >= max(min_len, 16) and entropy(hexdigits) >= 3.0
    if wordlike(core) or identifier_like(core) or sequential(core) or _attribute_path(core):
        return False
    if char_classes(core) < 2:
        return False
    return entropy(core) >= (3.0 if len(core) < 24 else 3.5)
