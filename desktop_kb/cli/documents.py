"""``desktop-kb document list|set``: imported documents and their flags."""

from __future__ import annotations

import argparse
from typing import Any

from desktop_kb.cli.common import CliError, add_common_options, open_library, parse_bool
from desktop_kb.cli.output import emit, field


def cmd_document(args: argparse.Namespace) -> int:
    with open_library(args) as lib:
        if args.document_cmd == "list":
            items = lib.list_documents()
            emit(args, {"documents": [{"id": d.id, "title": d.title, "path": d.path,
                                       "format": d.format, "local_only": d.local_only} for d in items]},
                 lambda: "\n".join(f"{d.id}\t{'[local] ' if d.local_only else ''}{field(d.title)}\t{field(d.path)}"
                                   for d in items) or "(no documents)")
        else:
            if args.local_only is None:
                raise CliError("Nothing to set; pass --local-only true|false.")
            from desktop_kb.store import documents

            documents.get_document(lib.store_reader, args.id)  # a clear error for a bad id
            lib.set_document_local_only(args.id, args.local_only)
            emit(args, {"id": args.id, "local_only": args.local_only},
                 f"document {args.id}: local only {'on' if args.local_only else 'off'}")
    return 0


def register(sub: Any) -> None:
    doc = sub.add_parser("document", help="list imported documents, change their flags")
    doc_sub = doc.add_subparsers(dest="document_cmd", required=True)
    add_common_options(doc_sub.add_parser("list", help="list imported documents"))
    p = doc_sub.add_parser("set", help="change a document's flags")
    p.add_argument("id", type=int)
    p.add_argument("--local-only", type=parse_bool, metavar="true|false",
                   help="never send this document to a cloud model")
    add_common_options(p)
    doc.set_defaults(func=cmd_document)
