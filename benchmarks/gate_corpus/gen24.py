"""Writes heldout24/negatives23 (read while the session-20 rules were written) and heldout25/negatives24 (kept unread).

    .venv/bin/python benchmarks/gate_corpus/gen24.py cases24 > benchmarks/gate_corpus/heldout24.py
    .venv/bin/python benchmarks/gate_corpus/gen24.py negatives24 > benchmarks/gate_corpus/negatives23.py
    .venv/bin/python benchmarks/gate_corpus/gen24.py cases25 > benchmarks/gate_corpus/heldout25.py
    .venv/bin/python benchmarks/gate_corpus/gen24.py negatives25 > benchmarks/gate_corpus/negatives24.py

Both batches were written in session 20 before any detector changed and before the detectors' code was
read, aimed at what the sealed heldout20 showed country-by-country rules do not carry: an identifier of a
country nobody wrote a rule for, named by a label in its own language or standing in a form row beside a
name and a birth date; a home address of a locale with no rule, known only by its parts (a number, a
street or district word, a unit or floor word, a postcode); a password known only by its role (the value
of a credential phrase in any language, bare in prose, spelled letter by letter, a char array); a plate
in a script of its own; an e-mail read aloud; a key with no prefix, named only by the words around it;
a recovery phrase typed with the keyboard in another layout. Batch 24 (seed 2424) was read while the
rules were written; batch 25 (seed 2525: other countries, languages and phrasings of the same families,
written in its own functions) was measured only once the rules were done. Values are random in the
shapes their issuers use (checks only where a country publishes one); no value belongs to anyone.
Negatives are study text built to share the structures: labelled numbers that are not personal (ISBNs,
articles of law, course and invoice numbers), public addresses, words for 'at' and 'dot' in prose
(골뱅이 is also a dish, собака a dog), spelled words in language lessons, char arrays of vowels, tables of
historical people with years, hashes named as checksums, real words of the other keyboard's language.
"""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.gate_corpus import gen15 as g  # noqa: E402
from desktop_kb.qa.detectors.bip39_words import ENGLISH  # noqa: E402

R = random.Random(2424)
B62, HEX = g.B62, g.HEX
UP = "ABCDEFGHJKLMNPRSTUVWXYZ"
CASES: list[tuple[str, str, str, tuple[str, ...], str]] = []
NEGS: list[tuple[str, str]] = []
WORDS = ENGLISH.split()


def seed(value: int) -> None:
    global R
    R = random.Random(value)
    g.R = R
    CASES.clear()
    NEGS.clear()


def tok(k: int, alphabet: str = B62) -> str:
    return "".join(R.choice(alphabet) for _ in range(k))


def digits(k: int) -> str:
    return str(R.randint(1, 9)) + "".join(R.choice("0123456789") for _ in range(k - 1))


def n(lo: int, hi: int) -> int:
    return R.randint(lo, hi)


def pick(options: list[str]) -> str:
    return R.choice(options)


def case(category: str, container: str, shape: str, text: str, *secrets: str) -> None:
    for s in secrets:
        assert s in text, (shape, s)
    CASES.append((category, container, text, secrets, shape))


def neg(shape: str, text: str) -> None:
    NEGS.append((shape, text))


def script_digits(s: str, zero: str) -> str:
    """Digits written in another script (zero: that script's 0, e.g. '०' Devanagari, '০' Bengali)."""
    base = ord(zero)
    return "".join(chr(base + int(c)) if c.isdigit() else c for c in s)


def full_width(s: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in s)


def password() -> str:
    """A password as people make them (other words than earlier batches: names, places, years, signs)."""
    words = ["girasol", "Kartal", "melati", "Zubr", "simba", "Lotus", "hoaSen", "Baobab", "nube", "Orchid",
             "kiwi", "Vesna", "Amani", "tulpan", "Cedro", "mawar"]
    return R.choice([
        lambda: R.choice(words) + str(n(1960, 2024)),
        lambda: R.choice(words).capitalize() + R.choice(["#", "@", "!", "-", "*"]) + str(n(10, 999)),
        lambda: R.choice(words) + R.choice(words).capitalize() + str(n(1, 99)) + R.choice("!?$"),
        lambda: tok(R.choice([9, 11, 13]), B62 + "!@#$%&*"),
    ])()


