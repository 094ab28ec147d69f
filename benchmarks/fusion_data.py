"""Candidate sets of the public evaluation sets (and of the held-out book), built through the app and cached.

Each set becomes a throwaway library exactly as ``desktop-kb eval`` builds it
(one document per passage, imported from files, indexed and embedded by the
app); every query then runs through :func:`desktop_kb.retrieval.candidates.gather`
— the function the app's search path uses — and its candidate set is stored
with the passage of each candidate and the gold passages. Fitting fusion or
packing constants then needs no library, model or SQL: it is numpy over these
files. Each dump also keeps what a later step needs to replay the app offline:
every candidate chunk's source and span, the source texts (for packing), the
query vectors and the library's vectors (for re-estimating calibration).

Sets that share their passages (DRCD with Traditional and with Simplified
questions) share one library, so it is embedded once.

The held-out book (``book``) is dumped the same way for *diagnosis only*:
nothing may be fitted on it (``FIT_SETS`` never contains it).

The cache is keyed by set, model and a version label (default: the commit).
"""

from __future__ import annotations

import pickle
import random
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
EVAL_DIR = ROOT.parents[1] / "shared" / "eval"
if not EVAL_DIR.is_dir():
    EVAL_DIR = Path("/work/shared/eval")
BOOK_DIR = Path("/work/shared/corpora/rust-book-cn")
BOOK_QUESTIONS = ROOT / "benchmarks" / "data" / "rust_book_questions.tsv"
CACHE = Path(tempfile.gettempdir()) / "desktop-kb-fusion-cache"

# name -> (file, max queries). Tatoeba en→zh is subsampled to 2,000 queries (every passage
# stays in the library); the others are used whole.
SETS: dict[str, tuple[str, int | None]] = {
    "cmrc": ("cmrc2018_trial.json", None),
    "drcd": ("drcd_dev.json", None),
    "drcd_simp": ("drcd_dev_simplified_questions.json", None),
    "zhpara": ("tatoeba_cmn_dev_zhpara.tsv", None),
    "en_zh": ("tatoeba_cmn_dev.tsv", 2000),
}
# The only sets any constant is fitted on. DRCD with Simplified questions is not one
# of them: since queries and passages are folded to one script, its questions reach
# the index exactly as DRCD's own do (identical tables), so fitting on both would
# count DRCD twice against every other set.
FIT_SETS = ("cmrc", "drcd", "zhpara", "en_zh")
# Sets whose passages are identical share one library (built once, embedded once).
SHARED = {"drcd": ("drcd", "drcd_simp"), "drcd_simp": ("drcd", "drcd_simp")}


@dataclass
class QueryRecord:
    """One query's candidate set plus what the benchmark needs to score it."""

    text: str
    cand: Any  # desktop_kb.retrieval.candidates.Candidates
    doc: np.ndarray  # passage index per candidate (-1: not a passage chunk)
    relevant: frozenset[int]
    answers: list[str]
    group: str = ""  # the book's question group
    vector: np.ndarray | None = None  # the query vector (None without a model)
    terms: list[str] = field(default_factory=list)  # query_terms(text), for packing
    doc_freq: dict[str, int] = field(default_factory=dict)
    n_docs: int = 1
    # Every query token (stopwords included) with its document frequency, and per
    # lexical hit the indices of the tokens it holds: coverage can be recomputed
    # offline under another term weighting.
    all_terms: list[str] = field(default_factory=list)
    all_doc_freq: dict[str, int] = field(default_factory=dict)
    hit_terms: dict[int, tuple[int, ...]] = field(default_factory=dict)
    # The library's calibration read at this question's own unrelated level (``read_as_app``;
    # None: the set's own calibration). A class default, so older dumps read it too.
    calibration: Any = None
    # The result each candidate is shown as (``by_result``: its note or fragment, as the app's
    # search lists one hit per source); None: ranked by passage.
    unit: Any = None


