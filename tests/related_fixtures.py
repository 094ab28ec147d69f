"""A library whose passages share a long note's rare words only by chance.

Twenty made-up words, each in twelve of 300 passages spread by arithmetic, so about one
passage in five holds two of them with nothing else in common; one more passage is about
them all (it holds eight). A long note that lists all twenty shares two words with dozens of
passages — what the welcome note did with the Rust book ("ctrl" and "标签" in a passage on
loops) — and only the one passage shares what the note is about.
"""

from __future__ import annotations

from pathlib import Path

RARE = ["Quorvex", "Blintham", "Zeltrap", "Mervane", "Dostrel", "Fannick", "Gorblin", "Hestovar",
        "Jiplock", "Korventa", "Lumbrake", "Nostrav", "Pendrill", "Qualtorn", "Rivvet", "Sarnobel",
        "Tibbrook", "Ulvanter", "Wexmoor", "Yarrowind"]
PASSAGES = 300
PER_WORD = 12
ABOUT = "About them all"  # the heading of the one passage that shares eight of the words


def scattered_words_book(folder: Path) -> Path:
    """One Markdown file: 300 short sections plus the one about the words."""
    holds: dict[int, list[str]] = {}
    for i, word in enumerate(RARE):
        for j in range(PER_WORD):
            holds.setdefault((i * 7 + j * 23) % PASSAGES, []).append(word)
    parts = ["# Scattered words\n"]
    for p in range(PASSAGES):
        words = " ".join(holds.get(p, []))
        parts.append(f"## Section {p}\n\nSection {p} counts parcel {p * 13 % 97} twice. {words}\n")
    parts.append(f"## {ABOUT}\n\n" + ", ".join(RARE[:8]) + " belong together in one list.\n")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "scattered.md"
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


def long_note() -> tuple[str, str]:
    """A note that names all twenty words, as the person wrote them."""
    return "Word list", "Today I wrote down " + ", ".join(RARE) + "."


#: The Chinese welcome note's text (``ui/welcome.py`` in zh_CN): a long note about the app that
#: shares a word or two with almost any note.
WELCOME_ZH = (
    "所有内容都保存在这台电脑上。可以用中文、英文或中英混写 — mixing languages works too.\n\n## 三个窗格\n\n"
    "1. 笔记 — 就是这个编辑器。停止输入约一秒后自动保存；按 Ctrl+S 立即保存。\n"
    "2. 学习库问答（视图菜单，Ctrl+Shift+A）— 就你的笔记和导入的资料提问，答案附带编号引用；"
    "除非你开启云端回答并确认发送内容，否则什么都不会离开这台电脑。\n"
    "3. 相关资料 — 在编辑器旁：推荐相关的笔记和片段并说明理由；只有你点击 ✓ 后才会建立链接。\n\n## 试试看\n\n"
    "- Ctrl+K 边输入边搜索全部内容；按 Enter 打开结果并高亮显示。\n"
    "- 输入 [[ 即可链接到另一篇笔记（Ctrl+单击可跳转）；写 #标签 可在标签窗格中归类笔记。\n"
    "- 文件 → 导入文件夹…（或把文件拖到窗口上）可导入 Markdown 和文本、PDF、Word、EPUB、保存的网页和源代码。\n"
    "- 锁形按钮可把笔记标记为仅限本地：它永远不会离开这台电脑。\n"
    "- 状态栏显示搜索索引是否为最新；点击它查看详情。\n")
