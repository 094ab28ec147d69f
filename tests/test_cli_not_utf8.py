"""Text on the command line that is not UTF-8 (a GBK file's words passed in with ``$(cat …)``,
a Latin-1 terminal) is refused in one line naming the argument and the bytes, not a raw
"'utf-8' codec can't encode character '\\udce9' … surrogates not allowed" from deep inside;
a folder named in another encoding is skipped with its reason, the rest of the import goes on.
Real processes, with the arguments given as bytes as a shell passes them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

TIMEOUT = 120


def cli(data_dir: Path, *args: str | bytes) -> subprocess.CompletedProcess[str]:
    argv = [os.fsencode(a) for a in (sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), *args)]
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONUTF8": "1"}
    return subprocess.run(argv, capture_output=True, text=True, encoding="utf-8", errors="replace",
                          timeout=TIMEOUT, env=env)


def test_a_gbk_title_is_refused_by_name_with_what_it_reads_as(data_dir: Path) -> None:
    out = cli(data_dir, "note", "add", "--title", "你好笔记".encode("gbk"), "--body", "正文 zqnu8a")
    assert out.returncode == 2, out
    last = out.stderr.strip().splitlines()[-1]
    assert "argument --title: not UTF-8 text" in last
    assert "C4 E3" in last and "你好笔记" in last  # the bytes, and what they read as in GB18030
    assert "codec" not in out.stderr and "surrogates" not in out.stderr
    listed = cli(data_dir, "note", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    assert json.loads(listed.stdout)["notes"] == []  # nothing half-made


def test_latin1_text_in_a_body_a_query_or_a_setting_is_refused_in_one_line(data_dir: Path) -> None:
    for args in (("note", "add", "--title", "ok", "--body", "caf\u00e9".encode("latin-1")),
                 ("search", "caf\u00e9".encode("latin-1")),
                 ("settings", "set", "qa.sensitive", "r\u00e9dact".encode("latin-1"))):
        out = cli(data_dir, *args)
        assert out.returncode == 2, (args, out)
        assert "not UTF-8 text" in out.stderr and "E9" in out.stderr, out.stderr
        assert "codec" not in out.stderr and "Traceback" not in out.stderr


def test_a_folder_named_in_another_encoding_is_skipped_and_the_rest_imported(
    data_dir: Path, tmp_path: Path,
) -> None:
    bad = os.fsdecode(os.fsencode(tmp_path) + b"/caf\xe9")
    os.mkdir(bad)
    Path(bad, "inside.md").write_text("# 里面\n\nzqnu8b 内容\n", encoding="utf-8")
    good = tmp_path / "good"
    good.mkdir()
    (good / "fine.md").write_text("# 好\n\nzqnu8c 内容\n", encoding="utf-8")
    out = cli(data_dir, "import", bad, str(good), "--json")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["added"] == 1
    assert [s["reason"] for s in summary["skipped"]] == ["the name is not valid UTF-8 text (rename it to import it)"]
    found = cli(data_dir, "search", "zqnu8c", "--json")
    assert found.returncode == 0 and "fine.md" in found.stdout
