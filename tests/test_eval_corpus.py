"""`eval --corpus`: the same questions on the same passages imported from another format."""

from __future__ import annotations

import json
from pathlib import Path

from doc_fixtures import write_docx

from desktop_kb.evaluation import PassageLabeller, run_eval

PASSAGES = [
    "臺灣大學位於臺北市大安區，是臺灣第一所大學，前身為臺北帝國大學。",
    "Rust 的所有权系统让编译器在编译时检查内存安全，无需垃圾回收器。",
    "The Yangtze is the longest river in Asia and the third-longest in the world.",
    "光合作用是植物利用光能把二氧化碳和水转化为有机物并释放氧气的过程。",
]
QUESTIONS = [("臺灣第一所大學的前身是什麼？", 0), ("Rust 如何在编译时保证内存安全？", 1),
             ("Which is the longest river in Asia?", 2), ("光合作用释放什么气体？", 3)]


def squad(path: Path) -> Path:
    paras = [{"context": p, "qas": [{"id": str(i), "question": q, "answers": [{"text": p[:4]}]}
                                    for i, (q, gold) in enumerate(QUESTIONS) if gold == n]}
             for n, p in enumerate(PASSAGES)]
    path.write_text(json.dumps({"data": [{"title": "t", "paragraphs": paras}]}, ensure_ascii=False),
                    encoding="utf-8")
    return path


def test_labeller_matches_reflowed_and_straddling_text() -> None:
    labeller = PassageLabeller(PASSAGES)
    assert labeller.label("Rust 的所有权系统让编译器\n在编译时检查内存安全") == (1,)
    both = PASSAGES[2][-20:] + "\n\n" + PASSAGES[3]
    assert labeller.label(both) == (3, 2)  # mostly the fourth, partly the third
    assert labeller.label("completely unrelated words here") == ()


def test_eval_an_imported_word_file(tmp_path: Path) -> None:
    questions = squad(tmp_path / "set.json")
    items = [item for i, p in enumerate(PASSAGES) for item in (("h2", f"Part {i}"), ("p", p))]
    doc = write_docx(tmp_path / "book.docx", items)
    result = run_eval(questions, corpus=doc, model="none", data_dir=tmp_path / "lib")
    assert result["corpus"]["documents"] == 1 and result["corpus"]["unlabelled_fragments"] == 0
    assert result["lexical"]["r1"] == 1.0 and result["n_queries"] == 4
    assert {"lexical", "dense", "hybrid", "plain_rrf", "timing"} <= set(result)  # keys kept
