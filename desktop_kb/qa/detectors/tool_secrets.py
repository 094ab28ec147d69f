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
    RECOVERY_CODE,
    Finding,
    char_classes,
    identifier_like,
    looks_random,
    wordlike,
)
from desktop_kb.qa.detectors.labelled import PW, fits
from desktop_kb.qa.detectors.secret_names import PASSWORD_NAME, SECRET_NAME, name_class
from desktop_kb.qa.detectors.secret_values import (
    CODE_RE,
    TEMPLATE_RE,
    is_path_or_url,
    is_placeholder,
)
from desktop_kb.qa.detectors.secret_values import encoded_text as encoded_text_of
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
    (r"mosquitto_sub|mosquitto_pub|mosquitto_rr", r"-P[ \t]+", PASSWORD),
    (r"msoffcrypto-tool|msoffcrypto", r"(?:-p|--password)[ \t]+", PASSWORD),
    (r"ipmitool", r"-P[ \t]+", PASSWORD),
    (r"rdesktop", r"-p[ \t]+", PASSWORD),
    # SNMP v1/v2c's community string is its password ("public", the default, is not a secret)
    (r"snmpwalk|snmpget|snmpset|snmpbulkwalk|snmpbulkget|snmpgetnext|snmptable|snmptrap|onesixtyone", r"-c[ \t]+",
     PASSWORD),
    # a key's passphrase (new and old), a PDF's password (MuPDF, qpdf, pdftk, Poppler), sshpass, GnuPG, FreeRDP
    (r"ssh-keygen", r"-[NP][ \t]+", PASSWORD),
    (r"mutool", r"-p[ \t]+", PASSWORD),
    (r"qpdf", r"--password=", PASSWORD),
    (r"pdftk", r"(?:input|user|owner)_pw[ \t]+", PASSWORD),
    (r"pdftotext|pdftoppm|pdftocairo|pdfinfo|pdfimages|pdftohtml|pdfseparate|pdfdetach|pdffonts|pdfattach",
     r"-[ou]pw[ \t]+", PASSWORD),
    (r"sshpass", r"-p[ \t]*", PASSWORD),
    (r"gpg|gpg2", r"--passphrase[ \t=]+", PASSWORD),
    (r"xfreerdp|wlfreerdp|sdl-freerdp|xfreerdp3", r"/p:", PASSWORD),
    # Windows administration: a scheduled task's run-as and remote passwords, PsExec's, cmdkey's, wmic's
    (r"schtasks", r"/(?i:rp|p)[ \t]+", PASSWORD),
    (r"psexec|psexec64|paexec", r"-p[ \t]+", PASSWORD),
    (r"cmdkey", r"/(?i:pass):", PASSWORD),
    (r"wmic", r"/(?i:password):", PASSWORD),
    # an extension marketplace's personal access token (Open VSX, the VS Code Marketplace)
    (r"ovsx|vsce", r"(?:-p|--pat)[ \t]+", API_KEY),
)
# (tool names first, so the engine skips ahead on their first letters; what stands before one is checked
# in code: a space, a quote, "$(", or a path's "/" — not a letter: "unzip" is not "zip", "notes.zip" no tool)
_TOOL_NAMES_RE = re.compile(r"(?P<tool>" + "|".join(t for t, _f, _k in _TOOLS) + r")(?:\.exe)?(?![\w.-])")
# Windows writes a program's name in any case ("Rar.exe", "UnRAR.exe"): read so only where ".exe" is.
_EXE_NAMES_RE = re.compile(r"(?i)(?P<tool>" + "|".join(t for t, _f, _k in _TOOLS) + r")\.exe(?![\w.-])")
_FLAGS = {tool: (re.compile(r"(?<![\w-])" + flag + _VALUE), kind) for tool, flag, kind in _TOOLS}
_TOOL_OF = [(re.compile(rf"(?:{tool})"), tool) for tool, _f, _k in _TOOLS]
# One-off shapes: openssl passwd's plain argument, b2's key after its id, ZooKeeper's digest, PowerShell.
_SHAPES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bopenssl[ \t]+passwd(?:[ \t]+-(?:salt[ \t]+\S+|\S+))*[ \t]+" + _VALUE), PASSWORD),
    (re.compile(r"\bb2(?:\.exe)?[ \t]+(?:account[ \t]+authorize|authorize[-_]account)[ \t]+\S+[ \t]+" + _VALUE), API_KEY),
    (re.compile(r"\baddauth[ \t]+digest[ \t]+[^\s:]+:" + _VALUE), PASSWORD),
    # a saved Wi-Fi profile's key as `netsh wlan show profile key=clear` prints it, in the system's language
    (re.compile(r"(?im)^[ \t]*(?:Key[ \t]+Content|关键内容|關鍵內容|Schlüsselinhalt|Contenu[ \t]+de[ \t]+la[ \t]+clé|"
                r"Contenido[ \t]+de[ \t]+la[ \t]+clave|Conteúdo[ \t]+da[ \t]+chave|Contenuto[ \t]+chiave|"
                r"Содержимое[ \t]+ключа|キー[ \t]?コンテンツ)[ \t]*:[ \t]*" + _VALUE), PASSWORD),
    # OpenVPN's inline credentials: the user on the first line, the password on the second
    (re.compile(r"<auth-user-pass>[ \t]*\n[ \t]*[^\n<]+\n[ \t]*" + _VALUE), PASSWORD),
    (re.compile(r"(?i)\bConvertTo-SecureString[ \t]+(?:-String[ \t]+)?" + _VALUE + r"[ \t]+-AsPlainText"), PASSWORD),
    # the password after the user, by position: mosquitto_passwd -b FILE USER PASS, rabbitmqctl add_user USER PASS
    (re.compile(r"\bmosquitto_passwd(?:[ \t]+-[Cc](?:[ \t]+\d+)?|[ \t]+-[a-zA-Z])*[ \t]+-b(?:[ \t]+-[a-zA-Z])*[ \t]+\S+[ \t]+\S+[ \t]+"
                + _VALUE), PASSWORD),
    (re.compile(r"\brabbitmqctl(?:[ \t]+-\S+(?:[ \t]+[^\s-]\S*)?)*[ \t]+(?:add_user|change_password)[ \t]+\S+[ \t]+" + _VALUE),
     PASSWORD),
    # oathtool's key (hex by default, Base32 with -b) after its options
    (re.compile(r"\boathtool(?:[ \t]+-{1,2}[\w-]+(?:=\S+)?)*[ \t]+" + _VALUE), RECOVERY_CODE),
    # a service's CLI saving its API key or token, given after the subcommand (shodan init KEY, ngrok
    # authtoken KEY, wandb login KEY, snyk auth KEY, doctl auth init -t KEY, cloudflared service install …)
    (re.compile(r"\b(?:shodan[ \t]+init|ngrok(?:[ \t]+config[ \t]+add-authtoken|[ \t]+authtoken)|wandb[ \t]+login(?:[ \t]+--relogin)?|"
                r"snyk[ \t]+auth|doctl[ \t]+auth[ \t]+init[ \t]+(?:-t|--access-token)|cloudflared[ \t]+service[ \t]+install|"
                r"censys[ \t]+config|vt[ \t]+init[ \t]+--apikey|hf[ \t]+auth[ \t]+login[ \t]+--token|"
                r"huggingface-cli[ \t]+login[ \t]+--token|glab[ \t]+auth[ \t]+login[ \t]+--token|codecov[ \t]+(?:-t|--token)|"
                r"netlify[ \t]+(?:deploy|link)[^\n|;&]{0,80}?--auth)[ \t]+" + _VALUE), API_KEY),
    # SQLCipher's key: PRAGMA key = '…', ATTACH DATABASE 'x.db' AS x KEY '…'
    (re.compile(r"(?i)\bPRAGMA[ \t]+(?:\w+\.)?(?:re|hex|hexre)?key[ \t]*=[ \t]*" + _VALUE), PASSWORD),
    (re.compile(r"(?i)\bATTACH(?:[ \t]+DATABASE)?[ \t]+\S+[ \t]+AS[ \t]+\w+[ \t]+KEY[ \t]+" + _VALUE), PASSWORD),
    # Oracle's tools take "user/password[@database]" (sqlplus, SQL*Loader's userid=, Data Pump; exp and imp,
    # short words, only before an "@")
    (re.compile(r"(?i)\b(?:(?:sqlplus|sqlldr|sqlcl|expdp|impdp|rman|dgmgrl)(?:\.exe)?[ \t]+(?:-\w+[ \t]+)*"
                r"(?:[^\n|;&]{0,80}?\buserid=)?[\"']?[A-Za-z_][\w$#]{0,30}/(?P<raw>[^\s@/\"']{1,200})(?=[@\"'\s]|$)|"
                r"(?:exp|imp)(?:\.exe)?[ \t]+(?:userid=)?[A-Za-z_][\w$#]{0,30}/(?P<sq>[^\s@/\"']{1,200})@)"), PASSWORD),
    # a YubiKey's OATH seed, last on its line (ykman oath accounts add [options] NAME SECRET)
    (re.compile(r"(?im)\bykman(?:\.exe)?[ \t]+oath[ \t]+(?:accounts[ \t]+)?add\b[^\n]*?[ \t]"
                r"(?P<raw>[A-Za-z2-7]{16,}=*|[0-9a-fA-F]{32,})[ \t]*$"), RECOVERY_CODE),
    # chpasswd reads "user:password" lines: the part after the colon
    (re.compile(r"\b(?:echo|printf)[ \t]+(?:-e[ \t]+)?[\"']?[^\s:\"']{1,40}:(?P<raw>[^\s\"'|]{1,200})[\"']?[ \t]*\|[ \t]*"
                r"(?:sudo[ \t]+)?chpasswd\b"), PASSWORD),
)
_SHAPE_WORDS: tuple[str | tuple[str, ...], ...] = ("passwd", "b2", "addauth",
                ("key content", "关键内容", "關鍵內容", "schlüsselinhalt", "contenu de la", "contenido de la",
                 "conteúdo da", "contenuto chiave", "содержимое ключа", "コンテンツ"), "<auth-user-pass>", "convertto-securestring", "mosquitto_passwd", "rabbitmqctl", "oathtool",
                ("shodan", "ngrok", "wandb", "snyk", "doctl", "cloudflared", "censys", "vt ", "hf ", "huggingface-cli",
                 "glab", "codecov", "netlify"), "pragma", "attach", ("sqlplus", "sqlldr", "sqlcl", "expdp", "impdp", "rman",
                 "dgmgrl", "exp", "imp"), "ykman", "chpasswd")  # (one literal test before each, or any of several)
