"""Whether a value could be the credential its name announces, and how findings are spanned.

Values that are code (``input()``, ``os.environ[…]``, ``self.password``),
placeholders (``***``, ``<your key>``, ``${DB_PASS}``), format strings or
words (``password is required``) are not credentials; neither is crypto
vocabulary (``公钥密码：RSA``).
"""

from __future__ import annotations

import base64
import binascii
import re
import urllib.parse

from desktop_kb.qa.detectors.base import (
    API_KEY,
    PASSWORD,
    Finding,
    char_classes,
    entropy,
    identifier_like,
    looks_random,
)
from desktop_kb.qa.detectors.secret_names import PASSWORD_NAME, SECRET_NAME
from desktop_kb.text.han import has_han, is_han

PLACEHOLDER_RE = re.compile(
    r"^(?:x{2,}|X{2,}|\*+|•+|●+|\.{2,}|…+|-+|_+|\?+|<[^>]*>?|\[[^\]]*\]|\{\{.*\}\}|\$\{.*\}?|\$\(.*|\$[A-Za-z_]\w*|"
    r"%\(?\w*\)?s|%[A-Za-z_]+%|#\{.*\}|\{[A-Za-z_]\w*\}|<%.*|@@.*|!\w+.*)$")
_WORD_VALUES = frozenset("""
none null nil true false yes no on off undefined required optional empty blank str string bool
boolean int integer bytes float number char text secret secrets password passwords passwd pass pwd
token tokens key keys apikey api_key credential credentials changeme change_me change-me changeit placeholder
example sample dummy test todo tbd fixme redacted hidden masked omitted removed same-origin include
omit auto default inherit bearer basic oauth oauth2 jwt session cookie header query body env environ
file vault keyring keychain prompt ask plain plaintext base64 hex utf-8 utf8 await async new
function lambda return yield self this super cls input getpass os sys process config settings value
values your yours mine here there see below above option options flag flags argument arguments
parameter parameters field prompt
""".split())  # noqa: SIM905 - a word list reads best as words
# "the password is …": words that describe the password rather than being it.
_PROSE_STOPWORDS = frozenset("""
the a an not too very so is was be been being correct incorrect wrong right required optional
invalid valid empty blank set unset stored saved changed reset hashed encrypted hidden shown visible
needed necessary strong weak secure insecure long short case sensitive same different expired
missing known unknown public private secret mandatory managed generated random unique shared used
sent typed entered displayed masked protected never always also still now then only just and or but
for to of in on at by with from as that this it what which who how why when where your my our their
his her its yours mine none null nothing something anything same easy hard simple complex usually
often stored really probably also there here
""".split())  # noqa: SIM905 - a word list reads best as words
CODE_RE = re.compile(r"[()\[\]{}]|::|->|=>|=(?!=*$)|^[$%@&!*:]|^(?:[A-Za-z_]\w*)(?:\.[A-Za-z_]\w*)+$")
_CRYPTO_WORDS = frozenset("""
rsa aes des 3des tdes sm2 sm3 sm4 sm9 ecc dsa ecdsa ed25519 x25519 md5 sha sha1 sha2 sha256 sha512
sha3 hmac rc4 rc5 rc6 blowfish twofish chacha20 salsa20 elgamal diffie-hellman dh ecdh idea cast5
camellia bcrypt scrypt argon2 pbkdf2 otp totp hotp
""".split())  # noqa: SIM905 - a word list reads best as words


# An algorithm's name with its size and mode ("SHA-256", "AES-256-GCM", "RSA-2048", "PBKDF2-HMAC-SHA256",
# "Argon2id", "secp256k1", "HS256", "SHA256withRSA"): what a lesson says a password is hashed or sent with.
_ALGORITHM = (r"(?:rsa|aes|3?des|sm[2349]|ecc|e?c?dsa|eddsa|ed(?:25519|448)|x(?:25519|448)|md[245]|sha(?:-?[123])?|hmac|"
              r"rc[456]|(?:two|blow)fish|x?chacha(?:8|12|20)?|salsa20|poly1305|elgamal|ecdhe?|dhe?|camellia|b?crypt|"
              r"scrypt|yescrypt|argon2(?:id|i|d)?|pbkdf[12]|blake[23][bs]?|ripemd|crc|ntlm|whirlpool|gost|kyber|"
              r"dilithium|wpa[23]?|wep|tkip|gcm|cbc|ecb|ctr|cfb|ofb|ccm|ocb|xts|siv|oaep|pss|pkcs[157]?|with|and|v1_5|"
              r"(?:hs|rs|es|ps)(?=256|384|512)|p(?=-?(?:192|224|256|384|521))|secp(?=\d{3}[kr]1)|[kr]1)")
