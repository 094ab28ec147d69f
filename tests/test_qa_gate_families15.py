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


# ----- identity numbers: each country's check wherever its word stands, any value right after its word -----


@pytest.mark.parametrize(("text", "secret"), [
    ('Dublin 入职：PPS number 批下来了，是 6291845N，记得给 payroll',
     '6291845N'),
    ('Intreo letter\nYour PPSN 8765432EA has been allocated.',
     '8765432EA'),
    ('AHV-Nummer / numéro AVS : 756.1234.5678.97',
     '756.1234.5678.97'),
    ('{"vorname": "Lea", "ahv_nr": "7569876543217"}',
     '7569876543217'),
    ('Isikukood 39204124218 – Tartu ühiselamu broneering',
     '39204124218'),
    ('asmens kodas: 49503050272 (Vilniaus universitetas)',
     '49503050272'),
    ('ЕГН 9405123014, адрес за кореспонденция: София',
     '9405123014'),
    ('prijava,ime,oib\n1,Wang Fang,69842193012\n',
     '69842193012'),
    ('CPR-nummer: 120399-2925 (Kollegiet)',
     '120399-2925'),
    ('Kennitala: 120399-2925',
     '120399-2925'),
    ('JMBG: 1503988500122 – prijava boravka',
     '1503988500122'),
    ('EMŠO 0101995500010',
     '0101995500010'),
    ('Tax File Number (TFN): 596 138 246',
     '596 138 246'),
    ('کد ملی: 4839201765',
     '4839201765'),
    ('rodné číslo: 955115/1236',
     '955115/1236'),
    ('ΑΜΚΑ: 15039512346',
     '15039512346'),
    ('Emirates ID 784-1990-1234567-6 (visa copy)',
     '784-1990-1234567-6'),
    ('CNIC: 35202-8736154-1',
     '35202-8736154-1'),
    ('NIN: 48213570962 (NIMC slip)',
     '48213570962'),
    ('PhilSys Card Number (PCN): 1234-5678-9012-3456',
     '1234-5678-9012-3456'),
    ('NIC No. 199072635418 – Sri Lanka visa form',
     '199072635418'),
    ('ИИН: 900415300123',
     '900415300123'),
    ('РНОКПП 3019845726',
     '3019845726'),
    ('Iqama number: 2471930586',
     '2471930586'),
    ('Ghana Card: GHA-719482635-3',
     'GHA-719482635-3'),
    ('National ID number - 82736451 (Kenya)',
     '82736451'),
    ('$ ./enroll.sh --national-id 19840623123 --name Li',
     '19840623123'),
    ('身分證字號：A123456789',
     'A123456789'),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_an_identity_number_under_its_word_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    '爱尔兰的 PPS number 是 7 位数字加 1-2 个字母，办银行卡和工作都要用。',
    'AHV numbers start with 756 (the country code of Switzerland) and have 13 digits.',
    'Estonian isikukood has 11 digits: the first encodes the century and sex.',
    '身份证号码共 18 位：6 位地址码、8 位出生日期码、3 位顺序码和 1 位校验码。',
    'The CNIC format is 5-7-1 digits (e.g. XXXXX-XXXXXXX-X).',
    'NIN registration centres open 8:00-16:00, Monday to Friday.',
    'ID card photos: 2 pieces, 35 × 45 mm, taken within 6 months.',
    'CPR-nummeret består af fødselsdato (DDMMÅÅ) og 4 cifre.',
    'Tax ID 2024-2025 filing season opens January 27, 2025.',
    'National ID Day: 2024-09-16; the ministry issued 1,234,567 cards.',
    'ID number 000000000000 is a placeholder used in the form template.',
    "账单：身份证 4403**********123X 已实名；卡号 6222 **** **** 1234",
], ids=lambda t: t[:24])
def test_identity_words_without_a_number_pass(text: str) -> None:
    assert found(text) == []


# ----- postal addresses: a street and its number with a flat, or with a postcode where the lines say home -----


