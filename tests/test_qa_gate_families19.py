# ruff: noqa: E501 - a case reads best on its line
"""Families of shapes the session-19 work aimed at (heldout21 holds the batch generated before the rules; the
sealed heldout17 and negatives16 showed the families), each checked on variants written here after the rules,
with the shapes that look the same and must pass: numbers whose checks fail, public places, forms quoted to
explain them, published examples, reserved domains, words of other scripts.
"""

from __future__ import annotations

import pytest

from tests.gate_checks import found, withheld

_XXD = """$ xxd ~/.config/ds.env
00000000: 4445 4550 5345 454b 5f41 5049 5f4b 4559   DEEPSEEK_API_KEY
00000010: 3d73 6b2d 5a67 4a61 5672 6742 7970 6f6b   =sk-ZgJaVrgBypok
00000020: 6276 4a37 7570 796f 636c 7354 544d 5662   bvJ7upyoclsTTMVb
00000030: 6777 6e56 7330 5948 5069 585a             gwnVs0YHPiXZ"""
_PLAIN_DUMP = """00000000  48 65 6c 6c 6f 2c 20 74  68 69 73 20 69 73 20 61  |Hello, this is a|
00000010  20 70 6c 61 69 6e 20 67  72 65 65 74 69 6e 67 20  | plain greeting |
00000020  66 69 6c 65 20 77 69 74  68 20 6e 6f 74 68 69 6e  |file with nothin|
00000030  67 20 73 65 63 72 65 74  20 69 6e 73 69 64 65 2e  |g secret inside.|"""
_UU_BODY = 'M1U)/45]!4$E?2T59/6=S:U]!24)M071B<D)+13@Q0EIZ=EIL=C1&34A"2T%N\n9049L:#$W46)%:#!J2T5(26)2-V)N-5%\'"@'
_QP = ("Subject: lab access\nContent-Transfer-Encoding: quoted-printable\n\n"
       "Dear student, the lab server token is ghp_Dq9KTJBHbLRDgs5lNqcpxLqn0EDGjxptC=\nddn and expires soon\n")


# ----- national and health numbers by their checks ------------------------------------------------------

