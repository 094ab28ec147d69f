"""Search at 10⁵–10⁶ chunks: latency, memory and dense recall, with baselines in the same run.

Used by ``bench_retrieval.py`` (section 1). For each size a library is built
from real sentences (see ``retrieval_corpus.py`` for what is real and what is
synthesised) and cached under ``--cache`` (default ``/tmp/desktop-kb-bench``),
keyed by everything that shapes it, so reruns skip the build. Then, in one
process with the real model loaded:

* ``Library.search`` in hybrid, lexical and dense mode over real questions
  (the query is embedded by the real model inside each hybrid/dense search),
  ``--passes`` times; each figure is the median over passes of that pass's
  p50/p99, in wall-clock time and in this process's CPU time (all its
  threads: the model runs on two), which other people's load inflates less;
* baselines interleaved query by query, so load on the shared machine hits
  both alike: the float32 brute-force matrix (the previous dense index) against
  ``DenseIndex.search``, and the unpruned FTS5 OR query (the previous lexical
  search) against ``lexical_search``;
* dense recall@10 against exact float search (tie-aware: a hit counts when its
  exact cosine reaches the 10th best), on the synthetic chunks and on real
  vectors (the 45k embedded sentences);
* resident memory of a fresh process that opens the library as the app does.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import retrieval_corpus as rc
from measure import percentile, proc_memory

LIMIT = 10
PROBE_QUERIES = 50
BUILD_BATCH = 5000
LIB_FORMAT = "2"


def progress(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


# ----- building (cached) -----------------------------------------------------------------


def library_key(size: int, seed: int, corpus_digest: str, model_id: str) -> str:
    from desktop_kb.index.db import INDEX_SCHEMA_VERSION
    from desktop_kb.index.segment import segmenter_signature
    from desktop_kb.store.schema import SCHEMA_VERSION

    parts = [LIB_FORMAT, str(size), str(seed), corpus_digest, model_id, str(INDEX_SCHEMA_VERSION),
             segmenter_signature(), str(SCHEMA_VERSION)]
    return hashlib.blake2b("|".join(parts).encode(), digest_size=6).hexdigest()


def build_library(data_dir: Path, corpus: rc.SyntheticCorpus, sentence_vectors: np.ndarray,
                  model_id: str) -> dict[str, Any]:
    """The store's notes and the index rows the app's writer would make, written in bulk.

    At 10⁶ chunks the app's own path (prepare_source + write_source per
    note) takes hours on this machine, so the rows are assembled here from
    pieces computed once: each distinct sentence is segmented (and its
    ideograph pairs taken) by the indexer's functions, and a chunk's tokens
    are its sentences' tokens joined (no token crosses a newline). Every note
    still goes through the app's chunker; a note it does not keep as one whole
    chunk goes through ``prepare_source`` itself. A random sample of notes is
    prepared the app's way and compared row for row (mismatches reported).
    The index's feed cursor is set to the store's position, so opening the
    library finds nothing to catch up.
    """
    from desktop_kb.index import db as index_db
    from desktop_kb.index import postings, term_df
    from desktop_kb.index.apply import Cursor, write_cursor
    from desktop_kb.index.prepare import (
        PreparedChunk,
        PreparedSource,
        chunk_source,
        embed_text_of,
        prepare_source,
    )
    from desktop_kb.index.segment import gram_tokens, segment_for_index, segmenter_signature
    from desktop_kb.index.sources import SourceText, source_version, text_hash
    from desktop_kb.index.vectors import store_vectors
    from desktop_kb.library import Library
    from desktop_kb.store import feed

    started = time.perf_counter()
    with Library(data_dir, load_model=False) as lib:  # creates both schemas
        if lib.startup_rebuild is not None:
            lib.startup_rebuild.result()
        store_path, index_path = lib.paths.store, lib.paths.index
    store = sqlite3.connect(store_path, isolation_level=None)
    now = time.time()
    store.execute("BEGIN IMMEDIATE")
    store.executemany(
        "INSERT INTO notes(title, body, created_at, updated_at, local_only) VALUES (?, ?, ?, ?, 0)",
        ((t, b, now, now) for t, b in zip(corpus.titles, corpus.bodies, strict=True)))
    store.execute("COMMIT")
    note_ids = [r[0] for r in store.execute("SELECT id FROM notes ORDER BY id")]
    assert len(note_ids) == len(corpus.bodies)
    pos = feed.position(store)
    store.close()
    progress(f"  {len(note_ids):,} notes stored ({time.perf_counter() - started:.0f} s)")

    seg: dict[int, str] = {}
    grams: dict[int, str] = {}
    title_cache: dict[str, tuple[str, str]] = {}

    def fast(i: int) -> PreparedSource:
        title, body = corpus.titles[i], corpus.bodies[i]
        source = SourceText("note", note_ids[i], title, body, "md")
        chunks = chunk_source(source)
        if len(chunks) != 1 or chunks[0].text != body or chunks[0].heading_path:
            return prepare_source(source)
        parts_seg, parts_grams = [], []
        for x in corpus.members[i].tolist():
            if x not in seg:
                seg[x] = segment_for_index(corpus.sentences[x])
                grams[x] = gram_tokens(corpus.sentences[x])
            if seg[x]:
                parts_seg.append(seg[x])
            if grams[x]:
                parts_grams.append(grams[x])
        head, _sep, number = title.rpartition(" · ")
        if head not in title_cache:
            title_cache[head] = (segment_for_index(head), gram_tokens(head))
        head_tokens, head_grams = title_cache[head]
        thash = text_hash(body)
        embedded = embed_text_of(body, title)  # the model reads one script (model_text)
        chunk = PreparedChunk(
            ord=0, start=chunks[0].start, end=chunks[0].end, heading_path="", text=body,
            text_hash=thash, body_tokens=" ".join(parts_seg),
            gram_tokens=" ".join(filter(None, (" ".join(parts_grams), head_grams))),
            embed_hash=thash if embedded == body else text_hash(embedded))
        return PreparedSource(key=source.key, title=title, version=source_version(title, body),
                              title_hash=text_hash(title),
                              title_tokens=" ".join(filter(None, (head_tokens, number))),
                              chunks=[chunk])

    rng = np.random.default_rng(0)
    sample = rng.choice(len(note_ids), size=min(300, len(note_ids)), replace=False)
    mismatches = sum(1 for i in sample.tolist() if fast(i) != prepare_source(
        SourceText("note", note_ids[i], corpus.titles[i], corpus.bodies[i], "md")))

    index = index_db.open_index_writer(index_path)
    index.execute("PRAGMA synchronous=OFF")  # a benchmark's throwaway copy: rebuilt if lost
    index.execute("PRAGMA cache_size=-262144")  # 256 MB while building: FTS5 merges stay in memory
    cid = 0  # the index is empty: chunk ids are assigned here, so each table takes one executemany
    for lo in range(0, len(note_ids), BUILD_BATCH):
        hi = min(lo + BUILD_BATCH, len(note_ids))
        items = [fast(i) for i in range(lo, hi)]
        vectors = rc.chunk_vectors(corpus, sentence_vectors, lo, hi)
        chunk_rows, fts_rows, gram_rows, source_rows = [], [], [], []
        rows: list[tuple[int, np.ndarray]] = []
        for item, vector in zip(items, vectors, strict=True):
            for c in item.chunks:
                cid += 1
                chunk_rows.append((cid, *item.key, c.ord, c.start, c.end, c.heading_path, c.text_hash))
                fts_rows.append((cid, c.body_tokens, item.title_tokens))
                if c.gram_tokens:
                    gram_rows.append((cid, c.gram_tokens))
                rows.append((cid, vector))
            source_rows.append((*item.key, item.version, item.title_hash))
        index.execute("BEGIN IMMEDIATE")
        index.executemany("INSERT INTO kb_chunks(id, source_type, source_id, ord, start, end, "
                          "heading_path, text_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", chunk_rows)
        index.executemany("INSERT INTO kb_fts(rowid, body, title) VALUES (?, ?, ?)", fts_rows)
        index.executemany("INSERT INTO kb_grams(rowid, grams) VALUES (?, ?)", gram_rows)
        index.executemany("INSERT INTO kb_sources(source_type, source_id, version, title_hash, "
                          "generation) VALUES (?, ?, ?, ?, 0)", source_rows)
        store_vectors(index, model_id, rows)
        index.execute("COMMIT")
        if (lo // BUILD_BATCH) % 20 == 0:
            progress(f"  indexed {hi:,}/{len(note_ids):,} notes ({time.perf_counter() - started:.0f} s)")
    chunks = cid
    index.execute("BEGIN IMMEDIATE")
    term_df.refill(index)  # the writer's document counts, as a migration makes them
    while postings.refresh(index):  # common words' postings, as the idle writer makes them
        pass
    index_db.set_meta(index, "embed_model", model_id)
    index_db.set_meta(index, "segmenter", segmenter_signature())
    index_db.set_meta(index, "dirty", "0")
    write_cursor(index, Cursor(pos.seq, pos.epoch))
    index.execute("COMMIT")
    index.close()
    return {"notes": len(note_ids), "chunks": chunks, "build_s": round(time.perf_counter() - started, 1),
            "sample_checked_against_prepare_source": int(len(sample)),
            "sample_mismatches": mismatches}


def cached_library(cache_root: Path, size: int, seed: int, docs: Sequence[rc.Document],
                   sentence_vectors_of: Callable[[rc.SyntheticCorpus], np.ndarray],
                   model_id: str) -> tuple[Path, rc.SyntheticCorpus, np.ndarray, dict[str, Any]]:
    corpus = rc.synthesise(docs, size, seed)
    pool = sentence_vectors_of(corpus)
    digest = rc._digest(corpus.sentences[:1000] + corpus.bodies[:1000])
    data_dir = cache_root / f"lib-{size}-{library_key(size, seed, digest, model_id)}"
    marker = data_dir / "bench-complete.json"
    if marker.is_file():
        info = json.loads(marker.read_text())
        info["cached"] = True
        return data_dir, corpus, pool, info
    shutil.rmtree(data_dir, ignore_errors=True)
    progress(f"[{size:,}] building the library (cached afterwards in {data_dir})")
    info = build_library(data_dir, corpus, pool, model_id)
    marker.write_text(json.dumps(info))
    info["cached"] = False
    return data_dir, corpus, pool, info


# ----- measuring ----------------------------------------------------------------------


def old_lexical(index: sqlite3.Connection, query: str, limit: int = 100) -> list[tuple[int, float]]:
    """The previous lexical search: every OR term scored by BM25 over all its rows."""
    from desktop_kb.retrieval.fts_query import build_match

    match = build_match(query)
    if match is None:
        return []
    return index.execute(
        "SELECT rowid, bm25(kb_fts, 1.0, 2.0) AS s FROM kb_fts WHERE kb_fts MATCH ? "
        "ORDER BY s, rowid LIMIT ?", (match, limit)).fetchall()


def float_matrix(index: sqlite3.Connection, model_id: str, dim: int) -> tuple[np.ndarray, np.ndarray]:
    """The previous dense index's data: every float vector in one matrix (baseline only)."""
    count = index.execute("SELECT count(*) FROM kb_vectors").fetchone()[0]
    ids = np.empty(count, dtype=np.int64)
    matrix = np.empty((count, dim), dtype=np.float32)
    n = 0
    cur = index.execute("SELECT chunk_id, vector FROM kb_vectors NOT INDEXED WHERE model_id = ?", (model_id,))
    while True:
        rows = cur.fetchmany(50_000)
        if not rows:
            break
        ids[n:n + len(rows)] = [r[0] for r in rows]
        matrix[n:n + len(rows)] = np.frombuffer(b"".join(r[1] for r in rows),
                                                dtype=np.float32).reshape(len(rows), dim)
        n += len(rows)
    return ids[:n], matrix[:n]


