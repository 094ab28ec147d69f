"""Random sequences of library operations keep store and index in step (I1, I3, I4, I5).

Every text carries unique ASCII marker tokens (``zq00001mk``) that nothing else
can produce (the random alphabet has no ``z``/``q``), so "found" and "not
found" are exact: after each sequence the index has no drift, every marker of
a live note or imported passage is found at its owner, and every marker of a
trashed or deleted note, removed passage or never-imported file is absent from
the index itself, not merely filtered out of search results.
"""

from __future__ import annotations

import json
import re
import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from desktop_kb.library import Library

MARKER_RE = re.compile(r"zq\d{5}mk")

WORDS = [
    "安装", "配置", "学习", "笔记", "数据库", "索引", "用", "的", "持续集成", "中文分词",
    "docker", "GitLab", "install", "the", "of", "Python", "docker-compose.yml", "v1.2.3",
    "C++", "main.py", "user@example.com", "snake_case_name", "#tag", "3.14", "e.g.",
    "Ｄｏｃｋｅｒ", "İstanbul", "naïve", "😀", "🚀", "AND", "NEAR(", "-x", "a*",
]
PUNCT = [" ", " ", "，", "。", ". ", "\n", "\n\n", "# ", "## ", "- ", "`", "```\n", "*",
         '"', "(", ")", ":", "\t", "！", "？"]
# Any Unicode except surrogates and z/q (so no random token can equal a marker).
RANDOM_CHARS = st.characters(exclude_categories=("Cs",), exclude_characters="zqZQ")
# Imported files get no control characters: a file full of them is rightly refused as binary.
FILE_CHARS = st.characters(exclude_categories=("Cs", "Cc"), exclude_characters="zqZQ")
TEXT = st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(PUNCT),
                          st.text(alphabet=RANDOM_CHARS, max_size=6)), max_size=40).map("".join)
FILE_TEXT = st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(PUNCT),
                               st.text(alphabet=FILE_CHARS, max_size=6)), max_size=40).map("".join)
LINE = TEXT.map(lambda s: re.sub(r"[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]", " ", s))
INDEX = st.integers(min_value=0, max_value=1000)

# Where an added note carries its marker: "title" gives a title-only note.
NOTE_SHAPES = st.sampled_from(["body", "title", "both", "body_no_title", "empty"])
FORMATS = st.sampled_from(["md", "txt", "json", "yaml", "py"])

ADD = st.tuples(st.just("add"), NOTE_SHAPES, LINE, TEXT, INDEX, st.booleans())
NEW_FILE = st.tuples(st.just("new_file"), FORMATS, st.lists(FILE_TEXT, min_size=1, max_size=4))
IMPORT = st.tuples(st.just("import"), st.booleans())
EDIT = st.tuples(st.just("edit"), INDEX, st.sampled_from(["title", "body", "both", "keep_marker"]),
                 LINE, TEXT)
EDIT_FILE = st.tuples(st.just("edit_file"), INDEX, INDEX, FILE_TEXT, st.booleans())
# Creating things is weighted up so later operations have something to act on.
OPS = st.one_of(
    ADD, ADD, ADD, NEW_FILE, NEW_FILE, IMPORT, IMPORT, EDIT, EDIT, EDIT_FILE,
    st.tuples(st.just("trash"), INDEX),
    st.tuples(st.just("restore"), INDEX),
    st.tuples(st.just("delete"), INDEX),
    st.tuples(st.just("empty_trash")),
    st.tuples(st.just("rm_file"), INDEX),
    st.tuples(st.just("delete_document"), INDEX),
    st.tuples(st.just("rebuild")),
    st.tuples(st.just("reopen")),
    st.tuples(st.just("drain")),
)


@dataclass
class FileModel:
    fmt: str
    sections: list[tuple[str, str]]  # (random text, marker)

    def render(self) -> str:
        out = []
        for i, (text, marker) in enumerate(self.sections):
            one_line = re.sub(r"[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]", " ", text)
            if self.fmt == "md":
                out.append(f"## Section {i} {marker}\n\n{text}\n\n")
            elif self.fmt == "txt":
                out.append(f"{text} {marker} \n\n")
            elif self.fmt == "json":
                out.append(f'  "k{i}": "{_json_escape(one_line)} {marker}"')
            elif self.fmt == "yaml":
                out.append(f"k{i}: {one_line} {marker}\n")
            else:
                out.append(f"def f{i}_{marker}():\n    return {text!r}\n\n")
        if self.fmt == "json":
            return "{\n" + ",\n".join(out) + "\n}\n"
        return "".join(out)


def _json_escape(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)[1:-1]


