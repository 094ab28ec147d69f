"""Common words' keyword scoring with and without its top-k stop, question by question.

Measured, never asserted. Run from the repository root on a settled library (its writer has
filled the common words' postings; ``bench_retrieval.py`` builds them, copy one first)::

    .venv/bin/python benchmarks/bench_keyword_top.py LIB [--queries 300] [--questions TSV ...]

For each question, the stored entries and the other branches' FTS5 rows are read once as
``lexical.word_rows`` reads them; then ``stored_scores.combined_top`` (which stops early where
the common words' bounds prove no other row can reach the top) and the same with
``STOP_POSTINGS`` out of reach (every row that holds a word scored, as before) run in turn, alternating which goes first, each timed in thread
CPU. Reported: how many questions took the stored path, how many top-100 lists (ids and
scores) differ (0 is the claim), and both sides' p50/p99/mean.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("library")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--questions", nargs="*", default=None,
                        help="TSV files of (group, question, …) instead of the benchmark's questions")
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--stop", type=int, default=None,
                        help="STOP_POSTINGS for the side with the stop (0: try it on every question)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
    sys.path.insert(0, str(REPO_ROOT))
    import retrieval_corpus as rc

    from desktop_kb.index import user_words
    from desktop_kb.index.db import open_index_reader
    from desktop_kb.index.postings import MIN_DF
    from desktop_kb.index.segment import analyse_query
    from desktop_kb.index.term_df import is_plain
    from desktop_kb.retrieval import lexical, stored_scores
    from desktop_kb.retrieval.fts_query import alternatives, join_match
    from desktop_kb.retrieval.term_stats import index_stats

    if args.questions:
        queries = [line.split("\t")[1] for path in args.questions
                   for line in Path(path).read_text(encoding="utf-8").splitlines()
                   if line.strip() and not line.startswith("#") and "\t" in line][:args.queries]
    else:
        queries = rc.load_queries(rc.find_shared())[:args.queries]
    index = open_index_reader(Path(args.library) / "index.sqlite")
    user_words.sync(index)
    stop = stored_scores.STOP_POSTINGS if args.stop is None else args.stop
    stopped: list[float] = []
    full: list[float] = []
    differ = 0
    for i, q in enumerate(queries):
        analysis = analyse_query(q)
        branches = alternatives(analysis)
        if not branches:
            continue
        total, doc_freq = index_stats(index, sorted({t for b in branches for t in b.tokens}))
        common = [b.tokens[0] for b in branches if len(b.tokens) == 1 and is_plain(b.tokens[0])
                  and doc_freq.get(b.tokens[0], 0) >= MIN_DF]
        entries = stored_scores.stored_entries(index, common) if common else {}
        rest = [b for b in branches if not (len(b.tokens) == 1 and b.tokens[0] in entries)]
        if not entries or sum(lexical.branch_costs(rest, doc_freq).values()) > lexical.REST_BUDGET:
            continue
        match = join_match(rest)
        other = [] if match is None else [
            (int(r), max(0.0, -float(s))) for r, s in index.execute(
                f"SELECT rowid, {lexical._BM25} FROM kb_fts WHERE kb_fts MATCH ?", (match,))]
        results = {}
        for side in (("new", "old") if i % 2 == 0 else ("old", "new")):
            start = time.thread_time()
            stored_scores.STOP_POSTINGS = stop if side == "new" else sys.maxsize
            results[side] = stored_scores.combined_top(index, entries, other, args.limit)
            (stopped if side == "new" else full).append(time.thread_time() - start)
        differ += results["new"] != results["old"]

    def pct(values: list[float], p: float) -> float:
        ordered = sorted(values)
        return round(ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] * 1000, 3)

    out = {"questions": len(queries), "stored_path": len(full), "differ": differ}
    for name, values in (("with_stop", stopped), ("score_all", full)):
        if values:
            out[name] = {"p50_ms": pct(values, 50), "p99_ms": pct(values, 99),
                         "mean_ms": round(statistics.mean(values) * 1000, 3)}
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
