"""Held-out batch 16: secrets and personal data in shapes the gate was not designed around.

Written in session 17 by an engineer (gwriter) who had read DESIGN.md, the README's privacy
paragraph, the corpus format (``__init__``, bench_gate.py's docstring) and only the docstrings of the
earlier batches (heldout to heldout14, negatives to negatives13), never the detectors, the earlier
batches' cases nor the gate's tests; the gate was not run on it while it was written (sealed in
/root/lead17/gate; measured there, released in session 18). 181 cases:
api_key 40, auth_header 12, connection_string 12, private_key 10, password 25, resident_id 12, mobile 10, bank_card 10, email 8, passport 8, address 9, otp_secret 8, recovery_phrase 9, licence_plate 8.
Values generated for the corpus (gen16.py with gen16_util.py, seed 1616, kept outside the repository): keys random
in each provider's shape (2024-2026 services among them, many without a well-known prefix), private
keys real but built from the seed and thrown away (RSA from seeded primes, EC P-256/P-384 from seeded
scalars, Ed25519 from seeded bytes; a Sui bech32 key, a Stellar strkey seed with its CRC16 and an
Ethereum key derived by BIP32 from its generated phrase), ID, card and account numbers built to pass
their checksums where the format has one (CN GB 11643, Slovenian EMSO mod-11, Ukrainian RNOKPP,
Uruguayan cedula, Saudi ID and Emirates ID Luhn, Iranian national code mod-11, Hungarian TAJ, card
Luhn, IBAN mod-97 for UA/IT/KZ), BIP39 phrases with valid checksums (English, Spanish, Japanese,
Korean, Traditional Chinese, Russian; the CompactSeedQR bits are a valid phrase's entropy); none
belongs to anyone. Addresses are labelled from the road, estate or building down (city and district
left, as the gate's design says). Encoded secrets (PowerShell -EncodedCommand, Ascii85, Base85,
URL-safe base64, percent-escaped, quoted-printable, Persian and Bengali digits, mixed Chinese digits)
are labelled as they appear in the text; a private key is labelled line by line (its body lines,
without the diff +, timestamps, colour codes or indentation around them), a hexdump by its hex
columns, a split key or ID part by part, an e-mail split across spreadsheet columns by its local part,
the acrostic phrase word by word (each occurs once in its text). mnemonic 0.21 (for the BIP39 wordlists)
is installed by pip into /root/lead17/gate/.pkgs.

Shapes, one per case (category: shape):
api_key: Kling AI (可灵) access key / secret key pair signing a JWT in a Python snippet (only the SK is secret)
api_key: Runway API secret (key_ + 128 hex) passed to the RunwayML TypeScript client
api_key: Ideogram API key (86 URL-safe base64 characters, no prefix) in a Deno script's Api-Key header
api_key: Black Forest Labs (FLUX) key, a bare UUID, in a ComfyUI custom node's config.ini
api_key: fal.ai key (uuid:hex) in a docker-compose YAML anchor merged into two services
api_key: Hyperbolic API key (a JWT) exported in a zsh extended-history file
api_key: Novita AI key (sk_ + 43 URL-safe characters) in a Chinese Markdown setup note
api_key: DeepInfra token inside an error output's ANSI-coloured traceback in a Jupyter notebook (the cell source itself is clean)
api_key: Lambda Cloud API key given as curl -u KEY: (empty password) in a GPU-rental note
api_key: Mixedbread key (mxb_ + 40 alphanumerics) in a Rust reqwest bearer_auth call
api_key: Exa search key (a UUID) in a claude_desktop_config.json MCP server env block
api_key: Browserbase key (bb_live_…) passed as a command-line argument in a Cursor .cursor/mcp.json
api_key: E2B key (e2b_ + 40 hex) in a Sandbox(api_key=…) line of a notebook cell's source list
api_key: Amazon Bedrock long-term API key (ABSK + base64) set with cmd `set` in a Windows transcript
api_key: Infisical machine-identity client secret (64 hex) beside its client id in a Nomad job env block
api_key: 1Password service-account token (ops_ + base64 JSON) in a PowerShell profile
api_key: Bitwarden Secrets Manager access token (0.<uuid>.<secret>:<key>) exported in a justfile
api_key: ZeroTier Central API token rotated in a git diff (the removed and the added line both hold a live token)
api_key: NextDNS API key inside a PowerShell -EncodedCommand blob (base64 of UTF-16LE) in a scheduled-task note
api_key: Gotify application token (A + 14 characters) in a query string of a Synology Task Scheduler script
api_key: Last.fm API secret (32 hex) beside its API key in a pylast script with Chinese comments
api_key: Syncthing REST API key in config.xml <gui><apikey>
api_key: Portainer API key (ptr_…) stored URL-safe-base64-encoded in a ConfigMap annotation
api_key: Sourcegraph access token (sgp_ + 40 hex) in a Nushell config.nu
api_key: PostHog personal API key (phx_…) beside the public project key (phc_…) in a Next.js .env.local
api_key: Loops key printed in a Node.js crash output (uncaught error object dumping the client config)
api_key: Coda API token (a UUID) stored with macOS `security add-generic-password -w`
api_key: Baserow database token in a Sentry event's frame vars (the header was filtered, the local variable was not)
api_key: PPIO (派欧云) key inside the doubly-JSON-encoded localStorage of a Cherry Studio backup
api_key: AIHubMix relay key (sk- + 48) in an Immersive Translate (沉浸式翻译) settings export
api_key: Wasabi access/secret key inside an rclone on-the-fly remote string (:s3,…:) on the command line
api_key: Cartesia key (sk_car_…) in `env | grep` output hard-wrapped at 40 columns by a narrow tmux pane
api_key: Anthropic Admin API key (sk-ant-admin01-…) kept as Ascii85 (<~…~>) in a dotfiles note
api_key: TomTom Maps key in a HAR entry, in both the request URL and its queryString array
api_key: Vapi private key (a UUID) beside the public key in a Notion database exported as TSV
api_key: OpenAI admin key (sk-admin-…) echoed in an ANSI-coloured uvicorn debug log line
api_key: Gemini key concatenated from three adjacent string literals with no operator inside a call
api_key: Codestral (codestral.mistral.ai) key in a Continue.dev config.yaml models list
api_key: Weaviate Cloud admin API key (no prefix) inside a Go client config struct printed with %+v in a log
api_key: Hugging Face token inside a setup QR payload decoded with zbarimg (JSON in a QR-Code: line)
auth_header: Proxmox VE API token in an `Authorization: PVEAPIToken=user@realm!id=<uuid>` header
auth_header: Immich API key in an x-api-key header inside a shell alias in .zshrc
auth_header: lower-case HTTP/2 request headers from Firefox 'Copy Request Headers' with a bearer JWT
auth_header: session cookie and X-Auth-Token in an ANSI-coloured `mitmdump -v` flow dump
auth_header: AWS SigV4 Authorization header with its X-Amz-Security-Token (STS session token) in a debugging note
auth_header: bearer token added upstream by a Caddyfile reverse_proxy header_up line
auth_header: logged-in session cookie in a k6 load-test script's params.cookies
auth_header: Socket.IO handshake frame with an auth token copied from DevTools' WebSocket Messages pane
auth_header: Playwright storageState.json with a session cookie and an access token in localStorage
auth_header: Authorization header in a Hurl test file (.hurl)
auth_header: Pinduoduo (拼多多) PDDAccessToken cookie in a price-tracking script
auth_header: Quark Drive (夸克网盘) __pus/__puus cookie string in an auto-save task YAML
connection_string: Milvus client token given as 'user:password'
connection_string: IBM Db2 CLI connection string with PWD= in an ibm_db snippet's log
connection_string: SAP HANA hdbsql -u SYSTEM -p in an ERP course lab note
connection_string: dbt profiles.yml for Trino with method: ldap and a password field
connection_string: Flink SQL CDC table DDL with 'password' = '…' in its WITH options
connection_string: DataX job JSON with a MySQL reader's username/password parameters
connection_string: Airflow connection as an AIRFLOW_CONN_* URI with a percent-encoded password
connection_string: RocketMQ 4.x plain_acl.yml account secretKey
connection_string: Spring Cloud Alibaba bootstrap.yml with Nacos username/password
connection_string: drizzle.config.ts dbCredentials object with host/user/password
connection_string: EdgeDB / Gel DSN (edgedb://user:password@host:5656/branch) in a .env
connection_string: kcat -X sasl.username/sasl.password flags to a hosted Kafka cluster
private_key: RSA PKCS#1 DER key as Base85 (RFC 1924 alphabet) decoded with base64.b85decode
private_key: EC P-384 PKCS#8 key added in a git diff (each line prefixed with +)
private_key: Web Push VAPID private key (raw P-256 scalar, URL-safe base64) beside its public key
private_key: EC (SEC1) key in a YAML anchor block scalar reused by alias in two Helm values entries
private_key: PKCS#8 RSA key in a HAR response body (JSON inside a JSON string, CRLF escaped)
private_key: `hexdump -C` of a DER Ed25519 PKCS#8 key (the seed in the hex columns)
private_key: Sui private key in bech32 (suiprivkey1…) from `sui keytool export`
private_key: Stellar secret seed (S…, 56 base32 characters with CRC16) in a Markdown checklist
private_key: PKCS#8 EC key logged line by line with ANSI colour codes and timestamps by a misconfigured service
private_key: Aptos CLI .aptos/config.yaml private_key in the AIP-80 form (ed25519-priv-0x…)
password: Georgian პაროლი label for a library account
password: Armenian գաղտնաբառ label for a dormitory Wi-Fi
password: Amharic የይለፍ ቃል label in a Telegram chat export
password: Sinhala මුරපදය label in a Markdown study-abroad checklist
password: Burmese စကားဝှက် label in a family note
password: Bengali পাসওয়ার্ড label in a WhatsApp export
password: Latvian 'parole' label in a Riga exchange note
password: Slovenian 'geslo' label in a Ljubljana course note
password: Icelandic 'lykilorð' label for a Reykjavík flat's router
password: Welsh 'cyfrinair' label in a Welsh-class note
password: Basque 'pasahitza' label in a Donostia exchange note
password: English prose: 'the wifi code is …' in a house-sitting note with no label or separator
password: admin password changed in a git diff of a JSON config (removed and added value both secrets)
password: SMTP password in an ANSI-coloured startup config dump of a Go service
password: password shown in a rich traceback's locals panel (box-drawing characters around it)
password: database admin password in `terraform plan` output (attribute not marked sensitive)
password: local-admin password inside a PowerShell -EncodedCommand blob in a lab setup note
password: `wpa_passphrase` output: the plaintext in the #psk comment and the derived 64-hex psk
password: password typed into a phone with `adb shell input text`
password: AutoHotkey v2 hotstring that types a password
password: Bitwarden master password given to `bw unlock` in bash history
password: database password in a YAML anchor merged into three environments (<<: *db)
password: password baked into an image with `docker build --build-arg`
password: router admin password in a GET login URL kept in a browser-history CSV export
password: smart-lock temporary password ending with # in a B&B (民宿) check-in message
resident_id: Slovenian EMŠO (13 digits, mod-11 check) in a Ljubljana enrolment note
resident_id: Ukrainian taxpayer number РНОКПП (10 digits, weighted check) in a Ukrainian form draft
resident_id: Peruvian DNI (8 digits) with 'DNI N°' in a Lima homestay note
resident_id: Uruguayan cédula (x.xxx.xxx-d, check digit valid) in a Montevideo note
resident_id: Vietnamese citizen ID (CCCD, 12 digits: province, century/sex, year, serial) in a Zalo export
resident_id: Saudi national ID (10 digits starting with 1, Luhn) with the Arabic label رقم الهوية
resident_id: UAE Emirates ID (784-YYYY-NNNNNNN-C, Luhn) in a Dubai internship note
resident_id: Japanese residence card number (在留カード番号, 2 letters + 8 digits + 2 letters)
resident_id: Iranian national code (کد ملی, 10 digits, mod-11) in a Persian note
resident_id: Hungarian TAJ number (9 digits, 3-7 weighted check) with 'TAJ-szám' in a Budapest note
resident_id: Chinese ID under a pinyin-initial key (sfzh) in a decoded health-code QR payload
resident_id: Chinese ID split across two CSV columns (region code | remaining 12 characters)
mobile: Nepali mobile +977 98… with the Devanagari label मोबाइल
mobile: Ethiopian mobile +251 9x with the Amharic label ስልክ
mobile: Ghanaian MTN MoMo number in a WhatsApp export about splitting a bill
mobile: Moroccan mobile +212 6xx with French and Arabic labels
mobile: Iranian mobile written in Extended Arabic-Indic (Persian) digits with موبایل
mobile: Mongolian mobile +976 with the Cyrillic label утас
mobile: Uzbek mobile +998 with 'telefon raqami'
mobile: Romanian mobile 07xx xxx xxx with 'mobil'
mobile: Chinese mobile with Arabic and Chinese digits mixed (every third digit a 汉字)
mobile: Chinese mobile with a leading tab and ="…" guard in an online-shop order CSV export
bank_card: UK-range Maestro card (19 digits) with the Dutch label 'pasnummer'
bank_card: Diners Club card (14 digits, 4-6-4) with the Croatian label 'broj kartice'
bank_card: UzCard (8600…) with the Uzbek label 'karta raqami'
bank_card: Nigerian Verve card (5061…, 19 digits) in a WhatsApp export
bank_card: Saudi mada debit card with the Arabic label رقم البطاقة
bank_card: PAN in field 2 of a jPOS ISO 8583 message dump from a payment-switch course lab
bank_card: card number in a decrypted Google Pay token (paymentMethodDetails.pan)
bank_card: Ukrainian IBAN (UA, 29 characters) with 'рахунок IBAN'
bank_card: Italian IBAN with its CIN letter, grouped in fours, for a rent transfer ('affitto')
bank_card: Kazakh IBAN (KZ, 20 characters) with the label ИИК
email: personal address in a Debian changelog trailer line
email: address percent-encoded as an OAuth login_hint in a copied sign-in URL
email: address in an ANSI-coloured failed-login log line
email: internationalised e-mail address (Chinese local part @ a Chinese IDN domain)
email: address in a Firebase Auth users export (auth:export JSON)
email: address split into two spreadsheet columns (local part | domain) in a CSV export
email: personal address as the Bcc argument (-b) of a mailx command line
email: address with the @ quoted-printable-encoded (=40) in a vCard 2.1
passport: Nepali passport number with the label राहदानी नं.
passport: Iranian passport number with the Persian label شماره گذرنامه
passport: Uzbek biometric passport (FA + 7 digits) with 'pasport raqami'
passport: Mongolian passport (E + 7 digits) with the Cyrillic label гадаад паспорт
passport: Ethiopian passport (EP + 7 digits) in a Markdown conference-travel checklist
passport: Swedish passport number (8 digits) with 'passnummer'
passport: Portuguese passport (letter + 6 digits) with 'n.º do passaporte'
passport: Chinese passport (E + letter + 7 digits) in a visa-centre appointment e-mail
address: Tehran address in Persian (خیابان / کوچه / پلاک / واحد)
address: Cairo flat in Arabic (شارع / عمارة / الدور / شقة) with Arabic-Indic digits
address: Almaty microdistrict address (мкр. / д. / кв.)
address: Brussels address with a letter-box number (bte)
address: Budapest address with floor and door (em. / ajtó)
address: Bucharest/Cluj block address (Str. / nr. / bl. / sc. / et. / ap.)
address: Guangdong-style address with 期 / 区 / 栋 / 梯 (stairwell) / room
address: Nairobi apartment address (Apt / Block / estate / Drive)
address: Sri Lankan address with a slashed house number and 'off … Road'
otp_secret: Apple Passwords app CSV export with an OTPAuth column
otp_secret: Authy decrypted export JSON (decryptedSecret)
otp_secret: Enpass JSON export field of type totp
otp_secret: Dashlane CSV export with an otpUrl column
otp_secret: otpauth URI percent-encoded inside a QR-generator image URL in Markdown
otp_secret: SwiftOTP TOTP(secret: base32DecodeToData(…)) in a Swift snippet
otp_secret: Elixir NimbleTOTP with a Base.decode32! literal
otp_secret: otpauth URI kept in an iCalendar event DESCRIPTION (a reminder to re-enrol)
recovery_phrase: Proton account recovery phrase (12 English BIP39 words) in an account-setup note
recovery_phrase: `cast wallet new-mnemonic` output with ANSI colours: the phrase and account 0's private key
recovery_phrase: Spanish BIP39 phrase in a test fixture added by a git diff
recovery_phrase: English BIP39 phrase hidden as an acrostic: the first word of each line of a 'poem'
recovery_phrase: Japanese BIP39 phrase in a notebook cell's stream output (JSON, ideographic spaces)
recovery_phrase: Korean BIP39 phrase sent to oneself in a KakaoTalk 'chat with myself' export
recovery_phrase: Traditional-Chinese BIP39 characters written vertically, one per line (OCR of a card)
recovery_phrase: CompactSeedQR payload as a 128-bit binary string (the entropy of a 12-word phrase)
recovery_phrase: Russian BIP39 phrase in a Telegram Desktop export of Saved Messages (text entities array)
licence_plate: Ukrainian plate (Cyrillic letters, AA 1234 BB) with 'номерний знак'
licence_plate: Kazakh plate (123 ABC 02, region code last) with 'госномер'
licence_plate: Belgian plate (1-ABC-123) with 'nummerplaat'
licence_plate: Romanian plate (CJ 12 ABC) with 'număr de înmatriculare'
licence_plate: Bangladeshi plate in Bengali script (ঢাকা মেট্রো-গ ১২-৩৪৫৬)
licence_plate: Iranian plate in Persian digits (۱۲ ب ۳۴۵ ایران ۶۷) with پلاک
licence_plate: Pakistani plate (LEA-1234) with 'gari number' in a Lahore note
licence_plate: Chinese plate in a Hikvision ANPR event XML (licensePlate) from a home NVR
"""

