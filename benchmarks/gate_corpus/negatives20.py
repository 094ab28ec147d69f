"""Hard negatives generated with ``heldout21`` (session 19), before the detectors changed.

56 texts that hold no one's secret: hex runs and GUIDs, IBANs published as examples, words of
scripts with combining marks, signed and versioned numbers, published example values, e-mail at reserved
example domains, public places and numbers. benchmarks/gate_corpus/gen21.py (seed 2121).
First run, on main 7ec9777 before any detector changed: 6 of 56 flagged.

Shapes, one per text:
- a commit SHA in prose
- a Visual Studio solution's project GUIDs
- a COM CLSID in a registry lesson
- docker image IDs in docker images output
- a download page's SHA-256 checksums
- an npm lockfile integrity
- an SRI hash in a script tag
- a public Ethereum contract address
- a torrent info hash
- a Nix store path
- a UUID in an Android manifest
- a PGP key fingerprint named as one
- a color palette in hex
- a MAC address in a lab sheet
- an IBAN published as the format's example
- an IBAN published as the format's example
- an IBAN published as the format's example
- an IBAN published as the format's example
- an IBAN published as the format's example
- an IBAN published as the format's example
- a Telugu vocabulary line
- a Hindi vocabulary line
- a Tamil vocabulary line
- a Thai word list
- a Burmese word
- a Khmer word
- signed and versioned numbers
- a grade scale
- chemistry charges
- the Woolworth wallet-card SSN in a history lesson
- Truffle's development mnemonic
- a BIP39 test vector phrase
- BIP39's all-zoo vector
- Stripe's documented test secret key
- AWS's documented example access key
- jwt.io's default token
- Sweden's test personnummer Tolvan
- Italy's Mario Rossi codice fiscale
- the UK's QQ123456C NINO example
- Visa's classic test card
- Amex's test card
- an e-mail at example.com in an exercise
- an e-mail at a .test domain
- an e-mail at example.net in a form lesson
- an e-mail at a .invalid domain
- a landmark's coordinates in a geography lesson
- a famous embassy address
- flight and train numbers
- car models
- chess moves
- a subway line and exit
- a hotline with a word for it
- a maths sequence
- a lottery draw
- a UK postcode of a public building
- a kanji address of a public office
"""

