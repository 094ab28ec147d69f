"""Identity documents of other countries: ID, tax and social-insurance numbers, passports and permits.

Each number has its own form: a Korean resident registration number is a birth
date and seven digits, a Singapore NRIC a letter, seven digits and a check
letter, a Brazilian CPF eleven digits with two check digits … A form, a
shipping label or a chat message puts one next to a word for it in its own
language (주민등록번호, マイナンバー, DNI, CPF, Aadhaar, SSN, NINO …).

How a number is judged:

* a shape no statistic or product code has, with a check that passes
  (``900101-1234568`` with its date and check digit, ``S1234567D``,
  ``123.456.789-09``, ``X1234567L``, ``1 85 05 78 006 084 36``, a codice
  fiscale, a CURP) is withheld wherever it stands;
* a shape that is also a phone, an order or an ISBN number (nine or twelve
  digits, ``12345678Z``) is withheld only under its word — on its line, or in
  the header or the line above in a table, a form or a JSON object — and only
  when its check passes (Luhn for a SIN, Verhoeff for Aadhaar, the DNI letter …);
* a number without a check (a PAN, a NINO, a Macau or Vietnamese ID) needs both
  its word and its exact shape.

Passports, visas and travel permits (港澳通行证, 台胞证, 回乡证) have no check
of their own outside the machine-readable zone (:mod:`mrz`), so a passport
number is its word's: a document number (``EJ7530853``, ``CJKX06W15``,
``TK3066585``, ``E 2 0 2 3 5 3 4 3`` as OCR spaced it) on the word's line, in
the column under it, or on a line below that says it is the number
(``"documentNumber"``, ``Nummer``, ``番号``). A passport photo's size or a
fee under the same word is not a document number.

Invented numbers that pass are as private in a question as real ones: the gate
cannot tell them apart, and neither could the person reading the payload.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from desktop_kb.qa.detectors.base import PASSPORT, RESIDENT_ID, Finding, sequential
from desktop_kb.qa.detectors.examples import EXAMPLE_RE
from desktop_kb.qa.detectors.numbers import (
    digits_of,
    luhn_ok,
    real_date,
    valid_ssn,
    valid_taiwan_id,
)


def _date_ok(year: int, month: int, day: int) -> bool:
    return real_date(year, month, day, earliest=1880)  # (PESEL and RRN code the 1800s too)


# ----- checks ------------------------------------------------------------------------------------

def _kr_rrn_date(d: str) -> bool:
    century = {"1": 1900, "2": 1900, "5": 1900, "6": 1900, "3": 2000, "4": 2000, "7": 2000, "8": 2000,
               "9": 1800, "0": 1800}[d[6]]
    return _date_ok(century + int(d[:2]), int(d[2:4]), int(d[4:6]))


def kr_rrn_checksum(d: str) -> bool:
    total = sum(int(c) * w for c, w in zip(d[:12], (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5), strict=True))
    return (11 - total % 11) % 10 == int(d[12])


def jp_my_number(value: str) -> bool:
    d = digits_of(value)
    total = sum(int(c) * (n + 1 if n <= 6 else n - 5) for n, c in enumerate(reversed(d[:11]), start=1))
    r = total % 11
    return (0 if r <= 1 else 11 - r) == int(d[11])


_NRIC_LETTERS = {"ST": "JZIHGFEDCBA", "FG": "XWUTRQPNMLK", "M": "KLJNPQRTUWX"}


def sg_nric(value: str) -> bool:
    first, digits, check = value[0], value[1:8], value[8]
    total = sum(int(c) * w for c, w in zip(digits, (2, 7, 6, 5, 4, 3, 2), strict=True))
    total += {"S": 0, "F": 0, "T": 4, "G": 4, "M": 3}[first]
    letters = next(v for k, v in _NRIC_LETTERS.items() if first in k)
    return letters[total % 11] == check


_VERHOEFF_D = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
               [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
               [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
               [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]]
_VERHOEFF_P = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
               [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
               [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8]]


def verhoeff_ok(digits: str) -> bool:
    c = 0
    for i, ch in enumerate(reversed(digits)):
        c = _VERHOEFF_D[c][_VERHOEFF_P[i % 8][int(ch)]]
    return c == 0


def br_cpf(value: str) -> bool:
    d = [int(c) for c in digits_of(value)]
    if len(set(d)) == 1:
        return False
    for n in (9, 10):
        check = sum(v * w for v, w in zip(d[:n], range(n + 1, 1, -1), strict=True)) * 10 % 11 % 10
        if check != d[n]:
            return False
    return True


_DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def es_dni(value: str) -> bool:
    v = re.sub(r"[\s.-]", "", value).upper()
    number = str("XYZ".index(v[0])) + v[1:-1] if v[0] in "XYZ" else v[:-1]
    return _DNI_LETTERS[int(number) % 23] == v[-1]


def ssn_ok(value: str) -> bool:
    d = digits_of(value)
    return valid_ssn(f"{d[:3]}-{d[3:5]}-{d[5:]}")


def itin_ok(value: str) -> bool:
    d = digits_of(value)
    group = int(d[3:5])
    return d[0] == "9" and (50 <= group <= 65 or 70 <= group <= 88 or 90 <= group <= 92 or 94 <= group <= 99)


_NINO_BAD_PREFIX = {"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"}


def uk_nino(value: str) -> bool:
    v = value.replace(" ", "").upper()
    return v[:2] not in _NINO_BAD_PREFIX


def ca_sin(value: str) -> bool:
    d = digits_of(value)
    return d[0] not in "08" and luhn_ok(d)


def fr_nir(value: str) -> bool:
    v = value.replace(" ", "").upper()
    body, key = v[:13], int(v[13:])
    body = body.replace("2A", "19").replace("2B", "18")
    return 97 - int(body) % 97 == key


_CF_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23]


def it_codice_fiscale(value: str) -> bool:
    v = value.upper()
    total = 0
    for i, c in enumerate(v[:15]):
        n = int(c) if c.isdigit() else ord(c) - 65
        total += _CF_ODD[n] if i % 2 == 0 else n
    return chr(65 + total % 26) == v[15]


def de_tax_id(value: str) -> bool:
    d = digits_of(value)
    if d[0] == "0":
        return False
    product = 10
    for c in d[:10]:
        s = (int(c) + product) % 10 or 10
        product = s * 2 % 11
    return (11 - product) % 10 == int(d[10])


def nl_bsn(value: str) -> bool:
    d = digits_of(value)
    total = sum(int(c) * w for c, w in zip(d[:8], range(9, 1, -1), strict=True)) - int(d[8])
    return total % 11 == 0 and total != 0


def pl_pesel(value: str) -> bool:
    d = [int(c) for c in value]
    if sum(v * w for v, w in zip(d[:10], (1, 3, 7, 9, 1, 3, 7, 9, 1, 3), strict=True)) * 9 % 10 != d[10]:
        return False
    month = d[2] * 10 + d[3]
    century = {0: 1900, 8: 1800, 2: 2000, 4: 2100, 6: 2200}.get(month // 20 * 2 if month > 12 else 0, 1900)
    return _date_ok(century + d[0] * 10 + d[1], month % 20, d[4] * 10 + d[5])


_CURP_CHARS = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"


def mx_curp(value: str) -> bool:
    total = sum(_CURP_CHARS.index(c) * (18 - i) for i, c in enumerate(value[:17]))
    century = 1900 if value[16].isdigit() else 2000  # the 17th character tells the century
    return (10 - total % 10) % 10 == int(value[17]) and _date_ok(century + int(value[4:6]), int(value[6:8]),
                                                                int(value[8:10]))


def my_mykad(value: str) -> bool:
    d = digits_of(value)
    state = int(d[6:8])
    return (_date_ok(1900 + int(d[:2]), int(d[2:4]), int(d[4:6])) or _date_ok(2000 + int(d[:2]), int(d[2:4]), int(d[4:6]))) \
        and (1 <= state <= 16 or 21 <= state <= 59 or 60 <= state <= 68 or 71 <= state <= 93 or state in (98, 99))


def th_id(value: str) -> bool:
    d = digits_of(value)
    total = sum(int(c) * w for c, w in zip(d[:12], range(13, 1, -1), strict=True))
    return (11 - total % 11) % 10 == int(d[12]) and d[0] != "0"


def cl_rut(value: str) -> bool:
    v = re.sub(r"[.\s-]", "", value).upper()
    body, check = v[:-1], v[-1]
    total, factor = 0, 2
    for c in reversed(body):
        total += int(c) * factor
        factor = 2 if factor == 7 else factor + 1
    expected = 11 - total % 11
    return check == {11: "0", 10: "K"}.get(expected, str(expected))


def ru_snils(value: str) -> bool:
    d = digits_of(value)
    total = sum(int(c) * w for c, w in zip(d[:9], range(9, 0, -1), strict=True))
    check = total % 101 if total > 101 else total
    return (0 if check in (100, 101) else check) == int(d[9:])


def ru_inn(value: str) -> bool:
    """A Russian taxpayer number: a person's twelve digits with two checks (an organisation's ten with one)."""
    d = [int(c) for c in digits_of(value)]
    if len(d) == 12:
        c1 = sum(a * w for a, w in zip(d[:10], (7, 2, 4, 10, 3, 5, 9, 4, 6, 8), strict=True)) % 11 % 10
        c2 = sum(a * w for a, w in zip(d[:11], (3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8), strict=True)) % 11 % 10
        return (c1, c2) == (d[10], d[11])
    return len(d) == 10 and sum(a * w for a, w in zip(d[:9], (2, 4, 10, 3, 5, 9, 4, 6, 8), strict=True)) % 11 % 10 == d[9]


def sa_id(value: str) -> bool:
    """Saudi Arabia's national ID (1…) or resident's iqama (2…): ten digits, Luhn."""
    d = digits_of(value)
    return len(d) == 10 and d[0] in "12" and luhn_ok(d) and len(set(d)) > 2


def tr_kimlik(value: str) -> bool:
    d = [int(c) for c in digits_of(value)]
    return d[0] != 0 and (sum(d[0:9:2]) * 7 - sum(d[1:8:2])) % 10 == d[9] and sum(d[:10]) % 10 == d[10]


def se_personnummer(value: str) -> bool:
    """YYMMDD-NNNC (a century may lead): a real date (day + 60 for a coordination number), Luhn on the ten."""
    d = digits_of(value)[-10:]
    day = int(d[4:6]) - (60 if int(d[4:6]) > 60 else 0)
    return 1 <= int(d[2:4]) <= 12 and 1 <= day <= 31 and luhn_ok(d)


def no_fodselsnummer(value: str) -> bool:
    d = [int(c) for c in digits_of(value)]
    day = d[0] * 10 + d[1] - (40 if d[0] >= 4 else 0)  # (a D-number adds 40 to the day)
    if not (1 <= day <= 31 and 1 <= d[2] * 10 + d[3] <= 12):
        return False
    checks = []
    for weights in ((3, 7, 6, 1, 8, 9, 4, 5, 2), (5, 4, 3, 2, 7, 6, 5, 4, 3, 2)):
        k = (11 - sum(a * b for a, b in zip(d, weights, strict=False)) % 11) % 11
        checks.append(k)
    return checks == d[9:11]


def fi_hetu(value: str) -> bool:
    v = value.upper()
    return 1 <= int(v[2:4]) <= 12 and 1 <= int(v[:2]) <= 31 \
        and "0123456789ABCDEFHJKLMNPRSTUVWXY"[int(v[:6] + v[7:10]) % 31] == v[10]


def be_national_number(value: str) -> bool:
    d = digits_of(value)
    return any(97 - int(prefix + d[:9]) % 97 == int(d[9:]) for prefix in ("", "2")) and int(d[2:4]) <= 12


def pt_nif(value: str) -> bool:
    d = digits_of(value)
    check = 11 - sum(int(c) * (9 - i) for i, c in enumerate(d[:8])) % 11
    return d[0] in "1235689" and (0 if check >= 10 else check) == int(d[8])


def ro_cnp(value: str) -> bool:
    d = digits_of(value)
    check = sum(int(a) * int(b) for a, b in zip(d[:12], "279146358279", strict=True)) % 11
    return d[0] in "12345678" and 1 <= int(d[3:5]) <= 12 and 1 <= int(d[5:7]) <= 31 \
        and (1 if check == 10 else check) == int(d[12])


def ar_cuit(value: str) -> bool:
    """Argentina's CUIL/CUIT: a type (20, 23, 24, 27 for people; 30, 33, 34 for companies), the DNI and
    a mod-11 check digit (under its word: one number in eleven passes)."""
    d = digits_of(value)
    if len(d) != 11 or d[:2] not in ("20", "23", "24", "27", "30", "33", "34"):
        return False
    check = 11 - sum(int(a) * w for a, w in zip(d[:10], (5, 4, 3, 2, 7, 6, 5, 4, 3, 2), strict=True)) % 11
    return {11: 0, 10: 9}.get(check, check) == int(d[10])


def za_id(value: str) -> bool:
    """South Africa's ID number: the birth date, four digits, citizenship (0/1), 8 or 9, Luhn."""
    d = digits_of(value)
    return len(d) == 13 and d[10] in "01" and 1 <= int(d[2:4]) <= 12 and 1 <= int(d[4:6]) <= 31 and luhn_ok(d)