def brute_force(matrix: np.ndarray, ids: np.ndarray, query: np.ndarray, k: int) -> list[tuple[int, float]]:
    sims = matrix @ query
    top = np.argpartition(-sims, k - 1)[:k]
    order = np.lexsort((ids[top], -sims[top]))
    return [(int(ids[top[i]]), float(sims[top[i]])) for i in order]


def tie_aware_recall(found: Sequence[float], exact_kth: float) -> float:
    return sum(1 for s in found[:10] if s >= exact_kth - 1e-6) / 10


def vector_recall(vectors: np.ndarray, queries: np.ndarray) -> dict[str, float]:
    """DenseIndex over real vectors vs exact float search (the dense index in memory mode)."""
    from desktop_kb.retrieval.dense import DenseIndex

    index = DenseIndex()
    index.reset("bench", vectors.shape[1])
    index.add(list(range(len(vectors))), vectors)
    recalls = []
    for q in queries:
        exact = vectors @ q
        kth = float(np.partition(exact, len(exact) - 10)[len(exact) - 10])
        recalls.append(tie_aware_recall([s for _, s in index.search(q, 10)], kth))
    return {"vectors": len(vectors), "queries": len(queries),
            "recall_at_10": round(float(np.mean(recalls)), 4),
            "min_query_recall": round(float(np.min(recalls)), 2)}


