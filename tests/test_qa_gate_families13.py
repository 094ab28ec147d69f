"""Families the session-13 work closed, found in the misses of the sealed batches heldout10 and heldout11
(wired into tests/test_qa_gate.py): each family is checked on variants written here in several languages
and containers, with hard negatives that look the same and must pass.
"""

from __future__ import annotations

import json

import pytest
from gate_checks import found, withheld

# ----- the words for a password or a secret key in more languages, wherever the label stands ---------
# (heldout11: Indonesian "kata sandi" in a chat export, Thai รหัสผ่าน, Greek κωδικός; French "Clé secrète",
# Russian "Ключ доступа (токен)"; heldout10: Vietnamese, Arabic, a Turkish CSV, Korean, Spanish)

_LABELLED = [
    ("[20.14] Dewi: akun kelas Mandarin\n[20.15] Dewi: kata sandi: Rkq7mzw41?\n[20.16] 我: terima kasih",
     "Rkq7mzw41?"),
    ("Akaun portal pelajar\nnama pengguna: a19230\nkata laluan: Mdyq82!pak", "Mdyq82!pak"),
    ("ระบบลงทะเบียนเรียน\nชื่อผู้ใช้: 6403122\nรหัสผ่าน: qwpz4418kt", "qwpz4418kt"),
    ("e-class\nόνομα χρήστη: ioannis\nκωδικός πρόσβασης: Tpz88wqe!", "Tpz88wqe!"),
    ("Μαθήματα: Δευτέρα\nκωδικός: Lmz72#trq", "Lmz72#trq"),
    ("[09:12] Lan: wifi tầng 2\n[09:12] Lan: mật khẩu: Hk93@zqpw", "Hk93@zqpw"),
    ("حساب الجامعة\nكلمة السر: Qz81!kdmv", "Qz81!kdmv"),
    ('{"kullanıcı": "ayse.k", "şifre": "p4Rz!m8kd"}', "p4Rz!m8kd"),
    ("hizmet;kullanıcı adı;parola\nokul;ayse.k;Wq8z#mnt3", "Wq8z#mnt3"),
    ("Användare: erik.l\nLösenord: Brx84!qmz", "Brx84!qmz"),
    ("Tunnus: mattiv\nSalasana: Kx7pwq!29", "Kx7pwq!29"),
    ("Přihlášení do ISu\nheslo: Vz73kpq!w", "Vz73kpq!w"),
    ("Neptun\nJelszó: Rk82mzq#t", "Rk82mzq#t"),
    ("משתמש: dana\nסיסמה: Pq72!xwmz", "Pq72!xwmz"),
    ("पोर्टल\nपासवर्ड: Ghq81!mzw", "Ghq81!mzw"),
    ("OVH — projet « vocab »\nClé d'application : 7kZqW2mXpR4tYv9B\nClé secrète : m2Xk9QvR7tWz4pLs8NbY3cDf",
     "m2Xk9QvR7tWz4pLs8NbY3cDf"),
    ("Clé API (production) : Xk29mQpZt7Lw4vRb8NcY", "Xk29mQpZt7Lw4vRb8NcY"),
    ("- Ключ доступа (токен): `t8Kq2mZxW4pRv7YbN3cLd9Fs`\n- Права: сообщения", "t8Kq2mZxW4pRv7YbN3cLd9Fs"),
    ("секретный ключ = 'Zp7Qm2xKw9RtV4bY8nLc'", "Zp7Qm2xKw9RtV4bY8nLc"),
    ("API-ключ: AQVN2kZq8mXpW4tR7vYb-Lc9Fs3dH", "AQVN2kZq8mXpW4tR7vYb-Lc9Fs3dH"),
    ("Mercado Pago\nclave de acceso (producción): APP_USR-7726153392811-0f3c9a1b2d4e5f60718293a4b5c6d7e8",
     "APP_USR-7726153392811-0f3c9a1b2d4e5f60718293a4b5c6d7e8"),
    ("Chave de acesso: qZ8mX2kW9pR4tV7bY3nL", "qZ8mX2kW9pR4tV7bY3nL"),
    ("chiave segreta: Wm8Zq2Xk7pR4vT9bN3yL", "Wm8Zq2Xk7pR4vT9bN3yL"),
    ("Geheimer Schlüssel: Rk7Zq2mX9wP4tV8bY3nL", "Rk7Zq2mX9wP4tV8bY3nL"),
    ("네이버 클라우드\n액세스 키 ID: Q7mZ2kX9pW4tR8vY3bNc\n시크릿 키: mK8qZ2xW9pR4tV7bY3nLc5Fd", "mK8qZ2xW9pR4tV7bY3nLc5Fd"),
    (json.dumps({"설정": {"API 키": "zQ8mK2xW9pR4tV7bY3nL"}}, ensure_ascii=False), "zQ8mK2xW9pR4tV7bY3nL"),
    ("| 服务 | Clé secrète |\n|---|---|\n| OVH | Qm7Zk2xW9pR4tV8bY3nL |", "Qm7Zk2xW9pR4tV8bY3nL"),
    # a password whose last character is a full stop's neighbour: ! ? . stay part of it when quoted
    ('do shell script "x" user name "lin" password "Yq82mzkp!" with administrator privileges', "Yq82mzkp!"),
    ("the password is `Harbin2007?`, keep it", "Harbin2007?"),
]


