"""``desktop-kb search QUERY``: the app's search over notes and the library."""

from __future__ import annotations

import argparse
from typing import Any

from desktop_kb.cli.common import (
    CliError,
    add_common_options,
    open_library,
    text_arg,
    wait_for_index,
)
from desktop_kb.cli.output import emit, field, snippet_line

WEAK_LINE = ("weak matches: only some of these words are in the library, so these passages may not "
             "be what you mean; try the words the material itself uses")
NO_MODEL = ", or install an embedding model (desktop-kb models install) to search by meaning"


def cmd_search(args: argparse.Namespace) -> int:
    if args.limit < 1:
        raise CliError("--limit must be at least 1.")
    from desktop_kb.retrieval.search import NOTHING_NOTICE  # here: CLI start-up imports stay light

    with open_library(args) as lib:
        wait_for_index(lib, saved=False, read_anyway=True)
        response = lib.search(args.query, limit=args.limit, mode=args.mode)

        def text() -> str:
            if not response.results:
                # Meaning search looked and found nothing near: say that, not a bare keyword miss.
                # An empty query (a script's unset variable) searched nothing: a plain miss.
                close = response.notice == NOTHING_NOTICE and args.query.strip()
                return NOTHING_NOTICE if close else "no results"
            listed = "\n".join(
                f"{r.rank}. [{r.source_type} {r.source_id}] {field(r.title)}\n   {snippet_line(r.snippet, r.title)}"
                for r in response.results)
            # Keyword search found only some of the words: say so above the list, not after it.
            if not response.weak_matches:
                return listed
            return f"({WEAK_LINE}{NO_MODEL if response.mode == 'lexical' else ''})\n{listed}"

        emit(args, response.as_json(), text)
    return 0


def register(sub: Any) -> None:
    srch = sub.add_parser("search", help="search notes and the library")
    srch.add_argument("query", type=text_arg)
    srch.add_argument("--limit", type=int, default=10)
    srch.add_argument("--mode", choices=["lexical", "dense", "hybrid"],
                      help="default: hybrid when an embedding model is in use, else lexical")
    add_common_options(srch)
    srch.set_defaults(func=cmd_search)
