"""Minimal snippets: packing constants fitted on one reading-comprehension set, scored on the other.

CMRC 2018 trial (Simplified) and DRCD dev (Traditional) are each built into a
library through the app, every question is searched as the app searches
(hybrid with the model in use, else lexical) and its hits are cached. Then
``PackingParams`` (the relative passage cut, the share under which sentences
are not packed, the per-rank decay) are chosen on one set — the fewest mean
characters that keep the answer in the context for ≥ 97 % of questions — and
scored on the other, with the QA default budget (1,200 characters).

Reported per left-out set: answer in context, mean characters sent, and the
share of sent characters that come from the question's own paragraph.

    .venv/bin/python benchmarks/bench_packing.py --models-dir DATA/models [--model ID] [--write]
"""

from __future__ import annotations

import argparse
import itertools
import pickle
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import fusion_data  # noqa: E402

from desktop_kb.retrieval.packing import DEFAULT_PACKING, PackingParams, pack_context  # noqa: E402

BUDGET = 1200  # the QA default (qa.budget_chars)
TARGET = 0.97
SETS = ("cmrc", "drcd")
GRID = {
    "passage_cut": [0.0, 0.3, 0.5, 0.7],
    "min_share": [0.05, 0.2],
    "rank_decay": [0.5],
}


@dataclass
class PackCase:
    hits: list[tuple[Any, str]]  # (SearchResult, source text), rank order
    terms: list[str]
    doc_freq: dict[str, int]
    n_docs: int
    question: str
    answers: list[str]
    gold_docs: set[int]  # document ids of the question's own paragraph


def build(name: str, model: str | None, models_dir: Path) -> list[PackCase]:
    from desktop_kb.evaluation import load_set, open_eval_library
    from desktop_kb.index.segment import query_terms
    from desktop_kb.retrieval.resolve import resolve_sources
    from desktop_kb.retrieval.term_stats import index_stats

    file, _ = fusion_data.SETS[name]
    dataset = load_set(fusion_data.EVAL_DIR / file, "squad")
    cases: list[PackCase] = []
    with open_eval_library(dataset, models_dir=models_dir, model=model) as ev:
        lib = ev.lib
        passage_docs: dict[int, set[int]] = {}
        for doc in lib.list_documents():
            passage_docs.setdefault(int(Path(doc.path).stem[1:]), set()).add(doc.id)
        for query in dataset.queries:
            results = lib.search(query.text, limit=10).results
            sources = resolve_sources(lib.store_reader, [(r.source_type, r.source_id) for r in results])
            hits = [(r, sources[(r.source_type, r.source_id)].text) for r in results
                    if (r.source_type, r.source_id) in sources]
            terms = query_terms(query.text)
            n_docs, doc_freq = index_stats(lib.index_reader, terms)
            gold = set().union(*(passage_docs.get(p, set()) for p in query.relevant))
            cases.append(PackCase(hits, terms, doc_freq, n_docs, query.text, list(query.answers), gold))
    return cases


def load(name: str, model: str | None, models_dir: Path, version: str) -> list[PackCase]:
    path = fusion_data.CACHE / f"pack-{name}--{model or 'none'}--{version}.pkl"
    if path.is_file():
        with path.open("rb") as src:
            return pickle.load(src)  # our own cache file
    cases = build(name, model, models_dir)
    fusion_data.CACHE.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        pickle.dump(cases, out)
    return cases


def score(cases: list[PackCase], params: PackingParams) -> tuple[float, float, float]:
    """(answer in context, mean characters, share of characters from the gold paragraph)."""
    found = chars = gold = 0
    for c in cases:
        packed = pack_context(c.hits, c.terms, BUDGET, doc_freq=c.doc_freq, n_docs=c.n_docs,
                              question=c.question, params=params)
        text = packed.render()
        found += any(a and a in text for a in c.answers)
        chars += packed.chars
        gold += sum(len(s.text) for s in packed.snippets if s.document_id in c.gold_docs)
    n = len(cases) or 1
    return found / n, chars / n, gold / chars if chars else 0.0


def grid() -> list[PackingParams]:
    keys = list(GRID)
    return [replace(DEFAULT_PACKING, **dict(zip(keys, v, strict=True)))
            for v in itertools.product(*(GRID[k] for k in keys))]


def choose(results: dict[PackingParams, tuple[float, float, float]]) -> PackingParams:
    """Fewest characters among those reaching the target; else the most answers."""
    reaching = [p for p, r in results.items() if r[0] >= TARGET]
    if reaching:
        return min(reaching, key=lambda p: (results[p][1], -results[p][0]))
    return max(results, key=lambda p: (results[p][0], -results[p][1]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default=None, help="model id, or none (default: the one in use)")
    parser.add_argument("--models-dir", type=Path, required=True)
    parser.add_argument("--version", default=None)
    args = parser.parse_args()
    version = args.version or fusion_data.code_version()
    data = {n: load(n, args.model, args.models_dir, version) for n in SETS}
    params = grid()
    scored = {n: {p: score(cases, p) for p in params} for n, cases in data.items()}
    print(f"packing, budget {BUDGET} chars, model {args.model or 'in use'}; target answer in context ≥ {TARGET}")
    print(f"{'left out':<8} {'before: answer / chars / gold share':>38} {'after: answer / chars / gold share':>38}"
          "  fitted on the other")
    for left in SETS:
        other = next(n for n in SETS if n != left)
        chosen = choose(scored[other])
        before, after = scored[left][DEFAULT_PACKING], score(data[left], chosen)
        knobs = ", ".join(f"{k}={getattr(chosen, k):g}" for k in GRID)
        print(f"{left:<8} {before[0]:>16.3f} / {before[1]:5.0f} / {before[2]:.3f}"
              f" {after[0]:>18.3f} / {after[1]:5.0f} / {after[2]:.3f}  {knobs}")
    both = {p: tuple(sum(scored[n][p][i] for n in SETS) / len(SETS) for i in range(3)) for p in params}
    final = choose(both)  # type: ignore[arg-type]
    print("fitted on both:", ", ".join(f"{k}={getattr(final, k):g}" for k in GRID))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
