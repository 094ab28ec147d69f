"""Findings that are a published example or a test pattern: the gate lets them pass.

A value on the published list (see :mod:`published`: a standard's worked example, a vendor's test card
or documentation key, an emulator's built-in key, a CAPTCHA service's test key, an image's documented
default password, an issuer's specimen document) passes wherever it stands, with or without a word for
an example near it: the whole world has it, so withholding it protects no one and costs the learner the
passage ("结账页面卡号填 4242 4242 4242 4242", "POSTGRES_PASSWORD=mysecretpassword"). It is recognised by
being that exact value: a real key of the same shape, or the value with one character changed, is not on
the list and is still withheld. A value shaped as a test pattern (a card number that is mostly one digit
or counts, key bytes that repeat or count, BIP39's test-vector phrases) passes where its surroundings say
it is a test or an example at all: a pattern alone could still be someone's. The CVC printed beside a
published or test card on its line is the example's too.
"""

from __future__ import annotations

import re

from desktop_kb.qa.detectors.base import (
    ADDRESS,
    API_KEY,
    BANK_CARD,
    EMAIL,
    LICENCE_PLATE,
    MOBILE,
    PASSWORD,
    Finding,
    line_bounds,
)
from desktop_kb.qa.detectors.published import (
    counting_digits,
    fictional_phone,
    patterned_digits,
    patterned_hex,
    published,
)
from desktop_kb.qa.detectors.wallets import is_test_vector_words

# Words that say a value is documentation's example (enough for a listed value).
_EXAMPLE_WORDS = (
    r"examples?|sample|e\.g\.|documentation|docs?|documented|spec|specification|standard|rfc[\s-]?\d+|fips|nist|"
    r"iso[\s-]?\d+|appendix|annex|test[\s_-]*(?:cards?|numbers?|vectors?|keys?|ibans?|values?|data|seeds?|secrets?)|"
    r"sandbox|textbook|tutorial|wiki|public(?:ly)?|published|official|well[\s-]known|gvlk|kms|placeholder|demo|dummy|"
    r"fake|beispiel|voorbeeld|exemple|ejemplo|esempio|prueba|muster|przyk[łl]ad\w*|p[řr][íi]klad|vzor\w*|[öo]rnek|"
    r"p[ée]lda|exemplo|exempel|eksempel|esimerkki|παράδειγμα|пример|образец|ნიმუში|მაგალითი|مثال|דוגמה|예시|"
    r"ví\s+dụ|contoh|ตัวอย่าง|उदाहरण|"
    r"示例|例子|范例|範例|样例|樣例|举例|舉例|例如|文档|文檔|规范|規範|标准|標準|附录|附錄|测试卡|測試卡|测试向量|測試向量|"
    r"测试号|測試號|测试用|測試用|测试密钥|測試密鑰|测试种子|沙箱|教科书|教科書|教程|公开|公開|官方|官网|官網|维基|維基|演示|"
    r"练习|練習|テスト|サンプル|例")
EXAMPLE_RE = re.compile(rf"(?i)(?<![A-Za-z])(?:{_EXAMPLE_WORDS})(?![A-Za-z])")
# A test pattern needs less: any word for a test, an exercise or a made-up value.
_TEST_RE = re.compile(rf"(?i)(?<![A-Za-z])(?:{_EXAMPLE_WORDS}|tests?|testing|mock|fixtures?|exercise|practice|"
                      r"测试|測試|假的|假数据|假資料|实验|實驗)(?![A-Za-z])")
_CARD_DIGITS_RE = re.compile(r"\d(?:[ -]?\d){12,18}")
_IBAN_RE = re.compile(r"[A-Z]{2}\d{2}(?: ?[A-Z0-9]{1,4}){3,8}")
_CVC_RE = re.compile(r"\d{3,4}")


def _said(text: str, start: int, end: int, words: re.Pattern[str]) -> bool:
    """``words`` on the value's line or the line above it (a heading, a comment), near the value."""
    line_start, line_end = line_bounds(text, start)
    above = text.rfind("\n", 0, max(0, line_start - 1)) + 1
    return words.search(text, max(above, start - 240), min(line_end, end + 120)) is not None


def _phrase(text: str, f: Finding) -> bool:
    """A recovery phrase whose entropy repeats or counts (BIP39's test vectors): no wallet makes one, and any
    funds on it are gone, so it passes without a word for a test."""
    words = re.findall(r"[A-Za-z]+|[\u4e00-\u9fff]", text[f.start:min(len(text), f.end + 12)])
    return len(words) >= 12 and is_test_vector_words(words[:24])


