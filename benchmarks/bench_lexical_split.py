"""Lexical search: the split query (scored + common branches) against the unsplit OR query.

Run from the repository root on a library built by ``bench_retrieval.py``::

    .venv/bin/python benchmarks/bench_lexical_split.py --library /tmp/desktop-kb-bench/lib-100000-… \\
        [--budgets 2000,5000,25000] [--queries 300] [--offset 0]

For each budget (``lexical.POSTINGS_BUDGET``) and each real question
(CMRC, DRCD, Tatoeba English; ``--offset`` picks a held-out slice), the split
query and the unsplit one (every branch scored by FTS5) run interleaved, so
load on the shared machine hits both alike. Printed: the share of the unsplit
top 10 / top 100 the split query also returns, the largest score difference
on rows both return (the split query claims exact full-query BM25), the
queries that were split at all, rows FTS5 scored (matched rows, via unscored
counts) and p50/p99 CPU milliseconds of both (this process: the load of other
work inflates it less than wall time). With ``--models-dir``, also the share
of the hybrid top 10 (``Library.search``, the real model embedding each
question) that stays when the unsplit query is replaced by the split one at
each budget. Measured, never asserted.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import retrieval_corpus as rc
from measure import percentile

REPO_ROOT = Path(__file__).resolve().parent.parent
K = 100


def unsplit(index: sqlite3.Connection, match: str) -> list[tuple[int, float]]:
    from desktop_kb.retrieval.lexical import _RANKED

    return [(int(r), -float(s)) for r, s in index.execute(_RANKED, (match, K))]


def split(index: sqlite3.Connection, branches: list[Any], df: dict[str, int], total: int,
          budget: int, cap: int | None) -> tuple[list[tuple[int, float]], list[str]]:
    """The app's word-level ranking (``ranked_rows``) and the MATCH texts it ran."""
    from desktop_kb.retrieval import lexical

    ran: list[str] = []
    run_split = lexical._run_split

    def counting(index: sqlite3.Connection, scored: list[Any], branches: list[Any],
                 limit: int) -> list[tuple[int, float]]:
        ran.append(lexical.join_match(scored) or "")
        rest = [b for b in branches if b not in scored]
        if rest:
            ran.append(f"({ran[-1]}) AND ({lexical.join_match(rest)})")
        return run_split(index, scored, branches, limit)

    lexical._run_split = counting
    try:
        rows = lexical.ranked_rows(index, branches, df, total, K, budget, cap)
    finally:
        lexical._run_split = run_split
    return rows, ran


def matched(index: sqlite3.Connection, match: str) -> int:
    return int(index.execute("SELECT count(*) FROM kb_fts WHERE kb_fts MATCH ?", (match,)).fetchone()[0])


def overlap(a: list[tuple[int, float]], b: list[tuple[int, float]], k: int) -> float:
    want = [r for r, _ in a[:k]]
    return len(set(want) & {r for r, _ in b[:k]}) / len(want) if want else 1.0


