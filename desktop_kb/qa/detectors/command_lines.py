"""Credentials in URLs, headers and commands: ``scheme://user:pass@host``, ``Authorization: …``,
``mysql -p…``, ``curl -u``, ``login("u", "p")``, ``.pgpass``, Wi-Fi QR codes, webhook paths."""

from __future__ import annotations

import base64
import binascii
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
)
from desktop_kb.qa.detectors.secret_names import name_class
from desktop_kb.qa.detectors.secret_values import (
    CODE_RE,
    PLACEHOLDER_RE,
    TEMPLATE_RE,
    TRAILING,
    finding_for,
    is_path_or_url,
    is_placeholder,
    plausible,
)

_URL_CRED_RE = re.compile(
    r"(?<![A-Za-z0-9+.-])(?P<scheme>[A-Za-z][A-Za-z0-9+.-]{1,24}):(?://)?(?P<user>[^\s:/@\"'<>]*):"
    r"(?P<pw>[^\s/\"'<>]+)@(?P<host>[A-Za-z0-9_.\-\[\]%]+)")
_BARE_CRED_RE = re.compile(
    r"(?<![A-Za-z0-9_@/:.-])(?!(?:mailto|sip|sips|xmpp|tel|im|news):)(?P<user>[A-Za-z0-9._-]{1,40}):(?P<pw>[^\s@/:\"']{3,80})@"
    r"(?P<host>(?:\d{1,3}\.){3}\d{1,3}|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)(?::\d{2,5})?(?![A-Za-z0-9])")
_AUTH_HEADER_RE = re.compile(
    r"(?i)(?<![A-Za-z])(?:proxy-)?authorization[\"']?\s*[:=]\s*[\"']?"
    r"(?:(?:basic|bearer|token|bot|digest|apikey|api-key|sso-key|ssws|jwt|hmac|negotiate|ntlm|"
    r"aws4-hmac-sha256|key|klaviyo-api-key|zoho-oauthtoken)\s+)?(?P<v>[A-Za-z0-9._~+/=:,-]{6,})")
# Any other scheme word (Unsplash's "Client-ID", a vendor's own): only a random token after it.
_AUTH_SCHEME_RE = re.compile(
    r"(?i)(?<![A-Za-z])(?:proxy-)?authorization[\"']?[ \t]*[:=][ \t]*[\"']?[A-Za-z][\w-]{1,30}[ \t]+"
    r"(?P<v>[A-Za-z0-9._~+/=:-]{16,})")
_BEARER_RE = re.compile(r"(?i)(?<![A-Za-z])bearer\s+(?P<v>[A-Za-z0-9._~+/=-]{8,})")
_BASIC_RE = re.compile(r"(?i)(?<![A-Za-z])basic\s+(?P<v>[A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/=])")
_CURL_USER_RE = re.compile(r"(?:^|\s)(?:-u|--user|--proxy-user)\s*[\"']?[^\s:\"']*:(?P<v>[^\s\"']+)")
_FLAG_RE = re.compile(
    r"(?i)(?:^|\s)--?(?P<name>[a-z0-9]+(?:-[a-z0-9]+)*)(?:=|\s+)[\"']?(?P<v>[^\s\"']{3,300})")
_MYSQL_P_RE = re.compile(
    r"(?i)\b(?:mysql|mysqldump|mysqladmin|mariadb|mysqlimport)\b[^\n]*?\s-p[\"']?(?P<v>[^\s\"'-][^\s\"']*)")
_HTPASSWD_RE = re.compile(r"\bhtpasswd\s+(?:-[a-zA-Z]*b[a-zA-Z]*\s+)(?:-\w+\s+)*\S+\s+\S+\s+[\"']?(?P<v>[^\s\"']+)")
# "login: lilei / Pa$$w0rd", "账号：lilei / lilei@2024", "WiFi：TP-LINK_302 / lab12345678"
_SLASH_PAIR_RE = re.compile(
    r"(?i)(?:login|log\s?in|account|username|账号|帳號|帐号|账户|用户名|wi-?fi|wlan|无线|無線|热点|熱點)"
    r"(?:[ \t\w-]{0,20}?[:：]\s*|\s+(?:(?:with|as|using|用|使用)\s+)?)[\w.@+-]{1,40}[ \t]*/[ \t]*(?P<v>[^\s/，,。]{4,64})")
