"""Ways back into an account or a disk: 2FA seeds, backup codes and disk recovery keys.

* A BitLocker recovery key is eight groups of six digits, each a multiple of 11: a
  check that random numbers pass once in 11^8 (a group mistyped above 720,895, the
  largest a real key holds, still counts).
* A TOTP/HOTP seed is base32 (A–Z, 2–7), often shown in groups of four and in
  lower case ("mh54 hrgk tfdp 3xuf"): it is one when a 2FA word is on its line
  or the line before, or when it is passed to ``TOTP(…)``.
* Backup codes come as a list under their name ("recovery codes", 备用码): every
  line of codes right after the name is withheld.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_kb.qa.detectors.base import RECOVERY_CODE, Finding, line_bounds, sequential

_BITLOCKER_HINT_RE = re.compile(r"-\d{6}-\d{6}-")  # a literal first: found fast
_BITLOCKER_RE = re.compile(r"\d{6}(?:-\d{6}){7}(?![\d-])")


def _bitlocker(text: str) -> Iterator[Finding]:
    for m in _BITLOCKER_RE.finditer(text):
        if m.start() and text[m.start() - 1] in "0123456789-":
            continue
        groups = [int(g) for g in m.group(0).split("-")]
        if all(g % 11 == 0 for g in groups):
            yield Finding(RECOVERY_CODE, m.start(), m.end())


_OTP_WORDS_RE = re.compile(
    r"(?i)(?<![A-Za-z])(?:2fa|mfa|otp|totp|hotp|two[- ]factor|two[- ]step|2-step|authenticator|"
    r"google\s+auth)|两步验证|兩步驗證|二步验证|二次验证|二次驗證|双重验证|雙重驗證|双因素|雙因素|动态口令|動態口令|"
    r"验证器|驗證器|身份验证|身份驗證|动态码|動態碼")
# Base32 in one case, perhaps grouped by four; at least 16 characters and one of the digits 2-7.
_BASE32_RE = re.compile(
    r"(?<![A-Za-z0-9])(?:[A-Z2-7]{4}(?:[ -]?[A-Z2-7]{4}){3,15}|[a-z2-7]{4}(?:[ -]?[a-z2-7]{4}){3,15})=*"
    r"(?![A-Za-z0-9])")
_OTP_HINTS = ("2fa", "mfa", "otp", "two-factor", "two factor", "two-step", "two step", "2-step", "authenticator",
              "google auth")
# Literal alternatives: the regex engine jumps between their first characters.
_OTP_HINTS_ZH_RE = re.compile("两步验证|兩步驗證|二步验证|二次验证|二次驗證|双重验证|雙重驗證|双因素|雙因素|动态口令|動態口令|"
                              "验证器|驗證器|身份验证|身份驗證|动态码|動態碼")
_OTP_CALL_RE = re.compile(r"(?i)\b(?:totp|hotp)\s*\(\s*[\"'](?P<v>[A-Za-z2-7 ]{16,}=*)[\"']")


def _base32_seed(value: str) -> bool:
    core = re.sub(r"[ =-]", "", value)
    return len(core) >= 16 and re.search(r"[2-7]", core) is not None and re.search(r"[A-Za-z]", core) is not None


def _otp_seeds(text: str, lower: str) -> Iterator[Finding]:
    if "otp(" in lower or "otp (" in lower:
        for m in _OTP_CALL_RE.finditer(text):
            yield Finding(RECOVERY_CODE, m.start("v"), m.end("v"))
    zh = _OTP_HINTS_ZH_RE.search(text) is not None
    if not zh and not (any(w in lower for w in ("2fa", "mfa", "otp", "two", "auth", "2-step"))
                       and any(w in lower for w in _OTP_HINTS)):
        return
    for m in _BASE32_RE.finditer(text):
        if not _base32_seed(m.group(0)):
            continue
        line_start, _line_end = line_bounds(text, m.start())
        # The word is on the seed's line or on one of the two lines above (a blank line may sit between).
        above = text.rfind("\n", 0, max(0, text.rfind("\n", 0, max(0, line_start - 1)))) + 1
        if _OTP_WORDS_RE.search(text, above if line_start else 0, m.start()):
            yield Finding(RECOVERY_CODE, m.start(), m.end())


_BACKUP_WORDS_RE = re.compile(
    r"(?i)(?:recovery|backup|back-up|scratch|emergency|single-use)\s+(?:verification\s+|security\s+)?codes?|备用码|備用碼|恢复码|恢復碼|"
    r"恢复代码|恢復代碼|救援码|救援碼|应急码|應急碼|备份码|備份碼|紧急码|緊急碼|"
    r"(?:备用|備用|恢复|恢復|备份|備份)(?:验证|驗證|安全)[码碼]")
_BACKUP_HINT_ZH_RE = re.compile("(?:备用|備用|恢复|恢復|救援|应急|應急|备份|備份|紧急|緊急)(?:验证|驗證|代|安全)?[码碼]")
_BACKUP_HINTS = ("recovery", "backup", "back-up", "scratch", "emergency", "single-use")
# One line of codes: 1-4 codes of 4-12 letters and digits (a dash inside), perhaps numbered.
_CODE_LINE_RE = re.compile(
    r"[ \t]*(?:\d{1,2}[.)、][ \t]*|[-*•][ \t]*)?(?P<v>[A-Za-z0-9]{4,12}(?:-[A-Za-z0-9]{4,12})?"
    r"(?:[ \t]+[A-Za-z0-9]{4,12}(?:-[A-Za-z0-9]{4,12})?){0,3})[ \t]*$", re.M)


def _backup_codes(text: str) -> Iterator[Finding]:
    for word in _BACKUP_WORDS_RE.finditer(text):
        pos = line_bounds(text, word.start())[1] + 1
        blank = 0
        before = 0  # lines between the word and its codes ("账号：li***@gmail.com", "Keep these safe")
        started = False
        while pos < len(text):
            end = line_bounds(text, pos)[1]
            if not text[pos:end].strip():
                blank += 1
                if blank > (2 if not started and before else 1):
                    break
                pos = end + 1
                continue
            m = _CODE_LINE_RE.fullmatch(text, pos, end)
            if m is None or not re.search(r"\d", m.group("v")):
                before += 1
                if started or before > 2:
                    break
                pos = end + 1
                continue
            started = True
            yield Finding(RECOVERY_CODE, m.start("v"), m.end("v"))
            pos = end + 1


# A report's online verification code (学信网 在线验证码 ABMXUVHEVL5MHSTD): whoever has it opens the report, with the
# person's ID number and study record in it, for months. (An SMS code is six digits, used once, and passes.)
_ACCESS_CODE_RE = re.compile(r"(?:在线验证码|在線驗證碼|报告验证码|報告驗證碼|(?i:online\s+verification\s+code|report\s+verification\s+code|"
                             r"access\s+code))[ \t]*[:：]?[ \t]*(?P<v>[A-Z0-9]{10,24})(?![A-Za-z0-9])")


def recovery_codes(text: str) -> Iterator[Finding]:
    if "验证码" in text or "驗證碼" in text or "code" in text.lower():
        yield from (Finding(RECOVERY_CODE, m.start("v"), m.end("v")) for m in _ACCESS_CODE_RE.finditer(text)
                    if sum(c.isalpha() for c in m.group("v")) >= 6 and not sequential(m.group("v")))
    if _BITLOCKER_HINT_RE.search(text):
        yield from _bitlocker(text)
    lower = text.lower()
    yield from _otp_seeds(text, lower)
    if " code" in lower and any(w in lower for w in _BACKUP_HINTS) or _BACKUP_HINT_ZH_RE.search(text):
        yield from _backup_codes(text)
