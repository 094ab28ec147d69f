# ruff: noqa: E501 - a case reads best on its line
"""Families of shapes the session-17 work aimed at (heldout15 holds the batch written before the rules),
each checked on variants written here after it, in other tools, languages and syntaxes, with the shapes
that look the same and must still pass.
"""

from __future__ import annotations

import pytest

from tests.gate_checks import found, withheld

# ----- a value decoded at run time or hidden in an encoding ---------------------------------------------


@pytest.mark.parametrize(("text", "secret"), [
    ('schtasks /create /tn sync /tr "powershell -ec JABjAHIAZQBkACAAPQAgACIAZAB2AEwAVQBmAFgAVQBXAE8ATgBEAEMAVgA4AGgAegBoADAAIgA7ACAAbgBlAHQAIAB1AHMAZQAgAFkAOgAgAFwAXABmAGkAbABlAHMAXABsAGEAYgAgAC8AdQBzAGUAcgA6AHMAdAB1AGQAZQBuAHQAIAAkAGMAcgBlAGQA"', 'JABjAHIAZQBkACAAPQAgACIAZAB2AEwAVQBmAFgAVQBXAE8ATgBEAEMAVgA4AGgAegBoADAAIgA7ACAAbgBlAHQAIAB1AHMAZQAgAFkAOgAgAFwAXABmAGkAbABlAHMAXABsAGEAYgAgAC8AdQBzAGUAcgA6AHMAdAB1AGQAZQBuAHQAIAAkAGMAcgBlAGQA'),
    ('Start-Process pwsh -ArgumentList "-NoLogo -EncodedCommand SQBuAHYAbwBrAGUALQBXAGUAYgBSAGUAcQB1AGUAcwB0ACAALQBVAHIAaQAgAGgAdAB0AHAAcwA6AC8ALwBhAHAAaQAuAGwAYQBiAC8AeAAgAC0ASABlAGEAZABlAHIAcwAgAEAAewAiAFgALQBBAHUAdABoAC0AVABvAGsAZQBuACIAPQAiAGMAbABnAHEATQBoAFgAQwAwAG8ARABsAEsAUwA2AGIAVgBhADcAUwBLADkAWgBzAFUAdABmAG4ARgBYAFAAZwBkAGsANgBXACIAfQA="', 'SQBuAHYAbwBrAGUALQBXAGUAYgBSAGUAcQB1AGUAcwB0ACAALQBVAHIAaQAgAGgAdAB0AHAAcwA6AC8ALwBhAHAAaQAuAGwAYQBiAC8AeAAgAC0ASABlAGEAZABlAHIAcwAgAEAAewAiAFgALQBBAHUAdABoAC0AVABvAGsAZQBuACIAPQAiAGMAbABnAHEATQBoAFgAQwAwAG8ARABsAEsAUwA2AGIAVgBhADcAUwBLADkAWgBzAFUAdABmAG4ARgBYAFAAZwBkAGsANgBXACIAfQA='),
    ('deploy:\n  script:\n    - echo "H4sIAAAAAAACA3Nxig9wDA4O9w9ysfUtdw7ITwyxDCr09vMN4nJxivfwDw6xNTTQA0FTLgAoWfgrLAAAAA==" | base64 -d | gunzip > .env\n', 'H4sIAAAAAAACA3Nxig9wDA4O9w9ysfUtdw7ITwyxDCr09vMN4nJxivfwDw6xNTTQA0FTLgAoWfgrLAAAAA=='),
    ('# kept as base32 so the linter does not complain\nCFG = "ONSWG4TFORPWWZLZEA6SAVRYIZFEC4TRPJRW24K2GFEWYOCHOJXGSSBTKQ3TIUSCKBFTO==="\n', 'ONSWG4TFORPWWZLZEA6SAVRYIZFEC4TRPJRW24K2GFEWYOCHOJXGSSBTKQ3TIUSCKBFTO==='),
    ('% PostScript exercise\n<~FDkr+DE8nZ;b^ak1f6e`<*<=(=DL`TG"P:cDDc0#F?)0f;-$3~> cvx exec', '<~FDkr+DE8nZ;b^ak1f6e`<*<=(=DL`TG"P:cDDc0#F?)0f;-$3~>'),
    ('const apiKey = Buffer.from("ZTQ1OWI5NDE0MWUzMmIyOWJlNTRmZjZjMjI4OGMxODA=", "base64").toString();', 'ZTQ1OWI5NDE0MWUzMmIyOWJlNTRmZjZjMjI4OGMxODA='),
    ('String token = new String(Base64.getDecoder().decode("Zm5iSlBMSTZYSDRxSktScGJYNjNOZFdCV0htS2hZamhvOW5SZFR3Yg=="));', 'Zm5iSlBMSTZYSDRxSktScGJYNjNOZFdCV0htS2hZamhvOW5SZFR3Yg=='),
    ('API_SECRET = binascii.unhexlify("3032373035616238636261373963393137373961346262613764386533623136").decode()', '3032373035616238636261373963393137373961346262613764386533623136'),
    ('access_token = base64.b85decode(b"aW_gbY;`tgIY(wOadl=mH)u~(M>A(tT60)tFnLIH").decode("ascii")', 'aW_gbY;`tgIY(wOadl=mH)u~(M>A(tT60)tFnLIH'),
    ('appSecret := string(must(base64.StdEncoding.DecodeString("ZTQ1OWI5NDE0MWUzMmIyOWJlNTRmZjZjMjI4OGMxODA=")))', 'ZTQ1OWI5NDE0MWUzMmIyOWJlNTRmZjZjMjI4OGMxODA='),
], ids=lambda t: t[:28] if isinstance(t, str) else "")
def test_a_secret_in_an_encoded_payload_or_a_decode_call_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    'powershell -NoProfile -EncodedCommand RwBlAHQALQBDAGgAaQBsAGQASQB0AGUAbQAgAEMAOgBcAFUAcwBlAHIAcwAgAHwAIABNAGUAYQBzAHUAcgBlAC0ATwBiAGoAZQBjAHQA',
    'base32 of a pangram: ORUGKIDROVUWG2ZAMJZG653OEBTG66BANJ2W24DTEBXXMZLSEB2GQZJANRQXU6JAMRXWO===',
    "print(bytes.fromhex('48656c6c6f2c20776f726c6421').decode())",
    'img.src = "data:image/png;base64," + btoa(raw); const hello = atob("SGVsbG8sIHdvcmxk");',
    'checksum = binascii.unhexlify("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")',
    '<~87cURD]i,"Ebo80~> is Ascii85 for "Hello world"',
], ids=lambda t: t[:28])
def test_encoded_text_that_holds_nothing_secret_passes(text: str) -> None:
    assert found(text) == []


