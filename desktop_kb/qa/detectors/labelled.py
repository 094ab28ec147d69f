"""Values under a label, in any container and any language: one parser for every ``label → value``.

The other detectors each know one container (``NAME=value``, a JSON key, a
Markdown table, a sentence). A person's label for a secret comes in as many
shapes: a key in JSON or YAML in Chinese (``"密码": "…"``), an XML element
(``<dbPassword>…</dbPassword>``, ``<add key="…" value="…"/>``), a CSV column,
a comment above a neutral name (``# 手机号`` / ``VALUE_1="…"``), a phrase
followed by "below" (``密码写在下面`` … a paragraph later, the value on its own line),
a Japanese label (``パスワード: …``). This module reads them all the same way:

1. find the label and the value it governs (``_pairs``);
2. name the label's class from its words in English, Chinese or Japanese,
   code names read by their parts (``_label_class``);
3. gather the value as written: a value split over lines or string literals
   in a YAML ``>-`` block is joined (other joints: :mod:`joins`), a mask
   (``****``) is set aside, a base64 or percent-encoded value is decoded
   (``_judge``);
4. judge it by the class: a random token for a key, a person's password,
   11 digits for a mobile, a Luhn number for a card, a checksummed ID, a
   passport number, a base32 seed (``_fits``).

A label says what a value is, so the value tests here are looser than those
that must find a secret with nothing around it; the label is what keeps
hashes, UUIDs, ISBNs and order numbers (under their own labels) out.
"""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata
import urllib.parse
from collections.abc import Iterator

from desktop_kb.qa.detectors import password_words
from desktop_kb.qa.detectors.base import (
    API_KEY,
    BANK_CARD,
    MOBILE,
    PASSPORT,
    PASSWORD,
    RECOVERY_CODE,
    RESIDENT_ID,
    Finding,
    char_classes,
    is_example,
    looks_random,
    sequential,
    wordlike,
)
from desktop_kb.qa.detectors.normalize import normalize
from desktop_kb.qa.detectors.numbers import luhn_ok, valid_resident_id
from desktop_kb.qa.detectors.published import fictional_phone
from desktop_kb.qa.detectors.secret_names import (
    PASSWORD_NAME,
    SECRET_NAME,
    WEAK_NAME,
    name_class,
    name_parts,
)
from desktop_kb.qa.detectors.secret_values import is_path_or_url, is_placeholder
from desktop_kb.text.han import HAN_CHARS, has_han

# ----- what a label names ------------------------------------------------------------------------

# The word for a password in any language (password_words). A word that is also the word for any code
# counts only alone, as the whole label: κωδικός (code; κωδικός μαθήματος is a course's), Turkish and
# Italian "parola" (parola chiave: a keyword), sandi (sandi morse).
_PASSWORD_WORDS = password_words.PATTERN
# The word for a mobile phone in other languages (its number must then be a mobile's shape, _FOREIGN_MOBILE_RE).
_PHONE_WORDS = (
    r"(?<![a-z])(?:mob|portable|handy|handynummer|mobil|mobilnummer|celular|cel|m[óo]vil|cellulare|whatsapp)(?![a-z])|"
    r"телефон|мобильный|휴대폰|핸드폰|휴대전화|전화번호|โทรศัพท์|điện\s+thoại|(?<![a-z])(?:sđt|nomor\s+hp)(?![a-z])|"
    r"κινητ[οό]|τηλ[εέ]φωνο|(?<![a-z])(?:cep|gsm|mobiel|natel|telefon|telefonnummer|mobilní|komórka|puhelin|"
    r"matkapuhelin|telem[óo]vel|telefone|mobitel|mobiltelefon)(?![a-z])|tel\.?\s*kom\.?|мобільний|моб\.|"
    r"נייד|טלפון|موبائل|جوال|هاتف|मोबाइल|手提|"
    r"^h/?p$|^tel\.?\s*bimbit$|^cp\s*#?$|^wa$")  # (Singapore's and Malaysia's "HP", handphone: only as the whole label)
# A secret key's name in those languages: only the secret half's (clé publique, открытый ключ, 공개 키
# are meant to be shared, and a bare "key" names a dictionary's keys as often).
_KEY_WORDS = (
    r"cl[ée]\s+(?:secr[èe]te|priv[ée]e|d.acc[èe]s|d.application|(?:d.)?api)|"
    r"clave\s+(?:secreta|privada|de\s+acceso|(?:de\s+(?:la\s+)?)?api)|"
    r"chave\s+(?:secreta|privada|de\s+acesso|(?:da\s+)?api)|chiave\s+(?:segreta|privata|di\s+accesso|(?:delle\s+)?api)|"
    r"geheimer\s+schl[üu]ssel|privater\s+schl[üu]ssel|api-schl[üu]ssel|zugangsschl[üu]ssel|zugriffsschl[üu]ssel|"
    r"секретный\s+ключ|закрытый\s+ключ|приватный\s+ключ|ключ\s+(?:доступа|доступу|api)|api-ключ|токен|"
    r"секретний\s+ключ|приватний\s+ключ|"
    r"시크릿\s*키|액세스\s*키|비밀\s*키|개인\s*키|api\s*키|토큰|인증\s*키|서비스\s*키|"
    # (the same words in more languages, from their software's settings pages: Vietnamese, Turkish, Polish,
    # Czech and Slovak, Arabic, Persian, Hebrew, Indonesian and Malay, Dutch, Scandinavian, Finnish,
    # Hungarian, Romanian, Greek, Thai, Hindi, Latin-American Spanish, French and Italian tokens)
    r"kh(?:óa|oá|oa)\s+(?:bí\s+mật|bi\s+mat|api|truy\s+cập|riêng(?:\s+tư)?|bảo\s+mật)|mã\s+(?:truy\s+cập|api)|"
    r"api\s+anahtar[ıi]|gizli\s+anahtar|eri[şs]im\s+anahtar[ıi]|[öo]zel\s+anahtar|"
    r"klucz(?:a)?\s+(?:api|prywatny|tajny|dost[ęe]pu)|tajny\s+klucz|prywatny\s+klucz|"
    r"kl[íi][čc]\s+(?:k\s+)?api|tajn[ýy]\s+kl[íi][čc]|soukrom[ýy]\s+kl[íi][čc]|p[řr][íi]stupov[ýy]\s+kl[íi][čc]|"
    r"kľúč\s+api|tajný\s+kľúč|"
    r"مفتاح\s*(?:api|ال(?:سري|وصول|خاص|واجهة)|سري|خاص)|کلید\s*(?:api|خصوصی|مخفی|دسترسی)|"
    r"מפתח\s*(?:api|סודי|פרטי|גישה)|"
    r"kunci\s+(?:api|rahasia|rahsia|akses|peribadi|pribadi)|"
    r"api-?sleutel|geheime\s+sleutel|toegangssleutel|api-?nyckel|hemlig\s+nyckel|åtkomstnyckel|api-?nøkkel|"
    r"hemmelig\s+nøkkel|api-?nøgle|hemmelig\s+nøgle|api-?avain|salainen\s+avain|api[\s-]?kulcs|titkos\s+kulcs|"
    r"chei[ea]\s+(?:api|secret[ăa]|privat[ăa]|de\s+acces)|κλειδ[ιί]\s+api|μυστικ[οό]\s+κλειδ[ιί]|"
    r"คีย์\s*api|api\s*คีย์|คีย์ลับ|รหัสลับ|โทเค็น|api\s*कुंजी|गुप्त\s*कुंजी|"
    r"llave\s+(?:api|secreta|privada|de\s+acceso)|jeton(?:\s+d.acc[èe]s)?|token\s+di\s+accesso|"
    # Taiwan's and Hong Kong's words: 金鑰 (a key), 權杖 (a token), 密匙
    r"金鑰|金钥|密匙|權杖|权杖")