_SIZES = r"(?:8|12|16|20|24|32|40|56|64|80|96|112|128|160|168|192|224|256|384|512|521|1024|2048|3072|4096|8192)(?!\d)"
_ALGORITHM_RE = re.compile(rf"{_ALGORITHM}(?:[-_/ ]?(?:{_ALGORITHM}|{_SIZES}))*")


def is_algorithm(value: str) -> bool:
    """``SHA-256``, ``AES-128-CBC``, ``bcrypt``: a name of how a secret is kept, not a secret."""
    return _ALGORITHM_RE.fullmatch(value.strip().lower()) is not None


# A keyboard shortcut (VS Code's keybindings.json: "key": "ctrl+shift+alt+f"): keys, not a key.
_CHORD_RE = re.compile(r"(?i)(?:(?:ctrl|control|shift|alt|option|opt|cmd|command|meta|win|super|hyper)\+)+[\w\[\]`=/.,;'-]{1,12}"
                       r"(?:[ \t]+(?:(?:ctrl|control|shift|alt|option|opt|cmd|command|meta|win|super|hyper)\+)+[\w\[\]`=/.,;'-]{1,12})*")
TEMPLATE_RE = re.compile(r"<[A-Za-z_ .-]+>|\$\{|\{\{|%\(\w+\)|\[[A-Za-z_ ]+\]")


def is_placeholder(value: str) -> bool:
    v = value.strip()
    low = v.lower()
    return (not v or bool(PLACEHOLDER_RE.match(v)) or bool(TEMPLATE_RE.search(v)) or bool(_CHORD_RE.fullmatch(v))
            or bool(re.fullmatch(r"[\W_]+", v)) or low in _WORD_VALUES or low in _CRYPTO_WORDS or is_algorithm(v)
            or low.startswith(("your", "<your", "my-", "xxx", "sk-xxx", "sk-...")) or "your_" in low
            or "your-" in low or "_here" in low or "-here" in low or low.endswith("here"))


# Where a secret manager keeps the value: vault:secret/data/app#password, awssm:prod/db, ssm:/app/key,
# arn:aws:secretsmanager:…:secret:prod/db, projects/p/secrets/db-pass/versions/latest (a name, not the secret).
_SECRET_REF_RE = re.compile(
    r"(?:ref\+)?(?:vault|op|pass|sops|awssm|aws-sm|ssm|secretsmanager|aws-secretsmanager|gcpsm|gcp-secretmanager|"
    r"azkv|azure-keyvault|keyvault|bw|bitwarden|doppler|infisical|keyring|keychain|akeyless|conjur|lastpass|"
    r"1password|onepassword|env|file|k8s|kubernetes|secret)(?::/*|\+)[\w./-]*/?[\w.-]+(?:[#:][\w.-]+)?"
    r"|arn:aws[\w-]*:(?:secretsmanager|ssm|kms):[\w:/.+-]+|projects/[\w-]+/secrets/[\w-]+(?:/versions/\w+)?")


def is_path_or_url(value: str) -> bool:
    """A path, a URL, a data URI (an image inlined as base64 is not a secret) or a secret manager's
    reference to where the secret is kept."""
    return value.startswith(("/", "~/", "./", "../", "http://", "https://", "file:", "C:\\", "data:")) \
        or "://" in value or value[:7].lower() == "data%3a" \
        or (":" in value or "/" in value) and _SECRET_REF_RE.fullmatch(value) is not None


_MARKUP_AFTER_RE = re.compile(r"[?!.,:;]*</[A-Za-z][\w:.-]*>?")
_FORMAT_RE = re.compile(r"%[-#0 +]*\d*(?:\.\d+)?[sdrfxXiouceEgG]|\{\d*\}|\{[a-z_]\w*(?:[:!][^}]*)?\}")
_SENTENCE_AFTER_RE = re.compile(r"[ \t]+[A-Za-z]{2,}\b")


