"""Two libraries (two windows, two data folders) with two providers: each sends its own key.

One keyring entry held "the provider's key" for every library, while each library names its
own provider: storing the second library's key replaced the first one's, and the first
library then sent the second provider's key to its own provider's host."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_kb import secrets
from desktop_kb.library import Library
from desktop_kb.qa.engine import QaEngine
from desktop_kb.tasks import settings_tasks
from tests.qa_server import ChatServer, Reply, sse_chunk

QUESTION = "怎么用 Docker 安装 GitLab？"


@pytest.fixture
def two_servers() -> Iterator[tuple[ChatServer, ChatServer]]:
    with ChatServer() as first, ChatServer() as second:
        yield first, second


def _library(data_dir: Path, server: ChatServer) -> Library:
    lib = Library(data_dir, load_model=False)
    lib.add_note("Docker 部署 GitLab", "用 Docker 安装 GitLab：先拉取 gitlab/gitlab-ce 镜像，再映射端口。")
    assert lib.drain(60)
    lib.set_setting("qa.cloud_enabled", True)
    lib.set_setting("qa.provider.base_url", server.base_url)
    lib.set_setting("qa.provider.model", "test-model")
    return lib


def _sent_key(lib: Library, server: ChatServer) -> str:
    server.replies.append(Reply.stream(sse_chunk("先拉取镜像 [1]。", finish="stop")))
    engine = QaEngine(lib, provider_overrides={"backoff": 0.01, "read_timeout": 5.0, "connect_timeout": 2.0})
    engine.ask(QUESTION, approved=True)
    return server.headers[-1].get("authorization", "")


def test_each_library_sends_its_own_provider_s_key(tmp_path: Path, two_servers, _memory_keyring,  # type: ignore[no-untyped-def]
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(secrets.API_KEY_ENV, raising=False)
    first_server, second_server = two_servers
    first = _library(tmp_path / "first", first_server)
    second = _library(tmp_path / "second", second_server)
    try:
        # What each window's Settings → AI provider does with the key typed beside its URL.
        settings_tasks.store_api_key("sk-first-provider", first.get_setting("qa.provider.base_url"))
        settings_tasks.store_api_key("sk-second-provider", second.get_setting("qa.provider.base_url"))
        assert _sent_key(first, first_server) == "Bearer sk-first-provider"
        assert _sent_key(second, second_server) == "Bearer sk-second-provider"
        assert settings_tasks.load_settings(first).has_key and settings_tasks.load_settings(second).has_key
        settings_tasks.delete_api_key(second.get_setting("qa.provider.base_url"))
        assert _sent_key(first, first_server) == "Bearer sk-first-provider"  # not the other's
    finally:
        first.close()
        second.close()


def test_a_key_stored_before_keys_were_per_provider_still_works_for_one_cloud_provider(
        _memory_keyring, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv(secrets.API_KEY_ENV, raising=False)
    _memory_keyring.set_password(secrets.SERVICE, secrets.PROVIDER_KEY, "sk-old")
    assert secrets.get_provider_key("http://localhost:11434/v1") is None  # never to a local server
    assert secrets.get_provider_key("https://api.deepseek.com/v1") == "sk-old"  # taken over...
    assert secrets.get_provider_key("https://api.deepseek.com/v1") == "sk-old"
    assert secrets.get_provider_key("https://dashscope.aliyuncs.com/compatible-mode/v1") is None  # ...once
