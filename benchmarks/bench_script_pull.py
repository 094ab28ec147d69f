"""The same-language pull, held out: English questions on a Chinese library with a few English notes.

A library of Chinese sentences (Tatoeba's Chinese side, one note each) gets a handful of
unrelated English notes (paragraphs of Tatoeba English sentences whose Chinese is NOT in the
library). Each question is the English original of a Chinese note, so its answer is in the
Chinese text and never in the English notes. Every question runs through the app's search
(``Library.search``) in lexical, dense and hybrid mode, and in hybrid once more with one
unrelated level for the whole library (``Tuning.scripts`` None: how fusion read cosines
before ``retrieval/script_levels.py``). Nothing here was used to design or fit that module.

    .venv/bin/python benchmarks/bench_script_pull.py --model multilingual-e5-small \\
        --models-dir DIR/models [--notes 300] [--english 3,10] [--seed 11]

Prints, per number of English notes: R@1 / R@5 per mode and the share of questions whose
first result is an English note. ``--reverse`` swaps the languages: Chinese questions on a
library of English sentences with a few unrelated Chinese notes.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from desktop_kb.library import Library  # noqa: E402
from desktop_kb.retrieval.tuning import Tuning  # noqa: E402

TATOEBA = Path("/work/shared/eval/tatoeba_cmn_dev.tsv")
SENTENCES_PER_ENGLISH_NOTE = 6


def pairs(path: Path, reverse: bool = False) -> list[tuple[str, str]]:
    """(question, answer) pairs: English and its Chinese translation (``reverse``: the other way)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        en, _, zh = line.partition("\t")
        if en.strip() and zh.strip() and len(en.split()) >= 4:  # a question, not "Hello!"
            out.append((zh.strip(), en.strip()) if reverse else (en.strip(), zh.strip()))
    return out


def run(model: str, models_dir: Path, n_notes: int, n_english: int, seed: int,
        reverse: bool = False) -> None:
    rng = random.Random(seed)
    every = pairs(TATOEBA, reverse)
    rng.shuffle(every)
    asked = every[:n_notes]
    rest = every[n_notes:n_notes + n_english * SENTENCES_PER_ENGLISH_NOTE]
    with tempfile.TemporaryDirectory(prefix="bench-script-pull-") as tmp:
        lib = Library(Path(tmp) / "lib", models_dir=models_dir, load_model=False)
        try:
            answer = {lib.add_note(f"{i}", text): i for i, (_, text) in enumerate(asked)}
            english = set()
            for j in range(n_english):
                body = " ".join(q for q, _ in rest[j * SENTENCES_PER_ENGLISH_NOTE:
                                                   (j + 1) * SENTENCES_PER_ENGLISH_NOTE])
                english.add(lib.add_note(f"{n_notes + j}", body))
            lib.drain()
            lib.use_model(model).result()
            lib.drain()
            whole = lib.tuning
            tuning = whole()
            scripts = tuning.scripts if tuning else None
            one_scale = replace(tuning or Tuning(), scripts=None)
            found: dict[str, list[int | None]] = {}
            english_first: dict[str, int] = {}
            for i, (question, _) in enumerate(asked):
                for label, mode, tune in (("lexical", "lexical", whole), ("dense", "dense", whole),
                                          ("hybrid, one scale", "hybrid", lambda: one_scale),
                                          ("hybrid", "hybrid", whole)):
                    lib.tuning = tune  # type: ignore[method-assign]
                    results = lib.search(question, limit=10, mode=mode).results
                    rank = next((r.rank for r in results if answer.get(r.source_id) == i), None)
                    found.setdefault(label, []).append(rank)
                    english_first[label] = english_first.get(label, 0) + bool(
                        results and results[0].source_id in english)
            lib.tuning = whole  # type: ignore[method-assign]
        finally:
            lib.close()
    n = len(asked)
    answers, others = ("English", "Chinese") if reverse else ("Chinese", "English")
    print(f"{model}: {n} {answers} notes + {n_english} {others} notes, {n} {others} questions; "
          f"script levels {'measured' if scripts else 'not measured'}"
          + (f" ({scripts.han_chunks} Chinese / {scripts.latin_chunks} English chunks)" if scripts else ""))
    for label, ranks in found.items():
        r1 = sum(r == 1 for r in ranks) / n
        r5 = sum(r is not None and r <= 5 for r in ranks) / n
        print(f"  {label:<18} R@1 {r1:.3f}  R@5 {r5:.3f}  {others} note first {english_first[label] / n:.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--models-dir", type=Path, required=True)
    parser.add_argument("--notes", type=int, default=300)
    parser.add_argument("--english", default="3,10", help="numbers of English notes, comma-separated")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--reverse", action="store_true",
                        help="Chinese questions on English notes with a few Chinese ones")
    args = parser.parse_args()
    for k in (int(x) for x in args.english.split(",") if x):
        run(args.model, args.models_dir, args.notes, k, args.seed, args.reverse)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
