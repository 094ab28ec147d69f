"""Questions asked of a library that holds their answer, and of libraries that do not.

"Nothing in the library is close" must fire for a question the library does not
hold and stay silent for one it does. Both kinds are built here WITHOUT picking
questions by hand: every public set's questions are asked of their own library
(in-domain) and of other sets' libraries (off-topic): CMRC and DRCD questions of
the Chinese Rust book and of the Tatoeba sentence libraries, the Rust-book questions
(``benchmarks/data/rust_book_questions*.tsv``) of the CMRC, DRCD and Tatoeba
libraries, Tatoeba sentences of the Rust book and of CMRC/DRCD. Pairs whose
question could be answered by the other library are left out: CMRC and DRCD are
both Chinese Wikipedia (same genre, overlapping articles), and the two Tatoeba
sets are translations of the same English sentences.

Each question runs through the app's own ranking (``search.rank_chunks``, hybrid
with the library's tuning, and keywords alone) on a kept copy of the library,
and its evidence is stored: the candidate record (both sides' scores, coverage),
the query's terms with their document frequencies in the library and their
frequency in jieba's dictionary, the terms each keyword hit holds, the floor the
app computed, and for an in-domain question the rank of its first answering
passage (hybrid and keywords). ``bench_offtopic.py`` fits and scores floors on
these records offline.

    .venv/bin/python benchmarks/offtopic_data.py --model use-multilingual \\
        --models-dir /work/data/models --libraries DIR [--per-set 300]

``DIR`` holds one library per set and model, ``NAME--MODEL`` (NAME: cmrc, drcd,
zhpara, en_zh, book), as ``fusion_data.py --libraries`` keeps them; the book's is
the imported Rust book (``bench_rust_book.py --library``). Every book question is asked
(all ``rust_book_questions*.tsv``), and the off-topic questions written for these
libraries (``data/offtopic_questions.tsv``, set ``own``) of the libraries each names. Libraries are opened
and may be migrated: pass copies. Records go to ``fusion_data.CACHE``.
"""

from __future__ import annotations

import argparse
import pickle
import random
import re
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import fusion_data  # noqa: E402

LIBRARIES = ("cmrc", "drcd", "zhpara", "en_zh", "book")
QUESTION_SETS = ("cmrc", "drcd", "zhpara", "en_zh", "book", "own")
# Question set -> libraries that could hold its answer, besides its own (never asked off-topic).
RELATED = {"cmrc": {"drcd"}, "drcd": {"cmrc"}, "zhpara": {"en_zh"}, "en_zh": {"zhpara"}, "book": set(),
           "own": set()}
BOOK_QUESTION_FILES = tuple(sorted((ROOT / "benchmarks" / "data").glob("rust_book_questions*.tsv")))
#: Off-topic questions written for these libraries (``own``): kind, the libraries each is asked
#: of, the question. Never asked of a library not named on its line.
OWN_QUESTIONS = ROOT / "benchmarks" / "data" / "offtopic_questions.tsv"
PER_SET = 300
SECTION_RE = re.compile(r"#.* of set (\d+)\b")


@dataclass
class Asked:
    """One question asked of one library, with the evidence the floor may read."""

    qset: str
    library: str
    text: str
    in_domain: bool
    group: str  # the book's question group ("" elsewhere)
    cand: Any  # retrieval.candidates.Candidates of the hybrid search
    floor: float | None  # the dense floor the app computed
    calibration: Any
    vector: np.ndarray | None
    terms: list[str]
    all_terms: list[str]
    doc_freq: dict[str, int]
    n_chunks: int
    general_freq: dict[str, int]  # jieba dictionary frequency (0: not a dictionary word)
    hit_terms: dict[int, tuple[int, ...]]  # lexical hit -> indices into all_terms it holds
    evidence: float = -1.0  # the app's keyword evidence (``relevance.keyword_evidence``)
    rank_hybrid: int | None = None  # 1-based rank of the first answering passage (in-domain)
    rank_lexical: int | None = None
    rank_dense: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def data_path(model: str, version: str) -> Path:
    return fusion_data.CACHE / f"offtopic--{model}--{version}.pkl"


def own_questions(path: Path = OWN_QUESTIONS) -> list[tuple[str, str, frozenset[str]]]:
    """(kind, question, the libraries it is off-topic for) per line of ``offtopic_questions.tsv``."""
    return [(kind, question, libraries) for kind, question, libraries, _ in own_sections(path)]