PW, KEY, OTP, PHONE, CARD, ID, PASSPORT_NO = "pw", "key", "otp", "phone", "card", "id", "passport"
_KIND = {PW: PASSWORD, KEY: API_KEY, OTP: RECOVERY_CODE, PHONE: MOBILE, CARD: BANK_CARD, ID: RESIDENT_ID,
         PASSPORT_NO: PASSPORT}
# Words in labels, strongest first (两步验证密钥 is a 2FA seed, not any key). Chinese, Japanese, English.
_LABEL_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((cls, re.compile(rx, re.I)) for cls, rx in (
    (OTP, r"两步验证|兩步驗證|二次验证|二段階認証|2段階認証|二要素|2fa|(?<![a-z])(?:mfa|otp)(?![a-z])|totp|authenticator|验证器|驗證器"),
    (PW, r"密码|密碼|口令|パスワード|暗証番号|暗証|パスコード|合言葉|비밀번호|password|passwd|passphrase|passcode|(?<![a-z])(?:pwd|pin|puk)(?![a-z])|"
         + _PASSWORD_WORDS),
    (ID, r"身份证|身份證|身分证|身分證|身分証|マイナンバー|個人番号|(?<![a-z])id[\s_-]*(?:card|number|no)(?![a-z])|national\s+id"),
    (PASSPORT_NO, r"护照|護照|旅券|パスポート|passport"),
    (CARD, r"银行卡|銀行卡|信用卡|借记卡|卡号|卡號|カード番号|クレジットカード|card\s*(?:number|no)(?![a-z])|credit\s+card|bank\s+card"),
    (PHONE, r"手机|手機|电话|電話|携帯|ケータイ|联系方式|聯絡方式|(?<![a-z])(?:phone|mobile|tel|cell)(?![a-z])|"
            + _PHONE_WORDS),
    (KEY, r"密钥|密鑰|秘钥|祕鑰|私钥|私鑰|令牌|凭证|憑證|凭据|授权码|授權碼|认证头|認証ヘッダー|シークレット|トークン|秘密鍵|"
          r"アクセスキー|api\s*キー|apiキー|認証キー|(?<![a-z])(?:token|secret)(?![a-z])|api[\s_-]?key|access[\s_-]?key|"
          r"secret[\s_-]?key|authorization|credential|" + _KEY_WORDS),
))
# Code names, by their parts (``phoneNumber``, ``ID_CARD_NO``, ``totp_secret``).
_PART_CLASSES = {
    **dict.fromkeys(("totp", "otp", "mfa", "hotp"), OTP),
    **dict.fromkeys(("phone", "mobile", "tel", "telephone", "cellphone", "msisdn", "shouji"), PHONE),
    **dict.fromkeys(("passport",), PASSPORT_NO),
    **dict.fromkeys(("idcard", "sfz", "shenfenzheng"), ID),
}


def _code_name_class(name: str) -> str | None:
    parts = name_parts(name)
    for p in reversed(parts):
        if p in _PART_CLASSES:
            return _PART_CLASSES[p]
    if "card" in parts and any(p in ("no", "num", "number", "nr") for p in parts) or "cardno" in parts:
        return CARD
    if "id" in parts and parts.index("id") + 1 < len(parts) and parts[parts.index("id") + 1] in ("card", "no", "number"):
        return ID  # id_card, ID_NUMBER, idNo (an order's id number is "order_id": no part after "id")
    cls = name_class(name)
    return PW if cls == PASSWORD_NAME else KEY if cls == SECRET_NAME else None


def label_class(label: str) -> str | None:
    """The class of what ``label`` announces, or None (``commit``, ``checksum``, ``订单号`` announce nothing)."""
    label = label.strip().strip("\"'`*_#[]()（）【】「」:：")
    if not label or len(label) > 40:
        return None
    if label.isascii() and _IDENT_RE.fullmatch(label):
        cls = _code_name_class(label)  # passport.no, process.env.DB_PASSWORD: read by all their parts
        if cls is None:  # "Salasana", "heslo", "senha", "Handy" alone: a word, not a code name
            return next((c for c, rx in _FOREIGN_WORD_RES if rx.fullmatch(label)), None)
        return cls
    for cls, rx in _LABEL_WORDS:
        if (m := next(reversed(list(rx.finditer(label))), None)) is not None:  # (the last: "密码强度…的密码")
            # "口令熵 H = L·log2(N)", "密码强度", "password entropy": a label about a property of the secret
            # (as PASSWORD_MIN_LENGTH is for a code name) announces a measure or a rule, not the secret.
            return None if _ABOUT_RE.match(label, m.end()) else cls
    return None


_FOREIGN_WORD_RES = ((PW, re.compile(_PASSWORD_WORDS, re.I)), (KEY, re.compile(_KEY_WORDS, re.I)),
                     (PHONE, re.compile(_PHONE_WORDS, re.I)))
_ABOUT_RE = re.compile(r"[ \t_-]*(?:熵|强度|強度|长度|長度|位数|位數|复杂度|複雜度|策略|规则|規則|提示|(?i:entropy|strength|"
                       r"length|policy|rules?|hint|complexity|bits)(?![a-z]))")


# ----- where labels and values stand ---------------------------------------------------------------

_LABEL_TEXT = rf"[{HAN_CHARS}\u3040-\u30ff\uac00-\ud7af][{HAN_CHARS}\u3040-\u30ff\uac00-\ud7af A-Za-z0-9_-]{{0,14}}"
# A label in another script (Клю́ч доступа, كلمة السر, รหัสผ่าน, Clé d'accès (production)): letters with their
# combining marks (Thai and Devanagari vowels are marks, not letters), up to four words and a bracket.
_MARKS = password_words.MARKS
_OTHER_LABEL = (rf"(?<![\w{_MARKS}$.-])[^\W\d_A-Za-z{HAN_CHARS}][\w{_MARKS}'’.-]{{0,30}}"
                rf"(?:[ \t](?:[\w{_MARKS}'’-]{{1,20}}|\([\w ]{{1,20}}\)|（[\w ]{{1,20}}）)){{0,3}}")
_QUOTED = r"\"[^\"\n]{1,300}\"|'[^'\n]{1,300}'|`[^`\n]{1,300}`|“[^”\n]{1,300}”|「[^」\n]{1,300}」"
_BARE = r"[^\s\"'`,;，。；、<>()\[\]{}]{1,300}"
# label, separator, value on one line: ``"密码": "…"``, ``パスワード = …``, ``Card number: `…` ``.
_INLINE_RE = re.compile(
    rf"(?:--?(?P<flag>[A-Za-z][\w-]{{1,40}})(?:[ \t]+|=)(?P<flagvalue>{_QUOTED}|{_BARE})|"
    # os.Setenv("DB_PASSWORD", "…"), set_var, setProperty("db.password", "…"), headers.set(…): a name
    # and its value passed side by side
    rf"(?P<clabel>\"[\w.-]{{1,60}}\"|'[\w.-]{{1,60}}')[ \t]*,[ \t]*(?P<cvalue>{_QUOTED})|"
    rf"(?P<label>\"[^\"\n]{{1,40}}\"|'[^'\n]{{1,40}}'|{_LABEL_TEXT}|{_OTHER_LABEL}|(?<![\w$.-])[A-Za-z][\w.'’-]{{0,40}}"
    # (a word in another script may end it, as its head: "API 키", "API キー", "Git トークン")
    rf"(?:[ \t](?:[A-Za-z][\w'’-]{{0,20}}|\([\w ]{{1,20}}\))){{0,3}}(?:[ \t][^\W\d_A-Za-z][\w'’-]{{0,20}})?)"
    # (config["db_password"] = …; process.env.DB_PASSWORD ?? "…"; "password -> …")
    rf"\]?[*_]{{0,2}}[ \t]*(?:\|\|=|\?\?=|:=|[:：=＝]|=>|->|→|\?\?|\|\|)[ \t]*(?:(?:!!?\w+|&\w+)[ \t]+)?"
    rf"(?P<value>{_QUOTED}|[|>][-+]?(?=[ \t]*(?:\n|$))|{_BARE}|\+?\(\d{{1,4}}\)))")
