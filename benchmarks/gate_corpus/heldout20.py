"""Held-out batch 20: secrets and personal data in shapes the gate was not designed around.

Written in session 19 by an engineer (gwriter) who had read DESIGN.md, the README's privacy
paragraph, the corpus format (``__init__``, bench_gate.py's docstring) and only the docstrings of the
earlier batches (heldout to heldout19, the sealed heldout17, negatives to negatives18 and the sealed
negatives16), never the detectors, the earlier batches' cases nor the gate's tests; the gate was not
run on it while it was written (sealed in
/root/lead19/gate; measured there, released in session 20). 179 cases:
api_key 40, auth_header 10, connection_string 12, private_key 10, password 25, resident_id 12, mobile 10, bank_card 10, email 8, passport 8, address 9, otp_secret 8, recovery_phrase 9, licence_plate 8.
Values generated for the corpus (gen20.py with gen20_util.py, seed 2020, kept outside the repository): keys random
in each provider's shape (many 2024-2026 services, most without a well-known prefix, in containers the
earlier batches did not use: Typst, Marimo, Helix, Sublime, .Renviron, deno.json, Truss, SillyTavern,
Node-RED, Tasker, Obsidian Canvas, Excalidraw, terraform output, docker compose config, set -x CI traces,
pdb, supervisord, PM2, Sysmon events, reST grid tables, ipywidgets state, PR review comments; and encoded
or split as YAML !!binary, a Java byte[], a data: URI, certutil -encode armour, Base58, printf and SQL
CONCAT halves, a hyphen broken by PDF extraction), private keys real but built from the seed's bytes and
thrown away (EC P-256/P-384 from seeded scalars, Ed25519 and X25519 from seeded bytes; the Tink keyset's
proto, the Electrum WIF and the Tezos edsk with their base58check checksums, an XRPL family seed in
Ripple's base58 alphabet), ID, card and account numbers built to pass their checks where the format has
one (CN GB 11643, Korean foreigner registration number, Moldovan IDNP 7-3-1, Dominican cédula Luhn,
Guatemalan CUI mod-11, Kuwaiti civil ID mod-11, the German ID card's restricted alphabet, card Luhn for
Napas/Bancontact/ArCa/Visa/Mastercard/UnionPay, IBAN mod-97 for AT/GR/JO/CZ, the visa MRZ's check
digits), BIP39 phrases with valid checksums (English, Spanish, French, Italian, Simplified Chinese; one
24-word phrase as hex wordlist indices) from mnemonic 0.21 installed by pip into a
private folder; none belongs to anyone. Addresses are labelled from the road, house, building or
village down (city and district left, as the gate's design says); a home given as coordinates by its two
E7 integers. Encoded secrets (base64 in YAML !!binary, a data: URI and certutil armour, Base58, a Java
byte[] of decimals, a MySQL history with \040, a password spelled out in words) are labelled as they
appear in the text; a split key part by part; a card on an HTML page group by group; a phrase in a list,
table, hashtags or HTML word by word (each occurs once in its text), otherwise as one string.

Shapes, one per case (category: shape):
api_key: SambaNova Cloud key (a bare UUID) bound with #let in a Typst lab-report source
api_key: Cerebras key (csk-) inline in a deno.json task command
api_key: Baseten API key (8 chars, dot, 32 chars) under secrets: in a Truss config.yaml
api_key: Friendli Suite token (flp_) passed to helm install with --set in a deployment note
api_key: Featherless AI key (rc_ + 64 hex) in a SillyTavern secrets.json
api_key: DeepSeek key in a Helix editor languages.toml (lsp-ai language server config)
api_key: DashScope (通义千问) key in an R ~/.Renviron file
api_key: Moonshot (Kimi) key in a Sublime Text .sublime-settings file (JSON with comments)
api_key: xAI key in a Marimo notebook (.py file with @app.cell functions)
api_key: Gemini key in a Flutter --dart-define-from-file config/dev.json
api_key: Anthropic key in a bash history file written with HISTTIMEFORMAT (#epoch lines between commands)
api_key: OpenAI project key broken after a hyphen by PDF text extraction (labelled part by part)
api_key: Voyage AI key stored as a YAML !!binary (base64) value
api_key: Mistral key in a TOML multi-line literal string ('''...''') of a pyproject tool table
api_key: OpenRouter key given to `gh secret set --body` in zsh history
api_key: Groq key in a `fly secrets set` command pasted into a deploy checklist
api_key: Replicate token fed to `wrangler secret put` through a heredoc
api_key: Perplexity key stored as a plain String parameter with `aws ssm put-parameter` (not SecureString)
api_key: AccuWeather key inside a Node-RED flows.json function node's code string
api_key: Pushbullet access token (o.) in a Tasker XML profile's HTTP Request header
api_key: Cohere key (40 characters) in a text node of an Obsidian Canvas (.canvas JSON)
api_key: Miro access token in a text element of an Excalidraw scene (.excalidraw JSON)
api_key: Datadog application key (40 hex) printed by `terraform output -json` (output not marked sensitive)
api_key: LangSmith key (lsv2_pt_) in resolved `docker compose config` output
api_key: Unstructured.io key in a GitLab CI job log traced with `set -x` (+ curl -H ...)
api_key: Mathpix app_key in a pdb session printing a request's headers dict
api_key: Tencent Cloud SecretKey in a supervisord.conf environment= line (SecretId beside it is an id)
api_key: Aliyun AccessKey Secret in a PM2 ecosystem.config.js env_production block
api_key: Zhipu (智谱) key kept as a Java byte[] of decimal values and turned into a String at run time
api_key: SiliconFlow key inside a data:text/plain;base64 URI kept as a browser bookmark
api_key: Volcengine Ark (豆包) key in a .env run through `certutil -encode` (base64 inside BEGIN CERTIFICATE armour)
api_key: ElevenLabs key stored Base58-encoded in a Rust const and decoded with bs58
api_key: Together AI key assembled in a shell script with printf '%s%s' from two halves
api_key: Recraft API key stored with SQL CONCAT of two literals in a settings UPDATE
api_key: Cloudflare API token in a Slack export message (text and rich_text blocks)
api_key: Lepton AI token in a GitHub PR review comment quoting a suggestion block
api_key: Gladia key (a UUID) inside an escaped JSON string of a structured log line from `kubectl logs`
api_key: Kaggle API key (32 hex) in a reStructuredText grid table of course accounts
api_key: Clarifai PAT typed into an ipywidgets Text box and saved in the notebook's widget-state metadata
api_key: Azure OpenAI key in a Sysmon Event ID 1 CommandLine field (Event Viewer XML copy)
auth_header: Firefox cookies.sqlite queried with sqlite3 (host|name|value rows) to reuse a login
auth_header: Authorization header echoed back by httpbin.org/headers in a debugging note
auth_header: bearer JWT added upstream by an Envoy route's request_headers_to_add
auth_header: Basic credentials in a Traefik headers middleware customRequestHeaders
auth_header: bearer token on a `hey` load-test command line in a performance-lab note
auth_header: bearer token sent with `websocat -H` to a classroom WebSocket
auth_header: session cookie in a Chrome net-export (chrome://net-export) NetLog JSON
auth_header: 雪球 (Xueqiu) xq_a_token cookie in a pandas scraping script
auth_header: 12306 login cookie (tk) in a ticket-grabbing tool's config
auth_header: X-Auth-Token header seen in ngrep output of plain-HTTP traffic in a networking lab
connection_string: MongoDB Atlas SRV URL in a MongoDB Compass connections export (favorites JSON)
connection_string: TDengine taos CLI with -u and glued -p password in an IoT course note
connection_string: Nebula Graph console login with -u/-p in a graph-database lab transcript
connection_string: Vertica vsql with -U and -w password in a data-warehouse course script
connection_string: SAP ASE (Sybase) isql with -U and -P in a legacy-systems lab
connection_string: sshfs mount fed a password on stdin (-o password_stdin) in an rc script
connection_string: IMAP password as remotepass= in an ~/.offlineimaprc
connection_string: registry credentials given to `skopeo copy --src-creds user:password`
connection_string: Grafana datasource provisioning file with secureJsonData.password
connection_string: legacy Sentry DSN with a secret key (https://public:secret@host/project) in Django settings
connection_string: ClickHouse HTTP interface URL with user= and password= query parameters
connection_string: strongSwan /etc/ipsec.secrets with a PSK and an EAP user password
private_key: EC key PEM file run through `certutil -encode` (base64 of the whole PEM inside BEGIN CERTIFICATE armour)
private_key: `openssl asn1parse` of an EC private key: the scalar as the OCTET STRING [HEX DUMP]
private_key: Google Tink cleartext JSON keyset holding an Ed25519 private key (base64 of the key proto)
private_key: WireGuard private key in a MikroTik RouterOS /interface wireguard export
private_key: Electrum console getprivatekeys output (p2wpkh: + compressed WIF) for a course wallet
private_key: Tezos unencrypted secret key (edsk…) in an octez-client secret_keys file
private_key: XRP Ledger family seed (s…, Ripple base58) in a blockchain-course testnet note
private_key: Ed25519 PKCS#8 key as one base64 literal fed to Java PKCS8EncodedKeySpec
private_key: EC P-384 PKCS#8 key body split across three environment variables (KEY_PART_1..3) to fit a size limit
private_key: Cosmos SDK `keys export --unarmored-hex --unsafe` output (raw secp256k1 key as hex)
password: Uzbek 'parol' label for a university portal in a Tashkent exchange note
password: Azerbaijani 'şifrə' label for a dormitory Wi-Fi in a Baku note
password: Malayalam പാസ്‌വേഡ് label in a Kochi internship note
password: Esperanto 'pasvorto' label in a language-club note
password: Uyghur پارول label (Arabic script) in a Ürümqi note
password: Kyrgyz 'сырсөз' label in a Bishkek summer-school note
password: Chrome 'Export passwords' CSV (name,url,username,password,note)
password: Wi-Fi key in `nmcli -s connection show` output (802-11-wireless-security.psk)
password: FTP USER/PASS seen in a Wireshark 'Follow TCP Stream' of the control channel
password: IMAP LOGIN command in an `openssl s_client` session transcript
password: password in ~/.mysql_history, where spaces are stored as \040
password: Tencent Meeting (腾讯会议) meeting password in a study-group invite
password: Zoom meeting passcode in an invitation pasted into a seminar note
password: Steam Family View PIN in a note about a sibling's account
password: plaintext passwords in an SQL dump of a student project's users table
password: keystore password as a Java char array literal of single characters
password: password decoded from a Kubernetes secret with `kubectl get secret … | base64 -d` in a transcript
password: Jenkins initialAdminPassword (32 hex) printed with docker exec cat
password: GitLab /etc/gitlab/initial_root_password file content
password: elastic user password in Elasticsearch's first-start banner (ANSI-free copy)
password: MySQL temporary root password in the mysqld --initialize error log
password: password typed by an i3 keybinding with `xdotool type`
password: password spelled out character by character in a voice-message transcript (Chinese)
password: SFTP password in a VS Code SFTP extension .vscode/sftp.json
password: password typed at the shell prompt by mistake after a sudo timeout (bash: …: command not found)
resident_id: Korean foreigner registration number (외국인등록번호, RRN layout, 5-8 gender digit, foreigner check) in a Seoul note
resident_id: Moldovan IDNP (13 digits, 7-3-1 check) in a Chișinău summer-school form draft
resident_id: Dominican cédula (11 digits, Luhn) in a Santo Domingo volunteer registration
resident_id: Guatemalan DPI/CUI (8-digit serial, mod-11 check, department and municipality) in an Antigua homestay form
resident_id: Kuwaiti Civil ID (12 digits, weighted mod-11 check) with the Arabic label الرقم المدني
resident_id: Georgian personal number (პირადი ნომერი, 11 digits) in a Tbilisi rental note
resident_id: German Personalausweis document number (9 characters from its restricted alphabet) on a Bürgeramt note
resident_id: Sri Lankan new-format NIC (12 digits: year, day of year +500, serial) in a Colombo internship form
resident_id: Egyptian national ID (14 digits: century, birth date, governorate, serial) with the Arabic label الرقم القومي
resident_id: Chinese ID number in a hotel PMS check-in XML message
resident_id: Chinese ID number in the WHERE clause of a MySQL slow-query log entry
resident_id: Chinese ID number in a WeChat mini-program wx.request data object (real-name check)
mobile: Jordanian mobile (+962 7x) with the Arabic label رقم الخلوي
mobile: Lebanese mobile (+961 3 / 7x) in a Beirut flat-share note
mobile: Ivorian mobile (10 digits, 07 …) with 'cel' in an Abidjan note
mobile: Ugandan mobile (+256 7xx) as an Airtel Money number in a volunteer note
mobile: Myanmar mobile (+95 9) with the Burmese label ဖုန်းနံပါတ်
mobile: Cambodian mobile (+855) with the Khmer label លេខទូរស័ព្ទ
mobile: Venezuelan mobile as a Pago Móvil payee (phone, cédula, bank code) in a Caracas note
mobile: Serbian mobile (06x) with 'mobilni' in a Novi Sad dorm note
mobile: Chinese mobile in the P-Asserted-Identity and From headers of a VoLTE SIP INVITE captured in a lab
mobile: Chinese mobile with a +86- prefix in a Feishu (飞书) member-roster CSV export
bank_card: Vietnamese Napas domestic card (9704…) with 'số thẻ' in a Zalo chat export
bank_card: Belgian Bancontact card number (6703…, 17 digits) with 'kaartnummer' in a Leuven note
bank_card: Armenian ArCa card (9051…) with the Armenian label քարտի համար
bank_card: Austrian IBAN (AT, 20 characters) in a WG cost-split CSV
bank_card: Greek IBAN (GR, 27 characters) with the label αριθμός λογαριασμού
bank_card: Jordanian IBAN (JO, 30 characters with a bank code) with an Arabic label
bank_card: Czech IBAN inside a QR Platba payment payload (SPD*1.0*ACC:…)
bank_card: Visa number in a Swift struct literal used by a SwiftUI preview (a real card, not a test card)
bank_card: Mastercard number on a saved bank 'card details' HTML page, each group in its own span (labelled group by group)
bank_card: 19-digit UnionPay salary card in a payslip (工资条) CSV export
email: personal Google account in `adb shell dumpsys account` output
email: active personal account in `gcloud auth list` output
email: UserEmail in `dsregcmd /status` output on a lab laptop
email: address dictated with 골뱅이 (Korean for @) and 닷 in a Korean note
email: address dictated with 'собака' (Russian for @) and 'точка' in a language-exchange note
email: personal address under profile.email in a Slack workspace export users.json
email: From: header with an RFC 2047 encoded display name in a `git format-patch` file
email: signed-in account in a Chrome profile's Preferences JSON (account_info)
passport: Sri Lankan passport (N + 7 digits) as 'PP No' in a Colombo conference note
passport: Moroccan passport (2 letters + 7 digits) with French and Arabic labels
passport: Finnish passport (2 letters + 7 digits) with 'passin numero'
passport: Greek passport (2 letters + 7 digits) with 'αριθμός διαβατηρίου'
passport: Czech passport (8 digits) with 'číslo pasu' in a Brno dorm note
passport: Chinese passport number inside the machine-readable zone of a visa foil (MRV-A, VC…) read by OCR
passport: passport number in an APIS passenger manifest CSV for a student charter flight
passport: passport number in `pdftk dump_data_fields` output of an Indian e-Visa form
address: Islamabad sector address (House #, Street #, F-7/2) in a homestay note
address: Dhaka house/road/block address (Banani style) in a volunteer note
address: Ulaanbaatar khoroo/building/apartment (хороо, байр, тоот) address
address: Caracas address with Urb., Edif., Piso and Apto
address: Reykjavík street address with floor and side (hæð til vinstri)
address: Tallinn address with street, house and flat (maja-korter) and 'korter'
address: New Territories village house (村 + 號 + 地下) with its DD lot number
address: detailInfo of a WeChat wx.chooseAddress result logged by a mini-program
address: home location as latitudeE7/longitudeE7 integers in a Google Takeout Semantic Location History file
otp_secret: GitLab user's otp_secret read in a Rails console session
otp_secret: WordPress Two-Factor plugin TOTP key in a wp_usermeta row of an SQL dump
otp_secret: TOTP seed of a user in an OPNsense config.xml backup (<otp_seed>)
otp_secret: Bitwarden two-step login recovery code (32 characters) in a checklist
otp_secret: X (Twitter) login backup code (12 lower-case characters) in a note
otp_secret: otpauth URI with a raw Chinese issuer as the target of a Markdown link in Obsidian
otp_secret: hand-rolled TOTP with hmac and base64.b32decode of a literal seed in a class exercise
otp_secret: TOTP seed in a Google Sheets formula (custom =TOTP() function) exported with 'Show formulas' as CSV
recovery_phrase: English BIP39 words written as hashtags at the end of a note
recovery_phrase: Spanish BIP39 words as rows of an SQL INSERT … VALUES (position, word)
recovery_phrase: English phrase given to bitcoinj MnemonicCode.toSeed in a Kotlin test
recovery_phrase: French BIP39 phrase in a Swift Mnemonic(phrase:) call (WalletCore)
recovery_phrase: Italian BIP39 words as an HTML ordered list in a saved offline page
recovery_phrase: 24-word phrase kept as wordlist indices in hex in a C array (firmware-style backup)
recovery_phrase: English phrase typed on a Russian keyboard layout by mistake (ЙЦУКЕН gibberish)
recovery_phrase: 24-word phrase in a truffle-config.js HDWalletProvider call
recovery_phrase: Simplified-Chinese BIP39 characters written as a four-line three-character 'rhyme' with commas
licence_plate: Dubai plate (emirate, code letter, five digits) in a parking note
licence_plate: Nepali plate in Devanagari (बा १ च १२३४) in a Kathmandu note
licence_plate: Georgian plate (AA-123-AA) with 'სახელმწიფო ნომერი'
licence_plate: Kenyan plate (KDA 123A) in a Nairobi volunteer note
licence_plate: Bulgarian plate (СА 1234 АВ, Cyrillic letters) with 'рег. номер'
licence_plate: Argentine Mercosur plate (AB 123 CD) with 'patente'
licence_plate: Chinese plate in a 12123 traffic-violation SMS forwarded into a note
licence_plate: Chinese plate typed in full-width letters and digits in a property-management parking form
"""

