"""Which names announce a credential: ``DB_PASSWORD``, ``appSecret``, ``x-api-key``, ``AK``.

Names are read by their parts, and the head of a compound is its last
meaningful part: ``user_password`` and ``account_key`` name credentials,
while a part after the credential word makes the name about it instead
(``PASSWORD_MIN_LENGTH``, ``token_type``, ``secret_number``).
"""

from __future__ import annotations

import re

PASSWORD_NAME, SECRET_NAME, WEAK_NAME = "password", "secret", "weak"

_PASSWORD_PARTS = {"password", "passwd", "pwd", "pass", "passphrase", "passcode", "pin", "puk", "pw", "passwort",
                   "kennwort", "contrasena", "motdepasse", "senha", "wachtwoord", "psk", "wpa"}
_SECRET_PARTS = {"secret", "token", "credential", "credentials", "creds", "cred", "apikey",
                 "sessionid", "authorization", "auth", "bearer", "appsecret", "appkey", "accesskey",
                 "secretkey", "masterkey", "authkey", "privatekey", "clientsecret", "accesstoken",
                 "refreshtoken", "authtoken", "webhook",
                 "phpsessid", "jsessionid", "aspsessionid", "sessid"}  # (web frameworks' session cookies)
_KEY_QUALIFIERS = {"api", "app", "access", "secret", "master", "auth", "private", "client", "signing",
                   "sign", "encryption", "enc", "license", "licence", "session", "account", "subscription",
                   "service", "admin", "root", "x", "openai", "deploy", "webhook"}
_WEAK_PARTS = {"key", "sig", "signature", "cookie", "cookies", "tk", "session"}  # (tk: Tianditu's map key;
# session: a random value under it is a session string, Telethon's StringSession)
_PUBLIC_PARTS = {"public", "pub", "publishable"}
_DATA_KEY_PARTS = {"idempotency", "cache", "sort", "partition", "primary", "foreign", "row", "hash", "dedup", "dedupe",
                   "shard", "lookup", "dict", "map", "object", "unique", "composite", "surrogate", "natural",
                   "range", "index", "cluster", "group", "order", "sequence", "translation", "i18n", "message",
                   "site"}  # (a CAPTCHA's site key is public)
# Parts that say the value is about the credential, not the credential itself.
_DENY_PARTS = {
    "min", "max", "len", "length", "count", "num", "number", "size", "limit", "ttl", "expire", "expires",
    "expired", "expiry", "expiration", "timeout", "age", "hash", "hashed", "hasher", "hashers", "policy",
    "rule", "rules", "regex", "re", "pattern", "field", "fields", "label", "prompt", "hint", "placeholder",
    "type", "types", "url", "uri", "endpoint", "path", "file", "filename", "dir", "name", "names", "id",
    "ids", "version", "enabled", "enable", "required", "optional", "header", "env", "var", "column",
    "format", "style", "manager", "store", "strength", "reset", "changed", "updated", "created",
    "encoding", "algorithm", "algo", "cipher", "mode", "generator", "input", "output", "validator",
    "validators", "validation", "error", "errors", "message", "msg", "class", "widget", "form", "view",
    "handler", "provider", "source", "location", "position", "index", "idx", "list", "stream", "tree",
    "kind", "tokens", "tokenizer", "method", "scheme", "scope", "scopes", "prefix",
    "suffix", "question", "answer", "icon", "button", "dialog", "level", "entropy", "bits",
    "rotation", "rotate", "holder", "owner", "user", "username", "login", "account", "email",
    "host", "port", "server", "region", "bucket", "lifetime", "duration", "date", "time", "at", "on",
    "warning", "warnings", "exception", "mgr", "range", "string", "str", "identity", "start", "end", "span",
    "offset", "pos", "test", "tests",
}
_CAMEL_RE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
# Words ending in "pass" that are no password: filters, instruments, passes of an algorithm.
_NOT_PASSWORDS = frozenset("""
bypass compass surpass overpass underpass trespass encompass impass lowpass highpass bandpass allpass
notchpass multipass onepass twopass firstpass subpass renderpass skippass
""".split())  # noqa: SIM905 - a word list reads best as words


