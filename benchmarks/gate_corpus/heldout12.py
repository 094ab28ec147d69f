"""Held-out batch 12: secrets and personal data in shapes the gate was not designed around.

Written in session 13 by an engineer (gwriter) who had read DESIGN.md, the README's privacy
paragraph, the corpus format (``__init__``, bench_gate.py) and only the docstrings of the earlier
batches (heldout to heldout11), never the detectors, the earlier batches' cases nor the gate's
tests; the gate was not run on it while it was written (sealed in /root/lead13/gate). 166 cases:
api_key 36, auth_header 12, connection_string 12, private_key 8, password 22, resident_id 12, mobile 10, bank_card 9, email 7, passport 7, address 9, otp_secret 7, recovery_phrase 8, licence_plate 7.
Values generated for the corpus (/root/lead13/gate/gen12.py, seed 1212): keys random in each
provider's shape, private keys real but built from the seed and thrown away (RSA from seeded primes,
EC P-256/P-384 and Ed25519/X25519 from seeded scalars, the OpenSSH file assembled by hand),
ID/card/account numbers built to pass their checksums (CN GB 11643, Norwegian fødselsnummer, Finnish
HETU, Belgian rijksregisternummer, Chilean RUT, Argentine CUIL, South African ID, Israeli Teudat
Zehut, Romanian CNP, Mexican CURP, card Luhn, IBAN mod-97 incl. Polish NRB and Belgian BBAN, Mexican
CLABE, VIN check digit), BIP39 phrases with valid checksums (English 12 and 15 words, Simplified
Chinese, Japanese, Spanish); none belongs to anyone. Addresses are labelled from the road or
building down (city and district left, as the gate's design says). Encoded secrets (escaped,
percent-encoded, base64, byte arrays, upper-case numerals, emoji keycaps) are labelled as they
appear in the text; a private key is labelled line by line (its body lines), a grid or list of seed
words word by word (each occurs once in its text).

Shapes, one per case (category: shape):
api_key: Together AI key (tgp_v1_…) in an Emacs gptel (setq …) form
api_key: Voyage AI key (pa-…) in a Vimscript let g: variable
api_key: NVIDIA NIM key (nvapi-…) set universally in fish shell (set -Ux)
api_key: Coze (扣子) personal access token (pat_…) in the cozepy TokenAuth call
api_key: Dify app API key (app-…) in a Node fetch call to a self-hosted Dify
api_key: FastGPT key (fastgpt-…) as a channel key in a ChatGPT-Next-Web style config
api_key: ModelScope SDK token (ms-<uuid>) in a `modelscope login` terminal transcript
api_key: PaddlePaddle AI Studio access token (40 hex) in os.environ of a course script
api_key: Tianditu (天地图) tk in a Leaflet tile-layer URL in an HTML snippet
api_key: Juhe Data (聚合数据) key in a PHP curl URL for a weather API
api_key: UpYun (又拍云) operator password in a PicGo config.json image-bed block
api_key: Geetest (极验) private key beside its public captcha id in a Flask config
api_key: NetEase Yunxin (网易云信) AppSecret used in a Java CheckSum computation
api_key: Getui (个推) MasterSecret in a Java .properties file
api_key: Caiyun Xiaoyi (彩云小译) token in a Tampermonkey userscript header value
api_key: NiuTrans (小牛翻译) apikey in a Bob translator plugin options JSON
api_key: Forvo pronunciation API key inside an AutoHotkey script URL
api_key: Readwise access token in a systemd user unit Environment= line
api_key: Vultr API key (36 upper-case alphanumerics) in a terraform.tfvars file
api_key: Hetzner Cloud API token pasted at the `hcloud context create` prompt
api_key: IBM Cloud API key on an `ibmcloud login --apikey` line in shell history
api_key: Auth0 client secret in a Nuxt nuxt.config.ts runtimeConfig
api_key: Shodan API key typed into `shodan init` in a CTF write-up transcript
api_key: VirusTotal API key (64 hex) passed to vt.NewClient in Go
api_key: Algolia admin API key next to the public search-only key in a Hexo _config.yml
api_key: Asana personal access token (2/…/…:…) in a Haskell http-conduit snippet
api_key: Render API key (rnd_…) stored with Windows setx in a cmd transcript
api_key: Neon API key (napi_…) as a Deno.env fallback literal
api_key: HERE API key passed with flutter run --dart-define
api_key: Brevo (Sendinblue) key (xkeysib-…) in a Strapi config/plugins.js
api_key: Mailchimp API key inside a PHP-serialized wp_options row of an SQL dump
api_key: HubSpot private-app token (pat-na1-…) in an n8n workflow export's HTTP node header
api_key: Anaconda.org token inside a channel URL (/t/<token>/) in ~/.condarc
api_key: AnkiConnect apiKey in a Yomitan settings export (the rest is public settings)
api_key: Wolfram|Alpha AppID given positionally to wolframalpha.Client
api_key: Deepgram API key (40 hex) as an OCaml let binding
auth_header: Bearer token in Chrome's 'Copy as cURL (cmd)' with ^" escaping
auth_header: login cookie added to a PowerShell WebRequestSession (Copy as PowerShell)
auth_header: Bilibili SESSDATA in an LWP cookie jar file (#LWP-Cookies-2.0, Set-Cookie3)
auth_header: session cookie value in an EditThisCookie JSON export
auth_header: Bearer token written into an nginx access log by a custom $http_authorization format
auth_header: Jellyfin/Emby X-Emby-Token header in a home media server note
auth_header: X-Plex-Token as a query parameter in a Plex library URL
auth_header: Home Assistant long-lived access token in a rest_command Authorization header
auth_header: Baidu Netdisk BDUSS cookie on a BaiduPCS-Go login -bduss= command
auth_header: Telethon StringSession string saved for a Telegram vocabulary bot
auth_header: Chaoxing (超星学习通) login cookies copied into a sign-in script
auth_header: MoodleSession cookie in a wget --header line of a course-download script
connection_string: TiDB Cloud Serverless URL whose user has the cluster prefix (xxxx.root)
connection_string: CouchDB admin credentials in a PouchDB sync URL
connection_string: SurrealDB started with --user root --pass in a Docker command
connection_string: Redis Sentinel sentinel auth-pass line in sentinel.conf
connection_string: WinSCP script 'open sftp://user:password@host' with a host key
connection_string: DuckDB ATTACH of a Postgres database with a libpq password
connection_string: smbclient -U user%password to a school file share
connection_string: ipmitool -I lanplus -U ADMIN -P password for a server BMC
connection_string: xfreerdp /u: /p: /v: to a lab Windows machine
connection_string: private SNMP v2c community string in snmpwalk
connection_string: pgbouncer userlist.txt with plaintext "user" "password" pairs
connection_string: Nodemailer-style smtps:// URL with a mail authorisation code in a Django setting
private_key: OpenSSH ed25519 private key in a Dockerfile COPY <<EOF heredoc
private_key: RSA key (\\n-escaped PEM) in a terraform.tfstate tls_private_key resource
private_key: DKIM RSA private key (opendkim mail.private) in a mail-server setup note
private_key: Ed25519 seed as Go 0x.. byte literals given to ed25519.NewKeyFromSeed
private_key: Nebula X25519 host private key inline in config.yml (pki.key block scalar)
private_key: Syncthing key.pem (EC P-384 SEC1) pasted in a fenced block of a migration note
private_key: Tailscale machine key as base64 of 'privkey:<hex>' in tailscaled.state
private_key: `openssl ec -text -noout` output: the priv: scalar as colon-separated hex lines
password: Hindi पासवर्ड label in a Hindi-class WhatsApp export
password: Hebrew סיסמה label in an ulpan note
password: Swedish lösenord label in an SFI course note
password: Czech heslo label for the university Wi-Fi (eduroam-style local account)
password: Cantonese 密碼係 in a chat with a classmate
password: pinyin abbreviation 'mm' for 密码 after a 'zh' account in a chat
password: Samba user password piped twice into smbpasswd -s -a
password: mysqladmin -u root password 'NEW' in a lab setup note
password: mosquitto_passwd -b file user password for an IoT course broker
password: rabbitmqctl add_user NAME PASSWORD
password: Windows cmdkey /add /user /pass for a NAS
password: PowerShell ConvertTo-SecureString -AsPlainText -Force
password: Huawei VRP local-user password simple in a network lab config
password: Cisco IOS 'username … password 0 …' and 'enable password'
password: gpg --batch --passphrase for symmetric encryption of a backup
password: Selenium send_keys with the login password of a course site
password: Mutt ~/.muttrc set imap_pass / smtp_pass
password: hostapd.conf wpa_passphrase for a Raspberry Pi hotspot
password: PPPoE 宽带账号/宽带密码 in a router setup note
password: Dr.COM campus-network login as a curl form body (DDDDD/upass)
password: msoffcrypto-tool -p to decrypt a password-protected Excel file
password: VeraCrypt text-mode mount with --password=
resident_id: Norwegian fødselsnummer (two mod-11 check digits) on a UDI/Skatteetaten note
resident_id: Finnish henkilötunnus (DDMMYY-NNNC, mod-31 check character) in a Kela form draft
resident_id: Belgian rijksregisternummer (YY.MM.DD-NNN.CC, mod 97) in a commune appointment note
resident_id: Chilean RUT (12.345.678-K style, mod-11) in a Santiago exchange checklist
resident_id: Argentine CUIL (XX-XXXXXXXX-X) in a Buenos Aires rental note
resident_id: South African ID number (13 digits, Luhn) in a Cape Town internship form
resident_id: Israeli Teudat Zehut (9 digits) in a Hebrew label line
resident_id: Romanian CNP (13 digits, mod-11 weights 279146358279) in an Erasmus form
resident_id: Mexican CURP (18 characters with check digit) in a Spanish-course homework
resident_id: Chinese ID number on a hospital outpatient record (门诊病历) with 医保
resident_id: Chinese ID number on a gaokao score report (education record)
resident_id: Chinese driving licence number (= ID number) from a 12123 screenshot OCR
mobile: Thai mobile +66 8x-xxx-xxxx with เบอร์โทร label
mobile: Indonesian mobile with 'no. HP' label in a Bahasa class note
mobile: Turkish mobile with 'cep' label
mobile: Italian mobile with 'cellulare' label in a homestay note
mobile: Polish mobile with 'tel. kom.' label
mobile: Chinese mobile written in financial upper-case numerals (壹贰叁…)
mobile: Chinese mobile written with emoji keycap digits in a chat
mobile: SMS sender number in `adb shell content query --uri content://sms` output
mobile: emergency contact's mobile on a student registration card (学籍卡)
mobile: Philippine mobile +63 9xx in a Shopee seller chat
bank_card: Mexican CLABE interbancaria (18 digits with check digit) for a rent transfer
bank_card: Swiss QR-bill payload (SPC 0200) with a private creditor's IBAN
bank_card: EPC (SEPA Girocode) QR payload with a tutor's IBAN
bank_card: SWIFT MT103 field :59: with the beneficiary's IBAN
bank_card: magnetic-stripe track 1 (%B…^NAME^…?) in a POS reader debug log
bank_card: Polish NRB account number (26 digits, IBAN check) with 'nr konta'
bank_card: Turkish Troy card (9792…) with 'kart numarası' and SKT
bank_card: embossed card number OCR'd one group per line from a photo
bank_card: RuPay card (6522…) with Hindi कार्ड नंबर label
email: emailAddress= in the subject of `openssl x509 -noout -subject` output
email: personal e-mail as the comment of an ssh-ed25519 public key
email: gpg --list-keys uid line Name <address>
email: schema.org JSON-LD Person with "email": "mailto:…" on a personal homepage
email: Thai อีเมล label in a language-exchange contact note
email: address broken across two lines at the @ by PDF text extraction
email: recipient list literal in smtplib sendmail
passport: US passport book number (letter + 8 digits) under DS-82 'Passport Book Number'
passport: Thai passport number with หนังสือเดินทาง label
passport: Indonesian 'nomor paspor' in a travel-group chat
passport: Turkish 'pasaport no' (U + 8 digits)
passport: Philippine passport (P + 7 digits + letter) in an OEC form draft
passport: 大陆居民往来台湾通行证 number in an exchange-program checklist
passport: Canadian passport (2 letters + 6 digits) in a visa-application checklist
address: Polish address 'ul. … m. …' (flat number after m.)
address: Mexico City address with Int. number before the colonia
address: Bangkok address with house number/บ้านเลขที่ and ซอย
address: Pune flat address (Flat No., Wing, Society, Road)
address: Hanoi address with số/ngõ/ngách/phố
address: Yogyakarta address with Jl./No./RT/RW
address: Istanbul address with Mah./Sok./No:/D:
address: Macau address in traditional characters (大馬路/號/花園/樓/座)
address: 房屋坐落 field on a property-certificate (不动产权证书) OCR
otp_secret: oathtool --totp with a hex key (its default input mode)
otp_secret: totp-rs Secret::Encoded base32 literal in Rust
otp_secret: Go pquerna/otp totp.GenerateCode with a literal secret
otp_secret: django-otp TOTPDevice key (40 hex) in a manage.py dumpdata fixture
otp_secret: Keycloak realm-export user credential of type otp (secretData is escaped JSON)
otp_secret: Home Assistant otp sensor platform with a token:
otp_secret: otpauth URI whose Chinese issuer is percent-encoded
recovery_phrase: MetaMask decrypted vault pasted in a note: the mnemonic as an array of UTF-8 byte values
recovery_phrase: Foundry `cast wallet import --mnemonic "…"` in shell history
recovery_phrase: `solana-keygen new` output: 'Save this seed phrase…' then the 12 words
recovery_phrase: 12 words from a two-column card read across rows by OCR (1. … 7. …)
recovery_phrase: 15-word English phrase as a Python list split over lines in a test script
recovery_phrase: Simplified-Chinese BIP39 words in a 3x4 Markdown table
recovery_phrase: Japanese BIP39 words as a numbered list under 復元フレーズ
recovery_phrase: Spanish phrase URL-encoded (+ and %C3%..) in a phishing page's query string from history
licence_plate: car-insurance policy OCR with the plate and a check-digit-valid VIN
licence_plate: trailer plates (…挂) in a CSV of a family haulage business's trips
licence_plate: Chinese plate typed in lower case in a chat
licence_plate: Thai plate with its province on a rental-scooter note
licence_plate: Indian registration (MH 12 AB 1234) in a Pune rental agreement
licence_plate: Dutch kenteken in sidecode 10 (9-XXX-99)
licence_plate: California plate in a parking-citation e-mail
"""

from __future__ import annotations

from benchmarks.gate_corpus import Case

