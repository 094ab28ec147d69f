"""``desktop-kb eval FILE --task related``: does discovery suggest a note's partner?

Every line of a pairs file (``left<TAB>right``) names two texts that belong
together (a translation, a paraphrase). Each distinct text becomes a note in a
throwaway library; for each left-side note we ask for its related material,
exactly as the panel does (same floor, same exclusions), and record where its
partner appears: R@5 (in the top 5) and MRR@10.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from desktop_kb.library import Library

TOP = 10


class RelatedEvalError(Exception):
    pass


def load_pairs(path: Path) -> list[tuple[str, str]]:
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RelatedEvalError(f"Cannot read {path}: {exc.strerror or exc}") from exc
    pairs: list[tuple[str, str]] = []
    for lineno, line in enumerate(raw.splitlines(), start=1):
        if not line.strip():
            continue
        parts = line.split("\t")
        if len(parts) < 2 or not parts[0].strip() or not parts[1].strip():
            raise RelatedEvalError(f"{path.name}:{lineno}: expected 'text<TAB>related text'")
        pairs.append((parts[0].strip(), parts[1].strip()))
    return pairs


def run_related_eval(
    path: Path, *, models_dir: Path | None = None, model: str | None = None,
    progress: Callable[[str, int, int], None] | None = None, limit_queries: int | None = None,
) -> dict[str, Any]:
    """``model``: a model id, "none" for keyword evidence only, None for the one installed."""
    pairs = load_pairs(path)
    with tempfile.TemporaryDirectory(prefix="desktop-kb-eval-related-") as tmp:
        lib = Library(Path(tmp) / "library", models_dir=models_dir, load_model=False)
        try:
            return _evaluate(lib, pairs, model, progress, limit_queries)
        finally:
            lib.close()


def _evaluate(
    lib: Library, pairs: list[tuple[str, str]], model: str | None,
    progress: Callable[[str, int, int], None] | None, limit_queries: int | None,
) -> dict[str, Any]:
    started = time.perf_counter()
    texts = list(dict.fromkeys(t for pair in pairs for t in pair))
    note_of: dict[str, int] = {}
    for i, text in enumerate(texts):
        note_of[text] = lib.add_note("", text)
        if progress and (i % 50 == 0 or i + 1 == len(texts)):
            progress("notes", i + 1, len(texts))
    lib.drain()
    model_name = None if model == "none" else (model or lib.active_model_name())
    if model_name:
        lib.use_model(model_name).result()
        lib.drain()
    index_s = time.perf_counter() - started

    partners: dict[int, set[int]] = {}
    for left, right in pairs:
        if left != right:
            partners.setdefault(note_of[left], set()).add(note_of[right])
    queries = list(partners.items())[:limit_queries] if limit_queries else list(partners.items())
    modes = ["hybrid", "lexical", "rrf", "dense"] if model_name else ["lexical"]
    ranks: dict[str, list[int | None]] = {m: [] for m in modes}
    shown: dict[str, list[int]] = {m: [] for m in modes}
    seen: list[int] = []  # what the panel shows: copies grouped into one card
    timings: list[float] = []
    for qi, (note_id, relevant) in enumerate(queries):
        for mode in modes:
            t0 = time.perf_counter()
            result = lib.related(note_id, limit=TOP, mode=mode)
            if mode == modes[0]:
                timings.append((time.perf_counter() - t0) * 1000)
            shown[mode].append(len(result.suggestions))
            ranks[mode].append(next((s.rank for s in result.suggestions
                                     if s.target_type == "note" and s.target_id in relevant), None))
        seen.append(len(lib.related_material(note_id, limit=TOP).groups))
        if progress and (qi % 25 == 0 or qi + 1 == len(queries)):
            progress("related", qi + 1, len(queries))
    timings.sort()
    out: dict[str, Any] = {
        "task": "related",
        "n_queries": len(queries),
        "n_notes": len(texts),
        "skipped_identical_pairs": sum(1 for a, b in pairs if a == b),
        "model": model_name,
        "mode": "hybrid" if model_name else "lexical",
        "related": {**_metrics(ranks[modes[0]], shown[modes[0]]),
                    "mean_shown_in_panel": round(sum(seen) / max(1, len(seen)), 2)},
        "timing": {
            "index_s": round(index_s, 2),
            "related_ms_p50": round(timings[len(timings) // 2], 2) if timings else 0.0,
            "related_ms_p99": round(timings[min(len(timings) - 1, int(0.99 * len(timings)))], 2)
            if timings else 0.0,
        },
    }
    # Every mode side by side (same floor, same exclusions): keys added, never renamed.
    for mode in modes:
        out[{"rrf": "plain_rrf"}.get(mode, mode)] = _metrics(ranks[mode], shown[mode])
    return out


def _metrics(ranks: list[int | None], shown: list[int]) -> dict[str, float]:
    n = len(ranks) or 1
    return {
        "r1": round(sum(1 for r in ranks if r == 1) / n, 4),
        "r5": round(sum(1 for r in ranks if r is not None and r <= 5) / n, 4),
        "mrr10": round(sum(1.0 / r for r in ranks if r is not None and r <= TOP) / n, 4),
        "mean_suggestions": round(sum(shown) / n, 2),
    }


__all__ = ["RelatedEvalError", "load_pairs", "run_related_eval"]