def run(library: Path, budgets: list[int], n_queries: int, offset: int, cap: int | None) -> None:
    from desktop_kb.index import user_words
    from desktop_kb.index.db import open_index_reader
    from desktop_kb.index.segment import analyse_query
    from desktop_kb.retrieval import lexical
    from desktop_kb.retrieval.fts_query import alternatives, join_match
    from desktop_kb.retrieval.term_stats import index_stats

    index = open_index_reader(library / "index.sqlite")
    user_words.sync(index)
    queries = rc.load_queries(rc.find_shared())[offset:offset + n_queries]
    prepared = []
    for q in queries:
        branches = alternatives(analyse_query(q))
        if branches:
            total, df = index_stats(index, sorted({t for b in branches for t in b.tokens}))
            prepared.append((branches, df, total))
    chunks = index.execute("SELECT count(*) FROM kb_chunks").fetchone()[0]
    print(f"{library.name}: {chunks:,} chunks; {len(prepared)} questions with terms "
          f"(slice {offset}..{offset + n_queries}); top {K}")
    cap_rows = cap if cap is not None else max(lexical.POSTINGS_CAP, int(lexical.CAP_SHARE * chunks))
    print(f"widening cap {cap_rows:,} rows; 'split q': questions split, 'wider': of which widened")
    print(f"{'budget':>8} {'split q':>8} {'wider':>6} {'top10':>7} {'top100':>7} {'max |Δscore|':>13} "
          f"{'rows p50':>9} {'(unsplit)':>10} {'ms p50':>8} {'p99':>7} {'unsplit p50':>12} {'p99':>7}")
    for budget in budgets:
        t_new, t_old, o10, o100, rows_new, rows_old = [], [], [], [], [], []
        worst = 0.0
        n_split = n_wider = 0
        for i, (branches, df, total) in enumerate(prepared):
            full = join_match(branches)
            assert full is not None
            for which in ((0, 1) if i % 2 else (1, 0)):
                t = time.process_time()
                if which:
                    new, ran = split(index, branches, df, total, budget, cap)
                    t_new.append(time.process_time() - t)
                else:
                    old = unsplit(index, full)
                    t_old.append(time.process_time() - t)
            o10.append(overlap(old, new, 10))
            o100.append(overlap(old, new, K))
            old_s = dict(old)
            worst = max([worst, *(abs(s - old_s[r]) for r, s in new if r in old_s)])
            rows_old.append(matched(index, full))
            n_split += len(ran) > 1
            n_wider += len(ran) > 2
            rows_new.append(sum(matched(index, m) for m in ran))
        print(f"{budget:>8} {n_split:>8} {n_wider:>6} {sum(o10) / len(o10):>7.4f} {sum(o100) / len(o100):>7.4f} "
              f"{worst:>13.2e} {percentile(rows_new, 50):>9.0f} {percentile(rows_old, 50):>10.0f} "
              f"{percentile(t_new, 50) * 1000:>8.2f} {percentile(t_new, 99) * 1000:>7.2f} "
              f"{percentile(t_old, 50) * 1000:>12.2f} {percentile(t_old, 99) * 1000:>7.2f}")


def hybrid_top10(lib: Any, queries: list[str]) -> Callable[[], list[list[int]]]:
    """Once the model is ready: a function giving each question's hybrid top 10 chunk ids,
    as the search is configured when it is called."""
    assert lib.model_ready is not None
    lib.model_ready.result()
    return lambda: [[r.chunk_id for r in lib.search(q, limit=10, mode="hybrid").results]
                    for q in queries]


def top10_agreement(reference: list[list[int]], got: list[list[int]]) -> tuple[float, int]:
    """(mean share of each non-empty reference list found in ``got``'s, identical lists)."""
    shares = [len(set(a) & set(b)) / len(a) for a, b in zip(reference, got, strict=True) if a]
    return sum(shares) / len(shares), sum(a == b for a, b in zip(reference, got, strict=True))


