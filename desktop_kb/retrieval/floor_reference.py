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


@dataclass(frozen=True)
class FloorReference:
    """A model's mean passage vector and the floor above a question's cosine to it.

    ``closeness`` is in the library's own units (a share of the way from unrelated text
    to a sentence's own passage, ``Calibration.closeness``), fitted leave-one-set-out by
    ``benchmarks/bench_floor.py``. ``across_scripts``: the model's absolute floor also
    holds for English questions on Chinese text (held out on Tatoeba en->zh it silenced
    no more present questions than the fit allows: true for USE, not for e5).
    """

    centroid: np.ndarray
    closeness: float
    across_scripts: bool = False

    def baseline(self, query: np.ndarray | None) -> float | None:
        """The question's mean cosine to ordinary passages (None: no vector, or another model's)."""
        if query is None or query.shape != self.centroid.shape:
            return None
        return float(query @ self.centroid)


def encode_centroid(centroid: np.ndarray) -> str:
    """Base64 of little-endian float32: exact, and 2 KB instead of 384 JSON lines."""
    return base64.b64encode(np.asarray(centroid, dtype="<f4").tobytes()).decode("ascii")


def reference_of(calibration: dict[str, Any]) -> FloorReference | None:
    """The ``floor`` object of a model's calibration, or None when absent or malformed.

    ``{"floor": {"reference": "<base64 float32 centroid>", "closeness": 0.17, "across_scripts": false}}``
    """
    floor = calibration.get("floor")
    if not isinstance(floor, dict):
        return None
    try:
        raw = base64.b64decode(str(floor["reference"]), validate=True)
        centroid = np.frombuffer(raw, dtype="<f4").astype(np.float32)
        closeness = float(floor["closeness"])
    except (KeyError, TypeError, ValueError, binascii.Error):
        return None
    if centroid.ndim != 1 or not centroid.size or not np.isfinite(centroid).all():
        return None
    return FloorReference(centroid, closeness, floor.get("across_scripts") is True)