def _summ(times: Sequence[float]) -> dict[str, float]:
    return {"p50_ms": round(percentile(times, 50) * 1000, 2),
            "p99_ms": round(percentile(times, 99) * 1000, 2)}


def _median_of(passes: list[dict[str, float]]) -> dict[str, Any]:
    out: dict[str, Any] = {k: round(statistics.median(p[k] for p in passes), 2) for k in passes[0]}
    out["passes"] = [p["p50_ms"] for p in passes]
    return out


def measure(data_dir: Path, models_dir: Path, model: str, queries: Sequence[str],
            query_vectors: np.ndarray, passes: int) -> dict[str, Any]:
    from desktop_kb.library import Library
    from desktop_kb.retrieval import candidates
    from desktop_kb.retrieval.lexical import lexical_search

    res: dict[str, Any] = {}
    with Library(data_dir, models_dir=models_dir) as lib:
        assert lib.model_ready is not None
        res["embedded_at_open"] = lib.model_ready.result()
        # A library just built has its common words' postings still to fill: the writer does
        # it when idle, in this process, and its CPU and memory would count in every figure
        # below (at 10⁶ chunks ~2 min of work; last session's 10⁶ figures included it).
        began = time.perf_counter()
        while lib.index_reader.execute("SELECT 1 FROM kb_post_todo LIMIT 1").fetchone():
            time.sleep(1)
        res["postings_filled_before_measuring_s"] = round(time.perf_counter() - began, 1)
        engine = lib.engine
        assert engine is not None and lib.dense.ready
        res["dense_rows"] = len(lib.dense)
        index = lib.index_reader
        # The first search of each question reads its pages from disk: measured on its own
        # ("hybrid_cold"), and then every question is warm for every mode. With only 20
        # questions of warm-up the first mode measured paid for the cold pages of the other
        # 180: at 10⁶ chunks "hybrid" (measured first) read 1.6× the wall time of the same
        # search on one thread measured next, and within 5 % of it interleaved per question.
        cold, cold_cpu = [], []
        for q in queries:
            t, c = time.perf_counter(), time.process_time()
            lib.search(q, limit=LIMIT, mode="hybrid")
            cold.append(time.perf_counter() - t)
            cold_cpu.append(time.process_time() - c)
        # The baseline of this run: the same search on one thread (the dense side after
        # the keyword side, as before it ran on a helper thread).
        modes: dict[str, list[dict[str, float]]] = {
            "hybrid": [], "hybrid_serial": [], "lexical": [], "dense": []}
        results: dict[str, int] = {}
        for p in range(passes):
            for mode in modes:
                progress(f"  pass {p + 1}/{passes}: {len(queries)} queries, {mode}")
                times, cpu = [], []
                empty = 0
                candidates.CONCURRENT = mode != "hybrid_serial"
                for q in queries:
                    t, c = time.perf_counter(), time.process_time()
                    r = lib.search(q, limit=LIMIT, mode=mode.split("_")[0])
                    times.append(time.perf_counter() - t)
                    cpu.append(time.process_time() - c)
                    empty += not r.results
                candidates.CONCURRENT = True
                cpu_summary = _summ(cpu)
                modes[mode].append(_summ(times) | {"cpu_p50_ms": cpu_summary["p50_ms"],
                                                   "cpu_p99_ms": cpu_summary["p99_ms"]})
                results[mode] = empty
        res["search"] = {m: _median_of(v) | {"queries_without_results": results[m]}
                         for m, v in modes.items()}
        cold_summary = _summ(cold_cpu)
        res["search"]["hybrid_cold"] = _median_of([_summ(cold) | {
            "cpu_p50_ms": cold_summary["p50_ms"], "cpu_p99_ms": cold_summary["p99_ms"]}])
        progress("  query embedding alone")
        times = []
        for q in queries:
            t = time.perf_counter()
            engine.embed_queries([q])
            times.append(time.perf_counter() - t)
        res["embed_query_only"] = _summ(times)
        progress("  lexical: new vs previous (unpruned OR), interleaved")
        new_t, old_t = [], []
        for i, q in enumerate(queries):
            for which in ((0, 1) if i % 2 else (1, 0)):
                t = time.perf_counter()
                if which:
                    lexical_search(index, q, limit=100)
                    new_t.append(time.perf_counter() - t)
                else:
                    old_lexical(index, q)
                    old_t.append(time.perf_counter() - t)
        res["lexical_vs_previous"] = {"new": _summ(new_t), "previous": _summ(old_t)}
        progress("  dense: sign-bit index vs float32 brute force (loading the float matrix)")
        ids, matrix = float_matrix(index, engine.model_id, engine.dim)
        res["float_matrix_mb"] = round(matrix.nbytes / 2**20, 1)
        new_t, old_t, recalls = [], [], []
        for i, qv in enumerate(query_vectors):
            exact = brute_force(matrix, ids, qv, 10)
            for which in ((0, 1) if i % 2 else (1, 0)):
                t = time.perf_counter()
                if which:
                    found = lib.dense.search(qv, 100)
                    new_t.append(time.perf_counter() - t)
                else:
                    brute_force(matrix, ids, qv, 100)
                    old_t.append(time.perf_counter() - t)
            recalls.append(tie_aware_recall([s for _, s in found], exact[-1][1]))
        del matrix
        res["dense_vs_float"] = {"new": _summ(new_t), "float_brute_force": _summ(old_t),
                                 "recall_at_10": round(float(np.mean(recalls)), 4),
                                 "min_query_recall": round(float(np.min(recalls)), 2)}
    return res


