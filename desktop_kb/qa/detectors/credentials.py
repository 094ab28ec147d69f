"""Credentials found by their context: ``NAME = value``, prose, URLs, headers, command lines.

A value is a credential when a name or a word says so and the value itself
could be one. Names are read by their parts (``DB_PASSWORD``, ``appSecret``,
``aws_secret_access_key``, ``x-api-key``, 密码, 口令, 令牌 …); parts that make
the value something else (``PASSWORD_MIN_LENGTH``, ``token_type``,
``secret_number``) cancel it. Values that are code (``input()``,
``os.environ[…]``, ``self.password``), placeholders (``***``, ``<your key>``,
``${DB_PASS}``) or words (``password is required``) pass, and so does crypto
vocabulary: 密码学 and 公钥密码：RSA are about ciphers, not passwords.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator

from desktop_kb.qa.detectors.base import (
    API_KEY,
    PASSWORD,
    Finding,
    char_classes,
    identifier_like,
    looks_random,
)

# ----- names -----------------------------------------------------------------------------------

PASSWORD_NAME, SECRET_NAME, WEAK_NAME = "password", "secret", "weak"

_PASSWORD_PARTS = {"password", "passwd", "pwd", "pass", "passphrase", "passcode", "pin", "pw", "passwort",
                   "kennwort", "contrasena", "motdepasse", "senha", "wachtwoord", "psk", "wpa"}
_SECRET_PARTS = {"secret", "token", "credential", "credentials", "creds", "apikey",
                 "sessionid", "authorization", "auth", "bearer", "appsecret", "appkey", "accesskey",
                 "secretkey", "masterkey", "authkey", "privatekey", "clientsecret", "accesstoken",
                 "refreshtoken", "authtoken", "webhook"}
_KEY_QUALIFIERS = {"api", "app", "access", "secret", "master", "auth", "private", "client", "signing",
                   "sign", "encryption", "enc", "license", "licence", "session", "account", "subscription",
                   "service", "admin", "root", "x", "openai", "deploy", "webhook"}
_WEAK_PARTS = {"key", "sig", "signature", "cookie", "cookies"}
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


def name_parts(name: str) -> list[str]:
    return [p.lower() for p in _CAMEL_RE.findall(name)]


def _part_class(parts: list[str], i: int) -> str | None:
    """The class a name's part gives it (the part as a head noun, with what comes before it)."""
    p = parts[i]
    if p in _PASSWORD_PARTS or "password" in p or "passwd" in p:
        return PASSWORD_NAME
    if p in _SECRET_PARTS or any(s in p for s in ("secret", "apikey", "accesskey", "secretkey", "authtoken")):
        return SECRET_NAME
    if p == "key":
        if i > 0 and parts[i - 1] in _KEY_QUALIFIERS:
            return SECRET_NAME
        return WEAK_NAME if len(parts) == 1 or i == len(parts) - 1 else None
    if p in _WEAK_PARTS:
        return WEAK_NAME
    return None


def name_class(name: str) -> str | None:
    """PASSWORD_NAME, SECRET_NAME, WEAK_NAME or None for an identifier or header name.

    The head of a compound name is its last meaningful part: ``user_password``,
    ``account_key`` and ``admin_token`` name credentials, while a part after the
    credential word makes the name about it instead (``PASSWORD_MIN_LENGTH``,
    ``token_type``, ``secret_number``, ``password_hash``).
    """
    parts = name_parts(name)
    if parts in (["ak"], ["sk"]):  # AK / SK: how Chinese cloud docs name an access key pair
        return WEAK_NAME  # two letters name many things; only a random value makes them a key
    if len(parts) >= 2 and parts[-1] == "id" and ("secret" in parts or parts[-3:-1] == ["access", "key"]):
        return SECRET_NAME  # SecretId, AccessKeyId: one half of a cloud key pair
    heads = [(i, c) for i in range(len(parts)) if (c := _part_class(parts, i)) is not None]
    if not heads:
        return None
    i, cls = heads[-1]
    if any(p in _DENY_PARTS for p in parts[i + 1:]):
        return None  # "PASSWORD_MIN_LENGTH", "token_type", "max_tokens": about the secret, not the secret
    if cls == WEAK_NAME and any(c != WEAK_NAME for _, c in heads):
        cls = next(c for _, c in reversed(heads) if c != WEAK_NAME)  # "secret_key" → secret
    return cls


# ----- values ----------------------------------------------------------------------------------

_PLACEHOLDER_RE = re.compile(
    r"^(?:x{2,}|X{2,}|\*+|•+|●+|\.{2,}|…+|-+|_+|\?+|<[^>]*>?|\[[^\]]*\]|\{\{.*\}\}|\$\{.*\}?|\$\(.*|\$[A-Za-z_]\w*|"
    r"%\(?\w*\)?s|%[A-Za-z_]+%|#\{.*\}|\{[A-Za-z_]\w*\}|<%.*|@@.*|!\w+.*)$")
