"""How soon an import in the app is searchable by its words, with a slow embedding model.

Run from the repository root (the model must be installed)::

    .venv/bin/python benchmarks/bench_import_keywords_first.py [--model multilingual-e5-small]
        --models-dir DIR --book RUST_BOOK/src [--files 12] [--json]

The first ``--files`` chapters of the book are imported twice into new libraries, each
owned by the process that imports (as the app owns its index):

* ``app``: the app's import as it is now: words first, vectors by the backfill after it;
* ``inline`` (baseline, the same run): an owner that embeds each batch before writing it,
  which is what the app did before and what a ``desktop-kb import`` that owns the index does.

Reported, median of ``--repeat`` runs of each (alternating, so neither always runs warm): seconds from the start of the import until every file's words are
searchable (``drain(backfill=False)``), until every chunk has its vector (``drain()``), and
the ratio of the first against the baseline's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def run(role: str, book: Path, files: int, models_dir: Path, model: str) -> dict[str, float]:
    from desktop_kb.library import Library

    chapters = sorted(book.glob("ch*.md"))[:files]
    assert chapters, book
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "book"
        folder.mkdir()
        for path in chapters:
            (folder / path.name).write_bytes(path.read_bytes())
        with Library(Path(tmp) / "lib", models_dir=models_dir, load_model=False, role=role) as lib:
            lib.use_model(model).result()
            started = time.monotonic()
            summary = lib.import_paths([folder])
            assert lib.drain(3600, backfill=False)
            words = time.monotonic() - started
            chunks = lib.index_status().chunks
            assert lib.drain(3600)
            vectors = time.monotonic() - started
            status = lib.index_status()
            assert status.state == "ok", status
    return {"files": summary.added, "chunks": chunks, "words_s": round(words, 2),
            "vectors_s": round(vectors, 2)}


def _median(runs: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(r[key] for r in runs) for key in runs[0]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="multilingual-e5-small")
    parser.add_argument("--models-dir", type=Path, required=True, help="where the model is installed")
    parser.add_argument("--book", type=Path, required=True, help="a folder of Markdown chapters")
    parser.add_argument("--files", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=2, help="runs of each, alternating")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    runs: dict[str, list[dict[str, float]]] = {"app": [], "inline": []}
    for i in range(args.repeat):  # alternating, the baseline first every other time
        order = ("app", "inline") if i % 2 else ("inline", "app")
        for name in order:
            runs[name].append(run("app" if name == "app" else "cli", args.book, args.files,
                                  args.models_dir, args.model))
            print(name, runs[name][-1], file=sys.stderr, flush=True)
    app, inline = (_median(runs["app"]), _median(runs["inline"]))
    result = {"model": args.model, "app": app, "inline": inline,
              "words_ratio": round(app["words_s"] / inline["words_s"], 3)}
    print(json.dumps(result, ensure_ascii=False) if args.json else
          f"{args.model}, {app['files']} files, {app['chunks']} chunks\n"
          f"  words searchable: app {app['words_s']} s, inline baseline {inline['words_s']} s "
          f"(ratio {result['words_ratio']})\n"
          f"  every vector:     app {app['vectors_s']} s, inline baseline {inline['vectors_s']} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
