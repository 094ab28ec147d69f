"""The packer: a hard budget, whole sentences, rank order, one [n] per window (I10)."""

from __future__ import annotations

from dataclasses import replace

from desktop_kb.retrieval.packing import DEFAULT_PACKING, pack_context, question_grams
from desktop_kb.retrieval.results import SearchResult
from desktop_kb.retrieval.snippets import sentence_spans


def _hit(rank: int, text: str, source_id: int | None = None) -> tuple[SearchResult, str]:
    return (SearchResult(rank=rank, source_type="note", source_id=source_id or rank, title=f"t{rank}",
                         snippet="", highlights=[], start=0, end=0, score=1.0 / rank, chunk_id=rank,
                         chunk_start=0, chunk_end=len(text)), text)


DOC1 = ("GitLab 是一个代码托管平台。它可以用 Docker 安装。安装前先准备 docker-compose.yml 文件。"
        "第一次启动需要几分钟。备份命令是 gitlab-backup create。Runner 用 shared 模式。")
DOC2 = "Kubernetes 管理容器。用 Docker 构建镜像后推送到仓库。Pod 是最小的调度单位。"


def test_budget_is_a_hard_ceiling_and_sentences_stay_whole() -> None:
    hits = [_hit(1, DOC1), _hit(2, DOC2)]
    for budget in (20, 40, 80, 120, 400):
        packed = pack_context(hits, ["docker", "安装", "gitlab"], budget, question="怎么用 Docker 安装 GitLab")
        assert packed.chars == len(packed.render()) <= budget
        for s in packed.snippets:
            text = dict(hits and [(h.source_id, t) for h, t in hits])[s.source_id]
            spans = sentence_spans(text, 0, len(text))
            starts, ends = {a for a, _ in spans}, {b for _, b in spans}
            assert s.start in starts and s.end in ends  # never a cut sentence
            assert text[s.start:s.end] == s.text
        assert [s.n for s in packed.snippets] == list(range(1, len(packed.snippets) + 1))


def test_the_matching_sentence_and_its_successor_are_chosen() -> None:
    packed = pack_context([_hit(1, DOC1)], ["docker-compose.yml", "准备"], 60,
                          question="安装前要准备什么文件")
    assert "安装前先准备 docker-compose.yml 文件。" in packed.render()
    assert len(packed.render()) < len(DOC1)


def test_rank_order_gets_budget_first() -> None:
    packed = pack_context([_hit(1, DOC1), _hit(2, DOC2)], ["docker"], 50, question="docker")
    assert packed.snippets and packed.snippets[0].source_id == 1


def test_a_sentence_longer_than_the_budget_is_dropped_not_cut() -> None:
    long = "很" * 300 + "长的句子提到 Docker。"
    packed = pack_context([_hit(1, long), _hit(2, DOC2)], ["docker"], 100, question="Docker")
    assert all(s.source_id == 2 for s in packed.snippets)


def test_question_grams_skip_question_words() -> None:
    grams = question_grams("松平康忠是什么时期的武将？")
    assert "松平" in grams and "什么" not in grams and "么时" not in grams


# --- the relative cut: a question about one paragraph sends that paragraph ---------------

GITLAB_BACKUP = ("GitLab 的备份命令是 gitlab-backup create。备份文件默认放在 /var/opt/gitlab/backups 目录。"
                 "恢复时先停止 puma 和 sidekiq。")
GITLAB_RESTORE = "恢复 GitLab 备份用 gitlab-backup restore 命令。恢复前要停止 puma 和 sidekiq 服务。"
UNRELATED = [
    "Kubernetes 的 Pod 是最小的调度单位。命令行工具是 kubectl。",
    "Python 的虚拟环境用 venv 创建。激活后安装依赖。",
    "Nginx 的配置文件在 /etc/nginx 目录下。修改后要重新加载。",
    "Docker 镜像用 docker build 命令构建。镜像推送到仓库。",
]


def _scored(rank: int, text: str, score: float) -> tuple[SearchResult, str]:
    result, _ = _hit(rank, text)
    return replace(result, score=score), text


def test_one_paragraph_question_does_not_send_unrelated_ones() -> None:
    # Every unrelated note shares one word with the question ("命令"), as a keyword hit does.
    hits = [_scored(1, GITLAB_BACKUP, 3.0)] + [_scored(i + 2, t, 0.4) for i, t in enumerate(UNRELATED)]
    question = "GitLab 的备份命令是什么？"
    terms = ["gitlab", "备份", "命令"]
    packed = pack_context(hits, terms, 1200, question=question)
    assert {s.source_id for s in packed.snippets} == {1}
    assert "gitlab-backup create" in packed.render()
    # Without the cut the unrelated notes fill the budget.
    loose = pack_context(hits, terms, 1200, question=question,
                         params=replace(DEFAULT_PACKING, passage_cut=0.0))
    assert len({s.source_id for s in loose.snippets}) > 1


