"""A real book, real questions: R@1 / R@5 per question group and search mode.

The Chinese Rust book (``shared/corpora/rust-book-cn``) is imported as a
learner would (the whole folder, through the app's importer), indexed and
embedded with the chosen model; each question in
``benchmarks/data/rust_book_questions.tsv`` and ``rust_book_questions_2.tsv``
(written by reading the book, answering files labelled by reading; the second
set was written after the first set's results were known, on other chapters) is searched exactly as the app searches
(``Library.search``: relevance floor and source join included) in every mode.
A hit counts when a shown result comes from an answering file.

This set is a held-out check: no constant in the app is fitted on it.

The third set (``rust_book_questions_3.tsv``, chapters neither earlier set asks
about) was written before the session-3 fusion change and kept unseen until that
design was final; pass it with ``--questions`` to score it on its own.

The fourth set (``rust_book_questions_4.tsv``) was written by the lead in session
4 and kept outside the repository, unseen by whoever changed fusion, until that
session's fusion work had landed: the held-out figure for that work.
The fifth set (``rust_book_questions_5.tsv``) was written the same way in session
5 and measured on that session's final fusion before it entered the repository.
The sixth set (``rust_book_questions_6.tsv``) likewise in session 6: measured on main
7e07dd3 before that session's fusion and floor work and on its final code, unseen by
whoever changed them. The seventh (``rust_book_questions_7.tsv``) in session 9 the same way
(written by a helper who changed no code; measured on main 6f1edfc and on the final main),
the eighth (``rust_book_questions_8.tsv``) in session 10 (main 728d38f and deaa0e4).
The ninth to thirteenth (``rust_book_questions_9.tsv`` to ``_13.tsv``) were written
the same way in sessions 11 to 15, measured sealed there and in the session after, then released (their off-topic questions
joined ``offtopic_questions.tsv``, library ``book``); the fifteenth (``_15.tsv``) is session 17's
sealed set 17, released the same way in session 18, the sixteenth (``_16.tsv``) session 18's
sealed set 18, released in session 19, and the seventeenth (``_17.tsv``) session 19's sealed set 19,
released in session 20.
The lead's sets 7 and 8 of session 7 were lost with that machine: they never entered the
repository. So was session 16's sealed set 16 (it would have been ``_14.tsv``; its figures are in
session 16's closing note) and, with it, that session's off-topic set and sealed gate batch
(never released; ``gate_corpus/heldout15.py`` is another batch, written in session 17).

    .venv/bin/python benchmarks/bench_rust_book.py [--model ID] [--models-dir DIR] [--json]
        [--questions benchmarks/data/rust_book_questions_3.tsv] [--library DIR] [--weak]

``--library DIR`` keeps the imported, embedded book in DIR and reuses it on the
next run (embedding the book with e5 takes half an hour on a loaded 2-core
machine); the model's calibration is measured afresh each run.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from desktop_kb.importer.run import ImportSummary  # noqa: E402
from desktop_kb.library import Library  # noqa: E402
from desktop_kb.retrieval.tuning import CACHE_FILE  # noqa: E402

QUESTIONS = (ROOT / "benchmarks" / "data" / "rust_book_questions.tsv",
             ROOT / "benchmarks" / "data" / "rust_book_questions_2.tsv")
BOOK_CANDIDATES = (ROOT.parent.parent / "shared" / "corpora" / "rust-book-cn",
                   ROOT.parent / "shared" / "corpora" / "rust-book-cn",
                   Path("/work/shared/corpora/rust-book-cn"))
MODES = ("lexical", "dense", "rrf", "hybrid")


def load_questions(path: Path) -> list[tuple[str, str, frozenset[str]]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        group, question, files = line.split("\t")
        out.append((group, question, frozenset(f.strip() for f in files.split(","))))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--book", type=Path, default=next((p for p in BOOK_CANDIDATES if p.is_dir()), None))
    parser.add_argument("--model", default=None, help="installed model id (default: the default model)")
    parser.add_argument("--models-dir", type=Path, default=None,
                        help="a data folder's models/ (default: this user's)")
    parser.add_argument("--questions", type=Path, action="append", default=None,
                        help="question file(s) (default: both sets)")
    parser.add_argument("--library", type=Path, default=None,
                        help="keep the built library here and reuse it (default: a temporary folder)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--weak", action="store_true",
                        help="also list the questions answered under the weak-matches notice")
    args = parser.parse_args()
    if args.book is None or not args.book.is_dir():
        parser.error("the book folder was not found; pass --book")
    questions = [q for path in (args.questions or QUESTIONS) for q in load_questions(path)]
    with tempfile.TemporaryDirectory(prefix="bench-rust-book-") as tmp:
        root = args.library or Path(tmp) / "lib"
        (root / CACHE_FILE).unlink(missing_ok=True)  # measure the calibration as this code does
        lib = Library(root, models_dir=args.models_dir, load_model=False)
        try:
            t0 = time.perf_counter()
            reused = bool(lib.list_documents())
            summary = ImportSummary(added=len(lib.list_documents()), fragments=sum(
                len(lib.list_fragments(d.id)) for d in lib.list_documents())) if reused \
                else lib.import_paths([args.book])
            lib.drain()
            model = args.model or lib.active_model_name()
            if model:
                lib.use_model(model).result()
                lib.drain()
            index_s = time.perf_counter() - t0
            doc_file = {d.id: Path(d.path).stem for d in lib.list_documents()}
            hits: dict[tuple[str, str], list[int | None]] = defaultdict(list)
            weak: dict[str, list[str]] = defaultdict(list)  # per mode: questions shown as weak
            modes = MODES if model else ("lexical",)
            for group, question, files in questions:
                for mode in modes:
                    response = lib.search(question, limit=10, mode=mode)
                    rank = next((r.rank for r in response.results
                                 if doc_file.get(r.document_id or -1) in files), None)
                    hits[(group, mode)].append(rank)
                    hits[("all", mode)].append(rank)
                    if response.weak_matches:
                        weak[mode].append(question)
        finally:
            lib.close()
    groups = list(dict.fromkeys([g for g, _, _ in questions] + ["all"]))
    table = {g: {m: {"n": len(hits[(g, m)]),
                     "r1": round(sum(r == 1 for r in hits[(g, m)]) / len(hits[(g, m)]), 3),
                     "r5": round(sum(r is not None and r <= 5 for r in hits[(g, m)])
                                 / len(hits[(g, m)]), 3)}
                 for m in modes} for g in groups}
    report = {"model": model, "documents": summary.added, "fragments": summary.fragments,
              "questions": len(questions), "index_s": round(index_s, 1), "groups": table}
    if args.weak:
        report["weak"] = {m: weak[m] for m in modes}
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return 0
    print(f"rust-book-cn: {summary.added} files, {summary.fragments} fragments, "
          f"{len(questions)} questions, model {model or 'none'} (indexed in {index_s:.0f} s)")
    print(f"{'group':<12}{'n':>4}  " + "  ".join(f"{m + ' R@1/R@5':>20}" for m in modes))
    for g in groups:
        cells = "  ".join(f"{table[g][m]['r1']:>12.3f} / {table[g][m]['r5']:.3f}" for m in modes)
        print(f"{g:<12}{table[g][modes[0]]['n']:>4}  {cells}")
    if args.weak:
        for m in modes:
            print(f"weak matches, {m}: {len(weak[m])}" + "".join(f"\n  {q}" for q in weak[m]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
