"""Where a hybrid search's time goes: CPU time and read system calls per stage. Measured, never asserted.

Run from the repository root (a library built by ``bench_retrieval.py``, copied first: opening
it takes the index writer)::

    .venv/bin/python benchmarks/profile_search.py LIB [--models-dir DIR] [--queries 300]
        [--mode hybrid] [--reads]

Each stage of ``Library.search`` is wrapped where its caller looks it up, and its thread CPU time
(``time.thread_time``: the dense side runs on a helper thread, so its stages count that thread's
time) is summed over real questions (``retrieval_corpus.load_queries``) after 30 of warm-up;
the figures are inclusive (a stage's time holds its inner stages'). ``--reads`` counts read
system calls instead (``/proc/self/io`` syscr, every thread; each inner stage's probes add about
two), with
the dense side on the calling thread so each call is counted in its own stage: on a machine
that pays microseconds per system call, page and slot reads are a share of the time that a
profiler of Python calls does not show. No profiler runs, so the shares are those of a plain run.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent

#: (module where the caller looks the name up, name): inclusive stages of one search.
STAGES = [
    ("desktop_kb.library", "search_with_tags"),
    ("desktop_kb.retrieval.search", "rank_chunks"),
    ("desktop_kb.retrieval.search", "analyse_query"),
    ("desktop_kb.retrieval.search", "in_library_words"),
    ("desktop_kb.retrieval.search", "gather_concurrently"),
    ("desktop_kb.retrieval.candidates", "lexical_search"),
    ("desktop_kb.retrieval.lexical", "word_rows"),
    ("desktop_kb.retrieval.lexical", "_gram_hits"),
    ("desktop_kb.retrieval.lexical", "part_discounted"),
    ("desktop_kb.retrieval.candidates", "_coverage"),
    ("desktop_kb.retrieval.candidates", "dense_side"),
    ("desktop_kb.retrieval.candidates", "embed_query"),
    ("desktop_kb.retrieval.dense", "DenseIndex.search"),
    ("desktop_kb.retrieval.dense", "hamming"),
    ("desktop_kb.retrieval.dense", "DenseIndex._vectors"),
    ("desktop_kb.retrieval.candidates", "_assemble"),
    ("desktop_kb.retrieval.search", "held_terms"),
    ("desktop_kb.retrieval.search", "keyword_reading"),
    ("desktop_kb.retrieval.search", "chunk_refs"),
    ("desktop_kb.retrieval.search", "_read_cosines"),
    ("desktop_kb.retrieval.script_levels", "chunk_weights"),
    ("desktop_kb.retrieval.search", "without_language_pull"),
    ("desktop_kb.retrieval.search", "fuse_scores"),
    ("desktop_kb.retrieval.search", "order"),
    ("desktop_kb.retrieval.search", "materialize"),
    ("desktop_kb.retrieval.search", "resolve_sources"),
    ("desktop_kb.retrieval.search", "make_snippet"),
    ("desktop_kb.library", "with_named_documents"),
]


def read_calls() -> float:
    with open("/proc/self/io", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("syscr:"):
                return float(line.split()[1])
    return 0.0


def wrap_stages(clock: Callable[[], float]) -> tuple[dict[str, float], dict[str, int]]:
    spent: dict[str, float] = defaultdict(float)
    calls: dict[str, int] = defaultdict(int)
    for module_name, attr in STAGES:
        owner: Any = importlib.import_module(module_name)
        label = f"{module_name.rsplit('.', 1)[-1]}.{attr}"
        if "." in attr:
            cls, attr = attr.split(".")
            owner = getattr(owner, cls)
        inner = getattr(owner, attr)

        def timed(*args: Any, _inner: Any = inner, _label: str = label, **kwargs: Any) -> Any:
            start = clock()
            try:
                return _inner(*args, **kwargs)
            finally:
                spent[_label] += clock() - start
                calls[_label] += 1

        setattr(owner, attr, functools.wraps(inner)(timed))
    return spent, calls


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("library", help="a data folder (a copy of a bench_retrieval.py library)")
    parser.add_argument("--models-dir", default=None)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--mode", default="hybrid")
    parser.add_argument("--reads", action="store_true", help="count read system calls, not CPU time")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
    sys.path.insert(0, str(REPO_ROOT))
    import retrieval_corpus as rc

    from desktop_kb.library import Library
    from desktop_kb.paths import resolve_data_dir
    from desktop_kb.retrieval import candidates

    spent, calls = wrap_stages(read_calls if args.reads else time.thread_time)
    models_dir = Path(args.models_dir) if args.models_dir else resolve_data_dir() / "models"
    queries = rc.load_queries(rc.find_shared())[:args.queries]
    with Library(Path(args.library), models_dir=models_dir) as lib:
        if lib.model_ready is not None:
            lib.model_ready.result()
        candidates.CONCURRENT = not args.reads  # one thread: each read lands in its own stage
        for q in queries[:30]:
            lib.search(q, limit=10, mode=args.mode)
        spent.clear()
        calls.clear()
        cpu = []
        per_question: list[dict[str, float]] = []
        for q in queries:
            before = dict(spent)
            start = time.process_time()
            lib.search(q, limit=10, mode=args.mode)
            cpu.append(time.process_time() - start)
            per_question.append({k: v - before.get(k, 0.0) for k, v in spent.items()})
    total = sum(cpu)
    cpu_of = list(cpu)
    cpu.sort()
    print(f"{len(cpu)} questions, {args.mode}: process CPU per search p50 {cpu[len(cpu) // 2] * 1000:.2f} ms, "
          f"mean {total / len(cpu) * 1000:.2f} ms (stages are inclusive)")
    unit = "read calls" if args.reads else "ms CPU"
    for label, value in sorted(spent.items(), key=lambda kv: -kv[1]):
        per = value / len(queries) * (1 if args.reads else 1000)
        share = "" if args.reads else f"{value / total * 100:6.1f} %"
        print(f"  {label:40s}{per:10.2f} {unit}{share}   calls/search {calls[label] / len(queries):.1f}")
    if not args.reads:
        # The questions around the median (40th-60th percentile of process CPU): where a
        # typical question's time goes, without the few slow ones that dominate the means.
        ranked = sorted(range(len(queries)), key=lambda i: cpu_of[i])
        middle = ranked[int(0.4 * len(ranked)):int(0.6 * len(ranked)) + 1]
        mid_total = sum(cpu_of[i] for i in middle) / len(middle)
        print(f"middle {len(middle)} questions (40th-60th percentile): process CPU {mid_total * 1000:.2f} ms")
        mid = defaultdict(float)
        for i in middle:
            for label, value in per_question[i].items():
                mid[label] += value / len(middle)
        for label, value in sorted(mid.items(), key=lambda kv: -kv[1]):
            print(f"  {label:40s}{value * 1000:10.2f} ms CPU{value / mid_total * 100:6.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
