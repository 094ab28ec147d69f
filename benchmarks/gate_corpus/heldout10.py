r"""Held-out batch 10: secrets and personal data in shapes the gate was not designed around.

Written in session 11 by an engineer (gwriter) who had read DESIGN.md, the README's privacy
paragraph, the corpus format (``__init__``, bench_gate.py) and only the docstrings of the earlier
batches, never the detectors, the earlier batches' cases nor the gate's tests; the gate was not run
on it while it was written. 194 cases:
api_key 40, auth_header 12, connection_string 14, private_key 10, password 27, resident_id 13, mobile 12, bank_card 10, email 9, passport 9, address 11, otp_secret 9, recovery_phrase 10, licence_plate 8.
Values generated for the corpus (/root/lead11/gate/gen10.py, seed 1010): keys random in each
provider's shape, private keys real but derived from the seed and thrown away, ID and card numbers
built to pass their checksums (CN GB 11643, Korean RRN, Spanish DNI, SNILS, CPF, My Number, NRIC,
Aadhaar/Verhoeff, PESEL, Luhn, IBAN mod-97), BIP39 phrases with valid checksums in seven wordlists;
none belongs to anyone. Addresses are labelled from the road or building down (city and district
left, as the gate's design says). Encoded secrets (base64, hex, percent- or \u-escaped) are
labelled as they appear in the text.

Shapes, one per case (category: shape):
api_key: Tencent Location Service key in a WeChat mini-program JS (QQMapWX)
api_key: Baidu Maps browser AK in a Vue .env.production
api_key: WeChat Pay APIv3 key in Spring application.properties beside the merchant cert serial
api_key: Stripe webhook signing secret in an Express handler
api_key: Stripe restricted live key in a WeChat chat export
api_key: Razorpay key secret as the second element of the client's auth tuple
api_key: PayPal REST client secret in a Spring YAML next to the public client id
api_key: Square production access token in a Ruby snippet
api_key: LINE Messaging API channel access token and channel secret in line-bot-sdk
api_key: KOOK (开黑啦) bot token in a bot config.yaml
api_key: Matrix (Element) access token copied from Help & About
api_key: Twitch IRC oauth: token in a chat bot .env
api_key: Azure DevOps personal access token (52 base32 characters)
api_key: SonarQube user token in a Maven terminal transcript
api_key: CircleCI personal API token in ~/.circleci/cli.yml
api_key: Buildkite agent token in buildkite-agent.cfg
api_key: GitLab runner authentication token in config.toml [[runners]]
api_key: Jenkins API token after user: in jenkins-cli -auth
api_key: Bitbucket app password inside an HTTPS clone URL
api_key: Riot Games development API key (RGAPI- + UUID)
api_key: Perplexity key in an Obsidian plugin data.json
api_key: xAI key in a Jupyter notebook cell source (JSON lines)
api_key: Tavily and LangSmith keys in a LangGraph project .env
api_key: MiniMax API key (a JWT) with its numeric GroupId in a Chinese note
api_key: Volcengine Ark (Doubao) API key, a bare UUID, in an OpenAI-compatible client
api_key: Baichuan key written before its label (value first, then what it is)
api_key: Cloudinary URL with api key and secret in Django settings.py
api_key: JD Cloud AccessKey pair in a Terraform provider block
api_key: UCloud SDK client with a PrivateKey (the PublicKey is only an identifier)
api_key: Kingsoft Cloud KS3 AK/SK in a Chinese note with full-width colons
api_key: base64 of a TOML config holding a DeepSeek key, in a Kubernetes Secret data field
api_key: Gemini key hidden as \x escapes in a front-end JS bundle
api_key: 01.AI (Yi) key stored as hex and decoded at run time
api_key: Tencent Hunyuan SecretKey split over a Java string concatenation
api_key: Naver Cloud access/secret key with Korean labels
api_key: Yandex Cloud API key with a Russian label
api_key: Mercado Pago production access token with a Spanish label
api_key: ElevenLabs key inline in a crontab line
api_key: DashScope key in a notebook cell's printed os.environ output
api_key: Vercel token in a GitHub Actions step's run line
auth_header: JD pt_key/pt_pin cookie in a QingLong panel JD_COOKIE variable
auth_header: Taobao cookie2 and _tb_token_ in a scraper's cookies dict
auth_header: Weibo SUB cookie in Scrapy DEFAULT_REQUEST_HEADERS
auth_header: Douyin sessionid cookie in a downloader's YAML config
auth_header: VS Code REST Client .http file with an @token variable used in the header
auth_header: ~/.curlrc with a fixed Authorization header
auth_header: Bearer token in Go gRPC outgoing metadata
auth_header: Feishu tenant_access_token in an OkHttp Authorization header
auth_header: Basic auth header value with a Russian label
auth_header: Kubernetes service-account token passed with kubectl --token=
auth_header: OpenStack Fernet token in an `openstack token issue` table
auth_header: access token sent through Sec-WebSocket-Protocol in a browser DevTools copy
connection_string: Hikvision camera RTSP URL with admin password
connection_string: MQTT broker credentials in paho username_pw_set
connection_string: DM (达梦) disql login user/password@host:port
connection_string: openGauss gsql with -W password
connection_string: OceanBase obclient with tenant user and glued -p password
connection_string: redis-cli -a in a bash history dump
connection_string: sqlcmd -U sa -P in a PowerShell transcript
connection_string: Elasticsearch URL with elastic:password in a Kibana/Logstash YAML
connection_string: Snowflake SQLAlchemy URL in a notebook cell
connection_string: ftp:// URL with credentials in an lftp mirror script
connection_string: Hive beeline -u jdbc:hive2 -n user -p password
connection_string: MS Access OLE DB string with Jet OLEDB:Database Password
connection_string: whole MySQL URL percent-encoded inside a setup wizard's query string
connection_string: NATS URL with user:pass in a Go nats.Connect call
private_key: .NET RSAKeyValue XML with private parameters (ToXmlString(true))
private_key: PKCS#8 EC key body split into Java string concatenation lines
private_key: BIP32 extended private key (xprv) from a wallet export
private_key: xxd -p plain hex of a DER Ed25519 private key (PKCS#8 header, then the seed)
private_key: cloud-init user-data ssh_keys ed25519_private block scalar
private_key: Tor onion service hs_ed25519_secret_key, base64 of the file, in a Helm values file
private_key: Monero private spend and view keys with Russian labels
private_key: RSA PRIVATE KEY inside a LaTeX verbatim environment of lab notes
private_key: secp256k1 private scalar as a Rust byte array literal
private_key: Ed25519 PEM on one line with literal \n in a .env (Paseto signing key)
password: Korean 비밀번호 label for a university portal
password: Russian YAML keys (логин/пароль) in a bot config
password: Vietnamese mật khẩu in a Zalo chat export
password: Portuguese senha for a course platform
password: Arabic كلمة المرور label
password: Turkish şifre in a CSV of accounts exported from a spreadsheet
password: password stated before its label inside a Chinese sentence
password: 7z archive password glued to -p with header encryption
password: zip -P password in a backup shell script
password: openssl enc -pass pass: on the command line
password: sshpass -p in a deploy snippet
password: nmcli dev wifi connect SSID password
password: netsh wlan show profile key=clear output (Chinese Windows: 关键内容)
password: macOS security find-generic-password -wa output
password: expect script sending a password with send "...\r"
password: user:password pairs piped to chpasswd for a class of accounts
password: WordPress wp-config.php define('DB_PASSWORD', …)
password: six-digit bank withdrawal PIN (取款密码) without any card number
password: door keypad code (门禁密码) in a rental note
password: URL-encoded login form body copied from DevTools (view source)
password: password with Chinese characters as \u escapes in a JSON config saved as .txt (json.dumps default)
password: KeePass CSV export row
password: password split across two chat messages
password: Rust env::var fallback literal for a database password
password: rclone.conf obscured (reversible) WebDAV pass
password: x11vnc -passwd on the command line
password: CSV roster with an initial-password column (three rows)
resident_id: Korean resident registration number (주민등록번호) on an exchange-student form
resident_id: Spanish DNI (8 digits and check letter) in an enrolment email draft
resident_id: Russian SNILS number with its check digits
resident_id: Brazilian CPF in a CSV of language-exchange sign-ups
resident_id: Japanese My Number (個人番号) in a part-time job note
resident_id: Singapore NRIC in a hostel booking
resident_id: Indian Aadhaar number (Verhoeff check digit) in a scholarship checklist
resident_id: Polish PESEL in a dormitory application
resident_id: Chinese student registration number (全国学籍号 = G + the ID number)
resident_id: Chinese ID with every digit \u-escaped in a pasted form JSON
resident_id: social security card OCR (社会保障号码 = the ID number)
resident_id: base64 of a form JSON holding an ID number in a link's data= parameter
resident_id: Korean RRN without its hyphen in a form-export JSON
mobile: Korean mobile 010-xxxx-xxxx with 휴대폰 label
mobile: Russian mobile +7 (9xx) xxx-xx-xx
mobile: Spanish mobile +34 6xx xx xx xx
mobile: Chinese mobile with every digit \u-escaped in a saved API response
mobile: MECARD QR payload with TEL:
mobile: +86 mobile percent-encoded in a form URL
mobile: number stated first, then 是我的新号, in a moments post draft
mobile: SMS Backup & Restore XML address attribute
mobile: Vietnamese mobile +84 9xx xxx xxx in a Zalo contact
mobile: Indian mobile +91 9xxxx xxxxx
mobile: base64 of a mobile number in a cookie value
mobile: mobile as an iCalendar ATTENDEE/DESCRIPTION line
bank_card: American Express 4-6-5 grouping with a Spanish label
bank_card: Russian Mir card (220x) with номер карты
bank_card: Korean BC card with 카드번호 label and dashes
bank_card: Spanish IBAN (ES, mod-97) grouped in fours
bank_card: magnetic-stripe track 2 line (;PAN=YYMM...?) in a POS debug log
bank_card: card number and CVC in a URL-encoded checkout form body
bank_card: JCB card with Japanese カード番号 and 有効期限
bank_card: base64 of a transfer JSON holding a debit card number
bank_card: card number first, its label after it in a chat
bank_card: UnionPay card as a Python int literal with underscores
email: e-mail with its @ as \u0040 in a pasted JSON export
email: git Signed-off-by trailer in a patch
email: .npmrc with email= line
email: Dockerfile LABEL maintainer with a personal address
email: Korean 이메일 label
email: Russian эл. почта label
email: Spanish arroba/punto spelled-out address
email: iCalendar ORGANIZER and ATTENDEE mailto lines
email: base64 of an address in an unsubscribe link
passport: Korean passport number with 여권번호 label
passport: Russian international passport (загранпаспорт) series and number
passport: Spanish passport number with pasaporte label
passport: 台湾居民来往大陆通行证 (台胞证) eight-digit number
passport: Indian passport (letter + 7 digits) in a visa form draft
passport: Chinese passport number in a URL-encoded booking form body
passport: hotel check-in JSON with passport under a Korean key
passport: UK passport nine digits in an eVisa note
passport: passport number written before its label in a Chinese sentence
address: Korean road-name address with apartment 동/호
address: Russian street/house/building/flat address
address: Spanish street address with floor and door (3º B)
address: Hong Kong public housing estate (邨/樓/室)
address: Beijing residential 号楼/门/号 address
address: Guangzhou 座/房 address
address: vCard ADR;TYPE=HOME with an escaped comma
address: home GPS coordinates (five decimals) in a map link
address: Taiwan address with 樓之N
address: road-down part of an address percent-encoded in a delivery query string
address: Chinese address written in pinyin English (Rm/Bldg/Community/Rd)
otp_secret: ~/.google_authenticator file (PAM): seed line then scratch codes
otp_secret: Bitwarden JSON export item with a bare base32 login.totp
otp_secret: 2FAS backup JSON service secret
otp_secret: ykman oath accounts add with a positional secret
otp_secret: otplib authenticator.generate with a literal secret
otp_secret: KeePassXC TOTP settings with Korean labels
otp_secret: GitHub two-factor recovery codes file (16 codes)
otp_secret: Google 'clave de configuración' in Spanish, upper-case groups of four
otp_secret: ykpersonalize OATH-HOTP slot with a 40-hex secret
recovery_phrase: Korean BIP39 twelve words (복구 문구)
recovery_phrase: Spanish BIP39 24 words (frase de recuperación)
recovery_phrase: French BIP39 twelve words in a chat export
recovery_phrase: Italian BIP39 numbered list
recovery_phrase: Czech BIP39 as a CSV index,word
recovery_phrase: Portuguese BIP39 phrase in a wallet-backup JSON string
recovery_phrase: BIP39 entropy as hex passed to to_mnemonic
recovery_phrase: English phrase base64-encoded in an env variable
recovery_phrase: Simplified Chinese BIP39 twelve characters written without spaces
recovery_phrase: first four letters of each word, as stamped on a steel backup plate (OCR)
licence_plate: Korean plate with 차량번호 label
licence_plate: Russian plate (Cyrillic letters and region code)
licence_plate: Spanish plate 1234 BCD with matrícula label
licence_plate: Hong Kong plate with 車牌 label
licence_plate: Macau plate MX-12-34
licence_plate: Chinese plate percent-encoded in a parking-payment link
licence_plate: Chinese plate with its province character \u-escaped in a pasted JSON
licence_plate: Guangdong–Hong Kong cross-border plate (粤Z…港)

First run, sealed, on main e006b7d (session 11's end, DETECTOR_VERSION 10): 114/194 found (miss
rate 0.412). Per kind: api_key 33/40, auth_header 11/12, connection_string 10/14, private_key 6/10,
password 15/27, resident_id 2/13, mobile 8/12, bank_card 7/10, email 7/9, passport 2/9, address
3/11, otp_secret 6/9, recovery_phrase 1/10, licence_plate 3/8. Its hard negatives (negatives9):
1/108 flagged. Measured with bench_gate's recall()/false_positives().

Session 12: the gate's engineer was told only the four weakest FAMILIES (foreign national IDs,
passports, addresses abroad, non-English recovery phrases), never a case, and wrote variants of
their own. After that work (DETECTOR_VERSION 19): 136/194 (miss rate 0.299); resident_id 11/13,
passport 8/9, address 4/11, recovery_phrase 7/10, every other kind as before: families known,
cases unseen, so not a held-out figure. negatives9: 2/108 flagged (new: a Bluetooth base UUID's
tail read as an address number). Committed at the end of session 12; not yet wired into the
tests' strict-xfail lists.
"""

from __future__ import annotations

from benchmarks.gate_corpus import Case