@dataclass
class SetData:
    name: str
    model: str
    records: list[QueryRecord]
    calibration: Any  # desktop_kb.retrieval.calibration.Calibration | None
    refs: dict[int, Any] = field(default_factory=dict)  # chunk id -> resolve.ChunkRef (candidates only)
    sources: dict[tuple[str, int], Any] = field(default_factory=dict)  # key -> resolve.ResolvedSource
    vector_ids: np.ndarray | None = None  # the library's vectors (for offline calibration)
    vectors: np.ndarray | None = None
    chunk_doc: dict[int, int] = field(default_factory=dict)  # every chunk -> passage index
    # The library's per-script levels as the app measures them (``script_levels.measure``) and
    # each candidate's Han share as the app reads it (``ScriptLevels.weights``: the index's token
    # text); None in a one-script library. ``script_weights`` is None in a dump made before they
    # were kept (class defaults, so older dumps read them too).
    scripts: Any = None
    script_weights: dict[int, float] | None = None


def code_version() -> str:
    try:
        out = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "desktop_kb"],
                               capture_output=True, text=True, check=True).stdout.strip()
        return out + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def cache_path(name: str, model: str, version: str) -> Path:
    return CACHE / f"{name}--{model}--{version}.pkl"


def _queries(name: str) -> tuple[Any, list[Any]]:
    """(dataset, queries) of a public set."""
    from desktop_kb.evaluation import load_set

    file, max_queries = SETS[name]
    dataset = load_set(EVAL_DIR / file, "squad" if file.endswith(".json") else "pairs")
    queries = list(dataset.queries)
    if max_queries and len(queries) > max_queries:
        queries = random.Random(7).sample(queries, max_queries)
    return dataset, queries


def _slim(cand: Any, texts: dict[int, str]) -> Any:
    """The candidates as a dump keeps them: without the float vectors the question read
    (``seen``: ~200 rows a question, re-read offline from the dump's own vectors) or the hits'
    body tokens (the script weights are read once per library, ``_finish``), and with each
    hit's token text shared by every question that found it. DRCD kept them all: 3,524
    questions x two question sets held ~15 GB before the second was saved (OOM-killed)."""
    shared = {cid: texts.setdefault(cid, t) for cid, t in cand.hit_texts.items()}
    return replace(cand, seen=None, hit_bodies={}, hit_texts=shared)


def _record(lib: Any, chunk_doc: dict[int, int], text: str, relevant: frozenset[int],
            answers: list[str], group: str = "", texts: dict[int, str] | None = None) -> QueryRecord:
    from desktop_kb.index import user_words
    from desktop_kb.index.segment import analyse_query, query_terms
    from desktop_kb.retrieval.candidates import embed_query, gather
    from desktop_kb.retrieval.regional_words import in_library_words
    from desktop_kb.retrieval.term_stats import chunk_tokens, index_stats

    index = lib.index_reader
    # The question as search.rank_chunks searches it: cut with the index's user words (a
    # library reopened in this process was never indexed here), regional words the library
    # lacks put in the ones it holds (the book's variant questions: 軟體 -> 软件).
    user_words.sync(index)
    searched = in_library_words(index, text)
    analysis = analyse_query(searched)
    vector = embed_query(lib.engine, lib.dense, searched)
    cand = _slim(gather(index, searched, analysis, query_vector=vector, dense=lib.dense),
                 {} if texts is None else texts)
    doc = np.array([chunk_doc.get(int(c), -1) for c in cand.ids], dtype=np.int64)
    terms = query_terms(searched)
    n_docs, doc_freq = index_stats(index, terms)
    _, all_doc_freq = index_stats(index, analysis.all_terms)
    hits = [int(c) for c, r in zip(cand.ids, cand.lex_rank, strict=True) if r > 0]
    tokens = chunk_tokens(index, hits)
    hit_terms = {cid: tuple(i for i, t in enumerate(analysis.all_terms) if t in tokens.get(cid, ()))
                 for cid in hits}
    return QueryRecord(text, cand, doc, relevant, answers, group, vector, terms, dict(doc_freq),
                       n_docs or 1, list(analysis.all_terms), dict(all_doc_freq), hit_terms)