def il_id(value: str) -> bool:
    """Israel's Teudat Zehut: nine digits (shorter ones padded with zeros) with Luhn's check."""
    d = digits_of(value)
    return len(d) == 9 and len(set(d)) > 2 and luhn_ok(d)


def ie_ppsn(value: str) -> bool:
    """Ireland's PPS number: seven digits, a mod-23 check letter, perhaps a second letter (weighted 9)."""
    v = value.replace(" ", "").upper()
    total = sum(int(c) * (8 - i) for i, c in enumerate(v[:7]))
    if len(v) == 9 and v[8] != "W":
        total += (ord(v[8]) - 64) * 9
    return "WABCDEFGHIJKLMNOPQRSTUV"[total % 23] == v[7]


def ch_ahv(value: str) -> bool:
    """Switzerland's AHV/AVS number: 756 and an EAN-13 check."""
    d = digits_of(value)
    total = sum(int(c) * (1 if i % 2 == 0 else 3) for i, c in enumerate(d[:12]))
    return len(d) == 13 and d.startswith("756") and (10 - total % 10) % 10 == int(d[12])


def at_svnr(value: str) -> bool:
    """Austria's social insurance number: three serial digits, a mod-11 check, then the birth date ddmmyy."""
    d = digits_of(value)
    if len(d) != 10 or d[0] == "0" or not (1 <= int(d[4:6]) <= 31 and 1 <= int(d[6:8]) <= 12):
        return False
    total = sum(int(c) * w for c, w in zip(d[:3] + d[4:], (3, 7, 9, 5, 8, 4, 2, 1, 6), strict=True))
    return total % 11 == int(d[3])


