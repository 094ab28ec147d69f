"""What leaves the machine, checked on the bodies a real loopback provider records (issue 10).

Whole-source spans (key bodies, secrets across chunk boundaries), the gated and
capped question, approval and gate 1 re-checked before every attempt, keys
scrubbed from provider errors, the answer-length limit, and local-only
contagion through saved answers and re-imported files.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks.gate_corpus.written import RSA_2048
from desktop_kb.qa.engine import FLAG_TOO_LONG, QaEngine
from desktop_kb.qa.save_note import save_answer_as_note
from desktop_kb.store import chats, uploads
from desktop_kb.store.local_only import DerivedReason
from tests.qa_server import ChatServer, Reply

KEY = "sk-proj-Zq8LmN3vX5bT2kW9pR7yD4fH6jS1aG0cE-T3BlbkFJ"
GITLAB = ("用 Docker 安装 GitLab 之前，先准备 docker-compose.yml 文件。"
          "第一次启动 GitLab 需要几分钟，耐心等待健康检查通过。"
          "备份命令是 gitlab-backup create，建议每天执行一次。")
QUESTION = "怎么用 Docker 安装 GitLab？"


@pytest.fixture
def server() -> Iterator[ChatServer]:
    with ChatServer() as srv:
        yield srv


def _engine(library: Any, server: ChatServer, notes: list[tuple[str, str, bool]] | None = None,
            *, mode: str = "block", **overrides: Any) -> QaEngine:
    for title, body, local in notes if notes is not None else [("Docker 部署 GitLab", GITLAB, False)]:
        library.add_note(title, body, local_only=local)
    library.drain()
    library.set_setting("qa.cloud_enabled", True)
    library.set_setting("qa.sensitive", mode)
    library.set_setting("qa.provider.base_url", server.base_url)
    library.set_setting("qa.provider.model", "test-model")
    params = {"backoff": 0.01, "read_timeout": 5.0, "connect_timeout": 2.0}
    params.update(overrides)
    return QaEngine(library, key_lookup=lambda _name: KEY, provider_overrides=params)


def _everything_sent(server: ChatServer) -> str:
    return "\n".join(json.dumps(body, ensure_ascii=False) for body in server.requests)


# ----- whole-source spans ---------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["block", "redact"])
def test_a_key_body_without_its_begin_line_never_leaves(library: Any, server: ChatServer, mode: str) -> None:
    """The question matches a sentence next to the key's tail; the packed window starts after BEGIN."""
    body_lines = [line for line in RSA_2048.splitlines() if not line.startswith("-----")]
    note = ("部署 GitLab 用的证书和密钥。\n" + RSA_2048 + "\nGitLab 密钥轮换：每年更换一次部署密钥。")
    engine = _engine(library, server, [("GitLab 部署密钥", note, False), ("Docker 部署 GitLab", GITLAB, False)],
                     mode=mode)
    library.set_setting("qa.budget_chars", 3000)
    server.replies.append(Reply.stream("答[1]。"))
    engine.ask("GitLab 密钥轮换多久一次？", approved=True)
    sent = _everything_sent(server)
    assert all(line not in sent for line in body_lines)
    assert not any(line[:16] in sent for line in body_lines)


def test_a_secret_across_a_chunk_boundary_is_withheld_whole(library: Any, server: ChatServer) -> None:
    """Pasted minified JSON (JSON.stringify: no spaces) longer than a chunk: the chunker cuts inside it."""
    token = "ghp_mBVeRL8f38uTvQE2KFvV5iM5lpZgfseIFtcC"
    settings = ",".join(f'"mirror_{i}":"https://gitlab.lab.cn/group/project-{i}.git"' for i in range(14))
    line = "{" + settings + f',"sync_token":"{token}",' + settings + "}"
    note = "GitLab 镜像同步配置（从管理后台导出）：\n" + line + "\n同步每小时执行一次。"
    start = note.index(token)
    engine = _engine(library, server, [("GitLab 镜像同步", note, False)], mode="redact")
    chunks = library.index_reader.execute("SELECT start, end FROM kb_chunks ORDER BY start").fetchall()
    assert any(a < start < b < start + len(token) for a, b in chunks), \
        "the fixture must make a chunk end inside the token"
    library.set_setting("qa.budget_chars", 6000)
    server.replies.append(Reply.stream("答[1]。"))
    engine.ask("GitLab 镜像同步 mirror project gitlab.lab.cn", approved=True)
    sent = _everything_sent(server)
    assert server.requests and "[api_key removed]" in sent
    for piece in (token[:7], token[7:17], token[17:27], token[-10:]):
        assert piece not in sent


