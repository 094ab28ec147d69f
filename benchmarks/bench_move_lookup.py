"""What looking a file up by its content costs an import into a large library (move detection).

Run from the repository root::

    .venv/bin/python benchmarks/bench_move_lookup.py [--documents 10000] [--files 300]

``save_document`` asks, for every file not yet at its path, whether a document
with the same content (sha256, format) lost its path (a rename or move,
``store.documents._moved_here``). Two copies of one store holding ``--documents``
documents, one without the ``documents_sha256`` index (as before schema 7), one
with it, take the same ``--files`` new files, alternately, one save each; the
figure is the median time of a save and the ratio between the two, measured in
this run. A save of a file already imported (unchanged) is shown too: it never
looks by content, so it is the floor.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from desktop_kb.importer.model import FragmentSpec  # noqa: E402
from desktop_kb.store.connection import open_store  # noqa: E402
from desktop_kb.store.documents import save_document  # noqa: E402
from desktop_kb.store.tx import transaction  # noqa: E402


def _fill(path: Path, documents: int) -> None:
    conn = open_store(path, backup_before_upgrade=False)
    with transaction(conn):
        for i in range(documents):
            text = f"第 {i} 篇笔记的内容 content of file {i}"
            cur = conn.execute(
                "INSERT INTO documents(path, format, sha256, title, imported_at) VALUES (?, ?, ?, ?, ?)",
                (f"/study/folder{i // 100}/file{i}.md", "md", f"{i:064x}", f"file {i}", 0.0))
            conn.execute("INSERT INTO fragments(document_id, ord, heading_path, text, start, end) "
                         "VALUES (?, 0, '', ?, 0, ?)", (cur.lastrowid, text, len(text)))
    conn.close()


def _save(conn, i: int, path: str) -> float:  # type: ignore[no-untyped-def]
    text = f"new file {i} 新文件"
    started = time.perf_counter()
    save_document(conn, path=path, fmt="md", sha256=f"{10**9 + i:064x}", title=f"new {i}",
                  specs=[FragmentSpec(0, "", text, 0, len(text))])
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--documents", type=int, default=10_000)
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        paths = {"without": root / "without" / "library.sqlite", "with": root / "with" / "library.sqlite"}
        for path in paths.values():
            _fill(path, args.documents)
        conns = {name: open_store(path, backup_before_upgrade=False) for name, path in paths.items()}
        conns["without"].execute("DROP INDEX IF EXISTS documents_sha256")
        new: dict[str, list[float]] = {name: [] for name in conns}
        again: dict[str, list[float]] = {name: [] for name in conns}
        for i in range(args.files):
            order = list(conns) if i % 2 == 0 else list(reversed(conns))
            for name in order:
                new[name].append(_save(conns[name], i, f"/study/new/file{i}.md"))
        for i in range(args.files):
            for name in conns:
                again[name].append(_save(conns[name], i, f"/study/new/file{i}.md"))
        for conn in conns.values():
            conn.close()
    ms = {name: statistics.median(v) * 1000 for name, v in new.items()}
    floor = {name: statistics.median(v) * 1000 for name, v in again.items()}
    report = {"documents": args.documents, "files": args.files,
              "new_file_ms": {"without_index": round(ms["without"], 3), "with_index": round(ms["with"], 3)},
              "unchanged_file_ms": {"without_index": round(floor["without"], 3),
                                    "with_index": round(floor["with"], 3)},
              "speedup": round(ms["without"] / ms["with"], 2)}
    if args.json:
        print(json.dumps(report))
        return
    print(f"{args.documents} documents, {args.files} new files, median per save:")
    print(f"  without the sha256 index {ms['without']:.2f} ms, with it {ms['with']:.2f} ms "
          f"({report['speedup']}x)")
    print(f"  an unchanged file (no lookup by content): {floor['without']:.2f} / {floor['with']:.2f} ms")


if __name__ == "__main__":
    main()
