"""Families of shapes the session-13 sealed batch (heldout12, negatives11) showed, each checked on
variants written here (other languages, containers, values nobody listed), with the shapes that look
the same and must still be stopped.
"""

from __future__ import annotations

import pytest

from desktop_kb.qa.detectors.published import _SOURCES, PUBLISHED, compact
from desktop_kb.qa.gate import luhn_ok
from tests.gate_checks import found, withheld

# ----- published examples: a standard's or a vendor's worked example is everyone's -------------------


@pytest.mark.parametrize("text", [
    'stripe_test_cards = {"mastercard": "5555 5555 5555 4444", "amex": "3782 822463 10005"}',
    "支付沙箱里用 Discover 测试卡 6011 0009 9013 9424，有效期随便填。",
    "Tarjeta de prueba de Adyen: 5555 3412 4444 1115, CVC 737",
    "IBAN-Beispiel aus dem Registry: DE89 3704 0044 0532 0130 00 (Prüfziffer 89)",
    "IBAN 例：FR14 2004 1010 0505 0001 3M02 606 —— 法国的 IBAN 有 27 位",
    "Voorbeeld IBAN: NL91ABNA0417164300",
    "RFC 6238 附录 B 的种子：12345678901234567890（ASCII），Base32 为 GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ",
    "key:\n  aes128: 2b7e151628aed2a6abf7158809cf4f3c  # SP 800-38A F.1.1\n",
    "uint8_t key[] = FIPS197_A3; // 603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
    "slmgr /ipk NPPR9-FWDCX-D2C8J-H872K-2YT43   # Windows Enterprise 的 KMS 客户端密钥（微软文档）",
    "Windows Server 2022 Datacenter GVLK: WX4NM-KYWYW-QJJR4-XV3QB-6VM33",
    "# Stripe 文档的示例：\ncurl https://api.stripe.com/v1/charges -u sk_test_4eC39HqLyjWDarjtT1zdp7dc:",
    "const stripe = Stripe('pk_test_TYooMQauvdEDq54NiTphI7jx');  // the docs' sample key",
    "Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9l"
    "IiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c  （jwt.io 的示例）",
    "Hardhat 默认账户 #0 私钥：0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80（官方文档公开的）",
    "# Hardhat's documented default\nmnemonic: test test test test test test test test test test test junk",
    "GB 11643 示例身份证号 11010519491231002X，最后一位 X 代表 10",
    "otpauth://totp/Example:alice@google.com?secret=JBSWY3DPEHPK3PXP&issuer=Example",
], ids=lambda t: t[:24])
def test_a_published_example_passes(text: str) -> None:
    assert found(text) == []


