"""Fusing lexical and dense rankings.

Plain RRF (k=60) trusts both lists equally for every query, so on Chinese
reading-comprehension questions, where BM25 is nearly always right, dense noise
pulls the right passage down (0.966 → 0.910 R@1 on CMRC), while on
cross-lingual queries BM25 finds nothing at all. Here every candidate is
scored on both sides (``candidates.gather`` gives exact cosines for lexical
hits too), and each side counts as much as its evidence is strong:

* lexical evidence = (the chunk's coverage relative to the best-covered hit)^p
  × its BM25 relative to the best hit × (the best hit's coverage)^q, at most
  1. Coverage is the IDF-weighted share of the query's tokens a chunk holds.
  Every token weighs in the whole (a token the library never contains is
  unmatched evidence, so "How are you, Tom?" is not fully covered by every
  passage that mentions Tom), but only meaningful terms earn a chunk coverage:
  a passage is no closer to "什么是所有权？" for also holding 什么 (on the Rust
  book such passages took the chapter's place). The last factor is the query's lexical confidence: a question in the
  library's own words is trusted, a paraphrase or a question in the other
  Chinese script matches a few of its words anywhere and is not;
* dense evidence = how far the chunk's cosine stands above *unrelated text
  on this library* (its level, in spreads: ``calibration.Calibration``),
  counted only from ``dense_from`` up and only above the level of the chunk
  keywords put first plus ``dense_over_keywords``: dense overtakes the
  keyword favourite only where it is clearly closer than that chunk (a
  paraphrase or a translation), never by a hair; the gap grows with how much
  of the question the favourite holds (``gap_power``), and shrinks where meaning
  counts more (below). This gap is read within
  the query, so it means the same on a library whose real questions sit two
  spreads above unrelated text (the Rust book) as on one where they sit five
  (CMRC); a fixed threshold alone left the book's dense side silent. Because levels are
  measured per model on the person's library, the same constants serve every
  model — e5, whose unrelated Chinese passages score 0.75, as well as USE,
  where they score 0.1 — and a model that does not fit the library's language
  (it finds on its own sentences at most 30 % of what keywords find) gets
  no weight at all, so hybrid is never worse than keywords alone;
* a small multiple of the within-query z-score orders what the two leave tied;
* when the keyword list and the meaning list put the same document first, it
  stays first (``keep_agreed``): no sum of weaker signals overturns two
  independent lists that agree;
* a cosine no higher than the mean of unrelated text on this library says
  nothing about relevance, so the tie-break reads cosines from that level up
  (``tie_from_unrelated``): differences among chunks the model puts at or
  below unrelated text are noise, and a meaning list that sees nothing at all
  (its best match at that level) has no vote: keyword evidence alone orders
  the hits. This is read per query against the library's own scale, so it
  follows the question's language: e5 carries an English question on the
  Chinese Rust book to the library's unrelated level or below (median level
  -0.15 spreads, against +1.6 to +2.3 for Chinese questions), and its
  tie-break there overturned keywords' right chapter as often as their wrong
  one; USE, which aligns the two languages (English questions at +3.0), is
  barely touched;
* the dense side (tie-break included) counts more on a library of short
  passages than on one of long passages, by the library's own *separation*
  (how far a chunk's own sentence stands above unrelated text,
  ``Calibration.separation``): a short passage's meaning is captured whole by a
  sentence and its few words make keywords weak evidence; a long passage shares
  topic words with its neighbours and one question matches only part of it.
  The gap over the keyword favourite shrinks by the same factor
  (``gap_by_separation``).

In a library of two scripts the cosines reach fusion already read against their own
script's level (``script_levels``, applied by ``search.rank_chunks``): an English question
scores every English passage above the Chinese one that answers it, whatever the topic.

Constants are fitted leave-one-set-out on the public sets
(``benchmarks/bench_fusion_loso.py``); a shipped model's manifest may carry
its own fitted values (``tuning``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace

import numpy as np

from desktop_kb.retrieval.calibration import Calibration
from desktop_kb.retrieval.candidates import Candidates
from desktop_kb.retrieval.floor_reference import FloorReference

RRF_K = 60
# Separation (spreads) up to which the dense side counts as fitted, and above which it
# counts more, up to a cap (see ``FusionParams.separation_power``). The public sets span
# 4.5 (DRCD) to 8.7 (Tatoeba); below them the factor is not extrapolated: on the Rust
# book (2.6) an extrapolated factor of 0.26 silenced meaning where it was right
# (colloquial R@1 0.55 -> 0.31 on its 145 questions).
SEPARATION_REF = 5.0
SEPARATION_RANGE = (SEPARATION_REF, 10.0)
# The keyword list's first page: hits there keep their place above meaning-only candidates
# that have no evidence of their own (``FusionParams.keep_keyword_page``). On the Rust book
# 1, 3, 10 and 100 gave the same groups but one question; a page is what a person sees.
KEYWORD_PAGE = 10


@dataclass(frozen=True)
class Fused:
    chunk_id: int
    score: float
    lexical: float  # raw lexical score (≥ 0), 0 when lexical did not find it
    dense: float  # cosine similarity, 0 when unknown


@dataclass(frozen=True)
class FusionParams:
    """Fusion constants, in units that mean the same for every model.

    The defaults are the fit for the default model (USE) on the four public sets
    (CMRC, DRCD, Tatoeba paraphrases, Tatoeba English→Chinese; DRCD's Simplified
    questions are a copy of DRCD once folded); the leave-one-set-out folds and
    what they chose are printed by ``benchmarks/bench_fusion_loso.py``.

    Cosines are read as *levels*: spreads above the library's unrelated
    cosine (``Calibration.standardize``). Fitted by leave-one-set-out
    (``benchmarks/bench_fusion_loso.py``); a shipped model's manifest may
    carry its own fitted values.
    """

    # A chunk's term coverage relative to the query's best-covered hit, raised to
    # this power: among the hits, near-complete matches carry the lexical weight ...
    coverage_power: float = 2.0
    # ... and the best hit's own coverage, raised to this power, says how much the
    # lexical side is to be trusted for this query at all (cross-script or
    # paraphrased questions match a few of their words anywhere).
    confidence_power: float = 1.0
    # Dense evidence counts from this level up (a question's own passage sits a few
    # spreads above unrelated text; a paraphrase or translation far above) ...
    dense_from: float = 4.0
    # ... and only above the level of the chunk keywords rank first plus this many
    # spreads: dense overrides keywords where it is clearly closer, not by a hair ...
    dense_over_keywords: float = 1.0
    # ... times the keyword favourite's coverage to this power: a favourite holding
    # most of the question needs meaning to stand further above it than one that
    # matched a word or two of it ...
    gap_power: float = 1.0
    # ... with this weight per level, against lexical evidence of at most 1 ...
    dense_weight: float = 0.25
    # ... times (the library's separation / SEPARATION_REF) to this power when above
    # it, tie-break included. Separation is how far a chunk's own sentence stands above unrelated
    # text on this library (``Calibration.separation``): short passages, whose words
    # are few and whose meaning a sentence captures whole, sit far above (~8.7 spreads,
    # Tatoeba) and there meaning is the better judge; long passages sit closer (~4.5-5,
    # CMRC/DRCD) and one question matches only part of their meaning.
    separation_power: float = 2.0
    # Weight of the within-query z-score: orders what lexical evidence leaves tied.
    tie_weight: float = 0.05
    # A chunk without a vector (not embedded yet: the backfill runs in the background
    # after a model switch) counts as typical on the dense side, so it keeps the place
    # its lexical evidence gives it; a penalty would sink fresh material until embedded.
    missing_dense_z: float = 0.0
    # Relevance floor: with no lexical hit, a best cosine under this share of the way
    # from unrelated text to a sentence's own passage (``Calibration.closeness``) means
    # the library has nothing on the question. A share, not a number of spreads: how
    # far real questions stand above unrelated text depends on the library (long
    # passages sit closer to it). It may be negative: asked in other words about a
    # long passage, or about its topic only, USE's best cosine can sit below the mean
    # of unrelated text. Fitted leave-one-set-out so that present and topic-level
    # questions are not silenced (``benchmarks/bench_floor.py``); a lower floor only
    # adds results to questions no keyword matched, so a model without a fit gets the
    # lowest floor any shipped model was fitted to (USE -0.006, e5 -0.257).
    floor_closeness: float = -0.26
    # 1: when the keyword list (BM25) and the meaning list put the same document first,
    # it stays first. Two independent lists agreeing is the strongest evidence there
    # is; a third document that neither ranks first wins only through a sum of weaker
    # signals (on the Rust book, a chapter both lists put first lost to one neither did).
    keep_agreed: float = 1.0
    # 1: the gap dense must clear over the keyword favourite shrinks by the same
    # separation factor by which the dense side counts more. On a library of short
    # passages a paraphrase stands a fraction of a spread above the sentence that merely
    # shares its words (Tatoeba: 5.3 against 5.0 spreads), and meaning is the better
    # judge there; on long passages (factor 1: CMRC, DRCD, the Rust book) nothing changes.
    gap_by_separation: float = 1.0
    # 1: the tie-break reads a cosine no lower than the mean of unrelated text on this
    # library (level 0): below it a cosine says nothing about relevance, and a meaning list
    # whose best match sits there (the model did not carry the question into the library's
    # language, as e5 does not an English question on a Chinese book) leaves the keyword
    # order as it is. No constant: the unrelated level is measured on the library
    # (``calibration.estimate``).
    tie_from_unrelated: float = 1.0
    # 1: on a library of long passages (separation at most SEPARATION_REF), a question in the library's
    # script keeps the keyword list's first page (``KEYWORD_PAGE``) above candidates only
    # meaning found that have no dense evidence (a level under the threshold): the tie-break
    # orders what lexical evidence leaves tied, so it must not carry a chunk keywords never
    # found past one they did. Without it, on the Rust book with e5 (dense R@1 .55 on held-out
    # set 7), a chapter keywords put 1st-8th could fall out of the hybrid top 10 under ten
    # meaning-only chapters lifted by the tie-break alone. Across scripts keyword hits are
    # incidental tokens (Tatoeba en->zh) and on short passages meaning is the better judge
    # (Tatoeba paraphrases), so neither is touched. No constant is fitted.
    keep_keyword_page: float = 1.0
    # A question of more tokens than this (0: no limit) has its tie-break weighed by
    # sqrt(tie_terms / tokens). Keyword evidence of a long question is a sum over many words,
    # and its favourite stands for more than a short question's; the tie-break's z-score
    # reads the meaning list within the query, as strongly for a sentence of twenty words as
    # for three. On the Rust book, long English and colloquial questions (sessions 13-15's
    # sets) lost keyword favourites to a meaning list whose first stood no clear level above
    # the rest (multilingual-e5: its English questions sit 1-2 spreads over unrelated text).
    # Fitted leave-one-set-out with the rest (``benchmarks/bench_fusion_loso.py``).
    tie_terms: float = 0.0
    # The keyword favourite's result (its note or fragment) stays above every other result
    # whose best cosine stands less than this many spreads above the favourite's own best
    # (0: no such rule). Which of the two firsts is right, when the keyword list and the
    # meaning list disagree, is told best by that gap: on the Rust book's 13 released sets,
    # among the questions exactly one of the two lists puts right, the gap ranks a right
    # meaning first above a right keyword first with AUC 0.85-0.92 (English and everyday-Chinese
    # questions, USE and multilingual-e5), the meaning side's margin or level alone 0.53-0.81.
    # Dense evidence already waits for a gap (``dense_over_keywords``), but the tie-break does
    # not: with a paraphrase's low keyword coverage (lexical evidence of a few hundredths) a
    # z-score a fraction of a spread higher moved a wrong chapter first. A gap in the
    # library's spreads, read within the question, so the same for every model.
    overturn_gap: float = 0.0

    def with_values(self, values: dict[str, float]) -> FusionParams:
        known = {f.name for f in fields(self)}
        return replace(self, **{k: float(v) for k, v in values.items() if k in known})


DEFAULT_PARAMS = FusionParams()


def relevance_floor(calibration: Calibration | None, params: FusionParams,
                    query_has_han: bool | None = None, query_vector: np.ndarray | None = None,
                    reference: FloorReference | None = None) -> float | None:
    """The cosine under which a query that no keyword matched finds nothing close (None: no floor).

    Two floors, and a best cosine under either means nothing is close: the absolute one
    (``params.floor_closeness`` of the library's separation) and, with the model's
    ``reference`` (``floor_reference``), a per-question one: the question's own cosine to
    ordinary passages plus a fitted share of the separation. On a model whose cosines are
    compressed (e5) the absolute floor must sit low enough for every question and so
    catches little; the per-question floor does the work there.

    A question in another script than the library's measured one gets the absolute floor
    only for a model where it held out across scripts both ways (``reference.across_scripts``:
    USE yes, e5 no). The per-question floor reads the question against passages in the
    library's language, so it holds across scripts (Tatoeba held out both ways) — but only
    where that language's centroid is known: a Chinese question on English text read against
    Chinese passages sits too low (e5 would silence 13 % of those that have their answer).
    Otherwise no floor: a lower floor only adds results.
    """
    if calibration is None:
        return None
    same_script = query_has_han is None or calibration.measured_in_script_of(query_has_han)
    floors = []
    if same_script or (reference is not None and reference.across_scripts):
        floors.append(calibration.cosine_at_closeness(params.floor_closeness))
    if reference is not None:
        english_library = 0.0 <= calibration.han_share < 0.5
        if not english_library or reference.english is not None or not query_has_han:
            baseline = reference.baseline(query_vector, calibration.han_share)
            if baseline is not None:
                span = max(calibration.related - calibration.unrelated, 0.0)
                floors.append(baseline + reference.closeness * span)
    return max(floors) if floors else None


def separation_factor(calibration: Calibration | None, params: FusionParams) -> float:
    """How much more the dense side counts on this library than on long passages (≥ 1).

    Separation is clamped: under SEPARATION_REF nothing is extrapolated, and a prior
    without a measured ``related`` (1.0) must not make dense decisive.
    """
    if calibration is None or not params.separation_power:
        return 1.0
    separation = min(max(calibration.separation, SEPARATION_RANGE[0]), SEPARATION_RANGE[1])
    return float((separation / SEPARATION_REF) ** params.separation_power)


def _order_key(
    tie: Callable[[int], tuple[int, int]],
) -> Callable[[Fused], tuple[float, float, float, int, int]]:
    def key(f: Fused) -> tuple[float, float, float, int, int]:
        source_id, chunk_ord = tie(f.chunk_id)
        return (-f.score, -f.lexical, -f.dense, source_id, chunk_ord)

    return key


def plain_rrf(cand: Candidates, tie: Callable[[int], tuple[int, int]], k: int = RRF_K) -> list[Fused]:
    """Reciprocal-rank fusion of the two lists, the baseline the hybrid must beat."""
    scores = (np.where(cand.lex_rank > 0, 1.0 / (k + cand.lex_rank), 0.0)
              + np.where(cand.dense_rank > 0, 1.0 / (k + cand.dense_rank), 0.0))
    # The baseline ranks only what each side listed (exact cosines of lexical-only hits
    # do not count for it).
    listed = np.where(cand.dense_rank > 0, cand.cosine, np.nan)
    return order(Candidates(cand.ids, cand.bm25, cand.coverage, listed, cand.lex_rank,
                            cand.dense_rank), scores, tie)


def fuse_scores(cand: Candidates, calibration: Calibration | None,
                params: FusionParams = DEFAULT_PARAMS, groups: np.ndarray | None = None,
                units: np.ndarray | None = None) -> np.ndarray:
    """Fused score per candidate (≥ 0, higher is better); see the module docstring.

    ``groups`` (one label per candidate: the document a chunk belongs to) lets two lists
    that agree on a document keep it first (``FusionParams.keep_agreed``); without it a
    chunk is its own group. ``units`` (the result a chunk is shown as: its note or fragment)
    lets the keyword favourite's result keep its place (``FusionParams.overturn_gap``);
    without it a chunk is its own result.

    Pure numpy over the candidate record, so ``benchmarks/bench_fusion_loso.py``
    refits the constants offline on exactly what the app computes.
    """
    n = len(cand)
    if n == 0:
        return np.zeros(0)
    fit = calibration.fit if calibration else 1.0
    lexical = np.zeros(n)
    hits = cand.lex_rank > 0
    top = cand.bm25.max() if hits.any() else 0.0
    best_coverage = float(cand.coverage[hits].max()) if hits.any() else 0.0
    if top > 0 and best_coverage > 0:
        relative = np.minimum(1.0, cand.coverage / best_coverage) ** params.coverage_power
        lexical = np.where(hits, relative * cand.bm25 / top, 0.0) * best_coverage ** params.confidence_power
    if fit == 0.0:
        # A model that does not fit the library (an English-only model on Chinese notes):
        # the keyword ranking itself, with dense order only for what keywords did not find.
        return np.where(hits, 1.0 + cand.bm25 / max(top, 1e-9), 0.0)
    listed = cand.cosine[cand.dense_rank > 0]
    if listed.size < 2:
        return lexical
    cosine = np.nan_to_num(cand.cosine)
    mean = float(listed.mean())
    spread = float(listed.std()) or 1e-6
    informative = np.maximum(cosine, calibration.unrelated) if calibration and params.tie_from_unrelated else cosine
    z = np.where(np.isnan(cand.cosine), params.missing_dense_z, (informative - mean) / spread)
    # Without a calibration, a cosine's level is read against this query's own candidates.
    level = calibration.standardize_array(cosine) if calibration else z
    level = np.where(np.isnan(cand.cosine), params.missing_dense_z, level)
    # While vectors are backfilled, some keyword hits have none yet: a tie-break on
    # cosines would then favour whichever hits happen to be embedded, so it is left out
    # (evidence far above unrelated text, a paraphrase, still counts).
    tie_weight = params.tie_weight if not (np.isnan(cand.cosine) & hits).any() else 0.0
    if params.tie_terms and cand.n_terms > params.tie_terms:
        tie_weight *= float(np.sqrt(params.tie_terms / cand.n_terms))
    threshold = params.dense_from
    weight = separation_factor(calibration, params)
    if top > 0 and best_coverage > 0:
        keyword_first = int(np.argmax(np.where(hits, lexical, -np.inf)))
        gap = params.dense_over_keywords * best_coverage ** params.gap_power
        if params.gap_by_separation:
            gap /= weight
        threshold = max(threshold, float(level[keyword_first]) + gap)
    evidence = params.dense_weight * np.maximum(0.0, level - threshold)
    score = lexical + fit * weight * (evidence + tie_weight * z)
    long_passages = calibration is None or calibration.separation <= SEPARATION_REF
    same_script = calibration is None or calibration.measured_in_script_of(cand.has_cjk)
    if params.keep_keyword_page and long_passages and same_script:
        score = _keep_keyword_page(cand, score, evidence)
    if params.overturn_gap and top > 0 and best_coverage > 0:
        score = _keep_keyword_result(cand, score, level, lexical, units, params.overturn_gap)
    if params.keep_agreed:
        score = _keep_agreed(cand, score, groups)
    return score - score.min()


def _keep_keyword_result(cand: Candidates, score: np.ndarray, level: np.ndarray, lexical: np.ndarray,
                         units: np.ndarray | None, gap: float) -> np.ndarray:
    """Lift the keyword favourite's result above every other result not ``gap`` spreads closer.

    Results are compared by their best chunk's level (a chunk without a vector counts as not
    closer); a result the meaning side puts clearly closer keeps its place, above or below.
    """
    first = int(np.argmax(np.where(cand.lex_rank > 0, lexical, -np.inf)))
    labels = units if units is not None else np.arange(len(score))
    inside = labels == labels[first]
    if inside.all():
        return score
    known = ~np.isnan(cand.cosine)
    own = float(level[inside & known].max()) if (inside & known).any() else float(level[first])
    kept = ~inside & (~known | (level < own + gap))
    if not kept.any():
        return score
    best_inside = int(np.flatnonzero(inside)[np.argmax(score[inside])])
    score = score.copy()
    score[best_inside] = max(score[best_inside], float(score[kept].max()) + 1e-6)
    return score


def _keep_keyword_page(cand: Candidates, score: np.ndarray, evidence: np.ndarray) -> np.ndarray:
    """Keep the keyword list's first page above meaning-only candidates without dense evidence.

    Those candidates move down together, below the page's lowest hit, so their own order
    (the tie-break's) is kept.
    """
    unbacked = (cand.lex_rank == 0) & (evidence <= 0)
    page = (cand.lex_rank > 0) & (cand.lex_rank <= KEYWORD_PAGE)
    if not unbacked.any() or not page.any():
        return score
    over = float(score[unbacked].max() - score[page].min())
    if over < 0:
        return score
    score = score.copy()
    score[unbacked] -= over + 1e-6
    return score


def agreement_pair(cand: Candidates) -> tuple[int, int] | None:
    """Rows of the keyword favourite (best BM25) and the dense first, None without both."""
    keyword_first = _keyword_first(cand)
    dense_first = np.flatnonzero(cand.dense_rank == 1)
    if keyword_first is None or dense_first.size == 0:
        return None
    return keyword_first, int(dense_first[0])


def _keyword_first(cand: Candidates) -> int | None:
    """The keyword list's first candidate (by BM25), None without a lexical hit."""
    hits = cand.lex_rank > 0
    return int(np.argmax(np.where(hits, cand.bm25, -np.inf))) if hits.any() else None


def _keep_agreed(cand: Candidates, score: np.ndarray, groups: np.ndarray | None) -> np.ndarray:
    """When the keyword list and the meaning list put the same document first, it stays first."""
    pair = agreement_pair(cand)
    if pair is None:
        return score
    labels = groups if groups is not None else np.arange(len(score))
    if labels[pair[1]] != labels[pair[0]]:
        return score
    return _keep_first(score, labels, pair[0])


def _keep_first(score: np.ndarray, labels: np.ndarray, first: int) -> np.ndarray:
    """Lift the best chunk of ``first``'s group just above every other group's chunks."""
    inside = labels == labels[first]
    if inside.all():
        return score
    best_inside = int(np.flatnonzero(inside)[np.argmax(score[inside])])
    score = score.copy()
    score[best_inside] = max(score[best_inside], float(score[~inside].max()) + 1e-6)
    return score


def order(cand: Candidates, scores: np.ndarray, tie: Callable[[int], tuple[int, int]]) -> list[Fused]:
    """Candidates by the deterministic tie-break (−fused, −lexical, −dense, source, chunk order)."""
    dense = np.maximum(0.0, np.nan_to_num(cand.cosine)).tolist()  # once, not per candidate
    fused = [Fused(cid, s, b, c) for cid, s, b, c in zip(
        cand.ids.tolist(), np.asarray(scores, dtype=np.float64).tolist(), cand.bm25.tolist(), dense,
        strict=True)]
    return sorted(fused, key=_order_key(tie))
