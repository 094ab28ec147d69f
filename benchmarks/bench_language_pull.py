"""English questions on a Chinese library, with and without the passages' pull toward English.

Replays ``retrieval/language_pull.py`` offline on the candidate dumps of
``fusion_data.py`` (public sets, and the Rust book dumped per question set with
``--sets book --version PREFIXn``), in the same numpy code the app runs, and prints
hybrid R@1 / MRR@10 (public sets) or R@1 / R@5 (the book's English questions, per
set) before and after. Nothing is fitted: the pull has no constant.

    .venv/bin/python benchmarks/bench_language_pull.py --model multilingual-e5-small \\
        --version r1 [--book-prefix rk3ops]

(the shipped model's calibration: its fusion constants and English / Chinese centroids)
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import fusion_data  # noqa: E402
from bench_fusion_loso import doc_rank, groups  # noqa: E402

from desktop_kb.retrieval.dense import DenseIndex  # noqa: E402
from desktop_kb.retrieval.floor_reference import reference_of  # noqa: E402
from desktop_kb.retrieval.fusion import fuse_scores  # noqa: E402
from desktop_kb.retrieval.language_pull import without_language_pull  # noqa: E402
from desktop_kb.retrieval.tuning import params_of, shipped_calibrations  # noqa: E402


def ranks(data: fusion_data.SetData, tuning: SimpleNamespace, english_only: bool) -> tuple[list, list]:
    dense = DenseIndex()
    dense.reset(data.model, data.vectors.shape[1])
    dense.add(data.vector_ids.tolist(), data.vectors.astype(np.float32))
    read = fusion_data.read_in_own_scripts(data)
    before, after = [], []
    for rec, rr in zip(data.records, read.records, strict=True):
        if english_only and rec.group != "english":
            continue
        pulled = without_language_pull(rr.cand, dense, tuning.reference, data.calibration)
        before.append(doc_rank(rr, fuse_scores(rr.cand, data.calibration, tuning.params, groups(rec))))
        after.append(doc_rank(replace(rr, cand=pulled),
                              fuse_scores(pulled, data.calibration, tuning.params, groups(rec))))
    return before, after


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--version", required=True, help="cache version of the public dumps")
    parser.add_argument("--sets", default=",".join(fusion_data.FIT_SETS))
    parser.add_argument("--book-prefix", default=None, help="book dumps PREFIX1..PREFIX8")
    args = parser.parse_args()
    shipped = next(c for c in shipped_calibrations().values() if c.get("model") == args.model)
    tuning = SimpleNamespace(params=params_of(shipped), reference=reference_of(shipped))
    for name in [n for n in args.sets.split(",") if n]:
        b, a = ranks(fusion_data.load_cached(name, args.model, args.version), tuning, False)
        r1 = [sum(x == 1 for x in r) / len(r) for r in (b, a)]
        mrr = [sum(1 / x for x in r if x) / len(r) for r in (b, a)]
        print(f"{name:<8} {len(b):>5} hybrid R@1 {r1[0]:.4f} -> {r1[1]:.4f}   MRR@10 {mrr[0]:.4f} -> {mrr[1]:.4f}")
    if args.book_prefix:
        total_b, total_a = [], []
        for i in range(1, 9):
            b, a = ranks(fusion_data.load_cached("book", args.model, f"{args.book_prefix}{i}"), tuning, True)
            total_b += b
            total_a += a
            print(f"book set {i}: English {len(b)} hybrid R@1 {sum(x == 1 for x in b)} -> {sum(x == 1 for x in a)}, "
                  f"R@5 {sum(bool(x) and x <= 5 for x in b)} -> {sum(bool(x) and x <= 5 for x in a)}")
        n = len(total_b)
        print(f"book English {n}: hybrid R@1 {sum(x == 1 for x in total_b) / n:.3f} -> "
              f"{sum(x == 1 for x in total_a) / n:.3f}, R@5 {sum(bool(x) and x <= 5 for x in total_b) / n:.3f} -> "
              f"{sum(bool(x) and x <= 5 for x in total_a) / n:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
