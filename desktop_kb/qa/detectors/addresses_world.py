"""A home address in any language, found by the parts every address has rather than by a country's pattern.

Everywhere a street address is a street-type word (Street, rue, Calle, ulica, utca, iela, Caddesi, Jalan,
phố, ул., вул., רחוב, شارع, خیابان, ซอย, मार्ग …, or a name ending in one: Nørrebrogade, Mannerheimintie)
next to its name and a house number (``No. 8``, ``nr. 34``, ``d. 5``, ``پلاک ۱۲``, ``Số 11``, ``45/2``).
That alone is any building's address — a museum's, an embassy's — and passes. It is a person's when the
same stretch reaches inside the building (a flat, a floor, a door, a staircase, a block: ``kv. 259``,
``D:7``, ``5. tv``, ``lgh 1203``, ``bte 3``, ``et. 4, ap. 41``, ``דירה 9``, ``شقة ١٠``, ``واحد ۴``, ``3. em.
12. ajtó``), or when its line says it is a home or where something is sent (a word for an address, a home,
a delivery or a rent in the language of the line, or "my", "I live", "send to").

The finding covers the street, its number and the flat, with the parts between them; the city and postcode
after them are left, as elsewhere. See :mod:`addresses` for Chinese and English chains, :mod:`addresses_abroad`
and :mod:`postal` for the country forms this generalises.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_kb.qa.detectors.addresses_abroad import VENUE_WORDS_RE
from desktop_kb.qa.detectors.base import ADDRESS, Finding

_L = r"[^\W\d_]"  # a letter of any script
# Street types written as words of their own (before or after the street's name), lower-cased text.
_STREET_WORDS = (
    # English and the Commonwealth (India's "4th Cross", "Main")
    r"street|st|road|rd|avenue|ave|av|lane|ln|drive|dr|boulevard|blvd|way|court|ct|place|pl|terrace|close|crescent|"
    r"cross|main|highway|hwy|parkway|pkwy|square|sq|row|walk|alley|gardens|grove|mews|hill|parade|circle|trail|quay|"
    # French, Spanish, Portuguese, Italian, Catalan, Romanian
    r"rue|allée|chemin|impasse|quai|cours|calle|c/|avda|avenida|paseo|camino|carrer|plaza|pasaje|psje|jr|jirón|"
    r"jiron|ronda|carretera|rua|travessa|largo|alameda|estrada|via|viale|piazza|corso|vicolo|strada|str|bd|"
    r"bulevardul|calea|aleea|șos|sos|"
    # Germanic, Nordic, Baltic, Slavic, Hungarian, Turkish
    r"straße|strasse|weg|gasse|platz|allee|ring|damm|ufer|straat|laan|gracht|plein|kade|singel|gade|vej|vei|"
    r"veien|gate|gata|gatan|väg|vägen|tie|katu|kuja|iela|gatvė|tänav|mnt|ulica|ul|aleja|al|os|osiedle|ulice|třída|"
    r"nám|utca|út|útja|körút|tér|cad|caddesi|cd|sok|sokak|sk|sokağı|mah|mahallesi|bulvar|bulvarı|"
    # Malay and Indonesian, Vietnamese, Greek, Cyrillic
    r"jalan|jl|jln|gang|gg|lorong|đường|phố|ngõ|ngách|hẻm|οδός|οδος|λεωφόρος|πλατεία|ул|улица|вул|вулиця|проспект|"
    r"пр|пр-т|просп|пер|переулок|провулок|шоссе|бульвар|б-р|наб|набережная|пл|площадь|проезд|тупик|"
    # Hebrew, Arabic, Persian, Thai, Hindi, Bengali, Swahili
    r"רחוב|רח'|שדרות|שד'|דרך|סמטת|شارع|طريق|زقاق|ممر|خیابان|کوچه|بلوار|بزرگراه|ถนน|ซอย|ตรอก|मार्ग|गली|रोड|"
    r"সড়ক|রোড|লেন|mtaa|barabara")
# Types written capitalised as part of the name (Baker Street, Lindenweg's "Weg" alone, Ring): lower-case, they are
# words ("on the way", "ring the bell"). The others are written lower-case too (rue, calle, ul., utca, iela, phố).
_CASED_TYPES = frozenset(_STREET_WORDS.split("|rue|")[0].split("|")) | frozenset(
    ["straße", "strasse", "weg", "gasse", "platz", "allee", "ring", "damm", "ufer", "straat", "laan", "gracht", "plein", "kade", "singel", "tie", "katu", "kuja"])
_STREET_RE = re.compile(rf"(?<![\w'])(?:{_STREET_WORDS})(?![\w'])\.?|(?:ซอย|ถนน|ตรอก)")  # (Thai runs words together)
# A street name ending in its type: Nørrebrogade, Mannerheimintie, Kastanienallee, Storgatan, Váci utca's kin.
_SUFFIX_RE = re.compile(
    r"(?<=[a-zà-ÿąćęłńóśźżčřšžőűāēīūøåæ])(?:gade|gaden|vej|vejen|veien|gata|gatan|vägen|tie|tien|katu|kuja|straße|"
    r"strasse|weg|gasse|platz|allee|straat|laan|gracht|plein|kade|iela|gatvė|tänav|utca|caddesi|sokak|sokağı|"
    r"bulvarı)(?![\w])")
_NUMBER = r"\d{1,5}(?:[ \t]?(?:bis|ter)|[a-zа-яα-ω](?![a-zа-яα-ω]))?(?:[ \t]?[/-][ \t]?\d{1,5}[a-zа-я]?)*"
# A house number, perhaps after its word (No., nr., n.º, №, #, д., буд., Số, پلاک, No:).
_HOUSE_RE = re.compile(
    rf"(?<![\w.])(?:(?:no|nr|n[ºo°]|num|nro|№|#|д|дом|буд|số|plot|house\s+no|h\.\s?no|پلاک|رقم|मकान\s+नं|नं)"
    rf"\.?[ \t]*:?[ \t]*)?(?P<n>{_NUMBER})(?![\w])")
# Inside the building: the word and its number or letter (or the number and its word: "5. tv", "3. em.").
_UNIT_WORDS = (
    r"apt|apartment|flat|unit|suite|room|lgh|lägenhet|apto|apartamento|depto|dpto|departamento|piso|planta|andar|"
    r"interno|scala|etaj|bloco|bloc|blok|block|blk|byt|stan|kat|daire|bte|boîte|appt|app|whg|wohnung|tür|stiege|porte|"
    r"villa|ngõ|ngách|hẻm|kiệt|หมู่(?:ที่)?|"
    r"escalier|puerta|lot|phase|tower|twr|wing|căn\s+hộ|phòng|tầng|lantai|kamar|квартира|подъезд|этаж|корпус|"
    r"строение|דירה|קומה|כניסה|شقة|الدور|دور|طابق|عمارة|مبنى|برج|واحد|طبقه|ห้อง|ชั้น|อาคาร|फ्लैट|मंज़िल|ajtó|"
    r"lakás")
_UNIT_WORDS = "|".join(sorted(_UNIT_WORDS.split("|"), key=len, reverse=True))  # (apto before apt: longest first)
# Abbreviations that are words too ("et", "int", "m"): only with their dot or colon.
_UNIT_ABBREVIATIONS = r"ste|rm|m|d|kv|kw|ap|dpt|int|sc|et|bl|esc|pta|lt|кв|под|эт|корп|стр"
_UNIT_RE = re.compile(
    rf"(?<![\w])(?:(?:(?:{_UNIT_WORDS})\.?|(?:{_UNIT_ABBREVIATIONS})[.:])[ \t]*(?:no\.?|nr\.?|n[ºo°]\.?|č\.|:)?[ \t]*"
    rf"(?:\d{{1,5}}(?:/\d{{1,3}})?[a-z]?|[a-z]\d{{0,3}})|h\d{{4}}|(?<=\d[ \t])[a-h][ \t]?\d{{1,3}}"
    rf"|\d{{1,3}}\.?[ \t]*(?:em\.?|emelet)(?:[ \t]*\d{{1,3}}\.?(?:[ \t]*ajtó)?)?"  # Hungarian floor and door: 3. em. 12.
    rf"|\d{{1,3}}\.?[ \t]*(?:tv|th|mf|ajtó|og|etage|stock|étage|ος|η|kat|katı|floor|fl|ος[ \t]όροφος|"
    rf"όροφος|[ºªo°][ \t]?(?:izq\.?|izda\.?|dcha\.?|dto\.?|esq\.?|[a-z])|(?:st|nd|rd|th)[ \t]floor)"
    rf"|الدور[ \t]+{_L}+|(?:hinterhaus|vorderhaus|seitenflügel|dachgeschoss|erdgeschoss|sótano|bajo)"
    rf"|\#[ \t]?\d{{1,5}}[a-z]?)(?![\w])")  # (and a US flat: "493 Main St #4C")
# The line says it is a home, a delivery, a rent or someone's address (stems: "adrese", "osoitteeni", "címem").
_HOME_RE = re.compile(
    r"(?<![\w])(?:my|our|mine|home|flat|apartment|i\s+live|we\s+live|living|stay|staying|moved|moving|new\s+address|"
    r"send|ship|deliver|courier|post\s+to|mail\s+to|come\s+over|pick\s+me|homestay|host\s+family|dorm|"
    r"housing|accommodation|rent|sublet|lease|landlord|kot|home\s+address|adresim\w*|adresem|osoitteeni|"
    r"osoitteemme|címem|címünk|bydl\w*|wohn\w*|zuhause|bei|chez|mon|ma|notre|j'habite|habito|vivo|moro|"
    r"envía|envia|manda|enviar|entrega|casa|mi|meu|minha|mio|mia|mein\w*|bitte\s+an|mieszk\w*|paczk\w*|bydl\w*|"
    r"bytu|albérlet|chirie|chiria|stan|kira|alamat|rumah|hantar|kirim|nhà|gửi|mình|ev|evim|gönder\w*|kargo|"
    r"σπίτι|квартир\w*|живу|надішл\w*|пошл\w*|посылк\w*|доставк\w*|мій|моя|мой|stanuj\w*|živim|живим|"
    r"שלי|عنواني|سكن|منزل|بيت|خانه|منزلم|آدرسم|मेरा|मेरे|আমার|"
    r"kwangu|nyumba|anwani)(?![\w])|บ้าน|ส่งที่|ส่งไป")  # (Thai runs its words together)
# Public places in more languages than VENUE_WORDS_RE (an office, a company, a town hall).
_MORE_VENUES_RE = re.compile(
    r"(?<![\w])(?:kantor|biuro|urząd|urzad|büro|oficina|bureau|ufficio|escritório|офис|офіс|firma|company|embassy|"
    r"ambasada|botschaft|ambassade|embajada|consulate|konsulat|rathaus|mairie|ayuntamiento|municipio|belediye|"
    r"muzeum|uniwersytet|universidad|università|universität|université|üniversite|hastane|otel|klinik|"
    r"sp\.[ \t]?z[ \t]?o\.[ \t]?o|s\.a\.|s\.r\.l|a\.s\.|ltd|inc|gmbh|ag|pty)(?![\w])")
_LANES = ("ngõ", "ngách", "hẻm", "kiệt")
_TH_HOUSE_RE = re.compile(r"(?<![\w/])\d{1,4}/\d{1,4}(?:[ \t]+หมู่(?:ที่)?[ \t]*\d{1,3})?[ \t]+$")
# A neighbourhood named before the street (Turkey's "… Mah.", "… Mahallesi"): part of the same address.
_AREA_BEFORE_RE = re.compile(r"(?:[A-ZÇĞİÖŞÜ][\w'’-]*[ \t]+){1,2}(?:Mah\.|Mahallesi|Mh\.)[ \t]*,?[ \t]*$")
_BEYOND_RE = re.compile(r"[ \t]*,?[ \t]*(?:off[ \t]+(?:[A-Z][\w'’-]*[ \t]+){1,3}(?:Street|St|Road|Rd|Way|Avenue|Ave|"
                        r"Close|Crescent|Drive|Lane|Expressway)\.?|(?:Col\.|Colonia|Fracc\.|Barrio|Bairro)[ \t]+"
                        r"(?:[A-ZÁÉÍÓÚÑ][\w'’-]*(?:[ \t]+|$)){1,3})")
_STOP_RE = re.compile(r"[!?。！？;；]|\n")  # a sentence's or a line's end (a dot ends "ul." and "5. tv" too)
_JOINT_RE = re.compile(r"\.?[ \t]*[,،、/–-]?[ \t]*")  # (a dot after a house number: "Andrássy út 12. 2. em.")
_NAME_GAP = 48  # a street's name between its type and its number: at most a few words


def _line(text: str, pos: int) -> tuple[int, int]:
    end = text.find("\n", pos)
    return text.rfind("\n", 0, pos) + 1, len(text) if end < 0 else end


_PARTICLES = frozenset("""
de la le les du des del della di da do dos das van der den von und y e of the al el bis ter sur upon on
""".split())  # noqa: SIM905 - a word list reads best as words
_TOKEN_RE = re.compile(r"[\w'’.-]+")


def _named(text: str, a: int, b: int) -> bool:
    """``text[a:b]`` (original case) is a street's name: a few words, each a capitalised name, a word of a script
    without case, an ordinal (4th), a particle (de la, van der) or the street type itself."""
    words = _TOKEN_RE.findall(text[a:b])
    if len(words) > 4 or re.search(r"[.!?;。][ \t]|\n", text[a:b]):
        return False
    for w in words:
        first = w[0]
        if first.isupper() or first.lower() == first.upper() or w.lower() in _PARTICLES \
                or re.fullmatch(r"\d+(?:st|nd|rd|th|e|er|ème|º|o|a|\.)?", w, re.I) or _STREET_RE.fullmatch(w.lower()) \
                or _HOUSE_WORD_RE.fullmatch(w.lower()):
            continue
        return False
    return True


_HOUSE_WORD_RE = re.compile(r"(?:no|nr|n[ºo°]|num|nro|№|#|д|дом|буд|số|plot|house|h|پلاک|رقم)\.?:?")


def _house_near(text: str, low: str, start: int, end: int, lo: int, hi: int) -> tuple[int, int] | None:
    """The house number closest to the street word at ``start:end``: after it (its name between) or before it."""
    best: tuple[tuple[bool, int], tuple[int, int]] | None = None
    for m in _HOUSE_RE.finditer(low, max(lo, start - _NAME_GAP), min(hi, end + _NAME_GAP)):
        a, b = (end, m.start()) if m.start() >= end else (m.end(), start)
        between = low[a:b]
        if re.search(r"\d", between) or not _named(text, a, b):
            continue  # another number or a sentence between: not this street's
        if _year_or_count(low, m):
            continue
        score = ("," in between or "،" in between, abs(m.start() - end) if m.start() >= end else start - m.end())
        if best is None or score < best[0]:  # (the number in the same part first: "Unit 22/118 Brunswick St, … 3065")
            best = (score, (m.start(), m.end()))
    return best[1] if best else None


def _year_or_count(low: str, m: re.Match[str]) -> bool:
    """1802 年, 1905 in a sentence, 3 km, 10 minutes: a number that is not a house's."""
    n = m.group("n")
    after = low[m.end():m.end() + 12]
    if re.match(r"[ \t]*(?:年|years?|km|m\b|minutes?|min|mins|hours?|%|people|students|éves|год|лет|ans|años)", after):
        return True
    return bool(re.fullmatch(r"1[6-9]\d\d|20\d\d", n)) and not re.match(r"[ \t]*[,،/-]", after)


