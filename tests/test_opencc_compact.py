"""OpenCC's s2twp converter from merged tables (text/opencc_compact.py): same output, less memory."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import opencc
import pytest
from rust_book_ch4 import CH04_00, CH04_01_START

from desktop_kb.index.segment import HAN_RUN_RE
from desktop_kb.text import fold, opencc_compact

needs_tool = pytest.mark.skipif(opencc_compact._dict_tool() is None,
                                reason="this OpenCC wheel ships no opencc_dict")


def _texts(tmp_path: Path) -> list[str]:
    """Every phrase OpenCC's union holds, each next to the following one (segment boundaries
    where the Taiwan step matches whole segments), the Rust book's start and every 2-5
    character stretch of its Han runs (what regional_words asks the converter)."""
    share, tool = opencc_compact._share_dir(), opencc_compact._dict_tool()
    assert share is not None and tool is not None
    phrases = sorted(opencc_compact._read_entries(tool, share / "STPhrases.ocd2", tmp_path))
    texts = phrases + [a + b for a, b in zip(phrases, phrases[1:], strict=False)]
    book = CH04_00 + CH04_01_START
    texts += book.splitlines()
    for run in HAN_RUN_RE.finditer(book):
        word = run.group()
        texts += [word[i:j] for i in range(len(word)) for j in range(i + 2, min(len(word), i + 5) + 1)]
    return texts + ["線程和內存", "线程和内存，鼠标，打印机", "面向对象的程序设计语言", "预设的哈希算法"]


@needs_tool
def test_the_merged_tables_convert_every_text_as_openccs_own(tmp_path: Path) -> None:
    made = opencc_compact.compact_config("s2twp.json", tmp_path / "cache")
    assert made is not None
    compact, own = opencc.OpenCC(str(made)), opencc.OpenCC("s2twp.json")
    texts = _texts(tmp_path)
    assert len(texts) > 90_000
    differ = [t for t in texts if compact.convert(t) != own.convert(t)]
    assert differ == []
    assert compact.convert("线程和内存") == "執行緒和記憶體"


@needs_tool
def test_the_merged_tables_are_built_once_and_reused(tmp_path: Path) -> None:
    first = opencc_compact.compact_config("s2twp.json", tmp_path)
    assert first is not None
    stamp = first.stat().st_mtime_ns
    assert opencc_compact.compact_config("s2twp.json", tmp_path) == first
    assert first.stat().st_mtime_ns == stamp
    assert [p.name for p in tmp_path.iterdir()] == [first.parent.name]  # no work folder left


def test_without_openccs_dict_tool_its_own_configuration_is_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(opencc_compact, "_dict_tool", lambda: None)
    assert opencc_compact.compact_config("s2twp.json", tmp_path) is None
    assert fold._load_converter("s2twp.json").convert("线程") == "執行緒"
    assert opencc_compact.compact_config("t2s.json", tmp_path) is None  # small already: as shipped


_CHILD = textwrap.dedent("""
    import opencc, platformdirs  # loaded either way: only the converter is measured

    from desktop_kb.text import fold, opencc_compact

    def rss_mb():
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmRSS"):
                    return int(line.split()[1]) / 1024

    before = rss_mb()
    fold.opencc_converter("s2twp.json").convert("线程")
    print(rss_mb() - before)
""")


@needs_tool
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_regional_converter_takes_a_third_of_openccs_memory() -> None:
    # OpenCC's own s2twp.json: 43 MB resident; the merged tables: 12 MB.
    subprocess.run([sys.executable, "-c", "from desktop_kb.text import fold; "
                    "fold.opencc_converter('s2twp.json')"], check=True, timeout=300)  # builds the cache
    out = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, check=True,
                         timeout=300)
    assert float(out.stdout) < 25