# The words just before a bare "key" that make it a data key ("restore cache: key=…", "Idempotency-Key: …").
DATA_KEY_BEFORE_RE = re.compile(
    r"(?i)(?<![a-z])(?:" + "|".join(sorted(_DATA_KEY_PARTS)) + r")(?![a-z])[^\n]{0,12}$")


def name_parts(name: str) -> list[str]:
    return [p.lower() for p in _CAMEL_RE.findall(name)]


_NEGATIONS = {"no", "non", "without", "skip"}
_NEGATED_RE = re.compile(r"(?:no|non|without|skip)(?:password|passwd|pass|pwd|secret|token|auth|key)$")
_DENY_SUFFIXES = tuple(sorted(p for p in _DENY_PARTS if len(p) >= 4))


def _part_class(parts: list[str], i: int) -> str | None:
    """The class a name's part gives it (the part as a head noun, with what comes before it)."""
    p = parts[i]
    if _NEGATED_RE.match(p) or (i > 0 and parts[i - 1] in _NEGATIONS):
        return None  # NOPASSWORD = "no-password-required", skip_auth: the absence of a secret
    if p.endswith(_DENY_SUFFIXES) and p not in _DENY_PARTS:
        return None  # "secretsmanager", "passwordhash", "tokenname": about the secret, written as one word
    if p in _PASSWORD_PARTS or "password" in p or "passwd" in p \
            or p.endswith(("pass", "pwd", "pswd")) and len(p) <= 9 and p not in _NOT_PASSWORDS:
        return PASSWORD_NAME  # (upass, userpwd, dbpass: a login form's field names)
    if p in _SECRET_PARTS or any(s in p for s in ("secret", "apikey", "accesskey", "secretkey", "authtoken")):
        return SECRET_NAME
    if p == "key":
        if i > 0 and parts[i - 1] in _DATA_KEY_PARTS:
            return None  # a cache's, a table's or a request's key: an id or a hash, not a credential
        if i > 0 and parts[i - 1] in _PUBLIC_PARTS:
            return None  # PublicKey, publishable_key: the half that is meant to be shared
        if i > 0 and parts[i - 1] in _KEY_QUALIFIERS:
            return SECRET_NAME
        return WEAK_NAME if len(parts) == 1 or i == len(parts) - 1 else None
    if p in _WEAK_PARTS:
        return WEAK_NAME
    return None


def public_name(parts: list[str]) -> bool:
    """A name that says its value is public: a public or publishable key, Web Push's applicationServerKey (the
    VAPID public key every browser is sent)."""
    return bool(_PUBLIC_PARTS & set(parts)) or parts[-3:] == ["application", "server", "key"]


def name_class(name: str) -> str | None:
    """PASSWORD_NAME, SECRET_NAME, WEAK_NAME or None for an identifier or header name.

    The head of a compound name is its last meaningful part: ``user_password``,
    ``account_key`` and ``admin_token`` name credentials, while a part after the
    credential word makes the name about it instead (``PASSWORD_MIN_LENGTH``,
    ``token_type``, ``secret_number``, ``password_hash``).
    """
    parts = name_parts(name)
    if parts and parts[-1] in ("ak", "sk"):  # AK / SK, HUAWEICLOUD_SDK_AK: how Chinese cloud docs
        return WEAK_NAME  # name a key pair; two letters name many things, only a random value is a key
    if len(parts) >= 2 and parts[-1] == "id" and ("secret" in parts or parts[-3:-1] == ["access", "key"]):
        return SECRET_NAME  # SecretId, AccessKeyId: one half of a cloud key pair
    if parts[-3:] == ["application", "server", "key"]:
        return None  # (public_name: the VAPID public key)
    heads = [(i, c) for i in range(len(parts)) if (c := _part_class(parts, i)) is not None]
    if not heads:
        return None
    i, cls = heads[-1]
    if any(p in _DENY_PARTS for p in parts[i + 1:]):
        return None  # "PASSWORD_MIN_LENGTH", "token_type", "max_tokens": about the secret, not the secret
    if cls == WEAK_NAME and any(c != WEAK_NAME for _, c in heads):
        cls = next(c for _, c in reversed(heads) if c != WEAK_NAME)  # "secret_key" → secret
    return cls
