"""One script, canonical ideographs: folding for search keeps offsets into the original text."""

from __future__ import annotations

import unicodedata
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from desktop_kb.index.segment import index_tokens, query_terms
from desktop_kb.retrieval.snippets import make_snippet
from desktop_kb.text.fold import fold, fold_map, fold_signature, ideographs, to_simplified

# Traditional / Simplified pairs people meet, radicals PDF extraction yields, and
# characters whose NFKC or lower-case form changes length.
TRADITIONAL = "資料庫與數據結構後臺發髮乾燥乾隆裏裡麵麪雲開車國語學習體驗臺灣著書說話"
RADICALS = "⼀⾥⻚⼈⼤⾦⻝⺮㇐"
TRICKY = "İﬁﬀＡＢＣ１２３ｱ℃Å①"
COMBINING = "e\u0301a\u0308"


def test_radicals_and_compatibility_ideographs_become_ideographs() -> None:
    assert ideographs("⼀⾥⻚") == "一里页"
    assert ideographs("\uf900") == "\u8c48"  # CJK COMPATIBILITY IDEOGRAPH-F900 → 豈
    # Nothing else changes: full-width punctuation and Latin stay as typed (stored text).
    assert ideographs("第⼀章，ＡＢＣ。") == "第一章，ＡＢＣ。"


def test_fold_is_one_script_canonical_lowercase() -> None:
    assert fold("資料庫") == "资料库"
    assert fold("資料庫") == fold("资料库")
    assert fold("第⼀⾴ ＧｉｔＬａｂ") == "第一页 gitlab"
    assert fold("İstanbul") == "istanbul"
    # Phrase-aware: the same character folds by context.
    assert fold("乾燥") == "干燥" and fold("乾隆") == "乾隆"


def test_tokens_agree_across_scripts() -> None:
    assert index_tokens("資料庫管理系統") == index_tokens("资料库管理系统")
    assert query_terms("軟體開發") == query_terms("软体开发")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=TRADITIONAL + "资料库与数据结构后台发干燥里面云开车国语学习", max_size=60))
def test_script_fold_never_changes_length(text: str) -> None:
    assert len(to_simplified(text)) == len(text)


def _span_text(alphabet: str) -> st.SearchStrategy[str]:
    return st.text(alphabet=alphabet + "。 ，abcXYZ", max_size=40)


@settings(max_examples=300, deadline=None)
@given(_span_text(TRADITIONAL + RADICALS + TRICKY + COMBINING), st.data())
def test_fold_map_offsets_point_at_the_original(source: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(source)))
    end = data.draw(st.integers(start, len(source)))
    folded, starts, ends = fold_map(source, start, end)
    assert len(folded) == len(starts) == len(ends)
    for a, b in zip(starts, ends, strict=True):
        assert start <= a < b <= end
    assert starts == sorted(starts)
    # The script step is applied to the whole folded string (phrases need context)
    # and keeps its length, so the offsets are those of the script-free fold ...
    plain, plain_starts, plain_ends = fold_map(source, start, end, script=False)
    assert (plain_starts, plain_ends) == (starts, ends)
    assert folded == to_simplified(plain)
    # ... whose every character comes from its source cluster folded alone.
    for i, ch in enumerate(plain):
        assert ch in fold_map(source[starts[i]:ends[i]], script=False)[0]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["資料庫", "後臺", "數據結構", "⻚⾯", "ＧｉｔＬａｂ", "﻿ﬁle", "。",
                                 "，", " ", "說話", "İstanbul", "e\u0301cole"]), min_size=1, max_size=12),
       st.data())
def test_highlights_of_folded_terms_map_back_to_original_words(
        words: list[str], data: st.DataObject) -> None:
    """A Simplified (folded) query term lights up exactly the source characters it stands for."""
    source = " ".join(words)  # Latin terms match whole words only ("go" ≠ "google")
    word = data.draw(st.sampled_from(words))
    term = fold(word).strip(" 。，")
    if not term or not any(ch.isalnum() for ch in term):
        return
    sn = make_snippet(source, 0, len(source), [term], max_chars=len(source) + 1)
    assert source[sn.start:sn.end] == sn.text
    assert sn.highlights, (source, term)
    for a, b in sn.highlights:
        # A highlight may merge neighbouring hits, so it folds to ≥1 copies of the term.
        assert term in fold(source[a:b])
        assert fold(source[a:b]).replace(term, "").strip() == ""