def own_sections(path: Path = OWN_QUESTIONS) -> list[tuple[str, str, frozenset[str], str]]:
    """Each line of ``offtopic_questions.tsv`` with the set it came in: ``set N`` under a
    ``# ... of set N ...`` heading (the lead's sealed sets, released after their measurement),
    ``written`` before the first one."""
    out = []
    section = "written"
    for line in path.read_text(encoding="utf-8").splitlines():
        if heading := SECTION_RE.match(line):
            section = f"set {heading.group(1)}"
        if not line.strip() or line.startswith("#"):
            continue
        kind, libraries, question = line.split("\t")
        out.append((kind, question, frozenset(lib.strip() for lib in libraries.split(",")), section))
    return out


def own_section_of(path: Path = OWN_QUESTIONS) -> dict[str, str]:
    """Question -> the set it came in (``own_sections``)."""
    return {question: section for _, question, _, section in own_sections(path)}


def questions(name: str, per_set: int) -> list[tuple[str, str, frozenset[Any]]]:
    """(group, text, relevant) of a sample of the set's questions; relevant: passage indices,
    or for the book the answering file stems (every book question: they are few), or for
    ``own`` the libraries the question is asked of."""
    if name == "book":
        return [q for path in BOOK_QUESTION_FILES for q in fusion_data.book_questions(path)]
    if name == "own":
        return own_questions()
    else:
        _, queries = fusion_data._queries(name)
        asked = [("", q.text, frozenset(q.relevant)) for q in queries]
    if len(asked) > per_set:
        asked = random.Random(11).sample(asked, per_set)
    return asked


def _open(root: Path, models_dir: Path, model: str) -> Any:
    from desktop_kb.library import Library

    lib = Library(root, models_dir=models_dir, load_model=False)
    if model != "none":
        lib.use_model(model).result()
    lib.drain()
    return lib


def _chunk_doc(lib: Any, name: str) -> tuple[dict[int, Any], Any]:
    """Chunk -> passage index (public sets) or file stem (the book)."""
    docs = lib.list_documents()
    if name == "book":
        doc_key = {d.id: Path(d.path).stem for d in docs}
    else:
        doc_key = {d.id: int(Path(d.path).stem[1:]) for d in docs}  # p000123.txt
    frag = {f.id: doc_key[d.id] for d in docs for f in lib.list_fragments(d.id)}
    return {cid: frag[sid] for cid, kind, sid in lib.index_reader.execute(
        "SELECT id, source_type, source_id FROM kb_chunks") if kind == "fragment" and sid in frag}, None


def _first_rank(ranked: list[tuple[int, float]], chunk_doc: dict[int, Any], relevant: frozenset[Any],
                depth: int = 10) -> int | None:
    docs = list(dict.fromkeys(chunk_doc.get(c, ("chunk", c)) for c, _ in ranked))[:depth]
    return next((i + 1 for i, d in enumerate(docs) if d in relevant), None)