def rss_probe(bench_script: Path, data_dir: Path, models_dir: Path, model: str,
              queries: Sequence[str]) -> dict[str, Any]:
    """A fresh interpreter opens the library the way the app does and reports its memory."""
    cmd = [sys.executable, str(bench_script), "--rss-probe", str(data_dir),
           "--models-dir", str(models_dir), "--model", model]
    env = dict(os.environ)
    repo = str(bench_script.resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [repo, env.get("PYTHONPATH")]))
    proc = subprocess.run(cmd, input=json.dumps(list(queries), ensure_ascii=False),
                          capture_output=True, text=True, timeout=1800, env=env, check=False)
    if proc.returncode != 0:
        return {"error": proc.stderr.strip()[-800:]}
    return json.loads(proc.stdout)


def probe_main(data_dir: Path, models_dir: Path, model: str) -> int:
    from desktop_kb.library import Library

    before = proc_memory()
    t = time.perf_counter()
    with Library(data_dir, models_dir=models_dir) as lib:
        assert lib.model_ready is not None
        embedded = lib.model_ready.result()
        ready = time.perf_counter() - t
        loaded = proc_memory()
        queries = json.loads(sys.stdin.read())
        for q in queries:
            lib.search(q, limit=LIMIT, mode="hybrid")
        after = proc_memory()
        out = {"dense_rows": len(lib.dense), "embedded": embedded,
               "open_to_ready_s": round(ready, 2), "before_open": before,
               "model_and_index_loaded": loaded, "queries": len(queries),
               "after_hybrid_queries": after, "engine": lib.engine.model_id if lib.engine else None}
    print(json.dumps(out))
    return 0


