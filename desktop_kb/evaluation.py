"""``desktop-kb eval``: measure retrieval on a public set, in every mode, in one run.

A throwaway library gets one document per passage (imported from files, like a
person's material), is indexed with the chosen model, and every query is run
lexically, densely, with plain RRF and with the adaptive hybrid. Relevance is
by document: a hit on any chunk of the gold passage counts.

With ``corpus`` the library imports that file or folder instead (the same
passages as a PDF, a Word file, an EPUB…), and each hit is matched to the
passages whose text it holds (character shingles), so extraction quality is
measured by the same questions on the same passages.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from desktop_kb.index.backfill import BACKFILL_BATCH
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


class PassageLabeller:
    """Which passages a piece of extracted text comes from, by shared character shingles.

    Whitespace is ignored (extraction reflows lines) and so are characters a
    format may change (punctuation width; radicals are already folded by the
    importer).  A piece is labelled with every passage holding at least a fifth
    of its shingles, so a chunk that straddles two paragraphs counts for both —
    the one it holds most of first.
    """

    SIZE = 8

    def __init__(self, passages: list[str]) -> None:
        self._where: dict[str, set[int]] = {}
        for i, passage in enumerate(passages):
            norm = self._norm(passage)
            for j in range(0, max(len(norm) - self.SIZE + 1, 1)):
                self._where.setdefault(norm[j:j + self.SIZE], set()).add(i)

    @staticmethod
    def _norm(text: str) -> str:
        return "".join(ch for ch in unicodedata.normalize("NFKC", text).casefold() if ch.isalnum())

    def label(self, text: str) -> tuple[int, ...]:
        norm = self._norm(text)
        shingles = [norm[j:j + self.SIZE] for j in range(0, max(len(norm) - self.SIZE + 1, 1))]
        votes: dict[int, int] = {}
        for sh in shingles:
            for pid in self._where.get(sh, ()):
                votes[pid] = votes.get(pid, 0) + 1
        need = max(1, len(shingles) // 5)
        return tuple(sorted((pid for pid, n in votes.items() if n >= need),
                            key=lambda pid: (-votes[pid], pid)))


@dataclass
class EvalLibrary:
    """A throwaway library holding the passages (one file each, or an imported ``corpus``),
    indexed and embedded."""

    lib: Library
    chunk_doc: dict[int, int]  # chunk id -> passage index (one file per passage)
    model: str | None
    lexical_index_s: float
    index_s: float
    embed_rate: float | None
    # ``--corpus``: passages found by their text in the imported file's fragments.
    labeller: PassageLabeller | None = None
    fragment_text: dict[int, str] = field(default_factory=dict)
    corpus: dict[str, Any] | None = None


@contextmanager
def open_eval_library(
    dataset: EvalSet, *, data_dir: Path | None = None, models_dir: Path | None = None,
    model: str | None = None, progress: Callable[[str, int, int], None] | None = None,
    corpus: Path | None = None,
) -> Iterator[EvalLibrary]:
    """Import every passage as a file (as a person's material), index, embed with ``model``.

    ``model``: a model id, "none" for keywords only, None for the one in use.
    ``corpus``: import this file or folder instead (the same passages as a PDF, a Word
    file, an EPUB…); hits are matched to passages by their text.
    """
    with tempfile.TemporaryDirectory(prefix="desktop-kb-eval-") as tmp:
        root = Path(data_dir) if data_dir else Path(tmp) / "library"
        if corpus is None:
            source = Path(tmp) / "corpus"
            source.mkdir()
            width = len(str(len(dataset.passages)))
            for i, passage in enumerate(dataset.passages):
                (source / f"p{i:0{width}d}.txt").write_text(passage, encoding="utf-8")
        else:
            source = Path(corpus)
            if not source.exists():
                raise EvalError(f"Not found: {source}")
        lib = Library(root, models_dir=models_dir, load_model=False)
        try:
            ev = _index_eval_library(lib, source, model, progress, imported=corpus is not None)
            if corpus is not None:
                ev.labeller = PassageLabeller(dataset.passages)
            yield ev
        finally:
            lib.close()


def _index_eval_library(
    lib: Library, corpus: Path, model: str | None,
    progress: Callable[[str, int, int], None] | None, *, imported: bool = False,
) -> EvalLibrary:
    started = time.perf_counter()
    summary = lib.import_paths([corpus], formats=None if imported else ["txt"],
                               progress=Progress(progress), include_generated=imported)
    lib.drain()
    frag_doc: dict[int, int] = {}
    fragment_text: dict[int, str] = {}
    for doc in lib.list_documents():
        for frag in lib.list_fragments(doc.id):
            if imported:
                fragment_text[frag.id] = frag.text
            else:  # file name p000123.txt -> passage 123
                frag_doc[frag.id] = int(Path(doc.path).stem[1:])
    lexical_s = time.perf_counter() - started
    model_name = None if model == "none" else (model or lib.active_model_name())
    embed_rate = None
    if model_name:
        # Fixed pages, not paced by time: a quantized model scales each batch as a whole
        # (DynamicQuantizeLinear), so a chunk's vector depends on the chunks it is batched
        # with, and pages sized by the machine's load made figures differ between runs.
        lib.worker.backfill_page = BACKFILL_BATCH
        t0 = time.perf_counter()
        embedded = lib.use_model(model_name, Progress(progress)).result()
        embed_s = time.perf_counter() - t0
        embed_rate = round(embedded / embed_s, 1) if embed_s > 0 else None
    index_s = time.perf_counter() - started
    chunk_doc: dict[int, int] = {}
    for cid, kind, sid in lib.index_reader.execute("SELECT id, source_type, source_id FROM kb_chunks"):
        if kind == "fragment" and sid in frag_doc:
            chunk_doc[cid] = frag_doc[sid]
    info = None
    if imported:
        n_chunks = lib.index_reader.execute("SELECT count(*) FROM kb_chunks").fetchone()[0]
        info = {"path": str(corpus), "documents": len(lib.list_documents()),
                "fragments": len(fragment_text), "chunks": n_chunks,
                "skipped": [list(s) for s in summary.skipped]}
    return EvalLibrary(lib, chunk_doc, model_name, lexical_s, index_s, embed_rate,
                       fragment_text=fragment_text, corpus=info)


def run_eval(
    path: Path, *, fmt: str | None = None, data_dir: Path | None = None,
    models_dir: Path | None = None, model: str | None = None, budget_chars: int = 1200,
    progress: Callable[[str, int, int], None] | None = None, limit_queries: int | None = None,
    corpus: Path | None = None,
) -> dict[str, Any]:
    fmt = fmt or detect_format(path)
    dataset = load_set(path, fmt)
    if limit_queries:
        dataset.queries = dataset.queries[:limit_queries]
    with open_eval_library(dataset, data_dir=data_dir, models_dir=models_dir, model=model,
                           progress=progress, corpus=corpus) as ev:
        return _evaluate(ev, dataset, fmt, budget_chars, progress)


def _evaluate(
    ev: EvalLibrary, dataset: EvalSet, fmt: str, budget_chars: int,
    progress: Callable[[str, int, int], None] | None,
) -> dict[str, Any]:
    lib, model_name = ev.lib, ev.model
    lexical_s, index_s, embed_rate = ev.lexical_index_s, ev.index_s, ev.embed_rate
    index = lib.index_reader
    modes = ["lexical", "hybrid", "plain_rrf", "dense"] if model_name else ["lexical"]
    doc_passage = ({} if ev.labeller is not None else
                   {doc.id: int(Path(doc.path).stem[1:]) for doc in lib.list_documents()})
    passages_of = _passage_finder(ev, doc_passage)
    tuning = lib.tuning()
    ranks: dict[str, list[int | None]] = {m: [] for m in modes}
    nothing: dict[str, int] = dict.fromkeys(modes, 0)
    weak: dict[str, int] = dict.fromkeys(modes, 0)
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
                                                          passages_of))
            nothing[mode] += response.notice == NOTHING_NOTICE
            weak[mode] += response.weak_matches
            docs = list(dict.fromkeys(p for r in response.results
                                      for p in passages_of(r.document_id, r.source_id,
                                                           r.chunk_start, r.chunk_end)))
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
    # Keyword search under the relevance floor lists its hits as weak matches (counted in R@k).
    result["weak_matches"] = {m: weak[m] for m in modes}
    if ev.corpus is not None:
        labelled = [passages_of(None, fid, 0, len(text)) for fid, text in ev.fragment_text.items()]
        result["corpus"] = {**ev.corpus, "unlabelled_fragments": sum(1 for p in labelled if not p)}
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


PassageFinder = Callable[[int | None, int, int, int], tuple[int, ...]]


def _passage_finder(ev: EvalLibrary, doc_passage: dict[int, int]) -> PassageFinder:
    """(document id, fragment id, start, end) of a hit or snippet -> the passages it holds."""
    if ev.labeller is None:
        return lambda doc_id, _fid, _a, _b: (doc_passage.get(doc_id or -1, -1),)
    labeller, texts = ev.labeller, ev.fragment_text
    cache: dict[tuple[int, int, int], tuple[int, ...]] = {}

    def find(_doc_id: int | None, fid: int, start: int, end: int) -> tuple[int, ...]:
        key = (fid, start, end)
        if key not in cache:
            cache[key] = labeller.label(texts.get(fid, "")[start:end])
        return cache[key]

    return find


def _context_holds_answer(
    lib: Library, results: list[Any], query: EvalQuery, budget: int, passages_of: PassageFinder,
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
               if query.relevant & set(passages_of(s.document_id, s.source_id, s.start, s.end)))
    return any(a and a in text for a in query.answers), packed.chars, gold


__all__ = ["EvalError", "PassageLabeller", "open_eval_library", "run_eval"]
