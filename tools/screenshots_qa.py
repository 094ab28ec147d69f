"""Screenshots of the QA pane (imported by tools/screenshots.py).

A tiny OpenAI-compatible server on 127.0.0.1 streams a canned answer, so the
shots show the real pipeline: local answer, gate 1's preview with the exact
payload, a streamed answer with [n] citations, and Settings → Privacy with the
upload log.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from PySide6.QtCore import Qt

ANSWERS = {
    "en": ["Prepare ", "docker-compose.yml first, then run ", "`docker compose up -d` [1]. ",
           "The first start takes a few minutes; wait for the health check [1]. ",
           "Back up daily with `gitlab-backup create` [1]."],
    "zh_CN": ["先准备 ", "docker-compose.yml，再运行 ", "docker compose up -d[1]。",
              "第一次启动需要几分钟，耐心等待 health check 通过[1]。", "每天用 gitlab-backup create 备份[1]。"],
}
QUESTIONS = {
    "en": ("How do I read a deployment's logs with kubectl?", "How do I install GitLab with Docker?"),
    "zh_CN": ("kubectl 怎么查看日志？", "怎么用 Docker 安装 GitLab？"),
}


class _DemoServer:
    def __init__(self, parts: list[str]) -> None:
        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_a: object) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                for part in parts:
                    chunk = {"choices": [{"index": 0, "delta": {"content": part}}]}
                    self.wfile.write(f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n".encode())
                self.wfile.write(b"data: [DONE]\n\n")

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True).start()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def shoot_qa(window: Any, language: str, save: Callable[[str, Any], None], compose: Callable[..., Any],
             center: Callable[..., None], wait_until: Callable[..., None], settle: Callable[..., None]) -> None:
    server = _DemoServer(ANSWERS.get(language, ANSWERS["en"]))
    try:
        library, dock = window.library, window.qa_dock
        pane = dock.pane
        dock.show()
        window.resizeDocks([dock], [430], Qt.Orientation.Horizontal)
        local_q, cloud_q = QUESTIONS.get(language, QUESTIONS["en"])
        answers: list[Any] = []
        pane.answerShown.connect(answers.append)
        pane.question.setText(local_q)
        pane.ask()
        wait_until(lambda: len(answers) == 1)
        library.set_setting("qa.cloud_enabled", True)
        library.set_setting("qa.provider.base_url", server.base_url)
        library.set_setting("qa.provider.model", "qwen2.5:7b")
        previews: list[Any] = []
        pane.previewShown.connect(previews.append)
        pane.question.setText(cloud_q)
        pane.ask()
        wait_until(lambda: bool(previews))
        dialog = previews[0]
        dialog.resize(760, 620)
        center(dialog, window)
        settle()
        save("qa_preview", compose(window, dialog))
        dialog.send_session.click()
        wait_until(lambda: len(answers) == 2)
        settle()
        save("qa", compose(window, None))
        window.settings.open_settings()
        settings = window.settings.dialog
        wait_until(lambda: settings.snapshot is not None and settings.privacy.rows)
        settings.tabs.setCurrentWidget(settings.privacy)
        settings.resize(820, 480)
        center(settings, window)
        settle()
        save("settings_privacy", compose(window, settings))
        settings.close()
        dock.hide()
    finally:
        server.close()
