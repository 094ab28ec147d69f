"""The written positives corpus: the shapes the detectors were built against (≥ 80).

Every category of issue 10, in Chinese and English contexts, in notes, pasted
``.env`` files, Markdown code blocks, JSON, YAML and Python files.
"""

from __future__ import annotations

from benchmarks.gate_corpus import Case

RSA_1024 = """-----BEGIN RSA PRIVATE KEY-----
MIICXAIBAAKBgQC7hko5vWIic5AMio1mzzEVuudi988+6izY+GwJiW88xdxcjgXn
avDwrEoPnYGtQr+riQO1CJ216SN4fypIOL35g9OZX3dpNr9Hix9NSIYnDty1a5WC
t0Go8272GQr4f3xEDC5AlOGqhpJcXqIiAIJQ4BTycHApBKooag6ox8CItwIDAQAB
AoGBAJK3R52TQZNozPwy7tzQIDw7Jkv1TI2R1BLRkl2HzKNEvtsfNxlPP0Fd2vgK
qGmxfpqrsV3TZujrhhgBjkhBNMgKbJtbRTwU+5qYnuM3WN9kfcIkOKTm3gE78mZ0
jta2PlAcK4iuvxXCjqyNxERuUJNGkXrXiCHZo6GZe8jpYFHxAkEA7MnQXpNz5dMB
KB4v78eqwcsD+573GWj7DqU1j386zoOwbK2o2mgt8ijYAV18ckxH/uqgp3vXJHjf
aYcBScje2QJBAMq9P5Xb+mrkOAbSbIEo0OuXVY1TfRXXUh0HDOAsKN5vLRiIJHIl
jAyCUz00vTAftZ2lO3zSLtQHJpOxQaAfCg8CQFpkKDESZPnk9NoVvALy29Ki52BU
rMt8ceqDUtD2psJTLzQtjvnhLzj0MpFC2NDhIdLESpPlCJoZsl+cc/dwwPECQDwR
D/q9fxcWYMccpwspZaS3ZKCHoOLMtcZl5Vmxm7YzaEABbhLnrvOx1SmoK3lLm8qG
Pva/ayJkr/hIJzJin98CQChnKBlQyIQD1L9fe1DDP8HWP3E2Oe5jAP7h1d607tBf
6/AeEOuHwop8lN6RyBBIlYkwxyzCMqK6curoWWx5OqM=
-----END RSA PRIVATE KEY-----"""
EC_PKCS8 = """-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg7Uz1IuMVRTAJvW0a
2vB7dgdSWj7ProcZ7JMcdoWMZTmhRANCAARNcGIzn3isKv+qB9Zjrf2jAItfEcfd
KkKNUrYQQqq14Kv997+ol4eChGGP+f7p/gQEZGUVCpSrdBQFIXJ1BXhg
-----END PRIVATE KEY-----"""
EC_SEC1 = """-----BEGIN EC PRIVATE KEY-----
MHcCAQEEIEVc6KDL29VrgZgdG+mc9clKY4hPBijjjAMJo9JLQ+C6oAoGCCqGSM49
AwEHoUQDQgAEPTMKDvTTniU2zPVPWRy8V+wzJUOF/BvDe7FWLScI9HfllU32eV5l
mIx1vHB/OjcGpuoXXLvrTZLZt1Ac2xMy1Q==
-----END EC PRIVATE KEY-----"""
OPENSSH_ED25519 = """-----BEGIN OPENSSH PRIVATE KEY-----
b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW
QyNTUxOQAAACARZq9nl8ZjUTW8eOzPX9sCXlJtgRR0zEAXIoZHfCZQVgAAAJANNv41DTb+
NQAAAAtzc2gtZWQyNTUxOQAAACARZq9nl8ZjUTW8eOzPX9sCXlJtgRR0zEAXIoZHfCZQVg
AAAEA/Zk6GtSF5jOlBNUQdC9Y7Z/4qyvYgSfOdIx2ylhdC2xFmr2eXxmNRNbx47M9f2wJe
Um2BFHTMQBcihkd8JlBWAAAADHpoYW5nQGxhcHRvcAE=
-----END OPENSSH PRIVATE KEY-----"""
ENCRYPTED_PKCS8 = """-----BEGIN ENCRYPTED PRIVATE KEY-----
MIGbMFcGCSqGSIb3DQEFDTBKMCkGCSqGSIb3DQEFDDAcBAiU+BpFNVEF3AICCAAw
DAYIKoZIhvcNAgkFADAdBglghkgBZQMEASoEEFhZr164RTpiTZyEaax3j58EQEU6
EZm1Rs1CmDjj4xWuOEH7BtBsc592vO6k8eI9WNuHeviaCoH+PeCc/2F2WFByGsGj
vZBWgoilciuBUGraRPM=
-----END ENCRYPTED PRIVATE KEY-----"""
PGP_SECRET = """-----BEGIN PGP PRIVATE KEY BLOCK-----

lFgEaw1ZhBYJKwYBBAHaRw8BAQdA3rDpPKm29ZuXyJZSXaTuY3TzG8Hf+pf5tg5j
HkQrH4QAAQCha3mpdjLVJI9aPfJb4p3tavfdOUQcXsNbi7V/SddqxxEStBtMaSBM
ZWkgPGxpbGVpQHRlc3QuaW52YWxpZD6IlgQTFggAPhYhBMkJVQkMhCZaLhPDYlCX
lgRXoo74BQJrDVmEAhsDBQkDwmcABQsJCAcCBhUKCQgLAgQWAgMBAh4BAheAAAoJ
EFCXlgRXoo74LsgA+wfIe0FslRL4juNGpX0sMFA2JJYGMwo/ZdnFiW2qQjnLAQD/
JYrActyq5FuimS5K9yWH4sIbYN89So8jvRuLhRaTAQ==
=+HEr
-----END PGP PRIVATE KEY BLOCK-----"""
RSA_2048 = """-----BEGIN PRIVATE KEY-----
MIIEvAIBADANBgkqhkiG9w0BAQEFAASCBKYwggSiAgEAAoIBAQDh5tulgvF1J98z
f4F/l6P/H5eonegTux9O3mbQfDUd4Xq1ymgbVnXEPxdnB5mwGxjmbHAhQNfWVvaM
P4R3XNsLSsIyPeksibbQ50dQ2M14YQafsTEB1uTsFJYap2DE0j4tZT9V96yLmax2
1AlZ5sktHlgUKZhFJLD2VsqrKXWDYccoPnPGMbEQ3fylWkNSk76vjmH5mFq5tkJh
arQcQHSOb+cHmsxB4wlVRvkngvjDwenANuNihxFvclt++9aajk4qrPUP2B7DsZo8
ee3tflHGCxL9/rTptS5nK3wG984kmPHQWiLloyf7xfbSkHFTzj+2hh8ssXHdL/e5
68s6YOnRAgMBAAECggEAFBgKYqMOokqtJnIJjVVqP4fKYDPHkHW9F7FduN7LhMBp
P2FlOEVNDWtFRCNfbtRCN0DfCn4vlL/Ah4Ig4NMwIsWAF6L9KjqHufZQmCbow/Px
eGP1BYJdc4hzP6SyzV8cK8KNSzLQNMyzFBDRUh9etrYzxHtcsY3NdeQLfAUgkFKH
3e+0VCER+nIXzi8WBZ1ycxXZOP7ejelDYUPLOOSTu1EvafppjP3YUQDpxEDv1IfN
tdq1PnvW1+nUeKZlHkS+kHnSinmmDBHc8GbBtj7354VUeTS8gctSZZbn1+qSX1tB
k5/13EUQZrIHI/fKJFYePlvA+ngWm9RsDVhMNK6JHwKBgQD/cAHdaZK9sgMjD2y5
EU044uB19dKPU1o3y61VzVimwljM4T3x2dK93aUzQ8JLwetC8iEQLdWKn5rAywrx
C9CeZro2SmqcSqWLH/rHs4MIWdqKpmS95Prk6lW/2Q/BJH8XimI8l03nlVTAWvfG
opG1fyPWFJIKksaUMxE0epgUIwKBgQDiZjN8QwuL83VrD/5DMT9+VScc1Sc9IFLk
8us3PO5oVlZDW0Pzyxh4qXyhoX+ieBg0mSZawv62zKaZyBTqtdpZIl6ZQU1t2Gla
6w/uQds4+iIVvtt54e7SjIVldLNRk36eF/dZ8eVqZJ92RnWCIbZVXb5Q0DtJKzsh
RRkv1hUfewKBgEptwJ1bXb6YWAGnRO7H89BXiz/T2P6aMvd/CYquwt4UUvufxgTq
i1V3d+NwIvUgFAT1uFyWflpeFyGGCDIkVy1QkYGwPVA9D+9x6gi2bb/JLrynr0MF
rXV2MnYsMUL992pMkENHcxO/l2pVF01xoTNZUH/YjpU2H1afaqv37MgxAoGAZRNx
yvl3zzybYHgccU0sZq+HrcSwJwcmWxbk0p1+ZtCc5Kd7V/2FaGFqxhJ/FD7/t4Pk
bsL9ywjlHGUKiZs053SDvXI9Klxi9Pda/mkigXaS/xhdjjXDVPbtm1UVtcbe0aAr
i1mGrhBMbRaZ4cZBTC11CUleHpWRaZIa45N1jL8CgYAoHqez0ZZRMrKq7MAknB+y
JY+ahsyM//a5gbE+AW0qSSM2aFxnmisUSD7i7+WMXQbMQvzmVpN8YVCd1ACVWiIt
i6M+EoStj7upQbI9Z8LZGyFtCG9/klb6HhlRtTJbg+oV60xaz1brgHWdvn5bJHOZ
bY/pVXaXQDFA79HuGTHlNg==
-----END PRIVATE KEY-----"""


