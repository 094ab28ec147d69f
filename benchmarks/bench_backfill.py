"""The embedding backfill on a 2,000-chunk library: progress, time left, cancel, resume.

Run from the repository root (the model must be installed)::

    .venv/bin/python benchmarks/bench_backfill.py [--model use-multilingual]
        [--models-dir DIR] [--eval-dir ../shared/eval] [--chunks 2000] [--cancel-after 60] [--limit-s 900] [--json]

A library of ~800-character Chinese chunks (CMRC trial and DRCD dev paragraphs
packed into notes, repeated under new titles until there are enough) is indexed by keywords,
then ``use_model`` starts the backfill. The index status is read every second,
as the status bar does: share done and the time it says is left. After
``--cancel-after`` seconds the library is closed (the backfill is cancelled
between batches); it is opened again and the backfill resumes. Reported:

* cancel: how long closing took, vectors kept, and that the second run only
  embedded what was missing (first + second == chunks, no chunk twice);
* time left: each estimate against the time the backfill really took from
  that moment (known once it finishes within ``--limit-s``), as the median and
  worst relative error after the first 10 % of the run, and how often the
  status showed no estimate.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

DEFAULT_EVAL = Path("../shared/eval")  # relative to the checkout, like bench_embed
NOTE_CHARS = 800


def progress(message: str) -> None:
    print(f"[bench_backfill] {message}", file=sys.stderr, flush=True)


def notes_from_paragraphs(eval_dir: Path, want_chunks: int) -> list[tuple[str, str]]:
    """Distinct ~800-character notes: CMRC trial, then DRCD dev paragraphs."""
    sentences: list[str] = []
    for name in ("cmrc2018_trial.json", "drcd_dev.json"):
        data = json.loads((eval_dir / name).read_text(encoding="utf-8"))
        for article in data["data"]:
            for para in article["paragraphs"]:
                sentences += [s + "。" for s in para["context"].split("。") if s.strip()]
    notes: list[tuple[str, str]] = []
    body = ""
    # The two sets hold ~750 such notes; past that they repeat, each under its own
    # title, which the embedded text starts with, so no vector comes from the cache.
    while len(notes) < want_chunks:
        for sentence in sentences:
            if len(body) + len(sentence) > NOTE_CHARS and body:
                notes.append((f"段落 {len(notes) + 1}", body))
                body = ""
                if len(notes) >= want_chunks:
                    break
            body += sentence
    return notes


def vector_count(data_dir: Path) -> int:
    conn = sqlite3.connect(f"file:{data_dir / 'index.sqlite'}?mode=ro", uri=True)
    try:
        return int(conn.execute("SELECT count(*) FROM kb_vectors").fetchone()[0])
    finally:
        conn.close()


def watch(lib: Any, samples: list[dict[str, Any]], started: float, stop: threading.Event) -> None:
    while not stop.wait(1.0):
        status = lib.index_status()
        if status.embedding is not None:
            e = status.embedding
            samples.append({"t": round(time.perf_counter() - started, 2), "done": e.done,
                            "total": e.total, "left": e.seconds_left})


def run_backfill(data_dir: Path, models_dir: Path, model: str, stop_after: float | None
                 ) -> dict[str, Any]:
    """One backfill in a freshly opened library; closed after ``stop_after`` seconds."""
    from desktop_kb.library import Library

    samples: list[dict[str, Any]] = []
    stop = threading.Event()
    lib = Library(data_dir, models_dir=models_dir, load_model=False)
    if lib.startup_rebuild is not None:
        lib.startup_rebuild.result()
    before = vector_count(data_dir)
    started = time.perf_counter()
    future = lib.use_model(model)
    watcher = threading.Thread(target=watch, args=(lib, samples, started, stop), daemon=True)
    watcher.start()
    finished = None
    try:
        future.result(timeout=stop_after)
        finished = time.perf_counter() - started
    except TimeoutError:
        pass
    stop.set()
    watcher.join()
    closing = time.perf_counter()
    lib.close()
    close_s = time.perf_counter() - closing
    return {"vectors_before": before, "vectors_after": vector_count(data_dir),
            "finished_s": None if finished is None else round(finished, 1),
            "close_s": round(close_s, 2), "samples": samples}


def estimate_errors(run: dict[str, Any]) -> dict[str, Any]:
    """Each 'time left' against the time the run really took from that moment."""
    samples, end = run["samples"], run["finished_s"]
    if not samples or end is None:
        return {}
    shown = [s for s in samples if s["left"] is not None]
    late = [s for s in shown if s["t"] >= 0.1 * end and end - s["t"] >= 5]
    errors = [abs(s["left"] - (end - s["t"])) / (end - s["t"]) for s in late]
    return {
        "samples": len(samples), "without_estimate": len(samples) - len(shown),
        "first_estimate_after_s": shown[0]["t"] if shown else None,
        "median_relative_error": round(statistics.median(errors), 3) if errors else None,
        "worst_relative_error": round(max(errors), 3) if errors else None,
    }


def main() -> int:
    from desktop_kb.library import Library
    from desktop_kb.paths import default_data_dir

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="use-multilingual")
    parser.add_argument("--models-dir", type=Path, default=None)
    parser.add_argument("--eval-dir", type=Path, default=DEFAULT_EVAL)
    parser.add_argument("--chunks", type=int, default=2000)
    parser.add_argument("--cancel-after", type=float, default=60.0)
    parser.add_argument("--limit-s", type=float, default=900.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    models_dir = args.models_dir or default_data_dir() / "models"
    with tempfile.TemporaryDirectory(prefix="bench-backfill-") as tmp:
        data_dir = Path(tmp) / "library"
        with Library(data_dir, models_dir=models_dir, load_model=False) as lib:
            if lib.startup_rebuild is not None:
                lib.startup_rebuild.result()
            for title, body in notes_from_paragraphs(args.eval_dir, args.chunks):
                lib.add_note(title, body)
            lib.drain()
            chunks = lib.index_status().chunks
        progress(f"{chunks} chunks indexed by keywords; backfill, closed after {args.cancel_after} s")
        first = run_backfill(data_dir, models_dir, args.model, args.cancel_after)
        progress(f"closed with {first['vectors_after']} vectors; reopened, resuming")
        second = run_backfill(data_dir, models_dir, args.model, args.limit_s)
    result = {
        "model": args.model, "chunks": chunks, "loadavg": [round(x, 2) for x in os.getloadavg()],
        "first": {k: v for k, v in first.items() if k != "samples"},
        "second": {k: v for k, v in second.items() if k != "samples"},
        "resumed_where_it_stopped": second["vectors_before"] == first["vectors_after"],
        "complete": second["vectors_after"] == chunks,
        "time_left": {"first": estimate_errors(first), "second": estimate_errors(second)},
        "first_samples": first["samples"][:5], "second_samples": second["samples"][-5:],
    }
    print(json.dumps(result, ensure_ascii=False, indent=1 if args.json else None))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
