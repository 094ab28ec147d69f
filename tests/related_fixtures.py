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

#: Twenty notes of a learner's new library, on twenty subjects: beside the Chinese welcome note
#: (keywords only) five of them were offered it, for 停止/Ctrl, 搜索/Ctrl, 状态, 文件, 资料/电脑.
LEARNER_NOTES_ZH = [
    ("Docker 常用命令", "docker ps 查看容器，docker stop 停止容器。在终端里按 Ctrl+C 也能停止前台运行的容器。#docker"),
    ("Rust 所有权", "每个值都有一个所有者。所有者离开作用域时值被丢弃。可以用引用借用值而不获取所有权。#rust"),
    ("周末计划", "周六去图书馆借书，周日整理笔记，把上周的资料导入到电脑里，复习 Docker。"),
    ("Git 分支", "git branch 新建分支，git switch 切换分支，git merge 合并。冲突时先看 git status。"),
    ("英语单词 第三周", "abandon 放弃, ability 能力, absorb 吸收, abstract 抽象的。每天复习二十个。"),
    ("Python 列表推导式", "[x * 2 for x in items if x > 0] 比 for 循环更简洁。字典推导式也类似。"),
    ("读《人类简史》", "认知革命让智人能够讲述虚构的故事，从而大规模合作。农业革命是史上最大的骗局？"),
    ("SQL 连接", "INNER JOIN 只保留两表都有的行；LEFT JOIN 保留左表所有行，右表没有的填 NULL。"),
    ("Linux 权限", "chmod 755 给所有者读写执行，其他人读和执行。chown 改变文件所有者。"),
    ("线性代数 特征值", "矩阵 A 的特征向量 v 满足 Av = λv。特征值是特征多项式的根。"),
    ("健身记录", "周一胸和三头，周三背和二头，周五腿。深蹲 60 公斤 5 组。"),
    ("HTTP 状态码", "200 成功，301 永久重定向，404 未找到，500 服务器内部错误，503 服务不可用。"),
    ("正则表达式", "\\d 匹配数字，\\w 匹配字母数字下划线，+ 一次或多次，? 零次或一次，贪婪与非贪婪。"),
    ("Vim 快捷键", "dd 删除一行，yy 复制，p 粘贴，u 撤销，Ctrl+R 重做，/ 搜索。"),
    ("机器学习 过拟合", "训练集上误差很小但测试集误差大就是过拟合。正则化、更多数据、早停可以缓解。"),
    ("React hooks", "useState 保存组件状态，useEffect 处理副作用，依赖数组决定何时重新运行。"),
    ("TCP 三次握手", "客户端发 SYN，服务器回 SYN+ACK，客户端再发 ACK，连接建立。四次挥手断开连接。"),
    ("日语五十音", "あいうえお かきくけこ さしすせそ。平假名和片假名要一起记。"),
    ("Kubernetes Pod", "Pod 是最小的调度单位，一个 Pod 里可以有多个容器，共享网络和存储卷。"),
    ("番茄工作法", "专注 25 分钟，休息 5 分钟，每四个番茄钟长休息一次。适合复习和写作。"),
]
