"""The held-out positives: written after the detectors passed ``written``, never used to change them.

Different services, phrasing, nesting and encodings from the written corpus.
First run (before any change it prompted): 51/71 found (71.8 %) — api_key
10/19, auth_header 3/4, connection_string 4/6, private_key 4/5, password
6/13; every ID, phone, card and e-mail case was found. The detectors were
then generalised (vendor-prefixed tokens, NAME<space>value, name/value pairs,
credential pairs in calls, webhook paths, JWK, .pgpass, Wi-Fi QR, …), not
patched per case; since then it is a regression set, no longer held out.
"""

from __future__ import annotations

from benchmarks.gate_corpus import Case

RSA_3072 = """-----BEGIN RSA PRIVATE KEY-----
MIIG5AIBAAKCAYEA2sckJkPtXuc7ZprZZ/gfViVAZmFAGnKcNTgHGV7PUT/TRC+E
Oq+SWAn9UY4UfDQrn8mLKQAsLs/NjUZOfBrYSvezOrp10up/KLsbzDjqW+OvgkjZ
UC+bSDVgyiZGWeT04TOSpXd/dVGz1CNd0hNvxku6d1/EfjXyzJ5NmzxBH7OyX+lK
qq8d0HiMMU4FrOF3fl9d2m0VIMaytxawSO4R7tvmkur8SUAztvJTZ5I31nVWY63+
r2CZlGI6hztoLdLJt0K5uOd9gYJMjXTgUjNXJyGPQHsENEP8gMQLJYmUfBFiwlsC
YUF++Ayb+1/1+fPeyZMClJVgPOaOpJKYkofWEoVI6oFYY+m7+rETa34ze828Ihho
jPD2tWVKLZt2Nypq/b/y9RuZqBsCu5sS426uT6QV93YHe2hXLQnx3R0YFHFpGH3P
Q1CR7Ip8ghwXlHEPBTsiCpUPQGrtTcMDF/PkV2zKXShKx26NfP1JXwII3G8EkAyt
UwebfPgyXEK6e8tBAgMBAAECggGABVT9qU4WAq5diQBkpI9MSjfxtB0SKCLbckOZ
jrF8GYWV8086KIj/ZtRlf1+YWbeWyZfqo5bsvL5VSuhoAMfRtjAHxvpk5T1QWJCI
2qcXdSJdNG5sl3L1lKKyZ3Lb25SEMFnmrNA3A8e4O4caIgTVwE43rvGfUxkjAAAq
sYocJzbktcg0iOjoL9zEQ+5cHozHMgYGfkySy3/0OpibtsdQmhLzcWi3OdzN9ds9
k6RhZoFpF9hVgPY4gACN3x5gSV+d/ebWw/KDR51HXj+hBJQDErjltABmOw0YLVWx
UpGNMU286vs5YTiTjfESjkIotiti04qbDrO/1eAsOmmya16InLjY2GwG204Rp9nm
c3iCnMFjCuvPhrHz7GGzTwdk3+xkehjZ5zLloZqKbCxdwcVBlBjRD+xlJ8v2frO5
YK33kgkLPDFe1pJ3oVUm7oRe7hnofe3C3UiCZhxSGGJVwi1i4JfkAnwFOJ/howxX
MuTly8ERNpWEnCYLh/cXl6gogc4xAoHBAPHQMHEvuHhNOuMoFePgki0fzgL2qV3M
iLL5SMP6d+n+H+208ezo/qZJBi7+G6YnSoOKQicmo+cXL9NijQZYagmTXy2AYzaj
YTRaRA1cfUi5fiBuA+LipqxPIdOvauNbmmCxbGySxqJA86KwYczNYZ2439niHMKZ
6WDNdu0y3c2hW1/rN0kFX8xgvoJiV2trdnfYRGx28ZA+nMLU6nPk/1nqDxrXMUE5
jJyElGaiiYdcRkYy68PgE9vRqG8mcoy9qQKBwQDnnPuCvBnNInrXdUH2l75oZr2H
tUgiL0q0XoIRmgxyMQlquVHQyqdDcGcQqk1aPA0sR+Jlh6cJ4NLiB1JrN1GMat7B
odRjLes8X38hZLvOgZ9dU5zMwkhy7bzZjIkXvev7ckwGV7oj1fe+MdM+xuiL3sO4
c2iMJpLgCQTeoU1jmpkz7YFEkpDrquwCzW7TLiF0JG51oNTdIqABqlEi0BkLAtCt
A+8l8fdkTTuQYP1TF3oG5gaw/N4i9DP6iI+VL9kCgcEAzf5RVgqV9f2sfZhHVZGY
VNJ0N/gSfbJgfT55K2IyRuZSIrhzIyO00skAeIXF3fw4sOfVxO5Yz+LjvgqFInOt
GS0u9l8ZpZD2nJeMw2kX3R0PgebWbrAv1jevFFqqDraZQ2fBephqmAwGwH/LQKFx
V+AG6eCCKZDdy7YcaqJbavHbGlIRDaaDXmLHx+CoofywthVI7LFCxWNhPWQNud7J
XLpUVcQd1HeG/kq+9NPfnq0PvHtidsFriWYIO2+gQ57JAoHBAJipa0oPq73/VRLA
8hqUiGeOGKzje0k0/LuIc5kgfcWitr9GqTvC557W7sgYSGYKoPAn7XzYfexP6RAc
nWGYE8NHCc59WV2J/bxMgaJEIFoMLDu6ieaYxGIke061iANDJtEU1DF2D3XhaatO
chu1xb+ztDPWtflyz2ql5zTLAxR86TBGAuds5+K+RVPPjpXZmSlRfhFAUi3zzZ1r
YpFcsrUERQFVT4MmStcs5O7UTwU+uyri4VQ1SEGnzr761hESeQKBwGuctOSM524O
j7XsJu0YaXf2BZcR8Gu1KFS2D7x2HZeIQ6JxdCbEb0ws/ZhMvOznLGvMGB9iayWP
niXV2keAMvqCcLNCsIG23XfndaarnThnIAxgLsyVCXs9ncgjJjF6s5D+2TW9ju1K
94k5O9RsEnQjqtNzVzTi3Ms5ehGu4up7/gV4hXGxQZD4WqkYrXXpSdiiaoVzQ3/D
zjHwlrcxdBCD8UBu4+iNpU6Is5h6AW/9mbGkhRzhxb24cv9yHhqCcQ==
-----END RSA PRIVATE KEY-----"""


