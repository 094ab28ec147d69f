"""E-mail addresses, also written to dodge spam filters (``name#qq.com``, ``name [at] pku.edu.cn``).

Full-width ``＠`` and letters arrive as ASCII (the text is NFKC-normalised
first). An address at a domain reserved for examples (RFC 2606 and 6761: example.com, .net and .org and
their subdomains, ``.example``, ``.test``, ``.invalid``, ``.localhost``) reaches no one and passes,
whatever its name: no mail is ever delivered there.
"""

from __future__ import annotations

import re

from desktop_kb.qa.detectors.base import EMAIL, Finding, looks_random

_LOCAL = r"[A-Za-z0-9._%+-]*[A-Za-z0-9_+-]"
_DOMAIN = r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,24}"
_EMAIL_RE = re.compile(
    rf"(?<![A-Za-z0-9._%+-])(?P<local>{_LOCAL})(?P<sp1>[ \t]?)(?:@|%40)(?P<sp2>[ \t]?)(?P<domain>{_DOMAIN})(?![A-Za-z0-9-])")
# "hr_kb @ 163.com" is an address; "A @ np.ones" is Python's matrix product: with a space at the
# "@", the domain must end in a real top-level domain.
_SPACED_TLDS = frozenset("""
com net org edu gov mil int info biz io ai co me cc tv app dev xyz top site online tech cloud mobi name pro
""".split()) | {"cn", "hk", "tw", "mo", "jp", "kr", "sg", "uk", "de", "fr", "us", "ca", "au", "ru", "in"}  # noqa: SIM905
# 。 typed for the dots by a Chinese input method ("li.lei@ruc。edu。cn"; ＠ and ． arrive as @ and .).
_IDEOGRAPHIC_DOT_RE = re.compile(
    rf"(?<![A-Za-z0-9._%+-])(?P<local>{_LOCAL})\s?@\s?(?P<domain>[A-Za-z0-9-]+(?:[.。][A-Za-z0-9-]+)*。[A-Za-z]{{2,24}})"
    r"(?![A-Za-z0-9-])")
_OBFUSCATED_RE = re.compile(
    rf"(?<![A-Za-z0-9._%+-])(?P<local>{_LOCAL})\s*(?:[(\[{{<]\s*(?:at|AT|@)\s*[)\]}}>]|艾特|圈[aA]|小老鼠|\s(?:AT|at)\s)\s*"
    r"(?P<domain>[A-Za-z0-9-]+(?:\s*(?:[(\[{<]\s*(?:dot|DOT|\.)\s*[)\]}>]|\s(?:dot|DOT)\s|\.|点|點)\s*[A-Za-z0-9-]+)+)")
# An address broken at the end of a line by a PDF copy or a form's wrapping: "zhang.xiaoyu4754\n@outlook.com",
# "li.lei@\npku.edu.cn" (the line break sits right at the "@").
_BROKEN_RE = re.compile(rf"(?<![A-Za-z0-9._%+-])(?P<local>{_LOCAL})(?:[ \t]*\n[ \t]*@|@[ \t]*\n[ \t]*)(?P<domain>{_DOMAIN})"
                        r"(?![A-Za-z0-9-])")
# ``#`` for ``@`` is common in Chinese notes, but only worth trusting before a mail host.
_MAIL_HOSTS = (r"qq\.com|163\.com|126\.com|yeah\.net|sina\.com|sina\.cn|sohu\.com|foxmail\.com|aliyun\.com|"
               r"139\.com|189\.cn|gmail\.com|outlook\.com|hotmail\.com|live\.com|icloud\.com|me\.com|"
               r"yahoo\.com|proton\.me|protonmail\.com|[A-Za-z0-9.-]+\.edu(?:\.[a-z]{2})?")
_HASH_RE = re.compile(rf"(?<![A-Za-z0-9._%+-])(?P<local>{_LOCAL})\s?#\s?(?P<domain>{_MAIL_HOSTS})(?![A-Za-z0-9-])",
                      re.I)
_RESERVED_DOMAIN_RE = re.compile(r"(?:^|\.)(?:example\.(?:com|net|org)|example|test|invalid|localhost)$", re.I)
# ``git@github.com:owner/repo.git``, ``ssh://git@host:2222/…``: a login on a host (scp syntax, or a
# URL's user with a port after the host), not a mailbox; but smtps://name%40163.com:pw@host is an address.
_SCP_AFTER_RE = re.compile(r":[\w~./-]")
_USERINFO_AFTER_RE = re.compile(r":[^\s/@]{1,200}@")  # (the address is a URL's user, a password after it)


def _placeholder(_local: str, domain: str) -> bool:
    return bool(_RESERVED_DOMAIN_RE.search(domain))


