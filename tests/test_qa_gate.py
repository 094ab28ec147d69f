"""Content gate: local-only, secrets and personal data, block vs redact (the bench corpus asserted)."""

from __future__ import annotations

import pytest

from benchmarks.bench_gate import NEGATIVES, POSITIVES
from desktop_kb.qa.gate import check_snippet, detect, luhn_ok, redact, valid_resident_id


@pytest.mark.parametrize(("text", "kind"), POSITIVES)
def test_every_positive_is_found(text: str, kind: str) -> None:
    assert kind in {f.kind for f in detect(text)}


@pytest.mark.parametrize("text", NEGATIVES)
def test_look_alikes_pass(text: str) -> None:
    assert detect(text) == []


def test_checksums() -> None:
    assert valid_resident_id("11010519491231002X")
    assert not valid_resident_id("110105194912310021")
    assert not valid_resident_id("110105194913310025")  # month 13
    assert luhn_ok("4111111111111111") and not luhn_ok("4111111111111112")


def test_local_only_is_blocked_whatever_the_text() -> None:
    verdict = check_snippet("nothing secret here", local_only=True, mode="redact")
    assert verdict.action == "blocked" and verdict.text is None and verdict.reasons == ["local_only"]


def test_block_and_redact() -> None:
    text = "wifi 密码：qwerty2024，邮箱 a.b@example.com。"
    blocked = check_snippet(text, local_only=False, mode="block")
    assert blocked.action == "blocked" and blocked.text is None
    assert set(blocked.reasons) == {"password", "email"}
    redacted = check_snippet(text, local_only=False, mode="redact")
    assert redacted.action == "redacted"
    assert redacted.text == "wifi 密码：[password removed]，邮箱 [email removed]。"
    assert check_snippet(text, local_only=False, mode="bogus").action == "blocked"  # fail closed


def test_clean_text_is_sent_unchanged() -> None:
    text = "用 Docker 安装 GitLab，2019 年发布 12.0 版。"
    assert check_snippet(text, local_only=False).text == text


def test_private_key_block_is_redacted_whole() -> None:
    text = "key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nabc\ndef\n-----END OPENSSH PRIVATE KEY-----\nend"
    assert redact(text, detect(text)) == "key:\n[private_key removed]\nend"