# XML: an element's text, an attribute pair.
# (attributes too: FileZilla's <Pass encoding="base64">…</Pass>)
_ELEMENT_RE = re.compile(r"<(?P<label>[A-Za-z_][\w.-]{0,40})(?P<attrs>[ \t][^<>\n]{0,120})?>[ \t]*(?P<value>[^<\n]{1,300}?)"
                         r"[ \t]*</(?P=label)>")
_HASHED_ATTR_RE = re.compile(r"(?i)hash|digest|md5|sha\d*|bcrypt|crypt")  # <Password type="hash">: a hash, not it
_ELEMENT_BLOCK_RE = re.compile(r"<(?P<label>[A-Za-z_][\w.-]{0,40})>[ \t]*\n(?P<value>(?:[ \t]*[^<\s][^<\n]*\n){1,4})"
                               r"[ \t]*</(?P=label)>")
_ATTR_PAIR_RE = re.compile(  # <add key="…" value="…"/>, <input name="db_password" type="text" value="…">
    r"(?:key|name|id)\s*=\s*\"(?P<label>[^\"\n]{1,40})\"[^<>\n]{0,80}?\svalue\s*=\s*(?P<value>\"[^\"\n]{1,300}\")")
# An element named by an attribute: Android's <string name="amap_key">…</string>, <entry key="…">…</entry>,
# <param name="…">…</param> (a name ending in "key" counts here only before a random value, as KEY).
_NAMED_ELEMENT_RE = re.compile(
    r"<(?P<tag>string|entry|param|property|item|setting|value|add|var)[ \t][^<>\n]{0,80}?\b(?:name|key|id)[ \t]*=[ \t]*"
    r"\"(?P<label>[^\"\n]{1,40})\"[^<>\n]{0,80}>[ \t]*(?P<value>[^<\n]{1,300}?)[ \t]*</(?P=tag)>")
# A property list: <key>appSecret</key> then the value in the next element.
_KEY_SIBLING_RE = re.compile(
    r"<key>(?P<label>[^<\n]{1,40})</key>\s*<(?P<tag>string|data|integer)>(?P<value>[^<\n]{1,300})</(?P=tag)>")
# A line that is only a label: a comment, a heading, or a sentence saying the value is below.
_COMMENT_RE = re.compile(r"(?m)^[ \t]*(?:#+|//|;|--|<!--|/\*|\*|>)[ \t]*(?P<label>[^\n]{1,40}?)[ \t]*(?:-->|\*/)?[ \t]*$")
_BELOW_RE = re.compile(r"(?i)(?:below|following|下面|下方|如下|以下|下記|次の|後述)")
_ASCII_RUN_RE = re.compile(r"[\x21-\x7e]{4}")
_STANDALONE_RE = re.compile(r"[ \t>]*(?:`(?P<bq>[^`\n]{4,300})`|(?P<raw>[\x21-\x5f\x61-\x7e]{4,300}))[ \t。，.,]*")
# A name's own value on the line under a comment: NAME=…, name: …, "name": …, - NAME=…, --flag …
_TARGET_RE = re.compile(
    rf"[ \t]*(?:-[ \t]+|export[ \t]+|(?:const|let|var|final|static|private|public|String)[ \t]+)*"
    rf"[\"']?(?P<name>[A-Za-z_][\w.-]{{0,40}})[\"']?[ \t]*(?:[:=]|:=|=>)[ \t]*(?P<value>{_QUOTED}|{_BARE})"
    rf"|[^\n]*?-H[ \t]+[\"']?(?P<hname>[A-Za-z][\w-]{{0,40}}):[ \t]*(?P<hvalue>[^\"'\n]{{1,300}})"
    rf"|[^\n]*?--?[A-Za-z][\w-]{{0,30}}[ \t]+(?P<flagvalue>{_QUOTED}|{_BARE})"
    rf"|[ \t]*<add[ \t]+key=\"(?P<attrname>[^\"\n]{{1,40}})\"[ \t]+value=(?P<attrvalue>\"[^\"\n]{{1,300}}\")")
_CSV_CELL_RE = re.compile(rf"[\w .\-/（）{HAN_CHARS}]{{1,40}}")
_TSV_HEADER_RE = re.compile(r"(?P<header>[^\n\t]{1,40}(?:\t[^\n\t]{0,40}){1,12})")
_CSV_HEADER_RE = re.compile(r"(?m)^(?P<header>[^\n,]{1,40}(?:,[^\n,]{0,40}){1,12})$")
_SSV_HEADER_RE = re.compile(r"(?m)^(?P<header>[^\n;]{1,40}(?:;[^\n;]{0,40}){1,12})$")


def _unquote(text: str, start: int, end: int) -> tuple[int, int]:
    if end - start >= 2 and text[start] in "\"'`“「" and text[end - 1] in "\"'`”」":
        return start + 1, end - 1
    return start, end


# ----- the value as written: joined, unmasked, decoded -------------------------------------------

# A YAML block (``key: >-``): the value is the indented lines below, joined.
_BLOCK_LINE_RE = re.compile(r"\n[ \t]+(?P<piece>[^\s#][^\n]{3,200}?)[ \t]*(?=\n|$)")
_MASK_RE = re.compile(r"\*{3,}|•{3,}|●{3,}|x{4,}|X{4,}")
_B64_RE = re.compile(r"[A-Za-z0-9+/]{8,}={0,2}|[A-Za-z0-9_-]{8,}={0,2}")


def _block_lines(text: str, pos: int) -> list[tuple[int, int]]:
    """The lines of a YAML block scalar after ``pos`` (at most four)."""
    spans = []
    for _ in range(4):
        m = _BLOCK_LINE_RE.match(text, pos)
        if m is None or ":" in m.group("piece"):
            break
        spans.append((m.start("piece"), m.end("piece")))
        pos = m.end("piece")
    return spans


def _decoded(value: str) -> str | None:
    if "%" in value:
        try:
            plain = urllib.parse.unquote(value, errors="strict")
        except UnicodeDecodeError:
            plain = value
        if plain != value:
            return _decoded(plain) or plain  # base64 carried in a URL is percent-encoded too
    if len(value) >= 8 and _B64_RE.fullmatch(value) and (len(value.rstrip("=")) % 4 != 1):
        core = value.rstrip("=")
        try:
            raw = base64.b64decode(core + "=" * (-len(core) % 4),
                                   altchars=b"-_" if re.search(r"[-_]", core) else None, validate=True)
            plain = raw.decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            return None
        if normalize(plain).text.isprintable() and len(plain) >= 4:
            return plain
    return None


# ----- is the value what the label says -------------------------------------------------------------

_TOKEN_RE = re.compile(r"[A-Za-z0-9+/_.~=-]+")
_SCHEME_RE = re.compile(r"^(?i:bearer|basic|token|bot|apikey|client-id|key|sso-key|ssws|api-token|dsn)[ \t]+")  # an Authorization value: scheme, then the key
_PASSPORT_RE = re.compile(r"[A-Z]{1,2}\d{7,8}|\d{9}")
_BASE32_RE = re.compile(r"[A-Z2-7]{16,}=*|[a-z2-7]{16,}=*")


