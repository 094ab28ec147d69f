"""A rebuild or verify asked for while the app embeds the library does not wait for every vector.

The backfill (switching to e5 on a large library: an hour on two cores) ran as one job, and a
rebuild or verify asked for meanwhile — 'desktop-kb index verify|rebuild' beside the app, or
the app's own Rebuild — started only after its last vector. The backfill now stops at the
batch under way, the asks run, and it goes on from where it stopped.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_embed_transformer import Tiny

from desktop_kb.embed.calls import CountedEngine
from desktop_kb.index import backfill
from desktop_kb.library import Library
from desktop_kb.progress import Progress

NOTES = 150
PAGE_S = 0.4  # each page of one chunk: the whole backfill takes a minute


@pytest.fixture
def slow_backfill(monkeypatch: pytest.MonkeyPatch) -> None:
    real = CountedEngine.embed_passages

    def slow(self, texts):  # type: ignore[no-untyped-def]
        time.sleep(PAGE_S)
        return real(self, texts)

    monkeypatch.setattr(CountedEngine, "embed_passages", slow)
    monkeypatch.setattr(backfill, "FIRST_PAGE", 1)
    monkeypatch.setattr(backfill, "next_page_size", lambda *a, **k: 1)


def library_to_embed(data_dir: Path, tmp_path: Path) -> None:
    tiny = Tiny(tmp_path)
    with Library(data_dir, load_model=False) as lib:
        lib.models.install_from(tiny.folder)
        lib.set_setting("embed.model", "tiny")
        for i in range(NOTES):
            lib.add_note(f"笔记 {i}", f"docker gitlab 容器 zqyield{i}")
        assert lib.drain(120)
    # Not one vector yet, as after switching models: the next start embeds them all.
    conn = sqlite3.connect(data_dir / "index.sqlite")
    with conn:
        conn.execute("DELETE FROM kb_vectors")
        conn.execute("DELETE FROM kb_embed_cache")
    conn.close()


def embedding(app: Library) -> int:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        missing = app.index_status().missing_vectors
        if 0 < missing < NOTES:
            return missing
        time.sleep(0.1)
    raise AssertionError("the backfill did not start")


def test_verify_beside_the_app_embedding_runs_before_the_last_vector(
        data_dir: Path, tmp_path: Path, slow_backfill: None) -> None:
    library_to_embed(data_dir, tmp_path)
    with Library(data_dir, role="app") as app:
        embedding(app)
        done = subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir),
                               "index", "verify"], capture_output=True, text=True,
                              encoding="utf-8", timeout=300)
        assert done.returncode == 0, done.stderr
        # Vectors still to be made are not drift (it said 'drift: … missing vectors; repaired').
        assert done.stdout.startswith("no drift; "), done.stdout
        assert "chunks without vectors yet; being embedded" in done.stdout, done.stdout
        # Answered while vectors were still being made (it waited for all of them).
        assert app.index_status().missing_vectors > 0
        assert app.drain(300)  # and the backfill went on to the end
        assert app.index_status().state == "ok"


def test_the_apps_rebuild_during_its_backfill_starts_at_once(
        data_dir: Path, tmp_path: Path, slow_backfill: None) -> None:
    library_to_embed(data_dir, tmp_path)
    with Library(data_dir, role="app") as app:
        embedding(app)
        at_start: list[int] = []

        class Started(Progress):
            def start(self, label: str, maximum: int) -> None:
                at_start.append(app.index_status().missing_vectors)
                super().start(label, maximum)

        result = app.worker.rebuild(Started()).result(300)
        assert result.sources == NOTES and not result.cancelled
        assert at_start[0] > 0  # it started while vectors were still being made
        assert app.drain(300)
        status = app.index_status()
        assert status.state == "ok" and status.missing_vectors == 0
