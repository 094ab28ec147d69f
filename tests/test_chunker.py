"""Chunker: exact offsets, heading paths, sentence-preferring splits."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop_kb.index.chunker import MARKUP_GLUE_FACTOR, Chunk, chunk_markdown, chunk_plain
from desktop_kb.text.markup_only import is_markup_only

MD = """Intro line before any heading.

# Install

Get the package.

## Docker
```bash
# this is a shell comment, not a heading
docker compose up
```
用 Docker 安装 GitLab。然后配置邮件。

### Compose ###
Edit docker-compose.yml.

# Usage
Run it.
"""


def assert_valid(source: str, chunks: list[Chunk], max_chars: int) -> None:
    covered = bytearray(len(source))
    prev_end = 0
    for i, c in enumerate(chunks):
        assert c.ord == i
        assert source[c.start : c.end] == c.text
        assert prev_end <= c.start < c.end
        # Over the cap only by taking in markup-only neighbours (text.markup_only).
        assert len(c.text) <= max_chars or (
            len(c.text) <= MARKUP_GLUE_FACTOR * max_chars
            and any(is_markup_only(line) for line in c.text.split("\n")))
        assert c.text.strip()
        assert c.text == c.text.strip()  # trimmed by offsets
        covered[c.start : c.end] = b"\x01" * (c.end - c.start)
        prev_end = c.end
    for i, ch in enumerate(source):
        if not ch.isspace():
            assert covered[i], (i, ch)


def test_empty_and_whitespace_only() -> None:
    assert chunk_markdown("") == []
    assert chunk_markdown(" \n\r\n\t \u3000") == []
    assert chunk_plain("   ") == []


def test_heading_paths_and_fences() -> None:
    chunks = chunk_markdown(MD)
    assert_valid(MD, chunks, 800)
    paths = [c.heading_path for c in chunks]
    assert paths == ["", "Install", "Install > Docker", "Install > Docker > Compose", "Usage"]
    docker = chunks[2]
    assert "# this is a shell comment" in docker.text
    assert docker.text.startswith("## Docker")
    assert chunks[-1].text == "# Usage\nRun it."


def test_heading_levels_pop_correctly() -> None:
    src = "# A\n## B\n### C\nx\n## D\ny\n# E\nz"
    chunks = chunk_markdown(src)
    assert [c.heading_path for c in chunks] == ["A > B > C", "A > D", "E"]
    # Bare headings are context for the section below, never chunks of their own.
    assert chunks[0].text == "# A\n## B\n### C\nx"


def test_heading_only_sections_fold_into_neighbours() -> None:
    src = "intro\n\n# Part\n\n## One\ntext one\n\n## Two\n\n\n## Three\ntext three\n# End\n"
    chunks = chunk_markdown(src)
    assert [(c.heading_path, c.text) for c in chunks] == [
        ("", "intro"),
        ("Part > One", "# Part\n\n## One\ntext one"),
        ("Part > Three", "## Two\n\n\n## Three\ntext three\n# End"),
    ]
    assert [c.text for c in chunk_markdown("# Only\n## Headings\n")] == ["# Only\n## Headings"]


def test_hashtag_is_not_a_heading_and_unclosed_fence_runs_to_end() -> None:
    src = "#tag not heading\n~~~\n# inside\n"
    chunks = chunk_markdown(src)
    assert len(chunks) == 1 and chunks[0].heading_path == ""


def test_splits_prefer_paragraphs_then_sentences() -> None:
    para1 = "First sentence here. " * 10  # ~210 chars
    para2 = "这是第二段的一个句子。" * 30  # 330 chars, CJK enders need no space
    src = f"{para1.strip()}\n\n{para2}"
    chunks = chunk_plain(src, max_chars=300)
    assert_valid(src, chunks, 300)
    assert chunks[0].text == para1.strip()  # paragraph break wins
    for c in chunks[1:]:
        assert c.text.endswith("。") or c.end == len(src.rstrip())


def test_never_cuts_mid_sentence_when_avoidable() -> None:
    sentences = [f"Sentence number {i} talks about topic {i}." for i in range(60)]
    src = " ".join(sentences)
    chunks = chunk_plain(src, max_chars=200)
    assert_valid(src, chunks, 200)
    for c in chunks:
        assert c.text.endswith(".")
        assert c.text.startswith("Sentence")


def test_long_sentence_is_cut_at_whitespace_then_hard() -> None:
    words = " ".join(["word"] * 100)  # one 499-char sentence
    chunks = chunk_plain(words, max_chars=50)
    assert_valid(words, chunks, 50)
    assert all(c.text.split() == ["word"] * len(c.text.split()) for c in chunks)
    cjk = "长" * 130
    chunks = chunk_plain(cjk, max_chars=50)
    assert [len(c.text) for c in chunks] == [50, 50, 30]


def test_decimal_point_is_not_a_sentence_end() -> None:
    src = "Pi is 3.14159 and e is 2.71828 roughly. " * 3
    for c in chunk_plain(src, max_chars=45):
        assert c.text.endswith("roughly.")


def test_plain_heading_path_passes_through() -> None:
    chunks = chunk_plain("a\n\nb", heading_path="Doc > Part")
    assert [c.heading_path for c in chunks] == ["Doc > Part"]


def test_crlf_source_offsets() -> None:
    src = "# T\r\n\r\nline one.\r\nline two.\r\n"
    chunks = chunk_markdown(src, max_chars=12)
    assert_valid(src, chunks, 12)
    assert chunks[0].heading_path == "T"


def test_bad_max_chars() -> None:
    with pytest.raises(ValueError):
        chunk_plain("x", max_chars=0)


_PIECES = st.one_of(
    st.text(max_size=30),
    st.sampled_from(
        [
            "\r\n",
            "\n\n",
            "\x00",
            "。",
            "！",
            "？",
            ". ",
            "! ",
            "# ",
            "## H\n",
            "\n# T\n",
            "```\n",
            "~~~",
            "😀",
            "👩‍👩‍👧",
            "中文句子",
            "e\u0301",
            " ",
            "\t",
            "\u3000",
            "word ",
            "docker-compose.yml",
        ]
    ),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join), st.integers(min_value=1, max_value=120))
def test_chunk_invariants_property(source: str, max_chars: int) -> None:
    assert_valid(source, chunk_markdown(source, max_chars), max_chars)
    assert_valid(source, chunk_plain(source, max_chars), max_chars)


@pytest.mark.slow
def test_ten_megabyte_note_completes() -> None:
    block = (
        "# 第一章 Install\n\n用 Docker 安装 GitLab。配置 docker-compose.yml 文件！"
        "Then restart the service. It should work?\n\n"
        "```\n# code\nx = 1\n```\n\n## Details\n" + "很长的段落，没有标点" * 30 + "\n\n"
    )
    src = block * (10_000_000 // len(block) + 1)
    chunks = chunk_markdown(src)
    assert chunks and chunks[-1].end <= len(src)
    assert all(len(c.text) <= 800 for c in chunks)
    assert chunks[5].text == src[chunks[5].start : chunks[5].end]


def test_ideographic_space_before_a_fence_makes_the_line_text() -> None:
    # Found by the property test: the cutter trims "\u3000" off the piece, but a fence
    # line may be indented only by spaces and tabs, so this line is text, not glue.
    source = "0\n\u3000```"
    assert_valid(source, chunk_markdown(source, 3), 3)
