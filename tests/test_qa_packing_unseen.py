"""The shipped packer on a note written after its constants were fitted (session 5).

None of this text or these questions was looked at while the trim, the cut or
the bridge were chosen: a biography whose sentences lean on "他" (the answer is
often a sentence away from the question's words), a date, an age, a list, a
Traditional question on Simplified text, an English question on Chinese text
(no shared word: the sentence closest in meaning is sent), and a question whose words jieba segments differently ("林秋生活了" → 生活).
"""

from __future__ import annotations

import pytest

from desktop_kb.index.segment import query_terms
from desktop_kb.retrieval.back_reference import refers_back
from desktop_kb.retrieval.packing import DEFAULT_PACKING, PackedContext, pack_context
from desktop_kb.retrieval.results import SearchResult
from desktop_kb.text.fold import fold

BIOGRAPHY = ("林秋生出生于福建泉州的一个渔民家庭。他十二岁随父亲出海捕鱼，十六岁进入泉州商船学校学习航海。"
             "1931年，他以第一名的成绩毕业，成为招商局最年轻的二副。抗战爆发后，招商局的船只大多被征用或凿沉。"
             "他转往香港，在一家英国航运公司任大副。1949年，他驾驶“海星号”货轮返回厦门，"
             "这艘船后来成为远洋船队的第一艘货轮。晚年他定居鼓浪屿，写下回忆录《潮声》。"
             "书中记载了他去过的港口：新加坡、槟城、仰光、加尔各答和孟买。他于1998年去世，享年九十一岁。")
HARBOUR = "厦门港是东南沿海的重要港口，港区分布在厦门湾两岸。港口有多条远洋航线，通往东南亚和欧洲。"
DOC_FREQ = {"他": 500, "的": 900, "年": 600, "港口": 40, "厦门": 30}


def _hit(rank: int, text: str, score: float) -> tuple[SearchResult, str]:
    return (SearchResult(rank=rank, source_type="note", source_id=rank, title=f"t{rank}", snippet="",
                         highlights=[], start=0, end=0, score=score, chunk_id=rank, chunk_start=0,
                         chunk_end=len(text)), text)


def _pack(question: str, second_score: float = 0.3) -> PackedContext:
    hits = [_hit(1, BIOGRAPHY, 1.0), _hit(2, HARBOUR, second_score)]
    return pack_context(hits, query_terms(question), 1200, doc_freq=DOC_FREQ, n_docs=1000,
                        question=question, params=DEFAULT_PACKING)


@pytest.mark.parametrize(("question", "answer"), [
    ("林秋生是在哪里出生的？", "福建泉州"),
    ("林秋生哪一年毕业？", "1931年"),
    # The answer follows the sentence that holds the question's words.
    ("抗战爆发后，林秋生去了哪里？", "香港"),
    ("林秋生在英国航运公司担任什么职务？", "大副"),
    ("回忆录里记载了哪些港口？", "新加坡、槟城、仰光、加尔各答和孟买"),
    ("林秋生晚年定居在哪裡？", "鼓浪屿"),  # Traditional question, Simplified note
    ("林秋生活了多少岁？", "九十一岁"),
])
def test_the_answer_is_sent(question: str, answer: str) -> None:
    packed = _pack(question)
    assert answer in packed.render(), packed.render()
    assert packed.chars == len(packed.render())


def test_a_who_question_answered_by_a_pronoun_also_sends_who_that_is() -> None:
    # The matching sentence says "他驾驶…"; the name is in the note's first sentence.
    packed = _pack("谁驾驶海星号货轮返回厦门？")
    assert "他驾驶“海星号”货轮返回厦门" in packed.render() and "林秋生" in packed.render(), packed.render()
    assert packed.chars < len(BIOGRAPHY), packed.render()


def test_an_english_question_sends_the_sentence_closest_in_meaning() -> None:
    # No word is shared, so the model's closest sentence (what the QA engine passes as
    # ``best_sentences``) is what is sent; here the last one, far from the note's start.
    question = "How old was Lin Qiusheng when he died?"
    start = BIOGRAPHY.index("他于1998年")
    hits = [_hit(1, BIOGRAPHY, 1.0), _hit(2, HARBOUR, 0.3)]
    packed = pack_context(hits, query_terms(question), 1200, doc_freq=DOC_FREQ, n_docs=1000,
                          question=question, best_sentences={0: (start, len(BIOGRAPHY))})
    assert "享年九十一岁" in packed.render(), packed.render()
    assert packed.chars == len(packed.render())


def test_a_precise_question_sends_less_than_the_whole_note() -> None:
    packed = _pack("林秋生哪一年毕业？")
    assert "1931年" in packed.render()
    assert packed.chars < len(BIOGRAPHY) // 2, packed.render()


def test_a_weak_second_note_is_not_sent_and_a_close_one_is() -> None:
    question = "林秋生驾驶货轮返回厦门港口是哪一年？"
    weak = _pack(question, second_score=0.55)  # under the cut's share of the best note's score
    assert {s.source_id for s in weak.snippets} == {1} and "1949年" in weak.render()
    close = _pack(question, second_score=0.8)
    assert {s.source_id for s in close.snippets} == {1, 2}, close.render()


@pytest.mark.parametrize(("sentence", "expected"), [
    ("1949年，他驾驶货轮返回厦门。", True),
    ("此片在当时大受欢迎。", True),
    ("這部電影很受歡迎。", True),  # Traditional, as the index folds it
    ("It was built in 1931.", True),
    ("日本的火车很准时。", False),
    ("Thistle grows on the hills.", False),
    ("林秋生出生于福建泉州。", False),
    ("书中记载了他去过的港口。", False),  # the pronoun is not at the opening
])
def test_a_sentence_that_points_back(sentence: str, expected: bool) -> None:
    assert refers_back(fold(sentence)) is expected
