"""The dense index alone at 10⁶ chunks: memory, latency and recall@10 against exact float search.

    .venv/bin/python benchmarks/bench_dense_million.py [--size 1000000] [--queries 300]

``bench_retrieval.py`` measures the whole search path on a full library;
building one of 10⁶ chunks (FTS5, ideograph pairs, vectors) takes hours on
this shared 2-core machine. This script measures the part of that path whose
cost grows with the library and that the float matrix could not hold: the
same synthetic chunk vectors (normalised sums of real-model sentence vectors,
``retrieval_corpus.py``) are written to a real ``kb_vectors`` table, loaded
into ``DenseIndex`` as the app loads them (sign bits in memory, exact
cosines read back from the file), and searched with real questions' vectors
(cached by ``bench_retrieval.py``). Four indexes run interleaved query by
query: the app's (rescoring vectors read from their slots in
``index.vectors``), the same index reading them from ``kb_vectors`` (the
previous way: its results must be identical), the app's index with the
previous candidate selection (float distances, ``argpartition``; see
``PreviousSelection``) and float32 brute force over the whole matrix (the
index before sign bits; the reference of recall@10). CPU time is this
thread's; the loads of the machine are printed with it. ``--offset`` picks
questions past the first ones (held out from any choice of constants).
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import retrieval_corpus as rc
from measure import percentile, proc_memory
from retrieval_at_scale import brute_force, tie_aware_recall

REPO_ROOT = Path(__file__).resolve().parent.parent
MODEL = "use-multilingual"


def previous_selection(base: type) -> type:
    """The app's index with the candidate selection of main 6f1edfc (the baseline of this run)."""
    import math

    from desktop_kb.retrieval import dense as dense_mod

    class PreviousSelection(base):  # type: ignore[misc, valid-type]
        def _candidates(self, query: np.ndarray, n: int, keep: int) -> np.ndarray:
            import numkong

            codes, alive, live = self._codes[:n], self._alive[:n], self._live
            if live <= keep:
                return np.flatnonzero(alive)
            packed = self._packed
            packed.pack(codes)
            bits = dense_mod.sign_bits(query)
            dist = np.empty(n, dtype=np.float32)
            for b, block in enumerate(packed._blocks):
                start = b * dense_mod.PACK_BLOCK
                dist[start:start + block[1]] = np.asarray(numkong.hammings_packed(bits[None, :], block[0]))[0]
            if live < n:
                dist[~alive] = np.inf
            first = min(live, max(keep, int(dense_mod.CANDIDATE_FACTOR * math.sqrt(live))))
            rows = np.argpartition(dist, first - 1)[:first] if first < n else np.flatnonzero(alive)
            if len(rows) > keep:
                rows = rows[np.argpartition(-self._asymmetric(query, codes[rows]), keep - 1)[:keep]]
            return rows

    return PreviousSelection


