"""A secret on a command line where its tool reads one, or in the place of a call that takes one.

Most tools take a password under a flag whose name says so (``--password``, read by
:mod:`command_lines`). Many well-known ones do not: ``keytool -storepass``, ``ldapsearch -w``,
``gsql -W``, ``7z -p…``, ``zip -P``, ``rar -hp…``, ``sqlcmd -P``, ``openssl … -k``, ``nuget -k``,
``smbclient -U user%…``, ``b2 account authorize ID KEY``, ZooKeeper's ``addauth digest user:…``.
A flag is read only on the line of its own tool, before a pipe or the next command, so ``-p``
stays a port, a path or a profile everywhere else.

A call passes the secret by position when its signature says where (``NetworkCredential(user,
pw)``, ``new Sequelize(db, user, pw)``, ``pymssql.connect(host, user, pw, db)``, MQTT's
``username_pw_set(user, pw)``) or when the call's own name is a credential setter
(``ts.set_token('…')``, ``setApiKey("…")``).

What passes (a careful person sends it): a flag without a value or followed by another flag, a
variable or template (``$ZIP_PASS``, ``<password>``, ``%PW%``), a value in Chinese (a usage note),
a tool's documented default (``changeit``, the JDK keystore's), names rather than quoted strings in
a call (``NetworkCredential(user, password)``), and for a key a value that does not look random.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_kb.qa.detectors.base import (
    API_KEY,
    PASSWORD,
    Finding,
    identifier_like,
    looks_random,
    wordlike,
)
from desktop_kb.qa.detectors.secret_names import PASSWORD_NAME, SECRET_NAME, name_class
from desktop_kb.qa.detectors.secret_values import (
    CODE_RE,
    TEMPLATE_RE,
    is_path_or_url,
    is_placeholder,
)
from desktop_kb.text.han import has_han

_VALUE = r"(?:'(?P<sq>[^'\n]{1,200})'|\"(?P<dq>[^\"\n]{1,200})\"|(?P<raw>[^\s\"'|;&)]{1,200}))"
# tool names (as a command word) -> the flags that carry a secret on its line; "=" marks a flag whose
# value is attached (7z -pSECRET), else it follows after spaces (or is attached, for -p of the mysql family).
_TOOLS: tuple[tuple[str, str, str], ...] = (
    (r"keytool|jarsigner", r"-(?:src|dest)?(?:store|key)pass[ \t]+", PASSWORD),
    (r"ldap(?:search|modify|add|delete|whoami|passwd|compare|modrdn|exop|url)", r"-w[ \t]+", PASSWORD),
    (r"gsql|vsql|zsql|ksql", r"-[Ww][ \t]+", PASSWORD),
    (r"7z|7za|7zr|7zz", r"-p(?=[^\s-])", PASSWORD),
    (r"zip|unzip|zipcloak|funzip", r"-P[ \t]+", PASSWORD),
    (r"rar|unrar|winrar", r"-h?p(?=[^\s-])", PASSWORD),
    (r"sqlcmd|bcp|osql|isql", r"-P[ \t]*", PASSWORD),
    (r"mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport|mongostat|mongotop", r"-p[ \t]+", PASSWORD),
    (r"obclient|mysqlsh|mysqlpump|mysqlcheck|mysqlshow|mysqlbinlog|mycli|tiup|mydumper|myloader",
     r"-p(?=[^\s-])", PASSWORD),
    (r"openssl", r"-(?:k|kfile|pass|passin|passout)[ \t]+(?:pass:)?", PASSWORD),
    (r"nuget|dotnet", r"(?i:-k|-apikey|--api-key)[ \t]+", API_KEY),
    (r"smbclient|rpcclient|smbmap|smbget|smbcacls|net", r"-U[ \t]*[^\s%/]+%", PASSWORD),
)
# (tool names first, so the engine skips ahead on their first letters; what stands before one is checked
# in code: a space, a quote, "$(", or a path's "/" — not a letter: "unzip" is not "zip", "notes.zip" no tool)
_TOOL_NAMES_RE = re.compile(r"(?P<tool>" + "|".join(t for t, _f, _k in _TOOLS) + r")(?:\.exe)?(?![\w.-])")
_FLAGS = {tool: (re.compile(r"(?<![\w-])" + flag + _VALUE), kind) for tool, flag, kind in _TOOLS}
_TOOL_OF = [(re.compile(rf"(?:{tool})"), tool) for tool, _f, _k in _TOOLS]
# One-off shapes: openssl passwd's plain argument, b2's key after its id, ZooKeeper's digest, PowerShell.
_SHAPES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bopenssl[ \t]+passwd(?:[ \t]+-(?:salt[ \t]+\S+|\S+))*[ \t]+" + _VALUE), PASSWORD),
    (re.compile(r"\bb2(?:\.exe)?[ \t]+(?:account[ \t]+authorize|authorize[-_]account)[ \t]+\S+[ \t]+" + _VALUE), API_KEY),
    (re.compile(r"\baddauth[ \t]+digest[ \t]+[^\s:]+:" + _VALUE), PASSWORD),
    (re.compile(r"(?i)\bConvertTo-SecureString[ \t]+(?:-String[ \t]+)?" + _VALUE + r"[ \t]+-AsPlainText"), PASSWORD),
    # chpasswd reads "user:password" lines: the part after the colon
    (re.compile(r"\b(?:echo|printf)[ \t]+(?:-e[ \t]+)?[\"']?[^\s:\"']{1,40}:(?P<raw>[^\s\"'|]{1,200})[\"']?[ \t]*\|[ \t]*"
                r"(?:sudo[ \t]+)?chpasswd\b"), PASSWORD),
)
_SHAPE_WORDS = ("passwd", "b2", "addauth", "convertto-securestring", "chpasswd")  # (one literal test before each)
# Tools' documented defaults: public, like AWS's AKIAIOSFODNN7EXAMPLE.
_DEFAULTS = frozenset(["changeit", "changeme", "password", "secret", "admin", "root"])


def _value(m: re.Match[str]) -> tuple[str, int, int]:
    group = next(g for g in ("sq", "dq", "raw") if m.groupdict().get(g) is not None)
    return m.group(group), m.start(group), m.end(group)


def _secret(value: str, kind: str) -> bool:
    if len(value) < 4 or value.startswith("-") or has_han(value) or is_placeholder(value) \
            or TEMPLATE_RE.search(value) or value.lower() in _DEFAULTS or value.startswith(("$", "%")) \
            or re.search(r"\$[{(]|%\w+%|[<>{}]", value):
        return False
    if kind == API_KEY:
        return looks_random(value)
    return not value.isdigit() or len(value) >= 6  # (a port or a count is digits only and short)


_COMMAND_END_RE = re.compile(r"\n|\|\||&&|(?<![\\'\"])[|;](?=\s)")
_COMMAND_CHARS = 400  # (a command is read this far at most: a long line of tool words stays linear)


def _segment_end(text: str, start: int) -> int:
    """The end of a command: its line, a pipe, ``&&``, ``;`` outside quotes."""
    limit = min(len(text), start + _COMMAND_CHARS)
    m = _COMMAND_END_RE.search(text, start, limit)
    return limit if m is None else m.start()


def _plain_password(value: str) -> bool:
    """ConvertTo-SecureString turns any string into a secure one: a hash, an ID, a name, a file or code
    passed to it (as a grid of study text does) is not taken for a password, a person's one is."""
    return not (re.fullmatch(r"[0-9a-fA-F-]{16,}|[\d-]+", value) or is_path_or_url(value) or CODE_RE.search(value)
                or identifier_like(value) or wordlike(value) or value.startswith("data:"))