def _finish(name: str, model: str, lib: Any, records: list[QueryRecord],
            chunk_doc: dict[int, int]) -> SetData:
    from desktop_kb.retrieval.calibration import estimate
    from desktop_kb.retrieval.resolve import chunk_refs, resolve_sources
    from desktop_kb.retrieval.script_levels import measure

    calibration = None
    if lib.engine is not None:
        calibration = estimate(lib.index_reader, lib.store_reader, lib.engine, lib.dense)
    ids = sorted({int(c) for r in records for c in r.cand.ids})
    refs = chunk_refs(lib.index_reader, ids)
    sources = resolve_sources(lib.store_reader, list({ref.key for ref in refs.values()}))
    vector_ids, vectors = lib.dense.snapshot() if lib.engine is not None else (None, None)
    scripts = measure(lib.index_reader, lib.dense) if lib.engine is not None else None
    # A one-script library has no levels: no weights either (the replay keeps its cosines).
    weights = {} if scripts is None else {
        cid: float(w) for cid, w in zip(ids, scripts.weights(lib.index_reader, ids), strict=True)}
    return SetData(name, model, records, calibration, refs, sources, vector_ids, vectors, chunk_doc,
                   scripts, weights)


def _save(data: SetData, version: str) -> None:
    CACHE.mkdir(parents=True, exist_ok=True)
    path = cache_path(data.name, data.model, version)
    tmp = path.with_suffix(".tmp")
    with tmp.open("wb") as out:
        pickle.dump(data, out)
    tmp.replace(path)


def library_dir(libraries: Path, name: str, model: str) -> Path:
    """Where ``--libraries`` keeps the library of ``name`` (shared by sets that share passages)."""
    return libraries / f"{SHARED.get(name, (name,))[0]}--{model}"


@contextmanager
def _kept_library(dataset: Any, root: Path, models_dir: Path, model: str) -> Iterator[Any]:
    """The set's library kept in ``root``: built on first use, reopened after (no re-embedding)."""
    from desktop_kb.evaluation import open_eval_library
    from desktop_kb.library import Library

    if not (root / "library.sqlite").is_file():
        root.parent.mkdir(parents=True, exist_ok=True)
        with open_eval_library(dataset, data_dir=root, models_dir=models_dir, model=model) as ev:
            yield ev
        return
    lib = Library(root, models_dir=models_dir, load_model=False)
    try:
        lib.use_model(model).result()
        lib.drain()
        passage = {d.id: int(Path(d.path).stem[1:]) for d in lib.list_documents()}  # p000123.txt
        frag_doc = {f.id: passage[d.id] for d in lib.list_documents() for f in lib.list_fragments(d.id)}
        chunk_doc = {cid: frag_doc[sid] for cid, kind, sid in lib.index_reader.execute(
            "SELECT id, source_type, source_id FROM kb_chunks") if kind == "fragment" and sid in frag_doc}
        yield SimpleNamespace(lib=lib, chunk_doc=chunk_doc)
    finally:
        lib.close()


def build(name: str, model: str, models_dir: Path, version: str,
          libraries: Path | None = None) -> SetData:
    """Build ``name`` (and the sets sharing its library); returns ``name``'s data.

    ``libraries``: keep each set's library there and reuse it (``library_dir``), so a
    later run re-measures a library without importing and embedding it again.
    """
    from desktop_kb.evaluation import open_eval_library

    group = SHARED.get(name, (name,))
    loaded = {n: _queries(n) for n in group}
    dataset = loaded[group[0]][0]
    for n in group[1:]:
        if loaded[n][0].passages != dataset.passages:
            raise ValueError(f"{n} does not share {group[0]}'s passages")
    built: dict[str, SetData] = {}
    opened = (_kept_library(dataset, library_dir(libraries, name, model), models_dir, model)
              if libraries else open_eval_library(dataset, models_dir=models_dir, model=model))
    texts: dict[int, str] = {}
    with opened as ev:
        for n in group:
            records = [_record(ev.lib, ev.chunk_doc, q.text, frozenset(q.relevant), list(q.answers),
                               texts=texts)
                       for q in loaded[n][1]]
            data = _finish(n, model, ev.lib, records, ev.chunk_doc)
            _save(data, version)
            # Only the set asked for is returned: the other is on disk, not held twice.
            built.update({n: data} if n == name else {})
            del records, data
    return built[name]


