"""API keys live in the OS keyring, never in a file or a log (Qt-free).

The environment variable ``DESKTOP_KB_API_KEY`` overrides the keyring, which
is the way forward on machines without a Secret Service provider.

Not every ``keyring`` backend is a keyring: ``keyrings.alt`` installs file
backends (``PlaintextKeyring`` keeps keys base64-encoded in a file,
``EncryptedKeyring`` in a file encrypted with a password typed in a
terminal). :func:`keyring_info` tells them apart, and :func:`set_api_key`
refuses to put a key in one unless the caller passes ``allow_insecure`` —
which the app does only after saying where the key would go and asking, and
the CLI only with ``--allow-insecure-keyring``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

import keyring
import keyring.errors

SERVICE = "desktop-kb"
API_KEY_ENV = "DESKTOP_KB_API_KEY"
PROVIDER_KEY = "qa.provider"  # before keys were kept per provider: one key for every library

SYSTEM, INSECURE, NONE = "system", "insecure", "none"

NO_KEYRING_MESSAGE = (
    "No system keyring is available on this computer: the keyring library found no Secret Service "
    "(GNOME Keyring, KeePassXC), KWallet, macOS Keychain or Windows Credential Locker, so the key was "
    "not stored. Install and unlock GNOME Keyring or KWallet and restart Desktop KB, or set "
    "DESKTOP_KB_API_KEY in the environment for this session."
)

# Backends whose "keyring" is a file or the registry, with no OS protection.
_FILE_MODULES = ("keyrings.alt.file", "keyrings.alt.file_base", "keyrings.alt.pyfs", "keyrings.alt.Windows",
                 "keyrings.alt.escape")
_NONE_BACKENDS = ("keyring.backends.fail.Keyring", "keyring.backends.null.Keyring")


class KeyringUnavailable(RuntimeError):
    """The OS keyring cannot store secrets; the message says what to do."""


class InsecureKeyring(RuntimeError):
    """The only keyring stores keys in a file; storing there needs the person's explicit yes."""

    def __init__(self, info: KeyringInfo) -> None:
        super().__init__(info.detail)
        self.info = info


@dataclass(frozen=True)
class KeyringInfo:
    kind: str  # SYSTEM | INSECURE | NONE
    backend: str  # the backend's class name
    location: str | None = None  # the file an insecure backend writes
    needs_terminal: bool = False  # it asks for its own password on a terminal (EncryptedKeyring)
    detail: str = ""  # in words, for the CLI and the log

    @property
    def usable(self) -> bool:
        return self.kind != NONE


def _name(backend: Any) -> str:
    return f"{type(backend).__module__}.{type(backend).__name__}"


def _is_file_backend(backend: Any) -> bool:
    module = type(backend).__module__
    return module.startswith(_FILE_MODULES) or hasattr(type(backend), "file_path")


def _storing_backend(backend: Any) -> Any | None:
    """The backend that would receive a new key: a chainer writes to its first (highest-priority) one."""
    if _name(backend) == "keyring.backends.chainer.ChainerBackend":
        members = list(getattr(backend, "backends", []) or [])
        return members[0] if members else None
    return backend


def keyring_info() -> KeyringInfo:
    """What kind of keyring a key would be stored in, and where."""
    try:
        chosen = keyring.get_keyring()
        backend = _storing_backend(chosen)
    except Exception as exc:  # noqa: BLE001 - a broken backend is an environment problem
        return KeyringInfo(NONE, type(exc).__name__, detail=f"{NO_KEYRING_MESSAGE} ({type(exc).__name__})")
    if backend is None or _name(backend) in _NONE_BACKENDS:
        return KeyringInfo(NONE, type(backend).__name__ if backend is not None else "ChainerBackend",
                           detail=NO_KEYRING_MESSAGE)
    name = type(backend).__name__
    if _is_file_backend(backend):
        try:
            location = str(getattr(backend, "file_path", "") or "") or None
        except Exception:  # noqa: BLE001 - a property that fails still means "a file somewhere"
            location = None
        terminal = "Encrypted" in name
        how = ("encrypted with a password it asks for in a terminal" if terminal
               else "base64-encoded, so anyone who can read that file can read the key")
        where = f"in the file {location}" if location else "in a file"
        return KeyringInfo(INSECURE, name, location, terminal,
                           f"The only keyring available ({name}) is not a system keyring: it keeps keys "
                           f"{where}, {how}.")
    return KeyringInfo(SYSTEM, name, detail=f"API keys are stored in the system keyring ({name}).")


def keyring_status() -> tuple[bool, str]:
    """``(ok, message)``: whether keys can be stored safely, in words for the settings page."""
    info = keyring_info()
    return info.kind == SYSTEM, info.detail


def get_api_key(name: str) -> str | None:
    """The key for provider ``name``; the environment wins so a session can bypass the keyring."""
    env = os.environ.get(API_KEY_ENV)
    if env:
        return env
    try:
        return keyring.get_password(SERVICE, name)
    except keyring.errors.KeyringError:
        return None
    except Exception:  # noqa: BLE001 - e.g. an EncryptedKeyring without a terminal; treat as no key
        return None


def provider_key_name(base_url: str | None) -> str:
    """The keyring entry of the key for the provider at ``base_url``: one per host and port.

    One entry served every library, while each library names its own provider: a key
    stored in a second library (another window, another provider) replaced the first
    one's, which then sent that key to its own provider's host.
    """
    from desktop_kb.qa.providers import host_of

    host = host_of((base_url or "").strip()).lower()
    return f"{PROVIDER_KEY}@{host}" if host else PROVIDER_KEY


def get_provider_key(base_url: str | None) -> str | None:
    """The key to send to ``base_url``'s host. A key stored before keys were kept per
    provider is taken over by the first cloud provider that asks for it (it was stored for
    one of them; the others ask for their own), never handed to a loopback server."""
    from desktop_kb.qa.providers import is_loopback

    name = provider_key_name(base_url)
    key = get_api_key(name)
    if key or name == PROVIDER_KEY or is_loopback(base_url or "") or os.environ.get(API_KEY_ENV):
        return key
    legacy = get_api_key(PROVIDER_KEY)
    if legacy:
        try:
            keyring.set_password(SERVICE, name, legacy)
            keyring.delete_password(SERVICE, PROVIDER_KEY)
        except Exception:  # noqa: BLE001 - it stays where it was; asked for again next time
            pass
    return legacy


def set_api_key(name: str, key: str, *, allow_insecure: bool = False) -> KeyringInfo:
    """Store ``key``; returns where it went. Never puts the key into any message."""
    info = keyring_info()
    if info.kind == NONE:
        raise KeyringUnavailable(info.detail)
    if info.kind == INSECURE and not allow_insecure:
        raise InsecureKeyring(info)
    try:
        keyring.set_password(SERVICE, name, key)
    except keyring.errors.KeyringError as exc:
        raise KeyringUnavailable(f"{NO_KEYRING_MESSAGE} ({type(exc).__name__})") from None
    return info


def delete_api_key(name: str) -> None:
    info = keyring_info()
    if info.kind == NONE:
        raise KeyringUnavailable(info.detail)
    try:
        keyring.delete_password(SERVICE, name)
    except keyring.errors.PasswordDeleteError:
        return  # nothing stored: deleting is idempotent
    except keyring.errors.KeyringError as exc:
        raise KeyringUnavailable(f"{NO_KEYRING_MESSAGE} ({type(exc).__name__})") from None
