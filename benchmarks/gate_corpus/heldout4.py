"""A fourth held-out batch, written by a new engineer who had not read the detectors.

Written from real-world shapes (chat-ops webhooks, bot tokens, cloud console
pairs, lock-file and cluster config, SQL user statements, obfuscated e-mail,
PuTTY and WireGuard keys, JSON-escaped PEM) and measured before any change it
prompted. First run: 54/57 found (94.7 %; the pre-issue detectors: 28/57) —
every category complete except password 7/10: SQL ``IDENTIFIED BY '…'`` and
``WITH PASSWORD '…'``, and ``net use … /user:X password``. Its study-text
companion ``negatives2`` had 1 false positive in 45 on that run (an npm
``"integrity": "sha512-…"`` hash taken for a key; the pre-issue detectors: 6).
All four fixed after that measurement; a regression set since.
"""

from __future__ import annotations

from benchmarks.gate_corpus import Case

CASES: list[Case] = [
    # ----- service tokens and secrets --------------------------------------------------------
    Case("h4-slack-bot-md", "api_key", "md",
         "# 值班机器人\n\n```bash\nexport SLACK_BOT=xoxb-50506061947-9514927356357-BFJdYysMVcQGSN4eMdEzR0rk\n```\n",
         ("xoxb-50506061947-9514927356357-BFJdYysMVcQGSN4eMdEzR0rk",)),
    Case("h4-slack-webhook-note", "api_key", "note",
         "告警推送到 https://hooks.slack.com/services/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 就行",
         ("TFRYZSDZ432/BO7FYRAC4WV/91E64ASSqmqjefQOWWFpFAtF",)),
    Case("h4-discord-webhook-py", "api_key", "py",
         'WEBHOOK = "https://discord.com/api/webhooks/227543885006627991/'
         'kqtaaxvqKhPtnpaTgSxV_m86T2hgbzuCS7P0kO8NK--Ts_D10TBLfRsCNOCOLHJtkPXd"\n'
         "requests.post(WEBHOOK, json={'content': msg})\n",
         ("kqtaaxvqKhPtnpaTgSxV_m86T2hgbzuCS7P0kO8NK--Ts_D10TBLfRsCNOCOLHJtkPXd",)),
    Case("h4-telegram-bot-note", "api_key", "note",
         "Telegram 机器人：4566345966:AAtzEi2Go8B2mCqHnPMj04zjhwxZARl6Nu8 （BotFather 给的）",
         ("4566345966:AAtzEi2Go8B2mCqHnPMj04zjhwxZARl6Nu8",)),
    Case("h4-firebase-js-md", "api_key", "md",
         "## Firebase\n\n```js\nconst firebaseConfig = {\n  apiKey: \"AIzaJWylFjIpbIZyjD65V_Y-aBtLoHe6NWi14wP\",\n"
         "  authDomain: \"kb-demo.firebaseapp.com\",\n};\n```\n",
         ("AIzaJWylFjIpbIZyjD65V_Y-aBtLoHe6NWi14wP",)),
    Case("h4-sendgrid-yaml", "api_key", "yaml",
         "mail:\n  provider: sendgrid\n  credential: 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\n",
         ("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",)),
    Case("h4-npmrc-note", "api_key", "note",
         "~/.npmrc 里写：\n//registry.npmjs.org/:_authToken=npm_voUy8LWMtgZld3hUZqH9RUEB47EPKeSIuzZC\n",
         ("npm_voUy8LWMtgZld3hUZqH9RUEB47EPKeSIuzZC",)),
    Case("h4-pypirc-txt", "api_key", "txt",
         "[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmcLCenNbqVf90qaHwbfGTZRorNlGGK3bGXAk1wVnr2HXFywGL_WH2HBgEKpkNV\n",
         ("pypi-AgEIcHlwaS5vcmcLCenNbqVf90qaHwbfGTZRorNlGGK3bGXAk1wVnr2HXFywGL_WH2HBgEKpkNV",)),
    Case("h4-aliyun-console-zh", "api_key", "note",
         "阿里云 RAM 用户 oss-uploader\nAccessKey ID  LTAI5tRLhZBNGlJezMrK8HvC\nAccessKey Secret  WFDSWkaMN2wPjljpSC74nHRLhkZyOi\n",
         ("LTAI5tRLhZBNGlJezMrK8HvC", "WFDSWkaMN2wPjljpSC74nHRLhkZyOi")),
    Case("h4-tencent-secret-json", "api_key", "json",
         '{"region": "ap-guangzhou", "SecretId": "AKIDhxoxruvo1768ksBYt8dNqA41bQFpwKBb",\n'
         ' "SecretKey": "c65uXggYuHRSTAM8EzwEvYRDCyaCDSRD"}\n',
         ("AKIDhxoxruvo1768ksBYt8dNqA41bQFpwKBb", "c65uXggYuHRSTAM8EzwEvYRDCyaCDSRD")),
    Case("h4-wechat-appsecret-zh", "api_key", "note",
         "小程序后台 → 开发管理：AppID wx8f3c2a1b9d7e6f50，AppSecret 3b188c65c83ac7da89615217046a2b6e（重置过一次）",
         ("3b188c65c83ac7da89615217046a2b6e",)),
    Case("h4-github-fine-grained", "api_key", "note",
         "new fine-grained PAT for the docs repo: 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",
         ("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",)),
    Case("h4-x-api-key-dict-py", "api_key", "py",
         'headers = {\n    "Accept": "application/json",\n    "X-Api-Key": "48eaa64c3dd77f577444c1e10727ade51a194029",\n}\n',
         ("48eaa64c3dd77f577444c1e10727ade51a194029",)),
    Case("h4-baidu-translate-zh", "api_key", "note",
         "百度翻译开放平台\nAPP ID：20231105001873645\n密钥：9iAnSAd7jTZTNJZzxtJV\n",
         ("9iAnSAd7jTZTNJZzxtJV",)),
    Case("h4-powershell-env", "api_key", "md",
         "Windows 上：\n\n```powershell\n$env:OPENAI_API_KEY = \"sk-proj-S1d0X-u836Yf7sQmsw2sSKG4Vvma-9lLe2eQqF_0eFCYmBkf\"\n```\n",
         ("sk-proj-S1d0X-u836Yf7sQmsw2sSKG4Vvma-9lLe2eQqF_0eFCYmBkf",)),
    Case("h4-cmd-set-token", "api_key", "note",
         "set HF_TOKEN=hf_Qdgf04FAaOgft5sTPV0xVXq8qF9DqLsjIG\npython download.py",
         ("hf_Qdgf04FAaOgft5sTPV0xVXq8qF9DqLsjIG",)),
    Case("h4-jwt-in-prose", "api_key", "note",
         "调试时抓到的登录态：eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMDA4NiIsIm5hbWUiOiJ3YW5nIiwiaWF0IjoxNzAwMDAwMDAwfQ"
         ".pu-5SQzhIEbKNNYPx_HE3WZ2ABvSWAagdxD_QWTHtOJ 过期时间两小时",
         ("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMDA4NiIsIm5hbWUiOiJ3YW5nIiwiaWF0IjoxNzAwMDAwMDAwfQ"
          ".pu-5SQzhIEbKNNYPx_HE3WZ2ABvSWAagdxD_QWTHtOJ",)),
    Case("h4-docker-config-json", "api_key", "json",
         '{\n  "auths": {\n    "registry.cn-hangzhou.aliyuncs.com": {\n      "auth": "emhhbmd3ZWk6RGs4I3ZRMm0heA=="\n    }\n  }\n}\n',
         ("emhhbmd3ZWk6RGs4I3ZRMm0heA==",)),
    Case("h4-sentry-dsn-py", "api_key", "py",
         'sentry_sdk.init(dsn="https://3510231640ea9533ffaf5e5224b98ec5@o450123.ingest.sentry.io/5520113")\n',
         ("3510231640ea9533ffaf5e5224b98ec5",)),
    # ----- headers ----------------------------------------------------------------------------
    Case("h4-github-token-scheme", "auth_header", "md",
         "```\ncurl -H 'Authorization: token ghp_GIuFjcjK550JM041OQZMjkpqWvhA1FvhGCA7' https://api.github.com/user\n```\n",
         ("ghp_GIuFjcjK550JM041OQZMjkpqWvhA1FvhGCA7",)),
    Case("h4-proxy-basic", "auth_header", "txt",
         "CONNECT api.example.cn:443 HTTP/1.1\nProxy-Authorization: Basic emhhbmd3ZWk6RGs4I3ZRMm0heA==\n",
         ("emhhbmd3ZWk6RGs4I3ZRMm0heA==",)),
    Case("h4-x-auth-token-header", "auth_header", "note",
         "OpenStack 调用：X-Auth-Token: hsYoPdQsr65gY7PD5l5Dff2dagDpXBQ3GK0T8q7C",
         ("hsYoPdQsr65gY7PD5l5Dff2dagDpXBQ3GK0T8q7C",)),
    # ----- connection strings ------------------------------------------------------------------
    Case("h4-mongodb-srv", "connection_string", "yaml",
         "spring:\n  data:\n    mongodb:\n      uri: mongodb+srv://admin:Qw8rTz3pLm@cluster0.ab1cd.mongodb.net/kb?retryWrites=true\n",
         ("Qw8rTz3pLm",)),
    Case("h4-redis-no-user", "connection_string", "note",
         "缓存：redis://:Rd!s2024kb@10.0.3.17:6379/2",
         ("Rd!s2024kb",)),
    Case("h4-jdbc-query-password", "connection_string", "txt",
         "url=jdbc:mysql://db.internal:3306/library?user=kbapp&password=Kb_app_7781&useSSL=false\n",
         ("Kb_app_7781",)),
    Case("h4-mssql-ado", "connection_string", "json",
         '{"ConnectionStrings": {"Default": "Server=tcp:kb.database.windows.net,1433;Database=kb;User ID=sa;'
         'Password=Sq1$erver!9;Encrypt=True;"}}\n',
         ("Sq1$erver!9",)),
    Case("h4-git-remote-oauth2", "connection_string", "note",
         "git remote set-url origin https://oauth2:glpat-c2i3qun_wDMJo6vY7OmY@gitlab.corp.cn/kb/desktop.git",
         ("glpat-c2i3qun_wDMJo6vY7OmY",)),
    Case("h4-azure-storage", "connection_string", "env",
         "AZURE_STORAGE=DefaultEndpointsProtocol=https;AccountName=kbfiles;AccountKey="
         "60ExASiHji2ioJjjx9x08A6DB1QeEpJoaRSLMh8nVkZcw0XlQqwBPrcO90faa6L1TLOBAzPS7bB1/UppxAr6kg==;"
         "EndpointSuffix=core.windows.net\n",
         ("60ExASiHji2ioJjjx9x08A6DB1QeEpJoaRSLMh8nVkZcw0XlQqwBPrcO90faa6L1TLOBAzPS7bB1/UppxAr6kg==",)),
    # ----- private keys ----------------------------------------------------------------------
    Case("h4-putty-ppk", "private_key", "txt",
         "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: eddsa-key-20240301\nPublic-Lines: 2\n"
         "AAAAC3NzaC1lZDI1NTE5AAAAIE7uGnSPT0/21GeOOrqYC0puCItYJECmtIk0WBaC\nD1GW\nPrivate-Lines: 1\n"
         "sk91v8QwT5RMkfBlSX5Wok3tI68b/CTmPgeWqP6CxeBIHMB31ym2ndi4ZrVelO4I\n"
         "Private-MAC: 4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318\n",
         ("sk91v8QwT5RMkfBlSX5Wok3tI68b/CTmPgeWqP6CxeBIHMB31ym2ndi4ZrVelO4I",)),
    Case("h4-service-account-json", "private_key", "json",
         '{\n  "type": "service_account",\n  "project_id": "kb-demo",\n  "private_key_id": "a3e206e76dbfac5da6a8",\n'
         '  "private_key": "-----BEGIN PRIVATE KEY-----\\ncuPqKkpA+udiNUIJlqD/drf8Ud9ESUfm+jnuufJKIo1iqJ17IR9fngPCQ3hJyxUZ\\n'
         'FUG6wGFZaPe4sqeZUrylpC0OkQA5WSggLaGbjba2APNAvCBmH4JDva6HRF2rugCQ\\n'
         'X07ynhAkA6QHKegmu/+PoG+YsLSwBDDzpJ9L9nkHIIVlloSPz99ELSiRVyCPNxwg\\n-----END PRIVATE KEY-----\\n",\n'
         '  "client_email": "uploader@kb-demo.iam.gserviceaccount.com"\n}\n',
         ("cuPqKkpA+udiNUIJlqD/drf8Ud9ESUfm+jnuufJKIo1iqJ17IR9fngPCQ3hJyxUZ",
          "FUG6wGFZaPe4sqeZUrylpC0OkQA5WSggLaGbjba2APNAvCBmH4JDva6HRF2rugCQ",
          "X07ynhAkA6QHKegmu/+PoG+YsLSwBDDzpJ9L9nkHIIVlloSPz99ELSiRVyCPNxwg")),
    Case("h4-wireguard-conf", "private_key", "txt",
         "[Interface]\nAddress = 10.8.0.2/24\nPrivateKey = ei0nJpK3cyF+E4VbWB+21eh01yN1Qd85sfiMIyX3adU=\nDNS = 1.1.1.1\n",
         ("ei0nJpK3cyF+E4VbWB+21eh01yN1Qd85sfiMIyX3adU=",)),
    Case("h4-eth-private-key-zh", "private_key", "note",
         "测试网钱包私钥 0xa3e206e76dbfac5da6a8196374997038b5862edf8b481847ad7c8fc66ab01f86 别转主网的钱进去",
         ("a3e206e76dbfac5da6a8196374997038b5862edf8b481847ad7c8fc66ab01f86",)),
    Case("h4-pgp-block", "private_key", "txt",
         "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n"
         "cuPqKkpA+udiNUIJlqD/drf8Ud9ESUfm+jnuufJKIo1iqJ17IR9fngPCQ3hJyxUZ\n"
         "FUG6wGFZaPe4sqeZUrylpC0OkQA5WSggLaGbjba2APNAvCBmH4JDva6HRF2rugCQ\n=Xk2d\n"
         "-----END PGP PRIVATE KEY BLOCK-----\n",
         ("cuPqKkpA+udiNUIJlqD/drf8Ud9ESUfm+jnuufJKIo1iqJ17IR9fngPCQ3hJyxUZ",
          "FUG6wGFZaPe4sqeZUrylpC0OkQA5WSggLaGbjba2APNAvCBmH4JDva6HRF2rugCQ")),
    # ----- passwords ---------------------------------------------------------------------------
    Case("h4-sql-identified-by", "password", "md",
         "```sql\nCREATE USER 'kb'@'%' IDENTIFIED BY 'Xk9#mPq2v';\nGRANT ALL ON kb.* TO 'kb'@'%';\n```\n",
         ("Xk9#mPq2v",)),
    Case("h4-pg-alter-user", "password", "note",
         "ALTER USER postgres WITH PASSWORD 'pg_Adm1n!77';",
         ("pg_Adm1n!77",)),
    Case("h4-k8s-secret-yaml", "password", "yaml",
         "apiVersion: v1\nkind: Secret\nmetadata:\n  name: pg\ntype: Opaque\ndata:\n  username: cG9zdGdyZXM=\n"
         "  password: UGctUHIwZC0yMDI0IQ==\n",
         ("UGctUHIwZC0yMDI0IQ==",)),
    Case("h4-spring-properties", "password", "txt",
         "spring.datasource.url=jdbc:postgresql://localhost/kb\nspring.datasource.username=kb\n"
         "spring.datasource.password=Zx9!kL2#w\n",
         ("Zx9!kL2#w",)),
    Case("h4-sshpass", "password", "note",
         "树莓派一键登录：sshpass -p 'rasp-Berry22' ssh pi@raspberrypi.local",
         ("rasp-Berry22",)),
    Case("h4-net-use", "password", "txt",
         "net use Z: \\\\fileserver\\share /user:CORP\\alice Spring2024!ok\n",
         ("Spring2024!ok",)),
    Case("h4-boot-password-zh", "password", "note",
         "实验室电脑开机密码 qwe!@#123，周末关机前记得锁屏。",
         ("qwe!@#123",)),
    Case("h4-payment-pin-zh", "password", "note",
         "支付密码改成了 852456，别告诉别人",
         ("852456",)),
    Case("h4-prose-password-en", "password", "note",
         "Note to self: the password for the lab NAS is tr0ub4dor&3 (changed in March).",
         ("tr0ub4dor&3",)),
    Case("h4-python-requests-auth", "password", "py",
         'resp = requests.get(url, auth=("admin", "Adm!n-2023-kb"), timeout=10)\n',
         ("Adm!n-2023-kb",)),
    # ----- resident IDs ------------------------------------------------------------------------
    Case("h4-id-table-md", "resident_id", "md",
         "| 姓名 | 身份证 |\n|---|---|\n| 张三 | 42011119860605103X |\n| 李四 | 320106198802140537 |\n",
         ("42011119860605103X", "320106198802140537")),
    Case("h4-id-dashed", "resident_id", "note",
         "报名信息：王芳，证件号 440305-19990730-4186",
         ("440305-19990730-4186",)),
    Case("h4-id-json-field", "resident_id", "json",
         '[{"name": "赵六", "id_card": "51010420010909271X", "class": "高二(3)班"}]\n',
         ("51010420010909271X",)),
    # ----- mobile numbers --------------------------------------------------------------------
    Case("h4-mobile-dashed-zh", "mobile", "note",
         "快递员电话 138-0013-8000，下午三点前到",
         ("138-0013-8000",)),
    Case("h4-mobile-vcard", "mobile", "txt",
         "BEGIN:VCARD\nVERSION:3.0\nFN:刘洋\nTEL;TYPE=CELL:+86-186-1234-5678\nEND:VCARD\n",
         ("186-1234-5678",)),
    Case("h4-mobile-dots", "mobile", "note",
         "call Chen at 139.1234.5678 after 6pm",
         ("139.1234.5678",)),
    Case("h4-mobile-tel-link", "mobile", "md",
         "联系我们：[拨打 客服](tel:+8615912345678)\n",
         ("15912345678",)),
    # ----- bank cards ------------------------------------------------------------------------
    Case("h4-card-19-grouped", "bank_card", "note",
         "工资卡 6228 4862 0966 5428 703（农行），每月 10 号发",
         ("6228 4862 0966 5428 703",)),
    Case("h4-card-amex", "bank_card", "note",
         "Amex 3798 747174 29246 exp 09/27",
         ("3798 747174 29246",)),
    Case("h4-card-json", "bank_card", "json",
         '{"payer": "kb", "card_no": "4367123937045051", "expiry": "11/26"}\n',
         ("4367123937045051",)),
    # ----- e-mail ------------------------------------------------------------------------------
    Case("h4-email-at-words", "email", "note",
         "导师邮箱 liu.wei (at) pku.edu.cn，答辩前一周发材料",
         ("liu.wei (at) pku.edu.cn",)),
    Case("h4-email-brackets", "email", "note",
         "reach me: chen.jing [at] zju [dot] edu [dot] cn",
         ("chen.jing [at] zju [dot] edu [dot] cn",)),
    Case("h4-email-mailto", "email", "md",
         "有问题请 [发邮件](mailto:wang+kb@qq.com)\n",
         ("wang+kb@qq.com",)),
    Case("h4-email-git-author", "email", "txt",
         "commit 9fceb02d0ae598e95dc970b74767f19372d61af8\nAuthor: Zhang San <zhangsan@corp.com.cn>\n",
         ("zhangsan@corp.com.cn",)),
]
