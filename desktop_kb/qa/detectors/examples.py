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

from desktop_kb.qa.detectors.base import Finding, line_bounds
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


def drop_examples(text: str, findings: list[Finding]) -> list[Finding]:
    """``findings`` less the published examples and test patterns presented as such (see above)."""
    kept: list[Finding] = []
    example_lines: set[int] = set()
    for f in findings:
        value = text[f.start:f.end]
        if f.end - f.start < 12:  # (shorter than any listed value or test pattern: a plate, a PIN, a name)
            kept.append(f)
        elif (published(value) and _said(text, f.start, f.end, EXAMPLE_RE)) \
                or (_test_pattern(text, f.start, f.end) and _said(text, f.start, f.end, _TEST_RE)):
            example_lines.add(line_bounds(text, f.start)[0])
        else:
            kept.append(f)
    if not example_lines:
        return findings
    return [f for f in kept if not (_CVC_RE.fullmatch(text[f.start:f.end].strip())
                                    and line_bounds(text, f.start)[0] in example_lines)]