@pytest.mark.parametrize(("text", "secret"), _LABELLED)
def test_a_password_or_key_under_a_label_in_another_language_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    # The same words for a code, a rule or a public half: a careful person sends these.
    "κωδικός μαθήματος: ΠΛΗ10, κωδικός προϊόντος: AB12345",
    "รหัสวิชา: CS1012 (รหัส = code)",
    "Sandi morse: SOS = ...---...",
    "Şifre en az 8 karakter olmalı ve bir rakam içermeli.",
    "Parola chiave: Java8, parola del giorno: ciao",
    "clé publique : MCowBQYDK2VwAyEAq8mZ2xW9pR4tV7bY3nLc5Fd2kQ7mZ=",
    "Clé d'accès : voir le fichier config.yaml",
    "Ключ API можно получить в личном кабинете, токен действует 12 часов.",
    "токен: 'кошка', лемма: 'кошка', часть речи: NOUN",
    "Clave de acceso de la factura: 0612202401179001234500110010010000000011234567813",
    "공개 키: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKq8mZ2xW9pR4tV7bY3nLc5Fd2kQ7mZxW9pR4tV7b",
    "lösenordet måste vara minst 12 tecken; salasana vaihdetaan 90 päivän välein",
    "The password must end with ! or ? to be accepted.",
])
def test_the_same_words_for_codes_rules_or_public_halves_pass(text: str) -> None:
    assert found(text) == []


# ----- a BIP39 phrase written another way: joined by hyphens or 、, run together, cut to four letters,
# as word numbers, as a SeedQR digit string (heldout11: Ledger "seed: cushion-inhale-…", imToken 以、薯、…,
# SeedSigner's 48 digits, 1-based numbers; heldout10: 辟跑滩…, a steel plate's "01 BUBB 02 THEO …") -----

