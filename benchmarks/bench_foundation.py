"""Foundation benchmarks for the FTS-only core (DESIGN.md §7). Measured, never asserted.

Run from the repository root::

    .venv/bin/python benchmarks/bench_foundation.py [--cmrc PATH] [--json]

Everything happens in a throw-away data directory; the CMRC 2018 trial set is read
in place (never copied into the repository). Figures:

1. save → searchable latency: ``t0`` just before ``Library.save_note``, then the
   benchmark thread polls ``Library.search(marker)`` until the note is found.
2. rebuild throughput (chars/s) on the 256 CMRC paragraphs and on ~10,000 notes
   (~5 M chars, which takes index/rebuild.py's process-pool path), next to single-thread
   ``segment_for_index`` over the same text, measured in the same run.
3. query time of ``Library.search(q, limit=10)`` versus a ``body LIKE '%t%' OR …``
   scan of the store over the same query terms, on both library sizes.

The budgets printed next to the figures are for reading, not for failing the run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sqlite3
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from measure import percentile

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CMRC = "../shared/eval/cmrc2018_trial.json"

SAVE_N = 200
SAVE_WARMUP = 5
SAVE_TIMEOUT_S = 10.0
LARGE_NOTES = 10_000
BUDGET_SAVE_P95_MS = 150.0
BUDGET_REBUILD_CPS = 100_000.0


# ----- helpers -----------------------------------------------------------------


def summary_ms(seconds: Sequence[float], *qs: float) -> dict[str, float]:
    out = {f"p{q:g}_ms": round(percentile(seconds, q) * 1000, 3) for q in qs}
    out["max_ms"] = round(max(seconds) * 1000, 3) if seconds else float("nan")
    out["n"] = len(seconds)
    return out


def resolve_cmrc(arg: str) -> Path:
    path = Path(arg).expanduser()
    if not path.is_absolute():
        candidate = (REPO_ROOT / path).resolve()
        path = candidate if candidate.exists() or not path.exists() else path.resolve()
    return path


def load_cmrc(path: Path) -> tuple[list[tuple[str, str]], list[str]]:
    """(title, paragraph) for every CMRC paragraph, and every question."""
    with path.open(encoding="utf-8") as fh:
        data = json.load(fh)
    paragraphs: list[tuple[str, str]] = []
    questions: list[str] = []
    for article in data["data"]:
        for para in article["paragraphs"]:
            paragraphs.append((article.get("title", ""), para["context"]))
            questions.extend(qa["question"] for qa in para["qas"])
    return paragraphs, questions


def variant(text: str, copy: int) -> str:
    """Copy ``copy`` of a paragraph: sentences rotated, plus a copy tag, so copies differ."""
    parts = [s for s in text.split("。") if s.strip()]
    if len(parts) > 1:
        k = copy % len(parts)
        parts = parts[k:] + parts[:k]
    return "。".join(parts) + f"。（副本 {copy}） copy-{copy}"


def loadavg() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def progress(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


# ----- measurements ------------------------------------------------------------


class IndexedTimes:
    """Listener: when the worker reported each note as indexed (committed)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.when: dict[int, float] = {}

    def __call__(self, event: Any) -> None:
        if event.kind == "indexed" and event.key and event.key[0] == "note":
            t = time.perf_counter()
            with self.lock:
                self.when[event.key[1]] = t


