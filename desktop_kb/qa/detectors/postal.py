"""A postal address written out on its own line, in any language and script.

People write an address as comma-separated parts on a line (or two): a street
with its house number (``Van Speijkstraat 146-III``, ``56 Ashfield Park``,
``Οδός Σόλωνος 117``, ``Rua da Graça, n.º 66``, ``5-9-13 Kitazawa``), places
(``Terenure``, ``Setagaya-ku``), a postcode with its town (``113 40 Stockholm``,
``1059 BB Amsterdam``, ``C1043 CABA``, ``D6W FKXH``) and perhaps the flat
(``lgh 1035``, ``byt č. 7``, ``Piso 7, Depto. C``, ``4ος όροφος``, ``1.º Esq.``,
``#401``, ``кв. 12``, ``Daire: 8``). What makes it an address rather than a list
of place names is a house number bound to a street's name; what makes it a
person's (see :mod:`addresses`) is that it reaches inside a building — a flat,
a floor, a unit and a tower — or that the lines say it is a home or where
something is sent (``digs``, ``my new place``, ``Leilighet``, ``寄``). A
museum's, a university's or a hotel's address passes, and so does a number
after a word that is no street (``Windows 10``, ``Route 66``) with nothing
else of an address around it.

Also here: a home given as a what3words address (``///quiet.river.pocket``) or
as a Plus Code under its word (``Plus Code：2FMH+PV``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_kb.qa.detectors.addresses_abroad import VENUE_WORDS_RE
from desktop_kb.qa.detectors.base import ADDRESS, Finding

_NAME = r"[^\W\d_][\w'’./-]*"
_NAMES = rf"{_NAME}(?:[ \t]+{_NAME}){{0,4}}"
# A house number: 12, 12a, 146-III, 59/1172, 5-9-13, 45 B (a Finnish staircase), 3B.
_NUM = r"\d{1,5}[A-Za-z]?(?:[ \t]?[-/][ \t]?(?:\d{1,5}[A-Za-z]?|[IVX]{1,4}(?![a-z])|[A-Z]{1,2}(?![a-z])))*"
_NO = r"(?:(?i:n\.?[ºo°]\.?|no\.?|nr\.?|num\.?|nro\.?)|д\.|буд\.|№|#)[ \t]*:?[ \t]*"  # (буд.: Ukrainian)
_HOUSE_RE = re.compile(
    rf"(?P<bare>{_NO}{_NUM})(?=$|[ \t,])"  # n.º 66, д. 5: the number of the street named just before
    rf"|(?P<named>{_NAMES}[ \t]+(?:{_NO})?{_NUM})(?=$|[ \t,])"  # Van Speijkstraat 146-III, Bağdat Caddesi No: 245
    rf"|(?P<first>{_NUM}[ \t]+{_NAMES})$")  # 56 Ashfield Park, 5-9-13 Kitazawa
# Inside the building (NFKC has made "º" an "o": "1.º Esq." arrives as "1.o Esq.").
_FLAT_RE = re.compile(
    r"(?i)(?<![\w])(?:(?:apt|apartment|flat|unit|suite|room|rm|lgh|lägenhet|byt|piso|planta|depto|dpto|departamento|"
    r"apto|apartamento|andar|daire|kat|stan|lokal|wohnung|whg|tür|etage|étage|appt|app|escalier|puerta|pta|"
    r"interno|scala|huoneisto|leilighet|lejlighed|квартира|boîte|tower|twr|block|blk|lote)\.?"
    r"|(?:кв|ап|m|as|int|lok|bte|lt)\.)"  # (an abbreviation with its dot: "I'm 17" is an age, "m. 7" a flat)
    r"[ \t]*(?:č\.|nr\.?|no\.?|n[ºo°]\.?|:)?[ \t]*\d{1,5}[A-Za-z]?(?![\w])"
    r"|(?<![\w])(?:apt|apartment|flat|unit|suite|depto|dpto|departamento|apto)\.?[ \t]*[A-Z](?![\w])"
    r"|(?<![\w])\d{1,3}[ \t]?(?:ος|η|ο)?[ \t]?όροφος|(?<![\w])\d{1,2}\.?[ºªo°a]\.?[ \t]?(?:[A-Z](?![\w])|(?i:esq|dto|dt|"
    r"izq|izda|dcha|dra|frente|fte|andar|piso))|(?<![\w])\d{1,2}\.[ \t]?(?:OG|Stock|Etage)\b|\b\d{1,2}(?:e|er|ème)[ \t]?étage|"
    r"#[ \t]?\d{1,3}(?:-\d{1,5})?(?![\w])|(?<=\d)[ \t][A-H][ \t]?\d{1,3}$|(?<=\d)-[IVX]{1,4}$|\b[A-Z]-?wing\b")
_POSTCODE_RE = re.compile(
    rf"(?P<code>\d{{3}}[ \t]?\d{{2}}|\d{{4}}[ \t]?[A-Z]{{2}}|\d{{4}}-\d{{3}}|\d{{2}}-\d{{3}}|\d{{3}}-\d{{4}}|"
    rf"[A-Z]\d{{4}}[A-Z]{{0,3}}|\d{{4,6}}|[A-Z]{{1,2}}\d[A-Z\d]?[ \t]\d[A-Z]{{2}}|[A-Z]\d[A-Z][ \t]?\d[A-Z]\d|"
    rf"[AC-FHKNPRTV-Y]\d[\dW][ \t]?[0-9AC-FHKNPRTV-Y]{{4}})(?:[ \t]+{_NAMES})?"
    rf"|{_NAMES}[ \t]+(?P<after>\d{{3}}-\d{{4}}|\d{{5}}(?:-\d{{4}})?|[A-Z]{{2}}[ \t]\d{{5}}(?:-\d{{4}})?)")
_YEAR_RE = re.compile(r"(?:19|20)\d\d")
# The lines say it is a home, or where something is sent.
_HOME_RE = re.compile(
    r"(?i)(?<![a-z])(?:my|our|home|flat|apartment|dorm|digs|room|sublet|lease|rent|landlord|moved|new\s+place|"
    r"send|ship|deliver|post\s+to|mail\s+to|address|adress|adres|adresa|adresse|anschrift|dirección|direccion|"
    r"endereço|indirizzo|kamer|woning|wohnung|zuhause|untermiete|lägenhet|hyres|andrahand|podnájem|mieszkanie|"
    r"asunto|osoite|leilighet|lejlighed|casa|quarto|piso|departamento|ev|evim|σπίτι|διαμέρισμα|квартира|адрес|"
    r"kvartira)(?![a-z])|寄|家|住|宿舍|公寓|收件|地址|住所|自宅|お届け|집|주소")
_PART_SPLIT_RE = re.compile(r"[ \t]*(?:[,;|\t]|[ \t][–—-][ \t])[ \t]*")
_LABEL_RE = re.compile(r"[>\s]*[\"'{\[(]*[\w .'()（）-]{1,30}[\"']?[ \t]*[:：][ \t]*[\"'(]*")  # ("Адрес (квартира):")
_EDGE = " \t\"'{}[]()<>*-"


def _parts(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The comma-separated parts of a line, trimmed of quotes and of a label before them ("street": …)."""
    parts = []
    pos = start
    for sep in [*_PART_SPLIT_RE.finditer(text, start, end), None]:
        a, b = pos, sep.start() if sep else end
        label = _LABEL_RE.match(text, a, b)
        if label is not None and not _HOUSE_RE.fullmatch(text[a:b].strip(_EDGE)):
            a = label.end()
        while a < b and text[a] in _EDGE:
            a += 1
        while b > a and text[b - 1] in _EDGE:
            b -= 1
        if b > a:
            parts.append((a, b))
        if sep is None:
            break
        pos = sep.end()
    return parts


