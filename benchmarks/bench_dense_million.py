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
import subprocess
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
    """The app's index as main 6f1edfc searched it (the baseline of this run): NumKong's
    packed copy of the bits (built here once), float distances, ``argpartition``. Needs
    ``pip install numkong`` (no longer a dependency of the app)."""
    import math

    import numkong

    from desktop_kb.retrieval import dense as dense_mod

    block_rows = 65_536

    class PreviousSelection(base):  # type: ignore[misc, valid-type]
        packs: list[Any] | None = None

        def _candidates(self, query: np.ndarray, n: int, keep: int) -> np.ndarray:
            keep = 400 if keep == dense_mod.RESCORE else keep  # main's RESCORE (and factor 4, below)
            codes, alive, live = self._codes[:n, :self._width], self._alive[:n], self._live
            if live <= keep:
                return np.flatnonzero(alive)
            if self.packs is None:  # the bench never changes the index after loading it
                self.packs = [numkong.hammings_pack(np.ascontiguousarray(codes[s:s + block_rows]))
                              for s in range(0, n, block_rows)]
            bits = dense_mod.sign_bits(query)
            dist = np.empty(n, dtype=np.float32)
            for b, packed in enumerate(self.packs):
                start = b * block_rows
                dist[start:start + min(block_rows, n - start)] = np.asarray(
                    numkong.hammings_packed(bits[None, :], packed))[0]
            if live < n:
                dist[~alive] = np.inf
            first = min(live, max(keep, int(4.0 * math.sqrt(live))))
            rows = np.argpartition(dist, first - 1)[:first] if first < n else np.flatnonzero(alive)
            if len(rows) > keep:
                rows = rows[np.argpartition(-self._asymmetric(query, codes[rows]), keep - 1)[:keep]]
            return rows

    return PreviousSelection


def probe(index_path: Path, which: str, queries: np.ndarray) -> dict[str, Any]:
    """In a fresh process: load the bits as the app does, search, and report memory and load time.

    ``previous`` loads as main 6f1edfc did (a scan of ``kb_vectors``, NumKong's packed copy)."""
    sys.path.insert(0, str(REPO_ROOT))
    from desktop_kb.index import db as index_db
    from desktop_kb.index import vector_file
    from desktop_kb.index.vectors import load_codes
    from desktop_kb.retrieval.dense import DenseIndex, SqliteVectors

    out: dict[str, Any] = {"start": proc_memory()}
    conn = index_db.open_index_reader(index_path)
    if which == "previous":  # main 6f1edfc had no covering index: its load read every row
        conn.execute("CREATE TEMP VIEW kb_vectors AS SELECT * FROM main.kb_vectors NOT INDEXED")
    cpu, wall = time.process_time(), time.perf_counter()
    ids, codes = load_codes(conn, MODEL, queries.shape[1])
    kind = previous_selection(DenseIndex) if which == "previous" else DenseIndex
    dense = kind(SqliteVectors(index_path), vector_file.SlotReader(index_path))
    dense.reset(MODEL, queries.shape[1], ids, codes)
    del ids, codes
    dense.search(queries[0], 100)  # the previous index packed its bits at load; this does it here
    out["load_cpu_s"] = round(time.process_time() - cpu, 2)
    out["load_wall_s"] = round(time.perf_counter() - wall, 2)
    out["loaded"] = proc_memory()
    for q in queries:
        dense.search(q, 100)
    out[f"after_{len(queries)}_searches"] = proc_memory()
    dense.close()
    conn.close()
    return out


def run_probe(index_path: Path, which: str, queries_file: str, offset: int) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--probe", str(index_path), "--probe-kind", which,
           "--probe-queries", queries_file, "--offset", str(offset)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=1800)
    if proc.returncode != 0:
        return {"error": proc.stderr.strip()[-800:]}
    return json.loads(proc.stdout)


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
    parser.add_argument("--probe", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--probe-kind", default="now", help=argparse.SUPPRESS)
    parser.add_argument("--probe-queries", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--keep", default=None,
                        help="keep the index in this folder and reuse it on the next run (same size, seed)")
    args = parser.parse_args(argv)
    if args.probe:
        probe_queries = np.load(args.probe_queries).astype(np.float32)[args.offset:args.offset + 50]
        print(json.dumps(probe(Path(args.probe), args.probe_kind, probe_queries)))
        return 0
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
        t = time.perf_counter()
        conn = index_db.open_index_writer(path)  # a kept index of an older schema migrates here
        res["open_index_writer_s"] = round(time.perf_counter() - t, 1)
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
        for which in ("previous", "now", "previous", "now"):  # fresh processes, page cache warm after the first
            res.setdefault("fresh_process", {}).setdefault(which, []).append(
                run_probe(path, which, queries_file[-1], args.offset))
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
