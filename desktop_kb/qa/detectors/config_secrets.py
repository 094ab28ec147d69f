"""Passwords in configuration formats whose name and value are not written ``name = value`` on one line.

* A section that names what its keys hold (TOML's or an INI file's ``[passwords]``, ``[credentials]``): every
  ``key = value`` under it is a password, whatever the key is called (``teacher = "TMGu…"``).
* A PHP (or Perl, Ruby) array element named for a password: ``$_config['db']['1']['dbpw'] = '…'``.
* The Windows registry: ``reg add … /v DefaultPassword /t REG_SZ /d …`` (the value's name and its data apart).
* A kickstart file's ``rootpw [--plaintext] …`` and ``user … --password=…`` (not ``--iscrypted``: a hash).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_kb.qa.detectors.base import Finding
from desktop_kb.qa.detectors.secret_names import PASSWORD_NAME, SECRET_NAME, name_class
from desktop_kb.qa.detectors.secret_values import finding_for, plausible

_SECTION_RE = re.compile(r"(?im)^[ \t]*\[(?:[\w.-]*\.)?(?:passwords?|credentials?|secrets?|logins?|accounts?)\][ \t]*$")
_KEY_LINE_RE = re.compile(r"(?m)^[ \t]*(?P<name>[\w.-]{1,60})[ \t]*[=:][ \t]*(?:\"(?P<dq>[^\"\n]{1,200})\"|'(?P<sq>[^'\n]{1,200})'|"
                          r"(?P<raw>[^\s\"'#;]{1,200}))[ \t]*(?:[#;][^\n]*)?$")
_ELEMENT_RE = re.compile(r"\[[\"'](?P<name>[A-Za-z_][\w-]{0,60})[\"']\][ \t]*=>?[ \t]*(?:\"(?P<dq>[^\"\n]{1,200})\"|"
                         r"'(?P<sq>[^'\n]{1,200})')")
# Names a key's own words do not reach (dbpw, rootpwd, PreSharedKey, WepKey0): a password by its suffix or its
# Wi-Fi meaning.
_PW_NAME_RE = re.compile(r"(?i)(?:pw|pwd|pass|passwd)$|presharedkey|(?<![a-z])psk|wepkey|passphrase")
# An Android or a .NET settings file's named string (``<string name="PreSharedKey">&quot;…&quot;</string>``).
_NAMED_STRING_RE = re.compile(r"<(?:string|add|setting)[ \t]+(?:name|key)=\"(?P<name>[^\"]{1,80})\"(?:[ \t]+value=\"(?P<dq>[^\"\n]{1,200})\"[^>]*/?>|"
                              r">(?:&quot;|\")?(?P<raw>[^<&\"\n]{1,200})(?:&quot;|\")?</string>)")
_REG_RE = re.compile(r"(?i)\breg(?:\.exe)?[ \t]+add[ \t][^\n]*?/v[ \t]+\"?(?P<name>[^\"\s/]{1,80})\"?[^\n]*?/d[ \t]+"
                     r"(?:\"(?P<dq>[^\"\n]{1,200})\"|(?P<raw>[^\s\"]{1,200}))")
_KICKSTART_RE = re.compile(r"(?m)^[ \t]*(?:rootpw(?:[ \t]+--(?:plaintext|lock))*|user[ \t][^\n]*?--password[ \t=])[ \t]*"
                           r"(?P<raw>(?!--)[^\s]{1,200})")


def _value(m: re.Match[str]) -> tuple[str, int, int, bool]:
    group = next(g for g in ("dq", "sq", "raw") if m.groupdict().get(g) is not None)
    return m.group(group), m.start(group), m.end(group), group != "raw"


def config_secrets(text: str) -> Iterator[Finding]:
    if "[" in text and "]" in text:
        for section in _SECTION_RE.finditer(text):
            nxt = re.compile(r"(?m)^[ \t]*\[").search(text, section.end())
            end = nxt.start() if nxt else len(text)
            for m in _KEY_LINE_RE.finditer(text, section.end(), end):
                value, start, stop, quoted = _value(m)
                if plausible(value, PASSWORD_NAME, quoted=quoted):
                    yield Finding("password", start, stop)
        if "=" in text:
            for m in _ELEMENT_RE.finditer(text):
                cls = PASSWORD_NAME if _PW_NAME_RE.search(m.group("name")) else name_class(m.group("name"))
                value, start, stop, quoted = _value(m)
                if cls in (PASSWORD_NAME, SECRET_NAME) and plausible(value, cls, quoted=quoted):
                    yield finding_for(cls, start, stop)
    if "name=" in text or "key=" in text:
        for m in _NAMED_STRING_RE.finditer(text):
            value, start, stop, _quoted = _value(m)
            if _PW_NAME_RE.search(m.group("name")) and plausible(value, PASSWORD_NAME, quoted=True):
                yield Finding("password", start, stop)
    if "/d" in text or "/D" in text:
        for m in _REG_RE.finditer(text):
            cls = name_class(m.group("name"))
            value, start, stop, quoted = _value(m)
            if cls in (PASSWORD_NAME, SECRET_NAME) and plausible(value, cls, quoted=quoted):
                yield finding_for(cls, start, stop)
    if "rootpw" in text or "--password" in text:
        for m in _KICKSTART_RE.finditer(text):
            line_end = text.find("\n", m.end())
            if "--iscrypted" in text[m.start():len(text) if line_end < 0 else line_end]:
                continue
            value, start, stop, quoted = _value(m)
            if plausible(value, PASSWORD_NAME, quoted=quoted):
                yield Finding("password", start, stop)
