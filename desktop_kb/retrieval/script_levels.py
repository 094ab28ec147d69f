"""Reading each cosine against the level of its own script: the same-language pull.

A multilingual model puts two texts in one language closer than two texts in different
languages, whatever they are about. In a library that is mostly Chinese with some English
(a README, code with English comments), an English question scores English chunks above
the Chinese chapter that answers it, on any topic: with multilingual-e5 the Rust book's
English README came first for "Does Rust have inheritance like other object-oriented
languages?". The library's calibration (``calibration.Calibration``) measures ONE level of
unrelated text, so cosines across scripts and within a script are compared on one scale.

Here the unrelated level is read per question and per chunk script. A chunk's script is
its share of Han tokens among its Han and Latin tokens (``han_weight``, read from the
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
from dataclasses import dataclass, replace

import numpy as np

from desktop_kb.retrieval.candidates import Candidates
from desktop_kb.retrieval.dense import DenseIndex
from desktop_kb.text.han import HAN_CHAR_RE

# Chunks drawn to measure the two scripts' mean vectors (all of a smaller library).
SAMPLE_CHUNKS = 2000
# Fewest chunks of each script (share under / at least one half) that measure a difference.
# The measured difference of two means carries noise of about spread * sqrt(1/n_latin +
# 1/n_han) per cosine: with 3 English chunks about 0.6 spreads, against a pull of 2-4 spreads
# (e5, English questions on the Rust book), so a library with a handful of English documents
# is already corrected; below that the estimate is mostly noise.
MIN_SCRIPT_CHUNKS = 3


def han_weight(tokens: str) -> float | None:
    """Share of Han tokens among a chunk's Han and Latin tokens (None: neither).

    ``tokens`` is the index's token text of the chunk (space-separated, as stored in the
    FTS table); a token holding a Han character counts as Han, one of Latin letters only
    as Latin, digits and symbols not at all.
    """
    han = latin = 0
    for token in tokens.split():
        if HAN_CHAR_RE.search(token):
            han += 1
        elif any("a" <= ch <= "z" or "A" <= ch <= "Z" for ch in token):
            latin += 1
    return han / (han + latin) if han + latin else None


@dataclass(frozen=True)
class ScriptLevels:
    """The library's Chinese-minus-English mean chunk vector and its mean Han share."""

    direction: np.ndarray  # c_han - c_latin
    mean_weight: float  # the library's mean han_weight (chunks with a script)
    han_chunks: int = 0  # chunks of each script in the sample (for reports)
    latin_chunks: int = 0

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


def chunk_weights(index: sqlite3.Connection, chunk_ids: list[int]) -> np.ndarray:
    """``han_weight`` of each chunk from its token text in the index (NaN: unknown)."""
    found: dict[int, float] = {}
    for i in range(0, len(chunk_ids), 500):
        part = chunk_ids[i:i + 500]
        marks = ",".join("?" * len(part))
        for cid, body in index.execute(
                f"SELECT rowid, body FROM kb_fts WHERE rowid IN ({marks})", part):
            weight = han_weight(body or "")
            if weight is not None:
                found[cid] = weight
    return np.array([found.get(c, np.nan) for c in chunk_ids], dtype=np.float64)


def measure(index: sqlite3.Connection, dense: DenseIndex, *, sample: int = SAMPLE_CHUNKS,
            seed: int = 0) -> ScriptLevels | None:
    """Measure the two scripts' mean chunk vectors on this library (None: one script only)."""
    if not dense.ready or dense.model_id is None:
        return None
    drawn = dense.sample_ids(sample, seed)
    weights = chunk_weights(index, drawn)
    if np.count_nonzero(weights < 0.5) < MIN_SCRIPT_CHUNKS:
        return None  # the usual case (a one-script library): no vectors read
    rows: dict[int, np.ndarray] = {}
    for i in range(0, len(drawn), 500):
        part = drawn[i:i + 500]
        marks = ",".join("?" * len(part))
        for cid, blob in index.execute(
                f"SELECT chunk_id, vector FROM kb_vectors WHERE model_id = ? AND chunk_id IN ({marks})",
                (dense.model_id, *part)):
            if len(blob) == 4 * dense.dim:
                rows[cid] = np.frombuffer(blob, dtype=np.float32)
    have = [i for i, cid in enumerate(drawn) if cid in rows]
    if not have:
        return None
    vectors = np.stack([rows[drawn[i]] for i in have])
    return fit(weights[have], vectors)


def read_in_own_script(cand: Candidates, offsets: np.ndarray) -> Candidates:
    """The candidate record with each cosine read against its own script's level.

    The meaning list's order follows the read cosines (its first place is what the
    agreement rule compares with the keyword favourite); which chunks it lists does not
    change.
    """
    if not offsets.any():
        return cand
    cosine = cand.cosine - offsets
    listed = np.flatnonzero(cand.dense_rank > 0)
    dense_rank = np.zeros_like(cand.dense_rank)
    order = listed[np.argsort(-cosine[listed], kind="stable")]
    dense_rank[order] = np.arange(1, len(order) + 1, dtype=cand.dense_rank.dtype)
    return replace(cand, cosine=cosine, dense_rank=dense_rank)