def stored(library: Path, n_queries: int, offset: int, models_dir: Path | None) -> None:
    """The app's word-level ranking (``word_rows``: common words from stored postings,
    the rest by FTS5) and the split query (``ranked_rows``) against the unsplit one,
    interleaved; with ``models_dir`` also the hybrid top 10 against search with the
    unsplit word-level query."""
    from desktop_kb.index import user_words
    from desktop_kb.index.db import open_index_reader
    from desktop_kb.index.segment import analyse_query
    from desktop_kb.retrieval import lexical
    from desktop_kb.retrieval.fts_query import alternatives, join_match
    from desktop_kb.retrieval.term_stats import index_stats

    index = open_index_reader(library / "index.sqlite")
    user_words.sync(index)
    queries = rc.load_queries(rc.find_shared())[offset:offset + n_queries]
    used = [0]
    combined = lexical.combined_top

    def counting(*args: Any) -> list[tuple[int, float]]:
        used[0] += 1
        return combined(*args)

    lexical.combined_top = counting
    waiting = index.execute("SELECT count(*) FROM kb_post_todo").fetchone()[0]
    times: dict[str, list[float]] = {"stored": [], "split": [], "unsplit": []}
    agree: dict[str, list[float]] = {"stored10": [], "stored100": [], "split10": [], "split100": []}
    worst = 0.0
    for i, q in enumerate(queries):
        branches = alternatives(analyse_query(q))
        if not branches:
            continue
        total, df = index_stats(index, sorted({t for b in branches for t in b.tokens}))
        full = join_match(branches)
        assert full is not None
        got: dict[str, list[tuple[int, float]]] = {}
        for which in (("stored", "split", "unsplit") if i % 2 else ("unsplit", "split", "stored")):
            t = time.process_time()
            if which == "stored":
                got[which] = lexical.word_rows(index, branches, df, total, K)
            elif which == "split":
                got[which] = lexical.ranked_rows(index, branches, df, total, K)
            else:
                got[which] = unsplit(index, full)
            times[which].append(time.process_time() - t)
        for name in ("stored", "split"):
            agree[f"{name}10"].append(overlap(got["unsplit"], got[name], 10))
            agree[f"{name}100"].append(overlap(got["unsplit"], got[name], K))
        ref = dict(got["unsplit"])
        worst = max([worst, *(abs(s - ref[r]) for r, s in got["stored"] if r in ref)])
    lexical.combined_top = combined
    n = len(times["stored"])
    print(f"{library.name}: {n} questions with terms (slice {offset}..{offset + n_queries}); "
          f"{used[0]} scored from stored postings; {waiting} words waiting for theirs")
    for name in ("stored", "split", "unsplit"):
        v = times[name]
        line = f"  {name:<8} CPU p50 {percentile(v, 50) * 1000:7.2f}  p99 {percentile(v, 99) * 1000:7.2f} ms"
        if name != "unsplit":
            line += (f"; top 10 as unsplit {sum(agree[name + '10']) / n:.4f}, "
                     f"top {K} {sum(agree[name + '100']) / n:.4f}")
        print(line)
    print(f"  stored: largest |score - unsplit score| on shared rows {worst:.2e}")
    if models_dir is None:
        return
    from desktop_kb.library import Library

    word_rows = lexical.word_rows
    with Library(library, models_dir=models_dir) as lib:
        top10 = hybrid_top10(lib, queries)

        def reference(index: sqlite3.Connection, branches: list[Any], df: dict[str, int],
                      total: int, limit: int) -> list[tuple[int, float]]:
            match = join_match(branches)
            return [] if match is None else unsplit(index, match)[:limit]

        try:
            lexical.word_rows = reference
            ref = top10()
        finally:
            lexical.word_rows = word_rows
        share, same = top10_agreement(ref, top10())
        print(f"  hybrid top 10 against the unsplit word query: overlap {share:.4f}, "
              f"identical lists {same}/{len(queries)}")


def hybrid_overlap(library: Path, models_dir: Path, budgets: list[int], n_queries: int,
                   offset: int) -> None:
    from desktop_kb.library import Library
    from desktop_kb.retrieval import lexical

    queries = rc.load_queries(rc.find_shared())[offset:offset + n_queries]
    saved = lexical.POSTINGS_BUDGET
    with Library(library, models_dir=models_dir) as lib:
        top10 = hybrid_top10(lib, queries)

        try:
            lexical.POSTINGS_BUDGET = 10**12
            reference = top10()
            for budget in budgets:
                lexical.POSTINGS_BUDGET = budget
                share, same = top10_agreement(reference, top10())
                print(f"hybrid top 10, budget {budget}: overlap {share:.4f}, "
                      f"identical lists {same}/{len(queries)}")
        finally:
            lexical.POSTINGS_BUDGET = saved