# A street says so in its name in most languages (Lindenweg, Storgatan, Mannerheimintie, Οδός, ул., Caddesi,
# Calle, Rua, Road …) or in its number (59/1172, 146-III, 5-9-13: a street's own numbering); "Exercise 3" has
# neither.
_STREET_WORD_RE = re.compile(
    r"(?:straat|straße|strasse|str\.|gatan|gata|gate|vej|vei|veien|tie|katu|utca|ulica|ulice|ul\.|rue|avenue|ave|av\.|"
    r"avda|avenida|boulevard|blvd|bd|calle|c/|carrer|rua|travessa|via|viale|piazza|corso|largo|road|rd|street|st|"
    r"lane|ln|way|drive|dr|court|ct|place|pl|terrace|close|crescent|park|square|sq|row|walk|alley|gardens|grove|"
    r"mews|hill|view|green|parade|circle|highway|hwy|parkway|quay|wharf|weg|gasse|platz|allee|ring|damm|ufer|kade|"
    r"gracht|laan|plein|singel|dijk|steeg|οδός|οδος|λεωφόρος|ул\.|улица|проспект|пр-т|пер\.|шоссе|бульвар|caddesi|"
    r"cad\.|sokak|sok\.|mahallesi|mah\.|jalan|jl\.|đường|phố|ngõ|soi|marg|nagar|chome|dori|"
    # Ukrainian, Bulgarian and Belarusian streets; Peru's jirón, pasaje, urbanización and its manzana/lote blocks
    r"вул\.|вулиця|бул\.|просп\.|пров\.|вуліца|jr\.|jir[oó]n|psje\.|pasaje|urb\.|urbanizaci[oó]n|mz\.|manzana)"
    r"(?![^\W\d_])")
