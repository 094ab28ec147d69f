"""Writes heldout18.py and negatives17.py: the session-18 adversarial batch (run once; seed 1818).

    .venv/bin/python benchmarks/gate_corpus/gen18.py cases > benchmarks/gate_corpus/heldout18.py
    .venv/bin/python benchmarks/gate_corpus/gen18.py negatives > benchmarks/gate_corpus/negatives17.py

Written before any detector of session 18 changed, from the families the last sealed batch missed
most (addresses of many countries and scripts, bank cards and IBANs, mobiles, licence plates,
national IDs with their checks, passwords outside ``key=value``, tokens in URL paths and keys given
positionally to CLIs) and the false alarms it raised (published example values, instruction text and
word lists about passwords, placeholders). Street names, numbers and digits are drawn from the seed;
ID numbers pass their national checks (the check-digit helpers are gen15's, drawing from this seed);
no value belongs to anyone. The negatives' published values are the exact strings their publishers
print (each line names where).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.gate_corpus import gen15 as g  # noqa: E402

R = random.Random(1818)
g.R = R  # gen15's check-digit helpers draw from this batch's seed
tok, digits, luhn_complete, card, grouped, iban = g.tok, g.digits, g.luhn_complete, g.card, g.grouped, g.iban
HEX, B62, LOWN = g.HEX, g.B62, g.LOWN

CASES: list[tuple[str, str, str, tuple[str, ...], str]] = []  # (category, container, text, secrets, shape)
NEGS: list[tuple[str, str]] = []  # (shape, text)


def case(category: str, container: str, shape: str, text: str, *secrets: str) -> None:
    for s in secrets:
        assert s in text, (shape, s)
    CASES.append((category, container, text, secrets, shape))


def neg(shape: str, text: str) -> None:
    NEGS.append((shape, text))


def n(lo: int, hi: int) -> int:
    return R.randint(lo, hi)


def pw() -> str:
    """A password as people make them: words, digits and a sign, or a random run."""
    words = ["maple", "Tiger", "qingdao", "Sunny", "koala", "river", "Panda", "lemon", "xiaoyu", "Ocean", "mango"]
    return R.choice([
        lambda: R.choice(words) + R.choice(["@", "#", "!", "_", "."]) + digits(R.choice([3, 4])),
        lambda: R.choice(words).capitalize() + digits(2) + R.choice(words) + R.choice("!?$%"),
        lambda: tok(R.choice([10, 12, 14]), B62 + "!@#%^&*"),
    ])()


# ---- more national checks (gen15 has the others) -----------------------------------------------------

def es_dni() -> str:
    num = digits(8)
    return num + "TRWAGMYFPDXBNJZSQVHLCKE"[int(num) % 23]


def es_nie() -> str:
    lead = R.choice("XYZ")
    num = digits(7)
    return lead + num + "TRWAGMYFPDXBNJZSQVHLCKE"[int(str("XYZ".index(lead)) + num) % 23]


def pt_nif() -> str:
    body = R.choice("12") + digits(7)
    s = sum(int(c) * w for c, w in zip(body, range(9, 1, -1), strict=False))
    c = 11 - s % 11
    return body + str(0 if c >= 10 else c)


def br_cpf() -> str:
    d = [int(c) for c in digits(9)]
    for k in (10, 11):
        s = sum(a * w for a, w in zip(d, range(k, 1, -1), strict=False))
        d.append(0 if s % 11 < 2 else 11 - s % 11)
    t = "".join(map(str, d))
    return f"{t[:3]}.{t[3:6]}.{t[6:9]}-{t[9:]}"


def hr_oib() -> str:
    body = digits(10)
    a = 10
    for c in body:
        a = (a + int(c)) % 10
        a = (a or 10) * 2 % 11
    return body + str((11 - a) % 10)


def ee_ik(s_yymmdd: str) -> str:
    body = s_yymmdd + digits(3)
    w1, w2 = [1, 2, 3, 4, 5, 6, 7, 8, 9, 1], [3, 4, 5, 6, 7, 8, 9, 1, 2, 3]
    c = sum(int(a) * b for a, b in zip(body, w1, strict=False)) % 11
    if c == 10:
        c = sum(int(a) * b for a, b in zip(body, w2, strict=False)) % 11
        c = 0 if c == 10 else c
    return body + str(c)


def bg_egn(yymmdd: str) -> str:
    body = yymmdd + digits(3)
    c = sum(int(a) * b for a, b in zip(body, [2, 4, 8, 5, 10, 9, 7, 3, 6], strict=False)) % 11
    return body + str(0 if c == 10 else c)


def ie_pps() -> str:
    body = digits(7)
    s = sum(int(c) * w for c, w in zip(body, range(8, 1, -1), strict=False))
    return body + "WABCDEFGHIJKLMNOPQRSTUV"[s % 23]


def ae_eid(year: str) -> str:
    v = luhn_complete("784" + year + digits(7))
    return f"{v[:3]}-{v[3:7]}-{v[7:14]}-{v[14]}"


def ir_melli() -> str:
    while True:
        body = digits(9)
        if len(set(body)) > 1:
            break
    s = sum(int(c) * (10 - i) for i, c in enumerate(body)) % 11
    return body + str(s if s < 2 else 11 - s)


def ar_cuit(prefix: str) -> str:
    while True:
        body = prefix + digits(8)
        s = sum(int(c) * w for c, w in zip(body, [5, 4, 3, 2, 7, 6, 5, 4, 3, 2], strict=False))
        c = 11 - s % 11
        if c == 10:
            continue
        c = 0 if c == 11 else c
        return f"{body[:2]}-{body[2:]}-{c}"


def ec_cedula() -> str:
    body = f"{n(1, 24):02d}" + str(n(0, 5)) + digits(6)
    s = 0
    for i, c in enumerate(body):
        d = int(c) * (2 if i % 2 == 0 else 1)
        s += d - 9 if d > 9 else d
    return body + str((10 - s % 10) % 10)


def ru_snils() -> str:
    body = digits(9)
    s = sum(int(c) * (9 - i) for i, c in enumerate(body))
    c = s % 101
    c = 0 if c == 100 else c
    return f"{body[:3]}-{body[3:6]}-{body[6:]} {c:02d}"


def kz_iin(yymmdd: str) -> str:
    while True:
        body = yymmdd + R.choice("3456") + digits(4)
        c = sum(int(a) * b for a, b in zip(body, range(1, 12), strict=False)) % 11
        if c == 10:
            c = sum(int(a) * b for a, b in zip(body, [3, 4, 5, 6, 7, 8, 9, 10, 11, 1, 2], strict=False)) % 11
        if c != 10:
            return body + str(c)


def ua_rnokpp() -> str:
    body = digits(9)
    s = sum(int(c) * w for c, w in zip(body, [-1, 5, 7, 9, 4, 6, 10, 5, 7], strict=False))
    return body + str(s % 11 % 10)


def cz_rc(yymmdd: str) -> str:
    while True:
        v = int(yymmdd + digits(4))
        if v % 11 == 0:
            s = f"{v:010d}"
            return f"{s[:6]}/{s[6:]}"


def lt_ak(s_yymmdd: str) -> str:
    return ee_ik(s_yymmdd)  # Lithuania uses Estonia's two weight rounds


def uk_nino() -> str:
    first = R.choice("ABCEGHJKLMNOPRSTWXYZ")
    second = R.choice("ABCEGHJKLMNPRSTWXYZ")
    d = digits(6)
    return f"{first}{second} {d[:2]} {d[2:4]} {d[4:]} {R.choice('ABCD')}"


def us_ssn() -> str:
    return f"{n(101, 665)}-{n(10, 99)}-{n(1001, 9999)}"


def gr_amka(ddmmyy: str) -> str:
    return luhn_complete(ddmmyy + digits(4))


def my_mykad(yymmdd: str) -> str:
    return f"{yymmdd}-{R.choice(['10', '14', '08', '01'])}-{digits(4)}"


def id_nik(ddmmyy: str) -> str:
    return "3174" + f"{n(1, 9):02d}" + ddmmyy + digits(4)


def pk_cnic() -> str:
    return f"{n(35101, 42501)}-{digits(7)}-{n(1, 9)}"


def vn_cccd() -> str:
    return "0" + f"{n(1, 96):02d}" + R.choice("0123") + f"{n(0, 99):02d}" + digits(6)


# ---- mobiles -----------------------------------------------------------------------------------------

def cn_mobile() -> str:
    return R.choice(["135", "136", "137", "150", "151", "158", "159", "182", "187", "188", "177", "199"]) + digits(8)


def build_addresses() -> None:  # noqa: PLR0915 - one list of cases
    pick = R.choice
    h, u, f = n(2, 240), n(1, 60), n(1, 9)
    st = pick(["Marszałkowska", "Puławska", "Grochowska", "Wileńska"])
    a = f"ul. {st} {h}/{n(1, 9)} m. {u}"
    case("address", "note", "a Polish street with building/flat and m. (mieszkanie), no label",
         f"Paczka dla Oli: {a}, 0{n(0, 4)}-{n(100, 999)} Warszawa, domofon {f}.", a)
    a = f"{pick(['Korunní', 'Vinohradská', 'Slezská', 'Na Pankráci'])} {n(1000, 3999)}/{n(2, 140)}"
    case("address", "note", "a Czech address with descriptive/orientation numbers after 'bydlím na'",
         f"Bydlím na adrese {a}, 1{n(0, 9)}0 00 Praha {n(2, 10)}, zvonek Nováková.", a)
    a = f"{pick(['Prinsengracht', 'Bloemgracht', 'Lindengracht'])} {n(10, 400)}-{pick(['1hoog', '2', 'III', 'huis'])}"
    case("address", "note", "a Dutch canal address with a floor suffix",
         f"Ons nieuwe adres vanaf 1 maart: {a}, 10{n(10, 99)} {pick(['GV', 'KL', 'RT'])} Amsterdam. Bel aan bij Jansen.", a)
    a = f"{pick(['Storgatan', 'Linnégatan', 'Vasagatan'])} {n(2, 80)} lgh {n(1001, 1504)}"
    case("address", "note", "a Swedish address with a lägenhet number",
         f"Skicka kurslitteraturen till {a}, 41{n(1, 9)} {n(10, 99)} Göteborg", a)
    a = f"{pick(['Nørrebrogade', 'Jagtvej', 'Amagerbrogade'])} {n(2, 200)}, {n(1, 5)}. {pick(['tv', 'th', 'mf'])}"
    case("address", "note", "a Danish address with floor and door side (3. tv)",
         f"Studiegruppe hjemme hos mig: {a}, 2200 København N — ring på hos Hansen.", a)
    a = f"{pick(['Thereses gate', 'Trondheimsveien', 'Kirkeveien'])} {n(2, 90)}B, H0{n(1, 6)}0{n(1, 6)}"
    case("address", "yaml", "a Norwegian address with an H-number flat in YAML",
         f"kontakt:\n  navn: Ingrid\n  adresse: \"{a}, 0{n(1, 9)}{n(10, 99)} Oslo\"\n  telefon: privat\n", a)
    a = f"{pick(['Mannerheimintie', 'Hämeentie', 'Fredrikinkatu'])} {n(2, 90)} {pick('ABC')} {n(2, 60)}"
    case("address", "note", "a Finnish address with staircase letter and flat number",
         f"Uusi osoitteeni: {a}, 00{n(1, 9)}00 Helsinki", a)
    a = f"C/ {pick(['de Alcalá', 'Mayor', 'del Pez', 'de Toledo'])}, {n(2, 250)}, {n(1, 8)}º {pick(['izq.', 'dcha.', 'B', 'C'])}"
    case("address", "note", "a Spanish address with C/ and floor 4º izq.",
         f"Para la fianza: el piso está en {a}, 280{n(10, 50)} Madrid.", a)
    a = f"Rua {pick(['Augusta', 'do Ouro', 'da Prata'])}, n.º {n(2, 200)}, {n(1, 6)}.º {pick(['Esq.', 'Dto.'])}"
    case("address", "md", "a Portuguese address with n.º and 2.º Esq. in a Markdown list",
         f"# Mudança\n\n- data: 3 de março\n- morada: {a}, 1100-0{n(10, 99)} Lisboa\n- chave com a vizinha\n", a)
    a = f"Av. {pick(['Paulista', 'Brigadeiro Faria Lima', 'Rebouças'])}, {n(100, 3000)}, apto {n(11, 180)}"
    case("address", "note", "a Brazilian address with apto and CEP",
         f"Me manda o livro pelo correio: {a} – Bela Vista, São Paulo – SP, 0{n(1000, 5999)}-{n(100, 999)}", a)
    a = f"Calle {pick(['Durango', 'Colima', 'Orizaba'])} {n(10, 400)} int. {n(1, 12)}, Col. Roma Norte"
    case("address", "note", "a Mexican address with int. and Col. and C.P.",
         f"Entrega: {a}, C.P. 067{n(0, 9)}0, Cuauhtémoc, CDMX. Tocar el timbre.", a)
    a = f"Av. {pick(['Corrientes', 'Santa Fe', 'Rivadavia'])} {n(500, 5000)}, piso {n(1, 14)}, depto. {pick('ABCDE')}"
    case("address", "txt", "an Argentine address with piso and depto.",
         f"Datos para el envío\nNombre: Sofía\n{a}\nC1043 CABA\n", a)
    a = f"{pick(['Bağdat', 'Halaskargazi', 'İstiklal'])} Cad. No:{n(2, 300)} D:{n(1, 20)}"
    case("address", "note", "a Turkish address with Cad. No: D:",
         f"Kitapları şu adrese gönderebilir misin: {a}, Kadıköy/İstanbul", a)
    a = f"{pick(['Ερμού', 'Πατησίων', 'Σόλωνος'])} {n(2, 150)}, {n(1, 6)}ος όροφος"
    case("address", "note", "a Greek address with a floor ordinal",
         f"Η νέα μου διεύθυνση: οδός {a}, 10{n(1, 6)} {n(10, 90)} Αθήνα", a)
    a = f"רחוב {pick(['הרצל', 'בן יהודה', 'דיזנגוף'])} {n(2, 200)} דירה {n(1, 40)}"
    case("address", "note", "a Hebrew address with a flat (דירה) number",
         f"הכתובת שלי: {a}, תל אביב", a)
    a = f"شقة {n(101, 2405)}، {pick(['برج الأمل', 'برج النخيل'])}، شارع {pick(['الشيخ زايد', 'الملك فهد'])}"
    case("address", "note", "an Arabic address with flat (شقة), tower and street",
         f"عنواني الجديد: {a}، دبي", a)
    a = f"Flat No. {n(101, 904)}, {pick(['Sai Residency', 'Green Park Apartments', 'Lake View Towers'])}, {n(1, 9)}th Cross"
    case("address", "note", "an Indian flat/society/cross address with a PIN code",
         f"Courier to: {a}, Indiranagar, Bengaluru 5600{n(10, 99)}. Call before coming.", a)
    a = f"{n(10, 999)}/{n(1, 300)} ซอยสุขุมวิท {n(1, 101)}"
    case("address", "note", "a Thai address with house number and soi",
         f"ที่อยู่จัดส่ง เลขที่ {a} แขวงคลองเตยเหนือ เขตวัฒนา กรุงเทพฯ 10110", a)
    a = f"Số {n(2, 120)} ngõ {n(2, 300)} phố {pick(['Huế', 'Bạch Mai', 'Kim Mã'])}"
    case("address", "note", "a Vietnamese address with số/ngõ/phố",
         f"Gửi sách về nhà mình nhé: {a}, quận Hai Bà Trưng, Hà Nội", a)
    a = f"Jl. {pick(['Kemang Raya', 'Tebet Barat', 'Cikini Raya'])} No. {n(2, 150)}, RT {n(1, 12):02d}/RW {n(1, 9):02d}"
    case("address", "note", "an Indonesian address with Jl., No. and RT/RW",
         f"Alamat kos baru: {a}, Jakarta Selatan 127{n(10, 99)}", a)
    a = f"No. {n(2, 90)}, Jalan SS {n(2, 25)}/{n(10, 99)}"
    case("address", "note", "a Malaysian address with Jalan",
         f"Hantar ke rumah saya: {a}, 47300 Petaling Jaya, Selangor", a)
    a = f"Unit {n(101, 3505)}, Tower {n(1, 4)}, {n(100, 999)} {pick(['Ayala Ave', 'Shaw Blvd', 'Ortigas Ave'])}"
    case("address", "json", "a Philippine condo address in a JSON order",
         f'{{"order": 5521, "ship_to": {{"name": "Maria", "line": "{a}", "city": "Makati City"}}}}', a)
    a = f"Unit {n(1, 30)}/{n(2, 200)} {pick(['Smith St', 'Brunswick St', 'Gertrude St'])}"
    case("address", "note", "an Australian unit/number street address",
         f"New place from Feb: {a}, Fitzroy VIC 3065 — come for dumplings!", a)
    a = f"{n(100, 3999)}, rue {pick(['Sainte-Catherine Ouest', 'Saint-Denis', 'Rachel Est'])}, app. {n(2, 900)}"
    case("address", "note", "a Québec address with number before rue and app.",
         f"Mon adresse pour le colis : {a}, Montréal (Québec) H2{pick('JKLX')} {n(1, 9)}{pick('ABCM')}{n(1, 9)}", a)
    a = f"Flat {n(1, 12)}, {n(2, 90)} {pick(['Grove Terrace', 'Hyde Park Road', 'Cardigan Lane'])}"
    case("address", "txt", "a UK flat address with a postcode, as a letter's header",
         f"{a}\nLeeds LS6 {n(1, 4)}{pick(['AF', 'BJ', 'DQ'])}\n\nDear Professor Smith,\nI am writing about my extension.\n", a)
    a = f"{n(100, 9999)} {pick(['Maple Ave', 'Cedar Ln', 'Birch Rd'])} Apt {n(1, 9)}{pick('ABCD')}"
    case("address", "json", "a US shipping address in a JSON payload (line1/line2 keys)",
         f'{{"shipping": {{"name": "Jordan", "line1": "{a}", "city": "Madison", "state": "WI", "zip": "53703"}}}}', a)
    a = f"{pick(['漕溪北路', '天钥桥路', '零陵路'])} {n(10, 800)} 弄 {n(1, 30)} 号 {n(2, 24)}0{n(1, 4)} 室"
    case("address", "note", "a Shanghai lane address with 弄/号/室 in a chat, no label",
         f"快递帮我放到上海市徐汇区{a}门口就行，谢谢", a)
    a = f"{pick(['渋谷', '恵比寿', '代々木'])}{n(1, 4)}-{n(1, 30)}-{n(1, 20)} {pick(['サンライズ', 'メゾン', 'パレス'])}{pick(['渋谷', '青山'])}{n(1, 9)}0{n(1, 9)}"
    case("address", "note", "a Japanese address with 〒 and banchi dashes, building and room",
         f"〒150-00{n(10, 99)} 東京都渋谷区{a}", a)
    a = f"{pick(['봉천동', '신림동', '상도동'])} {n(100, 999)}-{n(1, 99)} {n(2, 5)}층"
    case("address", "note", "a Korean lot-number (jibun) address with floor",
         f"자취방 주소: 서울 관악구 {a} (초인종 없음)", a)
    a = f"{pick(['Kastanienallee', 'Oderberger Straße', 'Schönhauser Allee'])} {n(2, 120)}, Hinterhaus {n(1, 5)}. OG"
    case("address", "note", "a German address with Hinterhaus and floor, c/o a name",
         f"Bitte an: Lena Koch, bei Müller, {a}, 10435 Berlin", a)
    a = f"Appt {n(2, 60)}, {n(2, 90)} bis rue des {pick(['Lilas', 'Acacias', 'Tanneurs'])}"
    case("address", "note", "a French address with Appt and bis",
         f"Pour la soirée de révision : {a}, 6900{n(1, 9)} Lyon, code porte à l'oral.", a)
    a = f"Corso {pick(['Buenos Aires', 'Vercelli', 'Magenta'])} {n(2, 200)}, int. {n(1, 30)}"
    case("address", "yaml", "an Italian address under indirizzo in YAML",
         f"studente:\n  nome: Giulia\n  indirizzo: {a}\n  citta: Milano\n", a)
    a = f"{pick(['Ленинский проспект', 'Профсоюзная улица', 'Кутузовский проспект'])}, {n(2, 150)}{pick('АБВ')}, кв. {n(1, 300)}"
    case("address", "note", "a Russian address, street type after the name, no label",
         f"Москва, {a}. Домофон не работает, позвони.", a)
    a = f"вул. {pick(['Хрещатик', 'Саксаганського', 'Антоновича'])}, буд. {n(2, 120)}, кв. {n(1, 200)}"
    case("address", "note", "a Ukrainian address with вул./буд./кв.",
         f"Надішли, будь ласка, на {a}, Київ", a)
    a = f"{pick(['文化路一段', '民生路二段', '中山路三段'])} {n(10, 400)} 巷 {n(1, 40)} 號 {n(2, 15)} 樓"
    case("address", "note", "a Taiwan address with 段/巷/號/樓, spaced",
         f"寄到新北市板橋區{a}，收件人寫我就好", a)
    a = f"{pick(['文三路', '学院路', '教工路'])} {n(10, 500)} 号{pick(['东部软件园', '华星时代', '天苑花园'])} {n(1, 12)} 幢 {n(1, 20)}0{n(1, 6)}"
    case("address", "note", "a Hangzhou road/number/estate/幢/room address",
         f"我搬家了，新地址：杭州市西湖区{a}", a)
    a = f"Blk {n(100, 700)} {pick(['Ang Mo Kio Ave 3', 'Tampines St 21', 'Jurong West St 52'])} #{n(2, 20):02d}-{n(10, 999)}"
    case("address", "note", "a Singapore HDB block address with #floor-unit",
         f"Pls send the notes to {a} S(560{n(100, 999)})", a)
    a = f"Plot {n(2, 90)}, {pick(['Adeola Odeku Street', 'Awolowo Road', 'Allen Avenue'])}"
    case("address", "note", "a Nigerian plot address",
         f"My new house: {a}, Victoria Island, Lagos. Gate is blue.", a)
    a = f"{n(10, 999)} {pick(['Bree St', 'Kloof St', 'Long St'])}, {pick(['Gardens', 'Tamboerskloof'])}"
    case("address", "py", "a South African street address in a Python dict",
         f'student = {{\n    "name": "Thandi",\n    "home": "{a}, Cape Town, 8001",\n}}\n', a)


def build_cards() -> None:
    v = card("4" + digits(5))
    case("bank_card", "note", "a Visa number grouped by dots",
         f"换汇那次用的卡 {grouped(v, [4, 4, 4, 4], '.')}，有效期 0{n(1, 9)}/2{n(7, 9)}", grouped(v, [4, 4, 4, 4], "."))
    v = card(str(n(2221, 2720)))
    case("bank_card", "note", "a Mastercard 2-series number with no separators in a sentence",
         f"Paid the deposit with {v}, exp 11/28, CVC {digits(3)}", v)
    v = card("37" + digits(2), 15)
    case("bank_card", "note", "an Amex 4-6-5 under a German label",
         f"Kreditkartennummer: {grouped(v, [4, 6, 5])}", grouped(v, [4, 6, 5]))
    v = card("62" + R.choice(["2202", "1226", "2848", "1700"]), 19)
    case("bank_card", "note", "a 19-digit UnionPay debit card in 6-13 groups, 工资卡",
         f"工资卡（建行）{v[:6]} {v[6:]}，发工资那天记得查", f"{v[:6]} {v[6:]}")
    v = card("6" + R.choice(["76770", "76771", "30490"]), 18)
    case("bank_card", "note", "an 18-digit Maestro number with the French label",
         f"Numéro de carte : {grouped(v, [4, 4, 4, 4, 2])}", grouped(v, [4, 4, 4, 4, 2]))
    v = card("35" + str(n(28, 89)))
    case("bank_card", "note", "a JCB number under a Japanese label",
         f"カード番号：{grouped(v, [4, 4, 4, 4], '-')}（期限 05/29）", grouped(v, [4, 4, 4, 4], "-"))
    v = card("36" + digits(2), 14)
    case("bank_card", "note", "a 14-digit Diners Club 4-6-4",
         f"Diners: {grouped(v, [4, 6, 4])} — only for the conference fee", grouped(v, [4, 6, 4]))
    v = card("9" + R.choice(["40", "41"]) + digits(3))
    case("bank_card", "note", "a Korean card number under 카드번호",
         f"카드번호 {grouped(v, [4, 4, 4, 4], '-')} 유효기간 0{n(1, 9)}/2{n(7, 9)}", grouped(v, [4, 4, 4, 4], "-"))
    v = card("2200" + digits(2))
    case("bank_card", "note", "a Russian Mir card under номер карты",
         f"Номер карты для перевода: {grouped(v, [4, 4, 4, 4])} (Сбер)", grouped(v, [4, 4, 4, 4]))
    v = card("4" + digits(5))
    case("bank_card", "json", "a card PAN in a JSON payment body",
         f'{{"amount": 4200, "currency": "EUR", "source": {{"pan": "{v}", "exp_month": 9, "exp_year": 2028}}}}', v)
    v = card("5" + str(n(1, 5)) + digits(4))
    case("bank_card", "txt", "a card in a CSV export of expenses",
         f"date,merchant,amount,card\n2026-10-02,Bookshop,12.40,{v}\n2026-10-05,Cafe,3.10,{v}\n", v)
    v = card("4" + digits(5))
    case("bank_card", "note", "a Visa spaced in 4s under a Spanish label",
         f"Mi tarjeta de crédito: {grouped(v, [4, 4, 4, 4])}, caduca en 2029", grouped(v, [4, 4, 4, 4]))
    v = iban("DE", digits(18))
    case("bank_card", "note", "a German IBAN in 4-groups in a sentence with no label",
         f"Miete bitte ab sofort auf {grouped(v, [4, 4, 4, 4, 4, 2])} überweisen.", grouped(v, [4, 4, 4, 4, 4, 2]))
    v = iban("FR", digits(10) + tok(11, "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") + digits(2))
    case("bank_card", "note", "a French IBAN written whole in lower case",
         f"rib pour le remboursement : {v.lower()}", v.lower())
    v = iban("GB", R.choice(["NWBK", "BARC", "MIDL"]) + digits(14))
    case("bank_card", "txt", "a UK IBAN inside a plain-text invoice",
         f"INVOICE 2026-117\nTutoring, 6 hours: £180\nPay to: {grouped(v, [4, 4, 4, 4, 4, 2])}\nThank you!\n",
         grouped(v, [4, 4, 4, 4, 4, 2]))
    v = iban("NL", R.choice(["ABNA", "INGB", "RABO"]) + digits(10))
    case("bank_card", "yaml", "a Dutch IBAN in YAML under rekening",
         f"betaling:\n  rekening: {v}\n  naam: J. de Vries\n", v)
    v = iban("ES", digits(20))
    case("bank_card", "note", "a Spanish IBAN with cuenta",
         f"Número de cuenta: {grouped(v, [4, 4, 4, 2, 10])}", grouped(v, [4, 4, 4, 2, 10]))
    v = iban("TR", digits(5) + "0" + digits(16))
    case("bank_card", "note", "a Turkish IBAN after 'IBAN no' with spaces",
         f"Kira için IBAN no: {grouped(v, [4, 4, 4, 4, 4, 4, 2])} (Ayşe Y.)", grouped(v, [4, 4, 4, 4, 4, 4, 2]))
    v = iban("BR", digits(8) + digits(5) + digits(10) + "C1")
    case("bank_card", "note", "a Brazilian IBAN in a Portuguese sentence",
         f"Pode depositar no {v}, é da minha conta no Brasil", v)
    v = iban("PL", digits(24))
    case("bank_card", "note", "a Polish account number (NRB, no country letters) under numer konta",
         f"Numer konta: {grouped(v[2:], [2, 4, 4, 4, 4, 4, 4])}", grouped(v[2:], [2, 4, 4, 4, 4, 4, 4]))
    v = card("4" + digits(5))
    case("bank_card", "md", "a card number in a Markdown table of cards",
         f"| 卡 | 号码 | 用途 |\n|---|---|---|\n| 招行信用卡 | {v} | 网购 |\n| 校园卡 | 2023{digits(6)} | 食堂 |\n", v)


def build_mobiles() -> None:
    m = f"07{n(400, 999)} {digits(6)}"
    case("mobile", "note", "a UK mobile 07xxx xxxxxx in a sentence",
         f"Text me when you land, my number's {m}", m)
    m = f"+91 {R.choice('6789')}{digits(4)} {digits(5)}"
    case("mobile", "note", "an Indian mobile with +91 and a 5-5 split",
         f"Contact for the hostel: Ravi {m}", m)
    m = f"0{R.choice(['90', '80', '70'])}-{digits(4)}-{digits(4)}"
    case("mobile", "note", "a Japanese mobile 090-xxxx-xxxx under 携帯",
         f"携帯：{m}（夜は出られません）", m)
    m = f"010-{digits(4)}-{digits(4)}"
    case("mobile", "note", "a Korean mobile 010 in a sentence",
         f"스터디 단톡방 대신 {m}로 문자 주세요", m)
    m = f"+49 15{n(1, 9)} {digits(7)}"
    case("mobile", "note", "a German mobile +49 15x",
         f"Erreichbar unter {m} (auch WhatsApp)", m)
    m = f"06 {digits(2)} {digits(2)} {digits(2)} {digits(2)}"
    case("mobile", "note", "a French mobile 06 in pairs",
         f"Appelle-moi au {m} si le cours est annulé", m)
    m = f"(11) 9{digits(4)}-{digits(4)}"
    case("mobile", "note", "a Brazilian mobile (11) 9xxxx-xxxx",
         f"Meu zap: {m}", m)
    m = f"+7 (9{digits(2)}) {digits(3)}-{digits(2)}-{digits(2)}"
    case("mobile", "note", "a Russian mobile +7 (9xx) xxx-xx-xx",
         f"Мой новый номер {m}, старый больше не работает", m)
    m = f"08{n(11, 59)}-{digits(4)}-{digits(4)}"
    case("mobile", "note", "an Indonesian mobile 08xx-xxxx-xxxx",
         f"Hubungi aku di {m} ya", m)
    m = f"09{n(0, 9)}{digits(1)}.{digits(3)}.{digits(3)}"
    case("mobile", "note", "a Vietnamese mobile with dots",
         f"Số điện thoại của mình: {m}", m)
    m = f"08{n(1, 9)}-{digits(3)}-{digits(4)}"
    case("mobile", "note", "a Thai mobile 08x-xxx-xxxx",
         f"เบอร์โทร {m} ติดต่อได้ทั้งวัน", m)
    m = f"080{n(2, 9)} {digits(3)} {digits(4)}"
    case("mobile", "note", "a Nigerian mobile 080x",
         f"Call my line {m} when you get to the gate", m)
    m = f"04{digits(2)} {digits(3)} {digits(3)}"
    case("mobile", "note", "an Australian mobile 04xx xxx xxx",
         f"Mob {m}", m)
    m = f"05{n(30, 59)} {digits(3)} {digits(2)} {digits(2)}"
    case("mobile", "note", "a Turkish mobile 05xx xxx xx xx",
         f"Cep: {m}", m)
    m = f"09{n(15, 99)} {digits(3)} {digits(4)}"
    case("mobile", "note", "a Philippine mobile 09xx",
         f"GCash number ko: {m}", m)
    m = f"03{n(0, 4)}{digits(1)}-{digits(7)}"
    case("mobile", "note", "a Pakistani mobile 03xx-xxxxxxx",
         f"Mera number {m} hai", m)
    m = cn_mobile()
    case("mobile", "note", "a Chinese mobile inside a wa.me link",
         f"海外同学加我 WhatsApp：https://wa.me/86{m}", f"86{m}")
    m = f"+44{n(7400, 7999)}{digits(6)}"
    case("mobile", "md", "a tel: link in a Markdown contact line",
         f"## Contact\n\n[Call me](tel:{m}) or e-mail the society.\n", m)
    m = f"{R.choice('67')}{digits(2)} {digits(2)} {digits(2)} {digits(2)}"
    case("mobile", "note", "a Spanish mobile 6xx xx xx xx under móvil",
         f"Móvil de Carmen: {m}", m)
    m = f"3{n(20, 49)} {digits(3)} {digits(4)}"
    case("mobile", "note", "an Italian mobile 3xx xxx xxxx under cell.",
         f"cell. {m} — Marco (coinquilino)", m)
    m = f"{R.choice(['5', '6', '7', '8'])}{digits(2)} {digits(3)} {digits(3)}"
    case("mobile", "note", "a Polish mobile in 3-3-3 under tel. kom.",
         f"tel. kom. {m}", m)
    m = cn_mobile()
    case("mobile", "note", "a Chinese mobile split 3-4-4 with 微信同号",
         f"有问题打 {m[:3]}-{m[3:7]}-{m[7:]}（微信同号）", f"{m[:3]}-{m[3:7]}-{m[7:]}")


def build_plates() -> None:
    p = f"粤B·D{digits(5)}"
    case("licence_plate", "note", "a Chinese new-energy plate with the middle dot", f"我的车 {p} 停在 B2 层", p)
    p = f"品川 {n(300, 599)} {R.choice('あさはま')} {n(10, 99)}-{n(10, 99)}"
    case("licence_plate", "note", "a Japanese plate with region, class, kana and number",
         f"駐車場登録：{p}（白のフィット）", p)
    p = f"{n(100, 399)}{R.choice('가나다라마')} {digits(4)}"
    case("licence_plate", "note", "a Korean 3-digit plate", f"차량번호 {p} 주차 등록 부탁드립니다", p)
    p = f"{R.choice(['HH', 'M', 'K', 'B'])}-{R.choice(['AB', 'XY', 'LK'])} {n(100, 9999)}"
    case("licence_plate", "note", "a German plate", f"Mein Auto: {p} (grauer Golf), steht vor dem Wohnheim", p)
    p = f"{tok(2, 'ABCDEFGHJKLMNPRSTVWXYZ')}-{digits(3)}-{tok(2, 'ABCDEFGHJKLMNPRSTVWXYZ')}"
    case("licence_plate", "note", "a French SIV plate", f"Ma voiture immatriculée {p} est au parking", p)
    p = f"{tok(2, 'ABCDEFGHJKLMNOPRSTUVWXY')}{n(51, 75)} {tok(3, 'ABCDEFGHJKLMNOPRSTUVWXYZ')}"
    case("licence_plate", "note", "a UK plate in a parking permit note", f"Parking permit for reg {p}, bay 14", p)
    p = f"{tok(2, 'ABCDEFGHJKLMNPRSTVWXYZ')} {digits(3)} {tok(2, 'ABCDEFGHJKLMNPRSTVWXYZ')}"
    case("licence_plate", "note", "an Italian plate under targa", f"targa {p}, Fiat Panda bianca", p)
    p = f"{digits(4)} {tok(3, 'BCDFGHJKLMNPRSTVWXYZ')}"
    case("licence_plate", "note", "a Spanish plate under matrícula", f"Matrícula del coche: {p}", p)
    p = f"{digits(2)}-{tok(3, 'BDFGHJKLNPRSTVXZ')}-{n(1, 9)}"
    case("licence_plate", "note", "a Dutch sidecode plate under kenteken", f"Kenteken {p} — parkeervergunning aangevraagd", p)
    p = f"W{tok(1, 'AXYZ')} {digits(4)}{tok(1, 'ABCEF')}"
    case("licence_plate", "note", "a Polish plate", f"Numer rejestracyjny: {p}", p)
    p = f"{R.choice('АВЕКМНОРСТУХ')}{digits(3)}{R.choice('АВЕКМНОРСТУХ')}{R.choice('АВЕКМНОРСТУХ')} {n(77, 799)}"
    case("licence_plate", "note", "a Russian plate in Cyrillic with region", f"Госномер {p}, белая Веста", p)
    p = f"{tok(3, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')}{n(0, 9)}{tok(1, 'ABCDEFGHIJ')}{digits(2)}"
    case("licence_plate", "note", "a Brazilian Mercosul plate", f"Placa do carro: {p}", p)
    p = f"{R.choice(['KA', 'MH', 'DL', 'TN'])} {n(1, 50):02d} {tok(2, 'ABCDEFGHJKLMNPRSTUVWXYZ')} {digits(4)}"
    case("licence_plate", "note", "an Indian plate", f"Bike no. {p} — parked near hostel C", p)
    p = f"{n(1, 9)}{R.choice('กขคฆง')}{R.choice('กขคฆง')} {digits(4)}"
    case("licence_plate", "note", "a Thai plate with province", f"ทะเบียนรถ {p} กรุงเทพมหานคร", p)
    p = f"{n(4, 9)}{tok(3, 'ABCDEFGHJKLMNPRSTUVWXYZ')}{digits(3)}"
    case("licence_plate", "note", "a California plate with the state named after it",
         f"Rental car is a white Corolla, plate {p} (California).", p)
    p = f"{tok(3, 'ABCDEFGHJKLMNPQRSTUVWXYZ')}-{digits(4)}"
    case("licence_plate", "note", "a Taiwan plate under 車牌", f"車牌 {p}，機車停車位 A12", p)
    p = f"{n(29, 99)}{R.choice('ABCDEFGH')}-{digits(3)}.{digits(2)}"
    case("licence_plate", "note", "a Vietnamese plate with a dot", f"Biển số xe: {p}", p)
    p = f"{R.choice(['ZH', 'BE', 'VD', 'GE'])} {n(10000, 999999)}"
    case("licence_plate", "note", "a Swiss plate with canton", f"Kontrollschild {p}, bitte nicht abschleppen", p)
    p = f"{tok(3, 'ABCDEFGHJKLMNOPRSTUWXYZ')} {digits(2)}{tok(1, 'ABCDEFGHJKLMNPRSTUWXYZ')}"
    case("licence_plate", "note", "a Swedish plate", f"Regnr {p} — min bil", p)



def build_ids() -> None:  # noqa: PLR0915 - one list of cases
    v = es_dni()
    case("resident_id", "note", "a Spanish DNI with its letter, after 'mi DNI es'", f"Para la matrícula, mi DNI es {v}.", v)
    v = es_nie()
    case("resident_id", "note", "a Spanish NIE with dashes", f"NIE: {v[0]}-{v[1:8]}-{v[8]} (tarjeta de residencia)",
         f"{v[0]}-{v[1:8]}-{v[8]}")
    v = pt_nif()
    case("resident_id", "note", "a Portuguese NIF in spaced triples",
         f"Contribuinte n.º {v[:3]} {v[3:6]} {v[6:]}", f"{v[:3]} {v[3:6]} {v[6:]}")
    v = br_cpf()
    case("resident_id", "json", "a Brazilian CPF in a JSON enrolment", f'{{"aluno": "Pedro", "cpf": "{v}", "turma": "3B"}}', v)
    v = hr_oib()
    case("resident_id", "note", "a Croatian OIB", f"OIB studenta: {v}", v)
    v = ee_ik("4" + f"{n(90, 99)}{n(1, 12):02d}{n(10, 28)}")
    case("resident_id", "note", "an Estonian isikukood", f"Isikukood {v} — stipendiumi avaldus", v)
    v = bg_egn(f"{n(90, 99)}{n(1, 12):02d}{n(10, 28)}")
    case("resident_id", "note", "a Bulgarian EGN under ЕГН", f"ЕГН: {v}", v)
    v = ie_pps()
    case("resident_id", "note", "an Irish PPS number", f"PPSN {v} for the grant form", v)
    v = ae_eid(f"19{n(85, 99)}")
    case("resident_id", "note", "a UAE Emirates ID 784-yyyy-nnnnnnn-c", f"Emirates ID: {v}", v)
    v = ir_melli()
    case("resident_id", "note", "an Iranian national code under کد ملی", f"کد ملی: {v}", v)
    v = ar_cuit(R.choice(["20", "27"]))
    case("resident_id", "note", "an Argentine CUIL", f"CUIL {v} (para la beca)", v)
    v = ec_cedula()
    case("resident_id", "note", "an Ecuadorian cédula", f"Cédula de identidad: {v}", v)
    v = ru_snils()
    case("resident_id", "note", "a Russian SNILS with its check", f"СНИЛС {v}", v)
    v = kz_iin(f"{n(95, 99)}{n(1, 12):02d}{n(10, 28)}")
    case("resident_id", "note", "a Kazakh IIN under ЖСН/ИИН", f"ИИН (ЖСН): {v}", v)
    v = ua_rnokpp()
    case("resident_id", "note", "a Ukrainian RNOKPP (tax number)", f"РНОКПП {v}", v)
    v = cz_rc(f"{n(90, 99)}{n(51, 62)}{n(10, 28)}")
    case("resident_id", "note", "a Czech rodné číslo with a slash", f"Rodné číslo: {v}", v)
    v = lt_ak("3" + f"{n(90, 99)}{n(1, 12):02d}{n(10, 28)}")
    case("resident_id", "note", "a Lithuanian asmens kodas", f"Asmens kodas {v}", v)
    v = uk_nino()
    case("resident_id", "note", "a UK National Insurance number spaced", f"NI number {v} — for the payroll at the library job", v)
    v = us_ssn()
    case("resident_id", "note", "a US SSN in a W-4 note", f"W-4: SSN {v}, single, no dependents", v)
    v = gr_amka(f"{n(10, 28)}{n(1, 12):02d}{n(90, 99)}")
    case("resident_id", "note", "a Greek AMKA", f"ΑΜΚΑ: {v}", v)
    v = my_mykad(f"{n(95, 99)}{n(1, 12):02d}{n(10, 28)}")
    case("resident_id", "note", "a Malaysian MyKad number", f"No. Kad Pengenalan: {v}", v)
    v = id_nik(f"{n(10, 28)}{n(1, 12):02d}{n(95, 99)}")
    case("resident_id", "note", "an Indonesian NIK", f"NIK {v} untuk daftar ulang", v)
    v = pk_cnic()
    case("resident_id", "note", "a Pakistani CNIC", f"CNIC # {v}", v)
    v = vn_cccd()
    case("resident_id", "note", "a Vietnamese CCCD number", f"Số CCCD: {v}", v)
    v = g.cn_id(R.choice(["440305", "510107", "320102"]), f"200{n(0, 5)}{n(1, 12):02d}{n(10, 28)}")
    case("resident_id", "md", "a Chinese ID in a Markdown table cell with no word for it",
         f"| 姓名 | 学号 | 证件 |\n|---|---|---|\n| 王磊 | 2023{digits(6)} | {v} |\n", v)
    v = g.hkid()
    case("resident_id", "note", "a HKID after 身份證號碼 without brackets",
         f"身份證號碼 {v.replace('(', '').replace(')', '')}", v.replace("(", "").replace(")", ""))
    v = g.se_pnr(f"{n(95, 99)}{n(1, 12):02d}{n(10, 28)}")
    case("resident_id", "note", "a Swedish personnummer with the century", f"Personnummer: 19{v}", f"19{v}")
    v = g.no_fnr(f"{n(10, 28)}{n(1, 12):02d}{n(95, 99)}")
    case("resident_id", "note", "a Norwegian fødselsnummer in 6+5", f"Fødselsnr. {v[:6]} {v[6:]}", f"{v[:6]} {v[6:]}")
    v = g.it_cf(f"{tok(3, 'BCDFGLMNPRSTVZ')}{tok(3, 'BCDFGLMNPRSTVZ')}{n(95, 99)}{R.choice('ABCDEHLMPRST')}{n(41, 71)}{R.choice('FHL')}{n(100, 999)}")
    case("resident_id", "yaml", "an Italian codice fiscale in YAML", f"iscrizione:\n  nome: Luca\n  cf: {v}\n", v)
    v = g.fr_nir(R.choice("12"), f"{n(95, 99)}", f"{n(1, 12):02d}", f"{n(1, 95):02d}")
    case("resident_id", "note", "a French NIR (numéro de sécu)", f"N° de sécu : {v}", v)
    v = g.tr_tckn()
    case("resident_id", "note", "a Turkish TC kimlik without a label word in a sentence",
         f"Yurt başvurusu için kimlik numaram {v}, doğum yılı 2001", v)


def build_passwords() -> None:  # noqa: PLR0915 - one list of cases
    p = pw()
    case("password", "txt", "a bare OpenVPN auth-user-pass file (two lines)", f"lihua2023\n{p}\n", p)
    p = pw()
    case("password", "note", "a Wi-Fi QR payload", f"宿舍 Wi-Fi 二维码内容：WIFI:T:WPA;S:Dorm-5G-{n(1, 9)};P:{p};;", p)
    p = pw()
    case("password", "txt", "a .pgpass line", f"db.lab.local:5432:thesis:lihua:{p}\n", p)
    p = pw()
    case("password", "note", "smbclient -U user%password",
         f"挂载共享盘：smbclient //nas/share -U 'lihua%{p}'", p)
    p = pw()
    case("password", "note", "sshpass -p before ssh", f"sshpass -p '{p}' ssh student@10.0.3.7", p)
    p = pw().replace("'", "")
    case("password", "note", "mysql -p glued to its value", f"mysql -h 127.0.0.1 -uroot -p{p} thesis < dump.sql", p)
    p = pw()
    case("password", "note", "echo a password into sudo -S", f"echo '{p}' | sudo -S apt-get update", p)
    p = pw()
    case("password", "note", "PowerShell ConvertTo-SecureString -AsPlainText",
         f"$sec = ConvertTo-SecureString '{p}' -AsPlainText -Force", p)
    p = pw()
    case("password", "note", "net use with a positional password",
         f"net use Z: \\\\fileserver\\course {p} /user:SCHOOL\\lihua", p)
    p = pw()
    case("password", "note", "redis-cli -a", f"redis-cli -h 10.0.0.5 -a {p} ping", p)
    p = pw()
    case("password", "note", "curl -u user:password", f"curl -u lihua:{p} https://nas.local/api/files", p)
    p = pw()
    case("password", "txt", "a wpa_supplicant network block", f'network={{\n    ssid="HomeNet"\n    psk="{p}"\n}}\n', p)
    p = pw()
    case("password", "txt", "a .netrc entry", f"machine ftp.lab.edu\n  login lihua\n  password {p}\n", p)
    p = pw()
    case("password", "note", "a Chinese sentence saying the new password", f"邮箱新密码改成了 {p} 别忘了", p)
    p = pw()
    case("password", "note", "a Japanese 'パスワードは…です'", f"学内 Wi-Fi のパスワードは {p} です", p)
    p = pw()
    case("password", "note", "a Korean 비번", f"넷플릭스 비번 {p}", p)
    p = pw()
    case("password", "note", "a Russian 'пароль от почты —'", f"пароль от почты — {p}", p)
    p = pw()
    case("password", "note", "a German 'Kennwort lautet'", f"Das Kennwort für den Drucker lautet {p}", p)
    p = pw()
    case("password", "note", "a French 'mdp :'", f"mdp : {p} (compte ENT)", p)
    p = pw()
    case("password", "note", "a Spanish 'la contraseña del wifi es'", f"la contraseña del wifi es {p}", p)
    p = pw()
    case("password", "note", "htpasswd -b with positional password", f"htpasswd -b /etc/nginx/.htpasswd lihua {p}", p)
    p = pw()
    case("password", "note", "keytool -storepass", f"keytool -list -keystore app.jks -storepass {p}", p)
    p = pw()
    case("password", "note", "openssl -passout pass:", f"openssl pkcs12 -export -in c.pem -out c.p12 -passout pass:{p}", p)
    p = pw()
    case("password", "py", "an expect-style send of a password in a Python pexpect script",
         f'child.expect("Password:")\nchild.sendline("{p}")\n', p)
    p = pw()
    case("password", "note", "Bitwarden unlock with the master password positional", f"bw unlock '{p}' --raw", p)


def build_keys() -> None:
    t = f"{n(100000000, 9999999999)}:AA{tok(33, B62 + '-_')}"
    case("api_key", "note", "a Telegram bot token in a URL path",
         f"curl https://api.telegram.org/bot{t}/getUpdates", t)
    t = tok(22, B62)
    case("api_key", "note", "a Bark push key in a URL path", f"提醒自己：https://api.day.app/{t}/作业截止/明天交", t)
    t = "SCT" + str(n(100000, 999999)) + "T" + tok(30, B62)
    case("api_key", "note", "a ServerChan SendKey as the path's file name", f"curl https://sctapi.ftqq.com/{t}.send?title=done", t)
    t = g.uuid4()
    case("api_key", "note", "a Feishu bot webhook's token in the path",
         f"群机器人：https://open.feishu.cn/open-apis/bot/v2/hook/{t}", t)
    t = g.uuid4()
    case("api_key", "note", "a WeCom bot webhook key in the query",
         f"企业微信机器人 https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key={t}", t)
    t = tok(68, B62 + "-_")
    case("api_key", "note", "a Discord webhook token in the path",
         f"https://discord.com/api/webhooks/{n(10**17, 10**18)}/{t}", t)
    t = tok(40, HEX)
    case("api_key", "note", "a key as the positional argument of a CLI's auth subcommand", f"snyk auth {g.uuid4()}\nthen: mycli auth {t}", t)
    t = "eyJ" + tok(120, B62)
    case("api_key", "note", "a cloudflared tunnel token as a positional argument", f"sudo cloudflared service install {t}", t)
    a, s = tok(20, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"), tok(40, B62)
    case("api_key", "note", "MinIO client alias set with access and secret keys positional",
         f"mc alias set lab http://10.0.0.8:9000 {a} {s}", a, s)
    s = tok(40, B62 + "/+")
    case("api_key", "note", "rclone config create with key/value pairs positional",
         f"rclone config create oss s3 provider Alibaba access_key_id LTAI{tok(20, B62)} secret_access_key {s}", s)
    t = tok(32, HEX) + "." + tok(16, B62)
    case("api_key", "note", "a Zhipu key (id.secret) in a Jupyter %env magic", f"%env ZHIPUAI_API_KEY={t}", t)
    t = tok(32, HEX)
    case("api_key", "note", "a key in a PHP define()", f"<?php define('WEATHER_KEY', '{t}');", t)
    t = tok(32, HEX)
    case("api_key", "note", "a key in an Excel WEBSERVICE formula's query",
         f'=WEBSERVICE("https://restapi.amap.com/v3/weather/weatherInfo?city=110101&key={t}")', t)
    t = tok(36, LOWN)
    case("api_key", "note", "npm config set of a registry auth token",
         f"npm config set //npm.lab.internal/:_authToken {t}", t)
    t = tok(32, B62)
    case("api_key", "note", "a token in an R Sys.setenv call", f'Sys.setenv(TUSHARE_TOKEN = "{t}")', t)
    t = tok(32, HEX)
    case("api_key", "txt", "a key in a URL path in an access log line",
         f'10.0.0.4 - - [02/Dec/2026:10:12:01 +0800] "GET /forecast/{t}/39.90,116.40?units=si HTTP/1.1" 200 5120\n', t)


def build_negatives() -> None:  # noqa: PLR0915 - one list of texts
    # -- values their publishers print for everyone (exact strings; where each comes from is in the shape)
    neg("Google reCAPTCHA v2 test keys (reCAPTCHA FAQ) in a .env",
        "RECAPTCHA_SITE_KEY=6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI\n"
        "RECAPTCHA_SECRET_KEY=6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe\n")
    neg("Cloudflare Turnstile's always-passes secret (Turnstile testing docs)",
        "本地跑的时候 TURNSTILE_SECRET_KEY 填 1x0000000000000000000000000000000AA，线上换成控制台里的")
    neg("Hardhat's account #0 private key, printed by every `npx hardhat node`",
        "部署脚本报错，先用本地链：PRIVATE_KEY=0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80 npx hardhat run scripts/deploy.js --network localhost")
    neg("Hardhat/Anvil's default mnemonic in a config",
        'networks:\n  localhost:\n    url: http://127.0.0.1:8545\n    accounts:\n      mnemonic: "test test test test test test test test test test test junk"\n')
    neg("Mailgun's documented sample key in its curl line",
        "curl -s --user 'api:key-3ax6xnjp29jd6fds4gc373sgvjxteol0' https://api.mailgun.net/v3/samples.mailgun.org/messages -F to=me@samples.mailgun.org")
    neg("the postgres image's Docker Hub run line",
        "docker run --name some-postgres -e POSTGRES_PASSWORD=mysecretpassword -d postgres")
    neg("the mysql image's Docker Hub run line",
        "启动数据库：docker run --name some-mysql -e MYSQL_ROOT_PASSWORD=my-secret-pw -d mysql:8.0")
    neg("MinIO's default root credentials",
        "MINIO_ROOT_USER=minioadmin\nMINIO_ROOT_PASSWORD=minioadmin\n")
    neg("the Azure Cosmos DB emulator's well-known key",
        "CosmosClient(\"https://localhost:8081\", \"C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==\")")
    neg("AWS documentation's second access key pair",
        "[profile lab]\naws_access_key_id = AKIAI44QH8DHBEXAMPLE\naws_secret_access_key = je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY\n")
    neg("RFC 7519's example JWT, pasted into a decoding exercise",
        "Decode this: eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
    neg("RFC 6749's token response",
        '{\n  "access_token":"2YotnFZFEjr1zCsicMWpAA",\n  "token_type":"example",\n  "expires_in":3600,\n  "refresh_token":"tGzv3JOkF0XG5Qx2TlKWIA"\n}')
    neg("RFC 6749's client authentication header",
        "OAuth 笔记：客户端认证\nAuthorization: Basic czZCaGRSa3F0MzpnWDFmQmF0M2JW\n然后 grant_type=authorization_code&code=SplxlOBeZQQYbYS6WxSbIA")
    neg("RFC 6750's bearer token", "GET /resource HTTP/1.1\nHost: server.example.com\nAuthorization: Bearer mF_9.B5f-4.1JqM")
    neg("RFC 7617's Aladdin credentials", "Basic 认证就是 base64(user:pass)，比如 Authorization: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
    neg("MongoDB manual's connection string",
        "mongodb://myDBReader:D1fficultP%40ssw0rd@mongodb0.example.com:27017/?authSource=admin")
    neg("RabbitMQ's default guest account", "本地 RabbitMQ：amqp://guest:guest@localhost:5672/ 默认就能连")
    neg("redis.conf's commented requirepass", "# requirepass foobared\n# 把上面这行取消注释就开启了密码")
    neg("Kubernetes docs' Secret (admin / 1f2d1e2e67df)",
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: mysecret\ntype: Opaque\ndata:\n  username: YWRtaW4=\n  password: MWYyZDFlMmU2N2Rm\n")
    neg("Stripe's 4242 card in a payment-form walkthrough (no word for a test)",
        "结账页面卡号填 4242 4242 4242 4242，有效期随便填一个将来的日期，CVC 填 123 就能走通流程")
    neg("the UK IBAN Registry entry explained (no word for an example)",
        "英国 IBAN 的结构：GB29 NWBK 6016 1331 9268 19，其中 NWBK 是银行代码，601613 是 sort code")
    neg("GB 11643's ID worked as a check-digit exercise",
        "校验码练手：11010519491231002X 前 17 位加权求和后对 11 取模，余数 2 对应 X")
    neg("Twilio's magic test number", "短信接口调通用 +15005550006 当 From 号码，不会真的发出去")
    neg("Erika Mustermann's specimen ID card number", "Muster-Personalausweis: ERIKA MUSTERMANN, Ausweisnummer T22000129")
    neg("Ofcom's drama mobile range", "In the radio play the detective rings 07700 900461 and nobody answers.")
    neg("a US 555-01xx number in a dialogue", "A: What's the number for the pizza place? B: It's 555-0143.")
    neg("ACMA's fictional mobile range", "剧本里女主角的手机号写成 0491 570 156，澳洲规定影视作品用这一段")
    neg("ORCID's documented example iD", "ORCID iD 的格式：0000-0002-1825-0097（Josiah Carberry）")
    # -- words, instructions and word lists about passwords
    neg("a gettext catalogue of login strings",
        'msgid "Enter your password"\nmsgstr "请输入密码"\n\nmsgid "Forgot password?"\nmsgstr "忘记密码？"\n')
    neg("a Qt translation entry", "<message><source>Password:</source><translation>密码：</translation></message>")
    neg("an HTML login form", '<label for="pw">Password</label>\n<input type="password" id="pw" name="password" placeholder="Password">')
    neg("a password policy", "密码要求：长度至少 8 位，必须包含大小写字母、数字和特殊字符，90 天更换一次")
    neg("an English-Chinese vocabulary list around logging in",
        "password n. 密码\nusername n. 用户名\nlog in v. 登录\nsign up v. 注册\nverification code 验证码\n")
    neg("a German flashcard deck", "das Passwort – password\ndas Kennwort – password (formal)\nder Benutzername – user name\n")
    neg("a Japanese vocabulary note", "パスワード（password）= 密码\nパスワードを入力してください = 请输入密码")
    neg("a list of the most common leaked passwords in a security lesson",
        "最常见的弱口令：123456、password、qwerty、Password123、iloveyou —— 这些在任何字典攻击里几秒就被试出来")
    neg("a masked password field", "Username: lihua\nPassword: ********\nRemember me: yes")
    neg("a placeholder in angle brackets", "mysql -u root -p<your-password>  # 把尖括号换成你自己的")
    neg("a variable reference", 'DB_PASSWORD: "${DB_PASSWORD}"\nDB_USER: "${DB_USER}"')
    neg("a password read from the environment", "password = os.environ['DB_PASSWORD']\nuser = os.environ.get('DB_USER', 'postgres')")
    neg("nsswitch.conf", "passwd:         files systemd\ngroup:          files systemd\nshadow:         files\n")
    neg("an /etc/passwd line", "lihua:x:1000:1000:Li Hua,,,:/home/lihua:/bin/bash")
    neg("a quiz about sharing passwords", "Q: 下面哪种做法是安全的？ A. 把密码写在便利贴上 B. 用密码管理器 C. 所有网站用同一个密码")
    neg("git's credential prompt", "Password for 'https://lihua@github.com': 这里要填 token 而不是登录密码")
    neg("a username with nothing secret", "username=lihua\nemail_notifications=true\ntheme=dark")
    neg("libpq keywords without a password", "psql \"host=localhost port=5432 dbname=thesis user=postgres\"")
    neg("a login-shell flag", "sudo -iu postgres psql  # 切到 postgres 用户")
    # -- placeholders in docs
    neg("a bearer placeholder", "curl -H 'Authorization: Bearer <YOUR_TOKEN>' https://api.example.com/v1/me")
    neg("YOUR_API_KEY in a query string", "https://api.openweathermap.org/data/2.5/weather?q=Beijing&appid=YOUR_API_KEY")
    neg("a masked key", "OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")
    neg("a GitHub Actions secret reference", "env:\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}\n  API_KEY: ${{ secrets.API_KEY }}\n")
    neg("a key read from a password manager", "export DEEPSEEK_API_KEY=$(pass show api/deepseek)")
    neg("a Postman variable", "x-api-key: {{apiKey}}\nAuthorization: Bearer {{accessToken}}")
    # -- shapes like addresses that are not anyone's home
    neg("a journal citation", "Zhang, L. (2021). Memory and spacing. Journal of Learning, Vol. 12, No. 3, pp. 45–67.")
    neg("a Bible reference and a road name", "John 3:16 is on a billboard along Route 66 near Amarillo.")
    neg("an exam room", "期末考试地点：逸夫楼 305 教室，座位号 27")
    neg("a textbook unit", "第 5 单元 第 3 课 课文背诵，第 12 页到第 15 页")
    neg("a museum's address in encyclopedia prose", "故宫博物院位于北京市东城区景山前街4号，是在明清两代皇宫的基础上建立起来的。")
    neg("a historic house in prose", "In 1905 Einstein lived at Kramgasse 49 in Bern, where the flat is now a museum.")
    neg("a street with a year", "Rue de Rivoli 1802 年在拿破仑时期开始修建，全长约 3 公里。")
    neg("a historical military unit", "Unit 731 was a covert biological and chemical warfare research unit.")
    neg("a fictional address", "福尔摩斯住在贝克街 221B 号（221B Baker Street），这个门牌在当年并不存在。")
    neg("an address format lesson with placeholders", "English addresses go small to large: [house number] [street name], [city], [state] [ZIP code].")
    neg("a lab on a campus", "实验在 B 座 3 楼 312 实验室，周三下午 2 点")
    neg("a famous crossing", "銀座4丁目の交差点は日本で最も地価が高い場所として知られている。")
    # -- numbers that look like cards, phones, IDs and plates
    neg("the speed of light in spaced groups", "光速 c = 299 792 458 m/s，是国际单位制定义的常数")
    neg("π in groups of five", "π ≈ 3.14159 26535 89793 23846 26433 83279")
    neg("an order number that passes Luhn but is no card's", f"订单号 {luhn_complete('2026120' + digits(8))}，预计周五送达")
    neg("service numbers", "报警 110，火警 119，急救 120，政务热线 12345，中国移动客服 10086")
    neg("a company's free-dial number", "お問い合わせ：フリーダイヤル 0120-444-444（平日 9:00〜17:00）")
    neg("a toll-free support line", "Apple Support in the US: 1-800-275-2273")
    neg("model numbers", "显卡 RTX 4090，机型 A380 和 B737 MAX，标准 ISO 9001 与 GB 18030")
    neg("astronomy designations", "SN 1987A in the Large Magellanic Cloud; NGC 4414; HD 209458 b; PSR B1919+21")
    neg("a train and stock codes", "坐 G1234 次列车去上海，顺便看了 600519.SH 和 00700.HK 的行情")
    neg("a library call number and ISBN", "索书号 TP312.8/123，ISBN 978-7-115-42802-8")
    neg("a DOI and arXiv id", "doi:10.1038/nature14539, arXiv:2301.12345v2")
    neg("a CAS number and a formula", "水的 CAS 号是 7732-18-5，硫酸 H2SO4 的 CAS 号 7664-93-9")
    neg("a timestamp and a version", "2026-12-07 18:30:45.123 INFO started v3.12.1 build 20261207")


def build() -> None:
    build_addresses()
    build_cards()
    build_mobiles()
    build_plates()
    build_ids()
    build_passwords()
    build_keys()
    build_negatives()


def print_cases() -> None:
    counts: dict[str, int] = {}
    for c in CASES:
        counts[c[0]] = counts.get(c[0], 0) + 1
    print('r"""Held-out batch 18: adversarial cases by family, written before the detectors were changed.\n')
    print("Written in session 18 by the gate engineer from the families the last sealed batch (heldout16) missed")
    print("most: addresses of many countries and scripts (structure only: street types, house numbers, units and")
    print("floors, postcodes; most with no word for an address), bank cards of many networks and IBANs of many")
    print("countries, mobiles of twenty countries, licence plates of twenty, national IDs of thirty with their")
    print("checks, passwords outside key=value (files, command lines, sentences in eight languages), tokens in URL")
    print("paths and keys given positionally to CLIs. Generated by benchmarks/gate_corpus/gen18.py (seed 1818)")
    print("before any detector changed; ID numbers pass their checks; no value belongs to anyone.")
    print(f"{len(CASES)} cases: " + ", ".join(f"{k} {v}" for k, v in counts.items()) + ".")
    print("FIRST_RUN (filled in by hand after the first run)\n")
    print("Shapes, one per case (category: shape):")
    print("\n".join(f"{c[0]}: {c[4]}" for c in CASES))
    print('"""\n\nfrom benchmarks.gate_corpus import Case\n\nCASES: list[Case] = [')
    for i, (cat, cont, text, secrets, _shape) in enumerate(CASES, start=1):
        print(f"    Case({f'h18-{i:03d}'!r}, {cat!r}, {cont!r},\n         {text!r},\n         {secrets!r}),")
    print("]")


def print_negatives() -> None:
    print('"""Hard negatives written with ``heldout18`` (session 18), before the detectors were changed.\n')
    print(f"Study and developer text that holds no one's secret: {len(NEGS)} texts. Values their publishers print for")
    print("everyone (test keys of CAPTCHA services, local blockchains' default accounts, Docker Hub's run lines,")
    print("RFC examples, emulator keys, specimen documents, fictional phone ranges), mostly with no word for an")
    print("example near them; instructions, UI strings and word lists about passwords; placeholders; shapes like")
    print("addresses that are nobody's home (citations, rooms, museums, history); numbers like cards, phones, IDs")
    print("and plates. Generated by benchmarks/gate_corpus/gen18.py (seed 1818).")
    print("FIRST_RUN (filled in by hand after the first run)\n")
    print("Shapes, one per text:")
    print("\n".join(f"- {s}" for s, _t in NEGS))
    print('"""\n\nNEGATIVES: list[str] = [')
    for _s, t in NEGS:
        print(f"    {t!r},")
    print("]")


if __name__ == "__main__":
    build()
    print_negatives() if sys.argv[1:] == ["negatives"] else print_cases()
