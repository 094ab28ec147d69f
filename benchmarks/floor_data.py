"""What the relevance floor must separate, built from the public sets' dumps.

The floor acts only on a question no keyword matched: a best cosine under it
answers "nothing in the library is close to this". So it must separate *a
question about something in the library, possibly only at topic level, in
other words* from *a question about something absent*. Both are built here
from the candidate dumps of ``fusion_data.py`` (query vectors and every chunk's
vector), with the question's words out of the picture (only cosines count):

* ``present``: a tiny library (1, 3 or 8 passages) that holds the question's
  own passage;
* ``topic``: a tiny library that holds another paragraph of the question's
  article but not its own (SQuAD-format sets; the article is the topic);
* ``absent``: a tiny library of passages from other articles;
* ``library`` / ``library_topic``: the whole set's library, with and without
  the question's own passage (its article's other paragraphs kept).

Each entry also keeps its question's vector, and each set a random sample of its
passage vectors: the per-query baseline (``floor_reference``) is a question's cosine
to the centroid of ordinary passages, which a fold takes from its training sets only.

Tiny libraries are below ``calibration.MIN_CHUNKS``, where the app reads cosines
with the manifest's prior, so their closeness is taken against the prior that
the training sets give (the median of their libraries' calibrations, as
``bench_fusion_loso.write_calibration`` stores it); whole libraries use their
own measured calibration, as the app does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import fusion_data
import numpy as np

from desktop_kb.retrieval.calibration import Calibration

REVERSED = "zh_en"  # Chinese questions on English passages: a held-out check, never fitted on
ENGLISH_PARAPHRASES = "enpara"  # English questions on English passages: the same
TINY_SIZES = (1, 3, 8)
MAX_QUESTIONS = 600  # per set: enough for a 1st percentile, quick to build
REFERENCE_SAMPLE = 400  # passage vectors per set for the reference centroid
KINDS_PRESENT = ("present", "topic", "library", "library_topic")


@dataclass
class FloorData:
    name: str
    calibration: Calibration
    # kind -> per question and tiny size, the best cosine (raw, not yet closeness)
    cosines: dict[str, np.ndarray]
    # kind -> the row of ``query_vectors`` each entry of ``cosines`` belongs to
    query_rows: dict[str, np.ndarray]
    query_vectors: np.ndarray
    passage_sample: np.ndarray  # REFERENCE_SAMPLE of the set's passage vectors
    query_articles: np.ndarray  # the article of each question's own passage

    def part(self, name: str, keep: np.ndarray) -> FloorData:
        """The entries of the questions whose row ``keep`` marks (a split by article)."""
        cosines = {k: v[keep[self.query_rows[k]]] for k, v in self.cosines.items()}
        rows = {k: v[keep[v]] for k, v in self.query_rows.items()}
        return FloorData(name, self.calibration, cosines, rows, self.query_vectors,
                         self.passage_sample, self.query_articles)

    def closeness(self, kind: str, prior: Calibration) -> np.ndarray:
        """Closeness as the app reads it: tiny libraries with the prior, whole ones with their own.

        Not clipped at 0: a best cosine below the unrelated mean (a long passage asked about
        in other words, on a model like USE) is a negative share, and a floor may need to
        sit there to leave it found.
        """
        cal = self.calibration if kind.startswith("library") else prior
        values = self.cosines.get(kind, np.zeros(0))
        span = max(cal.related - cal.unrelated, 1e-6)
        return (values - cal.unrelated) / span

    def relative(self, kind: str, prior: Calibration, centroid: np.ndarray) -> np.ndarray:
        """Closeness above each question's own baseline (its cosine to ``centroid``), as the app reads it."""
        cal = self.calibration if kind.startswith("library") else prior
        values = self.cosines.get(kind, np.zeros(0))
        baseline = self.query_vectors[self.query_rows.get(kind, np.zeros(0, dtype=int))] @ centroid
        return (values - baseline) / max(cal.related - cal.unrelated, 1e-6)


def centroid_of(sets: list[FloorData]) -> np.ndarray:
    """The reference centroid those sets give: each set's passage sample weighs the same."""
    return np.concatenate([d.passage_sample for d in sets]).mean(axis=0)


def prior_of(sets: list[FloorData]) -> Calibration:
    """The prior the app uses on a library too small to measure (median of the sets' libraries)."""
    cals = [d.calibration for d in sets]
    return Calibration(unrelated=float(np.median([c.unrelated for c in cals])),
                       spread=float(np.median([c.spread for c in cals])),
                       related=float(np.median([c.related for c in cals])))