_MIME_RE = re.compile(r"(?:image|text|application|audio|video|font|multipart)/[\w.+-]+(?:;|$)")
# A wallet's seed phrase: 12–24 lowercase words after the word for it.
_SEED_RE = re.compile(
    r"(?i)(?:助记词|助記詞|mnemonic|seed\s+phrase|recovery\s+phrase|seed\s+words|恢复短语|恢復短語)[^\n:：]{0,12}[:：]?\s*"
    r"(?<![a-z])(?P<v>[a-z]{3,8}(?:\s+[a-z]{3,8}){11,23})\b")  # (from a word's start: not "gal winner …" of "legal")
# "-p" after a login command or a -u/--username flag on the same line is the password
# (docker/podman/oc/helm registry logins); a number there is psql's port.
_LOGIN_P_RE = re.compile(
    r"(?i)(?:\blogin\b|\s(?:-u|--user(?:name)?)[\s=])[^\n]*?\s-p[ \t=]*[\"']?(?P<v>[^\s\"'-][^\s\"']*)")
# "-p @pw.txt" (az, curl and many tools read an argument from the file after "@"), "-u http://sp": a file
# or a URL where a password would go, not one.
_FILE_ARGUMENT_RE = re.compile(r"@[\w~./\\-]*\.\w{1,5}|@[~./\\][\w~./\\-]+|//[\w.-]+(?:[:/][^\s]*)?")


def _file_argument(value: str) -> bool:
    return _FILE_ARGUMENT_RE.fullmatch(value) is not None


_SSHPASS_RE = re.compile(r"\bsshpass\s+-p\s*[\"']?(?P<v>[^\s\"']+)")
# Oracle's user/password@host, on a command line or in a JDBC thin/OCI URL.
_ORACLE_RE = re.compile(
    r"(?i)(?:\b(?:sqlplus|sqlldr|expdp|impdp|rman|disql|dexp|dimp|conn(?:ect)?)\s+|jdbc:oracle:(?:thin|oci8?):)"
    r"[\w.$#-]+/(?P<v>[^\s@/]{3,})@")
_REDIS_A_RE = re.compile(r"\bredis-cli\b[^\n]*?\s(?:-a|--pass|--askpass)\s+[\"']?(?P<v>[^\s\"']+)")
# login("user", "secret"), auth=("api", "key-…"), HTTPBasicAuth("u", "p"): the second string is the secret.
# The secret may be passed through a decoder ("so it is not in plain text"): b64decode("…").
_CREDENTIAL_PAIR_RE = re.compile(
    r"(?i)(?:\b(?:login|auth|authenticate|basic_auth|httpbasicauth|httpdigestauth|set_password|connect|"
    r"credentials?)\s*(?:=\s*)?[(\[]\s*)[\"'][^\"'\n]{1,80}[\"']\s*,\s*"
    r"(?:[\w.]*(?:b64decode|b32decode|decodebytes|unhexlify|fromhex|a2b_base64|atob|unquote|Buffer\.from)\(\s*)?"
    r"[\"'](?P<v>[^\"'\n]{3,200})[\"']")
# A connect call that takes the password as a positional argument: PDO(dsn, user, PASSWORD),
# DBI->connect(dsn, user, PASSWORD), mysqli_connect(host, user, PASSWORD, db),
# DriverManager.getConnection(url, user, PASSWORD), cx_Oracle.connect(user, PASSWORD, dsn), ftplib.FTP(host, user,
# PASSWORD): the call's name says which argument is the password (name -> its index from 0).
_POSITIONAL_CALLS = {"pdo": 2, "connect": 2, "mysqli_connect": 2, "mysqli": 2, "mysql_connect": 2,
                     "getconnection": 2, "odbc_connect": 2, "ftp_login": 2, "ldap_bind": 2, "ftp": 2, "ftp_tls": 2,
                     "oci_connect": 1, "real_connect": 2}
