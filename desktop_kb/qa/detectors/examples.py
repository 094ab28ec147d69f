"""Findings that are a published example or a test pattern, presented as one: the gate lets them pass.

A value on the published list (see :mod:`published`) passes where its surroundings say it is an
example, a test value or documentation ("Stripe 测试卡", "FIPS-197 附录的示例密钥", "IBAN Registry
example"); a value shaped as a test pattern (a card number that is mostly one digit or counts, key
bytes that repeat or count, BIP39's test-vector phrases) where they say it is a test or an example at
all. The same value written as someone's own ("Rent goes to IBAN DE89 3704 …", "Card no.
5105105105105100 for the subscription", "测试网钱包私钥：5HueCGU8…") is still withheld: people copy a
well-known example for their real account in notes too, and a value alone cannot tell the two apart.
The CVC printed beside a test card on its line is the example's too.
"""

from __future__ import annotations

import re

from desktop_kb.qa.detectors.base import ADDRESS, API_KEY, PASSWORD, Finding, line_bounds
from desktop_kb.qa.detectors.published import (
    counting_digits,
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
    r"fake|beispiel|voorbeeld|exemple|ejemplo|esempio|prueba|"
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
_DIGEST_WORDS_RE = re.compile(r"(?i)md5|sha-?(?:1|224|256|384|512)|sha3|blake2|hash|digest|checksum|哈希|散列|摘要|校验")
_SECRET_WORDS_RE = re.compile(r"(?i)key|secret|token|passw|hmac|密钥|令牌|密码(?!学)|口令")
_HEX_DIGEST_RE = re.compile(r"[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{56}|[0-9a-f]{64}|[0-9a-f]{96}|[0-9a-f]{128}")
# A textbook's word problem about a made-up family (小明家住 6 号楼 2 单元 501 室 … 求 …): its address is the
# problem's, not anyone's.
_WORD_PROBLEM_RE = re.compile(r"应用题|例题|习题|练习题|数学题|思考题|(?i:word\s+problem)")
_QUESTION_RE = re.compile(r"求|多少|几[个层楼米]|(?i:how\s+(?:many|much|far|high|long)|calculate|find\s+the)")


def _word_problem(text: str) -> bool:
    return _WORD_PROBLEM_RE.search(text) is not None and _QUESTION_RE.search(text) is not None


def _template(text: str, f: Finding, word_problem: bool) -> bool:
    value = text[f.start:f.end]
    if f.kind == API_KEY:
        if _FILLED_TOKEN_RE.fullmatch(value):
            return True
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


def drop_examples(text: str, findings: list[Finding]) -> list[Finding]:
    """``findings`` less the published examples and test patterns presented as such (see above)."""
    sealed = _sealed_spans(text)
    if sealed:
        findings = [f for f in findings if not (any(a <= f.start < b for a, b in sealed)
                                                and _SEALED_LINE_RE.fullmatch(text, *line_bounds(text, f.start)))]
    kept: list[Finding] = []
    example_lines: set[int] = set()
    word_problem = any(f.kind == ADDRESS for f in findings) and _word_problem(text)  # (once per text: linear)
    for f in findings:
        value = text[f.start:f.end]
        if f.end - f.start < 12:  # (shorter than any listed value or test pattern: a plate, a PIN, a name)
            if not _template(text, f, word_problem):
                kept.append(f)
        elif (published(value) and _said(text, f.start, f.end, EXAMPLE_RE)) \
                or (_test_pattern(text, f.start, f.end) and _said(text, f.start, f.end, _TEST_RE)):
            example_lines.add(line_bounds(text, f.start)[0])
        elif (f.kind == API_KEY and _example_output(text, f.start)) or _template(text, f, word_problem):
            continue
        else:
            kept.append(f)
    if not example_lines:
        return kept
    return [f for f in kept if not (_CVC_RE.fullmatch(text[f.start:f.end].strip())
                                    and line_bounds(text, f.start)[0] in example_lines)]
