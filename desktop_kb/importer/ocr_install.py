"""Installing OCR on demand, like an embedding model: off until the person asks for it.

What gets installed is RapidOCR (``rapidocr-onnxruntime``, Apache-2.0, whose
wheel carries the PP-OCRv4 Chinese/English ONNX models — its sha256 is pinned
here) plus the few libraries it needs that the app does not already have
(OpenCV *headless* — the GUI build would bring its own Qt —, pyclipper,
shapely, Pillow, PyYAML, six, tqdm).  They are unpacked from wheels into
``<data dir>/ocr/lib``, staged in a hidden folder and renamed into place, so an
interrupted install never looks usable.  Wheels come from
``python -m pip download`` (pip's own index, proxy and certificate settings)
or, offline and in the frozen app, from a folder the person downloaded them to.
numpy and onnxruntime are the app's own.
"""

from __future__ import annotations

import errno
import hashlib
import importlib
import importlib.util
import json
import re
import shutil
import subprocess
import sys
import tempfile
import uuid
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

__all__ = ["OCR_REQUIREMENTS", "OcrInstallError", "OcrManager", "OcrStatus"]

ProgressCallback = Callable[[str, int, int], None]  # (stage, done, total); raise to cancel
# Stages: "ocr-download", "ocr-extract".

ENGINE_REQUIREMENT = "rapidocr-onnxruntime==1.4.4"
ENGINE_WHEEL_SHA256 = "971d7d5f223a7a808662229df1ef69893809d8457d834e6373d3854bc1782cbf"
OCR_REQUIREMENTS = (
    ENGINE_REQUIREMENT, "opencv-python-headless", "pyclipper", "shapely", "pillow", "pyyaml",
    "six", "tqdm",
)
_PIP_TIMEOUT_S = 1800
_MANIFEST = "manifest.json"


class OcrInstallError(Exception):
    """An install failed for a reason the person can act on; the message says how."""


#: OCR goes into the library's folder; on a read-only disk (a CD, a read-only share) it cannot.
READ_ONLY_MESSAGE = ("The library's folder cannot be written (a read-only disk, share or CD), so "
                     "text recognition (OCR) was not installed: copy the folder to a disk you can "
                     "write to and install it there.")


@dataclass(frozen=True)
class OcrStatus:
    installed: bool
    detail: str  # where it came from, or why it is not usable


def _report(progress: ProgressCallback | None, stage: str, done: int, total: int) -> None:
    if progress is not None:
        progress(stage, done, total)


def _dist_name(wheel: Path) -> str:
    return re.sub(r"[-_.]+", "-", wheel.name.split("-", 1)[0]).lower()


def _offline_hint() -> str:
    reqs = " ".join(OCR_REQUIREMENTS)
    return ("On a machine with internet access run: python -m pip download --no-deps "
            f"--only-binary=:all: -d ocr-wheels {reqs}  — then: desktop-kb ocr install --from ocr-wheels")


