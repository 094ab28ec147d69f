"""API keys live in the OS keyring, never in a file or a log (Qt-free).

The environment variable ``DESKTOP_KB_API_KEY`` overrides the keyring, which
is the way forward on machines without a Secret Service provider.
"""

from __future__ import annotations

import os

import keyring
import keyring.errors

SERVICE = "desktop-kb"
API_KEY_ENV = "DESKTOP_KB_API_KEY"
PROVIDER_KEY = "qa.provider"  # the key name for the configured AI provider

NO_KEYRING_MESSAGE = (
    "No system keyring was found. Install and unlock a Secret Service provider "
    "(GNOME Keyring or KWallet) and restart, or set DESKTOP_KB_API_KEY in the "
    "environment for this session."
)


class KeyringUnavailable(RuntimeError):
    """The OS keyring cannot store secrets; the message says what to do."""


def _backend_is_usable() -> bool:
    backend = keyring.get_keyring()
    # The "fail" backend and a chainer with nothing in it both mean "no keyring".
    name = f"{type(backend).__module__}.{type(backend).__name__}"
    if name == "keyring.backends.fail.Keyring":
        return False
    if name == "keyring.backends.chainer.ChainerBackend":
        return bool(getattr(backend, "backends", []))
    return True


def keyring_status() -> tuple[bool, str]:
    """``(ok, message)``: whether keys can be stored, in words for the settings page."""
    try:
        usable = _backend_is_usable()
    except Exception as exc:  # noqa: BLE001 - a broken backend is an environment problem
        return False, f"{NO_KEYRING_MESSAGE} ({type(exc).__name__})"
    if not usable:
        return False, NO_KEYRING_MESSAGE
    backend = keyring.get_keyring()
    return True, f"API keys are stored in the system keyring ({type(backend).__name__})."


def get_api_key(name: str) -> str | None:
    """The key for provider ``name``; the environment wins so a session can bypass the keyring."""
    env = os.environ.get(API_KEY_ENV)
    if env:
        return env
    try:
        return keyring.get_password(SERVICE, name)
    except keyring.errors.KeyringError:
        return None


def set_api_key(name: str, key: str) -> None:
    if not _backend_is_usable():
        raise KeyringUnavailable(NO_KEYRING_MESSAGE)
    try:
        keyring.set_password(SERVICE, name, key)
    except keyring.errors.KeyringError as exc:
        # Never include the key itself in the message.
        raise KeyringUnavailable(f"{NO_KEYRING_MESSAGE} ({type(exc).__name__})") from None


def delete_api_key(name: str) -> None:
    if not _backend_is_usable():
        raise KeyringUnavailable(NO_KEYRING_MESSAGE)
    try:
        keyring.delete_password(SERVICE, name)
    except keyring.errors.PasswordDeleteError:
        return  # nothing stored: deleting is idempotent
    except keyring.errors.KeyringError as exc:
        raise KeyringUnavailable(f"{NO_KEYRING_MESSAGE} ({type(exc).__name__})") from None
