"""Held-out batch 11: secrets and personal data in shapes the gate was not designed around.

Written in session 12 by an engineer (gwriter) who had read DESIGN.md, the README's privacy
paragraph, the corpus format (``__init__``, bench_gate.py) and only the docstrings of the earlier
batches (heldout to heldout9 and the sealed heldout10), never the detectors, the earlier batches'
cases nor the gate's tests; the gate was not run on it while it was written. 179 cases:
api_key 39, auth_header 11, connection_string 14, private_key 9, password 25, resident_id 12, mobile 11, bank_card 9, email 8, passport 8, address 10, otp_secret 8, recovery_phrase 8, licence_plate 7.
Values generated for the corpus (/root/lead12/gate/gen11.py, seed 1111): keys random in each
provider's shape, private keys real but built from the seed and thrown away (RSA from seeded primes,
EC/Ed25519/X25519 from seeded scalars, the OpenSSH file assembled by hand), ID/card/IBAN/plate
numbers built to pass their checksums (CN GB 11643, T.C. Kimlik, codice fiscale, personnummer,
BSN 11-proof, Thai ID, SIN and card Luhn, NIR key, IBAN mod-97, Singapore plate letter), BIP39
phrases with valid checksums (Russian, Turkish, English, Simplified Chinese; SeedQR and 1-based
indices of valid phrases) and an Electrum segwit seed with a valid version prefix; none belongs to
anyone. Addresses are labelled from the road, village or building down (city and district left, as
the gate's design says). Encoded secrets (base64, percent-escaped, compose's $$) are labelled as they
appear in the text; a private key is labelled line by line (its body lines), a grid of seed words
word by word.

Shapes, one per case (category: shape):
api_key: Baidu Qianfan v2 key (bce-v3/ALTAK-…/…, slashes inside) in an OpenAI-compatible client
api_key: StepFun (阶跃星辰) key in a Next.js .env.local under a Chinese comment
api_key: SenseNova AK/SK in a Java .properties file whose comments are native2ascii \\u escapes
api_key: Youdao 智云 appSecret in an Anki add-on config.json (appKey is only an id)
api_key: Baidu Translate 密钥 (20 characters) beside its appid in a batch-translation script
api_key: Tushare Pro token in a Jupyter cell's source lines (finance course homework)
api_key: QWeather (和风天气) key in a mini-program request URL's query string
api_key: ServerChan (Server酱) SendKey as a URL path segment
api_key: PushPlus token exported in a QingLong (青龙面板) config.sh
api_key: Bark device key as the first path segment of a push URL in a Shortcuts note
api_key: JPush (极光推送) masterSecret passed positionally to the Java client
api_key: Agora App Certificate beside its App ID in a Go token server
api_key: WhatsApp Cloud API (Meta EAAG…) token in an exported Postman environment
api_key: Zulip ~/.zuliprc [api] key
api_key: Mastodon access token in a Mastodon.py auto-post script
api_key: ntfy access token (tk_…) as default-token in client.yml
api_key: Fly.io deploy token (FlyV1 fm2_…) printed by `fly tokens create deploy`
api_key: RubyGems API key in ~/.gem/credentials (YAML with a symbol key)
api_key: NuGet API key (oy2…) on a `dotnet nuget push` line in a terminal transcript
api_key: Codecov upload token (a bare UUID) written into a workflow's with: block
api_key: Lichess personal API token (lip_…) in a berserk script
api_key: CurseForge API key (bcrypt-shaped $2a$10$…) with compose's $$ escaping
api_key: osu! API v2 client secret in a Discord bot config.json (client_id is a number)
api_key: Paystack live secret key in a Flask config.py
api_key: Flutterwave secret key (FLWSECK-…-X) in a Laravel .env
api_key: Langfuse secret key (sk-lf-<uuid>) next to its public pk-lf key
api_key: Fireworks AI key (fw_…) in a LiteLLM proxy config.yaml model list
api_key: Todoist API token in an Alfred workflow info.plist (<key>/<string> pairs)
api_key: Trello token in a REST URL's query string (the key beside it is an app id)
api_key: Scaleway secret key (a UUID) under French labels
api_key: Chatwork API token under a Japanese label
api_key: VK API access token (vk1.a.…) under a Russian label
api_key: base64 of a whole .env (Cerebras key inside) kept as one CI secret
api_key: Brave Search key inside a JSON-escaped string nested in an Open WebUI export
api_key: Coding.net personal token inside a git url.insteadOf rule
api_key: Baidu AI Cloud AK/SK read by OCR from a console screenshot laid out in columns
api_key: Jina key inside a percent-encoded URL carried as another URL's parameter
api_key: Resend key (re_…_…) in a Next.js route handler
api_key: Backblaze B2 application key given positionally to `b2 account authorize`
auth_header: YouTube session cookies in a Netscape cookies.txt for yt-dlp (tab-separated)
auth_header: Bearer token hard-coded in a WeChat mini-program wx.request header
auth_header: bearer token in an Insomnia v4 export's authentication block
auth_header: session cookies passed to sqlmap --cookie in a CTF write-up
auth_header: Set-Cookie session in a `curl -i` login response transcript
auth_header: access and refresh tokens read from localStorage in a DevTools console copy
auth_header: Authorization value in a JMeter .jmx HeaderManager element
auth_header: Basic credentials as a base64 literal in Java HttpURLConnection.setRequestProperty
auth_header: Xiaohongshu web_session cookie in a requests script
auth_header: NetEase Cloud Music MUSIC_U login cookie in an API server .env
auth_header: AWS presigned URL with a session token and signature (valid 7 days)
connection_string: PHP mysqli_connect with the password as the third positional argument
connection_string: pymssql.connect(server, user, password, database) positional
connection_string: ldapsearch bind DN with -w password
connection_string: smb:// URL with user:password for a NAS in Finder's Connect to Server
connection_string: svn checkout --username --password in a course setup script
connection_string: mongosh with --username/--password/--authenticationDatabase flags
connection_string: cqlsh -u -p positional host in a Cassandra lab transcript
connection_string: new Sequelize(database, username, password, options) positional
connection_string: ZooKeeper zkCli addauth digest user:password
connection_string: vnc:// URL with only a password (empty user) in a remote-lab note
connection_string: RSYNC_PASSWORD env before an rsync:// daemon URL in a cron line
connection_string: Prometheus scrape_config basic_auth username/password
connection_string: r2dbc:postgresql:// URL with credentials in a Spring WebFlux config
connection_string: authenticated http_proxy URL in /etc/environment
private_key: Ethereum account private key (0x + 64 hex) in a Hardhat config's accounts array
private_key: libsodium Ed25519 secret key (seed||public, 128 hex) in PyNaCl SigningKey
private_key: Apple .p8 key (PKCS#8 EC PEM) in an indented triple-quoted Python string
private_key: OpenSSH private key as stdout lines of a notebook cell (one JSON string per line)
private_key: Solana secret key as base58 (64 bytes) copied from a wallet's export screen
private_key: Xray REALITY x25519 privateKey in a server config.json (publicKey is public)
private_key: RSA key inside a quoted multi-line CSV cell of a password-manager export
private_key: EC P-384 key in a Terraform <<-EOT heredoc
private_key: CometBFT priv_validator_key.json priv_key value (base64 of 64 bytes)
password: Indonesian 'kata sandi' label in a language-exchange chat
password: Polish 'hasło' label for a university e-learning account
password: Thai รหัสผ่าน label in a Thai-class LINE note
password: Dutch 'wachtwoord' in a Markdown housing checklist
password: tomcat-users.xml <user … password=… roles=manager-gui/>
password: Android keystore storePassword/keyPassword in build.gradle signingConfigs
password: Windows `net user NAME PASSWORD /add` in a lab setup note
password: echo … | passwd --stdin on CentOS
password: useradd -p "$(openssl passwd -6 'PLAINTEXT')"
password: qpdf --password= to decrypt a bank-statement PDF
password: keytool -storepass and -keypass on one command line
password: router admin OCR: a header row (用户名 密码) and the values on the row below
password: AppleScript do shell script … password … with administrator privileges
password: C# new NetworkCredential(user, password) positional
password: Excel VBA Sheet.Unprotect Password:=
password: Go struct literal field Pass: in an SMTP config
password: password inside a JSON string inside a JSON log line (double-escaped quotes)
password: OpenVPN auth-user-pass file: user on line 1, password on line 2, no labels
password: davfs2 /etc/davfs2/secrets line: URL user password
password: Home Assistant secrets.yaml wifi_password
password: Windows unattend.xml AdministratorPassword <Value> (PlainText true)
password: Minecraft server.properties rcon.password
password: Greek κωδικός label in a Greek-course note
password: password given only as a value in a Chinese sentence with the label after the noun (开机的是…)
password: PostgreSQL ALTER ROLE … WITH LOGIN PASSWORD in a migration note
resident_id: ID numbers inside scan file names in an `ls` listing
resident_id: ID number in an SQL INSERT … VALUES row
resident_id: ID ending in lower-case x in a survey-platform CSV export (column 身份证号码(必填))
resident_id: ID under a pinyin-initial key (zjhm) in a pass-application API response
resident_id: Turkish T.C. Kimlik No (checksummed) on an exchange application
resident_id: Italian codice fiscale in a rental note (check letter valid)
resident_id: Swedish personnummer (Luhn) in a Swedish-course note
resident_id: Dutch BSN (11-proof) in a Markdown email draft to a housing office
resident_id: Thai national ID (13 digits, 1-4-5-2-1) with a Thai label
resident_id: Canadian SIN (Luhn, 3-3-3) in a co-op onboarding note
resident_id: ID number explained in parts (地区码/生日/顺序码/校验位), every part written out
resident_id: French numéro de sécurité sociale (NIR with its key), spaced
mobile: mobile 3-4-4 on a business-card OCR where 微信同号 follows
mobile: two mobiles comma-joined in an SMS API PhoneNumbers parameter
mobile: German mobile +49 15x with 'Handy' label
mobile: French mobile 06 xx xx xx xx with 'portable' label
mobile: Brazilian mobile +55 11 9xxxx-xxxx with 'celular'
mobile: mobile inside a wa.me click-to-chat link
mobile: phone_number in a Telegram Desktop contacts export (result.json)
mobile: sender phone on a courier waybill OCR where spaces were lost around labels
mobile: UK mobile 07xxx xxxxxx after 'mob:' in an e-mail signature
mobile: mobile in a moderncv LaTeX \\phone macro with ~ as spaces
mobile: Malaysian mobile +60 1x-xxx xxxx in a Grab ride chat
bank_card: Discover card with French labels (numéro de carte, cryptogramme)
bank_card: GB IBAN on a tutoring invoice
bank_card: card[number]/card[cvc] form fields in a requests test script
bank_card: UnionPay number grouped with ideographic spaces (U+3000) in a chat
bank_card: PAN in an EMV tag 5A read by an NFC app (BCD bytes, space-separated hex)
bank_card: Brazilian Elo card with 'número do cartão' and CVV
bank_card: card number in a pandas DataFrame printout (aligned columns)
bank_card: card number glued into a Beancount account name
bank_card: German Kartennummer and Prüfnummer in an order note
email: package.json author string 'Name <address> (url)'
email: RCPT TO:<…> in an SMTP session transcript (telnet/openssl s_client)
email: .mailmap line joining two personal addresses
email: French 'courriel' label in a homestay form
email: Apache ServerAdmin with a personal address in a vhost config
email: Zoom participants CSV export with User Email column
email: LDIF entry with a mail: attribute
email: MAILTO= at the top of a crontab
passport: French passport number (2 digits, 2 letters, 5 digits) with 'passeport'
passport: Italian passport (2 letters + 7 digits) with 'numero di passaporto'
passport: passport numbers in a tour-group member CSV (序号,姓名,护照号,有效期)
passport: Brazilian passport (2 letters + 6 digits) with 'passaporte'
passport: 港澳居民来往内地通行证 (回乡证) H + 8 digits
passport: passportNo in a visa-appointment automation dict
passport: Vietnamese passport number with 'số hộ chiếu'
passport: data-page OCR where the number sits under a bilingual column header
address: Shenzhen urban-village address (村/坊/号/房)
address: Hong Kong private-estate flat in English (Flat/F/Block)
address: Paris street address with floor and door
address: Italian address with scala/interno
address: Brazilian address with apto/Bloco
address: Australian unit/street slash address
address: food-delivery screenshot OCR: community name on one line, 门牌号 on the next
address: address on the back of an ID card (OCR 住址 field)
address: Chongqing address with 附 number and floor-room 12-4 form
address: Malaysian address with house-lot and Jalan SS section
otp_secret: FreeOTP+ backup JSON pasted into a note: secret as a signed byte array
otp_secret: rsc/2fa -add prompt with the key typed on the next line
otp_secret: gauth ~/.config/gauth.csv name:secret lines
otp_secret: AWS IAM create-virtual-mfa-device output with Base32StringSeed
otp_secret: speakeasy.totp({secret, encoding: 'base32'}) in Node
otp_secret: KeeOtp 'otp' field (key=…&size=6&step=30) in a KeePass XML export
otp_secret: andOTP plaintext backup entry
otp_secret: Discord backup codes (xxxx-xxxx), ten of them, under a Chinese heading
recovery_phrase: Russian BIP39 12 words with 'сид-фраза'
recovery_phrase: Turkish BIP39 12 words with 'kurtarma ifadesi'
recovery_phrase: SeedQR digit stream (4-digit word indices) decoded from a SeedSigner QR
recovery_phrase: English BIP39 joined by hyphens in a password-manager note
recovery_phrase: BIP39 words written as 1-based wordlist numbers
recovery_phrase: Electrum segwit seed in a wallet file's keystore (unencrypted)
recovery_phrase: 18 upper-case words in a 6x3 grid plus the BIP39 passphrase (25th word)
recovery_phrase: Simplified-Chinese BIP39 joined by the enumeration comma 、
licence_plate: plate followed by its colour in parentheses on an ETC statement OCR
licence_plate: German Kennzeichen with district prefix
licence_plate: French immatriculation AA-123-AA
licence_plate: UK registration in a parking-charge e-mail
licence_plate: Brazilian Mercosul plate with 'placa'
licence_plate: Singapore plate with its checksum letter
licence_plate: plates in an SQL INSERT for a residential-parking registry
"""

from __future__ import annotations

from benchmarks.gate_corpus import Case

