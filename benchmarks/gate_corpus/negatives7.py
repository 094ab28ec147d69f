"""Hard negatives written in session 10 with the structural rules (detectors/labelled.py, joins.py):
study text that holds labels, tables, comments, split lines and encoded runs but no secret.

Hashes and commit ids, UUIDs in documentation, the documented example keys, base64 images,
long identifiers, ISBNs, order and waybill numbers in a textbook, a password *policy* under
a password label, a table of phone *formats*, code that names credentials without holding
one, a column of one-word lines. Any finding in one of these is a false positive.
"""

from __future__ import annotations

NEGATIVES: list[str] = [
    # hashes, commit ids, UUIDs under their own names
    "| 提交 | 说明 |\n|---|---|\n| 9fceb02d0ae598e95dc970b74767f19372d61af8 | 修复登录页 |\n"
    "| 4b825dc642cb6eb9a060e54bf8d69288fbee4904 | 空树 |\n",
    "commit,author,message\n9fceb02d0ae598e95dc970b74767f19372d61af8,lilei,fix login\n",
    "<dependency>\n  <sha256>e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855</sha256>\n</dependency>\n",
    "# 请求 ID\nrequest_id = \"3f2504e0-4f89-41d3-9a0c-0305e82c3301\"\n",
    "2024-05-12 10:31:02 INFO auth ok user=lilei trace_id=4bf92f3577b34da6a3ce929d0e0e4736 span=00f067aa0ba902b7\n",
    '{"level":"info","msg":"token refreshed","request_id":"c0a8012e-5f1b-4a9e-8d3c-2b1e7f6a9d40"}\n',
    "校验和如下：\n\nsha256sum: 2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824\n",
    # the documented example keys
    "AWS 文档里的示例：\nAWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n",
    "<!-- API key -->\n<add key=\"apiKey\" value=\"your-api-key-here\"/>\n",
    "| 字段 | 值 |\n|---|---|\n| API key | `<YOUR_API_KEY>` |\n| 密码 | `********` |\n",
    "password写在下面（示例，不是真的）：\n\n`<password>`\n",
    # base64 images, data URIs, encoded text that is not secret
    "图标：data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==\n",
    "apiVersion: v1\nkind: Secret\ndata:\n  # 密码（模板，部署时替换）\n  password: JHtEQl9QQVNTV09SRH0=\n",
    "base64 练习：SGVsbG8sIFdvcmxkIQ== 解码后是 Hello, World!\n",
    # long identifiers, names that mention credentials
    "# 密码策略\nPASSWORD_MIN_LENGTH=12\nPASSWORD_REQUIRE_SYMBOL=true\n",
    "// トークン\nconst tokenRefreshIntervalMs = 3600000;\n",
    "class AbstractSingletonProxyFactoryBeanTokenResolver extends DefaultSessionManager {}\n",
    "# パスワード\ndef hash_password(raw: str) -> str:\n    return argon2.hash(raw)\n",
    "connect(host=\"db\", user=\"app\", password=os.environ[\"DB_PASSWORD\"])\n",
    "props.setProperty(\"db.password\", System.getenv(\"DB_PASSWORD\"));\n",
    "std::env::set_var(\"API_TOKEN\", token_from_vault(&client)?);\n",
    # ISBNs, order numbers, waybills, statistics in a textbook
    "| 书名 | ISBN | 订单号 |\n|---|---|---|\n| 深入理解计算机系统 | 978-7-111-54493-7 | 2023090671120836 |\n",
    "订单号：202405120931178842，下单时间 2024-05-12 09:31，收货后请确认。\n",
    "快递单号 SF1402938475612，已签收。银行流水号 20240512000123456789。\n",
    "例：某班 42 名学生的学号从 2021302410001 到 2021302410042。\n",
    "账户余额 6222 0212 3456 元？不，这是四个数字组成的练习题：6222、0212、3456、7890。\n",
    "第 3 章习题：手机号格式是 1 开头的 11 位数字，例如 1XX-XXXX-XXXX。\n",
    "| 运营商 | 号段 |\n|---|---|\n| 移动 | 134-139, 150-152 |\n| 联通 | 130-132 |\n",
    "身份证号的校验位：前 17 位乘以权重 7 9 10 5 8 4 2 1 6 3 7 9 10 5 8 4 2 后求和模 11。\n",
    # a password policy and prose about credentials
    "密码要求：至少 12 位，包含大小写字母、数字和符号。\n",
    "The password below must be changed on first login:\n\nsee the printed sheet\n",
    "The token is stored in the keychain and refreshed every hour.\n",
    "パスワードは下記のルールに従ってください。\n\n8 文字以上\n",
    # code split over lines that is not a value
    "msg = (\n    \"Please enter your password \"\n    \"and press Enter to continue.\"\n)\n",
    "const hint = 'Your API key is shown ' +\n  'once; copy it now.';\n",
    "keywords:\n  rgba8unorm\n  rgba8snorm\n  rgba16float\n  rg32float\n  bgra8unorm\n",
    "Fruit:\nApple\nBanana\nCherry\n",
    # masks people use to show a value safely
    "Key shown in the console: sk-proj-...wxyz (the middle is hidden).\n",
    "卡号：6222 **** **** 1234（已脱敏）\n",
    "手机：138****8000\n",
    "身份证：110101********1234\n",
]
