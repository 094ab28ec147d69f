"""Chunk noise: how many index chunks of a real book are nothing but markup.

The Chinese Rust book (an mdBook) is imported as a learner would (the whole
folder, through ``Library.import_paths``, keywords only: chunking does not
depend on the model) and every index chunk is read back against its fragment.
A chunk that is only link-reference definitions, ``{{#include}}`` directives or
bare code fences (``text.markup_only``) is noise: it answers nothing yet crowds
dense results.

    .venv/bin/python benchmarks/bench_chunk_noise.py [--book DIR] [--show N]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from desktop_kb.library import Library  # noqa: E402
from desktop_kb.text.markup_only import is_markup_only  # noqa: E402

BOOK = Path("/work/shared/corpora/rust-book-cn")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--book", type=Path, default=BOOK)
    parser.add_argument("--show", type=int, default=0, help="print the first N noise chunks")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-chunk-noise-") as tmp:
        lib = Library(Path(tmp) / "lib", load_model=False)
        try:
            lib.import_paths([args.book])
            lib.drain()
            texts = {f.id: f.text for d in lib.list_documents() for f in lib.list_fragments(d.id)}
            rows = lib.index_reader.execute(
                "SELECT source_id, start, end FROM kb_chunks WHERE source_type = 'fragment'").fetchall()
            chunks = [texts[sid][a:b] for sid, a, b in rows if sid in texts]
        finally:
            lib.close()
    noise = [c for c in chunks if is_markup_only(c)]
    print(f"{args.book.name}: {len(texts)} fragments, {len(chunks)} chunks, "
          f"{len(noise)} markup-only ({len(noise) / max(1, len(chunks)):.2%})")
    for c in noise[:args.show]:
        print("---", c[:200])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
