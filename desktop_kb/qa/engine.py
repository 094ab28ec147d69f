"""The QA engine: retrieve → pack → content gate → (approval) → provider → validate → store.

Two steps so a person can look before anything leaves: :meth:`QaEngine.prepare`
does everything local and returns a :class:`QaPlan` (the hit list, the packed
snippets, each snippet's gate verdict, gate 1's state and the exact request
body); :meth:`QaEngine.send` sends the approved part of that plan. The local
cited hit list is always the fallback answer, with the reason shown (I7).
No code path reaches the network unless gate 1 is open, gate 2 let at least
one snippet and the question through, and the person approved this very
request (I8) — all three checked again immediately before each attempt.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from desktop_kb import secrets
from desktop_kb.qa import gate as content_gate
from desktop_kb.qa.answer_length import DEFAULT_MAX_ANSWER_TOKENS, AnswerLimit
from desktop_kb.qa.approvals import SessionApprovals
from desktop_kb.qa.citations import FLAG_UNSUPPORTED, validate_answer
from desktop_kb.qa.prompt import OutgoingSnippet, request_body
from desktop_kb.qa.providers import (
    Cancelled,
    CancelToken,
    ProviderConfig,
    ProviderError,
    StreamResult,
    host_of,
    is_loopback,
    stream_chat,
)
from desktop_kb.qa.retrieve import QaHit, Retrieved, retrieve
from desktop_kb.qa.scrub import StreamScrubber, scrub_secrets
from desktop_kb.qa.source_spans import spans_for_source
from desktop_kb.retrieval.packing import PackedContext, PackedSnippet, pack_context
from desktop_kb.store import chats, local_only, uploads
from desktop_kb.store.errors import StoreError

# Why an answer is the local hit list; the UI and CLI turn codes into words.
REASONS = {
    "nothing_found": "The library has nothing on this question.",
    "cloud_off": "Cloud answering is off (Settings → Features).",
    "no_provider": "No AI provider is configured (Settings → AI provider).",
    "no_key": "No API key is stored for the AI provider.",
    "gate_blocked": "The content gate blocked every snippet, so nothing was sent.",
    "question_blocked": "The question itself holds a secret or personal data, so nothing was sent.",
    "question_too_long": "The question is too long to ask.",
    "changed": "A source became local only after the preview, so nothing was sent; ask again.",
    "not_approved": "The request was not approved, so nothing was sent.",
    "offline": "The AI provider could not be reached.",
    "timeout": "The AI provider stopped answering (timeout).",
    "provider_error": "The AI provider returned an error.",
    "cancelled": "Stopped before an answer arrived.",
    "not_logged": "The upload log could not be written, so nothing was sent.",
}


FLAG_TOO_LONG = "answer_too_long"


class _Withheld(Exception):
    """Raised from the pre-request hook: a gate closed between the preview and the request, or
    the request could not be written to the upload log (I8: nothing leaves unlogged)."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.detail = detail


def snippet_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class GatedSnippet:
    packed: PackedSnippet
    verdict: content_gate.Verdict

    def as_json(self) -> dict[str, Any]:
        p = self.packed
        return {"n": p.n, "source_type": p.source_type, "source_id": p.source_id, "title": p.title,
                "start": p.start, "end": p.end, "verdict": self.verdict.action,
                "reasons": self.verdict.reasons, "via_link": p.via_link}


