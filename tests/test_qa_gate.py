"""Content gate: detectors on both labelled corpora, study text that must pass, whole-source spans.

The corpora live in benchmarks/gate_corpus (bench_gate.py measures the same
cases); each case is split exactly as the importer splits its file type.
"""

from __future__ import annotations

import pytest

from benchmarks.bench_gate import case_sources, check_case
from benchmarks.gate_corpus import (
    heldout,
    heldout2,
    heldout3,
    heldout4,
    heldout5,
    heldout6,
    heldout7,
    heldout8,
    heldout9,
    heldout10,
    heldout11,
    heldout12,
    heldout13,
    heldout14,
    written,
)
from benchmarks.gate_corpus.negatives import NEGATIVES
from benchmarks.gate_corpus.negatives2 import NEGATIVES as HELDOUT_NEGATIVES
from benchmarks.gate_corpus.negatives3 import NEGATIVES as HELDOUT_NEGATIVES3
from benchmarks.gate_corpus.negatives4 import NEGATIVES as SESSION8_NEGATIVES
from benchmarks.gate_corpus.negatives5 import NEGATIVES as SESSION9_NEGATIVES
from benchmarks.gate_corpus.negatives6 import NEGATIVES as SESSION9_RULE_NEGATIVES
from benchmarks.gate_corpus.negatives7 import NEGATIVES as SESSION10_RULE_NEGATIVES
from benchmarks.gate_corpus.negatives8 import NEGATIVES as SESSION10_NEGATIVES
from benchmarks.gate_corpus.negatives9 import NEGATIVES as SESSION11_NEGATIVES
from benchmarks.gate_corpus.negatives10 import NEGATIVES as SESSION12_NEGATIVES
from benchmarks.gate_corpus.negatives11 import NEGATIVES as SESSION13_NEGATIVES
from benchmarks.gate_corpus.negatives12 import NEGATIVES as SESSION14_NEGATIVES
from benchmarks.gate_corpus.negatives13 import NEGATIVES as SESSION15_NEGATIVES
from desktop_kb.qa.detectors import detect
from desktop_kb.qa.detectors.normalize import normalize
from desktop_kb.qa.gate import check_question, check_snippet, luhn_ok, redact, valid_resident_id
from desktop_kb.qa.source_spans import needs_neighbours, spans_for_text

# Cases whose secret is a value the world has published (Stripe's and PayPal's test cards, the Bitcoin wiki's
# example WIF): since session 18 the exact published value passes wherever it stands (detectors/examples.py), as
# withholding it protects no one; these seven now pass by design.
PUBLISHED_SECRETS = {"card-465-amex", "stripe-test-py", "h-iban", "h-card-no-english", "h2-visa-test-context",
                     "h3-bitcoin-wif", "h-us-cell",  # (h-us-cell: (650) 555-0134, in the 555-01xx range kept for fiction)
                     # since session 19 an address at a domain reserved for examples (RFC 2606) passes: no mail
                     # is delivered there, so it reaches no one
                     "email-example-domain"}


def _published_passes(cases: list[written.Case]) -> list:
    return [pytest.param(c, marks=pytest.mark.xfail(strict=True, reason="a published value passes"))
            if c.id in PUBLISHED_SECRETS else c for c in cases]


@pytest.mark.parametrize("case", _published_passes(written.CASES), ids=lambda c: c.id)
def test_every_written_case_is_withheld(case: written.Case) -> None:
    found, leaked = check_case(case)
    assert found, leaked


# A key in a URL path (https://api.day.app/<key>/…) is not found: a random path segment is as
# often a document or a video id, and flagging them all would withhold ordinary links.
# h8-136 and h8-138 label the city and district as part of the address; the gate withholds the
# address from the road down and leaves "上海市浦东新区" / "新北市板橋區" (see detectors/addresses.py).
# heldout9 (session 10's sealed batch) as first wired in: its misses, the next round's work. A case
# the gate comes to find fails here (strict xfail) until it is taken off this list.
HELDOUT9_MISSES = {
    "h9-006", "h9-019", "h9-025", "h9-028", "h9-029", "h9-030",
    "h9-070", "h9-073",
    "h9-106", "h9-116",
    "h9-135", "h9-147",
    "h9-159", "h9-163"}
