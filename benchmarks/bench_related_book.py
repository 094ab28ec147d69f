"""Related material for a learner's notes beside the Rust book.

Each note of ``benchmarks/data/related_book_notes.tsv`` (a title that names its topic and a
sentence or two in the learner's words) is added to a copy of an already indexed book
library, and the panel's suggestions are read as the app makes them (``Library.related``,
floor on, 8 shown). Reported per set (``tune``: what the rules were looked at on; ``held``:
only measured) and per model (``none`` = keywords only): hit@1 and hit@3 (a passage of one
of the note's chapter files among the first 1 / 3 library passages suggested), how many notes
get no passage at all, and how many notes' first suggestion is a passage of another chapter.

    nice -n 10 .venv/bin/python benchmarks/bench_related_book.py --models-dir /work/data/models \\
        --book /work/data/book [--model use-multilingual|multilingual-e5-small|none ...]

``--book`` holds one indexed copy of the book per model (``BOOK/MODEL``, as
``fusion_data.build_book`` leaves it); it is copied to a temporary folder, never written.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from desktop_kb.library import Library  # noqa: E402

NOTES = ROOT / "benchmarks" / "data" / "related_book_notes.tsv"
SHOWN = 8


def load_notes(path: Path = NOTES, split: bool = False) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """``split``: the held notes in two alternate halves, held-a and held-b (fit on one, report
    the other, and the reverse)."""
    rows = []
    held = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        group, title, body, targets = line.split("\t")
        if split and group == "held":
            group = "held-" + "ab"[held % 2]
            held += 1
        rows.append((group, title, body.replace("\\n", "\n"), tuple(targets.split(","))))
    return rows


def measure(book: Path, models_dir: Path, model: str, verbose: bool,
            notes_files: list[Path] | None = None, split: bool = False) -> dict[str, list[int]]:
    """Per set: [notes, hit@1, hit@3, no passage, first passage off topic]."""
    source = book / (model if model != "none" else "use-multilingual")
    with tempfile.TemporaryDirectory(prefix="related-book-") as tmp:
        root = Path(tmp) / "lib"
        shutil.copytree(source, root, ignore=shutil.ignore_patterns("*.lock"))
        lib = Library(root, models_dir=models_dir)
        try:
            if model == "none":
                lib.use_model(None).result()
            lib.drain()
            stems = {d.id: Path(d.path).name for d in lib.list_documents()}
            notes = [row for path in (notes_files or [NOTES]) for row in load_notes(path, split)]
            ids = [lib.add_note(title, body) for _, title, body, _ in notes]
            lib.drain()
            totals: dict[str, list[int]] = {}
            for (group, title, _body, targets), note_id in zip(notes, ids, strict=True):
                got = lib.related(note_id, limit=SHOWN).suggestions
                files = [stems.get(s.document_id or -1, "") for s in got if s.target_type == "fragment"]
                on = [any(f.startswith(t) for t in targets) for f in files]
                row = totals.setdefault(group, [0, 0, 0, 0, 0])
                row[0] += 1
                row[1] += int(any(on[:1]))
                row[2] += int(any(on[:3]))
                row[3] += int(not files)
                row[4] += int(bool(on) and not on[0])
                if verbose:
                    print(f"  [{group}] {title}: " + " | ".join(
                        f"{'+' if o else '-'}{s.title[:24]} ({','.join(s.terms[:3])})"
                        for s, o in zip([s for s in got if s.target_type == "fragment"][:3], on, strict=False)))
        finally:
            lib.close()
    return totals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models-dir", type=Path, required=True)
    parser.add_argument("--book", type=Path, required=True, help="folder of indexed book copies, one per model")
    parser.add_argument("--model", action="append", help="model id or none (default: none and every copy)")
    parser.add_argument("--notes", type=Path, action="append",
                        help="notes file (default benchmarks/data/related_book_notes.tsv; "
                             "benchmarks/data/related_book_notes_en.tsv: English notes beside the Chinese book)")
    parser.add_argument("--split", action="store_true", help="report the held notes as two alternate halves")
    parser.add_argument("-v", "--verbose", action="store_true", help="the first three passages of each note")
    args = parser.parse_args()
    models = args.model or ["none", *sorted(p.name for p in args.book.iterdir() if p.is_dir())]
    print(f"{'model':24} {'set':5} {'notes':>5} {'hit@1':>6} {'hit@3':>6} {'none':>5} {'off@1':>6}")
    for model in models:
        for group, (n, h1, h3, empty, off) in sorted(measure(args.book, args.models_dir, model, args.verbose,
                                                               args.notes, args.split).items(), reverse=True):
            print(f"{model:24} {group:5} {n:5d} {h1:6d} {h3:6d} {empty:5d} {off:6d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