def mnemonic(words: int = 12) -> str:
    """A BIP39 phrase with a valid checksum (random entropy)."""
    ent_bits = words * 32 // 3
    entropy = R.getrandbits(ent_bits).to_bytes(ent_bits // 8, "big")
    cs = hashlib.sha256(entropy).digest()
    bits = bin(int.from_bytes(entropy, "big"))[2:].zfill(ent_bits) + bin(cs[0])[2:].zfill(8)[: words // 3]
    return " ".join(WORDS[int(bits[i * 11:(i + 1) * 11], 2)] for i in range(words))


_LAYOUTS = {
    "ru": dict(zip("qwertyuiop[]asdfghjkl;'zxcvbnm,.", "йцукенгшщзхъфывапролджэячсмитьбю", strict=True)),
    "uk": dict(zip("qwertyuiop[]asdfghjkl;'zxcvbnm,.", "йцукенгшщзхїфівапролджєячсмитьбю", strict=True)),
    "el": dict(zip("qwertyuiopasdfghjklzxcvbnm", ";ςερτυθιοπασδφγηξκλζχψωβνμ", strict=True)),
    "he": dict(zip("qwertyuiopasdfghjkl;zxcvbnm,.", "/'קראטוןםפשדגכעיחלךףזסבהנמצתץ", strict=True)),
    "ar": dict(zip("qwertyuiopasdfghjklzxcvnm", "ضصثقفغعهخحشسيبلاتنمئءؤرىة", strict=True)),
    "fa": dict(zip("qwertyuiopasdfghjklzxcvbnm", "ضصثقفغعهخحشسیبلاتنمظطزرذدپ", strict=True)),
}


def layout(text: str, lang: str) -> str:
    """What English typed with the keyboard switched to ``lang`` shows (b in Arabic is لا: two letters)."""
    table = dict(_LAYOUTS[lang])
    if lang == "ar":
        table["b"] = "لا"
    return "".join(table.get(c, c) for c in text)


def spelled(p: str, sep: str = ", ") -> str:
    return sep.join(p)


# ============================== batch 24 ===========================================================

def b24_ids() -> None:  # noqa: PLR0915 - one list of cases
    yy, mm, dd = n(70, 99), n(1, 12), n(10, 28)
    v = digits(8)
    case("resident_id", "note", "a Peruvian DNI after 'DNI N°'", f"Para la matrícula: DNI N° {v}, emitido en Arequipa", v)
    v = f"{digits(7)} {pick(['LP', 'CB', 'SC', 'OR'])}"
    case("resident_id", "note", "a Bolivian C.I. with its department", f"Mi C.I. es {v}, por si lo piden en la beca", v)
    v = f"{n(1, 9)}.{digits(3)}.{digits(3)}"
    case("resident_id", "note", "a Paraguayan cédula with dots", f"Cédula de Identidad Civil Nº {v}", v)
    v = f"0{n(801, 899)}-19{yy}-{digits(5)}"
    case("resident_id", "note", "a Honduran DNI with birth year", f"Número de identidad: {v} (Tegucigalpa)", v)
    v = f"{n(1, 7)}-{n(100, 999):04d}-{n(100, 999):04d}"
    case("resident_id", "note", "a Costa Rican cédula in 1-0000-0000 groups", f"cédula {v}, para el TEC", v)
    v = f"{n(1, 9)}-{n(100, 999)}-{digits(4)}"
    case("resident_id", "note", "a Panamanian cédula", f"La cédula panameña de mi tía: {v}", v)
    v = script_digits(f"{n(10, 77)}-{n(1, 9):02d}-{n(60, 80)}-{digits(5)}", "०")
    case("resident_id", "note", "a Nepali citizenship number in Devanagari digits", f"नागरिकता प्रमाणपत्र नं. {v}", v)
    v = script_digits(f"19{yy}{digits(13)}", "০")
    case("resident_id", "note", "a Bangladeshi 17-digit NID in Bengali digits", f"জাতীয় পরিচয়পত্র নম্বর: {v}", v)
    v = f"{digits(9)}"
    case("resident_id", "note", "a Cambodian ID card number in Khmer prose", f"អត្តសញ្ញាណប័ណ្ណ លេខ {v}", v)
    v = f"{digits(10)}"
    case("resident_id", "note", "a Lao ID card number", f"ບັດປະຈຳຕົວ ເລກທີ {v}", v)
    v = f"{n(1, 9)}{tok(6, '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ')}"
    case("resident_id", "note", "an Azerbaijani FIN code (7 characters)", f"Şəxsiyyət vəsiqəsi FİN kodu: {v}", v)
    v = f"{n(1, 2)}{dd:02d}{mm:02d}19{yy}{digits(5)}"
    case("resident_id", "note", "a Kyrgyz PIN (14 digits, sex and birth date)", f"ПИН: {v} — для общежития", v)
    v = f"{n(3, 6)}{dd:02d}{mm:02d}{yy}{pick(['A', 'B', 'C', 'K', 'E'])}{digits(3)}{pick(['PB', 'GB', 'BA'])}{n(0, 9)}"
    case("resident_id", "note", "a Belarusian identification number (14 characters)", f"Идентификационный номер: {v}", v)
    v = f"{n(0, 1)}{digits(7)}"
    case("resident_id", "note", "a Tunisian CIN in Arabic", f"بطاقة التعريف الوطنية عدد {v}", v)
    v = f"{pick(['BE', 'BK', 'AB', 'JA', 'G'])}{digits(6)}"
    case("resident_id", "note", "a Moroccan CIN letters+digits in French", f"Ma CIN : {v} (pour le dossier de bourse)", v)
    v = f"{n(1, 2)} {digits(3)} 19{yy} {digits(5)}"
    case("resident_id", "note", "a Senegalese CNI number in groups", f"Numéro d'identification nationale : {v}", v)
    v = f"19{yy}{mm:02d}{dd:02d}-{digits(5)}-{digits(5)}-{n(10, 29)}"
    case("resident_id", "note", "a Tanzanian NIDA number", f"Namba ya NIDA: {v}", v)
    v = f"C{pick(['M', 'F'])}{yy}{digits(3)}{tok(7, 'ABCDEFGHJKLMNPQRTUVWXYZ0123456789')}"
    case("resident_id", "note", "a Ugandan NIN (14 characters)", f"NIN: {v} for the scholarship form", v)
    v = f"1 19{yy} {n(7, 8)} {digits(7)} {n(0, 9)} {digits(2)}"
    case("resident_id", "note", "a Rwandan national ID in Kinyarwanda", f"Nimero y'indangamuntu: {v}", v)
    v = f"{digits(6)}/{n(10, 99)}/1"
    case("resident_id", "note", "a Zambian NRC", f"my NRC is {v}", v)
    v = f"{n(1, 9)}{n(0, 9)}-{digits(6)} {pick(UP)} {n(10, 99)}"
    case("resident_id", "note", "a Zimbabwean national ID", f"ID number {v} (for the bursary)", v)
    v = f"{digits(12)}{pick(UP)}"
    case("resident_id", "note", "a Mozambican BI", f"BI n.º {v}, Maputo", v)
    v = f"{digits(4)}-{digits(4)}-{digits(4)}-{digits(4)}"
    case("resident_id", "note", "a Philippine PhilSys card number", f"PhilSys Card Number (PCN): {v}", v)
    v = f"{yy}{mm:02d}{dd:02d}-{n(5, 8)}{digits(6)}"
    case("resident_id", "note", "a Korean foreigner registration number", f"외국인등록번호: {v}", v)
    v = f"{tok(2, UP)}{digits(8)}{tok(2, UP)}"
    case("resident_id", "note", "a Japanese residence card number", f"在留カード番号は {v} です", v)
    v = f"{tok(1, UP)}{digits(7)}{tok(1, UP)}"
    case("resident_id", "md", "an ID in a Swahili form table beside a name and a birth date",
         f"| Jina | Tarehe ya kuzaliwa | Namba |\n|---|---|---|\n| Amina Mohamed | {dd:02d}/{mm:02d}/19{yy} | {v} |\n", v)
    v = f"{tok(1, UP)}{digits(7)}{tok(1, UP)}"
    case("resident_id", "txt", "a document number in a CSV beside a name and a birth date",
         f"full_name,birth_date,doc_no\nAyesha Rahman,19{yy}-{mm:02d}-{dd:02d},{v}\n", v)
    v = digits(10)
    case("resident_id", "note", "a Jordanian national number in Arabic", f"الرقم الوطني: {v}", v)
    v = f"{digits(3)} {digits(3)} {digits(3)} {digits(3)}"
    case("resident_id", "note", "a Malagasy CIN in groups", f"Karapanondro (CIN) laharana {v}", v)
    v = f"{n(1, 9)}{digits(11)}"
    case("resident_id", "json", "an ID in JSON under a Spanish key", f'{{"nombre": "Lucía Quispe", "num_documento": "{v}", "carrera": "Medicina"}}', v)


def b24_passports() -> None:
    v = f"{pick(['P', 'E'])}{tok(1, UP)}{digits(7)}"
    case("passport", "note", "a passport number in a Spanish sentence", f"Mi número de pasaporte es {v}, vence en 2029", v)
    v = f"{n(10, 99)} {n(10, 99)} № {digits(6)}"
    case("passport", "note", "a Russian internal passport series and number", f"Паспорт серия {v}, выдан ОВД", v)
    v = f"U{digits(8)}"
    case("passport", "note", "a Turkish passport in Turkish prose", f"pasaport numaram {v}, vize başvurusu için", v)
    v = f"M{digits(8)}"
    case("passport", "note", "a Korean passport number", f"여권번호 {v} 로 항공권 예약", v)
    v = f"{tok(1, 'CFGHJK')}{tok(8, 'CFGHJKLMNPRTVWXYZ0123456789')}"
    case("passport", "note", "a German Reisepass number (letters and digits)", f"Reisepass-Nr. {v}, gültig bis 2031", v)
    v = f"{tok(2, UP)}{digits(7)}"
    case("passport", "note", "a Thai passport in Thai", f"หนังสือเดินทางเลขที่ {v}", v)
    v = f"{pick(['C', 'B', 'N'])}{digits(7)}"
    case("passport", "note", "a Vietnamese passport", f"Hộ chiếu số: {v}, cấp tại Hà Nội", v)
    v = f"{pick(['A', 'B', 'X'])}{digits(8)}"
    case("passport", "txt", "a passport number in a visa form file",
         f"Surname: Haddad\nGiven names: Rami\nDate of birth: 12 MAR 1996\nTravel document no.: {v}\nNationality: LBN\n", v)


def b24_plates() -> None:
    p = f"{pick(['N', 'K', 'R', 'BB'])} {digits(5)}"
    case("licence_plate", "note", "a Dubai plate letter + number", f"my car plate is Dubai {p}, parked in B2", p)
    p = script_digits(f"बा {n(1, 9)} च {digits(4)}", "०")
    case("licence_plate", "note", "a Nepali plate in Devanagari", f"मेरो गाडीको नम्बर {p} हो", p)
    p = full_width(f"A·{tok(5, '0123456789ABCDEFGHJKLMN')}")
    case("licence_plate", "note", "a Shanghai plate in full-width letters", f"车牌：沪{p}，停在 B2", f"沪{p}")
    p = f"{pick(['กข', 'ฆท', 'ขน', '1กก'])} {digits(4)}"
    case("licence_plate", "note", "a Thai plate", f"ทะเบียนรถ {p} กรุงเทพมหานคร", p)
    p = f"{pick('АВЕКМНОРСТУХ')}{digits(3)}{pick('АВЕКМНОРСТУХ')}{pick('АВЕКМНОРСТУХ')} {pick(['77', '197', '78', '50'])}"
    case("licence_plate", "note", "a Russian plate in Cyrillic", f"Госномер машины {p}, парковка у общежития", p)
    p = f"{pick(['MH', 'KA', 'DL', 'TN'])} {n(1, 40):02d} {tok(2, UP)} {digits(4)}"
    case("licence_plate", "note", "an Indian plate", f"Bike no. {p} — parking sticker for hostel", p)
    p = f"{n(11, 99)}{pick('ABCDEFGHK')}-{digits(3)}.{digits(2)}"
    case("licence_plate", "note", "a Vietnamese plate", f"Biển số xe của mình: {p}", p)
    p = script_digits(f"ঢাকা মেট্রো-গ {n(11, 99)}-{digits(4)}", "০")
    case("licence_plate", "note", "a Bangladeshi plate in Bengali", f"গাড়ির নম্বর {p}", p)


def b24_addresses() -> None:  # noqa: PLR0915 - one list of cases
    a = f"House No. {n(2, 120)}-{pick('ABC')}, Block {pick('CDEFGH')}, {pick(['Gulberg III', 'Model Town', 'Johar Town'])}"
    case("address", "note", "a Lahore house/block/colony", f"Mera pata: {a}, Lahore", a)
    a = f"Flat {n(1, 9)}{pick('ABCD')}, House {n(2, 80)}, Road {n(1, 30)}, {pick(['Banani', 'Gulshan 2', 'Dhanmondi'])}"
    case("address", "note", "a Dhaka flat/house/road/area", f"Send the parcel to {a}, Dhaka 1213", a)
    a = f"{pick(['Сүхбаатар', 'Хан-Уул', 'Чингэлтэй'])} дүүрэг, {n(1, 20)}-р хороо, {n(1, 90)}-р байр, {n(1, 120)} тоот"
    case("address", "note", "a Mongolian district/khoroo/building/door", f"Гэрийн хаяг: Улаанбаатар, {a}", a)
    a = f"мкр. {pick(['Самал-2', 'Аксай-4', 'Орбита-1'])}, д. {n(1, 90)}, кв. {n(1, 150)}"
    case("address", "note", "an Almaty microdistrict/house/flat", f"Адрес: Алматы, {a}", a)
    a = f"вул. {pick(['Шевченка', 'Франка', 'Сагайдачного'])}, буд. {n(1, 90)}, кв. {n(1, 150)}"
    case("address", "note", "a Ukrainian street/building/flat", f"Моя адреса: {a}, Львів", a)
    a = f"Cra {n(1, 99)} # {n(1, 150)}-{n(1, 99)} Apto {n(101, 1204)}"
    case("address", "note", "a Bogotá carrera # - Apto", f"Mi dirección en Bogotá: {a}", a)
    a = f"Av. {pick(['Corrientes', 'Santa Fe', 'Rivadavia'])} {n(100, 5000)}, {n(1, 15)}° {pick('ABCD')}"
    case("address", "note", "a Buenos Aires avenue with floor and flat", f"Vivo en {a}, CABA", a)
    a = f"{pick(['Vinohradská', 'Táborská', 'Lidická'])} {n(2, 99)}, {n(1, 8)}. patro, byt {n(1, 40)}"
    case("address", "note", "a Czech street, floor (patro) and flat (byt)", f"Adresa: {a}, 120 00 Praha 2", a)
    a = f"{pick(['Brīvības iela', 'Elizabetes iela', 'Tērbatas iela'])} {n(2, 150)} - {n(1, 60)}"
    case("address", "note", "a Riga street with flat after a dash", f"Mana adrese: {a}, Rīga, LV-1001", a)
    a = f"{pick(['Andrássy út', 'Király utca', 'Váci út'])} {n(2, 120)}. {n(1, 6)}. em. {n(1, 20)}. ajtó"
    case("address", "note", "a Budapest street, floor (em.) and door (ajtó)", f"Címem: 1062 Budapest, {a}", a)
    a = f"ul. {pick(['Marszałkowska', 'Piotrkowska', 'Długa'])} {n(2, 150)}/{n(1, 90)} m. {n(1, 60)}"
    case("address", "note", "a Polish ul. number/number m. flat", f"Adres: {a}, 00-514 Warszawa", a)
    a = f"Οδός {pick(['Ερμού', 'Πατησίων', 'Σόλωνος'])} {n(2, 150)}, {n(1, 7)}ος όροφος"
    case("address", "note", "a Greek street and floor", f"Η διεύθυνσή μου: {a}, 105 63 Αθήνα", a)
    a = f"شقة {n(1, 40)}، الدور {pick(['الثالث', 'الرابع', 'الخامس'])}، {n(2, 90)} شارع {pick(['التحرير', 'الهرم', 'فيصل'])}"
    case("address", "note", "a Cairo flat/floor/street in Arabic", f"عنواني: {a}، الجيزة", a)
    a = f"רחוב {pick(['הרצל', 'ביאליק', 'ויצמן'])} {n(2, 120)} דירה {n(1, 40)}"
    case("address", "note", "a Hebrew street and flat", f"הכתובת שלי: {a}, תל אביב", a)
    a = f"Blk {n(1, 40)} Lot {n(1, 60)}, Phase {n(1, 5)}, Brgy. {pick(['San Isidro', 'Malanday', 'Pinagbuhatan'])}"
    case("address", "note", "a Philippine block/lot/phase/barangay", f"Address ko: {a}, Quezon City", a)
    a = f"Plot {n(1, 900)}, {pick(['3rd', '5th', '7th'])} Avenue, {pick(['Gwarinpa Estate', 'Lugbe', 'Jabi'])}"
    case("address", "note", "an Abuja plot/avenue/estate", f"My house: {a}, Abuja", a)
    a = f"{pick(['北沢', '三軒茶屋', '代沢'])}{n(1, 5)}-{n(1, 30)}-{n(1, 20)} {pick(['コーポ山田', 'メゾン桜', 'ハイツ青葉'])}{n(101, 405)}号室"
    case("address", "note", "a Tokyo chōme-ban-gō with a building and room", f"引っ越し先は世田谷区{a}です", a)
    a = f"{pick(['월드컵북로', '성미산로', '동교로'])} {n(1, 40)}길 {n(1, 90)}, {n(101, 112)}동 {n(1, 25)}0{n(1, 4)}호"
    case("address", "note", "a Seoul road-name address with dong/ho", f"주소: 서울시 마포구 {a}", a)
    a = f"Lot {n(100, 3000)} in D.D. {n(1, 130)}"
    case("address", "note", "a Hong Kong village house lot", f"Our village house is {a}, Sai Kung", a)
    a = f"{pick(['Աբովյան', 'Թումանյան', 'Սայաթ-Նովա'])} փ. {n(1, 90)}, բն. {n(1, 60)}"
    case("address", "note", "an Armenian street and flat", f"Հասցե՝ Երևան, {a}", a)
    a = f"{pick(['ჭავჭავაძის', 'რუსთაველის', 'წერეთლის'])} გამზ. {n(1, 90)}, ბ. {n(1, 60)}"
    case("address", "note", "a Georgian avenue and flat", f"მისამართი: თბილისი, {a}", a)
    a = f"Kebele {n(1, 20):02d}, House No. {n(100, 2000)}"
    case("address", "note", "an Addis Ababa kebele/house", f"I live in Bole sub-city, {a}, Addis Ababa", a)


def b24_passwords() -> None:  # noqa: PLR0915 - one list of cases
    p = password()
    case("password", "note", "a Wi-Fi password bare in English prose, no label word", f"grandma's wifi is {p} btw, the router is behind the TV", p)
    p = password()
    case("password", "note", "a Spanish 'la clave es' in prose", f"oye, la clave del wifi de la biblioteca es {p}", p)
    p = password()
    case("password", "note", "a Polish hasło in prose", f"hasło do routera to {p} (nie zmieniaj)", p)
    p = password()
    case("password", "note", "a Swahili nenosiri", f"Nenosiri la wifi ni {p}", p)
    p = password()
    case("password", "note", "a Hindi पासवर्ड in Devanagari prose", f"मेरा ईमेल का पासवर्ड है {p}", p)
    p = password()
    case("password", "note", "a Malay kata laluan", f"kata laluan portal pelajar: {p}", p)
    p = password()
    case("password", "note", "a Japanese パスワードは in prose", f"学校のWi-Fiのパスワードは{p}だよ", p)
    p = password()
    case("password", "note", "a Korean 비번 (slang)", f"동아리방 와이파이 비번 {p} 임", p)
    p = password()
    case("password", "note", "a Russian пароль in prose", f"пароль от почты: {p}, не забудь", p)
    p = tok(8, "abcdefghjkmnpqrstuvwxyz23456789")
    case("password", "note", "a password spelled letter by letter with dashes", f"The password, letter by letter: {'-'.join(p.upper())}",
         "-".join(p.upper()))
    p = tok(7, "abcdefghjkmnpqrstuvwxyz23456789")
    case("password", "note", "a password spelled with commas after 'spelled'", f"his laptop login is spelled {spelled(p)}", spelled(p))
    p = password()
    arr = ", ".join(f"'{c}'" for c in p)
    case("password", "py", "a password as a char list in Python", f"PW_CHARS = [{arr}]\npw = ''.join(PW_CHARS)\n", arr)
    p = tok(10, B62)
    arr = ",".join(f"'{c}'" for c in p)
    case("password", "note", "a password as a C char array", f"char secret[] = {{{arr},'\\0'}};", arr)
    p = tok(9, B62)
    arr = ", ".join(f"'{c}'" for c in p)
    case("password", "note", "a password as a Java char[]", f"char[] pass = new char[] {{ {arr} }};\nconn.login(\"lihua\", pass);", arr)
    p = password()
    case("password", "note", "user / password after a slash, no label", f"router admin / {p} (change it!)", p)
    p = password()
    case("password", "note", "a password in a Chinese chat line without 密码 (口令)", f"教务系统口令改成了 {p}，别外传", p)
    p = password()
    case("password", "note", "a French mdp abbreviation", f"mdp du compte ENT : {p}", p)
    p = password()
    case("password", "note", "a Vietnamese pass in prose", f"pass wifi quán cà phê là {p} nhé", p)
    p = password()
    case("password", "note", "a Dutch wachtwoord in prose", f"het wachtwoord van de printer is {p}", p)
    p = password()
    case("password", "note", "a Turkish şifresi in prose", f"okul wifi şifresi {p} imiş", p)


def b24_emails() -> None:
    u, d = pick(["minjun.park", "jiwoo_kim", "seoyeon77"]), pick(["gmail", "naver", "daum"])
    e = f"{u} 골뱅이 {d} 닷 {pick(['com', 'net'])}"
    case("email", "note", "a Korean e-mail read aloud (골뱅이/닷)", f"메일 주소는 {e} 이에요", e)
    u, d = pick(["ivan.petrov", "olga_s", "dima1998"]), pick(["mail", "yandex", "rambler"])
    e = f"{u} собака {d} точка ru"
    case("email", "note", "a Russian e-mail read aloud (собака/точка)", f"пиши мне на {e}", e)
    u = pick(["jane dot doe", "tom dot lee", "amy underscore chen"])
    e = f"{u} at {pick(['outlook', 'yahoo', 'proton'])} dot com"
    case("email", "note", "an English e-mail read aloud (at/dot)", f"her email is {e}, write to her", e)
    e = f"{pick(['zhangwei', 'liuyang88', 'xiaomei'])} 艾特 {pick(['163', 'qq', '126'])} 点 com"
    case("email", "note", "a Chinese e-mail read aloud (艾特/点)", f"邮箱是 {e}，有事发邮件", e)
    e = f"{pick(['maria.lopez', 'jgarcia', 'lucia99'])} arroba {pick(['hotmail', 'gmail'])} punto {pick(['es', 'com'])}"
    case("email", "note", "a Spanish e-mail read aloud (arroba/punto)", f"mi correo: {e}", e)
    e = f"{pick(['kasia.nowak', 'piotr_k', 'ania2001'])} małpa {pick(['wp', 'onet', 'o2'])} kropka pl"
    case("email", "note", "a Polish e-mail read aloud (małpa/kropka)", f"napisz na {e}", e)
    e = f"{pick(['tanaka', 'sato.yui', 'kenji'])} アットマーク {pick(['yahoo', 'docomo'])} ドット co ドット jp"
    case("email", "note", "a Japanese e-mail read aloud (アットマーク/ドット)", f"メールは {e} まで", e)
    e = f"{pick(['li.na', 'wang_fang', 'chenhao'])} [at] {pick(['qq', 'sina'])} [dot] com"
    case("email", "note", "an e-mail with [at] and [dot]", f"contact: {e}", e)


def b24_keys() -> None:
    k = tok(32, HEX)
    case("api_key", "note", "a hex key after 'the API key for'", f"the API key for the weather service: {k}", k)
    k = tok(40, B62)
    case("api_key", "note", "a base62 token with only 'token I got' before it", f"token I got from the portal — {k}", k)
    k = tok(36, B62 + "-_")
    case("api_key", "note", "a Spanish 'clave de la API'", f"clave de la API del proyecto: {k}", k)
    k = tok(32, B62)
    case("api_key", "note", "a Japanese APIキー in prose", f"APIキーは{k}です。公開しないで", k)
    k = tok(40, HEX)
    case("api_key", "note", "a German API-Schlüssel", f"Mein API-Schlüssel lautet {k}", k)
    k = tok(28, B62)
    case("api_key", "note", "a client secret in Chinese prose without a label word", f"后台给的 client secret 是 {k}，下周过期", k)
    k1, k2 = tok(20, B62), tok(20, B62)
    case("api_key", "note", "a key split over two lines", f"map key part 1: {k1}\nand the rest: {k2}", k1, k2)
    k = tok(48, B62 + "+/")
    case("api_key", "yaml", "an unnamed value under credentials in YAML", f"credentials:\n  weather:\n    value: \"{k}\"\n", k)


def b24_phrases() -> None:
    m = mnemonic(12)
    t = layout(m, "ru")
    case("recovery_phrase", "note", "a seed phrase typed in the Russian layout", f"сид фраза (раскладку забыл переключить): {t}", t)
    m = mnemonic(12)
    t = layout(m, "he")
    case("recovery_phrase", "note", "a seed phrase typed in the Hebrew layout", f"wallet backup — {t}", t)
    m = mnemonic(12)
    t = layout(m, "el")
    case("recovery_phrase", "note", "a seed phrase typed in the Greek layout", f"φράση ανάκτησης: {t}", t)


def b24_mobiles() -> None:
    m = f"+251 9{n(1, 4)} {digits(3)} {digits(4)}"
    case("mobile", "note", "an Ethiopian mobile", f"ስልክ ቁጥሬ {m} ነው", m)
    m = script_digits(f"98{n(0, 6)}{digits(7)}", "०")
    case("mobile", "note", "a Nepali mobile in Devanagari digits", f"मेरो मोबाइल नम्बर {m} हो", m)
    m = f"+976 {n(8, 9)}{digits(3)} {digits(4)}"
    case("mobile", "note", "a Mongolian mobile", f"Утас: {m}", m)
    m = f"0{pick(['77', '78', '70'])} {digits(3)} {digits(2)} {digits(2)}"
    case("mobile", "note", "a Senegalese mobile", f"Mon numéro portable : {m}", m)


def b24_negatives() -> None:  # noqa: PLR0915 - one list of texts
    neg("an ISBN after 'No.'", "教材：《数据结构》ISBN No. 978-7-302-33064-6，清华大学出版社")
    neg("an article of law with number words", "Article 12, paragraph 3, item 4 of Regulation (EU) 2016/679 defines personal data.")
    neg("a course number and a room", "Course No. CS2040, Room 301, Building 5 — lecture every Tuesday")
    neg("an invoice number", "Invoice No. INV-2024-00123 for the conference fee (paid by the department)")
    neg("a patent number", "The method is described in Patent No. US 9,876,543 B2 (2018).")
    neg("a case number", "Brown v. Board of Education, 347 U.S. 483 (1954); docket No. 1")
    neg("a Russian standard number", "Оформление по ГОСТ Р 7.0.100-2018, номер стандарта указывать обязательно.")
    neg("a passport-number format explained", "Indian passport numbers have 8 characters: one letter followed by seven digits.")
    neg("an ID format explained in Chinese", "身份证号码由18位组成，前6位为地址码，中间8位为出生日期码。")
    neg("password rules in Spanish", "La contraseña debe tener al menos 8 caracteres, una mayúscula y un número.")
    neg("password hashing explained", "The password is stored as a bcrypt hash with cost 12, never in plain text.")
    neg("a vocabulary line for 'password'", "password（密码）、username（用户名）、login（登录）——第三课单词")
    neg("a C array of vowels", "char vowels[] = {'a', 'e', 'i', 'o', 'u'};\nint n = sizeof(vowels);")
    neg("a Java char array of hex digits", "char[] HEX = new char[] { '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f' };")
    neg("a spelling lesson", "How to spell necessary: n-e-c-e-s-s-a-r-y (one collar, two sleeves).")
    neg("NATO alphabet practice", "Spell your name with the NATO alphabet: Alfa, Bravo, Charlie, Delta, Echo.")
    neg("골뱅이 the dish", "을지로 골뱅이 골목은 골뱅이 무침으로 유명하다. 맥주 한 잔에 골뱅이 닷 접시!")
    neg("собака the dog", "Собака лает на почтальона. Точка зрения автора: собака — друг человека.")
    neg("at and dot in English prose", "Meet me at the library at noon, and dot the i's before you submit.")
    neg("arroba as a unit", "Una arroba equivale a unos 11,5 kilos; el punto de partida es la feria.")
    neg("a public museum address", "故宫博物院地址：北京市东城区景山前街4号，周一闭馆。")
    neg("a university address", "The British Museum, Great Russell Street, London WC1B 3DG, is free to visit.")
    neg("an embassy address in Russian", "Посольство Китая в Москве: ул. Дружбы, д. 6. Приём по записи.")
    neg("a historical table with years", "| 姓名 | 出生 | 作品数 |\n|---|---|---|\n| 李白 | 701 | 1010 |\n| 杜甫 | 712 | 1500 |\n")
    neg("authors with born years and ISBNs", "name,born,isbn\nLu Xun,1881,9787020002207\nLao She,1899,9787020024759\n")
    neg("a SHA-256 checksum named as one", "SHA256 checksum of the installer: 3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b")
    neg("a git commit in a changelog", "Fixed in commit 9f3c2a1b7e4d (see the release notes of v2.4.1).")
    neg("a base64 hello world in a tutorial", "base64 编码示例：Hello World → SGVsbG8gV29ybGQ=")
    neg("real Russian words", "Фраза дня: ученье свет, а неученье тьма. Выучи эти слова к понедельнику.")
    neg("real Greek words", "Λέξεις της ημέρας: φως, νερό, θάλασσα, ουρανός, ήλιος, βιβλίο.")
    neg("real Hebrew words", "מילים לשיעור: שלום, תודה, בבקשה, ספר, מים, לחם, בית, ילד.")
    neg("chemical and chess notation", "Glucose is C6H12O6; after 1. e4 e5 2. Nf3 Nc6 the Ruy Lopez follows.")
    neg("route numbers and paper sizes", "Take Route 66 west; print on A4 paper with a HB pencil sketch.")
    neg("a flight number and gate", "Flight CA1234 boards at gate E12, seat 34K.")
    neg("a public hotline", "全国统一客服热线 95588，工作日 9:00-17:00。")
    neg("Thai lesson numbers", "บทที่ 12 หน้า 45 ข้อ 3 ให้ตอบคำถาม 1234 ข้อ")
    neg("a Japanese textbook address of a university", "東京大学 本郷キャンパス：東京都文京区本郷7-3-1")
    neg("an API key concept explained", "API 密钥（API key）用于识别调用者，应放在环境变量中，不要写进代码。")
    neg("a model number after 'No.'", "型号 No. SM-G9910，序列号在电池下方（每台不同）。")
    neg("statistics with long numbers", "China's population in 2020 was 1411778724 according to the census.")


# ============================== batch 25 (kept unread) ==============================================

def b25_ids() -> None:  # noqa: PLR0915 - one list of cases
    yy, mm, dd = n(70, 99), n(1, 12), n(10, 28)
    v = f"{n(0, 9)}{digits(2)}-{dd:02d}{mm:02d}{yy}-{digits(4)}{pick(UP)}"
    case("resident_id", "note", "a Nicaraguan cédula", f"Cédula de identidad nicaragüense {v}", v)
    v = f"0{digits(7)}-{n(0, 9)}"
    case("resident_id", "note", "a Salvadoran DUI", f"Mi DUI es {v}", v)
    v = f"{yy}{mm:02d}{dd:02d}{digits(5)}"
    case("resident_id", "note", "a Cuban carné de identidad", f"carné de identidad: {v}", v)
    v = f"{digits(3)}-{digits(3)}-{digits(3)}"
    case("resident_id", "note", "a Jamaican TRN", f"TRN {v} — needed for the UWI form", v)
    v = f"C {digits(4)} {digits(4)} {digits(2)}"
    case("resident_id", "note", "an Ivorian CNI number", f"N° CNI : {v}, délivrée à Abidjan", v)
    v = f"{n(1, 2)}{digits(10)}"
    case("resident_id", "note", "a Bhutanese CID", f"CID No. {v} (for the RUB admission)", v)
    v = f"A{digits(6)}"
    case("resident_id", "note", "a Maldivian ID card", f"ID card number A-{v[1:]}", f"A-{v[1:]}")
    v = script_digits(f"{n(1395, 1402)}-{digits(4)}-{digits(5)}", "۰")
    case("resident_id", "note", "an Afghan e-Tazkira in Persian digits", f"شماره تذکره: {v}", v)
    v = f"{dd:02d}{mm:02d}9{yy}{n(41, 49)}{digits(4)}"
    case("resident_id", "note", "a North Macedonian EMBG in Cyrillic prose", f"ЕМБГ: {v}", v)
    v = f"{digits(6)}{pick('MGAPLHBZ')}"
    case("resident_id", "note", "a Maltese ID card number", f"Numru tal-karta tal-identità: {v}", v)
    v = f"{digits(8)} {n(0, 9)} {tok(2, UP)}{n(0, 9)}"
    case("resident_id", "note", "a Portuguese Cartão de Cidadão", f"Nº do Cartão de Cidadão {v}", v)
    v = f"{digits(3)}-{digits(4)}-{digits(4)}"
    case("resident_id", "note", "a Sudanese national number in Arabic", f"الرقم الوطني {v}", v)
    v = f"{n(1, 9)}{digits(9)}"
    case("resident_id", "note", "a Somali ID in Somali", f"Lambarka aqoonsiga: {v}", v)
    v = f"{digits(2)}-{digits(6)}-{tok(1, UP)}"
    case("resident_id", "note", "a Papua New Guinea NID", f"NID number {v}, Port Moresby", v)
    v = f"{tok(3, UP)}{digits(6)}"
    case("resident_id", "note", "an Ecuador-style ID in Quechua/Spanish prose", f"Ñuka cédula yupay: {v}", v)
    v = f"{yy}{mm:02d}{dd:02d}{digits(6)}"
    case("resident_id", "md", "an ID in an Indonesian form table (Nama / Tanggal lahir / Nomor)",
         f"| Nama | Tanggal lahir | Nomor |\n|---|---|---|\n| Siti Aminah | {dd:02d}-{mm:02d}-19{yy} | {v} |\n", v)
    v = f"{tok(2, UP)}{digits(7)}"
    case("resident_id", "txt", "a document number in a tab-separated roster beside a name and birth date",
         f"Nom\tNé le\tPièce\nFatou Diallo\t{dd:02d}/{mm:02d}/19{yy}\t{v}\n", v)
    v = f"{n(1, 9)}{digits(11)}"
    case("resident_id", "json", "an ID in JSON under a Portuguese key", f'{{"nome": "João Mavie", "numero_bi": "{v}", "curso": "Direito"}}', v)
    v = f"{digits(4)} {digits(4)} {digits(4)}"
    case("resident_id", "note", "an Ethiopian Fayda FAN in Amharic", f"የፋይዳ መለያ ቁጥር፡ {v}", v)
    v = f"{n(1, 9)}{digits(8)}"
    case("resident_id", "note", "a Haitian NIF in Haitian Creole", f"Nimewo NIF mwen: {v}", v)


def b25_passports() -> None:
    v = f"{tok(2, UP)}{digits(7)}"
    case("passport", "note", "a Swahili pasipoti", f"Namba ya pasipoti yangu ni {v}", v)
    v = f"P{digits(7)}{pick(UP)}"
    case("passport", "note", "a Tagalog numero ng pasaporte", f"Numero ng pasaporte ko: {v}", v)
    v = f"{tok(2, UP)}{digits(6)}"
    case("passport", "note", "a Portuguese passaporte nº", f"passaporte nº {v}, válido até 2030", v)
    v = f"{tok(2, UP)}{tok(6, UP + '0123456789')}{n(0, 9)}"
    case("passport", "note", "a Dutch paspoortnummer", f"Mijn paspoortnummer is {v}", v)
    v = f"{digits(8)}"
    case("passport", "note", "a Swedish passnummer", f"passnummer: {v} (gäller till 2032)", v)
    v = f"{tok(2, UP)}{digits(7)}"
    case("passport", "note", "a Hungarian útlevélszám", f"útlevélszám: {v}", v)
    v = f"{pick(['FX', 'FA', 'FB'])}{digits(6)}"
    case("passport", "note", "a Ukrainian foreign passport", f"закордонний паспорт {v}, дійсний до 2028", v)
    v = f"T{tok(1, UP)}{digits(7)}"
    case("passport", "note", "a Japanese 旅券番号", f"旅券番号：{v}", v)


def b25_plates() -> None:
    p = f"{pick(['أ ب ج', 'ر س ص', 'ح د ك'])} {digits(4)}"
    case("licence_plate", "note", "a Saudi plate in Arabic letters", f"رقم لوحة سيارتي {p}", p)
    p = f"{pick(['WP', 'CP', 'SP'])} {tok(3, UP)}-{digits(4)}"
    case("licence_plate", "note", "a Sri Lankan plate", f"Vehicle no: {p} (van for the trip)", p)
    p = f"{digits(4)} {pick(['УБА', 'УНБ', 'ДАА'])}"
    case("licence_plate", "note", "a Mongolian plate in Cyrillic", f"Машины дугаар {p}", p)
    p = f"{digits(3)} {tok(3, UP)} {pick(['02', '01', '17'])}"
    case("licence_plate", "note", "a Kazakh plate", f"Мемлекеттік нөмір: {p}", p)
    p = f"{tok(2, UP)}-{digits(3)}-{tok(2, UP)}"
    case("licence_plate", "note", "a Georgian plate", f"მანქანის ნომერი {p}", p)
    p = f"{tok(4, 'BCDFGHJKLPRSTVWXYZ')}-{digits(2)}"
    case("licence_plate", "note", "a Chilean plate", f"la patente de mi auto es {p}", p)
    p = full_width(f"{n(300, 599)}") + " " + pick(["さ", "な", "ら"]) + " " + full_width(f"{n(10, 99)}-{n(10, 99)}")
    case("licence_plate", "note", "a Japanese plate in full-width digits", f"ナンバー：品川 {p}", f"品川 {p}")
    p = f"{n(1, 2)}{pick('ABCDE')}-{digits(4)}"
    case("licence_plate", "note", "a Cambodian plate", f"ស្លាកលេខរថយន្ត {p} ភ្នំពេញ", p)


def b25_addresses() -> None:  # noqa: PLR0915 - one list of cases
    a = f"No. {n(2, 120)}/{n(1, 9)}, {pick(['Galle Road', 'Duplication Road', 'Havelock Road'])}, Colombo {n(1, 15):02d}"
    case("address", "note", "a Colombo number/sub-number, road, zone", f"Home: {a}", a)
    a = f"Ward No. {n(1, 32)}, {pick(['Jawalakhel', 'Sanepa', 'Kupondole'])}, House {n(1, 400)}"
    case("address", "note", "a Lalitpur ward/house", f"Ghar: {a}, Lalitpur", a)
    a = f"No. {n(2, 200)}, {n(1, 12)}th Floor, {pick(['Bogyoke Aung San Road', 'Anawrahta Road'])}, {pick(['Pabedan', 'Latha'])} Township"
    case("address", "note", "a Yangon number/floor/road/township", f"Please deliver to {a}, Yangon", a)
    a = f"{pick(['GA', 'AK', 'GW'])}-{n(100, 999)}-{digits(4)}"
    case("address", "note", "a Ghana digital address", f"My GhanaPostGPS is {a} (house)", a)
    a = f"Appt {n(1, 20)}, Imm {n(1, 60)}, Rue {pick(['Ibn Sina', 'Oued Sebou', 'Patrice Lumumba'])}"
    case("address", "note", "a Rabat appartement/immeuble/rue", f"Mon adresse : {a}, Agdal, Rabat", a)
    a = f"Résidence {pick(['les Jasmins', 'El Amen', 'Ennasr'])}, Bloc {pick('ABCD')}, App {n(1, 40)}"
    case("address", "note", "a Tunis résidence/bloc/app", f"J'habite {a}, El Menzah 6", a)
    a = f"خیابان {pick(['ولیعصر', 'انقلاب', 'شریعتی'])}، کوچه {script_digits(str(n(1, 40)), '۰')}، پلاک {script_digits(str(n(1, 90)), '۰')}، واحد {script_digits(str(n(1, 20)), '۰')}"
    case("address", "note", "a Tehran street/alley/plaque/unit in Persian", f"آدرس خانه: تهران، {a}", a)
    a = f"Calle {n(1, 30)} #{n(100, 900)} e/ {pick(['L y M', 'A y B', 'J y K'])}"
    case("address", "note", "a Havana calle # e/ (between streets)", f"Mi casa: {a}, Vedado", a)
    a = f"Jr. {pick(['Puno', 'Ica', 'Junín'])} {n(100, 999)} Dpto. {n(101, 804)}"
    case("address", "note", "a Lima jirón/departamento", f"Mi dirección: {a}, Cercado de Lima", a)
    a = f"ж.к. {pick(['Младост 1', 'Люлин 5', 'Дружба 2'])}, бл. {n(1, 300)}, вх. {pick('АБВГ')}, ет. {n(1, 12)}, ап. {n(1, 90)}"
    case("address", "note", "a Sofia complex/block/entrance/floor/flat", f"Адрес: София, {a}", a)
    a = f"Str. {pick(['Victoriei', 'Lalelelor', 'Zorilor'])} nr. {n(1, 90)}, bl. {pick(['A3', 'M12', 'C4'])}, sc. {n(1, 4)}, et. {n(1, 10)}, ap. {n(1, 80)}"
    case("address", "note", "a Romanian str./nr./bl./sc./et./ap.", f"Adresa mea: {a}, Cluj-Napoca", a)
    a = f"{pick(['Chilonzor', 'Yunusobod', 'Mirzo Ulugʻbek'])} tumani, {n(1, 20)}-kvartal, {n(1, 60)}-uy, {n(1, 90)}-xonadon"
    case("address", "note", "a Tashkent district/quarter/house/flat in Uzbek", f"Manzilim: Toshkent, {a}", a)
    a = f"Ilica {n(2, 250)}, {n(1, 8)}. kat, stan {n(1, 40)}"
    case("address", "note", "a Zagreb street, floor (kat), flat (stan)", f"Moja adresa: {a}, 10000 Zagreb", a)
    a = f"{pick(['Mannerheimintie', 'Hämeentie', 'Runeberginkatu'])} {n(2, 90)} {pick('ABC')} {n(1, 60)}"
    case("address", "note", "a Helsinki street number staircase flat", f"Osoitteeni: {a}, 00100 Helsinki", a)
    a = f"{pick(['大阪府大阪市北区梅田', '京都府京都市左京区田中'])}{n(1, 3)}丁目{n(1, 20)}番{n(1, 30)}号 {pick(['グランドハイツ', 'シャトー緑'])}{n(101, 1205)}"
    case("address", "note", "a Japanese 丁目番号 address with a building and room number", f"住所：{a}", a)
    a = f"{pick(['역삼동', '서교동', '신림동'])} {n(100, 999)}-{n(1, 60)} {n(2, 5)}층"
    case("address", "note", "a Korean jibun address with floor", f"집 주소: 서울 {a}", a)
    a = f"Keizersgracht {n(2, 700)}-{pick(['I', 'II', 'III', 'hs'])}"
    case("address", "note", "an Amsterdam canal house with floor suffix", f"Mijn adres: {a}, 1015 CJ Amsterdam", a)
    a = f"Булевар краља Александра {n(2, 300)}, стан {n(1, 60)}"
    case("address", "note", "a Belgrade boulevard and flat in Cyrillic", f"Моја адреса: {a}, Београд", a)
    a = f"{pick(['中山北路', '林森南路'])}{n(1, 7)}段{n(10, 300)}巷{n(1, 40)}號之{n(1, 9)}"
    case("address", "note", "a Taipei address with 號之 (sub-number)", f"新家在台北市{a}", a)
    a = f"Rua do {pick(['Ouro', 'Carmo', 'Alecrim'])} {n(10, 200)}, {n(1, 6)}.º {pick(['Esq.', 'Dto.'])}"
    case("address", "note", "a Lisbon street, floor and side", f"Morada: {a}, 1100-060 Lisboa", a)


def b25_passwords() -> None:  # noqa: PLR0915 - one list of cases
    p = password()
    case("password", "note", "an Italian parola d'ordine", f"la parola d'ordine del gruppo è {p}", p)
    p = password()
    case("password", "note", "a Swedish lösenordet är", f"lösenordet till skrivaren är {p}", p)
    p = password()
    case("password", "note", "a Czech heslo je", f"heslo do školní sítě je {p}", p)
    p = password()
    case("password", "note", "a Romanian parola este", f"parola de la wifi este {p}", p)
    p = password()
    case("password", "note", "a Greek κωδικός", f"ο κωδικός του wifi είναι {p}", p)
    p = password()
    case("password", "note", "a Hebrew הסיסמה היא", f"הסיסמה של הוויי-פיי היא {p}", p)
    p = password()
    case("password", "note", "a Persian رمز عبور", f"رمز عبور ایمیلم: {p}", p)
    p = password()
    case("password", "note", "a Tagalog ang password ay", f"ang password ng wifi ay {p}", p)
    p = password()
    case("password", "note", "a Hinglish 'mera password hai'", f"mera gmail ka password hai {p} yaar", p)
    p = password()
    case("password", "note", "a German Kennwort in prose", f"das Kennwort fürs Labor ist {p}", p)
    p = tok(6, "abcdefghjkmnpqrstuvwxyz") + str(n(10, 99))
    sp = "、".join(("大写" + c.upper()) if i % 3 == 0 else c for i, c in enumerate(p))
    case("password", "note", "a password spelled out in Chinese with 大写 marks", f"密码逐个字母念：{sp}", sp)
    p = tok(8, "abcdefghjkmnpqrstuvwxyz0123456789")
    sp = " ".join(p)
    case("password", "note", "a password with spaces between the characters", f"wifi pass (spaced so you can read it): {sp}", sp)
    p = tok(9, B62)
    arr = ", ".join(f"'{c}'" for c in p)
    case("password", "note", "a password as a Rust char array", f"let pw: [char; {len(p)}] = [{arr}];", arr)
    p = tok(8, B62)
    codes = ", ".join(str(ord(c)) for c in p)
    case("password", "note", "a password as char codes in JavaScript", f"const pass = String.fromCharCode({codes});", codes)
    p = password()
    case("password", "note", "login:pass pair with no word for password", f"ftp lab — lihua:{p}", p)
    p = password()
    case("password", "note", "a Korean 비밀번호는 in prose", f"도서관 컴퓨터 비밀번호는 {p} 입니다", p)
    p = password()
    case("password", "note", "an Indonesian sandinya", f"sandinya {p}, jangan disebar ya", p)
    p = password()
    case("password", "note", "a Ukrainian пароль", f"пароль до вайфаю — {p}", p)


def b25_emails() -> None:
    e = f"{pick(['giulia.rossi', 'marco_b'])} chiocciola {pick(['libero', 'gmail'])} punto it"
    case("email", "note", "an Italian e-mail read aloud (chiocciola/punto)", f"scrivimi a {e}", e)
    e = f"{pick(['jan.novak', 'petra_k'])} zavináč {pick(['seznam', 'email'])} tečka cz"
    case("email", "note", "a Czech e-mail read aloud (zavináč/tečka)", f"můj e-mail je {e}", e)
    e = f"{pick(['pierre.martin', 'claire_d'])} arobase {pick(['orange', 'free'])} point fr"
    case("email", "note", "a French e-mail read aloud (arobase/point)", f"mon adresse mail : {e}", e)
    e = f"{pick(['joao.silva', 'ana_paula'])} arroba {pick(['uol', 'bol'])} ponto com ponto br"
    case("email", "note", "a Portuguese e-mail read aloud (arroba/ponto)", f"meu e-mail é {e}", e)
    e = f"{pick(['erik.larsson', 'anna_l'])} snabel-a {pick(['telia', 'gmail'])} punkt se"
    case("email", "note", "a Swedish e-mail read aloud (snabel-a/punkt)", f"maila mig på {e}", e)
    e = f"{pick(['zhaolei', 'sunli2000'])} at {pick(['foxmail', '139'])} 点 com"
    case("email", "note", "a Chinese e-mail read aloud with at and 点", f"我的邮箱：{e}", e)
    e = f"{pick(['mehmet.yilmaz', 'ayse_k'])} et {pick(['gmail', 'hotmail'])} nokta com"
    case("email", "note", "a Turkish e-mail read aloud (et/nokta)", f"mail adresim {e}", e)
    e = f"{pick(['li.hua', 'wangqiang'])} (at) {pick(['163', 'pku.edu'])} (dot) cn"
    case("email", "note", "an e-mail with (at) and (dot)", f"email: {e}", e)


def b25_keys() -> None:
    k = tok(32, B62)
    case("api_key", "note", "a French clé API", f"ma clé API pour la météo : {k}", k)
    k = tok(40, HEX)
    case("api_key", "note", "a Chinese 秘钥 (typo of 密钥) in prose", f"地图接口的秘钥是 {k}", k)
    k = tok(32, HEX)
    case("api_key", "note", "a Russian ключ API", f"ключ API сервиса: {k}", k)
    k = tok(43, B62 + "-_")
    case("api_key", "note", "a Korean API 키", f"API 키: {k} (유출 금지)", k)
    k = tok(24, B62)
    case("api_key", "note", "an app secret after 'secret' in an English sentence", f"the app's secret is {k}, don't commit it", k)
    k = tok(36, B62)
    case("api_key", "note", "a token in Portuguese prose", f"o token de acesso da API é {k}", k)
    k1, k2 = tok(18, B62), tok(18, B62)
    case("api_key", "note", "a key given in two halves in Chinese", f"key 前半段 {k1}\n后半段 {k2}", k1, k2)
    k = tok(40, B62)
    case("api_key", "json", "a value under an unnamed field of a credentials object", f'{{"credentials": {{"svc": "{k}"}}}}', k)


def b25_phrases() -> None:
    m = mnemonic(12)
    t = layout(m, "ar")
    case("recovery_phrase", "note", "a seed phrase typed in the Arabic layout", f"عبارة الاسترداد: {t}", t)
    m = mnemonic(12)
    t = layout(m, "uk")
    case("recovery_phrase", "note", "a seed phrase typed in the Ukrainian layout", f"seed (забув перемкнути розкладку): {t}", t)
    m = mnemonic(12)
    t = layout(m, "fa")
    case("recovery_phrase", "note", "a seed phrase typed in the Persian layout", f"کلمات بازیابی کیف پول: {t}", t)


def b25_mobiles() -> None:
    m = f"+975 17 {digits(3)} {digits(3)}"
    case("mobile", "note", "a Bhutanese mobile", f"My mobile: {m}", m)
    m = script_digits(f"09{digits(2)} {digits(3)} {digits(4)}", "۰")
    case("mobile", "note", "an Iranian mobile in Persian digits", f"شماره همراه من {m}", m)
    m = f"+855 {n(10, 99)} {digits(3)} {digits(3)}"
    case("mobile", "note", "a Cambodian mobile", f"លេខទូរស័ព្ទ {m}", m)
    m = f"+509 {n(30, 49)} {digits(2)} {digits(4)}"
    case("mobile", "note", "a Haitian mobile", f"nimewo telefòn mwen se {m}", m)


def b25_negatives() -> None:  # noqa: PLR0915 - one list of texts
    neg("a DOI and an issue number", "Nature 521, 436–444 (2015), doi:10.1038/nature14539, issue No. 7553")
    neg("a Spanish law article", "Artículo 18.4 de la Constitución Española: la ley limitará el uso de la informática.")
    neg("a Korean textbook section", "제3장 제2절 문제 15번: 다음 수열의 합을 구하시오. 1234567을 소인수분해하라.")
    neg("an order number", "订单号 2024120712345678 已发货，物流单号请在 App 查看（公司统一单号）")
    neg("a French course code and room", "UE n° INF3450, salle B204, bâtiment C — cours magistral le jeudi")
    neg("a German norm number", "Nach DIN 5008, Nr. 12 der Norm, werden Telefonnummern gegliedert.")
    neg("a passport format in Russian", "Номер загранпаспорта состоит из 9 цифр: 2 цифры серии и 7 цифр номера.")
    neg("an ID explanation in Arabic", "يتكون الرقم الوطني من 10 أرقام، ويبدأ بالرقم 1 للمواطنين.")
    neg("password advice in Italian", "La password deve essere lunga almeno 12 caratteri e non contenere il nome.")
    neg("a password meaning in Korean", "비밀번호는 영어로 password라고 한다. 비밀번호는 자주 바꾸는 것이 좋다.")
    neg("hashing in Chinese", "密码应使用 Argon2 或 bcrypt 加盐哈希后存储，不能明文保存。")
    neg("a Rust array of letters", "let vowels: [char; 5] = ['a', 'e', 'i', 'o', 'u'];")
    neg("char codes of ABC", "String.fromCharCode(65, 66, 67) returns \"ABC\".")
    neg("a spelling bee word", "Spelling bee: r-h-y-t-h-m, rhythm; m-i-s-s-p-e-l-l, misspell.")
    neg("chiocciola the snail", "La chiocciola è un mollusco; il punto è che si muove lentamente.")
    neg("zavináč in a Czech lesson", "Znak zavináč (@) se v češtině jmenuje podle rolády; tečka je konec věty.")
    neg("Chinese 点 and at in prose", "老师说 at 是介词，三点 com 课在二楼。")
    neg("a public library address in Portuguese", "Biblioteca Nacional: Campo Grande 83, 1749-081 Lisboa. Entrada livre.")
    neg("a station address in Korean", "서울역: 서울특별시 용산구 한강대로 405, 1층 안내센터")
    neg("a Bulgarian university address", "Софийски университет: бул. Цар Освободител 15, София 1504")
    neg("a historical table of kings", "| Name | Born | Reign |\n|---|---|---|\n| Louis XIV | 1638 | 1643-1715 |\n| Peter I | 1672 | 1682-1725 |\n")
    neg("a roster of authors and ISBN", "Nom\tNé le\tISBN\nVictor Hugo\t26/02/1802\t9782070409228\n")
    neg("an MD5 named as a checksum", "md5sum: d41d8cd98f00b204e9800998ecf8427e (empty file)")
    neg("a Docker image digest", "image: nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31")
    neg("real Ukrainian words", "Слова уроку: хліб, вода, їжак, ґанок, євро, сонце, книжка.")
    neg("real Arabic words", "كلمات الدرس: كتاب، قلم، مدرسة، بيت، شمس، قمر، ماء.")
    neg("real Persian words", "واژه‌های درس: کتاب، دفتر، مدرسه، خانه، آب، نان.")
    neg("a Saudi plate format explained", "Saudi plates show three letters and up to four digits, in Arabic and Latin.")
    neg("map coordinates of a mountain", "Mount Everest: 27.9881° N, 86.9250° E, 8,848.86 m.")
    neg("an API key concept in French", "Une clé API identifie l'application ; ne la mettez jamais dans le dépôt Git.")


def build(batch: str) -> None:
    if batch == "24":
        seed(2424)
        for f in (b24_ids, b24_passports, b24_plates, b24_addresses, b24_passwords, b24_emails, b24_keys, b24_phrases,
                  b24_mobiles, b24_negatives):
            f()
    else:
        seed(2525)
        for f in (b25_ids, b25_passports, b25_plates, b25_addresses, b25_passwords, b25_emails, b25_keys, b25_phrases,
                  b25_mobiles, b25_negatives):
            f()


_ABOUT = {
    "24": ("Held-out batch 24: structural cases across locales, generated before the session-20 rules and read while "
           "they were written.", "seed 2424"),
    "25": ("Held-out batch 25: generated with heldout24 before any session-20 rule, and not read while the rules "
           "were written.", "seed 2525; other countries, languages and phrasings of heldout24's families"),
}


def print_cases(batch: str) -> None:
    counts: dict[str, int] = {}
    for c in CASES:
        counts[c[0]] = counts.get(c[0], 0) + 1
    title, how = _ABOUT[batch]
    print(f'r"""{title}\n')
    print("What country-by-country rules do not carry (heldout20): identifiers after a label in their own language or")
    print("in a form row, homes known by their parts, passwords known by their role (bare, spelled, char arrays), plates")
    print("in other scripts, e-mails read aloud, keys without a prefix, phrases in another keyboard layout;")
    print(f"benchmarks/gate_corpus/gen24.py ({how}).")
    print(f"{len(CASES)} cases: " + ", ".join(f"{k} {v}" for k, v in counts.items()) + ".")
    print("FIRST_RUN (filled in by hand after the first run)\n")
    print("Shapes, one per case (category: shape):")
    print("\n".join(f"{c[0]}: {c[4]}" for c in CASES))
    print('"""\n\nfrom benchmarks.gate_corpus import Case\n\nCASES: list[Case] = [')
    for i, (cat, cont, text, secrets, _shape) in enumerate(CASES, start=1):
        print(f"    Case({f'h{batch}-{i:03d}'!r}, {cat!r}, {cont!r},\n         {text!r},\n         {secrets!r}),")
    print("]")


def print_negatives(batch: str) -> None:
    name = "heldout24" if batch == "24" else "heldout25"
    print(f'"""Hard negatives generated with ``{name}`` (session 20), before the detectors changed.\n')
    print(f"{len(NEGS)} texts that hold no one's secret but share the structures of {name}: labelled numbers that")
    print("are not personal, public addresses, words for 'at' and 'dot' in prose, spelled words, char arrays of")
    print("letters, tables of historical people, named checksums, real words of the other keyboard's language.")
    print(f"benchmarks/gate_corpus/gen24.py ({_ABOUT[batch][1]}).")
    print("FIRST_RUN (filled in by hand after the first run)\n")
    print("Shapes, one per text:")
    print("\n".join(f"- {s}" for s, _t in NEGS))
    print('"""\n\nNEGATIVES: list[str] = [')
    for _s, t in NEGS:
        print(f"    {t!r},")
    print("]")


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "cases24"
    build(what[-2:])
    print_negatives(what[-2:]) if what.startswith("negatives") else print_cases(what[-2:])
