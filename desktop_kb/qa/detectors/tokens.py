"""Tokens of common services, found by their own shape (no context needed).

Each pattern is a documented prefix or layout (payment, model hubs, code
hosts, package registries, cloud access keys, chat bots, JWTs); keys without
a prefix are left to the context detectors in :mod:`credentials`.
"""

from __future__ import annotations

import base64
import binascii
import re

from desktop_kb.qa.detectors.base import API_KEY, Finding, is_example, looks_random
from desktop_kb.qa.detectors.literals import ID_PARTS, key_parts

_B = r"(?<![A-Za-z0-9_])"  # a token starts at a word boundary (``_`` counts as part of a word)
_E = r"(?![A-Za-z0-9_])"

_PATTERNS = (
    # OpenAI, DeepSeek, Moonshot, Qwen and most OpenAI-compatible hosts; Anthropic.
    # (a digit within 200 characters: an unbounded look-ahead scanned a long "sk-sk-sk-…" run
    # to its end from every "sk-", quadratically)
    _B + r"sk-(?:proj-|svcacct-|admin-|ant-(?:api|admin|oat)\d\d-)?(?=[A-Za-z0-9_-]{0,200}\d)[A-Za-z0-9_-]{20,}",
    _B + r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}",  # Stripe secret / restricted
    _B + r"whsec_[A-Za-z0-9+/=]{24,}",  # Stripe webhook signing secret
    _B + r"gh[pousr]_[A-Za-z0-9]{30,}" + _E,  # GitHub
    _B + r"github_pat_[A-Za-z0-9_]{40,}",
    _B + r"gl(?:pat|dt|rt|ptt|ft|cbt|imt|oas|soat|agent|ffct)-[A-Za-z0-9_-]{20,}",  # GitLab
    _B + r"GR1348941[A-Za-z0-9_-]{20,}",  # GitLab runner registration
    _B + r"npm_[A-Za-z0-9]{36}" + _E,
    _B + r"pypi-AgE[A-Za-z0-9_-]{50,}",  # PyPI and TestPyPI macaroons
    _B + r"hf_[A-Za-z0-9]{30,}" + _E,  # Hugging Face
    _B + r"(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[0-9A-Z]{16}" + _E,  # AWS
    _B + r"LTAI[A-Za-z0-9]{12,24}" + _E,  # Alibaba Cloud AccessKey ID
    _B + r"AKID[A-Za-z0-9]{13,40}" + _E,  # Tencent Cloud SecretId
    _B + r"xox[abposre]-[A-Za-z0-9-]{10,}",  # Slack
    _B + r"xapp-\d-[A-Za-z0-9-]{10,}",
    r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{20,}",
    _B + r"AIza[0-9A-Za-z_-]{35}",  # Google API key
    _B + r"ya29\.[0-9A-Za-z_-]{20,}",  # Google OAuth access token
    _B + r"GOCSPX-[A-Za-z0-9_-]{20,}",  # Google OAuth client secret
    _B + r"SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}",  # SendGrid
    r"(?<![0-9])\d{8,10}:AA[0-9A-Za-z_-]{30,}",  # Telegram bot
    _B + r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",  # JWT
    _B + r"M[TQ][A-Za-z0-9_-]{21,30}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}" + _E,  # Discord bot
    _B + r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{50,}" + _E,  # age (file encryption)
)


def _hints(pattern: str) -> tuple[str, ...]:
    """Literal pieces one of which every match contains, so most patterns are skipped at once."""
    body = pattern.replace(_B, "").replace(_E, "")
    if body.startswith("(?:") and ")" in body:
        alternatives = body[3:body.index(")")].split("|")
        if all(re.fullmatch(r"[A-Za-z0-9_]+", a) for a in alternatives):
            return tuple(alternatives)
    literal = re.match(r"(?:\\.|[A-Za-z0-9_-])+", body)
    text = literal.group(0).replace("\\", "") if literal else ""
    return (text[:4],) if len(text) >= 2 else ("",)


_TOKEN_RES = [(re.compile(p), _hints(p)) for p in _PATTERNS]


# Access key IDs come with a secret that has no prefix of its own, usually right after the ID
# (``oss2.Auth('LTAI…', '…')``, ``AKID… / …``): a random token on the same line, soon after, is it.
_KEY_ID_RE = re.compile(_B + r"(?:AKIA|ASIA|LTAI|AKID)[A-Za-z0-9]{12,40}" + _E)
_PAIRED_SECRET_RE = re.compile(r"(?<![A-Za-z0-9_+/=-])[A-Za-z0-9+/=_-]{20,80}(?![A-Za-z0-9_+/=-])")


