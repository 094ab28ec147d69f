"""How common a word is in everyday language, as a zipf value (log10 of its frequency per
billion words: "the" 7.7, "minutes" 5.3, 分钟 5.0, "pasta" 3.9, 红烧肉 3.0).

The relevance floor weighs each question word by how much it says about a topic: a word
common in everyday language (分钟, 刚好, "fix", "flat") says little, a rare one (闭包,
"tokio") a lot. Chinese words are read from jieba's own dictionary frequencies (already
loaded for segmentation); English ones from wordfreq's small list, shipped as
``resources/words/en_zipf.txt.gz`` (129 kB on disk, ~3 MB resident, read on first use).
"""

from __future__ import annotations

import gzip
import math
import threading
from functools import lru_cache

from desktop_kb.assets import RESOURCES
from desktop_kb.text.han import HAN_CHAR_RE

#: A word neither list knows: rarer than the rarest listed word (both lists end near 1-2).
ZIPF_UNKNOWN = 1.0
#: How much rarer than its rarest character a Han term may count: jieba's dictionary lists
#: phrases and search-mode pieces at its lowest counts (昨天晚上, 哪几种, 受够: 1.7, as rare as
#: 生命周期), and a term jieba lacks is often characters its HMM joined (表是, 疼要).
HAN_BELOW_CHARACTERS = 2.0
#: jieba's dictionary lists search-mode pieces and phrases at its least count (哪几种, 受够,
#: 昨天晚上: 3), and its HMM joins characters it cannot place into terms it does not list
#: (写个, 包有, 做点): neither count says how rare the term is, so such a term reads as its
#: rarest character. A colloquial question is full of them, and the library lacks them as
#: it lacks every non-word: read as rare, they outweighed the words the library holds.
JIEBA_LEAST = 3
#: A token of digits ("3", "2024"): numbers are everyday words whatever their value.
ZIPF_NUMBER = 5.0

EN_ZIPF = RESOURCES / "words" / "en_zipf.txt.gz"

_english: dict[str, float] | None = None
_lock = threading.Lock()


def zipf(term: str) -> float:
    """The term's everyday-language zipf value; :data:`ZIPF_UNKNOWN` for a word no list holds.

    A Han term of several characters counts as at most :data:`HAN_BELOW_CHARACTERS` rarer
    than its rarest character, and as that character when jieba's count says nothing of it
    (:data:`JIEBA_LEAST`)."""
    if not term:
        return ZIPF_UNKNOWN
    if term.isdigit():
        return ZIPF_NUMBER
    if HAN_CHAR_RE.search(term):
        return _han_zipf(term)
    return _english_words().get(term.lower(), ZIPF_UNKNOWN)


#: English endings a word may carry that the word list (of whole words) lacks: what to put back
#: for the word it is a form of ("decoder" -> decode, "grumbling" -> grumble, "zipping" -> zip).
ENGLISH_ENDINGS = (("ing", ("", "e")), ("ed", ("", "e")), ("er", ("", "e")), ("ers", ("", "e")),
                   ("es", ("", "e")), ("s", ("",)), ("able", ("", "e")), ("ible", ("", "e")), ("ly", ("",)),
                   ("ness", ("",)))
#: Prefixes of the same kind ("impolite" -> polite, "multibyte" -> byte).
ENGLISH_PREFIXES = ("im", "in", "un", "dis", "non", "re", "multi")


def known_word(term: str) -> bool:
    """Whether everyday language knows the term, or the English word it is a form of.

    The segmenter cuts "wasn't" into wasn + t, and the word list holds "decode" and "polite" but
    not "decoder" or "impolite": read alone, such pieces look as unknown as a name ("nginx"). A
    compound of everyday words ("built-in", "hand-compiled") is everyday too: the list holds words
    without their hyphens."""
    if zipf(term) > ZIPF_UNKNOWN:
        return True
    if HAN_CHAR_RE.search(term):
        return False
    if "-" in term.strip("-"):
        return all(part and known_word(part) for part in term.split("-"))
    if not term.isalpha():
        return False
    words = _english_words()
    word = term.lower()
    if word.endswith("n") and f"{word}'t" in words:
        return True
    stems = [word[len(p):] for p in ENGLISH_PREFIXES if word.startswith(p) and len(word) - len(p) >= 4]
    for ending, restored in ENGLISH_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            stem = word[: -len(ending)]
            stems.extend(stem + r for r in restored)
            if len(stem) > 3 and stem[-1] == stem[-2]:
                stems.append(stem[:-1])  # zipping -> zipp -> zip
    return any(stem in words for stem in stems)


@lru_cache(maxsize=65536)
def _han_zipf(term: str) -> float:
    from desktop_kb.index.segment import _segmenter

    lexicon = _segmenter()
    freq = lexicon.base_freq(term)
    own = math.log10(freq / lexicon.total * 1e9) if freq > 0 else ZIPF_UNKNOWN
    if len(term) > 1:
        rarest = min(_han_zipf(c) if HAN_CHAR_RE.match(c) else ZIPF_UNKNOWN for c in term)
        if freq <= JIEBA_LEAST:
            return max(ZIPF_UNKNOWN, rarest)
        own = max(own, rarest - HAN_BELOW_CHARACTERS)
    return max(ZIPF_UNKNOWN, own)


def _english_words() -> dict[str, float]:
    global _english
    words = _english
    if words is not None:
        return words
    with _lock:
        if _english is None:
            table: dict[str, float] = {}
            with gzip.open(EN_ZIPF, "rt", encoding="utf-8") as src:
                for line in src:
                    if line.startswith("#") or "\t" not in line:
                        continue
                    step, listed = line.rstrip("\n").split("\t", 1)
                    value = int(step) / 100
                    for word in listed.split(" "):
                        table.setdefault(word, value)
            _english = table
        return _english
