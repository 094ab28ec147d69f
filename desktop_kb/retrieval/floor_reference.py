"""How close a question is to text in general: the relevance floor's per-query baseline.

"Nothing in the library is close" compares a question's best cosine with a floor. A
floor at one cosine for every question fails on a model whose cosines are compressed
(multilingual-e5 scores a question 0.73-0.87 against any Chinese passage): some
questions sit high against *everything*, so an off-topic question can clear a floor
that a topic-level one misses. Read instead how far the best cosine stands above what
THIS question scores against ordinary passages — its cosine to the centroid of a
random sample of passages the model embedded (the mean of its cosines to them) — and
the same floor separates present from absent questions for e5 as for USE.

The centroid of a shipped model is measured once on the public sets' passages and
kept with the model's calibration (``embed/calibrations.json``, ``floor.reference``);
it is a derived statistic, not text. A model without one keeps the absolute floor
(``FusionParams.floor_closeness``), whose default never silences a matching topic.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import Any

import numpy as np

#: How a model's ``margin`` is read: a share of the library's span from unrelated text to a
#: sentence's own passage, or plain cosine (chosen per model by ``bench_offtopic.py``: e5's span
#: on a library of code and prose is a third of that on plain text, so a share of it is not
#: comparable across libraries for e5, while USE's is).
MARGIN_UNITS = ("span", "cosine")


@dataclass(frozen=True)
class FloorReference:
    """A model's mean passage vector and the floor above a question's cosine to it.

    ``closeness`` is in the library's own units (a share of the way from unrelated text
    to a sentence's own passage, ``Calibration.closeness``), fitted leave-one-set-out by
    ``benchmarks/bench_floor.py``. ``across_scripts``: the model's absolute floor also
    holds for English questions on Chinese text (held out on Tatoeba en->zh it silenced
    no more present questions than the fit allows: true for USE, not for e5).
    """

    centroid: np.ndarray  # of Chinese passages
    closeness: float
    across_scripts: bool = False
    english: np.ndarray | None = None  # the centroid of English passages, when measured
    # When keywords hold little of a question (``retrieval.relevance``): the keyword evidence
    # that counts as finding it (None: ``relevance.KEYWORD_COVERAGE``), and how far above the
    # floor, in the library's span, the best cosine must then reach.
    coverage: float | None = None
    margin: float = 0.0
    margin_unit: str = "span"  # "span": of the library's unrelated->related span; "cosine": raw
    margin_across: float | None = None  # for a question in another script than the library's
    # Where keywords alone say nothing and the lists disagree (``relevance.in_conflict``).
    margin_conflict: float | None = None
    # Where the question names something the library never mentions (``relevance.name_bar``): the
    # level, in the library's spreads above its unrelated pairs, meaning search must reach to vouch
    # for it (None: ``relevance.UNKNOWN_NAME_LEVEL``).
    name_level: float | None = None

    def baseline(self, query: np.ndarray | None, han_share: float = -1.0) -> float | None:
        """The question's mean cosine to ordinary passages in the library's languages.

        ``han_share`` (the library's Chinese share, -1 unknown) mixes the two centroids:
        what counts as ordinary text for a question is text in the library's language
        (e5 puts a Chinese question far closer to any Chinese passage than to any English
        one). None: no vector, or another model's.
        """
        if query is None or query.shape != self.centroid.shape:
            return None
        if self.english is None or han_share < 0:
            return float(query @ self.centroid)
        share = min(han_share, 1.0)
        return float(query @ (share * self.centroid + (1.0 - share) * self.english))


def encode_centroid(centroid: np.ndarray) -> str:
    """Base64 of little-endian float32: exact, and 2 KB instead of 384 JSON lines."""
    return base64.b64encode(np.asarray(centroid, dtype="<f4").tobytes()).decode("ascii")


def reference_of(calibration: dict[str, Any]) -> FloorReference | None:
    """The ``floor`` object of a model's calibration, or None when absent or malformed.

    ``{"floor": {"reference": "<base64 float32 centroid>", "closeness": 0.17, "across_scripts": false,
    "reference_en": "<the same for English passages>"}}`` (``reference_en`` optional)
    """
    floor = calibration.get("floor")
    if not isinstance(floor, dict):
        return None
    try:
        closeness = float(floor["closeness"])
    except (KeyError, TypeError, ValueError):
        return None
    centroid = _decode(floor.get("reference"))
    if centroid is None:
        return None
    english = _decode(floor.get("reference_en"))
    if english is not None and english.shape != centroid.shape:
        english = None
    return FloorReference(centroid, closeness, floor.get("across_scripts") is True, english,
                          _share(floor.get("coverage")), _share(floor.get("margin")) or 0.0,
                          unit if (unit := floor.get("margin_unit")) in MARGIN_UNITS else "span",
                          _share(floor.get("margin_across")), _share(floor.get("margin_conflict")),
                          _share(floor.get("name_level")))


def _share(value: object) -> float | None:
    """A finite number from the manifest (None when absent or not one)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if np.isfinite(value) else None


def _decode(text: object) -> np.ndarray | None:
    if not isinstance(text, str):
        return None
    try:
        vector = np.frombuffer(base64.b64decode(text, validate=True), dtype="<f4").astype(np.float32)
    except (ValueError, binascii.Error):
        return None
    return vector if _usable(vector) else None


def _usable(vector: np.ndarray) -> bool:
    return vector.ndim == 1 and bool(vector.size) and bool(np.isfinite(vector).all())
