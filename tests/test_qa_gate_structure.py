"""The content gate reads structure, not shapes: a label and its value in any container and language.

Each test is one general rule the generated grid (benchmarks/bench_gate_grid.py) showed
missing, checked on values made here, with the near miss that must pass: the same
container holding a hash, a UUID, an order number, an image or a placeholder under its
own label.
"""

from __future__ import annotations

import base64
import random
import string

import pytest
from gate_checks import found, withheld


def withheld_strictly(text: str, secret: str) -> bool:
    """Here a space inside the secret must be withheld too."""
    return withheld(text, secret, spaces_may_pass=False)


def _token(rng: random.Random, n: int = 32) -> str:
    chars = string.ascii_letters + string.digits
    while True:
        value = "".join(rng.choice(chars) for _ in range(n))
        if any(c.isdigit() for c in value) and any(c.isupper() for c in value):
            return value


def _luhn(body: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch) * (2 if i % 2 == 0 else 1)
        total += d - 9 if d > 9 else d
    return body + str((10 - total % 10) % 10)


RNG = random.Random(4242)
KEY = _token(RNG)
PASSWORD = "Lanqiu#0917"
PHONE = "139" + "".join(RNG.choice(string.digits) for _ in range(8))
CARD = _luhn("622848" + "".join(RNG.choice(string.digits) for _ in range(9)))


# ----- labels in other languages, in any container --------------------------------------------

@pytest.mark.parametrize("text", [
    '{\n  "パスワード": "October-0121",\n  "timeout": 30\n}\n',
    '[service]\n"密码" = "October-0121"\n',
    "service:\n  パスワード: October-0121\n",
    "[db]\n暗証番号 = October-0121\n",
])
def test_a_password_under_a_chinese_or_japanese_key_is_withheld(text: str) -> None:
    assert withheld_strictly(text, "October-0121")


def test_a_key_and_a_phone_under_japanese_labels_in_prose() -> None:
    assert withheld_strictly(f"メモ。シークレットキー: `{KEY}`\n", KEY)
    assert withheld_strictly(f"連絡先の電話番号：{PHONE}\n", PHONE)


# ----- XML, CSV and Markdown tables ---------------------------------------------------------------

def test_xml_elements_and_key_value_pairs_are_read_as_labels() -> None:
    assert withheld_strictly(f"<config>\n  <dbPassword>{PASSWORD}</dbPassword>\n</config>\n", PASSWORD)
    assert withheld_strictly(f'<appSettings>\n  <add key="dbPassword" value="{PASSWORD}"/>\n</appSettings>\n', PASSWORD)
    assert withheld_strictly(f"<config>\n  <appSecret>\n    {KEY}\n  </appSecret>\n</config>\n", KEY)


def test_xml_ids_and_hashes_under_their_own_names_pass() -> None:
    commit = "".join(RNG.choice("0123456789abcdef") for _ in range(40))
    assert found(f'<configuration>\n  <add key="commit" value="{commit}"/>\n</configuration>\n') == []
    assert found(f"2024-05-12 10:31:02 INFO auth ok user=lilei commit='{commit}'\n") == []
    assert found(f"2024-05-12 10:31:02 INFO auth ok user=lilei 提交='{commit}'\n") == []


def test_a_csv_column_named_for_a_secret_is_withheld_cell_by_cell() -> None:
    text = f'name,db_password,phone,note\nlab-server,"{PASSWORD}"，,{PHONE},main\nbackup,,,\n'
    assert withheld_strictly(text, PASSWORD)
    assert withheld_strictly(text, PHONE)


def test_a_markdown_table_column_names_what_its_cells_hold() -> None:
    text = f"| 项目 | 手机号 | Card number |\n|---|---|---|\n| lab | `{PHONE}` | {CARD}， |\n"
    assert withheld_strictly(text, PHONE)
    assert withheld_strictly(text, CARD)


def test_an_order_number_beside_the_word_for_an_account_is_not_a_card() -> None:
    order = "20230906" + "7112083644"
    assert found(f"| 项目 | 订单号 | 备注 |\n|---|---|---|\n| lab | `{order}` | 主账号 |\n") == []


# ----- a label above the value ---------------------------------------------------------------------

@pytest.mark.parametrize("template", [
    "# .env\nDEBUG=false\n# 手机号\nVALUE_1=\"{v}\"\nPORT=8080\n",
    "// 電話番号\nconst config = {{\n  value1: '{v}',\n  retries: 3,\n}};\n",
    "# 手机号\ncurl -s https://api.mylab.cn/v1/me \\\n  -H \"X-Value: {v}\" \\\n  -H \"Accept: application/json\"\n",
])
def test_a_comment_names_what_the_neutral_name_below_it_holds(template: str) -> None:
    assert withheld_strictly(template.format(v=PHONE), PHONE)


