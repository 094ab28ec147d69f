"""Credentials in sentences: "my password is …", "PIN 1234", a random token after a key word."""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_kb.qa.detectors.base import API_KEY, PASSWORD, Finding, looks_random
from desktop_kb.qa.detectors.labelled import label_class
from desktop_kb.qa.detectors.secret_names import DATA_KEY_BEFORE_RE, PASSWORD_NAME
from desktop_kb.qa.detectors.secret_values import (
    CODE_RE,
    TRAILING,
    encoded_text,
    is_path_or_url,
    is_placeholder,
    plausible,
    value_of,
)
from desktop_kb.text.han import is_han

_PROSE_RE = re.compile(
    r"(?i)(?<![A-Za-z])(?:password|passwd|passcode|pass\s?word|pwd|pin(?:\s*code)?|"
    r"(?:door|gate|lock|unlock|access|entry|alarm|safe|locker|building|screen|sim|puk|voicemail)\s+code)"
    r"(?:\s+(?:for|of|to|on)\s+[^\n.,;:!?]{1,40}?)?\s+(?P<sep>is\s+now|is|was|are|=|:|-|—|now|to|(?:set|changed|reset)\s+to)"
    r"\s+[\"'“]?(?P<raw>[^\s\"'”]{1,200})")
_PIN_RE = re.compile(r"(?i)(?<![A-Za-z])PIN(?:\s*(?:code|码|碼|number|no\.?|#))?\s*[:=#]?\s*(?P<v>\d{4,8})(?!\d)")
# Gift-card and licence codes: "卡密 VPD5-VF1H-IRGL-4UKW", "redeem code: 8R3K-9QXZ-T2MV".
_REDEEM_RE = re.compile(
    r"(?i)(?:卡密|兑换码|兌換碼|激活码|激活碼|充值码|充值碼|礼品卡|禮品卡|提货码|提貨碼|券码|券碼|redeem(?:ption)?\s*code|"
    r"gift\s*card(?:\s*code)?|product\s*key|licen[cs]e\s*key|serial\s*(?:key|number)|cd-?key)"
    r"[^\n:=\w]{0,3}[:=]?\s*(?P<v>[A-Z0-9]{4,6}(?:-[A-Z0-9]{4,6}){2,7})(?![\w-])")
# "passphrase: …", or "the passphrase is '…'" (quoted: "a passphrase is easier to remember" is prose).
_PASSPHRASE_RE = re.compile(
    r"(?i)(?<![A-Za-z])pass\s?phrase[^\n:=]{0,24}?(?:[:=][ \t]*|\s(?:is|was)\s+(?=[\"'“‘]))(?P<v>[^\n]{4,120})")


def prose(text: str) -> Iterator[Finding]:
    lower = text.lower()
    if not any(w in lower for w in ("pass", "pwd", "pin", "code", "key", "serial", "卡", "码", "碼")):
        return
    for m in _PROSE_RE.finditer(text):
        value, start, end, _quoted = value_of(m)
        line_end = text.find("\n", end)
        rest = text[end:len(text) if line_end < 0 else line_end]
        if m.group("sep").endswith("to") and not re.search(r"[\d\W_]", value):
            continue  # "password to access the server": a purpose, not a password
        if value and plausible(value, PASSWORD_NAME, quoted=False, prose=True, followed_by=rest,
                               spaced=m.group("sep") in ("=", "-", "—")):
            yield Finding(PASSWORD, start, end)
    for m in _PIN_RE.finditer(text):
        yield Finding(PASSWORD, m.start("v"), m.end("v"))
    for m in _REDEEM_RE.finditer(text):
        yield Finding(API_KEY, m.start("v"), m.end("v"))
    for m in _PASSPHRASE_RE.finditer(text):
        raw = m.group("v")
        start = m.start("v") + len(raw) - len(raw.lstrip("\"'“‘"))
        value = raw.lstrip("\"'“‘").rstrip(" \t" + TRAILING)
        if value and not is_han(value[0]) and not is_placeholder(value.split()[0]):
            yield Finding(PASSWORD, start, start + len(value))


# ----- a random token next to a key word -----------------------------------------------------

_KEYWORD_RE = re.compile(
    r"(?i)(?<![A-Za-z_])(?:api[\s_-]?key|access[\s_-]?key|secret[\s_-]?key|app[\s_-]?secret|key|keys|token|"
    r"secret|credentials?|password|passcode|auth)(?![A-Za-z_])"
    r"|(?<![A-Za-z])(?:AK|SK)(?![A-Za-z])|密钥|密鑰|秘钥|祕鑰|令牌|凭证|憑證|凭据|憑據|授权码|授權碼|私钥|私鑰|密码|密碼|口令")
