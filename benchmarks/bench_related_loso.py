"""Related material: scoring constants fitted on one pairs set, scored on the other.

Two public pairs sets become throwaway libraries of notes (one note per text),
exactly as ``desktop-kb eval --task related`` builds them: Tatoeba Chinese
paraphrase pairs and Tatoeba English→Chinese translation pairs (a note and its
translation are related material too). For every left-hand note the app's
related-material code collects its candidates with the floor off, and the
constants of ``RelatedParams`` (how much closeness in meaning counts, the
calibrated similarity under which nothing is shown, the level from which
meaning alone is enough) are chosen on one set and scored on the other.

Reported per left-out set and mode: R@1, R@5, MRR@10 and how many suggestions
a person sees per note (at most 10).

    .venv/bin/python benchmarks/bench_related_loso.py --models-dir DATA/models [--model ID]
"""

from __future__ import annotations

import argparse
import itertools
import pickle
import random
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import fusion_data  # noqa: E402

from desktop_kb.discovery.related import (  # noqa: E402
    DEFAULT_RELATED,
    MIN_LEXICAL,
    RelatedParams,
)
from desktop_kb.retrieval.calibration import Calibration  # noqa: E402

TOP = 10
SETS = {"zhpara": ("tatoeba_cmn_dev_zhpara.tsv", None), "en_zh": ("tatoeba_cmn_dev.tsv", 300)}
GRID = {
    "dense_weight": [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0],
    "min_level": [1.0, 2.0, 3.0, 4.0],
    "alone_level": [3.0, 4.0, 5.0, 6.0, 8.0],
}


@dataclass
class NoteCase:
    candidates: list[tuple[int, float, float | None]]  # (target note id, lexical, cosine)
    relevant: set[int]


@dataclass
class RelatedData:
    name: str
    cases: list[NoteCase]
    calibration: Calibration | None


def build(name: str, model: str, models_dir: Path) -> RelatedData:
    from desktop_kb.discovery.evaluate import load_pairs
    from desktop_kb.discovery.related import related_for_note
    from desktop_kb.library import Library

    file, sample = SETS[name]
    pairs = load_pairs(fusion_data.EVAL_DIR / file)
    if sample:
        pairs = random.Random(7).sample(pairs, sample)
    cases: list[NoteCase] = []
    with tempfile.TemporaryDirectory(prefix="bench-related-") as tmp:
        lib = Library(Path(tmp) / "lib", models_dir=models_dir, load_model=False)
        try:
            texts = list(dict.fromkeys(t for pair in pairs for t in pair))
            note_of = {t: lib.add_note("", t) for t in texts}
            lib.drain()
            lib.use_model(model).result()
            lib.drain()
            tuning = lib.tuning()
            partners: dict[int, set[int]] = {}
            for left, right in pairs:
                if left != right:
                    partners.setdefault(note_of[left], set()).add(note_of[right])
            # Weight 0 and no floor: each suggestion's score is its lexical evidence alone.
            raw = replace(DEFAULT_RELATED, dense_weight=0.0)
            for note_id, relevant in partners.items():
                result = related_for_note(lib.index_reader, lib.store_reader, note_id, engine=lib.engine,
                                          dense=lib.dense, limit=200, floor=False, params=raw,
                                          calibration=tuning.calibration if tuning else None)
                cases.append(NoteCase([(s.target_id, s.score, s.similarity) for s in result.suggestions
                                       if s.target_type == "note"], relevant))
        finally:
            lib.close()
    return RelatedData(name, cases, tuning.calibration if tuning else None)


def load(name: str, model: str, models_dir: Path, version: str) -> RelatedData:
    path = fusion_data.CACHE / f"related-{name}--{model}--{version}.pkl"
    if path.is_file():
        with path.open("rb") as src:
            return pickle.load(src)  # our own cache file
    data = build(name, model, models_dir)
    fusion_data.CACHE.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        pickle.dump(data, out)
    return data


def evaluate(data: RelatedData, params: RelatedParams, mode: str) -> tuple[float, float, float, float]:
    """(R@1, R@5, MRR@10, mean suggestions shown) with the app's floor rules."""
    cal = data.calibration
    fit = cal.fit if cal else 1.0
    r1 = r5 = mrr = shown = 0.0
    for case in data.cases:
        kept: list[tuple[float, float, float, int]] = []
        for target, lexical, cosine in case.candidates:
            level = cal.standardize(cosine) if cal and cosine is not None else None
            close = cal.closeness(cosine) if cal and cosine is not None else 0.0
            lexical_ok = lexical >= MIN_LEXICAL
            if mode == "lexical" or level is None or fit == 0.0:
                ok = lexical_ok if mode != "dense" else cosine is not None
            elif level < params.min_level:
                ok = False
            else:
                ok = mode == "dense" or lexical_ok or level >= params.alone_level
            if not ok:
                continue
            score = {"lexical": lexical, "dense": close}.get(mode, lexical + params.dense_weight * fit * close)
            kept.append((-score, -lexical, -(cosine or 0.0), target))
        ranked = [t for *_, t in sorted(kept)][:TOP]
        rank = next((i + 1 for i, t in enumerate(ranked) if t in case.relevant), None)
        r1 += rank == 1
        r5 += rank is not None and rank <= 5
        mrr += 1.0 / rank if rank else 0.0
        shown += len(ranked)
    n = len(data.cases) or 1
    return r1 / n, r5 / n, mrr / n, shown / n


def grid() -> list[RelatedParams]:
    keys = list(GRID)
    return [replace(DEFAULT_RELATED, **dict(zip(keys, v, strict=True)))
            for v in itertools.product(*(GRID[k] for k in keys))
            if v[keys.index("alone_level")] >= v[keys.index("min_level")]]


def choose(scored: dict[RelatedParams, tuple[float, float, float, float]]) -> RelatedParams:
    """Best MRR@10; among near-equal ones (within 0.005), the one showing fewest suggestions."""
    best = max(r[2] for r in scored.values())
    near = [p for p, r in scored.items() if r[2] >= best - 0.005]
    return min(near, key=lambda p: (scored[p][3], -scored[p][2]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="use-multilingual")
    parser.add_argument("--models-dir", type=Path, required=True)
    parser.add_argument("--version", default=None)
    args = parser.parse_args()
    version = args.version or fusion_data.code_version()
    data = {n: load(n, args.model, args.models_dir, version) for n in SETS}
    params = grid()
    scored = {n: {p: evaluate(d, p, "hybrid") for p in params} for n, d in data.items()}
    print(f"related material, model {args.model}; cells R@1 / R@5 / MRR@10 / suggestions shown per note")
    for left in SETS:
        other = next(n for n in SETS if n != left)
        chosen = choose(scored[other])
        print(f"{left} (constants fitted on {other}: "
              + ", ".join(f"{k}={getattr(chosen, k):g}" for k in GRID) + ")")
        print(f"  {'before (unfitted defaults)':<28}" + " / ".join(
            f"{x:.3f}" for x in evaluate(data[left], DEFAULT_RELATED, "hybrid")))
        for mode in ("lexical", "dense", "hybrid"):
            print(f"  {mode:<28}" + " / ".join(f"{x:.3f}" for x in evaluate(data[left], chosen, mode)))
    both = {p: tuple(sum(scored[n][p][i] for n in SETS) / len(SETS) for i in range(4)) for p in params}
    final = choose(both)  # type: ignore[arg-type]
    print("fitted on both:", ", ".join(f"{k}={getattr(final, k):g}" for k in GRID))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
