"""Families the session-12 sealed batch missed (told by family only, never by case): recovery phrases in
the other BIP39 lists, foreign national ID numbers, passports and travel permits, street addresses
outside mainland China. Each family is checked on variants written here in several languages and
containers, with hard negatives that look the same and must pass.
"""

from __future__ import annotations

import json
import unicodedata

import pytest
from gate_checks import found, withheld

# ----- recovery phrases in the other BIP39 lists (each phrase below checks out) ---------------------

_JA = ["のいず", "がぞう", "たこく", "とおか", "にいがた", "さんせい", "からい", "ばいく", "ひかん", "おだやか", "まかせる", "とかす"]
_JA24 = ["きんようび", "きけんせい", "ねんぶつ", "ゆたか", "しなもの", "のがす", "ひろう", "ひよう", "あんない", "とける", "とんかつ", "ひっす", "つるぼ", "やっぱり", "きせい", "うったえる", "べんきょう", "せめる", "まこと", "こしつ", "るいせき", "いふく", "いったん", "よかん"]
_KO = ["제발", "일상", "문서", "무슨", "필통", "미용실", "적응", "옥상", "졸업", "초상화", "용서", "결론"]
_ES = ["gallo", "engaño", "pimienta", "arnés", "topar", "rosa", "goloso", "monarca", "hablar", "conocer", "cemento", "reloj"]
_ES2 = ["enseñar", "odio", "rebote", "doble", "inicio", "preso", "regalo", "sanidad", "gaita", "torso", "explicar", "tarde"]
_FR = ["replier", "thorax", "ambigu", "méditer", "agréable", "panneau", "radieux", "abyssal", "euphorie", "débiter", "notable", "lubie", "vaincre", "lambeau", "encoche"]
_IT = ["agave", "ingaggio", "zelante", "faticare", "cronaca", "baraonda", "capitolo", "loto", "tipico", "brindare", "rubrica", "sbendare"]
_CS = ["inspekce", "podcenit", "obout", "monokl", "pokrok", "kmotr", "hrdlo", "dominant", "dokument", "chleba", "kudlanka", "okurka"]
_PT = ["apito", "gula", "requerer", "sotaque", "viatura", "apesar", "baixista", "depois", "alusivo", "ruivo", "muito", "vitral"]
_PT18 = ["rabisco", "hormonal", "capotar", "formiga", "turma", "crioulo", "recordar", "fosco", "patente", "oneroso", "bacharel", "encaixe", "ejetar", "tedioso", "lucidez", "arcada", "tampa", "viajar"]
_KO24 = ["센티미터", "결정", "참새", "지진", "지출", "고객", "아흔", "자신", "잠자리", "미혼", "학습", "빗방울", "삼십", "열기", "남산", "수석", "학번", "결석", "약품", "손질", "무조건", "초콜릿", "시리즈", "출산"]
_EN = ["cheap", "flock", "person", "venture", "ghost", "brown", "never", "index", "pioneer", "boss", "actor", "interest"]


def _grid(words: list[str], columns: int = 3) -> str:
    rows = ["| | | |", "|---|---|---|"]
    for i in range(0, len(words), columns):
        rows.append("| " + " | ".join(f"{i + j + 1}. {w}" for j, w in enumerate(words[i:i + columns])) + " |")
    return "\n".join(rows)


