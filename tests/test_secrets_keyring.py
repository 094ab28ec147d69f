"""Where an API key would go: system keyring, a plaintext/encrypted file "keyring", or nowhere.

Real keyrings.alt backends writing real files under the test's temp data dir;
the key itself never appears in any message.
"""

from __future__ import annotations

from pathlib import Path

import keyring
import pytest
from keyring.backends import chainer, fail
from keyrings.alt.file import EncryptedKeyring, PlaintextKeyring

from desktop_kb import secrets

KEY = "sk-proj-Zq8LmN3vX5bT2kW9pR7yD4fH6jS1aG0cE"


@pytest.fixture
def plaintext(tmp_path: Path) -> PlaintextKeyring:
    backend = PlaintextKeyring()
    backend.file_path = str(tmp_path / "keyring_pass.cfg")  # type: ignore[misc]
    keyring.set_keyring(backend)
    return backend


def test_a_system_keyring_stores_the_key(_memory_keyring: object) -> None:
    info = secrets.keyring_info()
    assert info.kind == secrets.SYSTEM and secrets.keyring_status()[0]
    assert secrets.set_api_key(secrets.PROVIDER_KEY, KEY).kind == secrets.SYSTEM
    assert secrets.get_api_key(secrets.PROVIDER_KEY) == KEY


def test_a_plaintext_file_keyring_is_named_and_refused_without_consent(
        plaintext: PlaintextKeyring, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(secrets.API_KEY_ENV, raising=False)
    info = secrets.keyring_info()
    assert info.kind == secrets.INSECURE and info.backend == "PlaintextKeyring"
    assert info.location == plaintext.file_path and plaintext.file_path in info.detail
    assert "base64" in info.detail and not secrets.keyring_status()[0]
    with pytest.raises(secrets.InsecureKeyring) as refused:
        secrets.set_api_key(secrets.PROVIDER_KEY, KEY)
    assert KEY not in str(refused.value) and not Path(plaintext.file_path).exists()

    stored = secrets.set_api_key(secrets.PROVIDER_KEY, KEY, allow_insecure=True)
    assert stored.location == plaintext.file_path
    assert KEY not in Path(plaintext.file_path).read_text()  # base64 in the file, as the message says
    assert secrets.get_api_key(secrets.PROVIDER_KEY) == KEY


def test_a_chainer_that_writes_to_a_file_backend_is_insecure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            _memory_keyring: object) -> None:
    backend = PlaintextKeyring()
    backend.file_path = str(tmp_path / "k.cfg")  # type: ignore[misc]
    # What keyring builds on a desktop without Secret Service once keyrings.alt is installed.
    monkeypatch.setattr(chainer.ChainerBackend, "backends", [backend, _memory_keyring])
    keyring.set_keyring(chainer.ChainerBackend())
    assert secrets.keyring_info().kind == secrets.INSECURE
    monkeypatch.setattr(chainer.ChainerBackend, "backends", [_memory_keyring, backend])
    assert secrets.keyring_info().kind == secrets.SYSTEM  # a real keyring first: keys go there


def test_an_encrypted_file_keyring_is_insecure_and_needs_a_terminal(tmp_path: Path) -> None:
    pytest.importorskip("Cryptodome", reason="EncryptedKeyring needs pycryptodomex")
    backend = EncryptedKeyring()
    backend.file_path = str(tmp_path / "crypted_pass.cfg")  # type: ignore[misc]
    keyring.set_keyring(backend)
    info = secrets.keyring_info()
    assert info.kind == secrets.INSECURE and info.needs_terminal and "terminal" in info.detail


def test_no_keyring_at_all_explains_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    """This machine's own situation: keyring finds no backend and falls back to fail.Keyring."""
    keyring.set_keyring(fail.Keyring())
    monkeypatch.delenv(secrets.API_KEY_ENV, raising=False)
    info = secrets.keyring_info()
    assert info.kind == secrets.NONE and "GNOME Keyring" in info.detail and secrets.API_KEY_ENV in info.detail
    with pytest.raises(secrets.KeyringUnavailable):
        secrets.set_api_key(secrets.PROVIDER_KEY, KEY, allow_insecure=True)
    assert secrets.get_api_key(secrets.PROVIDER_KEY) is None
    monkeypatch.setattr(chainer.ChainerBackend, "backends", [])
    keyring.set_keyring(chainer.ChainerBackend())
    assert secrets.keyring_info().kind == secrets.NONE  # a chainer with nothing in it