# Tools' documented defaults: public, like AWS's AKIAIOSFODNN7EXAMPLE.
_DEFAULTS = frozenset(["changeit", "changeme", "password", "secret", "admin", "root", "public", "private",
                       "tiger", "manager", "change_on_install"])  # (Oracle's sample schemas)


def _value(m: re.Match[str]) -> tuple[str, int, int]:
    group = next(g for g in ("sq", "dq", "raw") if m.groupdict().get(g) is not None)
    return m.group(group), m.start(group), m.end(group)


def _secret(value: str, kind: str) -> bool:
    if len(value) < 4 or value.startswith("-") or has_han(value) or is_placeholder(value) \
            or TEMPLATE_RE.search(value) or value.lower() in _DEFAULTS or value.startswith(("$", "%")) \
            or re.search(r"\$[{(]|%\w+%|[<>{}]", value):
        return False
    if kind in (API_KEY, RECOVERY_CODE):
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


# A password typed into a program on its standard input: (echo 'pw'; echo 'pw') | smbpasswd -s -a user,
# printf 'pw\npw\n' | passwd user, echo pw | passwd --stdin user.
_STDIN_TOOL_RE = re.compile(r"\|[ \t]*(?:sudo[ \t]+)?(?:smbpasswd|passwd|pdbedit|vncpasswd|kinit|"
                            r"(?:docker|podman|nerdctl|helm)[ \t]+(?:registry[ \t]+)?login)(?![\w-])")
