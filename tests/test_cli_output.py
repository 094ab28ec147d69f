"""Terminal safety: what the CLI prints from the library, a file or a provider is clean.

Titles, imported text, file names and streamed answers carry colour codes, OSC 8
hyperlinks that lie about their target, window-title writes, bells, carriage-return
overwrites and bidi overrides. Text output must show their visible text and none of
the controls; JSON output must stay valid, keep the exact value, and still hold no
raw control character a terminal would act on.
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import tty
from pathlib import Path

from hypothesis import example, given, settings
from hypothesis import strategies as st

from desktop_kb.cli.output import StreamCleaner, clean, to_json
from tests.qa_server import ChatServer, Reply

# Anything a terminal acts on: C0 but \t \n, DEL, C1, bidi embeddings/overrides/isolates.
UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

EVIL_TITLE = ("Deploy \x1b[31mred\x1b[0m \x1b]8;;https://evil.example/\x1b\\docs\x1b]8;;\x1b\\ "
              "\x07bell \x1b]0;pwned\x07 ok\rFAKE \u202eabc")
EVIL_BODY = "GitLab zqxsetup \x1b[2J\x1b[Hcleared\x08\x08 \x9b31mc1 \x1b]52;c;ZXZpbA==\x07clip end"


def _run(data_dir: Path, *args: str, ok: bool = True,
         env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), *args],
                          capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring",
                                   **(env or {})))
    assert "Traceback" not in proc.stderr, proc.stderr
    if ok:
        assert proc.returncode == 0, proc.stderr
    return proc


def _assert_clean(text: str) -> None:
    assert UNSAFE.search(text) is None, repr(text)


# ----- the cleaning rules themselves ------------------------------------------------------

def test_clean_keeps_visible_text_and_drops_every_control() -> None:
    assert clean(EVIL_TITLE) == "Deploy red docs bell  ok\nFAKE abc"
    assert clean("a\tb\nc\r\nd") == "a\tb\nc\nd"  # tab, newline and CRLF line ends survive
    assert clean("用 Docker 安装 GitLab") == "用 Docker 安装 GitLab"
    # An unterminated OSC swallows the rest, as the terminal would have.
    assert clean("safe \x1b]0;never ends") == "safe "
    # A lone ESC, a malformed CSI and C1 introducers leave no debris.
    assert clean("x\x1b") == "x"
    assert clean("x\x1b[中文") == "x中文"
    assert clean("x\x9d8;;http://e\x9cy") == "xy"
    assert clean("\x00nul\x7fdel\x85nel") == "nuldelnel"


def test_json_is_exact_valid_and_terminal_safe() -> None:
    payload = {"title": EVIL_TITLE, "body": EVIL_BODY, "sep": "a\u2028b", "n": [1, None, True]}
    text = to_json(payload)
    _assert_clean(text)
    assert "\n" not in text and json.loads(text) == payload


@settings(max_examples=300, deadline=None)
# A CR inside an unterminated string sequence is not a line break waiting for its LF.
@example(chars=["\x9d", "\r", "\x1b", "\x1b"], cuts=[])
@given(st.lists(st.sampled_from(["\x1b", "[", "]", "3", "1", "m", "8", ";", "\\", "\x07", "\r", "\n",
                                 "\x9b", "\x9c", "\x9d", "P", "a", "中", " ", "\u202e"]),
                max_size=40),
       st.lists(st.integers(min_value=0, max_value=40), max_size=6))
def test_a_stream_cut_anywhere_prints_what_the_whole_text_would(chars: list[str], cuts: list[int]) -> None:
    text = "".join(chars)
    bounds = sorted({0, len(text), *(c for c in cuts if c <= len(text))})
    cleaner = StreamCleaner()
    out = "".join(cleaner.feed(text[a:b]) for a, b in zip(bounds, bounds[1:], strict=False))
    out += cleaner.flush()
    assert out == clean(text)
    _assert_clean(out)


def test_a_stream_never_holds_back_without_bound() -> None:
    # A sequence that never ends is dropped once it is too long to wait for; what follows
    # is shown (its introducer never reached the terminal, so nothing is swallowed).
    cleaner = StreamCleaner()
    assert cleaner.feed("start \x1b]0;" + "x" * 10_000) == "start "
    assert cleaner.feed("more\x1b[31") == "more" and cleaner.flush() == ""


# ----- the real command line ------------------------------------------------------------

def test_note_titles_and_bodies_print_clean(data_dir: Path) -> None:
    note_id = json.loads(_run(data_dir, "note", "add", "--title", EVIL_TITLE, "--body", EVIL_BODY,
                              "--json").stdout)["id"]
    listing = _run(data_dir, "note", "list").stdout
    _assert_clean(listing)
    assert "Deploy red docs bell" in listing and "FAKE" in listing  # the CR hid nothing
    shown = _run(data_dir, "note", "show", str(note_id)).stdout
    _assert_clean(shown)
    assert "cleared" in shown and "clip end" in shown and "ZXZpbA" not in shown
    found = _run(data_dir, "search", "zqxsetup").stdout
    _assert_clean(found)
    assert "Deploy red docs" in found
    # JSON: valid, exact, no raw control characters on the terminal.
    raw = _run(data_dir, "note", "show", str(note_id), "--json").stdout
    _assert_clean(raw)
    note = json.loads(raw)
    assert (note["title"], note["body"]) == (EVIL_TITLE, EVIL_BODY)


def test_imported_text_and_file_names_print_clean(data_dir: Path, tmp_path: Path) -> None:
    src = tmp_path / "material"
    src.mkdir()
    (src / "guide\x1b]0;pwned\x07.md").write_text(
        "# Guide \x1b[1mbold\x1b[0m\n\nzqxmanual says \x1b]8;;https://evil.example/\x07here\x1b]8;;\x07 "
        "\rOVERWRITE.\n", encoding="utf-8")
    (src / "broken\x1b[2J.md").write_bytes(b"\xff\xfe\x00bad utf-8 \x80\x81")
    summary = _run(data_dir, "import", str(src))
    _assert_clean(summary.stdout + summary.stderr)
    documents = _run(data_dir, "document", "list").stdout
    _assert_clean(documents)
    assert "guide" in documents
    found = _run(data_dir, "search", "zqxmanual").stdout
    _assert_clean(found)
    assert "zqxmanual" in found and "here" in found
    raw = _run(data_dir, "document", "list", "--json").stdout
    _assert_clean(raw)
    assert any("\x1b" in d["path"] for d in json.loads(raw)["documents"])  # exact in JSON


def test_error_lines_print_clean(data_dir: Path) -> None:
    proc = _run(data_dir, "note", "add", "--title", "x", "--body-file",
                "/nonexistent/\x1b]0;pwned\x07\x1b[2J.md", ok=False)
    assert proc.returncode == 1 and proc.stderr.count("\n") == 1
    _assert_clean(proc.stderr)
    assert proc.stderr.startswith("desktop-kb: Cannot read /nonexistent/")


def _run_on_terminal(data_dir: Path, *args: str, env: dict[str, str]) -> tuple[int, str]:
    """Run the CLI with stdout on a pseudo-terminal (so answers stream) and read what it wrote."""
    master, slave = pty.openpty()
    tty.setraw(slave)  # no output processing: we see the program's own bytes
    proc = subprocess.Popen([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), *args],
                            stdout=slave, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            env=dict(os.environ, **env))
    os.close(slave)
    chunks: list[bytes] = []
    try:
        while True:
            ready, _, _ = select.select([master], [], [], 120)
            assert ready, "the CLI wrote nothing for 120 s"
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(master)
    stderr = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
    proc.stderr.close() if proc.stderr else None
    code = proc.wait(timeout=120)
    assert "Traceback" not in stderr, stderr
    return code, b"".join(chunks).decode("utf-8")


def test_a_streamed_answer_prints_clean_even_when_sequences_are_split(data_dir: Path) -> None:
    _run(data_dir, "note", "add", "--title", "GitLab", "--body", "用 Docker 安装 GitLab。先写 docker-compose.yml。")
    _run(data_dir, "settings", "set", "qa.cloud_enabled", "true")
    parts = ["先写 \x1b[3", "1mcompose\x1b[0m 文件 ", "\x1b]8;;https://evil.example/\x1b",
             "\\点这里\x1b]8;;\x1b\\ \x07", "\x1b]0;pwn", "ed\x07 好的\r", "\nOK\rHIDDEN[1][7]。"]
    with ChatServer() as server:
        _run(data_dir, "provider", "set", "--base-url", server.base_url, "--model", "m1")
        server.replies.append(Reply.stream(*parts))
        code, shown = _run_on_terminal(data_dir, "ask", "怎么安装 GitLab", "--yes",
                                       env={"DESKTOP_KB_API_KEY": "k-env"})
        assert len(server.requests) == 1
    assert code == 0
    _assert_clean(shown)
    # The stream itself, piece by piece, came out as the whole text would; it still has the
    # invalid marker [7] that the final answer (printed after it) has lost.
    streamed = clean("".join(parts))
    assert "[7]" in streamed and streamed in shown
    assert "点这里" in shown and "HIDDEN" in shown and "evil.example" not in shown
    # JSON of the same kind of answer keeps the exact text.
    with ChatServer() as server:
        _run(data_dir, "provider", "set", "--base-url", server.base_url, "--model", "m1")
        server.replies.append(Reply.stream(*parts))
        raw = _run(data_dir, "ask", "怎么安装 GitLab", "--yes", "--json",
                   env={"DESKTOP_KB_API_KEY": "k-env"}).stdout
    _assert_clean(raw)
    assert "\x1b]8;;https://evil.example/" in json.loads(raw)["answer"]


def test_a_carriage_return_before_a_removed_sequence_waits_for_its_line_feed() -> None:
    """Found by the property test above: CR, then escape sequences, then the LF in the next piece."""
    cleaner = StreamCleaner()
    out = cleaner.feed("\x1b\x1b\r\x1b\x1b") + cleaner.feed("\n") + cleaner.flush()
    assert out == clean("\x1b\x1b\r\x1b\x1b\n") == "\n"


def test_a_reader_that_stops_early_gets_no_error_line(data_dir: Path) -> None:
    """``desktop-kb note list | head`` ended with "desktop-kb: [Errno 32] Broken pipe"."""
    from desktop_kb.library import Library

    with Library(data_dir, load_model=False) as lib:
        for i in range(1500):
            lib.add_note(f"很长的标题 a long title number {i:05d} " * 2, "x")
    proc = subprocess.Popen([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir),
                             "note", "list"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline()  # head -1
    proc.stdout.close()
    err = proc.stderr.read().decode("utf-8")
    proc.stderr.close()
    assert proc.wait(timeout=120) != 0
    assert err == ""


def test_tabs_and_line_breaks_in_titles_and_file_names_keep_each_listing_row_whole(
    data_dir: Path, tmp_path: Path,
) -> None:
    """A title typed with a tab or a line break, or a file named with them, split 'note list'
    and 'document list' rows in two and shifted their columns: a script reading them took the
    rest of a title for the next row. Text output writes them as \\t \\n \\r; JSON keeps them."""
    title = "部署\t笔记\n第二行\r末尾"
    note_id = json.loads(_run(data_dir, "note", "add", "--title", title, "--body", "zqcols 用 Docker",
                              "--json").stdout)["id"]
    src = tmp_path / "tab\tfolder"
    src.mkdir()
    named = src / "第一\t章\n续.md"
    named.write_text("# 标题\n\nzqcols 在文件里\n", encoding="utf-8")
    (src / "bad\nname.md").write_bytes(b"\xff\xfe\x00\xd8 broken")
    summary = _run(data_dir, "import", str(src), ok=False)
    assert all(line.startswith(("added", "by format", "failed", "skipped", "note"))
               for line in summary.stdout.splitlines()), summary.stdout
    escaped = r"部署\t笔记\n第二行\r末尾"

    rows = _run(data_dir, "note", "list").stdout.splitlines()
    assert [row.split("\t") for row in rows] == [[str(note_id), escaped]]
    rows = _run(data_dir, "document", "list").stdout.splitlines()
    assert len(rows) == 1 and rows[0].split("\t")[2] == str(named).replace("\t", r"\t").replace("\n", r"\n")
    assert json.loads(_run(data_dir, "document", "list", "--json").stdout)["documents"][0]["path"] == str(named)
    assert json.loads(_run(data_dir, "note", "list", "--json").stdout)["notes"][0]["title"] == title
    assert _run(data_dir, "note", "show", str(note_id)).stdout.startswith(f"# {escaped}\n\nzqcols")

    found = _run(data_dir, "search", "zqcols").stdout.splitlines()
    assert len(found) == 4 and f". [note {note_id}] {escaped}" in "\n".join(found), found  # 2 hits, 2 lines each
    asked = _run(data_dir, "ask", "zqcols").stdout.splitlines()
    assert any(line.startswith("[") and escaped in line for line in asked), asked
    assert len([line for line in asked if line.startswith("[")]) == 2 and len(asked) == 4, asked
