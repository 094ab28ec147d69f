"""Home addresses whose form alone says they are a dwelling's: numbering systems that name one house or flat.

Some addresses carry no street type and no flat word a street-based reading needs (:mod:`addresses_world`),
yet their numbering reaches a single home:

* a rural route box (``RR 6 Box 850``, ``HC 68 Box 210``): a mailbox on a carrier's rural route;
* an Indian house number (``H.No. 12-2-218/46/A``, ``D.No. 8-3-14``, ``Flat No. 302``): the ward, block and
  plot of one house, perhaps with the street number after it;
* a Japanese address in kanji numerals (``栄町三丁目七番十五号``), on a line that says it is someone's
  (住所, 送り先, 差出人 …) or with a room (``コーポ桜二九三号室``);
* a photo's GPS position as exiftool prints it (``GPS Latitude : 25 deg 9' 11.09" N``): where the person
  stood, most often at home (unless the photo's own caption names a landmark);
* an Irish Eircode (``D02 X285``): each code names one letterbox.

A public building's address in the same forms (a prefectural office's 二丁目8番1号) has no home word and no
room, and passes; so does a form quoted or named as an example to explain it ("RR 2 Box 10", 课本练习的 H.No.).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_kb.qa.detectors.addresses_abroad import VENUE_WORDS_RE
from desktop_kb.qa.detectors.base import ADDRESS, Finding
from desktop_kb.qa.detectors.examples import EXAMPLE_RE

# A post office box someone is sent things at ("Send the forms to P.O. Box 79661"): a private mailbox.
_PO_BOX_RE = re.compile(r"(?i)(?<![\w])(?:p\.?[ \t]?o\.?[ \t]?box|post[ \t]+office[ \t]+box|postfach|apartado(?:[ \t]+de[ \t]+correos)?|"
                        r"caixa[ \t]+postal|bo[iî]te[ \t]+postale|casella[ \t]+postale)[ \t]*(?:no\.?[ \t]*)?\d{2,7}(?![\w])")
_SENT_RE = re.compile(r"(?i)(?<![a-z])(?:send|sent|mail|post|ship|deliver|forward|write\s+to|my|our|schick\w*|envi\w*|mand\w*)"
                      r"(?![a-z])|寄|邮寄|郵寄")
_RURAL_RE = re.compile(r"(?<![\w])(?:RR|R\.R\.|Rural\s+Route|HC|H\.C\.|Star\s+Route)[ \t]*#?\d{1,3}[ \t]*,?[ \t]*"
                       r"(?:Box|Bx)[ \t]*#?\d{1,5}(?![\w])")
# The house number's word, then its parts joined by dashes and slashes (a letter may end a part).
_IN_HOUSE_RE = re.compile(
    r"(?<![\w])(?:H\.?[ \t]?No|D\.?[ \t]?No|House[ \t]+No|Door[ \t]+No|Plot[ \t]+No|Flat[ \t]+No|Q\.?[ \t]?No)\.?[ \t]*[:#]?[ \t]*"
    r"\d{1,4}[A-Za-z]?(?:[-/][ \t]?\d{0,4}[A-Za-z]?)+"
    r"(?:[ \t]*,[ \t]*(?:Street|St|Road|Rd|Lane|Cross|Main|Sector|Block)\.?[ \t]*(?:No\.?[ \t]*)?\d{1,4}[A-Za-z]?)?(?![\w])")
_KANJI_DIGIT = "一二三四五六七八九十百〇零"
_KANJI_RE = re.compile(
    rf"[\u4e00-\u9fff\u30a0-\u30ff]{{1,8}}?[{_KANJI_DIGIT}]{{1,4}}丁目[{_KANJI_DIGIT}]{{1,4}}番(?:地)?(?:の?[{_KANJI_DIGIT}]{{1,4}}号?)?"
    rf"(?:[ \t　]*[\u30a0-\u30ff\u4e00-\u9fff]{{1,10}}?[{_KANJI_DIGIT}0-9]{{1,5}}号室)?")
_KANJI_HOME_RE = re.compile(r"住所|住まい|自宅|実家|新居|送り先|お届け先|届け先|宛先|差出人|受取人|住んで|引っ越|引越|"
                            r"下宿|寮|アパート|マンション|コーポ|ハイツ|号室")
_KANJI_VENUE_RE = re.compile(r"庁|役所|役場|駅|大学|学校|病院|博物館|美術館|図書館|ホテル|株式会社|本社|支店|神社|寺|城|公園|"
                             r"にあります|に位置")
_GPS_RE = re.compile(r"(?im)^[ \t]*(?:GPS[ \t]?(?:Latitude|Longitude|Position|Coordinates)(?:[ \t]?Ref)?|GPSLatitude|GPSLongitude)"
                     r"[ \t]*[:=][ \t]*(?P<v>[^\n]*\d[^\n]*?)[ \t]*$")
# A photo of a landmark says so in its own metadata (Description : Tour Eiffel, vue du Trocadéro).
_CAPTION_RE = re.compile(r"(?im)^[ \t]*(?:Description|Image[ \t]?Description|Title|Caption|Headline|Sub-?location|"
                         r"Location|Object[ \t]?Name)[ \t]*:[ \t]*(?P<v>[^\n]+)$")
_LANDMARK_RE = re.compile(r"(?i)tour|tower|palace|cathedral|basilica|bridge|castle|monument|square|plaza|park|garden|"
                          r"statue|view|vue|museum|temple|beach|mount|lake|塔|宫|宮|桥|橋|公园|公園|广场|廣場|景区|城|山|湖")
# "Rural Route addresses ("RR 2 Box 10") are …", "门牌像 H.No. 1-2-3/A": a form quoted to show it.
_HOME_WORDS_RE = re.compile(r"(?i)(?<![a-z])(?:my|our|i\s+live|we\s+live|send|ship|deliver|mail\s+(?:it\s+)?to|"
                            r"courier|post\s+to|address:|home|moved)(?![a-z])|地址|住址|寄")


def _line_around(text: str, start: int, end: int, reach: int = 200) -> tuple[int, str]:
    """The value's line, at most ``reach`` characters either side (a long line stays linear)."""
    line_start = max(text.rfind("\n", max(0, start - reach), start) + 1, start - reach)
    line_end = text.find("\n", end, end + reach)
    return line_start, text[line_start:min(len(text), end + reach) if line_end < 0 else line_end]