# Or any program told to read its password from standard input: a flag that says so (openconnect's
# --passwd-on-stdin, docker's --password-stdin, GnuPG's --passphrase-fd 0, cryptsetup's --key-file=- or -d -,
# a password file that is /dev/stdin) or sudo -S.
_STDIN_FLAG_RE = re.compile(
    r"\|[^\n|]*?(?:--passwd-on-stdin|--pass(?:word|phrase)?-?stdin|--passphrase-fd[ \t=]+0(?!\d)|--stdin-pass\w*|"
    r"(?:--key-?file|-d|--(?:vault-)?pass(?:word|phrase)?-file)[ \t=]+(?:-|/dev/stdin|/dev/fd/0)(?![\w/-])|"
    r"(?<![\w-])sudo[ \t]+(?:-[A-Za-z]+[ \t]+)*-[A-Za-z]*S)")
_ECHOED_RE = re.compile(r"\b(?:echo|printf)[ \t]+(?:-[en]+[ \t]+)?" + _VALUE)
# Network devices' configuration: Cisco's "enable secret X", "username u privilege 15 password 0 X", Huawei
# and H3C's "local-user admin password simple X" (a type word or digit before the plain password).
_DEVICE_PASSWORD_RE = re.compile(
    r"(?im)(?:^|[\s\]#>])(?:enable[ \t]+(?:password|secret)(?:[ \t]+level[ \t]+\d+)?(?:[ \t]+[07])?|"
    r"(?:password|secret)[ \t]+(?:0|7|simple|cipher|plain|plaintext|irreversible-cipher)|"
    r"plain-text-password[ \t]+)[ \t]+(?P<raw>[^\s\"']{4,200})")


