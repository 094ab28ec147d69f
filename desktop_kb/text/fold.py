"""One canonical form of text for matching: the index, queries and highlights all fold alike.

Three foldings, each for a reason people meet in practice:

* **Canonical code points** (:func:`ideographs`): PDF text extraction often
  yields Kangxi radicals, radical-supplement forms, strokes or compatibility
  ideographs (``⼀⾥⻚``) where the page shows ordinary ideographs (``一里页``).
  This one is safe for stored and displayed text: it changes no length and
  touches nothing but those characters.
* **NFKC + lower-case**: full-width Latin and digits, ligatures, case.
* **One Chinese script** (:func:`to_simplified`): a learner who types
  Simplified Chinese must find Traditional material and the reverse, so both
  sides are folded to Simplified with OpenCC's ``t2s`` conversion (phrase-aware,
  the maintained upstream project; see the README for why this package).
  Traditional → Simplified is the many-to-one direction (發/髮 → 发), which is
  what a folding needs; the reverse would have to guess.

:func:`fold` is the index form (search only: never shown). :func:`fold_map`
returns the same form with, for every folded character, the span of the
source it came from, so highlights found in folded text point at the
original characters.
"""

from __future__ import annotations

import functools
import logging
import threading
import unicodedata
from pathlib import Path
from typing import Protocol

from desktop_kb.text.han import has_han, is_han
from desktop_kb.text.radicals import RADICAL_TO_IDEOGRAPH

log = logging.getLogger(__name__)

__all__ = [
    "FOLD_VERSION",
    "fold",
    "fold_map",
    "fold_signature",
    "ideographs",
    "model_text",
    "opencc_converter",
    "to_simplified",
]

#: Bump when the folding rules change (the index records it and rebuilds).
#: 2: the embedding model reads Simplified text (:func:`model_text`), so the
#: vectors of Traditional chunks are made again.
FOLD_VERSION = "2"


def _ideograph_table() -> dict[int, int]:
    """Radicals and strokes (Unicode's equivalents) plus compatibility ideographs (NFC)."""
    table = dict(RADICAL_TO_IDEOGRAPH)
    for lo, hi in ((0xF900, 0xFAFF), (0x2F800, 0x2FA1F)):
        for cp in range(lo, hi + 1):
            canonical = unicodedata.normalize("NFC", chr(cp))
            if len(canonical) == 1 and canonical != chr(cp):
                table[cp] = ord(canonical)
    return table


_IDEOGRAPHS = _ideograph_table()


def ideographs(text: str) -> str:
    """Radicals, strokes and compatibility ideographs → unified ideographs; same length.

    For stored text too (the importer applies it to PDF text): nothing else changes.
    """
    return text.translate(_IDEOGRAPHS)


class Converter(Protocol):
    def convert(self, text: str) -> str: ...


_converters: dict[str, Converter] = {}
_converters_lock = threading.Lock()


def opencc_converter(config: str) -> Converter:
    """OpenCC's converter for ``config`` (e.g. ``t2s.json``), loaded once (t2s: a few ms, 2.6 MB;
    s2twp from merged tables, ``opencc_compact``: 12 MB where OpenCC's own takes 43)."""
    conv = _converters.get(config)
    if conv is None:
        with _converters_lock:
            conv = _converters.get(config)
            if conv is None:
                conv = _converters[config] = _load_converter(config)
    return conv


def _load_converter(config: str) -> Converter:
    """OpenCC's converter, from merged tables where that saves memory (``opencc_compact``)."""
    import opencc
    import platformdirs

    from desktop_kb.text.opencc_compact import compact_config

    compact = compact_config(config, Path(platformdirs.user_cache_dir("desktop-kb")))
    if compact is not None:
        try:
            return opencc.OpenCC(str(compact))
        except Exception:  # noqa: BLE001 - damaged derived files: OpenCC's own tables still work
            log.info("OpenCC could not read %s; using its own %s", compact, config)
    return opencc.OpenCC(config)


def _t2s() -> Converter:
    """OpenCC's Traditional → Simplified converter."""
    return opencc_converter("t2s.json")


@functools.lru_cache(maxsize=65536)
def _t2s_char(ch: str) -> str:
    out = _t2s().convert(ch)
    return out if len(out) == 1 else ch