def _test_pattern(text: str, start: int, end: int) -> bool:
    value = text[start:end].strip()
    digits = re.sub(r"[ -]", "", value)
    if _CARD_DIGITS_RE.fullmatch(value):
        return patterned_digits(digits)
    if _IBAN_RE.fullmatch(value):
        return counting_digits(re.sub(r"\D", "", value[4:]))
    if patterned_hex(re.sub(r"^[^:=：]{0,40}[:=：]\s*", "", value)):
        return True
    words = re.findall(r"[A-Za-z]+|[\u4e00-\u9fff]", text[start:min(len(text), end + 12)])
    return len(words) >= 12 and is_test_vector_words(words[:24])


# A random generator's output shown in its documentation ("secrets.token_hex(16) 的示例输出是 'f9bf…'"): made
# for the page, as every run makes another.
_EXAMPLE_OUTPUT_RE = re.compile(r"(?i)(?:example|sample)\s+output|output\s+(?:example|sample|looks\s+like)|"
                                r"prints?\s+something\s+like|示例输出|输出示例|样例输出|輸出範例|範例輸出|出力例")


def _example_output(text: str, start: int) -> bool:
    line_start = text.rfind("\n", 0, start) + 1
    return _EXAMPLE_OUTPUT_RE.search(text, max(line_start, start - 120), start) is not None


# Templates: a token's prefix and a run of one character (hf_xxxxxxxx, sk-XXXXXXXX, ghp_00000000), the word
# "password" standing for one (postgresql://user:password@…), a digest named as one (MD5("hello") = 5d41…).
_FILLED_TOKEN_RE = re.compile(r"(?:[A-Za-z0-9]{1,12}[_-]){0,3}([xX*0.•])\1{7,}")
_PLACEHOLDER_PASSWORD_RE = re.compile(r"(?i)<?(?:your[_-]?|my[_-]?)?(?:password|passwd|pass|pwd)>?|<[^<>\s]{1,30}>|"
                                      r"\$\{[^{}\s]{1,40}\}|你的密码|密码")
_UUID_RE = re.compile(r"\{?[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}\}?")
_UUID_NAMED_RE = re.compile(r"(?i)(?:uuid|guid|clsid)(?:</key>\s*<string>|[\"']?\s*[:=]\s*[\"']?|\s+)$")
_DIGEST_WORDS_RE = re.compile(r"(?i)md5|sha-?(?:1|224|256|384|512)|sha3|blake2|hash|digest|checksum|哈希|散列|摘要|校验")
_SECRET_WORDS_RE = re.compile(r"(?i)key|secret|token|passw|hmac|密钥|令牌|密码(?!学)|口令")
_HEX_DIGEST_RE = re.compile(r"[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{56}|[0-9a-f]{64}|[0-9a-f]{96}|[0-9a-f]{128}")
# A textbook's word problem about a made-up family (小明家住 6 号楼 2 单元 501 室 … 求 …): its address is the
# problem's, not anyone's.
_WORD_PROBLEM_RE = re.compile(r"应用题|例题|习题|练习题|数学题|思考题|(?i:word\s+problem)")
_QUESTION_RE = re.compile(r"求|多少|几[个层楼米]|(?i:how\s+(?:many|much|far|high|long)|calculate|find\s+the)")


def _word_problem(text: str) -> bool:
    return _WORD_PROBLEM_RE.search(text) is not None and _QUESTION_RE.search(text) is not None


def _filler(value: str) -> bool:
    """A key of 16 characters or more, seven in ten of them one character (1x0000…0AA, sk-xxxx…x1): a
    placeholder or a service's test key, never a generated one."""
    body = re.sub(r"[^0-9A-Za-z]", "", value)
    return len(body) >= 16 and max(body.count(c) for c in set(body)) >= 0.7 * len(body)