def _echoed(text: str, pipe: int, *, named: bool) -> Iterator[Finding]:
    """What ``echo``/``printf`` writes into the pipe at ``pipe``: a password when the program reads one
    (``named``: a password tool; else only a value that looks like one: "echo Done | … -S" is a message)."""
    line_start = text.rfind("\n", 0, pipe) + 1
    for e in _ECHOED_RE.finditer(text, line_start, pipe):
        value, start, end = _value(e)
        for piece in re.finditer(r"(?:[^\\]|\\(?!n))+", value):  # printf's "pw\npw\n": each line
            word = piece.group(0)
            if _secret(word, PASSWORD) and not word.startswith("-") and (named or fits(PW, word)):
                yield Finding(PASSWORD, start + piece.start(), start + piece.end())


# A URL's query that names a user and then a password by their short names: InfluxDB's ?u=admin&p=…,
# ?user=…&pwd=…, ?login=…&pass=… (a query's "p" alone is a page; after a user it is the user's password).
_QUERY_PASSWORD_RE = re.compile(r"[?&](?:u|usr|user|username|login|uid)=[^&\s#\"']{1,64}&(?:p|pw|pwd|pass|passwd|password)="
                                r"(?P<raw>[^&\s#\"']{4,200})")


def _device_and_stdin(text: str) -> Iterator[Finding]:
    if "=" in text and "&" in text:
        for m in _QUERY_PASSWORD_RE.finditer(text):
            if _secret(m.group("raw"), PASSWORD):
                yield Finding(PASSWORD, m.start("raw"), m.end("raw"))
    if "|" in text:
        for m in _STDIN_TOOL_RE.finditer(text):
            yield from _echoed(text, m.start(), named=True)
        if "stdin" in text or "-S" in text or "-d -" in text or "=-" in text or "fd" in text:
            for m in _STDIN_FLAG_RE.finditer(text):
                yield from _echoed(text, m.start(), named=False)
    low = text.lower()
    if "password" in low or "secret" in low:
        for m in _DEVICE_PASSWORD_RE.finditer(text):
            if _secret(m.group("raw"), PASSWORD):
                yield Finding(PASSWORD, m.start("raw"), m.end("raw"))


def tool_flags(text: str) -> Iterator[Finding]:
    yield from _device_and_stdin(text)
    names = _EXE_NAMES_RE if ".exe" in text or ".EXE" in text else _TOOL_NAMES_RE
    tools = [m for m in (names.finditer(text) if "-" in text or " /" in text else ())  # (Windows: /p:, /rp)
             if not m.start() or not (text[m.start() - 1].isalnum() or text[m.start() - 1] in "_.-")]
    for n, tool in enumerate(tools):
        name = tool.group("tool").lower()
        pattern = next(t for rx, t in _TOOL_OF if rx.fullmatch(name))
        flags, kind = _FLAGS[pattern]
        end = _segment_end(text, tool.end())  # (or the next tool's name: its flags are its own)
        for m in flags.finditer(text, tool.end(), min(end, tools[n + 1].start()) if n + 1 < len(tools) else end):
            value, start, end = _value(m)
            if _secret(value, kind):
                yield Finding(kind, start, end)
    low = text.lower()
    for (rx, kind), word in zip(_SHAPES, _SHAPE_WORDS, strict=True):
        for m in rx.finditer(text) if (word in low if isinstance(word, str) else any(w in low for w in word)) else ():
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
_SETTERS_RE = re.compile(r"(?<![\w])(?P<fn>set_?[A-Za-z_]{2,30})[ \t]*\([^()\n]{1,200}?,[ \t]*(?P<q>[\"'])"
                         r"(?P<v>[^\"'\n]{4,200})(?P=q)[ \t]*\)")
