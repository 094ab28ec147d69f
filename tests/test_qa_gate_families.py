"""Families of shapes the session-10 sealed batch (heldout9, negatives8) showed, each checked on variants
written here in shapes that batch does not hold (other languages, containers, label spellings), with
the hard negatives that look the same and must pass.
"""

from __future__ import annotations

import pytest
from gate_checks import found, withheld

# ----- a label about a property of a password announces no password (negatives8: "L·log2") ------------

@pytest.mark.parametrize("text", [
    "密码熵 E = L·log2(R)，R 是字符集大小。",
    "口令强度 S = n·log2(k)，n 为长度。",
    "密碼熵 H ＝ L·log₂(N)，十二位小寫字母約 56 位。",
    "password strength = len·log2(charset)",
    "口令复杂度 = 4·log2(95)",
    "パスワード強度 = n·log2(62) ビット",
    "密碼長度 = 8·log2(10)",
])
def test_a_formula_about_passwords_is_not_a_password(text: str) -> None:
    assert found(text) == []


@pytest.mark.parametrize(("text", "secret"), [
    ("密码强度测试用的密码：Tiger#2024x", "Tiger#2024x"),  # the label's last word is the password
    ("WiFi 密码 = Lab#2024xyz", "Lab#2024xyz"),
    ("Password strength test, the password: Qv7#mLx2pR", "Qv7#mLx2pR"),
])
def test_a_password_next_to_a_property_word_is_still_found(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


# ----- the lines of a public key or certificate under a "key" label are public (negatives8: a base64 pair) -

@pytest.mark.parametrize("text", [
    "证书和密钥如下：\n-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ\n"
    "RTESMBAGA1UEChMJQmFsdGltb3JlMRMwEQYDVQQLEwpDeWJlclRydXN0MSIwIAYD\n-----END CERTIFICATE-----",
    "PGP 密钥：\n-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBGRfjRUBEAC3tK2ZeXk3hQh2s9wq7nLmR0aP8vJf4xKc1bYzT6uE5dW3gHnA\n"
    "Vb9sQ2mLr8Tf7Kx1Pq4Zw6Yc3Nd0Jh5Ue2Ra9Gt7Lk1Mp8Sv4Bx6Cz0Dy3Fe5Hw\n-----END PGP PUBLIC KEY BLOCK-----",
    "服务器公钥（私钥在服务器上）：\n-----BEGIN RSA PUBLIC KEY-----\nMIIBCgKCAQEA+xGZ/wcz9ugFpP07Nspo6U17l0YhFiFpxxU4pTk3Lifz9R3zsIsu\n"
    "ERwta7+fWIfxOo208ett/jhskiVodSEt3QBGh4XBipyWopKwZ93HHaDVZAALi/2A\n-----END RSA PUBLIC KEY-----",
    "Token signing key (public half):\n-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEqRMsHdlB5ZoIsfjk2xW3Jm8hDRdK\n"
    "yC7Oa0pQ3fWQzPbhPz2pJv4fTnS5yQe6kUrXo1cVnZ8mBqWs3LgH7aTfYw==\n-----END PUBLIC KEY-----",
    "公開鍵：\n-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----",
])
def test_a_public_key_block_under_a_key_label_passes(text: str) -> None:
    assert found(text) == []


def test_a_private_key_block_under_a_key_label_is_withheld_whole() -> None:
    body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj"
    text = f"私钥如下：\n-----BEGIN PRIVATE KEY-----\n{body}\n-----END PRIVATE KEY-----"
    assert withheld(text, body)


# ----- digits written in Chinese numerals or misread by OCR, read as digits (heldout9: 密码 二〇八五…, 幺三八…) -

_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)


def _resident_id(first17: str) -> str:
    return first17 + "10X98765432"[sum(int(d) * w for d, w in zip(first17, _ID_WEIGHTS, strict=True)) % 11]


def _luhn(first: str) -> str:
    for check in "0123456789":
        digits = first + check
        total = sum((2 * int(c) - 9 if 2 * int(c) > 9 else 2 * int(c)) if i % 2 else int(c)
                    for i, c in enumerate(reversed(digits)))
        if total % 10 == 0:
            return digits
    raise AssertionError


def _spelled(digits: str, numerals: str = "〇一二三四五六七八九") -> str:
    return "".join(numerals[int(c)] if c.isdigit() else c for c in digits)