_POSITIONAL_RE = re.compile(
    r"(?i)(?:\bnew\s+(?P<cls>PDO|mysqli)|(?P<obj>\bDBI\s*->\s*|\bcx_Oracle\.|\boracledb\.|\bMySQLdb\.|\bpymysql\.|"
    r"\bftplib\.|\bDriverManager\.|->|\.)?(?P<fn>\b(?:connect|mysqli_connect|mysql_connect|getConnection|odbc_connect|"
    r"ftp_login|ldap_bind|oci_connect|FTP|FTP_TLS|real_connect)))\s*\((?P<args>[^()\n]{1,400})\)?")
_ARG_RE = re.compile(r"\s*(?:(?P<q>[\"'])(?P<s>(?:\\.|(?!(?P=q))[^\\\n])*)(?P=q)|[^,\"']*)\s*(?:,|$)")
# A password fed on standard input to a command that reads one there: sudo -S, passwd --stdin,
# chpasswd, kinit, docker/podman/helm login --password-stdin, gh auth login --with-token.
_STDIN_READER = r"(?:sudo\s+(?:-\w+\s+)*-S\b|passwd\s+--stdin\b|chpasswd\b|kinit\b|[^\n|]*?--password-stdin\b|[^\n|]*?--with-token\b)"
_STDIN_PIPE_RE = re.compile(
    rf"\b(?:echo|printf)\s+(?:-[neE]+\s+)?(?P<q>[\"']?)(?P<v>[^\s\"'|]{{3,128}}?|(?<=[\"'])[^\"'\n|]{{3,128}}?)(?:\\n)?(?P=q)"
    rf"\s*\|\s*{_STDIN_READER}")
_HERE_STRING_RE = re.compile(rf"{_STDIN_READER}[^\n]*?<<<\s*(?P<q>[\"']?)(?P<v>[^\s\"']{{3,128}}|(?<=[\"'])[^\"'\n]{{3,128}})(?P=q)")
# Go's MySQL DSN: user:password@tcp(host:port)/db, @unix(/path/to/socket)/db.
_GO_DSN_RE = re.compile(r"(?<![\w@/:.-])[A-Za-z0-9._-]{1,40}:(?P<v>[^\s@/:\"'`]{1,80})@(?:tcp6?|udp|unix)\(")
# ~/.pgpass: host:port:database:user:password
_PGPASS_RE = re.compile(r"(?m)^[A-Za-z0-9_.*-]+:(?:\d{2,5}|\*):[^:\s]+:[^:\s]+:(?P<v>\S+)$")
_WIFI_QR_RE = re.compile(r"WIFI:[^\n]*?(?<=[:;])P:(?P<v>(?:\\.|[^;\n])+);")
# Webhook URLs carry their secret in the path (飞书, Discord, generic /hooks/…).
# A key as a URL's path segment after a segment that names it: https://apifree.forvo.com/key/<key>/format/json
_KEY_PATH_RE = re.compile(r"(?i)https?://[^\s\"'<>]*?/(?:key|apikey|api_key|api-key|token|access_token|secret|ak)/"
                          r"(?P<v>[^\s\"'<>/?#]{16,200})")
_WEBHOOK_PATH_RE = re.compile(r"https?://[^\s\"'<>]*?/(?:hooks?|webhooks?)/(?P<path>[^\s\"'<>?#]+)", re.I)
# SQL that sets a password: MySQL ``IDENTIFIED BY '…'``, PostgreSQL ``WITH [ENCRYPTED] PASSWORD '…'``
# or ``LOGIN PASSWORD '…'``, ``SET PASSWORD … = PASSWORD('…')``.
_SQL_PASSWORD_RE = re.compile(
    r"(?i)\b(?:identified\s+(?:with\s+\w+\s+)?by|(?:with|login|encrypted|unencrypted)\s+password|"
    r"set\s+password\b[^\n;]*?=)\s*(?:password\s*\(\s*)?(?P<q>['\"])(?P<v>[^'\"\n]{1,128})(?P=q)")
