"""Settings work for the settings dialog, off the GUI thread.

Settings live in the store (SQL), the API key in the OS keyring (which may talk
D-Bus): none of it is touched on the GUI thread. Models: ``model_tasks``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from desktop_kb import secrets
from desktop_kb.library import Library
from desktop_kb.retrieval.resolve import source_titles
from desktop_kb.store.uploads import list_uploads

SETTING_KEYS = ("discovery.enabled", "qa.cloud_enabled", "qa.provider.base_url",
                "qa.provider.model", "embed.model")


@dataclass
class SettingsSnapshot:
    values: dict[str, Any]
    keyring: secrets.KeyringInfo  # where a key would go: system keyring, a file, or nowhere
    has_key: bool

    @property
    def keyring_ok(self) -> bool:
        return self.keyring.kind == secrets.SYSTEM


@dataclass
class PrivacySnapshot:
    sensitive: Any
    budget_chars: Any
    uploads: list[Any]  # UploadRecord, newest first
    # (type, id) → (title, imported file or None) of each logged source still in the store
    titles: dict[tuple[str, int], tuple[str, str | None]] = field(default_factory=dict)


def load_settings(library: Library) -> SettingsSnapshot:
    values = {key: library.get_setting(key) for key in SETTING_KEYS}
    info = secrets.keyring_info()
    has_key = bool(secrets.get_provider_key(values.get("qa.provider.base_url")))
    return SettingsSnapshot(values, info, has_key)


def load_privacy(library: Library, limit: int = 500) -> PrivacySnapshot:
    """Settings → Privacy: the gate's mode, the context budget and the upload log."""
    rows = list_uploads(library.store_reader, limit)
    keys = [(str(kind), int(ident)) for row in rows for kind, ident in row.sources]
    return PrivacySnapshot(library.get_setting("qa.sensitive"), library.get_setting("qa.budget_chars"),
                           rows, source_titles(library.store_reader, keys))


def store_api_key(key: str, base_url: str | None, *, allow_insecure: bool = False) -> secrets.KeyringInfo:
    """The key for the provider at ``base_url``. ``allow_insecure`` only after the person
    agreed to a file keyring (the dialog asks)."""
    return secrets.set_api_key(secrets.provider_key_name(base_url), key, allow_insecure=allow_insecure)


def delete_api_key(base_url: str | None) -> None:
    secrets.delete_api_key(secrets.provider_key_name(base_url))


def load_ocr_state(library: Library) -> tuple[bool, str, int]:
    """Settings → OCR: (installed, detail, scanned pages waiting for OCR)."""
    status = library.ocr.status()
    waiting = sum(d.ocr_pending for d in library.documents_waiting_for_ocr())
    return status.installed, status.detail, waiting
