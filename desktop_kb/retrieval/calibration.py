"""What a model's cosines mean on *this* library, measured from the library itself.

A cosine of 0.8 is a near-paraphrase for one model and unrelated text for
another (multilingual-e5 scores random Chinese passages around 0.75; USE
around 0.1). So fusion and the relevance floor never read raw cosines: they
read them in units of the library's own "unrelated" distribution.

The estimate uses pseudo-questions: short sentences cut from randomly drawn
chunks, embedded as queries (so asymmetric models get their query prefix).
Their cosines to other random chunks give the unrelated level and spread;
whether each side finds the chunk the sentence came from gives how well the
model fits the library's language, compared with keywords on the same
sentences (an English-only model on Chinese notes finds little, and then
gets little weight in fusion).

Nothing here is keyed on a model id; a shipped model's manifest only adds
fitted fusion constants on top (see ``fusion.FusionParams``).
"""

from __future__ import annotations

import math
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import asdict, dataclass, replace

import numpy as np

from desktop_kb.embed.engine import EmbeddingEngine
from desktop_kb.retrieval.dense import DenseIndex
from desktop_kb.retrieval.lexical import lexical_search
from desktop_kb.retrieval.resolve import ChunkRef, ResolvedSource, chunk_refs, fits, resolve_sources
from desktop_kb.retrieval.snippets import sentence_spans
from desktop_kb.text.fold import model_text
from desktop_kb.text.han import has_han

# Pseudo-questions per estimate. 48 left the fit to chance (the Rust book's
# dense/lexical ratio came out 0.51 and 0.59 on two draws, CMRC's 0.84 and 0.94).
SAMPLE = 128
NEGATIVES = 400  # random chunks each pseudo-question is compared with
MIN_CHUNKS = 24  # below this a library says too little; the manifest's prior is used
QUESTION_CHARS = (8, 40)  # a pseudo-question is a sentence of this many characters
# Dense/lexical self-retrieval ratio at which a model gets no weight, and at which it
# gets full weight. Verbatim sentences favour keywords, so the ratio only tells a model
# that does not know the library's language from one that does; it does not rank the
# models that fit (on the Rust book's own sentences e5 and USE agree with keywords alike:
# ``benchmarks/bench_library_agreement.py``). Both ends sit in the gap between the two
# kinds, measured on six draws of the estimate (seeds 0-5) on the Rust book: an
# English-only model (all-MiniLM-L6-v2) 0.16-0.26 (0.13 on CMRC), models that fit 0.46-0.66
# (USE 0.46-0.66, e5 0.47-0.61; 0.75-1.05 on the public sets). The old ends (0.25, 0.5)
# cut through both: one draw gave MiniLM weight 0.03, and any weight above 0 orders keyword
# hits by coverage rather than BM25 (on the book's sets 1-6, MiniLM's hybrid fell below
# keywords in 6 groups: 177/223 of 265 at R@1/R@5 against 180/226); the first draw gave
# USE 0.84, where full weight ranks better (197/245 against 199/247, document ranks).
FIT_ZERO = 0.3
FIT_FULL = 0.4