# Windows: ``net use Z: \\srv\share [pw] /user:DOMAIN\name [pw]``, ``cmdkey /pass:…``.
_NET_USE_RE = re.compile(
    r"(?i)\bnet\s+use\b[^\n]*?(?:\\\\\S+\s+(?P<before>[^\s/*][^\s]*)\s+/user:|/user:\S+\s+(?P<after>[^\s/*]\S*))")
# Windows: ``net user NAME PASSWORD [/add]`` sets an account's password ("*" asks for it).
_NET_USER_RE = re.compile(r"(?i)\bnet\s+user\s+(?:\"[^\"\n]+\"|[^\s/\"]+)\s+(?P<v>[^\s/*\"][^\s]*)")
# A Cookie header (request, devtools copy, curl -b, a headers dict) carries session ids; Set-Cookie's
# first pair too.
_COOKIE_LINE_RE = re.compile(
    r"(?im)(?:^|[\"'\s{,])(?:(?P<set>set-)?cookie3?[\"']?[ \t]*:|-b|--cookie=?|document\.cookie\s*=)[ \t]*[\"']?"
    r"(?P<v>[^\n\"']+)")
# {"name": "Cookie", "value": "…"} (a HAR export), {"key": "Cookie", "value": "…"} (a Postman collection)
_HEADER_OBJECT_RE = re.compile(
    r"(?i)[\"'](?:name|key|header)[\"']\s*:\s*[\"'](?P<name>(?:set-)?cookie)[\"']\s*,\s*[\"']value[\"']\s*:\s*[\"'](?P<v>[^\"'\n]+)")
# A line of cookie pairs and nothing else: SESSDATA=…; bili_jct=…; DedeUserID=…
_PAIRS_LINE_RE = re.compile(r"(?m)^[ \t>]*(?P<v>[A-Za-z_][\w.-]{0,40}=[^;\s]+(?:;[ \t]?[A-Za-z_][\w.-]{0,40}=[^;\s]*){1,30};?)[ \t]*$")
_SESSION_NAME_RE = re.compile(r"(?i)sess|(?<![a-z])sid(?![a-z])|jct|csrf|xsrf|login|remember|(?<![a-z])(?:z_c0|uid_tt|passport)")
_COOKIE_PAIR_RE = re.compile(r"(?P<name>[^=;\s]{1,200})=(?P<v>[^;\s]*)")  # (bounded: linear on "=" -less text)
_COOKIE_ATTRIBUTES = frozenset(["path", "domain", "expires", "max-age", "samesite", "priority", "version",
                                "comment"])
_PASS_SWITCH_RE = re.compile(r"(?i)(?<![\w-])/(?:pass|password|p):[\"']?(?P<v>[^\s\"']+)")  # (xfreerdp /p:'…')
_LOGIN_TOKEN_RE = re.compile(
    r"\b(?:cargo|npm|docker|heroku|gh|glab|vercel|netlify|wrangler|huggingface-cli|twine)\s+login\b[^\n]*?\s"
    r"(?P<v>[A-Za-z0-9_\-.]{16,})")


def _basic_credentials(value: str) -> bool:
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return False
    return ":" in decoded and decoded.isprintable()


