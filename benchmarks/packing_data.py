"""QA packing cases replayed from the candidate dumps of ``fusion_data.py``, with no library or model.

Each query of a dumped set is ranked as the app's QA retrieval ranks it
(``fusion.fuse_scores`` with the model's shipped constants, the library's
measured calibration and each chunk's document, the relevance floor, the source
join, one result per source, ``qa.retrieve``'s limit of 8), and becomes a :class:`PackCase`: the
hits and source texts ``pack_context`` receives in the app, plus what scoring
needs (the answers, and which passage each source belongs to).

For the pairs sets (Tatoeba) the "answer" is the gold passage itself: a case
is answered when a packed window comes from it.

Version labels starting with ``pack:`` read the older ``pack-<set>--<model>--<v>.pkl``
dumps instead (cases built through ``Library.search`` by the previous version of
``bench_packing.py``: the hits as the app ranked them then), e.g. ``drcd:pack:p1``.
"""

from __future__ import annotations

import json
import pickle
from dataclasses import dataclass
from typing import Any

import fusion_data
import numpy as np

from desktop_kb.retrieval.floor_reference import reference_of
from desktop_kb.retrieval.fusion import fuse_scores, order, relevance_floor
from desktop_kb.retrieval.results import SearchResult
from desktop_kb.retrieval.tuning import params_of
from desktop_kb.text.han import has_han

QA_LIMIT = 8  # qa.retrieve.retrieve's default


@dataclass
class PackCase:
    hits: list[tuple[SearchResult, str]]  # rank order, as pack_context receives them
    terms: list[str]
    doc_freq: dict[str, int]
    n_docs: int
    question: str
    answers: list[str]  # empty for pairs sets: the gold passage is the answer
    gold: frozenset[int]  # passage indices of the question's own passage(s)
    passage: dict[tuple[str, int], int]  # source key -> passage index


def shipped_params(model: str) -> dict[str, float]:
    path = fusion_data.ROOT / "desktop_kb" / "embed" / "calibrations.json"
    entries = json.loads(path.read_text(encoding="utf-8"))["models"].values()
    return next((e for e in entries if e.get("model") == model), {})


def cases(data: fusion_data.SetData) -> list[PackCase]:
    shipped = shipped_params(data.model)
    params, reference = params_of(shipped), reference_of(shipped)
    cal = data.calibration
    refs, sources = data.refs, data.sources

    def tie(cid: int) -> tuple[int, int]:
        ref = refs.get(cid)
        return (ref.source_id, ref.ord) if ref else (1 << 62, cid)

    passage = {ref.key: data.chunk_doc.get(cid, -1) for cid, ref in refs.items()}
    out: list[PackCase] = []
    for rec in data.records:
        c = rec.cand
        hits: list[tuple[SearchResult, str]] = []
        # Both floors, as the app reads them (the per-query one needs the question's vector).
        floor = relevance_floor(cal, params, has_han(rec.text), rec.vector, reference)
        nothing = c.lexical_hits == 0 and (not c.dense_ran or (floor is not None and c.best_cosine < floor))
        if not nothing and len(c):
            seen: set[tuple[str, int]] = set()
            # Each chunk's document, as the app groups them (a chunk of no passage alone).
            groups = np.where(rec.doc >= 0, rec.doc, -1 - np.arange(len(rec.doc)))
            for f in order(c, fuse_scores(c, cal, params, groups), tie):
                ref = refs.get(f.chunk_id)
                src = sources.get(ref.key) if ref else None
                if ref is None or src is None or ref.key in seen:
                    continue
                seen.add(ref.key)
                hits.append((SearchResult(
                    rank=len(hits) + 1, source_type=ref.source_type, source_id=ref.source_id,
                    title=src.title, snippet="", highlights=[], start=ref.start, end=ref.end,
                    score=f.score, chunk_id=f.chunk_id, chunk_start=ref.start, chunk_end=ref.end,
                    document_id=src.document_id, lexical_score=f.lexical, dense_score=f.dense), src.text))
                if len(hits) >= QA_LIMIT:
                    break
        out.append(PackCase(hits, list(rec.terms), dict(rec.doc_freq), rec.n_docs, rec.text,
                            list(rec.answers), frozenset(rec.relevant), passage))
    return out


def load_cases(name: str, model: str, version: str) -> list[PackCase]:
    if version.startswith("pack:"):
        return _legacy_cases(name, model, version.removeprefix("pack:"))
    return cases(fusion_data.load_cached(name, model, version))


class _LegacyCase:
    """The earlier dumps' record: hits, terms, doc_freq, n_docs, question, answers, gold_docs."""

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


class _LegacyUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        return _LegacyCase if name == "PackCase" else super().find_class(module, name)


def _legacy_cases(name: str, model: str, version: str) -> list[PackCase]:
    path = fusion_data.CACHE / f"pack-{name}--{model}--{version}.pkl"
    if not path.is_file():
        raise SystemExit(f"no dump {path}")
    with path.open("rb") as src:
        old = _LegacyUnpickler(src).load()  # our own cache file
    out = []
    for c in old:
        passage = {(r.source_type, r.source_id): r.document_id or -1 for r, _t in c.hits}
        out.append(PackCase(list(c.hits)[:QA_LIMIT], list(c.terms), dict(c.doc_freq), c.n_docs,
                            c.question, list(c.answers), frozenset(c.gold_docs), passage))
    return out


def gold_keys(case: PackCase) -> set[tuple[str, int]]:
    return {k for k, p in case.passage.items() if p in case.gold}


def relevant_ranks(case: PackCase) -> list[int]:
    keys = gold_keys(case)
    return [i for i, (r, _t) in enumerate(case.hits) if (r.source_type, r.source_id) in keys]