# ----- a service's CLI set up with its key, by any flag or by position ------------------------------------


@pytest.mark.parametrize(("text", "secret"), [
    ('mc alias set campus https://s3.lab.example CbqKp7oZLK0G4wXR7gvBdknN Xlo88nhcIoMjHsJCC3PPxl5wEXBbTFYXDYS6a3a9', 'Xlo88nhcIoMjHsJCC3PPxl5wEXBbTFYXDYS6a3a9'),
    ('coscmd config -a AKID938Wwhr648Pj6uprLIUe7uzc -s kIfIpZ7PImyeZom81Az1FG4WzkUdxXE25D99Ubni -b notes-1250000000 -r ap-guangzhou', 'kIfIpZ7PImyeZom81Az1FG4WzkUdxXE25D99Ubni'),
    ('ossutil64 config -e oss-cn-hangzhou.aliyuncs.com -i LTAI5twVFmbHJCP4OFsgy46V -k lshbdE1beeo87TGYVJ7pjblRRZ5YEc', 'lshbdE1beeo87TGYVJ7pjblRRZ5YEc'),
    ('kubectl config set-credentials lab-admin --token=JuvSHNrN6qcpi7EWGB9sQQTiCwS094ev9IoKbt2M', 'JuvSHNrN6qcpi7EWGB9sQQTiCwS094ev9IoKbt2M'),
    ('$ heroku auth:token\n$ fly auth token\n$ sentry-cli login --auth-token 09697e339a3c82fbf1556ca06b73bdd425ab6775bc7d120dfe5dcdaa7a409637', '09697e339a3c82fbf1556ca06b73bdd425ab6775bc7d120dfe5dcdaa7a409637'),
    ('PS> mytool.exe configure --client-secret "JwBPod98JUpEWhHC0rj6X28fpZKejYL59ezLjtaC" --tenant lab', 'JwBPod98JUpEWhHC0rj6X28fpZKejYL59ezLjtaC'),
], ids=lambda t: t[:28] if isinstance(t, str) else "")
def test_a_key_given_to_a_setup_command_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    'git config --global user.signingkey 3AA5C34371567BD2',
    'az account set --subscription 11313989-4c0e-44e6-a50f-ff5263ffa4c4',
    'kubectl config use-context prod-cluster-ap-east-1',
    'pip config set global.index-url https://pypi.tuna.tsinghua.edu.cn/simple',
    'cargo login abcdefghijklmnopqrstuvwxyz012345',
    'aws configure set region ap-northeast-1 && aws configure set output json',
    'gh auth login --with-token < ~/.config/gh-token.txt',
    'git config --global core.excludesfile ~/.gitignore_global && conda config --add channels conda-forge',
    'docker login registry.cn-hangzhou.aliyuncs.com --username lin_course',
], ids=lambda t: t[:28])
def test_setup_commands_without_a_key_pass(text: str) -> None:
    assert found(text) == []


