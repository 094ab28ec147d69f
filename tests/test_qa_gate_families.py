"""Families of shapes the session-10 sealed batch (heldout9, negatives8) showed, each checked on variants
written here in shapes that batch does not hold (other languages, containers, label spellings), with
the hard negatives that look the same and must pass.
"""

from __future__ import annotations

import pytest

from desktop_kb.qa.detectors import detect


def _found(text: str) -> list[tuple[str, str]]:
    return [(f.kind, text[f.start:f.end]) for f in detect(text)]


def _withheld(text: str, secret: str) -> bool:
    """Every character of every occurrence of ``secret`` (but spaces) is inside a finding."""
    findings = detect(text)
    pos = text.find(secret)
    assert pos >= 0, secret
    while pos >= 0:
        if not all(text[i].isspace() or any(f.start <= i < f.end for f in findings)
                   for i in range(pos, pos + len(secret))):
            return False
        pos = text.find(secret, pos + 1)
    return True


# ----- a label about a property of a password announces no password (negatives8: "L·log2") ------------

@pytest.mark.parametrize("text", [
    "密码熵 E = L·log2(R)，R 是字符集大小。",
    "口令强度 S = n·log2(k)，n 为长度。",
    "密碼熵 H ＝ L·log₂(N)，十二位小寫字母約 56 位。",
    "password strength = len·log2(charset)",
    "口令复杂度 = 4·log2(95)",
    "パスワード強度 = n·log2(62) ビット",
    "密碼長度 = 8·log2(10)",
])
def test_a_formula_about_passwords_is_not_a_password(text: str) -> None:
    assert _found(text) == []


@pytest.mark.parametrize(("text", "secret"), [
    ("密码强度测试用的密码：Tiger#2024x", "Tiger#2024x"),  # the label's last word is the password
    ("WiFi 密码 = Lab#2024xyz", "Lab#2024xyz"),
    ("Password strength test, the password: Qv7#mLx2pR", "Qv7#mLx2pR"),
])
def test_a_password_next_to_a_property_word_is_still_found(text: str, secret: str) -> None:
    assert _withheld(text, secret), _found(text)


# ----- the lines of a public key or certificate under a "key" label are public (negatives8: a base64 pair) -

@pytest.mark.parametrize("text", [
    "证书和密钥如下：\n-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ\n"
    "RTESMBAGA1UEChMJQmFsdGltb3JlMRMwEQYDVQQLEwpDeWJlclRydXN0MSIwIAYD\n-----END CERTIFICATE-----",
    "PGP 密钥：\n-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBGRfjRUBEAC3tK2ZeXk3hQh2s9wq7nLmR0aP8vJf4xKc1bYzT6uE5dW3gHnA\n"
    "Vb9sQ2mLr8Tf7Kx1Pq4Zw6Yc3Nd0Jh5Ue2Ra9Gt7Lk1Mp8Sv4Bx6Cz0Dy3Fe5Hw\n-----END PGP PUBLIC KEY BLOCK-----",
    "服务器公钥（私钥在服务器上）：\n-----BEGIN RSA PUBLIC KEY-----\nMIIBCgKCAQEA+xGZ/wcz9ugFpP07Nspo6U17l0YhFiFpxxU4pTk3Lifz9R3zsIsu\n"
    "ERwta7+fWIfxOo208ett/jhskiVodSEt3QBGh4XBipyWopKwZ93HHaDVZAALi/2A\n-----END RSA PUBLIC KEY-----",
    "Token signing key (public half):\n-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEqRMsHdlB5ZoIsfjk2xW3Jm8hDRdK\n"
    "yC7Oa0pQ3fWQzPbhPz2pJv4fTnS5yQe6kUrXo1cVnZ8mBqWs3LgH7aTfYw==\n-----END PUBLIC KEY-----",
    "公開鍵：\n-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----",
])
def test_a_public_key_block_under_a_key_label_passes(text: str) -> None:
    assert _found(text) == []


def test_a_private_key_block_under_a_key_label_is_withheld_whole() -> None:
    body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj"
    text = f"私钥如下：\n-----BEGIN PRIVATE KEY-----\n{body}\n-----END PRIVATE KEY-----"
    assert _withheld(text, body)