_SETTER_RE = re.compile(r"(?<![\w])(?P<fn>set_?[A-Za-z_]{2,30})[ \t]*\([ \t]*(?P<q>[\"'])(?P<v>[^\"'\n]{4,200})(?P=q)[ \t]*\)")


# A browser driven by a script types into the password field: Selenium's find_element(By.ID, "pwd")
# .send_keys("…"), Playwright's page.fill("#password", "…"), Cypress's cy.get('#pwd').type('…').
_PASSWORD_FIELD = r"[^\"'\n]{0,60}(?i:pass|pwd|mima|密码|密碼|口令)[^\"'\n]{0,60}"
_TYPED_RE = re.compile(
    rf"(?P<fq>[\"'])(?:{_PASSWORD_FIELD})(?P=fq)[ \t]*\)?[^\n;]{{0,40}}?\.(?:send_keys|sendKeys|fill|type|input|"
    r"set_value|setValue|press_sequentially|pressSequentially)[ \t]*\([ \t]*(?P<q>[\"'])(?P<v>[^\"'\n]{4,200})(?P=q)"
    rf"|\.(?:fill|type|send_keys)[ \t]*\([ \t]*(?P<fq2>[\"'])(?:{_PASSWORD_FIELD})(?P=fq2)[ \t]*,[ \t]*(?P<q2>[\"'])"
    r"(?P<v2>[^\"'\n]{4,200})(?P=q2)")


# An SDK's client made with its key as the first argument: vt.NewClient("…"), new Client('…'), OpenAI("…").
_CLIENT_RE = re.compile(r"(?<![\w])(?:[A-Za-z_]\w*\.)?(?:New)?[A-Z]?\w{0,20}(?:Client|Api|API|Sdk|SDK|Translator|Service|"
                        r"Credentials?|Auth|Connector|Session)(?:V\d)?[ \t]*\([ \t]*"
                        r"(?P<q>[\"'])(?P<v>[A-Za-z0-9_\-.+/=:]{12,200})(?P=q)")


def _typed_passwords(text: str) -> Iterator[Finding]:
    if any(w in text for w in ("Client", "Api", "API", "Sdk", "SDK", "Translator", "Service", "Credential", "Auth",
                               "Connector", "Session")):
        for m in _CLIENT_RE.finditer(text):
            if looks_random(m.group("v"), min_len=12) and not is_path_or_url(m.group("v")):
                yield Finding(API_KEY, m.start("v"), m.end("v"))
    for m in _TYPED_RE.finditer(text):
        group = "v" if m.group("v") is not None else "v2"
        if _secret(m.group(group), PASSWORD) and not CODE_RE.search(m.group(group)):
            yield Finding(PASSWORD, m.start(group), m.end(group))


def call_arguments(text: str) -> Iterator[Finding]:
    if "(" not in text:
        return
    yield from _typed_passwords(text)
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
        for m in _SETTERS_RE.finditer(text):  # keyring.set_password(service, user, '…'): the last argument
            cls = name_class(m.group("fn"))
            value = m.group("v")
            if cls == SECRET_NAME and looks_random(value) or cls == PASSWORD_NAME and _secret(value, PASSWORD) \
                    and not CODE_RE.search(value):
                yield Finding(API_KEY if cls == SECRET_NAME else PASSWORD, m.start("v"), m.end("v"))
        for m in _SETTER_RE.finditer(text):
            cls = name_class(m.group("fn"))
            value = m.group("v")
            if cls == SECRET_NAME and looks_random(value) or cls == PASSWORD_NAME and _secret(value, PASSWORD):
                yield Finding(API_KEY if cls == SECRET_NAME else PASSWORD, m.start("v"), m.end("v"))


