"""Keyword hits while the library's own words are re-cut (``index/library_words.py``).

A copy of an indexed library written before the library's words existed (as the Rust book in
``/work/data/book_MODEL`` is) is opened by this code; its writer is held after 1 and 3 re-cut
turns (20 sources each) and then let finish. For each query, the passages holding the query
text that keyword search finds are compared with those it found before the words changed;
"lost" counts those it found before and misses now.

    nice -n 10 .venv/bin/python benchmarks/bench_recut_hits.py --book /work/data/book_use-multilingual

Queries: the library's words and each with its most frequent neighbouring characters in the book.
"""

from __future__ import annotations

import argparse
import collections
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from desktop_kb.index import apply, library_words  # noqa: E402
from desktop_kb.library import Library  # noqa: E402
from desktop_kb.retrieval.lexical import lexical_search  # noqa: E402


def queries(lib: Library) -> list[str]:
    words = sorted(library_words.compute(lib.index_reader, lib.store_reader))
    text = "\n".join(t for (t,) in lib.store_reader.execute("SELECT text FROM fragments"))
    out = list(words)
    for word in words:
        near = collections.Counter(m.group() for m in re.finditer(r"[\u4e00-\u9fff]" + re.escape(word), text))
        near.update(m.group() for m in re.finditer(re.escape(word) + r"[\u4e00-\u9fff]", text))
        out += [k for k, _ in near.most_common(3)]
    return out


def found(lib: Library, asked: list[str]) -> dict[str, set[int]]:
    index, store = lib.index_reader, lib.store_reader
    texts = {}
    for cid, kind, sid, start, end in index.execute("SELECT id, source_type, source_id, start, end FROM kb_chunks"):
        if kind == "fragment":
            row = store.execute("SELECT text FROM fragments WHERE id = ?", (sid,)).fetchone()
            texts[cid] = row[0][start:end] if row else ""
    return {q: {c for c, _ in lexical_search(index, q, limit=2000)} & {c for c, t in texts.items() if q in t}
            for q in asked}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--book", type=Path, required=True, help="an indexed library (copied, never written)")
    parser.add_argument("--models-dir", type=Path, default=Path("/work/data/models"))
    args = parser.parse_args()
    apply.RECUT_BATCH = 20
    turns = {"done": 0, "allowed": 0}
    refresh = apply.Applier.refresh_library_words

    def held(self: apply.Applier) -> bool:
        if turns["done"] >= turns["allowed"]:
            self.library_words_due = False
            return False
        done = refresh(self)
        turns["done"] += 1
        return done

    apply.Applier.refresh_library_words = held  # type: ignore[method-assign]
    with tempfile.TemporaryDirectory(prefix="recut-hits-") as tmp:
        root = Path(tmp) / "lib"
        shutil.copytree(args.book, root, ignore=shutil.ignore_patterns("*.lock"))
        lib = Library(root, models_dir=args.models_dir)
        try:
            lib.drain(300, backfill=False)
            if library_words.stored(lib.index_reader) is not None:
                print("this library has its words already: nothing to measure", file=sys.stderr)
                return 2
            asked = queries(lib)
            stages = {"before": found(lib, asked)}
            for stage, allowed in (("1 turn", 1), ("3 turns", 3), ("all", 10**6)):
                turns["allowed"] = allowed
                lib.worker._applier().library_words_due = True
                while turns["done"] < allowed and lib.worker._applier().library_words_due:
                    lib.drain(300, backfill=False)
                    time.sleep(0.5)
                stages[stage] = found(lib, asked)
        finally:
            lib.close()
    before = stages["before"]
    print(f"{len(asked)} queries")
    print(f"{'stage':8} {'found':>7} {'lost':>5} {'queries losing':>15}")
    for stage, hits in stages.items():
        lost = {q: before[q] - hits[q] for q in asked if before[q] - hits[q]}
        print(f"{stage:8} {sum(len(h) for h in hits.values()):7d} {sum(len(v) for v in lost.values()):5d} "
              f"{len(lost):15d}  {' '.join(f'{q}-{len(v)}' for q, v in sorted(lost.items(), key=lambda kv: -len(kv[1]))[:6])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