# heldout10 (session 11's sealed batch) and heldout11 (session 12's), as first wired in (main b9ba0a3)
# (h10-133, a card's magnetic stripe read out, and h10-167, a shipping address under a label with a
# remark, are found since session 14; h10-033, a key kept as hex and decoded with bytes.fromhex, since
# session 17).
HELDOUT10_MISSES = {
    "h10-009", "h10-010", "h10-051", "h10-067", "h10-070", "h10-075", "h10-083", "h10-090", "h10-091", "h10-099", "h10-100", "h10-112", "h10-123", "h10-127", "h10-137",
    "h10-138", "h10-145", "h10-162", "h10-163", "h10-164",
    "h10-168", "h10-174", "h10-176", "h10-183", "h10-193", "h10-194"}
HELDOUT11_MISSES = {
    "h11-008", "h11-010", "h11-012", "h11-017", "h11-022", "h11-047", "h11-065", "h11-091", "h11-092",
    "h11-094", "h11-097", "h11-109", "h11-120", "h11-124", "h11-126", "h11-128", "h11-130", "h11-147",
    "h11-155", "h11-156", "h11-157", "h11-159", "h11-165",
    "h11-166"}
# heldout12 (session 13's sealed batch) as first wired in (main 02a54c8, 112/166 found), less what was found since.
HELDOUT12_MISSES = {
    "h12-157", "h12-159"}
# (found since session 14, tests/test_qa_gate_families14.py: h12-009/016/017/024/145 a key where its
# place names it, h12-023/035 a key a service's CLI or client takes, h12-064/068 a private key's bytes,
# h12-072..089 passwords, h12-095/096/097/131 identity numbers and a passport of more countries,
# h12-108/109 a phone number dressed up, h12-113/116/117/118 accounts by their own checks,
# h12-136..142 home addresses in more languages, h12-152 a phrase's bytes, h12-160..166 plates and a VIN,
# h12-038..060 sessions and logins where their tool or code keeps them, h12-120/127 what a copy broke across
# lines)
# heldout13 (session 14's sealed batch) as first wired in (main 975d3bc, 147/217 found), less what was found since
# (h13-067, MinIO's keys given to `mc alias set` by position: a setup command's random values, and h13-007, an
# OpenWeatherMap appid in a query, session 17).
HELDOUT13_MISSES = {
    "h13-003", "h13-016", "h13-021", "h13-023", "h13-036", "h13-052", "h13-060",
    "h13-068", "h13-083", "h13-085", "h13-098", "h13-105", "h13-106", "h13-108", "h13-111", "h13-113",
    "h13-143", "h13-194", "h13-195", "h13-196"}
# (found since session 15, tests/test_qa_gate_families15.py: h13-148..159 bank accounts under their words,
# h13-120..134 identity numbers of more countries and any value right after its word, h13-175 a passport
# under its Urdu word; h9-095, a foreign permanent resident ID right after 身份证, with them; h13-178..189
# home addresses as lines of street, number, flat and postcode in any script, what3words and Plus Codes,
# and with them h10-158/159 and h11-149/151, a Russian, Spanish, French and Brazilian address line;
# h13-135/147 mobiles and h13-210..217 plates right after their words in more languages, h13-092 a PIN under 暗証番号,
# h13-169/173 an SSR DOCS line and a birth date beside a passport, h13-161 an @ written 圈a, h13-132 an online
# verification code, h13-203..205 a recovery phrase laid out as a CSV row, shuffled numbered lines, parts of four,
# h13-197 backup codes below an account line)
# heldout14 (session 15's sealed batch) as first wired in (main 853ff4d, 163/217 found), less what was found since.
HELDOUT14_MISSES = {
    "h14-002", "h14-005", "h14-038", "h14-180", "h14-203", "h14-207"}
KNOWN_MISSES = ({"h3-bark-url", "h8-136", "h8-138"} | HELDOUT9_MISSES | HELDOUT10_MISSES | HELDOUT11_MISSES
                | HELDOUT12_MISSES | HELDOUT13_MISSES | HELDOUT14_MISSES)