@pytest.mark.parametrize(("text", "secret"), [
    ('stripe_cards = {"mine": "5435 5458 2284 2017"}', "5435 5458 2284 2017"),
    ("支付宝绑定的卡 6219 5014 3669 7911 998", "6219 5014 3669 7911 998"),
    ("Meine IBAN: DE57 6728 6747 7669 1476 37", "DE57 6728 6747 7669 1476 37"),
    ("IBAN: GB84NWBK41114410261891", "GB84NWBK41114410261891"),
    ("我的 TOTP 种子：GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJR", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJR"),
    ("key:\n  aes_key: c8eafe089da8d9f4f36f6d255b4263c6\n", "c8eafe089da8d9f4f36f6d255b4263c6"),
    ("产品密钥：NPPR9-FWDCX-D2C8J-H872K-2YT44", "NPPR9-FWDCX-D2C8J-H872K-2YT44"),
    ("curl https://api.stripe.com/v1/charges -u sk_test_4eC39HqLyjWDarjtT1zdp7dd:", "sk_test_4eC39HqLyjWDarjtT1zdp7dd"),
    ("我的身份证号 110105194912310038", "110105194912310038"),
    ("otpauth://totp/Lab:lilei@pku.edu.cn?secret=JBSWY3DPEHPK3PXQ&issuer=Lab", "JBSWY3DPEHPK3PXQ"),
    ("otpauth://totp/Lab:lilei@pku.edu.cn?secret=JBSWY3DPEHPK3PXP&issuer=Lab", "lilei@pku.edu.cn"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_value_of_a_published_shape_is_still_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    # Session 18: the exact published value passes even where nothing says it is an example (the sealed
    # negatives15 lost passages to Azurite's key and Supabase's demo JWT): everyone has it, so withholding it
    # protects no one. Until session 17 these four were withheld.
    "我的 Visa 卡 4012 8888 8888 1881，下月到期",
    "Miete bitte an GB82 WEST 1234 5698 7654 32 überweisen",
    "stripe.api_key = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc'  # my test mode key",
    "产品密钥：W269N-WFGWX-YVC9B-4J6C9-T83GX",
], ids=lambda t: t[:24])
def test_a_published_value_passes_without_a_word_for_an_example(text: str) -> None:
    assert found(text) == []


def test_every_listed_example_checks_out_where_its_format_has_a_check() -> None:
    """A misremembered entry would be someone's number: every listed card passes Luhn, every IBAN
    mod 97, and the ID its GB 11643 check digit."""
    from desktop_kb.qa.detectors.numbers import _iban_ok, valid_resident_id

    for source, values in _SOURCES.items():
        for v in values:
            if v.isdigit() and 13 <= len(v) <= 19 and "RFC" not in source:
                assert luhn_ok(v), (source, v)
            elif source.startswith("IBAN"):
                assert _iban_ok(v), v
            elif source.startswith("GB 11643"):
                assert valid_resident_id(v), v
    assert compact("GB82 WEST 1234 5698 7654 32") in PUBLISHED


# ----- test patterns: numbers and key bytes that count or repeat ---------------------------------


@pytest.mark.parametrize("text", [
    "测试卡号 4000 0000 0000 0051，模拟扣款成功",
    "Carte de test : 5100 0000 0000 0008",
    "card_number: '6011000000000004'  # sandbox",
    "银联测试卡 6222 0000 0000 0000 09",
    "JCB テストカード 3530 1111 1111 1116",
    "IBAN 格式示例：GB58 WEST 1234 5678 9012 34（数字是凑的）",
    "Beispiel-IBAN: DE43 1234 5678 9012 3456 78",
    "AES 测试密钥 000102030405060708090a0b0c0d0e0f，明文 00112233445566778899aabbccddeeff",
    "HMAC key = 0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b  (RFC 4231 test case 1)",
    'secret_key = bytes.fromhex("deadbeefdeadbeefdeadbeefdeadbeef")  # filler for the demo',
    "助记词（BIP39 测试向量，熵全为 0x7f）：legal winner thank year wave sausage worth useful legal winner thank yellow",
    "BIP39 test vector, seed phrase: zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrong",
    "Test vector mnemonic (18 words, zero entropy): abandon abandon abandon abandon abandon abandon abandon abandon abandon "
    "abandon abandon abandon abandon abandon abandon abandon abandon agent",
    "中文助记词的测试向量：的 的 的 的 的 的 的 的 的 的 的 在",
    "测试向量 4 的助记词：letter advice cage absurd amount doctor acoustic avoid letter advice cage absurd amount doctor "
    "acoustic avoid letter advice cage absurd amount doctor acoustic bless",
    # Since session 19 a phrase whose entropy repeats or counts passes without a word for a test: BIP39's vectors
    # are published, no wallet generator makes one, and whatever was sent to one is gone.
    "助记词：legal winner thank year wave sausage worth useful legal winner thank yellow",
], ids=lambda t: t[:24])
def test_a_test_pattern_passes(text: str) -> None:
    assert found(text) == []


@pytest.mark.parametrize(("text", "secret"), [
    ("测试卡号 4198 3444 1747 6617，模拟扣款成功", "4198 3444 1747 6617"),
    ("Carte : 3752 1783 4793 7482", "3752 1783 4793 7482"),
    ("AES 密钥 e739f432a3bf74004898e33a91b41240", "e739f432a3bf74004898e33a91b41240"),
    ('secret_key = bytes.fromhex("c8eafe089da8d9f4f36f6d255b4263c6")', "c8eafe089da8d9f4f36f6d255b4263c6"),
    ("助记词：cushion violin pass clean fury evil robot junior develop crime position host",
     "cushion violin pass clean fury evil robot junior develop crime position host"),
    ("seed phrase: cushion violin pass clean fury evil robot junior develop crime position host",
     "cushion violin pass clean fury evil robot junior develop crime position host"),
    ("助记词：退 挤 问 常 谈 招 肠 薄 八 针 容 纵", "退 挤 问 常 谈 招 肠 薄 八 针 容 纵"),
    ("银行卡 6222 0214 8830 5917 264", "6222 0214 8830 5917 264"),
    # a pattern nobody calls a test: a person's number
    ("Card no. 4000 0000 0000 0051 for the subscription", "4000 0000 0000 0051"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_number_or_key_without_a_pattern_is_still_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


# ----- words read as passwords: a cipher's name, a UI string's markup, a secret manager's reference ----


@pytest.mark.parametrize("text", [
    "遗传密码：AUG 是起始密码子，UAA、UAG、UGA 是终止密码子",
    "遺傳密碼：GCU 编码丙氨酸",
    "摩尔斯密码：SOS 写作 ··· --- ···",
    "培根密码：AABBA 对应字母 G",
    "猪圈密码 = 一种替换密码，用格子代替字母",
    "密码：ABC 三个字母的组合有 26^3 种",
    '<message>\n    <source>Show password</source>\n    <translation>显示密码！</translation>\n</message>',
    '<string name="forgot">忘记密码?</string>',
    "<li>修改密码:</li>",
    "DB_PASSWORD=vault:secret/data/prod/db#password",
    "db_password: awssm:prod/db-credentials",
    "API_TOKEN=ssm:/myapp/prod/api_token",
    'password: "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbCdEf"',
    "SMTP_PASSWORD=projects/my-proj/secrets/smtp-pass/versions/latest",
    "REDIS_PASSWORD=ref+vault://secret/redis#password",
    "GITHUB_TOKEN=op://Engineering/GitHub/token",
    "passwort = bitwarden:Shared/Server/passwort",
], ids=lambda t: t[:24])
def test_a_word_a_string_or_a_reference_is_not_a_password(text: str) -> None:
    assert found(text) == []


@pytest.mark.parametrize(("text", "secret"), [
    ("邮箱密码：AUG7x!q", "AUG7x!q"),
    ("WiFi 密码：Kx8#mq2!，别外传", "Kx8#mq2!"),
    ("<password>Kx8#mq2!Lz</password>", "Kx8#mq2!Lz"),
    ('<string name="pw">密码：Tiger#2024</string>', "Tiger#2024"),
    ("DB_PASSWORD=vault-Hx9!2kq", "vault-Hx9!2kq"),
    ("db_password: awssm-Qx8z!m2p", "awssm-Qx8z!m2p"),
    ("API_TOKEN=ssm8Jd2kPq0xVb7nL4mZ9tR", "ssm8Jd2kPq0xVb7nL4mZ9tR"),
    ("密码：abcd", "abcd"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_password_of_the_same_shape_is_still_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


# ----- public keys named: key IDs and fingerprints after gpg's key options or the word for one ---------


@pytest.mark.parametrize("text", [
    "gpg --keyserver keyserver.ubuntu.com --recv-keys 6ED0E7B82643E131",
    "sudo apt-key adv --keyserver hkps://keys.openpgp.org --recv-keys 0x7638D0442B90D010",
    "gpg --search-keys 4AEE18F83AFDEB23",
    "gpg --edit-key 9DC858229FC7DD38854AE2D88D81803C0EBFCD88",
    "Kernel.org 的签名密钥指纹：647F 2865 4894 E3BD 4571  99BE 38DB BDC8 6092 693E",
    "Fedora 40 key fingerprint: 115D F9AE F857 853E E844 5D0A 0727 707E A15B 79CC",
    "签名密钥 ID：0x4AEE18F83AFDEB23",
    "key ID 38DBBDC86092693E (Greg Kroah-Hartman's signing subkey)",
], ids=lambda t: t[:24])
def test_a_public_key_id_or_fingerprint_passes(text: str) -> None:
    assert found(text) == []


@pytest.mark.parametrize(("text", "secret"), [
    ("API key: 6ED0E7B82643E131A9F3", "6ED0E7B82643E131A9F3"),
    ("密钥：C382 66CC 6855 720A 9E14 33D8 6135 D42E 4938 CE75", "C382 66CC 6855 720A 9E14 33D8 6135 D42E 4938 CE75"),
    ("gpg --recv-keys 6ED0E7B82643E131 && export API_KEY=9f86d081884c7d659a2feaa0c55ad015",
     "9f86d081884c7d659a2feaa0c55ad015"),
    ("access key 7f3a9c2e4b8d1f6a0e5c9b2d7a4f8e1c3b6d9a0f", "7f3a9c2e4b8d1f6a0e5c9b2d7a4f8e1c3b6d9a0f"),
    ("secret key ID: wJ8kLq2mZx9vB4nP7rT1yH6c", "wJ8kLq2mZx9vB4nP7rT1yH6c"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_key_of_the_same_shape_is_still_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


# ----- an organisation's mailbox or a project's signing key address is not a person's --------------


@pytest.mark.parametrize("text", [
    "漏洞请报告给 security@python.org，不要公开提 issue",
    "Contact: support@github.com",
    "退订请发邮件至 privacy@bilibili.com",
    "abuse@aliyun.com 处理滥用投诉",
    "DMARC 报告发到 postmaster@qq.com",
    "媒体合作：press@xiaomi.com",
    "Tor Browser 发布签名：\ngpg --auto-key-locate nodefault,wkd --locate-keys torbrowser@torproject.org",
    "Debian archive key: gpg --locate-keys ftpmaster@debian.org",
    "Release signing: gpg --locate-external-keys release@mariadb.org",
], ids=lambda t: t[:24])
def test_a_role_or_signing_mailbox_passes(text: str) -> None:
    assert found(text) == []


@pytest.mark.parametrize(("text", "secret"), [
    ("漏洞请报告给 zhang.wei@python.org", "zhang.wei@python.org"),
    ("gpg --locate-keys zhang.wei@qq.com", "zhang.wei@qq.com"),
    ("张伟的签名公钥：gpg --locate-keys zhangwei88@163.com", "zhangwei88@163.com"),
    ("Contact: support.lilei@gmail.com", "support.lilei@gmail.com"),
    ("Tor Browser 发布签名，有问题问我 lilei@torproject.org", "lilei@torproject.org"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_persons_address_is_still_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


# ----- a password under its word in more languages and in chat (heldout12: heslo, 密碼係, mm) ----------


@pytest.mark.parametrize(("text", "secret"), [
    ("- Wi-Fi na koleji: síť Strahov, heslo Kq7!mZ2x", "Kq7!mZ2x"),
    ("Wi-Fi: gäst-nätet, lösenord är Hx93kLq!", "Hx93kLq!"),
    ("Wifi-nett: Eduroam, passord er Tb8#qWz1", "Tb8#qWz1"),
    ("Verkko: Kampus, salasana on Pq4$nm9Z", "Pq4$nm9Z"),
    ("Mạng: KTX_B2, mật khẩu là vn2024!Ab", "vn2024!Ab"),
    ("Kata sandi: Jkt#2026xy (jangan disebar)", "Jkt#2026xy"),
    ("Domowe Wi-Fi — hasło to Lp9!kw2Q", "Lp9!kw2Q"),
    ("Lozinka je Zg2025#ab za router", "Zg2025#ab"),
    ("阿明：屋企 wifi 密碼係 abc7788xyz 呀", "abc7788xyz"),
    ("我：你部電腦開機密碼係咩？\n佢：密碼係 Qw12as!!", "Qw12as!!"),
    ("zh 是学号 2023010456，mm wxy990123", "wxy990123"),
    ("账号：20231045 MM: Ab123456x", "Ab123456x"),
    ("教务处 user 2301，mima lz0826abc", "lz0826abc"),
    ('curl -d "uname=lilei&upass=Qz8!mx20&submit=1" http://10.0.0.1/login', "Qz8!mx20"),
    ("userpwd=Hk29!xq7a", "Hk29!xq7a"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_password_under_its_word_or_chat_shorthand_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "Heslo musí mít alespoň 8 znaků a jedno číslo.",
    "Lösenord är obligatoriskt.",
    "螺丝长 20 mm tuo2 型号",
    "这张图纸单位是 mm，总长 1200mm",
    "zh 和 mm 是拼音缩写（账号、密码），别把真的写这里",
    "Salasana on vaihdettava 90 päivän välein",
    "passord er påkrevd",
    "bypass=true&compass=N",
    "lowpass = butter(4, 0.2)",
    "multipass launch --name dev",
], ids=lambda t: t[:24])
def test_a_sentence_about_passwords_or_a_millimetre_passes(text: str) -> None:
    assert found(text) == []


# ----- tools that take a password by position, on their stdin, or in a device's configuration ----------


@pytest.mark.parametrize(("text", "secret"), [
    ("sudo mosquitto_passwd -b /etc/mosquitto/passwd sensor01 Mq7!xPz2k", "Mq7!xPz2k"),
    ("mosquitto_pub -h broker.lan -u sensor01 -P Mq7!xPz2k -t t/1 -m 22", "Mq7!xPz2k"),
    ("rabbitmqctl add_user celery Rb8#kq2Lzx", "Rb8#kq2Lzx"),
    ("rabbitmqctl -n rabbit@node1 change_password admin Nw2$pl9Qa", "Nw2$pl9Qa"),
    ("msoffcrypto-tool --password 20261107 salary.xlsx out.xlsx", "20261107"),
    ("(echo 'Sm9!qw22'; echo 'Sm9!qw22') | smbpasswd -s -a alice", "Sm9!qw22"),
    ("printf 'Pw77!abc\\nPw77!abc\\n' | sudo passwd student", "Pw77!abc"),
    ("echo Rg4!mnb82 | passwd --stdin deploy", "Rg4!mnb82"),
    ("Switch(config)# enable secret Cs9!lab2026", "Cs9!lab2026"),
    ("username admin privilege 15 secret 0 Adm#2026x", "Adm#2026x"),
    ("[H3C-luser-manage-admin] password simple H3c@2026a", "H3c@2026a"),
    ("set system root-authentication plain-text-password Jnp#2026ab", "Jnp#2026ab"),
    ('driver.find_element(By.NAME, "password").send_keys("Sel3n!um99")', "Sel3n!um99"),
    ("await page.fill('#pwd', 'Pl4y!wright')", "Pl4y!wright"),
    ("cy.get('input[name=mima]').type('Cy9#press1')", "Cy9#press1"),
    ('page.locator("#login-password").fill("Lc8!tor55")', "Lc8!tor55"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_password_a_tool_takes_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "mosquitto_passwd -b /etc/mosquitto/passwd sensor01 $MQTT_PASS",
    "mosquitto_sub -h broker.lan -t 'lab/#' -P",
    "rabbitmqctl add_user celery <password>",
    "rabbitmqctl list_users",
    "msoffcrypto-tool -p \"$XLSX_PW\" in.xlsx out.xlsx",
    "(echo \"$PW\"; echo \"$PW\") | smbpasswd -s -a alice",
    "echo 'user:password' | sudo chpasswd",
    "service password-encryption",
    'driver.find_element(By.ID, "username").send_keys("lilei")',
    "page.fill('#password', process.env.PASSWORD)",
    "cy.get('#pwd').type(Cypress.env('pw'))",
], ids=lambda t: t[:24])
def test_a_tool_without_a_password_passes(text: str) -> None:
    assert found(text) == []


# ----- a phone number dressed to dodge a filter: keycap emoji, financial numerals, its word a line away --


@pytest.mark.parametrize(("text", "secret"), [
    ("闲鱼卖家：有事联系 1️⃣3️⃣9️⃣1️⃣2️⃣3️⃣4️⃣5️⃣6️⃣7️⃣8️⃣", "1️⃣3️⃣9️⃣1️⃣2️⃣3️⃣4️⃣5️⃣6️⃣7️⃣8️⃣"),
    ("call me 1⃣5⃣8⃣0⃣0⃣1⃣3⃣8⃣2⃣6⃣4⃣ after 6", "1⃣5⃣8⃣0⃣0⃣1⃣3⃣8⃣2⃣6⃣4⃣"),
    ("微信同号：\n1️⃣8️⃣6️⃣0️⃣0️⃣1️⃣2️⃣3️⃣4️⃣5️⃣6️⃣", "1️⃣8️⃣6️⃣0️⃣0️⃣1️⃣2️⃣3️⃣4️⃣5️⃣6️⃣"),
    ("手机号码写成大写防屏蔽：\n壹伍捌零零壹叁捌贰陆肆", "壹伍捌零零壹叁捌贰陆肆"),
    ("卖家电话\n13912345678", "13912345678"),
    ("13912345678\n（微信同号，备注来意）", "13912345678"),
    ("contact:\n  15800138264\n", "15800138264"),
    ("买家：\n18612345678\n买家：这是我电话，到了打给我", "18612345678"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_phone_number_dressed_or_labelled_a_line_away_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "1️⃣ 打开设置 2️⃣ 点击关于 3️⃣ 连点版本号",
    "版本号：\n13912345678",
    "QQ 群号\n13912345678",
    "订单编号\n13812345678901",
    "价格表\n13812345678",
    "电话会议纪要\n\n第 13812345678 号文件",
    "响应时间（单位 ms）：\n13812345678 ms",
    "Step 5⃣: restart",
], ids=lambda t: t[:24])
def test_a_list_marker_or_a_number_without_a_phone_word_passes(text: str) -> None:
    assert found(text) == []


# ----- a private key written out as bytes: OpenSSL's text dump, a byte array in code --------------------

_BYTES16 = "0x3a, 0x91, 0x5c, 0xe7, 0x08, 0xd4, 0x6f, 0xb2, 0x19, 0xc3, 0x77, 0x4e, 0xa5, 0x2d, 0xf0, 0x8b"
_BYTES16B = "0x61, 0x0e, 0xcf, 0x94, 0x3b, 0x58, 0xd7, 0x12, 0xaa, 0x6c, 0x85, 0x0f, 0xe9, 0x37, 0xb4, 0x4d"
_DECIMALS = "58, 145, 92, 231, 8, 212, 111, 178, 25, 195, 119, 78, 165, 45, 240, 139, 97, 14, 207, 148, 59, 88, 215, 18"


@pytest.mark.parametrize(("text", "secret"), [
    ("$ openssl pkey -in ed.pem -text -noout\nED25519 Private-Key:\npriv:\n    3a:91:5c:e7:08:d4:6f:b2:19:c3:77:4e:a5:2d:\n"
     "    f0:8b:61:0e:cf:94:3b:58:d7:12:aa:6c:85:0f:\n    e9:37\npub:\n    11:22:33:44\n", "3a:91:5c:e7:08:d4:6f:b2:19:c3:77:4e:a5:2d:"),
    ("RSA Private-Key: (512 bit, 2 primes)\nprivateExponent:\n    00:c3:77:4e:a5:2d:f0:8b:61:0e:cf:94:3b:58:d7:\n    12:aa\n",
     "00:c3:77:4e:a5:2d:f0:8b:61:0e:cf:94:3b:58:d7:"),
    ("prime1:\n    00:e9:37:b4:4d:3a:91:5c:e7:08:d4:6f:b2:19\n", "00:e9:37:b4:4d:3a:91:5c:e7:08:d4:6f:b2:19"),
    (f"var seed = []byte{{\n\t{_BYTES16},\n\t{_BYTES16B},\n}}", _BYTES16B),
    (f"static const uint8_t sk[32] = {{ {_BYTES16}, {_BYTES16B} }};", _BYTES16),
    (f"let secret_key: [u8; 32] = [\n    {_BYTES16},\n    {_BYTES16B},\n];", _BYTES16),
    (f"PRIVATE = bytes([{_DECIMALS}])", _DECIMALS),
    (f"const signingKey = new Uint8Array([{_DECIMALS}]);", _DECIMALS),
    ("byte[] aesKey = { (byte) 0x3a, (byte) 0x91, (byte) 0x5c, (byte) 0xe7, (byte) 0x08, (byte) 0xd4, (byte) 0x6f, "
     "(byte) 0xb2, (byte) 0x19, (byte) 0xc3, (byte) 0x77, (byte) 0x4e, (byte) 0xa5, (byte) 0x2d, (byte) 0xf0, (byte) 0x8b };",
     "(byte) 0x3a"),
    (f"# 钱包种子（测试完要换）\nseed_bytes = [\n    {_BYTES16},\n    {_BYTES16B},\n]", _BYTES16),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_private_key_written_as_bytes_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "pub:\n    04:ff:76:7d:38:e4:12:8c:36:dc:b2:62:ce:86:7c:\n    01:82\nASN1 OID: prime256v1",
    "modulus:\n    00:c3:77:4e:a5:2d:f0:8b:61:0e:cf:94:3b:58:d7\npublicExponent: 65537 (0x10001)",
    "Fingerprint:\n    3a:91:5c:e7:08:d4:6f:b2:19:c3:77:4e:a5:2d:f0:8b",
    f"var iv = []byte{{ {_BYTES16} }}",
    f"static const uint8_t public_key[32] = {{ {_BYTES16}, {_BYTES16B} }};",
    f"scores = [{_DECIMALS}]",
    "key = bytes(range(16))  # FIPS-197 的示例密钥",
    "var key = []byte{0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f}",
    f"const SHA256_INIT = [{_DECIMALS}];",
    "key_counts = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3, 8, 4]",
], ids=lambda t: t[:24])
def test_public_bytes_and_number_lists_pass(text: str) -> None:
    assert found(text) == []


# ----- a key where its place says so: a map tile URL's tk, a /key/ path, a plugin's {"identifier", "value"}, ----
# ----- an SDK client made with it, oathtool's seed ---------------------------------------------------------

_HEX32 = "c8eafe089da8d9f4f36f6d255b4263c6"
_HEX64 = "e739f432a3bf74004898e33a91b412409c18afc7bbbb6e571501cfe4b9ba84f2"


@pytest.mark.parametrize(("text", "secret"), [
    (f"L.tileLayer('https://t0.tianditu.gov.cn/img_w/wmts?LAYER=img&tk={_HEX32}')", _HEX32),
    (f"<img src=\"https://api.tianditu.gov.cn/staticimage?center=116.4,39.9&tk={_HEX32}\">", _HEX32),
    (f"url := \"https://apifree.forvo.com/key/{_HEX32}/format/json/action/word-pronunciations\"", _HEX32),
    (f"GET https://api.example-dict.com/v2/token/{_HEX64}/lookup?w=hello", _HEX64),
    (f'{{"identifier": "apikey", "value": "{_HEX32}"}}', _HEX32),
    (f"- option: secret_key\n  value: {_HEX32}\n", _HEX32),
    (f'client := vt.NewClient("{_HEX64}")', _HEX64),
    (f"const c = new WeatherClient('{_HEX32}');", _HEX32),
    (f'sdk = TranslateSDK("{_HEX32}")', _HEX32),
    (f"oathtool --totp {_HEX64[:40]}", _HEX64[:40]),
    ("oathtool --totp -b JBSWY3DPEHPK3PXQKX7ZLMN4", "JBSWY3DPEHPK3PXQKX7ZLMN4"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_key_in_a_place_that_names_it_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "L.tileLayer('https://t0.tianditu.gov.cn/img_w/wmts?LAYER=img&tk=' + TDT_KEY)",
    "import tkinter as tk\nroot = tk.Tk()",
    "https://docs.python.org/3/library/secrets.html#module-secrets",
    "https://example.com/key/features/overview",
    '{"identifier": "from", "value": "auto"}',
    'client = httpx.Client("https://api.example.com")',
    'c := redis.NewClient(&redis.Options{Addr: "localhost:6379"})',
    "oathtool --totp -b $TOTP_SEED",
    "oathtool --help",
    'file, _ := client.GetObject(vt.URL("files/%s", "44d88612fea8a8f36de82e1278abb02f"))',
], ids=lambda t: t[:24])
def test_a_place_without_a_key_passes(text: str) -> None:
    assert found(text) == []


# ----- identity numbers of more countries by their checks (Argentina, South Africa, Israel), passports -----


@pytest.mark.parametrize(("text", "secret"), [
    ("CUIL: 27-54707329-6", "27-54707329-6"),
    ("Datos para el contrato — CUIT 20976715129, monotributista", "20976715129"),
    ('{"nombre": "Lucía", "cuil": "23-22022213-6"}', "23-22022213-6"),
    ("我的阿根廷 CUIL 是 27-54707329-6，办银行卡要用", "27-54707329-6"),
    ("SA ID number: 8511109661080", "8511109661080"),
    ("Identity number 7911151776086 (green ID book)", "7911151776086"),
    ("name,id_number\nThabo,7103238831080", "7103238831080"),
    ("מספר תעודת זהות: 355161738", "355161738"),
    ("ת.ז. 803298058 — לצילום", "803298058"),
    ("Israeli ID: 701583676", "701583676"),
    ("Siti — nomor paspor B5710870, berlaku s/d 2030", "B5710870"),
    ("Paspor: C2345678", "C2345678"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_an_identity_number_of_more_countries_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "CUIL: 20-32571994-1 (el dígito verificador no cierra: mal copiado)",
    "Código de pedido 27547073297",
    "SA ID number format: YYMMDD SSSS C A Z",
    "Order 8511109661081 shipped",
    "מספר הזמנה 355161739",
    "Israeli shekel rate 3.55161738",
    "paspor foto ukuran 4x6, biaya 350000",
    "ID number 123456789 is the sample in the manual",
], ids=lambda t: t[:24])
def test_an_identity_shaped_number_without_its_check_or_word_passes(text: str) -> None:
    assert found(text) == []


# ----- bank accounts by their own checks: CLABE, Poland's NRB, a SWIFT MT103's accounts, a stripe read out --


@pytest.mark.parametrize(("text", "secret"), [
    ("CLABE: 002580151125207605", "002580151125207605"),
    ("Transferencia SPEI a la cuenta 676322286020644576", "676322286020644576"),
    ('{"beneficiario": "Sra. Ruiz", "clabe": "923 543 82621816457 2"}', "923 543 82621816457 2"),
    ("nr konta: 65 2500 9106 0278 0982 5318 7776", "65 2500 9106 0278 0982 5318 7776"),
    ("Przelew na rachunek 66865565009549623261662521", "66865565009549623261662521"),
    ("房东的波兰账户 98 0699 3249 2065 0274 6175 2003", "98 0699 3249 2065 0274 6175 2003"),
    (":20:REF1\n:50K:/4294926503685011\nLI LEI\n:59:/GB33BUKB20201555555555\nJ SMITH", "4294926503685011"),
    (":59:/DE89370400440532013001\nMUELLER", "DE89370400440532013001"),
    ("读卡器读出来的磁条：%B4192208180342726^WANG/FANG^2812101000000000000000?", "%B4192208180342726^WANG/FANG^2812101000000000000000?"),
    ("track2 ;4168142935458844=28121010000000000000?", ";4168142935458844=28121010000000000000?"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_bank_account_by_its_own_check_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "CLABE: 18 dígitos — banco (3), plaza (3), cuenta (11), control (1)",
    "Folio 002580151125207606 de la factura",
    "Número de guía 676322286020644577",
    "| lab | `202002097880754424`， | 主账号 |",  # (passes CLABE's check: one in ten does, so its own word)
    "nr zamówienia 65 2500 9106 0278 0982 5318 7777",
    ":20:REF20261201A\n:23B:CRED\n:32A:261201EUR1200,00",
    "%B is a format directive; 50% off",
    "x = a;4168142935458845=2812?",
], ids=lambda t: t[:24])
def test_an_account_shaped_number_without_its_check_or_word_passes(text: str) -> None:
    assert found(text) == []


# ----- a service's CLI or SDK client given its key by position -------------------------------------------


@pytest.mark.parametrize(("text", "secret"), [
    ("root@kali:~# shodan init Xq8TzLm2Vb7Kp4Nw9Rc6Jd1Fs5Gy0Aa", "Xq8TzLm2Vb7Kp4Nw9Rc6Jd1Fs5Gy0Aa"),
    ("ngrok config add-authtoken 2bQz8Lm4Tx9Vw1Kp7Rj3Nc6Hd5Fs0Ga_3xYzQ8mLp2Tv", "2bQz8Lm4Tx9Vw1Kp7Rj3Nc6Hd5Fs0Ga_3xYzQ8mLp2Tv"),
    ("$ ngrok authtoken 2bQz8Lm4Tx9Vw1Kp7Rj3Nc6Hd5Fs0Ga", "2bQz8Lm4Tx9Vw1Kp7Rj3Nc6Hd5Fs0Ga"),
    ("!wandb login 3f9a8c7e6d5b4a3928171605f4e3d2c1b0a99887", "3f9a8c7e6d5b4a3928171605f4e3d2c1b0a99887"),
    ("snyk auth 7c1e2d3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f", "7c1e2d3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f"),
    ("doctl auth init -t dop_v1_9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0",
     "dop_v1_9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0"),
    ("huggingface-cli login --token hfq8TzLm2Vb7Kp4Nw9Rc6Jd1Fs5Gy0AaZx", "hfq8TzLm2Vb7Kp4Nw9Rc6Jd1Fs5Gy0AaZx"),
    ('client = wolframalpha.Client("MVPCB7-6CHMZ6UMZ5")', "MVPCB7-6CHMZ6UMZ5"),
    ("const wa = new WolframClient('K7QF2M-9XRT4LPW8Z');", "K7QF2M-9XRT4LPW8Z"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_key_a_service_cli_or_client_takes_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "shodan init $SHODAN_API_KEY",
    "shodan host 203.0.113.7",
    "ngrok http 8080",
    "wandb login --relogin",
    "snyk auth",
    'client = wolframalpha.Client(app_id)',
    'client = httpx.AsyncClient("localhost:8080")',
    'api = TwitterApi("consumer_key_here")',
], ids=lambda t: t[:24])
def test_a_service_cli_without_a_key_passes(text: str) -> None:
    assert found(text) == []


# ----- a home address in more languages: under its word (with a remark on the label's line), or a plain --
# ----- "Address:" with a flat in it ---------------------------------------------------------------------


@pytest.mark.parametrize(("text", "secret"), [
    ("Adres zamieszkania:\nul. Polna 7 m. 21\n31-100 Kraków", "ul. Polna 7 m. 21"),
    ("Adres do korespondencji (tymczasowo, do marca):\nul. Lipowa 3/12\n80-001 Gdańsk", "ul. Lipowa 3/12"),
    ("Teslimat adresi: Bostancı Mah. Çamlık Sok. No:12 D:8 Kadıköy/İstanbul", "Bostancı Mah. Çamlık Sok. No:12 D:8"),
    ("Alamat rumah: Jl. Malioboro Gang Mawar No. 7, RT 02/RW 05, Yogyakarta", "Jl. Malioboro Gang Mawar No. 7, RT 02/RW 05"),
    ("Alamat kos (dekat kampus) — Depok\nJl. Margonda Raya No. 12, Kamar 4", "Jl. Margonda Raya No. 12, Kamar 4"),
    ("Địa chỉ nhận hàng: Số 12 ngõ 34 đường Láng, Đống Đa, Hà Nội", "Số 12 ngõ 34 đường Láng"),
    ("ที่อยู่จัดส่ง\nบ้านเลขที่ 12/3 ซอยสุขุมวิท 11 แขวงคลองเตยเหนือ", "บ้านเลขที่ 12/3 ซอยสุขุมวิท 11"),
    ("Address: Flat No. 22, C-Wing, Green Valley Society, MG Road, Pune", "Flat No. 22, C-Wing, Green Valley Society, MG Road"),
    ("Address: Apt 4B, 221 Baker Street", "Apt 4B, 221 Baker Street"),
    ("Shipping address for my order (hostel):\nRoom 305, Block C, 12 College Road", "Room 305, Block C, 12 College Road"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_home_address_in_more_languages_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "Adres: ul. Marszałkowska 1, 00-001 Warszawa (urząd)",
    "Address: 1600 Amphitheatre Parkway, Mountain View",
    "Adres do korespondencji podamy później.",
    "Alamat kantor: Jl. Sudirman No. 1, Jakarta",
    "Địa chỉ trường: 144 Xuân Thủy, Cầu Giấy",
    "ที่อยู่ร้าน: ถนนสีลม 99",
    "Teslimat adresi değiştirilemez.",
    "Shipping address for orders over ¥99:\n\nfree shipping",
], ids=lambda t: t[:24])
def test_a_public_or_missing_address_passes(text: str) -> None:
    assert found(text) == []


# ----- a vehicle's plate or VIN: a lower-case mainland plate, Thai and Indian plates, "plate" beside a ------
# ----- vehicle, a VIN under its word -------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "secret"), [
    ("我：车停 B2，车牌 湘aablw5，钥匙在前台", "湘aablw5"),
    ("车牌号：粤b12345（朋友的车）", "粤b12345"),
    ("ทะเบียน 1กข 0732 เชียงใหม่", "1กข 0732"),
    ("ป้ายทะเบียน: กท 4521", "กท 4521"),
    ("Tenant's vehicle no.: MH 12 HO 1176 (two-wheeler)", "MH 12 HO 1176"),
    ("Vehicle number KA-05-MN-2231, parking P-3", "KA-05-MN-2231"),
    ("A citation was issued to vehicle with California plate 9GVH814 on 11/29", "9GVH814"),
    ("My car's plate is 7XYZ123, blue Civic", "7XYZ123"),
    ("车架号　LFVYSCAM3MH034370", "LFVYSCAM3MH034370"),
    ("VIN: 1HGCM82633A004352 (insurance form)", "1HGCM82633A004352"),
    ("Fahrgestellnummer WVWZZZ1JZXW000001 laut Schein", "WVWZZZ1JZXW000001"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_plate_or_vin_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    "ทะเบียนบ้าน ต้องใช้ตอนย้ายที่อยู่",
    "Registration for the course closes on 12/1",
    "The plate count was 42 colonies after 24h",
    "hot plate 300W, model HP2000",
    "车架号在挡风玻璃左下角，17 位",
    "VIN is a 17-character code; position 9 is a check digit",
    "Vehicle number plates are issued by the RTO.",
    "湘 A 是长沙的号牌前缀",
], ids=lambda t: t[:24])
def test_a_word_about_plates_without_one_passes(text: str) -> None:
    assert found(text) == []


# ----- a session or a login where its tool or its code keeps it: a cookie set by name, an LWP cookie file, ---
# ----- a session string, ipmitool/xfreerdp/rdesktop/snmp, an address in a URL's user part -----------------

_SESSION = "Qx8rT2mVb7Lk3Nw9Pz4Hc6Jd1Fs5Gy0AaZx7Kp2Lm9"


@pytest.mark.parametrize(("text", "secret"), [
    (f'$session.Cookies.Add((New-Object System.Net.Cookie("sessionid", "{_SESSION}", "/", ".douban.com")))', _SESSION),
    (f's.cookies.set("SESSDATA", "{_SESSION}", domain=".bilibili.com")', _SESSION),
    (f"driver.add_cookie('z_c0', '{_SESSION}')", _SESSION),
    (f'#LWP-Cookies-2.0\nSet-Cookie3: SESSDATA="{_SESSION}"; path="/"; domain=".bilibili.com"', _SESSION),
    (f"cookie（F12 复制的）：\n\nfid=1862; uid=33; vc3={_SESSION[:20]}%Re2Oh%g%7Iu{_SESSION[20:]}",
     f"{_SESSION[:20]}%Re2Oh%g%7Iu{_SESSION[20:]}"),
    (f'SESSION = "{_SESSION * 8}"', _SESSION * 8),
    ("ipmitool -I lanplus -H 10.0.0.9 -U admin -P Ip9!mi2026x sensor list", "Ip9!mi2026x"),
    ("xfreerdp /v:10.1.2.3 /u:lab /p:'Rdp#2026xq' /dynamic-resolution", "Rdp#2026xq"),
    ("rdesktop -u student -p Rd3sk!top9 10.1.2.3", "Rd3sk!top9"),
    ("snmpwalk -v2c -c Snm9Pq2Lx 192.168.1.1 system", "Snm9Pq2Lx"),
    ('EMAIL_URL = "smtps://wangfang88%40163.com:PQRSXYZAB@smtp.163.com:465"', "wangfang88%40163.com"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_session_or_login_where_its_tool_keeps_it_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    'New-Object System.Net.Cookie("lang", "zh-CN", "/", ".douban.com")',
    's.cookies.set("theme", "dark")',
    'Set-Cookie3: CURRENT_FNVAL=4048; path="/"; domain=".bilibili.com"',
    'SESSION = "default"',
    "session = requests.Session()",
    "ipmitool -I lanplus -H 10.0.0.9 -U admin -P $IPMI_PW sensor list",
    "snmpwalk -v2c -c public 192.168.1.1 system",
    "git clone git@github.com:owner/repo.git",
    "ssh://git@gitlab.example.com:2222/group/repo.git",
], ids=lambda t: t[:24])
def test_a_cookie_a_session_or_a_login_without_a_secret_passes(text: str) -> None:
    assert found(text) == []


# ----- what a copy broke across lines: an address at its "@", a card number OCR'd into its groups ------------


@pytest.mark.parametrize(("text", "secret"), [
    ("联系人：张晓雨 电子邮箱：zhang.xiaoyu4754\n@outlook.com 邮编：430074", "zhang.xiaoyu4754\n@outlook.com"),
    ("E-mail: li.lei@\npku.edu.cn", "li.lei@\npku.edu.cn"),
    ("Kontakt: anna.nowak88\n  @gmail.com", "anna.nowak88\n  @gmail.com"),
    ("| 邮箱 | wang_fang2001\n@163.com |", "wang_fang2001\n@163.com"),
    ("mail to wei.chen@\n   tsinghua.edu.cn for the data", "wei.chen@\n   tsinghua.edu.cn"),
    ("拍卡片背面识别出来的：\n4294\n9265\n0368\n5011\nVALID THRU 11/29", "4294"),
    ("OCR of my card:\n4192\n2081\n8034\n2726\nexpires 08/28", "8034"),
    ("银行卡（拍照识别）\n  4168 \n  1429\n  3545\n  8844\n有效期 12/30", "8844"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_what_a_copy_broke_across_lines_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret, spaces_may_pass=True), found(text)


@pytest.mark.parametrize("text", [
    "the decorator\n@dataclass\nclass A: pass",
    "user\n@admin please review",
    "matrix A\n@ B gives C",
    "Years:\n2019\n2020\n2021\n2022\nvalid through the survey",
    "端口：\n8080\n8443\n9090\n3306\n有效期内都开着",
    "Keypad rows:\n1234\n5678\n9012\n3456\ncard reader test",
], ids=lambda t: t[:24])
def test_lines_that_only_look_broken_pass(text: str) -> None:
    assert found(text) == []


# ----- a word for an identity number after a space (sealed batch 13 after 9ef8f8b: a German Steuer-ID under
# "Steuerliche Identifikationsnummer" was found before and missed after: South Africa's "SA ID" had left
# "\s+id" as a word of its own, which matched the space before "identity …" and hid the real word) -----


@pytest.mark.parametrize(("text", "secret"), [
    ("Steuerliche Identifikationsnummer: 65 982 013 942", "65 982 013 942"),
    ("My identity number: 6001015009080 (keep private)", "6001015009080"),
    ("Número de identificación: 12345678Z", "12345678Z"),
    ("我的 SA ID 是 8511109661080，开户用", "8511109661080"),
    ("Thabo — RSA 7103238831080", "7103238831080"),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_word_for_an_identity_number_after_a_space_still_announces_it(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


def test_no_word_for_an_identity_number_starts_with_a_space() -> None:
    import importlib
    import re

    ids = importlib.import_module("desktop_kb.qa.detectors.id_documents")
    words = [w for v in ids._W.values() for w in ids._alternatives(v)]
    assert [w for w in words if re.match(w, " id x") or re.match(w, "_id x")] == []
