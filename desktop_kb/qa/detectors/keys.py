"""Private key blocks: PEM (PKCS#1/#8, EC, encrypted), OpenSSH, PGP, PuTTY.

A block is found by its markers *and* by its body, because a window (or an
imported fragment) can start after the ``BEGIN`` line: a run of base64 lines
is key material when a ``BEGIN/END … PRIVATE KEY`` line is next to it, when
the nearest marker above it opens a private key, or when it starts the way
private-key encodings start (``openssh-key-v1``, DER ``SEQUENCE { INTEGER 0 …``).
Certificates and public keys are not secrets and pass.
"""

from __future__ import annotations

import re

from desktop_kb.qa.detectors.base import PRIVATE_KEY, Finding

_LABEL = r"(?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?"
_BEGIN_RE = re.compile(rf"-----\s*BEGIN {_LABEL}\s*-----")
_END_RE = re.compile(rf"-----\s*END {_LABEL}\s*-----")
_ANY_MARKER_RE = re.compile(r"-----\s*(BEGIN|END) ([A-Z0-9 ]+?)\s*-----")
_PUTTY_RE = re.compile(r"PuTTY-User-Key-File-\d+:[^\n]*\n(?:[^\n]*\n)*?Private-MAC:[^\n]*")
# One line of a key body: base64 (PEM, PGP armour), also inside a YAML block or a quoted string.
_B64_LINE_RE = re.compile(
    r"^[ \t>\"'|]*(?P<b>[A-Za-z0-9+/]{16,}={0,2}|[A-Za-z0-9+/]{2,15}={1,2})[\"',\\n]*[ \t\r]*$")
# How the DER or OpenSSH encoding of a private key begins, once base64-encoded.
_PRIVATE_START_RE = re.compile(
    r"^(?:b3BlbnNzaC1rZXktdjE"  # openssh-key-v1
    r"|MI[A-Za-z0-9+/]{2,4}(?:IBAAK|IBADAN|gEAMBMG|CAQAw)"  # PKCS#1 RSA, PKCS#8
    r"|M[HI][A-Za-z0-9+/]{2,4}(?:AgEBB|CAQEE)"  # SEC1 EC
    r"|MI[A-Za-z0-9+/]{2,4}(?:MFcGCSqGSIb3DQEFDT|BOBgkqhkiG9w0BBQ0w|MFwGCSqGSIb3DQEFDT)"  # encrypted PKCS#8
    r"|l[FQIJ][A-Za-z0-9+/]{2}B[A-Za-z0-9+/]{40,})")  # OpenPGP secret-key packet


def _marker_blocks(text: str) -> list[Finding]:
    found = []
    for m in _BEGIN_RE.finditer(text):
        end = _END_RE.search(text, m.end())
        if end is not None and end.start() - m.end() < 20000:
            found.append(Finding(PRIVATE_KEY, m.start(), end.end()))
        else:
            found.append(Finding(PRIVATE_KEY, m.start(), _body_end(text, m.end())))
    for m in _END_RE.finditer(text):
        if not any(f.start <= m.start() < f.end for f in found):
            found.append(Finding(PRIVATE_KEY, _body_start(text, m.start()), m.end()))
    found += [Finding(PRIVATE_KEY, m.start(), m.end()) for m in _PUTTY_RE.finditer(text)]
    return found


def _lines(text: str) -> list[tuple[int, int]]:
    spans = []
    pos = 0
    for line in text.split("\n"):
        spans.append((pos, pos + len(line)))
        pos += len(line) + 1
    return spans


def _is_body(line: str) -> bool:
    return bool(_B64_LINE_RE.match(line)) or line.strip() in ("", "=") or re.match(
        r"^\s*(?:Proc-Type|DEK-Info|Comment|Version|Hash):", line) is not None or re.match(
        r"^\s*=[A-Za-z0-9+/]{4}\s*$", line) is not None  # PGP armour checksum


def _body_end(text: str, pos: int) -> int:
    """End of the base64 run that follows a BEGIN line whose END is not in this text."""
    end = pos
    for start, stop in _lines(text):
        if stop <= pos:
            continue
        line = text[max(start, pos):stop]
        if not _is_body(line):
            break
        end = stop
    return max(end, pos)


