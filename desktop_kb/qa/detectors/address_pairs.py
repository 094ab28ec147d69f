"""A home address written as a chain of designated numbers, in any locale: ``House 16, Street 4``,
``Flat 2C, House 41, Road 18``, ``11-р хороо, 5-р байр, 97 тоот``, ``Blk 1 Lot 6, Phase 5``,
``Lidická 40, 1. patro, byt 26``, ``106동 603호``, ``Kebele 17, House No. 1520``.

Where streets have no type word, or the address is a sector, a block, a plot or a building number, what
every locale still writes is a few designators each with its number — a house, a road, a block, a
building, a floor, a flat — one after another. One such pair is any place's (``Room 301``, ``Gate 12``); a
chain of them that reaches a dwelling (a flat, an apartment, a door, a house or plot number) or stands on
a line that says it is a home is where someone lives. A line naming a public place (a museum, an office, a
university) passes, as in :mod:`addresses_world`. The finding covers the chain with the street or area
name written right before or after it (its city stays).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_kb.qa.detectors.addresses_abroad import VENUE_WORDS_RE
from desktop_kb.qa.detectors.addresses_world import _HOME_RE, _MORE_VENUES_RE
from desktop_kb.qa.detectors.base import ADDRESS, Finding

# Designators written before their number, by role (lower-cased text).
_DWELLING = (r"flat|apt|apartment|apto|apartamento|dpto|depto|departamento|unit|suite|interior|int|ap|app|appt|"
             r"кв|квартира|бн|ბ|ბინა|byt|stan|lgh|daire|d|whg|wohnung|door|porte|puerta|pta|דירה|شقة|واحد|"
             r"phòng|căn\s+hộ|kamar|ห้อง")
_HOUSE = (r"house|h|h\.\s?no|hno|house\s+no|villa|plot|lot|casa|bungalow|д|дом|буд|будинок|uy|"
          r"پلاک|منزل|बंगला|मकान|বাড়ি|nhà|số|rumah|no|nr|n[º°o]|#")
_STREET = (r"street|st|road|rd|lane|ln|avenue|ave|av|avda|cra|carrera|kr|calle|cl|cll|jr|jirón|rua|via|rue|"
           r"ул|улица|вул|пр|пер|ulica|ul|utca|iela|mnt|gatan|gate|vej|sokak|sok|cadde|cad|jalan|jl|soi|ซอย|"
           r"ngõ|ngách|hẻm|gang|gg|gali|गली|रोड|সড়ক|রোড|شارع|کوچه|خیابان|רחוב|փ|ქ|გამზ|street\s+no|road\s+no")
_BUILDING = (r"block|blk|bloc|bloco|blok|bl|building|bldg|bld|edif|edificio|imm|immeuble|torre|tower|twr|wing|"
             r"корпус|корп|стр|строение|под|подъезд|вх|entrance|sc|scala|esc|escalera|staircase|stiege|"
             r"mz|manzana|عمارة|بناية|בניין|อาคาร|tòa|nhà")
_FLOOR = r"floor|fl|piso|planta|andar|et|etaj|эт|этаж|ет|kat|patro|emelet|em|etasje|hæð|tầng|lantai|ชั้น|קומה|طبقه|الدور|طابق"
_AREA = (r"sector|sec|phase|ph|ward|kebele|woreda|zone|block|sub-city|subcity|mz|rt|rw|kel|dd|d\.d|"
         r"хороо|микрорайон|мкр|mkr|kvartal|квартал|district|barangay|brgy|ward\s+no|colony|khet|khan|sangkat|"
         r"หมู่|moo|ซอย")
_ROLES = {"dwelling": _DWELLING, "house": _HOUSE, "street": _STREET, "building": _BUILDING, "floor": _FLOOR,
          "area": _AREA}
_VALUE = r"\d{1,5}(?:[ \t]?[-/][ \t]?\d{1,5})*(?:-?[a-z](?![\w]))?|[a-z](?![\w.])"
_BEFORE_RE = re.compile(
    r"(?<![\w.])(?:" + "|".join(rf"(?P<{role}>(?:{rx}))" for role, rx in _ROLES.items()) + r")(?![\w])"
    rf"\.?(?:[ \t]*(?:no|nr|n[º°o]|num)\.?)?[ \t]*[:#№]?[ \t]*(?P<value>{_VALUE})(?![\w])")
# Designators written after their number: 11-р хороо, 5-р байр, 97 тоот, 106동, 603호, 1. patro, 4. hæð, 5th Avenue,
# 12-uy, 34-xonadon, 9-kvartal, 2/F, 8 栋, 1502 室.
_AFTER_RE = re.compile(
    r"(?<![\w.])(?P<value>\d{1,5}[a-z]?)(?:-?р|-?th|-?st|-?nd|-?rd|\.|-)?[ \t]?"
    r"(?:(?P<dwelling>тоот|호|室|號之\d+|xonadon|ajtó|ajto)|(?P<house>байр|uy|番地?|號|号|栋|棟)|"
    r"(?P<building>동|单元|單元|座|幢|orc|орц)|(?P<floor>patro|hæð|emelet|em\.|floor|fl\.?|etasje|korrus\w*|"
    r"давхар|этаж|층|樓|楼|階|/f|ος\s+όροφος|όροφος|kat|katı)|"
    r"(?P<street>avenue|ave|street|st|road|rd|길|로|cross|main)|(?P<area>хороо|kvartal|quarter|丁目|sector|ward))"
    r"(?![a-zа-яё])")
# Between two pairs: separators, a bare number (the house's, after its street: "28길 8, 106동"), "in" — no prose.
_JOINT_RE = re.compile(r"[ \t,，、/:()#.\d–-]*(?:in|no\.?)?[ \t,，、/:()#.\d–-]*")
_SEGMENT_NAME_RE = re.compile(r"[ \t]*((?:[^\W\d_][\w'’.-]*[ \t]?){1,3})[ \t]*")
MAX_GAP = 28


def _pairs(low: str, start: int, end: int) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    for rx in (_BEFORE_RE, _AFTER_RE):
        for m in rx.finditer(low, start, end):
            role = next(r for r in _ROLES if m.groupdict().get(r))
            word = m.group(role)
            if rx is _BEFORE_RE and len(word) <= 2 and word.isascii() and low[m.end(role):m.end(role) + 1] not in ".:#":
                continue  # (a short abbreviation only with its dot: "et 3" is French, "d 5" anything)
            out.append((m.start(), m.end(), role))
    out.sort()
    kept: list[tuple[int, int, str]] = []
    for p in out:  # (overlaps: the first and longest)
        if kept and p[0] < kept[-1][1]:
            continue
        kept.append(p)
    return kept


def _home_chain(roles: list[str], home_line: bool) -> bool:
    strong = sum(r in ("dwelling", "house") for r in roles)
    if "dwelling" in roles and len(roles) >= 2:
        return True
    if len(roles) >= 3 and strong:
        return True
    return len(roles) >= 2 and home_line and (strong or "floor" in roles)


_NAME_WORDS_RE = re.compile(
    r"\d{1,5}[a-z]?(?:[/-]\d{1,5})?\.?|[^\W\d_][\w'’-]*\.|дүүрэг|district|tumani|sub-city|township|colony|mahalle|"
    r"út|utca|iela|gatve|mnt|tänav|ulica|street|road|avenue", re.I)


def _name_before(text: str, lo: int, pos: int) -> int:
    """The start of a street's or area's name written right before the chain, in its segment or the one or
    two before it (``Lidická 40, ``, ``동교로 ``, ``Чингэлтэй дүүрэг, ``, ``Urb. Los Palos Grandes, Edif. …``):
    names, numbers, abbreviations and street words, no lower-case prose word."""
    start = pos
    for _ in range(3):
        piece_end = start
        while piece_end > lo and text[piece_end - 1] in " \t,，":
            piece_end -= 1
        cut = max(text.rfind(",", lo, piece_end), text.rfind(":", lo, piece_end), text.rfind("：", lo, piece_end),
                  text.rfind("，", lo, piece_end), lo - 1) + 1
        if cut >= piece_end or not _is_name(text[cut:piece_end]):
            break
        start = cut
        while start < pos and text[start] in " \t":
            start += 1
        if piece_end < pos and text[piece_end:pos].strip(" \t,，") == "" and start == cut and cut == lo:
            break
    return start


def _is_name(piece: str) -> bool:
    words = piece.split()
    if not 1 <= len(words) <= 4:
        return False
    # (a capitalised name, a sign, a word of a script whose prose has no case — Georgian, Arabic, Han —, a number,
    # an abbreviation or a street word)
    return all(w[0].isupper() or not w[0].isalnum() or ord(w[0]) >= 0x0590 or _NAME_WORDS_RE.fullmatch(w)
               for w in words)


def pair_addresses(text: str) -> Iterator[Finding]:
    """Chains of designated numbers that reach a dwelling, or stand on a line about a home."""
    low = text.lower()
    if len(low) != len(text):
        return
    pos = 0
    while pos < len(text):
        line_end = text.find("\n", pos)
        line_end = len(text) if line_end < 0 else line_end
        pairs = _pairs(low, pos, line_end)
        if len(pairs) >= 2:
            yield from _chains(text, low, pos, line_end, pairs)
        pos = line_end + 1


def _chains(text: str, low: str, lo: int, hi: int, pairs: list[tuple[int, int, str]]) -> Iterator[Finding]:
    chain = [pairs[0]]
    for p in pairs[1:] + [(hi + MAX_GAP + 1, 0, "")]:
        gap = text[chain[-1][1]:p[0]]
        if p[2] and p[0] - chain[-1][1] <= MAX_GAP and _JOINT_RE.fullmatch(gap):
            chain.append(p)
            continue
        if len(chain) >= 2:
            roles = [c[2] for c in chain]
            home = _HOME_RE.search(low, lo, hi) is not None
            if _home_chain(roles, home) and not (VENUE_WORDS_RE.search(low, lo, hi) or _MORE_VENUES_RE.search(low, lo, hi)):
                start = _name_before(text, lo, chain[0][0])
                end = chain[-1][1]
                after = re.match(r"[ \t]*,[ \t]*([^,\n]{1,30}?)(?=[ \t]*(?:,|$|\n|\(|[—–-][ \t]))", text[end:hi])
                if after and _is_name(after.group(1)):
                    end += after.end(1)
                yield Finding(ADDRESS, start, end)
        chain = [p]
