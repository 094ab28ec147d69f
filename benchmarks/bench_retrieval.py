"""Retrieval benchmarks with the embedding model loaded (DESIGN.md §7). Measured, never asserted.

Run from the repository root::

    .venv/bin/python benchmarks/bench_retrieval.py [--sizes 10000,100000] [--json]

Needs the default embedding model (``desktop-kb models install``); ``--models-dir``
defaults to the per-user data folder's ``models``. Everything else happens in a
throw-away data directory. Figures:

1. Per corpus size: synthetic notes (~300 chars of mixed Chinese/English from a
   seeded vocabulary: jieba's dictionary words, technical English words and
   identifiers, Zipf-distributed so FTS sees realistic term statistics; one chunk
   per note) are bulk-inserted straight into ``library.sqlite`` (benchmark only),
   then indexed lexically by ``Library.rebuild()`` (chars/s). Seeded random unit
   vectors are written to ``kb_vectors`` for every chunk through the worker, and
   ``use_model`` loads the real model and the dense matrix (it must embed 0
   chunks). Then the same 500 generated queries run through
   ``Library.search(q, limit=10, mode=…)`` for hybrid, lexical and dense (one
   pass per mode, hybrid first), plus the query embedding and the matrix search
   on their own, so the cost split is visible. Random vectors score a best
   cosine of ~0.17–0.19, right at use-multilingual's relevance floor (0.17), so
   many dense-only queries stop before the store join at 10k (counted as
   "queries without results"); hybrid always has lexical hits. Resident memory
   is read from /proc in a fresh child process that opens the finished library
   the way the app does (VmRSS once the model and vectors are loaded, again after
   50 hybrid queries, which load jieba's dictionary; VmHWM is the peak), and from
   this process too (which holds everything the run built, so it is higher).
2. Embedding throughput on ~1,000 chunks of CMRC trial paragraphs (the
   indexer's own chunks, via ``chunk_source``): (a) a plain onnxruntime session
   with the onnxruntime-extensions op library, timing only ``session.run`` over
   the same batches the engine forms (pages of 256 chunks as the backfill reads
   them, length-sorted, engine batch size, same thread settings); (c) the engine
   alone (``embed_passages`` per page), interleaved with (a) page by page; (b)
   the indexer: a fresh library indexed lexically, then ``use_model`` — only the
   backfill is timed (from the worker's "model" event to the future's result;
   the model load is reported apart). Each indexer run sits between two (a)/(c)
   passes and is compared with their mean; the time the backfill spends inside
   ``session.run`` is also recorded, so the indexer's own share is visible
   without the load noise.

The machine has 2 cores shared with other people's work, so figures are noisy:
compare them with the load averages printed next to them, never with a budget
alone. Budgets are printed for reading, not for failing the run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CMRC = "../shared/eval/cmrc2018_trial.json"
DEFAULT_SIZES = "10000,100000"
MODEL = "use-multilingual"

N_QUERIES = 500
QUERY_WARMUP = 20
LIMIT = 10
PASSAGES = 1000
PAGE = 256  # chunks per backfill page (worker._backfill_vectors)
PROBE_QUERIES = 50
INSERT_BATCH = 5000

BUDGET_HYBRID_P50_MS = {10_000: 10.0, 100_000: 30.0}
BUDGET_HYBRID_P99_MS = {100_000: 80.0}
BUDGET_RSS_MB = 450.0
BUDGET_REBUILD_CPS = 100_000.0
BUDGET_EMBED_OVERHEAD = 1.20

# ----- vocabulary ----------------------------------------------------------------

ZH_WORDS = 50_000
EN_TAIL = 6_000
ID_TAIL = 3_000


def _words(text: str) -> list[str]:
    return list(dict.fromkeys(text.split()))


FUNCTION_ZH = _words("的 了 是 在 和 与 对 把 也 就 都 而 及 或 被 从 到 为 按 让")
EN_WORDS = _words("""
the data file system user server client model index search query cache memory thread process
network request response error update version release build test config setting network
storage database table column value key token string number list array object function method
class module package library framework api service cluster node container image volume port
host domain proxy gateway router session cookie header payload message queue event stream log
metric trace alert monitor dashboard report chart graph vector matrix tensor batch epoch loss
train inference embedding encoder decoder layer attention transformer prompt context window
latency throughput bandwidth disk cpu gpu core kernel driver device sensor signal filter
compile debug deploy rollback migrate backup restore snapshot commit branch merge rebase patch
review issue ticket sprint task project plan roadmap design spec document note draft summary
meeting agenda minutes decision owner deadline budget cost price invoice order customer account
login password permission role group team admin policy security audit compliance privacy
encrypt decrypt hash sign verify certificate tls ssl http https socket tcp udp dns ip subnet
firewall load balance scale replica shard partition index schema query plan optimizer join
select insert delete update transaction lock commit rollback isolation consistency latency
python java rust golang javascript typescript shell script bash linux windows macos android
browser frontend backend mobile desktop widget layout style theme font color icon button menu
dialog editor viewer preview export import sync offline online local remote cloud hybrid
""")
IDENTIFIERS = _words("""
docker-compose.yml gitlab github k8s kubectl nginx.conf v1.2.3 C++ user_id README.md
pyproject.toml HTTP/2 utf-8 node.js api_key localhost:8080 .env Makefile CMakeLists.txt
main.py index.html package.json tsconfig.json requirements.txt redis postgres sqlite3
pytest numpy onnxruntime jieba FTS5 BM25 RRF gRPC protobuf OAuth2 JWT S3 EC2 VPC
CI/CD pre-commit git-lfs x86_64 arm64 ffmpeg systemd cron.d /etc/hosts SIGTERM errno
""")


class Vocabulary:
    """Zipf-weighted tokens with long tails, so document frequencies look like a real
    library's: a few very common words, most query terms in a small share of notes.

    Chinese: the most frequent 2–4 character words of jieba's dictionary. English:
    common technical words, then a seeded tail of made-up words. Identifiers: real
    ones, then seeded ones (``cache_node.py``, ``v3.14.2``, ``svc-router.yaml``).
    """

    def __init__(self) -> None:
        rng = np.random.default_rng(12345)
        self.zh = load_zh_words(ZH_WORDS)
        self.en = EN_WORDS + pseudo_words(rng, EN_TAIL, set(EN_WORDS))
        self.ids = IDENTIFIERS + synthetic_identifiers(rng, ID_TAIL, self.en)
        zh, en, ids = self.zh, self.en, self.ids
        self.tokens: list[str] = zh + FUNCTION_ZH + en + ids
        self.latin = np.array([False] * (len(zh) + len(FUNCTION_ZH))
                              + [True] * (len(en) + len(ids)))
        # Rendered form: Chinese runs glue together, Latin tokens are space-delimited.
        self.rendered = [f" {t} " if lat else t for t, lat in zip(self.tokens, self.latin, strict=True)]
        parts = [(len(zh), 0.70, 1.0), (len(FUNCTION_ZH), 0.10, 0.5),
                 (len(en), 0.15, 1.0), (len(ids), 0.05, 1.0)]
        probs = []
        for n, share, exp in parts:
            w = 1.0 / np.arange(2, n + 2, dtype=np.float64) ** exp
            probs.append(share * w / w.sum())
        self.p = np.concatenate(probs)
        self.title_p = self.p.copy()
        self.title_p[len(zh):len(zh) + len(FUNCTION_ZH)] = 0.0
        self.title_p /= self.title_p.sum()


def pseudo_words(rng: np.random.Generator, n: int, taken: set[str]) -> list[str]:
    """``n`` pronounceable made-up words (the long tail of a real vocabulary)."""
    onsets = _words("b c d f g h k l m n p r s t v w z br cl dr fl gr pl pr sk st tr")
    vowels = _words("a e i o u ai ea io ou")
    codas = ["", "", "n", "r", "s", "t", "l", "x", "nd", "st"]
    out: list[str] = []
    seen = set(taken)
    while len(out) < n:
        k = int(rng.integers(2, 4))
        word = "".join(onsets[rng.integers(len(onsets))] + vowels[rng.integers(len(vowels))]
                       for _ in range(k)) + codas[rng.integers(len(codas))]
        if word not in seen:
            seen.add(word)
            out.append(word)
    return out


def synthetic_identifiers(rng: np.random.Generator, n: int, words: Sequence[str]) -> list[str]:
    out: list[str] = []
    seen: set[str] = set(IDENTIFIERS)
    exts = ["py", "ts", "go", "rs", "yaml", "json", "toml", "md", "sql", "sh"]
    while len(out) < n:
        w1 = words[int(rng.integers(len(words)))]
        w2 = words[int(rng.integers(len(words)))]
        kind = int(rng.integers(5))
        if kind == 0:
            ident = f"{w1}_{w2}.{exts[rng.integers(len(exts))]}"
        elif kind == 1:
            ident = f"v{rng.integers(0, 10)}.{rng.integers(0, 30)}.{rng.integers(0, 20)}"
        elif kind == 2:
            ident = f"{w1}-{w2}"
        elif kind == 3:
            ident = f"{w1}_{w2}_id"
        else:
            ident = f"{w1.upper()}_{w2.upper()}"
        if ident not in seen:
            seen.add(ident)
            out.append(ident)
    return out


def load_zh_words(n: int) -> list[str]:
    """The ``n`` most frequent 2–4 character Han words of jieba's dictionary."""
    import jieba

    han = re.compile(r"^[\u4e00-\u9fff]{2,4}$")
    words: list[tuple[int, str]] = []
    with (Path(jieba.__file__).parent / "dict.txt").open(encoding="utf-8") as fh:
        for line in fh:
            parts = line.split()
            if len(parts) >= 2 and han.match(parts[0]):
                words.append((-int(parts[1]), parts[0]))
    words.sort()
    return [w for _, w in words[:n]]