# "!maomao0523", "$Panda0324", "@Xiaoming2015": a symbol first, then a word and digits — a password
# people choose, not a YAML tag, a shell variable or a decorator (those are names: no digits run).
_SYMBOL_FIRST_RE = re.compile(r"[!@#$%&*.\-_][A-Za-z]{2,}\d{2,}[!@#$%&*._-]?|[!@#$%&*.\-_]\d{2,}[A-Za-z]{2,}")


_IDENT_RE = re.compile(r"[A-Za-z_$][\w.$-]*")
_SYMBOL_WORD_RE = re.compile(r"[!@$%&*#.:_-][A-Za-z_]+")
_CODE_CHARS_RE = re.compile(r"[()\[\]{}]|::|->|\$\{|\$\(|%\(|\{\{")
_CODE_NAME_RE = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|[a-z]+(?:_[a-z]+)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
# "Cobalt.Cobalt.Maple04": a password manager's memorable password (capitalised words, dots, digits at
# the end), not an attribute path (settings.DB_PASSWORD, np.float64: lower-case or short parts).
_MEMORABLE_RE = re.compile(r"(?:[A-Z][a-z]{2,}\.){2,5}[A-Z][a-z]{2,}\d{1,4}")
_LETTER_RE = re.compile(r"[A-Za-z]")
_OTHER_RE = re.compile(r"[\d\W_]")
_CAMEL_WORDS_RE = re.compile(r"[A-Z]?[a-z]+(?:[A-Z][a-z]+)*")
_DIGIT_SEPARATORS_RE = re.compile(r"[ \-.]")
_MOBILE_RE = re.compile(r"(?:\+?86)?1[3-9]\d{9}")
_QUERY_RE = re.compile(r"&[A-Za-z_][\w.-]*=")
# Mobile numbers of other countries in their own shapes (a landline or a hotline under "tel" is not one):
# France, the UK, Korea, Germany, Spain, Italy, Japan, Russia, Brazil, India, Australia, Singapore, Hong Kong,
# Taiwan, Malaysia, Indonesia, Vietnam, Thailand; or any number written with its country code.
_FOREIGN_MOBILE_RE = re.compile(
    r"(?:\+?33|0)[67]\d{8}|(?:\+?44|0)7\d{9}|(?:\+?82|0)10\d{8}|(?:\+?49|0)1[5-7]\d{8,9}|(?:\+?34)?[67]\d{8}|"
    r"(?:\+?39)?3\d{8,9}|(?:\+?81|0)[789]0\d{8}|(?:\+?7|8)9\d{9}|(?:\+?55)?\d{2}9\d{8}|(?:\+?91)?[6-9]\d{9}|"
    r"(?:\+?61|0)4\d{8}|(?:\+?65)?[89]\d{7}|(?:\+?852)?[5679]\d{7}|(?:\+?886|0)9\d{8}|(?:\+?60|0)1\d{8,9}|"
    r"(?:\+?62|0)8\d{8,11}|(?:\+?84|0)[35789]\d{8}|(?:\+?66|0)[689]\d{8}|\+[1-9]\d{7,14}|"
    # Greece, Turkey, Poland, Czechia and Slovakia, Israel, Pakistan, Belgium, the Netherlands, Austria, Switzerland,
    # Sweden, Norway, Portugal, Ireland, Romania, Hungary, Ukraine, Saudi Arabia, the Emirates, Egypt, Nigeria,
    # Kenya, South Africa, Colombia, Peru, Chile, New Zealand, the Philippines, Bangladesh: each its mobiles' prefix
    r"(?:\+?30)?69\d{8}|(?:\+?90|0)5\d{9}|(?:\+?48)?[4-8]\d{8}|(?:\+?42[01])?[67]\d{8}|(?:\+?972|0)5\d{8}|"
    r"(?:\+?92|0)3\d{9}|(?:\+?32|0)4\d{8}|(?:\+?31|0)6\d{8}|(?:\+?43|0)6\d{8,11}|(?:\+?41|0)7[5-9]\d{7}|"
    r"(?:\+?46|0)7\d{8}|(?:\+?47)?[49]\d{7}|(?:\+?351)?9[1236]\d{7}|(?:\+?353|0)8[3-9]\d{7}|(?:\+?40|0)7\d{8}|"
    r"(?:\+?36|06)(?:20|30|31|50|70)\d{7}|(?:\+?380|0)[5-9]\d{8}|(?:\+?966|0)5\d{8}|(?:\+?971|0)5\d{8}|"
    r"(?:\+?20|0)1[0125]\d{8}|(?:\+?234|0)[789][01]\d{8}|(?:\+?254|0)[17]\d{8}|(?:\+?27|0)[6-8]\d{8}|"
    r"(?:\+?57)?3\d{9}|(?:\+?51)?9\d{8}|(?:\+?56)?9\d{8}|(?:\+?64|0)2\d{7,9}|(?:\+?63|0)9\d{9}|(?:\+?880|0)1[3-9]\d{8}")
_RULE_RE = re.compile(r":?-+:?")


def _password_like(v: str) -> bool:
    if not 6 <= len(v) <= 64 or " " in v or has_han(v) or is_path_or_url(v) or is_example(v):
        return False
    if is_placeholder(v) and not _SYMBOL_FIRST_RE.fullmatch(v) or _SYMBOL_WORD_RE.fullmatch(v):
        return False  # "@required", "!Ref", "$HOME": an annotation, a tag, a variable
    if _CODE_CHARS_RE.search(v):
        return False
    if _CODE_NAME_RE.fullmatch(v) and not _MEMORABLE_RE.fullmatch(v):
        return False  # settings.DB_PASSWORD, get_password, CURLOPT_READDATA: names
    letters = _LETTER_RE.search(v) is not None
    others = _OTHER_RE.search(v) is not None
    if letters and not others:  # "ResMqmZWtQtB": random letters in both cases, not a word
        return len(v) >= 8 and not v.islower() and not v.isupper() and not wordlike(v) \
            and not (_CAMEL_WORDS_RE.fullmatch(v) and all(re.search(r"[aeiouy]", p, re.I)
                                                          for p in re.findall(r"[A-Z]?[a-z]+", v)))
    return (letters and others) or (v.isdigit() and 6 <= len(v) <= 12)


def _key_like(v: str) -> bool:
    if len(v) < 16 or not _TOKEN_RE.fullmatch(v) or is_placeholder(v) or is_path_or_url(v) or sequential(v):
        return False  # (0123456789abcdef: the hex digits, written out)
    return looks_random(v)


def fits(cls: str, value: str) -> bool:
    """Whether ``value`` (normalised, unquoted) can be what a label of class ``cls`` announces."""
    v = value.strip()
    if not v:
        return False
    if cls == PW:
        return _password_like(v) or _key_like(v)
    if cls == KEY:
        return _key_like(_SCHEME_RE.sub("", v))
    if cls == OTP:
        return _BASE32_RE.fullmatch(re.sub(r"[ -]", "", v)) is not None and re.search(r"[2-7]", v) is not None
    digits = _DIGIT_SEPARATORS_RE.sub("", v)
    if cls == PHONE:
        return _MOBILE_RE.fullmatch(digits) is not None or _FOREIGN_MOBILE_RE.fullmatch(re.sub(r"[\s\-.~()/]", "", v)) is not None
    if cls == CARD:
        return digits.isdigit() and 13 <= len(digits) <= 19 and luhn_ok(digits) and len(set(digits)) > 2
    if cls == ID:
        return valid_resident_id(digits)
    if cls == PASSPORT_NO:
        return _PASSPORT_RE.fullmatch(v) is not None
    return False


_TRAILING = ",.;:!?)]}>'\"”」』。，；："


