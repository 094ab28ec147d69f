"""Held-out batch 14: secrets and personal data in shapes the gate was not designed around.

Written in session 15 by an engineer (gwriter) who had read DESIGN.md, the README's privacy
paragraph, the corpus format (``__init__``, bench_gate.py) and only the docstrings of the earlier
batches (heldout to heldout13) and of negatives12, never the detectors, the earlier batches' cases
nor the gate's tests; the gate was not run on it while it was written (sealed in /root/lead15/gate).
217 cases:
api_key 48, auth_header 16, connection_string 16, private_key 10, password 28, resident_id 16, mobile 13, bank_card 12, email 9, passport 9, address 12, otp_secret 9, recovery_phrase 10, licence_plate 9.
Values generated for the corpus (/root/lead15/gate/gen14.py, seed 1414): keys random in each
provider's shape, private keys real but built from the seed and thrown away (RSA from seeded primes,
EC P-256/P-384/secp256k1 from seeded scalars, Ed25519/X25519 from seeded bytes), ID, card and account
numbers built to pass their checksums (CN GB 11643, Spanish NIE mod-23, Czech rodné číslo mod-11,
Serbian JMBG, Icelandic kennitala, Greek AMKA Luhn, Austrian SVNR, Kazakh IIN, Ecuadorian cédula,
Lithuanian asmens kodas, Taiwan 統一證號, card Luhn, IBAN mod-97, VIN check digit), BIP39 phrases with
valid checksums (English, Korean, Portuguese, Spanish, Russian); none belongs to anyone. Addresses are
labelled from the road, lane, block or landmark directions down (city and district left, as the gate's
design says). Encoded secrets (ROT13, character lists, char codes, HTML character references, Chinese
or English number words, NATO spelling, percent-escaped) are labelled as they appear in the text; a
private key is labelled line by line (its body lines, without the chat prefixes, quote marks or C
string quotes around them), a split key or phrase part by part, a seed phrase in a list, table or
dict word by word (each word occurs once in its text).

Shapes, one per case (category: shape):
api_key: Anyscale Endpoints key (esecret_) in an openai client base_url override
api_key: 360 智脑 key (fk<digits>.<hex>) in a WeChat group chat export
api_key: Skywork (天工) app key and app secret in a Chinese-commented YAML
api_key: Infini-AI (无问芯穹) key in a Markdown setup checklist with a Chinese label
api_key: QingCloud (青云) qy_access_key_id / qy_secret_access_key in ~/.qingcloud/config.yaml
api_key: CTYun (天翼云) OOS access key and secret in a boto3 S3 client
api_key: Ronglian (容联云) SMS accountSid and auth token in a verification-code sender
api_key: Checkout.com sandbox secret key beside its public key in a .env
api_key: Paddle Billing live API key in a SaaS side-project note
api_key: Midtrans server key (Mid-server-) in a Django settings module with Indonesian comments
api_key: Lemon Squeezy API key (a long JWT) pasted into a to-do note
api_key: GoCardless live access token in a fly.io secrets import file
api_key: Wise personal API token (a UUID) in a bilingual note about paying tuition
api_key: Codeberg (Forgejo) access token in tea CLI's config.yml
api_key: Quay.io robot account token on a podman login line in a terminal transcript
api_key: Harbor robot account secret in a Kubernetes imagePullSecret source (stringData)
api_key: Axiom ingest token (xaat-<uuid>) in a Vector sink config exported as JSON
api_key: Dynatrace API token (dt0c01.) in a OneAgent install command
api_key: Pushover application token and user key posted with requests
api_key: Mattermost bot access token in a Markdown runbook table
api_key: Bluesky app password (xxxx-xxxx-xxxx-xxxx) in a cross-posting bot note
api_key: WxPusher appToken (AT_) in a study-reminder script
api_key: LlamaCloud key (llx-) in a LlamaParse call parsing lecture PDFs
api_key: Firecrawl key (fc-) in a shell one-liner from zsh history
api_key: SerpApi key (64 hex) in a GoogleSearch params dict
api_key: Qdrant Cloud API key in a LangChain-based RAG homework config
api_key: AssemblyAI key with a Japanese label (APIキー) in a transcription note
api_key: Stability AI key in a stability_sdk client constructed inside a Gradio app
api_key: Geoapify key in a static-map URL pasted into a travel plan
api_key: ClickUp personal API token (pk_<digits>_…) in a .env for a task-sync script
api_key: WakaTime API key in ~/.wakatime.cfg
api_key: Pocket consumer key and access token in an Obsidian plugin data.json
api_key: JetBrains Marketplace permanent token (perm:) in a gradle publishPlugin note
api_key: Open VSX access token on an `ovsx publish -p` line
api_key: Convex production deploy key (prod:name|base64) in a Vercel env export
api_key: SparkPost API key (40 hex) in a Postfix relay note with a Korean label
api_key: MailerSend token (mlsn.) in a Laravel-style PHP config copied into a note
api_key: Stytch live secret beside its project id
api_key: OVH application secret and consumer key in ovh.conf
api_key: Exoscale API key and secret in an exo CLI TOML account
api_key: Toggl Track API token kept as a list of single characters joined at run time
api_key: key hidden as String.fromCharCode(...) in a bookmarklet
api_key: Anthropic key stored ROT13-encoded and decoded with codecs at run time
api_key: Hugging Face token split by a YAML folded block scalar (>-) over two lines
api_key: Groq key split over a Makefile line continuation
api_key: Google API key written as HTML hex character references in a saved page
api_key: OpenAI project key in a SQL INSERT into an app's settings table
api_key: key in a CSV cell with doubled quotes ("") around it
auth_header: Duolingo jwt_token cookie in a Copy as cURL (bash) with -b
auth_header: Xueersi (学而思) app token header in a HAR entry
auth_header: Postman environment export with an access token under a Chinese variable name
auth_header: Canvas LMS access token (NNNN~…) in an Authorization header typed into HTTPie
auth_header: Tencent Meeting (腾讯会议) cookie in a Fiddler raw session export
auth_header: Kuaishou (快手) cookie kuaishou.server.web_st in a downloader tool's settings panel copy
auth_header: Pixiv PHPSESSID cookie in a gallery-dl YAML-ified config
auth_header: Nowcoder (牛客) sid cookie in a wget --header 'Cookie:' line
auth_header: Basic credentials in an Apache APISIX route's proxy-rewrite headers set
auth_header: GitHub CLI OAuth token in a VS Code Dev Container devcontainer.json remoteEnv
auth_header: Authorization: Token (Django REST framework token auth) in a Thunder Client export note
auth_header: Flask session cookie (signed, itsdangerous) in a Wireshark-less tcpdump -A dump
auth_header: X-CSRF-Token plus laravel_session cookie from a Safari Web Inspector copy
auth_header: Google access token in a gspread Credentials object built by hand
auth_header: WordPress application password (six groups of four) noted for REST API Basic auth
auth_header: Proxy-Authorization: Negotiate (Kerberos) ticket from a corporate proxy log
connection_string: Oracle sqlldr userid=user/password@//host/service in a Windows batch file
connection_string: Spring Boot spring.data.redis password with a Chinese comment in application-prod.yml
connection_string: KingbaseES (人大金仓) KINGBASE_PASSWORD exported before ksql
connection_string: GaussDB(DWS) psycopg2.connect keyword arguments in a Jupyter cell
connection_string: InfluxDB 1.x URL with u= and p= query parameters in a Telegraf input
connection_string: ActiveMQ Artemis CLI producer --user --password in a messaging lab
connection_string: Pulsar client authParams token for a campus cluster in a YAML
connection_string: LDAP URL bind in a Gitea admin auth add-ldap command
connection_string: Neo4j Aura connection with username/password in VS Code settings.json
connection_string: autofs map line with cifs username=/password= for a NAS
connection_string: ClickHouse client --password with a Russian comment
connection_string: Flask-SQLAlchemy URI for SQL Server over pyodbc with a percent-encoded password
connection_string: FTPS in FileZilla's command line: filezilla ftpes://user:pass@host
connection_string: openconnect --passwd-on-stdin fed by echo in a campus VPN script
connection_string: Couchbase cbq -u -p in a NoSQL lab transcript
connection_string: Debezium MySQL connector database.password in a Kafka Connect config
private_key: RSA key in a WeChat chat export, each PEM line sent as its own message
private_key: EC P-256 key inside a C header as an array of string literals
private_key: libp2p node Ed25519 seed as base32 beside its public PeerID
private_key: PKCS#8 RSA key (DER) as one base64 line in a Spring application.yml property
private_key: Netmaker netclient.yml node private key (X25519, base64) beside its public key
private_key: Bitcoin Core `listdescriptors true` output with a tprv descriptor
private_key: secp256k1 key as a Python int literal (hex) for a web3.py signing demo
private_key: RSA key in a Markdown table cell with <br> for newlines (Notion export)
private_key: OpenSSH key inside a VS Code Remote-SSH secrets JSON (\\n-escaped)
private_key: EC key pasted with each line quoted as an email reply (> prefix)
password: Catalan 'contrasenya' label in a Barcelona exchange note
password: Croatian 'lozinka' label for a dorm Wi-Fi
password: Danish 'adgangskode' with MitID-like account in a Copenhagen note
password: Romanian 'parolă' label in an Erasmus Bucharest note
password: Mongolian Cyrillic 'нууц үг' label in a language-class note
password: Tamil கடவுச்சொல் label in a Chennai internship note
password: Swahili 'nenosiri' label in a Nairobi volunteer note
password: Khmer ពាក្យសម្ងាត់ label in a Phnom Penh homestay chat
password: SQLCipher PRAGMA key in a sqlite3 shell transcript
password: kubectl create secret --from-literal=password= in a CI job
password: helm install --set auth.rootPassword= in a Bitnami MySQL lab
password: ssh-keygen -N passphrase for a new key in shell history
password: echo -n passphrase | cryptsetup luksOpen in an rc.local
password: rar a -hp archive password in a WinRAR command in a course-materials note
password: mutool draw -p password to render an encrypted PDF
password: Apple app-specific password (xxxx-xxxx-xxxx-xxxx) for Thunderbird iCloud mail
password: Alipay payment password (支付密码) six digits in a note for parents
password: SIM card PUK code with the PIN in a phone-setup note
password: luggage and hotel-safe combinations in a travel checklist
password: BIOS supervisor password in a lab-machine handover note
password: Synology DSM admin password in a LaTeX lab report \\item
password: password column in a semicolon-separated CSV exported by Excel (German locale)
password: initial password sent in a plain-text mail from IT (mail headers then body)
password: keyring.set_password with a literal in a setup script
password: Electron app store (electron-store) config.json holding a login password
password: campus-card payment password (校园卡消费密码) in a Chinese note
password: Ansible become password given with --extra-vars JSON in a playbook note
password: Wi-Fi password spelled with the NATO alphabet after a phone call
resident_id: Spanish NIE (X/Y/Z + 7 digits + letter) on a TIE appointment note
resident_id: Czech rodné číslo (YYMMDD/XXXX, divisible by 11) in a Prague dorm form
resident_id: Serbian JMBG (13 digits, mod-11) in a Belgrade language-school form
resident_id: Icelandic kennitala (DDMMYY-NNNN, mod-11) in a Reykjavík internship note
resident_id: Greek AMKA (11 digits, Luhn) in a clinic appointment e-mail
resident_id: Austrian Sozialversicherungsnummer (NNNC DDMMYY) on an e-card note
resident_id: Kazakhstan ИИН (12 digits with check) of a classmate in a visa-support letter draft
resident_id: Ecuadorian cédula (10 digits, mod-10) in a Quito volunteer registration
resident_id: Lithuanian asmens kodas (11 digits, check) in a Vilnius rental note
resident_id: Taiwan new-format resident certificate (統一證號, letter + 8/9 + 8 digits) in a 居留證 note
resident_id: ID number on a CET-6 admission ticket (准考证) together with the ticket number
resident_id: ID number in a health-checkup report header (体检报告) OCR
resident_id: parents' ID numbers on a birth medical certificate (出生医学证明) OCR
resident_id: child's ID in a personal-income-tax app's special deduction (子女教育) JSON
resident_id: owner ID on a motor-vehicle registration certificate (机动车登记证书) OCR
resident_id: ID number in a university enrolment-archive (学籍档案) CSV export
mobile: Egyptian mobile +20 10x with the Arabic label موبايل
mobile: Kenyan mobile +254 7xx as an M-Pesa number in a volunteer note
mobile: Bangladeshi mobile +880 1xxx-xxxxxx with a Bengali label
mobile: Argentine mobile +54 9 11 with 'celu' in a Buenos Aires flat-share note
mobile: Chilean mobile +56 9 with 'fono' label
mobile: Portuguese mobile 9xx xxx xxx with 'telemóvel' label
mobile: Dutch mobile 06-xxxxxxxx with 'mobiel' label
mobile: Israeli mobile 05x-xxx-xxxx with the Hebrew label נייד
mobile: UAE mobile +971 5x in a Dubai stopover note
mobile: Singapore mobile (8 digits) after 'HP:' in a hall-of-residence note
mobile: Macau mobile 6xxx xxxx with the Cantonese label 手提
mobile: mobile in a HAR request body (postData.text) of an SMS-code login
mobile: Chinese mobile kept as a tuple of 3-4-4 segments joined at run time
bank_card: UnionPay debit card in a tuition-refund form with 开户行 and 户名
bank_card: Norwegian IBAN (NO, 15 characters) in an Oslo stipend note
bank_card: Hungarian IBAN (HU, 28 characters) in a Stipendium Hungaricum note
bank_card: Saudi IBAN (SA, 24 characters) with an Arabic label
bank_card: UAE IBAN in a payroll CSV for a part-time TA
bank_card: Turkish IBAN (TR, 26 characters) with 'IBAN no' in an Istanbul rent note
bank_card: Visa card with verification_value in a Shopify-style checkout JSON
bank_card: Mastercard spelled out in English words read over the phone
bank_card: JCB card number in a PDF statement extract with the name (カード会員様)
bank_card: Singapore DBS account number (3-6-1 shape) with PayNow in a hall-fee note
bank_card: UnionPay card written in lower-case Chinese numerals (〇一二…) in a chat
bank_card: Icelandic IBAN (IS, 26 characters) with 'reikningsnúmer' in a rent note
email: git shortlog -sne output listing a personal address
email: CITATION.cff author with a personal e-mail
email: pyproject.toml authors with a QQ-number mailbox
email: Thunderbird prefs.js user_pref with the identity's address
email: decoded JWT payload pasted from jwt.io holding the student's address
email: resume (简历) contact line with the label 邮箱 and a pipe separator
email: Google Forms responses CSV with an Email Address column
email: Reply-To header with a display name in a forwarded mail
email: personal iCloud address on a conference badge photo OCR
passport: Ukrainian international passport (2 letters + 6 digits) with a Ukrainian label
passport: Kazakh passport (N + 8 digits) in a summer-school group list
passport: Egyptian passport (A + 8 digits) with the Arabic label رقم جواز السفر
passport: Bangladeshi passport (2 letters + 7 digits) in a conference visa-letter CSV
passport: Nigerian passport (A + 8 digits) in a WhatsApp export
passport: Chinese passport on an exit-entry record query result (出入境记录) OCR
passport: Chinese passport in a travel-agency JSON with cardType 护照
passport: Israeli passport (8 digits) with the Hebrew label מספר דרכון
passport: Chilean passport (letter + 7 digits) with 'N° pasaporte' in a Santiago dorm form
address: Colombian address with Calle # NN-NN and Apto
address: Peruvian address with manzana and lote (Mz./Lt.)
address: Costa Rican address given as directions from a landmark
address: Vienna address with Stiege and Tür (Gasse 12/3/14)
address: Norwegian address with a bolignummer (H0201)
address: Ukrainian address (вул./буд./кв.) in a language-exchange note
address: Québec address with app. (appartement) in a French label
address: Tianjin lane-style address (…里 号楼 门 号)
address: Nanjing 新村/幢/室 address
address: home location as a 9-character geohash in a Redis GEO note
address: Korean lot-number (지번) address with 번지 and floor
address: Hangzhou 区/幢/单元/室 address in a moving-company order JSON
otp_secret: zbarimg output of a 2FA QR screenshot (otpauth URI)
otp_secret: Ente Auth plain-text export (one otpauth URI per line)
otp_secret: pass-otp insert fed by echo in shell history
otp_secret: Otp.NET Totp with Base32Encoding.ToBytes literal in C#
otp_secret: ROTP::TOTP.new with a lower-case base32 literal in Ruby
otp_secret: exchange 2FA backup key (备份密钥) with a Chinese label
otp_secret: Epic Games backup codes file (ten 10-character codes)
otp_secret: HOTP secret as hex in an ESP32 MicroPython TOTP-clock config
otp_secret: Nextcloud TOTP secret shown as text under the QR on the setup page
recovery_phrase: seed words as an Anki deck export (number<TAB>word) to 'memorise' them
recovery_phrase: phrase as a Python dict {position: word} in a recovery script
recovery_phrase: phrase as a YAML list under wallet.mnemonic in a test-net bot config
recovery_phrase: phrase written CamelCase without separators
recovery_phrase: English words embedded in a Chinese sentence as if a vocabulary list
recovery_phrase: Korean words in a LaTeX tabular (4x3) in a wallet-backup PDF source
recovery_phrase: Portuguese words from a Word table converted to text (tab-separated rows)
recovery_phrase: Spanish 24 words sent to oneself in two SMS messages (12 + 12)
recovery_phrase: Russian words in a mail to oneself with the subject 'на всякий случай'
recovery_phrase: phrase words numbered 1-12 written two per line in a paper-wallet photo OCR
licence_plate: Swedish registreringsnummer (ABC 12D) with 'regnr'
licence_plate: Norwegian plate (AB 12345) with 'kjennemerke' in a parking note
licence_plate: Czech SPZ (1AB 2345) with 'SPZ' in a carpool note
licence_plate: Greek plate (ΙΚΒ-1234, Greek capitals) with 'πινακίδα'
licence_plate: Mexican plate (ABC-123-D) with 'placas' in a Puebla homestay note
licence_plate: New South Wales rego (AB12CD) in a share-house car note
licence_plate: Ontario plate (ABCD 123) in a Toronto carpool message
licence_plate: plate and VIN in a parking-space lease (车位租赁合同) table
licence_plate: plate in a residential-compound WeChat group (挪车) with the owner's name
"""