@pytest.mark.parametrize(("text", "secret"), [
    ('mvn -B deploy -Dgpg.passphrase=Harbour.Lamp.93 -DskipTests', 'Harbour.Lamp.93'),
    ('./gradlew publish -PsigningPassword=Quill-Tide-2208 -PossrhUsername=lin', 'Quill-Tide-2208'),
    ('mvn sonar:sonar -Dsonar.token=skntVLd3ro9XdZma9tGPpKeAD8kQsIoHJgmrb5eZ', 'skntVLd3ro9XdZma9tGPpKeAD8kQsIoHJgmrb5eZ'),
], ids=lambda t: t[:28] if isinstance(t, str) else "")
def test_a_secret_in_a_java_property_flag_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    'mvn test -Dmaven.test.skip=true -Dfile.encoding=UTF-8 -Dsonar.projectKey=kb-notes',
    './gradlew build -Pversion=1.4.2 -PjvmTarget=17',
], ids=lambda t: t[:28])
def test_ordinary_property_flags_pass(text: str) -> None:
    assert found(text) == []


# ----- a typed declaration -------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "secret"), [
    ('export const mapboxSecret: string = "moVUmD0hHCh6Nbp5RkmrIpZclpePlRPKroOu85sc";', 'moVUmD0hHCh6Nbp5RkmrIpZclpePlRPKroOu85sc'),
    ('private val clientSecret: String = "823bc4a8c09d27fdf69f56198c799ca5"', '823bc4a8c09d27fdf69f56198c799ca5'),
    ('static let apiToken: String = "UlUkQ0SRRaeopiwLDUKwWEfFwkp2p0vCdGAl3Wet"', 'UlUkQ0SRRaeopiwLDUKwWEfFwkp2p0vCdGAl3Wet'),
    ('WEATHER_API_KEY: Final = "a1acbe83d1b93e59295fcca33959204a"', 'a1acbe83d1b93e59295fcca33959204a'),
    ('let mut signing_secret: String = "RXuub2m4IA5kB3bm9G92jmnKZWGJYLqC8BgTFHWb".to_string();', 'RXuub2m4IA5kB3bm9G92jmnKZWGJYLqC8BgTFHWb'),
    ('readonly authToken?: string = \'vxmxGUGzvMPRpGEt3jbQ1j6GSHyp5m6DGVMuuCTo\';', 'vxmxGUGzvMPRpGEt3jbQ1j6GSHyp5m6DGVMuuCTo'),
], ids=lambda t: t[:28] if isinstance(t, str) else "")
def test_a_credential_in_a_typed_declaration_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    'token_type: str = "bearer"',
    'password_field: str = "pwd"\nkey_column: str = "user_id"',
    'let apiKey: string = process.env.API_KEY ?? "";',
    'max_tokens: int = 1024\nsecret_name: Optional[str] = None',
    'const token: Token = Token { kind: TokenKind::Ident, span };',
], ids=lambda t: t[:28])
def test_typed_declarations_without_a_credential_pass(text: str) -> None:
    assert found(text) == []


