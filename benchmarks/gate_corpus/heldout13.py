r"""Held-out batch 13: secrets and personal data in shapes the gate was not designed around.

Written in session 14 by an engineer (gwriter) who had read DESIGN.md, the README's privacy
paragraph, the corpus format (``__init__``, bench_gate.py) and only the docstrings of the earlier
batches (heldout to heldout12) and of negatives11, never the detectors, the earlier batches' cases
nor the gate's tests; the gate was not run on it while it was written (sealed in /root/lead14/gate).
217 cases:
api_key 48, auth_header 16, connection_string 16, private_key 10, password 28, resident_id 16, mobile 13, bank_card 12, email 9, passport 9, address 12, otp_secret 9, recovery_phrase 10, licence_plate 9.
Values generated for the corpus (/root/lead14/gate/gen13.py, seed 1313): keys random in each
provider's shape, private keys real but built from the seed and thrown away (RSA from seeded primes,
EC P-256/P-384 and Ed25519 from seeded scalars; the OpenSSH key's check integers, the encrypted PKCS#8's
salt and the PKCS#12 file come from the library and differ per run), ID, card and account numbers
built to pass their checksums (CN GB 11643, Irish PPSN mod-23, Swiss AHV EAN-13, German Steuer-ID
and Croatian OIB ISO 7064 MOD 11,10, Portuguese NIF mod-11, Estonian isikukood, Bulgarian EGN, card
Luhn, ABA routing, French RIB key, IBAN mod-97), BIP39 phrases with valid checksums (English,
Traditional Chinese, Italian, French, Japanese); none belongs to anyone. Addresses are labelled from the road or
building down (city and district left, as the gate's design says). Encoded secrets (base64, reversed,
percent-escaped) are labelled as they appear in the text; a private key is labelled line by line
(its body lines, without the timestamps, line numbers or margin bars around them; one run where
its newlines became spaces), a split or shuffled seed phrase part by part; a passport or personal
record's birth date is labelled with it where the two sit together.

Shapes, one per case (category: shape):
api_key: Pulumi access token (pul-) in a GitHub Actions job env block
api_key: Netlify personal access token given to `netlify deploy --auth` in zsh history
api_key: Snyk API token (a UUID) set with `snyk config set api=` in a terminal transcript
api_key: Linode (Akamai) personal access token in ~/.config/linode-cli INI
api_key: Cloudflare R2 access key id and secret in a boto3 client in a notebook export
api_key: MapTiler key in a MapLibre style URL inside a Vue component
api_key: OpenWeatherMap appid inside an Excel WEBSERVICE formula in a CSV export
api_key: Pexels API key in an Obsidian Templater user script
api_key: Spotify client secret beside its client id in spotipy
api_key: X (Twitter) API bearer token with %2F and %3D inside, in tweepy.Client
api_key: Reddit praw.ini with client_secret and the account password
api_key: API2D forward key (fk…-…) of a Chinese relay service in a chat note
api_key: Seniverse (心知天气) private key in a WeChat mini-program request
api_key: Yunpian (云片) SMS apikey in a PHP curl POST body
api_key: go-cqhttp (QQ bot) access-token in config.yml
api_key: Adyen API key (AQE…) in a Java Client constructor
api_key: Braintree private key in a Ruby gateway config (merchant id and public key are ids)
api_key: Mollie live API key as an os.environ.setdefault fallback in Python settings
api_key: Xendit production secret key in a Node Xendit client
api_key: Plaid secret in plaid.Configuration api_key dict
api_key: Mux token id and token secret in a .env
api_key: Meilisearch master key in a `docker run -e MEILI_MASTER_KEY=` line
api_key: Appwrite server API key (standard_ + 256 hex) in a Dart server function
api_key: Upstash Redis REST token in a Cloudflare wrangler.toml [vars] table
api_key: Clerk secret key (sk_live_) beside its publishable key in an Astro .env
api_key: Contentful management token (CFPAT-) in ~/.contentfulrc.json
api_key: Postmark server token (a UUID) in decrypted Rails credentials
api_key: Mailjet API key and secret key in a PHP config array
api_key: PagerDuty Events v2 routing key in an Alertmanager receiver
api_key: Honeycomb ingest key as an x-honeycomb-team header in an OpenTelemetry Collector config
api_key: LaunchDarkly server SDK key (sdk-<uuid>) in a Helm values file
api_key: JFrog Artifactory API key (AKCp…) in gradle.properties
api_key: Hex.pm API key set with `mix hex.config api_key` (Elixir)
api_key: Neptune.ai API token (base64 of a JSON holding the key) in a training script
api_key: ClearML access/secret key in clearml.conf (HOCON)
api_key: Roboflow API key in a YOLOv8 Colab notebook cell (ipynb JSON)
api_key: Modal token id (ak-) and secret (as-) in `modal token set`
api_key: RunPod API key in `runpodctl config --apiKey`
api_key: Zoom Server-to-Server OAuth client secret in a Node .env
api_key: Raindrop.io test token in a Logseq plugin settings block
api_key: Microsoft Translator Ocp-Apim-Subscription-Key in a Chrome extension background.js
api_key: Naver Papago X-Naver-Client-Secret in a Korean-class script
api_key: key stored reversed and flipped at run time ([::-1]) to dodge scanners
api_key: Windows .reg export with an API key as a REG_SZ value
api_key: access token in a URL fragment (#access_token=) of an OAuth implicit-flow redirect
api_key: API key in a Kustomize secretGenerator literal
api_key: Hugging Face token in a JetBrains run configuration XML <env> element
api_key: OpenAI project key in a Bruno .bru request file's auth:bearer block
auth_header: TMDB v4 read access token (a JWT) in a Kotlin OkHttp interceptor
auth_header: LINE Notify token in a crontab curl line
auth_header: miHoYo (米游社) ltoken_v2 and cookie_token_v2 in a daily sign-in script config
auth_header: WeRead (微信读书) wr_skey cookie in a highlights-export script
auth_header: Aliyun Drive (阿里云盘) refresh_token in an AList storage addition JSON
auth_header: Okta API token in an `Authorization: SSWS …` header of a PowerShell Invoke-RestMethod
auth_header: Kakao REST API key in an `Authorization: KakaoAK` header in a Korean-class note
auth_header: Splunk HEC token in a Fluent Bit output (Splunk_Token) config
auth_header: Elasticsearch `Authorization: ApiKey <base64 id:key>` in a Kibana Dev Tools curl copy
auth_header: Opsgenie GenieKey in an Alertmanager opsgenie_configs block
auth_header: Steam steamLoginSecure cookie in a market price scraper
auth_header: Douban dbcl2 cookie passed to Selenium driver.add_cookie
auth_header: Bearer token in a GraphQL Playground HTTP HEADERS pane copy
auth_header: Google OAuth access token (ya29.) in a grpcurl -H authorization metadata flag
auth_header: Burp Suite saved item XML whose base64 request holds a session cookie
auth_header: session token in a Wireshark 'Follow HTTP Stream' text of a campus captive portal
connection_string: etcdctl --user root:password in a Kubernetes course transcript
connection_string: Vault userpass login with password= on the command line
connection_string: MinIO client `mc alias set` with access and secret key positional
connection_string: ~/.passwd-s3fs ACCESS:SECRET line before an s3fs mount
connection_string: Linphone linphonerc SIP account [auth_info_0] passwd=
connection_string: restic REST server repository URL with user:password
connection_string: PlanetScale MySQL URL with a pscale_pw_ password
connection_string: Turso libsql URL with an authToken query parameter
connection_string: Prisma Accelerate prisma:// URL with an api_key query parameter
connection_string: Qt QSqlDatabase setPassword in a C++ course project
connection_string: sqlx DATABASE_URL in .cargo/config.toml [env]
connection_string: FreeRADIUS clients.conf shared secret for a dorm Wi-Fi AP
connection_string: Go sqlserver:// URL with sa password in sql.Open
connection_string: Firebird isql -user SYSDBA -password for a course database
connection_string: WeeChat ZNC server password user/network:password
connection_string: sendxmpp -u -p -j in a cron alert line
private_key: OCI API signing key (PKCS#8 with the trailing OCI_API_KEY line) beside ~/.oci/config
private_key: GitHub App private key pasted into .env with spaces for newlines (web form copy)
private_key: iOS distribution certificate as base64 PKCS#12 (key inside) in a GitLab CI variable file
private_key: encrypted PKCS#8 key written next to its passphrase
private_key: paperkey output (hex lines with per-line CRC) of an Ed25519 secret key
private_key: OpenSSH key echoed into a CI job log, each line prefixed by a timestamp
private_key: `cat -n` listing of an RSA PEM (line numbers and tabs before each line)
private_key: EC private key in a Go raw string literal (backticks)
private_key: PKCS#8 RSA key in a Kotlin trimMargin() string (each line prefixed by |)
private_key: EC P-384 key body kept as a Python list of strings joined at run time
password: German 'Kennwort' label in a Goethe-Institut course note
password: Japanese 暗証番号 (bank card PIN) in a study-abroad memo
password: Persian رمز عبور label in a Persian-class note
password: Hungarian jelszó label for a Neptun student account
password: Malay 'kata laluan' label in a Malaysian homestay chat
password: Finnish salasana label in a Finnish-course note
password: MYSQL_PWD environment variable inside a crontab backup line
password: Ansible vault password written to ~/.vault_pass with echo
password: PsExec -u -p in a Windows lab transcript
password: PuTTY plink -pw in a batch file
password: unrar x -p for a course-material archive
password: pdftk input_pw to unlock a payslip PDF
password: openssl pkcs12 -export -passout pass:
password: GF_SECURITY_ADMIN_PASSWORD in a docker-compose environment list
password: Pi-hole web password set with `pihole -a -p`
password: OpenWrt uci set wireless key
password: iPhone Screen Time passcode (屏幕使用时间密码) in a family note
password: phone unlock pattern written as a digit sequence
password: openpyxl sheet protection password
password: new database password written in a git commit message (git log)
password: old password struck through (~~…~~) beside the new one in a Markdown list
password: MongoDB db.createUser with pwd in a mongosh session
password: Redis ACL SETUSER with a >password rule
password: MikroTik RouterOS /user add password=
password: adb shell cmd wifi connect-network with a WPA2 passphrase
password: Wi-Fi password in an ESP32 Arduino sketch (const char*)
password: Lithuanian slaptažodis label in a Vilnius course note
password: Mercurial ~/.hgrc [auth] section with password
resident_id: UK National Insurance number (spaced) on a part-time job form
resident_id: Irish PPS number (7 digits + mod-23 check letter) in an Intreo note
resident_id: Swiss AHV/AVS number (756.xxxx.xxxx.xx, EAN-13 check) in a Zurich internship note
resident_id: German Steuer-ID (11 digits, ISO 7064 check) on a Minijob form
resident_id: Portuguese NIF (mod-11) in an enrolment form JSON
resident_id: Estonian isikukood (11 digits with check) in a Tartu dorm booking
resident_id: Bulgarian ЕГН (10 digits, weighted check) in a Sofia exchange note
resident_id: Croatian OIB (ISO 7064 MOD 11,10) in a Zagreb summer-school form
resident_id: Malaysian MyKad number (YYMMDD-PB-####) of a classmate in a group-project sheet
resident_id: Indonesian NIK (16 digits, women's day +40) in a KTP OCR
resident_id: US ITIN (9XX-7X-XXXX) on a 1040-NR draft
resident_id: Chinese ID number on a blood-donation certificate (献血证) OCR
resident_id: ID number next to a =MID() birth-date formula in a spreadsheet CSV
resident_id: ID number and online verification code in a CHSI (学信网) enrolment verification report
resident_id: Danish CPR number (DDMMYY-SSSS) in a Copenhagen housing note
resident_id: Pakistani CNIC (5-7-1) in a scholarship form
mobile: Australian mobile 04xx xxx xxx after 'mob' in a share-house note
mobile: Pakistani mobile +92 3xx with an Urdu label
mobile: Saudi mobile +966 5x with the Arabic label جوال
mobile: Ukrainian mobile +380 with 'моб.' label
mobile: Mexican mobile +52 1 55 with 'cel.' label
mobile: Nigerian mobile +234 in a WhatsApp group export
mobile: Colombian mobile +57 3xx with 'celular' in a Medellín exchange note
mobile: SMSTO: QR-code payload with a mobile number
mobile: DingTalk robot webhook body with at.atMobiles
mobile: mobile in a 12306 frequent-passenger list screenshot OCR
mobile: Peruvian mobile +51 9xx xxx xxx with 'cel' in a Lima note
mobile: Czech mobile +420 with 'mobil' label
mobile: Greek mobile 69x with 'κινητό' label
bank_card: US checking account number beside its ABA routing number on a direct-deposit form
bank_card: UK sort code and account number sent to a landlord
bank_card: Australian BSB and account number in a share-house rent note
bank_card: Indian bank account number with IFSC for a scholarship transfer
bank_card: Japanese 口座番号 (7 digits) with 支店 in a part-time job note
bank_card: Korean 계좌번호 in a KakaoTalk export (splitting the bill)
bank_card: credit-card number as <ACCTID> in an OFX statement export
bank_card: French RIB (code banque, guichet, compte, clé RIB) with its IBAN for a CAF form
bank_card: UnionPay card inside an Alipay bind-card deep link
bank_card: Brazilian Pix random key (chave aleatória, a UUID) for splitting a bill
bank_card: Canadian void-cheque transit, institution and account numbers
bank_card: Vietnamese số tài khoản with bank name in a tutoring chat
email: address with # for @ and a note saying so
email: address with 圈a written for @ in a forum post
email: MATMSG: QR payload with TO: address
email: certbot --email with a personal address
email: forwarded mail header with Chinese labels 发件人/收件人
email: setup.py author_email
email: vCard EMAIL;TYPE=INTERNET line
email: git config --global user.email in shell history
email: composer.json authors email
passport: SSR DOCS line of an airline booking (PNR) with passport and birth date
passport: Australian passport number of a flatmate in a lease checklist
passport: Malaysian passport number with 'No. Pasport'
passport: Singapore passport number (K + 7 digits + letter)
passport: New Zealand passport (2 letters + 6 digits) in a hostel check-in note
passport: Dutch paspoortnummer (9 characters, no letter O)
passport: Pakistani passport number with Urdu label پاسپورٹ نمبر
passport: Mexican passport number in a conference registration JSON
passport: Polish passport number with 'nr paszportu'
address: Irish address with an Eircode
address: Dutch address with huisnummer toevoeging and postcode
address: Swedish address with lägenhetsnummer (lgh)
address: Argentine address with Piso and Depto.
address: Philippine condo address with Unit, Tower and Barangay
address: Czech address with číslo popisné / orientační (X/Y)
address: Xinjiang Bingtuan address (团/连/栋/号)
address: home location as a what3words address
address: home location as an Open Location Code (Plus Code)
address: Greek address (Οδός …, floor) in a rental note
address: Portuguese address with n.º and floor/side (3.º Esq.)
address: Japanese address in romaji (chome-ban-go, room number)
otp_secret: Proton Pass CSV export row with a totp column
otp_secret: Raivo OTP export JSON with secret
otp_secret: Authenticator Pro (Stratum) backup JSON Authenticators entry
otp_secret: PHP Google2FA verifyKey with a literal secret
otp_secret: Java GoogleAuthenticator (wstrange) authorize with a literal secret
otp_secret: Battle.net authenticator serial and restore code
otp_secret: hardware OTP token seed file (serial, hex seed) for a lab VPN
otp_secret: Google account backup codes (ten 8-digit codes) saved as a text file
otp_secret: LastPass Authenticator export JSON accounts[].secret
recovery_phrase: Substrate `subkey generate` output with 'Secret phrase:' and the secret seed
recovery_phrase: Cosmos `gaiad keys add` output ('write this mnemonic phrase in a safe place')
recovery_phrase: ethers.Wallet.fromPhrase in a Hardhat script
recovery_phrase: Traditional-Chinese BIP39 phrase in bip39.mnemonicToSeedSync (JS)
recovery_phrase: twelve words one per cell in a single CSV row (spreadsheet export)
recovery_phrase: words listed in shuffled order with their positions (to 'hide' them)
recovery_phrase: phrase split into three parts on separate lines of one note
recovery_phrase: Italian BIP39 phrase given to `electrum restore`
recovery_phrase: French BIP39 phrase in a saved HTML page's <textarea id="phrase">
recovery_phrase: Japanese BIP39 phrase in python-mnemonic to_seed()
licence_plate: Italian targa (AA 123 BB) in a car-sharing note
licence_plate: Polish registration (WX …) with 'nr rej.'
licence_plate: Turkish plate (34 ABC 123) with 'plaka'
licence_plate: Vietnamese plate (51F-123.45) with 'biển số'
licence_plate: Malaysian plate (WXY 1234) with 'no. plat'
licence_plate: Indonesian plate (B 1234 XYZ) with 'plat nomor'
licence_plate: Swiss plate (ZH 123456) with 'Kontrollschild'
licence_plate: Chinese driving-school plate (…学) in a driving-lesson note
licence_plate: Irish registration (231-D-12345) in a parking permit note
"""

from benchmarks.gate_corpus import Case