def _body(pem: str) -> tuple[str, ...]:
    """The base64 lines of a key block: each must be withheld, wherever a window starts."""
    return tuple(line for line in pem.splitlines() if line and not line.startswith("-----"))


CASES: list[Case] = [
    # ----- service tokens ------------------------------------------------------------------
    Case("stripe-live-env", "api_key", "env",
         "# payments\nSTRIPE_PUBLISHABLE_KEY=pk_live_51Hx2\n"
         "STRIPE_SECRET_KEY=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\n"
         "STRIPE_WEBHOOK_SECRET=whsec_uHmvguTEKhCpqHKCn8TSCpqglNnhF6bQ\n",
         ("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",
          "whsec_uHmvguTEKhCpqHKCn8TSCpqglNnhF6bQ")),
    Case("stripe-restricted-md", "api_key", "md",
         "## 支付对接笔记\n\n对账脚本只需要只读权限，用受限密钥：\n\n```bash\n"
         "curl https://api.stripe.com/v1/balance -u rk_live_LiI6s6DcouhN1fHW93RYY7TK:\n```\n",
         ("rk_live_LiI6s6DcouhN1fHW93RYY7TK",)),
    Case("stripe-test-py", "api_key", "py",
         'import stripe\n\n# test mode key from the dashboard\nstripe.api_key = "sk_test_4eC39HqLyjWDarjtT1zdp7dc"\n\n\n'
         'def charge(amount: int) -> None:\n    stripe.PaymentIntent.create(amount=amount, currency="cny")\n',
         ("sk_test_4eC39HqLyjWDarjtT1zdp7dc",)),
    Case("github-pat-note", "api_key", "note",
         "GitHub 个人访问令牌（2025-06 到期）：ghp_mBVeRL8f38uTvQE2KFvV5iM5lpZgfseIFtcC 只勾了 repo 权限。",
         ("ghp_mBVeRL8f38uTvQE2KFvV5iM5lpZgfseIFtcC",)),
    Case("github-oauth-yaml", "api_key", "yaml",
         "github:\n  client_id: Iv1.8a61f9b3a7aba766\n  oauth_token: gho_XS8I7ICIHEcBmBppXzRx1p5GZu0iwsfox0Y4\n  org: study-group\n",
         ("gho_XS8I7ICIHEcBmBppXzRx1p5GZu0iwsfox0Y4",)),
    Case("github-app-json", "api_key", "json",
         '{\n  "installation": 48213,\n  "token": "ghs_YcqbHsVtwyjq1QqFd0f2mUAg01vI5v8qYEHy",\n  "expires_at": "2025-03-01T10:00:00Z"\n}\n',
         ("ghs_YcqbHsVtwyjq1QqFd0f2mUAg01vI5v8qYEHy",)),
    Case("github-fine-grained-md", "api_key", "md",
         "# Release checklist\n\n1. Bump the version.\n2. Export the fine-grained token:\n\n"
         "    export GH_TOKEN=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\n\n"
         "3. Run `gh release create`.\n",
         ("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",)),
    Case("gitlab-pat-clone", "api_key", "note",
         "公司 GitLab 克隆命令：git clone https://oauth2:glpat-1sjBNMFZlvLu5Mhikfhy@gitlab.corp.local/ml/notes.git",
         ("glpat-1sjBNMFZlvLu5Mhikfhy",)),
    Case("gitlab-runner-yaml", "api_key", "yaml",
         "# gitlab-runner config\nconcurrent: 2\nrunners:\n  - name: docker-builder\n    url: https://gitlab.example.cn/\n"
         "    token: glrt-PsrTEIXdHJwqRIsBIrly\n    executor: docker\n",
         ("glrt-PsrTEIXdHJwqRIsBIrly",)),
    Case("gitlab-deploy-token", "api_key", "note",
         "Deploy token for the registry (read only): username gitlab+deploy-token-7, password gldt-oRiJOM2ytq3aEGQ21Zz3",
         ("gldt-oRiJOM2ytq3aEGQ21Zz3",)),
    Case("npm-npmrc", "api_key", "md",
         "发布 npm 包之前在 `~/.npmrc` 里写：\n\n```ini\n//registry.npmjs.org/:_authToken=npm_uI1r8NAC0CGMWTGdB3zzDOrjRdFiM9ul4OW0\n```\n",
         ("npm_uI1r8NAC0CGMWTGdB3zzDOrjRdFiM9ul4OW0",)),
    Case("pypi-pypirc", "api_key", "txt",
         "[distutils]\nindex-servers = pypi\n\n[pypi]\nusername = __token__\n"
         "password = pypi-AgEIcHlwaS5vcmcCJVxQ3pZ9wpzcVRMk245Brxqq_KyzsOnFg4xarI6F3H-r_up8cUb1ErTHEZnVwX5lfiA5nYQnLqFWfDNJGhjaIFw40YUcYqvc4eDqFj1ZKnb8EXW-_srXpBKG7m85VKqF6b9Rw9NSp6lpBOpnbxR5KvW\n",
         ("pypi-AgEIcHlwaS5vcmcCJVxQ3pZ9wpzcVRMk245Brxqq_KyzsOnFg4xarI6F3H-r_up8cUb1ErTHEZnVwX5lfiA5nYQnLqFWfDNJGhjaIFw40YUcYqvc4eDqFj1ZKnb8EXW-_srXpBKG7m85VKqF6b9Rw9NSp6lpBOpnbxR5KvW",)),
    Case("huggingface-py", "api_key", "py",
         'from huggingface_hub import login\n\nlogin(token="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")  # 下载 gated 模型需要\n',
         ("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",)),
    Case("openai-project-env", "api_key", "env",
         "OPENAI_API_KEY=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\n"
         "OPENAI_ORG=org-course\n",
         ("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",)),
    Case("openai-legacy-prose", "api_key", "note",
         "Old key from the 2023 course, probably revoked: 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 (check before reuse).",
         ("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",)),
    Case("anthropic-json", "api_key", "json",
         '{\n  "provider": "anthropic",\n  "model": "claude-3-5-sonnet",\n'
         '  "apiKey": "sk-ant-api03-NN3HLr4_wBcdqt61C4QttZQ_dKKfR9BEo8Ijf_L-LPSX6if6ElAcpkGXv_XjCnGvpYta8JntZfwxusEfLxNA4gcHw52ECAA"\n}\n',
         ("sk-ant-api03-NN3HLr4_wBcdqt61C4QttZQ_dKKfR9BEo8Ijf_L-LPSX6if6ElAcpkGXv_XjCnGvpYta8JntZfwxusEfLxNA4gcHw52ECAA",)),
    Case("aws-credentials-file", "api_key", "txt",
         "[default]\naws_access_key_id = AKIAXTCPZOREQDHDNHLZ\naws_secret_access_key = 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\nregion = ap-east-1\n",
         ("AKIAXTCPZOREQDHDNHLZ", "Euf1BWKWiO+r8Fg9ZFIBv4YSmtIAD1TjFBPQBouy")),
    Case("aws-env-underscore", "api_key", "env",
         "AWS_ACCESS_KEY_ID=AKIALX7W5UYO7DZJQSZN\nAWS_SECRET_ACCESS_KEY=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\nAWS_DEFAULT_REGION=cn-north-1\n",
         ("AKIALX7W5UYO7DZJQSZN", "l3CUCYmFWm34UPPhRfkde1BqHAZGigy5TLaFfSX3")),
    Case("aliyun-oss-md", "api_key", "md",
         "### 阿里云 OSS 上传\n\n```python\nimport oss2\n"
         "auth = oss2.Auth('LTAI5tN8d6M5oL6F0idMRRHv', 'BfUSJG87FXYbd6sqp8yJvcV8f41nzH')\n"
         "bucket = oss2.Bucket(auth, 'https://oss-cn-hangzhou.aliyuncs.com', 'notes-img')\n```\n",
         ("LTAI5tN8d6M5oL6F0idMRRHv", "BfUSJG87FXYbd6sqp8yJvcV8f41nzH")),
    Case("tencent-cos-note", "api_key", "note",
         "腾讯云 COS\nSecretId：AKID6juhFa81GZ8TZs0PBfa8htVcKxZR0xSB\nSecretKey：nQEGlFNvRFIAMftxJnEl6igpzfuZsvk2\n地域 ap-guangzhou",
         ("AKID6juhFa81GZ8TZs0PBfa8htVcKxZR0xSB", "nQEGlFNvRFIAMftxJnEl6igpzfuZsvk2")),
    Case("slack-bot-yaml", "api_key", "yaml",
         "slack:\n  bot_token: xoxb-396155098865-1023055199910-blkJvp5QihIWIyWY9545q8P0\n  channel: '#study-log'\n",
         ("xoxb-396155098865-1023055199910-blkJvp5QihIWIyWY9545q8P0",)),
    Case("slack-user-and-webhook", "api_key", "note",
         "Slack user token xoxp-678056297932-700299948983-1137316867605-e2c528638393a931c0ca2a8b06633b28\n"
         "Incoming webhook: https://hooks.slack.com/services/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",
         ("xoxp-678056297932-700299948983-1137316867605-e2c528638393a931c0ca2a8b06633b28",
          "zdmRVQJCgGlPBYnfmJKBAIvH")),
    Case("google-maps-js", "api_key", "md",
         "地图 demo：\n\n```html\n<script src=\"https://maps.googleapis.com/maps/api/js?key=AIza_Clj_fbWdyK9g3NwQrScFDu25VGiqcq_6ij&callback=init\"></script>\n```\n",
         ("AIza_Clj_fbWdyK9g3NwQrScFDu25VGiqcq_6ij",)),
    Case("sendgrid-py", "api_key", "py",
         "import os\nfrom sendgrid import SendGridAPIClient\n\n"
         "SENDGRID_KEY = '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'\nclient = SendGridAPIClient(SENDGRID_KEY)\n",
         ("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",)),
    Case("telegram-bot-note", "api_key", "note",
         "背单词提醒机器人 @vocab_ping_bot 的 token 是 9761854828:AA5pYPmHg-6SzMoUGfYtFW-tSNT3OgeHS3l ，别提交到仓库",
         ("9761854828:AA5pYPmHg-6SzMoUGfYtFW-tSNT3OgeHS3l",)),
    Case("deepseek-key-zh", "api_key", "note",
         "DeepSeek 充值了 50 元，key：sk-b1ddd4280d8d73d18f71f52842fff5e1",
         ("sk-b1ddd4280d8d73d18f71f52842fff5e1",)),
    Case("moonshot-py", "api_key", "py",
         'from openai import OpenAI\n\nclient = OpenAI(\n    api_key="sk-ErFLFIjDVNKH17vo69aH2lz8APjGnRx2zbjTIdvvBEaBgnJn",\n'
         '    base_url="https://api.moonshot.cn/v1",\n)\n',
         ("sk-ErFLFIjDVNKH17vo69aH2lz8APjGnRx2zbjTIdvvBEaBgnJn",)),
    Case("dingtalk-robot", "api_key", "md",
         "## 钉钉群机器人\n\nWebhook 地址：https://oapi.dingtalk.com/robot/send?access_token=c48c6a5d6960c34793cd74bf00d1efe6b9db1748b3a3f7c6ba7059797a16e5a1\n",
         ("c48c6a5d6960c34793cd74bf00d1efe6b9db1748b3a3f7c6ba7059797a16e5a1",)),
    Case("wechat-appsecret-json", "api_key", "json",
         '{"appid": "wx3f9a2c1d5e8b7a60", "appsecret": "067f87ee0904473821b6c3f0acac2754", "env": "prod"}\n',
         ("067f87ee0904473821b6c3f0acac2754",)),
    Case("zhipu-key-no-prefix", "api_key", "env",
         "ZHIPUAI_API_KEY=2a6368cef56c0646c2b570a43b3a17b6.mzGt5XbeXEPMISgf\n",
         ("2a6368cef56c0646c2b570a43b3a17b6.mzGt5XbeXEPMISgf",)),
    Case("generic-secret-key-py", "api_key", "py",
         "# settings.py\nDEBUG = False\nSECRET_KEY = 'Pv3u6ANA7BIbmo4WRXYrTXytSqUmewp6oc7pmpJDFE3+'\nALLOWED_HOSTS = ['notes.local']\n",
         ("Pv3u6ANA7BIbmo4WRXYrTXytSqUmewp6oc7pmpJDFE3+",)),
    Case("qiniu-ak-sk-zh", "api_key", "note",
         "七牛云图床\nAK: r23fgoqY-GP0Zx5BnnYi7fJBWxxPA3i46QE1vNN7\n密钥 839de243ddb409f938bc77f41928a4e758432dfe",
         ("r23fgoqY-GP0Zx5BnnYi7fJBWxxPA3i46QE1vNN7", "839de243ddb409f938bc77f41928a4e758432dfe")),
    Case("twilio-auth-token", "api_key", "note",
         "Twilio trial: account SID AC5f2c9a7b3e1d4c6a8b0f2e4d6c8a0b2e, auth token 93ae4ce4f80884331dc825ef5e4ea10f",
         ("93ae4ce4f80884331dc825ef5e4ea10f",)),
    Case("jwt-in-note", "api_key", "note",
         "调试用的登录态（24 小时有效）：eyJhbGciOiAiSFMyNTYiLCAidHlwIjogIkpXVCJ9.eyJzdWIiOiAidV84ODEyIiwgIm5hbWUiOiAiXHU2NzRlXHU5NmY3IiwgImlhdCI6IDE3MTYyMzkwMjJ9.6TO3rOQDopfhZHHF0-EFt8p_bD6i9BPkDj3zHdo1B05",
         ("eyJhbGciOiAiSFMyNTYiLCAidHlwIjogIkpXVCJ9.eyJzdWIiOiAidV84ODEyIiwgIm5hbWUiOiAiXHU2NzRlXHU5NmY3IiwgImlhdCI6IDE3MTYyMzkwMjJ9.6TO3rOQDopfhZHHF0-EFt8p_bD6i9BPkDj3zHdo1B05",)),
    # ----- Authorization headers -------------------------------------------------------------
    Case("basic-header-curl", "auth_header", "md",
         "Jenkins 触发构建：\n\n```\ncurl -X POST https://ci.lab.local/job/notes/build \\\n  -H 'Authorization: Basic ZGVwbG95OlRyMHViNGRvciYz'\n```\n",
         ("ZGVwbG95OlRyMHViNGRvciYz",)),
    Case("basic-header-http", "auth_header", "txt",
         "GET /api/v1/reports HTTP/1.1\nHost: intranet.lab\nAuthorization: Basic YWRtaW46Wng5IXFMbXAy\nAccept: application/json\n",
         ("YWRtaW46Wng5IXFMbXAy",)),
    Case("bearer-header-py", "auth_header", "py",
         "import httpx\n\nheaders = {\"Authorization\": \"Bearer 5YjnhDxS3aQHbO-zg7GCi2DY-pk6iMsUWKR5J8TI\"}\n"
         "resp = httpx.get(\"https://api.lab.local/v2/me\", headers=headers)\n",
         ("5YjnhDxS3aQHbO-zg7GCi2DY-pk6iMsUWKR5J8TI",)),
    Case("bearer-short-zh", "auth_header", "note",
         "接口联调：请求头加 Authorization: Bearer 7f3kQ9zT2m，过期了找后端重新发",
         ("7f3kQ9zT2m",)),
    Case("azure-api-key-header", "auth_header", "md",
         "Azure OpenAI 调用：\n\n```\ncurl https://lab-east.openai.azure.com/openai/deployments/gpt4/chat/completions?api-version=2024-02-01 \\\n"
         "  -H \"api-key: 230ebaf6d4684ffd93758b892cd29706\" -d @body.json\n```\n",
         ("230ebaf6d4684ffd93758b892cd29706",)),
    Case("bearer-yaml", "auth_header", "yaml",
         "http:\n  endpoint: https://metrics.lab.local/push\n  headers:\n    Authorization: \"Bearer Ry8wq2LmX4vT9sNc0Pa7\"\n",
         ("Ry8wq2LmX4vT9sNc0Pa7",)),
    # ----- connection strings ----------------------------------------------------------------
    Case("postgres-env", "connection_string", "env",
         "DATABASE_URL=postgres://notes_app:q7Lm2xPz@db.internal.example.net:5432/notes\n",
         ("q7Lm2xPz",)),
    Case("postgres-no-tld", "connection_string", "md",
         "docker compose 里服务名就是主机名：\n\n```yaml\nenvironment:\n  DB_URL: postgresql://postgres:pg_Secr3t@postgres:5432/kb\n```\n",
         ("pg_Secr3t",)),
    Case("mysql-jdbc-zh", "connection_string", "note",
         "测试库连接串 mysql://root:Root@2024!@10.0.3.15:3306/exam 只在内网能连",
         ("Root@2024!",)),
    Case("mongodb-srv-json", "connection_string", "json",
         '{\n  "mongo": "mongodb+srv://reader:Vx8RtY2q@cluster0.a1b2c.mongodb.net/notes?retryWrites=true"\n}\n',
         ("Vx8RtY2q",)),
    Case("redis-password-only", "connection_string", "py",
         "import redis\n\nr = redis.from_url(\"redis://:r3d1sP4ss@cache:6379/0\")\n",
         ("r3d1sP4ss",)),
    Case("amqp-yaml", "connection_string", "yaml",
         "celery:\n  broker_url: amqp://celery:Bq9tWm3z@rabbitmq//\n  result_backend: rpc://\n",
         ("Bq9tWm3z",)),
    Case("mongodb-local-note", "connection_string", "note",
         "local mongo for the course project: mongodb://admin:hunter22@localhost:27017/?authSource=admin",
         ("hunter22",)),
    Case("rediss-tls", "connection_string", "env",
         "CACHE_URL=rediss://default:AVNS_4kQ2bWm9xP7rT1@redis-12345.c1.ap-southeast-1.ec2.cloud.redislabs.com:12345\n",
         ("AVNS_4kQ2bWm9xP7rT1",)),
    # ----- private keys ----------------------------------------------------------------------
    Case("rsa-pem-note", "private_key", "note",
         "服务器登录用的老密钥，已经换掉了：\n" + RSA_1024 + "\n",
         _body(RSA_1024)),
    Case("ec-pkcs8-md", "private_key", "md",
         "## JWT 签名密钥（ES256）\n\n```\n" + EC_PKCS8 + "\n```\n\n公钥在 `jwt-pub.pem`。\n",
         _body(EC_PKCS8)),
    Case("ec-sec1-yaml", "private_key", "yaml",
         "tls:\n  cert_file: /etc/ssl/notes.crt\n  key: |\n" + "".join(f"    {line}\n" for line in EC_SEC1.splitlines()),
         _body(EC_SEC1)),
    Case("openssh-md", "private_key", "md",
         "# 新电脑配置\n\n把下面的 key 放到 `~/.ssh/id_ed25519`，权限 600：\n\n```\n" + OPENSSH_ED25519 + "\n```\n",
         _body(OPENSSH_ED25519)),
    Case("encrypted-pkcs8-note", "private_key", "note",
         "Encrypted key for the signing job (passphrase in the password manager):\n" + ENCRYPTED_PKCS8,
         _body(ENCRYPTED_PKCS8)),
    Case("pgp-secret-md", "private_key", "md",
         "## GPG backup\n\nExported with `gpg --export-secret-keys --armor`:\n\n" + PGP_SECRET + "\n",
         _body(PGP_SECRET)),
    Case("service-account-json", "private_key", "json",
         '{\n  "type": "service_account",\n  "project_id": "study-notes-42",\n'
         '  "private_key_id": "3f1c9a7e2b5d4f6a8c0e1b3d5f7a9c2e4b6d8f01",\n'
         '  "private_key": "' + EC_PKCS8.replace("\n", "\\n") + '\\n",\n'
         '  "client_email": "sync@study-notes-42.iam.gserviceaccount.com"\n}\n',
         _body(EC_PKCS8)),
    Case("rsa-2048-long-md", "private_key", "md",
         "# 部署\n\n" + "部署脚本会先检查磁盘空间，然后拉取镜像。" * 6 + "\n\n```\n" + RSA_2048 + "\n```\n\n"
         + "部署完成后记得在群里说一声。" * 4 + "\n",
         _body(RSA_2048)),
    # ----- passwords -------------------------------------------------------------------------
    Case("db-password-env", "password", "env",
         "DB_HOST=127.0.0.1\nDB_USER=kb\nDB_PASSWORD=Tiger#88\n",
         ("Tiger#88",)),
    Case("mail-password-env", "password", "env",
         "SMTP_HOST=smtp.qq.com\nSMTP_PORT=465\nSMTP_PASS=xkcdqfwpzmtbbaec\n",
         ("xkcdqfwpzmtbbaec",)),
    Case("wifi-prose-zh", "password", "note",
         "宿舍 WiFi 名字 TP-LINK_5G_302，密码是 lxy20030815，别告诉楼下",
         ("lxy20030815",)),
    Case("kouling-zh", "password", "note",
         "机房门禁口令：7391，周末改。",
         ("7391",)),
    Case("card-pin", "password", "note",
         "招行借记卡 PIN 1234 (change it!)",
         ("1234",)),
    Case("my-password-is", "password", "note",
         "note to self: my password is sunflower77 for the library portal",
         ("sunflower77",)),
    Case("password-short-json", "password", "json",
         '{"wifi": {"ssid": "lab-guest", "password": "a1b2"}}\n',
         ("a1b2",)),
    Case("password-yaml", "password", "yaml",
         "spring:\n  datasource:\n    url: jdbc:mysql://db:3306/kb\n    username: kb_user\n    password: Kb_2024_pass\n",
         ("Kb_2024_pass",)),
    Case("password-py-const", "password", "py",
         'ADMIN_USER = "admin"\nADMIN_PASSWORD = "s3cure!Pa55"\n\n\ndef login(client):\n    client.post("/login", data={"u": ADMIN_USER, "p": ADMIN_PASSWORD})\n',
         ("s3cure!Pa55",)),
    Case("zh-password-colon-fullwidth", "password", "note",
         "教务系统 学号 2021301234 密码：Zz199812",
         ("Zz199812",)),
    Case("zh-password-wei", "password", "note",
         "路由器管理页 192.168.1.1，账号 admin，初始密码为 8hx2kq9w",
         ("8hx2kq9w",)),
    Case("password-md-table", "password", "md",
         "| 服务 | 账号 | 密码 |\n|---|---|---|\n| 邮箱 | lilei | Mail#2023 |\n",
         ("Mail#2023",)),
    Case("mysql-cli-flag", "password", "md",
         "导出数据：\n\n```\nmysqldump -u root -pR00t_pw kb > kb.sql\n```\n",
         ("R00t_pw",)),
    Case("passphrase-en", "password", "note",
         "Backup drive passphrase: correct horse battery staple",
         ("correct horse battery staple",)),
    Case("app-password-zh-shi", "password", "note",
         "QQ 邮箱的授权码是 qwmzxpvbnrtkslda，用于客户端登录",
         ("qwmzxpvbnrtkslda",)),
    Case("secret-key-unknown-prefix", "password", "env",
         "JWT_SECRET=d9f8a7b6c5e4\nSESSION_TTL=3600\n",
         ("d9f8a7b6c5e4",)),
    # ----- resident ID numbers ---------------------------------------------------------------
    Case("id-plain", "resident_id", "note",
         "报名信息：姓名 王芳，身份证号 110108199003074316，准考证已打印",
         ("110108199003074316",)),
    Case("id-x-check", "resident_id", "note",
         "Passport renewal form: Chinese ID 31011519870622118X",
         ("31011519870622118X",)),
    Case("id-spaced", "resident_id", "note",
         "身份证：440305 19951118 5045",
         ("440305 19951118 5045",)),
    Case("id-fullwidth", "resident_id", "note",
         "证件号码：５１０１０７１９７８１２０９７６６４",
         ("５１０１０７１９７８１２０９７６６４",)),
    Case("id-json", "resident_id", "json",
         '{"name": "赵敏", "id_card": "33010220010430107X", "class": "2019级"}\n',
         ("33010220010430107X",)),
    Case("id-spaced-4", "resident_id", "note",
         "ID 4201 1119 6908 1517 4X on file",
         ("4201 1119 6908 1517 4X",)),
    Case("id-lowercase-x", "resident_id", "yaml",
         "student:\n  name: 陈晨\n  id_number: 37020219930228102x\n",
         ("37020219930228102x",)),
    # ----- mobile numbers --------------------------------------------------------------------
    Case("mobile-plus86-spaced", "mobile", "note",
         "Landlord: Mr. Liu, +86 138 0013 8000, prefers WeChat",
         ("138 0013 8000",)),
    Case("mobile-0086", "mobile", "note",
         "紧急联系人 妈妈 0086-13912345678",
         ("13912345678",)),
    Case("mobile-dashes", "mobile", "note",
         "导师电话 186-0211-3344，下午两点后打",
         ("186-0211-3344",)),
    Case("mobile-fullwidth", "mobile", "note",
         "快递员手机：１３７１２３４５６７８",
         ("１３７１２３４５６７８",)),
    Case("mobile-json", "mobile", "json",
         '{"contact": {"name": "Zhang Wei", "phone": "15821987654"}}\n',
         ("15821987654",)),
    Case("mobile-env", "mobile", "env",
         "ALERT_SMS_TO=17710026655\nALERT_LEVEL=warn\n",
         ("17710026655",)),
    Case("mobile-4-4-3", "mobile", "note",
         "call me on 1391 2345 678 after class",
         ("1391 2345 678",)),
    Case("mobile-plus86-nospace", "mobile", "note",
         "微信同号+8619912345678",
         ("19912345678",)),
    # ----- bank cards ------------------------------------------------------------------------
    Case("card-4444", "bank_card", "note",
         "学费从这张卡扣：6222 0210 0112 2334 458（工行）",
         ("6222 0210 0112 2334 458",)),
    Case("card-dashed", "bank_card", "note",
         "Visa for the conference fee 4111-1122-2233-3347, exp 09/27",
         ("4111-1122-2233-3347",)),
    Case("card-465-amex", "bank_card", "note",
         "Amex 3782 822463 10005 (corporate)",
         ("3782 822463 10005",)),
    Case("card-fullwidth", "bank_card", "note",
         "收款卡号：６２１７０００１２３４５６７８９０１９",
         ("６２１７０００１２３４５６７８９０１９",)),
    Case("card-contiguous-context", "bank_card", "note",
         "建设银行储蓄卡 6236680123456789016 开户行 北京海淀支行",
         ("6236680123456789016",)),
    Case("card-yaml", "bank_card", "yaml",
         "payment:\n  holder: LI LEI\n  card_number: '5400123456789010'\n  bank: CMB\n",
         ("5400123456789010",)),
    Case("card-mastercard-spaces", "bank_card", "note",
         "Mastercard 5400 1234 5678 9010 — use for the AWS bill",
         ("5400 1234 5678 9010",)),
    # ----- e-mail ----------------------------------------------------------------------------
    Case("email-fullwidth-at", "email", "note",
         "导师邮箱：wangjian＠pku.edu.cn，周五前发初稿",
         ("wangjian＠pku.edu.cn",)),
    Case("email-fullwidth-letters", "email", "note",
         "联系：ｌｉｕｙａｎｇ＠ｑｑ．ｃｏｍ",
         ("ｌｉｕｙａｎｇ＠ｑｑ．ｃｏｍ",)),
    Case("email-plain-en", "email", "note",
         "Send the draft to m.chen@lab-alpha.org before Friday.",
         ("m.chen@lab-alpha.org",)),
    Case("email-json", "email", "json",
         '{"author": "Zhang San", "email": "zhangsan1998@163.com"}\n',
         ("zhangsan1998@163.com",)),
    Case("email-py", "email", "py",
         'ADMINS = [("Li", "li.na@cs.tsinghua.edu.cn")]\n',
         ("li.na@cs.tsinghua.edu.cn",)),
    Case("email-example-domain", "email", "note",
         "新同学的邮箱 zhao.lei@example.com 先用这个登记",
         ("zhao.lei@example.com",)),
]
