"""Which stored fragment a re-imported passage is: kept where it is recognisably the same,
never guessed where it is not (links must not jump to another passage)."""

from __future__ import annotations

from dataclasses import dataclass

from desktop_kb.importer.formats import split_document
from desktop_kb.store.fragment_identity import match_fragments, similarity


@dataclass(frozen=True)
class Old:
    id: int
    heading_path: str
    text: str


@dataclass(frozen=True)
class New:
    heading_path: str
    text: str


# Fragments as (heading path, text): the splitter's granularity (paragraphs,
# packed sections) is the formats' business; identity works on any of them.
BOOK = [
    ("Docker 入门 > 安装", "在 Ubuntu 上安装 Docker 之前，先更新软件源。"),
    ("Docker 入门 > 安装", "然后运行 apt install docker-ce，安装完成后启动服务。"),
    ("Docker 入门 > 配置", "配置文件位于 /etc/docker/daemon.json，修改后需要重启。"),
    ("Docker 入门 > Troubleshooting", "If the daemon does not start, check the logs with journalctl -u docker."),
]


def _old(fragments: list[tuple[str, str]]) -> list[Old]:
    return [Old(100 + i, h, t) for i, (h, t) in enumerate(fragments)]


def _ids(old: list[Old], fragments: list[tuple[str, str]]) -> tuple[dict[str, int | None], list[int]]:
    """new fragment text -> kept id (None: a new fragment); and the removed ids."""
    match = match_fragments(old, [New(h, t) for h, t in fragments])
    return {t: match.keep.get(i) for i, (_h, t) in enumerate(fragments)}, match.removed


def by_text(old: list[Old], needle: str) -> int:
    return next(o.id for o in old if needle in o.text)


def edit(fragments: list[tuple[str, str]], old: str, new: str) -> list[tuple[str, str]]:
    return [(h, t.replace(old, new)) for h, t in fragments]


def test_a_typo_fix_keeps_the_passage() -> None:
    old = _old(BOOK)
    kept, removed = _ids(old, edit(BOOK, "先更新软件源", "先更新一下软件源"))
    assert kept[next(t for t in kept if "先更新一下" in t)] == by_text(old, "先更新软件源")
    assert removed == [] and None not in kept.values()


def test_inserting_a_passage_keeps_every_other_one() -> None:
    old = _old(BOOK)
    inserted = [*BOOK[:2], ("Docker 入门 > 配置", "新增：Windows 用户请使用 Docker Desktop。"), *BOOK[2:]]
    kept, removed = _ids(old, inserted)
    assert removed == []
    assert kept["新增：Windows 用户请使用 Docker Desktop。"] is None
    assert sorted(v for v in kept.values() if v is not None) == sorted(o.id for o in old)


def test_moved_passages_and_renamed_headings_keep_their_ids() -> None:
    old = _old(BOOK)
    renamed = [(h.replace("配置", "设置"), t) for h, t in BOOK]
    kept, removed = _ids(old, renamed)
    assert removed == [] and list(kept.values()) == [o.id for o in old]
    reordered = [BOOK[3], BOOK[2], BOOK[0], BOOK[1]]
    kept, removed = _ids(old, reordered)
    assert removed == [] and all(kept[t] == by_text(old, t) for _h, t in reordered)


def test_a_deleted_passage_goes_and_nothing_else_takes_its_id() -> None:
    old = _old(BOOK)
    kept, removed = _ids(old, [BOOK[0], BOOK[2], BOOK[3]])
    assert removed == [by_text(old, "apt install")]
    assert by_text(old, "apt install") not in kept.values()


def test_a_rewrite_in_place_keeps_the_id_but_an_ambiguous_rewrite_does_not() -> None:
    old = _old(BOOK)
    config = by_text(old, "daemon.json")
    new_text = "All settings now live in a TOML file you edit from the GUI."
    rewritten = [BOOK[0], BOOK[1], ("Docker 入门 > 配置", new_text), BOOK[3]]
    kept, removed = _ids(old, rewritten)
    assert kept[new_text] == config and removed == []
    # Rewritten *and* a second new passage under the same heading: which one is
    # "the old one" would be a guess, so neither takes its id; the link is listed.
    ambiguous = [*rewritten[:3], ("Docker 入门 > 配置", "A second, unrelated paragraph about networks."),
                 BOOK[3]]
    kept, removed = _ids(old, ambiguous)
    assert removed == [config] and config not in kept.values()


def test_identical_passages_under_two_headings_keep_their_own_ids() -> None:
    doc = [("书 > 甲", "同样的一句话。"), ("书 > 乙", "同样的一句话。")]
    old = _old(doc)
    new = [("书 > 乙", "同样的一句话。"), ("书 > 甲", "开头新增。"), ("书 > 甲", "同样的一句话。")]
    match = match_fragments(old, [New(h, t) for h, t in new])
    assert match.keep[0] == old[1].id and match.keep[2] == old[0].id and 1 not in match.keep


def test_real_split_fragments_follow_an_edited_section() -> None:
    """Through the real splitter (whatever its granularity): an edit keeps every id."""
    md = "# 书\n\n## 安装\n\n先更新软件源。\n\n## 配置\n\n配置文件在 /etc 下面。\n"
    first = split_document(md, "md", "doc.md").fragments
    old = [Old(100 + i, f.heading_path, f.text) for i, f in enumerate(first)]
    second = split_document(md.replace("先更新软件源", "先更新一下软件源"), "md", "doc.md").fragments
    match = match_fragments(old, second)
    assert match.removed == [] and sorted(match.keep.values()) == [o.id for o in old]


def test_similarity_handles_chinese_english_and_empty() -> None:
    assert similarity("安装 Docker", "安装 Docker") == 1.0
    assert similarity("", "") == 1.0
    assert similarity("完全不同的内容", "something else entirely") == 0.0
    assert 0.5 < similarity("先更新软件源再安装", "先更新一下软件源再安装") < 1.0


def test_a_large_rewrite_stays_linear_and_keeps_unchanged_passages() -> None:
    paras = [("大书", f"第 {i} 段：关于主题 {i % 17} 的说明，编号 {i}。") for i in range(3000)]
    old = _old(paras)
    changed = [("大书", f"完全重写的第 {i} 段 rewritten {i}") if i % 3 == 0 else p
               for i, p in enumerate(paras)]
    kept, _removed = _ids(old, changed)
    assert all(kept[t] == by_text(old, t) for _h, t in changed if t.startswith("第 "))