_WORD_VALUES = frozenset(["none", "null", "nil", "true", "false", "yes", "no", "on", "off", "undefined", "required", "optional", "empty", "blank", "str", "string", "bool", "boolean", "int", "integer", "bytes", "float", "number", "char", "text", "secret", "secrets", "password", "passwords", "passwd", "pass", "pwd", "token", "tokens", "key", "keys", "apikey", "api_key", "credential", "credentials", "changeme", "change_me", "change-me", "placeholder", "example", "sample", "dummy", "test", "todo", "tbd", "fixme", "redacted", "hidden", "masked", "omitted", "removed", "same-origin", "include", "omit", "auto", "default", "inherit", "bearer", "basic", "oauth", "oauth2", "jwt", "session", "cookie", "header", "query", "body", "env", "environ", "file", "vault", "keyring", "keychain", "prompt", "ask", "plain", "plaintext", "base64", "hex", "utf-8", "utf8", "await", "async", "new", "function", "lambda", "return", "yield", "self", "this", "super", "cls", "input", "getpass", "os", "sys", "process", "config", "settings", "value", "values", "your", "yours", "mine", "here", "there", "see", "below", "above", "option", "options", "flag", "flags", "argument", "arguments", "parameter", "parameters", "field", "prompt"])
# "the password is …": words that describe the password rather than being it.
_PROSE_STOPWORDS = frozenset(["the", "a", "an", "not", "too", "very", "so", "is", "was", "be", "been", "being", "correct", "incorrect", "wrong", "right", "required", "optional", "invalid", "valid", "empty", "blank", "set", "unset", "stored", "saved", "changed", "reset", "hashed", "encrypted", "hidden", "shown", "visible", "needed", "necessary", "strong", "weak", "secure", "insecure", "long", "short", "case", "sensitive", "same", "different", "expired", "missing", "known", "unknown", "public", "private", "secret", "mandatory", "managed", "generated", "random", "unique", "shared", "used", "sent", "typed", "entered", "displayed", "masked", "protected", "never", "always", "also", "still", "now", "then", "only", "just", "and", "or", "but", "for", "to", "of", "in", "on", "at", "by", "with", "from", "as", "that", "this", "it", "what", "which", "who", "how", "why", "when", "where", "your", "my", "our", "their", "his", "her", "its", "yours", "mine", "none", "null", "nothing", "something", "anything", "same", "easy", "hard", "simple", "complex", "usually", "often", "stored", "really", "probably", "also", "there", "here"])
_CODE_RE = re.compile(r"[()\[\]{}]|::|->|=>|=(?!=*$)|^[$%@&!*:]|^(?:[A-Za-z_]\w*)(?:\.[A-Za-z_]\w*)+$")
_HAN_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_CRYPTO_WORDS = frozenset(["rsa", "aes", "des", "3des", "tdes", "sm2", "sm3", "sm4", "sm9", "ecc", "dsa", "ecdsa", "ed25519", "x25519", "md5", "sha", "sha1", "sha2", "sha256", "sha512", "sha3", "hmac", "rc4", "rc5", "rc6", "blowfish", "twofish", "chacha20", "salsa20", "elgamal", "diffie-hellman", "dh", "ecdh", "idea", "cast5", "camellia", "bcrypt", "scrypt", "argon2", "pbkdf2", "otp", "totp", "hotp"])


_TEMPLATE_RE = re.compile(r"<[A-Za-z_ .-]+>|\$\{|\{\{|%\(\w+\)|\[[A-Za-z_ ]+\]")


def _is_placeholder(value: str) -> bool:
    v = value.strip()
    low = v.lower()
    return (not v or bool(_PLACEHOLDER_RE.match(v)) or bool(_TEMPLATE_RE.search(v))
            or bool(re.fullmatch(r"[\W_]+", v)) or low in _WORD_VALUES or low in _CRYPTO_WORDS
            or low.startswith(("your", "<your", "my-", "xxx", "sk-xxx", "sk-...")) or "your_" in low
            or "your-" in low or "_here" in low or "-here" in low or low.endswith("here"))


def _is_path_or_url(value: str) -> bool:
    return value.startswith(("/", "~/", "./", "../", "http://", "https://", "file:", "C:\\")) \
        or "://" in value


_FORMAT_RE = re.compile(r"%[-#0 +]*\d*(?:\.\d+)?[sdrfxXiouceEgG]|\{\d*\}|\{[a-z_]\w*(?:[:!][^}]*)?\}")
_SENTENCE_AFTER_RE = re.compile(r"[ \t]+[A-Za-z]{2,}\b")