def _articles(name: str, n_passages: int) -> np.ndarray:
    """Article index per passage (SQuAD sets); each passage its own article otherwise."""
    file = fusion_data.SETS[name][0]
    if not file.endswith(".json"):
        return np.arange(n_passages)
    data = json.loads((fusion_data.EVAL_DIR / file).read_text(encoding="utf-8"))
    return np.array([a for a, art in enumerate(data["data"]) for _ in art["paragraphs"]])


def build(data: fusion_data.SetData, seed: int = 0) -> FloorData:
    if data.vectors is None or data.calibration is None:
        raise ValueError(f"{data.name}: the dump has no vectors (built without a model)")
    rng = np.random.default_rng(seed)
    chunk_doc = np.array([data.chunk_doc.get(int(i), -1) for i in data.vector_ids])
    keep = chunk_doc >= 0
    vectors, chunk_doc = data.vectors[keep], chunk_doc[keep]
    n_docs = int(chunk_doc.max()) + 1
    article = _articles(data.name, n_docs)
    records = [r for r in data.records if r.vector is not None and r.relevant]
    if len(records) > MAX_QUESTIONS:
        records = [records[i] for i in sorted(rng.choice(len(records), MAX_QUESTIONS, replace=False))]
    kinds = ("present", "topic", "absent", "library", "library_topic")
    out: dict[str, list[float]] = {k: [] for k in kinds}
    rows: dict[str, list[int]] = {k: [] for k in kinds}
    for row, rec in enumerate(records):
        sims = vectors @ rec.vector
        best = np.full(n_docs, -1.0)
        np.maximum.at(best, chunk_doc, sims)  # best chunk per passage
        own = np.array(sorted(rec.relevant))
        own_articles = np.isin(article, article[own])
        others = np.flatnonzero(~own_articles)
        siblings = np.flatnonzero(own_articles & ~np.isin(np.arange(n_docs), own))
        for size in TINY_SIZES:
            filler = rng.choice(others, size=min(size, len(others)), replace=False)
            out["absent"].append(float(best[filler].max()))
            out["present"].append(float(max(best[own].max(), best[filler[:size - 1]].max(initial=-1.0))))
            rows["absent"].append(row)
            rows["present"].append(row)
            if siblings.size:
                out["topic"].append(float(max(best[rng.choice(siblings)],
                                               best[filler[:size - 1]].max(initial=-1.0))))
                rows["topic"].append(row)
        out["library"].append(float(best.max()))
        rows["library"].append(row)
        if siblings.size:
            out["library_topic"].append(float(np.delete(best, own).max()))
            rows["library_topic"].append(row)
    sample = vectors[rng.choice(len(vectors), min(REFERENCE_SAMPLE, len(vectors)), replace=False)]
    return FloorData(data.name, data.calibration, {k: np.asarray(v) for k, v in out.items()},
                     {k: np.asarray(v, dtype=int) for k, v in rows.items()},
                     np.stack([r.vector for r in records]), sample,
                     np.array([article[min(r.relevant)] for r in records]))


def _derived_pairs(name: str) -> list[tuple[str, str]]:
    """``query, passage`` pairs of a set derived from Tatoeba en->zh (see ``derived_set``)."""
    source = fusion_data.EVAL_DIR / fusion_data.SETS["en_zh"][0]
    pairs = [(p[0].strip(), p[1].strip()) for line in source.read_text(encoding="utf-8").splitlines()
             if len(p := line.split("\t")) >= 2]
    if name == REVERSED:
        return [(zh, en) for en, zh in pairs]
    translations: dict[str, list[str]] = {}
    for en, zh in pairs:
        if en not in translations.setdefault(zh, []):
            translations[zh].append(en)
    # Two English translations of one Chinese sentence are paraphrases of each other.
    return [(group[i], group[(i + 1) % len(group)])
            for group in translations.values() if len(group) >= 2 for i in range(len(group))]


def derived_set(name: str, model: str, models_dir: Path | None, version: str) -> FloorData:
    """A held-out check the public sets lack, derived from Tatoeba en->zh, never fitted on.

    ``zh_en`` (``REVERSED``): the pairs swapped, Chinese questions on English passages;
    ``enpara`` (``ENGLISH_PARAPHRASES``): English questions on English passages, two English
    translations of one Chinese sentence. The floor's rules across scripts must hold both
    ways, and in English. The derived file lives in the dump cache, not in the repository.
    """
    path = fusion_data.CACHE / f"tatoeba_cmn_dev_{name}.tsv"
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(f"{q}\t{p}\n" for q, p in _derived_pairs(name)), encoding="utf-8")
    fusion_data.SETS.setdefault(name, (str(path), fusion_data.SETS["en_zh"][1] if name == REVERSED else None))
    if models_dir is None:
        return build(fusion_data.load_cached(name, model, version))
    return build(fusion_data.load(name, model, models_dir, version))
