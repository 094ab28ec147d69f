"""Reading each cosine against the level of its own script: the same-language pull.

A multilingual model puts two texts in one language closer than two texts in different
languages, whatever they are about. In a library that is mostly Chinese with some English
(a README, code with English comments), an English question scores English chunks above
the Chinese chapter that answers it, on any topic: with multilingual-e5 the Rust book's
English README came first for "Does Rust have inheritance like other object-oriented
languages?". The library's calibration (``calibration.Calibration``) measures ONE level of
unrelated text, so cosines across scripts and within a script are compared on one scale.

Here the unrelated level is read per question and per chunk script. A chunk's script is
its share of Han words among its Han and Latin words (``han_weights``, read from the
index's own token text). The mean chunk vector of each script is measured on the library:
a least-squares line through the chunk vectors against that share, whose slope is the
difference between the Chinese and the English mean vectors (``ScriptLevels.direction``).
A question's mean cosine to the chunks of one script is its cosine to that script's mean
vector (the mean of cosines is the cosine to the mean), so each candidate's cosine is read
relative to the question's mean over chunks of the candidate's own script, then put back
on the library's scale at its mix of scripts::

    cos' = cos - (w - w_mean) * q . (c_han - c_latin)

In a one-script library every chunk sits at the mean share and nothing moves; where either
script has fewer than ``MIN_SCRIPT_CHUNKS`` chunks in the sample, the difference cannot be
measured and today's single level is used. No constant is fitted on questions.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from desktop_kb.retrieval.candidates import Candidates
from desktop_kb.retrieval.dense import DenseIndex
from desktop_kb.text.han import HAN_CHARS

_LATIN, _HAN = 1, 2


def _kinds() -> tuple[np.ndarray, tuple[int, int]]:
    """A kind per code point of the basic plane (Han, Latin letter or other), and the Han
    range beyond it, from the one Han set (``HAN_CHARS``: "a-b" triples of a regex class)."""
    table = np.zeros(0x10000, dtype=np.uint8)
    table[ord("a"):ord("z") + 1] = table[ord("A"):ord("Z") + 1] = _LATIN
    astral = (0, -1)
    for i in range(0, len(HAN_CHARS), 3):
        low, high = ord(HAN_CHARS[i]), ord(HAN_CHARS[i + 2])
        if high <= 0xFFFF:
            table[low:high + 1] = _HAN
        else:
            astral = (low, high)
    return table, astral


_KIND, _HAN_ASTRAL = _kinds()

# Chunks drawn to measure the two scripts' mean vectors (all of a smaller library).
SAMPLE_CHUNKS = 2000
# Fewest chunks of each script (share under / at least one half) that measure a difference.
# The measured difference of two means carries noise of about spread * sqrt(1/n_latin +
# 1/n_han) per cosine: with 3 English chunks about 0.6 spreads, against a pull of 2-4 spreads
# (e5, English questions on the Rust book), so a library with a handful of English documents
# is already corrected; below that the estimate is mostly noise.
MIN_SCRIPT_CHUNKS = 3
# Chunk weights remembered by text hash (about 100 bytes each), for the hybrid queries.
KNOWN_WEIGHTS = 200_000


def han_weights(texts: list[str]) -> np.ndarray:
    """Share of Han words among each text's Han and Latin words (NaN: neither).

    A text is a chunk's token text in the index (as stored in the FTS table, where the
    segmenter puts a space between every two words): a run of Han characters counts as one
    Han word, a run of Latin letters as one Latin word, digits and symbols not at all. Read
    as code points in numpy, all texts at once, because it runs on every hybrid query of a
    two-script library (a regular expression per text took 20 ms for 200 candidates).
    """
    if not texts:
        return np.zeros(0)
    # One array of code points; a separator between texts ends any run.
    codes = np.frombuffer("\0".join(texts).encode("utf-32-le"), dtype=np.uint32)
    kind = _KIND[np.minimum(codes, 0xFFFF)]
    kind[codes > 0xFFFF] = 0
    kind[(codes >= _HAN_ASTRAL[0]) & (codes <= _HAN_ASTRAL[1])] = _HAN
    firsts = np.cumsum([len(t) + 1 for t in texts[:-1]], dtype=np.int64)  # where texts 2.. begin
    owner = np.zeros(len(codes), dtype=np.int64)
    owner[firsts] = 1
    owner = np.cumsum(owner)
    start = (kind != 0) & (kind != np.r_[0, kind[:-1]])
    words = np.bincount(owner[start] * 2 + (kind[start] == _HAN), minlength=2 * len(texts))
    latin_words, han_words = words[0::2], words[1::2]
    total = han_words + latin_words
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, han_words / total, np.nan)


def han_weight(text: str) -> float | None:
    """:func:`han_weights` of one text (None: neither script)."""
    weight = float(han_weights([text])[0])
    return None if np.isnan(weight) else weight


@dataclass(frozen=True)
class ScriptLevels:
    """The library's Chinese-minus-English mean chunk vector and its mean Han share."""

    direction: np.ndarray  # c_han - c_latin
    mean_weight: float  # the library's mean han_weight (chunks with a script)
    han_chunks: int = 0  # chunks of each script in the sample (for reports)
    latin_chunks: int = 0
    known: dict[str, float] = field(default_factory=dict, compare=False, repr=False)

    def weights(self, index: sqlite3.Connection, chunk_ids: list[int],
                bodies: Mapping[int, str] | None = None,
                text_hashes: Mapping[int, str] | None = None) -> np.ndarray:
        """Each chunk's Han share (``chunk_weights``), remembered across queries."""
        return chunk_weights(index, chunk_ids, self.known, bodies, text_hashes)

    def offsets(self, query: np.ndarray | None, weights: np.ndarray) -> np.ndarray:
        """Per candidate, how far its script lifts its cosine above the library's mix.

        ``weights`` holds each candidate's ``han_weight`` (NaN: no script, no shift).
        """
        if query is None or query.shape != self.direction.shape:
            return np.zeros(len(weights))
        pull = float(query @ self.direction)
        return np.nan_to_num((weights - self.mean_weight) * pull)