def test_a_window_inside_a_key_body_is_judged_by_its_whole_source(library: Any, server: ChatServer) -> None:
    """Only base64 lines, no marker, no telling first line: the window alone looks harmless."""
    from desktop_kb.qa.retrieve import QaHit, Retrieved
    from desktop_kb.retrieval.packing import PackedContext, PackedSnippet
    from desktop_kb.retrieval.results import SearchResult

    note = "服务器密钥备份：\n" + RSA_2048 + "\n"
    engine = _engine(library, server, [("密钥备份", note, False)])
    note_id = library.list_notes()[0].id
    lines = RSA_2048.splitlines()
    middle = "\n".join(lines[6:9])
    start = note.index(middle)
    packed = PackedContext([PackedSnippet(1, "note", note_id, "密钥备份", start, start + len(middle), middle)], 0)
    hit = QaHit(SearchResult(rank=1, source_type="note", source_id=note_id, title="密钥备份", snippet="",
                             highlights=[], start=0, end=len(note), score=1.0, chunk_id=0, chunk_start=0,
                             chunk_end=len(note)), note)
    (gated,) = engine._gate_snippets(packed, Retrieved("q", "lexical", hits=[hit]), "redact")
    assert gated.verdict.text is not None and all(line not in gated.verdict.text for line in lines[6:9])


# ----- the question ------------------------------------------------------------------------------

def test_the_question_is_redacted_in_the_body_and_the_preview(library: Any, server: ChatServer) -> None:
    engine = _engine(library, server, mode="redact")
    server.replies.append(Reply.stream("答[1]。"))
    question = "GitLab 的 root 密码是 Tiger#88，怎么用 Docker 安装 GitLab？"
    plan = engine.prepare(question)
    assert plan.question_verdict.action == "redacted"
    assert "Tiger#88" not in json.dumps(plan.body(), ensure_ascii=False)  # what the preview shows
    engine.send(plan, approved=True)
    assert "Tiger#88" not in _everything_sent(server) and "[password removed]" in _everything_sent(server)


def test_a_question_holding_a_secret_is_not_sent_in_block_mode(library: Any, server: ChatServer) -> None:
    engine = _engine(library, server, mode="block")
    answer = engine.ask("身份证 110108199003074316 能办 GitLab 账号吗？怎么用 Docker 安装 GitLab？",
                        approved=True)
    assert answer.mode == "local" and answer.reason == "question_blocked"
    assert server.requests == [] and uploads.list_uploads(library.store_reader) == []


def test_a_question_over_the_cap_is_refused_before_anything_runs(library: Any, server: ChatServer) -> None:
    engine = _engine(library, server)
    session = engine.new_session()
    huge = "GitLab 怎么安装？" * 10_000  # 90 KB, the audit's shape
    answer = engine.ask(huge, session_id=session, approved=True)
    assert answer.mode == "local" and answer.reason == "question_too_long" and answer.hits == []
    assert server.requests == []
    assert chats.list_messages(library.store_reader, session) == []  # nothing stored either
    library.set_setting("qa.max_question_chars", 200_000)
    server.replies.append(Reply.stream("答[1]。"))
    assert engine.prepare(huge).reason is None


# ----- approval and gate 1, again before every attempt -----------------------------------------

def test_switching_cloud_off_after_the_preview_sends_nothing(library: Any, server: ChatServer) -> None:
    engine = _engine(library, server)
    plan = engine.prepare(QUESTION)
    assert plan.reason is None
    library.set_setting("qa.cloud_enabled", False)
    answer = engine.send(plan, approved=True)
    assert answer.reason == "cloud_off" and server.requests == []


def test_gate_one_is_checked_again_before_a_retry(library: Any, server: ChatServer) -> None:
    engine = _engine(library, server)
    server.replies += [Reply(status=503), Reply.stream("不该发出[1]。")]
    server.on_request = lambda n: library.set_setting("qa.cloud_enabled", False) if n == 1 else None
    answer = engine.ask(QUESTION, approved=True)
    assert len(server.requests) == 1, "the retry must not go out once cloud answering is off"
    assert answer.mode == "local" and answer.reason == "cloud_off"
    assert [r.outcome for r in uploads.list_uploads(library.store_reader)] == ["http 503"]


def test_a_provider_changed_after_the_preview_is_not_approved(library: Any, server: ChatServer) -> None:
    engine = _engine(library, server)
    plan = engine.prepare(QUESTION)
    library.set_setting("qa.provider.model", "another-model")
    assert engine.send(plan, approved=True).reason == "not_approved" and server.requests == []