_PHRASES = [
    ("ウォレットの復元用（紙にも書いた）\n" + "\u3000".join(_JA), _JA),  # ideographic spaces, a note
    ("\n".join(f"{i + 1}. {w}" for i, w in enumerate(_JA24)), _JA24),  # numbered, one a line, no label
    ("지갑 백업 메모: " + " ".join(_KO), _KO),
    ("[21:04] 민수: " + " ".join(_KO24) + "\n[21:05] 지은: 알았어", _KO24),  # a chat export, no label word
    (json.dumps({"wallet": "pruebas", "semilla": _ES}, ensure_ascii=False, indent=4), _ES),  # JSON array
    ("frase: " + " ".join(w.replace("ñ", "n").replace("é", "e") for w in _ES2),  # typed without accents
     [w.replace("ñ", "n").replace("é", "e") for w in _ES2]),
    ("## Sauvegarde du portefeuille\n\n" + _grid(_FR), _FR),  # a Markdown table of numbered cells
    ("wallet:\n  parole:\n" + "".join(f"    - {w}\n" for w in _IT), _IT),  # a YAML list
    ("Ahoj Petře,\nzde je záloha:\n" + ", ".join(_CS) + "\nS pozdravem", _CS),  # a mail, commas
    ("n,palavra\n" + "\n".join(f"{i + 1},{w}" for i, w in enumerate(_PT)), _PT),  # CSV rows
    ("Frase de recuperação (18 palavras): " + " ".join(_PT18), _PT18),
    (_grid(_EN), _EN),  # English, two-digit numbers in the cells (" |\n| 10. ")
    # Copied from the NFKD list files: が is か + U+3099, 결 is three jamo.
    (unicodedata.normalize("NFD", "シードフレーズ：" + " ".join(_JA)), unicodedata.normalize("NFD", " ".join(_JA)).split()),
    (unicodedata.normalize("NFD", " ".join(_KO)), unicodedata.normalize("NFD", " ".join(_KO)).split()),
]


@pytest.mark.parametrize(("text", "words"), _PHRASES)
def test_a_recovery_phrase_in_another_list_is_withheld(text: str, words: list[str]) -> None:
    assert all(withheld(text, w) for w in words), found(text)


@pytest.mark.parametrize("text", [
    # Vocabulary lists of list words: no checksum, no word for a phrase.
    "Vocabulario de la lección 3: casa, perro, gato, mesa, silla, puerta, ventana, libro, papel, lápiz, "
    "reloj, camisa",
    "ひらがなのれんしゅう：あさひ　いなか　うさぎ　えいが　おかし　かばん　きもの　くすり　けむり　こども　さくら　しあい",
    "단어장: 가방 나무 다리 라면 마음 바다 사과 아이 자리 차이 하늘 가게",
    "Vocabulaire : maison, jardin, fenêtre, cuisine, pomme, lampe, voiture, cheval, bateau, soleil, nuage, "
    "montagne",
    "Lista della spesa: pane latte burro pasta riso olio sale zucchero caffè uova pomodoro limone",
    "Slovíčka: pes kočka dům strom voda chleba mléko okno dveře stůl židle kniha",
    # Prose in those languages next to the word for a wallet: articles break every run.
    "Mi cartera tiene una frase de recuperación de doce palabras que guardo en un lugar seguro.",
    "ウォレットの復元には十二個の単語が必要です。紙に書いて保管してください。",
    "BIP39 has lists in Japanese, Korean, Spanish, French, Italian, Czech and Portuguese.",
])
def test_word_lists_that_are_not_a_phrase_pass(text: str) -> None:
    assert found(text) == []


# ----- foreign national ID, tax and social-insurance numbers (each passes its own check) ---------------