_STRUCTURED_NUMBER_RE = re.compile(r"\d[ \t]?[-/][ \t]?\w")


def _street(part: str, house: re.Match[str]) -> bool:
    return house.group("bare") is not None or _STREET_WORD_RE.search(part.lower()) is not None \
        or _STRUCTURED_NUMBER_RE.search(part) is not None


def _kind(part: str) -> str:
    if len(part) > 16 and " " not in part:
        return "other"  # a token, a path, a line of base64
    postcode = _POSTCODE_RE.fullmatch(part)
    if postcode is not None and not (postcode.group("code") and _YEAR_RE.fullmatch(postcode.group("code"))):
        return "postcode"
    house = _HOUSE_RE.fullmatch(part) or _HOUSE_RE.match(part)
    if house is not None and not _street(part, house):
        house = None
    flat = _FLAT_RE.search(part)
    if flat is not None and flat.end() < len(part.rstrip(".")):
        flat = None  # a flat ends its part ("lgh 1035", "Storgatan 22 lgh 1102"): "Unit 2 covers loops" is a course
    if house is not None and flat is not None and flat.start() > 0:
        return "house+flat"
    if flat is not None:
        return "flat"
    if house is not None and house.end() == len(part):
        return "bare" if house.group("bare") else "house"
    if re.fullmatch(_NAMES, part):
        return "place"
    return "other"


def _postcode_end(text: str, a: int, b: int) -> int:
    """The end of the postcode in a postcode part ("113 40" of "113 40 Stockholm")."""
    m = _POSTCODE_RE.fullmatch(text, a, b)
    return m.end("code") if m and m.group("code") else b


_LINE_MAX = 240  # (an address line is short: a paragraph that mentions one is prose)


def _block_kinds(text: str, line: tuple[int, int], nxt: tuple[int, int] | None) -> list[tuple[str, int, int]]:
    kinds = [(_kind(text[a:b]), a, b) for a, b in _parts(text, *line)]
    if nxt is not None and nxt[1] - nxt[0] <= 80:  # a second line: the postcode and town, or the flat
        more = [(_kind(text[a:b]), a, b) for a, b in _parts(text, *nxt)]
        if more and all(k in ("postcode", "flat", "place") for k, _a, _b in more) \
                and any(k != "place" for k, _a, _b in more):
            kinds += more
    return kinds