def test_snippet_highlights_traditional_source_for_simplified_query() -> None:
    source = "本系統的資料庫在後臺運行。其他內容。"
    sn = make_snippet(source, 0, len(source), query_terms("数据库 资料库 后台"))
    assert [source[a:b] for a, b in sn.highlights] == ["資料庫", "後臺"]


def test_signature_names_the_converter() -> None:
    assert "opencc" in fold_signature() and "t2s" in fold_signature()


def test_search_finds_other_script_with_highlights(data_dir: Path) -> None:
    from desktop_kb.library import Library

    with Library(data_dir, load_model=False) as lib:
        if lib.startup_rebuild is not None:
            lib.startup_rebuild.result()
        trad = lib.add_note("臺灣的資料庫課程", "這門課講解關聯式資料庫與數據結構，並在後臺部署。")
        simp = lib.add_note("简体笔记", "我们在软件开发中使用数据结构与资料库。")
        radical = lib.add_note("PDF 摘录", "第⼀章 ⾥程碑与⻚⾯设计")
        lib.drain()
        hits = lib.search("关联式资料库", mode="lexical").results
        assert hits and hits[0].source_id == trad
        source = lib.get_note(trad).body
        assert any("資料庫" in source[a:b] for a, b in hits[0].highlights)
        back = lib.search("軟件開發", mode="lexical").results
        assert back and back[0].source_id == simp
        pdf = lib.search("里程碑 页面", mode="lexical").results
        assert pdf and pdf[0].source_id == radical
        body = lib.get_note(radical).body
        assert {body[a:b] for a, b in pdf[0].highlights} >= {"⾥程碑", "⻚⾯"}


def test_the_embedding_model_reads_one_script_and_shares_the_cache() -> None:
    """A Traditional chunk is embedded as its Simplified spelling (case and width kept),
    so it shares the embedding cache with that spelling; Simplified text keeps its hash."""
    from desktop_kb.index.prepare import embed_text_of, prepare_source
    from desktop_kb.index.sources import SourceText, text_hash

    assert embed_text_of("用 Docker 備份資料庫", "") == "用 Docker 备份资料库"
    assert embed_text_of("", "軟體") == "软体"
    trad = prepare_source(SourceText("note", 1, "", "這個軟體會自動備份資料庫。", "md")).chunks[0]
    simp = prepare_source(SourceText("note", 2, "", "这个软体会自动备份资料库。", "md")).chunks[0]
    assert trad.embed_hash == simp.embed_hash == text_hash("这个软体会自动备份资料库。")
    assert simp.embed_hash == simp.text_hash



def _fold_map_per_cluster(source: str) -> tuple[str, list[int], list[int]]:
    """The definition: every base character with its combining marks folded on its own."""
    from desktop_kb.text.fold import _fold_chars

    pieces: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    i = 0
    while i < len(source):
        j = i + 1
        while j < len(source) and unicodedata.combining(source[j]):
            j += 1
        folded = _fold_chars(source[i:j])
        pieces.append(folded)
        starts.extend([i] * len(folded))
        ends.extend([j] * len(folded))
        i = j
    return to_simplified("".join(pieces)), starts, ends


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=TRADITIONAL + RADICALS + TRICKY + COMBINING
               + "ΣΟΔσςﬁＧｉ한\u1100\u1161\u11a8A\u030a。 abc", max_size=50))
def test_fold_map_fast_path_equals_folding_each_cluster(source: str) -> None:
    """The translate-table path must give what folding cluster by cluster gives, including
    final sigma (whole-string lower() would make ς), ligatures, jamo and marks."""
    assert fold_map(source) == _fold_map_per_cluster(source)
    assert fold_map(source) == fold_map(source)  # the table, once filled, answers the same