@pytest.mark.parametrize(("text", "secret"), [
    ('New flat from March:\nHoutkade 12-2, 3011 RK Rotterdam',
     'Houtkade 12-2'),
    ('Adresa pro zásilky:\nMasarykova 1523/12, 602 00 Brno, byt 14',
     'Masarykova 1523/12'),
    ('Wohnung (Untermiete)\nLindenweg 7, 3. OG, 28195 Bremen',
     'Lindenweg 7, 3. OG'),
    ('Kvartira na semestr:\nул. Ленина, д. 5, кв. 12, 620014 Екатеринбург',
     'д. 5, кв. 12'),
    ('Mieszkanie od października:\nul. Słowackiego 14 m. 7, 30-037 Kraków',
     'Słowackiego 14 m. 7'),
    ('Asuntoni osoite:\nMannerheimintie 45 B 12, 00260 Helsinki',
     'Mannerheimintie 45 B 12'),
    ('Leilighet:\nThereses gate 3B, 0358 Oslo',
     'Thereses gate 3B'),
    ('寄り先（ローマ字）:\n2-14-5 Higashi, Shibuya-ku, Apt 302, Tokyo 150-0011',
     '2-14-5 Higashi'),
    ('Σπίτι μας:\nΟδός Ερμού 45, 2ος όροφος, 105 63 Αθήνα',
     'Οδός Ερμού 45, 2ος όροφος'),
    ('Dorm (Lisboa)\nAvenida da Liberdade, n.º 120, 2.º Dto., 1250-146 Lisboa',
     'n.º 120, 2.º Dto.'),
    ('{"name": "Ana Ruiz", "street": "Calle de Alcalá 48, 5º B", "city": "Madrid", "zip": "28014"}',
     'Calle de Alcalá 48, 5º B'),
    ('name,street,postcode,city\nTom Berg,Storgatan 22 lgh 1102,11455,Stockholm\n',
     'Storgatan 22 lgh 1102'),
    ('> From: Aoife\n> my new place: 14 Clontarf Road, Dublin 3, D03 X2Y4',
     '14 Clontarf Road'),
    ('Unit 12B, Tower 3, Eastwood Residences, Libis, Quezon City',
     'Unit 12B, Tower 3'),
    ('包裹寄到兵团：五家渠市一〇三团8连12栋2号',
     '12栋2号'),
    ('集合地点 ///index.home.raft （what3words）',
     '///index.home.raft'),
    ('我宿舍的 Plus Code 是 7JWV+QR 北京',
     '7JWV+QR'),
    ('Ev adresim: Bağdat Caddesi No: 245 Daire: 8, 34728 Kadıköy/İstanbul',
     'No: 245 Daire: 8'),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_home_address_line_in_any_language_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    'The Rijksmuseum (Museumstraat 1, 1071 XX Amsterdam) opens at 9:00.',
    'Musée du Louvre, Rue de Rivoli, 75001 Paris',
    'Konferenz im Hotel Adlon, Unter den Linden 77, 10117 Berlin',
    'Stockholm, Göteborg, Malmö and Uppsala are the four largest cities of Sweden.',
    'Chapter 3, Section 2: Python 3.11 and Windows 10',
    'Route 66, 2448 miles from Chicago to Santa Monica',
    'ETH Zürich, Rämistrasse 101, 8092 Zürich, Schweiz',
    'The what3words format is three words after three slashes, like ///word.word.word.',
    'Plus codes look like 8FVC9G8F+6X; the short form drops the first four characters.',
    'Universidade de Lisboa, Alameda da Universidade, 1649-004 Lisboa',
    'Apple Park, One Apple Park Way, Cupertino',
    '第3栋楼有5层，每层10号房间，共50间。',
    'Dublin 2, Dublin 4 and Dublin 6 are the postal districts around the city centre.',
    'Volume 12, Issue 3, 2019, pp. 45-67',
    "Piano lesson 3 at 5 pm; Via Roma is the main street of Turin.",
    "I'm 17, too.",
    "Unit 2 covers loops; Unit 3 covers functions.",
    "Take Bus 42, Tram 7 to the centre",
    "Exercise 3, Room 12, 14:00",
    "Chapter 4, Section 2, Page 35",
    "教学楼 A栋3号门 出口；实验楼3栋5号教室",
], ids=lambda t: t[:24])
def test_public_addresses_and_place_lists_pass(text: str) -> None:
    assert found(text) == []


