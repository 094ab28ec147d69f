"""``desktop-kb eval``: measure retrieval on a public set, in every mode, in one run.

A throwaway library gets one document per passage (imported from files, like a
person's material), is indexed with the chosen model, and every query is run
lexically, densely, with plain RRF and with the adaptive hybrid. Relevance is
by document: a hit on any chunk of the gold passage counts.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from desktop_kb.index.segment import query_terms
from desktop_kb.library import Library
from desktop_kb.progress import Progress
from desktop_kb.retrieval.packing import pack_context
from desktop_kb.retrieval.search import NOTHING_NOTICE, search
from desktop_kb.retrieval.term_stats import index_stats

MODES = ("lexical", "dense", "hybrid", "plain_rrf")


class EvalError(Exception):
    pass


@dataclass
class EvalQuery:
    text: str
    relevant: set[int]  # passage indices
    answers: list[str] = field(default_factory=list)


@dataclass
class EvalSet:
    passages: list[str]
    queries: list[EvalQuery]


def detect_format(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix == ".json":
        return "squad"
    if suffix in (".tsv", ".txt"):
        return "pairs"
    raise EvalError(f"Cannot tell the format of {path.name}; pass --format squad|pairs.")


def load_set(path: Path, fmt: str) -> EvalSet:
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise EvalError(f"Cannot read {path}: {exc.strerror or exc}") from exc
    if fmt == "squad":
        try:
            data = json.loads(raw)
            passages: list[str] = []
            queries: list[EvalQuery] = []
            for article in data["data"]:
                for para in article["paragraphs"]:
                    passages.append(para["context"])
                    for qa in para["qas"]:
                        queries.append(EvalQuery(qa["question"], {len(passages) - 1},
                                                 [a["text"] for a in qa.get("answers", [])]))
        except (ValueError, KeyError, TypeError) as exc:
            raise EvalError(f"{path.name} is not a SQuAD-format file: {exc}") from exc
        return EvalSet(passages, queries)
    if fmt == "pairs":
        index: dict[str, int] = {}
        relevant: dict[str, set[int]] = {}
        for lineno, line in enumerate(raw.splitlines(), start=1):
            if not line.strip():
                continue
            parts = line.split("\t")
            if len(parts) < 2:
                raise EvalError(f"{path.name}:{lineno}: expected 'query<TAB>passage'")
            query, passage = parts[0].strip(), parts[1].strip()
            pid = index.setdefault(passage, len(index))
            relevant.setdefault(query, set()).add(pid)
        return EvalSet(list(index), [EvalQuery(q, r) for q, r in relevant.items()])
    raise EvalError(f"Unknown format {fmt!r}; use squad or pairs.")


def _metrics(ranks: list[int | None]) -> dict[str, float]:
    n = len(ranks) or 1
    return {
        "r1": round(sum(1 for r in ranks if r == 1) / n, 4),
        "r5": round(sum(1 for r in ranks if r is not None and r <= 5) / n, 4),
        "mrr10": round(sum(1.0 / r for r in ranks if r is not None and r <= 10) / n, 4),
    }


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


@dataclass
class EvalLibrary:
    """A throwaway library holding one document per passage, indexed and embedded."""

    lib: Library
    chunk_doc: dict[int, int]  # chunk id -> passage index
    model: str | None
    lexical_index_s: float
    index_s: float
    embed_rate: float | None


@contextmanager
def open_eval_library(
    dataset: EvalSet, *, data_dir: Path | None = None, models_dir: Path | None = None,
    model: str | None = None, progress: Callable[[str, int, int], None] | None = None,
) -> Iterator[EvalLibrary]:
    """Import every passage as a file (as a person's material), index, embed with ``model``.

    ``model``: a model id, "none" for keywords only, None for the one in use.
    """
    with tempfile.TemporaryDirectory(prefix="desktop-kb-eval-") as tmp:
        root = Path(data_dir) if data_dir else Path(tmp) / "library"
        corpus = Path(tmp) / "corpus"
        corpus.mkdir()
        width = len(str(len(dataset.passages)))
        for i, passage in enumerate(dataset.passages):
            (corpus / f"p{i:0{width}d}.txt").write_text(passage, encoding="utf-8")
        lib = Library(root, models_dir=models_dir, load_model=False)
        try:
            yield _index_eval_library(lib, corpus, model, progress)
        finally:
            lib.close()


def _index_eval_library(
    lib: Library, corpus: Path, model: str | None,
    progress: Callable[[str, int, int], None] | None,
) -> EvalLibrary:
    started = time.perf_counter()
    lib.import_paths([corpus], formats=["txt"], progress=Progress(progress))
    lib.drain()
    # Map every fragment to its passage index (file name p000123.txt -> 123).
    frag_doc: dict[int, int] = {}
    for doc in lib.list_documents():
        pid = int(Path(doc.path).stem[1:])
        for frag in lib.list_fragments(doc.id):
            frag_doc[frag.id] = pid
    lexical_s = time.perf_counter() - started
    model_name = None if model == "none" else (model or lib.active_model_name())
    embed_rate = None
    if model_name:
        t0 = time.perf_counter()
        embedded = lib.use_model(model_name, Progress(progress)).result()
        embed_s = time.perf_counter() - t0
        embed_rate = round(embedded / embed_s, 1) if embed_s > 0 else None
    index_s = time.perf_counter() - started
    chunk_doc: dict[int, int] = {}
    for cid, kind, sid in lib.index_reader.execute("SELECT id, source_type, source_id FROM kb_chunks"):
        if kind == "fragment" and sid in frag_doc:
            chunk_doc[cid] = frag_doc[sid]
    return EvalLibrary(lib, chunk_doc, model_name, lexical_s, index_s, embed_rate)


def run_eval(
    path: Path, *, fmt: str | None = None, data_dir: Path | None = None,
    models_dir: Path | None = None, model: str | None = None, budget_chars: int = 1200,
    progress: Callable[[str, int, int], None] | None = None, limit_queries: int | None = None,
) -> dict[str, Any]:
    fmt = fmt or detect_format(path)
    dataset = load_set(path, fmt)
    if limit_queries:
        dataset.queries = dataset.queries[:limit_queries]
    with open_eval_library(dataset, data_dir=data_dir, models_dir=models_dir, model=model,
                           progress=progress) as ev:
        return _evaluate(ev, dataset, fmt, budget_chars, progress)


def _evaluate(
    ev: EvalLibrary, dataset: EvalSet, fmt: str, budget_chars: int,
    progress: Callable[[str, int, int], None] | None,
) -> dict[str, Any]:
    lib, model_name = ev.lib, ev.model
    lexical_s, index_s, embed_rate = ev.lexical_index_s, ev.index_s, ev.embed_rate
    index = lib.index_reader
    modes = ["lexical", "hybrid", "plain_rrf", "dense"] if model_name else ["lexical"]
    doc_passage = {doc.id: int(Path(doc.path).stem[1:]) for doc in lib.list_documents()}
    tuning = lib.tuning()
    ranks: dict[str, list[int | None]] = {m: [] for m in modes}
    nothing: dict[str, int] = dict.fromkeys(modes, 0)
    query_ms: list[float] = []
    contexts: list[tuple[bool, int, int]] = []
    for qi, query in enumerate(dataset.queries):
        for mode in modes:
            # The app's own search path: relevance floor and source join included.
            t0 = time.perf_counter()
            response = search(index, lib.store_reader, query.text, limit=10,
                              mode="rrf" if mode == "plain_rrf" else mode, engine=lib.engine,
                              dense=lib.dense, tuning=tuning if mode != "lexical" else None)
            if mode == modes[1 if model_name else 0]:
                query_ms.append((time.perf_counter() - t0) * 1000)
                if fmt == "squad":
                    contexts.append(_context_holds_answer(lib, response.results, query, budget_chars,
                                                          doc_passage))
            nothing[mode] += response.notice == NOTHING_NOTICE
            docs = list(dict.fromkeys(doc_passage.get(r.document_id or -1, -1) for r in response.results))
            rank = next((i + 1 for i, d in enumerate(docs[:10]) if d in query.relevant), None)
            ranks[mode].append(rank)
        if progress and (qi % 25 == 0 or qi + 1 == len(dataset.queries)):
            progress("queries", qi + 1, len(dataset.queries))
    result: dict[str, Any] = {
        "n_queries": len(dataset.queries),
        "n_docs": len(dataset.passages),
        "model": model_name,
        "lexical": _metrics(ranks["lexical"]),
        "dense": _metrics(ranks["dense"]) if model_name else None,
        "hybrid": _metrics(ranks["hybrid"]) if model_name else _metrics(ranks["lexical"]),
        "plain_rrf": _metrics(ranks["plain_rrf"]) if model_name else None,
    }
    result["nothing_found"] = {m: nothing[m] for m in modes}
    if tuning is not None and tuning.calibration is not None:
        result["calibration"] = tuning.calibration.as_json()
    if fmt == "squad":
        sent = sum(c for _, c, _ in contexts)
        result["context"] = {
            "budget_chars": budget_chars,
            "answer_in_context": round(sum(1 for ok, _, _ in contexts if ok) / max(1, len(contexts)), 4),
            "mean_chars": round(statistics.fmean(c for _, c, _ in contexts), 1) if contexts else 0.0,
            # Share of the characters sent that come from the question's own paragraph.
            "gold_share": round(sum(g for _, _, g in contexts) / sent, 4) if sent else 0.0,
        }
    result["timing"] = {
        "index_s": round(index_s, 2),
        "lexical_index_s": round(lexical_s, 2),
        "embed_chunks_per_s": embed_rate,
        "query_ms_p50": round(_percentile(query_ms, 0.5), 2),
        "query_ms_p99": round(_percentile(query_ms, 0.99), 2),
    }
    return result


def _context_holds_answer(
    lib: Library, results: list[Any], query: EvalQuery, budget: int, doc_passage: dict[int, int],
) -> tuple[bool, int, int]:
    """(answer in the packed context, characters sent, characters from the gold paragraph)."""
    from desktop_kb.retrieval.resolve import resolve_sources

    sources = resolve_sources(lib.store_reader, [(r.source_type, r.source_id) for r in results])
    hits = [(r, sources[(r.source_type, r.source_id)].text) for r in results
            if (r.source_type, r.source_id) in sources]
    terms = query_terms(query.text)
    n_docs, doc_freq = index_stats(lib.index_reader, terms)
    packed = pack_context(hits, terms, budget, doc_freq=doc_freq, n_docs=n_docs, question=query.text)
    text = packed.render()
    gold = sum(len(s.text) for s in packed.snippets
               if doc_passage.get(s.document_id or -1, -1) in query.relevant)
    return any(a and a in text for a in query.answers), packed.chars, gold


__all__ = ["run_eval", "EvalError", "open_eval_library"]