# Most services now issue ``vendor_`` / ``vendor-`` prefixed tokens (shpat_, dop_v1_, gsk_, r8_,
# lin_api_, pplx-, secret_, hvs. …): a short lowercase prefix, then a long random body.
_PREFIXED_RE = re.compile(
    r"(?<![A-Za-z0-9_.-])(?P<prefix>[a-z][a-z0-9]{0,9}(?:[_-][a-z0-9]{1,6}){0,2}[_.-])"
    r"(?P<body>[A-Za-z0-9](?:[A-Za-z0-9]|[_-](?=[A-Za-z0-9])){19,200})(?![A-Za-z0-9_-])")
_PUBLIC_PARTS = {"public", "publishable", "pub"}
_NOT_TOKEN_PREFIXES = {"sha1-", "sha256-", "sha384-", "sha512-", "md5-", "blake2b-", "sha-", "v1-", "data-",
                       "id-", "uuid-", "commit-", "rev-", "build-", "img-", "file-", "doc-", "page-"}


def _prefixed(text: str) -> list[Finding]:
    found = []
    for m in _PREFIXED_RE.finditer(text):
        body = m.group("body")
        pieces = re.split(r"[_-]", body)
        if m.group("prefix") in _NOT_TOKEN_PREFIXES or any(re.fullmatch(r"[a-z]{2,}", p) for p in pieces):
            continue  # integrity hashes; names like "add_one-f0253159197f7841" (a crate and its hash)
        if all(re.fullmatch(r"[0-9a-f]+", p) for p in pieces) and len(body) < 32:
            continue  # short hex ids
        parts = set(key_parts(text, m.start()))
        if ID_PARTS & parts:
            continue  # dbi_resource_id = "db-M5EN…": a resource's id, named as one
        if _PUBLIC_PARTS & (parts | set(re.split(r"[_.-]", m.group("prefix")))):  # (ed25519-pub-0x…: Aptos's public key)
            continue  # publishable_key, NEXT_PUBLIC_…: made to be shipped to every browser
        if looks_random(body, min_len=20) and sum(c.isdigit() for c in body) >= 2:
            found.append(Finding(API_KEY, m.start(), m.end()))
    return found


# A Discord bot token starts with the bot's numeric id in base64 ("MTA…", "NDUz…", "Nz…"), then a
# timestamp and an HMAC: the decoded id, not its first letters, says what it is.
# (A character class first lets the engine skip ahead; the boundary before is checked in code.)
_DISCORD_HINT_RE = re.compile(r"\.[A-Za-z0-9_-]{6,7}\.")  # its middle part, found fast from the dots
_DISCORD_RE = re.compile(r"(?P<id>[A-Za-z0-9_-]{23,28})\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])")


def _snowflake(part: str) -> bool:
    try:
        raw = base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
    except (binascii.Error, ValueError):
        return False
    return raw.isdigit() and 17 <= len(raw) <= 20


# A token glued to more dot-separated random parts (Mapbox's "sk.eyJ1….a78d…", a macaroon's
# caveats) is one credential: the parts after the dot go with it.
_DOTTED_TAIL_RE = re.compile(r"\.[A-Za-z0-9_-]{8,}(?![A-Za-z0-9_-])")


def _with_tail(text: str, f: Finding) -> Finding:
    end = f.end
    while (m := _DOTTED_TAIL_RE.match(text, end)) is not None and looks_random(m.group(0)[1:], min_len=8):
        end = m.end()
    return f if end == f.end else Finding(f.kind, f.start, end)


def service_tokens(text: str) -> list[Finding]:
    found = [Finding(API_KEY, m.start(), m.end()) for rx, hints in _TOKEN_RES
             if any(h in text for h in hints) for m in rx.finditer(text) if not is_example(m.group(0))]
    found += _prefixed(text)
    if "." in text:
        discord = _DISCORD_RE.finditer(text) if _DISCORD_HINT_RE.search(text) else ()
        found += [Finding(API_KEY, m.start(), m.end()) for m in discord
                  if not (m.start() and re.match(r"[A-Za-z0-9_.-]", text[m.start() - 1]))
                  and _snowflake(m.group("id"))]
        found = [_with_tail(text, f) for f in found]
    for m in _KEY_ID_RE.finditer(text):
        line_end = text.find("\n", m.end())
        limit = min(len(text) if line_end < 0 else line_end, m.end() + 80)
        for s in _PAIRED_SECRET_RE.finditer(text, m.end(), limit):
            if looks_random(s.group(0), min_len=20):
                found.append(Finding(API_KEY, s.start(), s.end()))
                break
    return found