CASES: list[Case] = [
    # Baidu Qianfan v2 key (bce-v3/ALTAK-…/…, slashes inside) in an OpenAI-compatible client
    Case(id='h11-001', category='api_key', container='py',
         text='# 千帆 ModelBuilder 的 OpenAI 兼容接口，v2 鉴权\nfrom openai import OpenAI\n\nclient = OpenAI(\n    base_url="https://qianfan.baidubce.com/v2",\n    api_key="bce-v3/ALTAK-nmwWPjxCfUG8lf4MvQRgC/4581bf9b964ebd3f40e974e71056ca5b7594feed",\n)\nresp = client.chat.completions.create(model="ernie-4.0-turbo-8k", messages=[{"role": "user", "content": "用三句话解释傅里叶变换"}])\n',
         secrets=('bce-v3/ALTAK-nmwWPjxCfUG8lf4MvQRgC/4581bf9b964ebd3f40e974e71056ca5b7594feed',)),
    # StepFun (阶跃星辰) key in a Next.js .env.local under a Chinese comment
    Case(id='h11-002', category='api_key', container='env',
         text='# 阶跃星辰开放平台，做 step-1v 图片理解实验用，额度 10 元\nSTEP_BASE_URL=https://api.stepfun.com/v1\nSTEP_KEY=MDprh8ySpipM6WZWYytN0jpXkjORfMHwMGOsHeB4ul4wGFQ3\nNEXT_PUBLIC_APP_NAME=看图学英语\n',
         secrets=('MDprh8ySpipM6WZWYytN0jpXkjORfMHwMGOsHeB4ul4wGFQ3',)),
    # SenseNova AK/SK in a Java .properties file whose comments are native2ascii \u escapes
    Case(id='h11-003', category='api_key', container='txt',
         text='# \\u5546\\u6c64\\u65e5\\u65e5\\u65b0 SenseNova \\u5bc6\\u94a5（\\u4e0d\\u8981\\u63d0\\u4ea4）\nsensenova.endpoint=https://api.sensenova.cn/v1/llm/chat-completions\nsensenova.access-key-id=GCK8RRLPN6JMS9CPXSU1KTPPCIW1RHXY\nsensenova.secret-access-key=rmuKz6u04eIPttuNTBjrM0Hp7JfJu8xU\nsensenova.model=SenseChat-5\n',
         secrets=('rmuKz6u04eIPttuNTBjrM0Hp7JfJu8xU',)),
    # Youdao 智云 appSecret in an Anki add-on config.json (appKey is only an id)
    Case(id='h11-004', category='api_key', container='json',
         text='{\n  "deck": "考研英语::真题词汇",\n  "provider": "youdao",\n  "youdao": {\n    "appKey": "f283cb38f30714fb",\n    "appSecret": "qzWg1X7z8s2bPqQvHBU8OnAK4UTOTPRu",\n    "voice": "uk"\n  },\n  "fields": {\n    "word": "Front",\n    "meaning": "Back"\n  }\n}',
         secrets=('qzWg1X7z8s2bPqQvHBU8OnAK4UTOTPRu',)),
    # Baidu Translate 密钥 (20 characters) beside its appid in a batch-translation script
    Case(id='h11-005', category='api_key', container='py',
         text="import hashlib, random, requests\n\nAPPID = '20249223347207380'\nSECRET = '3Ja1Y1WRb4dLig5XzSos'  # 百度翻译开放平台 → 管理控制台 → 密钥\n\ndef translate(q, to='zh'):\n    salt = str(random.randint(32768, 65536))\n    sign = hashlib.md5((APPID + q + salt + SECRET).encode()).hexdigest()\n    return requests.get('https://fanyi-api.baidu.com/api/trans/vip/translate',\n                        params=dict(q=q, appid=APPID, salt=salt, to=to, sign=sign)).json()\n",
         secrets=('3Ja1Y1WRb4dLig5XzSos',)),
    # Tushare Pro token in a Jupyter cell's source lines (finance course homework)
    Case(id='h11-006', category='api_key', container='json',
         text='{\n "cells": [\n  {\n   "cell_type": "code",\n   "execution_count": 3,\n   "metadata": {},\n   "outputs": [],\n   "source": [\n    "import tushare as ts\\n",\n    "ts.set_token(\'f6797e2098d90c522455a70bbc8a636c59d1787d614cbfd41c75501b\')\\n",\n    "pro = ts.pro_api()\\n",\n    "df = pro.daily(ts_code=\'600519.SH\', start_date=\'20240101\')"\n   ]\n  }\n ],\n "metadata": {\n  "kernelspec": {\n   "name": "python3"\n  }\n },\n "nbformat": 4,\n "nbformat_minor": 5\n}',
         secrets=('f6797e2098d90c522455a70bbc8a636c59d1787d614cbfd41c75501b',)),
    # QWeather (和风天气) key in a mini-program request URL's query string
    Case(id='h11-007', category='api_key', container='md',
         text='## 天气小组件\n\n```js\nwx.request({\n  url: `https://devapi.qweather.com/v7/weather/now?location=101010100&key=258b8945ed4273da5d137799802dd661`,\n  success: res => this.setData({ now: res.data.now })\n})\n```\n免费版每天 1000 次。\n',
         secrets=('258b8945ed4273da5d137799802dd661',)),
    # ServerChan (Server酱) SendKey as a URL path segment
    Case(id='h11-008', category='api_key', container='py',
         text='import requests\n\ndef notify(title, desp=""):\n    # Server酱 Turbo：微信推送签到结果\n    requests.post(f"https://sctapi.ftqq.com/SCT049356TlWSs4KCkReaTp2FMqoiTirM9waF.send", data={"title": title, "desp": desp})\n',
         secrets=('SCT049356TlWSs4KCkReaTp2FMqoiTirM9waF',)),
    # PushPlus token exported in a QingLong (青龙面板) config.sh
    Case(id='h11-009', category='api_key', container='txt',
         text='## 通知设置\n## 推送加 pushplus\nexport PUSH_PLUS_TOKEN="75bd2236076c28e43a5aa2563174caee"\nexport PUSH_PLUS_USER=""\n## 每天 8 点执行的签到脚本\nexport TZ="Asia/Shanghai"\n',
         secrets=('75bd2236076c28e43a5aa2563174caee',)),
    # Bark device key as the first path segment of a push URL in a Shortcuts note
    Case(id='h11-010', category='api_key', container='note',
         text='iPhone 快捷指令：到家自动推送\n获取 URL 内容 → https://api.day.app/tOyrqzcjQP3hkP8IZCNess/到家了/记得背单词?sound=minuet\n（Bark App 首页复制的地址，别人拿到就能给我推消息）',
         secrets=('tOyrqzcjQP3hkP8IZCNess',)),
    # JPush (极光推送) masterSecret passed positionally to the Java client
    Case(id='h11-011', category='api_key', container='md',
         text='### 后端推送\n```java\n// new JPushClient(masterSecret, appKey)\nJPushClient client = new JPushClient("fa22e41252ff90489390f9ca", "1815b03b6e44a10d16dff04c", null, ClientConfig.getInstance());\nPushPayload payload = PushPayload.alertAll("今日单词已更新");\nclient.sendPush(payload);\n```\n',
         secrets=('fa22e41252ff90489390f9ca',)),
    # Agora App Certificate beside its App ID in a Go token server
    Case(id='h11-012', category='api_key', container='md',
         text='# 声网 RTC 口语陪练\n\n```go\nconst (\n\tappID          = "0ec6b18f718c910a62d6ce9ed2bf44be"\n\tappCertificate = "415f673d2da3c3ca031dbdd0a97beb24"\n)\n\nfunc tokenFor(channel string, uid uint32) (string, error) {\n\treturn rtctokenbuilder.BuildTokenWithUid(appID, appCertificate, channel, uid, rtctokenbuilder.RolePublisher, 3600)\n}\n```\n',
         secrets=('415f673d2da3c3ca031dbdd0a97beb24',)),
    # WhatsApp Cloud API (Meta EAAG…) token in an exported Postman environment
    Case(id='h11-013', category='api_key', container='json',
         text='{\n  "id": "ff97072e-d9db-492e-a8ad-daaaee1aef15",\n  "name": "WhatsApp Cloud API (学习提醒机器人)",\n  "values": [\n    {\n      "key": "phone_number_id",\n      "value": "171685266916645",\n      "enabled": true\n    },\n    {\n      "key": "access_token",\n      "value": "EAAGKfu2tMTPY4afuES0wXwc7qnvvanq68mfZAeY6GU57UJADJbYktQ9GwrVOujdF4v7K2TidsAiPNkMwUxlQ90oRIwmORgLWMYdvdKPzVZKrsNTuDkpt0vldqjU4LmwbRFInmqHtoZbMpecSYjULVqxAVuENkpjOe9EAYk50aoGPBi93wiLo2vD",\n      "type": "secret",\n      "enabled": true\n    },\n    {\n      "key": "version",\n      "value": "v19.0",\n      "enabled": true\n    }\n  ],\n  "_postman_variable_scope": "environment"\n}',
         secrets=('EAAGKfu2tMTPY4afuES0wXwc7qnvvanq68mfZAeY6GU57UJADJbYktQ9GwrVOujdF4v7K2TidsAiPNkMwUxlQ90oRIwmORgLWMYdvdKPzVZKrsNTuDkpt0vldqjU4LmwbRFInmqHtoZbMpecSYjULVqxAVuENkpjOe9EAYk50aoGPBi93wiLo2vD',)),
    # Zulip ~/.zuliprc [api] key
    Case(id='h11-014', category='api_key', container='txt',
         text='[api]\nemail=study-bot@chat.zulip.org\nkey=4pZQAfLV5tu7pXZSVr539vCWJp3a9nXA\nsite=https://chat.zulip.org\n',
         secrets=('4pZQAfLV5tu7pXZSVr539vCWJp3a9nXA',)),
    # Mastodon access token in a Mastodon.py auto-post script
    Case(id='h11-015', category='api_key', container='py',
         text="from mastodon import Mastodon\n\nm = Mastodon(\n    access_token='WBFPJS8pSaJsCqfXQ2RayPq1GWiKnXh6k3t71wFfRjH',\n    api_base_url='https://mastodon.social',\n)\nm.status_post('今天打卡：HSK5 第 12 课 ✅ #langstudy')\n",
         secrets=('WBFPJS8pSaJsCqfXQ2RayPq1GWiKnXh6k3t71wFfRjH',)),
    # ntfy access token (tk_…) as default-token in client.yml
    Case(id='h11-016', category='api_key', container='yaml',
         text='# ~/.config/ntfy/client.yml\ndefault-host: https://ntfy.sh\ndefault-token: tk_2ljop3xg5p1u3znegfcjvt88okixe\nsubscribe:\n  - topic: anki-reminders\n    command: \'notify-send "$m"\'\n',
         secrets=('tk_2ljop3xg5p1u3znegfcjvt88okixe',)),
    # Fly.io deploy token (FlyV1 fm2_…) printed by `fly tokens create deploy`
    Case(id='h11-017', category='api_key', container='note',
         text='$ fly tokens create deploy -x 999999h\nFlyV1 fm2_vzbWJNQvRMN22Wnj6TlX3RoH9/61tuFMxktgqg7rn5jTLTdAuZtgLe2A6mJ6N1ASp1xPw7gYYXIFKhYqudkWc0KSFUjnwFe5oiXNhtbdgsjCFaDSIEpvtqLEO/XOVR1BLJpD1BiU2VihuhIxevMMlf5wOSVvCTLFNOK1HxED9PYg8U+s3PZDxzBWH5QE6QoRQRCEsKm2dfYDLu4twbDFBqqFfvpUENNBPh+Pt3ZEh/t3gjg8==\n\n↑ 复制到 GitHub → Settings → Secrets → FLY_API_TOKEN，之后 push 自动部署背单词后端',
         secrets=('FlyV1 fm2_vzbWJNQvRMN22Wnj6TlX3RoH9/61tuFMxktgqg7rn5jTLTdAuZtgLe2A6mJ6N1ASp1xPw7gYYXIFKhYqudkWc0KSFUjnwFe5oiXNhtbdgsjCFaDSIEpvtqLEO/XOVR1BLJpD1BiU2VihuhIxevMMlf5wOSVvCTLFNOK1HxED9PYg8U+s3PZDxzBWH5QE6QoRQRCEsKm2dfYDLu4twbDFBqqFfvpUENNBPh+Pt3ZEh/t3gjg8==',)),
    # RubyGems API key in ~/.gem/credentials (YAML with a symbol key)
    Case(id='h11-018', category='api_key', container='yaml',
         text='---\n:rubygems_api_key: rubygems_3ed4f5ecc33f1f818bc68c1719e678af66b85a21db1e3cd8\n',
         secrets=('rubygems_3ed4f5ecc33f1f818bc68c1719e678af66b85a21db1e3cd8',)),
    # NuGet API key (oy2…) on a `dotnet nuget push` line in a terminal transcript
    Case(id='h11-019', category='api_key', container='txt',
         text="PS C:\\src\\PinyinKit> dotnet pack -c Release\n  PinyinKit -> C:\\src\\PinyinKit\\bin\\Release\\PinyinKit.1.2.0.nupkg\nPS C:\\src\\PinyinKit> dotnet nuget push bin\\Release\\PinyinKit.1.2.0.nupkg -k oy25pom35ueurthux5zj9i0jrsz89zlj161ykebnb6bv3s -s https://api.nuget.org/v3/index.json\nPushing PinyinKit.1.2.0.nupkg to 'https://www.nuget.org/api/v2/package'...\n  Created https://www.nuget.org/api/v2/package/ 2211ms\nYour package was pushed.\n",
         secrets=('oy25pom35ueurthux5zj9i0jrsz89zlj161ykebnb6bv3s',)),
    # Codecov upload token (a bare UUID) written into a workflow's with: block
    Case(id='h11-020', category='api_key', container='yaml',
         text='name: tests\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: pip install -e .[test] && pytest --cov\n      - uses: codecov/codecov-action@v4\n        with:\n          token: f15bc556-2a4f-4bbb-a2af-e89de070c906\n          fail_ci_if_error: true\n',
         secrets=('f15bc556-2a4f-4bbb-a2af-e89de070c906',)),
    # Lichess personal API token (lip_…) in a berserk script
    Case(id='h11-021', category='api_key', container='py',
         text="import berserk\n\nsession = berserk.TokenSession('lip_whO3fPREYO6vfGXqpUFH')\nclient = berserk.Client(session=session)\nfor game in client.games.export_by_player('my_handle', max=20):\n    print(game['opening']['name'])  # 统计我最常下的开局\n",
         secrets=('lip_whO3fPREYO6vfGXqpUFH',)),
    # CurseForge API key (bcrypt-shaped $2a$10$…) with compose's $$ escaping
    Case(id='h11-022', category='api_key', container='yaml',
         text='services:\n  mc:\n    image: itzg/minecraft-server\n    environment:\n      EULA: "TRUE"\n      TYPE: AUTO_CURSEFORGE\n      # compose 里 $ 要写成 $$\n      CF_API_KEY: "$$2a$$10$$gEjPKKngDWPzYRgxGiAcogUVthknkMReNDcfFl2QW1YaCan7E2LUh"\n      CF_SLUG: all-the-mods-9\n    ports: ["25565:25565"]\n',
         secrets=('$$2a$$10$$gEjPKKngDWPzYRgxGiAcogUVthknkMReNDcfFl2QW1YaCan7E2LUh',)),
    # osu! API v2 client secret in a Discord bot config.json (client_id is a number)
    Case(id='h11-023', category='api_key', container='json',
         text='{\n    "prefix": "!",\n    "osu": {\n        "client_id": 33152,\n        "client_secret": "lyKh1pd3rHZJxXc4wJMGSwAex45d7w70LFfRZmDK"\n    },\n    "channel": "osu-练习记录"\n}',
         secrets=('lyKh1pd3rHZJxXc4wJMGSwAex45d7w70LFfRZmDK',)),
    # Paystack live secret key in a Flask config.py
    Case(id='h11-024', category='api_key', container='py',
         text="class Config:\n    SQLALCHEMY_DATABASE_URI = 'sqlite:///tutoring.db'\n    PAYSTACK_PUBLIC_KEY = 'pk_live_d5a293fa032c3a51a698cc80a9c2110ca5a9f1bf'\n    PAYSTACK_SECRET_KEY = 'sk_live_8f8c201c1088f951f1bdb45c3841a1da9d53f461'\n    CURRENCY = 'NGN'\n",
         secrets=('sk_live_8f8c201c1088f951f1bdb45c3841a1da9d53f461',)),
    # Flutterwave secret key (FLWSECK-…-X) in a Laravel .env
    Case(id='h11-025', category='api_key', container='env',
         text='APP_NAME="Mandarin Tutor"\nAPP_ENV=production\nFLW_PUBLIC_KEY=FLWPUBK-63bc03e0f7c8c5057957aae9ea5f49bb-X\nFLW_SECRET_KEY=FLWSECK-ab614270d16750cbcc8326d60afa2cea-X\nFLW_SECRET_HASH=\n',
         secrets=('FLWSECK-ab614270d16750cbcc8326d60afa2cea-X',)),
    # Langfuse secret key (sk-lf-<uuid>) next to its public pk-lf key
    Case(id='h11-026', category='api_key', container='env',
         text='# LLM 调用追踪\nLANGFUSE_PUBLIC_KEY=pk-lf-6b3e8baf-8e13-4e51-bde9-727d36376a25\nLANGFUSE_SECRET_KEY=sk-lf-de3fb26e-b4a0-4881-af53-ee9cd35f66fe\nLANGFUSE_HOST=https://cloud.langfuse.com\n',
         secrets=('sk-lf-de3fb26e-b4a0-4881-af53-ee9cd35f66fe',)),
    # Fireworks AI key (fw_…) in a LiteLLM proxy config.yaml model list
    Case(id='h11-027', category='api_key', container='yaml',
         text='model_list:\n  - model_name: llama-70b\n    litellm_params:\n      model: fireworks_ai/accounts/fireworks/models/llama-v3p1-70b-instruct\n      api_key: fw_US9hgvXXBPfrayu9Mg2L0gDb\n  - model_name: local-qwen\n    litellm_params:\n      model: ollama/qwen2.5:7b\n',
         secrets=('fw_US9hgvXXBPfrayu9Mg2L0gDb',)),
    # Todoist API token in an Alfred workflow info.plist (<key>/<string> pairs)
    Case(id='h11-028', category='api_key', container='txt',
         text='<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n\t<key>variables</key>\n\t<dict>\n\t\t<key>project</key>\n\t\t<string>雅思备考</string>\n\t\t<key>todoist_token</key>\n\t\t<string>9aec0b06d34a43a0e80c2b3ec922354ec07d508d</string>\n\t</dict>\n</dict>\n</plist>\n',
         secrets=('9aec0b06d34a43a0e80c2b3ec922354ec07d508d',)),
    # Trello token in a REST URL's query string (the key beside it is an app id)
    Case(id='h11-029', category='api_key', container='note',
         text='Trello 看板导出卡片（浏览器直接打开就行）：\nhttps://api.trello.com/1/boards/6f1c2a/cards?key=e7f1a2f9996f66e0aa62709321ab8224&token=ATTAaae62a52ae9cc3dad5390ae318b8b06653a47f2ccf55ea11e349a4102eb737a27SY0158N\n导出后用 pandas 统计每周完成的卡片',
         secrets=('ATTAaae62a52ae9cc3dad5390ae318b8b06653a47f2ccf55ea11e349a4102eb737a27SY0158N',)),
    # Scaleway secret key (a UUID) under French labels
    Case(id='h11-030', category='api_key', container='note',
         text="Scaleway — projet « flashcards »\nClé d'accès : SCWVEEDFRDQ2TDMC8PZZ\nClé secrète : 6978dc1a-9a5b-48aa-9597-dae0c2aaa87e\nRégion : fr-par\n(à mettre dans ~/.config/scw/config.yaml)",
         secrets=('6978dc1a-9a5b-48aa-9597-dae0c2aaa87e',)),
    # Chatwork API token under a Japanese label
    Case(id='h11-031', category='api_key', container='note',
         text='研究室の Chatwork 連携メモ\nAPIトークン：c08f40f2cf4ebbc184c161463a0f1152\nルームID：308999978\n毎朝 9 時に進捗を投稿する bot 用。',
         secrets=('c08f40f2cf4ebbc184c161463a0f1152',)),
    # VK API access token (vk1.a.…) under a Russian label
    Case(id='h11-032', category='api_key', container='md',
         text='## Бот для группы «Китайский язык»\n\n- ID сообщества: 296263828\n- Ключ доступа (токен): `vk1.a.b7D2gdz0YLKJyU3mzHkgn9xQgJMpR4I8bDdLhIxqk8moVCcuaqH2m7qDh-4ZweHsVT7uOj2WuMMMikm1xbIRpD_kEeJZq7Kee5bqZZvw2TKJ3-SF4CvG0LRroVgt5ZMEIP-YZ1SFNb2TWqb54hGJHyrXYEWt_r-H5YxtrJsiYd2AHifN-43Q5FsNTvGgl0hc4qd0zc3B`\n- Права: сообщения, стена\n',
         secrets=('vk1.a.b7D2gdz0YLKJyU3mzHkgn9xQgJMpR4I8bDdLhIxqk8moVCcuaqH2m7qDh-4ZweHsVT7uOj2WuMMMikm1xbIRpD_kEeJZq7Kee5bqZZvw2TKJ3-SF4CvG0LRroVgt5ZMEIP-YZ1SFNb2TWqb54hGJHyrXYEWt_r-H5YxtrJsiYd2AHifN-43Q5FsNTvGgl0hc4qd0zc3B',)),
    # base64 of a whole .env (Cerebras key inside) kept as one CI secret
    Case(id='h11-033', category='api_key', container='md',
         text='### 部署笔记\nGitHub Actions 里只存一个 `ENV_FILE_B64`，workflow 里 `echo $ENV_FILE_B64 | base64 -d > .env`。\n当前值：\n\n```\nQ0VSRUJSQVNfQVBJX0tFWT1jc2stM3IwcGdwbHBwamplMXFjNm81ZjNvM2d4Mjh5NWQzb2Q5d2tkdWltNXB3Z2gza3B5Ck1PREVMPWxsYW1hMy4xLThiCg==\n```\n',
         secrets=('Q0VSRUJSQVNfQVBJX0tFWT1jc2stM3IwcGdwbHBwamplMXFjNm81ZjNvM2d4Mjh5NWQzb2Q5d2tkdWltNXB3Z2gza3B5Ck1PREVMPWxsYW1hMy4xLThiCg==',)),
    # Brave Search key inside a JSON-escaped string nested in an Open WebUI export
    Case(id='h11-034', category='api_key', container='json',
         text='{\n  "version": "0.3.21",\n  "config": "{\\"web_search\\": {\\"engine\\": \\"brave\\", \\"brave_search_api_key\\": \\"BSArhQFheDLObQE6YxkOxGutjiAaDAQ\\", \\"result_count\\": 5}}",\n  "ui": {\n    "default_locale": "zh-CN"\n  }\n}',
         secrets=('BSArhQFheDLObQE6YxkOxGutjiAaDAQ',)),
    # Coding.net personal token inside a git url.insteadOf rule
    Case(id='h11-035', category='api_key', container='note',
         text='公司仓库在 CODING，clone 总要输密码，改成：\ngit config --global url."https://wangxm:15b5654d728659d7ff30374d0338c73120856bbc@e.coding.net/".insteadOf "https://e.coding.net/"\n之后 git clone https://e.coding.net/team/notes.git 直接可以',
         secrets=('15b5654d728659d7ff30374d0338c73120856bbc',)),
    # Baidu AI Cloud AK/SK read by OCR from a console screenshot laid out in columns
    Case(id='h11-036', category='api_key', container='note',
         text='[截图识别] 百度智能云 > 安全认证 > Access Key\n\nAccess Key ID                     Secret Access Key                 创建时间             状态\n09606fdda641b6a4a5a53f432776311d  342ff44e121c1d89f7eea008b9cc4c46  2024-09-18 21:04:11  启用\n\n文字识别 API 要用',
         secrets=('342ff44e121c1d89f7eea008b9cc4c46',)),
    # Jina key inside a percent-encoded URL carried as another URL's parameter
    Case(id='h11-037', category='api_key', container='note',
         text='从浏览器历史里复制的链接（Reader 代理抓网页给 Obsidian 用）：\nhttps://obsidian-clipper.local/open?src=https%3A%2F%2Fr.jina.ai%2Fhttps%3A%2F%2Fexample.org%2Farticle%3Fapi_key%3Djina_3643968066e7220fcf99bb1896cb229bwM3zGaz2K0dVvp9WyLxkJpmI3nKU&vault=学习库',
         secrets=('jina_3643968066e7220fcf99bb1896cb229bwM3zGaz2K0dVvp9WyLxkJpmI3nKU',)),
    # Resend key (re_…_…) in a Next.js route handler
    Case(id='h11-038', category='api_key', container='md',
         text="```ts\n// app/api/feedback/route.ts\nimport { Resend } from 'resend';\nconst resend = new Resend('re_EoTY7l7a_WxVIIQqtoGRHQenKi3GtCEIc');\n\nexport async function POST(req: Request) {\n  const body = await req.json();\n  await resend.emails.send({ from: 'onboarding@resend.dev', to: process.env.FEEDBACK_TO!, subject: '新反馈', text: body.text });\n  return Response.json({ ok: true });\n}\n```\n",
         secrets=('re_EoTY7l7a_WxVIIQqtoGRHQenKi3GtCEIc',)),
    # Backblaze B2 application key given positionally to `b2 account authorize`
    Case(id='h11-039', category='api_key', container='note',
         text='$ b2 account authorize 005c030405d2741e74be2a354 K005AOxvenkihQGyGJYGCYJs2/f/5WG\nUsing https://api.backblazeb2.com\n$ b2 sync ~/Notes b2://my-notes-backup/notes\n（备份笔记到 B2，每月几毛钱）',
         secrets=('K005AOxvenkihQGyGJYGCYJs2/f/5WG',)),
    # YouTube session cookies in a Netscape cookies.txt for yt-dlp (tab-separated)
    Case(id='h11-040', category='auth_header', container='txt',
         text='# Netscape HTTP Cookie File\n# 导出给 yt-dlp --cookies 用，下载会员课程\n.youtube.com\tTRUE\t/\tTRUE\t1767225600\tPREF\tf6=40000000&hl=zh-CN\n.youtube.com\tTRUE\t/\tTRUE\t1767225600\t__Secure-3PSID\tzPZpBOzwgS00GGH0yp-AhX1z4ABIPWJgSBcBeH-7xYJcfNf1poYQUFpnlV_QKhapnOM_RzYO.\n.youtube.com\tTRUE\t/\tTRUE\t1767225600\t__Secure-3PAPISID\tdjwqFXQIHmQFagG796vFE1ccn-yVH/-i7c1u4qEp\n',
         secrets=('zPZpBOzwgS00GGH0yp-AhX1z4ABIPWJgSBcBeH-7xYJcfNf1poYQUFpnlV_QKhapnOM_RzYO.', 'djwqFXQIHmQFagG796vFE1ccn-yVH/-i7c1u4qEp')),
    # Bearer token hard-coded in a WeChat mini-program wx.request header
    Case(id='h11-041', category='auth_header', container='md',
         text="```js\n// pages/words/words.js\nwx.request({\n  url: 'https://api.beidanci.cn/v1/words/today',\n  header: { 'Authorization': 'Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1aWQiOjExMjA2NDQsIm9wZW5pZCI6Im9GRmUtNXhIQmVZS0VjOEt4MkVtaDFNdlFiNE0iLCJleHAiOjE3NjcyMjU2MDB9.V-QSO9vRuUshzE0ytvqpmdxMIY3Lt4k6vnDsbD03e9E' },\n  success: (res) => this.setData({ list: res.data })\n})\n```\n（调试时写死的，上线前要改成从 storage 取）\n",
         secrets=('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1aWQiOjExMjA2NDQsIm9wZW5pZCI6Im9GRmUtNXhIQmVZS0VjOEt4MkVtaDFNdlFiNE0iLCJleHAiOjE3NjcyMjU2MDB9.V-QSO9vRuUshzE0ytvqpmdxMIY3Lt4k6vnDsbD03e9E',)),
    # bearer token in an Insomnia v4 export's authentication block
    Case(id='h11-042', category='auth_header', container='yaml',
         text='_type: export\n__export_format: 4\nresources:\n  - _id: req_e1450da00de6d7cb6bd2c784a6346080\n    _type: request\n    name: 获取课程列表\n    method: GET\n    url: https://lms.school.edu.cn/api/v1/courses\n    authentication:\n      type: bearer\n      token: bho33K1bvbeF3rKh6t0e8nMorjFyKb6Kj1OiaRJs\n      prefix: Bearer\n',
         secrets=('bho33K1bvbeF3rKh6t0e8nMorjFyKb6Kj1OiaRJs',)),
    # session cookies passed to sqlmap --cookie in a CTF write-up
    Case(id='h11-043', category='auth_header', container='note',
         text='CTF 校赛 web3 解题记录\n登录后抓到 cookie，丢给 sqlmap：\nsqlmap -u "http://10.10.3.7/item.php?id=1" --cookie="PHPSESSID=cizcf57dg9e0gb8k17y3jpyd0r; remember_token=67def6742b5289ec7d629e50e99b20ab" --batch --dbs\n（比赛环境是内网靶机，但 remember_token 是我校园网账号登录的）',
         secrets=('cizcf57dg9e0gb8k17y3jpyd0r', '67def6742b5289ec7d629e50e99b20ab')),
    # Set-Cookie session in a `curl -i` login response transcript
    Case(id='h11-044', category='auth_header', container='txt',
         text='$ curl -i -X POST https://jwxt.school.edu.cn/api/login -d @login.json\nHTTP/2 200\ncontent-type: application/json\nset-cookie: SESSION=KqIxRLv_NwU2nL8JmywCSIztRWoFnzVBL68dkv9FO29; Path=/; Secure; HttpOnly; SameSite=Lax\nset-cookie: lang=zh-CN; Path=/\n\n{"code":0,"msg":"登录成功"}\n',
         secrets=('KqIxRLv_NwU2nL8JmywCSIztRWoFnzVBL68dkv9FO29',)),
    # access and refresh tokens read from localStorage in a DevTools console copy
    Case(id='h11-045', category='auth_header', container='note',
         text="> localStorage.getItem('access_token')\n< 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI3MjAxMTc5MDUiLCJzY29wZSI6InJlYWQgd3JpdGUiLCJpYXQiOjE3MzM0MDAwMDAsImV4cCI6MTczMzQ4NjQwMH0.kEK4xfhNciPKp83FjQlBtv72-d5sIY7MpgXNIK0R6Uw'\n> localStorage.getItem('refresh_token')\n< '69DraGlXGr288Sv6BTvBYDUwg9lb6UY3BLClBoH9NhoK174MpB8aX6umeceTo3wr'\n调试网课平台接口时复制出来的",
         secrets=('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI3MjAxMTc5MDUiLCJzY29wZSI6InJlYWQgd3JpdGUiLCJpYXQiOjE3MzM0MDAwMDAsImV4cCI6MTczMzQ4NjQwMH0.kEK4xfhNciPKp83FjQlBtv72-d5sIY7MpgXNIK0R6Uw', '69DraGlXGr288Sv6BTvBYDUwg9lb6UY3BLClBoH9NhoK174MpB8aX6umeceTo3wr')),
    # Authorization value in a JMeter .jmx HeaderManager element
    Case(id='h11-046', category='auth_header', container='txt',
         text='<HeaderManager guiclass="HeaderPanel" testclass="HeaderManager" testname="HTTP 信息头管理器">\n  <collectionProp name="HeaderManager.headers">\n    <elementProp name="" elementType="Header">\n      <stringProp name="Header.name">Authorization</stringProp>\n      <stringProp name="Header.value">token 4f7589e721c6fe86a382e8dbbf9c0c77a3351a28</stringProp>\n    </elementProp>\n    <elementProp name="" elementType="Header">\n      <stringProp name="Header.name">Content-Type</stringProp>\n      <stringProp name="Header.value">application/json</stringProp>\n    </elementProp>\n  </collectionProp>\n</HeaderManager>\n',
         secrets=('4f7589e721c6fe86a382e8dbbf9c0c77a3351a28',)),
    # Basic credentials as a base64 literal in Java HttpURLConnection.setRequestProperty
    Case(id='h11-047', category='auth_header', container='md',
         text='```java\nURL url = new URL("http://192.168.1.20:8080/job/notes-build/build");\nHttpURLConnection conn = (HttpURLConnection) url.openConnection();\nconn.setRequestMethod("POST");\nconn.setRequestProperty("Authorization", "Basic " + "emhvdXlpOm4wQ3h2T1BralohMzg=");\n```\n',
         secrets=('emhvdXlpOm4wQ3h2T1BralohMzg=',)),
    # Xiaohongshu web_session cookie in a requests script
    Case(id='h11-048', category='auth_header', container='py',
         text="import requests\n\ncookies = {\n    'a1': '3e694c4c3aa01155a144fc3fe26b394b4c0962fa5c2f4e5d091d',\n    'webId': 'c4613ac2572483a2afd429d21f25c5f5',\n    'web_session': '04006927bc09929d88686b70f02da8b75ba6dff3e64cf2767ef01d49gAAAvfbQ0jby8lTidsOadz7PI8rLGg2ckChooOypupePgkAHl7UmZbr6zEcjjmbcQz8x3jAymL9FB6Jwn1YfRBfxCYL90zca1wdvTEMt',\n}\nr = requests.get('https://edith.xiaohongshu.com/api/sns/web/v1/search/notes',\n                 params={'keyword': '考研英语'}, cookies=cookies)\n",
         secrets=('04006927bc09929d88686b70f02da8b75ba6dff3e64cf2767ef01d49gAAAvfbQ0jby8lTidsOadz7PI8rLGg2ckChooOypupePgkAHl7UmZbr6zEcjjmbcQz8x3jAymL9FB6Jwn1YfRBfxCYL90zca1wdvTEMt',)),
    # NetEase Cloud Music MUSIC_U login cookie in an API server .env
    Case(id='h11-049', category='auth_header', container='env',
         text='# NeteaseCloudMusicApi 自建，听力素材歌单同步\nPORT=3000\nNCM_COOKIE=MUSIC_U=007960CA9D7E9350781F6A57EC0C3AABA0D0D5B85E857699D8285277E9242D38931D132104F1B690DDF252725B6F357A03E94EE376AF56209D1028839EE345AEE04A2FAAF5B5158A92AAED8244CF438E545FE7904E06DDA7CB9121C7B2B31E58679B9369AC9D9D5C206C4EB4413F352D18021A7947B70E36B343ED5CC3698439BCE1380301B9A8599EE9539FC799917A055FA1C76CE641; __csrf=9b829d5dc51145620a55c58c1eaddd08\n',
         secrets=('007960CA9D7E9350781F6A57EC0C3AABA0D0D5B85E857699D8285277E9242D38931D132104F1B690DDF252725B6F357A03E94EE376AF56209D1028839EE345AEE04A2FAAF5B5158A92AAED8244CF438E545FE7904E06DDA7CB9121C7B2B31E58679B9369AC9D9D5C206C4EB4413F352D18021A7947B70E36B343ED5CC3698439BCE1380301B9A8599EE9539FC799917A055FA1C76CE641',)),
    # AWS presigned URL with a session token and signature (valid 7 days)
    Case(id='h11-050', category='auth_header', container='note',
         text='第 7 讲录像（一周有效，别转发）：\nhttps://course-videos.s3.ap-east-1.amazonaws.com/lecture07.mp4?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=ASIAR4X9NKERX7RTNC7F%2F20241206%2Fap-east-1%2Fs3%2Faws4_request&X-Amz-Date=20241206T120000Z&X-Amz-Expires=604800&X-Amz-Security-Token=IQoJb3JpZ2luX2VjEij2eR7TNTqMPGx1F4%2BXAealcIt7bviOZ09S3Quj4pszDCJ2%2BcftMkIBoXAO6J5JMMwPiQFsGnpgnxcHSoE9ulqyIxLNaYMGs1issY8cTx0pkPtGJ5Sq4bPn8A2skTZIPcAgygua0YVCF9LnBMvVjoN60aIidjZ5RNU0jpgOy3wuUobm%2BL3nyWEysPz2QHnHLD9m5%2Fww8mqXqvCiShna0iPUQg1GrSOfQ2CABkUgOhkfmaLuqRdjP2LMEO1wLyfzVKyURVAH6V9zw%2BoqUayYH8e5i6%2BPKhoWt2fBzVKEHUoHXaFPrmTr3EF0o6A6XZTVRDDxSxAtSYcFyDOsGFfrd9xM6mYij5UWhEZ%2Fuud2jygaKiyeGhy1XCDHm9m8Y&X-Amz-SignedHeaders=host&X-Amz-Signature=8f9a2f8f2f3ccf9a5aeea0d3d3b74a568624609e7814a3d0c21d613e01db05bb',
         secrets=('IQoJb3JpZ2luX2VjEij2eR7TNTqMPGx1F4%2BXAealcIt7bviOZ09S3Quj4pszDCJ2%2BcftMkIBoXAO6J5JMMwPiQFsGnpgnxcHSoE9ulqyIxLNaYMGs1issY8cTx0pkPtGJ5Sq4bPn8A2skTZIPcAgygua0YVCF9LnBMvVjoN60aIidjZ5RNU0jpgOy3wuUobm%2BL3nyWEysPz2QHnHLD9m5%2Fww8mqXqvCiShna0iPUQg1GrSOfQ2CABkUgOhkfmaLuqRdjP2LMEO1wLyfzVKyURVAH6V9zw%2BoqUayYH8e5i6%2BPKhoWt2fBzVKEHUoHXaFPrmTr3EF0o6A6XZTVRDDxSxAtSYcFyDOsGFfrd9xM6mYij5UWhEZ%2Fuud2jygaKiyeGhy1XCDHm9m8Y', '8f9a2f8f2f3ccf9a5aeea0d3d3b74a568624609e7814a3d0c21d613e01db05bb')),
    # PHP mysqli_connect with the password as the third positional argument
    Case(id='h11-051', category='connection_string', container='md',
         text='```php\n<?php\n$conn = mysqli_connect("127.0.0.1", "wordapp", "PXm8uw7Te#75", "vocab", 3306);\nif (!$conn) { die("连接失败: " . mysqli_connect_error()); }\n```\n',
         secrets=('PXm8uw7Te#75',)),
    # pymssql.connect(server, user, password, database) positional
    Case(id='h11-052', category='connection_string', container='py',
         text="import pymssql\n\n# 学校教务库只读账号（实习时给的）\nconn = pymssql.connect('10.20.1.15', 'report_ro', '1f7JhsxlnHm1', 'JWXT')\ncur = conn.cursor()\ncur.execute('SELECT TOP 10 * FROM kc_kcb')\n",
         secrets=('1f7JhsxlnHm1',)),
    # ldapsearch bind DN with -w password
    Case(id='h11-053', category='connection_string', container='note',
         text='实验室 LDAP 查询：\nldapsearch -x -H ldap://ldap.lab.local -D "cn=admin,dc=lab,dc=local" -w \'dsyFA4Ft@4084\' -b "ou=people,dc=lab,dc=local" "(uid=stu*)"',
         secrets=('dsyFA4Ft@4084',)),
    # smb:// URL with user:password for a NAS in Finder's Connect to Server
    Case(id='h11-054', category='connection_string', container='note',
         text='Mac 连 NAS：Finder → 前往 → 连接服务器\nsmb://liuyang:efhunu7415@192.168.31.8/学习资料\n（群晖，放网课视频）',
         secrets=('efhunu7415',)),
    # svn checkout --username --password in a course setup script
    Case(id='h11-055', category='connection_string', container='txt',
         text='#!/bin/sh\n# 毕设代码仓库\nsvn checkout --username zhangl --password yCyGvO4rA9 --non-interactive \\\n    svn://172.16.8.2/graduation/trunk ./graduation\n',
         secrets=('yCyGvO4rA9',)),
    # mongosh with --username/--password/--authenticationDatabase flags
    Case(id='h11-056', category='connection_string', container='note',
         text='mongosh "mongodb://10.0.0.12:27017/crawler" --username crawler --password eckNq2wyM0ZBPh --authenticationDatabase admin\n爬虫数据在 crawler.articles',
         secrets=('eckNq2wyM0ZBPh',)),
    # cqlsh -u -p positional host in a Cassandra lab transcript
    Case(id='h11-057', category='connection_string', container='txt',
         text='student@vm:~$ cqlsh -u cassandra -p KiVSnlUZSo 192.168.56.101 9042\nConnected to Lab Cluster at 192.168.56.101:9042\n[cqlsh 6.1.0 | Cassandra 4.1.3 | CQL spec 3.4.6 | Native protocol v5]\ncassandra@cqlsh> DESCRIBE KEYSPACES;\n',
         secrets=('KiVSnlUZSo',)),
    # new Sequelize(database, username, password, options) positional
    Case(id='h11-058', category='connection_string', container='md',
         text="```js\nconst { Sequelize } = require('sequelize');\nconst sequelize = new Sequelize('notes', 'notes_app', 'GEBoc0bSld8', {\n  host: 'pg.internal',\n  dialect: 'postgres',\n  logging: false,\n});\n```\n",
         secrets=('GEBoc0bSld8',)),
    # ZooKeeper zkCli addauth digest user:password
    Case(id='h11-059', category='connection_string', container='txt',
         text='[zk: localhost:2181(CONNECTED) 0] addauth digest kafka:krcfPYXPK3Me\n[zk: localhost:2181(CONNECTED) 1] ls /brokers/ids\n[0, 1, 2]\n',
         secrets=('krcfPYXPK3Me',)),
    # vnc:// URL with only a password (empty user) in a remote-lab note
    Case(id='h11-060', category='connection_string', container='note',
         text='机房远程桌面：vnc://:Y8hbhh4B@202.120.8.33:5901\n（macOS 屏幕共享直接打开，周三晚上做实验）',
         secrets=('Y8hbhh4B',)),
    # RSYNC_PASSWORD env before an rsync:// daemon URL in a cron line
    Case(id='h11-061', category='connection_string', container='txt',
         text="# 每晚备份论文到实验室服务器\n30 2 * * * RSYNC_PASSWORD='8TWh4BFemWyo' rsync -az --delete /home/me/thesis/ rsync://backup@10.1.1.5/thesis/\n",
         secrets=('8TWh4BFemWyo',)),
    # Prometheus scrape_config basic_auth username/password
    Case(id='h11-062', category='connection_string', container='yaml',
         text="scrape_configs:\n  - job_name: node-lab\n    scheme: https\n    basic_auth:\n      username: prom\n      password: WdY2gLsWtecYbAT0\n    static_configs:\n      - targets: ['lab-gpu-01:9100', 'lab-gpu-02:9100']\n",
         secrets=('WdY2gLsWtecYbAT0',)),
    # r2dbc:postgresql:// URL with credentials in a Spring WebFlux config
    Case(id='h11-063', category='connection_string', container='yaml',
         text='spring:\n  r2dbc:\n    url: r2dbc:postgresql://flash:96dXBQ4MQV_087@db.local:5432/flashcards\n  webflux:\n    base-path: /api\n',
         secrets=('96dXBQ4MQV_087',)),
    # authenticated http_proxy URL in /etc/environment
    Case(id='h11-064', category='connection_string', container='txt',
         text='PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"\nhttp_proxy="http://s2023011:J0N2qQc0n!@proxy.school.edu.cn:3128/"\nhttps_proxy="http://s2023011:J0N2qQc0n!@proxy.school.edu.cn:3128/"\nno_proxy="localhost,127.0.0.1,.school.edu.cn"\n',
         secrets=('J0N2qQc0n!',)),
    # Ethereum account private key (0x + 64 hex) in a Hardhat config's accounts array
    Case(id='h11-065', category='private_key', container='md',
         text="```js\n// hardhat.config.js —— 区块链课程作业，部署到 Sepolia\nmodule.exports = {\n  solidity: '0.8.24',\n  networks: {\n    sepolia: {\n      url: 'https://rpc.sepolia.org',\n      accounts: ['0xaa7e51922dfb80601b144e9b7335fbbaa453cb56581ad785f8af6e981cab57a0'],  // MetaMask 导出的测试账户私钥\n    },\n  },\n};\n```\n",
         secrets=('0xaa7e51922dfb80601b144e9b7335fbbaa453cb56581ad785f8af6e981cab57a0',)),
    # libsodium Ed25519 secret key (seed||public, 128 hex) in PyNaCl SigningKey
    Case(id='h11-066', category='private_key', container='py',
         text="from nacl.signing import SigningKey\n\n# 签名服务的私钥（64 字节 = seed + 公钥），发布证书时用\nSK_HEX = '68f69e0ce7d359965b7fe1b3dca64044f3cb1544305acf55ca35f074e1fa63b7d21212405b80ec65d57a4e31a0496f420d36a688cfb1e2a1dd448950242ce37f'\nsigning_key = SigningKey(bytes.fromhex(SK_HEX)[:32])\nprint(signing_key.verify_key.encode().hex())\n",
         secrets=('68f69e0ce7d359965b7fe1b3dca64044f3cb1544305acf55ca35f074e1fa63b7d21212405b80ec65d57a4e31a0496f420d36a688cfb1e2a1dd448950242ce37f',)),
    # Apple .p8 key (PKCS#8 EC PEM) in an indented triple-quoted Python string
    Case(id='h11-067', category='private_key', container='py',
         text='import jwt, time\n\nAPNS_KEY = """\n    -----BEGIN PRIVATE KEY-----\n    MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgMrXXV7wsh1RTv1ZI\n    eBC2NY11+uNV+OTpljVveprYQVihRANCAARjxE/1UpXKZ+0GGPPvirpCrkj6RS/R\n    HeT4IdhxcIU5Dyr/krg8is1hvFeI69FxXnZbEseZdk6Pqa4F6ziaJ1mD\n    -----END PRIVATE KEY-----\n    """\n\ntoken = jwt.encode({\'iss\': \'TEAMID1234\', \'iat\': int(time.time())}, APNS_KEY.strip(),\n                   algorithm=\'ES256\', headers={\'kid\': \'ABC123DEFG\'})\n',
         secrets=('MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgMrXXV7wsh1RTv1ZI', 'eBC2NY11+uNV+OTpljVveprYQVihRANCAARjxE/1UpXKZ+0GGPPvirpCrkj6RS/R', 'HeT4IdhxcIU5Dyr/krg8is1hvFeI69FxXnZbEseZdk6Pqa4F6ziaJ1mD')),
    # OpenSSH private key as stdout lines of a notebook cell (one JSON string per line)
    Case(id='h11-068', category='private_key', container='json',
         text='{\n "cells": [\n  {\n   "cell_type": "code",\n   "execution_count": 7,\n   "metadata": {},\n   "source": [\n    "!cat ~/.ssh/id_ed25519"\n   ],\n   "outputs": [\n    {\n     "name": "stdout",\n     "output_type": "stream",\n     "text": [\n      "-----BEGIN OPENSSH PRIVATE KEY-----\\n",\n      "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\\n",\n      "QyNTUxOQAAACCY9sJigGJPIMc7wViuDfRQsoqRHIUvuFxPM63WUV8vFwAAAJBkRRNMZEUT\\n",\n      "TAAAAAtzc2gtZWQyNTUxOQAAACCY9sJigGJPIMc7wViuDfRQsoqRHIUvuFxPM63WUV8vFw\\n",\n      "AAAEDxQp7gCOgqLLwc/eQnskYeJUdvVCLwJptOo6JlVz8UPJj2wmKAYk8gxzvBWK4N9FCy\\n",\n      "ipEchS+4XE8zrdZRXy8XAAAACmxhYi1zZXJ2ZXIBAgM=\\n",\n      "-----END OPENSSH PRIVATE KEY-----\\n"\n     ]\n    }\n   ]\n  }\n ],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 5\n}',
         secrets=('b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW', 'QyNTUxOQAAACCY9sJigGJPIMc7wViuDfRQsoqRHIUvuFxPM63WUV8vFwAAAJBkRRNMZEUT', 'TAAAAAtzc2gtZWQyNTUxOQAAACCY9sJigGJPIMc7wViuDfRQsoqRHIUvuFxPM63WUV8vFw', 'AAAEDxQp7gCOgqLLwc/eQnskYeJUdvVCLwJptOo6JlVz8UPJj2wmKAYk8gxzvBWK4N9FCy', 'ipEchS+4XE8zrdZRXy8XAAAACmxhYi1zZXJ2ZXIBAgM=')),
    # Solana secret key as base58 (64 bytes) copied from a wallet's export screen
    Case(id='h11-069', category='private_key', container='note',
         text='Phantom → 设置 → 导出私钥（Devnet 测试钱包，课程空投用）\n地址：FoM9mJFwAjxYBTA7GbR3b5kn6wpz2cNDVfQRiC7Afvy3\n私钥：2FCR3vbtRvdKGTGYkoxi8XTQTAWFPLyjeu9pUWCCc4CWPNF1ihEsHHSBZi3E5Avxnqjcyd1ryDAXg6fj9PFmZQZj',
         secrets=('2FCR3vbtRvdKGTGYkoxi8XTQTAWFPLyjeu9pUWCCc4CWPNF1ihEsHHSBZi3E5Avxnqjcyd1ryDAXg6fj9PFmZQZj',)),
    # Xray REALITY x25519 privateKey in a server config.json (publicKey is public)
    Case(id='h11-070', category='private_key', container='json',
         text='{\n  "inbounds": [\n    {\n      "port": 443,\n      "protocol": "vless",\n      "settings": {\n        "clients": [\n          {\n            "id": "edba13a1-b766-4ce8-91b5-6e6528c8cfee",\n            "flow": "xtls-rprx-vision"\n          }\n        ],\n        "decryption": "none"\n      },\n      "streamSettings": {\n        "network": "tcp",\n        "security": "reality",\n        "realitySettings": {\n          "dest": "www.microsoft.com:443",\n          "serverNames": [\n            "www.microsoft.com"\n          ],\n          "privateKey": "4Iyx3naAvn95w2EhcokvKfvkbziFbUhWvP63cQapkp4",\n          "shortIds": [\n            "9485e029"\n          ]\n        }\n      }\n    }\n  ]\n}\n// 客户端填的 publicKey: vqIGOSotB-MEF8niN8tGice2e5V-yQK892GRHPACvmE\n',
         secrets=('4Iyx3naAvn95w2EhcokvKfvkbziFbUhWvP63cQapkp4',)),
    # RSA key inside a quoted multi-line CSV cell of a password-manager export
    Case(id='h11-071', category='private_key', container='txt',
         text='title,username,url,notes\n"GitLab deploy key","deploy","https://git.lab.local","-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA0O9PByAHE8AsKAARllr8KHjPKTZSmmbD6Pd+/jQzSDRWRwKL\nA6oKVbsfdmJRYK2MuROrxxBUOLshHxrIf6tx8V/ePk+tJB3ztA19uziDwczpyI6O\nJsN26fi9ck746P5FhG1+42rB5lLLFYJYAyuOEKhmRAz+kJaD1yI1cv6ZXBvp/Ap/\nSqRsod+gCVFm3es14VaqF9tjHzN+IlfmLufdPSi8UuGNyi/E7/QhVM94rfKJORjv\nfnIyFTC61iS90o5lyVx1QzIm2sxHfA1ye6kLNYoRmLF7kv63+npH7a3lm+hE2DdT\nzcwp8/k3YnWppgG3xAZlNYYEG9YvekAr+QcKwQIDAQABAoIBAQDFAIABdd92bgK0\njKwImy2bc53RfBkS4MbkiUjCo7Ge6UpYljtBbzljcJbP5xBYGgvQDo4vmmPvQfKP\nA4/9YUiEkSJamoHkxiEdqoLc3wLM30uoAVJjlnYvUow+ldv4xJgDr8Ku5+CALZyz\nYT1fb9f6OO6ER8RXzLPvS6AeF5W+1Bb8YyCV2KuBTZvf5j2V1GomOJLDp2udbNg9\nuCFFTOwVmH8F8FzghkrjgtzS2/oHM2SzSu/iJl+5j30yUy8P81qVfm+ABGOTD8HU\nHSxm2Rf/fkc3aBaSyn1mvOVONV2pFKD01SZp0oHH7qqz0Ob+LoWG1O1+RPYKTmw3\naqkHmOlhAoGBAOWzNHqPLA1pbBnwEpdRizR1CpCVBEByaZRsvVGVf2Ne2PRGV/YR\nRMBQ9Papu7vO4X1NYT06i8Nfx4XPz46VpM4O/c8ujUKDcBQxyJ3T5X11+S3s1rce\nPhWN4ZZQHqC55pI850tvYx9EpouRfze3/ferST088cmYSA0CdmdByh79AoGBAOjb\ncvoMUvk1WQvlfBn2AhBGxvAS6vUmgI/bqpNqsXEIqCtqkr6vkSnIZIGikIHBzeRp\nhwv4ByLe8Q35upHQs21zjoss6b83PVuRIaO+0QXHfoArwP2ylV3F4XuKAtqJD0C0\n9ML/bcIEtEGZ6jIRdEL8odyu4pNr3WJZu5CoBIAVAoGAJ9uMw6eMUVd1tpp931v6\n98NHbgctkbFIuMSVpU53qFqQ8vIx2TTt5SEnIJYbSV+AqSmAMguyrNg12vZQYcF9\ns3POfuDpCh2cmSR6V0ipjbem4V0zdNr+kubnuhl09xbK950x1Vkirg5Ph/BbTuPS\nYeOK9eFZY03VUsyWlxxHYlECgYAcMna50MQ7aTpfNmrQufmF/wwYBjJtfTwUL4V4\nVHMoPOQgXcdnT9tEM//3srfM/qrv/ddcm6xBjL2j85mkDqGrn1Kjh8zGWuoTLH/m\nVDT7fizTWHkGP5nWwR+M1imCTRaLv13kPwoLdIZfa0PwzCxH8E+paYQGVgl432TX\nH4FsAQKBgQCMNJYCR/mqIIt8kLxcYyfNh4hme4h58a9QBUquR+CkHwLdzQagurPB\nlNPb3Hfn7LHb9ytNc04i9mSDu0RRB+0e+omYuKApfDpkV6MXBYE5sakvWS57E6hy\ntGoB9VRVQ2NM/SVAyAGAa1IM7BjAdpn96Vy8rgoCo0kgoT64ZIzKQA==\n-----END RSA PRIVATE KEY-----"\n"Anki 同步","anki_sync","https://ankiweb.net",""\n',
         secrets=('MIIEpAIBAAKCAQEA0O9PByAHE8AsKAARllr8KHjPKTZSmmbD6Pd+/jQzSDRWRwKL', 'A6oKVbsfdmJRYK2MuROrxxBUOLshHxrIf6tx8V/ePk+tJB3ztA19uziDwczpyI6O', 'JsN26fi9ck746P5FhG1+42rB5lLLFYJYAyuOEKhmRAz+kJaD1yI1cv6ZXBvp/Ap/', 'SqRsod+gCVFm3es14VaqF9tjHzN+IlfmLufdPSi8UuGNyi/E7/QhVM94rfKJORjv', 'fnIyFTC61iS90o5lyVx1QzIm2sxHfA1ye6kLNYoRmLF7kv63+npH7a3lm+hE2DdT', 'zcwp8/k3YnWppgG3xAZlNYYEG9YvekAr+QcKwQIDAQABAoIBAQDFAIABdd92bgK0', 'jKwImy2bc53RfBkS4MbkiUjCo7Ge6UpYljtBbzljcJbP5xBYGgvQDo4vmmPvQfKP', 'A4/9YUiEkSJamoHkxiEdqoLc3wLM30uoAVJjlnYvUow+ldv4xJgDr8Ku5+CALZyz', 'YT1fb9f6OO6ER8RXzLPvS6AeF5W+1Bb8YyCV2KuBTZvf5j2V1GomOJLDp2udbNg9', 'uCFFTOwVmH8F8FzghkrjgtzS2/oHM2SzSu/iJl+5j30yUy8P81qVfm+ABGOTD8HU', 'HSxm2Rf/fkc3aBaSyn1mvOVONV2pFKD01SZp0oHH7qqz0Ob+LoWG1O1+RPYKTmw3', 'aqkHmOlhAoGBAOWzNHqPLA1pbBnwEpdRizR1CpCVBEByaZRsvVGVf2Ne2PRGV/YR', 'RMBQ9Papu7vO4X1NYT06i8Nfx4XPz46VpM4O/c8ujUKDcBQxyJ3T5X11+S3s1rce', 'PhWN4ZZQHqC55pI850tvYx9EpouRfze3/ferST088cmYSA0CdmdByh79AoGBAOjb', 'cvoMUvk1WQvlfBn2AhBGxvAS6vUmgI/bqpNqsXEIqCtqkr6vkSnIZIGikIHBzeRp', 'hwv4ByLe8Q35upHQs21zjoss6b83PVuRIaO+0QXHfoArwP2ylV3F4XuKAtqJD0C0', '9ML/bcIEtEGZ6jIRdEL8odyu4pNr3WJZu5CoBIAVAoGAJ9uMw6eMUVd1tpp931v6', '98NHbgctkbFIuMSVpU53qFqQ8vIx2TTt5SEnIJYbSV+AqSmAMguyrNg12vZQYcF9', 's3POfuDpCh2cmSR6V0ipjbem4V0zdNr+kubnuhl09xbK950x1Vkirg5Ph/BbTuPS', 'YeOK9eFZY03VUsyWlxxHYlECgYAcMna50MQ7aTpfNmrQufmF/wwYBjJtfTwUL4V4', 'VHMoPOQgXcdnT9tEM//3srfM/qrv/ddcm6xBjL2j85mkDqGrn1Kjh8zGWuoTLH/m', 'VDT7fizTWHkGP5nWwR+M1imCTRaLv13kPwoLdIZfa0PwzCxH8E+paYQGVgl432TX', 'H4FsAQKBgQCMNJYCR/mqIIt8kLxcYyfNh4hme4h58a9QBUquR+CkHwLdzQagurPB', 'lNPb3Hfn7LHb9ytNc04i9mSDu0RRB+0e+omYuKApfDpkV6MXBYE5sakvWS57E6hy', 'tGoB9VRVQ2NM/SVAyAGAa1IM7BjAdpn96Vy8rgoCo0kgoT64ZIzKQA==')),
    # EC P-384 key in a Terraform <<-EOT heredoc
    Case(id='h11-072', category='private_key', container='md',
         text='```hcl\nresource "tls_locally_signed_cert" "lab" {\n  ca_private_key_pem = <<-EOT\n    -----BEGIN EC PRIVATE KEY-----\n    MIGkAgEBBDATtE66yUW3tFAhPD0a8XgcYVuHL+i46FO6gW08lXPFdWU1tRHFhiK2\n    IJGNR5qQd1igBwYFK4EEACKhZANiAATJcJRRV17VZO5zstKqowNpHV5gN5TAkyK+\n    Ac4wkR7eerdcMVbNYxVUffRn4k8xyv2mjm7IVkHQnDiSmjfsZtlVBu8RllYzAECS\n    Urj/ljlpOvijsoQztIkwr4OJmaPLji0=\n    -----END EC PRIVATE KEY-----\n  EOT\n  ca_cert_pem = file("ca.crt")\n}\n```\n',
         secrets=('MIGkAgEBBDATtE66yUW3tFAhPD0a8XgcYVuHL+i46FO6gW08lXPFdWU1tRHFhiK2', 'IJGNR5qQd1igBwYFK4EEACKhZANiAATJcJRRV17VZO5zstKqowNpHV5gN5TAkyK+', 'Ac4wkR7eerdcMVbNYxVUffRn4k8xyv2mjm7IVkHQnDiSmjfsZtlVBu8RllYzAECS', 'Urj/ljlpOvijsoQztIkwr4OJmaPLji0=')),
    # CometBFT priv_validator_key.json priv_key value (base64 of 64 bytes)
    Case(id='h11-073', category='private_key', container='json',
         text='{\n  "address": "CAD7A270B17C44F6AF9E119763E9F626EF8B5E00",\n  "pub_key": {\n    "type": "tendermint/PubKeyEd25519",\n    "value": "qgeVD4s993mCbK3ajczj5V/JNUwF1SBjgizqDQSozvU="\n  },\n  "priv_key": {\n    "type": "tendermint/PrivKeyEd25519",\n    "value": "mLMfvVXOeWjHI36qI4cRYr6VIQ6Y4bMe31ax7kA1EymqB5UPiz33eYJsrdqNzOPlX8k1TAXVIGOCLOoNBKjO9Q=="\n  }\n}',
         secrets=('mLMfvVXOeWjHI36qI4cRYr6VIQ6Y4bMe31ax7kA1EymqB5UPiz33eYJsrdqNzOPlX8k1TAXVIGOCLOoNBKjO9Q==',)),
    # Indonesian 'kata sandi' label in a language-exchange chat
    Case(id='h11-074', category='password', container='note',
         text='[20.14] Rina: akun Zoom kelas Mandarin ya\n[20.14] Rina: ID rapat: 845 2210 7781\n[20.15] Rina: kata sandi: Bilkgwq32!\n[20.15] 我: 收到，谢谢！terima kasih',
         secrets=('Bilkgwq32!',)),
    # Polish 'hasło' label for a university e-learning account
    Case(id='h11-075', category='password', container='note',
         text='Erasmus — Uniwersytet Warszawski\nUSOSweb login: 400593\nhasło: Enanudzw22#\n（选课系统，第二周前要选完）',
         secrets=('Enanudzw22#',)),
    # Thai รหัสผ่าน label in a Thai-class LINE note
    Case(id='h11-076', category='password', container='note',
         text='泰语课作业平台\nชื่อผู้ใช้: student158\nรหัสผ่าน: pvamoh9633\n每周五交听写',
         secrets=('pvamoh9633',)),
    # Dutch 'wachtwoord' in a Markdown housing checklist
    Case(id='h11-077', category='password', container='md',
         text='## Kamer in Utrecht\n\n- [x] contract getekend\n- [ ] internet: Ziggo modem, netwerk `Ziggo0055`\n  - wachtwoord: `Rhbupuc21$`\n- [ ] 去市政厅登记 BSN\n',
         secrets=('Rhbupuc21$',)),
    # tomcat-users.xml <user … password=… roles=manager-gui/>
    Case(id='h11-078', category='password', container='txt',
         text='<?xml version="1.0" encoding="UTF-8"?>\n<tomcat-users xmlns="http://tomcat.apache.org/xml" version="1.0">\n  <role rolename="manager-gui"/>\n  <user username="admin" password="Qzmabf93@64" roles="manager-gui,admin-gui"/>\n</tomcat-users>\n',
         secrets=('Qzmabf93@64',)),
    # Android keystore storePassword/keyPassword in build.gradle signingConfigs
    Case(id='h11-079', category='password', container='md',
         text="```groovy\nandroid {\n    signingConfigs {\n        release {\n            storeFile file('../keys/vocab-release.jks')\n            storePassword 'Kfuwidrf56'\n            keyAlias 'vocab'\n            keyPassword 'Nxjqnjgz28'\n        }\n    }\n}\n```\n",
         secrets=('Kfuwidrf56', 'Nxjqnjgz28')),
    # Windows `net user NAME PASSWORD /add` in a lab setup note
    Case(id='h11-080', category='password', container='note',
         text='机房电脑批量建账号（管理员 cmd）：\nnet user exam01 Tdgenka30! /add\nnet localgroup Users exam01 /add\n考试结束后 net user exam01 /delete',
         secrets=('Tdgenka30!',)),
    # echo … | passwd --stdin on CentOS
    Case(id='h11-081', category='password', container='txt',
         text="# init.sh 新虚拟机初始化\nuseradd -m dev\necho 'Xehjweln63%' | passwd --stdin dev\nusermod -aG wheel dev\n",
         secrets=('Xehjweln63%',)),
    # useradd -p "$(openssl passwd -6 'PLAINTEXT')"
    Case(id='h11-082', category='password', container='txt',
         text='#!/bin/bash\n# Dockerfile 里用的创建用户命令\nuseradd -m -s /bin/bash -p "$(openssl passwd -6 \'Jqghwqk52*\')" jupyter\n',
         secrets=('Jqghwqk52*',)),
    # qpdf --password= to decrypt a bank-statement PDF
    Case(id='h11-083', category='password', container='note',
         text='银行流水 PDF 有密码（身份证后 8 位那种），解开后再导入笔记库：\nqpdf --password=72046171 --decrypt 流水_2024.pdf 流水_2024_open.pdf',
         secrets=('72046171',)),
    # keytool -storepass and -keypass on one command line
    Case(id='h11-084', category='password', container='note',
         text='生成上架用的签名：\nkeytool -genkeypair -v -keystore release.jks -alias app -keyalg RSA -keysize 2048 -validity 10000 -storepass Murocpkx79 -keypass Wqwqdoav44 -dname "CN=Dev, C=CN"',
         secrets=('Murocpkx79', 'Wqwqdoav44')),
    # router admin OCR: a header row (用户名 密码) and the values on the row below
    Case(id='h11-085', category='password', container='note',
         text='[图片文字识别] 路由器底部贴纸\n\n型号 TL-XDR7829   管理页面 tplogin.cn\n用户名        密码\nadmin         Cguuke@3797\nMAC 3C-2C-8B-A1-0F-22',
         secrets=('Cguuke@3797',)),
    # AppleScript do shell script … password … with administrator privileges
    Case(id='h11-086', category='password', container='md',
         text='```applescript\n-- 一键清理 DNS 缓存（快捷指令调用）\ndo shell script "dscacheutil -flushcache; killall -HUP mDNSResponder" user name "lin" password "Yvmcplgp63!" with administrator privileges\n```\n',
         secrets=('Yvmcplgp63!',)),
    # C# new NetworkCredential(user, password) positional
    Case(id='h11-087', category='password', container='md',
         text='```csharp\nvar smtp = new SmtpClient("smtp.office365.com", 587) {\n    EnableSsl = true,\n    Credentials = new NetworkCredential("lab-notify", "Ndohkzokm44")\n};\nsmtp.Send(msg);\n```\n',
         secrets=('Ndohkzokm44',)),
    # Excel VBA Sheet.Unprotect Password:=
    Case(id='h11-088', category='password', container='md',
         text='成绩表宏：\n```vba\nSub 解锁并排序()\n    ActiveSheet.Unprotect Password:="uljz7567"\n    Range("A2:F60").Sort Key1:=Range("F2"), Order1:=xlDescending\n    ActiveSheet.Protect Password:="uljz7567"\nEnd Sub\n```\n',
         secrets=('uljz7567',)),
    # Go struct literal field Pass: in an SMTP config
    Case(id='h11-089', category='password', container='md',
         text='```go\ncfg := mail.Config{\n\tHost: "smtp.qq.com",\n\tPort: 465,\n\tUser: "notify_bot",\n\tPass: "Jihgcuib31&",\n}\n```\n',
         secrets=('Jihgcuib31&',)),
    # password inside a JSON string inside a JSON log line (double-escaped quotes)
    Case(id='h11-090', category='password', container='txt',
         text='{"ts": "2024-12-05T10:21:33Z", "level": "debug", "msg": "request body", "body": "{\\"event\\": \\"login\\", \\"user\\": \\"wl\\", \\"password\\": \\"Gkpwvsx81!\\"}"}\n',
         secrets=('Gkpwvsx81!',)),
    # OpenVPN auth-user-pass file: user on line 1, password on line 2, no labels
    Case(id='h11-091', category='password', container='txt',
         text='s2021143524\nVtjjamcf17\n',
         secrets=('Vtjjamcf17',)),
    # davfs2 /etc/davfs2/secrets line: URL user password
    Case(id='h11-092', category='password', container='txt',
         text='# personal webdav for Zotero attachments\nhttps://dav.jianguoyun.com/dav/ wangjing@163.com Pnbfktli03+\n',
         secrets=('wangjing@163.com', 'Pnbfktli03+')),
    # Home Assistant secrets.yaml wifi_password
    Case(id='h11-093', category='password', container='yaml',
         text='# secrets.yaml\nwifi_ssid: CMCC-TXUK\nwifi_password: "Eizduec70!"\nmqtt_user: homeassistant\n',
         secrets=('Eizduec70!',)),
    # Windows unattend.xml AdministratorPassword <Value> (PlainText true)
    Case(id='h11-094', category='password', container='txt',
         text='<UserAccounts>\n  <AdministratorPassword>\n    <Value>Ylggekeg98!</Value>\n    <PlainText>true</PlainText>\n  </AdministratorPassword>\n</UserAccounts>\n',
         secrets=('Ylggekeg98!',)),
    # Minecraft server.properties rcon.password
    Case(id='h11-095', category='password', container='txt',
         text='#Minecraft server properties\nenable-rcon=true\nrcon.port=25575\nrcon.password=rrAywhlYqxxC\nmotd=\\u00A7a\\u5B66\\u4E60\\u670D\nmax-players=10\n',
         secrets=('rrAywhlYqxxC',)),
    # Greek κωδικός label in a Greek-course note
    Case(id='h11-096', category='password', container='note',
         text='Μαθήματα ελληνικών — πλατφόρμα e-class\nόνομα χρήστη: stu4722\nκωδικός: Vnqnrbv62#\n（希腊语课，周二周四）',
         secrets=('Vnqnrbv62#',)),
    # password given only as a value in a Chinese sentence with the label after the noun (开机的是…)
    Case(id='h11-097', category='password', container='note',
         text='新笔记本交接：开机的是 slsyr365，BIOS 没设，Apple ID 另外问我。',
         secrets=('slsyr365',)),
    # PostgreSQL ALTER ROLE … WITH LOGIN PASSWORD in a migration note
    Case(id='h11-098', category='password', container='md',
         text="```sql\n-- 给报表只读账号设密码\nALTER ROLE report_reader WITH LOGIN PASSWORD 'Xmhyjbt78!' VALID UNTIL '2025-06-30';\nGRANT SELECT ON ALL TABLES IN SCHEMA public TO report_reader;\n```\n",
         secrets=('Xmhyjbt78!',)),
    # ID numbers inside scan file names in an `ls` listing
    Case(id='h11-099', category='resident_id', container='note',
         text='$ ls ~/Documents/报名材料/\n王磊_310115198309094033_身份证正面.jpg\n王磊_310115198309094033_身份证反面.jpg\n李娜_130102199510192830_身份证正面.jpg\n学历证明.pdf  照片_白底.jpg',
         secrets=('310115198309094033', '130102199510192830')),
    # ID number in an SQL INSERT … VALUES row
    Case(id='h11-100', category='resident_id', container='md',
         text="```sql\nINSERT INTO student (xh, xm, sfzh, bj) VALUES\n  ('2022010317', '陈思远', '430104200401087344', '软件2201');\n```\n",
         secrets=('430104200401087344',)),
    # ID ending in lower-case x in a survey-platform CSV export (column 身份证号码(必填))
    Case(id='h11-101', category='resident_id', container='txt',
         text='序号,提交答卷时间,1、姓名(必填),2、身份证号码(必填),3、是否住校\n1,2024/9/2 20:11:05,赵一鸣,21020219980314431x,是\n',
         secrets=('21020219980314431x',)),
    # ID under a pinyin-initial key (zjhm) in a pass-application API response
    Case(id='h11-102', category='resident_id', container='json',
         text='{\n  "code": 200,\n  "data": {\n    "xm": "孙悦",\n    "zjlx": "01",\n    "zjhm": "430104200009133422",\n    "txzt": "有效",\n    "yxq": "2024-12-31"\n  }\n}',
         secrets=('430104200009133422',)),
    # Turkish T.C. Kimlik No (checksummed) on an exchange application
    Case(id='h11-103', category='resident_id', container='note',
         text='Başvuru formu (Erasmus, 伊斯坦布尔交换)\nAdı Soyadı: Elif Yılmaz\nT.C. Kimlik No: 74241465430\nDoğum tarihi: 14.03.2002',
         secrets=('74241465430',)),
    # Italian codice fiscale in a rental note (check letter valid)
    Case(id='h11-104', category='resident_id', container='note',
         text='Affitto stanza a Milano (米兰租房)\nInquilina: Laura Bianchi\nCodice fiscale: BNCLRA01L63F205B\nCanone: 650 €/mese',
         secrets=('BNCLRA01L63F205B',)),
    # Swedish personnummer (Luhn) in a Swedish-course note
    Case(id='h11-105', category='resident_id', container='note',
         text='Svenska för invandrare (SFI) anmälan\nPersonnummer: 021109-1830\nFolkbokförd i Uppsala（瑞典交换，SFI 免费语言课）',
         secrets=('021109-1830',)),
    # Dutch BSN (11-proof) in a Markdown email draft to a housing office
    Case(id='h11-106', category='resident_id', container='md',
         text='**Aan:** huisvesting SSH\n\nBeste meneer/mevrouw,\n\nMijn BSN is 186134605 en mijn studentnummer staat in de bijlage.\n\nMet vriendelijke groet\n',
         secrets=('186134605',)),
    # Thai national ID (13 digits, 1-4-5-2-1) with a Thai label
    Case(id='h11-107', category='resident_id', container='note',
         text='ข้อมูลผู้สมัคร (泰国同学的报名信息，帮她填的)\nเลขประจำตัวประชาชน 1-1542-17809-81-3\nชื่อ น.ส. กมลวรรณ ใจดี',
         secrets=('1-1542-17809-81-3',)),
    # Canadian SIN (Luhn, 3-3-3) in a co-op onboarding note
    Case(id='h11-108', category='resident_id', container='note',
         text='Co-op onboarding (Waterloo)\n- SIN: 190 367 979\n- direct deposit form → HR by Friday\n- 宿舍钥匙周一领',
         secrets=('190 367 979',)),
    # ID number explained in parts (地区码/生日/顺序码/校验位), every part written out
    Case(id='h11-109', category='resident_id', container='note',
         text='给奶奶办医保时工作人员解释的：\n她的身份证号前六位 130102 是地区码，中间 20041007 是生日，然后 450 是顺序码，最后一位 9 是校验码。',
         secrets=('130102', '20041007', '450')),
    # French numéro de sécurité sociale (NIR with its key), spaced
    Case(id='h11-110', category='resident_id', container='note',
         text='Lyon — dossier CAF (aide au logement)\nN° de sécurité sociale : 1 00 09 69 963 161 26\n（法国租房补贴）',
         secrets=('1 00 09 69 963 161 26',)),
    # mobile 3-4-4 on a business-card OCR where 微信同号 follows
    Case(id='h11-111', category='mobile', container='note',
         text='[名片识别]\n刘晓晨  产品经理\n杭州某某教育科技有限公司\n手机 158 6634 2962（微信同号）\n地址：西湖区文三路 90 号东部软件园',
         secrets=('158 6634 2962',)),
    # two mobiles comma-joined in an SMS API PhoneNumbers parameter
    Case(id='h11-112', category='mobile', container='py',
         text='request = SendSmsRequest(\n    phone_numbers=\'18769904030,17725435454\',  # 给我和室友发上课提醒\n    sign_name=\'学习助手\',\n    template_code=\'SMS_996584416\',\n    template_param=\'{"course":"高数"}\',\n)\n',
         secrets=('18769904030', '17725435454')),
    # German mobile +49 15x with 'Handy' label
    Case(id='h11-113', category='mobile', container='note',
         text='WG-Zimmer Berlin (柏林合租)\nVermieterin: Frau Becker\nHandy: +49 159 5270629\nBesichtigung Di 18 Uhr',
         secrets=('+49 159 5270629',)),
    # French mobile 06 xx xx xx xx with 'portable' label
    Case(id='h11-114', category='mobile', container='note',
         text='Correspondante (语伴) à Lyon : Camille\nportable : 06 44 98 31 44\nDispo le mercredi pour un échange français-chinois',
         secrets=('06 44 98 31 44',)),
    # Brazilian mobile +55 11 9xxxx-xxxx with 'celular'
    Case(id='h11-115', category='mobile', container='note',
         text='Parceiro de intercâmbio (葡语语伴)\nNome: Lucas\nCelular/WhatsApp: +55 11 98023-3751\nAulas às terças',
         secrets=('+55 11 98023-3751',)),
    # mobile inside a wa.me click-to-chat link
    Case(id='h11-116', category='mobile', container='md',
         text='## 联系方式\n\n海外同学加我 WhatsApp：[点这里](https://wa.me/8615820666396?text=你好，我想加入口语角)\n',
         secrets=('8615820666396',)),
    # phone_number in a Telegram Desktop contacts export (result.json)
    Case(id='h11-117', category='mobile', container='json',
         text='{\n "contacts": {\n  "about": "This page lists all contacts from your address book.",\n  "list": [\n   {\n    "user_id": 2151589568,\n    "first_name": "建国",\n    "last_name": "周",\n    "phone_number": "+86 199 6440 9395",\n    "date": "2023-11-02T21:14:08"\n   }\n  ]\n }\n}',
         secrets=('+86 199 6440 9395',)),
    # sender phone on a courier waybill OCR where spaces were lost around labels
    Case(id='h11-118', category='mobile', container='note',
         text='[快递面单识别]\n顺丰速运 运单号SF1104161683153\n寄件人:吴桐电话:15188553090\n收件人:图书馆采编部\n托寄物:书籍',
         secrets=('15188553090',)),
    # UK mobile 07xxx xxxxxx after 'mob:' in an e-mail signature
    Case(id='h11-119', category='mobile', container='note',
         text='Thanks again for the tutoring session!\n\n--\nOliver Hughes\nMSc Applied Linguistics\nmob: 07940 506696',
         secrets=('07940 506696',)),
    # mobile in a moderncv LaTeX \phone macro with ~ as spaces
    Case(id='h11-120', category='mobile', container='md',
         text='```latex\n\\name{Wei}{Zhang}\n\\title{简历 / Résumé}\n\\phone[mobile]{+86~136~5623~7057}\n\\social[github]{zhangwei-dev}\n```\n',
         secrets=('+86~136~5623~7057',)),
    # Malaysian mobile +60 1x-xxx xxxx in a Grab ride chat
    Case(id='h11-121', category='mobile', container='note',
         text="[Grab chat] Driver: Hi, I'm at Gate B, white Myvi\n[Grab chat] 我: ok coming, my number +60 11-868 1196 if you can't find me",
         secrets=('+60 11-868 1196',)),
    # Discover card with French labels (numéro de carte, cryptogramme)
    Case(id='h11-122', category='bank_card', container='note',
         text='Réservation auberge (巴黎青旅)\nNuméro de carte : 6011 2533 0147 5769\nExpiration : 09/27\nCryptogramme : 626',
         secrets=('6011 2533 0147 5769',)),
    # GB IBAN on a tutoring invoice
    Case(id='h11-123', category='bank_card', container='note',
         text='Invoice #0042 — Mandarin tutoring, Nov (8 × £30)\nPlease pay to: Li Mei\nIBAN: GB73 BARC 1268 2663 1176 36\nBIC: BARCGB22',
         secrets=('GB73 BARC 1268 2663 1176 36',)),
    # card[number]/card[cvc] form fields in a requests test script
    Case(id='h11-124', category='bank_card', container='py',
         text="import requests\n\n# 测试自己网站的支付回调时用了自己的卡……\nrequests.post('https://shop.local/checkout', data={\n    'card[number]': '4166726906134475',\n    'card[exp_month]': '08',\n    'card[exp_year]': '2027',\n    'card[cvc]': '483',\n})\n",
         secrets=('4166726906134475', '483')),
    # UnionPay number grouped with ideographic spaces (U+3000) in a chat
    Case(id='h11-125', category='bank_card', container='note',
         text='[微信] 表姐：学费先转我卡上吧\n[微信] 表姐：建设银行\u30006217\u30000043\u30000923\u30006619\u3000891\u3000户名 陈静\n[微信] 我：好的今晚转',
         secrets=('6217\u30000043\u30000923\u30006619\u3000891',)),
    # PAN in an EMV tag 5A read by an NFC app (BCD bytes, space-separated hex)
    Case(id='h11-126', category='bank_card', container='note',
         text='NFC 读卡实验（嵌入式课），读自己的工行卡：\n6F 23 84 08 A0 00 00 03 33 01 01 01 ...\n5A 08 62 22 02 16 58 50 70 95\n5F 24 03 27 08 31\n9F 08 02 00 30',
         secrets=('62 22 02 16 58 50 70 95',)),
    # Brazilian Elo card with 'número do cartão' and CVV
    Case(id='h11-127', category='bank_card', container='note',
         text='Pagamento do curso de português (葡语课学费)\nNúmero do cartão: 6363 6824 9844 0141\nValidade: 11/26  CVV: 489',
         secrets=('6363 6824 9844 0141', '489')),
    # card number in a pandas DataFrame printout (aligned columns)
    Case(id='h11-128', category='bank_card', container='md',
         text='```\n>>> df.head(3)\n         date     amount        card_no          merchant\n0  2024-11-01     -38.50  6225904289895228          瑞幸咖啡\n1  2024-11-01   -1200.00  6225904289895228      学校财务处\n2  2024-11-02     -12.00  6225904289895228        地铁出行\n```\n',
         secrets=('6225904289895228',)),
    # card number glued into a Beancount account name
    Case(id='h11-129', category='bank_card', container='txt',
         text='; 记账 2024\n2024-01-01 open Assets:CN:CMB:Debit-6214833164537956 CNY\n2024-01-01 open Expenses:Education:Books\n\n2024-09-03 * "当当" "教材"\n  Expenses:Education:Books   156.80 CNY\n  Assets:CN:CMB:Debit-6214833164537956\n',
         secrets=('6214833164537956',)),
    # German Kartennummer and Prüfnummer in an order note
    Case(id='h11-130', category='bank_card', container='note',
         text='Goethe-Institut Prüfungsgebühr bezahlt\nKartennummer: 5342 3379 6023 5820\nGültig bis: 04/28\nPrüfnummer: 350',
         secrets=('5342 3379 6023 5820', '350')),
    # package.json author string 'Name <address> (url)'
    Case(id='h11-131', category='email', container='json',
         text='{\n  "name": "pinyin-tone-marks",\n  "version": "0.3.1",\n  "author": "Chen Yutong <chen.yutong17@outlook.com> (https://github.com/cyt-dev)",\n  "license": "MIT",\n  "main": "index.js"\n}',
         secrets=('chen.yutong17@outlook.com',)),
    # RCPT TO:<…> in an SMTP session transcript (telnet/openssl s_client)
    Case(id='h11-132', category='email', container='txt',
         text='$ openssl s_client -connect smtp.163.com:465 -quiet\n220 163.com Anti-spam GT for Coremail System\nEHLO test\n250-mail\nAUTH LOGIN\n235 Authentication successful\nMAIL FROM:<notify_bot@163.com>\n250 Mail OK\nRCPT TO:<liuqian7450@163.com>\n250 Mail OK\n',
         secrets=('notify_bot@163.com', 'liuqian7450@163.com')),
    # .mailmap line joining two personal addresses
    Case(id='h11-133', category='email', container='txt',
         text='# .mailmap — 统一我在两台电脑上的提交身份\nHao Ming <minghao.dev20@gmail.com> <hao.ming03@qq.com>\n',
         secrets=('hao.ming03@qq.com', 'minghao.dev20@gmail.com')),
    # French 'courriel' label in a homestay form
    Case(id='h11-134', category='email', container='note',
         text="Famille d'accueil (寄宿家庭) — fiche\nNom : Moreau\nCourriel : lea.moreau91@laposte.net\nTél. fixe : voir contrat",
         secrets=('lea.moreau91@laposte.net',)),
    # Apache ServerAdmin with a personal address in a vhost config
    Case(id='h11-135', category='email', container='txt',
         text='<VirtualHost *:80>\n    ServerName notes.xuzhe.site\n    ServerAdmin xu.zhe087@foxmail.com\n    DocumentRoot /var/www/notes\n    ErrorLog ${APACHE_LOG_DIR}/notes_error.log\n</VirtualHost>\n',
         secrets=('xu.zhe087@foxmail.com',)),
    # Zoom participants CSV export with User Email column
    Case(id='h11-136', category='email', container='txt',
         text='Name (Original Name),User Email,Join Time,Leave Time,Duration (Minutes)\n姜悦,jiang.yue88@126.com,12/05/2024 07:58:12 PM,12/05/2024 09:01:40 PM,64\nTomasz K,tomasz.k78@wp.pl,12/05/2024 08:02:03 PM,12/05/2024 09:00:11 PM,59\n',
         secrets=('jiang.yue88@126.com', 'tomasz.k78@wp.pl')),
    # LDIF entry with a mail: attribute
    Case(id='h11-137', category='email', container='txt',
         text='dn: uid=sunhao,ou=people,dc=lab,dc=local\nobjectClass: inetOrgPerson\ncn: 孙浩\nsn: 孙\nuid: sunhao\nmail: sunhao50@sjtu.edu.cn\n',
         secrets=('sunhao50@sjtu.edu.cn',)),
    # MAILTO= at the top of a crontab
    Case(id='h11-138', category='email', container='note',
         text='$ crontab -l\nMAILTO=wuxin771@gmail.com\n0 7 * * * /home/wx/bin/anki-sync.sh\n0 23 * * 0 /home/wx/bin/backup-notes.sh',
         secrets=('wuxin771@gmail.com',)),
    # French passport number (2 digits, 2 letters, 5 digits) with 'passeport'
    Case(id='h11-139', category='passport', container='note',
         text="Voyage d'étude à Pékin — liste\nNom : DUBOIS Hugo\nN° de passeport : 27NQ20707\nVisa X2 demandé le 3/10",
         secrets=('27NQ20707',)),
    # Italian passport (2 letters + 7 digits) with 'numero di passaporto'
    Case(id='h11-140', category='passport', container='note',
         text='Iscrizione corso di cinese (Istituto Confucio)\nNumero di passaporto: YG8274161\nScadenza: 2031-02-17',
         secrets=('YG8274161',)),
    # passport numbers in a tour-group member CSV (序号,姓名,护照号,有效期)
    Case(id='h11-141', category='passport', container='txt',
         text='序号,姓名,性别,护照号,护照有效期\n1,许晴,女,E87421400,2032-05-11\n2,邓凯,男,E91733108,2029-08-30\n',
         secrets=('E87421400', 'E91733108')),
    # Brazilian passport (2 letters + 6 digits) with 'passaporte'
    Case(id='h11-142', category='passport', container='note',
         text='Intercâmbio em Xangai — documentos\nPassaporte nº OI469067\nValidade: 08/2033',
         secrets=('OI469067',)),
    # 港澳居民来往内地通行证 (回乡证) H + 8 digits
    Case(id='h11-143', category='passport', container='note',
         text='表弟来深圳实习，入职要填：\n回乡证号码：H49725411\n有效期至 2033 年',
         secrets=('H49725411',)),
    # passportNo in a visa-appointment automation dict
    Case(id='h11-144', category='passport', container='py',
         text="applicant = {\n    'surname': 'ZHAO',\n    'given_names': 'YIFAN',\n    'passportNo': 'E39159508',\n    'nationality': 'CHN',\n    'appointment': '2025-01-14',\n}\n",
         secrets=('E39159508',)),
    # Vietnamese passport number with 'số hộ chiếu'
    Case(id='h11-145', category='passport', container='note',
         text='Bạn cùng phòng (越南室友) — đăng ký ký túc xá\nHọ tên: Nguyễn Thu Hà\nSố hộ chiếu: C8769075',
         secrets=('C8769075',)),
    # data-page OCR where the number sits under a bilingual column header
    Case(id='h11-146', category='passport', container='note',
         text='[护照首页识别]\n类型/Type  国家码/Country Code  护照号/Passport No.\nP          CHN                 E47870856\n姓名/Name\n韩雪 / HAN, XUE',
         secrets=('E47870856',)),
    # Shenzhen urban-village address (村/坊/号/房)
    Case(id='h11-147', category='address', container='note',
         text='新租的房子，搬家师傅要的地址：深圳市南山区白石洲村2坊28号705房，握手楼进巷子第三栋。',
         secrets=('白石洲村2坊28号705房',)),
    # Hong Kong private-estate flat in English (Flat/F/Block)
    Case(id='h11-148', category='address', container='note',
         text='Mailing address for the scholarship letter:\nFlat C, 26/F, Block 1, Sceneway Garden, 8 Sceneway Road, Lam Tin, Kowloon',
         secrets=('Flat C, 26/F, Block 1, Sceneway Garden, 8 Sceneway Road',)),
    # Paris street address with floor and door
    Case(id='h11-149', category='address', container='note',
         text='Adresse pour le colis (家里寄东西)：\n4 rue de la Roquette, 2e étage, porte gauche, 75011 Paris',
         secrets=('4 rue de la Roquette, 2e étage, porte gauche',)),
    # Italian address with scala/interno
    Case(id='h11-150', category='address', container='note',
         text="Nuovo indirizzo (米兰) — per la posta dell'università:\nVia Padova 196, scala B, int. 19, 20127 Milano MI",
         secrets=('Via Padova 196, scala B, int. 19',)),
    # Brazilian address with apto/Bloco
    Case(id='h11-151', category='address', container='note',
         text='Endereço da república (合租屋):\nRua Augusta, 419, apto 54, Bloco B — Consolação, São Paulo - SP, CEP 01305-653',
         secrets=('Rua Augusta, 419, apto 54, Bloco B',)),
    # Australian unit/street slash address
    Case(id='h11-152', category='address', container='note',
         text='Share house, Melbourne: Unit 13/79 Smith Street, Fitzroy VIC 3065. Rent due Mondays.',
         secrets=('Unit 13/79 Smith Street',)),
    # food-delivery screenshot OCR: community name on one line, 门牌号 on the next
    Case(id='h11-153', category='address', container='note',
         text='[外卖订单截图识别]\n送达地址\n翠苑四区\n门牌号：13号楼2单元1103\n联系人：郑先生（先生）',
         secrets=('13号楼2单元1103',)),
    # address on the back of an ID card (OCR 住址 field)
    Case(id='h11-154', category='address', container='note',
         text='[身份证反面识别]\n签发机关 青岛市公安局市南分局\n有效期限 2019.05.06-2039.05.06\n[正面] 住址 山东省青岛市市南区泰山路128号12栋1单元802室',
         secrets=('泰山路128号12栋1单元802室',)),
    # Chongqing address with 附 number and floor-room 12-4 form
    Case(id='h11-155', category='address', container='note',
         text='重庆的亲戚家：渝中区民族路199号附6号10-3（解放碑旁边，电梯到 10 楼）',
         secrets=('民族路199号附6号10-3',)),
    # Malaysian address with house-lot and Jalan SS section
    Case(id='h11-156', category='address', container='note',
         text='马来西亚同学家（寒假去玩）：18-6, Jalan SS3/1, 47300 Petaling Jaya, Selangor',
         secrets=('18-6, Jalan SS3/1',)),
    # FreeOTP+ backup JSON pasted into a note: secret as a signed byte array
    Case(id='h11-157', category='otp_secret', container='note',
         text='FreeOTP+ 导出的备份（换手机前存一份）：\n{"tokenOrder": ["GitHub:mingh"], "tokens": [{"algo": "SHA1", "counter": 0, "digits": 6, "issuerExt": "GitHub", "label": "mingh", "period": 30, "secret": [14, -124, 46, 50, -105, -17, -20, -52, 49, 80, -37, -56, -41, -16, 23, -52, 73, 109, -109, -26], "type": "TOTP"}]}',
         secrets=('14, -124, 46, 50, -105, -17, -20, -52, 49, 80, -37, -56, -41, -16, 23, -52, 73, 109, -109, -26',)),
    # rsc/2fa -add prompt with the key typed on the next line
    Case(id='h11-158', category='otp_secret', container='note',
         text='$ 2fa -add -7 school-vpn\n2fa key for school-vpn: 4KDI4XXAGPBJ5V3EYG6MSHQ5EZFVE3E7\n$ 2fa school-vpn\n482913',
         secrets=('4KDI4XXAGPBJ5V3EYG6MSHQ5EZFVE3E7',)),
    # gauth ~/.config/gauth.csv name:secret lines
    Case(id='h11-159', category='otp_secret', container='txt',
         text='GitHub:ESDH3B5F55NRDOMA\nAliyun:UPJVIUBP4O3RIDJVQDN4R7RKKDRUBEVL\n',
         secrets=('ESDH3B5F55NRDOMA', 'UPJVIUBP4O3RIDJVQDN4R7RKKDRUBEVL')),
    # AWS IAM create-virtual-mfa-device output with Base32StringSeed
    Case(id='h11-160', category='otp_secret', container='json',
         text='{\n    "VirtualMFADevice": {\n        "SerialNumber": "arn:aws:iam::531348514053:mfa/laptop",\n        "Base32StringSeed": "WEJU5H2WQVOTFWVHS5DIUA3YWTP4HYL4B7YDOFS5LPRQQEDFSLSZ3DDTQEINC3QP"\n    }\n}',
         secrets=('WEJU5H2WQVOTFWVHS5DIUA3YWTP4HYL4B7YDOFS5LPRQQEDFSLSZ3DDTQEINC3QP',)),
    # speakeasy.totp({secret, encoding: 'base32'}) in Node
    Case(id='h11-161', category='otp_secret', container='md',
         text="```js\nconst speakeasy = require('speakeasy');\n// 学校教务系统的二次验证，自己算验证码\nconst code = speakeasy.totp({ secret: 'I6JEGKVJPZK52T7SWOSFQGCLNYQCUCQF', encoding: 'base32' });\nconsole.log(code);\n```\n",
         secrets=('I6JEGKVJPZK52T7SWOSFQGCLNYQCUCQF',)),
    # KeeOtp 'otp' field (key=…&size=6&step=30) in a KeePass XML export
    Case(id='h11-162', category='otp_secret', container='txt',
         text='<Entry>\n  <String><Key>Title</Key><Value>Steam</Value></String>\n  <String><Key>UserName</Key><Value>gamer_lin</Value></String>\n  <String><Key>otp</Key><Value>key=BGHEJ7ZKLPSCXD7EM3UGUUV3EVVLPSYG&amp;size=6&amp;step=30</Value></String>\n</Entry>\n',
         secrets=('BGHEJ7ZKLPSCXD7EM3UGUUV3EVVLPSYG',)),
    # andOTP plaintext backup entry
    Case(id='h11-163', category='otp_secret', container='json',
         text='[\n  {\n    "secret": "O57KZ4ZXJOYXP6YRAFPIJN7I7CKZLTV7",\n    "issuer": "Binance",\n    "label": "lin@trade",\n    "digits": 6,\n    "type": "TOTP",\n    "algorithm": "SHA1",\n    "thumbnail": "Default",\n    "last_used": 1733370000000,\n    "period": 30,\n    "tags": [\n      "交易所"\n    ]\n  }\n]',
         secrets=('O57KZ4ZXJOYXP6YRAFPIJN7I7CKZLTV7',)),
    # Discord backup codes (xxxx-xxxx), ten of them, under a Chinese heading
    Case(id='h11-164', category='otp_secret', container='note',
         text='Discord 备用码（两步验证手机丢了用）\n* x6en-51xh\n* yqb2-9cs5\n* 7jy4-05bu\n* c6eb-qt8h\n* hj74-h6fd\n* lqny-c1sy\n* tvn3-tahz\n* oz2l-zdw2\n* 9vqq-6b24\n* r2qa-vz0c',
         secrets=('x6en-51xh', 'yqb2-9cs5', '7jy4-05bu', 'c6eb-qt8h', 'hj74-h6fd', 'lqny-c1sy', 'tvn3-tahz', 'oz2l-zdw2', '9vqq-6b24', 'r2qa-vz0c')),
    # Russian BIP39 12 words with 'сид-фраза'
    Case(id='h11-165', category='recovery_phrase', container='note',
         text='Кошелёк (俄语课同学推荐的钱包)\nсид-фраза: сюрприз аптека титул юбка паника природа зубной плыть сырой явление тревога гусь\nникому не показывать!',
         secrets=('сюрприз аптека титул юбка паника природа зубной плыть сырой явление тревога гусь',)),
    # Turkish BIP39 12 words with 'kurtarma ifadesi'
    Case(id='h11-166', category='recovery_phrase', container='note',
         text='Cüzdan yedeği\nKurtarma ifadesi (12 kelime): bozgun kadraj toraman liste hemfikir şirin bilezik rahle irfan fıçı kurşun politika',
         secrets=('bozgun kadraj toraman liste hemfikir şirin bilezik rahle irfan fıçı kurşun politika',)),
    # SeedQR digit stream (4-digit word indices) decoded from a SeedSigner QR
    Case(id='h11-167', category='recovery_phrase', container='note',
         text='SeedSigner 做的 SeedQR，用手机扫出来是这串数字（就是 12 个词的序号）：\n070106461174062318991878001813891976053100491806\n纸放在抽屉里',
         secrets=('070106461174062318991878001813891976053100491806',)),
    # English BIP39 joined by hyphens in a password-manager note
    Case(id='h11-168', category='recovery_phrase', container='note',
         text='Ledger 备份（抄在 KeePass 备注里）\nseed: cushion-inhale-odor-dumb-ladder-arena-file-satoshi-kidney-acoustic-purchase-clog',
         secrets=('cushion-inhale-odor-dumb-ladder-arena-file-satoshi-kidney-acoustic-purchase-clog',)),
    # BIP39 words written as 1-based wordlist numbers
    Case(id='h11-169', category='recovery_phrase', container='note',
         text='助记词我只记了在 BIP39 英文词表里的编号（1 开始）：\n1840, 1742, 1892, 208, 1667, 247, 484, 1101, 1119, 527, 708, 1652\n恢复时对照词表查',
         secrets=('1840, 1742, 1892, 208, 1667, 247, 484, 1101, 1119, 527, 708, 1652',)),
    # Electrum segwit seed in a wallet file's keystore (unencrypted)
    Case(id='h11-170', category='recovery_phrase', container='json',
         text='{\n    "keystore": {\n        "type": "bip32",\n        "seed": "siege case august accident rug spend bag train logic once light cover",\n        "seed_type": "segwit",\n        "xpub": "zpub6fbBgfSUUtyC3YfyHV1HNJGYKeXVCsYz1ECAULCQZyHHw4ugAyTRmnUz6BwMZDhrVLxWT5cSmFsu55Xc5yK6ZfZzhZhbgyjyBk1bAzsj6eH"\n    },\n    "wallet_type": "standard",\n    "use_encryption": false\n}',
         secrets=('siege case august accident rug spend bag train logic once light cover',)),
    # 18 upper-case words in a 6x3 grid plus the BIP39 passphrase (25th word)
    Case(id='h11-171', category='recovery_phrase', container='note',
         text='冷钱包备份卡片（拍照转文字）\n01 RANCH | 02 UNKNOWN | 03 MAD\n04 SPECIAL | 05 FETCH | 06 HOBBY\n07 TORNADO | 08 HURRY | 09 WIDTH\n10 BUS | 11 GOOD | 12 DEMAND\n13 FAMOUS | 14 ACQUIRE | 15 ERODE\n16 HEART | 17 HIP | 18 BLIND\npassphrase: abkire118',
         secrets=('RANCH', 'UNKNOWN', 'MAD', 'SPECIAL', 'FETCH', 'HOBBY', 'TORNADO', 'HURRY', 'WIDTH', 'BUS', 'GOOD', 'DEMAND', 'FAMOUS', 'ACQUIRE', 'ERODE', 'HEART', 'HIP', 'BLIND', 'abkire118')),
    # Simplified-Chinese BIP39 joined by the enumeration comma 、
    Case(id='h11-172', category='recovery_phrase', container='note',
         text='微信收藏：imToken 助记词 以、薯、环、魏、洁、在、该、殖、荡、爸、痕、堂（按顺序）',
         secrets=('以、薯、环、魏、洁、在、该、殖、荡、爸、痕、堂',)),
    # plate followed by its colour in parentheses on an ETC statement OCR
    Case(id='h11-173', category='licence_plate', container='note',
         text='[ETC 账单识别]\n通行时间 2024-10-02 08:14\n车牌号 浙A1DEB8(蓝)\n入口 杭州西 出口 湖州南\n金额 ¥32.15',
         secrets=('浙A1DEB8',)),
    # German Kennzeichen with district prefix
    Case(id='h11-174', category='licence_plate', container='note',
         text='Parkausweis (柏林宿舍停车证)\nKennzeichen: B-XG 4849\nGültig bis 31.03.2025',
         secrets=('B-XG 4849',)),
    # French immatriculation AA-123-AA
    Case(id='h11-175', category='licence_plate', container='note',
         text='Covoiturage Lyon → Grenoble (拼车)\nConducteur : Julien\nImmatriculation : KB-167-ZS\nRDV 8h Part-Dieu',
         secrets=('KB-167-ZS',)),
    # UK registration in a parking-charge e-mail
    Case(id='h11-176', category='licence_plate', container='note',
         text='Parking Charge Notice\nVehicle registration: ZQ59 KLE\nLocation: Oxford Road car park\nAmount: £70 (reduced to £40 if paid within 14 days)',
         secrets=('ZQ59 KLE',)),
    # Brazilian Mercosul plate with 'placa'
    Case(id='h11-177', category='licence_plate', container='note',
         text='Carro do host (巴西房东的车)\nPlaca: IYY3R54\nModelo: Onix prata',
         secrets=('IYY3R54',)),
    # Singapore plate with its checksum letter
    Case(id='h11-178', category='licence_plate', container='note',
         text='新加坡交换：室友的车 SDU3046R，周末去 Jurong 可以蹭车',
         secrets=('SDU3046R',)),
    # plates in an SQL INSERT for a residential-parking registry
    Case(id='h11-179', category='licence_plate', container='md',
         text="```sql\nINSERT INTO car_reg (room, owner, plate) VALUES\n ('6-2-1101', '罗先生', '川A69C83'),\n ('6-1-302',  '何女士', '川A4DHA3');\n```\n",
         secrets=('川A69C83', '川A4DHA3')),
]
