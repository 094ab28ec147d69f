"""What kind of answer a question asks for, and whether a sentence carries one.

A question's answer often sits in a sentence that shares none of its words:
"纽西兰鸡毛松有什么用途？" is answered by the sentence after the one naming the
tree. When the question asks for a number or date ("多少", "哪一年", "how many")
or for a list ("哪些", "which"), the packer can still tell a likely answer
sentence from its neighbours: it holds digits, or an enumeration.

Both functions read the index form (:func:`desktop_kb.index.segment.normalize`:
lower-case, Simplified script), so a Traditional question ("哪一年") and an
English one are recognised alike.
"""

from __future__ import annotations

import re
from enum import Enum


class AnswerKind(Enum):
    NUMBER = "number"  # a quantity, a year or a date
    LIST = "list"  # several items


_NUMBER_QUESTION = re.compile(
    r"多少|几[个年月日天岁次位名种人届座条项部本只度倍]|第几|哪一?年|哪一?天|哪一?日|何年|何时|"
    r"什么时候|什么时间|哪个时候|多久|多长|多高|多大|多重|多远|多深|多宽|多厚|多老|年份|日期|几何时|"
    r"\bhow (?:many|much|long|old|far|tall|high|big|large|deep)\b|\bwhen\b|\bwhat (?:year|date|time)\b|"
    r"\bwhich year\b")
_LIST_QUESTION = re.compile(r"哪些|有哪|包括什么|包含什么|几种|\bwhich\b.*\b(?:are|were)\b|\bwhat are\b|\blist\b")
# A number in the text: Arabic digits, or Chinese numerals before a unit or a date part.
_NUMBER = re.compile(r"\d|[〇零一二三四五六七八九十百千万亿两]+[年月日岁个次位名人米元倍号世届]")
_ENUMERATION = re.compile(r"、[^、。；]{1,30}、|(?:[^,;.]{1,40}, ){2,}")


def answer_kind(folded_question: str) -> AnswerKind | None:
    """The kind of answer ``folded_question`` asks for, or None (who, what, why …)."""
    if _LIST_QUESTION.search(folded_question):
        return AnswerKind.LIST
    if _NUMBER_QUESTION.search(folded_question):
        return AnswerKind.NUMBER
    return None


def carries(kind: AnswerKind, folded_sentence: str) -> bool:
    """Whether the sentence holds an answer of ``kind`` (a number; an enumeration)."""
    if kind is AnswerKind.NUMBER:
        return _NUMBER.search(folded_sentence) is not None
    return _ENUMERATION.search(folded_sentence) is not None
