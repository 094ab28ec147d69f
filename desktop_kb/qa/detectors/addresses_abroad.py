"""Home addresses written the way other countries write them (see :mod:`addresses` for the rule).

The rule is the same everywhere: an address is a person's when it reaches
inside a building — a flat, a room, a floor, a unit — or when a word says it
is where someone lives or receives post. A museum, a station or a company is
found by its street and number and is fine to send; the flat on the third
floor left, room 208 or unit #10-319 is where a person sleeps.

* Japan: 百人町4-9-15 メゾン大久保 208号室, 2-21-1-305 — a block address with a
  room (号室) or a fourth number;
* Korea: 테헤란로 123, 101동 1202호 — a building and flat (동/호) of an estate;
* Singapore: Blk 353 Clementi Ave 4, #10-319 — a block and its #floor-unit;
* Germany, Austria: Kaiserstraße 101, 3. OG links; Mariahilfer Straße 12/3/14;
* France: 12 rue de la Paix, Bât. B, 3e étage, appt 34;
* Spain, Italy, Portugal, Latin America: Calle Mayor 10, 3º B; Via Roma 12, int. 5; Rua Augusta 100, 3º andar;
* any of them, a US or a UK address too, after a word for a home or a delivery
  (home address, ship to, 住址, 收件地址, お届け先, 배송지, Lieferadresse,
  adresse de livraison, dirección de envío …) — a shipping label or a form;
* under a plain "Address" (住所, 주소, Adresse, dirección …) in a form, a JSON
  record or a CSV that also holds a person's name field, unless the record
  names a public place (a museum, a station, a company, a university).

The finding covers the street or estate and the flat, and leaves the city: the
question may still say where it is about.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_kb.qa.detectors.base import ADDRESS, Finding

# ----- Japan -----------------------------------------------------------------------------------------

_JP_KANA = r"\u3040-\u30ff\u4e00-\u9fff々ヶ"
_JP_BLOCK_RE = re.compile(
    rf"(?P<town>[{_JP_KANA}]{{1,8}})?(?P<num>\d{{1,4}}(?:丁目|[-－‐−])\d{{1,4}}(?:番地?|[-－‐−])\d{{1,4}}号?)"
    rf"(?P<room>[-－‐−]\d{{2,5}}(?![\d-])|[ \t　]*[^\n\d]{{0,24}}?[ \t　]*\d{{1,5}}[ \t]?号室)?")
_JP_ADMIN = "都道府県市区郡"


def _glued(char: str, marks: str) -> bool:
    return bool(char) and ((char.isascii() and char.isalnum()) or char in marks)


def _inside_longer_code(text: str, m: re.Match[str]) -> bool:
    """Whether the block-number match is a piece of a longer code: a UUID
    (``0000180d-0000-1000-8000-00805f9b34fb``), an ORCID (``0000-0002-1825-0097``), a serial.
    Japanese block, lot and house numbers never start with 0 and are never glued to letters
    or to more dashed digits."""
    start = m.start("num") if m.group("town") is None else m.start("town")
    before = text[start - 1] if start else ""
    after = text[m.end():m.end() + 1]
    # A dot or slash before it is a version or a URL path (10.0-1-2-345, orcid.org/0000-…); after
    # it, a dot only ends the sentence.
    if _glued(before, "-－‐−_./") or _glued(after, "-－‐−_"):
        return True
    return any(part.startswith("0") for part in re.findall(r"\d+", m.group("num")))


_NANP_RE = re.compile(r"1-[2-9]\d\d-\d{3}-\d{4}")


def japanese_addresses(text: str) -> Iterator[Finding]:
    if "号室" not in text and not re.search(r"\d[-－‐−]\d{1,4}[-－‐−]\d{1,4}[-－‐−]\d", text):
        return
    for m in _JP_BLOCK_RE.finditer(text):
        if m.group("room") is None or _inside_longer_code(text, m):
            continue
        if m.group("town") is None and _NANP_RE.fullmatch(m.group(0)):
            continue  # 1-800-275-2273: a toll-free number, not chōme-ban-gō-room
        start = m.start("num")
        if m.group("town"):
            town = m.group("town")
            cut = max((i for i, c in enumerate(town) if c in _JP_ADMIN), default=-1)
            start = m.start("town") + cut + 1
        yield Finding(ADDRESS, start, m.end())


# ----- Korea -----------------------------------------------------------------------------------------

_KR_UNIT_RE = re.compile(r"(?P<dong>\d{1,4}[ \t]?동[ \t]?)?(?P<ho>\d{1,5}[ \t]?호)(?![선실점기차텔])")
_KR_ROAD_BEFORE_RE = re.compile(r"[가-힣A-Za-z0-9]{1,15}(?:로|길|대로)[ \t]?\d{1,4}(?:-\d{1,4})?(?:번길[ \t]?\d{1,4})?"
                                r"[ \t,]*(?:[가-힣A-Za-z0-9]{1,15}[ \t]?)?$")
_KR_ESTATE_BEFORE_RE = re.compile(r"[가-힣A-Za-z0-9]{1,15}(?:아파트|빌라|맨션|오피스텔|타운|하이츠|캐슬|자이|푸르지오|힐스테이트|"
                                  r"래미안|e편한세상|아이파크)[ \t]?$")


def korean_addresses(text: str) -> Iterator[Finding]:
    if "호" not in text:
        return
    for m in _KR_UNIT_RE.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        before = text[max(line_start, m.start() - 40):m.start()]
        road = _KR_ROAD_BEFORE_RE.search(before)
        estate = _KR_ESTATE_BEFORE_RE.search(before)
        if road is not None:
            yield Finding(ADDRESS, m.start() - len(before) + road.start(), m.end())
        elif m.group("dong") is not None:  # 101동 1202호: a flat in an estate, whatever comes before
            start = m.start() - len(before) + estate.start() if estate is not None else m.start()
            yield Finding(ADDRESS, start, m.end())


# ----- Singapore ------------------------------------------------------------------------------------

# Hong Kong: a flat on a floor (Flat B, 10/F, Block 3).
_HK_RE = re.compile(r"\b(?:Flat|Room|Rm|Unit|Apt)\.?[ \t]?[A-Z0-9]{1,5},?[ \t]*\d{1,2}/F\b(?:,?[ \t]*(?:Block|Blk|Tower|Twr)\.?"
                    r"[ \t]?[A-Z0-9]{1,3}\b)?")
_SG_RE = re.compile(r"(?:\b(?:Blk|Block|Apt\s+Blk)\.?\s?\d{1,4}[A-Z]?\b|\b\d{1,4}[A-Z]?\s+(?=[A-Z]))"
                    r"[^\n#]{0,50}?#\d{1,3}-\d{1,5}[A-Z]?\b")


_SG_UNIT_RE = re.compile(r"#\d{1,3}-\d")


def singapore_addresses(text: str) -> Iterator[Finding]:
    if "#" in text and _SG_UNIT_RE.search(text):
        yield from (Finding(ADDRESS, m.start(), m.end()) for m in _SG_RE.finditer(text))
    if "/F" in text:
        yield from (Finding(ADDRESS, m.start(), m.end()) for m in _HK_RE.finditer(text))


# ----- Europe and Latin America ------------------------------------------------------------------------

_UPPER = "A-ZÄÖÜÀÂÇÉÈÊËÎÏÔÙÛÁÍÓÚÑ"
_LOWER = "a-zäöüßàâçéèêëîïôùûáíóúñ"
# A street and its number: Kaiserstraße 101, Berliner Str. 5a, 12 rue de la Paix, Calle Mayor 10, Via Roma 12.
_EU_STREET_RE = re.compile(
    rf"(?P<de>\b[{_UPPER}][{_LOWER}]+(?:[- ][{_UPPER}]?[{_LOWER}]+)*?[- ]?(?:[Ss]tra(?:ß|ss)e|[Ss]tr\.|[Ww]eg|[Gg]asse|"
    rf"[Pp]latz|[Aa]llee|[Rr]ing|[Dd]amm|[Uu]fer|[Cc]haussee|[Ss]teig|[Pp]fad|[Ss]tieg|[Zz]eile)[ \t]+\d{{1,4}}[ \t]?[a-z]?"
    rf"(?:/\d{{1,3}}){{0,3}}(?![\d/]))"
    rf"|(?P<fr>\b\d{{1,4}}(?:[ \t]?(?:bis|ter))?,?[ \t]+(?:rue|avenue|av\.|boulevard|bd|allée|chemin|place|impasse|quai|"
    rf"cours|route|square|passage|villa|faubourg)[ \t]+[^\n,;]{{2,40}}?(?=[,;\n]|$))"
    rf"|(?P<es>\b(?:Calle|C/|Avda\.?|Avenida|Av\.|Plaza|Pza\.|Paseo|Camino|Carrer|Rua|Travessa|Via|Viale|Piazza|Corso|"
    rf"Largo|Rambla|Ronda|Carretera|Alameda)[ \t]+[^\n,;\d]{{2,40}}?,?[ \t]*(?:n[ºo°]\.?[ \t]*)?\d{{1,4}}[a-zA-Z]?\b)",
    re.M)
# Inside the building: a floor, a flat, a door, a staircase (German, French, Spanish, Italian, Portuguese).
_EU_FLAT_RE = re.compile(
    r"\d{1,2}\.[ \t]?(?:OG|Obergeschoss|Stock|Etage)\b|\b(?:EG|DG|UG|Erdgeschoss|Dachgeschoss|Hinterhaus|"
    r"Vorderhaus|Seitenflügel)\b|\b(?:Whg|Wohnung|App|Top|Tür|Stiege)\.?[ \t]?\d{1,4}\b|"
    r"\b(?:appartement|appt|apt|app)\.?[ \t]?(?:n[°o]\.?[ \t]?)?\d{1,4}\b|\bb[âa]t(?:iment|\.)?[ \t]?[A-Z0-9]{1,3}\b|"
    r"\bescalier[ \t][A-Z0-9]{1,3}\b|\b\d{1,2}(?:e|er|ème|eme)[ \t]?étage\b|\bporte[ \t]\d{1,4}\b|"
    # (NFKC has made "º" an "o" and "ª" an "a": 4º izda. arrives as "4o izda.")
    r"\b\d{1,2}[ \t]?[ºª°oa][ \t]?(?:[A-Z]\b|izda\.?|izq(?:uierda)?\.?|dcha\.?|dra\.?|derecha|centro|puerta|andar|piso|"
    r"dto\.?)|"
    r"\b(?:piso|puerta|planta|escalera|esc\.|interno|int\.|scala|piano|apto\.?|apartamento|andar|dpto\.?|"
    r"departamento)[ \t]?\d{1,4}[A-Z]?\b|\bbajo[ \t]?[A-Z]?\b", re.I)


_JOINT_RE = re.compile(r"[ \t]*[,/–-]?[ \t]*")


def _flats_after(text: str, pos: int, line_end: int) -> int:
    """Where the flat parts right after ``pos`` end (", Bât. B, 3e étage"), or ``pos`` if none follows."""
    while True:
        joint = _JOINT_RE.match(text, pos, line_end)
        flat = _EU_FLAT_RE.match(text, joint.end() if joint else pos, line_end)
        if flat is None or flat.end() == pos:
            return pos
        pos = flat.end()


def _flats_before(text: str, pos: int, line_start: int) -> int:
    """Where the flat parts right before ``pos`` begin ("Appt 12, 5 rue …"), or ``pos`` if none."""
    while True:
        found = None
        for flat in _EU_FLAT_RE.finditer(text, max(line_start, pos - 24), pos):
            if _JOINT_RE.fullmatch(text, flat.end(), pos):
                found = flat
        if found is None:
            return pos
        pos = found.start()


# A word of a flat (or of an Austrian street, whose flat is in its number: 112/3/14), in the lower-cased
# text: only its lines are read for a street.
_EU_HINT_RE = re.compile(
    r"og|obergeschoss|stock|etage|eg|dg|ug|erdgeschoss|dachgeschoss|hinterhaus|vorderhaus|seitenflügel|whg|wohnung|"
    r"app|top|tür|stiege|bât|bat|escalier|étage|porte|izda|izq|dcha|dra|derecha|centro|puerta|andar|piso|dto|"
    r"planta|escalera|esc.|interno|int.|scala|piano|apto|apartamento|dpto|departamento|bajo|straße|strasse|gasse")


def european_addresses(text: str) -> Iterator[Finding]:
    low = text.lower()
    read_to = -1
    for h in _EU_HINT_RE.finditer(low):
        if h.start() <= read_to or h.group(0) not in ("straße", "strasse", "gasse") and h.start() \
                and low[h.start() - 1].isalpha():
            continue  # a stretch already read, or a word inside another ("begin", "laptop")
        # The street stands within a few words of its flat: read its line around the word only.
        line_start = text.rfind("\n", 0, h.start()) + 1
        line_end = text.find("\n", h.start())
        line_end = len(text) if line_end < 0 else line_end
        start, read_to = max(line_start, h.start() - 120), min(line_end, h.end() + 120)
        yield from _european_line(text, start, read_to)


def _european_line(text: str, line_start: int, line_end: int) -> Iterator[Finding]:
    for m in _EU_STREET_RE.finditer(text, line_start, line_end):
        # The flat right after the street (", 3. OG links") or right before it ("Appt 12, 5 rue …").
        end = _flats_after(text, m.end(), line_end)
        start = _flats_before(text, m.start(), line_start)
        austrian = m.group("de") is not None and "/" in m.group("de")
        if start == m.start() and end == m.end() and not austrian:
            continue
        # "3. OG links", "2º izda.": the side of the landing belongs to the flat.
        side = re.match(r"[ \t]+(?:links|rechts|mitte|gauche|droite|izq(?:uierda|da)?\.?|dcha\.?|derecha|esq\.?|"
                        r"dto\.?)\b", text[end:line_end], re.I)
        yield Finding(ADDRESS, start, end + (side.end() if side else 0))


# ----- after a word for a home or a delivery -------------------------------------------------------------

# (Lower-case words, matched in the lower-cased text: see id_documents._WORDS_RE.)
_HOME_WORDS_LATIN_RE = re.compile(
    r"home\s+address|residential\s+address|mailing\s+address|shipping\s+address|delivery\s+address|"
    r"billing\s+address|ship\s+to|deliver\s+to|my\s+address|current\s+address|permanent\s+address|"
    r"address\s+line\s*[12]|street\s+address|adresszeile\s*[12]|"
    r"wohnadresse|privatadresse|heimadresse|lieferadresse|wohnanschrift|meldeadresse|rechnungsadresse|"
    r"adresse\s+(?:personnelle|de\s+livraison|du\s+domicile|postale|de\s+facturation)|domicile|"
    r"direcci[oó]n\s+(?:de\s+env[ií]o|particular|de\s+entrega|postal|de\s+facturaci[oó]n)|domicilio|"
    r"indirizzo\s+(?:di\s+casa|di\s+residenza|di\s+spedizione|di\s+consegna)|residenza|"
    r"endere[cç]o\s+(?:residencial|de\s+entrega|de\s+cobran[cç]a)|morada|"
    # Polish, Turkish, Indonesian and Malay, Vietnamese (the same words for a home or a delivery)
    r"adres\s+(?:do\s+korespondencji|zamieszkania|domowy|dostawy|zameldowania)|"
    r"(?:kargo|ev|teslimat|ikamet|fatura)\s+adres(?:i|im)?|"
    r"alamat\s+(?:kos|rumah|pengiriman|tinggal|domisili|surat)|"
    r"đ[ịi]a\s+ch[ỉi]\s+(?:nh[àa]|nh[ậa]n\s+h[àa]ng|giao\s+h[àa]ng|th[ưu][ờo]ng\s+tr[úu]|li[êe]n\s+l[ạa]c)")
_HOME_WORDS_CJK_RE = re.compile(
    r"我的地址|住址|住所(?=[ \t]*[:：])|住处|住處|家庭住址|家庭地址|家住|现住址|現住址|现居|現居|收件地址|收货地址|收貨地址|收件人地址|寄到|送货地址|送貨地址|"
    r"居住地址|户籍地址|戶籍地址|自宅|現住所|お届け先|送付先|配送先|お送り先|ご住所|집[ \t]?주소|자택|배송지|받는[ \t]?(?:분|사람)|"
    r"ที่อยู่ส่งของ|ที่อยู่จัดส่ง|ที่อยู่บ้าน|ที่อยู่ปัจจุบัน")
# What an address holds besides a number: a word for a street, a block or a flat, or a postcode.
_ADDRESS_WORD_RE = re.compile(
    r"[路街道巷弄号號栋棟楼樓室村丁目番地町동호로길〒]|ハイツ|コーポ|マンション|レジデンス|メゾン|"
    r"\b(?:street|st|road|rd|avenue|ave|lane|ln|drive|dr|way|court|ct|"
    r"place|pl|blvd|boulevard|close|crescent|terrace|hwy|apt|flat|unit|suite|blk|block|rue|calle|via|rua|avenida|"
    r"straße|strasse|str|weg|gasse|platz|allee|ul|ulica|mah|cad|sok|sokak|jl|jalan|gang|society|wing|nagar|marg|"
    r"ngõ|ngách|phố|đường)\b|ซอย|ถนน|บ้านเลขที่|[a-zäöüß](?:straße|strasse|weg|gasse|platz|allee)\b|"
    r"\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b|\b[A-Z]{2}\s\d{5}\b|\d{1,4}[-－‐]\d{1,4}[-－‐]\d{1,4}", re.I)
_DIGIT_RE = re.compile(r"\d")


_ADMIN_PREFIX_RE = re.compile(r"(?:[\u4e00-\u9fff]{1,6}?[省市區区縣县都道府県郡州][ \t]?|"
                              r"[가-힣]{1,8}(?:특별시|광역시|특별자치시|특별자치도|도|시|군|구)[ \t]+)+")
_SEPARATOR_RE = re.compile(r"[ \t]*(?:[:：]|-|→|=)?[ \t]*")


def _value_lines(text: str, pos: int) -> tuple[int, int] | None:
    """The address after a label ending at ``pos``: the rest of its line, or the next lines (a shipping
    label's name, street and town) up to a blank line, at most four."""
    line_end = text.find("\n", pos, pos + 400)  # (an address is shorter: a long line is read no further)
    line_end = min(len(text), pos + 400) if line_end < 0 else line_end
    sep = _SEPARATOR_RE.match(text, pos, line_end)
    start = sep.end() if sep else pos
    if _DIGIT_RE.search(text, start, line_end):
        return start, line_end
    # (no number on the label's line: a remark, "Adres do korespondencji (akademik odpada):", the address below)
    end = line_end
    for _ in range(4):
        nxt = text.find("\n", end + 1)
        nxt = len(text) if nxt < 0 else nxt
        if end + 1 > len(text) or not text[end + 1:nxt].strip():
            break
        end = nxt
    return (line_end + 1, end) if end > line_end else None


# Every word above in a Latin script holds one of these (found with str.find, at C speed): only the
# lines that hold one are read for the words.
_HOME_ANCHORS = ("addr", "adres", "direcci", "indirizzo", "endere", "anschrift", "domicil", "residenz", "morada",
                 "ship to", "deliver to", "alamat", "địa chỉ", "dia chi")


def _home_words(text: str) -> Iterator[int]:
    """Where each word for a home or a delivery ends."""
    yield from (m.end() for m in _HOME_WORDS_CJK_RE.finditer(text))
    low = text.lower()
    if len(low) != len(text):
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    lines: set[int] = set()
    for anchor in _HOME_ANCHORS:
        pos = low.find(anchor)
        while pos >= 0:
            lines.add(low.rfind("\n", 0, pos) + 1)
            pos = low.find(anchor, low.find("\n", pos) + 1 if "\n" in low[pos:] else len(low))
    for line_start in sorted(lines):
        line_end = low.find("\n", line_start)
        for m in _HOME_WORDS_LATIN_RE.finditer(low, line_start, len(low) if line_end < 0 else line_end):
            if not (m.start() and low[m.start() - 1].isascii() and low[m.start() - 1].isalpha()):
                yield m.end()  # ("relationship to" is not "ship to")


# In a sentence ("我家在…", "寄到我住的…"), a house number and a floor above it (100號5樓): "住在 5 楼" alone is
# a floor, "住在罗素广场56号" a public square's number, and neither says which flat.
_HOME_PROSE_RE = re.compile(r"我家|家在|住在|我住|寄给我|寄給我|送到")
_HOUSE_FLOOR_RE = re.compile(r"[路街道巷弄村里][^，。！？；,\n]{0,12}?\d{1,5}[ \t]?[号號][ \t]?\d{1,3}[ \t]?(?:楼|樓|层|層|F)")


_CLAUSE_END_RE = re.compile(r"[，。！？；,!?;\n]|$")


# The same in the languages written with Latin or Cyrillic letters: "I live at 1428 Elm Street", "the blue house at 8
# Orchard Lane", "Ich wohne in der Kastanienallee 17", "j'habite au 12 rue des Lilas", "vivo en la calle Mayor 23",
# "живу на ул. Ленина, 5": the place after the verb, up to the comma after its number, is a home when it holds a
# number and a word for a street (a city after the comma is left, as elsewhere).
_HOME_PROSE_LATIN_RE = re.compile(
    r"(?i)(?<![\w'])(?:i\s+live|we\s+live|(?:i'm|i\s+am|we're|we\s+are)\s+living|(?:she|he|they)\s+lives?|"
    r"(?:my|our|his|her|their)\s+(?:house|home|place|flat|apartment|dorm)\s+is|(?:the|a)\s+(?:\w+\s+)?house|"
    r"wohne|wohnen|j'habite|nous\s+habitons|(?<![a-z])(?:habito|vivo|vivimos|moro|moramos|abito|mieszkam|woon|bor)|"
    r"живу|живём|живем|проживаю|мешкаю|живу)"
    r"\s+(?:(?:at|on|in|auf|in\s+der|im|am|au|à|en|en\s+la|na|no|em|in\s+via|a|в|на|по|przy|op|aan|i|på)\s+)")
_HOME_CLAUSE_END_RE = re.compile(r"[.;!?\n]|,(?!\s*\d)")
_AFTER_PLACE_RE = re.compile(r"(?i)\s(?:is|was|are|were|has|had|and|but|which|where|that|with|for|since|ist|est|es|é)\b")


def _latin_prose_homes(text: str) -> Iterator[Finding]:
    for m in _HOME_PROSE_LATIN_RE.finditer(text):
        line_end = text.find("\n", m.end(), m.end() + 120)
        limit = m.end() + 120 if line_end < 0 else line_end
        digit = _DIGIT_RE.search(text, m.end(), limit)
        if digit is None or digit.start() - m.end() > 60:
            continue
        end_m = _HOME_CLAUSE_END_RE.search(text, digit.end(), limit)
        end = end_m.start() if end_m else limit
        verb = _AFTER_PLACE_RE.search(text, m.end(), end)  # "221B Baker Street is a museum now"
        if verb is not None and verb.start() < digit.start():
            continue  # "I live in Shanghai and my school is at the 3rd ring road": the number is another clause's
        end = verb.start() if verb else end
        value = text[m.end():end].rstrip(" \t\"'")
        if len(value) <= 80 and _ADDRESS_WORD_RE.search(value):
            yield Finding(ADDRESS, m.end(), m.end() + len(value))


def _prose_homes(text: str) -> Iterator[Finding]:
    for m in _HOME_PROSE_RE.finditer(text):
        end = _CLAUSE_END_RE.search(text, m.end()).start()  # type: ignore[union-attr]
        house = _HOUSE_FLOOR_RE.search(text, m.end(), min(end, m.end() + 60))
        if house is not None:
            pos = m.end() + text.startswith("在", m.end())
            admin = _ADMIN_PREFIX_RE.match(text, pos)  # 台北市大安區 is left, as in addresses
            yield Finding(ADDRESS, admin.end() if admin else pos, house.end())


# A plain "Address:" with a flat in it: a flat is where a person sleeps (Flat No. 105, B-Wing; m. 14; D:5).
_PLAIN_ADDRESS_RE = re.compile(r"(?im)(?:^|[\s(])(?:address|adres|alamat|đ[ịi]a\s+ch[ỉi]|ที่อยู่)[ \t]*[:：]")
_FLAT_IN_RE = re.compile(r"(?i)\bflat\s*(?:no\.?\s*)?\d|\bapt\.?\s*\d|\bapartment\s*\d|\broom\s*(?:no\.?\s*)?\d|"
                         r"\bm\.\s?\d|\bD\s?:\s?\d|\bdaire\s*\d|\bkamar\s*(?:no\.?\s*)?\d|\b[A-Z]-wing\b|"
                         r"\bRT\s*\d{1,3}\s*/\s*RW\s*\d|ngách|บ้านเลขที่")


_PLAIN_ANCHORS = ("address", "adres", "alamat", "địa", "đia", "ที่อยู่")


def _plain_labels_with_a_flat(text: str) -> Iterator[int]:
    low = text.lower()
    if not any(a in low for a in _PLAIN_ANCHORS) or _FLAT_IN_RE.search(text) is None:
        return  # (one pass: a flat anywhere, or no plain label needs reading)
    for m in _PLAIN_ADDRESS_RE.finditer(text) if ":" in text or "：" in text else ():
        line_end = text.find("\n", m.end(), m.end() + 160)  # (a flat is near its label: a line of many
        if _FLAT_IN_RE.search(text, m.end(), m.end() + 160 if line_end < 0 else line_end):  # labels stays linear)
            yield m.end()


def labelled_home_addresses(text: str) -> Iterator[Finding]:
    yield from _prose_homes(text)
    if re.search(r"(?i)live|living|house|home|place|flat|apartment|dorm|wohn|habit|vivo|vivimos|moro|abito|mieszk|woon|"
                 r"bor|жив|прожива|мешка", text):
        yield from _latin_prose_homes(text)
    for word_end in (*_home_words(text), *_plain_labels_with_a_flat(text)):
        span = _value_lines(text, word_end)
        if span is None:
            continue
        start, end = span
        value = text[start:end]
        if len(value) > 300 or not _DIGIT_RE.search(value) or not _ADDRESS_WORD_RE.search(value):
            continue
        lead = len(value) - len(value.lstrip(" \t\"'「“"))
        trail = len(value) - len(value.rstrip(" \t\"',」”;。."))
        admin = _ADMIN_PREFIX_RE.match(text, start + lead, end - trail)  # 台中市西屯區, 東京都渋谷区: left, as in addresses
        yield Finding(ADDRESS, admin.end() if admin else start + lead, end - trail)


# ----- in a form about a person --------------------------------------------------------------------------

# A plain "Address:" field is a person's when the same form (its block of lines, or its CSV header) has a
# name field and neither names a public place: a museum's listing gives its own name, a person's form a
# person's.
_PLAIN_LABEL_RE = re.compile(r"(?:addr(?:ess)?|adresse|anschrift|direcci[oó]n|indirizzo|endere[cç]o|morada|地址|住所|주소)"
                             r"[\"']?[ \t]*(?:[:：=,\t|]|$)")
_NAME_FIELD_RE = re.compile(r"(?:full[ _-]?name|name|recipient|nombre|nom|prénom|vorname|nachname|nome|姓名|氏名|名前|"
                            r"お名前|宛名|이름|성명|收件人|联系人|聯絡人)[\"']?[ \t]*(?:[:：=,\t|]|$)")
VENUE_WORDS_RE = re.compile(
    r"museum|museo|musée|museu|universi|college|school|hospital|hotel|station|bahnhof|gare|airport|library|"
    r"biblio|church|cathedral|temple|embassy|consulate|office|(?<![a-z])(?:inc|ltd|llc|gmbh|corp|co\.|s\.a\.)(?![a-z])|"
    r"company|博物|大学|大學|学院|學院|医院|醫院|酒店|飯店|宾馆|车站|車站|机场|機場|图书馆|圖書館|公司|大使馆|大使館|领事馆|"
    r"領事館|美术馆|美術館|寺|神社|駅|病院|ホテル|박물관|대학|병원|호텔|공항|도서관|회사|대사관")


def _block(text: str, pos: int) -> tuple[int, int]:
    """The lines around ``pos`` up to a blank line (at most six either way): one form or record."""
    start = end = pos
    for _ in range(6):
        prev = text.rfind("\n", 0, max(0, start - 1))
        if start == 0 or not text[prev + 1:start - 1].strip():
            break
        start = prev + 1
    start = text.rfind("\n", 0, start) + 1
    for _ in range(6):
        nxt = text.find("\n", end + 1)
        if nxt < 0:
            return start, len(text)
        if not text[end + 1:nxt].strip():
            break
        end = nxt
    line_end = text.find("\n", end) if end == pos else end
    return start, len(text) if line_end < 0 else line_end


def _field_boundary(low: str, pos: int) -> bool:
    return not (pos and (low[pos - 1].isalpha() or low[pos - 1] == "_"))


def form_addresses(text: str) -> Iterator[Finding]:
    low = text.lower()
    if len(low) != len(text):
        return  # (rare letters whose lower case is longer: offsets would not match)
    for m in _PLAIN_LABEL_RE.finditer(low):
        if not _field_boundary(low, m.start()):
            continue
        start, end = _block(text, m.start())
        start, end = max(start, m.start() - 400), min(end, m.end() + 400)  # (a long line of fields: nearby only)
        names = [n for n in _NAME_FIELD_RE.finditer(low, start, end) if _field_boundary(low, n.start())]
        if not names or VENUE_WORDS_RE.search(low, start, end):
            continue
        line_start = text.rfind("\n", 0, m.start()) + 1
        line_end = text.find("\n", m.start())
        line = text[max(line_start, m.start() - 400):min(m.end() + 400, len(text) if line_end < 0 else line_end)]
        if ":" not in line and "：" not in line and "=" not in line and ("," in line or "\t" in line):
            yield from _csv_column(text, low, m, line_start)
            continue
        span = _value_lines(text, m.end())
        if span is None:
            continue
        value = text[span[0]:min(span[1], span[0] + 201)].split("\n\n")[0]
        if len(value) > 200 or not _DIGIT_RE.search(value) or not _ADDRESS_WORD_RE.search(value):
            continue
        lead = len(value) - len(value.lstrip(" \t\"'「“"))
        trail = len(value) - len(value.rstrip(" \t\"',」”;。.}"))
        admin = _ADMIN_PREFIX_RE.match(text, span[0] + lead, span[0] + len(value) - trail)
        yield Finding(ADDRESS, admin.end() if admin else span[0] + lead, span[0] + len(value) - trail)


def _csv_column(text: str, low: str, m: re.Match[str], line_start: int) -> Iterator[Finding]:
    """The cells under an address column of a CSV header (name,address,city …), row by row."""
    line_end = text.find("\n", line_start)
    if line_end < 0:
        return
    header = low[line_start:line_end].split(",")
    column = next((i for i, cell in enumerate(header) if _PLAIN_LABEL_RE.fullmatch(cell.strip().strip("\"'") + ":")
                   or _PLAIN_LABEL_RE.fullmatch(cell.strip().strip("\"'"))), None)
    if column is None:
        return
    pos = line_end + 1
    for _ in range(8):
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        cells = text[pos:end].split(",")
        if len(cells) != len(header):
            return
        cell_start = pos + sum(len(c) + 1 for c in cells[:column])
        cell = cells[column]
        if _DIGIT_RE.search(cell) and _ADDRESS_WORD_RE.search(cell):
            lead = len(cell) - len(cell.lstrip(" \"'"))
            yield Finding(ADDRESS, cell_start + lead, cell_start + len(cell.rstrip(" \"'")))
        pos = end + 1
        if pos >= len(text):
            return


def addresses_abroad(text: str) -> Iterator[Finding]:
    yield from japanese_addresses(text)
    yield from korean_addresses(text)
    yield from singapore_addresses(text)
    yield from european_addresses(text)
    yield from labelled_home_addresses(text)
    yield from form_addresses(text)
