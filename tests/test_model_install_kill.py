"""'desktop-kb models install' killed with SIGKILL half way: nothing half-installed is used, the
86 MB staging folder does not stay, and a model moved aside for its new version comes back."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from desktop_kb.embed.manager import ModelManager

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
TIMEOUT = 120

# Stops an install right after its staging folder is made, as a kill at that moment would.
CHILD = """
import os, sys, signal
from pathlib import Path
from desktop_kb.embed import manager

made = manager.tempfile.mkdtemp
def mkdtemp(*args, **kwargs):
    folder = made(*args, **kwargs)
    Path(folder, "model.onnx").write_bytes(b"half" * 1000)
    os.kill(os.getpid(), signal.SIGKILL)
manager.tempfile.mkdtemp = mkdtemp
manager.ModelManager(Path(sys.argv[1])).install_from(Path(sys.argv[2]))
"""


def _model_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "model-src"
    folder.mkdir()
    (folder / "model.onnx").write_bytes(b"not really a model")
    (folder / "tokenizer.json").write_text("{}")
    (folder / "manifest.json").write_text('{"id": "tiny", "dim": 4, "kind": "transformer"}')
    return folder


def test_a_staging_folder_a_killed_install_left_is_removed(tmp_path: Path) -> None:
    data_dir = tmp_path / "library"
    done = subprocess.run([sys.executable, "-c", CHILD, str(data_dir), str(_model_folder(tmp_path))],
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == -signal.SIGKILL, done.stderr
    models = data_dir / "models"
    assert [p.name for p in models.iterdir() if p.name.startswith(".install-")]  # what the kill left
    manager = ModelManager(data_dir)
    assert manager.list_installed() == []
    assert sorted(os.listdir(models)) == []  # gone at once, not an hour later at the next install


def test_a_model_moved_aside_by_a_killed_install_is_put_back(tmp_path: Path) -> None:
    data_dir = tmp_path / "library"
    manager = ModelManager(data_dir)
    manager.models_dir.mkdir(parents=True)
    installed = manager.models_dir / "tiny"
    shutil.copytree(_model_folder(tmp_path), installed)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, timeout=TIMEOUT)
    # Killed between the two renames of the swap: the old version aside, the new not in place.
    aside = manager.models_dir / f".old-tiny-p{int(dead.stdout)}-0a1b2c3d"
    os.replace(installed, aside)
    assert not manager.is_installed("tiny")
    manager.list_installed()
    assert manager.is_installed("tiny") and not aside.exists()
