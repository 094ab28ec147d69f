"""OpenAI-compatible chat completions with SSE streaming over httpx.

One client covers OpenAI, DeepSeek, Qwen (DashScope compatible mode),
Moonshot, Ollama and LM Studio; presets only fill in a base URL and a model.
The caller gets text deltas through a callback and can cancel from another
thread. 429 and 5xx are retried with backoff before any text arrived; after
the first delta a failure ends the answer (a half answer is never repeated).
Every attempt is announced through ``on_attempt`` *before* it is sent, which
is where the upload log is written (I8).
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpcore
import httpx

from desktop_kb.qa.scrub import scrub_secrets


@dataclass(frozen=True)
class Preset:
    id: str
    label: str
    base_url: str
    model: str
    needs_key: bool = True


PRESETS: tuple[Preset, ...] = (
    Preset("openai", "OpenAI", "https://api.openai.com/v1", "gpt-4o-mini"),
    Preset("deepseek", "DeepSeek", "https://api.deepseek.com/v1", "deepseek-chat"),
    Preset("qwen", "Qwen (DashScope)", "https://dashscope.aliyuncs.com/compatible-mode/v1", "qwen-plus"),
    Preset("moonshot", "Moonshot", "https://api.moonshot.cn/v1", "moonshot-v1-8k"),
    Preset("ollama", "Ollama", "http://127.0.0.1:11434/v1", "qwen2.5:7b", needs_key=False),
    Preset("lmstudio", "LM Studio", "http://127.0.0.1:1234/v1", "local-model", needs_key=False),
)


def preset(preset_id: str) -> Preset:
    for p in PRESETS:
        if p.id == preset_id:
            return p
    raise LookupError(f"Unknown provider preset {preset_id!r}; choose one of "
                      f"{', '.join(p.id for p in PRESETS)}.")


def host_of(base_url: str) -> str:
    parts = urlsplit(base_url)
    return parts.netloc or parts.path


def is_loopback(base_url: str) -> bool:
    host = (urlsplit(base_url).hostname or "").lower()
    return host in ("localhost", "::1") or host.startswith("127.")


class ProviderError(Exception):
    """A failure the person can read. ``kind``: offline, timeout, auth, rate_limited, http, protocol."""

    def __init__(self, kind: str, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.status = status


class Cancelled(Exception):
    pass


@dataclass
class ProviderConfig:
    base_url: str
    model: str
    api_key: str | None = None
    connect_timeout: float = 10.0
    read_timeout: float = 60.0
    retries: int = 2
    backoff: float = 1.0  # seconds; doubled per retry, Retry-After wins when given (capped)
    max_backoff: float = 20.0

    @property
    def host(self) -> str:
        return host_of(self.base_url)

    @property
    def url(self) -> str:
        return self.base_url.rstrip("/") + "/chat/completions"


@dataclass
class StreamResult:
    text: str
    attempts: int
    malformed_chunks: int = 0
    finish_reason: str | None = None
    first_token_s: float | None = None
    total_s: float = 0.0
    statuses: list[int] = field(default_factory=list)


class CancelToken:
    """Set from any thread; shuts the live sockets down so a blocked read returns at once."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._lock = threading.Lock()
        self._response: httpx.Response | None = None
        self._sockets: list[socket.socket] = []

    def track(self, sock: socket.socket | None) -> None:
        if sock is None:
            return
        with self._lock:
            self._sockets.append(sock)
        if self.cancelled:
            self._shutdown([sock])

    @staticmethod
    def _shutdown(sockets: list[socket.socket]) -> None:
        for sock in sockets:
            with contextlib.suppress(OSError):  # already closed
                sock.shutdown(socket.SHUT_RDWR)

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def cancel(self) -> None:
        self._event.set()
        with self._lock:
            response = self._response
            sockets = list(self._sockets)
        # Waiting for the first byte has no response object yet; its socket is known.
        self._shutdown(sockets)
        if response is not None:
            # A read blocked in another thread only returns when its socket is shut down.
            try:
                stream = response.extensions.get("network_stream")
                sock = stream.get_extra_info("socket") if stream is not None else None
                if sock is not None:
                    sock.shutdown(socket.SHUT_RDWR)
            except Exception:  # noqa: BLE001 - the socket may be closing already; cancel anyway
                pass

    def wait(self, seconds: float) -> bool:
        return self._event.wait(seconds)

    def attach(self, response: httpx.Response | None) -> None:
        with self._lock:
            self._response = response


def _retry_after(response: httpx.Response, default: float, cap: float) -> float:
    value = response.headers.get("retry-after")
    try:
        return min(cap, max(0.0, float(value))) if value is not None else default
    except ValueError:
        return default


