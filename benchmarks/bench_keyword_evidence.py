"""The relevance floor's keyword evidence: token rows read once per query, against read twice.

``relevance.keyword_evidence`` tests the keyword hits' token text, which
``candidates.gather`` has already read for their coverage (``Candidates.hit_texts``).
Before, it read the same rows (up to 100 hits) again. Both ways run here in one process
on the same candidate sets, alternating, and must give the same evidence:

* before: the evidence with ``hit_texts`` emptied, so it reads every hit's row itself;
* after: the evidence from the rows gathered with the coverage.

    .venv/bin/python benchmarks/bench_keyword_evidence.py --library DIR [--questions FILE]...
        [--rounds 5]

``DIR`` is a library with the Rust book imported (``bench_rust_book.py --library DIR``);
questions default to every ``benchmarks/data/rust_book_questions*.tsv``. CPU seconds of
this process, best of the rounds; the keyword side is ``rank_chunks`` in lexical mode.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from measure import cpu_seconds  # noqa: E402

from desktop_kb.index.segment import analyse_query  # noqa: E402
from desktop_kb.library import Library  # noqa: E402
from desktop_kb.retrieval.relevance import keyword_evidence  # noqa: E402
from desktop_kb.retrieval.search import rank_chunks  # noqa: E402

QUESTIONS = tuple(sorted((ROOT / "benchmarks" / "data").glob("rust_book_questions*.tsv")))


def questions(paths: list[Path]) -> list[str]:
    return [line.split("\t")[1] for path in paths
            for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--library", type=Path, required=True)
    parser.add_argument("--questions", type=Path, action="append", default=None)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    asked = questions(args.questions or list(QUESTIONS))
    lib = Library(args.library, load_model=False)
    try:
        lib.drain()
        index = lib.index_reader
        rankings = [rank_chunks(index, q, mode="lexical", engine=None, dense=None) for q in asked]
        cases = [(analyse_query(r.searched_as).terms, r.candidates) for r in rankings]
        for (terms, cand), ranking in zip(cases, rankings, strict=True):
            assert cand is not None
            reread = keyword_evidence(index, terms, dataclasses.replace(cand, hit_texts={}))
            assert reread == ranking.evidence, "the evidence must not change with where rows come from"
        best = {"before": float("inf"), "after": float("inf"), "keyword side": float("inf")}
        for _ in range(args.rounds):
            t0 = cpu_seconds()
            for terms, cand in cases:
                assert cand is not None
                keyword_evidence(index, terms, dataclasses.replace(cand, hit_texts={}))
            t1 = cpu_seconds()
            for terms, cand in cases:
                assert cand is not None
                keyword_evidence(index, terms, cand)
            t2 = cpu_seconds()
            for q in asked:
                rank_chunks(index, q, mode="lexical", engine=None, dense=None)
            t3 = cpu_seconds()
            best = {"before": min(best["before"], t1 - t0), "after": min(best["after"], t2 - t1),
                    "keyword side": min(best["keyword side"], t3 - t2)}
    finally:
        lib.close()
    n = len(asked)
    per = {k: v / n * 1000 for k, v in best.items()}
    print(f"{n} questions, best of {args.rounds} rounds, CPU ms per question")
    print(f"  keyword evidence, rows read again (before): {per['before']:.3f}")
    print(f"  keyword evidence, rows read once (after):   {per['after']:.3f}"
          f"  ({per['after'] / per['before']:.2f}x of before)")
    print(f"  keyword side with it (rank_chunks, lexical): {per['keyword side']:.3f}"
          f"  (saved: {(per['before'] - per['after']) / (per['keyword side'] + per['before'] - per['after']):.1%}"
          " of the keyword side)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