CASES: list[Case] = [
    # Together AI key (tgp_v1_…) in an Emacs gptel (setq …) form
    Case('h12-001', 'api_key', 'note',
         ';; init.el 里 gptel 的配置，换成 Together 的 Llama 3.3\n(use-package gptel\n  :config\n  (setq gptel-model \'meta-llama/Llama-3.3-70B-Instruct-Turbo\n        gptel-backend (gptel-make-openai "Together"\n                        :host "api.together.xyz"\n                        :key "tgp_v1_MKZtsQ2KgaZSWpZfVRa6Ekfp6Zv7dcY3owNd2UsKkQX"\n                        :stream t)))',
         ('tgp_v1_MKZtsQ2KgaZSWpZfVRa6Ekfp6Zv7dcY3owNd2UsKkQX',)),
    # Voyage AI key (pa-…) in a Vimscript let g: variable
    Case('h12-002', 'api_key', 'note',
         '" ~/.vimrc —— 用 Voyage 的 embedding 给笔记做语义搜索插件\nlet g:notes_embed_provider = \'voyage\'\nlet g:notes_embed_model = \'voyage-3-lite\'\nlet g:voyage_api_key = \'pa-bAtYNESgTcDU8c6dtohtIjP2LTWykZZi8gv3Qlp9rAA\'\nnnoremap <leader>ss :NotesSemanticSearch<CR>',
         ('pa-bAtYNESgTcDU8c6dtohtIjP2LTWykZZi8gv3Qlp9rAA',)),
    # NVIDIA NIM key (nvapi-…) set universally in fish shell (set -Ux)
    Case('h12-003', 'api_key', 'note',
         "fish 里设的全局变量，换电脑记得重新设：\n\n    set -Ux NVIDIA_API_KEY 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\n    set -Ux NIM_BASE_URL https://integrate.api.nvidia.com/v1\n\n然后 `llm -m nvidia/llama-3.1-nemotron-70b-instruct '解释一下 Rust 的借用检查'`",
         ('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',)),
    # Coze (扣子) personal access token (pat_…) in the cozepy TokenAuth call
    Case('h12-004', 'api_key', 'py',
         '# 扣子智能体：把单词卡片推到飞书\nfrom cozepy import COZE_CN_BASE_URL, Coze, TokenAuth, Message\n\ncoze = Coze(auth=TokenAuth("pat_ttR8zFTMDzQGq3cvHseGjrXXWW09G0OM0ekeoOWx9KdD68vNvEjGLvf2d0g6MOP7"), base_url=COZE_CN_BASE_URL)\nBOT_ID = "7412" + "983650217745202"\n\n\ndef ask(q: str) -> str:\n    chat = coze.chat.create_and_poll(bot_id=BOT_ID, user_id="me",\n                                     additional_messages=[Message.build_user_question_text(q)])\n    return chat.messages[-1].content\n',
         ('pat_ttR8zFTMDzQGq3cvHseGjrXXWW09G0OM0ekeoOWx9KdD68vNvEjGLvf2d0g6MOP7',)),
    # Dify app API key (app-…) in a Node fetch call to a self-hosted Dify
    Case('h12-005', 'api_key', 'note',
         "自建 Dify 上的「英语作文批改」应用，API 访问：\n```js\nconst res = await fetch('http://192.168.31.20/v1/chat-messages', {\n  method: 'POST',\n  headers: { 'Content-Type': 'application/json', Authorization: 'Bearer app-PJuOmLrIFtbJ63vGgPzYltZG' },\n  body: JSON.stringify({ inputs: {}, query: essay, user: 'me', response_mode: 'blocking' }),\n});\n```",
         ('app-PJuOmLrIFtbJ63vGgPzYltZG',)),
    # FastGPT key (fastgpt-…) as a channel key in a ChatGPT-Next-Web style config
    Case('h12-006', 'api_key', 'yaml',
         '# docker-compose 的 environment 抽出来的配置\nchannels:\n  - name: 本地知识库\n    base_url: http://fastgpt:3000/api/v1\n    key: fastgpt-skxa776oLbYDy3jiSh3IuRTEODfhFtdx7BRwT6OJqjRKzGY8\n    models: [fastgpt-kb]\n  - name: 备用\n    base_url: http://oneapi:3000/v1\n    key: ${ONEAPI_KEY}\n',
         ('fastgpt-skxa776oLbYDy3jiSh3IuRTEODfhFtdx7BRwT6OJqjRKzGY8',)),
    # ModelScope SDK token (ms-<uuid>) in a `modelscope login` terminal transcript
    Case('h12-007', 'api_key', 'txt',
         '(base) ➜  ~ pip install -U modelscope -q\n(base) ➜  ~ modelscope login --token ms-54263c34-c622-4258-82ec-e77c6e0b2d19\n2026-11-30 21:14:02,113 - modelscope - INFO - Login successful.\n(base) ➜  ~ modelscope download --model qwen/Qwen2.5-1.5B-Instruct --local_dir ./qwen\nDownloading [model.safetensors]: 100%|██████████| 2.88G/2.88G',
         ('ms-54263c34-c622-4258-82ec-e77c6e0b2d19',)),
    # PaddlePaddle AI Studio access token (40 hex) in os.environ of a course script
    Case('h12-008', 'api_key', 'py',
         'import os\n\n# 飞桨星河社区 → 个人中心 → 访问令牌\nos.environ["AISTUDIO_ACCESS_TOKEN"] = "8a25f965a8c70b0bdc8910addbb669bbc614fc07"\n\nimport erniebot\n\nerniebot.api_type = "aistudio"\nresp = erniebot.ChatCompletion.create(model="ernie-3.5", messages=[{"role": "user", "content": "你好"}])\n',
         ('8a25f965a8c70b0bdc8910addbb669bbc614fc07',)),
    # Tianditu (天地图) tk in a Leaflet tile-layer URL in an HTML snippet
    Case('h12-009', 'api_key', 'md',
         "# GIS 课第 3 次作业\n\n天地图矢量底图（tk 是我自己申请的浏览器端 key）：\n\n```html\n<script>\n  const map = L.map('map').setView([30.52, 114.36], 13);\n  L.tileLayer('https://t{s}.tianditu.gov.cn/vec_w/wmts?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=vec&STYLE=default&TILEMATRIXSET=w&FORMAT=tiles&TILEMATRIX={z}&TILEROW={y}&TILECOL={x}&tk=bbd1e30c4f3d03ae589cce16e8b0f19b',\n    { subdomains: ['0','1','2','3','4','5','6','7'] }).addTo(map);\n</script>\n```\n",
         ('bbd1e30c4f3d03ae589cce16e8b0f19b',)),
    # Juhe Data (聚合数据) key in a PHP curl URL for a weather API
    Case('h12-010', 'api_key', 'note',
         '<?php\n// 聚合数据 天气预报接口，每天免费 50 次\n$city = urlencode(\'武汉\');\n$url = "http://apis.juhe.cn/simpleWeather/query?city={$city}&key=d15216bab691228f090c64f9cc025a73";\n$ch = curl_init($url);\ncurl_setopt($ch, CURLOPT_RETURNTRANSFER, true);\necho json_decode(curl_exec($ch), true)[\'result\'][\'realtime\'][\'info\'];',
         ('d15216bab691228f090c64f9cc025a73',)),
    # UpYun (又拍云) operator password in a PicGo config.json image-bed block
    Case('h12-011', 'api_key', 'json',
         '{\n  "picBed": {\n    "uploader": "upyun",\n    "current": "upyun",\n    "upyun": {\n      "bucket": "my-notes-img",\n      "operator": "typora",\n      "password": "nzaFfLxbEGxGPqOEi2AZSgV72gsvGSu5",\n      "options": "!/fw/1200",\n      "path": "img/",\n      "url": "https://img.example-notes.cn"\n    }\n  },\n  "picgoPlugins": {}\n}',
         ('nzaFfLxbEGxGPqOEi2AZSgV72gsvGSu5',)),
    # Geetest (极验) private key beside its public captcha id in a Flask config
    Case('h12-012', 'api_key', 'py',
         'class Config:\n    SQLALCHEMY_DATABASE_URI = "sqlite:///dev.db"\n    # 极验 4 代：captcha_id 前端也要用，可以公开；private_key 只能在服务端\n    GEETEST_CAPTCHA_ID = "27f9e58d69b3592053cd842b43d3c625"\n    GEETEST_PRIVATE_KEY = "e70aa68c8130c7c2800bd9f157990907"\n',
         ('e70aa68c8130c7c2800bd9f157990907',)),
    # NetEase Yunxin (网易云信) AppSecret used in a Java CheckSum computation
    Case('h12-013', 'api_key', 'note',
         '云信服务端 API 的签名：CheckSum = SHA1(AppSecret + Nonce + CurTime)\n```java\nString appKey = "aed694c9abfaf0606ac72dd4f50b7c42";      // 公开的应用标识\nString appSecret = "3fcdef969579";\nString nonce = UUID.randomUUID().toString();\nString curTime = String.valueOf(System.currentTimeMillis() / 1000);\nString checkSum = DigestUtils.sha1Hex(appSecret + nonce + curTime);\n```',
         ('3fcdef969579',)),
    # Getui (个推) MasterSecret in a Java .properties file
    Case('h12-014', 'api_key', 'txt',
         '# getui.properties  —— 校园 App 推送\ngetui.baseUrl=https://restapi.getui.com/v2/\ngetui.appId=Cdpor5c4dxW4UJtlTGDPZ2\ngetui.masterSecret=WxT1b1GAopfYtAuLnOvwLj\ngetui.retry=3\n',
         ('WxT1b1GAopfYtAuLnOvwLj',)),
    # Caiyun Xiaoyi (彩云小译) token in a Tampermonkey userscript header value
    Case('h12-015', 'api_key', 'note',
         "// ==UserScript==\n// @name         划词翻译（彩云）\n// @match        *://*/*\n// @grant        GM_xmlhttpRequest\n// @connect      api.interpreter.caiyunai.com\n// ==/UserScript==\n\nconst CAIYUN_TOKEN = 'token:udga27lc9xsz9plh7dpq';\nfunction translate(text) {\n  GM_xmlhttpRequest({\n    method: 'POST', url: 'https://api.interpreter.caiyunai.com/v1/translator',\n    headers: { 'content-type': 'application/json', 'x-authorization': CAIYUN_TOKEN },\n    data: JSON.stringify({ source: [text], trans_type: 'auto2zh' }),\n  });\n}",
         ('udga27lc9xsz9plh7dpq',)),
    # NiuTrans (小牛翻译) apikey in a Bob translator plugin options JSON
    Case('h12-016', 'api_key', 'json',
         '{\n  "identifier": "com.bob.plugin.niutrans",\n  "version": "0.3.1",\n  "options": [\n    {"identifier": "apikey", "value": "75bbdf8ca2d251bf077cf3a99ce2e116"},\n    {"identifier": "from", "value": "auto"},\n    {"identifier": "to", "value": "zh"}\n  ]\n}',
         ('75bbdf8ca2d251bf077cf3a99ce2e116',)),
    # Forvo pronunciation API key inside an AutoHotkey script URL
    Case('h12-017', 'api_key', 'note',
         '; 选中单词按 Ctrl+Alt+F 播放 Forvo 发音\n^!f::\n    Send, ^c\n    ClipWait, 1\n    word := Clipboard\n    url := "https://apifree.forvo.com/key/e41d756fda2ff8db3451df66f7e9c637/format/json/action/word-pronunciations/word/" . word . "/language/en"\n    WinHttp := ComObjCreate("WinHttp.WinHttpRequest.5.1")\n    WinHttp.Open("GET", url, false)\n    WinHttp.Send()\nreturn',
         ('e41d756fda2ff8db3451df66f7e9c637',)),
    # Readwise access token in a systemd user unit Environment= line
    Case('h12-018', 'api_key', 'note',
         '~/.config/systemd/user/readwise-sync.service\n\n[Unit]\nDescription=把 Readwise 高亮同步成 Markdown\n\n[Service]\nType=oneshot\nEnvironment=READWISE_TOKEN=EMYJayhJf7nDJoZmYRmuPaZDz3lhdHosjXJvk0EpiP2mN0EId6\nEnvironment=OUT_DIR=%h/notes/highlights\nExecStart=%h/.local/bin/readwise-export\n',
         ('EMYJayhJf7nDJoZmYRmuPaZDz3lhdHosjXJvk0EpiP2mN0EId6',)),
    # Vultr API key (36 upper-case alphanumerics) in a terraform.tfvars file
    Case('h12-019', 'api_key', 'txt',
         '# terraform.tfvars — 课程实验用的小 VPS\nvultr_api_key = "8PM7FRMSJ5CPVVNTYG1T4FVFFPB1U9MFZ0WD"\nregion        = "nrt"\nplan          = "vc2-1c-1gb"\nos_id         = 2136\n',
         ('8PM7FRMSJ5CPVVNTYG1T4FVFFPB1U9MFZ0WD',)),
    # Hetzner Cloud API token pasted at the `hcloud context create` prompt
    Case('h12-020', 'api_key', 'txt',
         '$ hcloud context create thesis\nToken: rlmagBvG9aNIVSLd1P0SgsYTdCPcp63ftAvoqIUboGRcO11M3YEZv1FWiB5oXLMH\nContext thesis created and activated\n$ hcloud server create --name gpu-lab --type cx22 --image ubuntu-24.04\n',
         ('rlmagBvG9aNIVSLd1P0SgsYTdCPcp63ftAvoqIUboGRcO11M3YEZv1FWiB5oXLMH',)),
    # IBM Cloud API key on an `ibmcloud login --apikey` line in shell history
    Case('h12-021', 'api_key', 'txt',
         '  501  brew install ibm-cloud-cli\n  502  ibmcloud login --apikey GgUu1kXaETDdiz1IOXqyyszEsnonn-xVWBTKugrrKNDV -r jp-tok\n  503  ibmcloud ce project select --name watson-demo\n  504  ibmcloud ce app list\n',
         ('GgUu1kXaETDdiz1IOXqyyszEsnonn-xVWBTKugrrKNDV',)),
    # Auth0 client secret in a Nuxt nuxt.config.ts runtimeConfig
    Case('h12-022', 'api_key', 'note',
         "export default defineNuxtConfig({\n  modules: ['@sidebase/nuxt-auth'],\n  runtimeConfig: {\n    auth0: {\n      domain: 'dev-notes.jp.auth0.com',\n      clientId: 'wkPFzna1relztonAoxTf65FQwoFvTy94',\n      clientSecret: 'raXkMLSgCFTPPxfuxPuCueol031BPebVKIlsFdhGy1tj2EwDj7tcBPyb1SQvrZHc',\n    },\n  },\n})",
         ('raXkMLSgCFTPPxfuxPuCueol031BPebVKIlsFdhGy1tj2EwDj7tcBPyb1SQvrZHc',)),
    # Shodan API key typed into `shodan init` in a CTF write-up transcript
    Case('h12-023', 'api_key', 'txt',
         'Recon 阶段：\n\nroot@kali:~# pip3 install shodan\nroot@kali:~# shodan init oRcrt0bqzopWtNbIxazDAsKxP2cZ1lch\nSuccessfully initialized\nroot@kali:~# shodan host 203.0.113.7\n',
         ('oRcrt0bqzopWtNbIxazDAsKxP2cZ1lch',)),
    # VirusTotal API key (64 hex) passed to vt.NewClient in Go
    Case('h12-024', 'api_key', 'note',
         '恶意样本分析课的小工具：\n\n```go\npackage main\n\nimport (\n\t"fmt"\n\tvt "github.com/VirusTotal/vt-go"\n)\n\nfunc main() {\n\tclient := vt.NewClient("9c18afc7bbbb6e571501cfe4b9ba84f2760ea43635dfc96aec5e1b0dd596d94b")\n\tfile, _ := client.GetObject(vt.URL("files/%s", "44d88612fea8a8f36de82e1278abb02f"))\n\tfmt.Println(file.MustGetInt64("last_analysis_stats.malicious"))\n}\n```',
         ('9c18afc7bbbb6e571501cfe4b9ba84f2760ea43635dfc96aec5e1b0dd596d94b',)),
    # Algolia admin API key next to the public search-only key in a Hexo _config.yml
    Case('h12-025', 'api_key', 'yaml',
         '# Hexo 博客的搜索\nalgolia:\n  appId: 9NGU5TN4GT\n  apiKey: 0327a3d7b714bb8bc7d01f6b88dd41da   # search-only，前端用\n  adminApiKey: fc5ad2545cad3a4a684d82aad1b04bb6\n  chunkSize: 5000\n  indexName: blog_posts\n',
         ('fc5ad2545cad3a4a684d82aad1b04bb6',)),
    # Asana personal access token (2/…/…:…) in a Haskell http-conduit snippet
    Case('h12-026', 'api_key', 'note',
         'Haskell 练手：列出 Asana 里本周的任务\n\n```haskell\n{-# LANGUAGE OverloadedStrings #-}\nimport Network.HTTP.Simple\n\nasanaToken :: ByteString\nasanaToken = "2/2863512989128408/3168642578544061:35c5e724c4ff3bc6c7c6deeca10d0910"\n\nmain :: IO ()\nmain = do\n  let req = setRequestBearerAuth asanaToken "GET https://app.asana.com/api/1.0/tasks?assignee=me"\n  resp <- httpLBS req\n  print (getResponseStatusCode resp)\n```',
         ('2/2863512989128408/3168642578544061:35c5e724c4ff3bc6c7c6deeca10d0910',)),
    # Render API key (rnd_…) stored with Windows setx in a cmd transcript
    Case('h12-027', 'api_key', 'note',
         'Microsoft Windows [版本 10.0.22631.4460]\n\nC:\\Users\\lin>setx RENDER_API_KEY "rnd_hZDxRN6b6TiCnAnCvyEccKt6xl5RzIWP"\n\n成功: 指定的值已得到保存。\n\nC:\\Users\\lin>render services list --output json',
         ('rnd_hZDxRN6b6TiCnAnCvyEccKt6xl5RzIWP',)),
    # Neon API key (napi_…) as a Deno.env fallback literal
    Case('h12-028', 'api_key', 'note',
         '// scripts/branch.ts —— deno run -A scripts/branch.ts\nconst NEON_API_KEY = Deno.env.get("NEON_API_KEY") ?? "napi_cse6qfculcc6criwvoy1g6kq8jet56v9cxozd36wjanc4o926xtt1aarwzehgzkx";\nconst r = await fetch("https://console.neon.tech/api/v2/projects", {\n  headers: { Authorization: `Bearer ${NEON_API_KEY}` },\n});\nconsole.log(await r.json());',
         ('napi_cse6qfculcc6criwvoy1g6kq8jet56v9cxozd36wjanc4o926xtt1aarwzehgzkx',)),
    # HERE API key passed with flutter run --dart-define
    Case('h12-029', 'api_key', 'note',
         "Flutter 地图页调试命令（存一下，每次都要输）：\n\nflutter run -d emulator-5554 --dart-define=HERE_API_KEY=XjWqsH28DEE-PbSsRRmJPJXEQvBpgolNhTz0LTof_Xx --dart-define=ENV=dev\n\n代码里用 `const String.fromEnvironment('HERE_API_KEY')` 读",
         ('XjWqsH28DEE-PbSsRRmJPJXEQvBpgolNhTz0LTof_Xx',)),
    # Brevo (Sendinblue) key (xkeysib-…) in a Strapi config/plugins.js
    Case('h12-030', 'api_key', 'note',
         "module.exports = ({ env }) => ({\n  email: {\n    config: {\n      provider: 'strapi-provider-email-brevo',\n      providerOptions: {\n        apiKey: env('BREVO_API_KEY', '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'),\n      },\n      settings: { defaultSenderEmail: 'no-reply@example.org', defaultSenderName: '读书会' },\n    },\n  },\n});",
         ('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',)),
    # Mailchimp API key inside a PHP-serialized wp_options row of an SQL dump
    Case('h12-031', 'api_key', 'note',
         '从旧博客的 mysqldump 里翻到的（Mailchimp for WP 插件设置）：\n\nINSERT INTO `wp_options` VALUES (2871,\'mc4wp\',\'a:3:{s:7:\\"api_key\\";s:37:\\"01e3e142630f1c99c9549dd5158e7047-us21\\";s:16:\\"allow_usage_tracking\\";i:0;s:18:\\"debug_log_level\\";s:7:\\"warning\\";}\',\'yes\');',
         ('01e3e142630f1c99c9549dd5158e7047-us21',)),
    # HubSpot private-app token (pat-na1-…) in an n8n workflow export's HTTP node header
    Case('h12-032', 'api_key', 'json',
         '{\n  "name": "表单线索同步",\n  "nodes": [\n    {\n      "parameters": {\n        "url": "https://api.hubapi.com/crm/v3/objects/contacts",\n        "sendHeaders": true,\n        "headerParameters": {"parameters": [{"name": "Authorization", "value": "Bearer pat-na1-1b239d61-852f-4e0b-b48e-08fc3f18d7d8"}]}\n      },\n      "name": "HTTP Request",\n      "type": "n8n-nodes-base.httpRequest"\n    }\n  ]\n}',
         ('pat-na1-1b239d61-852f-4e0b-b48e-08fc3f18d7d8',)),
    # Anaconda.org token inside a channel URL (/t/<token>/) in ~/.condarc
    Case('h12-033', 'api_key', 'txt',
         'channels:\n  - https://conda.anaconda.org/t/mx-198569ee-14d5-4b6f-800b-5da2ec042ea9/lab-private\n  - conda-forge\nchannel_priority: strict\nshow_channel_urls: true\n',
         ('mx-198569ee-14d5-4b6f-800b-5da2ec042ea9',)),
    # AnkiConnect apiKey in a Yomitan settings export (the rest is public settings)
    Case('h12-034', 'api_key', 'json',
         '{\n  "version": 24,\n  "profiles": [\n    {\n      "name": "Default",\n      "options": {\n        "anki": {\n          "enable": true,\n          "server": "http://127.0.0.1:8765",\n          "apiKey": "-X4LfhS3maBaT_5suqopkatC",\n          "tags": ["yomitan", "日语N2"]\n        }\n      }\n    }\n  ]\n}',
         ('-X4LfhS3maBaT_5suqopkatC',)),
    # Wolfram|Alpha AppID given positionally to wolframalpha.Client
    Case('h12-035', 'api_key', 'py',
         'import wolframalpha\n\n# 微积分作业对答案用\nclient = wolframalpha.Client("MVPCB7-6CHMZ6UMZ5")\n\n\ndef check(expr: str) -> str:\n    res = client.query(f"integrate {expr} dx")\n    return next(res.results).text\n',
         ('MVPCB7-6CHMZ6UMZ5',)),
    # Deepgram API key (40 hex) as an OCaml let binding
    Case('h12-036', 'api_key', 'note',
         '听力材料转写（OCaml 练习，cohttp）：\n\n```ocaml\nlet deepgram_key = "f02ba673761b9bcf8fc3c3e1bae19eb798ec1c41"\n\nlet transcribe file =\n  let headers = Cohttp.Header.of_list\n    [ ("Authorization", "Token " ^ deepgram_key); ("Content-Type", "audio/mpeg") ] in\n  Cohttp_lwt_unix.Client.post ~headers ~body:(Cohttp_lwt.Body.of_string file)\n    (Uri.of_string "https://api.deepgram.com/v1/listen?language=zh-CN")\n```',
         ('f02ba673761b9bcf8fc3c3e1bae19eb798ec1c41',)),
    # Bearer token in Chrome's 'Copy as cURL (cmd)' with ^" escaping
    Case('h12-037', 'auth_header', 'note',
         'Windows 上复制出来的请求（cmd 格式，引号前都有 ^）：\n\ncurl ^"https://api.course-portal.example.edu/v2/assignments?term=2026F^" ^\n  -H ^"accept: application/json^" ^\n  -H ^"authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJxM3RsdTZ0Zmg4MHAzZWEzc2dpdSIsInNjb3BlIjoib3BlbmlkIHByb2ZpbGUiLCJleHAiOjE3OTYwMDAwMDB9.FJwNnYmOhFiK3kzyGi_dg-HKpQuVr0jfcOhpqTjART0^" ^\n  -H ^"referer: https://course-portal.example.edu/^" ^\n  --compressed',
         ('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJxM3RsdTZ0Zmg4MHAzZWEzc2dpdSIsInNjb3BlIjoib3BlbmlkIHByb2ZpbGUiLCJleHAiOjE3OTYwMDAwMDB9.FJwNnYmOhFiK3kzyGi_dg-HKpQuVr0jfcOhpqTjART0',)),
    # login cookie added to a PowerShell WebRequestSession (Copy as PowerShell)
    Case('h12-038', 'auth_header', 'note',
         '$session = New-Object Microsoft.PowerShell.Commands.WebRequestSession\n$session.UserAgent = "Mozilla/5.0 (Windows NT 10.0; Win64; x64)"\n$session.Cookies.Add((New-Object System.Net.Cookie("sessionid", "n2jkpsy5em9po3d3edthcv4qe264eyaf", "/", ".douban.com")))\n$session.Cookies.Add((New-Object System.Net.Cookie("ll", "`"108296`"", "/", ".douban.com")))\nInvoke-WebRequest -UseBasicParsing -Uri "https://book.douban.com/mine?status=collect" -WebSession $session',
         ('n2jkpsy5em9po3d3edthcv4qe264eyaf',)),
    # Bilibili SESSDATA in an LWP cookie jar file (#LWP-Cookies-2.0, Set-Cookie3)
    Case('h12-039', 'auth_header', 'txt',
         '#LWP-Cookies-2.0\nSet-Cookie3: SESSDATA="b299fea3%2C1796267179%2C7a44c%2AMB"; path="/"; domain=".bilibili.com"; path_spec; domain_dot; secure; expires="2027-05-30 12:00:00Z"; HttpOnly=None; version=0\nSet-Cookie3: CURRENT_FNVAL=4048; path="/"; domain=".bilibili.com"; path_spec; domain_dot; expires="2027-12-01 08:00:00Z"; version=0\n',
         ('b299fea3%2C1796267179%2C7a44c%2AMB',)),
    # session cookie value in an EditThisCookie JSON export
    Case('h12-040', 'auth_header', 'json',
         '[\n{\n    "domain": ".zhihu.com",\n    "expirationDate": 1796712345.5,\n    "hostOnly": false,\n    "httpOnly": true,\n    "name": "theme",\n    "path": "/",\n    "secure": false,\n    "value": "dark",\n    "id": 1\n},\n{\n    "domain": ".jianshu.com",\n    "httpOnly": true,\n    "name": "remember_user_token",\n    "path": "/",\n    "secure": true,\n    "value": "IdbtmdIKRpkerBOBbXPFVpAIf8wI6uECVHxkF3j56tmyATkmqvwagFkFG6cNmURAASeV5ceRmQ74SM1y--5a46da984f394d92e4c1a2148cb996251c5a3f66",\n    "id": 2\n}\n]',
         ('IdbtmdIKRpkerBOBbXPFVpAIf8wI6uECVHxkF3j56tmyATkmqvwagFkFG6cNmURAASeV5ceRmQ74SM1y--5a46da984f394d92e4c1a2148cb996251c5a3f66',)),
    # Bearer token written into an nginx access log by a custom $http_authorization format
    Case('h12-041', 'auth_header', 'txt',
         'log_format withauth \'$remote_addr [$time_local] "$request" $status "$http_authorization"\';\n\n192.168.1.23 [01/Dec/2026:10:12:44 +0800] "GET /api/notes?page=2 HTTP/1.1" 200 "Bearer Tc2iOxZF57IBLVf7GB9PHcS6wGDQBeca4Wx6aSB4"\n192.168.1.23 [01/Dec/2026:10:12:45 +0800] "GET /api/tags HTTP/1.1" 200 "Bearer Tc2iOxZF57IBLVf7GB9PHcS6wGDQBeca4Wx6aSB4"\n192.168.1.40 [01/Dec/2026:10:13:02 +0800] "GET /healthz HTTP/1.1" 200 "-"\n',
         ('Tc2iOxZF57IBLVf7GB9PHcS6wGDQBeca4Wx6aSB4',)),
    # Jellyfin/Emby X-Emby-Token header in a home media server note
    Case('h12-042', 'auth_header', 'md',
         '## 家里的 Jellyfin\n\n刷新媒体库的请求（给快捷指令用）：\n\n```\nPOST http://10.0.0.8:8096/Library/Refresh\nX-Emby-Token: bbad8dd5564c63b8c527e4119d5c69ff\n```\n\n剧集元数据改成中文：控制台 → 媒体库 → 首选元数据语言。\n',
         ('bbad8dd5564c63b8c527e4119d5c69ff',)),
    # X-Plex-Token as a query parameter in a Plex library URL
    Case('h12-043', 'auth_header', 'note',
         'Plex 直链，给 VLC 播日剧用：\nhttp://192.168.0.12:32400/library/parts/4412/1700000000/file.mkv?download=1&X-Plex-Token=z4WyrZD04SHJHLab4qLs\n（换设备要重新拿 token）',
         ('z4WyrZD04SHJHLab4qLs',)),
    # Home Assistant long-lived access token in a rest_command Authorization header
    Case('h12-044', 'auth_header', 'yaml',
         'rest_command:\n  notify_study_lamp:\n    url: http://192.168.1.50:8123/api/services/light/turn_on\n    method: POST\n    headers:\n      authorization: "Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiI1YjJlZDUyZmE3NjJkOTYxNDQ2MzVmNzZhZjUwYTQ1NyIsImlhdCI6MTczMzAwMDAwMCwiZXhwIjoyMDQ4MzYwMDAwfQ.dc0lPweYbl5lzqi2pxZM2elZ41flc5FdQi9pPb1FOms"\n      content-type: application/json\n    payload: \'{"entity_id": "light.desk", "brightness": 200}\'\n',
         ('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiI1YjJlZDUyZmE3NjJkOTYxNDQ2MzVmNzZhZjUwYTQ1NyIsImlhdCI6MTczMzAwMDAwMCwiZXhwIjoyMDQ4MzYwMDAwfQ.dc0lPweYbl5lzqi2pxZM2elZ41flc5FdQi9pPb1FOms',)),
    # Baidu Netdisk BDUSS cookie on a BaiduPCS-Go login -bduss= command
    Case('h12-045', 'auth_header', 'note',
         '百度网盘命令行下载课程资料：\n\n./BaiduPCS-Go login -bduss=Z0xWtQIJMi30WIPas15c55WqJLMWGIjHGZEBx5mdazpSXNqu-3-jZkCs4St2TFiZHIV8ydpFmwT0nvkUCXa~39lkT9fogxnIP5Ln8qCrvrFeiVJFLo7svUDW5VTetwms3c~sY8jFTzMOnITxQNGPbfxjR5zpK9D~lyJQDG0SmNkNVRXWzaRY56uHzDz5dF1j\n./BaiduPCS-Go cd /我的资源/考研数学\n./BaiduPCS-Go d 张宇18讲 --saveto ~/Downloads',
         ('Z0xWtQIJMi30WIPas15c55WqJLMWGIjHGZEBx5mdazpSXNqu-3-jZkCs4St2TFiZHIV8ydpFmwT0nvkUCXa~39lkT9fogxnIP5Ln8qCrvrFeiVJFLo7svUDW5VTetwms3c~sY8jFTzMOnITxQNGPbfxjR5zpK9D~lyJQDG0SmNkNVRXWzaRY56uHzDz5dF1j',)),
    # Telethon StringSession string saved for a Telegram vocabulary bot
    Case('h12-046', 'auth_header', 'py',
         'import os\n\nfrom telethon import TelegramClient\nfrom telethon.sessions import StringSession\n\nAPI_ID = int(os.environ["TG_API_ID"])\nAPI_HASH = os.environ["TG_API_HASH"]\nSESSION = "1NHgfiixPK5yGSXugCQ3nXEi8lDHxeBq2gdWj2arqmY68XkwmOkBAulXbimZmWsKm-5h0Ezfh01GkM83NRrWxIkK00zDcrLEBialN8iD03pSO5Jr7VzC33UkCiAtGm9HFKvV_QjM0xxgdluutf5kvSqnGbvCejYIb5805hZih-ocVi2WruVEnigcBqOXchwI4sQJZa6w4_24wcn6gVeOLsqpBD9RvrkkyPBnNB9R19fyOKgdQgUAogiAFbSzYXvE56rkGGKYgTNnngSVUeDO3CkVQNM6ns_r6w9H-sr1_BBhOshrlemPDbvsuHMXBkwNnVkWkEtv6v4VJWVftpl1gi7ReXjf25_="\n\nclient = TelegramClient(StringSession(SESSION), API_ID, API_HASH)\n',
         ('1NHgfiixPK5yGSXugCQ3nXEi8lDHxeBq2gdWj2arqmY68XkwmOkBAulXbimZmWsKm-5h0Ezfh01GkM83NRrWxIkK00zDcrLEBialN8iD03pSO5Jr7VzC33UkCiAtGm9HFKvV_QjM0xxgdluutf5kvSqnGbvCejYIb5805hZih-ocVi2WruVEnigcBqOXchwI4sQJZa6w4_24wcn6gVeOLsqpBD9RvrkkyPBnNB9R19fyOKgdQgUAogiAFbSzYXvE56rkGGKYgTNnngSVUeDO3CkVQNM6ns_r6w9H-sr1_BBhOshrlemPDbvsuHMXBkwNnVkWkEtv6v4VJWVftpl1gi7ReXjf25_=',)),
    # Chaoxing (超星学习通) login cookies copied into a sign-in script
    Case('h12-047', 'auth_header', 'note',
         '学习通自动签到脚本的 cookie（F12 → 应用 → Cookie 里复制的）：\n\nfid=1862; _d=1733042211000; vc3=6LqKLAZQM00oou74jlwVGGveQOTc%Re2OhxEqFWqVbV9VjFLMYhudPsO9%g%7IuYru6GzmxKADgEpbqEr%RKC8Z6fCky3FUNogjgg2BqksHnjVVovUsp3LZvFrpJot7abP%0mr4OQmDJzjKk%ArSLZ%3D%3D359b04506b0712a163601888d53c3234\n\n过期了就重新登录复制。',
         ('6LqKLAZQM00oou74jlwVGGveQOTc%Re2OhxEqFWqVbV9VjFLMYhudPsO9%g%7IuYru6GzmxKADgEpbqEr%RKC8Z6fCky3FUNogjgg2BqksHnjVVovUsp3LZvFrpJot7abP%0mr4OQmDJzjKk%ArSLZ%3D%3D359b04506b0712a163601888d53c3234',)),
    # MoodleSession cookie in a wget --header line of a course-download script
    Case('h12-048', 'auth_header', 'txt',
         '#!/bin/sh\n# 下载 Moodle 课程里所有 PDF\nwget -r -l1 -A pdf --header="Cookie: MoodleSession=unyish1ysl2ax39zxo1yi21lly" \\\n  "https://moodle.example-university.de/course/view.php?id=4412"\n',
         ('unyish1ysl2ax39zxo1yi21lly',)),
    # TiDB Cloud Serverless URL whose user has the cluster prefix (xxxx.root)
    Case('h12-049', 'connection_string', 'env',
         '# .env.local\nDATABASE_URL=mysql://ZgW4KOz3TtCa.root:g5qme9bzvfmNcUCT@gateway01.ap-northeast-1.prod.aws.tidbcloud.com:4000/notes?ssl={"rejectUnauthorized":true}\nNEXT_PUBLIC_SITE=http://localhost:3000\n',
         ('g5qme9bzvfmNcUCT',)),
    # CouchDB admin credentials in a PouchDB sync URL
    Case('h12-050', 'connection_string', 'note',
         "离线优先的单词本：本地 PouchDB 同步到家里 NAS 上的 CouchDB\n\n```js\nconst local = new PouchDB('words');\nlocal.sync('http://admin:N5iMpGQWeQptSs@nas.local:5984/words', { live: true, retry: true });\n```",
         ('N5iMpGQWeQptSs',)),
    # SurrealDB started with --user root --pass in a Docker command
    Case('h12-051', 'connection_string', 'note',
         'docker run --rm -p 8000:8000 -v $PWD/db:/db surrealdb/surrealdb:latest start \\\n  --user root --pass p7oyTXxFNDdTwtK rocksdb:/db/notes.db\n\n然后 surreal sql --conn http://localhost:8000 --ns kb --db main',
         ('p7oyTXxFNDdTwtK',)),
    # Redis Sentinel sentinel auth-pass line in sentinel.conf
    Case('h12-052', 'connection_string', 'txt',
         'port 26379\nsentinel monitor mymaster 10.0.1.11 6379 2\nsentinel auth-pass mymaster 2PNAXlFwjXx0Oim0CRZD\nsentinel down-after-milliseconds mymaster 5000\nsentinel failover-timeout mymaster 60000\n',
         ('2PNAXlFwjXx0Oim0CRZD',)),
    # WinSCP script 'open sftp://user:password@host' with a host key
    Case('h12-053', 'connection_string', 'txt',
         'option batch abort\noption confirm off\nopen sftp://deploy:ZmnkCmecoTg2!150@203.0.113.25/ -hostkey="ssh-ed25519 255 s1Fb3Fx2nUyLgbXbKTHFVgqvzABzkt3dW+Q0pC9n1jA"\nsynchronize remote C:\\site\\public /var/www/html\nexit\n',
         ('ZmnkCmecoTg2!150',)),
    # DuckDB ATTACH of a Postgres database with a libpq password
    Case('h12-054', 'connection_string', 'md',
         "## DuckDB 直接查线上 Postgres\n\n```sql\nINSTALL postgres; LOAD postgres;\nATTACH 'dbname=survey user=analyst password=9KTjLAZSwDfPou3nq6 host=10.8.0.3 port=5432' AS pg (TYPE postgres, READ_ONLY);\nSELECT count(*) FROM pg.public.responses;\n```\n",
         ('9KTjLAZSwDfPou3nq6',)),
    # smbclient -U user%password to a school file share
    Case('h12-055', 'connection_string', 'note',
         "实验室共享盘：\nsmbclient //fs.lab.local/students -U s2023117%vWWYyVZdCF#02 -c 'cd thesis; put draft_v3.docx'",
         ('vWWYyVZdCF#02',)),
    # ipmitool -I lanplus -U ADMIN -P password for a server BMC
    Case('h12-056', 'connection_string', 'txt',
         '# 机房 3 号机柜 R740 的 iDRAC\nipmitool -I lanplus -H 10.10.3.21 -U root -P Y1otU05sUGNz chassis power status\nipmitool -I lanplus -H 10.10.3.21 -U root -P Y1otU05sUGNz sol activate\n',
         ('Y1otU05sUGNz',)),
    # xfreerdp /u: /p: /v: to a lab Windows machine
    Case('h12-057', 'connection_string', 'note',
         "从 Ubuntu 远程到实验室那台装了 MATLAB 的 Windows：\nxfreerdp /v:172.20.4.18 /u:student07 /p:'ovrCKqs2Vi7@60' /dynamic-resolution /drive:home,/home/lin",
         ('ovrCKqs2Vi7@60',)),
    # private SNMP v2c community string in snmpwalk
    Case('h12-058', 'connection_string', 'note',
         '网络管理实验：读交换机接口表\nsnmpwalk -v2c -c TflPjPYhXKtpO1 192.168.100.1 IF-MIB::ifDescr\n（public 已经在交换机上禁用了，现在用的是上面这个团体名）',
         ('TflPjPYhXKtpO1',)),
    # pgbouncer userlist.txt with plaintext "user" "password" pairs
    Case('h12-059', 'connection_string', 'txt',
         '"app_rw" "xITM0UPhDJGTdTtZAaHX"\n"report_ro" "tWtesMMa6wQqwlCsSPkS"\n',
         ('xITM0UPhDJGTdTtZAaHX', 'tWtesMMa6wQqwlCsSPkS')),
    # Nodemailer-style smtps:// URL with a mail authorisation code in a Django setting
    Case('h12-060', 'connection_string', 'py',
         '# settings/prod.py\nEMAIL_URL = "smtps://linwei744%40163.com:ZVLNZRQXIUPMPQAY@smtp.163.com:465"\nDEFAULT_FROM_EMAIL = "linwei744@163.com"\n',
         ('linwei744%40163.com', 'ZVLNZRQXIUPMPQAY', 'linwei744@163.com')),
    # OpenSSH ed25519 private key in a Dockerfile COPY <<EOF heredoc
    Case('h12-061', 'private_key', 'note',
         '# 为了在构建时拉私有仓库，临时这么写的（之后改成 --mount=type=ssh）\nFROM python:3.12-slim\nCOPY <<EOF /root/.ssh/id_ed25519\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACDuK2Fvk2NaBnzSz6KVELqkD5Kw/21UaNMFJgsQRN0UHAAAAJDFGAFJxRgB\nSQAAAAtzc2gtZWQyNTUxOQAAACDuK2Fvk2NaBnzSz6KVELqkD5Kw/21UaNMFJgsQRN0UHA\nAAAEDa//Yav58Mf48nZ70yv7PPn/lkSMtELXv6+o1yXv7fk+4rYW+TY1oGfNLPopUQuqQP\nkrD/bVRo0wUmCxBE3RQcAAAADGxpbkB0aGlua3BhZAE=\n-----END OPENSSH PRIVATE KEY-----\nEOF\nRUN chmod 600 /root/.ssh/id_ed25519 && pip install git+ssh://git@git.example.com/lab/tools.git\n',
         ('b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW', 'QyNTUxOQAAACDuK2Fvk2NaBnzSz6KVELqkD5Kw/21UaNMFJgsQRN0UHAAAAJDFGAFJxRgB', 'SQAAAAtzc2gtZWQyNTUxOQAAACDuK2Fvk2NaBnzSz6KVELqkD5Kw/21UaNMFJgsQRN0UHA', 'AAAEDa//Yav58Mf48nZ70yv7PPn/lkSMtELXv6+o1yXv7fk+4rYW+TY1oGfNLPopUQuqQP', 'krD/bVRo0wUmCxBE3RQcAAAADGxpbkB0aGlua3BhZAE=')),
    # RSA key (\n-escaped PEM) in a terraform.tfstate tls_private_key resource
    Case('h12-062', 'private_key', 'json',
         '{\n  "version": 4,\n  "terraform_version": "1.9.8",\n  "resources": [\n    {\n      "mode": "managed",\n      "type": "tls_private_key",\n      "name": "deploy",\n      "instances": [\n        {\n          "attributes": {\n            "algorithm": "RSA",\n            "rsa_bits": 2048,\n            "private_key_pem": "-----BEGIN RSA PRIVATE KEY-----\\nMIIEogIBAAKCAQEAteOOSHMfh5vGMszY3LLF4bm9PDpbxlDRzlHx1qYabPIKPJY+\\nGQy7Xc6G4hSiQHzrx0s34tR9VUhB3fosRUend2IfaWvYVDpyFpo14tr5wxBPQOEc\\nnqqi8JaHcjoCg6DDRxxw7a0CzFEMFUui47I952O0aFvt9rrJO07TYB8VfPNmXDYm\\nXOgWijR8rxGonoAaiZAWfQ49TcTZAOIK2G6J6khqiBZLAht3VtPjOQE0Cay9ohE7\\nw0R3/GaNX0cIvJaVYnmJSwlBllKJJcMBQDbhqDkSvE52BP4NUChKawG6Q21x8KcW\\n9+niaqSHk3eA1Dl0oBKx/o3KQowZt4navZXu7wIDAQABAoIBACKXlIfS3Tw9NASV\\nUOkoVtoHKSY7MxkUZdKHYycfkAcIQUokiMra0QeWL7Dvm6wIFg9hDs/k+bEufNhq\\nq+DBL+hUkQTLrejW9Lu3uGfcnYOrpmcAaSED8tkux7PBtJi0Cm+LyS5qqQ2SnGmw\\naNpFG+DV5Ymzch5qh7rv0uOFBeEtVxPDmwv2OxmqYvEFpUDKgPrBbBsLZftdiAeG\\nhAde527+NakbUivLXeR5/02udbKRSaBVYnXBZq5it/3c2iDxLSt8ZDLpPMCcRXfU\\n+4F4Q9pnW2k4U7I/GLxYzY9IwKOkCwBmFsjgcWp37JkD+/x4KP9BbbiHjrH1wMRH\\nBfPWE4ECgYEAyVkUUOAE7yH7zNhEWFl9uXeucmIBqmVMq0V9uZVwbpC17O7JCtlz\\nWhIHIZHPnAql/NqiXLA8J0es5cIVtv3sa3SS8hxA032EEQjvf2Jxq3rgrxYPYdK5\\nrjhTBITpayp+aWKEC0kS3uPPlT+cKYqhG1EuD25SMCByyhV5rXobHrUCgYEA50JW\\ncEefo/VrCVHcTS4Cq+N+6YS2c+DWwNpQCK28Z/aKLevET3VG+Hc/CnNREo2BvM1e\\nYfetW+I2Erv76u4VVbSF+xl5kQ7DK8l4FKE5w8Kj2pmui+2G22hQohOk9nE88h4N\\niZFxld62PTwvCbjqEIeIBkLlrqQkwcn+4MyZOZMCgYBtS9yaVjB3epQLyy22Y8W6\\ngrwAPTE4RMrMgelQb01bx1Pp7GjXadiTAQw77cGrq6AU1L2j4MqWa/LvuV4+OjI2\\n1k3Z/Po3k3+4G4ieNlsLwaTrhecNq+y9JLfz0Q4/7Q43uJGC6sTClxkcpC3p4uW3\\nRWbiW3ljxIlrJyMoxwqnrQKBgDFiRikl8l5F6zyLQZstpx5jr1dYosmuCs4WEJ85\\n0pD04d8aiMpbBfPLKyglJfvrQfg6dtw+0sNbVCa+A/bQLrglm7LaZs5mM6FnHYBy\\nSW6XYvwsc0yoRXMXHJjvzvtdhSFC76sf5vyVGZ+L+ZN+7GTpPE/x+zBHFx5W71m7\\n90CHAoGAEFpAkCe2GAxBESBGq56124MWel6KOnglOLxtFjbv5aU2CuwVzLZiBuN9\\n99K8LUuU03+Q+CP5EXiRDqezvkO2vlrqnMVu06NsoopIkqjtBFM7xrGG7IRME2/p\\nhASP4DxG9UqKXhRuZdw5HOQelNCRtnQOzGLDpmBxCaWkHW+RzLg=\\n-----END RSA PRIVATE KEY-----\\n"\n          }\n        }\n      ]\n    }\n  ]\n}',
         ('MIIEogIBAAKCAQEAteOOSHMfh5vGMszY3LLF4bm9PDpbxlDRzlHx1qYabPIKPJY+', 'GQy7Xc6G4hSiQHzrx0s34tR9VUhB3fosRUend2IfaWvYVDpyFpo14tr5wxBPQOEc', 'nqqi8JaHcjoCg6DDRxxw7a0CzFEMFUui47I952O0aFvt9rrJO07TYB8VfPNmXDYm', 'XOgWijR8rxGonoAaiZAWfQ49TcTZAOIK2G6J6khqiBZLAht3VtPjOQE0Cay9ohE7', 'w0R3/GaNX0cIvJaVYnmJSwlBllKJJcMBQDbhqDkSvE52BP4NUChKawG6Q21x8KcW', '9+niaqSHk3eA1Dl0oBKx/o3KQowZt4navZXu7wIDAQABAoIBACKXlIfS3Tw9NASV', 'UOkoVtoHKSY7MxkUZdKHYycfkAcIQUokiMra0QeWL7Dvm6wIFg9hDs/k+bEufNhq', 'q+DBL+hUkQTLrejW9Lu3uGfcnYOrpmcAaSED8tkux7PBtJi0Cm+LyS5qqQ2SnGmw', 'aNpFG+DV5Ymzch5qh7rv0uOFBeEtVxPDmwv2OxmqYvEFpUDKgPrBbBsLZftdiAeG', 'hAde527+NakbUivLXeR5/02udbKRSaBVYnXBZq5it/3c2iDxLSt8ZDLpPMCcRXfU', '+4F4Q9pnW2k4U7I/GLxYzY9IwKOkCwBmFsjgcWp37JkD+/x4KP9BbbiHjrH1wMRH', 'BfPWE4ECgYEAyVkUUOAE7yH7zNhEWFl9uXeucmIBqmVMq0V9uZVwbpC17O7JCtlz', 'WhIHIZHPnAql/NqiXLA8J0es5cIVtv3sa3SS8hxA032EEQjvf2Jxq3rgrxYPYdK5', 'rjhTBITpayp+aWKEC0kS3uPPlT+cKYqhG1EuD25SMCByyhV5rXobHrUCgYEA50JW', 'cEefo/VrCVHcTS4Cq+N+6YS2c+DWwNpQCK28Z/aKLevET3VG+Hc/CnNREo2BvM1e', 'YfetW+I2Erv76u4VVbSF+xl5kQ7DK8l4FKE5w8Kj2pmui+2G22hQohOk9nE88h4N', 'iZFxld62PTwvCbjqEIeIBkLlrqQkwcn+4MyZOZMCgYBtS9yaVjB3epQLyy22Y8W6', 'grwAPTE4RMrMgelQb01bx1Pp7GjXadiTAQw77cGrq6AU1L2j4MqWa/LvuV4+OjI2', '1k3Z/Po3k3+4G4ieNlsLwaTrhecNq+y9JLfz0Q4/7Q43uJGC6sTClxkcpC3p4uW3', 'RWbiW3ljxIlrJyMoxwqnrQKBgDFiRikl8l5F6zyLQZstpx5jr1dYosmuCs4WEJ85', '0pD04d8aiMpbBfPLKyglJfvrQfg6dtw+0sNbVCa+A/bQLrglm7LaZs5mM6FnHYBy', 'SW6XYvwsc0yoRXMXHJjvzvtdhSFC76sf5vyVGZ+L+ZN+7GTpPE/x+zBHFx5W71m7', '90CHAoGAEFpAkCe2GAxBESBGq56124MWel6KOnglOLxtFjbv5aU2CuwVzLZiBuN9', '99K8LUuU03+Q+CP5EXiRDqezvkO2vlrqnMVu06NsoopIkqjtBFM7xrGG7IRME2/p', 'hASP4DxG9UqKXhRuZdw5HOQelNCRtnQOzGLDpmBxCaWkHW+RzLg=')),
    # DKIM RSA private key (opendkim mail.private) in a mail-server setup note
    Case('h12-063', 'private_key', 'note',
         '自建邮件服务器 DKIM：\nopendkim-genkey -b 1024 -d example-notes.cn -s mail\n\ncat /etc/opendkim/keys/example-notes.cn/mail.private\n-----BEGIN RSA PRIVATE KEY-----\nMIICXQIBAAKBgQD4vCvXvUCcqrHkkR5+maF1KBHKxzydfB1y8qalbrqAJxZlKmFj\nM5HCdaYo3WgoZlSZVbbK//LkoNTH3TFNHWw2fubkths2QYf8nrcGSKkHalhGjIE4\n089x5iHXud26zmH06HrR3KPR8Br4yyibx66RptmqVREdX3ZXhYYXBM8fuQIDAQAB\nAoGBAKPA7nRICiOaVSePSq46YouI573CUWu07IZirce4EFySXzIXJqpypwGJBu1c\nZlhClmukfIVE4BoYsD0sqGqGdlhWDMpfRhysGlsC/CX49g7EWwPH8PzPnB2Vc/Xi\nMIf9/hvFv2DnY0gsGmDokQdrtKKrEvUeyJ+HWX1gh7ib/21pAkEA/BPddwp01J+S\nmLBAZ2u2QV1LQbD9nyOzRCOULK1qHxRmLJXpZ4pYP6qlwksLyCvHEYLQPu9X+puM\ntNvPdThRwwJBAPya/ca/CrmDWdFLv5JxzhQGbqF4o4i6nk98otobKuwAHfElIG2T\nLsRAu6JEOKSfph5m1c3afG0GVrMQKP51lNMCQBT+Solpc4VprLnOo+55B/q1nFji\nNp0USg+4rtRxtM7V0hSQf5nB6cuTmK5vtZF8I94PeOxk3nzei39cdxCaGiUCQQDp\ngcTyAgvB7aALj4ApubYMYN3HuiNB83EAfXB1OgP1YS5Mikttv07N8CEDIRlTZJlF\nJT6jKkM27VMb9+ZNQxgtAkB8utsoXRjEK5nXa9jrGzdYO/mwi/YgS+VKkyJlzIft\nNi5LbjWG+KJ4UnGGAqnJx+sBB25hHPN6uPeJT3jCuYqc\n-----END RSA PRIVATE KEY-----\n\nDNS 里 mail._domainkey 填 mail.txt 里的 p=…',
         ('MIICXQIBAAKBgQD4vCvXvUCcqrHkkR5+maF1KBHKxzydfB1y8qalbrqAJxZlKmFj', 'M5HCdaYo3WgoZlSZVbbK//LkoNTH3TFNHWw2fubkths2QYf8nrcGSKkHalhGjIE4', '089x5iHXud26zmH06HrR3KPR8Br4yyibx66RptmqVREdX3ZXhYYXBM8fuQIDAQAB', 'AoGBAKPA7nRICiOaVSePSq46YouI573CUWu07IZirce4EFySXzIXJqpypwGJBu1c', 'ZlhClmukfIVE4BoYsD0sqGqGdlhWDMpfRhysGlsC/CX49g7EWwPH8PzPnB2Vc/Xi', 'MIf9/hvFv2DnY0gsGmDokQdrtKKrEvUeyJ+HWX1gh7ib/21pAkEA/BPddwp01J+S', 'mLBAZ2u2QV1LQbD9nyOzRCOULK1qHxRmLJXpZ4pYP6qlwksLyCvHEYLQPu9X+puM', 'tNvPdThRwwJBAPya/ca/CrmDWdFLv5JxzhQGbqF4o4i6nk98otobKuwAHfElIG2T', 'LsRAu6JEOKSfph5m1c3afG0GVrMQKP51lNMCQBT+Solpc4VprLnOo+55B/q1nFji', 'Np0USg+4rtRxtM7V0hSQf5nB6cuTmK5vtZF8I94PeOxk3nzei39cdxCaGiUCQQDp', 'gcTyAgvB7aALj4ApubYMYN3HuiNB83EAfXB1OgP1YS5Mikttv07N8CEDIRlTZJlF', 'JT6jKkM27VMb9+ZNQxgtAkB8utsoXRjEK5nXa9jrGzdYO/mwi/YgS+VKkyJlzIft', 'Ni5LbjWG+KJ4UnGGAqnJx+sBB25hHPN6uPeJT3jCuYqc')),
    # Ed25519 seed as Go 0x.. byte literals given to ed25519.NewKeyFromSeed
    Case('h12-064', 'private_key', 'note',
         '签名服务里写死的种子（测试完要换掉！）：\n```go\nvar seed = []byte{\n\t0xec, 0xea, 0xf3, 0x38, 0x63, 0xfe, 0x65, 0x3f, 0xd8, 0x43, 0xd5, 0xbe, 0xb1, 0x30, 0xbc, 0x2f,\n\t0x19, 0xd6, 0x73, 0x90, 0x45, 0x25, 0x2b, 0x44, 0x6b, 0x1c, 0xa1, 0x23, 0xa5, 0x65, 0x05, 0xe4,\n}\nvar priv = ed25519.NewKeyFromSeed(seed)\n```',
         ('0xec, 0xea, 0xf3, 0x38, 0x63, 0xfe, 0x65, 0x3f, 0xd8, 0x43, 0xd5, 0xbe, 0xb1, 0x30, 0xbc, 0x2f', '0x19, 0xd6, 0x73, 0x90, 0x45, 0x25, 0x2b, 0x44, 0x6b, 0x1c, 0xa1, 0x23, 0xa5, 0x65, 0x05, 0xe4')),
    # Nebula X25519 host private key inline in config.yml (pki.key block scalar)
    Case('h12-065', 'private_key', 'yaml',
         'pki:\n  ca: /etc/nebula/ca.crt\n  cert: /etc/nebula/laptop.crt\n  key: |\n    -----BEGIN NEBULA X25519 PRIVATE KEY-----\n    19IRnpiRpC5Vrq/LjDoLWVuQMS4X4YLpes2WL0VIIBU=\n    -----END NEBULA X25519 PRIVATE KEY-----\nstatic_host_map:\n  "192.168.100.1": ["203.0.113.9:4242"]\n',
         ('19IRnpiRpC5Vrq/LjDoLWVuQMS4X4YLpes2WL0VIIBU=',)),
    # Syncthing key.pem (EC P-384 SEC1) pasted in a fenced block of a migration note
    Case('h12-066', 'private_key', 'md',
         '# 迁移 Syncthing 到新电脑\n\n保留设备 ID 需要把 `cert.pem` 和 `key.pem` 一起拷过去。key.pem 内容备份：\n\n```\n-----BEGIN EC PRIVATE KEY-----\nMIGkAgEBBDCy4W1BjtNPfyygiaQ8qxu56/BDeEBGpOufH5q/m+9qJmlrmA6MAdDH\nt/Rc4072admgBwYFK4EEACKhZANiAAQXmBITjI7LuRuj/fB+MGzrSU+L4zrAs0g1\nr0XvDeGBciIh1XQRSzrLLtmvWYROM2JewRwQY7LXXMTaa0oGM+ilXByW3FLhU3gB\nvqTilF0+fgtmgK1MxHELlwmNKsF24jQ=\n-----END EC PRIVATE KEY-----\n```\n\n之后 `syncthing --home ~/.config/syncthing` 启动即可。\n',
         ('MIGkAgEBBDCy4W1BjtNPfyygiaQ8qxu56/BDeEBGpOufH5q/m+9qJmlrmA6MAdDH', 't/Rc4072admgBwYFK4EEACKhZANiAAQXmBITjI7LuRuj/fB+MGzrSU+L4zrAs0g1', 'r0XvDeGBciIh1XQRSzrLLtmvWYROM2JewRwQY7LXXMTaa0oGM+ilXByW3FLhU3gB', 'vqTilF0+fgtmgK1MxHELlwmNKsF24jQ=')),
    # Tailscale machine key as base64 of 'privkey:<hex>' in tailscaled.state
    Case('h12-067', 'private_key', 'json',
         '{\n  "_current-profile": "cHJvZmlsZS1hYmNk",\n  "_machinekey": "cHJpdmtleTphNDQ0M2RjODIwMzdhN2Q0ZjMwNGIxOTAwYTU0YWQ0MTI2OTRlNjU2MDVkMjVhYzA3Zjk0ZDM3ZTg3MmI2MmUz",\n  "_profiles": "eyJhYmNkIjp7fX0="\n}',
         ('cHJpdmtleTphNDQ0M2RjODIwMzdhN2Q0ZjMwNGIxOTAwYTU0YWQ0MTI2OTRlNjU2MDVkMjVhYzA3Zjk0ZDM3ZTg3MmI2MmUz',)),
    # `openssl ec -text -noout` output: the priv: scalar as colon-separated hex lines
    Case('h12-068', 'private_key', 'txt',
         '$ openssl ec -in device.key -text -noout\nread EC key\nPrivate-Key: (256 bit)\npriv:\n    5f:d8:42:15:07:c7:d0:9d:4d:dc:af:6f:02:a7:b2:\n    8a:6d:1f:66:ff:21:db:d0:d2:10:09:88:36:b6:ed:\n    db:e1\npub:\n    04:ff:76:7d:38:e4:12:8c:36:dc:b2:62:ce:86:7c:\n    01:82:f3:2a:29:31:81:bf:74:88:63:06:c5:c8:e1:\n    6f:84:97:f1:53:ce:05:35:29:d5:0c:e4:db:4c:bc:\n    15:a8:a9:02:bb:3c:b1:d4:21:e0:01:6c:fd:28:62:\n    4a:9c:dc:12:aa\nASN1 OID: prime256v1\nNIST CURVE: P-256\n',
         ('5f:d8:42:15:07:c7:d0:9d:4d:dc:af:6f:02:a7:b2:', '8a:6d:1f:66:ff:21:db:d0:d2:10:09:88:36:b6:ed:', 'db:e1')),
    # Hindi पासवर्ड label in a Hindi-class WhatsApp export
    Case('h12-069', 'password', 'note',
         "[12/11/26, 9:41 PM] Priya Ma'am: कल की क्लास का Zoom लिंक ग्रुप में है\n[12/11/26, 9:43 PM] Priya Ma'am: पोर्टल लॉगिन — यूज़रनेम: hindi_b2_07, पासवर्ड: APEWT0V*02\n[12/11/26, 9:44 PM] 我: धन्यवाद! 收到",
         ('APEWT0V*02',)),
    # Hebrew סיסמה label in an ulpan note
    Case('h12-070', 'password', 'note',
         'אולפן — שיעור 4\nמילים חדשות: שולחן, כיסא, חלון\nכניסה לאתר הקורס: שם משתמש lin.ulpan · סיסמה: ZIuB03g&83\n作业：用 עבר 写五个句子',
         ('ZIuB03g&83',)),
    # Swedish lösenord label in an SFI course note
    Case('h12-071', 'password', 'note',
         'SFI kurs D — inloggning till lärplattformen\nanvändarnamn: linwei88\nlösenord: BRye6HN$21\n记得周四前交 skrivuppgift',
         ('BRye6HN$21',)),
    # Czech heslo label for the university Wi-Fi (eduroam-style local account)
    Case('h12-072', 'password', 'note',
         'Praha — první týden\n- ISIC karta: vyzvednout v pondělí\n- Wi-Fi koleje: síť KolejNet, heslo 50Iw9NQ%33\n- 宿舍洗衣房在 B 栋地下',
         ('50Iw9NQ%33',)),
    # Cantonese 密碼係 in a chat with a classmate
    Case('h12-073', 'password', 'note',
         '阿欣：你部 ipad 借我用下得唔得\n我：得，開機密碼係 lvon5403 ，用完記得鎖返\n阿欣：多謝晒！',
         ('lvon5403',)),
    # pinyin abbreviation 'mm' for 密码 after a 'zh' account in a chat
    Case('h12-074', 'password', 'note',
         '学姐：教务系统我帮你选课，你把号给我\n我：zh 就是学号，mm tuo209960\n学姐：ok 选完你改一下',
         ('tuo209960',)),
    # Samba user password piped twice into smbpasswd -s -a
    Case('h12-075', 'password', 'txt',
         "# NAS 初始化\nsudo useradd -M -s /usr/sbin/nologin media\n(echo 'BYdnICFY0&07'; echo 'BYdnICFY0&07') | sudo smbpasswd -s -a media\nsudo systemctl restart smbd\n",
         ('BYdnICFY0&07',)),
    # mysqladmin -u root password 'NEW' in a lab setup note
    Case('h12-076', 'password', 'note',
         "MySQL 5.7 装完第一次设 root 密码：\nmysqladmin -u root password 'E4wxKyaL*83'\n然后 mysql_secure_installation 全选 Y",
         ('E4wxKyaL*83',)),
    # mosquitto_passwd -b file user password for an IoT course broker
    Case('h12-077', 'password', 'txt',
         "sudo mosquitto_passwd -c -b /etc/mosquitto/passwd esp32 t04gDsqserSO\nsudo systemctl restart mosquitto\nmosquitto_sub -h 127.0.0.1 -u esp32 -P t04gDsqserSO -t 'lab/#'\n",
         ('t04gDsqserSO',)),
    # rabbitmqctl add_user NAME PASSWORD
    Case('h12-078', 'password', 'note',
         'RabbitMQ 管理用户：\nrabbitmqctl add_user ops UWzfJ3f6NM@32\nrabbitmqctl set_user_tags ops administrator\nrabbitmqctl set_permissions -p / ops ".*" ".*" ".*"',
         ('UWzfJ3f6NM@32',)),
    # Windows cmdkey /add /user /pass for a NAS
    Case('h12-079', 'password', 'note',
         '开机自动映射 NAS（存凭据）：\ncmdkey /add:192.168.2.10 /user:NAS\\lin /pass:ZDN3lQc&41\nnet use Z: \\\\192.168.2.10\\books /persistent:yes',
         ('ZDN3lQc&41',)),
    # PowerShell ConvertTo-SecureString -AsPlainText -Force
    Case('h12-080', 'password', 'txt',
         '$user = "LAB\\administrator"\n$pass = ConvertTo-SecureString "JFRDfuHXt%64" -AsPlainText -Force\n$cred = New-Object System.Management.Automation.PSCredential($user, $pass)\nInvoke-Command -ComputerName PC-07 -Credential $cred -ScriptBlock { Get-Service spooler }\n',
         ('JFRDfuHXt%64',)),
    # Huawei VRP local-user password simple in a network lab config
    Case('h12-081', 'password', 'txt',
         '<Huawei>system-view\n[Huawei]aaa\n[Huawei-aaa]local-user admin password simple Huawei@8319\n[Huawei-aaa]local-user admin service-type telnet ssh\n[Huawei-aaa]local-user admin privilege level 15\n[Huawei-aaa]quit\n',
         ('Huawei@8319',)),
    # Cisco IOS 'username … password 0 …' and 'enable password'
    Case('h12-082', 'password', 'note',
         'CCNA 实验 R1 初始配置：\nR1(config)# hostname R1\nR1(config)# username netadmin privilege 15 password 0 8OWoPoU@85\nR1(config)# enable password vDhczaE43\nR1(config)# line vty 0 4\nR1(config-line)# login local',
         ('8OWoPoU@85', 'vDhczaE43')),
    # gpg --batch --passphrase for symmetric encryption of a backup
    Case('h12-083', 'password', 'txt',
         "#!/bin/bash\ntar czf - ~/notes | gpg --batch --yes --pinentry-mode loopback --passphrase 'rwrvuz-zjdtrm-705' -c -o /mnt/usb/notes-$(date +%F).tgz.gpg\n",
         ('rwrvuz-zjdtrm-705',)),
    # Selenium send_keys with the login password of a course site
    Case('h12-084', 'password', 'py',
         'from selenium import webdriver\nfrom selenium.webdriver.common.by import By\n\nfrom config import USERNAME\n\ndriver = webdriver.Chrome()\ndriver.get("https://jwxt.example.edu.cn/login")\ndriver.find_element(By.ID, "username").send_keys(USERNAME)\ndriver.find_element(By.ID, "pwd").send_keys("Aeyl7wYZ&97")\ndriver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()\n',
         ('Aeyl7wYZ&97',)),
    # Mutt ~/.muttrc set imap_pass / smtp_pass
    Case('h12-085', 'password', 'txt',
         'set imap_user = "lin.wei@stu.hust.edu.cn"\nset imap_pass = "PJt589ulE*10"\nset folder = "imaps://imap.exmail.qq.com:993"\nset spoolfile = "+INBOX"\nset smtp_url = "smtps://lin.wei@stu.hust.edu.cn@smtp.exmail.qq.com:465/"\nset smtp_pass = "PJt589ulE*10"\n',
         ('lin.wei@stu.hust.edu.cn', 'PJt589ulE*10')),
    # hostapd.conf wpa_passphrase for a Raspberry Pi hotspot
    Case('h12-086', 'password', 'txt',
         'interface=wlan0\ndriver=nl80211\nssid=pi-lab\nhw_mode=g\nchannel=6\nwpa=2\nwpa_passphrase=VN1a5gVf5bYv\nwpa_key_mgmt=WPA-PSK\nrsn_pairwise=CCMP\n',
         ('VN1a5gVf5bYv',)),
    # PPPoE 宽带账号/宽带密码 in a router setup note
    Case('h12-087', 'password', 'note',
         '换了新路由器，上网方式选 PPPoE：\n宽带账号：02787790168@163.gd\n宽带密码：254664\n（装机师傅写在光猫背面的，客服电话 10000）',
         ('02787790168@163.gd', '254664')),
    # Dr.COM campus-network login as a curl form body (DDDDD/upass)
    Case('h12-088', 'password', 'txt',
         '#!/bin/sh\n# 宿舍路由器断线自动重连校园网\ncurl -s \'http://10.1.1.1/drcom/login\' \\\n  --data "DDDDD=${STU_ID}&upass=T0AvjbF.28&0MKKey=%B5%C7%C2%BC&v6ip="\n',
         ('T0AvjbF.28',)),
    # msoffcrypto-tool -p to decrypt a password-protected Excel file
    Case('h12-089', 'password', 'note',
         "工资条 xlsx 有打开密码，用 msoffcrypto 解：\nmsoffcrypto-tool -p 37945421 工资条_2026-11.xlsx out.xlsx\n然后 pandas.read_excel('out.xlsx')",
         ('37945421',)),
    # VeraCrypt text-mode mount with --password=
    Case('h12-090', 'password', 'note',
         "移动硬盘的加密卷：\nveracrypt -t --mount /dev/sdb1 /mnt/secure --password='bytdfmj pkkpih 3858' --pim=0 --keyfiles= --protect-hidden=no",
         ('bytdfmj pkkpih 3858',)),
    # Norwegian fødselsnummer (two mod-11 check digits) on a UDI/Skatteetaten note
    Case('h12-091', 'resident_id', 'note',
         'Oslo — ting å ordne\n- Skatteetaten: ID-kontroll torsdag 10:15\n- fødselsnummer: 14067820623\n- BankID via DNB etter at kontoen er åpnet\n挪威语课周二周四晚上',
         ('14067820623',)),
    # Finnish henkilötunnus (DDMMYY-NNNC, mod-31 check character) in a Kela form draft
    Case('h12-092', 'resident_id', 'note',
         'Kela-hakemus (opintotuki) luonnos\nNimi: Lin Wei\nHenkilötunnus: 170190-799S\nOsoite: ks. maistraatti\n备注：入学证明要先从 Sisu 下载',
         ('170190-799S',)),
    # Belgian rijksregisternummer (YY.MM.DD-NNN.CC, mod 97) in a commune appointment note
    Case('h12-093', 'resident_id', 'md',
         '## Gemeente Leuven — verblijfskaart\n\n| veld | waarde |\n|---|---|\n| Naam | Lin Wei |\n| Rijksregisternummer | 87.09.01-681.15 |\n| Afspraak | 12/12 09:40 loket 3 |\n',
         ('87.09.01-681.15',)),
    # Chilean RUT (12.345.678-K style, mod-11) in a Santiago exchange checklist
    Case('h12-094', 'resident_id', 'note',
         'Intercambio Santiago — pendientes\n1. Cédula de extranjería: lista\n2. RUT: 22.320.442-2 (para abrir CuentaRUT)\n3. Tarjeta bip! 充值',
         ('22.320.442-2',)),
    # Argentine CUIL (XX-XXXXXXXX-X) in a Buenos Aires rental note
    Case('h12-095', 'resident_id', 'note',
         'Alquiler en Palermo — datos que me pidió la inmobiliaria:\nCUIL: 20-32571994-0\nRecibo de sueldo: los últimos 3\n（中介说要担保人 garantía propietaria）',
         ('20-32571994-0',)),
    # South African ID number (13 digits, Luhn) in a Cape Town internship form
    Case('h12-096', 'resident_id', 'note',
         'Internship onboarding — Cape Town\nFull name: as in passport\nSA ID number: 9409184668089\nTax number: pending (SARS eFiling)\nStart date: 2027-01-11',
         ('9409184668089',)),
    # Israeli Teudat Zehut (9 digits) in a Hebrew label line
    Case('h12-097', 'resident_id', 'note',
         'טופס רישום לאוניברסיטה\nמספר תעודת זהות: 269035721\nחוג: לימודי מזרח אסיה\n注：ת.ז. 要带原件',
         ('269035721',)),
    # Romanian CNP (13 digits, mod-11 weights 279146358279) in an Erasmus form
    Case('h12-098', 'resident_id', 'note',
         'Erasmus — Universitatea din Cluj\nNume: Popescu Andrei (室友的，帮他填)\nCNP: 1800603157584\nFacultatea: Litere\n',
         ('1800603157584',)),
    # Mexican CURP (18 characters with check digit) in a Spanish-course homework
    Case('h12-099', 'resident_id', 'note',
         'Tarea: llenar un formulario con tus datos (我用了 host family 给的例子，是 Don Ramón 的真实信息，作业交完要删)\nNombre: Ramón\nCURP: RERE880225HJCTZR08\nEstado civil: casado',
         ('RERE880225HJCTZR08',)),
    # Chinese ID number on a hospital outpatient record (门诊病历) with 医保
    Case('h12-100', 'resident_id', 'note',
         '门诊病历（复印件拍照整理）\n科室：消化内科\u3000\u3000就诊日期：2026-11-18\n姓名：林伟\u3000性别：男\u3000年龄：24\n身份证号：51010720030516752X\u3000\u3000医保类型：城镇职工\n主诉：上腹痛 3 天\n诊断：慢性浅表性胃炎\n处方：奥美拉唑肠溶胶囊 20mg bid',
         ('51010720030516752X',)),
    # Chinese ID number on a gaokao score report (education record)
    Case('h12-101', 'resident_id', 'md',
         '# 高考成绩单（存档）\n\n- 证件号码：51010720050902714X\n- 语文 118\u3000数学 131\u3000外语 136\u3000理综 247\n- 总分 632，位次 8412\n',
         ('51010720050902714X',)),
    # Chinese driving licence number (= ID number) from a 12123 screenshot OCR
    Case('h12-102', 'resident_id', 'note',
         '交管12123 电子驾驶证\n准驾车型 C1\u3000\u3000状态 正常\n证号 440305200009141114\n初次领证日期 2021-07-30\n累积记分 0',
         ('440305200009141114',)),
    # Thai mobile +66 8x-xxx-xxxx with เบอร์โทร label
    Case('h12-103', 'mobile', 'note',
         'ครูภาษาไทย (泰语外教) — ติดต่อ\nชื่อ: ครูนิด\nเบอร์โทร: +66 85-905-3891\nLINE ID: ถามในกลุ่ม',
         ('+66 85-905-3891',)),
    # Indonesian mobile with 'no. HP' label in a Bahasa class note
    Case('h12-104', 'mobile', 'note',
         'Kelas Bahasa Indonesia — pertemuan 5\nkosakata: rumah, pasar, murah\nno. HP tutor (WA juga): +62 812-9293-3420',
         ('+62 812-9293-3420',)),
    # Turkish mobile with 'cep' label
    Case('h12-105', 'mobile', 'note',
         "İstanbul ev arkadaşı — Emre\ncep: +90 533 270 32 40\nkira her ayın 5'inde, IBAN ona sor",
         ('+90 533 270 32 40',)),
    # Italian mobile with 'cellulare' label in a homestay note
    Case('h12-106', 'mobile', 'note',
         'Famiglia ospitante a Bologna\nSignora Rossi — cellulare: +39 376 934 5164\narrivo: 3 gennaio, treno Frecciarossa 9521',
         ('+39 376 934 5164',)),
    # Polish mobile with 'tel. kom.' label
    Case('h12-107', 'mobile', 'note',
         'Kurs polskiego — opiekun grupy\ntel. kom. +48 733 236 324\n课后问题可以发短信',
         ('+48 733 236 324',)),
    # Chinese mobile written in financial upper-case numerals (壹贰叁…)
    Case('h12-108', 'mobile', 'note',
         '二手书交易，卖家怕被平台屏蔽，把号码写成了大写：\n壹叁柒壹肆肆玖伍玖壹贰\n（加微信同号）',
         ('壹叁柒壹肆肆玖伍玖壹贰',)),
    # Chinese mobile written with emoji keycap digits in a chat
    Case('h12-109', 'mobile', 'note',
         '闲鱼买家：东西到了联系我 1️⃣8️⃣8️⃣8️⃣7️⃣6️⃣0️⃣1️⃣2️⃣7️⃣3️⃣\n我：好的',
         ('1️⃣8️⃣8️⃣8️⃣7️⃣6️⃣0️⃣1️⃣2️⃣7️⃣3️⃣',)),
    # SMS sender number in `adb shell content query --uri content://sms` output
    Case('h12-110', 'mobile', 'txt',
         '$ adb shell content query --uri content://sms/inbox --projection address:date:body\nRow: 0 address=106980095533, date=1733040000000, body=【建设银行】您尾号8832的账户...\nRow: 1 address=+8613781815520, date=1733041234000, body=明天图书馆三楼见，带上讲义\n',
         ('13781815520',)),
    # emergency contact's mobile on a student registration card (学籍卡)
    Case('h12-111', 'mobile', 'md',
         '# 学籍卡（新生入学登记）\n\n| 项目 | 内容 |\n|---|---|\n| 家庭住址 | 见户口本 |\n| 紧急联系人 | 父亲 林国栋 |\n| 联系电话 | 13599383061 |\n| 生源地 | 湖北 |\n',
         ('13599383061',)),
    # Philippine mobile +63 9xx in a Shopee seller chat
    Case('h12-112', 'mobile', 'note',
         'Seller: Hi po! For COD please text my number +63 952 877 8368 before 5pm\nMe: salamat po',
         ('+63 952 877 8368',)),
    # Mexican CLABE interbancaria (18 digits with check digit) for a rent transfer
    Case('h12-113', 'bank_card', 'note',
         'Pago de renta — Coyoacán\nBeneficiario: Sra. Martínez\nCLABE: 002580151125207605\nConcepto: renta diciembre\n',
         ('002580151125207605',)),
    # Swiss QR-bill payload (SPC 0200) with a private creditor's IBAN
    Case('h12-114', 'bank_card', 'txt',
         'SPC\n0200\n1\nCH2311347523367345414\nK\nMeier Anna\nSeefeldstrasse 117, Wohnung 8\n8008 Zürich\n\n\nCH\n\n\n\n\n\n\n\n180.00\nCHF\n\n\n\n\n\n\n\nNON\n\nDeutschkurs November\nEPD\n',
         ('CH2311347523367345414', 'Seefeldstrasse 117, Wohnung 8')),
    # EPC (SEPA Girocode) QR payload with a tutor's IBAN
    Case('h12-115', 'bank_card', 'note',
         '扫二维码转账，解码出来是：\nBCD\n002\n1\nSCT\n\nJ. de Vries\nNL04ABNA7821108839\nEUR65.00\n\n\nBijles wiskunde nov\n',
         ('NL04ABNA7821108839',)),
    # SWIFT MT103 field :59: with the beneficiary's IBAN
    Case('h12-116', 'bank_card', 'txt',
         '{1:F01BKCHCNBJAXXX0000000000}{2:I103GKCCBEBBXXXXN}{4:\n:20:REF20261201A\n:23B:CRED\n:32A:261201EUR1200,00\n:50K:/6217008045864473427\nLIN WEI\n:59:/BE13981311794739\nPEETERS SOFIE\nLEUVEN\n:70:TUITION SPRING 2027\n:71A:SHA\n-}\n',
         ('6217008045864473427', 'BE13981311794739')),
    # magnetic-stripe track 1 (%B…^NAME^…?) in a POS reader debug log
    Case('h12-117', 'bank_card', 'txt',
         '[2026-12-01 14:02:11] MSR read ok, len=79\n[2026-12-01 14:02:11] T1=%B4969042808669942^LIN/WEI^3001201969222191565?\n[2026-12-01 14:02:11] T2=<not read>\n',
         ('%B4969042808669942^LIN/WEI^3001201969222191565?',)),
    # Polish NRB account number (26 digits, IBAN check) with 'nr konta'
    Case('h12-118', 'bank_card', 'note',
         'Czynsz za pokój — przelew do 10.\nOdbiorca: Katarzyna W.\nnr konta: 59 1026 6315 7648 1477 8243 0757\nTytuł: czynsz grudzień Lin',
         ('59 1026 6315 7648 1477 8243 0757',)),
    # Turkish Troy card (9792…) with 'kart numarası' and SKT
    Case('h12-119', 'bank_card', 'note',
         'Öğrenci kartı başvurusu — ödeme\nkart numarası: 9792 8834 3959 0276\nSKT: 08/29  CVV: 232\n',
         ('9792 8834 3959 0276', '232')),
    # embossed card number OCR'd one group per line from a photo
    Case('h12-120', 'bank_card', 'note',
         '拍卡片背面识别出来的（OCR）：\n5139\n5596\n9331\n6307\nVALID THRU 11/29\nLIN WEI',
         ('5139', '5596', '9331', '6307')),
    # RuPay card (6522…) with Hindi कार्ड नंबर label
    Case('h12-121', 'bank_card', 'note',
         'यात्रा के खर्चे — कार्ड\nकार्ड नंबर: 6522 0667 6890 9738\nसमाप्ति: 04/30\n印度朋友帮我订的火车票用的这张卡',
         ('6522 0667 6890 9738',)),
    # emailAddress= in the subject of `openssl x509 -noout -subject` output
    Case('h12-122', 'email', 'txt',
         '$ openssl x509 -in client.crt -noout -subject -issuer\nsubject=C = CN, ST = Hubei, O = Personal, CN = Lin Wei, emailAddress = linwei2007@foxmail.com\nissuer=C = CN, O = Lab CA, CN = Lab Intermediate CA\n',
         ('linwei2007@foxmail.com',)),
    # personal e-mail as the comment of an ssh-ed25519 public key
    Case('h12-123', 'email', 'note',
         'GitHub 上添加的公钥（公钥本身可以公开，但注释是我的私人邮箱）：\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIWXfWXqdxGdhLjG+4KQsZjzMbyQPpJTvtJEWwa4+Y0K0 wei.lin.209@qq.com',
         ('wei.lin.209@qq.com',)),
    # gpg --list-keys uid line Name <address>
    Case('h12-124', 'email', 'txt',
         '$ gpg --list-keys\n/home/lin/.gnupg/pubring.kbx\n-----------------------------\npub   ed25519 2025-03-02 [SC]\n      125AC7669AC65A7D2F7A7DCC942A93307355EC25\nuid           [ultimate] Lin Wei <l.wei68@proton.me>\nsub   cv25519 2025-03-02 [E]\n',
         ('l.wei68@proton.me',)),
    # schema.org JSON-LD Person with "email": "mailto:…" on a personal homepage
    Case('h12-125', 'email', 'json',
         '{\n  "@context": "https://schema.org",\n  "@type": "Person",\n  "name": "林伟 Lin Wei",\n  "jobTitle": "Graduate student",\n  "email": "mailto:linwei.research52@gmail.com",\n  "url": "https://linwei.github.io"\n}',
         ('linwei.research52@gmail.com',)),
    # Thai อีเมล label in a language-exchange contact note
    Case('h12-126', 'email', 'note',
         'เพื่อนแลกเปลี่ยนภาษา (语伴)\nชื่อ: พลอย\nอีเมล: ploy.rffqa@hotmail.com\n每周三晚上视频练口语',
         ('ploy.rffqa@hotmail.com',)),
    # address broken across two lines at the @ by PDF text extraction
    Case('h12-127', 'email', 'note',
         '（从报名表 PDF 复制出来的，换行了）\n联系人：张晓雨 电子邮箱：zhang.xiaoyu4754\n@outlook.com 邮编：430074',
         ('zhang.xiaoyu4754\n@outlook.com',)),
    # recipient list literal in smtplib sendmail
    Case('h12-128', 'email', 'py',
         'import smtplib\nfrom email.mime.text import MIMEText\n\nmsg = MIMEText("周报见附件", "plain", "utf-8")\nwith smtplib.SMTP_SSL("smtp.qq.com", 465) as s:\n    s.login(SENDER, AUTH_CODE)\n    s.sendmail(SENDER, ["wangfang916@163.com", "advisor.liu81@126.com"], msg.as_string())\n',
         ('wangfang916@163.com', 'advisor.liu81@126.com')),
    # US passport book number (letter + 8 digits) under DS-82 'Passport Book Number'
    Case('h12-129', 'passport', 'note',
         '帮室友 Jake 填续签 DS-82 草稿（他口述的）：\nMost recent passport — Passport Book Number: F68489278\nIssue date: 03/14/2018\n',
         ('F68489278',)),
    # Thai passport number with หนังสือเดินทาง label
    Case('h12-130', 'passport', 'note',
         'ข้อมูลสำหรับจองตั๋ว (帮泰国同学订票)\nชื่อ: Nattapong S.\nเลขที่หนังสือเดินทาง: UE0456516\nหมดอายุ: 2031-05-20',
         ('UE0456516',)),
    # Indonesian 'nomor paspor' in a travel-group chat
    Case('h12-131', 'passport', 'note',
         'Rombongan study tour Beijing — data peserta\n1. Siti Rahma — nomor paspor B5710870, berlaku s/d 2030\n',
         ('B5710870',)),
    # Turkish 'pasaport no' (U + 8 digits)
    Case('h12-132', 'passport', 'note',
         "Vize başvurusu (Çin) — Emre'nin bilgileri\npasaport no: U79434945\ndavet mektubu: üniversiteden gelecek",
         ('U79434945',)),
    # Philippine passport (P + 7 digits + letter) in an OEC form draft
    Case('h12-133', 'passport', 'note',
         'DFA passport details for the scholarship portal:\nPassport No.: P9931813P\nPlace of issue: DFA Manila\n',
         ('P9931813P',)),
    # 大陆居民往来台湾通行证 number in an exchange-program checklist
    Case('h12-134', 'passport', 'md',
         '# 赴台交换行前清单\n\n- [x] 入台证（电子）\n- [x] 往来台湾通行证：T90028824，有效期至 2031 年\n- [ ] 换新台币\n',
         ('T90028824',)),
    # Canadian passport (2 letters + 6 digits) in a visa-application checklist
    Case('h12-135', 'passport', 'note',
         '表哥办中国签证（他是加拿大护照），材料清单里要的信息：\nCanadian passport number: WP658281\nexpiry 2029-10-02',
         ('WP658281',)),
    # Polish address 'ul. … m. …' (flat number after m.)
    Case('h12-136', 'address', 'note',
         'Adres do korespondencji (akademik odpada, wynajmuję pokój):\nul. Długa 16 m. 14\n00-238 Warszawa\n宿舍申请没批，先住这里',
         ('ul. Długa 16 m. 14',)),
    # Mexico City address with Int. number before the colonia
    Case('h12-137', 'address', 'note',
         'Dirección para el paquete (casa de mi host family):\nCalle Xicoténcatl 334, Int. 9, Col. del Carmen, Coyoacán, 04100 CDMX\ntocar el timbre dos veces',
         ('Calle Xicoténcatl 334, Int. 9',)),
    # Bangkok address with house number/บ้านเลขที่ and ซอย
    Case('h12-138', 'address', 'note',
         'ที่อยู่ส่งของ (泰国朋友家，寄明信片)\nบ้านเลขที่ 55/29 ซอยพหลโยธิน 5 แขวงสามเสนใน เขตพญาไท กรุงเทพฯ 10400',
         ('บ้านเลขที่ 55/29 ซอยพหลโยธิน 5',)),
    # Pune flat address (Flat No., Wing, Society, Road)
    Case('h12-139', 'address', 'note',
         'PG accommodation — Pune internship\nAddress: Flat No. 105, B-Wing, Shanti Kunj Society, Baner Road, Pune 411045\nRent ₹14,000, deposit 2 months',
         ('Flat No. 105, B-Wing, Shanti Kunj Society, Baner Road',)),
    # Hanoi address with số/ngõ/ngách/phố
    Case('h12-140', 'address', 'note',
         'Địa chỉ nhà cô giáo tiếng Việt (上课地点)：\nSố 9 ngách 4 ngõ 170 phố Thái Hà, Đống Đa, Hà Nội\n每周六上午 9 点',
         ('Số 9 ngách 4 ngõ 170 phố Thái Hà',)),
    # Yogyakarta address with Jl./No./RT/RW
    Case('h12-141', 'address', 'note',
         'Alamat kos (寄宿) — Jogja\nJl. Kaliurang KM 9 No. 33, RT 04/RW 02, Sleman, DI Yogyakarta\nIbu kos: bayar tiap tanggal 1',
         ('Jl. Kaliurang KM 9 No. 33, RT 04/RW 02',)),
    # Istanbul address with Mah./Sok./No:/D:
    Case('h12-142', 'address', 'note',
         "Kadıköy'deki ev — kargo adresi:\nCaferağa Mah. Moda Cad. Güneşli Sok. No:6 D:5 Kadıköy/İstanbul\nkapı kodu kapıcıda",
         ('Caferağa Mah. Moda Cad. Güneşli Sok. No:6 D:5',)),
    # Macau address in traditional characters (大馬路/號/花園/樓/座)
    Case('h12-143', 'address', 'note',
         '澳門同學家地址（寄月餅）：\n澳門高士德大馬路69號嘉應花園14樓D座\n收件人：陳同學',
         ('高士德大馬路69號嘉應花園14樓D座',)),
    # 房屋坐落 field on a property-certificate (不动产权证书) OCR
    Case('h12-144', 'address', 'note',
         '不动产权证书（扫描识别）\n权利人\u3000林国栋\n共有情况\u3000单独所有\n坐\u3000落\u3000武汉市洪山区关山大道159号光谷新世界T5栋3单元604室\n用\u3000途\u3000城镇住宅用地/住宅\n面\u3000积\u3000共有宗地面积 / 房屋建筑面积 89.6㎡',
         ('关山大道159号光谷新世界T5栋3单元604室',)),
    # oathtool --totp with a hex key (its default input mode)
    Case('h12-145', 'otp_secret', 'note',
         '服务器上的 2FA 备份（hex 形式，oathtool 默认就是 hex）：\noathtool --totp 7e19832411970775326b070d2a466de7250be008\n生成的 6 位数和手机上一致就说明对了',
         ('7e19832411970775326b070d2a466de7250be008',)),
    # totp-rs Secret::Encoded base32 literal in Rust
    Case('h12-146', 'otp_secret', 'note',
         '```rust\nuse totp_rs::{Algorithm, Secret, TOTP};\n\nfn main() {\n    let totp = TOTP::new(Algorithm::SHA1, 6, 1, 30,\n        Secret::Encoded("YYYACD2XCMS4U25KOYYHAWWJYENO7ZHN".to_string()).to_bytes().unwrap()).unwrap();\n    println!("{}", totp.generate_current().unwrap());\n}\n```',
         ('YYYACD2XCMS4U25KOYYHAWWJYENO7ZHN',)),
    # Go pquerna/otp totp.GenerateCode with a literal secret
    Case('h12-147', 'otp_secret', 'note',
         '给 VPN 登录脚本自动算验证码：\n```go\ncode, err := totp.GenerateCode("JR563NO47T2DEMXX", time.Now())\nif err != nil { log.Fatal(err) }\nfmt.Print(password + code)\n```',
         ('JR563NO47T2DEMXX',)),
    # django-otp TOTPDevice key (40 hex) in a manage.py dumpdata fixture
    Case('h12-148', 'otp_secret', 'json',
         '[\n{\n  "model": "otp_totp.totpdevice",\n  "pk": 1,\n  "fields": {\n    "user": 1,\n    "name": "default",\n    "confirmed": true,\n    "key": "f9467cc3284fb6ff131d06d1b5344944521b00ab",\n    "step": 30,\n    "t0": 0,\n    "digits": 6,\n    "tolerance": 1,\n    "drift": 0,\n    "last_t": 57788131\n  }\n}\n]',
         ('f9467cc3284fb6ff131d06d1b5344944521b00ab',)),
    # Keycloak realm-export user credential of type otp (secretData is escaped JSON)
    Case('h12-149', 'otp_secret', 'json',
         '{\n  "username": "linwei",\n  "credentials": [\n    {\n      "type": "otp",\n      "userLabel": "iPhone",\n      "secretData": "{\\"value\\":\\"BTCC1rF3wys2bvLQGFhU\\"}",\n      "credentialData": "{\\"subType\\":\\"totp\\",\\"digits\\":6,\\"counter\\":0,\\"period\\":30,\\"algorithm\\":\\"HmacSHA1\\"}"\n    }\n  ]\n}',
         ('BTCC1rF3wys2bvLQGFhU',)),
    # Home Assistant otp sensor platform with a token:
    Case('h12-150', 'otp_secret', 'yaml',
         'sensor:\n  - platform: otp\n    name: "校园 VPN 验证码"\n    token: 3ZBZUQVG72O2SICRUTGY2HMVWPMDVSU7\n  - platform: time_date\n    display_options:\n      - time\n',
         ('3ZBZUQVG72O2SICRUTGY2HMVWPMDVSU7',)),
    # otpauth URI whose Chinese issuer is percent-encoded
    Case('h12-151', 'otp_secret', 'note',
         '扫教务系统二维码得到的（备份一下以防换手机）：\notpauth://totp/%E6%95%99%E5%8A%A1%E7%B3%BB%E7%BB%9F:linwei?secret=H26NS7NTPWRW6I4ZJGE4NDRY4V3WQV4S&issuer=%E6%95%99%E5%8A%A1%E7%B3%BB%E7%BB%9F&period=30',
         ('H26NS7NTPWRW6I4ZJGE4NDRY4V3WQV4S',)),
    # MetaMask decrypted vault pasted in a note: the mnemonic as an array of UTF-8 byte values
    Case('h12-152', 'recovery_phrase', 'note',
         'MetaMask「解密 vault」工具的输出，先存这里：\n[{"type":"HD Key Tree","data":{"mnemonic":[112,97,115,115,32,115,97,116,111,115,104,105,32,109,111,111,110,32,98,101,110,99,104,32,101,109,112,116,121,32,105,110,116,97,99,116,32,103,111,100,100,101,115,115,32,112,117,122,122,108,101,32,115,110,97,99,107,32,103,97,100,103,101,116,32,97,99,99,117,115,101,32,99,114,121],"numberOfAccounts":1,"hdPath":"m/44\'/60\'/0\'/0"}},{"type":"Ledger Hardware","data":{"hdPath":"m/44\'/60\'/0\'","accounts":[]}}]',
         ('112,97,115,115,32,115,97,116,111,115,104,105,32,109,111,111,110,32,98,101,110,99,104,32,101,109,112,116,121,32,105,110,116,97,99,116,32,103,111,100,100,101,115,115,32,112,117,122,122,108,101,32,115,110,97,99,107,32,103,97,100,103,101,116,32,97,99,99,117,115,101,32,99,114,121',)),
    # Foundry `cast wallet import --mnemonic "…"` in shell history
    Case('h12-153', 'recovery_phrase', 'txt',
         '  812  foundryup\n  813  cast wallet import dev --mnemonic "vintage guitar sentence wrap fault valve drive pull drop analyst orange village"\n  814  cast wallet list\n  815  forge script script/Deploy.s.sol --account dev --rpc-url sepolia\n',
         ('vintage guitar sentence wrap fault valve drive pull drop analyst orange village',)),
    # `solana-keygen new` output: 'Save this seed phrase…' then the 12 words
    Case('h12-154', 'recovery_phrase', 'txt',
         '$ solana-keygen new --outfile ~/.config/solana/devnet.json\nGenerating a new keypair\n\nFor added security, enter a BIP39 passphrase\n\nNOTE! This passphrase improves security of the recovery seed phrase NOT the\nkeypair file itself, which is stored as insecure plain text\n\nBIP39 Passphrase (empty for none):\n\nWrote new keypair to /home/lin/.config/solana/devnet.json\n===========================================================================\npubkey: AaQy6bVbopY1AFempra5VvgbP85iT1HhUwYRpETBeQZ8\n===========================================================================\nSave this seed phrase and your BIP39 passphrase to recover your new keypair:\nthree mushroom faculty skill ensure track wash unlock six bread honey frost\n===========================================================================\n',
         ('three mushroom faculty skill ensure track wash unlock six bread honey frost',)),
    # 12 words from a two-column card read across rows by OCR (1. … 7. …)
    Case('h12-155', 'recovery_phrase', 'note',
         '助记词卡片拍照识别（左右两栏被按行读出来了）：\n1. anger      7. day\n2. forum      8. indoor\n3. slush      9. gas\n4. bread      10. tomorrow\n5. travel      11. act\n6. kid      12. tell\n原卡放在抽屉铁盒里',
         ('anger', 'forum', 'slush', 'bread', 'travel', 'kid', 'day', 'indoor', 'gas', 'tomorrow', 'act', 'tell')),
    # 15-word English phrase as a Python list split over lines in a test script
    Case('h12-156', 'recovery_phrase', 'py',
         'from mnemonic import Mnemonic\n\n# 我自己钱包的，临时测试派生路径用，测完删掉\nWORDS = [\n    "company jewel credit salt earn",\n    "roast fitness pottery staff original",\n    "tiger word ahead document volcano",\n]\nseed = Mnemonic.to_seed(" ".join(WORDS))\n',
         ('company jewel credit salt earn', 'roast fitness pottery staff original', 'tiger word ahead document volcano')),
    # Simplified-Chinese BIP39 words in a 3x4 Markdown table
    Case('h12-157', 'recovery_phrase', 'md',
         '# 钱包备份\n\n冷钱包助记词（按卡片上的格子抄的）\n\n| | 1 | 2 | 3 | 4 |\n|---|---|---|---|---|\n| 第一行 | 融 | 捐 | 故 | 铜 |\n| 第二行 | 骨 | 敬 | 凭 | 精 |\n| 第三行 | 笼 | 适 | 节 | 贡 |\n',
         ('融', '捐', '故', '铜', '骨', '敬', '凭', '精', '笼', '适', '节', '贡')),
    # Japanese BIP39 words as a numbered list under 復元フレーズ
    Case('h12-158', 'recovery_phrase', 'note',
         'ウォレットの復元フレーズ（メモ）\n1. えんとつ\n2. かいしゃ\n3. りくつ\n4. さがる\n5. てんかい\n6. だむる\n7. ていさつ\n8. ちけん\n9. ようちえん\n10. てんさい\n11. そうだん\n12. さくひん',
         ('えんとつ', 'かいしゃ', 'りくつ', 'さがる', 'てんかい', 'だむる', 'ていさつ', 'ちけん', 'ようちえん', 'てんさい', 'そうだん', 'さくひん')),
    # Spanish phrase URL-encoded (+ and %C3%..) in a phishing page's query string from history
    Case('h12-159', 'recovery_phrase', 'note',
         '浏览器历史里找到的——上周在一个「钱包验证」网站输入过助记词（已经把币转走了，记录一下教训）：\nhttps://wallet-verify-support.example/validate?lang=es&phrase=p%C3%A1gina+mes%C3%B3n+permiso+quince+luz+v%C3%ADdeo+ganso+evadir+canto+regla+coraz%C3%B3n+salto&step=2',
         ('p%C3%A1gina+mes%C3%B3n+permiso+quince+luz+v%C3%ADdeo+ganso+evadir+canto+regla+coraz%C3%B3n+salto',)),
    # car-insurance policy OCR with the plate and a check-digit-valid VIN
    Case('h12-160', 'licence_plate', 'note',
         '机动车交通事故责任强制保险单（识别结果）\n被保险人\u3000林伟\n号牌号码\u3000鄂AB8H3C\n厂牌型号\u3000大众汽车牌FV7152BBDBG\n车辆识别代号（车架号）\u3000LFVYSCAM3MH034370\n保险期间 2026-12-01 至 2027-11-30',
         ('鄂AB8H3C', 'LFVYSCAM3MH034370')),
    # trailer plates (…挂) in a CSV of a family haulage business's trips
    Case('h12-161', 'licence_plate', 'txt',
         '日期,牵引车,挂车,货物,吨位\n2026-11-02,冀EDUVH3,冀E6278挂,钢卷,31.2\n2026-11-05,冀EDUVH3,冀E6278挂,建材,28.7\n',
         ('冀EDUVH3', '冀E6278挂')),
    # Chinese plate typed in lower case in a chat
    Case('h12-162', 'licence_plate', 'note',
         '室友：你车停哪了，我借一下\n我：b2 负一层 137 车位，车牌 湘aablw5，钥匙在前台',
         ('湘aablw5',)),
    # Thai plate with its province on a rental-scooter note
    Case('h12-163', 'licence_plate', 'note',
         'เช่ามอเตอร์ไซค์ — 清迈租的摩托\nทะเบียน 1กข 0732 เชียงใหม่\nมัดจำพาสปอร์ต (押护照) คืนวันที่ 20',
         ('1กข 0732',)),
    # Indian registration (MH 12 AB 1234) in a Pune rental agreement
    Case('h12-164', 'licence_plate', 'note',
         "Leave & licence agreement — parking clause\nTenant's vehicle no.: MH 12 HO 1176 (two-wheeler)\nParking slot: P-14",
         ('MH 12 HO 1176',)),
    # Dutch kenteken in sidecode 10 (9-XXX-99)
    Case('h12-165', 'licence_plate', 'note',
         'Fietsenhok vol, dus auto van gastgezin geleend:\nkenteken 3-ZNB-67, parkeervergunning zone Utrecht-Oost',
         ('3-ZNB-67',)),
    # California plate in a parking-citation e-mail
    Case('h12-166', 'licence_plate', 'note',
         'From: parking@university.example\nSubject: Citation #UCB-2026-118842\n\nA citation was issued to vehicle with California plate 9GVH814 on 11/29/2026 at Lot C.\nAmount due: $55.00',
         ('9GVH814',)),
]
