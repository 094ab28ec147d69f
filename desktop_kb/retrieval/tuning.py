"""Which fusion constants and which cosine calibration apply to the model in use.

A model's manifest may carry a ``calibration`` object::

    {"fusion": {"dense_from": 4.0, ...},      # FusionParams fields, fitted leave-one-set-out
     "unrelated": 0.08, "spread": 0.09,        # prior cosine statistics (optional)
     "floor": {"reference": "...", ...}}       # the relevance floor's per-query baseline
                                               # (``floor_reference``; optional)

For the models we ship the values are fitted by ``benchmarks/bench_fusion_loso.py``
and kept in ``desktop_kb/embed/calibrations.json`` keyed by the sha256 of the
model's weights (never by its id), so an installed model picks them up even
if its manifest predates them. Any other model gets the default constants,
which are in model-independent units.

The cosine statistics themselves are measured on the person's own library
(``retrieval.calibration.estimate``) once per model and library size band,
and remembered in ``<data dir>/calibration.json`` so each CLI call does not
measure again. Only a library too small to measure falls back to the
manifest's prior; its script (which language the statistics speak for, see
``Calibration.han_share``) is then read from the chunks' own text, as it is
for an estimate stored before the script was measured.
"""

from __future__ import annotations

import json
import math
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from desktop_kb.discovery.related import DEFAULT_RELATED, RelatedParams
from desktop_kb.embed.engine import EmbeddingEngine
from desktop_kb.freed_memory import release_freed_memory
from desktop_kb.retrieval.calibration import Calibration, estimate, library_centre, script_share
from desktop_kb.retrieval.dense import DenseIndex
from desktop_kb.retrieval.floor_reference import FloorReference, reference_of
from desktop_kb.retrieval.fusion import DEFAULT_PARAMS, FusionParams
from desktop_kb.retrieval.script_levels import ScriptLevels, measure
from desktop_kb.whole_file import write_whole

CACHE_FILE = "calibration.json"
T = TypeVar("T")


@dataclass(frozen=True)
class Tuning:
    """Fusion constants plus the calibration that turns cosines into levels.

    ``calibration`` None: fusion reads cosines relative to each query's own
    candidates, and the relevance floor is off.
    """

    params: FusionParams = DEFAULT_PARAMS
    calibration: Calibration | None = None
    related: RelatedParams = DEFAULT_RELATED
    reference: FloorReference | None = None  # the relevance floor's per-query baseline
    scripts: ScriptLevels | None = None  # per-script levels of a library of two scripts
    # The library's mean chunk vector: each question's own unrelated level
    # (``calibration.read_for_question``).
    centre: np.ndarray | None = field(default=None, compare=False)


def shipped_calibrations() -> dict[str, dict[str, Any]]:
    """Fitted calibrations of the models we ship, keyed by weights sha256."""
    try:
        text = resources.files("desktop_kb.embed").joinpath("calibrations.json").read_text("utf-8")
    except (FileNotFoundError, OSError):
        return {}
    data = json.loads(text)
    return {k: v for k, v in data.get("models", {}).items() if isinstance(v, dict)}


def manifest_calibration(manifest_calibration: dict[str, Any] | None, sha256: str) -> dict[str, Any]:
    """The manifest's own calibration, else the shipped one for these weights, else {}."""
    if manifest_calibration:
        return dict(manifest_calibration)
    return dict(shipped_calibrations().get(sha256, {}))


def params_of(calibration: dict[str, Any]) -> FusionParams:
    fusion = calibration.get("fusion")
    return DEFAULT_PARAMS.with_values(fusion) if isinstance(fusion, dict) else DEFAULT_PARAMS


def related_of(calibration: dict[str, Any]) -> RelatedParams:
    """The related panel's constants: ``discovery`` (``related`` in older manifests, where the
    shipped calibrations use ``related`` for the cosine of a sentence and its own passage)."""
    values = calibration.get("discovery", calibration.get("related"))
    if not isinstance(values, dict):
        return DEFAULT_RELATED
    known = {f.name for f in fields(RelatedParams)}
    return replace(DEFAULT_RELATED, **{k: float(v) for k, v in values.items() if k in known})


def prior_of(calibration: dict[str, Any]) -> Calibration | None:
    try:
        unrelated, spread = float(calibration["unrelated"]), float(calibration["spread"])
        related = float(calibration.get("related", 1.0))
    except (KeyError, TypeError, ValueError):
        return None
    return Calibration(unrelated=unrelated, spread=spread, related=related) if spread > 0 else None


