"""Terms a note names: its title, its ``[[link]]`` targets and ``#tags`` (issue 12 item 4).

A term is a run of 2–8 ideographs that jieba's own dictionary does not hold
as a word ("易烊千玺", "零成本抽象"): the person treats it as one word, the
segmenter would cut it into pieces. ``index/user_words.py`` puts them into the
segmenter's dictionary. Pure functions (the rebuild calls them in its
segmentation processes).
"""

from __future__ import annotations

import re
import sqlite3

from desktop_kb.index.segment import base_word_known, normalize
from desktop_kb.index.sources import SourceText
from desktop_kb.text.han import JIEBA_HAN_CHARS

#: Longer titles are sentences, not terms; as one token they would hide the
#: 4-character words inside them from a query (cut_for_search adds 2/3 only).
MAX_TERM_CHARS = 8
_HAN_TERM_RE = re.compile(f"[{JIEBA_HAN_CHARS}]{{2,{MAX_TERM_CHARS}}}")
_LINK_RE = re.compile(r"\[\[([^\[\]\n|#]+)[^\[\]\n]*\]\]")
# "#元宇宙", but not "C#…" or "&#…" (a "#" right after a letter, digit or "&").
_TAG_RE = re.compile(f"(?<![\\w&])#([{JIEBA_HAN_CHARS}]{{2,{MAX_TERM_CHARS}}})(?![{JIEBA_HAN_CHARS}])")


def _candidates(title: str, body: str) -> list[str]:
    out = [title]
    if "[[" in body:
        out += _LINK_RE.findall(body)
    if "#" in body:
        out += _TAG_RE.findall(body)
    return out


def terms_of(title: str, body: str) -> set[str]:
    """Terms a note names: its title, its link targets and tags, when each is a
    run of 2–8 ideographs jieba's own dictionary does not hold as a word."""
    out: set[str] = set()
    for raw in _candidates(title, body):
        term = normalize(raw).strip()
        if _HAN_TERM_RE.fullmatch(term) and not base_word_known(term):
            out.add(term)
    return out


def store_terms(store: sqlite3.Connection) -> set[str]:
    """Every live note's terms (for a rebuild); bodies are read only when they hold a link or tag."""
    out: set[str] = set()
    for title, body in store.execute(
            "SELECT title, CASE WHEN instr(body, '[[') > 0 OR instr(body, '#') > 0 "
            "THEN body ELSE '' END FROM notes WHERE trashed_at IS NULL"):
        out |= terms_of(title or "", body or "")
    return out


def source_terms(source: SourceText) -> set[str]:
    """Terms of a note (fragments of imported documents name none)."""
    return terms_of(source.title, source.text) if source.source_type == "note" else set()
