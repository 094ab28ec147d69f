"""Personal numbers: resident IDs, phone numbers, bank cards.

A long number in study text is a statistic, a year range, an ISBN or a
Fibonacci number far more often than a phone or a card, so a number is
personal data only when something says so: a checksum (ID, Luhn, IBAN),
a grouping people use for that kind of number (``138 0013 8000``,
``4111 1111 1111 1111``, ``3782 822463 10005``), a prefix (``+86``,
``0086``) or a nearby word (手机, card, 卡号 …). Digits arrive ASCII
(the text is NFKC-normalised first).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator

from desktop_kb.qa.detectors.base import (
    BANK_CARD,
    MOBILE,
    PASSPORT,
    RESIDENT_ID,
    Finding,
    line_bounds,
    near,
)

_SEP = r"[ \-.\u00a0]"
_NOT_DECIMAL = r"(?<!\d[.,])"  # "-10.00867440597927" is a fraction, not a number with a 0086 prefix
_THREE_DIGITS_RE = re.compile(r"\d[ \-.]?\d[ \-.]?\d")  # cheap test before the number regexes

# ----- resident IDs --------------------------------------------------------------------------

_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"
_REGIONS = {11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46,
            50, 51, 52, 53, 54, 61, 62, 63, 64, 65, 71, 81, 82, 83, 91}


def real_date(year: int, month: int, day: int, earliest: int = 1900) -> bool:
    """A date that exists, from ``earliest`` to today (a birth date, the start of an order number)."""
    try:
        born = datetime.date(year, month, day)
    except ValueError:
        return False
    return earliest <= born.year <= datetime.date.today().year


def valid_resident_id(number: str) -> bool:
    """Chinese resident ID (GB 11643): region, checksum and a real birth date."""
    if len(number) != 18 or not number[:17].isdigit() or int(number[:2]) not in _REGIONS:
        return False
    total = sum(int(d) * w for d, w in zip(number[:17], _ID_WEIGHTS, strict=True))
    if _ID_CHECK[total % 11] != number[17].upper().replace("×", "X"):  # (× typed for X by an input method)
        return False
    return real_date(int(number[6:10]), int(number[10:12]), int(number[12:14]))


# 18 characters, optionally in groups (``440305 19951118 5045``, ``4201 1119 6908 1517 4X``).
_ID_RE = re.compile(rf"{_NOT_DECIMAL}(?<![0-9A-Za-z])\d(?:{_SEP}?\d){{16}}{_SEP}?[0-9Xx×](?![0-9A-Za-z])")
# A certificate numbered by its holder's ID and two digits more (残疾人证: the category 1-7 and the grade 1-4).
_ID20_RE = re.compile(r"(?<![0-9A-Za-z.,])\d{17}[0-9Xx][1-7][1-4](?![0-9A-Za-z])")
# An ID broken over two lines (OCR of a card, a wrapped table cell): 18 characters in two pieces.
_ID_BROKEN_RE = re.compile(r"(?<![0-9A-Za-z.,])(?P<a>\d{6,16})[ \t]*\n[ \t]*(?P<b>\d{1,11}[0-9Xx])(?![0-9A-Za-z])")
_ID_BROKEN_HINT_RE = re.compile(r"\d{6}[ \t]*\n[ \t]*\d")
_ID15_RE = re.compile(r"(?<![0-9A-Za-z])\d{15}(?![0-9A-Za-z])")
_ID_WORDS = re.compile(r"身份证|身分证|身份證|身分證|身份号|身份號|身分號|证件|證件|字号|字號|id\s*(?:card|no|number)|hkid|identity", re.I)
_TW_ID_RE = re.compile(r"(?<![0-9A-Za-z])[A-Z][12]\d{8}(?![0-9A-Za-z])")
_TW_LETTERS = "ABCDEFGHJKLMNPQRSTUVXYWZIO"  # values 10..35 in this order
_HK_ID_RE = re.compile(r"(?<![0-9A-Za-z])[A-Z]{1,2}\d{6}\s?(?P<paren>\()?[0-9A](?(paren)\))(?![0-9A-Za-z])")
# Passports and the travel permits that stand in for them: letters and digits (E12345678,
# EA1234567, C12345678) or nine digits (a US passport), after the word for the document.
# "passport book number 5729 18364": a form's wording, and the digits grouped as read out.
_PASSPORT_RE = re.compile(
    r"(?:护照|護照|passport|通行证|通行證|台胞证|台胞證|回乡证|回鄉證|travel\s+document)\s*"
    r"(?:(?:book|card|本|簿)\s*)?(?:号码|號碼|号|號|no\.?|number|#)?\s*(?:[:：]|是|为|為|is)?\s*"
    r"(?P<v>[A-Z]{1,2}\d{7,8}|\d{9}|\d{4}[ -]\d{5}|\d{3}[ -]\d{3}[ -]\d{3}|\d{5}[ -]\d{4})(?![0-9A-Za-z])", re.I)


# US Social Security numbers: 3-2-4 digits, said to be one by a word next to them.
_SSN_RE = re.compile(r"(?<![\d-])\d{3}[- ]\d{2}[- ]\d{4}(?![\d-])")
_SSN_WORDS = re.compile(r"\bssn\b|social\s+security|社会保障号|社會安全號|社安号", re.I)


def valid_ssn(value: str) -> bool:
    """Area 001-899 except 666, group and serial not all zeros (SSA's rules since 2011)."""
    area, group, serial = re.split(r"[- ]", value)
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


def _grouping_ok(raw: str) -> bool:
    groups = re.split(_SEP, raw)
    if len(groups) == 1:
        return True
    if len(groups) > 5:
        return False
    return all(len(g) >= 2 for g in groups) and all(len(g) >= 3 for g in groups[:-1])


def valid_taiwan_id(value: str) -> bool:
    code = _TW_LETTERS.index(value[0]) + 10
    digits = [code // 10, code % 10] + [int(c) for c in value[1:]]
    weights = [1, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1]
    return sum(d * w for d, w in zip(digits, weights, strict=True)) % 10 == 0


def valid_hk_id(value: str) -> bool:
    core = re.sub(r"[\s()]", "", value)
    letters, digits, check = re.match(r"([A-Z]{1,2})(\d{6})([0-9A])", core).groups()  # type: ignore[union-attr]
    values = ([36] if len(letters) == 1 else []) + [ord(c) - 55 for c in letters] + [int(d) for d in digits]
    total = sum(v * w for v, w in zip(values, range(9, 1, -1), strict=True))
    expected = (11 - total % 11) % 11
    return check == ("A" if expected == 10 else str(expected))


def resident_ids(text: str) -> list[Finding]:
    found: list[Finding] = []
    if not _THREE_DIGITS_RE.search(text):
        return found
    for m in _ID_RE.finditer(text):
        raw = m.group(0)
        if _grouping_ok(raw) and valid_resident_id(re.sub(_SEP, "", raw)):
            found.append(Finding(RESIDENT_ID, m.start(), m.end()))
    if "\n" in text and _ID_BROKEN_HINT_RE.search(text):
        for m in _ID_BROKEN_RE.finditer(text):
            if len(m.group("a")) + len(m.group("b")) == 18 and valid_resident_id(m.group("a") + m.group("b")) \
                    and near(text, m.start(), m.end("a"), _ID_WORDS, 24, 0):
                found.append(Finding(RESIDENT_ID, m.start(), m.end()))
    found += [Finding(RESIDENT_ID, m.start(), m.end()) for m in _ID20_RE.finditer(text)
              if valid_resident_id(m.group(0)[:18])]
    for m in _ID15_RE.finditer(text):  # first-generation IDs: no checksum, so a word must say so
        v = m.group(0)
        if int(v[:2]) in _REGIONS and real_date(1900 + int(v[6:8]), int(v[8:10]), int(v[10:12])) \
                and near(text, m.start(), m.end(), _ID_WORDS, 24, 8):
            found.append(Finding(RESIDENT_ID, m.start(), m.end()))
    # Letter-and-digit IDs (Taiwan, Hong Kong) look like model and patent numbers: a checksum
    # alone passes one random code in ten, so the parenthesised check digit or a word must say so.
    found += [Finding(RESIDENT_ID, m.start(), m.end()) for m in _TW_ID_RE.finditer(text)
              if valid_taiwan_id(m.group(0)) and near(text, m.start(), m.end(), _ID_WORDS, 24, 8)]
    found += [Finding(RESIDENT_ID, m.start(), m.end()) for m in _HK_ID_RE.finditer(text)
              if valid_hk_id(m.group(0))
              and (m.group("paren") or near(text, m.start(), m.end(), _ID_WORDS, 24, 8))]
    found += [Finding(PASSPORT, m.start("v"), m.end("v")) for m in _PASSPORT_RE.finditer(text)]
    found += [Finding(RESIDENT_ID, m.start(), m.end()) for m in _SSN_RE.finditer(text)
              if valid_ssn(m.group(0)) and near(text, m.start(), m.end(), _SSN_WORDS, 32, 8)]
    return found


# ----- phone numbers -------------------------------------------------------------------------

_PHONE_WORDS = re.compile(
    r"手机|手機|电话|電話|联系|聯繫|聯絡|联络|致电|致電|拨打|撥打|来电|來電|号码|號碼|热线|熱線|微信|短信|簡訊|"
    r"同号|同號|座机|座機|客服|打给|打給|找我|紧急|緊急|传真|傳真|收件|收货|收貨|寄件|联系人|聯絡人|"
    r"支付宝|支付寶|alipay|转账|轉賬|轉帳|收款|"
    r"tel|phone|mobile|cell|call|sms|whats\s?app|wechat|contact|fax|text\s+me|ring\s+me", re.I)
# China mobile: optional +86 / 0086 / (+86), then 1[3-9]x and eight more digits in any grouping.
_CN_MOBILE_RE = re.compile(
    rf"{_NOT_DECIMAL}(?<![0-9A-Za-z+])(?P<prefix>(?:\(?(?:\+|00)\s?86\)?|86){_SEP}*)?"
    rf"(?P<num>1{_SEP}?[3-9]{_SEP}?\d(?:{_SEP}?\d){{8}})(?![0-9])")
_TW_MOBILE_RE = re.compile(
    rf"{_NOT_DECIMAL}(?<![0-9A-Za-z+])(?P<prefix>(?:\+|00)\s?886{_SEP}*)?(?P<num>0?9\d{{2}}(?:{_SEP}?\d){{6}})(?![0-9])")
# Landlines: an area code (0 + 2-3 digits at home, no 0 after +86) and 7-8 digits.
_LANDLINE_RE = re.compile(
    rf"{_NOT_DECIMAL}(?<![0-9A-Za-z])(?:(?P<prefix>(?:\+|00)\s?86{_SEP}*)\(?0?|\(?0)[1-9]\d{{1,2}}\)?{_SEP}?\d{{3,4}}{_SEP}?\d{{4}}(?![0-9])")
_INTL_RE = re.compile(rf"(?<![0-9A-Za-z])\+[1-9]\d{{0,2}}(?:{_SEP}?\(?\d{{1,4}}\)?){{2,5}}(?![0-9])")
_UNIT_AFTER = re.compile(r"\s*(?:元|圆|块|万|亿|美元|人|次|吨|公里|km|kg|年|个|名|辆|台|件|字|bytes?|B\b)")
_PHONE_GROUPS = {(3, 4, 4), (4, 4, 3), (3, 8), (3, 3, 5), (3, 4, 2, 2)}


def digits_of(raw: str) -> str:
    return re.sub(r"\D", "", raw)


def _groups(raw: str) -> tuple[int, ...]:
    return tuple(len(g) for g in re.split(_SEP + "+", raw.strip()) if g)


def _worded_around(text: str, start: int, end: int) -> bool:
    """A number alone on its line, with a word for a phone at the end of the line above (its label:
    "把号码写成了大写：") or at the start of the line below ("（加微信同号）")."""
    line_start, line_end = line_bounds(text, start)
    if text[line_start:start].strip(" \t([（【") or text[end:line_end].strip(" \t)]）】。.,，;；"):
        return False
    above = text[max(0, line_start - 32):max(0, line_start - 1)].rsplit("\n", 1)[-1]
    below = text[line_end + 1:line_end + 1 + 16].split("\n", 1)[0]
    return _PHONE_WORDS.search(above) is not None or _PHONE_WORDS.search(below) is not None


# A mainland mobile with pictographs between its groups, to get past a platform's filter (137🍎6396🍎0856).
_PICTO = "\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF"
_CN_MOBILE_PICTO_RE = re.compile(rf"(?<!\d)1[3-9]\d[{_PICTO}]{{1,3}}\d{{4}}[{_PICTO}]{{1,3}}\d{{4}}(?!\d)")


def phones(text: str) -> list[Finding]:
    found: list[Finding] = []
    if not text.isascii():
        found += [Finding(MOBILE, m.start(), m.end()) for m in _CN_MOBILE_PICTO_RE.finditer(text)]
    if not _THREE_DIGITS_RE.search(text):
        return found
    for m in _CN_MOBILE_RE.finditer(text):
        num = m.group("num")
        prefixed = bool(m.group("prefix") and re.search(r"86", m.group("prefix")))
        worded = near(text, m.start(), m.end(), _PHONE_WORDS, 24, 12) or _worded_around(text, m.start(), m.end())
        # "181.93835853" is a decimal number unless a word says it is a phone ("139.1234.5678" is one).
        grouped = _groups(num) in _PHONE_GROUPS and (worded or not re.fullmatch(r"\d{3}\.\d{8}", num))
        contiguous = _groups(num) in ((11,), (1,) * 11)  # spelled digit by digit needs a word too
        if prefixed or grouped or (contiguous and worded and not _UNIT_AFTER.match(text, m.end())):
            # With its country code: "0086" glued to the number is part of what identifies it.
            found.append(Finding(MOBILE, m.start() if prefixed else m.start("num"), m.end()))
    for m in _TW_MOBILE_RE.finditer(text):
        num = m.group("num")
        prefixed = bool(m.group("prefix"))
        if (prefixed or (num.startswith("09") and near(text, m.start(), m.end(), _PHONE_WORDS, 24, 12))) \
                and not _UNIT_AFTER.match(text, m.end()):
            found.append(Finding(MOBILE, m.start("num"), m.end()))
    for m in _LANDLINE_RE.finditer(text):
        worded = m.group("prefix") or near(text, m.start(), m.end(), _PHONE_WORDS, 24, 8)
        if worded and 9 <= len(digits_of(m.group(0))) <= 14 and not _UNIT_AFTER.match(text, m.end()):
            found.append(Finding(MOBILE, m.start(), m.end()))
    for m in _INTL_RE.finditer(text):
        if 10 <= len(digits_of(m.group(0))) <= 15:
            found.append(Finding(MOBILE, m.start(), m.end()))
    return found


# ----- bank cards ------------------------------------------------------------------------------

_CARD_WORDS = re.compile(
    r"卡|card|visa|master|amex|american\s+express|unionpay|银联|銀聯|账号|帐号|賬號|帳號|账户|帳戶|"
    r"account|acct|银行|銀行|bank|借记|信用|debit|credit|收款|付款|转账|轉帳|汇款|匯款|储蓄|儲蓄|"
    r"payment|pay|iban|jcb|discover|diners|\bpan\b|card_?no|cc_?num|cvv|cvc|cvn|有效期|\bexp(?:iry|ires)?\b|"
    # the word for a card in other languages (kartice, karta, tarjeta, carte, Karte, kaart, kort, kortti, kartu, thẻ …)
    r"kart[aeiuy]?\w*|tarjeta|carte|karte|kaart|kortti|kort(?:nummer)?|cartão|carta|thẻ|บัตร|カード|카드|כרטיס|کارت|"
    r"بطاقة|البطاقة|बैंक|कार्ड|কার্ড|карт\w*|verve|rupay|elo|mir|uzcard|humo|troy|maestro", re.I)
_ACCOUNT_WORDS = re.compile(
    r"账号|帐号|賬號|帳號|账户|帐户|賬戶|帳戶|卡号|卡號|银行卡|銀行卡|开户|開戶|户名|戶名|收款|"
    r"bank\s+account|account\s*(?:no|number|#)|iban", re.I)
_CARD_RE = re.compile(rf"{_NOT_DECIMAL}(?<![0-9A-Za-z])\d(?:{_SEP}?\d){{11,18}}(?![0-9])")
# Issuers' first digits: Visa, Mastercard (51-55, 2221-2720), Mir (2200-2204), Amex, Diners, JCB, Discover, UnionPay
# (62, 81), Maestro, Verve and Elo (50, 56-58, 6…), RuPay (60, 65, 81, 82), Uzcard (8600), Troy and Humo (9…).
_CARD_PREFIX_RE = re.compile(r"^(?:4|5[0-8]|2[2-7]|3[04-9]|6[0-9]|8[126]|9)")
_CARD_GROUPS = {(4, 4, 4, 4), (4, 4, 4, 4, 3), (4, 4, 4, 4, 2), (4, 4, 4, 4, 1), (4, 6, 5), (4, 6, 4),
                (4, 4, 4, 3), (4, 4, 4, 2), (6, 13), (6, 12), (6, 10), (4, 4, 4, 4, 4)}
_IBAN_RE = re.compile(r"(?<![0-9A-Za-z])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?(?![0-9A-Za-z])")
# An IBAN in any grouping or case (ES22 9645 0072 38 4799284227, fr67…): its country's length (SWIFT's IBAN
# Registry) and its mod-97 check say where it ends.
_IBAN_LENGTHS = dict(
    AD=24, AE=23, AL=28, AT=20, AZ=28, BA=20, BE=16, BG=22, BH=22, BR=29, BY=28, CH=21, CR=22, CY=28, CZ=24, DE=22,
    DK=18, DO=28, EE=20, EG=29, ES=24, FI=18, FO=18, FR=27, GB=22, GE=22, GI=23, GL=18, GR=27, GT=28, HR=21, HU=28,
    IE=22, IL=23, IQ=23, IS=26, IT=27, JO=30, KW=30, KZ=20, LB=28, LC=32, LI=21, LT=20, LU=20, LV=21, MC=27, MD=24,
    ME=22, MK=19, MR=27, MT=31, MU=30, NL=18, NO=15, PK=24, PL=28, PS=29, PT=25, QA=29, RO=24, RS=22, SA=24, SC=31,
    SE=24, SI=19, SK=24, SM=27, ST=25, SV=28, TL=23, TN=24, TR=26, UA=29, VA=22, VG=24, XK=20)
_IBAN_START_RE = re.compile(r"(?<![0-9A-Za-z])(?i:[a-z]{2})\d{2}[ -]?[0-9A-Za-z]")


def _loose_ibans(text: str) -> Iterator[Finding]:
    for m in _IBAN_START_RE.finditer(text):
        length = _IBAN_LENGTHS.get(text[m.start():m.start() + 2].upper())
        if length is None:
            continue
        pos, n = m.start(), 0
        while pos < len(text) and n < length:  # read the country's length of letters and digits, spaces between
            c = text[pos]
            if c.isascii() and c.isalnum():
                n += 1
            elif c not in " -" or n == 0 or pos + 1 < len(text) and text[pos + 1] in " -":
                break
            pos += 1
        if n == length and not (pos < len(text) and text[pos].isascii() and text[pos].isalnum()) \
                and _iban_ok(re.sub(r"[ -]", "", text[m.start():pos]).upper()):
            yield Finding(BANK_CARD, m.start(), pos)


# The code on the back of a card is what makes a card number usable online.
_CVV_RE = re.compile(
    r"(?i)(?<![A-Za-z])(?:cvv2?|cvc2?|cvn2?|security[\s_-]+code|card[\s_-]+verification(?:[\s_-]+(?:code|value))?|"
    r"verification[\s_-]+value|安全码|安全碼|(?:卡)?背面(?:后|後)?三位(?:数|數|码|碼)?)"
    # (a JSON or YAML key: "verification_value": "432")
    r"[\"']?\s*(?:[:：=#]|is)?\s*[\"']?(?P<v>\d{3,4})(?!\d)")


def _dated(digits: str) -> bool:
    """Starts with a date (20230906…): an order, a waybill or a transaction number, not an account."""
    return real_date(int(digits[:4]), int(digits[4:6]), int(digits[6:8])) and int(digits[:4]) >= 1990


def luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _iban_ok(value: str) -> bool:
    v = value.replace(" ", "")
    if not 15 <= len(v) <= 34:
        return False
    moved = v[4:] + v[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


# Account numbers with a check of their own, under their word: Mexico's CLABE (18 digits, weights 3 7 1),
# Poland's NRB (26 digits: an IBAN without its "PL"); a SWIFT MT103's ordering and beneficiary accounts.
_CLABE_RE = re.compile(r"(?<![0-9A-Za-z])\d{3}[ -]?\d{3}[ -]?\d{11}[ -]?\d(?![0-9])")
_CLABE_WORD_RE = re.compile(r"(?i)clabe|spei|interbancari")  # (its check passes one number in ten: its own word)
_NRB_RE = re.compile(r"(?<![0-9A-Za-z])\d{2}(?:[ -]?\d{4}){6}(?![0-9])")
_NRB_WORD_RE = re.compile(r"(?i)konta|rachunk|\bnrb\b|przelew|odbiorca|account|iban|账户|账号|賬戶")
# A card's magnetic stripe read out (track 1 %B<card>^<NAME>^<expiry, service code, data>?, track 2
# ;<card>=<expiry…>?): the card number passes Luhn.
_TRACK_RE = re.compile(r"%B(?P<pan>\d{12,19})\^[^^\n]{2,26}\^\d{4}[^?\n]{0,40}\?|;(?P<pan2>\d{12,19})=\d{4}[^?\n]{0,40}\?")
_MT103_ACCOUNT_RE = re.compile(r"(?m)^:(?:50[AFK]?|59[AF]?):/(?P<v>[A-Z0-9]{6,34})[ \t]*$")


def _clabe_ok(digits: str) -> bool:
    total = sum(int(d) * (3, 7, 1)[i % 3] for i, d in enumerate(digits[:17]))
    return (10 - total % 10) % 10 == int(digits[17])


# A card number OCR'd from the card's face into lines of its groups (5139 / 5596 / 9331 / 6307), with
# the card's words ("VALID THRU", 有效期) on the lines around.
_CARD_LINES_RE = re.compile(r"(?m)^[ \t]*(\d{4})[ \t]*\n[ \t]*(\d{4})[ \t]*\n[ \t]*(\d{4})[ \t]*\n[ \t]*(\d{4})[ \t]*$")
_CARD_FACE_RE = re.compile(r"(?i)valid\s*(?:thru|through|from)|good\s+thru|expires|有效期|卡号|卡號|card|visa|mastercard|"
                           r"unionpay|银联|銀聯")


def _card_lines(text: str) -> Iterator[Finding]:
    for m in _CARD_LINES_RE.finditer(text):
        digits = "".join(m.groups())
        if _CARD_PREFIX_RE.match(digits) and luhn_ok(digits) \
                and _CARD_FACE_RE.search(text, max(0, m.start() - 80), min(len(text), m.end() + 80)):
            yield from (Finding(BANK_CARD, m.start(i), m.end(i)) for i in range(1, 5))


def _has(low: str, words: tuple[str, ...]) -> bool:
    return any(w in low for w in words)  # (a literal test at C speed before a word regex)


def _checked_accounts(text: str) -> Iterator[Finding]:
    low = text.lower()
    for m in _CLABE_RE.finditer(text) if _has(low, ("clabe", "spei", "interbancari")) else ():
        digits = digits_of(m.group(0))
        if _clabe_ok(digits) and not _dated(digits) and near(text, m.start(), m.end(), _CLABE_WORD_RE, 32, 8):
            yield Finding(BANK_CARD, m.start(), m.end())
    for m in _NRB_RE.finditer(text) if _has(low, ("konta", "rachunk", "nrb", "przelew", "odbiorca", "account", "iban",
                                                    "账户", "账号", "賬戶")) else ():
        if _iban_ok("PL" + digits_of(m.group(0))) and near(text, m.start(), m.end(), _NRB_WORD_RE, 32, 8):
            yield Finding(BANK_CARD, m.start(), m.end())
    if "%B" in text or "=" in text:
        yield from (Finding(BANK_CARD, m.start(), m.end()) for m in _TRACK_RE.finditer(text)
                    if luhn_ok(m.group("pan") or m.group("pan2")))
    if ":5" in text:
        yield from (Finding(BANK_CARD, m.start("v"), m.end("v")) for m in _MT103_ACCOUNT_RE.finditer(text))
    if "\n" in text and _has(low, ("valid", "good", "expires", "有效期", "卡号", "卡號", "card", "visa", "unionpay",
                                     "银联", "銀聯")):
        yield from _card_lines(text)


def _parent_key(text: str, pos: int) -> str:
    """The line that opens the object a value sits in ("card": { / card:), or "" — a JSON or
    YAML file pretty-printed puts the word for the number one line up."""
    line_start = text.rfind("\n", 0, pos)
    if line_start <= 0:
        return ""
    previous = text[text.rfind("\n", 0, line_start) + 1:line_start].rstrip()
    return previous if previous.endswith(("{", ":", "[")) else ""


def _csv_header(text: str, pos: int) -> str:
    """The header of the CSV block a value's row belongs to ("date,merchant,amount,card"), or ""."""
    line_start = text.rfind("\n", 0, pos) + 1
    if "," not in text[line_start:pos + 1] and "\t" not in text[line_start:pos + 1]:
        return ""
    start = line_start
    for _ in range(20):  # (up to the block's first line: a long file is not read back further)
        prev = text.rfind("\n", 0, max(0, start - 1)) + 1
        if start == 0 or not text[prev:start - 1].strip():
            break
        start = prev
    end = text.find("\n", start)
    header = text[start:len(text) if end < 0 else end]
    return header if start < line_start and re.search(r"\d", header) is None else ""


def bank_cards(text: str) -> list[Finding]:
    found: list[Finding] = []
    if not _THREE_DIGITS_RE.search(text):
        return found
    for m in _CARD_RE.finditer(text):
        raw = m.group(0)
        digits = digits_of(raw)
        if not 13 <= len(digits) <= 19 or len(set(digits)) < 3:
            continue
        groups = _groups(raw)
        if not (_CARD_PREFIX_RE.match(digits) and luhn_ok(digits)):
            # Account numbers (and mistyped cards) need not pass Luhn; an account word says what they are.
            if 16 <= len(digits) <= 19 and (groups in _CARD_GROUPS or len(groups) == 1) \
                    and near(text, m.start(), m.end(), _ACCOUNT_WORDS, 24, 8) and not _dated(digits) \
                    and not _UNIT_AFTER.match(text, m.end()):  # "账户余额 …元" is an amount
                found.append(Finding(BANK_CARD, m.start(), m.end()))
            continue
        grouped = groups in _CARD_GROUPS
        worded = near(text, m.start(), m.end(), _CARD_WORDS, 32, 16) \
            or _CARD_WORDS.search(_parent_key(text, m.start())) is not None \
            or _CARD_WORDS.search(_csv_header(text, m.start())) is not None
        if grouped or (len(groups) == 1 and worded):
            found.append(Finding(BANK_CARD, m.start(), m.end()))
    found += [Finding(BANK_CARD, m.start(), m.end()) for m in _IBAN_RE.finditer(text) if _iban_ok(m.group(0))]
    found += _loose_ibans(text)
    found += [Finding(BANK_CARD, m.start("v"), m.end("v")) for m in _CVV_RE.finditer(text)]
    found += _checked_accounts(text)
    return found
