"""Per-format splitting: exact offsets, headings, fallbacks on malformed input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from desktop_kb.importer.formats import (
    DEFAULT_FORMATS,
    MAX_FRAGMENT_CHARS,
    SplitResult,
    canonical_format,
    format_of,
    split_document,
)
from desktop_kb.text.markup_only import is_markup_only

FORMATS = ("md", "txt", "yaml", "json", "py")


def check_invariants(result: SplitResult) -> None:
    prev_end = 0
    for i, frag in enumerate(result.fragments):
        assert frag.ord == i
        assert frag.text == result.doc_text[frag.start:frag.end]
        assert frag.text.strip(), "whitespace-only fragment"
        assert prev_end <= frag.start < frag.end, "fragments overlap or are out of order"
        # Over the cap only by keeping a markup-only tail with it (text.markup_only).
        assert len(frag.text) <= MAX_FRAGMENT_CHARS or (
            len(frag.text) <= 2 * MAX_FRAGMENT_CHARS
            and any(is_markup_only(line) for line in frag.text.split("\n")))
        prev_end = frag.end
    assert "\r" not in result.doc_text
    assert not result.doc_text.startswith("\ufeff")


def uncovered(result: SplitResult) -> str:
    """Non-whitespace text of doc_text that no fragment contains."""
    out, pos = [], 0
    for frag in result.fragments:
        out.append(result.doc_text[pos:frag.start])
        pos = frag.end
    out.append(result.doc_text[pos:])
    return "".join(out).strip()


def paths(result: SplitResult) -> list[str]:
    return [f.heading_path for f in result.fragments]


# --- format names -----------------------------------------------------------


def test_format_of_is_canonical_and_case_insensitive() -> None:
    assert format_of(Path("a.MD")) == "md"
    assert format_of(Path("a.markdown")) == "md"
    assert format_of(Path("a.yml")) == "yaml"
    assert format_of(Path("dir.v2/a.Json")) == "json"
    assert format_of(Path("a.py")) == "py"
    assert format_of(Path("a.txt")) == "txt"
    assert format_of(Path("a.pdf")) == "pdf"
    assert format_of(Path("Makefile")) == "makefile"
    assert format_of(Path("a.pptx")) is None  # known, not supported: files.py names it
    assert format_of(Path("noextension")) is None
    assert set(FORMATS) <= {canonical_format(f) for f in DEFAULT_FORMATS}
    with pytest.raises(ValueError):
        canonical_format("pptx")


@pytest.mark.parametrize("fmt", [*FORMATS, "markdown", "yml"])
@pytest.mark.parametrize("text", ["", "   \n\t\n", "\ufeff", "\r\n\r\n"])
def test_empty_document_has_no_fragments(fmt: str, text: str) -> None:
    result = split_document(text, fmt, "empty")
    assert result.fragments == []
    assert result.title == "empty"


# --- Markdown ---------------------------------------------------------------

MD = """Intro before any heading.

# Guide

Some text.

## 安装 Docker

```bash
# not a heading
echo hi
```

~~~
## still code
~~~

### Step 1 ###

Do it.

## Second

Text.