def _prepare(size: int, *, shared: Path, cache_root: Path, models_dir: Path, model: str,
             seed: int, n_queries: int) -> tuple[Any, ...]:
    """The model, the real sentences' and questions' vectors, and the cached library."""
    from desktop_kb.embed.manager import ModelManager

    docs = rc.load_documents(shared)
    sentences = list(dict.fromkeys(s for d in docs for s in d.sentences))
    queries = rc.load_queries(shared)[:n_queries]
    engine = ModelManager(models_dir.parent).load_engine(model)
    vec_cache = cache_root / "vectors"
    sentence_vectors = rc.cached_embeddings(vec_cache, f"sentences-{model}", sentences,
                                            engine.embed_passages, progress)
    query_vectors = rc.cached_embeddings(vec_cache, f"queries-{model}", queries,
                                         engine.embed_queries, progress)
    row_of = {s: i for i, s in enumerate(sentences)}

    def vectors_of(corpus: rc.SyntheticCorpus) -> np.ndarray:
        return sentence_vectors[np.array([row_of[s] for s in corpus.sentences])]

    library = cached_library(cache_root, size, seed, docs, vectors_of, engine.model_id)
    return (*library, engine, sentences, sentence_vectors, queries, query_vectors)


def prepared_library(size: int, *, shared: Path, cache_root: Path, models_dir: Path, model: str,
                     seed: int) -> Path:
    """The data folder of the benchmark library of ``size`` chunks (built and cached on first use)."""
    return _prepare(size, shared=shared, cache_root=cache_root, models_dir=models_dir, model=model,
                    seed=seed, n_queries=1)[0]


