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

_PROVINCES = "京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼"
_L = "A-HJ-NP-Z"
# The city's letter may be typed in lower case (浙a12345); a plate for Hong Kong or Macau crossings,
# a learner's or a police car's has four characters and its suffix (粤Z·A123港).
_CN_PLATE_RE = re.compile(
    rf"[{_PROVINCES}][{_L}{_L.lower()}][ \t·•・.\-]?(?P<n>[DF][{_L}0-9]\d{{4}}|\d{{5}}[DF]|[{_L}0-9]{{5}}"
    rf"(?:[学警挂领港澳试超]|(?![A-Za-z0-9]))|[{_L}0-9]{{4}}[学警挂领港澳试超])")
# 车号 and "plate" alone name trains' and microscopes' numbers too: only the words for a car's plate.
_PLATE_WORDS_RE = re.compile(
    r"(?i)车牌|車牌|牌照|号牌|號牌|licen[cs]e\s+plate|number\s+plate|plate\s+(?:no\.?|number)|"
    r"(?P<generic>(?<![A-Za-z])(?:registration|reg|rego)(?![A-Za-z]))")
# "Registration" is a course's or an event's as often: a vehicle must be named on the line.
_VEHICLE_RE = re.compile(r"(?i)(?<![A-Za-z])(?:car|car's|vehicle|van|truck|lorry|motorbike|motorcycle|scooter|"
                         r"ute|suv|taxi)(?![A-Za-z])|车|車")
# After the word: a few words or a colon ("registration is", "号：", "(台北)"), then the plate.
_AFTER_WORD_RE = re.compile(
    r"[^\n]{0,14}?(?<![A-Za-z0-9])(?P<v>[A-Z0-9]{1,4}(?:[ \-·][A-Z0-9]{1,5}){0,2})(?![A-Za-z0-9])")


def _plate_like(value: str) -> bool:
    core = re.sub(r"[ \-·]", "", value)
    return 4 <= len(core) <= 8 and re.search(r"\d", core) is not None and re.search(r"[A-Z]", core) is not None


def licence_plates(text: str) -> Iterator[Finding]:
    for m in _CN_PLATE_RE.finditer(text):
        if re.search(r"\d", m.group("n")):
            yield Finding(LICENCE_PLATE, m.start(), m.end())
    lower = text.lower()
    if "牌" not in text and "plate" not in lower and "reg" not in lower:
        return
    for word in _PLATE_WORDS_RE.finditer(text):
        if word.group("generic") and not near(text, word.start(), word.end(), _VEHICLE_RE, 40, 40):
            continue
        m = _AFTER_WORD_RE.match(text, word.end())
        if m is not None and _plate_like(m.group("v")):
            yield Finding(LICENCE_PLATE, m.start("v"), m.end("v"))