_IDS = [
    ("성명: 김민준\n주민등록번호: 650102-1167162\n연락처는 따로", "650102-1167162"),  # a Korean form
    ('{"name": "이서연", "rrn": "6309152354777"}', "6309152354777"),  # JSON key, no dash
    ("氏名,マイナンバー,部署\n山田太郎,3985 5692 0200,総務", "3985 5692 0200"),  # CSV header names the column
    ("[09:12] Wei Ling: ok my IC is G6945667M, pls fill it in", "G6945667M"),  # Singapore, no word needed
    ("आधार संख्या / Aadhaar No.: 3665 0310 4128", "3665 0310 4128"),
    ("Dear Sir,\nPlease find my PAN: ABCPE1234F and bank details attached.", "ABCPE1234F"),
    ("cliente:\n  nome: João Silva\n  cpf: 90273070592\n", "90273070592"),  # YAML, unformatted
    ("Comprovante — CPF 417.534.046-73 — pago", "417.534.046-73"),  # formatted: found with no word
    ("Datos del inquilino\nDNI: 24456198-E\nTeléfono: 612 345 678", "24456198-E"),
    ("Mi NIE es Z4537280Y, caduca en 2027", "Z4537280Y"),
    ("Número de Seguro Social: 745-14-4580", "745-14-4580"),
    ("W-7 form. ITIN 903-72-1358 arrived today", "903-72-1358"),
    ("| Name | NI number |\n|---|---|\n| Tom Hardy | AB 12 34 56 C |", "AB 12 34 56 C"),  # UK, a table
    ("NAS : 166 244 020 (Service Canada)", "166 244 020"),  # Canada, in French
    ("n° de sécurité sociale : 2 66 11 73 404 358 47", "2 66 11 73 404 358 47"),
    ("Carte vitale 199125323036479", "199125323036479"),
    ("Codice fiscale: TOBAIT58D25D153U", "TOBAIT58D25D153U"),
    ("Steuer-ID 34 002 781 871 (vom Finanzamt)", "34 002 781 871"),
    ("BSN: 174426926", "174426926"),
    ("PESEL 77120397927", "77120397927"),
    ("เลขประจำตัวประชาชน 3-0252-61311-03-3", "3-0252-61311-03-3"),
    ("CURP: IWGK621013MHFASM03", "IWGK621013MHFASM03"),
    ("No. Kad Pengenalan: 980922-14-2106", "980922-14-2106"),
    ("居留證號碼：D946535693", "D946535693"),
    ("澳門居民身份證 1/234567/8", "1/234567/8"),
    ("身份证明文件 ID number: 3025261311033", "3025261311033"),  # any checksummed form under a general word
    ("snils: 346-045-710 63", "346-045-710 63"),
    ('{"name": "Sato", "my_number": "398556920200"}', "398556920200"),  # a key's words joined by "_"
    ("social_security_number,name\n764-90-9856,Ann", "764-90-9856"),
    ("在留カード番号 AB12345678CD（有効期限 2028）", "AB12345678CD"),
    ("<cliente><nome>Ana</nome><cpf>90273070592</cpf></cliente>", "90273070592"),  # an XML element
    ("Personalausweis T47000357, gültig bis 2031", "T47000357"),  # identity cards: a document number
    ("Numéro de carte d'identité : X4RTBPFW4", "X4RTBPFW4"),
]


@pytest.mark.parametrize(("text", "secret"), _IDS)
def test_a_foreign_id_number_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "ISBN 978-7-111-54742-6，定价 89 元",
    "Order ID: 2023-1108-5567, tracking 1Z999AA10123456784",
    "Llámame sin falta al 612 345 678 mañana.",  # "sin" in a sentence, a Spanish phone
    "HMRC's example NI number is QQ 12 34 56 C.",  # QQ is never issued
    "The sample SIN in the CRA guide is 046 454 286.",  # 0 is never issued
    "제품 바코드 8801234567890, 학번 2023123456",
    "法人番号 1234567890123（公表されています）",
    "IMEI 867530021234567，序列号 C02XK1Y2JG5H",
    "型号 ABCDE1234F，批次 24456198",
    "Population 2021: 33 782 000; GDP 1 234 567 890",
    "NAS Synology DS220+ at 192.168.1.10, port 5000",
    "FIN 2024 Q3 report: revenue 123-45-678",
    "P = {'B': -14.117057728999068, 'E': -3.257080278131316}",  # fractions (jieba's tables), not an NIR
])
def test_numbers_that_are_not_an_id_pass(text: str) -> None:
    assert found(text) == []


# ----- passports, visas and travel permits, under their word in many languages --------------------------

def _mrz_check(field: str) -> str:
    def value(c: str) -> int:
        return int(c) if c.isdigit() else 0 if c == "<" else ord(c) - 55
    return str(sum(value(c) * (7, 3, 1)[i % 3] for i, c in enumerate(field)) % 10)


def _mrz(number: str = "KJ4829301", born: str = "950214", expires: str = "320907") -> tuple[str, str]:
    line2 = (number + _mrz_check(number) + "KOR" + born + _mrz_check(born) + "F" + expires + _mrz_check(expires)
             + "<" * 14 + "0")
    line2 += _mrz_check(line2[:10] + line2[13:20] + line2[21:43])
    return "PMKORPARK<<JIYEON" + "<" * 27, line2


_L1, _L2 = _mrz()