from benchmarks.gate_corpus import Case

CASES = [
    Case(id='h16-001', category='api_key', container='py',
         text='import time\nimport jwt  # PyJWT\n\n# 可灵 AI 开放平台 -> 账户 -> API Key 管理\nak = "KxisKsk3ujuxDSTw7VmODUyMEkLJIRkH"  # Access Key，相当于 id\nsk = "LIogT7tmAWiGri7oqtXAecpcWeOyXaXG"  # Secret Key\n\n\ndef encode_jwt_token(ak, sk):\n    headers = {"alg": "HS256", "typ": "JWT"}\n    payload = {"iss": ak, "exp": int(time.time()) + 1800, "nbf": int(time.time()) - 5}\n    return jwt.encode(payload, sk, headers=headers)\n',
         secrets=('LIogT7tmAWiGri7oqtXAecpcWeOyXaXG',)),
    Case(id='h16-002', category='api_key', container='md',
         text="## 视频课作业：用 Runway Gen-4 做片头\n\n```ts\nimport RunwayML from '@runwayml/sdk';\n\nconst client = new RunwayML({ apiKey: 'key_a52d15fd877db2b0085fcbb44acebf7223624b1b9aeea6ac28f1a26584c4108d34041a6722a1eb4fbeb77d23c4fad62e117e100e8cac6b51bc938283b64b0702' });\nconst task = await client.imageToVideo.create({\n  model: 'gen4_turbo',\n  promptImage: 'https://example.com/title-card.png',\n  ratio: '1280:720',\n});\n```\n",
         secrets=('key_a52d15fd877db2b0085fcbb44acebf7223624b1b9aeea6ac28f1a26584c4108d34041a6722a1eb4fbeb77d23c4fad62e117e100e8cac6b51bc938283b64b0702',)),
    Case(id='h16-003', category='api_key', container='md',
         text='Poster generator for the design club (run with `deno run --allow-net poster.ts`):\n\n```ts\nconst res = await fetch("https://api.ideogram.ai/v1/ideogram-v3/generate", {\n  method: "POST",\n  headers: { "Api-Key": "Daad4H_1cmdsu7w5I_q6YgqESGOcQQqie8_IE91arRYhKxm8l6niVFqLkhl6hqG3fjpOVKBSBb-IGOYiSe6YJw" },\n  body: form,\n});\n```\n',
         secrets=('Daad4H_1cmdsu7w5I_q6YgqESGOcQQqie8_IE91arRYhKxm8l6niVFqLkhl6hqG3fjpOVKBSBb-IGOYiSe6YJw',)),
    Case(id='h16-004', category='api_key', container='txt',
         text='; ComfyUI/custom_nodes/ComfyUI-BFL-API/config.ini\n[API]\nBFL_API_KEY = 599a8085-f622-4e97-89b9-b1d00377f832\nBASE_URL = https://api.bfl.ai/v1\nTIMEOUT = 120\nPOLL_INTERVAL = 1.5\n',
         secrets=('599a8085-f622-4e97-89b9-b1d00377f832',)),
    Case(id='h16-005', category='api_key', container='yaml',
         text='x-ai-env: &ai-env\n  FAL_KEY: "06ad6ec9-f866-42c5-8ebc-554eaa344a87:8b9835bc8426af5440d53e3156f8e992"\n  LOG_LEVEL: info\n\nservices:\n  worker:\n    image: ghcr.io/lab/thumbnailer:1.4\n    environment:\n      <<: *ai-env\n      QUEUE: thumbs\n  api:\n    image: ghcr.io/lab/api:1.4\n    environment:\n      <<: *ai-env\n',
         secrets=('06ad6ec9-f866-42c5-8ebc-554eaa344a87:8b9835bc8426af5440d53e3156f8e992',)),
    Case(id='h16-006', category='api_key', container='txt',
         text=': 1736311180:0;cd ~/courses/nlp-hw3\n: 1736311244:0;export HYPERBOLIC_API_KEY=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJsaW4ueHcuc3R1ZHlAcHJvdG9uLm1lIiwiaWF0IjoxNzM2MzExMjIxfQ.LTAIvEhmgeOrC2576PT8RrTW_03kA-Qlsyjd1tk3yvg\n: 1736311251:0;python eval.py --provider hyperbolic --model Qwen/Qwen2.5-72B-Instruct\n: 1736311402:0;git status\n',
         secrets=('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJsaW4ueHcuc3R1ZHlAcHJvdG9uLm1lIiwiaWF0IjoxNzM2MzExMjIxfQ.LTAIvEhmgeOrC2576PT8RrTW_03kA-Qlsyjd1tk3yvg',)),
    Case(id='h16-007', category='api_key', container='md',
         text='# 课程项目：便宜的 GPU 推理\n\n1. 注册 Novita AI，控制台 → Key Management 新建一个 key\n2. 我的 key：`sk_8vNh4ydtIVKNkoucQUJOjW8cRGhVTmxvo2Y3cSBzAbg`（别发群里！）\n3. base_url 填 `https://api.novita.ai/v3/openai`\n4. 模型选 `deepseek/deepseek-v3-0324`\n',
         secrets=('sk_8vNh4ydtIVKNkoucQUJOjW8cRGhVTmxvo2Y3cSBzAbg',)),
    Case(id='h16-008', category='api_key', container='json',
         text='{\n "cells": [\n  {\n   "cell_type": "code",\n   "execution_count": 7,\n   "id": "a41c9e02",\n   "metadata": {},\n   "outputs": [\n    {\n     "ename": "HTTPError",\n     "evalue": "429 Client Error: Too Many Requests",\n     "output_type": "error",\n     "traceback": [\n      "\\u001b[0;31m---------------------------------------------------------------------------\\u001b[0m",\n      "\\u001b[0;31mHTTPError\\u001b[0m                                 Traceback (most recent call last)",\n      "Cell \\u001b[0;32mIn[7], line 3\\u001b[0m\\n\\u001b[1;32m      1\\u001b[0m \\u001b[38;5;28;01mimport\\u001b[39;00m \\u001b[38;5;21;01mrequests\\u001b[39;00m\\n\\u001b[0;32m----> 3\\u001b[0m r \\u001b[38;5;241m=\\u001b[39m requests\\u001b[38;5;241m.\\u001b[39mpost(URL, headers\\u001b[38;5;241m=\\u001b[39m{\\u001b[38;5;124m\\"\\u001b[39m\\u001b[38;5;124mAuthorization\\u001b[39m\\u001b[38;5;124m\\"\\u001b[39m: \\u001b[38;5;124m\\"\\u001b[39m\\u001b[38;5;124mBearer kV9QpzpH5kabbZBVwmOfeHa0KWrpbRsP\\u001b[39m\\u001b[38;5;124m\\"\\u001b[39m}, json\\u001b[38;5;241m=\\u001b[39mbody)",\n      "\\u001b[0;31mHTTPError\\u001b[0m: 429 Client Error: Too Many Requests for url: https://api.deepinfra.com/v1/openai/chat/completions"\n     ]\n    }\n   ],\n   "source": [\n    "import requests\\n",\n    "\\n",\n    "r = requests.post(URL, headers=HDRS, json=body)\\n",\n    "r.raise_for_status()"\n   ]\n  }\n ],\n "metadata": {\n  "kernelspec": {\n   "display_name": "Python 3",\n   "language": "python",\n   "name": "python3"\n  }\n },\n "nbformat": 4,\n "nbformat_minor": 5\n}',
         secrets=('kV9QpzpH5kabbZBVwmOfeHa0KWrpbRsP',)),
    Case(id='h16-009', category='api_key', container='note',
         text="租 GPU 做毕设 —— Lambda Cloud\n\n查看可用实例：\ncurl -u secret_lab-a100_535e7ab47e4ddc51275947f43b523e11.PtqFhyrMtv3v9YAmPOCQRgYyiqLWo6ESVQSp46tQ: https://cloud.lambdalabs.com/api/v1/instance-types | jq '.data | keys'\n\n记得用完 terminate，按小时计费。\n",
         secrets=('secret_lab-a100_535e7ab47e4ddc51275947f43b523e11.PtqFhyrMtv3v9YAmPOCQRgYyiqLWo6ESVQSp46tQ',)),
    Case(id='h16-010', category='api_key', container='md',
         text='Embedding 实验（Rust）：\n\n```rust\nlet resp = client\n    .post("https://api.mixedbread.com/v1/embeddings")\n    .bearer_auth("mxb_0zAa0Ddr47Btu2TDfcMfjdSVLciwk7OSRZjOEGA6")\n    .json(&serde_json::json!({"model": "mxbai-embed-large-v1", "input": chunks}))\n    .send()\n    .await?;\n```\n',
         secrets=('mxb_0zAa0Ddr47Btu2TDfcMfjdSVLciwk7OSRZjOEGA6',)),
    Case(id='h16-011', category='api_key', container='json',
         text='{\n  "mcpServers": {\n    "exa": {\n      "command": "npx",\n      "args": [\n        "-y",\n        "exa-mcp-server"\n      ],\n      "env": {\n        "EXA_API_KEY": "a5df98e3-8e06-4699-9137-8dbe4a062158"\n      }\n    },\n    "filesystem": {\n      "command": "npx",\n      "args": [\n        "-y",\n        "@modelcontextprotocol/server-filesystem",\n        "/Users/yuki/Notes"\n      ]\n    }\n  }\n}',
         secrets=('a5df98e3-8e06-4699-9137-8dbe4a062158',)),
    Case(id='h16-012', category='api_key', container='json',
         text='{\n  "mcpServers": {\n    "browserbase": {\n      "command": "npx",\n      "args": [\n        "@browserbasehq/mcp",\n        "--browserbaseApiKey",\n        "bb_live_5iLlbzYZ8bZTfva7GPiBkugu9ec",\n        "--browserbaseProjectId",\n        "8d162360-f302-4e4d-b1cc-ecd2ad961450"\n      ]\n    }\n  }\n}',
         secrets=('bb_live_5iLlbzYZ8bZTfva7GPiBkugu9ec',)),
    Case(id='h16-013', category='api_key', container='json',
         text='{\n "cells": [\n  {\n   "cell_type": "markdown",\n   "id": "m1",\n   "metadata": {},\n   "source": [\n    "## 代码沙箱：让 agent 跑学生提交的代码"\n   ]\n  },\n  {\n   "cell_type": "code",\n   "execution_count": 2,\n   "id": "c2",\n   "metadata": {},\n   "outputs": [],\n   "source": [\n    "from e2b_code_interpreter import Sandbox\\n",\n    "\\n",\n    "sbx = Sandbox(api_key=\\"e2b_b04f28d63832d75683f12168990fdcae1add4132\\", timeout=300)\\n",\n    "execution = sbx.run_code(open(\'submission.py\').read())\\n",\n    "print(execution.logs)"\n   ]\n  }\n ],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 5\n}',
         secrets=('e2b_b04f28d63832d75683f12168990fdcae1add4132',)),
    Case(id='h16-014', category='api_key', container='txt',
         text='Microsoft Windows [Version 10.0.26100.2605]\nC:\\Users\\hao\\thesis>set AWS_BEARER_TOKEN_BEDROCK=ABSKQmVkcm9ja0FQSUtleS1pUXBMTVk3ai1hdC05NTcxMzQ4OTgzODE6aWVtdW1jbUtxNGc0ZWwreUkwNGdHSHpQWm44QTBHc0JXbVhNNXNQWTlZdFBzZ2I4bjBCRWlRPT0=\n\nC:\\Users\\hao\\thesis>set AWS_REGION=us-west-2\n\nC:\\Users\\hao\\thesis>python summarize.py --model anthropic.claude-3-5-haiku-20241022-v1:0\n',
         secrets=('ABSKQmVkcm9ja0FQSUtleS1pUXBMTVk3ai1hdC05NTcxMzQ4OTgzODE6aWVtdW1jbUtxNGc0ZWwreUkwNGdHSHpQWm44QTBHc0JXbVhNNXNQWTlZdFBzZ2I4bjBCRWlRPT0=',)),
    Case(id='h16-015', category='api_key', container='txt',
         text='job "grader" {\n  datacenters = ["dc1"]\n  group "app" {\n    task "grader" {\n      driver = "docker"\n      config { image = "ghcr.io/course/grader:2.1" }\n      env {\n        INFISICAL_CLIENT_ID     = "2eec5e9d-1b09-483e-81de-14604dbfe699"\n        INFISICAL_CLIENT_SECRET = "aa87732c01cddd6b2786b6fa03f66d1bc53a8b10ce89a8e528ed08f2f7b005f4"\n        INFISICAL_PROJECT       = "grader-prod"\n      }\n    }\n  }\n}\n',
         secrets=('aa87732c01cddd6b2786b6fa03f66d1bc53a8b10ce89a8e528ed08f2f7b005f4',)),
    Case(id='h16-016', category='api_key', container='txt',
         text="# Microsoft.PowerShell_profile.ps1\nSet-PSReadLineOption -EditMode Emacs\n$env:OP_SERVICE_ACCOUNT_TOKEN = 'ops_eyJzaWduSW5BZGRyZXNzIjoibXkuMXBhc3N3b3JkLmNvbSIsInVzZXJBdXRoIjp7Im1ldGhvZCI6IlNSUGctNDA5NiIsImFsZyI6IlBCRVMyZy1IUzI1NiIsIml0ZXJhdGlvbnMiOjY1MDAwMCwic2FsdCI6InFyUDRmRzRYSjhKazVzSzVIVXBucWcifSwiZW1haWwiOiJ6ZGx1OW9xcHN1OWpzYWxvd3JuaGJocHE0b0AxcGFzc3dvcmRzZXJ2aWNlYWNjb3VudHMuY29tIiwic3JwWCI6IjQ3NzM3NWEyZjkyZjllM2I0NmU4NzIzYzJmOGFjNWI5NTI5MmI4MTU2YmFmZjJkYTM5ZGI1MzBiYTBmY2IwYzQiLCJtdWsiOnsiYWxnIjoiQTI1NkdDTSIsImV4dCI6dHJ1ZSwiayI6IlV5ZXhRUEZnbnY4SGJiSUFfY2ZYWTJMM1EwSy1lQlo3Z3VLanRLT3E0UTAiLCJrZXlfb3BzIjpbImVuY3J5cHQiLCJkZWNyeXB0Il0sImt0eSI6Im9jdCIsImtpZCI6Im1wIn0sInNlY3JldEtleSI6IkEzLTZINEFYUi1XT1g3N1Q4MzZDSi1LQzY3TS1UUzRRMy04MVdQMSIsInRocm90dGxlU2VjcmV0Ijp7InNlZWQiOiJhNTcyYTBhYThkNjU0ZTEwY2YwZWFiMjY3YTNlNGY1YzRjODE4NTQ2MjAzMWVmZDcyOTNhNzIxNWNjYzVkZmQ4IiwidXVpZCI6Ilg5OEFINlRKNVRUNUxWWjA0R0hUMk00NVZFIn0sImRldmljZVV1aWQiOiJkdjF2MTA4emM1bm9xZ3JyYzhhbWN6ZTY5YSJ9'\nfunction grades { op run --env-file .\\grades.env -- python .\\sync_grades.py }\n",
         secrets=('ops_eyJzaWduSW5BZGRyZXNzIjoibXkuMXBhc3N3b3JkLmNvbSIsInVzZXJBdXRoIjp7Im1ldGhvZCI6IlNSUGctNDA5NiIsImFsZyI6IlBCRVMyZy1IUzI1NiIsIml0ZXJhdGlvbnMiOjY1MDAwMCwic2FsdCI6InFyUDRmRzRYSjhKazVzSzVIVXBucWcifSwiZW1haWwiOiJ6ZGx1OW9xcHN1OWpzYWxvd3JuaGJocHE0b0AxcGFzc3dvcmRzZXJ2aWNlYWNjb3VudHMuY29tIiwic3JwWCI6IjQ3NzM3NWEyZjkyZjllM2I0NmU4NzIzYzJmOGFjNWI5NTI5MmI4MTU2YmFmZjJkYTM5ZGI1MzBiYTBmY2IwYzQiLCJtdWsiOnsiYWxnIjoiQTI1NkdDTSIsImV4dCI6dHJ1ZSwiayI6IlV5ZXhRUEZnbnY4SGJiSUFfY2ZYWTJMM1EwSy1lQlo3Z3VLanRLT3E0UTAiLCJrZXlfb3BzIjpbImVuY3J5cHQiLCJkZWNyeXB0Il0sImt0eSI6Im9jdCIsImtpZCI6Im1wIn0sInNlY3JldEtleSI6IkEzLTZINEFYUi1XT1g3N1Q4MzZDSi1LQzY3TS1UUzRRMy04MVdQMSIsInRocm90dGxlU2VjcmV0Ijp7InNlZWQiOiJhNTcyYTBhYThkNjU0ZTEwY2YwZWFiMjY3YTNlNGY1YzRjODE4NTQ2MjAzMWVmZDcyOTNhNzIxNWNjYzVkZmQ4IiwidXVpZCI6Ilg5OEFINlRKNVRUNUxWWjA0R0hUMk00NVZFIn0sImRldmljZVV1aWQiOiJkdjF2MTA4emM1bm9xZ3JyYzhhbWN6ZTY5YSJ9',)),
    Case(id='h16-017', category='api_key', container='txt',
         text='# justfile for the lab-website repo\nexport BWS_ACCESS_TOKEN := "0.2246ac29-7991-4fb3-a8d5-a0095c08931f.roOycGOnAsuoFL7iAKyhQlIcRAJzMD:0I8Whrz7vh2H1h0qCSGhFw=="\n\ndeploy:\n    bws run -- ./scripts/deploy.sh\n\npreview:\n    hugo server -D\n',
         secrets=('0.2246ac29-7991-4fb3-a8d5-a0095c08931f.roOycGOnAsuoFL7iAKyhQlIcRAJzMD:0I8Whrz7vh2H1h0qCSGhFw==',)),
    Case(id='h16-018', category='api_key', container='txt',
         text='diff --git a/homelab/zt-sync.sh b/homelab/zt-sync.sh\nindex 3c1e2aa..9b7f0d4 100755\n--- a/homelab/zt-sync.sh\n+++ b/homelab/zt-sync.sh\n@@ -2,7 +2,7 @@\n set -euo pipefail\n NETWORK_ID=8056c2e21c000001\n-ZT_TOKEN="mtIiWrHiiOPAPYLrCCN5YeFzboiEzdQr"\n+ZT_TOKEN="IhAOXVW18xaEnQS7kVshhUJDwAIlro2y"\n curl -s -H "Authorization: token $ZT_TOKEN" \\\n   "https://api.zerotier.com/api/v1/network/$NETWORK_ID/member" | jq \'.[].name\'\n',
         secrets=('mtIiWrHiiOPAPYLrCCN5YeFzboiEzdQr', 'IhAOXVW18xaEnQS7kVshhUJDwAIlro2y')),
    Case(id='h16-019', category='api_key', container='note',
         text='计划任务：每天 23:00 导出 DNS 日志（家里路由器）\n程序：powershell.exe\n参数：-NoProfile -WindowStyle Hidden -EncodedCommand JABoAD0AQAB7ACcAWAAtAEEAcABpAC0ASwBlAHkAJwA9ACcAMABmAGIANgBmAGYAZAA2ADQAYgAwAGQAMgBmAGYANwAzADcAZQBkADcANwAxAGIAZABjAGMAYwA1ADQANAA4ADcAZABlADQANwA1ADQAMAAnAH0AOwAgAEkAbgB2AG8AawBlAC0AUgBlAHMAdABNAGUAdABoAG8AZAAgAC0AVQByAGkAIAAnAGgAdAB0AHAAcwA6AC8ALwBhAHAAaQAuAG4AZQB4AHQAZABuAHMALgBpAG8ALwBwAHIAbwBmAGkAbABlAHMALwAzAGYAMgBhADkAYwAvAGwAbwBnAHMAPwBsAGkAbQBpAHQAPQA1ADAAJwAgAC0ASABlAGEAZABlAHIAcwAgACQAaAAgAHwAIABDAG8AbgB2AGUAcgB0AFQAbwAtAEoAcwBvAG4AIAAtAEQAZQBwAHQAaAAgADUAIAB8ACAATwB1AHQALQBGAGkAbABlACAAJABlAG4AdgA6AFQARQBNAFAAXABkAG4AcwAuAGoAcwBvAG4A\n（编码是为了避免引号转义问题）\n',
         secrets=('JABoAD0AQAB7ACcAWAAtAEEAcABpAC0ASwBlAHkAJwA9ACcAMABmAGIANgBmAGYAZAA2ADQAYgAwAGQAMgBmAGYANwAzADcAZQBkADcANwAxAGIAZABjAGMAYwA1ADQANAA4ADcAZABlADQANwA1ADQAMAAnAH0AOwAgAEkAbgB2AG8AawBlAC0AUgBlAHMAdABNAGUAdABoAG8AZAAgAC0AVQByAGkAIAAnAGgAdAB0AHAAcwA6AC8ALwBhAHAAaQAuAG4AZQB4AHQAZABuAHMALgBpAG8ALwBwAHIAbwBmAGkAbABlAHMALwAzAGYAMgBhADkAYwAvAGwAbwBnAHMAPwBsAGkAbQBpAHQAPQA1ADAAJwAgAC0ASABlAGEAZABlAHIAcwAgACQAaAAgAHwAIABDAG8AbgB2AGUAcgB0AFQAbwAtAEoAcwBvAG4AIAAtAEQAZQBwAHQAaAAgADUAIAB8ACAATwB1AHQALQBGAGkAbABlACAAJABlAG4AdgA6AFQARQBNAFAAXABkAG4AcwAuAGoAcwBvAG4A',)),
    Case(id='h16-020', category='api_key', container='note',
         text='Synology DSM → 控制面板 → 任务计划 → 用户定义的脚本（备份完成推送）\n\n#!/bin/sh\ncurl -s "http://192.168.31.20:8070/message?token=AjR54tXOzcoiTtp" \\\n  -F "title=Hyper Backup" -F "message=论文资料备份完成 $(date +%F)" -F "priority=5"\n',
         secrets=('AjR54tXOzcoiTtp',)),
    Case(id='h16-021', category='api_key', container='py',
         text='import pylast\n\n# 听歌记录导出，做“年度英语歌单”词汇表用\nAPI_KEY = "fbc4ad5049fb547e28b3fc0c40e58fd2"      # 应用的 key\nAPI_SECRET = "22905971ef2685d6e4d154ad9b23c316"  # 共享密钥 shared secret\n\nnetwork = pylast.LastFMNetwork(api_key=API_KEY, api_secret=API_SECRET, username="xiaoyu_listen")\nfor track in network.get_user("xiaoyu_listen").get_recent_tracks(limit=200):\n    print(track.track.artist, "-", track.track.title)\n',
         secrets=('22905971ef2685d6e4d154ad9b23c316',)),
    Case(id='h16-022', category='api_key', container='txt',
         text='<configuration version="37">\n    <folder id="notes-2025" label="Notes" path="/home/ana/Notes" type="sendreceive" />\n    <gui enabled="true" tls="false" debugging="false">\n        <address>127.0.0.1:8384</address>\n        <apikey>FWJ4avw2af5AZEteZeTCmt3kN3QeZmDK</apikey>\n        <theme>default</theme>\n    </gui>\n</configuration>\n',
         secrets=('FWJ4avw2af5AZEteZeTCmt3kN3QeZmDK',)),
    Case(id='h16-023', category='api_key', container='yaml',
         text='apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: stack-updater\n  annotations:\n    homelab/portainer-key-b64url: "cHRyX1JUMEJNNTdkdXdUL3h5eXlaV0RVc2Q5WHNQTU53OWk2TFlwa2Y1ZDg1QUk="\ndata:\n  PORTAINER_URL: "https://portainer.home.arpa:9443"\n  ENDPOINT_ID: "2"\n',
         secrets=('cHRyX1JUMEJNNTdkdXdUL3h5eXlaV0RVc2Q5WHNQTU53OWk2TFlwa2Y1ZDg1QUk=',)),
    Case(id='h16-024', category='api_key', container='txt',
         text='# ~/.config/nushell/config.nu\n$env.config.show_banner = false\n$env.SRC_ENDPOINT = "https://sourcegraph.com"\n$env.SRC_ACCESS_TOKEN = "sgp_a0382f1864cd4f42647210905d3a1d4a8d1692cd"\nalias cs = src search\n',
         secrets=('sgp_a0382f1864cd4f42647210905d3a1d4a8d1692cd',)),
    Case(id='h16-025', category='api_key', container='env',
         text='NEXT_PUBLIC_POSTHOG_KEY=phc_2sjxRXDz1IkzVumO4NjQlXP4XMeSUgzqhU84csqXNIj\nNEXT_PUBLIC_POSTHOG_HOST=https://us.i.posthog.com\n# personal key, only for the export script\nPOSTHOG_PERSONAL_API_KEY=phx_ZXlWYKMX2wCbkVaWxjbsY0uFBzd0uLXoHHpfMkPU75I\n',
         secrets=('phx_ZXlWYKMX2wCbkVaWxjbsY0uFBzd0uLXoHHpfMkPU75I',)),
    Case(id='h16-026', category='api_key', container='txt',
         text="node:internal/process/promises:394\n    triggerUncaughtException(err, true /* fromPromise */);\n    ^\n\nRateLimitExceededError: Rate limit exceeded (10 requests per second)\n    at LoopsClient._makeQuery (/srv/newsletter/node_modules/loops/dist/index.js:121:19)\n    at async sendWeekly (/srv/newsletter/send.mjs:42:5) {\n  limit: 10,\n  remaining: 0,\n  client: LoopsClient {\n    apiKey: '224cd20846fc457ba4f87f5e1397405f',\n    apiRoot: 'https://app.loops.so/api/'\n  }\n}\n\nNode.js v22.11.0\n",
         secrets=('224cd20846fc457ba4f87f5e1397405f',)),
    Case(id='h16-027', category='api_key', container='note',
         text='把 Coda token 放进钥匙串，脚本里用 security find-generic-password 取：\n\nsecurity add-generic-password -a "$USER" -s coda-api -w bfe59915-fc10-481c-9afe-d78c01467f5c -U\n\n取出：security find-generic-password -a "$USER" -s coda-api -w\n',
         secrets=('bfe59915-fc10-481c-9afe-d78c01467f5c',)),
    Case(id='h16-028', category='api_key', container='json',
         text='{\n  "event_id": "a49747fe0c56e750eb1047ae7533f9de",\n  "level": "error",\n  "platform": "python",\n  "exception": {\n    "values": [\n      {\n        "type": "HTTPError",\n        "value": "401 Client Error: Unauthorized",\n        "stacktrace": {\n          "frames": [\n            {\n              "filename": "sync.py",\n              "function": "push_rows",\n              "lineno": 58,\n              "context_line": "    r = requests.post(url, headers=headers, json=batch)",\n              "vars": {\n                "table_id": "184233",\n                "token": "\'lcOZhZE6qbSzRcJfClBLmuYiiElQFwRa\'",\n                "headers": {\n                  "Authorization": "\'[Filtered]\'"\n                },\n                "batch": "[...]"\n              }\n            }\n          ]\n        }\n      }\n    ]\n  }\n}',
         secrets=('lcOZhZE6qbSzRcJfClBLmuYiiElQFwRa',)),
    Case(id='h16-029', category='api_key', container='json',
         text='{\n "time": 1739260800000,\n "version": 6,\n "localStorage": {\n  "persist:cherry-studio": "{\\"llm\\": \\"{\\\\\\"providers\\\\\\": [{\\\\\\"id\\\\\\": \\\\\\"ppio\\\\\\", \\\\\\"name\\\\\\": \\\\\\"PPIO 派欧云\\\\\\", \\\\\\"type\\\\\\": \\\\\\"openai\\\\\\", \\\\\\"apiKey\\\\\\": \\\\\\"sk_sUH362KahHD022OLbtiDHj_Bcmly_YxeFTpOzv0CI-MCbc--lLM-WA\\\\\\", \\\\\\"apiHost\\\\\\": \\\\\\"https://api.ppinfra.com/v3/openai\\\\\\", \\\\\\"models\\\\\\": [{\\\\\\"id\\\\\\": \\\\\\"deepseek/deepseek-r1\\\\\\"}], \\\\\\"enabled\\\\\\": true}]}\\"}"\n }\n}',
         secrets=('sk_sUH362KahHD022OLbtiDHj_Bcmly_YxeFTpOzv0CI-MCbc--lLM-WA',)),
    Case(id='h16-030', category='api_key', container='json',
         text='{\n  "translationService": "openai",\n  "translationServices": {\n    "openai": {\n      "APIKEY": "sk-btjWsGfeLWgVsBEdk4IqXAPrc8fB1uhLxHMuADX3GBkIpPpD",\n      "apiUrl": "https://aihubmix.com/v1/chat/completions",\n      "model": "gpt-4o-mini",\n      "prompt": "把下面的英文学术段落翻译成中文"\n    }\n  },\n  "targetLanguage": "zh-CN"\n}',
         secrets=('sk-btjWsGfeLWgVsBEdk4IqXAPrc8fB1uhLxHMuADX3GBkIpPpD',)),
    Case(id='h16-031', category='api_key', container='note',
         text='不用 rclone config，直接一行同步课程录像：\n\nrclone sync ~/Lectures ":s3,provider=Wasabi,access_key_id=9F9WNEQJKS2B4O076WO8,secret_access_key=BsJuyEinW61wrDdL09tW7LaGLlilKRfLABOdLNes,endpoint=s3.ap-northeast-1.wasabisys.com:lecture-bucket/2025" -P\n',
         secrets=('BsJuyEinW61wrDdL09tW7LaGLlilKRfLABOdLNes',)),
    Case(id='h16-032', category='api_key', container='txt',
         text="$ env | grep -i -E 'cartesia|voice'\nCARTESIA_API_KEY=sk_car_Zc82lTDzANUNdCnh\n6NF0fyNx3XO0kQkBK7Pe6hiN\nVOICE_ID=694f9389-aac1-45b6-b726-9d9369183238\n$ python tts_flashcards.py --deck hsk4\n",
         secrets=('sk_car_Zc82lTDzANUNdCnh', '6NF0fyNx3XO0kQkBK7Pe6hiN')),
    Case(id='h16-033', category='api_key', container='md',
         text='dotfiles/README 备忘：组织用量统计脚本需要 admin key。为了不被 grep 到，存成了 Ascii85：\n\n    <~F)*@9DKII=A8Q$u0JP.I93";o92m]8H=\'?I6;B6mBf&aV7l=%=BPDKZAO9$[DIH7+?Xc>X:.8N2BOb^ED_Nk@Fa-MhFBWEjB/*8-D-ok[Bi@MZ:1\\&n?Y3D#6qhH1@lH54E,%io6>T,91e093~>\n\n解码：`python -c "import base64,sys;print(base64.a85decode(sys.argv[1], adobe=True).decode())" \'<~…~>\'`\n',
         secrets=('F)*@9DKII=A8Q$u0JP.I93";o92m]8H=\'?I6;B6mBf&aV7l=%=BPDKZAO9$[DIH7+?Xc>X:.8N2BOb^ED_Nk@Fa-MhFBWEjB/*8-D-ok[Bi@MZ:1\\&n?Y3D#6qhH1@lH54E,%io6>T,91e093',)),
    Case(id='h16-034', category='api_key', container='json',
         text='{\n  "log": {\n    "version": "1.2",\n    "creator": {\n      "name": "Firefox",\n      "version": "133.0"\n    },\n    "entries": [\n      {\n        "startedDateTime": "2025-02-11T09:14:27.311+08:00",\n        "time": 84,\n        "request": {\n          "method": "GET",\n          "url": "https://api.tomtom.com/search/2/geocode/Tsinghua%20University.json?key=YmO8c2NUh1MJuP5wVdg4Ex9mCrs3GRED&language=zh-CN",\n          "httpVersion": "HTTP/2",\n          "headers": [\n            {\n              "name": "Accept",\n              "value": "application/json"\n            }\n          ],\n          "queryString": [\n            {\n              "name": "key",\n              "value": "YmO8c2NUh1MJuP5wVdg4Ex9mCrs3GRED"\n            },\n            {\n              "name": "language",\n              "value": "zh-CN"\n            }\n          ],\n          "cookies": [],\n          "headersSize": -1,\n          "bodySize": 0\n        },\n        "response": {\n          "status": 200,\n          "statusText": "OK",\n          "httpVersion": "HTTP/2",\n          "headers": [],\n          "cookies": [],\n          "content": {\n            "size": 1832,\n            "mimeType": "application/json"\n          },\n          "redirectURL": "",\n          "headersSize": -1,\n          "bodySize": 1832\n        },\n        "cache": {},\n        "timings": {\n          "send": 0,\n          "wait": 80,\n          "receive": 4\n        }\n      }\n    ]\n  }\n}',
         secrets=('YmO8c2NUh1MJuP5wVdg4Ex9mCrs3GRED',)),
    Case(id='h16-035', category='api_key', container='txt',
         text='Service\tKind\tValue\tNotes\nVapi\tpublic key\t1de7fd78-2a77-4abb-a6ea-f94aa2f93ba8\tweb widget, fine to ship\nVapi\tprivate key\t8f9fa9a1-638f-4df4-9e9b-d128252a7344\tserver only — outbound practice calls\nCal.com\tbooking link\thttps://cal.com/oral-exam-practice\tpublic\n',
         secrets=('8f9fa9a1-638f-4df4-9e9b-d128252a7344',)),
    Case(id='h16-036', category='api_key', container='txt',
         text='\x1b[32mINFO\x1b[0m:     Started server process [48211]\n\x1b[32mINFO\x1b[0m:     Waiting for application startup.\n\x1b[36mDEBUG\x1b[0m:    usage-exporter settings: org=org-lab, admin_key=\x1b[33msk-admin-Wkfjv8WJpBqH2Vqf3-pioCAFJeuqZCeUuPgOsWQIqa06-AcKvo13Z8ajfCD0TqZzSjNAwJfQ434b6w5Z\x1b[0m, interval=3600\n\x1b[32mINFO\x1b[0m:     Uvicorn running on \x1b[1mhttp://127.0.0.1:8000\x1b[0m (Press CTRL+C to quit)\n',
         secrets=('sk-admin-Wkfjv8WJpBqH2Vqf3-pioCAFJeuqZCeUuPgOsWQIqa06-AcKvo13Z8ajfCD0TqZzSjNAwJfQ434b6w5Z',)),
    Case(id='h16-037', category='api_key', container='py',
         text='import google.generativeai as genai\n\n# 分三段写，避免 GitHub secret scanning 报警（不推荐！）\ngenai.configure(api_key="AIzamKc4DKmyS" "2tuGs8_eqH9mo"\n                "lRWbDJdPM9PxQ")\nmodel = genai.GenerativeModel("gemini-2.0-flash")\n',
         secrets=('AIzamKc4DKmyS', '2tuGs8_eqH9mo', 'lRWbDJdPM9PxQ')),
    Case(id='h16-038', category='api_key', container='yaml',
         text='name: course-assistant\nversion: 0.0.1\nschema: v1\nmodels:\n  - name: Codestral\n    provider: mistral\n    model: codestral-latest\n    apiBase: https://codestral.mistral.ai/v1\n    apiKey: yitFO9ALyIFdrKch3Co2qFMNy4Mm6KTS\n    roles: [autocomplete]\n',
         secrets=('yitFO9ALyIFdrKch3Co2qFMNy4Mm6KTS',)),
    Case(id='h16-039', category='api_key', container='txt',
         text='2025/03/02 21:44:10 connecting with config: {Host:zt4h7x2q.c0.europe-west3.gcp.weaviate.cloud Scheme:https AuthConfig:{Value:874kWX5m8hKnb2OJmHAXTsxHWUTnJDucMIXuUcGm} Headers:map[] Timeout:30s}\n2025/03/02 21:44:11 schema: 3 classes (LectureChunk, Flashcard, Question)\n',
         secrets=('874kWX5m8hKnb2OJmHAXTsxHWUTnJDucMIXuUcGm',)),
    Case(id='h16-040', category='api_key', container='note',
         text='手机端配置二维码（树莓派上生成的），zbarimg 解码结果：\n\n$ zbarimg --quiet setup.png\nQR-Code:{"v":1,"server":"https://ollama-bridge.home.arpa","hf_token":"hf_BHJxPyISFEw9QxDWcOIg1wRBS2EqUOAkyp","model":"Qwen/Qwen2.5-7B-Instruct"}\n',
         secrets=('hf_BHJxPyISFEw9QxDWcOIg1wRBS2EqUOAkyp',)),
    Case(id='h16-041', category='auth_header', container='note',
         text="homelab：用 API 拿虚拟机列表（token 在 Datacenter → Permissions → API Tokens 建的）\n\ncurl -ks -H 'Authorization: PVEAPIToken=root@pam!grafana=110ba472-9892-49d0-b36e-8ef66cdc6e0f' \\\n  https://192.168.50.2:8006/api2/json/nodes/pve/qemu | jq '.data[] | {vmid, name, status}'\n",
         secrets=('110ba472-9892-49d0-b36e-8ef66cdc6e0f',)),
    Case(id='h16-042', category='auth_header', container='txt',
         text='# ~/.zshrc\nexport EDITOR=nvim\nalias immich-stats=\'curl -s -H "x-api-key: 6IlbzM2JKEDIBnrY2fuudTr0YBOxH2rDXQtGqaxpM3J" http://nas.local:2283/api/server/statistics | jq\'\nalias ll=\'ls -lah\'\n',
         secrets=('6IlbzM2JKEDIBnrY2fuudTr0YBOxH2rDXQtGqaxpM3J',)),
    Case(id='h16-043', category='auth_header', container='txt',
         text=':method: GET\n:scheme: https\n:authority: api.learn.example-univ.edu.cn\n:path: /v2/courses/2025-spring/grades\nuser-agent: Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0\naccept: application/json\nauthorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIyMDIxMzEwNDU1Iiwic2NvcGUiOiJjb3Vyc2U6cmVhZCBncmFkZTpyZWFkIiwiZXhwIjoxNzY3MjI1NjAwfQ.M6Vtdu3rtg2CKUch_GtDiLlxCqnzOWiOMztlyCuNY8M\nreferer: https://learn.example-univ.edu.cn/\n',
         secrets=('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIyMDIxMzEwNDU1Iiwic2NvcGUiOiJjb3Vyc2U6cmVhZCBncmFkZTpyZWFkIiwiZXhwIjoxNzY3MjI1NjAwfQ.M6Vtdu3rtg2CKUch_GtDiLlxCqnzOWiOMztlyCuNY8M',)),
    Case(id='h16-044', category='auth_header', container='txt',
         text='\x1b[1m192.168.1.23:51844: \x1b[32mGET\x1b[39m https://app.flashcards.example/api/v3/decks/sync\x1b[0m\n    \x1b[34mHost:\x1b[0m app.flashcards.example\n    \x1b[34mCookie:\x1b[0m fc_session=PNb1h4RdmA4TiXcHUlfkDqo3azkx2v1E; theme=dark\n    \x1b[34mX-Auth-Token:\x1b[0m d2b12cc8676eb41be05d6aa58afafd159f7a7456\n    \x1b[34mUser-Agent:\x1b[0m Flashcards/4.2.1 (iPhone; iOS 18.2)\n << \x1b[32m200 OK\x1b[0m 12.4k\n',
         secrets=('PNb1h4RdmA4TiXcHUlfkDqo3azkx2v1E', 'd2b12cc8676eb41be05d6aa58afafd159f7a7456')),
    Case(id='h16-045', category='auth_header', container='md',
         text='S3 上传 403 排查，抓到的请求头：\n\n```\nPUT /lecture-notes/week3.pdf HTTP/1.1\nHost: course-bucket.s3.ap-east-1.amazonaws.com\nX-Amz-Date: 20250314T021530Z\nX-Amz-Content-Sha256: UNSIGNED-PAYLOAD\nX-Amz-Security-Token: IQoJb3JpZ2luX2VjEecYxRCqltydycVaLOklyZjT1poTQUsrLZ8YM0MxEq7k+6r7fP98U3g6fZplcDuv5oTsEORGcVxAPWOFXveJcdWa7TyTL0nryiMR5kT9KOc//ZFdFQp5yLc5QES9cS0Br0CtnGJLweY4JJYL4eYLJoQdGV8DqxwL6ULNi4CA38SpGX6hO0Xa58e2wYr4nlg2Oa6mgkmK8pgmXckKrFJb6V0kmtfPGv1YN5snlnPc2po4ogykIJbmR+OhitO+hr10Fd0VGgT31Bug447+RmoNFwBXXOfDkUsYm9PXpk3gTaaFXI+jHKBFTNQl7XwzxN5eRWnylOwNNoSa/xxSRqcoFbq83qpgh73MTVuK+0FeFUEuJ/fCLPc5QT7F9OIV6zP5vucf7ekrZySeeh4cP\nAuthorization: AWS4-HMAC-SHA256 Credential=ASIACS09WRLN5YZJHIRY/20250314/ap-east-1/s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token, Signature=74cd523d3998def91ecb94c73e847ad0fbe99438aa373009b3db578b6a0f1d51\n```\n',
         secrets=('IQoJb3JpZ2luX2VjEecYxRCqltydycVaLOklyZjT1poTQUsrLZ8YM0MxEq7k+6r7fP98U3g6fZplcDuv5oTsEORGcVxAPWOFXveJcdWa7TyTL0nryiMR5kT9KOc//ZFdFQp5yLc5QES9cS0Br0CtnGJLweY4JJYL4eYLJoQdGV8DqxwL6ULNi4CA38SpGX6hO0Xa58e2wYr4nlg2Oa6mgkmK8pgmXckKrFJb6V0kmtfPGv1YN5snlnPc2po4ogykIJbmR+OhitO+hr10Fd0VGgT31Bug447+RmoNFwBXXOfDkUsYm9PXpk3gTaaFXI+jHKBFTNQl7XwzxN5eRWnylOwNNoSa/xxSRqcoFbq83qpgh73MTVuK+0FeFUEuJ/fCLPc5QT7F9OIV6zP5vucf7ekrZySeeh4cP',)),
    Case(id='h16-046', category='auth_header', container='txt',
         text='llm.home.arpa {\n    tls internal\n    reverse_proxy 127.0.0.1:11434 {\n        header_up Authorization "Bearer iqsAUWyb7NUF08rHqX2vNwO1gfOIbtKOhJlvlVl7"\n        header_up -X-Forwarded-For\n    }\n}\n',
         secrets=('iqsAUWyb7NUF08rHqX2vNwO1gfOIbtKOhJlvlVl7',)),
    Case(id='h16-047', category='auth_header', container='md',
         text="课程网站压测（只压测试环境！）\n\n```js\nimport http from 'k6/http';\nexport const options = { vus: 20, duration: '30s' };\nexport default function () {\n  http.get('https://staging.quiz.example.org/api/questions?unit=7', {\n    cookies: { quiz_sid: 'e1a4ca0732dbb31dcd6f292e83e332923e8a299c6cbf735b' },\n  });\n}\n```\n",
         secrets=('e1a4ca0732dbb31dcd6f292e83e332923e8a299c6cbf735b',)),
    Case(id='h16-048', category='auth_header', container='txt',
         text='↑ 0{"token":"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1aWQiOjg4MjEzLCJyb29tIjoiY3MxMDEtbGFiIiwiZXhwIjoxNzQxNTAwMDAwfQ.r0oSygpRs228YsQJ-GfeLvBuuJ3M-yFU3j6LifGadCk"}\t14:02:11.204\n↓ 0{"sid":"Kq9xV2mPw1ZtQ0aBAAAD"}\t14:02:11.260\n↑ 42["join",{"room":"cs101-lab"}]\t14:02:11.301\n↓ 42["presence",{"online":37}]\t14:02:11.355\n',
         secrets=('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1aWQiOjg4MjEzLCJyb29tIjoiY3MxMDEtbGFiIiwiZXhwIjoxNzQxNTAwMDAwfQ.r0oSygpRs228YsQJ-GfeLvBuuJ3M-yFU3j6LifGadCk',)),
    Case(id='h16-049', category='auth_header', container='json',
         text='{\n  "cookies": [\n    {\n      "name": "__Secure-next-auth.session-token",\n      "value": "PN7iHG2gzXXPbBPgrh3wyeBIrPGKuTjyklfP2dn4PNs",\n      "domain": "portal.example.edu",\n      "path": "/",\n      "expires": 1767000000,\n      "httpOnly": true,\n      "secure": true,\n      "sameSite": "Lax"\n    }\n  ],\n  "origins": [\n    {\n      "origin": "https://portal.example.edu",\n      "localStorage": [\n        {\n          "name": "access_token",\n          "value": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1XzU1MjEiLCJyb2xlIjoic3R1ZGVudCJ9.gz4cT2cRFwuFwSmjyEk4D-WlBoFuiODsnOtGDVXTFas"\n        },\n        {\n          "name": "ui.lang",\n          "value": "zh-CN"\n        }\n      ]\n    }\n  ]\n}',
         secrets=('PN7iHG2gzXXPbBPgrh3wyeBIrPGKuTjyklfP2dn4PNs', 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1XzU1MjEiLCJyb2xlIjoic3R1ZGVudCJ9.gz4cT2cRFwuFwSmjyEk4D-WlBoFuiODsnOtGDVXTFas')),
    Case(id='h16-050', category='auth_header', container='txt',
         text='# grades.hurl — run with: hurl --test grades.hurl\nGET https://api.gradebook.example.net/v1/me/grades\nAuthorization: Bearer 9g5aLtE4EMgOsG6cfuPXUi9kbmuKxpBzRsCr\nAccept: application/json\nHTTP 200\n[Asserts]\njsonpath "$.items" count > 0\n',
         secrets=('9g5aLtE4EMgOsG6cfuPXUi9kbmuKxpBzRsCr',)),
    Case(id='h16-051', category='auth_header', container='py',
         text='import requests\n\n# 拼多多比价小脚本（给宿舍买东西用）\ncookies = {\n    "api_uid": "CiHxchoHBxYDFu9DTeqjM19B==",\n    "PDDAccessToken": "AIK2R22ORLBLMZDYQWEEJ91JLVXMTT35NI1RWGKZ0QU5MYMBYHZJ",\n    "pdd_user_id": "736158165846",\n}\nr = requests.get("https://mobile.yangkeduo.com/proxy/api/search?q=台灯", cookies=cookies, timeout=10)\n',
         secrets=('AIK2R22ORLBLMZDYQWEEJ91JLVXMTT35NI1RWGKZ0QU5MYMBYHZJ',)),
    Case(id='h16-052', category='auth_header', container='yaml',
         text='# quark-auto-save 配置\ncookie: "b-user-id=9c2f1e77; __pus=bbbe54d0ab82a7deafbcd114c9f02c9bAAZhjaFDgGivQYQYep5coRxQmcn5SlZqwbBafw3lVE09PD4SkOKbipwAnKTIgD4KiURRTSVg; __puus=tsBNIPkBx9f8e7xyiuTCXLR4Lx3x25FtNBLniLGoJqjjqlY5QsrQkaXcsw0hsIVTIibapZXwSL5NoOpeFGK6KGkCD3mgeL7Vs5MIpxWScZcAv5; __kp=1"\npush_config:\n  QUARK_SIGN_NOTIFY: true\ntasklist:\n  - taskname: 考研数学强化课\n    shareurl: https://pan.quark.cn/s/3f9a1c2b7d\n    savepath: /课程/考研数学\n',
         secrets=('bbbe54d0ab82a7deafbcd114c9f02c9bAAZhjaFDgGivQYQYep5coRxQmcn5SlZqwbBafw3lVE09PD4SkOKbipwAnKTIgD4KiURRTSVg', 'tsBNIPkBx9f8e7xyiuTCXLR4Lx3x25FtNBLniLGoJqjjqlY5QsrQkaXcsw0hsIVTIibapZXwSL5NoOpeFGK6KGkCD3mgeL7Vs5MIpxWScZcAv5')),
    Case(id='h16-053', category='connection_string', container='py',
         text='from pymilvus import MilvusClient\n\nclient = MilvusClient(\n    uri="http://10.8.0.12:19530",\n    token="rag_lab:Meadow%1462&",\n    db_name="lecture_rag",\n)\nprint(client.list_collections())\n',
         secrets=('Meadow%1462&',)),
    Case(id='h16-054', category='connection_string', container='txt',
         text='[2025-03-18 10:02:44] connecting: DATABASE=SAMPLE;HOSTNAME=db2.lab.example.edu;PORT=50000;PROTOCOL=TCPIP;UID=db2stu17;PWD=Meadow*0700.;SECURITY=SSL;\n[2025-03-18 10:02:45] connected, server DB2/LINUXX8664 11.5.9\n',
         secrets=('Meadow*0700.',)),
    Case(id='h16-055', category='connection_string', container='note',
         text='ERP 课实验 3：HANA Express 连接\n\nhdbsql -n hxehost:39013 -i 90 -d HXE -u SYSTEM -p velvet$45@ "SELECT * FROM M_DATABASES"\n\n（实验结束后记得在 cockpit 里改回去）\n',
         secrets=('velvet$45@',)),
    Case(id='h16-056', category='connection_string', container='yaml',
         text='course_dw:\n  target: dev\n  outputs:\n    dev:\n      type: trino\n      method: ldap\n      user: s2024118\n      password: "tundra%806"\n      host: trino.bigdata.example.edu\n      port: 443\n      database: hive\n      schema: s2024118\n      threads: 4\n',
         secrets=('tundra%806',)),
    Case(id='h16-057', category='connection_string', container='md',
         text="### 实时数仓作业：MySQL CDC → Doris\n\n```sql\nCREATE TABLE orders_src (\n  id BIGINT, user_id BIGINT, amount DECIMAL(10,2), ts TIMESTAMP(3),\n  PRIMARY KEY (id) NOT ENFORCED\n) WITH (\n  'connector' = 'mysql-cdc',\n  'hostname' = '172.20.3.15',\n  'port' = '3306',\n  'username' = 'flink_cdc',\n  'password' = 'Harbor%20-',\n  'database-name' = 'shop',\n  'table-name' = 'orders'\n);\n```\n",
         secrets=('Harbor%20-',)),
    Case(id='h16-058', category='connection_string', container='json',
         text='{\n  "job": {\n    "setting": {\n      "speed": {\n        "channel": 3\n      }\n    },\n    "content": [\n      {\n        "reader": {\n          "name": "mysqlreader",\n          "parameter": {\n            "username": "etl_ro",\n            "password": "Willow!91#",\n            "column": [\n              "*"\n            ],\n            "connection": [\n              {\n                "table": [\n                  "t_student"\n                ],\n                "jdbcUrl": [\n                  "jdbc:mysql://10.1.2.30:3306/edu"\n                ]\n              }\n            ]\n          }\n        },\n        "writer": {\n          "name": "hdfswriter",\n          "parameter": {\n            "defaultFS": "hdfs://nn1:8020",\n            "path": "/ods/t_student",\n            "fileType": "orc"\n          }\n        }\n      }\n    ]\n  }\n}',
         secrets=('Willow!91#',)),
    Case(id='h16-059', category='connection_string', container='env',
         text='AIRFLOW__CORE__LOAD_EXAMPLES=False\nAIRFLOW_CONN_WAREHOUSE_PG=postgres://airflow_etl:nimbus%2A48@pg.dw.internal:5432/warehouse?sslmode=require\nAIRFLOW__WEBSERVER__EXPOSE_CONFIG=False\n',
         secrets=('nimbus%2A48',)),
    Case(id='h16-060', category='connection_string', container='yaml',
         text='globalWhiteRemoteAddresses:\n  - 10.10.*.*\naccounts:\n  - accessKey: order-producer\n    secretKey: 99H1FbP8bfz2r7X4mfOxYDtQ\n    whiteRemoteAddress:\n    admin: false\n    defaultTopicPerm: DENY\n    topicPerms:\n      - TopicOrder=PUB\n',
         secrets=('99H1FbP8bfz2r7X4mfOxYDtQ',)),
    Case(id='h16-061', category='connection_string', container='yaml',
         text='spring:\n  application:\n    name: course-service\n  cloud:\n    nacos:\n      server-addr: 192.168.10.5:8848\n      username: nacos\n      password: Pebble-92$   # 毕设环境，上线前改\n      config:\n        file-extension: yaml\n        namespace: dev\n',
         secrets=('Pebble-92$',)),
    Case(id='h16-062', category='connection_string', container='md',
         text="```ts\nimport { defineConfig } from 'drizzle-kit';\n\nexport default defineConfig({\n  dialect: 'mysql',\n  schema: './src/db/schema.ts',\n  dbCredentials: {\n    host: 'rm-bp1.mysql.rds.aliyuncs.com',\n    user: 'club_admin',\n    password: 'Juniper!6300',\n    database: 'club',\n  },\n});\n```\n",
         secrets=('Juniper!6300',)),
    Case(id='h16-063', category='connection_string', container='env',
         text='# Gel (EdgeDB) instance for the graph-databases assignment\nGEL_DSN=edgedb://edgedb:rPCUBwuffMWA8aiQJYKa@gel.lab.example.edu:5656/main\nGEL_CLIENT_TLS_SECURITY=insecure\n',
         secrets=('rPCUBwuffMWA8aiQJYKa',)),
    Case(id='h16-064', category='connection_string', container='note',
         text='消费课程实验的 topic（Confluent Cloud 免费集群）：\n\nkcat -b pkc-41wq6.eu-west-2.aws.confluent.cloud:9092 -X security.protocol=SASL_SSL -X sasl.mechanisms=PLAIN \\\n  -X sasl.username=Q3WZ7NAF5KD2HJ4Y -X sasl.password=w0BBd6tnJXhdBbLy0MtdCzXqcH2gdfG7 -t clicks -C -o -10\n',
         secrets=('w0BBd6tnJXhdBbLy0MtdCzXqcH2gdfG7',)),
    Case(id='h16-065', category='private_key', container='py',
         text='import base64\nfrom cryptography.hazmat.primitives import serialization\n\n# 课设：自己签 license 文件（私钥先这么放着）\n_KEY_B85 = "FoFc50s#O5f&l>l#@Ug$I9n;eYj0Z<2U?wt0&${Emq*Z<#Cn+0j8vDT*Kg0|SE~Y|6Q`7jpJVSyyW(BGM(9vvp1{7vdqxSXr`X#q*xM5jGaN2D$WCwavQ{Tl?(itH3Im!j7;=Un0O>=!i56D+F`7?bu3Iw$PaGI@PjSrHfHL|Hl9WjRnV!FDts*%iWQaY(Fl0i>=ZWn}+g6FhJc*~|D=`Jv(`>Df6kV0fC2_I;T`u|=G+Hk17+&kQL4G)sQdAn%_2BDzG;J$o4B`*$U#`TbqTK~3MQnk0W%z*MdPBn*9Ltj&s4}9(O9hgOy^wg3L=>9K9+<+42U%%m1=hif0s{d60Rn;n08RC>*~HF>`Sqmy(c=m=#<=v5D_3elaAw7!@VYP996FMXv0lTU4yYmpYvTc}DE&@sZc`$4l3imr=lH^=yYt**VgM;Kx*#v6I7yr4>;c;$Bz<8Hv(ocInk1W%)-FXw*4mOan{}fI2YoguGu`SZ^g+p91Z$3v*73y6F^fRjl})xD-c6~fF2-4-eEb02fphC<V?bmd2LuVCL3B%!2!fM?@J)FCSTO6I@H2>LZyrXifwn(~e=(7=9Pq^qxY)>&4ZB;bjVeZF;c6y@Jeg@^Sz~lAIh1mM#wpecK4gTzHP=JK8!7<x${M;}_u|dd>Gw6A#9_gk@dAN?0QnW3i`d7&pl9j?i0yg$poSZE7fOFrEjbuKW>({4!^q--x^4$B#>l%9fr<UGEhsyO5EUk<yDe~)#Oml3cW+xah@`JUOPNIWhe=z(s*8ei#B3ffCnD1RJj0S~L9uz^4F_LQqlQ}*@S7pm_az`S*&|R>_A%2ghD~{@4FZ9I0L)(Jvg1wUA=|C(YwrZ&#ECTfN)WT#C&nzAODZW>>v7qk+ft<fHi7Yz55zT|&ic2pvL%EN!{Zsj2QN{sO?8!~K|uNy%fm!vQ{-PfIA=42cV6W`?&jHuQ!lUxB+nN*ydaRGZEuCg9)xaLwlPwUHvNvY>(=&`a1Ifx_X2@{Xh~c1GgTJaQU{ULevuZH1o0GgRrHUV%a78|#!NUR?ZTjUOTXy#A#dsr&t;E0*WYY{7)bI~L<J&0s}^>CW%?`oBJf#<JZZX06g9n-843zaPxL2C+;O;$T35iylymX?(R^Sc_6o+?(J9YSBa<U-QZl@xlwsA?*EBpe0)c>E4(YIPKckcg4IenG<yPR?eD*;e0lGH^+iEQO0ABBzb_4D5!{U^8-gs-p^tRYZ54J2xeB&Ew|7oN^<2o|8HIptF-TBj85bYe7MWD(LUW^CD@YTxpKT1S@65htxI8x4hODXZg1haTUTHJ|z>5Nj5pOz7LTpQmc{2fCAfq?+<CU9-HC&Q3abd)Ph+`W{X(%{re-Q9|Me-()HUk8B=Cx1BopD8}VWG14k$@P^TZN>`AHEfii56sfJ8HKpunj-V_%C-PreHm<4@$)<{LU>nmYqOIZFFa43f}K$tnevF?<i-IC2Q}eE+o~=&xif5y^d;v}?Y2`7fVDm"\n\nPRIVATE_KEY = serialization.load_der_private_key(base64.b85decode(_KEY_B85), password=None)\n',
         secrets=('FoFc50s#O5f&l>l#@Ug$I9n;eYj0Z<2U?wt0&${Emq*Z<#Cn+0j8vDT*Kg0|SE~Y|6Q`7jpJVSyyW(BGM(9vvp1{7vdqxSXr`X#q*xM5jGaN2D$WCwavQ{Tl?(itH3Im!j7;=Un0O>=!i56D+F`7?bu3Iw$PaGI@PjSrHfHL|Hl9WjRnV!FDts*%iWQaY(Fl0i>=ZWn}+g6FhJc*~|D=`Jv(`>Df6kV0fC2_I;T`u|=G+Hk17+&kQL4G)sQdAn%_2BDzG;J$o4B`*$U#`TbqTK~3MQnk0W%z*MdPBn*9Ltj&s4}9(O9hgOy^wg3L=>9K9+<+42U%%m1=hif0s{d60Rn;n08RC>*~HF>`Sqmy(c=m=#<=v5D_3elaAw7!@VYP996FMXv0lTU4yYmpYvTc}DE&@sZc`$4l3imr=lH^=yYt**VgM;Kx*#v6I7yr4>;c;$Bz<8Hv(ocInk1W%)-FXw*4mOan{}fI2YoguGu`SZ^g+p91Z$3v*73y6F^fRjl})xD-c6~fF2-4-eEb02fphC<V?bmd2LuVCL3B%!2!fM?@J)FCSTO6I@H2>LZyrXifwn(~e=(7=9Pq^qxY)>&4ZB;bjVeZF;c6y@Jeg@^Sz~lAIh1mM#wpecK4gTzHP=JK8!7<x${M;}_u|dd>Gw6A#9_gk@dAN?0QnW3i`d7&pl9j?i0yg$poSZE7fOFrEjbuKW>({4!^q--x^4$B#>l%9fr<UGEhsyO5EUk<yDe~)#Oml3cW+xah@`JUOPNIWhe=z(s*8ei#B3ffCnD1RJj0S~L9uz^4F_LQqlQ}*@S7pm_az`S*&|R>_A%2ghD~{@4FZ9I0L)(Jvg1wUA=|C(YwrZ&#ECTfN)WT#C&nzAODZW>>v7qk+ft<fHi7Yz55zT|&ic2pvL%EN!{Zsj2QN{sO?8!~K|uNy%fm!vQ{-PfIA=42cV6W`?&jHuQ!lUxB+nN*ydaRGZEuCg9)xaLwlPwUHvNvY>(=&`a1Ifx_X2@{Xh~c1GgTJaQU{ULevuZH1o0GgRrHUV%a78|#!NUR?ZTjUOTXy#A#dsr&t;E0*WYY{7)bI~L<J&0s}^>CW%?`oBJf#<JZZX06g9n-843zaPxL2C+;O;$T35iylymX?(R^Sc_6o+?(J9YSBa<U-QZl@xlwsA?*EBpe0)c>E4(YIPKckcg4IenG<yPR?eD*;e0lGH^+iEQO0ABBzb_4D5!{U^8-gs-p^tRYZ54J2xeB&Ew|7oN^<2o|8HIptF-TBj85bYe7MWD(LUW^CD@YTxpKT1S@65htxI8x4hODXZg1haTUTHJ|z>5Nj5pOz7LTpQmc{2fCAfq?+<CU9-HC&Q3abd)Ph+`W{X(%{re-Q9|Me-()HUk8B=Cx1BopD8}VWG14k$@P^TZN>`AHEfii56sfJ8HKpunj-V_%C-PreHm<4@$)<{LU>nmYqOIZFFa43f}K$tnevF?<i-IC2Q}eE+o~=&xif5y^d;v}?Y2`7fVDm',)),
    Case(id='h16-066', category='private_key', container='txt',
         text='diff --git a/deploy/signing.pem b/deploy/signing.pem\nnew file mode 100644\nindex 0000000..4e1f0c2\n--- /dev/null\n+++ b/deploy/signing.pem\n@@ -0,0 +1,6 @@\n+-----BEGIN PRIVATE KEY-----\n+MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDCMh1w71NcW8G1oTSXM\n+b8TaenoxpOueno8X5rue9j6KSyo2eP8wRvIHUks5dey0dNehZANiAATNcIPI6AOp\n+TIiJSw3/cxWbAQ3zz5Z5yfpviqsLujOkBflBlNi9zcHJBDQ5hmDisxMqslMFHWJU\n+yYNv2XNUV5JIzInL6UHZygvpFRnPsv4Vxb6kHIgHccRc+tZSmj9EaVc=\n+-----END PRIVATE KEY-----\n',
         secrets=('MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDCMh1w71NcW8G1oTSXM', 'b8TaenoxpOueno8X5rue9j6KSyo2eP8wRvIHUks5dey0dNehZANiAATNcIPI6AOp', 'TIiJSw3/cxWbAQ3zz5Z5yfpviqsLujOkBflBlNi9zcHJBDQ5hmDisxMqslMFHWJU', 'yYNv2XNUV5JIzInL6UHZygvpFRnPsv4Vxb6kHIgHccRc+tZSmj9EaVc=')),
    Case(id='h16-067', category='private_key', container='env',
         text='# web-push for the flashcard PWA (npx web-push generate-vapid-keys)\nVAPID_PUBLIC_KEY=BBL_kBhff-H6XM3pF4UdIIHNtxD4AJzxf9UnEBRj-6iFH83OiYdtelMm_4_DaxKdvcMa1NhONlUTfKUMikWdYZQ\nVAPID_PRIVATE_KEY=j_Q23sdZzIvbFlyJQIvAWtVc8yyUHCEJA9o5RxGouM0\nVAPID_SUBJECT=mailto:admin@flashcards.example.org\n',
         secrets=('j_Q23sdZzIvbFlyJQIvAWtVc8yyUHCEJA9o5RxGouM0',)),
    Case(id='h16-068', category='private_key', container='yaml',
         text='tls: &tls\n  crt: |\n    -----BEGIN CERTIFICATE-----\n    MIIBeTCCAR+gAwIBAgIUFf1lZ2tKx1UJ4bQ3cGm5d5l2c6swCgYIKoZIzj0EAwIw\n    -----END CERTIFICATE-----\n  key: |\n    -----BEGIN EC PRIVATE KEY-----\n    MHcCAQEEIJNrRVElj6IyzaTWDZmMo2M8iMTSp+VRsgu7so1mZXcJoAoGCCqGSM49\n    AwEHoUQDQgAEefSFXmwuRjzE9G+g2TGUs9oHKN1TZldHVeRklSBOjrVjCzjv9mfa\n    f5B9zgl+NuOxdv03vCFt/y7e0Xbtr4Ew9w==\n    -----END EC PRIVATE KEY-----\n\ngateway:\n  tls: *tls\nadmin:\n  tls: *tls\n',
         secrets=('MHcCAQEEIJNrRVElj6IyzaTWDZmMo2M8iMTSp+VRsgu7so1mZXcJoAoGCCqGSM49', 'AwEHoUQDQgAEefSFXmwuRjzE9G+g2TGUs9oHKN1TZldHVeRklSBOjrVjCzjv9mfa', 'f5B9zgl+NuOxdv03vCFt/y7e0Xbtr4Ew9w==')),
    Case(id='h16-069', category='private_key', container='json',
         text='{\n  "log": {\n    "version": "1.2",\n    "creator": {\n      "name": "WebInspector",\n      "version": "537.36"\n    },\n    "entries": [\n      {\n        "request": {\n          "method": "POST",\n          "url": "https://console.example-cloud.cn/api/service-accounts/keys",\n          "headers": []\n        },\n        "response": {\n          "status": 201,\n          "content": {\n            "size": 1834,\n            "mimeType": "application/json",\n            "text": "{\\"client_id\\": \\"svc-grader\\", \\"private_key\\": \\"-----BEGIN PRIVATE KEY-----\\\\r\\\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCxr3kahmTBE/rf\\\\r\\\\niILrr+8QApJTylQl+AteU3zq/hUGVNSRQbQeIa5tvuYhHfwlHJZ8rPvuSnXVqy0W\\\\r\\\\n01ry2zb+AAjKrDeYj6QMFVgap3vilmol7drE9aElAB5E5adsCalZgCm+rmwrgkMB\\\\r\\\\nin8KcBQRPUoK4ox1LvkWoZEQw7AVQeVt2pmALjqxomA8xKbUWU5w16g5o3du0PGR\\\\r\\\\nIQ7rp1IvRXShtvOrQ/F7HKnknWXDUf1btFS94H7U4zyvDXxBLNG3K8yaoonaBBbA\\\\r\\\\nJ47IPhR2rxQ8atVyK3KJWI/ykbmQGGxCqemZQOLExEwPZVgocEqnl8GpzlpZas6x\\\\r\\\\nC3AaZMq1AgMBAAECggEATnfdlXcwW4wFSF4y4v6pJnrcQCCkFLh73MYl7mkSw98G\\\\r\\\\nmLdZYc0iCNk7K/jf90uusZR7FXrQmvGjUec4zPM+T+GYAFkZnEgi/CsY43x/W0tt\\\\r\\\\nyR5HdJ+88Ggi9e4th6qknR/aT5kbsAMwsCeHfwaL9ikI39G4ka+S1Qm41Jx20Iuy\\\\r\\\\nqCmHnO0kwAuZ/Viri9LT54spFnOYe+IvOsD6hHAp2MyMALgkgRSh17xRcWTe0W3F\\\\r\\\\nYb+5sstKBN6crLHr8vNPGGL3uOxN1uHeCtMCTHWQ4+U2kKIJdGIq6OXK9WGLREAo\\\\r\\\\n4ThWrYMD8BMiFZn5f82aYJgjegLWMaYoi0Y2+HcVwQKBgQDhmIwmFSwyWCycdDp6\\\\r\\\\nVlqRduipdz+Fs962z1utjqUJS+xCCzZcmM1rus8zo7FnrZPmoVJy8JJ4r3K/0Khv\\\\r\\\\nhzuci+bwRiYs2UmqXY1S7VlvsCZ/DV6dcREt63aMgoY98Ma5wpaiSgFxzG0TuQuk\\\\r\\\\nXGCNFocf+ehqMk76d0G6k358uQKBgQDJoe5yOov8hYqxQMJHxEI2XZe9YORH7Fma\\\\r\\\\nb9OXoBppgD4SJmDXqs3RMrlB+wYRB2PpsTDv6hik+HtssCDvdVzNHaoVxa/6QulC\\\\r\\\\ngWj9tny3p/adKeBzmZ3AH2yw4hdmjgFRr3UgO4IEBaJwW1avaW1JWw0XxS1aYVfH\\\\r\\\\n1GWLArKX3QKBgCo9dOhgiID4r4mv3Y8wgg7Ak/m/IT64mhfipYjOr6oY9Ci9jrUx\\\\r\\\\nyyzDsq45lSsTfiDtzdFFqDc+qp6txAv15zx9mYUdrWIyYS+sCp0fYeKeueaKK1AR\\\\r\\\\nbqUJdI4ElnwcjCkV/Txv3Otg2n+Z40soHM/uCuj60wCnYNBW6hC0MzfJAoGAAMgN\\\\r\\\\n4odzj3D9Dp7PofOSxh8qvWMov1adKkoQqd/G+m2yz+MyMOPKlGr76NOOPHao3nj/\\\\r\\\\nVY60tb74y30LQ6JSz8Czrg3sFq43tThHLeSNKzENdaJ56jjIMbxtcWoO6SjXvHdP\\\\r\\\\nnuZcJKPY81KHTXq9H7GopVTwTg9ehbm/AwDprEkCgYEA1/rmHCUgNT8CDA5hOXQp\\\\r\\\\n/3o/pMMA7IeEv/bcIHbKjP+aCu2uA+tgB4ZeavGbr0PWCJ+1acy+Z4RbBLDTLmHk\\\\r\\\\nQ1863a8lsVuh0GG4JSLUi+Q+/rjUpHj11vv6rTQnwdhmvQ3EXOIS9dvpts++uRuf\\\\r\\\\nHB8FtTHLrKPzyTu18agmCLM=\\\\r\\\\n-----END PRIVATE KEY-----\\\\r\\\\n\\"}"\n          }\n        }\n      }\n    ]\n  }\n}',
         secrets=('MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCxr3kahmTBE/rf', 'iILrr+8QApJTylQl+AteU3zq/hUGVNSRQbQeIa5tvuYhHfwlHJZ8rPvuSnXVqy0W', '01ry2zb+AAjKrDeYj6QMFVgap3vilmol7drE9aElAB5E5adsCalZgCm+rmwrgkMB', 'in8KcBQRPUoK4ox1LvkWoZEQw7AVQeVt2pmALjqxomA8xKbUWU5w16g5o3du0PGR', 'IQ7rp1IvRXShtvOrQ/F7HKnknWXDUf1btFS94H7U4zyvDXxBLNG3K8yaoonaBBbA', 'J47IPhR2rxQ8atVyK3KJWI/ykbmQGGxCqemZQOLExEwPZVgocEqnl8GpzlpZas6x', 'C3AaZMq1AgMBAAECggEATnfdlXcwW4wFSF4y4v6pJnrcQCCkFLh73MYl7mkSw98G', 'mLdZYc0iCNk7K/jf90uusZR7FXrQmvGjUec4zPM+T+GYAFkZnEgi/CsY43x/W0tt', 'yR5HdJ+88Ggi9e4th6qknR/aT5kbsAMwsCeHfwaL9ikI39G4ka+S1Qm41Jx20Iuy', 'qCmHnO0kwAuZ/Viri9LT54spFnOYe+IvOsD6hHAp2MyMALgkgRSh17xRcWTe0W3F', 'Yb+5sstKBN6crLHr8vNPGGL3uOxN1uHeCtMCTHWQ4+U2kKIJdGIq6OXK9WGLREAo', '4ThWrYMD8BMiFZn5f82aYJgjegLWMaYoi0Y2+HcVwQKBgQDhmIwmFSwyWCycdDp6', 'VlqRduipdz+Fs962z1utjqUJS+xCCzZcmM1rus8zo7FnrZPmoVJy8JJ4r3K/0Khv', 'hzuci+bwRiYs2UmqXY1S7VlvsCZ/DV6dcREt63aMgoY98Ma5wpaiSgFxzG0TuQuk', 'XGCNFocf+ehqMk76d0G6k358uQKBgQDJoe5yOov8hYqxQMJHxEI2XZe9YORH7Fma', 'b9OXoBppgD4SJmDXqs3RMrlB+wYRB2PpsTDv6hik+HtssCDvdVzNHaoVxa/6QulC', 'gWj9tny3p/adKeBzmZ3AH2yw4hdmjgFRr3UgO4IEBaJwW1avaW1JWw0XxS1aYVfH', '1GWLArKX3QKBgCo9dOhgiID4r4mv3Y8wgg7Ak/m/IT64mhfipYjOr6oY9Ci9jrUx', 'yyzDsq45lSsTfiDtzdFFqDc+qp6txAv15zx9mYUdrWIyYS+sCp0fYeKeueaKK1AR', 'bqUJdI4ElnwcjCkV/Txv3Otg2n+Z40soHM/uCuj60wCnYNBW6hC0MzfJAoGAAMgN', '4odzj3D9Dp7PofOSxh8qvWMov1adKkoQqd/G+m2yz+MyMOPKlGr76NOOPHao3nj/', 'VY60tb74y30LQ6JSz8Czrg3sFq43tThHLeSNKzENdaJ56jjIMbxtcWoO6SjXvHdP', 'nuZcJKPY81KHTXq9H7GopVTwTg9ehbm/AwDprEkCgYEA1/rmHCUgNT8CDA5hOXQp', '/3o/pMMA7IeEv/bcIHbKjP+aCu2uA+tgB4ZeavGbr0PWCJ+1acy+Z4RbBLDTLmHk', 'Q1863a8lsVuh0GG4JSLUi+Q+/rjUpHj11vv6rTQnwdhmvQ3EXOIS9dvpts++uRuf', 'HB8FtTHLrKPzyTu18agmCLM=')),
    Case(id='h16-070', category='private_key', container='txt',
         text='$ openssl genpkey -algorithm ed25519 -outform DER -out node.der && hexdump -C node.der\n00000000  30 2e 02 01 00 30 05 06  03 2b 65 70 04 22 04 20  |0....0...+ep.". |\n00000010  80 39 c5 ad d2 0d 87 07  d2 19 75 ac 18 36 3d 85  |.9........u..6=.|\n00000020  2e 71 d3 87 a1 a4 97 2a  e1 f5 0c ef 74 14 c7 0e  |.q.....*....t...|\n00000030\n',
         secrets=('80 39 c5 ad d2 0d 87 07  d2 19 75 ac 18 36 3d 85', '2e 71 d3 87 a1 a4 97 2a  e1 f5 0c ef 74 14 c7 0e')),
    Case(id='h16-071', category='private_key', container='note',
         text='Move 课程测试网钱包（faucet 领的币）\n$ sui keytool export --key-identity hungry-jade\n╭────────────────────┬──────────────────────────────────────────────────────────────────────────╮\n│ exportedPrivateKey │ suiprivkey1qrgfrwu37kfnx3rfcd0lm4mrm9fqvvc2w5c9hsfawcxk8k0dvwyuc5dua5d │\n│ key                │ ed25519                                                                  │\n╰────────────────────┴──────────────────────────────────────────────────────────────────────────╯\n',
         secrets=('suiprivkey1qrgfrwu37kfnx3rfcd0lm4mrm9fqvvc2w5c9hsfawcxk8k0dvwyuc5dua5d',)),
    Case(id='h16-072', category='private_key', container='md',
         text='- [x] 测试网账户创建（Friendbot）\n- [x] 公钥 GBQ…（已发给老师）\n- [ ] 私钥备份：`SDPNGXWN3JJLUK5Q7CP6LFSNABK5KS6VRZANXKWDLQTXV2TBUNXSJEKW`\n- [ ] 写 Soroban 合约作业\n',
         secrets=('SDPNGXWN3JJLUK5Q7CP6LFSNABK5KS6VRZANXKWDLQTXV2TBUNXSJEKW',)),
    Case(id='h16-073', category='private_key', container='txt',
         text='\x1b[2m2025-01-09T08:41:00Z\x1b[0m \x1b[32mINFO\x1b[0m \x1b[35mconfig\x1b[0m loading JWT_SIGNING_KEY (debug=true)\n\x1b[2m2025-01-09T08:41:00Z\x1b[0m \x1b[33mWARN\x1b[0m \x1b[35mconfig\x1b[0m -----BEGIN PRIVATE KEY-----\n\x1b[2m2025-01-09T08:41:01Z\x1b[0m \x1b[33mWARN\x1b[0m \x1b[35mconfig\x1b[0m MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgVDS3yI3QgxMPNRh/\n\x1b[2m2025-01-09T08:41:02Z\x1b[0m \x1b[33mWARN\x1b[0m \x1b[35mconfig\x1b[0m Pv/4E/p8Rhiz0Ygg0NCpYPJpL0ShRANCAATlD7yOH0sHIOTA0YzbMmwU+Wp2EjaW\n\x1b[2m2025-01-09T08:41:03Z\x1b[0m \x1b[33mWARN\x1b[0m \x1b[35mconfig\x1b[0m YkwY1cMSvPJHCo6owUtK/h4mWaTtspJM5JdJoDAnaPEVodrJ3zuV87rL\n\x1b[2m2025-01-09T08:41:04Z\x1b[0m \x1b[33mWARN\x1b[0m \x1b[35mconfig\x1b[0m -----END PRIVATE KEY-----\n\x1b[2m2025-01-09T08:41:05Z\x1b[0m \x1b[32mINFO\x1b[0m \x1b[35mhttp\x1b[0m listening on :8080\n',
         secrets=('MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgVDS3yI3QgxMPNRh/', 'Pv/4E/p8Rhiz0Ygg0NCpYPJpL0ShRANCAATlD7yOH0sHIOTA0YzbMmwU+Wp2EjaW', 'YkwY1cMSvPJHCo6owUtK/h4mWaTtspJM5JdJoDAnaPEVodrJ3zuV87rL')),
    Case(id='h16-074', category='private_key', container='yaml',
         text='---\nprofiles:\n  default:\n    network: Testnet\n    private_key: "ed25519-priv-0xafe963dbcc25699fdc4baacc179239c6480e9e675cbdf1f1332eb7c6d61e53c5"\n    public_key: "ed25519-pub-0xa0d2ce14b98404f7c00e41d6556ccbd691fd71404cdf5cb31e5a9fc4aa2ab477"\n    account: 5d29bd8a036f1535d8cf7b58a3d2c9f20d314b0942fb282a308a9040693b412a\n    rest_url: "https://fullnode.testnet.aptoslabs.com"\n',
         secrets=('ed25519-priv-0xafe963dbcc25699fdc4baacc179239c6480e9e675cbdf1f1332eb7c6d61e53c5',)),
    Case(id='h16-075', category='password', container='note',
         text='ქართულის კურსი, მე-4 კვირა\nბიბლიოთეკის ანგარიში — მომხმარებელი: nino.k\nპაროლი: Cobalt*298&\nწიგნი დასაბრუნებელია 14 მარტამდე.\n',
         secrets=('Cobalt*298&',)),
    Case(id='h16-076', category='password', container='note',
         text='Հանրակացարան, 3-րդ հարկ\nWi-Fi ցանց՝ Dorm3_5G\nգաղտնաբառ՝ Lantern@7891.\n(դասընկերոջից՝ Արամից)\n',
         secrets=('Lantern@7891.',)),
    Case(id='h16-077', category='password', container='txt',
         text='[12.02.25 19:04] Selam: የፖርታሉ የተጠቃሚ ስም sel.t ነው\n[12.02.25 19:05] Selam: የይለፍ ቃል፦ Orchid_8932\n[12.02.25 19:05] Me: 👍\n',
         secrets=('Orchid_8932',)),
    Case(id='h16-078', category='password', container='md',
         text='## කොළඹ සරසවිය — ලියාපදිංචිය\n\n- LMS පරිශීලක නාමය: `ruwan.p`\n- මුරපදය: `mosaic@7229!`\n- පළමු දේශනය: සඳුදා 9.00\n',
         secrets=('mosaic@7229!',)),
    Case(id='h16-079', category='password', container='note',
         text='အိမ် Wi-Fi\nနာမည် - Home_Yangon\nစကားဝှက် - Nimbus#9528-\nရုံးတက်ချိန်မှာ router ပိတ်ထားနိုင်သည်။\n',
         secrets=('Nimbus#9528-',)),
    Case(id='h16-080', category='password', container='txt',
         text='1/14/25, 9:12 PM - Rafi: ক্লাসের পোর্টাল আইডি rafi2023\n1/14/25, 9:12 PM - Rafi: পাসওয়ার্ড Maple%31\n1/14/25, 9:13 PM - Nila: ধন্যবাদ!\n',
         secrets=('Maple%31',)),
    Case(id='h16-081', category='password', container='note',
         text='Rīga — apmaiņas semestris\nLU portāls: lietotājs ms24019\nparole: Meadow@83!\nKopmītnes kods durvīm jāprasa administratorei.\n',
         secrets=('Meadow@83!',)),
    Case(id='h16-082', category='password', container='md',
         text='### Ljubljana — prvi teden\n\n* e-učilnica: uporabniško ime `kz1234@student.uni-lj.si`\n* geslo: `maple&798.`\n* izpit iz slovenščine A2: 28. 3.\n',
         secrets=('maple&798.',)),
    Case(id='h16-083', category='password', container='note',
         text='Íbúðin á Hringbraut\nnet: Hringbraut22\nlykilorð: Lantern-878\nRuslið er sótt á þriðjudögum.\n',
         secrets=('Lantern-878',)),
    Case(id='h16-084', category='password', container='txt',
         text='Gwers Gymraeg 6 — geirfa: cyfrinair = password, enw defnyddiwr = username\nFy nghyfrif Moodle: enw defnyddiwr bgh23xyz\ncyfrinair: juniper*0088-\n',
         secrets=('juniper*0088-',)),
    Case(id='h16-085', category='password', container='note',
         text='Donostia — EHU\nerabiltzailea: aitor.m\npasahitza: Willow$6703\nEuskara ikastaroa: astelehena eta asteazkena 18:00etan.\n',
         secrets=('Willow$6703',)),
    Case(id='h16-086', category='password', container='note',
         text='House-sitting for Prof. Allen, 3-16 March. Feed the cat twice a day, water the basil. The wifi code is PB6QCWK8YLZF and the router is behind the TV if it drops. Bins go out Thursday night.\n',
         secrets=('PB6QCWK8YLZF',)),
    Case(id='h16-087', category='password', container='txt',
         text='diff --git a/config/local.json b/config/local.json\n--- a/config/local.json\n+++ b/config/local.json\n@@ -4,5 +4,5 @@\n   "port": 8080,\n   "admin_user": "ta-admin",\n-  "admin_password": "Velvet$915*",\n+  "admin_password": "quartz@30!",\n   "upload_dir": "./uploads"\n }\n',
         secrets=('Velvet$915*', 'quartz@30!')),
    Case(id='h16-088', category='password', container='txt',
         text='\x1b[90m2025-02-20 07:30:01\x1b[0m \x1b[34mINF\x1b[0m config loaded \x1b[36msmtp.host=\x1b[0msmtp.qiye.aliyun.com \x1b[36msmtp.user=\x1b[0mnotice@lab.example.cn \x1b[36msmtp.pass=\x1b[0mTundra@186 \x1b[36mworkers=\x1b[0m4\n\x1b[90m2025-02-20 07:30:01\x1b[0m \x1b[34mINF\x1b[0m queue ready\n',
         secrets=('Tundra@186',)),
    Case(id='h16-089', category='password', container='txt',
         text='╭───────────────────── Traceback (most recent call last) ─────────────────────╮\n│ /home/lee/thesis/fetch.py:41 in login                                       │\n│                                                                              │\n│   40 │   session = requests.Session()                                        │\n│ ❱ 41 │   r = session.post(LOGIN_URL, data={"u": user, "p": password})        │\n│                                                                              │\n│ ╭──────────────────────────────── locals ─────────────────────────────────╮ │\n│ │ password = \'harbor#271\'                                                  │ │\n│ │  session = <requests.sessions.Session object at 0x7f3a2c1d5e90>         │ │\n│ │     user = \'lee2022\'                                                    │ │\n│ ╰──────────────────────────────────────────────────────────────────────────╯ │\n╰──────────────────────────────────────────────────────────────────────────────╯\nConnectionError: HTTPSConnectionPool(host=\'jw.example.edu.cn\', port=443)\n',
         secrets=('harbor#271',)),
    Case(id='h16-090', category='password', container='txt',
         text='  # azurerm_postgresql_flexible_server.course will be created\n  + resource "azurerm_postgresql_flexible_server" "course" {\n      + administrator_login          = "pgadmin"\n      + administrator_password       = "Willow-6812*"\n      + location                     = "eastasia"\n      + sku_name                     = "B_Standard_B1ms"\n      + version                      = "16"\n    }\n\nPlan: 1 to add, 0 to change, 0 to destroy.\n',
         secrets=('Willow-6812*',)),
    Case(id='h16-091', category='password', container='note',
         text='机房装机脚本最后一步（管理员身份运行）：\npowershell -ExecutionPolicy Bypass -EncodedCommand bgBlAHQAIAB1AHMAZQByACAAbABhAGIAYQBkAG0AaQBuACAAJwBmAGEAbABjAG8AbgBfADgAMwAzADkAJwAgAC8AYQBkAGQAOwAgAG4AZQB0ACAAbABvAGMAYQBsAGcAcgBvAHUAcAAgAEEAZABtAGkAbgBpAHMAdAByAGEAdABvAHIAcwAgAGwAYQBiAGEAZABtAGkAbgAgAC8AYQBkAGQA\n',
         secrets=('bgBlAHQAIAB1AHMAZQByACAAbABhAGIAYQBkAG0AaQBuACAAJwBmAGEAbABjAG8AbgBfADgAMwAzADkAJwAgAC8AYQBkAGQAOwAgAG4AZQB0ACAAbABvAGMAYQBsAGcAcgBvAHUAcAAgAEEAZABtAGkAbgBpAHMAdAByAGEAdABvAHIAcwAgAGwAYQBiAGEAZABtAGkAbgAgAC8AYQBkAGQA',)),
    Case(id='h16-092', category='password', container='txt',
         text='pi@iot-node:~ $ wpa_passphrase Lab-IoT-2G \'Quartz&04_\' | sudo tee -a /etc/wpa_supplicant/wpa_supplicant.conf\nnetwork={\n\tssid="Lab-IoT-2G"\n\t#psk="Quartz&04_"\n\tpsk=9c18a70b7ad2964667435b1ffe5cbd92bd4d333679f1a0fabc5fc420576b8bf4\n}\n',
         secrets=('Quartz&04_', '9c18a70b7ad2964667435b1ffe5cbd92bd4d333679f1a0fabc5fc420576b8bf4')),
    Case(id='h16-093', category='password', container='note',
         text="测试机自动登录（学校 App 的 UI 自动化）：\nadb shell input tap 540 820\nadb shell input text 'stu2024061'\nadb shell input keyevent 61\nadb shell input text 'qiDlMOlzXc69'\nadb shell input keyevent 66\n",
         secrets=('qiDlMOlzXc69',)),
    Case(id='h16-094', category='password', container='txt',
         text=';; hotstrings.ahk\n#Requires AutoHotkey v2.0\n::;sig::Best regards,`nLin\n::;pw::\n{\n    SendText "Quartz?380"\n    Send "{Enter}"\n}\n',
         secrets=('Quartz?380',)),
    Case(id='h16-095', category='password', container='txt',
         text="  501  bw login lin.x@outlook.com\n  502  bw unlock 'quartz*2120-!' --raw > ~/.bw_session\n  503  export BW_SESSION=$(cat ~/.bw_session)\n  504  bw list items --search eduroam\n",
         secrets=('quartz*2120-!',)),
    Case(id='h16-096', category='password', container='yaml',
         text='defaults: &db\n  adapter: postgresql\n  host: db.course.internal\n  username: webapp\n  password: "Nimbus*21"\n\ndevelopment:\n  <<: *db\n  database: webapp_dev\ntest:\n  <<: *db\n  database: webapp_test\nproduction:\n  <<: *db\n  database: webapp\n',
         secrets=('Nimbus*21',)),
    Case(id='h16-097', category='password', container='note',
         text='打包时把初始密码传进去（之后再改）：\ndocker build --build-arg ADMIN_USER=ta --build-arg ADMIN_PASSWORD=Maple&95@ -t grader:latest .\ndocker history grader:latest   # 注意：build-arg 会留在历史里\n',
         secrets=('Maple&95@',)),
    Case(id='h16-098', category='password', container='txt',
         text='order,id,date,time,title,url,visitCount,typedCount,transition\n1,4811,3/1/2025,21:14:07,Router Login,http://192.168.0.1/cgi-bin/login.cgi?username=admin&password=Cobalt.65.&lang=en,3,0,link\n2,4812,3/1/2025,21:14:09,Status,http://192.168.0.1/status.html,5,0,link\n',
         secrets=('Cobalt.65.',)),
    Case(id='h16-099', category='password', container='note',
         text='【云栖民宿】您好！入住当天 14:00 后可自助入住：\n大门临时密码 33598071#（输完按#号），有效期至 3 月 9 日 12:00。\n房间在 2 楼 203，WiFi 见桌上卡片。祝旅途愉快～\n',
         secrets=('33598071',)),
    Case(id='h16-100', category='resident_id', container='note',
         text='Vpis na FF Ljubljana — manjkajoči dokumenti\nEMŠO: 0801993503595\nDavčna številka: še ni dodeljena\nRok: 15. 9.\n',
         secrets=('0801993503595',)),
    Case(id='h16-101', category='resident_id', container='md',
         text='### Заява на стипендію (чернетка)\n\n| Поле | Значення |\n|---|---|\n| ПІБ | Коваленко О. В. |\n| РНОКПП (ІПН) | 3051602318 |\n| Факультет | філологічний |\n',
         secrets=('3051602318',)),
    Case(id='h16-102', category='resident_id', container='note',
         text='Familia anfitriona — Miraflores\nSra. Rosa Quispe, DNI N° 42137998\n(para el contrato de hospedaje)\n',
         secrets=('42137998',)),
    Case(id='h16-103', category='resident_id', container='note',
         text='Intercambio en Montevideo\nCédula de identidad del propietario: 7.566.297-4\nContrato firmado el 02/03.\n',
         secrets=('7.566.297-4',)),
    Case(id='h16-104', category='resident_id', container='txt',
         text='[20/02/2025 10:12] Minh Anh: số CCCD của mình là 079199505735 nha\n[20/02/2025 10:13] Tuấn: ok để mình điền form ký túc xá\n',
         secrets=('079199505735',)),
    Case(id='h16-105', category='resident_id', container='note',
         text='استمارة التدريب الصيفي\nالاسم: فيصل العتيبي\nرقم الهوية: 1716662554\nالجامعة: جامعة الملك سعود\n',
         secrets=('1716662554',)),
    Case(id='h16-106', category='resident_id', container='note',
         text='Dubai internship onboarding\nEmirates ID: 784-1994-4562138-8\nVisa UID: pending\nBadge pickup Sunday 9am.\n',
         secrets=('784-1994-4562138-8',)),
    Case(id='h16-107', category='resident_id', container='note',
         text='アルバイト応募メモ\n在留カード番号：GY50750779AX\n在留資格：留学（資格外活動許可あり）\n週28時間以内\n',
         secrets=('GY50750779AX',)),
    Case(id='h16-108', category='resident_id', container='note',
         text='فرم ثبت\u200cنام خوابگاه\nنام: سارا محمدی\nکد ملی: 4208076887\nرشته: مهندسی کامپیوتر\n',
         secrets=('4208076887',)),
    Case(id='h16-109', category='resident_id', container='note',
         text='Budapest — orvosi regisztráció\nTAJ-szám: 507 130 363\nHáziorvos: rendelés kedden 14-18\n',
         secrets=('507 130 363',)),
    Case(id='h16-110', category='resident_id', container='note',
         text='微信扫一扫识别出来的二维码内容（健康码截图）：\n{"xm":"陈*婷","sfzh":"330106200411182328","mzt":"绿码","sj":"2022-05-03 08:12:44"}\n',
         secrets=('330106200411182328',)),
    Case(id='h16-111', category='resident_id', container='txt',
         text='姓名,证件前6位,证件后12位,宿舍\n黄子轩,440305,199810283876,紫荆2号楼\n',
         secrets=('440305', '199810283876')),
    Case(id='h16-112', category='mobile', container='note',
         text='काठमाडौं ट्रेकिङ गाइड\nनाम: पासाङ शेर्पा\nमोबाइल: +977 9829120931\n',
         secrets=('+977 9829120931',)),
    Case(id='h16-113', category='mobile', container='note',
         text='አዲስ አበባ — የቤት ኪራይ\nአከራይ፦ አቶ ተስፋዬ\nስልክ፦ +251 95 888 5835\n',
         secrets=('+251 95 888 5835',)),
    Case(id='h16-114', category='mobile', container='txt',
         text='03/02/2025, 18:40 - Kwame: Send your share to my MoMo 024 314 4907 (Kwame Mensah)\n03/02/2025, 18:41 - Ama: done ✅\n',
         secrets=('024 314 4907',)),
    Case(id='h16-115', category='mobile', container='note',
         text='Stage à Rabat\nTuteur : M. Benali\nPortable / الهاتف : +212 646-191043\n',
         secrets=('+212 646-191043',)),
    Case(id='h16-116', category='mobile', container='note',
         text='هم\u200cاتاقی جدید\nنام: مریم\nموبایل: ۰۹۱۲ ۷۴۶ ۶۵۵۹\n',
         secrets=('۰۹۱۲ ۷۴۶ ۶۵۵۹',)),
    Case(id='h16-117', category='mobile', container='note',
         text='Улаанбаатар — дадлага\nХариуцагч: Б. Бат-Эрдэнэ\nутас: +976 9910 8756\n',
         secrets=('+976 9910 8756',)),
    Case(id='h16-118', category='mobile', container='note',
         text='Samarqand sayohati\nMehmonxona egasi: Dilshod aka\ntelefon raqami: +998 90 773 44 34\n',
         secrets=('+998 90 773 44 34',)),
    Case(id='h16-119', category='mobile', container='note',
         text='Erasmus Cluj — coleg de apartament\nAndrei Pop, mobil 0753 035 494\nchiria se plătește pe 5\n',
         secrets=('0753 035 494',)),
    Case(id='h16-120', category='mobile', container='note',
         text='新室友电话（她自己这么写的，怕被爬）：1三22五62零73零，加微信请备注“读书会”\n',
         secrets=('1三22五62零73零',)),
    Case(id='h16-121', category='mobile', container='txt',
         text='订单号,商品,收货人,手机号,状态\n\t250301153638968732,考研英语真题,刘*,="15956168961",已签收\n',
         secrets=('15956168961',)),
    Case(id='h16-122', category='bank_card', container='note',
         text='Stage Utrecht — huur\nBetaalpas (Maestro) pasnummer: 6759 6496 0382 7191 290\ngeldig tot 09/28\n',
         secrets=('6759 6496 0382 7191 290',)),
    Case(id='h16-123', category='bank_card', container='note',
         text='Ljetna škola Zagreb — plaćanje\nbroj kartice: 3689 854113 4875\nvrijedi do: 11/27\n',
         secrets=('3689 854113 4875',)),
    Case(id='h16-124', category='bank_card', container='note',
         text='Stipendiya uchun\nkarta raqami: 8600 8385 0837 6712\nbank: Kapitalbank\n',
         secrets=('8600 8385 0837 6712',)),
    Case(id='h16-125', category='bank_card', container='txt',
         text='05/02/2025, 11:20 - Tunde: use my Verve card for the hostel booking: 5061231977884519262 exp 04/27\n05/02/2025, 11:22 - Me: ok\n',
         secrets=('5061231977884519262',)),
    Case(id='h16-126', category='bank_card', container='note',
         text='دفع رسوم السكن\nرقم البطاقة: 5888 4505 6663 2967\nتاريخ الانتهاء: 10/26\n',
         secrets=('5888 4505 6663 2967',)),
    Case(id='h16-127', category='bank_card', container='txt',
         text='<isomsg direction="outgoing">\n  <field id="0" value="0200"/>\n  <field id="2" value="6268333313429519152"/>\n  <field id="3" value="000000"/>\n  <field id="4" value="000000012800"/>\n  <field id="11" value="000417"/>\n  <field id="41" value="LAB00017"/>\n</isomsg>\n',
         secrets=('6268333313429519152',)),
    Case(id='h16-128', category='bank_card', container='json',
         text='{\n  "messageExpiration": "1741764000000",\n  "messageId": "AH2EjTq4llxYl3wr4nzmaSpmR17GpDudttx0D9DgFi1kw",\n  "paymentMethod": "CARD",\n  "paymentMethodDetails": {\n    "expirationYear": 2028,\n    "expirationMonth": 7,\n    "pan": "5231112337647443",\n    "authMethod": "PAN_ONLY"\n  }\n}',
         secrets=('5231112337647443',)),
    Case(id='h16-129', category='bank_card', container='note',
         text='Оплата гуртожитку\nОтримувач: Шевченко Іван\nрахунок IBAN: UA433052990000026911076594964\nПризначення: оплата за березень\n',
         secrets=('UA433052990000026911076594964',)),
    Case(id='h16-130', category='bank_card', container='note',
         text='Affitto Bologna — bonifico al padrone di casa\nIBAN: IT92 P030 6997 6955 1435 2317 266\nCausale: affitto marzo stanza 2\n',
         secrets=('IT92 P030 6997 6955 1435 2317 266',)),
    Case(id='h16-131', category='bank_card', container='note',
         text='Стипендия — реквизиты\nИИК: KZ04722C165764050380\nБИК: KCJBKZKX\n',
         secrets=('KZ04722C165764050380',)),
    Case(id='h16-132', category='email', container='txt',
         text='anki-tools (0.3.1-1) unstable; urgency=medium\n\n  * New upstream release.\n  * Fix FTBFS with Python 3.13.\n\n -- Ruth Oyelaran <r.oyelaran64@gmail.com>  Sat, 08 Feb 2025 16:02:11 +0100\n',
         secrets=('r.oyelaran64@gmail.com',)),
    Case(id='h16-133', category='email', container='note',
         text='登录链接（从浏览器地址栏复制）：\nhttps://login.microsoftonline.com/common/oauth2/v2.0/authorize?client_id=4765445b-32c6-49b0-83e6-1d93765276ca&response_type=code&scope=openid%20profile&login_hint=tanaka.haruto928%40icloud.com&prompt=select_account\n',
         secrets=('tanaka.haruto928%40icloud.com',)),
    Case(id='h16-134', category='email', container='txt',
         text='\x1b[90m2025-03-01 22:18:40\x1b[0m \x1b[31mWARN\x1b[0m auth: login failed user=\x1b[1mwenjing.zhou95@163.com\x1b[0m ip=10.2.33.7 reason=bad_password attempts=3\n',
         secrets=('wenjing.zhou95@163.com',)),
    Case(id='h16-135', category='email', container='note',
         text='她给的新邮箱（中文邮箱地址，SMTPUTF8）：张晓燕@例子.中国\n旧邮箱停用了。\n',
         secrets=('张晓燕@例子.中国',)),
    Case(id='h16-136', category='email', container='json',
         text='{\n  "users": [\n    {\n      "localId": "MYVNOwqMKc9vG9cAw8QyATQBPuPY",\n      "email": "k.amani888@yahoo.com",\n      "emailVerified": true,\n      "passwordHash": "h0qnuMcUSjos060/kKjYN1pj0keQtog6XZy8mt3Twgg05fUHA5a+sBdPXxzXnVmhZ8C9PyHpcvX7HpVgHXkOUw==",\n      "salt": "phSvvmWhPKfroHUC",\n      "createdAt": "1736000000000",\n      "lastSignedInAt": "1740000000000",\n      "providerUserInfo": []\n    }\n  ]\n}',
         secrets=('k.amani888@yahoo.com',)),
    Case(id='h16-137', category='email', container='txt',
         text='name,email_user,email_domain,group\nDmitri Volkov,dmitri.volkov44,yandex.ru,B2\n',
         secrets=('dmitri.volkov44',)),
    Case(id='h16-138', category='email', container='note',
         text='每周作业自动抄送自己一份：\necho "见附件" | mail -s "HW6 提交" -a hw6.pdf -b my.backup.inbox25@proton.me ta-cs201@example.edu\n',
         secrets=('my.backup.inbox25@proton.me',)),
    Case(id='h16-139', category='email', container='txt',
         text='BEGIN:VCARD\nVERSION:2.1\nN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=E6=9D=8E;=E5=A8=9C;;;\nEMAIL;INTERNET;ENCODING=QUOTED-PRINTABLE:li.na629=40qq.com\nEND:VCARD\n',
         secrets=('li.na629=40qq.com',)),
    Case(id='h16-140', category='passport', container='note',
         text='भिसा आवेदन — जापान\nनाम: सुमन थापा\nराहदानी नं.: 70263185\nजारी मिति: २०२२\n',
         secrets=('70263185',)),
    Case(id='h16-141', category='passport', container='note',
         text='درخواست ویزای تحصیلی\nشماره گذرنامه: Z83212015\nتاریخ انقضا: ۱۴۰۸/۰۳/۱۲\n',
         secrets=('Z83212015',)),
    Case(id='h16-142', category='passport', container='note',
         text='Koreya grant hujjatlari\npasport raqami: FA7665653\namal qilish muddati: 2031\n',
         secrets=('FA7665653',)),
    Case(id='h16-143', category='passport', container='note',
         text='Зуны сургууль — Бээжин\nгадаад паспорт №: E0680985\nвиз: X2\n',
         secrets=('E0680985',)),
    Case(id='h16-144', category='passport', container='md',
         text='## Travel to Nairobi workshop\n\n- [x] Passport no. **EP6069793** (valid to 2030)\n- [ ] Yellow-fever card\n- [ ] eTA application\n',
         secrets=('EP6069793',)),
    Case(id='h16-145', category='passport', container='note',
         text='Utbytesår i Seoul\npassnummer: 49095183\ngiltigt t.o.m. 2029-06-30\n',
         secrets=('49095183',)),
    Case(id='h16-146', category='passport', container='note',
         text='Candidatura Erasmus Mundus\nn.º do passaporte: X661884\nválido até 14/05/2032\n',
         secrets=('X661884',)),
    Case(id='h16-147', category='passport', container='txt',
         text='From: no-reply@visa-appointments.example\nSubject: Appointment confirmation — Schengen (Germany) — Shanghai\n\nDear WANG YUTONG,\nYour appointment has been confirmed.\nPassport Number: EL2765948\nDate: 18/03/2025 09:45\nPlease bring the original passport and the printed confirmation.\n',
         secrets=('EL2765948',)),
    Case(id='h16-148', category='address', container='note',
         text='آدرس خانه برای پست کتاب\u200cها:\nتهران، ونک، خیابان ملاصدرا، کوچه شیراز جنوبی، پلاک ۱۲، واحد ۴\nکد پستی بعداً\n',
         secrets=('خیابان ملاصدرا، کوچه شیراز جنوبی، پلاک ۱۲، واحد ۴',)),
    Case(id='h16-149', category='address', container='note',
         text='سكن الطلاب — القاهرة\nالعنوان: ١٤ شارع أحمد عرابي، عمارة ٣، الدور الخامس، شقة ١٠، المهندسين، الجيزة\n',
         secrets=('١٤ شارع أحمد عرابي، عمارة ٣، الدور الخامس، شقة ١٠',)),
    Case(id='h16-150', category='address', container='note',
         text='Алматы — квартира на семестр\nАдрес: г. Алматы, Медеуский район, мкр. Самал-2, д. 58, кв. 112\nКлючи у соседки.\n',
         secrets=('мкр. Самал-2, д. 58, кв. 112',)),
    Case(id='h16-151', category='address', container='note',
         text='Kot à Ixelles\nAdresse : Rue de la Brasserie 47 bte 3, 1050 Ixelles\nLoyer 620 € charges comprises\n',
         secrets=('Rue de la Brasserie 47 bte 3',)),
    Case(id='h16-152', category='address', container='note',
         text='Albérlet Budapest\nCím: 1114 Budapest, Bartók Béla út 61. 3. em. 12. ajtó\nKapukód a tulajdonostól\n',
         secrets=('Bartók Béla út 61. 3. em. 12. ajtó',)),
    Case(id='h16-153', category='address', container='note',
         text='Chirie Cluj-Napoca\nAdresa: Str. Observatorului nr. 34, bl. C3, sc. 2, et. 4, ap. 41, Cluj-Napoca\n',
         secrets=('Str. Observatorului nr. 34, bl. C3, sc. 2, et. 4, ap. 41',)),
    Case(id='h16-154', category='address', container='note',
         text='寄书地址：广州市番禺区翠湖山庄二期C区12栋2梯1503，收件人 陈同学\n',
         secrets=('翠湖山庄二期C区12栋2梯1503',)),
    Case(id='h16-155', category='address', container='note',
         text='Nairobi internship housing\nAddress: Apt C4, Block 2, Riverside Gardens, Riverside Drive, Kileleshwa, Nairobi\nCaretaker: Mr. Otieno\n',
         secrets=('Apt C4, Block 2, Riverside Gardens, Riverside Drive',)),
    Case(id='h16-156', category='address', container='note',
         text='Colombo homestay\nNo. 45/2, Temple Lane, off Galle Road, Wellawatte, Colombo 06\n',
         secrets=('No. 45/2, Temple Lane, off Galle Road',)),
    Case(id='h16-157', category='otp_secret', container='txt',
         text='Title,URL,Username,Password,Notes,OTPAuth\nportal.example.edu (s2023118),https://portal.example.edu,s2023118,,,otpauth://totp/portal.example.edu:s2023118?secret=VEFYHTMP4NXFCK74JVA2YYMOXLIEV436&issuer=portal.example.edu&algorithm=SHA1&digits=6&period=30\n',
         secrets=('VEFYHTMP4NXFCK74JVA2YYMOXLIEV436',)),
    Case(id='h16-158', category='otp_secret', container='json',
         text='[\n  {\n    "name": "GitHub: lin-xw",\n    "decryptedSecret": "FM56AWFB6NJOHZ3QNJDBX7ORTLO2YIYG",\n    "digits": 6,\n    "account_type": "github",\n    "issuer": "GitHub"\n  }\n]',
         secrets=('FM56AWFB6NJOHZ3QNJDBX7ORTLO2YIYG',)),
    Case(id='h16-159', category='otp_secret', container='json',
         text='{\n  "items": [\n    {\n      "title": "Discord",\n      "category": "login",\n      "fields": [\n        {\n          "label": "Username",\n          "type": "username",\n          "value": "lxw#0421"\n        },\n        {\n          "label": "TOTP",\n          "type": "totp",\n          "value": "B33RS2KVAH3AE4KWZMJI42ZQM2",\n          "sensitive": 1\n        }\n      ]\n    }\n  ]\n}',
         secrets=('B33RS2KVAH3AE4KWZMJI42ZQM2',)),
    Case(id='h16-160', category='otp_secret', container='txt',
         text='username,username2,username3,title,password,note,url,category,otpUrl\nkim.s@naver.com,,,Notion,,,https://www.notion.so,,otpauth://totp/Notion:kim.s?secret=CAMQXKNMHP5KGFI3KROWH7I5IZAJNIBN&issuer=Notion\n',
         secrets=('CAMQXKNMHP5KGFI3KROWH7I5IZAJNIBN',)),
    Case(id='h16-161', category='otp_secret', container='md',
         text='手机丢了之后重新绑定用的二维码（自己生成的）：\n\n![vpn-2fa](https://api.qrserver.com/v1/create-qr-code/?size=200x200&data=otpauth%3A%2F%2Ftotp%2FUniVPN%3Azhao.m%3Fsecret%3D75JXOJALTVVBNIDXL2WLPMYTK46VFUMG%26issuer%3DUniVPN)\n',
         secrets=('75JXOJALTVVBNIDXL2WLPMYTK46VFUMG',)),
    Case(id='h16-162', category='otp_secret', container='md',
         text='```swift\nimport SwiftOTP\n\nguard let data = base32DecodeToData("V5KVKTWKATUEL24O7VJEXJ4OVNCBBTGQ") else { fatalError() }\nlet totp = TOTP(secret: data, digits: 6, timeInterval: 30, algorithm: .sha1)\nprint(totp?.generate(time: Date()) ?? "-")\n```\n',
         secrets=('V5KVKTWKATUEL24O7VJEXJ4OVNCBBTGQ',)),
    Case(id='h16-163', category='otp_secret', container='md',
         text='```elixir\nsecret = Base.decode32!("K3L3T6LY5SYOMYLXZ7E3B7XZAOVDPTF5")\nNimbleTOTP.verification_code(secret)\n```\n',
         secrets=('K3L3T6LY5SYOMYLXZ7E3B7XZAOVDPTF5',)),
    Case(id='h16-164', category='otp_secret', container='txt',
         text='BEGIN:VEVENT\nDTSTART:20250401T090000Z\nSUMMARY:重新绑定校园 VPN 的 2FA\nDESCRIPTION:扫不了码就手动输入: otpauth://totp/CampusVPN:wu.h?secret=AM5JZRSIKXP6ZP2VE7KSIWAR7BEC6TVZ&issuer=CampusVPN\nEND:VEVENT\n',
         secrets=('AM5JZRSIKXP6ZP2VE7KSIWAR7BEC6TVZ',)),
    Case(id='h16-165', category='recovery_phrase', container='note',
         text='Proton Mail 账户恢复短语（Settings → Recovery）：\nproud pattern child season dream rebuild forget over orphan ride episode panel\n打印一份放抽屉。\n',
         secrets=('proud pattern child season dream rebuild forget over orphan ride episode panel',)),
    Case(id='h16-166', category='recovery_phrase', container='txt',
         text='$ cast wallet new-mnemonic\n\x1b[32mSuccessfully generated a new mnemonic.\x1b[0m\nPhrase:\ncombine april tape local slender title alpha aunt search horse excuse jaguar\n\nAccounts:\n- Account 0:\nAddress:     0x25097d30AAaebA30AA63A222041a13D9C5afa03a\nPrivate key: 0x242a84bf3d314d363ec2a4635c0a95c65e5917f7124dc1e9921100263aa0ccf6\n',
         secrets=('combine april tape local slender title alpha aunt search horse excuse jaguar', '0x242a84bf3d314d363ec2a4635c0a95c65e5917f7124dc1e9921100263aa0ccf6')),
    Case(id='h16-167', category='recovery_phrase', container='txt',
         text='diff --git a/tests/fixtures/wallet.py b/tests/fixtures/wallet.py\n--- a/tests/fixtures/wallet.py\n+++ b/tests/fixtures/wallet.py\n@@ -1,3 +1,4 @@\n NETWORK = "testnet"\n+MNEMONIC = "impar oponer verano peón gorra acoso tripa padre rato pésimo remo pronto"\n DERIVATION = "m/84\'/1\'/0\'"\n',
         secrets=('impar oponer verano peón gorra acoso tripa padre rato pésimo remo pronto',)),
    Case(id='h16-168', category='recovery_phrase', container='note',
         text='写给自己的诗（每行第一个词连起来就是钱包助记词，别告诉别人）\n\nCrowd rises over the quiet harbour\nDivide and the lamps begin to glow\nToward where the gulls forget their names\nCarpet like a letter never sent\nStock through the winter of the year\nAdapt on the road that has no end\nTobacco in the hush before the rain\nControl as the tide turns back to sea\nMust beneath a sky of paper blue\nFriend where the old bells softly ring\nDraw in the garden of the night\nTopple till the morning finds us home\n',
         secrets=('Crowd', 'Divide', 'Toward', 'Carpet', 'Stock', 'Adapt', 'Tobacco', 'Control', 'Must', 'Friend', 'Draw', 'Topple')),
    Case(id='h16-169', category='recovery_phrase', container='json',
         text='{\n "cells": [\n  {\n   "cell_type": "code",\n   "execution_count": 3,\n   "id": "f0",\n   "metadata": {},\n   "outputs": [\n    {\n     "name": "stdout",\n     "output_type": "stream",\n     "text": [\n      "ちへいせん\u3000とおる\u3000たいめん\u3000にんめい\u3000ふりる\u3000さとし\u3000おうたい\u3000うなぎ\u3000だっこ\u3000おそらく\u3000すやき\u3000うなる\\n"\n     ]\n    }\n   ],\n   "source": [\n    "from mnemonic import Mnemonic\\n",\n    "m = Mnemonic(\'japanese\')\\n",\n    "print(m.generate(128))"\n   ]\n  }\n ],\n "metadata": {},\n "nbformat": 4,\n "nbformat_minor": 5\n}',
         secrets=('ちへいせん\u3000とおる\u3000たいめん\u3000にんめい\u3000ふりる\u3000さとし\u3000おうたい\u3000うなぎ\u3000だっこ\u3000おそらく\u3000すやき\u3000うなる',)),
    Case(id='h16-170', category='recovery_phrase', container='txt',
         text='2025년 2월 3일 월요일\n[나] [오후 11:02] 지갑 복구 단어 백업\n[나] [오후 11:02] 형사 비닐 학번 상품 공통 초순 필자 암컷 간장 즉시 영하 예전\n[나] [오후 11:03] 종이에도 적어둠\n',
         secrets=('형사 비닐 학번 상품 공통 초순 필자 암컷 간장 즉시 영하 예전',)),
    Case(id='h16-171', category='recovery_phrase', container='note',
         text='錢包備份卡（直式書寫，拍照 OCR）\n畢\n足\n肯\n泡\n自\n矩\n持\n弱\n故\n卸\n雨\n這\n——請勿拍照上傳\n',
         secrets=('畢\n足\n肯\n泡\n自\n矩\n持\n弱\n故\n卸\n雨\n這',)),
    Case(id='h16-172', category='recovery_phrase', container='note',
         text='SeedSigner 的 CompactSeedQR 用手机扫出来是二进制（记在这里以防卡丢了）：\n11101110010011010001111101101000001110110100001011101111110101110101111110101100110001000010001001100000010101111010001111011001\n',
         secrets=('11101110010011010001111101101000001110110100001011101111110101110101111110101100110001000010001001100000010101111010001111011001',)),
    Case(id='h16-173', category='recovery_phrase', container='json',
         text='{\n "name": "Saved Messages",\n "type": "saved_messages",\n "id": 777000,\n "messages": [\n  {\n   "id": 4411,\n   "type": "message",\n   "date": "2025-01-21T22:40:11",\n   "from": "Alexei",\n   "text": [\n    {\n     "type": "bold",\n     "text": "сид-фраза (резерв)"\n    },\n    "\\nизрядно идея парень наследие выгнать убогий муравей прелесть класс анкета голова бригада"\n   ]\n  }\n ]\n}',
         secrets=('изрядно идея парень наследие выгнать убогий муравей прелесть класс анкета голова бригада',)),
    Case(id='h16-174', category='licence_plate', container='note',
         text='Оренда авто у Львові\nномерний знак: АА 1785 ВК\nповернути до 20:00\n',
         secrets=('АА 1785 ВК',)),
    Case(id='h16-175', category='licence_plate', container='note',
         text='Такси до аэропорта Алматы\nводитель Ерлан, Toyota Camry, госномер 112 BXA 02\n',
         secrets=('112 BXA 02',)),
    Case(id='h16-176', category='licence_plate', container='note',
         text='Parkeervergunning Leuven\nnummerplaat: 1-FRW-142\nzone: blauwe zone\n',
         secrets=('1-FRW-142',)),
    Case(id='h16-177', category='licence_plate', container='note',
         text='Mașina colegului pentru excursie\nnumăr de înmatriculare: CJ 95 FVG\nplecare 8:00 din fața căminului\n',
         secrets=('CJ 95 FVG',)),
    Case(id='h16-178', category='licence_plate', container='note',
         text='গাড়ির তথ্য\nনম্বর প্লেট: ঢাকা মেট্রো-গ ২০-৩৭৭৩\nচালক: করিম\n',
         secrets=('ঢাকা মেট্রো-গ ২০-৩৭৭৩',)),
    Case(id='h16-179', category='licence_plate', container='note',
         text='خودروی پدر\nپلاک: ۹۸ ب ۹۶۸ ایران ۷۸\nبیمه تا اسفند\n',
         secrets=('۹۸ ب ۹۶۸ ایران ۷۸',)),
    Case(id='h16-180', category='licence_plate', container='note',
         text='Lahore carpool\nDriver: Usman, Suzuki Cultus, gari number LEA-5546\npickup 7:45 at hostel gate\n',
         secrets=('LEA-5546',)),
    Case(id='h16-181', category='licence_plate', container='txt',
         text='<EventNotificationAlert version="2.0">\n<ipAddress>192.168.1.64</ipAddress>\n<dateTime>2025-03-02T18:31:07+08:00</dateTime>\n<eventType>ANPR</eventType>\n<ANPR><country>CHN</country><licensePlate>浙AC5K75</licensePlate><confidenceLevel>97</confidenceLevel><plateColor>blue</plateColor></ANPR>\n</EventNotificationAlert>\n',
         secrets=('浙AC5K75',)),
]
