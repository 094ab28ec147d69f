"""Search across Chinese scripts: DRCD with questions and passages in either script, and Tatoeba en→zh.

    .venv/bin/python benchmarks/bench_cross_script.py [--model use-multilingual]
        [--models-dir DIR] [--limit-queries N] [--sets drcd_tt,drcd_st,drcd_ts,drcd_ss,tatoeba]
        [--json]

Every figure comes from ``desktop-kb eval`` (``run_eval``: a fresh library, one
imported file per passage, every query through the app's search path). The
DRCD dev set (Traditional passages) is asked four ways:

* ``drcd_tt`` Traditional questions → Traditional passages (``drcd_dev.json``);
* ``drcd_st`` Simplified questions → Traditional passages
  (``drcd_dev_simplified_questions.json``);
* ``drcd_ts`` Traditional questions → Simplified passages, and
* ``drcd_ss`` Simplified questions → Simplified passages: both built here, in a
  temporary folder, by converting the passages (and their answers) with OpenCC
  ``t2s`` — the converter the shared set's Simplified questions were made with
  (3,523 of its 3,524 questions are exactly ``t2s`` of the originals). Nothing
  is written into the repository.

The two question sets on the same passages run against one library (imported,
indexed and embedded once), so a cross-script gap is never a difference
between two indexing runs.

The target (issue #12 item 3): a cross-script R@1 within 0.03 of the same-script
R@1 on the same passages, both ways (st vs tt, ts vs ss), for every mode.
Tatoeba en→zh (English questions, Chinese passages) is the cross-lingual check.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
SETS = ("drcd_tt", "drcd_st", "drcd_ts", "drcd_ss", "tatoeba")
MODES = ("lexical", "dense", "plain_rrf", "hybrid")
PAIRS = (("drcd_st", "drcd_tt"), ("drcd_ts", "drcd_ss"))  # (cross-script, its same-script reference)
TOLERANCE = 0.03


def find_shared() -> Path:
    for parent in Path(__file__).resolve().parents:
        if (parent / "shared" / "eval").is_dir():
            return parent / "shared"
    raise FileNotFoundError("no shared/eval folder above this script; pass --shared")


def simplified_passages(data: dict[str, Any]) -> dict[str, Any]:
    """A copy of a SQuAD set with every passage and answer converted by OpenCC t2s."""
    import opencc

    convert = opencc.OpenCC("t2s.json").convert
    data = json.loads(json.dumps(data))
    for article in data["data"]:
        for para in article["paragraphs"]:
            para["context"] = convert(para["context"])
            for qa in para["qas"]:
                for answer in qa.get("answers", []):
                    answer["text"] = convert(answer["text"])
    return data


def with_questions(data: dict[str, Any], questions: dict[str, Any]) -> dict[str, Any]:
    """``data`` (passages and answers) asked with the questions of ``questions``."""
    data = json.loads(json.dumps(data))
    for qa_article, article in zip(questions["data"], data["data"], strict=True):
        for qa_para, para in zip(qa_article["paragraphs"], article["paragraphs"], strict=True):
            for q_src, qa in zip(qa_para["qas"], para["qas"], strict=True):
                qa["question"] = q_src["question"]
    return data


def drcd_files(shared: Path, tmp: Path) -> dict[str, tuple[Path, Path]]:
    """passage script -> (Traditional-question file, Simplified-question file), same passages."""
    ev = shared / "eval"
    trad = json.loads((ev / "drcd_dev.json").read_text(encoding="utf-8"))
    simp_q = json.loads((ev / "drcd_dev_simplified_questions.json").read_text(encoding="utf-8"))
    simp = simplified_passages(trad)
    ts, ss = tmp / "drcd_ts.json", tmp / "drcd_ss.json"
    ts.write_text(json.dumps(simp, ensure_ascii=False), encoding="utf-8")
    ss.write_text(json.dumps(with_questions(simp, simp_q), ensure_ascii=False), encoding="utf-8")
    return {"traditional": (ev / "drcd_dev.json", ev / "drcd_dev_simplified_questions.json"),
            "simplified": (ts, ss)}


def evaluate_pair(files: tuple[Path, Path], names: tuple[str, str], wanted: list[str],
                  models_dir: Path, model: str, budget: int, limit: int | None,
                  emit: Any) -> None:
    """Both question sets against ONE library of these passages (indexed and embedded once)."""
    from desktop_kb.evaluation import _evaluate, load_set, open_eval_library

    sets = {name: load_set(path, "squad") for name, path in zip(names, files, strict=True)
            if name in wanted}
    if not sets:
        return
    first = next(iter(sets.values()))
    with open_eval_library(first, models_dir=models_dir, model=model) as ev:
        for name, dataset in sets.items():
            assert dataset.passages == first.passages
            if limit:
                dataset.queries = dataset.queries[:limit]
            started = time.perf_counter()
            out = _evaluate(ev, dataset, "squad", budget, None)
            out["seconds"] = round(time.perf_counter() - started, 1)
            emit(name, out)


def render(res: dict[str, Any]) -> str:
    lines = [f"R@1 (MRR@10) through `desktop-kb eval`; model {res['model']}; "
             f"load avg start {res['loadavg_start']} end {res['loadavg_end']}",
             f"{'set':<10}{'queries':>8}" + "".join(f"{m:>17}" for m in MODES)]
    for name, r in res["sets"].items():
        cells = "".join(f"{r[m]['r1']:>9.3f} ({r[m]['mrr10']:.3f})" if r.get(m) else f"{'—':>17}"
                        for m in MODES)
        lines.append(f"{name:<10}{r['n_queries']:>8}{cells}")
    for cross, same in PAIRS:
        if cross in res["sets"] and same in res["sets"]:
            gaps = {m: res["sets"][same][m]["r1"] - res["sets"][cross][m]["r1"]
                    for m in MODES if res["sets"][cross].get(m)}
            verdict = "met" if all(g <= TOLERANCE for g in gaps.values()) else "NOT met"
            lines.append(f"{cross} vs {same}: R@1 gap " + ", ".join(
                f"{m} {g:+.3f}" for m, g in gaps.items()) + f"  (target ≤ {TOLERANCE}: {verdict})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--model", default="use-multilingual")
    parser.add_argument("--models-dir", default=None,
                        help="folder holding installed models (default: <data dir>/models)")
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--limit-queries", type=int, default=None,
                        help="first N queries of each set (Tatoeba is capped at 2,000 anyway)")
    parser.add_argument("--budget-chars", type=int, default=600)
    parser.add_argument("--shared", default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        import desktop_kb  # noqa: F401
    except ImportError:
        sys.path.insert(0, str(REPO_ROOT))
    from desktop_kb.evaluation import run_eval
    from desktop_kb.paths import resolve_data_dir

    models_dir = (Path(args.models_dir).expanduser() if args.models_dir
                  else resolve_data_dir() / "models")
    shared = Path(args.shared) if args.shared else find_shared()
    wanted = [s for s in args.sets.split(",") if s]
    unknown = sorted(set(wanted) - set(SETS))
    if unknown:
        parser.error(f"unknown sets {unknown}; choose from {', '.join(SETS)}")
    res: dict[str, Any] = {"model": args.model, "loadavg_start": [round(x, 2) for x in os.getloadavg()],
                           "sets": {}}

    def emit(name: str, out: dict[str, Any]) -> None:
        res["sets"][name] = out  # each set as soon as it is measured: long runs keep what they did
        print(f"[cross-script] {name}: " + json.dumps(out, ensure_ascii=False), file=sys.stderr,
              flush=True)

    with tempfile.TemporaryDirectory(prefix="kb-cross-script-") as tmp:
        files = drcd_files(shared, Path(tmp))
        evaluate_pair(files["traditional"], ("drcd_tt", "drcd_st"), wanted, models_dir,
                      args.model, args.budget_chars, args.limit_queries, emit)
        evaluate_pair(files["simplified"], ("drcd_ts", "drcd_ss"), wanted, models_dir,
                      args.model, args.budget_chars, args.limit_queries, emit)
    if "tatoeba" in wanted:
        limit = min(args.limit_queries or 2000, 2000)
        started = time.perf_counter()
        out = run_eval(shared / "eval" / "tatoeba_cmn_dev.tsv", models_dir=models_dir,
                       model=args.model, limit_queries=limit)
        out["seconds"] = round(time.perf_counter() - started, 1)
        emit("tatoeba", out)
    res["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(res, ensure_ascii=False, indent=1) if args.json else render(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
