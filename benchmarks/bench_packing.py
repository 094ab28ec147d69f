"""Minimal snippets: packing constants fitted leave-one-set-out, scored on the set left out.

The public sets are built into libraries through the app and each query's
candidate set is dumped once (``benchmarks/fusion_data.py``, the same dumps
``bench_fusion_loso.py`` fits fusion on). ``packing_data`` replays the app's QA
retrieval on them (fusion with the model's shipped constants, relevance floor,
source join, 8 hits) and hands the hits to ``pack_context`` with the QA default
budget (1,200 characters).

``PackingParams`` — the relative cut (a passage whose fused retrieval score is
under this share of the best passage's is not sent), the share of the best
sentence's priority under which sentences are not packed, and how far past its
chunk a passage's sentences are looked for — are chosen on all sets but one group (DRCD with
Traditional and with Simplified questions share their passages, so they are
left out together) and scored on the group left out. The cut must be free: on
no training set may it lose more than ``MAX_LOSS`` of the answers the packer
finds without it; among such constants the fewest characters win (mean over the
training sets of characters / characters without a cut, so a set of short
passages counts as much as one of long paragraphs).

Reported per left-out set: answer in context, mean characters sent and the
share of sent characters that come from the question's own passage, without
the cut (the defaults before) and with the constants fitted on the others.
For the Tatoeba pairs sets the gold passage is the answer.

    .venv/bin/python benchmarks/bench_packing.py --model use-multilingual \\
        --versions cmrc:r3,drcd:r3,drcd_simp:r3,zhpara:r3,en_zh:r3
"""

from __future__ import annotations

import argparse
import itertools
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import packing_data  # noqa: E402

from desktop_kb.retrieval.packing import (  # noqa: E402
    DEFAULT_PACKING,
    PackingParams,
    ScoredPassages,
    pack_scored,
    score_passages,
)

BUDGET = 1200  # the QA default (qa.budget_chars)
GRID = {
    "passage_cut": [0.0, 0.4, 0.5, 0.6],
    "unmatched_cut": [0.0, 0.2, 0.3, 0.5],
    "min_share": [0.05, 0.1],
    # 800 was tried over four sets (CMRC 0.971 answers at 465 chars) and never chosen.
    "reach": [0],
}
NO_CUT = replace(DEFAULT_PACKING, passage_cut=0.0, unmatched_cut=0.0, min_share=0.05, reach=0)
MAX_LOSS = 0.003  # answers in context the cut may cost on a training set (as fusion's rule)
# Sets that share their passages are left out together.
GROUPS = {"drcd": "drcd", "drcd_simp": "drcd"}

Scores = tuple[float, float, float]  # answer in context, mean characters, gold share


Prepared = dict[int, list[tuple[packing_data.PackCase, ScoredPassages]]]  # reach -> cases


def prepare(cases: list[packing_data.PackCase]) -> Prepared:
    """Sentences scored once per case and reach (what the other constants do not change)."""
    return {reach: [(c, score_passages(c.hits, c.terms, doc_freq=c.doc_freq, n_docs=c.n_docs,
                                       question=c.question, reach=reach)) for c in cases]
            for reach in sorted({*GRID["reach"], DEFAULT_PACKING.reach})}


def score(prepared: Prepared, params: PackingParams) -> Scores:
    found = chars = gold = 0
    cases = prepared[params.reach]
    for c, scored in cases:
        packed = pack_scored(scored, BUDGET, params=params)
        keys = packing_data.gold_keys(c)
        in_gold = sum(len(s.text) for s in packed.snippets if (s.source_type, s.source_id) in keys)
        text = packed.render()
        found += any(a and a in text for a in c.answers) if c.answers else in_gold > 0
        chars += packed.chars
        gold += in_gold
    n = len(cases) or 1
    return found / n, chars / n, gold / chars if chars else 0.0


def grid() -> list[PackingParams]:
    keys = list(GRID)
    return [replace(NO_CUT, **dict(zip(keys, v, strict=True))) for v in itertools.product(*GRID.values())]


def fit(train: list[str], scored: dict[tuple[str, PackingParams], Scores]) -> PackingParams:
    """Fewest characters among the constants that cost no training set more than MAX_LOSS."""
    def loss(p: PackingParams) -> float:
        return max(scored[(n, NO_CUT)][0] - scored[(n, p)][0] for n in train)

    def chars(p: PackingParams) -> float:
        return sum(scored[(n, p)][1] / max(scored[(n, NO_CUT)][1], 1.0) for n in train) / len(train)

    free = [p for p in grid() if loss(p) <= MAX_LOSS + 1e-9]
    if not free:
        return min(grid(), key=lambda p: (round(loss(p), 6), chars(p)))
    return min(free, key=lambda p: (round(chars(p), 6), p.passage_cut, p.reach))


def knobs(p: PackingParams) -> str:
    return ", ".join(f"{k}={getattr(p, k):g}" for k in GRID)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="use-multilingual")
    parser.add_argument("--versions", required=True,
                        help="set:version of each fusion_data dump, comma-separated")
    args = parser.parse_args()
    versions = dict(item.split(":", 1) for item in args.versions.split(",") if item)
    data = {n: prepare(packing_data.load_cases(n, args.model, v)) for n, v in versions.items()}
    params = [NO_CUT, DEFAULT_PACKING, *grid()]
    scored = {(n, p): score(cases, p) for n, cases in data.items() for p in dict.fromkeys(params)}
    print(f"packing, budget {BUDGET} chars, model {args.model}; leave-one-set-out over {', '.join(data)}")
    print(f"{'left out':<10} {'n':>5} {'no cut: answer / chars / gold':>31} {'shipped default':>25}"
          f" {'fitted on the others':>25}  constants")
    for left in data:
        group = GROUPS.get(left, left)
        train = [n for n in data if GROUPS.get(n, n) != group]
        chosen = fit(train, scored)
        cells = "".join(f" {a:>10.3f} / {c:4.0f} / {g:.3f}" for a, c, g in
                        (scored[(left, NO_CUT)], scored[(left, DEFAULT_PACKING)], score(data[left], chosen)))
        print(f"{left:<10} {len(data[left][0]):>5}{cells}  {knobs(chosen)}")
    final = fit(list(data), scored)
    print("fitted on all sets:", knobs(final), "| the default now:", knobs(DEFAULT_PACKING))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