@dataclass
class Model:
    notes: dict[int, tuple[str, str, bool]] = field(default_factory=dict)  # id -> (title, body, trashed)
    files: dict[str, FileModel] = field(default_factory=dict)  # on disk, by resolved path
    imported: dict[str, str] = field(default_factory=dict)  # path -> text at last import
    all_markers: set[str] = field(default_factory=set)
    counter: int = 0

    def marker(self) -> str:
        self.counter += 1
        m = f"zq{self.counter:05d}mk"
        self.all_markers.add(m)
        return m

    def live(self) -> dict[str, tuple[str, object]]:
        owners: dict[str, tuple[str, object]] = {}
        for note_id, (title, body, trashed) in self.notes.items():
            if not trashed:
                for m in MARKER_RE.findall(f"{title}\n{body}"):
                    owners[m] = ("note", note_id)
        for path, text in self.imported.items():
            for m in MARKER_RE.findall(text):
                owners[m] = ("document", path)
        return owners


def _insert(text: str, marker: str, where: int) -> str:
    pos = where % (len(text) + 1)
    return f"{text[:pos]} {marker} {text[pos:]}"


def _fts_hits(lib: Library, marker: str) -> int:
    conn = sqlite3.connect(lib.paths.index)
    try:
        return conn.execute("SELECT count(*) FROM kb_fts WHERE kb_fts MATCH ?",
                            (f'"{marker}"',)).fetchone()[0]
    finally:
        conn.close()


def _assert_gone(lib: Library, markers: list[str], why: str) -> None:
    for m in markers:
        assert lib.search(m).results == [], f"{why}: {m} still searchable"
        assert _fts_hits(lib, m) == 0, f"{why}: {m} still in the index"


def _open(data_dir: Path) -> Library:
    lib = Library(data_dir)
    if lib.startup_rebuild is not None:
        assert not lib.startup_rebuild.result().cancelled
    return lib


def _pick(items: list, index: int):
    return items[index % len(items)] if items else None