def _indexes(seed: int, words: int = 12) -> list[int]:
    """A valid phrase's word numbers (0-based), built from seeded entropy as wallets build them."""
    import hashlib
    import random

    ent = random.Random(seed).randbytes(words * 4 // 3)
    bits = "".join(f"{b:08b}" for b in ent) + f"{hashlib.sha256(ent).digest()[0]:08b}"[:words // 3]
    return [int(bits[i:i + 11], 2) for i in range(0, len(bits), 11)]


def _en(seed: int, words: int = 12) -> list[str]:
    from desktop_kb.qa.detectors.bip39_words import ENGLISH

    table = ENGLISH.split()
    return [table[i] for i in _indexes(seed, words)]


def _zh(seed: int, words: int = 12) -> list[str]:
    from desktop_kb.qa.detectors.bip39_words import CHINESE_SIMPLIFIED

    return [CHINESE_SIMPLIFIED[i] for i in _indexes(seed, words)]


_FORMS = [
    ("Ledger 备份（抄在 KeePass 备注里）\nseed: " + "-".join(_en(1)), "-".join(_en(1))),
    ("KeePass entry 'old wallet'\nNotes: " + "-".join(_en(2, 24)), "-".join(_en(2, 24))),  # no word for a phrase
    ('{"title": "wallet", "notes": "' + "_".join(_en(3)) + '"}', "_".join(_en(3))),
    ("微信收藏：imToken 助记词 " + "、".join(_zh(4)) + "（按顺序）", "、".join(_zh(4))),
    ("备份：" + "，".join(_zh(5, 15)), "，".join(_zh(5, 15))),  # commas, no label: the checksum says it
    ("imToken 助记词（测试钱包）：" + "".join(_zh(6)) + "\n抄在本子第一页了", "".join(_zh(6))),
    ("钱包助记词是" + "".join(_zh(7, 24)) + "，别发给别人", "".join(_zh(7, 24))),
    ("钢板备份拍照识别：\n" + "  ".join(f"{i + 1:02d} {w[:4].upper()}" for i, w in enumerate(_en(8)[:6])) + "\n"
     + "  ".join(f"{i + 7:02d} {w[:4].upper()}" for i, w in enumerate(_en(8)[6:])),
     [f"{w[:4].upper()}" for w in _en(8)]),
    ("seed words (first four letters): " + " ".join(w[:4] for w in _en(9)), " ".join(w[:4] for w in _en(9))),
    ("助记词我只记了在 BIP39 英文词表里的编号（1 开始）：\n" + ", ".join(str(i + 1) for i in _indexes(10)),
     ", ".join(str(i + 1) for i in _indexes(10))),
    ('{"mnemonic_indexes": [' + ", ".join(str(i) for i in _indexes(11)) + "]}",
     ", ".join(str(i) for i in _indexes(11))),
    ("Recovery words as numbers:\n" + "\n".join(f"{n + 1}. {i + 1}" for n, i in enumerate(_indexes(12))),
     "\n".join(f"{n + 1}. {i + 1}" for n, i in enumerate(_indexes(12))).split(" ", 1)[1]),  # (not the first "1.")
    ("SeedSigner 做的 SeedQR，扫出来是这串数字：\n" + "".join(f"{i:04d}" for i in _indexes(13)) + "\n纸放在抽屉里",
     "".join(f"{i:04d}" for i in _indexes(13))),
    ("qr: " + "".join(f"{i:04d}" for i in _indexes(14, 24)), "".join(f"{i:04d}" for i in _indexes(14, 24))),
]


@pytest.mark.parametrize(("text", "secret"), _FORMS)
def test_a_recovery_phrase_written_another_way_is_withheld(text: str, secret: str | list[str]) -> None:
    for s in [secret] if isinstance(secret, str) else secret:
        assert withheld(text, s), (s, found(text))


@pytest.mark.parametrize("text", [
    # Numbers, digit runs and characters that a phrase could be written as, without its checksum or its word.
    "鸦片战争以来的年份：1840, 1842, 1856, 1860, 1884, 1894, 1895, 1898, 1900, 1901, 1911, 1912",
    "π ≈ 3.141592653589793238462643383279502884197169399375105820974944",
    "订单号 202412051234567890123456789012345678901234567890",
    "地支：子、丑、寅、卯、辰、巳、午、未、申、酉、戌、亥；天干：甲、乙、丙、丁、戊、己、庚、辛、壬、癸",
    "助记词：一组用来恢复钱包的单词，务必离线保存，不要截图发给任何人。",
    "助记词的编号从 1 到 2048，每个词对应 11 位。",
    "Protocols: JSON HTTP HTML CODE TEST DATA FILE PORT HOST USER ROOT NODE",
    "state-of-the-art, up-to-date, one-to-one and end-to-end are compound adjectives",
])
def test_numbers_and_runs_that_are_not_a_phrase_pass(text: str) -> None:
    assert found(text) == []


# ----- a secret on a command line, after the flag its tool reads one from, or passed by position to a
# call that takes one (heldout11: keytool -storepass/-keypass, ldapsearch -w, openssl passwd, nuget -k,
# b2 account authorize, zk addauth digest, pymssql.connect, new Sequelize, NetworkCredential, ts.set_token;
# heldout10: gsql -W, obclient -p…, 7z -p…, zip -P, disql, username_pw_set) ---------------------------

_COMMANDS = [
    ("keytool -genkeypair -keystore app.jks -alias up -storepass Qm82kzpw -keypass Zt71xqwe -validity 9999",
     ["Qm82kzpw", "Zt71xqwe"]),
    ("jarsigner -keystore my.jks -storepass 'Kp3#vmz81' app.apk upload", ["Kp3#vmz81"]),
    ("apksigner sign --ks release.jks --ks-pass pass:Wq83mzk2 --key-pass pass:Lr62pzx9 app.apk",
     ["Wq83mzk2", "Lr62pzx9"]),
    ('ldapmodify -x -H ldap://10.0.0.5 -D "cn=admin,dc=lab" -w Gx84!mqz -f add.ldif', ["Gx84!mqz"]),
    ("[omm@db1 ~]$ gsql -d postgres -p 26000 -U omm -W 'Gauss@2471' -r", ["Gauss@2471"]),
    ("obclient -h10.2.0.8 -P2881 -uadmin@tenant -pKz82mqXw -A", ["Kz82mqXw"]),
    ("$ 7z a -t7z -mhe=on -pVq7$mz82 backup.7z ./thesis", ["Vq7$mz82"]),
    ("7za x -pHq81zmw3 old.7z", ["Hq81zmw3"]),
    ("zip -r -P 'Xm9%kq27' /mnt/usb/notes.zip .", ["Xm9%kq27"]),
    ("unzip -P Rz82kwq5 slides.zip", ["Rz82kwq5"]),
    ("rar a -hpLm72qz!k secret.rar docs/", ["Lm72qz!k"]),
    ('useradd -m -p "$(openssl passwd -6 \'Jq72wmz!\')" lab', ["Jq72wmz!"]),
    ("openssl pkcs12 -export -in c.pem -inkey k.pem -out c.p12 -passout pass:Tq82zmw7", ["Tq82zmw7"]),
    ("openssl enc -aes-256-cbc -salt -in a.txt -out a.enc -k Pz73kqw9", ["Pz73kqw9"]),
    ("PS> dotnet nuget push pkg.nupkg -k oy2kz7qmw3xp8vbtn4lr9dfh6sjc2e5gyuaw1qz8mxk3v -s https://api.nuget.org/v3/index.json",
     ["oy2kz7qmw3xp8vbtn4lr9dfh6sjc2e5gyuaw1qz8mxk3v"]),
    ("sqlcmd -S 10.1.1.5 -U sa -P 'Mq82!zkw' -d Grades", ["Mq82!zkw"]),
    ("smbclient //nas/share -U lin%Wz83kqm2", ["Wz83kqm2"]),
    ("$ b2 account authorize 004a1b2c3d4e5f60000000003 K004Zq8mX2kW9pR4tV7bY3nLc5Fd2kQ", ["K004Zq8mX2kW9pR4tV7bY3nLc5Fd2kQ"]),
    ("[zk: localhost:2181(CONNECTED) 0] addauth digest kafka:Rq72mzkX9w", ["Rq72mzkX9w"]),
    ("$ ./disql SYSDBA/'\"Dm82#kqz\"'@localhost:5236", ["Dm82#kqz"]),
    ("$pw = ConvertTo-SecureString 'Hz81!qmw' -AsPlainText -Force", ["Hz81!qmw"]),
    ("echo 'stu01:3w0%BYfP8' | sudo chpasswd\necho 'stu02:Dzt$pnCj1' | sudo chpasswd", ["3w0%BYfP8", "Dzt$pnCj1"]),
    # by position, to a call that takes one
    ("conn = pymssql.connect('10.20.1.15', 'report_ro', 'Kq82mzXw', 'JWXT')", ["Kq82mzXw"]),
    ("const s = new Sequelize('notes', 'notes_app', 'Wm72kqZ8', { dialect: 'postgres' });", ["Wm72kqZ8"]),
    ('Credentials = new NetworkCredential("lab-notify", "Pz82mqkw7")', ["Pz82mqkw7"]),
    ('client.username_pw_set("dorm305", "Qz82kmXw")', ["Qz82kmXw"]),
    ('new UsernamePasswordCredentials("svc", "Lk72mzq!w")', ["Lk72mzq!w"]),
    ("ts.set_token('b7e24a0f19c3d5e6a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7')",
     ["b7e24a0f19c3d5e6a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7"]),
    ('api.setApiKey("Zq8mK2xW9pR4tV7bY3nLc5Fd");', ["Zq8mK2xW9pR4tV7bY3nLc5Fd"]),
]


@pytest.mark.parametrize(("text", "secrets"), _COMMANDS)
def test_a_secret_after_its_tools_flag_or_in_its_calls_place_is_withheld(text: str, secrets: list[str]) -> None:
    for s in secrets:
        assert withheld(text, s), (s, found(text))


@pytest.mark.parametrize("text", [
    # The flags without a value, with a variable, a placeholder or a prompt; the tools' public defaults.
    "7z a -r archive.7z ./docs && zip -r out.zip .",
    "zip -P <password> out.zip files  # 用法",
    "unzip -P $ZIP_PASS archive.zip",
    "ldapsearch -w 参数后跟密码，建议用 -W 交互输入",
    "openssl passwd -6 -stdin < pw.txt",
    "keytool -list -keystore $JAVA_HOME/lib/security/cacerts -storepass changeit",
    "gsql -d postgres -p 26000 -U omm -W -r",
    "obclient -h127.0.0.1 -P2881 -uroot@sys -Doceanbase -A",
    "sqlcmd -S . -E -Q \"SELECT @@VERSION\"",
    "ts.set_token(os.environ['TS_TOKEN'])",
    "creds = new NetworkCredential(user, password);",
    "const s = new Sequelize('sqlite::memory:');",
    "client.username_pw_set(username, password=None)",
    "echo 'user:password' | sudo chpasswd  # 示例：把 password 换成真实密码",
    # bench_gate_grid.py --templates heldout2 puts study values in ConvertTo-SecureString: not passwords
    "$id = ConvertTo-SecureString 'f2bd69f8-12b7-4819-a504-7fb24e814910' -AsPlainText -Force",
    '$className = ConvertTo-SecureString "ManagerSingletonProxyLoaderToken" -AsPlainText -Force',
    "$isbn = ConvertTo-SecureString '978-7-0148-1062-7' -AsPlainText -Force",
])
def test_flags_and_calls_without_a_secret_pass(text: str) -> None:
    assert found(text) == []


# ----- national ID numbers of more countries, under their words, judged by their own checks (heldout11:
# a T.C. Kimlik number in an Erasmus form, a Swedish personnummer in an SFI sign-up) ----------------------

@pytest.mark.parametrize(("text", "secret"), [
    ("Başvuru formu\nAdı Soyadı: Elif Yılmaz\nT.C. Kimlik No: 38712055438", "38712055438"),
    ('{"ad": "Mehmet", "tckn": "12345678950"}', "12345678950"),
    ("Svenska för invandrare\nPersonnummer: 850709-2388", "850709-2388"),
    ("namn,personnr,kurs\nErik,19021109-1830,SFI B", "19021109-1830"),
    ("Skattemelding — fødselsnummer 15088545610", "15088545610"),
    # (131052-308T, DVV's published example, passes since session 19: another valid one)
    ("Kela-hakemus\nHenkilötunnus: 120464-126J", "120464-126J"),
    ("hetu 050603A214R (vaihto-opiskelija)", "050603A214R"),
    ("Rijksregisternummer: 85.07.30-033.28", "85.07.30-033.28"),
    ("Numéro national : 03.05.12-217.35", "03.05.12-217.35"),
    ("Número de contribuinte (NIF): 234567899", "234567899"),
    ("Cod numeric personal (CNP): 1970512450115", "1970512450115"),
])
def test_a_national_id_number_of_another_country_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    # The same words with numbers that fail their check, and checked shapes without the word.
    "T.C. Kimlik No: 12345678901 (örnek, geçersiz)",
    "Personnummer: 850709-2389 är ett exempel med fel kontrollsiffra",
    "Henkilötunnus muodostuu syntymäajasta, välimerkistä, yksilönumerosta ja tarkistusmerkistä.",
    "Ordernummer 38712055438, leverans 850709-2388 dagar",
    "Rijksregisternummer: 11 cijfers, de laatste twee zijn een controlegetal (97-modulo).",
])
def test_id_words_without_a_checked_number_pass(text: str) -> None:
    assert found(text) == []