# ----- templates and examples: a placeholder, a digest named as one, an exercise's text or family -----------


@pytest.mark.parametrize("text", [
    "Example output of `openssl rand -base64 24`: 'q8Vd3kLx0Pz7Wm2Rt5Yb9Nc4Hs6Jf1Ga'",
    'export OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxx  # 换成你的',
    'GITHUB_TOKEN=ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX',
    'mysql://root:password@127.0.0.1:3306/test （把 password 换成你的）',
    'sha256sum 输出：e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 （空文件的哈希）',
    "SHA-1 of 'abc' = a9993e364706816aba3e25717850c26c9cd0d89d",
    "Base64 exercise: decode 'VGhlIHF1aWNrIGJyb3duIGZveCBqdW1wcyBvdmVyIHRoZSBsYXp5IGRvZw==' (a pangram)",
    '账户：w***n@qq.com 已绑定',
    '例题：小红家住 3 号楼 1 单元 402 室，每层高 2.8 米，求她家地板离地面多高？',
], ids=lambda t: t[:24])
def test_a_template_or_an_example_passes(text: str) -> None:
    assert found(text) == []


@pytest.mark.parametrize(("text", "secret"), [
    ('我的 OpenAI key：sk-proj-Xq8rT2mVb7Lk3Nw9Pz4Hc6Jd1Fs5Gy0A',
     'sk-proj-Xq8rT2mVb7Lk3Nw9Pz4Hc6Jd1Fs5Gy0A'),
    ('HMAC secret (sha256): 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
     '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'),
    ('mysql://root:Tr0ub4dor&3@127.0.0.1:3306/test',
     'Tr0ub4dor&3'),
    ('base64 of my key: c2stcHJvai1YcThyVDJtVmI3TGszTnc5UHo0SGM2SmQxRnM1R3kwQQ==',
     'c2stcHJvai1YcThyVDJtVmI3TGszTnc5UHo0SGM2SmQxRnM1R3kwQQ=='),
    ('账户：wang.lei@qq.com 已绑定',
     'wang.lei@qq.com'),
    ('小红家住 3 号楼 1 单元 402 室，快递放门口',
     '3 号楼 1 单元 402 室'),
    ('HF_TOKEN=hf_xQpLmZ3vT8kR2wN9bY4cJ6fD1sH7gA5eU0iO',
     'hf_xQpLmZ3vT8kR2wN9bY4cJ6fD1sH7gA5eU0iO'),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_value_of_the_same_shape_is_still_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


# ----- a mobile's number and a car's plate right after their word, in more languages -----------------------


@pytest.mark.parametrize(("text", "secret"), [
    ('Share house\nmob 0412 345 678\nrent on Fridays',
     '0412 345 678'),
    ('Δασκάλα: Ελένη\nκινητό: 694 123 4567',
     '694 123 4567'),
    ('WG-Zimmer, Vermieterin Frau Koch, Handy 0151 2345 6789',
     '0151 2345 6789'),
    ('Ev sahibi: Ahmet Bey, cep: 0532 123 45 67',
     '0532 123 45 67'),
    ('Opiekun akademika: tel. kom. 512 345 678',
     '512 345 678'),
    ('Spolubydlící Jana – mobil: 731 234 567',
     '731 234 567'),
    ('בעל הדירה: נייד 052-7654321',
     '052-7654321'),
    ('Ali bhai ka موبائل: 0300 1234567',
     '0300 1234567'),
    ('Kot in Leuven – GSM: 0470 12 34 56',
     '0470 12 34 56'),
    ('name,mobiel\nSanne,06 12345678\n',
     '06 12345678'),
    ('Landlady (Nairobi): phone 0712 345678',
     '0712 345678'),
    ('Mój samochód: nr rej. KR 5G123, parking B',
     'KR 5G123'),
    ('Arabamın plakası: 06 ABC 123',
     '06 ABC 123'),
    ('Xe máy của em: biển số xe 29B1-123.45',
     '29B1-123.45'),
    ('Parkplatz – Kontrollschild: BE 123456',
     'BE 123456'),
    ('Car reg: 12-D-34567 (blue Fiesta)',
     '12-D-34567'),
    ('Kereta abang: no. plat JHB 4821',
     'JHB 4821'),
    ('Autó rendszáma: ABC-123',
     'ABC-123'),
    ('Parkování – SPZ: 1AB 2345',
     '1AB 2345'),
    ('Nummerplade: AB 12 345',
     'AB 12 345'),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_mobile_or_a_plate_after_its_word_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    'The mob rule of 1848 ended the revolution.',
    'Handy 2024: 5 Modelle im Test, ab 199 Euro',
    'κινητό τηλέφωνο: 10 συμβουλές για μαθητές',
    "cep telefonu fiyatları 2025: 12.000 TL'den başlıyor",
    'GSM was standardised in 1991; 2G networks used 900 MHz.',
    'Plaka tektoniği: 34 milyon yıl önce başladı',
    'biển số xe máy ở Hà Nội bắt đầu bằng 29',
    'Kontrollschild-Gebühr: CHF 40 pro Jahr',
    'car reg renewal costs €120 this year',
    'SPZ: státní poznávací značka (vysvětlení pojmu)',
], ids=lambda t: t[:24])
def test_phone_and_plate_words_without_one_pass(text: str) -> None:
    assert found(text) == []


# ----- a card's or a SIM's PIN under its word in more languages ------------------------------------------


@pytest.mark.parametrize(("text", "secret"), [
    ('ゆうちょ銀行のキャッシュカード\n暗証番号：6182\n（留学中だけ使う口座）',
     '6182'),
    ('Sparkasse-Karte – Geheimzahl: 7391',
     '7391'),
    ('Carte bleue : code PIN 5820',
     '5820'),
    ('Thẻ ATM Vietcombank, mã PIN: 492817',
     '492817'),
    ('SIM-карта: ПИН-код 3846',
     '3846'),
    ('Pankkikortti, PIN-koodi 9053',
     '9053'),
    ('提款卡 暗碼：739104',
     '739104'),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_pin_under_its_word_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    '暗証番号は4桁の数字です（誕生日は避けましょう）',
    'Die Geheimzahl hat 4 Ziffern und steht im PIN-Brief.',
    'Código PIN: introduzca 4 dígitos',
], ids=lambda t: t[:24])
def test_pin_words_without_a_pin_pass(text: str) -> None:
    assert found(text) == []


# ----- a passport's record: an airline's SSR DOCS line, the birth date beside the number; an @ as 圈a; a
# report's online verification code ----------------------------------------------------------------------


@pytest.mark.parametrize(("text", "secret"), [
    ('资料打包好了，留邮箱的私发，或者直接发我 wang.fang88圈a126.com',
     'wang.fang88圈a126.com'),
    ('邮箱：li.lei2001小老鼠qq.com',
     'li.lei2001小老鼠qq.com'),
    ('订票后客服发来的 PNR：\nSSR DOCS MU HK1 P/GBR/533218477/GBR/05JUN98/F/11JAN31/SMITH/ANNA',
     'P/GBR/533218477/GBR/05JUN98/F/11JAN31/SMITH/ANNA'),
    ('Hostel check-in for Tom\nUK passport 533218477, DOB 05/06/1998',
     '05/06/1998'),
    ('Reisepass: C01X00T47, Geburtsdatum: 12.08.1999',
     '12.08.1999'),
    ('护照号 E12345678，出生日期：1999年8月12日',
     '1999年8月12日'),
    ('学籍在线验证报告\n在线验证码：K7QZ2M9XWA4PLMRT',
     'K7QZ2M9XWA4PLMRT'),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_record_beside_its_number_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    '他在圈子里 a 了一下，大家都笑了',
    'SSR DOCS is the APIS element: P/issuing country/number/nationality/DOB/sex/expiry/names',
    'DOB 04/09/2004 is when the club was founded',
    '短信验证码：382910，5 分钟内有效',
    'access code ABCDEFGHIJKL is the sample in the manual',
], ids=lambda t: t[:24])
def test_the_same_words_without_a_record_pass(text: str) -> None:
    assert found(text) == []


# ----- a recovery phrase laid out in a structure: a CSV row, numbered lines out of order, parts of four ------

_P1 = ["volcano", "menu", "embrace", "net", "merge", "similar", "laundry", "funny", "subway", "limit", "observe", "once"]
_P2 = ["inhale", "evil", "rule", "cricket", "satisfy", "hotel", "urban", "fee", "version", "earth", "street", "recycle"]
_P3 = ["wood", "young", "song", "caution", "arena", "slight", "clerk", "heart", "merge", "enrich", "sugar", "drive"]
_P4 = ["stumble", "clock", "execute", "wheat", "olympic", "cheap", "brisk", "snake", "bracket", "hood", "trick", "imitate"]
_P5 = ["earth", "together", "pond", "inhale", "main", "camp", "grow", "bronze", "sad", "treat", "velvet", "report"]
_ORDER = [5, 1, 9, 12, 3, 7, 2, 11, 4, 8, 10, 6]
_WRONG = _P1[:11] + ["zoo"]  # (a word changed: the list no longer checks out)


@pytest.mark.parametrize(("text", "secret"), [
    ("备份日期,1,2,3,4,5,6,7,8,9,10,11,12\n2026-12-01," + ",".join(_P1) + "\n", ",".join(_P1)),
    ("Wrote the words down shuffled, numbers say where they go:\n" + "\n".join(f"{n}) {_P2[n - 1]}" for n in _ORDER),
     _P2[6]),
    ("钱包备份（自己的副本）\n第一段：" + " ".join(_P3[:4]) + "\n第二段：" + " ".join(_P3[4:8]) + "\n第三段：" + " ".join(_P3[8:]),
     " ".join(_P3[4:8])),
    ("wallet:\n  seed:\n" + "".join(f"    - {w}\n" for w in _P4), _P4[5]),
    ("| # | word |\n|---|---|\n" + "".join(f"| {i} | {w} |\n" for i, w in enumerate(_P5, 1)) + "\n(Ledger backup)", _P5[8]),
], ids=["csv", "shuffled", "parts", "yaml", "table"])
def test_a_phrase_laid_out_in_a_structure_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "Unit 3 vocabulary\n" + "\n".join(f"{i}. {w}" for i, w in enumerate(_WRONG, 1)),
    "Spelling test words: " + ", ".join(_P2[::-1]) + ".",
    "Shuffled flashcards:\n" + "\n".join(f"{n}) {_WRONG[n - 1]}" for n in [2, 1, 3, 4, 5, 6, 7, 8, 9, 10, 12, 11]),
], ids=["vocabulary", "reversed", "flashcards"])
def test_word_lists_that_do_not_check_out_pass(text: str) -> None:
    assert found(text) == []


# ----- backup codes a line or two below their word (an account line or a note between) ----------------------


@pytest.mark.parametrize(("text", "secret"), [
    ("备用验证码\n账号：wang***@163.com\n\n1. 4821 9930\n2. 1174 5502\n3. 6093 2218\n", "1174 5502"),
    ("GitHub recovery codes\nKeep these somewhere safe.\n\nab12c-de34f\n9x8w7-v6u5t\n", "9x8w7-v6u5t"),
], ids=["zh-account-line", "en-note-line"])
def test_backup_codes_below_a_note_are_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "Backup codes are printed once.\nThey look like this:\n\nXXXX XXXX\n",
    "备用验证码的用法\n每个只能用一次。\n这节课讲两步验证。",
], ids=["format", "lesson"])
def test_backup_code_words_without_codes_pass(text: str) -> None:
    assert found(text) == []