def load(name: str, model: str, models_dir: Path, version: str | None = None,
         *, rebuild: bool = False, libraries: Path | None = None) -> SetData:
    version = version or code_version()
    path = cache_path(name, model, version)
    if path.is_file() and not rebuild:
        return _read(path)
    return build(name, model, models_dir, version, libraries)


def load_cached(name: str, model: str, version: str | None = None) -> SetData:
    """A dump built earlier (the book cannot be built from here: see ``main``)."""
    path = cache_path(name, model, version or code_version())
    if not path.is_file():
        raise SystemExit(f"no dump {path}: run benchmarks/fusion_data.py --sets {name} first")
    return _read(path)


class _Unpickler(pickle.Unpickler):
    """Dumps written by ``python fusion_data.py`` name their classes ``__main__.*``."""

    def find_class(self, module: str, name: str) -> Any:
        if module == "__main__" and name in ("SetData", "QueryRecord"):
            return globals()[name]
        return super().find_class(module, name)


def _read(path: Path) -> SetData:
    with path.open("rb") as src:
        return _Unpickler(src).load()  # our own cache file


def read_in_own_scripts(data: SetData) -> SetData:
    """The set as the app's hybrid search reads it: each cosine against its own script's level.

    A dump keeps the levels the app measured on its library (``script_levels.measure``) and each
    candidate's Han share as the app reads it (``SetData.scripts``, ``script_weights``); the
    replay then moves exactly the cosines the app moves. An older dump gets levels estimated here
    (each candidate's share from the chunk text through the indexer's segmentation, the line
    fitted through the candidates' vectors only): close, but not the app's sample, and on the
    Rust book a near-tie could fall the other way (e5, set 15: the meaning side's first for an
    English question). A set whose library has one script keeps its cosines.
    """
    from desktop_kb.index.segment import segment_for_index
    from desktop_kb.retrieval.script_levels import fit, han_weight, read_in_own_script

    if data.vectors is None or data.vector_ids is None:
        return data
    data = _with_script_share(data)
    if data.script_weights is not None:  # measured at dump time (None: one script)
        levels, weight = data.scripts, data.script_weights
    else:
        weight = {}
        for cid, ref in data.refs.items():
            source = data.sources.get(ref.key)
            share = han_weight(segment_for_index(source.text[ref.start:ref.end])) if source else None
            if share is not None:
                weight[int(cid)] = share
        ids = [i for i, cid in enumerate(data.vector_ids.tolist()) if cid in weight]
        levels = fit(np.array([weight[int(data.vector_ids[i])] for i in ids]), data.vectors[ids]) if ids else None
    if levels is None:
        return data
    records = []
    for rec in data.records:
        weights = np.array([weight.get(int(c), np.nan) for c in rec.cand.ids])
        records.append(replace(rec, cand=read_in_own_script(rec.cand, levels.offsets(rec.vector, weights))))
    return replace(data, records=records)


def dense_of(data: SetData) -> Any:
    """The dump's library vectors in a ``DenseIndex`` (None without a model)."""
    from desktop_kb.retrieval.dense import DenseIndex

    if data.vectors is None or data.vector_ids is None:
        return None
    dense = DenseIndex()
    dense.reset(data.model, data.vectors.shape[1])
    dense.add(data.vector_ids.tolist(), data.vectors.astype(np.float32))
    return dense