@dataclass(frozen=True)
class Calibration:
    """Cosine statistics of a model on a library.

    ``unrelated``/``spread``: mean and standard deviation of query–chunk
    cosines for unrelated pairs; ``related``: mean cosine of a pseudo-question
    and the chunk it was cut from. ``dense_found``/``lexical_found``: share of
    pseudo-questions whose own chunk each side ranks first. ``han_share``: share of
    them holding Chinese characters (-1: not measured, a prior), which says the
    language the cosine statistics were measured in.
    """

    unrelated: float
    spread: float
    related: float = 1.0
    dense_found: float = 1.0
    lexical_found: float = 1.0
    sample: int = 0
    han_share: float = -1.0

    def standardize(self, cosine: float) -> float:
        """How many spreads above unrelated text a cosine is."""
        return (cosine - self.unrelated) / max(self.spread, 1e-6)

    def standardize_array(self, cosines: np.ndarray) -> np.ndarray:
        return (cosines - self.unrelated) / max(self.spread, 1e-6)

    def closeness(self, cosine: float) -> float:
        """0 at the cosine of unrelated text, 1 at that of a sentence and its own passage."""
        span = self.related - self.unrelated
        if span <= 0:
            return 0.0
        return max(0.0, min(1.0, (cosine - self.unrelated) / span))

    def likeness(self, cosine: float) -> float:
        """0 at the cosine of unrelated text, 1 only for the same text: what a person is shown.

        Closeness stops at a sentence and its own passage, which two passages on one topic
        pass, so nearly every suggestion read "100 %"; this scale keeps room above them.
        """
        span = 1.0 - self.unrelated
        if span <= 0:
            return 0.0
        return max(0.0, min(1.0, (cosine - self.unrelated) / span))

    def cosine_at(self, level: float) -> float:
        """The cosine ``level`` spreads above unrelated text."""
        return self.unrelated + level * self.spread

    def cosine_at_closeness(self, share: float) -> float:
        """The cosine ``share`` of the way from unrelated text to a sentence's own passage."""
        return self.unrelated + share * (self.related - self.unrelated)

    @property
    def separation(self) -> float:
        """How far a chunk's own sentence stands above unrelated text, in spreads."""
        return self.standardize(self.related)

    @property
    def fit(self) -> float:
        """Whether dense retrieval fits this library's language at all (0..1).

        0 when the model finds at most 30 % of what keywords find on the
        library's own sentences (a model that does not know the language),
        rising to 1 at 40 % (``FIT_ZERO``, ``FIT_FULL``).
        """
        if self.sample == 0:
            return 1.0
        ratio = self.dense_found / max(self.lexical_found, 0.05)
        return max(0.0, min(1.0, (ratio - FIT_ZERO) / (FIT_FULL - FIT_ZERO)))

    def measured_in_script_of(self, query_has_han: bool) -> bool:
        """Whether this library's statistics were measured in the query's script (True when unknown).

        A question in the other language sits lower for some models than any question in
        the library's own (e5: English questions on the Chinese Rust book reach 0.87
        closeness below unrelated Chinese text), so statistics of one say nothing of it.
        """
        if self.han_share < 0:
            return True
        return query_has_han == (self.han_share >= 0.5)

    def for_question(self, baseline: float) -> Calibration:
        """This library's scale with the unrelated level at one question's own: ``baseline``,
        its cosine to the library's mean chunk vector (``library_centre``), is the mean of its
        cosines to the library's chunks, which is what ``unrelated`` measures for the average
        pseudo-question. ``related`` moves with it, so the library's separation is unchanged.

        A question in another language than most of the library sits lower against all of
        it: multilingual-e5 puts the Rust book's 89 English questions a median 2.3 spreads
        (1.1-4.0) under the library's unrelated level (its Chinese questions +0.1 to +0.6;
        USE, which aligns the languages, +0.0), so their chapters never reached dense
        evidence and the tie-break, which reads cosines from the unrelated level up, gave
        meaning no vote: hybrid followed whatever keyword matched. Read against its own level,
        the chapter its meaning points to counts as it does for a Chinese question.
        """
        shift = baseline - self.unrelated
        return replace(self, unrelated=baseline, related=self.related + shift)

    def as_json(self) -> dict[str, float | int]:
        return asdict(self)


def library_centre(dense: DenseIndex, *, sample: int = NEGATIVES, seed: int = 1) -> np.ndarray | None:
    """The mean vector of the chunks ``estimate`` compares its pseudo-questions with (the
    same draw), None when the library is too small to measure; its dot product with a
    question vector is that question's mean cosine to them (``Calibration.for_question``)."""
    if not dense.ready or len(dense) < MIN_CHUNKS:
        return None
    _, vectors = dense.vectors(dense.sample_ids(sample, seed))
    if len(vectors) < MIN_CHUNKS:
        return None
    return vectors.astype(np.float64).mean(axis=0)


def read_for_question(calibration: Calibration | None, query: np.ndarray | None,
                      centre: np.ndarray | None, query_has_han: bool,
                      across_scripts: bool = False) -> Calibration | None:
    """``calibration`` read at ``query``'s own unrelated level when the question is in another
    script than the one the library's statistics were measured in (they say nothing of it:
    ``Calibration.measured_in_script_of``), the model's levels are not known to hold across
    scripts (``across_scripts``: ``FloorReference.across_scripts``, measured per model on
    Tatoeba English->Chinese), and both vectors are known.

    A question in the library's own script keeps the library's level: it is the same kind
    of question the estimate averaged over, and reading each at its own level moved the
    public sets' fusion fit (left out, e5 on Tatoeba paraphrases fell 0.050 R@1 below dense).
    A model that aligns the two languages (USE: the book's English questions a median 0.0
    spreads from the library's level) has nothing to correct, only noise to add (on the
    book's sets 1-10 two of three changed answers got worse).
    """
    if (calibration is None or query is None or centre is None or query.shape != centre.shape
            or across_scripts or calibration.measured_in_script_of(query_has_han)):
        return calibration
    return calibration.for_question(float(query @ centre))