def _units_after(low: str, pos: int, hi: int) -> int:
    """The end of the flat, floor and door parts that follow ``pos`` (joined by commas or spaces)."""
    while True:
        joint = _JOINT_RE.match(low, pos, hi)
        unit = _UNIT_RE.match(low, joint.end() if joint else pos, hi)
        if unit is None or unit.end() == pos:
            return pos
        pos = unit.end()
        if pos < hi and low[pos] == "." and low[pos - 1].isalpha():
            pos += 1  # the abbreviation's dot: "3. tv.", "1. mf."


def _units_before(low: str, pos: int, lo: int) -> int:
    """The start of the flat parts that come first ("Flat No. 130, Green Park Apartments, 6th Cross")."""
    first = pos
    for unit in _UNIT_RE.finditer(low, max(lo, pos - 60), pos):
        gap = low[unit.end():pos]
        if len(gap) <= 40 and not re.search(r"\d", gap) and _JOINT_RE.match(gap) is not None:
            first = min(first, unit.start())
    return first


# Right before the street: its house number with its word, or the unit word of a number ("Unit 22/118 Brunswick St").
_LEAD_RE = re.compile(r"(?<![\w])(?:(?:no|nr|n[ºo°]|số|plot|№)\.?[ \t]*:?[ \t]*\d{1,5}[a-z]?(?:/\d{1,5})?[ \t]*,?[ \t]*"
                      # (a "#" before the house's number and its letter, "#16B, Street 491": a house, not a building)
                      r"|(?P<hash>#[ \t]*\d{1,5}[a-z]?(?:/\d{1,5})?[ \t]*,?[ \t]*)"
                      r"|(?P<thai>\d{1,4}/\d{1,4}[ \t]+(?:หมู่(?:ที่)?[ \t]*)?)"  # (Thailand's house number and its หมู่: 105/10 หมู่ 12)
                      r"|(?P<unit>unit|apt|flat|suite|lot|villa)\.?[ \t]*(?:no\.?[ \t]*)?"
                      r"|\d{1,5}[a-z]?[ \t]+)$")  # (the house number before the street: "1180 Oak Ave #12B")


