"""Related notes and fragments for one note, each with the reason it is suggested.

The note's own content is the query: its key terms (IDF-weighted, the words
that make it *this* note) go to the lexical side, and the vectors of its
chunks go to the dense side. Evidence is scored per chunk and aggregated per
target (note or fragment), then resolved against the store once (I6): a
target that is gone, trashed, the note itself, already linked or dismissed for
this note is never shown. Nothing here writes anything (I9).

Scores, per target chunk:

* lexical = IDF-weight of the note's key terms the chunk holds, relative to
  the weight of the note's few strongest terms (so sharing the two or three
  words that define the note counts fully, whatever the note's length). Key
  terms are whole words (never jieba's search fragments such as "利亚"), not
  stopwords, not single characters or two-letter Latin words, and not common
  across the library (by the index's own document frequencies): a suggestion
  never rests on "步骤", "笔记" or "up";
* dense = the best cosine between any chunk of the note and the chunk, read
  through the model's calibration on this library (``retrieval.calibration``):
  its *closeness* is 0 at the cosine of unrelated text and 1 at that of a
  sentence and its own passage. Raw cosines mean different things per model.

With a model that fits the library, nothing under a calibrated similarity is
shown; a suggestion must also share key terms or be close in meaning on its
own, closer than the best of as many unrelated pairs gets by chance
(:func:`chance_level`). Keywords alone must share more of a long note's rare
words than passages share by chance (:meth:`KeyTerms.shared_needed`). The panel
shows fewer items rather than noise; a note the library holds nothing about gets
none. Constants are chosen by
leave-one-set-out on the related-material pairs (``benchmarks/bench_fusion_loso.py``).
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from statistics import NormalDist

import numpy as np

from desktop_kb.discovery.guides import untouched_welcome
from desktop_kb.embed.engine import EmbeddingEngine
from desktop_kb.index.everyday_words import zipf
from desktop_kb.index.prepare import chunk_source, embed_text_of
from desktop_kb.index.segment import STOPWORDS, word_tokens
from desktop_kb.index.sources import SourceKey, load_source
from desktop_kb.index.vectors import from_blob
from desktop_kb.retrieval.calibration import NEGATIVES, Calibration, read_for_question
from desktop_kb.retrieval.dense import DenseIndex
from desktop_kb.retrieval.fts_query import quote_fts_token
from desktop_kb.retrieval.resolve import chunk_refs, fits, fragment_documents, resolve_sources
from desktop_kb.retrieval.snippets import make_snippet, written_forms
from desktop_kb.retrieval.term_stats import bm25_idf, chunk_tokens, index_stats
from desktop_kb.store import links as store_links
from desktop_kb.text.han import has_han, is_han

DEFAULT_LIMIT = 8
MAX_KEY_TERMS = 24  # terms sent to the lexical side
# Connectives and fillers: they count as shared words (paraphrases share them), but a
# suggestion whose only shared words are these ("如果…的话", "因为…所以") rests on nothing.
_CONNECTIVE_WORDS = """
    的话 因为 所以 如果 假如 要是 虽然 但是 可是 不过 而且 并且 然而 因此 于是 因而 所以说
    就是 就会 也是 还是 只是 已经 正在 一直 这样 那样 这么 那么 这种 那种 这里 那里 时候
    之后 之前 以后 以前 后来 现在 当时 其实 可能 应该 一定 非常 特别 比较 一样 一起 自己
    大家 没有 不是 不会 不能 例如 比如 另外 其他 其中 通过 进行 一般 总是 还要
"""
CONNECTIVES: frozenset[str] = frozenset(_CONNECTIVE_WORDS.split())
#: Words a title uses for what kind of note it is, not what it is about ("Docker 笔记",
#: "Rust notes", "第三章总结"): read as a subject, the welcome note ("1. 笔记 — 就是这个
#: 编辑器") was offered beside every "… 笔记" a person wrote in a new library.
_KIND_WORDS = """
    笔记 学习笔记 读书笔记 心得 总结 小结 复习 整理 记录 摘要 摘抄 备忘 备忘录 草稿 随笔 日记
    note notes summary review draft memo diary journal
