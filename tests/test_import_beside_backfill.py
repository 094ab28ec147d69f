"""A ``desktop-kb import`` beside an app whose embedding model is slow (multilingual-e5-small
embeds ~4 chunks a second on two cores): real processes, a real kill -9.

The app followed another process's import one feed batch at a time and embedded each
batch before writing it, so the import waited for the model (150 files beside an app
embedding with e5: 112 s until ``import`` returned, the files unsearchable by keywords
meanwhile). Keywords come first now; the vectors follow in the background, the status
says "embedding" until they are all there, and a kill -9 midway loses nothing.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_kb.library import Library

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="needs SIGSTOP and SIGKILL")

TIMEOUT = 120  # seconds; only reached when something hangs
TESTS = Path(__file__).parent

# The "app": owns the index, embeds with a model that cannot embed the imported text
# while the file HOLD exists (as slow as a model can be), prints one line when ready.
APP = r"""
import json, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[3])
from test_backfill import HashEngine
from desktop_kb.library import Library

class SlowModel(HashEngine):
    def embed_passages(self, texts):
        while any("zqslow" in t for t in texts) and Path(sys.argv[2]).exists():
            time.sleep(0.05)
        return super().embed_passages(texts)

lib = Library(Path(sys.argv[1]), role="app", load_model=False)
lib.worker.set_engine(lambda: SlowModel()).result()
print(json.dumps({"owner": lib.worker.is_owner}), flush=True)
sys.stdin.read()
"""


def _cli(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), *args],
                          capture_output=True, text=True, encoding="utf-8", timeout=TIMEOUT)


def _status(data_dir: Path) -> dict:  # type: ignore[type-arg]
    done = _cli(data_dir, "index", "status", "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_an_import_beside_an_app_with_a_slow_model_returns_searchable_and_loses_nothing(
        tmp_path: Path) -> None:
    from test_backfill import HashEngine

    data_dir = tmp_path / "library"
    folder = tmp_path / "study"
    folder.mkdir()
    for i in range(40):  # more than one feed batch of passages
        (folder / f"f{i:02d}.md").write_text(
            f"# 文件 {i}\n\n第一节 zqslow{i:02d} ownership\n\n## 借用\n\n第二节 borrowing {i}\n",
            encoding="utf-8")
    with Library(data_dir, load_model=False) as lib:
        lib.add_note("已有的笔记", "所有权 zqbefore")
    hold = tmp_path / "hold"
    hold.touch()
    app = subprocess.Popen([sys.executable, "-c", APP, str(data_dir), str(hold), str(TESTS)],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, encoding="utf-8")
    importer: subprocess.Popen[str] | None = None
    try:
        assert app.stdout is not None and json.loads(app.stdout.readline())["owner"]
        # The app is suspended while the import saves, so it meets the whole import at once
        # (as it does when it comes back from a model batch), not file by file.
        os.kill(app.pid, signal.SIGSTOP)
        importer = subprocess.Popen(
            [sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), "import", str(folder),
             "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
        assert importer.stderr is not None
        assert "Waiting for" in importer.stderr.readline()  # every file is saved
        os.kill(app.pid, signal.SIGCONT)
        out, err = importer.communicate(timeout=TIMEOUT)  # hung here: the app waited for the model
        assert importer.returncode == 0, err
        assert json.loads(out)["added"] == 40
        found = _cli(data_dir, "search", "zqslow17", "--mode", "lexical", "--json")
        assert found.returncode == 0, found.stderr
        assert "zqslow17" in found.stdout
        # Searchable by keywords, not yet by meaning: the status says so instead of "ok".
        status = _status(data_dir)
        assert status["applied_seq"] == status["store_seq"], status
        assert status["state"] == "embedding" and status["missing_vectors"] >= 40, status
        app.kill()  # kill -9 with the model's batch in hand
        app.wait(timeout=TIMEOUT)
    finally:
        for proc in (app, importer):
            if proc is not None and proc.poll() is None:
                os.kill(proc.pid, signal.SIGCONT)
                proc.kill()
                proc.wait()
        for stream in (app.stdin, app.stdout, app.stderr):
            if stream is not None:
                stream.close()
    hold.unlink()
    with Library(data_dir, load_model=False) as lib:
        lib.worker.set_engine(lambda: HashEngine()).result(timeout=TIMEOUT)
        assert lib.drain(TIMEOUT)
        status = lib.index_status()
        assert (status.state, status.missing_vectors) == ("ok", 0), status
        assert lib.verify(repair=False).drift == 0
        assert len(lib.list_documents()) == 40
        hits = {r.source_id for r in lib.search("zqslow05", mode="lexical").results}
        assert hits and lib.search("zqbefore", mode="lexical").results
