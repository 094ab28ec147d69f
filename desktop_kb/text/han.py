"""Which characters count as Han ideographs: one definition for every module.

Segmentation, folding, snippets, title matching, related material, packing,
answer-length counting, question language and the secret detectors all ask
"is this a Chinese character?". They must agree: a character that the index
treats as Han but the highlighter treats as a letter would light up half a
word.

The set is every block of CJK ideographs a reader meets in real text:

* the Unified Ideographs (U+4E00–U+9FFF) and Extension A (U+3400–U+4DBF);
* the Compatibility Ideographs (U+F900–U+FAFF), which PDFs and Big5/HKSCS
  conversions still emit (folding maps them to their unified forms);
* planes 2 and 3 (U+20000–U+3FFFF: Extensions B–H and the Compatibility
  Supplement), where rare characters of people's and places' names and
  Cantonese writing live (𠮷, 𨋢 "lift").  Both planes hold nothing but
  ideographs, so their whole span is used.

Left out on purpose: the Yijing hexagram symbols inside U+4DC0–U+4DFF
(symbols, not words), Kangxi radicals and strokes (folding turns those into
ideographs before anything asks), kana, punctuation and full-width forms.
"""

from __future__ import annotations

import re

__all__ = ["HAN_CHARS", "HAN_CHAR_RE", "HAN_RUN_RE", "JIEBA_HAN_CHARS", "has_han", "is_han"]

#: The Han ranges, for use inside a regex character class: ``f"[{HAN_CHARS}]"``.
HAN_CHARS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff"
HAN_CHAR_RE = re.compile(f"[{HAN_CHARS}]")
HAN_RUN_RE = re.compile(f"[{HAN_CHARS}]+")

#: The ideographs jieba's dictionary and its own regexes know (``re_han_default``).
#: Dictionary words and user-dictionary entries must stay inside this range, or
#: jieba splits them back into single characters; other Han characters still
#: reach the index, as single-character terms.
JIEBA_HAN_CHARS = "\u4e00-\u9fd5"


def is_han(ch: str) -> bool:
    """Whether the character ``ch`` (one code point) is a Han ideograph."""
    return HAN_CHAR_RE.match(ch) is not None


def has_han(text: str) -> bool:
    """Whether ``text`` holds a Han ideograph (either Chinese script)."""
    return HAN_CHAR_RE.search(text) is not None
