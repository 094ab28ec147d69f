"""``desktop-kb index …`` beside the app, which keeps the index.

Every command loaded the embedding model, and a status loads it only to drop it: polled by a
script beside the app on a loaded machine, each ``index status`` took 30-80 s, most of it
loading the model, and a status that ended while the model still loaded aborted the process.
Where the command keeps the index itself it indexes and embeds, so it loads the model then.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from desktop_kb.cli.index import open_for_index
from desktop_kb.embed import DEFAULT_MODEL
from desktop_kb.library import Library


def test_index_commands_load_the_model_only_where_they_keep_the_index(
        data_dir: Path, default_model_root: Path) -> None:
    (data_dir / "models").mkdir()
    (data_dir / "models" / DEFAULT_MODEL).symlink_to(default_model_root / "models" / DEFAULT_MODEL)
    args = argparse.Namespace(data_dir=str(data_dir))
    with Library(data_dir, role="app") as app:  # the window: it keeps the index, with its model
        app.add_note("所有权", "Rust 的所有权规则 zqbeside")
        assert app.model_ready is not None
        app.model_ready.result()
        assert app.drain(120) and app.worker.is_owner
        with open_for_index(args) as lib:
            assert not lib.worker.is_owner
            assert lib.model_ready is None and lib.engine is None
            status = lib.index_status()
            assert status.state == "ok" and status.embed_model == DEFAULT_MODEL and status.missing_vectors == 0
    with open_for_index(args) as lib:  # alone, it keeps the index: it embeds what is waiting
        assert lib.worker.is_owner
        assert lib.model_ready is not None
        lib.model_ready.result()
        assert lib.engine is not None and lib.engine.model_id == DEFAULT_MODEL