def bench_save_searchable(lib: Any, indexed: IndexedTimes, bodies: dict[int, str],
                          n: int, poll_s: float) -> dict[str, Any]:
    ids = sorted(bodies)
    visible: list[float] = []
    call: list[float] = []
    commit: list[float] = []
    polls = 0
    for i in range(n + SAVE_WARMUP):
        note_id = ids[(i * 7) % len(ids)]  # spread over the library
        marker = f"zqm{uuid.uuid4().hex[:16]}"
        body = f"{bodies[note_id]}\n\n{marker}"
        with indexed.lock:
            indexed.when.pop(note_id, None)
        t0 = time.perf_counter()
        lib.save_note(note_id, body=body)
        t_ret = time.perf_counter()
        while True:
            polls += 1
            hits = lib.search(marker, limit=10).results
            if any(r.source_type == "note" and r.source_id == note_id for r in hits):
                break
            if time.perf_counter() - t0 > SAVE_TIMEOUT_S:
                raise SystemExit(f"note {note_id} not searchable after {SAVE_TIMEOUT_S} s")
            if poll_s > 0:
                time.sleep(poll_s)
        t_found = time.perf_counter()
        lib.drain()
        if i >= SAVE_WARMUP:
            visible.append(t_found - t0)
            call.append(t_ret - t0)
            with indexed.lock:
                t_idx = indexed.when.get(note_id)
            if t_idx is not None:
                commit.append(t_idx - t0)
    return {
        "save_to_searchable": summary_ms(visible, 50, 95),
        "save_note_call": summary_ms(call, 50, 95),
        "save_to_index_commit": summary_ms(commit, 50, 95),
        "polls_per_save": round(polls / (n + SAVE_WARMUP), 1),
        "poll_sleep_ms": poll_s * 1000,
        "warmup_saves_excluded": SAVE_WARMUP,
    }


def raw_segmentation(texts: Sequence[tuple[str, str]]) -> dict[str, Any]:
    from desktop_kb.index.segment import segment_for_index

    segment_for_index("预热分词器")  # the dictionary is already loaded; keep it that way
    chars = sum(len(body) for _, body in texts)
    t = time.perf_counter()
    for title, body in texts:
        segment_for_index(title)
        segment_for_index(body)
    dt = time.perf_counter() - t
    return {"chars": chars, "seconds": round(dt, 3), "chars_per_s": round(chars / dt)}


def bench_rebuild(lib: Any) -> dict[str, Any]:
    from desktop_kb.index import rebuild

    t = time.perf_counter()
    result = lib.rebuild()
    wall = time.perf_counter() - t
    pool = result.chars >= rebuild.POOL_MIN_CHARS and min(2, os.cpu_count() or 1) >= 2
    return {
        "notes": result.sources, "chunks": result.chunks, "chars": result.chars,
        "seconds": round(wall, 3), "chars_per_s": round(result.chars / wall),
        "path": "process pool" if pool else "in-thread",
    }


def like_sql(n_terms: int) -> str:
    ors = " OR ".join(["body LIKE ? ESCAPE '\\'"] * n_terms)
    return f"SELECT id FROM notes WHERE trashed_at IS NULL AND ({ors})"


def like_param(term: str) -> str:
    escaped = term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def bench_queries(lib: Any, questions: Sequence[str]) -> dict[str, Any]:
    from desktop_kb.index.segment import query_terms

    store: sqlite3.Connection = lib.store_reader
    prepared = []
    for q in questions:
        terms = query_terms(q)
        prepared.append((q, like_sql(len(terms)), [like_param(t) for t in terms]))
    for q, sql, params in prepared[:10]:  # warm page caches and statement caches
        lib.search(q, limit=10)
        if params:
            store.execute(sql, params).fetchall()
    ours: list[float] = []
    like: list[float] = []
    ours_hits = like_hits = 0
    for q, sql, params in prepared:
        t = time.perf_counter()
        res = lib.search(q, limit=10)
        ours.append(time.perf_counter() - t)
        ours_hits += len(res.results)
        if params:
            t = time.perf_counter()
            rows = store.execute(sql, params).fetchall()
            like.append(time.perf_counter() - t)
            like_hits += len(rows)
    o = summary_ms(ours, 50, 99)
    lk = summary_ms(like, 50, 99)
    return {
        "ours": o, "like": lk,
        "like_over_ours_p50": round(lk["p50_ms"] / o["p50_ms"], 2) if o["p50_ms"] else None,
        "ours_mean_results": round(ours_hits / max(1, len(ours)), 2),
        "like_mean_rows": round(like_hits / max(1, len(like)), 1),
    }


def timed(label: str, fn: Callable[[], Any]) -> tuple[Any, float]:
    progress(label)
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


# ----- driver ------------------------------------------------------------------