from benchmarks.gate_corpus import Case

CASES = [
    Case(id='h20-001', category='api_key', container='txt',
         text='#set page(paper: "a4")\n#set text(font: "Noto Serif CJK SC", lang: "zh")\n// 实验四：大模型推理延迟测量\n#let endpoint = "https://api.sambanova.ai/v1/chat/completions"\n#let sn_key = "ab9f01dc-2cad-488e-9e96-f7509ea2a536"\n#let model = "Meta-Llama-3.3-70B-Instruct"\n\n= 实验步骤\n用 `curl` 调 #raw(endpoint)，模型 #raw(model)，连续请求 50 次记录首字延迟。\n',
         secrets=('ab9f01dc-2cad-488e-9e96-f7509ea2a536',)),
    Case(id='h20-002', category='api_key', container='json',
         text='{\n  "tasks": {\n    "dev": "CEREBRAS_API_KEY=csk-324x08kf3pn0nj42gk584c2dwnh8fqjb8t3pt63p6c7ppssi deno run --allow-net --allow-env main.ts",\n    "fmt": "deno fmt"\n  },\n  "imports": {\n    "@std/dotenv": "jsr:@std/dotenv@^0.225.0"\n  }\n}',
         secrets=('csk-324x08kf3pn0nj42gk584c2dwnh8fqjb8t3pt63p6c7ppssi',)),
    Case(id='h20-003', category='api_key', container='yaml',
         text='model_name: whisper-course-demo\npython_version: py311\nrequirements:\n  - openai-whisper==20240930\nresources:\n  accelerator: T4\n  use_gpu: true\nsecrets:\n  baseten_api_key: "UByNX00s.kTC2wOgf6pKpJIZG5OcGgid9wp4JD2Tg"\n  hf_access_token: null\n',
         secrets=('UByNX00s.kTC2wOgf6pKpJIZG5OcGgid9wp4JD2Tg',)),
    Case(id='h20-004', category='api_key', container='note',
         text='部署 friendli 的 serverless 代理到课程集群：\n\nhelm upgrade --install friendli-proxy ./charts/proxy -n nlp-course \\\n  --set image.tag=0.9.2 \\\n  --set env.FRIENDLI_TOKEN=flp_BOY3oF3ZZvRCfmuwbHEM30OZ8NWM1PIWz9zQ8qQTOeu \\\n  --set replicas=1\n\n记得下周把 token 挪进 sealed secret。',
         secrets=('flp_BOY3oF3ZZvRCfmuwbHEM30OZ8NWM1PIWz9zQ8qQTOeu',)),
    Case(id='h20-005', category='api_key', container='json',
         text='{\n    "api_key_openai": "",\n    "api_key_featherless": "rc_3fcb70c38aeb24d00f4c02638e85d70eb27e9c6ccf74b2ecfc92deab64ee8dab",\n    "api_key_novel": "",\n    "sd_auto_auth": ""\n}',
         secrets=('rc_3fcb70c38aeb24d00f4c02638e85d70eb27e9c6ccf74b2ecfc92deab64ee8dab',)),
    Case(id='h20-006', category='api_key', container='txt',
         text='[language-server.lsp-ai]\ncommand = "lsp-ai"\n\n[language-server.lsp-ai.config.memory]\nfile_store = { }\n\n[language-server.lsp-ai.config.models.model1]\ntype = "open_ai"\nchat_endpoint = "https://api.deepseek.com/chat/completions"\nmodel = "deepseek-chat"\nauth_token = "sk-f9eb6afc27acdb8ea041e0c57ae4ebc6"\n\n[[language]]\nname = "python"\nlanguage-servers = ["pyright", "lsp-ai"]\n',
         secrets=('sk-f9eb6afc27acdb8ea041e0c57ae4ebc6',)),
    Case(id='h20-007', category='api_key', container='env',
         text='R_LIBS_USER=~/R/library\nRETICULATE_PYTHON=~/.venvs/stats/bin/python\nDASHSCOPE_API_KEY=sk-a81d9f37d5fdc585380ead3407485d92\n_R_CHECK_FORCE_SUGGESTS_=false\n',
         secrets=('sk-a81d9f37d5fdc585380ead3407485d92',)),
    Case(id='h20-008', category='api_key', container='json',
         text='// Settings in here override those in "OpenAI completion/openAI.sublime-settings"\n{\n    // Kimi 的接口兼容 OpenAI\n    "url": "https://api.moonshot.cn",\n    "token": "sk-AO5n5pDQUIjJRMwRCEqk7dGSKtTnseYVqyzZbMM6CvzOF5gl",\n    "chat_model": "moonshot-v1-8k",\n    "markdown": true,\n}\n',
         secrets=('sk-AO5n5pDQUIjJRMwRCEqk7dGSKtTnseYVqyzZbMM6CvzOF5gl',)),
    Case(id='h20-009', category='api_key', container='py',
         text='import marimo\n\n__generated_with = "0.9.14"\napp = marimo.App(width="medium")\n\n\n@app.cell\ndef __():\n    import marimo as mo\n    from openai import OpenAI\n    return OpenAI, mo\n\n\n@app.cell\ndef __(OpenAI):\n    client = OpenAI(base_url="https://api.x.ai/v1", api_key="xai-wBssSLOsQRG8taIeryW63vexlchKsAaoJFLQuuPakyfclDksacGmvSNvU3AaxnxY9rQRIy0EfmQvl2fa")\n    return (client,)\n\n\nif __name__ == "__main__":\n    app.run()\n',
         secrets=('xai-wBssSLOsQRG8taIeryW63vexlchKsAaoJFLQuuPakyfclDksacGmvSNvU3AaxnxY9rQRIy0EfmQvl2fa',)),
    Case(id='h20-010', category='api_key', container='json',
         text='{\n  "APP_ENV": "dev",\n  "GEMINI_API_KEY": "AIzaF4386mTcXkVmGDDFPRE_iU_nYlzQ41YYYFd",\n  "SENTRY_ENABLED": false,\n  "API_BASE": "http://10.0.2.2:8080"\n}',
         secrets=('AIzaF4386mTcXkVmGDDFPRE_iU_nYlzQ41YYYFd',)),
    Case(id='h20-011', category='api_key', container='txt',
         text='#1718003312\ncd ~/courses/nlp/hw3\n#1718003320\nsource .venv/bin/activate\n#1718003371\nexport ANTHROPIC_API_KEY=sk-ant-api03-W1wzPPNmChnv4paRU78c2qXXXfziyYDgqs0XFiV9gJAuTPZAT8ix_-lfInUMt3-hQWbkfKhbkpV0snQWQT0z0h9kuneGvAA\n#1718003380\npython grade_essays.py --model claude-3-5-sonnet-latest --limit 20\n#1718003455\ngit status\n',
         secrets=('sk-ant-api03-W1wzPPNmChnv4paRU78c2qXXXfziyYDgqs0XFiV9gJAuTPZAT8ix_-lfInUMt3-hQWbkfKhbkpV0snQWQT0z0h9kuneGvAA',)),
    Case(id='h20-012', category='api_key', container='txt',
         text='第 3 页 / 共 7 页\n附录 B 环境配置\n在 .env 中填入助教分发的密钥（仅限本课程使用）：\nOPENAI_API_KEY= sk-proj-0G2e7W61noFfI_jsqWyhZCgYIArHyBjuPAphCZZd_u0h2QEUiWnEGqK0FFQot6PsJ_N_aTkS0a-\nuPKKwr2DVRrqcWiuZTqfsrfRPQNxV6PW232oTLQTT3BlbkFJJ0Csrmx4h4uqGH4vpUKS\n然后运行 python -m lab.check_env 验证。\n本讲义仅供选课学生使用，请勿外传。\n',
         secrets=('sk-proj-0G2e7W61noFfI_jsqWyhZCgYIArHyBjuPAphCZZd_u0h2QEUiWnEGqK0FFQot6PsJ_N_aTkS0a-', 'uPKKwr2DVRrqcWiuZTqfsrfRPQNxV6PW232oTLQTT3BlbkFJJ0Csrmx4h4uqGH4vpUKS')),
    Case(id='h20-013', category='api_key', container='yaml',
         text='# rag-homework settings\nembedding:\n  provider: voyage\n  model: voyage-3-lite\n  # 用 !!binary 存，免得一眼看到\n  key: !!binary |\n    cGEtWDVCUWdldVNlYk1UR082NFBLYUxmc3g5Q2hYbXhQVDVsUHpJTHhmMGk1NQ==\nretrieval:\n  top_k: 8\n',
         secrets=('cGEtWDVCUWdldVNlYk1UR082NFBLYUxmc3g5Q2hYbXhQVDVsUHpJTHhmMGk1NQ==',)),
    Case(id='h20-014', category='api_key', container='txt',
         text='[tool.poe.tasks]\nchat = "python -m tutor.chat"\n\n[tool.tutor]\nprovider = "mistral"\nmodel = "mistral-small-latest"\napi_key = \'\'\'\n1CFe8wLKOw5On57u9ixHB4kjsFZnE0TX\'\'\'\ntemperature = 0.3\n',
         secrets=('1CFe8wLKOw5On57u9ixHB4kjsFZnE0TX',)),
    Case(id='h20-015', category='api_key', container='note',
         text=': 1719821003:0;gh repo create study-bot --private --source=. --push\n: 1719821050:0;gh secret set OPENROUTER_API_KEY --body "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"\n: 1719821061:0;gh workflow run nightly.yml\n: 1719821102:0;gh run watch',
         secrets=('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',)),
    Case(id='h20-016', category='api_key', container='note',
         text='## 部署 checklist\n- [x] fly launch --no-deploy\n- [x] fly secrets set GROQ_API_KEY=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 DB_POOL=5\n- [ ] fly deploy --ha=false\n- [ ] 看一下 fly logs 有没有 429',
         secrets=('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',)),
    Case(id='h20-017', category='api_key', container='md',
         text="### Worker 的密钥\n\n```bash\nnpx wrangler secret put REPLICATE_API_TOKEN <<'EOF'\nr8_jo1udQp5W08GyoalkAI8xoq04b6SWcOWIgcgB\nEOF\nnpx wrangler deploy\n```\n",
         secrets=('r8_jo1udQp5W08GyoalkAI8xoq04b6SWcOWIgcgB',)),
    Case(id='h20-018', category='api_key', container='txt',
         text='PS C:\\Users\\lin\\lab> aws ssm put-parameter --name /studybot/pplx --type String --value "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" --overwrite\n{\n    "Version": 3,\n    "Tier": "Standard"\n}\n',
         secrets=('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',)),
    Case(id='h20-019', category='api_key', container='json',
         text='[\n {\n  "id": "a1f3c2.7d",\n  "type": "inject",\n  "name": "每天 7 点",\n  "crontab": "00 07 * * *"\n },\n {\n  "id": "b7e0d1.2c",\n  "type": "function",\n  "name": "build request",\n  "func": "msg.url = \'https://dataservice.accuweather.com/forecasts/v1/daily/1day/101924?apikey=sXVKrVlC0BZVThIBwGhDQy9hW4GlFn6H&language=zh-cn\';\\nreturn msg;",\n  "outputs": 1\n },\n {\n  "id": "c9a8e4.11",\n  "type": "http request",\n  "method": "GET",\n  "ret": "obj"\n }\n]',
         secrets=('sXVKrVlC0BZVThIBwGhDQy9hW4GlFn6H',)),
    Case(id='h20-020', category='api_key', container='txt',
         text='<TaskerData sr="" dvi="1" tv="6.3.13">\n\t<Task sr="task12">\n\t\t<cdate>1716712345678</cdate>\n\t\t<nme>作业提醒推送</nme>\n\t\t<Action sr="act0" ve="7">\n\t\t\t<code>339</code>\n\t\t\t<Str sr="arg1" ve="3">https://api.pushbullet.com/v2/pushes</Str>\n\t\t\t<Str sr="arg2" ve="3">Access-Token:o.SZfrC6nbHWKDW5RODQ3ij5gxYVzAFh4q\nContent-Type:application/json</Str>\n\t\t\t<Str sr="arg4" ve="3">{"type":"note","title":"DDL","body":"%par1"}</Str>\n\t\t</Action>\n\t</Task>\n</TaskerData>\n',
         secrets=('o.SZfrC6nbHWKDW5RODQ3ij5gxYVzAFh4q',)),
    Case(id='h20-021', category='api_key', container='json',
         text='{\n\t"nodes": [\n\t\t{\n\t\t\t"id": "c7723ac6a9881b00",\n\t\t\t"type": "text",\n\t\t\t"text": "## RAG 作业思路\\n检索 → 重排 → 生成",\n\t\t\t"x": -320,\n\t\t\t"y": -120,\n\t\t\t"width": 300,\n\t\t\t"height": 120\n\t\t},\n\t\t{\n\t\t\t"id": "fc4ab7908aeb95d9",\n\t\t\t"type": "text",\n\t\t\t"text": "重排用 Cohere rerank-v3.5\\nkey: tl3h1ToEYWoJgwFKkUCTNDTIara0OrUEqJg8w16A\\n（学生额度 1000 次/月）",\n\t\t\t"x": 40,\n\t\t\t"y": -120,\n\t\t\t"width": 280,\n\t\t\t"height": 140\n\t\t}\n\t],\n\t"edges": []\n}',
         secrets=('tl3h1ToEYWoJgwFKkUCTNDTIara0OrUEqJg8w16A',)),
    Case(id='h20-022', category='api_key', container='json',
         text='{\n  "type": "excalidraw",\n  "version": 2,\n  "source": "https://excalidraw.com",\n  "elements": [\n    {\n      "type": "rectangle",\n      "id": "wzzNQv8ZZOps8U-1mY0vH",\n      "x": 120,\n      "y": 80,\n      "width": 260,\n      "height": 90\n    },\n    {\n      "type": "text",\n      "id": "nJ_oOSLCwxbBZLN7-BPJG",\n      "x": 130,\n      "y": 95,\n      "width": 240,\n      "height": 50,\n      "text": "Miro REST token\\neyJtaXJvLm9yaWdpbiI6ImV1MDEifQ_bkElybkov5VV7PRmsYRZkCZloHS",\n      "fontSize": 16,\n      "fontFamily": 1\n    }\n  ],\n  "appState": {\n    "viewBackgroundColor": "#ffffff"\n  }\n}',
         secrets=('eyJtaXJvLm9yaWdpbiI6ImV1MDEifQ_bkElybkov5VV7PRmsYRZkCZloHS',)),
    Case(id='h20-023', category='api_key', container='txt',
         text='$ terraform output -json\n{\n  "dd_api_url": {\n    "sensitive": false,\n    "type": "string",\n    "value": "https://api.datadoghq.eu"\n  },\n  "dd_app_key": {\n    "sensitive": false,\n    "type": "string",\n    "value": "acbf5a3305ffd7ad90318fb3e348f4d9359da7cc"\n  }\n}\n',
         secrets=('acbf5a3305ffd7ad90318fb3e348f4d9359da7cc',)),
    Case(id='h20-024', category='api_key', container='yaml',
         text='name: rag-lab\nservices:\n  api:\n    build:\n      context: /home/wei/rag-lab\n      dockerfile: Dockerfile\n    environment:\n      LANGSMITH_API_KEY: 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\n      LANGSMITH_TRACING: "true"\n      LANGSMITH_PROJECT: rag-lab\n    networks:\n      default: null\n    ports:\n      - mode: ingress\n        target: 8000\n        published: "8000"\n        protocol: tcp\nnetworks:\n  default:\n    name: rag-lab_default\n',
         secrets=('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',)),
    Case(id='h20-025', category='api_key', container='txt',
         text="Running with gitlab-runner 17.2.0 (6428c282)\n$ set -x\n+ mkdir -p out\n+ curl -s -X POST https://api.unstructuredapp.io/general/v0/general -H 'accept: application/json' -H 'unstructured-api-key: exPwdxC4oYFaZ0ePCmwJgnETARPeMe' -F files=@slides/week3.pdf -o out/week3.json\n+ jq '. | length' out/week3.json\n212\nJob succeeded\n",
         secrets=('exPwdxC4oYFaZ0ePCmwJgnETARPeMe',)),
    Case(id='h20-026', category='api_key', container='txt',
         text="> /home/chen/ocr/mp.py(41)send()\n-> resp = requests.post(URL, headers=headers, json=payload)\n(Pdb) p headers\n{'app_id': 'chen_lab_2f91c3_a1b2c3', 'app_key': '38f65d5161dc525975d5130eb1c175cc55b04c6324a347ac8f005631775b7dbd', 'Content-type': 'application/json'}\n(Pdb) c\n",
         secrets=('38f65d5161dc525975d5130eb1c175cc55b04c6324a347ac8f005631775b7dbd',)),
    Case(id='h20-027', category='api_key', container='txt',
         text='[program:asr-worker]\ncommand=/opt/asr/.venv/bin/python worker.py\ndirectory=/opt/asr\nautostart=true\nautorestart=true\nenvironment=TENCENTCLOUD_SECRET_ID="AKIDyjbEYbGkpNcV2QfuyjQre3LUeauLdlCU",TENCENTCLOUD_SECRET_KEY="tWqVOAKkRVSumVGFKtiRwqVxyIHhiQ5W",TZ="Asia/Shanghai"\nstdout_logfile=/var/log/asr-worker.log\n',
         secrets=('tWqVOAKkRVSumVGFKtiRwqVxyIHhiQ5W',)),
    Case(id='h20-028', category='api_key', container='txt',
         text="module.exports = {\n  apps: [{\n    name: 'oss-uploader',\n    script: './dist/index.js',\n    instances: 1,\n    env_production: {\n      NODE_ENV: 'production',\n      ALIYUN_ACCESS_KEY_ID: 'LTAI5tE4HjsV5fj1kYzHCox5',\n      ALIYUN_ACCESS_KEY_SECRET: 'mlWsBH9vrjjgLgcxmpTE4xIBpcXqjp',\n      OSS_BUCKET: 'course-slides',\n    },\n  }],\n};\n",
         secrets=('mlWsBH9vrjjgLgcxmpTE4xIBpcXqjp',)),
    Case(id='h20-029', category='api_key', container='txt',
         text='public final class Keys {\n    // 不想明文写在代码里，先这样凑合\n    private static final byte[] ZP = { 55, 55, 102, 98, 55, 57, 49, 52, 57, 99, 53, 97, 97, 102, 50, 56, 56, 54, 98, 57, 56, 57, 49, 48, 57, 98, 57, 100, 51, 50, 49, 97, 46, 54, 86, 104, 111, 102, 99, 54, 65, 72, 86, 120, 57, 79, 65, 116, 115 };\n\n    public static String zhipu() {\n        return new String(ZP, java.nio.charset.StandardCharsets.US_ASCII);\n    }\n}\n',
         secrets=('55, 55, 102, 98, 55, 57, 49, 52, 57, 99, 53, 97, 97, 102, 50, 56, 56, 54, 98, 57, 56, 57, 49, 48, 57, 98, 57, 100, 51, 50, 49, 97, 46, 54, 86, 104, 111, 102, 99, 54, 65, 72, 86, 120, 57, 79, 65, 116, 115',)),
    Case(id='h20-030', category='api_key', container='note',
         text='书签备份（手机上点开就能复制）：\n[硅基流动 key](data:text/plain;base64,U0lMSUNPTkZMT1dfQVBJX0tFWT1zay1vdnRydGh5eGRtcGR5dWxndHZtcnVoYWdxdWF6eW5kem5odmFsemZqYmpzZHNpaGEK)\n别的书签：[课程主页](https://example.edu/nlp) [作业提交](https://example.edu/submit)',
         secrets=('U0lMSUNPTkZMT1dfQVBJX0tFWT1zay1vdnRydGh5eGRtcGR5dWxndHZtcnVoYWdxdWF6eW5kem5odmFsemZqYmpzZHNpaGEK',)),
    Case(id='h20-031', category='api_key', container='txt',
         text='C:\\work\\bot> certutil -encode .env env.b64\n输入长度 = 78\n输出长度 = 165\nCertUtil: -encode 命令成功完成。\n\nC:\\work\\bot> type env.b64\n-----BEGIN CERTIFICATE-----\nQVJLX0FQSV9LRVk9YmQxMGRkNGMtNzlmZS00YWMyLWI0MWQtOTQ1Yjg4NTg2OWNi\nCkFSS19NT0RFTD1kb3ViYW8tMS01LXByby0zMmsK\n-----END CERTIFICATE-----\n',
         secrets=('QVJLX0FQSV9LRVk9YmQxMGRkNGMtNzlmZS00YWMyLWI0MWQtOTQ1Yjg4NTg2OWNi', 'CkFSS19NT0RFTD1kb3ViYW8tMS01LXByby0zMmsK')),
    Case(id='h20-032', category='api_key', container='txt',
         text='use std::env;\n\n// bs58 编码一下，避免被 secret scanning 扫到\nconst TTS_KEY_B58: &str = "7H4WdB9pvkPzESzkn5KUGr2th4RxHseu289uXgjFXc2e8nAUzTCtwL9rBZiEeMq82rn9Sc";\n\nfn api_key() -> String {\n    env::var("ELEVENLABS_API_KEY").unwrap_or_else(|_| {\n        String::from_utf8(bs58::decode(TTS_KEY_B58).into_vec().unwrap()).unwrap()\n    })\n}\n',
         secrets=('7H4WdB9pvkPzESzkn5KUGr2th4RxHseu289uXgjFXc2e8nAUzTCtwL9rBZiEeMq82rn9Sc',)),
    Case(id='h20-033', category='api_key', container='txt',
         text='#!/usr/bin/env bash\nset -euo pipefail\n# 拆成两半，防止 grep 到\nK1=\'tgp_v1_JHw97Z5U9DJs-rMho\'\nK2=\'0-i8aljf1-8Kz7iMiQX2UVk3gV\'\nexport TOGETHER_API_KEY="$(printf \'%s%s\' "$K1" "$K2")"\npython finetune.py --model meta-llama/Llama-3.2-3B-Instruct --epochs 2\n',
         secrets=('tgp_v1_JHw97Z5U9DJs-rMho', '0-i8aljf1-8Kz7iMiQX2UVk3gV')),
    Case(id='h20-034', category='api_key', container='txt',
         text="-- 迁移脚本 0007：图标生成服务换成 recraft\nUPDATE app_settings\n   SET value = CONCAT('LeijvdWNU1XKjH3UkVKzHoEVtSr95x', '0QlYZiPVxBSuiNuBOXB1w39a66DMO4mmgJ'),\n       updated_at = NOW()\n WHERE name = 'recraft_api_key';\n",
         secrets=('LeijvdWNU1XKjH3UkVKzHoEVtSr95x', '0QlYZiPVxBSuiNuBOXB1w39a66DMO4mmgJ')),
    Case(id='h20-035', category='api_key', container='json',
         text='[\n    {\n        "type": "message",\n        "user": "U06ABCD1234",\n        "ts": "1720001234.567899",\n        "text": "cf token for the course site: LICcFWBqnq4pJhOde9cp-ifuFJsoofYhwa-RIjWx",\n        "blocks": [\n            {\n                "type": "rich_text",\n                "block_id": "Xy1z",\n                "elements": [\n                    {\n                        "type": "rich_text_section",\n                        "elements": [\n                            {\n                                "type": "text",\n                                "text": "cf token for the course site: "\n                            },\n                            {\n                                "type": "text",\n                                "text": "LICcFWBqnq4pJhOde9cp-ifuFJsoofYhwa-RIjWx",\n                                "style": {\n                                    "code": true\n                                }\n                            }\n                        ]\n                    }\n                ]\n            }\n        ]\n    }\n]',
         secrets=('LICcFWBqnq4pJhOde9cp-ifuFJsoofYhwa-RIjWx',)),
    Case(id='h20-036', category='api_key', container='md',
         text='**review comment on `deploy/serve.py` line 18**\n\n> reviewer: 这里别把 token 写死，改成读环境变量吧\n\n```suggestion\nclient = Client(workspace="nlp-course", token=os.environ["LEPTON_API_TOKEN"])\n```\n\n原来那行是：\n```python\nclient = Client(workspace="nlp-course", token="MIF6etC7n1vYZMOVfjPPBX8sgdjpulJ9")\n```\n',
         secrets=('MIF6etC7n1vYZMOVfjPPBX8sgdjpulJ9',)),
    Case(id='h20-037', category='api_key', container='txt',
         text='$ kubectl logs deploy/transcriber -n lab --since=10m | grep outbound\n{"level": "debug", "ts": "2024-11-03T08:14:22.118Z", "msg": "outbound request", "req": "{\\"method\\": \\"POST\\", \\"url\\": \\"https://api.gladia.io/v2/pre-recorded\\", \\"headers\\": {\\"x-gladia-key\\": \\"8dcdbf23-8bb6-43d3-afe8-aef4e9ac54bb\\", \\"content-type\\": \\"application/json\\"}}"}\n',
         secrets=('8dcdbf23-8bb6-43d3-afe8-aef4e9ac54bb',)),
    Case(id='h20-038', category='api_key', container='txt',
         text='课程账号\n========\n\n+------------+-------------------+------------------------------------+\n| 服务       | 用户名            | 密钥                               |\n+============+===================+====================================+\n| Kaggle     | huang-li-ml       | 6f7f4526a65eb7e9aa7de2e2773f7591   |\n+------------+-------------------+------------------------------------+\n| Colab      | （学校账号）      | —                                  |\n+------------+-------------------+------------------------------------+\n',
         secrets=('6f7f4526a65eb7e9aa7de2e2773f7591',)),
    Case(id='h20-039', category='api_key', container='json',
         text='{\n "metadata": {\n  "widgets": {\n   "application/vnd.jupyter.widget-state+json": {\n    "version_major": 2,\n    "version_minor": 0,\n    "state": {\n     "513963c13c7c555e499bb74244e9e035": {\n      "model_name": "TextModel",\n      "model_module": "@jupyter-widgets/controls",\n      "model_module_version": "2.0.0",\n      "state": {\n       "description": "Clarifai PAT",\n       "value": "720915a52cb9ec8faf941a5109734cab",\n       "layout": "IPY_MODEL_73792ef3d6f501bc39d9cd56b7f91526"\n      }\n     }\n    }\n   }\n  }\n },\n "nbformat": 4,\n "nbformat_minor": 5,\n "cells": [\n  {\n   "cell_type": "code",\n   "execution_count": 3,\n   "id": "10bc58b6",\n   "metadata": {},\n   "outputs": [],\n   "source": [\n    "pat = widgets.Text(description=\'Clarifai PAT\')\\n",\n    "display(pat)"\n   ]\n  }\n ]\n}',
         secrets=('720915a52cb9ec8faf941a5109734cab',)),
    Case(id='h20-040', category='api_key', container='txt',
         text='<Event xmlns="http://schemas.microsoft.com/win/2004/08/events/event">\n  <System><Provider Name="Microsoft-Windows-Sysmon" /><EventID>1</EventID><Computer>LAB-PC-07</Computer></System>\n  <EventData>\n    <Data Name="UtcTime">2024-10-12 06:41:09.311</Data>\n    <Data Name="Image">C:\\Python312\\python.exe</Data>\n    <Data Name="CommandLine">python.exe summarize.py --endpoint https://lab-aoai.openai.azure.com --api-key 4a849f46162c564c3160df0ea5e85f8e --deployment gpt-4o-mini</Data>\n    <Data Name="User">LAB-PC-07\\student</Data>\n    <Data Name="ParentImage">C:\\Windows\\System32\\cmd.exe</Data>\n  </EventData>\n</Event>\n',
         secrets=('4a849f46162c564c3160df0ea5e85f8e',)),
    Case(id='h20-041', category='auth_header', container='txt',
         text='$ sqlite3 -separator \' | \' ~/.mozilla/firefox/x1y2z3.default-release/cookies.sqlite \\\n    "select host,name,value from moz_cookies where host like \'%study-portal%\'"\n.study-portal.example-univ.edu.cn | JSESSIONID | 6ub0f7ujbdg39eox523ojn4xfng4ae3i\n.study-portal.example-univ.edu.cn | portal_token | eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI1NTE2Nzc1MCIsImlhdCI6MTcxNzAwMDAwMCwiZXhwIjoxNzE5NTkyMDAwfQ.pIXaqJrjlg2AAn5gyJkH1mPfCK1MOYc_kr5XLpBti2A\n.study-portal.example-univ.edu.cn | lang | zh_CN\n',
         secrets=('6ub0f7ujbdg39eox523ojn4xfng4ae3i', 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI1NTE2Nzc1MCIsImlhdCI6MTcxNzAwMDAwMCwiZXhwIjoxNzE5NTkyMDAwfQ.pIXaqJrjlg2AAn5gyJkH1mPfCK1MOYc_kr5XLpBti2A')),
    Case(id='h20-042', category='auth_header', container='json',
         text='{\n  "headers": {\n    "Accept": "*/*",\n    "Authorization": "token ghp_ExNGCxYPzFdvYx7BWFODyMZKqEOJB4ZmQosr",\n    "Host": "httpbin.org",\n    "User-Agent": "curl/8.5.0",\n    "X-Amzn-Trace-Id": "Root=1-c9506c4c-0741bcb57116c04962790b96"\n  }\n}\n',
         secrets=('ghp_ExNGCxYPzFdvYx7BWFODyMZKqEOJB4ZmQosr',)),
    Case(id='h20-043', category='auth_header', container='yaml',
         text='route_config:\n  virtual_hosts:\n  - name: grading\n    domains: ["*"]\n    routes:\n    - match: { prefix: "/api/" }\n      route: { cluster: grading_api }\n      request_headers_to_add:\n      - header:\n          key: authorization\n          value: "Bearer eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJpc3MiOiJsYWItaWRwIiwiYXVkIjoiZ3JhZGluZy1hcGkiLCJzdWIiOiJzdmMtZ3JhZGVyIiwiZXhwIjoxNzY3MjI1NjAwfQ.XZ0z-LTkMi5_DZwQlqcfxKoWcAwhTt44la43_TP81s8"\n        append_action: OVERWRITE_IF_EXISTS_OR_ADD\n',
         secrets=('eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJpc3MiOiJsYWItaWRwIiwiYXVkIjoiZ3JhZGluZy1hcGkiLCJzdWIiOiJzdmMtZ3JhZGVyIiwiZXhwIjoxNzY3MjI1NjAwfQ.XZ0z-LTkMi5_DZwQlqcfxKoWcAwhTt44la43_TP81s8',)),
    Case(id='h20-044', category='auth_header', container='yaml',
         text='http:\n  middlewares:\n    legacy-auth:\n      headers:\n        customRequestHeaders:\n          Authorization: "Basic b3BzOnFrNktlSk84WTZxNFA0R0Y="\n          X-Forwarded-Proto: "https"\n  routers:\n    old-wiki:\n      rule: "Host(`wiki.lab.internal`)"\n      middlewares: ["legacy-auth"]\n      service: old-wiki\n',
         secrets=('b3BzOnFrNktlSk84WTZxNFA0R0Y=',)),
    Case(id='h20-045', category='auth_header', container='note',
         text='压测记录 2024-12-02\nhey -z 30s -c 50 -m GET -H "Authorization: Bearer BrF5UEQo3AgF1wOXDSqb4m5nLnhaKLOiXQszUPA1" https://staging.lab.internal/api/v1/courses\n结果：p50 41ms / p99 380ms，错误 0.4%（都是 502）',
         secrets=('BrF5UEQo3AgF1wOXDSqb4m5nLnhaKLOiXQszUPA1',)),
    Case(id='h20-046', category='auth_header', container='txt',
         text='$ websocat -H=\'Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1aWQiOiIwNjAwMDUiLCJyb29tIjoiY3MxMDEiLCJleHAiOjE3MzU2ODk2MDB9.i5WwsrVFlRb1tCjyE0MVX-Y3XXW0BmGmxd5c-PxWDok\' wss://live.lab.example/ws/classroom\n{"type":"hello","room":"cs101"}\n{"type":"quiz","id":7}\n',
         secrets=('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1aWQiOiIwNjAwMDUiLCJyb29tIjoiY3MxMDEiLCJleHAiOjE3MzU2ODk2MDB9.i5WwsrVFlRb1tCjyE0MVX-Y3XXW0BmGmxd5c-PxWDok',)),
    Case(id='h20-047', category='auth_header', container='json',
         text='{\n "constants": {\n  "logEventTypes": {\n   "HTTP_TRANSACTION_SEND_REQUEST_HEADERS": 157\n  }\n },\n "events": [\n  {\n   "params": {\n    "headers": [\n     ":method: GET",\n     ":authority: jwxt.example-univ.edu.cn",\n     ":path: /jsxsd/xskb/xskb_list.do",\n     "cookie: JSESSIONID=ptlurdxk8a5l5njkmy9hjggh7w; SERVERID=jw3",\n     "user-agent: Mozilla/5.0"\n    ],\n    "line": "GET /jsxsd/xskb/xskb_list.do HTTP/1.1"\n   },\n   "phase": 0,\n   "source": {\n    "id": 1481,\n    "type": 1\n   },\n   "time": "389011203",\n   "type": 157\n  }\n ]\n}',
         secrets=('ptlurdxk8a5l5njkmy9hjggh7w',)),
    Case(id='h20-048', category='auth_header', container='py',
         text='import pandas as pd\nimport requests\n\nHEADERS = {\n    "User-Agent": "Mozilla/5.0",\n    "Cookie": "xq_a_token=6bb40a5c030a0050099cce7613729aa39e101511; u=1234567890",\n}\n\ndef kline(symbol: str) -> pd.DataFrame:\n    url = f"https://stock.xueqiu.com/v5/stock/chart/kline.json?symbol={symbol}&period=day&count=-120"\n    return pd.DataFrame(requests.get(url, headers=HEADERS, timeout=10).json()["data"]["item"])\n',
         secrets=('6bb40a5c030a0050099cce7613729aa39e101511',)),
    Case(id='h20-049', category='auth_header', container='yaml',
         text='# 抢票配置（春节回家）\naccount:\n  cookie:\n    tk: "u3D86qujBVc2Kaja7DyLhfCI34mpnWMLzd2aHxe0tr1"\n    RAIL_DEVICEID: "wJ0NtEtEbxdlBKp0wKb9bf-t0obIGdU2xjR_zaD8"\n  # 上面 tk 过期就重新扫码拿\nquery:\n  from: 上海虹桥\n  to: 合肥南\n  date: 2025-01-25\n  trains: [G7187, G7237]\n',
         secrets=('u3D86qujBVc2Kaja7DyLhfCI34mpnWMLzd2aHxe0tr1',)),
    Case(id='h20-050', category='auth_header', container='txt',
         text="# ngrep -q -W byline -d eth0 'X-Auth' tcp port 8080\ninterface: eth0 (10.0.8.0/255.255.255.0)\nmatch: X-Auth\n\nT 10.0.8.23:51522 -> 10.0.8.2:8080 [AP] #4\nGET /inventory/api/items HTTP/1.1.\nHost: 10.0.8.2:8080.\nX-Auth-Token: T1jbArNUzz10cW61bY29BYkNJIOM+lwg.\nAccept: */*.\n.\n",
         secrets=('T1jbArNUzz10cW61bY29BYkNJIOM+lwg',)),
    Case(id='h20-051', category='connection_string', container='json',
         text='{\n  "type": "Compass Connections",\n  "version": {\n    "$numberInt": "1"\n  },\n  "connections": [\n    {\n      "id": "26c1b662-09c2-4d16-af7e-dd0d4c2a5a25",\n      "connectionOptions": {\n        "connectionString": "mongodb+srv://lab_user:ncF9rUK7h9IZ41@cluster0.ab12cd.mongodb.net/?authMechanism=SCRAM-SHA-256&appName=Compass"\n      },\n      "favorite": {\n        "name": "数据库课 Atlas",\n        "color": "color2"\n      }\n    }\n  ]\n}',
         secrets=('ncF9rUK7h9IZ41',)),
    Case(id='h20-052', category='connection_string', container='note',
         text='TDengine 实验（时序数据库）\ntaos -h 192.168.31.20 -P 6030 -u lab_writer -pzJnxAFOIG8nx!\ntaos> CREATE DATABASE IF NOT EXISTS meters KEEP 365;\ntaos> USE meters;\nDatabase changed.',
         secrets=('zJnxAFOIG8nx!',)),
    Case(id='h20-053', category='connection_string', container='txt',
         text='$ ./nebula-console -addr 127.0.0.1 -port 9669 -u root -p 4CvbgAR12ZX9S\nWelcome!\n\n(root@nebula) [(none)]> SHOW SPACES;\n+--------------------+\n| Name               |\n+--------------------+\n| "basketballplayer" |\n+--------------------+\n',
         secrets=('4CvbgAR12ZX9S',)),
    Case(id='h20-054', category='connection_string', container='txt',
         text="#!/bin/sh\n# 每晚把作业提交记录导入 Vertica\nvsql -h vdb01.lab.internal -d coursedw -U etl_loader -w 'q7iIvptTXPh#' -f /opt/etl/load_submissions.sql\n",
         secrets=('q7iIvptTXPh#',)),
    Case(id='h20-055', category='connection_string', container='txt',
         text='C:\\sybase> isql -S ASE_LAB -U sa -P GTRIJ4LMkK -D pubs2\n1> select count(*) from titles\n2> go\n\n -----------\n          18\n\n(1 row affected)\n',
         secrets=('GTRIJ4LMkK',)),
    Case(id='h20-056', category='connection_string', container='txt',
         text="#!/bin/bash\n# 开机挂载实验室服务器的数据盘\necho 'pHNwxu2ORm5r' | sshfs -o password_stdin,reconnect,allow_other student07@lab-gpu.example.edu:/data/shared /mnt/labdata\n",
         secrets=('pHNwxu2ORm5r',)),
    Case(id='h20-057', category='connection_string', container='txt',
         text='[general]\naccounts = School\n\n[Account School]\nlocalrepository = Local\nremoterepository = Remote\n\n[Repository Local]\ntype = Maildir\nlocalfolders = ~/Mail/school\n\n[Repository Remote]\ntype = IMAP\nremotehost = imap.exmail.qq.com\nremoteuser = zhou.yan@example-univ.edu.cn\nremotepass = vketavffvlsgsvzw\nsslcacertfile = /etc/ssl/certs/ca-certificates.crt\n',
         secrets=('vketavffvlsgsvzw',)),
    Case(id='h20-058', category='connection_string', container='note',
         text='镜像同步到学校的 Harbor：\nskopeo copy --src-creds wangli:DSQK3Dng9lJbKkI docker://harbor.lab.internal/course/jupyter:2024 docker-archive:/tmp/jupyter.tar\n（src-creds 用的是我自己的账号）',
         secrets=('DSQK3Dng9lJbKkI',)),
    Case(id='h20-059', category='connection_string', container='yaml',
         text='apiVersion: 1\ndatasources:\n  - name: course-mysql\n    type: mysql\n    url: db.lab.internal:3306\n    user: grafana_ro\n    jsonData:\n      database: coursedb\n      maxOpenConns: 10\n    secureJsonData:\n      password: "XVuhJszsAm0tuC"\n',
         secrets=('XVuhJszsAm0tuC',)),
    Case(id='h20-060', category='connection_string', container='py',
         text='import sentry_sdk\n\nsentry_sdk.init(\n    dsn="https://c9ac64879009721bd43a0ecf7372fdcc:7a7454942be851c8256127d6cae2b128@sentry.lab.internal/7",\n    traces_sample_rate=0.2,\n    environment="course-prod",\n)\n',
         secrets=('7a7454942be851c8256127d6cae2b128',)),
    Case(id='h20-061', category='connection_string', container='note',
         text='直接用浏览器查 ClickHouse：\nhttp://ch01.lab.internal:8123/?user=analyst&password=q9YY35p0O2cH&query=SELECT%20count()%20FROM%20logs.visits\n返回 1284031',
         secrets=('q9YY35p0O2cH',)),
    Case(id='h20-062', category='connection_string', container='txt',
         text='# /etc/ipsec.secrets - strongSwan IPsec secrets file\n: RSA server.key.pem\n%any 203.0.113.0/24 : PSK "4LnnordmbSw1iS3TszvPpJqH"\nliuyang : EAP "9SW5917zXtit"\n',
         secrets=('4LnnordmbSw1iS3TszvPpJqH', '9SW5917zXtit')),
    Case(id='h20-063', category='private_key', container='txt',
         text='C:\\certs> certutil -encode device.key device.b64\nCertUtil: -encode command completed successfully.\n\nC:\\certs> type device.b64\n-----BEGIN CERTIFICATE-----\nLS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0tCk1IY0NBUUVFSU9oWjVCamtU\nbFdOWXdUVjVLaDVIMUphd0g0REM5L1Flcng5NVZLSjJxRUFvQW9HQ0NxR1NNNDkK\nQXdFSG9VUURRZ0FFenViRjNGNlBIWXVmVzRYeHN5RjhiTngrd1UzeCtEbE5VWlJy\nRlY5RWdZdWNIWldyYW9lSQpGZktMTzhzeXdlckVBSUwvNGc4UGJvVFEvOVZRRStn\neWNBPT0KLS0tLS1FTkQgRUMgUFJJVkFURSBLRVktLS0tLQo=\n-----END CERTIFICATE-----\n',
         secrets=('LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0tCk1IY0NBUUVFSU9oWjVCamtU', 'bFdOWXdUVjVLaDVIMUphd0g0REM5L1Flcng5NVZLSjJxRUFvQW9HQ0NxR1NNNDkK', 'QXdFSG9VUURRZ0FFenViRjNGNlBIWXVmVzRYeHN5RjhiTngrd1UzeCtEbE5VWlJy', 'RlY5RWdZdWNIWldyYW9lSQpGZktMTzhzeXdlckVBSUwvNGc4UGJvVFEvOVZRRStn', 'eWNBPT0KLS0tLS1FTkQgRUMgUFJJVkFURSBLRVktLS0tLQo=')),
    Case(id='h20-064', category='private_key', container='txt',
         text='$ openssl asn1parse -in iot-node.key\n    0:d=0  hl=2 l= 119 cons: SEQUENCE\n    2:d=1  hl=2 l=   1 prim: INTEGER           :01\n    5:d=1  hl=2 l=  32 prim: OCTET STRING      [HEX DUMP]:DFF5191A5DA115E23CAC30CAD9D75F7E1BB40C33C775C109CA7A32E17E0834D2\n   39:d=1  hl=2 l=  10 cons: cont [ 0 ]\n   41:d=2  hl=2 l=   8 prim: OBJECT            :prime256v1\n   51:d=1  hl=2 l=  68 cons: cont [ 1 ]\n   53:d=2  hl=2 l=  66 prim: BIT STRING\n',
         secrets=('DFF5191A5DA115E23CAC30CAD9D75F7E1BB40C33C775C109CA7A32E17E0834D2',)),
    Case(id='h20-065', category='private_key', container='json',
         text='{\n  "primaryKeyId": 974836896,\n  "key": [\n    {\n      "keyData": {\n        "typeUrl": "type.googleapis.com/google.crypto.tink.Ed25519PrivateKey",\n        "value": "EiAU4c7UU3t/JoxflrjLml8Lk/DskfEq+qTDlSJX+z8L3RoiEiBQU3F0c3a0MPMkHlKZ5R6dFIHKO9l6RuNj7vvIIt2t6A==",\n        "keyMaterialType": "ASYMMETRIC_PRIVATE"\n      },\n      "status": "ENABLED",\n      "keyId": 962230546,\n      "outputPrefixType": "TINK"\n    }\n  ]\n}',
         secrets=('EiAU4c7UU3t/JoxflrjLml8Lk/DskfEq+qTDlSJX+z8L3RoiEiBQU3F0c3a0MPMkHlKZ5R6dFIHKO9l6RuNj7vvIIt2t6A==',)),
    Case(id='h20-066', category='private_key', container='txt',
         text='# 2024-09-18 21:03:11 by RouterOS 7.15.3\n# model = hAP ax2\n/interface wireguard\nadd listen-port=13231 mtu=1420 name=wg-home private-key="jNeH4r8Js9o3H80YSD2vjHXJmFfY/HyJW/gjWicjG98="\n/interface wireguard peers\nadd allowed-address=10.66.0.2/32 interface=wg-home name=phone public-key="hrtLO66TU1p/3rDSf0M1EMjRDuarlGyEgutpwXHV3kw="\n/ip address\nadd address=10.66.0.1/24 interface=wg-home network=10.66.0.0\n',
         secrets=('jNeH4r8Js9o3H80YSD2vjHXJmFfY/HyJW/gjWicjG98=',)),
    Case(id='h20-067', category='private_key', container='txt',
         text='>> getprivatekeys("bc1qzll0hxuwfjjj2fzzfc37u5wh9y0qev3uu3xtpq")\n"p2wpkh:L587ABoyni3anaKJi5hZiYrUdeMdHUNpLFpLA2SJCMDSUuHezXtf"\n>> listaddresses(funded=True)\n[]\n',
         secrets=('L587ABoyni3anaKJi5hZiYrUdeMdHUNpLFpLA2SJCMDSUuHezXtf',)),
    Case(id='h20-068', category='private_key', container='json',
         text='[\n  {\n    "name": "alice_ghostnet",\n    "value": "unencrypted:edsk3xEMvK2JUteDJjzi51AAzE49hsHzecrxC2Nr4LDZ7dG55dahGV"\n  }\n]\n\n# public_key_hashs: tz1iNEdCaBxjMZ8RhUeTcVyDNKwfhgLepWiK\n',
         secrets=('edsk3xEMvK2JUteDJjzi51AAzE49hsHzecrxC2Nr4LDZ7dG55dahGV',)),
    Case(id='h20-069', category='private_key', container='note',
         text='XRPL testnet faucet 给的账号（作业 5 用）\naddress: rNR9BUvwX1RkBXc7pKGRtLQKPNzLBxdpY\nsecret: sn9zXpPCSe211skaMSRkcyQZeZ9Uf\nbalance: 1000 XRP (test)',
         secrets=('sn9zXpPCSe211skaMSRkcyQZeZ9Uf',)),
    Case(id='h20-070', category='private_key', container='txt',
         text='import java.security.KeyFactory;\nimport java.security.spec.PKCS8EncodedKeySpec;\nimport java.util.Base64;\n\npublic class Signer {\n    static final String SIGNING_KEY = "MC4CAQAwBQYDK2VwBCIEIDeGEo7sfM9i9Zv4/grMp+ih3yxk6QGNgT5V1+G++fZ5";\n\n    static java.security.PrivateKey load() throws Exception {\n        byte[] der = Base64.getDecoder().decode(SIGNING_KEY);\n        return KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(der));\n    }\n}\n',
         secrets=('MC4CAQAwBQYDK2VwBCIEIDeGEo7sfM9i9Zv4/grMp+ih3yxk6QGNgT5V1+G++fZ5',)),
    Case(id='h20-071', category='private_key', container='env',
         text='# Vercel 单个变量有长度限制，拆成三段，代码里再拼回去\nJWT_ALG=ES384\nJWT_PRIVATE_KEY_PART_1=MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDB2bwBlBIWgSbEUMb+h6l8FdLdU9mv4WBmmwi\nJWT_PRIVATE_KEY_PART_2=mF2O9Nt657JH0qvZRwIrEtydeeVwOhZANiAARPLlH71185S4zugRZ8YFw50wIFkc/FbIEltJ1zTQO19mut\nJWT_PRIVATE_KEY_PART_3=HjfDZ/AoaiHFPosEkb654TZ7kYiYpmxtSDxQaBZzdY9Cdv8BockdAFiNBIX6xxbt3Q45O0M4ejV+d6b4wtk=\n',
         secrets=('MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDB2bwBlBIWgSbEUMb+h6l8FdLdU9mv4WBmmwi', 'mF2O9Nt657JH0qvZRwIrEtydeeVwOhZANiAARPLlH71185S4zugRZ8YFw50wIFkc/FbIEltJ1zTQO19mut', 'HjfDZ/AoaiHFPosEkb654TZ7kYiYpmxtSDxQaBZzdY9Cdv8BockdAFiNBIX6xxbt3Q45O0M4ejV+d6b4wtk=')),
    Case(id='h20-072', category='private_key', container='txt',
         text='$ gaiad keys export validator-lab --unarmored-hex --unsafe --keyring-backend test\nWARNING: The private key will be exported as an unarmored hexadecimal string. USE AT YOUR OWN RISK. Continue? [y/N]: y\nCE6E45DEDD25CB9D22882D98745A85663351966684E9C4E605F1DC7B3499651F\n',
         secrets=('CE6E45DEDD25CB9D22882D98745A85663351966684E9C4E605F1DC7B3499651F',)),
    Case(id='h20-073', category='password', container='note',
         text='Toshkent — almashinuv dasturi\nUniversitet portali: student.tdtu.uz\nlogin: xu_chen24\nparol: JOnQ5iPX%6\nYotoqxona: 3-bino, 412-xona',
         secrets=('JOnQ5iPX%6',)),
    Case(id='h20-074', category='password', container='note',
         text='Bakı, yataqxana\nWi-Fi adı: ADA-Dorm-5\nşifrə: C29IanP7*4\nQeyd: router 2-ci mərtəbədədir',
         secrets=('C29IanP7*4',)),
    Case(id='h20-075', category='password', container='note',
         text='കൊച്ചി ഇന്റേൺഷിപ്പ്\nഓഫീസ് ലാപ്\u200cടോപ്പ് യൂസർ: intern03\nപാസ്\u200cവേഡ്: NvW126SHD@2\nHR ഫോൺ: ഓഫീസിൽ ചോദിക്കുക',
         secrets=('NvW126SHD@2',)),
    Case(id='h20-076', category='password', container='note',
         text='Esperanto-klubo, kunveno de ĵaŭdo\nLa reta forumo: forumo.esperanto-klubo.example\nuzantnomo: cxeng_li\npasvorto: wkgCnge6!0\nNi legos la 3-an ĉapitron de Fundamento.',
         secrets=('wkgCnge6!0',)),
    Case(id='h20-077', category='password', container='note',
         text='ئۈرۈمچى — كۇتۇپخانا\nھېسابات: 20231547\nپارول: wXbmWSdb@9\nئوقۇش ۋاقتى: 8:00-22:00',
         secrets=('wXbmWSdb@9',)),
    Case(id='h20-078', category='password', container='note',
         text='Бишкек, жайкы мектеп\nWi-Fi: AUCA-Guest\nсырсөз: N95TE43B!7\nЖатакана: 2-корпус, 17-бөлмө',
         secrets=('N95TE43B!7',)),
    Case(id='h20-079', category='password', container='txt',
         text='name,url,username,password,note\njwxt.example-univ.edu.cn,https://jwxt.example-univ.edu.cn/login,2021123456,8Eigucl7LP*0,\nmail.163.com,https://mail.163.com/,,,\n',
         secrets=('8Eigucl7LP*0',)),
    Case(id='h20-080', category='password', container='txt',
         text='$ nmcli -s connection show "Lab-5G" | grep -E \'ssid|psk|key-mgmt\'\n802-11-wireless.ssid:                   Lab-5G\n802-11-wireless-security.key-mgmt:      wpa-psk\n802-11-wireless-security.psk:           Ggzf3oQium!6\n802-11-wireless-security.psk-flags:     0 (none)\n',
         secrets=('Ggzf3oQium!6',)),
    Case(id='h20-081', category='password', container='txt',
         text='220 (vsFTPd 3.0.5)\nUSER course_upload\n331 Please specify the password.\nPASS VibU4AMq#5\n230 Login successful.\nSYST\n215 UNIX Type: L8\nPASV\n227 Entering Passive Mode (10,0,8,5,195,80).\n',
         secrets=('VibU4AMq#5',)),
    Case(id='h20-082', category='password', container='txt',
         text='$ openssl s_client -connect imap.example-univ.edu.cn:993 -quiet\n* OK [CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE AUTH=PLAIN] Dovecot ready.\na1 LOGIN sunqi lXjKgNrLtNS&6\na1 OK [CAPABILITY IMAP4rev1 ...] Logged in\na2 SELECT INBOX\n* 213 EXISTS\n',
         secrets=('lXjKgNrLtNS&6',)),
    Case(id='h20-083', category='password', container='txt',
         text="_HiStOrY_V2_\nshow\\040databases;\nuse\\040coursedb;\nALTER\\040USER\\040'app'@'%'\\040IDENTIFIED\\040BY\\040'lwadztT2Vhm3_42';\nflush\\040privileges;\n",
         secrets=('lwadztT2Vhm3_42',)),
    Case(id='h20-084', category='password', container='note',
         text='周四晚上 8 点线代复习\n#腾讯会议：493-340-599\n会议密码：5187\n记得带上第五章的习题',
         secrets=('5187',)),
    Case(id='h20-085', category='password', container='note',
         text='Topic: Reading group — Attention Is All You Need\nTime: Nov 14, 2024 07:00 PM Beijing, Shanghai\nJoin Zoom Meeting\nhttps://zoom.us/j/79681877215\nMeeting ID: 408 7873 2963\nPasscode: 980172',
         secrets=('980172',)),
    Case(id='h20-086', category='password', container='note',
         text='弟弟的 Steam 家庭监护\n家庭视图 PIN：8438\n只允许：库里的教育类游戏 + 社区\n（别告诉他 PIN）',
         secrets=('8438',)),
    Case(id='h20-087', category='password', container='txt',
         text="-- MySQL dump 10.13  Distrib 8.0.36\nLOCK TABLES `users` WRITE;\nINSERT INTO `users` (`id`,`username`,`password`,`role`) VALUES (1,'admin','8YjkKMA%1','admin'),(2,'teacher_wang','F2cjTiV&2','teacher');\nUNLOCK TABLES;\n",
         secrets=('8YjkKMA%1', 'F2cjTiV&2')),
    Case(id='h20-088', category='password', container='txt',
         text='KeyStore ks = KeyStore.getInstance("PKCS12");\ntry (InputStream in = Files.newInputStream(Path.of("lab-client.p12"))) {\n    ks.load(in, new char[]{\'j\',\'j\',\'j\',\'N\',\'N\',\'C\',\'z\',\'&\',\'6\'});\n}\n',
         secrets=("j','j','j','N','N','C','z','&','6",)),
    Case(id='h20-089', category='password', container='txt',
         text="$ kubectl get secret grafana -n monitoring -o jsonpath='{.data.admin-password}' | base64 -d; echo\nDVmkIROrSYJEns#1\n$ kubectl port-forward svc/grafana 3000:80 -n monitoring\nForwarding from 127.0.0.1:3000 -> 3000\n",
         secrets=('DVmkIROrSYJEns#1',)),
    Case(id='h20-090', category='password', container='txt',
         text='$ docker exec jenkins cat /var/jenkins_home/secrets/initialAdminPassword\naa7e174ce9b684171c196c8fb70ee9a6\n$ # 浏览器打开 http://localhost:8080 粘贴上面这个\n',
         secrets=('aa7e174ce9b684171c196c8fb70ee9a6',)),
    Case(id='h20-091', category='password', container='txt',
         text="# WARNING: This value is valid only in the following conditions\n#          1. If provided manually (either via `GITLAB_ROOT_PASSWORD` environment variable or via `gitlab_rails['initial_root_password']` setting in `gitlab.rb`, it was provided before database was seeded for the first time (usually, the first reconfigure run).\n#          2. Password hasn't been changed manually, either via UI or via command line.\n#\n#          If the password shown here doesn't work, you must reset the admin password following https://docs.gitlab.com/ee/security/reset_user_password.html#reset-your-root-password.\n\nPassword: mA7wYKry3R0QvyK9fcFusBxrv3wFWbkM5cEg+V0uWC1G=\n\n# NOTE: This file will be automatically deleted in the first reconfigure run after 24 hours.\n",
         secrets=('mA7wYKry3R0QvyK9fcFusBxrv3wFWbkM5cEg+V0uWC1G=',)),
    Case(id='h20-092', category='password', container='txt',
         text='━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n✅ Elasticsearch security features have been automatically configured!\n✅ Authentication is enabled and cluster connections are encrypted.\n\nℹ️  Password for the elastic user (reset with `bin/elasticsearch-reset-password -u elastic`):\n  SQhO1URZ1t9*62z0_wa5\n\nℹ️  HTTP CA certificate SHA-256 fingerprint:\n  244af040e859fd573b1754be3ddfee3b7130abc99e5e71a95f54f37795f72a01\n━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n',
         secrets=('SQhO1URZ1t9*62z0_wa5',)),
    Case(id='h20-093', category='password', container='txt',
         text='2024-09-02T03:11:45.081234Z 0 [System] [MY-013169] [Server] /usr/sbin/mysqld (mysqld 8.0.39) initializing of server in progress as process 2231\n2024-09-02T03:11:47.512901Z 6 [Note] [MY-010454] [Server] A temporary password is generated for root@localhost: MpkerN4zKQ5u\n2024-09-02T03:11:49.004511Z 0 [System] [MY-013170] [Server] /usr/sbin/mysqld (mysqld 8.0.39) initializing of server has completed\n',
         secrets=('MpkerN4zKQ5u',)),
    Case(id='h20-094', category='password', container='txt',
         text="# ~/.config/i3/config\nbindsym $mod+Return exec alacritty\nbindsym $mod+d exec rofi -show drun\n# 一键输入 VPN 密码\nbindsym $mod+Shift+p exec --no-startup-id xdotool type --delay 40 'Lux1ruSpn!7'\n",
         secrets=('Lux1ruSpn!7',)),
    Case(id='h20-095', category='password', container='note',
         text='[语音转文字 0:21] 妈，路由器后台的密码我改了，你记一下：大写K 小写b 5 8 4 7 小写x 小写q，就这些，别的不用动。',
         secrets=('大写K 小写b 5 8 4 7 小写x 小写q',)),
    Case(id='h20-096', category='password', container='json',
         text='{\n    "name": "course-server",\n    "host": "10.20.1.15",\n    "protocol": "sftp",\n    "port": 22,\n    "username": "s2021123456",\n    "password": "RqrITYIX7J*2",\n    "remotePath": "/home/s2021123456/www",\n    "uploadOnSave": true\n}',
         secrets=('RqrITYIX7J*2',)),
    Case(id='h20-097', category='password', container='txt',
         text='student@lab-07:~$ sudo apt install -y graphviz\n[sudo] password for student: \nSorry, try again.\n[sudo] password for student: \nsudo: 1 incorrect password attempt\nstudent@lab-07:~$ WObK11Y4%4\nWObK11Y4%4: command not found\nstudent@lab-07:~$ history -d -2\n',
         secrets=('WObK11Y4%4',)),
    Case(id='h20-098', category='resident_id', container='note',
         text='서울 교환학생 체크리스트\n- 외국인등록증 수령 완료 (출입국외국인청 목동)\n- 외국인등록번호: 990315-6340874\n- 은행 계좌 개설할 때 필요함\n- 휴대폰 개통 → 다음 주',
         secrets=('990315-6340874',)),
    Case(id='h20-099', category='resident_id', container='note',
         text='Formular de înscriere — Școala de vară Chișinău\nNume: Rusu Ana (colegă de cameră)\nIDNP: 2003099250318\nData nașterii: 14.02.2003\nAlergii: nu',
         secrets=('2003099250318',)),
    Case(id='h20-100', category='resident_id', container='note',
         text='Registro de voluntarios — Santo Domingo\nNombre: Yaneisy Peña\nCédula: 014-0815522-2\nTurno: sábado mañana',
         secrets=('014-0815522-2',)),
    Case(id='h20-101', category='resident_id', container='note',
         text='Casa de familia — Antigua Guatemala\nAnfitriona: Doña Marta\nDPI de la anfitriona: 5188 48531 0901\n(lo pide la escuela para el contrato)',
         secrets=('5188 48531 0901',)),
    Case(id='h20-102', category='resident_id', container='note',
         text='ملاحظات السكن — الكويت\nالاسم: زميل الغرفة\nالرقم المدني: 303010897534\nتاريخ انتهاء البطاقة: 2027/06/30',
         secrets=('303010897534',)),
    Case(id='h20-103', category='resident_id', container='note',
         text='თბილისი — ბინის ქირა\nმეპატრონე: ნინო\nპირადი ნომერი: 01663589239\nქირა: 900 ლარი / თვე',
         secrets=('01663589239',)),
    Case(id='h20-104', category='resident_id', container='note',
         text='Bürgeramt Termin — Anmeldung\nMitbewohner: Jonas\nPersonalausweis-Nr.: VJV33WG7G\ngültig bis 11.2031\nWohnungsgeberbestätigung nicht vergessen!',
         secrets=('VJV33WG7G',)),
    Case(id='h20-105', category='resident_id', container='note',
         text='Colombo internship — supervisor details\nName: Ms. Dilani Perera\nNIC No: 200167927224\nOffice: Level 4',
         secrets=('200167927224',)),
    Case(id='h20-106', category='resident_id', container='note',
         text='سكن الطلاب — الجيزة\nاسم الزميل: أحمد\nالرقم القومي: 30210142157290\nرقم الغرفة: ٢١٤',
         secrets=('30210142157290',)),
    Case(id='h20-107', category='resident_id', container='txt',
         text='<?xml version="1.0" encoding="UTF-8"?>\n<CheckIn hotelCode="NJ0231" roomNo="1207">\n  <Guest>\n    <Name>周雨桐</Name>\n    <IdType>11</IdType>\n    <IdNo>320106199507237365</IdNo>\n    <Nation>汉</Nation>\n  </Guest>\n  <ArrDate>2024-10-01</ArrDate>\n  <DepDate>2024-10-03</DepDate>\n</CheckIn>\n',
         secrets=('320106199507237365',)),
    Case(id='h20-108', category='resident_id', container='txt',
         text="# Time: 2024-11-20T02:13:44.512003Z\n# User@Host: app[app] @  [10.0.3.17]  Id: 88123\n# Query_time: 3.481920  Lock_time: 0.000012 Rows_sent: 1  Rows_examined: 1902331\nSET timestamp=1732068824;\nSELECT id, real_name, dorm FROM student_profile WHERE id_card = '440305200102140490';\n",
         secrets=('440305200102140490',)),
    Case(id='h20-109', category='resident_id', container='py',
         text="// pages/verify/verify.js\nPage({\n  submit() {\n    wx.request({\n      url: 'https://api.example-club.cn/v1/realname',\n      method: 'POST',\n      data: {\n        name: '何思远',\n        idCard: '510107200304090057',\n        scene: 'volunteer_signup'\n      },\n      success: (res) => console.log(res.data)\n    })\n  }\n})\n",
         secrets=('510107200304090057',)),
    Case(id='h20-110', category='mobile', container='note',
         text='عمّان — معهد اللغة\nالمشرفة: السيدة رنا\nرقم الخلوي: +962 78 371 2895\nالدوام: الأحد إلى الخميس',
         secrets=('+962 78 371 2895',)),
    Case(id='h20-111', category='mobile', container='note',
         text='Beirut flat — Hamra\nlandlord Georges, cell +961 76 055 369 (WhatsApp only, no calls after 9pm)\ngenerator subscription: 5 amp',
         secrets=('+961 76 055 369',)),
    Case(id='h20-112', category='mobile', container='note',
         text='Abidjan — stage\nContact du tuteur : M. Koffi\ncel : 07 56 56 37 07\nBureau : Plateau, 3e étage',
         secrets=('07 56 56 37 07',)),
    Case(id='h20-113', category='mobile', container='note',
         text='Kampala volunteering\nPay the boda driver via Airtel Money: +256 750 917 059 (Moses)\nProject house is behind the clinic',
         secrets=('+256 750 917 059',)),
    Case(id='h20-114', category='mobile', container='note',
         text='ရန်ကုန် — ဘာသာစကား အတန်း\nဆရာမ ဒေါ်မြင့်\nဖုန်းနံပါတ်: +95 9 744 812 448\nအတန်းချိန် ညနေ ၅ နာရီ',
         secrets=('+95 9 744 812 448',)),
    Case(id='h20-115', category='mobile', container='note',
         text='សៀមរាប — ស្ម័គ្រចិត្ត\nអ្នកសម្របសម្រួល: Dara\nលេខទូរស័ព្ទ: +855 92 431 585\nម៉ោងធ្វើការ៖ ៨ ព្រឹក',
         secrets=('+855 92 431 585',)),
    Case(id='h20-116', category='mobile', container='note',
         text='Para pagar la habitación por Pago Móvil:\nBanco: 0102\nTeléfono: 0414-7714068\nCédula: V-20.513.870\nMonto: lo que diga la tasa BCV del día',
         secrets=('0414-7714068', 'V-20.513.870')),
    Case(id='h20-117', category='mobile', container='note',
         text='Novi Sad — dom\nUpravnik doma: g. Petrović\nmobilni: 063 375 2373\nInternet šifra je na vratima kuhinje (nije moja)',
         secrets=('063 375 2373',)),
    Case(id='h20-118', category='mobile', container='txt',
         text='INVITE tel:+8610086 SIP/2.0\nVia: SIP/2.0/UDP [2409:8a00::1]:5060;branch=z9hG4bK0544a4b9d3\nFrom: <sip:+8618677332193@ims.mnc000.mcc460.3gppnetwork.org>;tag=9b10f627\nTo: <tel:+8610086>\nP-Asserted-Identity: <sip:+8618677332193@ims.mnc000.mcc460.3gppnetwork.org>\nCall-ID: 930fb54a20d4d0fb@2409:8a00::1\nCSeq: 1 INVITE\n',
         secrets=('+8618677332193',)),
    Case(id='h20-119', category='mobile', container='txt',
         text='姓名,部门,职务,手机号,邮箱\n王可欣,学生会/宣传部,部长,+86-13716048253,\n李航,学生会/外联部,干事,,',
         secrets=('+86-13716048253',)),
    Case(id='h20-120', category='bank_card', container='note',
         text='[14:02] Chị Hạnh: em chuyển tiền nhà qua thẻ này nhé\n[14:02] Chị Hạnh: số thẻ 9704 3626 1559 9622 Vietcombank, tên NGUYEN THI HANH\n[14:05] Tôi: vâng ạ',
         secrets=('9704 3626 1559 9622',)),
    Case(id='h20-121', category='bank_card', container='note',
         text='Leuven — kot\nHuisbaas wil de waarborg via Bancontact, mijn kaartnummer: 6703 4759 7684 6420 8\nvervalt 08/27',
         secrets=('6703 4759 7684 6420 8',)),
    Case(id='h20-122', category='bank_card', container='note',
         text='Երևան — ամառային դպրոց\nՎճարում հանրակացարանի համար\nքարտի համար՝ 9051 3195 2907 2442\nԱնուն՝ ANI HAKOBYAN',
         secrets=('9051 3195 2907 2442',)),
    Case(id='h20-123', category='bank_card', container='txt',
         text='Monat;Posten;Betrag;Zahlt an;IBAN\n2024-10;Strom;42,50;Lena;AT39 1556 2410 4329 9303\n2024-10;Internet;9,99;Lena;AT39 1556 2410 4329 9303\n',
         secrets=('AT39 1556 2410 4329 9303',)),
    Case(id='h20-124', category='bank_card', container='note',
         text='Αθήνα — ενοίκιο\nΙδιοκτήτρια: κα Παπαδοπούλου\nαριθμός λογαριασμού (IBAN): GR98 2487 6927 5963 3651 4963 381\nΠοσό: 420 € / μήνα',
         secrets=('GR98 2487 6927 5963 3651 4963 381',)),
    Case(id='h20-125', category='bank_card', container='note',
         text='تحويل رسوم معهد اللغة\nاسم المستفيد: معهد النور للغات\nرقم الآيبان: JO52CBJO8704870028487520808681\nملاحظة: اكتب اسمك في خانة البيان',
         secrets=('JO52CBJO8704870028487520808681',)),
    Case(id='h20-126', category='bank_card', container='txt',
         text='# dekódovaný QR kód z faktury za kolej\nSPD*1.0*ACC:CZ0708006147949869408752*AM:3450.00*CC:CZK*MSG:Najem rijen pokoj 214*X-VS:9323259569\n',
         secrets=('CZ0708006147949869408752',)),
    Case(id='h20-127', category='bank_card', container='txt',
         text='#Preview {\n    // TODO: 换回测试卡号！先用自己的卡看一下布局\n    CardView(card: Card(\n        holder: "LIN SHUYAO",\n        number: "4766164337605414",\n        expiry: "09/28",\n        brand: .visa\n    ))\n}\n',
         secrets=('4766164337605414',)),
    Case(id='h20-128', category='bank_card', container='txt',
         text='<div class="card-details">\n  <div class="label">Card number</div>\n  <div class="pan"><span class="pan-group">5298</span><span class="pan-group">3297</span><span class="pan-group">1273</span><span class="pan-group">5649</span></div>\n  <div class="label">Valid thru</div><div>11/27</div>\n</div>\n',
         secrets=('5298', '3297', '1273', '5649')),
    Case(id='h20-129', category='bank_card', container='txt',
         text='工号,姓名,应发,社保,公积金,个税,实发,工资卡号\nT2023087,陈思远,6800.00,544.00,816.00,42.60,5397.40,6217001548244298080\n',
         secrets=('6217001548244298080',)),
    Case(id='h20-130', category='email', container='txt',
         text='$ adb shell dumpsys account | head -8\nUser UserInfo{0:Owner:c13}:\n  Accounts: 2\n    Account {name=tang.yiran.aoun@gmail.com, type=com.google}\n    Account {name=WhatsApp, type=com.whatsapp}\n\n  AccountId, Action_Type, timestamp, UID, TableName, Key\n',
         secrets=('tang.yiran.aoun@gmail.com',)),
    Case(id='h20-131', category='email', container='txt',
         text='$ gcloud auth list\n       Credentialed Accounts\nACTIVE  ACCOUNT\n*       hao.zhen058@outlook.com\n        ml-course-runner@ml-course-2024.iam.gserviceaccount.com\n\nTo set the active account, run:\n    $ gcloud config set account `ACCOUNT`\n',
         secrets=('hao.zhen058@outlook.com',)),
    Case(id='h20-132', category='email', container='txt',
         text='+----------------------------------------------------------------------+\n| User State                                                           |\n+----------------------------------------------------------------------+\n\n                    NgcSet : NO\n           WorkplaceJoined : YES\n             WamDefaultSet : YES\n       WamDefaultAuthority : organizations\n              WorkAccount1 :\n           WorkplaceDeviceId : c01530f1-b764-42a4-adb6-321c09e32abd\n          WorkplaceTenantName : Example University\n               UserEmail : wu.jiahui39@stu.example-univ.edu.cn\n',
         secrets=('wu.jiahui39@stu.example-univ.edu.cn',)),
    Case(id='h20-133', category='email', container='note',
         text='언어교환 파트너 연락처\n이름: 민지\n이메일: minji9712 골뱅이 naver 닷 com (카톡보다 메일이 빠름)',
         secrets=('minji9712 골뱅이 naver 닷 com',)),
    Case(id='h20-134', category='email', container='note',
         text='Партнёр по языковому обмену\nИрина, пишет по-русски медленно\nпочта: irina.yllc собака яндекс точка ру\nсозвон по средам',
         secrets=('irina.yllc собака яндекс точка ру',)),
    Case(id='h20-135', category='email', container='json',
         text='[\n    {\n        "id": "U0O902URIH9",\n        "name": "chenmo",\n        "real_name": "陈默",\n        "profile": {\n            "title": "TA",\n            "phone": "",\n            "email": "chen.mo786@qq.com",\n            "display_name": "陈默"\n        },\n        "is_bot": false\n    }\n]',
         secrets=('chen.mo786@qq.com',)),
    Case(id='h20-136', category='email', container='txt',
         text='From 752c4131a7ede9b84c69a1c535d3791f5901679e Mon Sep 17 00:00:00 2001\nFrom: =?UTF-8?q?=E6=A2=81=E5=AD=90=E5=B3=B0?= <liang.zifeng.40@163.com>\nDate: Tue, 8 Oct 2024 21:14:02 +0800\nSubject: [PATCH] docs: fix typo in week 3 notes\n\n---\n notes/week3.md | 2 +-\n',
         secrets=('liang.zifeng.40@163.com',)),
    Case(id='h20-137', category='email', container='json',
         text='{"account_info": [{"account_id": "374188121762696977461", "email": "zhang.qinghe129@gmail.com", "full_name": "张清和", "gaia": "351723316798553798086", "given_name": "清和", "locale": "zh-CN"}], "browser": {"has_seen_welcome_page": true}}',
         secrets=('zhang.qinghe129@gmail.com',)),
    Case(id='h20-138', category='passport', container='note',
         text="Colombo — ICTer 2024 travel\nCo-author Kasun's details for the visa letter:\nPP No: N2217110\nExpiry: 03/2031",
         secrets=('N2217110',)),
    Case(id='h20-139', category='passport', container='note',
         text='Rabat — échange Erasmus+\nColocataire : Yassine\nN° de passeport / رقم جواز السفر : HA4246183\nValidité : 2029',
         secrets=('HA4246183',)),
    Case(id='h20-140', category='passport', container='note',
         text='Helsinki — kesäkoulu\nRyhmäläinen: Aino\npassin numero: FP2146254\nVoimassa: 2033',
         secrets=('FP2146254',)),
    Case(id='h20-141', category='passport', container='note',
         text='Θεσσαλονίκη — θερινό σχολείο\nΣυγκάτοικος: Νίκος\nαριθμός διαβατηρίου: PI3109269\nΛήξη: 2030',
         secrets=('PI3109269',)),
    Case(id='h20-142', category='passport', container='note',
         text='Brno — kolej\nSpolubydlící: Tereza\nčíslo pasu: 86605389\n(potřebuje to recepce kvůli ubytování)',
         secrets=('86605389',)),
    Case(id='h20-143', category='passport', container='txt',
         text='[签证页扫描 OCR]\nCONTROL NUMBER 20242802509537\nENTRIES M  ANNOTATION F-1 STUDENT\nVCUSAWANG<<YUHAN<<<<<<<<<<<<<<<<<<<<<<<<<<<<\nEA14149823CHN0201036F2712310YJ23I1MP3<<<<<<<\n',
         secrets=('EA1414982',)),
    Case(id='h20-144', category='passport', container='txt',
         text='SURNAME,GIVEN,DOB,SEX,NATIONALITY,DOC_TYPE,DOC_NO,DOC_COUNTRY,DOC_EXPIRY\nLIU,YANG,2002-05-17,M,CAN,P,KM394483,CAN,2031-02-11\n',
         secrets=('KM394483',)),
    Case(id='h20-145', category='passport', container='txt',
         text='---\nFieldType: Text\nFieldName: applicant_surname\nFieldValue: ZHAO\n---\nFieldType: Text\nFieldName: passport_no\nFieldValue: M8995334\n---\nFieldType: Text\nFieldName: place_of_issue\nFieldValue: LONDON\n',
         secrets=('M8995334',)),
    Case(id='h20-146', category='address', container='note',
         text='Islamabad homestay\nHost: Mrs. Siddiqui\nAddress: House 16, Street 4, F-7/2, Islamabad\nLandmark: near Jinnah Super market',
         secrets=('House 16, Street 4, F-7/2',)),
    Case(id='h20-147', category='address', container='note',
         text='Dhaka — volunteer housing\nHouse 10, Road 12, Block D, Banani, Dhaka 1213\nFlat 4B (lift is on the left)',
         secrets=('House 10, Road 12, Block D', 'Flat 4B')),
    Case(id='h20-148', category='address', container='note',
         text='Улаанбаатар — зуны сургууль\nБайрлах газар: Баянзүрх дүүрэг, 11-р хороо, 5-р байр, 97 тоот\nОрц 2, 5 давхар',
         secrets=('11-р хороо, 5-р байр, 97 тоот',)),
    Case(id='h20-149', category='address', container='note',
         text='Caracas — alojamiento\nUrb. Los Palos Grandes, Edif. Residencias Ávila, Piso 11, Apto 12A, Caracas 1060\nPortero: Sr. José (después de las 10 pm tocar el timbre)',
         secrets=('Urb. Los Palos Grandes, Edif. Residencias Ávila, Piso 11, Apto 12A',)),
    Case(id='h20-150', category='address', container='note',
         text='Reykjavík — íbúð\nHeimilisfang: Hringbraut 47, 4. hæð til vinstri, 101 Reykjavík\nLykill hjá nágranna á 1. hæð',
         secrets=('Hringbraut 47, 4. hæð til vinstri',)),
    Case(id='h20-151', category='address', container='note',
         text='Tallinn — üürikorter\nAadress: Pärnu mnt 142-34, 10141 Tallinn\nkorter on 4. korrusel, lift puudub',
         secrets=('Pärnu mnt 142-34',)),
    Case(id='h20-152', category='address', container='note',
         text='新界村屋租約筆記\n地址：大埔大埔頭148號地下\n地段：DD12 Lot 380\n業主：陳生',
         secrets=('大埔頭148號地下', 'DD12 Lot 380')),
    Case(id='h20-153', category='address', container='json',
         text='{\n  "errMsg": "chooseAddress:ok",\n  "userName": "梁晓",\n  "postalCode": "510000",\n  "provinceName": "广东省",\n  "cityName": "广州市",\n  "countyName": "天河区",\n  "detailInfo": "锦绣花园8栋3单元302",\n  "nationalCode": "440106",\n  "telNumber": "",\n  "streetName": "石牌街道"\n}',
         secrets=('锦绣花园8栋3单元302',)),
    Case(id='h20-154', category='address', container='json',
         text='{\n  "timelineObjects": [\n    {\n      "placeVisit": {\n        "location": {\n          "latitudeE7": 312550311,\n          "longitudeE7": 1214495827,\n          "placeId": "ChIJc-Fawsz7ZLuy79OcNYnrT0I",\n          "semanticType": "TYPE_HOME",\n          "name": "Home"\n        },\n        "duration": {\n          "startTimestamp": "2024-03-02T13:11:00Z",\n          "endTimestamp": "2024-03-03T00:40:00Z"\n        }\n      }\n    }\n  ]\n}',
         secrets=('312550311', '1214495827')),
    Case(id='h20-155', category='otp_secret', container='txt',
         text='gitlab-rails console\n--------------------------------------------------------------------------------\n Ruby:         ruby 3.1.5p253\n GitLab:       17.3.1 (fe6a1ba6a6f) FOSS\n--------------------------------------------------------------------------------\nirb(main):001:0> u = User.find_by_username(\'xiaoyu\')\nirb(main):002:0> u.otp_secret\n=> "OP5GGD6GACLBNY6DVQXDENATZTMCOV5V"\nirb(main):003:0> u.otp_required_for_login\n=> true\n',
         secrets=('OP5GGD6GACLBNY6DVQXDENATZTMCOV5V',)),
    Case(id='h20-156', category='otp_secret', container='txt',
         text='INSERT INTO `wp_usermeta` (`umeta_id`, `user_id`, `meta_key`, `meta_value`) VALUES\n(211, 3, \'_two_factor_enabled_providers\', \'a:1:{i:0;s:15:\\"Two_Factor_Totp\\";}\'),\n(212, 3, \'_two_factor_totp_key\', \'LE36ZZV7U3USHN2O\'),\n(213, 3, \'locale\', \'zh_CN\');\n',
         secrets=('LE36ZZV7U3USHN2O',)),
    Case(id='h20-157', category='otp_secret', container='txt',
         text='    <user>\n      <name>labadmin</name>\n      <descr>实验室网关管理员</descr>\n      <scope>user</scope>\n      <groupname>admins</groupname>\n      <uid>2000</uid>\n      <otp_seed>MCGGGUSF4P5YFOBQOQIDPBER3LG5I32N</otp_seed>\n      <shell>/bin/csh</shell>\n    </user>\n',
         secrets=('MCGGGUSF4P5YFOBQOQIDPBER3LG5I32N',)),
    Case(id='h20-158', category='otp_secret', container='note',
         text='账号安全清单\n- [x] Bitwarden 开启两步验证（Authenticator）\n- [x] 两步验证恢复代码：2EIRI0AF0LFU7ZNPFXEPKM59H3U7YOWV\n- [ ] 打印一份放抽屉',
         secrets=('2EIRI0AF0LFU7ZNPFXEPKM59H3U7YOWV',)),
    Case(id='h20-159', category='otp_secret', container='note',
         text='X 账号 @study_notes_bot\nBackup code (Settings → Security → Two-factor → Backup code)：fvi7366874og\n用一次就失效，用完记得重新生成',
         secrets=('fvi7366874og',)),
    Case(id='h20-160', category='otp_secret', container='md',
         text='## 两步验证备份\n\n手机丢了的话，点这个链接在新手机上重新添加：\n[教务系统 2FA](otpauth://totp/教务系统:2021123456?secret=FHXUKJ47EJJUQOLZZGM6X5LPCTUIJTC5&issuer=教务系统&digits=6&period=30)\n',
         secrets=('FHXUKJ47EJJUQOLZZGM6X5LPCTUIJTC5',)),
    Case(id='h20-161', category='otp_secret', container='py',
         text='import base64, hmac, struct, time, hashlib\n\nSEED = base64.b32decode("OWGJY7WCZNJOWNES3BJXPHJ6SFNFDDBH")\n\ndef totp(t=None, step=30, digits=6):\n    counter = int((t or time.time()) // step)\n    mac = hmac.new(SEED, struct.pack(">Q", counter), hashlib.sha1).digest()\n    off = mac[-1] & 0x0F\n    code = (struct.unpack(">I", mac[off:off + 4])[0] & 0x7FFFFFFF) % 10 ** digits\n    return str(code).zfill(digits)\n\nprint(totp())  # 和手机上的对得上\n',
         secrets=('OWGJY7WCZNJOWNES3BJXPHJ6SFNFDDBH',)),
    Case(id='h20-162', category='otp_secret', container='txt',
         text='账号,验证码,备注\n课程平台,"=TOTP(""JDMPRUMJSGTCLYEBTEU7H6HI2AUPWYN5"")",每 30 秒刷新\n',
         secrets=('JDMPRUMJSGTCLYEBTEU7H6HI2AUPWYN5',)),
    Case(id='h20-163', category='recovery_phrase', container='note',
         text='今天把钱包助记词备份到笔记里了（按顺序）\n#oblige #demand #able #latin #switch #wing #guitar #leopard #wisdom #detect #winter #deputy\n#备份 #重要',
         secrets=('oblige', 'demand', 'able', 'latin', 'switch', 'wing', 'guitar', 'leopard', 'wisdom', 'detect', 'winter', 'deputy')),
    Case(id='h20-164', category='recovery_phrase', container='txt',
         text="-- respaldo de la billetera (no subir a git)\nCREATE TABLE semilla (pos INT PRIMARY KEY, palabra TEXT);\nINSERT INTO semilla VALUES\n(1, 'móvil'),\n(2, 'signo'),\n(3, 'áspero'),\n(4, 'perfil'),\n(5, 'lima'),\n(6, 'oleada'),\n(7, 'valor'),\n(8, 'área'),\n(9, 'marea'),\n(10, 'espejo'),\n(11, 'sidra'),\n(12, 'liso');\n",
         secrets=('móvil', 'signo', 'áspero', 'perfil', 'lima', 'oleada', 'valor', 'área', 'marea', 'espejo', 'sidra', 'liso')),
    Case(id='h20-165', category='recovery_phrase', container='txt',
         text='import org.bitcoinj.crypto.MnemonicCode\n\nclass WalletRestoreTest {\n    @Test\n    fun restoresMyWallet() {\n        val words = listOf("phone", "canyon", "glare", "talk", "dynamic", "nuclear", "raise", "elevator", "bean", "play", "heavy", "assist")\n        val seed = MnemonicCode.toSeed(words, "")\n        assertEquals(64, seed.size)\n    }\n}\n',
         secrets=('phone", "canyon", "glare", "talk", "dynamic", "nuclear", "raise", "elevator", "bean", "play", "heavy", "assist',)),
    Case(id='h20-166', category='recovery_phrase', container='txt',
         text='import WalletCore\n\nlet phrase = "gruyère bordure épicerie imprimer double distance caviar menacer novateur négliger filature halte"\nlet wallet = HDWallet(mnemonic: phrase, passphrase: "")!\nprint(wallet.getAddressForCoin(coin: .ethereum))\n',
         secrets=('gruyère bordure épicerie imprimer double distance caviar menacer novateur négliger filature halte',)),
    Case(id='h20-167', category='recovery_phrase', container='txt',
         text='<h2>Frase di recupero</h2>\n<ol class="seed">\n    <li>popoloso</li>\n    <li>trasloco</li>\n    <li>ornativo</li>\n    <li>stirpe</li>\n    <li>revocato</li>\n    <li>gamma</li>\n    <li>beta</li>\n    <li>reddito</li>\n    <li>cascata</li>\n    <li>toppa</li>\n    <li>sisma</li>\n    <li>disumano</li>\n</ol>\n<p>Non condividere mai queste parole.</p>\n',
         secrets=('popoloso', 'trasloco', 'ornativo', 'stirpe', 'revocato', 'gamma', 'beta', 'reddito', 'cascata', 'toppa', 'sisma', 'disumano')),
    Case(id='h20-168', category='recovery_phrase', container='txt',
         text='/* backup.h — 别提交！ */\nstatic const uint16_t SEED_IDX[24] = { 0x1af, 0x5af, 0x5dd, 0x630, 0x161, 0x4b4, 0x304, 0x462, 0x45c, 0x100, 0x74d, 0x4ba, 0x1fc, 0x5a9, 0x654, 0x16e, 0x080, 0x667, 0x035, 0x0ed, 0x473, 0x4ba, 0x370, 0x0ee };\n',
         secrets=('0x1af, 0x5af, 0x5dd, 0x630, 0x161, 0x4b4, 0x304, 0x462, 0x45c, 0x100, 0x74d, 0x4ba, 0x1fc, 0x5a9, 0x654, 0x16e, 0x080, 0x667, 0x035, 0x0ed, 0x473, 0x4ba, 0x370, 0x0ee',)),
    Case(id='h20-169', category='recovery_phrase', container='note',
         text='сид-фраза (набрал не в той раскладке, потом переведу):\nыьфке ефзу путку идгк ьгдешздн вшуе скфеук кшср ыускуе кфсл зщтв зущзду',
         secrets=('ыьфке ефзу путку идгк ьгдешздн вшуе скфеук кшср ыускуе кфсл зщтв зущзду',)),
    Case(id='h20-170', category='recovery_phrase', container='txt',
         text='const HDWalletProvider = require(\'@truffle/hdwallet-provider\');\n\nmodule.exports = {\n  networks: {\n    sepolia: {\n      provider: () => new HDWalletProvider({\n        mnemonic: { phrase: "chunk together top simple grape tired raven glass zone noise march old betray latin charge ceiling zoo that knife mandate strategy summer nut scatter" },\n        providerOrUrl: "https://sepolia.infura.io/v3/" + process.env.INFURA_ID,\n      }),\n      network_id: 11155111,\n    },\n  },\n};\n',
         secrets=('chunk together top simple grape tired raven glass zone noise march old betray latin charge ceiling zoo that knife mandate strategy summer nut scatter',)),
    Case(id='h20-171', category='recovery_phrase', container='note',
         text='顺口溜（钱包的，背下来）：\n扑辅基，陵角抚，曲却揭，码惊陪。',
         secrets=('扑辅基', '陵角抚', '曲却揭', '码惊陪')),
    Case(id='h20-172', category='licence_plate', container='note',
         text='Dubai stopover — rental car\nplate: Dubai Q 12464 (white Nissan Sunny)\nparked at Mall of the Emirates, P2 zone C',
         secrets=('Dubai Q 12464',)),
    Case(id='h20-173', category='licence_plate', container='note',
         text='काठमाडौं — स्वयंसेवा\nट्याक्सी नम्बर: बा ३ च ८२६१\nभाडा: ५०० रुपैयाँ',
         secrets=('बा ३ च ८२६१',)),
    Case(id='h20-174', category='licence_plate', container='note',
         text='თბილისი — მანქანის გაზიარება\nმძღოლი: გიორგი\nსახელმწიფო ნომერი: KO-633-LS\nშეხვედრა: რუსთაველის მეტროსთან',
         secrets=('KO-633-LS',)),
    Case(id='h20-175', category='licence_plate', container='note',
         text='Nairobi — project transport\nDriver Peter picks us up daily, car reg KAV 071B, silver Probox\nM-Pesa him at the end of the week',
         secrets=('KAV 071B',)),
    Case(id='h20-176', category='licence_plate', container='note',
         text='София — споделено пътуване\nШофьор: Иван\nрег. номер: СА 6806 ХР\nтръгваме от НДК в 8:00',
         secrets=('СА 6806 ХР',)),
    Case(id='h20-177', category='licence_plate', container='note',
         text='Córdoba — auto compartido\nConductor: Martín\npatente: RL 071 YJ (Gol gris)\nsalimos de la terminal a las 7',
         secrets=('RL 071 YJ',)),
    Case(id='h20-178', category='licence_plate', container='note',
         text='【交管12123】您的小型汽车皖EQDR5Z于2024年11月02日08时14分在长江路与珠江路路口，实施机动车违反禁令标志指示的违法行为，请及时处理。\n——爸爸转给我的，周末帮他在 app 上处理',
         secrets=('皖EQDR5Z',)),
    Case(id='h20-179', category='licence_plate', container='note',
         text='小区车位登记（物业表格）\n业主：15栋\n车牌号：沪ＥＷＢＢＳＡ\n车型：白色特斯拉 Model 3\n登记日期：2024-12-01',
         secrets=('沪ＥＷＢＢＳＡ',)),
]
