"""Writes heldout21/negatives20 (read while the session-19 rules were written) and heldout22/negatives21 (kept unread).

    .venv/bin/python benchmarks/gate_corpus/gen21.py cases21 > benchmarks/gate_corpus/heldout21.py
    .venv/bin/python benchmarks/gate_corpus/gen21.py negatives21 > benchmarks/gate_corpus/negatives20.py
    .venv/bin/python benchmarks/gate_corpus/gen21.py cases22 > benchmarks/gate_corpus/heldout22.py
    .venv/bin/python benchmarks/gate_corpus/gen21.py negatives22 > benchmarks/gate_corpus/negatives21.py

Both batches were generated in session 19 before any detector changed, from the families the sealed
heldout17 missed most (national and resident IDs with their check digits, licence plates written in
Latin letters or other scripts, addresses by their structure, mobiles inside payment handles and deep
links, keys inside encodings, dumps and tools' output, passwords given to tools) and the false alarms
its negatives raised (hex runs and GUIDs, IBAN examples, words of scripts with combining marks, signed
numbers, published example values, reserved example domains). Batch 21 (seed 2121) was read while the
rules were written; batch 22 (seed 2222: other countries, tools and scripts of the same families) was
measured only once the rules were done. ID numbers pass their national checks; keys are random in
their services' shapes; no value belongs to anyone; published values are the exact strings their
publishers print, with the source named in each shape.
"""

from __future__ import annotations

import base64
import binascii
import quopri
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.gate_corpus import gen15 as g  # noqa: E402
from benchmarks.gate_corpus import gen18 as h  # noqa: E402

R = random.Random(2121)
B62, HEX, LOWN = g.B62, g.HEX, g.LOWN
UP = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
CASES: list[tuple[str, str, str, tuple[str, ...], str]] = []
NEGS: list[tuple[str, str]] = []


def seed(value: int) -> None:
    global R
    R = random.Random(value)
    g.R = h.R = R
    CASES.clear()
    NEGS.clear()


def tok(k: int, alphabet: str = B62) -> str:
    return "".join(R.choice(alphabet) for _ in range(k))


def digits(k: int) -> str:
    return "".join(R.choice("0123456789") for _ in range(k))


def n(lo: int, hi: int) -> int:
    return R.randint(lo, hi)


def pw() -> str:
    return h.pw()


def case(category: str, container: str, shape: str, text: str, *secrets: str) -> None:
    for s in secrets:
        assert s in text, (shape, s)
    CASES.append((category, container, text, secrets, shape))


def neg(shape: str, text: str) -> None:
    NEGS.append((shape, text))


# ---- national checks not in gen15/gen18 -----------------------------------------------------------

def ean13_check(body12: str) -> str:
    s = sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(body12))
    return str((10 - s % 10) % 10)


def ch_ahv() -> str:
    body = "756" + digits(9)
    v = body + ean13_check(body)
    return f"{v[:3]}.{v[3:7]}.{v[7:11]}.{v[11:]}"


def at_svnr(ddmmyy: str) -> str:
    while True:
        serial = str(n(1, 9)) + digits(2)
        w = [3, 7, 9, 5, 8, 4, 2, 1, 6]
        c = sum(int(a) * b for a, b in zip(serial + ddmmyy, w, strict=False)) % 11
        if c < 10:
            return f"{serial}{c} {ddmmyy}"


def de_steuer_id() -> str:
    while True:
        ds = [n(1, 9)] + [n(0, 9) for _ in range(9)]
        counts = sorted((ds.count(d) for d in set(ds)), reverse=True)
        if counts[0] != 2 or counts[1] != 1:
            continue
        product = 10
        for d in ds:
            s = (d + product) % 10 or 10
            product = s * 2 % 11
        c = 11 - product
        c = 0 if c == 10 else c
        v = "".join(map(str, ds)) + str(c)
        return f"{v[:2]} {v[2:5]} {v[5:8]} {v[8:]}"


def nhs_number() -> str:
    while True:
        body = digits(9)
        c = 11 - sum(int(a) * w for a, w in zip(body, range(10, 1, -1), strict=False)) % 11
        if c == 10:
            continue
        c = 0 if c == 11 else c
        v = body + str(c)
        return f"{v[:3]} {v[3:6]} {v[6:]}"


def is_kennitala(ddmmyy: str) -> str:
    while True:
        body = ddmmyy + str(n(2, 9)) + digits(1)
        c = 11 - sum(int(a) * w for a, w in zip(body, [3, 2, 7, 6, 5, 4, 3, 2], strict=False)) % 11
        if c == 10:
            continue
        c = 0 if c == 11 else c
        return f"{body[:6]}-{body[6:]}{c}9"


def jmbg(ddmmyyy: str, region: str) -> str:
    while True:
        body = ddmmyyy + region + digits(3)
        c = 11 - sum(int(a) * w for a, w in zip(body, [7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2], strict=False)) % 11
        if c == 10:
            continue
        return body + str(0 if c == 11 else c)


def hu_taj() -> str:
    body = digits(8)
    c = sum(int(a) * (3 if i % 2 == 0 else 7) for i, a in enumerate(body)) % 10
    v = body + str(c)
    return f"{v[:3]} {v[3:6]} {v[6:]}"


def lv_pk(ddmmyy: str) -> str:
    while True:
        body = ddmmyy + R.choice("12") + digits(4)
        c = (1101 - sum(int(a) * w for a, w in zip(body, [1, 6, 3, 7, 9, 10, 5, 8, 4, 2], strict=False))) % 11
        if c < 10:
            return f"{body[:6]}-{body[6:]}{c}"


_VD = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
       [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
       [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
       [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]]
_VP = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
       [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
       [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8]]
_VINV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]


def verhoeff_check(body: str) -> str:
    c = 0
    for i, d in enumerate(reversed(body)):
        c = _VD[c][_VP[(i + 1) % 8][int(d)]]
    return str(_VINV[c])


def lu_matricule(yyyymmdd: str) -> str:
    body = yyyymmdd + digits(3)
    return g.luhn_complete(body) + verhoeff_check(body)


def es_nss() -> str:
    body = f"{n(1, 52):02d}" + digits(8)
    return f"{body[:2]}/{body[2:]}/{int(body) % 97:02d}"


def de_rvnr(ddmmyy: str, letter: str) -> str:
    area = R.choice(["12", "13", "24", "28", "40", "53", "65"])
    serial = f"{n(0, 49):02d}"
    body = area + ddmmyy + f"{UP.index(letter) + 1:02d}" + serial
    w = [2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1]
    s = sum(sum(map(int, str(int(a) * b))) for a, b in zip(body, w, strict=False))
    return f"{area} {ddmmyy} {letter} {serial}{s % 10}"


def us_mbi() -> str:
    a = "ACDEFGHJKMNPQRTUVWXY"
    an = a + "0123456789"
    v = f"{n(1, 9)}{R.choice(a)}{R.choice(an)}{n(0, 9)}{R.choice(a)}{R.choice(an)}{n(0, 9)}{R.choice(a)}{R.choice(a)}{n(0, 9)}{n(0, 9)}"
    return f"{v[:4]}-{v[4:7]}-{v[7:]}"


def br_cns() -> str:
    while True:
        body = R.choice("789") + digits(13)
        s = sum(int(a) * (15 - i) for i, a in enumerate(body))
        c = (11 - s % 11) % 11
        if c < 10:
            v = body + str(c)
            return f"{v[:3]} {v[3:7]} {v[7:11]} {v[11:]}"


def uy_ci() -> str:
    body = str(n(1, 6)) + digits(6)
    c = (10 - sum(int(a) * w for a, w in zip(body, [2, 9, 8, 7, 6, 3, 4], strict=False)) % 10) % 10
    return f"{body[0]}.{body[1:4]}.{body[4:]}-{c}"


def sk_rc(yymmdd: str) -> str:
    return h.cz_rc(yymmdd)


def md_idnp() -> str:
    body = "2" + digits(11)
    c = sum(int(a) * (7, 3, 1)[i % 3] for i, a in enumerate(body)) % 10
    return body + str(c)


def kw_civil(yymmdd: str) -> str:
    while True:
        body = R.choice("23") + yymmdd + digits(4)
        c = 11 - sum(int(a) * w for a, w in zip(body, [2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2], strict=False)) % 11
        if c < 10:
            return body + str(c)


def do_cedula() -> str:
    v = g.luhn_complete("0" + digits(9))
    return f"{v[:3]}-{v[3:10]}-{v[10]}"


def tw_arc_new() -> str:
    letters = "ABCDEFGHJKLMNPQRSTUVXYWZIO"
    first = R.choice("ABFC")
    code = letters.index(first) + 10
    body = "8" + digits(7)
    s = code // 10 + (code % 10) * 9 + sum(int(c) * w for c, w in zip(body, [8, 7, 6, 5, 4, 3, 2, 1], strict=False))
    return f"{first}{body}{(10 - s % 10) % 10}"