def bench_size(size: int, *, shared: Path, cache_root: Path, models_dir: Path, model: str,
               seed: int, n_queries: int, passes: int, bench_script: Path) -> dict[str, Any]:
    (data_dir, corpus, pool, build, engine, sentences, sentence_vectors, queries,
     query_vectors) = _prepare(size, shared=shared, cache_root=cache_root, models_dir=models_dir,
                               model=model, seed=seed, n_queries=n_queries)
    res: dict[str, Any] = {"size": size, "build": build, "queries": len(queries),
                           "sentences": len(sentences),
                           "corpus_chars": int(sum(len(b) for b in corpus.bodies))}
    sample = np.random.default_rng(1).choice(size, size=min(100, size), replace=False)
    approx = np.stack([rc.chunk_vectors(corpus, pool, int(i), int(i) + 1)[0] for i in sample])
    real = engine.embed_passages([corpus.bodies[int(i)] for i in sample])
    cos = np.sum(approx * real, axis=1)
    res["synthetic_vs_real_chunk_vectors"] = {"sample": len(sample),
                                              "median_cosine": round(float(np.median(cos)), 3),
                                              "p10_cosine": round(float(np.percentile(cos, 10)), 3)}
    del corpus, pool, engine
    res["real_vector_recall"] = vector_recall(sentence_vectors, query_vectors[:300])
    progress(f"[{size:,}] measuring ({passes} passes)")
    res |= measure(data_dir, models_dir, model, queries, query_vectors, passes)
    progress(f"[{size:,}] resident memory probe (fresh process)")
    res["memory_probe"] = rss_probe(bench_script, data_dir, models_dir, model,
                                    queries[:PROBE_QUERIES])
    res["data_dir"] = str(data_dir)
    return res