CASES: list[Case] = [
    # Tencent Location Service key in a WeChat mini-program JS (QQMapWX)
    Case(id='h10-001', category='api_key', container='md',
         text="## 小程序定位页\n\n```js\n// pages/map/map.js\nconst QQMapWX = require('../../libs/qqmap-wx-jssdk.min.js')\nlet qqmapsdk\nPage({\n  onLoad() {\n    qqmapsdk = new QQMapWX({ key: 'P8F01-0KJ1N-G66WR-JZ4X7-EA779-SJJ6L' })\n  },\n})\n```\n\n记得在后台把 `apis.map.qq.com` 加到 request 合法域名。",
         secrets=('P8F01-0KJ1N-G66WR-JZ4X7-EA779-SJJ6L',)),
    # Baidu Maps browser AK in a Vue .env.production
    Case(id='h10-002', category='api_key', container='env',
         text='# 生产环境\nNODE_ENV=production\nVUE_APP_TITLE=校园地图\nVUE_APP_BMAP_AK=Y15UbmBgSWb92O7SbeIdMWKLds3mo4eo\nVUE_APP_BASE_API=/prod-api\n',
         secrets=('Y15UbmBgSWb92O7SbeIdMWKLds3mo4eo',)),
    # WeChat Pay APIv3 key in Spring application.properties beside the merchant cert serial
    Case(id='h10-003', category='api_key', container='txt',
         text='# 微信支付 V3（课程设计：校园二手交易）\nwechat.pay.mch-id=1650012345\nwechat.pay.mch-serial-no=031C3A6713FEB1930520E701768CA688F604E1F6\nwechat.pay.api-v3-key=RsKtp1HXnviu9PfREE9ycxleNoUQ2C3r\nwechat.pay.private-key-path=classpath:cert/apiclient_key.pem\nwechat.pay.notify-url=https://shop.example.edu.cn/api/pay/notify\n',
         secrets=('RsKtp1HXnviu9PfREE9ycxleNoUQ2C3r',)),
    # Stripe webhook signing secret in an Express handler
    Case(id='h10-004', category='api_key', container='md',
         text='### Webhook 验签\n\n```js\nconst express = require(\'express\');\nconst app = express();\nconst endpointSecret = "whsec_BVkbpOEK5Zi1MjpL0Jof89p5SSHSAu56";\n\napp.post(\'/webhook\', express.raw({type: \'application/json\'}), (req, res) => {\n  const sig = req.headers[\'stripe-signature\'];\n  const event = stripe.webhooks.constructEvent(req.body, sig, endpointSecret);\n  res.json({received: true});\n});\n```',
         secrets=('whsec_BVkbpOEK5Zi1MjpL0Jof89p5SSHSAu56',)),
    # Stripe restricted live key in a WeChat chat export
    Case(id='h10-005', category='api_key', container='note',
         text='微信聊天记录导出\n————— 2026-11-02 —————\n老周 21:14\n你要的只读 key，只能查订单，别外传\n老周 21:14\n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\n我 21:16\n收到，我只在本地跑对账脚本\n',
         secrets=('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',)),
    # Razorpay key secret as the second element of the client's auth tuple
    Case(id='h10-006', category='api_key', container='py',
         text='import razorpay\n\n# key_id is the public one used by checkout.js; the secret never goes to the browser\nclient = razorpay.Client(auth=("rzp_live_7uAn1X2IXp7OtW", "NDtmRXFia9oHYnABuHHzPTf3"))\norder = client.order.create({"amount": 50000, "currency": "INR", "receipt": "course-42"})\n',
         secrets=('NDtmRXFia9oHYnABuHHzPTf3',)),
    # PayPal REST client secret in a Spring YAML next to the public client id
    Case(id='h10-007', category='api_key', container='yaml',
         text='paypal:\n  mode: live\n  client:\n    id: rBHIthZcr9CtyLyG7myNqgExNGWALGGy6PLUDNgP0bQ-KEkc5RToL6IgokyphPgee5Y3zinh0SdiHNhe\n    secret: MGhTe9jaF0_uU_kTAhcb9mYEBGSupvcOSFAVvVREoCMqz_Im2q22C7MFtkeA0CuHPAayS-IXWo2DIyup\n  return-url: https://shop.example.com/paypal/return\n',
         secrets=('MGhTe9jaF0_uU_kTAhcb9mYEBGSupvcOSFAVvVREoCMqz_Im2q22C7MFtkeA0CuHPAayS-IXWo2DIyup',)),
    # Square production access token in a Ruby snippet
    Case(id='h10-008', category='api_key', container='md',
         text="## Square 收款（实习项目）\n\n```ruby\nrequire 'square'\n\nclient = Square::Client.new(\n  access_token: 'EAAAVdKK_03yIePkKDdOCEPp26d33w4dwCwNr-fQ110PTHquc0Tqe9e1yPMs7Pw9',\n  environment: 'production'\n)\nresult = client.locations.list_locations\n```",
         secrets=('EAAAVdKK_03yIePkKDdOCEPp26d33w4dwCwNr-fQ110PTHquc0Tqe9e1yPMs7Pw9',)),
    # LINE Messaging API channel access token and channel secret in line-bot-sdk
    Case(id='h10-009', category='api_key', container='py',
         text='from linebot import LineBotApi, WebhookHandler\n\n# 日语学习打卡机器人\nline_bot_api = LineBotApi("q0/wmKyuShroCifZA+Uq8dLNjHpWpbWUS2jq67UjByrjIBD6TfEcTcx0HEVTAWdk2FQwTT0qosBKR4S3XBF2sN+X4Zkg2uqNsTB7CrBpd42hqI+tujOWRnzTDCeiPrrpsQt0nZJwyU501Ic+sHJxXwZzAioH0f8hwhFCkAO6PoC=")\nhandler = WebhookHandler("3510fa09caf75a1ea253d4b122d4b368")\n',
         secrets=('q0/wmKyuShroCifZA+Uq8dLNjHpWpbWUS2jq67UjByrjIBD6TfEcTcx0HEVTAWdk2FQwTT0qosBKR4S3XBF2sN+X4Zkg2uqNsTB7CrBpd42hqI+tujOWRnzTDCeiPrrpsQt0nZJwyU501Ic+sHJxXwZzAioH0f8hwhFCkAO6PoC=', '3510fa09caf75a1ea253d4b122d4b368')),
    # KOOK (开黑啦) bot token in a bot config.yaml
    Case(id='h10-010', category='api_key', container='yaml',
         text='# 开黑啦机器人：背单词提醒\nbot:\n  name: 单词君\n  token: "1/NDQ1NjA=/9RLNqTqCt4vrvsQzrdVEjS=="\n  mode: websocket\ncommands:\n  prefix: "/"\n',
         secrets=('1/NDQ1NjA=/9RLNqTqCt4vrvsQzrdVEjS==',)),
    # Matrix (Element) access token copied from Help & About
    Case(id='h10-011', category='api_key', container='note',
         text='Element → 设置 → 帮助与关于 → 高级 → 访问令牌（点开后复制）：\nsyt_a2JzdHVkeQ_DnrODKfV8ELFxEUOHWEp_pPqWdF\n用来给 matrix-nio 脚本登录，自动把每日学习日志发到 #study:matrix.org 房间。',
         secrets=('syt_a2JzdHVkeQ_DnrODKfV8ELFxEUOHWEp_pPqWdF',)),
    # Twitch IRC oauth: token in a chat bot .env
    Case(id='h10-012', category='api_key', container='env',
         text='TWITCH_CHANNEL=chinese_with_lin\nTWITCH_BOT_NICK=linbot\nTWITCH_OAUTH=oauth:b68nf74rgxmc8duqan6be0nzprqg2v\nCOMMAND_PREFIX=!\n',
         secrets=('b68nf74rgxmc8duqan6be0nzprqg2v',)),
    # Azure DevOps personal access token (52 base32 characters)
    Case(id='h10-013', category='api_key', container='env',
         text='AZURE_DEVOPS_ORG=https://dev.azure.com/thesis-lab\nAZURE_DEVOPS_EXT_PAT=r4fjjzias42avj7sbpu6r6nxbnf7ayxzzk5ngdj3n6hdkgvmgp7m\n',
         secrets=('r4fjjzias42avj7sbpu6r6nxbnf7ayxzzk5ngdj3n6hdkgvmgp7m',)),
    # SonarQube user token in a Maven terminal transcript
    Case(id='h10-014', category='api_key', container='note',
         text='$ mvn clean verify sonar:sonar \\\n    -Dsonar.projectKey=compiler-course \\\n    -Dsonar.host.url=http://localhost:9000 \\\n    -Dsonar.token=squ_ccda1ff78df75d7f9d167b2f2515cdb6421aa111\n[INFO] ANALYSIS SUCCESSFUL, you can find the results at: http://localhost:9000/dashboard?id=compiler-course',
         secrets=('squ_ccda1ff78df75d7f9d167b2f2515cdb6421aa111',)),
    # CircleCI personal API token in ~/.circleci/cli.yml
    Case(id='h10-015', category='api_key', container='yaml',
         text='host: https://circleci.com\nendpoint: graphql-unstable\ntoken: CCIPAT_TgaCy8XIB5d6wUFeLj9tTZ_8c6293f98c797ee68c7c84575314ac252169f84c\nrest_endpoint: api/v2\n',
         secrets=('CCIPAT_TgaCy8XIB5d6wUFeLj9tTZ_8c6293f98c797ee68c7c84575314ac252169f84c',)),
    # Buildkite agent token in buildkite-agent.cfg
    Case(id='h10-016', category='api_key', container='txt',
         text='# /etc/buildkite-agent/buildkite-agent.cfg\ntoken="972695d5bbe5e88e0f14ffb81f32b70b73b742fb283f8045a4"\nname="%hostname-%spawn"\ntags="queue=gpu,os=linux"\nbuild-path="/var/lib/buildkite-agent/builds"\n',
         secrets=('972695d5bbe5e88e0f14ffb81f32b70b73b742fb283f8045a4',)),
    # GitLab runner authentication token in config.toml [[runners]]
    Case(id='h10-017', category='api_key', container='txt',
         text='concurrent = 2\ncheck_interval = 0\n\n[[runners]]\n  name = "lab-server-docker"\n  url = "https://gitlab.example.edu.cn"\n  id = 17\n  token = "glrt-II4vouW0A09_4lgsgf47"\n  executor = "docker"\n  [runners.docker]\n    image = "python:3.12"\n',
         secrets=('glrt-II4vouW0A09_4lgsgf47',)),
    # Jenkins API token after user: in jenkins-cli -auth
    Case(id='h10-018', category='api_key', container='note',
         text='重新触发毕设的流水线：\njava -jar jenkins-cli.jar -s http://10.0.3.15:8080/ -auth zhaolei:1110960f045316152b716e6490d1c7e9ee build thesis-pipeline -f -v\n（token 在 用户 → 设置 → API Token 里生成）',
         secrets=('1110960f045316152b716e6490d1c7e9ee',)),
    # Bitbucket app password inside an HTTPS clone URL
    Case(id='h10-019', category='api_key', container='note',
         text='git clone https://wanglin:ATBBTerMBsw8DE8rmLJfihhlmrv14hOf55E10574@bitbucket.org/wanglin/os-labs.git\n# app password 只给了 repo:read 权限',
         secrets=('ATBBTerMBsw8DE8rmLJfihhlmrv14hOf55E10574',)),
    # Riot Games development API key (RGAPI- + UUID)
    Case(id='h10-020', category='api_key', container='py',
         text='import requests\n\n# 英雄联盟战绩分析（数据挖掘课作业）\nRIOT_KEY = "RGAPI-6fd572a9-d667-4646-b44a-a0f8b4286e34"\nurl = "https://kr.api.riotgames.com/lol/summoner/v4/summoners/by-name/Faker"\nresp = requests.get(url, headers={"X-Riot-Token": RIOT_KEY}, timeout=10)\n',
         secrets=('RGAPI-6fd572a9-d667-4646-b44a-a0f8b4286e34',)),
    # Perplexity key in an Obsidian plugin data.json
    Case(id='h10-021', category='api_key', container='json',
         text='{\n  "provider": "perplexity",\n  "model": "sonar-pro",\n  "apiKey": "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",\n  "temperature": 0.2,\n  "insertMode": "cursor"\n}',
         secrets=('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',)),
    # xAI key in a Jupyter notebook cell source (JSON lines)
    Case(id='h10-022', category='api_key', container='json',
         text='{\n  "cells": [\n    {\n      "cell_type": "code",\n      "execution_count": 3,\n      "metadata": {},\n      "outputs": [],\n      "source": [\n        "from openai import OpenAI\\n",\n        "client = OpenAI(base_url=\\"https://api.x.ai/v1\\", api_key=\\"xai-6KPv411C35j6OuytaSqehODfJ9hL7MBPpycmVnEwjX9ujXzyN9ey1zQtwpepzvfxgoOURKikFXfKOPna\\")\\n",\n        "r = client.chat.completions.create(model=\\"grok-3\\", messages=msgs)"\n      ]\n    }\n  ],\n  "metadata": {\n    "kernelspec": {\n      "name": "python3"\n    }\n  },\n  "nbformat": 4,\n  "nbformat_minor": 5\n}',
         secrets=('xai-6KPv411C35j6OuytaSqehODfJ9hL7MBPpycmVnEwjX9ujXzyN9ey1zQtwpepzvfxgoOURKikFXfKOPna',)),
    # Tavily and LangSmith keys in a LangGraph project .env
    Case(id='h10-023', category='api_key', container='env',
         text='TAVILY_API_KEY=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\nLANGSMITH_TRACING=true\nLANGSMITH_API_KEY=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\nLANGSMITH_PROJECT=rag-homework\n',
         secrets=('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', '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')),
    # MiniMax API key (a JWT) with its numeric GroupId in a Chinese note
    Case(id='h10-024', category='api_key', container='note',
         text='MiniMax 开放平台（abab6.5s）\n接口：https://api.minimax.chat/v1/text/chatcompletion_v2\nGroupId：9775157193942711725\nAPI Key：eyJhbGciOiJSUzI1NiIsInNpZ25fdHlwZSI6IlNJR04ifQ.eyJHcm91cElEIjoiNTAwOTk5NTgxNzY3ODk4MTY5OCIsIlRva2VuVHlwZSI6MSwiaXNzIjoibWluaW1heCIsIkNyZWF0ZVRpbWUiOiIyMDI2LTEwLTE4IDA5OjEyOjQ0In0.MEDgzKRGJ8aPHz6Zie8A_LPyeS3ZwJcqffXqjUMupFtn3Q2XnVcwWDBcoqU1DLpAKmc6Y5jfNTXLEsd17Ens2tCx55aBP62zeg3PWRvpSIqNjcnUz_IhYtWQsvk6nw4P7yMHNHEUuU5NjkyKld8oCBURfxvmtCDt1h_lg6unjGP3DR3LOCFh51p80ee3Xw-ICnzU07ZapdF2JvEFv4RDouvl401x6JkSIS_PqF120vO4WXXaaAyoL36tLVLJtFok_OaKO6te42AKEdK_Ie3gtEBx_BUU1mpthQ6tVuh33fTUvbpgb0Tg47xFzozVTukZqvG44h6aGeOn3qhDSKmFv9\n额度用完前记得换成按量计费。',
         secrets=('eyJhbGciOiJSUzI1NiIsInNpZ25fdHlwZSI6IlNJR04ifQ.eyJHcm91cElEIjoiNTAwOTk5NTgxNzY3ODk4MTY5OCIsIlRva2VuVHlwZSI6MSwiaXNzIjoibWluaW1heCIsIkNyZWF0ZVRpbWUiOiIyMDI2LTEwLTE4IDA5OjEyOjQ0In0.MEDgzKRGJ8aPHz6Zie8A_LPyeS3ZwJcqffXqjUMupFtn3Q2XnVcwWDBcoqU1DLpAKmc6Y5jfNTXLEsd17Ens2tCx55aBP62zeg3PWRvpSIqNjcnUz_IhYtWQsvk6nw4P7yMHNHEUuU5NjkyKld8oCBURfxvmtCDt1h_lg6unjGP3DR3LOCFh51p80ee3Xw-ICnzU07ZapdF2JvEFv4RDouvl401x6JkSIS_PqF120vO4WXXaaAyoL36tLVLJtFok_OaKO6te42AKEdK_Ie3gtEBx_BUU1mpthQ6tVuh33fTUvbpgb0Tg47xFzozVTukZqvG44h6aGeOn3qhDSKmFv9',)),
    # Volcengine Ark (Doubao) API key, a bare UUID, in an OpenAI-compatible client
    Case(id='h10-025', category='api_key', container='py',
         text='from openai import OpenAI\n\n# 豆包大模型，方舟平台\nclient = OpenAI(\n    base_url="https://ark.cn-beijing.volces.com/api/v3",\n    api_key="e4222187-1bb8-4577-8771-2d9a8b30ad50",\n)\nresp = client.chat.completions.create(model="doubao-1-5-pro-32k-250115", messages=[{"role": "user", "content": "你好"}])\n',
         secrets=('e4222187-1bb8-4577-8771-2d9a8b30ad50',)),
    # Baichuan key written before its label (value first, then what it is)
    Case(id='h10-026', category='api_key', container='note',
         text='sk-f3c01ef66012df68d5a6fee634507e2c\n↑ 这是百川的 key（Baichuan4），上周申请的，测试 RAG 课设用\n另外 DeepSeek 的还在钥匙串里，没抄过来。',
         secrets=('sk-f3c01ef66012df68d5a6fee634507e2c',)),
    # Cloudinary URL with api key and secret in Django settings.py
    Case(id='h10-027', category='api_key', container='py',
         text='INSTALLED_APPS += ["cloudinary", "cloudinary_storage"]\n\nCLOUDINARY_URL = "cloudinary://884070079523053:fcwtbnJ_7m8vFReamgm0iSOwJq7@dm4-homework"\nDEFAULT_FILE_STORAGE = "cloudinary_storage.storage.MediaCloudinaryStorage"\n',
         secrets=('fcwtbnJ_7m8vFReamgm0iSOwJq7',)),
    # JD Cloud AccessKey pair in a Terraform provider block
    Case(id='h10-028', category='api_key', container='txt',
         text='provider "jdcloud" {\n  access_key = "JDC_799F8C727A2A4A4A4672CC0B2E97"\n  secret_key = "492907D0194961A0467CC6574DC1F3BC"\n  region     = "cn-north-1"\n}\n',
         secrets=('JDC_799F8C727A2A4A4A4672CC0B2E97', '492907D0194961A0467CC6574DC1F3BC')),
    # UCloud SDK client with a PrivateKey (the PublicKey is only an identifier)
    Case(id='h10-029', category='api_key', container='py',
         text='from ucloud.client import Client\n\nclient = Client({\n    "region": "cn-bj2",\n    "project_id": "org-xk3ab1",\n    "public_key": "PdEPNAWbAXsIfUFBSRv1i3vijNYx5C08Q+A8KAOU==",\n    "private_key": "gI7hx4rGJTIs3HloGYdYAcZq0H29yhecxMoZEpos",\n})\n',
         secrets=('gI7hx4rGJTIs3HloGYdYAcZq0H29yhecxMoZEpos',)),
    # Kingsoft Cloud KS3 AK/SK in a Chinese note with full-width colons
    Case(id='h10-030', category='api_key', container='note',
         text='金山云对象存储（KS3）\nAccessKey：AKLTHhFFgcXnsXN00eoQlVzQqm\nSecretKey：4IJ/+8q5hde+nQ+c2B8PhqnhLqAnZGqrzl8Bpi7x\nBucket：lecture-videos（北京6区）',
         secrets=('AKLTHhFFgcXnsXN00eoQlVzQqm', '4IJ/+8q5hde+nQ+c2B8PhqnhLqAnZGqrzl8Bpi7x')),
    # base64 of a TOML config holding a DeepSeek key, in a Kubernetes Secret data field
    Case(id='h10-031', category='api_key', container='yaml',
         text='apiVersion: v1\nkind: Secret\nmetadata:\n  name: qa-bot-config\ntype: Opaque\ndata:\n  config.toml: W2xsbV0KcHJvdmlkZXIgPSAiZGVlcHNlZWsiCm1vZGVsID0gImRlZXBzZWVrLWNoYXQiCmFwaV9rZXkgPSAic2stNjY3ZjQ0MTQxOWNhZDNmMGZmMDQwY2M1ZjhmNTQwMWEiCg==\n',
         secrets=('W2xsbV0KcHJvdmlkZXIgPSAiZGVlcHNlZWsiCm1vZGVsID0gImRlZXBzZWVrLWNoYXQiCmFwaV9rZXkgPSAic2stNjY3ZjQ0MTQxOWNhZDNmMGZmMDQwY2M1ZjhmNTQwMWEiCg==',)),
    # Gemini key hidden as \x escapes in a front-end JS bundle
    Case(id='h10-032', category='api_key', container='md',
         text='前端「加密」key 的写法（其实一 console.log 就出来了）：\n\n```js\nconst _0x3f1a = "\\x41\\x49\\x7a\\x61\\x65\\x31\\x72\\x39\\x70\\x70\\x61\\x69\\x47\\x36\\x53\\x44\\x67\\x6b\\x43\\x6a\\x77\\x49\\x59\\x71\\x65\\x75\\x69\\x56\\x77\\x4d\\x4b\\x63\\x43\\x75\\x49\\x5a\\x75\\x41\\x62";\nfetch(`https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent?key=${_0x3f1a}`)\n```',
         secrets=('\\x41\\x49\\x7a\\x61\\x65\\x31\\x72\\x39\\x70\\x70\\x61\\x69\\x47\\x36\\x53\\x44\\x67\\x6b\\x43\\x6a\\x77\\x49\\x59\\x71\\x65\\x75\\x69\\x56\\x77\\x4d\\x4b\\x63\\x43\\x75\\x49\\x5a\\x75\\x41\\x62',)),
    # 01.AI (Yi) key stored as hex and decoded at run time
    Case(id='h10-033', category='api_key', container='py',
         text='# 防止被 GitHub 扫描到，先存成 hex\nYI_KEY = bytes.fromhex("3266633930623331613436633739346263366566313763613132663633643563").decode()\nclient = OpenAI(api_key=YI_KEY, base_url="https://api.lingyiwanwu.com/v1")\n',
         secrets=('3266633930623331613436633739346263366566313763613132663633643563',)),
    # Tencent Hunyuan SecretKey split over a Java string concatenation
    Case(id='h10-034', category='api_key', container='md',
         text='```java\nCredential cred = new Credential(\n    "AKIDNRQAUSrI7NDwaV5jq5Dp9fACvwh3JWrP",\n    "taIrOn6BDGJ6UXPR" +\n    "yrz6NJ2w7N5uHBMD");\nHunyuanClient client = new HunyuanClient(cred, "ap-guangzhou");\n```',
         secrets=('AKIDNRQAUSrI7NDwaV5jq5Dp9fACvwh3JWrP', 'taIrOn6BDGJ6UXPR', 'yrz6NJ2w7N5uHBMD')),
    # Naver Cloud access/secret key with Korean labels
    Case(id='h10-035', category='api_key', container='note',
         text='네이버 클라우드 플랫폼 (CLOVA Studio 실습)\n액세스 키 ID: R3MqdMkraR44yfVFmQJV\n시크릿 키: nJoEBABwHEEagW84NnYDS2qIhr7DkNwfW8tDuEEF\n메모: 학기 끝나면 키 삭제하기',
         secrets=('R3MqdMkraR44yfVFmQJV', 'nJoEBABwHEEagW84NnYDS2qIhr7DkNwfW8tDuEEF')),
    # Yandex Cloud API key with a Russian label
    Case(id='h10-036', category='api_key', container='note',
         text='YandexGPT для курсовой\nfolder_id: b1gl5oz2uw49b5rcatxl\nAPI-ключ: AQVNmPKfaayQpRgbuMG8wvKsSQXRGLx-ncHYNV-x\n(не коммитить!)',
         secrets=('AQVNmPKfaayQpRgbuMG8wvKsSQXRGLx-ncHYNV-x',)),
    # Mercado Pago production access token with a Spanish label
    Case(id='h10-037', category='api_key', container='note',
         text='Tienda del club de chino — Mercado Pago\nclave de acceso (producción): APP_USR-1982159897662228-587876-c86c8e56278525ef42a4e6c45c33f0d6-864807335\nPublic key va en el front, esta NO.',
         secrets=('APP_USR-1982159897662228-587876-c86c8e56278525ef42a4e6c45c33f0d6-864807335',)),
    # ElevenLabs key inline in a crontab line
    Case(id='h10-038', category='api_key', container='note',
         text='crontab -l\n# 每天 7 点把昨天的生词生成语音\n0 7 * * * ELEVENLABS_API_KEY=sk_0410921dcfef884533aaa56ee71c872604ade555736a747c /usr/bin/python3 /home/lin/tts/daily.py >> /tmp/tts.log 2>&1',
         secrets=('sk_0410921dcfef884533aaa56ee71c872604ade555736a747c',)),
    # DashScope key in a notebook cell's printed os.environ output
    Case(id='h10-039', category='api_key', container='json',
         text='{\n  "cells": [\n    {\n      "cell_type": "code",\n      "execution_count": 2,\n      "metadata": {},\n      "source": [\n        "import os\\n",\n        "os.environ"\n      ],\n      "outputs": [\n        {\n          "output_type": "execute_result",\n          "execution_count": 2,\n          "metadata": {},\n          "data": {\n            "text/plain": [\n              "environ({\'SHELL\': \'/bin/bash\', \'HOME\': \'/home/jovyan\', \'LANG\': \'C.UTF-8\', \'DASHSCOPE_API_KEY\': \'sk-1f1dc04a210a1200b603e3d642b19ff5\', \'JPY_PARENT_PID\': \'7\'})"\n            ]\n          }\n        }\n      ]\n    }\n  ],\n  "metadata": {},\n  "nbformat": 4,\n  "nbformat_minor": 5\n}',
         secrets=('sk-1f1dc04a210a1200b603e3d642b19ff5',)),
    # Vercel token in a GitHub Actions step's run line
    Case(id='h10-040', category='api_key', container='yaml',
         text='name: deploy-notes\non: push\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npx vercel deploy --prod --yes --token 6Nvi0aeqfBnvpF2EVwdUiRpg\n',
         secrets=('6Nvi0aeqfBnvpF2EVwdUiRpg',)),
    # JD pt_key/pt_pin cookie in a QingLong panel JD_COOKIE variable
    Case(id='h10-041', category='auth_header', container='env',
         text='# 青龙面板 环境变量（京东签到脚本）\nJD_COOKIE="pt_key=AAJzm9UlQQr3an_NV4EQPsy7emEvZ4dc8pZtOQcQVKTh8DpcIY1ESx6yMfY21G-5;pt_pin=jd_5lyd5oi8y4gz6;"\nJD_DEBUG=false\n',
         secrets=('AAJzm9UlQQr3an_NV4EQPsy7emEvZ4dc8pZtOQcQVKTh8DpcIY1ESx6yMfY21G-5',)),
    # Taobao cookie2 and _tb_token_ in a scraper's cookies dict
    Case(id='h10-042', category='auth_header', container='py',
         text='import requests\n\n# 爬淘宝评论做情感分析（仅课程作业）\ncookies = {\n    "cookie2": "e881f532c755f0c800a5f02b2bf900a9",\n    "_tb_token_": "iv5a0ymxcadlt",\n    "thw": "cn",\n}\nr = requests.get(url, cookies=cookies, headers={"User-Agent": UA})\n',
         secrets=('e881f532c755f0c800a5f02b2bf900a9', 'iv5a0ymxcadlt')),
    # Weibo SUB cookie in Scrapy DEFAULT_REQUEST_HEADERS
    Case(id='h10-043', category='auth_header', container='py',
         text='BOT_NAME = "weibo_topic"\nROBOTSTXT_OBEY = False\nDEFAULT_REQUEST_HEADERS = {\n    "Accept": "text/html,application/xhtml+xml",\n    "Cookie": "SUB=_2A25R71fzsHHHHMv8pAvjsIyt7m-3z5XUXGxjGstKX3uu2sNmwKQkz4uhoOdryHHkgze4bFjyrwM3amyRCL-XGcJFIKL; SUBP=0033WrSXqPxfM72-Ws9jqgMF55529P9D9W5",\n}\n',
         secrets=('_2A25R71fzsHHHHMv8pAvjsIyt7m-3z5XUXGxjGstKX3uu2sNmwKQkz4uhoOdryHHkgze4bFjyrwM3amyRCL-XGcJFIKL',)),
    # Douyin sessionid cookie in a downloader's YAML config
    Case(id='h10-044', category='auth_header', container='yaml',
         text='# 抖音无水印下载（收藏的教学视频）\ncookie:\n  sessionid: 9c58bb7d3f116a486ca89edb788b3ca4\n  ttwid: ""\ndownload:\n  path: ./videos\n  music: false\n',
         secrets=('9c58bb7d3f116a486ca89edb788b3ca4',)),
    # VS Code REST Client .http file with an @token variable used in the header
    Case(id='h10-045', category='auth_header', container='txt',
         text='@host = https://api.kb-course.cn\n@token = eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0ODU5OSIsInJvbGUiOiJzdHVkZW50IiwiZXhwIjoxNzk4NzYxNjAwfQ.7DlG4L0Tv29jpF-GtAUn1w2Sw0nfUAQJrZSdGPX5r6h\n\n### 获取我的笔记\nGET {{host}}/v1/notes?page=1\nAuthorization: Bearer {{token}}\nAccept: application/json\n',
         secrets=('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0ODU5OSIsInJvbGUiOiJzdHVkZW50IiwiZXhwIjoxNzk4NzYxNjAwfQ.7DlG4L0Tv29jpF-GtAUn1w2Sw0nfUAQJrZSdGPX5r6h',)),
    # ~/.curlrc with a fixed Authorization header
    Case(id='h10-046', category='auth_header', container='txt',
         text='# ~/.curlrc\nsilent\nshow-error\nconnect-timeout = 10\nheader = "Authorization: token DpaPVYSIoPYJtzQnFGY8qsCPR6rBbdu886Pk0IA4"\nuser-agent = "curl-lin/8.5"\n',
         secrets=('DpaPVYSIoPYJtzQnFGY8qsCPR6rBbdu886Pk0IA4',)),
    # Bearer token in Go gRPC outgoing metadata
    Case(id='h10-047', category='auth_header', container='md',
         text='```go\nmd := metadata.Pairs(\n    "authorization", "Bearer ya29.tXz3NUmU5_0YDxxLb3NbSqJNi1dMpP1s3e_dU8o4X5spvOoLpA_H27JQRAzqY5I4_41Q1dWu3XwoWcpUf0zWt5RG1Guv8sWZx2L0FX8CiLudBgNqN61NuqQsxtl0d1u-_S17QiWodwP5Rpcd5pA47n",\n    "x-goog-user-project", "thesis-nlp",\n)\nctx := metadata.NewOutgoingContext(context.Background(), md)\n```',
         secrets=('ya29.tXz3NUmU5_0YDxxLb3NbSqJNi1dMpP1s3e_dU8o4X5spvOoLpA_H27JQRAzqY5I4_41Q1dWu3XwoWcpUf0zWt5RG1Guv8sWZx2L0FX8CiLudBgNqN61NuqQsxtl0d1u-_S17QiWodwP5Rpcd5pA47n',)),
    # Feishu tenant_access_token in an OkHttp Authorization header
    Case(id='h10-048', category='auth_header', container='md',
         text='飞书多维表格同步脚本（Java）：\n\n```java\nRequest req = new Request.Builder()\n    .url("https://open.feishu.cn/open-apis/bitable/v1/apps/" + appToken + "/tables")\n    .addHeader("Authorization", "Bearer t-ge8b7f453f43ab6d3e104772a260d9fc27bd8d")\n    .build();\n```\n（token 2 小时过期）',
         secrets=('t-ge8b7f453f43ab6d3e104772a260d9fc27bd8d',)),
    # Basic auth header value with a Russian label
    Case(id='h10-049', category='auth_header', container='note',
         text='Прокси на даче (3proxy)\nзаголовок авторизации: Basic YWRtaW46Z21wZURzIzI2NjQ=\nадрес: 192.168.0.1:3128',
         secrets=('YWRtaW46Z21wZURzIzI2NjQ=',)),
    # Kubernetes service-account token passed with kubectl --token=
    Case(id='h10-050', category='auth_header', container='note',
         text='kubectl --server=https://10.10.0.2:6443 --insecure-skip-tls-verify --token=eyJhbGciOiJSUzI1NiIsImtpZCI6IldGcHBUU3VqakowNHVqdnZLVnFxX1NMcTdBbG9wa2lKOUo5ajdFc0RfdVUifQ.eyJpc3MiOiJrdWJlcm5ldGVzL3NlcnZpY2VhY2NvdW50Iiwia3ViZXJuZXRlcy5pby9zZXJ2aWNlYWNjb3VudC9uYW1lc3BhY2UiOiJtbCIsImt1YmVybmV0ZXMuaW8vc2VydmljZWFjY291bnQvc2VydmljZS1hY2NvdW50Lm5hbWUiOiJ0cmFpbmVyIiwic3ViIjoic3lzdGVtOnNlcnZpY2VhY2NvdW50Om1sOnRyYWluZXIifQ.oNQe14mC12GfjQqFHoAbUtqC2Pi4MekEExfVdMs5Lv8ZwI9rJfXRnvm9D4Wj_UKjFuGoHU_d9Fmb54St5iXyzX7HogDIqjrnQH4InPrvmpbZttAqp1g0pHC-XzbjqnnuOCrj_jS9vzHunJJxGVmm0o_Uukf0bA91gcg6VcveK3ahOPxmZBMhQm_xOvQccdkxNS0kruOhsXBuuAnl0uNkvofUh76Qyd9LqOdp2jCn7MQpYvXde3f2s87H8Fre8j-ccz5VgEkvn6hKKHhPk_YY2K9BjtrCFhAhk18YRR-w_-MxX1navAFvoQmQmdMwsGWCf1KYOL9izPTVMGDH8bCSEZ get pods -n ml',
         secrets=('eyJhbGciOiJSUzI1NiIsImtpZCI6IldGcHBUU3VqakowNHVqdnZLVnFxX1NMcTdBbG9wa2lKOUo5ajdFc0RfdVUifQ.eyJpc3MiOiJrdWJlcm5ldGVzL3NlcnZpY2VhY2NvdW50Iiwia3ViZXJuZXRlcy5pby9zZXJ2aWNlYWNjb3VudC9uYW1lc3BhY2UiOiJtbCIsImt1YmVybmV0ZXMuaW8vc2VydmljZWFjY291bnQvc2VydmljZS1hY2NvdW50Lm5hbWUiOiJ0cmFpbmVyIiwic3ViIjoic3lzdGVtOnNlcnZpY2VhY2NvdW50Om1sOnRyYWluZXIifQ.oNQe14mC12GfjQqFHoAbUtqC2Pi4MekEExfVdMs5Lv8ZwI9rJfXRnvm9D4Wj_UKjFuGoHU_d9Fmb54St5iXyzX7HogDIqjrnQH4InPrvmpbZttAqp1g0pHC-XzbjqnnuOCrj_jS9vzHunJJxGVmm0o_Uukf0bA91gcg6VcveK3ahOPxmZBMhQm_xOvQccdkxNS0kruOhsXBuuAnl0uNkvofUh76Qyd9LqOdp2jCn7MQpYvXde3f2s87H8Fre8j-ccz5VgEkvn6hKKHhPk_YY2K9BjtrCFhAhk18YRR-w_-MxX1navAFvoQmQmdMwsGWCf1KYOL9izPTVMGDH8bCSEZ',)),
    # OpenStack Fernet token in an `openstack token issue` table
    Case(id='h10-051', category='auth_header', container='txt',
         text='$ openstack token issue\n+------------+------------------------------------------------------------------+\n| Field      | Value                                                            |\n+------------+------------------------------------------------------------------+\n| expires    | 2026-11-20T10:12:09+0000                                         |\n| id         | gAAAAABLqgIQ9qNjqZqpv-XcUzonXvcoeTRVqK70XgwLg1hEgn8rI6UTGLbObwIUv96Mep-oe1_r2vLRGVWbvJwmr23j5dQzDCZoj1pSj1AIN3Bwr2LEwK7mSNFNgNMleHnWri1VMM6AEW4-7sF8SRF6qvEZGrl5Y61Vd42eo0prsYEFxWgq5p4 |\n| project_id | fd862337f557585215d099ed1496022e                                 |\n| user_id    | 4fafcc9508bde39b4f8712c985794b6e                                 |\n+------------+------------------------------------------------------------------+\nexport OS_TOKEN=上面那个 id',
         secrets=('gAAAAABLqgIQ9qNjqZqpv-XcUzonXvcoeTRVqK70XgwLg1hEgn8rI6UTGLbObwIUv96Mep-oe1_r2vLRGVWbvJwmr23j5dQzDCZoj1pSj1AIN3Bwr2LEwK7mSNFNgNMleHnWri1VMM6AEW4-7sF8SRF6qvEZGrl5Y61Vd42eo0prsYEFxWgq5p4',)),
    # access token sent through Sec-WebSocket-Protocol in a browser DevTools copy
    Case(id='h10-052', category='auth_header', container='note',
         text='DevTools → Network → WS → Headers（复制的请求头）：\nGET wss://live.kb-course.cn/ws HTTP/1.1\nUpgrade: websocket\nSec-WebSocket-Protocol: access_token, eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1aWQiOiI2OTg0NzE2Iiwic2NvcGUiOiJsaXZlOnJlYWQiLCJpYXQiOjE3NjI5MjMwMTEsImV4cCI6MTc2MjkzMDIxMX0.kUOLK-wcVIFu0TMCpFBmWzE-N4rK3inMZIdWWh81k-T\nSec-WebSocket-Version: 13',
         secrets=('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1aWQiOiI2OTg0NzE2Iiwic2NvcGUiOiJsaXZlOnJlYWQiLCJpYXQiOjE3NjI5MjMwMTEsImV4cCI6MTc2MjkzMDIxMX0.kUOLK-wcVIFu0TMCpFBmWzE-N4rK3inMZIdWWh81k-T',)),
    # Hikvision camera RTSP URL with admin password
    Case(id='h10-053', category='connection_string', container='note',
         text='宿舍门口摄像头（海康 DS-2CD3T46）\nVLC 打开网络串流：\nrtsp://admin:wlm4O1!449@192.168.1.64:554/Streaming/Channels/101\n子码流把 101 改成 102',
         secrets=('wlm4O1!449',)),
    # MQTT broker credentials in paho username_pw_set
    Case(id='h10-054', category='connection_string', container='py',
         text='import paho.mqtt.client as mqtt\n\n# 物联网课：温湿度上报到 EMQX\nclient = mqtt.Client(client_id="dorm-305-dht22")\nclient.username_pw_set("dorm305", "DdSdVb3Zp0tN")\nclient.connect("broker.emqx.io", 1883, 60)\n',
         secrets=('DdSdVb3Zp0tN',)),
    # DM (达梦) disql login user/password@host:port
    Case(id='h10-055', category='connection_string', container='note',
         text='达梦数据库实验 3\n$ cd /opt/dmdbms/bin\n$ ./disql SYSDBA/\'"SYSDBA213#"\'@localhost:5236\n服务器[localhost:5236]:处于普通打开状态\n登录使用时间 : 3.421(ms)',
         secrets=('SYSDBA213#',)),
    # openGauss gsql with -W password
    Case(id='h10-056', category='connection_string', container='note',
         text="[omm@node1 ~]$ gsql -d postgres -p 26000 -U omm -W 'Gauss@958' -r\ngsql ((openGauss 5.0.1 build 33b035fd) compiled at 2023-12-15)\nopenGauss=#",
         secrets=('Gauss@958',)),
    # OceanBase obclient with tenant user and glued -p password
    Case(id='h10-057', category='connection_string', container='note',
         text='obclient -h127.0.0.1 -P2881 -uroot@sys -pqY1CDkzBrt -Doceanbase -A\n-- 实验环境，OBD 一键部署的 demo 集群',
         secrets=('qY1CDkzBrt',)),
    # redis-cli -a in a bash history dump
    Case(id='h10-058', category='connection_string', container='note',
         text='  501  docker ps\n  502  redis-cli -h 10.0.8.12 -p 6379 -a pqNeBPmodmStKa81 --no-auth-warning\n  503  keys session:*\n  504  history',
         secrets=('pqNeBPmodmStKa81',)),
    # sqlcmd -U sa -P in a PowerShell transcript
    Case(id='h10-059', category='connection_string', container='note',
         text='PS C:\\Users\\lin> docker run -d -p 1433:1433 mcr.microsoft.com/mssql/server:2022-latest\nPS C:\\Users\\lin> sqlcmd -S localhost,1433 -U sa -P "FaOoQntr!36" -C -Q "SELECT @@VERSION"',
         secrets=('FaOoQntr!36',)),
    # Elasticsearch URL with elastic:password in a Kibana/Logstash YAML
    Case(id='h10-060', category='connection_string', container='yaml',
         text='# logstash pipeline 输出（课程日志分析）\noutput:\n  elasticsearch:\n    hosts: ["https://elastic:MsfVP9hLL2Q66TEzxW9G@localhost:9200"]\n    index: "nginx-%{+YYYY.MM.dd}"\n    ssl_certificate_verification: false\n',
         secrets=('MsfVP9hLL2Q66TEzxW9G',)),
    # Snowflake SQLAlchemy URL in a notebook cell
    Case(id='h10-061', category='connection_string', container='json',
         text='{\n  "cells": [\n    {\n      "cell_type": "code",\n      "metadata": {},\n      "outputs": [],\n      "execution_count": null,\n      "source": [\n        "from sqlalchemy import create_engine\\n",\n        "engine = create_engine(\\"snowflake://LIN_STUDENT:y1EL8J5AQAXKIu@xy12345.ap-southeast-1/COURSE_DB/PUBLIC?warehouse=COMPUTE_WH\\")"\n      ]\n    }\n  ],\n  "metadata": {},\n  "nbformat": 4,\n  "nbformat_minor": 5\n}',
         secrets=('y1EL8J5AQAXKIu',)),
    # ftp:// URL with credentials in an lftp mirror script
    Case(id='h10-062', category='connection_string', container='txt',
         text='#!/bin/sh\n# 每晚把课件同步到 NAS\nlftp -e "mirror -R --only-newer /home/lin/slides /share/slides; quit" ftp://lin:Rl0nt9qXL@192.168.50.5:21\n',
         secrets=('Rl0nt9qXL',)),
    # Hive beeline -u jdbc:hive2 -n user -p password
    Case(id='h10-063', category='connection_string', container='note',
         text='大数据实验：\nbeeline -u "jdbc:hive2://hadoop102:10000/default" -n atguigu -p mAAs74JIEPQ\n0: jdbc:hive2://hadoop102:10000> show databases;',
         secrets=('mAAs74JIEPQ',)),
    # MS Access OLE DB string with Jet OLEDB:Database Password
    Case(id='h10-064', category='connection_string', container='txt',
         text='\' VBA 模块：连接成绩库\nDim conn As Object\nSet conn = CreateObject("ADODB.Connection")\nconn.Open "Provider=Microsoft.ACE.OLEDB.12.0;Data Source=D:\\成绩\\grades.accdb;Jet OLEDB:Database Password=1649x96Y;"\n',
         secrets=('1649x96Y',)),
    # whole MySQL URL percent-encoded inside a setup wizard's query string
    Case(id='h10-065', category='connection_string', container='note',
         text='安装向导跳转的地址（浏览器地址栏复制）：\nhttp://localhost:8080/install/step3?dsn=mysql%3A%2F%2Froot%3AAKTOUVKWHk%4044%40127.0.0.1%3A3306%2Fblog&lang=zh-CN',
         secrets=('AKTOUVKWHk%4044',)),
    # NATS URL with user:pass in a Go nats.Connect call
    Case(id='h10-066', category='connection_string', container='md',
         text='```go\nnc, err := nats.Connect("nats://ingest:F59spRswsPae@10.0.0.7:4222")\nif err != nil {\n    log.Fatal(err)\n}\n```',
         secrets=('F59spRswsPae',)),
    # .NET RSAKeyValue XML with private parameters (ToXmlString(true))
    Case(id='h10-067', category='private_key', container='note',
         text='C# 作业：RSA 加解密，rsa.ToXmlString(true) 导出的私钥，存这里方便下次解密作业文件\n<RSAKeyValue><Modulus>7vtw8+3CleMcU11Ut7mWx7OMCwSHQt+JXms7FsAAlv31+ZY7E5IiMaL5QfLKuUwFjcRBPd4MSIFJT9jIbrDIb/o7ZgvfinbjYDeiyFC+WaoT0o7Jpa+CgjuDR7GQ/E58t9ugd+fq8MKtYC2cRolFKqncWWPxsNRefbfFrI4y30c=</Modulus><Exponent>AQAB</Exponent><P>+DLyQC/Gc+sTTXSPTFwHLKEOu3dknPA+KZwsya1WPtMDp3yNiXviebgBcu5Kd7S0QPEyourXaUBgPJ63neGLKw==</P><Q>9n5Vs5Kr2oxWLV166CT5+drgSrkkKE+DdPkqOW0eMT3fBhxO5t9TwmIxPfEQ76tuNOHlJb2RD8iNZ2sTpTH+VQ==</Q><DP>ba0Vn4d9Cnw2a2O2bue7w9znxa9cpn0C+yAoKnaORfS5CKnhYX989Ix7F251ObCAdrIezh84USpBXIhGW13vQQ==</DP><DQ>kxFhlNjIDId6y2pg8K1PMJI1DKBWQG7goiQf20+NmheuP3kYYouQ8AOiGbEBR95izM6S5+eo61/fbnrmp8OiWQ==</DQ><InverseQ>EMaeW601rtGOip47suAuUl3QobbyLiVggWHlno/8ywCXHC7RplkeU2ipux3bm+5kY9HtbuBG3rzAdg89vooJ9Q==</InverseQ><D>SJOl/v6C7MA3Nv4OH2nGZ8mYSzRJ275FWp5YKJWQ2EoyLGU6dbwYlFh5OFUCyflTanViluZbdp2E5THh1PPtOrZYcMFD/LUx7JH1Fvc+jiYQt7IhRc3DDfnarRBewO6Ecw5ykv1hcfUyt0q9mO8HPlGHShxdyhKqzoGfulD1KDk=</D></RSAKeyValue>',
         secrets=('+DLyQC/Gc+sTTXSPTFwHLKEOu3dknPA+KZwsya1WPtMDp3yNiXviebgBcu5Kd7S0QPEyourXaUBgPJ63neGLKw==', '9n5Vs5Kr2oxWLV166CT5+drgSrkkKE+DdPkqOW0eMT3fBhxO5t9TwmIxPfEQ76tuNOHlJb2RD8iNZ2sTpTH+VQ==', 'ba0Vn4d9Cnw2a2O2bue7w9znxa9cpn0C+yAoKnaORfS5CKnhYX989Ix7F251ObCAdrIezh84USpBXIhGW13vQQ==', 'kxFhlNjIDId6y2pg8K1PMJI1DKBWQG7goiQf20+NmheuP3kYYouQ8AOiGbEBR95izM6S5+eo61/fbnrmp8OiWQ==', 'EMaeW601rtGOip47suAuUl3QobbyLiVggWHlno/8ywCXHC7RplkeU2ipux3bm+5kY9HtbuBG3rzAdg89vooJ9Q==', 'SJOl/v6C7MA3Nv4OH2nGZ8mYSzRJ275FWp5YKJWQ2EoyLGU6dbwYlFh5OFUCyflTanViluZbdp2E5THh1PPtOrZYcMFD/LUx7JH1Fvc+jiYQt7IhRc3DDfnarRBewO6Ecw5ykv1hcfUyt0q9mO8HPlGHShxdyhKqzoGfulD1KDk=')),
    # PKCS#8 EC key body split into Java string concatenation lines
    Case(id='h10-068', category='private_key', container='md',
         text='### Apple Sign in：生成 client_secret\n\n```java\n// AuthKey_8Q4XY2ZL3M.p8 的内容，去掉了首尾标记\nString privateKeyPem =\n    "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgXp9NgHMl1WEV1by7" +\n    "fs5yPl9Y8lsEM+CducJRDtBYGxShRANCAAQtvb4o7tGgd+toY4RCJHQSOnDYFDAJ" +\n    "6lW2by9wti8EsPpFJvtTdvrub+SYbt+hpZQYS7AHIN7qbXgz6cf4rb/D";\nString keyId = "8Q4XY2ZL3M";\nString teamId = "7RX9AB3KQ2";\n```',
         secrets=('MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgXp9NgHMl1WEV1by7', 'fs5yPl9Y8lsEM+CducJRDtBYGxShRANCAAQtvb4o7tGgd+toY4RCJHQSOnDYFDAJ', '6lW2by9wti8EsPpFJvtTdvrub+SYbt+hpZQYS7AHIN7qbXgz6cf4rb/D')),
    # BIP32 extended private key (xprv) from a wallet export
    Case(id='h10-069', category='private_key', container='note',
         text='Electrum → 钱包 → 信息 → 主私钥（测试网练习钱包，课程实验用）\nxprv9s21ZrQH143K2m44XmWRyBr8Kmo38wWSJ58UAGYbwLrn8bQzxvNfAfKKPaZE93iXgpgBScxNs9XnRQcpMXkKgKnuDmbcwnUuaGHjSPGJz2F\n对应的 xpub 可以随便给人看，这个不行。',
         secrets=('xprv9s21ZrQH143K2m44XmWRyBr8Kmo38wWSJ58UAGYbwLrn8bQzxvNfAfKKPaZE93iXgpgBScxNs9XnRQcpMXkKgKnuDmbcwnUuaGHjSPGJz2F',)),
    # xxd -p plain hex of a DER Ed25519 private key (PKCS#8 header, then the seed)
    Case(id='h10-070', category='private_key', container='note',
         text='$ openssl genpkey -algorithm ed25519 -outform DER -out ed25519_key.der\n$ xxd -p ed25519_key.der\n302e020100300506032b657004220420c22275b3183d9cbae9d23d91ed01\n53598f1521b94a9b49cf73b33f9e1ee6125a\n# 前 16 字节是 PKCS#8 头，后面 32 字节才是种子',
         secrets=('c22275b3183d9cbae9d23d91ed01', '53598f1521b94a9b49cf73b33f9e1ee6125a')),
    # cloud-init user-data ssh_keys ed25519_private block scalar
    Case(id='h10-071', category='private_key', container='yaml',
         text='#cloud-config\nhostname: blog\nssh_pwauth: false\nssh_keys:\n  ed25519_private: |\n    -----BEGIN OPENSSH PRIVATE KEY-----\n    b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n    QyNTUxOQAAACAelh7VpZOybhfPGKIWOUmB/O+NhJO/6mODpANzr7XlvgAAAJBYKRbjWCkW\n    4wAAAAtzc2gtZWQyNTUxOQAAACAelh7VpZOybhfPGKIWOUmB/O+NhJO/6mODpANzr7Xlvg\n    AAAECBLg/30oBU9VHSZOELJfdr+zEw68Sn/6U5ss5ia+vgHB6WHtWlk7JuF88YohY5SYH8\n    742Ek7/qY4OkA3OvteW+AAAAC2RlcGxveUBibG9nAQI=\n    -----END OPENSSH PRIVATE KEY-----\n  ed25519_public: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB6WHtWlk7JuF88YohY5SYH8742Ek7/qY4OkA3OvteW+ deploy@blog\n',
         secrets=('b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW', 'QyNTUxOQAAACAelh7VpZOybhfPGKIWOUmB/O+NhJO/6mODpANzr7XlvgAAAJBYKRbjWCkW', '4wAAAAtzc2gtZWQyNTUxOQAAACAelh7VpZOybhfPGKIWOUmB/O+NhJO/6mODpANzr7Xlvg', 'AAAECBLg/30oBU9VHSZOELJfdr+zEw68Sn/6U5ss5ia+vgHB6WHtWlk7JuF88YohY5SYH8', '742Ek7/qY4OkA3OvteW+AAAAC2RlcGxveUBibG9nAQI=')),
    # Tor onion service hs_ed25519_secret_key, base64 of the file, in a Helm values file
    Case(id='h10-072', category='private_key', container='yaml',
         text='onion:\n  enabled: true\n  hostname: ""\n  # base64 -w0 /var/lib/tor/hidden_service/hs_ed25519_secret_key\n  secretKey: "PT0gZWQyNTUxOXYxLXNlY3JldDogdHlwZTAgPT0AAACh264juNPnWL5erVBsSVf8EwMEXJ2UkAtzNv4gjo82/eNzwyJspEd7F6mKvCixX3oZ4oY3qhOKmCzjBZjkb5Pb"\n  ports:\n    - 80:8080\n',
         secrets=('PT0gZWQyNTUxOXYxLXNlY3JldDogdHlwZTAgPT0AAACh264juNPnWL5erVBsSVf8EwMEXJ2UkAtzNv4gjo82/eNzwyJspEd7F6mKvCixX3oZ4oY3qhOKmCzjBZjkb5Pb',)),
    # Monero private spend and view keys with Russian labels
    Case(id='h10-073', category='private_key', container='note',
         text='Кошелёк Monero (учебный, stagenet)\nПриватный ключ траты: 9d447a50eb6fc547a7254cb1405390e0de0b0c8af19598b75a750f6b18a5c401\nПриватный ключ просмотра: 416443b755ae30e79933bb3fbb9ae13fa86a4b30c23721da925d8853e1b2a001\nВысота восстановления: 1683920',
         secrets=('9d447a50eb6fc547a7254cb1405390e0de0b0c8af19598b75a750f6b18a5c401', '416443b755ae30e79933bb3fbb9ae13fa86a4b30c23721da925d8853e1b2a001')),
    # RSA PRIVATE KEY inside a LaTeX verbatim environment of lab notes
    Case(id='h10-074', category='private_key', container='note',
         text='\\section{实验四：SSH 免密登录}\n生成的私钥如下（实验机 10.0.5.21 用）：\n\\begin{verbatim}\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx6ViG2A7EbLE/L0BAqBi6D5v74Pa0jD288/1x3VpMUCpouzZ\nCgUgfFISPNvkVVBMMl5h5f5UJ3DBrWCoEEjxDcIGmoxsVD8hkBk5Wb9lhy7Y/96T\novDiCsTjr+3UMu1jRRjj/kx4y5aZOhz+B7uTt/16pW4ZmhuqBkNV1dDZTvov5joI\nXsOeVlwiCu9YV3EEF5NhBGGRccmtZbeWSadSfRD9k96jOLtAilurWzD6s7TfDdEo\nNlJuuiHFPDXFS8gctPLeWwUuzEyiW5OA/HssmB6RiIOhky0Z7I97gfEnAQ8/iZrV\nE5pB18Vszh4HlIhXELKHsdd9PUHkcBatGIdfyQIDAQABAoIBACEZ6KRFVkXe8A4/\ngBVhZkS/ZWu+3t8Ow0M1bbi+XMyPvhCHWIzywKocKW3xv2/tulR3lZ++hVFsvo/y\ngKsCjQUM8G9bbPKi7PupUvrwYvMA73Ws/6l6auACOQYIVrCC73ybXeHh5/1JYOpj\nuDKsBRfybQ1UreYBRDV5oJes4vrW8WTh2ZDiQOLOl+2cKeSijSzm5dxsDXqlBANS\nRKATsq86Rb+Hm7z1eBqtAcR2mbks/Y6u08pTEEGAq/oRgBbUhkUvLPXsSmd/h3aP\nGSEKcBy4KfkFqsdH/t4nhDDs+27ABGr/leHAW06k/+oQBe9sY8iNfjYDnkz83eEK\nSW8iuMkCgYEA7ABvRii2M0Xh+5tAQEaoOhI47bu309NnCitQh7u0x9ze3mM3KWA2\n6yWtZg2tLjcPybJ4uvWBhN/ngaDVezICNaU5ycQ+6lPOAgcIplI4kf0e8ZIAa+Fa\nPg7eqpCAZPLM3UrU8nJy2jM8YQGVhb1572EiOA7m3eb3YZelkGFFntMCgYEA2JBJ\nvCmd/HM0ZWIQdFqQG+FaMl6HTHfsln95GtgzN/TYzrb1tiUy7uexmxKbWqbMybDP\noLpFGK0Ep4elOLSv91MR2Z3cK5i51TI56QiCYGK7PPvwlCWT82wTnhc/7w+jhD3U\nnOiIxpyovouOle0Nq3fuxIEcuANtdA1aY7D8fXMCgYEAkNK/diVbkeFLiRQ/fHIf\nn+s4xiKQ70tmiuYDuBenG5LdrUjjO9/QM8LeQqcX5Clj5dlAnzIzNfAU6AZjmwMY\nOgVXjgqAtVmSLMpWM4J3NpdHGuUGny0eLMEBQVgFgm1A7HeUb+dttZsFbV4EfJrG\nrfBEiHQUlo26t0fREOWwTIMCgYBXFrdAPvA0nFOeza/WSrEXNSmjhdYdD0EKSJr4\nC6eVQhaKEpN/OzhfULdgqDvnWZqTJVJpzV6KDNIJWQg9ZJQ6/qH4BH6M3a8lqDwX\nlX9wqWOoo5xcxzvXMUg2VB020vAr9v1wWCbg0BEgB1lAu4K6yNExHsbgzSgP+mq2\nGm9/NwKBgEfOghtn7jFurGSZhakL9GYHb68iLx320z5dcMl2cg+jZOJQrjJwanXv\nfukQFin9OHDWLESKMxYy47SFGMABqg9gYzmAhpB2HlIYzxlFjSKradiszHkz/4X3\nxWr5cDZu0xTS1/ExmwvgMesxTdC1sJbPU7/OHlTf5xeekMMZrghI\n-----END RSA PRIVATE KEY-----\n\\end{verbatim}\n公钥已追加到 \\texttt{authorized\\_keys}。',
         secrets=('MIIEowIBAAKCAQEAx6ViG2A7EbLE/L0BAqBi6D5v74Pa0jD288/1x3VpMUCpouzZ\nCgUgfFISPNvkVVBMMl5h5f5UJ3DBrWCoEEjxDcIGmoxsVD8hkBk5Wb9lhy7Y/96T\novDiCsTjr+3UMu1jRRjj/kx4y5aZOhz+B7uTt/16pW4ZmhuqBkNV1dDZTvov5joI\nXsOeVlwiCu9YV3EEF5NhBGGRccmtZbeWSadSfRD9k96jOLtAilurWzD6s7TfDdEo\nNlJuuiHFPDXFS8gctPLeWwUuzEyiW5OA/HssmB6RiIOhky0Z7I97gfEnAQ8/iZrV\nE5pB18Vszh4HlIhXELKHsdd9PUHkcBatGIdfyQIDAQABAoIBACEZ6KRFVkXe8A4/\ngBVhZkS/ZWu+3t8Ow0M1bbi+XMyPvhCHWIzywKocKW3xv2/tulR3lZ++hVFsvo/y\ngKsCjQUM8G9bbPKi7PupUvrwYvMA73Ws/6l6auACOQYIVrCC73ybXeHh5/1JYOpj\nuDKsBRfybQ1UreYBRDV5oJes4vrW8WTh2ZDiQOLOl+2cKeSijSzm5dxsDXqlBANS\nRKATsq86Rb+Hm7z1eBqtAcR2mbks/Y6u08pTEEGAq/oRgBbUhkUvLPXsSmd/h3aP\nGSEKcBy4KfkFqsdH/t4nhDDs+27ABGr/leHAW06k/+oQBe9sY8iNfjYDnkz83eEK\nSW8iuMkCgYEA7ABvRii2M0Xh+5tAQEaoOhI47bu309NnCitQh7u0x9ze3mM3KWA2\n6yWtZg2tLjcPybJ4uvWBhN/ngaDVezICNaU5ycQ+6lPOAgcIplI4kf0e8ZIAa+Fa\nPg7eqpCAZPLM3UrU8nJy2jM8YQGVhb1572EiOA7m3eb3YZelkGFFntMCgYEA2JBJ\nvCmd/HM0ZWIQdFqQG+FaMl6HTHfsln95GtgzN/TYzrb1tiUy7uexmxKbWqbMybDP\noLpFGK0Ep4elOLSv91MR2Z3cK5i51TI56QiCYGK7PPvwlCWT82wTnhc/7w+jhD3U\nnOiIxpyovouOle0Nq3fuxIEcuANtdA1aY7D8fXMCgYEAkNK/diVbkeFLiRQ/fHIf\nn+s4xiKQ70tmiuYDuBenG5LdrUjjO9/QM8LeQqcX5Clj5dlAnzIzNfAU6AZjmwMY\nOgVXjgqAtVmSLMpWM4J3NpdHGuUGny0eLMEBQVgFgm1A7HeUb+dttZsFbV4EfJrG\nrfBEiHQUlo26t0fREOWwTIMCgYBXFrdAPvA0nFOeza/WSrEXNSmjhdYdD0EKSJr4\nC6eVQhaKEpN/OzhfULdgqDvnWZqTJVJpzV6KDNIJWQg9ZJQ6/qH4BH6M3a8lqDwX\nlX9wqWOoo5xcxzvXMUg2VB020vAr9v1wWCbg0BEgB1lAu4K6yNExHsbgzSgP+mq2\nGm9/NwKBgEfOghtn7jFurGSZhakL9GYHb68iLx320z5dcMl2cg+jZOJQrjJwanXv\nfukQFin9OHDWLESKMxYy47SFGMABqg9gYzmAhpB2HlIYzxlFjSKradiszHkz/4X3\nxWr5cDZu0xTS1/ExmwvgMesxTdC1sJbPU7/OHlTf5xeekMMZrghI',)),
    # secp256k1 private scalar as a Rust byte array literal
    Case(id='h10-075', category='private_key', container='md',
         text='## 以太坊签名练习（Rust, k256）\n\n```rust\nlet secret: [u8; 32] = [0x5f, 0x80, 0x20, 0xe7, 0x54, 0x52, 0x71, 0xad, 0x6e, 0x63, 0xbd, 0xff, 0x65, 0xd1, 0x5a, 0x6a, 0x0f, 0x5a, 0xfb, 0xb0, 0xc8, 0x9a, 0xac, 0xa1, 0x33, 0xd5, 0x3a, 0xc1, 0x2d, 0xf9, 0x70, 0xff];\nlet signing_key = SigningKey::from_bytes(&secret.into())?;\n```',
         secrets=('[0x5f, 0x80, 0x20, 0xe7, 0x54, 0x52, 0x71, 0xad, 0x6e, 0x63, 0xbd, 0xff, 0x65, 0xd1, 0x5a, 0x6a, 0x0f, 0x5a, 0xfb, 0xb0, 0xc8, 0x9a, 0xac, 0xa1, 0x33, 0xd5, 0x3a, 0xc1, 0x2d, 0xf9, 0x70, 0xff]',)),
    # Ed25519 PEM on one line with literal \n in a .env (Paseto signing key)
    Case(id='h10-076', category='private_key', container='env',
         text='APP_ENV=dev\nPASETO_SECRET_KEY="-----BEGIN PRIVATE KEY-----\\nMC4CAQAwBQYDK2VwBCIEIH+5WCi+Vm+LcEPOnXqgLbpLjf9FPRn5jkz7Iew7ismU\\n-----END PRIVATE KEY-----\\n"\nPASETO_ISSUER=kb-course\n',
         secrets=('MC4CAQAwBQYDK2VwBCIEIH+5WCi+Vm+LcEPOnXqgLbpLjf9FPRn5jkz7Iew7ismU',)),
    # Korean 비밀번호 label for a university portal
    Case(id='h10-077', category='password', container='note',
         text='학교 포털 (학생 계정)\n아이디: 2024123456\n비밀번호: fEU*cPVoZJ6\n학기마다 변경해야 함',
         secrets=('fEU*cPVoZJ6',)),
    # Russian YAML keys (логин/пароль) in a bot config
    Case(id='h10-078', category='password', container='yaml',
         text='сервер:\n  адрес: mail.example.ru\n  порт: 993\nучётная_запись:\n  логин: kursach-bot\n  пароль: "KfI$B0HmDqU5"\n',
         secrets=('KfI$B0HmDqU5',)),
    # Vietnamese mật khẩu in a Zalo chat export
    Case(id='h10-079', category='password', container='note',
         text='[10:02] Minh: wifi phòng học tầng 3 nè\n[10:02] Minh: tên: LAB-3F\n[10:03] Minh: mật khẩu: tAE#5WKD5\n[10:05] Tôi: cảm ơn nha',
         secrets=('tAE#5WKD5',)),
    # Portuguese senha for a course platform
    Case(id='h10-080', category='password', container='note',
         text='Plataforma do curso de mandarim\nusuário: ana.lima\nsenha: Hn6$xoBSX6\n(trocar depois da primeira aula)',
         secrets=('Hn6$xoBSX6',)),
    # Arabic كلمة المرور label
    Case(id='h10-081', category='password', container='note',
         text='حساب منصة التعلم\nاسم المستخدم: omar_k\nكلمة المرور: v7e!5hNFE3\nملاحظة: لا تشاركها',
         secrets=('v7e!5hNFE3',)),
    # Turkish şifre in a CSV of accounts exported from a spreadsheet
    Case(id='h10-082', category='password', container='txt',
         text='hizmet,kullanıcı adı,şifre,not\nokul e-posta,ayse.k,v1j&MSbld8,ilk dönem\nkütüphane,20231045,,kartla giriş\n',
         secrets=('v1j&MSbld8',)),
    # password stated before its label inside a Chinese sentence
    Case(id='h10-083', category='password', container='note',
         text='提醒自己：C2CJfWnq 就是路由器后台 192.168.31.1 的登录密码，别再点忘记密码了。',
         secrets=('C2CJfWnq',)),
    # 7z archive password glued to -p with header encryption
    Case(id='h10-084', category='password', container='note',
         text='备份毕业论文资料：\n7z a -t7z -mhe=on -plm6$KCLlFCm9 thesis_backup_2026.7z ./thesis/\n上传到网盘那份就是这个加密包。',
         secrets=('lm6$KCLlFCm9',)),
    # zip -P password in a backup shell script
    Case(id='h10-085', category='password', container='txt',
         text="#!/bin/bash\nDATE=$(date +%F)\ncd /home/lin/notes\nzip -r -P 'Jnn%Au9DX6' /mnt/usb/notes-$DATE.zip .\necho done\n",
         secrets=('Jnn%Au9DX6',)),
    # openssl enc -pass pass: on the command line
    Case(id='h10-086', category='password', container='note',
         text='加密成绩单再发给自己：\nopenssl enc -aes-256-cbc -pbkdf2 -salt -in grades.xlsx -out grades.enc -pass pass:CY2&cc838Heyu5\n解密：openssl enc -d -aes-256-cbc -pbkdf2 -in grades.enc -out grades.xlsx -pass pass:CY2&cc838Heyu5',
         secrets=('CY2&cc838Heyu5',)),
    # sshpass -p in a deploy snippet
    Case(id='h10-087', category='password', container='md',
         text="## 一键部署到实验室服务器\n\n```bash\nsshpass -p 'GS4$cLR4Z32' rsync -avz ./dist/ student@10.20.1.15:/var/www/html/\n```",
         secrets=('GS4$cLR4Z32',)),
    # nmcli dev wifi connect SSID password
    Case(id='h10-088', category='password', container='note',
         text='树莓派连手机热点：\nsudo nmcli dev wifi connect "Lin的iPhone" password "KoWeCY3UxC"\n成功后 ip a 看 wlan0 地址',
         secrets=('KoWeCY3UxC',)),
    # netsh wlan show profile key=clear output (Chinese Windows: 关键内容)
    Case(id='h10-089', category='password', container='note',
         text='C:\\> netsh wlan show profile name="ChinaNet-5G" key=clear\n\n安全设置\n-----------------\n    身份验证         : WPA2 - 个人\n    密码             : CCMP\n    安全密钥         : 存在\n    关键内容         : wJjnQiktD409\n\n费用设置\n-----------------',
         secrets=('wJjnQiktD409',)),
    # macOS security find-generic-password -wa output
    Case(id='h10-090', category='password', container='note',
         text='% security find-generic-password -wa "Campus-WiFi"\nCId5Rtbgc6pY\n% # 新电脑要连校园网，直接从钥匙串读出来',
         secrets=('CId5Rtbgc6pY',)),
    # expect script sending a password with send "...\r"
    Case(id='h10-091', category='password', container='txt',
         text='#!/usr/bin/expect -f\nset timeout 20\nspawn ssh root@192.168.56.101\nexpect "password:"\nsend "sRT&sFVvP1\\r"\nexpect "#"\nsend "systemctl restart nginx\\r"\nexpect eof\n',
         secrets=('sRT&sFVvP1',)),
    # user:password pairs piped to chpasswd for a class of accounts
    Case(id='h10-092', category='password', container='note',
         text="给实验课学生批量建账号：\necho 'stu01:3w0%BYfP8' | sudo chpasswd\necho 'stu02:Dzt$pnCj1' | sudo chpasswd",
         secrets=('3w0%BYfP8', 'Dzt$pnCj1')),
    # WordPress wp-config.php define('DB_PASSWORD', …)
    Case(id='h10-093', category='password', container='md',
         text="```php\n/** MySQL 设置 */\ndefine( 'DB_NAME', 'wp_blog' );\ndefine( 'DB_USER', 'wpuser' );\ndefine( 'DB_PASSWORD', 'cpe$HM2tgEYn8' );\ndefine( 'DB_HOST', 'localhost' );\n```",
         secrets=('cpe$HM2tgEYn8',)),
    # six-digit bank withdrawal PIN (取款密码) without any card number
    Case(id='h10-094', category='password', container='note',
         text='妈妈让我记一下：工行那张卡的取款密码 858169，网银登录密码跟它不一样。',
         secrets=('858169',)),
    # door keypad code (门禁密码) in a rental note
    Case(id='h10-095', category='password', container='note',
         text='新租的房子\n单元门门禁密码：1104#\n快递柜在一楼右手边，物业电话在群公告里',
         secrets=('1104#',)),
    # URL-encoded login form body copied from DevTools (view source)
    Case(id='h10-096', category='password', container='note',
         text='DevTools → Network → login → Payload → view source：\nusername=linxiao&password=jAR%40Wjtl49&captcha=7k2m&remember=on',
         secrets=('jAR%40Wjtl49',)),
    # password with Chinese characters as \u escapes in a JSON config saved as .txt (json.dumps default)
    Case(id='h10-097', category='password', container='txt',
         text='{\n  "db": {\n    "host": "127.0.0.1",\n    "user": "lin"\n  },\n  "password": "\\u6211\\u7231KtTO1y9790"\n}',
         secrets=('\\u6211\\u7231KtTO1y9790',)),
    # KeePass CSV export row
    Case(id='h10-098', category='password', container='txt',
         text='"Group","Title","Username","Password","URL","Notes"\n"学校","教务系统","2023011234","OYZ$j8vT2cV6","https://jwxt.example.edu.cn",""\n',
         secrets=('OYZ$j8vT2cV6',)),
    # password split across two chat messages
    Case(id='h10-099', category='password', container='note',
         text='QQ 聊天记录\n室友 22:31\n服务器密码是 iI2l\n室友 22:31\n后面还有 #GMgeP\n室友 22:32\n连起来输，别加空格',
         secrets=('iI2l', '#GMgeP')),
    # Rust env::var fallback literal for a database password
    Case(id='h10-100', category='password', container='md',
         text='```rust\nlet db_password = std::env::var("DB_PASSWORD")\n    .unwrap_or_else(|_| "Qcz!ntG1fU9".to_string());\n```\n本地调试时没设环境变量就用这个默认值。',
         secrets=('Qcz!ntG1fU9',)),
    # rclone.conf obscured (reversible) WebDAV pass
    Case(id='h10-101', category='password', container='txt',
         text='[nas]\ntype = webdav\nurl = https://cloud.lin-home.net/remote.php/dav/files/lin/\nvendor = nextcloud\nuser = lin\npass = aa-Dm6LtaK7u3zm-odudwreuMUgf77M9EGKJYpjso4q\n',
         secrets=('aa-Dm6LtaK7u3zm-odudwreuMUgf77M9EGKJYpjso4q',)),
    # x11vnc -passwd on the command line
    Case(id='h10-102', category='password', container='note',
         text='远程桌面（实验室机器）：\nx11vnc -display :0 -forever -shared -passwd BIcyzXYo -rfbport 5900',
         secrets=('BIcyzXYo',)),
    # CSV roster with an initial-password column (three rows)
    Case(id='h10-103', category='password', container='txt',
         text='学号,初始登录密码,首次登录后须修改\n2023964893,pQH!Wc2r9,是\n2023825564,SBm$0nLa9,是\n2023140424,4NV*9FFW6,是',
         secrets=('pQH!Wc2r9', 'SBm$0nLa9', '4NV*9FFW6')),
    # Korean resident registration number (주민등록번호) on an exchange-student form
    Case(id='h10-104', category='resident_id', container='note',
         text='교환학생 서류 준비\n성명: 김민지\n주민등록번호: 990112-1543386\n여권 사본 2부, 재학증명서 1부',
         secrets=('990112-1543386',)),
    # Spanish DNI (8 digits and check letter) in an enrolment email draft
    Case(id='h10-105', category='resident_id', container='note',
         text='Hola, adjunto mis datos para la matrícula del curso de chino:\nNombre: Lucía Martín\nDNI: 58064930G\nGracias.',
         secrets=('58064930G',)),
    # Russian SNILS number with its check digits
    Case(id='h10-106', category='resident_id', container='note',
         text='Документы для стипендии\nСНИЛС: 925-722-367 18\nИНН подать позже',
         secrets=('925-722-367 18',)),
    # Brazilian CPF in a CSV of language-exchange sign-ups
    Case(id='h10-107', category='resident_id', container='txt',
         text='nome,cidade,CPF,idioma\nPedro Alves,Campinas,492.351.941-05,mandarim\n',
         secrets=('492.351.941-05',)),
    # Japanese My Number (個人番号) in a part-time job note
    Case(id='h10-108', category='resident_id', container='note',
         text='バイト先に提出するもの\n・個人番号（マイナンバー）: 9952 1052 6309\n・銀行口座\n・扶養控除申告書',
         secrets=('9952 1052 6309',)),
    # Singapore NRIC in a hostel booking
    Case(id='h10-109', category='resident_id', container='note',
         text='NUS hostel booking — guest details\nName: Tan Wei Ling\nNRIC: T0956797B\nCheck-in: 2026-08-03',
         secrets=('T0956797B',)),
    # Indian Aadhaar number (Verhoeff check digit) in a scholarship checklist
    Case(id='h10-110', category='resident_id', container='note',
         text='CSC scholarship checklist\n- Aadhaar: 7735 5624 0167\n- 10th marksheet (scan)\n- HSK 4 certificate',
         secrets=('7735 5624 0167',)),
    # Polish PESEL in a dormitory application
    Case(id='h10-111', category='resident_id', container='note',
         text='Wniosek o akademik\nImię i nazwisko: Zofia Nowak\nPESEL: 03312297281\nKierunek: sinologia, rok 2',
         secrets=('03312297281',)),
    # Chinese student registration number (全国学籍号 = G + the ID number)
    Case(id='h10-112', category='resident_id', container='note',
         text='小升初材料\n学生姓名：王子涵\n全国学籍号：G370202201102038375\n户籍所在地：区教育局盖章页另附',
         secrets=('370202201102038375',)),
    # Chinese ID with every digit \u-escaped in a pasted form JSON
    Case(id='h10-113', category='resident_id', container='note',
         text='{\n  "name": "\\u5f20\\u4f1f",\n  "certType": "01",\n  "certNo": "\\u0032\\u0031\\u0030\\u0031\\u0030\\u0032\\u0031\\u0039\\u0037\\u0036\\u0030\\u0039\\u0030\\u0039\\u0037\\u0030\\u0034\\u0031",\n  "submitTime": "2026-10-11 09:30"\n}',
         secrets=('\\u0032\\u0031\\u0030\\u0031\\u0030\\u0032\\u0031\\u0039\\u0037\\u0036\\u0030\\u0039\\u0030\\u0039\\u0037\\u0030\\u0034\\u0031',)),
    # social security card OCR (社会保障号码 = the ID number)
    Case(id='h10-114', category='resident_id', container='note',
         text='社保卡（拍照识别）\n中华人民共和国\n社会保障卡\n姓名 刘洋\n社会保障号码 510107198803045728\n发卡日期 2019年09月',
         secrets=('510107198803045728',)),
    # base64 of a form JSON holding an ID number in a link's data= parameter
    Case(id='h10-115', category='resident_id', container='note',
         text='报名成功页面的链接（发给辅导员核对用）：\nhttps://forms.example.edu.cn/confirm?data=eyJuYW1lIjogIumZiOmdmSIsICJpZGNhcmQiOiAiNDIwMTExMTk4MDA2MjYxNzk3IiwgInBob25lX3ZlcmlmaWVkIjogdHJ1ZX0=',
         secrets=('eyJuYW1lIjogIumZiOmdmSIsICJpZGNhcmQiOiAiNDIwMTExMTk4MDA2MjYxNzk3IiwgInBob25lX3ZlcmlmaWVkIjogdHJ1ZX0=',)),
    # Korean RRN without its hyphen in a form-export JSON
    Case(id='h10-116', category='resident_id', container='json',
         text='{\n  "applicant": {\n    "name_kr": "박서준",\n    "rrn": "0302153278456",\n    "nationality": "KR"\n  },\n  "course": "HSK5"\n}',
         secrets=('0302153278456',)),
    # Korean mobile 010-xxxx-xxxx with 휴대폰 label
    Case(id='h10-117', category='mobile', container='note',
         text='어학연수 비상연락처\n본인 휴대폰: 010-0720-0798\n기숙사 사감실은 학교 홈페이지 참고',
         secrets=('010-0720-0798',)),
    # Russian mobile +7 (9xx) xxx-xx-xx
    Case(id='h10-118', category='mobile', container='note',
         text='Репетитор по китайскому — Ирина\nтел.: +7 (924) 000-14-93 (WhatsApp/Telegram)\nзанятия по средам',
         secrets=('+7 (924) 000-14-93',)),
    # Spanish mobile +34 6xx xx xx xx
    Case(id='h10-119', category='mobile', container='note',
         text='Intercambio de idiomas (chino–español)\nContacto: Javier, móvil +34 619 22 15 76\nQuedamos los jueves en la biblioteca.',
         secrets=('+34 619 22 15 76',)),
    # Chinese mobile with every digit \u-escaped in a saved API response
    Case(id='h10-120', category='mobile', container='txt',
         text='{\n  "code": 0,\n  "data": {\n    "nickname": "\\u5c0f\\u6797",\n    "mobile": "\\u0031\\u0033\\u0035\\u0030\\u0033\\u0038\\u0035\\u0038\\u0031\\u0030\\u0036",\n    "vip": false\n  }\n}',
         secrets=('\\u0031\\u0033\\u0035\\u0030\\u0033\\u0038\\u0035\\u0038\\u0031\\u0030\\u0036',)),
    # MECARD QR payload with TEL:
    Case(id='h10-121', category='mobile', container='note',
         text='二维码名片扫出来的内容：\nMECARD:N:Zhou,Yi;TEL:17107775087;EMAIL:;NOTE:课代表;;',
         secrets=('17107775087',)),
    # +86 mobile percent-encoded in a form URL
    Case(id='h10-122', category='mobile', container='note',
         text='报名链接带参数：https://wj.example.cn/s/abc123?name=%E6%9E%97%E5%B0%8F&tel=%2B86%2015103845503&grade=2',
         secrets=('%2B86%2015103845503',)),
    # number stated first, then 是我的新号, in a moments post draft
    Case(id='h10-123', category='mobile', container='note',
         text='15758761958 是我的新号，旧号下个月停机，微信同号，麻烦大家改一下备注～',
         secrets=('15758761958',)),
    # SMS Backup & Restore XML address attribute
    Case(id='h10-124', category='mobile', container='txt',
         text='<?xml version=\'1.0\' encoding=\'UTF-8\' standalone=\'yes\' ?>\n<smses count="1">\n  <sms protocol="0" address="+8613492609819" date="1731034211000" type="1" body="明天图书馆见" read="1" />\n</smses>\n',
         secrets=('+8613492609819',)),
    # Vietnamese mobile +84 9xx xxx xxx in a Zalo contact
    Case(id='h10-125', category='mobile', container='note',
         text='Bạn học tiếng Trung: Lan\nSĐT/Zalo: +84 930 269 587',
         secrets=('+84 930 269 587',)),
    # Indian mobile +91 9xxxx xxxxx
    Case(id='h10-126', category='mobile', container='note',
         text='Study group (Beijing Language and Culture University)\nRahul — +91 97024 27411 (WhatsApp)',
         secrets=('+91 97024 27411',)),
    # base64 of a mobile number in a cookie value
    Case(id='h10-127', category='mobile', container='note',
         text='抓包看到的 Cookie：lang=zh-CN; uphone=MTU5NjgwMDg5MzE=; theme=dark\n（uphone 解出来就是我的手机号）',
         secrets=('MTU5NjgwMDg5MzE=',)),
    # mobile as an iCalendar ATTENDEE/DESCRIPTION line
    Case(id='h10-128', category='mobile', container='md',
         text='```\nBEGIN:VEVENT\nSUMMARY:论文答辩彩排\nDTSTART:20261203T140000\nDESCRIPTION:联系人 孙老师助理 13988407687\nLOCATION:信息楼 B305\nEND:VEVENT\n```',
         secrets=('13988407687',)),
    # American Express 4-6-5 grouping with a Spanish label
    Case(id='h10-129', category='bank_card', container='note',
         text='Reserva del hostal en Pekín\nTarjeta: American Express\nnúmero de tarjeta: 3779 846968 11132\ncaducidad 09/29',
         secrets=('3779 846968 11132',)),
    # Russian Mir card (220x) with номер карты
    Case(id='h10-130', category='bank_card', container='note',
         text='Перевод за курсы HSK\nномер карты: 2201 6154 3737 0776\nполучатель: Анна С.',
         secrets=('2201 6154 3737 0776',)),
    # Korean BC card with 카드번호 label and dashes
    Case(id='h10-131', category='bank_card', container='note',
         text='학원비 자동이체 카드\n카드번호: 9410-7501-9453-2326\n유효기간: 11/28',
         secrets=('9410-7501-9453-2326',)),
    # Spanish IBAN (ES, mod-97) grouped in fours
    Case(id='h10-132', category='bank_card', container='note',
         text='Datos para la beca Confucio\nTitular: Lucía Martín\nIBAN: ES55 2100 2273 1666 3956 0179\nBIC: CAIXESBBXXX',
         secrets=('ES55 2100 2273 1666 3956 0179',)),
    # magnetic-stripe track 2 line (;PAN=YYMM...?) in a POS debug log
    Case(id='h10-133', category='bank_card', container='txt',
         text='[2026-11-03 14:22:07] READER: swipe detected\n[2026-11-03 14:22:07] TRACK2: ;6228156965506110722=33226846567465287?\n[2026-11-03 14:22:08] HOST: 00 APPROVED',
         secrets=('6228156965506110722=33226846567465287',)),
    # card number and CVC in a URL-encoded checkout form body
    Case(id='h10-134', category='bank_card', container='note',
         text='支付页面提交的表单（DevTools 里复制的）：\ncard_number=4735233015344527&exp_month=04&exp_year=2029&cvc=888&name=LIN+XIAO',
         secrets=('4735233015344527', '888')),
    # JCB card with Japanese カード番号 and 有効期限
    Case(id='h10-135', category='bank_card', container='note',
         text='留学用クレジットカード\nカード番号：3528 1383 7863 4542\n有効期限：07/30\n名義：LIN XIAO',
         secrets=('3528 1383 7863 4542',)),
    # base64 of a transfer JSON holding a debit card number
    Case(id='h10-136', category='bank_card', container='note',
         text='转账接口请求体（base64，作业里抓的包）：\neyJ0b0FjY291bnQiOiAiNjIxNzM3NjA4NTA3NDUxOTE2NyIsICJ0b05hbWUiOiAi5p6X5pmTIiwgImFtb3VudCI6ICIzMDAwLjAwIn0=',
         secrets=('eyJ0b0FjY291bnQiOiAiNjIxNzM3NjA4NTA3NDUxOTE2NyIsICJ0b05hbWUiOiAi5p6X5pmTIiwgImFtb3VudCI6ICIzMDAwLjAwIn0=',)),
    # card number first, its label after it in a chat
    Case(id='h10-137', category='bank_card', container='note',
         text='微信聊天记录\n我 20:41\n6236015813120114676\n我 20:41\n↑ 建行的，户名林晓，学费先转这张',
         secrets=('6236015813120114676',)),
    # UnionPay card as a Python int literal with underscores
    Case(id='h10-138', category='bank_card', container='py',
         text='# 银行卡 Luhn 校验作业：用自己的卡测了一下（交作业前删掉！）\ncard = 6275_1515_9055_6904\nprint(luhn(str(card)))\n',
         secrets=('6275_1515_9055_6904',)),
    # e-mail with its @ as \u0040 in a pasted JSON export
    Case(id='h10-139', category='email', container='note',
         text='{\n  "nickname": "Lin",\n  "contact": "ohhpgl029\\u0040qq.com",\n  "notify": true\n}',
         secrets=('ohhpgl029\\u0040qq.com',)),
    # git Signed-off-by trailer in a patch
    Case(id='h10-140', category='email', container='txt',
         text='From abb7dd2ae0b49f8856bd49c28c3f318e61a67028 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] docs: 修正第三章的例子\n\n修正 jieba 分词示例中的拼写错误。\n\nSigned-off-by: Zhou Lin <gkoue.ljgz@outlook.com>\n---\n docs/ch3.md | 2 +-\n',
         secrets=('gkoue.ljgz@outlook.com',)),
    # .npmrc with email= line
    Case(id='h10-141', category='email', container='txt',
         text='registry=https://registry.npmmirror.com/\nemail=gdxpwyv95@gmail.com\nalways-auth=false\n',
         secrets=('gdxpwyv95@gmail.com',)),
    # Dockerfile LABEL maintainer with a personal address
    Case(id='h10-142', category='email', container='md',
         text='```dockerfile\nFROM python:3.12-slim\nLABEL maintainer="Wang Lei <xwxm.yzbvjl@126.com>"\nWORKDIR /app\nCOPY . .\n```',
         secrets=('xwxm.yzbvjl@126.com',)),
    # Korean 이메일 label
    Case(id='h10-143', category='email', container='note',
         text='스터디 모임 연락처\n이름: 이수진\n이메일: yrsufg11@naver.com\n카톡 ID는 따로',
         secrets=('yrsufg11@naver.com',)),
    # Russian эл. почта label
    Case(id='h10-144', category='email', container='note',
         text='Научный руководитель попросил прислать черновик\nмоя эл. почта: ddyeet@yandex.ru',
         secrets=('ddyeet@yandex.ru',)),
    # Spanish arroba/punto spelled-out address
    Case(id='h10-145', category='email', container='note',
         text='Para el intercambio escríbeme a oqrvb punto wwtvyp arroba gmail punto com (sin espacios)',
         secrets=('oqrvb punto wwtvyp arroba gmail punto com',)),
    # iCalendar ORGANIZER and ATTENDEE mailto lines
    Case(id='h10-146', category='email', container='md',
         text='```\nBEGIN:VEVENT\nSUMMARY:组会\nORGANIZER;CN=李同学:mailto:kiccok986@163.com\nDTSTART:20261115T190000\nEND:VEVENT\n```',
         secrets=('kiccok986@163.com',)),
    # base64 of an address in an unsubscribe link
    Case(id='h10-147', category='email', container='note',
         text='退订链接：https://edm.example.cn/unsubscribe?u=bHBjd3RqbmpAMTM5LmNvbQ==&list=weekly',
         secrets=('bHBjd3RqbmpAMTM5LmNvbQ==',)),
    # Korean passport number with 여권번호 label
    Case(id='h10-148', category='passport', container='note',
         text='중국 비자 신청서\n영문 성명: KIM MINJI\n여권번호: M13313118\n만료일: 2031.05.20',
         secrets=('M13313118',)),
    # Russian international passport (загранпаспорт) series and number
    Case(id='h10-149', category='passport', container='note',
         text='Данные для визы в Китай\nзагранпаспорт: 70 1004841\nвыдан МВД 1234, действителен до 2034',
         secrets=('70 1004841',)),
    # Spanish passport number with pasaporte label
    Case(id='h10-150', category='passport', container='note',
         text='Vuelo Madrid–Pekín\npasaporte: PAO469650\nasiento 32A',
         secrets=('PAO469650',)),
    # 台湾居民来往大陆通行证 (台胞证) eight-digit number
    Case(id='h10-151', category='passport', container='note',
         text='大陆交换学期报到材料\n姓名：陳怡君\n台胞證號碼：81316979\n學生證影本一份',
         secrets=('81316979',)),
    # Indian passport (letter + 7 digits) in a visa form draft
    Case(id='h10-152', category='passport', container='note',
         text='X1 visa form (draft)\nSurname: SHARMA\nPassport No.: P4302910\nPlace of issue: New Delhi',
         secrets=('P4302910',)),
    # Chinese passport number in a URL-encoded booking form body
    Case(id='h10-153', category='passport', container='note',
         text='订票表单（Form Data）：\nsurname=LIN&given=XIAO&docType=P&docNo=EL0603564&nationality=CN&expiry=2033-06-30',
         secrets=('EL0603564',)),
    # hotel check-in JSON with passport under a Korean key
    Case(id='h10-154', category='passport', container='json',
         text='{\n  "투숙객": "LIN XIAO",\n  "국적": "CHN",\n  "여권번호": "EN4135085",\n  "체크인": "2026-12-24"\n}',
         secrets=('EN4135085',)),
    # UK passport nine digits in an eVisa note
    Case(id='h10-155', category='passport', container='note',
         text='Invitation letter for my host mother (Ms. Clark) — her details\nPassport number: 352181662\nIssued: 2022, valid 10 years',
         secrets=('352181662',)),
    # passport number written before its label in a Chinese sentence
    Case(id='h10-156', category='passport', container='note',
         text='EC2635342 这串是我的护照号，下次填签证表直接复制，别再翻抽屉了。',
         secrets=('EC2635342',)),
    # Korean road-name address with apartment 동/호
    Case(id='h10-157', category='address', container='note',
         text='택배 받는 주소 (하숙집)\n서울특별시 마포구 월드컵북로6길 15, 115동 2203호\n받는 사람: 린샤오',
         secrets=('월드컵북로6길 15, 115동 2203호',)),
    # Russian street/house/building/flat address
    Case(id='h10-158', category='address', container='note',
         text='Адрес для посылки с книгами\nг. Москва, ул. Профсоюзная, д. 97, корп. 4, кв. 44\nполучатель: Лин Сяо',
         secrets=('ул. Профсоюзная, д. 97, корп. 4, кв. 44',)),
    # Spanish street address with floor and door (3º B)
    Case(id='h10-159', category='address', container='note',
         text='Dirección del piso compartido\nCalle de Alcalá 368, 2º A, 28028 Madrid\nportero: pulsar el timbre del piso',
         secrets=('Calle de Alcalá 368, 2º A',)),
    # Hong Kong public housing estate (邨/樓/室)
    Case(id='h10-160', category='address', container='note',
         text='交換生寄宿家庭地址\n九龍觀塘秀茂坪邨秀明樓27樓1815室\n電話打樓下管理處',
         secrets=('秀茂坪邨秀明樓27樓1815室',)),
    # Beijing residential 号楼/门/号 address
    Case(id='h10-161', category='address', container='note',
         text='家教地址：北京市海淀区花园路小区7号楼6门301号\n周六上午 9 点，进门左手边单元',
         secrets=('花园路小区7号楼6门301号',)),
    # Guangzhou 座/房 address
    Case(id='h10-162', category='address', container='note',
         text='快递改地址：广州市天河区天河北路侨林苑C座2708房（收件人 林晓）',
         secrets=('天河北路侨林苑C座2708房',)),
    # vCard ADR;TYPE=HOME with an escaped comma
    Case(id='h10-163', category='address', container='md',
         text='```\nBEGIN:VCARD\nVERSION:3.0\nFN:Lin Xiao\nADR;TYPE=HOME:;;22 Lane 1486 Zhangyang Rd\\, Apt 2006;Shanghai;;200122;China\nEND:VCARD\n```',
         secrets=('22 Lane 1486 Zhangyang Rd\\, Apt 2006',)),
    # home GPS coordinates (five decimals) in a map link
    Case(id='h10-164', category='address', container='note',
         text='我家楼下的位置，网约车老是停错：https://uri.amap.com/marker?position=116.90453,39.45245&name=家\n（谷歌坐标 39.45245,116.90453）',
         secrets=('116.90453,39.45245', '39.45245,116.90453')),
    # Taiwan address with 樓之N
    Case(id='h10-165', category='address', container='note',
         text='寄書地址：新北市板橋區文化路一段312號19樓之4，陳怡君收',
         secrets=('文化路一段312號19樓之4',)),
    # road-down part of an address percent-encoded in a delivery query string
    Case(id='h10-166', category='address', container='note',
         text='外卖订单链接：https://h5.example.cn/order/confirm?city=%E5%8C%97%E4%BA%AC&district=%E6%9C%9D%E9%98%B3&detail=%E6%9C%9B%E4%BA%AC%E8%A5%BF%E8%B7%AF59%E5%8F%B7%E9%99%A21%E5%8F%B7%E6%A5%BC3%E5%8D%95%E5%85%831103&tip=0',
         secrets=('%E6%9C%9B%E4%BA%AC%E8%A5%BF%E8%B7%AF59%E5%8F%B7%E9%99%A21%E5%8F%B7%E6%A5%BC3%E5%8D%95%E5%85%831103',)),
    # Chinese address written in pinyin English (Rm/Bldg/Community/Rd)
    Case(id='h10-167', category='address', container='note',
         text='Shipping address for the textbook order:\nRm 705, Bldg 2, Jiayuan Community, No. 16 Xueyuan Rd, Haidian District, Beijing 100083',
         secrets=('Rm 705, Bldg 2, Jiayuan Community, No. 16 Xueyuan Rd',)),
    # ~/.google_authenticator file (PAM): seed line then scratch codes
    Case(id='h10-168', category='otp_secret', container='txt',
         text='DEXDK4SE4P6ANMIGIOESAFWB5L\n" RATE_LIMIT 3 30\n" WINDOW_SIZE 3\n" DISALLOW_REUSE\n" TOTP_AUTH\n31731700\n16669423\n21741187\n35984209\n59368034\n',
         secrets=('DEXDK4SE4P6ANMIGIOESAFWB5L', '31731700', '16669423', '21741187', '35984209', '59368034')),
    # Bitwarden JSON export item with a bare base32 login.totp
    Case(id='h10-169', category='otp_secret', container='json',
         text='{\n  "items": [\n    {\n      "type": 1,\n      "name": "教务系统",\n      "login": {\n        "username": "2023011234",\n        "password": null,\n        "totp": "KXK6PFW6YPRC5MZYCTJX67LMZDDURYTF",\n        "uris": [\n          {\n            "uri": "https://jwxt.example.edu.cn"\n          }\n        ]\n      }\n    }\n  ]\n}',
         secrets=('KXK6PFW6YPRC5MZYCTJX67LMZDDURYTF',)),
    # 2FAS backup JSON service secret
    Case(id='h10-170', category='otp_secret', container='json',
         text='{\n  "services": [\n    {\n      "name": "Gitee",\n      "secret": "CQWCRO45UYH67DJLNFBXZN3KN4DHXZN3",\n      "otp": {\n        "digits": 6,\n        "period": 30,\n        "algorithm": "SHA1",\n        "account": "lin"\n      },\n      "order": {\n        "position": 0\n      }\n    }\n  ],\n  "schemaVersion": 4,\n  "appVersionCode": 5000012\n}',
         secrets=('CQWCRO45UYH67DJLNFBXZN3KN4DHXZN3',)),
    # ykman oath accounts add with a positional secret
    Case(id='h10-171', category='otp_secret', container='note',
         text='把校园 VPN 的两步验证搬到 YubiKey：\nykman oath accounts add -o TOTP -i "VPN" "campus-vpn:lin" RLAGH37QJI772MXTZIOVKC4UXRLN6FI6\nykman oath accounts code VPN',
         secrets=('RLAGH37QJI772MXTZIOVKC4UXRLN6FI6',)),
    # otplib authenticator.generate with a literal secret
    Case(id='h10-172', category='otp_secret', container='md',
         text="```js\nimport { authenticator } from 'otplib';\nconst token = authenticator.generate('JZCEBMI2MGT5IAS2');\nconsole.log(token);\n```\n调试 2FA 登录时临时写死的。",
         secrets=('JZCEBMI2MGT5IAS2',)),
    # KeePassXC TOTP settings with Korean labels
    Case(id='h10-173', category='otp_secret', container='note',
         text='KeePassXC → TOTP 설정\n비밀 키: FK76R3LOTNWXWRWX7USOWOXWZ26FQXLA\n알고리즘: SHA-1, 자릿수 6, 주기 30초',
         secrets=('FK76R3LOTNWXWRWX7USOWOXWZ26FQXLA',)),
    # GitHub two-factor recovery codes file (16 codes)
    Case(id='h10-174', category='otp_secret', container='txt',
         text='fd251-95455\n721b9-7f202\n501ad-69d2c\n5a3fc-f216f\nac590-af633\n03dc8-1fda1\ndb9d8-0adfe\n1343b-14970\nf3528-98947\n47075-621bb\n7eb41-76437\nde0ce-c0360\nd37ed-a2485\n29ec4-111b5\na5e8c-5732d\n79153-2992e\n',
         secrets=('fd251-95455', '721b9-7f202', '501ad-69d2c', '5a3fc-f216f', 'ac590-af633', '03dc8-1fda1', 'db9d8-0adfe', '1343b-14970', 'f3528-98947', '47075-621bb', '7eb41-76437', 'de0ce-c0360', 'd37ed-a2485', '29ec4-111b5', 'a5e8c-5732d', '79153-2992e')),
    # Google 'clave de configuración' in Spanish, upper-case groups of four
    Case(id='h10-175', category='otp_secret', container='note',
         text='Configurar Authenticator sin QR\nCuenta: lin.xiao\nclave de configuración: P5OD FKQB D5JI NZOW VLHI YLKU 2FIR MDDD\nBasada en el tiempo',
         secrets=('P5OD FKQB D5JI NZOW VLHI YLKU 2FIR MDDD',)),
    # ykpersonalize OATH-HOTP slot with a 40-hex secret
    Case(id='h10-176', category='otp_secret', container='note',
         text='ykpersonalize -2 -o oath-hotp -o append-cr -a 1c9403cc2ebeda8d74d4d4ba1af9fdb060071bd9\n# 槽位 2：HOTP，给实验室 OpenVPN 用',
         secrets=('1c9403cc2ebeda8d74d4d4ba1af9fdb060071bd9',)),
    # Korean BIP39 twelve words (복구 문구)
    Case(id='h10-177', category='recovery_phrase', container='note',
         text='지갑 복구 문구 (연습용 지갑)\n역할 분명 과목 입대 실체 음성 데이트 나침반 창가 변화 상표 코끼리\n종이에도 적어둠',
         secrets=('역할 분명 과목 입대 실체 음성 데이트 나침반 창가 변화 상표 코끼리',)),
    # Spanish BIP39 24 words (frase de recuperación)
    Case(id='h10-178', category='recovery_phrase', container='note',
         text='frase de recuperación — MetaMask del curso de blockchain\nárbol idioma trauma copa apuesta huir misil bobina olor bobo rumbo baba lustro mimo amable crudo primo rulo taza aula torero pilar tender volver',
         secrets=('árbol idioma trauma copa apuesta huir misil bobina olor bobo rumbo baba lustro mimo amable crudo primo rulo taza aula torero pilar tender volver',)),
    # French BIP39 twelve words in a chat export
    Case(id='h10-179', category='recovery_phrase', container='note',
         text='[21:03] Camille: voilà la phrase secrète du portefeuille de test\n[21:03] Camille: lampe service réagir garrigue couvrir majorer étoile durable gibier abrupt pieuvre imputer\n[21:04] Moi: merci',
         secrets=('lampe service réagir garrigue couvrir majorer étoile durable gibier abrupt pieuvre imputer',)),
    # Italian BIP39 numbered list
    Case(id='h10-180', category='recovery_phrase', container='md',
         text='## Portafoglio (esercitazione)\n\n1. argento\n2. intasato\n3. peggio\n4. cellulare\n5. truccato\n6. lode\n7. importo\n8. pace\n9. smottato\n10. padrone\n11. giurato\n12. serio',
         secrets=('argento', 'intasato', 'peggio', 'cellulare', 'truccato', 'lode', 'importo', 'pace', 'smottato', 'padrone', 'giurato', 'serio')),
    # Czech BIP39 as a CSV index,word
    Case(id='h10-181', category='recovery_phrase', container='txt',
         text='poradi,slovo\n1,doslov\n2,soulad\n3,stodola\n4,stolek\n5,vzpoura\n6,skvost\n7,plamen\n8,kurt\n9,revize\n10,horstvo\n11,dutost\n12,nicota\n',
         secrets=('doslov', 'soulad', 'stodola', 'stolek', 'vzpoura', 'skvost', 'plamen', 'kurt', 'revize', 'horstvo', 'dutost', 'nicota')),
    # Portuguese BIP39 phrase in a wallet-backup JSON string
    Case(id='h10-182', category='recovery_phrase', container='json',
         text='{\n  "wallet": "carteira-teste",\n  "mnemonic": "elevador guru epiderme merecer fada ossada ineficaz moer coifa doutor chacota atarefar",\n  "derivationPath": "m/44\'/60\'/0\'/0/0"\n}',
         secrets=('elevador guru epiderme merecer fada ossada ineficaz moer coifa doutor chacota atarefar',)),
    # BIP39 entropy as hex passed to to_mnemonic
    Case(id='h10-183', category='recovery_phrase', container='py',
         text='from mnemonic import Mnemonic\n\n# 助记词不想明文存，存熵（16 字节），用的时候再转\nwords = Mnemonic("english").to_mnemonic(bytes.fromhex("1b3bdfc49d72a8fc6ad925df5b5e8320"))\n',
         secrets=('1b3bdfc49d72a8fc6ad925df5b5e8320',)),
    # English phrase base64-encoded in an env variable
    Case(id='h10-184', category='recovery_phrase', container='env',
         text='NETWORK=sepolia\nWALLET_MNEMONIC_B64=dG9iYWNjbyBmcmluZ2UgYnVsbGV0IHNwaW4gYWR2aWNlIHJhaWwgZXhlY3V0ZSB0d28gZWFnZXIgbWVyY3kgdHJhZGUgc3BvdA==\nRPC_URL=https://rpc.sepolia.org\n',
         secrets=('dG9iYWNjbyBmcmluZ2UgYnVsbGV0IHNwaW4gYWR2aWNlIHJhaWwgZXhlY3V0ZSB0d28gZWFnZXIgbWVyY3kgdHJhZGUgc3BvdA==',)),
    # Simplified Chinese BIP39 twelve characters written without spaces
    Case(id='h10-185', category='recovery_phrase', container='note',
         text='imToken 助记词（测试钱包）：辟跑滩码么较忧走显火松纸\n抄在本子第一页了',
         secrets=('辟跑滩码么较忧走显火松纸',)),
    # first four letters of each word, as stamped on a steel backup plate (OCR)
    Case(id='h10-186', category='recovery_phrase', container='note',
         text='钢板备份拍照识别：\n01 BUBB  02 THEO  03 CURT  04 IMPA  05 BONE  06 BIKE\n07 CALL  08 GAME  09 DOUB  10 CART  11 ARTI  12 ACTU\n（BIP39 每个词前四个字母就够了）',
         secrets=('01 BUBB  02 THEO  03 CURT  04 IMPA  05 BONE  06 BIKE', '07 CALL  08 GAME  09 DOUB  10 CART  11 ARTI  12 ACTU')),
    # Korean plate with 차량번호 label
    Case(id='h10-187', category='licence_plate', container='note',
         text='주차 등록 신청\n차량번호: 210거 9345\n차종: 아반떼 (흰색)',
         secrets=('210거 9345',)),
    # Russian plate (Cyrillic letters and region code)
    Case(id='h10-188', category='licence_plate', container='note',
         text='Пропуск на парковку общежития\nгосномер: Н821ММ197\nмарка: Lada Vesta',
         secrets=('Н821ММ197',)),
    # Spanish plate 1234 BCD with matrícula label
    Case(id='h10-189', category='licence_plate', container='note',
         text='Aparcamiento de la residencia\nmatrícula: 0847 GJN\nSeat Ibiza gris',
         secrets=('0847 GJN',)),
    # Hong Kong plate with 車牌 label
    Case(id='h10-190', category='licence_plate', container='note',
         text='屋苑車位登記\n車牌：KF 8611\n車主：陳生（1203 室）',
         secrets=('KF 8611',)),
    # Macau plate MX-12-34
    Case(id='h10-191', category='licence_plate', container='note',
         text='澳門大學停車證申請\n車牌號碼：ME-67-89',
         secrets=('ME-67-89',)),
    # Chinese plate percent-encoded in a parking-payment link
    Case(id='h10-192', category='licence_plate', container='note',
         text='停车缴费链接：https://pay.example.cn/park?lot=1024&plate=%E7%B2%A4B6TFYA&t=1731050000',
         secrets=('%E7%B2%A4B6TFYA',)),
    # Chinese plate with its province character \u-escaped in a pasted JSON
    Case(id='h10-193', category='licence_plate', container='note',
         text='{\n  "orderId": "P20261108001",\n  "plateNo": "\\u4eacNEARKA",\n  "hours": 3\n}',
         secrets=('\\u4eacNEARKA',)),
    # Guangdong–Hong Kong cross-border plate (粤Z…港)
    Case(id='h10-194', category='licence_plate', container='note',
         text='舅舅的两地牌车：粤Z·VMPV港，周五从深圳湾口岸过来接我',
         secrets=('粤Z·VMPV港',)),
]