def lk_nic_new(year: int) -> str:
    return f"{year}{n(1, 366) + R.choice([0, 500]):03d}{digits(4)}{n(0, 9)}"


def iban(country: str, bban: str) -> str:
    return g.iban(country, bban)


def iban_ok(v: str) -> bool:
    s = v[4:] + v[:4]
    return int("".join(str(int(c, 36)) for c in s)) % 97 == 1


# ---- key shapes -------------------------------------------------------------------------------------

def service_key() -> str:
    return R.choice([
        lambda: "sk-" + tok(32, HEX),
        lambda: "sk-proj-" + tok(48, B62 + "-_"),
        lambda: "ghp_" + tok(36, B62),
        lambda: "glpat-" + tok(20, B62 + "-_"),
        lambda: "AIza" + tok(35, B62 + "-_"),
        lambda: "hf_" + tok(34, B62),
        lambda: "xoxb-" + digits(12) + "-" + digits(13) + "-" + tok(24, B62),
    ])()


def octal_escaped(s: str) -> str:
    return "".join(f"\\{ord(c):03o}" for c in s)


def hexdump_c(data: bytes, base: int = 0) -> str:
    lines = []
    for i in range(0, len(data), 16):
        chunk = data[i:i + 16]
        hx = " ".join(f"{b:02x}" for b in chunk[:8]) + "  " + " ".join(f"{b:02x}" for b in chunk[8:])
        asc = "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
        lines.append(f"{base + i:08x}  {hx:<48}  |{asc}|")
    return "\n".join(lines)


def xxd(data: bytes) -> str:
    lines = []
    for i in range(0, len(data), 16):
        chunk = data[i:i + 16]
        hx = " ".join(chunk[j:j + 2].hex() for j in range(0, len(chunk), 2))
        asc = "".join(chr(b) if 32 <= b < 127 else "." for b in chunk)
        lines.append(f"{i:08x}: {hx:<40}  {asc}")
    return "\n".join(lines)


def uuencoded(data: bytes) -> str:
    return "".join(binascii.b2a_uu(data[i:i + 45]).decode() for i in range(0, len(data), 45)).rstrip("\n")


# ============================== batch 21 ===========================================================