"""
KIND_WORDS: frozenset[str] = frozenset(_KIND_WORDS.split())
#: Words this common in everyday language (zipf, ``index.everyday_words``: 问题 6.0, 方法 5.5,
#: 今天 5.4, "thing" 5.7, "today" 5.6, "important" 5.4) count as shared words too, but say
#: nothing of what two notes are about: two notes of a small library, where no word is common
#: enough to be left out by its chunk count, were suggested for sharing 今天, 方法 and 问题.
EVERYDAY_ZIPF = 5.3
MAX_REASON_TERMS = 6  # shared terms shown as the reason
SUPPORT_PASSAGES = 3  # a document's best passages that speak for it (``document_support``)
SATURATION_TERMS = 3  # sharing the weight of this many top terms = full lexical evidence
MAX_QUERY_CHUNKS = 8  # chunks of a long note used as dense queries
LEXICAL_CANDIDATES = 200
DENSE_PER_CHUNK = 50
MIN_LEXICAL = 0.2  # roughly: shares at least one of the note's defining words
COMMON_SHARE = 0.05  # a term in more than this share of chunks defines nothing ...
COMMON_MIN_CHUNKS = 4  # ... once it is in more than this many (small libraries)
#: ... unless the note names it (title, heading, #tag) and it is in at most this share: a note
#: titled "Rust 所有权" beside the Rust book is about 所有权, in 9 % of the book's chunks.
NAMED_COMMON_SHARE = 0.25
#: The chance, at most, that any passage of the library shares that many of a note's rare words
#: by chance alone (the usual 5 % level, taken over the whole library at once).
CHANCE_ANY = 0.05
ABOUT_SHARE = 0.1  # shared telling words, as a share of each text's, that say two texts meet
SNIPPET_CHARS = 180
MODES = ("lexical", "dense", "rrf", "hybrid")
# "The same thing in other words": a cosine at least this share of the way from a
# sentence-and-its-own-passage (the calibration's ``related``) up to identical text. Closeness
# stops at 1 at ``related`` itself, which a passage that merely shares the note's topic reaches
# (USE on the Rust book: the welcome note and "Hello, World!" at cosine 0.46, related 0.41).
SAME_MEANING_SHARE = 0.5
SAME_MEANING_RAW = 0.9  # the same, as a raw cosine, when the library has no calibration


def chance_level(comparisons: int) -> float:
    """The level (spreads above unrelated text) that the best of ``comparisons`` unrelated
    pairs reaches about once: where fewer than one is expected above it by chance.

    A note's few chunks against a library's thousand make thousands of pairs, and the best
    of them stands three spreads above unrelated text by chance alone (the welcome note and
    the Rust book's "Hello, World! > 编译和运行是独立的步骤": 3.17 of an expected 3.4).
    """
    if comparisons <= 1:
        return 0.0
    return NormalDist().inv_cdf(1.0 - 1.0 / comparisons)


def same_in_meaning(similarity: float | None, calibration: Calibration | None) -> bool:
    """Whether the model puts two texts as close as one text and a rewording of it."""
    if similarity is None:
        return False
    if calibration is None:
        return similarity >= SAME_MEANING_RAW
    return similarity >= calibration.related + SAME_MEANING_SHARE * (1.0 - calibration.related)


@dataclass(frozen=True)
class RelatedParams:
    """Related-material constants, in calibrated units.

    Fitted on the Tatoeba paraphrase and translation pairs, each left out in turn
    (``benchmarks/bench_related_loso.py``). On those sets meaning decides and shared
    key terms order near-ties; both are paraphrase sets, so the fit leans to meaning.
    The weight grid stopped at 16, which both folds chose; widened, the folds chose
    32 and 64 and held-out translation pairs rose from 0.930 to 0.940 R@1 (dense alone
    0.943), paraphrases unchanged (0.917, as dense).
    """

    dense_weight: float = 64.0  # closeness 1.0 counts as much as this many fully shared key-term sets
    min_level: float = 3.0  # nothing under this many spreads above unrelated text is shown ...
    alone_level: float = 3.0  # ... and from this level up meaning alone is enough
    #: How much a passage's place in the order is its document's (``document_support``) rather than
    #: its own score: 0 = its own score alone. Fitted per model on the learner notes beside the
    #: Rust book, alternate halves left out (``benchmarks/bench_related_book.py --split``).
    document_share: float = 0.0


DEFAULT_RELATED = RelatedParams()

_LETTER_RE = re.compile(r"[^\W\d_]")


@dataclass(frozen=True)
class Suggestion:
    rank: int
    target_type: str
    target_id: int
    title: str
    terms: list[str]  # shared key terms, strongest first, as the note writes them ("Ctrl", "GitLab")
    similarity: float | None  # best cosine; None when no model is in use
    snippet: str
    highlights: list[tuple[int, int]]  # offsets into ``snippet``
    start: int  # snippet span in the target's text, for opening it highlighted
    end: int
    score: float
    document_id: int | None = None  # fragments: the document to open
    # The similarity as this model means it on this library: 0 = unrelated text,
    # 1 = as close as a sentence to its own passage (what the panel shows as a percentage).
    closeness: float | None = None
    # What the panel shows as a percentage: 0 = unrelated text, 1 = the same text
    # (``Calibration.likeness``); closeness saturates at passages on one topic.
    likeness: float | None = None
    same_meaning: bool = False  # as close as a rewording of the same text (``same_in_meaning``)

    @property
    def key(self) -> SourceKey:
        return (self.target_type, self.target_id)

    def as_json(self) -> dict[str, object]:
        return {
            "rank": self.rank, "target_type": self.target_type, "target_id": self.target_id,
            "title": self.title,
            "reason": {"terms": list(self.terms),
                       "similarity": None if self.similarity is None else round(self.similarity, 4),
                       "closeness": self.closeness, "likeness": self.likeness},
            "snippet": self.snippet,
        }


@dataclass
class RelatedResult:
    note_id: int
    suggestions: list[Suggestion] = field(default_factory=list)
    mode: str = "lexical"  # "hybrid" when a model took part
    key_terms: list[str] = field(default_factory=list)
    dropped: int = 0  # candidates that could not be resolved against the store (I6)
    missing: bool = False  # the note is gone or in the trash
    welcome: bool = False  # the app's welcome note, as it wrote it (``discovery.guides``): no suggestions

    def as_json(self) -> dict[str, object]:
        return {"note_id": self.note_id, "mode": self.mode,
                "suggestions": [s.as_json() for s in self.suggestions]}


@dataclass
class _Evidence:
    lexical: float = 0.0
    similarity: float | None = None
    terms: tuple[str, ...] = ()


def _meaningful(term: str) -> bool:
    """A term worth matching on: no stopwords, no single characters, no two-letter
    Latin words ("up", "of"), no short numbers."""
    if term in STOPWORDS:
        return False
    if has_han(term):
        return len(term) >= 2
    if _LETTER_RE.search(term):
        return len(term) >= 3
    return len(term) >= 3  # "2024", "8080"


def telling(term: str) -> bool:
    """Whether sharing ``term`` says two texts are about the same thing: not a connective,
    not a word for a kind of note (:data:`KIND_WORDS`), not an everyday word
    (:data:`EVERYDAY_ZIPF`)."""
    return term not in CONNECTIVES and term not in KIND_WORDS and zipf(term) < EVERYDAY_ZIPF


def _common(df: int, total: int, named: bool = False) -> bool:
    return df > COMMON_MIN_CHUNKS and df > (NAMED_COMMON_SHARE if named else COMMON_SHARE) * total


@dataclass(frozen=True)
class KeyTerms:
    """A note's defining terms and how often the rest of the library holds each."""

    weights: dict[str, float]  # term -> (1 + log tf) × IDF, strongest first
    doc_freq: dict[str, int]  # term -> chunks outside the note that hold it
    chunks: int  # chunks outside the note

    def rare(self, term: str) -> bool:
        """Whether the library can tell ``term`` is rare: it is in at most :data:`COMMON_SHARE`
        of the other chunks. In a library of a few notes every word is in a good share of them,
        and nothing says whether sharing it is chance."""
        return self.chunks > 0 and self.doc_freq.get(term, 0) <= COMMON_SHARE * self.chunks

    def shared_needed(self) -> int:
        """How many of the note's rare telling terms a passage must share to be more than chance.

        A long note holds many rare words, and the library's passages share some of them by
        chance: the Chinese welcome note shares "ctrl" and "标签" with the Rust book's passage
        on loops (ctrl-c, loop labels), and 点击, 中英 and 附带 with its preface, three of 24
        rare words (0.12 of the book's 1,071 chunks expected to share three if words fell
        independently; words that go together, such as a page's 点击 and 中英, meet more often).
        The answer is the smallest count that no chunk of this library is likely to share by
        chance, the chance that any does staying under :data:`CHANCE_ANY` (terms independent,
        each in its share of the chunks); more than the note has when even that is not rare.
        """
        # Only words rare by the library's own measure (:meth:`rare`) meet by chance: in a
        # small library every word is in a good share of the chunks, and such a word counts
        # only where it says both texts are about one thing (:func:`about_each_other`).
        shares = [self.doc_freq[t] / self.chunks for t in self.weights if telling(t) and self.rare(t)]
        # P(a chunk holds at least k of the terms), the Poisson-binomial tail.
        dist = [1.0]
        for p in shares:
            dist = [a * (1.0 - p) + b * p for a, b in zip([*dist, 0.0], [0.0, *dist], strict=True)]
        # One shared word is the plain evidence (the chunks that hold a rare word are the ones
        # to show), unless the note's words meet in passages by chance: then a passage
        # must share more of them than chance does.
        tail = 1.0 - dist[0]
        for k in range(2, len(dist)):
            tail -= dist[k - 1]
            if -math.expm1(self.chunks * math.log1p(-min(tail, 1.0))) < CHANCE_ANY:
                return 1 if k == 2 else k
        return len(dist) if len(dist) > 2 else 1


@dataclass(frozen=True)
class Aboutness:
    """What a text says it is about, for words the library is too small to call rare."""

    named: str  # its title, Markdown headings and #tags, case-folded
    telling: frozenset[str]  # its telling words

    @classmethod
    def of(cls, title: str, text: str, *, tags: bool = True) -> Aboutness:
        """``tags``: whether #tags name the text's subject too (a learner's tags are often a
        shelf, #学习/编程, where the title says the subject)."""
        from desktop_kb.markup.headings import outline
        from desktop_kb.markup.tags import note_tags

        named = "\n".join([title, *(h.title for h in outline(text)),
                           *(note_tags(text).values() if tags else ())])
        words = frozenset(t for t in word_tokens(f"{title}\n{text}") if _meaningful(t) and telling(t))
        return cls(named.casefold(), words)

    def names(self, term: str) -> bool:
        """The term is in the title, a heading or a tag (下雨 in the title 下雨天), and says
        what the text is about rather than what kind of note it is (:data:`KIND_WORDS`).

        A Latin word is named only as a whole word: "rules" is not named by the heading
        "使用 macro_rules! 的声明宏", "mut" not by "Mutex<T>", "lock" not by "Cargo.lock" (an
        English note "Ownership rules" was offered the macros chapter first)."""
        if term in KIND_WORDS or term not in self.named:
            return False
        if has_han(term):
            return True
        return re.search(rf"(?<![\w.]){re.escape(term)}(?!\w|\.\w)", self.named) is not None

    def share(self, shared: int) -> float:
        return shared / max(1, len(self.telling))


def about_each_other(note: Aboutness, target: Aboutness, shared: Sequence[str]) -> bool:
    """Whether words shared by two texts say they are about the same thing, where the library
    cannot tell rare words from common ones.

    Yes when one of them names its subject (title, heading, tag), or when they are a good part
    of both texts, at least :data:`ABOUT_SHARE` of each one's telling words: a long note
    shares a word or two with anything (the welcome note's 83 telling words meet a note on
    Docker commands in 停止, Ctrl and 查看: 4 %), two short notes on one thing share one word in
    ten or more (火候 in a note on braised pork and one on stir-fried greens: 1 in 10 and 1 in 5).
    """
    if any(note.names(t) or target.names(t) for t in shared):
        return True
    return min(note.share(len(shared)), target.share(len(shared))) >= ABOUT_SHARE


def key_term_stats(index: sqlite3.Connection, title: str, body: str,
                   own_chunks: Sequence[int], limit: int = MAX_KEY_TERMS) -> KeyTerms:
    """The note's defining terms with weights: (1 + log tf) × IDF over the *other* chunks.

    A term found only in this note matches nothing else, so it is left out;
    so is a term common across the library.
    """
    counts = Counter(t for t in word_tokens(f"{title}\n{body}") if _meaningful(t))
    if not counts:
        return KeyTerms({}, {}, 0)
    own_tokens = chunk_tokens(index, own_chunks)
    chunks, freqs = index_stats(index, list(counts))
    total = chunks - len(own_tokens)
    about = Aboutness.of(title, body)
    weights: dict[str, float] = {}
    doc_freq: dict[str, int] = {}
    for term, tf in counts.items():
        df = freqs.get(term, 0) - sum(1 for toks in own_tokens.values() if term in toks)
        if df <= 0 or total <= 0 or _common(df, total, about.names(term)):
            continue
        weights[term] = (1.0 + math.log(tf)) * bm25_idf(total, df)
        doc_freq[term] = df
    top = dict(sorted(weights.items(), key=lambda kv: (-kv[1], kv[0]))[:limit])
    return KeyTerms(top, {t: doc_freq[t] for t in top}, max(0, total))


def key_terms(index: sqlite3.Connection, title: str, body: str,
              own_chunks: Sequence[int], limit: int = MAX_KEY_TERMS) -> dict[str, float]:
    """:func:`key_term_stats`' weights alone."""
    return key_term_stats(index, title, body, own_chunks, limit).weights


def _lexical_candidates(index: sqlite3.Connection, terms: Sequence[str]) -> list[int]:
    if not terms:
        return []
    match = " OR ".join(quote_fts_token(t) for t in terms)
    rows = index.execute(
        "SELECT rowid FROM kb_fts WHERE kb_fts MATCH ? ORDER BY bm25(kb_fts, 1.0, 2.0), rowid LIMIT ?",
        (match, LEXICAL_CANDIDATES)).fetchall()
    return [int(r[0]) for r in rows]


def _note_vectors(index: sqlite3.Connection, source_version: str, source: object,
                  own_chunks: Sequence[int], engine: EmbeddingEngine, dense: DenseIndex) -> np.ndarray:
    """Vectors of the note's chunks: from the index when it is current, else embedded now."""
    indexed = index.execute(
        "SELECT version FROM kb_sources WHERE source_type = 'note' AND source_id = ?",
        (source.source_id,)).fetchone()  # type: ignore[attr-defined]
    if indexed is not None and indexed[0] == source_version and own_chunks:
        ids = list(own_chunks)[:MAX_QUERY_CHUNKS]
        marks = ",".join("?" * len(ids))
        rows = index.execute(
            f"SELECT vector FROM kb_vectors NOT INDEXED WHERE model_id = ? AND chunk_id IN ({marks})",
            (dense.model_id, *ids)).fetchall()
        if len(rows) == len(ids):
            return np.stack([from_blob(r[0], dense.dim) for r in rows])
    texts = [embed_text_of(c.text, source.title)  # type: ignore[attr-defined]
             for c in chunk_source(source)][:MAX_QUERY_CHUNKS]  # type: ignore[arg-type]
    texts = [t for t in texts if t.strip()]
    if not texts:
        return np.empty((0, dense.dim), dtype=np.float32)
    return engine.embed_passages(texts)


def read_for_note(calibration: Calibration | None, vectors: np.ndarray, dense: DenseIndex,
                  centre: np.ndarray | None, note_has_han: bool,
                  own: Iterable[int] = ()) -> Calibration | None:
    """A note in another script than the library's, read against its own cosines to the library.

    The library's unrelated level and spread say nothing of such a note: multilingual-e5 puts
    an English note on the Chinese Rust book spreads under the library's unrelated level, and
    its cosines to the whole book lie closer together than Chinese text's, so the chapter it
    is about never reached the floor (13 of 16 English learner notes got no passage at all).
    USE, whose levels hold across scripts for questions, still left two of them with nothing
    and its closest passages a hair under the floor ('Sending messages between threads', the
    chapter on channels 2.65 spreads up on the library's scale, 5.5 on the note's own). Its level and
    spread are those of its own best cosines (as evidence takes them: the best of its chunks)
    to the chunks the library's level was measured on (its own left out); the library's
    separation is kept.
    """
    read = read_for_question(calibration, vectors.mean(axis=0), centre, note_has_han)
    if read is calibration or read is None:
        return read
    mine = set(own)  # the note against itself would stretch its spread
    _, sample = dense.vectors([cid for cid in dense.sample_ids(NEGATIVES, 1) if cid not in mine])
    if len(sample) < 2:
        return read
    best = (sample.astype(np.float64) @ vectors.astype(np.float64).T).max(axis=1)
    spread = float(best.std())
    if spread <= 1e-6:
        return read
    unrelated = float(best.mean())
    return replace(read, unrelated=unrelated, spread=spread, related=unrelated + read.separation * spread)


def _dense_evidence(vectors: np.ndarray, dense: DenseIndex, extra: Iterable[int]) -> dict[int, float]:
    best: dict[int, float] = {}
    for vector in vectors:
        for cid, sim in dense.search(vector, DENSE_PER_CHUNK):
            if sim > best.get(cid, -1.0):
                best[cid] = sim
    missing = [cid for cid in extra if cid not in best]
    for vector in vectors:
        for cid, sim in dense.similarities(vector, missing).items():
            if sim > best.get(cid, -1.0):
                best[cid] = sim
    return best


def excluded_targets(store: sqlite3.Connection, note_id: int) -> set[SourceKey]:
    """The note itself, everything linked either way, and what was dismissed for it."""
    excluded: set[SourceKey] = {("note", note_id)}
    excluded |= {(link.target_type, link.target_id) for link in store_links.outgoing_links(store, note_id)}
    excluded |= {("note", link.note_id) for link in store_links.backlinks(store, "note", note_id)}
    excluded |= store_links.dismissed_targets(store, note_id)
    welcome = untouched_welcome(store)
    if welcome is not None:  # about the app, not the person's subject (``discovery.guides``)
        excluded.add(("note", welcome))
    return excluded


def reason_terms(shared: Sequence[str]) -> list[str]:
    """The shared terms to show, strongest first.

    Single CJK characters help ranking short sentences but read as noise
    ("用", "了"), so they are shown only when nothing longer is shared; a word shared as a
    #tag too is shown once, as the tag; connectives and everyday words come last.
    """
    words = [t for t in shared if not (len(t) == 1 and is_han(t))] or list(shared)
    # A shared #tag says it already: "Rust, #rust" read as two reasons.
    words = [t for t in words if f"#{t}" not in shared]
    # The words the notes are about before the everyday ones: "引用, 就是", not "就是, 引用".
    return sorted(words, key=lambda t: not telling(t))[:MAX_REASON_TERMS]


@dataclass(frozen=True)
class _Reading:
    """How this note's evidence is read: mode, calibration and constants."""

    mode: str
    calibration: Calibration | None
    params: RelatedParams
    shared_needed: int = 1  # telling terms a passage shares before keywords count (``KeyTerms``)
    alone_level: float = 0.0  # meaning alone: at least this many spreads (``chance_level``)
    stats: KeyTerms | None = None  # which shared terms the library can call rare (``KeyTerms.rare``)

    @property
    def fit(self) -> float:
        return self.calibration.fit if self.calibration else 1.0

    def level(self, similarity: float | None) -> float | None:
        if similarity is None or self.calibration is None:
            return None
        return self.calibration.standardize(similarity)

    def closeness(self, similarity: float | None) -> float:
        if similarity is None:
            return 0.0
        if self.calibration is None:
            return max(0.0, similarity)
        return self.calibration.closeness(similarity)

    def likeness(self, similarity: float) -> float:
        if self.calibration is None:
            return max(0.0, min(1.0, similarity))
        return self.calibration.likeness(similarity)

    def score(self, ev: _Evidence) -> float:
        dense = self.closeness(ev.similarity)
        if self.mode == "lexical":
            return ev.lexical
        if self.mode == "dense":
            return dense
        return ev.lexical + self.params.dense_weight * self.fit * dense

    def passes(self, ev: _Evidence, about: Callable[[Sequence[str]], bool] = lambda _: False,
               named: bool = False) -> bool:
        """The floor: shown only with enough evidence, calibrated similarity first.

        Where keywords decide alone, a passage shares more of the note's rare telling words
        than chance does (``KeyTerms.shared_needed``), or telling words the library is too
        small to call rare that say the two are about the same thing (``about(words)``,
        :func:`about_each_other`): in a library of five notes the welcome note shared 停止 and
        Ctrl with a note on Docker commands, 引用 and 离开 with one on Rust ownership.
        Where meaning has a say, one shared telling word beside a calibrated similarity is
        enough, and meaning alone must stand above what chance gives the best of this many
        comparisons (``alone_level``).

        ``named``: both texts name a word they share, the note in its title or a heading, the
        passage in its title, a heading or a #tag (the note "Rust 所有权" and the book's
        "什么是所有权？"), which says what both are about whatever a model makes of a short
        note: such a passage needs only to be closer than unrelated text is on average.
        """
        telling_shared = [t for t in ev.terms if telling(t)]
        lexical_ok = ev.lexical >= MIN_LEXICAL and bool(telling_shared)
        level = self.level(ev.similarity)
        if named and telling_shared and self.mode != "dense":
            return level is None or self.fit == 0.0 or level >= 0.0
        if self.mode == "lexical" or level is None or self.fit == 0.0:
            if self.mode == "dense":
                return ev.similarity is not None
            if not lexical_ok:
                return False
            rare = [t for t in telling_shared if self.stats is None or self.stats.rare(t)]
            if len(rare) >= self.shared_needed:
                return True
            unmeasured = [t for t in telling_shared if t not in rare]
            return bool(unmeasured) and about(unmeasured)
        if level < self.params.min_level:
            return False
        return self.mode == "dense" or lexical_ok or level >= max(self.params.alone_level, self.alone_level)


def document_support(store: sqlite3.Connection, best: dict[SourceKey, tuple[float, int]],
                     share: float) -> dict[SourceKey, float]:
    """Each passage's score read partly as its document's: ``share`` of the mean of the
    :data:`SUPPORT_PASSAGES` best passages' scores in its document (itself among them; a
    document with fewer passages that pass counts the missing ones as 0), the rest its own
    score. Notes keep their own.

    A chapter about what the note is about holds many passages that meet it; a later chapter
    that uses the idea in passing holds one or two. Alone, one passage of the later chapter
    can score highest (the learner's note on channels met the web server chapter's thread
    pool, which sends jobs down a channel, before the chapter on channels).
    """
    if share <= 0:
        return {}
    documents = fragment_documents(store, [key[1] for key in best if key[0] == "fragment"])
    by_document: dict[int, list[float]] = {}
    for key, (score, _cid) in best.items():
        if key[0] == "fragment" and key[1] in documents:
            by_document.setdefault(documents[key[1]], []).append(score)
    top = {doc: sorted(scores, reverse=True)[:SUPPORT_PASSAGES] for doc, scores in by_document.items()}
    mean = {doc: sum(scores) / SUPPORT_PASSAGES for doc, scores in top.items()}
    return {key: (1.0 - share) * score + share * mean[documents[key[1]]]
            for key, (score, _cid) in best.items() if key[0] == "fragment" and key[1] in documents}


def _rrf_scores(evidence: dict[int, _Evidence]) -> dict[int, float]:
    """Plain RRF over the lexical and the dense ordering (the baseline)."""
    from desktop_kb.retrieval.fusion import RRF_K

    scores = dict.fromkeys(evidence, 0.0)
    lexical = sorted((c for c, e in evidence.items() if e.lexical > 0), key=lambda c: (-evidence[c].lexical, c))
    dense = sorted((c for c, e in evidence.items() if e.similarity is not None),
                   key=lambda c: (-(evidence[c].similarity or 0.0), c))
    for ranked in (lexical, dense):
        for rank, cid in enumerate(ranked, start=1):
            scores[cid] += 1.0 / (RRF_K + rank)
    return scores


def related_for_note(
    index: sqlite3.Connection, store: sqlite3.Connection, note_id: int, *,
    engine: EmbeddingEngine | None = None, dense: DenseIndex | None = None,
    limit: int = DEFAULT_LIMIT, floor: bool = True, mode: str = "hybrid",
    calibration: Calibration | None = None, params: RelatedParams = DEFAULT_RELATED,
    centre: np.ndarray | None = None,
) -> RelatedResult:
    """Suggestions for one note; ``mode`` other than hybrid is for measuring baselines."""
    if mode not in MODES:
        raise ValueError(f"unknown related mode {mode!r}; choose one of {', '.join(MODES)}")
    result = RelatedResult(note_id)
    source = load_source(store, ("note", note_id))
    if source is None:
        result.missing = True
        return result
    if limit <= 0:
        return result
    if untouched_welcome(store) == note_id:
        result.welcome = True
        return result
    own_chunks = [r[0] for r in index.execute(
        "SELECT id FROM kb_chunks WHERE source_type = 'note' AND source_id = ? ORDER BY ord", (note_id,))]
    own = set(own_chunks)
    stats = key_term_stats(index, source.title, source.text, own_chunks)
    weights = stats.weights
    result.key_terms = list(weights)
    lexical_ids: list[int] = []
    if mode != "dense":
        lexical_ids = [cid for cid in _lexical_candidates(index, list(weights)) if cid not in own]

    similarities: dict[int, float] = {}
    use_dense = (mode != "lexical" and engine is not None and dense is not None and dense.ready
                 and len(dense) > 0)
    if use_dense:
        vectors = _note_vectors(index, source.version, source, own_chunks, engine, dense)  # type: ignore[arg-type]
        if len(vectors):
            similarities = _dense_evidence(vectors, dense, lexical_ids)  # type: ignore[arg-type]
            result.mode = "hybrid"
            calibration = read_for_note(calibration, vectors, dense, centre,  # type: ignore[arg-type]
                                        has_han(f"{source.title}\n{source.text}"), own)
        else:
            use_dense = False
    if mode == "dense" and not use_dense:
        return result
    comparisons = len(vectors) * len(dense) if use_dense else 0  # type: ignore[arg-type]
    reading = _Reading(mode if use_dense else "lexical", calibration, params, stats.shared_needed(),
                       chance_level(comparisons), stats)

    candidates = list(dict.fromkeys(lexical_ids + [c for c in similarities if c not in own]))
    tokens = chunk_tokens(index, candidates)
    strongest = sorted(weights.values(), reverse=True)[:SATURATION_TERMS]
    saturation = sum(strongest) or 1.0
    evidence: dict[int, _Evidence] = {}
    for cid in candidates:
        shared = tuple(t for t in weights if t in tokens.get(cid, ()))
        evidence[cid] = _Evidence(
            lexical=min(1.0, sum(weights[t] for t in shared) / saturation),
            similarity=similarities.get(cid) if use_dense else None,
            terms=shared)
    scores = _rrf_scores(evidence) if reading.mode == "rrf" else {
        cid: reading.score(ev) for cid, ev in evidence.items()}

    # Aggregate per target: its best chunk speaks for it.
    refs = chunk_refs(index, candidates)
    excluded = excluded_targets(store, note_id)
    note_about = Aboutness.of(source.title, source.text)
    targets: dict[SourceKey, Aboutness | None] = {}

    def target_about(key: SourceKey) -> Aboutness | None:
        # Read only for a candidate that rests on words too common here to be rare, or on a
        # word the note's title names.
        if key not in targets:
            target = resolve_sources(store, [key]).get(key)
            targets[key] = Aboutness.of(target.title, target.text) if target else None
        return targets[key]

    def about(key: SourceKey, shared: Sequence[str]) -> bool:
        found = target_about(key)
        return found is not None and about_each_other(note_about, found, shared)

    # The note's subject as its title and headings say it (its #tags are more often a shelf).
    subject = Aboutness.of(source.title, source.text, tags=False)
    note_named = {t for t in weights if telling(t) and subject.names(t)}

    def named_by_both(key: SourceKey, shared: Sequence[str]) -> bool:
        both = [t for t in shared if t in note_named]
        found = target_about(key) if both else None
        return found is not None and any(found.names(t) for t in both)

    best: dict[SourceKey, tuple[float, int]] = {}
    named: set[int] = set()
    for cid, ev in evidence.items():
        ref = refs.get(cid)
        if ref is None or ref.key in excluded:
            continue
        if named_by_both(ref.key, ev.terms):
            named.add(cid)
        if floor and not reading.passes(ev, lambda shared, key=ref.key: about(key, shared), cid in named):
            continue
        score = scores[cid]
        if ref.key not in best or (cid in named, score) > (best[ref.key][1] in named, best[ref.key][0]):
            best[ref.key] = (score, cid)

    support = document_support(store, best, params.document_share)

    def order(item: tuple[SourceKey, tuple[float, int]]) -> tuple[bool, float, float, float, str, int]:
        # What both name first (the chapter a note's title names), then by score.
        key, (score, cid) = item
        ev = evidence[cid]
        return (cid not in named, -support.get(key, score), -ev.lexical, -(ev.similarity or 0.0), key[0], key[1])

    ranked = sorted(best.items(), key=order)
    shortlist = ranked[: limit * 3]
    sources = resolve_sources(store, [key for key, _ in shortlist])
    # Reasons show the words as the person wrote them, not their folded index form.
    written = written_forms(f"{source.title}\n{source.text}", list(weights))
    for key, (score, cid) in shortlist:
        ref = refs[cid]
        target = sources.get(key)
        if target is None or not fits(ref, target):
            result.dropped += 1
            continue
        ev = evidence[cid]
        terms = reason_terms(ev.terms)
        if ref.end > ref.start:
            snip = make_snippet(target.text, ref.start, ref.end, terms, max_chars=SNIPPET_CHARS)
            snippet, start, end = snip.text, snip.start, snip.end
            highlights = [(a - start, b - start) for a, b in snip.highlights]
        else:
            snippet, start, end, highlights = "", ref.start, ref.end, []
        result.suggestions.append(Suggestion(
            rank=len(result.suggestions) + 1, target_type=key[0], target_id=key[1],
            title=target.title, similarity=ev.similarity, snippet=snippet,
            terms=[written.get(t) or written_forms(target.text, [t], ref.start, ref.end).get(t, t) for t in terms],
            highlights=highlights, start=start, end=end, score=score,
            document_id=target.document_id,
            closeness=None if ev.similarity is None else round(reading.closeness(ev.similarity), 4),
            likeness=None if ev.similarity is None else round(reading.likeness(ev.similarity), 4),
            same_meaning=same_in_meaning(ev.similarity, calibration)))
        if len(result.suggestions) >= limit:
            break
    return result
