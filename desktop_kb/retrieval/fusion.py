"""Fusing lexical and dense rankings.

Plain RRF (k=60) trusts both lists equally for every query, so on Chinese
reading-comprehension questions, where BM25 is nearly always right, dense noise
pulls the right passage down (0.965 → 0.910 R@1 on CMRC), while on
cross-lingual queries BM25 finds nothing at all. The fusion here scores every
candidate on both sides and lets each side count as much as it is trustworthy
*for this query*:

* lexical evidence per chunk = (IDF-weighted share of the query's tokens the
  chunk holds)³ × its BM25 relative to the best hit. Stopwords count: a token
  the library never contains is unmatched evidence, so "How are you, Tom?"
  is not fully covered by every passage that mentions Tom;
* dense evidence per chunk = its cosine as a z-score against the query's own
  top-N similarities ("how far above typical"), weighted by how confident the
  dense side is: a best cosine well above the model's calibrated level
  (translations and paraphrases) lets dense lead, a low one (a short question
  against long passages) leaves dense as a tie-breaker.

Parameters were chosen on the public evaluation sets (``desktop-kb eval``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

RRF_K = 60


@dataclass(frozen=True)
class Fused:
    chunk_id: int
    score: float
    lexical: float  # raw lexical score (≥ 0), 0 when lexical did not find it
    dense: float  # cosine similarity, 0 when unknown


@dataclass(frozen=True)
class FusionParams:
    # Per-chunk term coverage is cubed: only near-complete matches of the whole
    # question (stopwords included, see ``QueryAnalysis.all_terms``) carry weight.
    coverage_power: float = 3.0
    query_coverage_power: float = 0.0  # optional damping by the best lexical hit's coverage
    dense_weight_low: float = 0.02  # dense z-score weight when dense is unsure ...
    dense_weight_high: float = 3.0  # ... and when it is confident
    # Best cosine where dense confidence is half-way. Calibrated for the default
    # model (multilingual USE): paraphrases and translations score ≥ 0.7, a
    # question against its answer passage ~0.3–0.5.
    dense_confident_at: float = 0.65
    dense_confidence_width: float = 0.03
    missing_dense_z: float = -3.0  # a chunk without a vector ranks as far below typical


DEFAULT_PARAMS = FusionParams()


def _order_key(
    tie: Callable[[int], tuple[int, int]],
) -> Callable[[Fused], tuple[float, float, float, int, int]]:
    def key(f: Fused) -> tuple[float, float, float, int, int]:
        source_id, chunk_ord = tie(f.chunk_id)
        return (-f.score, -f.lexical, -f.dense, source_id, chunk_ord)

    return key


def plain_rrf(
    lexical: Sequence[tuple[int, float]], dense: Sequence[tuple[int, float]],
    tie: Callable[[int], tuple[int, int]], k: int = RRF_K,
) -> list[Fused]:
    """Reciprocal-rank fusion, the baseline the adaptive fusion must beat."""
    scores: dict[int, float] = {}
    lex = dict(lexical)
    den = dict(dense)
    for rank, (cid, _) in enumerate(lexical, start=1):
        scores[cid] = scores.get(cid, 0.0) + 1.0 / (k + rank)
    for rank, (cid, _) in enumerate(dense, start=1):
        scores[cid] = scores.get(cid, 0.0) + 1.0 / (k + rank)
    fused = [Fused(cid, s, lex.get(cid, 0.0), max(0.0, den.get(cid, 0.0))) for cid, s in scores.items()]
    return sorted(fused, key=_order_key(tie))


def adaptive_fuse(
    lexical: Sequence[tuple[int, float]],
    dense: Sequence[tuple[int, float]],
    dense_of_lexical: dict[int, float],
    coverage: dict[int, float],
    tie: Callable[[int], tuple[int, int]],
    params: FusionParams = DEFAULT_PARAMS,
) -> list[Fused]:
    """Query-adaptive score fusion (see the module docstring).

    ``dense`` is the dense top-N; ``dense_of_lexical`` holds exact cosines for
    lexical candidates outside it, so every candidate is scored on both sides.
    ``coverage`` maps chunk ids to their share of the query's terms (0..1).
    """
    lex = dict(lexical)
    cos = dict(dense_of_lexical)
    cos.update(dense)
    if not lex and not cos:
        return []
    top_lex = max(lex.values(), default=0.0)
    best_lex_coverage = max((coverage.get(cid, 0.0) for cid, _ in lexical[:3]), default=0.0)
    damping = best_lex_coverage ** params.query_coverage_power
    sims = [s for _, s in dense]
    mean = sum(sims) / len(sims) if sims else 0.0
    spread = math.sqrt(sum((s - mean) ** 2 for s in sims) / len(sims)) if len(sims) > 1 else 1.0
    spread = spread or 1e-6
    confidence = 0.0
    if sims:
        x = (sims[0] - params.dense_confident_at) / params.dense_confidence_width
        confidence = 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, x))))
    dense_weight = params.dense_weight_low + (
        params.dense_weight_high - params.dense_weight_low) * confidence
    fused: list[Fused] = []
    for cid in set(lex) | set(cos):
        lexical_part = 0.0
        if top_lex > 0 and cid in lex:
            lexical_part = (coverage.get(cid, 0.0) ** params.coverage_power
                            * (lex[cid] / top_lex) * damping)
        c = cos.get(cid)
        z = (c - mean) / spread if c is not None else params.missing_dense_z
        score = lexical_part + dense_weight * z
        fused.append(Fused(cid, score, lex.get(cid, 0.0), max(0.0, c or 0.0)))
    # Scores crossing a seam must be ≥ 0: shift so the worst candidate sits at 0.
    low = min(f.score for f in fused)
    fused = [Fused(f.chunk_id, f.score - low, f.lexical, f.dense) for f in fused]
    return sorted(fused, key=_order_key(tie))
