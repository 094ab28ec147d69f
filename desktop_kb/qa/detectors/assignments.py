"""``NAME = value``, ``"name": "value"``, ``name: value``, 密码：value, ``password 8dk2…``, tables.

The name says a credential follows (see :mod:`secret_names`); the value must
be able to be one (see :mod:`secret_values`). 密码学 and 公钥密码 are kinds of
cipher, not passwords.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from desktop_kb.qa.detectors import password_words
from desktop_kb.qa.detectors.base import PASSWORD, Finding, looks_random, wordlike
from desktop_kb.qa.detectors.secret_names import (
    DATA_KEY_BEFORE_RE,
    PASSWORD_NAME,
    SECRET_NAME,
    WEAK_NAME,
    name_class,
    name_parts,
)
from desktop_kb.qa.detectors.secret_values import (
    TRAILING,
    finding_for,
    is_placeholder,
    plausible,
    value_of,
)
from desktop_kb.text.han import HAN_CHARS, has_han

# At most 120 characters: no credential's name is longer, and an unbounded name made every start in
# a long dotted run (minified code) scan to its end — 1.2 s for 24,000 characters, now linear.
_NAME = r"(?P<name>[A-Za-z_][A-Za-z0-9_.\-]{0,120}[A-Za-z0-9])"
# A quoted value may hold escaped quotes (JSON's "Qx7\"m!2Lp"): they are part of it.
# (up to 1,000 characters at first: a Telethon StringSession is ~350)
_VALUE = (r"(?:\"(?P<dq>[^\"\\\n]{0,1000}(?:\\[^\n][^\"\\\n]{0,300}){0,8})\"|"
          r"'(?P<sq>[^'\\\n]{0,1000}(?:\\[^\n][^'\\\n]{0,300}){0,8})'|"
          r"`(?P<bq>[^`\n]{1,300})`|(?P<raw>[^\s\"'`,;]{1,300}))")
_ASSIGN_RE = re.compile(
    rf"(?<![A-Za-z0-9_$])[\"']?{_NAME}[\"']?[ \t]*(?:=>|:=|==|=|:)[ \t]*(?:!!\w+[ \t]+|\$(?='))?{_VALUE}")
# (bash's ANSI-C quoting, $'…', is a quoted string too)
# A typed declaration: the type between the name and "=" (TypeScript's ``apiKey: string = "…"``, Kotlin's
# ``val token: String = "…"``, Rust's ``let key: &str = "…"``, Python's ``API_TOKEN: Final[str] = "…"``,
# Swift's ``let secret: String = "…"``). Only a quoted value: a typed name set to a name is code.
_TYPED_RE = re.compile(
    r"(?<![A-Za-z0-9_$.])(?P<name>[A-Za-z_][A-Za-z0-9_]{0,60})[ \t]*\??:[ \t]*&?(?:'static[ \t]+)?(?:mut[ \t]+)?"
    r"[A-Za-z_][\w.]{0,40}(?:<[^<>\n=]{0,40}>|\[[^\[\]\n=]{0,40}\])?\??[ \t]*=[ \t]*"
    r"(?:\"(?P<dq>[^\"\\\n]{1,300})\"|'(?P<sq>[^'\\\n]{1,300})'|`(?P<bq>[^`\n]{1,300})`)")
# A sigil's variable set to a string (PowerShell's and PHP's $cred = "…", Perl's my $token = '…'): the
# plain pattern above leaves names after "$" alone (a shell's $PASSWORD is read, not set).
_SIGIL_RE = re.compile(
    r"(?<![\w$])\$(?P<name>[A-Za-z_][A-Za-z0-9_]{0,60})[ \t]*=[ \t]*(?:\"(?P<dq>[^\"\\\n$]{1,300})\"|'(?P<sq>[^'\\\n]{1,300})')")
# A name and its value as two string arguments, the value in escaped quotes (Gradle's buildConfigField "String",
# "NEWS_API_KEY", "\"…\"", resValue, a C macro's string): the value a generated source will hold.
_ESCAPED_PAIR_RE = re.compile(r"\"(?P<name>[A-Za-z_][\w.-]{0,60})\"[ \t]*,[ \t]*\"\\\"(?P<dq>[^\"\\\n]{4,300})\\\"\"")
_ZH_NAMES = ("密码", "密碼", "口令", "授权码", "授權碼", "密钥", "密鑰", "秘钥", "祕鑰", "令牌", "凭证", "憑證", "凭据",
             "憑據", "私钥", "私鑰", "金鑰", "金钥", "密匙", "權杖", "权杖", "PIN码", "PIN碼", "pin码", "暗証番号", "暗証", "暗碼", "提款密碼",
             # an archive's or a cloud share's code: whoever has it opens the files
             "解压码", "解壓碼", "提取码", "提取碼", "访问码", "訪問碼")
_SHARE_CODE_NAMES = {"解压码", "解壓碼", "提取码", "提取碼", "访问码", "訪問碼"}
# "密 码：…": a space typed between the characters (to dodge a filter, or by the input method).
_ZH_NAME = "(?P<name>" + "|".join("[ \t]?".join(word) for word in _ZH_NAMES) + ")"
# A password character: printable ASCII but "," and ";", which end the value unless a comma sits
# inside it ("zxcvbnm,./" is a keyboard-row password; "密码 abc, 然后…" ends at the comma).
_PW_CHAR = r"[\x21-\x2b\x2d-\x3a\x3c-\x7e]"
_ZH_ASSIGN_RE = re.compile(
    _ZH_NAME + r"[ \t]*(?P<sep>[:=]|(?:(?:已|被)?(?:改|换|換|设|設|修改|更新|重置|变|變)(?:成|为|為|到|置为|置為))了?|"
    rf"是|为|為|係|是[:：]|为[:：]|係[:：])?[ \t]*[\"'“「『]?(?P<raw>{_PW_CHAR}(?:{_PW_CHAR}|,(?={_PW_CHAR})){{0,199}})")
# "密码设成了名字缩写加生日 lw19900101": a few words describe the password, then it is written out.
_ZH_DESCRIBED_RE = re.compile(
    r"(?P<name>密码|密碼|口令)[^\n，。；,;:：]{0,4}?(?:设成|設成|设为|設為|改成|改为|改為|换成|換成|用的是|就是|是)了?"
    rf"[{HAN_CHARS}]{{1,12}}[ \t]*[\"'“「『]?(?P<raw>[\x21-\x7e]{{6,64}})")
# Other languages' words for "password" (people study in more than two).
# ("heslo 50Iw9NQ%33" in a Czech list: the word, a space, the value; a copula in its own language.)
_FOREIGN_RE = re.compile(
    # (the guard: a word can start only at one of these letters; the alternatives are tried there only)
    r"(?i)(?=[" + re.escape(password_words.FIRST_CHARS) + r"パ비암gGpPcCmMkKпП핀])(?<![^\W\d_])(?:"
    + "|".join(password_words.WORDS) + r"|パスワード|비밀번호|암호|"
    # a card's or a phone's PIN in those languages
    r"geheimzahl|pin-?kode[nt]?|pin-?koodi|c[óo]digo\s+pin|code\s+pin|m[ãa]\s+pin|kod\s+pin|пин-?код|핀\s*번호)"
    r"(?![^\W\d_])\s*(?P<sep>[:=—–→]|-(?=\s)|est|ist|es|é|is|je|to|är|er|on|là|adalah|è)?\s*[\"'“«]?(?P<raw>[^\s\"'”»]{3,200})")
# "la password del wifi è …", "a senha do e-mail é …", "mật khẩu wifi là …": the word, a few words saying whose
# password it is, then a copula or a colon and the value; Thai and Lao glue the qualifier to the word
# (รหัสผ่านไวไฟ …). The copula is required: "password manager app xyz" names no password.
_QUALIFIED_RE = re.compile(
    # (the guard, as _FOREIGN_RE's: the words are tried only where one can start)
    r"(?i)(?=[" + re.escape(password_words.FIRST_CHARS) + r"pP])(?<![^\W\d_])(?:" + "|".join(password_words.WORDS)
    + r"|password|passcode|passphrase|pwd)"
    r"(?:[ \t]+(?:[^\W\d_][\w'’.-]{0,14})){1,3}[ \t]*(?P<sep>[:=]|(?<=[ \t])(?:è|é|es|est|ist|is|là|adalah|ialah|är|er|"
    r"on|je|to|lautet|sono))[ \t]+[\"'“«]?(?P<raw>[^\s\"'”»]{4,64})"
    r"|(?:รหัสผ่าน|ລະຫັດຜ່ານ)[\u0e00-\u0eff]{1,16}[ \t]*(?:คือ|:)?[ \t]*(?P<th>[\x21-\x7e]{4,64})")
# Chat shorthand: pinyin initials for 账号/密码 ("zh 就是学号，mm tuo209960"): "mm" is a password only
# after a word for the account, and only before a value mixing letters and digits.
_SHORTHAND_RE = re.compile(r"(?<![A-Za-z0-9_])(?:mm|MM|mima|MIMA)[ \t]*(?:[:：=]|是|就是)?[ \t]*(?P<raw>[\x21-\x7e]{6,64})")
_ACCOUNT_BEFORE_RE = re.compile(r"(?i)(?<![a-z])(?:zh|zhanghao|账号|帳號|账户|帳戶|学号|學號|工号|用户名|user(?:name)?|id)"
                                r"(?![a-z])")
# "口令短语是：purple monkey dishwasher 1987": a passphrase is words, spaces and all.
_ZH_PASSPHRASE_RE = re.compile(
    r"(?:口令短语|口令短語|密码短语|密碼短語|通行短语|通行短語|密语|密語)[^\n:：=，。]{0,6}?(?:(?:是|为|為)[ \t]*[:：]?|[:：=])[ \t]*"
    r"[\"'“「]?(?P<v>[^\n，。；（(\"'”」]{4,120})")
# "密码改了，新的是 Tianqi_2019!", "changed my password, the new one is …": the value is restated.
_RESTATED_RE = re.compile(
    r"(?i)(?:密码|密碼|口令|password|passcode|\bpin\b)[^\n。.]{0,24}?"
    r"(?:新的|新密码|新密碼|新口令|new\s+one|new\s+password)[ \t]*(?:是|为|為|is|:|：|=)[ \t]*[\"'“「]?"
    r"(?P<raw>[\x21-\x7e]{4,64})")
_ZH_SECRET_NAMES = {"密钥", "密鑰", "秘钥", "祕鑰", "令牌", "凭证", "憑證", "凭据", "憑據", "私钥", "私鑰", "金鑰", "金钥",
                    "密匙", "權杖", "权杖"}
# A mail service's authorisation code for SMTP/IMAP clients: 16 letters of one case (QQ Mail, 163, 126).
_MAIL_CODE_RE = re.compile(r"[a-z]{16}|[A-Z]{16}")
# 公钥密码, 对称密码, 凯撒密码: kinds of cipher, not passwords; 遗传密码 is the genetic code.
_CIPHER_PREFIX_RE = re.compile(
    r"(?:公钥|公鑰|私钥|私鑰|对称|對稱|分组|分組|序列|流|古典|现代|現代|凯撒|凱撒|维吉尼亚|維吉尼亞|替换|替換|置换|置換|"
    r"代换|代換|单表|單表|多表|仿射|量子|格|国密|國密|商用|轻量级|輕量級|同态|同態|块|塊|一次一|栅栏|柵欄|摩斯|希尔|希爾|"
    r"恩尼格玛|恩尼格瑪|换位|換位|密码学|密碼學|遗传|遺傳|基因|摩尔斯|摩爾斯|莫尔斯|莫爾斯|培根|猪圈|豬圈|普莱费尔|"
    r"普萊費爾|维吉尼尔|維吉尼爾|埃特巴什|棋盘|棋盤|书本|書本)$")


_QUERY_APP_IDS = frozenset({"appid", "app_id"})
_ARN_BEFORE_RE = re.compile(r"(?<![\w-])arn:aws[\w-]*:[\w:/.+-]*$")


def _names_and_values(text: str) -> Iterator[re.Match[str]]:
    """Every ``name = value`` match, including names inside the value of another (a URL's query)."""
    pos = 0
    while (m := _ASSIGN_RE.search(text, pos)) is not None:
        yield m
        pos = m.end("name") + 1


def assignments(text: str) -> Iterator[Finding]:
    for m in _names_and_values(text):
        cls = name_class(m.group("name"))
        if cls is None and m.group("name").lower() in _QUERY_APP_IDS and m.start("name") \
                and text[m.start("name") - 1] in "?&" and not text.startswith("wx", m.end("name") + 1):
            cls = WEAK_NAME  # a weather or answer engine's ?appid=: its key (only a random value; WeChat's wx… is public)
        if cls is None or text[max(0, m.start("name") - 2):m.start("name")] == "::":
            continue  # "AWS::ApiGateway::ApiKey": a type's path, not a variable
        if cls == WEAK_NAME and m.group("name").lower() in ("key", "keys") \
                and DATA_KEY_BEFORE_RE.search(text, max(0, m.start("name") - 24), m.start("name")):
            continue  # "restore cache: key=1de3…": a cache's key, a hash
        if text[m.start("name") - 1:m.start("name")] == ":" and _ARN_BEFORE_RE.search(text, max(0, m.start() - 80), m.start()):
            continue  # "arn:aws:secretsmanager:…:secret:prod/db": a resource's name, not secret = …
        value, start, end, quoted = value_of(m)
        if value.lower() == m.group("name").lower() \
                or (m.group("name").lower() == "pass" and re.fullmatch(r"[A-Za-z]+", value)):
            continue  # FORCE_CHANGE_PASSWORD = "FORCE_CHANGE_PASSWORD", {'pass': 'bandpass'}: names
        if not quoted and text[m.start("name") - 1:m.start("name")] in ("?", "&"):
            cut = re.search(r"&", value)  # a URL query: the value ends at the next parameter ("#" is
            # a fragment in a browser's URL, but a password character in a JDBC one: withhold it)
            if cut:
                value, end = value[:cut.start()], start + cut.start()
        spaced = bool(re.search(r"\s=|=\s", text[m.end("name"):start]))
        if not value.isascii() and _word(value) and not re.search(r"[=:：]", text[m.end("name"):start]):
            continue  # "పాస్వర్డ్ తప్పు" (password wrong): a word of the sentence after the word, not its value
        line_end = text.find("\n", end)
        rest = text[end:len(text) if line_end < 0 else line_end]
        if cls == WEAK_NAME and name_parts(m.group("name"))[-1] in ("sig", "signature") \
                and text[m.start("name") - 1:m.start("name")] not in ("?", "&"):
            continue  # a signature is a credential in a signed URL's query, not in a file header
        if value and plausible(value, cls, quoted=quoted, spaced=spaced, followed_by=rest):
            yield finding_for(cls, start, end)
        elif cls == SECRET_NAME and name_parts(m.group("name"))[-1] == "secret" and len(value) >= 6 \
                and plausible(value, PASSWORD_NAME, quoted=quoted, spaced=spaced, followed_by=rest):
            # JWT_SECRET=mysupersecret: a secret people choose, unlike a token, can be a word.
            yield Finding(PASSWORD, start, end)
    for m in _ESCAPED_PAIR_RE.finditer(text) if '\\"' in text else ():
        cls = name_class(m.group("name"))
        value, start, end, quoted = value_of(m)
        if cls is not None and plausible(value, cls, quoted=True):
            yield finding_for(cls, start, end)
    for m in _SIGIL_RE.finditer(text) if "$" in text else ():
        cls = name_class(m.group("name"))
        value, start, end, quoted = value_of(m)
        if cls is not None and plausible(value, cls, quoted=True):
            yield finding_for(cls, start, end)
    for m in _TYPED_RE.finditer(text) if ":" in text else ():
        cls = name_class(m.group("name"))
        value, start, end, quoted = value_of(m)
        if cls is not None and plausible(value, cls, quoted=True):
            yield finding_for(cls, start, end)
    for m in _ZH_ASSIGN_RE.finditer(text):
        if _CIPHER_PREFIX_RE.search(text[max(0, m.start() - 6):m.start()]):
            continue
        name = re.sub(r"[ \t]", "", m.group("name"))
        cls = SECRET_NAME if name in _ZH_SECRET_NAMES else PASSWORD_NAME
        value, start, end, quoted = value_of(m)
        if name in _SHARE_CODE_NAMES and re.fullmatch(r"[A-Za-z0-9]{4,32}", value) \
                and (re.search(r"\d", value) or re.search(r"[a-z]", value) and re.search(r"[A-Z]", value)):
            yield Finding(PASSWORD, start, end)  # "提取码: h9sy", "解压码 oAeyrgeDMPrh"
            continue
        if not m.group("sep") and not re.search(r"\d", value) \
                and not (len(value) >= 6 and re.search(r"[^\w\s]", value)) \
                and not (name in ("授权码", "授權碼") and _MAIL_CODE_RE.fullmatch(value) and not wordlike(value)):
            continue  # "密码 RSA 算法": without ：/是/为 only a value with digits or symbols reads as one
        if value and plausible(value, cls, quoted=quoted):
            yield finding_for(cls, start, end)
    for m in _ZH_DESCRIBED_RE.finditer(text):
        value, start, end, _quoted = value_of(m)
        # Only a value that mixes letters and digits (or symbols), or a long number ("生日 19900307"),
        # reads as the password itself.
        mixed = re.search(r"[A-Za-z]", value) and re.search(r"[\d\W_]", value)
        if (mixed or re.fullmatch(r"\d{6,12}", value)) and plausible(value, PASSWORD_NAME, quoted=False):
            yield Finding(PASSWORD, start, end)
    for m in _ZH_PASSPHRASE_RE.finditer(text) if "短" in text or "密语" in text or "密語" in text else ():
        value = m.group("v").rstrip(" \t" + TRAILING)
        if len(value) >= 4 and not has_han(value) and not is_placeholder(value):
            yield Finding(PASSWORD, m.start("v"), m.start("v") + len(value))
    lower = text.lower()
    restated = any(w in text for w in ("新的", "新密", "新口令")) or "new one" in lower or "new password" in lower
    for m in _RESTATED_RE.finditer(text) if restated else ():
        value, start, end, _quoted = value_of(m)
        if re.search(r"[\d\W_]", value) and plausible(value, PASSWORD_NAME, quoted=False, prose=True):
            yield Finding(PASSWORD, start, end)
    for m in _SHORTHAND_RE.finditer(text) if "m" in text.lower() else ():
        value, start, end, _quoted = value_of(m)
        if re.search(r"[A-Za-z]", value) and re.search(r"\d", value) \
                and _ACCOUNT_BEFORE_RE.search(text, max(0, m.start() - 60), m.start()) \
                and plausible(value, PASSWORD_NAME, quoted=False, prose=True):
            yield Finding(PASSWORD, start, end)
    for m in _QUALIFIED_RE.finditer(text):
        if m.group("th") is not None:
            value = m.group("th").rstrip("。，,.;；")  # (not "!": a password's own last character as often)
            start, end = m.start("th"), m.start("th") + len(value)
        else:
            value, start, end, _quoted = value_of(m)
        if value and re.search(r"[A-Za-z]", value) and re.search(r"[\d\W_]", value) \
                and plausible(value, PASSWORD_NAME, quoted=False, prose=True):
            yield Finding(PASSWORD, start, end)
    for m in _FOREIGN_RE.finditer(text):
        value, start, end, _quoted = value_of(m)
        if not value.isascii() and _word(value):
            continue  # a word with its script's vowel signs (Telugu తప్పు, "wrong"): \W to the regex, a word still
        if value and re.search(r"[\d\W]", value) and plausible(value, PASSWORD_NAME, quoted=False, prose=True):
            yield Finding(PASSWORD, start, end)


# ----- "password 8dk2Lq0vPz" (.netrc, prose), {"key": "x-api-key", "value": "…"} -------------

_VERB_LIKE_NAMES = frozenset("""
pass pin key keys auth sig signature cookie cookies token tokens
""".split())  # noqa: SIM905 - a word list reads best as words
_SPACED_RE = re.compile(
    r"(?<![A-Za-z0-9_$-])(?P<name>[A-Za-z][A-Za-z0-9_-]{1,40})[ \t]+(?P<raw>[^\s\"'`,;，。；]{3,300})")
_PAIR_RE = re.compile(
    r"(?i)[\"']?(?:key|name|header|field|variable|identifier|id|option|param|parameter|setting)[\"']?\s*[:=]\s*[\"'](?P<name>[A-Za-z][A-Za-z0-9_.-]{1,60})[\"']"
    r"\s*[,\n]\s*(?:-\s*)?[\"']?value[\"']?\s*[:=]\s*(?:\"(?P<dq>[^\"\n]{1,300})\"|'(?P<sq>[^'\n]{1,300})'|"
    r"(?P<raw>[^\s\"',}]{1,300}))")
# ("-[ \t]*" only after a dash: "[ \t]*-?[ \t]*" split a long run of spaces every way, quadratically)
_PAIR_YAML_RE = re.compile(
    r"(?im)^(?P<indent>[ \t]*)(?:-[ \t]*)?(?:key|name|identifier|id|option|param|parameter|setting)[ \t]*:[ \t]*[\"']?(?P<name>[A-Za-z][A-Za-z0-9_.-]{1,60})[\"']?[ \t]*\n"
    r"(?:[ \t]*(?!value)[A-Za-z_]+[ \t]*:[^\n]*\n){0,2}[ \t]*value[ \t]*:[ \t]*"
    r"(?:\"(?P<dq>[^\"\n]{1,300})\"|'(?P<sq>[^'\n]{1,300})'|(?P<raw>[^\s\"'#]{1,300}))")


def _spaced(text: str) -> Iterator[re.Match[str]]:
    """Every ``name value`` match, overlapping: in "ENV WEATHER_KEY Q7mZ…" (a Dockerfile, Apache's SetEnv,
    ``doppler secrets set NAME VALUE``) the name is the first match's value."""
    pos = 0
    while (m := _SPACED_RE.search(text, pos)) is not None:
        yield m
        pos = m.end("name") + 1


_QUANTITY_RE = re.compile(r"[+-]?\d+(?:[.,]\d+)*[+%]?")


def spaced_pairs(text: str) -> Iterator[Finding]:
    """A credential name, spaces, then a value that cannot be an ordinary word."""
    for m in _spaced(text):
        name = m.group("name")
        cls = name_class(name)
        if cls is None or name.lower() in _VERB_LIKE_NAMES or text[m.start("name") - 1:m.start("name")] in ("/", "\\"):
            continue  # "Pass embed=True", "Pin Accept-Encoding": verbs; "/etc/mosquitto/passwd user": a file
        value, start, end, _quoted = value_of(m)
        if _QUANTITY_RE.fullmatch(value):
            continue  # "KeePass 2.47+", "pass 95%": a version or a quantity in prose
        if not re.search(r"\d", value) and not looks_random(value):
            continue  # "password manager", "token and/or": a phrase, not a credential
        line_end = text.find("\n", end)
        rest = text[end:len(text) if line_end < 0 else line_end]
        strict = SECRET_NAME if cls == WEAK_NAME else cls
        if cls == WEAK_NAME and not looks_random(value):
            continue
        if plausible(value, strict, quoted=False, prose=True, followed_by=rest):
            yield finding_for(strict, start, end)
    for rx in (_PAIR_RE, _PAIR_YAML_RE) if "value" in text.lower() else ():  # (both pair a name with "value")
        for m in rx.finditer(text):
            cls = name_class(m.group("name"))
            if cls is None:
                continue
            value, start, end, quoted = value_of(m)
            if value and plausible(value, cls, quoted=quoted):
                yield finding_for(cls, start, end)


# ----- Markdown tables with a password column ---------------------------------------------------

_TABLE_ROW_RE = re.compile(r"^[ \t]*\|(.+)\|[ \t]*$", re.M)


def _word(value: str) -> bool:
    """Letters only (with the marks of Sinhala or Devanagari, and a space, hyphen or apostrophe between words)."""
    return any(c.isalpha() for c in value) and all(
        c.isalpha() or unicodedata.category(c).startswith("M") or c in " '’-" for c in value)


def table_cells(text: str) -> Iterator[Finding]:
    """Cells under a password or key column; a column whose cells are all words (three rows or more: the word
    for "password" in six languages) is a vocabulary list."""
    if "|" not in text:
        return
    for table in _tables(text):
        words: dict[int, list[bool]] = {}
        for _f, col, word in table:
            words.setdefault(col, []).append(word)
        yield from (f for f, col, _w in table if not (len(words[col]) >= 3 and all(words[col])))


def _tables(text: str) -> Iterator[list[tuple[Finding, int, bool]]]:
    columns: dict[int, str] = {}
    previous_end = -2
    found: list[tuple[Finding, int, bool]] = []
    for m in _TABLE_ROW_RE.finditer(text):
        cells = m.group(1).split("|")
        if m.start() != previous_end + 1:
            if found:
                yield found
            found = []
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
                    found.append((finding_for(columns[i], pos + offset, pos + offset + len(value)), i,
                                  _word(value)))
                pos += len(cell) + 1
        previous_end = m.end()
    if found:
        yield found