class OcrManager:
    def __init__(self, data_dir: Path) -> None:
        self.root = Path(data_dir) / "ocr"
        self.lib = self.root / "lib"

    # -- state ---------------------------------------------------------------------
    def status(self) -> OcrStatus:
        manifest = self.root / _MANIFEST
        if not manifest.is_file():
            return OcrStatus(False, "not installed")
        try:
            info = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            return OcrStatus(False, "the OCR install is damaged; install it again")
        return OcrStatus(True, str(info.get("source", "")))

    @property
    def installed(self) -> bool:
        return self.status().installed

    def load_engine(self, threads: int = 2) -> object:
        """A ready RapidOcrEngine (seconds: three ONNX models load); raises OcrInstallError."""
        if not self.installed:
            raise OcrInstallError("OCR is not installed (desktop-kb ocr install, or Settings)")
        if self.lib.is_dir() and str(self.lib) not in sys.path:
            sys.path.append(str(self.lib))  # after the app's own packages: its numpy wins
            importlib.invalidate_caches()
        try:
            from desktop_kb.importer.ocr import RapidOcrEngine

            return RapidOcrEngine(threads=threads)
        except Exception as exc:  # an incompatible or damaged install: say so, do not crash
            raise OcrInstallError(f"OCR could not start ({type(exc).__name__}: {exc}); "
                                  "remove it and install it again") from exc

    # -- install / remove ------------------------------------------------------------
    def install(self, progress: ProgressCallback | None = None,
                from_path: Path | None = None) -> OcrStatus:
        """Install from ``from_path`` (a folder of wheels), or download with pip."""
        if from_path is not None:
            wheels = self._wheels_in(Path(from_path))
            return self._install_wheels(wheels, f"wheels from {from_path}", progress)
        if importlib.util.find_spec("rapidocr_onnxruntime") is not None:
            # Already importable (e.g. installed with pip into this environment).
            with self._staging() as staging:
                (staging / _MANIFEST).write_text(json.dumps({"source": "environment"}))
            return self.status()
        with tempfile.TemporaryDirectory(prefix="desktop-kb-ocr-") as tmp:
            wheels = self._download(Path(tmp), progress)
            return self._install_wheels(wheels, "downloaded with pip", progress)

    def remove(self) -> None:
        if self.root.exists():
            trash = self.root.with_name(f".remove-ocr-{uuid.uuid4().hex[:8]}")
            self.root.rename(trash)
            shutil.rmtree(trash, ignore_errors=True)

    # -- helpers ---------------------------------------------------------------------
    def _wheels_in(self, folder: Path) -> list[Path]:
        wheels = sorted(folder.glob("*.whl")) if folder.is_dir() else (
            [folder] if folder.suffix == ".whl" else [])
        names = {_dist_name(w) for w in wheels}
        if "rapidocr-onnxruntime" not in names:
            raise OcrInstallError(f"{folder} holds no rapidocr_onnxruntime wheel. {_offline_hint()}")
        return wheels

    def _download(self, dest: Path, progress: ProgressCallback | None) -> list[Path]:
        if getattr(sys, "frozen", False) or importlib.util.find_spec("pip") is None:
            raise OcrInstallError(f"This copy of Desktop KB cannot download OCR (pip is not "
                                  f"available). {_offline_hint()}")
        for done, requirement in enumerate(OCR_REQUIREMENTS):
            _report(progress, "ocr-download", done, len(OCR_REQUIREMENTS))
            command = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                       "--disable-pip-version-check", "--no-input", "--progress-bar", "off",
                       "-d", str(dest), requirement]
            flags = subprocess.CREATE_NO_WINDOW if sys.platform == "win32" else 0
            try:
                result = subprocess.run(command, capture_output=True, text=True, check=False,
                                        timeout=_PIP_TIMEOUT_S, creationflags=flags)
            except (OSError, subprocess.TimeoutExpired) as exc:
                raise OcrInstallError(f"Could not run pip ({exc}). {_offline_hint()}") from exc
            if result.returncode != 0:
                detail = "\n".join(result.stderr.strip().splitlines()[-3:])
                raise OcrInstallError(f"Could not download {requirement} (offline?). "
                                      f"{_offline_hint()}\n\npip said:\n{detail}")
        _report(progress, "ocr-download", len(OCR_REQUIREMENTS), len(OCR_REQUIREMENTS))
        return self._wheels_in(dest)

    def _install_wheels(self, wheels: list[Path], source: str,
                        progress: ProgressCallback | None) -> OcrStatus:
        engine = next(w for w in wheels if _dist_name(w) == "rapidocr-onnxruntime")
        digest = hashlib.sha256(engine.read_bytes()).hexdigest()
        if digest != ENGINE_WHEEL_SHA256:
            raise OcrInstallError(f"{engine.name} does not have the expected sha256 "
                                  f"({ENGINE_WHEEL_SHA256}); nothing was installed.")
        with self._staging() as staging:
            lib = staging / "lib"
            lib.mkdir()
            for done, wheel in enumerate(wheels):
                _report(progress, "ocr-extract", done, len(wheels))
                try:
                    with zipfile.ZipFile(wheel) as archive:
                        for member in archive.infolist():
                            target = (lib / member.filename).resolve()
                            if not str(target).startswith(str(lib.resolve())):
                                raise OcrInstallError(f"{wheel.name} has an unsafe path: {member.filename}")
                        archive.extractall(lib)
                except zipfile.BadZipFile as exc:
                    raise OcrInstallError(f"{wheel.name} is not a usable wheel: {exc}") from exc
            _report(progress, "ocr-extract", len(wheels), len(wheels))
            (staging / _MANIFEST).write_text(json.dumps(
                {"source": source, "engine": ENGINE_REQUIREMENT, "engine_sha256": digest,
                 "wheels": [w.name for w in wheels]}, indent=2))
        return self.status()

    def _staging(self) -> _Staging:
        return _Staging(self.root)


class _Staging:
    """A hidden folder next to ``root`` that replaces it only when the block succeeds."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.path = root.with_name(f".install-ocr-{uuid.uuid4().hex[:8]}")

    def __enter__(self) -> Path:
        try:
            self.root.parent.mkdir(parents=True, exist_ok=True)
            self.path.mkdir()
        except OSError as exc:  # "[Errno 30] Read-only file system: …/.install-ocr-…" said less
            if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
                raise OcrInstallError(READ_ONLY_MESSAGE) from exc
            raise
        return self.path

    def __exit__(self, exc_type: object, *_exc: object) -> None:
        if exc_type is not None:
            shutil.rmtree(self.path, ignore_errors=True)
            return
        old = self.root.with_name(f".old-ocr-{uuid.uuid4().hex[:8]}")
        if self.root.exists():
            self.root.rename(old)
        self.path.rename(self.root)
        shutil.rmtree(old, ignore_errors=True)