@dataclass
class QaPlan:
    question: str
    session_id: int | None
    retrieved: Retrieved
    packed: PackedContext
    gated: list[GatedSnippet]
    config: ProviderConfig | None
    reason: str | None  # why this will be a local answer (None: cloud is possible)
    needs_approval: bool
    question_verdict: content_gate.Verdict = field(
        default_factory=lambda: content_gate.Verdict(content_gate.SENT, None))
    max_answer_tokens: int = DEFAULT_MAX_ANSWER_TOKENS
    max_question_chars: int = content_gate.DEFAULT_MAX_QUESTION_CHARS
    timings: dict[str, float] = field(default_factory=dict)
    not_kept: str = ""  # why no chat could be made for it (the library could not be written)

    @property
    def question_sent(self) -> str:
        """The question as it would leave: redacted when the gate redacted it."""
        text = self.question_verdict.text
        return text if text is not None else ""

    @property
    def host(self) -> str:
        return self.config.host if self.config else ""

    def outgoing(self, removed: Collection[int] = ()) -> list[tuple[OutgoingSnippet, GatedSnippet]]:
        """The snippets that would be sent, renumbered contiguously from 1 (I10)."""
        out: list[tuple[OutgoingSnippet, GatedSnippet]] = []
        for g in self.gated:
            if g.verdict.allowed and g.packed.n not in removed and g.verdict.text is not None:
                out.append((OutgoingSnippet(len(out) + 1, g.verdict.text), g))
        return out

    def body(self, removed: Collection[int] = ()) -> dict[str, Any]:
        """The exact request body (what the preview shows and what is sent)."""
        model = self.config.model if self.config else ""
        return request_body(model, self.question_sent, [o for o, _ in self.outgoing(removed)],
                            max_tokens=self.max_answer_tokens)

    def verdict_counts(self, removed: Collection[int] = ()) -> dict[str, int]:
        counts = content_gate.count_verdicts([g.verdict for g in self.gated])
        counts["removed"] = sum(1 for g in self.gated if g.verdict.allowed and g.packed.n in removed)
        counts["sent"] -= sum(1 for g in self.gated if g.verdict.action == content_gate.SENT
                              and g.packed.n in removed)
        counts["redacted"] -= sum(1 for g in self.gated if g.verdict.action == content_gate.REDACTED
                                  and g.packed.n in removed)
        return counts


@dataclass
class Citation:
    n: int
    source_type: str
    source_id: int
    title: str
    start: int
    end: int
    snippet: str
    document_id: int | None = None
    highlights: list[tuple[int, int]] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"n": self.n, "source_type": self.source_type, "source_id": self.source_id,
                "title": self.title, "start": self.start, "end": self.end, "snippet": self.snippet,
                "document_id": self.document_id, "highlights": [list(h) for h in self.highlights]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Citation:
        return cls(data["n"], data["source_type"], data["source_id"], data["title"], data["start"],
                   data["end"], data["snippet"], data.get("document_id"),
                   [tuple(h) for h in data.get("highlights", [])])  # type: ignore[misc]


@dataclass
class QaAnswer:
    mode: str  # generated | local
    reason: str | None
    answer: str
    citations: list[Citation]
    hits: list[Citation]
    gate: dict[str, int]
    flags: list[str] = field(default_factory=list)
    session_id: int | None = None
    provider: str | None = None
    message_id: int | None = None
    detail: str = ""  # the provider's own words for an error
    meta: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"mode": self.mode, "reason": self.reason, "answer": self.answer,
                "citations": [c.as_json() for c in self.citations],
                "hits": [c.as_json() for c in self.hits], "gate": self.gate, "flags": self.flags,
                "session_id": self.session_id, "provider": self.provider, "detail": self.detail,
                "verdicts": self.meta.get("verdicts", []), "question_gate": self.meta.get("question_gate"),
                "not_kept": self.meta.get("not_kept")}


def _hit_citations(hits: list[QaHit]) -> list[Citation]:
    return [Citation(i + 1, h.result.source_type, h.result.source_id, h.result.title, h.result.start,
                     h.result.end, h.result.snippet, h.result.document_id, list(h.result.highlights))
            for i, h in enumerate(hits)]


def local_text(hits: list[Citation]) -> str:
    return "\n".join(f"[{c.n}] {c.title} — {c.snippet}" for c in hits)


