"""How many related suggestions a person sees when the library holds copies of the same files.

A learner's folders often hold the same chapter twice (a backup, an older
download, a lightly edited copy). This imports the Rust book in Chinese three
times — as is, as a second copy, and with 1 in 5 files lightly edited — writes
notes that quote a paragraph of it in the person's own frame, and counts per
note:

* suggestions scored (the panel before grouping showed each of them),
* cards the panel shows now (copies of one passage grouped),
* whether a copy of a dismissed passage comes back: before, a dismissal
  covered one row; now it covers the passage.

    python benchmarks/bench_related_copies.py [--book DIR] [--notes 40]

The data is held out: nothing in discovery/near_duplicates.py was fitted to it.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from desktop_kb.discovery.grouping import group_suggestions  # noqa: E402
from desktop_kb.discovery.panel import _shingles  # noqa: E402
from desktop_kb.library import Library  # noqa: E402
from desktop_kb.text.han import has_han, is_han  # noqa: E402

BOOK = Path("/work/shared/corpora/rust-book-cn/src")


def _edit(text: str, rng: random.Random) -> str:
    chars = list(text)
    for _ in range(max(3, len(chars) // 400)):
        i = rng.randrange(len(chars))
        if is_han(chars[i]):
            chars[i] = rng.choice("的了是在和")
    return "".join(chars)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--book", type=Path, default=BOOK)
    parser.add_argument("--notes", type=int, default=40)
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="bench-copies-") as tmp:
        root = Path(tmp) / "study"
        files = sorted(args.book.glob("*.md"))
        for folder, edited in (("course", False), ("backup", False), ("old-download", True)):
            (root / folder).mkdir(parents=True)
            for path in files:
                text = path.read_text(encoding="utf-8")
                if edited and rng.random() < 0.2:
                    text = _edit(text, rng)
                (root / folder / path.name).write_text(text, encoding="utf-8")
        paragraphs = [p for f in files for p in re.split(r"\n\s*\n", f.read_text(encoding="utf-8"))
                      if len(p) > 150 and not p.lstrip().startswith(("```", "#", "<", "|", "["))
                      and has_han(p)]
        picked = rng.sample(paragraphs, min(args.notes, len(paragraphs)))
        started = time.perf_counter()
        lib = Library(Path(tmp) / "library", load_model=False)
        try:
            lib.import_paths([root])
            notes = [lib.add_note(f"摘录 {i}", f"{p}\n\n我的理解：这一段要多读两遍。") for i, p in enumerate(picked)]
            lib.drain()
            setup_s = time.perf_counter() - started
            scored, distinct, cards, sizes, came_back_before, came_back_after = [], [], [], [], 0, 0
            for note_id in notes:
                view = lib.related_material(note_id)
                top = (view.scored.suggestions if view.scored else [])[:8]  # what the old panel showed
                scored.append(len(top))
                texts = _shingles(lib.store_reader, [s.key for s in top])
                distinct.append(len(group_suggestions(top, texts)))
                cards.append(len(view.groups))
                sizes += [len(g.members) for g in view.groups]
                if view.groups and len(view.groups[0].members) > 1:
                    lead = view.groups[0].lead
                    lib.dismiss(note_id, lead.target_type, lead.target_id)  # what one ✕ did before
                    before = {s.key for s in lib.related(note_id).suggestions}
                    came_back_before += any(c.key in before for c in view.groups[0].copies)
                    after = {k for g in lib.related_material(note_id).groups for k in g.keys}
                    came_back_after += any(c.key in after for c in view.groups[0].copies)
        finally:
            lib.close()
            shutil.rmtree(root, ignore_errors=True)
    n = len(scored)
    with_copies = sum(1 for s in sizes if s > 1)
    print(f"notes {n}, files {len(files)} x 3 copies, setup {setup_s:.0f} s (machine shared; see report)")
    print(f"before: rows per note {statistics.mean(scored):.2f}, of which distinct passages "
          f"{statistics.mean(distinct):.2f} (the rest were copies)")
    print(f"after:  cards per note {statistics.mean(cards):.2f}, each a distinct passage")
    print(f"cards holding more than one copy: {with_copies} of {len(sizes)}; "
          f"mean copies per card {statistics.mean(sizes):.2f}")
    print(f"a copy of the dismissed passage came back: before {came_back_before}, after {came_back_after} "
          f"(of the notes whose top card had copies)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