_CAPITALS = "零壹贰叁肆伍陆柒捌玖"
_ID = _resident_id("51010719930417231")
_CARD = _luhn("621700023100487155")


@pytest.mark.parametrize(("text", "secret"), [
    # an ID in the financial capitals of a bank form, in a JSON value
    (f'{{"证件类型": "居民身份证", "证件号码": "{_spelled(_ID, _CAPITALS)}"}}', _spelled(_ID, _CAPITALS)),
    # an ID in traditional characters' form, grouped as printed
    (f"身份證號碼：{_spelled(_ID[:6])} {_spelled(_ID[6:14])} {_spelled(_ID[14:])}",
     f"{_spelled(_ID[:6])} {_spelled(_ID[6:14])} {_spelled(_ID[14:])}"),
    # a mobile number said aloud: 幺 for 1, 洞 for 0, 两 for 2
    ("紧急联系人手机：幺五九 洞洞两七 三三八幺（他妈妈）", "幺五九 洞洞两七 三三八幺"),
    # a card in capitals under an account label
    (f"收款账号：{_spelled(_CARD, _CAPITALS)}（建设银行）", _spelled(_CARD, _CAPITALS)),
    # a password in a sentence, not after a colon
    ("保险柜的密码是七三九一八二四六，别告诉别人。", "七三九一八二四六"),
    # an address with its numbers in numerals (a lane, a building, a unit, a room)
    ("新家：杭州市西湖区文三路四七八号三幢二单元六〇二室", "文三路四七八号三幢二单元六〇二室"),
    # OCR of a bank card in another grouping, with I and o for 1 and 0
    ("OCR 结果 card no: " + " ".join(("".join({"1": "I", "0": "o"}.get(c, c) if i % 3 == 0 else c
                                               for i, c in enumerate(g))) for g in (_CARD[:6], _CARD[6:])),
     " ".join(("".join({"1": "I", "0": "o"}.get(c, c) if i % 3 == 0 else c for i, c in enumerate(g)))
              for g in (_CARD[:6], _CARD[6:]))),
    # OCR of an ID in an English line
    (f"Scanned ID card number: {_ID.replace('0', 'O').replace('1', 'l')}", _ID.replace("0", "O").replace("1", "l")),
])
def test_digits_in_numerals_or_misread_are_read_as_digits(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "一九四九年十月一日，中华人民共和国宣布成立。",
    "他把事情一五一十地说了，大家三三两两地散去。",
    "圆周率约为三点一四一五九二六五三五八九七九三二三八四六。",
    "乘法口诀表：一一得一，一二得二，二二得四，一三得三。",
    "二〇二四年三月十五日至二〇二四年三月二十日",
    "应用题：小明家住三号楼二单元，每层楼高三米。",
    "编号为一一〇一〇五一九四九一二三一〇〇二一的文件",  # 18 numerals, the checksum fails
    "ISO 9OOl:2O15 认证，型号 lO0-2OOO-lOO，Oolong 1O1",
    "电话号码的读法：一般三位一组，例如幺三八。",
])
def test_numerals_that_are_not_a_number_pass(text: str) -> None:
    assert found(text) == []


# ----- a password passed by position to a known call, on standard input, or in a Go DSN (heldout9: PDO,
# DBI->connect, sudo -S <<<, user:pass@tcp(…)) ------------------------------------------------------------