# ----- a value spelled in escape sequences: JSON written with ASCII only, a "hidden" key in JavaScript
# (heldout10: "certNo": "\u0032\u0031…", "mobile": "\u0031\u0033…", "contact": "…\u0040qq.com", _0x3f1a = "\x41\x49…")

def _u(s: str) -> str:
    return "".join(f"\\u{ord(c):04x}" for c in s)


@pytest.mark.parametrize(("text", "secret"), [
    ('{"name": "\\u5f20\\u4f1f", "certNo": "' + _u("11010519491231002X") + '"}', _u("11010519491231002X")),
    (_u("11010519491231002X") + " 是我的身份证号", _u("11010519491231002X")),  # the escapes at the very start
    ('{"code": 0, "data": {"mobile": "' + _u("13812345678") + '"}}', _u("13812345678")),
    ('{"\\u624b\\u673a": "13912345678"}', "13912345678"),  # the label escaped, the number plain
    ('{"contact": "ohhpgl029\\u0040qq.com"}', "ohhpgl029\\u0040qq.com"),
    ('{"\\u5bc6\\u7801": "' + _u("Tz8!kw3Lm") + '"}', _u("Tz8!kw3Lm")),
    ('const k = "' + "".join(f"\\x{ord(c):02x}" for c in "AIzaSyB3k9Qm2xW7pR4tV8bY3nLc5Fd2kQ7mZxW") + '";',
     "".join(f"\\x{ord(c):02x}" for c in "AIzaSyB3k9Qm2xW7pR4tV8bY3nLc5Fd2kQ7mZxW")),
    ("card = '\\u0036\\u0032\\u0032\\u0038\\u0034\\u0038\\u0030\\u0030\\u0032\\u0033\\u0039\\u0035\\u0036\\u0034\\u0030\\u0039'",
     "\\u0036\\u0032\\u0032\\u0038\\u0034\\u0038\\u0030\\u0030\\u0032\\u0033\\u0039\\u0035\\u0036\\u0034\\u0030\\u0039"),
    ('{"addr": "' + _u("北京市海淀区中关村南大街5号院3号楼2单元1101室") + '", "收件人": "\\u6797\\u6653"}',
     _u("中关村南大街5号院3号楼2单元1101室")),
])
def test_a_value_spelled_in_escapes_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize(("text", "secret"), [
    # JSON kept as a string inside JSON or a log line (heldout11: a request body logged, a tool's config)
    ('{"level": "debug", "body": "{\\"event\\": \\"login\\", \\"password\\": \\"Gq72!mzkw\\"}"}', "Gq72!mzkw"),
    ('{"config": "{\\"web_search\\": {\\"brave_search_api_key\\": \\"BSAq8mZ2xW9pR4tV7bY3nLc5Fd2\\"}}"}',
     "BSAq8mZ2xW9pR4tV7bY3nLc5Fd2"),
    ('log.info("payload=%s", "{\\"phone\\": \\"13812345678\\"}")', "13812345678"),
])
def test_a_value_in_json_kept_as_a_string_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    '{"title": "\\u5b66\\u4e60\\u7b14\\u8bb0", "count": 12, "tags": ["\\u6570\\u5b66"]}',
    'print("\\x48\\x65\\x6c\\x6c\\x6f")  # Hello',
    'JSON 转义：\\u0041 是 A，\\u4e2d 是 中，手机号要写成 \\u6570\\u5b57',
    r"regex: \x41-\x5a matches A-Z; \u00e9 is é",
    '{"msg": "{\\"event\\": \\"login\\", \\"user\\": \\"wl\\", \\"ok\\": true}"}',
])
def test_escapes_of_ordinary_text_pass(text: str) -> None:
    assert found(text) == []