def _judge(text: str, cls: str, start: int, end: int) -> Iterator[Finding]:
    """Findings for the value at ``[start, end)`` under a label of class ``cls``."""
    while end > start and text[end - 1] in "。，；、":  # "…"，: the sentence's comma after a quoted value
        end -= 1
    start, end = _unquote(text, start, end)
    raw = text[start:end]
    if raw in (">-", ">", "|", "|-", ">+", "|+"):  # a YAML block: the value is on the lines below
        spans = _block_lines(text, end)
    else:
        stripped = raw.rstrip(_TRAILING) if cls != PW else raw.rstrip(",;。，；")
        if not stripped:
            return
        spans = [(start, start + len(stripped))]
    if not spans:
        return
    joined = "".join(text[s:e] for s, e in spans)
    kind = _KIND[cls]
    candidates = [joined]
    if _MASK_RE.search(joined) and cls in (PW, KEY):
        visible = _MASK_RE.sub("", joined)
        if len(visible) >= (6 if cls == PW else 12):
            candidates.append(visible)
    if (plain := _decoded(joined)) is not None:
        # An encoded value is judged by what it says (a base64 placeholder is one), read the way the
        # detectors read text (a zero-width space or full-width letters inside are not part of it).
        candidates = [normalize(plain).text]
    query = _QUERY_RE.search(joined)
    if query and len(spans) == 1:  # a URL's query: the next parameter is not the value
        cut = query.start()
        if cut and fits(cls, joined[:cut]):
            yield Finding(kind, spans[0][0], spans[0][0] + cut)
            return
    if any(fits(cls, c) for c in candidates):
        for s, e in spans:
            yield Finding(kind, s, e)
    elif cls == PHONE and len(spans) == 1 and "," in joined:  # phone_numbers='1876…,1772…': each number
        pos = spans[0][0]
        for piece in joined.split(","):
            if fits(cls, piece.strip()):
                offset = pos + piece.index(piece.strip())
                yield Finding(kind, offset, offset + len(piece.strip()))
            pos += len(piece) + 1


def _inline(text: str, line_start: int, line_end: int, anchor: int) -> Iterator[Finding]:
    """The ``label: value`` pairs whose label holds the label word at ``anchor``."""
    pos, end = max(line_start, anchor - 48), min(line_end, anchor + 400)  # (bounded: linear on long lines)
    if _SEPARATOR_HINT_RE.search(text, anchor, min(end, anchor + 64)) is None and "-" not in text[pos:anchor]:
        return  # no separator after the word and no flag before it ("password password …" is prose)
    while (m := _INLINE_RE.search(text, pos, end)) is not None and m.start() <= anchor:
        pos = m.start() + 1  # (matches may overlap: "name=li&passport_no=…" holds two)
        for name, value in (("flag", "flagvalue"), ("clabel", "cvalue")):
            if m.group(name) is not None:  # --passport-no E123…, os.Setenv("DB_PASSWORD", "…")
                if (cls := label_class(m.group(name).strip("\"'"))) is not None:
                    yield from _judge(text, cls, m.start(value), m.end(value))
                break
        else:
            yield from _labelled_pair(text, m, anchor)


def _labelled_pair(text: str, m: re.Match[str], anchor: int) -> Iterator[Finding]:
    if m.end("label") <= anchor:
        return
    label = m.group("label")
    cls = label_class(label if label[:1] not in "\"'" else label[1:-1])
    if cls is None and " " in label and label.isascii():
        cls = label_class(label.rsplit(" ", 1)[-1])
    if cls == PHONE and (spaced := _SPACED_NUMBER_RE.match(text, m.start("value"))) is not None:
        yield from _judge(text, cls, m.start("value"), spaced.end())  # "06 44 98 31 44", "(11) 98765-4321"
    elif cls is not None:
        yield from _judge(text, cls, m.start("value"), m.end("value"))


_SPACED_NUMBER_RE = re.compile(r"\+?\(?\d{1,5}\)?(?:[ \t\-.~]?\(?\d{1,5}\)?){1,6}(?![\d\w])")


# "I changed the password to X on Monday", "the password you asked for -> X", "昨天把密码改成了X",
# "パスワードは X です": a few words after the label word, a verb or an arrow, then the value.
_SENTENCE_RE = re.compile(
    r"(?:[ \t]+(?=[`\"'“「])|"  # "password `Harbin2007!`": the value right after the word, quoted
    r"[^\n。.!?！？:：=]{0,40}?(?:[ \t]*(?:->|→|=>)[ \t]*|\s+(?:is|was|to|now|=)\s+|"
    r"(?:是|为|為|改成了?|改为|改為|设为|設為|设成|設成|换成|換成|は|が)[ \t]*))"
    r"[\"'“「`]?(?P<value>[\x21-\x7e]{4,64}?)[\"'”」`]?(?=[\s,;，。；、）)]|$|[^\x00-\x7f])")

_SEPARATOR_HINT_RE = re.compile(r"[:：=＝>→?|,]")
_SENTENCE_START_RE = re.compile(r"[ \t\-→=是为為改设設换換はが]")  # (one set of characters: a fast scan)
_SENTENCE_HINT_RE = re.compile(r"->|→|=>|\s(?:is|was|to|now|=)\s|[是为為改设設换換はが]|\s[`\"'“「]")


def _sentence(text: str, low: str, anchor: int) -> Iterator[Finding]:
    line_end = text.find("\n", anchor)
    window_end = min(anchor + 72, len(text) if line_end < 0 else line_end)
    if _SENTENCE_START_RE.search(text, anchor + 2, window_end) is None \
            or _SENTENCE_HINT_RE.search(text, anchor + 2, window_end) is None:
        return  # no verb, arrow or quote after the word on its line: not a sentence that gives a value
    found = next(((c, w) for c, rx in _LABEL_WORDS if (w := rx.match(low, anchor, anchor + 24)) is not None), None)
    if found is None:
        return
    if _SENTENCE_HINT_RE.search(text, found[1].end(), found[1].end() + 48) is None:
        return
    m = _SENTENCE_RE.match(text, found[1].end())
    if m is None:
        return
    value = m.group("value")
    if text[m.end("value"):m.end("value") + 1] not in ("\"", "'", "”", "」", "`"):
        value = value.rstrip(".!?")  # the sentence's full stop (inside quotes, "Yq82mzkp!" keeps its "!")
    # In running text only a value with a digit, or letters of both cases and a symbol, is taken for
    # one ("the password if the keyfile is encrypted." is prose).
    if value and (re.search(r"\d", value) or char_classes(value) >= 3 or found[0] != PW):
        yield from _judge(text, found[0], m.start("value"), m.start("value") + len(value))


# INSERT INTO t (name, db_password) VALUES ('lilei', '…'): the columns name the values in order.
_SQL_INSERT_RE = re.compile(r"(?i)\((?P<cols>[\w\s,`\"]{1,400})\)\s*values\s*\((?P<vals>[^()\n]{1,1000})\)")
_SQL_VALUE_RE = re.compile(r"'(?:[^'\n]|'')*'|[^,\s][^,]*")


def _sql_inserts(text: str) -> Iterator[Finding]:
    for m in _SQL_INSERT_RE.finditer(text):
        cols = [c.strip().strip("`\"") for c in m.group("cols").split(",")]
        values = list(_SQL_VALUE_RE.finditer(text, m.start("vals"), m.end("vals")))
        if len(values) != len(cols):
            continue
        for col, value in zip(cols, values, strict=True):
            if (cls := label_class(col)) is not None:
                yield from _judge(text, cls, value.start(), value.end())