# Appendix
Tail.
"""


def test_markdown_sections_and_heading_paths() -> None:
    result = split_document(MD, "md", "guide.md")
    check_invariants(result)
    assert result.title == "Guide"
    assert paths(result) == [
        "", "Guide", "Guide > 安装 Docker", "Guide > 安装 Docker > Step 1",
        "Guide > Second", "Appendix",
    ]
    assert result.fragments[0].text == "Intro before any heading."
    code = result.fragments[2].text
    assert "# not a heading" in code and "## still code" in code
    assert uncovered(result) == ""


def test_markdown_title_falls_back_to_first_heading_then_stem_and_ignores_hashtags() -> None:
    result = split_document("#tag is not a heading\n\n## Sub\nx", "markdown", "my notes.md")
    check_invariants(result)
    assert result.title == "Sub"  # a chapter that starts at ## is named by it, not its file
    assert paths(result) == ["", "Sub"]
    result = split_document("#tag is not a heading\n\nbody", "markdown", "my notes.md")
    assert result.title == "my notes"


def test_markdown_bare_headings_are_context_not_fragments() -> None:
    text = "# 第一章 所有权\n\n## 什么是所有权\n\n所有权是 Rust 的核心。\n\n## 总结\n\n### 小结\n\n本章完。\n\n## 附录\n"
    result = split_document(text, "md", "ch04.md")
    check_invariants(result)
    assert uncovered(result) == ""
    for frag in result.fragments:
        body = [line for line in frag.text.splitlines() if line.strip() and not line.startswith("#")]
        assert body, f"heading-only fragment: {frag.text!r}"
    assert paths(result) == ["第一章 所有权 > 什么是所有权", "第一章 所有权 > 总结 > 小结"]
    assert result.fragments[0].text.startswith("# 第一章 所有权\n\n## 什么是所有权")
    assert result.fragments[-1].text.endswith("## 附录")


def test_markdown_front_matter_title_and_first_fragment() -> None:
    text = "---\ntitle: \"学习笔记\"  \ntags: [a]\n---\n# Heading\nbody\n"
    result = split_document(text, "md", "x.md")
    check_invariants(result)
    assert result.title == "学习笔记"
    assert result.fragments[0].text.startswith("---\ntitle:")
    assert result.fragments[0].heading_path == ""
    assert result.fragments[1].heading_path == "Heading"


def test_markdown_unclosed_fence_swallows_rest() -> None:
    result = split_document("# A\n```\n# B\n", "md", "x")
    check_invariants(result)
    assert paths(result) == ["A"]


def test_crlf_and_bom_are_normalised() -> None:
    result = split_document("\ufeff# T\r\nline\r\n\r\n## U\rmore\r\n", "md", "x")
    check_invariants(result)
    assert result.doc_text == "# T\nline\n\n## U\nmore\n"
    assert [f.text for f in result.fragments] == ["# T\nline", "## U\nmore"]


def test_huge_markdown_section_is_split_into_parts() -> None:
    body = "\n".join(f"Line {i} of a very long section." for i in range(400))
    result = split_document(f"# Big\n{body}\n", "md", "x")
    check_invariants(result)
    assert len(result.fragments) > 1
    assert paths(result)[:2] == ["Big (part 1)", "Big (part 2)"]
    assert any("split into parts" in n for n in result.notes)
    assert uncovered(result) == ""


# --- YAML -------------------------------------------------------------------

YAML = """# Study plan
title: Linux 基础
topics:
  - shell
  - files
# about the next key
- stray list item at column 0
notes: |
  multi
  line
