"""This tree's search against another tree's, question by question: measured, never asserted.

Run from the repository root::

    git archive main | tar -x -C /tmp/main-tree
    .venv/bin/python benchmarks/bench_against.py --other /tmp/main-tree \\
        --library LIB --other-library LIB_COPY [--models-dir DIR] [--queries 300] [--passes 2]

Two child processes, one per tree (``PYTHONPATH``), each opens its own copy of a
library (``bench_retrieval.py`` caches them under ``/tmp/desktop-kb-bench``; two copies,
so neither process follows the other's index writer) with the model loaded, the way the
benchmark's memory probe does. Each real question (``retrieval_corpus.load_queries``) is
asked of both in turn, the first of each pair alternating, so load on the shared
machine hits both alike: reported are each side's CPU time per search (its own process,
all threads) and wall time (the load on the machine is in it) at p50 / p99 and their ratios, each side's resident memory after the
questions, and whether the top 10 (chunk ids, scores, snippets) are the same for every question.
Each side waits until its index writer has filled the common words' postings it has queued
before the first question. ``--questions`` asks the questions of TSV files instead (the Rust
book's sets with a Rust book library).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, sys, time
from pathlib import Path
from desktop_kb.library import Library

lib = Library(Path(sys.argv[1]), models_dir=Path(sys.argv[2]))
lib.model_ready.result()
# Until the writer has no common words' postings left to fill: its work would count in the
# searches' CPU time (a library just built, or one this tree stores more postings for).
while lib.index_reader.execute("SELECT 1 FROM kb_post_todo LIMIT 1").fetchone():
    time.sleep(1)
import desktop_kb
print(json.dumps({"ready": desktop_kb.__file__}), flush=True)
for line in sys.stdin:
    request = json.loads(line)
    if request is None:
        break
    started, clock = time.process_time(), time.perf_counter()
    found = lib.search(request["q"], limit=10, mode=request["mode"])
    cpu, wall = time.process_time() - started, time.perf_counter() - clock
    top = [[r.chunk_id, round(r.score, 6), r.snippet] for r in found.results]
    print(json.dumps({"cpu": cpu, "wall": wall, "top": top}), flush=True)
with open("/proc/self/status") as fh:
    rss = {k: float(v.split()[0]) / 1024 for k, _, v in (line.partition(":") for line in fh)
           if k in ("VmRSS", "VmHWM")}
lib.close()
print(json.dumps(rss), flush=True)
"""


def _child(tree: Path, library: Path, models_dir: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(library), str(models_dir)], cwd=tree,
                            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    ready = json.loads(proc.stdout.readline())["ready"]
    assert Path(ready).resolve().is_relative_to(tree.resolve()), ready  # that tree's code runs
    return proc


def _ask(proc: subprocess.Popen[str], request: Any) -> Any:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(request, ensure_ascii=False) + "\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--other", required=True, help="the other tree (a checkout of main)")
    parser.add_argument("--library", required=True, help="data folder this tree searches")
    parser.add_argument("--other-library", required=True, help="a copy of it for the other tree")
    parser.add_argument("--models-dir", default=None)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--mode", default="hybrid")
    parser.add_argument("--dump", default=None, help="write both sides' top 10 per question here (JSON)")
    parser.add_argument("--questions", nargs="*", default=None,
                        help="TSV files of (group, question, …) to ask instead of the benchmark's questions "
                             "(benchmarks/data/rust_book_questions*.tsv with a Rust book library)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
    sys.path.insert(0, str(REPO_ROOT))
    import retrieval_corpus as rc

    from desktop_kb.paths import resolve_data_dir

    models_dir = Path(args.models_dir) if args.models_dir else resolve_data_dir() / "models"
    if args.questions:
        queries = [line.split("\t")[1] for path in args.questions
                   for line in Path(path).read_text(encoding="utf-8").splitlines()
                   if line.strip() and not line.startswith("#") and "\t" in line][:args.queries]
    else:
        queries = rc.load_queries(rc.find_shared())[:args.queries]
    load_start = os.getloadavg()
    sides = {"this": _child(REPO_ROOT, Path(args.library), models_dir),
             "other": _child(Path(args.other), Path(args.other_library), models_dir)}
    cpu: dict[str, list[float]] = {"this": [], "other": []}
    wall: dict[str, list[float]] = {"this": [], "other": []}
    tops: dict[str, list[Any]] = {"this": [], "other": []}
    for name in sides:  # warm-up: the first question of each process loads its tables
        for q in queries[:20]:
            _ask(sides[name], {"q": q, "mode": args.mode})
    started = time.perf_counter()
    for p in range(args.passes):
        for i, q in enumerate(queries):
            order = ("this", "other") if (i + p) % 2 == 0 else ("other", "this")
            for name in order:
                answer = _ask(sides[name], {"q": q, "mode": args.mode})
                cpu[name].append(answer["cpu"])
                wall[name].append(answer["wall"])
                if p == 0:
                    tops[name].append(answer["top"])
    memory = {name: _ask(proc, None) for name, proc in sides.items()}
    for proc in sides.values():
        proc.wait(timeout=120)
    same = sum(a == b for a, b in zip(tops["this"], tops["other"], strict=True))
    out = {"queries": len(queries), "passes": args.passes, "mode": args.mode,
           "load": [round(x, 2) for x in load_start], "load_end": [round(x, 2) for x in os.getloadavg()],
           "seconds": round(time.perf_counter() - started, 1), "same_top10": same,
           "differ": [queries[i] for i, (a, b) in enumerate(zip(tops["this"], tops["other"], strict=True))
                      if a != b][:20],
           "memory_mb": memory}
    for name in sides:
        out[name] = {"cpu_p50_ms": round(_pct(cpu[name], 50) * 1000, 3),
                     "cpu_p99_ms": round(_pct(cpu[name], 99) * 1000, 3),
                     "cpu_mean_ms": round(statistics.mean(cpu[name]) * 1000, 3),
                     "wall_p50_ms": round(_pct(wall[name], 50) * 1000, 3),
                     "wall_p99_ms": round(_pct(wall[name], 99) * 1000, 3)}
    out["ratio_p50"] = round(out["this"]["cpu_p50_ms"] / out["other"]["cpu_p50_ms"], 3)
    out["ratio_p99"] = round(out["this"]["cpu_p99_ms"] / out["other"]["cpu_p99_ms"], 3)
    # Each question asked of both in turn: the median of its two CPU times' ratio drifts less with
    # the load than the ratio of two percentiles does.
    out["paired_cpu_ratio_median"] = round(statistics.median(
        a / b for a, b in zip(cpu["this"], cpu["other"], strict=True) if a > 0 and b > 0), 3)
    out["wall_ratio_p50"] = round(out["this"]["wall_p50_ms"] / out["other"]["wall_p50_ms"], 3)
    out["wall_ratio_p99"] = round(out["this"]["wall_p99_ms"] / out["other"]["wall_p99_ms"], 3)
    if args.dump:
        Path(args.dump).write_text(json.dumps({"queries": queries, **tops}, ensure_ascii=False))
    print(json.dumps(out, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