def b21_ids() -> None:  # noqa: PLR0915 - one list of cases
    yy, mm, dd = n(80, 99), n(1, 12), n(10, 28)
    v = ch_ahv()
    case("resident_id", "note", "a Swiss AHV number 756.xxxx.xxxx.xx (EAN-13 check)", f"AHV-Nr. für die Anmeldung: {v}", v)
    v = at_svnr(f"{dd:02d}{mm:02d}{yy}")
    case("resident_id", "note", "an Austrian social insurance number with its check digit", f"SV-Nummer {v} (e-card)", v)
    v = de_steuer_id()
    case("resident_id", "note", "a German Steuer-ID in groups (ISO 7064 check)", f"Meine Steuer-ID lautet {v}, bitte ans Studentenwerk", v)
    v = nhs_number()
    case("resident_id", "note", "a UK NHS number in 3-3-4 (mod 11)", f"GP registration done, NHS no {v}", v)
    v = is_kennitala(f"{dd:02d}{mm:02d}{yy}")
    case("resident_id", "note", "an Icelandic kennitala", f"Kennitala: {v}", v)
    v = jmbg(f"{dd:02d}{mm:02d}9{yy}", "50")
    case("resident_id", "note", "a Slovenian EMŠO", f"EMŠO {v} — za vpis na fakulteto", v)
    v = hu_taj()
    case("resident_id", "note", "a Hungarian TAJ number", f"TAJ szám: {v}", v)
    v = lv_pk(f"{dd:02d}{mm:02d}{yy}")
    case("resident_id", "note", "a Latvian personas kods (old form, with check)", f"Personas kods {v}", v)
    v = lu_matricule(f"19{yy}{mm:02d}{dd:02d}")
    case("resident_id", "note", "a Luxembourg matricule (Luhn + Verhoeff)", f"Numéro d'identification national : {v}", v)
    v = es_nss()
    case("resident_id", "note", "a Spanish NSS with slashes (mod 97)", f"Nº afiliación Seguridad Social {v}", v)
    v = de_rvnr(f"{dd:02d}{mm:02d}{yy}", R.choice("MSKW"))
    case("resident_id", "note", "a German Rentenversicherungsnummer", f"Rentenversicherungsnummer: {v}", v)
    v = us_mbi()
    case("resident_id", "note", "a US Medicare MBI", f"Grandma's Medicare card: MBI {v}", v)
    v = f"{R.choice('АБВГДЕЖЗИКЛМНОПРСТУФХЦЧШЭЮЯ')}{R.choice('АБВГДЕЖЗИКЛМНОПРСТУФХЦЧШЭЮЯ')}{yy}{mm:02d}{dd:02d}{digits(2)}"
    case("resident_id", "note", "a Mongolian register number (two Cyrillic letters + 8 digits)", f"Регистрийн дугаар: {v}", v)
    v = br_cns()
    case("resident_id", "note", "a Brazilian CNS (Cartão SUS)", f"Cartão SUS {v}", v)
    v = g.cn_id("110108", f"19{yy}{mm:02d}{dd:02d}")
    v = v[:-1] + "x" if v.endswith("X") else v
    case("resident_id", "note", "a Chinese ID written with a lower-case x or in 6-8-4 groups",
         f"报名表身份证号填的是 {v[:6]} {v[6:14]} {v[14:]}", f"{v[:6]} {v[6:14]} {v[14:]}")
    v = uy_ci()
    case("resident_id", "note", "a Uruguayan cédula with its check digit", f"Cédula de identidad {v}", v)
    v = f"{tok(3, UP)}P{R.choice(UP)}{digits(4)}{R.choice(UP)}"
    case("resident_id", "note", "an Indian PAN", f"PAN card no. {v} (for the scholarship)", v)
    v = f"{n(2, 3)}{yy}{mm:02d}{dd:02d}{n(1, 35):02d}{digits(4)}{n(1, 9)}"[:14]
    case("resident_id", "note", "an Egyptian national ID in Eastern Arabic digits",
         "الرقم القومي: " + v.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")),
         v.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")))
    v = g.luhn_complete("2" + digits(8))
    case("resident_id", "note", "a Saudi iqama number", f"رقم الإقامة {v}", v)
    v = f"9{digits(2)}-{n(70, 88)}-{digits(4)}"
    case("resident_id", "note", "a US ITIN", f"ITIN {v} on the 1040-NR", v)
    v = f"GHA-{digits(9)}-{n(0, 9)}"
    case("resident_id", "note", "a Ghana Card PIN", f"Ghana card: {v}", v)
    v = digits(11)
    case("resident_id", "note", "a Nigerian NIN after its acronym", f"My NIN is {v}, for the JAMB form", v)
    v = g.kr_rrn(f"{yy}{mm:02d}{dd:02d}", R.choice("12"))
    case("resident_id", "md", "a Korean RRN in a table column headed in Korean",
         f"| 이름 | 주민등록번호 |\n|---|---|\n| 김민준 | {v} |\n", v)
    v = g.sg_nric()
    case("resident_id", "json", "a Singapore NRIC in JSON under a field named for it",
         f'{{"name": "Tan Wei", "nric": "{v}", "course": "CS1010"}}', v)


def b21_plates() -> None:
    p = f"Yue B {tok(1, 'ACDFGH')}{digits(4)}"
    case("licence_plate", "note", "a Chinese plate with the province in pinyin", f"Car plate: {p}, parked at the east gate", p)
    p = f"粵B {digits(5)}"
    case("licence_plate", "note", "a Chinese plate with a Traditional province character", f"車牌 {p} 停喺地庫", p)
    p = f"Jing A·{tok(5, 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789')}"
    case("licence_plate", "note", "a Beijing plate in pinyin with the middle dot", f"My landlord's car is {p}", p)
    p = f"Shinagawa {n(300, 599)} {R.choice(['sa', 'ta', 'ha', 'ma'])} {n(10, 99)}-{n(10, 99)}"
    case("licence_plate", "note", "a Japanese plate in romaji", f"Rental car: {p} (white Prius)", p)
    p = f"{n(10, 99)}{R.choice(['Ga', 'Na', 'Da', 'Ra'])} {digits(4)}"
    case("licence_plate", "note", "a Korean plate romanised", f"My car number is {p}, please register it", p)
    p = f"{tok(2, 'ABCDEFGHJKLMNPRSTUVWXYZ')} {digits(4)}"
    case("licence_plate", "note", "a Hong Kong plate under 車牌", f"車牌 {p}，月租車位 B12", p)
    p = f"M{R.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}-{digits(2)}-{digits(2)}"
    case("licence_plate", "note", "a Macau plate", f"澳門車牌 {p}", p)
    p = f"{tok(3, 'ABCDEFGHJKLMNPRSTUVWXYZ')}-{digits(3)}"
    case("licence_plate", "note", "a Finnish plate after rekisterinumero", f"Rekisterinumero {p}", p)
    p = f"{tok(2, 'ABCDEFGHJKLMNPRSTUVWXYZ')} {digits(2)} {digits(3)}"
    case("licence_plate", "note", "a Danish plate", f"Nummerplade: {p} — lejet bil", p)
    p = f"{tok(2, 'ABCDEFGHJKLMNPRSTUVWXYZ')}-{digits(2)}-{tok(2, 'ABCDEFGHJKLMNPRSTUVWXYZ')}"
    case("licence_plate", "note", "a Portuguese plate", f"Matrícula do carro: {p}", p)
    p = f"{R.choice('ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ')}{R.choice('ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ')}{R.choice('ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ')}-{digits(4)}"
    case("licence_plate", "note", "a Greek plate in Greek capitals", f"Πινακίδα: {p}", p)
    p = f"{digits(2)}-{digits(3)}-{digits(2)}"
    case("licence_plate", "note", "an Israeli plate", f"מספר רכב {p}", p)
    p = f"{tok(2, 'ABCDEFGHJKLMNPRSTUVWXYZ')} {digits(3)} {tok(2, 'ABCDEFGHJKLMNPRSTUVWXYZ')}"
    case("licence_plate", "note", "an Argentine Mercosur plate", f"Patente {p}, auto gris", p)
    p = f"K{tok(2, 'ABCDEFGHJKLMNPRSTUVWXYZ')} {digits(3)}{R.choice(UP)}"
    case("licence_plate", "note", "a Kenyan plate", f"Car reg {p} — matatu stage pickup", p)
    p = f"{tok(3, 'ABCDEFGHJKLMNPRSTUVWXYZ')} {digits(3)} GP"
    case("licence_plate", "note", "a South African Gauteng plate", f"my bakkie is {p}", p)
    p = f"{tok(4, 'ABCDEFGHJKLMNPRSTUVWXYZ')} {digits(3)}"
    case("licence_plate", "txt", "an Ontario plate in a parking permit file",
         f"Permit holder: student #{digits(6)}\nVehicle: Honda Civic\nPlate: {p}\nLot: P3\n", p)


def b21_addresses() -> None:  # noqa: PLR0915 - one list of cases
    pick = R.choice
    a = f"{n(2, 90)} {pick(['Hyndland Road', 'Dumbarton Road', 'Great Western Road'])}, Flat {n(0, 3)}/{n(1, 2)}"
    case("address", "note", "a Glasgow tenement flat 2/1 after the street", f"new flat: {a}, Glasgow G12", a)
    a = f"RR {n(1, 9)} Box {n(10, 999)}"
    case("address", "note", "a US rural route box", f"Mail it to {a}, Emporia KS 66801", a)
    a = f"H.No. {n(1, 12)}-{n(1, 9)}-{n(10, 400)}/{n(1, 99)}/{pick('ABC')}"
    case("address", "note", "a Hyderabad H.No. with slashes", f"Address: {a}, Banjara Hills, Hyderabad", a)
    a = f"No. {n(2, 60)} {pick(['Adeola', 'Awolowo', 'Allen'])} Street, off {pick(['Admiralty Way', 'Opebi Road', 'Ikorodu Road'])}"
    case("address", "note", "a Lagos address with 'off' another road", f"Deliver to {a}, Lekki", a)
    a = f"#{n(2, 200)}, St. {n(100, 599)}"
    case("address", "note", "a Phnom Penh # house on a numbered street", f"My guesthouse: {a}, Sangkat Boeung Keng Kang", a)
    a = f"{pick(['Nørrebrogade', 'Jagtvej', 'Istedgade'])} {n(2, 200)}, {n(1, 5)}. {pick(['tv.', 'th.', 'mf.'])}"
    case("address", "note", "a Copenhagen floor and side (3. tv.)", f"Min adresse: {a}, 2200 København N", a)
    a = f"{pick(['本町', '栄町', '中央'])}{pick(['一', '二', '三', '四', '五'])}丁目{pick(['三', '七', '十二'])}番{pick(['四', '八', '十五'])}号"
    case("address", "note", "a Japanese address in kanji numerals", f"新住所は名古屋市中区{a}です", a)
    lat, lon = f"{n(22, 40)}.{digits(5)}", f"{n(100, 121)}.{digits(5)}"
    case("address", "txt", "GPS coordinates of a home photo in EXIF output",
         f"File Name : IMG_{digits(4)}.HEIC\nMake : Apple\nGPS Latitude : {lat} N\nGPS Longitude : {lon} E\nGPS Altitude : 12 m\n",
         lat, lon)
    a = f"Flat No. {n(101, 904)}, {pick(['Sai Residency', 'Green Park Apartments', 'Lotus Towers'])}"
    case("address", "note", "an Indian flat number in a named building", f"Courier to {a}, Baner, Pune 411045", a)
    a = f"House # {n(2, 99)}, Street {n(1, 60)}, {pick(['F-7/2', 'G-9/3', 'I-8/4'])}"
    case("address", "note", "an Islamabad house/street/sector", f"Ghar ka pata: {a}, Islamabad", a)
    a = f"Villa {n(2, 80)}, Street {n(1, 40)}{pick('abc')}"
    case("address", "note", "a Dubai villa on a numbered street", f"We moved to {a}, Al Barsha 2", a)
    a = f"{n(101, 120)}동 {n(1, 25)}0{n(1, 4)}호"
    case("address", "note", "a Korean apartment dong/ho", f"우리 집 래미안아파트 {a}로 보내줘", a)
    a = f"{pick(['长乐', '愚园', '武康'])}路{n(10, 900)}弄{n(1, 60)}号{n(101, 604)}室"
    case("address", "note", "a Shanghai lane address 路弄号室", f"快递寄到{a}", a)
    a = f"{pick(['忠孝東路', '信義路', '和平東路'])}{pick(['二', '三', '四'])}段{n(10, 300)}巷{n(1, 30)}弄{n(1, 60)}號{n(2, 12)}樓"
    case("address", "note", "a Taipei 段巷弄號樓 address", f"寄件地址：台北市{a}", a)
    a = f"Flat {pick('ABCDEFGH')}, {n(2, 40)}/F, Block {n(1, 6)}"
    case("address", "note", "a Hong Kong flat/floor/block", f"Address: {a}, Taikoo Shing", a)
    a = f"Rua {pick(['Augusta', 'Haddock Lobo', 'Oscar Freire'])}, {n(10, 2000)}, apto {n(11, 184)}, bloco {pick('ABC')}"
    case("address", "note", "a Brazilian rua/apto/bloco", f"Meu endereço: {a}, São Paulo", a)
    a = f"Calle {pick(['Durango', 'Colima', 'Tonalá'])} #{n(10, 400)} Int. {n(1, 12)}, Col. {pick(['Roma Norte', 'Condesa', 'Juárez'])}"
    case("address", "note", "a Mexico City calle/Int./Col.", f"Mándalo a {a}", a)
    a = f"ул. {pick(['Ленина', 'Пушкина', 'Гагарина'])}, д. {n(1, 120)}, кв. {n(1, 300)}"
    case("address", "note", "a Russian ул./д./кв.", f"Мой адрес: {a}, Казань", a)
    a = f"{pick(['Vinohradská', 'Korunní', 'Slezská'])} {n(100, 2500)}/{n(1, 150)}"
    case("address", "note", "a Czech conscription/house number", f"Bydlím na adrese {a}, Praha 2", a)
    a = f"{pick(['Favoritenstraße', 'Mariahilfer Straße', 'Landstraßer Hauptstraße'])} {n(2, 200)}/{n(1, 9)}/{n(1, 30)}"
    case("address", "note", "a Vienna street/stair/door", f"Meine Adresse: {a}, 1100 Wien", a)
    a = f"Via {pick(['Garibaldi', 'Mazzini', 'Cavour'])} {n(2, 150)}, scala {pick('ABC')}, int. {n(1, 30)}"
    case("address", "note", "an Italian via/scala/interno", f"Abito in {a}, Torino", a)
    a = f"C/ {pick(['Mayor', 'Alcalá', 'Princesa'])}, {n(2, 200)}, {n(1, 9)}º {pick(['izq.', 'dcha.', 'B'])}"
    case("address", "note", "a Spanish C/ number and floor", f"Vivo en {a}, Madrid", a)
    a = f"{pick(['Atatürk', 'Cumhuriyet', 'İnönü'])} Mah. {pick(['Gül', 'Lale', 'Papatya'])} Sok. No: {n(1, 90)} D: {n(1, 30)}"
    case("address", "note", "a Turkish Mah./Sok./No/D", f"Adresim: {a}, Kadıköy/İstanbul", a)
    a = f"{n(10, 999)}/{n(1, 99)} หมู่ {n(1, 12)} ซอย{pick(['สุขุมวิท 71', 'ลาดพร้าว 101', 'รามคำแหง 24'])}"
    case("address", "note", "a Thai house/moo/soi", f"ที่อยู่ {a} กรุงเทพฯ", a)
    a = f"Jl. {pick(['Kemang Raya', 'Tebet Barat', 'Cempaka Putih'])} No. {n(1, 120)} RT {n(1, 15):02d}/RW {n(1, 12):02d}"
    case("address", "note", "an Indonesian Jl./No./RT/RW", f"Alamat rumah: {a}, Jakarta Selatan", a)
    a = f"Số {n(2, 90)} ngõ {n(10, 300)} ngách {n(1, 90)}"
    case("address", "note", "a Hanoi số/ngõ/ngách", f"Nhà mình ở {a} Nguyễn Trãi", a)
    a = f"Unit {n(1, 30)}/{n(2, 200)} {pick(['Glebe Point Rd', 'Bourke St', 'Anzac Pde'])}"
    case("address", "note", "an Australian unit/number", f"Shipping to {a}, NSW 2037", a)
    a = f"{pick(['D02', 'D06', 'T12', 'H91'])} {tok(4, 'ACDEFHKNPRTVWXY0123456789')}"
    case("address", "note", "an Irish Eircode alone", f"my eircode is {a}, for the delivery", a)
    a = f"{n(10, 99)} {pick(['bis', 'ter'])} rue {pick(['Oberkampf', 'de la Roquette', 'des Martyrs'])}, bât. {pick('ABC')}, esc. {n(1, 4)}"
    case("address", "md", "a French bis/bât./esc. address in Markdown", f"## Déménagement\n\nNouvelle adresse : {a}, 75011 Paris.\n", a)
    a = f"///{pick(['filled', 'index', 'sulk'])}.{pick(['count', 'home', 'raft'])}.{pick(['soap', 'lamp', 'crown'])}"
    case("address", "note", "a what3words address for home", f"our front door is {a}", a)


def b21_mobiles() -> None:
    m = f"07{n(0, 9)}{digits(7)}"
    case("mobile", "note", "a Swish payee mobile", f"Swisha till {m[:3]}-{m[3:6]} {m[6:8]} {m[8:]} för hyran",
         f"{m[:3]}-{m[3:6]} {m[6:8]} {m[8:]}")
    m = f"%2B3519{digits(8)}"
    case("mobile", "note", "a Viber deep link with an encoded +", f"viber://chat?number={m}", m)
    m = h.cn_mobile()
    em = "️⃣".join(m[:3]) + "️⃣ " + "️⃣".join(m[3:7]) + "️⃣ " + "️⃣".join(m[7:]) + "️⃣"
    case("mobile", "note", "a Chinese mobile written with keycap emoji", f"加我：{em}", em)
    m = h.cn_mobile()
    case("mobile", "note", "an Alipay account that is a mobile", f"支付宝账号 {m[:3]}****{m[7:]}（全号 {m}）转我就行", m)
    m = f"+2348{R.choice('01')}{digits(8)}"
    case("mobile", "note", "a wa.me link", f"Chat me: https://wa.me/{m[1:]}", m[1:])
    m = f"9{n(6, 9)}{digits(8)}"
    case("mobile", "note", "a UPI id made of a mobile", f"GPay me at {m}@ybl", m)
    m = f"6{n(0, 9)}{digits(7)}"
    case("mobile", "note", "a Bizum mobile", f"Hazme un Bizum al {m[:3]} {m[3:6]} {m[6:]}", f"{m[:3]} {m[3:6]} {m[6:]}")
    m = f"9{n(1, 6)}{digits(7)}"
    case("mobile", "note", "an MB WAY mobile", f"MB WAY para o {m}", m)
    m = f"{n(4, 9)}{digits(7)}"
    case("mobile", "note", "a Vipps number", f"Vipps meg på {m[:3]} {m[3:5]} {m[5:]}", f"{m[:3]} {m[3:5]} {m[5:]}")
    m = h.cn_mobile()
    zh = m.translate(str.maketrans("0123456789", "零一二三四五六七八九"))
    case("mobile", "note", "a Chinese mobile in Han numerals", f"我的手机是{zh}", zh)
    m = f"+81 90-{digits(4)}-{digits(4)}"
    case("mobile", "note", "a tel: link with a Japanese mobile", f'<a href="tel:{m.replace(" ", "")}">電話</a>', m.replace(" ", ""))
    m = f"+65 {R.choice('89')}{digits(3)} {digits(4)}"
    case("mobile", "note", "a PayNow mobile", f"PayNow to {m} (Wei Ling)", m)
    m = f"01{n(0, 9)}{digits(8)}"
    case("mobile", "note", "a Korean mobile in a KakaoPay line", f"카카오페이 송금 {m[:3]}-{m[3:7]}-{m[7:]}", f"{m[:3]}-{m[3:7]}-{m[7:]}")
    m = f"+49 15{n(1, 9)} {digits(8)}"
    case("mobile", "json", "a mobile under a German JSON field", f'{{"name": "Jonas", "handynummer": "{m}"}}', m)


def b21_passwords() -> None:  # noqa: PLR0915 - one list of cases
    p = pw()
    case("password", "txt", "an OpenVPN config with inline credentials", f"client\nremote vpn.school.edu 1194\nauth-user-pass\n<auth-user-pass>\nlihua\n{p}\n</auth-user-pass>\n", p)
    p = pw()
    case("password", "note", "smbclient -U user%password unquoted", f"smbclient -L //192.168.1.10 -U lihua%{p}", p)
    p = pw()
    case("password", "note", "net use with password before /user", f"net use S: \\\\nas\\study {p} /user:lihua /persistent:yes", p)
    p = pw()
    case("password", "note", "mount -t cifs -o username=,password=", f"sudo mount -t cifs //nas/share /mnt/s -o username=lihua,password={p},uid=1000", p)
    p = pw()
    case("password", "note", "nmcli wifi connect with password", f"nmcli dev wifi connect Dorm-5G password '{p}'", p)
    p = pw()
    case("password", "txt", "netsh wlan show profile key=clear output",
         f"Security settings\n-----------------\n    Authentication         : WPA2-Personal\n    Key Content            : {p}\n", p)
    p = pw()
    case("password", "note", "sqlcmd -P", f"sqlcmd -S localhost -U sa -P {p} -Q \"SELECT 1\"", p)
    p = pw()
    case("password", "note", "docker login -p", f"docker login registry.lab.cn -u lihua -p {p}", p)
    p = pw()
    case("password", "note", "ldapsearch -w", f"ldapsearch -x -D cn=admin,dc=lab,dc=cn -w {p} -b dc=lab,dc=cn", p)
    p = pw()
    case("password", "note", "wget --password", f"wget --user=lihua --password={p} ftp://ftp.lab.cn/data.zip", p)
    p = pw()
    case("password", "note", "chpasswd fed user:pass", f"echo 'student01:{p}' | sudo chpasswd", p)
    p = pw()
    case("password", "txt", "a Cisco username line with a plaintext password", f"hostname lab-sw1\nusername admin privilege 15 password 0 {p}\n", p)
    p = pw()
    case("password", "note", "a JDBC URL with password=", f"jdbc:mysql://10.0.0.3:3306/thesis?user=root&password={p}&useSSL=false", p)
    p = pw()
    case("password", "note", "git clone with user:pass in the URL", f"git clone https://lihua:{p}@git.lab.cn/group/thesis.git", p)
    p = pw()
    case("password", "note", "an Italian 'la password è'", f"la password del wifi è {p}", p)
    p = pw()
    case("password", "note", "a Portuguese 'a senha é'", f"a senha do e-mail é {p}", p)
    p = pw()
    case("password", "note", "a Turkish 'şifre:'", f"modem şifresi: {p}", p)
    p = pw()
    case("password", "note", "an Indonesian 'kata sandi'", f"kata sandi wifi kos: {p}", p)
    p = pw()
    case("password", "note", "a Vietnamese 'mật khẩu'", f"mật khẩu wifi là {p}", p)
    p = pw()
    case("password", "note", "a Thai 'รหัสผ่าน'", f"รหัสผ่านไวไฟ {p}", p)
    p = pw()
    case("password", "note", "an Arabic 'كلمة السر'", f"كلمة السر للواي فاي: {p}", p)
    p = pw()
    case("password", "md", "a Markdown table of accounts with a 密码 column",
         f"| 网站 | 账号 | 密码 |\n|---|---|---|\n| 知网 | lihua2023 | {p} |\n", p)
    p = pw()
    case("password", "note", "a PPPoE broadband account and password", f"宽带账号 0755{digits(8)} 宽带密码 {p}", p)
    p = pw()
    case("password", "note", "a ZIP password in a chat note", f"资料包发你邮箱了，解压码 {p}", p)
    p = pw()
    case("password", "note", "schtasks /RP", f"schtasks /create /tn backup /tr C:\\b.bat /sc daily /ru lab\\admin /rp {p}", p)


def b21_keys() -> None:  # noqa: PLR0915 - one list of cases
    k = service_key()
    enc = uuencoded(f"OPENAI_API_KEY={k}\n".encode())
    case("api_key", "txt", "a uuencoded .env", f"begin 644 .env\n{enc}\n`\nend\n", enc)
    k = "sk-" + tok(32, HEX)
    esc = octal_escaped(k)
    case("api_key", "note", "a key as a bash ANSI-C octal string", f"export DEEPSEEK_API_KEY=$'{esc}'", esc)
    k = "sk-" + tok(48, B62)
    case("api_key", "txt", "a key in strace write() output",
         f'write(3, "POST /v1/chat/completions HTTP/1.1\\r\\nHost: api.moonshot.cn\\r\\nAuthorization: Bearer {k}\\r\\nContent-Type: application/json\\r\\n"..., 187) = 187\n', k)
    k = tok(40, B62)
    case("api_key", "txt", "a key in `strings core` output (environment of a crashed process)",
         f"GLIBC_2.34\n__libc_start_main\nHOME=/home/lihua\nLANG=zh_CN.UTF-8\nQWEN_API_KEY={k}\nPATH=/usr/bin:/bin\n_ZN4core3fmt5write17h\n", k)
    k = "sk-" + tok(32, HEX)
    a, b = k[:18], k[18:]
    case("api_key", "txt", "a key split over two CSV cells", f"service,key_part1,key_part2\ndeepseek,{a},{b}\n", a, b)
    k = "ghp_" + tok(36, B62)
    dump = hexdump_c(f"token={k}\n".encode())
    case("api_key", "txt", "a token in hexdump -C output", f"$ hexdump -C ~/.config/gh/t.txt\n{dump}\n",
         *[part for ln in dump.split("\n") for part in (ln[10:58].rstrip(), ln[61:-1])])
    k = "hf_" + tok(34, B62)
    dump = xxd(f"HF_TOKEN={k}".encode())
    case("api_key", "txt", "a token in xxd output", f"$ xxd .hf_token\n{dump}\n",
         *[part for ln in dump.split("\n") for part in (ln[10:50].rstrip(), ln[52:])])
    k = "sk-" + tok(32, HEX)
    u = "".join(f"%{ord(c):02X}" for c in k)
    case("api_key", "note", "a key fully percent-encoded in a URL", f"https://proxy.lab.cn/relay?k={u}&m=chat", u)
    k = "sk-proj-" + tok(64, B62)
    qp = quopri.encodestring(f"Hi Li Hua, your new API key for the course sandbox is: {k} (keep it private)".encode()).decode()
    case("api_key", "txt", "a key cut by a quoted-printable soft line break in a saved e-mail",
         f"Subject: Your API key\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n{qp}\n",
         *[part for part in qp.replace("=\n", "\n").split() if any(c.isdigit() for c in part) and len(part) > 8])
    k = "AIza" + tok(35, B62 + "-_")
    case("api_key", "txt", "a key in a JSON string with \\u escapes",
         '{"config": {"maps_key": "' + "".join(f"\\u{ord(c):04x}" for c in k) + '"}}',
         "".join(f"\\u{ord(c):04x}" for c in k))
    k = tok(32, HEX)
    case("api_key", "txt", "a key in curl -v output", f"* Connected to api.lab.cn (10.0.0.2) port 443\n> GET /v2/data HTTP/2\n> Host: api.lab.cn\n> X-Api-Key: {k}\n> User-Agent: curl/8.5.0\n", k)
    k = tok(40, B62)
    case("api_key", "txt", "a token in ps aux output", f"lihua  2231  0.3  1.2 812344 50112 ?  Sl  10:02  0:04 /usr/bin/python3 bot.py --token {k} --verbose\n", k)
    k = "xoxb-" + digits(12) + "-" + digits(13) + "-" + tok(24, B62)
    environ = f"HOME=/root^@LANG=C.UTF-8^@SLACK_BOT_TOKEN={k}^@PATH=/usr/bin^@"
    case("api_key", "txt", "a token in /proc/PID/environ shown with ^@", f"$ cat -v /proc/2231/environ\n{environ}\n", k)
    k = tok(32, B62)
    case("api_key", "txt", "a key in a numbered shell history", f"  501  cd thesis\n  502  export TUSHARE_TOKEN={k}\n  503  python fetch.py\n", k)
    k = "sk-" + tok(32, HEX)
    case("api_key", "txt", "a key on a + line of git log -p", f"commit {tok(40, HEX)}\n\ndiff --git a/.env b/.env\n@@ -1,2 +1,2 @@\n-API_KEY=\n+API_KEY={k}\n", k)
    k = tok(32, B62)
    b = base64.b64encode(k.encode()).decode()
    case("api_key", "yaml", "a key in kubectl get secret -o yaml (base64 data)",
         f"apiVersion: v1\ndata:\n  api-key: {b}\nkind: Secret\nmetadata:\n  name: llm\n", b)
    k = "sk-" + tok(32, HEX)
    case("api_key", "json", "a key in docker inspect's Env array",
         f'"Config": {{\n  "Env": [\n    "PATH=/usr/local/bin",\n    "DASHSCOPE_API_KEY={k}"\n  ]\n}}', k)
    k = tok(32, HEX)
    case("api_key", "note", "a key as the positional argument of a CLI", f"weather-cli {k} --city Beijing", k)
    k = tok(24, B62)
    case("api_key", "note", "a token in a URL path segment", f"https://hooks.lab.cn/services/push/{k}/notify", k)
    k = "sk-" + tok(32, HEX)
    case("api_key", "txt", "a key in a Python traceback's locals",
         f"Traceback (most recent call last):\n  File \"bot.py\", line 12, in <module>\n    client = OpenAI(api_key=api_key)\n    api_key = '{k}'\nopenai.AuthenticationError: 401\n", k)
    k = tok(40, B62)
    b32 = base64.b32encode(f"token:{k}".encode()).decode()
    case("api_key", "note", "a token in Base32 after a decode hint", f"base32 -d <<< {b32}", b32)
    k = "sk-" + tok(32, HEX)
    rot = k.translate(str.maketrans("abcdefghijklmnopqrstuvwxyz", "nopqrstuvwxyzabcdefghijklm"))
    case("api_key", "note", "a key hidden with ROT13 in a tr command", f"echo '{rot}' | tr 'a-z' 'n-za-m'", rot)
    k = tok(32, HEX)
    case("api_key", "txt", "a key in a HAR request header",
         f'{{"request": {{"method": "GET", "url": "https://api.lab.cn/v1", "headers": [{{"name": "apikey", "value": "{k}"}}]}}}}', k)
    k = "sk-" + tok(32, HEX)
    case("api_key", "note", "a key in a Python bytes repr with \\x escapes",
         "payload = b'" + "".join(f"\\x{ord(c):02x}" for c in k) + "'", "".join(f"\\x{ord(c):02x}" for c in k))


def b21_negatives() -> None:  # noqa: PLR0915 - one list of texts
    # hex runs and GUIDs that are nobody's key
    neg("a commit SHA in prose", "这个 bug 在 commit 3f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39 里修好了，cherry-pick 到 release 分支即可")
    neg("a Visual Studio solution's project GUIDs",
        'Project("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "Thesis", "Thesis\\Thesis.csproj", "{6E2F1B3A-9C4D-4E8F-A1B2-C3D4E5F60718}"\nEndProject')
    neg("a COM CLSID in a registry lesson", "HKEY_CLASSES_ROOT\\CLSID\\{20D04FE0-3AEA-1069-A2D8-08002B30309D} 就是“此电脑”图标")
    neg("docker image IDs in docker images output",
        "REPOSITORY   TAG       IMAGE ID       CREATED\npostgres     16        4e9a1c7f2b3d   2 weeks ago\nredis        7         9b2d8e4a6c1f   3 weeks ago")
    neg("a download page's SHA-256 checksums",
        "python-3.12.1-amd64.exe  SHA256: 7d1bd5bd8a5e2b8fd1e5a9b0d1c6b2f8a4e3f7c9d2b1a0e8f6c4d3b2a1f0e9d8\nRelease notes: bug fixes")
    neg("an npm lockfile integrity", '"integrity": "sha512-Lwc6nA8Ul6cK3dLwBvIeJ2SUjYdp1k0d7n7Xp3mWAPrx0HqQYHgrSrlUy6Na1Ox3DyBHVg/u6YLSfdnYdtYYSQ=="')
    neg("an SRI hash in a script tag", '<script src="https://cdn.jsdelivr.net/npm/vue@3.4.0/dist/vue.global.js" integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC" crossorigin="anonymous"></script>')
    neg("a public Ethereum contract address", "USDT 在以太坊上的合约地址是 0xdAC17F958D2ee523a2206206994597C13D831ec7，转账前核对一下")
    neg("a torrent info hash", "magnet:?xt=urn:btih:08ada5a7a6183aae1e09d831df6748d566095a10&dn=Sintel")
    neg("a Nix store path", "/nix/store/9krlzvny65gdc8s7kpb6lkx8cd02c25b-hello-2.12.1/bin/hello")
    neg("a UUID in an Android manifest", '<meta-data android:name="com.google.android.geo.API_VERSION" android:value="2" />\n<service android:name=".Sync" android:process=":sync" /> <!-- 0f8fad5b-d9cb-469f-a165-70867728950e is the test-plan id -->')
    neg("a PGP key fingerprint named as one", "Release signing key fingerprint: 7169 6050 5B8E 0A09 D53F  8B8E 3B10 EE49 2B95 D6F1")
    neg("a color palette in hex", "主题色：#1E88E5 #43A047 #FDD835 #E53935 #8E24AA #00ACC1")
    neg("a MAC address in a lab sheet", "实验机网卡 MAC：3c:22:fb:9a:10:4e，IP 用 DHCP")
    # IBANs published as examples (IBAN registry / national banks), with and without a word for an example
    for text in ["德国 IBAN 由 22 位组成，例如 DE89 3704 0044 0532 0130 00，前两位是国家代码",
                 "Format: FR14 2004 1010 0505 0001 3M02 606 (27 caractères)",
                 "IBAN ES91 2100 0418 4502 0005 1332 — estructura: país, control, entidad, oficina, DC, cuenta",
                 "Een Nederlands IBAN ziet er zo uit: NL91 ABNA 0417 1643 00",
                 "CH93 0076 2011 6238 5295 7 ist die Beispiel-IBAN im Merkblatt",
                 "IT60 X054 2811 1010 0000 0123 456: CIN X, ABI 05428, CAB 11101"]:
        assert all(iban_ok(v.replace(" ", "")) for v in re.findall(r"\b[A-Z]{2}\d\d(?: ?[A-Z0-9]{1,4})+", text)), text
        neg("an IBAN published as the format's example", text)
    # words of scripts with combining marks; signed and versioned numbers
    neg("a Telugu vocabulary line", "పాస్‌వర్డ్ (password) — సంకేతపదం అని కూడా అంటారు")
    neg("a Hindi vocabulary line", "पासवर्ड = password; कूटशब्द भी कहते हैं")
    neg("a Tamil vocabulary line", "கடவுச்சொல் (password) என்பது ரகசிய சொல்")
    neg("a Thai word list", "รหัสผ่าน = password, ชื่อผู้ใช้ = username")
    neg("a Burmese word", "စကားဝှက် (password) ကို ဘယ်သူ့ကိုမှ မပြောပါနဲ့")
    neg("a Khmer word", "ពាក្យសម្ងាត់ (password) ត្រូវតែវែង")
    neg("signed and versioned numbers", "需要 Python 3.10+，CUDA ≥ 11.8，GPA 3.7/4.0，涨幅 +2.47%，版本 v2.47+build.5")
    neg("a grade scale", "成绩换算：A+ 4.0，A 4.0，A- 3.7，B+ 3.3，B 3.0，password 不需要")
    neg("chemistry charges", "Fe3+ 和 Fe2+ 的区别；Cu2+ + 2e- → Cu；pH 7.4±0.05")
    # published example values
    neg("the Woolworth wallet-card SSN in a history lesson", "最有名的被滥用的社保号是 078-05-1120，当年印在钱包样卡上，四万多人拿它当自己的")
    neg("Truffle's development mnemonic", "truffle develop 启动后会打印 Mnemonic: candy maple cake sugar pudding cream honey rich smooth crumble sweet treat")
    neg("a BIP39 test vector phrase", "BIP39 test vector #1: abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about")
    neg("BIP39's all-zoo vector", "助记词校验练习：zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrong")
    neg("Stripe's documented test secret key", "Stripe 文档里的示例：stripe.api_key = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc'")
    neg("AWS's documented example access key", "aws configure 时文档示例填 AKIAIOSFODNN7EXAMPLE 和 wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
    neg("jwt.io's default token", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")
    neg("Sweden's test personnummer Tolvan", "Testpersonnummer 19121212-1212 (Tolvan Tolvansson) används i alla exempel")
    neg("Italy's Mario Rossi codice fiscale", "Esempio di codice fiscale: RSSMRA85T10A562S (Mario Rossi, Roma)")
    neg("the UK's QQ123456C NINO example", "National Insurance numbers look like QQ 12 34 56 C (HMRC's example prefix QQ)")
    neg("Visa's classic test card", "测试环境用 4111 1111 1111 1111，有效期随便填未来日期")
    neg("Amex's test card", "Amex test: 3782 822463 10005")
    # e-mail at reserved example domains (RFC 2606 / RFC 6761)
    neg("an e-mail at example.com in an exercise", "练习：给 alice@example.com 发一封邮件，抄送 bob@example.org")
    neg("an e-mail at a .test domain", "git config user.email ci-bot@build.test")
    neg("an e-mail at example.net in a form lesson", "Enter your address like this: john.smith@example.net")
    neg("an e-mail at a .invalid domain", "Reply-To: nobody@mailer.invalid")
    # places, numbers and plates that are nobody's
    neg("a landmark's coordinates in a geography lesson", "埃菲尔铁塔位于北纬 48.8584°、东经 2.2945°，高 330 米")
    neg("a famous embassy address", "The British Embassy in Beijing is at 11 Guanghua Road, Chaoyang District.")
    neg("flight and train numbers", "航班 CA1234 和 MU5101 都延误了，改坐 G102 次高铁")
    neg("car models", "丰田 GR86、日产 GT-R R35、宝马 M340i 和比亚迪 汉 EV")
    neg("chess moves", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7")
    neg("a subway line and exit", "坐 2 号线到 A1 出口，换 K12 路公交")
    neg("a hotline with a word for it", "Customer service hotline: 400-820-8820 (9:00-21:00)")
    neg("a maths sequence", "斐波那契数列：1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987")
    neg("a lottery draw", "本期开奖号码：05 12 19 23 28 31 + 07")
    neg("a UK postcode of a public building", "The British Museum, Great Russell St, London WC1B 3DG")
    neg("a kanji address of a public office", "東京都庁は新宿区西新宿二丁目8番1号にあります。")


# ============================== batch 22 (kept unread) ==============================================

def b22_ids() -> None:
    yy, mm, dd = n(80, 99), n(1, 12), n(10, 28)
    v = jmbg(f"{dd:02d}{mm:02d}9{yy}", "71")
    case("resident_id", "note", "a Serbian JMBG", f"JMBG: {v}", v)
    v = sk_rc(f"{yy}{mm + 50:02d}{dd:02d}")
    case("resident_id", "note", "a Slovak rodné číslo", f"Rodné číslo žiaka {v}", v)
    v = md_idnp()
    case("resident_id", "note", "a Moldovan IDNP", f"IDNP {v}", v)
    v = kw_civil(f"{yy}{mm:02d}{dd:02d}")
    case("resident_id", "note", "a Kuwaiti civil ID", f"الرقم المدني {v}", v)
    v = do_cedula()
    case("resident_id", "note", "a Dominican cédula", f"Cédula: {v}", v)
    v = tw_arc_new()
    case("resident_id", "note", "a Taiwan new-format ARC number", f"居留證統一證號 {v}", v)
    v = lk_nic_new(1900 + yy)
    case("resident_id", "note", "a Sri Lankan new NIC", f"NIC No: {v}", v)
    v = f"{digits(9)}V"
    case("resident_id", "note", "a Sri Lankan old NIC with V", f"ජා.හැ.අ. {v}", v)
    v = f"12/{R.choice(['OUKAMA', 'KAMATA', 'BAHANA'])}(N){digits(6)}"
    case("resident_id", "note", "a Myanmar NRC", f"NRC: {v}", v)
    v = f"{R.choice('IJK')}{digits(8)}{R.choice(UP)}"
    case("resident_id", "note", "an Albanian personal number", f"Numri personal: {v}", v)
    v = digits(11)
    case("resident_id", "note", "a Georgian personal number", f"პირადი ნომერი: {v}", v)
    v = f"{n(3, 6)}{dd:02d}{mm:02d}{yy}{digits(7)}"
    case("resident_id", "note", "an Uzbek PINFL", f"ЖШШИР (PINFL): {v}", v)
    v = f"V-{n(10, 30)}.{digits(3)}.{digits(3)}"
    case("resident_id", "note", "a Venezuelan cédula", f"C.I. {v}", v)
    v = g.luhn_complete("2" + digits(9))
    case("resident_id", "txt", "a Qatar ID in a form export", f"Name: Ahmed\nQID: {v}\nNationality: EG\n", v)
    v = g.cn_id("440106", f"19{yy}{mm:02d}{dd:02d}")
    case("resident_id", "note", "a Chinese ID split 6-4-4-4 with dashes", f"身份证：{v[:6]}-{v[6:10]}-{v[10:14]}-{v[14:]}",
         f"{v[:6]}-{v[6:10]}-{v[10:14]}-{v[14:]}")
    v = g.th_id()
    case("resident_id", "note", "a Thai ID in 1-4-5-2-1 groups", f"เลขบัตรประชาชน {v[0]}-{v[1:5]}-{v[5:10]}-{v[10:12]}-{v[12]}",
         f"{v[0]}-{v[1:5]}-{v[5:10]}-{v[10:12]}-{v[12]}")


def b22_plates() -> None:
    p = f"Hu A{digits(5)}"
    case("licence_plate", "note", "a Shanghai plate in pinyin", f"the car ({p}) is in lot 3", p)
    p = f"滬A·{digits(5)}"
    case("licence_plate", "note", "a Shanghai plate with a Traditional character", f"車牌 {p}", p)
    p = f"Osaka {n(300, 599)} {R.choice(['ri', 'wa', 'ru'])} {n(10, 99)}-{n(10, 99)}"
    case("licence_plate", "note", "an Osaka plate in romaji", f"Parking permit: {p}", p)
    p = f"{tok(3, 'ABCDEFGHJKLMNPRSTUVWXYZ')} {digits(3)}"
    case("licence_plate", "note", "a Norwegian-style plate after 'skilt'", f"Bilskilt {p}", p)
    p = f"{R.choice(UP)}{R.choice(UP)}-{digits(4)}-{R.choice(UP)}{R.choice(UP)}"
    case("licence_plate", "note", "an Ecuador-like plate", f"Placa: {p}", p)
    p = f"{tok(3, 'ABCDEFGHJKLMNPRSTUVWXYZ')}-{digits(4)}"
    case("licence_plate", "note", "a Philippine plate after 'plate no.'", f"plate no. {p}, silver Vios", p)
    p = f"{tok(2, 'ABCDEFGHJKLMNPRSTUVWXYZ')} {digits(4)} {tok(2, 'ABCDEFGHJKLMNPRSTUVWXYZ')}"
    case("licence_plate", "note", "an Indonesian plate with region and suffix", f"Plat nomor motor: {p}", p)
    p = f"{digits(3)}-{tok(3, 'ABCDEFGHJKLMNPRSTUVWXYZ')}"
    case("licence_plate", "note", "a Nigerian-like plate", f"car number {p}, Lagos", p)


def b22_addresses() -> None:
    pick = R.choice
    a = f"{pick(['Marchmont Road', 'Leith Walk'])} {n(2, 90)}, {n(1, 4)}F{n(1, 3)}"
    case("address", "note", "an Edinburgh 2F1 flat", f"I live at {a}, Edinburgh EH9", a)
    a = f"HC {n(60, 80)} Box {n(100, 999)}"
    case("address", "note", "a US highway contract route box", f"ship to {a}, Pahrump NV", a)
    a = f"D.No. {n(1, 40)}-{n(1, 90)}-{n(1, 30)}"
    case("address", "note", "an Andhra door number", f"Address: {a}, MVP Colony, Visakhapatnam", a)
    a = f"Plot {n(10, 900)}, {pick(['Kololo', 'Ntinda', 'Bugolobi'])}"
    case("address", "note", "a Kampala plot address", f"Our house is {a}, Kampala", a)
    a = f"{pick(['Vesterbrogade', 'Amagerbrogade'])} {n(2, 200)}, st. {pick(['tv.', 'th.'])}"
    case("address", "note", "a Danish ground-floor side", f"Adresse: {a}", a)
    a = f"{pick(['梅田', '難波'])}{pick(['二', '四', '六'])}丁目{pick(['五', '十一'])}番{pick(['三', '九'])}号 {pick(['ハイツ梅', 'コーポ緑'])}{n(1, 5)}0{n(1, 9)}号室"
    case("address", "note", "a kanji-numeral Japanese address with a room", f"送り先：大阪市北区{a}", a)
    a = f"{n(10, 60)}.{digits(6)}, {n(10, 120)}.{digits(6)}"
    case("address", "note", "home coordinates in a maps link", f"我家位置 https://maps.google.com/?q={a}", a)
    a = f"{pick(['淮海中', '南京西'])}路{n(10, 900)}弄{n(1, 60)}号{n(1, 30)}0{n(1, 4)}"
    case("address", "note", "a Shanghai lane address without 室", f"地址 {a}", a)
    a = f"{pick(['羅斯福路', '中山北路'])}{pick(['一', '二'])}段{n(10, 200)}巷{n(1, 60)}號{n(2, 9)}樓之{n(1, 5)}"
    case("address", "note", "a Taipei address with 樓之", f"地址：台北市{a}", a)
    a = f"{n(101, 115)}-{n(101, 2504)}"
    case("address", "note", "a Korean dong-ho written as numbers", f"배송지: 래미안 {a}", a)
    a = f"Av. {pick(['Corrientes', 'Santa Fe', 'Rivadavia'])} {n(1000, 5000)}, {n(1, 15)}° {pick('ABCD')}"
    case("address", "note", "a Buenos Aires Av. number and floor", f"Mi dirección: {a}, CABA", a)
    a = f"ul. {pick(['Długa', 'Mokotowska', 'Polna'])} {n(2, 90)} m. {n(1, 60)}"
    case("address", "note", "a Polish ul. with m.", f"Adres: {a}, Warszawa", a)
    a = f"{pick(['Kazım Karabekir', 'Bağdat'])} Cad. No:{n(1, 300)}/{n(1, 30)}"
    case("address", "note", "a Turkish Cad. No/flat", f"Ev adresi {a}, Ankara", a)
    a = f"No. {n(1, 90)}, Jalan {pick(['SS 2/24', 'USJ 9/5', 'PJU 1/3'])}"
    case("address", "note", "a Malaysian No./Jalan", f"Alamat: {a}, Petaling Jaya", a)


def b22_mobiles() -> None:
    m = f"+2547{digits(8)}"
    case("mobile", "note", "a tel: link with a Kenyan mobile", f"[call me](tel:{m})", m)
    m = h.cn_mobile()
    case("mobile", "note", "a Chinese mobile with dots", f"手机 {m[:3]}.{m[3:7]}.{m[7:]}", f"{m[:3]}.{m[3:7]}.{m[7:]}")
    m = f"4{digits(7)}"
    case("mobile", "note", "a MobilePay number", f"MobilePay til {m[:2]} {m[2:4]} {m[4:6]} {m[6:]}", f"{m[:2]} {m[2:4]} {m[4:6]} {m[6:]}")
    m = f"07{n(6, 9)} {digits(3)} {digits(2)} {digits(2)}"
    case("mobile", "note", "a TWINT mobile", f"TWINT an {m}", m)
    m = f"+7 9{digits(2)} {digits(3)}-{digits(2)}-{digits(2)}"
    case("mobile", "note", "a Russian mobile for SBP transfer", f"Перевод по СБП на {m}", m)
    m = f"https://t.me/+{digits(11)}"
    case("mobile", "note", "a Telegram link by phone number", f"Пишите: {m}", m[14:])
    m = h.cn_mobile()
    case("mobile", "note", "a Chinese mobile in full-width digits", "电话：" + m.translate(str.maketrans("0123456789", "０１２３４５６７８９")),
         m.translate(str.maketrans("0123456789", "０１２３４５６７８９")))
    m = f"09{digits(2)} {digits(3)} {digits(3)}"
    case("mobile", "note", "a Philippine GCash mobile", f"GCash: {m} (Maria)", m)


def b22_passwords() -> None:
    p = pw()
    case("password", "note", "rdesktop -p", f"rdesktop -u admin -p {p} 10.0.0.9", p)
    p = pw()
    case("password", "note", "xfreerdp /p:", f"xfreerdp /v:lab-pc /u:lihua /p:{p}", p)
    p = pw()
    case("password", "note", "mongosh -p", f"mongosh mongodb://10.0.0.4 -u admin -p {p} --authenticationDatabase admin", p)
    p = pw()
    case("password", "note", "a Polish 'hasło to'", f"hasło do wifi to {p}", p)
    p = pw()
    case("password", "note", "a Dutch 'wachtwoord is'", f"het wachtwoord is {p}", p)
    p = pw()
    case("password", "note", "a Hindi password sentence", f"वाईफाई का पासवर्ड {p} है", p)
    p = pw()
    case("password", "note", "a Chinese 登录口令", f"服务器登录口令 {p}", p)
    p = pw()
    case("password", "txt", "an rsync password file referenced then shown", f"$ cat /etc/rsync.pass\n{p}\n$ rsync --password-file=/etc/rsync.pass lihua@nas::backup .\n", p)
    p = pw()
    case("password", "note", "useradd -p with openssl passwd", f"sudo useradd -m -p $(openssl passwd -1 '{p}') student", p)
    p = pw()
    case("password", "note", "vault login userpass", f"vault login -method=userpass username=lihua password={p}", p)


def b22_keys() -> None:
    k = "sk-" + tok(48, B62)
    enc = uuencoded(f"MOONSHOT_API_KEY={k}\n".encode())
    case("api_key", "txt", "a uuencoded key file", f"begin 600 key\n{enc}\n`\nend\n", enc)
    k = "ghp_" + tok(36, B62)
    case("api_key", "note", "a token as a printf octal escape", f"printf '{octal_escaped(k)}' | gh auth login --with-token", octal_escaped(k))
    k = tok(32, HEX)
    case("api_key", "txt", "a key in ltrace output", f'getenv("WEATHER_KEY") = "{k}"\nstrlen("{k}") = 32\n', k)
    k = "sk-" + tok(32, HEX)
    dump = " ".join(f"{ord(c):02x}" for c in f"Bearer {k}")
    case("api_key", "txt", "a key as space-separated hex bytes in tcpdump -X", f"0x0040:  {dump}", dump)
    k = tok(40, B62)
    case("api_key", "txt", "a token in od -c output", "0000000   " + "   ".join(f"token={k}"[:16]) + "\n0000020   " + "   ".join(f"token={k}"[16:32]) + "\n0000040   " + "   ".join(f"token={k}"[32:]) + "\n",
         *["   ".join(f"token={k}"[i:i + 16]) for i in (0, 16, 32)])
    k = "glpat-" + tok(20, B62)
    case("api_key", "note", "a token in a gdb x/s output", f'(gdb) x/s $rdi\n0x7ffd2a10: "{k}"', k)
    k = tok(32, HEX)
    case("api_key", "txt", "a key split over two cells of a TSV", f"name\tkey_a\tkey_b\namap\t{k[:16]}\t{k[16:]}\n", k[:16], k[16:])
    k = tok(36, B62)
    case("api_key", "note", "a key positional to a CLI's config subcommand", f"tinypng-cli config set {k}", k)
    k = tok(32, B62)
    case("api_key", "note", "a token in a URL path after /bot", f"https://notify.lab.cn/bot/{k}/send?text=done", k)
    k = "sk-" + tok(32, HEX)
    case("api_key", "txt", "a key in journalctl output", f"Dec 07 10:02:11 lab python3[2231]: using key {k} for dashscope\n", k)


def b22_negatives() -> None:
    neg("git short SHAs in a changelog", "- fix crash on empty note (a1b2c3d)\n- speed up search (9f8e7d6c)\n- bump deps (4e5f6a7b8c9d)")
    neg("a GUID in a PowerShell lesson", "[guid]::NewGuid() 会生成类似 5d3e1c2b-8f4a-4b6d-9e0f-1a2b3c4d5e6f 的值，每次都不同")
    neg("Docker image digests", "FROM python:3.12-slim@sha256:2f3d4c5b6a7988e1d0c9b8a7f6e5d4c3b2a1908f7e6d5c4b3a2918f7e6d5c4b3")
    neg("an IBAN registry example for Poland", "Przykładowy IBAN: PL61 1090 1014 0000 0712 1981 2874")
    neg("an IBAN registry example for Belgium", "Exemple d'IBAN belge : BE68 5390 0754 7034")
    neg("an IBAN registry example for Austria", "AT61 1904 3002 3457 3201 ist ein Muster-IBAN")
    neg("a Bengali vocabulary line", "পাসওয়ার্ড (password) মানে গোপন শব্দ")
    neg("a Kannada vocabulary line", "ಪಾಸ್‌ವರ್ಡ್ (password) ಅಂದರೆ ಗುಪ್ತಪದ")
    neg("a Sinhala vocabulary line", "මුරපදය (password) කාටවත් කියන්න එපා")
    neg("versions with signs", "支持 Node 18+、Java 17+、iOS 15.4+，不支持 IE 11-")
    neg("temperatures and deltas", "气温 -3.5℃ ~ +4.2℃，ΔT = +7.7 K")
    neg("a BIP39 test vector with 'letter advice'", "Vector: letter advice cage absurd amount doctor acoustic avoid letter advice cage above")
    neg("Hardhat's default mnemonic", "mnemonic: test test test test test test test test test test test junk")
    neg("an e-mail at example.org in docs", "Set `MAIL_FROM=noreply@example.org` in development")
    neg("an e-mail at a .example domain", "user@company.example 只是文档占位")
    neg("Finland's official HETU example", "Henkilötunnuksen esimerkki: 131052-308T")
    neg("Mastercard test number", "Mastercard 测试卡 5555 5555 5555 4444")
    neg("a landmark in DMS", "自由女神像：40°41′21″N 74°2′40″W")
    neg("bus and highway numbers", "Take the M15 bus or drive I-95 to exit 13A")
    neg("a museum's address in Taipei", "國立故宮博物院位於台北市士林區至善路二段221號。")
    neg("a public hospital address in Korean", "서울대학교병원은 서울특별시 종로구 대학로 101에 있다.")
    neg("product codes", "型号 SM-G9910、A2848、XQ-BC72，编号 ISO/IEC 27001:2022")


def build(batch: str) -> None:
    if batch == "21":
        seed(2121)
        b21_ids()
        b21_plates()
        b21_addresses()
        b21_mobiles()
        b21_passwords()
        b21_keys()
        b21_negatives()
    else:
        seed(2222)
        b22_ids()
        b22_plates()
        b22_addresses()
        b22_mobiles()
        b22_passwords()
        b22_keys()
        b22_negatives()


_ABOUT = {
    "21": ("Held-out batch 21: adversarial cases by family, generated before the session-19 rules and read while they were written.",
           "seed 2121"),
    "22": ("Held-out batch 22: generated with heldout21 before any session-19 rule, and not read while the rules were written.",
           "seed 2222; other countries, tools and scripts of heldout21's families"),
}


def print_cases(batch: str) -> None:
    counts: dict[str, int] = {}
    for c in CASES:
        counts[c[0]] = counts.get(c[0], 0) + 1
    title, how = _ABOUT[batch]
    print(f'r"""{title}\n')
    print("Families the sealed heldout17 missed most (national IDs with their checks, plates in Latin letters or")
    print("other scripts, addresses by structure, mobiles in payment handles and links, keys in encodings, dumps and")
    print(f"tools' output, passwords given to tools); benchmarks/gate_corpus/gen21.py ({how}).")
    print(f"{len(CASES)} cases: " + ", ".join(f"{k} {v}" for k, v in counts.items()) + ".")
    print("FIRST_RUN (filled in by hand after the first run)\n")
    print("Shapes, one per case (category: shape):")
    print("\n".join(f"{c[0]}: {c[4]}" for c in CASES))
    print('"""\n\nfrom benchmarks.gate_corpus import Case\n\nCASES: list[Case] = [')
    for i, (cat, cont, text, secrets, _shape) in enumerate(CASES, start=1):
        print(f"    Case({f'h{batch}-{i:03d}'!r}, {cat!r}, {cont!r},\n         {text!r},\n         {secrets!r}),")
    print("]")


def print_negatives(batch: str) -> None:
    name = "heldout21" if batch == "21" else "heldout22"
    print(f'"""Hard negatives generated with ``{name}`` (session 19), before the detectors changed.\n')
    print(f"{len(NEGS)} texts that hold no one's secret: hex runs and GUIDs, IBANs published as examples, words of")
    print("scripts with combining marks, signed and versioned numbers, published example values, e-mail at reserved")
    print(f"example domains, public places and numbers. benchmarks/gate_corpus/gen21.py ({_ABOUT[batch][1]}).")
    print("FIRST_RUN (filled in by hand after the first run)\n")
    print("Shapes, one per text:")
    print("\n".join(f"- {s}" for s, _t in NEGS))
    print('"""\n\nNEGATIVES: list[str] = [')
    for _s, t in NEGS:
        print(f"    {t!r},")
    print("]")


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "cases21"
    build(what[-2:])
    print_negatives(what[-2:]) if what.startswith("negatives") else print_cases(what[-2:])
