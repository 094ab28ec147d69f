"""A second held-out batch: written after the fixes the first held-out batch prompted.

Like ``heldout``, never used to change the detectors before it was measured.
First run: 38/49 found (77.6 %) — api_key 10/13, auth_header 2/2,
connection_string 4/5, private_key 3/4, password 5/10, resident_id 3/3,
mobile 4/5, bank_card 3/3, email 4/4. Misses: a key passed positionally to a
client, a URL-encoded bearer, a dashed vendor token body, sqlplus user/pass@,
a marker-less key's short last line, Spanish/French password words, ``psk``,
"password to …", 密码改成了 …, a phone spelled digit by digit. Fixed after
that measurement; since then a regression set.
"""

from __future__ import annotations

from benchmarks.gate_corpus import Case

OPENSSH_CRLF = """-----BEGIN OPENSSH PRIVATE KEY-----
b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW
QyNTUxOQAAACAXV1deHM9CDzmkArDQG0kCOccZOMjrO5wBzQjN339zlAAAAJDQcRji0HEY
4gAAAAtzc2gtZWQyNTUxOQAAACAXV1deHM9CDzmkArDQG0kCOccZOMjrO5wBzQjN339zlA
AAAEBeHDO2kU6cqgrF0yhMFGSEYfuZwzPSgYiZQ2rDsKDjYxdXV14cz0IPOaQCsNAbSQI5
xxk4yOs7nAHNCM3ff3OUAAAADWxpbGVpQGRlc2t0b3A=
-----END OPENSSH PRIVATE KEY-----""".replace("\n", "\r\n")
EC_384 = """-----BEGIN EC PRIVATE KEY-----
MIGkAgEBBDDlfUIDHnAKS3NpmFpTIT4T8wzMt/bhpKhUPzyKj/TofGP3Zsljll9q
WcBkVRE0h8agBwYFK4EEACKhZANiAATT336O8TiHsyi3g/It1wVumXzCb/PaRuvW
4xmJg0z630Swfx22ZsOiZan5d78yIfjfbfXCcLKK98buwjhBvBb2611cQzO409G7
VE2iHEiNeLmcySdEGMAD1ZjwnzlshzI=
-----END EC PRIVATE KEY-----"""
RSA_1024_B = """-----BEGIN PRIVATE KEY-----
MIICdgIBADANBgkqhkiG9w0BAQEFAASCAmAwggJcAgEAAoGBAL8Ob6zxoi/JGUl2
WWWS6xPbCKbwSsrRcb9euftJHu+4eoTk2Tl2fhUvhLzfKe028+3Rgm0gas3nG6Cw
oYypc9oeDM4OX0rvevYMyIWCG+I6a8v03eZt2SxcSofFyM8pKF4iu2GFQwOqFyji
eBsFAmAU1xjnuiTh1s+EDltDV8RZAgMBAAECgYAkOk2MwqjZXM2Rs4JSE2DF/BOQ
7CGSgdKK0iB7+KqIFDgPOQHDtqdDxyXpVnuxwmjQoJiVrr7x2i/P8Y5AiOUxk/0z
O8pSsmO+864FSWA2UeIwIV0z0UoBf3ilLKe/am1whJRWAWEkbWDovjONeVX7AkqH
3uJoz9/NK2XSF88tAQJBAOCxRsWvE5Tr4nq+V73WHBZ/TLDkfLi8gONZCPx6Yz+V
47Gz6HpawwLihB6dBF4A1E1HQtcdqNfm5kl8khIakCECQQDZrV5vCN6yKbH/p5DY
kv19yuCMpTHz8lHpv2cRt8+tEnLRqxGC5qZTVbmmyF6XR1Uu4cKhV98EdyayLNBO
nA05AkBlRwLDcBq/cWNwOAOMicm3SkHjKdod2rmtwCAQzYmWy5UKMDGFlQt5bWhn
9BZX2L/Y5Vn3ZGMKjgUW8pNUnayBAkEAhU8vrkB4YhQ29qLgikI7DHba3ketOAEH
OWgG70rq3MuXleB2cPxgkFjHweSkSXFeMcABOl5eLpXqFORtDjdzwQJAGao0Xrte
Z04gA9912dOIkYH0jZvta2U5PReh2b6Lo3siCUEU9FIolsVfbmzPR6q1VvcLW/QB
K0wCmnfOeZIs8w==
-----END PRIVATE KEY-----"""


def _body(pem: str) -> tuple[str, ...]:
    return tuple(line.strip() for line in pem.splitlines() if line.strip() and not line.startswith("-----"))