# ----- a key under the word for one, in more languages ------------------------------------------------


@pytest.mark.parametrize(("text", "secret"), [
    ('Dự án nhóm\nkhóa API: empPw3hpXTyJof3n1sPDLQFvf4kvjb47', 'empPw3hpXTyJof3n1sPDLQFvf4kvjb47'),
    ('Hava durumu için gizli anahtar: 0KIGAjkNk6Tj6zl7xHvThhIi', '0KIGAjkNk6Tj6zl7xHvThhIi'),
    ('Projekt zaliczeniowy — klucz prywatny: vxK5x98fIwq0o8IKSzJkxSPVwCOsHYKvbq6ICRHq', 'vxK5x98fIwq0o8IKSzJkxSPVwCOsHYKvbq6ICRHq'),
    ('Semestrální práce\ntajný klíč: 81542afba3f42216d024ccda8c60cc5d', '81542afba3f42216d024ccda8c60cc5d'),
    ('مشروع الفصل\nالمفتاح السري: 9dd041751b8392fe65d4bd508f02bc5e', '9dd041751b8392fe65d4bd508f02bc5e'),
    ('کلید API: CbqKp7oZLK0G4wXR7gvBdknN', 'CbqKp7oZLK0G4wXR7gvBdknN'),
    ('מפתח API: 938Wwhr648Pj6uprLIUe7uzc', '938Wwhr648Pj6uprLIUe7uzc'),
    ('Tugas akhir — kunci rahasia: wVFmbHJCP4OFsgy46VjyvxYc', 'wVFmbHJCP4OFsgy46VjyvxYc'),
    ('Scriptie\nAPI-sleutel: Xlo88nhcIoMjHsJCC3PPxl5wEXBbTFYX', 'Xlo88nhcIoMjHsJCC3PPxl5wEXBbTFYX'),
    ('Examensarbete: API-nyckel = kIfIpZ7PImyeZom81Az1FG4WzkUdxXE2', 'kIfIpZ7PImyeZom81Az1FG4WzkUdxXE2'),
    ('Opinnäytetyö: API-avain lshbdE1beeo87TGYVJ7pjblRRZ5YEcIh'.replace(' lshbdE1beeo87TGYVJ7pjblRRZ5YEcIh', ': lshbdE1beeo87TGYVJ7pjblRRZ5YEcIh'), 'lshbdE1beeo87TGYVJ7pjblRRZ5YEcIh'),
    ('Szakdolgozat — API-kulcs: JuvSHNrN6qcpi7EWGB9sQQTiCwS094ev', 'JuvSHNrN6qcpi7EWGB9sQQTiCwS094ev'),
    ('Lucrare de licență: cheie API = JwBPod98JUpEWhHC0rj6X28fpZKejYL5', 'JwBPod98JUpEWhHC0rj6X28fpZKejYL5'),
    ('Διπλωματική: κλειδί API: skntVLd3ro9XdZma9tGPpKeAD8kQsIoH', 'skntVLd3ro9XdZma9tGPpKeAD8kQsIoH'),
    ('โปรเจกต์จบ คีย์ API: moVUmD0hHCh6Nbp5RkmrIpZclpePlRPK', 'moVUmD0hHCh6Nbp5RkmrIpZclpePlRPK'),
    ('期末專題\nAPI 金鑰：UlUkQ0SRRaeopiwLDUKwWEfFwkp2p0vC', 'UlUkQ0SRRaeopiwLDUKwWEfFwkp2p0vC'),
    ('存取權杖：RXuub2m4IA5kB3bm9G92jmnKZWGJYLqC', 'RXuub2m4IA5kB3bm9G92jmnKZWGJYLqC'),
], ids=lambda t: t[:28] if isinstance(t, str) else "")
def test_a_key_under_its_word_in_another_language_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    'klucz API znajdziesz w ustawieniach konta, w zakładce „Integracje”.',
    'API anahtarı nasıl alınır? Önce hesabınıza giriş yapın.',
    '金鑰長度：2048 位元；權杖有效期：3600 秒',
    'khóa API: <khóa của bạn>',
    'Tonart (Schlüssel) G-Dur; kunci gitar: C mayor',
], ids=lambda t: t[:28])
def test_key_words_without_a_key_pass(text: str) -> None:
    assert found(text) == []


