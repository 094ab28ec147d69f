"""Home addresses, found by their structure rather than by a list of places.

A Chinese address narrows down in a fixed order — road and house number,
estate, building (号楼/栋/幢/座/舍), unit (单元), floor, room (室, or a bare
number after the building) — and a village address ends in its group and
house number (…村三组28号). An institution is reached at its road and house
number (颐和园路5号, 景山前街4号): study text is full of those. So an address
is personal when it reaches *inside* a building or a village: a chain of at
least two parts of which one is a unit, a room, a flat on a floor (3樓之2) or
a village group. English addresses are the same idea in the other order: a
street line (``27 Harrow Road``) together with a flat (``Apt 5B``, ``Flat 3``)
or a postcode, or two dwelling parts (``Room 1203, Unit 2, Building 5``).

The finding covers the chain and the road or estate name that starts it, and
leaves the city and district: ``北京市海淀区[address removed]`` still says
where the question is about.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_kb.qa.detectors.address_forms import address_forms
from desktop_kb.qa.detectors.addresses_abroad import VENUE_WORDS_RE, addresses_abroad
from desktop_kb.qa.detectors.addresses_world import world_addresses
from desktop_kb.qa.detectors.base import ADDRESS, Finding
from desktop_kb.qa.detectors.postal import postal_addresses
from desktop_kb.text.han import HAN_CHARS

_HAN_RE = re.compile(rf"[{HAN_CHARS}]")

_N = r"(?:\d{1,5}|[一二三四五六七八九十百零〇两]{1,4})"  # 12 or 十二
_S = r"[ \t]?"  # "478 号 华星时代 3 幢": people put spaces around numbers
_NOT_ORDINAL = r"(?<!第)(?<!第[ \t])"  # 第二单元, 第 5 栋: a lesson or a list, not a place

# One alternative per part of a Chinese address; the group name says which part matched.
_CN_PART_RE = re.compile(
    rf"(?P<road>(?:大道|大街|胡同|路|街|巷|弄|道)(?:{_S}(?:[东西南北中]|{_N}){_S}段)?{_S}\d{{1,5}}"
    rf"(?:{_S}[-之]{_S}\d{{1,4}})?{_S}[号號](?![楼樓舍馆館码碼线線])院?)"
    # A numbered lane (巷/弄) and the house in it: 张杨路1588弄3号, 文化路二段128巷5弄12號.
    rf"|(?P<lane>\d{{1,4}}{_S}[巷弄](?!堂)(?:{_S}\d{{1,4}}{_S}[巷弄])?"
    rf"(?:{_S}\d{{1,4}}(?:{_S}[-之]{_S}\d{{1,4}})?{_S}[号號](?![楼樓舍馆館码碼线線]))?)"
    rf"|(?P<flat>\d{{1,3}}{_S}(?:楼|樓|层|層|F){_S}之{_S}\d{{1,3}})"  # 3樓之2: a flat on the 3rd floor
    rf"|(?P<block>第{_S}\d{{1,3}}{_S}[座期])"  # 第3期第18座: a phase and a tower of a Hong Kong estate
    # "第 7 栋": a building counted in directions ("进小区第 7 栋 2 单元"), an address only with a unit or room after it
    rf"|(?P<obuilding>第{_S}\d{{1,4}}{_S}(?:号楼|號樓|栋|棟|幢))"
    rf"|(?P<building>{_NOT_ORDINAL}(?:\d{{1,4}}|[A-Za-z]){_S}(?:号楼|號樓|号院|號院|号舍|號舍|号馆|號館|栋|棟|幢|座|舍))"
    # (a stairway door numbered like a unit in Tianjin and Beijing: 1号楼6门516号; 门 before a number only,
    # "3 门课" is a count of courses)
    rf"|(?P<unit>{_NOT_ORDINAL}{_N}{_S}(?:单元|單元|[门門](?={_S}\d)))"
    # an estate's numbered zone or phase before its building: 文鼎苑2区39幢
    rf"|(?P<zone>(?<=[{HAN_CHARS}])\d{{1,2}}{_S}(?:区|區|期)(?={_S}\d{{1,4}}{_S}(?:号楼|號樓|栋|棟|幢|座)))"
    rf"|(?P<room>\d{{1,5}}{_S}(?:室|户|戶)(?![厅廳]))"  # 3室2厅 is a flat's layout, not its number
    rf"|(?P<floor>{_NOT_ORDINAL}\d{{1,3}}{_S}(?:楼|樓|层|層)(?![梯道顶頂下上房]))"
    rf"|(?P<group>(?<=[村屯庄莊])\s?{_N}{_S}(?:组|組|队|隊))"
    rf"|(?P<corps>{_N}{_S}(?:团|團|连|連)(?![长長部队隊]))"  # 一二一团10连: the Bingtuan's regiment and company
    rf"|(?P<house>(?<![\d路街道巷弄])\d{{1,4}}{_S}[号號](?![楼樓院线線舍馆館码碼]))")
# A bare number right after a building, unit or floor is the room: 7号楼413, B座1502, 2 单元 602.
_BARE_ROOM_RE = re.compile(r"[ \t]?-?[ \t]?\d{3,4}(?![\d年元个個人次号號万萬位米条條%.])")
# A letter right after a floor is the flat: 23樓F室, 10/F B.
_BARE_LETTER_RE = re.compile(r"[ \t]?[A-Z]{1,2}(?:[ \t]?(?:室|單位|单位))?(?![A-Za-z0-9])")
# Between two parts: the estate's or building's name, or nothing ("华星时代", "富力公寓").
_FILLER_RE = re.compile(rf"[ \t]*(?:[{HAN_CHARS}A-Za-z]{{0,10}}[ \t]*)?")
# Public buildings: a room there is an office, a shop or a ward (大厦 and 公寓 are homes too, and
# so is a university: its dormitories are where learners live).
_VENUE_RE = re.compile(
    r"广场|廣場|商场|商場|商城|购物|購物|中心|酒店|饭店|飯店|宾馆|賓館|写字楼|寫字樓|医院|醫院|银行|銀行|"
    r"博物馆|博物館|图书馆|圖書館|百货|百貨|商厦|商廈|办公|辦公|公司|政府|法院|车站|車站|机场|機場")
# A room everyone walks into, named right after its number (or after 室是…): 312 实验室, 305 教室, 302 室是自习室.
_PUBLIC_ROOM_RE = re.compile(r"[ \t]?(?:室?是?)(?:实验室|實驗室|教室|会议室|會議室|办公室|辦公室|阅览室|閱覽室|自习室|自習室|机房|機房|"
                             r"报告厅|報告廳|诊室|診室|病房|展厅|展廳|课室|課室|研讨室|研討室|活动室|活動室)")
_INNER = {"unit", "room", "flat", "group", "bare_room"}  # (a zone is outer: the estate's)
_AFTER_BUILDING = {"building", "obuilding", "block", "unit", "floor"}
# A road or estate name runs back to the district, city or punctuation before it.
_NAME_BACK_RE = re.compile(rf"[{HAN_CHARS}]{{1,10}}$")
_ADMIN_SUFFIXES = "省市区區县縣镇鎮乡鄉州盟旗"
_NOT_DISTRICT = "小社园園校片厂廠营營街"


def _parts(text: str) -> list[tuple[str, int, int]]:
    parts: list[tuple[str, int, int]] = []
    for m in _CN_PART_RE.finditer(text):
        kind = m.lastgroup or ""
        parts.append((kind, m.start(kind), m.end(kind)))
        if kind in _AFTER_BUILDING:
            bare = _BARE_ROOM_RE.match(text, m.end())
            if bare is None and kind == "floor":
                bare = _BARE_LETTER_RE.match(text, m.end())
            if bare is not None:
                parts.append(("bare_room", bare.start(), bare.end()))
    return parts


_SPACED_NAME_END_RE = re.compile(r"(?:路|街|道|巷|村|苑|园|園|小区|小區|花园|花園|大道|里|坊|公寓|大厦|大廈)[ \t]$")


def _name_start(text: str, pos: int) -> int:
    """Where the road or estate name that ends at ``pos`` begins (after the district or city)."""
    if pos and text[pos - 1] in " \t" and _SPACED_NAME_END_RE.search(text, max(0, pos - 4), pos):
        pos -= 1  # "天钥桥路 198 弄", "锦华新村 20 栋": the name, a space, then the numbers
    m = _NAME_BACK_RE.search(text, max(0, pos - 10), pos)
    if m is None:
        return pos
    name = m.group(0)
    cuts = [i for i, c in enumerate(name) if c in _ADMIN_SUFFIXES
            and not (c in "区區" and i and name[i - 1] in _NOT_DISTRICT)]  # 锦绣小区 is an estate
    return m.start() + (cuts[-1] + 1 if cuts else 0)


def _chains(parts: list[tuple[str, int, int]], text: str) -> Iterator[list[tuple[str, int, int]]]:
    chain: list[tuple[str, int, int]] = []
    for part in parts:
        if chain and part[1] < chain[-1][2]:  # "301" and "301室": one part
            chain[-1] = (part[0] if part[0] in _INNER else chain[-1][0], chain[-1][1], max(part[2], chain[-1][2]))
            continue
        if chain and _FILLER_RE.fullmatch(text, chain[-1][2], part[1]) is None:
            yield chain
            chain = []
        chain.append(part)
    if chain:
        yield chain


# Every inner part is a number before one of these (a cheap test before the full pattern).
_CN_ANCHOR_RE = re.compile(r"[\dA-Za-z一二三四五六七八九十][ \t]?[号號]?(?:单元|單元|室|户|戶|栋|棟|幢|座|舍|楼|樓|层|層|组|組|队|隊|门|門)")


# An estate, then building-unit-room written with dashes: 翠苑三区 12-3-502, 阳光花园5-2-301.
_DASHED_RE = re.compile(r"\d{1,3}-\d{1,2}-\d{3,4}(?![\d-])")  # (a digit first: the engine skips ahead)
_ESTATE_BEFORE_RE = re.compile(
    rf"(?P<name>[{HAN_CHARS}]{{0,12}}(?:小区|小區|花园|花園|家园|家園|公寓|新村|苑|园|園|区|區|里|村|城|府|湾|灣|庭|居|"
    rf"阁|閣|院|坊|邨))[ \t]?$")


_ROAD_BEFORE_RE = re.compile(r"(?P<suffix>大道|大街|胡同|路|街|巷|道)[ \t]?\d{1,5}[ \t]?$")


def _dashed(text: str) -> Iterator[Finding]:
    for m in _DASHED_RE.finditer(text):
        if m.start() and text[m.start() - 1] in "0123456789-":
            continue  # part of a longer number ("2024-03-15")
        estate = _ESTATE_BEFORE_RE.search(text, max(0, m.start() - 16), m.start())
        if estate is None:
            continue
        name = estate.group("name")
        cuts = [i for i, c in enumerate(name[:-1]) if c in _ADMIN_SUFFIXES
                and not (c in "区區" and i and name[i - 1] in _NOT_DISTRICT)]
        start = estate.start() + (cuts[-1] + 1 if cuts else 0)
        if name in ("号院", "號院") and (road := _ROAD_BEFORE_RE.search(text, max(0, start - 24), start)) is not None:
            start = _name_start(text, road.start("suffix"))  # 槐安东路 88 号院 3-2-601: the road's yard, numbered
        if not _VENUE_RE.search(text[start:estate.end("name")]):
            yield Finding(ADDRESS, start, m.end())


_ESTATE_COMMA_RE = re.compile(
    rf"(?P<name>[{HAN_CHARS}]{{0,12}}(?:小区|小區|花园|花園|家园|家園|公寓|新村|苑|园|園|里|村|城|府|湾|灣|庭|居|阁|閣|坊|邨|"
    rf"大厦|大廈))[ \t]?[，,、][ \t]?$")


def _estate_start(m: re.Match[str]) -> int:
    name = m.group("name")
    cuts = [i for i, c in enumerate(name[:-1]) if c in _ADMIN_SUFFIXES and not (c in "区區" and i and name[i - 1] in _NOT_DISTRICT)]
    return m.start() + (cuts[-1] + 1 if cuts else 0)


def chinese_addresses(text: str) -> Iterator[Finding]:
    if "-" in text:
        yield from _dashed(text)
    if not _CN_ANCHOR_RE.search(text):
        return
    for chain in _chains(_parts(text), text):
        kinds = {k for k, _s, _e in chain}
        # Inside a building, or up the stairs of a house in a lane (Taipei's 巷弄…號3樓 are homes), or a door
        # number in a building (一二一团10连38栋3号: a regiment's company, block 38, door 3; not 3号门, its gate).
        door = chain[-1][0] == "house" and chain[-2][0] == "building" if len(chain) >= 2 else False
        if door and _HAN_RE.match(text, chain[-1][2]):
            door = False  # 3号门, 5号教室: a gate or a classroom of the building
        if len(chain) < 2 or not (kinds & _INNER or {"lane", "floor"} <= kinds or door):
            continue
        # 学院路30号, 锦绣小区12栋: the road's or the estate's name is part of it.
        start = _name_start(text, chain[0][1])
        if start == chain[0][1] and (estate := _ESTATE_COMMA_RE.search(text, max(0, start - 16), start)) is not None:
            start = _estate_start(estate)  # "进华中小区，9号楼4单元1004": the estate before a comma too
        names = [text[a[2]:b[1]] for a, b in zip(chain, chain[1:], strict=False)]
        if chain[0][0] != "road":
            names.append(text[start:chain[0][1]])
        if any(_VENUE_RE.search(name) for name in names):
            continue  # 恒隆广场5楼506室: a shop or an office in a public building, not a home
        if _PUBLIC_ROOM_RE.match(text, chain[-1][2]):
            continue  # B 座 3 楼 312 实验室, 3 楼 302 室是自习室: a classroom, a lab, an office
        yield Finding(ADDRESS, start, chain[-1][2])


# ----- English -----------------------------------------------------------------------------------

_STREET_SUFFIX = (r"Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Drive|Dr|Boulevard|Blvd|Way|Court|Ct|Place|Pl|"
                  r"Terrace|Close|Crescent|Highway|Hwy|Parkway|Pkwy|Square|Sq|Row|Walk|Alley|Gardens|"
                  r"Grove|Mews|Rise|Hill|View|Park|Green|Vale|Parade|Circle|Cir|Trail|Heights|Wharf|Quay")
_EN_PART_RE = re.compile(
    rf"(?P<street>\b\d{{1,5}}[A-Za-z]?(?:-\d{{1,4}})?,?\s+(?:(?:[NSEW]\.?|North|South|East|West)\s+)?"
    rf"(?:(?:[A-Z][a-z]+(?:'s)?|\d{{1,3}}(?:st|nd|rd|th))\s+){{1,3}}(?:{_STREET_SUFFIX})\b\.?)"
    r"|(?P<dwelling>\b(?:Apt|Apartment|Flat|Suite|Ste|Room|Rm)\.?\s*(?:No\.?\s*)?#?\s*[A-Z0-9]{1,5}(?:-[A-Z0-9]{1,5})?\b)"
    r"|(?P<block>\b(?:Unit|Floor|Fl|Building|Bldg|Block|Blk|Tower)\.?\s*(?:No\.?\s*)?#?\s*[A-Z0-9]{1,4}\b)"
    r"|(?P<postcode>\b[A-Z]{2}\s\d{5}(?:-\d{4})?\b|\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b"
    r"|\b(?:[A-Z]{2}\s)?[A-Z]\d[A-Z]\s\d[A-Z]\d\b)")  # US ZIP, UK postcode, Canada (ON M5J 0C3)
# Between two parts: a comma, and perhaps a town or an estate ("Springfield", "Wangjing Garden").
_EN_FILLER_RE = re.compile(r"\s*,?\s*(?:(?:[A-Z][a-z]+\.?\s+){0,3}[A-Z][a-z]+\s*,?\s*)?")
_EN_NAME_AFTER_RE = re.compile(r"\s*,\s*(?:[A-Z][a-z]+\s+){0,3}[A-Z][a-z]+(?![\w-])")


def english_addresses(text: str) -> Iterator[Finding]:
    parts = [(m.lastgroup or "", m.start(), m.end()) for m in _EN_PART_RE.finditer(text)]
    chain: list[tuple[str, int, int]] = []
    for part in [*parts, ("", -1, -1)]:
        if chain and part[1] >= 0 and _EN_FILLER_RE.fullmatch(text, chain[-1][2], part[1]) is not None:
            chain.append(part)
            continue
        kinds = [k for k, _s, _e in chain]
        street = "street" in kinds and ("dwelling" in kinds or "postcode" in kinds or "block" in kinds)
        dwelling = "dwelling" in kinds and len(kinds) >= 2
        line_start, line_end = (text.rfind("\n", 0, chain[0][1]) + 1, text.find("\n", chain[-1][2])) if chain else (0, 0)
        if street and not dwelling and "dwelling" not in kinds and VENUE_WORDS_RE.search(
                text[line_start:len(text) if line_end < 0 else line_end].lower()):
            street = False  # 中国驻英国大使馆：49-51 Portland Place, London W1B 1JL: an embassy's, everyone's
        if street or dwelling:
            end = chain[-1][2]
            if kinds[-1] in ("dwelling", "block"):  # "…, Building 5, Wangjing Garden": the estate too
                after = _EN_NAME_AFTER_RE.match(text, end)
                end = after.end() if after else end
            yield Finding(ADDRESS, chain[0][1], end)
        chain = [part] if part[1] >= 0 else []


_ANCHOR_WORDS = (_STREET_SUFFIX + "|Apt|Apartment|Flat|Suite|Ste|Room|Rm").split("|")
# Grouped by first letter so the pattern starts with literals and the regex engine skips ahead;
# the word boundary before it is checked in code.
_EN_ANCHOR_RE = re.compile("(?:" + "|".join(
    f"{first}(?:{'|'.join(sorted({w[1:] for w in _ANCHOR_WORDS if w[0] == first}, key=len, reverse=True))})"
    for first in sorted({w[0] for w in _ANCHOR_WORDS})) + r")\b")


def _has_anchor(text: str) -> bool:
    return any(not (m.start() and (text[m.start() - 1].isalnum() or text[m.start() - 1] == "_"))
               for m in _EN_ANCHOR_RE.finditer(text))


def addresses(text: str) -> Iterator[Finding]:
    yield from chinese_addresses(text)
    if re.search(r"\d", text) and _has_anchor(text):
        yield from english_addresses(text)
    yield from addresses_abroad(text)  # Japanese, Korean, Singapore, Hong Kong, European forms; labelled homes
    yield from postal_addresses(text)  # an address line in any language; what3words, Plus Codes
    yield from world_addresses(text)  # a street, its number and a flat or a home, in any language
    yield from address_forms(text)  # rural route boxes, Indian house numbers, kanji numerals, GPS, Eircodes