def ask(lib: Any, name: str, qset: str, group: str, text: str, relevant: frozenset[Any],
        chunk_doc: dict[int, Any] | None) -> Asked:
    from desktop_kb.index import segment
    from desktop_kb.retrieval.relevance import held_terms
    from desktop_kb.retrieval.search import nothing_relevant, rank_chunks
    from desktop_kb.retrieval.term_stats import chunk_tokens, index_stats, mean_tokens

    index, store = lib.index_reader, lib.store_reader
    tuning = lib.tuning() if lib.engine is not None else None
    mode = "hybrid" if lib.engine is not None else "lexical"
    hybrid = rank_chunks(index, text, mode=mode, engine=lib.engine, dense=lib.dense, tuning=tuning,
                         store=store)
    cand = hybrid.candidates
    analysis = segment.analyse_query(text)
    n_chunks, doc_freq = index_stats(index, analysis.all_terms)
    hits = [int(c) for c, r in zip(cand.ids, cand.lex_rank, strict=True) if r > 0]
    tokens = chunk_tokens(index, hits)
    hit_terms = {cid: tuple(i for i, t in enumerate(analysis.all_terms) if t in tokens.get(cid, ()))
                 for cid in hits}
    lexicon = segment._segmenter()
    general = {t: int(lexicon.base_freq(t)) if segment.has_han(t) else 0 for t in analysis.all_terms}
    out = Asked(qset, name, text, qset == name, group, cand, hybrid.floor,
                tuning.calibration if tuning else None, hybrid.query_vector, list(analysis.terms),
                list(analysis.all_terms), dict(doc_freq), n_chunks, general, hit_terms, hybrid.evidence)
    # The terms each hit holds as the app reads them (identifiers by their parts too), so the
    # evidence can be replayed offline under other term weights (bench_offtopic.py).
    out.extra["terms"] = list(hybrid.terms)  # as searched (regional words replaced)
    out.extra["doc_freq"] = dict(index_stats(index, hybrid.terms)[1])
    out.extra["held"] = held_terms(index, hybrid.terms, cand)
    out.extra["mean_tokens"] = mean_tokens(index)
    # The app's own decision on this ranking (weak matches or "nothing close"), so a replay of
    # it (bench_offtopic.py) can be checked against what the person was shown.
    out.extra["nothing"] = nothing_relevant(hybrid)
    # ... and with meaning vouching as it did before relevance.meaning_may_vouch (bench_offtopic.py
    # --bare-across replays that rule on it).
    out.extra["nothing_vouched"] = nothing_relevant(replace(hybrid, meaning_vouches=True))
    out.extra["dense_bar"] = hybrid.dense_bar
    out.extra["coverage"] = hybrid.coverage
    # What the level for a name the library lacks reads (bench_offtopic.py --weak-keywords): whether
    # it applied, and the bar without it.
    out.extra["searched_as"] = hybrid.searched_as
    out.extra["unknown_name"] = hybrid.unknown_name
    out.extra["name_bar"] = hybrid.name_bar
    out.extra["dense_bar_plain"] = hybrid.dense_bar
    if out.in_domain and chunk_doc is not None:
        lexical = rank_chunks(index, text, mode="lexical", engine=None, dense=None)
        out.rank_lexical = _first_rank(lexical.ranked, chunk_doc, relevant)
        if lib.engine is not None:
            out.rank_hybrid = _first_rank(hybrid.ranked, chunk_doc, relevant)
            listed = np.flatnonzero(cand.dense_rank > 0)
            listed = listed[np.argsort(cand.dense_rank[listed], kind="stable")]
            out.rank_dense = _first_rank([(int(cand.ids[i]), 0.0) for i in listed], chunk_doc, relevant)
        else:
            out.rank_hybrid = out.rank_lexical
    return out


def build(model: str, models_dir: Path, libraries: Path, per_set: int,
          libs: tuple[str, ...] = LIBRARIES) -> list[Asked]:
    asked_of = {name: questions(name, per_set) for name in QUESTION_SETS}
    records: list[Asked] = []
    for name in libs:
        root = libraries / f"{name}--{model}"
        if not (root / "library.sqlite").is_file():
            print(f"  no library {root}: skipped", flush=True)
            continue
        t0 = time.perf_counter()
        lib = _open(root, models_dir, model)
        try:
            chunk_doc, _ = _chunk_doc(lib, name)
            for qset in QUESTION_SETS:
                if qset != name and name in RELATED[qset]:
                    continue
                for group, text, relevant in asked_of[qset]:
                    if qset == "own" and name not in relevant:
                        continue
                    records.append(ask(lib, name, qset, group, text, relevant,
                                       chunk_doc if qset == name else None))
        finally:
            lib.close()
        print(f"  {name}: {sum(r.library == name for r in records)} questions, "
              f"{time.perf_counter() - t0:.0f} s", flush=True)
    return records


def load(model: str, version: str) -> list[Asked]:
    with data_path(model, version).open("rb") as src:
        return _Unpickler(src).load()  # our own cache file


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if module == "__main__" and name == "Asked":
            return Asked
        return super().find_class(module, name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--models-dir", type=Path, required=True)
    parser.add_argument("--libraries", type=Path, required=True)
    parser.add_argument("--per-set", type=int, default=PER_SET)
    parser.add_argument("--version", default=None)
    args = parser.parse_args()
    version = args.version or fusion_data.code_version()
    records = build(args.model, args.models_dir, args.libraries, args.per_set)
    path = data_path(args.model, version)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        pickle.dump(records, out)
    print(f"{len(records)} records -> {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
