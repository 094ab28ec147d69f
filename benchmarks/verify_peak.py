"""Peak memory of opening a library after an unclean exit (its verify) and one more verify.

Measured, never asserted. Run from a tree's root on a COPY of a library (the copy is marked
as left uncleanly, so opening it verifies; a ``bench_retrieval.py`` library of 10⁶ chunks
shows the difference)::

    .venv/bin/python benchmarks/verify_peak.py LIB_COPY [--models-dir DIR]

Prints the tree's code in use, the verify's drift, wall and CPU seconds, and VmRSS / VmHWM.
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
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO_ROOT))
    import desktop_kb
    from desktop_kb.library import Library
    from desktop_kb.paths import resolve_data_dir

    data_dir = Path(args.library)
    with sqlite3.connect(data_dir / "index.sqlite") as conn:  # as after a kill -9
        conn.execute("UPDATE kb_meta SET value = '0' WHERE key = 'owner_clean'")
    models_dir = Path(args.models_dir) if args.models_dir else resolve_data_dir() / "models"
    started, cpu = time.perf_counter(), time.process_time()
    with Library(data_dir, models_dir=models_dir) as lib:
        if lib.model_ready is not None:
            lib.model_ready.result()
        report = lib.verify(repair=False)
        print(json.dumps({"code": desktop_kb.__file__, "drift": report.drift,
                          "seconds": round(time.perf_counter() - started, 1),
                          "cpu_s": round(time.process_time() - cpu, 1), **status_mb()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
