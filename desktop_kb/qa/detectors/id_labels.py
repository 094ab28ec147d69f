"""An identifier named by its label, in any language: ``DNI N° 70172797``, ``Namba ya NIDA: …``,
``नागरिकता प्रमाणपत्र नं. ५९-…``, ``Госномер машины С560НЕ 50``.

Rules per country (a check digit, a fixed length) find the numbers of countries someone wrote a rule
for. A person writes an identity number, a passport number or a plate after the word for it in their
own language whatever the country, so this reads the word, not the number: a lexicon of the words for
an identity document, a personal number, a passport and a licence plate (from the documents' own
names in each language and the acronyms countries print on them), then the first ID-shaped run after
it on the same line and in the same sentence — groups of digits (of any script) and capitals joined by
single separators, with enough digits to be a person's number rather than a count (``18位``, ``9 цифр``,
``8 characters``) or a year. ISBNs, invoices, articles and course numbers are named by other words and
pass.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_kb.qa.detectors.base import LICENCE_PLATE, PASSPORT, RESIDENT_ID, Finding
from desktop_kb.qa.detectors.password_words import MARKS

# The words for an identity document or a personal number, case-insensitive (Latin words bounded by
# non-letters; other scripts as written). From the cards' own titles and the forms' field names.
_ID_WORDS = (
    r"(?:id(?:entity|entification)?[\s_-]*(?:card|number|no|nr|num|document)|identity|identification\s+number|"
    r"national\s+(?:id|identi\w+|number|registration)|personal\s+(?:id|number|code|identi\w+)|citizen(?:ship)?\s+(?:id|number|no)|"
    r"residen(?:ce|t)\s+(?:card|permit)(?:\s+(?:number|no))?|doc(?:ument)?[\s_-]*(?:no|nr|num|number)|"
    r"social\s+security|tax\s+id|"
    r"c[ée]dula|documento\s+(?:nacional\s+)?de\s+identi\w+|n[úu]mero\s+de\s+(?:identi\w+|documento|c[ée]dula)|"
    r"carn[ée]t?\s+de\s+identi\w+|identidad|identifica[çc][ãa]o|bilhete\s+de\s+identidade|cart[ãa]o\s+de\s+cidad[ãa]o|"
    r"carte\s+d.identit[ée]|pi[èe]ce\s+d.identit[ée]|num[ée]ro\s+(?:d.identi\w+|national)|titre\s+de\s+s[ée]jour|"
    r"carta\s+d.identit[àa]|codice\s+fiscale|personalausweis\w*|ausweis\w*|identifikationsnummer|steuer-?id|"
    r"burgerservicenummer|identiteitskaart|rijksregisternummer|personnummer|henkil[öo]tunnus|kennitala|"
    r"f[øo]dselsnummer|dow[óo]d\s+osobisty|numer\s+dowodu|rodn[ée]\s+[čc][íi]slo|ob[čc]ansk[ýy]\s+pr[ůu]kaz|"
    r"kimlik\s+(?:no|numaras[ıi])|n[üu]fus\s+c[üu]zdan[ıi]|şəxsiyyət\s+vəsiqəsi|"
    r"sz[ée]m[ée]lyi\s+(?:igazolv[áa]ny|sz[áa]m)|asmens\s+kodas|personas\s+kods|isikukood|carte\s+de\s+identitate|"
    r"numri\s+personal|let[ëe]rnjoftim|li[čc]na\s+karta|osobna\s+iskaznica|karta\s+tal-identit[àa]|"
    r"kad\s+pengenalan|nombor\s+(?:kad\s+pengenalan|ic)|nomor\s+induk\s+kependudukan|"
    r"s[ốo]\s+c[ăa]n\s+c[ưu][ớo]c|c[ăa]n\s+c[ưu][ớo]c(?:\s+c[ôo]ng\s+d[âa]n)?|ch[ứu]ng\s+minh\s+nh[âa]n\s+d[âa]n|"
    r"kitambulisho|indangamuntu|karapanondro|aqoonsi\w*|kat\s+idantite|shaxsiy\s+raqam)(?![a-z])|"
    r"удостоверени\w+\s+личности|идентификационн\w+\s+номер|личн\w+\s+номер|ідентифікаційн\w+\s+номер|"
    r"регистрийн\s+дугаар|иргэний\s+үнэмлэх|лична\s+карта|лична\s+карта|жеке\s+куәлік|"
    r"αριθμ[οό]ς\s+ταυτ[οό]τητας|ταυτ[οό]τητα|"
    r"الرقم\s+(?:الوطني|القومي|المدني|الشخصي)|رقم\s+(?:الهوية|الإقامة|البطاقة|الاقامة)|بطاقة\s+(?:التعريف|الهوية)|"
    r"کد\s+ملی|شماره\s+ملی|تذکره|شناسنامه|מספר\s+זהות|תעודת\s+זהות|"
    r"आधार|पहचान\s+पत्र|नागरिकता|परिचयपत्र|পরিচয়পত্র|এনআইডি|"
    r"เลขประจำตัวประชาชน|บัตรประชาชน|អត្តសញ្ញាណប័ណ្ណ|ບັດປະຈຳຕົວ|မှတ်ပုံတင်|"
    r"주민등록번호|외국인등록번호|신분증\s*번호|在留カード|マイナンバー|身分証|"
    r"身份证|身份證|身分證|居留证|居留證|通行证|通行證|证件号|證件號|"
    r"መታወቂያ|መለያ\s+ቁጥር|პირადი\s+ნომერი|նույնականացման")
# Acronyms the cards print, case-sensitive (CI, CC, BI, RG only dotted: CI is also continuous integration).
_ID_ACRONYMS = (
    r"(?:DNI|DPI|NIE|NIN|NIC|NIK|KTP|CNIC|CNI|CIN|NRC|NRIC|FIN|FİN|CURP|RUT|CPF|CNP|EGN|OIB|JMBG|EMBG|"
    r"EMŠO|PESEL|AMKA|SSN|ITIN|TRN|IDNP|IIN|PINFL|CCCD|CMND|PCN|PSN|NIDA|DUI|CUI|NUI|NUIT|HKID|TCKN|"
    r"C\.I\.|C\.C\.|B\.I\.|R\.G\.)(?![A-Za-z])|"
    r"ЕГН|ЈМБГ|ЕМБГ|ИИН|ЖСН|ИНН|ПИН|СНИЛС|РНОКПП|ΑΜΚΑ|ΑΔΤ")
_PASSPORT_WORDS = (
    r"(?:passport|pasaporte|passaporte|passeport|passaporto|reisepass|paspoort|pass(?:nummer|nr)|"
    r"[úu]tlev[ée]l\w*|paszport\w*|cestovn[íi]\s+pas|pasaport\w*|paspor|pasipoti|pasaportë|paso[šs]|"
    r"travel\s+document|passin\s+numero|[čc][íi]slo\s+pasu|pp\s+no)(?![a-z])|паспорт\w*|пасош|διαβατ[ήη]ρι[οόί]\w*|جواز\s+(?:ال)?سفر|דרכון|पासपोर्ट|"
    r"หนังสือเดินทาง|h[ộo]\s+chi[ếe]u|여권|旅券|护照|護照|パスポート")
_PLATE_WORDS = (
    r"(?:(?:licen[cs]e|number|registration|reg)\s+plate|car\s+(?:plate|reg|number)|(?:vehicle|bike|car|taxi)\s+(?:no|number|reg)|"
    r"kennzeichen|nummerplade|rekisterinumero|registreringsnummer|"
    r"plaque\s+d.immatriculation|immatriculation|kenteken|tablica\s+rejestracyjna|rendsz[áa]m|"
    r"num[ăa]r(?:ul)?\s+de\s+[îi]nmatriculare|plaka|bi[ểe]n\s+s[ốo](?:\s+xe)?|bi[ểe]n\s+ki[ểe]m\s+so[áa]t|"
    r"nomor\s+polisi|plat\s+(?:nomor|nombor))(?![a-z])|"
    r"госномер|гос\.\s*номер|рег\.\s*номер|номер\s+(?:машины|авто\w*)|სახელმწიფო\s+ნომერი|номерн\w+\s+знак|держномер|πινακ[ίι]δα|لوحة|מספר\s+רכב|"
    r"ทะเบียนรถ|ป้ายทะเบียน|नम्बर\s*प्लेट|(?:गाडी|ट्याक्सी)\S*\s+नम्बर|গাড়ির\s+নম্বর|"
    r"车牌|車牌|号牌|號牌|ナンバープレート|차량\s*번호|번호판")
# Words that name a plate only beside a vehicle (placa: a board, patente: a patent, matrícula: enrolment).
_VEHICLE_PLATE_WORDS = r"(?:placa|patente|matr[íi]cula|targa)(?![a-z])"
_VEHICLE_RE = re.compile(r"(?i)(?<![a-z])(?:car|auto|autom[óo]vil|coche|carro|veh[íi]cul\w*|moto\w*|macchina|camioneta|"
                         r"bakkie|van|truck|scooter)(?![a-z])")
_LABELS = rf"(?P<id>{_ID_WORDS})|(?P<passport>{_PASSPORT_WORDS})|(?P<plate>{_PLATE_WORDS})|(?P<vplate>{_VEHICLE_PLATE_WORDS})"
# Matched on the lower-cased text (4x faster than IGNORECASE, which keeps the engine from skipping ahead on
# the words' first letters); the few texts whose lower case changes length (İ) are read with the flag.
_LABEL_RE = re.compile(_LABELS)
_LABEL_I_RE = re.compile(_LABELS, re.I)
_ACRONYM_RE = re.compile(_ID_ACRONYMS)

# A group of the value: letters and digits of any script with their combining marks.
_GROUP_RE = re.compile(rf"(?:[^\W_]|[{MARKS}])+")
_SEP_RE = re.compile(r"[ \t]?(?:[-./·・][ \t]?|№[ \t]?)|[ \t]")
_STOP_RE = re.compile(r"[。！？!?；;\n]|\.\s|[,，、]\s*\S")
# A label about the number's form, not a number: "规则", "格式 123 ABC 02", "Muster", "esempio".
_ABOUT_RE = re.compile(r"(?i)格式|规则|規則|位|format|rule|example|sample|specimen|muster|esempio|ejemplo|exemple|"
                       r"образец|пример|"
                       # (the label names a place or a service, whose number follows: "passport office hotline is …")
                       r"office|hotline|phone|tel\b|fax|service|cent(?:er|re)|fee|photo|hours|appointment|oficina|"
                       r"bureau|büro|офис|телефон|电话|電話|热线|熱線|窗口|办理|辦理")
# Said right after the number: it is an example, a placeholder or invalid ("örnek, geçersiz", "är ett exempel").
_EXAMPLE_AFTER_RE = re.compile(
    r"(?i)example|sample|placeholder|dummy|fake|fictitious|invalid|exempel|beispiel|ungültig|esempio|ejemplo|"
    r"exemple|örnek|geçersiz|пример|образец|示例|样例|樣例|范例|範例|虚构|虛構|例子|예시|サンプル|架空")
_DIGIT_RE = re.compile(r"\d")
_MASK_RE = re.compile(r"[*•●×xX]{2,}")
_DATE_RE = re.compile(r"\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}|\d{4}(?:-\d{4})?")
GAP = 40


def _digits(s: str) -> int:
    return sum(c.isdigit() for c in s)


def _group_ok(group: str, kind: str) -> bool:
    """A group of a value: digits with capitals (``LP``, ``5QRDU8B``, ``С560НЕ``) or, on a plate, an
    uncased script's short syllable (``बा``, ``च``, ``沪A``); a lower-case word (``es``, ``emitido``,
    ``машины``) or Han characters around a number (a sentence going on: ``号码由18位组成``) end it."""
    letters = [c for c in group if c.isalpha()]
    if any(c.islower() for c in letters):
        return False
    uncased = [c for c in letters if not c.isupper()]
    if uncased:
        han = sum("\u4e00" <= c <= "\u9fff" for c in uncased)
        return kind == LICENCE_PLATE and len(uncased) <= 4 and han <= 1
    return any(c.isdigit() for c in group) or len(letters) <= (8 if kind == LICENCE_PLATE else 3)


def _value(text: str, pos: int, gap_end: int, end: int, kind: str) -> tuple[int, int] | None:
    """The first ID-shaped run in text[pos:end]: groups joined by single separators, trimmed of letter
    groups at either end that are words, holding enough digits."""
    i = pos
    while i < gap_end:
        m = _GROUP_RE.search(text, i, gap_end)
        if m is None:
            return None
        if _STOP_RE.search(text, i, m.start() + 1):
            return None
        groups = [m.span()]
        j = m.end()
        while True:
            s = _SEP_RE.match(text, j, end)
            if s is None:
                break
            g = _GROUP_RE.match(text, s.end(), end)
            if g is None:
                break
            groups.append(g.span())
            j = g.end()
        # (a lower-case word between groups ends the run; the first group must begin it)
        run: list[tuple[int, int]] = []
        for a, b in groups:
            g = text[a:b]
            if _group_ok(g, kind):
                run.append((a, b))
            elif run:
                break
            else:
                continue
        while run and not _digits(text[run[-1][0]:run[-1][1]]) and not (
                kind != LICENCE_PLATE and len(run) > 1 and text[run[-1][0]:run[-1][1]].isupper()):
            run.pop()
        while run and not _digits(text[run[0][0]:run[0][1]]) and kind != LICENCE_PLATE and not (
                len(run) > 1 and _digits(text[run[1][0]:run[1][1]]) and text[run[0][0]:run[0][1]].isupper()):
            run.pop(0)  # (a series before the number stays with it: "AXB 482913")
        if run and _ABOUT_RE.search(text, pos, run[0][0]):
            return None
        if run and (_MASK_RE.match(text, run[-1][1]) or text[run[0][0] - 1] in "*•●"):
            return None  # (a number with its middle masked is shown so that it cannot be read)
        if run and _fits(text[run[0][0]:run[-1][1]], kind):
            if _EXAMPLE_AFTER_RE.search(text, run[-1][1], min(len(text), run[-1][1] + 40)):
                return None
            return run[0][0], run[-1][1]
        if run:
            return None  # (the first number after the label is not an ID: "18位", "9 цифр", a year)
        i = m.end()
    return None


def _fits(value: str, kind: str) -> bool:
    digits = _digits(value)
    alnum = sum(c.isalnum() for c in value)
    if _DATE_RE.fullmatch(value) or alnum > 24 or any("a" <= c <= "z" for c in value):
        return False  # (hex digests and words have lower-case letters; the numbers on cards do not)
    if kind == LICENCE_PLATE:
        return digits >= 2 and 4 <= alnum <= 12 and len(value) <= 24
    numerals = "".join(c for c in value if c.isdigit())
    if len(set(numerals)) == 1 or numerals in "01234567890123" or numerals in "98765432109876":
        return False  # (000000000000, 123456789: a form's placeholder)
    if digits >= 5:
        return alnum >= 6
    # a code of capitals and digits (Azerbaijan's FIN ``5QRDU8B``, a passport ``C01X00T47``)
    return digits >= 2 and 7 <= alnum <= 12 and value.isalnum() and value.upper() == value


def labelled_ids(text: str) -> Iterator[Finding]:
    """IDs, passport numbers and plates after the word for them, in any of the lexicon's languages."""
    lower = text.lower()
    labels, source = (_LABEL_RE, lower) if len(lower) == len(text) else (_LABEL_I_RE, text)
    for rx in (labels, _ACRONYM_RE):
        for m in rx.finditer(source if rx is labels else text):
            start = m.start()
            if start and (text[start - 1].isascii() and text[start - 1].isalpha() or text[start - 1] == ".") \
                    and text[start].isascii():
                continue  # (inside a word: "placard", "ADNI")
            if _DIGIT_RE.search(text, m.end(), m.end() + GAP) is None:
                continue  # (no number within reach: most labels in prose)
            kind = RESIDENT_ID
            if rx is labels:
                kind = PASSPORT if m.group("passport") else LICENCE_PLATE if m.group("plate") or m.group(
                    "vplate") else RESIDENT_ID
            line_end = text.find("\n", m.end())
            line_end = len(text) if line_end < 0 else line_end
            if rx is labels and m.group("vplate") and not _VEHICLE_RE.search(
                    text, max(text.rfind("\n", 0, start) + 1, start - 60), min(line_end, m.end() + 60)):
                continue
            end = min(line_end, m.end() + GAP + 30)
            span = _value(text, m.end(), min(end, m.end() + GAP), end, kind)
            if span is None:
                continue
            if rx is _ACRONYM_RE and not text[m.end():span[0]].strip() and _digits(text[span[0]:span[1]]) < 8:
                continue  # (an acronym right before a short number may be another word's: "FIN 2024 Q3")
            yield Finding(kind, *span)
