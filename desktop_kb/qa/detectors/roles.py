"""Secrets known by the role a sentence gives them, not by their shape, in any language.

* an e-mail read aloud: a name, the word for "@" (at, 골뱅이, собака, arroba, małpa, アットマーク, 艾特,
  chiocciola, zavináč, arobase, snabel-a…), a domain and the word for "." before a top-level domain;
* a recovery phrase typed with the keyboard left in another layout (``тщшыу ензшсфд`` is ``noise
  typical`` on ЙЦУКЕН): each word read back through the layouts' tables is a BIP39 word;
* a password that is the value of a credential phrase ("the wifi is …", "la clave del wifi es …",
  "비번 …", "şifresi … imiş"), spelled letter by letter (``D-D-4-R-G-2-G-T``, ``大写K 小写b 5 8``) or
  written as a char array under a credential's name;
* a key with no prefix that a key phrase names ("the API key for the weather service: …",
  "APIキーは…です"), judged random by :func:`looks_random`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_kb.qa.detectors import password_words
from desktop_kb.qa.detectors.base import (
    API_KEY,
    EMAIL,
    PASSWORD,
    RECOVERY_CODE,
    Finding,
    looks_random,
    sequential,
)
from desktop_kb.qa.detectors.bip39_words import ENGLISH

# ----- e-mails read aloud -------------------------------------------------------------------------

_AT = (r"\[at\]|\(at\)|\{at\}|<at>|골뱅이|앳|собака|собачка|arroba|ma[łl]pa|アットマーク|アット|艾特|chiocciola|"
       r"zavin[áa][čc]|arobase|snabel-?a|apenstaartje|klammeraffe|kukac|et\s+i[şs]areti|שטרודל|(?<![\w])at(?![\w])")
_DOT = (r"\[dot\]|\(dot\)|\{dot\}|<dot>|(?<![\w])(?:dot|punto|kropka|punkt|point|ponto|te[čc]ka|nokta|pont|piste|"
        r"punt|prikk)(?![\w])|닷|점|точка|ドット|点|點|τελεία|נקודה|نقطة|डॉट")
_TLDS = frozenset((  # noqa: SIM905 - a word list reads best as words
    "com net org edu gov mil int info biz io me co ru ру рф pl jp cn de es it fr br uk kr in mx ar cl cz sk tr se no "
    "dk fi nl be ch at au ca us vn id my ph th tw hk sg ua by kz ir il eg sa ae za ng ke pt gr hu ro bg rs hr si lt "
    "lv ee is ie nz pe ve ec uy py bo cr pk bd lk np mn uz ge am az").split())
_NAME = r"[a-z0-9][a-z0-9._-]{0,40}"
_SPOKEN_EMAIL_RE = re.compile(
    rf"(?<![\w.])(?P<local>{_NAME}(?:\s+(?:dot|underscore|dash)\s+{_NAME})*)\s*(?P<at>{_AT})\s*"
    rf"(?P<domain>[a-z0-9\u0400-\u04ff][a-z0-9\u0400-\u04ff-]{{0,40}})"
    rf"(?P<rest>(?:\s*(?:{_DOT})\s*[a-z\u0400-\u04ff]{{2,12}}){{1,3}})(?![\w])")
_DOT_RE = re.compile(_DOT)
_MAIL_WORD_RE = re.compile(r"e-?mail|mail|邮箱|郵箱|邮件|メール|메일|이메일|correo|почт|courriel|adres|contact|write|"
                           r"scrivi|napisz|pisz|escrib|pošli|mande")


def spoken_emails(text: str) -> Iterator[Finding]:
    low = text.lower()
    if len(low) != len(text):
        return
    for m in _SPOKEN_EMAIL_RE.finditer(low):
        tld = _DOT_RE.split(m.group("rest"))[-1].strip()
        if tld not in _TLDS:
            continue
        local = m.group("local")
        if m.group("at") == "at" and not (re.search(r"\d|_|\s(?:dot|underscore)\s", local) or _MAIL_WORD_RE.search(
                low, max(0, m.start() - 60), m.start())):
            continue  # (a bare "at": "look at google dot com" unless the name or the line says it is an address)
        yield Finding(EMAIL, m.start(), m.end())


# ----- recovery phrases typed in another keyboard layout --------------------------------------------

_QWERTY = "qwertyuiopasdfghjklzxcvbnm"
_LAYOUTS = {  # what each letter key of a US keyboard types in the layout (Arabic's b types لا, read apart)
    "ru": "йцукенгшщзфывапролдячсмить",
    "uk": "йцукенгшщзфівапролдячсмить",
    "be": "йцукенгшўзфывапролдячсміть",
    "el": ";ςερτυθιοπασδφγηξκλζχψωβνμ",
    "he": "/'קראטוןםפשדגכעיחלךזסבהנמצ",
    "ar": "ضصثقفغعهخحشسيبلاتنمئءؤر\x00ىة",
    "fa": "ضصثقفغعهخحشسیبلاتنمظطزرذدپ",
}
_INVERSE = {name: {c: q for q, c in zip(_QWERTY, keys, strict=True)} for name, keys in _LAYOUTS.items()}
_BIP39 = frozenset(ENGLISH.split())
# (words of at most 16 characters, from a word's start: a line of Han with no spaces is not re-read from each
# of its characters)
_RUN_RE = re.compile(r"(?<!\S)[^\sA-Za-z0-9]{1,16}(?:[ \t]+[^\sA-Za-z0-9]{1,16}){11,}(?!\S)")


def _typed(word: str, table: dict[str, str], layout: str) -> str | None:
    if layout == "ar":  # (b types the ligature لا: two letters for one key)
        word = word.replace("لا", "b")
    out = []
    for c in word:
        if c == "b" and layout == "ar":
            out.append("b")
        elif c in table:
            out.append(table[c])
        else:
            return None
    return "".join(out)


def layout_phrases(text: str) -> Iterator[Finding]:
    for m in _RUN_RE.finditer(text):
        words = [(w.start(), w.end(), w.group()) for w in re.finditer(r"\S+", m.group())]
        for layout, table in _INVERSE.items():
            run: list[tuple[int, int]] = []
            for a, b, w in words + [(0, 0, "")]:
                typed = _typed(w.lower(), table, layout) if w else None
                if typed in _BIP39:
                    run.append((a, b))
                    continue
                if len(run) >= 12:
                    yield Finding(RECOVERY_CODE, m.start() + run[0][0], m.start() + run[-1][1])
                run = []


# ----- passwords and keys by role -----------------------------------------------------------------

# A credential phrase: the word for a password in any language, or the thing whose password it is.
_CREDENTIAL = ("|".join(password_words.WORDS) + r"|비번|비밀번호|口令|(?:密码|密碼)(?!学|學|算法|体制|體制|分析|机|機|锁|鎖|箱)|"
               r"パスワード|暗証番号|пароль")
# Everyday words that name what a password opens (strict joints only: "pass to player23" is football).
_THING = r"(?<![\w.-])(?:wi-?fi|wlan|clave|pass|mdp|login|admin|pw|pwd)(?![\w.-])|와이파이|вайфай"
_CREDENTIAL_RE = re.compile(rf"(?P<word>{_CREDENTIAL})|(?P<thing>{_THING})", re.I)
# What joins the phrase to its value: a copula or a separator in many languages (or nothing but a space).
_COPULA_RE = re.compile(
    r"(?i)(?:\s|^)(?:is|was|es|est|ist|lautet|è|é|era|ni|là|la|है|hai|to|je|er|är|on|είναι|это|—|–|-|/|:|：|=|"
    r"是|为|為|は|는|은|이|가|改成了|改为|设为|设置为|now)\s*$|(?:[:：=]|是|为|は)\s*$")
_STRICT_COPULA_RE = re.compile(r"(?i)(?:\s|^)(?:is|es|est|ist|è|é|ni|là|είναι|это|/|:|：|=)\s*$|[:：=是]\s*$")
_PW_TOKEN_RE = re.compile(r"[^\s\"'`,;，。；、<>()\[\]{}]{6,40}")
_VERSION_RE = re.compile(r"v?\d+(?:\.\d+)+[a-z]*|\d+(?:[.,]\d+)?%?|\d{1,2}:\d{2}")
_STOP_RE = re.compile(r"[.!?。！？;；](?:\s|$)|\n")
REACH = 36


# An algorithm's or a standard's name (SHA-256, AES128, UTF-8, ISO-8859) or an attribute's name (encoding=).
_NOT_PASSWORD_RE = re.compile(r"[A-Z]{2,8}-?\d{1,5}|[A-Za-z_][\w.-]*=|(?i:bcrypt|argon2\w*|pbkdf2\w*|scrypt)")


def _password_like(tok: str) -> bool:
    tok = tok.rstrip(".,!?")
    if _NOT_PASSWORD_RE.fullmatch(tok):
        return False
    if tok[0] in ":=-.#" or not 6 <= len(tok) <= 40 or _VERSION_RE.fullmatch(tok) or "://" in tok or "/" in tok or "@" in tok:
        return False
    if re.fullmatch(r"[\w.-]+\.(?:com|net|org|cn|io|edu|html?|py|md|txt|json)", tok, re.I):
        return False
    letters = sum(c.isalpha() for c in tok)
    digits = sum(c.isdigit() for c in tok)
    signs = len(tok) - letters - digits
    if not letters or not all(c.isascii() for c in tok):
        return False
    mixed = any(c.isupper() for c in tok[1:]) and any(c.islower() for c in tok)
    return bool(digits or signs or mixed) and not sequential(tok)


def password_roles(text: str) -> Iterator[Finding]:
    for m in _CREDENTIAL_RE.finditer(text):
        line_end = text.find("\n", m.end())
        line_end = len(text) if line_end < 0 else line_end
        hi = min(line_end, m.end() + REACH)
        for t in _PW_TOKEN_RE.finditer(text, m.end(), hi + 40):
            between = text[m.end():t.start()]
            if t.start() > hi or _STOP_RE.search(between):
                break
            joint = _COPULA_RE if m.group("word") else _STRICT_COPULA_RE
            if not (joint.search(between) or not between.strip()):
                continue
            tok = t.group().rstrip(".,!?")
            if _password_like(tok):
                yield Finding(PASSWORD, t.start(), t.start() + len(tok))
            break
    yield from _spelled(text)
    yield from _char_arrays(text)


_CASE_WORDS = r"(?:大写|小写|大寫|小寫|capital|small|upper(?:case)?|lower(?:case)?|big|may[úu]scula|min[úu]scula)"
_SPELLED_RE = re.compile(
    rf"(?<![\w'])(?:{_CASE_WORDS}\s?)?[A-Za-z0-9](?:(?P<sep>\s?[-,、]\s?|\s)(?:{_CASE_WORDS}\s?)?[A-Za-z0-9](?![\w'])){{5,40}}")
_SPELL_CONTEXT_RE = re.compile(rf"(?i)spell|letter\s+by\s+letter|逐个|逐個|一个一个|字母|{_CREDENTIAL}|{_THING}")


def _spelled(text: str) -> Iterator[Finding]:
    for m in _SPELLED_RE.finditer(text):
        chars = re.sub(rf"{_CASE_WORDS}|[\s,、-]", "", m.group(), flags=re.I)
        if not (any(c.isdigit() for c in chars) or re.search(_CASE_WORDS, m.group(), re.I)
                or (any(c.isupper() for c in chars) and any(c.islower() for c in chars))):
            continue  # (a word spelled out for a lesson: n-e-c-e-s-s-a-r-y)
        if not any(c.isalpha() for c in chars) or sequential(chars):
            continue
        line_start = max(text.rfind("\n", 0, m.start()) + 1, m.start() - 80)
        if _SPELL_CONTEXT_RE.search(text, line_start, m.start()):
            yield Finding(PASSWORD, m.start(), m.end())


_ARRAY_RE = re.compile(r"(['\"])[^'\"\\\s]\1(?:\s*,\s*(['\"])[^'\"\\\s]\2){5,63}")
_SECRET_NAME_RE = re.compile(r"(?i)pw|pass|secret|pwd|pin(?![a-z])|key|token|cred|mdp|密码|口令")


def _char_arrays(text: str) -> Iterator[Finding]:
    for m in _ARRAY_RE.finditer(text):
        chars = re.sub(r"['\"\s,]", "", m.group())
        if sequential(chars) or len(set(chars)) < 4 or not any(c.isalpha() for c in chars):
            continue
        if not (any(c.isdigit() for c in chars) or (any(c.isupper() for c in chars) and any(c.islower() for c in chars))):
            continue  # (vowels, a word's letters)
        line_start = text.rfind("\n", 0, m.start()) + 1
        prev_start = max(text.rfind("\n", 0, max(0, line_start - 1)) + 1, m.start() - 120)
        line_end = text.find("\n", m.end())
        if _SECRET_NAME_RE.search(text, prev_start, m.start()) or _SECRET_NAME_RE.search(
                text, m.end(), min(len(text) if line_end < 0 else line_end, m.end() + 120)):
            yield Finding(PASSWORD, m.start(), m.end())


# A phrase that names an API's key or a client's secret in words (a bare "key" or "token" names a dictionary's
# keys, a cache's, a UUID's as often: those go through the labelled-value rules).
_KEY_PHRASE_RE = re.compile(
    r"(?i)(?<![a-z0-9_])api[\s_-]?(?:key|schl[üu]ssel|キー|키|ключ|密钥|秘钥)(?![\w])|apiキー|clave\s+(?:de\s+(?:la\s+)?)?api|cl[ée]\s+api|"
    r"ключ\s+api|api[\s-]?(?:nyckel|nøgle|sleutel|kulcs|anahtar)|client\s+secret|secret\s+key|access\s+token|"
    r"接口密钥|接口秘钥|应用密钥|アクセストークン")
_PUBLIC_RE = re.compile(r"(?i)public|pub|publishable|fingerprint|hash|uuid|request|cache|idempot|digest|sha\d|示例|例|sample|example")
_KEY_TOKEN_RE = re.compile(r"[A-Za-z0-9+/_=-]{16,200}")


def key_roles(text: str) -> Iterator[Finding]:
    for m in _KEY_PHRASE_RE.finditer(text):
        if "_" in m.group():
            continue  # (a code name, api_key: its value is read, decoded, by the labelled-value rules)
        line_end = text.find("\n", m.end())
        hi = min(len(text) if line_end < 0 else line_end, m.end() + 48)
        t = _KEY_TOKEN_RE.search(text, m.end(), hi + 200)
        if t is None or t.start() > hi or _STOP_RE.search(text, m.end(), t.start()):
            continue
        line_start = text.rfind("\n", 0, m.start()) + 1
        if _PUBLIC_RE.search(text, max(line_start, m.start() - 40), t.start()):
            continue
        value = t.group().lstrip("=")
        if looks_random(value, min_len=16) and any(c.isdigit() for c in value):
            yield Finding(API_KEY, t.end() - len(value), t.end())