# Where a flat may be written (lower-cased text; _FLAT_RE decides), and a postcode before its town or after
# it: only those lines and the line above them are read.
_FLAT_HINT_RE = re.compile(
    r"(?:apt|apartment|flat|unit|suite|room|rm|lgh|lägenhet|byt|piso|planta|depto|dpto|departamento|apto|apartamento|"
    r"andar|daire|kat|stan|lokal|wohnung|whg|top|tür|etage|étage|appt|app|escalier|puerta|pta|interno|int|scala|"
    r"huoneisto|leilighet|lejlighed|квартира|кв|ап|m|as|lok|bus|bte|boîte|tower|twr|block|blk|буд|lt|lote)\.?[ \t]*"
    r"(?:č\.|nr\.?|no\.?|n[ºo°]\.?|:)?[ \t]*\d|(?:apt|apartment|flat|unit|suite|depto|dpto|departamento|apto)\.?[ \t]*"
    r"[a-z](?![\w])|"
    r"\d[ \t]?(?:ος|η|ο)?[ \t]?όροφος|\d\.?[ºªo°a]\.?[ \t]?[a-z]|\d\.[ \t]?(?:og|stock|etage)|\d(?:e|er|ème)[ \t]?étage|"
    r"#[ \t]?\d|\d[ \t][a-h][ \t]?\d|\d-[ivx]|-?wing")
_POSTCODE_HINT_RE = re.compile(r"\d{3}[ \t]?\d{2}[ \t]+[^\W\d_]|\d{4}[ \t]?[A-Z]{2}|\d{2,4}-\d{3,4}|[A-Z]\d{4}|"
                               r"\d{4,6}[ \t]+[^\W\d_]|[A-Z]\d[A-Z\d]?[ \t]\d[A-Z]{2}|[A-Z]\d[\dW][ \t]?[0-9A-Z]{4}")
_DIGIT_RE = re.compile(r"\d")


def _line_at(text: str, pos: int) -> tuple[int, int]:
    end = text.find("\n", pos)
    return text.rfind("\n", 0, pos) + 1, len(text) if end < 0 else end


def _candidate_lines(text: str) -> list[int]:
    """Starts of the short lines that hold a digit and a flat's or a postcode's shape (and of the line above
    each: the street may stand there)."""
    starts: list[int] = []
    digit = _DIGIT_RE.search(text)
    while digit is not None:  # (from one digit's line to the next digit's: lines without one are skipped)
        pos, end = _line_at(text, digit.start())
        if end - pos <= _LINE_MAX and (_POSTCODE_HINT_RE.search(text, pos, end) is not None
                                       or _FLAT_HINT_RE.search(text[pos:end].lower()) is not None):
            if pos and (not starts or starts[-1] < pos):
                starts.append(text.rfind("\n", 0, pos - 1) + 1)
            starts.append(pos)
        digit = _DIGIT_RE.search(text, end + 1)
    return starts