# ----- a service's CLI told its key: configure, login, auth, account … ---------------------------------
# "twitch configure -i ID -s SECRET", "obsutil config -i=AK -k=SK", "qshell account AK SK NAME",
# "mc alias set lab URL AK SK", "kubectl config set-credentials u --token=…": whatever tool it is, the
# command that sets up its account takes the key, by a flag of any name or by position. A value there
# is withheld when it is random by its characters (hex and UUIDs only under a flag that names a secret,
# or by position after login/auth: they are ids as often), never a path, a URL, a host or a word.
_SETUP_RE = re.compile(
    r"(?<![\w.-])(?P<tool>[a-z][\w.-]{1,30})(?:\.exe)?(?:[ \t]+(?!-)[a-z][\w-]{0,20}){0,2}?[ \t]+"
    r"(?P<sub>config|configure|login|auth|init|account|authorize|set-credentials|credentials|add-authtoken|authtoken|"
    r"register|setup|alias[ \t]+set|host[ \t]+add|token[ \t]+add|"
    # and a secret store told a value: aws ssm put-parameter, az keyvault secret set, gh/fly secret(s) set, vault kv put
    r"put-parameter|secrets?[ \t]+(?:set|create|add|put)|kv[ \t]+put)(?![\w.-])")
_SETUP_WORDS = ("config", "login", "auth", "init", "account", "credentials", "register", "setup", "alias", "host add",
                "token add", "put-parameter", "secret", "kv put")
_ARG_TOKEN_RE = re.compile(r"(?P<flag>--?[A-Za-z][\w.-]{0,40})?(?:=|(?<=[A-Za-z])(?=[\"']))?(?P<q>[\"']?)(?P<v>[^\s\"']*)(?P=q)")
_HEXISH_RE = re.compile(r"[0-9a-fA-F-]+")
_SECRET_FLAGS = frozenset("k s t p a key secret token pat password passwd pass sk apikey api-key auth".split())  # noqa: SIM905
_POSITIONAL_SUBS = ("login", "auth", "authtoken", "add-authtoken", "token add")


def _random_token(value: str, *, named: bool) -> bool:
    core = value.strip("=")
    if len(core) < 16 or is_path_or_url(core) or is_placeholder(core) or TEMPLATE_RE.search(core) \
            or core.startswith(("$", "%", "@")) or encoded_text_of(core) is not None or not looks_random(core):
        return False
    if _HEXISH_RE.fullmatch(core):
        return named  # a hash, a commit or a UUID as often as a key
    return len(core) >= 20 or char_classes(core) >= 3


def setup_commands(text: str) -> Iterator[Finding]:
    low = text.lower()
    if not any(w in low for w in _SETUP_WORDS):
        return
    read_to = 0
    for m in _SETUP_RE.finditer(text):
        if m.start() < read_to:
            continue  # (its words were read with the command before it: each argument is read once)
        sub = re.sub(r"[ \t]+", " ", m.group("sub").lower())
        end = read_to = _segment_end(text, m.end())
        pos = m.end()
        flag = None
        while pos < end:
            while pos < end and text[pos] in " \t":
                pos += 1
            if pos >= end:
                break
            a = _ARG_TOKEN_RE.match(text, pos, end)
            if a is None or a.end() == pos:
                pos += 1
                continue
            pos = a.end()
            value = a.group("v")
            if a.group("flag") and not value:
                flag = a.group("flag").lstrip("-").lower()  # its value is the next word
                continue
            name = (a.group("flag") or "").lstrip("-").lower() or flag
            flag = None
            named = name in _SECRET_FLAGS or name_class(name or "") in (SECRET_NAME, PASSWORD_NAME) \
                or name is None and sub in _POSITIONAL_SUBS
            if value and _random_token(value, named=named):
                yield Finding(API_KEY, a.start("v"), a.end("v"))


# Java, Maven and Gradle properties on a command line: -Dsonar.login=…, -Dgpg.passphrase=…, -PsigningPassword=…
_PROPERTY_RE = re.compile(r"(?<![\w-])-[DP](?P<name>[A-Za-z][\w.-]{0,80})=" + _VALUE)


def property_flags(text: str) -> Iterator[Finding]:
    if "-D" not in text and "-P" not in text:
        return
    for m in _PROPERTY_RE.finditer(text):
        name = m.group("name")
        cls = name_class(name.rsplit(".", 1)[-1]) or name_class(name)
        value, start, end = _value(m)
        if cls == PASSWORD_NAME and _secret(value, PASSWORD):
            yield Finding(PASSWORD, start, end)
        elif (cls is not None or name.lower().endswith(".login")) and _random_token(value, named=True):
            yield Finding(API_KEY, start, end)  # (SonarQube's sonar.login takes a token)
