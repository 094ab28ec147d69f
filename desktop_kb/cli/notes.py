"""``desktop-kb note add|list|show|edit|delete|restore|set``.

Commands that change a note return only after the index reflects the change (they
drain the worker), so a script can search right after.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from desktop_kb.cli.common import (
    CliError,
    add_common_options,
    open_library,
    parse_bool,
    text_arg,
    wait_for_index,
)
from desktop_kb.cli.output import emit, field


def _read_body(args: argparse.Namespace) -> str:
    if args.body is not None:
        return args.body
    path = Path(args.body_file)
    try:
        data = sys.stdin.buffer.read() if args.body_file == "-" else path.read_bytes()
    except OSError as exc:
        raise CliError(f"Cannot read {path}: {exc.strerror or exc}") from exc
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CliError(f"{path} is not UTF-8 text (invalid byte at offset {exc.start}).") from exc


def _derived_from(note: Any) -> list[dict[str, object]]:
    """The local-only sources a note was made from (why it is local only), if any."""
    from desktop_kb.store.local_only import DerivedReason

    reason = DerivedReason.from_text(getattr(note, "local_only_reason", None))
    return [s.as_json() for s in reason.sources] if reason is not None else []


def _note_json(note: Any, *, body: bool) -> dict[str, Any]:
    out = {"id": note.id, "title": note.title, "created_at": note.created_at,
           "updated_at": note.updated_at, "local_only": note.local_only, "trashed": note.trashed,
           "local_only_derived_from": _derived_from(note)}
    if body:
        out["body"] = note.body
    return out


def _note_text(note: Any) -> str:
    derived = _derived_from(note)
    why = ("\n(local only: made from " + ", ".join(f"{d['type']} {d['id']} “{field(d['title'])}”" for d in derived)
           + "; lift with `note set ID --local-only false`)") if derived else ""
    return f"# {field(note.title)}{why}\n\n{note.body}"


def cmd_note(args: argparse.Namespace) -> int:
    with open_library(args) as lib:
        if args.note_cmd == "add":
            body = _read_body(args)
            note_id = lib.add_note(args.title, body, local_only=args.local_only)
            wait_for_index(lib)
            emit(args, {"id": note_id}, str(note_id))
        elif args.note_cmd == "list":
            items = lib.list_notes(trashed=args.trash, tags=args.tag or ())
            emit(args, {"notes": [_note_json(n, body=False) for n in items]},
                 lambda: "\n".join(f"{n.id}\t{field(n.title)}" for n in items) or "(no notes)")
        elif args.note_cmd == "show":
            note = lib.get_note(args.id)
            emit(args, _note_json(note, body=True), _note_text(note))
        elif args.note_cmd == "edit":
            body = None if args.body is None and args.body_file is None else _read_body(args)
            changed = lib.save_note(args.id, title=args.title, body=body)
            wait_for_index(lib)
            emit(args, {"id": args.id, "changed": changed}, "saved" if changed else "unchanged")
        elif args.note_cmd == "delete":
            if args.purge:
                lib.delete_note(args.id)
            else:
                lib.trash_note(args.id)
            wait_for_index(lib)
            emit(args, {"id": args.id, "deleted": True, "purged": args.purge},
                 "deleted" if args.purge else "moved to trash")
        elif args.note_cmd == "restore":
            lib.restore_note(args.id)
            wait_for_index(lib)
            emit(args, {"id": args.id, "restored": True}, "restored")
    return 0


def cmd_note_set(args: argparse.Namespace) -> int:
    with open_library(args) as lib:
        if args.local_only is None:
            raise CliError("Nothing to set; pass --local-only true|false.")
        lib.set_note_local_only(args.id, args.local_only)
        emit(args, {"id": args.id, "local_only": args.local_only},
             f"note {args.id}: local only {'on' if args.local_only else 'off'}")
    return 0


def register(sub: Any) -> None:
    note = sub.add_parser("note", help="add, list, show, edit, delete notes")
    note_sub = note.add_subparsers(dest="note_cmd", required=True)
    add = note_sub.add_parser("add", help="add a note; prints its id")
    add.add_argument("--title", required=True, type=text_arg)
    body = add.add_mutually_exclusive_group(required=True)
    body.add_argument("--body", type=text_arg)
    body.add_argument("--body-file", help="read the body from a UTF-8 file ('-' for stdin)")
    add.add_argument("--local-only", action="store_true", help="never send this note to a cloud model")
    lst = note_sub.add_parser("list", help="list notes")
    lst.add_argument("--trash", action="store_true", help="list the trash instead")
    lst.add_argument("--tag", action="append", type=text_arg, metavar="TAG",
                     help="only notes tagged #TAG (or a tag nested under it); repeat to require several")
    show = note_sub.add_parser("show", help="show a note")
    show.add_argument("id", type=int)
    edit = note_sub.add_parser("edit", help="change a note's title or body")
    edit.add_argument("id", type=int)
    edit.add_argument("--title", type=text_arg)
    ebody = edit.add_mutually_exclusive_group()
    ebody.add_argument("--body", type=text_arg)
    ebody.add_argument("--body-file")
    delete = note_sub.add_parser("delete", help="move a note to the trash (--purge: delete for good)")
    delete.add_argument("id", type=int)
    delete.add_argument("--purge", action="store_true")
    restore = note_sub.add_parser("restore", help="restore a note from the trash")
    restore.add_argument("id", type=int)
    for p in (add, lst, show, edit, delete, restore):
        add_common_options(p)
    note.set_defaults(func=cmd_note)

    flags = note_sub.add_parser("set", help="change a note's flags")
    flags.add_argument("id", type=int)
    flags.add_argument("--local-only", type=parse_bool, metavar="true|false",
                       help="never send this note to a cloud model")
    add_common_options(flags)
    flags.set_defaults(func=cmd_note_set)