from benchmarks.gate_corpus import Case

CASES: list[Case] = [
    Case('h14-001', 'api_key', 'py',
         'from openai import OpenAI\n\n# 作业 3：对比 Llama 与 Mixtral 的中文摘要\nclient = OpenAI(\n    base_url="https://api.endpoints.anyscale.com/v1",\n    api_key="esecret_inf4fo2xw4exah9qcaxtxs4a4m",\n)\n',
         ('esecret_inf4fo2xw4exah9qcaxtxs4a4m',)),
    Case('h14-002', 'api_key', 'note',
         '【群聊：大模型学习小组】\n2026-11-30 21:14 小周：360 那个智脑 API 我申请下来了，先借你们跑作业\n2026-11-30 21:14 小周：fk807686643.4c67224d1065b122514b0018d663227903f1e589\n2026-11-30 21:15 阿敏：收到，跑完就删',
         ('fk807686643.4c67224d1065b122514b0018d663227903f1e589',)),
    Case('h14-003', 'api_key', 'yaml',
         '# 天工 API 配置（别提交到 git！）\nskywork:\n  endpoint: https://sky-api.singularity-ai.com/saas/api/v4/generate\n  app_key: 9b8510fd70f68597358ae7fde2a2484a   # 应用 key\n  app_secret: fece279c7ac68c91b464418216c206c5  # 应用密钥\n',
         ('9b8510fd70f68597358ae7fde2a2484a', 'fece279c7ac68c91b464418216c206c5')),
    Case('h14-004', 'api_key', 'md',
         '## 课程集群推理服务\n\n- [x] 注册无问芯穹 GenStudio\n- [x] 生成 API 密钥：`sk-p485r7r4m22wuiwa5wkvcbt3d1r33y59aq18oyxdqvjuqck6`\n- [ ] 把 base_url 换成 `https://cloud.infini-ai.com/maas/v1`\n',
         ('sk-p485r7r4m22wuiwa5wkvcbt3d1r33y59aq18oyxdqvjuqck6',)),
    Case('h14-005', 'api_key', 'yaml',
         "qy_access_key_id: 'MBMHRQKLCSUADPIJPEWZ'\nqy_secret_access_key: 'c1JZ8b6jd1cDE1GsmZg2YoDLJwwoMoxKgUYksa9w'\nzone: 'pek3'\n",
         ('MBMHRQKLCSUADPIJPEWZ', 'c1JZ8b6jd1cDE1GsmZg2YoDLJwwoMoxKgUYksa9w')),
    Case('h14-006', 'api_key', 'py',
         "import boto3\n\n# 天翼云对象存储，兼容 S3\ns3 = boto3.client(\n    's3',\n    endpoint_url='https://oos-cn.ctyunapi.cn',\n    aws_access_key_id='47f810dc186093542828914474b21e83',\n    aws_secret_access_key='146462b9f186ba88bfc452f0404968a9',\n)\n",
         ('47f810dc186093542828914474b21e83', '146462b9f186ba88bfc452f0404968a9')),
    Case('h14-007', 'api_key', 'py',
         "from ronglian_sms_sdk import SmsSDK\n\naccId = 'e26cc7922344cd4736b64c17a2b1add9'\naccToken = 'a9fc76e7ae57612cc09916743f84dd91'\nappId = '8a216da8a41e2f54145526d1cb4e5397'\n\nsdk = SmsSDK(accId, accToken, appId)\nsdk.sendMessage('1', '13800000000', ('1234', '5'))  # 测试号码\n",
         ('e26cc7922344cd4736b64c17a2b1add9', 'a9fc76e7ae57612cc09916743f84dd91')),
    Case('h14-008', 'api_key', 'env',
         '# checkout.com sandbox\nCKO_PUBLIC_KEY=pk_sbox_gxe0sgkhy9wqjc9iuv9w09zt11\nCKO_SECRET_KEY=sk_sbox_s83nheqfxm9n8cw5abddpb6c9p\nCKO_PROCESSING_CHANNEL=pc_ga07lxm4yx85mc8eg0o4laced0\n',
         ('sk_sbox_s83nheqfxm9n8cw5abddpb6c9p',)),
    Case('h14-009', 'api_key', 'note',
         '独立开发记账：\n- 收款走 Paddle（MoR，帮忙交 VAT）\n- live key: pdl_live_apikey_znznicbocai21lyh41vt2h251z_59KPWtFTlsLugNRlA80xWZ_c1A\n- webhook 地址 /api/paddle/webhook',
         ('pdl_live_apikey_znznicbocai21lyh41vt2h251z_59KPWtFTlsLugNRlA80xWZ_c1A',)),
    Case('h14-010', 'api_key', 'py',
         "# Kunci server Midtrans (jangan dibagikan)\nMIDTRANS_SERVER_KEY = 'Mid-server-TwGxvAif0bOq6ayVViWl6F6G'\nMIDTRANS_CLIENT_KEY = 'Mid-client-xZIKJA36a2xIb1m1'\nMIDTRANS_IS_PRODUCTION = True\n",
         ('Mid-server-TwGxvAif0bOq6ayVViWl6F6G',)),
    Case('h14-011', 'api_key', 'note',
         'TODO 周末：把课程电子书放到 Lemon Squeezy 卖\nAPI key（只在设置页显示一次）:\neyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJhdWQiOiI5NGQ1OWNlZiIsImp0aSI6IjUwYTQ4MGQyMzFmMTJhNmNlZGMyZmJiMGJkN2ViMTdjOGJjZDZkYzYiLCJpYXQiOjE3NjQwMDAwMDAsInN1YiI6IjgxMjM0Iiwic2NvcGVzIjpbXX0.AnskDWy7kf9APacouASvXMvonT3IhTRBSg_i78I-A4k\n',
         ('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJhdWQiOiI5NGQ1OWNlZiIsImp0aSI6IjUwYTQ4MGQyMzFmMTJhNmNlZGMyZmJiMGJkN2ViMTdjOGJjZDZkYzYiLCJpYXQiOjE3NjQwMDAwMDAsInN1YiI6IjgxMjM0Iiwic2NvcGVzIjpbXX0.AnskDWy7kf9APacouASvXMvonT3IhTRBSg_i78I-A4k',)),
    Case('h14-012', 'api_key', 'env',
         'GOCARDLESS_ENV=live\nGOCARDLESS_ACCESS_TOKEN=live_lTc75OGZyGJZegFowNN_HRnH9sijnOIQpLXc8Oix\nAPP_URL=https://tutor-invoices.fly.dev\n',
         ('live_lTc75OGZyGJZegFowNN_HRnH9sijnOIQpLXc8Oix',)),
    Case('h14-013', 'api_key', 'note',
         '付学费的自动化：Wise 个人 token（Settings → API tokens，read only 不够，要 full access）\nWise API token: 3025c499-cc0e-4f07-8aee-445893c5f970\n',
         ('3025c499-cc0e-4f07-8aee-445893c5f970',)),
    Case('h14-014', 'api_key', 'yaml',
         'logins:\n- name: codeberg\n  url: https://codeberg.org\n  token: 90038e7fb6f587afc8899437a50657babb3b0a5a\n  default: true\n  ssh_host: codeberg.org\n  user: lin-notes\n',
         ('90038e7fb6f587afc8899437a50657babb3b0a5a',)),
    Case('h14-015', 'api_key', 'note',
         "$ podman login -u='kb_course+ci_robot' -p='MLFF8US5CKQL6EKK8JD6NPUMAM2VDITVAK60EDKZPYBCE0MLYFFH713YM3KA21SG' quay.io\nLogin Succeeded!\n$ podman push quay.io/kb_course/jieba-api:0.3\n",
         ('MLFF8US5CKQL6EKK8JD6NPUMAM2VDITVAK60EDKZPYBCE0MLYFFH713YM3KA21SG',)),
    Case('h14-016', 'api_key', 'yaml',
         'apiVersion: v1\nkind: Secret\nmetadata:\n  name: harbor-pull\ntype: kubernetes.io/basic-auth\nstringData:\n  username: robot$course+puller\n  password: IMY0f1643Tt0OHcYzIn227YWRX0nbujg\n',
         ('IMY0f1643Tt0OHcYzIn227YWRX0nbujg',)),
    Case('h14-017', 'api_key', 'json',
         '{\n  "sinks": {\n    "axiom": {\n      "type": "axiom",\n      "inputs": [\n        "app_logs"\n      ],\n      "dataset": "kb-logs",\n      "token": "xaat-377b164a-397b-4a42-ba64-7c0422a257bd",\n      "org_id": "lin-notes-x1ab"\n    }\n  }\n}',
         ('xaat-377b164a-397b-4a42-ba64-7c0422a257bd',)),
    Case('h14-018', 'api_key', 'note',
         'wget -O Dynatrace-OneAgent.sh "https://abc12345.live.dynatrace.com/api/v1/deployment/installer/agent/unix/default/latest?arch=x86" --header="Authorization: Api-Token dt0c01.JRLR30AEW38SS3UUHBLF1NEY.OQF093SUOPMHX33UPY3EHPWFVTJENWCO48722ODJHCCWVVGB0HBLUHXG2QVQA6CI"',
         ('dt0c01.JRLR30AEW38SS3UUHBLF1NEY.OQF093SUOPMHX33UPY3EHPWFVTJENWCO48722ODJHCCWVVGB0HBLUHXG2QVQA6CI',)),
    Case('h14-019', 'api_key', 'py',
         "import requests\n\nrequests.post('https://api.pushover.net/1/messages.json', data={\n    'token': 'p8na9a34ivxptlri26oa1dqfxo0xjl',\n    'user': 'frk9fphpilrzgb2lbjqgy2ksfkpqjm',\n    'message': '单词打卡完成 ✅',\n})\n",
         ('p8na9a34ivxptlri26oa1dqfxo0xjl', 'frk9fphpilrzgb2lbjqgy2ksfkpqjm')),
    Case('h14-020', 'api_key', 'md',
         '| 项 | 值 |\n|---|---|\n| 服务器 | chat.lab.example.edu |\n| Bot | study-bot |\n| Token | u8kt5mk38ewn9dip2g0tb5vb4g |\n| 频道 | town-square |\n',
         ('u8kt5mk38ewn9dip2g0tb5vb4g',)),
    Case('h14-021', 'api_key', 'note',
         'Bluesky 自动转发（用 app password，不是登录密码）\nhandle: linstudies.bsky.social\napp password: 60lf-rinz-5nfb-1jbx',
         ('60lf-rinz-5nfb-1jbx',)),
    Case('h14-022', 'api_key', 'py',
         "from wxpusher import WxPusher\n\nWxPusher.send_message('今晚 8 点听力练习', uids=['UID_xOdwIyWRT7jKpQDr9n5jnUc1F26U'], token='AT_1zIcFiZrSVGKPYhCsMX7WN5FxruObQX0')\n",
         ('AT_1zIcFiZrSVGKPYhCsMX7WN5FxruObQX0',)),
    Case('h14-023', 'api_key', 'py',
         'from llama_parse import LlamaParse\n\nparser = LlamaParse(api_key="llx-cZHMm9WOhwOxPi9JuJqLU49i0HyEYzO5oklk3Hzcldyt6txD", result_type="markdown", language="ch_sim")\ndocs = parser.load_data(\'操作系统第7讲.pdf\')\n',
         ('llx-cZHMm9WOhwOxPi9JuJqLU49i0HyEYzO5oklk3Hzcldyt6txD',)),
    Case('h14-024', 'api_key', 'note',
         ': 1764487200:0;curl -X POST https://api.firecrawl.dev/v1/scrape -H \'Authorization: Bearer fc-c0ed6fff374a4ddd41ac0bb3b8b4de67\' -H \'Content-Type: application/json\' -d \'{"url":"https://doc.rust-lang.org/book/"}\'',
         ('fc-c0ed6fff374a4ddd41ac0bb3b8b4de67',)),
    Case('h14-025', 'api_key', 'py',
         "from serpapi import GoogleSearch\n\nparams = {\n    'engine': 'google_scholar',\n    'q': '中文分词 条件随机场',\n    'api_key': '92c6dc42d146a974d432d9af5a2ad3d3177731840e781dcde78644787bb939e1',\n}\nresults = GoogleSearch(params).get_dict()\n",
         ('92c6dc42d146a974d432d9af5a2ad3d3177731840e781dcde78644787bb939e1',)),
    Case('h14-026', 'api_key', 'yaml',
         'vectorstore:\n  kind: qdrant\n  url: https://5a0263fe-6eaa-4812-ad12-8b8b4bc22abd.us-east4-0.gcp.cloud.qdrant.io:6333\n  api_key: YoCkEXHv065yJqAMUCirI_kDF0QMxnw3mBV5YPoC9L5zMJD5i4Lcz-\n  collection: lecture_notes\n',
         ('YoCkEXHv065yJqAMUCirI_kDF0QMxnw3mBV5YPoC9L5zMJD5i4Lcz-',)),
    Case('h14-027', 'api_key', 'note',
         '講義の文字起こし（AssemblyAI）\nAPIキー：fd5956e7eb5c7a10d5fd4606ce14f3d9\n話者分離 ON、言語 ja',
         ('fd5956e7eb5c7a10d5fd4606ce14f3d9',)),
    Case('h14-028', 'api_key', 'py',
         "import os\nimport gradio as gr\nfrom stability_sdk import client\n\nstability = client.StabilityInference(\n    key=os.getenv('STABILITY_KEY', 'sk-UggVGJQwm1pMegcT4JqOaEoDG742bpZ4zeaWSI3gjp9ITce6'),\n    engine='stable-diffusion-xl-1024-v1-0',\n)\n",
         ('sk-UggVGJQwm1pMegcT4JqOaEoDG742bpZ4zeaWSI3gjp9ITce6',)),
    Case('h14-029', 'api_key', 'note',
         '东京游学路线图：\nhttps://maps.geoapify.com/v1/staticmap?style=osm-bright&width=600&height=400&center=lonlat:139.767,35.681&zoom=12&apiKey=bb44239a6be8d054575302fa38de29e6',
         ('bb44239a6be8d054575302fa38de29e6',)),
    Case('h14-030', 'api_key', 'env',
         'CLICKUP_TOKEN=pk_18125492_EB0AI26C9IXOH85530404ME38WL5M36V\nCLICKUP_LIST_ID=901110318114\n',
         ('pk_18125492_EB0AI26C9IXOH85530404ME38WL5M36V',)),
    Case('h14-031', 'api_key', 'txt',
         '[settings]\ndebug = false\napi_key = waka_1c4b89d8-5212-4477-b371-ac28f9ebcee6\nhide_file_names = true\n',
         ('waka_1c4b89d8-5212-4477-b371-ac28f9ebcee6',)),
    Case('h14-032', 'api_key', 'json',
         '{\n  "pocketConsumerKey": "312022-7fba53a6a388c06cd0cadf7c",\n  "pocketAccessToken": "2910f3a9-60dc-53d2-d757-c8480667f2ee",\n  "syncFolder": "Inbox/Pocket",\n  "tag": "read"\n}',
         ('312022-7fba53a6a388c06cd0cadf7c', '2910f3a9-60dc-53d2-d757-c8480667f2ee')),
    Case('h14-033', 'api_key', 'note',
         '发布 IntelliJ 插件（词典查词）：\n./gradlew publishPlugin -Dorg.gradle.project.intellijPublishToken=perm:bGluLm5vdGVz.28-8648.6IADr0lwIWbHrQqlOmEB2xLgCDjtX0',
         ('perm:bGluLm5vdGVz.28-8648.6IADr0lwIWbHrQqlOmEB2xLgCDjtX0',)),
    Case('h14-034', 'api_key', 'note',
         'VS Code 插件也发到 Open VSX（VSCodium 用户）：\n$ npx ovsx publish kb-markdown-0.2.1.vsix -p 88becfc8-e2ba-42ca-854c-2bee6e85015d\n🚀 Published lin.kb-markdown v0.2.1',
         ('88becfc8-e2ba-42ca-854c-2bee6e85015d',)),
    Case('h14-035', 'api_key', 'env',
         '# Vercel → Settings → Environment Variables (exported)\nCONVEX_DEPLOY_KEY="prod:vocab-edepvn-840|3TkYBvh+ekbvJHO41DKtDLhkHc8Hd/VHv6JCFuaGgDC2OgGfqj2XHg4qOvG4qOb5"\nNEXT_PUBLIC_CONVEX_URL="https://example-123.convex.cloud"\n',
         ('prod:vocab-edepvn-840|3TkYBvh+ekbvJHO41DKtDLhkHc8Hd/VHv6JCFuaGgDC2OgGfqj2XHg4qOvG4qOb5',)),
    Case('h14-036', 'api_key', 'note',
         '메일 릴레이 (SparkPost)\nAPI 키: 854448bae9cdb557ef44019e56b97e498ad3ef91\nsmtp.sparkpostmail.com:587, 사용자명 SMTP_Injection',
         ('854448bae9cdb557ef44019e56b97e498ad3ef91',)),
    Case('h14-037', 'api_key', 'py',
         "<?php\n// config/services.php\nreturn [\n    'mailersend' => [\n        'api_key' => env('MAILERSEND_API_KEY', 'mlsn.72d171e71dffebc4c3ded9101327abff8e24ecfdfb71decce9c8b50a0406c864'),\n    ],\n];\n",
         ('mlsn.72d171e71dffebc4c3ded9101327abff8e24ecfdfb71decce9c8b50a0406c864',)),
    Case('h14-038', 'api_key', 'env',
         'STYTCH_PROJECT_ID=project-live-ad461725-0d14-43c3-b7d7-95654fa65b39\nSTYTCH_SECRET=secret-live-81G0FCt7fozF6As49ePCL=BZS5iJxIt8j2fe\n',
         ('secret-live-81G0FCt7fozF6As49ePCL=BZS5iJxIt8j2fe',)),
    Case('h14-039', 'api_key', 'txt',
         '[default]\nendpoint=ovh-eu\n\n[ovh-eu]\napplication_key=5xWzeE2Ebt0HiUaT\napplication_secret=1d3a3cc29ecd04dcb434ca642fbc06f3\nconsumer_key=432e459896097b5a4b82d8baf6c131bb\n',
         ('1d3a3cc29ecd04dcb434ca642fbc06f3', '432e459896097b5a4b82d8baf6c131bb')),
    Case('h14-040', 'api_key', 'txt',
         'defaultaccount = "course"\n\n[[accounts]]\n  name = "course"\n  key = "EXOf1f33487fdb8d39cdd0bea2f"\n  secret = "NruqWTJfHFa6I6QULYdi9_hkLdRWiJnHR9m-vkhqv2s"\n  defaultZone = "ch-gva-2"\n',
         ('EXOf1f33487fdb8d39cdd0bea2f', 'NruqWTJfHFa6I6QULYdi9_hkLdRWiJnHR9m-vkhqv2s')),
    Case('h14-041', 'api_key', 'py',
         "# 防止被 secret scanning 扫到（其实没用）\nTOGGL_TOKEN = ''.join(['8', '7', 'b', 'c', '2', 'e', '5', '1', 'c', '4', 'a', '7', '4', 'c', '5', '6', '1', 'b', '1', '5', '4', '1', '5', '5', '7', 'c', '1', 'a', '3', '0', '0', '9'])\nauth = (TOGGL_TOKEN, 'api_token')\n",
         ("'8', '7', 'b', 'c', '2', 'e', '5', '1', 'c', '4', 'a', '7', '4', 'c', '5', '6', '1', 'b', '1', '5', '4', '1', '5', '5', '7', 'c', '1', 'a', '3', '0', '0', '9'",)),
    Case('h14-042', 'api_key', 'note',
         "划词翻译书签：\njavascript:(()=>{const k=String.fromCharCode(78,120,102,74,55,111,103,105,77,100,114,66,112,106,84,85,114,57,66,117,71,111,49,104,102,68,117,107,100,110,99,86,53,119,76,88,97,117,78,87);fetch('https://api.lingvanex.com/v2/translate',{method:'POST',headers:{Authorization:'Bearer '+k}})})()",
         ('78,120,102,74,55,111,103,105,77,100,114,66,112,106,84,85,114,57,66,117,71,111,49,104,102,68,117,107,100,110,99,86,53,119,76,88,97,117,78,87',)),
    Case('h14-043', 'api_key', 'py',
         "import codecs\n\n# rot13 一下，别让扫描器认出来\n_K = 'fx-nag-ncv03-o9G-jbbnuMD5D0G9MJLBBKDosFZKjlf0b31hGdcgxnFUM2e657Oad0bcqt-7Q5S-urHTICtMPVf3NhY-65rEYYMuj_bwDNN'\nAPI_KEY = codecs.decode(_K, 'rot13')\n",
         ('fx-nag-ncv03-o9G-jbbnuMD5D0G9MJLBBKDosFZKjlf0b31hGdcgxnFUM2e657Oad0bcqt-7Q5S-urHTICtMPVf3NhY-65rEYYMuj_bwDNN',)),
    Case('h14-044', 'api_key', 'yaml',
         'env:\n  HF_TOKEN: >-\n    hf_MHznDNAIPYPDWgiQm\n    Rs2VNQNqiNUZIrlEP\n  HF_HOME: /data/hf\n',
         ('hf_MHznDNAIPYPDWgiQm', 'Rs2VNQNqiNUZIrlEP')),
    Case('h14-045', 'api_key', 'txt',
         'deploy:\n\tGROQ_API_KEY=gsk_CkUqvml0Uh12iR8JRyZwSTzh\\\njMx2h1MPuGzy0hA9KUNbASS5wtnw python serve.py\n',
         ('gsk_CkUqvml0Uh12iR8JRyZwSTzh', 'jMx2h1MPuGzy0hA9KUNbASS5wtnw')),
    Case('h14-046', 'api_key', 'note',
         '<!-- 保存的网页片段 -->\n<script data-key="&#x41;&#x49;&#x7a;&#x61;&#x6a;&#x62;&#x6b;&#x61;&#x31;&#x77;&#x34;&#x6c;&#x67;&#x59;&#x62;&#x4c;&#x4c;&#x32;&#x71;&#x47;&#x74;&#x69;&#x46;&#x4e;&#x74;&#x6a;&#x45;&#x61;&#x33;&#x49;&#x56;&#x50;&#x47;&#x51;&#x78;&#x31;&#x6b;&#x52;&#x69;" src="/maps-loader.js"></script>',
         ('&#x41;&#x49;&#x7a;&#x61;&#x6a;&#x62;&#x6b;&#x61;&#x31;&#x77;&#x34;&#x6c;&#x67;&#x59;&#x62;&#x4c;&#x4c;&#x32;&#x71;&#x47;&#x74;&#x69;&#x46;&#x4e;&#x74;&#x6a;&#x45;&#x61;&#x33;&#x49;&#x56;&#x50;&#x47;&#x51;&#x78;&#x31;&#x6b;&#x52;&#x69;',)),
    Case('h14-047', 'api_key', 'txt',
         "-- 导出的 SQLite（课程聊天机器人）\nINSERT INTO settings(key, value, updated_at) VALUES('openai_api_key', 'sk-proj-lIE9mDiBgP15GaAq21DYFRt_R6-xauQg0jRpKl0xx8LfZ2z29ytuMiVqyhLAT3BlbkFJWHzmfH7HmX56p84mSjGJStMKRGA-qPDJXgoL-UBAwhZ2lUNZU1eVHtK_IGRs', '2026-11-28 10:02:11');\nINSERT INTO settings(key, value, updated_at) VALUES('model', 'gpt-4o-mini', '2026-11-28 10:02:11');\n",
         ('sk-proj-lIE9mDiBgP15GaAq21DYFRt_R6-xauQg0jRpKl0xx8LfZ2z29ytuMiVqyhLAT3BlbkFJWHzmfH7HmX56p84mSjGJStMKRGA-qPDJXgoL-UBAwhZ2lUNZU1eVHtK_IGRs',)),
    Case('h14-048', 'api_key', 'txt',
         '服务,配置\n翻译,"{""provider"": ""deepseek"", ""key"": ""sk-4wGsKSTrowYUo8B5LUPoUNOt5TTjrmXbrDiTXYeieP3BIbQQ""}"\n',
         ('sk-4wGsKSTrowYUo8B5LUPoUNOt5TTjrmXbrDiTXYeieP3BIbQQ',)),
    Case('h14-049', 'auth_header', 'note',
         "curl 'https://www.duolingo.com/2017-06-30/users/170634651?fields=streak' \\\n  -H 'accept: application/json' \\\n  -b 'jwt_token=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI4NTYyOTI4MDEiLCJpYXQiOjE3NjQzMDAwMDAsImV4cCI6MTc5NTgzNjAwMCwianRpIjoiYmY4NWFhMDgtYTJhZC00YzA2LWEzYzQtZDVmOTRhYzIxYmJiIn0.i-uRWnT9UlJPIcFoJEq1Lkaz9pcapYzR1y22Mpl0yvk; lang=zh' \\\n  --compressed",
         ('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI4NTYyOTI4MDEiLCJpYXQiOjE3NjQzMDAwMDAsImV4cCI6MTc5NTgzNjAwMCwianRpIjoiYmY4NWFhMDgtYTJhZC00YzA2LWEzYzQtZDVmOTRhYzIxYmJiIn0.i-uRWnT9UlJPIcFoJEq1Lkaz9pcapYzR1y22Mpl0yvk',)),
    Case('h14-050', 'auth_header', 'json',
         '{\n "log": {\n  "entries": [\n   {\n    "request": {\n     "method": "GET",\n     "url": "https://api.xueersi.com/v1/course/list",\n     "headers": [\n      {\n       "name": "Host",\n       "value": "api.xueersi.com"\n      },\n      {\n       "name": "token",\n       "value": "c17913c3d66eed38fad0512cfcc049be"\n      },\n      {\n       "name": "User-Agent",\n       "value": "jzh/9.12 iOS"\n      }\n     ]\n    }\n   }\n  ]\n }\n}',
         ('c17913c3d66eed38fad0512cfcc049be',)),
    Case('h14-051', 'auth_header', 'json',
         '{\n  "id": "1beba4fa-62ed-4a30-82b1-75691e4330a0",\n  "name": "教务系统-测试",\n  "values": [\n    {\n      "key": "baseUrl",\n      "value": "https://jw.example.edu.cn/api",\n      "enabled": true\n    },\n    {\n      "key": "登录令牌",\n      "value": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1aWQiOjM2MDQ1Mywicm9sZSI6InN0dWRlbnQiLCJpYXQiOjE3NjQzMDAwMDAsImV4cCI6MTc2NDkwNDgwMH0.TDmWPa_xC9WC9koVh_KWXZakVQxQxK8WV-i6FDniBHs",\n      "type": "secret",\n      "enabled": true\n    }\n  ],\n  "_postman_variable_scope": "environment"\n}',
         ('eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1aWQiOjM2MDQ1Mywicm9sZSI6InN0dWRlbnQiLCJpYXQiOjE3NjQzMDAwMDAsImV4cCI6MTc2NDkwNDgwMH0.TDmWPa_xC9WC9koVh_KWXZakVQxQxK8WV-i6FDniBHs',)),
    Case('h14-052', 'auth_header', 'note',
         "$ http GET https://canvas.school.example.edu/api/v1/courses 'Authorization:Bearer 1234~413b093b9d4460893396f48bba208a25HnBLj077DfhhHmCA4Aok5EM5rIAWKqZN'",
         ('1234~413b093b9d4460893396f48bba208a25HnBLj077DfhhHmCA4Aok5EM5rIAWKqZN',)),
    Case('h14-053', 'auth_header', 'txt',
         'GET https://meeting.tencent.com/wemeet-webapi/v2/meetlog/list HTTP/1.1\r\nHost: meeting.tencent.com\r\nCookie: we_meet_token=BIRzX9SjDYJHMEvDfPQYE902xcnQ7B6iJf7nQNCOetGe8LkFozd7EHtnBkU8fxGL; corp_id=1400143280; app_uid=e5f72cd70530ee8c6bfd5ea25d164cfb\r\nAccept: */*\r\n\r\n',
         ('BIRzX9SjDYJHMEvDfPQYE902xcnQ7B6iJf7nQNCOetGe8LkFozd7EHtnBkU8fxGL',)),
    Case('h14-054', 'auth_header', 'note',
         '快手批量下载工具 设置 → Cookie：\nkpf=PC_WEB; clientid=3; did=web_b9f0ae1e3de81da7ec52213729777fd0; kuaishou.server.web_st=X9dfybQ9Uw4bbRutBwsxjghzc3c5hLom8PI817yqNv9HwWzpf3nGNyGOPoPCDyMABPpJnI7KwuG7O6klKePHEOkFSfflJxhbNoiAavNvXqP4dFg36LUOi83L6SBTXqTdrcVslzsApRnrXTFjUE2YqTlhkuGd0Qe7w75lvd3EuoJt; kuaishou.server.web_ph=bc050f50762a7863b2665dc49320f28e',
         ('X9dfybQ9Uw4bbRutBwsxjghzc3c5hLom8PI817yqNv9HwWzpf3nGNyGOPoPCDyMABPpJnI7KwuG7O6klKePHEOkFSfflJxhbNoiAavNvXqP4dFg36LUOi83L6SBTXqTdrcVslzsApRnrXTFjUE2YqTlhkuGd0Qe7w75lvd3EuoJt', 'bc050f50762a7863b2665dc49320f28e')),
    Case('h14-055', 'auth_header', 'yaml',
         'extractor:\n  pixiv:\n    cookies:\n      PHPSESSID: "78416322_9b23ebd2825717a50311d229980f74d5"\n    ugoira: true\n',
         ('78416322_9b23ebd2825717a50311d229980f74d5',)),
    Case('h14-056', 'auth_header', 'note',
         "wget --header 'Cookie: NOWCODERUID=8137a856d420caaff0dac47e631bb79e; t=19CE1B8F5895F5A4203528C31BD1CADB; sid=020065c6264c0925a499663ce2039ec840782007' https://www.nowcoder.com/exam/oj -O oj.html",
         ('19CE1B8F5895F5A4203528C31BD1CADB', '020065c6264c0925a499663ce2039ec840782007')),
    Case('h14-057', 'auth_header', 'yaml',
         'routes:\n  - uri: /kb/*\n    upstream:\n      nodes:\n        "10.0.0.12:8080": 1\n    plugins:\n      proxy-rewrite:\n        headers:\n          set:\n            Authorization: "Basic bGluLnpoYW5nOkFhYUFMdk8wNSM2NA=="\n',
         ('bGluLnpoYW5nOkFhYUFMdk8wNSM2NA==',)),
    Case('h14-058', 'auth_header', 'json',
         '{\n  "name": "kb-dev",\n  "image": "mcr.microsoft.com/devcontainers/python:3.11",\n  "remoteEnv": {\n    "GH_TOKEN": "gho_KI6tdB0wE0H64ST4m3Jay01P9Q2KePHosMkZ"\n  }\n}',
         ('gho_KI6tdB0wE0H64ST4m3Jay01P9Q2KePHosMkZ',)),
    Case('h14-059', 'auth_header', 'note',
         'Thunder Client 请求\nGET http://127.0.0.1:8000/api/notes/\nHeaders:\n  Authorization: Token 0624d7c820d147c6252f61733b194000f7c84cdb\n  Accept: application/json',
         ('0624d7c820d147c6252f61733b194000f7c84cdb',)),
    Case('h14-060', 'auth_header', 'txt',
         '14:02:33.118 IP 192.168.1.7.51842 > 192.168.1.20.5000: Flags [P.]\nE..(..@.@...\nGET /notes HTTP/1.1\nHost: 192.168.1.20:5000\nCookie: session=.4PO-xl1elnTzbDQ0AUsgmtU4Aor_fJUJSK528pAnvoY4CsFZgxieqSTl7aKndJbhf5kFxzi_uiv1I7HZvNlHiA.Z0mFDQ.gmi_YtNI8ZY-lBt8Ze3uYox-uxJ\n',
         ('.4PO-xl1elnTzbDQ0AUsgmtU4Aor_fJUJSK528pAnvoY4CsFZgxieqSTl7aKndJbhf5kFxzi_uiv1I7HZvNlHiA.Z0mFDQ.gmi_YtNI8ZY-lBt8Ze3uYox-uxJ',)),
    Case('h14-061', 'auth_header', 'note',
         "Safari → 网页检查器 → 网络 → 拷贝为 cURL：\ncurl 'https://portal.school.example/grades' -H 'Cookie: laravel_session=ltUESMBwv2aLAluj4oOuKgQjgCnlmLIsNU1NRMVUFB3Cs4Ja4ncgrugiRQR6daBm; XSRF-TOKEN=zEsEm8BgmwG9sG9Ar8y417xBpnFmoalOpRs3GbNM' -H 'X-Requested-With: XMLHttpRequest'",
         ('ltUESMBwv2aLAluj4oOuKgQjgCnlmLIsNU1NRMVUFB3Cs4Ja4ncgrugiRQR6daBm',)),
    Case('h14-062', 'auth_header', 'py',
         "from google.oauth2.credentials import Credentials\nimport gspread\n\ncreds = Credentials(token='ya29.nkwMYO1tbImh4CgATt2W1pgyLVVIfUeysLVIIdxMV-M9y8VinVPly8TRL7d4XO7_qoSsMUPCcFXC5BFI3K3UqjFfOA1elKUGYVDnv9nI-mPIRpuKbQiWh8osw0b0ff_7S9xbMf_keGdPuthwcJ53Sr')\ngc = gspread.authorize(creds)\nsh = gc.open('背单词进度表')\n",
         ('ya29.nkwMYO1tbImh4CgATt2W1pgyLVVIfUeysLVIIdxMV-M9y8VinVPly8TRL7d4XO7_qoSsMUPCcFXC5BFI3K3UqjFfOA1elKUGYVDnv9nI-mPIRpuKbQiWh8osw0b0ff_7S9xbMf_keGdPuthwcJ53Sr',)),
    Case('h14-063', 'auth_header', 'note',
         'WordPress 应用密码（Users → Profile → Application Passwords）\n用户 lin，应用密码 vDpV vhu7 ObDO SeY4 QiJB aU9c\n',
         ('vDpV vhu7 ObDO SeY4 QiJB aU9c',)),
    Case('h14-064', 'auth_header', 'txt',
         'CONNECT pypi.org:443 HTTP/1.1\nHost: pypi.org:443\nProxy-Authorization: Negotiate YIIphg5Yo7td6C8irP6bgW85g0HQSabRBiGepsK6m976P9c==\nUser-Agent: pip/24.3\n',
         ('YIIphg5Yo7td6C8irP6bgW85g0HQSabRBiGepsK6m976P9c==',)),
    Case('h14-065', 'connection_string', 'txt',
         '@echo off\nREM 导入成绩表\nsqlldr userid=SCOTT/River_Harbor_Violet79@//db.lab.example.edu:1521/ORCLPDB1 control=grades.ctl log=grades.log\n',
         ('River_Harbor_Violet79',)),
    Case('h14-066', 'connection_string', 'yaml',
         'spring:\n  data:\n    redis:\n      host: 10.10.2.15\n      port: 6379\n      password: Cobalt.Cobalt.Maple04  # 生产 redis 密码\n      database: 3\n',
         ('Cobalt.Cobalt.Maple04',)),
    Case('h14-067', 'connection_string', 'note',
         "人大金仓实验：\nexport KINGBASE_PASSWORD='Lantern-Cobalt-Walnut05'\nksql -h 192.168.56.10 -p 54321 -U system -d test",
         ('Lantern-Cobalt-Walnut05',)),
    Case('h14-068', 'connection_string', 'py',
         "import psycopg2\nconn = psycopg2.connect(host='dws-x1.huaweicloud.example', port=8000, dbname='gaussdb',\n                        user='dbadmin', password='BkwUaAGHq*10')\n",
         ('BkwUaAGHq*10',)),
    Case('h14-069', 'connection_string', 'txt',
         '[[inputs.influxdb]]\n  urls = ["http://127.0.0.1:8086/debug/vars?u=admin&p=MglJT0qNV0R%4044"]\n',
         ('MglJT0qNV0R%4044',)),
    Case('h14-070', 'connection_string', 'note',
         '$ ./artemis producer --url tcp://10.0.3.4:61616 --user artemis --password xZn6Rftjgckbk565EkRT --destination queue://orders --message-count 10\nProducer ActiveMQQueue[orders], thread=0 Produced: 10 messages',
         ('xZn6Rftjgckbk565EkRT',)),
    Case('h14-071', 'connection_string', 'yaml',
         'pulsar:\n  serviceUrl: pulsar+ssl://pulsar.lab.example.edu:6651\n  authPlugin: org.apache.pulsar.client.impl.auth.AuthenticationBasic\n  authParams: \'{"userId":"stu2024","password":"linlin0426"}\'\n',
         ('linlin0426',)),
    Case('h14-072', 'connection_string', 'note',
         "gitea admin auth add-ldap --name campus --security-protocol starttls --host ldap.lab.example.edu --port 389 --bind-dn 'cn=gitea,ou=svc,dc=lab' --bind-password 'TgeJfHXeR&43' --user-search-base 'ou=people,dc=lab'",
         ('TgeJfHXeR&43',)),
    Case('h14-073', 'connection_string', 'json',
         '{\n  "neo4j.connections": [\n    {\n      "name": "kg-course",\n      "scheme": "neo4j+s",\n      "host": "1a2b3c4d.databases.neo4j.io",\n      "username": "neo4j",\n      "password": "Asdf7828#xiao"\n    }\n  ]\n}',
         ('Asdf7828#xiao',)),
    Case('h14-074', 'connection_string', 'txt',
         '# /etc/auto.nas\nmedia  -fstype=cifs,rw,username=lin,password=Asdf8408@zhou,uid=1000 ://192.168.31.20/media\n',
         ('Asdf8408@zhou',)),
    Case('h14-075', 'connection_string', 'note',
         "# подключение к учебному кластеру\nclickhouse-client --host ch.lab.example.ru --secure --user student --password 'Mgxf4CqVJ&63'",
         ('Mgxf4CqVJ&63',)),
    Case('h14-076', 'connection_string', 'py',
         "app.config['SQLALCHEMY_DATABASE_URI'] = (\n    'mssql+pyodbc://sa:Violet_Cobalt_Walnut40@10.0.0.8:1433/library'\n    '?driver=ODBC+Driver+18+for+SQL+Server&TrustServerCertificate=yes'\n)\n",
         ('Violet_Cobalt_Walnut40',)),
    Case('h14-077', 'connection_string', 'note',
         '快速连接学校 FTP：\nfilezilla "ftpes://s2024011:VNprAyVe5g8w7BU1@ftp.lab.example.edu:21/homework"',
         ('VNprAyVe5g8w7BU1',)),
    Case('h14-078', 'connection_string', 'txt',
         "#!/bin/sh\n# 连校园 VPN\necho 'Cobalt_Pepper_Cobalt31' | sudo openconnect --user=2024011234 --passwd-on-stdin vpn.example.edu.cn\n",
         ('Cobalt_Pepper_Cobalt31',)),
    Case('h14-079', 'connection_string', 'note',
         '$ cbq -e couchbase://10.0.5.5 -u Administrator -p Zxcv2895@xiao\nConnected to : http://10.0.5.5:8091/.\ncbq> SELECT COUNT(*) FROM `travel-sample`;',
         ('Zxcv2895@xiao',)),
    Case('h14-080', 'connection_string', 'yaml',
         'name: inventory-connector\nconfig:\n  connector.class: io.debezium.connector.mysql.MySqlConnector\n  database.hostname: mysql\n  database.port: 3306\n  database.user: debezium\n  database.password: zhangwang860605\n  topic.prefix: dbserver1\n',
         ('zhangwang860605',)),
    Case('h14-081', 'private_key', 'note',
         '【聊天记录：我 与 师兄】\n2026-11-20 23:10 师兄：-----BEGIN RSA PRIVATE KEY-----\n2026-11-20 23:10 师兄：MIIEowIBAAKCAQEAtcKXS7czF/Mnp8a6LJhrtdIfxG/QeaKtBa59eCElbZUB5HIt\n2026-11-20 23:10 师兄：/0cUCfOm9nfa8kEm1uYM2iyFtoCd9MnKXzJXyPz8E4XkrIURfuUXTNzV+JHrbsQv\n2026-11-20 23:10 师兄：HT4E/pXS/P6e5M3wQVwWlmIGF2ogYAnXz2V5JufEN8TEFD4EQYao2EIaoJ+HQSfs\n2026-11-20 23:10 师兄：qWkb92Evc+ybl/mmx2fU3pchSu8ErTm88XIo14lDOa7cIgRheSPj897nwQudDKui\n2026-11-20 23:10 师兄：at+oM9cvqxtZnPO/tEV+h8im0/crbiMNKR1lIW3Np0EtYbFEwSfDJ0fOjnlg0Nz8\n2026-11-20 23:10 师兄：QSQHEEb3PAE9haJo07clAo4oC1kVXAAiIEjVqwIDAQABAoIBAHkhger34Jkpd1gc\n2026-11-20 23:10 师兄：3J4zxjSaIImtauZlP6H1s7CHhoYNNAGnBniGShiHxNGk9slUGipFjnMoEMSb2qj0\n2026-11-20 23:10 师兄：gmYHCvHrh6MLLGa9F/fVfT3APuk1dg2PuUZnurRf7QimOAaMKH2mfXcjRKP+Gi1m\n2026-11-20 23:10 师兄：4ehZ2+/Nrbrs6zACVJvGvmfBRjWcen/Qn2azJ1no2IGEgRyePIIRHrJlHlBqOJW7\n2026-11-20 23:11 师兄：kgfNjStVxNxSX17SDlpub0A3BnqpG0oTMgpDZiseOVUnmqsQI6gui6P54XB5VMHu\n2026-11-20 23:11 师兄：KJQxsZyx90yALlah4dX2KLA6sKSqJ+PeOFYUeGBp3EfMB7AFcYEz/Fyn8TAVHjrS\n2026-11-20 23:11 师兄：CwA816ECgYEAw2xtbn2JSOsFbufGZC73YxxdMQC9nIQGUNk9VCXS1McBGG0rlL31\n2026-11-20 23:11 师兄：he+9P8noiz6TThW96HsE0XWdf8bIwDQifGA8n/KQUgoDmj+rmBzVASEhkP3kCQJk\n2026-11-20 23:11 师兄：rEcuLioO6zrPWNQ38XG3oT1+nlNcPRvB3wYCKuSdyEVpGxFAHa/rXJUCgYEA7hnr\n2026-11-20 23:11 师兄：wZSu/8abdmY7cUpMml4JlKFEluoq7gUOZLI1xYj0G8gWDHc0XP/LolHUX4wzxCY6\n2026-11-20 23:11 师兄：EFMXNUiS/OPfJ8EMolm4DeeBHuvKUcogdc7RsxeC3V15ZorEAAkb4/ZtPIRMAxMv\n2026-11-20 23:11 师兄：0G30z9yR1S7WkXJDkAZFmjK7tHsuGClovjTomT8CgYA7Zimc++tOjqEIJMrYiK4J\n2026-11-20 23:11 师兄：IgXxbxgzCq4gxOcvPI/ovNRIaGZmv5ZxL32GdgiIymxbv6AJmdrND8Lfo7xBL5eL\n2026-11-20 23:11 师兄：1nSW6VOUnBacO94cTicwQLHDMGivlFqlQr12qrH+LdH4XgjjCn2WNOrXlN7kdBtp\n2026-11-20 23:12 师兄：fpoKD5Ml3HMmFwg1/dK8QQKBgFZjLTiFG6FNi+Y/XV3TWUvAxrUYdexTddP6HajH\n2026-11-20 23:12 师兄：R98tu3PA+s73CRac8GMqUWWBVt7aB8MYgpkghcQfYT3pOw5EgxT4Y862OifGsFRN\n2026-11-20 23:12 师兄：/6N86kwqt/tOaaKhq27gX+3PCk0rTvPOkT5Bht/UKKGI1Z6Rx/sUYSowbx7xF0G7\n2026-11-20 23:12 师兄：rJC9AoGBAJegpCqjeXmfgcMyg/kgjxW/DMw0VW/P02S+4fseylS1QrhRSSqd1Jx8\n2026-11-20 23:12 师兄：fAKCRKWRJOgdeJ58eqW21fVo1w0g6TrZohwmzkEhMwDeJ9MyUNUCWJzYqHOfqJrb\n2026-11-20 23:12 师兄：4Uv/g5Yh0BuC0QGFIVgvTrZwCy2Lf9gVb5A/k1OCaDIRY/runToy\n2026-11-20 23:12 师兄：-----END RSA PRIVATE KEY-----\n2026-11-20 23:16 我：收到，服务器登上了',
         ('MIIEowIBAAKCAQEAtcKXS7czF/Mnp8a6LJhrtdIfxG/QeaKtBa59eCElbZUB5HIt', '/0cUCfOm9nfa8kEm1uYM2iyFtoCd9MnKXzJXyPz8E4XkrIURfuUXTNzV+JHrbsQv', 'HT4E/pXS/P6e5M3wQVwWlmIGF2ogYAnXz2V5JufEN8TEFD4EQYao2EIaoJ+HQSfs', 'qWkb92Evc+ybl/mmx2fU3pchSu8ErTm88XIo14lDOa7cIgRheSPj897nwQudDKui', 'at+oM9cvqxtZnPO/tEV+h8im0/crbiMNKR1lIW3Np0EtYbFEwSfDJ0fOjnlg0Nz8', 'QSQHEEb3PAE9haJo07clAo4oC1kVXAAiIEjVqwIDAQABAoIBAHkhger34Jkpd1gc', '3J4zxjSaIImtauZlP6H1s7CHhoYNNAGnBniGShiHxNGk9slUGipFjnMoEMSb2qj0', 'gmYHCvHrh6MLLGa9F/fVfT3APuk1dg2PuUZnurRf7QimOAaMKH2mfXcjRKP+Gi1m', '4ehZ2+/Nrbrs6zACVJvGvmfBRjWcen/Qn2azJ1no2IGEgRyePIIRHrJlHlBqOJW7', 'kgfNjStVxNxSX17SDlpub0A3BnqpG0oTMgpDZiseOVUnmqsQI6gui6P54XB5VMHu', 'KJQxsZyx90yALlah4dX2KLA6sKSqJ+PeOFYUeGBp3EfMB7AFcYEz/Fyn8TAVHjrS', 'CwA816ECgYEAw2xtbn2JSOsFbufGZC73YxxdMQC9nIQGUNk9VCXS1McBGG0rlL31', 'he+9P8noiz6TThW96HsE0XWdf8bIwDQifGA8n/KQUgoDmj+rmBzVASEhkP3kCQJk', 'rEcuLioO6zrPWNQ38XG3oT1+nlNcPRvB3wYCKuSdyEVpGxFAHa/rXJUCgYEA7hnr', 'wZSu/8abdmY7cUpMml4JlKFEluoq7gUOZLI1xYj0G8gWDHc0XP/LolHUX4wzxCY6', 'EFMXNUiS/OPfJ8EMolm4DeeBHuvKUcogdc7RsxeC3V15ZorEAAkb4/ZtPIRMAxMv', '0G30z9yR1S7WkXJDkAZFmjK7tHsuGClovjTomT8CgYA7Zimc++tOjqEIJMrYiK4J', 'IgXxbxgzCq4gxOcvPI/ovNRIaGZmv5ZxL32GdgiIymxbv6AJmdrND8Lfo7xBL5eL', '1nSW6VOUnBacO94cTicwQLHDMGivlFqlQr12qrH+LdH4XgjjCn2WNOrXlN7kdBtp', 'fpoKD5Ml3HMmFwg1/dK8QQKBgFZjLTiFG6FNi+Y/XV3TWUvAxrUYdexTddP6HajH', 'R98tu3PA+s73CRac8GMqUWWBVt7aB8MYgpkghcQfYT3pOw5EgxT4Y862OifGsFRN', '/6N86kwqt/tOaaKhq27gX+3PCk0rTvPOkT5Bht/UKKGI1Z6Rx/sUYSowbx7xF0G7', 'rJC9AoGBAJegpCqjeXmfgcMyg/kgjxW/DMw0VW/P02S+4fseylS1QrhRSSqd1Jx8', 'fAKCRKWRJOgdeJ58eqW21fVo1w0g6TrZohwmzkEhMwDeJ9MyUNUCWJzYqHOfqJrb', '4Uv/g5Yh0BuC0QGFIVgvTrZwCy2Lf9gVb5A/k1OCaDIRY/runToy')),
    Case('h14-082', 'private_key', 'txt',
         '/* jwt_signer.h — 课程设计 */\nstatic const char *SIGNING_KEY =\n"-----BEGIN PRIVATE KEY-----\\n"\n"MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgW1vNogbeKHNGBylf\\n"\n"4wMKWKoMlMvxFPBgO2fnNZYtIwahRANCAASa5GI9IsIQbt0izH07ODXgIMr2z0Vl\\n"\n"u+Hf6jQ3Ra3BiMG6AbVFhW14hO4gv4Af9PondbaAsb/QKYOLGGUQ2KOv\\n"\n"-----END PRIVATE KEY-----\\n";\n',
         ('MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgW1vNogbeKHNGBylf', '4wMKWKoMlMvxFPBgO2fnNZYtIwahRANCAASa5GI9IsIQbt0izH07ODXgIMr2z0Vl', 'u+Hf6jQ3Ra3BiMG6AbVFhW14hO4gv4Af9PondbaAsb/QKYOLGGUQ2KOv')),
    Case('h14-083', 'private_key', 'note',
         'libp2p 节点身份（别丢）：\nPeerID 公开，可以给别人：12D3KooWktgcyNk9D4sqGL63BDTzg1Hs4fGfbJF9xGK4Jb2SGU8r\n私钥 (ed25519 seed, base32): 74YBATF5IJMBLACMZBGE5KCJ5Z6NTW25J2U5ZHZGG63TI4I3FNMQ',
         ('74YBATF5IJMBLACMZBGE5KCJ5Z6NTW25J2U5ZHZGG63TI4I3FNMQ',)),
    Case('h14-084', 'private_key', 'yaml',
         'jwt:\n  # PKCS8, base64 一整行\n  private-key: MIICdgIBADANBgkqhkiG9w0BAQEFAASCAmAwggJcAgEAAoGBALWL77fwNgzC4MRGO5pvLwaGUq5LEnU5kw2J2uIjG/ECLWTg9xCjsIJzCdLVxoxM80lThfeKtdh8DMhZGRPtUJ/+xNGNxXyElv9NI0EkPRgt5tyZCFVlL2D+G36Di8njNCYf7H0FBRiVshv4QgSveAHBtekX1nvCAZnVDSEnuITPAgMBAAECgYBMkRAxC2ZAS5BwNw68O1gh8FS+nXrTZczXUOS3qwcFxl1OxnJs2hx/Z/UkrnRmh62zpz5BAIdhHjBl7u3csaHmohKH1ZACh24wr4hIZl64Xuzrsz524AG5MCkUPfhrp3uEnOsIDJGGPXqCCEkjGkVVDEWyMeBKuUCD1cDbruAlAQJBAOrIBF2Hz3eULmCtzfP15DTb000dcUnVKUbZwkFuGnbnZoD00tV6vAMH9rkFLnlE/hXKFIfy/XgTsF6tKPRuSh8CQQDF9ENLu1dT1vNTOGVYXzi8mzOtezWgRjNmnq857BmtSgsL0SnIKaQVlaAlRl0bq0cVaGYp6QIELOuNmO+InM9RAkBBdi2JapGVNNLNkAhpqjjL6DL9QGVTAcU1hQfduHZWiuSQtjKG5WbArZrEMcaod20k5ChfU4gKz+qQK1XM+WdfAkEAn4Y/DTLGJ0xb/r69/T+Pa37vYGigSK8KETLkJxt7fcjjqfw/XY0hLDvOOPvBYODgggIGAtRBybehhBSxRDiKYQJAe7fow5B/0DVXs/XxJZhiallgVdHWkvd2Sy4QFej6QtrD2JaSOsIYNXVr2R12H5A6YjgWMnKm9c4l01YvJVLiug==\n  issuer: kb-course\n',
         ('MIICdgIBADANBgkqhkiG9w0BAQEFAASCAmAwggJcAgEAAoGBALWL77fwNgzC4MRGO5pvLwaGUq5LEnU5kw2J2uIjG/ECLWTg9xCjsIJzCdLVxoxM80lThfeKtdh8DMhZGRPtUJ/+xNGNxXyElv9NI0EkPRgt5tyZCFVlL2D+G36Di8njNCYf7H0FBRiVshv4QgSveAHBtekX1nvCAZnVDSEnuITPAgMBAAECgYBMkRAxC2ZAS5BwNw68O1gh8FS+nXrTZczXUOS3qwcFxl1OxnJs2hx/Z/UkrnRmh62zpz5BAIdhHjBl7u3csaHmohKH1ZACh24wr4hIZl64Xuzrsz524AG5MCkUPfhrp3uEnOsIDJGGPXqCCEkjGkVVDEWyMeBKuUCD1cDbruAlAQJBAOrIBF2Hz3eULmCtzfP15DTb000dcUnVKUbZwkFuGnbnZoD00tV6vAMH9rkFLnlE/hXKFIfy/XgTsF6tKPRuSh8CQQDF9ENLu1dT1vNTOGVYXzi8mzOtezWgRjNmnq857BmtSgsL0SnIKaQVlaAlRl0bq0cVaGYp6QIELOuNmO+InM9RAkBBdi2JapGVNNLNkAhpqjjL6DL9QGVTAcU1hQfduHZWiuSQtjKG5WbArZrEMcaod20k5ChfU4gKz+qQK1XM+WdfAkEAn4Y/DTLGJ0xb/r69/T+Pa37vYGigSK8KETLkJxt7fcjjqfw/XY0hLDvOOPvBYODgggIGAtRBybehhBSxRDiKYQJAe7fow5B/0DVXs/XxJZhiallgVdHWkvd2Sy4QFej6QtrD2JaSOsIYNXVr2R12H5A6YjgWMnKm9c4l01YvJVLiug==',)),
    Case('h14-085', 'private_key', 'txt',
         'node:\n  name: lab-pc-3\n  privatekey: pDhrPtuP+xC5ycd3Gd8u4AoPh5o0t+hOhWkU6c/bkEc=\n  publickey: 8TOQBd6ckl4THH5ClQmh7GaoJ8kS5MeN6/vb0OL+7Dc=\n  listenport: 51821\n',
         ('pDhrPtuP+xC5ycd3Gd8u4AoPh5o0t+hOhWkU6c/bkEc=',)),
    Case('h14-086', 'private_key', 'note',
         '$ bitcoin-cli -testnet listdescriptors true\n{\n  "wallet_name": "course",\n  "descriptors": [\n    {"desc": "wpkh(tprv8ZgxMBicQKsPdNSGcbvSYk85XTg1wK2dqxHh1XU6Xvm2X5eqMQjcoXVoyReuQBv395HwbuGEtANKFVWxeR9V7HESGFSS2SAVPHoenedU8KHbe2mcXzNk1/84h/1h/0h/0/*)#5ago23rh", "active": true}\n  ]\n}',
         ('tprv8ZgxMBicQKsPdNSGcbvSYk85XTg1wK2dqxHh1XU6Xvm2X5eqMQjcoXVoyReuQBv395HwbuGEtANKFVWxeR9V7HESGFSS2SAVPHoenedU8KHbe2mcXzNk1',)),
    Case('h14-087', 'private_key', 'py',
         "from eth_account import Account\n\n# 作业：签名一笔测试网交易\nPRIV = 0x42c05efb0bca9e0f79aad65b33c529ca70cc5aa9eb52b6897971df88d8010b8b\nacct = Account.from_key(PRIV.to_bytes(32, 'big'))\n",
         ('0x42c05efb0bca9e0f79aad65b33c529ca70cc5aa9eb52b6897971df88d8010b8b',)),
    Case('h14-088', 'private_key', 'md',
         '| 服务器 | 用户 | 私钥 |\n|---|---|---|\n| 10.1.2.3 | ubuntu | -----BEGIN RSA PRIVATE KEY-----<br>MIIEpAIBAAKCAQEA85NXCVbQmJrTchIZTfYQwn+8iQx3vw+epWyJzpakerhezas3<br>O+F6YZonXr/dMD6AG2xk/D06dIV7aVj7CVhBcGGQU+GI0N1847N2NMq5blDNpknT<br>MOzYCoKW4L0yItpDJ/4S7sf0fwa3tCWGBWCi24oeGBEacGE5M9oOZSceoeiAUI7e<br>KbVpX8RmSTxAIsIe64655xMo+jCtIvQDqwwK+Y3PfOCD4FUHeDEa+H2SBSvPzKJa<br>acenCR4XsWasU0Utvm4tSgM50xxGj5DT7qHbBFILadCnONmh2sfJY2KgYU8vRsL9<br>6gOj//PK1ZvjUSxzoTwDh1tylX4G/aQ1B/5SQwIDAQABAoIBAEVlhTaz9VqFQhkN<br>7we3Q68mlaC2XKei26Bl/B1P7izIurn+Pg5hf2yvbugf4fUM2ZL2nw7+otjv7ulk<br>4KEY9AwAwA4mA8T+VcbKKrN/zrUPcIggIHuf/y1/Z11AijhD1z5dtScy8QX/8/bv<br>ee+uSLgj8c8JkG7URGfxiIhpTODzvtBQ9UceJsy4vwkz8M3EmYLpvGboHDTIy1ji<br>ILRcgWhzSmh7d5Rl+WmhDX8y4kctiOCFQrdX3Gq/Ch1GTmt73LUOQPAvXio0VrHd<br>dEDQMLms/Fma3nuASQ8pHRbm5NXP0ORimK+VcJx93zZMDi+lEE5sH4mRQRaD4v4I<br>pb3qvIECgYEA+tZsFfyVkcJs3Hv43oyVrCIA4+lOmTvF/95CzUySTmXM82q6D4uY<br>lUkMfmWTgBMR4JmV+CX0/URZUwtxolphaFmQnId6XidBbbkb1x8h7WoBDRRpI981<br>kOgHVHkN2E7VjK2tWAH2OAb6+NXgG7hoz0l7A4TyN5WQiUa4iaXaSVUCgYEA+Jao<br>FGel50KH22ETM+9hp40vFEhKVP8Po1+1d97Xw/e4Q+OQaESJXSFmGrSxA8Sx9EWA<br>KidhMw5RiM/ZrWAR8emmpE4MD7/IaG/0y0HyoqnsONBeoKho/odzuuSSs383g5wb<br>nHGe29KajUfAGwPFLZ44JMjtJISTa7NASv3iTTcCgYEA60KOr3RuZ/49kfHocfrT<br>KlXeFeStZkTMqPWyG9FUa5lJR4hzJ79bBbE0uZvVYsr/+nKyWMJo693eFWhnVMmG<br>EJPocRcT6xjQYfO6q+I0NPM2NylMj2t7VwR4U38SQC14VvBR43g7kULiwt39yqIE<br>E16stJlNgFqT7FzbGabne90CgYEArlWx0IWT8uhUsMSWnACQYtn/n2DHSG6MAA5a<br>DJPqi5OJ1YqdNpKCJx8KJUZ9MeBa0K2BIY72esDa63Cg/xb13sr2xBm8GbttB9kk<br>Ovun9u3mLT3sbw1MfNxvjC1KuLlKLHFpZ8DDIPTE0Ln1/rwZJ1Hjm+CRdt/HJ2vR<br>dgYxE+cCgYAqUdh7B207bpN1gUrllhU/KyF709JahhyFttgRTxaHLxtIKfMvGR+8<br>xQJ+0jDuu+SfIA5HgfXolCjvKtznVbR/QF82v11joiRUWGoqosPrB7YkHBnERTMv<br>vE2WoisFnGF02IWMCtBEL+9xSlviOx/JsvwZAazamalVT5X8hOYMVg==<br>-----END RSA PRIVATE KEY----- |\n',
         ('MIIEpAIBAAKCAQEA85NXCVbQmJrTchIZTfYQwn+8iQx3vw+epWyJzpakerhezas3', 'O+F6YZonXr/dMD6AG2xk/D06dIV7aVj7CVhBcGGQU+GI0N1847N2NMq5blDNpknT', 'MOzYCoKW4L0yItpDJ/4S7sf0fwa3tCWGBWCi24oeGBEacGE5M9oOZSceoeiAUI7e', 'KbVpX8RmSTxAIsIe64655xMo+jCtIvQDqwwK+Y3PfOCD4FUHeDEa+H2SBSvPzKJa', 'acenCR4XsWasU0Utvm4tSgM50xxGj5DT7qHbBFILadCnONmh2sfJY2KgYU8vRsL9', '6gOj//PK1ZvjUSxzoTwDh1tylX4G/aQ1B/5SQwIDAQABAoIBAEVlhTaz9VqFQhkN', '7we3Q68mlaC2XKei26Bl/B1P7izIurn+Pg5hf2yvbugf4fUM2ZL2nw7+otjv7ulk', '4KEY9AwAwA4mA8T+VcbKKrN/zrUPcIggIHuf/y1/Z11AijhD1z5dtScy8QX/8/bv', 'ee+uSLgj8c8JkG7URGfxiIhpTODzvtBQ9UceJsy4vwkz8M3EmYLpvGboHDTIy1ji', 'ILRcgWhzSmh7d5Rl+WmhDX8y4kctiOCFQrdX3Gq/Ch1GTmt73LUOQPAvXio0VrHd', 'dEDQMLms/Fma3nuASQ8pHRbm5NXP0ORimK+VcJx93zZMDi+lEE5sH4mRQRaD4v4I', 'pb3qvIECgYEA+tZsFfyVkcJs3Hv43oyVrCIA4+lOmTvF/95CzUySTmXM82q6D4uY', 'lUkMfmWTgBMR4JmV+CX0/URZUwtxolphaFmQnId6XidBbbkb1x8h7WoBDRRpI981', 'kOgHVHkN2E7VjK2tWAH2OAb6+NXgG7hoz0l7A4TyN5WQiUa4iaXaSVUCgYEA+Jao', 'FGel50KH22ETM+9hp40vFEhKVP8Po1+1d97Xw/e4Q+OQaESJXSFmGrSxA8Sx9EWA', 'KidhMw5RiM/ZrWAR8emmpE4MD7/IaG/0y0HyoqnsONBeoKho/odzuuSSs383g5wb', 'nHGe29KajUfAGwPFLZ44JMjtJISTa7NASv3iTTcCgYEA60KOr3RuZ/49kfHocfrT', 'KlXeFeStZkTMqPWyG9FUa5lJR4hzJ79bBbE0uZvVYsr/+nKyWMJo693eFWhnVMmG', 'EJPocRcT6xjQYfO6q+I0NPM2NylMj2t7VwR4U38SQC14VvBR43g7kULiwt39yqIE', 'E16stJlNgFqT7FzbGabne90CgYEArlWx0IWT8uhUsMSWnACQYtn/n2DHSG6MAA5a', 'DJPqi5OJ1YqdNpKCJx8KJUZ9MeBa0K2BIY72esDa63Cg/xb13sr2xBm8GbttB9kk', 'Ovun9u3mLT3sbw1MfNxvjC1KuLlKLHFpZ8DDIPTE0Ln1/rwZJ1Hjm+CRdt/HJ2vR', 'dgYxE+cCgYAqUdh7B207bpN1gUrllhU/KyF709JahhyFttgRTxaHLxtIKfMvGR+8', 'xQJ+0jDuu+SfIA5HgfXolCjvKtznVbR/QF82v11joiRUWGoqosPrB7YkHBnERTMv', 'vE2WoisFnGF02IWMCtBEL+9xSlviOx/JsvwZAazamalVT5X8hOYMVg==')),
    Case('h14-089', 'private_key', 'json',
         '{\n  "remote.SSH.hosts": [\n    {\n      "host": "gpu-lab",\n      "user": "lin",\n      "identity": "-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\\nQyNTUxOQAAACAWvd6ga9oIue07lh9xhNY0IU2Y24ACkQCbkV4xTWMHcQAAAJAjZyddI2cn\\nXQAAAAtzc2gtZWQyNTUxOQAAACAWvd6ga9oIue07lh9xhNY0IU2Y24ACkQCbkV4xTWMHcQ\\nAAAEA/9RsEUsBls2YT5uKAsxl5dtEz96ewFecEdGlnDUCyTRa93qBr2gi57TuWH3GE1jQh\\nTZjbgAKRAJuRXjFNYwdxAAAAC2xpbkBncHUtbGFiAQI=\\n-----END OPENSSH PRIVATE KEY-----\\n"\n    }\n  ]\n}',
         ('b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW', 'QyNTUxOQAAACAWvd6ga9oIue07lh9xhNY0IU2Y24ACkQCbkV4xTWMHcQAAAJAjZyddI2cn', 'XQAAAAtzc2gtZWQyNTUxOQAAACAWvd6ga9oIue07lh9xhNY0IU2Y24ACkQCbkV4xTWMHcQ', 'AAAEA/9RsEUsBls2YT5uKAsxl5dtEz96ewFecEdGlnDUCyTRa93qBr2gi57TuWH3GE1jQh', 'TZjbgAKRAJuRXjFNYwdxAAAAC2xpbkBncHUtbGFiAQI=')),
    Case('h14-090', 'private_key', 'note',
         '> 老师您好，服务器证书的私钥如下：\n> -----BEGIN EC PRIVATE KEY-----\n> MIGkAgEBBDBdHG9QV9pUVufsq8BSBoBJZKWT8l1H0DTuLGSXZdmtXyFUdY6WhBH5\n> 2t75KxZbUH2gBwYFK4EEACKhZANiAARkxlw/qoOlgc11ShwVu2aTBuxgXvUsJGfb\n> FlbGB60LELgPb1SSfhEVUpeGbcFAdIgmIQgCzckSYhOMSEalVvs4ns53i5epyoYl\n> bz6BB4pYL3Un+IQbGtM0Jik/D5HFU84=\n> -----END EC PRIVATE KEY-----\n\n收到，已部署。',
         ('MIGkAgEBBDBdHG9QV9pUVufsq8BSBoBJZKWT8l1H0DTuLGSXZdmtXyFUdY6WhBH5', '2t75KxZbUH2gBwYFK4EEACKhZANiAARkxlw/qoOlgc11ShwVu2aTBuxgXvUsJGfb', 'FlbGB60LELgPb1SSfhEVUpeGbcFAdIgmIQgCzckSYhOMSEalVvs4ns53i5epyoYl', 'bz6BB4pYL3Un+IQbGtM0Jik/D5HFU84=')),
    Case('h14-091', 'password', 'note',
         'Campus virtual UB\nusuari: lzhang24\ncontrasenya: EbgyT2IN*61\n(canviar-la abans del 15/12)',
         ('EbgyT2IN*61',)),
    Case('h14-092', 'password', 'note',
         'Studentski dom Cvjetno naselje — Wi-Fi\nmreža: SD-CVJETNO-5G\nlozinka: Asdf3704!wang',
         ('Asdf3704!wang',)),
    Case('h14-093', 'password', 'note',
         'KU-net login\nbrugernavn: xyz123\nadgangskode: Xgt1I3ifS&83\n',
         ('Xgt1I3ifS&83',)),
    Case('h14-094', 'password', 'note',
         'Platforma Moodle UB\nutilizator: zhang.lin\nparolă: Violet_Cobalt_Cobalt07',
         ('Violet_Cobalt_Cobalt07',)),
    Case('h14-095', 'password', 'note',
         'Монгол хэлний анги — цахим хичээл\nнэвтрэх нэр: lin2025\nнууц үг: Harbor_River_Lantern05',
         ('Harbor_River_Lantern05',)),
    Case('h14-096', 'password', 'note',
         'அலுவலக மடிக்கணினி\nபயனர்: intern07\nகடவுச்சொல்: Walnut.Walnut.Cobalt94',
         ('Walnut.Walnut.Cobalt94',)),
    Case('h14-097', 'password', 'note',
         'Kompyuta ya maktaba\njina la mtumiaji: volunteer3\nnenosiri: liumei840726',
         ('liumei840726',)),
    Case('h14-098', 'password', 'note',
         'ម្ចាស់ផ្ទះ: Wi-Fi ឈ្មោះ HOME_2G\nម្ចាស់ផ្ទះ: ពាក្យសម្ងាត់ Lantern_Pepper_Pepper28\n我：谢谢 អរគុណ',
         ('Lantern_Pepper_Pepper28',)),
    Case('h14-099', 'password', 'note',
         "$ sqlcipher wechat_backup.db\nsqlite> PRAGMA key = 'Zxcv5497!chen';\nsqlite> SELECT count(*) FROM message;\n18422",
         ('Zxcv5497!chen',)),
    Case('h14-100', 'password', 'yaml',
         "deploy-db:\n  stage: deploy\n  script:\n    - kubectl create secret generic pg-auth --from-literal=username=app --from-literal=password='Asdf4199@zhang' -n course\n",
         ('Asdf4199@zhang',)),
    Case('h14-101', 'password', 'note',
         'helm install mydb oci://registry-1.docker.io/bitnamicharts/mysql --set auth.rootPassword=zhangwang770102 --set primary.persistence.size=2Gi',
         ('zhangwang770102',)),
    Case('h14-102', 'password', 'note',
         "  512  ssh-keygen -t ed25519 -C lab-pc -N 'Walnut-Cobalt-Cobalt60' -f ~/.ssh/id_lab\n  513  ssh-copy-id -i ~/.ssh/id_lab.pub lin@10.0.0.5",
         ('Walnut-Cobalt-Cobalt60',)),
    Case('h14-103', 'password', 'txt',
         "#!/bin/sh\n# 开机自动解锁数据盘（偷懒写法）\necho -n 'Ift6ZkCtRLo%16' | cryptsetup luksOpen /dev/sdb1 data -d -\nmount /dev/mapper/data /data\n",
         ('Ift6ZkCtRLo%16',)),
    Case('h14-104', 'password', 'note',
         '打包作业：\n"C:\\Program Files\\WinRAR\\Rar.exe" a -hpRiver-Harbor-Orbit50 -ep1 hw07.rar hw07\\\n发给助教的时候密码单独发',
         ('River-Harbor-Orbit50',)),
    Case('h14-105', 'password', 'note',
         "mutool draw -p 'linchen881020' -o page-%d.png 成绩单.pdf 1-2",
         ('linchen881020',)),
    Case('h14-106', 'password', 'note',
         'Thunderbird 连 iCloud 邮箱要用 App 专用密码：\nqkof-eyxm-pqro-wvtv\n（appleid.apple.com → 登录与安全 生成）',
         ('qkof-eyxm-pqro-wvtv',)),
    Case('h14-107', 'password', 'note',
         '给爸妈的备忘：\n支付宝登录手机号是你的，\n支付密码 482319（别告诉任何打电话来的人）',
         ('482319',)),
    Case('h14-108', 'password', 'note',
         '新手机卡（卡套背面）\nPIN1: 9555\nPUK1: 52739931\n输错三次 PIN 会锁卡，要用 PUK 解',
         ('9555', '52739931')),
    Case('h14-109', 'password', 'note',
         '出发前 checklist\n- 行李箱密码锁：798\n- 酒店保险箱：自己设的 7140\n- 护照复印件 ✔',
         ('798', '7140')),
    Case('h14-110', 'password', 'note',
         '机房 3 号机交接：\nBIOS 管理员密码 (Supervisor Password) = Asdf4571@wang\n启动顺序已改成 U 盘优先',
         ('Asdf4571@wang',)),
    Case('h14-111', 'password', 'txt',
         '\\begin{itemize}\n  \\item NAS 地址：\\url{http://192.168.31.20:5000}\n  \\item 管理员：\\texttt{admin}，密码：\\texttt{Qwer9306@yu}\n\\end{itemize}\n',
         ('Qwer9306@yu',)),
    Case('h14-112', 'password', 'txt',
         'Name;Kurs;Benutzer;Passwort\nLin Zhang;B1.2;lzhang;zhoujie040101\n',
         ('zhoujie040101',)),
    Case('h14-113', 'password', 'note',
         'From: IT-Service der Universität\nTo: Lin Zhang\nSubject: Ihr Zugang\n\nLiebe Frau Zhang,\nIhr Initialpasswort lautet: Ripsz1L8Y*55\nBitte ändern Sie es bei der ersten Anmeldung.',
         ('Ripsz1L8Y*55',)),
    Case('h14-114', 'password', 'py',
         "import keyring\n\n# 第一次运行时执行，之后删掉这行！\nkeyring.set_password('campus-vpn', '2024011234', 'Zxcv0933@ting')\n",
         ('Zxcv0933@ting',)),
    Case('h14-115', 'password', 'json',
         '{\n  "windowBounds": {\n    "width": 1200,\n    "height": 800\n  },\n  "account": {\n    "user": "lin@school",\n    "rememberedPassword": "Violet-Orbit-Tundra63"\n  }\n}',
         ('Violet-Orbit-Tundra63',)),
    Case('h14-116', 'password', 'note',
         '校园卡挂失后补办了新卡\n卡号后四位 0217\n消费密码改成 Qwer3710#yu 了',
         ('Qwer3710#yu',)),
    Case('h14-117', 'password', 'yaml',
         '# 运行方式\n# ansible-playbook site.yml -e \'{"ansible_become_password": "zhanghuang19800920"}\'\n- hosts: lab\n  become: true\n',
         ('zhanghuang19800920',)),
    Case('h14-118', 'password', 'note',
         '房东电话里念的 Wi-Fi 密码：Zulu Uniform Hotel Golf 9 5 8 5\n也就是 zuhg9585',
         ('Zulu Uniform Hotel Golf 9 5 8 5', 'zuhg9585')),
    Case('h14-119', 'resident_id', 'note',
         'Cita previa — toma de huellas (TIE)\nNIE: Z8177431Q\nComisaría de Moncloa, 09:40\nLlevar: pasaporte, EX-17, tasa 790-012',
         ('Z8177431Q',)),
    Case('h14-120', 'resident_id', 'note',
         'Přihláška na kolej — Strahov\nJméno: Lin Zhang (spolubydlící: Tereza N.)\nRodné číslo spolubydlící: 865331/0171\nBlok 7, pokoj 412',
         ('865331/0171',)),
    Case('h14-121', 'resident_id', 'note',
         'Prijava za kurs srpskog jezika\nIme cimera: Marko P.\nJMBG: 1811980713603\nTelefon škole: 011 000 0000',
         ('1811980713603',)),
    Case('h14-122', 'resident_id', 'note',
         'Starfsnám hjá Orkustofnun\nKennitala leigusala (fyrir húsaleigusamning): 281298-7639\nLeiga greidd 1. hvers mánaðar',
         ('281298-7639',)),
    Case('h14-123', 'resident_id', 'txt',
         'Θέμα: Ραντεβού παθολόγου\n\nΟνοματεπώνυμο: Λιν Τζανγκ\nΑΜΚΑ: 03080459252\nΗμερομηνία: 12/12, 10:30\n',
         ('03080459252',)),
    Case('h14-124', 'resident_id', 'note',
         'Anmeldung Studentenjob (geringfügig)\nSozialversicherungsnummer (e-card): 6648 080688\nDienstgeber: Buchhandlung am Ring',
         ('6648 080688',)),
    Case('h14-125', 'resident_id', 'note',
         'Письмо-приглашение (черновик)\nФИО: Айгерим С.\nИИН: 010308670303\nЦель поездки: летняя школа в Пекине',
         ('010308670303',)),
    Case('h14-126', 'resident_id', 'note',
         'Registro de voluntarios — Fundación\nNombre: Lin Zhang\nCédula del contacto local (anfitriona): 0158066522\nBarrio: La Floresta',
         ('0158066522',)),
    Case('h14-127', 'resident_id', 'note',
         'Nuomos sutartis — nuomotojas\nAsmens kodas: 47905086391\nMokėjimas iki 5 d.',
         ('47905086391',)),
    Case('h14-128', 'resident_id', 'note',
         '外僑居留證換新式號碼了\n統一證號：M960429439\n（舊號碼作廢，銀行、健保都要改）',
         ('M960429439',)),
    Case('h14-129', 'resident_id', 'md',
         '## 六级考试\n\n| 项目 | 内容 |\n|---|---|\n| 考试级别 | CET-6 |\n| 身份证号 | 350203198406069718 |\n| 考场 | 西十二 N305 |\n',
         ('350203198406069718',)),
    Case('h14-130', 'resident_id', 'note',
         'XX 医院 健康体检报告\n姓名：林** 性别：女\n证件号码：350203199306257118\n体检日期：2026-10-18\n血常规 …… 未见明显异常',
         ('350203199306257118',)),
    Case('h14-131', 'resident_id', 'note',
         '出生医学证明\n新生儿姓名 林小满  出生时间 2025年06月02日\n母亲姓名 陈某某  有效身份证件号码 440305197804084353\n父亲姓名 林某某  有效身份证件号码 110105197310317455',
         ('440305197804084353', '110105197310317455')),
    Case('h14-132', 'resident_id', 'json',
         '{\n  "deductionType": "子女教育",\n  "child": {\n    "name": "林小满",\n    "idType": "居民身份证",\n    "idNo": "370202201608168070",\n    "school": "XX 实验小学",\n    "stage": "义务教育"\n  },\n  "ratio": "50%"\n}',
         ('370202201608168070',)),
    Case('h14-133', 'resident_id', 'note',
         '机动车登记证书\n1.机动车所有人/身份证明名称/号码 林某/居民身份证/420111199711228890\n2.登记机关 XX 市公安局交通警察支队\n登记日期 2024-03-11',
         ('420111199711228890',)),
    Case('h14-134', 'resident_id', 'txt',
         '姓名,身份证号,专业,入学年份\n林某,510107200606032821,软件工程,2024\n',
         ('510107200606032821',)),
    Case('h14-135', 'mobile', 'note',
         'سكن الطلاب — المشرف\nموبايل: +20 104 389 7111\n宿管电话，有事找他',
         ('+20 104 389 7111',)),
    Case('h14-136', 'mobile', 'note',
         'Pay rent via M-Pesa to landlord (Mama Wanjiru)\nM-Pesa number: +254 707 973 553\nAccount: Room 4',
         ('+254 707 973 553',)),
    Case('h14-137', 'mobile', 'note',
         'ল্যাব পার্টনার রাফি\nমোবাইল: +880 1377-511138',
         ('+880 1377-511138',)),
    Case('h14-138', 'mobile', 'note',
         'Depto compartido — Palermo\nCelu de Sofi (dueña): +54 9 11 8848-0848\nLlaves en portería',
         ('+54 9 11 8848-0848',)),
    Case('h14-139', 'mobile', 'note',
         'Intercambio PUC\nTutor: Felipe R.\nfono: +56 9 4043 5574',
         ('+56 9 4043 5574',)),
    Case('h14-140', 'mobile', 'note',
         'Senhoria (Lisboa)\ntelemóvel: 925 434 056\nRenda: transferência até dia 8',
         ('925 434 056',)),
    Case('h14-141', 'mobile', 'note',
         'Huisgenoten Utrecht\nJoris — mobiel 06-82431101\nSchoonmaakrooster: week 50 ik',
         ('06-82431101',)),
    Case('h14-142', 'mobile', 'note',
         'מורה פרטית לעברית\nנייד: 054-209-9284\n周二周四晚上上课',
         ('054-209-9284',)),
    Case('h14-143', 'mobile', 'note',
         'Dubai layover — hotel driver Ahmed\nWhatsApp / mobile: +971 55 850 3889',
         ('+971 55 850 3889',)),
    Case('h14-144', 'mobile', 'note',
         'NUS PGP House 3 — RA\nHP: 8890 2230\n（新加坡手机号 8 位）',
         ('8890 2230',)),
    Case('h14-145', 'mobile', 'note',
         '澳門實習\n同事阿 Ken 手提：6864 5445\n（加 +853）',
         ('6864 5445',)),
    Case('h14-146', 'mobile', 'json',
         '{\n "log": {\n  "entries": [\n   {\n    "request": {\n     "method": "POST",\n     "url": "https://passport.example.cn/api/sms/send",\n     "postData": {\n      "mimeType": "application/json",\n      "text": "{\\"mobile\\": \\"15733553806\\", \\"scene\\": \\"login\\"}"\n     }\n    }\n   }\n  ]\n }\n}',
         ('15733553806',)),
    Case('h14-147', 'mobile', 'py',
         "# 报警通知（别把号码明文写进代码…）\nPHONE = ''.join(('174', '4833', '3676'))\nsend_sms(PHONE, '服务器 CPU > 90%')\n",
         ("'174', '4833', '3676'",)),
    Case('h14-148', 'bank_card', 'note',
         '学费退费申请\n户名：林某\n开户行：中国银行 XX 支行\n银行卡号：6202685000919048551',
         ('6202685000919048551',)),
    Case('h14-149', 'bank_card', 'note',
         'Stipend from Lånekassen → konto\nkontonummer / IBAN: NO9817280118954',
         ('NO9817280118954',)),
    Case('h14-150', 'bank_card', 'note',
         'Ösztöndíj utalás\nSzámlaszám (IBAN): HU35 4816 5336 1221 6996 8173 8713',
         ('HU35 4816 5336 1221 6996 8173 8713',)),
    Case('h14-151', 'bank_card', 'note',
         'منحة جامعة الملك سعود\nرقم الآيبان: SA2365441611498411401818',
         ('SA2365441611498411401818',)),
    Case('h14-152', 'bank_card', 'txt',
         'name,role,iban,hours\nLin Zhang,TA,AE640913783895899403394,12\n',
         ('AE640913783895899403394',)),
    Case('h14-153', 'bank_card', 'note',
         'Kira ödemesi — ev sahibi\nIBAN no: TR98 3960 7050 3329 9601 7100 37\nAlıcı: A*** Y***',
         ('TR98 3960 7050 3329 9601 7100 37',)),
    Case('h14-154', 'bank_card', 'json',
         '{\n  "credit_card": {\n    "number": "4780859711582301",\n    "month": "07",\n    "year": "2029",\n    "verification_value": "432",\n    "name": "LIN ZHANG"\n  }\n}',
         ('4780859711582301', '432')),
    Case('h14-155', 'bank_card', 'note',
         '订酒店时念给前台的卡号（英文）：five four eight six, one nine five six, four eight eight zero, seven eight two four',
         ('five four eight six, one nine five six, four eight eight zero, seven eight two four',)),
    Case('h14-156', 'bank_card', 'txt',
         'ご利用代金明細書\nカード会員様 リン チョウ 様\nカード番号 3547-9485-9513-1321\nお支払日 2026年12月26日\n',
         ('3547-9485-9513-1321',)),
    Case('h14-157', 'bank_card', 'note',
         'Hall fee — pay by PayNow or transfer\nDBS Savings Acct: 690-800916-2\nName: ZHANG LIN',
         ('690-800916-2',)),
    Case('h14-158', 'bank_card', 'note',
         '【微信】妈：你的卡号是不是这个？六二三三 四八〇一 一六一〇 七八六三\n【微信】我：对的，别发群里',
         ('六二三三 四八〇一 一六一〇 七八六三',)),
    Case('h14-159', 'bank_card', 'note',
         'Leiga — millifærsla\nreikningsnúmer (IBAN): IS577532525201854809837640\nkt. leigusala fylgir samningnum',
         ('IS577532525201854809837640',)),
    Case('h14-160', 'email', 'note',
         '$ git shortlog -sne\n   212  Lin Zhang <lin.zhang92@outlook.com>\n    17  dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>',
         ('lin.zhang92@outlook.com',)),
    Case('h14-161', 'email', 'yaml',
         'cff-version: 1.2.0\ntitle: jieba-notes\nauthors:\n  - family-names: Zhang\n    given-names: Lin\n    email: qnnbwi.kgqr@gmail.com\n    orcid: https://orcid.org/0000-0002-1825-0097\n',
         ('qnnbwi.kgqr@gmail.com',)),
    Case('h14-162', 'email', 'txt',
         '[project]\nname = "anki-cn-tools"\nversion = "0.3.1"\nauthors = [{ name = "林", email = "4120654466@qq.com" }]\n',
         ('4120654466@qq.com',)),
    Case('h14-163', 'email', 'txt',
         'user_pref("mail.identity.id1.fullName", "Lin Zhang");\nuser_pref("mail.identity.id1.useremail", "xldvp_2471@163.com");\nuser_pref("mail.identity.id1.reply_on_top", 1);\n',
         ('xldvp_2471@163.com',)),
    Case('h14-164', 'email', 'note',
         'jwt.io 解出来的 payload：\n{\n  "sub": "2024011234",\n  "email": "xawdzgd@stu.example.edu.cn",\n  "name": "林",\n  "exp": 1764489600\n}',
         ('xawdzgd@stu.example.edu.cn',)),
    Case('h14-165', 'email', 'md',
         '# 林某\n\n求职意向：数据分析实习 ｜ 邮箱：prsk618@foxmail.com ｜ 可实习 6 个月\n\n## 教育经历\n- XX 大学 统计学 2022–2026\n',
         ('prsk618@foxmail.com',)),
    Case('h14-166', 'email', 'txt',
         'Timestamp,Email Address,参加するセッション\n2026/11/28 10:02:11,jjhgjl93@yahoo.co.jp,N2 読解\n',
         ('jjhgjl93@yahoo.co.jp',)),
    Case('h14-167', 'email', 'note',
         '-------- Forwarded Message --------\nSubject: 语言交换\nReply-To: "Mia K." <xehlh.oyurr@proton.me>\nDate: Sat, 29 Nov 2026 09:14:02 +0100',
         ('xehlh.oyurr@proton.me',)),
    Case('h14-168', 'email', 'note',
         '会议胸牌（拍照识别）\nLIN ZHANG\nPhD Student · XX University\n✉ alft.ffwtsm@icloud.com',
         ('alft.ffwtsm@icloud.com',)),
    Case('h14-169', 'passport', 'note',
         'Сусідка по кімнаті — для реєстрації\nПІБ: Олена К.\nНомер закордонного паспорта: EN411395',
         ('EN411395',)),
    Case('h14-170', 'passport', 'note',
         'Summer school group B\n- Aigerim S., Kazakhstan, passport N73579909\n- Lin Z., China',
         ('N73579909',)),
    Case('h14-171', 'passport', 'note',
         'زميل السكن\nرقم جواز السفر: A55860955',
         ('A55860955',)),
    Case('h14-172', 'passport', 'txt',
         'name,country,passport_no,arrival\nRafi H.,Bangladesh,OL8465075,2026-12-14\n',
         ('OL8465075',)),
    Case('h14-173', 'passport', 'note',
         '[28/11/26, 19:02] Chidi: my passport no is A65460417 for the hostel booking\n[28/11/26, 19:03] Me: got it',
         ('A65460417',)),
    Case('h14-174', 'passport', 'note',
         '出入境记录查询结果\n姓名：林某 证件类型：普通护照 证件号码：E63352558\n2025-07-02 出境 上海浦东 → 2025-08-30 入境',
         ('E63352558',)),
    Case('h14-175', 'passport', 'json',
         '{\n  "passengers": [\n    {\n      "name": "LIN/ZHANG",\n      "cardType": "护照",\n      "cardNo": "EM0037016",\n      "nationality": "CN"\n    }\n  ]\n}',
         ('EM0037016',)),
    Case('h14-176', 'passport', 'note',
         'דרכון של השותפה (לחוזה)\nמספר דרכון: 10605881',
         ('10605881',)),
    Case('h14-177', 'passport', 'note',
         'Residencia universitaria — compañera\nN° pasaporte: N8823383\nNacionalidad: chilena',
         ('N8823383',)),
    Case('h14-178', 'address', 'note',
         'Intercambio Bogotá — vivo en:\nCalle 78 # 30-32, Apto 402\nBarrio Chapinero',
         ('Calle 78 # 30-32, Apto 402',)),
    Case('h14-179', 'address', 'note',
         'Familia anfitriona (Lima)\nDirección: Mz. Z Lt. 30, Urb. Los Jardines, San Juan de Lurigancho',
         ('Mz. Z Lt. 30, Urb. Los Jardines',)),
    Case('h14-180', 'address', 'note',
         'Mi casa en Heredia (para el Uber):\nde la Iglesia Católica 200 m norte y 50 m oeste, casa color verde portón negro',
         ('de la Iglesia Católica 200 m norte y 50 m oeste, casa color verde portón negro',)),
    Case('h14-181', 'address', 'note',
         'WG-Zimmer Wien\nAdresse: Zieglergasse 4/5/5, 1070 Wien\n(Hausnummer/Stiege/Tür)',
         ('Zieglergasse 4/5/5',)),
    Case('h14-182', 'address', 'note',
         'Hybel i Oslo\nAdresse: Kirkeveien 58, H0501\n0468 Oslo',
         ('Kirkeveien 58, H0501',)),
    Case('h14-183', 'address', 'note',
         'Адреса для посилки:\nвул. Франка, буд. 31, кв. 27, Київ',
         ('вул. Франка, буд. 31, кв. 27',)),
    Case('h14-184', 'address', 'note',
         'Colocation à Montréal\nadresse : 8727, rue Rachel Est, app. 2, Montréal (Québec) H2J 2K9',
         ('8727, rue Rachel Est, app. 2',)),
    Case('h14-185', 'address', 'note',
         '天津 外婆家：和平区宝兴里1号楼6门516号\n快递放门口就行',
         ('宝兴里1号楼6门516号',)),
    Case('h14-186', 'address', 'note',
         '南京租房：鼓楼区南湖新村46幢202室\n押一付三',
         ('南湖新村46幢202室',)),
    Case('h14-187', 'address', 'note',
         'Redis GEO 作业：把我家设成原点\n家 geohash = wtw3smj1y（精度约 5 米）\nGEOSEARCH pois FROMMEMBER home BYRADIUS 1 km',
         ('wtw3smj1y',)),
    Case('h14-188', 'address', 'note',
         '하숙집 주소 (지번)\n서울 관악구 신림동 261-27번지 1층',
         ('261-27번지 1층',)),
    Case('h14-189', 'address', 'json',
         '{\n  "order": "BJ8611499925",\n  "from": {\n    "city": "杭州市",\n    "district": "西湖区",\n    "detail": "文鼎苑2区39幢3单元1601"\n  },\n  "items": 24\n}',
         ('文鼎苑2区39幢3单元1601',)),
    Case('h14-190', 'otp_secret', 'note',
         '$ zbarimg 2fa.png\nQR-Code:otpauth://totp/Gitee:lin2024?secret=IEFSEDX5Q5FNCZ3N3U5W2O3JFRP266G5&issuer=Gitee\nscanned 1 barcode symbols from 1 images',
         ('IEFSEDX5Q5FNCZ3N3U5W2O3JFRP266G5',)),
    Case('h14-191', 'otp_secret', 'txt',
         'otpauth://totp/NetEase:lin%40163.com?secret=Z23P4QMASCJXYVEFHRVRJFNLSBTT3NCL&issuer=NetEase&algorithm=SHA1&digits=6&period=30\n',
         ('Z23P4QMASCJXYVEFHRVRJFNLSBTT3NCL',)),
    Case('h14-192', 'otp_secret', 'note',
         "  88  echo 'otpauth://totp/Binance?secret=GPUCAE5PJL3EHTRC' | pass otp insert 2fa/binance\n  89  pass otp 2fa/binance",
         ('GPUCAE5PJL3EHTRC',)),
    Case('h14-193', 'otp_secret', 'txt',
         'using OtpNet;\n\nvar totp = new Totp(Base32Encoding.ToBytes("437TRWWJCSHSR3WIPF6BBPKVEDLOTTT2"));\nConsole.WriteLine(totp.ComputeTotp());\n',
         ('437TRWWJCSHSR3WIPF6BBPKVEDLOTTT2',)),
    Case('h14-194', 'otp_secret', 'txt',
         "require 'rotp'\n\ntotp = ROTP::TOTP.new('v6dv3gux37td7i3wm3clufhqytp2z5gl', issuer: 'LabVPN')\nputs totp.now\n",
         ('v6dv3gux37td7i3wm3clufhqytp2z5gl',)),
    Case('h14-195', 'otp_secret', 'note',
         '谷歌验证器换手机前抄下来的：\n币安 备份密钥：VSXCGB4PM57WXCJF\n（丢了就只能走人工审核）',
         ('VSXCGB4PM57WXCJF',)),
    Case('h14-196', 'otp_secret', 'txt',
         'Epic Games Backup Codes\nAccount: lin****\n\nY3HO84GDMW\nWD3G2KUITF\nEWIZ6XYBO3\n1UPTXHW9KM\nPX7SWJ9KHB\nCH51OV4RHO\nQSKVYSK99P\nSSRMGF7DLV\n4S6CLED68P\nOR9T1IM93Q\n\nEach code can be used once.\n',
         ('Y3HO84GDMW', 'WD3G2KUITF', 'EWIZ6XYBO3', '1UPTXHW9KM', 'PX7SWJ9KHB', 'CH51OV4RHO', 'QSKVYSK99P', 'SSRMGF7DLV', '4S6CLED68P', 'OR9T1IM93Q')),
    Case('h14-197', 'otp_secret', 'py',
         "# config.py — 桌面 TOTP 小时钟\nSECRET_HEX = 'cd443b7509c361625c32219a196f860451d460be'\nDIGITS = 6\nPERIOD = 30\n",
         ('cd443b7509c361625c32219a196f860451d460be',)),
    Case('h14-198', 'otp_secret', 'note',
         'Nextcloud（实验室网盘）两步验证设置页，二维码下面的字：\nYour new TOTP secret is: GEQGO6SDMW5FN3276Z6YWUCUUJ\n',
         ('GEQGO6SDMW5FN3276Z6YWUCUUJ',)),
    Case('h14-199', 'recovery_phrase', 'txt',
         '#separator:tab\n#html:false\n#deck:wallet::seed\n第1个词\tequip\n第2个词\tlounge\n第3个词\tveteran\n第4个词\tgoose\n第5个词\tgap\n第6个词\ttype\n第7个词\tacoustic\n第8个词\taverage\n第9个词\tflip\n第10个词\tdouble\n第11个词\tcolumn\n第12个词\tattack\n',
         ('equip', 'lounge', 'veteran', 'goose', 'gap', 'type', 'acoustic', 'average', 'flip', 'double', 'column', 'attack')),
    Case('h14-200', 'recovery_phrase', 'py',
         "from mnemonic import Mnemonic\n\nWORDS = {\n    1: 'electric',\n    2: 'garbage',\n    3: 'skate',\n    4: 'fog',\n    5: 'kiwi',\n    6: 'letter',\n    7: 'all',\n    8: 'abstract',\n    9: 'horn',\n    10: 'offer',\n    11: 'pupil',\n    12: 'glimpse',\n}\nphrase = ' '.join(WORDS[i] for i in range(1, 13))\n",
         ('electric', 'garbage', 'skate', 'fog', 'kiwi', 'letter', 'all', 'abstract', 'horn', 'offer', 'pupil', 'glimpse')),
    Case('h14-201', 'recovery_phrase', 'yaml',
         'network: sepolia\nwallet:\n  mnemonic:\n    - update\n    - shuffle\n    - detect\n    - ketchup\n    - pledge\n    - cable\n    - goat\n    - wrestle\n    - autumn\n    - supreme\n    - comic\n    - assist\n  derivation: "m/44\'/60\'/0\'/0/0"\n',
         ('update', 'shuffle', 'detect', 'ketchup', 'pledge', 'cable', 'goat', 'wrestle', 'autumn', 'supreme', 'comic', 'assist')),
    Case('h14-202', 'recovery_phrase', 'note',
         '钱包助记词（连在一起写，首字母大写分隔）：\nFantasyVideoTorchGroupStreetCoyoteBambooTicketTattooRebelCoupleWeasel',
         ('FantasyVideoTorchGroupStreetCoyoteBambooTicketTattooRebelCoupleWeasel',)),
    Case('h14-203', 'recovery_phrase', 'note',
         '今天背的单词：castle、thrive、wink、eagle、member、ordinary，还有 observe、garden、bottom、equal、fluid、vanish。（其实是钱包的词，按顺序）',
         ('castle、thrive、wink、eagle、member、ordinary', 'observe、garden、bottom、equal、fluid、vanish')),
    Case('h14-204', 'recovery_phrase', 'txt',
         '\\begin{tabular}{|c|c|c|}\\hline\n1. 세월 & 2. 현장 & 3. 차림 \\\\ \\hline\n4. 제품 & 5. 에너지 & 6. 물고기 \\\\ \\hline\n7. 옥상 & 8. 상류 & 9. 진급 \\\\ \\hline\n10. 인공 & 11. 제일 & 12. 참외 \\\\ \\hline\n\\end{tabular}\n',
         ('세월', '현장', '차림', '제품', '에너지', '물고기', '옥상', '상류', '진급', '인공', '제일', '참외')),
    Case('h14-205', 'recovery_phrase', 'txt',
         'Frase de recuperação (cópia de segurança)\ncedilha\tmorena\tetiqueta\nglacial\tfilme\tdezena\nmanada\tmastigar\trosto\ninicial\tpraxe\tboicotar\n',
         ('cedilha', 'morena', 'etiqueta', 'glacial', 'filme', 'dezena', 'manada', 'mastigar', 'rosto', 'inicial', 'praxe', 'boicotar')),
    Case('h14-206', 'recovery_phrase', 'note',
         '[SMS 自己发给自己 1/2] jabón chancla payaso embudo plural justo tos niñez mínimo tacto vajilla dejar\n[SMS 自己发给自己 2/2] aleta medalla topar dictar vago conocer buscar gota barro cal nuca diablo',
         ('jabón chancla payaso embudo plural justo tos niñez mínimo tacto vajilla dejar', 'aleta medalla topar dictar vago conocer buscar gota barro cal nuca diablo')),
    Case('h14-207', 'recovery_phrase', 'note',
         'Тема: на всякий случай\nКому: себе\n\nвозраст, хорошо, удобный, радуга, вкус, прежде, стая, полдень, техника, свеча, закон, соленый\n',
         ('возраст, хорошо, удобный, радуга, вкус, прежде, стая, полдень, техника, свеча, закон, соленый',)),
    Case('h14-208', 'recovery_phrase', 'note',
         'PAPER WALLET — DO NOT SHARE\n 1. clap       2. fitness\n 3. truth      4. retreat\n 5. two        6. indoor\n 7. napkin     8. juice\n 9. nerve     10. rough\n11. this      12. deal\n',
         ('clap', 'fitness', 'truth', 'retreat', 'two', 'indoor', 'napkin', 'juice', 'nerve', 'rough', 'this', 'deal')),
    Case('h14-209', 'licence_plate', 'note',
         'Bilpool Lund\nregnr: KFF 51T\nNyckel i boxen vid entrén',
         ('KFF 51T',)),
    Case('h14-210', 'licence_plate', 'note',
         'Parkering ved hybelen\nkjennemerke: YA 64936\nSone 3, beboerkort',
         ('YA 64936',)),
    Case('h14-211', 'licence_plate', 'note',
         'Spolujízda Brno → Praha\nŘidič: Tomáš, SPZ 2JM 7091\nOdjezd 7:30 Mendlák',
         ('2JM 7091',)),
    Case('h14-212', 'licence_plate', 'note',
         'Ενοικίαση αυτοκινήτου (Κρήτη)\nπινακίδα: ΗΚΟ-7181\nεπιστροφή 20/12',
         ('ΗΚΟ-7181',)),
    Case('h14-213', 'licence_plate', 'note',
         'Coche de la familia anfitriona\nplacas: MBH-470-N\nEstacionamiento del fraccionamiento, cajón 14',
         ('MBH-470-N',)),
    Case('h14-214', 'licence_plate', 'note',
         'Share-house car (Newtown)\nrego: OR89RU — rego renewal due Jan\nparking permit on the windscreen',
         ('OR89RU',)),
    Case('h14-215', 'licence_plate', 'note',
         'Carpool to Waterloo on Fri — grey Civic, plate YEPU 946, pick-up at Finch station 8am',
         ('YEPU 946',)),
    Case('h14-216', 'licence_plate', 'md',
         '## 车位租赁合同（附表）\n\n| 项 | 内容 |\n|---|---|\n| 车位 | B2-117 |\n| 承租方车牌 | 粤BD66896 |\n| 车架号 | LSX5UMH73MR853081 |\n| 租期 | 2026-01-01 至 2026-12-31 |\n',
         ('粤BD66896', 'LSX5UMH73MR853081')),
    Case('h14-217', 'licence_plate', 'note',
         '【小区业主群】\n物业小王：沪C4GCHA 的车主（3 号楼林女士）麻烦挪一下车，挡住消防通道了\n林：马上下来',
         ('沪C4GCHA',)),
]