def eval_sets(files: list[Path], models_dir: Path | None, budgets: list[int]) -> None:
    """On an evaluation set's own library: questions the budget splits, and the app's
    ``desktop-kb eval`` figures with the split query against the unsplit one."""
    from desktop_kb.evaluation import _evaluate, detect_format, load_set, open_eval_library
    from desktop_kb.index.segment import analyse_query
    from desktop_kb.retrieval import lexical
    from desktop_kb.retrieval.fts_query import alternatives
    from desktop_kb.retrieval.term_stats import index_stats

    saved = lexical.POSTINGS_BUDGET
    for path in files:
        fmt = detect_format(path)
        dataset = load_set(path, fmt)
        model = None if models_dir else "none"
        with open_eval_library(dataset, models_dir=models_dir, model=model) as ev:
            index = ev.lib.index_reader
            chunks = index.execute("SELECT count(*) FROM kb_chunks").fetchone()[0]
            for budget in budgets:
                n_split = 0
                for q in dataset.queries:
                    branches = alternatives(analyse_query(q.text))
                    _t, df = index_stats(index, sorted({t for b in branches for t in b.tokens}))
                    parts = lexical.split_match(branches, df, budget)
                    n_split += parts is not None and parts[1] is not None
                line = (f"{path.name}: {chunks:,} chunks, {len(dataset.queries)} questions; "
                        f"budget {budget} splits {n_split}")
                if n_split:
                    try:
                        lexical.POSTINGS_BUDGET = 10**12
                        old = _evaluate(ev, dataset, fmt, 1200, None)
                        lexical.POSTINGS_BUDGET = budget
                        new = _evaluate(ev, dataset, fmt, 1200, None)
                    finally:
                        lexical.POSTINGS_BUDGET = saved
                    for mode in ("lexical", "hybrid"):
                        line += (f"; {mode} R@1 {old[mode]['r1']}→{new[mode]['r1']} "
                                 f"MRR@10 {old[mode]['mrr10']}→{new[mode]['mrr10']}")
                else:
                    line += ": the unsplit query runs for every question (identical results)"
                print(line, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--library", help="a data folder built by bench_retrieval.py")
    parser.add_argument("--eval", action="append", default=[],
                        help="an evaluation set (as for desktop-kb eval); repeatable")
    parser.add_argument("--budgets", default="2000,5000,10000,25000")
    parser.add_argument("--cap", type=int, default=None,
                        help="rows the scored set may widen to (default: the app's rule)")
    parser.add_argument("--cap-share", type=float, default=None,
                        help="share of the library the scored set may widen to (lexical.CAP_SHARE)")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--offset", type=int, default=0, help="first question (held-out slices)")
    parser.add_argument("--stored", action="store_true",
                        help="measure the app's word-level ranking (stored postings) instead of budgets")
    parser.add_argument("--models-dir", default=None,
                        help="also compare hybrid top 10 with this model folder's default model")
    args = parser.parse_args(argv)
    try:
        import desktop_kb  # noqa: F401
    except ImportError:
        sys.path.insert(0, str(REPO_ROOT))
    budgets = [int(b) for b in args.budgets.split(",")]
    models_dir = Path(args.models_dir) if args.models_dir else None
    if args.library and args.stored:
        stored(Path(args.library), args.queries, args.offset, models_dir)
    elif args.library:
        from desktop_kb.retrieval import lexical

        if args.cap is not None:  # the hybrid comparison searches through the app
            lexical.POSTINGS_CAP, lexical.CAP_SHARE = args.cap, 0.0
        if args.cap_share is not None:
            lexical.CAP_SHARE = args.cap_share
        run(Path(args.library), budgets, args.queries, args.offset, args.cap)
        if models_dir:
            hybrid_overlap(Path(args.library), models_dir, budgets, args.queries, args.offset)
    if args.eval:
        eval_sets([Path(f) for f in args.eval], models_dir, budgets)
    return 0


if __name__ == "__main__":
    sys.exit(main())
