"""Bank account numbers under their words, in any language.

An account number has no shape of its own: a US checking account is 4 to 17
digits, a Japanese 口座番号 seven, a UK one eight beside a sort code, a Korean
one dashed 3-6-5, a Vietnamese số tài khoản thirteen. What makes a run of
digits an account is the word in front of it — "Account number", "A/c No.",
口座番号, 계좌번호, Kontonummer, N° de compte, número de cuenta, nomor rekening,
số tài khoản, р/с, เลขที่บัญชี — or the bank's own name right before it
(하나은행 336-478582-65095, 招商银行 6225 …). A word that also means a login
("account", 账号, Konto, compte) counts only where the lines around it talk
about a bank (routing, sort code, BSB, IFSC, transit, 开户行, 支店 …).

Also withheld: a French RIB written out (bank, branch, account and its key,
checked), the account under an account column of a CSV, and a Brazilian Pix
random key (a UUID under "chave"/"Pix"). A date, an amount or a hotline after
the word is none of these.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_kb.qa.detectors.base import BANK_CARD, Finding
from desktop_kb.qa.detectors.numbers import digits_of, real_date

# Words that name a bank account and nothing else (lower-cased text; a space may be "_" or "-" in a key).
_S = r"[\s_-]*"
_STRONG = (
    rf"account{_S}(?:number|num|no|nr|#)|acct{_S}(?:number|num|no|#)|a/c{_S}(?:no|number|#)?|accountnumber|"
    rf"bank{_S}account|checking{_S}account|savings{_S}account|beneficiary{_S}account|"
    rf"(?:savings|current|checking|chequing|cheque|deposit|salary|joint){_S}(?:acct|a/c)|"
    r"账户号码|帳戶號碼|賬戶號碼|账户号|帳戶號|户口号码|戶口號碼|戶口號|银行账号|銀行帳號|银行账户|銀行帳戶|收款账号|收款帳號|"
    r"口座番号|口座番號|계좌번호|계좌|"
    rf"kontonummer|konto{_S}nr|kto{_S}nr|num[ée]ro{_S}de{_S}compte|n[°o]{_S}de{_S}compte|"
    rf"n[uú]mero{_S}de{_S}cuenta|n[ºo°]{_S}(?:de{_S})?cuenta|cuenta{_S}(?:corriente|bancaria|de{_S}ahorros?)|"
    rf"n[uú]mero{_S}da{_S}conta|conta{_S}(?:corrente|poupan[cç]a|banc[aá]ria)|numero{_S}di{_S}conto|"
    rf"conto{_S}corrente|rekeningnummer|nomor{_S}rekening|no\.?{_S}rek(?:ening)?|nombor{_S}akaun|no\.?{_S}akaun|"
    rf"s[ốo]{_S}t[àa]i{_S}kho[ảa]n|stk|hesap{_S}(?:no|numaras[ıi])|(?:numer|nr){_S}(?:konta|rachunku)|"
    rf"[čc][íi]slo{_S}[úu][čc]tu|номер{_S}сч[её]та|р/с|расч[её]тный{_S}сч[её]т|лицевой{_S}сч[её]т|"
    r"เลขที่บัญชี|เลขบัญชี|บัญชีเลขที่|رقم\s*الحساب|खाता\s*संख्या")
# Words that may mean a login as well: an account only where the lines around it name a bank.
_WEAK = r"account|acct|acc|账号|帳號|賬號|帐号|账户|帳戶|賬戶|户口|戶口|口座|konto|compte|cuenta|conta|conto|rekening|akaun|hesap"
_WORD_RE = re.compile(rf"(?P<strong>{_STRONG})|(?P<weak>{_WEAK})")
_BANK_CONTEXT_RE = re.compile(
    r"bank|banco|banque|banca|routing|sort\s*code|\bbsb\b|\bifsc\b|transit|institution|swift|\bbic\b|iban|\baba\b|"
    r"cheque|deposit|\bwire\b|payee|beneficiary|payroll|\bblz\b|ag[êe]ncia|sucursal|\bpix\b|transfer|paynow|\bgiro\b|"
    r"银行|銀行|开户|開戶|户名|戶名|支行|分行|转账|轉帳|轉賬|汇款|匯款|收款|은행|支店|振込|普通預金|当座")
# Between the word and its number: a colon, a quote, "number", "No.", "是" — and at most a bank's short name
# ("No. Rek BCA 1234567890"); nothing that makes it a sentence about something else.
_TAIL_RE = re.compile(r"[ \t]*(?:[.:：=#\"'()（）\[\]/-]|(?:(?i:number|no|nr|num|n°)(?![a-z])|号码|號碼|号|號|是|为|為|번호))*"
                      r"[ \t]*(?:[A-Z][A-Za-z]{1,11}[ \t]+)?[ \t:：\"']*")
# The number: six to twenty-four digits, in groups of any size (a space, dash, dot or slash between).
_NUMBER_RE = re.compile(r"\d(?:[ \-./]?\d){5,29}(?![0-9A-Za-z]|[.,]\d)")
_DATE_RE = re.compile(r"\d{4}[-./ ]\d{1,2}[-./ ]\d{1,2}|\d{1,2}[-./ ]\d{1,2}[-./ ]\d{2,4}(?!\d)")
_AMOUNT_AFTER_RE = re.compile(r"\s*(?:元|円|원|块|万|亿|€|\$|£|¥|eur|usd|rmb|cny|gbp|jpy|krw|vnd|đ|dong|yuan)", re.I)
_PHONE_BEFORE_RE = re.compile(r"(?i)tel|phone|hotline|fax|call|客服|热线|熱線|电话|電話|전화|ligne|teléfono|telefone")
_NUMBER_HINT_RE = re.compile(r"\d(?:[ .\-/]?\d){5}")


def _account_number(text: str, pos: int, end: int) -> re.Match[str] | None:
    """The account number starting at ``pos`` (before ``end``), unless it is a date, an amount or a hotline."""
    m = _NUMBER_RE.match(text, pos, end)
    if m is None:
        return None
    raw = m.group(0)
    digits = digits_of(raw)
    if _DATE_RE.fullmatch(raw) or _DATE_RE.match(raw) and len(digits) <= 12:
        return None  # "2024-03-15 12": a date (and its hour)
    if len(digits) == 8 and real_date(int(digits[:4]), int(digits[4:6]), int(digits[6:8])):
        return None
    if _AMOUNT_AFTER_RE.match(text, m.end()) or len(set(digits)) < 2:
        return None
    return m


def _line_end(text: str, pos: int, reach: int = 200) -> int:
    """The end of the line at ``pos``, or ``reach`` characters on (a number stands close to its word)."""
    end = text.find("\n", pos, pos + reach)
    return min(len(text), pos + reach) if end < 0 else end


def _bank_nearby(low: str, pos: int) -> bool:
    """A bank named within three lines either side (the form, the mail, the chat message)."""
    start = pos
    for _ in range(3):
        start = low.rfind("\n", 0, max(0, start - 1)) + 1 if start > 0 else 0
    end = pos
    for _ in range(4):
        nxt = low.find("\n", end + 1)
        end = len(low) if nxt < 0 else nxt
    return _BANK_CONTEXT_RE.search(low, max(start, pos - 300), min(end, pos + 300)) is not None


def _csv_accounts(text: str, low: str, word: re.Match[str]) -> Iterator[Finding]:
    """The cells under an account column of a CSV or TSV header (name,bank,account_number)."""
    line_start = low.rfind("\n", 0, word.start()) + 1
    line_end = _line_end(low, line_start, 2000)
    header = low[line_start:line_end]
    sep = "\t" if "\t" in header else "," if "," in header else None
    if sep is None:
        return
    cells = header.split(sep)
    column = next((i for i, c in enumerate(cells) if _WORD_RE.fullmatch(c.strip().strip("\"'"))), None)
    if column is None:
        return
    pos = line_end + 1
    for _ in range(20):
        if pos >= len(text):
            return
        end = _line_end(text, pos, 2000)
        row = text[pos:end].split(sep)
        if len(row) == len(cells):
            cell_start = pos + sum(len(c) + 1 for c in row[:column])
            lead = len(row[column]) - len(row[column].lstrip(" \"'"))
            m = _account_number(text, cell_start + lead, cell_start + len(row[column]))
            if m is not None:
                yield Finding(BANK_CARD, m.start(), m.end())
        pos = end + 1


def _worded(text: str, low: str) -> Iterator[Finding]:
    headers: set[int] = set()  # (each CSV header is read once, however many account words it holds)
    for word in _WORD_RE.finditer(low):
        s, e = word.start(), word.end()
        if (s and low[s - 1].isascii() and low[s - 1].isalpha()) or (e < len(low) and low[e].isascii()
                                                                       and low[e].isalpha()):
            continue  # inside a word ("discount", "accent", "contact")
        if word.group("weak") is not None and not _bank_nearby(low, s):
            continue
        line_end = _line_end(text, e)
        tail = _TAIL_RE.match(text, e, line_end)
        m = _account_number(text, tail.end() if tail else e, line_end)
        if m is not None:
            yield Finding(BANK_CARD, m.start(), m.end())
            continue
        line_start = low.rfind("\n", max(0, s - 2000), s) + 1
        if line_start not in headers and (line_start or s < 2000):  # (a header is shorter than 2,000)
            headers.add(line_start)
            yield from _csv_accounts(text, low, word)


# A bank's own name right before a number: 하나은행 336-478582-65095, 招商银行 6225 8812 …, Vietcombank 9598…
_BANK_NAME_RE = re.compile(r"(?:[\u4e00-\u9fff]{1,10}(?:银行|銀行)|[가-힣]{1,10}은행|[A-Z][A-Za-z]{1,20}bank|"
                           r"[A-Z][A-Za-z]{1,20}[ \t]Bank(?![ \t]+of)|Bank[ \t]+of[ \t]+[A-Z][a-z]+(?:[ \t][A-Z][a-z]+)?)"
                           r"[ \t]*(?:[（(][^)）\n]{0,16}[)）])?[ \t:：,，-]*")


def _after_bank_names(text: str) -> Iterator[Finding]:
    for name in _BANK_NAME_RE.finditer(text):
        m = _account_number(text, name.end(), _line_end(text, name.end()))
        if m is None or len(digits_of(m.group(0))) < 8:
            continue
        digits = digits_of(m.group(0))
        if _PHONE_BEFORE_RE.search(text[max(0, name.start() - 16):name.end()]) or digits[:3] in ("400", "800"):
            continue  # a hotline (客服 95588, 400-820-5555)
        yield Finding(BANK_CARD, m.start(), m.end())


# France's RIB: bank (5), branch (5), account (11, letters allowed) and a key that checks them.
_RIB_RE = re.compile(r"(?<![0-9A-Za-z])(\d{5})[ \t]?(\d{5})[ \t]?([0-9A-Z]{11})[ \t]?(\d{2})(?![0-9A-Za-z])")
_RIB_LETTERS = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "12345678912345678923456789")


def rib_ok(bank: str, branch: str, account: str, key: str) -> bool:
    number = int(account.translate(_RIB_LETTERS))
    return 97 - (89 * int(bank) + 15 * int(branch) + 3 * number) % 97 == int(key)


# Brazil's Pix: a random key is a UUID, given under its word.
_PIX_RE = re.compile(r"(?i)(?:pix|chave)[^\n]{0,40}?(?P<v>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})")


def bank_accounts(text: str) -> Iterator[Finding]:
    low = text.lower()
    if len(low) != len(text):  # (a letter whose lower case is longer: read the text as it is)
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    if "pix" in low or "chave" in low:
        yield from (Finding(BANK_CARD, m.start("v"), m.end("v")) for m in _PIX_RE.finditer(text))
    if _NUMBER_HINT_RE.search(text) is None:
        return  # every account number holds six digits
    yield from _worded(text, low)
    if "银行" in text or "銀行" in text or "은행" in text or "ank" in text:
        yield from _after_bank_names(text)
    for m in _RIB_RE.finditer(text):
        if rib_ok(*m.groups()):
            yield Finding(BANK_CARD, m.start(), m.end())