# ----- other places and shapes ------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "secret"), [
    ('curl -H "Authorization: GenieKey 11313989-4c0e-44e6-a50f-ff5263ffa4c4" https://api.opsgenie.com/v2/alerts', '11313989-4c0e-44e6-a50f-ff5263ffa4c4'),
    ('Authorization: Client-ID vxmxGUGzvMPRpGEt3jbQ1j6GSHyp5m6DGVMuuCTo', 'vxmxGUGzvMPRpGEt3jbQ1j6GSHyp5m6DGVMuuCTo'),
    ('<resources>\n  <string name="baidu_map_ak">0KIGAjkNk6Tj6zl7xHvThhIi</string>\n</resources>', '0KIGAjkNk6Tj6zl7xHvThhIi'),
    ('<entry key="weather.secret">09697e339a3c82fbf1556ca06b73bdd4</entry>', '09697e339a3c82fbf1556ca06b73bdd4'),
    ('QQ 邮箱 SMTP 授权码 qferanoquplmnlsk', 'qferanoquplmnlsk'),
    ('ykman oath accounts add -t -o TOTP github SN6LMUUY2ZGVMSQLI2IZMQH6754BUTST', 'SN6LMUUY2ZGVMSQLI2IZMQH6754BUTST'),
    ('key = load_der_private_key(bytes.fromhex("307402010104206e15d7f36ebc2c1384d1aa6e3eaf9a37707ae237effcd8a79aece75083eab945a00706052b8104000aa144034200041cea262b3ed16b883a2d54ea78d519f1906ba2c480d1e1ee6368bdbd6d35b5a0756f3f2fe504b94b65e531f78cf246f9333758b8bac892cbc92c41864049323c"), None)', '307402010104206e15d7f36ebc2c1384d1aa6e3eaf9a37707ae237effcd8a79aece75083eab945a00706052b8104000aa144034200041cea262b3ed16b883a2d54ea78d519f1906ba2c480d1e1ee6368bdbd6d35b5a0756f3f2fe504b94b65e531f78cf246f9333758b8bac892cbc92c41864049323c'),
    ('$ cat /etc/matrix-synapse/homeserver.signing.key\ned25519 a_Xk2p lAY9GPG8D+H3AwRU54U9AdBhuN9CHOftEI0CoPtQQWA', 'lAY9GPG8D+H3AwRU54U9AdBhuN9CHOftEI0CoPtQQWA'),
    ('Landlord: Mr Lim, H/P 016-382 9145', '016-382 9145'),
    ('Ibu kos WA 0813 2291 7740 (chat dulu)', '0813 2291 7740'),
    ('Kuya Ben — cp# 0928 441 2096', '0928 441 2096'),
    ('Логин: lin, пароль — Vk8!rTz2q', 'Vk8!rTz2q'),
], ids=lambda t: t[:28] if isinstance(t, str) else "")
def test_other_new_shapes_are_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    'Authorization: required for every endpoint except /health',
    '<string name="app_name">Lab Notes</string>\n<string name="api_key_hint">Paste your key here</string>',
    'SubjectPublicKeyInfo in hex: 3056301006072a8648ce3d020106052b8104000a034200041cea262b3ed16b883a2d54ea78d519f1906ba2c480d1e1ee6368bdbd6d35b5a0756f3f2fe504b94b65e531f78cf246f9333758b8bac892cbc92c41864049323c',
    'Boss HP: 12000/12000; WA state sales tax 6.5%',
    '授权码模式：授权码只能使用一次',
], ids=lambda t: t[:28])
def test_lookalikes_of_the_new_shapes_pass(text: str) -> None:
    assert found(text) == []


# ----- the false alarms of the last sealed negatives, in new shapes ---------------------------------------


