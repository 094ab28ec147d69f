"""The trim inside a passage: a long paragraph sends the sentences that answer, not all of it.

The cases are written for these tests (not taken from the evaluation sets the
constants were fitted on): the answer in the sentence *before* the one that
carries the question's words, a number, a date, a list, a Traditional question
on Simplified text, an English question on Chinese text (never trimmed), a
short passage (never trimmed).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from desktop_kb.index.segment import query_terms
from desktop_kb.retrieval.answer_type import AnswerKind, answer_kind, carries
from desktop_kb.retrieval.packing import DEFAULT_PACKING, PackedContext, PackingParams, pack_context
from desktop_kb.retrieval.results import SearchResult
from desktop_kb.retrieval.snippets import sentence_spans
from desktop_kb.text.fold import fold

TOWN = ("青石镇位于云岭山脉东麓，是一座有六百年历史的古镇。镇上的老街全长一千二百米，两旁是明清时期的木结构店铺。"
        "1987年4月12日，一场大火烧毁了老街北段的四十多间店铺。这次火灾之后，镇政府开始重建老街。"
        "重建工程历时三年，于1990年完工。青石镇有几种出名的特产。竹编、腊肉、米酒、蜂蜜和手工纸都很受欢迎。"
        "每年秋天，镇上举办米酒节，吸引上万名游客。镇中心的文昌阁建于清代乾隆年间，是镇上最高的建筑。"
        "阁楼共有五层，高二十七米。从省城坐长途汽车到青石镇大约需要四个小时。"
        "镇上没有火车站，最近的火车站在八十公里外的临江市。近年来，越来越多的年轻人回到镇上开民宿和咖啡馆。")
OTHER = "临江市是一座港口城市，有火车站和长途汽车站。市区人口约四十万。"
# Document frequencies as an index of ~1,000 notes would give them: common words are cheap.
DOC_FREQ = {"镇": 400, "有": 700, "多": 500, "的": 900, "是": 850, "在": 800, "哪": 300, "了": 800}
# The trim alone (no bridge filling the gaps it leaves), and the same without the trim.
TRIM = replace(DEFAULT_PACKING, trim_share=0.15, bridge=0)
NO_TRIM = replace(TRIM, trim_share=DEFAULT_PACKING.min_share)


def _hit(rank: int, text: str, score: float) -> tuple[SearchResult, str]:
    return (SearchResult(rank=rank, source_type="note", source_id=rank, title=f"t{rank}", snippet="",
                         highlights=[], start=0, end=0, score=score, chunk_id=rank, chunk_start=0,
                         chunk_end=len(text)), text)


def _pack(question: str, params: PackingParams = DEFAULT_PACKING) -> PackedContext:
    hits = [_hit(1, TOWN, 2.0), _hit(2, OTHER, 0.6)]
    return pack_context(hits, query_terms(question), 1200, doc_freq=DOC_FREQ, n_docs=1000,
                        question=question, params=params)


@pytest.mark.parametrize(("question", "answer"), [
    # The answer is in the sentence before the one holding the question's words.
    ("镇政府是在哪一次火灾之后开始重建老街的？", "1987年4月12日"),
    # A number in the sentence after the one naming the building.
    ("文昌阁有多高？", "二十七米"),
    # The same, asked in Traditional script of Simplified notes.
    ("文昌閣有多高？", "二十七米"),
    # A list: the items follow the sentence that names them.
    ("青石镇有哪些特产？", "竹编、腊肉、米酒、蜂蜜和手工纸"),
    ("重建工程用了多少年？", "三年"),
    ("从省城去青石镇要多久？", "四个小时"),
    ("最近的火车站在哪里？", "临江市"),
])
def test_the_trimmed_context_still_holds_the_answer(question: str, answer: str) -> None:
    for params in (DEFAULT_PACKING, TRIM):
        packed = _pack(question, params)
        assert answer in packed.render(), (params, packed.render())
        assert packed.chars == len(packed.render())


def test_a_long_passage_is_trimmed_to_fewer_characters() -> None:
    sizes, wholes = [], []
    for question in ("文昌阁有多高？", "青石镇有哪些特产？", "最近的火车站在哪里？"):
        trimmed, whole = _pack(question, TRIM), _pack(question, NO_TRIM)
        assert trimmed.chars <= whole.chars
        sizes.append(trimmed.chars)
        wholes.append(whole.chars)
    assert sum(sizes) < sum(wholes)
    assert max(sizes) < len(TOWN) * 0.7


def test_trimmed_windows_are_exact_whole_sentences_of_the_note() -> None:
    """Each [n] opens the note at exactly what was sent (the QA pane highlights start:end)."""
    spans = sentence_spans(TOWN, 0, len(TOWN))
    starts, ends = {a for a, _ in spans}, {b for _, b in spans}
    packed = _pack("文昌阁有多高？", TRIM)
    assert len(packed.snippets) >= 1
    for s in packed.snippets:
        text = TOWN if s.source_id == 1 else OTHER
        assert text[s.start:s.end] == s.text
        if s.source_id == 1:
            assert s.start in starts and s.end in ends
    assert [s.n for s in packed.snippets] == list(range(1, len(packed.snippets) + 1))
    # Windows of one note never overlap or touch (touching sentences make one window).
    own = sorted((s.start, s.end) for s in packed.snippets if s.source_id == 1)
    assert all(a[1] < b[0] for a, b in zip(own, own[1:], strict=False))


def test_an_english_question_on_chinese_notes_is_not_trimmed() -> None:
    # No question word is in the note: sentence scores say nothing, so the trim stays off.
    hits = [_hit(1, TOWN, 2.0)]
    best = {0: (TOWN.index("阁楼"), TOWN.index("从省城"))}  # the best sentence by its vector
    question = "How tall is the pavilion in the town centre?"
    trimmed = pack_context(hits, query_terms(question), 1200, question=question, best_sentences=best,
                           params=replace(TRIM, trim_share=0.9))
    plain = pack_context(hits, query_terms(question), 1200, question=question, best_sentences=best,
                         params=NO_TRIM)
    assert trimmed.render() == plain.render()
    assert "二十七米" in trimmed.render()


def test_a_short_passage_is_not_trimmed() -> None:
    short = "文昌阁建于清代。阁楼共有五层，高二十七米。阁前有一口古井。"
    assert len(short) <= DEFAULT_PACKING.short_passage
    hits = [_hit(1, short, 2.0)]
    strict = replace(DEFAULT_PACKING, trim_share=0.9)
    trimmed = pack_context(hits, query_terms("文昌阁建于什么时候？"), 1200, question="文昌阁建于什么时候？",
                           params=strict)
    plain = pack_context(hits, query_terms("文昌阁建于什么时候？"), 1200, question="文昌阁建于什么时候？",
                         params=NO_TRIM)
    assert trimmed.render() == plain.render()
    # The same passage counted as long is trimmed by that bar.
    long_bar = pack_context(hits, query_terms("文昌阁建于什么时候？"), 1200, question="文昌阁建于什么时候？",
                            params=replace(strict, short_passage=0))
    assert long_bar.chars < plain.chars


@pytest.mark.parametrize(("question", "kind"), [
    ("文昌阁有多高？", AnswerKind.NUMBER),
    ("他是哪一年出生的？", AnswerKind.NUMBER),
    ("他是哪一年出生的？".replace("哪一年", "何時"), AnswerKind.NUMBER),
    ("How many floors does it have?", AnswerKind.NUMBER),
    ("青石鎮有哪些特產？", AnswerKind.LIST),
    ("Which towns are near the river?", AnswerKind.LIST),
    ("Which town is the oldest?", None),
    ("文昌阁是谁建的？", None),
    ("为什么要重建老街？", None),
])
def test_answer_kind(question: str, kind: AnswerKind | None) -> None:
    assert answer_kind(fold(question)) is kind


@pytest.mark.parametrize(("sentence", "kind", "expected"), [
    ("阁楼共有五层，高二十七米。", AnswerKind.NUMBER, True),
    ("1987年4月12日，一场大火。", AnswerKind.NUMBER, True),
    ("这是一种很好的材料。", AnswerKind.NUMBER, False),  # 一种 is not a quantity asked for
    ("竹编、腊肉、米酒、蜂蜜和手工纸都很受欢迎。", AnswerKind.LIST, True),
    ("It sells bamboo, bacon, rice wine, and honey.", AnswerKind.LIST, True),
    ("镇上没有火车站。", AnswerKind.LIST, False),
])
def test_a_sentence_carries_the_kind(sentence: str, kind: AnswerKind, expected: bool) -> None:
    assert carries(kind, fold(sentence)) is expected


# --- the bridge: two windows of one passage a short gap apart become one --------------------

def _windows_of(packed: PackedContext, source_id: int) -> list[tuple[int, int]]:
    return sorted((s.start, s.end) for s in packed.snippets if s.source_id == source_id)


def test_a_short_gap_between_two_windows_of_one_passage_is_filled() -> None:
    question, strict = "老街和文昌阁是什么时候建的？", replace(TRIM, trim_share=0.15)
    apart = _pack(question, replace(strict, bridge=0))
    assert len(_windows_of(apart, 1)) >= 2  # the sentences about each are far apart
    (a0, a1), (b0, b1) = _windows_of(apart, 1)[:2]
    gap = b0 - a1
    joined = _pack(question, replace(strict, bridge=gap + 10))
    assert any(s <= a0 and e >= b1 for s, e in _windows_of(joined, 1))
    assert joined.chars == len(joined.render()) and joined.chars > apart.chars
    assert TOWN[a0:b1] in joined.render()  # exactly the note's text, nothing cut
    # A gap longer than the bridge stays a gap.
    short_bridge = _pack(question, replace(strict, bridge=gap - 1))
    assert _windows_of(short_bridge, 1)[:2] == _windows_of(apart, 1)[:2]


def test_the_bridge_never_breaks_the_budget() -> None:
    question, strict = "老街和文昌阁是什么时候建的？", replace(TRIM, trim_share=0.15)
    apart = pack_context([_hit(1, TOWN, 2.0)], query_terms(question), 10_000, doc_freq=DOC_FREQ,
                         n_docs=1000, question=question, params=replace(strict, bridge=0))
    budget = apart.chars + 3  # room for the windows, not for the gap between them
    bridged = pack_context([_hit(1, TOWN, 2.0)], query_terms(question), budget, doc_freq=DOC_FREQ,
                           n_docs=1000, question=question, params=replace(strict, bridge=10_000))
    assert bridged.chars == len(bridged.render()) <= budget
    assert bridged.render() == apart.render()