def urls_and_headers(text: str) -> Iterator[Finding]:
    lower = text.lower()
    if "@" in text:
        for rx in (_URL_CRED_RE, _BARE_CRED_RE):
            for m in rx.finditer(text):
                pw = m.group("pw")
                if m.group("user").startswith("["):
                    continue  # "scheme://[user:passwd@]host": the syntax, written out
                if not PLACEHOLDER_RE.match(pw) and not TEMPLATE_RE.search(pw) and not re.fullmatch(r"\d{1,5}", pw):  # host:port
                    yield Finding(PASSWORD, m.start("pw"), m.end("pw"))
    if "authorization" in lower:
        for m in _AUTH_HEADER_RE.finditer(text):
            value = m.group("v").rstrip(TRAILING)
            if value.endswith("=") and text[m.end("v"):m.end("v") + 1] in ('"', "'", "<", "{", "["):
                continue  # 'Digest username="Mufasa"', 'PVEAPIToken=<user>@…': a parameter's name, its value after it
            if not is_placeholder(value) and (char_classes(value) >= 2 or len(value) >= 16) \
                    and not CODE_RE.search(value) and not identifier_like(value):
                yield Finding(API_KEY, m.start("v"), m.start("v") + len(value))
        for m in _AUTH_SCHEME_RE.finditer(text):
            value = m.group("v").rstrip(TRAILING)
            if looks_random(value) and not is_path_or_url(value):
                yield Finding(API_KEY, m.start("v"), m.start("v") + len(value))
    if "bearer" in lower:
        for m in _BEARER_RE.finditer(text):
            value = m.group("v").rstrip(TRAILING)
            if not is_placeholder(value) and (char_classes(value) >= 2 or len(value) >= 20):
                yield Finding(API_KEY, m.start("v"), m.start("v") + len(value))
    if "basic" in lower:
        for m in _BASIC_RE.finditer(text):
            if _basic_credentials(m.group("v")):
                yield Finding(API_KEY, m.start("v"), m.end("v"))
    for m in _SLASH_PAIR_RE.finditer(text):
        if _MIME_RE.search(m.group(0)):
            continue  # "--icon data:image/png;base64,…": a media type, not user/password
        value = m.group("v").rstrip(",.;:)]}>'\"”」』")  # "!" and "#" are password characters
        if re.search(r"\d|[^\w\[\](){}<>-]", value) and value[0] not in "[(<{" \
                and not is_path_or_url(value) and not is_placeholder(value):
            yield Finding(PASSWORD, m.start("v"), m.start("v") + len(value))
    for m in _SEED_RE.finditer(text):
        yield Finding(RECOVERY_CODE, m.start("v"), m.end("v"))
    if " -p" in text:
        for m in _LOGIN_P_RE.finditer(text):
            if not is_placeholder(m.group("v")) and not re.fullmatch(r"\d{1,5}", m.group("v")) \
                    and not _file_argument(m.group("v")):
                yield Finding(PASSWORD, m.start("v"), m.end("v"))
    for rx, hint in ((_CURL_USER_RE, "-u"), (_CURL_USER_RE, "-user"), (_MYSQL_P_RE, "-p"), (_HTPASSWD_RE, "htpasswd"),
                     (_SSHPASS_RE, "sshpass"), (_REDIS_A_RE, "redis-cli"), (_ORACLE_RE, "/"), (_CREDENTIAL_PAIR_RE, ","),
                     (_PGPASS_RE, ":"), (_WIFI_QR_RE, "wifi:")):
        if hint in lower:
            for m in rx.finditer(text):
                if not is_placeholder(m.group("v")) and not (rx is _CURL_USER_RE and _file_argument(m.group("v"))):
                    yield Finding(PASSWORD, m.start("v"), m.end("v"))
    if "password" in lower or "identified" in lower:
        for m in _SQL_PASSWORD_RE.finditer(text):
            if not is_placeholder(m.group("v")) and not TEMPLATE_RE.search(m.group("v")):
                yield Finding(PASSWORD, m.start("v"), m.end("v"))
    yield from _positional_passwords(text, lower)
    if "=" in text or "\tTRUE\t" in text or "\tFALSE\t" in text:
        yield from _cookie_values(text)
    if "net user" in lower:
        for m in _NET_USER_RE.finditer(text):
            if not is_placeholder(m.group("v")):
                yield Finding(PASSWORD, m.start("v"), m.end("v"))
    if "net use" in lower or "/pass" in lower or "/p:" in lower:
        for m in _NET_USE_RE.finditer(text):
            group = "before" if m.group("before") else "after"
            if not is_placeholder(m.group(group)):
                yield Finding(PASSWORD, m.start(group), m.end(group))
        for m in _PASS_SWITCH_RE.finditer(text):
            if not is_placeholder(m.group("v")):
                yield Finding(PASSWORD, m.start("v"), m.end("v"))
    if "-" in text:
        for m in _FLAG_RE.finditer(text):
            cls = name_class(m.group("name"))
            value = m.group("v").rstrip(TRAILING)
            line_end = text.find("\n", m.end())
            rest = text[m.start("v") + len(value):len(text) if line_end < 0 else line_end]
            if cls is not None and plausible(value, cls, quoted=False, followed_by=rest):
                yield finding_for(cls, m.start("v"), m.start("v") + len(value))
    if "://" in text:
        for m in _KEY_PATH_RE.finditer(text):
            if looks_random(m.group("v")):
                yield Finding(API_KEY, m.start("v"), m.end("v"))
    if "hook" in lower:
        for m in _WEBHOOK_PATH_RE.finditer(text):
            for seg in re.finditer(r"[^/]+", m.group("path")):
                if looks_random(seg.group(0)):
                    yield Finding(API_KEY, m.start("path") + seg.start(), m.start("path") + seg.end())
    if "login" in lower:
        for m in _LOGIN_TOKEN_RE.finditer(text):
            if looks_random(m.group("v")):
                yield Finding(API_KEY, m.start("v"), m.end("v"))


