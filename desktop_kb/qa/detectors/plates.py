"""Vehicle licence plates: a car's plate points at its owner as surely as a phone number.

A mainland plate has its own shape — a province's one-character abbreviation,
the city's letter, then five letters and digits (six on a new-energy plate,
with D or F at one end): 浙A·3K8M9, 粤B D12345. Letters I and O are never used.
That shape is read anywhere, with a digit required ("京A" alone is a city's
prefix in prose). Plates elsewhere (ABC-1234, AB12 CDE, PX 4827) look like
model and part numbers, so they count only right after the word for a plate.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_kb.qa.detectors.base import LICENCE_PLATE, Finding, near

_PROVINCES = "京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼" "滬雲遼魯蘇贛晉陝閩貴粵寧瓊"  # (and in Traditional script)
_L = "A-HJ-NP-Z"
# The city's letter may be typed in lower case (浙a12345); a plate for Hong Kong or Macau crossings,
# a learner's or a police car's has four characters and its suffix (粤Z·A123港).
_CN_PLATE_RE = re.compile(
    rf"[{_PROVINCES}][{_L}{_L.lower()}][ \t·•・.\-]?(?P<n>[DF][{_L}0-9]\d{{4}}|\d{{5}}[DF]|[{_L}0-9]{{5}}"
    rf"(?:[学警挂领港澳试超]|(?![A-Za-z0-9]))|[{_L}0-9]{{4}}[学警挂领港澳试超])")
# 车号 and "plate" alone name trains' and microscopes' numbers too: only the words for a car's plate.
_PLATE_WORDS_RE = re.compile(
    r"(?i)车牌|車牌|牌照|号牌|號牌|licen[cs]e\s+plate|number\s+plate|plate\s+(?:no\.?|number)|"
    r"car\s+(?:no\.?|number|reg(?:istration)?)(?![A-Za-z])|"
    r"vehicle\s+(?:no\.?|number|reg(?:istration)?(?:\s+no\.?)?)(?![A-Za-z])|"
    r"(?P<generic>(?<![A-Za-z])(?:registration|reg|rego|plate)(?![A-Za-z]))")
# A mainland plate typed in lower case after its word ("车牌 湘aablw5"); Thai plates after ทะเบียน
# (a digit, one or two consonants, up to four digits); a car's VIN after its word (17 characters, no I/O/Q).
_CN_PLATE_ANY_CASE_RE = re.compile(rf"[ \t:：是为]*(?P<v>[{_PROVINCES}][A-Za-z][ \t·•・.\-]?[A-Za-z0-9]{{5,6}})(?![A-Za-z0-9])")
_TH_PLATE_RE = re.compile(r"(?:ป้าย)?ทะเบียน(?:รถ)?[ \t:：]*(?P<v>\d?[ก-ฮ]{1,2}[ \t-]?\d{1,4})(?!\d)")
_VIN_RE = re.compile(
    r"(?i)(?:(?<![A-Za-z])VIN(?![A-Za-z])|车架号|車架號|车辆识别代号|車輛識別碼|车辆识别码|chassis(?:\s+(?:no\.?|number))?|"
    r"fahrgestellnummer|fahrzeug-?identifizierungsnummer|車台番号)[^\n]{0,16}?(?<![A-Za-z0-9])"
    r"(?P<v>(?-i:[A-HJ-NPR-Z0-9]{17}))(?![A-Za-z0-9])")
_INDIA_PLATE_RE = re.compile(r"[A-Z]{2}[ -]?\d{1,2}[ -]?[A-Z]{0,3}[ -]?\d{4}")
# "Registration" is a course's or an event's as often: a vehicle must be named on the line.
_VEHICLE_RE = re.compile(r"(?i)(?<![A-Za-z])(?:car|car's|cars|vehicle|van|truck|lorry|motorbike|motorcycle|scooter|"
                         r"ute|suv|taxi|carpool|car-?share|parking|rental\s+car|hire\s+car)(?![A-Za-z])|车|車")
# After the word: a few words or a colon ("registration is", "号：", "(台北)"), then the plate.
_AFTER_WORD_RE = re.compile(
    r"[^\n]{0,14}?(?<![A-Za-z0-9])(?P<v>[A-Z0-9]{1,8}(?:[ \-·][A-Z0-9]{1,5}){0,3})(?![A-Za-z0-9])")


def _line_above(text: str, pos: int) -> str:
    line_start = text.rfind("\n", 0, pos)
    return "" if line_start < 0 else text[max(text.rfind("\n", 0, line_start) + 1, line_start - 80):line_start]


def _plate_like(value: str) -> bool:
    core = re.sub(r"[ \-·]", "", value)
    longest = 11 if _INDIA_PLATE_RE.fullmatch(value) else 10 if value.count("-") == 2 else 8  # (Ireland's 12-D-34567)
    return 4 <= len(core) <= longest and re.search(r"\d", core) is not None and re.search(r"[A-Z]", core) is not None


# The word for a car's plate in other languages, as a label: right before ":" or "=", or ending a JSON or
# CSV key. Several also name other things (placa de vídeo, a student's matrícula, targa of a painting):
# only the word alone as the label counts, and the value must look like a plate.
_FOREIGN_WORDS_RE = re.compile(
    r"(?:kfz-?kennzeichen|kennzeichen|nummernschild|immatriculation|plaque(?:\s+d'immatriculation)?|"
    r"placa|matr[íi]cula|targa|kenteken|rejestracja|numer\s+rejestracyjny|registreringsnummer|rekisterinumero|"
    r"госномер|гос\.?\s?номер|номер\s+(?:машины|автомобиля|авто)|номерной\s+знак|차량\s?번호|번호판|"
    r"ナンバー(?:プレート)?|biển\s+số(?:\s+xe)?|ทะเบียนรถ|nomor\s+polisi|plat\s+nomor|"
    # Polish, Turkish (with its possessive), Swiss, Hungarian, Czech, Danish, Malay, Romanian, Croatian, Greek,
    # Arabic, Persian, Ukrainian
    r"nr\.?\s*rej\.?|numer\s+rej\.?|tablica(?:\s+rejestracyjna)?|plaka(?:s[ıi]|m|n[ıi]z)?|kontrollschild|"
    r"autonummer|rendsz[áa]m(?:a|om)?|spz|nummerplade|no\.?\s*plat|plat\s+nombor|nombor\s+plat|"
    r"num[ăa]r(?:ul)?\s+de\s+[îi]nmatriculare|reg\.?\s*oznaka|registarska\s+oznaka|πινακίδα|رقم\s+اللوحة|پلاک|"
    r"номерний\s+знак|"
    # plurals (placas, targhe, plaques, tablice) and the Nordic, Baltic, Balkan, Greek, Hebrew, Hindi, Argentine,
    # Indonesian and Swahili words (reg.nr, kjennemerke, numbrimärk, patente, αριθμός κυκλοφορίας, לוחית רישוי)
    r"placas|matr[íi]culas|targhe|plaques|tablice|reg\.?\s?nr\.?|bilnummer|nummerpl[åa]t|kjennemerke|kjennetegn|"
    r"skiltnummer|bilskilt|b[íi]ln[úu]mer|rekkari|rekisterikilpi|numbrim[äa]rk|registreerimisnumber|numurz[īi]me|"
    r"valstybinis\s+numeris|patente|registrska\s+(?:tablica|[šs]tevilka)|registarske\s+tablice|"
    r"регистрационен\s+номер|рег\.\s?номер|αριθμ[οό]ς\s+κυκλοφορ[ιί]ας|πινακ[ιί]δ(?:α|ες)|לוחית\s+רישוי|מספר\s+רכב|"
    r"नंबर\s+प्लेट|nopol|namba\s+ya\s+gari)(?![^\W\d_])")
# (matched in the lower-cased text without IGNORECASE or a look-behind first, so the engine skips ahead on
# the words' first characters; a word inside another is ruled out in code)


def _foreign_words(text: str, low: str) -> Iterator[re.Match[str]]:
    for m in _FOREIGN_WORDS_RE.finditer(low):
        if not (m.start() and (low[m.start() - 1].isalpha() or low[m.start() - 1] == "_")):
            yield m
# (the word may be qualified before its colon: "matrícula do carro:", "patente del auto:", "plaque de la voiture :")
_LABEL_END_RE = re.compile(r"(?:(?:[ \t]+(?:do|da|de|del|della|dell'|des|du|la|le|el|of|the|my|mi|mon|ma|meu|minha)"
                           r"(?=[ \t])){0,2}[ \t]+(?:carro|coche|auto|automóvil|automovil|voiture|véhicule|vehículo|"
                           r"veículo|macchina|vettura|moto|car|vehicle|bil|bilen|wagens?))?"
                           r"[\"']?[ \t]*[:：=][ \t]*[\"']?|[ \t]+(?=[A-Z0-9А-ЯЁ\u0391-\u03a9\uac00-\ud7af])")
_CYR_KO = "\u0391-\u03a9\u0410-\u042f\u0401\uac00-\ud7af"  # (and Greek capitals: ΗΚΟ-7181)
_VALUE_RE = re.compile(
    rf"(?P<v>[A-Z0-9ÄÖÜ{_CYR_KO}]{{1,9}}(?:[ \-·.][A-Z0-9ÄÖÜ{_CYR_KO}]{{1,6}}){{0,3}})(?![A-Za-z0-9{_CYR_KO}])")
# Singapore's plates carry a check letter: S, one or two letters, up to four digits, the letter.
_SG_RE = re.compile(r"S(?P<l>[A-Z]{1,2})(?P<d>\d{1,4})(?P<c>[A-EGHJ-MPR-UX-Z])(?![A-Za-z0-9])")  # (start: in code)


def _sg_check(letters: str, digits: str) -> str:
    values = [0] * (2 - len(letters)) + [ord(c) - 64 for c in letters] + [int(c) for c in digits.zfill(4)]
    return "AZYXUTSRPMLKJHGEDCB"[sum(v * w for v, w in zip(values, (9, 4, 5, 4, 3, 2), strict=True)) % 19]


def _foreign_plate(value: str) -> bool:
    """Letters and digits as plates have them: two letters or more (a Korean plate's one syllable), at most
    eight characters (nine with a Russian region's three digits): A01234567 is a student number."""
    core = re.sub(r"[ \-·.]", "", value)
    letters = len(re.findall(r"[A-ZÄÖÜ\u0391-\u03a9\u0410-\u042f\u0401]", core))
    hangul = len(re.findall(r"[\uac00-\ud7af]", core))
    cyrillic = re.search(r"[\u0410-\u042f\u0401]", core) is not None
    # (one letter where the plate is written in its groups with five digits: 29B1-123.45, 12-D-34567)
    grouped = letters == 1 and len(re.findall(r"\d", core)) >= 5 and re.search(r"[-.]", value) is not None
    return 4 <= len(core) <= (9 if cyrillic or grouped else 8) and re.search(r"\d", core) is not None \
        and (letters >= 2 or hangul == 1 and letters == 0 or grouped)


# Plates of digits only (Israel's 12-345-67, 123-45-678): three groups, under the word.
_DIGIT_PLATE_RE = re.compile(r"\d{2,3}-\d{2,3}-\d{2,3}(?![\d-])")


def _foreign(text: str, low: str) -> Iterator[Finding]:
    for word in _foreign_words(text, low):
        sep = _LABEL_END_RE.match(text, word.end())
        if sep is None:
            continue
        digits_only = _DIGIT_PLATE_RE.match(text, sep.end())
        if digits_only is not None:
            yield Finding(LICENCE_PLATE, digits_only.start(), digits_only.end())
            continue
        m = _VALUE_RE.match(text, sep.end())
        if m is None or not _foreign_plate(m.group("v")):
            continue
        after = text[m.end():m.end() + 1]
        if after and after not in "\n\r\t ,;，。；)）\"'(（":
            continue  # a plate ends its field: "RTX3060" in a phrase is something else
        yield Finding(LICENCE_PLATE, m.start("v"), m.end("v"))
    yield from _columns(text, low)


_SEPARATORS = (",", ";", "\t")


def _columns(text: str, low: str) -> Iterator[Finding]:
    """A CSV whose header names the plate's column (nome,placa,vaga): the cells under it, six rows down."""
    for word in _foreign_words(text, low):
        line_start = text.rfind("\n", 0, word.start()) + 1
        line_end = text.find("\n", word.end())
        header = text[line_start:len(text) if line_end < 0 else line_end]
        sep = next((c for c in _SEPARATORS if c in header), None)
        if sep is None or line_end < 0:
            continue
        cells = [c.strip().strip("\"'").lower() for c in header.split(sep)]
        if word.group(0).lower() not in cells:
            continue
        column = cells.index(word.group(0).lower())
        pos = line_end + 1
        for _ in range(6):
            end = text.find("\n", pos)
            end = len(text) if end < 0 else end
            row = text[pos:end].split(sep)
            if len(row) != len(cells):
                break
            start = pos + sum(len(c) + 1 for c in row[:column])
            value = row[column].strip().strip("\"'")
            if value and _VALUE_RE.fullmatch(value) and _foreign_plate(value):
                offset = text.index(value, start)
                yield Finding(LICENCE_PLATE, offset, offset + len(value))
            pos = end + 1


# Every word of _FOREIGN_WORDS_RE holds one of these (found with str.find, at C speed, before the regex).
_FOREIGN_ANCHORS = ("kennzeichen", "nummernschild", "immatric", "plaque", "placa", "matr", "targa", "kenteken", "rejestrac",
                    "registrerings", "rekisteri", "госномер", "гос", "номер", "차량", "번호판", "ナンバー", "biển", "ทะเบียน",
                    "nomor", "plat", "rej", "tablica", "plak", "kontrollschild", "autonummer", "rendsz", "spz",
                    "nummerplade", "înmatric", "inmatric", "oznaka", "πινακίδα", "اللوحة", "پلاک", "tablice", "reg",
                    "bilnummer", "nummerpl", "kjenne", "skilt", "biln", "rekkari", "numbrim", "registreerimis", "numurz",
                    "numeris", "patente", "registrsk", "registarsk", "регистрац", "рег.", "κυκλοφορ", "πινακ", "לוחית",
                    "מספר רכב", "प्लेट", "nopol", "namba ya gari")


# Plates written in Latin letters for a reader abroad: a mainland province in pinyin ("Yue B D1178", "Hu AX8449"),
# a Japanese plate in romaji (region, class, kana syllable, number: "Shinagawa 300 sa 26-63"), a Korean one
# romanised ("36Da 9450"). Each also spells a surname or a page reference, so a vehicle, a plate or parking is
# named on the line or the line above.
_PINYIN_PROVINCES = ("Jing|Jin|Hu|Yu|Ji|Yun|Liao|Hei|Xiang|Wan|Lu|Xin|Su|Zhe|Gan|Gui|Meng|Shaan|Min|Yue|Qing|Zang|"
                     "Chuan|Ning|Qiong")
_KANA = ("a|i|u|e|ka|ki|ku|ke|ko|sa|su|se|so|ta|chi|tsu|te|to|na|ni|nu|ne|no|ha|hi|fu|ho|ma|mi|mu|me|mo|ya|yu|yo|"
         "ra|ri|ru|re|ro|wa")
_HANGUL_ROMAN = ("Ga|Na|Da|Ra|Ma|Geo|Neo|Deo|Reo|Meo|Beo|Seo|Eo|Jeo|Go|No|Do|Ro|Mo|Bo|So|O|Jo|Gu|Nu|Du|Ru|Mu|Bu|Su|"
                 "U|Ju|Ha|Heo|Ho|Ba|Sa|A|Ja|Bae")
_ROMAN_PLATE_RE = re.compile(
    rf"(?<![A-Za-z0-9])(?:(?:{_PINYIN_PROVINCES})[ \t·.\-]?[{_L}][ \t·•.\-]?[{_L}0-9]{{5,6}}"
    rf"|[A-Z][a-z]{{2,12}}[ \t]\d{{2,3}}[ \t](?:{_KANA})[ \t]\d{{1,2}}-\d{{2}}"
    rf"|\d{{2,3}}[ \t]?(?:{_HANGUL_ROMAN})[ \t]?\d{{4}})(?![A-Za-z0-9])")
_PLATE_CONTEXT_RE = re.compile(r"(?i)plate|licen[cs]e|reg(?:istration|istered)?(?![a-z])|rego|parking|park(?:ed)?|"
                               r"permit|(?<![a-z])(?:car|cars|vehicle|van|truck|taxi|bike|motorbike|scooter|suv)(?![a-z])|"
                               r"车|車|駐車|주차")


def _roman_plates(text: str) -> Iterator[Finding]:
    for m in _ROMAN_PLATE_RE.finditer(text):
        if sum(c.isdigit() for c in m.group(0)) < 3:
            continue
        line_start, line_end = text.rfind("\n", 0, m.start()) + 1, text.find("\n", m.end())
        line = text[line_start:len(text) if line_end < 0 else line_end]
        if _PLATE_CONTEXT_RE.search(line) or _PLATE_CONTEXT_RE.search(_line_above(text, m.start())):
            yield Finding(LICENCE_PLATE, m.start(), m.end())


def licence_plates(text: str) -> Iterator[Finding]:
    if re.search(r"\d", text):
        yield from _roman_plates(text)
    if not text.isascii() or "S" in text:
        for m in _SG_RE.finditer(text):
            if m.start() and text[m.start() - 1].isascii() and text[m.start() - 1].isalnum():
                continue
            if _sg_check(m.group("l")[-2:], m.group("d")) == m.group("c") \
                    and near(text, m.start(), m.end(), _VEHICLE_RE, 24, 12):
                yield Finding(LICENCE_PLATE, m.start(), m.end())
    lower = text.lower()
    if len(lower) != len(text):  # (İ lower-cases to two characters: keep offsets the text's)
        lower = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    if any(w in lower for w in _FOREIGN_ANCHORS):
        yield from _foreign(text, lower)
    for m in _CN_PLATE_RE.finditer(text):
        if re.search(r"\d", m.group("n")):
            yield Finding(LICENCE_PLATE, m.start(), m.end())
    if "ทะเบียน" in text:
        yield from (Finding(LICENCE_PLATE, m.start("v"), m.end("v")) for m in _TH_PLATE_RE.finditer(text))
    if "vin" in lower or "车" in text or "車" in text or "chassis" in lower or "fahr" in lower:
        yield from (Finding(LICENCE_PLATE, m.start("v"), m.end("v")) for m in _VIN_RE.finditer(text)
                    if re.search(r"[A-Z]", m.group("v")) and len(re.findall(r"\d", m.group("v"))) >= 4)
    if "牌" not in text and "plate" not in lower and "reg" not in lower and "vehicle" not in lower:
        return
    for word in _PLATE_WORDS_RE.finditer(text):
        if word.group("generic") and not near(text, word.start(), word.end(), _VEHICLE_RE, 64, 40) \
                and not _VEHICLE_RE.search(_line_above(text, word.start())):
            continue  # (a heading names the car: "Host family car (Auckland)" over "rego: …")
        lowered = _CN_PLATE_ANY_CASE_RE.match(text, word.end())
        if lowered is not None and re.search(r"\d", lowered.group("v")):
            yield Finding(LICENCE_PLATE, lowered.start("v"), lowered.end("v"))
            continue
        m = _AFTER_WORD_RE.match(text, word.end())
        if m is not None and _plate_like(m.group("v")):
            yield Finding(LICENCE_PLATE, m.start("v"), m.end("v"))