def plausible(value: str, cls: str, *, quoted: bool, prose: bool = False, spaced: bool = False,
              followed_by: str = "") -> bool:
    """Could ``value`` be the credential a name of class ``cls`` announces?

    ``spaced``: the assignment had spaces around ``=`` (code style); ``followed_by``:
    the rest of the line after an unquoted value.
    """
    v = value.strip()
    if (plain := encoded_text(v)) is not None and (is_placeholder(plain) or CODE_RE.search(plain)):
        return False  # base64 of "${DB_PASSWORD}" (a Kubernetes template), os.environ%5B%27…: not a value
    if has_han(v) or is_placeholder(v) or (_FORMAT_RE.search(v) and not _symbol_rich(v)):
        return False  # a format string; a generated key may hold "%o" by chance (Django's do)
    if not quoted and (CODE_RE.search(v) or re.fullmatch(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+", v)
                       or followed_by[:1] in (")", ",") and re.fullmatch(r"[A-Za-z_]\w*", v)):
        return False  # a variable or an expression, not a literal
    if quoted and _sentence(v):
        return False  # 'The "pass" statement': a message, not a password
    if not quoted and re.fullmatch(r"[A-Za-z_]+", v):
        if spaced:
            return False  # "passwd = acct", "token = Whitespace + …": a name, not a value
        rest = followed_by.strip()
        if rest and not rest.startswith(("#", "//", "<!--")) and not is_han(rest[0]) \
                and rest[0] not in "，。；、（":
            # "- password:  The password for …", "pwd: expected bytes", "auth: AuthTypes | None":
            # a bare word is a value only at the end of its line.
            return False
    if is_path_or_url(v):
        return False
    if prose and (v.lower() in _PROSE_STOPWORDS or re.fullmatch(r"[a-z]+(?:ed|ing|ly)", v)):
        return False
    if _MARKUP_AFTER_RE.match(v):
        return False  # "<translation>忘记密码？</translation>": the sentence and its element end
    if cls == PASSWORD_NAME:
        return len(v) >= 4  # ("遗传密码：AUG 是起始密码子": no password is three characters)
    if cls == SECRET_NAME:
        if not re.search(r"[A-Za-z]", v):
            return len(v) >= 20 and v.isdigit()  # versions, OIDs, dates, IPs are not keys
        if identifier_like(v) or (len(v) >= 20 and not looks_random(v, min_len=20) and not _symbol_rich(v)):
            return False
        # Generated keys carry digits; "AWSSecretKey" and "#ansiyellow" are names and colours.
        return len(v) >= 8 and bool(re.search(r"\d", v)) and bool(re.search(r"[A-Za-z]", v)) or len(v) >= 20
    return looks_random(v)


def encoded_text(value: str) -> str | None:
    """What a percent- or base64-encoded value says, when it says something readable."""
    if "%" in value:
        plain = urllib.parse.unquote(value)
        return plain if plain != value else None
    if len(value) < 8 or len(value) % 4 or not re.fullmatch(r"[A-Za-z0-9+/]+={0,2}", value):
        return None
    try:
        plain = base64.b64decode(value, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return plain if plain.isprintable() else None


def _symbol_rich(value: str) -> bool:
    """A generated secret with punctuation in it (Django's ``get_random_secret_key``: ``^*(@$&``)."""
    symbols = set(re.findall(r"[!#$%&()*+,\-./:;<=>?@\[\]^_{|}~]", value))
    return " " not in value and len(symbols) >= 3 and char_classes(value) >= 3 and entropy(value) >= 3.5


TRAILING = ",.;:!?)]}>'\"”」』("  # "(" opens a remark after the value: "授权码：abc…（不是登录密码）"


def value_of(m: re.Match[str]) -> tuple[str, int, int, bool]:
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
            return value.rstrip(TRAILING), m.start(group), end, False
    raise AssertionError("no value group matched")


_FUNCTION_WORDS = frozenset("""
the a an is are was of to for and or in on with not be this that it
""".split())  # noqa: SIM905 - a word list reads best as words


# Words of a form's or a dialog's message ("Enter your password", "Confirm new password", "Forgot password?").
_MESSAGE_WORDS = frozenset("""
your you please enter type input confirm forgot reset new current old again here must least characters
password passwords passwort kennwort contraseña contrasena senha wachtwoord mot passe пароль hasło şifre
""".split())  # noqa: SIM905 - a word list reads best as words


def _sentence(value: str) -> bool:
    words = [w.lower().strip(".,;:!?\"'…") for w in value.split()]
    return len(words) >= 3 and any(w in _FUNCTION_WORDS for w in words) \
        or len(words) >= 2 and all(w.isalpha() for w in words) and sum(w in _MESSAGE_WORDS for w in words) >= 2


def finding_for(cls: str, start: int, end: int) -> Finding:
    return Finding(PASSWORD if cls == PASSWORD_NAME else API_KEY, start, end)