_TOKEN_RE = re.compile(r"(?<![A-Za-z0-9_+/=.~-])[A-Za-z0-9_+/=.~-]{16,512}(?![A-Za-z0-9_+/=.~-])")
_FILLER_STOP_RE = re.compile(r"[。！？\n]|\.\s")
# A key copied in groups, the way it is shown or read out: "93b8 1c47 cf4b 9bda …", "K7QF-2M9X-…".
_GROUPED_RE = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9]{4,8}(?:[ -][A-Za-z0-9]{4,8}){3,15}(?![A-Za-z0-9_-])")


# The name a value right after it belongs to: "commit='", "request_id: ", key="commit" value=".
_OWN_LABEL_RE = re.compile(
    r"(?:(?:^|[\s,;{&?])[\"']?(?P<name>[A-Za-z_][\w.-]{0,40}|[\w-]{0,20}(?:ID|号|號|番号|提交|コミット|校验和|チェックサム|哈希|ハッシュ))"
    r"[\"']?|=\s*[\"'](?P<attr>[\w.-]{1,40})[\"']\s+value)"
    r"\s*[=:]\s*[\"'`]?$")


def _encoded_placeholder(value: str) -> bool:
    """base64 of "${DB_PASSWORD}" or "<YOUR_TOKEN>" (a template's Secret): a placeholder, encoded."""
    plain = encoded_text(value)
    return plain is not None and (is_placeholder(plain) or CODE_RE.search(plain) is not None)


def _own_label(between: str) -> bool:
    """Whether the text between a key word and a token ends in another, ordinary name for the token."""
    m = _OWN_LABEL_RE.search(between)
    if m is None:
        return False
    name = m.group("name") or m.group("attr")
    return label_class(name) is None and name.lower() not in ("value", "val", "v", "is")


# Where a token or a group could begin (the patterns' own look-behind and first character).
_TOKEN_START_RE = re.compile(r"(?<![A-Za-z0-9_+/=.~-])[A-Za-z0-9_+/=.~-]")
_GROUPED_START_RE = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9]")


def _matches_from(rx: re.Pattern[str], start_rx: re.Pattern[str], text: str, pos: int, limit: int,
                  endpos: int) -> Iterator[re.Match[str]]:
    """``rx``'s matches in ``text[pos:endpos]`` that start at or before ``limit``, in order — the same as
    ``rx.finditer(text, pos, endpos)`` cut at ``limit``, without scanning the rest: a line of key words
    ("密码（说明）：" three thousand times) made that scan quadratic."""
    while (start := start_rx.search(text, pos, min(limit + 1, endpos))) is not None:
        m = rx.match(text, start.start(), endpos)
        if m is not None:
            yield m
            pos = max(m.end(), start.start() + 1)
        else:
            pos = start.start() + 1


def keyword_tokens(text: str) -> Iterator[Finding]:
    """A machine-made token within a short phrase after a key word ("auth token 93ae…", "密钥 839d…")."""
    for kw in _KEYWORD_RE.finditer(text):
        if text[max(0, kw.start() - 2):kw.start()] == "::":
            continue  # "AWS::ApiGateway::ApiKey": a type's path, not a key word
        if kw.group(0).lower() in ("key", "keys") and DATA_KEY_BEFORE_RE.search(text, max(0, kw.start() - 24), kw.start()):
            continue  # "Idempotency-Key: <uuid>", "cache key 5efc…": a data key, an id or a hash
        window_end = min(len(text), kw.end() + 32)
        stop = _FILLER_STOP_RE.search(text, kw.end(), window_end)
        limit = stop.start() if stop else window_end
        for m in _matches_from(_TOKEN_RE, _TOKEN_START_RE, text, kw.end(), limit, min(len(text), limit + 512)):
            value = m.group(0).rstrip(".")
            if _own_label(text[kw.end():m.start()]):
                break  # "auth ok user=lilei commit='cb7a…'": the token has a label of its own
            if looks_random(value) and not is_path_or_url(value) and not _encoded_placeholder(value) \
                    and not is_placeholder(value):
                yield Finding(API_KEY, m.start(), m.start() + len(value))
                break
        grouped = next(_matches_from(_GROUPED_RE, _GROUPED_START_RE, text, kw.end(), limit, min(len(text), limit + 160)),
                       None)
        if grouped is not None and looks_random(re.sub(r"[ -]", "", grouped.group(0))):
            yield Finding(API_KEY, grouped.start(), grouped.end())
