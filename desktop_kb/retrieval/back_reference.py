"""Whether a sentence leans on an earlier one for what it is about ("他", "此片", "this").

"1949年，他驾驶“海星号”货轮返回厦门" answers "谁驾驶海星号货轮返回厦门？" only
together with the sentence that says who "他" is — usually the passage's first,
which names its subject. A sentence whose subject points back (a pronoun or a
demonstrative opening one of its first two clauses) marks a window that needs it.

Reads the index form (:func:`desktop_kb.index.segment.normalize`: lower-case,
Simplified script), so "這" is recognised as "这".
"""

from __future__ import annotations

import re

# A referring word that opens one of the sentence's first two clauses: the subject
# ("他驾驶…", "1949年，他驾驶…", "此片…"), not an object further in ("书中记载了他…").
# 本 is left out: it opens 日本 and 本来 far more often than 本片.
_REFERRING = re.compile(r"(?:[他她它其此该这]|(?:this|these|those|it|he|she|they|his|her|its|their)\b)")
_CLAUSE = re.compile(r"[，,；;：:]")


def refers_back(folded_sentence: str) -> bool:
    """Whether the sentence's subject is a word that points back to something named earlier."""
    clauses = _CLAUSE.split(folded_sentence, maxsplit=2)[:2]
    return any(_REFERRING.match(c.lstrip()) for c in clauses)