def test_a_question_that_needs_two_notes_sends_both() -> None:
    hits = [_scored(1, GITLAB_BACKUP, 2.0), _scored(2, GITLAB_RESTORE, 1.9),
            *(_scored(i + 3, t, 0.3) for i, t in enumerate(UNRELATED))]
    question = "GitLab 怎么备份和恢复？"
    packed = pack_context(hits, ["gitlab", "备份", "恢复"], 1200, question=question)
    assert {s.source_id for s in packed.snippets} == {1, 2}


def test_cross_lingual_question_is_not_cut_on_dense_evidence_alone() -> None:
    # An English question on Chinese notes: no question word is in any note, so the
    # fused scores rest on dense evidence alone, which misses the gold passage too
    # often to cut on (Tatoeba en->zh).
    hits = [_scored(1, GITLAB_BACKUP, 2.5), _scored(2, GITLAB_RESTORE, 2.3),
            *(_scored(i + 3, t, 0.2) for i, t in enumerate(UNRELATED))]
    # The app picks each hit's best sentence by its vector (qa.retrieve).
    best = {i: (0, t.index("。") + 1) for i, (_r, t) in enumerate(hits)}
    question, terms = "How do I keep a copy of my code server's data?", ["how", "keep", "copy", "code"]
    packed = pack_context(hits, terms, 1200, question=question, best_sentences=best)
    assert {s.source_id for s in packed.snippets} == {1, 2, 3, 4, 5}
    cut = pack_context(hits, terms, 1200, question=question, best_sentences=best,
                       params=replace(DEFAULT_PACKING, unmatched_cut=0.5))
    assert {s.source_id for s in cut.snippets} == {1, 2}


def test_the_best_passage_always_stays() -> None:
    hits = [_scored(1, DOC2, 0.0), _scored(2, DOC1, 0.0)]
    packed = pack_context(hits, ["unrelated"], 1200, question="没有关系的问题")
    assert packed.snippets and packed.snippets[0].source_id == 1


# --- reach: the answer just past the chunk that matched ------------------------------------

def _chunk_hit(text: str, start: int, end: int) -> tuple[SearchResult, str]:
    result, _ = _hit(1, text)
    return replace(result, chunk_start=start, chunk_end=end), text


def test_the_answer_just_past_the_matching_chunk_is_reached() -> None:
    filler = "这一段讲的是别的事情，和问题没有关系。" * 30  # 570 chars before the matching chunk
    first = "南宁二中现在在南宁市内有两个校区，东盟校区是新建的。"
    answer = "学校位于南宁市武鸣区里建广西东盟经济技术开发区园区内。"
    text = f"{filler}\n\n{first}\n\n{answer}\n\n{filler}"
    start = text.index(first)
    hit = _chunk_hit(text, start, start + len(first))  # the chunk ends before the answer
    question, terms = "东盟校区位于什么地方？", ["东盟", "校区", "位于"]
    near = pack_context([hit], terms, 1200, question=question, params=replace(DEFAULT_PACKING, reach=800))
    assert answer in near.render()
    assert len(near.render()) < 200  # the filler around it is not sent
    for s in near.snippets:
        assert text[s.start:s.end] == s.text
        spans = sentence_spans(text, 0, len(text))
        assert s.start in {a for a, _ in spans} and s.end in {b for _, b in spans}
    strict = pack_context([hit], terms, 1200, question=question, params=replace(DEFAULT_PACKING, reach=0))
    assert all(s.start >= start and s.end <= start + len(first) for s in strict.snippets)


def test_reach_is_bounded_in_a_huge_note() -> None:
    text = "无关的句子。" * 200_000 + "GitLab 的备份命令是 gitlab-backup create。" + "无关的句子。" * 200_000
    start = text.index("GitLab")
    hit = _chunk_hit(text, start, start + 40)
    packed = pack_context([hit], ["gitlab", "备份"], 1200, question="GitLab 怎么备份？",
                          params=replace(DEFAULT_PACKING, reach=800))
    assert "gitlab-backup create" in packed.render()
    assert all(abs(s.start - start) <= 2 * 800 + 40 for s in packed.snippets)



def test_a_passage_is_never_sent_as_its_heading_alone(data_dir, tmp_path) -> None:  # noqa: ANN001
    # Asking "什么是所有权" sent the Rust book's "[3] ## 什么是所有权？" and nothing under it: the
    # heading holds every word of the question and outranked the sentences below it, which
    # fell under the cut. A heading window takes the sentence it heads (or is left out).
    from rust_book_ch4 import CH04_00, CH04_01_START

    from desktop_kb.library import Library
    from desktop_kb.qa.engine import QaEngine

    docs = tmp_path / "book"
    docs.mkdir()
    (docs / "ch04-00-understanding-ownership.md").write_text(CH04_00, encoding="utf-8")
    (docs / "ch04-01-what-is-ownership.md").write_text(CH04_01_START, encoding="utf-8")
    with Library(data_dir, load_model=False) as lib:
        lib.import_paths([docs])
        lib.drain()
        engine = QaEngine(lib)
        plan = engine.prepare("什么是所有权", session_id=engine.new_session("所有权"))
    texts = [s.text for s in plan.packed.snippets]
    assert texts and not any(t.strip() == "## 什么是所有权？" for t in texts), texts
    assert any(t.startswith("## 什么是所有权？") and "Rust 的核心功能" in t for t in texts), texts
