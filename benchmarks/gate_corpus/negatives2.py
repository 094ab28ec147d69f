"""Held-out study text that must pass untouched, written with ``heldout4`` by someone who had
not read the detectors: public keys and certificates, placeholders and templates, lock-file
hashes, data URIs, digits of pi, tutorials about tokens, passwords and phone-number formats.

Measured before any change it prompted (first run in ``heldout4``'s docstring).
"""

from __future__ import annotations

NEGATIVES: list[str] = [
    # public key material is not secret
    "生成密钥对：openssl genrsa -out private.pem 2048，然后 openssl rsa -in private.pem -pubout -out public.pem",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE7uGnSPT0/21GeOOrqYC0puCItYJECmtIk0WBaCD1GW deploy@ci",
    "-----BEGIN CERTIFICATE-----\n"
    "28xXB7yAjXii7FCLGedsbgBoEd/SdFbI+2SydNA9vJxQVbSwakKRRGMaDEKckkp7\n"
    "y4qAsaDtC2qgIF44da4IcpDCQB10h134yrxa9q2/Kp85KrDvnHztkVgXpIi6MVV7\n"
    "-----END CERTIFICATE-----",
    "-----BEGIN PUBLIC KEY-----\n"
    "W9dGIVCBCO4aMbXeCwI0ZaqPxodL8kX7LrTB6SYYId73HSY+WflGhD0zRgOq4ggF\n"
    "-----END PUBLIC KEY-----",
    # placeholders, templates and environment lookups
    "设置环境变量：export OPENAI_API_KEY=你的密钥，然后重新打开终端。",
    "API_KEY=<your-api-key-here>\nBASE_URL=https://api.deepseek.com",
    "db:\n  password: ${DB_PASSWORD}\n  user: ${DB_USER:-kb}",
    "password: {{ .Values.postgres.password | b64enc }}",
    "SECRET_KEY = os.environ[\"SECRET_KEY\"]\nDEBUG = False",
    "api_key: Optional[str] = None\ntimeout: float = 30.0",
    "access_token = resp.json()[\"access_token\"]\nrefresh_token = resp.json()[\"refresh_token\"]",
    "self.secret = secrets.token_hex(16)  # 每次启动随机生成",
    "curl -H \"Authorization: Bearer $TOKEN\" https://api.example.com/v1/models",
    "Authorization: Bearer YOUR_API_KEY",
    "OpenAI 的密钥以 sk- 开头，形如 sk-...，不要提交到仓库。",
    # lock files and integrity hashes
    '"integrity": "sha512-d7GWc248eFdqTWHekzcoTY4Z2ds3DPNEqgaG1QkVe9aEwGq1f+z/y4dYMgYCnqjdBWhuT2pYWUKnh3x9zP3CTA=="',
    '[[package]]\nname = "rand"\nversion = "0.8.5"\nchecksum = "34af8d1a0e25924bc5b7c43c95c5a25d01b1b8cc3c76a7a56e0d3cdc7c27b7f2"',
    "![图](data:image/png;base64,ZEdbsrEA+fnOzQvrl0HLXCjBrBysn4yU7zz8YirYEwWtzbyH6oNkMXhwOgCBvJYqKh00BntPlT/+/xmU)",
    "etag: \"33a64df551425fcc55e4d42a148795d9f25f89d4\"\ncache-control: max-age=3600",
    "Docker 镜像 digest：sha256:45b23dee08af5e43a7fea6c4cf9c25ccf269ee113168c19722f87876677c5cb2",
    # tutorials about tokens, passwords and keys
    "令牌桶算法：系统以固定速率向桶中放入令牌，每个请求需要拿到一个令牌才能通过。",
    "JWT 由三部分组成：header.payload.signature，均使用 Base64URL 编码。",
    "Diffie-Hellman 密钥交换：双方各自选私钥 a、b，交换 g^a mod p 与 g^b mod p。",
    "常见弱口令有 123456、password、qwerty，系统应拒绝这些密码。",
    "passwd 命令用于修改用户密码，例如 passwd alice。",
    "密码错误次数超过 5 次，账户将锁定 30 分钟。初始密码为身份证后六位。",
    "The token is valid for 3600 seconds; request a new one with the refresh token.",
    "In RSA, the private key is (d, n) and the public key is (e, n), with e = 65537.",
    "WPA2 的预共享密钥长度为 8 到 63 个字符。",
    # numbers that are not phones, IDs or cards
    "π 的前 30 位：3.14159 26535 89793 23846 26433 83279",
    "e = 2.71828 18284 59045 23536 02874 71352",
    "手机号正则：^1[3-9]\\d{9}$，固定电话：^0\\d{2,3}-\\d{7,8}$",
    "信用卡号码一般为 16 位，前 6 位是发卡行识别码（BIN），最后一位是 Luhn 校验位。",
    "身份证号码共 18 位：6 位地址码、8 位出生日期码、3 位顺序码和 1 位校验码。",
    "时间戳 1700000000000 毫秒对应 2023-11-14 22:13:20 UTC。",
    "阿伏伽德罗常数 6.02214076×10^23 mol⁻¹，光速 299792458 m/s。",
    "2023 年全年国内生产总值 1260582 亿元，比上年增长 5.2%。",
    "邮政编码 100871，区号 010，北京大学。",
    "IPv6 地址 2001:0db8:85a3:0000:0000:8a2e:0370:7334 是文档保留地址。",
    "MAC 地址 00:1A:2B:3C:4D:5E，共 48 位。",
    "CAS 号 7732-18-5 是水，CAS 64-17-5 是乙醇。",
    # code that only names secrets
    "let key = \"hello\";\nlet mut map = HashMap::new();\nmap.insert(key, 1);",
    "for (key, value) in &scores {\n    println!(\"{key}: {value}\");\n}",
    "if token.kind == TokenKind::Ident && token.text == \"password\" { continue; }",
    "hashed = bcrypt.hashpw(password.encode(), bcrypt.gensalt())",
]