# The passwords every breach list and every lesson on weak passwords names first (NCSC's and SplashData's
# top lists): a line that lists three of them is teaching, not telling.
_COMMON_PASSWORDS = frozenset("""
123456 password 12345678 qwerty 123456789 12345 1234 111111 1234567 dragon 123123 baseball abc123 football
monkey letmein 696969 shadow master 666666 qwertyuiop 123321 mustang 1234567890 michael 654321 superman
1qaz2wsx 7777777 121212 000000 qazwsx 123qwe killer trustno1 jordan jennifer zxcvbnm asdfgh hunter buster
soccer harley batman andrew tigger sunshine iloveyou charlie robert thomas hockey ranger daniel starwars
112233 george computer michelle jessica pepper zxcvbn 555555 11111111 131313 freedom 777777 maggie 159753
aaaaaa ginger princess joshua cheese amanda summer ashley nicole chelsea matthew access yankees 987654321
dallas austin thunder taylor matrix admin welcome password1 password123 qwerty123 1q2w3e4r abc123456
a123456 woaini1314 5201314 123abc 888888 iloveyou1 admin123 root toor
""".split())  # noqa: SIM905 - a word list reads best as words
_LIST_ITEM_RE = re.compile(r"[^\s、,，;；/|]+")
# A format explained by an instance: "车牌格式 123 ABC 02", "plates look like AB-123-CD".
_FORMAT_BEFORE_RE = re.compile(r"(?i)(?:格式|样式|樣式|形如|例如|比如|format|e\.g\.|looks?\s+like|such\s+as|like)[ \t:：]*$")


def _common_list(text: str, f: Finding) -> bool:
    """A weak password named in a list of the famous ones ("最常见的弱口令：123456、password、qwerty")."""
    if text[f.start:f.end].strip().lower() not in _COMMON_PASSWORDS:
        return False
    line_start, line_end = line_bounds(text, f.start)  # (the list around it only: a long line stays linear)
    items = {m.group(0).lower().strip("\"'()（）.。")
             for m in _LIST_ITEM_RE.finditer(text, max(line_start, f.start - 120), min(line_end, f.end + 120))}
    return len(items & _COMMON_PASSWORDS) >= 3


_SAMPLE_RE = re.compile(r"(?i)のように|のような|例えば|形式|書式|例如|比如|格式|形如|样式|樣式|(?<![a-z])(?:format|e\.g\.|such\s+as|"
                        r"like\s+this|for\s+example|for\s+instance|z\.\s?b\.|par\s+exemple|por\s+ejemplo|zum\s+beispiel)(?![a-z])")


def _template(text: str, f: Finding, word_problem: bool) -> bool:
    value = text[f.start:f.end]
    if f.kind == MOBILE and fictional_phone(re.sub(r"[^\d+]", "", value)):
        return True  # a drama's number (07700 900461, 555-0143): kept for fiction, no one answers
    if f.kind == MOBILE and counting_digits(re.sub(r"\D", "", value)[-8:]) and _said(text, f.start, f.end, _SAMPLE_RE):
        return True  # a form's sample, its digits counting, shown as one ("090-1234-5678 のように書きます")
    if f.kind == LICENCE_PLATE:
        line_start = text.rfind("\n", 0, f.start) + 1
        return _FORMAT_BEFORE_RE.search(text, max(line_start, f.start - 16), f.start) is not None
    if f.kind == PASSWORD and (_common_list(text, f) or re.fullmatch(r"[A-Za-z_]+:", value.strip())):
        return True  # (a label taken for a value: "passwd:" over "group:" in nsswitch.conf)
    if f.kind == API_KEY:
        if _FILLED_TOKEN_RE.fullmatch(value) or _filler(value):
            return True
        if _UUID_RE.fullmatch(value) and _UUID_NAMED_RE.search(text, max(0, f.start - 48), f.start):
            return True  # PayloadUUID, ProjectGuid, a CLSID: an object's identifier, named as one
        if _HEX_DIGEST_RE.fullmatch(value):
            before = text[max(text.rfind("\n", 0, f.start) + 1, f.start - 48):f.start]
            return _DIGEST_WORDS_RE.search(before) is not None and _SECRET_WORDS_RE.search(before) is None
    if f.kind == PASSWORD:
        return _PLACEHOLDER_PASSWORD_RE.fullmatch(value) is not None
    return f.kind == ADDRESS and word_problem


# A Bitnami SealedSecret's encryptedData is ciphertext for the cluster's public key, made to be committed
# (each value begins with the encrypted session key's length, 0x0200: "Ag" in base64).
_SEALED_RE = re.compile(r"(?m)^(?P<indent>[ \t]*)encryptedData[ \t]*:[ \t]*\n(?P<block>(?:(?P=indent)[ \t]+[^\n]*\n?)+)")
_SEALED_LINE_RE = re.compile(r"[ \t]*[\w.-]+[ \t]*:[ \t]*[\"']?Ag[A-Za-z0-9+/]{100,}={0,2}[\"']?[ \t]*")


