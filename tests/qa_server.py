"""A real HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions SSE format.

Each request takes the next scripted reply; every request body is recorded.
A "stall" reply sends the headers and then blocks on an event (released when
the server stops), which is how a provider that stops answering looks; a
"forever" reply streams the same delta until the client hangs up, which is
how a small model repeating its prompt looks.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def sse_chunk(content: str, finish: str | None = None) -> str:
    return "data: " + json.dumps({"id": "x", "object": "chat.completion.chunk",
                                  "choices": [{"index": 0, "delta": {"content": content},
                                               "finish_reason": finish}]}, ensure_ascii=False)


@dataclass
class Reply:
    status: int = 200
    lines: list[str] = field(default_factory=list)  # SSE lines (without the blank separators)
    headers: dict[str, str] = field(default_factory=dict)
    stall: bool = False  # after sending ``lines``, block until the server stops
    body: str = ""  # for error statuses
    hang: bool = False  # block before sending even the status line
    forever: str = ""  # after ``lines``, send this delta again and again until the client hangs up
    flood: bytes = b""  # after ``lines`` (or an error's status line), these bytes again and again
    flood_limit: int = 64 << 20  # ...until the client hangs up or this many were sent
    separator: str = "\n\n"  # after each SSE line ("\r\n\r\n" and "\r\r" are SSE too)
    keepalive: float = 0.0  # after ``lines``, SSE comments for this many seconds (or until hung up)

    @classmethod
    def stream(cls, *parts: str) -> Reply:
        return cls(lines=[sse_chunk(p) for p in parts] + [sse_chunk("", "stop"), "data: [DONE]"])


class ChatServer:
    def __init__(self) -> None:
        self.replies: list[Reply] = []
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.release = threading.Event()
        self.stalled = threading.Event()  # set when a stalled reply is waiting
        self.first_chunk_sent = threading.Event()
        self.on_request: Callable[[int], None] | None = None  # called with the request's number, before replying
        self.chunks_sent = 0
        self.bytes_flooded = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_args: object) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length", "0"))
                raw = self.rfile.read(length)
                server.requests.append(json.loads(raw.decode("utf-8")))
                server.headers.append({k.lower(): v for k, v in self.headers.items()})
                if server.on_request is not None:
                    server.on_request(len(server.requests))
                reply = server.replies.pop(0) if server.replies else Reply.stream("(no reply scripted)")
                if reply.hang:
                    server.stalled.set()
                    server.release.wait(30)
                    return
                if reply.status != 200 and reply.flood:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Connection", "close")
                    self.end_headers()
                    self._flood(reply)
                    return
                if reply.status != 200:
                    body = (reply.body or json.dumps({"error": {"message": f"status {reply.status}"}})).encode()
                    self.send_response(reply.status)
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                try:
                    for line in reply.lines:
                        self.wfile.write((line + reply.separator).encode("utf-8"))
                        self.wfile.flush()
                        server.first_chunk_sent.set()
                    while reply.forever and not server.release.is_set():
                        self.wfile.write((sse_chunk(reply.forever) + "\n\n").encode("utf-8"))
                        self.wfile.flush()
                        server.chunks_sent += 1
                    if reply.flood:
                        self._flood(reply)
                    until = time.monotonic() + reply.keepalive
                    while time.monotonic() < until and not server.release.is_set():
                        self.wfile.write(b": keep-alive\n\n")
                        self.wfile.flush()
                        server.chunks_sent += 1
                        server.release.wait(0.02)
                    if reply.stall:
                        server.stalled.set()
                        server.release.wait(30)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                self.close_connection = True

            def _flood(self, reply: Reply) -> None:
                try:
                    while server.bytes_flooded < reply.flood_limit and not server.release.is_set():
                        self.wfile.write(reply.flood)
                        server.bytes_flooded += len(reply.flood)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                self.close_connection = True

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> ChatServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()