def _shown(text: str, start: int, end: int) -> bool:
    """The form is quoted or named as an exercise's or an example's, and its line does not say it is a home."""
    line_start, line = _line_around(text, start, end)
    quoted = text[start - 1:start] in "\"'“‘「" and start > line_start
    return EXAMPLE_RE.search(line) is not None or (quoted and _HOME_WORDS_RE.search(line) is None)


def _landmark_photo(text: str, pos: int) -> bool:
    block_start = text.rfind("\n\n", 0, pos) + 1
    block_end = text.find("\n\n", pos)
    for m in _CAPTION_RE.finditer(text, block_start, len(text) if block_end < 0 else block_end):
        if VENUE_WORDS_RE.search(m.group("v").lower()) or _LANDMARK_RE.search(m.group("v")):
            return True
    return False


_EIRCODE_RE = re.compile(r"(?<![\w])(?:[ACDEFHKNPRTVWXY]\d{2}|D6W)[ \t]?[0-9ACDEFHKNPRTVWXY]{4}(?![\w])")
_EIRCODE_WORDS_RE = re.compile(r"(?i)eircode|dublin|ireland|éire|(?<![a-z])co\.[ \t]+[a-z]")


def address_forms(text: str) -> Iterator[Finding]:
    if not re.search(r"\d|[一二三四五六七八九十]", text):
        return
    yield from (Finding(ADDRESS, m.start(), m.end()) for m in _RURAL_RE.finditer(text)
                if not _shown(text, m.start(), m.end()))
    for m in _PO_BOX_RE.finditer(text):
        _start, line = _line_around(text, m.start(), m.end(), 80)
        if _SENT_RE.search(line) and not VENUE_WORDS_RE.search(line.lower()) and not _shown(text, m.start(), m.end()):
            yield Finding(ADDRESS, m.start(), m.end())
    if "No" in text or "no" in text:
        yield from (Finding(ADDRESS, m.start(), m.end()) for m in _IN_HOUSE_RE.finditer(text)
                    if not _shown(text, m.start(), m.end()))
    if "丁目" in text:
        for m in _KANJI_RE.finditer(text):
            line_start, line = _line_around(text, m.start(), m.end())
            above = text[max(text.rfind("\n", max(0, line_start - 201), max(0, line_start - 1)) + 1, line_start - 200):line_start]
            if (_KANJI_HOME_RE.search(line) or _KANJI_HOME_RE.search(above)) and not _KANJI_VENUE_RE.search(line):
                yield Finding(ADDRESS, m.start(), m.end())
    if "GPS" in text:
        yield from (Finding(ADDRESS, m.start("v"), m.end("v")) for m in _GPS_RE.finditer(text)
                    if not _landmark_photo(text, m.start()))
    for m in _EIRCODE_RE.finditer(text):
        if _EIRCODE_WORDS_RE.search(_line_around(text, m.start(), m.end())[1]):
            yield Finding(ADDRESS, m.start(), m.end())
