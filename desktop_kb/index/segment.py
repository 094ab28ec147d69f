"""Text segmentation shared by indexing and querying.

Indexing and querying must agree token for token, otherwise FTS5 silently
misses. So both sides go through :func:`index_tokens`: the fold of
:mod:`desktop_kb.text.fold` (NFKC, lower-case, canonical ideographs, one script),
CJK runs through jieba's ``cut_for_search`` (:mod:`desktop_kb.index.lexicon`:
the same words from a compact dictionary), everything else through one regex
that keeps identifiers (``docker-compose.yml``, ``v1.2.3``, ``C++``) whole *and*
emits their alphanumeric parts. The FTS5 tokenizer (:data:`FTS5_TOKENIZE`) is
configured so these space-joined tokens reach the index unchanged.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from desktop_kb.index.chunker import CHUNKER_VERSION
from desktop_kb.text.fold import fold, fold_signature
from desktop_kb.text.han import HAN_CHAR_RE, HAN_CHARS, HAN_RUN_RE, has_han

if TYPE_CHECKING:  # the segmenter is imported lazily: its dictionary load is slow.
    from desktop_kb.index.lexicon import CompactTokenizer

__all__ = [
    "FTS5_TOKENIZE",
    "FTS5_TOKENIZE_SQL",
    "OPS_TOKENIZE",
    "SEGMENTER_VERSION",
    "STOPWORDS",
    "STOPWORDS_EN",
    "STOPWORDS_ZH",
    "QueryAnalysis",
    "analyse_query",
    "base_word_known",
    "identifier_parts",
    "index_tokens",
    "is_identifier",
    "is_operator",
    "mask_full_width_marks",
    "normalize",
    "operator_spans",
    "operator_tokens",
    "query_operators",
    "query_terms",
    "gram_spans",
    "gram_tokens",
    "han_bigrams",
    "segment_for_index",
    "segmenter_signature",
    "set_user_words",
    "user_words",
    "word_tokens",
]

#: Stored in the index meta; any change in token output must bump it so the
#: index is rebuilt instead of silently disagreeing with new queries.
SEGMENTER_VERSION = "3"

#: Characters that join word parts into one identifier token (``--restart=always``,
#: ``localhost:8080``, ``std::vec``); a token may also start with ``-``/``--`` (flags).
_CONNECTORS = "-._/+@#=:"

#: FTS5 ``tokenize=`` value. ``tokenchars`` lists every connector (and ``_``,
#: which unicode61 would otherwise treat as a separator) so whole identifiers
#: survive as single tokens; diacritics are kept because our tokens are already
#: normalised and query/index must fold identically.
FTS5_TOKENIZE = "unicode61 remove_diacritics 0 tokenchars '-_./+@#=:'"
#: The same value quoted for direct use in DDL: ``fts5(body, tokenize=<this>)``.
FTS5_TOKENIZE_SQL = '"' + FTS5_TOKENIZE + '"'

#: Characters of the operators people ask about, made only of punctuation (``?``,
#: ``//!``, ``::``, ``..=``, ``=>``, ``#[``, ``{:?}``): a run of them is an operator.
_OP_CHARS = "!#$%&*+-./:;<=>?@[\\]^|~{}"
#: A lone character of these is too common to be asked about (``.`` ends sentences,
#: ``-`` lists, ``[``/``]`` links) or is a unit more often than an operator (15%, 10^23,
#: $3): it is an operator only as part of a longer run.
_OP_NOT_ALONE = frozenset(".,:;/-[]{}%^$")
#: ``tokenize=`` of ``kb_ops``, the operators' own table (index/db.py): every operator
#: character (and ``'``, doubled in the option, for lifetimes: ``'a``) is a token
#: character. A table of its own, so the words' lengths and frequencies in ``kb_fts``
#: (BM25 of every other question) stay as they were.
OPS_TOKENIZE = "unicode61 remove_diacritics 0 tokenchars '_" + _OP_CHARS + "'''"

# A token is a Han run (for jieba, which only knows U+4E00..U+9FD5 and emits
# other ideographs as single characters, which is fine) or a word: a non-Han
# word char followed by word chars or combining marks (U+0300..U+036F), as
# FTS5 keeps a mark inside a token but drops a leading one.
_B = rf"[^\W{HAN_CHARS}]"
_M = "[\u0300-\u036f]"
_WORD = rf"{_B}(?:{_B}|{_M})*"
_TOKEN_RE = re.compile(
    rf"(?P<han>[{HAN_CHARS}]+)"
    rf"|(?P<word>(?:--?|[#.])?{_WORD}(?:[{re.escape(_CONNECTORS)}]+{_WORD})*[+#]*)"
)
# Operators: words (identifiers and flags are words, not operators: --rm), then a lifetime
# or label ('a, 'static; not a quoted word: 'hello'), then a run of operator characters.
_OPERATOR_SCAN_RE = re.compile(
    rf"(?P<word>(?:--?|[#.])?{_WORD}(?:[{re.escape(_CONNECTORS)}]+{_WORD})*[+#]*)"
    rf"|(?P<op>(?<![\w'])'(?>{_WORD})(?!')|[{re.escape(_OP_CHARS)}]+)"
)
# Runs of connectors inside an identifier that are operators (std::vec, 1..=5).
_INNER_OP_RE = re.compile(rf"(?<=\w)[{re.escape(_CONNECTORS)}]{{2,}}(?=\w)")
# A full-width sentence mark is never an operator (folding would make ？ a "?") ...
_FULL_WIDTH_MARK_RE = re.compile("[？！，。；：]")
# ... nor, in a question, ASCII sentence punctuation ending a word ("ownership?", "是什么?",
# "in C++?", "C#?": + and # end a word too).
_SENTENCE_MARK_RE = re.compile(
    rf"(?<=[\w+#{HAN_CHARS}，。、；：！？》〉\"')\]”’）」』])[?!.,;:]+(?=[\s\"')\]”’）」』]|$)")
# Alphanumeric parts of an identifier ("_" separates parts too).
_P = rf"[^\W_{HAN_CHARS}]"
_PART_RE = re.compile(rf"{_P}(?:{_P}|{_M})*")
_LATIN_CHAR_RE = re.compile("[a-z\u00c0-\u024f\u1e00-\u1eff]")  # after lower()
# Straight quotes plus the CJK quote pairs people type for exact phrases.
_PHRASE_RE = re.compile(r'"([^"]*)"|“([^”]*)”|「([^」]*)」')


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


STOPWORDS_ZH: frozenset[str] = _wordset(
    """
    的 了 是 在 和 与 及 或 吗 呢 啊 吧 呀 嘛 哦 么 着 过 也 都 就 把 被 给 对
    从 向 于 以 而 之 其 这 那 个 有 要 会 能 可 请 让 并 即 等 所 为 由
    什么 怎么 怎样 怎么样 如何 哪 哪些 哪个 哪里 谁 为什么 为何 多少 几 是否
    是不是 有没有 能否 可以 一个 一下 一些 这个 那个 这些 那些 我们 你们 他们
    我 你 他 她 它 及其 以及 或者 还是 还有 关于 对于 然后
    """
)
STOPWORDS_EN: frozenset[str] = _wordset(
    """
    a an the of to is are was were be been being am do does did what how why
    which who whom whose when where in on at for from by with about as into and
    or not no nor but if then than that this these those it its i me my we our
    you your he she they them their can could should would will shall may might
    must there here please any some all
    """
)
#: Query words that carry no topic. Dropped from queries (unless nothing would
#: remain) but never from the index: phrases still need them.
STOPWORDS: frozenset[str] = STOPWORDS_ZH | STOPWORDS_EN

_lexicon: CompactTokenizer | None = None
_lexicon_lock = threading.Lock()


def _segmenter() -> CompactTokenizer:
    """The shared Chinese word segmenter (jieba's words, compact dictionary), loaded once.

    Lazy so app start-up never pays for the dictionary; locked so two index
    threads cannot both load it. The dictionary's compact form is cached in the
    per-user cache folder (derived data, rebuilt if missing or damaged).
    """
    global _lexicon
    tok = _lexicon
    if tok is not None:
        return tok
    with _lexicon_lock:
        tok = _lexicon
        if tok is None:
            import platformdirs

            from desktop_kb.index.lexicon import CompactTokenizer

            tok = CompactTokenizer(cache_dir=Path(platformdirs.user_cache_dir("desktop-kb")))
            _lexicon = tok
        return tok


def set_user_words(words: frozenset[str]) -> bool:
    """The person's own terms for this process's segmenter (see ``index/user_words.py``);
    True when the set changed. An empty set never loads the dictionary just to clear it."""
    if not words and (_lexicon is None or not _lexicon.user_words):
        return False
    return _segmenter().set_user_words(words)


def user_words() -> frozenset[str]:
    tok = _lexicon
    return tok.user_words if tok is not None else frozenset()


def base_word_known(word: str) -> bool:
    """Whether jieba's own dictionary holds ``word`` (already folded)."""
    return _segmenter().base_freq(word) > 0


def normalize(text: str) -> str:
    """The index form (:func:`desktop_kb.text.fold.fold`): NFKC, lower-case,
    canonical ideographs, Simplified script. Index and queries both go through it."""
    return fold(text)


@functools.cache
def segmenter_signature() -> str:
    """Everything the index's tokens depend on, stored in ``kb_meta``: a different
    value (new rules, new chunk boundaries, an OpenCC or jieba upgrade) makes the
    index rebuild."""
    try:
        from importlib.metadata import version

        jieba_version = version("jieba")
    except Exception:  # noqa: BLE001 - a frozen bundle may lack the metadata
        jieba_version = "?"
    return f"{SEGMENTER_VERSION}+chunks{CHUNKER_VERSION}+{fold_signature()}+jieba{jieba_version}"


def is_identifier(token: str) -> bool:
    """True for a non-CJK token that joins parts with connector characters."""
    return not HAN_CHAR_RE.search(token) and any(c in _CONNECTORS or c == "_" for c in token)


def identifier_parts(token: str) -> list[str]:
    """Alphanumeric parts of an identifier, e.g. ``docker-compose.yml`` → 3 parts."""
    return _PART_RE.findall(token)


def _tokens_normalized(text: str, *, search: bool = True) -> list[str]:
    """Tokenize already-normalised text; ``search`` selects cut_for_search granularity
    for CJK (words and their known parts), otherwise whole words (precise mode)."""
    matches = list(_TOKEN_RE.finditer(text))
    runs = [han for m in matches if (han := m.group("han")) is not None and len(han) > 1]
    segmenter = _segmenter()
    segmented = (segmenter.cut_for_search_many(runs) if search else segmenter.cut_many(runs)) if runs else []
    words = iter(segmented)
    out: list[str] = []
    append = out.append
    extend = out.extend
    for m in matches:
        han = m.group("han")
        if han is not None:
            if len(han) == 1:
                append(han)
            else:
                extend(next(words))
            continue
        word = m.group("word")
        if not is_identifier(word):
            append(word)
            continue
        parts = _PART_RE.findall(word)
        if parts:  # a run of only "_" carries nothing
            append(word)
            if parts != [word]:
                extend(parts)
    return out


def _operator(run: str) -> str | None:
    """The operator a run of operator characters stands for, or None for punctuation.

    ``x?;`` and ``)?.unwrap()`` hold the ``?`` operator; ``!!``, ``???`` and an
    ellipsis are emphasis, not operators.
    """
    if run[0] == "'":
        return run
    if len(run) > 1 and run.strip("."):
        run = run.rstrip(";,.")
    if (len(run) > 1 and not run.strip("?!")) or (len(run) > 2 and not run.strip(".")):
        return None
    if len(run) == 1 and run in _OP_NOT_ALONE:
        return None
    return run or None


def _operator_spans(text: str, *, inner: bool) -> Iterator[tuple[int, int, str]]:
    """(start, end, operator) of each operator in the normalized ``text``, in text order."""
    for m in _OPERATOR_SCAN_RE.finditer(text):
        word = m.group("word")
        if word is None:
            if op := _operator(m.group("op")):
                yield m.start(), m.start() + len(op), op  # a run loses only trailing ;,.
        elif inner and is_identifier(word):
            for part in _INNER_OP_RE.finditer(word):
                yield m.start() + part.start(), m.start() + part.end(), part.group()


def _operators_normalized(text: str, *, inner: bool) -> list[str]:
    return [op for _, _, op in _operator_spans(text, inner=inner)]


def operator_tokens(text: str) -> list[str]:
    """Operators of ``text`` in text order, with repeats: what ``kb_ops`` holds for a chunk.

    ``?``, ``//!``, ``'a`` and the operators inside identifiers (``::`` of ``std::vec``,
    ``..=`` of ``1..=5``): a question about an operator is otherwise matched on its
    other words only, as word tokens never hold punctuation alone.
    """
    return _operators_normalized(normalize(mask_full_width_marks(text)), inner=True)


def mask_full_width_marks(text: str) -> str:
    """``text`` with its full-width sentence marks as spaces (the same length): folding
    would make ？ a "?", and no operator is one."""
    return _FULL_WIDTH_MARK_RE.sub(" ", text)


def operator_spans(folded: str) -> list[tuple[int, int, str]]:
    """Where :func:`operator_tokens` finds its operators: (start, end, operator) in
    ``folded``, the index form of a text whose full-width marks were masked
    (:func:`mask_full_width_marks`)."""
    return list(_operator_spans(folded, inner=True))


@functools.lru_cache(maxsize=1024)
def is_operator(term: str) -> bool:
    """Whether an index-form term is one operator (``?``, ``{:?}``, ``'a``), not a word."""
    return bool(term) and _operators_normalized(term, inner=False) == [term]


def query_operators(query: str) -> list[str]:
    """Distinct operators a question asks about: not its sentence punctuation, and not
    the operators inside an identifier it names (``std::vec`` means the identifier)."""
    text = _FULL_WIDTH_MARK_RE.sub(" ", _SENTENCE_MARK_RE.sub(" ", query))
    return list(dict.fromkeys(_operators_normalized(normalize(text), inner=False)))


def index_tokens(text: str) -> list[str]:
    """Tokens written to the index, in text order and with repeats (BM25 needs tf)."""
    return _tokens_normalized(normalize(text))


def word_tokens(text: str) -> list[str]:
    """Whole words (jieba's precise mode), no search-granularity fragments.

    ``index_tokens`` also emits the parts jieba finds inside a word ("澳大利亚"
    → "澳大", "大利", "利亚"), which lets searches find words by their parts;
    a note's *defining* terms must be whole words, or two notes would look
    related for sharing "利亚".
    """
    return _tokens_normalized(normalize(text), search=False)


def han_bigrams(normalized: str) -> list[str]:
    """Every pair of adjacent ideographs in each run of already-normalised text.

    The signal for words the segmenter does not know: "内卷" is cut into 内/卷
    on its own but kept whole inside a sentence, so the word-level index and
    a query can disagree; their bigrams never do.
    """
    out: list[str] = []
    for m in HAN_RUN_RE.finditer(normalized):
        run = m.group()
        out.extend(run[i:i + 2] for i in range(len(run) - 1))
    return out


def gram_spans(query: str) -> list[str]:
    """Stretches of a query that the word index may have cut differently (index form).

    A single character the segmenter leaves between words is the mark of a word
    it does not know: "内卷" → 内/卷, "大模型" → 大/模型, "易烊千玺" → 易/烊/千玺.
    Each such character is joined with its neighbour on either side (stopwords
    stay out), and lexical search looks those stretches up by their bigrams.
    """
    runs = [m.group() for m in HAN_RUN_RE.finditer(normalize(query))]
    runs = [r for r in runs if len(r) > 1]
    spans: dict[str, None] = {}
    for words in _segmenter().cut_many(runs) if runs else []:
        for i, w in enumerate(words):
            if len(w) != 1 or w in STOPWORDS:
                continue
            if i > 0 and words[i - 1] not in STOPWORDS:
                spans[words[i - 1] + w] = None
            if i + 1 < len(words) and words[i + 1] not in STOPWORDS:
                spans[w + words[i + 1]] = None
    return list(spans)


def gram_tokens(text: str) -> str:
    """Space-joined :func:`han_bigrams` of ``text``: what ``kb_grams`` holds for a chunk."""
    return " ".join(han_bigrams(normalize(text)))


def segment_for_index(text: str) -> str:
    """Space-joined :func:`index_tokens`: the exact text stored in the FTS5 column."""
    return " ".join(_tokens_normalized(normalize(text)))


@dataclass(frozen=True)
class QueryAnalysis:
    """What a user query means to the lexical side.

    ``terms`` are distinct index-form tokens in query order (stopwords dropped
    unless nothing else is left; phrase words included so they still score and
    highlight). ``phrases`` are the token sequences of quoted phrases (≥2
    tokens). ``identifiers`` are the whole identifier tokens among ``terms``.
    ``has_cjk``/``has_latin`` report Han ideographs / Latin-script letters, as
    a language signal for query-adaptive fusion.
    """

    terms: list[str]
    phrases: list[list[str]]
    identifiers: list[str]
    has_cjk: bool
    has_latin: bool
    # Every distinct token, stopwords included: fusion measures how much of the
    # *whole* question a passage holds ("How are you, Tom?" is more than "tom").
    all_terms: list[str] = field(default_factory=list)
    # Operators made only of punctuation (``?``, ``//!``): matched in ``kb_ops``, apart
    # from the words (``query_operators``).
    operators: list[str] = field(default_factory=list)


def analyse_query(query: str) -> QueryAnalysis:
    """Segment a query exactly like the index does, then keep what is meaningful."""
    text = normalize(query)
    # (token, quoted) in query order; an unbalanced quote is plain punctuation.
    ordered: list[tuple[str, bool]] = []
    phrases: list[list[str]] = []
    pos = 0
    for m in _PHRASE_RE.finditer(text):
        ordered.extend((t, False) for t in _query_tokens(text[pos : m.start()]))
        inner = next(g for g in m.groups() if g is not None)
        toks = _tokens_normalized(inner)
        if len(toks) >= 2:
            phrases.append(toks)
        ordered.extend((t, True) for t in _drop_identifier_parts(toks))
        pos = m.end()
    ordered.extend((t, False) for t in _query_tokens(text[pos:]))
    # Quoted words are kept even if they are stopwords: the user asked for them.
    kept = [t for t, quoted in ordered if quoted or t not in STOPWORDS]
    terms = list(dict.fromkeys(kept or [t for t, _ in ordered]))
    return QueryAnalysis(
        terms=terms,
        phrases=phrases,
        identifiers=[t for t in terms if is_identifier(t)],
        has_cjk=has_han(text),
        has_latin=bool(_LATIN_CHAR_RE.search(text)),
        all_terms=list(dict.fromkeys(t for t, _ in ordered)),
        operators=query_operators(query),
    )


def _query_tokens(text: str) -> list[str]:
    """Index tokens of normalised query text without identifier parts.

    The index emits parts so a query for ``docker`` finds ``docker-compose.yml``;
    a query naming the identifier means the identifier, so its parts are not
    separate terms (build_match adds them as a phrase instead).
    """
    return _drop_identifier_parts(_tokens_normalized(text))


def _drop_identifier_parts(tokens: list[str]) -> list[str]:
    """Remove the part tokens that follow each identifier in index_tokens output."""
    out: list[str] = []
    skip = 0
    for t in tokens:
        if skip:
            skip -= 1
            continue
        out.append(t)
        if is_identifier(t):
            parts = _PART_RE.findall(t)
            if parts != [t]:
                skip = len(parts)
    return out


def query_terms(query: str) -> list[str]:
    """Distinct meaningful index-form terms of ``query``, in query order."""
    return analyse_query(query).terms
