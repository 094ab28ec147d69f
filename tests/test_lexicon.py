"""The compact dictionary segments exactly like jieba, for a fraction of the memory."""

from __future__ import annotations

from pathlib import Path

import jieba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from desktop_kb.index.lexicon import CompactTokenizer

SENTENCES = [
    "我爱北京天安门，天安门上太阳升。",
    "小明硕士毕业于中国科学院计算所，后在日本京都大学深造。",
    "中华人民共和国成立于一九四九年。",
    "生命数耗完即算为踢爆，重生者在一定时间内为无敌状态。",
    "所有权是Rust最独特的功能，它让Rust无需垃圾回收即可保障内存安全。",
    "臺灣的資料庫課程講解關聯式資料庫與數據結構。",  # Traditional: many unknown words, HMM
    "乒乓球拍卖完了结婚的和尚未结婚的研究生命的起源",  # classic ambiguities
    "㐀㐁中文𠀀字符",  # ideographs outside jieba's range: one token each
    "的",
    "",
]


@pytest.fixture(scope="module")
def jieba_tok() -> jieba.Tokenizer:
    tok = jieba.Tokenizer()
    tok.initialize()
    return tok


@pytest.fixture(scope="module")
def compact(tmp_path_factory: pytest.TempPathFactory) -> CompactTokenizer:
    return CompactTokenizer(cache_dir=tmp_path_factory.mktemp("lexicon"))


def _han_runs(text: str) -> list[str]:
    import re

    return re.findall("[\u3400-\u4dbf\u4e00-\u9fff\U00020000-\U0003ffff]+", text)


@pytest.mark.parametrize("sentence", SENTENCES)
def test_same_words_as_jieba(sentence: str, jieba_tok: jieba.Tokenizer,
                             compact: CompactTokenizer) -> None:
    runs = _han_runs(sentence)
    assert compact.cut_for_search_many(runs) == [list(jieba_tok.cut_for_search(r)) for r in runs]
    assert compact.cut_many(runs) == [list(jieba_tok.cut(r)) for r in runs]


# Common characters, so random strings hit dictionary words, ambiguities and HMM runs.
_COMMON = "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=_COMMON, min_size=1, max_size=40), min_size=1, max_size=6))
def test_same_words_as_jieba_on_random_text(runs: list[str]) -> None:
    tok = _shared_jieba()
    compact = _shared_compact()
    assert compact.cut_for_search_many(runs) == [list(tok.cut_for_search(r)) for r in runs]
    assert compact.cut_many(runs) == [list(tok.cut(r)) for r in runs]


_CACHE: dict[str, object] = {}


def _shared_jieba() -> jieba.Tokenizer:
    if "jieba" not in _CACHE:
        tok = jieba.Tokenizer()
        tok.initialize()
        _CACHE["jieba"] = tok
    return _CACHE["jieba"]  # type: ignore[return-value]


def _shared_compact() -> CompactTokenizer:
    if "compact" not in _CACHE:
        _CACHE["compact"] = CompactTokenizer(cache_dir=None)
    return _CACHE["compact"]  # type: ignore[return-value]


def test_frequencies_match_jieba(jieba_tok: jieba.Tokenizer, compact: CompactTokenizer) -> None:
    for word in ["北京", "天安门", "的", "中华人民共和国", "不存在的词汇啊", "x"]:
        assert compact.freq(word) == (jieba_tok.FREQ.get(word) or 0)


def test_the_frequency_table_takes_four_bytes_a_slot(jieba_tok: jieba.Tokenizer,
                                                     compact: CompactTokenizer) -> None:
    # int32, not the cache's int64: 4 MB of a process's memory; every count is the same.
    assert compact._freqs.dtype == np.int32 and compact._freqs.nbytes <= 4 * len(compact._keys)
    words = [w for w, f in jieba_tok.FREQ.items() if f > 0][::50]
    assert [compact.freq(w) for w in words] == [jieba_tok.FREQ[w] for w in words]


def test_cache_is_reused_and_a_damaged_cache_is_rebuilt(tmp_path: Path) -> None:
    first = CompactTokenizer(cache_dir=tmp_path)
    (cached,) = tmp_path.glob("*.npz")
    assert CompactTokenizer(cache_dir=tmp_path).freq("北京") == first.freq("北京") > 0
    cached.write_bytes(b"not a numpy archive")
    assert CompactTokenizer(cache_dir=tmp_path).freq("北京") == first.freq("北京")
    assert len(list(tmp_path.glob("*.npz"))) == 1 and not list(tmp_path.glob("*.tmp*"))


def test_unwritable_cache_still_segments(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    tok = CompactTokenizer(cache_dir=blocker / "cache")  # cannot be created
    assert tok.cut_for_search_many(["北京大学"]) == [["北京", "大学", "北京大学"]]


def test_a_word_longer_than_any_its_characters_start_has_no_frequency(
        jieba_tok: jieba.Tokenizer, compact: CompactTokenizer) -> None:
    # 作业系统笔记: six characters, and no dictionary word of six starts with any of
    # them; asking for its frequency raised IndexError, which stalled indexing of
    # every note with such a title (a Taiwanese "作業系統筆記").
    for word in ("作业系统笔记", "作業系統筆記", "学习笔记整理归纳"):
        assert compact.base_freq(word) == jieba_tok.FREQ.get(word, 0) == 0
        assert compact.freq(word) == 0


def test_a_note_titled_with_a_long_unknown_word_is_indexed(data_dir: Path) -> None:
    from desktop_kb.library import Library

    with Library(data_dir, load_model=False) as lib:
        if lib.startup_rebuild is not None:
            lib.startup_rebuild.result()
        note = lib.add_note("作業系統筆記", "每個執行緒都有自己的堆疊。")
        assert lib.drain(timeout=60)
        assert lib.search("作業系統筆記", mode="lexical").results[0].source_id == note