def _xml(text: str) -> Iterator[Finding]:
    if "<" not in text:
        return
    for rx in (_ELEMENT_RE, _ATTR_PAIR_RE, _KEY_SIBLING_RE):
        for m in rx.finditer(text):
            if rx is _ELEMENT_RE and m.group("attrs") and _HASHED_ATTR_RE.search(m.group("attrs")):
                continue
            if (cls := label_class(m.group("label"))) is not None:
                yield from _judge(text, cls, m.start("value"), m.end("value"))
    for m in _NAMED_ELEMENT_RE.finditer(text):
        cls = label_class(m.group("label"))
        if cls is None and name_class(m.group("label")) == WEAK_NAME:
            cls = KEY  # (fits() asks a KEY value to look random)
        if cls is not None:
            yield from _judge(text, cls, m.start("value"), m.end("value"))
    for m in _ELEMENT_BLOCK_RE.finditer(text):
        if (cls := label_class(m.group("label"))) is not None:
            first = re.search(r"\S+", m.group("value"))
            if first is not None:
                yield from _judge(text, cls, m.start("value") + first.start(), m.start("value") + first.end())


def _next_lines(text: str, pos: int, limit: int) -> Iterator[tuple[int, int]]:
    """Up to ``limit`` lines after ``pos`` that hold something."""
    seen = 0
    while pos < len(text) and seen < limit:
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        if text[pos:end].strip():
            seen += 1
            yield pos, end
        pos = end + 1


# variable "db_password" {, "phone": {, password_block {: a block named for a secret; its value is
# inside under a neutral name (default = "…", value: …).
_BLOCK_OPENER_RE = re.compile(
    r"[ \t]*(?:[A-Za-z_]\w*[ \t]+)?(?P<label>\"[\w.-]{1,40}\"|'[\w.-]{1,40}'|[A-Za-z_][\w.-]{0,40})[ \t]*:?[ \t]*\{[ \t]*")


_VALUE_KEYS = frozenset(["default", "value", "val", "data", "content", "text", "string", "plain", "plaintext",
                         "secret_string", "initial_value"])


def _commented(text: str, line_start: int, line_end: int) -> Iterator[Finding]:
    """``# 手机号`` / ``VALUE_1="…"``: a comment names what the next line's neutral name holds."""
    for m in (*_COMMENT_RE.finditer(text, line_start, line_end),
              *filter(None, [_BLOCK_OPENER_RE.fullmatch(text, line_start, line_end)])):
        label = m.group("label").strip("\"'")
        cls = label_class(label)
        if cls is None and len(label) <= 40 and m.re is _COMMENT_RE:
            cls = next((c for c, rx in _LABEL_WORDS if rx.search(label)), None)
        if cls is None:
            continue
        for start, end in _next_lines(text, m.end() + 1, 3):
            line = text[start:end]
            if _COMMENT_RE.fullmatch(line):
                continue
            if re.search(r"[{(\[:]\s*$", line) and not re.search(r"[=:]\s*\S", line.rstrip(" {([:")):
                continue  # "const config = {", "environment:": the value is inside, on the next line
            found = False
            for t in _TARGET_RE.finditer(text, start, end):
                name = t.group("name") or t.group("attrname") or t.group("hname")
                if m.re is _BLOCK_OPENER_RE and (name or "").lower() not in _VALUE_KEYS:
                    continue  # inside "credentials": {…} only a value key is the block's value ("commit" is not)
                if name is not None and (label_class(name) not in (None, cls)
                                         or label_class(name) is None and _ANCHOR_RE.search(name.lower())):
                    return  # the line names its own value (PASSWORD_MIN_LENGTH): that name wins
                group = next(g for g in ("value", "hvalue", "flagvalue", "attrvalue") if t.group(g) is not None)
                for f in _judge(text, cls, t.start(group), t.end(group)):
                    found = True
                    yield f
                if found:
                    return
            if not found and start > m.end() + 1 and not line.startswith((" ", "\t")):
                return


def _below(text: str, line_start: int, line_end: int) -> Iterator[Finding]:
    """"密码写在下面" … a paragraph later, the value alone on its line (or after a label line with a colon)."""
    line = text[line_start:line_end]
    if not line.rstrip().endswith((":", "：")) and not _BELOW_RE.search(line):
        return
    cls = next((c for c, rx in _LABEL_WORDS if rx.search(line)), None)
    if cls is None:
        return
    for start, end in _next_lines(text, line_end + 1, 3):
        if text.startswith("-----BEGIN", start):
            return  # an armoured block: its lines are the block's (a private one is found whole, keys.py)
        m = _STANDALONE_RE.fullmatch(text, start, end)
        if m is None:
            continue
        group = "bq" if m.group("bq") is not None else "raw"
        value = m.group(group)
        if group == "raw" and (value.endswith((":", "：")) or value[0] in "-#*|<[{"):
            break  # a YAML key, a list item, a heading, a table, markup: not a value
        yield from _judge(text, cls, m.start(group), m.end(group))
        break


def _csv(text: str, line_start: int, line_end: int) -> Iterator[Finding]:
    line = text[line_start:line_end]
    # (";" separates a CSV's cells where "," is the decimal comma: Excel in most of Europe)
    sep = "\t" if "\t" in line.strip() else ";" if ";" in line and "," not in line else ","
    m = (_TSV_HEADER_RE if sep == "\t" else _CSV_HEADER_RE if sep == "," else _SSV_HEADER_RE).fullmatch(
        text, line_start, line_end)
    if m is not None:
        cells = [c.strip().strip("\"'") for c in m.group("header").split(sep)]
        if sum(bool(c) for c in cells) < 2 or any(not _CSV_CELL_RE.fullmatch(c) for c in cells if c) \
                or m.group("header")[:1] in " \t" or "'" in m.group("header"):
            return  # "password=None,", "    'test_pass', 'test_true',": code, not a header
        columns = {i: cls for i, c in enumerate(cells) if (cls := label_class(c)) is not None}
        if not columns:
            return
        previous = text.rfind("\n", 0, max(0, line_start - 1)) + 1
        if line_start and text.count(sep, previous, line_start - 1) == len(cells) - 1:
            return  # a row like the one above it: the table's header was read where it began
        for start, end in _next_lines(text, m.end() + 1, 6):
            row = text[start:end]
            extra = row.count(sep) - (len(cells) - 1)
            if not 0 <= extra <= 2:
                break
            # A "，" typed after a value arrives as "," and adds a cell: a column's value may sit one
            # or two cells to the right of its header then.
            row_cells, pos, spans = row.split(sep), start, []
            for cell in row_cells:
                spans.append((pos, pos + len(cell)))
                pos += len(cell) + 1
            for i, cls in columns.items():
                for s, e in spans[i:i + extra + 1]:
                    value = text[s:e].strip()
                    if value:
                        offset = text.index(value, s)
                        found = list(_judge(text, cls, offset, offset + len(value)))
                        yield from found
                        if found:
                            break


