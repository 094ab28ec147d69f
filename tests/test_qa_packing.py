"""The packer: a hard budget, whole sentences, rank order, one [n] per window (I10)."""

from __future__ import annotations

from desktop_kb.retrieval.packing import pack_context, question_grams
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