def _body_start(text: str, pos: int) -> int:
    """Start of the base64 run before an END line whose BEGIN is not in this text."""
    start_at = pos
    for start, stop in reversed(_lines(text)):
        if start >= pos:
            continue
        line = text[start:min(stop, pos)]
        if not _is_body(line):
            break
        start_at = start
    return min(start_at, pos)


def _body_runs(text: str) -> list[Finding]:
    """Runs of base64 lines (two of ≥ 40 characters, or one of ≥ 60) that are private-key material."""
    found = []
    run: list[tuple[int, int, str]] = []
    for start, stop in [*_lines(text), (len(text) + 1, len(text) + 1)]:
        m = _B64_LINE_RE.match(text[start:stop]) if start <= len(text) else None
        if m is not None:
            run.append((start, stop, m.group("b")))
            continue
        long = [r for r in run if len(r[2]) >= 40]
        block = len(long) >= 2 or (long and len(long[0][2]) >= 60)
        if block and (_PRIVATE_START_RE.match(run[0][2]) or _opened_by_private_marker(text, run[0][0])):
            found.append(Finding(PRIVATE_KEY, run[0][0], run[-1][1]))
        run = []
    return found


def _opened_by_private_marker(text: str, pos: int) -> bool:
    """The nearest marker above ``pos`` opens a private key, or the nearest below closes one."""
    above = None
    for m in _ANY_MARKER_RE.finditer(text, 0, pos):
        above = m
    if above is not None and above.group(1) == "BEGIN":
        return "PRIVATE KEY" in above.group(2)
    below = _ANY_MARKER_RE.search(text, pos)
    return below is not None and below.group(1) == "END" and "PRIVATE KEY" in below.group(2)


def _one_line_bodies(text: str) -> list[Finding]:
    """Key bodies written on one line (JSON ``\\n`` escapes, pasted without breaks)."""
    return [Finding(PRIVATE_KEY, m.start(), m.end())
            for m in re.finditer(r"(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{60,}={0,2}", text)
            if _PRIVATE_START_RE.match(m.group(0))]


# A JSON Web Key holds its private half in "d" (and, for RSA, the primes and exponents).
_JWK_PRIVATE_RE = re.compile(r"[\"'](?:d|p|q|dp|dq|qi)[\"']\s*:\s*[\"'](?P<v>[A-Za-z0-9_-]{16,})[\"']")


def _jwk_private(text: str) -> list[Finding]:
    if "kty" not in text:
        return []
    return [Finding(PRIVATE_KEY, m.start("v"), m.end("v")) for m in _JWK_PRIVATE_RE.finditer(text)]


# A DER private key written in hex (bytes.fromhex("3081…"), a C array dumped as one string): SEQUENCE, then
# INTEGER 0 and an algorithm SEQUENCE or the RSA modulus (PKCS#8, PKCS#1), or INTEGER 1 and the EC scalar
# (SEC1). A certificate (SEQUENCE in SEQUENCE) and a public key (SEQUENCE, SEQUENCE) begin otherwise.
_HEX_DER_RE = re.compile(r"(?<![0-9A-Za-z])(?i:30(?:82[0-9a-f]{4}|81[0-9a-f]{2}|[0-7][0-9a-f])(?:020100(?:30|02)|0201010420|"
                         r"0201010430)[0-9a-f]{90,})(?![0-9A-Za-z])")
# Matrix Synapse's signing key file: "ed25519 a_AbCd <the 32-byte seed in unpadded base64>".
_SIGNING_KEY_RE = re.compile(r"(?m)^[ \t]*ed25519[ \t]+a_[A-Za-z0-9_]{1,16}[ \t]+(?P<v>[A-Za-z0-9+/]{43})=?[ \t]*$")


def _other_encodings(text: str) -> list[Finding]:
    found = [Finding(PRIVATE_KEY, m.start(), m.end()) for m in _HEX_DER_RE.finditer(text)] if "30" in text else []
    if "ed25519" in text:
        found += [Finding(PRIVATE_KEY, m.start("v"), m.end("v")) for m in _SIGNING_KEY_RE.finditer(text)]
    return found


def private_keys(text: str) -> list[Finding]:
    found = _jwk_private(text) + _other_encodings(text)
    if "-----" not in text and "PuTTY" not in text and not re.search(r"[A-Za-z0-9+/]{40}", text):
        return found
    return found + _marker_blocks(text) + _body_runs(text) + _one_line_bodies(text)
