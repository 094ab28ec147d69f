"""A code that opens something: a door, a gate, a safe, a padlock, a luggage lock, a locker.

"行李箱密码锁：798", "酒店保险箱：自己设的 7140", "door code 4821#", "digicode : 2580B", "Türcode 1357",
"código del candado: 0927": three to eight digits after the word for the lock, a few words between at
most. A code this short matches nothing alone, and the lock's word is what makes it one; a count or
a measure after the word (保险箱容量 200 升, "safe for 100 people", a year it was bought) is no code.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_kb.qa.detectors.base import PASSWORD, Finding

_LOCK_WORDS = (
    r"门禁(?:密码|码)?|門禁(?:密碼|碼)?|门锁密码|門鎖密碼|密码锁|密碼鎖|保险箱|保险柜|保險箱|保險櫃|行李箱(?:密码|锁)?|"
    r"行李箱(?:密碼|鎖)?|挂锁|掛鎖|储物柜|儲物櫃|大门密码|大門密碼|单元门密码|"
    r"(?i:(?:door|gate|entry|entrance|keypad|lockbox|key\s*box|key\s*safe|locker|safe|padlock|garage|building)"
    r"[ \t_-]*(?:code|pin|combo|combination)|(?:lock|locker|padlock|safe|luggage|suitcase)\s+combination|"
    r"digicode|code\s+(?:de\s+la\s+)?(?:porte|portail|d['’]entr[ée]e|immeuble)|t[üu]rcode|schlosscode|zahlenschloss|"
    r"c[óo]digo\s+(?:de\s+|del\s+)?(?:la\s+)?(?:puerta|portal|portão|portao|candado|cadeado|caja\s+fuerte|cofre)|"
    r"codice\s+(?:del\s+)?(?:portone|lucchetto|cassaforte)|код\s+(?:домофона|двери|замка|сейфа|подъезда))|"
    r"ドア(?:の)?暗証番号|金庫(?:の)?暗証番号|도어락(?:\s*비밀번호)?|현관\s*비밀번호|금고\s*비밀번호")
_CODE_RE = re.compile(
    rf"(?:{_LOCK_WORDS})[^\n\d]{{0,12}}?(?<![\d.,])(?P<v>\d{{3,8}}[#*]?|\d{{1,4}}(?:[ -]\d{{1,4}}){{1,3}}[#*]?)(?!\d|[.,:/]\d)"
    r"(?![ \t]*(?:年|元|块|塊|个|個|次|天|号|號|楼|樓|层|層|岁|歲|%|位|人|寸|升|公斤|斤|件|张|張|把|"
    r"(?i:kg|cm|mm|m|g|l|lbs?|people|persons?|euros?|dollars?|usd|eur|rmb|yuan|years?|days?|pcs)(?![A-Za-z])))")
_ANCHORS = ("门禁", "門禁", "锁", "鎖", "保险", "保險", "行李箱", "储物", "儲物", "大门", "大門", "code", "pin", "combo",
            "combination", "türcode", "turcode", "schloss", "código", "codigo", "codice", "код", "暗証番号", "도어락",
            "비밀번호")


def lock_codes(text: str) -> Iterator[Finding]:
    low = text.lower()
    if not any(a in low for a in _ANCHORS):
        return
    for m in _CODE_RE.finditer(text):
        value = m.group("v")
        if re.fullmatch(r"(?:19|20)\d\d", value) and re.search(r"(?:年|买|買|bought|since|seit|desde)", m.group(0)):
            continue  # a year the lock was bought
        yield Finding(PASSWORD, m.start("v"), m.end("v"))