def test_a_source_made_local_only_after_the_preview_stays(library: Any, server: ChatServer) -> None:
    engine = _engine(library, server)
    plan = engine.prepare(QUESTION)
    note_id = plan.gated[0].packed.source_id
    library.set_note_local_only(note_id, True)
    assert engine.send(plan, approved=True).reason == "changed" and server.requests == []


# ----- keys never land anywhere --------------------------------------------------------------------

def test_a_provider_error_echoing_the_key_is_scrubbed_everywhere(library: Any, server: ChatServer) -> None:
    engine = _engine(library, server)
    echo = json.dumps({"error": {"message": f"Incorrect API key provided: {KEY}. Request had "
                                            f"Authorization: Bearer {KEY}; hint {KEY[:14]}…{KEY[-6:]}"}})
    server.replies.append(Reply(status=400, body=echo))
    session = engine.new_session()
    answer = engine.ask(QUESTION, session_id=session, approved=True)
    assert answer.reason == "provider_error" and "Incorrect API key" in answer.detail
    stored = json.dumps([m.meta for m in chats.list_messages(library.store_reader, session)], ensure_ascii=False)
    for text in (answer.detail, stored, json.dumps(answer.as_json(), ensure_ascii=False)):
        assert KEY not in text and KEY[:14] not in text and KEY[-12:] not in text


def test_a_hostile_provider_streaming_the_key_back_is_scrubbed(library: Any, server: ChatServer) -> None:
    engine = _engine(library, server)
    server.replies.append(Reply.stream(f"你的 key 是 {KEY}", "[1]。"))
    deltas: list[str] = []
    answer = engine.ask(QUESTION, approved=True, on_delta=deltas.append)
    assert KEY not in answer.answer and KEY not in "".join(deltas)


def test_a_key_streamed_back_in_small_pieces_never_reaches_the_display(library: Any, server: ChatServer) -> None:
    """Scrubbing each delta alone would show "sk-p", "roj-", … one after another."""
    engine = _engine(library, server)
    pieces = [KEY[i:i + 4] for i in range(0, len(KEY), 4)]
    server.replies.append(Reply.stream("你的 key 是 ", *pieces, " 对吧？安装 GitLab 见[1]。"))
    deltas: list[str] = []
    answer = engine.ask(QUESTION, approved=True, on_delta=deltas.append)
    shown = "".join(deltas)
    assert KEY not in shown and KEY[:12] not in shown and KEY[-8:] not in shown
    assert shown.startswith("你的 key 是 ") and shown.endswith("安装 GitLab 见[1]。")
    assert KEY not in answer.answer


# ----- answer length ---------------------------------------------------------------------------------

def test_max_tokens_is_sent_and_a_runaway_stream_is_stopped(library: Any, server: ChatServer) -> None:
    engine = _engine(library, server)
    library.set_setting("qa.max_answer_tokens", 64)
    server.replies.append(Reply(lines=[], forever="GitLab 安装[1] "))
    answer = engine.ask(QUESTION, approved=True)
    assert server.requests[0]["max_tokens"] == 64
    assert answer.mode == "generated" and FLAG_TOO_LONG in answer.flags
    assert len(answer.answer) < 64 * 5 + 200  # stopped soon after the limit, not minutes later


def test_an_answer_cut_by_the_provider_at_max_tokens_is_marked(library: Any, server: ChatServer) -> None:
    from tests.qa_server import sse_chunk

    engine = _engine(library, server)
    server.replies.append(Reply(lines=[sse_chunk("先准备 docker-compose.yml[1]"), sse_chunk("", "length"),
                                       "data: [DONE]"]))
    assert FLAG_TOO_LONG in engine.ask(QUESTION, approved=True).flags


# ----- local-only is contagious ------------------------------------------------------------------------

def test_a_saved_answer_from_local_only_material_is_local_only(library: Any, server: ChatServer) -> None:
    private = "GitLab 私人记录：公司内网的 GitLab 安装在 10.0.0.5，用 Docker 安装 GitLab 时挂载 /srv/gitlab。"
    engine = _engine(library, server, [("Docker 部署 GitLab", GITLAB, False), ("内网 GitLab", private, True)])
    server.replies.append(Reply.stream("先准备 docker-compose.yml[1]。"))
    answer = engine.ask(QUESTION, approved=True)
    assert any("local_only" in v["reasons"] for v in answer.as_json()["verdicts"])
    note_id = save_answer_as_note(library, {"question": QUESTION, **answer.as_json()})
    note = library.get_note(note_id)
    assert note.local_only
    reason = DerivedReason.from_text(note.local_only_reason)
    assert reason is not None and [s.title for s in reason.sources] == ["内网 GitLab"]

    # Lifting is the person's deliberate act; until then the next question does not send it.
    library.drain()
    server.replies.append(Reply.stream("答[1]。"))
    engine.ask("docker-compose.yml 先准备什么", approved=True)
    assert "10.0.0.5" not in _everything_sent(server)
    library.set_note_local_only(note_id, False)
    assert library.get_note(note_id).local_only_reason is None


