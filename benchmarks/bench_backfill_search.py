"""The first search after opening a large library, and searching while it backfills. Measured, never asserted.

Run from the repository root (the model must be installed)::

    .venv/bin/python benchmarks/bench_backfill_search.py [--size 100000] [--seconds 420]
        [--role app] [--models-dir DIR] [--json]

The library is ``bench_retrieval.py``'s (``retrieval_at_scale.cached_library``: real
sentences recombined into ``--size`` chunks, cached under ``--cache``; built once, about
2 minutes at 10⁵). Two figures, each in a fresh process as the app would be:

1. **First search after opening**: the library's files are dropped from the page cache
   (``POSIX_FADV_DONTNEED``), the library is opened with ``--role`` (``app`` warms up
   on a thread of its own once the model is in use; ``cli`` does not), and once the model
   (and the app's warm-up) is ready one hybrid search is timed, then a second.
2. **Searching during a backfill**: a copy of the library without its vectors
   (``kb_vectors`` emptied, ``index.sqlite.vectors`` removed) is opened, so the model
   embeds every chunk again; for ``--seconds`` the index status is read every second (as
   the window does), a hybrid search runs every 5 s, and VmRSS is sampled. Reported: the
   searches' wall times (median, and each one over 2 s with the chunks embedded by then:
   the first search of a new size band measured the model again) and VmRSS (min /
   median / max after the first minute) against the library's size.

The machine is shared: compare runs of two versions made one after the other, with the
load averages printed beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import retrieval_at_scale as scale
import retrieval_corpus as rc
from measure import proc_memory

REPO_ROOT = Path(__file__).resolve().parent.parent
MODEL = "use-multilingual"
SEARCH_EVERY_S = 5.0


def drop_from_page_cache(folder: Path) -> None:
    for path in folder.iterdir():
        if path.is_file():
            fd = os.open(path, os.O_RDONLY)
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)


def first_search(data_dir: Path, models_dir: Path, role: str, queries: list[str]) -> dict[str, Any]:
    from desktop_kb.library import Library

    drop_from_page_cache(data_dir)
    t = time.perf_counter()
    with Library(data_dir, models_dir=models_dir, role=role) as lib:
        assert lib.model_ready is not None
        lib.model_ready.result()
        warmed = getattr(lib, "warmed", None)  # None before the app's warm-up existed
        if warmed is not None:
            warmed.result()
        ready = time.perf_counter() - t
        out: dict[str, Any] = {"role": role, "open_to_ready_s": round(ready, 2)}
        for label, query in (("first", queries[0]), ("second", queries[1])):
            t, c = time.perf_counter(), time.process_time()
            lib.search(query, limit=10, mode="hybrid")
            out[f"{label}_wall_s"] = round(time.perf_counter() - t, 3)
            out[f"{label}_cpu_s"] = round(time.process_time() - c, 3)
        out["rss_mb"] = proc_memory().get("VmRSS")
    return out


def during_backfill(source: Path, work: Path, models_dir: Path, role: str, queries: list[str],
                    seconds: float) -> dict[str, Any]:
    from desktop_kb.library import Library

    shutil.copytree(source, work)
    conn = sqlite3.connect(work / "index.sqlite")
    conn.execute("DELETE FROM kb_vectors")
    conn.commit()
    conn.close()
    (work / "index.sqlite.vectors").unlink(missing_ok=True)
    samples: list[dict[str, Any]] = []
    searches: list[tuple[float, int, float]] = []
    t0 = time.perf_counter()
    with Library(work, models_dir=models_dir, role=role) as lib:
        last = -SEARCH_EVERY_S
        while (now := time.perf_counter() - t0) < seconds:
            lib.index_status()
            if now - last >= SEARCH_EVERY_S:
                last = now
                t = time.perf_counter()
                lib.search(queries[len(searches) % len(queries)], limit=10, mode="hybrid")
                searches.append((round(now, 1), len(lib.dense), round(time.perf_counter() - t, 3)))
            samples.append({"t": round(now, 1), "embedded": len(lib.dense), **proc_memory()})
            time.sleep(1.0)
    rss = [s["VmRSS"] for s in samples if s["t"] >= 60]
    walls = [w for _, _, w in searches]
    return {
        "role": role, "seconds": seconds, "embedded": samples[-1]["embedded"] if samples else 0,
        "searches": len(searches), "search_median_s": round(statistics.median(walls), 3) if walls else None,
        "searches_over_2s": [{"t": t, "embedded": n, "wall_s": w} for t, n, w in searches if w > 2.0],
        "rss_mb_after_60s": {"min": min(rss), "median": statistics.median(rss), "max": max(rss)} if rss else None,
        "peak_mb": samples[-1].get("VmHWM") if samples else None,
    }


def child_main(args: argparse.Namespace) -> int:
    """One figure in this (fresh) process; the parent reads its JSON."""
    queries = json.loads(sys.stdin.read())
    if args.child == "first":
        out = first_search(Path(args.library), Path(args.models_dir), args.role, queries)
    else:
        out = during_backfill(Path(args.library), Path(args.work), Path(args.models_dir), args.role,
                              queries, args.seconds)
    print(json.dumps(out))
    return 0


def run_child(kind: str, library: Path, models_dir: Path, role: str, queries: list[str],
              seconds: float, work: Path | None = None) -> dict[str, Any]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", kind, "--library", str(library),
           "--models-dir", str(models_dir), "--role", role, "--seconds", str(seconds)]
    if work is not None:
        cmd += ["--work", str(work)]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.run(cmd, input=json.dumps(queries, ensure_ascii=False), capture_output=True,
                          text=True, env=env, check=False, timeout=seconds + 3600)
    if proc.returncode != 0:
        return {"error": proc.stderr.strip()[-800:]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--seconds", type=float, default=420.0,
                        help="how long to search during the backfill (0: skip that part)")
    parser.add_argument("--role", default="app", choices=("app", "cli"))
    parser.add_argument("--models-dir", default=None)
    parser.add_argument("--model", default=MODEL)
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--cache", default="/tmp/desktop-kb-bench")
    parser.add_argument("--shared", default=None)
    parser.add_argument("--tmp", default=None, help="parent folder for the backfill copy")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--library", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--work", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child_main(args)
    from desktop_kb.paths import resolve_data_dir

    models_dir = (Path(args.models_dir).expanduser().resolve() if args.models_dir
                  else resolve_data_dir() / "models")
    shared = Path(args.shared).expanduser() if args.shared else rc.find_shared()
    library = scale.prepared_library(args.size, shared=shared, cache_root=Path(args.cache),
                                     models_dir=models_dir, model=args.model, seed=args.seed)
    queries = rc.load_queries(shared)[:200]
    res: dict[str, Any] = {"size": args.size, "library": str(library), "loadavg_start": os.getloadavg()}
    res["first_search"] = run_child("first", library, models_dir, args.role, queries, 0)
    if args.seconds > 0:  # 0: the first search only (a 10⁶ library's copy takes 10 GB)
        with tempfile.TemporaryDirectory(prefix="kb-bench-backfill-", dir=args.tmp) as tmp:
            res["during_backfill"] = run_child("backfill", library, models_dir, args.role, queries,
                                               args.seconds, Path(tmp) / "library")
    res["loadavg_end"] = os.getloadavg()
    if args.json:
        print(json.dumps(res, ensure_ascii=False, indent=2))
    else:
        print(f"{args.size:,} chunks, role {args.role}; load {res['loadavg_start']} -> {res['loadavg_end']}")
        print(f"first search after opening (pages dropped): {res['first_search']}")
        if "during_backfill" in res:
            print(f"during a backfill: {res['during_backfill']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
