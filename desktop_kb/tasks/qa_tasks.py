"""The QA pane's bridge to the Qt-free engine: every call runs off the GUI thread.

Streaming deltas arrive on a worker thread and reach the pane as a queued
signal. ``stop()`` cancels the live request (the socket is shut down, so a
stalled provider does not hold the window's shutdown).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Signal

from desktop_kb.qa.approvals import SessionApprovals
from desktop_kb.qa.engine import QaAnswer, QaEngine, QaPlan
from desktop_kb.qa.providers import CancelToken
from desktop_kb.store.chats import SessionNotFound
from desktop_kb.tasks.library_tasks import LatestOnly, TaskRunner, describe_error


def failure_text(exc: BaseException) -> str:
    """Why asking failed, in the window's language where the person can do something about it."""
    if isinstance(exc, SessionNotFound):  # it read "No chat session with id 1." in Chinese too
        return QCoreApplication.translate(
            "QaBridge", "this chat is no longer in the library (deleted elsewhere, or a backup was "
            "restored). Start a new chat and ask again; your question is still in the box.")
    return describe_error(exc)


class QaBridge(QObject):
    sessionsLoaded = Signal(list)  # [ChatSession]
    messagesLoaded = Signal(int, list)  # session id, [ChatMessage]
    sessionCreated = Signal(int)
    planned = Signal(object)  # QaPlan
    delta = Signal(str)
    answered = Signal(object)  # QaAnswer
    failed = Signal(str)
    streamingChanged = Signal(bool)

    def __init__(self, runner: TaskRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self.engine: QaEngine | None = None
        self._cancel: CancelToken | None = None
        self.streaming = False
        self._latest_sessions = LatestOnly()
        # "Send for this session" lives in this running app only, never in the library (I8).
        self.session_approvals = SessionApprovals()

    def set_library(self, library: Any, **engine_kwargs: Any) -> None:
        self.session_approvals = SessionApprovals()  # another library: nothing approved there
        self.engine = (QaEngine(library, session_approvals=self.session_approvals, **engine_kwargs)
                       if library is not None else None)

    def _run(self, fn: Callable[[QaEngine], Any], done: Callable[[Any], None] | None = None) -> None:
        engine = self.engine
        if engine is None:
            return
        self._runner.run(lambda: fn(engine), done, lambda exc: self.failed.emit(failure_text(exc)))

    # ----- sessions -----------------------------------------------------------------------

    def load_sessions(self) -> None:
        # Two lists in flight (a question's new chat, a rename): the chats as they were before
        # the later change must not land last.
        self._run(lambda e: e.sessions(), self._latest_sessions(self.sessionsLoaded.emit))

    def load_messages(self, session_id: int) -> None:
        self._run(lambda e: e.messages(session_id), lambda msgs: self.messagesLoaded.emit(session_id, msgs))

    def new_session(self, title: str) -> None:
        self._run(lambda e: e.new_session(title), lambda sid: (self.sessionCreated.emit(sid),
                                                               self.load_sessions()))

    def rename_session(self, session_id: int, title: str) -> None:
        self._run(lambda e: e.rename_session(session_id, title), lambda _r: self.load_sessions())

    def delete_session(self, session_id: int) -> None:
        self._run(lambda e: e.delete_session(session_id), lambda _r: self.load_sessions())

    def save_as_note(self, entry: dict[str, Any], done: Callable[[int], None],
                     words: Any = None) -> None:
        """Store the answer as a note linked to its sources; ``done(note_id)`` on the GUI thread.

        ``words``: the note's headings (``qa.save_note.NoteWords``) in the UI's language.
        """
        from desktop_kb.qa.save_note import save_answer_as_note

        self._run(lambda e: save_answer_as_note(e.library, entry, words), done)

    @property
    def library(self) -> Any:
        return self.engine.library if self.engine is not None else None

    # ----- asking ---------------------------------------------------------------------------

    def prepare(self, question: str, session_id: int | None, scope: str = "all") -> None:
        """Everything local (retrieve, pack, gate); a new session is created when none is given."""
        from desktop_kb.qa.save_note import question_title

        def work(e: QaEngine) -> QaPlan:
            # A library another program holds (a long import) is still asked; the answer then
            # says why it is not kept in a chat.
            sid, not_kept = (session_id, "") if session_id is not None else e.open_session(question_title(question))
            return e.prepare(question, session_id=sid, scope=scope, not_kept=not_kept)

        self._run(work, self.planned.emit)

    def answer_locally(self, plan: QaPlan, reason: str | None = None) -> None:
        self._run(lambda e: e.answer_locally(plan, reason), self.answered.emit)

    def send(self, plan: QaPlan, *, approved: bool, removed: Collection[int] = (),
             approve_session: bool = False) -> None:
        """``approved``: the person said yes to this request in the preview; without it only a
        session approval given earlier in this app lets it go (the engine checks both again)."""
        engine = self.engine
        if engine is None:
            return
        cancel = CancelToken()
        self._cancel = cancel
        self._set_streaming(True)

        def work() -> QaAnswer:
            return engine.send(plan, approved=approved, removed=set(removed), approve_session=approve_session,
                               on_delta=self.delta.emit, cancel=cancel)

        def done(answer: QaAnswer) -> None:
            self._set_streaming(False)
            self.answered.emit(answer)

        def failed(exc: BaseException) -> None:
            self._set_streaming(False)
            self.failed.emit(failure_text(exc))

        self._runner.run(work, done, failed)

    def stop(self) -> None:
        if self._cancel is not None:
            self._cancel.cancel()

    def _set_streaming(self, on: bool) -> None:
        self.streaming = on
        if not on:
            self._cancel = None
        self.streamingChanged.emit(on)