def run(cmrc: Path, poll_s: float, data_root: str | None) -> dict[str, Any]:
    from desktop_kb.index import rebuild
    from desktop_kb.library import Library

    paragraphs, questions = load_cmrc(cmrc)
    started = time.perf_counter()
    res: dict[str, Any] = {
        "machine": {
            "cpu_count": os.cpu_count(), "platform": platform.platform(),
            "python": platform.python_version(), "sqlite": sqlite3.sqlite_version,
            "loadavg_start": loadavg(), "note": "2 cores shared with other engineers",
        },
        "corpus": {"cmrc_paragraphs": len(paragraphs), "cmrc_questions": len(questions),
                   "cmrc_chars": sum(len(p) for _, p in paragraphs)},
    }
    with tempfile.TemporaryDirectory(prefix="kb-bench-", dir=data_root) as tmp:
        indexed = IndexedTimes()
        with Library(Path(tmp) / "data", listener=indexed) as lib:
            bodies: dict[int, str] = {}

            def add_cmrc() -> None:
                for title, body in paragraphs:
                    bodies[lib.add_note(title, body)] = body
                lib.drain()

            _, dt = timed("adding 256 CMRC paragraphs", add_cmrc)
            res["corpus"]["add_and_index_256_s"] = round(dt, 3)

            progress(f"save → searchable, {SAVE_N} saves")
            res["save_256"] = bench_save_searchable(lib, indexed, bodies, SAVE_N, poll_s)
            for note_id, body in bodies.items():  # restore the original text
                lib.save_note(note_id, body=body)
            lib.drain()

            progress("rebuild (a) 256 notes")
            res["rebuild_small"] = bench_rebuild(lib)
            res["rebuild_small"]["raw_segmentation"] = raw_segmentation(paragraphs)

            progress(f"queries on 256 notes ({len(questions)} questions)")
            res["query_small"] = bench_queries(lib, questions)

            extra = LARGE_NOTES - len(paragraphs)
            large_texts = list(paragraphs)

            def add_large() -> None:
                for j in range(extra):
                    title, body = paragraphs[j % len(paragraphs)]
                    copy = j // len(paragraphs) + 1
                    text = variant(body, copy)
                    large_texts.append((f"{title} ({copy})", text))
                    lib.add_note(f"{title} ({copy})", text)
                lib.drain()

            _, dt = timed(f"adding {extra} variant notes (incremental indexing)", add_large)
            large_chars = sum(len(b) for _, b in large_texts)
            res["corpus"].update({
                "large_notes": len(large_texts), "large_chars": large_chars,
                "add_and_index_large_s": round(dt, 2),
                "add_and_index_large_chars_per_s": round((large_chars - res["corpus"]["cmrc_chars"]) / dt),
            })

            progress(f"save → searchable on {len(large_texts)} notes, {SAVE_N} saves")
            res["save_large"] = bench_save_searchable(lib, indexed, bodies, SAVE_N, poll_s)
            for note_id, body in bodies.items():
                lib.save_note(note_id, body=body)
            lib.drain()

            progress(f"rebuild (b) {len(large_texts)} notes, pool path")
            res["rebuild_large"] = bench_rebuild(lib)
            progress("rebuild (b) again with the pool forced off (reference)")
            saved = rebuild.POOL_MIN_CHARS
            rebuild.POOL_MIN_CHARS = 1 << 62
            try:
                res["rebuild_large_in_thread"] = bench_rebuild(lib)
            finally:
                rebuild.POOL_MIN_CHARS = saved
            progress("raw segmentation over the large corpus")
            res["rebuild_large"]["raw_segmentation"] = raw_segmentation(large_texts)

            progress(f"queries on {len(large_texts)} notes ({len(questions)} questions)")
            res["query_large"] = bench_queries(lib, questions)
    res["machine"]["loadavg_end"] = loadavg()
    res["total_seconds"] = round(time.perf_counter() - started, 1)
    return res


