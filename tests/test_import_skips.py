"""What is skipped and why: unsupported formats named, generated/vendored files with an override."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from desktop_kb.importer.files import GITIGNORED, NOT_SELECTED, Candidate, Skipped, iter_candidates
from desktop_kb.importer.generated import generated_by_content
from desktop_kb.importer.gitignore import IgnoreRules, parse_gitignore
from desktop_kb.importer.load import GeneratedFile, open_document


def write(path: Path, text: str = "x") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def walk(root: Path, **kw: object) -> dict[str, str]:
    out = {}
    for item in iter_candidates([root], **kw):  # type: ignore[arg-type]
        rel = item.path.relative_to(root).as_posix()
        out[rel] = item.fmt if isinstance(item, Candidate) else item.reason
    return out


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "book"
    write(root / "README.md", "# Book")
    write(root / "ch1" / "Dockerfile", "FROM alpine\n")
    write(root / "ch1" / "run.sh", "echo hi\n")
    write(root / "ch1" / "slides.pptx", "zip")
    write(root / "ch1" / "diagram.png", "png")
    write(root / "ch1" / "data.weird", "?")
    write(root / "web" / "package-lock.json", "{}")
    write(root / "web" / "app.min.js", "x")
    write(root / "web" / "node_modules" / "left-pad" / "index.js", "module.exports = 1")
    write(root / "web" / "src" / "app.ts", "export function f() {}\n")
    write(root / "web" / "dist" / "bundle.txt", "built")
    write(root / "web" / "debug.log", "log")
    write(root / "web" / "keep.log", "keep")
    write(root / "web" / ".gitignore", "dist/\n*.log\n!keep.log\n")
    write(root / ".gitignore", "/secret-notes.md\n")
    write(root / "secret-notes.md", "# private")
    write(root / "ch1" / "secret-notes.md", "# not anchored: imported")
    return root


def test_default_walk_names_every_reason(project: Path) -> None:
    seen = walk(project)
    assert seen["README.md"] == "md"
    assert seen["ch1/Dockerfile"] == "dockerfile"
    assert seen["ch1/run.sh"] == "shell"
    assert seen["ch1/slides.pptx"] == "`.pptx` is not supported yet (PowerPoint)"
    assert seen["ch1/diagram.png"] == "`.png` is not supported yet (image)"
    assert seen["ch1/data.weird"] == "format not supported"
    assert seen["web/package-lock.json"].startswith("lockfile")
    assert seen["web/app.min.js"] == "minified or bundled code"
    assert seen["web/node_modules"] == "vendored dependencies (node_modules/)"
    assert seen["web/src/app.ts"] == "typescript"
    assert seen["web/dist"] == GITIGNORED
    assert seen["web/debug.log"] == GITIGNORED
    assert seen["web/keep.log"] == "txt"  # negated
    assert seen["secret-notes.md"] == GITIGNORED
    assert seen["ch1/secret-notes.md"] == "md"
    assert not any(k.startswith("web/node_modules/") for k in seen)


def test_quiet_and_listed(project: Path) -> None:
    items = {i.path.name: i for i in iter_candidates([project]) if isinstance(i, Skipped)}
    assert not items["slides.pptx"].quiet  # a document people expect us to read: listed
    assert items["diagram.png"].quiet  # pictures in a folder: counted
    assert not items["package-lock.json"].quiet


def test_override_takes_generated_and_ignored(project: Path) -> None:
    seen = walk(project, include_generated=True)
    assert seen["web/package-lock.json"] == "json"
    assert seen["web/node_modules/left-pad/index.js"] == "javascript"
    assert seen["web/dist/bundle.txt"] == "txt"
    assert seen["secret-notes.md"] == "md"


def test_deselected_formats_are_not_called_unsupported(project: Path) -> None:
    seen = walk(project, formats=["md"])
    assert seen["ch1/run.sh"] == NOT_SELECTED
    assert seen["ch1/slides.pptx"].startswith("`.pptx` is not supported")
    code = walk(project, formats=["code"])
    assert code["ch1/run.sh"] == "shell" and code["README.md"] == NOT_SELECTED


def test_explicit_unsupported_file_names_its_format(tmp_path: Path) -> None:
    (item,) = iter_candidates([write(tmp_path / "deck.pptx")])
    assert isinstance(item, Skipped) and item.reason == "`.pptx` is not supported yet (PowerPoint)"
    (item,) = iter_candidates([write(tmp_path / "x.qqq")])
    assert isinstance(item, Skipped) and item.reason == "`.qqq` files are not supported"


@pytest.mark.parametrize(("patterns", "path", "is_dir", "ignored"), [
    ("*.log", "a/b/c.log", False, True),
    ("/build", "build", True, True),
    ("/build", "src/build", True, False),
    ("build/", "build", False, False),
    ("doc/**/*.pdf", "doc/x/y/z.pdf", False, True),
    ("**/tmp", "a/tmp", True, True),
    ("a?c", "abc", False, True),
    ("[!a]bc", "abc", False, False),
    ("*.txt\n!important.txt", "important.txt", False, False),
    ("\\#hash", "#hash", False, True),
    ("# comment", "# comment", False, False),
])
def test_gitignore_patterns(tmp_path: Path, patterns: str, path: str, is_dir: bool, ignored: bool) -> None:
    rules = IgnoreRules()
    (tmp_path / ".gitignore").write_text(patterns)
    rules.load(tmp_path)
    assert rules.ignored(tmp_path / path, is_dir) is ignored


def test_odd_gitignore_lines() -> None:
    rules = parse_gitignore("[\n\n!\n/\nok\n")  # "[" is literal; "!" and "/" alone mean nothing
    assert [bool(r.regex.match("[")) for r in rules] == [True, False]
    assert rules[1].regex.match("a/ok")


def test_generated_by_content() -> None:
    assert generated_by_content("// Code generated by protoc-gen-go. DO NOT EDIT.\npackage x", "go")
    minified = "function a(){return 1};" * 2000
    assert generated_by_content(minified, "javascript") == "minified code (very long lines)"
    schema = json.dumps({"$schema": "http://json-schema.org/draft-07/schema#", "definitions": {
        f"io.k8s.api.T{i}": {"type": "object", "properties": {"a": {"$ref": "#/definitions/x"}}}
        for i in range(800)}}, indent=2)
    assert "schema" in (generated_by_content(schema, "json") or "")
    assert generated_by_content('{"name": "plain config", "port": 80}', "json") is None
    assert generated_by_content("x = 1\n" * 5000, "py") is None


def test_open_document_refuses_generated_unless_asked(tmp_path: Path) -> None:
    path = write(tmp_path / "pb.go", "// Code generated by protoc. DO NOT EDIT.\npackage pb\n")
    with pytest.raises(GeneratedFile):
        open_document(path, "go")
    assert open_document(path, "go", include_generated=True).parse().fragments


def test_a_folder_holding_the_library_itself_imports_none_of_its_files(tmp_path: Path) -> None:
    """Importing a home or Documents folder that holds the library's own folder took in its
    recovered text (typed into a local-only note, then imported as a document that was not),
    its import notes and its models' JSON as study material."""
    from desktop_kb import recovery
    from desktop_kb.importer.files import OWN_LIBRARY_FOLDER
    from desktop_kb.library import Library

    home = tmp_path / "home"
    write(home / "notes" / "学习.md", "# 学习笔记\n\nzqhome\n")
    data_dir = home / "Documents" / "KB"
    with Library(data_dir, load_model=False) as lib:
        secret = lib.add_note("私密", "zqsecret")
        lib.set_note_local_only(secret, True)
        recovery.keep(data_dir, secret, "私密", "typed but not saved zqrecovered", "disk full")
        write(data_dir / "models" / "some-model" / "manifest.json", json.dumps({"id": "some-model"}))
        summary = lib.import_paths([home])
        assert [d.path for d in lib.list_documents()] == [str(home / "notes" / "学习.md")]
        assert (str(data_dir), OWN_LIBRARY_FOLDER) in summary.skipped, summary
        assert [r.source_id for r in lib.search("zqrecovered", mode="lexical").results] == []