@pytest.mark.parametrize("case", [
    pytest.param(c, marks=pytest.mark.xfail(strict=True, reason="documented miss")) if c.id in KNOWN_MISSES
    else pytest.param(c, marks=pytest.mark.xfail(strict=True, reason="a published value passes"))
    if c.id in PUBLISHED_SECRETS else c
    for c in heldout.CASES + heldout2.CASES + heldout3.CASES + heldout4.CASES
    + heldout5.CASES + heldout6.CASES + heldout7.CASES + heldout8.CASES + heldout9.CASES + heldout10.CASES
    + heldout11.CASES + heldout12.CASES + heldout13.CASES + heldout14.CASES], ids=lambda c: c.id)
def test_every_heldout_case_is_withheld(case: heldout.Case) -> None:
    # Held out while the detectors were written; kept here so a later change cannot lose them.
    found, leaked = check_case(case)
    assert found, leaked


# negatives8 (written with heldout9) as first wired in: the study text the gate still withholds.
# MD5('hello'), hf_xxxx, SQLAlchemy's URL template and a maths word problem. Documented public examples
# (Stripe's test key, jwt.io's token, the Authenticator wiki's seed, GB 11643's sample ID, Microsoft's
# KMS key) pass since published examples presented as such do (detectors/examples.py), the archive
# key's fingerprint since a fingerprint named as one does.
# (all four pass since session 15: a digest named as one, a token's placeholder run, the word "password" in a URL
# template and a word problem's family; tests/test_qa_gate_families15.py)
KNOWN_FALSE_POSITIVES: set[int] = set()
# negatives9 (written with heldout10) and negatives10 (with heldout11), as first wired in: a base64
# exercise, a masked e-mail address (a BLE UUID read as an address, neg9-16, passes since dashed codes
# are no longer Japanese block numbers; Stripe's publishable test key, neg9-96, as an example).
KNOWN_FALSE_POSITIVES9: set[int] = set()
KNOWN_FALSE_POSITIVES10: set[int] = set()  # (both pass since session 15: base64 of prose, a masked address)
# negatives11 (written with heldout12), as first wired in (main 02a54c8): 19, 24, 46, 48, 53, 56, 64, 80,
# 84, 89, 105 — all pass since session 14's families (tests/test_qa_gate_families14.py).
KNOWN_FALSE_POSITIVES11: set[int] = set()
# negatives12 (written with heldout13), as first wired in (main 975d3bc): an MD5-looking hex in a sentence.
KNOWN_FALSE_POSITIVES12: set[int] = set()  # (passes since session 15: a generator's example output)
# negatives13 (written with heldout14), as first wired in (main 853ff4d): a base64 PNG read as a key (53),
# 'SHA-256' read as a password (58).
KNOWN_FALSE_POSITIVES13: set[int] = set()  # (both pass since session 16: media base64, algorithm names)


def _negatives(prefix: str, texts: list[str], known: set[int]) -> list:
    return [pytest.param(t, marks=pytest.mark.xfail(strict=True, reason="documented false positive"), id=f"{prefix}-{i}")
            if i in known else pytest.param(t, id=f"{prefix}-{i}") for i, t in enumerate(texts)]


@pytest.mark.parametrize("text", NEGATIVES + HELDOUT_NEGATIVES + HELDOUT_NEGATIVES3 + SESSION8_NEGATIVES
                         + SESSION9_NEGATIVES + SESSION9_RULE_NEGATIVES + SESSION10_RULE_NEGATIVES
                         + _negatives("neg8", SESSION10_NEGATIVES, KNOWN_FALSE_POSITIVES)
                         + _negatives("neg9", SESSION11_NEGATIVES, KNOWN_FALSE_POSITIVES9)
                         + _negatives("neg10", SESSION12_NEGATIVES, KNOWN_FALSE_POSITIVES10)
                         + _negatives("neg11", SESSION13_NEGATIVES, KNOWN_FALSE_POSITIVES11)
                         + _negatives("neg12", SESSION14_NEGATIVES, KNOWN_FALSE_POSITIVES12)
                         + _negatives("neg13", SESSION15_NEGATIVES, KNOWN_FALSE_POSITIVES13))
def test_study_text_passes(text: str) -> None:
    assert detect(text) == [], [text[f.start:f.end] for f in detect(text)]


def test_checksums() -> None:
    assert valid_resident_id("11010519491231002X")
    assert not valid_resident_id("110105194912310021")
    assert not valid_resident_id("110105194913310025")  # month 13
    assert luhn_ok("4111111111111111") and not luhn_ok("4111111111111112")