def test_a_local_answer_saved_from_local_only_hits_is_local_only(library: Any, server: ChatServer) -> None:
    private = "GitLab 私人记录：用 Docker 安装 GitLab，内网地址 10.0.0.5。"
    engine = _engine(library, server, [("内网 GitLab", private, True)])
    answer = engine.ask(QUESTION, approved=False)
    assert answer.mode == "local" and answer.hits
    note_id = save_answer_as_note(library, {"question": QUESTION, **answer.as_json()})
    assert library.get_note(note_id).local_only


def test_a_note_derived_from_a_local_only_document_is_local_only(library: Any, tmp_path: Path) -> None:
    doc = tmp_path / "docs" / "vpn.md"
    doc.parent.mkdir()
    doc.write_text("# VPN\n\n公司 VPN 的配置步骤。\n", encoding="utf-8")
    library.import_paths([doc.parent])
    document = library.list_documents()[0]
    library.set_document_local_only(document.id, True)
    fragment = library.list_fragments(document.id)[0]
    note_id = library.add_note("VPN 摘录", "公司 VPN 的配置步骤。", derived_from=[("fragment", fragment.id)])
    assert library.get_note(note_id).local_only
    other = library.add_note("无关", "别的内容", derived_from=[])
    assert not library.get_note(other).local_only


def test_a_local_only_file_stays_local_only_when_renamed_moved_and_pruned(library: Any, tmp_path: Path) -> None:
    root = tmp_path / "study"  # not the data folder (tmp_path / "library"), which imports skip
    (root / "a").mkdir(parents=True)
    (root / "b").mkdir()
    first = root / "a" / "secret-plan.md"
    first.write_text("# 计划\n\n明年的私人计划。\n", encoding="utf-8")
    library.import_paths([root])
    library.set_document_local_only(library.list_documents()[0].id, True)

    moved = root / "b" / "renamed-plan.md"
    first.rename(moved)
    summary = library.import_paths([root], prune=True)
    assert summary.removed == 0 and len(summary.moved) == 1  # the same document, moved
    (doc,) = library.list_documents()
    assert doc.path == str(moved.resolve()) and doc.local_only

    # Removed entirely, then the same content comes back later under yet another name.
    moved.rename(tmp_path / "outside.md")
    library.import_paths([root], prune=True)
    assert library.list_documents() == []
    (root / "again.md").write_bytes((tmp_path / "outside.md").read_bytes())
    library.import_paths([root])
    assert library.list_documents()[0].local_only

    # An edited version of a local-only document is remembered too; lifting forgets.
    again = root / "again.md"
    again.write_text("# 计划\n\n明年的私人计划（改）。\n", encoding="utf-8")
    library.import_paths([root])
    (doc,) = library.list_documents()
    assert doc.local_only
    library.set_document_local_only(doc.id, False)
    again.rename(root / "public.md")
    library.import_paths([root], prune=True)
    assert not library.list_documents()[0].local_only


def test_marking_a_document_local_only_covers_its_copies_already_imported(
        library: Any, server: ChatServer, tmp_path: Path) -> None:
    """A backup copy imported earlier from another folder holds the same words: it stops leaving too."""
    root = tmp_path / "study"
    (root / "diary").mkdir(parents=True)
    (root / "backup").mkdir()
    text = "# 日记\n\n周三去医院复查，医生说 GitLab 项目压力太大要多休息。\n"
    (root / "diary" / "d.md").write_text(text, encoding="utf-8")
    (root / "backup" / "d (1).md").write_text(text, encoding="utf-8")
    (root / "backup" / "other.md").write_text("# 别的\n\nGitLab 项目的周报。\n", encoding="utf-8")
    library.import_paths([root])
    by_path = {Path(d.path).name: d for d in library.list_documents()}
    library.set_document_local_only(by_path["d.md"].id, True)
    flags = {Path(d.path).name: d.local_only for d in library.list_documents()}
    assert flags == {"d.md": True, "d (1).md": True, "other.md": False}

    engine = _engine(library, server, [])
    library.set_setting("qa.budget_chars", 4000)
    server.replies.append(Reply.stream("答[1]。"))
    engine.ask("GitLab 项目 医生 复查", approved=True)
    sent = _everything_sent(server)
    assert "周报" in sent and "医院" not in sent
