"""Values that standards and vendors publish as worked examples, and values shaped as test patterns.

A person who pastes a standard's example (the IBAN of ISO 13616's worked check, Stripe's test card,
RFC 6238's TOTP seed, FIPS-197's AES key, a KMS client key from Microsoft's activation page) shares
nothing of their own: these are a small, well-known, documented set, listed here with where each
comes from, compared on letters and digits only (spaces, dashes and case as the reader wrote them).
A real key of the same shape is not on the list and is still withheld.

Test patterns are the other half: a card number that is mostly one digit (4000 0000 0000 0002), a
run counting up or down (…1234 5698 7654 32), key bytes that count or repeat (00 01 02 … 0f,
0b 0b 0b …): no generator of real cards, accounts or keys makes them.
"""

from __future__ import annotations

import base64
import re

_RFC_SEEDS = (b"12345678901234567890", b"12345678901234567890123456789012",
              b"1234567890123456789012345678901234567890123456789012345678901234")

# Each entry: the source, then the values it publishes (as written there).
_SOURCES: dict[str, tuple[str, ...]] = {
    # https://docs.stripe.com/testing: test card numbers (any future date, any CVC)
    "Stripe testing docs": (
        "4242424242424242", "4000056655665556", "5555555555554444", "2223003122003222", "5200828282828210",
        "5105105105105100", "378282246310005", "371449635398431", "6011111111111117", "6011000990139424",
        "6011981111111113", "3056930009020004", "36227206271667", "6555900000604105", "3566002020360505",
        "6200000000000005", "6200000000000047", "4000002500003155", "4000002760003184", "4000003800000446",
        "4000000000003220", "4000000000000002", "4000000000009995", "4000000000009987", "4000000000000069",
        "4000000000000127", "4000000000000119", "4000000000000341", "4000000760000002", "4000001240000000",
        "4000004840008001", "4000008400001629", "4000000000003063",
        # the API reference's sample keys, shown to every reader
        "sk_test_4eC39HqLyjWDarjtT1zdp7dc", "pk_test_TYooMQauvdEDq54NiTphI7jx",
        "sk_test_BQokikJOvBiI2HlWgH4olfQ2", "pk_test_6pRNASCoBOKtIshFeQd4XMUh"),
    # PayPal/Braintree sandbox docs and Adyen's test card numbers page
    "PayPal, Braintree and Adyen test cards": (
        "4111111111111111", "4012888888881881", "4222222222222", "5431111111111111", "378734493671000",
        "6011601160116611", "3530111333300000", "3566111111111113", "30569309025904", "38520000023237",
        "4111111145551142", "5555341244441115", "370000000000002"),
    # SWIFT's IBAN Registry (one example per country) and ISO 13616's worked check (GB82 WEST …)
    "IBAN Registry and ISO 13616": (
        "GB82WEST12345698765432", "GB29NWBK60161331926819", "DE89370400440532013000",
        "FR1420041010050500013M02606", "NL91ABNA0417164300", "BE68539007547034", "ES9121000418450200051332",
        "IT60X0542811101000000123456", "CH9300762011623852957", "AT611904300234573201",
        "PL61109010140000071219812874", "SE4550000000058398257466", "NO9386011117947", "DK5000400440116243",
        "FI2112345600000785", "IE29AIBK93115212345678", "PT50000201231234567890154", "LU280019400644750000",
        "SA0380000000608010167519", "AE070331234567890123456", "GR1601101250000000012300695",
        "HU42117730161111101800000000", "CZ6508000000192000145399", "TR330006100519786457841326",
        "HR1210010051863000160", "BG80BNBG96611020345678", "MT84MALT011000012345MTLCAST001S",
        "IL620108000000099999999", "RO49AAAA1B31007593840000"),
    # RFC 4226 / RFC 6238 (the HOTP/TOTP test seeds, as ASCII, hex and Base32) and Google Authenticator's
    # Key Uri Format page (its secret and its account label)
    "RFC 4226, RFC 6238, Key Uri Format": (
        *(s.decode() for s in _RFC_SEEDS), *(s.hex() for s in _RFC_SEEDS),
        *(base64.b32encode(s).decode().rstrip("=") for s in _RFC_SEEDS),
        "JBSWY3DPEHPK3PXP", "HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ", "alice@google.com"),
    # FIPS-197 appendices A-C (AES key expansion and cipher examples), NIST SP 800-38A, RFC 8439 (Poly1305)
    "FIPS-197, SP 800-38A, RFC 8439": (
        "2b7e151628aed2a6abf7158809cf4f3c", "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
        "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
        "3243f6a8885a308d313198a2e0370734", "6bc1bee22e409f96e93d7e117393172a",
        "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b"),
    # Microsoft Learn, "Key Management Services (KMS) client activation and product keys" (GVLKs)
    "Microsoft KMS client setup keys": (
        "W269N-WFGWX-YVC9B-4J6C9-T83GX", "MH37W-N47XK-V7XM9-C7227-GCQG9", "NRG8B-VKK3Q-CXVCJ-9G2XF-6Q84J",
        "9FNHH-K3HBT-3W4TD-6383H-6XYWF", "6TP4R-GNPTD-KYYHQ-7B7DP-J447Y", "YVWGF-BXNMC-HTQYQ-CPQ99-66QFC",
        "NW6C2-QMPVW-D7KKK-3GKT6-VCFB2", "2WH4N-8QGBV-H22JP-CT43Q-MDWWJ", "NPPR9-FWDCX-D2C8J-H872K-2YT43",
        "DPH2V-TTNVB-4X9Q3-TJR4H-KHJW4", "YYVX9-NTFWV-6MDM3-9PT4T-4M68B", "44RPN-FTY23-9VTTB-MP9BX-T84FV",
        "M7XTQ-FN8P6-TTKYV-9D4CC-J462D", "92NFX-8DJQP-P6BBQ-THF9C-7CG2H", "DCPHK-NFMTC-H88MJ-PFHPY-QJ4BJ",
        "WNMTR-4C88C-JK8YV-HQ7T2-76DF9", "WX4NM-KYWYW-QJJR4-XV3QB-6VM33", "VDYBN-27WPP-V4HQT-9VMD4-VMK7H",
        "WMDGN-G9PQG-XVVXX-R3X43-63DFG", "N69G4-B89J2-4G8F4-WWYCC-J464C", "CB7KF-BWN84-R7R2Y-793K2-8XDDG",
        "WC2BQ-8NRM3-FDDYY-2BFGV-KHKQY", "FXYTK-NJJ8C-GB6DW-3DYQT-6F7TH", "NMMKJ-6RK4F-KMJVX-8D9MJ-6MWKP",
        "XQNVK-8JYDB-WJ9W3-YJ8YR-WFG99"),
    # GB 11643-1999's own example of the check digit
    "GB 11643-1999": ("11010519491231002X",),
    # the Agenzia delle Entrate's codice fiscale example (Mario Rossi, born in Rome on 1 January 1980), printed
    # in every Italian lesson on it
    "Agenzia delle Entrate": ("RSSMRA80A01H501U",),
    # jwt.io's front-page token; BIP32 test vector 1's master key; the Bitcoin wiki's WIF example;
    # Hardhat/Anvil's default development account (its docs print the key and the mnemonic)
    "jwt.io, BIP32, Bitcoin wiki, Hardhat": (
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2"
        "MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
        "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi",
        "5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ",
        "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
        "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
        "test test test test test test test test test test test junk"),
    # CAPTCHA services' documented test keys (Google reCAPTCHA FAQ, Cloudflare Turnstile "Testing",
    # hCaptcha "Integration testing"): they always pass and protect nothing
    "reCAPTCHA, Turnstile and hCaptcha test keys": (
        "6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI", "6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe",
        "1x00000000000000000000AA", "2x00000000000000000000AB", "1x00000000000000000000BB",
        "3x00000000000000000000FF", "2x00000000000000000000BB",
        "1x0000000000000000000000000000000AA", "2x0000000000000000000000000000000AA",
        "3x0000000000000000000000000000000AA",
        "10000000-ffff-ffff-ffff-000000000001", "0x0000000000000000000000000000000000000000"),
    # Local emulators' fixed keys, printed in their docs and built into every copy: Azurite and the
    # storage emulator (devstoreaccount1), the Cosmos DB emulator; Supabase's local demo JWT secret and keys
    "Azure storage and Cosmos DB emulators, Supabase local": (
        "devstoreaccount1",
        "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
        "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==",
        "super-secret-jwt-token-with-at-least-32-characters-long",
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9"
        ".CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0",
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4"
        "MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU"),
    # Vendors' documentation keys shown to every reader: AWS's two example pairs, Mailgun's sample key,
    # Mapbox's examples-account token (its GL JS examples load with it)
    "AWS, Mailgun and Mapbox documentation": (
        "AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "AKIAI44QH8DHBEXAMPLE",
        "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY", "key-3ax6xnjp29jd6fds4gc373sgvjxteol0",
        "pk.eyJ1IjoiZXhhbXBsZXMiLCJhIjoiY2p0MG01MXRqMW45cjQzb2R6b2ptc3J4MSJ9.zA2W0IkI0c6KaAhJfk9bWg"),
    # RFC 6749 (OAuth 2.0: client, code and tokens), RFC 6750 (bearer), RFC 7617 (Aladdin's Basic
    # credentials), RFC 7519 section 3.1's JWT
    "RFC 6749, 6750, 7617, 7519": (
        "s6BhdRkqt3", "7Fjfp0ZBr1KtDRbnfVdmIw", "gX1fBat3bV", "czZCaGRSa3F0MzpnWDFmQmF0M2JW", "SplxlOBeZQQYbYS6WxSbIA",
        "2YotnFZFEjr1zCsicMWpAA", "tGzv3JOkF0XG5Qx2TlKWIA", "mF_9.B5f-4.1JqM", "QWxhZGRpbjpvcGVuIHNlc2FtZQ==",
        "open sesame",
        # RFC 8037 A.1's Ed25519 key pair (its JWK "d" and "x")
        "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A", "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
        # RFC 7515 A.1's HMAC key (its JWK "k")
        "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow",
        "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxl"
        "LmNvbS9pc19yb290Ijp0cnVlfQ.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
    # Passwords that images and servers ship with or their pages print (Docker Hub's postgres and mysql run
    # lines, MinIO, RabbitMQ, redis.conf's commented requirepass, the MongoDB manual's connection string, the
    # Kubernetes Secret walkthrough's value and its base64)
    "Docker Hub, MinIO, RabbitMQ, Redis, MongoDB and Kubernetes docs": (
        "mysecretpassword", "my-secret-pw", "minioadmin", "guest", "foobared", "D1fficultP%40ssw0rd", "D1fficultP@ssw0rd",
        "1f2d1e2e67df", "MWYyZDFlMmU2N2Rm"),
    # Local development chains' fixed accounts, printed at every start: Truffle develop's mnemonic, ganache -d's,
    # Hardhat's and Anvil's
    "Truffle, Ganache and Hardhat development mnemonics": (
        "candy maple cake sugar pudding cream honey rich smooth crumble sweet treat",
        "myth like bonus scare over problem client lizard pioneer submit female collect",
        "test test test test test test test test test test test junk"),
    # Identity numbers their issuers print as the specimen: the SSN on Woolworth's wallet insert (voided by the
    # SSA) and the range it keeps for advertising, Sweden's test personnummer (Tolvan Tolvansson), Finland's
    # DVV example henkilötunnus, Italy's Agenzia delle Entrate example codice fiscale (Mario Rossi)
    "SSA, Skatteverket, DVV and Agenzia delle Entrate specimens": (
        "078-05-1120", *(f"987-65-432{i}" for i in range(10)), "19121212-1212", "121212-1212", "131052-308T",
        "RSSMRA85T10A562S"),
    # Specimen documents printed by their issuers: ICAO Doc 9303's passport (Anna Maria Eriksson) and
    # Germany's Mustermann identity card; Twilio's magic test numbers; ORCID's documented iD (Josiah Carberry)
    "ICAO 9303, Mustermann specimens, Twilio, ORCID": (
        "L898902C3", "T22000129", "+15005550006", "+15005550001", "+15005550007", "+15005550008", "+15005550009",
        "0000-0002-1825-0097"),
}


def compact(value: str) -> str:
    """Letters and digits only, upper-cased: how a published value is compared."""
    return re.sub(r"[^0-9A-Za-z]", "", value).upper()


PUBLISHED: dict[str, str] = {compact(v): source for source, values in _SOURCES.items() for v in values}
# Values that identify no one and are found inside a longer finding: a specimen's document number in its
# machine-readable zone, the specimen card's printed address, addresses that exist only in fiction.
_CONTAINED: dict[str, str] = {compact(v): source for source, values in {
    "ICAO 9303 and Mustermann specimens": ("L898902C3", "T22000129", "Heidestraße 17"),
    "fiction": ("221B Baker Street", "742 Evergreen Terrace", "4 Privet Drive", "12 Grimmauld Place",
                "124 Conch Street", "31 Spooner Street"),
}.items() for v in values}
_LABEL_RE = re.compile(r"^[^:=：]{0,40}[:=：]\s*")  # "secret=JBSW…", "key: 2b7e…"


def published(value: str) -> bool:
    """``value`` (a finding's text, perhaps with its label or a 0x in front) is a listed example."""
    for candidate in (value, _LABEL_RE.sub("", value)):
        c = compact(candidate)
        if c in PUBLISHED or (c.startswith("0X") and c[2:] in PUBLISHED) or ("0X" + c) in PUBLISHED:
            return True
    c = compact(value)
    return len(c) <= 120 and any(v in c for v in _CONTAINED)


# Numbers regulators keep for fiction and examples (Ofcom's drama numbers, ACMA's, the 555-01xx of North America):
# no one can be reached there.
_FICTIONAL_PHONE_RE = re.compile(
    r"(?:\+?44|0)(?:7700900|2079460|1134960|1174960|1184960|1214960|1314960|1414960|1514960|1614960|2896496|"
    r"1632960|3069990|8081570|9098790)\d{3}|(?:\+?61|0)(?:49157|[2378]5550)\d{4}|(?:\+?1)?[2-9]\d\d55501\d\d")


def fictional_phone(digits: str) -> bool:
    """``digits`` (a "+" allowed in front) is in a range kept for fiction: a drama's or a textbook's number."""
    return _FICTIONAL_PHONE_RE.fullmatch(digits) is not None


def patterned_digits(digits: str) -> bool:
    """A test card number, not an issued one: a digit repeated 8 times, two or three digits taking
    turns over 12, or 7 digits counting (4000000000000002, 4242…, 5105105105…, …1234567…)."""
    return bool(re.search(r"(\d)\1{7}|(\d\d)\2{5}|(\d{3})\3{3}", digits)) or counting_digits(digits)


def counting_digits(digits: str) -> bool:
    """Seven digits in a row counting up or down (ISO 13616's GB82 WEST 1234 5698 7654 32): zeros
    padding an account (HU42 1177 3016 1111 1018 0000 0000) are real, counting is not."""
    up = down = 1
    for a, b in zip(digits, digits[1:], strict=False):
        step = (int(b) - int(a)) % 10
        up = up + 1 if step == 1 else 1
        down = down + 1 if step == 9 else 1
        if up >= 7 or down >= 7:
            return True
    return False


def patterned_bytes(data: bytes) -> bool:
    """Key bytes that count (00 01 02 …, 00 11 22 …) or repeat a group of up to 4 bytes (0b0b0b…,
    deadbeefdeadbeef…): a standard's test key or a filler, never a generated key."""
    if len(data) < 8:
        return False
    steps = {(b - a) % 256 for a, b in zip(data, data[1:], strict=False)}
    if len(steps) == 1:
        return True
    return any(data == (data[:p] * (len(data) // p + 1))[:len(data)] for p in range(1, 5))


def patterned_hex(value: str) -> bool:
    """:func:`patterned_bytes` of a hex run (separators and a 0x aside)."""
    h = re.sub(r"^0[xX]|[\s:-]", "", value)
    if len(h) < 16 or len(h) % 2 or not re.fullmatch(r"[0-9A-Fa-f]+", h):
        return False
    return patterned_bytes(bytes.fromhex(h))


# A public key's name: after gpg's key options (--recv-keys, --edit-key, --fingerprint …) or the word for
# a key's fingerprint or ID comes a key ID or a fingerprint (8, 16, 40 or 64 hex digits, in groups of 4
# as gpg prints them): it names a public key, as a file name names a file.
_KEY_NAMED_RE = re.compile(
    r"(?i)(?:--(?:recv|search|locate|locate-external|list|edit|sign|lsign|send|delete|refresh|fetch|trusted|"
    r"default|encrypt-to|hidden-encrypt-to)-keys?|--fingerprint|--keyid|key\s*-?id|keyid|fingerprint|fpr|"
    r"指纹|指紋|(?:密钥|密鑰|公钥|公鑰)\s*ID|using\s+(?:RSA|DSA|EDDSA|ECDSA|EdDSA)\s+key|"
    # (an image's or a build's release-signing key, named GPG_KEY / PGP_KEYS as the official Docker images do)
    r"(?:gpg|pgp)[_-]?keys?(?=[\"']?\s*[=:]))(?![A-Za-z])[^\n]{0,40}$")
_HEX_GROUPS_RE = re.compile(r"(?:0[xX])?[0-9A-Fa-f]{4}(?: {0,2}[0-9A-Fa-f]{4})*")
_KEY_ID_LENGTHS = (8, 16, 20, 40, 64)  # (20: gpg prints a fingerprint's two halves apart)


def public_key_id(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` is a key ID or fingerprint, named as one on its line."""
    if end - start < 8:
        return False
    value = _LABEL_RE.sub("", text[start:end].strip())
    if _HEX_GROUPS_RE.fullmatch(value) is None:
        return False
    digits = re.sub(r"^0[xX]|\s", "", value)
    if len(digits) not in _KEY_ID_LENGTHS:
        return False
    line_start = text.rfind("\n", 0, start) + 1
    return _KEY_NAMED_RE.search(text, max(line_start, start - 80), start + len(text[start:end]) - len(value)) is not None
