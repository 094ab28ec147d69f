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
