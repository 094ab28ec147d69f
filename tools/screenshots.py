"""Render the main screens in English and Chinese into docs/screenshots/.

    make screenshots            # xvfb-run if available, else offscreen
    python tools/screenshots.py [--out docs/screenshots] [--size 1280x800] [--also 1920x1080]

Builds a demo library in a temp folder per language (so the welcome note is
in that language), opens the real windows and grabs them. Pop-ups are
separate top-level windows, so each is painted onto the window's grab at its
position, over a light dimming, the way a person sees it.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QPoint, QRect, Qt  # noqa: E402
from PySide6.QtGui import QColor, QFont, QFontDatabase, QPainter, QPixmap  # noqa: E402
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

CJK_FAMILIES = ("Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Micro Hei",
                "Microsoft YaHei", "PingFang SC")

DEMO_NOTES = [
    ("Docker 部署 GitLab", """# 用 Docker 安装 GitLab

先准备 `docker-compose.yml`，再启动：

```sh
docker compose up -d
```

## 注意事项

- 第一次启动需要几分钟，**耐心等待** health check 通过。
- 备份：`gitlab-backup create`，每天一次。
- Runner 用 *shared* 模式，标签写 `docker`。

> 参考：官方文档的 Omnibus 安装一节。复习方法见 [[Spaced repetition 间隔重复]]。

#运维/docker #gitlab
"""),
    ("Spaced repetition 间隔重复", """# Spaced repetition

Review just before you forget: 1 day, 3 days, 1 week, 1 month.

间隔重复的关键是**主动回忆**，而不是重读。每次复习后把间隔拉长。

- Anki-style cards work for vocabulary 词汇.
- For concepts, write the explanation in your own words 用自己的话解释.