# What one reply may make this process hold. An answer chunk is a few hundred bytes and an
# error message a few hundred more; a provider (or a proxy, or a wrong URL) that sends
# an endless body without a line break grew the app's memory by ~200 MB/s until the
# system killed it.
MAX_LINE_BYTES = 1 << 20
MAX_ERROR_BYTES = 64 << 10


def _error_text(response: httpx.Response, api_key: str | None) -> str:
    """The provider's own words for an error, with the key and any credential scrubbed out."""
    raw = bytearray()
    try:
        for piece in response.iter_bytes():
            raw += piece
            if len(raw) >= MAX_ERROR_BYTES:
                break  # the first words say what went wrong; the rest is never read
    except Exception:  # noqa: BLE001 - any body is fine for a message; none is fine too
        pass
    body = bytes(raw[:MAX_ERROR_BYTES]).decode("utf-8", "replace")
    try:
        data = json.loads(body)
        message = data.get("error", {}).get("message") if isinstance(data.get("error"), dict) else data.get("error")
    except (ValueError, AttributeError):
        message = None
    return scrub_secrets(str(message or body), [api_key])[:300]


def stream_chat(
    config: ProviderConfig, body: dict[str, Any], on_delta: Callable[[str], None],
    *, cancel: CancelToken | None = None, on_attempt: Callable[[int, bytes], None] | None = None,
    on_outcome: Callable[[int, str], None] | None = None, transport: httpx.BaseTransport | None = None,
) -> StreamResult:
    """POST ``body`` (with ``stream: true``) and feed content deltas to ``on_delta``."""
    cancel = cancel or CancelToken()
    payload = json.dumps(body, ensure_ascii=False).encode("utf-8")
    headers = {"Content-Type": "application/json", "Accept": "text/event-stream"}
    if config.api_key:
        headers["Authorization"] = f"Bearer {config.api_key}"
    timeout = httpx.Timeout(connect=config.connect_timeout, read=config.read_timeout,
                            write=config.read_timeout, pool=config.connect_timeout)
    started = time.monotonic()
    result = StreamResult(text="", attempts=0)
    delay = config.backoff
    transport = transport or _transport(cancel)
    with httpx.Client(timeout=timeout, transport=transport, trust_env=False) as client:
        for attempt in range(1, config.retries + 2):
            if cancel.cancelled:
                raise Cancelled()
            result.attempts = attempt
            if on_attempt is not None:
                on_attempt(attempt, payload)
            outcome = "error"
            try:
                outcome = _one_attempt(client, config, payload, headers, on_delta, cancel, result, started)
                return result
            except _Retry as retry:
                outcome = f"http {retry.status}"
                if attempt > config.retries:
                    raise retry.error from None
                wait = retry.wait if retry.wait is not None else delay
                delay = min(config.max_backoff, delay * 2)
                if cancel.wait(wait):
                    outcome = "cancelled"
                    raise Cancelled() from None
            except Cancelled:
                outcome = "cancelled"
                raise
            except ProviderError as exc:
                outcome = f"http {exc.status}" if exc.status else exc.kind
                raise
            finally:
                result.total_s = time.monotonic() - started
                if on_outcome is not None:
                    on_outcome(attempt, outcome)
    raise ProviderError("http", "The provider did not answer.")  # pragma: no cover - loop returns or raises


class _TrackingBackend(httpcore.SyncBackend):
    """Hands every new socket to the cancel token (httpx exposes none before the headers)."""

    def __init__(self, cancel: CancelToken) -> None:
        self._cancel = cancel

    def connect_tcp(self, *args: Any, **kwargs: Any) -> httpcore.NetworkStream:
        stream = super().connect_tcp(*args, **kwargs)
        self._cancel.track(stream.get_extra_info("socket"))
        return stream


def _transport(cancel: CancelToken) -> httpx.BaseTransport:
    transport = httpx.HTTPTransport()
    pool = getattr(transport, "_pool", None)
    if pool is not None and hasattr(pool, "_network_backend"):
        pool._network_backend = _TrackingBackend(cancel)
    return transport


class _Retry(Exception):
    def __init__(self, status: int, wait: float | None, error: ProviderError) -> None:
        super().__init__(status)
        self.status = status
        self.wait = wait
        self.error = error