def _run(ops: list[tuple], root: Path) -> None:
    model = Model()
    folder = root / "src"
    folder.mkdir()
    folder = folder.resolve()
    file_no = 0
    counts: dict[str, int] = {}
    lib = _open(root / "lib")
    try:
        for op in ops:
            kind = op[0]
            counts[kind] = counts.get(kind, 0) + 1
            live_ids = sorted(i for i, n in model.notes.items() if not n[2])
            trashed_ids = sorted(i for i, n in model.notes.items() if n[2])
            if kind == "add":
                _, shape, title, body, where, long = op
                if long:
                    body = (body + "\n\n") * 12
                if shape in ("title", "both"):
                    title = _insert(title, model.marker(), where)
                if shape in ("body", "both", "body_no_title"):
                    body = _insert(body, model.marker(), where)
                if shape == "title":
                    body = ""
                if shape == "body_no_title":
                    title = ""
                if shape == "empty":
                    title, body = "", ""
                note_id = lib.add_note(title, body)
                model.notes[note_id] = (title, body, False)
            elif kind == "edit":
                _, idx, what, title, body = op
                note_id = _pick(sorted(model.notes), idx)
                if note_id is None:
                    continue
                old_title, old_body, trashed = model.notes[note_id]
                if what == "keep_marker":
                    kept = " ".join(MARKER_RE.findall(old_body))
                    new_title, new_body = old_title, f"{body} {kept} "
                else:
                    new_title = _insert(title, model.marker(), idx) if what != "body" else None
                    new_body = _insert(body, model.marker(), idx) if what != "title" else None
                lib.save_note(note_id, title=new_title, body=new_body)
                model.notes[note_id] = (old_title if new_title is None else new_title,
                                        old_body if new_body is None else new_body, trashed)
            elif kind in ("trash", "delete"):
                note_id = _pick(live_ids if kind == "trash" else sorted(model.notes), op[1])
                if note_id is None:
                    continue
                title, body, _trashed = model.notes[note_id]
                if kind == "trash":
                    lib.trash_note(note_id)
                    model.notes[note_id] = (title, body, True)
                else:
                    lib.delete_note(note_id)
                    del model.notes[note_id]
                # I4: gone from the index the moment the call returns, no drain needed.
                _assert_gone(lib, MARKER_RE.findall(f"{title}\n{body}"), kind)
            elif kind == "restore":
                note_id = _pick(trashed_ids, op[1])
                if note_id is not None:
                    lib.restore_note(note_id)
                    title, body, _ = model.notes[note_id]
                    model.notes[note_id] = (title, body, False)
            elif kind == "empty_trash":
                assert lib.empty_trash() == len(trashed_ids)
                gone = [m for i in trashed_ids for m in MARKER_RE.findall(
                    f"{model.notes[i][0]}\n{model.notes[i][1]}")]
                for i in trashed_ids:
                    del model.notes[i]
                _assert_gone(lib, gone, "empty_trash")
            elif kind == "new_file":
                _, fmt, texts = op
                file_no += 1
                path = folder / f"file{file_no}.{fmt}"
                fm = FileModel(fmt, [(t, model.marker()) for t in texts])
                path.write_text(fm.render(), encoding="utf-8")
                model.files[str(path)] = fm
            elif kind == "edit_file":
                _, idx, section, text, drop_one = op
                path = _pick(sorted(model.files), idx)
                if path is None:
                    continue
                fm = model.files[path]
                fm.sections[section % len(fm.sections)] = (text, model.marker())
                if drop_one and len(fm.sections) > 1:
                    fm.sections.pop((section + 1) % len(fm.sections))
                Path(path).write_text(fm.render(), encoding="utf-8")
            elif kind == "rm_file":
                path = _pick(sorted(model.files), op[1])
                if path is not None:
                    Path(path).unlink()
                    del model.files[path]
            elif kind == "import":
                prune = op[1]
                before = dict(model.imported)
                # An emptied folder is pruned too here (by default it is taken for a disk that
                # is not connected); a file whose content was imported under a path now gone
                # is that document, moved.
                summary = lib.import_paths([folder], prune=prune, prune_empty=True)
                assert summary.skipped == [], summary.skipped
                moved_from = {old for old, _new in summary.moved}
                moved_to = {new for _old, new in summary.moved}
                for path, fm in model.files.items():
                    model.imported[path] = fm.render()
                for path in moved_from:
                    model.imported.pop(path, None)
                if prune:
                    for path in list(model.imported):
                        if path not in model.files:
                            del model.imported[path]
                    assert summary.removed == len(set(before) - set(model.imported) - moved_from)
                assert summary.added == len(set(model.imported) - set(before) - moved_to)
            elif kind == "delete_document":
                doc = _pick(lib.list_documents(), op[1])
                if doc is None:
                    continue
                lib.delete_document(doc.id)
                text = model.imported.pop(doc.path)
                _assert_gone(lib, MARKER_RE.findall(text), "delete_document")
            elif kind == "rebuild":
                result = lib.rebuild()
                assert not result.cancelled
            elif kind == "reopen":
                lib.close()
                lib = _open(root / "lib")
            elif kind == "drain":
                assert lib.drain(timeout=60)
            else:  # pragma: no cover
                raise AssertionError(kind)

        event(f"operations: {sum(counts.values()) // 10 * 10}+")
        event(f"live notes at end: {sum(not n[2] for n in model.notes.values()) // 5 * 5}+")
        event(f"documents at end: {len(model.imported)}")
        assert lib.drain(timeout=60)
        report = lib.verify(repair=False)
        assert report.drift == 0, report.as_dict()
        status = lib.index_status()
        assert status.failures == [] and not status.dirty, status.as_json()

        # The store holds exactly what was written.
        for note_id, (title, body, trashed) in model.notes.items():
            note = lib.get_note(note_id)
            assert (note.title, note.body, note.trashed) == (title, body, trashed)
        assert sorted(n.id for n in lib.list_notes() + lib.list_notes(trashed=True)) == sorted(model.notes)
        docs_by_path = {d.path: d.id for d in lib.list_documents()}
        assert sorted(docs_by_path) == sorted(model.imported)

        live = model.live()
        for marker, (owner_kind, owner) in live.items():
            response = lib.search(marker)
            assert response.dropped == 0, marker
            if owner_kind == "note":
                got = [(r.source_type, r.source_id) for r in response.results]
                assert got == [("note", owner)], (marker, got)
            else:
                got = {r.document_id for r in response.results}
                assert response.results and got == {docs_by_path[owner]}, (marker, got)
        _assert_gone(lib, sorted(model.all_markers - set(live)), "final")
    finally:
        lib.close()


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(seed_notes=st.lists(ADD, min_size=2, max_size=8),
       seed_files=st.lists(NEW_FILE, min_size=1, max_size=5),
       ops=st.lists(OPS, min_size=10, max_size=50))
def test_random_operation_sequences_leave_no_drift_and_exact_search(
    seed_notes: list[tuple], seed_files: list[tuple], ops: list[tuple],
) -> None:
    # A seeded library first, so the random operations have notes and documents to act on.
    with tempfile.TemporaryDirectory() as tmp:
        _run([*seed_notes, *seed_files, ("import", False), *ops], Path(tmp))