def read_as_app(data: SetData, reference: Any, *, pull: bool = True, own_level: bool = True) -> SetData:
    """The set as the app's hybrid search reads it before fusion (``search.rank_chunks``):
    cosines in their own script (``read_in_own_scripts``), less an English question's
    language pull (``language_pull``, with the model's floor ``reference``), and a question
    in another script than the library's at its own unrelated level
    (``calibration.read_for_question``, the library's centre drawn as the app draws it). ``pull``/``own_level`` off: the replay
    without that step (for before/after tables).
    """
    from desktop_kb.retrieval.calibration import library_centre, read_for_question
    from desktop_kb.retrieval.language_pull import without_language_pull

    data = read_in_own_scripts(data)
    dense = dense_of(data)
    if dense is None:
        return data
    centre = library_centre(dense) if own_level else None
    across = reference is not None and reference.across_scripts
    records = []
    for rec in data.records:
        cand = without_language_pull(rec.cand, dense, reference, data.calibration) if pull else rec.cand
        records.append(replace(rec, cand=cand,
                               calibration=read_for_question(data.calibration, rec.vector, centre,
                                                             rec.cand.has_cjk, across)))
    return replace(data, records=records)


def dense_as_app(rec: QueryRecord, read_rec: QueryRecord, calibration: Any) -> Any:
    """The candidates the app's dense-only search ranks (``search.rank_chunks``): ``read_rec``'s
    (``read_as_app``) for a question in another script than the library's, ``rec``'s own cosines
    for one in its script (known ``han_share``)."""
    own = (calibration is not None and calibration.han_share >= 0
           and calibration.measured_in_script_of(rec.cand.has_cjk))
    return rec.cand if own else read_rec.cand


def by_result(data: SetData) -> SetData:
    """Each candidate labelled with the result the app shows it as: its note or fragment
    (``search.materialize`` lists the best chunk of each), so a replay ranks results, not
    passages. A book chapter is one document of many fragments: two fragments of a wrong
    chapter above the right one are two places lost in the app, one in a ranking by document.
    A chunk the dump cannot resolve is a result of its own."""
    keys: dict[Any, int] = {}
    records = []
    for rec in data.records:
        unit = [keys.setdefault(ref.key, len(keys)) if (ref := data.refs.get(int(c))) is not None
                else -1 - i for i, c in enumerate(rec.cand.ids.tolist())]
        records.append(replace(rec, unit=np.array(unit, dtype=np.int64)))
    return replace(data, records=records)


def _with_script_share(data: SetData) -> SetData:
    """The calibration with the library's script, as the app reads it (``calibration.script_share``:
    the share of sentences holding Han) when the dump was made before it was measured."""
    from desktop_kb.retrieval.snippets import sentence_spans
    from desktop_kb.text.han import has_han

    if data.calibration is None or data.calibration.han_share >= 0:
        return data
    han = total = 0
    for ref in data.refs.values():
        source = data.sources.get(ref.key)
        if source is not None:
            for a, b in sentence_spans(source.text, ref.start, ref.end):
                han += has_han(source.text[a:b])
                total += 1
    if not total:
        return data
    return replace(data, calibration=replace(data.calibration, han_share=round(han / total, 4)))


# ----- the held-out book (diagnosis only: never fitted on) --------------------------------

