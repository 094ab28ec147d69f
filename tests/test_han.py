"""One set of Han characters: the shared definition and the modules that ask it agree."""

from __future__ import annotations

import pytest

from desktop_kb.index.segment import han_bigrams, normalize
from desktop_kb.qa.answer_length import AnswerLimit
from desktop_kb.qa.prompt import question_language
from desktop_kb.retrieval.packing import question_grams
from desktop_kb.text.han import has_han, is_han

# The first and last character of each block, and a rare name character (𠮷, Ext B)
# and a Cantonese one (𨋢 "lift", Ext B) people meet in real text.
HAN = ["\u4e00", "\u9fff", "\u3400", "\u4dbf", "\uf900", "\ufaff", "\U00020000", "𠮷", "𨋢",
       "\U0002a700", "\U0002f800", "\U00030000", "\U0003134a"]
# Neighbours people confuse with ideographs: a hexagram symbol inside Ext A's row,
# kana, bopomofo, CJK punctuation, a Kangxi radical (folding maps it, is_han does not),
# the ideographic zero's neighbour 〆, a full-width bracket, Hangul.
NOT_HAN = ["\u4dc0", "\u4dff", "あ", "ア", "ㄅ", "、", "。", "\u2f00", "〆", "（", "한", "a", "1", " "]


@pytest.mark.parametrize("ch", HAN)
def test_ideographs_of_every_block_are_han(ch: str) -> None:
    assert is_han(ch)
    assert has_han(f"abc {ch} def")


@pytest.mark.parametrize("ch", NOT_HAN)
def test_symbols_kana_and_punctuation_are_not(ch: str) -> None:
    assert not is_han(ch)
    assert not has_han(f"abc {ch} def")


# Radicals become ideographs when folded, so the folding modules are probed without them.
_PROBES = [*HAN, *(ch for ch in NOT_HAN if ch != "\u2f00" and not ch.isascii())]


@pytest.mark.parametrize("ch", _PROBES)
def test_every_module_asks_the_same_question(ch: str) -> None:
    """Segmentation, packing, answer counting and question language treat a character alike.

    Packing, answer counting and question language used narrower copies of the set
    (no Extension B..H, or hexagram symbols counted as Chinese) before they shared it.
    """
    han = is_han(ch)
    assert bool(han_bigrams(normalize(ch * 2))) == han
    assert bool(question_grams(ch * 2)) == han
    limit = AnswerLimit(max_tokens=4)
    limit.add(ch * 10)  # Han: at least 5 tokens; anything else: at least 2
    assert limit.exceeded == han
    assert (question_language(f"{ch} ?") == "zh") == han


def test_a_name_folded_into_extension_e_keeps_its_bigrams() -> None:
    """趙孟頫 folds to 赵孟𫖯 (OpenCC's Simplified 頫 is U+2B5AF, Extension E): packing's old
    basic-plane copy broke the name there, and a DRCD question about him lost its bigrams."""
    grams = question_grams("趙孟頫的書法受到何人的影響很深?")
    assert "孟\U0002b5af" in grams and "\U0002b5af的" in grams