CASES: list[Case] = [
    # ----- service tokens ------------------------------------------------------------------
    Case("h2-mistral-zh", "api_key", "note",
         "Mistral 的 API 密钥：GouSHrcvm2i4JSyw8zIDmjEU6QtBalmM（免费层）",
         ("GouSHrcvm2i4JSyw8zIDmjEU6QtBalmM",)),
    Case("h2-cohere-positional", "api_key", "py",
         "import cohere\n\nco = cohere.Client(\"RbCJIAgQ99BKjYykHF850CpyQUaHV4nZSORi6KM8\")\nprint(co.chat(message=\"hi\"))\n",
         ("RbCJIAgQ99BKjYykHF850CpyQUaHV4nZSORi6KM8",)),
    Case("h2-google-refresh-token", "api_key", "json",
         '{"client_id": "8812-abc.apps.googleusercontent.com", "refresh_token": '
         '"1//0gC5UlfVjGQo0C-mrcTdWGAodjQxuMTu6sdDppOKf-Tc8HTTtzi_cI20bRz-_wMEDjhjO2rrg9bxcQfkJ9Uc_erNPeC53_WRPUEe", '
         '"token_uri": "https://oauth2.googleapis.com/token"}\n',
         ("1//0gC5UlfVjGQo0C-mrcTdWGAodjQxuMTu6sdDppOKf-Tc8HTTtzi_cI20bRz-_wMEDjhjO2rrg9bxcQfkJ9Uc_erNPeC53_WRPUEe",)),
    Case("h2-heroku-uuid-env", "api_key", "env",
         "HEROKU_API_KEY=aaf5c189-dc3f-44f6-969e-aeee5e452281\nHEROKU_APP=kb-notes\n",
         ("aaf5c189-dc3f-44f6-969e-aeee5e452281",)),
    Case("h2-deepl-yaml", "api_key", "yaml",
         "translator:\n  engine: deepl\n  auth_key: 637e59c4-2a7c-497e-ab42-5d5cae23add5:fx\n",
         ("637e59c4-2a7c-497e-ab42-5d5cae23add5:fx",)),
    Case("h2-baidu-fanyi-zh", "api_key", "note",
         "百度翻译开放平台 APP ID 20240311001234567，密钥 iWQX1LdATnsqRPS5tCTs",
         ("iWQX1LdATnsqRPS5tCTs",)),
    Case("h2-telegram-url", "api_key", "md",
         "推送脚本：\n\n```\ncurl \"https://api.telegram.org/bot5683257916:AA70USOhA5HV7EBGKn_VgGXH8NIzkGYG9Jn/sendMessage?chat_id=42&text=hi\"\n```\n",
         ("5683257916:AA70USOhA5HV7EBGKn_VgGXH8NIzkGYG9Jn",)),
    Case("h2-twitter-bearer-env", "api_key", "env",
         "TWITTER_BEARER=AAAAAAAAAAAAAAAAAAAAAfHZ8AOcFAtKJ0A5bvSAUNB6CK1a2Hn%3DhbLYy65fyxY3pZW1GEuCWUNGEgCeH4GKPAGpI6tBun6L1LSCJG\n",
         ("AAAAAAAAAAAAAAAAAAAAAfHZ8AOcFAtKJ0A5bvSAUNB6CK1a2Hn%3DhbLYy65fyxY3pZW1GEuCWUNGEgCeH4GKPAGpI6tBun6L1LSCJG",)),
    Case("h2-git-credentials", "api_key", "txt",
         "https://lilei:ghp_ShrpTaH1U54UHPF6U6gBuf5zRVXe1iGlU9q5@github.com\n",
         ("ghp_ShrpTaH1U54UHPF6U6gBuf5zRVXe1iGlU9q5",)),
    Case("h2-pinecone-py", "api_key", "py",
         'from pinecone import Pinecone\n\npc = Pinecone(api_key="c2f25ba2-a6ad-4d15-9cea-aa7b86b80b67")\n',
         ("c2f25ba2-a6ad-4d15-9cea-aa7b86b80b67",)),
    Case("h2-dify-app-key", "api_key", "note",
         "Dify 上的“错题讲解”应用，调用凭据 app-BvOdSyQtfkd2EJr0F5mVKXpM",
         ("app-BvOdSyQtfkd2EJr0F5mVKXpM",)),
    Case("h2-xfyun-triple", "api_key", "note",
         "讯飞星火：APPID 5f3a2b1c\nAPISecret wEqUYiViQa8ZXWIv5CoY360WDgXsGfI4\nAPIKey ce37577e72ff3fe8cf37091aa2dbb8c9",
         ("wEqUYiViQa8ZXWIv5CoY360WDgXsGfI4", "ce37577e72ff3fe8cf37091aa2dbb8c9")),
    Case("h2-docker-pat", "api_key", "md",
         "```\necho dckr_pat_sHOXTcaaHb-OlV7ypjaBZurFOY7 | docker login -u lilei --password-stdin\n```\n",
         ("dckr_pat_sHOXTcaaHb-OlV7ypjaBZurFOY7",)),
    # ----- headers ---------------------------------------------------------------------------
    Case("h2-js-fetch-header", "auth_header", "md",
         "```js\nfetch('/api/grades', { headers: { 'X-Auth-Token': 'a8d1be9554cadd4ac97ba4f79e5acf67' } })\n```\n",
         ("a8d1be9554cadd4ac97ba4f79e5acf67",)),
    Case("h2-httpie-no-space", "auth_header", "note",
         "http GET api.lab.cn/me \"Authorization:Bearer 7f65e15a157ab6844115b912bafeefe1\"",
         ("7f65e15a157ab6844115b912bafeefe1",)),
    # ----- connection strings ----------------------------------------------------------------
    Case("h2-sqlalchemy-uri", "connection_string", "py",
         "SQLALCHEMY_DATABASE_URI = 'postgresql+psycopg2://app:s3cr3t_pw@localhost/app'\n",
         ("s3cr3t_pw",)),
    Case("h2-clickhouse", "connection_string", "note",
         "ClickHouse 分析库 clickhouse://default:ch_pass_88@ch-node1:9000/analytics",
         ("ch_pass_88",)),
    Case("h2-kafka-jaas", "connection_string", "txt",
         "sasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
         "username=\"kb\" password=\"kaf_k4_pw\";\n",
         ("kaf_k4_pw",)),
    Case("h2-sqlplus", "connection_string", "md",
         "```\nsqlplus kbadmin/Orcl#2024@10.0.0.9:1521/ORCLPDB1\n```\n",
         ("Orcl#2024",)),
    Case("h2-elastic-url", "connection_string", "env",
         "ES_URL=https://elastic:Es-Pa55-2024@es01:9200\n",
         ("Es-Pa55-2024",)),
    # ----- private keys ----------------------------------------------------------------------
    Case("h2-openssh-crlf", "private_key", "note",
         "Windows 上复制来的 key：\r\n" + OPENSSH_CRLF + "\r\n",
         _body(OPENSSH_CRLF)),
    Case("h2-ec-blockquote", "private_key", "md",
         "> 备份的 EC 私钥：\n>\n" + "".join(f"> {line}\n" for line in EC_384.splitlines()),
         _body(EC_384)),
    Case("h2-rsa-no-markers-note", "private_key", "note",
         "老服务器 key（只复制了中间部分）：\n" + "\n".join(RSA_1024_B.splitlines()[1:-1]),
         _body(RSA_1024_B)),
    Case("h2-alipay-one-line", "private_key", "txt",
         "alipay.app-id=2021004112345678\nalipay.private-key=MIIEvAIBADANBgkqhkiG9w0BAQEFAASCBKYwggSiAgEAAoIBAQC7xmk6dcapVlk2o6Po0zZ0+KjBo54C+yiuZWl/yT8n/tH3bMVjPAMUrTCY4a7iJqx7uDSeHoE8orrWBZ8BJIPMk96x6ghRbC2lmGqhZfeaiId7YPsTFLtMRbM/dIjoSV3SvkiTQfPhk5J+f4N+7gl49LMp3pkg54WdvBdp7fjONS0eXGh/itmPfNt3HoaKc7s6uxi05Oh\n",
         ("MIIEvAIBADANBgkqhkiG9w0BAQEFAASCBKYwggSiAgEAAoIBAQC7xmk6dcapVlk2o6Po0zZ0+KjBo54C+yiuZWl/yT8n/tH3bMVjPAMUrTCY4a7iJqx7uDSeHoE8orrWBZ8BJIPMk96x6ghRbC2lmGqhZfeaiId7YPsTFLtMRbM/dIjoSV3SvkiTQfPhk5J+f4N+7gl49LMp3pkg54WdvBdp7fjONS0eXGh/itmPfNt3HoaKc7s6uxi05Oh",)),
    # ----- passwords -------------------------------------------------------------------------
    Case("h2-kouling-wei", "password", "note",
         "邮箱登录口令为 aB3$kL9q，下个月改",
         ("aB3$kL9q",)),
    Case("h2-german-passwort", "password", "note",
         "Uni-Konto: Benutzer lilei, Passwort: Geheim123",
         ("Geheim123",)),
    Case("h2-spanish-contrasena", "password", "note",
         "Cuenta del laboratorio — contraseña: Hola2024!",
         ("Hola2024!",)),
    Case("h2-french-mdp", "password", "note",
         "Wi-Fi de la bibliothèque, mot de passe : Soleil2024",
         ("Soleil2024",)),
    Case("h2-wifi-psk-yaml", "password", "yaml",
         "wifi:\n  ssid: Lab-5G\n  psk: \"lab-psk-2024\"\n",
         ("lab-psk-2024",)),
    Case("h2-my-cnf", "password", "txt",
         "[client]\nuser=root\npassword=\"My.Cnf#1\"\n",
         ("My.Cnf#1",)),
    Case("h2-password-set-to", "password", "note",
         "I set the router admin password to Rt#88aa yesterday, write it down somewhere safe",
         ("Rt#88aa",)),
    Case("h2-mima-gaicheng", "password", "note",
         "教务系统新密码改成了 Qq123456，旧的作废",
         ("Qq123456",)),
    Case("h2-sim-pin-yaml", "password", "yaml",
         "phone:\n  carrier: China Mobile\n  pin: 0519\n",
         ("0519",)),
    Case("h2-requests-basic-auth", "password", "py",
         "from requests.auth import HTTPBasicAuth\n\nr = requests.get(URL, auth=HTTPBasicAuth('admin', 'Adm1n!2024'))\n",
         ("Adm1n!2024",)),
    # ----- resident IDs ----------------------------------------------------------------------
    Case("h2-id-csv", "resident_id", "txt",
         "姓名,性别,身份证号,学院\n王芳,女,440304198808163014,计算机学院\n",
         ("440304198808163014",)),
    Case("h2-id-fullwidth-spaced", "resident_id", "note",
         "身份证号码：５００１０３　１９９５０４０２　１１２５",
         ("５００１０３　１９９５０４０２　１１２５",)),
    Case("h2-id-english-no", "resident_id", "note",
         "Applicant ID No. 130602198111250629 (PRC)",
         ("130602198111250629",)),
    # ----- phone numbers ---------------------------------------------------------------------
    Case("h2-mobile-86-dashes", "mobile", "note",
         "Mobile: +86-139-1234-5678",
         ("139-1234-5678",)),
    Case("h2-vcard-tel", "mobile", "txt",
         "BEGIN:VCARD\nFN:李雷\nTEL;TYPE=CELL:+8613812345679\nEND:VCARD\n",
         ("13812345679",)),
    Case("h2-hk-mobile", "mobile", "note",
         "香港导师 WhatsApp +852 9123 4567",
         ("9123 4567",)),
    Case("h2-mobile-single-digit-spaces", "mobile", "note",
         "电话 1 3 9 1 2 3 4 5 6 7 8",
         ("1 3 9 1 2 3 4 5 6 7 8",)),
    Case("h2-contacts-json-tel", "mobile", "json",
         '{"contacts": [{"n": "陈老师", "tel": "13912345670"}]}\n',
         ("13912345670",)),
    # ----- bank cards ------------------------------------------------------------------------
    Case("h2-cmb-card", "bank_card", "note",
         "招行卡号：6214 8301 2345 6781",
         ("6214 8301 2345 6781",)),
    Case("h2-card-table", "bank_card", "md",
         "| 银行 | 卡号 |\n|---|---|\n| 工行 | 6222 0812 3456 7890 125 |\n",
         ("6222 0812 3456 7890 125",)),
    Case("h2-visa-test-context", "bank_card", "note",
         "card number: 4012888888881881 (exp 11/27, for the conference)",
         ("4012888888881881",)),
    # ----- e-mail ----------------------------------------------------------------------------
    Case("h2-email-paren-at", "email", "note",
         "Email: li.hua (at) sjtu.edu.cn",
         ("li.hua (at) sjtu.edu.cn",)),
    Case("h2-email-upper", "email", "note",
         "有事联系 ZHANGSAN@163.COM",
         ("ZHANGSAN@163.COM",)),
    Case("h2-vcard-email", "email", "txt",
         "BEGIN:VCARD\nFN:王芳\nEMAIL;TYPE=INTERNET:wangfang@bjtu.edu.cn\nEND:VCARD\n",
         ("wangfang@bjtu.edu.cn",)),
    Case("h2-email-display-name", "email", "note",
         "抄送 “张老师” <zhang.teacher@ruc.edu.cn>",
         ("zhang.teacher@ruc.edu.cn",)),
]
