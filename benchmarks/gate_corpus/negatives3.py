"""Held-out study text written with ``heldout5``: OAuth and payment tutorials, public addresses and
fingerprints, empty and templated settings, company codes, student numbers, coordinates."""

from __future__ import annotations

NEGATIVES: list[str] = [
    "OAuth 2.0 授权码模式：客户端先获取授权码，再用授权码换取 access token。",
    "验证码有效期 5 分钟，60 秒内只能发送一次。",
    "Argon2 的参数：memory=65536, iterations=3, parallelism=4",
    '{"username": "", "password": ""}',
    "REDIS_PASSWORD=\nREDIS_HOST=localhost",
    "token: ${{ secrets.GITHUB_TOKEN }}",
    'private_key_path = "~/.ssh/id_rsa"',
    "公钥指纹 SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8 确认后输入 yes",
    "比特币创世区块的地址是 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa。",
    "以太坊地址 0x742d35Cc6634C0532925a3b844Bc454e4438f44e 是一个公开的合约地址。",
    "字符串 aGVsbG8gd29ybGQ= 是 hello world 的 Base64 编码。",
    "UUID v4 示例：f47ac10b-58cc-4372-a567-0e02b2c3d479",
    'let api_key = env::var("API_KEY").expect("API_KEY not set");',
    "Redis 默认端口 6379，默认没有密码，生产环境要设置 requirepass。",
    "ISBN 9787111547426，人民邮电出版社。",
    "统一社会信用代码 91350100M000100Y43 由 18 位组成。",
    "学号 2021301234567，班级 计科 2101。",
    "银行客服电话 95588，信用卡中心 400-820-0588。",
    "天安门的经纬度约为 39.9087, 116.3975。",
    "支付宝开放平台的应用私钥要保存在服务器端，不要放进前端代码或笔记。",
    "QQ 邮箱开启 SMTP 后会给一个授权码，用它代替登录密码。",
    "门禁卡丢了要去物业补办，PIN 码需要重新设置。",
    "卡密是充值卡的密码，购买后在官网兑换。",
    "SMTP 端口 465（SSL）或 587（STARTTLS），服务器 smtp.163.com。",
    "公式：score = 0.5 * bm25 + 0.5 * cosine，阈值 0.35。",
]