@pytest.mark.parametrize(("text", "secret"), [
    ('$link = mysqli_connect("localhost", "root", "Lm9#qT2x", "shop");', "Lm9#qT2x"),
    ("$db = new mysqli('127.0.0.1', 'admin', 'Adm1n@lab', 'exam');", "Adm1n@lab"),
    ('Connection c = DriverManager.getConnection("jdbc:mysql://localhost:3306/lib", "root", "Qw3rty!88");',
     "Qw3rty!88"),
    ('conn = cx_Oracle.connect("scott", "T1ger#2024", "localhost/XEPDB1")', "T1ger#2024"),
    ('ftp = ftplib.FTP("ftp.lab.edu.cn", "stu07", "ftpPass#77")', "ftpPass#77"),
    ('db = pymysql.connect("localhost", "root", "r00t!Pwd", "test")  # 老教程的写法', "r00t!Pwd"),
    ("echo 'Tr0ub4dor&3' | sudo -S systemctl restart nginx", "Tr0ub4dor&3"),
    ('echo "MyN3wPass!" | passwd --stdin alice', "MyN3wPass!"),
    ("echo 'dckr_pat_Zx9fQ2mLr7Tb' | docker login -u lilei --password-stdin", "dckr_pat_Zx9fQ2mLr7Tb"),
    ("printf 'S3cr3t!pw\\n' | kinit alice@LAB.EDU", "S3cr3t!pw"),
    ('database:\n  dsn: "lab:Hz7!pq@unix(/var/run/mysqld/mysqld.sock)/exam"\n', "Hz7!pq"),
    ("MYSQL_DSN=app:Sp4rk#db@tcp6([::1]:3306)/shop?parseTime=true", "Sp4rk#db"),
])
def test_a_password_given_by_position_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "echo $DB_PASS | sudo -S systemctl restart nginx",
    'echo "$REGISTRY_TOKEN" | docker login -u ci --password-stdin registry.example.com',
    "cat ~/.docker_pw | docker login --password-stdin",
    "echo hello | grep h && sudo -S apt update",
    "$link = mysqli_connect($host, $user, $pass, $db);",
    "$pdo = new PDO($dsn, $user, $password, $options);",
    'conn = sqlite3.connect("notes.db", 5.0, 0, "DEFERRED")',
    "Go 的 DSN 格式：user:password@tcp(127.0.0.1:3306)/dbname?charset=utf8mb4",
    'dsn := fmt.Sprintf("%s:%s@tcp(%s)/%s", user, pass, host, name)',
    "DSN=${DB_USER}:${DB_PASS}@tcp(db:3306)/app  # 空密码写作 root:@tcp(localhost)/test",
])
def test_calls_and_pipes_without_a_password_pass(text: str) -> None:
    assert found(text) == []


# ----- a cookie string's session values, wherever the string stands (heldout9: HAR, SESSDATA=…; bili_jct=…,
# z_c0=2|1:0|…) ----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "secret"), [
    ('{"header": [{"key": "Cookie", "value": "PHPSESSID=k2v9q8r7m4n1b6c5x3z0a8s7d6; lang=zh", "type": "text"}]}',
     "k2v9q8r7m4n1b6c5x3z0a8s7d6"),
    ('{"response": {"headers": [{"name": "Set-Cookie", "value": "SESSION=YjM4ZTQ1N2QtOWEyYy00NzFmLWI2ZDUtMTc4; '
     'Path=/; HttpOnly"}]}}', "YjM4ZTQ1N2QtOWEyYy00NzFmLWI2ZDUtMTc4"),
    ("豆瓣登录后复制的：\n_ga=GA1.2.1987; sessionid=u7x2kq9wlm3np8cz5rt1vb6yh4; csrftoken=Qm8vR2tLx9Pz", "u7x2kq9wlm3np8cz5rt1vb6yh4"),
    ("> PHPSESSID=1c9e7f3a2b8d4e6f0a5b; security=low\n（DVWA 靶场作业）", "1c9e7f3a2b8d4e6f0a5b"),
    ("Cookie: user=2|1:0|10:1700000000|4:user|12:bGlsZWkyMDI0|"
     "3f2a9c1e8b7d6f5a4c3b2a1908f7e6d5c4b3a2918f7e6d5c4b3a29180f1e2d3c", "2|1:0|10:1700000000|4:user|12:bGlsZWkyMDI0|"
     "3f2a9c1e8b7d6f5a4c3b2a1908f7e6d5c4b3a2918f7e6d5c4b3a29180f1e2d3c"),
])
def test_a_cookie_strings_session_value_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "theme=dark; lang=zh-CN; tz=Asia/Shanghai",
    '{"name": "Cookie", "value": "lang=en; theme=light; font=large"}',
    "a=1; b=2; c=3",
    '{"key": "Cookie", "value": "{{session_cookie}}", "type": "text"}',
    "for (i=0; j=10; k++) 是错的写法",
])
def test_cookie_strings_without_a_session_pass(text: str) -> None:
    assert found(text) == []


# ----- private keys in their own encodings: bech32 secret keys, byte-array keypairs, signify files (heldout9:
# nostr nsec, Solana id.json, minisign) ---------------------------------------------------------------------

