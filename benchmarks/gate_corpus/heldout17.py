"""Held-out batch 17: secrets and personal data in shapes the gate was not designed around.

Written in session 18 by an engineer (gwriter) who had read DESIGN.md, the README's privacy
paragraph, the corpus format (``__init__``, bench_gate.py's docstring) and only the docstrings of the
earlier batches (heldout to heldout15, the sealed heldout16, negatives to negatives15), never the
detectors, the earlier batches' cases nor the gate's tests; the gate was not run on it while it was
written (sealed in
/root/lead18/gate; measured there, released in session 19). 181 cases:
api_key 40, auth_header 12, connection_string 12, private_key 10, password 25, resident_id 11, mobile 10, bank_card 10, email 8, passport 8, address 10, otp_secret 8, recovery_phrase 9, licence_plate 8.
Values generated for the corpus (gen17.py with gen17_util.py, seed 1717, kept outside the repository): keys random
in each provider's shape (many 2024-2026 services, most without a well-known prefix, in containers
earlier batches did not use: docker inspect, kubectl describe, /proc environ, systemctl show, launchd
plists, Nix, EDN, Apps Script, Power Query M, Unity/Xcode/Android project files, Zed and Roo Code settings, VCR
cassettes, OpenAPI examples, strace, core-dump strings, uuencode, bash octal escapes, Discord spoilers,
keys split over CSV cells), private keys real but built from the seed and thrown away (RSA from seeded
primes, EC P-256 from seeded scalars, Ed25519 from seeded bytes; the signify file with its SHA-512
checksum, the NEAR key as base58, the Cardano key as CBOR, an RSA JWK), ID, card and account numbers
built to pass their checksums where the format has one (CN GB 11643, Latvian personas kods, Luxembourg
matricule Luhn + Verhoeff, Spanish NSS mod-97, German RVNR, Brazilian CNS mod-11, card Luhn, IBAN mod-97
for NL/EG/GE), BIP39 phrases with valid checksums (Czech, Turkish, Italian, Portuguese, English), a
SLIP-39 share with a valid RS1024 checksum (shamir-mnemonic 0.3.0, its randomness drawn from the seed)
and an Algorand mnemonic with its SHA-512/256 checksum word; none belongs to anyone. mnemonic 0.21 and
shamir-mnemonic 0.3.0 were installed by pip beside the generator. Addresses are labelled from
the road, house or flat down (city and district left, as the gate's design says). Encoded secrets
(base64url ss:// user info, base64 vmess JSON, percent-escaped, octal escapes, uuencode, Cloudflare's
XOR-hex e-mail obfuscation, base64 Cloudflare tunnel token) are labelled as they appear in the text; a
private key is labelled line by line (its body lines, the hex rows of a C array, the colon-hex lines of
the private parts of an `openssl rsa -text` dump, the private JWK members), a split key part by part,
a phrase in a list, table or hyphenated OCR word by word or piece by piece (each occurs once in its
text), otherwise as one string.

Shapes, one per case (category: shape):
api_key: airport (机场) subscription link with token= in a Clash Verge note, Chinese text around it
api_key: frp client frpc.toml with auth.token (TOML dotted keys) for a home lab
api_key: Cloudflare Tunnel token (base64 of a JSON with the tunnel secret) in a `cloudflared service install` line
api_key: Headscale pre-auth key (48 hex) in `tailscale up --login-server … --authkey`
api_key: Nextcloud app password (five groups of five) for DAVx⁵ written in a phone-setup note
api_key: Supabase new-format secret key (sb_secret_…) in a Cloudflare Workers .dev.vars file
api_key: Coolify API token (Sanctum 'N|…' shape) as a workflow_dispatch input default in a GitHub Actions file
api_key: Trigger.dev production secret key in the Env array of `docker inspect` output
api_key: Inngest signing key in `kubectl describe pod` Environment section
api_key: Polar.sh organization access token in a `cat /proc/PID/environ | tr '\\0' '\\n'` dump
api_key: WorkOS live API key in `systemctl show -p Environment` output
api_key: Tinybird admin token (p.eyJ…) in a macOS LaunchAgent plist EnvironmentVariables dict
api_key: turbopuffer key in a NixOS configuration.nix environment.variables attribute set
api_key: Portkey API key (no prefix) in a Clojure EDN config map
api_key: Serper.dev key (40 hex) set with PropertiesService in a Google Apps Script file
api_key: ZenRows key in the recorded request URI of a vcrpy cassette
api_key: Apify token left as the example value of a security scheme in an OpenAPI file
api_key: Fish Audio key (32 hex) in an Android local.properties beside sdk.dir
api_key: Luma AI key in an iOS .xcconfig (the // of a URL would start a comment, so the key stands alone)
api_key: Meshy key (msy_…) in a Unity ScriptableObject .asset file
api_key: WaniKani API v2 token (a UUID) in an Emacs Org property drawer
api_key: Gitee AI (模力方舟) access token as the password field of a ~/.authinfo line for gptel
api_key: Moodle web-service token (wstoken=, 32 hex) in a Netscape bookmarks.html export
api_key: Overleaf Git authentication token (olp_…) inside the remote URL in `git remote -v` output
api_key: Polygon.io key set with the %env magic in a Jupyter cell (ipynb JSON)
api_key: Twelve Data key in an Excel Power Query M expression (Web.Contents Query record)
api_key: Visual Crossing key in a fish shell history file (YAML-like `- cmd:` entries)
api_key: TianAPI (天行数据) key in a PowerShell PSReadLine ConsoleHost_history.txt
api_key: ShowAPI (万维易源) showapi_sign inside a write() call of strace output
api_key: InternLM (书生浦语) API token (a JWT) inside a `cat > .env <<EOF` heredoc
api_key: Vast.ai API key (64 hex) surfacing in `strings` of a crashed CLI's core dump
api_key: flomo incoming-webhook URL (user id and secret path) inside an exported iOS Shortcuts action plist
api_key: Memos access token (a JWT) in a chrome.storage.local dump from an extension's DevTools
api_key: Obsidian Local REST API key in Zed's settings.json context_servers env
api_key: key split across two cells of a CSV row (left half | right half) because a cell limit was hit
api_key: Discord spoiler-tagged key (||…||) in a study-server message export
api_key: Mailtrap token written as bash ANSI-C octal escapes ($'\\NNN…')
api_key: Strapi API token in a uuencoded .env block mailed to oneself
api_key: Zilliz Cloud API key given as token= to a LlamaIndex MilvusVectorStore
api_key: Nebius AI Studio key (a long JWT) in a Roo Code / Cline settings export
auth_header: bearer JWT inside a raw HTTP request byte string sent with socket.sendall
auth_header: OAuth 1.0a Authorization header with a user oauth_token (Twitter v1.1 style) in a debugging note
auth_header: bearer token given to xh with -A bearer -a
auth_header: 115 网盘 login cookie (UID/CID/SEID) in an aria2.conf header= line
auth_header: 知识星球 zsxq_access_token cookie in a crawler's headers dict
auth_header: LeetCode session cookie and csrftoken in a submissions-export script .env
auth_header: ChatGPT web session cookie (__Secure-next-auth.session-token, a JWE) in a reverse-proxy docker-compose
auth_header: Claude web sessionKey cookie copied from DevTools → Application → Cookies
auth_header: Kimi web refresh_token used as a Bearer for a kimi-free-api container
auth_header: Authorization header set in a wrk Lua script
auth_header: bearer token in Chrome DevTools 'Copy as fetch (Node.js)' output
auth_header: 即刻 x-jike-access-token header in a Tampermonkey GM_xmlhttpRequest
connection_string: Shadowsocks SIP002 ss:// link (base64url of method:password) in a proxy note
connection_string: trojan:// URI with the password as user info
connection_string: vmess:// link (base64 of a JSON holding the user id) in a subscription dump
connection_string: Hysteria 2 URI (hysteria2://auth@host) in a mihomo proxies list
connection_string: Azure IoT Hub device connection string in a Raspberry Pi sensor script
connection_string: Azure SignalR Service connection string in appsettings.Development.json
connection_string: MotherDuck token inside a DuckDB md: connection string
connection_string: Teradata BTEQ .LOGON tdpid/user,password in a SQL lab script
connection_string: iSCSI CHAP credentials in /etc/iscsi/iscsid.conf
connection_string: Perforce P4PASSWD in a .p4config beside the server and user
connection_string: private package index credentials given to `poetry config http-basic`
connection_string: Helm chart repository added with --username/--password
private_key: `xxd -i` C array of a DER EC private key for an ESP32 TLS client
private_key: RSA key inline in an OpenVPN profile's <key> block
private_key: `openssl rsa -text -noout` dump: the private exponent, primes and CRT values as colon hex
private_key: NEAR account credentials JSON (~/.near-credentials) with an ed25519: secret key
private_key: Cardano payment.skey text envelope (cborHex) from cardano-cli
private_key: OpenBSD signify secret key file (unencrypted, kdfrounds 0)
private_key: TLS key log (SSLKEYLOGFILE) lines with master secrets in a Wireshark lab folder
private_key: Yggdrasil PrivateKey (128 hex) in yggdrasil.conf (HJSON)
private_key: BIND DNSSEC private key file (K….private, ECDSAP256SHA256)
private_key: certbot ACME account private_key.json (an RSA JWK) from /etc/letsencrypt/accounts
password: Bulgarian 'парола' label in a Sofia exchange note
password: Kazakh 'құпия сөз' label for a university portal
password: Telugu పాస్‌వర్డ్ label in a Hyderabad internship note
password: Lao ລະຫັດຜ່ານ label for a guesthouse Wi-Fi
password: Afrikaans 'wagwoord' in a Stellenbosch residence checklist
password: Galician 'contrasinal' in a Santiago de Compostela course note
password: Serbian Cyrillic 'лозинка' label in a Novi Sad dorm note
password: Urdu پاس ورڈ label in a Lahore homestay chat
password: Albanian 'fjalëkalimi' label in a Tirana summer-school note
password: `git credential fill` output (protocol/host/username/password lines)
password: Wi-Fi payload Password in an Apple .mobileconfig profile
password: PreSharedKey in Android WifiConfigStore.xml (quoted inside the string element)
password: psk= in a NetworkManager .nmconnection keyfile
password: 向日葵 remote-control 识别码 and 验证码 sent to a relative
password: 百度网盘 share link with 提取码 for a folder of ID-card scans
password: az vm create --admin-password in a cloud-computing lab note
password: gcloud sql users set-password --password= in shell history
password: `pulumi config set` of a database password without --secret
password: Streamlit .streamlit/secrets.toml with a [passwords] table
password: Gradio launch(auth=(user, password)) in a demo app
password: Discuz! config_global.php dbpw (Chinese forum CMS)
password: 宝塔面板 `bt default` output (panel URL, username, password)
password: Windows AutoAdminLogon DefaultPassword set with `reg add` in a kiosk setup script
password: Debian preseed.cfg user password in plain text (d-i passwd/user-password)
password: kickstart rootpw --plaintext in an anaconda-ks.cfg
resident_id: Latvian personas kods (old format DDMMYY-CNNNN, weighted check) in a Riga dorm note
resident_id: Luxembourg matricule (13 digits, Luhn and Verhoeff check digits) on a CNS health-card note
resident_id: Spanish Seguridad Social number (NSS, mod-97 control digits) for a beca de colaboración contract
resident_id: German Rentenversicherungsnummer (area, birth date, initial, serial, check) on a Werkstudent form
resident_id: US Medicare Beneficiary Identifier of a host-family grandparent in an emergency card
resident_id: Indian PAN (5 letters with P in 4th place, 4 digits, letter) of a tutor for a TDS form
resident_id: Mongolian civil register number (2 Cyrillic letters + 8 digits) in a Mongolian-class note
resident_id: Brazilian Cartão Nacional de Saúde number (15 digits, mod-11) in an intercâmbio note
resident_id: 中国残疾人证号 (18-digit ID + category and grade digits, 20 in all) in a scholarship application
resident_id: Chinese ID number whose check character X was typed as the multiplication sign × in a chat
resident_id: Chinese ID number read from a Code 39 barcode by OCR (with the *…* start/stop marks)
mobile: South African cell number (08x xxx xxxx) with 'cell no.' in a braai invite
mobile: New Zealand mobile (021 …) in a Wellington flatmate note
mobile: Swedish mobile as a Swish payee (Swisha till …) in a corridor-dinner note
mobile: Kazakh mobile (+7 7xx) for a Kaspi transfer by phone number
mobile: Sri Lankan mobile with the Sinhala label ජංගම in a Kandy volunteer note
mobile: Algerian mobile with French and Arabic labels in an Oran exchange note
mobile: Belarusian mobile percent-encoded in a viber://chat?number= deep link
mobile: Chinese mobile with emoji separators to dodge a second-hand platform's filter
mobile: Chinese mobile given as an Alipay account (支付宝账号) for a refund
mobile: Swiss mobile with the Swiss-German 'Natel' label in a Zurich WG note
bank_card: Brazilian bank agência and conta corrente with dígito for a rent Pix fallback
bank_card: Swedish clearing number and account number (Swedbank style) for a deposit
bank_card: Japan Post Bank ゆうちょ 記号・番号 for a part-time salary
bank_card: Dankort number with Danish 'kortnummer' and 'udløb'
bank_card: Hipercard number in a Brazilian checkout payload
bank_card: Uzbek Humo card (9860…) with Uzbek and Russian labels
bank_card: UnionPay credit card with 有效期 and CVN2 in a wallet screenshot OCR
bank_card: Dutch IBAN (NL, RABO) for splitting a bill, Tikkie-style message
bank_card: Egyptian IBAN (EG, 29 characters) with the Arabic label رقم الآيبان
bank_card: Georgian IBAN (GE, TBC) with the Georgian label ანგარიშის ნომერი
email: envelope 'From addr date' separator line of an mbox archive
email: personal address in a Received: … for <…> header
email: address as from/user in ~/.msmtprc
email: personal address as an owner in a CODEOWNERS file
email: address hidden by Cloudflare's e-mail obfuscation (data-cfemail hex) in a saved page
email: address dictated with アットマーク and ドット in a Japanese note
email: authors = ["Name <address>"] in a Cargo.toml
email: LinkedIn data export Email Addresses.csv
passport: Kenyan passport (AK + 7 digits) in a Nairobi conference registration note
passport: Taiwanese passport (9 digits) with 護照號碼 in an exchange checklist
passport: Argentine passport (3 letters + 6 digits) with 'Pasaporte N°'
passport: Irish passport (2 letters + 7 digits) in a J-1 visa DS-2019 checklist
passport: Austrian Reisepass number (letter + 7 digits) in a German-language note
passport: Belgian passport (2 letters + 6 digits) with the French label 'numéro de passeport'
passport: 中国旅行证 (T + 8 digits) issued abroad, in a note about replacing a lost passport
passport: Chinese passport on a 境外人员临时住宿登记单 (foreigner temporary residence form) OCR
address: Glasgow tenement flat in the 2/1 (floor/door) form
address: US rural route and box number of a host family
address: Hyderabad house number in the H.No. 12-3-456/A form
address: home GPS position in degrees-minutes-seconds in exiftool output of a balcony photo
address: Lagos address with No., Close and 'off' a main road
address: Phnom Penh house number (#…) and numbered street
address: Israeli address in Hebrew with the flat number (דירה)
address: Copenhagen address with floor and side (3. tv.)
address: Helsinki address with staircase letter and flat number
address: Japanese address in kanji numerals (丁目/番/号/号室) copied from a 年賀状
otp_secret: 1Password .1pux export item with an otpauth URI in a section field
otp_secret: KeePass 2.x TimeOtp-Secret-Base32 string field in a KeePass XML export
otp_secret: pam_oath /etc/users.oath line (HOTP/T30 user - hexsecret)
otp_secret: FreeIPA `ipa otptoken-add` with a literal --key in an identity-management lab
otp_secret: otpauth URI in an Authelia `storage user totp export` CSV
otp_secret: pyotp.random_base32() printed in a notebook cell's output (the seed then enrolled)
otp_secret: Kotlin TOTP generator with a base32 literal decoded at run time
otp_secret: PyPI two-factor recovery codes (16 hex characters each) saved to a text file
recovery_phrase: SLIP-39 (Shamir) 20-word share of a hardware wallet backup, share 1 of 3
recovery_phrase: Czech BIP39 words as a Markdown task list (ticked as written down)
recovery_phrase: Turkish 24 words in two columns read top-to-bottom (1-12 left, 13-24 right)
recovery_phrase: Italian phrase in a Rust test with bip39::Mnemonic::parse_in
recovery_phrase: Portuguese phrase given to Go's bip39.NewSeed
recovery_phrase: English phrase given to `bx mnemonic-to-seed` in shell history
recovery_phrase: 24 words from a sticky-note photo OCR with words hyphenated across line breaks
recovery_phrase: English phrase sent to WeChat 文件传输助手 (File Transfer) in a chat export
recovery_phrase: Algorand 25-word account mnemonic (24 data words plus a checksum word) from a wallet export
licence_plate: Chinese plate with the province written in pinyin (Hu A…) in an English form
licence_plate: Chinese plate typed with the traditional form of its province character (粵 for 粤) in a Hong Kong cross-border note
licence_plate: Danish plate (AB 12 345) with 'nummerplade' in a car-share note
licence_plate: Finnish plate (ABC-123) with 'rekisterinumero'
licence_plate: Portuguese plate (AA-00-AA) with 'matrícula' in a Lisbon note
licence_plate: Japanese plate in romaji (Shinagawa 300 sa 12-34) in an English parking form
licence_plate: South African (Cape Town) plate CA 123-456 in a security-estate visitor note
licence_plate: Chilean plate (BB·CD·12, middle dots) with 'patente'
"""