@pytest.mark.parametrize("text", [
    '[uBlock Origin]\n! Title: 学习站点净化\n! Expires: 2 days\n! Contact: study.filters.cn@protonmail.com\n||cdn-ads.example^',
    'apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: smtp\nspec:\n  encryptedData:\n    SMTP_PASSWORD: AgAempPw3hpXTyJof3n1sPDLQFvf4kvjb47467afFCVvxK5x98fIwq0o8IKSzJkxSPVwCOsHYKvbq6ICRHqXlo88nhcIoMjHsJCC3PPxl5wEXBbTFYXDYS6a3a9kIfIpZ7PImyeZom81Az1FG4WzkUdxXE25D99Ubni==\n',
    'curl -u admin -p @secrets/pw.txt --tenant lab\nsqlcmd -S lab -U sa -i setup.sql -p @~/pw.txt',
    'Idempotency-Key: 11313989-4c0e-44e6-a50f-ff5263ffa4c4\ncache key: 823bc4a8c09d27fdf69f56198c799ca5',
    '<div class="h-captcha" data-sitekey="11313989-4c0e-44e6-a50f-ff5263ffa4c4"></div>',
    'https://example.org/post?gclid=lshbdE1beeo87TGYVJ7pjblRRZ5YEcIhF0XZFKop&utm_campaign=winter',
    '{ "key": "cmd+alt+k", "command": "workbench.action.toggleSidebar" }',
], ids=lambda t: t[:28])
def test_public_values_that_look_like_secrets_pass(text: str) -> None:
    assert found(text) == []


# ----- a home given in a sentence or as directions -----------------------------------------------------


@pytest.mark.parametrize(("text", "secret"), [
    ('Party at mine on Friday! We live at 17 Birchwood Avenue, Leeds — ring the top bell.', '17 Birchwood Avenue'),
    ('Ich wohne in der Lindenstraße 42, Vorderhaus, bei Familie Koch.', 'Lindenstraße 42'),
    ("Pour le colis : j'habite au 8 rue Mouffetard, escalier B.", '8 rue Mouffetard'),
    ('Desde la estación, vivo en la calle Alcalá 120, 4º B.', 'calle Alcalá 120'),
    ('周末来复习：出地铁往东走，进绿城小区，第 12 栋 3 单元 801，按门铃', '第 12 栋 3 单元 801'),
    ('地址就是枫林小区，6号楼2单元302，门口有快递柜', '枫林小区，6号楼2单元302'),
    ('宿舍在建设路 16 号院 2-3-402，晚上十点后别敲门', '建设路 16 号院 2-3-402'),
    ('配送フォーム\n住所：京都府京都市左京区吉田本町3-14 コーポ吉田201', '吉田本町3-14 コーポ吉田201'),
    ('Address line 1: 9 Via Garibaldi\nAddress line 2: Interno 5\nCity: Torino', '9 Via Garibaldi'),
    ('{"name": "王芳", "addr": "南京市鼓楼区汉口路 22 号 3 幢 502 室"}', '汉口路 22 号 3 幢 502 室'),
], ids=lambda t: t[:28] if isinstance(t, str) else "")
def test_a_home_in_a_sentence_or_directions_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    'I live in Shanghai and my school is at the 3rd ring road.',
    'We live in a world of 8 billion people and 195 countries.',
    'Ich wohne seit 2019 in Berlin.',
    '第二单元 第 5 课：期末考试在第 3 栋教学楼',
    'the house in 1990 was sold for 200,000 dollars',
    'Address: see the 3 campuses on the map',
], ids=lambda t: t[:28])
def test_sentences_about_living_somewhere_without_a_home_address_pass(text: str) -> None:
    assert found(text) == []


# ----- a name, spaces and a value; a secret store told a value; a value in escaped quotes -------------------