def _clean(text: str) -> str:
    return re.sub(r" +", " ", text).replace(" 。", "。").strip()


def generate_notes(vocab: Vocabulary, n: int, seed: int) -> list[tuple[str, str]]:
    """``n`` (title, body) pairs; bodies 260–340 chars, sentences of 6–16 tokens."""
    rng = np.random.default_rng(seed)
    out: list[tuple[str, str]] = []
    per_note = 160
    rendered = vocab.rendered
    for start in range(0, n, 2000):
        m = min(2000, n - start)
        toks = rng.choice(len(rendered), size=(m, per_note), p=vocab.p)
        sent = rng.integers(6, 17, size=(m, per_note // 6))
        targets = rng.integers(260, 341, size=m)
        title_toks = rng.choice(len(rendered), size=(m, 4), p=vocab.title_p)
        title_len = rng.integers(2, 5, size=m)
        for i in range(m):
            pieces: list[str] = []
            length = 0
            s_idx = 0
            left = int(sent[i, 0])
            for t in toks[i]:
                piece = rendered[t]
                pieces.append(piece)
                length += len(piece)
                left -= 1
                if left == 0:
                    pieces.append("。")
                    length += 1
                    s_idx += 1
                    left = int(sent[i, s_idx % sent.shape[1]])
                if length >= targets[i]:
                    break
            body = _clean("".join(pieces))
            if not body.endswith("。"):
                body += "。"
            title = _clean("".join(rendered[t] for t in title_toks[i, :title_len[i]]))
            out.append((title, body))
    return out


def generate_queries(vocab: Vocabulary, n: int, seed: int) -> list[str]:
    """Realistic searches: 2–6 content words; Chinese, English, mixed, or with an identifier."""
    rng = np.random.default_rng(seed)
    zh = vocab.zh[30:]  # skip the most generic words (我们, 一个…) as query terms
    zh_p = 1.0 / np.arange(2, len(zh) + 2, dtype=np.float64) ** 0.8
    zh_p /= zh_p.sum()
    en = vocab.en
    en_p = 1.0 / np.arange(2, len(en) + 2, dtype=np.float64) ** 0.8
    en_p /= en_p.sum()

    def zhw(k: int) -> list[str]:
        return [zh[i] for i in rng.choice(len(zh), size=k, p=zh_p)]

    def enw(k: int) -> list[str]:
        return [en[i] for i in rng.choice(len(en), size=k, p=en_p)]

    def ident() -> str:
        pool = IDENTIFIERS if rng.random() < 0.6 else vocab.ids
        return pool[int(rng.integers(len(pool)))]

    queries = []
    for _ in range(n):
        kind = rng.random()
        words = int(rng.integers(2, 7))
        if kind < 0.40:  # Chinese, typed without spaces, sometimes as a question
            q = "".join(zhw(words))
            if rng.random() < 0.25:
                q = "如何" + q + "？"
        elif kind < 0.70:  # mixed
            k = int(rng.integers(1, words))
            q = "".join(zhw(words - k)) + " " + " ".join(enw(k))
        elif kind < 0.85:  # English
            q = " ".join(enw(words))
        else:  # an identifier plus context words
            q = ident() + " " + "".join(zhw(max(1, words - 1)))
        queries.append(q)
    return queries


# ----- helpers -------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    data = sorted(values)
    pos = (len(data) - 1) * q / 100.0
    lo = int(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


def summary_ms(seconds: Sequence[float]) -> dict[str, float]:
    return {
        "p50_ms": round(percentile(seconds, 50) * 1000, 3),
        "p99_ms": round(percentile(seconds, 99) * 1000, 3),
        "mean_ms": round(sum(seconds) / len(seconds) * 1000, 3) if seconds else float("nan"),
        "max_ms": round(max(seconds) * 1000, 3) if seconds else float("nan"),
        "n": len(seconds),
    }


def loadavg() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def proc_memory() -> dict[str, float]:
    """VmRSS and VmHWM (peak) of this process in MB, from /proc/self/status."""
    out: dict[str, float] = {}
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                key, _, rest = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    out[key] = round(int(rest.split()[0]) / 1024, 1)
    except OSError:
        pass
    return out


def progress(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


def bulk_insert_notes(lib: Any, notes: Sequence[tuple[str, str]]) -> None:
    """Benchmark only: straight into the store's notes table, one transaction."""
    now = time.time()

    def insert(conn: sqlite3.Connection) -> None:
        conn.execute("BEGIN IMMEDIATE")
        try:
            for i in range(0, len(notes), INSERT_BATCH):
                conn.executemany(
                    "INSERT INTO notes(title, body, created_at, updated_at, local_only) "
                    "VALUES (?, ?, ?, ?, 0)",
                    [(t, b, now, now) for t, b in notes[i:i + INSERT_BATCH]])
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    lib.write(insert)


def insert_random_vectors(lib: Any, model_id: str, dim: int, seed: int) -> int:
    """Seeded random unit vectors for every chunk, written by the index worker."""
    from desktop_kb.index import db as index_db

    def write(conn: sqlite3.Connection) -> int:
        rng = np.random.default_rng(seed)
        ids = [r[0] for r in conn.execute("SELECT id FROM kb_chunks ORDER BY id")]
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("DELETE FROM kb_vectors")
            for i in range(0, len(ids), 10_000):
                part = ids[i:i + 10_000]
                m = rng.standard_normal((len(part), dim), dtype=np.float32)
                m /= np.linalg.norm(m, axis=1, keepdims=True)
                conn.executemany(
                    "INSERT INTO kb_vectors(chunk_id, model_id, vector) VALUES (?, ?, ?)",
                    [(cid, model_id, m[j].tobytes()) for j, cid in enumerate(part)])
            index_db.set_meta(conn, "embed_model", model_id)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return len(ids)

    return lib.worker.call(write).result()


def fts_match_stats(index: sqlite3.Connection, queries: Sequence[str]) -> dict[str, float]:
    """How many chunks each query's FTS expression matches (BM25 scores every one of
    them before LIMIT): the term statistics the lexical timings depend on."""
    from desktop_kb.retrieval.fts_query import build_match

    counts = []
    for q in queries:
        match = build_match(q)
        if match is not None:
            counts.append(index.execute(
                "SELECT count(*) FROM kb_fts WHERE kb_fts MATCH ?", (match,)).fetchone()[0])
    total = index.execute("SELECT count(*) FROM kb_chunks").fetchone()[0] or 1
    return {"queries": len(counts), "p50": percentile(counts, 50), "p90": percentile(counts, 90),
            "p50_share": round(percentile(counts, 50) / total, 4)}


def time_queries(fn: Callable[[str], Any], queries: Sequence[str]) -> tuple[list[float], list[Any]]:
    for q in queries[:QUERY_WARMUP]:
        fn(q)
    times: list[float] = []
    outs: list[Any] = []
    for q in queries:
        t = time.perf_counter()
        out = fn(q)
        times.append(time.perf_counter() - t)
        outs.append(out)
    return times, outs


# ----- section 1: retrieval at size ------------------------------------------------


def bench_size(size: int, vocab: Vocabulary, queries: Sequence[str], models_dir: Path,
               model: str, tmp: Path, seed: int) -> dict[str, Any]:
    from desktop_kb.index import worker as worker_mod
    from desktop_kb.library import Library

    res: dict[str, Any] = {"size": size}
    progress(f"[{size:,}] generating notes")
    t = time.perf_counter()
    notes = generate_notes(vocab, size, seed + size)
    res["generate_s"] = round(time.perf_counter() - t, 2)
    chars = sum(len(b) for _, b in notes)
    res["corpus"] = {"notes": size, "body_chars": chars, "mean_body_chars": round(chars / size, 1)}
    data_dir = tmp / f"lib-{size}"
    with Library(data_dir, models_dir=models_dir, load_model=False) as lib:
        if lib.startup_rebuild is not None:
            lib.startup_rebuild.result()
        progress(f"[{size:,}] bulk insert into library.sqlite")
        t = time.perf_counter()
        bulk_insert_notes(lib, notes)
        res["bulk_insert_s"] = round(time.perf_counter() - t, 2)
        del notes
        progress(f"[{size:,}] Library.rebuild() (lexical)")
        t = time.perf_counter()
        rb = lib.rebuild()
        wall = time.perf_counter() - t
        pool = rb.chars >= worker_mod.POOL_MIN_CHARS and min(2, os.cpu_count() or 1) >= 2
        res["rebuild"] = {"sources": rb.sources, "chunks": rb.chunks, "chars": rb.chars,
                          "seconds": round(wall, 2), "chars_per_s": round(rb.chars / wall),
                          "path": "process pool" if pool else "in-thread"}
        progress(f"[{size:,}] random unit vectors → kb_vectors")
        dim = lib.models.manifest(model).dim
        t = time.perf_counter()
        n_vec = insert_random_vectors(lib, model, dim, seed)
        res["vectors"] = {"rows": n_vec, "dim": dim, "insert_s": round(time.perf_counter() - t, 2)}
        progress(f"[{size:,}] use_model({model!r}): load engine + dense matrix")
        t = time.perf_counter()
        embedded = lib.use_model(model).result()
        res["vectors"]["use_model_s"] = round(time.perf_counter() - t, 2)
        res["vectors"]["embedded_by_use_model"] = embedded
        res["vectors"]["dense_rows"] = len(lib.dense)
        if embedded:
            progress(f"WARNING: use_model embedded {embedded} chunks (expected 0)")
        engine = lib.engine
        assert engine is not None

        res["queries"] = {}
        for mode in ("hybrid", "lexical", "dense"):
            progress(f"[{size:,}] {len(queries)} queries, mode={mode}")
            times, outs = time_queries(lambda q, m=mode: lib.search(q, limit=LIMIT, mode=m), queries)
            s = summary_ms(times)
            s["mean_results"] = round(sum(len(r.results) for r in outs) / len(outs), 2)
            s["queries_without_results"] = sum(1 for r in outs if not r.results)
            res["queries"][mode] = s
        res["queries"]["fts_rows_matched"] = fts_match_stats(lib.index_reader, queries[:100])
        progress(f"[{size:,}] components: query embedding, matrix search")
        times, vecs = time_queries(lambda q: engine.embed_queries([q])[0], queries)
        res["queries"]["embed_query_only"] = summary_ms(times)
        it = iter(vecs * 2)
        times, _ = time_queries(lambda _q: lib.dense.search(next(it), 100), queries)
        res["queries"]["dense_matrix_only"] = summary_ms(times)
        res["memory_bench_process"] = proc_memory()
    progress(f"[{size:,}] resident memory probe (fresh process)")
    res["memory_probe"] = rss_probe(data_dir, models_dir, model, queries[:PROBE_QUERIES])
    return res


def rss_probe(data_dir: Path, models_dir: Path, model: str,
              queries: Sequence[str]) -> dict[str, Any]:
    """Run ``probe_main`` in a fresh interpreter; queries go in on stdin so the child
    never builds the benchmark's vocabulary (which would inflate its memory)."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--rss-probe", str(data_dir),
           "--models-dir", str(models_dir), "--model", model]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.run(cmd, input=json.dumps(list(queries), ensure_ascii=False),
                          capture_output=True, text=True, timeout=600, env=env, check=False)
    if proc.returncode != 0:
        return {"error": proc.stderr.strip()[-500:]}
    return json.loads(proc.stdout)


def probe_main(data_dir: Path, models_dir: Path, model: str) -> int:
    """Child process: open the finished library the way the app does, report memory."""
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
        out = {"dense_rows": len(lib.dense), "embedded": embedded, "open_to_ready_s": round(ready, 2),
               "before_open": before, "model_and_vectors_loaded": loaded,
               "queries": len(queries), "after_hybrid_queries": after,
               "engine": lib.engine.model_id if lib.engine else None}
    print(json.dumps(out))
    return 0


# ----- section 2: embedding throughput ---------------------------------------------


def cmrc_notes(path: Path, want_chunks: int) -> tuple[list[tuple[str, str]], list[str], str]:
    """Notes (title, body) whose chunks (as the indexer makes them) number ≥ ``want_chunks``."""
    from desktop_kb.index.prepare import chunk_source, embed_text_of
    from desktop_kb.index.sources import SourceText

    base: list[tuple[str, str]] = []
    origin = "cmrc"
    if path.is_file():
        with path.open(encoding="utf-8") as fh:
            data = json.load(fh)
        for article in data["data"]:
            for para in article["paragraphs"]:
                base.append((article.get("title", ""), para["context"]))
    else:
        origin = "generated"
        base = generate_notes(Vocabulary(), 400, 99)
    notes: list[tuple[str, str]] = []
    texts: list[str] = []
    copy = 0
    while len(texts) < want_chunks:
        for title, body in base:
            if copy:
                parts = [s for s in body.split("。") if s.strip()]
                k = copy % max(1, len(parts))
                body = "。".join(parts[k:] + parts[:k]) + f"。（副本 {copy}） copy-{copy}"
                title = f"{title} ({copy})"
            src = SourceText("note", len(notes) + 1, title, body, "md")
            chunks = chunk_source(src)
            notes.append((title, body))
            texts.extend(embed_text_of(c.text, title) for c in chunks)
            if len(texts) >= want_chunks:
                break
        copy += 1
    return notes, texts, origin


def pages(texts: Sequence[str]) -> list[list[str]]:
    return [list(texts[i:i + PAGE]) for i in range(0, len(texts), PAGE)]


def raw_session(model_file: Path, threads: int) -> Any:
    import onnxruntime as ort
    from onnxruntime_extensions import get_library_path

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3
    options.register_custom_ops_library(get_library_path())
    return ort.InferenceSession(str(model_file), sess_options=options,
                                providers=["CPUExecutionProvider"])


def raw_page_feeds(page: Sequence[str], batch: int, max_len: int) -> list[np.ndarray]:
    """The engine's batches for one backfill page: length-sorted, ``batch`` at a time."""
    page = [t[:max_len] for t in page]
    order = sorted(range(len(page)), key=lambda i: len(page[i]))
    return [np.array([page[i] for i in order[s:s + batch]], dtype=object)
            for s in range(0, len(order), batch)]


def time_raw_and_engine(session: Any, engine: Any, texts: Sequence[str], prefix: str,
                        batch: int, max_len: int) -> tuple[float, float]:
    """(raw, engine) seconds over the same pages, interleaved page by page so load
    drift on the shared machine hits both alike; the first of each pair alternates."""
    name_in = session.get_inputs()[0].name
    name_out = session.get_outputs()[0].name
    raw = eng = 0.0
    for n, page in enumerate(pages(texts)):
        feeds = raw_page_feeds([prefix + t for t in page], batch, max_len)
        for which in ((0, 1) if n % 2 == 0 else (1, 0)):
            if which == 0:
                for feed in feeds:  # only session.run is timed
                    t = time.perf_counter()
                    session.run([name_out], {name_in: feed})
                    raw += time.perf_counter() - t
            else:
                t = time.perf_counter()
                engine.embed_passages(page)
                eng += time.perf_counter() - t
    return raw, eng


def time_indexer(notes: Sequence[tuple[str, str]], n_texts: int, models_dir: Path, model: str,
                 data_dir: Path) -> dict[str, Any]:
    from desktop_kb.library import Library

    marks: dict[str, float] = {}
    lock = threading.Lock()

    def listener(event: Any) -> None:
        if event.kind == "model":
            with lock:
                marks["model"] = time.perf_counter()

    import onnxruntime as ort

    # Instrumentation only: how much of the backfill is inside session.run (the
    # rest is the indexer's own work: SQL, cache, hashing, batching, dense add).
    real_run = ort.InferenceSession.run
    inference = [0.0]

    def timed_run(self: Any, *args: Any, **kwargs: Any) -> Any:
        t = time.perf_counter()
        try:
            return real_run(self, *args, **kwargs)
        finally:
            if "model" in marks:
                inference[0] += time.perf_counter() - t

    with Library(data_dir, models_dir=models_dir, load_model=False, listener=listener) as lib:
        if lib.startup_rebuild is not None:
            lib.startup_rebuild.result()
        bulk_insert_notes(lib, notes)
        lib.rebuild()
        chunks = lib.index_status().chunks
        t0 = time.perf_counter()
        ort.InferenceSession.run = timed_run  # type: ignore[method-assign]
        try:
            embedded = lib.use_model(model).result()
        finally:
            ort.InferenceSession.run = real_run  # type: ignore[method-assign]
        t1 = time.perf_counter()
    backfill = t1 - marks["model"]
    return {"chunks_in_index": chunks, "embedded": embedded, "matches_passages": embedded == n_texts,
            "backfill_s": round(backfill, 3), "load_s": round(marks["model"] - t0, 3),
            "chunks_per_s": round(embedded / backfill, 1),
            "session_run_s": round(inference[0], 3),
            "non_inference_s": round(backfill - inference[0], 3),
            "non_inference_share": round((backfill - inference[0]) / backfill, 4)}


def bench_embedding(cmrc: Path, models_dir: Path, model: str, tmp: Path, rounds: int,
                    threads: int) -> dict[str, Any]:
    """Passes of raw+engine bracket each indexer run: P0, I1, P1, I2, P2, …; the
    indexer's ratio uses the mean of the two passes around it."""
    from desktop_kb.embed.manager import ModelManager

    notes, texts, origin = cmrc_notes(cmrc, PASSAGES)
    manager = ModelManager(models_dir.parent)
    manifest = manager.manifest(model)
    engine = manager.load_engine(model, threads=threads)
    batch = int(getattr(engine, "_batch_size", 16))
    session = raw_session(models_dir / model / "model.onnx", threads)
    warm = list(texts[:batch])
    engine.embed_passages(warm)
    session.run(None, {session.get_inputs()[0].name: np.array(warm, dtype=object)})
    n = len(texts)
    res: dict[str, Any] = {
        "passages": n, "notes": len(notes), "origin": origin,
        "chars": sum(len(t) for t in texts), "batch_size": batch, "threads": threads,
        "page": PAGE, "passes": [], "indexer_runs": [],
    }

    def one_pass(label: str) -> None:
        progress(f"embedding: raw onnxruntime + engine, interleaved ({label})")
        raw, eng = time_raw_and_engine(session, engine, texts, manifest.passage_prefix, batch,
                                       manifest.max_length)
        res["passes"].append({"raw_s": round(raw, 3), "engine_s": round(eng, 3),
                              "loadavg": loadavg()})

    one_pass("pass 0")
    for r in range(rounds):
        progress(f"embedding: indexer backfill, fresh library ({r + 1}/{rounds})")
        run = time_indexer(notes, n, models_dir, model, tmp / f"embed-{r}")
        one_pass(f"pass {r + 1}")
        around = (res["passes"][r]["raw_s"] + res["passes"][r + 1]["raw_s"]) / 2
        run["indexer_over_raw"] = round(run["backfill_s"] / around, 3)
        res["indexer_runs"].append(run)
    raws = [p["raw_s"] for p in res["passes"]]
    engs = [p["engine_s"] for p in res["passes"]]
    idxs = [x["backfill_s"] for x in res["indexer_runs"]]
    res["best"] = {
        "raw_chunks_per_s": round(n / min(raws), 1),
        "engine_chunks_per_s": round(n / min(engs), 1),
        "indexer_chunks_per_s": round(n / min(idxs), 1),
        # engine vs raw: same pages, interleaved, so the sums compare directly
        "engine_over_raw": round(sum(engs) / sum(raws), 3),
        "indexer_over_raw": min(x["indexer_over_raw"] for x in res["indexer_runs"]),
        "indexer_over_raw_median": round(float(np.median(
            [x["indexer_over_raw"] for x in res["indexer_runs"]])), 3),
    }
    return res


# ----- driver ----------------------------------------------------------------------


def run(sizes: list[int], cmrc: Path, models_dir: Path, model: str, data_root: str | None,
        rounds: int, n_queries: int, seed: int) -> dict[str, Any]:
    import onnxruntime

    from desktop_kb.store.settings import DEFAULTS

    started = time.perf_counter()
    res: dict[str, Any] = {
        "machine": {
            "cpu_count": os.cpu_count(), "platform": platform.platform(),
            "python": platform.python_version(), "sqlite": sqlite3.sqlite_version,
            "numpy": np.__version__, "onnxruntime": onnxruntime.__version__,
            "loadavg_start": loadavg(),
            "note": "2 cores shared with other engineers: figures are noisy",
        },
        "model": model, "models_dir": str(models_dir), "seed": seed,
    }
    progress("loading vocabulary (jieba dictionary)")
    vocab = Vocabulary()
    queries = generate_queries(vocab, n_queries, seed)
    res["queries_sample"] = queries[:8]
    res["sizes"] = {}
    threads = int(DEFAULTS.get("embed.threads") or 2)
    with tempfile.TemporaryDirectory(prefix="kb-bench-retrieval-", dir=data_root) as tmp:
        for size in sizes:
            res["sizes"][str(size)] = bench_size(size, vocab, queries, models_dir, model,
                                                 Path(tmp), seed)
            res["machine"][f"loadavg_after_{size}"] = loadavg()
        res["embedding"] = bench_embedding(cmrc, models_dir, model, Path(tmp), rounds, threads)
    res["machine"]["loadavg_end"] = loadavg()
    res["total_seconds"] = round(time.perf_counter() - started, 1)
    return res


def render(res: dict[str, Any]) -> str:
    m = res["machine"]
    lines = [
        f"Desktop KB retrieval benchmark — cpu_count={m['cpu_count']}, {m['platform']}, "
        f"Python {m['python']}, SQLite {m['sqlite']}, onnxruntime {m['onnxruntime']}",
        f"load avg start {m['loadavg_start']} end {m['loadavg_end']} (2 shared cores; figures "
        f"are noisy); model {res['model']}; total {res['total_seconds']} s",
    ]
    for key, s in res["sizes"].items():
        size = int(key)
        rb, v, q = s["rebuild"], s["vectors"], s["queries"]
        lines += [
            "",
            f"== {size:,} chunks ({s['corpus']['mean_body_chars']:.0f} chars/note, "
            f"{rb['chunks']:,} chunks indexed) — load after: {m.get(f'loadavg_after_{size}')}",
            f"rebuild (lexical, {rb['path']}): {rb['chars']:,} chars in {rb['seconds']:.1f} s = "
            f"{rb['chars_per_s']:,} chars/s   (budget ≥ {BUDGET_REBUILD_CPS:,.0f})",
            f"use_model with {v['rows']:,} stored vectors: {v['use_model_s']:.2f} s, embedded "
            f"{v['embedded_by_use_model']} (expect 0), dense rows {v['dense_rows']:,}",
            f"{'query (limit 10)':<34}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}{'results':>9}  budget",
        ]
        for mode in ("hybrid", "lexical", "dense", "embed_query_only", "dense_matrix_only"):
            x = q[mode]
            budget = ""
            if mode == "hybrid":
                parts = []
                if size in BUDGET_HYBRID_P50_MS:
                    parts.append(f"p50 ≤ {BUDGET_HYBRID_P50_MS[size]:.0f}")
                if size in BUDGET_HYBRID_P99_MS:
                    parts.append(f"p99 ≤ {BUDGET_HYBRID_P99_MS[size]:.0f}")
                budget = ", ".join(parts)
            label = {"embed_query_only": "  engine.embed_queries only",
                     "dense_matrix_only": "  DenseIndex.search(k=100) only"}.get(mode, f"search {mode}")
            lines.append(f"{label:<34}{x['p50_ms']:>9.2f}{x['p99_ms']:>9.2f}{x['max_ms']:>9.2f}"
                         f"{x.get('mean_results', ''):>9}  {budget}")
        fm = q["fts_rows_matched"]
        lines.append(f"FTS rows matched per query (100 queries): p50 {fm['p50']:,.0f} "
                     f"({fm['p50_share'] * 100:.1f} % of chunks), p90 {fm['p90']:,.0f}; "
                     "queries without results: " + ", ".join(
                         f"{mode} {q[mode]['queries_without_results']}"
                         for mode in ("hybrid", "lexical", "dense")))
        p = s["memory_probe"]
        if "error" in p:
            lines.append(f"memory probe failed: {p['error']}")
        else:
            ld = p["model_and_vectors_loaded"]
            aq = p["after_hybrid_queries"]
            lines.append(
                f"memory, fresh process: loaded VmRSS {ld.get('VmRSS')} MB, after "
                f"{p['queries']} queries VmRSS {aq.get('VmRSS')} MB, peak VmHWM {aq.get('VmHWM')} MB "
                f"(budget ≤ {BUDGET_RSS_MB:.0f}); open→ready {p['open_to_ready_s']} s")
        bp = s["memory_bench_process"]
        lines.append(f"memory, this bench process: VmRSS {bp.get('VmRSS')} MB, VmHWM {bp.get('VmHWM')} MB")
    e = res["embedding"]
    b = e["best"]
    lines += [
        "",
        f"== embedding throughput: {e['passages']} {e['origin']} chunks ({e['chars']:,} chars), "
        f"batch {e['batch_size']}, {e['threads']} threads; best pass of {len(e['passes'])}",
        f"{'':<36}{'chunks/s':>10}{'vs raw':>9}",
        f"{'(a) raw onnxruntime session.run':<36}{b['raw_chunks_per_s']:>10.1f}{1.0:>9.3f}",
        f"{'(c) engine.embed_passages':<36}{b['engine_chunks_per_s']:>10.1f}"
        f"{b['engine_over_raw']:>9.3f}  (interleaved with (a), same pages)",
        f"{'(b) indexer backfill (use_model)':<36}{b['indexer_chunks_per_s']:>10.1f}"
        f"{b['indexer_over_raw']:>9.3f}  budget ≤ {BUDGET_EMBED_OVERHEAD:.2f} "
        f"(vs the raw passes either side; median {b['indexer_over_raw_median']})",
        f"{'  (b) of which outside session.run':<36}{'':>10}{'':>9}  "
        + ", ".join(f"{x['non_inference_s']:.3f} s = {x['non_inference_share'] * 100:.1f} %"
                    for x in e["indexer_runs"])
        + " (noise-free view of the indexer's own overhead)",
        "passes raw/engine s: " + "; ".join(
            f"{p['raw_s']:.2f}/{p['engine_s']:.2f}" for p in e["passes"])
        + " | indexer s: " + "; ".join(
            f"{x['backfill_s']:.2f} (load {x['load_s']:.2f})" for x in e["indexer_runs"]),
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", default=DEFAULT_SIZES,
                        help=f"comma-separated corpus sizes in chunks (default {DEFAULT_SIZES})")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument("--models-dir", default=None,
                        help="folder holding installed models (default: <data dir>/models)")
    parser.add_argument("--model", default=MODEL, help=f"embedding model id (default {MODEL})")
    parser.add_argument("--cmrc", default=DEFAULT_CMRC,
                        help=f"CMRC 2018 trial JSON for the embedding figures (default {DEFAULT_CMRC})")
    parser.add_argument("--queries", type=int, default=N_QUERIES, help="queries per mode")
    parser.add_argument("--rounds", type=int, default=2,
                        help="indexer runs in the embedding comparison (each between raw passes)")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--tmp", default=None, help="parent folder for the temporary data dirs")
    parser.add_argument("--rss-probe", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        import desktop_kb  # noqa: F401
    except ImportError:
        sys.path.insert(0, str(REPO_ROOT))
    from desktop_kb.paths import resolve_data_dir

    models_dir = (Path(args.models_dir).expanduser().resolve() if args.models_dir
                  else resolve_data_dir() / "models")
    if args.rss_probe:
        return probe_main(Path(args.rss_probe), models_dir, args.model)
    if not (models_dir / args.model / "manifest.json").is_file():
        print(f"bench_retrieval: embedding model {args.model!r} is not installed in {models_dir}.\n"
              "Install it with `desktop-kb models install` (or pass --models-dir FOLDER).",
              file=sys.stderr)
        return 2
    try:
        sizes = sorted({int(s) for s in args.sizes.split(",") if s.strip()})
    except ValueError:
        parser.error("--sizes takes comma-separated integers, e.g. 10000,100000")
    if not sizes or min(sizes) < 100:
        parser.error("--sizes must be at least 100 each")
    cmrc = Path(args.cmrc).expanduser()
    if not cmrc.is_absolute():
        cmrc = (REPO_ROOT / cmrc).resolve()
    res = run(sizes, cmrc, models_dir, args.model, args.tmp, max(1, args.rounds),
              max(QUERY_WARMUP, args.queries), args.seed)
    print(json.dumps(res, ensure_ascii=False, indent=2) if args.json else render(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
