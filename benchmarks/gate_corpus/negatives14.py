"""Hard negatives written with ``heldout15`` (session 17), before the detectors were changed.

Study and developer text that sits near the families heldout15 aims at and holds no secret: 60 texts.
Random-looking values under key-like words that are public (ids, hashes, cache keys, public keys, site
keys, encrypted secrets meant to be committed), encoded payloads that decode to nothing secret, file
references where a password would go, examples from standards, and the three false alarms of the last
sealed negatives in new shapes (a filter list's contact address, a SealedSecret's ciphertext, '@pw.txt').
Generated with seed 151515.

Shapes, one per text:
- uBlock-style filter list header naming its maintainer's contact address
- AdGuard list header with a maintainer line
- Bitnami SealedSecret manifest (ciphertext for the cluster's public key)
- Ansible Vault encrypted variable
- SOPS-encrypted YAML value
- a password read from a file given with @
- password files named on command lines
- curl posting a file with @
- cache key from hashed files in a CI workflow
- a computed cache key in a build log
- an idempotency key and request ids in an API log
- ETag and Last-Modified in response headers
- reCAPTCHA site key in public HTML (data-sitekey)
- JWKS with public RSA parameters only
- WireGuard peer section (public key and endpoint)
- pinned hashes in requirements.txt
- go.sum lines
- Cargo.lock package checksum
- package-lock integrity
- PowerShell -EncodedCommand of a harmless process listing
- pwsh -enc greeting in a lab sheet
- git binary patch (Base85 data)
- Ascii85 example from the Leviathan quote
- IPFS CIDv1 (base32) of a public dataset
- bytes.fromhex of a greeting in an encoding lesson
- Dockerfile that base64-decodes a mirror list
- atob in a JavaScript lesson
- gzip+base64 of a README in a packing exercise
- video and share ids in query strings
- tracking parameters in a pasted link
- short links
- a music lesson's key in Russian and German
- Chinese cryptography lecture words before values
- RFC 6749's example authorization code and state
- kubeadm's documented example bootstrap token
- a lexer lesson's token dump
- placeholders under key labels in several syntaxes
- keys passed by reference on command lines
- Terraform provider reading its token from a variable
- Kubernetes secretKeyRef by name
- VS Code keybindings (key is a keyboard shortcut)
- DynamoDB table keys
- GPG key ids in apt setup
- .NET app.config with ordinary settings
- Android manifest referencing a key resource
- MongoDB ObjectIds in a query
- Hugging Face revision pinned by commit
- build assets with hashed names
- Luhn lesson's standard example number
- the Mario Rossi codice fiscale example from an Italian lesson
- RFC 4122's example UUID and a Windows CLSID
- key-file flags naming paths
- public directions to a campus gate
- HP as hit points and a laptop brand
- card words for non-payment cards
- Russian prose about password rules
- an OpenVPN profile that reads credentials from a file
- OTP words in a lecture about TOTP
- connection string template with placeholders
- an address form's empty template
"""