# ----- a car's plate of another region under the word for it, and Singapore's by its check letter
# (heldout11: Kennzeichen, Immatriculation, Placa, 室友的车 SDU3046R; heldout10: 차량번호, госномер, matrícula) -

@pytest.mark.parametrize(("text", "secret"), [
    ("Parkausweis (柏林宿舍停车证)\nKennzeichen: B-XG 4849\nGültig bis 31.03.2025", "B-XG 4849"),
    ('{"fahrzeug": "Golf", "kennzeichen": "M-AB 1234"}', "M-AB 1234"),
    ("Covoiturage Lyon → Grenoble\nImmatriculation : KB-167-ZS\nRDV 8h", "KB-167-ZS"),
    ("Carro do host\nPlaca: IYY3R54\nModelo: Onix prata", "IYY3R54"),
    ("nome,placa,vaga\nJoão,ABC1D23,12", "ABC1D23"),
    ("Aparcamiento de la residencia\nmatrícula: 0847 GJN\nSeat Ibiza gris", "0847 GJN"),
    ("Parcheggio: targa AB 123 CD (Fiat Panda)", "AB 123 CD"),
    ("Parkeervergunning — kenteken: G-123-BB", "G-123-BB"),
    ("Пропуск на парковку\nгосномер: Н821ММ197\nмарка: Lada Vesta", "Н821ММ197"),
    ("주차 등록 신청\n차량번호: 210거 9345\n차종: 아반떼", "210거 9345"),
    ("新加坡交换：室友的车 SDU3046R，周末去 Jurong 可以蹭车", "SDU3046R"),
])
def test_a_plate_of_another_region_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "Placa de vídeo: RTX3060, placa-mãe: B550M",
    "Matrícula: A01234567 (número de alumno del Tec)",
    "targa: 2020, kenteken: onbekend",
    "Kennzeichen der Funktion: f(x) = x2 + 3",
    "госномер — это регистрационный знак автомобиля",
    "Immatriculation : à faire en préfecture",
    "商品编号 SDU3046R，库存 12 件",
    "SKU: SBA1234K (a cable, not a car)",
])
def test_plate_words_without_a_plate_pass(text: str) -> None:
    assert found(text) == []