See also [[Python 装饰器笔记|decorators]] and [[SQLite WAL mode#WAL mode]]; next: [[费曼技巧]].

#学习/方法 #review
"""),
    ("Python 装饰器笔记", """# Decorators 装饰器

A decorator takes a function and returns a new one.

```python
def logged(fn):
    def wrapper(*args):
        print(fn.__name__, args)
        return fn(*args)
    return wrapper
```

常见用途：缓存 (`functools.cache`)、权限检查、计时。

#python #学习/编程
"""),
    ("SQLite WAL mode", """# WAL mode

Readers do not block writers and writers do not block readers.
WAL 模式下读写互不阻塞；检查点 (checkpoint) 把 WAL 合并回主库。
"""),
]

DEMO_FILES = {
    "kubernetes/集群入门.md": """# Kubernetes 集群入门

## Pod 与 Deployment

Pod 是最小的调度单位；Deployment 管理副本数量和滚动更新。

## Service

Service 为一组 Pod 提供稳定的访问地址。用 Docker 构建镜像后推送到仓库。
""",
    "kubernetes/kubectl-cheatsheet.md": """# kubectl cheatsheet

## Inspect

kubectl get pods -A shows every pod. kubectl describe pod NAME explains why a pod is pending.

## Logs

kubectl logs -f deploy/web follows the logs of a deployment.
""",
    "reading/learning-how-to-learn.txt": """Learning how to learn.

Focused and diffuse modes: switch between concentrated work and rest.

费曼技巧：用简单的话把概念讲给别人听，讲不清楚的地方就是没懂的地方。
""",
    "config/settings.yaml": "database:\n  path: library.sqlite\n  wal: true\nsearch:\n  limit: 20\n",
}


def wait_until(predicate: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("the window did not reach the expected state")
        QCoreApplication.processEvents()
        time.sleep(0.01)
    for _ in range(5):
        QCoreApplication.processEvents()


def settle(seconds: float = 0.3) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        QCoreApplication.processEvents()
        time.sleep(0.01)


def pick_font(app: QApplication) -> str:
    families = set(QFontDatabase.families())
    for family in CJK_FAMILIES:
        if family in families:
            font = QFont(family, 10)
            app.setFont(font)
            return family
    print("warning: no CJK font found; Chinese may render as boxes "
          "(install fonts-noto-cjk)", file=sys.stderr)
    return app.font().family()


def build_demo(data_dir: Path, files_dir: Path) -> None:
    from desktop_kb.library import Library

    for rel, text in DEMO_FILES.items():
        path = files_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    with Library(data_dir) as library:
        for title, body in DEMO_NOTES:
            library.add_note(title, body)
        from screenshots_reader import write_demo_pdf

        write_demo_pdf(files_dir / "数学")
        library.import_paths([files_dir])
        docs = library.list_documents()
        local = next(d for d in docs if d.path.endswith("settings.yaml"))
        library.set_document_local_only(local.id, True)
        notes = library.list_notes()
        library.set_note_local_only(next(n.id for n in notes if n.title.startswith("SQLite")), True)
        library.drain()


def compose(window: QWidget, popup: QWidget | None) -> QPixmap:
    shot = window.grab()
    if popup is None or not popup.isVisible():
        return shot
    painter = QPainter(shot)
    painter.fillRect(shot.rect(), QColor(0, 0, 0, 40))
    offset = popup.frameGeometry().topLeft() - window.frameGeometry().topLeft()
    top_left = QPoint(max(0, offset.x()), max(0, offset.y()))
    inner = popup.grab()
    frame = QRect(top_left, inner.size()).adjusted(-1, -1, 1, 1)
    painter.fillRect(frame.adjusted(2, 3, 4, 5), QColor(0, 0, 0, 60))  # a soft shadow
    painter.setPen(QColor("#9aa4b0"))
    painter.drawRect(frame)
    painter.drawPixmap(top_left, inner)
    painter.end()
    return shot


def center(popup: QWidget, window: QWidget, top: int | None = None) -> None:
    geo = window.frameGeometry()
    size = popup.size()
    y = geo.y() + (top if top is not None else (geo.height() - size.height()) // 2)
    popup.move(geo.x() + (geo.width() - size.width()) // 2, y)


def shoot_language(language: str, out: Path, sizes: list[tuple[int, int]], tmp: Path) -> list[Path]:
    from desktop_kb.ui import i18n
    from desktop_kb.ui.main_window import MainWindow

    i18n.install_language(language)
    data_dir = tmp / f"library-{language}"
    build_demo(data_dir, tmp / f"study-{language}")
    written: list[Path] = []
    window = MainWindow(data_dir, language_choice=language)
    width, height = sizes[0]
    window.resize(width, height)
    window.move(0, 0)
    window.show()
    wait_until(lambda: window.library is not None)
    wait_until(lambda: window.index.last_status is not None and window.index.last_status.state == "ok")
    window.splitter.setSizes([int(width * 0.27), width - int(width * 0.27)])
    window.left.setSizes([int(height * 0.45), int(height * 0.2), int(height * 0.3)])
    note_row = next(r for r in window.note_list.model._rows if r.title.startswith("Docker"))
    window.notes.open_note(note_row.id)
    wait_until(lambda: window.editor.note_id == note_row.id)
    settle()

    def save(name: str, pixmap: QPixmap) -> None:
        path = out / f"{name}_{language}.png"
        pixmap.save(str(path))
        written.append(path)

    wait_until(window.meaning.offer.isVisible)
    settle()
    save("first_run", compose(window, None))  # the meaning-search offer, once
    window.meaning.not_now()
    settle()
    save("note", compose(window, None))
    for w, h in sizes[1:]:
        window.resize(w, h)
        window.splitter.setSizes([int(w * 0.25), w - int(w * 0.25)])
        settle()
        save(f"note_{w}x{h}", compose(window, None))
        window.resize(width, height)
        window.splitter.setSizes([int(width * 0.27), width - int(width * 0.27)])
        settle()

    # Related-material panel: suggestions with their reasons; one accepted, so a link shows too.
    panel = window.related_panel
    wait_until(lambda: panel.view is not None and panel.view.note_id == note_row.id and panel.cards)
    window.resizeDocks([window.related_dock], [340], Qt.Orientation.Horizontal)
    panel.cards[0].accept_button.click()
    wait_until(lambda: bool(panel.link_rows))
    settle()
    save("related", compose(window, None))

    window.global_search.open_search_text("docker 安装")
    wait_until(lambda: len(window.search.results) >= 2)
    center(window.search, window, top=70)
    settle()
    save("search", compose(window, window.search))
    window.search.hide()

    window.index_status.show_index_status()
    window.index_status.verify_index()
    wait_until(lambda: window.status_popup.report is not None)
    center(window.status_popup, window)
    settle()
    save("index_status", compose(window, window.status_popup))
    window.status_popup.hide()

    window.settings.open_settings()
    dialog = window.settings.dialog
    assert dialog is not None
    wait_until(lambda: dialog.snapshot is not None)
    center(dialog, window)
    settle()
    save("settings", compose(window, dialog))
    dialog.tabs.setCurrentIndex(3)
    settle()
    save("settings_provider", compose(window, dialog))
    dialog.close()
    from screenshots_qa import shoot_qa
    from screenshots_reader import shoot_reader

    shoot_reader(window, language, save, compose, center, wait_until, settle)
    shoot_qa(window, language, save, compose, center, wait_until, settle)
    from screenshots_notes import shoot_notes

    shoot_notes(window, language, save, compose, center, wait_until, settle)
    window.close()
    settle(0.1)
    return written


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--size", default="1280x800")
    parser.add_argument("--also", default="1920x1080", help="extra sizes to check, comma-separated")
    parser.add_argument("--languages", default="en,zh_CN")
    args = parser.parse_args()
    sizes = [tuple(int(v) for v in args.size.split("x"))]
    sizes += [tuple(int(v) for v in s.split("x")) for s in args.also.split(",") if s]
    app = QApplication.instance() or QApplication(sys.argv[:1])
    family = pick_font(app)
    args.out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="desktop-kb-shots-") as tmp:
        for language in args.languages.split(","):
            written += shoot_language(language, args.out, sizes, Path(tmp))  # type: ignore[arg-type]
    print(f"font: {family}; platform: {app.platformName()}")
    for path in written:
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