_PASSPORTS = [
    ("留学準備メモ\nパスポート番号：MZ1234567（有効期限 2030年）", "MZ1234567"),
    ('{\n  "traveller": {\n    "document": "passport",\n    "number": "KJ4829301"\n  }\n}', "KJ4829301"),
    ("Austauschpartner — Passnummer: L3H7K9M21, gültig bis 2029", "L3H7K9M21"),
    ("Pour le visa : numéro de passeport 18AV24567, délivré à Lyon", "18AV24567"),
    ("Número de pasaporte: PAE123456", "PAE123456"),
    ("여권번호 M12345678 (만료 2031)", "M12345678"),
    ("Номер паспорта: 72 1234567", "72 1234567"),
    ("Passport No. G 1 2 8 3 9 4 7 5 (scanned)", "G 1 2 8 3 9 4 7 5"),  # OCR spaced it out
    ("name,passport_no,nationality\nLi Lei,E71234567,CHN\nWang Fang,EH5678901,CHN", "EH5678901"),
    ("港澳通行证：C60123456，下月到期", "C60123456"),
    ("台胞证号码 01234567", "01234567"),
    ("回鄉證 H1023456789", "H1023456789"),
    ("签证号码：V0823456", "V0823456"),
    ("Home Return Permit No. H12345678", "H12345678"),
    ("Passport:\nE12345678\nExpiry: 2030-04-01", "E12345678"),  # on the line under "Passport:"
    ("护照号 E 1234 5678（旧本）", "E 1234 5678"),  # grouped as read out
    ("traveller:\n  passport:\n    number: EH5678901\n    expiry: 2031-05-01\n", "EH5678901"),
    (f"护照资料页（OCR）：\n{' '.join(_L1)}\n{' '.join(_L2)}", " ".join(_L2)),  # MRZ with spaces between characters
    (f'{{"mrz": ["{_L1}", "{_L2}"]}}', _L2),  # MRZ lines inside JSON
    (f"MRZ: {_L1}{_L2}", _L2),  # both lines run into one
]


@pytest.mark.parametrize(("text", "secret"), _PASSPORTS)
def test_a_passport_or_permit_number_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "Passport photo: 33 mm x 48 mm, white background; fee 120 CNY",
    "护照办理指南：准备 2 寸照片，费用 120 元，约 7 个工作日，咨询电话 12345678",
    "Paid with Visa ending 1234, order 123456789",
    "Passport Index 2024: Singapore ranks 1st with 195 destinations",
    "The passport office hotline is 23456789 (Mon-Fri).",
    "Reisepass beantragen: Gebühr 70 EUR, Bearbeitungszeit 3 bis 4 Wochen, Termin am 20240315",
    "ICAO 9303 describes the MRZ: P<UTO followed by the name, then the document number line.",
])
def test_passport_words_without_a_number_pass(text: str) -> None:
    assert found(text) == []
# ----- home addresses outside mainland China (a flat, a room, a floor; or a word for a home or a delivery) ---