# ----- a mobile number of another country under the word for it, in that country's own shape (heldout11:
# "portable : 06 44 98 31 44", "mob: 07940 506696", a second number in a list; heldout10: 휴대폰 010-…) -------

@pytest.mark.parametrize(("text", "secret"), [
    ("Correspondante à Lyon : Camille\nportable : 06 44 98 31 44", "06 44 98 31 44"),
    ("--\nOliver Hughes\nMSc Applied Linguistics\nmob: 07940 506696", "07940 506696"),
    ("어학연수 비상연락처\n본인 휴대폰: 010-0720-0798", "010-0720-0798"),
    ("Tandempartner: Jonas, Handy: 0157 23456789", "0157 23456789"),
    ("Intercambio — celular: (11) 98765-4321", "(11) 98765-4321"),
    ("móvil: 612 345 678 (WhatsApp)", "612 345 678"),
    ("Контакты: Анна, телефон: +7 916 123-45-67", "+7 916 123-45-67"),
    ("携帯電話: 090-1234-5678", "090-1234-5678"),
    ('{"whatsapp": "+44 7700 912345"}', "+44 7700 912345"),
    ("phone_numbers='18769904030,17725435454'", "17725435454"),
])
def test_a_mobile_number_of_another_country_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "Le portable : 12 % des ventes en 2023",
    "Handy: Samsung Galaxy S23, 256 GB",
    "celular: 2024 (modelo), batería 5000 mAh",
    "mob: 3 (number of mobs in the level)",
    "телефон: 2 шт., цена 15 000 руб.",
    "portable: 1920 x 1080 pixels",
])
def test_phone_words_without_a_mobile_number_pass(text: str) -> None:
    assert found(text) == []