def ec_cedula(value: str) -> bool:
    """Ecuador's cédula: the province (01-24, 30), a third digit under 6, a 2-1-2-1 weighted mod-10 check."""
    d = digits_of(value)
    if len(d) != 10 or not (1 <= int(d[:2]) <= 24 or d[:2] == "30") or int(d[2]) >= 6:
        return False
    total = sum(p - 9 if (p := int(c) * (2 if i % 2 == 0 else 1)) > 9 else p for i, c in enumerate(d[:9]))
    return (10 - total % 10) % 10 == int(d[9])


def uy_ci(value: str) -> bool:
    """Uruguay's cédula de identidad: seven digits weighted 2987634, a mod-10 check digit."""
    d = digits_of(value).rjust(8, "0")
    if len(d) != 8:
        return False
    total = sum(int(c) * w for c, w in zip(d[:7], (2, 9, 8, 7, 6, 3, 4), strict=True))
    return (10 - total % 10) % 10 == int(d[7])


def ee_isikukood(value: str) -> bool:
    """Estonia's and Lithuania's personal code: century and sex, birth date, serial, a two-pass mod-11 check."""
    d = [int(c) for c in digits_of(value)]
    if not 1 <= d[0] <= 6 or not _date_ok(1800 + 100 * ((d[0] - 1) // 2) + d[1] * 10 + d[2], d[3] * 10 + d[4],
                                          d[5] * 10 + d[6]):
        return False
    r = sum(a * b for a, b in zip(d[:10], (1, 2, 3, 4, 5, 6, 7, 8, 9, 1), strict=True)) % 11
    if r == 10:
        r = sum(a * b for a, b in zip(d[:10], (3, 4, 5, 6, 7, 8, 9, 1, 2, 3), strict=True)) % 11 % 10
    return r == d[10]


def bg_egn(value: str) -> bool:
    """Bulgaria's ЕГН: birth date (month + 20 for the 1800s, + 40 for the 2000s), serial, a weighted check."""
    d = [int(c) for c in digits_of(value)]
    month = d[2] * 10 + d[3]
    century, month = (2000, month - 40) if month > 40 else (1800, month - 20) if month > 20 else (1900, month)
    if not _date_ok(century + d[0] * 10 + d[1], month, d[4] * 10 + d[5]):
        return False
    r = sum(a * b for a, b in zip(d[:9], (2, 4, 8, 5, 10, 9, 7, 3, 6), strict=True)) % 11
    return (0 if r == 10 else r) == d[9]


def iso7064_mod11_10(digits: str) -> bool:
    """ISO 7064 MOD 11,10 over all digits but the last (Croatia's OIB, Germany's Steuer-ID)."""
    product = 10
    for c in digits[:-1]:
        s = (int(c) + product) % 10 or 10
        product = s * 2 % 11
    return (11 - product) % 10 == int(digits[-1])


def hr_oib(value: str) -> bool:
    d = digits_of(value)
    return len(set(d)) > 2 and iso7064_mod11_10(d)


def dk_cpr(value: str) -> bool:
    """Denmark's CPR number: a real birth date (DDMMYY) and four digits (no check since 2007)."""
    d = digits_of(value)
    day, month, year = int(d[:2]), int(d[2:4]), int(d[4:6])
    return _date_ok(1900 + year, month, day) or _date_ok(2000 + year, month, day)


def is_kennitala(value: str) -> bool:
    """Iceland's kennitala: DDMMYY, two digits, a mod-11 check, the century."""
    d = [int(c) for c in digits_of(value)]
    c = 11 - sum(a * b for a, b in zip(d[:8], (3, 2, 7, 6, 5, 4, 3, 2), strict=True)) % 11
    return dk_cpr(value) and (0 if c == 11 else c) == d[8]


def yu_jmbg(value: str) -> bool:
    """The JMBG of Serbia, Bosnia, North Macedonia and Montenegro, Slovenia's EMŠO: DDMMYYY, region, serial
    and a mod-11 check."""
    d = [int(c) for c in digits_of(value)]
    year = d[4] * 100 + d[5] * 10 + d[6]
    if not _date_ok(year + (1000 if year >= 800 else 2000), d[2] * 10 + d[3], d[0] * 10 + d[1]):
        return False
    m = 11 - sum(a * b for a, b in zip(d[:12], (7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2), strict=True)) % 11
    return (0 if m > 9 else m) == d[12]


def au_tfn(value: str) -> bool:
    d = digits_of(value)
    return len(set(d)) > 2 and sum(int(c) * w for c, w in zip(d, (1, 4, 3, 7, 5, 8, 6, 9, 10), strict=True)) % 11 == 0


def ir_melli(value: str) -> bool:
    d = digits_of(value)
    r = sum(int(c) * (10 - i) for i, c in enumerate(d[:9])) % 11
    return len(set(d)) > 2 and (r if r < 2 else 11 - r) == int(d[9])


def cz_rodne_cislo(value: str) -> bool:
    """Czech and Slovak birth number: YYMMDD (month + 50 for women, + 20 since 2004), a serial; the ten
    digits divide by 11."""
    d = digits_of(value)
    month = int(d[2:4]) % 50
    month = month - 20 if month > 20 else month
    year = int(d[:2])
    return len(d) == 10 and int(d) % 11 == 0 and (_date_ok(1900 + year, month, int(d[4:6]))
                                                  or _date_ok(2000 + year, month, int(d[4:6])))


def gr_amka(value: str) -> bool:
    """Greece's AMKA: the birth date (DDMMYY), five digits, Luhn's check."""
    return dk_cpr(value) and luhn_ok(digits_of(value))


def ae_emirates_id(value: str) -> bool:
    """The UAE's Emirates ID: 784, the birth year, seven digits, Luhn's check."""
    d = digits_of(value)
    return d.startswith("784") and 1900 <= int(d[3:7]) <= 2100 and luhn_ok(d)


def uk_nhs(value: str) -> bool:
    """The UK's NHS (and Scotland's CHI) number: ten digits, weights 10 to 2, a mod-11 check (10 never issued)."""
    d = digits_of(value)
    if len(d) != 10 or len(set(d)) < 3:
        return False
    c = 11 - sum(int(a) * w for a, w in zip(d[:9], range(10, 1, -1), strict=True)) % 11
    return c != 10 and (0 if c == 11 else c) == int(d[9])


def hu_taj(value: str) -> bool:
    """Hungary's TAJ number: eight digits weighted 3 and 7 in turn, the sum's last digit."""
    d = digits_of(value)
    return len(d) == 9 and len(set(d)) > 2 and sum(int(a) * (3 if i % 2 == 0 else 7)
                                                   for i, a in enumerate(d[:8])) % 10 == int(d[8])


def lv_personas_kods(value: str) -> bool:
    """Latvia's personas kods: the old form is DDMMYY, the century digit, four digits and a check; the
    new one (2017 on) starts 32 and has no date."""
    d = digits_of(value)
    if len(d) != 11:
        return False
    if d.startswith("32"):
        return "-" in value
    century = {"0": 1800, "1": 1900, "2": 2000}.get(d[6])
    if century is None or not _date_ok(century + int(d[4:6]), int(d[2:4]), int(d[:2])):
        return False
    c = (1101 - sum(int(a) * w for a, w in zip(d[:10], (1, 6, 3, 7, 9, 10, 5, 8, 4, 2), strict=True))) % 11
    return c < 10 and c == int(d[10])


def lu_matricule(value: str) -> bool:
    """Luxembourg's national identification number: YYYYMMDD, three digits, a Luhn and a Verhoeff check."""
    d = digits_of(value)
    return len(d) == 13 and _date_ok(int(d[:4]), int(d[4:6]), int(d[6:8])) and luhn_ok(d[:12]) \
        and verhoeff_ok(d[:11] + d[12])


def es_nss(value: str) -> bool:
    """Spain's social security number: a province (01-53, 66), eight digits, two check digits (mod 97)."""
    d = digits_of(value)
    return len(d) == 12 and (1 <= int(d[:2]) <= 53 or d[:2] == "66") and int(d[:10]) % 97 == int(d[10:])


def de_rvnr(value: str) -> bool:
    """Germany's Rentenversicherungsnummer: area, birth date DDMMYY, the surname's initial, a serial and a
    check over the letter's number (A = 01) and the digits."""
    v = re.sub(r"[\s/-]", "", value).upper()
    if len(v) != 12 or not (v[:8].isdigit() and v[8].isalpha() and v[9:].isdigit()) or not v[8].isascii():
        return False
    day, month = int(v[2:4]), int(v[4:6])
    if not (1 <= day <= 31 and 1 <= month <= 12):
        return False
    body = v[:8] + f"{ord(v[8]) - 64:02d}" + v[9:11]
    total = sum(sum(divmod(int(a) * w, 10)) for a, w in zip(body, (2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1), strict=True))
    return total % 10 == int(v[11])


_MBI_LETTERS = "ACDEFGHJKMNPQRTUVWXY"
_MBI_SHAPE = ("C", "A", "N", "D", "A", "N", "D", "A", "A", "D", "D")  # C 1-9, A letter, N letter or digit, D digit


def us_mbi(value: str) -> bool:
    """The US Medicare Beneficiary Identifier: eleven places, each a digit or a letter (never S, L, O, I, B, Z)."""
    v = value.replace("-", "").replace(" ", "").upper()
    if len(v) != 11:
        return False
    for c, kind in zip(v, _MBI_SHAPE, strict=True):
        ok = {"C": c in "123456789", "D": c.isdigit(), "A": c in _MBI_LETTERS,
              "N": c.isdigit() or c in _MBI_LETTERS}[kind]
        if not ok:
            return False
    return True


def mn_register(value: str) -> bool:
    """Mongolia's register number: two Cyrillic letters and the birth date YYMMDD (month + 20 from 2000), two digits."""
    d = value[2:]
    month = int(d[2:4])
    century, month = (2000, month - 20) if month > 20 else (1900, month)
    return _date_ok(century + int(d[:2]), month, int(d[4:6]))


def br_cns(value: str) -> bool:
    """Brazil's Cartão Nacional de Saúde: fifteen digits, starting 1, 2, 7, 8 or 9, weights 15 to 1, mod 11."""
    d = digits_of(value)
    return len(d) == 15 and d[0] in "12789" and len(set(d)) > 2 \
        and sum(int(a) * (15 - i) for i, a in enumerate(d)) % 11 == 0


def _any(_value: str) -> bool:
    return True


def _document_number(value: str) -> bool:
    """Six or more digits, or eight or more letters and digits, two of each at least (``CJKX06W15``,
    ``X4RTBPFW4``) — not a date or a word."""
    v = value.replace(" ", "").replace("-", "")
    digits = sum(c.isdigit() for c in v)
    if digits == len(v):
        return not _date_ok(int(v[:4]), int(v[4:6]), int(v[6:8])) if len(v) == 8 else len(set(v)) > 2
    return digits >= 6 or (digits >= 2 and len(v) >= 8 and len(v) - digits >= 2)


# ----- words for each number, in its own language (and English, Chinese, Japanese) ------------------

_W = {
    "kr": r"주민등록번호|주민번호|주민\s*등록|외국인\s*등록번호|외국인등록|resident\s+registration|(?-i:RRN)|韩国身份证|韓國身分證|住民登録番号",
    "jp": r"マイナンバー|個人番号|個人番號|个人编号|个人番号|my\s*number|mynumber|kojin\s*bango|マイナ|在留カード|在留卡|"
          r"residence\s+card|zairyu",
    "sg": r"nric|(?-i:FIN)|新加坡身份证|新加坡身份證",
    "in_aadhaar": r"aadhaa?r|आधार|uidai|(?-i:UID)",
    "in_pan": r"(?-i:PAN)|permanent\s+account|पैन",
    "br": r"(?-i:CPF)|cadastro\s+de\s+pessoas?|巴西税号",
    "es": r"(?-i:DNI|NIE|NIF)|d\.n\.i|documento\s+(?:nacional\s+)?de\s+identidad|n[uú]mero\s+de\s+identidad|"
          r"identificaci[oó]n|西班牙身份证",
    "us_ssn": r"(?-i:SSN)|social\s+security|seguro\s+social|社会保障号|社會安全號|社会安全号|社安号|社會安全碼|"
              r"ソーシャル・?セキュリティ|社会保障番号|사회보장번호",
    "us_itin": r"(?-i:ITIN|TIN)|taxpayer\s+identification|tax\s+id",
    "uk": r"national\s+insurance|(?<![a-z])ni\s*(?:no|number|#)|(?-i:NINO)|国民保险号|國民保險號",
    "ca": r"(?-i:SIN|NAS)|social\s+insurance|assurance\s+sociale|社会保险号|社會保險號",
    "fr": r"s[ée]curit[ée]\s+sociale|(?-i:NIR)|insee|n°\s*s[ée]cu|carte\s+vitale|法国社保号",
    "mo": r"澳門|澳门|macau|macao|(?-i:BIR)",
    "tw": r"居留證|居留证|統一證號|統一证号|(?-i:ARC)|resident\s+certificate",
    "it": r"codice\s+fiscale",
    "de": r"steuer-?\s*id|steueridentifikationsnummer|identifikationsnummer|(?-i:IdNr)|steuer-?nummer",
    "nl": r"(?-i:BSN)|burgerservicenummer|sofi-?nummer",
    "pl": r"pesel",
    "th": r"เลขประจำตัวประชาชน|บัตรประชาชน|thai\s+id|泰国身份证",
    "cl": r"(?-i:RUT|RUN)|c[ée]dula",
    "ru": r"снилс|snils|(?-i:ИНН|INN)|инн\s+физ|идентификационный\s+номер\s+налогоплательщика",
    # Saudi Arabia: the national ID's and the iqama's words (before "other_id", which holds رقم الهوية alone)
    "sa": r"الهوية\s+الوطنية|رقم\s+الهوية|هوية\s+وطنية|رقم\s+الإقامة|إقامة|iqama|saudi\s+(?:national\s+)?id",
    "tr": r"t\.?\s?c\.?\s+kimlik|kimlik\s+(?:no|numaras)|(?-i:TCKN|TCKNO)",
    # Sweden, Norway, Finland: personnummer is the Swedish and the Norwegian word, hetu the Finnish one.
    "nordic": r"personnummer|person-?nr|personnr|samordningsnummer|f[øo]dselsnummer|henkil[öo]tunnus|"
              r"personbeteckning|(?<![a-z])hetu(?![a-z])",
    "be": r"rijksregisternummer|rijksregister|num[ée]ro\s+national|num[ée]ro\s+de\s+registre\s+national|(?-i:INSZ|NISS)",
    "pt": r"contribuinte|n[uú]mero\s+de\s+identifica[cç][aã]o\s+fiscal",
    "ro": r"(?-i:CNP)|cod\s+numeric\s+personal",
    "vn": r"(?-i:CCCD|CMND)|c[aă]n\s+c[uư][oớ]c|ch[uứ]ng\s+minh",
    "id": r"(?-i:NIK|KTP)|nomor\s+induk",
    "my": r"mykad|kad\s+pengenalan",
    "ar": r"(?-i:CUIL|CUIT|CDI)|c\.u\.i\.[lt]\.?|clave\s+[uú]nica",
    # (the acronym alone: "(?-i:SA)\s+id" left "\s+id" as a word of its own, which took the space
    # before "identity number", "identificación", "Identifikationsnummer" and hid those words)
    "za": r"(?-i:SA|RSA)|south\s+african\s+id|green\s+id\s+book|smart\s+id\s+card",
    "il": r"תעודת\s+זהות|ת\.ז|מספר\s+זהות|teudat\s+zehut|israeli\s+id|以色列身份证",
    "ie": r"(?-i:PPSN|PPS)|pps\s+(?:no|number)|personal\s+public\s+service",
    "ch": r"(?-i:AHV|AVS)|ahv-?nr|ahv-?nummer|num[ée]ro\s+avs|sozialversicherungsnummer|(?-i:SVNR|SV-Nr|RVNR|VSNR)|"
          r"versicherungsnummer|rentenversicherungsnummer|sv-nummer|e-card",
    "uk_nhs": r"(?-i:NHS|CHI)|nhs\s*(?:no|number|nr)|health\s+(?:and\s+care\s+)?number",
    "hu": r"(?-i:TAJ)|taj[\s-]*sz[áa]m|t[áa]rsadalombiztos[ií]t[áa]si\s+azonos[ií]t[óo]|ad[óo]azonos[ií]t[óo]",
    "lu": r"matricule|num[ée]ro\s+d'identification|identifiant\s+national|num[ée]ro\s+(?:de\s+)?s[ée]curit[ée]\s+sociale",
    "es_nss": r"(?-i:NSS|NUSS|NAF)|seguridad\s+social|afiliaci[oó]n",
    "us_mbi": r"(?-i:MBI|HICN)|medicare",
    "br_cns": r"(?-i:CNS)|cart[ãa]o\s+(?:do\s+)?sus|cart[ãa]o\s+nacional\s+de\s+sa[úu]de",
    "ee": r"isikukood|asmens\s+kodas",
    # Latvia: a number right after its word is one (the old form's check, or the new form's none)
    "lv": r"personas\s+kods|personas\s+koda",
    "bg": r"егн|(?-i:EGN)|единен\s+граждански\s+номер",
    "hr": r"(?-i:OIB)|osobni\s+identifikacijski",
    "dk": r"(?-i:CPR)|cpr-?n(?:umme)?r|kennitala",
    "yu": r"(?-i:JMBG|EMŠO|EMSO)|јмбг|емшо|mati[čc]ni\s+broj",
    "au": r"(?-i:TFN)|tax\s+file\s+number",
    "ir": r"کد\s*ملی|شماره\s*ملی|code\s+melli|melli\s+code",
    "cz": r"rodn[ée]\s+[čc][íi]slo|(?-i:RČ)",
    "gr": r"αμκα|(?-i:AMKA)|αφμ|(?-i:AFM)",
    "ae": r"emirates\s+id|الهوية\s+الإماراتية",
    "pk": r"(?-i:CNIC|NICOP)",
    # Identity numbers without a check written here: only the value right after the word (_right_after).
    # (Peru's and Argentina's DNI have no check: "DNI" there is the es form's word, and its number right
    # after it is one, _right_after)
    "other_id": r"(?-i:NIN|NIMC|BVN|PCN|PSN|NID|NIC|IIN|ИИН|РНОКПП|ІПН|QID|CIC|CURP|RFC|NUIP|RNOKPP)|"
                r"philsys|ghana\s+card|"
                r"huduma|(?<![a-z])nida(?![a-z])|national\s+identi(?:ty|fication)|identit[ée]\s+nationale|"
                r"c[ée]dula(?:\s+de\s+(?:ciudadan[ií]a|identidad))?|registro\s+geral|"
                r"ідентифікаційний\s+код|идентификационный\s+номер|الرقم\s+القومي|الرقم\s+الوطني|"
                r"شناختی\s+کارڈ|personal\s+(?:identity|identification)\s+(?:number|code)|"
                r"personal\s+code|citizen\s+(?:number|card)",
    # Identity cards whose number has no check of its own: a document number, as for a passport.
    "id_card": r"personalausweis|ausweisnummer|ausweis-nr|carte\s+d'identit[ée]|carta\s+d'identit[àa]|"
               r"identiteitskaart|dowód\s+osobisty|občanský\s+průkaz|cart[ãa]o\s+de\s+cidad[ãa]o|(?-i:CNI|DNIe)",
    "passport": r"passport|护照|護照|旅券|パスポート|reisepass|pass-?nummer|passnummer|pasaporte|passeport|passaporto|"
                r"passaporte|paspoort|여권|паспорт|pasaport|paspor|paszport|h[oộ]\s*chi[eế]u|หนังสือเดินทาง|"
                r"通行证|通行證|台胞证|台胞證|回乡证|回鄉證|入台证|入台證|旅行证|旅行證|travel\s+(?:document|permit)|"
                r"home\s+return\s+permit|mainland\s+travel\s+permit|exit-entry\s+permit|two-way\s+permit|one-way\s+permit|"
                r"re-?entry\s+permit|travel\s+pass(?![a-z])|"
                # (Urdu, Arabic, Persian, Hindi, Bengali, Hebrew, Greek, Malay, Russian's foreign passport)
                r"پاسپورٹ|جواز\s*(?:ال)?سفر|گذرنامه|पासपोर्ट|পাসপোর্ট|דרכון|διαβατήριο|pasport|загранпаспорт|"
                # (a visa's number, not the card brand: "Visa ending 1234")
                r"visa\s*(?:no|number|#|foil|control|grant)|签证号|簽證號|ビザ番号|査証番号|비자\s*번호|visum-?\s*nummer|"
                r"num[ée]ro\s+de\s+visa|n[uú]mero\s+de\s+visado",
    # Any of the numbers above under a word for an identity number in general.
    "generic": r"身份证|身份證|身分证|身分證|身分証|证件号|證件號|id\s*(?:card|no|number|#)|identity\s+(?:card|number|no)|"
               r"national\s+id|personal\s+id|citizen\s+id|신분증|주민|documento\s+de\s+identidad|"
               r"num[ée]ro\s+d'identit[ée]|identity\s+document|"
               r"tax\s+(?:id|number|no)|税号|稅號|納税者番号|国民番号|國民身分|(?<![a-z])ic\s*(?:no|number)",
}


@dataclass(frozen=True)
class _Form:
    words: str  # key in _W: the words that announce it (the word's name is the finding's kind, see _KINDS)
    pattern: re.Pattern[str]
    check: Callable[[str], bool]
    alone: Callable[[str], bool] | None = None  # when the number may stand without its word (a strong shape)
    generic: bool = True  # whether a word for an ID in general announces it (a checksum makes it this number)


def _rx(pattern: str) -> re.Pattern[str]:
    """``pattern`` standing alone: not inside a longer run, nor the digits of a fraction (-14.117057728999068)."""
    return re.compile(rf"(?<![0-9A-Za-z])(?<!\d[.,])(?:{pattern})(?![0-9A-Za-z])(?![.,]\d)")


def _fr_alone(v: str) -> bool:
    """Written in its groups, or a man or a woman born in a real month (a 15-digit IMEI starts 35 or 86)."""
    return (" " in v or (v[0] in "12" and 1 <= int(v[3:5]) <= 12)) and fr_nir(v)


def _kr_alone(v: str) -> bool:
    return "-" in v and kr_rrn_checksum(digits_of(v))


_FORMS: tuple[_Form, ...] = (
    _Form("kr", _rx(r"\d{6}[ \t]?-?[ \t]?[1-8]\d{6}"), lambda v: _kr_rrn_date(digits_of(v)), _kr_alone),
    _Form("jp", _rx(r"\d{4}[ -]?\d{4}[ -]?\d{4}"), jp_my_number),
    _Form("sg", _rx(r"[STFGM]\d{7}[A-Z]"), sg_nric, sg_nric),
    _Form("jp", _rx(r"[A-Z]{2}\d{8}[A-Z]{2}"), _any, generic=False),  # 在留カード: two letters, eight digits, two letters
    _Form("in_aadhaar", _rx(r"[2-9]\d{3}[ -]?\d{4}[ -]?\d{4}"), lambda v: verhoeff_ok(digits_of(v))),
    _Form("in_pan", _rx(r"[A-Z]{3}[PCHFATBLJG][A-Z]\d{4}[A-Z]"), _any, generic=False),
    _Form("br", _rx(r"\d{3}\.?\d{3}\.?\d{3}-?\d{2}"), br_cpf, lambda v: "." in v and "-" in v and br_cpf(v)),
    _Form("es", _rx(r"\d{8}[ -]?[A-Z]|\d{2}\.\d{3}\.\d{3}[ -]?[A-Z]"), es_dni),
    _Form("es", _rx(r"[XYZ][ -]?\d{7}[ -]?[A-Z]"), es_dni, es_dni),
    _Form("us_ssn", _rx(r"\d{3}-\d{2}-\d{4}"), ssn_ok),  # (dashed: under an ID word it is one)
    _Form("us_ssn", _rx(r"\d{3} ?\d{2} ?\d{4}"), ssn_ok, generic=False),
    _Form("us_itin", _rx(r"9\d{2}[- ]?\d{2}[- ]?\d{4}"), itin_ok),
    _Form("uk", _rx(r"[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]"), uk_nino,
          lambda v: v.count(" ") == 4 and uk_nino(v)),
    _Form("ca", _rx(r"\d{3}[ -]?\d{3}[ -]?\d{3}"), ca_sin),
    _Form("fr", _rx(r"[1278] ?\d{2} ?(?:0[1-9]|1[0-2]|[2-9]\d) ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}"), fr_nir, _fr_alone),
    _Form("mo", _rx(r"[157][/-]?\d{6}[/-]?\(?\d\)?"), _any, generic=False),
    # Taiwan's resident certificates (居留證) since 2021: the ID card's checksum, 8 or 9 second.
    _Form("tw", _rx(r"[A-Z][89]\d{8}"), valid_taiwan_id),
    _Form("it", _rx(r"[A-Z]{6}\d{2}[A-EHLMPRST]\d{2}[A-Z]\d{3}[A-Z]"), it_codice_fiscale, it_codice_fiscale),
    _Form("de", _rx(r"\d{2} ?\d{3} ?\d{3} ?\d{3}"), de_tax_id),
    _Form("nl", _rx(r"\d{4}\.?\d{2}\.?\d{3}|\d{3} ?\d{3} ?\d{3}"), nl_bsn),
    _Form("pl", _rx(r"\d{11}"), pl_pesel),
    _Form("th", _rx(r"\d[ -]?\d{4}[ -]?\d{5}[ -]?\d{2}[ -]?\d"), th_id, lambda v: v.count("-") == 4 and th_id(v)),
    _Form("cl", _rx(r"\d{1,2}\.?\d{3}\.?\d{3}-?[\dkK]"), cl_rut),
    _Form("ru", _rx(r"\d{3}-?\d{3}-?\d{3}[ -]?\d{2}"), ru_snils, lambda v: v.count("-") >= 2 and ru_snils(v)),
    _Form("ru", _rx(r"\d{12}|\d{10}"), ru_inn),
    _Form("sa", _rx(r"[12]\d{9}"), sa_id),
    _Form("tr", _rx(r"[1-9]\d{10}"), tr_kimlik),
    _Form("nordic", _rx(r"(?:19|20)?\d{6}[-+ ]?\d{4}"), se_personnummer),
    _Form("nordic", _rx(r"\d{11}"), no_fodselsnummer),
    # A Finnish hetu with a letter in it (its century or its check) cannot be a phone number: strong alone.
    _Form("nordic", _rx(r"\d{6}[-+A-FU-Y]\d{3}[0-9A-Y]"), fi_hetu,
          lambda v: (v[6].isalpha() or v[-1].isalpha()) and fi_hetu(v)),
    _Form("be", _rx(r"\d{2}\.?\d{2}\.?\d{2}[-. ]?\d{3}\.?\d{2}"), be_national_number),
    _Form("pt", _rx(r"\d{9}"), pt_nif, generic=False),
    _Form("ro", _rx(r"\d{13}"), ro_cnp),
    _Form("vn", _rx(r"0\d{2}[0-3]\d{8}"), _any, generic=False),
    _Form("id", _rx(r"\d{16}"), lambda v: 1 <= int(v[6:8]) % 40 <= 31 and 1 <= int(v[8:10]) <= 12, generic=False),
    _Form("my", _rx(r"\d{6}-?\d{2}-?\d{4}"), my_mykad, lambda v: v.count("-") == 2 and my_mykad(v)),
    _Form("mx", _rx(r"[A-Z]{4}\d{6}[HMX][A-Z]{5}[A-Z0-9]\d"), mx_curp, mx_curp),
    _Form("ar", _rx(r"(?:2[0347]|3[034])-?\d{8}-?\d"), ar_cuit),
    _Form("za", _rx(r"\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{4}[01]\d{2}"), za_id),
    _Form("il", _rx(r"\d{9}"), il_id, generic=False),
    _Form("ie", _rx(r"\d{7}[ ]?[A-W][ABHWT]?"), ie_ppsn),
    _Form("ch", _rx(r"756[.]?\d{4}[.]?\d{4}[.]?\d{2}"), ch_ahv, lambda v: v.count(".") == 3 and ch_ahv(v)),
    # Austria's Sozialversicherungsnummer (the same German words as Switzerland's AHV number)
    _Form("ch", _rx(r"\d{4} ?\d{6}"), at_svnr),
    # Ecuador's and Uruguay's cédula (the same words as Chile's RUT: cédula)
    _Form("cl", _rx(r"\d{9}-?\d"), ec_cedula),
    _Form("cl", _rx(r"\d\.?\d{3}\.?\d{3}-?\d"), uy_ci),
    _Form("ee", _rx(r"[1-6]\d{10}"), ee_isikukood),
    _Form("bg", _rx(r"\d{10}"), bg_egn),
    _Form("hr", _rx(r"\d{11}"), hr_oib),
    _Form("dk", _rx(r"[0-3]\d[01]\d{3}[ -]?\d{4}"), dk_cpr),
    _Form("dk", _rx(r"[0-3]\d[01]\d{3}[ -]?\d{4}"), is_kennitala),
    _Form("yu", _rx(r"[0-3]\d[01]\d{10}"), yu_jmbg),
    _Form("au", _rx(r"\d{3}[ ]?\d{3}[ ]?\d{3}"), au_tfn),
    _Form("ir", _rx(r"\d{3}-?\d{6}-?\d"), ir_melli),
    _Form("cz", _rx(r"\d{6}/?\d{3,4}"), cz_rodne_cislo),
    _Form("gr", _rx(r"[0-3]\d[01]\d{8}"), gr_amka),
    _Form("ae", _rx(r"784[- ]?\d{4}[- ]?\d{7}[- ]?\d"), ae_emirates_id, lambda v: v.count("-") == 3 and ae_emirates_id(v)),
    _Form("pk", _rx(r"\d{5}-?\d{7}-?\d"), lambda v: len(set(digits_of(v))) > 2),
    # Session 19: health and pension numbers with checks (NHS, TAJ, Luxembourg's matricule, Spain's NSS,
    # Germany's RVNR, Brazil's CNS), Latvia's personas kods, the US MBI, Mongolia's register number.
    _Form("uk_nhs", _rx(r"\d{3}[ -]?\d{3}[ -]?\d{4}"), uk_nhs),
    _Form("hu", _rx(r"\d{3}[ -]?\d{3}[ -]?\d{3}"), hu_taj),
    _Form("lv", _rx(r"\d{6}-?\d{5}"), lv_personas_kods),
    _Form("lu", _rx(r"\d{4} ?\d{4} ?\d{5}|\d{4} ?\d{2} ?\d{2} ?\d{3} ?\d{2}"), lu_matricule),
    _Form("es_nss", _rx(r"\d{2}[ /-]?\d{8}[ /-]?\d{2}"), es_nss, lambda v: v.count("/") == 2 and es_nss(v)),
    _Form("ch", _rx(r"\d{2} ?\d{6} ?[A-Z] ?\d{3}"), de_rvnr, lambda v: v.count(" ") == 3 and de_rvnr(v)),
    _Form("us_mbi", _rx(r"[1-9][A-Z][A-Z0-9]\d-?[A-Z][A-Z0-9]\d-?[A-Z]{2}\d{2}"), us_mbi,
          lambda v: v.count("-") == 2 and us_mbi(v)),
    _Form("br_cns", _rx(r"[12789]\d{2} ?\d{4} ?\d{4} ?\d{4}"), br_cns),
    # Passports, visas and permits: letters then digits (E12345678, TK3066585, H1234567801), digits only
    # (a US, a UK or a Taiwanese passport, a 台胞证), France's 12AB34567, Germany's nine of letters and
    # digits, and any of them spaced out by OCR.
    _Form("passport", _rx(r"[A-Z]{1,3}[ -]?\d{6,10}(?:[A-Z]|\([A-Z]\))?|[A-Z]{1,2}[ -]?\d{3,4}[ -]\d{4,5}|\d{8,10}|"
                          r"\d{4}[ -]\d{5}|\d{2}[A-Z]{2}\d{5}|\d{2} \d{7}|"
                          r"[A-Z0-9]{8,9}|(?:[A-Z0-9] ){6,9}[A-Z0-9]"), _document_number, generic=False),
)
_FORMS += (_Form("id_card", _FORMS[-1].pattern, _document_number, generic=False),)
_KINDS = {"passport": PASSPORT}
# A word two countries use: Spain's NIF and Portugal's (a nine-digit número de contribuinte).
_SHARED_WORDS = {"es": ("pt",)}
_ACRONYM_RE = re.compile(r"\|?\(\?-i:([^)]*)\)")


def _key_acronyms(acronyms: str) -> list[str]:
    """An acronym in lower case counts as a key (``"ssn":``, ``cpf,``, ``nric_no =``, ``<dni>``): "sin" and "pan"
    in a sentence are words, not labels."""
    return [rf"{a.lower()}(?=(?:[_ -]?(?:no|num|number|nr|id))?[\"']?[ \t]*(?:[:=：,\t|>\n]|$))" for a in acronyms.split("|")]


def _alternatives(rx: str) -> list[str]:
    """The words of one entry of _W, each alone (acronyms as keys in lower case); a space in a word may be
    an underscore or a dash, as in a key (``social_security_number``, ``"my-number"``)."""
    rx = rx.replace("\\s+", "[\\s_-]+").replace("\\s*", "[\\s_-]*")
    words = [w for w in re.split(r"\|(?![^(]*\))", _ACRONYM_RE.sub("", rx)) if w]
    return [w.removeprefix("(?<![a-z])") for w in words] + [
        k for a in _ACRONYM_RE.findall(rx) for k in _key_acronyms(a)]


_KIND_RES = {k: re.compile("|".join(_alternatives(v))) for k, v in _W.items()}
# All words in one alternation of words that each start with a plain character, matched in the
# lower-cased text: the regex engine then skips ahead on their first characters (with re.IGNORECASE,
# named groups or a look-behind first it tries every word at every character, ten times slower). The
# kind and the word's start (not inside another word) are checked on the few matches.
_WORDS_RE = re.compile("|".join(w for v in _W.values() for w in _alternatives(v)))
_ACRONYMS_RE = re.compile("(?:" + "|".join(a for v in _W.values() for a in _ACRONYM_RE.findall(v)) + ")(?![A-Za-z])")
_ACRONYM_KIND = {a: k for k, v in _W.items() for part in _ACRONYM_RE.findall(v) for a in part.split("|")}


def _word_kind(low: str, m: re.Match[str]) -> str | None:
    if m.start() and low[m.start() - 1].isascii() and low[m.start() - 1].isalpha() and low[m.start()].isascii():
        return None  # inside a word ("uuid", "topic no")
    return next((k for k, rx in _KIND_RES.items() if (w := rx.match(low, m.start())) and w.end() == m.end()), None)


_HAS_DIGITS_RE = re.compile(r"\d")
BLOCK_LINES = 8  # a table's or a form's header reaches this many lines down (no blank line between)


# A line below the word that says it holds the number ("documentNumber": …, Nummer: …), or a table's row.
_NUMBER_WORD_RE = re.compile(r"(?i)number|(?<![a-z])(?:no|nr|num|nummer|numéro|número|numero)(?![a-z])|号|號|番号|番號|"
                             r"번호|номер")


# Between the word and a number: the number is a phone's, a fee's or a date's ("passport office: call 23456789").
_NOT_DOCUMENT_RE = re.compile(r"(?i)(?<![a-z])(?:tel|phone|call|hotline|fax|fee|price|cost|cny|usd|eur|rmb|hkd)(?![a-z])|"
                              r"电话|電話|热线|熱線|费|費|价|價|元|円|원|¥|\$|€|£")


def _below_ok(text: str, window_start: int, word_ends: list[int], pos: int) -> bool:
    """A document number after its word (nothing between says it is a phone or a fee), on a line below
    that names a number, on the line right under "Passport:", or in a table or CSV row."""
    line_start = text.rfind("\n", 0, pos) + 1
    i = bisect.bisect_right(word_ends, pos)
    label_end = word_ends[i - 1] if i else window_start
    if _NOT_DOCUMENT_RE.search(text, max(line_start, label_end), pos):
        return False
    if line_start <= window_start:
        return True  # on the word's own line
    header_end = text.find("\n", window_start)
    header = text[window_start:header_end]
    previous = text[text.rfind("\n", 0, line_start - 1) + 1:line_start - 1].rstrip()
    return _NUMBER_WORD_RE.search(text, line_start, pos) is not None or "|" in header or "," in header \
        or "\t" in header or (previous.endswith((":", "：")) and previous == header.rstrip())


def _regions(text: str, hints: list[int]) -> list[tuple[int, int]]:
    """Where a word for a number seen at ``hints`` can stand: its line (up to 1,500 characters before it and
    100 after) and the BLOCK_LINES lines above."""
    regions: list[tuple[int, int]] = []
    for pos in sorted(hints):
        end = text.find("\n", pos, pos + 100)  # (a word after its number stands close behind it: "… (SSN)")
        end = min(len(text), pos + 100) if end < 0 else end
        start = pos
        for _ in range(BLOCK_LINES + 1):
            start = text.rfind("\n", 0, start - 1) + 1 if start > 0 else 0
            if start == 0:
                break
        start = max(start, pos - 1500)  # (a word further back on one long line governs nothing here)
        if regions and start <= regions[-1][1]:
            regions[-1] = (regions[-1][0], max(end, regions[-1][1]))
        else:
            regions.append((start, end))
    return regions


def _windows(text: str, regions: list[tuple[int, int]]) -> list[tuple[int, int, list[int], str]]:
    """Where each word's numbers may stand: from the start of its line to the end of its block
    (from, to, the words' ends, their kind)."""
    low = text.lower()
    if len(low) != len(text):  # (a letter whose lower case is longer: read the text as it is)
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    found = []
    for start, end in regions:
        found += [(m, _word_kind(low, m)) for m in _WORDS_RE.finditer(low, start, end)]
        found += [(m, _ACRONYM_KIND.get(m.group(0))) for m in _ACRONYMS_RE.finditer(text, start, end)
                  if not (m.start() and text[m.start() - 1].isascii() and text[m.start() - 1].isalpha())]
    seen: dict[tuple[int, int, str], list[int]] = {}
    for m, kind in found:
        if kind is None:
            continue
        line_start = text.rfind("\n", 0, m.start()) + 1
        end = m.end()
        for _ in range(BLOCK_LINES + 1):
            nl = text.find("\n", end)
            if nl < 0:
                end = len(text)
                break
            nxt = text.find("\n", nl + 1)
            nxt = len(text) if nxt < 0 else nxt
            end = nl
            if not text[nl + 1:nxt].strip():
                break
            end = nxt
        # One window per line and kind ("SSN … SSN …" on one long line is read once), with every word's end.
        seen.setdefault((line_start, end, kind), []).append(m.end())
    out = [(start, end, sorted(ends), kind) for (start, end, kind), ends in seen.items()]
    return out


_ALONE = tuple(f for f in _FORMS if f.alone is not None)
# What every form under a word holds: six digits with at most one separator between each (a NINO's
# "12 34 56", an OCR-spaced "G 1 2 8 3 9 4 7 5"), or a run of capitals and digits (a PAN, CJKX06W15).
_NUMBER_HINT_RE = re.compile(r"\d(?:[ .\-/]?\d){5}")
_CODE_HINT_RE = re.compile(r"[A-Z0-9]{8,10}(?![A-Za-z0-9])")
# Every strong shape is a run of capitals, digits, spaces, dots, dashes and slashes: the few such runs are
# where the shapes are looked for (one scan that skips ahead, instead of eleven patterns tried everywhere).
_CANDIDATE_RE = re.compile(r"[0-9A-Z][0-9A-Z .\-/]{7,}")


# Mongolia's register number: two Cyrillic letters before a birth date no other number has in that place.
_MN_RE = re.compile(r"(?<![\w])[А-ЯЁӨҮ]{2}\d{8}(?!\w)")


def id_documents(text: str) -> Iterator[Finding]:
    if _HAS_DIGITS_RE.search(text) is None:
        return  # every form holds digits
    yield from (Finding(RESIDENT_ID, m.start(), m.end()) for m in _MN_RE.finditer(text) if mn_register(m.group(0)))
    for run in _CANDIDATE_RE.finditer(text):  # the strong shapes, wherever they stand
        if sum(map(str.isdigit, run.group(0))) < 6:
            continue  # (each holds six digits at least: a run of random capitals does not)
        for form in _ALONE:
            for m in form.pattern.finditer(text, run.start(), run.end()):
                if form.alone(m.group(0)):  # type: ignore[misc]
                    yield Finding(_KINDS.get(form.words, RESIDENT_ID), m.start(), m.end())
    hints = [m.start() for rx in (_NUMBER_HINT_RE, _CODE_HINT_RE) for m in rx.finditer(text)]
    if not hints:
        return  # no number a word could announce: the words need not be looked for
    for start, end, ends, kind in _windows(text, _regions(text, hints)):  # only where a word announces them
        found_here = False
        for form in _FORMS:
            if form.words != kind and form.words not in _SHARED_WORDS.get(kind, ()) \
                    and not (form.generic and kind == "generic"):
                continue
            for m in form.pattern.finditer(text, start, end):
                if (form.words != "passport" or _below_ok(text, start, ends, m.start())) and form.check(m.group(0)) \
                        and not _placeholder(m.group(0), counting=False):
                    found_here = True
                    yield Finding(_KINDS.get(form.words, RESIDENT_ID), m.start(), m.end())
        if kind in _LABELS_ONLY:
            for f in _right_after(text, ends):
                found_here = True
                yield f
        if found_here:  # the birth date written beside the number is the record's too ("passport …, DOB 04/09/2004")
            line_end = text.find("\n", ends[-1])
            for m in _BIRTH_DATE_RE.finditer(text, start, len(text) if line_end < 0 else line_end):
                yield Finding(_KINDS.get(kind, RESIDENT_ID), m.start("v"), m.end("v"))


# A number without a check known here is what its word names when it stands right after the word: "NIN:
# 48213570962", "Iqama number: 2471930586", "Ghana Card: GHA-719482635-3", "--national-id 19840623123",
# "身份证：931840…" (a foreign resident's). A number under a word of a country whose check is known must pass
# it ("Personnummer: 850709-2389 är ett exempel med fel kontrollsiffra" is not anyone's).
_LABELS_ONLY = {"other_id", "generic", "sa", "lv"}  # (sa: its words were other_id's, a number right after them counts)
_RIGHT_AFTER_RE = re.compile(
    r"(?:[ \t]*(?:[-_ ]?(?i:number|num|no|nr|n°|nummer|numéro|número|numero|card|code|kod)\.?|[(（][A-Za-z]{2,6}[)）]|#))*"
    r"[ \t]*[\"']?[ \t]*(?:[:：=#]|-|–|—|是|为|為|(?i:is))?[ \t\"'「]*"
    r"(?P<v>[A-Z0-9](?:[A-Z0-9]|[ ./-](?=[A-Z0-9])){5,24})(?![A-Za-z0-9])")
_YEARS_RE = re.compile(r"(?:19|20)\d\d(?:[-–/ ](?:19|20)?\d\d)?|\d{1,4}[-./ ]\d{1,2}[-./ ]\d{1,4}")


_BIRTH_DATE_RE = re.compile(
    r"(?i)(?:(?<![a-z])(?:dob|d\.o\.b\.?|date\s+of\s+birth|birth\s*date|born|geburtsdatum|geb\.|fecha\s+de\s+nacimiento|"
    r"data\s+de\s+nascimento|date\s+de\s+naissance|data\s+di\s+nascita|doğum\s+tarihi|дата\s+рождения|ngày\s+sinh|"
    r"tanggal\s+lahir)|出生日期|出生年月日?|生年月日|생년월일)"
    r"[ \t]*[:：=]?[ \t]*(?P<v>\d{1,4}[./-]\d{1,2}[./-]\d{2,4}|\d{1,2}[ \t]?[A-Za-z]{3,9}\.?[ \t]?\d{2,4}|"
    r"\d{4}年\d{1,2}月\d{1,2}日|\d{4}[ \t]?년[ \t]?\d{1,2}[ \t]?월[ \t]?\d{1,2}[ \t]?일)")


def _placeholder(value: str, *, counting: bool = True) -> bool:
    """000000000000, 1111-2222 (and, where only a word says it is a number, 123456789): a form's template."""
    v = "".join(c for c in value if c.isalnum())
    d = digits_of(value)
    return len(set(v)) < 3 or (counting and len(d) >= 6 and sequential(d))


def _right_after(text: str, ends: list[int]) -> Iterator[Finding]:
    for end in ends:
        m = _RIGHT_AFTER_RE.match(text, end, end + 60)
        if m is None or EXAMPLE_RE.search(text, max(text.rfind("\n", 0, end) + 1, end - 80), end):
            continue  # (or "HMRC's example NI number is QQ 12 34 56 C")
        v = m.group("v")
        if sum(c.isdigit() for c in v) < 6 or _placeholder(v) or _YEARS_RE.fullmatch(v):
            continue  # a count, a template, a year or a date ("Tax ID 2024-2025")
        yield Finding(RESIDENT_ID, m.start("v"), m.end("v"))