# An organisation's mailbox, not a person's: RFC 2142's names for services, roles and functions, and
# the ones sites publish the same way (privacy@, press@, 客服 kefu@).
_ROLE_LOCAL = frozenset("""
info marketing sales support abuse noc security postmaster hostmaster usenet news webmaster www uucp ftp
contact help press media legal privacy dpo billing jobs careers feedback service kefu enquiries inquiries
bugs announce releases release packages maintainers noreply no-reply donotreply do-not-reply
security-alert psirt cert
""".split())  # noqa: SIM905 - a word list reads best as words
# A project's release or archive signing key looked up by its address (gpg --locate-keys …): the
# address is the published key's, printed on the project's download page.
_KEY_LOOKUP_RE = re.compile(r"--(?:locate-keys|locate-external-keys|search-keys|recv-keys|auto-key-locate\s+\S+)\s+$")
_SIGNING_WORDS_RE = re.compile(r"(?i)发布签名|發佈簽名|发行签名|發行簽名|归档签名|歸檔簽名|官方签名|官方簽名|"
                               r"release\s+signing|archive\s+(?:signing\s+)?key|distribution\s+signing")


# An ad-block filter list's header ("! Title: …", "! Contact: …" in EasyList, uBlock and AdGuard lists):
# the list is published, and the address in its header is there to be written to.
_FILTER_HEADER_RE = re.compile(r"(?m)^(?:\[(?:Adblock|uBlock|AdGuard)[^\]\n]*\]|![ \t]*(?:Title|Homepage|Expires|Version)[ \t]*:)")


def _filter_list_header(text: str, m: re.Match[str]) -> bool:
    line_start = text.rfind("\n", 0, m.start()) + 1
    return text.startswith("!", line_start) and _FILTER_HEADER_RE.search(text, 0, line_start + 1 + 4000) is not None


_COMPONENT_RE = re.compile(r"[a-z]+")
_PERSONAL_HOST_RE = re.compile(_MAIL_HOSTS, re.I)
_ROLE_WORDS = _ROLE_LOCAL | {"team", "group", "desk", "office", "lab", "list", "admin", "staff", "dept"}


def _role(local: str, domain: str) -> bool:
    """A role's mailbox: a role word is the local part, a part of it (git-security@, security-team@) or the
    host the mailbox is on (team@security.debian.org); a no-reply host (users.noreply.github.com) takes no mail."""
    low = local.lower()
    host = domain.lower().split(".")
    parts = _COMPONENT_RE.findall(low)
    # (wang-service@163.com is a person's at a mail host; security-team@cs.kit.edu is a role's: every part a role word)
    personal_host = _PERSONAL_HOST_RE.fullmatch(domain) is not None and not all(p in _ROLE_WORDS for p in parts)
    return low in _ROLE_LOCAL or not personal_host and any(w in _ROLE_LOCAL for w in parts if len(w) >= 4) \
        or (len(host) >= 3 and host[0] in _ROLE_LOCAL) or any(h in ("noreply", "no-reply") for h in host)


def _public_mailbox(text: str, m: re.Match[str]) -> bool:
    if _role(m.group("local"), m.group("domain")) or "!" in text and _filter_list_header(text, m):
        return True
    if m.start() >= 3 and text.startswith("://", m.start() - 3) and "%40" not in m.group(0) \
            and len(m.group("local")) <= 24 and not looks_random(m.group("local"), min_len=12):
        return True  # https://lihua@github.com: a URL's user name on a host, not a mailbox (a DSN's key is withheld)
    line_start = text.rfind("\n", 0, m.start()) + 1
    if _KEY_LOOKUP_RE.search(text, max(line_start, m.start() - 120), m.start()) is None:
        return False
    before = text.rfind("\n", 0, max(0, line_start - 1)) + 1  # this line and the one above it
    return _SIGNING_WORDS_RE.search(text, before, m.end()) is not None


_MASKS = "*•●"


def emails(text: str) -> list[Finding]:
    if "@" not in text and "#" not in text and "%40" not in text and not re.search(r"at|AT|艾特|圈[aA]|小老鼠", text):
        return []
    found = [Finding(EMAIL, m.start(), m.end()) for m in _EMAIL_RE.finditer(text)
             if not _placeholder(m.group("local"), m.group("domain")) and not _public_mailbox(text, m)
             and not (m.start() and text[m.start() - 1] in _MASKS)  # z***g@163.com: masked by its owner
             and not (_SCP_AFTER_RE.match(text, m.end()) and not _USERINFO_AFTER_RE.match(text, m.end()))
             and not ((m.group("sp1") or m.group("sp2"))
                      and m.group("domain").rsplit(".", 1)[-1].lower() not in _SPACED_TLDS)]
    found += [Finding(EMAIL, m.start(), m.end()) for m in _IDEOGRAPHIC_DOT_RE.finditer(text)]
    if "\n@" in text or "@\n" in text or re.search(r"@[ \t]*\n|\n[ \t]*@", text):
        found += [Finding(EMAIL, m.start(), m.end()) for m in _BROKEN_RE.finditer(text)
                  if not _placeholder(m.group("local"), m.group("domain"))]
    for rx in (_OBFUSCATED_RE, _HASH_RE):
        for m in rx.finditer(text):
            raw = m.group("domain")
            if rx is _OBFUSCATED_RE and not re.search(r"[(\[{<]|艾特|圈[aA]|小老鼠|点|點", m.group(0)) and "dot" not in raw.lower():
                continue  # "look at example.com" is prose; "name at pku dot edu" is an address
            domain = re.sub(r"\s|[(\[{<>}\])]|dot|DOT|点|點", ".", raw)
            if "." in domain.strip(".") and not _placeholder(m.group("local"), domain):
                found.append(Finding(EMAIL, m.start(), m.end()))
    return found