@pytest.mark.parametrize(("text", "secret"), [
    ('FROM python:3.12-slim\nENV QWEATHER_KEY 6fJ2kLq9Xz3mN8pR4tV7wY1bC5dH0sGa\nCMD ["python", "app.py"]', '6fJ2kLq9Xz3mN8pR4tV7wY1bC5dH0sGa'),
    ('<VirtualHost *:80>\n  SetEnv AMAP_SECRET 3c9e1f7a5b2d8e4f6a0c9b7d5e3f1a2b\n</VirtualHost>', '3c9e1f7a5b2d8e4f6a0c9b7d5e3f1a2b'),
    ('doppler secrets set STRIPE_WEBHOOK_SECRET Rk4mQ9xL2pT7vB1nZ8sW3yH6jD0fG5aC', 'Rk4mQ9xL2pT7vB1nZ8sW3yH6jD0fG5aC'),
    ('aws ssm put-parameter --name /notes/llm --type SecureString --value Hq2Lm8Xz4Tp9Bn3Rv7Ws1Ky6Jd5Fg0Ca', 'Hq2Lm8Xz4Tp9Bn3Rv7Ws1Ky6Jd5Fg0Ca'),
    ('az keyvault secret set --vault-name kbvault --name maps --value Zp8Qx3Lm9Tv2Bn7Rk4Ws6Yh1Jd5Fg0Ca', 'Zp8Qx3Lm9Tv2Bn7Rk4Ws6Yh1Jd5Fg0Ca'),
    ('resValue "string", "amap_api_key", "\\"Wx5Qm2Lz8Tp3Bn9Rk7Vs4Yh1Jd6Fg0Ca\\""', 'Wx5Qm2Lz8Tp3Bn9Rk7Vs4Yh1Jd6Fg0Ca'),
], ids=lambda t: t[:28] if isinstance(t, str) else "")
def test_a_key_after_its_name_in_a_directive_or_a_store_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    'ENV PYTHONUNBUFFERED 1\nENV LANG C.UTF-8\nENV PIP_INDEX_URL https://pypi.tuna.tsinghua.edu.cn/simple',
    'SetEnv APP_ENV production\nPassEnv TZ',
    'aws ssm put-parameter --name /notes/region --type String --value ap-east-1',
    'buildConfigField "String", "API_BASE", "\\"https://api.example.com/v1\\""',
    'gh secret set --help',
], ids=lambda t: t[:28])
def test_directives_and_stores_without_a_key_pass(text: str) -> None:
    assert found(text) == []


# ----- identity numbers with their checks: Russia's INN, Saudi Arabia's ID and iqama -------------------


@pytest.mark.parametrize(("text", "secret"), [
    ('Анкета стажёра\nИНН физлица 468819736990', '468819736990'),
    ('Для стипендии: ИНН (личный) — 500100732259', '500100732259'),
    ('بيانات الطالب\nرقم الهوية الوطنية: 1783970526', '1783970526'),
    ('Dorm form — Iqama no. (resident ID) 2040558310', '2040558310'),
], ids=lambda t: t[:28] if isinstance(t, str) else "")
def test_an_identity_number_of_more_countries_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    'ИНН организации указан в счёте; формат: 10 цифр для юрлиц, 12 для физлиц.',
    'رقم الهوية الوطنية يتكون من عشرة أرقام ويبدأ بالرقم 1',
    'Iqama renewal fee: 650 SAR, processing 5-10 days',
], ids=lambda t: t[:28])
def test_the_words_for_those_numbers_without_one_pass(text: str) -> None:
    assert found(text) == []


@pytest.mark.parametrize(("text", "secret"), [
    ('天气卡片：https://api.openweathermap.org/data/2.5/forecast?q=Wuhan&units=metric&appid=5f0d2c7e9a1b4c3d8e6f7a9b0c1d2e3f', '5f0d2c7e9a1b4c3d8e6f7a9b0c1d2e3f'),
    ('curl "https://api.wolframalpha.com/v2/query?input=pi&appid=QK8R2V-7LW9X4TJ3E&output=json"', 'QK8R2V-7LW9X4TJ3E'),
], ids=lambda t: t[:28] if isinstance(t, str) else "")
def test_a_key_under_appid_in_a_query_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    'https://open.weixin.qq.com/connect/oauth2/authorize?appid=wx520c15f417810387&redirect_uri=https%3A%2F%2Fa.example',
    'https://fanyi-api.baidu.com/api/trans/vip/translate?q=apple&from=en&to=zh&appid=20151113000005349',
    'https://store.steampowered.com/api/appdetails?appids=570&cc=cn',
], ids=lambda t: t[:28])
def test_public_app_ids_in_a_query_pass(text: str) -> None:
    assert found(text) == []