# A street named without a type word (Czech and Slovak streets are adjectives: Korunní, Obchodná) and its number.
_BARE_STREET_RE = re.compile(r"(?<![\w])(?P<name>[^\W\d_][\w'’-]{2,30})[ \t]+(?P<n>\d{1,5}(?:/\d{1,5})?[a-z]?)(?![\w/])")
# Flats only (not a course's "Unit 5" or a lecture's "Room 12"): what makes a bare name and number a home.
_DWELLING_RE = re.compile(r"[ \t]*,?[ \t]*(?:(?:byt|flat|apt|apartment|lgh|lägenhet|m\.|kv\.|кв\.|квартира|ap\.|apto|"
                          r"daire|d:|דירה|شقة|byt\.|stan|mieszkanie|lakás)[ \t]*(?:č\.|nr\.?|no\.?)?[ \t]*\d{1,5}[a-z]?"
                          # (or the floor written after its number: "Vlaška 63, 5. kat", "3. emelet", "2. patro")
                          r"|\d{1,2}\.[ \t]*(?:kat|sprat|emelet|etaj|patro|poschodie|piętro|kerros|korrus|stāvs|aukštas))(?![\w])")


def _bare_streets(text: str, low: str) -> Iterator[Finding]:
    """"Bydlím na adrese Korunní 2463/100", "Pošlite mi to na Obchodná 25, byt 7": a capitalised name and its
    number, with a flat after it or a street's own numbering (2463/100), on a line that says it is a home."""
    for m in _BARE_STREET_RE.finditer(text):
        if not m.group("name")[0].isupper() or m.start() == text.rfind("\n", 0, m.start()) + 1:
            continue  # (a line's first word is a heading's or a sentence's: "Chapter 12")
        flat = _DWELLING_RE.match(low, m.end())
        if flat is None and "/" not in m.group("n"):
            continue
        line_start = text.rfind("\n", 0, m.start()) + 1
        if _HOME_RE.search(low, max(line_start, m.start() - 80), m.start()) is None:
            continue
        yield Finding(ADDRESS, m.start(), flat.end() if flat else m.end())


