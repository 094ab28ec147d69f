"""``desktop-kb settings list|get|set``: read and change the library's settings."""

from __future__ import annotations

import argparse
import json
from typing import Any

from desktop_kb.cli.common import CliError, add_common_options, bool_word, open_library, text_arg
from desktop_kb.cli.output import emit
from desktop_kb.store.settings import DEFAULTS, UI_LANGUAGES


def parse_value(key: str, text: str) -> Any:
    """A setting value from the command line: JSON when it parses, else the plain string."""
    try:
        value = json.loads(text)
    except ValueError:
        value = text
    if isinstance(DEFAULTS.get(key), bool) and isinstance(value, str):
        word = bool_word(value)
        value = value if word is None else word
    return validate_setting(key, value)


def validate_setting(key: str, value: Any) -> Any:
    if key == "qa.sensitive" and value not in ("block", "redact"):
        raise CliError("qa.sensitive is 'block' or 'redact'.")
    if key == "qa.budget_chars" and (not isinstance(value, int) or isinstance(value, bool) or value < 100):
        raise CliError("qa.budget_chars is a whole number of characters, at least 100.")
    if key in ("qa.cloud_enabled", "discovery.enabled") and not isinstance(value, bool):
        raise CliError(f"{key} is true or false.")
    if key.startswith("qa.timeout.") and (not isinstance(value, (int, float)) or value <= 0):
        raise CliError(f"{key} is a number of seconds.")
    whole = isinstance(value, int) and not isinstance(value, bool)
    if key == "ui.language":
        if value in (None, "system"):
            return None  # follow the system's language, as "System" in Settings stores it
        if value not in UI_LANGUAGES:
            raise CliError(f"ui.language is {', '.join(UI_LANGUAGES)} or system.")
    if key == "embed.threads" and (not whole or not 1 <= value <= 64):
        raise CliError("embed.threads is a whole number of threads from 1 to 64.")
    if key == "qa.max_question_chars" and (not whole or value < 20):
        raise CliError("qa.max_question_chars is a whole number of characters, at least 20.")
    if key == "qa.max_answer_tokens" and (not whole or not 16 <= value <= 32768):
        raise CliError("qa.max_answer_tokens is a whole number of tokens from 16 to 32768.")
    return value


def cmd_settings(args: argparse.Namespace) -> int:
    with open_library(args) as lib:
        if args.settings_cmd == "list":
            from desktop_kb.store.settings import all_settings

            values = all_settings(lib.store_reader)
            emit(args, values, lambda: "\n".join(f"{k} = {json.dumps(v, ensure_ascii=False)}"
                                                 for k, v in sorted(values.items())))
        elif args.settings_cmd == "get":
            value = lib.get_setting(args.key)
            emit(args, {"key": args.key, "value": value}, json.dumps(value, ensure_ascii=False))
        else:
            value = parse_value(args.key, args.value)
            lib.set_setting(args.key, value)
            emit(args, {"key": args.key, "value": value},
                 f"{args.key} = {json.dumps(value, ensure_ascii=False)}")
    return 0


def register(sub: Any) -> None:
    st = sub.add_parser("settings", help="read and change settings")
    st_sub = st.add_subparsers(dest="settings_cmd", required=True)
    add_common_options(st_sub.add_parser("list", help="every setting with its value"))
    p = st_sub.add_parser("get", help="one setting")
    p.add_argument("key")
    add_common_options(p)
    p = st_sub.add_parser("set", help="change a setting (JSON values: true, 600, \"redact\")")
    p.add_argument("key")
    p.add_argument("value", type=text_arg)
    add_common_options(p)
    st.set_defaults(func=cmd_settings)
