"""Packaging: the wheel installs into a fresh venv and works there; ``--self-check`` reports.

The wheel test is the one a person's ``pip install`` goes through: build the
wheel from a copy of the sources, install it (and its dependencies, through
pip's own configuration and cache) into a new venv without system site
packages, and run ``desktop-kb --self-check`` from that venv. The bundle is
checked by ``make dist-check`` (packaging/check_bundle.py), not here: building
it belongs to ``make dist``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from desktop_kb import __version__, assets, self_check

ROOT = Path(__file__).resolve().parents[1]
# conftest points XDG_* at temp dirs per test; pip keeps the person's cache and config.
PIP_ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
SOURCES = ("pyproject.toml", "README.md", "MANIFEST.in", "desktop_kb", "packaging")
WHEEL_ENV = "DESKTOP_KB_TEST_WHEEL"  # a wheel built already (make ci), instead of building one


def _run(cmd: list[str], *, env: dict[str, str], cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True,
                            timeout=timeout, check=False)
    assert result.returncode == 0, (
        f"{' '.join(cmd)} exited {result.returncode}\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return result


def test_resources_are_inside_the_package() -> None:
    assert assets.RESOURCES.parent == Path(self_check.__file__).resolve().parent
    assert assets.missing() == []


def test_self_check_reports_a_failing_part(monkeypatch, capsys) -> None:
    def broken() -> str:
        raise RuntimeError("libfoo.so missing")

    monkeypatch.setattr(self_check, "CHECKS", [("resources", self_check.check_resources),
                                               ("broken", broken)])
    assert self_check.run() == 1
    out, err = capsys.readouterr()
    assert "ok   resources" in out and "FAIL broken        RuntimeError: libfoo.so missing" in out
    assert "1 of 2 checks passed" in out
    assert "self-check failed (broken)" in err


def test_self_check_from_the_source_tree(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = _run([sys.executable, "-m", "desktop_kb", "--self-check", "--json"],
                  env=env, cwd=tmp_path, timeout=120)
    report = json.loads(result.stdout)
    assert report["ok"] and report["version"] == __version__
    assert [c["name"] for c in report["checks"] if not c["ok"]] == []


def _build_wheel(tmp_path: Path) -> Path:
    # Build from a copy: pip builds in-tree, and other checkouts' builds must not collide.
    src = tmp_path / "src"
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
        else:
            src.mkdir(exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    wheels = tmp_path / "wheels"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(src)],
         env=PIP_ENV, cwd=tmp_path, timeout=600)
    (wheel,) = wheels.glob("desktop_kb-*.whl")
    return wheel


@pytest.mark.slow
def test_wheel_installs_into_a_fresh_venv_and_passes_its_self_check(tmp_path: Path) -> None:
    # `make ci` has just built the release wheel (`make dist`: python -m build, from the
    # sdist) and names it here, so it is not built twice; on its own the test builds one.
    given = os.environ.get(WHEEL_ENV)
    wheel = Path(given).resolve() if given else _build_wheel(tmp_path)
    assert wheel.name.startswith(f"desktop_kb-{__version__}-") and wheel.is_file(), wheel
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    for needed in ("desktop_kb/resources/style.qss", "desktop_kb/resources/icons/app.svg",
                   "desktop_kb/resources/translations/desktop_kb_zh_CN.qm"):
        assert needed in names

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], env=PIP_ENV, cwd=tmp_path, timeout=300)
    assert "include-system-site-packages = false" in (venv / "pyvenv.cfg").read_text()
    bin_dir = venv / ("Scripts" if sys.platform == "win32" else "bin")
    _run([str(bin_dir / "python"), "-m", "pip", "install", "-q", str(wheel)],
         env=PIP_ENV, cwd=tmp_path, timeout=900)

    # Nothing from this checkout on the path: cwd is elsewhere and PYTHONPATH is unset.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    exe = str(bin_dir / "desktop-kb")
    version = _run([exe, "--version"], env=env, cwd=tmp_path, timeout=60)
    assert version.stdout.strip() == f"desktop-kb {__version__}"
    result = _run([exe, "--self-check", "--json"], env=env, cwd=tmp_path, timeout=300)
    report = json.loads(result.stdout)
    assert report["ok"], report
    assert report["install"] == "installed"
    resources = next(c for c in report["checks"] if c["name"] == "resources")
    assert str(venv) in resources["detail"]  # the installed copy's resources, not this checkout's


def test_desktop_entry_and_icons_are_complete() -> None:
    import configparser

    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # keys are case-sensitive
    entry.read(ROOT / "packaging" / "desktop-kb.desktop", encoding="utf-8")
    section = entry["Desktop Entry"]
    assert (section["Type"], section["Exec"], section["Icon"]) == ("Application", "desktop-kb", "desktop-kb")
    for size in (16, 24, 32, 48, 64, 128, 256, 512):
        png = ROOT / "packaging" / "icons" / "hicolor" / f"{size}x{size}" / "apps" / "desktop-kb.png"
        header = png.read_bytes()[:24]
        assert header[:8] == b"\x89PNG\r\n\x1a\n"
        assert int.from_bytes(header[16:20], "big") == int.from_bytes(header[20:24], "big") == size