def test_a_comment_does_not_name_a_value_that_has_a_name_of_its_own() -> None:
    assert found("# 密码\nPASSWORD_MIN_LENGTH=12\nTIMEOUT=30\n") == []
    assert found("# password hashing\nhasher = Argon2(time_cost=3)\n") == []


def test_a_value_written_below_the_sentence_that_names_it() -> None:
    text = f"password写在下面，课程结束后记得换掉。\n\n周二的课堂笔记。\n\n`{PASSWORD}`\n"
    assert withheld_strictly(text, PASSWORD)
    text = f"The phone for the lab is written below.\n\nNotes from Tuesday.\n\n{PHONE}\n"
    assert withheld_strictly(text, PHONE)


def test_a_yaml_key_under_a_label_line_is_not_its_value() -> None:
    assert found("db:\n  password:\n    secretKeyRef:\n      name: pg\n") == []


# ----- a value in pieces -------------------------------------------------------------------------

@pytest.mark.parametrize("template", [
    'api_key = (\n    "{a}"\n    "{b}"\n)\n',
    "const appSecret = '{a}' +\n  '{b}';\n",
    'export APP_SECRET="{a}"\\\n"{b}"\n',
    "service:\n  app_secret: >-\n    {a}\n    {b}\n",
    "| 项目 | App secret |\n|---|---|\n| lab | {a}<br>{b} |\n",
    "App secret (copied in two halves):\n{a}\n{b}\n",
])
def test_a_key_split_over_lines_or_literals_is_withheld_whole(template: str) -> None:
    a, b = KEY[:16], KEY[16:]
    text = template.format(a=a, b=b)
    assert withheld_strictly(text, a) and withheld_strictly(text, b)


def test_a_list_of_words_on_lines_is_not_joined_into_a_key() -> None:
    assert found("Fruit:\nApple\nBanana\nCherry\n") == []
    assert found("Recovery key ID 1A2B…\nsee the printout\n") == []


def test_a_key_masked_in_the_middle_still_gives_itself_away() -> None:
    masked = KEY[:14] + "****" + KEY[18:]
    text = f"  512  mytool login --app-secret '{masked}'\n"
    assert withheld_strictly(text, KEY[:14]) and withheld_strictly(text, KEY[18:])
    # A dashboard's abbreviation ("sk-…abcd") keeps too little to matter, and "..." is prose.
    assert found("The key looks like sk-proj-...wxyz in the console.") == []


# ----- encoded values ----------------------------------------------------------------------------

def test_a_base64_value_is_judged_by_what_it_says() -> None:
    encoded = base64.b64encode(PHONE.encode()).decode()
    text = f"apiVersion: v1\nkind: Secret\ndata:\n  # 手机号\n  value-1: {encoded}\n"
    assert withheld_strictly(text, encoded)
    placeholder = base64.b64encode(b"${DB_PASSWORD}").decode()
    assert found(f"apiVersion: v1\nkind: Secret\ndata:\n  api_key: {placeholder}\n") == []


def test_a_zero_width_space_inside_an_encoded_value_does_not_hide_it() -> None:
    encoded = base64.b64encode("1380\u200b0138000".encode()).decode()
    assert withheld_strictly(f"data:\n  phone: {encoded}\n", encoded)


def test_a_data_uri_is_an_image_not_a_credential() -> None:
    image = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(range(60))).decode()
    assert found(f"  512  mytool login --icon data:image/png;base64,{image}\n") == []
    from urllib.parse import quote
    url = f"https://api.mylab.cn/v1/sync?user=lilei&icon={quote('data:image/png;base64,' + image, safe='')}&page=2"
    assert found(url) == []


# ----- values people choose ------------------------------------------------------------------------

@pytest.mark.parametrize("password", ["!maomao0523", "$Panda0324", "@Xiaoming2015", "-harbin0301", "ResMqmZWtQtB"])
def test_a_password_that_starts_with_a_symbol_or_has_no_digits_is_still_one(password: str) -> None:
    assert withheld_strictly(f'# .env\nDB_PASSWORD="{password}"\nPORT=8080\n', password)


@pytest.mark.parametrize("value", ["$DB_PASSWORD", "!Ref DbPassword", "@required", "getPassword", "ChangeMe"])
def test_code_and_placeholders_under_a_password_label_pass(value: str) -> None:
    assert found(f'<config>\n  <dbPassword>{value}</dbPassword>\n</config>\n') == []


@pytest.mark.parametrize("text", [
    "PASSPORT_NO=\"E01887055\"\n",
    "mytool register --passport-no E01887055\n",
    "https://visa.example.cn/apply?name=li&passport_no=E01887055&page=2\n",
])
def test_a_passport_number_under_a_code_name(text: str) -> None:
    assert withheld_strictly(text, "E01887055")


# ----- code that looks like a table or a value in pieces ------------------------------------------

