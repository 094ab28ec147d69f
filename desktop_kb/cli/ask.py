"""``desktop-kb ask QUESTION``: a cited answer from the library.

From the command line nothing is sent to a provider without ``--yes`` on that very
command (approval is per act: a session approved in the app approves nothing here);
without it the answer is the local cited hit list. A streamed
answer reaches the terminal through :class:`desktop_kb.cli.output.AnswerStream`,
cleaned piece by piece like every other string from a provider.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from desktop_kb.cli.common import (
    EXIT_ERROR,
    CliError,
    add_common_options,
    open_library,
    text_arg,
    wait_for_index,
)
from desktop_kb.cli.output import AnswerStream, emit, field, notice, snippet_line


def _answer_text(answer: Any) -> str:
    from desktop_kb.qa.engine import REASONS

    lines = []
    if answer.mode == "generated":
        lines.append(answer.answer)
        if answer.flags:
            lines.append(f"(flags: {', '.join(answer.flags)})")
        if "answer_too_long" in answer.flags:
            lines.append("(the answer reached qa.max_answer_tokens and was cut off)")
        lines.append("")
        lines += [f"[{c.n}] {field(c.title)} ({c.source_type} {c.source_id}, {c.start}–{c.end})"
                  for c in answer.citations]
    else:
        reason = REASONS.get(answer.reason or "", answer.reason or "")
        lines.append(f"Local answer — {reason}" + (f" ({answer.detail})" if answer.detail else ""))
        if answer.hits:
            lines.append("")
            lines += [f"[{c.n}] {field(c.title)} — {snippet_line(c.snippet, c.title)}" for c in answer.hits]
    return "\n".join(lines)


def cmd_ask(args: argparse.Namespace) -> int:
    from desktop_kb.qa.engine import QaEngine
    from desktop_kb.qa.save_note import question_title

    if not args.question.strip():  # before a chat session is made for it
        raise CliError("The question is empty. Nothing was searched or sent.")
    with open_library(args) as lib:
        wait_for_index(lib, saved=False, read_anyway=True)
        engine = QaEngine(lib)
        session_id, not_kept = args.session, ""
        if session_id is None:
            # Asking reads the library: a long import holding it (or a full disk) leaves the
            # answer unkept, not refused.
            session_id, not_kept = engine.open_session(question_title(args.question))
        else:
            from desktop_kb.store import chats

            chats.get_session(lib.store_reader, session_id)
        limit = int(lib.get_setting("qa.max_question_chars") or 2000)
        if len(args.question) > limit:
            raise CliError(f"The question is {len(args.question):,} characters long; questions are limited to "
                           f"{limit:,} (setting qa.max_question_chars). Nothing was searched or sent.")
        stream = AnswerStream() if not args.json and sys.stdout.isatty() else None
        answer = engine.ask(args.question, session_id=session_id, approved=args.yes,
                            on_delta=stream.write if stream else None, scope=args.scope,
                            not_kept=not_kept)
        if stream is not None:
            stream.close("\n\n" if answer.mode == "generated" else "")
        payload = answer.as_json()
        if answer.meta.get("not_kept"):
            notice(f"This question and its answer were not kept in a chat: {answer.meta['not_kept']}")
        failed = 0
        if args.save_note and (answer.citations or answer.hits):
            from desktop_kb.qa.save_note import save_answer_as_note
            from desktop_kb.store.errors import StoreError

            try:
                payload["note_id"] = save_answer_as_note(lib, {"question": args.question, **payload})
            except StoreError as exc:  # the answer is still shown: asking it again costs a request
                notice(f"The answer was not saved as a note: {exc}")
                failed = EXIT_ERROR
            else:
                wait_for_index(lib)
        emit(args, payload, lambda: _answer_text(answer) + (
            f"\n(saved as note {payload['note_id']})" if "note_id" in payload else ""))
    return failed


def register(sub: Any) -> None:
    ask = sub.add_parser("ask", help="ask the library a question (cited; cloud only with --yes)")
    ask.add_argument("question", type=text_arg)
    ask.add_argument("--session", type=int, help="continue a chat session")
    ask.add_argument("--yes", action="store_true",
                     help="approve sending the packed snippets and the question to the provider")
    ask.add_argument("--scope", choices=["all", "notes", "library"], default="all")
    ask.add_argument("--save-note", action="store_true",
                     help="also save the answer as a note linked to its sources")
    add_common_options(ask)
    ask.set_defaults(func=cmd_ask)