# A cookie set in code by name and value: System.Net.Cookie("sessionid", "…", "/", ".douban.com"),
# session.cookies.set("SESSDATA", "…"), jar.set_cookie(…), and an LWP cookie file's Set-Cookie3: NAME="…".
_COOKIE_CALL_RE = re.compile(
    r"(?:\bCookie|cookies\.set|set_cookie|add_cookie|setCookie|addCookie)[ \t]*\([ \t]*[\"'](?P<name>[^\"'\n]{1,60})[\"'][ \t]*,"
    r"[ \t]*[\"'](?P<v>[^\"'\n]{8,4000})[\"']")
_LWP_RE = re.compile(r"(?im)^set-cookie3:[ \t]*(?P<name>[^=\s;]{1,200})=\"?(?P<v>[^\";\n]{1,4000})\"?")


def _cookie_calls(text: str) -> Iterator[Finding]:
    for rx in (_COOKIE_CALL_RE, _LWP_RE):
        for m in rx.finditer(text):
            if _session_value(m.group("name"), m.group("v")):
                yield Finding(API_KEY, m.start("v"), m.end("v"))


def _cookie_strings(text: str) -> Iterator[tuple[int, int, bool]]:
    """(start, end, is Set-Cookie) of every cookie string: after a Cookie header or flag, as the value of
    a header object named Cookie (HAR, Postman), or a line made only of ``name=value; name=value`` pairs
    (copied from the browser's cookie list)."""
    if "cookie" in text.lower() or " -b" in text:
        for line in _COOKIE_LINE_RE.finditer(text):
            yield line.start("v"), line.end("v"), line.group("set") is not None
        for m in _HEADER_OBJECT_RE.finditer(text):
            yield m.start("v"), m.end("v"), m.group("name").lower().startswith("set")
    if "; " in text:
        for m in _PAIRS_LINE_RE.finditer(text):
            yield m.start("v"), m.end("v"), False