def test_a_parameter_list_is_not_a_csv_table() -> None:
    code = ("    def __init__(\n        self,\n        token=None,\n        password=None,\n"
            "        proxy_to=None,\n        use_https=False,\n    ):\n")
    assert found(code) == []
    names = ("    names = [\n        'test_not_equal', 'test_pass', 'test_summary', 'test_true',\n"
             "        'utf8_to_utf32', 'utf32_to_utf8', 'version', 'vlookup',\n    ]\n")
    assert found(names) == []


def test_a_column_of_one_word_lines_is_a_list_not_a_key_in_pieces() -> None:
    words = "\n".join(f"          {w}" for w in ("rgba8unorm", "rgba8snorm", "rgba8uint", "rgba16sint",
                                                  "rg32float", "bgra8unorm"))
    assert found(f"builtin key words:\n          sample_index sample_mask\n{words}\n") == []


# ----- round two: what the held-out templates showed ------------------------------------------------

@pytest.mark.parametrize("text", [
    f"Here's the password you asked for -> \"{PASSWORD}\" (don't share)\n",
    f"备忘：密码 -> 「{PASSWORD}」（别外传）\n",
    f"Heads up: I changed the password to {PASSWORD} on Monday, tell the others.\n",
    f"昨天把密码改成了{PASSWORD}记得通知大家。\n",
    f"パスワードは{PASSWORD}です。\n",
])
def test_a_password_in_a_sentence_after_an_arrow_or_a_verb(text: str) -> None:
    assert withheld_strictly(text, PASSWORD)


def test_prose_about_a_password_is_not_one() -> None:
    assert found("    :param key_password:\n        Optional password if the keyfile is encrypted.\n") == []
    assert found("The password is required and the token is refreshed hourly.") == []


@pytest.mark.parametrize("template", [
    'os.Setenv("DB_PASSWORD", "{v}")\n',
    'std::env::set_var("DB_PASSWORD", "{v}");\n',
    'props.setProperty("db.password", "{v}");\n',
    'os.environ["DB_PASSWORD"] = "{v}"\n',
    "const dbPassword = process.env.DB_PASSWORD ?? '{v}';\n",
])
def test_a_name_and_its_value_passed_side_by_side_in_code(template: str) -> None:
    assert withheld_strictly(template.format(v=PASSWORD), PASSWORD)


def test_a_list_of_constant_names_is_not_a_name_and_its_value() -> None:
    assert found("        'CURLOPT_MAIL_RCPT', 'CURLOPT_PASSWORD', 'CURLOPT_READDATA',\n") == []


def test_a_tab_separated_column_and_a_label_in_a_table_row() -> None:
    assert withheld_strictly(f"host\tdb_password\tnote\nlab\t{PASSWORD}\tmain\n", PASSWORD)
    text = f"| 字段 | 值 |\n|---|---|\n| 主机 | 10.0.0.5 |\n| 手机号 | {PHONE} |\n"
    assert withheld_strictly(text, PHONE)
    assert found("| 字段 | 值 |\n|---|---|\n| 密码 | 见纸条 |\n| 主机 | 10.0.0.5 |\n") == []


# ----- round three: what the second held-out set showed ---------------------------------------------

@pytest.mark.parametrize("text", [
    f"INSERT INTO accounts (name, db_password) VALUES ('lilei', '{PASSWORD}');\n",
    f"## 服务器\n\n- 主机：10.0.0.5\n- **Password**: `{PASSWORD}`\n",
    f'variable "db_password" {{\n  type    = string\n  default = "{PASSWORD}"\n}}\n',
    f'defaults: &d\n  db_password: &v "{PASSWORD}"\nprod:\n  <<: *d\n',
    f"ENV['DB_PASSWORD'] ||= '{PASSWORD}'\n",
    f'<input name="db_password" type="text" value="{PASSWORD}">\n',
    f"<dict>\n  <key>dbPassword</key>\n  <string>{PASSWORD}</string>\n</dict>\n",
    f"VPN login for lilei, password `{PASSWORD}` until Friday.\n",
])
def test_a_password_in_sql_terraform_yaml_anchors_html_and_plists(text: str) -> None:
    assert withheld_strictly(text, PASSWORD)


def test_a_dotted_property_name_is_read_by_all_its_parts() -> None:
    assert withheld_strictly("passport.no=EA0438242\n", "EA0438242")


def test_a_block_named_for_a_secret_names_only_its_value_key() -> None:
    commit = "".join(RNG.choice("0123456789abcdef") for _ in range(40))
    text = f'{{\n  "credentials": {{\n    "user": "app",\n    "commit": "{commit}"\n  }}\n}}\n'
    assert found(text) == []
    assert found("INSERT INTO books (title, isbn) VALUES ('SICP', '978-7-111-54493-7');\n") == []


def test_the_hex_digits_written_out_after_a_token_word_are_not_a_key() -> None:
    code = ('def is_token(value: str) -> bool:\n'
            '    return len(value) == _TOKEN_HEX_LENGTH and all(character in "0123456789abcdef" for character in value)\n')
    assert found(code) == []