def fit(weights: np.ndarray, vectors: np.ndarray) -> ScriptLevels | None:
    """The least-squares line through ``vectors`` against ``weights`` (None: too few of a script)."""
    keep = ~np.isnan(weights)
    w, v = weights[keep], np.asarray(vectors, dtype=np.float64)[keep]
    han, latin = int(np.count_nonzero(w >= 0.5)), int(np.count_nonzero(w < 0.5))
    if han < MIN_SCRIPT_CHUNKS or latin < MIN_SCRIPT_CHUNKS:
        return None
    centred = w - w.mean()
    slope = centred @ (v - v.mean(axis=0)) / float(centred @ centred)
    return ScriptLevels(slope.astype(np.float32), float(w.mean()), han, latin)


def chunk_weights(index: sqlite3.Connection, chunk_ids: list[int],
                  known: dict[str, float] | None = None,
                  read: Mapping[int, str] | None = None,
                  text_hashes: Mapping[int, str] | None = None) -> np.ndarray:
    """:func:`han_weights` of each chunk's token text in the index (NaN: unknown).

    ``known`` remembers weights by the chunk's text hash (a weight is a function of the
    text alone), so a query reads and scans only the text of chunks no earlier query met;
    ``read``: body tokens the caller already read in this query (the keyword hits'), and
    ``text_hashes`` the chunks' hashes it read with their rows (``resolve.chunk_refs``).
    """
    hashes = {c: text_hashes[c] for c in chunk_ids if c in text_hashes} if text_hashes else {}
    for part in _parts([c for c in chunk_ids if c not in hashes]):
        hashes.update(index.execute(
            f"SELECT id, text_hash FROM kb_chunks WHERE id IN ({_marks(part)})", part))
    memo = known if known is not None else {}
    missing = [c for c in chunk_ids if c in hashes and hashes[c] not in memo]
    read = read or {}
    bodies = {c: read[c] for c in missing if c in read}
    for part in _parts([c for c in missing if c not in bodies]):
        bodies.update(index.execute(f"SELECT rowid, body FROM kb_fts WHERE rowid IN ({_marks(part)})", part))
    fresh = [c for c in missing if c in bodies]
    # This query's weights kept apart from the memo: clearing it below dropped the weights of
    # this query's chunks an earlier query had met, and they came back NaN (no script).
    got = {h: memo[h] for c in chunk_ids if (h := hashes.get(c)) is not None and h in memo}
    got.update(zip((hashes[c] for c in fresh), han_weights([bodies[c] or "" for c in fresh]).tolist(),
                   strict=True))
    if len(memo) + len(fresh) > KNOWN_WEIGHTS:
        memo.clear()  # a bound on memory: the next queries fill it again
    memo.update(got)
    return np.array([got.get(hashes.get(c, ""), np.nan) for c in chunk_ids], dtype=np.float64)


def _parts(ids: list[int]) -> list[list[int]]:
    return [ids[i:i + 500] for i in range(0, len(ids), 500)]  # SQLite's variable limit


def _marks(part: list[int]) -> str:
    return ",".join("?" * len(part))


def measure(index: sqlite3.Connection, dense: DenseIndex, *, sample: int = SAMPLE_CHUNKS,
            seed: int = 0) -> ScriptLevels | None:
    """Measure the two scripts' mean chunk vectors on this library (None: one script only)."""
    if not dense.ready or dense.model_id is None:
        return None
    drawn = dense.sample_ids(sample, seed)
    known: dict[str, float] = {}
    weights = chunk_weights(index, drawn, known)
    if np.count_nonzero(weights < 0.5) < MIN_SCRIPT_CHUNKS:
        return None  # the usual case (a one-script library): no vectors read
    rows: dict[int, np.ndarray] = {}
    for part in _parts(drawn):
        for cid, blob in index.execute(
                f"SELECT chunk_id, vector FROM kb_vectors NOT INDEXED WHERE model_id = ? "
                f"AND chunk_id IN ({_marks(part)})",
                (dense.model_id, *part)):
            if len(blob) == 4 * dense.dim:
                rows[cid] = np.frombuffer(blob, dtype=np.float32)
    have = [i for i, cid in enumerate(drawn) if cid in rows]
    if not have:
        return None
    levels = fit(weights[have], np.stack([rows[drawn[i]] for i in have]))
    if levels is not None:
        levels.known.update(known)  # the drawn chunks' weights: the queries' first lookups
    return levels


def read_in_own_script(cand: Candidates, offsets: np.ndarray) -> Candidates:
    """The candidate record with each cosine read against its own script's level
    (``Candidates.with_cosines``: the meaning list follows the read cosines)."""
    if not offsets.any():
        return cand
    return cand.with_cosines(cand.cosine - offsets)