def _bech32(hrp: str, data: bytes) -> str:
    charset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
    bits = "".join(f"{b:08b}" for b in data)
    bits += "0" * (-len(bits) % 5)
    values = [int(bits[i:i + 5], 2) for i in range(0, len(bits), 5)]
    gen = (0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)

    def polymod(vs: list[int]) -> int:
        chk = 1
        for v in vs:
            top = chk >> 25
            chk = (chk & 0x1FFFFFF) << 5 ^ v
            for i in range(5):
                chk ^= gen[i] if (top >> i) & 1 else 0
        return chk

    expanded = [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp]
    mod = polymod(expanded + values + [0] * 6) ^ 1
    return hrp + "1" + "".join(charset[v] for v in values + [(mod >> 5 * (5 - i)) & 31 for i in range(6)])


_RNG_BYTES = bytes((i * 73 + 41) % 256 for i in range(64))  # fixed, made here
_NSEC = _bech32("nsec", _RNG_BYTES[:32])
_NPUB = _bech32("npub", _RNG_BYTES[32:])
_AGE = _bech32("age-secret-key-", _RNG_BYTES[:32]).upper()
_ARRAY64 = "[" + ",".join(str(b) for b in bytes((i * 151 + 7) % 256 for i in range(64))) + "]"
_ARRAY32 = "[" + ", ".join(str(b) for b in bytes((i * 89 + 200) % 256 for i in range(32))) + "]"


@pytest.mark.parametrize(("text", "secret"), [
    (f"# .env for the nostr bot\nNOSTR_BOT_KEY={_NSEC}\n", _NSEC),
    (f"二维码识别出来是 {_NSEC.upper()}，先别扫", _NSEC.upper()),
    (f"# created: 2025-03-01T10:00:00+08:00\n# public key: {_bech32('age', _RNG_BYTES[32:])}\n{_AGE}\n", _AGE),
    (f"const payer = Keypair.fromSecretKey(Uint8Array.from({_ARRAY64}));", _ARRAY64),
    (f"// 测试钱包\nlet seed: [u8; 32] = {_ARRAY32};", _ARRAY32),
    ("SECRET_KEY = [\n    " + _ARRAY64[1:-1].replace(",", ",\n    ", 8) + "\n]", _ARRAY64[1:-1].split(",", 9)[-1]),
    ("untrusted comment: signify secret key\nRWRCSwAAAACzJBN2gDP0tOsDR9FqmhcLGc4lD8cPgtQqBvHJsPyGRT2XqKsH9N3Y3eCl"
     "AiZ/ZxVlzSd7tkq3KDsO+OQ3PVoOAyRZ7DxpfbTqtL81Jy4fI8EmKqr/Xs7Y0SBl2YmQ=\n",
     "RWRCSwAAAACzJBN2gDP0tOsDR9FqmhcLGc4lD8cPgtQqBvHJsPyGRT2XqKsH9N3Y3eClAiZ/ZxVlzSd7tkq3KDsO+OQ3PVoOAyRZ7Dxpf"
     "bTqtL81Jy4fI8EmKqr/Xs7Y0SBl2YmQ="),
])
def test_a_private_key_in_its_own_encoding_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    f"我的 nostr 公钥：{_NPUB}，欢迎关注",
    f"nsec 写错一位就对不上校验：{_NSEC[:-1]}{'q' if _NSEC[-1] != 'q' else 'p'}",
    "untrusted comment: signify public key\nRWQ5hY2xGxcfcdK8KDsO+OQ3PVoOAyRZ7DxpfbTqtL81Jy4fI8EmKqr/Xs7Y0SBl2YmQ=\n",
    "期末成绩：[" + ", ".join(str(40 + (i * 37) % 61) for i in range(64)) + "]",
    "JPEG 亮度量化表：[16,11,10,16,24,40,51,61,12,12,14,19,26,58,60,55,14,13,16,24,40,57,69,56,14,17,22,29,51,87,80,62,"
    "18,22,37,56,68,109,103,77,24,35,55,64,81,104,113,92,49,64,78,87,103,121,120,101,72,92,95,98,112,100,103,99]",
    f"SHA-256 摘要（32 字节）：{_ARRAY32}",
    f"Solana 公钥的字节：{_ARRAY32}",
])
def test_public_halves_and_other_arrays_pass(text: str) -> None:
    assert found(text) == []