def render(res: dict[str, Any]) -> str:
    m, c = res["machine"], res["corpus"]
    lines = [
        f"Desktop KB foundation benchmark — cpu_count={m['cpu_count']}, {m['platform']}, "
        f"Python {m['python']}, SQLite {m['sqlite']}",
        f"load avg start {m['loadavg_start']} end {m['loadavg_end']} (machine shared; "
        f"figures are noisy); total {res['total_seconds']} s",
        f"corpus: {c['cmrc_paragraphs']} CMRC paragraphs ({c['cmrc_chars']:,} chars), "
        f"large {c['large_notes']:,} notes ({c['large_chars']:,} chars); "
        f"{c['cmrc_questions']} questions",
        "",
        f"{'figure':<46}{'p50':>10}{'p95/p99':>10}{'max':>10}  budget",
    ]

    def row(label: str, s: dict[str, float], hi: str, budget: str = "") -> None:
        lines.append(f"{label:<46}{s['p50_ms']:>10.2f}{s[hi]:>10.2f}{s['max_ms']:>10.2f}  {budget}")

    for key, size in (("save_256", "256"), ("save_large", f"{c['large_notes']:,}")):
        s = res[key]
        row(f"save→searchable ms ({size} notes, p95)", s["save_to_searchable"], "p95_ms",
            f"p95 ≤ {BUDGET_SAVE_P95_MS:.0f}")
        row("  of which save_note() call ms", s["save_note_call"], "p95_ms")
        row("  of which save→index commit ms", s["save_to_index_commit"], "p95_ms")
    for key, size in (("query_small", "256"), ("query_large", f"{c['large_notes']:,}")):
        q = res[key]
        row(f"query ms, Library.search ({size}, p99)", q["ours"], "p99_ms")
        row(f"query ms, LIKE OR-scan ({size}, p99)", q["like"], "p99_ms")
        lines.append(f"{'  LIKE/ours at p50':<46}{q['like_over_ours_p50']:>10.2f}x")
    lines += ["", f"{'rebuild':<46}{'chars':>12}{'seconds':>10}{'chars/s':>12}  budget"]
    for key, label in (("rebuild_small", "rebuild (a) 256 notes"),
                       ("rebuild_large", f"rebuild (b) {c['large_notes']:,} notes"),
                       ("rebuild_large_in_thread", "rebuild (b), pool forced off")):
        r = res[key]
        lines.append(f"{label + ', ' + r['path']:<46}{r['chars']:>12,}{r['seconds']:>10.2f}"
                     f"{r['chars_per_s']:>12,}  ≥ {BUDGET_REBUILD_CPS:,.0f}")
        raw = r.get("raw_segmentation")
        if raw:
            lines.append(f"{'  raw segment_for_index, 1 thread':<46}{raw['chars']:>12,}"
                         f"{raw['seconds']:>10.2f}{raw['chars_per_s']:>12,}")
    lines.append(f"{'add_note ×' + format(c['large_notes'] - c['cmrc_paragraphs'], ',') + ' + incremental index':<46}"
                 f"{c['large_chars'] - c['cmrc_chars']:>12,}{c['add_and_index_large_s']:>10.2f}"
                 f"{c['add_and_index_large_chars_per_s']:>12,}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--cmrc", default=DEFAULT_CMRC,
                        help=f"CMRC 2018 trial JSON (default {DEFAULT_CMRC}, relative to the repo root)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument("--poll-ms", type=float, default=0.5,
                        help="sleep between search polls in the save benchmark (≤ 1 ms; default 0.5)")
    parser.add_argument("--tmp", default=None, help="parent folder for the temporary data dir")
    args = parser.parse_args(argv)
    cmrc = resolve_cmrc(args.cmrc)
    if not cmrc.is_file():
        print(f"bench_foundation: CMRC trial set not found at {cmrc}\n"
              "Pass --cmrc PATH (absolute, or relative to the repository root).", file=sys.stderr)
        return 2
    if not 0 <= args.poll_ms <= 1:
        parser.error("--poll-ms must be between 0 and 1")
    try:
        import desktop_kb  # noqa: F401
    except ImportError:
        sys.path.insert(0, str(REPO_ROOT))
    res = run(cmrc, args.poll_ms / 1000, args.tmp)
    print(json.dumps(res, ensure_ascii=False, indent=2) if args.json else render(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