def summary(seconds: list[float]) -> dict[str, float]:
    return {"p50_ms": round(percentile(seconds, 50) * 1000, 2),
            "p99_ms": round(percentile(seconds, 99) * 1000, 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--offset", type=int, default=0, help="skip this many questions first")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--cache", default="/tmp/desktop-kb-bench")
    parser.add_argument("--shared", default=None)
    parser.add_argument("--tmp", default=None)
    parser.add_argument("--keep", default=None,
                        help="keep the index in this folder and reuse it on the next run (same size, seed)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO_ROOT))
    from desktop_kb.index import db as index_db
    from desktop_kb.index.vectors import store_vectors
    from desktop_kb.retrieval.dense import DenseIndex, SqliteVectors

    def progress(msg: str) -> None:
        print(f"[dense] {msg}", file=sys.stderr, flush=True)

    shared = Path(args.shared) if args.shared else rc.find_shared()
    vec_dir = Path(args.cache) / "vectors"
    sentences_file = glob.glob(str(vec_dir / f"sentences-{MODEL}-*.npy"))
    queries_file = sorted(glob.glob(str(vec_dir / f"queries-{MODEL}-*.npy")), key=os.path.getsize)
    if not sentences_file or not queries_file:
        print("run bench_retrieval.py once first: it embeds and caches the sentences and questions",
              file=sys.stderr)
        return 2
    docs = rc.load_documents(shared)
    sentences = list(dict.fromkeys(s for d in docs for s in d.sentences))
    sentence_vectors = np.load(sentences_file[0]).astype(np.float32)
    assert len(sentence_vectors) == len(sentences), "stale sentence cache: rerun bench_retrieval.py"
    queries = np.load(queries_file[-1]).astype(np.float32)[args.offset:args.offset + args.queries]
    if len(queries) < args.queries:
        print(f"only {len(queries)} cached questions from --offset {args.offset}", file=sys.stderr)
    row_of = {s: i for i, s in enumerate(sentences)}
    t = time.perf_counter()
    corpus = rc.synthesise(docs, args.size, args.seed)
    pool = sentence_vectors[np.array([row_of[s] for s in corpus.sentences])]
    matrix = rc.chunk_vectors(corpus, pool)
    dim = matrix.shape[1]
    del corpus, pool
    progress(f"{args.size:,} chunk vectors in {time.perf_counter() - t:.0f} s")
    res: dict[str, Any] = {"size": args.size, "dim": dim, "queries": len(queries),
                           "loadavg_start": list(os.getloadavg())}
    with contextlib.ExitStack() as stack:
        if args.keep:  # reuse the table a previous run with the same size and seed wrote
            tmp = Path(args.keep) / f"dense-{args.size}-{args.seed}"
            tmp.mkdir(parents=True, exist_ok=True)
        else:
            tmp = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="kb-dense-", dir=args.tmp)))
        path = tmp / "index.sqlite"
        complete = tmp / "kb_vectors-complete"
        if not complete.is_file():  # an interrupted build: start again
            for old in tmp.iterdir():
                old.unlink()
        conn = index_db.open_index_writer(path)
        conn.execute("PRAGMA synchronous=OFF")
        t = time.perf_counter()
        for lo in range(0, args.size, 20_000) if not complete.is_file() else ():
            hi = min(lo + 20_000, args.size)
            conn.execute("BEGIN IMMEDIATE")
            store_vectors(conn, MODEL, [(i + 1, matrix[i]) for i in range(lo, hi)])
            conn.execute("COMMIT")
        complete.touch()
        progress(f"kb_vectors written in {time.perf_counter() - t:.0f} s")
        from desktop_kb.index import vector_file
        from desktop_kb.index.vectors import load_codes

        t = time.perf_counter()
        assert vector_file.ensure(conn, MODEL, dim)  # what the index writer does at its first load
        res["vector_file_write_s"] = round(time.perf_counter() - t, 1)
        t = time.perf_counter()
        dense = DenseIndex(SqliteVectors(path), vector_file.SlotReader(path))
        ids, codes = load_codes(conn, MODEL, dim)
        dense.reset(MODEL, dim, ids, codes)
        res["load_codes_s"] = round(time.perf_counter() - t, 2)
        before = DenseIndex(SqliteVectors(path))  # rescoring from kb_vectors, same rows
        before.reset(MODEL, dim, ids.copy(), codes.copy())
        previous = previous_selection(DenseIndex)(SqliteVectors(path), vector_file.SlotReader(path))
        previous.reset(MODEL, dim, ids.copy(), codes.copy())
        arrays = dense._codes.nbytes + dense._ids.nbytes + dense._alive.nbytes + dense._row.nbytes
        res["dense_index_memory_mb"] = round(arrays / 2**20, 1)
        res["float_matrix_mb"] = round(matrix.nbytes / 2**20, 1)
        ids_all = np.arange(1, args.size + 1, dtype=np.int64)
        indexes = {"slots": dense, "kb_vectors": before, "previous_selection": previous}
        times: dict[str, list[float]] = {"slots": [], "kb_vectors": [], "previous_selection": [], "float": []}
        cpu: dict[str, list[float]] = {"slots": [], "kb_vectors": [], "previous_selection": []}
        recalls: list[float] = []
        previous_recalls: list[float] = []
        identical = same_as_previous = 0
        for q in queries[:20]:
            for index in indexes.values():
                index.search(q, 100)
        for i, q in enumerate(queries):
            exact = brute_force(matrix, ids_all, q, 10)
            found: dict[str, list[tuple[int, float]]] = {}
            turns = ["slots", "kb_vectors", "previous_selection", "float"]
            for which in turns[i % 4:] + turns[:i % 4]:
                t, c = time.perf_counter(), time.thread_time()
                if which == "float":
                    brute_force(matrix, ids_all, q, 100)
                else:
                    found[which] = indexes[which].search(q, 100)
                    cpu[which].append(time.thread_time() - c)
                times[which].append(time.perf_counter() - t)
            identical += found["slots"] == found["kb_vectors"]
            same_as_previous += found["slots"][:10] == found["previous_selection"][:10]
            recalls.append(tie_aware_recall([s for _, s in found["slots"]], exact[-1][1]))
            previous_recalls.append(tie_aware_recall([s for _, s in found["previous_selection"]], exact[-1][1]))
        res["dense_search_k100"] = summary(times["slots"]) | {
            "cpu_" + k: v for k, v in summary(cpu["slots"]).items()}
        res["dense_search_k100_rescoring_from_kb_vectors"] = summary(times["kb_vectors"]) | {
            "cpu_" + k: v for k, v in summary(cpu["kb_vectors"]).items()}
        res["dense_search_k100_previous_selection"] = summary(times["previous_selection"]) | {
            "cpu_" + k: v for k, v in summary(cpu["previous_selection"]).items()}
        res["cpu_p50_ratio_to_previous_selection"] = round(
            summary(cpu["slots"])["p50_ms"] / summary(cpu["previous_selection"])["p50_ms"], 3)
        res["identical_results"] = f"{identical}/{len(queries)}"
        res["same_top10_as_previous_selection"] = f"{same_as_previous}/{len(queries)}"
        res["previous_selection_recall_at_10"] = round(float(np.mean(previous_recalls)), 4)
        res["float_brute_force_k100"] = summary(times["float"])
        res["recall_at_10"] = round(float(np.mean(recalls)), 4)
        res["min_query_recall_at_10"] = round(float(np.min(recalls)), 2)
        res["process_memory_mb"] = proc_memory()
        res["loadavg_end"] = list(os.getloadavg())
        for index in indexes.values():
            index.close()
        conn.close()
    print(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