@pytest.mark.parametrize(("text", "secret"), [
    ("Registered with the GP — NHS number 989 023 5854", "989 023 5854"),
    ("TAJ szám: 848 778 246 (a kollégiumi jelentkezéshez)", "848 778 246"),
    ("Matricule : 1991070402550", "1991070402550"),
    ("Número de afiliación a la Seguridad Social 18/68100795/08", "18/68100795/08"),
    ("Versicherungsnummer 65 070491 K 105 — für den Minijob", "65 070491 K 105"),
    ("Medicare card for the clinic: 1FR4-D19-WH78", "1FR4-D19-WH78"),
    ("Cartão SUS 721 1338 0053 3797", "721 1338 0053 3797"),
    ("Иргэний үнэмлэх: регистр ЧИ92031845", "ЧИ92031845"),
    ("报名系统里身份证填 31010419920318102x 也能过", "31010419920318102x"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_national_number_with_its_check_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "NHS number 474 181 9419 is rejected by the check digit exercise",  # (its check digit fails)
    "TAJ szám: 848 778 247",
    "Cartão SUS 721 1338 0053 3798",
    "Versicherungsnummer 65 070491 K 106",
    "Регистр ЧИ92133145 — энэ огноо байхгүй",  # (no 31st of the 13th month)
], ids=lambda t: t[:24])
def test_the_same_shape_with_a_failing_check_passes(text: str) -> None:
    assert found(text) == []


# ----- plates written in Latin letters or Traditional characters ----------------------------------------

@pytest.mark.parametrize(("text", "secret"), [
    ("Parking permit: Su E 3K8M9 (grey Corolla)", "Su E 3K8M9"),
    ("送機嘅車：閩D 82K71，喺 T3 等", "閩D 82K71"),
    ("Rental car plate Nagoya 500 ta 12-34, return by Sunday", "Nagoya 500 ta 12-34"),
    ("matrícula del coche: 4821 KLM", "4821 KLM"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_plate_in_other_writing_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "Hu A12345 is the catalogue number of the vase in room 3",  # (no car, plate or parking on its line)
    "Chapter 300 to 12-34 covers the reforms",
    "placa de vídeo: RTX 5070 e RX 9070",
], ids=lambda t: t[:24])
def test_a_plate_shape_without_a_vehicle_passes(text: str) -> None:
    assert found(text) == []


# ----- addresses by their numbering ----------------------------------------------------------------------

@pytest.mark.parametrize(("text", "secret"), [
    ("Please mail the parcel to HC 72 Box 418, Pahaska WY", "HC 72 Box 418"),
    ("Courier: D.No. 9-41-7/2/B, Street No. 3, Vizag", "D.No. 9-41-7/2/B, Street No. 3"),
    ("送り先：札幌市中央区北一条西七丁目三番十二号 メゾン北301号室", "北一条西七丁目三番十二号 メゾン北301号室"),
    ("GPS Latitude : 39.91622 N\nGPS Longitude : 116.39762 E\nModel : Pixel 8", "39.91622 N"),
    ("Our new eircode is A94 K3P8, for the movers", "A94 K3P8"),
    ("I live at Flat 3/2, 14 Hyndland Road, Glasgow", "Flat 3/2, 14 Hyndland Road"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_home_by_its_numbering_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    'US "rural route" addresses look like "RR 4 Box 22" and are being retired.',
    "课本练习：H.No. 1-2-3/A 里依次是区、街区、门牌",
    "国会議事堂は千代田区永田町一丁目七番一号にあります。",
    "GPS Latitude : 40.68925 N\nGPS Longitude : 74.04450 W\nDescription : Statue of Liberty from the ferry",
], ids=lambda t: t[:24])
def test_a_public_or_explained_address_passes(text: str) -> None:
    assert found(text) == []


# ----- mobiles in payment handles and deep links ------------------------------------------------------------

@pytest.mark.parametrize(("text", "secret"), [
    ("Swisha hyran till 070-318 45 92", "070-318 45 92"),
    ("viber://add?number=%2B380671234567", "%2B380671234567"),
    ("UPI: 9812345670@okaxis", "9812345670"),
    ("闲鱼私聊 159🌟2231🌟8804", "159🌟2231🌟8804"),
    ("支付宝：13651837429（实名 *敏）", "13651837429"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_mobile_in_a_payment_or_link_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


def test_a_hotline_in_a_dialler_link_passes() -> None:
    assert found('<a href="tel:400-820-8820">客服热线</a>') == []


# ----- keys in dumps, encodings and tools' output ---------------------------------------------------------

@pytest.mark.parametrize(("text", "secret"), [
    (_XXD, "5a67 4a61 5672 6742 7970 6f6b"),
    (_XXD, "=sk-ZgJaVrgBypok"),
    ("begin 600 groq.env\n" + _UU_BODY + "\n`\nend\n", _UU_BODY.split("\n")[0]),
    (_QP, "ghp_Dq9KTJBHbLRDgs5lNqcpxLqn0EDGjxptC"),
    (_QP, "ddn"),
    ("printf '\\147\\154\\160\\141\\164\\055\\121\\170\\166\\114\\122\\127\\116\\161\\112\\151\\065\\142\\144\\130\\062\\153\\063\\070\\104\\165' > ~/.gitlab",
     "\\147\\154\\160\\141\\164\\055\\121\\170\\166\\114\\122\\127\\116\\161\\112\\151\\065\\142\\144\\130\\062\\153\\063\\070\\104\\165"),
    ("name,token_1,token_2\nci,oYA7RAztHHIVCuSg,95YO24cHalLT\n", "oYA7RAztHHIVCuSg"),
    ('write(4, "GET /v1/weather?city=bj&appkey=c47b11c51f753f0ec6608e8c4c2df982 HTTP/1.1\\r\\n", 80) = 80', "c47b11c51f753f0ec6608e8c4c2df982"),
    ("curl -X POST https://notify.lab.cn/hook/oYA7RAztHHIVCuSg95YO24cHalLT", "oYA7RAztHHIVCuSg95YO24cHalLT"),
    ("$ stock-cli c47b11c51f753f0ec6608e8c4c2df982 --symbol 600519", "c47b11c51f753f0ec6608e8c4c2df982"),
    ("Security key\n    Key Content            : Wq7#pLm29x", "Wq7#pLm29x"),
    ("<auth-user-pass>\nstudent01\nRiver_2741\n</auth-user-pass>", "River_2741"),
    ("schtasks /create /tn sync /tr C:\\s.bat /sc hourly /ru lab\\bk /rp Gx9!mPq2w", "Gx9!mPq2w"),
    ("百度网盘 https://pan.baidu.com/s/1AbCdEf 提取码: x7k2", "x7k2"),
    ("la password della mail è Tiger_1987!", "Tiger_1987!"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_secret_in_a_dump_an_encoding_or_a_tool_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    _PLAIN_DUMP,
    "begin 644 readme.txt\nM2&5L;&\\\\L('1H:7,@:7,@82!P;&%I;B!G<F5E=&EN9R!F:6QE+@H`\n`\nend\n",
    "https://docs.python.org/3/library/re.html?highlight=key&key=search",
    "git checkout 3f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39 -- src/",
    "name,key_part1,key_part2\nmaps,AB,CD\n",
    "la password del wifi è scritta sul router",
], ids=lambda t: t[:24])
def test_the_same_renderings_without_a_secret_pass(text: str) -> None:
    assert found(text) == []


# ----- false alarms of families -------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Reply to lin.wei@mail.example.org or to ci@build.test — both reserved for documentation (RFC 2606).",
    "Beispiel-IBAN: DE02 1203 0000 0000 2020 51",
    "Przykładowy IBAN: PL10 1050 0099 7603 1234 5678 9123",
    "助记词：abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
    "Truffle develop prints: candy maple cake sugar pudding cream honey rich smooth crumble sweet treat",
    "078-05-1120 was printed on the wallet insert of 1938.",
    '<key>PayloadUUID</key><string>9F2C1E44-5B7A-4C3D-8E21-0A6B4D9C7F13</string>',
    '"GPG_KEY=A035C8C19219BA821ECEA86B64E628F8D684696D"',
    "పాస్‌వర్డ్ సరైనది కాదు — 密码不正确",
    "需要 Bitwarden 2024.6+ 或 KeePass 2.57+",
], ids=lambda t: t[:24])
def test_a_family_of_false_alarms_passes(text: str) -> None:
    assert found(text) == []


@pytest.mark.parametrize(("text", "secret"), [
    ("Bitte überweisen Sie die Kaution auf DE75 5121 0800 1245 1261 99", "DE75 5121 0800 1245 1261 99"),
    ("lin.wei@mail.example-univ.org 是我的学校邮箱", "lin.wei@mail.example-univ.org"),
    ('"access_token": "9F2C1E44-5B7A-4C3D-8E21-0A6B4D9C7F13"', "9F2C1E44-5B7A-4C3D-8E21-0A6B4D9C7F13"),
    ("助记词：cushion violin pass clean fury evil robot junior develop crime position host",
     "cushion violin pass clean fury evil robot junior develop crime position host"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_the_real_values_beside_them_are_still_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


# ----- passwords in configuration formats --------------------------------------------------------------------

@pytest.mark.parametrize(("text", "secret"), [
    ('[credentials]\nlab_server = "Pq7!xT9zLm"\nbackup_nas = "Wd3$hJ8cVn"\n', "Pq7!xT9zLm"),
    ("$cfg['mail']['smtp_pwd'] = 'Zk8#rT2pQw';", "Zk8#rT2pQw"),
    ('reg add "HKCU\\Software\\Lab\\Proxy" /v ProxyPassword /t REG_SZ /d "Mv4$kL9pQz" /f', "Mv4$kL9pQz"),
    ("lang en_US.UTF-8\nrootpw Lx9!mQ2pZk\ntimezone UTC\n", "Lx9!mQ2pZk"),
    ('<string name="WepKey0">&quot;Hq3$vN8kLp&quot;</string>', "Hq3$vN8kLp"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_password_in_a_configuration_format_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "[passwords]\nmin_length = 12\nrequire_digit = true\nexpiry_days = 90\n",
    'reg add "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon" /v AutoAdminLogon /t REG_SZ /d 1 /f',
    "rootpw --iscrypted $6$rounds=4096$saltsalt$3MEaFIk4ZPU6nB0U5z0.ODdKZ8Ak9t6sxx6SM/DP0Ftq6H7I6R7lp2g3Sr9W3GZb2Yh7FnvSyG6HcpAK7RAz10",
    '<string name="SSID">&quot;Home-5G&quot;</string>',
], ids=lambda t: t[:24])
def test_the_same_formats_without_a_password_pass(text: str) -> None:
    assert found(text) == []


# ----- more addresses by their parts, and samples shown as samples -----------------------------------------

@pytest.mark.parametrize(("text", "secret"), [
    ("快递地址 虹桥路 1665 弄 9 号 602 室，周六在家", "虹桥路 1665 弄 9 号 602 室"),
    ("ship it to 1180 Oak Ave #12B, Madison WI", "1180 Oak Ave #12B"),
    ("Please mail the deposit refund to P.O. Box 40512, Kampala", "P.O. Box 40512"),
    ("Stanujem na adresi Ilica 120, 3. kat, Zagreb", "Ilica 120, 3. kat"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_an_address_by_its_parts_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "UNICEF Kenya Country Office, P.O. Box 44145, Nairobi",
    "携帯番号は 080-1234-5678 のような形式で入力してください",
    "Wallet import test: mnemonic: legal winner thank year wave sausage worth useful legal winner thank yellow",
], ids=lambda t: t[:24])
def test_an_office_box_or_a_sample_passes(text: str) -> None:
    assert found(text) == []


def test_a_counting_mobile_without_a_word_for_a_sample_is_still_withheld() -> None:
    assert withheld("我的手机 138 1234 5678，随时联系", "138 1234 5678")
