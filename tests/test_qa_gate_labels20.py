# ruff: noqa: E501 - a case reads best on its line
"""Identifiers named by their label in any language (session 20: desktop_kb/qa/detectors/id_labels.py).

heldout24 holds the batch generated before the rule and heldout25 the one kept unread; the cases here are
variants written after the rule, in languages and countries neither batch has, with the shapes that look
the same and must pass: counts and formats after the same words, masked numbers, years, boards and patents.
"""

from __future__ import annotations

import pytest

from tests.gate_checks import found, withheld


@pytest.mark.parametrize(("text", "secret"), [
    ("Numer dowodu osobistego: AXB 482913 (do umowy najmu)", "AXB 482913"),
    ("Mã số căn cước công dân của mình: 038095004172", "038095004172"),
    ("Személyi igazolvány száma: 482913AB — a kollégiumhoz", "482913AB"),
    ("Nimero y'indangamuntu ya mama: 1 1968 7 0045821 0 44", "1 1968 7 0045821 0 44"),
    ("Asmens kodas 39107150273, prašau neplatinti", "39107150273"),
    ("Cartão de Cidadão 14829371 4 ZX7 (renovar em março)", "14829371 4 ZX7"),
    ("كد ملی ندارم؛ رقم الهوية: 784-1990-4821937-2", "784-1990-4821937-2"),
    ("Reisepass: C4J7K9L2M, ausgestellt in Köln", "C4J7K9L2M"),
    ("Номер машины: О777РК 199, стоит у подъезда", "О777РК 199"),
    ("Biển số xe máy: 29-B1 482.91", "29-B1 482.91"),
], ids=lambda t: t[:28] if isinstance(t, str) else "")
def test_an_identifier_after_its_label_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "身份证号码由18位数字组成，最后一位是校验码。",
    "Indian passport numbers are 8 characters: a letter and 7 digits.",
    "身份证 110101********1234（已打码）",
    "ID card number: 1234",
    "La placa base ASUS B550 cuesta 1299 euros.",
    "Matrícula abierta hasta el 15; número de matrícula 2024 para el curso.",
    "CI: build 12345678 passed on the main branch",
    "Kimlik numarası 11 hanelidir ve 0 ile başlamaz.",
    "车牌格式：省份简称 + 字母 + 5 位号码，例如 京A 12345 这种写法",
    "Номер паспорта состоит из 6 цифр, серия — из 4.",
    "护照号码规则：E 开头加 8 位数字",
], ids=lambda t: t[:28])
def test_the_same_words_before_a_count_a_format_or_a_mask_pass(text: str) -> None:
    assert found(text) == []


# ----- homes written as chains of designated numbers (address_pairs) --------------------------------------

@pytest.mark.parametrize(("text", "secret"), [
    ("Sasaran: House 27, Lane 3, Sector 11, Uttara — amar basa", "House 27, Lane 3, Sector 11, Uttara"),
    ("Адрес общежития: мкр. Аламедин-1, д. 45, кв. 12", "д. 45, кв. 12"),
    ("Nová adresa: Dlouhá 12, 3. patro, byt 7", "Dlouhá 12, 3. patro, byt 7"),
    ("Nhà trọ: Phòng 204, Số 18 ngõ 5 (gửi đồ về đây)", "Phòng 204, Số 18"),
    ("우리 집 주소는 45동 1203호 입니다", "45동 1203호"),
    ("Home: Blk 12 Lot 3, Phase 2, Brgy. San Roque", "Blk 12 Lot 3, Phase 2"),
], ids=lambda t: t[:28] if isinstance(t, str) else "")
def test_a_home_as_a_chain_of_designated_numbers_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "Unit 2 covers loops; Unit 3 covers functions.",
    "Article 12, paragraph 3, item 4 of the regulation",
    "The museum is at Block 4, Lot 7, Phase 1 of the civic centre.",
    "Platform 9, Gate 12, Terminal 3 for the 8:00 train",
    "Phase 2, Block 3 of the trial enrolled 40 patients.",
    "Our office: Floor 5, Building 2, Tech Park Road 12",
], ids=lambda t: t[:28])
def test_designated_numbers_that_are_not_a_home_pass(text: str) -> None:
    assert found(text) == []


# ----- secrets known by their role (roles) ---------------------------------------------------------------

def _layout(text: str, keys: str) -> str:
    return text.translate(str.maketrans("qwertyuiopasdfghjklzxcvbnm", keys))


_PHRASE = "legal winner thank year wave sausage worth useful legal winner thank yellow"  # (BIP39's own test vector)
_MNEMONIC = "ripple scissors kick mammal hire column oak again sun offer wealth tomorrow"


@pytest.mark.parametrize(("text", "secret"), [
    ("Kirjoita minulle: aino.virtanen at gmail dot com", "aino.virtanen at gmail dot com"),
    ("이메일: hyunwoo88 골뱅이 daum 닷 net 으로 보내줘", "hyunwoo88 골뱅이 daum 닷 net"),
    ("почта для связи: oleg_k собака mail точка ru", "oleg_k собака mail точка ru"),
    ("e-mail: pablo.ruiz arroba yahoo punto es", "pablo.ruiz arroba yahoo punto es"),
    ("seed, раскладка не та: " + _layout(_MNEMONIC, "йцукенгшщзфывапролдячсмить"),
     _layout(_MNEMONIC, "йцукенгшщзфывапролдячсмить")),
    ("το wifi του σπιτιού είναι Kx7!pLm29q", "Kx7!pLm29q"),
    ("het wifi is Tulp-8841 (niet delen)", "Tulp-8841"),
    ("hasło do poczty to Sosna#2291", "Sosna#2291"),
    ("the router password, spelled: Q-7-m-X-2-k-9", "Q-7-m-X-2-k-9"),
    ("char key_pw[] = {'r','8','T','e','w','Q','2','z'};", "'r','8','T','e','w','Q','2','z'"),
    ("My API key for the maps service is 9fK2mQ7vX1bL4nR8tY3wZ6pD", "9fK2mQ7vX1bL4nR8tY3wZ6pD"),
], ids=lambda t: t[:28] if isinstance(t, str) else "")
def test_a_secret_known_by_its_role_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "We met at noon at the library; dot the i's before you submit.",
    "골뱅이 닷 접시 주문했어요",
    "Собака лает, точка. Кошка спит.",
    "Фраза дня: ученье свет, а неученье тьма — выучи эти слова к понедельнику, пожалуйста, до конца недели.",
    "The wifi is slow today; the password is hashed with bcrypt.",
    "Our wifi is 802.11ac and the password is printed on the router.",
    "pass the ball to Player23 and run",
    "How to spell necessary: n-e-c-e-s-s-a-r-y",
    "char vowels[] = {'a','e','i','o','u','y'};",
    "char hexdigits[] = {'0','1','2','3','4','5','6','7','8','9'};",
    "密码学作业：计算 MD5(\"abc\") 的结果",
    "az login --service-principal -u http://lab-sp",
    "An API key is a long random string such as the one your dashboard shows.",
], ids=lambda t: t[:28])
def test_the_same_roles_without_a_secret_pass(text: str) -> None:
    assert found(text) == []
