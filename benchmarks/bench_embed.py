"""Embedding throughput of a transformer model: raw onnxruntime, the engine, the indexer.

Run from the repository root (the model must be installed)::

    .venv/bin/python benchmarks/bench_embed.py [--model multilingual-e5-small]
        [--models-dir DIR] [--chunks 512] [--rounds 3] [--threads 2] [--json]

Data: CMRC trial paragraphs (``../shared/eval/cmrc2018_trial.json``) packed into
notes of up to ~800 characters at sentence ends, then cut by the indexer's own
chunker, so the chunks are the 800-character Chinese chunks a library of
imported books produces. Measured, in one run, on the same chunks:

* raw: a plain onnxruntime session (same model file, same thread settings)
  timing only ``session.run`` over exactly the batches the engine forms (the
  texts are tokenized beforehand, outside the clock);
* engine: ``embed_passages`` (tokenize, batch by length, pool, normalise);
* indexer: a fresh library, notes added, keyword index built, then
  ``use_model``: the background backfill is timed from the worker's "model"
  event to its end (reading chunks, embedding, writing vectors and the cache,
  updating the in-memory matrix). The time spent inside ``session.run`` is
  recorded too, so the indexer's own share is visible;
* memory: a fresh process loads the engine and embeds the same chunks
  (VmRSS after loading, VmHWM peak).

Raw and engine passes bracket every indexer run (R0 E0, I1, R1 E1, I2, ...);
each indexer run is compared with the mean of the raw passes around it. The
machine is shared, so wall-clock figures are noisy: ratios in one run and
medians over rounds are what to read. Process CPU seconds per chunk are printed
too; ``2 / cpu_s_per_chunk`` estimates chunks/s on two idle cores.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from measure import SessionRunTimer, cpu_seconds, proc_memory, raw_session  # noqa: E402

DEFAULT_CMRC = Path("../shared/eval/cmrc2018_trial.json")  # relative to the checkout, like bench_retrieval
NOTE_CHARS = 800
PAGE = 256  # chunks the backfill reads per page


def loadavg() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def progress(message: str) -> None:
    print(f"[bench_embed] {message}", file=sys.stderr, flush=True)


def cmrc_notes(path: Path, want_chunks: int) -> tuple[list[tuple[str, str]], list[str]]:
    """Notes of up to ~800 characters and the texts the indexer embeds for them."""
    from desktop_kb.index.prepare import chunk_source, embed_text_of
    from desktop_kb.index.sources import SourceText

    data = json.loads(path.read_text(encoding="utf-8"))
    sentences = [
        s + "。"
        for article in data["data"]
        for para in article["paragraphs"]
        for s in para["context"].split("。")
        if s.strip()
    ]
    notes: list[tuple[str, str]] = []
    texts: list[str] = []
    body = ""
    for sentence in sentences * 4:
        if len(body) + len(sentence) > NOTE_CHARS and body:
            title = f"CMRC {len(notes) + 1}"
            source = SourceText("note", len(notes) + 1, title, body, "md")
            notes.append((title, body))
            texts.extend(embed_text_of(c.text, title) for c in chunk_source(source))
            body = ""
            if len(texts) >= want_chunks:
                break
        body += sentence
    return notes, texts[:want_chunks]


def cut_at_cap(engine: Any, texts: Sequence[str], prefix: str, cap: int) -> dict[str, float]:
    """What the token cap leaves out: the share of chunks longer than the cap and
    the share of their tokens the model never reads (keyword search reads all)."""
    if not hasattr(engine, "_tokenizer"):
        return {}
    from tokenizers import Tokenizer

    whole = Tokenizer.from_str(engine._tokenizer.to_str())
    whole.no_truncation()
    counts = [len(e.ids) for e in whole.encode_batch([prefix + t for t in texts])]
    return {
        "mean_tokens_uncut": round(statistics.mean(counts), 1),
        "chunks_over_cap": round(sum(n > cap for n in counts) / len(counts), 4),
        "tokens_cut": round(sum(max(0, n - cap) for n in counts) / sum(counts), 4),
    }


def engine_batches(engine: Any, texts: Sequence[str], prefix: str) -> list[dict[str, np.ndarray]]:
    """The feeds the engine builds for these texts (same tokenizer, same batches)."""
    from desktop_kb.embed.engine import batches, length_order, token_batches
    from desktop_kb.embed.onnx_transformer import BATCH_TOKENS

    feeds: list[dict[str, np.ndarray]] = []
    for start in range(0, len(texts), PAGE):
        page = [prefix + t for t in texts[start:start + PAGE]]
        if not hasattr(engine, "_tokenizer"):  # a string-input graph (the default model)
            page = [t[: engine._manifest.max_length] for t in page]
            for idx in batches(length_order(page), engine._batch_size):
                feeds.append({engine._input: np.array([page[i] for i in idx], dtype=object)})
            continue
        encodings = engine._tokenizer.encode_batch(page)
        lengths = [len(e.ids) for e in encodings]
        for idx in token_batches(lengths, BATCH_TOKENS, engine._batch_size):
            longest = max(lengths[i] for i in idx)
            ids = np.full((len(idx), longest), engine._pad_id, dtype=np.int64)
            mask = np.zeros_like(ids)
            for row, i in enumerate(idx):
                ids[row, : lengths[i]] = encodings[i].ids
                mask[row, : lengths[i]] = 1
            feed = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in engine._inputs:
                feed["token_type_ids"] = np.zeros_like(ids)
            feeds.append(feed)
    return feeds


def time_raw(session: Any, feeds: Sequence[dict[str, np.ndarray]], output: str) -> tuple[float, float]:
    wall = cpu = 0.0
    for feed in feeds:
        c, t = cpu_seconds(), time.perf_counter()
        session.run([output], feed)
        wall += time.perf_counter() - t
        cpu += cpu_seconds() - c
    return wall, cpu


def time_engine(engine: Any, texts: Sequence[str]) -> tuple[float, float]:
    c, t = cpu_seconds(), time.perf_counter()
    for start in range(0, len(texts), PAGE):
        engine.embed_passages(texts[start:start + PAGE])
    return time.perf_counter() - t, cpu_seconds() - c


def time_indexer(notes: Sequence[tuple[str, str]], models_dir: Path, model: str, threads: int,
                 data_dir: Path) -> dict[str, Any]:
    from desktop_kb.library import Library

    marks: dict[str, float] = {}
    lock = threading.Lock()
    inference = SessionRunTimer()

    def listener(event: Any) -> None:
        if event.kind == "model":
            with lock:
                marks["model"] = time.perf_counter()
                marks["cpu"] = cpu_seconds()
                inference.counting = True

    with Library(data_dir, models_dir=models_dir, load_model=False, listener=listener) as lib:
        if lib.startup_rebuild is not None:
            lib.startup_rebuild.result()
        lib.set_setting("embed.threads", threads)
        for title, body in notes:
            lib.add_note(title, body)
        lib.drain()
        chunks = lib.index_status().chunks
        with inference:
            embedded = lib.use_model(model).result()
        end, cpu_end = time.perf_counter(), cpu_seconds()
    backfill = end - marks["model"]
    return {
        "chunks": chunks, "embedded": embedded, "backfill_s": round(backfill, 3),
        "cpu_s": round(cpu_end - marks["cpu"], 3), "session_run_s": round(inference.seconds, 3),
        "own_share": round((backfill - inference.seconds) / backfill, 4),
    }


def memory_probe(models_dir: Path, model: str, threads: int) -> dict[str, float]:
    """Run in a fresh process: the engine's memory after loading, and the peak
    while embedding the texts read from stdin (a JSON list), in MB."""
    from desktop_kb.embed import ModelManager

    texts = json.loads(sys.stdin.read())
    base = proc_memory()["VmRSS"]
    engine = ModelManager(models_dir.parent).load_engine(model, threads=threads)
    loaded = proc_memory()["VmRSS"]
    for start in range(0, len(texts), PAGE):
        engine.embed_passages(texts[start:start + PAGE])
    return {"python_mb": base, "loaded_mb": loaded, "peak_mb": proc_memory()["VmHWM"]}


def engine_memory(models_dir: Path, model: str, threads: int, texts: Sequence[str]) -> dict[str, Any]:
    command = [sys.executable, __file__, "--memory-probe", "--model", model,
               "--models-dir", str(models_dir), "--threads", str(threads)]
    done = subprocess.run(command, input=json.dumps(list(texts)), capture_output=True, text=True,
                          check=True, timeout=3600)
    return json.loads(done.stdout)


def bench(cmrc: Path, models_dir: Path, model: str, n_chunks: int, rounds: int, threads: int,
          tmp: Path) -> dict[str, Any]:
    from desktop_kb.embed import ModelManager

    manager = ModelManager(models_dir.parent)
    manifest = manager.manifest(model)
    notes, texts = cmrc_notes(cmrc, n_chunks)
    engine = manager.load_engine(model, threads=threads)
    session = raw_session(models_dir / model / "model.onnx", threads, manifest.kind)
    feeds = engine_batches(engine, texts, manifest.passage_prefix)
    output = engine._output
    engine.embed_passages(texts[:8])  # warm both
    session.run([output], feeds[0])
    masks = [f["attention_mask"] for f in feeds if "attention_mask" in f]
    tokens = [int(m.sum()) for m in masks] or [0]
    padded = [int(m.size) for m in masks] or [1]
    result: dict[str, Any] = {
        "model": model, "threads": threads, "chunks": len(texts), "notes": len(notes),
        "mean_chunk_chars": round(statistics.mean(len(t) for t in texts), 1),
        "mean_tokens": round(sum(tokens) / len(texts), 1),
        "padding_share": round(1 - sum(tokens) / sum(padded), 4),
        "batches": len(feeds), "max_length": manifest.max_length, "passes": [], "indexer": [],
        "cut_at_cap": cut_at_cap(engine, texts, manifest.passage_prefix, manifest.max_length),
        "loadavg_start": loadavg(),
    }

    def one_pass() -> None:
        raw_wall, raw_cpu = time_raw(session, feeds, output)
        eng_wall, eng_cpu = time_engine(engine, texts)
        result["passes"].append({
            "raw_s": round(raw_wall, 3), "raw_cpu_s": round(raw_cpu, 3),
            "engine_s": round(eng_wall, 3), "engine_cpu_s": round(eng_cpu, 3),
            "loadavg": loadavg(),
        })

    progress("raw onnxruntime + engine, pass 0")
    one_pass()
    for r in range(rounds):
        progress(f"indexer backfill, fresh library ({r + 1}/{rounds})")
        run = time_indexer(notes, models_dir, model, threads, tmp / f"lib-{r}")
        progress(f"raw onnxruntime + engine, pass {r + 1}")
        one_pass()
        around = (result["passes"][r]["raw_s"] + result["passes"][r + 1]["raw_s"]) / 2
        run["indexer_over_raw"] = round(run["backfill_s"] / around, 3)
        result["indexer"].append(run)
    passes, runs, n = result["passes"], result["indexer"], len(texts)
    result["median"] = {
        "raw_chunks_per_s": round(n / statistics.median(p["raw_s"] for p in passes), 2),
        "engine_chunks_per_s": round(n / statistics.median(p["engine_s"] for p in passes), 2),
        "indexer_chunks_per_s": round(n / statistics.median(r["backfill_s"] for r in runs), 2),
        "engine_over_raw": round(statistics.median(p["engine_s"] / p["raw_s"] for p in passes), 3),
        "indexer_over_raw": round(statistics.median(r["indexer_over_raw"] for r in runs), 3),
        "raw_cpu_s_per_chunk": round(statistics.median(p["raw_cpu_s"] for p in passes) / n, 4),
        "indexer_cpu_s_per_chunk": round(statistics.median(r["cpu_s"] for r in runs) / n, 4),
    }
    progress("resident memory of a fresh process (engine loaded, embedding the chunks)")
    result["memory"] = engine_memory(models_dir, model, threads, texts)
    result["loadavg_end"] = loadavg()
    return result


def main() -> int:
    from desktop_kb.paths import default_data_dir

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="multilingual-e5-small",
                        help="comma-separated: each model is measured on the same chunks")
    parser.add_argument("--models-dir", type=Path, default=None)
    parser.add_argument("--cmrc", type=Path, default=DEFAULT_CMRC)
    parser.add_argument("--chunks", type=int, default=512)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--memory-probe", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    models_dir = args.models_dir or default_data_dir() / "models"
    if args.memory_probe:
        print(json.dumps(memory_probe(models_dir, args.model, args.threads)))
        return 0
    results = []
    for model in args.model.split(","):
        with tempfile.TemporaryDirectory(prefix="bench-embed-") as tmp:
            results.append(bench(args.cmrc, models_dir, model, args.chunks, args.rounds,
                                 args.threads, Path(tmp)))
    if args.json:
        print(json.dumps(results, ensure_ascii=False, indent=1))
        return 0
    for result in results:
        report(result)
    if len(results) > 1:
        base = results[0]["median"]["indexer_cpu_s_per_chunk"]
        for result in results[1:]:
            ratio = result["median"]["indexer_cpu_s_per_chunk"] / base
            print(f"{result['model']} costs {ratio:.1f}x the CPU time per chunk of "
                  f"{results[0]['model']} (same chunks, same run)")
    return 0


def report(result: dict[str, Any]) -> None:
    m = result["median"]
    print(f"{result['model']}: {result['chunks']} chunks, mean {result['mean_chunk_chars']} chars / "
          f"{result['mean_tokens']} tokens (cap {result['max_length']}), {result['batches']} batches, "
          f"padding {result['padding_share']:.1%}, {result['threads']} threads")
    if result["cut_at_cap"]:
        cut = result["cut_at_cap"]
        print(f"  token cap: {cut['chunks_over_cap']:.1%} of the chunks are longer "
              f"({cut['mean_tokens_uncut']} tokens uncut on average); the model never reads "
              f"{cut['tokens_cut']:.1%} of their tokens")
    print(f"  chunks/s (median of {len(result['passes'])} passes / {len(result['indexer'])} runs): "
          f"raw {m['raw_chunks_per_s']}, engine {m['engine_chunks_per_s']}, "
          f"indexer {m['indexer_chunks_per_s']}")
    print(f"  overhead: engine/raw {m['engine_over_raw']}, indexer/raw {m['indexer_over_raw']} "
          f"(budget <= 1.20)")
    print(f"  CPU s/chunk: raw {m['raw_cpu_s_per_chunk']}, indexer {m['indexer_cpu_s_per_chunk']} "
          f"-> ~{2 / m['indexer_cpu_s_per_chunk']:.1f} chunks/s on two idle cores")
    mem = result["memory"]
    print(f"  memory (fresh process): {mem['loaded_mb']} MB with the model loaded, peak "
          f"{mem['peak_mb']} MB while embedding (Python alone {mem['python_mb']} MB)")
    print(f"  load average {result['loadavg_start']} -> {result['loadavg_end']} (shared machine)")


if __name__ == "__main__":
    raise SystemExit(main())