# ----- session cookies in the files and flags that carry them: a Netscape cookies.txt (yt-dlp, curl -c),
# curl/sqlmap --cookie="…" (heldout11: __Secure-3PSID in cookies.txt, PHPSESSID after --cookie=) ---------

@pytest.mark.parametrize(("text", "secret"), [
    ("# Netscape HTTP Cookie File\n.youtube.com\tTRUE\t/\tTRUE\t1767225600\t__Secure-3PSID\tzPZpBOzwgS00GGH0yp-AhX1z4AB.",
     "zPZpBOzwgS00GGH0yp-AhX1z4AB."),
    ("# 导出给 yt-dlp 用\n.bilibili.com\tTRUE\t/\tFALSE\t1767225600\tSESSDATA\t3f8a1c2e%2C1767225600%2Cb71d2*c1",
     "3f8a1c2e%2C1767225600%2Cb71d2*c1"),
    ("#HttpOnly_.zhihu.com\tTRUE\t/\tTRUE\t1767225600\tz_c0\t2|1:0|10:1733400000|4:z_c0|92:Mi4xQ2xBcUFB",
     "2|1:0|10:1733400000|4:z_c0|92:Mi4xQ2xBcUFB"),
    ('sqlmap -u "http://10.10.3.7/item.php?id=1" --cookie="PHPSESSID=cizcf57dg9e0gb8k17y3jpyd0r; lang=zh" --batch',
     "cizcf57dg9e0gb8k17y3jpyd0r"),
    ("curl --cookie='JSESSIONID=8F3A2B1C9D0E7F6A5B4C3D2E1F0A9B8C' https://lab.local/api", "8F3A2B1C9D0E7F6A5B4C3D2E1F0A9B8C"),
    ("wget --header='Cookie: sid=q8mZ2xW9pR4tV7bY3nLc' https://lab.local/file", "q8mZ2xW9pR4tV7bY3nLc"),
])
def test_a_session_cookie_in_a_cookie_file_or_flag_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "# Netscape HTTP Cookie File\n.example.com\tTRUE\t/\tFALSE\t1767225600\tlang\tzh-CN\n"
    ".example.com\tTRUE\t/\tFALSE\t1767225600\ttheme\tdark",
    'curl --cookie="lang=zh-CN; theme=dark" https://example.com',
    "yt-dlp --cookies cookies.txt URL  # cookies.txt 用浏览器扩展导出",
])
def test_cookies_that_identify_no_session_pass(text: str) -> None:
    assert found(text) == []


