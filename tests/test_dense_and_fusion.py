"""Dense matrix bookkeeping and the fusion maths (no model needed)."""

from __future__ import annotations

import numpy as np

from desktop_kb.retrieval.dense import DenseIndex
from desktop_kb.retrieval.fusion import RRF_K, adaptive_fuse, plain_rrf


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


def test_plain_rrf_maths() -> None:
    fused = plain_rrf([(1, 9.0), (2, 5.0)], [(2, 0.9), (3, 0.8)], tie)
    scores = {f.chunk_id: f.score for f in fused}
    assert scores[2] == 1 / (RRF_K + 2) + 1 / (RRF_K + 1)
    assert scores[1] == 1 / (RRF_K + 1) and scores[3] == 1 / (RRF_K + 2)
    assert [f.chunk_id for f in fused] == [2, 1, 3]


def test_lexical_only_degradation_keeps_lexical_order() -> None:
    lexical = [(5, 10.0), (3, 7.0), (9, 1.0)]
    coverage = {5: 1.0, 3: 0.5, 9: 0.2}
    fused = adaptive_fuse(lexical, [], {}, coverage, tie)
    assert [f.chunk_id for f in fused] == [5, 3, 9]
    assert all(f.score >= 0 for f in fused)


def test_dense_only_degradation_keeps_dense_order() -> None:
    dense = [(4, 0.9), (2, 0.5), (7, 0.4)]
    fused = adaptive_fuse([], dense, {}, {}, tie)
    assert [f.chunk_id for f in fused] == [4, 2, 7]
    assert all(f.score >= 0 for f in fused)


def test_full_lexical_match_beats_a_mildly_closer_dense_neighbour() -> None:
    # A question whose rare terms all sit in chunk 1; dense slightly prefers chunk 2 (low, flat cosines).
    lexical = [(1, 12.0), (2, 4.0)]
    dense = [(2, 0.34), (1, 0.32)] + [(100 + i, 0.30 - i * 0.001) for i in range(40)]
    fused = adaptive_fuse(lexical, dense, {}, {1: 1.0, 2: 0.3}, tie)
    assert fused[0].chunk_id == 1


def test_confident_dense_match_beats_partial_lexical_overlap() -> None:
    # A paraphrase: dense is sure (0.85 vs ~0.4 for the rest); lexical shares one word elsewhere.
    lexical = [(3, 6.0), (1, 2.0)]
    dense = [(1, 0.85)] + [(100 + i, 0.45 - i * 0.002) for i in range(40)]
    fused = adaptive_fuse(lexical, dense, {3: 0.40}, {3: 0.4, 1: 0.2}, tie)
    assert fused[0].chunk_id == 1


def test_tie_break_is_deterministic() -> None:
    fused = adaptive_fuse([(8, 1.0), (2, 1.0)], [], {}, {8: 1.0, 2: 1.0}, tie)
    assert [f.chunk_id for f in fused] == [2, 8]
    again = adaptive_fuse([(2, 1.0), (8, 1.0)], [], {}, {8: 1.0, 2: 1.0}, tie)
    assert [f.chunk_id for f in again] == [2, 8]
