"""Long random literals: in an environment line, a ``name=value`` pair or a quoted string in code."""

from __future__ import annotations

import re
from collections.abc import Iterator

from desktop_kb.qa.detectors.base import API_KEY, Finding, char_classes, looks_random
from desktop_kb.qa.detectors.encoded import base64_of_prose
from desktop_kb.qa.detectors.secret_names import name_parts, public_name
from desktop_kb.qa.detectors.secret_values import is_path_or_url

_ENV_LINE_RE = re.compile(r"(?m)^[ \t]*(?:export[ \t]+)?(?P<name>[A-Z][A-Z0-9_]{1,60})[ \t]*=[ \t]*[\"']?(?P<v>[^\s\"'#]{32,300})")
# name=value inside a cookie, a query or a line: a long random value is a credential there too.
_PAIR_ANYWHERE_RE = re.compile(r"(?<![\w-])(?P<name>[A-Za-z_][A-Za-z0-9_]{1,40})=(?P<v>[^\s\"'#&;,]{40,400})")
# A long random string literal in code is a key whatever it is passed to (``Client("RbCJ…")``).
_LITERAL_RE = re.compile(r"(?P<q>[\"'])(?P<v>[A-Za-z0-9_\-+/]{32,200}={0,2})(?P=q)")
_HEXISH_RE = re.compile(r"[0-9a-fA-F-]+")
_URN_RE = re.compile(r"^urn:[A-Za-z0-9.-]+:")
ID_PARTS = {"id", "hash", "sha", "sha1", "sha256", "md5", "checksum", "digest", "commit", "rev", "revision",
             "version", "uuid", "guid", "fingerprint", "etag", "url", "uri", "path", "dir", "file", "host",
             "integrity", "prefix", "suffix", "type", "name", "namespace", "domain", "package", "module",
             "class", "schema",
             # public by design: a CAPTCHA's site key (sitekey), ad and share click ids in a pasted link
             "sitekey", "fbclid", "gclid", "gbraid", "wbraid", "msclkid", "dclid", "yclid", "igshid", "twclid", "ttclid"}
# "com.amazonaws.dynamodb.v20120810", "client.authentication.k8s.io/v1alpha1": a name made of short
# lower-case parts, not a key (a JWT's or a SendGrid key's parts are long, an AWS secret's mixed-case).
# "awscrt.auth.AwsSigningAlgorithm.V4_ASYMMETRIC": an attribute path (a JWT's parts are longer).
_DOTTED_NAME_RE = re.compile(
    r"[a-z0-9_-]{1,16}(?:[./][a-z0-9_-]{1,16}){2,}|[A-Za-z_][A-Za-z0-9_]{0,23}(?:\.[A-Za-z_][A-Za-z0-9_]{0,23}){2,}")
# Subresource-integrity hashes in lock files (``"integrity": "sha512-…"``) are public checksums.
_SRI_RE = re.compile(r"(?i)(?:sha(?:1|224|256|384|512)|md5)-")
# The key a quoted literal is the value of: ``"integrity": "…"``, ``checksum = "…"``.
_KEY_BEFORE_RE = re.compile(r"[\"']?(?P<name>[A-Za-z_][\w-]{0,40})[\"']?\s*[:=]\s*[\"']?$")


def long_literals(text: str) -> Iterator[Finding]:
    """``CF_DNS_EDIT=1rqeSAYA…``: in an environment file a long random value is a credential,
    unless its name says it is an identifier or a checksum (hex and UUIDs are left to names)."""
    for m in [*_ENV_LINE_RE.finditer(text), *_PAIR_ANYWHERE_RE.finditer(text)] if "=" in text else ():
        value = m.group("v")
        bare = _URN_RE.sub("", value)  # magnet links' urn:btih:<hash>: a content's name, not a key
        if ID_PARTS & set(name_parts(m.group("name"))) or _HEXISH_RE.fullmatch(bare) \
                or _DOTTED_NAME_RE.fullmatch(value):
            continue
        if looks_random(value, min_len=32) and not is_path_or_url(value):
            yield Finding(API_KEY, m.start("v"), m.end("v"))
    for m in _LITERAL_RE.finditer(text):
        value = m.group("v")
        parts = key_parts(text, m.start())
        if _SRI_RE.match(value) or ID_PARTS & set(parts) or public_name(parts):
            continue
        core = re.sub(r"[-_+/=]", "", value)
        if char_classes(core) >= 3 and not _HEXISH_RE.fullmatch(value) and looks_random(value, min_len=32) \
                and not base64_of_prose(value):
            yield Finding(API_KEY, m.start("v"), m.end("v"))


def key_parts(text: str, literal_start: int) -> list[str]:
    """The parts of the name a literal is assigned to on its line (none when it is an argument)."""
    # The name sits just before the literal: reading back from the line's start made a long line
    # with many literals quadratic.
    line_start = max(text.rfind("\n", 0, literal_start) + 1, literal_start - 96)
    key = _KEY_BEFORE_RE.search(text, line_start, literal_start)
    return name_parts(key.group("name")) if key else []