def postal_lines(text: str) -> Iterator[Finding]:
    starts = _candidate_lines(text)
    done = -1
    for start in starts:
        start, end = _line_at(text, start)
        if start <= done or end - start > _LINE_MAX or _DIGIT_RE.search(text, start, end) is None:
            continue
        done = start
        nxt = _line_at(text, end + 1) if end < len(text) else None
        above = _line_at(text, start - 1) if start else (start, start)
        block_end = nxt[1] if nxt and nxt[1] - nxt[0] <= 80 else end
        has_flat = _FLAT_RE.search(text, start, block_end) is not None
        if not has_flat and _HOME_RE.search(text, above[0], block_end) is None:
            continue  # (neither a flat nor a home: no part need be read)
        kinds = _block_kinds(text, (start, end), nxt)
        names = [k for k, _a, _b in kinds]
        houses = [j for j, k in enumerate(names) if k in ("house", "house+flat")
                  or (k == "bare" and j and names[j - 1] == "place")]
        flats = [j for j, k in enumerate(names) if k in ("flat", "house+flat")]
        if sum(k == "other" for k in names) > 1 or not (houses or len(flats) >= 2):
            continue  # a sentence, or no street with its number (nor a unit and its tower)
        context = text[above[0]:nxt[1] if nxt else end]
        if not flats and not ("postcode" in names and _HOME_RE.search(context)):
            continue
        if VENUE_WORDS_RE.search(context.lower()):
            continue  # a museum's, a university's or a hotel's address is everyone's
        first = min(houses + flats)
        if names[first] == "bare":
            first -= 1  # "Rua da Graça, n.º 66": the street named before its number
        # To the postcode (its town left), or to the places after the flat but the last one (the town).
        last = max(j for j, k in enumerate(names) if k in ("house", "house+flat", "flat", "bare", "postcode"))
        if names[last] != "postcode" and last < len(names) - 2:
            last = len(names) - 2
        kind, a, b = kinds[last]
        stop = _postcode_end(text, a, b) if kind == "postcode" else b
        yield Finding(ADDRESS, kinds[first][1], max(stop, kinds[first][2]))


# what3words: three words after three slashes (///quiet.river.pocket), in any script.
_W3W_RE = re.compile(r"(?<![\w/])///(?:[^\W\d_]{2,20}\.){2}[^\W\d_]{2,20}(?![\w.])")
# An Open Location Code: eight or four characters of its alphabet, "+", two or three more, under its word.
_PLUS_CODE_RE = re.compile(r"(?<![\w+])(?:[23456789CFGHJMPQRVWX]{8}|[23456789CFGHJMPQRVWX]{4})\+"
                           r"[23456789CFGHJMPQRVWX]{2,3}(?![\w+])")
_PLUS_WORD_RE = re.compile(r"(?i)plus\s*code|pluscode|open\s+location\s+code|位置|定位|坐标|座標|home|家|住")


# A format explained, not a place given ("three words after three slashes, like ///word.word.word").
_FORMAT_RE = re.compile(r"(?i)(?<![a-z])(?:like|e\.g\.|such\s+as|format|example|looks?)(?![a-z])|例如|比如|格式|示例|例子")


# A geohash under its word: seven characters or more of its alphabet (a block of ~150 m or finer, a home).
_GEOHASH_RE = re.compile(r"(?i:geo[ _-]?hash)[^\n=:：]{0,20}[=:：][ \t]*[\"']?(?P<v>[0-9b-hjkmnp-z]{7,12})(?![0-9a-z])")


def coded_places(text: str) -> Iterator[Finding]:
    if "hash" in text.lower():
        for m in _GEOHASH_RE.finditer(text):
            line_start = text.rfind("\n", 0, m.start()) + 1
            if re.search(r"\d", m.group("v")) and not _FORMAT_RE.search(text, line_start, m.start("v")):
                yield Finding(ADDRESS, m.start("v"), m.end("v"))
    for rx, found in ((_W3W_RE, "///" in text), (_PLUS_CODE_RE, "+" in text)):
        for m in rx.finditer(text) if found else ():
            line_start = text.rfind("\n", 0, m.start()) + 1
            before = text[max(line_start, m.start() - 60):m.start()]
            if _FORMAT_RE.search(before) or len(set(re.findall(r"[^\W\d_]+", m.group(0)))) < (3 if rx is _W3W_RE else 0):
                continue
            if rx is _W3W_RE or (any(c.isdigit() for c in m.group(0)) and _PLUS_WORD_RE.search(before)):
                yield Finding(ADDRESS, m.start(), m.end())


def postal_addresses(text: str) -> Iterator[Finding]:
    yield from postal_lines(text)
    yield from coded_places(text)
