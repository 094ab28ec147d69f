"""A fifth held-out batch: shapes common in Chinese developers' notes that no batch before tried.

Payment SDK keys pasted without PEM markers, mail-client authorisation codes
(16 lowercase letters), gift-card codes, ``.netrc`` with a UUID password,
weak passwords under secret-named variables, OAuth tokens in query strings,
IDs grouped in fours, full-width hyphens. Written after ``heldout4`` passed and
measured before any change it prompted. First run: 17/24 found (70.8 %; the
pre-issue detectors: 4/24); its study text ``negatives3``: 0/25 flagged (the
pre-issue detectors: 1). Misses: a QQ-mail 授权码 followed by a remark in
full-width parentheses, a gift-card 卡密, ``JWT_SECRET=mysupersecret``, a
Django ``SECRET_KEY`` with punctuation, a password described before it is
written (密码设成了…生日 lw19900101), an account number that fails Luhn under
收款账户, ``zhangsan艾特qq点com``. All fixed after that measurement; a
regression set since.
"""

from __future__ import annotations

from benchmarks.gate_corpus import Case

ALIPAY_KEY = ("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKeKN9Jnolp0tonDzpHNLaeLsd7dROXYc/Hv4Z0urODK28noVtgM3hGaP20VZw3X1wM"
              "//W7Jz5bRXdQWW1h/u0dt1u+84hSWDp0aUmbG8x/oo15xuNpkSWeCxe/oA6g77Sz7LjkjBC8Hte7rLRWVpm2X2Ue1bYhMXZw=")

CASES: list[Case] = [
    Case("h5-alipay-raw-key-py", "private_key", "py",
         f'ALIPAY_APP_ID = "2021003145612345"\nAPP_PRIVATE_KEY = "{ALIPAY_KEY}"\n',
         (ALIPAY_KEY,)),
    Case("h5-alipay-raw-key-yaml", "private_key", "yaml",
         f"alipay:\n  app-id: 2021003145612345\n  merchant-private-key: {ALIPAY_KEY}\n",
         (ALIPAY_KEY,)),
    Case("h5-alipay-raw-key-zh", "private_key", "note",
         f"支付宝开放平台 应用私钥（PKCS8）：\n{ALIPAY_KEY}\n公钥已上传到开放平台。",
         (ALIPAY_KEY,)),
    Case("h5-qqmail-auth-code", "password", "note",
         "QQ 邮箱 SMTP 授权码：mqoepqyetrfayobn（不是登录密码）",
         ("mqoepqyetrfayobn",)),
    Case("h5-smtp-py", "password", "py",
         'server = smtplib.SMTP_SSL("smtp.163.com", 465)\nserver.login("kb_notice@163.com", "mqoepqyetrfayobn")\n',
         ("mqoepqyetrfayobn",)),
    Case("h5-wxpay-mch-key", "api_key", "yaml",
         "wxpay:\n  mch-id: 1601234567\n  mch-key: 588125e9f516a1f437e0ea38cc8d0c5d\n",
         ("588125e9f516a1f437e0ea38cc8d0c5d",)),
    Case("h5-gift-card-code", "api_key", "note",
         "京东E卡 卡密 VPD5-VF1H-IRGL-4UKW 面值 200 元，还没用",
         ("VPD5-VF1H-IRGL-4UKW",)),
    Case("h5-netrc-uuid", "password", "txt",
         "machine api.heroku.com\n  login dev@kb.example.cn\n  password 91fff1cc-d949-c1cf-5d62-f3add3eb5443\n",
         ("91fff1cc-d949-c1cf-5d62-f3add3eb5443",)),
    Case("h5-env-weak-jwt-secret", "password", "env",
         "PORT=8080\nJWT_SECRET=mysupersecret\nREDIS_PASSWORD=\n",
         ("mysupersecret",)),
    Case("h5-django-insecure", "api_key", "py",
         "SECRET_KEY = 'django-insecure-awq5t55t80y^^5k7fv*h9l-7j4p=qpx&=3sa4r(@$ipde+-b9&'\n",
         ("django-insecure-awq5t55t80y^^5k7fv*h9l-7j4p=qpx&=3sa4r(@$ipde+-b9&",)),
    Case("h5-oauth-query", "api_key", "note",
         "接口调试：GET https://www.googleapis.com/drive/v3/files?access_token="
         "ya29.a0uehdB-XxtVoXCJzQOQZR7dtLxeTZPGMnjyegYJxASl9FgnzUJYsskYd9rqi2&pageSize=10",
         ("ya29.a0uehdB-XxtVoXCJzQOQZR7dtLxeTZPGMnjyegYJxASl9FgnzUJYsskYd9rqi2",)),
    Case("h5-prose-birthday-password", "password", "note",
         "我把路由器管理密码设成了名字缩写加生日 lw19900101，下次别忘。",
         ("lw19900101",)),
    Case("h5-pin-code-zh", "password", "note",
         "门禁卡 PIN码 0427，丢了要去物业补办",
         ("0427",)),
    Case("h5-vpn-table", "password", "md",
         "| 系统 | 账号 | 密码 |\n|------|------|------|\n| VPN | lilei | Vpn#2024lab |\n| 邮箱 | lilei@lab.cn | Mail@77 |\n",
         ("Vpn#2024lab", "Mail@77")),
    Case("h5-id-grouped-fours", "resident_id", "note",
         "体检预约用的身份证号 3101 1519 9304 1705 21",
         ("3101 1519 9304 1705 21",)),
    Case("h5-id-fullwidth-hyphen", "resident_id", "note",
         "乘车人：周敏 证件：６１０１０３－１９８５０８１２－３４１０",
         ("６１０１０３－１９８５０８１２－３４１０",)),
    Case("h5-mobile-fullwidth-hyphen", "mobile", "note",
         "房东电话：１５９－１２３４－５６７８（微信同号）",
         ("１５９－１２３４－５６７８",)),
    Case("h5-mobile-yaml", "mobile", "yaml",
         "contacts:\n  - name: 王老师\n    phone: '13912345678'\n",
         ("13912345678",)),
    Case("h5-card-under-account", "bank_card", "note",
         "收款账户：招商银行 6214 8312 3456 7893，户名 李雷",
         ("6214 8312 3456 7893",)),
    Case("h5-email-spaced-at", "email", "note",
         "简历请发到 hr_kb @ 163.com，标题写岗位名",
         ("hr_kb @ 163.com",)),
    Case("h5-email-chinese-at", "email", "note",
         "联系方式：zhangsan艾特qq点com",
         ("zhangsan艾特qq点com",)),
    Case("h5-conn-ftp-ip", "connection_string", "note",
         "旧资料在 ftp://backup:Bk2019!x@192.168.1.20/archive 里",
         ("Bk2019!x",)),
    Case("h5-git-credentials-store", "connection_string", "txt",
         "https://lilei:ghp_GIuFjcjK550JM041OQZMjkpqWvhA1FvhGCA7@github.com\n",
         ("ghp_GIuFjcjK550JM041OQZMjkpqWvhA1FvhGCA7",)),
    Case("h5-bearer-json-log", "auth_header", "json",
         '{"method": "POST", "headers": {"authorization": "Bearer 48eaa64c3dd77f577444c1e10727ade51a194029"}}\n',
         ("48eaa64c3dd77f577444c1e10727ade51a194029",)),
]