class QaEngine:
    """Qt-free; one engine per library. ``transport`` lets tests route httpx (never needed in the app)."""

    def __init__(self, library: Any, *, key_lookup: Callable[[str], str | None] = secrets.get_provider_key,
                 provider_overrides: dict[str, Any] | None = None,
                 session_approvals: SessionApprovals | None = None) -> None:
        """``session_approvals``: only the running app passes one; without it every request
        needs its own approval (the CLI's ``--yes``)."""
        self.library = library
        self._key_lookup = key_lookup
        self._overrides = provider_overrides or {}
        self.session_approvals = session_approvals

    # ----- sessions ---------------------------------------------------------------------

    def new_session(self, title: str = "", *, wait: bool = True) -> int:
        """A chat asked for (New chat) waits for another program's write lock like any save;
        one made for a question being answered does not (``open_session``)."""
        return self.library.write(lambda conn: chats.create_session(conn, title), wait=wait)

    def open_session(self, title: str = "") -> tuple[int | None, str]:
        """A new chat for a question, or (None, why) when the library cannot be written now
        (another program holds it for a long import, a full disk, a read-only folder). Asking
        only reads the library: the question is answered all the same, just not kept."""
        try:
            return self.new_session(title, wait=False), ""
        except StoreError as exc:
            return None, str(exc)

    def sessions(self) -> list[chats.ChatSession]:
        return chats.list_sessions(self.library.store_reader)

    def messages(self, session_id: int) -> list[chats.ChatMessage]:
        return chats.list_messages(self.library.store_reader, session_id)

    def rename_session(self, session_id: int, title: str) -> None:
        self.library.write(lambda conn: chats.rename_session(conn, session_id, title))

    def delete_session(self, session_id: int) -> None:
        self.library.write(lambda conn: chats.delete_session(conn, session_id))

    def approve_session(self, session_id: int, host: str) -> None:
        if self.session_approvals is None:
            raise RuntimeError("session approval exists only in the running app")
        self.session_approvals.approve(session_id, host)

    def session_approved(self, session_id: int | None, host: str) -> bool:
        return self.session_approvals is not None and self.session_approvals.approved(session_id, host)

    # ----- gate 1 -----------------------------------------------------------------------

    def provider_config(self) -> tuple[ProviderConfig | None, str | None]:
        """(config, reason it cannot be used); reads settings and the keyring."""
        get = self.library.get_setting
        if not get("qa.cloud_enabled"):
            return None, "cloud_off"
        base_url = (get("qa.provider.base_url") or "").strip()
        model = (get("qa.provider.model") or "").strip()
        if not base_url or not model or not host_of(base_url):
            return None, "no_provider"
        key = self._key_lookup(base_url)
        if not key and not is_loopback(base_url):
            return None, "no_key"
        config = ProviderConfig(base_url=base_url, model=model, api_key=key or None,
                                connect_timeout=float(get("qa.timeout.connect_s") or 10),
                                read_timeout=float(get("qa.timeout.read_s") or 60))
        for name, value in self._overrides.items():
            setattr(config, name, value)
        return config, None

    # ----- prepare ----------------------------------------------------------------------

    def prepare(self, question: str, *, session_id: int | None = None, scope: str = "all",
                not_kept: str = "") -> QaPlan:
        """``not_kept``: why ``session_id`` is None (``open_session``), said with the answer."""
        t0 = time.perf_counter()
        get = self.library.get_setting
        mode = str(get("qa.sensitive") or "block")
        max_question = int(get("qa.max_question_chars") or content_gate.DEFAULT_MAX_QUESTION_CHARS)
        max_tokens = int(get("qa.max_answer_tokens") or DEFAULT_MAX_ANSWER_TOKENS)
        if len(question) > max_question:
            # Refused before retrieval: a pasted chapter is not a question, and searching it is slow.
            empty = Retrieved(question=question, mode=self.library.default_mode(), nothing=True)
            return QaPlan(question, session_id, empty, PackedContext([], 0), [], None, "question_too_long",
                          True, content_gate.Verdict(content_gate.BLOCKED, None, ["too_long"]),
                          max_tokens, max_question, not_kept=not_kept)
        with self.library.reading_the_index():
            got = retrieve(self.library, question, scope=scope)
        t1 = time.perf_counter()
        budget = int(get("qa.budget_chars") or 1200)
        packed = pack_context([(h.result, h.text) for h in got.hits], got.terms, budget,
                              doc_freq=got.doc_freq, n_docs=got.n_docs, question=question,
                              best_sentences={i: h.best_sentence for i, h in enumerate(got.hits)
                                              if h.best_sentence is not None},
                              via_link=[h.via_link for h in got.hits])
        gated = self._gate_snippets(packed, got, mode)
        question_verdict = content_gate.check_question(question, mode=mode)
        t2 = time.perf_counter()
        config, reason = self.provider_config()
        if got.nothing:
            reason = "nothing_found"
        elif reason is None and not question_verdict.allowed:
            reason = "question_blocked"
        elif reason is None and not any(g.verdict.allowed for g in gated):
            reason = "gate_blocked"
        needs_approval = not (config is not None and self.session_approved(session_id, config.host))
        return QaPlan(question, session_id, got, packed, gated, config, reason, needs_approval,
                      question_verdict, max_tokens, max_question,
                      {"retrieve_ms": round((t1 - t0) * 1000, 1), "pack_gate_ms": round((t2 - t1) * 1000, 1)},
                      not_kept)

    def _gate_snippets(self, packed: PackedContext, got: Retrieved, mode: str) -> list[GatedSnippet]:
        """Each window is judged with the spans detected in its whole source (I11)."""
        texts = {(h.result.source_type, h.result.source_id): h.text for h in got.hits}
        store = self.library.store_reader
        gated = []
        for p in packed.snippets:
            source = None if p.local_only else spans_for_source(
                store, p.source_type, p.source_id, texts[(p.source_type, p.source_id)], window=(p.start, p.end))
            gated.append(GatedSnippet(p, content_gate.check_snippet(
                p.text, local_only=p.local_only, mode=mode, source=source, window=(p.start, p.end))))
        return gated

    # ----- answers ----------------------------------------------------------------------

    def _base_meta(self, plan: QaPlan, removed: Collection[int]) -> dict[str, Any]:
        question = plan.question_verdict
        return {"verdicts": [g.as_json() for g in plan.gated], "removed": sorted(removed),
                "timings": dict(plan.timings), "scope_mode": plan.retrieved.mode,
                "notice": plan.retrieved.notice,
                "question_gate": {"verdict": question.action, "reasons": question.reasons,
                                  "chars": len(plan.question), "limit": plan.max_question_chars},
                "max_answer_tokens": plan.max_answer_tokens}

    def answer_locally(self, plan: QaPlan, reason: str | None = None, *, removed: Collection[int] = (),
                       detail: str = "", extra_flags: list[str] | None = None,
                       store: bool = True, partial: str = "") -> QaAnswer:
        """The cited hit list: always available, zero network."""
        reason = reason or plan.reason or "not_approved"
        hits = [] if plan.retrieved.nothing else _hit_citations(plan.retrieved.hits)
        text = local_text(hits) if hits else REASONS["question_too_long" if reason == "question_too_long" else "nothing_found"]
        answer = QaAnswer("local", reason, text, hits, hits, plan.verdict_counts(removed),
                          list(extra_flags or []), plan.session_id, plan.host or None, detail=detail)
        answer.meta = self._base_meta(plan, removed)
        if partial:
            answer.meta["partial"] = partial
        if store and reason != "question_too_long":  # a pasted chapter is not kept as a chat message
            self._store(plan, answer)
        return answer

    def send(self, plan: QaPlan, *, approved: bool, removed: Collection[int] = (),
             approve_session: bool = False, on_delta: Callable[[str], None] | None = None,
             cancel: CancelToken | None = None, transport: Any = None) -> QaAnswer:
        """Send the plan, or explain why not.

        ``approved`` is the person's yes to this very request (the preview's Send,
        the CLI's ``--yes``); without it only "send for this session" given in this
        running app counts. Gate 1, the approval and the sources' local-only flags
        are checked again immediately before every attempt.
        """
        if plan.reason is not None or plan.config is None:
            return self.answer_locally(plan, plan.reason, removed=removed)
        outgoing = plan.outgoing(removed)
        if not outgoing:
            return self.answer_locally(plan, "gate_blocked" if not removed else "not_approved",
                                       removed=removed)
        host = plan.config.host
        if approve_session and approved and plan.session_id is not None and self.session_approvals is not None:
            self.approve_session(plan.session_id, host)

        def withheld() -> str | None:
            return self._recheck(plan, outgoing, approved or self.session_approved(plan.session_id, host))

        reason = withheld()
        if reason is not None:
            return self.answer_locally(plan, reason, removed=removed)
        body = plan.body(removed)
        sources = [(g.packed.source_type, g.packed.source_id) for _, g in outgoing]
        hashes = [snippet_hash(o.text) for o, _ in outgoing]
        counts = plan.verdict_counts(removed)
        upload_ids: dict[int, int] = {}

        def on_attempt(attempt: int, payload: bytes) -> None:
            late = withheld()
            if late is not None:
                raise _Withheld(late)
            try:
                upload_ids[attempt] = self.library.write(lambda conn: uploads.log_upload(
                    conn, session_id=plan.session_id, provider_host=plan.host, model=plan.config.model,
                    size=len(payload), sources=sources, snippet_hashes=hashes, verdicts=counts,
                    attempt=attempt), wait=False)
            except StoreError as exc:
                raise _Withheld("not_logged", str(exc)) from exc

        def on_outcome(attempt: int, outcome: str) -> None:
            if attempt in upload_ids:
                # Sent and logged already; a row left 'sending' by a library busy now is read
                # as abandoned later, and the answer that came must not be lost over it.
                with contextlib.suppress(StoreError):
                    self.library.write(lambda conn: uploads.set_outcome(conn, upload_ids[attempt], outcome))

        cancel = cancel or CancelToken()
        received: list[str] = []
        limit = AnswerLimit(plan.max_answer_tokens)
        key = plan.config.api_key

        shown = StreamScrubber([key])

        def delta(text: str) -> None:
            received.append(text)
            if on_delta is not None and (ready := shown.feed(text)):
                on_delta(ready)
            if limit.add(text):
                cancel.cancel()  # a runaway stream: stop reading, keep what arrived

        t0 = time.perf_counter()
        try:
            try:
                result: StreamResult = stream_chat(plan.config, body, delta, cancel=cancel,
                                                   on_attempt=on_attempt, on_outcome=on_outcome,
                                                   transport=transport)
            finally:
                if on_delta is not None and (rest := shown.flush()):
                    on_delta(rest)
        except _Withheld as late:
            return self.answer_locally(plan, late.reason, removed=removed, detail=late.detail)
        except Cancelled:
            partial = "".join(received)
            flags = [FLAG_TOO_LONG] if limit.exceeded else ["stopped"]
            if partial.strip():
                return self._generated(plan, outgoing, partial, removed, flags,
                                       {"total_s": round(time.perf_counter() - t0, 3)}, len(upload_ids))
            return self.answer_locally(plan, "cancelled", removed=removed)
        except ProviderError as exc:
            reason = {"offline": "offline", "timeout": "timeout"}.get(exc.kind, "provider_error")
            return self.answer_locally(plan, reason, removed=removed, detail=scrub_secrets(str(exc), [key]),
                                       partial=scrub_secrets("".join(received), [key]))
        flags = ["malformed_chunks"] if result.malformed_chunks else []
        if result.finish_reason == "length":
            flags.append(FLAG_TOO_LONG)  # the provider itself stopped at max_tokens
        return self._generated(plan, outgoing, result.text, removed, flags,
                               {"first_token_s": round(result.first_token_s or 0.0, 3),
                                "total_s": round(result.total_s, 3)}, result.attempts)

    def _recheck(self, plan: QaPlan, outgoing: list[tuple[OutgoingSnippet, GatedSnippet]],
                 approved: bool) -> str | None:
        """Why the plan may not leave now (None: it may). Reads settings, keyring and store afresh."""
        config, reason = self.provider_config()
        if reason is not None:
            return reason
        assert config is not None and plan.config is not None
        if not approved or (config.base_url, config.model) != (plan.config.base_url, plan.config.model):
            return "not_approved"  # the person approved another provider, or nothing
        flags = local_only.flags_now(self.library.store_reader,
                                   [(g.packed.source_type, g.packed.source_id) for _, g in outgoing])
        if any(flag is not False for flag in flags.values()):
            return "changed"  # a source became local only (or went away) since the preview
        return None

    def _generated(self, plan: QaPlan, outgoing: list[tuple[OutgoingSnippet, GatedSnippet]], text: str,
                   removed: Collection[int], flags: list[str], timings: dict[str, float],
                   attempts: int) -> QaAnswer:
        citations = [Citation(o.n, g.packed.source_type, g.packed.source_id, g.packed.title, g.packed.start,
                              g.packed.end, g.packed.text, g.packed.document_id,
                              [(g.packed.start, g.packed.end)]) for o, g in outgoing]
        text = scrub_secrets(text, [plan.config.api_key if plan.config else None])
        checked = validate_answer(text, [c.n for c in citations])
        hits = _hit_citations(plan.retrieved.hits)
        answer = QaAnswer("generated", None, checked.text, citations, hits, plan.verdict_counts(removed),
                          flags + checked.flags, plan.session_id, plan.host)
        answer.meta = self._base_meta(plan, removed)
        answer.meta["timings"].update(timings)
        answer.meta.update({"model": plan.config.model if plan.config else "", "attempts": attempts,
                            "snippet_hashes": [snippet_hash(o.text) for o, _ in outgoing],
                            "removed_markers": checked.removed, "raw_answer": text})
        if FLAG_UNSUPPORTED in answer.flags:
            answer.reason = "unsupported"
        self._store(plan, answer)
        return answer

    def _store(self, plan: QaPlan, answer: QaAnswer) -> None:
        """Keep the question and answer in their chat; when the library cannot be written now,
        the answer is still given, with why it is not kept (``meta['not_kept']``)."""
        if plan.session_id is None:
            if plan.not_kept:
                answer.meta["not_kept"] = plan.not_kept
            return
        meta = dict(answer.meta)
        meta.update({"mode": answer.mode, "reason": answer.reason, "flags": answer.flags,
                     "gate": answer.gate, "provider": answer.provider, "detail": answer.detail,
                     "citations": [c.as_json() for c in answer.citations],
                     "hits": [c.as_json() for c in answer.hits]})
        session_id = plan.session_id

        def write(conn: Any) -> int:
            chats.add_message(conn, session_id, "user", plan.question, {})
            return chats.add_message(conn, session_id, "assistant", answer.answer, json.loads(
                json.dumps(meta, ensure_ascii=False, default=str)))

        try:
            answer.message_id = self.library.write(write, wait=False)
        except StoreError as exc:
            answer.meta["not_kept"] = str(exc)

    # ----- one call for scripts -----------------------------------------------------------

    def ask(self, question: str, *, session_id: int | None = None, approved: bool = False,
            on_delta: Callable[[str], None] | None = None, cancel: CancelToken | None = None,
            scope: str = "all", transport: Any = None, not_kept: str = "") -> QaAnswer:
        """Prepare and, when gate 1 is open and the person approved (or the session is), send."""
        plan = self.prepare(question, session_id=session_id, scope=scope, not_kept=not_kept)
        if plan.reason is not None:
            return self.answer_locally(plan)
        if plan.needs_approval and not approved:
            return self.answer_locally(plan, "not_approved")
        return self.send(plan, approved=approved, on_delta=on_delta, cancel=cancel, transport=transport)