def _drawn_chunks(index: sqlite3.Connection, store: sqlite3.Connection,
                  drawn: list[int]) -> Iterator[tuple[int, ChunkRef, ResolvedSource]]:
    """The drawn chunks whose source still holds them as indexed, in draw order."""
    refs = chunk_refs(index, drawn)
    sources = resolve_sources(store, [r.key for r in refs.values()])
    for cid in drawn:
        ref = refs.get(cid)
        source = sources.get(ref.key) if ref else None
        if ref is not None and source is not None and fits(ref, source):
            yield cid, ref, source


def _pseudo_question(text: str, start: int, end: int, rng: np.random.Generator) -> str | None:
    low, high = QUESTION_CHARS
    spans = [(a, b) for a, b in sentence_spans(text, start, end) if b - a >= low]
    if not spans:
        return None
    a, b = spans[int(rng.integers(len(spans)))]
    if b - a > high:
        a = a + int(rng.integers(0, b - a - high + 1))
        b = a + high
    return text[a:b]


def estimate(
    index: sqlite3.Connection, store: sqlite3.Connection, engine: EmbeddingEngine,
    dense: DenseIndex, *, sample: int = SAMPLE, seed: int = 0,
) -> Calibration | None:
    """Measure the model on this library; None when the library is too small to say."""
    if not dense.ready or len(dense) < MIN_CHUNKS:
        return None
    rng = np.random.default_rng(seed)
    questions: list[tuple[int, str]] = []
    for cid, ref, source in _drawn_chunks(index, store, dense.sample_ids(sample * 2, seed)):
        question = _pseudo_question(source.text, ref.start, ref.end, rng)
        if question:
            questions.append((cid, question))
        if len(questions) >= sample:
            break
    if len(questions) < sample // 4:
        return None
    vectors = engine.embed_queries([model_text(q) for _, q in questions])
    if vectors.shape[-1] != dense.dim:
        return None  # another model's index (a switch under way): nothing to compare with
    # library_centre draws the same. Read once: every question is compared with the same
    # chunks (128 x 400 slot reads of 400 vectors before), each without its own chunk.
    pool_ids, pool = dense.vectors(dense.sample_ids(NEGATIVES, seed + 1))
    negatives: list[float] = []
    positives: list[float] = []
    dense_found = lexical_found = 0
    for (cid, question), vector in zip(questions, vectors, strict=True):
        others = pool[pool_ids != cid]
        negatives.extend((others @ np.asarray(vector, dtype=np.float32)).tolist())
        positives.extend(dense.similarities(vector, [cid]).values())
        top = dense.search(vector, 1)
        dense_found += bool(top) and top[0][0] == cid
        lex = lexical_search(index, question, limit=1)
        lexical_found += bool(lex) and lex[0][0] == cid
    if len(negatives) < 2:
        return None
    values = np.asarray(negatives, dtype=np.float64)
    n = len(questions)
    return Calibration(
        unrelated=round(float(values.mean()), 5),
        spread=round(max(float(values.std()), 1e-4), 5),
        related=round(float(np.mean(positives)), 5) if positives else 1.0,
        dense_found=round(dense_found / n, 4),
        lexical_found=round(lexical_found / n, 4),
        sample=n,
        han_share=round(sum(has_han(q) for _, q in questions) / n, 4),
    )


def script_share(
    index: sqlite3.Connection, store: sqlite3.Connection, dense: DenseIndex, *,
    sample: int = SAMPLE, seed: int = 0,
) -> float | None:
    """Share of the library's sentences holding Chinese characters (None: no text to read).

    The same measure as ``Calibration.han_share`` (sentences, as pseudo-questions are), read
    straight from chunk text: it needs no pseudo-questions, so it also answers for a library
    too small to estimate (one Chinese note) and for a stored estimate made before
    ``han_share`` existed.
    """
    han = total = 0
    for _cid, ref, source in _drawn_chunks(index, store, dense.sample_ids(sample, seed)):
        for a, b in sentence_spans(source.text, ref.start, ref.end):  # trimmed, never empty
            han += has_han(source.text[a:b])
            total += 1
    return round(han / total, 4) if total else None


class CalibrationCache:
    """One estimate per (model, library size band), computed on first use and kept.

    The band doubles (log2 of the chunk count), so a growing library is
    re-measured now and then, never per query.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._key: tuple[str, int] | None = None
        self._value: Calibration | None = None

    def get(
        self, index: sqlite3.Connection, store: sqlite3.Connection, engine: EmbeddingEngine,
        dense: DenseIndex,
    ) -> Calibration | None:
        key = (engine.model_id, int(math.log2(max(1, len(dense)))))
        with self._lock:
            if key == self._key:
                return self._value
        value = estimate(index, store, engine, dense)
        with self._lock:
            self._key, self._value = key, value
        return value
