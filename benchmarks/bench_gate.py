"""Content gate (gate 2) quality: false positives on real study text, recall on planted secrets.

Run from the repository root::

    .venv/bin/python benchmarks/bench_gate.py [--cmrc ../shared/eval/cmrc2018_trial.json] [--json]

1. False-positive rate: every CMRC 2018 trial paragraph (Chinese encyclopedia
   text full of years, numbers and names) is checked as a whole snippet; any
   finding is a false positive, since the set holds no secrets or personal
   data. The file is read in place, never copied into the repository.
2. Recall: the positives below (one secret or personal datum each, embedded in
   a sentence the way it appears in real notes) must each be found with the
   expected kind. Numbers that look alike but are invalid (bad checksum, bad
   Luhn) are in the negatives, which must pass untouched.

Measured, not asserted; tests/test_qa_gate.py asserts the same corpus.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from desktop_kb.qa.gate import detect  # noqa: E402

# (text, expected kind). Keys and numbers are made up for the test (IDs and cards
# carry valid checksums; none belongs to a real person or account).
POSITIVES: list[tuple[str, str]] = [
    ("OpenAI key: sk-abcdefghijklmnopqrstuvwxyz0123456789ABCD", "api_key"),
    ("export OPENAI_API_KEY=sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z", "api_key"),
    ("DeepSeek 的 key 是 sk-1f2e3d4c5b6a79880123456789abcdef，别外传", "api_key"),
    ("aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "api_key"),
    ("临时凭证 ASIAZ7Q3EXAMPLE4KEY1 今天过期", "api_key"),
    ("git remote set-url origin https://ghp_0123456789abcdefghijABCDEFGHIJklmnopqr@github.com/me/x",
     "api_key"),
    ("token: github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ", "api_key"),
    ("GitLab 令牌 glpat-xY12zW34vU56tS78rQ90 用于 CI", "api_key"),
    ("Slack bot xoxb-1234567890-abcdefghijkl", "api_key"),
    ("maps key AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "api_key"),
    ("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N",
     "api_key"),
    ("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----", "private_key"),
    ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----",
     "private_key"),
    ("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "private_key"),
    ("db password=Hunter2!x for the staging box", "password"),
    ("PASSWORD: correct-horse-battery", "password"),
    ("服务器密码：Abc@123456", "password"),
    ("wifi 密码是 qwerty2024", "password"),
    ("路由器口令=admin8888", "password"),
    ('{"client_secret": "9f8e7d6c5b4a"}', "password"),
    ("身份证号 11010519491231002X 已登记", "resident_id"),
    ("证件号码：32010619850315041X", "resident_id"),
    ("他的身份证 440308199901011234。", "resident_id"),
    ("手机 13812345678 联系", "mobile"),
    ("电话：+86 139-1234-5678", "mobile"),
    ("call 186 1234 5678 after 6pm", "mobile"),
    ("客服热线15900001111，工作日", "mobile"),
    ("银行卡 6222020200112345679 工行", "bank_card"),
    ("Visa 4111 1111 1111 1111 exp 12/29", "bank_card"),
    ("card 5500-0000-0000-0004", "bank_card"),
    ("招商 6225880137420015 储蓄卡", "bank_card"),
    ("邮箱 zhang.san@example.com 有问题就发邮件", "email"),
    ("mail me at first.last+kb@mail.example.org", "email"),
    ("联系人：li_si2024@qq.com", "email"),
]

NEGATIVES: list[str] = [
    "身份证号格式：18 位，最后一位是校验码，例如 110105194912310021（校验位错误）。",
    "订单号 6222020200112345670 未通过 Luhn 校验。",
    "2019 年 GDP 增长 6.1%，人口 1400000000 左右。",
    "ISBN 978-7-111-54742-6 是这本书的编号。",
    "The password field must not be empty.",
    "sk-learn 是 scikit-learn 的常见误写。",
    "版本号 v1.13.2，端口 8080，进程号 12345678。",
    "公元前 221 年，秦统一六国。电话区号 010。",
    "Use user@host in ssh commands, e.g. ssh deploy@server.",
]


def cmrc_contexts(path: Path) -> list[str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [p["context"] for a in data["data"] for p in a["paragraphs"]]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cmrc", type=Path, default=ROOT.parent / "shared" / "eval" / "cmrc2018_trial.json")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    contexts = cmrc_contexts(args.cmrc)
    flagged = [(i, detect(c)) for i, c in enumerate(contexts)]
    flagged = [(i, f) for i, f in flagged if f]
    found = [any(f.kind == kind for f in detect(text)) for text, kind in POSITIVES]
    negatives_flagged = [t for t in NEGATIVES if detect(t)]
    result = {
        "cmrc_paragraphs": len(contexts),
        "cmrc_flagged": len(flagged),
        "false_positive_rate": round(len(flagged) / max(1, len(contexts)), 4),
        "positives": len(POSITIVES),
        "recall": round(sum(found) / len(POSITIVES), 4),
        "missed": [POSITIVES[i][0] for i, ok in enumerate(found) if not ok],
        "negatives": len(NEGATIVES),
        "negatives_flagged": negatives_flagged,
        "flagged_examples": [
            {"paragraph": i, "kinds": [f.kind for f in fs],
             "text": [contexts[i][f.start:f.end] for f in fs]} for i, fs in flagged[:10]],
    }
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(f"false positives: {result['cmrc_flagged']}/{result['cmrc_paragraphs']} CMRC paragraphs "
              f"({result['false_positive_rate']:.2%})")
        print(f"recall: {sum(found)}/{len(POSITIVES)} ({result['recall']:.2%})")
        for text in result["missed"]:
            print(f"  missed: {text!r}")
        print(f"negatives flagged: {len(negatives_flagged)}/{len(NEGATIVES)}")
        for text in negatives_flagged:
            print(f"  flagged: {text!r}")
        for ex in result["flagged_examples"]:
            print(f"  CMRC #{ex['paragraph']}: {ex['kinds']} {ex['text']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