def _session_value(name: str, value: str) -> bool:
    """A cookie value that identifies a session: random, hex, named as a credential or a session, or
    a signed value whose fields hold a random one (Tornado's ``2|1:0|10:…|4:z_c0|92:…|…``)."""
    hexlike = len(value) >= 16 and re.fullmatch(r"[0-9a-fA-F-]+", value) is not None
    if looks_random(value, min_len=16) or hexlike or looks_random(value.replace("%", ""), min_len=24):
        return True  # (Chaoxing's vc3 holds "%" that escape nothing)
    if (name_class(name) is not None or _SESSION_NAME_RE.search(name)) and len(value) >= 8 and not value.isalpha():
        return True
    return "|" in value and any(looks_random(p.split(":")[-1], min_len=16) for p in value.split("|"))


# A Netscape cookies.txt line (curl -c, yt-dlp --cookies, browser exports): domain, flag, path, secure,
# expiry, name, value, separated by tabs.
_NETSCAPE_RE = re.compile(r"(?m)^(?:#HttpOnly_)?[\w.-]+\t(?:TRUE|FALSE)\t[^\t\n]*\t(?:TRUE|FALSE)\t\d+\t"
                          r"(?P<name>[^\t\n]{1,200})\t(?P<v>[^\t\n]{1,4000})$")


def _cookie_values(text: str) -> Iterator[Finding]:
    """Values in a cookie string that identify a session."""
    if "ookie" in text:
        yield from _cookie_calls(text)
    if "\tTRUE\t" in text or "\tFALSE\t" in text:
        for m in _NETSCAPE_RE.finditer(text):
            value = m.group("v").rstrip()
            if _session_value(m.group("name"), value):
                yield Finding(API_KEY, m.start("v"), m.start("v") + len(value))
    for start, end, is_set in set(_cookie_strings(text)):
        if "=" not in text[start:end]:
            continue
        pairs = list(_COOKIE_PAIR_RE.finditer(text, start, end))
        for i, m in enumerate(pairs):
            name, value = m.group("name"), m.group("v").rstrip(TRAILING)
            if name.lower() in _COOKIE_ATTRIBUTES or (is_set and i > 0) or is_placeholder(value):
                continue
            if _session_value(name, value):
                yield Finding(API_KEY, m.start("v"), m.start("v") + len(value))


def _positional_passwords(text: str, lower: str) -> Iterator[Finding]:
    """A password given by position to a connect call, on standard input, or in a Go DSN."""
    if "(" in text and ("connect" in lower or "new " in lower or "ftp" in lower or "ldap_bind" in lower):
        for m in _POSITIONAL_RE.finditer(text):
            name = (m.group("cls") or m.group("fn")).lower()
            index = _POSITIONAL_CALLS.get(name, -1)
            if name == "connect" and not (m.group("obj") or "").strip(" \t->."):
                continue  # a bare x.connect(…) is any function (sqlite3.connect(db, 5, "DEFERRED")); DBI->connect is known
            args, pos = [], m.start("args")
            while pos < m.end("args") and len(args) <= index:
                a = _ARG_RE.match(text, pos, m.end("args"))
                if a is None or a.end() == pos:
                    break
                args.append(a)
                pos = a.end()
            if 0 <= index < len(args) and args[index].group("s") is not None:
                value = args[index].group("s")
                if len(value) >= 3 and not is_placeholder(value) and not TEMPLATE_RE.search(value):
                    yield Finding(PASSWORD, args[index].start("s"), args[index].end("s"))
    if "<<<" in text or ("|" in text and ("echo" in lower or "printf" in lower)):
        for rx in (_STDIN_PIPE_RE, _HERE_STRING_RE):
            for m in rx.finditer(text):
                value = m.group("v")
                if not value.startswith(("$", "%")) and not is_placeholder(value) and not TEMPLATE_RE.search(value):
                    yield Finding(PASSWORD, m.start("v"), m.end("v"))
    if "@" in text and "(" in text:
        for m in _GO_DSN_RE.finditer(text):
            value = m.group("v")
            if not PLACEHOLDER_RE.match(value) and not TEMPLATE_RE.search(value) and not is_placeholder(value):
                yield Finding(PASSWORD, m.start("v"), m.end("v"))
