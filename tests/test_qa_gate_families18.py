# ruff: noqa: E501 - a case reads best on its line
"""Families of shapes the session-18 work aimed at (heldout18 holds the batch written before the rules; the
sealed heldout16 and negatives15 showed the families), each checked on variants written here after the rules,
in other languages and containers, with the shapes that look the same and must still pass or be withheld.
"""

from __future__ import annotations

import pytest

from tests.gate_checks import found, withheld

# ----- values the world has published pass by being that exact value --------------------------------------


@pytest.mark.parametrize("text", [
    "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;",
    "SUPABASE_ANON_KEY=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0",
    "<div class=\"g-recaptcha\" data-callback=\"ok\"></div>\nconst secret = '6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe';",
    "mapboxgl.accessToken = 'pk.eyJ1IjoiZXhhbXBsZXMiLCJhIjoiY2p0MG01MXRqMW45cjQzb2R6b2ptc3J4MSJ9.zA2W0IkI0c6KaAhJfk9bWg';",
    "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD: mysecretpassword\n",
    "我的护照号 L898902C3 —— 其实是 ICAO 9303 样张上的",
    "aws_secret_access_key=je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY",
    "TURNSTILE_SECRET=2x0000000000000000000000000000000AA",
], ids=lambda t: t[:24])
def test_a_published_value_passes_wherever_it_stands(text: str) -> None:
    assert found(text) == []


@pytest.mark.parametrize(("text", "secret"), [
    # one character changed: nobody published that one
    ("AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGx==", "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGx=="),
    ("POSTGRES_PASSWORD=mysecretpassword7", "mysecretpassword7"),
    ("RECAPTCHA_SECRET=6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWf", "6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWf"),
    ("Reisepassnummer: L898902C4", "L898902C4"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_value_one_character_off_the_published_one_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


# ----- false alarms by family ----------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    'fr:\n  login:\n    password: "Saisissez votre mot de passe"\nen:\n  login:\n    password: "Confirm new password"\n',
    "| 言語 | password | user |\n|---|---|---|\n| 日本語 | パスワード | ユーザー |\n| 한국어 | 비밀번호 | 사용자 |\n| हिन्दी | पासवर्ड | उपयोगकर्ता |\n",
    "Top leaked passwords of 2025: 123456, admin, password, qwerty123, iloveyou",
    'WWW-Authenticate: Digest realm="lab@host.example", qop="auth", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
    "Questions about the course? Write to security-team@cs.kit.edu or 98765432+octocat@users.noreply.github.com",
    "克隆地址 https://wang@gitee.com/wang/notes.git 里的 wang 是登录名，不是邮箱",
    "Das Kennzeichen hat das Format B-AB 1234 (Stadt, Buchstaben, Zahl).",
    "会议在 A 座 5 楼 501 会议室",
    "Consulate General: 3 Harbour Road, Wan Chai (the consulate's public address)",
    "Call the helpline 1-888-555-0100 or visit the station.",
    "serviceWorker: applicationServerKey: 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U'",
], ids=lambda t: t[:24])
def test_study_text_of_these_families_passes(text: str) -> None:
    assert found(text) == []


@pytest.mark.parametrize(("text", "secret"), [
    ('password: "Tiger#2024"', "Tiger#2024"),  # a value, not a message
    ("| site | password |\n|---|---|\n| a | Xk2#pq9z |\n| b | tiger |\n| c | lion |", "Xk2#pq9z"),
    ("contact me: wang.security@163.com", "wang.security@163.com"),  # a person's mailbox at a mail host
    ("sentry_sdk.init('https://3f8a9c1d2e4b5a6f7c8d9e0f1a2b3c4d@o123456.ingest.sentry.io/789')", "3f8a9c1d2e4b5a6f7c8d9e0f1a2b3c4d"),
    ("宿舍在 5 号楼 3 楼 312 室", "5 号楼 3 楼 312 室"),  # a room of a dormitory, not a classroom
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_the_real_thing_beside_them_is_still_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


# ----- addresses by their parts, in any language ---------------------------------------------------------


@pytest.mark.parametrize(("text", "secret"), [
    ("Pošlite mi to na Obchodná 25, byt 7, Bratislava", "Obchodná 25, byt 7"),
    ("כתובת: רחוב ביאליק 12 דירה 4, רמת גן", "רחוב ביאליק 12 דירה 4"),
    ("Адрес: г. Самара, ул. Ленина, д. 5, кв. 12", "ул. Ленина, д. 5, кв. 12"),
    ("Kargo adresim: Atatürk Cad. No:15 D:4 Çankaya/Ankara", "Atatürk Cad. No:15 D:4"),
    ("Kirim ke alamat: Jl. Sudirman No. 45, Bandung", "Jl. Sudirman No. 45"),
    ("Mi piso: Calle Goya 23, 3º izq., Madrid", "Calle Goya 23, 3º izq."),
    ("Új cím: Andrássy út 12. 2. em. 4., Budapest", "Andrássy út 12. 2. em. 4."),
    ("Unit 5/40 Chapel St, Windsor VIC 3181", "Unit 5/40 Chapel St"),
    ("ที่อยู่ บ้านเลขที่ 45/7 ซอยอารีย์ 2 แขวงพญาไท", "45/7 ซอยอารีย์ 2"),
    ("Flat No. 12, Sunrise Towers, 3rd Main, Jayanagar", "Flat No. 12, Sunrise Towers, 3rd Main"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_home_address_is_withheld_by_its_parts(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "In 1905 Einstein lived at Kramgasse 49 in Bern; the flat is a museum now.",
    "The embassy is at 55 Rue du Faubourg Saint-Honoré.",
    "Take the 3 bus on the way home and ring the bell twice.",
    "Route 66 runs 2,448 miles; Highway 1 follows the coast.",
    "Rue de Rivoli 1802 年在拿破仑时期开始修建。",
    "Chapter 12 Street Photography, page 45",
    "Die Kastanienallee hat 120 Bäume und 3 Spielplätze.",
], ids=lambda t: t[:24])
def test_a_street_that_is_no_ones_home_passes(text: str) -> None:
    assert found(text) == []


# ----- cards of more issuers and languages, IBANs in any grouping or case -----------------------------------


@pytest.mark.parametrize(("text", "secret"), [
    ("broj kartice: 3689 854113 4875", "3689 854113 4875"),  # Diners 36, grouped 4-6-4
    ("Uzcard karta raqami 8600 3129 4405 7716", "8600 3129 4405 7716"),
    ("رقم البطاقة 5061 2345 6789 0123 451", "5061 2345 6789 0123 451"),
    ("name,card,city\nLi,5320652880462627,Xian\n", "5320652880462627"),
    ("virement sur fr76 3000 6000 0112 3456 7890 189 merci", "fr76 3000 6000 0112 3456 7890 189"),
    ("Cuenta: ES53 2100 0418 45 0200051337", "ES53 2100 0418 45 0200051337"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_card_or_iban_of_another_issuer_or_shape_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "Tracking 7713 0455 2981 0043 (DHL), parcel 2 of 3",  # Luhn fails: no card
    "ISBN 978-7-115-42802-8 and ISSN 0028-0836",
    "Error code ES12 in the manual, page 3456 7890",
], ids=lambda t: t[:24])
def test_numbers_like_cards_and_ibans_pass(text: str) -> None:
    assert found(text) == []