def to_simplified(text: str) -> str:
    """Traditional → Simplified Chinese, always the same length as ``text``.

    OpenCC converts phrase by phrase (乾燥 → 干燥 but 乾隆 stays). Its ``t2s``
    tables map one character to one character, but should a future table map
    a phrase to one of another length, the text is converted character by
    character instead, so offsets into ``text`` stay valid for the result.
    """
    if not has_han(text):
        return text
    out = _t2s().convert(text)
    if len(out) == len(text):
        return out
    return "".join(_t2s_char(ch) if is_han(ch) else ch for ch in text)


def model_text(text: str) -> str:
    """What an embedding model reads: ``text`` in Simplified script, nothing else folded.

    The models we ship place a Traditional sentence and its Simplified
    spelling apart (multilingual USE on DRCD dev, 1,000 questions: dense R@1
    0.593 Traditional→Traditional but 0.515 Simplified questions→Traditional
    passages, 0.489 the reverse). Passages and queries both read in one script
    put every pairing at the Simplified→Simplified figure (0.589). Case, width
    and punctuation stay: models are trained on natural text.
    """
    return to_simplified(text)


def _fold_chars(text: str) -> str:
    """Everything but the script: NFKC, lower-case, ideographs. May change length."""
    folded = unicodedata.normalize("NFKC", text).lower().replace("i\u0307", "i")
    return folded.translate(_IDEOGRAPHS)


def fold(text: str) -> str:
    """The index form: NFKC, lower-case, canonical ideographs, Simplified script.

    "İ".lower() is "i" + U+0307; the dot is dropped so "istanbul" finds "İstanbul".
    """
    return to_simplified(_fold_chars(text))


#: What a character that does not fold to exactly one character (or is a combining
#: mark, folded with its base) becomes in :data:`_ONE_TO_ONE`: two characters, so a
#: translated text whose length changed takes the per-cluster path.
_NOT_ONE_TO_ONE = "\x00\x00"


class _OneToOne(dict[int, str]):
    """``str.translate`` table: each character's own fold, filled as characters are met.

    Snippets fold every shown chunk; a C-level translate is ~10× faster than a
    Python call per character. Bounded by the distinct characters seen.
    """

    def __missing__(self, code: int) -> str:
        ch = chr(code)
        folded = _fold_chars(ch)
        value = folded if len(folded) == 1 and not unicodedata.combining(ch) else _NOT_ONE_TO_ONE
        self[code] = value
        return value


_ONE_TO_ONE = _OneToOne()


def fold_map(
    source: str, start: int = 0, end: int | None = None, *, script: bool = True,
) -> tuple[str, list[int], list[int]]:
    """:func:`fold` of ``source[start:end]`` plus per-folded-char source start/end offsets.

    Folding is done per base character with its combining marks, so NFKC can
    compose them and each folded character maps back to a whole source
    cluster ("ﬁ" → "fi": both map to the ligature). The script fold then runs
    over the whole folded string (phrases need context) and keeps its length.
    Most text folds one char to one char: that case uses identity offsets.
    ``script=False`` skips the script fold (tests check each step on its own).
    """
    convert = to_simplified if script else str
    end = len(source) if end is None else end
    text = source[start:end]
    if text.isascii():
        return text.lower(), list(range(start, end)), list(range(start + 1, end + 1))
    one_to_one = text.translate(_ONE_TO_ONE)
    if len(one_to_one) == len(text):  # every character folded to exactly one, no marks
        return convert(one_to_one), list(range(start, end)), list(range(start + 1, end + 1))
    pieces: list[str] = []
    starts = []
    ends: list[int] = []
    i = 0
    n = len(text)
    while i < n:
        j = i + 1
        while j < n and unicodedata.combining(text[j]):
            j += 1
        folded = _fold_chars(text[i:j])
        pieces.append(folded)
        starts.extend([start + i] * len(folded))
        ends.extend([start + j] * len(folded))
        i = j
    return convert("".join(pieces)), starts, ends


def fold_signature() -> str:
    """What the index's tokens depend on here: rules and converter data version.

    Stored with the index; a different signature (an OpenCC upgrade with new
    tables) makes the index rebuild instead of disagreeing with new queries.
    """
    try:
        from importlib.metadata import version

        opencc_version = version("opencc")
    except Exception:  # noqa: BLE001 - a frozen bundle may lack the metadata
        import opencc

        opencc_version = str(getattr(opencc, "__version__", "?"))
    return f"fold{FOLD_VERSION}+unicode{unicodedata.unidata_version}+opencc{opencc_version}-t2s"