def _one_attempt(client: httpx.Client, config: ProviderConfig, payload: bytes, headers: dict[str, str],
                 on_delta: Callable[[str], None], cancel: CancelToken, result: StreamResult,
                 started: float) -> str:
    try:
        with client.stream("POST", config.url, content=payload, headers=headers) as response:
            cancel.attach(response)
            try:
                result.statuses.append(response.status_code)
                if response.status_code != 200:
                    detail = _error_text(response, config.api_key)
                    status = response.status_code
                    if status == 429:
                        err = ProviderError("rate_limited", f"The provider is rate limiting requests (HTTP 429)."
                                            f"{' ' + detail if detail else ''}", status)
                        raise _Retry(status, _retry_after(response, config.backoff, config.max_backoff), err)
                    if status >= 500:
                        err = ProviderError("http", f"The provider had an internal error (HTTP {status})."
                                            f"{' ' + detail if detail else ''}", status)
                        raise _Retry(status, _retry_after(response, config.backoff, config.max_backoff)
                                     if "retry-after" in response.headers else None, err)
                    if status in (401, 403):
                        raise ProviderError("auth", f"The provider refused the API key (HTTP {status}). "
                                            "Check the key in Settings → AI provider.", status)
                    raise ProviderError("http", f"The provider rejected the request (HTTP {status})."
                                        f"{' ' + detail if detail else ''}", status)
                _read_sse(response, on_delta, cancel, result, started, config)
                return "ok"
            finally:
                cancel.attach(None)
    except (_Retry, ProviderError, Cancelled):
        raise
    except httpx.ConnectTimeout as exc:
        raise ProviderError("offline", f"Could not reach {config.host} (connection timed out).") from exc
    except httpx.ConnectError as exc:
        raise ProviderError("offline", f"Could not reach {config.host}: {exc}.") from exc
    except httpx.TimeoutException as exc:
        if cancel.cancelled:
            raise Cancelled() from exc
        raise ProviderError("timeout", f"{config.host} stopped answering "
                            f"(no data for {config.read_timeout:g} s).") from exc
    except (httpx.HTTPError, RuntimeError, OSError) as exc:
        if cancel.cancelled:
            raise Cancelled() from exc
        raise ProviderError("protocol", f"The connection to {config.host} failed: "
                            f"{type(exc).__name__}.") from exc


def _sse_lines(response: httpx.Response, host: str) -> Iterator[str]:
    """The stream's lines (ends: \\n, \\r\\n or \\r), each at most ``MAX_LINE_BYTES``."""
    pending = bytearray()
    for piece in response.iter_bytes():
        pending += piece
        start = 0
        while (end := _line_end(pending, start)) >= 0:
            yield pending[start:end].decode("utf-8", "replace")
            start = end + 2 if pending[end:end + 2] == b"\r\n" else end + 1
        del pending[:start]
        if len(pending) > MAX_LINE_BYTES:
            raise ProviderError("protocol", f"{host} sent a line of more than "
                                f"{MAX_LINE_BYTES // (1 << 20)} MB without a break; "
                                "that is not an answer, so reading stopped.")
    if pending:
        yield pending.rstrip(b"\r").decode("utf-8", "replace")


def _line_end(data: bytearray, start: int) -> int:
    """Index of the first line break at or after ``start`` (-1: none yet). A lone \\r at the
    end waits for the next byte: it may be the first half of \\r\\n."""
    lf = data.find(b"\n", start)
    cr = data.find(b"\r", start, lf if lf >= 0 else len(data))
    if cr >= 0 and cr == len(data) - 1 and lf < 0:
        return -1
    return cr if cr >= 0 else lf


def _read_sse(response: httpx.Response, on_delta: Callable[[str], None], cancel: CancelToken,
              result: StreamResult, started: float, config: ProviderConfig) -> None:
    saw_data = False
    last_data = time.monotonic()
    for line in _sse_lines(response, config.host):
        if cancel.cancelled:
            raise Cancelled()
        if not line.startswith("data:"):
            # Comments, event names, keep-alives. They keep the socket's read timeout from
            # firing, so a provider that only ever sends them would hold the answer (and a
            # scripted `ask`) for good: they count as silence.
            if time.monotonic() - last_data > config.read_timeout:
                raise ProviderError("timeout", f"{config.host} stopped answering "
                                    f"(only keep-alive lines for {config.read_timeout:g} s).")
            continue
        last_data = time.monotonic()
        data = line[5:].strip()
        if data == "[DONE]":
            return
        saw_data = True
        try:
            chunk = json.loads(data)
            choice = chunk["choices"][0] if chunk.get("choices") else {}
            delta = (choice.get("delta") or {}).get("content") or ""
            if not isinstance(delta, str):
                raise TypeError("content is not text")
        except (ValueError, KeyError, TypeError, AttributeError, IndexError):
            result.malformed_chunks += 1
            continue
        if choice.get("finish_reason"):
            result.finish_reason = choice["finish_reason"]
        if delta:
            if result.first_token_s is None:
                result.first_token_s = time.monotonic() - started
            result.text += delta
            on_delta(delta)
    if cancel.cancelled:
        raise Cancelled()
    if not saw_data:
        raise ProviderError("protocol", "The provider's answer was not an event stream.")
