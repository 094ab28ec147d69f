"""``desktop-kb provider show|presets|set|key``: the AI provider for cloud answers."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from desktop_kb.cli.common import CliError, add_common_options, open_library, text_arg
from desktop_kb.cli.output import emit


def cmd_provider(args: argparse.Namespace) -> int:
    from desktop_kb import secrets
    from desktop_kb.qa.providers import PRESETS, host_of, preset

    if args.provider_cmd == "presets":
        rows = [{"id": p.id, "label": p.label, "base_url": p.base_url, "model": p.model,
                 "needs_key": p.needs_key} for p in PRESETS]
        emit(args, {"presets": rows}, lambda: "\n".join(
            f"{r['id']:<10} {r['base_url']:<52} {r['model']}" for r in rows))
        return 0
    if args.provider_cmd == "key":
        return _store_key(args)
    with open_library(args) as lib:
        if args.provider_cmd == "set":
            base_url, model = args.base_url, args.model
            if args.preset:
                chosen = preset(args.preset)
                base_url = base_url or chosen.base_url
                model = model or chosen.model
            if base_url is None and model is None:
                raise CliError("Pass --base-url and --model (or --preset).")
            if base_url is not None:
                if not base_url.startswith(("http://", "https://")) or not host_of(base_url):
                    raise CliError(f"{base_url!r} is not an http(s) URL.")
                lib.set_setting("qa.provider.base_url", base_url)
            if model is not None:
                lib.set_setting("qa.provider.model", model)
        base_url = lib.get_setting("qa.provider.base_url")
        model = lib.get_setting("qa.provider.model")
        enabled = bool(lib.get_setting("qa.cloud_enabled"))
    has_key = bool(secrets.get_provider_key(base_url))
    info = secrets.keyring_info()
    payload = {"base_url": base_url, "model": model, "host": host_of(base_url or "") or None,
               "has_key": has_key, "cloud_enabled": enabled,
               "keyring": {"kind": info.kind, "backend": info.backend, "location": info.location}}
    emit(args, payload, lambda: (
        f"base URL: {base_url or '(not set)'}\nmodel: {model or '(not set)'}\n"
        f"key: {'stored' if has_key else 'none'}\ncloud answering: {'on' if enabled else 'off'}\n"
        f"keyring: {info.detail}"))
    return 0


def _store_key(args: argparse.Namespace) -> int:
    """Read the key from stdin into the keyring, as this library's provider's key; a file
    "keyring" only with --allow-insecure-keyring."""
    from desktop_kb import secrets

    with open_library(args) as lib:
        base_url = lib.get_setting("qa.provider.base_url")
    name = secrets.provider_key_name(base_url)
    if args.delete:
        try:
            secrets.delete_api_key(name)
        except secrets.KeyringUnavailable as exc:
            raise CliError(str(exc)) from None
        emit(args, {"key": "deleted"}, "key deleted from the keyring")
        return 0
    key = sys.stdin.readline().strip()
    if not key:
        raise CliError("No key on standard input (pipe it in: `… | desktop-kb provider key`).")
    try:
        info = secrets.set_api_key(name, key, allow_insecure=args.allow_insecure_keyring)
    except secrets.InsecureKeyring as exc:
        raise CliError(f"{exc} The key was not stored. To store it there anyway, run again with "
                       "--allow-insecure-keyring, or set DESKTOP_KB_API_KEY in the environment instead.") from None
    except secrets.KeyringUnavailable as exc:
        raise CliError(str(exc)) from None
    where = (f"in {info.location} ({info.backend}, not a system keyring)" if info.kind == secrets.INSECURE
             else f"in the system keyring ({info.backend})")
    emit(args, {"key": "stored", "keyring": {"kind": info.kind, "backend": info.backend,
                                              "location": info.location}}, f"key stored {where}")
    return 0


def register(sub: Any) -> None:
    pr = sub.add_parser("provider", help="the AI provider for cloud answers")
    pr_sub = pr.add_subparsers(dest="provider_cmd", required=True)
    add_common_options(pr_sub.add_parser("show", help="the configured provider"))
    add_common_options(pr_sub.add_parser("presets", help="known providers"))
    p = pr_sub.add_parser("set", help="set the base URL and model")
    p.add_argument("--base-url", type=text_arg)
    p.add_argument("--model", type=text_arg)
    p.add_argument("--preset", help="fill in a known provider (see `provider presets`)")
    add_common_options(p)
    p = pr_sub.add_parser("key", help="read the API key from standard input into the system keyring")
    p.add_argument("--delete", action="store_true", help="delete the stored key")
    p.add_argument("--allow-insecure-keyring", action="store_true",
                   help="store the key even when the only keyring is a file (keyrings.alt)")
    add_common_options(p)
    pr.set_defaults(func=cmd_provider)