NEGATIVES: list[str] = [
    '这个 bug 在 commit 3f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39 里修好了，cherry-pick 到 release 分支即可',
    'Project("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "Thesis", "Thesis\\Thesis.csproj", "{6E2F1B3A-9C4D-4E8F-A1B2-C3D4E5F60718}"\nEndProject',
    'HKEY_CLASSES_ROOT\\CLSID\\{20D04FE0-3AEA-1069-A2D8-08002B30309D} 就是“此电脑”图标',
    'REPOSITORY   TAG       IMAGE ID       CREATED\npostgres     16        4e9a1c7f2b3d   2 weeks ago\nredis        7         9b2d8e4a6c1f   3 weeks ago',
    'python-3.12.1-amd64.exe  SHA256: 7d1bd5bd8a5e2b8fd1e5a9b0d1c6b2f8a4e3f7c9d2b1a0e8f6c4d3b2a1f0e9d8\nRelease notes: bug fixes',
    '"integrity": "sha512-Lwc6nA8Ul6cK3dLwBvIeJ2SUjYdp1k0d7n7Xp3mWAPrx0HqQYHgrSrlUy6Na1Ox3DyBHVg/u6YLSfdnYdtYYSQ=="',
    '<script src="https://cdn.jsdelivr.net/npm/vue@3.4.0/dist/vue.global.js" integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC" crossorigin="anonymous"></script>',
    'USDT 在以太坊上的合约地址是 0xdAC17F958D2ee523a2206206994597C13D831ec7，转账前核对一下',
    'magnet:?xt=urn:btih:08ada5a7a6183aae1e09d831df6748d566095a10&dn=Sintel',
    '/nix/store/9krlzvny65gdc8s7kpb6lkx8cd02c25b-hello-2.12.1/bin/hello',
    '<meta-data android:name="com.google.android.geo.API_VERSION" android:value="2" />\n<service android:name=".Sync" android:process=":sync" /> <!-- 0f8fad5b-d9cb-469f-a165-70867728950e is the test-plan id -->',
    'Release signing key fingerprint: 7169 6050 5B8E 0A09 D53F  8B8E 3B10 EE49 2B95 D6F1',
    '主题色：#1E88E5 #43A047 #FDD835 #E53935 #8E24AA #00ACC1',
    '实验机网卡 MAC：3c:22:fb:9a:10:4e，IP 用 DHCP',
    '德国 IBAN 由 22 位组成，例如 DE89 3704 0044 0532 0130 00，前两位是国家代码',
    'Format: FR14 2004 1010 0505 0001 3M02 606 (27 caractères)',
    'IBAN ES91 2100 0418 4502 0005 1332 — estructura: país, control, entidad, oficina, DC, cuenta',
    'Een Nederlands IBAN ziet er zo uit: NL91 ABNA 0417 1643 00',
    'CH93 0076 2011 6238 5295 7 ist die Beispiel-IBAN im Merkblatt',
    'IT60 X054 2811 1010 0000 0123 456: CIN X, ABI 05428, CAB 11101',
    'పాస్\u200cవర్డ్ (password) — సంకేతపదం అని కూడా అంటారు',
    'पासवर्ड = password; कूटशब्द भी कहते हैं',
    'கடவுச்சொல் (password) என்பது ரகசிய சொல்',
    'รหัสผ่าน = password, ชื่อผู้ใช้ = username',
    'စကားဝှက် (password) ကို ဘယ်သူ့ကိုမှ မပြောပါနဲ့',
    'ពាក្យសម្ងាត់ (password) ត្រូវតែវែង',
    '需要 Python 3.10+，CUDA ≥ 11.8，GPA 3.7/4.0，涨幅 +2.47%，版本 v2.47+build.5',
    '成绩换算：A+ 4.0，A 4.0，A- 3.7，B+ 3.3，B 3.0，password 不需要',
    'Fe3+ 和 Fe2+ 的区别；Cu2+ + 2e- → Cu；pH 7.4±0.05',
    '最有名的被滥用的社保号是 078-05-1120，当年印在钱包样卡上，四万多人拿它当自己的',
    'truffle develop 启动后会打印 Mnemonic: candy maple cake sugar pudding cream honey rich smooth crumble sweet treat',
    'BIP39 test vector #1: abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
    '助记词校验练习：zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrong',
    "Stripe 文档里的示例：stripe.api_key = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc'",
    'aws configure 时文档示例填 AKIAIOSFODNN7EXAMPLE 和 wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
    'Testpersonnummer 19121212-1212 (Tolvan Tolvansson) används i alla exempel',
    'Esempio di codice fiscale: RSSMRA85T10A562S (Mario Rossi, Roma)',
    "National Insurance numbers look like QQ 12 34 56 C (HMRC's example prefix QQ)",
    '测试环境用 4111 1111 1111 1111，有效期随便填未来日期',
    'Amex test: 3782 822463 10005',
    '练习：给 alice@example.com 发一封邮件，抄送 bob@example.org',
    'git config user.email ci-bot@build.test',
    'Enter your address like this: john.smith@example.net',
    'Reply-To: nobody@mailer.invalid',
    '埃菲尔铁塔位于北纬 48.8584°、东经 2.2945°，高 330 米',
    'The British Embassy in Beijing is at 11 Guanghua Road, Chaoyang District.',
    '航班 CA1234 和 MU5101 都延误了，改坐 G102 次高铁',
    '丰田 GR86、日产 GT-R R35、宝马 M340i 和比亚迪 汉 EV',
    '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7',
    '坐 2 号线到 A1 出口，换 K12 路公交',
    'Customer service hotline: 400-820-8820 (9:00-21:00)',
    '斐波那契数列：1, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987',
    '本期开奖号码：05 12 19 23 28 31 + 07',
    'The British Museum, Great Russell St, London WC1B 3DG',
    '東京都庁は新宿区西新宿二丁目8番1号にあります。',
]