NEGATIVES: list[str] = [
    # uBlock-style filter list header naming its maintainer's contact address
    '[Adblock Plus 2.0]\n! Title: 中文学习站点过滤规则\n! Description: 去掉课程网站上的浮动广告\n! Version: 2026.12.01\n! Expires: 4 days\n! Homepage: https://github.com/lin-lab/cn-study-filters\n! Contact: cn.study.filters@gmail.com\n! License: GPL-3.0\n\n||ads.example.cn^\n##.float-ad',
    # AdGuard list header with a maintainer line
    '! Title: Lecture Video Cleaner\n! Maintainer: Lin Hua <lin.filters@outlook.com>\n! Last modified: 07 Dec 2026\n||tracker.example.com^$third-party',
    # Bitnami SealedSecret manifest (ciphertext for the cluster's public key)
    'apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: db-credentials\n  namespace: course\nspec:\n  encryptedData:\n    password: AgBYTIGLeU1xk71VInjAxCMm9YJ6nbegVLFtVwuuqgsW7KpCB2TJl3H7kvFhL4PGcdw85L6VAazh87eCyKZKlRdaQMZs5YUXudz5+QRYGXl+IZhLI5tPzfKFaJjUs5LS6G7mkTDzLN6hsrf4r4GtaUL2fZt88sBBispqSqlvYf05WJFHdkU0cZK7YYreMiEg7aBUmhg9jRe0iAsla5XEmHaFxNgbAGpXwS7fItr7HUCqBLnjmVqaexY8x8OOCuPxKoOxzk2J3gBTJb8q5XPK6eI8SU8UbsjE/KYDNDfhWMCeCXaVkzo3PSUVnDUeikapju+MmpiM9TeQyxUrQLPvl1DXGBjCgF0Fs0m6xz25BHbKZJpYdliUktVadZ8+dNnlwdpnH9/MX2yRpxPzc2P==\n    username: AgC15TGihVIBZ/spuBluzrKf7KvvHtWpj+B0YlmIrhfvUOsg2bHJ4+a9I2kklbQtvrXn6KPjoBQOECn+UMZGeCd6Z2naJLB2wPnuarx8cUwtuFRWdm93k5H84tAAFCJHNayWBp2zdcRjfIHHQ05plQi0189cKUqDiXGj0jfpM+WkwP3AFHX2SMz/zk/W0Afme2+Yonk+rxfz36CXCBBd6DuMAYC/Nr/oZrT8721d1EXYy9Nii5vHIaRkChbH93D7NtEESizcL/7X3M9zpODo6+NgVZdWRpdeiKtqRHtiY2eckW8iyeVSpTMse6fmNb/Z561nNMMFM2FCzhUXOsoQ5lW/5M9M63DZPsQ2P7A32DYjd8lM8VSiH5WQ0zBHCOK=\n  template:\n    metadata:\n      name: db-credentials',
    # Ansible Vault encrypted variable
    'db_password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256\n  f5cc3b96afdfba35052470813ac52acfbabd3cdd5e425d3a8a44bc74f3f8538c0f9f56b6e5980705\n  89fb99725349744404dcfd9e46e70d7ba8dbc3d75ca64d56db920011105eba65bfe6ef12ac8347b2\n  d95c8caf4c61894d7e60bdb70139b6d2603e850f2361e57a9ee329622a3f1929ac484863db5bde8f\n  4bdfcf1867d62ca63d5f494a973c61e273785bf9085ee245962934f650637637e82f0b052bdd5d6f\n  dd226a04b2d7cb51c0b63f6d64d56c055242afe34d9bbbe706eee68bf52469f39a01adf3966423e6',
    # SOPS-encrypted YAML value
    'password: ENC[AES256_GCM,data:jglP7dN+RS6SHKcM147QgROC=,iv:hY97+3KuVP31YyPVltk2Oh3aCCRRO9FVzSqg9YCe4iD=,tag:Wyn/lUFdnmidPVE7CYDVpz==,type:str]\nsops:\n    kms: []\n    age:\n        - recipient: age1el9cvljqqsz3udxwgrgt6jda87lse5szq6wx6m232sfdy0dheg5jwg2mew',
    # a password read from a file given with @
    'az login --service-principal -u http://lab-sp -p @pw.txt --tenant lab.onmicrosoft.com',
    # password files named on command lines
    'restic -r sftp:nas:/backup --password-file ~/.restic-pw backup ~/notes\nansible-playbook site.yml --vault-password-file ~/.vault_pass.txt\nkeytool -list -keystore lab.jks -storepass:file pw.txt',
    # curl posting a file with @
    "curl -X POST --data-binary @payload.json -H 'Content-Type: application/json' http://127.0.0.1:8000/api/notes",
    # cache key from hashed files in a CI workflow
    "- uses: actions/cache@v4\n  with:\n    path: ~/.cache/pip\n    key: ${{ runner.os }}-pip-${{ hashFiles('**/requirements.txt') }}\n    restore-keys: ${{ runner.os }}-pip-",
    # a computed cache key in a build log
    'restore cache: key=1de339e6aa68066ff418f40d44736df9e669a07d (hit, 213 MB)\nsave cache: key=v2-deps-b8570866be6152bb (skipped)',
    # an idempotency key and request ids in an API log
    'POST /v1/charges 200\nIdempotency-Key: 2f2b877c-afa5-4606-9971-cf553c34cd34\nX-Request-Id: 1d16715d-803c-42fd-af0c-491a73ec0bee\ntraceparent: 00-260ce221eade3c4ed236104dc4fcc461-7e75cc0e2689ad6d-01',
    # ETag and Last-Modified in response headers
    'HTTP/1.1 200 OK\nETag: "98b8f9e8edf75d8da3d88e130eadf346fb1056d2"\nLast-Modified: Mon, 07 Dec 2026 03:12:44 GMT\nCache-Control: max-age=3600',
    # reCAPTCHA site key in public HTML (data-sitekey)
    '<div class="g-recaptcha" data-sitekey="6LcNBb00buvnnzjh6Fh5R3UqUTNP1h_FRHjPQ8ak"></div>',
    # JWKS with public RSA parameters only
    '{\n  "keys": [\n    {\n      "kty": "RSA",\n      "use": "sig",\n      "kid": "a8e92e7ed15ed6cc73c964f53f68bd619b3d2e4e",\n      "alg": "RS256",\n      "n": "MC1HqRserMMgbjQRE7HJo4-5wfs_-pcOC-vzDv8foLkqJH-cgfqNzDAqt8DBAW3j-9XDezQGTE7Yp3bP-4S0ZtONNmUXKH171s78JT47YZ5FrELh2NfkmCAvpaNON4giluZUMncY54FqrdSQv89SOlLpxzBt7M9JGujDdRmU1smmJyeeRKbcFg1UCFzbPrd-R8fOmCE0CwdmQzwXmrKDmdYVbHbe9qENPV778fiNNpVNY1SrkqP9-Wv5rQDA3NBd_Ud3c4Sw6T-mAQacRkayByC9P8rVMidBRGn18xc2i7Ri5r3gQuJysSLX7RE-4WLcaw5Hy2IGDGA4EcRkb_XvNH",\n      "e": "AQAB"\n    }\n  ]\n}',
    # WireGuard peer section (public key and endpoint)
    '[Peer]\nPublicKey = PyoJCp2HqbXvSrHOC3DwSPl7Vqar8Du8ysDHyyMCUTE=\nAllowedIPs = 10.8.0.0/24\nEndpoint = vpn.lab.example:51820',
    # pinned hashes in requirements.txt
    'requests==2.32.3 \\\n    --hash=sha256:1b3adae5a883b5c5101ed32f458ffc0a68dc2ee2599e576e7eda547bdf21765b \\\n    --hash=sha256:ad72ba25590ecd0b6cc922bcc79254d47e881d38fc595ef68bc2d82a629a9c46',
    # go.sum lines
    'github.com/spf13/cobra v1.8.1 h1:k8+EKGRPfVBlrSBxTkmwTRch/Zo8Qbpsxz5pnX+B7Z8=\ngithub.com/spf13/cobra v1.8.1/go.mod h1:SPykbEXKhoCW+D56rVc8rqzckezoVXdW417RZx4JnAo=',
    # Cargo.lock package checksum
    '[[package]]\nname = "serde"\nversion = "1.0.215"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "2a3b62e02abe6a57145f1ff67e1c79ba91e6a30de421fef3fca7151c836881d4"',
    # package-lock integrity
    '"node_modules/vite": {\n  "version": "6.0.3",\n  "resolved": "https://registry.npmmirror.com/vite/-/vite-6.0.3.tgz",\n  "integrity": "sha512-PLgpE3V3dEdcwCGeMMJ/Geh012bhUaapfxVg/05n5lSERiP+6X8VNgQdMsktITYGtYIbAfvVIiW9DdnCVP1Qgy=="\n}',
    # PowerShell -EncodedCommand of a harmless process listing
    '在 PowerShell 里 base64 传命令的例子：\npowershell.exe -NoProfile -EncodedCommand RwBlAHQALQBQAHIAbwBjAGUAcwBzACAAfAAgAFMAbwByAHQALQBPAGIAagBlAGMAdAAgAEMAUABVACAALQBEAGUAcwBjAGUAbgBkAGkAbgBnACAAfAAgAFMAZQBsAGUAYwB0AC0ATwBiAGoAZQBjAHQAIAAtAEYAaQByAHMAdAAgADUA',
    # pwsh -enc greeting in a lab sheet
    'pwsh -enc VwByAGkAdABlAC0ASABvAHMAdAAgACcASABlAGwAbABvACAAZgByAG8AbQAgAHQAaABlACAAbABhAGIAJwA7ACAARwBlAHQALQBEAGEAdABlAA==',
    # git binary patch (Base85 data)
    'diff --git a/docs/logo.png b/docs/logo.png\nnew file mode 100644\nindex 0000000..7d18b7a\nGIT binary patch\nliteral 120\nzcmV^)RlF0dbM)!xE)d-%5fX5itjQW8=1m8^JhMy=kP=>|MT_{@bSMCs^~vhp)rX\nzKhV|3iYMd7ePWZ-t=#8~x^}9^g`XcxCTR6>i{b!Y&Us?>`Z=OmO6`Lxcysap\n\nliteral 0\nHcmV?d00001',
    # Ascii85 example from the Leviathan quote
    'Ascii85 编码示例（维基百科）：\n<~9jqo^BlbD-BleB1DJ+*+F(f,q/0JhKF<GL>Cj@.4Gp$d7F!,L7@<6@)/0JDEF<G%<+EV:2F!,O<DJ+*.@<*K0@<6L(Df-\\0Ec5e;DffZ(EZee.Bl.9pF"AGXBPCsi+DGm>@3BB/F*&OCAfu2/AKYi(DIb:@FD,*)+C]U=@3BN#EcYf8ATD3s@q?d$AftVqCh[NqF<G:8+EV:.+Cf>-FD5W8ARlolDIal(DId<j@<?3r@:F%a+D58\'ATD4$Bl@l3De:,-DJs`8ARoFb/0JMK@qB4^F!,R<AKZ&-DfTqBG%G>uD.RTpAKYo\'+CT/5+Cei#DII?(E,9)oF*2M7/c~>',
    # IPFS CIDv1 (base32) of a public dataset
    '数据集镜像：ipfs://bafybeigdyrztktx5b5m2y4sogf2hf5uqpnb7txwdu6q6ldoxywcbjbqj4a/README.md',
    # bytes.fromhex of a greeting in an encoding lesson
    "print(bytes.fromhex('e4bda0e5a5bd2c20776f726c6421').decode())  # 你好, world!",
    # Dockerfile that base64-decodes a mirror list
    'RUN echo ZGViIGh0dHBzOi8vbWlycm9ycy50dW5hLnRzaW5naHVhLmVkdS5jbi9kZWJpYW4gYm9va3dvcm0gbWFpbiBjb250cmliCg== | base64 -d > /etc/apt/sources.list && apt-get update',
    # atob in a JavaScript lesson
    "console.log(atob('SGVsbG8sIOS4lueVjA==')); // 解码 base64\nconsole.log(btoa('Hello'));",
    # gzip+base64 of a README in a packing exercise
    "echo 'H4sIAAAAAAACA8tIzcnJVyjPL8pJ4SrJyCxWAKKSjFSFIFdHF19Xhfw0MC8nMYkLANe6tCwqAAAA' | base64 -d | gunzip",
    # video and share ids in query strings
    'https://www.youtube.com/watch?v=VtQbyIWmkeX&list=PL0tZNGXZ6-cfNVMLP7ElM64CHVJezaWRj&si=cnVr7DSVboqmzBqp\nhttps://www.bilibili.com/video/BV1vhyjF8QTO?p=3&vd_source=6f77120074f4c3ce3b0f6ee39fd19ed7',
    # tracking parameters in a pasted link
    'https://news.example.com/article/2026/12/ai-study?utm_source=wechat&utm_medium=social&fbclid=IwAR1h2e30mB-ydmmBRK3IKgu6dESpX9vx8-n6Q4eeDHkJ_RtLUxUqgeb4Z5&gclid=JNsLPHgCi7i7BFOudgOJi64MV5B9lPbfBtILPxFV',
    # short links
    'https://t.co/MPihCyrqFC https://b23.tv/bzjz87F https://dwz.cn/OlBFGaVN',
    # a music lesson's key in Russian and German
    'Ключ: соль мажор, размер 3/4.\nTonart (Schlüssel): G-Dur; Violinschlüssel.',
    # Chinese cryptography lecture words before values
    '密钥交换算法：ECDHE\n密钥长度：2048 位\n令牌桶算法：容量 100，速率 10/s\n授权码模式（authorization code）：授权码只能用一次，有效期 10 分钟。',
    # RFC 6749's example authorization code and state
    'RFC 6749 §4.1.2 的示例响应：\nHTTP/1.1 302 Found\nLocation: https://client.example.com/cb?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz',
    # kubeadm's documented example bootstrap token
    'kubeadm join 192.168.0.10:6443 --token abcdef.0123456789abcdef \\\n    --discovery-token-ca-cert-hash sha256:ac1d064bd5c58c377356e503bc822af7e67997c2600d9311a22eb05fd5abbab8',
    # a lexer lesson's token dump
    'Token { kind: Ident, text: "api_key", span: 12..19 }\nToken { kind: Eq, span: 20..21 }\nToken { kind: Str, text: "\\"...\\"", span: 22..27 }\ntoken: IDENT  secret: false',
    # placeholders under key labels in several syntaxes
    'api_key = "YOUR_API_KEY_HERE"\nsecret: <your-secret>\ntoken: xxxxxxxxxxxxxxxxxxxxxxxx\nAPI_KEY=${{ secrets.API_KEY }}\nkey = os.environ["WEATHER_KEY"]\nclient_secret: \'********\'',
    # keys passed by reference on command lines
    'sonar-scanner -Dsonar.login=${SONAR_TOKEN}\nllm --api-key "$OPENAI_API_KEY" \'summarise notes.md\'\nngrok config add-authtoken $NGROK_AUTHTOKEN\nwandb login --relogin',
    # Terraform provider reading its token from a variable
    'provider "cloudflare" {\n  api_token = var.cloudflare_api_token\n}\nvariable "cloudflare_api_token" {\n  sensitive = true\n}',
    # Kubernetes secretKeyRef by name
    'env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db-credentials\n        key: password\n  - name: API_KEY\n    valueFrom: {secretKeyRef: {name: weather, key: apiKey}}',
    # VS Code keybindings (key is a keyboard shortcut)
    '[\n  { "key": "ctrl+shift+alt+f", "command": "editor.action.formatDocument" },\n  { "key": "ctrl+k ctrl+t", "command": "workbench.action.selectTheme" }\n]',
    # DynamoDB table keys
    'TableName: notes\nKeySchema:\n  - AttributeName: user_id\n    KeyType: HASH\n  - AttributeName: created_at\n    KeyType: RANGE\nprimary_key: user_id\nsort_key: created_at',
    # GPG key ids in apt setup
    "gpg --keyserver hkps://keys.openpgp.org --recv-keys C84DD734AABF90DF1AB372CF4E2723483CBF96C5\necho 'deb [signed-by=/usr/share/keyrings/lab.gpg] https://apt.lab.example stable main'",
    # .NET app.config with ordinary settings
    '<appSettings>\n  <add key="Theme" value="Dark" />\n  <add key="PageSize" value="50" />\n  <add key="CacheKeyPrefix" value="kb:v3:" />\n</appSettings>',
    # Android manifest referencing a key resource
    '<meta-data\n    android:name="com.amap.api.v2.apikey"\n    android:value="@string/amap_key" />',
    # MongoDB ObjectIds in a query
    'db.notes.find({ _id: ObjectId("23fd7ad9ec5383cdc851018c") })\ndb.notes.updateOne({ _id: ObjectId("ce03cb12ab0b60eb18807989") }, { $set: { pinned: true } })',
    # Hugging Face revision pinned by commit
    'model = AutoModel.from_pretrained("intfloat/multilingual-e5-small", revision="2995e37014a88db2d356a4b9df5278141562bbf6")',
    # build assets with hashed names
    'dist/assets/index-KMkDE1J9.js   142.31 kB │ gzip: 45.87 kB\ndist/assets/index-r5IB05tN.css   12.04 kB\nmain.72007fae.chunk.js',
    # Luhn lesson's standard example number
    'Luhn 校验示例（维基百科）：79927398713 是有效的，79927398710 无效。',
    # the Mario Rossi codice fiscale example from an Italian lesson
    'Esempio di codice fiscale (Mario Rossi, nato a Roma il 1° gennaio 1980): RSSMRA80A01H501U',
    # RFC 4122's example UUID and a Windows CLSID
    'RFC 4122 示例：f81d4fae-7dec-11d0-a765-00a0c91e6bf6\nHKEY_CLASSES_ROOT\\CLSID\\{20D04FE0-3AEA-1069-A2D8-08002B30309D}',
    # key-file flags naming paths
    'ssh -i ~/.ssh/id_ed25519 lin@lab\nopenssl s_client -connect lab:443 -key client.key -cert client.crt\nvault login -method=cert -client-cert=cert.pem -client-key=key.pem',
    # public directions to a campus gate
    '去图书馆：地铁4号线北京大学东门站A口出来往西走 300 米就是东门，进门后直走到未名湖再右转。',
    # HP as hit points and a laptop brand
    'Boss 血量 HP: 12000/12000，MP: 300\n实验室电脑：HP EliteBook 840 G8，H/P 比 0.75',
    # card words for non-payment cards
    'Tarjeta de memoria: 128 GB (microSD)\nномер карты в колоде: 52\nKartennummer im Spiel: 17',
    # Russian prose about password rules
    'Пароль должен содержать не менее 8 символов, включая цифры и буквы. Не используйте один и тот же пароль на разных сайтах.',
    # an OpenVPN profile that reads credentials from a file
    'client\ndev tun\nremote vpn.uni.example 1194\nauth-user-pass /etc/openvpn/uni-credentials.txt\ncipher AES-256-GCM\nverb 3',
    # OTP words in a lecture about TOTP
    'TOTP = HOTP(K, T)，其中 T = floor((当前时间 − T0) / X)，X 默认 30 秒；RFC 6238 附录 B 的测试密钥是 ASCII 字符串 "12345678901234567890"。',
    # connection string template with placeholders
    'Server=tcp:<server>.database.windows.net,1433;Database=<db>;User ID=<user>;Password=<password>;Encrypt=true\npostgresql://USER:PASSWORD@HOST:5432/DBNAME',
    # an address form's empty template
    'Street: ____________\nApt/Unit: ______\nCity: ________  ZIP: _____',
]