def world_addresses(text: str) -> Iterator[Finding]:
    if not re.search(r"\d", text):
        return
    low = text.lower()
    if len(low) != len(text):  # (İ lower-cases to two characters: keep the text's offsets)
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    if "/" in text or _DWELLING_RE.search(low):
        yield from _bare_streets(text, low)
    done = -1
    anchors = sorted([(m, False) for m in _STREET_RE.finditer(low)] + [(m, True) for m in _SUFFIX_RE.finditer(low)],
                     key=lambda am: am[0].start())
    for a, suffix in anchors:
        if a.start() < done:
            continue
        line_start, line_end = _line(low, a.start())
        lo, hi = max(line_start, a.start() - 160), min(line_end, a.end() + 160)
        if not suffix and a.group(0).rstrip(".") in _CASED_TYPES and not text[a.start()].isupper():
            continue  # "on the way", "my place": words; an English street's type is written as part of its name
        house = _house_near(text, low, a.start(), a.end(), lo, hi)
        weak = house is None
        if weak:  # India's "6th Cross", "4th Main": the street is numbered, the house is in the flat before it
            ordinal = re.search(r"(?<![\w])\d{1,2}(?:st|nd|rd|th)[ \t]+$", low[max(lo, a.start() - 8):a.start()]) \
                or _TH_HOUSE_RE.search(low, max(lo, a.start() - 40), a.start())  # (Thai: 105/10 หมู่ 12 ซอย…)
            if ordinal is None:
                continue
            house = (a.start() - len(ordinal.group(0)), a.start())
        core_start, core_end = min(a.start(), house[0]), max(a.end(), house[1])
        if a.start() < house[0]:  # the number after the type: "ul. Marszałkowska 84/92", "Halaskargazi Cad. No:221"
            core_start = a.start()
            name = re.search(rf"(?:{_L}[\w'’.-]*[ \t]+){{1,3}}$", low[max(lo, a.start() - 40):a.start()])
            if name is not None:  # a name before the type too ("Ленинский проспект, 106А"): capitalised words
                back = a.start() - len(name.group(0))
                while back < a.start() and not _named(text, back, a.start()):
                    back = low.find(" ", back, a.start()) + 1 or a.start()
                core_start = back
        if a.group(0) in _LANES and (lane := re.match(r"[ \t]+\d{1,4}[a-z]?(?![\w/])", low[a.end():hi])):
            core_end = max(core_end, a.end() + lane.end())  # "ngõ 162 ngách 51": the lane's number, then its alley
        elif a.group(0) in ("ซอย", "ถนน", "ตรอก"):  # (Thai: the name glued to the type, then perhaps its number)
            thai = re.match(r"[^\s,]*(?:[ \t]\d{1,4}(?![\w/]))?", low[a.end():hi])
            core_end = max(core_end, a.end() + (len(thai.group(0)) if thai else 0))
        elif house[0] > a.end() and low[a.end():house[0]].strip(" \t,") == "":
            pass
        elif house[1] <= a.start():  # "189 phố Bạch Mai", "12 rue des Lilas": the name after the type
            after = re.match(rf"[ \t]+(?:{_L}[\w'’.-]*(?:[ \t]+|(?=[,،]|$))){{1,4}}", low[a.end():hi])
            while after is not None and after.group(0).strip() and not _named(text, a.end(), a.end() + len(after.group(0))):
                after = re.match(rf"[ \t]+(?:{_L}[\w'’.-]*[ \t]+){{0,{max(0, len(after.group(0).split()) - 2)}}}{_L}[\w'’.-]*",
                                 low[a.end():hi]) if len(after.group(0).split()) > 1 else None
            if after is not None:
                core_end = max(core_end, a.end() + len(after.group(0).rstrip()))
        if suffix:  # the name is the word the suffix ends, capitalised
            word = re.search(rf"{_L}+$", low[max(lo, a.start() - 30):a.start()])
            word_start = a.start() - (len(word.group(0)) if word else 0)
            if not text[word_start:word_start + 1].isupper():
                continue
            core_start = min(core_start, word_start)
        stop = _STOP_RE.search(low, core_end, hi)
        unit_hi = stop.start() if stop else hi
        end = _units_after(low, core_end, unit_hi)
        beyond = _BEYOND_RE.match(text, end, hi)  # ", off Admiralty Way" (Lagos), ", Col. Roma Norte" (Mexico)
        if beyond is not None:
            end = beyond.end()
        start = _units_before(low, core_start, lo)
        area = _AREA_BEFORE_RE.search(text, max(lo, start - 40), start)  # "Cumhuriyet Mah. Lale Sok. …"
        if area is not None:
            start = area.start()
        lead = _LEAD_RE.search(low, max(lo, start - 16), start)  # "Số 11 ngõ …", "No. 60, Jalan …", "Unit 22/118 …"
        if lead is not None:
            start = lead.start()
        inside = end > core_end or start < core_start and (lead is None or lead.group("unit") is not None
                                                           or lead.group("hash") is not None
                                                           or lead.group("thai") is not None)
        if weak and not inside:
            continue
        if not inside:
            prev_start = low.rfind("\n", 0, max(0, line_start - 1)) + 1 if line_start else line_start
            context = low[max(line_start, core_start - 100):core_start]
            heading = low[prev_start:line_start] if line_start and line_start - prev_start <= 60 else ""
            if _HOME_RE.search(context) is None and _HOME_RE.search(heading) is None:
                continue
        record = low.rfind("\n", 0, max(0, line_start - 1)) + 1 if line_start else line_start  # (its line and the one above)
        if VENUE_WORDS_RE.search(low, max(record, start - 160), min(line_end, end + 60)) \
                or _MORE_VENUES_RE.search(low, max(record, start - 160), min(line_end, end + 60)):
            continue  # an embassy's, a museum's, a company's, an office's: everyone's
        yield Finding(ADDRESS, start, end)
        done = end