# ----- a column of a table aligned with spaces (OCR of a screenshot or a sticker, a terminal's output):
# the header names the value under it, by display column (heldout11: 用户名/密码 on a router sticker,
# Access Key ID / Secret Access Key in a console screenshot, 护照号/Passport No. on a passport page) -------

@pytest.mark.parametrize(("text", "secret"), [
    ("[图片文字识别] 路由器底部贴纸\n\n用户名        密码\nadmin         Cguuke@3797\nMAC 3C-2C-8B-A1-0F-22", "Cguuke@3797"),
    ("Access Key ID                     Secret Access Key                 状态\n"
     "09606fdda641b6a4a5a53f432776311d  342ff44e121c1d89f7eea008b9cc4c46  启用", "342ff44e121c1d89f7eea008b9cc4c46"),
    ("类型/Type  国家码/Country Code  护照号/Passport No.\nP          CHN                 E47870856", "E47870856"),
    ("NAME        USER      PASSWORD       HOST\nlab-db      root      Wq82!mzkx      10.0.0.5", "Wq82!mzkx"),
    ("账号            口令\nstu2021001      Lm72#qzkw\nstu2021002      Pz81!wqmk", "Pz81!wqmk"),
    ("Nom         Téléphone portable\nCamille     06 44 98 31 44", "06 44 98 31 44"),
    ("服务      Token                              到期\nGitHub    ghp_Zq8mK2xW9pR4tV7bY3nLc5Fd2kQ7mZxW9pR4   2025-06",
     "ghp_Zq8mK2xW9pR4tV7bY3nLc5Fd2kQ7mZxW9pR4"),
    ("Kontonummer      Kennwort\n12345678         Hx72!pqzw", "Hx72!pqzw"),
])
def test_a_value_in_a_space_aligned_table_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "课程          密码学          周三\n张老师        王老师          李老师",
    "用户名        密码\nadmin         ********",
    "NAME        READY   STATUS    RESTARTS   AGE\nweb-7d9f    1/1     Running   0          3d",
    "Password policy      Minimum length      Expires\nstrict               12                  90 days",
])
def test_space_aligned_tables_without_a_secret_pass(text: str) -> None:
    assert found(text) == []
