"""``desktop-kb eval FILE``: retrieval quality on an evaluation set (search or related)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from desktop_kb.cli.common import add_common_options
from desktop_kb.cli.output import emit, stage_reporter, stderr_progress
from desktop_kb.paths import resolve_data_dir


def cmd_eval(args: argparse.Namespace) -> int:
    from desktop_kb.evaluation import run_eval

    report = stage_reporter(stderr_progress(sys.stderr.isatty()))
    models_dir = resolve_data_dir(args.data_dir) / "models"
    if args.task == "related":
        from desktop_kb.discovery.evaluate import run_related_eval

        result = run_related_eval(Path(args.file), models_dir=models_dir, model=args.model,
                                  progress=report, limit_queries=args.limit_queries)
    else:
        result = run_eval(
            Path(args.file), fmt=args.format, models_dir=models_dir,
            model=args.model, budget_chars=args.budget_chars, progress=report,
            limit_queries=args.limit_queries,
            corpus=Path(args.corpus).expanduser() if args.corpus else None)
    emit(args, result, lambda: json.dumps(result, ensure_ascii=False, indent=2))
    return 0


def register(sub: Any) -> None:
    ev = sub.add_parser("eval", help="measure retrieval quality on an evaluation set")
    ev.add_argument("file")
    ev.add_argument("--format", choices=["squad", "pairs"], help="default: from the file extension")
    ev.add_argument("--budget-chars", type=int, default=1200, help="QA context budget (squad files)")
    ev.add_argument("--model", help="embedding model (default: the one in use; 'none': keywords only)")
    ev.add_argument("--task", choices=["search", "related"], default="search",
                    help="search: queries against passages; related: a pairs file's partners as suggestions")
    ev.add_argument("--limit-queries", type=int, help="only the first N queries (quick checks)")
    ev.add_argument("--corpus", metavar="FILE_OR_FOLDER",
                    help="import this instead of one file per passage (the same passages as a PDF, "
                         "Word file, EPUB…); chunks are matched to passages by their text")
    add_common_options(ev)
    ev.set_defaults(func=cmd_eval)