def plausible(value: str, cls: str, *, quoted: bool, prose: bool = False, spaced: bool = False,
              followed_by: str = "") -> bool:
    """Could ``value`` be the credential a name of class ``cls`` announces?

    ``spaced``: the assignment had spaces around ``=`` (code style); ``followed_by``:
    the rest of the line after an unquoted value.
    """
    v = value.strip()
    if _HAN_RE.search(v) or _is_placeholder(v) or _FORMAT_RE.search(v):
        return False
    if not quoted and (_CODE_RE.search(v) or re.fullmatch(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+", v)
                       or followed_by[:1] in (")", ",") and re.fullmatch(r"[A-Za-z_]\w*", v)):
        return False  # a variable or an expression, not a literal
    if quoted and _sentence(v):
        return False  # 'The "pass" statement': a message, not a password
    if not quoted and re.fullmatch(r"[A-Za-z_]+", v):
        if spaced:
            return False  # "passwd = acct", "token = Whitespace + …": a name, not a value
        rest = followed_by.strip()
        if rest and not rest.startswith(("#", "//", "<!--")) and not _HAN_RE.match(rest) \
                and rest[0] not in "，。；、（":
            # "- password:  The password for …", "pwd: expected bytes", "auth: AuthTypes | None":
            # a bare word is a value only at the end of its line.
            return False
    if _is_path_or_url(v):
        return False
    if prose and (v.lower() in _PROSE_STOPWORDS or re.fullmatch(r"[a-z]+(?:ed|ing|ly)", v)):
        return False
    if cls == PASSWORD_NAME:
        return len(v) >= (4 if prose else 3)
    if cls == SECRET_NAME:
        if not re.search(r"[A-Za-z]", v):
            return len(v) >= 20 and v.isdigit()  # versions, OIDs, dates, IPs are not keys
        if identifier_like(v) or (len(v) >= 20 and not looks_random(v, min_len=20)):
            return False
        # Generated keys carry digits; "AWSSecretKey" and "#ansiyellow" are names and colours.
        return len(v) >= 8 and bool(re.search(r"\d", v)) and bool(re.search(r"[A-Za-z]", v)) or len(v) >= 20
    return looks_random(v)


# ----- assignments: NAME = value, "name": "value", name: value, 密码：value ---------------------

_NAME = r"(?P<name>[A-Za-z_][A-Za-z0-9_.\-]*[A-Za-z0-9])"
_VALUE = (r"(?:\"(?P<dq>[^\"\n]{1,300})\"|'(?P<sq>[^'\n]{1,300})'|`(?P<bq>[^`\n]{1,300})`|"
          r"(?P<raw>[^\s\"'`,;]{1,300}))")
_ASSIGN_RE = re.compile(
    rf"(?<![A-Za-z0-9_$])[\"']?{_NAME}[\"']?[ \t]*(?:=>|:=|==|=|:)[ \t]*(?:!!\w+[ \t]+)?{_VALUE}")
_ZH_NAME = (r"(?P<name>密码|密碼|口令|授权码|授權碼|密钥|密鑰|秘钥|祕鑰|令牌|凭证|憑證|凭据|憑據|私钥|私鑰|"
            r"PIN码|PIN碼|pin码)")
_ZH_ASSIGN_RE = re.compile(
    _ZH_NAME + r"[ \t]*(?P<sep>[:=]|(?:(?:已|被)?(?:改|换|換|设|設|修改|更新|重置|变|變)(?:成|为|為|到|置为|置為))了?|"
    r"是|为|為|是[:：]|为[:：])?[ \t]*[\"'“「『]?(?P<raw>[\x21-\x2b\x2d-\x3a\x3c-\x7e]{1,200})")
# Other languages' words for "password" (people study in more than two).
_FOREIGN_RE = re.compile(
    r"(?i)(?<![^\W\d_])(?:contraseña|contrasena|mot\s+de\s+passe|passwort|kennwort|senha|wachtwoord|hasło|"
    r"пароль|パスワード|비밀번호|암호)\s*(?P<sep>[:=]|est|ist|es|é|is)?\s*[\"'“«]?(?P<raw>[^\s\"'”»]{3,200})")
_ZH_SECRET_NAMES = {"密钥", "密鑰", "秘钥", "祕鑰", "令牌", "凭证", "憑證", "凭据", "憑據", "私钥", "私鑰"}
# 公钥密码, 对称密码, 凯撒密码: kinds of cipher, not passwords.
_CIPHER_PREFIX_RE = re.compile(
    r"(?:公钥|公鑰|私钥|私鑰|对称|對稱|分组|分組|序列|流|古典|现代|現代|凯撒|凱撒|维吉尼亚|維吉尼亞|替换|替換|置换|置換|"
    r"代换|代換|单表|單表|多表|仿射|量子|格|国密|國密|商用|轻量级|輕量級|同态|同態|块|塊|一次一|栅栏|柵欄|摩斯|希尔|希爾|"
    r"恩尼格玛|恩尼格瑪|换位|換位|密码学|密碼學)$")
_TRAILING = ",.;:!?)]}>'\"”」』"


def _value(m: re.Match[str]) -> tuple[str, int, int, bool]:
    """(value to judge, start, end, quoted). An unquoted value is judged without trailing
    punctuation but withheld whole: a password may end in "!" or ")", and withholding a
    comma too much costs nothing."""
    for group, quoted in (("dq", True), ("sq", True), ("bq", True), ("raw", False)):
        if m.groupdict().get(group) is not None:
            value = m.group(group)
            if quoted:
                return value, m.start(group), m.end(group), True
            # A comma or semicolon after a value is the sentence's (，； arrive as , ;).
            end = m.start(group) + len(value.rstrip(",;"))
            return value.rstrip(_TRAILING), m.start(group), end, False
    raise AssertionError("no value group matched")


_FUNCTION_WORDS = frozenset(["the", "a", "an", "is", "are", "was", "of", "to", "for", "and", "or", "in", "on", "with", "not", "be", "this", "that", "it"])


def _sentence(value: str) -> bool:
    words = value.split()
    return len(words) >= 3 and any(w.lower().strip(".,;:!?\"'") in _FUNCTION_WORDS for w in words)


def _finding(cls: str, start: int, end: int) -> Finding:
    return Finding(PASSWORD if cls == PASSWORD_NAME else API_KEY, start, end)


def _names_and_values(text: str) -> Iterator[re.Match[str]]:
    """Every ``name = value`` match, including names inside the value of another (a URL's query)."""
    pos = 0
    while (m := _ASSIGN_RE.search(text, pos)) is not None:
        yield m
        pos = m.end("name") + 1


def assignments(text: str) -> Iterator[Finding]:
    for m in _names_and_values(text):
        cls = name_class(m.group("name"))
        if cls is None:
            continue
        value, start, end, quoted = _value(m)
        if not quoted and text[m.start("name") - 1:m.start("name")] in ("?", "&"):
            cut = re.search(r"[&#]", value)  # a URL query: the value ends at the next parameter
            if cut:
                value, end = value[:cut.start()], start + cut.start()
        spaced = bool(re.search(r"\s=|=\s", text[m.end("name"):start]))
        line_end = text.find("\n", end)
        rest = text[end:len(text) if line_end < 0 else line_end]
        if cls == WEAK_NAME and name_parts(m.group("name"))[-1] in ("sig", "signature") \
                and text[m.start("name") - 1:m.start("name")] not in ("?", "&"):
            continue  # a signature is a credential in a signed URL's query, not in a file header
        if value and plausible(value, cls, quoted=quoted, spaced=spaced, followed_by=rest):
            yield _finding(cls, start, end)
    for m in _ZH_ASSIGN_RE.finditer(text):
        if _CIPHER_PREFIX_RE.search(text[max(0, m.start() - 6):m.start()]):
            continue
        name = m.group("name")
        cls = SECRET_NAME if name in _ZH_SECRET_NAMES else PASSWORD_NAME
        value, start, end, quoted = _value(m)
        if not m.group("sep") and not re.search(r"\d", value):
            continue  # "密码 RSA 算法": without ：/是/为 only a value with digits reads as a password
        if value and plausible(value, cls, quoted=quoted):
            yield _finding(cls, start, end)
    for m in _FOREIGN_RE.finditer(text):
        value, start, end, _quoted = _value(m)
        if value and re.search(r"[\d\W]", value) and plausible(value, PASSWORD_NAME, quoted=False, prose=True):
            yield Finding(PASSWORD, start, end)


# ----- prose: "my password is …", "PIN 1234", "passphrase: correct horse battery staple" -------

_PROSE_RE = re.compile(
    r"(?i)(?<![A-Za-z])(?:password|passwd|passcode|pass\s?word|pwd|pin(?:\s*code)?|"
    r"(?:door|gate|lock|access|entry|alarm|safe|locker|building|alarm)\s+code)"
    r"(?:\s+(?:for|of|to|on)\s+[^\n.,;:!?]{1,40}?)?\s+(?P<sep>is|was|are|=|:|-|—|now|to|is\s+now|(?:set|changed|reset)\s+to)"
    r"\s+[\"'“]?(?P<raw>[^\s\"'”]{1,200})")
_PIN_RE = re.compile(r"(?i)(?<![A-Za-z])PIN(?:\s*(?:code|码|碼|number|no\.?|#))?\s*[:=#]?\s*(?P<v>\d{4,8})(?!\d)")
_PASSPHRASE_RE = re.compile(r"(?i)(?<![A-Za-z])pass\s?phrase[^\n:=]{0,24}[:=][ \t]*(?P<v>[^\n]{4,120})")


def prose(text: str) -> Iterator[Finding]:
    lower = text.lower()
    if not any(w in lower for w in ("pass", "pwd", "pin", "code")):
        return
    for m in _PROSE_RE.finditer(text):
        value, start, end, _quoted = _value(m)
        line_end = text.find("\n", end)
        rest = text[end:len(text) if line_end < 0 else line_end]
        if m.group("sep").endswith("to") and not re.search(r"[\d\W_]", value):
            continue  # "password to access the server": a purpose, not a password
        if value and plausible(value, PASSWORD_NAME, quoted=False, prose=True, followed_by=rest,
                               spaced=m.group("sep") in ("=", "-", "—")):
            yield Finding(PASSWORD, start, end)
    for m in _PIN_RE.finditer(text):
        yield Finding(PASSWORD, m.start("v"), m.end("v"))
    for m in _PASSPHRASE_RE.finditer(text):
        value = m.group("v").rstrip(" \t" + _TRAILING)
        if value and not _HAN_RE.match(value) and not _is_placeholder(value.split()[0]):
            yield Finding(PASSWORD, m.start("v"), m.start("v") + len(value))


# ----- URLs with credentials, Authorization headers, command lines ----------------------------

_URL_CRED_RE = re.compile(
    r"(?<![A-Za-z0-9+.-])(?P<scheme>[A-Za-z][A-Za-z0-9+.-]{1,24}):(?://)?(?P<user>[^\s:/@\"'<>]*):"
    r"(?P<pw>[^\s/\"'<>]+)@(?P<host>[A-Za-z0-9_.\-\[\]%]+)")
_BARE_CRED_RE = re.compile(
    r"(?<![A-Za-z0-9_@/:.-])(?!(?:mailto|sip|sips|xmpp|tel|im|news):)(?P<user>[A-Za-z0-9._-]{1,40}):(?P<pw>[^\s@/:\"']{3,80})@"
    r"(?P<host>(?:\d{1,3}\.){3}\d{1,3}|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)(?::\d{2,5})?(?![A-Za-z0-9])")
_AUTH_HEADER_RE = re.compile(
    r"(?i)(?:proxy-)?authorization[\"']?\s*[:=]\s*[\"']?"
    r"(?:(?:basic|bearer|token|bot|digest|apikey|api-key|sso-key|ssws|jwt|hmac|negotiate|ntlm|"
    r"aws4-hmac-sha256|key|klaviyo-api-key|zoho-oauthtoken)\s+)?(?P<v>[A-Za-z0-9._~+/=:,-]{6,})")
_BEARER_RE = re.compile(r"(?i)(?<![A-Za-z])bearer\s+(?P<v>[A-Za-z0-9._~+/=-]{8,})")
_BASIC_RE = re.compile(r"(?i)(?<![A-Za-z])basic\s+(?P<v>[A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/=])")
_CURL_USER_RE = re.compile(r"(?:^|\s)(?:-u|--user|--proxy-user)\s*[\"']?[^\s:\"']*:(?P<v>[^\s\"']+)")
_FLAG_RE = re.compile(
    r"(?i)(?:^|\s)--?(?P<name>[a-z0-9]+(?:-[a-z0-9]+)*)(?:=|\s+)[\"']?(?P<v>[^\s\"']{3,300})")
_MYSQL_P_RE = re.compile(
    r"(?i)\b(?:mysql|mysqldump|mysqladmin|mariadb|mysqlimport)\b[^\n]*?\s-p[\"']?(?P<v>[^\s\"'-][^\s\"']*)")
_HTPASSWD_RE = re.compile(r"\bhtpasswd\s+(?:-[a-zA-Z]*b[a-zA-Z]*\s+)(?:-\w+\s+)*\S+\s+\S+\s+[\"']?(?P<v>[^\s\"']+)")
# "login: lilei / Pa$$w0rd", "账号：lilei / lilei@2024", "WiFi：TP-LINK_302 / lab12345678"
_SLASH_PAIR_RE = re.compile(
    r"(?i)(?:login|log\s?in|account|username|账号|帳號|帐号|账户|用户名|wi-?fi|wlan|无线|無線|热点|熱點)"
    r"[ \t\w-]{0,20}?(?:[:：]|\s)\s*[\w.@+-]{1,40}[ \t]*/[ \t]*(?P<v>[^\s/，,。]{4,64})")
# A wallet's seed phrase: 12–24 lowercase words after the word for it.
_SEED_RE = re.compile(
    r"(?i)(?:助记词|助記詞|mnemonic|seed\s+phrase|recovery\s+phrase|seed\s+words|恢复短语|恢復短語)[^\n:：]{0,12}[:：]?\s*"
    r"(?P<v>[a-z]{3,8}(?:\s+[a-z]{3,8}){11,23})\b")
_SSHPASS_RE = re.compile(r"\bsshpass\s+-p\s*[\"']?(?P<v>[^\s\"']+)")
_ORACLE_RE = re.compile(r"(?i)\b(?:sqlplus|sqlldr|expdp|impdp|rman|conn(?:ect)?)\s+[\w.$#-]+/(?P<v>[^\s@/]{3,})@")
_REDIS_A_RE = re.compile(r"\bredis-cli\b[^\n]*?\s(?:-a|--pass|--askpass)\s+[\"']?(?P<v>[^\s\"']+)")
# login("user", "secret"), auth=("api", "key-…"), HTTPBasicAuth("u", "p"): the second string is the secret.
_CREDENTIAL_PAIR_RE = re.compile(
    r"(?i)(?:\b(?:login|auth|authenticate|basic_auth|httpbasicauth|httpdigestauth|set_password|connect|"
    r"credentials?)\s*(?:=\s*)?[(\[]\s*)[\"'][^\"'\n]{1,80}[\"']\s*,\s*[\"'](?P<v>[^\"'\n]{3,200})[\"']")
# ~/.pgpass: host:port:database:user:password
_PGPASS_RE = re.compile(r"(?m)^[A-Za-z0-9_.*-]+:(?:\d{2,5}|\*):[^:\s]+:[^:\s]+:(?P<v>\S+)$")
_WIFI_QR_RE = re.compile(r"WIFI:[^\n]*?(?<=[:;])P:(?P<v>(?:\\.|[^;\n])+);")
# Webhook URLs carry their secret in the path (飞书, Discord, generic /hooks/…).
_WEBHOOK_PATH_RE = re.compile(r"https?://[^\s\"'<>]*?/(?:hooks?|webhooks?)/(?P<path>[^\s\"'<>?#]+)", re.I)
_LOGIN_TOKEN_RE = re.compile(
    r"\b(?:cargo|npm|docker|heroku|gh|glab|vercel|netlify|wrangler|huggingface-cli|twine)\s+login\b[^\n]*?\s"
    r"(?P<v>[A-Za-z0-9_\-.]{16,})")


def _basic_credentials(value: str) -> bool:
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return False
    return ":" in decoded and decoded.isprintable()


def urls_and_headers(text: str) -> Iterator[Finding]:
    lower = text.lower()
    if "@" in text:
        for rx in (_URL_CRED_RE, _BARE_CRED_RE):
            for m in rx.finditer(text):
                pw = m.group("pw")
                if m.group("user").startswith("["):
                    continue  # "scheme://[user:passwd@]host": the syntax, written out
                if not _PLACEHOLDER_RE.match(pw) and not _TEMPLATE_RE.search(pw) and not re.fullmatch(r"\d{1,5}", pw):  # host:port
                    yield Finding(PASSWORD, m.start("pw"), m.end("pw"))
    if "authorization" in lower:
        for m in _AUTH_HEADER_RE.finditer(text):
            value = m.group("v").rstrip(_TRAILING)
            if not _is_placeholder(value) and (char_classes(value) >= 2 or len(value) >= 16) \
                    and not _CODE_RE.search(value) and not identifier_like(value):
                yield Finding(API_KEY, m.start("v"), m.start("v") + len(value))
    if "bearer" in lower:
        for m in _BEARER_RE.finditer(text):
            value = m.group("v").rstrip(_TRAILING)
            if not _is_placeholder(value) and (char_classes(value) >= 2 or len(value) >= 20):
                yield Finding(API_KEY, m.start("v"), m.start("v") + len(value))
    if "basic" in lower:
        for m in _BASIC_RE.finditer(text):
            if _basic_credentials(m.group("v")):
                yield Finding(API_KEY, m.start("v"), m.end("v"))
    for m in _SLASH_PAIR_RE.finditer(text):
        value = m.group("v").rstrip(",.;:)]}>'\"”」』")  # "!" and "#" are password characters
        if re.search(r"\d|[^\w\[\](){}<>]", value) and value[0] not in "[(<{" \
                and not _is_path_or_url(value) and not _is_placeholder(value):
            yield Finding(PASSWORD, m.start("v"), m.start("v") + len(value))
    for m in _SEED_RE.finditer(text):
        yield Finding(PASSWORD, m.start("v"), m.end("v"))
    for rx, hint in ((_CURL_USER_RE, "-u"), (_CURL_USER_RE, "-user"), (_MYSQL_P_RE, "-p"), (_HTPASSWD_RE, "htpasswd"),
                     (_SSHPASS_RE, "sshpass"), (_REDIS_A_RE, "redis-cli"), (_ORACLE_RE, "/"), (_CREDENTIAL_PAIR_RE, ","),
                     (_PGPASS_RE, ":"), (_WIFI_QR_RE, "wifi:")):
        if hint in lower:
            for m in rx.finditer(text):
                if not _is_placeholder(m.group("v")):
                    yield Finding(PASSWORD, m.start("v"), m.end("v"))
    if "-" in text:
        for m in _FLAG_RE.finditer(text):
            cls = name_class(m.group("name"))
            value = m.group("v").rstrip(_TRAILING)
            line_end = text.find("\n", m.end())
            rest = text[m.start("v") + len(value):len(text) if line_end < 0 else line_end]
            if cls is not None and plausible(value, cls, quoted=False, followed_by=rest):
                yield _finding(cls, m.start("v"), m.start("v") + len(value))
    if "hook" in lower:
        for m in _WEBHOOK_PATH_RE.finditer(text):
            for seg in re.finditer(r"[^/]+", m.group("path")):
                if looks_random(seg.group(0)):
                    yield Finding(API_KEY, m.start("path") + seg.start(), m.start("path") + seg.end())
    if "login" in lower:
        for m in _LOGIN_TOKEN_RE.finditer(text):
            if looks_random(m.group("v")):
                yield Finding(API_KEY, m.start("v"), m.end("v"))


# ----- a random token next to a key word -----------------------------------------------------

_KEYWORD_RE = re.compile(
    r"(?i)(?<![A-Za-z_])(?:api[\s_-]?key|access[\s_-]?key|secret[\s_-]?key|app[\s_-]?secret|key|keys|token|"
    r"secret|credentials?|password|passcode|auth)(?![A-Za-z_])"
    r"|(?<![A-Za-z])(?:AK|SK)(?![A-Za-z])|密钥|密鑰|秘钥|祕鑰|令牌|凭证|憑證|凭据|憑據|授权码|授權碼|私钥|私鑰|密码|密碼|口令")
_TOKEN_RE = re.compile(r"(?<![A-Za-z0-9_+/=.~-])[A-Za-z0-9_+/=.~-]{16,512}(?![A-Za-z0-9_+/=.~-])")
_FILLER_STOP_RE = re.compile(r"[。！？\n]|\.\s")


def keyword_tokens(text: str) -> Iterator[Finding]:
    """A machine-made token within a short phrase after a key word ("auth token 93ae…", "密钥 839d…")."""
    for kw in _KEYWORD_RE.finditer(text):
        window_end = min(len(text), kw.end() + 32)
        stop = _FILLER_STOP_RE.search(text, kw.end(), window_end)
        limit = stop.start() if stop else window_end
        for m in _TOKEN_RE.finditer(text, kw.end(), min(len(text), limit + 512)):
            if m.start() > limit:
                break
            value = m.group(0).rstrip(".")
            if looks_random(value) and not _is_path_or_url(value):
                yield Finding(API_KEY, m.start(), m.start() + len(value))
                break


# ----- "password 8dk2Lq0vPz" (.netrc, prose), {"key": "x-api-key", "value": "…"} -------------

_VERB_LIKE_NAMES = frozenset(["pass", "pin", "key", "keys", "auth", "sig", "signature", "cookie", "cookies", "token", "tokens"])
_SPACED_RE = re.compile(
    r"(?<![A-Za-z0-9_$-])(?P<name>[A-Za-z][A-Za-z0-9_-]{1,40})[ \t]+(?P<raw>[^\s\"'`,;，。；]{3,300})")
_PAIR_RE = re.compile(
    r"(?i)[\"']?(?:key|name|header|field|variable)[\"']?\s*[:=]\s*[\"'](?P<name>[A-Za-z][A-Za-z0-9_.-]{1,60})[\"']"
    r"\s*[,\n]\s*(?:-\s*)?[\"']?value[\"']?\s*[:=]\s*(?:\"(?P<dq>[^\"\n]{1,300})\"|'(?P<sq>[^'\n]{1,300})'|"
    r"(?P<raw>[^\s\"',}]{1,300}))")
_PAIR_YAML_RE = re.compile(
    r"(?im)^(?P<indent>[ \t]*)-?[ \t]*(?:key|name)[ \t]*:[ \t]*[\"']?(?P<name>[A-Za-z][A-Za-z0-9_.-]{1,60})[\"']?[ \t]*\n"
    r"(?:[ \t]*(?!value)[A-Za-z_]+[ \t]*:[^\n]*\n){0,2}[ \t]*value[ \t]*:[ \t]*"
    r"(?:\"(?P<dq>[^\"\n]{1,300})\"|'(?P<sq>[^'\n]{1,300})'|(?P<raw>[^\s\"'#]{1,300}))")


def spaced_pairs(text: str) -> Iterator[Finding]:
    """A credential name, spaces, then a value that cannot be an ordinary word."""
    for m in _SPACED_RE.finditer(text):
        name = m.group("name")
        cls = name_class(name)
        if cls is None or name.lower() in _VERB_LIKE_NAMES:
            continue  # "Pass embed=True", "Pin Accept-Encoding": verbs, not names
        value, start, end, _quoted = _value(m)
        if not re.search(r"\d", value) and not looks_random(value):
            continue  # "password manager", "token and/or": a phrase, not a credential
        line_end = text.find("\n", end)
        rest = text[end:len(text) if line_end < 0 else line_end]
        strict = SECRET_NAME if cls == WEAK_NAME else cls
        if cls == WEAK_NAME and not looks_random(value):
            continue
        if plausible(value, strict, quoted=False, prose=True, followed_by=rest):
            yield _finding(strict, start, end)
    for rx in (_PAIR_RE, _PAIR_YAML_RE):
        for m in rx.finditer(text):
            cls = name_class(m.group("name"))
            if cls is None:
                continue
            value, start, end, quoted = _value(m)
            if value and plausible(value, cls, quoted=quoted):
                yield _finding(cls, start, end)


# ----- a long random literal in a .env line, whatever its name ------------------------------------

_ENV_LINE_RE = re.compile(r"(?m)^[ \t]*(?:export[ \t]+)?(?P<name>[A-Z][A-Z0-9_]{1,60})[ \t]*=[ \t]*[\"']?(?P<v>[^\s\"'#]{32,300})")
# name=value inside a cookie, a query or a line: a long random value is a credential there too.
_PAIR_ANYWHERE_RE = re.compile(r"(?<![\w-])(?P<name>[A-Za-z_][A-Za-z0-9_]{1,40})=(?P<v>[^\s\"'#&;,]{40,400})")
# A long random string literal in code is a key whatever it is passed to (``Client("RbCJ…")``).
_LITERAL_RE = re.compile(r"(?P<q>[\"'])(?P<v>[A-Za-z0-9_\-+/]{32,200}={0,2})(?P=q)")
_HEXISH_RE = re.compile(r"[0-9a-fA-F-]+")
_ID_PARTS = {"id", "hash", "sha", "sha1", "sha256", "md5", "checksum", "digest", "commit", "rev", "revision",
             "version", "uuid", "guid", "fingerprint", "etag", "url", "uri", "path", "dir", "file", "host"}


def long_literals(text: str) -> Iterator[Finding]:
    """``CF_DNS_EDIT=1rqeSAYA…``: in an environment file a long random value is a credential,
    unless its name says it is an identifier or a checksum (hex and UUIDs are left to names)."""
    for m in [*_ENV_LINE_RE.finditer(text), *_PAIR_ANYWHERE_RE.finditer(text)] if "=" in text else ():
        value = m.group("v")
        if _ID_PARTS & set(name_parts(m.group("name"))) or _HEXISH_RE.fullmatch(value):
            continue
        if looks_random(value, min_len=32) and not _is_path_or_url(value):
            yield Finding(API_KEY, m.start("v"), m.end("v"))
    for m in _LITERAL_RE.finditer(text):
        value = m.group("v")
        core = re.sub(r"[-_+/=]", "", value)
        if char_classes(core) >= 3 and not _HEXISH_RE.fullmatch(value) and looks_random(value, min_len=32):
            yield Finding(API_KEY, m.start("v"), m.end("v"))


# ----- Markdown tables with a password column ---------------------------------------------------

_TABLE_ROW_RE = re.compile(r"^[ \t]*\|(.+)\|[ \t]*$", re.M)


def table_cells(text: str) -> Iterator[Finding]:
    if "|" not in text:
        return
    columns: dict[int, str] = {}
    previous_end = -2
    for m in _TABLE_ROW_RE.finditer(text):
        cells = m.group(1).split("|")
        if m.start() != previous_end + 1:
            columns = {}  # a new table starts: this row is its header
            for i, cell in enumerate(cells):
                header = cell.strip()
                cls = name_class(header) if header.isascii() else (
                    PASSWORD_NAME if re.search(r"密码|密碼|口令|授权码|授權碼", header) else
                    SECRET_NAME if re.search(r"密钥|密鑰|秘钥|令牌|凭证|憑證|token|key", header, re.I) else None)
                if cls is not None:
                    columns[i] = cls
        elif not re.fullmatch(r"[\s:|-]+", m.group(1)):
            pos = m.start(1)
            for i, cell in enumerate(cells):
                value = cell.strip().strip("`")
                if i in columns and value and plausible(value, columns[i], quoted=True):
                    offset = cell.index(value) if value in cell else 0
                    yield _finding(columns[i], pos + offset, pos + offset + len(value))
                pos += len(cell) + 1
        previous_end = m.end()


def contextual_credentials(text: str) -> list[Finding]:
    return [*assignments(text), *prose(text), *urls_and_headers(text), *keyword_tokens(text),
            *spaced_pairs(text), *table_cells(text), *long_literals(text)]