def test_local_only_is_blocked_whatever_the_text() -> None:
    verdict = check_snippet("nothing secret here", local_only=True, mode="redact")
    assert verdict.action == "blocked" and verdict.text is None and verdict.reasons == ["local_only"]


def test_block_and_redact() -> None:
    text = "wifi 密码：qwerty2024，邮箱 a.b@qq.com。"
    blocked = check_snippet(text, local_only=False, mode="block")
    assert blocked.action == "blocked" and blocked.text is None
    assert set(blocked.reasons) == {"password", "email"}
    redacted = check_snippet(text, local_only=False, mode="redact")
    assert redacted.action == "redacted"
    assert redacted.text == "wifi 密码：[password removed]，邮箱 [email removed]。"
    assert check_snippet(text, local_only=False, mode="bogus").action == "blocked"  # fail closed


def test_clean_text_is_sent_unchanged() -> None:
    text = "用 Docker 安装 GitLab，2019 年发布 12.0 版。"
    assert check_snippet(text, local_only=False).text == text


def test_private_key_block_is_redacted_whole() -> None:
    text = ("key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAA\n"
            "-----END OPENSSH PRIVATE KEY-----\nend")
    assert redact(text, detect(text)) == "key:\n[private_key removed]\nend"


def test_full_width_and_zero_width_map_back_to_the_persons_characters() -> None:
    token = "ghp_mBVeRL8f38uTvQE2KFvV5iM5lpZgfseIFtcC"
    hidden = "\u200b".join(token[:10]) + token[10:]  # zero-width spaces inside the token
    text = f"令牌：{hidden}，手机：１３８１２３４５６７８。"
    verdict = check_snippet(text, local_only=False, mode="redact")
    assert verdict.text == "令牌：[api_key removed]，手机：[mobile removed]。"
    norm = normalize("ａ１＠ｑｑ．ｃｏｍ")
    assert norm.text == "a1@qq.com" and norm.span(0, len(norm.text)) == (0, 9)


def test_the_question_is_gated_like_a_snippet() -> None:
    assert check_question("GitLab 怎么装？").text == "GitLab 怎么装？"
    verdict = check_question("我的身份证 110108199003074316 能用来注册吗？", mode="redact")
    assert verdict.action == "redacted" and "110108199003074316" not in (verdict.text or "")
    assert check_question("密码是 Tiger#88 安全吗", mode="block").action == "blocked"


def _note_cases() -> list[written.Case]:
    return [c for c in written.CASES + heldout.CASES + heldout2.CASES + heldout3.CASES + heldout6.CASES
            + heldout7.CASES + heldout8.CASES + heldout9.CASES + heldout10.CASES + heldout11.CASES
            + heldout12.CASES + heldout13.CASES + heldout14.CASES if c.container in ("note", "env")
            and c.id not in KNOWN_MISSES | PUBLISHED_SECRETS]


@pytest.mark.parametrize("case", _note_cases(), ids=lambda c: c.id)
def test_no_window_leaks_a_secret_wherever_it_starts(case: written.Case) -> None:
    """Windows that cut a secret anywhere (a key body without its BEGIN line, half a token)."""
    text = case.text
    source = spans_for_text(text)
    occurrences = [(text.find(s), text.find(s) + len(s)) for s in case.secrets]
    for length in (24, 160):
        for a in range(0, max(1, len(text) - 8), 11):
            b = min(len(text), a + length)
            verdict = check_snippet(text[a:b], local_only=False, mode="redact", source=source, window=(a, b))
            assert verdict.text is not None
            for s, e in occurrences:
                piece = text[max(s, a):min(e, b)].strip()
                if len(piece) >= 6:
                    assert piece not in verdict.text, (case.id, a, b, piece)


