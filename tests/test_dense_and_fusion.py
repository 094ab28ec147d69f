"""Dense matrix bookkeeping and the fusion maths (no model needed)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from desktop_kb.retrieval.calibration import Calibration
from desktop_kb.retrieval.candidates import Candidates
from desktop_kb.retrieval.dense import DenseIndex
from desktop_kb.retrieval.fusion import (
    DEFAULT_PARAMS,
    RRF_K,
    fuse_scores,
    order,
    plain_rrf,
    separation_factor,
)

# Cosine statistics like the default model's on a Chinese library.
USE_LIKE = Calibration(unrelated=0.08, spread=0.09)


def unit(*xs: float) -> np.ndarray:
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


def tie(cid: int) -> tuple[int, int]:
    return (cid, 0)


def test_dense_index_add_replace_remove_and_ties() -> None:
    dense = DenseIndex()
    dense.reset("m", 2)
    dense.add([1, 2, 3], np.stack([unit(1, 0), unit(0, 1), unit(1, 0)]))
    assert [cid for cid, _ in dense.search(unit(1, 0), 3)] == [1, 3, 2]  # equal scores: lower id first
    dense.add([3], unit(0, 1)[None, :])  # re-adding replaces, never duplicates
    assert len(dense) == 3
    assert dense.search(unit(1, 0), 1)[0][0] == 1
    dense.remove([1])
    assert [cid for cid, _ in dense.search(unit(1, 0), 5)] == [2, 3]
    assert dense.similarities(unit(0, 1), [2, 1, 99]) == {2: 1.0}
    ids, vectors = dense.snapshot()  # live rows only, with their exact vectors
    assert sorted(ids.tolist()) == [2, 3]
    np.testing.assert_allclose(vectors[list(ids).index(3)], unit(0, 1))


def test_dense_index_grows_and_compacts() -> None:
    dense = DenseIndex()
    dense.reset("m", 4)
    rng = np.random.default_rng(1)
    vectors = rng.normal(size=(5000, 4)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    dense.add(list(range(5000)), vectors)
    dense.remove(range(0, 4000))  # triggers compaction
    assert len(dense) == 1000
    best = dense.search(vectors[4500], 1)[0]
    assert best[0] == 4500 and abs(best[1] - 1.0) < 1e-5
    assert dense.search(vectors[10], 1)[0][0] >= 4000  # removed rows never come back


def test_dense_index_with_another_dimension_or_empty_returns_nothing() -> None:
    dense = DenseIndex()
    assert dense.search(unit(1, 0), 5) == [] and not dense.ready
    dense.reset("m", 3)
    assert dense.search(unit(1, 0), 5) == []
    ids, vectors = dense.snapshot()
    assert ids.shape == (0,) and vectors.shape == (0, 3)


def cands(lexical: list[tuple[int, float]], dense: list[tuple[int, float]],
          cosines: dict[int, float] | None = None, coverage: dict[int, float] | None = None) -> Candidates:
    """A candidate record as ``gather`` builds it: lexical hits first, exact cosines for all."""
    ids = list(dict.fromkeys([c for c, _ in lexical] + [c for c, _ in dense]))
    cos = {**(cosines or {}), **dict(dense)}
    return Candidates(
        ids=np.array(ids, dtype=np.int64),
        bm25=np.array([dict(lexical).get(c, 0.0) for c in ids]),
        coverage=np.array([(coverage or {}).get(c, 0.0) for c in ids]),
        cosine=np.array([cos.get(c, np.nan) for c in ids]),
        lex_rank=np.array([next((i + 1 for i, (x, _) in enumerate(lexical) if x == c), 0) for c in ids],
                          dtype=np.int32),
        dense_rank=np.array([next((i + 1 for i, (x, _) in enumerate(dense) if x == c), 0) for c in ids],
                            dtype=np.int32),
        dense_ran=bool(dense),
    )


def fused_order(cand: Candidates, calibration: Calibration | None = USE_LIKE) -> list[int]:
    fused = order(cand, fuse_scores(cand, calibration), tie)
    assert all(f.score >= 0 for f in fused)  # scores crossing a seam are ≥ 0
    return [f.chunk_id for f in fused]


def test_plain_rrf_maths() -> None:
    fused = plain_rrf(cands([(1, 9.0), (2, 5.0)], [(2, 0.9), (3, 0.8)]), tie)
    scores = {f.chunk_id: f.score for f in fused}
    assert scores[2] == 1 / (RRF_K + 2) + 1 / (RRF_K + 1)
    assert scores[1] == 1 / (RRF_K + 1) and scores[3] == 1 / (RRF_K + 2)
    assert [f.chunk_id for f in fused] == [2, 1, 3]


def test_lexical_only_degradation_keeps_lexical_order() -> None:
    cand = cands([(5, 10.0), (3, 7.0), (9, 1.0)], [], coverage={5: 1.0, 3: 0.5, 9: 0.2})
    assert fused_order(cand) == [5, 3, 9]
    assert fused_order(cand, None) == [5, 3, 9]


def test_dense_only_degradation_keeps_dense_order() -> None:
    assert fused_order(cands([], [(4, 0.9), (2, 0.5), (7, 0.4)])) == [4, 2, 7]


def test_full_lexical_match_beats_a_mildly_closer_dense_neighbour() -> None:
    # A question whose rare terms all sit in chunk 1; dense slightly prefers chunk 2 (low, flat cosines).
    dense = [(2, 0.34), (1, 0.32)] + [(100 + i, 0.30 - i * 0.001) for i in range(40)]
    cand = cands([(1, 12.0), (2, 4.0)], dense, coverage={1: 1.0, 2: 0.3})
    assert fused_order(cand)[0] == 1
    assert fused_order(cand, None)[0] == 1


def test_confident_dense_match_beats_partial_lexical_overlap() -> None:
    # A paraphrase: dense is sure (0.85, eight spreads above unrelated text); lexical
    # shares one word with another chunk.
    dense = [(1, 0.85)] + [(100 + i, 0.45 - i * 0.002) for i in range(40)]
    cand = cands([(3, 6.0), (1, 2.0)], dense, cosines={3: 0.40}, coverage={3: 0.4, 1: 0.2})
    assert fused_order(cand)[0] == 1


def test_the_same_cosines_mean_little_for_a_model_whose_unrelated_text_scores_high() -> None:
    # For a model that scores unrelated text at 0.8 ± 0.05, 0.85 is one spread above
    # unrelated: the full lexical match stays first.
    dense = [(1, 0.85)] + [(100 + i, 0.82 - i * 0.001) for i in range(40)]
    cand = cands([(3, 6.0), (1, 2.0)], dense, cosines={3: 0.80}, coverage={3: 1.0, 1: 0.2})
    assert fused_order(cand, Calibration(unrelated=0.8, spread=0.05))[0] == 3


def test_dense_overtakes_the_keyword_favourite_only_when_clearly_closer() -> None:
    # Reading-comprehension-like: the question's own passage (chunk 1, all its words) and
    # a passage on the same topic (chunk 2) both sit far above unrelated text; chunk 2 is
    # a little closer in meaning (0.7 spreads). Read against ``dense_from`` alone, its two levels above it
    # would outweigh the full keyword match.
    cal = Calibration(unrelated=0.15, spread=0.1)
    noise = [(100 + i, 0.2 - i * 0.001) for i in range(40)]
    near = cands([(1, 10.0), (2, 6.0)], [(2, 0.75), (1, 0.68)] + noise, coverage={1: 0.8, 2: 0.6})
    assert fused_order(near, cal)[0] == 1
    without_gap = replace(DEFAULT_PARAMS, dense_over_keywords=-np.inf)  # only ``dense_from``
    assert order(near, fuse_scores(near, cal, without_gap), tie)[0].chunk_id == 2
    # Chunk 2 stands far closer than the keyword favourite (a paraphrase): meaning wins.
    far = cands([(1, 10.0), (2, 6.0)], [(2, 0.90), (1, 0.65)] + noise, coverage={1: 0.8, 2: 0.6})
    assert fused_order(far, cal)[0] == 2
    # A chunk keywords never found rises the same way.
    unseen = cands([(1, 10.0)], [(7, 0.90), (1, 0.65)] + noise, coverage={1: 0.8})
    assert fused_order(unseen, cal)[0] == 7


def test_a_model_that_does_not_fit_the_library_leaves_keywords_alone() -> None:
    # It finds a fifth of what keywords find on the library's own sentences: weight 0.
    misfit = Calibration(unrelated=0.1, spread=0.1, dense_found=0.2, lexical_found=1.0, sample=48)
    assert misfit.fit == 0.0
    dense = [(9, 0.95), (5, 0.2)] + [(100 + i, 0.15 - i * 0.001) for i in range(40)]
    cand = cands([(5, 10.0), (3, 7.0)], dense, cosines={3: 0.1}, coverage={5: 1.0, 3: 0.5})
    assert fused_order(cand, misfit)[:2] == [5, 3]


def test_tie_break_is_deterministic() -> None:
    first = fused_order(cands([(8, 1.0), (2, 1.0)], [], coverage={8: 1.0, 2: 1.0}))
    again = fused_order(cands([(2, 1.0), (8, 1.0)], [], coverage={8: 1.0, 2: 1.0}))
    assert first == again == [2, 8]


def _clustered(n: int, dim: int, seed: int) -> np.ndarray:
    """Unit vectors around a few hundred topics (fixed centres): a query drawn the same
    way has neighbours, as a question about the library's own material has."""
    centres = np.random.default_rng(0).normal(size=(300, dim)).astype(np.float32)
    rng = np.random.default_rng(seed)
    x = centres[rng.integers(0, 300, size=n)] + 0.6 * rng.normal(size=(n, dim)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def test_sign_bit_candidates_find_the_exact_top_ten() -> None:
    """Past RESCORE vectors the index searches bits first: the result must still be the
    exact top 10 (tie-aware recall against brute force), with exact cosines."""
    from desktop_kb.retrieval import dense as dense_mod

    vectors = _clustered(6000, 96, seed=3)
    queries = _clustered(60, 96, seed=4)
    dense = DenseIndex()
    dense.reset("m", 96)
    dense.add(list(range(10, 6010)), vectors)
    assert len(dense) == 6000 > dense_mod.RESCORE
    found = 0
    for q in queries:
        exact = vectors @ q
        tenth = np.sort(exact)[-10]
        hits = dense.search(q, 10)
        assert [round(s, 5) for _, s in hits] == [round(float(exact[cid - 10]), 5) for cid, _ in hits]
        found += sum(1 for _, s in hits if s >= tenth - 1e-6)
    assert found / (10 * len(queries)) >= 0.98


def test_hamming_scan_agrees_with_popcount_for_any_dimension(monkeypatch: pytest.MonkeyPatch) -> None:
    from desktop_kb.retrieval import dense as dense_module
    from desktop_kb.retrieval.dense import hamming, sign_bits, stride_of

    monkeypatch.setattr(dense_module, "SCAN_ROWS", 64)  # several steps, a partial last one
    rng = np.random.default_rng(5)
    for dim in (8, 13, 384, 512, 768, 1100):
        width = (dim + 7) // 8
        codes = np.zeros((1000, stride_of(width)), dtype=np.uint8)
        codes[:, :width] = sign_bits(rng.normal(size=(1000, dim)))
        codes[7, :width] = 0xFF  # every bit set: the largest distances a row can have
        query = np.zeros(codes.shape[1], dtype=np.uint8)
        query[:width] = sign_bits(rng.normal(size=dim))
        expected = np.bitwise_count(codes ^ query).sum(axis=1)
        assert np.array_equal(hamming(codes, query), expected)
        assert np.array_equal(hamming(codes[:130], query), expected[:130])
        assert hamming(codes[:0], query).shape == (0,)
        query[:width] = ~codes[7, :width]
        assert hamming(codes, query)[7] == width * 8


def test_search_after_saves_and_deletes_sees_the_new_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    from desktop_kb.retrieval import dense as dense_module

    monkeypatch.setattr(dense_module, "SCAN_ROWS", 256)
    monkeypatch.setattr(dense_module, "RESCORE", 20)
    rng = np.random.default_rng(9)
    dim = 32
    vectors = rng.normal(size=(3000, dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    dense = DenseIndex()
    dense.reset("m", dim)
    dense.add(list(range(1, 3001)), vectors)
    query = vectors[1233].copy()
    assert dense.search(query, 1)[0][0] == 1234
    moved = -query  # chunk 1234 now says the opposite; chunk 77 says what it said
    dense.add([1234, 77], np.stack([moved, query]))
    assert dense.search(query, 1)[0][0] == 77
    dense.remove([77])
    assert 77 not in [cid for cid, _ in dense.search(query, 10)]
    dense.add([5000], query[None, :])  # a new chunk past the last block
    assert dense.search(query, 1)[0][0] == 5000


def test_a_chunk_not_embedded_yet_keeps_its_keyword_place() -> None:
    # While vectors are backfilled, chunk 5 (the best keyword match) has none yet; its
    # neighbour has an ordinary cosine. Lexical evidence alone decides, with no penalty.
    dense = [(100 + i, 0.30 - i * 0.001) for i in range(40)] + [(3, 0.28)]
    cand = cands([(5, 10.0), (3, 9.0), (7, 2.0)], dense, coverage={5: 1.0, 3: 1.0, 7: 0.4})
    assert np.isnan(cand.cosine[0])  # chunk 5 has no vector
    assert fused_order(cand)[:2] == [5, 3]
    assert fused_order(cand, None)[:2] == [5, 3]
    scores = dict(zip(cand.ids.tolist(), fuse_scores(cand, USE_LIKE), strict=True))
    keywords = cands([(5, 10.0), (3, 9.0), (7, 2.0)], [], coverage={5: 1.0, 3: 1.0, 7: 0.4})
    lexical_only = dict(zip(keywords.ids.tolist(), fuse_scores(keywords, USE_LIKE), strict=True))
    # The unembedded chunk's lead over the keyword-weak chunk is its lexical lead, unchanged.
    assert scores[5] - scores[7] == pytest.approx(lexical_only[5] - lexical_only[7], abs=0.02)


def test_an_embedded_paraphrase_still_rises_above_unembedded_keyword_matches() -> None:
    dense = [(1, 0.85)] + [(100 + i, 0.45 - i * 0.002) for i in range(40)]
    cand = cands([(3, 6.0), (1, 2.0)], dense, coverage={3: 0.4, 1: 0.2})  # 3 has no vector
    assert fused_order(cand)[0] == 1


def test_meaning_counts_more_on_a_library_of_short_passages() -> None:
    # The same query record on two libraries: the keyword favourite (chunk 1) holds two of
    # the question's words; chunk 2 stands 1.6 spreads above it in meaning. Where a
    # passage's own sentence sits 8.7 spreads above unrelated text (short sentences, as
    # Tatoeba) that is a paraphrase; where it sits 4.5 (long passages, as DRCD) it is a
    # passage on the same topic, and the keyword favourite stays first.
    params = replace(DEFAULT_PARAMS, dense_from=3.0, dense_over_keywords=1.0, dense_weight=0.25,
                     separation_power=2.0, gap_power=0.0, confidence_power=1.0)
    noise = [(100 + i, 0.2 - i * 0.001) for i in range(40)]
    cand = cands([(1, 8.0), (2, 3.0)], [(2, 0.71), (1, 0.55)] + noise, coverage={1: 0.5, 2: 0.2})
    short = Calibration(unrelated=0.15, spread=0.1, related=0.15 + 8.7 * 0.1)
    long = Calibration(unrelated=0.15, spread=0.1, related=0.15 + 4.5 * 0.1)
    assert order(cand, fuse_scores(cand, short, params), tie)[0].chunk_id == 2
    assert order(cand, fuse_scores(cand, long, params), tie)[0].chunk_id == 1
    # Without a measured separation (a prior: related defaults to 1.0) the factor is bounded.
    assert separation_factor(Calibration(unrelated=-0.5, spread=0.01), params) == pytest.approx(4.0)
    assert separation_factor(None, params) == 1.0


def test_gap_over_a_confident_keyword_favourite_grows_with_its_coverage() -> None:
    cal = Calibration(unrelated=0.15, spread=0.1, related=0.65)
    params = replace(DEFAULT_PARAMS, dense_from=3.0, dense_over_keywords=1.5, gap_power=1.0, dense_weight=1.0,
                     separation_power=0.0)
    noise = [(100 + i, 0.2 - i * 0.001) for i in range(40)]
    # Chunk 2 stands 1.0 spread above the favourite: enough over a favourite holding a
    # third of the question (gap 0.5), not over one holding all of it (gap 1.5).
    weak = cands([(1, 8.0), (2, 2.0)], [(2, 0.70), (1, 0.60)] + noise, coverage={1: 0.33, 2: 0.0})
    strong = cands([(1, 8.0), (2, 2.0)], [(2, 0.70), (1, 0.60)] + noise, coverage={1: 1.0, 2: 0.0})
    assert order(weak, fuse_scores(weak, cal, params), tie)[0].chunk_id == 2
    assert order(strong, fuse_scores(strong, cal, params), tie)[0].chunk_id == 1


def test_two_lists_agreeing_on_a_document_keep_it_first() -> None:
    # Keywords rank chunk 1 first, meaning ranks chunk 2 first; both belong to document A.
    # Chunk 3 (document C) covers more of the question's words and would win the sum.
    dense = [(2, 0.40), (1, 0.38), (3, 0.36)] + [(100 + i, 0.30 - i * 0.001) for i in range(40)]
    cand = cands([(1, 10.0), (3, 8.0)], dense, coverage={1: 0.2, 3: 0.6})
    document = {1: 0, 2: 0, 3: 1}  # chunks 1 and 2 are document A, 3 is C, the rest their own
    agreeing = np.array([document.get(int(c), int(c)) for c in cand.ids])
    off = replace(DEFAULT_PARAMS, keep_agreed=0.0)
    assert order(cand, fuse_scores(cand, USE_LIKE, off, agreeing), tie)[0].chunk_id == 3
    assert order(cand, fuse_scores(cand, USE_LIKE, DEFAULT_PARAMS, agreeing), tie)[0].chunk_id in (1, 2)
    # Each chunk its own document: the lists disagree, and the rule changes nothing.
    np.testing.assert_array_equal(fuse_scores(cand, USE_LIKE), fuse_scores(cand, USE_LIKE, off))
    apart = np.arange(len(cand))
    np.testing.assert_array_equal(fuse_scores(cand, USE_LIKE, DEFAULT_PARAMS, apart),
                                  fuse_scores(cand, USE_LIKE, off, apart))


def test_on_short_passages_meaning_needs_a_smaller_gap_over_the_keyword_favourite() -> None:
    # Chunk 2 stands 1.4 spreads above the keyword favourite (a paraphrase next to a
    # sentence sharing its words). Under a gap of 1.5 that counts for nothing; on short
    # passages (separation 8.7: factor 3.0) the gap is 0.5 and meaning wins, on long ones
    # (4.5: factor 1) the keyword favourite stays first either way.
    on = replace(DEFAULT_PARAMS, dense_from=3.0, dense_over_keywords=1.5, gap_power=0.0, dense_weight=0.5,
                 separation_power=2.0, tie_weight=0.0, keep_agreed=0.0)
    off = replace(on, gap_by_separation=0.0)
    noise = [(100 + i, 0.2 - i * 0.001) for i in range(40)]
    cand = cands([(1, 8.0), (2, 3.0)], [(2, 0.79), (1, 0.65)] + noise, coverage={1: 0.5, 2: 0.2})
    short = Calibration(unrelated=0.15, spread=0.1, related=0.15 + 8.7 * 0.1)
    long = Calibration(unrelated=0.15, spread=0.1, related=0.15 + 4.5 * 0.1)
    assert order(cand, fuse_scores(cand, short, on), tie)[0].chunk_id == 2
    assert order(cand, fuse_scores(cand, short, off), tie)[0].chunk_id == 1
    np.testing.assert_array_equal(fuse_scores(cand, long, on), fuse_scores(cand, long, off))


def test_a_meaning_list_that_sees_nothing_leaves_the_keyword_order() -> None:
    # An English question on a Chinese library, with a model that does not carry it into
    # the library's language: every cosine, the best (0.838) included, sits below the
    # library's unrelated mean (0.845). Keywords found the chapter through the one English
    # term it holds (a low coverage); a tie-break on raw cosines would put a dense-only
    # chunk first and a weaker keyword hit above the favourite.
    cal = Calibration(unrelated=0.845, spread=0.03, related=0.887, han_share=1.0)
    noise = [(100 + i, 0.80 - i * 0.001) for i in range(40)]
    unseen = cands([(1, 13.0), (3, 5.0)], [(2, 0.838), (3, 0.82)] + noise, cosines={1: 0.79},
                   coverage={1: 0.1, 3: 0.05})
    off = replace(DEFAULT_PARAMS, tie_from_unrelated=0.0)
    assert [f.chunk_id for f in order(unseen, fuse_scores(unseen, cal, off), tie)][:2] == [2, 3]
    assert fused_order(unseen, cal)[:2] == [1, 3]
    # The same question where the model's best matches stand above unrelated text: they
    # keep their say, and the keyword favourite is overtaken as before.
    seen = cands([(1, 13.0), (3, 5.0)], [(2, 0.898), (3, 0.88)] + [(c, s + 0.06) for c, s in noise],
                 cosines={1: 0.85}, coverage={1: 0.1, 3: 0.05})
    assert fused_order(seen, cal)[0] == 2
    # Without a calibration there is no library scale to read "unrelated" on.
    np.testing.assert_array_equal(fuse_scores(unseen, None), fuse_scores(unseen, None, off))


def test_meaning_only_candidates_without_evidence_do_not_push_the_keyword_page_out() -> None:
    # A colloquial Chinese question on a Chinese book: keywords found the chapter (3rd) with
    # a few words; the model is sure of twelve other chapters, but none stands far enough
    # above unrelated text to count as evidence, only the tie-break lifts them.
    cal = Calibration(unrelated=0.845, spread=0.03, related=0.887, han_share=1.0)
    sure = [(100 + i, 0.90 - i * 0.002) for i in range(12)]
    lexical = [(1, 9.0), (2, 8.0), (3, 7.5)]
    record = replace(cands(lexical, sure, cosines={1: 0.80, 2: 0.80, 3: 0.81},
                           coverage={1: 0.2, 2: 0.2, 3: 0.2}), has_cjk=True)
    off = replace(DEFAULT_PARAMS, keep_keyword_page=0.0)
    assert 3 not in [f.chunk_id for f in order(record, fuse_scores(record, cal, off), tie)][:10]
    ranked = fused_order(record, cal)
    assert ranked[:3] == [1, 2, 3] and ranked[3:6] == [100, 101, 102]  # their own order kept
    # A meaning-only chunk with evidence of its own (far above unrelated text) still may pass.
    backed = replace(cands(lexical, [(200, 0.99)] + sure, cosines={1: 0.80, 2: 0.80, 3: 0.81},
                           coverage={1: 0.2, 2: 0.2, 3: 0.2}), has_cjk=True)
    assert fused_order(backed, cal)[0] == 200
    # Not across scripts (an English question: keyword hits are incidental tokens) ...
    english = replace(record, has_cjk=False)
    np.testing.assert_array_equal(fuse_scores(english, cal), fuse_scores(english, cal, off))
    # ... nor on short passages, where meaning is the better judge (separation factor > 1).
    short = Calibration(unrelated=0.845, spread=0.03, related=0.845 + 8.0 * 0.03, han_share=1.0)
    np.testing.assert_array_equal(fuse_scores(record, short), fuse_scores(record, short, off))


def test_closest_rows_are_the_smallest_distances_with_ties_taken_by_chunk_id() -> None:
    from desktop_kb.retrieval.dense import _closest_rows

    rng = np.random.default_rng(11)
    for first in (1, 7, 100, 999, 1000):
        dist = rng.integers(0, 40, size=1000).astype(np.uint32)  # ties at every distance
        ids = rng.permutation(5000)[:1000].astype(np.int64)
        rows = _closest_rows(dist, first, ids)
        expected = np.lexsort((ids, dist))[:first]  # by distance, then by chunk id
        assert sorted(rows.tolist()) == sorted(expected.tolist())
    # The sampled rows (every CUT_SAMPLE-th) are all close, the rest far: the sample's
    # guess holds too few rows and every row is counted; and the reverse.
    from desktop_kb.retrieval.dense import CUT_SAMPLE

    for near, far in ((0, 9), (9, 0)):
        dist = np.full(4096, far, dtype=np.uint32)
        dist[::CUT_SAMPLE] = near
        ids = rng.permutation(4096).astype(np.int64)
        for first in (10, 256, 257, 300, 4000):
            rows = _closest_rows(dist, first, ids)
            assert sorted(rows.tolist()) == sorted(np.lexsort((ids, dist))[:first].tolist())


def test_search_does_not_depend_on_the_order_chunks_were_added_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """The writer adds chunks one save at a time; a process following the index loads
    them all at once, in another order. Both must answer a question the same way, also
    when many rows tie at the sign-bit cut (8-d vectors: 256 possible codes)."""
    from desktop_kb.retrieval import dense as dense_module

    monkeypatch.setattr(dense_module, "RESCORE", 40)
    rng = np.random.default_rng(12)
    vectors = rng.normal(size=(3000, 8)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    ids = np.arange(1, 3001)
    forward, shuffled = DenseIndex(), DenseIndex()
    for index in (forward, shuffled):
        index.reset("m", 8)
    forward.add(ids.tolist(), vectors)
    order = rng.permutation(3000)
    for part in np.array_split(order, 30):
        shuffled.add(ids[part].tolist(), vectors[part])
    gone = rng.choice(ids, size=200, replace=False)  # removed rows wait for compaction
    forward.remove(gone.tolist())
    shuffled.remove(gone[::-1].tolist())
    for q in rng.normal(size=(40, 8)).astype(np.float32):
        hits = forward.search(q, 10)
        assert hits == shuffled.search(q, 10)
        assert not set(gone.tolist()) & {cid for cid, _ in hits}


def test_a_long_question_keeps_a_keyword_favourite_the_tie_break_alone_would_overturn() -> None:
    # A long English question on a Chinese book (e5-like scale: every cosine 1-2 spreads over
    # unrelated text, no dense evidence). Keywords put chapter 1 clearly first; the meaning
    # list puts chapter 2 a hair above it. Read within the query, that hair is a z-score of
    # about one, which outweighs the keyword margin of a question that holds a quarter of
    # its words: 'What does it mean that Rust is an ahead-of-time compiled language, and how
    # is that different from giving someone a .py or .rb file?' (Rust book set 15).
    cal = Calibration(unrelated=0.80, spread=0.03, related=0.84, han_share=0.7)
    noise = [(100 + i, 0.84 - i * 0.0005) for i in range(30)]
    record = cands([(1, 30.0), (2, 12.0)], [(2, 0.852), (1, 0.846)] + noise,
                   coverage={1: 0.25, 2: 0.2})
    e5 = replace(DEFAULT_PARAMS, confidence_power=2.0)  # the lexical confidence e5's fit chose
    params = replace(e5, tie_terms=10.0)
    short, long = replace(record, n_terms=8), replace(record, n_terms=24)
    assert [f.chunk_id for f in order(long, fuse_scores(long, cal, e5), tie)][0] == 2  # without the limit
    assert [f.chunk_id for f in order(long, fuse_scores(long, cal, params), tie)][0] == 1
    # A short question (at most tie_terms tokens) is fused as before: its few words are weak evidence.
    np.testing.assert_array_equal(fuse_scores(short, cal, params), fuse_scores(short, cal, e5))
    assert [f.chunk_id for f in order(short, fuse_scores(short, cal, params), tie)][0] == 2


def test_the_keyword_favourites_result_yields_only_to_one_clearly_closer_in_meaning() -> None:
    # An everyday-Chinese question on a book (e5-like scale, no dense evidence): keywords put
    # fragment A first, holding a fifth of the question; the meaning list puts fragment B a
    # hair closer than A's closest chunk. Read within the query that hair is a z-score the
    # favourite's few hundredths of lexical evidence cannot outweigh, so B came first
    # (Rust book, e5: '数字加过头了装不下会发生什么' lost its chapter to one 0.2 spreads closer).
    cal = Calibration(unrelated=0.80, spread=0.03, related=0.84, han_share=0.7)
    noise = [(100 + i, 0.835 - i * 0.0005) for i in range(30)]
    # Chunks 1 and 3 are fragment A (1 the keyword favourite, 3 its closest in meaning), 2 is B.
    record = replace(cands([(1, 30.0), (2, 12.0)], [(2, 0.852), (3, 0.850), (1, 0.840)] + noise,
                           coverage={1: 0.2, 2: 0.15}), n_terms=9)
    units = np.array([{1: 0, 3: 0, 2: 1}.get(int(c), 2 + i) for i, c in enumerate(record.ids)])
    e5 = replace(DEFAULT_PARAMS, confidence_power=2.0, dense_from=3.0, dense_over_keywords=1.5, gap_power=0.0)
    kept = replace(e5, overturn_gap=0.25)

    def first(cand: Candidates, params: object, with_units: bool = True) -> int:
        scores = fuse_scores(cand, cal, params, None, units if with_units else None)
        return int(units[list(cand.ids).index(order(cand, scores, tie)[0].chunk_id)])

    assert first(record, e5) == 1  # before: the tie-break's hair decides
    assert first(record, kept) == 0
    # Read chunk by chunk, B stands 0.4 spreads above the favourite chunk itself: the gap is
    # between results, as a person sees them (one per fragment).
    assert first(record, kept, with_units=False) == 1
    # A meaning first clearly closer than every chunk of the favourite's fragment keeps its place.
    closer = record.with_cosines(np.where(record.ids == 2, 0.860, record.cosine))
    assert first(closer, kept) == 1
    # Off (0, the default and USE's fit) nothing changes.
    np.testing.assert_array_equal(fuse_scores(record, cal, replace(kept, overturn_gap=0.0), None, units),
                                  fuse_scores(record, cal, e5, None, units))
