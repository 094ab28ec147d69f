"""A generated stress grid for the content gate: secret kind × container × obfuscation.

Hand-written batches (gate_corpus/) test the shapes their authors thought of;
this grid tests the structure instead. Every secret kind the gate knows is
written into every container a learner's notes hold (prose in Chinese and
English, fenced code, .env, shell, JSON, YAML, TOML, INI, XML, CSV, Markdown
tables, URL queries, HTTP headers and curl, logs, Python/JS/Go/Rust/Java,
notebooks, docker-compose, Kubernetes secrets) under each of the accidents of
writing people produce without meaning to (quotes, a value split over lines,
full-width characters, zero-width spaces, percent- or base64-encoding, a label
in Chinese or Japanese, a label far from its value, a value inside a sentence,
part masked with ****, 。 or ， glued to the end). Recall is reported per cell,
so a weak row or column names the structural signal that is missing.

Values are generated from the seed (random tokens, passwords a person would
choose, ID and card numbers with valid checksums, BIP39 phrases with valid
checksums): nothing can be memorised, and no value belongs to anyone.

A :class:`Template` set says how each container writes a label and a value;
``TEMPLATES`` are the ones the gate was fixed against, and
benchmarks/gate_grid_heldout.py holds a second set, written after the fixes,
for a held-out figure (with a different seed).
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass

from desktop_kb.qa.detectors.bip39_words import ENGLISH

# ----- values -----------------------------------------------------------------------------------

_B62 = string.ascii_letters + string.digits
_WORDS = ("tianqi", "xiaoming", "sunshine", "dragon", "panda", "kaixin", "lanqiu", "maomao", "river",
          "october", "winter", "shanghai", "guangzhou", "harbin", "moonlight", "coffee", "lemon", "tiger")
_SYMBOLS = "!@#$%&*_-."
_REGIONS = ("110101", "310115", "440305", "330106", "510104", "420111", "320102", "370202", "610113")
_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ROADS = ["建设", "人民", "解放", "中山", "和平", "胜利", "文化", "光明", "长江", "黄河", "新华", "东风", "青年", "友谊", "学府", "翠柳"]
_PROVINCES = "京津沪渝冀豫云辽黑湘皖鲁苏浙赣鄂桂甘晋陕吉闽贵粤川"
_PLATE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"


def _rand(rng: random.Random, n: int, chars: str = _B62) -> str:
    while True:
        value = "".join(rng.choice(chars) for _ in range(n))
        if chars != _B62 or (any(c.isdigit() for c in value) and any(c.isupper() for c in value)
                             and any(c.islower() for c in value)):
            return value


def _luhn_digit(body: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return str((10 - total % 10) % 10)


def _resident_id(rng: random.Random) -> str:
    body = rng.choice(_REGIONS) + f"{rng.randint(1960, 2005)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}" \
        + f"{rng.randint(0, 999):03d}"
    total = sum(int(d) * w for d, w in zip(body, _ID_WEIGHTS, strict=True))
    return body + "10X98765432"[total % 11]


def _phrase(rng: random.Random) -> str:
    words = ENGLISH.split()
    entropy = rng.randbytes(16)
    bits = "".join(format(b, "08b") for b in entropy) + format(hashlib.sha256(entropy).digest()[0], "08b")[:4]
    return " ".join(words[int(bits[i:i + 11], 2)] for i in range(0, 132, 11))


def _password(rng: random.Random) -> str:
    """What a person chooses: a word, a year or birthday, a symbol, in some order."""
    word = rng.choice(_WORDS)
    word = word.capitalize() if rng.random() < 0.6 else word
    year = str(rng.randint(1985, 2024)) if rng.random() < 0.5 else f"{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
    sym = rng.choice(_SYMBOLS)
    return rng.choice((f"{word}{sym}{year}", f"{word}{year}{sym}", f"{sym}{word}{year}", f"{year}{word}{sym}",
                       _rand(rng, 12, _B62 + "!@#%&*")))


def _bearer(rng: random.Random) -> str:
    if rng.random() < 0.5:
        head = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
        body = base64.urlsafe_b64encode(json.dumps({"sub": str(rng.randint(10**6, 10**7)),
                                                    "iat": rng.randint(1.6e9, 1.8e9)}).encode()).decode().rstrip("=")
        return f"{head}.{body}.{_rand(rng, 43, _B62 + '-_')}"
    return _rand(rng, rng.choice((32, 40, 48)))


def _pem(rng: random.Random) -> str:
    body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + _rand(rng, 64 * 4 - 32, _B62 + "+/")
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    return "-----BEGIN PRIVATE KEY-----\n" + "\n".join(lines) + "\n-----END PRIVATE KEY-----"


def _address(rng: random.Random) -> str:
    return (f"{rng.choice(_ROADS)}路{rng.randint(1, 999)}号{rng.choice(('阳光', '锦绣', '翠苑', '幸福'))}小区"
            f"{rng.randint(1, 30)}栋{rng.randint(1, 6)}单元{rng.randint(1, 30)}{rng.randint(1, 4):02d}室")


def _token_prefixed(rng: random.Random) -> str:
    return rng.choice((
        lambda: "sk-proj-" + _rand(rng, 48), lambda: "ghp_" + _rand(rng, 36), lambda: "glpat-" + _rand(rng, 20),
        lambda: "hf_" + _rand(rng, 34), lambda: "sk_live_" + _rand(rng, 40), lambda: "xoxb-" + "-".join(
            (str(rng.randint(10**10, 10**11)), str(rng.randint(10**10, 10**11)), _rand(rng, 24))),
        lambda: "AKIA" + _rand(rng, 16, string.ascii_uppercase + "234567"), lambda: "sk-" + _rand(rng, 48)))()


def _token_bare(rng: random.Random) -> str:
    """A key with no prefix of its own: base62, an AWS-style secret, or 32 hex (WeChat/Feishu app secrets)."""
    return rng.choice((lambda: _rand(rng, 32), lambda: _rand(rng, 40, _B62 + "+/"),
                       lambda: "".join(rng.choice("0123456789abcdef") for _ in range(32))))()


def _otp(rng: random.Random) -> str:
    return "".join(rng.choice(string.ascii_uppercase + "234567") for _ in range(32))


def _card(rng: random.Random) -> str:
    body = rng.choice(("622202", "621700", "622848", "438088", "524090")) + "".join(
        str(rng.randint(0, 9)) for _ in range(9))
    return body + _luhn_digit(body)


def _mobile(rng: random.Random) -> str:
    return "1" + rng.choice("3456789") + "".join(str(rng.randint(0, 9)) for _ in range(9))


def _email(rng: random.Random) -> str:
    local = rng.choice(_WORDS) + rng.choice(("", ".", "_")) + str(rng.randint(1, 9999))
    return f"{local}@{rng.choice(('qq.com', '163.com', 'gmail.com', 'outlook.com', 'pku.edu.cn', 'bytedance.com'))}"


def _passport(rng: random.Random) -> str:
    prefix = rng.choice(("E", "G", "EA", "EB"))
    return prefix + "".join(str(rng.randint(0, 9)) for _ in range(9 - len(prefix)))


def _plate(rng: random.Random) -> str:
    tail = "".join(rng.choice(_PLATE_LETTERS + "0123456789") for _ in range(4)) + str(rng.randint(0, 9))
    return rng.choice(_PROVINCES) + rng.choice(_PLATE_LETTERS) + tail


def _connection(rng: random.Random) -> tuple[str, str]:
    pw = _password(rng)
    safe = urllib.parse.quote(pw, safe="")
    host = rng.choice(("db.internal", "10.0.3.12", "pg.mylab.cn", "rm-2ze.mysql.rds.aliyuncs.com"))
    scheme = rng.choice(("postgresql", "mysql", "mongodb", "redis"))
    return f"{scheme}://{rng.choice(('app', 'root', 'admin', 'kb'))}:{safe}@{host}:5432/notes", safe


@dataclass(frozen=True)
class Kind:
    name: str
    ident: str  # the name code gives it
    labels: dict[str, str]  # en / zh / ja: what a person calls it
    make: Callable[[random.Random], tuple[str, str]]  # (value as written, the secret inside it)
    multiline: bool = False


def _same(fn: Callable[[random.Random], str]) -> Callable[[random.Random], tuple[str, str]]:
    def make(rng: random.Random) -> tuple[str, str]:
        v = fn(rng)
        return v, v
    return make


def _bearer_value(rng: random.Random) -> tuple[str, str]:
    token = _bearer(rng)
    return f"Bearer {token}", token


KINDS: tuple[Kind, ...] = (
    Kind("token_prefixed", "openai_api_key", {"en": "API key", "zh": "API 密钥", "ja": "APIキー"},
         _same(_token_prefixed)),
    Kind("token_bare", "app_secret", {"en": "app secret", "zh": "应用密钥", "ja": "シークレットキー"}, _same(_token_bare)),
    Kind("password", "db_password", {"en": "password", "zh": "密码", "ja": "パスワード"}, _same(_password)),
    Kind("connection_string", "database_url", {"en": "database URL", "zh": "数据库连接", "ja": "データベース接続"},
         _connection),
    Kind("bearer", "authorization", {"en": "Authorization", "zh": "认证头", "ja": "認証ヘッダー"}, _bearer_value),
    Kind("private_key", "private_key", {"en": "private key", "zh": "私钥", "ja": "秘密鍵"}, _same(_pem),
         multiline=True),
    Kind("otp_secret", "totp_secret", {"en": "2FA secret", "zh": "两步验证密钥", "ja": "二段階認証キー"}, _same(_otp)),
    Kind("recovery_phrase", "mnemonic", {"en": "seed phrase", "zh": "助记词", "ja": "リカバリーフレーズ"}, _same(_phrase)),
    Kind("resident_id", "id_number", {"en": "ID number", "zh": "身份证号", "ja": "身分証番号"}, _same(_resident_id)),
    Kind("mobile", "phone", {"en": "phone", "zh": "手机号", "ja": "電話番号"}, _same(_mobile)),
    Kind("bank_card", "card_number", {"en": "card number", "zh": "银行卡号", "ja": "カード番号"}, _same(_card)),
    Kind("email", "email", {"en": "email", "zh": "邮箱", "ja": "メールアドレス"}, _same(_email)),
    Kind("passport", "passport_no", {"en": "passport number", "zh": "护照号", "ja": "旅券番号"}, _same(_passport)),
    Kind("address", "home_address", {"en": "home address", "zh": "家庭住址", "ja": "住所"}, _same(_address)),
    Kind("licence_plate", "plate", {"en": "licence plate", "zh": "车牌", "ja": "ナンバー"}, _same(_plate)),
)

# ----- obfuscations: what happens to a value (and its label) before the container writes it ------


@dataclass(frozen=True)
class Item:
    """What a container writes: a label and a value, and how."""

    ident: str  # the code name (ASCII)
    label: str  # the human label, in the chosen language
    lang: str  # en | zh | ja
    value: str  # as written (maybe encoded, full-width, …)
    parts: tuple[str, ...]  # the value in pieces when it is split over lines (else one piece)
    quoted: bool = True
    far: bool = False  # the label stands a few lines above the value
    sentence: bool = False  # the value sits inside a sentence
    trailing: str = ""  # 。 or ， glued to the value
    multiline: bool = False


_FULLWIDTH = {c: chr(ord(c) + 0xFEE0) for c in string.ascii_letters + string.digits + "!#$%&*+-./:=@_"}
ZWSP = "\u200b"


def _fullwidth(value: str) -> str:
    return "".join(_FULLWIDTH.get(c, c) for c in value)


def _zero_width(value: str, rng: random.Random) -> str:
    cuts = sorted(rng.sample(range(1, len(value)), k=min(2, len(value) - 1)))
    out, pos = [], 0
    for c in cuts:
        out += [value[pos:c], ZWSP]
        pos = c
    return "".join(out) + value[pos:]


def _masked(value: str) -> str:
    """Part of the value hidden with ****: what is left still gives most of it away."""
    n = len(value)
    return value[:n // 2 - 2] + "****" + value[n // 2 + 2:]


OBFUSCATIONS = ("plain", "unquoted", "split_lines", "fullwidth", "zero_width", "percent", "base64", "label_zh",
                "label_ja", "label_far", "in_sentence", "masked", "trailing_punct")
# Kinds a masked form does not fit: a number with digits hidden is the usual way to show it safely.
_NO_MASK = {"resident_id", "mobile", "bank_card", "passport", "licence_plate", "email", "address",
            "recovery_phrase", "private_key", "connection_string"}


def obfuscate(kind: Kind, obf: str, rng: random.Random) -> tuple[Item, list[str]] | None:
    """The item to write and the secret strings that must be withheld, or None where it does not apply."""
    written, secret = kind.make(rng)
    lang = {"label_zh": "zh", "label_ja": "ja"}.get(obf, "en")
    item = dict(ident=kind.ident, label=kind.labels[lang], lang=lang, value=written, parts=(written,),
                multiline=kind.multiline)
    secrets = [secret]
    if kind.multiline and obf not in ("plain", "unquoted", "label_zh", "label_ja", "label_far", "base64"):
        return None
    if obf == "unquoted":
        item["quoted"] = False
    elif obf == "split_lines":
        if len(secret) < 12 or written != secret:
            return None
        cut = len(secret) // 2
        item["parts"] = (secret[:cut], secret[cut:])
        secrets = [secret[:cut], secret[cut:]]
    elif obf == "fullwidth":
        item["value"] = written.replace(secret, _fullwidth(secret))
        item["parts"] = (item["value"],)
        secrets = [_fullwidth(secret)]
    elif obf == "zero_width":
        zw = _zero_width(secret, rng)
        item["value"] = written.replace(secret, zw)
        item["parts"] = (item["value"],)
        secrets = [zw]
    elif obf == "percent":
        enc = urllib.parse.quote(written, safe="")
        if enc == written:
            return None  # nothing to encode: the plain cell already says it
        item["value"], item["parts"] = enc, (enc,)
        secrets = [enc]
    elif obf == "base64":
        enc = base64.b64encode(written.encode()).decode()
        item["value"], item["parts"] = enc, (enc,)
        item["multiline"] = False
        secrets = [enc]
    elif obf == "label_far":
        item["far"] = True
    elif obf == "in_sentence":
        item["sentence"] = True
    elif obf == "masked":
        if kind.name in _NO_MASK:
            return None
        masked = _masked(secret)
        item["value"] = written.replace(secret, masked)
        item["parts"] = (item["value"],)
        secrets = [p for p in masked.split("****") if p]
    elif obf == "trailing_punct":
        item["trailing"] = rng.choice("。，")
    return Item(**item), secrets  # type: ignore[arg-type]


# ----- containers -------------------------------------------------------------------------------

_EN_FILLER = ("Setting up the lab machine again after the reinstall.", "Notes from Tuesday's session.",
              "Remember to rotate this after the course ends.")
_ZH_FILLER = ("今天重装了实验室的电脑，把配置记一下。", "周二的课堂笔记。", "课程结束后记得换掉。")


def _q(item: Item, quote: str = '"') -> str:
    return f"{quote}{item.value}{quote}" if item.quoted else item.value


def _code_name(item: Item, style: str = "snake") -> str:
    """A variable's name: the code name, or — under a Chinese/Japanese label — a neutral one with the label
    in a comment (code rarely has non-ASCII names)."""
    name = item.ident if item.lang == "en" else "value_1"
    if style == "upper":
        return name.upper()
    if style == "camel":
        head, *rest = name.split("_")
        return head + "".join(p.capitalize() for p in rest)
    return name


def _comment(item: Item, mark: str) -> str:
    """The label in a comment line above the value when it is not in the name (or far from it)."""
    if item.far:
        return f"{mark} {item.label}（见下方）\n{mark} 上次更新：周二\n\n" if item.lang != "en" else \
            f"{mark} {item.label} (see below)\n{mark} last updated on Tuesday\n\n"
    return f"{mark} {item.label}\n" if item.lang != "en" else ""


def _cap(label: str) -> str:
    return label[:1].upper() + label[1:]


def _sentence_en(item: Item, label: str) -> str:
    return f"The {label} I use for the lab server is {item.value}{item.trailing} and it expires next month."


def _sentence_zh(item: Item, label: str) -> str:
    return f"实验室服务器用的{label}是{item.value}{item.trailing}下个月到期。"


def _split_code(item: Item, join: str, quote: str = '"', indent: str = "    ") -> str:
    return (join + "\n" + indent).join(f"{quote}{p}{quote}" for p in item.parts)


def prose_en(item: Item) -> str:
    if item.sentence:
        return _sentence_en(item, item.label) + "\n"
    if len(item.parts) > 1:
        return f"{_cap(item.label)} (copied in two halves):\n" + "\n".join(item.parts) + "\n"
    if item.far:
        return (f"The {item.label} for the lab server is written below; {_EN_FILLER[2].lower()}\n\n"
                f"{_EN_FILLER[1]}\n\n{_q(item, '`')}{item.trailing}\n")
    if item.multiline:
        return f"{_cap(item.label)} of the deploy account:\n\n{item.value}\n"
    return f"{_EN_FILLER[0]} {_cap(item.label)}: {_q(item, '`')}{item.trailing}\n"


def prose_zh(item: Item) -> str:
    label = item.label if item.lang != "en" else {"API key": "API key"}.get(item.label, item.label)
    if item.sentence:
        return _sentence_zh(item, label) + "\n"
    if len(item.parts) > 1:
        return f"{label}（分两行抄的）：\n" + "\n".join(item.parts) + "\n"
    if item.far:
        return f"{label}写在下面，{_ZH_FILLER[2]}\n\n{_ZH_FILLER[1]}\n\n{_q(item, '`')}{item.trailing}\n"
    if item.multiline:
        return f"部署账号的{label}：\n\n{item.value}\n"
    return f"{_ZH_FILLER[0]}{label}：{_q(item, '“') if item.quoted else item.value}{item.trailing}\n".replace(
        f"“{item.value}“", f"“{item.value}”")


def md_fenced_bash(item: Item) -> str:
    return "部署步骤：\n\n```bash\n" + shell_export(item) + "```\n"


def env_file(item: Item) -> str:
    name = _code_name(item, "upper")
    if item.multiline:
        return _comment(item, "#") + f'{name}="{item.value}"\n'
    if len(item.parts) > 1:
        return _comment(item, "#") + f"{name}_PART1={item.parts[0]}\n{name}_PART2={item.parts[1]}\n"
    value = _q(item) if item.quoted else item.value
    return "# .env (local only)\nDEBUG=false\n" + _comment(item, "#") + f"{name}={value}{item.trailing}\nPORT=8080\n"


def shell_export(item: Item) -> str:
    name = _code_name(item, "upper")
    if item.multiline:
        return _comment(item, "#") + f'export {name}="{item.value}"\n'
    if len(item.parts) > 1:
        return _comment(item, "#") + f'export {name}="{item.parts[0]}"\\\n"{item.parts[1]}"\n'
    return _comment(item, "#") + f"export {name}={_q(item)}{item.trailing}\n./run.sh --port 8080\n"


def shell_history(item: Item) -> str:
    flag = item.ident.replace("_", "-") if item.lang == "en" else "value"
    if item.multiline:
        return f"$ cat > key.pem <<'EOF'\n{item.value}\nEOF\n$ chmod 600 key.pem\n"
    if len(item.parts) > 1:
        return (_comment(item, "#") + f"$ mytool login --{flag} {item.parts[0]}\\\n{item.parts[1]}\n")
    return _comment(item, "#") + f"  512  mytool login --{flag} {_q(item, chr(39))}{item.trailing}\n  513  ls -la\n"


def json_doc(item: Item) -> str:
    key = item.ident if item.lang == "en" else item.label
    if len(item.parts) > 1:
        return "{\n  " + json.dumps(key, ensure_ascii=False) + ": [" + ", ".join(json.dumps(p, ensure_ascii=False) for p in item.parts) \
            + "],\n  \"timeout\": 30\n}\n"
    value = json.dumps(item.value, ensure_ascii=False) if item.quoted or item.multiline else item.value
    head = '{\n  "_comment": "' + item.label + ' is below",\n  "debug": false,\n' if item.far else "{\n"
    return head + f'  {json.dumps(key, ensure_ascii=False)}: {value}{item.trailing},\n  "timeout": 30\n}}\n'


def yaml_doc(item: Item) -> str:
    key = item.ident if item.lang == "en" else item.label
    if item.multiline:
        body = "\n".join("    " + line for line in item.value.split("\n"))
        return f"service:\n  {key}: |\n{body}\n"
    if len(item.parts) > 1:
        return f"service:\n  {key}: >-\n    {item.parts[0]}\n    {item.parts[1]}\n"
    far = _comment(item, "  #") if item.far else ""
    return f"service:\n  host: 0.0.0.0\n{far}  {key}: {_q(item)}{item.trailing}\n  port: 8080\n"


def toml_doc(item: Item) -> str:
    key = item.ident if item.lang == "en" else f'"{item.label}"'
    if item.multiline:
        return f'[deploy]\n{key} = """\n{item.value}\n"""\n'
    if len(item.parts) > 1:
        return f"[service]\n{key} = [\n  \"{item.parts[0]}\",\n  \"{item.parts[1]}\",\n]\n"
    return "[service]\nhost = \"0.0.0.0\"\n" + _comment(item, "#") + f"{key} = {_q(item)}{item.trailing}\n"


def ini_doc(item: Item) -> str:
    key = item.ident if item.lang == "en" else item.label
    if len(item.parts) > 1:
        return f"[service]\n{key} = {item.parts[0]}\n    {item.parts[1]}\n"
    if item.multiline:
        return f"[deploy]\n{key} = {item.value.replace(chr(10), chr(10) + '    ')}\n"
    return "[service]\nhost = 0.0.0.0\n" + _comment(item, ";") + f"{key} = {item.value}{item.trailing}\n"


def xml_doc(item: Item) -> str:
    tag = _code_name(item, "camel")
    if len(item.parts) > 1:
        return f"<config>\n  <{tag}>\n    {item.parts[0]}\n    {item.parts[1]}\n  </{tag}>\n</config>\n"
    far = f"  <!-- {item.label} -->\n" if item.lang != "en" or item.far else ""
    if item.quoted:
        return f'<configuration>\n{far}  <add key="{tag}" value="{item.value}"/>\n</configuration>\n'
    return f"<config>\n  <host>0.0.0.0</host>\n{far}  <{tag}>{item.value}{item.trailing}</{tag}>\n</config>\n"


def csv_doc(item: Item) -> str:
    head = item.ident if item.lang == "en" else item.label
    value = f'"{item.value}"' if item.quoted and not item.multiline else item.value
    if len(item.parts) > 1:
        return f"name,{head},note\nlab,{item.parts[0]},first half\nlab,{item.parts[1]},second half\n"
    if item.multiline:
        return f'name,{head}\nlab,"{item.value}"\n'
    return f"name,{head},note\nlab-server,{value}{item.trailing},main\nbackup,,\n"


def md_table(item: Item) -> str:
    head = _cap(item.label) if item.lang == "en" else item.label
    if len(item.parts) > 1:
        return f"| 项目 | {head} |\n|---|---|\n| lab | {item.parts[0]}<br>{item.parts[1]} |\n"
    value = item.value.replace("\n", "<br>")
    value = f"`{value}`" if item.quoted else value
    return f"| 项目 | {head} | 备注 |\n|---|---|---|\n| lab | {value}{item.trailing} | 主账号 |\n| test | - | |\n"


def url_query(item: Item) -> str:
    name = item.ident if item.lang == "en" else urllib.parse.quote(item.label)
    # A query carries its value percent-encoded (an encoded value stays as it is).
    value = item.value if "%" in item.value else urllib.parse.quote(item.value, safe="")
    return (_comment(item, "<!--").replace("\n", " -->\n") if item.lang != "en" else "") + \
        f"回调地址：https://api.mylab.cn/v1/sync?user=lilei&{name}={value}{item.trailing}&page=2\n"


def http_curl(item: Item) -> str:
    header = item.ident.replace("_", "-").title() if item.lang == "en" else "X-Value"
    if item.ident == "authorization" and item.lang == "en":
        header = "Authorization"
    if len(item.parts) > 1:
        return _comment(item, "#") + f'curl https://api.mylab.cn/v1/me \\\n  -H "{header}: {item.parts[0]}\\\n{item.parts[1]}"\n'
    return _comment(item, "#") + f'curl -s https://api.mylab.cn/v1/me \\\n  -H "{header}: {item.value}{item.trailing}" \\\n  -H "Accept: application/json"\n'


def log_line(item: Item) -> str:
    key = item.ident if item.lang == "en" else item.label
    if len(item.parts) > 1:
        return f"2024-05-12 10:31:02 INFO login {key}={item.parts[0]}\n2024-05-12 10:31:02 INFO (cont) {item.parts[1]}\n"
    return (f"2024-05-12 10:31:02,114 INFO [worker-3] auth ok user=lilei {key}={_q(item, chr(39))}{item.trailing}\n"
            f"2024-05-12 10:31:03,002 DEBUG [worker-3] done in 12ms\n")


def python_src(item: Item) -> str:
    name = _code_name(item)
    if len(item.parts) > 1:
        return _comment(item, "#") + f"{name} = (\n    {_split_code(item, '')}\n)\n"
    if item.multiline:
        return _comment(item, "#") + f'{name} = """{item.value}"""\n'
    return "import requests\n\n" + _comment(item, "#") + f"{name} = {_q(item)}{item.trailing}\nclient = Client({name})\n"


def js_src(item: Item) -> str:
    name = _code_name(item, "camel")
    if len(item.parts) > 1:
        return _comment(item, "//") + f"const {name} = {_split_code(item, ' +', chr(39), '  ')};\n"
    if item.multiline:
        return _comment(item, "//") + f"const {name} = `{item.value}`;\n"
    return _comment(item, "//") + f"const config = {{\n  {name}: {_q(item, chr(39))}{item.trailing},\n  retries: 3,\n}};\n"


def go_src(item: Item) -> str:
    name = _code_name(item, "camel")
    name = name[0].upper() + name[1:]
    if len(item.parts) > 1:
        return _comment(item, "//") + f"const {name} = {_split_code(item, ' +', chr(34), '	')}\n"
    if item.multiline:
        return _comment(item, "//") + f"const {name} = `{item.value}`\n"
    return _comment(item, "//") + f"cfg := Config{{\n\t{name}: {_q(item)}{item.trailing},\n\tTimeout: 30,\n}}\n"


def rust_src(item: Item) -> str:
    name = _code_name(item, "upper")
    if len(item.parts) > 1:
        return _comment(item, "//") + f'const {name}: &str = concat!(\n    {_split_code(item, ",")}\n);\n'
    if item.multiline:
        return _comment(item, "//") + f'let {name.lower()} = r#"{item.value}"#;\n'
    return _comment(item, "//") + f"let {name.lower()} = {_q(item)}{item.trailing};\nlet client = Client::new(&{name.lower()});\n"


def java_src(item: Item) -> str:
    name = _code_name(item, "camel")
    if len(item.parts) > 1:
        return _comment(item, "//") + f"String {name} = {_split_code(item, ' +', chr(34), '        ')};\n"
    if item.multiline:
        return _comment(item, "//") + f'String {name} = """\n{item.value}\n""";\n'
    return _comment(item, "//") + f'private static final String {name.upper()} = {_q(item)}{item.trailing};\n'


def notebook(item: Item) -> str:
    source = python_src(item).splitlines(keepends=True)
    return json.dumps({"cells": [{"cell_type": "code", "execution_count": 3, "metadata": {}, "outputs": [],
                                  "source": source}], "nbformat": 4}, ensure_ascii=False, indent=1) + "\n"


def docker_compose(item: Item) -> str:
    name = _code_name(item, "upper")
    if len(item.parts) > 1:
        return f"services:\n  web:\n    environment:\n      {name}: >-\n        {item.parts[0]}\n        {item.parts[1]}\n"
    if item.multiline:
        body = "\n".join("        " + line for line in item.value.split("\n"))
        return f"services:\n  web:\n    environment:\n      {name}: |\n{body}\n"
    comment = _comment(item, "      #")
    return (f"services:\n  web:\n    image: mylab/web:1.4\n    environment:\n{comment}"
            f"      - {name}={item.value}{item.trailing}\n      - TZ=Asia/Shanghai\n")


def k8s_secret(item: Item) -> str:
    """A Kubernetes Secret: values are base64 of the secret as written."""
    key = item.ident if item.lang == "en" else "value-1"
    comment = f"  # {item.label}\n" if item.lang != "en" or item.far else ""
    if len(item.parts) > 1:
        return None  # type: ignore[return-value]
    encoded = base64.b64encode(item.value.encode("utf-8")).decode()
    return (f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: lab-secrets\ntype: Opaque\ndata:\n{comment}"
            f"  {key}: {encoded}{item.trailing}\n")


CONTAINERS: dict[str, Callable[[Item], str]] = {
    "prose_en": prose_en, "prose_zh": prose_zh, "md_fenced_bash": md_fenced_bash, "env": env_file,
    "shell_export": shell_export, "shell_history": shell_history, "json": json_doc, "yaml": yaml_doc,
    "toml": toml_doc, "ini": ini_doc, "xml": xml_doc, "csv": csv_doc, "md_table": md_table,
    "url_query": url_query, "http_curl": http_curl, "log_line": log_line, "python": python_src,
    "javascript": js_src, "go": go_src, "rust": rust_src, "java": java_src, "notebook": notebook,
    "docker_compose": docker_compose, "k8s_secret": k8s_secret,
}


@dataclass(frozen=True)
class GridCase:
    kind: str
    container: str
    obfuscation: str
    text: str
    secrets: tuple[str, ...]  # every one, wherever it occurs, must be withheld


def _json_escaped(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)[1:-1]


def _locate(text: str, secret: str, container: str, item: Item) -> list[str]:
    """The secret as it appears in ``text`` (escaped in JSON, percent-encoded in a URL, …)."""
    if secret in text:
        return [secret]
    escaped = _json_escaped(secret)
    if escaped in text:
        return [escaped]
    enc = urllib.parse.quote(secret, safe="")
    if enc in text:
        return [enc]
    if "\n" in secret:  # a key body: every line of it
        return [line for line in secret.split("\n") if line and "-----" not in line]
    raise AssertionError((container, secret, text))


def build(seed: int, containers: dict[str, Callable[[Item], str]] | None = None,
          kinds: tuple[Kind, ...] = KINDS) -> list[GridCase]:
    rng = random.Random(seed)
    out = []
    for kind in kinds:
        for cname, render in (containers or CONTAINERS).items():
            for obf in OBFUSCATIONS:
                made = obfuscate(kind, obf, rng)
                if made is None:
                    continue
                item, secrets = made
                text = render(item)
                if text is None:
                    continue
                if cname == "k8s_secret":
                    located = [base64.b64encode(item.value.encode("utf-8")).decode()]
                else:
                    located = [s for secret in secrets for s in _locate(text, secret, cname, item)]
                out.append(GridCase(kind.name, cname, obf, text, tuple(dict.fromkeys(located))))
    return out


# ----- hard negatives: the same containers holding values that are not secrets ------------------

def _hex(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def _uuid(rng: random.Random) -> str:
    h = _hex(rng, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"


def _isbn13(rng: random.Random) -> str:
    body = "978" + "".join(str(rng.randint(0, 9)) for _ in range(9))
    check = (10 - sum(int(d) * (1 if i % 2 == 0 else 3) for i, d in enumerate(body)) % 10) % 10
    return f"{body[:3]}-{body[3]}-{body[4:8]}-{body[8:12]}-{check}"


def _order_no(rng: random.Random) -> str:
    return f"{rng.randint(2019, 2024)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}" + \
        "".join(str(rng.randint(0, 9)) for _ in range(10))


def _image(rng: random.Random) -> str:
    raw = b"\x89PNG\r\n\x1a\n" + rng.randbytes(60)
    return "data:image/png;base64," + base64.b64encode(raw).decode()


def _identifier(rng: random.Random) -> str:
    parts = rng.sample(["Abstract", "Singleton", "Proxy", "Factory", "Bean", "Request", "Handler", "Config",
                        "Loader", "Token", "Session", "Manager", "Default", "Resolver"], 5)
    return "".join(parts)


def _placeholder(rng: random.Random) -> str:
    return rng.choice(("your-api-key-here", "<YOUR_TOKEN>", "${DB_PASSWORD}", "sk-xxxxxxxxxxxxxxxxxxxxxxxx",
                       "********", "{{ secrets.API_KEY }}", "os.environ['APP_SECRET']", "changeme"))


NEGATIVE_KINDS: tuple[Kind, ...] = (
    Kind("commit_id", "commit", {"en": "commit", "zh": "提交", "ja": "コミット"}, _same(lambda r: _hex(r, 40))),
    Kind("sha256", "checksum", {"en": "SHA-256 checksum", "zh": "校验和", "ja": "チェックサム"},
         _same(lambda r: _hex(r, 64))),
    Kind("uuid", "request_id", {"en": "request id", "zh": "请求 ID", "ja": "リクエストID"}, _same(_uuid)),
    Kind("isbn", "isbn", {"en": "ISBN", "zh": "书号", "ja": "ISBN"}, _same(_isbn13)),
    Kind("order_no", "order_no", {"en": "order number", "zh": "订单号", "ja": "注文番号"}, _same(_order_no)),
    Kind("image", "icon", {"en": "icon", "zh": "图标", "ja": "アイコン"}, _same(_image)),
    Kind("identifier", "class_name", {"en": "class name", "zh": "类名", "ja": "クラス名"}, _same(_identifier)),
    Kind("placeholder", "api_key", {"en": "API key", "zh": "密钥", "ja": "APIキー"}, _same(_placeholder)),
)
NEGATIVE_OBFUSCATIONS = ("plain", "unquoted", "fullwidth", "label_zh", "label_ja", "label_far", "in_sentence",
                         "trailing_punct")


def build_negatives(seed: int, containers: dict[str, Callable[[Item], str]] | None = None) -> list[GridCase]:
    rng = random.Random(seed)
    out = []
    for kind in NEGATIVE_KINDS:
        for cname, render in (containers or CONTAINERS).items():
            for obf in NEGATIVE_OBFUSCATIONS:
                made = obfuscate(kind, obf, rng)
                if made is None:
                    continue
                text = render(made[0])
                if text is not None:
                    out.append(GridCase(kind.name, cname, obf, text, ()))
    return out