from benchmarks.gate_corpus import Case

CASES = [
    Case(id='h17-001', category='api_key', container='note',
         text='换了新机场，订阅链接别外传：\nhttps://sub.fastcat-cloud.net/api/v1/client/subscribe?token=Xlo88nhcIoMjHsJCC3PPxl5wEXBbTFYX&flag=clash\nClash Verge → 订阅 → 新建 → 粘贴，更新间隔 1440 分钟。',
         secrets=('Xlo88nhcIoMjHsJCC3PPxl5wEXBbTFYX',)),
    Case(id='h17-002', category='api_key', container='txt',
         text='serverAddr = "203.0.113.47"\nserverPort = 7000\nauth.method = "token"\nauth.token = "DYS6a3a9kIfIpZ7PImyeZom8"\n\n[[proxies]]\nname = "nas-ssh"\ntype = "tcp"\nlocalIP = "127.0.0.1"\nlocalPort = 22\nremotePort = 6022\n',
         secrets=('DYS6a3a9kIfIpZ7PImyeZom8',)),
    Case(id='h17-003', category='api_key', container='note',
         text='给家里的 NAS 开外网访问，Zero Trust 面板里复制的命令：\n\nsudo cloudflared service install eyJhIjoiZGNmYzUxYmZlMDY0NTkzMDFmMDIyNzc0MDVmMTNmZjciLCJ0IjoiN2NhMGFkOGEtODcxNS00OTQ3LWI0ZGItOTY0MWU3YjIyM2FkIiwicyI6ImNRdVlzTnB3SDNyMVArQ0pUQzk3SUU0aHpVMmZBZUdXVm1xZEhvMTJIbVk9In0=\n\n然后 Public Hostname 填 nas.mydomain.net → http://localhost:5000',
         secrets=('eyJhIjoiZGNmYzUxYmZlMDY0NTkzMDFmMDIyNzc0MDVmMTNmZjciLCJ0IjoiN2NhMGFkOGEtODcxNS00OTQ3LWI0ZGItOTY0MWU3YjIyM2FkIiwicyI6ImNRdVlzTnB3SDNyMVArQ0pUQzk3SUU0aHpVMmZBZUdXVm1xZEhvMTJIbVk9In0=',)),
    Case(id='h17-004', category='api_key', container='md',
         text='## 自建 headscale 加入节点\n\n```bash\nheadscale preauthkeys create --user lab --reusable --expiration 720h\n# 输出:\n0972de59736802676e3e30756871572587a915502774bebf\nsudo tailscale up --login-server https://hs.example-lab.cn --authkey 0972de59736802676e3e30756871572587a915502774bebf\n```\n',
         secrets=('0972de59736802676e3e30756871572587a915502774bebf',)),
    Case(id='h17-005', category='api_key', container='note',
         text='DAVx5 同步日历/通讯录\n服务器: https://cloud.home-lab.cn/remote.php/dav\n用户: lin\n设备专用密码（Nextcloud 设置→安全→新建应用密码 生成的）: xmxGU-GzvMP-RpGEt-3jbQ1-j6GSH\n别用登录密码。',
         secrets=('xmxGU-GzvMP-RpGEt-3jbQ1-j6GSH',)),
    Case(id='h17-006', category='api_key', container='env',
         text='# .dev.vars  (wrangler dev reads this)\nSUPABASE_URL=https://abcdqwertyzxcv.supabase.co\nSUPABASE_SECRET_KEY=sb_secret_WFy6OO5CizFTpEXCkBK7_QlvQsdbl_4\nENVIRONMENT=dev\n',
         secrets=('sb_secret_WFy6OO5CizFTpEXCkBK7_QlvQsdbl_4',)),
    Case(id='h17-007', category='api_key', container='yaml',
         text='name: redeploy\non:\n  workflow_dispatch:\n    inputs:\n      coolify_token:\n        description: \'API token\'\n        required: true\n        default: \'23|xK5x98fIwq0o8IKSzJkxSPVwCOsHYKvbq6ICRHq3PNTbV6sm\'\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n      - run: curl -s -H "Authorization: Bearer ${{ inputs.coolify_token }}" https://coolify.lab.cn/api/v1/deploy?uuid=app1\n',
         secrets=('23|xK5x98fIwq0o8IKSzJkxSPVwCOsHYKvbq6ICRHq3PNTbV6sm',)),
    Case(id='h17-008', category='api_key', container='json',
         text='[\n    {\n        "Id": "d425ab6775bc7d120dfe5dcdaa7a409637823bc4a8c09d27fdf69f56198c799c",\n        "Config": {\n            "Hostname": "worker-1",\n            "Env": [\n                "NODE_ENV=production",\n                "TRIGGER_SECRET_KEY=tr_prod_0kmTyv8am04Nwo7g4xHA",\n                "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"\n            ],\n            "Image": "ghcr.io/lin/jobs:1.4.2"\n        }\n    }\n]\n',
         secrets=('tr_prod_0kmTyv8am04Nwo7g4xHA',)),
    Case(id='h17-009', category='api_key', container='txt',
         text="Name:         study-sync-7d9c6b5f4-x2lqp\nNamespace:    default\nContainers:\n  app:\n    Image:          registry.lab.cn/study-sync:0.9.1\n    Environment:\n      INNGEST_EVENT_KEY:    <set to the key 'event-key' in secret 'inngest'>  Optional: false\n      INNGEST_SIGNING_KEY:  signkey-prod-a5a1acbe83d1b93e59295fcca33959204a81542afba3f42216d024ccda8c60cc\n      LOG_LEVEL:            info\n",
         secrets=('signkey-prod-a5a1acbe83d1b93e59295fcca33959204a81542afba3f42216d024ccda8c60cc',)),
    Case(id='h17-010', category='api_key', container='note',
         text="排查为什么 webhook 401，看了一下进程环境变量：\n$ cat /proc/2231/environ | tr '\\0' '\\n'\nHOME=/home/app\nPOLAR_ACCESS_TOKEN=polar_oat_KlQBG7tKBUAajYco5ldwrhtWNfF5CmZlNAjw7HBkaTr\nLANG=C.UTF-8\n",
         secrets=('polar_oat_KlQBG7tKBUAajYco5ldwrhtWNfF5CmZlNAjw7HBkaTr',)),
    Case(id='h17-011', category='api_key', container='txt',
         text='$ systemctl show auth-gateway -p Environment\nEnvironment=PORT=8080 WORKOS_CLIENT_ID=client_JUPR8EUZCW5MB7925SGYJYVXC8 WORKOS_API_KEY=sk_live_EbMWIexH2P3zQkTJCCbqKp7oZLK0G4wXR7gvBdknN938Wwhr RUST_LOG=info\n',
         secrets=('sk_live_EbMWIexH2P3zQkTJCCbqKp7oZLK0G4wXR7gvBdknN938Wwhr',)),
    Case(id='h17-012', category='api_key', container='txt',
         text='<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n  <key>Label</key>\n  <string>cn.lin.reading-stats</string>\n  <key>EnvironmentVariables</key>\n  <dict>\n    <key>TB_TOKEN</key>\n    <string>p.eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1IjoiZDU0OTU2NTItNGFjOC00ZGJmLWFiM2ItM2I0NTFlYWEyYmU5IiwiaWQiOiJlMDNlYzkzOS0xMzVhLTQxODMtYmJlMS03NWVmNWIwYTA2OTIiLCJob3N0IjoiZ2NwLWV1cm9wZS13ZXN0MyJ9.ny9s-TUYVrPicgKB_deKgMkVZIZZi2hG2noU_IVVnqk</string>\n  </dict>\n  <key>StartInterval</key>\n  <integer>3600</integer>\n</dict>\n</plist>\n',
         secrets=('p.eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1IjoiZDU0OTU2NTItNGFjOC00ZGJmLWFiM2ItM2I0NTFlYWEyYmU5IiwiaWQiOiJlMDNlYzkzOS0xMzVhLTQxODMtYmJlMS03NWVmNWIwYTA2OTIiLCJob3N0IjoiZ2NwLWV1cm9wZS13ZXN0MyJ9.ny9s-TUYVrPicgKB_deKgMkVZIZZi2hG2noU_IVVnqk',)),
    Case(id='h17-013', category='api_key', container='txt',
         text='{ config, pkgs, ... }:\n{\n  environment.variables = {\n    EDITOR = "nvim";\n    TURBOPUFFER_API_KEY = "tpuf_JH9n5jIt94cQVHMDj0kJsws7jdjScD1g";\n  };\n  services.openssh.enable = true;\n}\n',
         secrets=('tpuf_JH9n5jIt94cQVHMDj0kJsws7jdjScD1g',)),
    Case(id='h17-014', category='api_key', container='txt',
         text='{:llm {:gateway "https://api.portkey.ai/v1"\n       :portkey-api-key "jSiLV5xr9QyXliIGZhGdlAdHEdg3zpsp"\n       :virtual-key "openai-study-3f2a"}\n :db {:path "notes.db"}}\n',
         secrets=('jSiLV5xr9QyXliIGZhGdlAdHEdg3zpsp',)),
    Case(id='h17-015', category='api_key', container='txt',
         text="function setup() {\n  PropertiesService.getScriptProperties()\n    .setProperty('SERPER_KEY', 'a4bba7d8e3b1685a328a23392c92d66a83a0c96f');\n}\n\nfunction search(q) {\n  const key = PropertiesService.getScriptProperties().getProperty('SERPER_KEY');\n  return UrlFetchApp.fetch('https://google.serper.dev/search', {method: 'post', headers: {'X-API-KEY': key},\n    payload: JSON.stringify({q})});\n}\n",
         secrets=('a4bba7d8e3b1685a328a23392c92d66a83a0c96f',)),
    Case(id='h17-016', category='api_key', container='yaml',
         text='interactions:\n- request:\n    body: null\n    headers:\n      User-Agent: [python-requests/2.32.3]\n    method: GET\n    uri: https://api.zenrows.com/v1/?apikey=c0683953b500f8380105eddb728c908a04872c2c&url=https%3A%2F%2Fbooks.toscrape.com%2F&js_render=true\n  response:\n    status: {code: 200, message: OK}\nversion: 1\n',
         secrets=('c0683953b500f8380105eddb728c908a04872c2c',)),
    Case(id='h17-017', category='api_key', container='yaml',
         text='openapi: 3.0.3\ninfo: {title: crawler-proxy, version: 0.2.0}\ncomponents:\n  securitySchemes:\n    apifyToken:\n      type: apiKey\n      in: query\n      name: token\n      x-example: apify_api_6LOEDByImtxE2aTxvGiiMC7kaMNjFMkKJEAw\npaths: {}\n',
         secrets=('apify_api_6LOEDByImtxE2aTxvGiiMC7kaMNjFMkKJEAw',)),
    Case(id='h17-018', category='api_key', container='txt',
         text='## This file must *NOT* be checked into Version Control Systems,\nsdk.dir=/Users/lin/Library/Android/sdk\nFISH_AUDIO_KEY=b003be9e41264405d704f59a70be5e0a\n',
         secrets=('b003be9e41264405d704f59a70be5e0a',)),
    Case(id='h17-019', category='api_key', container='txt',
         text='// Secrets.xcconfig\nLUMA_BASE = https:/$()/api.lumalabs.ai/dream-machine/v1\nLUMA_API_KEY = luma-f6539109-d505-4a40-b9b2-520d3df897cb-21ea0cb0-a8c1-4c5f-85c0-e2c96819271e\n',
         secrets=('luma-f6539109-d505-4a40-b9b2-520d3df897cb-21ea0cb0-a8c1-4c5f-85c0-e2c96819271e',)),
    Case(id='h17-020', category='api_key', container='yaml',
         text='%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!114 &11400000\nMonoBehaviour:\n  m_ObjectHideFlags: 0\n  m_Script: {fileID: 11500000, guid: 38bb015f2a46c1f79cd59989ee378615, type: 3}\n  m_Name: MeshySettings\n  apiKey: msy_Yqsob6TLpOkxoIVFi5VssvEyayHxx7ci5UPU\n  textureRichness: high\n',
         secrets=('msy_Yqsob6TLpOkxoIVFi5VssvEyayHxx7ci5UPU',)),
    Case(id='h17-021', category='api_key', container='txt',
         text='* 日语学习仪表盘\n  :PROPERTIES:\n  :CREATED:  [2026-03-02 Mon 21:14]\n  :WK_TOKEN: 24bd5e0d-5fad-486d-903b-840e4a5d93af\n  :END:\n  每天复习量从 API 拉，见 src block。\n',
         secrets=('24bd5e0d-5fad-486d-903b-840e4a5d93af',)),
    Case(id='h17-022', category='api_key', container='note',
         text='gptel 接 Gitee AI：\n~/.authinfo 加一行\nmachine ai.gitee.com login apikey password 04US9QC477M0D79BH5AGQSRNVI7GB0VY9IB8FNZN\n然后 (gptel-make-openai "GiteeAI" :host "ai.gitee.com" :key #\'gptel-api-key-from-auth-source)',
         secrets=('04US9QC477M0D79BH5AGQSRNVI7GB0VY9IB8FNZN',)),
    Case(id='h17-023', category='api_key', container='txt',
         text='<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n    <DT><H3>课程</H3>\n    <DL><p>\n        <DT><A HREF="https://moodle.example-univ.edu/webservice/rest/server.php?wstoken=a84988a11e882b3acce8b1db2bf2f0bb&wsfunction=core_course_get_contents&moodlewsrestformat=json&courseid=412" ADD_DATE="1767225600">作业列表 API</A>\n    </DL><p>\n</DL><p>\n',
         secrets=('a84988a11e882b3acce8b1db2bf2f0bb',)),
    Case(id='h17-024', category='api_key', container='note',
         text='thesis 仓库同步 Overleaf：\n$ git remote -v\noverleaf\thttps://git:olp_t5Kvm6yslfsbl5C0ixcpoyeVbYqXyzLJVFLQ@git.overleaf.com/65f0c2a9e4b0a1b2c3d4e5f6 (fetch)\noverleaf\thttps://git:olp_t5Kvm6yslfsbl5C0ixcpoyeVbYqXyzLJVFLQ@git.overleaf.com/65f0c2a9e4b0a1b2c3d4e5f6 (push)\n',
         secrets=('olp_t5Kvm6yslfsbl5C0ixcpoyeVbYqXyzLJVFLQ',)),
    Case(id='h17-025', category='api_key', container='json',
         text='{\n "cell_type": "code",\n "execution_count": 3,\n "metadata": {},\n "source": [\n  "%env POLYGON_API_KEY=t59D4kcbtyVMXdCpWRaxCK9GGEw7ln9n\\n",\n  "from polygon import RESTClient\\n",\n  "client = RESTClient()"\n ],\n "outputs": [\n  {\n   "name": "stdout",\n   "output_type": "stream",\n   "text": [\n    "env: POLYGON_API_KEY=t59D4kcbtyVMXdCpWRaxCK9GGEw7ln9n\\n"\n   ]\n  }\n ]\n}',
         secrets=('t59D4kcbtyVMXdCpWRaxCK9GGEw7ln9n',)),
    Case(id='h17-026', category='api_key', container='txt',
         text='let\n    Source = Json.Document(Web.Contents("https://api.twelvedata.com/time_series",\n        [Query=[symbol="600519", interval="1day", apikey="e3851cf7167729cb58bf0af1eec5a15c"]])),\n    values = Source[values]\nin\n    values\n',
         secrets=('e3851cf7167729cb58bf0af1eec5a15c',)),
    Case(id='h17-027', category='api_key', container='yaml',
         text='- cmd: cd ~/proj/weather-hw\n  when: 1767312000\n- cmd: curl "https://weather.visualcrossing.com/VisualCrossingWebServices/rest/services/timeline/Nanjing?key=YA36HZTFCIFIC01F4U88E4XYY&unitGroup=metric"\n  when: 1767312044\n- cmd: git status\n  when: 1767312090\n',
         secrets=('YA36HZTFCIFIC01F4U88E4XYY',)),
    Case(id='h17-028', category='api_key', container='txt',
         text='cd D:\\code\\daily-poem\nInvoke-RestMethod "https://apis.tianapi.com/poetries/index?key=36da3cd02f33c90b15ba65116f536ac2&num=1"\ncode .\n',
         secrets=('36da3cd02f33c90b15ba65116f536ac2',)),
    Case(id='h17-029', category='api_key', container='txt',
         text='$ strace -f -e trace=connect,write -s 120 php ip.php\nconnect(3, {sa_family=AF_INET, sin_port=htons(80), sin_addr=inet_addr("203.0.113.9")}, 16) = 0\nwrite(3, "GET /showapi_ip?showapi_appid=88231&showapi_sign=7dbdee08dacb5265cb67d5abef12fbc5 HTTP/1.1\\r\\nHost: route.showapi.com"..., 112) = 112\n',
         secrets=('7dbdee08dacb5265cb67d5abef12fbc5',)),
    Case(id='h17-030', category='api_key', container='note',
         text="服务器上写配置：\n```\ncat > .env <<'EOF'\nINTERN_BASE_URL=https://chat.intern-ai.org.cn/api/v1/\nINTERN_API_KEY=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJqdGkiOiJkMTA0MTVhZC1mMGY2LTRlNmQtYTIxYi0xN2FjODMyZGI4MTMiLCJyb2wiOiJST0xFX1JFR0lTVEVSIiwiaXNzIjoiT3BlblhMYWIiLCJpYXQiOjE3NjcyMjU2MDAsImNsaWVudElkIjoiYzRjYjU1YjA4YTUwYmRhNDQwNmMiLCJwaG9uZSI6IiIsInV1aWQiOiI3MWU2ODJjMi02NjUzLTQ4ZGMtODNlZS1lYWJiN2VlMjIyYmEiLCJlbWFpbCI6IiIsImV4cCI6MTc4Mjg2NDAwMH0.kRO94VgMVorakT01pM6cGFa11ztGM-4DxhMHXfGb0Qw\nEOF\n```\n",
         secrets=('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJqdGkiOiJkMTA0MTVhZC1mMGY2LTRlNmQtYTIxYi0xN2FjODMyZGI4MTMiLCJyb2wiOiJST0xFX1JFR0lTVEVSIiwiaXNzIjoiT3BlblhMYWIiLCJpYXQiOjE3NjcyMjU2MDAsImNsaWVudElkIjoiYzRjYjU1YjA4YTUwYmRhNDQwNmMiLCJwaG9uZSI6IiIsInV1aWQiOiI3MWU2ODJjMi02NjUzLTQ4ZGMtODNlZS1lYWJiN2VlMjIyYmEiLCJlbWFpbCI6IiIsImV4cCI6MTc4Mjg2NDAwMH0.kRO94VgMVorakT01pM6cGFa11ztGM-4DxhMHXfGb0Qw',)),
    Case(id='h17-031', category='api_key', container='txt',
         text='$ strings -n 12 core.vastai.41822 | grep -i -A1 api\nvast_api_key_path\n/root/.vast_api_key\nba6c02ce1f0254e7bff1b43f3d2bc3948593d99088ec5f8aa7c5b4d0316f3153\nhttps://console.vast.ai/api/v0/instances/\n',
         secrets=('ba6c02ce1f0254e7bff1b43f3d2bc3948593d99088ec5f8aa7c5b4d0316f3153',)),
    Case(id='h17-032', category='api_key', container='txt',
         text='<dict>\n  <key>WFWorkflowActionIdentifier</key>\n  <string>is.workflow.actions.downloadurl</string>\n  <key>WFWorkflowActionParameters</key>\n  <dict>\n    <key>WFHTTPMethod</key>\n    <string>POST</string>\n    <key>WFURL</key>\n    <string>https://flomoapp.com/iwh/388814bbccd71712/9df8a726c433ea61cdd45ba8922ead17/</string>\n  </dict>\n</dict>\n',
         secrets=('388814bbccd71712/9df8a726c433ea61cdd45ba8922ead17',)),
    Case(id='h17-033', category='api_key', container='note',
         text="> await chrome.storage.local.get(null)\n{domain: 'https://memos.lin-notes.cn', token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJuYW1lIjoibGluIiwiaXNzIjoibWVtb3MiLCJzdWIiOiIxIiwiYXVkIjpbInVzZXIuYWNjZXNzLXRva2VuIl0sImlhdCI6MTc2NzIyNTYwMH0.4Au7kIKewi_OF5uztiveImbmkQ0o53IDQrc9m70NYg4', defaultVisibility: 'PRIVATE'}\n",
         secrets=('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJuYW1lIjoibGluIiwiaXNzIjoibWVtb3MiLCJzdWIiOiIxIiwiYXVkIjpbInVzZXIuYWNjZXNzLXRva2VuIl0sImlhdCI6MTc2NzIyNTYwMH0.4Au7kIKewi_OF5uztiveImbmkQ0o53IDQrc9m70NYg4',)),
    Case(id='h17-034', category='api_key', container='json',
         text='{\n  "theme": "One Dark",\n  "context_servers": {\n    "obsidian": {\n      "command": {\n        "path": "uvx",\n        "args": [\n          "mcp-obsidian"\n        ],\n        "env": {\n          "OBSIDIAN_API_KEY": "48167c41989392ac27c82735a9ccc3a3bcb79434856279cc9a9192ad18653c5e",\n          "OBSIDIAN_HOST": "127.0.0.1"\n        }\n      }\n    }\n  }\n}',
         secrets=('48167c41989392ac27c82735a9ccc3a3bcb79434856279cc9a9192ad18653c5e',)),
    Case(id='h17-035', category='api_key', container='txt',
         text='service,key_part1,key_part2,note\nLepton,CQP1aClNCSraDM21,r77xZUFVt2xPFpSGgpuJU9KR,拼起来用 (Excel 单元格截断)\n',
         secrets=('CQP1aClNCSraDM21', 'r77xZUFVt2xPFpSGgpuJU9KR')),
    Case(id='h17-036', category='api_key', container='note',
         text='[2026-02-11 22:41] lin: 给组里用的 SambaNova key，别截图\n[2026-02-11 22:41] lin: ||76e7b7e7-fae6-4a41-a348-d35d1525ffcd||\n[2026-02-11 22:43] mei: 收到 👍\n',
         secrets=('76e7b7e7-fae6-4a41-a348-d35d1525ffcd',)),
    Case(id='h17-037', category='api_key', container='note',
         text="防止被人肩窥，脚本里写成八进制：\nexport MAILTRAP_TOKEN=$'\\145\\070\\141\\063\\067\\066\\145\\146\\061\\062\\064\\142\\066\\071\\062\\067\\062\\141\\067\\143\\145\\062\\061\\145\\146\\064\\142\\061\\070\\143\\060\\145'\n",
         secrets=('\\145\\070\\141\\063\\067\\066\\145\\146\\061\\062\\064\\142\\066\\071\\062\\067\\062\\141\\067\\143\\145\\062\\061\\145\\146\\064\\142\\061\\070\\143\\060\\145',)),
    Case(id='h17-038', category='api_key', container='note',
         text='（旧邮件客户端转过来的附件，uuencode 的）\nbegin 644 strapi.env\nM4U1205!)7T%025]43TM%3CTQ8C=E938S8F0V9CAC.#-D-S@V.34S8S!F9C0P\nM-3 P-61A,30T8C8P86%C,C8R930V86$R8F,Q-V-F86$W.6-E-#,T8S(W,F5A\nM-&$S9#5A,3-D938Y-65B8F,V-3 P,3=D,&-C,S=D,F(W,CDT93,P-3,Y,V0V\nM.65B8F)A,#4R,F)E-68S864U93=A9CAB-&,T,S<T-61A83AC,61D83!E,F,S\nM9F(P9C$R8C R-&)B-38R.3(S83,T,C4Y-V8Y9#-A,&5C9CDU931F8F9E-30R\nM834T8S!A-CEB96)F93 P9&8W,S)E9F,X93 W-#@W8F(Y9CDY9&9A-S-F-C,P\nG8F5C"E-44D%025]54DP]:\'1T<\',Z+R]C;7,N;&EN+6)L;V<N8VX*\n`\nend\n',
         secrets=('M4U1205!)7T%025]43TM%3CTQ8C=E938S8F0V9CAC.#-D-S@V.34S8S!F9C0P', 'M-3 P-61A,30T8C8P86%C,C8R930V86$R8F,Q-V-F86$W.6-E-#,T8S(W,F5A', 'M-&$S9#5A,3-D938Y-65B8F,V-3 P,3=D,&-C,S=D,F(W,CDT93,P-3,Y,V0V', 'M.65B8F)A,#4R,F)E-68S864U93=A9CAB-&,T,S<T-61A83AC,61D83!E,F,S', 'M9F(P9C$R8C R-&)B-38R.3(S83,T,C4Y-V8Y9#-A,&5C9CDU931F8F9E-30R', 'M834T8S!A-CEB96)F93 P9&8W,S)E9F,X93 W-#@W8F(Y9CDY9&9A-S-F-C,P', 'G8F5C"E-44D%025]54DP]:\'1T<\',Z+R]C;7,N;&EN+6)L;V<N8VX*')),
    Case(id='h17-039', category='api_key', container='py',
         text="from llama_index.vector_stores.milvus import MilvusVectorStore\n\nstore = MilvusVectorStore(\n    uri='https://in03-1a2b3c4d5e6f.serverless.gcp-us-west1.cloud.zilliz.com',\n    token='jevbMzqXI1s8aoqzp8K_lTN5Fm21L4Kltx_IH4O2N7Brx1XuY7Nu4kUxYGdmpe9gXKfFm7rlGZgnSjuSzSGqlAgQslhR-HbbKTcHY6P1',\n    dim=1024, overwrite=False)\n",
         secrets=('jevbMzqXI1s8aoqzp8K_lTN5Fm21L4Kltx_IH4O2N7Brx1XuY7Nu4kUxYGdmpe9gXKfFm7rlGZgnSjuSzSGqlAgQslhR-HbbKTcHY6P1',)),
    Case(id='h17-040', category='api_key', container='json',
         text='{\n  "currentApiConfigName": "nebius",\n  "apiConfigs": {\n    "nebius": {\n      "apiProvider": "openai",\n      "openAiBaseUrl": "https://api.studio.nebius.com/v1/",\n      "openAiApiKey": "eyJhbGciOiJSUzI1NiIsImtpZCI6InYxIn0.eyJzdWIiOiIzNDllZWY4OS0xNTgxLTQxMzktYmRjYS05YTBlNGJlYjJlMGQiLCJpc3MiOiJuZWJpdXMtc3R1ZGlvIiwiYXVkIjoiYXBpIiwic2NvcGUiOiJpbmZlcmVuY2UifQ.LXOODuV8MyXM2_lyFI0Co_6nAZT4Me65mPvqdkASBTo",\n      "openAiModelId": "Qwen/Qwen3-Coder-480B-A35B-Instruct"\n    }\n  }\n}',
         secrets=('eyJhbGciOiJSUzI1NiIsImtpZCI6InYxIn0.eyJzdWIiOiIzNDllZWY4OS0xNTgxLTQxMzktYmRjYS05YTBlNGJlYjJlMGQiLCJpc3MiOiJuZWJpdXMtc3R1ZGlvIiwiYXVkIjoiYXBpIiwic2NvcGUiOiJpbmZlcmVuY2UifQ.LXOODuV8MyXM2_lyFI0Co_6nAZT4Me65mPvqdkASBTo',)),
    Case(id='h17-041', category='auth_header', container='py',
         text="import socket, ssl\ns = ssl.create_default_context().wrap_socket(socket.socket(), server_hostname='api.lab.cn')\ns.connect(('api.lab.cn', 443))\ns.sendall(b'GET /v1/grades HTTP/1.1\\r\\nHost: api.lab.cn\\r\\nAuthorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIyMDIzMTE4NyIsInJvbGUiOiJzdHVkZW50IiwiZXhwIjoxNzY3MzEyMDAwfQ.eYtNQnb8Yb4w9X2O-yENiczt1S4ydf5012Tor-2gFEE\\r\\n\\r\\n')\n",
         secrets=('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIyMDIzMTE4NyIsInJvbGUiOiJzdHVkZW50IiwiZXhwIjoxNzY3MzEyMDAwfQ.eYtNQnb8Yb4w9X2O-yENiczt1S4ydf5012Tor-2gFEE',)),
    Case(id='h17-042', category='auth_header', container='note',
         text='签名一直不对，把完整 header 贴这里对比：\nAuthorization: OAuth oauth_consumer_key="wdQloDrrUiWrDs1cqGL7qdU7Z", oauth_nonce="KrPblgCjMWkG1bYKzJA3JPESWUVX80qE", oauth_signature="vpBLHhZeaQY6SpGY9vCeEKCicZk%3D", oauth_signature_method="HMAC-SHA1", oauth_timestamp="1767225600", oauth_token="5667803843048043580-W96gRWtJqthWREYt1qhfT1v03zCtRA", oauth_version="1.0"\n',
         secrets=('5667803843048043580-W96gRWtJqthWREYt1qhfT1v03zCtRA',)),
    Case(id='h17-043', category='auth_header', container='note',
         text='xh 比 httpie 快：\nxh -A bearer -a oLuKcvx5docxxJbedzo0WBni1R7R9BjujTPFokAA GET https://api.readinglog.cn/v2/books status==reading\n',
         secrets=('oLuKcvx5docxxJbedzo0WBni1R7R9BjujTPFokAA',)),
    Case(id='h17-044', category='auth_header', container='txt',
         text='dir=/downloads\nmax-concurrent-downloads=3\ncontinue=true\nheader=Cookie: UID=287745409_A1_0645231171; CID=6b4bed3071770161c8d08f067c20ed98; SEID=21f1cc7924de2840239be92c4627966f4f747fa7345c487bc39ab95c3daa73112489894b22eacabf9663f9986efd1ec648a4178c1d02a2d117d062fa\nheader=User-Agent: Mozilla/5.0 115Browser/27.0.6\n',
         secrets=('287745409_A1_0645231171', '6b4bed3071770161c8d08f067c20ed98', '21f1cc7924de2840239be92c4627966f4f747fa7345c487bc39ab95c3daa73112489894b22eacabf9663f9986efd1ec648a4178c1d02a2d117d062fa')),
    Case(id='h17-045', category='auth_header', container='py',
         text="HEADERS = {\n    'User-Agent': 'Mozilla/5.0',\n    'Cookie': 'zsxq_access_token=FEBCD3B1-5570-9915-2093-FC4F5A3AAA96_43596E78228D06DA; abtest_env=product',\n    'Referer': 'https://wx.zsxq.com/',\n}\n",
         secrets=('FEBCD3B1-5570-9915-2093-FC4F5A3AAA96_43596E78228D06DA',)),
    Case(id='h17-046', category='auth_header', container='env',
         text='LEETCODE_SESSION=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJfYXV0aF91c2VyX2lkIjoiODkwNjE1MCIsIl9hdXRoX3VzZXJfYmFja2VuZCI6ImRqYW5nby5jb250cmliLmF1dGguYmFja2VuZHMuTW9kZWxCYWNrZW5kIiwiaXAiOiIwLjAuMC4wIn0.I2aUcykUHxKQsDdhWIeMqjBOkMxc9m7CM6__DSYE2HY\nLEETCODE_CSRFTOKEN=As18nvb49OwOB2hIP2XCAUzinqcxKORhuUBtsO9hOvGv5JfFMFbEIlXuzr3G5Wrc\nEXPORT_DIR=./leetcode-solutions\n',
         secrets=('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJfYXV0aF91c2VyX2lkIjoiODkwNjE1MCIsIl9hdXRoX3VzZXJfYmFja2VuZCI6ImRqYW5nby5jb250cmliLmF1dGguYmFja2VuZHMuTW9kZWxCYWNrZW5kIiwiaXAiOiIwLjAuMC4wIn0.I2aUcykUHxKQsDdhWIeMqjBOkMxc9m7CM6__DSYE2HY', 'As18nvb49OwOB2hIP2XCAUzinqcxKORhuUBtsO9hOvGv5JfFMFbEIlXuzr3G5Wrc')),
    Case(id='h17-047', category='auth_header', container='yaml',
         text="services:\n  chat2api:\n    image: lanqian528/chat2api:latest\n    ports: ['5005:5005']\n    environment:\n      - SESSION_TOKEN=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..EJN-sjWkdcpMR29qMrO2Ey.rF1bO3S1knpUhxLk8g3LQifIjclFPEa3zVL6O-TdHo7Cnmmx9gKT1FteUUIrPsHYJUbxkD5Xk0eLP9393PrBtGUvq0wXkCGrfUAnwlOP1STaZ668fE_XMSMZTuWqiN4HNI96JbwT8hCe_Wr5FwG8opjko-3RCBO6Rdi2hE7zEzSGqKk-mf1QbLOn5srwmTQmgcRhgJSWT-HBpVL9A73q_6XQOJG-mxjRzsgehfhon2Ggg7SC9XcC2r3Tpe714LtIpvCOHOzgMOf2ELK8clNRDpslsr6rVZHAIcHI7Tgude3lnDJReRIhSZ_i9xcqVflmxjDvB8k1Pr5owfy46ZhbkRiSEDv0Xv-IS4qH72kSdzW2l95DEsdz3GQXwleoC-JSV87eVO9sXKNdCg0bwjzCWHLS7HMl9B9oBCrOdalUzouxlsTXNaC_j8RX2X4wbrNIhtlvZWtAnYVfYLbohhbHoQRtmxH1oLy8fOtxmEePgYdy8lLwrcBqonqXpGNCK1TZRJLXt8cmyZ5zqFCrJJpvednSHusM89M0vCWOj5orIhjPd0EJsn-7_XEpXLeQioUSC2tXwJEqEKBVHH4xaM_U4-Vv1evTVE4MOZ3jayuzJZl5Rm7PQqXxygsMIC6ntJTank72XQgbDyGTTYiRllBfwyUzhDfiZ3vJi1UH2jzZOhid_ioW5uU5XiVb7OFq0_5Ctx5Z9lgDskQzFHn6oBL2QeMWJLkZvPOLcbPeO-590zN3pcsfi3VZMeal2JX85e-7kBoV1K6QJ7tfPSeLkcfgAed_uEXCBUIgF_DwUhuHP742XuzjR3X8UVEahctPu7cezGSNLurDUjbTp7mHaoSrkfCKtj3DxR2tgHb4f57doAUL7Sf5q1Qfw1-a3r4Rq8dBNv1S.Oi03EFRKVEmaz4sKXqrF1N\n",
         secrets=('eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..EJN-sjWkdcpMR29qMrO2Ey.rF1bO3S1knpUhxLk8g3LQifIjclFPEa3zVL6O-TdHo7Cnmmx9gKT1FteUUIrPsHYJUbxkD5Xk0eLP9393PrBtGUvq0wXkCGrfUAnwlOP1STaZ668fE_XMSMZTuWqiN4HNI96JbwT8hCe_Wr5FwG8opjko-3RCBO6Rdi2hE7zEzSGqKk-mf1QbLOn5srwmTQmgcRhgJSWT-HBpVL9A73q_6XQOJG-mxjRzsgehfhon2Ggg7SC9XcC2r3Tpe714LtIpvCOHOzgMOf2ELK8clNRDpslsr6rVZHAIcHI7Tgude3lnDJReRIhSZ_i9xcqVflmxjDvB8k1Pr5owfy46ZhbkRiSEDv0Xv-IS4qH72kSdzW2l95DEsdz3GQXwleoC-JSV87eVO9sXKNdCg0bwjzCWHLS7HMl9B9oBCrOdalUzouxlsTXNaC_j8RX2X4wbrNIhtlvZWtAnYVfYLbohhbHoQRtmxH1oLy8fOtxmEePgYdy8lLwrcBqonqXpGNCK1TZRJLXt8cmyZ5zqFCrJJpvednSHusM89M0vCWOj5orIhjPd0EJsn-7_XEpXLeQioUSC2tXwJEqEKBVHH4xaM_U4-Vv1evTVE4MOZ3jayuzJZl5Rm7PQqXxygsMIC6ntJTank72XQgbDyGTTYiRllBfwyUzhDfiZ3vJi1UH2jzZOhid_ioW5uU5XiVb7OFq0_5Ctx5Z9lgDskQzFHn6oBL2QeMWJLkZvPOLcbPeO-590zN3pcsfi3VZMeal2JX85e-7kBoV1K6QJ7tfPSeLkcfgAed_uEXCBUIgF_DwUhuHP742XuzjR3X8UVEahctPu7cezGSNLurDUjbTp7mHaoSrkfCKtj3DxR2tgHb4f57doAUL7Sf5q1Qfw1-a3r4Rq8dBNv1S.Oi03EFRKVEmaz4sKXqrF1N',)),
    Case(id='h17-048', category='auth_header', container='note',
         text='claude.ai 的 cookie（给 obsidian 插件用）\nName: sessionKey\nValue: sk-ant-sid01-iQspsdzS5OPBOXn5ZHglkLLiAeAI5DlE8qJFPUAx-ECY2Ko-KdjQJYHGQgEG3kXVjSd77P5JO6ouvjLtpWgWKE-EJCwhBAA\nDomain: .claude.ai  Path: /  Expires: 2026-06-01\n',
         secrets=('sk-ant-sid01-iQspsdzS5OPBOXn5ZHglkLLiAeAI5DlE8qJFPUAx-ECY2Ko-KdjQJYHGQgEG3kXVjSd77P5JO6ouvjLtpWgWKE-EJCwhBAA',)),
    Case(id='h17-049', category='auth_header', container='note',
         text='kimi 网页版 refresh_token 白嫖：\ncurl http://127.0.0.1:8000/v1/chat/completions -H \'Authorization: Bearer eyJhbGciOiJIUzUxMiIsInR5cCI6IkpXVCJ9.eyJ1c2VyIjoicGRnZnNmN3FvMzlwNm5uZnk3NnIiLCJzcGFjZV9pZCI6InptNG04ZWYzdXRpYnN3aGo0czRjIiwiYWJzdHJhY3RfdXNlcl9pZCI6IiIsInNzaWQiOiJ6cjJlZXc5bXQ3eHhrM2lxNHBteCIsInR5cCI6InJlZnJlc2giLCJleHAiOjE3NzUwMDE2MDB9.v0aNM16BfWQt8grFLiyx6khmwOvYLVfwuxWSbRzty5g\' -H \'Content-Type: application/json\' -d \'{"model":"kimi","messages":[{"role":"user","content":"总结第三章"}]}\'\n',
         secrets=('eyJhbGciOiJIUzUxMiIsInR5cCI6IkpXVCJ9.eyJ1c2VyIjoicGRnZnNmN3FvMzlwNm5uZnk3NnIiLCJzcGFjZV9pZCI6InptNG04ZWYzdXRpYnN3aGo0czRjIiwiYWJzdHJhY3RfdXNlcl9pZCI6IiIsInNzaWQiOiJ6cjJlZXc5bXQ3eHhrM2lxNHBteCIsInR5cCI6InJlZnJlc2giLCJleHAiOjE3NzUwMDE2MDB9.v0aNM16BfWQt8grFLiyx6khmwOvYLVfwuxWSbRzty5g',)),
    Case(id='h17-050', category='auth_header', container='txt',
         text='-- bench.lua\nwrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.headers["Authorization"] = "Token PBq9OkKZcvLMOr0Auvnzg9rbk5RKzIL6VXfULM7P"\nwrk.body = \'{"q":"photosynthesis"}\'\n',
         secrets=('PBq9OkKZcvLMOr0Auvnzg9rbk5RKzIL6VXfULM7P',)),
    Case(id='h17-051', category='auth_header', container='note',
         text='fetch("https://api.ketang.example-edu.cn/v3/assignments?page=1", {\n  "headers": {\n    "accept": "application/json, text/plain, */*",\n    "authorization": "Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1aWQiOiIwNTM2ODIyNSIsImV4cCI6MTc2NzM5ODQwMH0.eCiszFgi5o6m0ORHtdozsv819JtXSdndSxECaxyO8e4",\n    "sec-ch-ua-platform": "\\"macOS\\""\n  },\n  "body": null,\n  "method": "GET"\n});\n',
         secrets=('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1aWQiOiIwNTM2ODIyNSIsImV4cCI6MTc2NzM5ODQwMH0.eCiszFgi5o6m0ORHtdozsv819JtXSdndSxECaxyO8e4',)),
    Case(id='h17-052', category='auth_header', container='txt',
         text="// ==UserScript==\n// @name  即刻收藏导出\n// @grant GM_xmlhttpRequest\n// ==/UserScript==\nGM_xmlhttpRequest({\n  method: 'POST',\n  url: 'https://api.ruguoapp.com/1.0/collections/list',\n  headers: {'x-jike-access-token': '4X6tuYdtnKPdlxgUy0XpQh1LcpWpnnlv.9673988079', 'Content-Type': 'application/json'},\n  data: JSON.stringify({limit: 20}),\n});\n",
         secrets=('4X6tuYdtnKPdlxgUy0XpQh1LcpWpnnlv.9673988079',)),
    Case(id='h17-053', category='connection_string', container='note',
         text='自建节点（别分享）：\nss://Y2hhY2hhMjAtaWV0Zi1wb2x5MTMwNTpCeDF5cnFoWFdtOW44ejg5@198.51.100.23:8388#HK-VPS\n导入 Shadowrocket 直接扫。',
         secrets=('Y2hhY2hhMjAtaWV0Zi1wb2x5MTMwNTpCeDF5cnFoWFdtOW44ejg5',)),
    Case(id='h17-054', category='connection_string', container='note',
         text='trojan://a681a31a-1fc2-4cb1-ba86-6dfb8e534230@tj.myvps-lab.net:443?security=tls&sni=tj.myvps-lab.net&type=tcp#JP-Trojan\n',
         secrets=('a681a31a-1fc2-4cb1-ba86-6dfb8e534230',)),
    Case(id='h17-055', category='connection_string', container='txt',
         text='vmess://eyJ2IjoiMiIsInBzIjoiVVMtdm1lc3MiLCJhZGQiOiJ2Lm15dnBzLWxhYi5uZXQiLCJwb3J0IjoiNDQzIiwiaWQiOiI3MGQ0ODc4YS1mNmE3LTRhNmUtOGVhNS0xMjJjNDA3NmQyNjUiLCJhaWQiOiIwIiwic2N5IjoiYXV0byIsIm5ldCI6IndzIiwidHlwZSI6Im5vbmUiLCJob3N0Ijoidi5teXZwcy1sYWIubmV0IiwicGF0aCI6Ii9yYXkiLCJ0bHMiOiJ0bHMifQ==\n',
         secrets=('eyJ2IjoiMiIsInBzIjoiVVMtdm1lc3MiLCJhZGQiOiJ2Lm15dnBzLWxhYi5uZXQiLCJwb3J0IjoiNDQzIiwiaWQiOiI3MGQ0ODc4YS1mNmE3LTRhNmUtOGVhNS0xMjJjNDA3NmQyNjUiLCJhaWQiOiIwIiwic2N5IjoiYXV0byIsIm5ldCI6IndzIiwidHlwZSI6Im5vbmUiLCJob3N0Ijoidi5teXZwcy1sYWIubmV0IiwicGF0aCI6Ii9yYXkiLCJ0bHMiOiJ0bHMifQ==',)),
    Case(id='h17-056', category='connection_string', container='yaml',
         text='proxies:\n  - name: hy2-sg\n    type: hysteria2\n    url: hysteria2://iCRyRWJnFaZK6utAaO5p@hy.myvps-lab.net:8443/?sni=hy.myvps-lab.net&obfs=salamander\n',
         secrets=('iCRyRWJnFaZK6utAaO5p',)),
    Case(id='h17-057', category='connection_string', container='py',
         text='from azure.iot.device import IoTHubDeviceClient\n\nCONN = "HostName=dorm-sensors.azure-devices.net;DeviceId=pi-room-304;SharedAccessKey=r5+JuvKGDaMdacCJHmXt/BDl7U8qv48YV1PHh5z1vjo="\nclient = IoTHubDeviceClient.create_from_connection_string(CONN)\n',
         secrets=('r5+JuvKGDaMdacCJHmXt/BDl7U8qv48YV1PHh5z1vjo=',)),
    Case(id='h17-058', category='connection_string', container='json',
         text='{\n  "Logging": {\n    "LogLevel": {\n      "Default": "Information"\n    }\n  },\n  "Azure": {\n    "SignalR": {\n      "ConnectionString": "Endpoint=https://study-room.service.signalr.net;AccessKey=1IyYSt7V+g57XV/wT+whkp4gJqZHT1UGIbtTd/r0u9Y=;Version=1.0;"\n    }\n  }\n}',
         secrets=('1IyYSt7V+g57XV/wT+whkp4gJqZHT1UGIbtTd/r0u9Y=',)),
    Case(id='h17-059', category='connection_string', container='py',
         text="import duckdb\ncon = duckdb.connect('md:course_db?motherduck_token=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzZXNzaW9uIjoibGluLmxhYiIsImVtYWlsIjoiIiwidXNlcklkIjoiYmYxNzZkMjEtY2RjOS00MzEzLWI1YTktYjhmNmI2NmQ4N2RmIiwiaWF0IjoxNzY3MjI1NjAwfQ.Ix4ynGnwfNF5FliM7GnUaZ8ElK6Jrji8lHP5kEnMPkg')\ncon.sql('select count(*) from lectures').show()\n",
         secrets=('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzZXNzaW9uIjoibGluLmxhYiIsImVtYWlsIjoiIiwidXNlcklkIjoiYmYxNzZkMjEtY2RjOS00MzEzLWI1YTktYjhmNmI2NmQ4N2RmIiwiaWF0IjoxNzY3MjI1NjAwfQ.Ix4ynGnwfNF5FliM7GnUaZ8ElK6Jrji8lHP5kEnMPkg',)),
    Case(id='h17-060', category='connection_string', container='txt',
         text='.LOGON tdlab.example-univ.edu/stu_2231,7JzdpwfxE4#62\n.SET WIDTH 200\nSELECT * FROM DBC.TablesV SAMPLE 5;\n.LOGOFF\n.QUIT\n',
         secrets=('7JzdpwfxE4#62',)),
    Case(id='h17-061', category='connection_string', container='txt',
         text='node.startup = automatic\nnode.session.auth.authmethod = CHAP\nnode.session.auth.username = nas-lun1\nnode.session.auth.password = TIHlq13Q1QoHeR\nnode.session.timeo.replacement_timeout = 120\n',
         secrets=('TIHlq13Q1QoHeR',)),
    Case(id='h17-062', category='connection_string', container='txt',
         text='P4PORT=ssl:p4.gamedev-course.edu:1666\nP4USER=s2231\nP4CLIENT=s2231_ws\nP4PASSWD=XsNeaQLNnWzR\n',
         secrets=('XsNeaQLNnWzR',)),
    Case(id='h17-063', category='connection_string', container='note',
         text='公司内部包源：\n```\npoetry source add --priority=supplemental corp https://pypi.corp-lab.cn/simple/\npoetry config http-basic.corp linwei s12qf7MB2evVcdSnM6\n```\n',
         secrets=('s12qf7MB2evVcdSnM6',)),
    Case(id='h17-064', category='connection_string', container='note',
         text='helm repo add lab-charts https://harbor.lab.cn/chartrepo/course --username robot$ci --password GEjg2N71tiJUuYJS\nhelm repo update\n',
         secrets=('GEjg2N71tiJUuYJS',)),
    Case(id='h17-065', category='private_key', container='txt',
         text='// xxd -i device_key.der  (ESP32 mTLS 作业)\nunsigned char device_key_der[] = {\n  0x30, 0x81, 0x87, 0x02, 0x01, 0x00, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86,\n  0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d,\n  0x03, 0x01, 0x07, 0x04, 0x6d, 0x30, 0x6b, 0x02, 0x01, 0x01, 0x04, 0x20,\n  0x0b, 0x88, 0xf6, 0xb6, 0x14, 0x5e, 0xbd, 0x8e, 0x05, 0x58, 0xdc, 0x58,\n  0xb6, 0xd7, 0x2f, 0xf2, 0x77, 0xd6, 0xb5, 0x41, 0x0d, 0xd6, 0x93, 0x48,\n  0xed, 0x1a, 0xda, 0x84, 0x95, 0x62, 0x5c, 0x62, 0xa1, 0x44, 0x03, 0x42,\n  0x00, 0x04, 0xfb, 0xa8, 0x43, 0xb3, 0x92, 0xf7, 0x27, 0x2c, 0xef, 0x3c,\n  0xa8, 0xeb, 0x7e, 0x57, 0x2d, 0x12, 0xb5, 0x35, 0x41, 0x80, 0x62, 0xf1,\n  0x19, 0x72, 0xbc, 0x3a, 0x26, 0x6c, 0xf7, 0xd5, 0x21, 0xb6, 0xf2, 0x51,\n  0xd0, 0xc7, 0x2f, 0x57, 0xfc, 0xc0, 0xac, 0xf6, 0x1f, 0x64, 0x68, 0x2f,\n  0xd8, 0xfc, 0x4e, 0x7d, 0xd5, 0x76, 0xce, 0x02, 0xf0, 0xb7, 0xa0, 0xc6,\n  0x4f, 0xca, 0x11, 0x13, 0xc9, 0x9d\n};\nunsigned int device_key_der_len = 138;\n',
         secrets=('0x30, 0x81, 0x87, 0x02, 0x01, 0x00, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86', '0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d', '0x03, 0x01, 0x07, 0x04, 0x6d, 0x30, 0x6b, 0x02, 0x01, 0x01, 0x04, 0x20', '0x0b, 0x88, 0xf6, 0xb6, 0x14, 0x5e, 0xbd, 0x8e, 0x05, 0x58, 0xdc, 0x58', '0xb6, 0xd7, 0x2f, 0xf2, 0x77, 0xd6, 0xb5, 0x41, 0x0d, 0xd6, 0x93, 0x48', '0xed, 0x1a, 0xda, 0x84, 0x95, 0x62, 0x5c, 0x62, 0xa1, 0x44, 0x03, 0x42', '0x00, 0x04, 0xfb, 0xa8, 0x43, 0xb3, 0x92, 0xf7, 0x27, 0x2c, 0xef, 0x3c', '0xa8, 0xeb, 0x7e, 0x57, 0x2d, 0x12, 0xb5, 0x35, 0x41, 0x80, 0x62, 0xf1', '0x19, 0x72, 0xbc, 0x3a, 0x26, 0x6c, 0xf7, 0xd5, 0x21, 0xb6, 0xf2, 0x51', '0xd0, 0xc7, 0x2f, 0x57, 0xfc, 0xc0, 0xac, 0xf6, 0x1f, 0x64, 0x68, 0x2f', '0xd8, 0xfc, 0x4e, 0x7d, 0xd5, 0x76, 0xce, 0x02, 0xf0, 0xb7, 0xa0, 0xc6', '0x4f, 0xca, 0x11, 0x13, 0xc9, 0x9d')),
    Case(id='h17-066', category='private_key', container='txt',
         text='client\ndev tun\nproto udp\nremote vpn.dorm-lab.cn 1194\n<ca>\n-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUU0FNUExFLUNBLU5PVC1BLUtFWTAKBggqhkjOPQQDAjAa\n-----END CERTIFICATE-----\n</ca>\n<key>\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAnUSSi2Ve5NPKCZtM173mvLPRMTUc6/sYEvjdzXzHsIr47D1R\nY1+IZMvUa7BXviu+ok1DMzXOJ+rq/GQPatiS9h89rgiJE4E3tXKREfmt/eJJb/p+\no/+TOD5PNKC/u6+QKzcYisKhO1pW7SUxCkzYYlcEv+EpvVIjMEEVn/D/0tKyWuN7\nZoB/hWffVZ6hn7xN8czG2SIrALAPc9cqOleGB0afOaZjRDqT1cBnWsdAAKko+Qtm\ne5Y9Lh67H1mbQEbUyCNHZGqCUqnZAtnUCRxzibPvF/RkWowK6E+Emc7lPtLXm1Nm\nKmStyZXmAu0c9PcaNGbgDdzd3i4V7XWHTwmggwIDAQABAoIBAAEfgDxmmOrhaEvx\nQ/c2b/NhBVlom7BDtsRL6qmQ/owQMf7d4Trob7zoh7fNJpNBFLdr/dLby4EVeGAd\nBs8ohMQlLPeVMAVnotI04zxRoCB0ATo/e7AIHzEDoOUrULMyacElP5OeGDCoUH6Z\nCWSdb94j6PDF1tp3P7EUhecCfZEv1SAMJL5QNi166DSFLue+HDh+7WN966sVcNC9\nGRUSXImO/sjEYa49AtsMYm594lIvrC0xSd5bvGSVBFAkOzI3XfHFGxRf50cZSOsH\nQvWpV56NLQSR2u16x4iEGdFyZDiaR5mz5Y3McYcfBUwnbWsYy9e0P2LgV+TLiLl7\nkx5TTkECgYEA0I2GGt6aP7ZZgC2RzKqCVQAGVtmqKRdVQRCwt/4C5tw4/VWHmtLY\nO3mrFzWFWKD2gQ6zHBFS5GydLiAFrMaCZhOrUph/ByZ3LbnADJ6+XpLgnf2ZCRIx\nl5jR8vf5O2AfnG6ivfPXF8VZF/9t7yAABPPNVLfR476w8fdT8Nv0KCsCgYEAwQwf\nrfTHWSPLzw846CTOx2HUuRFZ1Zn6ln6MSaoJWTHffwM1gy5FTWMQIJ+dW00aY5z2\nV7yH290t6nL+9eOUNTG0wal3tJt63XBjFa4IDEUo4r8TbSaZWXCC2y3BDxHYURCF\nTZOLxDQTAMo2HSKF4qdjV01wTKVFm79ERHPyJQkCgYAtTIAzd+RzME1ybPN9TA/x\nHIdD+BVgxYOsFU79N/wzXuQ2Cozg0SlMidniuapUHOpOD/5Re2XQ3dKqQSRaaefK\n+jy9PQhiajV6xhzz4Msiya5mQr4p3TzOW9BGgRwujGtxVAqfTcaLkD8Q2ldrmDzI\n1pfj7eV2HWZbuEgQSgZXbwKBgEqTCWXk6mGID4KEieI73dlt9IQtrLt0STZ72mvW\nkNfxCTqCndh4NnNnsmI35szPY0NZ7lwES6NmtQcdt1p7uNQ3yHELq1+MtJD4in5k\nhV1gFiRJ1hJTV+gSK6rJ6QuORDdEn4pRVivMRg8HDpKAtKHTMfAWzSv+qH47C/85\nnzApAoGBALK3A2hCiP4ZwNz/45j3vBSsqQ8M1OEgJsD7D+D81Mepd28wWHqK2Gh8\nQAbU5556aDWP8ySCjqIMXV6+LF8Ycv+LUA3Tvf5ymF1tNdnU4sAI/bchnZ2gX7/e\nCBNOGIJDCf5xHBdDF4pSxzAX3wM/expwNGLcmcMHp3tfHsjHEHSm\n-----END RSA PRIVATE KEY-----\n</key>\n',
         secrets=('MIIEowIBAAKCAQEAnUSSi2Ve5NPKCZtM173mvLPRMTUc6/sYEvjdzXzHsIr47D1R', 'Y1+IZMvUa7BXviu+ok1DMzXOJ+rq/GQPatiS9h89rgiJE4E3tXKREfmt/eJJb/p+', 'o/+TOD5PNKC/u6+QKzcYisKhO1pW7SUxCkzYYlcEv+EpvVIjMEEVn/D/0tKyWuN7', 'ZoB/hWffVZ6hn7xN8czG2SIrALAPc9cqOleGB0afOaZjRDqT1cBnWsdAAKko+Qtm', 'e5Y9Lh67H1mbQEbUyCNHZGqCUqnZAtnUCRxzibPvF/RkWowK6E+Emc7lPtLXm1Nm', 'KmStyZXmAu0c9PcaNGbgDdzd3i4V7XWHTwmggwIDAQABAoIBAAEfgDxmmOrhaEvx', 'Q/c2b/NhBVlom7BDtsRL6qmQ/owQMf7d4Trob7zoh7fNJpNBFLdr/dLby4EVeGAd', 'Bs8ohMQlLPeVMAVnotI04zxRoCB0ATo/e7AIHzEDoOUrULMyacElP5OeGDCoUH6Z', 'CWSdb94j6PDF1tp3P7EUhecCfZEv1SAMJL5QNi166DSFLue+HDh+7WN966sVcNC9', 'GRUSXImO/sjEYa49AtsMYm594lIvrC0xSd5bvGSVBFAkOzI3XfHFGxRf50cZSOsH', 'QvWpV56NLQSR2u16x4iEGdFyZDiaR5mz5Y3McYcfBUwnbWsYy9e0P2LgV+TLiLl7', 'kx5TTkECgYEA0I2GGt6aP7ZZgC2RzKqCVQAGVtmqKRdVQRCwt/4C5tw4/VWHmtLY', 'O3mrFzWFWKD2gQ6zHBFS5GydLiAFrMaCZhOrUph/ByZ3LbnADJ6+XpLgnf2ZCRIx', 'l5jR8vf5O2AfnG6ivfPXF8VZF/9t7yAABPPNVLfR476w8fdT8Nv0KCsCgYEAwQwf', 'rfTHWSPLzw846CTOx2HUuRFZ1Zn6ln6MSaoJWTHffwM1gy5FTWMQIJ+dW00aY5z2', 'V7yH290t6nL+9eOUNTG0wal3tJt63XBjFa4IDEUo4r8TbSaZWXCC2y3BDxHYURCF', 'TZOLxDQTAMo2HSKF4qdjV01wTKVFm79ERHPyJQkCgYAtTIAzd+RzME1ybPN9TA/x', 'HIdD+BVgxYOsFU79N/wzXuQ2Cozg0SlMidniuapUHOpOD/5Re2XQ3dKqQSRaaefK', '+jy9PQhiajV6xhzz4Msiya5mQr4p3TzOW9BGgRwujGtxVAqfTcaLkD8Q2ldrmDzI', '1pfj7eV2HWZbuEgQSgZXbwKBgEqTCWXk6mGID4KEieI73dlt9IQtrLt0STZ72mvW', 'kNfxCTqCndh4NnNnsmI35szPY0NZ7lwES6NmtQcdt1p7uNQ3yHELq1+MtJD4in5k', 'hV1gFiRJ1hJTV+gSK6rJ6QuORDdEn4pRVivMRg8HDpKAtKHTMfAWzSv+qH47C/85', 'nzApAoGBALK3A2hCiP4ZwNz/45j3vBSsqQ8M1OEgJsD7D+D81Mepd28wWHqK2Gh8', 'QAbU5556aDWP8ySCjqIMXV6+LF8Ycv+LUA3Tvf5ymF1tNdnU4sAI/bchnZ2gX7/e', 'CBNOGIJDCf5xHBdDF4pSxzAX3wM/expwNGLcmcMHp3tfHsjHEHSm')),
    Case(id='h17-067', category='private_key', container='txt',
         text='$ openssl rsa -in lab.key -text -noout\nPrivate-Key: (1024 bit, 2 primes)\nmodulus:\n    00:d6:57:37:83:b2:42:31:ed:34:f0:24:00:30:7a:\n    a1:5a:1e:c9:1b:7b:45:9f:3a:83:f0:a2:32:0d:fb:\n    a9:07:81:b8:e1:58:59:c3:30:ec:3e:7a:5e:1d:2a:\n    c3:f9:e5:42:df:25:72:fd:d9:9a:55:46:59:71:3b:\n    55:1f:6b:8d:64:0d:d2:45:68:5e:45:48:0f:07:2c:\n    50:26:76:1e:9a:3c:85:f6:89:02:33:11:b3:cc:01:\n    f4:63:05:df:40:5e:5f:37:88:78:c3:47:71:61:b9:\n    16:9c:1b:f5:19:cb:31:7a:82:5e:b4:43:89:25:3f:\n    28:b4:bb:51:9d:4f:4f:7f:d7\npublicExponent: 65537 (0x10001)\nprivateExponent:\n    4f:f4:62:ea:06:91:f8:cb:d2:86:8d:f7:60:1e:2e:\n    98:4e:89:98:6d:c8:8f:d8:25:25:9b:6b:6e:99:e4:\n    f8:be:e4:37:73:5c:b0:9a:4c:56:16:11:8b:71:cb:\n    7f:29:8d:63:6e:35:d2:09:dd:2f:58:39:bf:2a:71:\n    db:71:a4:60:f2:25:1b:fb:5c:26:5d:c7:53:be:ec:\n    6e:c2:70:f6:2a:3e:78:84:6b:70:a2:1c:68:e0:e9:\n    36:bd:7e:f3:5a:7f:cc:18:c5:db:c5:2e:82:ac:b0:\n    e7:6e:ec:55:25:ce:c6:da:9a:e9:0f:8e:9e:3c:bd:\n    11:dc:17:5a:82:34:c5:81\nprime1:\n    00:d9:87:c1:a3:b4:1a:ba:13:a4:af:4e:eb:ce:6f:\n    9f:8b:55:09:fc:fd:17:1d:d8:1c:7b:96:49:b6:b7:\n    0b:8a:a1:46:ec:c6:f6:40:bb:13:9a:6d:17:c6:2d:\n    41:c1:17:48:6d:a2:72:85:b3:54:73:0b:41:6b:50:\n    d3:e2:61:8f:c1\nprime2:\n    00:fc:3f:0e:b3:6f:ff:ca:0a:3d:0c:b1:d6:26:4c:\n    87:73:1e:7c:68:4a:8b:c8:a9:86:d1:7a:c8:c9:0f:\n    81:5e:ba:f8:5c:97:cb:4c:48:60:1e:4f:80:60:ec:\n    c6:cf:e9:89:99:51:b6:20:fb:e7:31:41:df:fe:f3:\n    4d:b5:30:f5:97\nexponent1:\n    41:3c:4b:40:12:d5:29:14:97:00:d4:04:37:a6:96:\n    0c:2c:f6:8f:de:3e:be:7e:7f:1c:39:17:e6:29:c2:\n    d6:52:43:78:e2:ba:1a:f3:7f:8f:82:43:ec:f4:c9:\n    91:64:b0:1d:e0:e7:c3:5c:e2:68:95:e9:8a:8b:74:\n    df:a1:2e:81\nexponent2:\n    00:bb:56:95:b3:7c:8d:cb:5e:d9:42:71:5d:6b:aa:\n    50:ba:95:bc:ad:b4:17:a6:db:09:0e:d1:13:08:08:\n    64:fb:96:fe:d7:bd:c0:b6:11:d6:99:0c:50:7b:2b:\n    be:e8:31:39:09:4e:5f:66:95:cf:79:8c:c4:30:54:\n    40:b5:3d:fc:57\ncoefficient:\n    66:42:df:a3:27:9c:54:a4:e1:05:6d:09:c0:34:8b:\n    df:18:31:b9:3a:88:08:3f:6a:8a:29:aa:27:be:b6:\n    64:2a:86:2f:aa:94:9a:c8:62:0f:f4:91:6f:a6:63:\n    7a:01:b5:09:39:d4:db:cf:ab:6c:70:7d:97:b0:e3:\n    cd:43:a7:cc\n',
         secrets=('4f:f4:62:ea:06:91:f8:cb:d2:86:8d:f7:60:1e:2e:', '98:4e:89:98:6d:c8:8f:d8:25:25:9b:6b:6e:99:e4:', 'f8:be:e4:37:73:5c:b0:9a:4c:56:16:11:8b:71:cb:', '7f:29:8d:63:6e:35:d2:09:dd:2f:58:39:bf:2a:71:', 'db:71:a4:60:f2:25:1b:fb:5c:26:5d:c7:53:be:ec:', '6e:c2:70:f6:2a:3e:78:84:6b:70:a2:1c:68:e0:e9:', '36:bd:7e:f3:5a:7f:cc:18:c5:db:c5:2e:82:ac:b0:', 'e7:6e:ec:55:25:ce:c6:da:9a:e9:0f:8e:9e:3c:bd:', '11:dc:17:5a:82:34:c5:81', '00:d9:87:c1:a3:b4:1a:ba:13:a4:af:4e:eb:ce:6f:', '9f:8b:55:09:fc:fd:17:1d:d8:1c:7b:96:49:b6:b7:', '0b:8a:a1:46:ec:c6:f6:40:bb:13:9a:6d:17:c6:2d:', '41:c1:17:48:6d:a2:72:85:b3:54:73:0b:41:6b:50:', 'd3:e2:61:8f:c1', '00:fc:3f:0e:b3:6f:ff:ca:0a:3d:0c:b1:d6:26:4c:', '87:73:1e:7c:68:4a:8b:c8:a9:86:d1:7a:c8:c9:0f:', '81:5e:ba:f8:5c:97:cb:4c:48:60:1e:4f:80:60:ec:', 'c6:cf:e9:89:99:51:b6:20:fb:e7:31:41:df:fe:f3:', '4d:b5:30:f5:97', '41:3c:4b:40:12:d5:29:14:97:00:d4:04:37:a6:96:', '0c:2c:f6:8f:de:3e:be:7e:7f:1c:39:17:e6:29:c2:', 'd6:52:43:78:e2:ba:1a:f3:7f:8f:82:43:ec:f4:c9:', '91:64:b0:1d:e0:e7:c3:5c:e2:68:95:e9:8a:8b:74:', 'df:a1:2e:81', '00:bb:56:95:b3:7c:8d:cb:5e:d9:42:71:5d:6b:aa:', '50:ba:95:bc:ad:b4:17:a6:db:09:0e:d1:13:08:08:', '64:fb:96:fe:d7:bd:c0:b6:11:d6:99:0c:50:7b:2b:', 'be:e8:31:39:09:4e:5f:66:95:cf:79:8c:c4:30:54:', '40:b5:3d:fc:57', '66:42:df:a3:27:9c:54:a4:e1:05:6d:09:c0:34:8b:', 'df:18:31:b9:3a:88:08:3f:6a:8a:29:aa:27:be:b6:', '64:2a:86:2f:aa:94:9a:c8:62:0f:f4:91:6f:a6:63:', '7a:01:b5:09:39:d4:db:cf:ab:6c:70:7d:97:b0:e3:', 'cd:43:a7:cc')),
    Case(id='h17-068', category='private_key', container='json',
         text='{\n  "account_id": "linwei-study.testnet",\n  "public_key": "ed25519:GKFngrw9ZSDJ4ZVdD8MHYe7tdwTYmDLc9yfDNXWi15AC",\n  "private_key": "ed25519:2BrQbYZtqjGwZc2Yr6Nz3eyZtBi5hg31yYxNtiqGVtEzo2rtZ41qXBMprUgHb5sLkWPMLkknaqfbeU5VpPT2fCx"\n}',
         secrets=('2BrQbYZtqjGwZc2Yr6Nz3eyZtBi5hg31yYxNtiqGVtEzo2rtZ41qXBMprUgHb5sLkWPMLkknaqfbeU5VpPT2fCx',)),
    Case(id='h17-069', category='private_key', container='json',
         text='{\n    "type": "PaymentSigningKeyShelley_ed25519",\n    "description": "Payment Signing Key",\n    "cborHex": "5820d6369b7d4dd6ff8e4279b8a85527adb875b1f3c89c2fc1221a2cd5aec4b66f2e"\n}',
         secrets=('5820d6369b7d4dd6ff8e4279b8a85527adb875b1f3c89c2fc1221a2cd5aec4b66f2e',)),
    Case(id='h17-070', category='private_key', container='txt',
         text='untrusted comment: signify secret key\nRWRCSwAAAAA6goLkOFbEbdYU5QxGCVqqSet8ITJz0KpjXvOo0dUkFrbhIaUQkNAOV4XbNoJ7ry0er/JH/Yq9gK7rhjDf/cxOukSsVfn2vRJO8MZPf/IHIFd8WZVcwZOKXp0Gw9Mf1nQ=\n',
         secrets=('RWRCSwAAAAA6goLkOFbEbdYU5QxGCVqqSet8ITJz0KpjXvOo0dUkFrbhIaUQkNAOV4XbNoJ7ry0er/JH/Yq9gK7rhjDf/cxOukSsVfn2vRJO8MZPf/IHIFd8WZVcwZOKXp0Gw9Mf1nQ=',)),
    Case(id='h17-071', category='private_key', container='txt',
         text='# SSL/TLS secrets log file, generated by NSS\nCLIENT_RANDOM 17d2e0fb12c8d62ece0948657455698671480615cd7e52f415d74d9c5ba916a8 bd471553f5ab98abb3a8759638b286c3923630a856afe1a1b93e66660214f987d2ce1a1f445240c653f085d462b8b74c\nCLIENT_RANDOM 8895b7770213cadd040ffd27f24085d25c1558c809084a1cf4a02a4854005ed3 7317d88b347af974b98a3ce638ac7e25598d2c82dd4a8ed0c91bf5d5042c9795c9ee894b73a31b8ccf7655b133a91507\nCLIENT_RANDOM 3e898cd9dbe12cd6d92e300dd5fde4ead33db6e70d289c2200c6e7f2332d7447 2e85221900c0e3b579a2f5c5026a5e165edc814359c0ce8e38ec0656acff285ef16cd6356a515ca9467bf001f730fe10\n',
         secrets=('bd471553f5ab98abb3a8759638b286c3923630a856afe1a1b93e66660214f987d2ce1a1f445240c653f085d462b8b74c', '7317d88b347af974b98a3ce638ac7e25598d2c82dd4a8ed0c91bf5d5042c9795c9ee894b73a31b8ccf7655b133a91507', '2e85221900c0e3b579a2f5c5026a5e165edc814359c0ce8e38ec0656acff285ef16cd6356a515ca9467bf001f730fe10')),
    Case(id='h17-072', category='private_key', container='txt',
         text='{\n  Peers: [\n    tls://ygg.example-peer.net:443\n  ]\n  PrivateKey: a32ab666be2f8206cc326338749edea9304d6104800b4aadebedf3345552802c600adcb763721b22fa50e304f1391e351545022fff0858b9096282b2ec888545\n  IfName: auto\n  NodeInfoPrivacy: true\n}\n',
         secrets=('a32ab666be2f8206cc326338749edea9304d6104800b4aadebedf3345552802c600adcb763721b22fa50e304f1391e351545022fff0858b9096282b2ec888545',)),
    Case(id='h17-073', category='private_key', container='txt',
         text='; Klin-lab.cn.+013+41877.private\nPrivate-key-format: v1.3\nAlgorithm: 13 (ECDSAP256SHA256)\nPrivateKey: Da4mdwUdTFWRQBAc7MeXevsCx5Gwx9JMeVUJ8k50IGU=\nCreated: 20260105081500\nPublish: 20260105081500\nActivate: 20260105081500\n',
         secrets=('Da4mdwUdTFWRQBAc7MeXevsCx5Gwx9JMeVUJ8k50IGU=',)),
    Case(id='h17-074', category='private_key', container='json',
         text='{"n": "wmnOVytA8CyMdJLQ3OK-mBkaY7gz-6cHgnaNMKqvqRSQd2ACx_bLP42RyC-6TEk28jPLU-UEuvgBWPgXEq5I4Aj4IpxCqzgCHkgYwz1EE0lci6WfEyhQucYUEHkDYUTOZCFDZxq5B33PCAi6t7fenIXeKI-mgUVwkDcz40t76zEFxNBPQ2M1xvqfjz6BG1DsJAanVdw2krNhu9IIOZO-HH38S5zZtML5rR_YA-re_j3uKr3H9PsQLTep_pA8vLWLIbGgflGR18hVBe8JQ5r_D-xJ_STXOPzk__vaYZOrYD8RiadUNz1douwlRQOl6H_uFrMKLykGlVmRVDv14f86uw", "e": "AQAB", "d": "Y9nr_KFejPyUdxsg4xIiSgQ6pZTqPgoftUYmZiSEbBb_zBAn3YRIB7Aye9rnmF7SNbucZs5ti4ntR0DEuPeCvm5c44nWRBJUJDFrZnuFB1LakW7TMQe3znKJw5wjvEWWq57Z-46iEdLwDnRNUibB0yp-W97L6gE8OxXfNJKEZtqzuHerVaVaKfYOFW8KOBkoYiLOfExssXJLoo5n_cs3YIU3vXTqvOES7gCm6E5pwTcWlJatAVCFg9cQDVeR7uoS6DdiZ_pCVNvWdO2s1DdINKHxZKoIXxpk5jBRxTEZhTTjplj9jM_4kELOn3chiFU8HTLG_TwnzslglCebVVYlIQ", "p": "w8W5cOOOhbmNN9ExxzHVKu3GQ-HQkMz1wK_Fw-91V1L4GXzBpBTUttntiXvgwwlrr2Mq8GVOZ6FzfCHkHnOi1W8a6Sf9oBGeqkk5t3_E7F_dAjMhjPiMyY7PenYD_WNrWSUq_E6g0Ctz5RNZrk606Y9kGE55tPUue4LLYdA1NZ8", "q": "_jkMMSwzHl4LLDXvCYCQKgVHSh5ixKq0EYKd6EMJVzaUsw5H58LynOF3sS6mZqzd_Vg4UypT3ajn9MHQDVJSP0c-MvI0WVY5ZnbzLyFpvM61ZhmSBYUjzyO9jFMYb4tdle4rkvlkkN9GH7875K6zxaDHqEl-osybCuKQ3CG4DWU", "dp": "IS3KbuJyDiHTWClhGVRNv1fK6UhFE7VY1Q41Iy7bITCTkaY-HzPUlSS8CDfxcLyQ_ol9Bn702cVYECqiQbLxXuDUm71GU7GIxW1hlcLWugTJLQ1DW2PoYGSOrz9_D5ug3tvYvCgLQxyKKMGtykfWi1rc6O2r3MpM1WvmUi56Rhs", "dq": "r0qcuoc0lDraT1i9AvtP7HmJR3UeO2dNFEnRIeafWTB8Zd5x_D9y1HOu-VAmUuPdiaO76rRj8ZJWpnDBSX460gEIxU42hGcs2xcn5ZaPdy287LKy-fVs1JZbS5e8YKVjGU-JYiVuj2o0yw0seilwMdQD92j91blpKp9ArVjetPU", "qi": "tsJRxvN9oOqu1OAM1D1vjRws1pLBAbBQ7xgJ_J4fjpB6HPSdQdSkWRCYMmqraVdd9SrY5vdCoZ3TO5HDRqTCoq5V5af0rSzFqxY8pgF8qpiq-w_B_JlhaNyPBn6J2Lhc5jiHymAdb86sK2CEca3iQsHjwoTCUiJ_SZVEhqPgnw0", "kty": "RSA"}',
         secrets=('Y9nr_KFejPyUdxsg4xIiSgQ6pZTqPgoftUYmZiSEbBb_zBAn3YRIB7Aye9rnmF7SNbucZs5ti4ntR0DEuPeCvm5c44nWRBJUJDFrZnuFB1LakW7TMQe3znKJw5wjvEWWq57Z-46iEdLwDnRNUibB0yp-W97L6gE8OxXfNJKEZtqzuHerVaVaKfYOFW8KOBkoYiLOfExssXJLoo5n_cs3YIU3vXTqvOES7gCm6E5pwTcWlJatAVCFg9cQDVeR7uoS6DdiZ_pCVNvWdO2s1DdINKHxZKoIXxpk5jBRxTEZhTTjplj9jM_4kELOn3chiFU8HTLG_TwnzslglCebVVYlIQ', 'w8W5cOOOhbmNN9ExxzHVKu3GQ-HQkMz1wK_Fw-91V1L4GXzBpBTUttntiXvgwwlrr2Mq8GVOZ6FzfCHkHnOi1W8a6Sf9oBGeqkk5t3_E7F_dAjMhjPiMyY7PenYD_WNrWSUq_E6g0Ctz5RNZrk606Y9kGE55tPUue4LLYdA1NZ8', '_jkMMSwzHl4LLDXvCYCQKgVHSh5ixKq0EYKd6EMJVzaUsw5H58LynOF3sS6mZqzd_Vg4UypT3ajn9MHQDVJSP0c-MvI0WVY5ZnbzLyFpvM61ZhmSBYUjzyO9jFMYb4tdle4rkvlkkN9GH7875K6zxaDHqEl-osybCuKQ3CG4DWU', 'IS3KbuJyDiHTWClhGVRNv1fK6UhFE7VY1Q41Iy7bITCTkaY-HzPUlSS8CDfxcLyQ_ol9Bn702cVYECqiQbLxXuDUm71GU7GIxW1hlcLWugTJLQ1DW2PoYGSOrz9_D5ug3tvYvCgLQxyKKMGtykfWi1rc6O2r3MpM1WvmUi56Rhs', 'r0qcuoc0lDraT1i9AvtP7HmJR3UeO2dNFEnRIeafWTB8Zd5x_D9y1HOu-VAmUuPdiaO76rRj8ZJWpnDBSX460gEIxU42hGcs2xcn5ZaPdy287LKy-fVs1JZbS5e8YKVjGU-JYiVuj2o0yw0seilwMdQD92j91blpKp9ArVjetPU', 'tsJRxvN9oOqu1OAM1D1vjRws1pLBAbBQ7xgJ_J4fjpB6HPSdQdSkWRCYMmqraVdd9SrY5vdCoZ3TO5HDRqTCoq5V5af0rSzFqxY8pgF8qpiq-w_B_JlhaNyPBn6J2Lhc5jiHymAdb86sK2CEca3iQsHjwoTCUiJ_SZVEhqPgnw0')),
    Case(id='h17-075', category='password', container='note',
         text='Общежитие, стая 412\nWi-Fi: Studentski-4\nпарола: n7PxBwb#06\nпералня — в мазето',
         secrets=('n7PxBwb#06',)),
    Case(id='h17-076', category='password', container='note',
         text='Университет порталы\nлогин: s2231045\nқұпия сөз: bgqJdeE&00\n(алғашқы кіруден кейін ауыстыру керек)',
         secrets=('bgqJdeE&00',)),
    Case(id='h17-077', category='password', container='note',
         text='ఆఫీస్ ల్యాప్\u200cటాప్\nయూజర్: intern07\nపాస్\u200cవర్డ్: VlmUMJv*78',
         secrets=('VlmUMJv*78',)),
    Case(id='h17-078', category='password', container='note',
         text='ເຮືອນພັກ Vientiane\nWi-Fi: Khamphouvong_5G\nລະຫັດຜ່ານ: ylAd8pf@58',
         secrets=('ylAd8pf@58',)),
    Case(id='h17-079', category='password', container='md',
         text='## Koshuis\n- [x] sleutel gekry\n- [ ] Wi-Fi wagwoord: rTDmHGQ%62\n- [ ] wasgoed-kaart laai',
         secrets=('rTDmHGQ%62',)),
    Case(id='h17-080', category='password', container='note',
         text='Campus virtual USC\nusuario: lin.wei@rai.usc.gal\ncontrasinal: 5VhLTqJ%95',
         secrets=('5VhLTqJ%95',)),
    Case(id='h17-081', category='password', container='note',
         text='Дом ученика — интернет\nкорисничко име: soba217\nлозинка: u51ES6f%81',
         secrets=('u51ES6f%81',)),
    Case(id='h17-082', category='password', container='note',
         text='[10:02] Ahmed: وائی فائی کا نام PTCL-BB\n[10:02] Ahmed: پاس ورڈ 4HvSPAU%64\n[10:03] me: shukriya!',
         secrets=('4HvSPAU%64',)),
    Case(id='h17-083', category='password', container='note',
         text='Biblioteka — llogaria\npërdoruesi: lwei\nfjalëkalimi: E1qbAbo@30',
         secrets=('E1qbAbo@30',)),
    Case(id='h17-084', category='password', container='txt',
         text="$ printf 'protocol=https\\nhost=git.lab.cn\\n\\n' | git credential fill\nprotocol=https\nhost=git.lab.cn\nusername=linwei\npassword=NosUVj2CIUw#28\n",
         secrets=('NosUVj2CIUw#28',)),
    Case(id='h17-085', category='password', container='txt',
         text='<dict>\n  <key>PayloadType</key>\n  <string>com.apple.wifi.managed</string>\n  <key>SSID_STR</key>\n  <string>LabGuest</string>\n  <key>EncryptionType</key>\n  <string>WPA2</string>\n  <key>Password</key>\n  <string>xG3NxfJk3?28</string>\n  <key>PayloadUUID</key>\n  <string>6D367604-D12B-4165-834B-704A759C8A51</string>\n</dict>\n',
         secrets=('xG3NxfJk3?28',)),
    Case(id='h17-086', category='password', container='txt',
         text='<WifiConfiguration>\n<string name="ConfigKey">&quot;Home-5G&quot;WPA_PSK</string>\n<string name="SSID">&quot;Home-5G&quot;</string>\n<string name="PreSharedKey">&quot;4812I8X0r#93&quot;</string>\n<boolean name="HiddenSSID" value="false" />\n</WifiConfiguration>\n',
         secrets=('4812I8X0r#93',)),
    Case(id='h17-087', category='password', container='txt',
         text='[connection]\nid=Library-Staff\nuuid=76da578d-727a-40d0-a803-e0b6f48f4526\ntype=wifi\n\n[wifi]\nssid=Library-Staff\n\n[wifi-security]\nkey-mgmt=wpa-psk\npsk=PSLQXhC4z?20\n\n[ipv4]\nmethod=auto\n',
         secrets=('PSLQXhC4z?20',)),
    Case(id='h17-088', category='password', container='note',
         text='妈，电脑卡了我远程帮你看看\n识别码：348 371 912\n验证码：2femjp\n（这个验证码别给别人）',
         secrets=('2femjp',)),
    Case(id='h17-089', category='password', container='note',
         text='证件扫描件备份（身份证正反面、户口本、毕业证）\n链接: https://pan.baidu.com/s/1Mkb_QX4LRvfCPHbPpZDyuH 提取码: h9sy\n--来自百度网盘超级会员v3的分享',
         secrets=('h9sy',)),
    Case(id='h17-090', category='password', container='note',
         text="az vm create -g rg-course -n win-lab --image Win2022Datacenter \\\n  --admin-username azureuser --admin-password 'lzHf4xezWld&91' --size Standard_B2s\n",
         secrets=('lzHf4xezWld&91',)),
    Case(id='h17-091', category='password', container='note',
         text="gcloud sql users set-password postgres --instance=thesis-db --password='OrwoTxGELjm?96'\ngcloud sql connect thesis-db --user=postgres\n",
         secrets=('OrwoTxGELjm?96',)),
    Case(id='h17-092', category='password', container='note',
         text='pulumi stack select dev\npulumi config set dbPassword 9qvoJVVPZ8g@85   # TODO 以后改成 --secret\npulumi up\n',
         secrets=('9qvoJVVPZ8g@85',)),
    Case(id='h17-093', category='password', container='txt',
         text='[passwords]\nteacher = "TMGu5NVPF@82"\n\n[connections.db]\nurl = "sqlite:///grades.db"\n',
         secrets=('TMGu5NVPF@82',)),
    Case(id='h17-094', category='password', container='py',
         text="import gradio as gr\n\ndemo = gr.ChatInterface(answer)\ndemo.launch(server_name='0.0.0.0', auth=('ta', 'k8XHtf4&58'), share=True)\n",
         secrets=('k8XHtf4&58',)),
    Case(id='h17-095', category='password', container='txt',
         text="<?php\n$_config = array();\n// ----------------------------  CONFIG DB  ----------------------------- //\n$_config['db']['1']['dbhost'] = '127.0.0.1';\n$_config['db']['1']['dbuser'] = 'bbs';\n$_config['db']['1']['dbpw'] = 'ksWfA3yF3?41';\n$_config['db']['1']['dbname'] = 'ultrax';\n",
         secrets=('ksWfA3yF3?41',)),
    Case(id='h17-096', category='password', container='note',
         text='[root@VM-0-8 ~]# bt default\n==================================================================\nBT-Panel default info!\n==================================================================\n外网面板地址: https://203.0.113.61:28571/a6cb50bp\nusername: cee4vwy3\npassword: 7s0yk4tf\n',
         secrets=('7s0yk4tf',)),
    Case(id='h17-097', category='password', container='txt',
         text='reg add "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon" /v AutoAdminLogon /t REG_SZ /d 1 /f\nreg add "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon" /v DefaultUserName /t REG_SZ /d kiosk /f\nreg add "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon" /v DefaultPassword /t REG_SZ /d HWYj2SzEb?17 /f\n',
         secrets=('HWYj2SzEb?17',)),
    Case(id='h17-098', category='password', container='txt',
         text='d-i passwd/user-fullname string Lab Student\nd-i passwd/username string student\nd-i passwd/user-password password tNplTsZ4n%33\nd-i passwd/user-password-again password tNplTsZ4n%33\n',
         secrets=('tNplTsZ4n%33',)),
    Case(id='h17-099', category='password', container='txt',
         text='#version=RHEL9\nlang en_US.UTF-8\nkeyboard us\nrootpw --plaintext LMN12up1b@31\ntimezone Asia/Shanghai --utc\n',
         secrets=('LMN12up1b@31',)),
    Case(id='h17-100', category='resident_id', container='note',
         text='Kopmītnes līgums — dati\nVārds: Lin Wei (apmaiņas students)\nPersonas kods: 281100-282042\nistaba 508',
         secrets=('281100-282042',)),
    Case(id='h17-101', category='resident_id', container='note',
         text="Carte CNS reçue 🎉\nNuméro d'identification (matricule) : 1997 0916 64901\nà donner au médecin",
         secrets=('1997 0916 64901',)),
    Case(id='h17-102', category='resident_id', container='note',
         text='Contrato beca colaboración — documentos\n- NIE: pendiente\n- Nº afiliación Seguridad Social: 28/35487681/74\n- cuenta para nómina: la de siempre',
         secrets=('28/35487681/74',)),
    Case(id='h17-103', category='resident_id', container='note',
         text='Personalfragebogen Werkstudent\nSozialversicherungsnummer: 65 060101 W 501\nKrankenkasse: TK\nSteuerklasse: 1',
         secrets=('65 060101 W 501',)),
    Case(id='h17-104', category='resident_id', container='note',
         text='Emergency info — Grandpa Joe\nMedicare Number (MBI): 5VY0-GC4-TY27\nPart A 01-01-2019  Part B 01-01-2019\nDoctor: Dr. Patel',
         secrets=('5VY0-GC4-TY27',)),
    Case(id='h17-105', category='resident_id', container='note',
         text='Tutor payment — for Form 16A\nName: Ravi W.\nPAN: IWFPW5598B\nUPI: later',
         secrets=('IWFPW5598B',)),
    Case(id='h17-106', category='resident_id', container='note',
         text='Найзын мэдээлэл (визний урилгад)\nОвог нэр: Батын Сараа\nРегистрийн дугаар: УБ95120775',
         secrets=('УБ95120775',)),
    Case(id='h17-107', category='resident_id', container='note',
         text='Cartão do SUS — tirei na UBS\nCNS: 741 2243 3656 9010\nlevar nas consultas',
         secrets=('741 2243 3656 9010',)),
    Case(id='h17-108', category='resident_id', container='note',
         text='助学金申请材料清单\n- 残疾人证（第二代）证号：33010619990307093342\n- 家庭经济困难认定表\n- 成绩单',
         secrets=('33010619990307093342',)),
    Case(id='h17-109', category='resident_id', container='note',
         text='[微信] 阿杰: 帮我报一下名，身份证 44030520011119145×\n[微信] 我: 好，最后那个是 X 吧\n[微信] 阿杰: 对 输入法打成乘号了',
         secrets=('44030520011119145×',)),
    Case(id='h17-110', category='resident_id', container='txt',
         text='—— 扫描件 OCR 结果 ——\n中华人民共和国居民户口簿\n常住人口登记卡\n*510104199709223415*\n户号 330804018',
         secrets=('510104199709223415',)),
    Case(id='h17-111', category='mobile', container='note',
         text='Braai at ours Saturday!\nBring your own drinks 🍖\nAny issues, my cell no. 085 942 9545 (Thabo)',
         secrets=('085 942 9545',)),
    Case(id='h17-112', category='mobile', container='note',
         text="Flat stuff\n- power bill split 4 ways\n- Mereana's mob: 021 288 4429\n- bins go out Tuesday night",
         secrets=('021 288 4429',)),
    Case(id='h17-113', category='mobile', container='note',
         text='Korridormiddag fredag — 60 kr/person\nSwisha till Elin: 073-193 25 56\nmärk med ditt rumsnummer',
         secrets=('073-193 25 56',)),
    Case(id='h17-114', category='mobile', container='note',
         text='За общежитие скинуть на Kaspi по номеру +7 759 179 58 68 (Айгерим)\nсумма 45 000 ₸',
         secrets=('+7 759 179 58 68',)),
    Case(id='h17-115', category='mobile', container='note',
         text='ගෙදර අයිතිකාරිය — Mrs. Perera\nජංගම: +94 77 736 0095\nbus 654 from Peradeniya',
         secrets=('+94 77 736 0095',)),
    Case(id='h17-116', category='mobile', container='note',
         text="Famille d'accueil — Oran\nportable / الهاتف النقال : +213 574 90 59 79\nquartier près de la fac",
         secrets=('+213 574 90 59 79',)),
    Case(id='h17-117', category='mobile', container='txt',
         text='Группа по английскому — написать старосте:\nviber://chat?number=%2B375298562527\n',
         secrets=('%2B375298562527',)),
    Case(id='h17-118', category='mobile', container='note',
         text='出闲置考研资料 全套九成新 🙋\u200d♀️\n同城面交 联系方式：137🍎6396🍎0856\n（平台限制 把🍎去掉）',
         secrets=('137🍎6396🍎0856',)),
    Case(id='h17-119', category='mobile', container='note',
         text='班费多收了 20，退给你：\n支付宝账号：13748579003\n实名：*伟（你核对一下）',
         secrets=('13748579003',)),
    Case(id='h17-120', category='mobile', container='note',
         text='WG-Ämtliplan\nKüche: Jonas (Natel 079 874 91 47)\nBad: Lin\nAbfall: Sara',
         secrets=('079 874 91 47',)),
    Case(id='h17-121', category='bank_card', container='note',
         text='Aluguel — se o Pix falhar, TED:\nBanco do Brasil (001)\nAgência: 8256\nConta corrente: 86766-2\nFavorecido: Mariana S.',
         secrets=('86766-2',)),
    Case(id='h17-122', category='bank_card', container='note',
         text='Depositionen till hyresvärden\nClearingnummer: 8195-1\nKontonummer: 692 908 576-9\nbelopp 12 000 kr',
         secrets=('692 908 576-9',)),
    Case(id='h17-123', category='bank_card', container='note',
         text='バイト代振込先（ゆうちょ）\n記号：17200\n番号：24742031\n名義：リン ウェイ',
         secrets=('24742031',)),
    Case(id='h17-124', category='bank_card', container='note',
         text='Nyt Dankort fra banken\nkortnummer: 5019 4894 5083 7342\nudløb 08/29\nkontrolcifre 577',
         secrets=('5019 4894 5083 7342',)),
    Case(id='h17-125', category='bank_card', container='json',
         text='{\n  "paymentMethod": "hipercard",\n  "installments": 3,\n  "card": {\n    "holder": "LIN WEI",\n    "number": "6062825187431996",\n    "expiry": "11/28",\n    "cvv": "435"\n  }\n}',
         secrets=('6062825187431996',)),
    Case(id='h17-126', category='bank_card', container='note',
         text='Ijara uchun / за аренду\nHumo karta raqami (номер карты): 9860 1275 1061 9829\nMuhammadali A.',
         secrets=('9860 1275 1061 9829',)),
    Case(id='h17-127', category='bank_card', container='txt',
         text='招商银行 信用卡\n银联 UnionPay\n6203 5815 3839 5410\n有效期 MM/YY 09/30\nCVN2 119\nLIN WEI',
         secrets=('6203 5815 3839 5410', '119')),
    Case(id='h17-128', category='bank_card', container='note',
         text='Hoi allemaal! Etentje was €24,50 p.p.\nGraag overmaken naar NL05 RABO 0532 0386 60 t.n.v. S. de Vries\nof via Tikkie 😊',
         secrets=('NL05 RABO 0532 0386 60',)),
    Case(id='h17-129', category='bank_card', container='note',
         text='تحويل مصاريف السكن\nرقم الآيبان: EG035587873648170699504542259\nالبنك الأهلي المصري',
         secrets=('EG035587873648170699504542259',)),
    Case(id='h17-130', category='bank_card', container='note',
         text='ბინის ქირა — თბილისი\nანგარიშის ნომერი (IBAN): GE59TB9191028926694897\nმიმღები: ნინო ბ.',
         secrets=('GE59TB9191028926694897',)),
    Case(id='h17-131', category='email', container='txt',
         text='From sara.vikll58@163.com Tue Jan 13 21:04:11 2026\nSubject: 论文初稿\nContent-Type: text/plain; charset=utf-8\n\n老师好，附件是初稿。\n',
         secrets=('sara.vikll58@163.com',)),
    Case(id='h17-132', category='email', container='txt',
         text='Received: from mx3.mailrelay.example.net (mx3.mailrelay.example.net [192.0.2.15])\n\tby mx.google.com with ESMTPS id a1si99431pls.12\n\tfor <hao.cljnh23@icloud.com>;\n\tTue, 13 Jan 2026 05:12:44 -0800 (PST)\n',
         secrets=('hao.cljnh23@icloud.com',)),
    Case(id='h17-133', category='email', container='txt',
         text='account personal\nhost smtp.outlook.com\nport 587\ntls on\nauth on\nfrom ana.euyxv15@outlook.com\nuser ana.euyxv15@outlook.com\npasswordeval "pass show mail/personal"\n',
         secrets=('ana.euyxv15@outlook.com',)),
    Case(id='h17-134', category='email', container='txt',
         text='# course-site CODEOWNERS\n*.md       @docs-team\n/labs/     yuki.cppuy25@proton.me\n/grading/  @ta-group\n',
         secrets=('yuki.cppuy25@proton.me',)),
    Case(id='h17-135', category='email', container='txt',
         text='<p>联系我：<a href="/cdn-cgi/l/email-protection#f682999b9785d881808c839ec1c1b6919b979f9ad895999b"><span class="__cf_email__" data-cfemail="f682999b9785d881808c839ec1c1b6919b979f9ad895999b">[email&#160;protected]</span></a></p>\n',
         secrets=('f682999b9785d881808c839ec1c1b6919b979f9ad895999b',)),
    Case(id='h17-136', category='email', container='note',
         text='ホストファミリーのメール（電話で聞いた）\nyuki.tanaka71 アットマーク docomo ドット ne ドット jp\n※ 小文字',
         secrets=('yuki.tanaka71 アットマーク docomo ドット ne ドット jp',)),
    Case(id='h17-137', category='email', container='txt',
         text='[package]\nname = "flashcard-cli"\nversion = "0.3.1"\nedition = "2021"\nauthors = ["Lin Wei <yuki.tcnpg36@icloud.com>"]\n',
         secrets=('yuki.tcnpg36@icloud.com',)),
    Case(id='h17-138', category='email', container='txt',
         text='Email Address,Confirmed,Primary,Updated On\nyuki.hlmbl28@proton.me,Yes,Yes,"1/13/26, 5:12 AM"\n',
         secrets=('yuki.hlmbl28@proton.me',)),
    Case(id='h17-139', category='passport', container='note',
         text='AfricaNLP workshop — travel grant form\nName: Wanjiru M.\nPassport No.: AK5440540\nExpiry: 2031-04-17',
         secrets=('AK5440540',)),
    Case(id='h17-140', category='passport', container='note',
         text='交換生報到文件\n護照號碼：368124673\n效期：2034/08/21\n簽證：學生簽證 D-2',
         secrets=('368124673',)),
    Case(id='h17-141', category='passport', container='note',
         text='Inscripción curso de verano\nNombre: Martina G.\nPasaporte N° TVP823469\nvence 03/2032',
         secrets=('TVP823469',)),
    Case(id='h17-142', category='passport', container='note',
         text='J-1 stuff\n- DS-2019 ✅\n- SEVIS fee ✅\n- passport no. PF4144113 (Irish)\n- interview 3 Feb',
         secrets=('PF4144113',)),
    Case(id='h17-143', category='passport', container='note',
         text='Auslandssemester Seoul — Unterlagen\nReisepassnummer: V1736686\ngültig bis 12.05.2033',
         secrets=('V1736686',)),
    Case(id='h17-144', category='passport', container='note',
         text='Erasmus Lyon — dossier logement\nNom : Dubois, Élise\nNuméro de passeport : NK151735\nNationalité : belge',
         secrets=('NK151735',)),
    Case(id='h17-145', category='passport', container='note',
         text='护照丢了 — 领馆办的旅行证\n旅行证号码：T82293537\n有效期两年，回国后去出入境办新护照',
         secrets=('T82293537',)),
    Case(id='h17-146', category='passport', container='txt',
         text='境外人员临时住宿登记单\nREGISTRATION FORM OF TEMPORARY RESIDENCE FOR VISITORS\n姓名 Name  LIN WEI   国籍 Nationality  CHN\n证件种类 Type of Certificate  护照 P\n证件号码 No. of Certificate  EY4734823\n',
         secrets=('EY4734823',)),
    Case(id='h17-147', category='address', container='note',
         text="New flat from Sept!\nFlat 2/1, 88 Hyndland Road, Glasgow G12 9XX\nbuzzer says 'Macleod'",
         secrets=('Flat 2/1, 88 Hyndland Road',)),
    Case(id='h17-148', category='address', container='note',
         text='Host family — Iowa\nThe Hendersons\nRR 6 Box 315, Decorah, IA 52101\n(mail goes there; the farm is on the gravel road)',
         secrets=('RR 6 Box 315',)),
    Case(id='h17-149', category='address', container='note',
         text='Internship PG accommodation\nH.No. 17-11-211/A, Street No. 12, Tarnaka, Secunderabad\nowner: Mrs. Reddy',
         secrets=('H.No. 17-11-211/A, Street No. 12',)),
    Case(id='h17-150', category='address', container='txt',
         text='$ exiftool IMG_4821.HEIC | grep -i -E \'gps|date\'\nDate/Time Original              : 2026:01:04 18:22:31\nGPS Latitude                    : 25 deg 9\' 11.09" N\nGPS Longitude                   : 108 deg 25\' 9.71" E\nGPS Position                    : 25 deg 9\' 11.09" N, 108 deg 25\' 9.71" E\n',
         secrets=('25 deg 9\' 11.09" N', '108 deg 25\' 9.71" E')),
    Case(id='h17-151', category='address', container='note',
         text='NYSC lodge — send the parcel to\nNo. 3, Adebayo Close, off Admiralty Way, Lekki Phase 1, Lagos',
         secrets=('No. 3, Adebayo Close, off Admiralty Way',)),
    Case(id='h17-152', category='address', container='note',
         text='Guesthouse for the volunteer month\n#16B, Street 491, Sangkat Boeung Keng Kang 1, Phnom Penh',
         secrets=('#16B, Street 491',)),
    Case(id='h17-153', category='address', container='note',
         text='הכתובת החדשה שלי בחיפה:\nרחוב הרצל 117, דירה 27\nקומה 3, אין מעלית',
         secrets=('רחוב הרצל 117, דירה 27',)),
    Case(id='h17-154', category='address', container='note',
         text='Min nye adresse:\nNørrebrogade 174, 1. tv.\n2200 København N\n(navn på dørtelefonen: Lin)',
         secrets=('Nørrebrogade 174, 1. tv.',)),
    Case(id='h17-155', category='address', container='note',
         text='HOAS-asunto\nKalevankatu 54 B 35\n00100 Helsinki\navain toimistosta',
         secrets=('Kalevankatu 54 B 35',)),
    Case(id='h17-156', category='address', container='note',
         text='年賀状の差出人（ホストファミリーの娘さん）\n〒151-0071 東京都渋谷区本町一丁目三番五号 コーポ桜二九三号室\n佐藤 美咲',
         secrets=('本町一丁目三番五号 コーポ桜二九三号室',)),
    Case(id='h17-157', category='otp_secret', container='json',
         text='{\n "details": {\n  "sections": [\n   {\n    "title": "",\n    "fields": [\n     {\n      "title": "one-time password",\n      "id": "TOTP_r3loj2ix35aa7bh8vj6cs3bx43",\n      "value": {\n       "totp": "otpauth://totp/GitLab:lin?secret=6H23OYYBJKYOS3X4CCOZVPZ6R3JB5KVE&issuer=GitLab"\n      }\n     }\n    ]\n   }\n  ]\n },\n "overview": {\n  "title": "GitLab (school)",\n  "url": "https://git.example-univ.edu"\n }\n}',
         secrets=('6H23OYYBJKYOS3X4CCOZVPZ6R3JB5KVE',)),
    Case(id='h17-158', category='otp_secret', container='txt',
         text='<Entry>\n  <String><Key>Title</Key><Value>Nextcloud</Value></String>\n  <String><Key>TimeOtp-Secret-Base32</Key><Value ProtectInMemory="True">2HSNAGA5VROYAP6KEFNVHKRTSFLIT7SC</Value></String>\n  <String><Key>TimeOtp-Period</Key><Value>30</Value></String>\n</Entry>\n',
         secrets=('2HSNAGA5VROYAP6KEFNVHKRTSFLIT7SC',)),
    Case(id='h17-159', category='otp_secret', container='txt',
         text='# /etc/users.oath\nHOTP/T30\tlinwei\t-\t47e5de8e06d553f9adbd2e4585f19a023f4ebb98\n',
         secrets=('47e5de8e06d553f9adbd2e4585f19a023f4ebb98',)),
    Case(id='h17-160', category='otp_secret', container='note',
         text="ipa otptoken-add --type=totp --owner=student07 --algo=sha1 --digits=6 --key=MAFHRXZBL6Q2DJD27DDDMVOHXCLPV3GA --desc='lab token'\n",
         secrets=('MAFHRXZBL6Q2DJD27DDDMVOHXCLPV3GA',)),
    Case(id='h17-161', category='otp_secret', container='txt',
         text='issuer,username,algorithm,digits,period,secret\nhome-lab,lin,SHA1,6,30,5FQDVODGZLUC6IBWE5BOMMZAV2DEP4SG\n',
         secrets=('5FQDVODGZLUC6IBWE5BOMMZAV2DEP4SG',)),
    Case(id='h17-162', category='otp_secret', container='json',
         text='{\n "cell_type": "code",\n "execution_count": 7,\n "metadata": {},\n "source": [\n  "import pyotp\\n",\n  "seed = pyotp.random_base32()\\n",\n  "print(seed)  # \\u5df2\\u5f55\\u5165\\u624b\\u673a"\n ],\n "outputs": [\n  {\n   "name": "stdout",\n   "output_type": "stream",\n   "text": [\n    "PRLK3IN7MBBJ2RIFDCQ52VTIZUUSKI3V\\n"\n   ]\n  }\n ]\n}',
         secrets=('PRLK3IN7MBBJ2RIFDCQ52VTIZUUSKI3V',)),
    Case(id='h17-163', category='otp_secret', container='txt',
         text='import dev.turingcomplete.kotlinonetimepassword.*\n\nval secret = "FW7VD2UC7Q2DLGOC".decodeBase32ToByteArray()\nval totp = TimeBasedOneTimePasswordGenerator(secret, TimeBasedOneTimePasswordConfig(30, TimeUnit.SECONDS, 6, HmacAlgorithm.SHA1))\n',
         secrets=('FW7VD2UC7Q2DLGOC',)),
    Case(id='h17-164', category='otp_secret', container='txt',
         text='PyPI recovery codes — account linwei\n965adb3d753b21cb\n3587c96e5da0c44a\nbaae4fa4774df1a8\nf06cf6f162302abf\nff6ebf717b5fa916\n188527951e57d1cc\nea1a9a11af5bf0db\nc257b27f79348f8e\nEach code can be used once.\n',
         secrets=('965adb3d753b21cb', '3587c96e5da0c44a', 'baae4fa4774df1a8', 'f06cf6f162302abf', 'ff6ebf717b5fa916', '188527951e57d1cc', 'ea1a9a11af5bf0db', 'c257b27f79348f8e')),
    Case(id='h17-165', category='recovery_phrase', container='note',
         text='Trezor Shamir backup — share #1 (need 2 of 3)\nepidemic desert academic acid airline lunch cause obesity kitchen repair jacket traffic blue various threaten lair crazy spill bolt advance\n#2 在爸妈家保险柜，#3 在银行',
         secrets=('epidemic desert academic acid airline lunch cause obesity kitchen repair jacket traffic blue various threaten lair crazy spill bolt advance',)),
    Case(id='h17-166', category='recovery_phrase', container='md',
         text='## Záloha peněženky\n- [x] vyhradit\n- [x] diktovat\n- [x] jedinec\n- [x] zklamat\n- [x] tvorba\n- [x] tykev\n- [x] ropucha\n- [x] popsat\n- [x] obvod\n- [x] poryv\n- [x] finance\n- [x] bourat\n',
         secrets=('vyhradit', 'diktovat', 'jedinec', 'zklamat', 'tvorba', 'tykev', 'ropucha', 'popsat', 'obvod', 'poryv', 'finance', 'bourat')),
    Case(id='h17-167', category='recovery_phrase', container='txt',
         text='Kurtarma kelimeleri\n 1. atmosfer     13. sahiden\n 2. çağlayan     14. külliye\n 3. zımbırtı     15. dayı\n 4. cehennem     16. kesmece\n 5. dipnot       17. avdet\n 6. kestane      18. kesirli\n 7. saltanat     19. hacim\n 8. sırtüstü     20. anahtar\n 9. sonsuz       21. uykusuz\n10. üçgen        22. tabaka\n11. bohça        23. dodurga\n12. rapor        24. favori\n',
         secrets=('atmosfer', 'çağlayan', 'zımbırtı', 'cehennem', 'dipnot', 'kestane', 'saltanat', 'sırtüstü', 'sonsuz', 'üçgen', 'bohça', 'rapor', 'sahiden', 'külliye', 'dayı', 'kesmece', 'avdet', 'kesirli', 'hacim', 'anahtar', 'uykusuz', 'tabaka', 'dodurga', 'favori')),
    Case(id='h17-168', category='recovery_phrase', container='txt',
         text='#[test]\nfn derive_first_address() {\n    let m = Mnemonic::parse_in(Language::Italian,\n        "ovest rustico recepire agevole spigoloso segregato endemico proroga sembrare oliva sfera lumaca").unwrap();\n    assert_eq!(addr(&m, 0).len(), 42);\n}\n',
         secrets=('ovest rustico recepire agevole spigoloso segregato endemico proroga sembrare oliva sfera lumaca',)),
    Case(id='h17-169', category='recovery_phrase', container='txt',
         text='package main\n\nimport "github.com/tyler-smith/go-bip39"\n\nfunc main() {\n\tmnemonic := "andaime cravo laje fileira caverna autismo alecrim prezar bispo chumbo informal amido"\n\tseed := bip39.NewSeed(mnemonic, "")\n\t_ = seed\n}\n',
         secrets=('andaime cravo laje fileira caverna autismo alecrim prezar bispo chumbo informal amido',)),
    Case(id='h17-170', category='recovery_phrase', container='note',
         text='  512  bx seed -b 128\n  513  bx mnemonic-to-seed flower divide peasant dune swallow hurt soon dove blossom what foot destroy | bx hd-new\n  514  history -c\n',
         secrets=('flower divide peasant dune swallow hurt soon dove blossom what foot destroy',)),
    Case(id='h17-171', category='recovery_phrase', container='txt',
         text="[OCR] IMG_2231.jpg\nsay develop pattern market cart eme-\nrge casual define limit fatal announce simple\nfriend age supply obvious asthma rude shoulder\nenrich ba-\nsic lumber reunion churn\n(don't lose)\n",
         secrets=('say', 'develop', 'pattern', 'market', 'cart', 'eme-\nrge', 'casual', 'define', 'limit', 'fatal', 'announce', 'simple', 'friend', 'age', 'supply', 'obvious', 'asthma', 'rude', 'shoulder', 'enrich', 'ba-\nsic', 'lumber', 'reunion', 'churn')),
    Case(id='h17-172', category='recovery_phrase', container='note',
         text='———— 文件传输助手 ————\n2026-01-09 23:12 我\n钱包助记词\n2026-01-09 23:12 我\nreview execute awkward resemble kidney adult custom right hole fortune lamp require\n2026-01-09 23:13 我\n[图片]\n',
         secrets=('review execute awkward resemble kidney adult custom right hole fortune lamp require',)),
    Case(id='h17-173', category='recovery_phrase', container='note',
         text='Pera wallet — testnet account for the blockchain course\nsupreme aerobic pattern inquiry state emerge artefact priority illness town view current visit embark holiday glad nerve topic chaos lizard run boy sail absorb battle\n',
         secrets=('supreme aerobic pattern inquiry state emerge artefact priority illness town view current visit embark holiday glad nerve topic chaos lizard run boy sail absorb battle',)),
    Case(id='h17-174', category='licence_plate', container='note',
         text='Campus parking application\nVehicle: white Tesla Model 3\nPlate: Hu AX8449\nOwner: Lin Wei (PhD, Dept. of Physics)',
         secrets=('Hu AX8449',)),
    Case(id='h17-175', category='licence_plate', container='note',
         text='週末返深圳，表哥揸車過關接我\n車牌 粵B·G1997，喺皇崗口岸停車場等',
         secrets=('粵B·G1997',)),
    Case(id='h17-176', category='licence_plate', container='note',
         text='Delebil til Roskilde\nnummerplade: VH 92 548\nnøgle i boksen, kode hos Mads',
         secrets=('VH 92 548',)),
    Case(id='h17-177', category='licence_plate', container='note',
         text='Kimppakyyti Tampereelle\nauton rekisterinumero: ZKN-786\nlähtö klo 16.15',
         secrets=('ZKN-786',)),
    Case(id='h17-178', category='licence_plate', container='note',
         text='Carro da Joana (boleia para Coimbra)\nmatrícula EU-95-ZQ, Clio cinzento',
         secrets=('EU-95-ZQ',)),
    Case(id='h17-179', category='licence_plate', container='note',
         text='Visitor parking request\nGuest vehicle plate: Shinagawa 300 sa 26-63\nDates: Jan 24-25',
         secrets=('Shinagawa 300 sa 26-63',)),
    Case(id='h17-180', category='licence_plate', container='note',
         text='Gate access — visitor\nVehicle reg: CA 858-211 (silver Polo)\nexpected Saturday 14:00',
         secrets=('CA 858-211',)),
    Case(id='h17-181', category='licence_plate', container='note',
         text='Arriendo Valparaíso\npatente del auto: DV·LX·12\ndevolver con estanque lleno',
         secrets=('DV·LX·12',)),
]