def book_questions(path: Path = BOOK_QUESTIONS) -> list[tuple[str, str, frozenset[str]]]:
    """(group, question, answering file stems) per line of the question file."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        group, question, files = line.split("\t")
        out.append((group, question, frozenset(f.strip() for f in files.split(","))))
    return out


def released_book_files() -> list[Path]:
    """Every released question file about the book, in the order the sets were written."""
    def number(path: Path) -> int:
        return int(path.stem.removeprefix("rust_book_questions").lstrip("_") or "1")

    return sorted(BOOK_QUESTIONS.parent.glob("rust_book_questions*.tsv"), key=number)


def book_version(version: str, path: Path) -> str:
    """The dump version of one question file under ``--book-each`` (``V.13`` for ``_13.tsv``)."""
    return f"{version}.{path.stem.removeprefix('rust_book_questions').lstrip('_') or '1'}"


def build_book(model: str, models_dir: Path, version: str, *, data_dir: Path | None = None,
               questions: list[Path] | None = None) -> SetData:
    """The book imported as a learner would; doc = file index, relevant = answering files.

    ``data_dir`` keeps the built library (reused when it already holds the book).
    """
    from desktop_kb.library import Library

    with tempfile.TemporaryDirectory(prefix="book-data-") as tmp:
        root = data_dir or Path(tmp) / "lib"
        lib = Library(root, models_dir=models_dir, load_model=False)
        try:
            if not lib.list_documents():
                lib.import_paths([BOOK_DIR])
                lib.drain()
            if model != "none":
                lib.use_model(model).result()
                lib.drain()
            stems = sorted({Path(d.path).stem for d in lib.list_documents()})
            file_index = {s: i for i, s in enumerate(stems)}
            doc_of = {d.id: file_index[Path(d.path).stem] for d in lib.list_documents()}
            frag_doc = {f.id: doc_of[d.id] for d in lib.list_documents() for f in lib.list_fragments(d.id)}
            chunk_doc = {cid: frag_doc[sid] for cid, kind, sid in lib.index_reader.execute(
                "SELECT id, source_type, source_id FROM kb_chunks") if kind == "fragment" and sid in frag_doc}
            records = []
            asked = [q for path in (questions or [BOOK_QUESTIONS]) for q in book_questions(path)]
            texts: dict[int, str] = {}
            for group, question, files in asked:
                relevant = frozenset(file_index[f] for f in files if f in file_index)
                records.append(_record(lib, chunk_doc, question, relevant, [], group, texts))
            data = _finish("book", model, lib, records, chunk_doc)
        finally:
            lib.close()
    _save(data, version)
    return data


def main() -> int:
    import argparse
    import sys
    import time

    sys.path.insert(0, str(ROOT))
    parser = argparse.ArgumentParser(description="Build (or rebuild) candidate dumps.")
    parser.add_argument("--model", required=True)
    parser.add_argument("--models-dir", type=Path, required=True)
    parser.add_argument("--sets", default=",".join(SETS), help="public sets and/or 'book'")
    parser.add_argument("--version", default=None)
    parser.add_argument("--book-library", type=Path, default=None, help="keep the book's library here")
    parser.add_argument("--book-questions", type=Path, action="append", default=None,
                        help="question file(s) for 'book' (default: the first set)")
    parser.add_argument("--book-each", action="store_true",
                        help="'book': one dump per released question file (version V.N for _N.tsv; "
                             "dumps already made are kept), for bench_fusion_loso.py --book-sets")
    parser.add_argument("--libraries", type=Path, default=None,
                        help="keep each public set's library here and reuse it")
    args = parser.parse_args()
    version = args.version or code_version()
    for name in [n for n in args.sets.split(",") if n]:
        t0 = time.perf_counter()
        if name == "book" and args.book_each:
            versions = []
            for path in released_book_files():
                versions.append(book_version(version, path))
                if not cache_path("book", args.model, versions[-1]).is_file():
                    build_book(args.model, args.models_dir, versions[-1], data_dir=args.book_library,
                               questions=[path])
            print(f"book {args.model}: {len(versions)} sets, {time.perf_counter() - t0:.0f} s; "
                  f"--book-sets {','.join(versions)}", flush=True)
            continue
        if name == "book":
            data = build_book(args.model, args.models_dir, version, data_dir=args.book_library,
                              questions=args.book_questions or [BOOK_QUESTIONS])
        elif cache_path(name, args.model, version).is_file():
            data = load(name, args.model, args.models_dir, version)
        else:
            data = build(name, args.model, args.models_dir, version, args.libraries)
        print(f"{name} {args.model} {len(data.records)} queries, {data.calibration}, "
              f"{time.perf_counter() - t0:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