def test_a_key_split_between_fragments_is_found_through_its_neighbours() -> None:
    """A key longer than a fragment (4,000 characters): the middle fragment has no marker at all."""
    import base64
    import random

    rng = random.Random(7)
    lines = [base64.b64encode(rng.randbytes(48)).decode() for _ in range(140)]  # 64 characters each
    key = "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(lines) + "\n-----END RSA PRIVATE KEY-----"
    text = "# 部署\n\n" + "部署脚本会先检查磁盘空间。\n" * 40 + key + "\n部署完成。\n"
    sources = case_sources(written.Case("long-key", "private_key", "md", text, tuple(lines)))
    middle = [i for i, (t, _b, _a) in enumerate(sources) if "-----" not in t and any(ln in t for ln in lines)]
    assert middle, "the fixture must leave a fragment of key body without BEGIN or END"
    for i, (t, before, after) in enumerate(sources):
        alone = spans_for_text(t).findings
        findings = spans_for_text(t, before=before, after=after).findings
        for line in lines:
            pos = t.find(line)
            if pos >= 0:
                assert any(f.start <= pos and pos + len(line) <= f.end for f in findings), (i, line)
        if i in middle:
            assert needs_neighbours(t) and not alone  # only the neighbours tell what it is


def test_a_very_long_source_is_read_around_the_window() -> None:
    """A pasted book in one note: spans near the window are found, with the source's own offsets."""
    from desktop_kb.qa.source_spans import WHOLE_SOURCE_CHARS

    filler = "第一章 绪论。本书介绍分布式系统的基本概念。\n" * (WHOLE_SOURCE_CHARS // 20)
    token = "ghp_mBVeRL8f38uTvQE2KFvV5iM5lpZgfseIFtcC"
    text = filler + f"令牌：{token}\n" + filler
    pos = text.index(token)
    spans = spans_for_text(text, window=(pos - 50, pos + 10))
    assert [(f.start, f.end) for f in spans.findings] == [(pos, pos + len(token))]
    verdict = check_snippet(text[pos - 50:pos + 10], local_only=False, mode="redact", source=spans,
                            window=(pos - 50, pos + 10))
    assert token[:10] not in (verdict.text or "")


def _b64(text: str) -> str:
    import base64

    return base64.b64encode(text.encode()).decode()


@pytest.mark.parametrize(("text", "sent"), [
    ("快递地址：北京市海淀区学院路30号院5号楼2单元301室 张小明", "快递地址：北京市海淀区[address removed] 张小明"),
    ("住在杭州市西湖区文三路 478 号 华星时代 3 幢 2 单元 602。", "住在杭州市西湖区[address removed]。"),
    ("Ship to: 1234 Elm Street, Apt 5B, Springfield, IL 62704", "Ship to: [address removed]"),
    ("签证材料：护照号 E12345678，有效期至 2031-05-20", "签证材料：护照号 [passport removed]，有效期至 2031-05-20"),
    ("Visa 4539-1488-0343-6467 CVV 731", "Visa [bank_card removed] CVV [bank_card removed]"),
    (f"data:\n  DATABASE_URL: {_b64('postgres://admin:Qwer1234!@10.0.0.5:5432/prod')}\n",
     "data:\n  DATABASE_URL: [password removed]\n"),
    (f"存成了 base64：{_b64(_b64('sk-proj-Xq8rT2mVb7Lk3Nw9Pz4Hc6Jd1Fs5Gy0A'))}", "存成了 base64：[api_key removed]"),
    ("token 前半段：ghp_9lBhbBfMIaklHI28\n后半段：PLTq7OypuSJ7nGWvbqXq",
     "token 前半段：[api_key removed]\n后半段：[api_key removed]"),
], ids=["address-zh", "address-zh-spaced", "address-en", "passport", "cvv", "base64-url", "base64-twice",
        "split-key"])
def test_redact_names_the_kind_it_removed(text: str, sent: str) -> None:
    verdict = check_snippet(text, local_only=False, mode="redact")
    assert verdict.action == "redacted" and verdict.text == sent


def test_encoded_runs_decode_only_to_readable_text() -> None:
    from desktop_kb.qa.detectors.encoded import encoded_runs

    hexed = b"ghp_mBVeRL8f38uTvQE2KFvV5iM5lpZgfseIFtcC".hex()
    text = f"b64 {_b64('hello, world')} hex {hexed} url p%40ss%2Fw0rd%21"
    assert [d for _s, _e, d in encoded_runs(text)] == [
        "hello, world", "ghp_mBVeRL8f38uTvQE2KFvV5iM5lpZgfseIFtcC", "p@ss/w0rd!"]
    png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
    assert list(encoded_runs(f"<img src='data:image/png;base64,{png}'>")) == []  # bytes, not text
    assert detect(f"echo {_b64('hello, world')} | base64 -d") == []  # decoded words are not a secret