# Every label holds one of these: one pass finds the few lines worth parsing. Short English words
# count only at the start of a word or a name's part ("apiKey", "DB_PIN"; not "monkey", "spin").
_LONG_ANCHORS = ("pass", "pwd", "passport", "secret", "token", "auth", "cred", "phone", "mobile", "msisdn", "shouji", "sfz",
                 "密码", "密碼", "密钥", "密鑰", "秘钥", "祕鑰", "私钥", "私鑰", "口令", "令牌", "凭证", "憑證", "凭据", "授权码",
                 "授權碼", "认证", "認証", "手机", "手機", "电话", "電話", "携帯", "卡号", "卡號", "银行卡", "銀行卡", "信用卡",
                 "身份证", "身份證", "身分证", "身分證", "身分証", "护照", "護照", "旅券", "两步", "兩步", "二段階", "2段階",
                 "验证器", "驗證器", "パス", "暗証", "合言葉", "シークレット", "トークン", "キー", "鍵", "マイナンバー", "個人番号",
                 "カード", "비밀",
                 # (the words for a password or a secret key in other languages: _PASSWORD_WORDS, _KEY_WORDS)
                 "kata sandi", "kata laluan", "sandi", "รหัสผ่าน", "κωδικ", "mật khẩu", "mat khau", "كلمة", "رمز", "şifre", "sifre",
                 "parola", "סיסמ", "पासवर्ड", "lösenord", "losenord", "adgangskode", "passord", "salasana", "heslo", "jelsz",
                 "contrase", "mot de passe", "kennwort", "senha", "wachtwoord", "hasło", "haslo", "пароль", "парол", "clé", "cle ",
                 "clave", "chave", "chiave", "schlüssel", "schluessel", "ключ", "токен", "시크릿", "액세스", "비밀 키", "개인 키",
                 "api 키", "api키", "토큰", "인증", "서비스", "khóa", "khoá", "khoa ", "mã truy", "anahtar", "klucz", "klíč",
                 "klic", "kľúč", "tajn", "soukrom", "přístup", "مفتاح", "کلید", "מפתח", "kunci", "sleutel", "nyckel",
                 "nøkkel", "nøgle", "avain", "kulcs", "cheie", "cheia", "κλειδ", "μυστικ", "คีย์", "รหัสลับ", "โทเค็น",
                 "कुंजी", "llave", "jeton", "金鑰", "金钥", "密匙", "權杖", "权杖", "секретн", "приватн") + password_words.ANCHORS
_SHORT_ANCHORS = ("key", "tel", "pin", "puk", "hp:", "hp：", "h/p", "card", "otp", "mfa", "2fa", "id ", "id_", "id-", "idcard", "mob", "cel", "handy",
                  "portable", "whatsapp", "m\u00f3vil", "movil", "телефон", "мобильн", "휴대", "핸드폰", "전화", "โทรศัพท์",
                  "điện thoại", "sđt", "nomor hp")


# One alternation of plain words over the lower-cased text (the engine skips ahead on their first
# characters; with re.IGNORECASE it cannot, and took a fifth of the gate's time). English words are
# found with str.find in ASCII text instead: their first letters are everywhere in English text and code,
# where the alternation tried every word at every letter.
_ANCHOR_RE = re.compile("|".join(map(re.escape, sorted(_LONG_ANCHORS + _SHORT_ANCHORS, key=len, reverse=True))))
_ASCII_ANCHORS = tuple(w for w in _LONG_ANCHORS + _SHORT_ANCHORS if w.isascii() and not w.startswith("passport"))
_OTHER_ANCHOR_RE = re.compile("|".join(map(re.escape, sorted((w for w in _LONG_ANCHORS + _SHORT_ANCHORS
                                                              if not w.isascii()), key=len, reverse=True))))
_SHORT = frozenset(_SHORT_ANCHORS)


def _anchors(text: str, low: str) -> dict[int, list[int]]:
    """Label words' positions, by the start of their line (``low``: the text lower-cased)."""
    # str.find per Latin word (C speed, no alternation tried at every letter), then in other text one pass
    # of the other scripts' words (the engine skips ahead on their first characters)
    found: dict[int, str] = {}
    for word in _ASCII_ANCHORS:
        pos = low.find(word)
        while pos >= 0:
            found.setdefault(pos, word)
            pos = low.find(word, pos + len(word))
    if not text.isascii():
        for m in _OTHER_ANCHOR_RE.finditer(low):
            found.setdefault(m.start(), m.group(0))
    words = sorted(found.items())
    lines: dict[int, list[int]] = {}
    for pos, word in words:
        if word in _SHORT and pos and text[pos - 1].islower():
            continue  # "monkey", "spin": a short word inside another
        lines.setdefault(text.rfind("\n", 0, pos) + 1, []).append(pos)
    return lines


_MD_ROW_RE = re.compile(r"[ \t]*\|(?P<cells>.+)\|[ \t]*")


def _md_table(text: str, line_start: int, line_end: int) -> Iterator[Finding]:
    """A Markdown table whose header names a column: every cell under it is judged by that name."""
    header = _MD_ROW_RE.fullmatch(text, line_start, line_end)
    if header is None:
        return
    cells = header.group("cells").split("|")
    columns = {i: cls for i, c in enumerate(cells) if (cls := label_class(c)) is not None}
    if not columns:
        return
    previous = text.rfind("\n", 0, max(0, line_start - 1)) + 1
    is_header = line_start == 0 or _MD_ROW_RE.fullmatch(text, previous, line_start - 1) is None
    pos = header.start("cells")  # "| 密码 | Tz8!kw3Lm |": a label in a row names the next cell
    for i, cell in enumerate(cells):
        value = cell.strip()
        if i - 1 in columns and value and not _RULE_RE.fullmatch(value):
            offset = cell.index(value)
            yield from _judge(text, columns[i - 1], pos + offset, pos + offset + len(value))
        pos += len(cell) + 1
    if not is_header:
        return  # a row in the middle of a table: its header was read when the table began
    for start, end in _next_lines(text, line_end + 1, 12):
        row = _MD_ROW_RE.fullmatch(text, start, end)
        if row is None:
            return
        pos = row.start("cells")
        for i, cell in enumerate(row.group("cells").split("|")):
            value = cell.strip()
            if i in columns and value and not _RULE_RE.fullmatch(value):
                offset = cell.index(value)
                yield from _judge(text, columns[i], pos + offset, pos + offset + len(value))
            pos += len(cell) + 1


_ALIGNED_CELL_RE = re.compile(r"\S+(?: \S+)*")  # cells: runs of text separated by two spaces or more


def _display_cells(text: str, start: int, end: int) -> list[tuple[int, int, int]]:
    """(display column, start, end) of each cell of a line; wide (CJK) characters take two columns."""
    cells, column, pos = [], 0, start
    for m in _ALIGNED_CELL_RE.finditer(text, start, end):
        column += _width(text[pos:m.start()])
        cells.append((column, m.start(), m.end()))
        column += _width(m.group(0))
        pos = m.end()
    return cells


def _width(s: str) -> int:
    return len(s) + sum(1 for c in s if c >= "\u1100" and unicodedata.east_asian_width(c) in "WF")


def _aligned(text: str, line_start: int, line_end: int) -> Iterator[Finding]:
    """A header of cells set apart by two spaces or more (OCR of a screenshot or a sticker, a command's
    table): each cell below, on the next three lines, is judged by the header cell it stands under."""
    header = _display_cells(text, line_start, line_end)
    columns = [(col, col + _width(text[s:e]), cls) for col, s, e in header
               if (cls := label_class(text[s:e])) is not None]
    if len(header) < 2 or not columns:
        return
    for start, end in _next_lines(text, line_end + 1, 3):
        for col, s, e in _display_cells(text, start, end):
            cls = next((c for a, b, c in columns if abs(col - a) <= 2 or a <= col < b), None)
            if cls is not None:
                yield from _judge(text, cls, s, e)


# A mobile's number right after its word, with or without a colon ("mob 0412 345 678", "Handy 0151 2345 6789",
# "κινητό: 694 123 4567"): the number must then have a country's mobile shape (_FOREIGN_MOBILE_RE).
# (and the short words a chat or a form puts before a number: H/P, HP, WA, cp#, Viber, Zalo — only before a
# number in a mobile's shape)
_WORDED_PHONE_RE = re.compile(rf"(?i)(?:{_PHONE_WORDS}|(?<![a-z])(?:phone|mobile|mob|cell|tel)(?![a-z])|"
                              r"(?<![\w/])(?:h/p|hp|wa|cp|viber|zalo|telegram)(?![\w/]))"
                              r"[ \t]*(?:[:：=#.-]|no\.?|number|nr\.?)?[ \t]*"
                              r"(?P<v>\+?\(?\d(?:[ \-.()]{0,2}\d){7,14})(?![\d])")