def _sealed_spans(text: str) -> list[tuple[int, int]]:
    if "SealedSecret" not in text or "encryptedData" not in text:
        return []
    return [(m.start("block"), m.end("block")) for m in _SEALED_RE.finditer(text)]


# An HTTP Digest challenge or answer (RFC 7616): its nonce, cnonce, opaque and realm are sent in the clear
# by design; only the response (a hash of the password) is kept back.
_DIGEST_PARAM_RE = re.compile(r"(?i)(?<![a-z])(?:nonce|cnonce|opaque|realm|uri|qop|nc|algorithm|username)[ \t]*=[ \t]*\"?$")


def _digest_parameter(text: str, f: Finding) -> bool:
    line_start, line_end = line_bounds(text, f.start)
    return (f.kind in (API_KEY, EMAIL) and _DIGEST_PARAM_RE.search(text, max(line_start, f.start - 24), f.start) is not None
            and re.search(r"(?i)(?<![a-z])digest[ \t]+\w+[ \t]*=", text[line_start:line_end]) is not None)


# An IBAN explained by its format ("Format: FR14 2004 …", "estructura: país, control …", "ziet er zo uit:", a
# registry's entry): the example the format's page prints, not an account someone gave.
_IBAN_FORMAT_RE = re.compile(r"(?i)(?<![a-z])(?:format|structure|estructura|estrutura|structuur|struktur|aufbau|"
                             r"registry|register|registro|ziet\s+er\s+zo\s+uit|looks\s+like|such\s+as|"
                             r"consists?\s+of|由\s*\d+\s*位|结构|結構|格式|构成|組成|რეესტრ\w*)(?![a-z])")
_IBAN_SPAN_RE = re.compile(r"(?<![0-9A-Za-z])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{1,4}){3,8}(?![0-9A-Za-z])")


def _iban_ok(value: str) -> bool:
    v = re.sub(r"\s", "", value)
    return 15 <= len(v) <= 34 and int("".join(str(int(c, 36)) for c in v[4:] + v[:4])) % 97 == 1


def _as_iban(text: str, f: Finding) -> Finding:
    """A card-like run of digits inside a valid IBAN is the IBAN's account part: judged as the IBAN."""
    if f.kind != BANK_CARD:
        return f
    line_start, line_end = line_bounds(text, f.start)
    for m in _IBAN_SPAN_RE.finditer(text, max(line_start, f.start - 12), min(line_end, f.end + 40)):
        if m.start() <= f.start and f.end <= m.end() and _iban_ok(m.group(0)):
            return Finding(f.kind, m.start(), m.end())
    return f


def _explained_iban(text: str, f: Finding) -> bool:
    value = text[f.start:f.end].strip()
    return f.kind == BANK_CARD and _IBAN_SPAN_RE.fullmatch(value) is not None and _iban_ok(value) \
        and (_said(text, f.start, f.end, EXAMPLE_RE) or _said(text, f.start, f.end, _IBAN_FORMAT_RE))


def drop_examples(text: str, findings: list[Finding]) -> list[Finding]:
    """``findings`` less the published examples and test patterns presented as such (see above)."""
    findings = [_as_iban(text, f) for f in findings]
    sealed = _sealed_spans(text)
    if sealed:
        findings = [f for f in findings if not (any(a <= f.start < b for a, b in sealed)
                                                and _SEALED_LINE_RE.fullmatch(text, *line_bounds(text, f.start)))]
    kept: list[Finding] = []
    example_lines: set[int] = set()
    word_problem = any(f.kind == ADDRESS for f in findings) and _word_problem(text)  # (once per text: linear)
    for f in findings:
        value = text[f.start:f.end]
        if _digest_parameter(text, f):
            continue
        if f.end - f.start >= 5 and published(value):
            example_lines.add(line_bounds(text, f.start)[0])
        elif f.end - f.start < 12:  # (shorter than any test pattern: a plate, a PIN, a name)
            if not _template(text, f, word_problem):
                kept.append(f)
        elif _test_pattern(text, f.start, f.end) and (_said(text, f.start, f.end, _TEST_RE) or _phrase(text, f)):
            example_lines.add(line_bounds(text, f.start)[0])
        elif _explained_iban(text, f) or (f.kind == API_KEY and _example_output(text, f.start)) \
                or _template(text, f, word_problem):
            continue
        else:
            kept.append(f)
    if not example_lines:
        return kept
    return [f for f in kept if not (_CVC_RE.fullmatch(text[f.start:f.end].strip())
                                    and line_bounds(text, f.start)[0] in example_lines)]
