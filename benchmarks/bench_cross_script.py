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


def simplified_passages(source: Path, target: Path) -> None:
    """``source`` (SQuAD) with every passage and answer converted by OpenCC t2s."""
    import opencc

    convert = opencc.OpenCC("t2s.json").convert
    data = json.loads(source.read_text(encoding="utf-8"))
    for article in data["data"]:
        for para in article["paragraphs"]:
            para["context"] = convert(para["context"])
            for qa in para["qas"]:
                for answer in qa.get("answers", []):
                    answer["text"] = convert(answer["text"])
    target.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def questions_from(questions: Path, passages: Path, target: Path) -> None:
    """The passages (and answers) of ``passages`` with the questions of ``questions``."""
    qs = json.loads(questions.read_text(encoding="utf-8"))
    data = json.loads(passages.read_text(encoding="utf-8"))
    for qa_article, article in zip(qs["data"], data["data"], strict=True):
        for qa_para, para in zip(qa_article["paragraphs"], article["paragraphs"], strict=True):
            for q_src, qa in zip(qa_para["qas"], para["qas"], strict=True):
                qa["question"] = q_src["question"]
    target.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


def set_files(shared: Path, tmp: Path) -> dict[str, Path]:
    ev = shared / "eval"
    ts = tmp / "drcd_dev_simplified_passages.json"
    simplified_passages(ev / "drcd_dev.json", ts)
    ss = tmp / "drcd_dev_all_simplified.json"
    questions_from(ev / "drcd_dev_simplified_questions.json", ts, ss)
    return {"drcd_tt": ev / "drcd_dev.json", "drcd_st": ev / "drcd_dev_simplified_questions.json",
            "drcd_ts": ts, "drcd_ss": ss, "tatoeba": ev / "tatoeba_cmn_dev.tsv"}


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
    with tempfile.TemporaryDirectory(prefix="kb-cross-script-") as tmp:
        files = set_files(shared, Path(tmp))
        for name in wanted:
            limit = args.limit_queries
            if name == "tatoeba":
                limit = min(limit or 2000, 2000)
            started = time.perf_counter()
            print(f"[cross-script] {name}: {files[name].name}", file=sys.stderr, flush=True)
            out = run_eval(files[name], models_dir=models_dir, model=args.model,
                           budget_chars=args.budget_chars, limit_queries=limit)
            out["seconds"] = round(time.perf_counter() - started, 1)
            res["sets"][name] = out
    res["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(res, ensure_ascii=False, indent=1) if args.json else render(res))
    return 0


if __name__ == "__main__":
    sys.exit(main())