_ADDRESSES = [
    ("引っ越しました！新住所：〒150-0001 東京都渋谷区神宮前3-14-8 ハイツ原宿 402号室", "神宮前3-14-8 ハイツ原宿 402号室"),
    ("送り先,大阪府大阪市北区梅田1-2-3-1205,山田様", "梅田1-2-3-1205"),  # CSV, a fourth number for the room
    ("이사했어요. 서울특별시 강남구 테헤란로 212, 1203호로 보내주세요", "테헤란로 212, 1203호"),
    ("주소: 경기도 성남시 분당구 래미안아파트 101동 1202호", "래미안아파트 101동 1202호"),
    ('{"recipient": "Tan Wei Ming", "address": "Blk 12 Toa Payoh Lor 8, #05-123, Singapore 310012"}',
     "Blk 12 Toa Payoh Lor 8, #05-123"),
    ("Neue Adresse ab 1.10.: Hauptstraße 27, 2. OG rechts, 10827 Berlin", "Hauptstraße 27, 2. OG rechts"),
    ("Wohnung in Wien: Mariahilfer Straße 112/3/14, 1070 Wien", "Mariahilfer Straße 112/3/14"),
    ("Mon adresse : 14 rue des Lilas, Bât. B, 3e étage, 69003 Lyon", "14 rue des Lilas, Bât. B, 3e étage"),
    ("Envíamelo a Calle de Alcalá 145, 4º izda., 28009 Madrid", "Calle de Alcalá 145, 4º izda."),
    ("Spedire a: Via Garibaldi 8, int. 5, 10122 Torino", "Via Garibaldi 8, int. 5"),
    ("Ship to:\nEmily Clark\n4821 Maple Grove Dr\nColumbus, OH 43215", "4821 Maple Grove Dr"),
    ("收件地址：台北市大安區和平東路二段106號7樓", "和平東路二段106號7樓"),  # (the city and district are left)
    ("Flat B, 10/F, Block 3, Kornhill Gardens, Quarry Bay", "Flat B, 10/F, Block 3"),
    ("Lieferadresse\nLena Vogel\nLindenweg 4\n79100 Freiburg", "Lindenweg 4"),
    ("我家在台北市大安區忠孝東路四段100號5樓，歡迎來玩", "忠孝東路四段100號5樓"),  # a floor, after "my home"
    # A plain "Address" field in a form, a record or a CSV that also has a person's name.
    ("Name: Kim Jiwoo\nAddress: 서울특별시 강남구 테헤란로 212\nPhone: 010-1234-5678", "테헤란로 212"),
    ('{"name": "Lena Vogel", "address": "Lindenweg 4, 79100 Freiburg"}', "Lindenweg 4, 79100 Freiburg"),
    ("name,address,city\nLena Vogel,Lindenweg 4,Freiburg\nTom Berg,Hauptstraße 12,Berlin", "Hauptstraße 12"),
    ("氏名: 山田太郎\n住所: 東京都渋谷区神宮前3-14-8", "神宮前3-14-8"),
    ("New address, for the card: 東京都新宿区西新宿2-8-1-305.", "西新宿2-8-1-305"),
]


@pytest.mark.parametrize(("text", "secret"), _ADDRESSES)
def test_a_home_address_abroad_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "東京国立博物館：〒110-8712 東京都台東区上野公園13-9",  # a museum: no room
    "国立中央博物館은 서울 용산구 서빙고로 137에 있다. 지하철 4호선 이촌역.",
    "The Louvre is at Rue de Rivoli, 75001 Paris; the Pergamonmuseum at Bodestraße 1-3, 10178 Berlin.",
    "Museo del Prado, Calle de Ruiz de Alarcón 23, 28014 Madrid. Abierto de 10 a 20 h.",
    "Gardens by the Bay, 18 Marina Gardens Drive, Singapore 018953",
    "Piano lesson 3 at 5 pm; Via Roma is the main street of Turin.",
    "The 2º edition of the book, chapter 3, page 4.",
    "Hotel check-in: room 1203 at 3 pm, breakfast on the 2nd floor.",
    "故宫博物院 地址：北京市东城区景山前街4号",
    "Delivery address format: street, house number, postcode, city.",
    "Bahnhofstraße 1 ist der Hauptbahnhof; Gleis 3, 2. OG ist die Lounge der DB.",
    "他住在北京，周末去上海。I live in Leeds and study at the university.",
    "住在 5 楼，每天爬楼梯锻炼；我住在罗素广场56号附近。",
    "Name: Louvre Museum\nAddress: Rue de Rivoli 99, 75001 Paris",  # a listing of a public place
    "Company: Acme Inc\nAddress: 1 Main St, Springfield",
    "name,address\nMuseo del Prado,Calle de Ruiz de Alarcón 23",
    "Name and address fields are required.\nAddress: street, number, city",
    "Queen: Live at Wembley 1986 is their best concert film.",
    # Dashed codes were read as Japanese block-lot-house-room numbers (1-2-3-405).
    "BLE 心率服务 0x180D 展开成 128 位：0000180d-0000-1000-8000-00805f9b34fb",
    "ORCID 示例：https://orcid.org/0000-0002-1825-0097，最后一位是 ISO 7064 校验",
    "uuid.uuid1() -> 6ba7b810-9dad-11d1-80b4-00c04fd430c8",
    "part no. AB1-2-3-456 ships in a box of 12",
    "Windows build 10.0-1-2-345 is the one the lab machines run",
])
def test_public_and_partial_addresses_pass(text: str) -> None:
    assert found(text) == []
