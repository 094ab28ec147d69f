"""Peak memory of opening a library after an unclean exit (its verify) and one more verify,
or (``--refresh-words N``) of the writer filling the N most common words' postings again.

Measured, never asserted. Run from a tree's root on a COPY of a library (the copy is marked
as left uncleanly, so opening it verifies; a ``bench_retrieval.py`` library of 10⁶ chunks
shows the difference)::

    .venv/bin/python benchmarks/verify_peak.py LIB_COPY [--models-dir DIR] [--refresh-words 200]

Prints the tree's code in use, the verify's drift (or the refill's words and seconds), wall
and CPU seconds, and VmRSS / VmHWM (with ``--refresh-words``, VmHWM counts from the library's
ready state: ``/proc/self/clear_refs``).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent


def status_mb() -> dict[str, int]:
    with open("/proc/self/status", encoding="ascii") as fh:
        return {k: int(v.split()[0]) // 1024 for k, _, v in (line.partition(":") for line in fh)
                if k in ("VmRSS", "VmHWM")}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("library", help="a COPY of a data folder")
    parser.add_argument("--models-dir", default=None)
    parser.add_argument("--refresh-words", type=int, default=0)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO_ROOT))
    import desktop_kb
    from desktop_kb.library import Library
    from desktop_kb.paths import resolve_data_dir

    data_dir = Path(args.library)
    with sqlite3.connect(data_dir / "index.sqlite") as conn:
        if args.refresh_words:
            words = [(t,) for (t,) in conn.execute(
                "SELECT term FROM kb_df WHERE doc >= 256 ORDER BY doc DESC LIMIT ?", (args.refresh_words,))]
            conn.executemany("DELETE FROM kb_post WHERE term = ?", words)
            conn.executemany("INSERT OR IGNORE INTO kb_post_todo(term) VALUES (?)", words)
        else:  # as after a kill -9
            conn.execute("UPDATE kb_meta SET value = '0' WHERE key = 'owner_clean'")
    models_dir = Path(args.models_dir) if args.models_dir else resolve_data_dir() / "models"
    started, cpu = time.perf_counter(), time.process_time()
    with Library(data_dir, models_dir=models_dir) as lib:
        if lib.model_ready is not None:
            lib.model_ready.result()
        if args.refresh_words:
            with open("/proc/self/clear_refs", "w", encoding="ascii") as fh:
                fh.write("5")  # VmHWM from here
            began = time.perf_counter()
            with sqlite3.connect(f"file:{data_dir / 'index.sqlite'}?mode=ro", uri=True) as conn:
                while conn.execute("SELECT 1 FROM kb_post_todo LIMIT 1").fetchone():
                    time.sleep(0.5)
            print(json.dumps({"code": desktop_kb.__file__, "refilled_words": args.refresh_words,
                              "refill_s": round(time.perf_counter() - began, 1), **status_mb()}))
            return 0
        report = lib.verify(repair=False)
        print(json.dumps({"code": desktop_kb.__file__, "drift": report.drift,
                          "seconds": round(time.perf_counter() - started, 1),
                          "cpu_s": round(time.process_time() - cpu, 1), **status_mb()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