CASES: list[Case] = [
    # Pulumi access token (pul-) in a GitHub Actions job env block
    Case('h13-001', 'api_key', 'yaml',
         '# .github/workflows/infra.yml  —— 课程作业的云资源\njobs:\n  preview:\n    runs-on: ubuntu-latest\n    env:\n      PULUMI_ACCESS_TOKEN: pul-d6b89ba55f6288bcee94306a9f8317b3fee572da\n      AWS_REGION: ap-east-1\n    steps:\n      - uses: actions/checkout@v4\n      - run: pulumi preview --stack dev\n',
         ('pul-d6b89ba55f6288bcee94306a9f8317b3fee572da',)),
    # Netlify personal access token given to `netlify deploy --auth` in zsh history
    Case('h13-002', 'api_key', 'note',
         ': 1733212101:0;cd ~/code/vocab-site\n: 1733212140:0;npm run build\n: 1733212188:0;netlify deploy --prod --dir=dist --auth nfp_pVEBc9sZddPnjjhRBTYojYdCOO86lUyueTcm --site 3f1e2c6a-notes\n: 1733212230:0;open https://vocab-notes.netlify.app\n',
         ('nfp_pVEBc9sZddPnjjhRBTYojYdCOO86lUyueTcm',)),
    # Snyk API token (a UUID) set with `snyk config set api=` in a terminal transcript
    Case('h13-003', 'api_key', 'note',
         '装了 snyk CLI 扫依赖漏洞：\n$ snyk config set api=74d1ab39-cc16-484a-92dc-1d1540218ab9\napi updated\n$ snyk test --file=requirements.txt\nTesting /home/me/thesis...\n✗ High severity vulnerability found in jinja2\n',
         ('74d1ab39-cc16-484a-92dc-1d1540218ab9',)),
    # Linode (Akamai) personal access token in ~/.config/linode-cli INI
    Case('h13-004', 'api_key', 'txt',
         '[DEFAULT]\ndefault-user = studentlab\n\n[studentlab]\ntoken = 437c5a5d284414f723cdcc80fa0604666d819ac0c565276b738ac670aa990e93\nregion = ap-northeast\ntype = g6-nanode-1\nimage = linode/debian12\n',
         ('437c5a5d284414f723cdcc80fa0604666d819ac0c565276b738ac670aa990e93',)),
    # Cloudflare R2 access key id and secret in a boto3 client in a notebook export
    Case('h13-005', 'api_key', 'py',
         '# %% 把论文数据集同步到 R2\nimport boto3\n\ns3 = boto3.client(\n    "s3",\n    endpoint_url="https://7c1f0e9d2b3a4c5d6e7f8a9b0c1d2e3f.r2.cloudflarestorage.com",\n    aws_access_key_id="07e52072d222b7db03148104be9ce053",\n    aws_secret_access_key="cfdf511a634efb053874e80d6f103b240fa106cf4089b8ccf199ca747e2d9e34",\n    region_name="auto",\n)\ns3.upload_file("corpus.parquet", "thesis-data", "v2/corpus.parquet")\n',
         ('07e52072d222b7db03148104be9ce053', 'cfdf511a634efb053874e80d6f103b240fa106cf4089b8ccf199ca747e2d9e34')),
    # MapTiler key in a MapLibre style URL inside a Vue component
    Case('h13-006', 'api_key', 'note',
         "<script setup>\nimport maplibregl from 'maplibre-gl'\nonMounted(() => {\n  new maplibregl.Map({\n    container: 'map',\n    style: 'https://api.maptiler.com/maps/streets-v2/style.json?key=nECe9UiWaVvZqz8rFPsh',\n    center: [116.39, 39.91], zoom: 11,\n  })\n})\n</script>\n",
         ('nECe9UiWaVvZqz8rFPsh',)),
    # OpenWeatherMap appid inside an Excel WEBSERVICE formula in a CSV export
    Case('h13-007', 'api_key', 'txt',
         '城市,URL,温度\n北京,"=WEBSERVICE(""https://api.openweathermap.org/data/2.5/weather?q=Beijing&units=metric&appid=1596b69aca7e810a8ab4c7e909434304"")",3.2\n上海,"=WEBSERVICE(""https://api.openweathermap.org/data/2.5/weather?q=Shanghai&units=metric&appid=1596b69aca7e810a8ab4c7e909434304"")",9.8\n',
         ('1596b69aca7e810a8ab4c7e909434304',)),
    # Pexels API key in an Obsidian Templater user script
    Case('h13-008', 'api_key', 'md',
         '## 每日单词卡配图\n\n```js\n<%*\nconst r = await requestUrl({\n  url: `https://api.pexels.com/v1/search?query=${tp.file.title}&per_page=1`,\n  headers: { Authorization: "FuLON0jNukvoGEMLICDdoqEq1CEKeTikFfH8GPcoLYQZnjizwKy1JoId" },\n});\ntR += `![](${r.json.photos[0].src.medium})`\n%>\n```\n',
         ('FuLON0jNukvoGEMLICDdoqEq1CEKeTikFfH8GPcoLYQZnjizwKy1JoId',)),
    # Spotify client secret beside its client id in spotipy
    Case('h13-009', 'api_key', 'py',
         'import spotipy\nfrom spotipy.oauth2 import SpotifyClientCredentials\n\n# 听力练习：把收藏的英文播客按时长排序\nauth = SpotifyClientCredentials(\n    client_id="7db7198bd10ba0fc25d2a26625cfc82b",\n    client_secret="961a44a47c668685694c2bcf7b753282",\n)\nsp = spotipy.Spotify(auth_manager=auth)\n',
         ('961a44a47c668685694c2bcf7b753282',)),
    # X (Twitter) API bearer token with %2F and %3D inside, in tweepy.Client
    Case('h13-010', 'api_key', 'py',
         'import tweepy\n\nclient = tweepy.Client(bearer_token="AAAAAAAAAAAAAAAAAAAAAAmyYWT89ENrkHvX99MpHN2441%2FrX0hKLOwOc%3Dq2BpuIlxzEacYDlayWulLbzzixSjMJkBUD8YFMelKRlgzBqNYC")\nresp = client.search_recent_tweets("#learnchinese -is:retweet", max_results=20)\n',
         ('AAAAAAAAAAAAAAAAAAAAAAmyYWT89ENrkHvX99MpHN2441%2FrX0hKLOwOc%3Dq2BpuIlxzEacYDlayWulLbzzixSjMJkBUD8YFMelKRlgzBqNYC',)),
    # Reddit praw.ini with client_secret and the account password
    Case('h13-011', 'api_key', 'txt',
         '[vocabbot]\nclient_id=VATZoIO6YibWuiGbU6R8Em\nclient_secret=r80baM6PnYn5BpE6jodS3jssjjeu8e\nuser_agent=vocabbot/0.3 by u/hanzi_learner\nusername=hanzi_learner\npassword=at0hbL!801\n',
         ('r80baM6PnYn5BpE6jodS3jssjjeu8e', 'at0hbL!801')),
    # API2D forward key (fk…-…) of a Chinese relay service in a chat note
    Case('h13-012', 'api_key', 'note',
         '学长给的中转：API2D，base_url 换成 https://oa.api2d.net/v1\nkey：fk974898-pE1rOEK8jo44UeupALWnOIXxPa8lOTFe\n（余额 200 点，别外传，用完在群里说）\n',
         ('fk974898-pE1rOEK8jo44UeupALWnOIXxPa8lOTFe',)),
    # Seniverse (心知天气) private key in a WeChat mini-program request
    Case('h13-013', 'api_key', 'note',
         "// pages/weather/index.js\nwx.request({\n  url: 'https://api.seniverse.com/v3/weather/now.json',\n  data: { key: 'SsgZ1945Xm4XXWj1I', location: 'hangzhou', language: 'zh-Hans', unit: 'c' },\n  success: res => this.setData({ now: res.data.results[0].now }),\n})\n",
         ('SsgZ1945Xm4XXWj1I',)),
    # Yunpian (云片) SMS apikey in a PHP curl POST body
    Case('h13-014', 'api_key', 'note',
         "<?php\n// 社团活动短信提醒\n$ch = curl_init('https://sms.yunpian.com/v2/sms/single_send.json');\ncurl_setopt($ch, CURLOPT_POSTFIELDS, http_build_query([\n    'apikey' => '24152ad55c1d5b8b3484a76f9d0b8d2a',\n    'mobile' => $member['mobile'],\n    'text'   => '【读书会】本周六下午两点，图书馆三楼',\n]));\n",
         ('24152ad55c1d5b8b3484a76f9d0b8d2a',)),
    # go-cqhttp (QQ bot) access-token in config.yml
    Case('h13-015', 'api_key', 'yaml',
         "account:\n  uin: 0\n  password: ''\n  encrypt: false\ndefault-middlewares: &default\n  access-token: 'vNhaTMM8TNzOHShh93Kc6fXF'\n  filter: ''\nservers:\n  - http:\n      address: 127.0.0.1:5700\n      middlewares:\n        <<: *default\n",
         ('vNhaTMM8TNzOHShh93Kc6fXF',)),
    # Adyen API key (AQE…) in a Java Client constructor
    Case('h13-016', 'api_key', 'note',
         '// 海外课程付费 demo（测试环境以后要换成正式）\nClient client = new Client("AQEFV4ktbnSUjsmmOJv3328eN3Gb5FVjisfBbWOLpROlT/efSH2GSXcSbvIaZhw1f7=-s97p9wlD9FdSp7FI9QuZUGdf18mBb1GNbTTGLccb=-IcMYq733tNvZ", Environment.LIVE, "1797a841fbb37ca7-AdyenDemo");\nCheckout checkout = new Checkout(client);\n',
         ('AQEFV4ktbnSUjsmmOJv3328eN3Gb5FVjisfBbWOLpROlT/efSH2GSXcSbvIaZhw1f7=-s97p9wlD9FdSp7FI9QuZUGdf18mBb1GNbTTGLccb=-IcMYq733tNvZ',)),
    # Braintree private key in a Ruby gateway config (merchant id and public key are ids)
    Case('h13-017', 'api_key', 'note',
         'gateway = Braintree::Gateway.new(\n  environment: :production,\n  merchant_id: "hpzj12ry0qxq29oi",\n  public_key: "y70pwtikvkafdt23",\n  private_key: "84b9dad07402fbda982fd8933d965cf7",\n)\n',
         ('84b9dad07402fbda982fd8933d965cf7',)),
    # Mollie live API key as an os.environ.setdefault fallback in Python settings
    Case('h13-018', 'api_key', 'py',
         '# settings/prod.py — 语言课在线报名\nimport os\n\nos.environ.setdefault("MOLLIE_API_KEY", "live_P9DjuTm98O5nPyX8tvUbHwLAcfuLbS")\nmollie = Client()\nmollie.set_api_key(os.environ["MOLLIE_API_KEY"])\n',
         ('live_P9DjuTm98O5nPyX8tvUbHwLAcfuLbS',)),
    # Xendit production secret key in a Node Xendit client
    Case('h13-019', 'api_key', 'note',
         "const { Xendit } = require('xendit-node')\nconst x = new Xendit({ secretKey: 'xnd_production_i2HgkBNcitBvJYTpvGvTwY0mOFq5F6llw1u5xusUAFwDmRXjbS' })  // 印尼同学帮忙开的账号\nconst { Invoice } = x\n",
         ('xnd_production_i2HgkBNcitBvJYTpvGvTwY0mOFq5F6llw1u5xusUAFwDmRXjbS',)),
    # Plaid secret in plaid.Configuration api_key dict
    Case('h13-020', 'api_key', 'py',
         'import plaid\nfrom plaid.api import plaid_api\n\nconf = plaid.Configuration(\n    host=plaid.Environment.Production,\n    api_key={"clientId": "fb27c618331ecd16bfd77342", "secret": "ac731723c18c6d7d05f8c0fa5db261"},\n)\nclient = plaid_api.PlaidApi(plaid.ApiClient(conf))\n',
         ('ac731723c18c6d7d05f8c0fa5db261',)),
    # Mux token id and token secret in a .env
    Case('h13-021', 'api_key', 'env',
         '# 视频课程托管\nMUX_TOKEN_ID=c1689499-125d-4073-9089-8b42d5d002f6\nMUX_TOKEN_SECRET=/5Ys/ggmxGHGbrxdKs0G1OTQjj+qf+9QOKtq0V/Y2l76Sia7+5Z4NehTJnxMBIaqDncV2YucYBf\nNEXT_PUBLIC_SITE=https://course.local\n',
         ('c1689499-125d-4073-9089-8b42d5d002f6', '/5Ys/ggmxGHGbrxdKs0G1OTQjj+qf+9QOKtq0V/Y2l76Sia7+5Z4NehTJnxMBIaqDncV2YucYBf')),
    # Meilisearch master key in a `docker run -e MEILI_MASTER_KEY=` line
    Case('h13-022', 'api_key', 'note',
         "笔记全文搜索服务（自己的 VPS）：\n```\ndocker run -d --name meili -p 7700:7700 \\\n  -e MEILI_ENV=production \\\n  -e MEILI_MASTER_KEY='8O5vPXOBXNrcNMhdQVagJoDiVFGQwSuwFg8e-u194VP' \\\n  -v $(pwd)/meili_data:/meili_data \\\n  getmeili/meilisearch:v1.11\n```\n",
         ('8O5vPXOBXNrcNMhdQVagJoDiVFGQwSuwFg8e-u194VP',)),
    # Appwrite server API key (standard_ + 256 hex) in a Dart server function
    Case('h13-023', 'api_key', 'note',
         "final client = Client()\n    .setEndpoint('https://cloud.appwrite.io/v1')\n    .setProject('vocab-app')\n    .setKey('standard_585cc0ef797b078b9602fee32719d7b1178c42030ac876376c97b763687d5a481235cc94c733c9027c8558f1600c137018bb161c8155eb679416ba783ce1a02c330cd403242c9a84cabe1e2692ebe26cf57492a7cbb187d5622f0b48a48a8a584992a659a8bed47f5dcb2b7dc7ca7d2d9b8a59ec3cb74d6c10e0c4dd50e91eaa');\nfinal db = Databases(client);\n",
         ('standard_585cc0ef797b078b9602fee32719d7b1178c42030ac876376c97b763687d5a481235cc94c733c9027c8558f1600c137018bb161c8155eb679416ba783ce1a02c330cd403242c9a84cabe1e2692ebe26cf57492a7cbb187d5622f0b48a48a8a584992a659a8bed47f5dcb2b7dc7ca7d2d9b8a59ec3cb74d6c10e0c4dd50e91eaa',)),
    # Upstash Redis REST token in a Cloudflare wrangler.toml [vars] table
    Case('h13-024', 'api_key', 'txt',
         'name = "flashcards-api"\nmain = "src/index.ts"\ncompatibility_date = "2024-11-01"\n\n[vars]\nUPSTASH_REDIS_REST_URL = "https://apn1-brave-heron-31337.upstash.io"\nUPSTASH_REDIS_REST_TOKEN = "ASIoAAIjcDiE2S3N3g8PApoI8luZTd47NhvHjNq4i8XKFWy02cJq52GlgWOe"\n',
         ('ASIoAAIjcDiE2S3N3g8PApoI8luZTd47NhvHjNq4i8XKFWy02cJq52GlgWOe',)),
    # Clerk secret key (sk_live_) beside its publishable key in an Astro .env
    Case('h13-025', 'api_key', 'env',
         'PUBLIC_CLERK_PUBLISHABLE_KEY=pk_live_Y2xlcmsubm90ZXMtbGFiLmNuJA\nCLERK_SECRET_KEY=sk_live_agh0FGgymNvWpvpPYkRRKe8TzQoeyEMU56sbfMHhq7\n',
         ('sk_live_agh0FGgymNvWpvpPYkRRKe8TzQoeyEMU56sbfMHhq7',)),
    # Contentful management token (CFPAT-) in ~/.contentfulrc.json
    Case('h13-026', 'api_key', 'json',
         '{\n  "managementToken": "CFPAT-0E4XmMCVll-sbL1XvnkR3Qum1BtTtiay6CfQIYqTNJ3",\n  "activeSpaceId": "w6skji30jwxy",\n  "activeEnvironmentId": "master",\n  "host": "api.contentful.com"\n}\n',
         ('CFPAT-0E4XmMCVll-sbL1XvnkR3Qum1BtTtiay6CfQIYqTNJ3',)),
    # Postmark server token (a UUID) in decrypted Rails credentials
    Case('h13-027', 'api_key', 'yaml',
         '# bin/rails credentials:show 的输出，存一份备忘\nsecret_key_base: 30fa9d4456e26ee0575c85f96f74ebc662f94abf8bfc8e0085e86753d4e6aa661fac801be1075362d241bfbb0259e847c4f0aaaf9d1d501406ee8fabe2c4964c\npostmark:\n  api_token: c4bed3ea-d05e-45b9-a8fd-f4853b43d583\n',
         ('30fa9d4456e26ee0575c85f96f74ebc662f94abf8bfc8e0085e86753d4e6aa661fac801be1075362d241bfbb0259e847c4f0aaaf9d1d501406ee8fabe2c4964c', 'c4bed3ea-d05e-45b9-a8fd-f4853b43d583')),
    # Mailjet API key and secret key in a PHP config array
    Case('h13-028', 'api_key', 'note',
         "<?php\nreturn [\n    'mailjet' => [\n        'key'    => '5b9df7078f0bb86ad7f319c8a38c5cb1',\n        'secret' => '3d1ee12062018dd16a440faa2c5c8926',\n        'from'   => 'no-reply@reading-club.org',\n    ],\n];\n",
         ('5b9df7078f0bb86ad7f319c8a38c5cb1', '3d1ee12062018dd16a440faa2c5c8926')),
    # PagerDuty Events v2 routing key in an Alertmanager receiver
    Case('h13-029', 'api_key', 'yaml',
         "receivers:\n  - name: oncall\n    pagerduty_configs:\n      - routing_key: c94f54b4ddc63d66dbbe95287881e98c\n        severity: '{{ .CommonLabels.severity }}'\nroute:\n  receiver: oncall\n",
         ('c94f54b4ddc63d66dbbe95287881e98c',)),
    # Honeycomb ingest key as an x-honeycomb-team header in an OpenTelemetry Collector config
    Case('h13-030', 'api_key', 'yaml',
         'exporters:\n  otlp/honeycomb:\n    endpoint: api.honeycomb.io:443\n    headers:\n      x-honeycomb-team: hcaik_l8n84p82ue3cf23wema63j5vv8cwvxcy146ibdtc7dyxb24e4hmx\n      x-honeycomb-dataset: notes-app\n',
         ('hcaik_l8n84p82ue3cf23wema63j5vv8cwvxcy146ibdtc7dyxb24e4hmx',)),
    # LaunchDarkly server SDK key (sdk-<uuid>) in a Helm values file
    Case('h13-031', 'api_key', 'yaml',
         'featureFlags:\n  provider: launchdarkly\n  sdkKey: sdk-ad84d7f3-f7f4-4e09-be62-1263125ce87e\n  offline: false\nreplicaCount: 1\n',
         ('sdk-ad84d7f3-f7f4-4e09-be62-1263125ce87e',)),
    # JFrog Artifactory API key (AKCp…) in gradle.properties
    Case('h13-032', 'api_key', 'txt',
         'org.gradle.jvmargs=-Xmx2g\nartifactory_contextUrl=https://mirror.lab.example.cn/artifactory\nartifactory_user=zhouxl\nartifactory_password=AKCpY5HcNORdSpT0dNKx7TuEVFM5PsRBI2dfAGa0HGgLfF3DBagpaV8fkBaZusKFgBB82ZCZ2\n',
         ('AKCpY5HcNORdSpT0dNKx7TuEVFM5PsRBI2dfAGa0HGgLfF3DBagpaV8fkBaZusKFgBB82ZCZ2',)),
    # Hex.pm API key set with `mix hex.config api_key` (Elixir)
    Case('h13-033', 'api_key', 'note',
         '发布 elixir 包 pinyin_ex：\n$ mix hex.config api_key 082fb996e66e8c42a7445a0dfdd9ee5b\n$ mix hex.publish\nPublishing pinyin_ex 0.2.0\n',
         ('082fb996e66e8c42a7445a0dfdd9ee5b',)),
    # Neptune.ai API token (base64 of a JSON holding the key) in a training script
    Case('h13-034', 'api_key', 'py',
         'import neptune\n\nrun = neptune.init_run(\n    project="zhou/asr-thesis",\n    api_token="eyJhcGlfYWRkcmVzcyI6Imh0dHBzOi8vYXBwLm5lcHR1bmUuYWkiLCJhcGlfdXJsIjoiaHR0cHM6Ly9hcHAubmVwdHVuZS5haSIsImFwaV9rZXkiOiI5ZmZiY2IxZS1iN2I0LTRkZTUtOWYyNS03YzVmYzI1NDRmZGEifQ",\n)\nrun["params"] = {"lr": 3e-4}\n',
         ('eyJhcGlfYWRkcmVzcyI6Imh0dHBzOi8vYXBwLm5lcHR1bmUuYWkiLCJhcGlfdXJsIjoiaHR0cHM6Ly9hcHAubmVwdHVuZS5haSIsImFwaV9rZXkiOiI5ZmZiY2IxZS1iN2I0LTRkZTUtOWYyNS03YzVmYzI1NDRmZGEifQ',)),
    # ClearML access/secret key in clearml.conf (HOCON)
    Case('h13-035', 'api_key', 'txt',
         'api {\n    web_server: https://app.clear.ml\n    api_server: https://api.clear.ml\n    credentials {\n        "access_key" = "OQOOUI1570NK33Y9NPFC20T98HSKBZ"\n        "secret_key"  = "SI18PaFHo9lCCWKoiGNs57pjiARaMepJGMfw2Oykau2zHIfVl4"\n    }\n}\n',
         ('OQOOUI1570NK33Y9NPFC20T98HSKBZ', 'SI18PaFHo9lCCWKoiGNs57pjiARaMepJGMfw2Oykau2zHIfVl4')),
    # Roboflow API key in a YOLOv8 Colab notebook cell (ipynb JSON)
    Case('h13-036', 'api_key', 'json',
         '{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": 3,\n  "source": ["from roboflow import Roboflow\\n", "rf = Roboflow(api_key=\\"MJsSguFvdysqtaYourUB\\")\\n",\n   "ds = rf.workspace(\'lab\').project(\'hanzi-ocr\').version(4).download(\'yolov8\')"]}],\n "metadata": {}, "nbformat": 4, "nbformat_minor": 5}\n',
         ('MJsSguFvdysqtaYourUB',)),
    # Modal token id (ak-) and secret (as-) in `modal token set`
    Case('h13-037', 'api_key', 'note',
         '# 跑 whisper 转写用 modal 的 GPU\n$ modal token set --token-id ak-3vcd2PqW9wS8WSuBcgELnP --token-secret as-B3Bhvoi7cGpZeHVSZcALSk --profile=thesis\nToken verified successfully!\n',
         ('ak-3vcd2PqW9wS8WSuBcgELnP', 'as-B3Bhvoi7cGpZeHVSZcALSk')),
    # RunPod API key in `runpodctl config --apiKey`
    Case('h13-038', 'api_key', 'note',
         "租卡微调 Qwen：\nrunpodctl config --apiKey rpa_E150QPK7MZ702YA6WQJ88VRDPKV1INY7EKNJCJHE\nrunpodctl create pod --gpuType 'RTX 4090' --imageName runpod/pytorch\n",
         ('rpa_E150QPK7MZ702YA6WQJ88VRDPKV1INY7EKNJCJHE',)),
    # Zoom Server-to-Server OAuth client secret in a Node .env
    Case('h13-039', 'api_key', 'env',
         'ZOOM_ACCOUNT_ID=9FAuSW0L-aTWKW2ei4JsT1\nZOOM_CLIENT_ID=RzCk8maYC2qsQVCCjpmOa7\nZOOM_CLIENT_SECRET=OVptHG4lVmHQ0oNE1jlBiCFUHZBbvXiY\n',
         ('OVptHG4lVmHQ0oNE1jlBiCFUHZBbvXiY',)),
    # Raindrop.io test token in a Logseq plugin settings block
    Case('h13-040', 'api_key', 'md',
         '# Logseq 插件设置备份\n\n- raindrop 同步\n  - settings:: ```{"testToken": "81c06d62-0592-44e7-8df6-d94aac278860", "collection": 0}```\n  - 每天 23:00 同步\n',
         ('81c06d62-0592-44e7-8df6-d94aac278860',)),
    # Microsoft Translator Ocp-Apim-Subscription-Key in a Chrome extension background.js
    Case('h13-041', 'api_key', 'note',
         "// 划词翻译插件 background.js\nasync function translate(text) {\n  const r = await fetch('https://api.cognitive.microsofttranslator.com/translate?api-version=3.0&to=zh-Hans', {\n    method: 'POST',\n    headers: {\n      'Ocp-Apim-Subscription-Key': '3d699cee331331941bb7777a875478d8',\n      'Ocp-Apim-Subscription-Region': 'eastasia',\n      'Content-Type': 'application/json',\n    },\n    body: JSON.stringify([{ Text: text }]),\n  })\n  return r.json()\n}\n",
         ('3d699cee331331941bb7777a875478d8',)),
    # Naver Papago X-Naver-Client-Secret in a Korean-class script
    Case('h13-042', 'api_key', 'py',
         "# 한국어 수업: 파파고로 예문 번역\nheaders = {\n    'X-Naver-Client-Id': 'ronOjdUSwQIRXLKweCbv',\n    'X-Naver-Client-Secret': '21LAeJpHU2',\n}\nr = requests.post('https://openapi.naver.com/v1/papago/n2mt',\n                  headers=headers, data={'source': 'ko', 'target': 'zh-CN', 'text': s})\n",
         ('21LAeJpHU2',)),
    # key stored reversed and flipped at run time ([::-1]) to dodge scanners
    Case('h13-043', 'api_key', 'py',
         '# 别直接写明文，倒过来存（GitHub 的扫描就认不出了）\n_K = "WuVhJX7L8Uc8UlyLAB7v23lZLZS7yA3SFBhIxx0X"\nCOHERE_KEY = _K[::-1]\nco = cohere.Client(COHERE_KEY)\n',
         ('WuVhJX7L8Uc8UlyLAB7v23lZLZS7yA3SFBhIxx0X',)),
    # Windows .reg export with an API key as a REG_SZ value
    Case('h13-044', 'api_key', 'txt',
         'Windows Registry Editor Version 5.00\n\n[HKEY_CURRENT_USER\\Software\\NotesSync\\Cloud]\n"Endpoint"="https://notes-sync.example.cn/api"\n"ApiKey"="glc_eyJvIjoiOTcyMTE3IiwibiI6InN0YWNrLTE1NDM4Ni1obS1yZWFkIiwiayI6ImVwbHJCMmxINFFaYldWcFltcFpoUVNRdyIsIm0iOnsiciI6InByb2QtYXAtc291dGhlYXN0LTEifX0="\n"AutoSync"=dword:00000001\n',
         ('glc_eyJvIjoiOTcyMTE3IiwibiI6InN0YWNrLTE1NDM4Ni1obS1yZWFkIiwiayI6ImVwbHJCMmxINFFaYldWcFltcFpoUVNRdyIsIm0iOnsiciI6InByb2QtYXAtc291dGhlYXN0LTEifX0=',)),
    # access token in a URL fragment (#access_token=) of an OAuth implicit-flow redirect
    Case('h13-045', 'api_key', 'note',
         '登录完跳转的地址（调试时从地址栏复制的）：\nhttp://localhost:5173/callback#access_token=FUjYSWLZipFjRo6oXdRaaxw8DUJksj8vLV8mqz24&token_type=bearer&expires_in=2592000&scope=read\n前端用 location.hash 解析就行\n',
         ('FUjYSWLZipFjRo6oXdRaaxw8DUJksj8vLV8mqz24',)),
    # API key in a Kustomize secretGenerator literal
    Case('h13-046', 'api_key', 'yaml',
         'secretGenerator:\n  - name: translator-secrets\n    literals:\n      - DEEPSEEK_BASE=https://api.deepseek.com\n      - GOOGLE_TTS_KEY=AIzaBiOgPSXEMUDtM6dz26E0BLYPgphgMsJPAaq\n',
         ('AIzaBiOgPSXEMUDtM6dz26E0BLYPgphgMsJPAaq',)),
    # Hugging Face token in a JetBrains run configuration XML <env> element
    Case('h13-047', 'api_key', 'txt',
         '<component name="ProjectRunConfigurationManager">\n  <configuration name="finetune" type="PythonConfigurationType">\n    <envs>\n      <env name="PYTHONUNBUFFERED" value="1" />\n      <env name="HF_TOKEN" value="hf_IOwdbmm7DHx2n1Nk10IHghmZ7Pj5YVqSFW" />\n    </envs>\n    <option name="SCRIPT_NAME" value="$PROJECT_DIR$/train.py" />\n  </configuration>\n</component>\n',
         ('hf_IOwdbmm7DHx2n1Nk10IHghmZ7Pj5YVqSFW',)),
    # OpenAI project key in a Bruno .bru request file's auth:bearer block
    Case('h13-048', 'api_key', 'txt',
         'meta {\n  name: chat-completion\n  type: http\n  seq: 1\n}\n\npost {\n  url: https://api.openai.com/v1/chat/completions\n  body: json\n  auth: bearer\n}\n\nauth:bearer {\n  token: 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\n}\n',
         ('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',)),
    # TMDB v4 read access token (a JWT) in a Kotlin OkHttp interceptor
    Case('h13-049', 'auth_header', 'note',
         'class TmdbAuth : Interceptor {\n    override fun intercept(chain: Interceptor.Chain): Response {\n        val req = chain.request().newBuilder()\n            .header("Authorization", "Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJhdWQiOiJkNzE0MzBlYTc2MzQ4ZDcyNTM0MThmNmRmYzRkMGUxYSIsIm5iZiI6MTczMzAwMDAwMCwic3ViIjoiZjJhOTc4MTJmYTAxNGVjODFhN2JiYTFkIiwic2NvcGVzIjpbImFwaV9yZWFkIl0sInZlcnNpb24iOjF9.x8lfqtvFd8GvMCblefrf8ftkBXRSE6UYftUCFCXwu-A")\n            .build()\n        return chain.proceed(req)\n    }\n}\n// 看电影学英语 app，片单来自 TMDB\n',
         ('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJhdWQiOiJkNzE0MzBlYTc2MzQ4ZDcyNTM0MThmNmRmYzRkMGUxYSIsIm5iZiI6MTczMzAwMDAwMCwic3ViIjoiZjJhOTc4MTJmYTAxNGVjODFhN2JiYTFkIiwic2NvcGVzIjpbImFwaV9yZWFkIl0sInZlcnNpb24iOjF9.x8lfqtvFd8GvMCblefrf8ftkBXRSE6UYftUCFCXwu-A',)),
    # LINE Notify token in a crontab curl line
    Case('h13-050', 'auth_header', 'note',
         '# 每天早上 7 点推送今日单词\n0 7 * * * curl -s -X POST https://notify-api.line.me/api/notify -H \'Authorization: Bearer evI5d13mAen3VOqxMjTRj07d0kjg8i8aaJR0xE6mAKw\' -F "message=$(shuf -n1 ~/words.txt)"\n',
         ('evI5d13mAen3VOqxMjTRj07d0kjg8i8aaJR0xE6mAKw',)),
    # miHoYo (米游社) ltoken_v2 and cookie_token_v2 in a daily sign-in script config
    Case('h13-051', 'auth_header', 'yaml',
         '# 米游社自动签到 config.yaml\naccount:\n  cookie: "ltuid_v2=128316767; ltoken_v2=v2_heOMPBKtLZykWPvQ8HrHnPqcYGMuYYFnYR5W5JIsm68s6giHLHt2166N0X3xr9vwyJs9Vco6HDQE_P6OgVUzhC3fo8hnqtgFGTiOvPg8csYukf; account_mid_v2=99bc7qd51drrpij1f0; cookie_token_v2=v2_1mMBBeHH36NbXKjItVaoxopNXxixBk52iw2QDn0gN1Z92ntosq_IpvozIw23txBy7r_vpCBNdsuHAl7LsB8eO6tMDx1HglMUQo_ZVabusWC9BL"\n  stuid: \'\'\ngames:\n  cn:\n    genshin:\n      checkin: true\n',
         ('v2_heOMPBKtLZykWPvQ8HrHnPqcYGMuYYFnYR5W5JIsm68s6giHLHt2166N0X3xr9vwyJs9Vco6HDQE_P6OgVUzhC3fo8hnqtgFGTiOvPg8csYukf', 'v2_1mMBBeHH36NbXKjItVaoxopNXxixBk52iw2QDn0gN1Z92ntosq_IpvozIw23txBy7r_vpCBNdsuHAl7LsB8eO6tMDx1HglMUQo_ZVabusWC9BL')),
    # WeRead (微信读书) wr_skey cookie in a highlights-export script
    Case('h13-052', 'auth_header', 'py',
         "# 导出微信读书划线到 Obsidian\nCOOKIES = {\n    'wr_vid': '352822532',\n    'wr_skey': 'cjIDpGnq',\n    'wr_rt': 'web%40ZLuynOC46Qv196RIoWY0PI_WL',\n}\nr = session.get('https://weread.qq.com/web/book/bookmarklist', params={'bookId': bid}, cookies=COOKIES)\n",
         ('cjIDpGnq',)),
    # Aliyun Drive (阿里云盘) refresh_token in an AList storage addition JSON
    Case('h13-053', 'auth_header', 'json',
         '{\n  "mount_path": "/阿里云盘",\n  "driver": "AliyundriveOpen",\n  "addition": "{\\"root_folder_id\\":\\"root\\",\\"refresh_token\\":\\"85ece6cd75d969034ed6cea10a5ba8db\\",\\"order_by\\":\\"name\\",\\"drive_type\\":\\"resource\\"}"\n}\n',
         ('85ece6cd75d969034ed6cea10a5ba8db',)),
    # Okta API token in an `Authorization: SSWS …` header of a PowerShell Invoke-RestMethod
    Case('h13-054', 'auth_header', 'note',
         "$headers = @{ Authorization = 'SSWS 00z2_EzbDPjR7IkkUwXSnJaBeuiYeHkUpmoG6PVZcU'; Accept = 'application/json' }\nInvoke-RestMethod -Uri 'https://dev-4821930.okta.com/api/v1/users?limit=25' -Headers $headers\n",
         ('00z2_EzbDPjR7IkkUwXSnJaBeuiYeHkUpmoG6PVZcU',)),
    # Kakao REST API key in an `Authorization: KakaoAK` header in a Korean-class note
    Case('h13-055', 'auth_header', 'note',
         "카카오 번역 API 테스트 (한국어 수업 과제)\ncurl -G 'https://dapi.kakao.com/v2/translation/translate' \\\n  -H 'Authorization: KakaoAK 16addb8d14aef6b649afc32569edfff3' \\\n  --data-urlencode 'query=안녕하세요' -d src_lang=kr -d target_lang=cn\n",
         ('16addb8d14aef6b649afc32569edfff3',)),
    # Splunk HEC token in a Fluent Bit output (Splunk_Token) config
    Case('h13-056', 'auth_header', 'txt',
         '[OUTPUT]\n    Name          splunk\n    Match         *\n    Host          hec.lab-splunk.cn\n    Port          8088\n    Splunk_Token  52c90c1a-419e-4122-ae34-873fd31e3edb\n    TLS           On\n',
         ('52c90c1a-419e-4122-ae34-873fd31e3edb',)),
    # Elasticsearch `Authorization: ApiKey <base64 id:key>` in a Kibana Dev Tools curl copy
    Case('h13-057', 'auth_header', 'note',
         'curl -X GET "https://es.course-lab.cn:9200/notes/_search?pretty" \\\n  -H "Authorization: ApiKey czkxelJOTzNKRXdhcU84Q0FDcGc6ZElzeWdMUlhtOHU5S0NWMW5yOVZMcQ==" \\\n  -H \'Content-Type: application/json\' -d \'{"query":{"match":{"body":"词向量"}}}\'\n',
         ('czkxelJOTzNKRXdhcU84Q0FDcGc6ZElzeWdMUlhtOHU5S0NWMW5yOVZMcQ==',)),
    # Opsgenie GenieKey in an Alertmanager opsgenie_configs block
    Case('h13-058', 'auth_header', 'yaml',
         "receivers:\n  - name: opsgenie\n    opsgenie_configs:\n      - api_key: 7c2a3d01-a7fd-4e01-8888-707d49423541\n        api_url: https://api.opsgenie.com/\n        message: '{{ .CommonAnnotations.summary }}'\n",
         ('7c2a3d01-a7fd-4e01-8888-707d49423541',)),
    # Steam steamLoginSecure cookie in a market price scraper
    Case('h13-059', 'auth_header', 'py',
         "cookies = {\n    'steamLoginSecure': '35822701667420009%7C%7CeyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJyOjE2YzQzZDliMDkyZGZmOTMiLCJzdWIiOiI3NDg2MTYwNDI5ODc4NzM5MiIsImF1ZCI6WyJ3ZWIiXSwiZXhwIjoxNzM1MDAwMDAwfQ.4YeWHKUH6Ze-3BZ-WLLi6goWdR6rpZzQeT0aaXy2hx4',\n    'sessionid': '3431fdde450df299232f448a',\n}\nr = requests.get('https://steamcommunity.com/market/pricehistory/', params={'appid': 730}, cookies=cookies)\n",
         ('35822701667420009%7C%7CeyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJyOjE2YzQzZDliMDkyZGZmOTMiLCJzdWIiOiI3NDg2MTYwNDI5ODc4NzM5MiIsImF1ZCI6WyJ3ZWIiXSwiZXhwIjoxNzM1MDAwMDAwfQ.4YeWHKUH6Ze-3BZ-WLLi6goWdR6rpZzQeT0aaXy2hx4',)),
    # Douban dbcl2 cookie passed to Selenium driver.add_cookie
    Case('h13-060', 'auth_header', 'py',
         'driver.get(\'https://www.douban.com\')\ndriver.add_cookie({\'name\': \'dbcl2\', \'value\': \'"709913385:sKBg7IExwKo"\', \'domain\': \'.douban.com\'})\ndriver.add_cookie({\'name\': \'ck\', \'value\': \'pelD\', \'domain\': \'.douban.com\'})\ndriver.get(\'https://book.douban.com/mine?status=collect\')  # 导出读过的书\n',
         ('"709913385:sKBg7IExwKo"',)),
    # Bearer token in a GraphQL Playground HTTP HEADERS pane copy
    Case('h13-061', 'auth_header', 'json',
         '{\n  "Authorization": "Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI1MDA5NjQiLCJyb2xlIjoic3R1ZGVudCIsImlhdCI6MTczMzEwMDAwMCwiZXhwIjoxNzY0NjM2MDAwfQ.evgiWdO9q9ubQUjoCm0PsU0zNW0CgJqx_8L5EEE6COk",\n  "X-Client": "playground"\n}\n',
         ('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI1MDA5NjQiLCJyb2xlIjoic3R1ZGVudCIsImlhdCI6MTczMzEwMDAwMCwiZXhwIjoxNzY0NjM2MDAwfQ.evgiWdO9q9ubQUjoCm0PsU0zNW0CgJqx_8L5EEE6COk',)),
    # Google OAuth access token (ya29.) in a grpcurl -H authorization metadata flag
    Case('h13-062', 'auth_header', 'note',
         'grpcurl -H \'authorization: Bearer ya29.a0dSDhzP6AoVy4nWt1LVw7HvjLjVb4lkDky8j4aHphQqMDT3dLDRgtTWB1wX6Mur8ilGQPBVIYstxl-RZumIfR4jPThH9AjFyiJPYZZAc3Kw5BRXosI6hco_CxHt12XxpDp14pqIgtVjlzcquYYj0KAP\' \\\n  -d \'{"parent": "projects/hanzi-ocr/locations/global"}\' \\\n  translate.googleapis.com:443 google.cloud.translation.v3.TranslationService/GetSupportedLanguages\n',
         ('ya29.a0dSDhzP6AoVy4nWt1LVw7HvjLjVb4lkDky8j4aHphQqMDT3dLDRgtTWB1wX6Mur8ilGQPBVIYstxl-RZumIfR4jPThH9AjFyiJPYZZAc3Kw5BRXosI6hco_CxHt12XxpDp14pqIgtVjlzcquYYj0KAP',)),
    # Burp Suite saved item XML whose base64 request holds a session cookie
    Case('h13-063', 'auth_header', 'txt',
         '<?xml version="1.0"?>\n<items burpVersion="2024.10">\n  <item>\n    <url><![CDATA[https://jwxt.example-univ.edu.cn/api/v1/grades]]></url>\n    <method><![CDATA[GET]]></method>\n    <request base64="true"><![CDATA[R0VUIC9hcGkvdjEvZ3JhZGVzIEhUVFAvMS4xDQpIb3N0OiBqd3h0LmV4YW1wbGUtdW5pdi5lZHUuY24NCkNvb2tpZTogSlNFU1NJT05JRD1EelBsQmJyM2ltamZNaW1mcTRJcjBXdjNDTXNORkN4Szsgcm91dGU9YTENClVzZXItQWdlbnQ6IE1vemlsbGEvNS4wDQoNCg==]]></request>\n    <status>200</status>\n  </item>\n</items>\n',
         ('R0VUIC9hcGkvdjEvZ3JhZGVzIEhUVFAvMS4xDQpIb3N0OiBqd3h0LmV4YW1wbGUtdW5pdi5lZHUuY24NCkNvb2tpZTogSlNFU1NJT05JRD1EelBsQmJyM2ltamZNaW1mcTRJcjBXdjNDTXNORkN4Szsgcm91dGU9YTENClVzZXItQWdlbnQ6IE1vemlsbGEvNS4wDQoNCg==',)),
    # session token in a Wireshark 'Follow HTTP Stream' text of a campus captive portal
    Case('h13-064', 'auth_header', 'note',
         'Wireshark 抓包作业（HTTP 明文）：\nPOST /portal/heartbeat HTTP/1.1\nHost: 10.0.0.55\nContent-Type: application/x-www-form-urlencoded\nX-Portal-Token: 9z0ziaK0iuUDQ1d3dtxlMKmxiI_5wJ9uZdoxqD9m-3-HtHVssrfhTqbX8WBFJ-ce\nContent-Length: 14\n\nuserIndex=2f9a\n\nHTTP/1.1 200 OK\n{"result":"success"}\n',
         ('9z0ziaK0iuUDQ1d3dtxlMKmxiI_5wJ9uZdoxqD9m-3-HtHVssrfhTqbX8WBFJ-ce',)),
    # etcdctl --user root:password in a Kubernetes course transcript
    Case('h13-065', 'connection_string', 'note',
         '$ ETCDCTL_API=3 etcdctl --endpoints=https://127.0.0.1:2379 --user root:zAg5iiZl7t#02 \\\n    --cacert=/etc/kubernetes/pki/etcd/ca.crt get /registry/namespaces --prefix --keys-only\n',
         ('zAg5iiZl7t#02',)),
    # Vault userpass login with password= on the command line
    Case('h13-066', 'connection_string', 'note',
         'vault login -method=userpass -address=https://vault.lab.internal:8200 username=liwei password=KtNFylqo4DS5\nSuccess! You are now authenticated.\n',
         ('KtNFylqo4DS5',)),
    # MinIO client `mc alias set` with access and secret key positional
    Case('h13-067', 'connection_string', 'note',
         '# 实验室 NAS 上的 MinIO\nmc alias set labnas http://192.168.31.20:9000 LVI96GU8P02USMI5NUSX ixWHXXb9YVyS48gcksxuMj4x6yh09WISNs2Etm40\nmc ls labnas/datasets\n',
         ('LVI96GU8P02USMI5NUSX', 'ixWHXXb9YVyS48gcksxuMj4x6yh09WISNs2Etm40')),
    # ~/.passwd-s3fs ACCESS:SECRET line before an s3fs mount
    Case('h13-068', 'connection_string', 'note',
         'echo XRGP0IQSJF9R1VQ1CIOB:R1xdcybfGXq4tRyXdyxdyQ1rUegDq708GMX2BfK/ > ~/.passwd-s3fs\nchmod 600 ~/.passwd-s3fs\ns3fs course-videos /mnt/videos -o passwd_file=~/.passwd-s3fs -o url=https://oss-cn-hangzhou.aliyuncs.com\n',
         ('XRGP0IQSJF9R1VQ1CIOB:R1xdcybfGXq4tRyXdyxdyQ1rUegDq708GMX2BfK/',)),
    # Linphone linphonerc SIP account [auth_info_0] passwd=
    Case('h13-069', 'connection_string', 'txt',
         '[proxy_0]\nreg_proxy=<sip:sip.linphone.org;transport=tls>\nreg_identity="Wang Fang" <sip:wangfang88@sip.linphone.org>\nreg_expires=3600\n\n[auth_info_0]\nusername=wangfang88\npasswd=fYIgeq8kbhj\ndomain=sip.linphone.org\n',
         ('fYIgeq8kbhj',)),
    # restic REST server repository URL with user:password
    Case('h13-070', 'connection_string', 'env',
         'RESTIC_REPOSITORY=rest:https://backup:YACgWVfCEKZd3s@nas.home.arpa:8000/laptop\nRESTIC_PASSWORD_FILE=/home/me/.restic-pass\n',
         ('YACgWVfCEKZd3s',)),
    # PlanetScale MySQL URL with a pscale_pw_ password
    Case('h13-071', 'connection_string', 'env',
         "DATABASE_URL='mysql://bi7msa4i2150:pscale_pw_52bu-quW5kqIor-WgQQB_Ipg1dLCBMHOJhGMHX8EsQj@aws.connect.psdb.cloud/vocab?sslaccept=strict'\n",
         ('pscale_pw_52bu-quW5kqIor-WgQQB_Ipg1dLCBMHOJhGMHX8EsQj',)),
    # Turso libsql URL with an authToken query parameter
    Case('h13-072', 'connection_string', 'env',
         'TURSO_URL=libsql://flashcards-hanzi.turso.io?authToken=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJhIjoicnciLCJpYXQiOjE3MzMwMDAwMDAsImlkIjoiOTE0NDFiMzMtNjI4Mi00MGE3LWE3NGQtZDk4ZTM3ZWNkYjQ1In0.43VGXigrP85XrPTbqYDRiily81KWd5XZCSxcLM5_UpA\n',
         ('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJhIjoicnciLCJpYXQiOjE3MzMwMDAwMDAsImlkIjoiOTE0NDFiMzMtNjI4Mi00MGE3LWE3NGQtZDk4ZTM3ZWNkYjQ1In0.43VGXigrP85XrPTbqYDRiily81KWd5XZCSxcLM5_UpA',)),
    # Prisma Accelerate prisma:// URL with an api_key query parameter
    Case('h13-073', 'connection_string', 'env',
         'DATABASE_URL="prisma://accelerate.prisma-data.net/?api_key=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ0ZW5hbnRfaWQiOiJkNTI0NzNiNTY2NzBkODI1ZWI1NDc2OTY0N2MxYzVlNSIsInNlY3VyZV9rZXkiOiJza19yM2ZMQTVYTHpGRXZnRlk5U214S2dzN04iLCJhcGlfa2V5X2lkIjoiOTZjODUzMzYtYzg4Ny00ZWUwLTgxOTUtYzQxMGRjNTgxYzA1In0.SPgPiB-2HFxXWdnLtELuHazzFZIErT5xOukmcqDP4Zc"\nDIRECT_URL="postgresql://localhost:5432/notes"\n',
         ('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ0ZW5hbnRfaWQiOiJkNTI0NzNiNTY2NzBkODI1ZWI1NDc2OTY0N2MxYzVlNSIsInNlY3VyZV9rZXkiOiJza19yM2ZMQTVYTHpGRXZnRlk5U214S2dzN04iLCJhcGlfa2V5X2lkIjoiOTZjODUzMzYtYzg4Ny00ZWUwLTgxOTUtYzQxMGRjNTgxYzA1In0.SPgPiB-2HFxXWdnLtELuHazzFZIErT5xOukmcqDP4Zc',)),
    # Qt QSqlDatabase setPassword in a C++ course project
    Case('h13-074', 'connection_string', 'note',
         'QSqlDatabase db = QSqlDatabase::addDatabase("QMYSQL");\ndb.setHostName("10.12.0.8");\ndb.setDatabaseName("library_mgmt");\ndb.setUserName("stu2023");\ndb.setPassword("9K2ldeOST@773");\nif (!db.open()) qDebug() << db.lastError().text();\n',
         ('9K2ldeOST@773',)),
    # sqlx DATABASE_URL in .cargo/config.toml [env]
    Case('h13-075', 'connection_string', 'txt',
         '[env]\nDATABASE_URL = "postgres://rustacean:6D27kh1xt6Q7O@localhost:5432/wordbook"\nSQLX_OFFLINE = "false"\n',
         ('6D27kh1xt6Q7O',)),
    # FreeRADIUS clients.conf shared secret for a dorm Wi-Fi AP
    Case('h13-076', 'connection_string', 'txt',
         'client dorm_ap_3f {\n    ipaddr = 192.168.8.2\n    secret = ygXJspkezSo1C6iv\n    shortname = dorm-3f\n    nas_type = other\n}\n',
         ('ygXJspkezSo1C6iv',)),
    # Go sqlserver:// URL with sa password in sql.Open
    Case('h13-077', 'connection_string', 'note',
         'db, err := sql.Open("sqlserver", "sqlserver://sa:GeVeucGPh4!@localhost:1433?database=edu_admin&encrypt=disable")\nif err != nil {\n\tlog.Fatal(err)\n}\n',
         ('GeVeucGPh4!',)),
    # Firebird isql -user SYSDBA -password for a course database
    Case('h13-078', 'connection_string', 'note',
         'isql -user SYSDBA -password f00lJQPF1F localhost:/var/lib/firebird/data/library.fdb\nSQL> SHOW TABLES;\n',
         ('f00lJQPF1F',)),
    # WeeChat ZNC server password user/network:password
    Case('h13-079', 'connection_string', 'note',
         '/server add znc bouncer.my-vps.net/6697 -ssl\n/set irc.server.znc.password "liang/libera:ZYbVPYJMGFHV"\n/connect znc\n',
         ('liang/libera:ZYbVPYJMGFHV',)),
    # sendxmpp -u -p -j in a cron alert line
    Case('h13-080', 'connection_string', 'note',
         '*/10 * * * * /opt/check.sh || echo "服务器挂了" | sendxmpp -t -u alertbot -p cDbAho3jGos -j jabber.example.org me@jabber.example.org\n',
         ('cDbAho3jGos',)),
    # OCI API signing key (PKCS#8 with the trailing OCI_API_KEY line) beside ~/.oci/config
    Case('h13-081', 'private_key', 'note',
         '~/.oci/config:\n[DEFAULT]\nuser=ocid1.user.oc1..aaaauwoth9rpmihyexsekbajad9pz2pl1olj98669pp5fo0s76r30pqdnpr7\nfingerprint=6d:4f:24:8e:18:9e:3b:46:7e:1e:7f:95:54:a7:68:20\nkey_file=~/.oci/oci_api_key.pem\ntenancy=ocid1.tenancy.oc1..aaaassu5jskhkakb529wm8iid3p0tkcnagwfhcokbq9hu5hyi5d6ape5tuw6\nregion=ap-tokyo-1\n\n~/.oci/oci_api_key.pem:\n-----BEGIN PRIVATE KEY-----\nMIIEvwIBADANBgkqhkiG9w0BAQEFAASCBKkwggSlAgEAAoIBAQDXT+iBLP2mayPX\nXZi2W2YODOXd+B0y8e53p0to9rkc8sb80ipXGy1qYgVG6eI47NuywS9AJ8+UAGmc\nH4Ick6TfkpwuBOPVYreyPxZLI8YMH0wNhr9G5CKFiIv9ci0+BEvaq/5/dIYQA4HU\nYrRHsERC4sd9ep/gE22PDaaP4+Pw4ufMz6hmpO4OVeRDABFyyDFioxVimt/QSAn/\nb1UoZS7Qku/UlITMGodcnP9ceqZw1uANhSCuixmHOPXGpgDdxPpgHEb9vGDzUSaN\nSsjXNehTr/lmc/TTn4lfy2RVjXw4Q/ZfL+kX4n8Gw25kEGtYhu/olO+Kql5Sscoi\nNj4/uYH7AgMBAAECggEAQ5fEZ/kV0A7Ge6/YZzcePL7z0tE3aWzl7g5I8DS0PFBD\nA89+l0Xi5gjLm02FRVWmSuG20a8tzUqr3OVPVWVMVxuRiCjk1XJeNMj1WLVsURXq\nLDznA3xPEhihyfj0FwoGPinMhXqxM4nGUkSCUBcX9t92vP+n/RJcTJJ+faGPR2mA\n5HMjMEgJGipn/aNNCzdstwdELAy964jcF0AOK3Jd8p5PWyH4XdLdJE3v3b+Ryobu\ncU5WDz2UxUERB0EYECLDcvzQVcHpMLPtQl5b27WsggFi08FxIqQ+oqcCZZUK//53\nYb5AxdzN3/ZRg57nTunsv41mC3p1tp+vb2eRb7TPQQKBgQDwZGCTyc1rc0uuo87/\nhOuLvxBqQh0vKBqEE+HVUYAOF0zfncnCC05BmcfAwJsSS/jk71m30Gzoh/uWU97g\nOr4CLEZ2In1tznEXDYykj16rVdaggHC+h0QZH9ziueEKWmZNd5EJLOruXAHnvqeA\n8ZiZeXwtTcXN00j9IdyGsUHzKwKBgQDlSquOtaNB+YmMTGfPbYuFLqjmwwI1C7xy\nYigSeP6LMp0QeEZf6MyIw5DuVM585kU4Txw2WtM13T9vUkzlpGkZbZeCoiFGLiTL\nqBy60FhXzC2mYOuI3kUsuTRY/LXRydbmC+ia1V8X3KZIVTj/u0DpsItjPOlT4yi4\nG8/W3zGEcQKBgQDECrgQDjTt+dqwk3pOO1H0Z161qTEvsd7d83DqjEqIM0xH2OAe\n1SV+rjCO6wQLydUyrldWZi1K/QqZr9BEwOMP1pen47yyffcQO8aEtT8ZLymXPuez\nGZDZhHiYlcoGrW5corOu7eixdms/WOY1a9Fs5/vy3kf/8NzHQoQbfBcyfQKBgQDg\nWRtbWyYOW5bWC7xXHRwyh+EDSTNTq9QLJzeGO5TzpeZAQy64kRPvjUq1p40ScEyy\nN9Wm6V9XiM+UoLZUy3V6R9zDGNftzyB5lFfoAgsufLz92j8bgD+27s/lcf6E8jSu\nimBhfvy4YFDi3WAT+Kge/3qi8upqBg3FdpD58RCGQQKBgQDj1BO0XmnR3zMBSYDL\nvvoLulVmg5kv5QGHgr7FCr6ni/2ujs3LuEPWzY2GT21O1bi3j67r2PSfFVtN5Sdp\nSVBBixAiRCcA45s1v6BDPnnVqb1Xh7+7bnDcegkEjwXmSpe9266qKYYq+gmnLiNn\nFTM3dlIKcZKZmShzzvavBPSrpQ==\n-----END PRIVATE KEY-----\nOCI_API_KEY\n',
         ('MIIEvwIBADANBgkqhkiG9w0BAQEFAASCBKkwggSlAgEAAoIBAQDXT+iBLP2mayPX', 'XZi2W2YODOXd+B0y8e53p0to9rkc8sb80ipXGy1qYgVG6eI47NuywS9AJ8+UAGmc', 'H4Ick6TfkpwuBOPVYreyPxZLI8YMH0wNhr9G5CKFiIv9ci0+BEvaq/5/dIYQA4HU', 'YrRHsERC4sd9ep/gE22PDaaP4+Pw4ufMz6hmpO4OVeRDABFyyDFioxVimt/QSAn/', 'b1UoZS7Qku/UlITMGodcnP9ceqZw1uANhSCuixmHOPXGpgDdxPpgHEb9vGDzUSaN', 'SsjXNehTr/lmc/TTn4lfy2RVjXw4Q/ZfL+kX4n8Gw25kEGtYhu/olO+Kql5Sscoi', 'Nj4/uYH7AgMBAAECggEAQ5fEZ/kV0A7Ge6/YZzcePL7z0tE3aWzl7g5I8DS0PFBD', 'A89+l0Xi5gjLm02FRVWmSuG20a8tzUqr3OVPVWVMVxuRiCjk1XJeNMj1WLVsURXq', 'LDznA3xPEhihyfj0FwoGPinMhXqxM4nGUkSCUBcX9t92vP+n/RJcTJJ+faGPR2mA', '5HMjMEgJGipn/aNNCzdstwdELAy964jcF0AOK3Jd8p5PWyH4XdLdJE3v3b+Ryobu', 'cU5WDz2UxUERB0EYECLDcvzQVcHpMLPtQl5b27WsggFi08FxIqQ+oqcCZZUK//53', 'Yb5AxdzN3/ZRg57nTunsv41mC3p1tp+vb2eRb7TPQQKBgQDwZGCTyc1rc0uuo87/', 'hOuLvxBqQh0vKBqEE+HVUYAOF0zfncnCC05BmcfAwJsSS/jk71m30Gzoh/uWU97g', 'Or4CLEZ2In1tznEXDYykj16rVdaggHC+h0QZH9ziueEKWmZNd5EJLOruXAHnvqeA', '8ZiZeXwtTcXN00j9IdyGsUHzKwKBgQDlSquOtaNB+YmMTGfPbYuFLqjmwwI1C7xy', 'YigSeP6LMp0QeEZf6MyIw5DuVM585kU4Txw2WtM13T9vUkzlpGkZbZeCoiFGLiTL', 'qBy60FhXzC2mYOuI3kUsuTRY/LXRydbmC+ia1V8X3KZIVTj/u0DpsItjPOlT4yi4', 'G8/W3zGEcQKBgQDECrgQDjTt+dqwk3pOO1H0Z161qTEvsd7d83DqjEqIM0xH2OAe', '1SV+rjCO6wQLydUyrldWZi1K/QqZr9BEwOMP1pen47yyffcQO8aEtT8ZLymXPuez', 'GZDZhHiYlcoGrW5corOu7eixdms/WOY1a9Fs5/vy3kf/8NzHQoQbfBcyfQKBgQDg', 'WRtbWyYOW5bWC7xXHRwyh+EDSTNTq9QLJzeGO5TzpeZAQy64kRPvjUq1p40ScEyy', 'N9Wm6V9XiM+UoLZUy3V6R9zDGNftzyB5lFfoAgsufLz92j8bgD+27s/lcf6E8jSu', 'imBhfvy4YFDi3WAT+Kge/3qi8upqBg3FdpD58RCGQQKBgQDj1BO0XmnR3zMBSYDL', 'vvoLulVmg5kv5QGHgr7FCr6ni/2ujs3LuEPWzY2GT21O1bi3j67r2PSfFVtN5Sdp', 'SVBBixAiRCcA45s1v6BDPnnVqb1Xh7+7bnDcegkEjwXmSpe9266qKYYq+gmnLiNn', 'FTM3dlIKcZKZmShzzvavBPSrpQ==')),
    # GitHub App private key pasted into .env with spaces for newlines (web form copy)
    Case('h13-082', 'private_key', 'env',
         'GITHUB_APP_ID=464754\nGITHUB_APP_PRIVATE_KEY="-----BEGIN RSA PRIVATE KEY----- MIIEowIBAAKCAQEAxffsGWsXJcyPu1OpLz5spRWrPauT8mfhZAJan0uUxFfYIL/u 6vvQaoq8a7V3Dn9Ag9/zz8kFbB0Y42jsscwSItiBynbG7co+nTqv8LkuOK83/pDk ILJNXJs8lZyzpV45vW75qwxvz7Iw26nXbZJw+Lkqv69P3iXOYQEeikrc4ifhdOO9 fq4c84VQ7v9ywYtLntKuA+lFzznn9gIJLirpF0zuPg/VY4MGfWvKpJjLlQlKOeTh x/1lFz02B+DZ1ZQVNyoy6ZGtukxAypHF8PflE+l5GTBPm6Ws4m9kI3Zipz7TgbA8 a28fxznhtPqH4qt8gV+YtNQokTEsjuKI6RjW3wIDAQABAoIBAH/ObSiD0K/gfrKL cmBDxtRVRvZLfPo0QnjUZDkPDH4t0CRkhRRDeewuoTJQNwqu8LGyta7hspR3vIek R5sJinPgnvpc8FS4CvBq4QdiJgsGY/n/BKhvNC6jMdvNDNWoHVLFAH6DSvQlsBFA dwoQTsrkkEqsHb3nXnOVy2ewqSV/QYxR0h0y5FTG7p4UEdIQMCxT+99FRk5iah38 YvguQUpsk8RWobnwd0d3kw5jSWSPNDlTtcS6RhPLW4dlPdXxxlHFHGSxSUvqSc5o huT8Hl8py0z1b4ynQ85H6e6mW+RqxW9cP1v54lYdRclMoE++g9parbpgAOxHwdHu h6LujtECgYEAy2judy8647btqeh/FlBhV/DlwiGPU1i8BtXB/261ZJzwwH/fX0kg 4hX+V2MmcVuK1HSUU6dc/S6W0K6WxrxCBiCN6A4H7GokxrdQjT140ckFUu5cTB1T 0VnWWjwgd1Ixg29TRQo25wLORl/eq6N2gxKEu5IygJZFYGRekdh7YG0CgYEA+SbW rigEt/lf+oqeIWyEWJmVHTy6XA9DtMK9z83aHhwzppd2kzcJqcuk6BrLI9SwDtXI 5QLYatMjNhnvZKdOSCLMwa4WjVsGB+u34Kf1NfRhB72M3ixE265545aFty8DmLCi 2J4FOb9aMZz/0wYJOylIO8vX9VQ8UWnvf6RO/PsCgYAtplr+PIdG26Ly4s7Cvz9Z cSLfMpDr75ojHo3vOXVUIzSUvx3uUIcktjLigcn63sSFcbRoIcNovq/yHXyRFWbr 4Rp33c5BbIDcZ/+X8xfOXQLo3b2xB1PsQ/ErRxsyLCwYhz902xn/Nk381T8v3fuW 5u0K+4CCAzeGrn/a02688QKBgQDG5ahv82aA78UdH1fJWvX0PPb7FiW3pD/qp6Qb pju/2cep8DQqpb9DG10UJX+RpRK/ZQ8xMypNbSwo3l9rvNwTXiSTYUSDp+ySmix6 Xdq1Ldff9APmwPRfY1POybUJXbDDTg9SWiPVy9pWzPy1G5Z28ifGBJ7sLEjSvX0C KssbzQKBgE2U2tzaHza/jcUC7IgylWLePC5Bmi+jZV/coZZa3JTCCcDmcoJMw0OT ZxMlbb9BPe3Sqm4EUzeHsG0k1d7V8E2lP4ltC+Kmy/WAJNXtm1mIAddUJqlYsp1W mPTBiW1NzeXYPPoUyjBBMyeTZVKR8mrcanpoIvgYjUvu3Y7Vc4RS -----END RSA PRIVATE KEY-----"\n',
         ('MIIEowIBAAKCAQEAxffsGWsXJcyPu1OpLz5spRWrPauT8mfhZAJan0uUxFfYIL/u 6vvQaoq8a7V3Dn9Ag9/zz8kFbB0Y42jsscwSItiBynbG7co+nTqv8LkuOK83/pDk ILJNXJs8lZyzpV45vW75qwxvz7Iw26nXbZJw+Lkqv69P3iXOYQEeikrc4ifhdOO9 fq4c84VQ7v9ywYtLntKuA+lFzznn9gIJLirpF0zuPg/VY4MGfWvKpJjLlQlKOeTh x/1lFz02B+DZ1ZQVNyoy6ZGtukxAypHF8PflE+l5GTBPm6Ws4m9kI3Zipz7TgbA8 a28fxznhtPqH4qt8gV+YtNQokTEsjuKI6RjW3wIDAQABAoIBAH/ObSiD0K/gfrKL cmBDxtRVRvZLfPo0QnjUZDkPDH4t0CRkhRRDeewuoTJQNwqu8LGyta7hspR3vIek R5sJinPgnvpc8FS4CvBq4QdiJgsGY/n/BKhvNC6jMdvNDNWoHVLFAH6DSvQlsBFA dwoQTsrkkEqsHb3nXnOVy2ewqSV/QYxR0h0y5FTG7p4UEdIQMCxT+99FRk5iah38 YvguQUpsk8RWobnwd0d3kw5jSWSPNDlTtcS6RhPLW4dlPdXxxlHFHGSxSUvqSc5o huT8Hl8py0z1b4ynQ85H6e6mW+RqxW9cP1v54lYdRclMoE++g9parbpgAOxHwdHu h6LujtECgYEAy2judy8647btqeh/FlBhV/DlwiGPU1i8BtXB/261ZJzwwH/fX0kg 4hX+V2MmcVuK1HSUU6dc/S6W0K6WxrxCBiCN6A4H7GokxrdQjT140ckFUu5cTB1T 0VnWWjwgd1Ixg29TRQo25wLORl/eq6N2gxKEu5IygJZFYGRekdh7YG0CgYEA+SbW rigEt/lf+oqeIWyEWJmVHTy6XA9DtMK9z83aHhwzppd2kzcJqcuk6BrLI9SwDtXI 5QLYatMjNhnvZKdOSCLMwa4WjVsGB+u34Kf1NfRhB72M3ixE265545aFty8DmLCi 2J4FOb9aMZz/0wYJOylIO8vX9VQ8UWnvf6RO/PsCgYAtplr+PIdG26Ly4s7Cvz9Z cSLfMpDr75ojHo3vOXVUIzSUvx3uUIcktjLigcn63sSFcbRoIcNovq/yHXyRFWbr 4Rp33c5BbIDcZ/+X8xfOXQLo3b2xB1PsQ/ErRxsyLCwYhz902xn/Nk381T8v3fuW 5u0K+4CCAzeGrn/a02688QKBgQDG5ahv82aA78UdH1fJWvX0PPb7FiW3pD/qp6Qb pju/2cep8DQqpb9DG10UJX+RpRK/ZQ8xMypNbSwo3l9rvNwTXiSTYUSDp+ySmix6 Xdq1Ldff9APmwPRfY1POybUJXbDDTg9SWiPVy9pWzPy1G5Z28ifGBJ7sLEjSvX0C KssbzQKBgE2U2tzaHza/jcUC7IgylWLePC5Bmi+jZV/coZZa3JTCCcDmcoJMw0OT ZxMlbb9BPe3Sqm4EUzeHsG0k1d7V8E2lP4ltC+Kmy/WAJNXtm1mIAddUJqlYsp1W mPTBiW1NzeXYPPoUyjBBMyeTZVKR8mrcanpoIvgYjUvu3Y7Vc4RS',)),
    # iOS distribution certificate as base64 PKCS#12 (key inside) in a GitLab CI variable file
    Case('h13-083', 'private_key', 'yaml',
         '# gitlab-ci 变量备份（给 fastlane match 用）\nvariables:\n  P12_PASSWORD: ""\n  IOS_DIST_P12_BASE64: MIIDEAIBAzCCAsYGCSqGSIb3DQEHAaCCArcEggKzMIICrzCCAqsGCSqGSIb3DQEHAaCCApwEggKYMIIClDCCAbMGCyqGSIb3DQEMCgEDoIIBYjCCAV4GCiqGSIb3DQEJFgGgggFOBIIBSjCCAUYwge2gAwIBAgIJAKMPFZILlMdqMAoGCCqGSM49BAMCMCkxJzAlBgNVBAMMHmlQaG9uZSBEaXN0cmlidXRpb246IFN0dWR5IEFwcDAeFw0yNjAxMDEwMDAwMDBaFw0yNzAxMDEwMDAwMDBaMCkxJzAlBgNVBAMMHmlQaG9uZSBEaXN0cmlidXRpb246IFN0dWR5IEFwcDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABNdxHZyY6deMOQQh1gaXpkuYuo9i/xMPbyNtr6U2rPBltBeWV6TlzXF8/XV0x97MNNSKU0qYwnMeaqq1ZJSdxSIwCgYIKoZIzj0EAwIDSAAwRQIgRaFKSHyDp/lTgxYBha/cU3ahy5iUG4ZCCiOiOKUMtbECIQDfjji7vxhSd7jX+R4cY6UJbWpBgQhPLaFKglg+YivIDDE+MBcGCSqGSIb3DQEJFDEKHggAZABpAHMAdDAjBgkqhkiG9w0BCRUxFgQUuNQ66FCGC6GIsJ7xouKfkJvP7VUwgdoGCyqGSIb3DQEMCgEBoIGKMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgAKSZtJleVpcjUneAXeIZK7Vod6t4GDzOjPenh0HrSDahRANCAATXcR2cmOnXjDkEIdYGl6ZLmLqPYv8TD28jba+lNqzwZbQXllek5c1xfP11dMfezDTUilNKmMJzHmqqtWSUncUiMT4wFwYJKoZIhvcNAQkUMQoeCABkAGkAcwB0MCMGCSqGSIb3DQEJFTEWBBS41DroUIYLoYiwnvGi4p+Qm8/tVTBBMDEwDQYJYIZIAWUDBAIBBQAEIO/GjTAyeslmLF5ASgMtAmo4hnQNdYGxg5ohp2TaRuxPBAg49UAvtnwYAAICCAA=\n',
         ('MIIDEAIBAzCCAsYGCSqGSIb3DQEHAaCCArcEggKzMIICrzCCAqsGCSqGSIb3DQEHAaCCApwEggKYMIIClDCCAbMGCyqGSIb3DQEMCgEDoIIBYjCCAV4GCiqGSIb3DQEJFgGgggFOBIIBSjCCAUYwge2gAwIBAgIJAKMPFZILlMdqMAoGCCqGSM49BAMCMCkxJzAlBgNVBAMMHmlQaG9uZSBEaXN0cmlidXRpb246IFN0dWR5IEFwcDAeFw0yNjAxMDEwMDAwMDBaFw0yNzAxMDEwMDAwMDBaMCkxJzAlBgNVBAMMHmlQaG9uZSBEaXN0cmlidXRpb246IFN0dWR5IEFwcDBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABNdxHZyY6deMOQQh1gaXpkuYuo9i/xMPbyNtr6U2rPBltBeWV6TlzXF8/XV0x97MNNSKU0qYwnMeaqq1ZJSdxSIwCgYIKoZIzj0EAwIDSAAwRQIgRaFKSHyDp/lTgxYBha/cU3ahy5iUG4ZCCiOiOKUMtbECIQDfjji7vxhSd7jX+R4cY6UJbWpBgQhPLaFKglg+YivIDDE+MBcGCSqGSIb3DQEJFDEKHggAZABpAHMAdDAjBgkqhkiG9w0BCRUxFgQUuNQ66FCGC6GIsJ7xouKfkJvP7VUwgdoGCyqGSIb3DQEMCgEBoIGKMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgAKSZtJleVpcjUneAXeIZK7Vod6t4GDzOjPenh0HrSDahRANCAATXcR2cmOnXjDkEIdYGl6ZLmLqPYv8TD28jba+lNqzwZbQXllek5c1xfP11dMfezDTUilNKmMJzHmqqtWSUncUiMT4wFwYJKoZIhvcNAQkUMQoeCABkAGkAcwB0MCMGCSqGSIb3DQEJFTEWBBS41DroUIYLoYiwnvGi4p+Qm8/tVTBBMDEwDQYJYIZIAWUDBAIBBQAEIO/GjTAyeslmLF5ASgMtAmo4hnQNdYGxg5ohp2TaRuxPBAg49UAvtnwYAAICCAA=',)),
    # encrypted PKCS#8 key written next to its passphrase
    Case('h13-084', 'private_key', 'note',
         '签名用的私钥（加密的），口令也记一下免得忘：\n-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIH0MF8GCSqGSIb3DQEFDTBSMDEGCSqGSIb3DQEFDDAkBBAgFH0wRL8vAULJj0uC\nLNexAgIIADAMBggqhkiG9w0CCQUAMB0GCWCGSAFlAwQBKgQQygWhgny38OlXdNRm\n1e401QSBkGItBNPoDylpVMWe25Lgs4o51xWTk/7YLx7XHVof88l23hqopWFaDVaN\nB03oRI0QHdsFoSKbLyWC1pDVqFZhHsHG3BsexXaI3mL2OZ6kr09oEz7bFs4RBZq9\n54iiP718/qGEah3HBL+Kz4e9OGd19soBhl46DS65heJTHYYnc1gWYoYFviLztkQg\nfCiZmR0rdA==\n-----END ENCRYPTED PRIVATE KEY-----\npassphrase: zTCtfGejJAIg\n',
         ('MIH0MF8GCSqGSIb3DQEFDTBSMDEGCSqGSIb3DQEFDDAkBBAgFH0wRL8vAULJj0uC', 'LNexAgIIADAMBggqhkiG9w0CCQUAMB0GCWCGSAFlAwQBKgQQygWhgny38OlXdNRm', '1e401QSBkGItBNPoDylpVMWe25Lgs4o51xWTk/7YLx7XHVof88l23hqopWFaDVaN', 'B03oRI0QHdsFoSKbLyWC1pDVqFZhHsHG3BsexXaI3mL2OZ6kr09oEz7bFs4RBZq9', '54iiP718/qGEah3HBL+Kz4e9OGd19soBhl46DS65heJTHYYnc1gWYoYFviLztkQg', 'fCiZmR0rdA==', 'zTCtfGejJAIg')),
    # paperkey output (hex lines with per-line CRC) of an Ed25519 secret key
    Case('h13-085', 'private_key', 'txt',
         '# Secret portions of key 9C3E11A04F6D7B22\n# Base16 data extracted Mon Dec  1 21:10:02 2026\n# Created with paperkey 1.6 by David Shaw\n#\n# File format:\n# a) 1 octet:  Version of the paperkey format (currently 0).\n# ...\n  1: 04 16 82 12 CE 99 D7 BF A4 83 70 45 69 FA 23 AE 8B8EF9\n  2: 25 3A 02 20 62 A4 D3 E9 4F 18 52 91 34 1E 4D 7D 709FE6\n  3: 56 B2 00 81 20 47 75 29 1D 8A E8 18 2B 72 35 F5 7D4EA5\n  4: 0C 4C 28 E2 9B A3 81 4C 6C 42 22 37 73 E1 10 6E A8EE55\n  5: D3 2E 5F D4D4E9\n',
         ('56 B2 00 81 20 47 75 29 1D 8A E8 18 2B 72 35 F5', '0C 4C 28 E2 9B A3 81 4C 6C 42 22 37 73 E1 10 6E', 'D3 2E 5F')),
    # OpenSSH key echoed into a CI job log, each line prefixed by a timestamp
    Case('h13-086', 'private_key', 'note',
         'CI 日志里把 DEPLOY_KEY 打出来了（要去轮换！）：\n2026-12-01T08:13:59.881Z $ echo "$DEPLOY_KEY"\n2026-12-01T08:14:00.169Z -----BEGIN OPENSSH PRIVATE KEY-----\n2026-12-01T08:14:01.681Z b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtz\n2026-12-01T08:14:02.881Z c2gtZWQyNTUxOQAAACAgX4GFdBgkwtDZ7okU38ChYWGoWPVsfAOCnWa17CcVmgAA\n2026-12-01T08:14:03.851Z AIh1JSIMdSUiDAAAAAtzc2gtZWQyNTUxOQAAACAgX4GFdBgkwtDZ7okU38ChYWGo\n2026-12-01T08:14:04.645Z WPVsfAOCnWa17CcVmgAAAEB8uH5sHiHkkjvIiiA6nZfZteVQZfcpJUnknRHXvW3l\n2026-12-01T08:14:05.567Z ISBfgYV0GCTC0NnuiRTfwKFhYahY9Wx8A4KdZrXsJxWaAAAAAAECAwQF\n2026-12-01T08:14:06.132Z -----END OPENSSH PRIVATE KEY-----\n2026-12-01T08:14:30.102Z $ ssh-add - <<< "$DEPLOY_KEY"\n',
         ('b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtz', 'c2gtZWQyNTUxOQAAACAgX4GFdBgkwtDZ7okU38ChYWGoWPVsfAOCnWa17CcVmgAA', 'AIh1JSIMdSUiDAAAAAtzc2gtZWQyNTUxOQAAACAgX4GFdBgkwtDZ7okU38ChYWGo', 'WPVsfAOCnWa17CcVmgAAAEB8uH5sHiHkkjvIiiA6nZfZteVQZfcpJUnknRHXvW3l', 'ISBfgYV0GCTC0NnuiRTfwKFhYahY9Wx8A4KdZrXsJxWaAAAAAAECAwQF')),
    # `cat -n` listing of an RSA PEM (line numbers and tabs before each line)
    Case('h13-087', 'private_key', 'note',
         '$ cat -n ~/.ssh/lab_rsa\n     1\t-----BEGIN RSA PRIVATE KEY-----\n     2\tMIICXAIBAAKBgQC24/NNju9SLGluQTn1yzgtvKXbssH6lfVwFBmeuN+4d+GsawPr\n     3\twNG9c8IqMctkVYksK0ReyeOG7tlZeqbuRokXvy5HxicfYpk8ehAcuNc8gu+dKPwb\n     4\tI9zSojURKrkUjg257ITv0kGDgF7MYTueRbr7p9npnxeHa60GcVZnjXALjwIDAQAB\n     5\tAoGAIHdiz5faICpGJQ5rLZj/xg7BGrkm+kb4pQbMbYLAJE0TwLnWnllCYnFUPI1O\n     6\tX+dXTIH5xyHrxB5OczX0wEPBPirL1Defvoz1eSvA1UI3GcMMLt6cqo5kgoHtXDNU\n     7\tzvDKl2hNO6FCxlwWpRc+L0ipEV7yV59IT2UDLBtcdbka5dECQQDFkE9xX9tlttv0\n     8\t2JinLHtJ2jDqg3Fxn580J7LtFrf3s9EKkb4Cl9hQE3eMyPFCMrcLwgp8GHadQ+Hh\n     9\ts2MQ+tkzAkEA7PyRJGnUrHq7rg6b/J9x6mWb42IPgndF3CpeAWhlWpjtFnuJKHbC\n    10\tOvdhX/jkOfavjReu3f3oEaTWnAjrGkKcNQJAR1ww1crB/KNoH7B8syWmAq8FLC/+\n    11\tMgRuBPCx+GFUYexZfW/XKiiewY3GiNusCTU4WM7l6p0LexKh7FxXVDLHcQJAUG2/\n    12\tTJ5mQUs+Gup2Yhwy6xwk9dy36s1T9k6irNOjYkX4YOL4P7VeYejHMW0k988S8U2S\n    13\tWWDsu+A3vakBMV5d6QJBAJUZbASMtCLz0n9t7DlrpU+N5EDFhyytQxHtTQCqBw3b\n    14\tcDr5OMxWizOAHOFW8Lp2T74xAqU4+zbw3hOCK4PmcA8=\n    15\t-----END RSA PRIVATE KEY-----\n$ chmod 600 ~/.ssh/lab_rsa\n',
         ('MIICXAIBAAKBgQC24/NNju9SLGluQTn1yzgtvKXbssH6lfVwFBmeuN+4d+GsawPr', 'wNG9c8IqMctkVYksK0ReyeOG7tlZeqbuRokXvy5HxicfYpk8ehAcuNc8gu+dKPwb', 'I9zSojURKrkUjg257ITv0kGDgF7MYTueRbr7p9npnxeHa60GcVZnjXALjwIDAQAB', 'AoGAIHdiz5faICpGJQ5rLZj/xg7BGrkm+kb4pQbMbYLAJE0TwLnWnllCYnFUPI1O', 'X+dXTIH5xyHrxB5OczX0wEPBPirL1Defvoz1eSvA1UI3GcMMLt6cqo5kgoHtXDNU', 'zvDKl2hNO6FCxlwWpRc+L0ipEV7yV59IT2UDLBtcdbka5dECQQDFkE9xX9tlttv0', '2JinLHtJ2jDqg3Fxn580J7LtFrf3s9EKkb4Cl9hQE3eMyPFCMrcLwgp8GHadQ+Hh', 's2MQ+tkzAkEA7PyRJGnUrHq7rg6b/J9x6mWb42IPgndF3CpeAWhlWpjtFnuJKHbC', 'OvdhX/jkOfavjReu3f3oEaTWnAjrGkKcNQJAR1ww1crB/KNoH7B8syWmAq8FLC/+', 'MgRuBPCx+GFUYexZfW/XKiiewY3GiNusCTU4WM7l6p0LexKh7FxXVDLHcQJAUG2/', 'TJ5mQUs+Gup2Yhwy6xwk9dy36s1T9k6irNOjYkX4YOL4P7VeYejHMW0k988S8U2S', 'WWDsu+A3vakBMV5d6QJBAJUZbASMtCLz0n9t7DlrpU+N5EDFhyytQxHtTQCqBw3b', 'cDr5OMxWizOAHOFW8Lp2T74xAqU4+zbw3hOCK4PmcA8=')),
    # EC private key in a Go raw string literal (backticks)
    Case('h13-088', 'private_key', 'note',
         '// 签发学习打卡小程序的 JWT（ES256）\nvar signingKey = []byte(`-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIAJENItubnxcNfNKIxEYB320qUpX0dgfkCvfktLiGOMKoAoGCCqGSM49\nAwEHoUQDQgAE7pUQvOh6aCvV0rjgtmq2sFgSOXJwon8X42RkEt0EK26d9Qz+e2oG\n2s3grAQqdFVf1oHIZr3zyCYOdY+V4ytBTQ==\n-----END EC PRIVATE KEY-----`)\n\nfunc sign(claims jwt.MapClaims) (string, error) {\n\tk, _ := jwt.ParseECPrivateKeyFromPEM(signingKey)\n\treturn jwt.NewWithClaims(jwt.SigningMethodES256, claims).SignedString(k)\n}\n',
         ('MHcCAQEEIAJENItubnxcNfNKIxEYB320qUpX0dgfkCvfktLiGOMKoAoGCCqGSM49', 'AwEHoUQDQgAE7pUQvOh6aCvV0rjgtmq2sFgSOXJwon8X42RkEt0EK26d9Qz+e2oG', '2s3grAQqdFVf1oHIZr3zyCYOdY+V4ytBTQ==')),
    # PKCS#8 RSA key in a Kotlin trimMargin() string (each line prefixed by |)
    Case('h13-089', 'private_key', 'note',
         '// MockWebServer 测试用的 TLS 私钥\nprivate val TEST_KEY = """\n        |-----BEGIN PRIVATE KEY-----\n        |MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC1KaV/Hs9dEMth\n        |KNDKe8EGkCStyLS+y7MTY2POskWKb3q1Ke6waGYZROC5GlUVbmN/pcpOLjvu2qK6\n        |Grt+OAC6n48h1xaJ0W64xbzlC6cjJPjOuJveKYAcjs9HoKaeuk+vLse7Cw0cviLS\n        |du+c1ItYXdiKrbUe1rRscvQbTvA+M+SwH+w1DyGI486OKJBR/xJ68qC8i7smnvN1\n        |FN5BWZJN286odFhbdWUKL5hQCmjjo7X8/VYtJQaPoYmfKK4w/OOVDSw0c32iiTAq\n        |609hvDOJGHh5Ax0VjRstwxrCQjm1s50j4qHcfDX9YzGukKDTlkJJ5S8WXnDgDgas\n        |2snDDrZPAgMBAAECggEAO3LZLifsIDwcoVuFeIy3wPGYN7b/KQUrVJdu7ystCsqe\n        |V8jU3OrFZlFl9RghB5Fb8U10X8doP29bqvqOwFKcWqF1lMNCUCN71AJ/hCIYzL2b\n        |MCsAaxzvP2/VsUmUo827zF7riAOOX/o87xe8dZiByZOyNX/fSalnN5dZZ4S17ZMI\n        |hcmYuMNcxycu+JTpVkpxLGrJUajTJJR9scVg+PcZn0p0rnK9lCagQ9I6z2+2eqJ7\n        |5o16ax/zEHPV+3OBTUNIDqnapiM7J2/2CuJQE0j551pMYm90t77LDUG/Wbb7vX4X\n        |AD6hFaU1VhrAyvF/UmPM3Xdp0kzhR1RyG54FkrryoQKBgQDZg9T0edN1LYCaDIWx\n        |aTNn+Fd0ltE+TBFu4O689eLNu3mKiVPpj6rm2XaUcG6oVl5QV77pwld+Gg/vrShs\n        |0Lg47C9GSd+vEngNUoefoVNQ90N8PY5PRNqD3vzx0H8KGKJ+wIAQA6ZXZ/rx/e01\n        |7/DBbJ+aOMEF8+vZ3tYas81bxwKBgQDVN0Q/e3njIae+r9LkG91orDjHrNtnVsig\n        |z6FxbRQ47/IWHXeRNfgaUDbCAKuoDMudxVHWtawnJ2wls+TSBSaVESrsReE8l5m/\n        |p2ndcU8uy/eOfuFmMQcfDm/sMczVncJhznmHJ33FTvXYD3Wb7wNWO/M9kVP0DMzn\n        |Z9wN7DqBOQKBgG4c//x3g+XpEBZsSm4CnMSAgv2BsBHCfnzMH+/G5ndR9fh9Bt7R\n        |HSpaYl5JAKv1dS9lDD/YY2RyGykxVqqnius+HbyOf09ooR/VbNUR3VS6qA5INzfH\n        |2nsxsolUDEv3JqPWHb59qoLLH83Lx38rpYy1yaJQIt85mWclGOxRo59XAoGAL5ZF\n        |KjIB0zq4uKt/UyAQ+4KsrYwb7+WDo7iTnMAuqkKLcnojLIqyFBVhE02ZAknQzCa1\n        |DEnB4X8/+O48nM8/fDe3r8Is8hwX2Zmg3Cak+JnXZ7tTzT4WC81qF3pJ8EdkkfXG\n        |U+7xeC8WWaGhqyreQMnikRQ1e5u7w83/ZDAcIqkCgYEAtkdkRL5+XeUG2UkNjjEK\n        |rV5ixyBCL+g19YszQ9blslNAry8RWmM6TyBZq3DblyQSnW+FUScdFcEalvBpqNyM\n        |NjyDKzVDmrShWV91kG0w7RlDVujP6VsQ8MDuftjS7NcAa34RT2dkihMogtlSUMi5\n        |uvTJstc++8FHlELc4+UYrbk=\n        |-----END PRIVATE KEY-----\n        """.trimMargin()\n',
         ('MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC1KaV/Hs9dEMth', 'KNDKe8EGkCStyLS+y7MTY2POskWKb3q1Ke6waGYZROC5GlUVbmN/pcpOLjvu2qK6', 'Grt+OAC6n48h1xaJ0W64xbzlC6cjJPjOuJveKYAcjs9HoKaeuk+vLse7Cw0cviLS', 'du+c1ItYXdiKrbUe1rRscvQbTvA+M+SwH+w1DyGI486OKJBR/xJ68qC8i7smnvN1', 'FN5BWZJN286odFhbdWUKL5hQCmjjo7X8/VYtJQaPoYmfKK4w/OOVDSw0c32iiTAq', '609hvDOJGHh5Ax0VjRstwxrCQjm1s50j4qHcfDX9YzGukKDTlkJJ5S8WXnDgDgas', '2snDDrZPAgMBAAECggEAO3LZLifsIDwcoVuFeIy3wPGYN7b/KQUrVJdu7ystCsqe', 'V8jU3OrFZlFl9RghB5Fb8U10X8doP29bqvqOwFKcWqF1lMNCUCN71AJ/hCIYzL2b', 'MCsAaxzvP2/VsUmUo827zF7riAOOX/o87xe8dZiByZOyNX/fSalnN5dZZ4S17ZMI', 'hcmYuMNcxycu+JTpVkpxLGrJUajTJJR9scVg+PcZn0p0rnK9lCagQ9I6z2+2eqJ7', '5o16ax/zEHPV+3OBTUNIDqnapiM7J2/2CuJQE0j551pMYm90t77LDUG/Wbb7vX4X', 'AD6hFaU1VhrAyvF/UmPM3Xdp0kzhR1RyG54FkrryoQKBgQDZg9T0edN1LYCaDIWx', 'aTNn+Fd0ltE+TBFu4O689eLNu3mKiVPpj6rm2XaUcG6oVl5QV77pwld+Gg/vrShs', '0Lg47C9GSd+vEngNUoefoVNQ90N8PY5PRNqD3vzx0H8KGKJ+wIAQA6ZXZ/rx/e01', '7/DBbJ+aOMEF8+vZ3tYas81bxwKBgQDVN0Q/e3njIae+r9LkG91orDjHrNtnVsig', 'z6FxbRQ47/IWHXeRNfgaUDbCAKuoDMudxVHWtawnJ2wls+TSBSaVESrsReE8l5m/', 'p2ndcU8uy/eOfuFmMQcfDm/sMczVncJhznmHJ33FTvXYD3Wb7wNWO/M9kVP0DMzn', 'Z9wN7DqBOQKBgG4c//x3g+XpEBZsSm4CnMSAgv2BsBHCfnzMH+/G5ndR9fh9Bt7R', 'HSpaYl5JAKv1dS9lDD/YY2RyGykxVqqnius+HbyOf09ooR/VbNUR3VS6qA5INzfH', '2nsxsolUDEv3JqPWHb59qoLLH83Lx38rpYy1yaJQIt85mWclGOxRo59XAoGAL5ZF', 'KjIB0zq4uKt/UyAQ+4KsrYwb7+WDo7iTnMAuqkKLcnojLIqyFBVhE02ZAknQzCa1', 'DEnB4X8/+O48nM8/fDe3r8Is8hwX2Zmg3Cak+JnXZ7tTzT4WC81qF3pJ8EdkkfXG', 'U+7xeC8WWaGhqyreQMnikRQ1e5u7w83/ZDAcIqkCgYEAtkdkRL5+XeUG2UkNjjEK', 'rV5ixyBCL+g19YszQ9blslNAry8RWmM6TyBZq3DblyQSnW+FUScdFcEalvBpqNyM', 'NjyDKzVDmrShWV91kG0w7RlDVujP6VsQ8MDuftjS7NcAa34RT2dkihMogtlSUMi5', 'uvTJstc++8FHlELc4+UYrbk=')),
    # EC P-384 key body kept as a Python list of strings joined at run time
    Case('h13-090', 'private_key', 'py',
         'KEY_LINES = [\n    "MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDAAU2uX9vuLUspXbVoJ",\n    "kiVudpFX+bxOukDh7ONRZopAL2hNIpCLHwEPPqpWcGGnRh6hZANiAARE71lju+Ji",\n    "cDTC2TRaEYI2ASl/fyVeuh8RuCS6pxQWTJiSP7700SAZFwkQnzi4Tobr3pFPQsy8",\n    "DOLQh2V3uzvv4oaYJrst5wnL69ZKZHUcaC8aG2b642Wv2zw1CTBe1ic=",\n]\nPEM = "-----BEGIN PRIVATE KEY-----\\n" + "\\n".join(KEY_LINES) + "\\n-----END PRIVATE KEY-----\\n"\n',
         ('MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDAAU2uX9vuLUspXbVoJ', 'kiVudpFX+bxOukDh7ONRZopAL2hNIpCLHwEPPqpWcGGnRh6hZANiAARE71lju+Ji', 'cDTC2TRaEYI2ASl/fyVeuh8RuCS6pxQWTJiSP7700SAZFwkQnzi4Tobr3pFPQsy8', 'DOLQh2V3uzvv4oaYJrst5wnL69ZKZHUcaC8aG2b642Wv2zw1CTBe1ic=')),
    # German 'Kennwort' label in a Goethe-Institut course note
    Case('h13-091', 'password', 'note',
         'Deutschkurs B1 – Lernplattform\nBenutzername: zhang.min@stud\nKennwort: hbtqf4353?\n(Kurs freischalten bis Freitag)\n',
         ('hbtqf4353?',)),
    # Japanese 暗証番号 (bank card PIN) in a study-abroad memo
    Case('h13-092', 'password', 'note',
         'ゆうちょ銀行のキャッシュカード\n暗証番号：4380\n（留学中だけ使う口座、帰国前に解約）\n',
         ('4380',)),
    # Persian رمز عبور label in a Persian-class note
    Case('h13-093', 'password', 'note',
         'کلاس فارسی — حساب سامانه دانشگاه\nنام کاربری: s.liang\nرمز عبور: zqutaz033\n',
         ('zqutaz033',)),
    # Hungarian jelszó label for a Neptun student account
    Case('h13-094', 'password', 'note',
         'Neptun (ELTE) belépés\nNeptun-kód: RW7JEE\nJelszó: Crrbbgj48.\n',
         ('Crrbbgj48.',)),
    # Malay 'kata laluan' label in a Malaysian homestay chat
    Case('h13-095', 'password', 'note',
         '[10:02] Puan Aminah: Wi-Fi rumah: Unifi-Aminah\n[10:02] Puan Aminah: kata laluan myuxrpv75\n[10:05] 我: terima kasih!\n',
         ('myuxrpv75',)),
    # Finnish salasana label in a Finnish-course note
    Case('h13-096', 'password', 'note',
         'Suomen kurssi – Moodle\nkäyttäjätunnus: liwen\nsalasana: Kwhndx-0805\n',
         ('Kwhndx-0805',)),
    # MYSQL_PWD environment variable inside a crontab backup line
    Case('h13-097', 'password', 'note',
         "# 每晚备份课程网站数据库\n30 2 * * * MYSQL_PWD='zOuHR9S6zzT9' mysqldump -u backup --single-transaction moodle | gzip > /backup/moodle-$(date +\\%F).sql.gz\n",
         ('zOuHR9S6zzT9',)),
    # Ansible vault password written to ~/.vault_pass with echo
    Case('h13-098', 'password', 'note',
         "echo 'HWBcceFGJdlzGPp1' > ~/.vault_pass && chmod 600 ~/.vault_pass\nansible-playbook site.yml --vault-password-file ~/.vault_pass\n",
         ('HWBcceFGJdlzGPp1',)),
    # PsExec -u -p in a Windows lab transcript
    Case('h13-099', 'password', 'note',
         'C:\\Tools> PsExec64.exe \\\\LAB-PC07 -u LAB\\teacher -p Fhdiwy#4690 cmd /c ipconfig /all\nPsExec v2.43 - Execute processes remotely\n',
         ('Fhdiwy#4690',)),
    # PuTTY plink -pw in a batch file
    Case('h13-100', 'password', 'note',
         '@echo off\nrem 每天把作业同步到实验室服务器\nplink -batch -ssh -pw MTzpt4koTQ stu23@lab.cs.example.edu "cd ~/hw && git pull"\n',
         ('MTzpt4koTQ',)),
    # unrar x -p for a course-material archive
    Case('h13-101', 'password', 'note',
         '老师发的资料压缩包：\nunrar x -pfrxs2745 期中复习资料.rar ./复习/\n',
         ('frxs2745',)),
    # pdftk input_pw to unlock a payslip PDF
    Case('h13-102', 'password', 'note',
         '工资条 PDF 每个月都加密，密码是同一个：\npdftk 2026-11工资条.pdf input_pw 584238 output 2026-11.pdf\n',
         ('584238',)),
    # openssl pkcs12 -export -passout pass:
    Case('h13-103', 'password', 'note',
         "openssl pkcs12 -export -in client.crt -inkey client.key -out client.p12 -name vpn-client -passout pass:'4h10zbABxw$'\n",
         ('4h10zbABxw$',)),
    # GF_SECURITY_ADMIN_PASSWORD in a docker-compose environment list
    Case('h13-104', 'password', 'yaml',
         'services:\n  grafana:\n    image: grafana/grafana:11.3.0\n    ports: ["3000:3000"]\n    environment:\n      - GF_SECURITY_ADMIN_USER=admin\n      - GF_SECURITY_ADMIN_PASSWORD=YvHQPddpc4Wy9v\n',
         ('YvHQPddpc4Wy9v',)),
    # Pi-hole web password set with `pihole -a -p`
    Case('h13-105', 'password', 'note',
         '树莓派装好 Pi-hole 之后：\npi@raspberrypi:~ $ pihole -a -p imxmdz984\n  [✓] New password set\n',
         ('imxmdz984',)),
    # OpenWrt uci set wireless key
    Case('h13-106', 'password', 'note',
         "uci set wireless.@wifi-iface[0].ssid='Dorm-502'\nuci set wireless.@wifi-iface[0].encryption='psk2'\nuci set wireless.@wifi-iface[0].key='4g9chC86t1Fk'\nuci commit wireless && wifi reload\n",
         ('4g9chC86t1Fk',)),
    # iPhone Screen Time passcode (屏幕使用时间密码) in a family note
    Case('h13-107', 'password', 'note',
         '给妹妹的 iPad 设了限制：\n屏幕使用时间密码：7934（别告诉她）\n每天娱乐 App 限 1 小时\n',
         ('7934',)),
    # phone unlock pattern written as a digit sequence
    Case('h13-108', 'password', 'note',
         '旧手机（红米）锁屏图案，按九宫格编号 1-9：\n5-7-6-8-2-9\n卖之前记得恢复出厂\n',
         ('5-7-6-8-2-9',)),
    # openpyxl sheet protection password
    Case('h13-109', 'password', 'py',
         "from openpyxl import load_workbook\n\nwb = load_workbook('成绩登记.xlsx')\nws = wb['期末']\nws.protection.sheet = True\nws.protection.password = 'ktxaflhl'\nwb.save('成绩登记.xlsx')\n",
         ('ktxaflhl',)),
    # new database password written in a git commit message (git log)
    Case('h13-110', 'password', 'note',
         '$ git log -3 --oneline\n55ee758 fix: 数据库密码改成 nzGL2QijOa5 了，记得同步 .env\ncf37bb9 feat: 单词本导出 CSV\n116634d chore: bump deps\n',
         ('nzGL2QijOa5',)),
    # old password struck through (~~…~~) beside the new one in a Markdown list
    Case('h13-111', 'password', 'md',
         '## 账号\n\n- 校园网（学号登录）\n  - 密码：~~aolqmf1193~~ → Audsryi058!（11 月强制改过）\n',
         ('aolqmf1193', 'Audsryi058!')),
    # MongoDB db.createUser with pwd in a mongosh session
    Case('h13-112', 'password', 'note',
         'test> use admin\nadmin> db.createUser({ user: "course", pwd: "9FXtbyOJY4DJ", roles: [{ role: "readWrite", db: "quiz" }] })\n{ ok: 1 }\n',
         ('9FXtbyOJY4DJ',)),
    # Redis ACL SETUSER with a >password rule
    Case('h13-113', 'password', 'note',
         '127.0.0.1:6379> ACL SETUSER worker on >VvPlYEzhdVo4c ~queue:* +@list +@connection\nOK\n',
         ('VvPlYEzhdVo4c',)),
    # MikroTik RouterOS /user add password=
    Case('h13-114', 'password', 'note',
         '[admin@MikroTik] > /user add name=roommate group=read password=PJG97HHb838\n[admin@MikroTik] > /user print\n',
         ('PJG97HHb838',)),
    # adb shell cmd wifi connect-network with a WPA2 passphrase
    Case('h13-115', 'password', 'note',
         '测试机连实验室 Wi-Fi：\nadb shell cmd wifi connect-network "Lab-5G" wpa2 nscmc08983\n',
         ('nscmc08983',)),
    # Wi-Fi password in an ESP32 Arduino sketch (const char*)
    Case('h13-116', 'password', 'note',
         '#include <WiFi.h>\n\nconst char* ssid = "Home-2.4G";\nconst char* password = "6eBkuvNrtp";\n\nvoid setup() {\n  WiFi.begin(ssid, password);\n}\n',
         ('6eBkuvNrtp',)),
    # Lithuanian slaptažodis label in a Vilnius course note
    Case('h13-117', 'password', 'note',
         'VU lietuvių kalbos kursai – VMA\nvartotojas: chen.y\nslaptažodis: itefbu8081\n',
         ('itefbu8081',)),
    # Mercurial ~/.hgrc [auth] section with password
    Case('h13-118', 'password', 'txt',
         '[ui]\nusername = Liu Yang\n\n[auth]\nlab.prefix = https://hg.lab.example.edu/\nlab.username = liuyang\nlab.password = TELZHIszwi9a\n',
         ('TELZHIszwi9a',)),
    # UK National Insurance number (spaced) on a part-time job form
    Case('h13-119', 'resident_id', 'note',
         'Café job onboarding – things to bring\n- BRP card\n- NI number: YY 51 42 75 A\n- bank details (Monzo)\n',
         ('YY 51 42 75 A',)),
    # Irish PPS number (7 digits + mod-23 check letter) in an Intreo note
    Case('h13-120', 'resident_id', 'note',
         '都柏林交换：PPSN 下来了 0349823S，拿去 Revenue 注册 myAccount，再给学校 HR。\n',
         ('0349823S',)),
    # Swiss AHV/AVS number (756.xxxx.xxxx.xx, EAN-13 check) in a Zurich internship note
    Case('h13-121', 'resident_id', 'note',
         'Praktikum ETH – Unterlagen\nAHV-Nr.: 756.1651.9686.73\nKrankenkasse: bis 30.11. wählen\n',
         ('756.1651.9686.73',)),
    # German Steuer-ID (11 digits, ISO 7064 check) on a Minijob form
    Case('h13-122', 'resident_id', 'note',
         'Minijob an der Uni-Bibliothek\nSteuerliche Identifikationsnummer: 65 982 013 942\nSteuerklasse: 1\n',
         ('65 982 013 942',)),
    # Portuguese NIF (mod-11) in an enrolment form JSON
    Case('h13-123', 'resident_id', 'json',
         '{\n  "nome": "Chen Yu",\n  "curso": "Português língua estrangeira A2",\n  "nif": "109545214",\n  "pagamento": "MB Way"\n}\n',
         ('109545214',)),
    # Estonian isikukood (11 digits with check) in a Tartu dorm booking
    Case('h13-124', 'resident_id', 'note',
         'Tartu ülikool – ühiselamu\nIsikukood: 60103145827\nTuba: Raatuse 22-415\n',
         ('60103145827',)),
    # Bulgarian ЕГН (10 digits, weighted check) in a Sofia exchange note
    Case('h13-125', 'resident_id', 'note',
         'Софийски университет – документи\nЕГН: 0247214280\nадресна регистрация: да\n',
         ('0247214280',)),
    # Croatian OIB (ISO 7064 MOD 11,10) in a Zagreb summer-school form
    Case('h13-126', 'resident_id', 'note',
         'Ljetna škola hrvatskoga – prijava\nOIB: 14520587735\nDržavljanstvo: kinesko\n',
         ('14520587735',)),
    # Malaysian MyKad number (YYMMDD-PB-####) of a classmate in a group-project sheet
    Case('h13-127', 'resident_id', 'note',
         '小组成员（交奖学金材料用）\nNama: Tan Wei Ling\nNo. K/P: 021203-10-7905\nProgram: Bahasa Cina\n',
         ('021203-10-7905',)),
    # Indonesian NIK (16 digits, women's day +40) in a KTP OCR
    Case('h13-128', 'resident_id', 'note',
         'PROVINSI DKI JAKARTA\nJAKARTA SELATAN\nNIK : 3174945205018739\nNama : SITI RAHMAWATI\nTempat/Tgl Lahir : JAKARTA, 12-05-2001\nJenis kelamin : PEREMPUAN\n',
         ('3174945205018739',)),
    # US ITIN (9XX-7X-XXXX) on a 1040-NR draft
    Case('h13-129', 'resident_id', 'note',
         '报税 1040-NR 草稿（Sprintax 里填的）\nIdentifying number (ITIN): 924-70-0692\nCountry: China  Treaty article 20(c)\n',
         ('924-70-0692',)),
    # Chinese ID number on a blood-donation certificate (献血证) OCR
    Case('h13-130', 'resident_id', 'note',
         '无偿献血证\n编号：330175762509\n姓名：周晓雨  性别：女  血型：O\n证件号码：330106200304173979\n献血量：400ml  2026年10月12日\n',
         ('330106200304173979',)),
    # ID number next to a =MID() birth-date formula in a spreadsheet CSV
    Case('h13-131', 'resident_id', 'txt',
         '姓名,身份证号,出生日期,年龄\n刘思远,510107200409233149,"=TEXT(MID(B2,7,8),""0000-00-00"")","=DATEDIF(C2,TODAY(),""y"")"\n',
         ('510107200409233149',)),
    # ID number and online verification code in a CHSI (学信网) enrolment verification report
    Case('h13-132', 'resident_id', 'note',
         '教育部学籍在线验证报告\n更新日期：2026年11月30日\n姓名：王子涵  性别：男\n证件号码：420111200202154155\n院校：武汉某大学  层次：本科  专业：汉语国际教育\n在线验证码：ABMXUVHEVL5MHSTD\n',
         ('420111200202154155', 'ABMXUVHEVL5MHSTD')),
    # Danish CPR number (DDMMYY-SSSS) in a Copenhagen housing note
    Case('h13-133', 'resident_id', 'note',
         'Kollegium – indflytning\nCPR-nr.: 250602-7297\nNemID/MitID oprettet\n',
         ('250602-7297',)),
    # Pakistani CNIC (5-7-1) in a scholarship form
    Case('h13-134', 'resident_id', 'note',
         'HEC scholarship — applicant details\nCNIC No: 61101-9404881-7\nDomicile: Punjab\n',
         ('61101-9404881-7',)),
    # Australian mobile 04xx xxx xxx after 'mob' in a share-house note
    Case('h13-135', 'mobile', 'note',
         'Share house – Carlton\nLandlord: Peter\nmob 0408 412 190\nrent due Mondays\n',
         ('0408 412 190',)),
    # Pakistani mobile +92 3xx with an Urdu label
    Case('h13-136', 'mobile', 'note',
         'Urdu class — Ahmed bhai\nموبائل نمبر: +92 350 7638063\n(WhatsApp bhi)\n',
         ('+92 350 7638063',)),
    # Saudi mobile +966 5x with the Arabic label جوال
    Case('h13-137', 'mobile', 'note',
         'مشرف السكن الجامعي\nالاسم: خالد\nجوال: +966 56 833 0621\n',
         ('+966 56 833 0621',)),
    # Ukrainian mobile +380 with 'моб.' label
    Case('h13-138', 'mobile', 'note',
         'Олена (репетитор української)\nмоб.: +380 50 511 86 08\nзаняття: вт/чт 19:00\n',
         ('+380 50 511 86 08',)),
    # Mexican mobile +52 1 55 with 'cel.' label
    Case('h13-139', 'mobile', 'note',
         'Casa de huéspedes – Coyoacán\nSra. Lupita, cel. +52 1 55 1199 6973\nllegar antes de las 22h\n',
         ('+52 1 55 1199 6973',)),
    # Nigerian mobile +234 in a WhatsApp group export
    Case('h13-140', 'mobile', 'note',
         '12/1/26, 21:04 - Chidi: my new line is +234 809 966 3506, save it\n12/1/26, 21:05 - 我: ok 👍\n',
         ('+234 809 966 3506',)),
    # Colombian mobile +57 3xx with 'celular' in a Medellín exchange note
    Case('h13-141', 'mobile', 'note',
         'Intercambio Medellín – contacto de emergencia\nMamá anfitriona: Claudia\ncelular: +57 371 530 1966\n',
         ('+57 371 530 1966',)),
    # SMSTO: QR-code payload with a mobile number
    Case('h13-142', 'mobile', 'note',
         '扫码报名二维码解出来的内容：\nSMSTO:18606594909:报名 周六读书会 姓名+学号\n',
         ('18606594909',)),
    # DingTalk robot webhook body with at.atMobiles
    Case('h13-143', 'mobile', 'json',
         '{\n  "msgtype": "text",\n  "text": {"content": "[作业提醒] 周五前交实验报告"},\n  "at": {"atMobiles": ["18871716274"], "isAtAll": false}\n}\n',
         ('18871716274',)),
    # mobile in a 12306 frequent-passenger list screenshot OCR
    Case('h13-144', 'mobile', 'note',
         '常用乘车人\n李明轩 成人 身份证 1101**********1234\n手机号码 152 9890 5966  核验状态：已通过\n',
         ('152 9890 5966',)),
    # Peruvian mobile +51 9xx xxx xxx with 'cel' in a Lima note
    Case('h13-145', 'mobile', 'note',
         'Lima – profesora de quechua: Rosa\ncel: +51 999 724 539\n',
         ('+51 999 724 539',)),
    # Czech mobile +420 with 'mobil' label
    Case('h13-146', 'mobile', 'note',
         'Spolubydlící Tereza\nmobil: +420 603 390 602\n',
         ('+420 603 390 602',)),
    # Greek mobile 69x with 'κινητό' label
    Case('h13-147', 'mobile', 'note',
         'Μαθήματα ελληνικών – καθηγήτρια Μαρία\nκινητό: 697 875 8029\n',
         ('697 875 8029',)),
    # US checking account number beside its ABA routing number on a direct-deposit form
    Case('h13-148', 'bank_card', 'note',
         'TA payroll – direct deposit (Chase)\nRouting number: 039620257\nAccount number: 4824798522\nAccount type: Checking\n',
         ('4824798522',)),
    # UK sort code and account number sent to a landlord
    Case('h13-149', 'bank_card', 'note',
         'Hi Sarah, deposit refund can go to:\nName: Lin Qiao\nSort code: 89-76-25\nAccount no: 17770797\nThanks!\n',
         ('17770797',)),
    # Australian BSB and account number in a share-house rent note
    Case('h13-150', 'bank_card', 'note',
         'Rent → Commonwealth Bank\nBSB 033-625  Acc 530736248\nRef: room 3 + your name\n',
         ('530736248',)),
    # Indian bank account number with IFSC for a scholarship transfer
    Case('h13-151', 'bank_card', 'note',
         'Scholarship bank details (SBI)\nA/c No.: 31170559736935\nIFSC: SBIN0001053\nBranch: Pune University\n',
         ('31170559736935',)),
    # Japanese 口座番号 (7 digits) with 支店 in a part-time job note
    Case('h13-152', 'bank_card', 'note',
         'バイト代の振込先\n三井住友銀行 渋谷駅前支店（普通）\n口座番号：3783069\n名義：リ メイ\n',
         ('3783069',)),
    # Korean 계좌번호 in a KakaoTalk export (splitting the bill)
    Case('h13-153', 'bank_card', 'note',
         '2026. 11. 28. 오후 9:12, 민지 : 회비 2만원씩 여기로 보내줘\n2026. 11. 28. 오후 9:12, 민지 : 하나은행 336-478582-65095 김민지\n',
         ('336-478582-65095',)),
    # credit-card number as <ACCTID> in an OFX statement export
    Case('h13-154', 'bank_card', 'txt',
         'OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX>\n<CREDITCARDMSGSRSV1><CCSTMTTRNRS><CCSTMTRS>\n<CURDEF>USD\n<CCACCTFROM><ACCTID>4704206215925953</CCACCTFROM>\n<BANKTRANLIST><DTSTART>20261101<DTEND>20261130\n',
         ('4704206215925953',)),
    # French RIB (code banque, guichet, compte, clé RIB) with its IBAN for a CAF form
    Case('h13-155', 'bank_card', 'note',
         'RIB pour la CAF (aide au logement)\nCode banque 15674  Code guichet 59845  N° de compte 45577148227  Clé RIB 81\nIBAN : FR76 1567 4598 4545 5771 4822 781\nBIC : BNPAFRPPXXX\n',
         ('45577148227', 'FR76 1567 4598 4545 5771 4822 781')),
    # UnionPay card inside an Alipay bind-card deep link
    Case('h13-156', 'bank_card', 'note',
         '测试绑卡流程时复制出来的链接：\nalipays://platformapi/startapp?appId=20000032&cardNo=6208152121452961736&cardType=DC&bankName=ICBC\n',
         ('6208152121452961736',)),
    # Brazilian Pix random key (chave aleatória, a UUID) for splitting a bill
    Case('h13-157', 'bank_card', 'note',
         'Racha da viagem: manda a tua parte pro meu Pix\nchave aleatória: 2860d967-8e53-4fb1-a3e1-7f45ad4ee72e\n(Nubank – Júlia)\n',
         ('2860d967-8e53-4fb1-a3e1-7f45ad4ee72e',)),
    # Canadian void-cheque transit, institution and account numbers
    Case('h13-158', 'bank_card', 'note',
         'Payroll form (void cheque)\nTransit: 44664  Institution: 002  Account: 0895756\n',
         ('0895756',)),
    # Vietnamese số tài khoản with bank name in a tutoring chat
    Case('h13-159', 'bank_card', 'note',
         'Học phí tháng 12 chuyển khoản giúp chị nhé:\nVietcombank – số tài khoản 9598124112221 – NGUYEN THI HOA\n',
         ('9598124112221',)),
    # address with # for @ and a note saying so
    Case('h13-160', 'email', 'note',
         '想交换语言的可以发邮件：linycz4424#qq.com（#换成@）\n',
         ('linycz4424#qq.com',)),
    # address with 圈a written for @ in a forum post
    Case('h13-161', 'email', 'note',
         '资料打包好了，留邮箱的私发，或者直接发我 zhao.hgipy圈a163.com\n',
         ('zhao.hgipy圈a163.com',)),
    # MATMSG: QR payload with TO: address
    Case('h13-162', 'email', 'note',
         '名片背面二维码内容：\nMATMSG:TO:oqtwhn89@outlook.com;SUB:语言交换;BODY:你好，我想报名周三的口语角;;\n',
         ('oqtwhn89@outlook.com',)),
    # certbot --email with a personal address
    Case('h13-163', 'email', 'note',
         'sudo certbot --nginx -d notes.wang-blog.cn --email wangaohc@gmail.com --agree-tos --no-eff-email\n',
         ('wangaohc@gmail.com',)),
    # forwarded mail header with Chinese labels 发件人/收件人
    Case('h13-164', 'email', 'note',
         '-------- 转发的邮件 --------\n发件人：陈老师 <chen.phhu@sina.com>\n发送时间：2026年12月1日 9:03\n收件人："刘同学" <yhzvi341@126.com>\n主题：论文修改意见\n',
         ('chen.phhu@sina.com', 'yhzvi341@126.com')),
    # setup.py author_email
    Case('h13-165', 'email', 'py',
         'from setuptools import setup\n\nsetup(\n    name="pinyin-cards",\n    version="0.3.1",\n    author="Li Hua",\n    author_email="zqhm.vhdmj@foxmail.com",\n    packages=["pinyin_cards"],\n)\n',
         ('zqhm.vhdmj@foxmail.com',)),
    # vCard EMAIL;TYPE=INTERNET line
    Case('h13-166', 'email', 'txt',
         'BEGIN:VCARD\nVERSION:3.0\nN:杨;晓;;;\nFN:杨晓\nEMAIL;TYPE=INTERNET;TYPE=HOME:yang56167@yeah.net\nEND:VCARD\n',
         ('yang56167@yeah.net',)),
    # git config --global user.email in shell history
    Case('h13-167', 'email', 'note',
         '  501  git config --global user.name "Hu Xin"\n  502  git config --global user.email huqmwo02@stu.example-univ.edu.cn\n  503  git init notes\n',
         ('huqmwo02@stu.example-univ.edu.cn',)),
    # composer.json authors email
    Case('h13-168', 'email', 'json',
         '{\n  "name": "liming/pinyin-helper",\n  "type": "library",\n  "authors": [{"name": "Li Ming", "email": "rrsjy.tjkn@163.com"}],\n  "require": {"php": ">=8.1"}\n}\n',
         ('rrsjy.tjkn@163.com',)),
    # SSR DOCS line of an airline booking (PNR) with passport and birth date
    Case('h13-169', 'passport', 'note',
         '订票后客服发来的 PNR 片段：\n1.ZHANG/SAN MR\n2  CA 925 Y 15JAN PEKNRT HK1 0930 1410\nSSR DOCS CA HK1 P/CHN/E74102618/CHN/12MAY03/M/20AUG33/ZHANG/SAN\n',
         ('E74102618', '12MAY03')),
    # Australian passport number of a flatmate in a lease checklist
    Case('h13-170', 'passport', 'note',
         '墨尔本租房合同 checklist\n- 室友 Jack 的 Australian passport no.: PB4351198\n- expiry 2031-04\n',
         ('PB4351198',)),
    # Malaysian passport number with 'No. Pasport'
    Case('h13-171', 'passport', 'note',
         'Borang homestay\nNama: Lim Jia Hui\nNo. Pasport: A17235724\nWarganegara: Malaysia\n',
         ('A17235724',)),
    # Singapore passport number (K + 7 digits + letter)
    Case('h13-172', 'passport', 'note',
         'Exchange buddy from NUS – for the hotel booking\nPassport No: K2269439Z\n',
         ('K2269439Z',)),
    # New Zealand passport (2 letters + 6 digits) in a hostel check-in note
    Case('h13-173', 'passport', 'note',
         'YHA check-in for Mia (she asked me to book)\nNZ passport LV425678, DOB 04/09/2004\n',
         ('LV425678', '04/09/2004')),
    # Dutch paspoortnummer (9 characters, no letter O)
    Case('h13-174', 'passport', 'note',
         'Aanvraag verblijfsvergunning – gegevens partner\nDocumentnummer paspoort: PTZETZ8G7\n',
         ('PTZETZ8G7',)),
    # Pakistani passport number with Urdu label پاسپورٹ نمبر
    Case('h13-175', 'passport', 'note',
         'Ali ke documents (scholarship):\nپاسپورٹ نمبر: PK4374900\n',
         ('PK4374900',)),
    # Mexican passport number in a conference registration JSON
    Case('h13-176', 'passport', 'json',
         '{\n  "name": "Ana López",\n  "nationality": "MEX",\n  "pasaporte": "G64528694",\n  "track": "Chinese linguistics"\n}\n',
         ('G64528694',)),
    # Polish passport number with 'nr paszportu'
    Case('h13-177', 'passport', 'note',
         'Wymiana – dane współlokatora do umowy\nnr paszportu: LQ0770405\n',
         ('LQ0770405',)),
    # Irish address with an Eircode
    Case('h13-178', 'address', 'note',
         'Dublin digs from Jan:\n56 Ashfield Park, Terenure, Dublin 6W, D6W FKXH\n',
         ('56 Ashfield Park', 'D6W FKXH')),
    # Dutch address with huisnummer toevoeging and postcode
    Case('h13-179', 'address', 'note',
         'Kamer Amsterdam (inschrijven bij de gemeente):\nVan Speijkstraat 146-III\n1059 BB Amsterdam\n',
         ('Van Speijkstraat 146-III', '1059 BB')),
    # Swedish address with lägenhetsnummer (lgh)
    Case('h13-180', 'address', 'note',
         'Andrahandskontrakt – adress för folkbokföring:\nRörstrandsgatan 15, lgh 1035, 113 40 Stockholm\n',
         ('Rörstrandsgatan 15, lgh 1035',)),
    # Argentine address with Piso and Depto.
    Case('h13-181', 'address', 'note',
         'Departamento en Buenos Aires (intercambio)\nAv. Corrientes 5788, Piso 7, Depto. C, C1043 CABA\n',
         ('Av. Corrientes 5788, Piso 7, Depto. C',)),
    # Philippine condo address with Unit, Tower and Barangay
    Case('h13-182', 'address', 'note',
         'Send the books to my cousin:\nUnit 35E, Tower 2, Avida Towers Centera, EDSA cor. Reliance St., Brgy. Highway Hills, Mandaluyong City\n',
         ('Unit 35E, Tower 2, Avida Towers Centera, EDSA cor. Reliance St., Brgy. Highway Hills',)),
    # Czech address with číslo popisné / orientační (X/Y)
    Case('h13-183', 'address', 'note',
         'Praha – podnájem od února\nBořivojova 59/1172, 130 00 Praha 3 – Žižkov, byt č. 7\n',
         ('Bořivojova 59/1172', 'byt č. 7')),
    # Xinjiang Bingtuan address (团/连/栋/号)
    Case('h13-184', 'address', 'note',
         '寒假寄明信片给奶奶：新疆石河子市一二一团10连38栋3号，邮编 832000\n',
         ('一二一团10连38栋3号',)),
    # home location as a what3words address
    Case('h13-185', 'address', 'note',
         '新家门口（小区太大，外卖总找不到）：///quiet.river.pocket\n',
         ('///quiet.river.pocket',)),
    # home location as an Open Location Code (Plus Code)
    Case('h13-186', 'address', 'note',
         '我家位置 Plus Code：2FMH+PV 成都市，导航直接输这个\n',
         ('2FMH+PV',)),
    # Greek address (Οδός …, floor) in a rental note
    Case('h13-187', 'address', 'note',
         'Διαμέρισμα για το εξάμηνο:\nΟδός Σόλωνος 117, 4ος όροφος, 106 73 Αθήνα\n',
         ('Οδός Σόλωνος 117, 4ος όροφος',)),
    # Portuguese address with n.º and floor/side (3.º Esq.)
    Case('h13-188', 'address', 'note',
         'Quarto em Lisboa (Erasmus)\nRua da Graça, n.º 66, 1.º Esq., 1170-165 Lisboa\n',
         ('Rua da Graça, n.º 66, 1.º Esq.',)),
    # Japanese address in romaji (chome-ban-go, room number)
    Case('h13-189', 'address', 'note',
         'Send the textbook to my share house:\n5-9-13 Kitazawa, Setagaya-ku, #401, Tokyo 155-0031\n',
         ('5-9-13 Kitazawa, Setagaya-ku, #401',)),
    # Proton Pass CSV export row with a totp column
    Case('h13-190', 'otp_secret', 'txt',
         'type,name,url,email,username,password,note,totp,createTime,modifyTime,vault\nlogin,教务系统,https://jwxt.example-univ.edu.cn,,2023699766,,,IJS5DAJXJ67G7KKTIFLW4S5ZOX27OCNF,1733010000,1733010000,Personal\n',
         ('IJS5DAJXJ67G7KKTIFLW4S5ZOX27OCNF',)),
    # Raivo OTP export JSON with secret
    Case('h13-191', 'otp_secret', 'json',
         '[\n  {"issuer": "Gitee", "account": "zhoumin", "secret": "2I5VASFWJPZJKQYITKWCHFKM3HA4NLCK", "algorithm": "SHA1",\n   "digits": "6", "kind": "TOTP", "timer": "30", "counter": "0", "pinned": "false"}\n]\n',
         ('2I5VASFWJPZJKQYITKWCHFKM3HA4NLCK',)),
    # Authenticator Pro (Stratum) backup JSON Authenticators entry
    Case('h13-192', 'otp_secret', 'json',
         '{\n  "Authenticators": [\n    {"Type": 2, "Icon": "steam", "Issuer": "Nextcloud", "Username": "wei",\n     "Secret": "LTYX3NVLVKUTSE4CJHQ5HW7EZ7", "Algorithm": 0, "Digits": 6, "Period": 30, "Counter": 0}\n  ],\n  "Categories": [], "AuthenticatorCategories": []\n}\n',
         ('LTYX3NVLVKUTSE4CJHQ5HW7EZ7',)),
    # PHP Google2FA verifyKey with a literal secret
    Case('h13-193', 'otp_secret', 'note',
         "<?php\n$google2fa = new \\PragmaRX\\Google2FA\\Google2FA();\n// 管理后台两步验证，先写死调试\n$valid = $google2fa->verifyKey('QNU3VJQV5EL4V4JG', $_POST['code']);\n",
         ('QNU3VJQV5EL4V4JG',)),
    # Java GoogleAuthenticator (wstrange) authorize with a literal secret
    Case('h13-194', 'otp_secret', 'note',
         'GoogleAuthenticator gAuth = new GoogleAuthenticator();\nboolean ok = gAuth.authorize("PTTTNW6XXANS7OCWZF3LFORTDFAYF5Z4", Integer.parseInt(code));\n',
         ('PTTTNW6XXANS7OCWZF3LFORTDFAYF5Z4',)),
    # Battle.net authenticator serial and restore code
    Case('h13-195', 'otp_secret', 'note',
         '战网安全令（换手机要用）\n序列号：CN-2956-7393-3717\n恢复码：JRHNKXDPEB\n',
         ('CN-2956-7393-3717', 'JRHNKXDPEB')),
    # hardware OTP token seed file (serial, hex seed) for a lab VPN
    Case('h13-196', 'otp_secret', 'txt',
         '# c200 令牌种子文件（导入 VPN 网关后删除）\nserial,seed,algorithm,digits,interval\n282243761495,9ce9fcc084891c4ab6da05f1c7bdf879c298f944,SHA1,6,60\n227737415579,819603c544480eeb72714929843ed06812c91771,SHA1,6,60\n',
         ('9ce9fcc084891c4ab6da05f1c7bdf879c298f944', '819603c544480eeb72714929843ed06812c91771')),
    # Google account backup codes (ten 8-digit codes) saved as a text file
    Case('h13-197', 'otp_secret', 'txt',
         '备用验证码\n账号：li***@gmail.com\n\n1. 6613 5256\n2. 9282 8493\n3. 1858 9311\n4. 3445 4394\n5. 1815 2409\n6. 3040 7717\n7. 3519 1874\n8. 5319 8640\n9. 3524 0309\n10. 6749 3759\n\n（每个验证码只能使用一次）\n',
         ('6613 5256', '9282 8493', '1858 9311', '3445 4394', '1815 2409', '3040 7717', '3519 1874', '5319 8640', '3524 0309', '6749 3759')),
    # LastPass Authenticator export JSON accounts[].secret
    Case('h13-198', 'otp_secret', 'json',
         '{\n  "version": 3,\n  "accounts": [\n    {"issuerName": "Coursera", "userName": "zhangwei", "secret": "ALDOPCAS3J43VOERE4WXEYJO4U5N4SNG",\n     "timeStep": 30, "digits": 6, "algorithm": "SHA1"}\n  ]\n}\n',
         ('ALDOPCAS3J43VOERE4WXEYJO4U5N4SNG',)),
    # Substrate `subkey generate` output with 'Secret phrase:' and the secret seed
    Case('h13-199', 'recovery_phrase', 'note',
         '$ subkey generate --scheme sr25519\nSecret phrase:       cinnamon payment essence crouch budget hospital coconut royal crop avocado middle drift\n  Network ID:        substrate\n  Secret seed:       0xbce13eee49a0317c7cd9de74cddc4be16a6f8f5f5b4bb44b3153b68a9bbea092\n  Public key (hex):  0xadf3c3aabacb3d9ef66d8dd279270560bf57ccf17c928c16a24b752b3d6383d0\n  SS58 Address:      5SuyVGgiELS23jETVxp3PXA5Awni7rgsZFv1KkZCTKG3WxvU\n',
         ('cinnamon payment essence crouch budget hospital coconut royal crop avocado middle drift', 'bce13eee49a0317c7cd9de74cddc4be16a6f8f5f5b4bb44b3153b68a9bbea092')),
    # Cosmos `gaiad keys add` output ('write this mnemonic phrase in a safe place')
    Case('h13-200', 'recovery_phrase', 'note',
         '$ gaiad keys add validator-test\n\n- address: cosmos1rrl50umxds0jhae0wual1bercqf8d02mn49wjf\n  name: validator-test\n  type: local\n\n\n**Important** write this mnemonic phrase in a safe place.\nIt is the only way to recover your account if you ever forget your password.\n\nacquire answer flight flip shiver equal another paddle human okay raccoon require upper access clump cigar tornado kingdom avoid diamond letter loud task hard\n',
         ('acquire answer flight flip shiver equal another paddle human okay raccoon require upper access clump cigar tornado kingdom avoid diamond letter loud task hard',)),
    # ethers.Wallet.fromPhrase in a Hardhat script
    Case('h13-201', 'recovery_phrase', 'note',
         '// scripts/fund.ts —— 测试网领水用的钱包\nconst wallet = ethers.Wallet.fromPhrase(\n  "oppose squeeze where neutral try gate mesh vanish author bridge mirror equal",\n  provider,\n)\n',
         ('oppose squeeze where neutral try gate mesh vanish author bridge mirror equal',)),
    # Traditional-Chinese BIP39 phrase in bip39.mnemonicToSeedSync (JS)
    Case('h13-202', 'recovery_phrase', 'note',
         "const bip39 = require('bip39')\nbip39.setDefaultWordlist('chinese_traditional')\nconst seed = bip39.mnemonicToSeedSync('豪 德 球 呼 倒 整 令 團 疫 集 朝 晶')\n",
         ('豪 德 球 呼 倒 整 令 團 疫 集 朝 晶',)),
    # twelve words one per cell in a single CSV row (spreadsheet export)
    Case('h13-203', 'recovery_phrase', 'txt',
         '备份日期,1,2,3,4,5,6,7,8,9,10,11,12\n2026-11-30,supreme,fluid,often,neither,daring,flame,vessel,sheriff,thrive,once,bar,junior\n',
         ('supreme,fluid,often,neither,daring,flame,vessel,sheriff,thrive,once,bar,junior',)),
    # words listed in shuffled order with their positions (to 'hide' them)
    Case('h13-204', 'recovery_phrase', 'note',
         '顺序打乱记的，按编号排回去：\n 2 - drastic\n 4 - sort\n 7 - manage\n10 - enter\n12 - chief\n 8 - legal\n 6 - yellow\n11 - small\n 1 - under\n 3 - route\n 5 - reform\n 9 - danger\n',
         (' 2 - drastic', ' 4 - sort', ' 7 - manage', '10 - enter', '12 - chief', ' 8 - legal', ' 6 - yellow', '11 - small', ' 1 - under', ' 3 - route', ' 5 - reform', ' 9 - danger')),
    # phrase split into three parts on separate lines of one note
    Case('h13-205', 'recovery_phrase', 'note',
         '钱包备份分三段放（这是我自己的副本）\n第一段：raw cousin dad fan\n第二段：rain throw best boring\n第三段：syrup gauge online tourist\n',
         ('raw cousin dad fan', 'rain throw best boring', 'syrup gauge online tourist')),
    # Italian BIP39 phrase given to `electrum restore`
    Case('h13-206', 'recovery_phrase', 'note',
         '$ electrum --testnet restore "serraglio paese rettifica aforisma fabbrica esanime lattuga roco modulo palo fede cortese"\n(wallet ripristinato, password vuota)\n',
         ('serraglio paese rettifica aforisma fabbrica esanime lattuga roco modulo palo fede cortese',)),
    # French BIP39 phrase in a saved HTML page's <textarea id="phrase">
    Case('h13-207', 'recovery_phrase', 'note',
         'bip39-standalone.html 离线页面另存时把输入也存下来了：\n<textarea id="phrase" class="phrase form-control">intense rosier feuille écrivain grotte céleste saumon bijou céleste attentif bloquer effrayer</textarea>\n',
         ('intense rosier feuille écrivain grotte céleste saumon bijou céleste attentif bloquer effrayer',)),
    # Japanese BIP39 phrase in python-mnemonic to_seed()
    Case('h13-208', 'recovery_phrase', 'py',
         'from mnemonic import Mnemonic\n\nm = Mnemonic("japanese")\nseed = m.to_seed("てのひら\u3000ねぐせ\u3000じだい\u3000はたん\u3000やぶる\u3000いたみ\u3000ねつぞう\u3000となり\u3000すすむ\u3000にうけ\u3000てんけん\u3000けみかる", passphrase="")\n',
         ('てのひら\u3000ねぐせ\u3000じだい\u3000はたん\u3000やぶる\u3000いたみ\u3000ねつぞう\u3000となり\u3000すすむ\u3000にうけ\u3000てんけん\u3000けみかる',)),
    # Italian targa (AA 123 BB) in a car-sharing note
    Case('h13-209', 'licence_plate', 'note',
         'Passaggio per Bologna con Marco – Fiat Panda grigia, targa ER 877 LN\n',
         ('ER 877 LN',)),
    # Polish registration (WX …) with 'nr rej.'
    Case('h13-210', 'licence_plate', 'note',
         'Parking akademik – zgłoszenie\nsamochód: Toyota Yaris, nr rej. WX 1400X\n',
         ('WX 1400X',)),
    # Turkish plate (34 ABC 123) with 'plaka'
    Case('h13-211', 'licence_plate', 'note',
         'Ev sahibinin arabası: beyaz Renault Clio, plaka 34 ZYR 629 – otoparkta ona ayrılmış yer\n',
         ('34 ZYR 629',)),
    # Vietnamese plate (51F-123.45) with 'biển số'
    Case('h13-212', 'licence_plate', 'note',
         'Xe của anh chủ nhà (cho mượn đi Vũng Tàu): biển số 51E-191.60\n',
         ('51E-191.60',)),
    # Malaysian plate (WXY 1234) with 'no. plat'
    Case('h13-213', 'licence_plate', 'note',
         'Grab tadi tertinggal payung – no. plat WFX 9471, Perodua Myvi merah\n',
         ('WFX 9471',)),
    # Indonesian plate (B 1234 XYZ) with 'plat nomor'
    Case('h13-214', 'licence_plate', 'note',
         'Motor sewaan di Jakarta: Honda Beat, plat nomor B 6322 FAX\n',
         ('B 6322 FAX',)),
    # Swiss plate (ZH 123456) with 'Kontrollschild'
    Case('h13-215', 'licence_plate', 'note',
         'Umzug – Parkbewilligung beantragen\nKontrollschild: ZH 889312\nFahrzeug: VW Golf\n',
         ('ZH 889312',)),
    # Chinese driving-school plate (…学) in a driving-lesson note
    Case('h13-216', 'licence_plate', 'note',
         '科目三练车：周六早上 7 点，教练车 粤B9029学，在驾校东门等\n',
         ('粤B9029学',)),
    # Irish registration (231-D-12345) in a parking permit note
    Case('h13-217', 'licence_plate', 'note',
         'Campus parking permit – car reg 231-D-97043 (silver Corolla)\n',
         ('231-D-97043',)),
]