_PHONE_HINT_RE = re.compile(r"\d[ \-.]?\d[ \-.]?\d[ \-.]?\d[ \-.]?\d[ \-.]?\d[ \-.]?\d")


# Words near a number that say it is someone's phone, in the languages people write them in (a sentence's words
# between: "my number's 07…", "Appelle-moi au 06 …", "Hubungi aku di 08…", "Meu zap: (11) 9…", "…로 문자 주세요").
_PHONE_NEAR_RE = re.compile(
    r"(?i)(?<![a-z])(?:(?:my|mi|meu|minha|mon|ma|mein\w*|mera|meri|our|his|her|мой|мій)[ \t]+(?:\w+[ \t]+)?"
    r"(?:numbers?|number's|numer|número|numero|numéro|nummer|nomor|nombor|номер)|numbers?[ \t]+(?:ko|ku|saya)|"
    r"telefon\w*|tel[eé]fono|telefone|t[eé]l[eé]phone|phone|mobile?|m[oó]vil|cell|celular|cel|cellulare|handy|natel|"
    r"gsm|portable|tel|t[eé]l|whats\s?app|zap|viber|telegram|kakao|call|text|ring|appel\w*|llam\w*|lig\w*|"
    r"ruf\w*|anruf\w*|chiam\w*|bel|dzwo\w*|ara\w*|hubungi|sđt|điện\s+thoại|gọi|momo|gcash|m-?pesa|paytm|"
    # payment apps that pay to a mobile number (Sweden, Spain, Portugal, Norway, Denmark, Switzerland, Singapore,
    # Korea, India, the US, Russia's SBP)
    r"swish\w*|bizum|mb[ \t]?way|vipps|mobilepay|twint|paynow|kakao\s?pay|phonepe|g\s?pay|zelle|venmo|сбп|"
    r"mob|hp|wa)(?![a-z])|電話|携帯|ケータイ|番号|전화|번호|문자|연락|핸드폰|휴대폰|โทร|เบอร์|موبایل|تلفن|شماره|هاتف|"
    r"جوال|رقمي|واتساب|טלפון|נייד|फ़ोन|फोन|मोबाइल|নম্বর|ফোন|手机|手機|电话|電話|联系|聯繫|微信|号码|號碼")
_LOOSE_PHONE_RE = re.compile(r"(?<![\w+.,/-])\+?\(?\d(?:[ \-.()]{0,2}\d){7,14}(?![\w/])")


# A chat app's or a dialler's link to a person's number (viber://chat?number=%2B…, wa.me/…, t.me/+…, tel:…), and
# an Indian UPI handle made of a mobile (98…@ybl): the number is the person's.
_DEEP_LINK_RE = re.compile(
    r"(?i)(?P<app>viber://[a-z]+\?number=|whatsapp://send\?phone=|api\.whatsapp\.com/send/?\?phone=|wa\.me/|"
    r"t\.me/\+|tel:|sms:|callto:)(?P<v>(?:%2B|\+)?\d(?:[\d\-. ]|%20){6,20}\d)")
_UPI_RE = re.compile(r"(?<![\w.])(?P<v>[6-9]\d{9})@(?:ybl|ibl|axl|okaxis|oksbi|okicici|okhdfcbank|paytm|upi|apl|yapl|"
                     r"ptyes|ptsbi|pthdfc|ptaxis|waicici|wahdfcbank)(?![\w])")


def _linked_mobiles(text: str) -> Iterator[Finding]:
    for m in _DEEP_LINK_RE.finditer(text):
        digits = re.sub(r"%2[bB]|%20|[\s\-.+]", "", m.group("v"))
        if not 8 <= len(digits) <= 15:
            continue
        plus = "+" if m.group("v")[:1] == "+" or m.group("v")[:3].upper() == "%2B" else ""
        if m.group("app").lower() in ("tel:", "sms:", "callto:") and not (
                _FOREIGN_MOBILE_RE.fullmatch(plus + digits) or _MOBILE_RE.fullmatch(plus + digits)):
            continue  # (a dialler link to an office's or a hotline's number)
        yield Finding(MOBILE, m.start("v"), m.end("v"))
    yield from (Finding(MOBILE, m.start("v"), m.end("v")) for m in _UPI_RE.finditer(text))


def worded_mobiles(text: str) -> Iterator[Finding]:
    if _PHONE_HINT_RE.search(text) is None:
        return  # (every mobile holds eight digits)
    if ":" in text or "/" in text or "@" in text:
        yield from _linked_mobiles(text)
    for m in _WORDED_PHONE_RE.finditer(text):
        digits = re.sub(r"[\s\-.~()/]", "", m.group("v"))
        if _FOREIGN_MOBILE_RE.fullmatch(digits) or _MOBILE_RE.fullmatch(digits):
            yield Finding(MOBILE, m.start("v"), m.end("v"))
    yield from _sentence_mobiles(text)


def _sentence_mobiles(text: str) -> Iterator[Finding]:
    """A number in a country's mobile shape with a word for a phone in the same sentence: before it on its line
    (up to 40 characters) or just after it."""
    for m in _LOOSE_PHONE_RE.finditer(text):
        digits = re.sub(r"[\s\-.()]", "", m.group(0))
        if len(digits) < (11 if digits.startswith("+") else 9) or fictional_phone(digits) \
                or not (_FOREIGN_MOBILE_RE.fullmatch(digits) or _MOBILE_RE.fullmatch(digits)):
            continue  # (GB/T 7714-2015 is a standard; a hotline with its country code is an office's)
        if re.search(r"\d[.,]\d{1,2}(?!\d)|\d\.\d{3}\.\d{3}(?![\d.])", m.group(0)) and not re.search(r"[ -]", m.group(0)):
            continue  # 3.14159265, 1.234.567: a decimal or an amount, not a number written with dots
        line_start = text.rfind("\n", 0, m.start()) + 1
        line_end = text.find("\n", m.end())
        line_end = len(text) if line_end < 0 else line_end
        if _PHONE_NEAR_RE.search(text, max(line_start, m.start() - 40), m.start()) \
                or _PHONE_NEAR_RE.match(text, m.end() + (1 if text[m.end():m.end() + 1] in "로으 " else 0),
                                        min(line_end, m.end() + 16)) \
                or _PHONE_NEAR_RE.search(text, m.end(), min(line_end, m.end() + 8)):
            yield Finding(MOBILE, m.start(), m.end())


def labelled_values(text: str) -> Iterator[Finding]:
    multiline = "\n" in text
    ascii_at = -1  # where the next run of ASCII starts (a value below a label is one)
    low = text.lower()
    for start, positions in sorted(_anchors(text, low).items()):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        for pos in sorted(positions):
            yield from _inline(text, start, end, pos)
            yield from _sentence(text, low, pos)
        if not multiline or end - start > 160:
            continue
        head = text[start:end].lstrip()[:1]
        if head in "#/;-<*>" or text[start:end].rstrip().endswith("{") and _BLOCK_OPENER_RE.fullmatch(text, start, end):
            yield from _commented(text, start, end)
        elif head == "|":
            yield from _md_table(text, start, end)
        if "," in text[start:end] or "\t" in text[start:end] or ";" in text[start:end]:
            yield from _csv(text, start, end)
        if "  " in text[start:end] and head not in "#/;<*>|":
            yield from _aligned(text, start, end)
        if ascii_at < end:
            run = _ASCII_RUN_RE.search(text, end)
            ascii_at = run.start() if run else len(text) + 1
        if ascii_at - end <= 800:
            yield from _below(text, start, end)
    if "<" in text:
        yield from _xml(text)
    if "VALUES" in text or "values" in text:
        yield from _sql_inserts(text)
