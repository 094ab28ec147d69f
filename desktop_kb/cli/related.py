"""``desktop-kb related | link | unlink | dismiss | links``: discovery from the command line.

``related`` only suggests; ``link`` is the person's explicit decision (I9).
Every command shares the core with the GUI's related-material panel.
"""

from __future__ import annotations

import argparse
from typing import Any

from desktop_kb.cli.common import CliError, add_common_options, open_library, wait_until_ready
from desktop_kb.cli.output import emit, field, snippet_line
from desktop_kb.store.links import TARGET_TYPES


def _suggestion_text(s: Any, rank: int | None = None) -> str:
    reason = []
    if s.terms:
        reason.append("shared: " + ", ".join(s.terms))
    if s.likeness is not None:
        reason.append(f"similar in meaning {round(s.likeness * 100)}%")
    elif s.similarity is not None:
        reason.append(f"similarity {s.similarity:.2f}")
    lines = [f"{rank or s.rank}. [{s.target_type} {s.target_id}] {field(s.title or '(untitled)')}"]
    if reason:
        lines.append("   " + " · ".join(reason))
    if s.snippet:
        lines.append("   " + snippet_line(s.snippet, s.title))
    return "\n".join(lines)


def cmd_related(args: argparse.Namespace) -> int:
    if args.limit < 1:
        raise CliError("--limit must be at least 1.")
    with open_library(args) as lib:
        note = lib.get_note(args.note_id)
        if note.trashed:
            raise CliError(f"Note {args.note_id} is in the trash; restore it to see related material.")
        wait_until_ready(lib)
        result = lib.related_material(args.note_id, limit=args.limit)

        def text() -> str:
            lines = [f"nearly the same as [{d.target_type} {d.target_id}] {field(d.title or '(untitled)')} "
                     f"({round(d.overlap * 100)}% shared text"
                     + (f", similarity {d.similarity:.2f}" if d.similarity is not None else "")
                     + ") — compare them; nothing is merged" for d in result.near_duplicates]
            if result.mode != "hybrid":
                lines.append("(keyword matches only: no embedding model in use)")
            if not result.groups:
                return "\n".join([*lines, "no related material"])
            for rank, group in enumerate(result.groups, start=1):
                lines.append(_suggestion_text(group.lead, rank))
                if group.copies:
                    lines.append("   same text also in: " + "; ".join(
                        f"[{c.target_type} {c.target_id}] {field(c.title)}" for c in group.copies))
            return "\n".join(lines)

        emit(args, result.as_json(), text)
    return 0


def cmd_link(args: argparse.Namespace) -> int:
    with open_library(args) as lib:
        if args.command == "link":
            created = lib.link(args.note_id, args.target_type, args.target_id, origin="manual")
            emit(args, {"note_id": args.note_id, "target_type": args.target_type,
                        "target_id": args.target_id, "created": created},
                 "linked" if created else "already linked")
        elif args.command == "unlink":
            typed = [e for e in lib.note_links(args.note_id).outgoing if e.origin == "wiki"
                     and (e.target_type, e.target_id) == (args.target_type, args.target_id)]
            if typed:
                raise CliError(f"Note {args.note_id} links to “{typed[0].title}” as [[…]] in its text; "
                               "remove that text to remove the link (desktop-kb note edit).")
            removed = lib.unlink(args.note_id, args.target_type, args.target_id)
            emit(args, {"note_id": args.note_id, "target_type": args.target_type,
                        "target_id": args.target_id, "removed": removed},
                 "unlinked" if removed else "no such link")
        else:
            lib.get_note(args.note_id)
            lib.dismiss(args.note_id, args.target_type, args.target_id, undo=args.undo)
            emit(args, {"note_id": args.note_id, "target_type": args.target_type,
                        "target_id": args.target_id, "dismissed": not args.undo},
                 "suggestion restored" if args.undo else "dismissed for this note")
    return 0


def cmd_links(args: argparse.Namespace) -> int:
    with open_library(args) as lib:
        lib.get_note(args.note_id)
        links = lib.note_links(args.note_id)

        def text() -> str:
            lines = ["links from this note:"]
            lines += [f"  -> [{e.target_type} {e.target_id}] {field(e.title or '(untitled)')} ({e.origin})"
                      for e in links.outgoing] or ["  (none)"]
            lines.append("links to this note:")
            lines += [f"  <- [note {e.target_id}] {field(e.title or '(untitled)')}" for e in links.backlinks] \
                or ["  (none)"]
            return "\n".join(lines)

        emit(args, links.as_json(), text)
    return 0


def register(sub: Any) -> None:
    """Add the discovery commands to ``desktop-kb``'s sub-command parser."""
    rel = sub.add_parser("related", help="related notes and fragments for a note, with reasons")
    rel.add_argument("note_id", type=int)
    rel.add_argument("--limit", type=int, default=8)
    add_common_options(rel)
    rel.set_defaults(func=cmd_related)
    for name, help_text in (("link", "link a note to a note or fragment (a no-op if linked)"),
                            ("unlink", "remove a link"),
                            ("dismiss", "never suggest this target for the note again")):
        p = sub.add_parser(name, help=help_text)
        p.add_argument("note_id", type=int)
        p.add_argument("target_type", help=f"one of: {', '.join(TARGET_TYPES)}")
        p.add_argument("target_id", type=int)
        if name == "dismiss":
            p.add_argument("--undo", action="store_true", help="suggest it again")
        add_common_options(p)
        p.set_defaults(func=cmd_link)
    lk = sub.add_parser("links", help="a note's links and backlinks")
    lk.add_argument("note_id", type=int)
    add_common_options(lk)
    lk.set_defaults(func=cmd_links)