"quoted key": 1
url: http://example.com/a:b
"""


def test_yaml_top_level_keys() -> None:
    result = split_document(YAML, "yaml", "plan.yaml")
    check_invariants(result)
    assert result.title == "Linux 基础"
    assert paths(result) == ["", "title", "topics", "notes", "quoted key", "url"]
    assert result.fragments[0].text == "# Study plan"
    topics = result.fragments[2].text
    assert "# about the next key" in topics and "- stray list item" in topics
    assert uncovered(result) == ""


def test_yaml_multiple_documents() -> None:
    text = "a: 1\nb: 2\n---\nc: 3\n--- # comment\n- x\n- y\n...\n"
    result = split_document(text, "yml", "multi.yml")
    check_invariants(result)
    assert paths(result) == ["doc 1 > a", "doc 1 > b", "doc 2 > c", "doc 3"]
    assert result.fragments[-1].text == "- x\n- y"


@pytest.mark.parametrize("text", [
    "key: [unclosed\n  - : :\n\t\tweird: {\n",
    "just some prose\n\nwith paragraphs",
    ": : :\n---\n---\n\"unterminated: x\n",
])
def test_malformed_yaml_is_still_text(text: str) -> None:
    result = split_document(text, "yaml", "bad.yaml")
    check_invariants(result)
    assert result.fragments


def test_yaml_without_keys_falls_back_to_paragraphs() -> None:
    result = split_document("- a\n- b\n\n- c\n", "yaml", "list.yaml")
    check_invariants(result)
    assert result.fragments and any("paragraphs" in n for n in result.notes)


# --- JSON -------------------------------------------------------------------


def test_json_object_is_pretty_printed_one_fragment_per_key() -> None:
    data = {"name": "课程", "items": [1, {"x": None}], "empty": {}, "n": 1.5}
    result = split_document(json.dumps(data, separators=(",", ":")), "json", "c.json")
    check_invariants(result)
    assert result.doc_text == json.dumps(data, ensure_ascii=False, indent=2)
    assert paths(result) == ["name", "items", "empty", "n"]
    assert result.fragments[0].text == '"name": "课程"'
    assert result.fragments[1].text.startswith('"items": [') and result.fragments[1].text.endswith("]")
    assert result.notes == []


def test_json_array_elements_grouped_but_big_ones_alone() -> None:
    data = [{"q": f"question {i}", "a": "answer " * (300 if i == 5 else 1)} for i in range(40)]
    result = split_document(json.dumps(data), "json", "qa.json")
    check_invariants(result)
    assert result.doc_text == json.dumps(data, ensure_ascii=False, indent=2)
    assert len(result.fragments) < 40
    assert all(p.startswith("[") and p.endswith("]") for p in paths(result))
    assert paths(result)[0].startswith("[0-") and "[5]" in paths(result)
    assert set(uncovered(result)) <= set("[], \n")


def test_json_array_of_singles() -> None:
    data = ["x" * 1000, "y" * 1000]
    result = split_document(json.dumps(data), "json", "a.json")
    check_invariants(result)
    assert paths(result) == ["[0]", "[1]"]


def test_json_scalar_is_one_fragment() -> None:
    result = split_document('  "hello 世界"  ', "json", "s.json")
    check_invariants(result)
    assert [f.text for f in result.fragments] == ['"hello 世界"']


def test_invalid_json_falls_back_with_reason() -> None:
    text = '{\n  "a": 1,\n  "b": 2\n  "c": 3\n}\n\nsecond paragraph'
    result = split_document(text, "json", "bad.json")
    check_invariants(result)
    assert result.doc_text == text
    assert result.notes[0].startswith("invalid JSON (line 4: Expecting ',' delimiter)")
    assert result.notes[0].endswith("split into paragraphs")


@pytest.mark.parametrize("text", ["[" * 100_000, '"\\ud800"', "1" * 5000])
def test_pathological_json_does_not_raise(text: str) -> None:
    result = split_document(text, "json", "x.json")
    check_invariants(result)
    assert result.notes


def test_duplicate_json_keys_are_noted() -> None:
    result = split_document('{"a": 1, "a": 2}', "json", "d.json")
    check_invariants(result)
    assert [f.text for f in result.fragments] == ['"a": 2']
    assert "duplicate JSON keys (a)" in result.notes[0]


# --- Python -----------------------------------------------------------------

PY = '''"""Module docstring."""

import os

CONSTANT = 1


# Helper comment directly above.
@decorator
@other(arg=1)
def helper(x):
    return x


async def fetch():
    pass

REGISTRY = {}  # module code between defs stays with the def above

class Thing:
    """A class."""

    def method(self):
        return "\\d"  # invalid escape: SyntaxWarning must not leak
'''


def test_python_top_level_defs() -> None:
    result = split_document(PY, "py", "mod.py")
    check_invariants(result)
    assert result.title == "mod"
    assert paths(result) == ["", "def helper", "def fetch", "class Thing"]
    assert result.fragments[0].text.startswith('"""Module docstring."""')
    assert result.fragments[1].text.startswith("# Helper comment directly above.\n@decorator")
    assert "REGISTRY" in result.fragments[2].text
    assert uncovered(result) == ""
    assert result.notes == []


def test_python_long_def_is_packed_by_whole_lines() -> None:
    body = "\n".join(f"    value_{i} = compute({i})  # step {i}" for i in range(300))
    result = split_document(f"def long():\n{body}\n\ndef short():\n    pass\n", "py", "x.py")
    check_invariants(result)
    parts = [f for f in result.fragments if f.heading_path.startswith("def long (part ")]
    assert len(parts) >= 2
    for f in parts:  # whole lines only
        assert result.doc_text[f.start - 1] == "\n" or f.start == 0
        assert result.doc_text[f.end] == "\n"
    assert result.fragments[-1].heading_path == "def short"


def test_python_syntax_error_falls_back() -> None:
    result = split_document("def broken(:\n    pass\n\nprint('x')\n", "py", "bad.py")
    check_invariants(result)
    assert result.fragments
    assert result.notes[0].startswith("Python syntax error (line 1:")


def test_python_null_byte_falls_back() -> None:
    result = split_document("x = 1\x00\n", "py", "nul.py")
    check_invariants(result)
    assert result.notes


# --- Text -------------------------------------------------------------------


def test_text_short_paragraphs_are_packed() -> None:
    paras = [f"Paragraph {i} " + "word " * 40 for i in range(20)]
    result = split_document("\n\n".join(paras), "txt", "t.txt")
    check_invariants(result)
    assert 1 < len(result.fragments) < 20
    assert all(len(f.text) <= 1500 for f in result.fragments)
    assert uncovered(result) == ""


def test_text_huge_chinese_paragraph_splits_at_sentences() -> None:
    sentence = "这是一个很长的句子，用来测试按句子切分的功能。"
    text = sentence * 500  # one line, no blank lines, ~11k chars
    result = split_document(text, "txt", "zh.txt")
    check_invariants(result)
    assert len(result.fragments) >= 3
    assert all(f.text.endswith("。") for f in result.fragments)
    assert uncovered(result) == ""


def test_text_unbreakable_blob_is_hard_cut() -> None:
    result = split_document("x" * 9000, "txt", "blob.txt")
    check_invariants(result)
    assert [len(f.text) for f in result.fragments] == [4000, 4000, 1000]


# --- Properties -------------------------------------------------------------

_PIECES = st.sampled_from([
    "# H1\n", "## H2\n", "```\n", "~~~\n", "---\n", "...\n", "key: value\n", "- item\n",
    '"q": 1\n', "{", "}", "[", "]", ",", '"s"', "def f():\n", "    return 1\n", "class C:\n",
    "@dec\n", "# comment\n", "\n", "\n\n", "\r\n", "\r", "\ufeff", "。", ". ", "\t", "\x00",
    "\u2028", "\x0c", "中文句子", " " * 50,
])
_TEXT = st.one_of(
    st.text(max_size=300),
    st.lists(st.one_of(_PIECES, st.text(max_size=20)), max_size=60).map("".join),
)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=_TEXT, fmt=st.sampled_from([*FORMATS, "markdown", "yml"]))
def test_split_never_raises_and_offsets_hold(text: str, fmt: str) -> None:
    result = split_document(text, fmt, "f")
    check_invariants(result)
    if canonical_format(fmt) in ("md", "txt", "py"):
        assert uncovered(result) == ""


# Long texts are built by repetition: generating 4000+ random chars directly
# trips Hypothesis health checks on a busy machine.
_LONG = st.tuples(st.text(alphabet=st.sampled_from("ab 。\n.\t:#"), min_size=1, max_size=300),
                  st.integers(0, 8000)).map(lambda t: (t[0] * (4001 // len(t[0]) + 1))[: 4001 + t[1]])


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=_LONG, fmt=st.sampled_from(FORMATS))
def test_long_inputs_respect_cap(text: str, fmt: str) -> None:
    check_invariants(split_document(text, fmt, "f"))


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=8), inner, max_size=8),
    max_leaves=40,
)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=_JSON)
def test_valid_json_doc_text_is_exactly_pretty_dumps(data: object) -> None:
    result = split_document(json.dumps(data), "json", "f")
    check_invariants(result)
    assert result.doc_text == json.dumps(data, ensure_ascii=False, indent=2)
    assert result.notes == []


def test_generic_file_names_are_titled_with_their_folder() -> None:
    from desktop_kb.importer.formats import title_name

    assert title_name(Path("/books/docker/README.md")) == "docker/README.md"
    assert title_name(Path("/books/docker/vectors.md")) == "vectors.md"
    assert split_document("no heading here", "md", title_name(Path("/a/rust/SUMMARY.md"))).title == "rust/SUMMARY"
    assert split_document("x", "txt", title_name(Path("/a/b/notes.txt"))).title == "b/notes"
    assert split_document("x", "txt", "plain.txt").title == "plain"
