"""Candidate sets of the public evaluation sets, built through the app and cached.

Each set becomes a throwaway library exactly as ``desktop-kb eval`` builds it
(one document per passage, imported from files, indexed and embedded by the
app); every query then runs through :func:`desktop_kb.retrieval.candidates.gather`
— the function the app's search path uses — and its candidate set is stored
with the passage of each candidate and the gold passages. Fitting fusion
constants then needs no library, model or SQL: it is numpy over these files.

The cache is keyed by set, model and the commit of the code that built it.
"""

from __future__ import annotations

import pickle
import random
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

EVAL_DIR = Path(__file__).resolve().parents[2] / "shared" / "eval"
if not EVAL_DIR.is_dir():
    EVAL_DIR = Path("/work/shared/eval")
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


@dataclass
class QueryRecord:
    """One query's candidate set plus what the benchmark needs to score it."""

    text: str
    cand: object  # desktop_kb.retrieval.candidates.Candidates
    doc: np.ndarray  # passage index per candidate (-1: not a passage chunk)
    relevant: frozenset[int]
    answers: list[str]


@dataclass
class SetData:
    name: str
    model: str
    records: list[QueryRecord]
    calibration: object  # desktop_kb.retrieval.calibration.Calibration | None


def code_version() -> str:
    root = Path(__file__).resolve().parents[1]
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "desktop_kb"],
                               capture_output=True, text=True, check=True).stdout.strip()
        return out + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def cache_path(name: str, model: str, version: str) -> Path:
    return CACHE / f"{name}--{model}--{version}.pkl"


def build(name: str, model: str, models_dir: Path, version: str) -> SetData:
    from desktop_kb.evaluation import load_set, open_eval_library
    from desktop_kb.index.segment import analyse_query
    from desktop_kb.retrieval.calibration import estimate
    from desktop_kb.retrieval.candidates import embed_query, gather

    file, max_queries = SETS[name]
    path = EVAL_DIR / file
    dataset = load_set(path, "squad" if file.endswith(".json") else "pairs")
    if max_queries and len(dataset.queries) > max_queries:
        dataset.queries = random.Random(7).sample(dataset.queries, max_queries)
    records: list[QueryRecord] = []
    with open_eval_library(dataset, models_dir=models_dir, model=model) as ev:
        index = ev.lib.index_reader
        calibration = None
        if ev.lib.engine is not None:
            calibration = estimate(index, ev.lib.store_reader, ev.lib.engine, ev.lib.dense)
        for query in dataset.queries:
            analysis = analyse_query(query.text)
            vector = embed_query(ev.lib.engine, ev.lib.dense, query.text)
            cand = gather(index, query.text, analysis, query_vector=vector, dense=ev.lib.dense)
            doc = np.array([ev.chunk_doc.get(int(c), -1) for c in cand.ids], dtype=np.int64)
            records.append(QueryRecord(query.text, cand, doc, frozenset(query.relevant),
                                       list(query.answers)))
    CACHE.mkdir(parents=True, exist_ok=True)
    data = SetData(name, model, records, calibration)
    with cache_path(name, model, version).open("wb") as out:
        pickle.dump(data, out)
    return data


def load(name: str, model: str, models_dir: Path, version: str | None = None,
         *, rebuild: bool = False) -> SetData:
    version = version or code_version()
    path = cache_path(name, model, version)
    if path.is_file() and not rebuild:
        with path.open("rb") as src:
            return pickle.load(src)  # our own cache file, written above
    return build(name, model, models_dir, version)