def _body(pem: str) -> tuple[str, ...]:
    return tuple(line for line in pem.splitlines() if line and not line.startswith("-----"))


CASES: list[Case] = [
    # ----- service tokens ------------------------------------------------------------------
    Case("h-discord-bot-py", "api_key", "py",
         "import discord\n\nclient = discord.Client(intents=discord.Intents.default())\n"
         "client.run(\"MTA4NjQ1MjE2NjE3NTg3NzI5OA.xVKrwK.nlEtvHGoRljl0T2J4zPgWzUvsH3OUIKkffgjoX\")\n",
         ("MTA4NjQ1MjE2NjE3NTg3NzI5OA.xVKrwK.nlEtvHGoRljl0T2J4zPgWzUvsH3OUIKkffgjoX",)),
    Case("h-shopify-env", "api_key", "env",
         "SHOPIFY_STORE=study-shop.myshopify.com\nSHOPIFY_ADMIN=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\n",
         ("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",)),
    Case("h-digitalocean-md", "api_key", "md",
         "## VPS 初始化\n\n```sh\ndoctl auth init -t dop_v1_b0c311324636bbcdce52aa566a438021d53c54093f08aaadc0bc5c9980a02f37\n"
         "doctl compute droplet list\n```\n",
         ("dop_v1_b0c311324636bbcdce52aa566a438021d53c54093f08aaadc0bc5c9980a02f37",)),
    Case("h-notion-actions-yaml", "api_key", "yaml",
         "name: sync-notes\non: [push]\njobs:\n  sync:\n    runs-on: ubuntu-latest\n    env:\n"
         "      NOTION: secret_0RvlY45X9TPj3gArptvenlkSavp6vSmeB3fUh4Mxhzn\n    steps:\n      - run: python sync.py\n",
         ("secret_0RvlY45X9TPj3gArptvenlkSavp6vSmeB3fUh4Mxhzn",)),
    Case("h-groq-zh-prose", "api_key", "note",
         "Groq 免费额度每分钟 30 次，我的是 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 记得轮换",
         ("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",)),
    Case("h-replicate-md", "api_key", "md",
         "Run the image model locally first, then:\n\n    export REPLICATE=r8_BZmVvhqGf0uqsEhmIeQQQ95GGM930RyGSC1TV\n",
         ("r8_BZmVvhqGf0uqsEhmIeQQQ95GGM930RyGSC1TV",)),
    Case("h-perplexity-json", "api_key", "json",
         '{\n  "editor.ai": {\n    "provider": "perplexity",\n    "key": "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"\n  }\n}\n',
         ("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",)),
    Case("h-cloudflare-no-prefix", "api_key", "env",
         "CF_ZONE=study.cn\nCF_DNS_EDIT=1rqeSAYAv0QGfXYsLa19qh9g9uPh_9S7h3rj-NpE\n",
         ("1rqeSAYAv0QGfXYsLa19qh9g9uPh_9S7h3rj-NpE",)),
    Case("h-mailgun-tuple", "api_key", "py",
         'requests.post(\n    "https://api.mailgun.net/v3/mg.study.cn/messages",\n'
         '    auth=("api", "key-c4331v212ww6g2rg1bsdd5g7auvdsqcn"),\n    data={"to": ["all@mg.study.cn"]},\n)\n',
         ("key-c4331v212ww6g2rg1bsdd5g7auvdsqcn",)),
    Case("h-volcengine-zh", "api_key", "note",
         "火山引擎（豆包大模型）\nAccessKeyId AKLTfnb1RkO6opeIjl1wOZnkJcikGYyAkOcvEuKzp4BJ\n"
         "SecretAccessKey 7b/a/Mptj9Wml7cGY6YJmjyeCCkxBLK9GMHbBwpMFcaFwJLy7Bv6GETXMnJ1",
         ("AKLTfnb1RkO6opeIjl1wOZnkJcikGYyAkOcvEuKzp4BJ", "7b/a/Mptj9Wml7cGY6YJmjyeCCkxBLK9GMHbBwpMFcaFwJLy7Bv6GETXMnJ1")),
    Case("h-baidu-qianfan-zh", "api_key", "note",
         "千帆应用：API Key 为 YO4EizdzQuQOS6eOqMCdFlC7，Secret Key 为 e4MRQ7s3NP4r3rYlUnE9fNWqFuLc4dNt。",
         ("YO4EizdzQuQOS6eOqMCdFlC7", "e4MRQ7s3NP4r3rYlUnE9fNWqFuLc4dNt")),
    Case("h-azure-storage-conn", "api_key", "json",
         '{\n  "ConnectionStrings": {\n    "Blob": "DefaultEndpointsProtocol=https;AccountName=kbnotes;'
         'AccountKey=akhFzWzuKqqLcKlVmRwyuoDiGnMeXpiemrQ918aaxzCZuyoUhjC547QprLxszZzhe6ApGto4cx9f/gxm8kaMrQ==;'
         'EndpointSuffix=core.windows.net"\n  }\n}\n',
         ("akhFzWzuKqqLcKlVmRwyuoDiGnMeXpiemrQ918aaxzCZuyoUhjC547QprLxszZzhe6ApGto4cx9f/gxm8kaMrQ==",)),
    Case("h-feishu-webhook", "api_key", "md",
         "## 飞书群通知\n\n构建失败时 POST 到 https://open.feishu.cn/open-apis/bot/v2/hook/8481bf66-df5e-4f53-91e5-e4ea2926a604\n",
         ("8481bf66-df5e-4f53-91e5-e4ea2926a604",)),
    Case("h-wecom-webhook", "api_key", "note",
         "企业微信机器人 https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=a6a27e64-ed53-4e96-b773-d98e258a30d1",
         ("a6a27e64-ed53-4e96-b773-d98e258a30d1",)),
    Case("h-vault-token", "api_key", "md",
         "```\n$ vault login\nToken (will be hidden):\nSuccess! You are now authenticated.\n\nKey                  Value\n"
         "---                  -----\ntoken                hvs.CAESIq5YShwPhXhV2jpRwu-5KGAG0rKAUZGhrpzkTLvJkSP6p_4NKAMxN1zBPC_TRry77vkpNRqdJVTtqa761YRLI6g\n"
         "token_duration       768h\n```\n",
         ("hvs.CAESIq5YShwPhXhV2jpRwu-5KGAG0rKAUZGhrpzkTLvJkSP6p_4NKAMxN1zBPC_TRry77vkpNRqdJVTtqa761YRLI6g",)),
    Case("h-wxpay-apiv3-zh", "api_key", "note",
         "微信支付商户号 1650012345，APIv3密钥：BSvJISwdnqQlhpXQDaTVsB5ECxMT6smA（32位，别泄露）",
         ("BSvJISwdnqQlhpXQDaTVsB5ECxMT6smA",)),
    Case("h-openrouter", "api_key", "note",
         "OpenRouter: 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",
         ("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",)),
    Case("h-linear-yaml", "api_key", "yaml",
         "integrations:\n  linear:\n    team: KB\n    apiKey: lin_api_89Q8qQv2BqeU4WPMjHwZwwaAVdLAq83M3zESal7S\n",
         ("lin_api_89Q8qQv2BqeU4WPMjHwZwwaAVdLAq83M3zESal7S",)),
    Case("h-cookie-jwt", "api_key", "txt",
         "GET /dashboard HTTP/2\nHost: kb.lab\n"
         "Cookie: theme=dark; session=eyJhbGciOiJIUzI1NiJ9.eyJ1aWQiOjQyLCJleHAiOjE3NjcyMjU2MDB9.qYUOTQj4Wssc_ymlPjq3sZn2dl5D4MUgdj0iEypNBZp\n",
         ("eyJhbGciOiJIUzI1NiJ9.eyJ1aWQiOjQyLCJleHAiOjE3NjcyMjU2MDB9.qYUOTQj4Wssc_ymlPjq3sZn2dl5D4MUgdj0iEypNBZp",)),
    # ----- headers ---------------------------------------------------------------------------
    Case("h-drf-token-header", "auth_header", "txt",
         "POST /api/notes/ HTTP/1.1\nAuthorization: Token 0627ed389b418bb357e5e6ed6ff33ea7a718d351\nContent-Type: application/json\n",
         ("0627ed389b418bb357e5e6ed6ff33ea7a718d351",)),
    Case("h-postman-header", "auth_header", "json",
         '{\n  "request": {\n    "method": "GET",\n    "header": [\n      {"key": "x-api-key", "value": "d8425f29a39a805074ed61a30037be4c40cb", "type": "text"}\n'
         '    ],\n    "url": "https://api.lab.local/v1/items"\n  }\n}\n',
         ("d8425f29a39a805074ed61a30037be4c40cb",)),
    Case("h-gitlab-private-token", "auth_header", "md",
         "列出项目：\n\n```\ncurl --header \"PRIVATE-TOKEN: QgtZuQJQVrPFxExIB5Ed\" https://git.lab.cn/api/v4/projects\n```\n",
         ("QgtZuQJQVrPFxExIB5Ed",)),
    Case("h-atlassian-basic-curl", "auth_header", "note",
         "Jira 查询：curl -u li.lei@corp-mail.cn:ATATT3xFfGF06nTNF7hfmDyIMMXUV1JbqdSp6Do4fBO3K72ouDB4eWNhhxVgCVDGZDrz "
         "https://corp.atlassian.net/rest/api/3/myself",
         ("ATATT3xFfGF06nTNF7hfmDyIMMXUV1JbqdSp6Do4fBO3K72ouDB4eWNhhxVgCVDGZDrz",)),
    # ----- connection strings ----------------------------------------------------------------
    Case("h-sqlalchemy-py", "connection_string", "py",
         'engine = create_engine("mysql+pymysql://admin:Pa55w0rd!@mysql-primary/school?charset=utf8mb4")\n',
         ("Pa55w0rd!",)),
    Case("h-jdbc-params", "connection_string", "txt",
         "spring.datasource.url=jdbc:postgresql://pg:5432/kb?user=kb&password=Kb2024pg&ssl=false\n",
         ("Kb2024pg",)),
    Case("h-mssql-ado", "connection_string", "json",
         '{"ConnectionStrings": {"Default": "Server=tcp:db.corp;Database=kb;User Id=sa;Password=Sql@2019!;Encrypt=True"}}\n',
         ("Sql@2019!",)),
    Case("h-ftp-zh", "connection_string", "note",
         "实验室共享盘：ftp://ftpuser:ftp1234@192.168.10.5/共享资料",
         ("ftp1234",)),
    Case("h-redis-cli-a", "connection_string", "md",
         "```bash\nredis-cli -h 10.0.0.8 -p 6379 -a 'R3dis!pass' info memory\n```\n",
         ("R3dis!pass",)),
    Case("h-mongo-urlencoded-multihost", "connection_string", "env",
         "MONGO_URI=mongodb://kbuser:p%40ss%3Aword9@mongo1:27017,mongo2:27017/kb?replicaSet=rs0\n",
         ("p%40ss%3Aword9",)),
    # ----- private keys ----------------------------------------------------------------------
    Case("h-putty-ppk", "private_key", "txt",
         "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: eddsa-key-20240301\nPublic-Lines: 2\n"
         "AAAAC3NzaC1lZDI1NTE5AAAAIBFmr2eXxmNRNbx47M9f2wJeUm2BFHTMQBcihkd8\nJlBW\nPrivate-Lines: 1\n"
         "AAAAIFpLc2VkS2V5MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3Bx\nPrivate-MAC: 5e5a3b7c9d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a\n",
         ("AAAAIFpLc2VkS2V5MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3Bx",)),
    Case("h-k8s-secret-base64-pem", "private_key", "yaml",
         "apiVersion: v1\nkind: Secret\nmetadata:\n  name: notes-tls\ntype: kubernetes.io/tls\ndata:\n"
         "  tls.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t\n"
         "  tls.key: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFcEFJQkFBS0NBUUVBUVo3aXVZNE1CS2xSRmt6dE5WZFFiVmp0amFsMDhqZkJYYlVXNGVoYw==\n",
         ("LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFcEFJQkFBS0NBUUVBUVo3aXVZNE1CS2xSRmt6dE5WZFFiVmp0amFsMDhqZkJYYlVXNGVoYw==",)),
    Case("h-key-in-py-string", "private_key", "py",
         'SIGNING_KEY = """\n' + "\n".join("    " + line for line in RSA_3072.splitlines()) + '\n"""\n\n\n'
         "def sign(data: bytes) -> bytes:\n    return rsa_sign(SIGNING_KEY, data)\n",
         _body(RSA_3072)),
    Case("h-rsa3072-long-txt", "private_key", "txt",
         ("服务器迁移记录。" * 40 + "\n") * 6 + RSA_3072 + "\n" + ("迁移完成后检查日志。" * 30 + "\n") * 4,
         _body(RSA_3072)),
    Case("h-jwk-private", "private_key", "json",
         '{"keys": [{"kty": "EC", "crv": "P-256", "kid": "sig-2024", '
         '"x": "41B7KJM2suzi3UKAx5eORQ0ol3fE4ufWxm1Bm2FMgRI", "y": "TDO70GpCMeofF8gQUY4fuqWhnKEBcMcN4qoW8-EyUq9", '
         '"d": "kzjYPUr3ir7jEUEP8iHbVXKqG8ZId2gHIZlHHGx7IvI"}]}\n',
         ("kzjYPUr3ir7jEUEP8iHbVXKqG8ZId2gHIZlHHGx7IvI",)),
    # ----- passwords -------------------------------------------------------------------------
    Case("h-traditional-mima", "password", "note",
         "學校信箱帳號 s1101234，密碼：tw2024pass",
         ("tw2024pass",)),
    Case("h-pw-short-name", "password", "yaml",
         "accounts:\n  - site: library.lab\n    user: lilei\n    pw: hikari-2023\n",
         ("hikari-2023",)),
    Case("h-compose-postgres", "password", "yaml",
         "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_USER: kb\n      POSTGRES_PASSWORD: pg-dev-8812\n",
         ("pg-dev-8812",)),
    Case("h-ansible-inventory", "password", "txt",
         "[web]\n10.0.0.11 ansible_user=deploy ansible_ssh_pass=Ans1ble!\n",
         ("Ans1ble!",)),
    Case("h-netrc", "password", "txt",
         "machine git.lab.cn\n  login zhangsan\n  password 8dk2Lq0vPz\n",
         ("8dk2Lq0vPz",)),
    Case("h-wifi-prose-en", "password", "note",
         "The Wi-Fi password for the study room is Library#42 (ask the librarian if it changes).",
         ("Library#42",)),
    Case("h-withdraw-pin-zh", "password", "note",
         "农行卡取款密码是802613，不要告诉别人",
         ("802613",)),
    Case("h-username-space-password", "password", "note",
         "选课系统 用户名 zhangsan 密码 Zs@123456",
         ("Zs@123456",)),
    Case("h-door-code", "password", "note",
         "Lab building door code is 4471# after 10pm",
         ("4471",)),
    Case("h-git-url-password", "password", "note",
         "git remote add origin https://zhangsan:MyGitPass2024@git.corp.cn/notes/kb.git",
         ("MyGitPass2024",)),
    Case("h-smtp-login-positional", "password", "py",
         'import smtplib\n\nserver = smtplib.SMTP_SSL("smtp.qq.com", 465)\nserver.login("2658812345@qq.com", "qwmzxpvbnrtkslda")\n',
         ("qwmzxpvbnrtkslda",)),
    Case("h-pgpass", "password", "txt",
         "# ~/.pgpass\ndb.local:5432:kb:kbuser:Pg!pass99\n",
         ("Pg!pass99",)),
    Case("h-wifi-qr", "password", "note",
         "二维码内容 WIFI:T:WPA;S:Lab-5G;P:lab@2024#;;",
         ("lab@2024#",)),
    # ----- resident IDs ----------------------------------------------------------------------
    Case("h-id-table", "resident_id", "md",
         "| 姓名 | 证件号 | 班级 |\n|---|---|---|\n| 张三 | 110101199003071233 | 一班 |\n",
         ("110101199003071233",)),
    Case("h-id-dashes", "resident_id", "note",
         "身份证 320106-19850315-041X（复印件已交）",
         ("320106-19850315-041X",)),
    Case("h-id-english", "resident_id", "note",
         "Visa application — National ID: 230102197705243831",
         ("230102197705243831",)),
    Case("h-id-15", "resident_id", "note",
         "老身份证号 110105491231002 已经换新",
         ("110105491231002",)),
    Case("h-taiwan-id", "resident_id", "note",
         "身分證字號 F131104093，生日 1985/03/15",
         ("F131104093",)),
    Case("h-hkid", "resident_id", "note",
         "HKID K654321(9) copy sent to HR",
         ("K654321(9)",)),
    # ----- phone numbers ---------------------------------------------------------------------
    Case("h-mobile-paren86", "mobile", "note",
         "Tel: (+86) 135-1234-5678",
         ("135-1234-5678",)),
    Case("h-mobile-86-dash", "mobile", "note",
         "微信/手机：86-13512345678",
         ("13512345678",)),
    Case("h-landline", "mobile", "note",
         "教务处联系电话 021-6234 5678（工作日）",
         ("021-6234 5678",)),
    Case("h-mobile-json-array", "mobile", "json",
         '[{"name": "王老师", "mobile": "+8613712345678"}, {"name": "李老师", "mobile": "+8615098765432"}]\n',
         ("13712345678", "15098765432")),
    Case("h-taiwan-mobile", "mobile", "note",
         "房東手機 0912-345-678，晚上九點前",
         ("0912-345-678",)),
    Case("h-us-cell", "mobile", "note",
         "Advisor's cell +1 (650) 555-0134",
         ("(650) 555-0134",)),
    Case("h-mobile-dots", "mobile", "note",
         "快递柜取件人 138.0013.8000",
         ("138.0013.8000",)),
    # ----- bank cards ------------------------------------------------------------------------
    Case("h-credit-card-zh", "bank_card", "note",
         "信用卡号 4000 0012 3456 7899，有效期 08/28",
         ("4000 0012 3456 7899",)),
    Case("h-unionpay-6-13", "bank_card", "note",
         "工资卡 622848 0011223344554",
         ("622848 0011223344554",)),
    Case("h-card-yaml-dashes", "bank_card", "yaml",
         "billing:\n  method: card\n  number: 6226-0987-6543-2108\n",
         ("6226-0987-6543-2108",)),
    Case("h-iban", "bank_card", "note",
         "Rent goes to IBAN DE89 3704 0044 0532 0130 00 (Sparkasse)",
         ("DE89 3704 0044 0532 0130 00",)),
    Case("h-card-no-english", "bank_card", "note",
         "Card no. 5105105105105100 for the subscription",
         ("5105105105105100",)),
    # ----- e-mail ----------------------------------------------------------------------------
    Case("h-email-at-dot", "email", "note",
         "论文合作者：zhangsan at pku dot edu dot cn",
         ("zhangsan at pku dot edu dot cn",)),
    Case("h-email-hash", "email", "note",
         "有事发邮件 lisi#163.com",
         ("lisi#163.com",)),
    Case("h-email-git-log", "email", "txt",
         "commit 9fceb02d0ae598e95dc970b74767f19372d61af8\nAuthor: Wang Wu <wangwu@corp-mail.cn>\nDate:   Mon Mar 4 10:00:00 2024 +0800\n",
         ("wangwu@corp-mail.cn",)),
    Case("h-email-mailto-md", "email", "md",
         "有问题请[写信给刘老师](mailto:teacher.liu@bnu.edu.cn)。\n",
         ("teacher.liu@bnu.edu.cn",)),
    Case("h-email-plus-subdomain", "email", "note",
         "注册用 chen+kb@mail.ustc.edu.cn",
         ("chen+kb@mail.ustc.edu.cn",)),
    Case("h-email-mixed-fullwidth", "email", "note",
         "联系ｚｈａｏ＠163.com",
         ("ｚｈａｏ＠163.com",)),
]
