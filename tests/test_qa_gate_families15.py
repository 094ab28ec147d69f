"""Families of shapes the session-14 sealed batch (heldout13, negatives12) showed, each checked on
variants written here before the rule (other languages, containers, values nobody listed), with the
shapes that look the same and must still pass.
"""

from __future__ import annotations

import pytest

from tests.gate_checks import found, withheld

# ----- bank accounts: a number under a word for an account, or right after a bank's name -------------


@pytest.mark.parametrize(("text", "secret"), [
    ('Direct deposit (payroll)\nRouting: 026009593\nAccount: 000123456789\nType: Savings',
     '000123456789'),
    ('[2026-11-03 21:14] 阿May: 房租轉呢個戶口 匯豐 HSBC 戶口號碼：123-456789-838',
     '123-456789-838'),
    ('name,bank,sort_code,account_number\nLi Lei,Barclays,20-00-00,55779911\n',
     '55779911'),
    ('{"beneficiary": "Anna Kowalska", "bank": "ING", "account_number": "0073 9012 4481"}',
     '0073 9012 4481'),
    ('payout:\n  bank: Bank of America\n  routing_number: 026009593\n  account_number: 4401 2233 8812\n',
     '4401 2233 8812'),
    ('Betreff: Miete Dezember\n\nKontoinhaber: Jonas Weber\nKontonummer: 0648489890\nBLZ: 500 105 17\n',
     '0648489890'),
    ('振込先（OCR）\nみずほ銀行 新宿支店 普通\n口座番号 1 2 3 4 5 6 7\n',
     '1 2 3 4 5 6 7'),
    ('$ curl https://api.payouts.example/v1/recipients -d account_number=000123456789 -d routing_number=110000000',
     '000123456789'),
    ('국민은행 계좌번호 123-45-6789-012 (예금주 김철수)',
     '123-45-6789-012'),
    ('Número de cuenta: 0049 1500 93 2710012345 (Santander)',
     '0049 1500 93 2710012345'),
    ('chuyển khoản giúp em: STK 0071000123456 - Vietcombank - TRAN VAN AN',
     '0071000123456'),
    ('Transfer ke No. Rek BCA 1234567890 a.n. Budi Santoso ya',
     '1234567890'),
    ('โอนค่าหอมาที่ เลขที่บัญชี 123-4-56789-0 ธนาคารกสิกรไทย',
     '123-4-56789-0'),
    ('RIB : 30004 00823 00010447871 25',
     '30004 00823 00010447871 25'),
    ('Pix (chave aleatória): 9f1c2a77-3b8e-4d2f-a6c1-0e5b7d9f3a21',
     '9f1c2a77-3b8e-4d2f-a6c1-0e5b7d9f3a21'),
    ('Реквизиты для стипендии: р/с 40817810099910004312, БИК 044525225',
     '40817810099910004312'),
    ('招商银行 6225 8812 3456 789 王芳（学费退款用）',
     '6225 8812 3456 789'),
    ('Hesap No: 12345678 — Ziraat Bankası, şube 1234',
     '12345678'),
    ('BSB: 062-000\nAccount Number: 1234 5678\n',
     '1234 5678'),
    ('Please wire to A/C# 0012-3456-7890 at HDFC Bank, IFSC HDFC0000123',
     '0012-3456-7890'),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_bank_account_under_its_word_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    'Your account number is usually 8 to 12 digits long; the routing number has nine.',
    '账户余额：12345678.50 元，本月支出 2300 元。',
    'Account created 2024-03-15 12:30, last login 2026-11-30 08:01',
    "AWS account ID: 123456789012 (the docs' example account)",
    '中国银行 2023 年净利润 2319 亿元，同比增长 2.2%。',
    '客服热线：中国工商银行 95588，招商银行 400-820-5555',
    '账号：zhangsan2024，密码另行通知',
    'Sparkasse KölnBonn: Öffnungszeiten 9-16 Uhr, Tel. 0221 226 1',
    'IBAN 的格式：国家代码 2 位 + 校验位 2 位 + 最长 30 位 BBAN；德国 IBAN 22 位。',
    "The Federal Reserve's ABA routing number 021000021 identifies JPMorgan Chase in New York.",
    'Bank of England, Threadneedle Street, London EC2R 8AH, founded 1694.',
    'Schema: account_number VARCHAR(34) NOT NULL, routing_number CHAR(9)',
    '世界银行 2024 年报告：全球 7 亿人生活在极端贫困中（1990-2019 年数据）。',
    'Kontonummer und BLZ wurden 2014 durch die IBAN ersetzt (SEPA).',
    '学号：2023213456，班级：汉语言 3 班',
], ids=lambda t: t[:24])
def test_account_words_without_an_account_pass(text: str) -> None:
    assert found(text) == []
