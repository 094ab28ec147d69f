"""The person's own terms (note titles, [[link]] targets, #tags) in the segmenter's dictionary."""

from __future__ import annotations

import jieba
import pytest

from desktop_kb.index import user_words as uw
from desktop_kb.index.lexicon import CompactTokenizer
from desktop_kb.index.segment import segment_for_index
from desktop_kb.index.terms import terms_of

TERMS = ["易烊千玺", "迪丽热巴", "提示词工程", "蔡徐坤", "零成本抽象", "欧阳娜娜"]
TEXTS = [
    "易烊千玺在新电影里饰演一名高中生",
    "迪丽热巴最近为一个护肤品牌代言",
    "提示词工程的一个技巧是给模型几个示例",
    "蔡徐坤的巡回演唱会门票几分钟就卖光了",
    "的零成本抽象很重要而且零成本",
    "欧阳娜娜从小学习大提琴",
    "千万不要在玺印上随便盖章",  # the characters of a term in other words
]


@pytest.fixture(autouse=True)
def _no_words_left_behind():  # type: ignore[no-untyped-def]
    """The dictionary is per process: leave it as found for the next test."""
    yield
    uw.forget()
    from desktop_kb.index.segment import set_user_words

    set_user_words(frozenset())


def test_same_words_as_jieba_add_word() -> None:
    ours = CompactTokenizer()
    jieba.setLogLevel(60)
    ref = jieba.Tokenizer()
    before = ours.cut_for_search_many(TEXTS)
    assert ours.set_user_words(frozenset(TERMS))
    for t in TERMS:
        ref.add_word(t)
    assert ours.cut_for_search_many(TEXTS) == [list(ref.cut_for_search(t)) for t in TEXTS]
    assert ours.cut_many(TEXTS) == [list(ref.cut(t)) for t in TEXTS]
    assert not ours.set_user_words(frozenset(TERMS))  # unchanged
    assert ours.set_user_words(frozenset())
    assert ours.cut_for_search_many(TEXTS) == before
    assert ours.base_freq("易烊千玺") == 0 and ours.freq("易烊千玺") == 0


def test_terms_a_note_names() -> None:
    body = ("看 [[迪丽热巴|她的采访]] 和 [[欧阳娜娜#早年]]，#元宇宙 也记下。C#蔡徐坤 不是标签，"
            "[[数据库]] 与 #学习 是 jieba 已知的词，[[一个很长很长的链接目标]] 是句子。")
    assert terms_of("易烊千玺", body) == {"易烊千玺", "迪丽热巴", "欧阳娜娜", "元宇宙"}
    assert terms_of("Rust 所有权", "") == set()  # not a run of ideographs alone
    assert terms_of("易烊千璽", "") == {"易烊千玺"}  # folded to the index's script


def _fts_rows_with(library, token: str) -> set[int]:  # type: ignore[no-untyped-def]
    return set(library.worker.call(lambda c: [r[0] for r in c.execute(
        "SELECT c.source_id FROM kb_fts f JOIN kb_chunks c ON c.id = f.rowid WHERE kb_fts MATCH ?",
        (f'"{token}"',))]).result())


def test_a_titled_note_makes_its_term_one_word_everywhere(library) -> None:  # type: ignore[no-untyped-def]
    passage = library.add_note("", "易烊千玺在新电影里饰演一名高中生。")
    distractor = library.add_note("", "千万不要在玺印上随便盖章，容易损坏印泥，电影道具组很小心。")
    library.drain()
    assert _fts_rows_with(library, "易烊千玺") == set()  # jieba alone: 易/烊/千玺
    # Naming a note after the term puts it in the dictionary, and the passage
    # indexed before is cut again in the same step.
    person = library.add_note("易烊千玺", "演员，歌手。")
    library.drain()
    assert _fts_rows_with(library, "易烊千玺") == {passage, person}
    assert "易烊千玺" in segment_for_index("我喜欢易烊千玺").split()
    hits = [r.source_id for r in library.search("易烊千玺的新电影", mode="lexical").results]
    assert hits.index(passage) < hits.index(distractor)
    assert library.verify().drift == 0


def test_a_second_process_cuts_queries_like_the_index(library, data_dir) -> None:  # type: ignore[no-untyped-def]
    from desktop_kb.index.segment import set_user_words
    from desktop_kb.library import Library

    library.add_note("迪丽热巴", "")
    passage = library.add_note("", "迪丽热巴最近为一个护肤品牌代言。")
    distractor = library.add_note("", "这家店的热巴旦木很受欢迎，老板说代言费太贵请不起明星。")
    library.drain()
    set_user_words(frozenset())  # as in a fresh process that has not read the index yet
    uw.forget()
    with Library(data_dir) as other:
        hits = [r.source_id for r in other.search("迪丽热巴 代言", mode="lexical").results]
    assert hits.index(passage) < hits.index(distractor)
    assert "迪丽热巴" in segment_for_index("迪丽热巴").split()  # the search synced the dictionary


def test_rebuild_drops_terms_whose_notes_are_gone(library) -> None:  # type: ignore[no-untyped-def]
    note = library.add_note("蔡徐坤", "")
    library.add_note("", "[[欧阳娜娜]] 从小学习大提琴。 #元宇宙")
    library.drain()
    words = library.worker.call(uw.stored).result()
    assert words == {"蔡徐坤", "欧阳娜娜", "元宇宙"}
    library.delete_note(note)
    library.rebuild()
    assert library.worker.call(uw.stored).result() == {"欧阳娜娜", "元宇宙"}
    assert "蔡徐坤" not in segment_for_index("蔡徐坤").split()  # 蔡/徐坤 again
    assert library.verify().drift == 0


def test_a_renamed_or_deleted_note_takes_its_term_out(library) -> None:  # type: ignore[no-untyped-def]
    """Autosave stores half-typed titles ("易烊千"): such a term must not stay behind."""
    passage = library.add_note("", "易烊千玺在新电影里饰演一名高中生。")
    person = library.add_note("易烊千", "")
    library.drain()
    assert library.worker.call(uw.stored).result() == {"易烊千"}
    library.save_note(person, title="易烊千玺")
    library.drain()
    assert library.worker.call(uw.stored).result() == {"易烊千玺"}
    assert _fts_rows_with(library, "易烊千玺") == {passage, person}
    assert _fts_rows_with(library, "易烊千") == set()
    twin = library.add_note("", "[[易烊千玺]] 的采访")  # a second note names the same term
    library.drain()
    library.delete_note(person)
    library.save_note(twin, body="[[易烊千玺]] 的采访，后半段")
    library.drain()
    assert library.worker.call(uw.stored).result() == {"易烊千玺"}  # still named by the link
    library.save_note(twin, body="采访")
    library.drain()
    assert library.worker.call(uw.stored).result() == frozenset()
    assert _fts_rows_with(library, "易烊千玺") == set()  # the passage is cut by jieba alone again
    assert library.verify().drift == 0