class TuningSource:
    """Measures the model on the library once per (weights, size band) and remembers it."""

    def __init__(self, data_dir: Path, cache_file: Path | None = None) -> None:
        # A library in a read-only folder keeps its measurements in ``cache_file`` (the per-user
        # cache beside its index): written beside it, every open measured again (seconds with
        # a model); what the library carried beside it is read too.
        self._file = cache_file or Path(data_dir) / CACHE_FILE
        self._carried = Path(data_dir) / CACHE_FILE if cache_file is not None else None
        self._lock = threading.Lock()
        self._memo: dict[tuple[str, int], Calibration | None] = {}
        self._scripts: dict[tuple[str, int], float] = {}
        self._references: dict[str, FloorReference | None] = {}
        self._levels: dict[tuple[str, int], ScriptLevels | None] = {}
        self._centres: dict[tuple[str, int], np.ndarray | None] = {}
        self._gates: dict[tuple[str, tuple[str, int]], threading.Lock] = {}

    def tuning(
        self, index: sqlite3.Connection, store: sqlite3.Connection, engine: EmbeddingEngine,
        dense: DenseIndex, sha256: str, calibration: dict[str, Any],
    ) -> Tuning:
        params = params_of(calibration)
        measured = self.measured(index, store, engine, dense, sha256)
        in_use = measured or prior_of(calibration)
        if in_use is not None and in_use.han_share < 0:
            # A prior (a library too small to measure) says nothing of the library's script:
            # read it from the chunks' own text, or an English question on a one-note Chinese
            # library is judged by a floor fitted on Chinese questions.
            in_use = replace(in_use, han_share=self._script(index, store, dense, sha256))
        return Tuning(params, in_use, related_of(calibration), self._reference(sha256, calibration),
                      self._script_levels(index, dense, sha256),
                      self._centre(dense, sha256) if measured is not None else None)

    def measured(
        self, index: sqlite3.Connection, store: sqlite3.Connection, engine: EmbeddingEngine,
        dense: DenseIndex, sha256: str,
    ) -> Calibration | None:
        # The band doubles with the chunk count: a growing library is re-measured
        # now and then, never per query.
        key = self._key(sha256, dense)

        def compute() -> Calibration | None:
            stored = self._read(key)
            if stored is not None and stored.han_share < 0:
                # Stored before the script was measured: measure it now rather than at the
                # library's next size band (cheap: chunk text, no embedding).
                share = self._script(index, store, dense, sha256)
                if share >= 0:
                    stored = replace(stored, han_share=share)
                    self._write(key, stored)
            if stored is None:
                stored = estimate(index, store, engine, dense)
                if stored is not None:
                    self._write(key, stored)
            return stored

        return self._once("calibration", self._memo, key, compute)

    def _script(self, index: sqlite3.Connection, store: sqlite3.Connection, dense: DenseIndex,
                sha256: str) -> float:
        """The library's Chinese share of sentences, once per size band (-1: no text)."""
        def compute() -> float:
            share = script_share(index, store, dense)
            return -1.0 if share is None else share

        return self._once("script", self._scripts, self._key(sha256, dense), compute)

    def _script_levels(self, index: sqlite3.Connection, dense: DenseIndex,
                       sha256: str) -> ScriptLevels | None:
        """The library's per-script levels, once per size band (chunk text and stored vectors
        only, no embedding: cheap enough to measure again in each process)."""
        return self._once("levels", self._levels, self._key(sha256, dense), lambda: measure(index, dense))

    def _centre(self, dense: DenseIndex, sha256: str) -> np.ndarray | None:
        """The library's mean chunk vector, once per size band (stored vectors only: cheap
        enough to read again in each process)."""
        return self._once("centre", self._centres, self._key(sha256, dense), lambda: library_centre(dense))

    def _once(self, kind: str, memo: dict[tuple[str, int], T], key: tuple[str, int],
              compute: Callable[[], T]) -> T:
        """``memo[key]``, computed by one thread at a time: a search arriving while the app's
        warm-up measures the same band waits for that measurement instead of making its own
        beside it (two estimates on two busy cores: 6-12 s searches during a backfill)."""
        with self._lock:
            if key in memo:
                return memo[key]
            gate = self._gates.setdefault((kind, key), threading.Lock())
        with gate:
            with self._lock:
                if key in memo:
                    return memo[key]
            value = compute()
            release_freed_memory()  # what the measurement read (chunk text, vectors) is freed
            with self._lock:
                memo[key] = value
            return value

    def _reference(self, sha256: str, calibration: dict[str, Any]) -> FloorReference | None:
        """The model's floor reference, decoded once per model (tuning runs on every search)."""
        with self._lock:
            if sha256 not in self._references:
                self._references[sha256] = reference_of(calibration)
            return self._references[sha256]

    @staticmethod
    def band(dense: DenseIndex) -> int:
        """The library's size band: what it measures is measured again when this changes."""
        return int(math.log2(max(1, len(dense))))

    @classmethod
    def _key(cls, sha256: str, dense: DenseIndex) -> tuple[str, int]:
        return (sha256, cls.band(dense))

    def _read(self, key: tuple[str, int]) -> Calibration | None:
        for file in (self._file, self._carried):
            if file is None:
                continue
            try:
                data = json.loads(file.read_text(encoding="utf-8"))
                entry = data.get(f"{key[0]}:{key[1]}")
                if isinstance(entry, dict):
                    return Calibration(**entry)
            except (OSError, ValueError, TypeError, AttributeError):
                pass  # missing or damaged: measure again (it is derived data)
        return None

    def _write(self, key: tuple[str, int], value: Calibration) -> None:
        try:
            try:
                data = json.loads(self._file.read_text(encoding="utf-8"))
                data = data if isinstance(data, dict) else {}
            except (OSError, ValueError):
                data = {}
            data = {k: v for k, v in data.items() if k.startswith(key[0])}  # this model only
            data[f"{key[0]}:{key[1]}"] = value.as_json()
            write_whole(self._file, json.dumps(data, indent=1))
        except OSError:
            pass  # a read-only or full disk only costs a re-measurement next time