def tool_flags(text: str) -> Iterator[Finding]:
    tools = [m for m in (_TOOL_NAMES_RE.finditer(text) if "-" in text else ())
             if not m.start() or not (text[m.start() - 1].isalnum() or text[m.start() - 1] in "_.-")]
    for n, tool in enumerate(tools):
        name = tool.group("tool")
        pattern = next(t for rx, t in _TOOL_OF if rx.fullmatch(name))
        flags, kind = _FLAGS[pattern]
        end = _segment_end(text, tool.end())  # (or the next tool's name: its flags are its own)
        for m in flags.finditer(text, tool.end(), min(end, tools[n + 1].start()) if n + 1 < len(tools) else end):
            value, start, end = _value(m)
            if _secret(value, kind):
                yield Finding(kind, start, end)
    low = text.lower()
    for (rx, kind), word in zip(_SHAPES, _SHAPE_WORDS, strict=True):
        for m in rx.finditer(text) if word in low else ():
            value, start, end = _value(m)
            if _secret(value, kind) and (word != "convertto-securestring" or _plain_password(value)):
                yield Finding(kind, start, end)


# ----- calls -----------------------------------------------------------------------------------

# name of the call (lower case) -> the secret argument's position, counted from 0
_POSITIONS = {"networkcredential": 1, "usernamepasswordcredentials": 1, "passwordauthentication": 1,
              "username_pw_set": 1, "sequelize": 2, "jpushclient": 0}
_CALL_RE = re.compile(
    r"(?i)(?:\bnew[ \t]+(?P<cls>NetworkCredential|UsernamePasswordCredentials|PasswordAuthentication|Sequelize|"
    r"JPushClient)|\b(?P<mod>pymssql|_mssql|ibm_db|aiomysql|pymysql|mysql\.connector)\.connect|\.(?P<fn>username_pw_set))"
    r"[ \t]*\((?P<args>[^()\n]{1,400})")
_ARG_RE = re.compile(r"[ \t]*(?:(?P<q>[\"'])(?P<s>(?:\\.|(?!(?P=q))[^\\\n])*)(?P=q)|[^,\"']*)[^,]*(?:,|$)")
# set_token('…'), setApiKey("…"), set_password('…'): the call's name says what its one argument is.
_SETTER_RE = re.compile(r"(?<![\w])(?P<fn>set_?[A-Za-z_]{2,30})[ \t]*\([ \t]*(?P<q>[\"'])(?P<v>[^\"'\n]{4,200})(?P=q)[ \t]*\)")


def call_arguments(text: str) -> Iterator[Finding]:
    if "(" not in text:
        return
    for m in _CALL_RE.finditer(text):
        name = (m.group("cls") or m.group("fn") or "connect").lower()
        index = _POSITIONS.get(name, 2)  # (the connect calls: host, user, password, database)
        args, pos = [], m.start("args")
        while pos < m.end("args") and len(args) <= index:
            a = _ARG_RE.match(text, pos, m.end("args"))
            if a is None or a.end() == pos:
                break
            args.append(a)
            pos = a.end()
        if index < len(args) and (value := args[index].group("s")) is not None:
            kind = API_KEY if name == "jpushclient" else PASSWORD
            if _secret(value, kind) and (kind == API_KEY or not re.fullmatch(r"[\w.:/-]*:memory:", value)):
                yield Finding(kind, args[index].start("s"), args[index].end("s"))
    if "set" in text:
        for m in _SETTER_RE.finditer(text):
            cls = name_class(m.group("fn"))
            value = m.group("v")
            if cls == SECRET_NAME and looks_random(value) or cls == PASSWORD_NAME and _secret(value, PASSWORD):
                yield Finding(API_KEY if cls == SECRET_NAME else PASSWORD, m.start("v"), m.end("v"))
