"""Writes heldout15.py: the session-17 adversarial batch (run once; seed 1515).

    .venv/bin/python benchmarks/gate_corpus/gen15.py > benchmarks/gate_corpus/heldout15.py

Values are random in each service's shape; ID numbers are built to pass their national checks;
private keys are real but made from the seed's bytes and thrown away (the OpenSSH key's check
integers come from the library and differ per run). Kept so the checksums can be
read and the batch rebuilt; the cases themselves are in heldout15.py.
"""

from __future__ import annotations

import base64
import json
import random
import string
import urllib.parse

R = random.Random(1515)
HEX = "0123456789abcdef"
B62 = string.ascii_letters + string.digits
B64U = B62 + "-_"
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
LOWN = string.ascii_lowercase + string.digits


def tok(n: int, alphabet: str = B62) -> str:
    return "".join(R.choice(alphabet) for _ in range(n))


def uuid4() -> str:
    h = tok(32, HEX)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{R.choice('89ab')}{h[17:20]}-{h[20:]}"


def digits(n: int) -> str:
    return "".join(R.choice("0123456789") for _ in range(n))


def luhn_complete(body: str) -> str:
    total = 0
    for i, c in enumerate(reversed(body)):
        d = int(c)
        if i % 2 == 0:
            d *= 2
            d -= 9 if d > 9 else 0
        total += d
    return body + str((10 - total % 10) % 10)


# ---- national ID numbers ---------------------------------------------------------------------------

def cn_id(area: str, birth: str) -> str:
    body = area + birth + digits(3)
    w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    return body + "10X98765432"[sum(int(c) * x for c, x in zip(body, w, strict=False)) % 11]


def hkid() -> str:
    letter = R.choice("ACDEGHKMPRVZ")
    ds = digits(6)
    s = 36 * 9 + (ord(letter) - 55) * 8 + sum(int(c) * w for c, w in zip(ds, range(7, 1, -1), strict=False))
    check = (11 - s % 11) % 11
    return f"{letter}{ds}({'A' if check == 10 else check})"


TW = dict(A=10, B=11, C=12, D=13, E=14, F=15, G=16, H=17, I=34, J=18, K=19, L=20, M=21, N=22, O=35, P=23,
          Q=24, R=25, S=26, T=27, U=28, V=29, W=32, X=30, Y=31, Z=33)


def tw_id() -> str:
    letter = R.choice("ABEFH")
    body = R.choice("12") + digits(7)
    n = TW[letter]
    s = n // 10 + (n % 10) * 9 + sum(int(c) * w for c, w in zip(body, range(8, 0, -1), strict=False))
    return letter + body + str((10 - s % 10) % 10)


def sg_nric() -> str:
    prefix = R.choice("ST")
    ds = digits(7)
    s = sum(int(c) * w for c, w in zip(ds, [2, 7, 6, 5, 4, 3, 2], strict=False)) + (4 if prefix == "T" else 0)
    return prefix + ds + "JZIHGFEDCBA"[s % 11]


def kr_rrn(birth: str, sex: str) -> str:
    body = birth + sex + digits(5)
    s = sum(int(c) * w for c, w in zip(body, [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5], strict=False))
    return f"{birth}-{body[6:]}{(11 - s % 11) % 10}"


def jp_my_number() -> str:
    body = digits(11)
    p = [int(c) for c in reversed(body)]
    s = sum(pn * (n + 1 if n <= 6 else n - 5) for n, pn in enumerate(p, start=1))
    r = s % 11
    return body + str(0 if r <= 1 else 11 - r)


_VD = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
       [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
       [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
       [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]]
_VP = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4]]
for _i in range(2, 8):
    _VP.append([_VP[_i - 1][_VP[1][j]] for j in range(10)])
_VINV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]


def aadhaar() -> str:
    body = R.choice("23456789") + digits(10)
    c = 0
    for i, ch in enumerate(reversed(body)):
        c = _VD[c][_VP[(i + 1) % 8][int(ch)]]
    return body + str(_VINV[c])


def fi_hetu(ddmmyy: str, sep: str = "-") -> str:
    n = R.choice("0123") + digits(2)
    n = "0" + n[1:] if n[0] == "0" and n == "000" else n
    n = "2" + n[1:] if int(n) < 2 else n
    return f"{ddmmyy}{sep}{n}" + "0123456789ABCDEFHJKLMNPRSTUVWXY"[int(ddmmyy + n) % 31]


def no_fnr(ddmmyy: str) -> str:
    while True:
        ind = digits(3)
        d = [int(c) for c in ddmmyy + ind]
        k1 = 11 - sum(a * b for a, b in zip(d, [3, 7, 6, 1, 8, 9, 4, 5, 2], strict=False)) % 11
        k1 = 0 if k1 == 11 else k1
        if k1 == 10:
            continue
        k2 = 11 - sum(a * b for a, b in zip(d + [k1], [5, 4, 3, 2, 7, 6, 5, 4, 3, 2], strict=False)) % 11
        k2 = 0 if k2 == 11 else k2
        if k2 != 10:
            return ddmmyy + ind + str(k1) + str(k2)


def be_nn(yymmdd: str) -> str:
    serial = digits(3)
    check = 97 - int(yymmdd + serial) % 97
    return f"{yymmdd[:2]}.{yymmdd[2:4]}.{yymmdd[4:]}-{serial}.{check:02d}"


def tr_tckn() -> str:
    d = [R.randint(1, 9)] + [R.randint(0, 9) for _ in range(8)]
    d10 = ((d[0] + d[2] + d[4] + d[6] + d[8]) * 7 - (d[1] + d[3] + d[5] + d[7])) % 10
    d11 = (sum(d) + d10) % 10
    return "".join(map(str, d + [d10, d11]))


def il_id() -> str:
    return luhn_complete(digits(8))


def za_id(yymmdd: str) -> str:
    return luhn_complete(yymmdd + digits(4) + "08")


_CF_ODD = {**dict(zip("0123456789", [1, 0, 5, 7, 9, 13, 15, 17, 19, 21], strict=False)),
           **dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6,
                                                     8, 12, 14, 16, 10, 22, 25, 24, 23], strict=False))}


def it_cf(first15: str) -> str:
    s = 0
    for i, c in enumerate(first15, start=1):
        if i % 2:
            s += _CF_ODD[c]
        else:
            s += int(c) if c.isdigit() else ord(c) - 65
    return first15 + chr(65 + s % 26)


def fr_nir(sex: str, yy: str, mm: str, dep: str) -> str:
    body = sex + yy + mm + dep + digits(3) + digits(3)
    key = 97 - int(body) % 97
    return f"{body[0]} {body[1:3]} {body[3:5]} {body[5:7]} {body[7:10]} {body[10:13]} {key:02d}"


def cl_rut() -> str:
    n = str(R.randint(10_000_000, 25_000_000))
    s = sum(int(c) * w for c, w in zip(reversed(n), [2, 3, 4, 5, 6, 7] * 2, strict=False))
    v = 11 - s % 11
    dv = "0" if v == 11 else "K" if v == 10 else str(v)
    return f"{n[:-6]}.{n[-6:-3]}.{n[-3:]}-{dv}"


def mx_curp(first17: str) -> str:
    alphabet = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"
    s = sum(alphabet.index(c) * (18 - i) for i, c in enumerate(first17))
    return first17 + str((10 - s % 10) % 10)


def ro_cnp(s_yymmdd_jj: str) -> str:
    body = s_yymmdd_jj + digits(3)
    c = sum(int(a) * int(b) for a, b in zip(body, "279146358279", strict=False)) % 11
    return body + ("1" if c == 10 else str(c))


def se_pnr(yymmdd: str) -> str:
    full = luhn_complete(yymmdd + digits(3))
    return f"{full[:6]}-{full[6:]}"


def nl_bsn() -> str:
    while True:
        d = [R.randint(1, 9)] + [R.randint(0, 9) for _ in range(7)]
        s = sum(a * w for a, w in zip(d, range(9, 1, -1), strict=False))
        last = s % 11
        if last < 10:
            return "".join(map(str, d)) + str(last)


def th_id() -> str:
    d = [R.randint(1, 8)] + [R.randint(0, 9) for _ in range(11)]
    s = sum(a * (13 - i) for i, a in enumerate(d))
    c = (11 - s % 11) % 10
    t = "".join(map(str, d)) + str(c)
    return f"{t[0]}-{t[1:5]}-{t[5:10]}-{t[10:12]}-{t[12]}"


def pesel(yymmdd: str) -> str:
    body = yymmdd + digits(4)
    s = sum(int(c) * w for c, w in zip(body, [1, 3, 7, 9, 1, 3, 7, 9, 1, 3], strict=False))
    return body + str((10 - s % 10) % 10)


def ca_sin() -> str:
    v = luhn_complete(R.choice("1234567") + digits(7))
    return f"{v[:3]} {v[3:6]} {v[6:]}"


def dk_cpr(ddmmyy: str) -> str:
    return f"{ddmmyy}-{digits(4)}"


def iban(country: str, bban: str) -> str:
    moved = bban + country + "00"
    num = "".join(str(int(c, 36)) for c in moved)
    check = 98 - int(num) % 97
    return f"{country}{check:02d}{bban}"


def card(prefix: str, length: int = 16) -> str:
    return luhn_complete(prefix + digits(length - len(prefix) - 1))


def grouped(s: str, sizes: list[int], sep: str = " ") -> str:
    out, i = [], 0
    for n in sizes:
        out.append(s[i:i + n])
        i += n
    return sep.join(out)


# ---- keys --------------------------------------------------------------------------------------------

def _keys():
    from cryptography.hazmat.primitives import serialization as ser
    from cryptography.hazmat.primitives.asymmetric import ec, ed25519

    ec_key = ec.derive_private_key(int.from_bytes(R.randbytes(32), "big") % (2**255), ec.SECP256R1())
    ed_key = ed25519.Ed25519PrivateKey.from_private_bytes(R.randbytes(32))
    ec_pem = ec_key.private_bytes(ser.Encoding.PEM, ser.PrivateFormat.PKCS8, ser.NoEncryption()).decode()
    ed_pem = ed_key.private_bytes(ser.Encoding.PEM, ser.PrivateFormat.OpenSSH, ser.NoEncryption()).decode()
    ec_der = ec_key.private_bytes(ser.Encoding.DER, ser.PrivateFormat.PKCS8, ser.NoEncryption())
    nums = ec_key.private_numbers()
    pub = nums.public_numbers
    ed_raw = ed_key.private_bytes(ser.Encoding.Raw, ser.PrivateFormat.Raw, ser.NoEncryption())
    ed_pub = ed_key.public_key().public_bytes(ser.Encoding.Raw, ser.PublicFormat.Raw)
    return ec_pem, ed_pem, ec_der, nums.private_value, pub.x, pub.y, ed_raw, ed_pub


def b64u(b: bytes) -> str:
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode()


def bech32(hrp: str, data: bytes) -> str:
    charset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
    acc, bits, conv = 0, 0, []
    for b in data:
        acc = (acc << 8) | b
        bits += 8
        while bits >= 5:
            bits -= 5
            conv.append((acc >> bits) & 31)
    if bits:
        conv.append((acc << (5 - bits)) & 31)

    def polymod(values: list[int]) -> int:
        gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
        chk = 1
        for v in values:
            top = chk >> 25
            chk = (chk & 0x1FFFFFF) << 5 ^ v
            for i in range(5):
                chk ^= gen[i] if (top >> i) & 1 else 0
        return chk

    expand = [ord(x) >> 5 for x in hrp] + [0] + [ord(x) & 31 for x in hrp]
    pm = polymod(expand + conv + [0] * 6) ^ 1
    return hrp + "1" + "".join(charset[c] for c in conv + [(pm >> 5 * (5 - i)) & 31 for i in range(6)])


CASES: list[tuple[str, str, str, tuple[str, ...], str]] = []  # (category, container, text, secrets, shape)


def case(category: str, container: str, shape: str, text: str, *secrets: str) -> None:
    for s in secrets:
        assert s in text, (shape, s)
    CASES.append((category, container, text, secrets, shape))


def build() -> None:  # noqa: C901,PLR0915 - one long list of cases, in the order written
    # ===== api_key: no well-known prefix, under a label in some syntax or language ======================
    k = tok(32)
    case("api_key", "txt", "Mistral key in an INI section of a homework tool",
         f"[general]\nmodel = mistral-small-latest\ntemperature = 0.3\n\n[mistral]\nkey = {k}\n", k)
    k = tok(40)
    case("api_key", "py", "Cohere key passed positionally to its client",
         f"import cohere\n\n# 重排实验：把 BM25 前 50 条交给 rerank\nco = cohere.ClientV2(\"{k}\")\n"
         "res = co.rerank(model=\"rerank-multilingual-v3.0\", query=q, documents=docs, top_n=5)\n", k)
    k = tok(64, HEX)
    case("api_key", "note", "Together key in a TOML table (pyproject tool section)",
         f'[tool.llm-bench]\nprovider = "together"\nmodel = "Qwen/Qwen2.5-7B-Instruct-Turbo"\ntoken = "{k}"\n', k)
    k = uuid4()
    case("api_key", "json", "Volcengine Ark key (a UUID) in a JSON settings file",
         json.dumps({"provider": "volcengine", "endpoint": "https://ark.cn-beijing.volces.com/api/v3",
                     "ark_api_key": k, "model": "doubao-1-5-pro-32k"}, indent=2), k)
    k = f"{tok(32, HEX)}:{tok(32, B62)}"
    case("api_key", "md", "iFlytek Spark APIPassword (two parts with a colon) in a Markdown list",
         f"## 星火大模型 HTTP 接口\n\n- 控制台 → 服务管理 → Spark Lite\n- APIPassword：`{k}`\n- 地址：https://spark-api-open.xf-yun.com/v1/chat/completions\n", k)
    k = f"{uuid4()}:fx"
    case("api_key", "py", "DeepL free key (uuid:fx) given positionally to deepl.Translator",
         f"import deepl\n\ntranslator = deepl.Translator(\"{k}\")\nprint(translator.translate_text('学而时习之', target_lang='EN-US'))\n", k)
    k = tok(16, string.ascii_uppercase + string.digits)
    case("api_key", "note", "Alpha Vantage key in a query string of a spreadsheet formula",
         f'=IMPORTDATA("https://www.alphavantage.co/query?function=TIME_SERIES_DAILY&symbol=600519.SHH&apikey={k}&datatype=csv")\n'
         "（茅台日线，金融课作业用）", k)
    k = f"{tok(6, string.ascii_uppercase + string.digits)}-{tok(10, string.ascii_uppercase + string.digits)}"
    case("api_key", "note", "Wolfram|Alpha AppID in a short-answer URL",
         f"wolfram 短答案接口（每月 2000 次免费）：\nhttp://api.wolframalpha.com/v1/result?appid={k}&i=integrate+x%5E2+sin+x\n", k)
    k = "-".join(tok(5, string.ascii_uppercase + string.digits) for _ in range(6))
    case("api_key", "md", "Tencent Maps key in a script tag's src query",
         f"## 校园地图页\n\n```html\n<script src=\"https://map.qq.com/api/gljs?v=1.exp&key={k}\"></script>\n"
         "<div id=\"container\" style=\"height:480px\"></div>\n```\n", k)
    k1, k2 = tok(24), tok(32)
    case("api_key", "note", "Baidu AI API Key and Secret Key in a note's table",
         f"百度 OCR 应用（作业批改）\n\n| 项目 | 值 |\n|---|---|\n| AppID | {digits(8)} |\n| API Key | {k1} |\n| Secret Key | {k2} |\n", k1, k2)
    k1, k2 = tok(16, HEX), tok(32)
    case("api_key", "json", "Youdao translate app key and secret under Chinese JSON keys",
         json.dumps({"翻译服务": "有道智云", "应用ID": k1, "应用密钥": k2, "每日上限": 1000}, ensure_ascii=False, indent=2), k2)
    k = tok(16)
    case("api_key", "note", "Caiyun weather token inside a URL path",
         f"彩云天气实况：curl https://api.caiyunapp.com/v2.6/{k}/114.3055,30.5928/realtime\n返回的 skycon 字段是天气现象", k)
    k1, k2 = tok(30, LOWN), tok(30, LOWN)
    case("api_key", "note", "Twitch client id and secret given to twitch-cli by short flags",
         f"$ twitch configure -i {k1} -s {k2}\nClient ID and Secret updated\n$ twitch token\n", k2)
    k = tok(56)
    case("api_key", "py", "Pexels key as a bare Authorization header value",
         f"import requests\n\nr = requests.get('https://api.pexels.com/v1/search', params={{'query': 'library'}},\n"
         f"                 headers={{'Authorization': '{k}'}})\n", k)
    k = tok(43, B64U)
    case("api_key", "note", "Unsplash access key after Client-ID in an Authorization header",
         f"GET https://api.unsplash.com/photos/random?query=study\nAuthorization: Client-ID {k}\nAccept-Version: v1", k)
    k = tok(24)
    case("api_key", "py", "Zotero key as the third positional argument of pyzotero",
         f"from pyzotero import zotero\n\nzot = zotero.Zotero('{digits(7)}', 'user', '{k}')\nitems = zot.top(limit=20)\n", k)
    k = tok(40)
    case("api_key", "note", "Semantic Scholar key in a curl -H with a lower-case header name",
         f"curl -s -H 'x-api-key: {k}' \\\n  'https://api.semanticscholar.org/graph/v1/paper/search?query=dense+retrieval&limit=5'", k)
    k = tok(32, HEX)
    case("api_key", "txt", "Elsevier key under X-ELS-APIKey in an HTTPie line",
         f"http GET 'https://api.elsevier.com/content/search/scopus?query=TITLE(retrieval)' X-ELS-APIKey:{k} Accept:application/json\n", k)
    k = tok(32, HEX)
    case("api_key", "note", "TMDB v3 key in a query string (api_key=)",
         f"电影课作业：https://api.themoviedb.org/3/movie/550?api_key={k}&language=zh-CN", k)
    k1, k2 = tok(32, HEX), tok(32, HEX)
    case("api_key", "py", "Last.fm key and shared secret as keyword arguments",
         f"import pylast\n\nnetwork = pylast.LastFMNetwork(\n    api_key=\"{k1}\",\n    api_secret=\"{k2}\",\n    username=\"lin_listens\",\n)\n", k1, k2)
    k = tok(32, HEX)
    case("api_key", "note", "WeChat mini-program AppSecret with a Chinese gloss",
         f"小程序后台 → 开发管理 → 开发设置\nAppID(小程序ID)：wx{tok(16, HEX)}\nAppSecret(小程序密钥)：{k}\n（重置后旧的立刻失效）", k)
    k = tok(64, B64U)
    case("api_key", "yaml", "DingTalk robot AppSecret in YAML with Chinese comments",
         f"dingtalk:\n  # 企业内部应用\n  app_key: ding{tok(16, LOWN)}\n  app_secret: {k}  # 应用凭证\n  agent_id: {digits(10)}\n", k)
    k = tok(32)
    case("api_key", "txt", "Feishu app secret in a Go struct literal",
         f"cfg := lark.Config{{\n\tAppID:     \"cli_{tok(16, HEX)}\",\n\tAppSecret: \"{k}\",\n\tBaseURL:   lark.FeishuBaseUrl,\n}}\n", k)
    k = tok(56, HEX)
    case("api_key", "py", "Tushare token given to a setter call",
         f"import tushare as ts\n\nts.set_token('{k}')\npro = ts.pro_api()\ndf = pro.daily(ts_code='000001.SZ')\n", k)
    k = tok(40, HEX)
    case("api_key", "note", "Gitee token in a remote URL's user-info (oauth2:)",
         f"git remote set-url origin https://oauth2:{k}@gitee.com/lin/notes.git", k)
    k1, k2 = tok(40, B64U), tok(40, B64U)
    case("api_key", "txt", "Qiniu access and secret key as Java string fields",
         f'public class Upload {{\n    String accessKey = "{k1}";\n    String secretKey = "{k2}";\n    String bucket = "course-media";\n    Auth auth = Auth.create(accessKey, secretKey);\n}}\n', k1, k2)
    k = uuid4()
    case("api_key", "note", "Yandex Maps key under a Russian label",
         f"Ключ API Яндекс.Карт (JavaScript API и HTTP Геокодер): {k}\nОграничение по HTTP Referer: localhost", k)
    k = tok(43)
    case("api_key", "note", "LINE Notify token under a Japanese label",
         f"研究室の通知用\nアクセストークン：{k}\n（発行時にしか表示されないので注意）", k)
    k = base64.b64encode(R.randbytes(72)).decode()
    enc = urllib.parse.quote(k, safe="")
    case("api_key", "note", "Korean public-data service key, percent-encoded in a query string, with its Korean label",
         f"공공데이터포털 인증키(Encoding): {enc}\n호출 예: http://apis.data.go.kr/1360000/VilageFcstInfoService_2.0/getVilageFcst?serviceKey={enc}&numOfRows=10", enc)
    k = tok(32, HEX)
    case("api_key", "note", "a key under a German label",
         f"Wetterdienst für die Hausarbeit\nAPI-Schlüssel: {k}\nLimit: 1000 Abrufe pro Tag", k)
    k = tok(36, LOWN)
    case("api_key", "note", "a key under a French label with a space before the colon",
         f"Projet tutoré – accès à l'API Légifrance\nclé d’API : {k}\nexpire le 31/01", k)
    k = tok(32)
    case("api_key", "note", "a key under a Spanish label",
         f"Para el TFG (datos de AEMET OpenData):\nclave API -> {k}\nno compartir en el repositorio", k)
    k = tok(40)
    case("api_key", "note", "a key under a Portuguese label",
         f"Trabalho de SIG: chave de acesso da API do IBGE/Mapbox = {k}", k)
    k = tok(32, HEX)
    case("api_key", "note", "a key under a Vietnamese label",
         f"Bài tập nhóm – API thời tiết\nkhóa bí mật: {k}\nhạn dùng: 30 ngày", k)
    k = tok(28)
    case("api_key", "note", "a key under a Turkish label",
         f"Bitirme projesi için hava durumu servisi\nAPI anahtarı: {k}", k)
    k = tok(32)
    case("api_key", "note", "a key under a Polish label",
         f"klucz API do OpenAQ: {k} (limit 60/min)", k)
    k = tok(32, HEX)
    case("api_key", "note", "a key under an Arabic label",
         f"مشروع التخرج\nمفتاح API: {k}", k)
    k = tok(32, HEX)
    case("api_key", "note", "a key under the common misspelling 秘钥",
         f"和风天气开发者账号\n秘钥：{k}\n免费版每天 1000 次", k)
    k = tok(16, string.ascii_lowercase)
    case("api_key", "note", "QQ Mail SMTP 授权码 (16 lower-case letters) in a Python mail script note",
         f"用 smtplib 发作业提醒：\nsmtp.qq.com 端口 465\n授权码 {k}（不是 QQ 密码）", k)
    k = tok(32)
    case("api_key", "yaml", "a token under 令牌 in a Chinese YAML key",
         f"通知:\n  渠道: 企业微信\n  访问令牌: {k}\n  重试次数: 3\n", k)
    k = f"{tok(27)}_{tok(21)}"
    case("api_key", "note", "ngrok authtoken handed to its CLI subcommand",
         f"内网穿透给同学看作业：\nngrok config add-authtoken {k}\nngrok http 8000", k)
    k = tok(40, HEX)
    case("api_key", "note", "Weights & Biases key handed to `wandb login` positionally",
         f"(venv) $ wandb login {k}\nwandb: Appending key for api.wandb.ai to your netrc file: /home/lin/.netrc", k)
    k = tok(40, HEX)
    case("api_key", "note", "SonarQube token given as a -D property to sonar-scanner",
         f"sonar-scanner -Dsonar.projectKey=kb -Dsonar.host.url=http://sonar.lab:9000 -Dsonar.login={k}", k)
    k = uuid4()
    case("api_key", "note", "Scaleway secret key given as key=value arguments to `scw init`",
         f"scw init access-key=SCW{tok(17, string.ascii_uppercase + string.digits)} secret-key={k} organization-id={uuid4()}", k)
    k1, k2 = tok(20, string.ascii_uppercase + string.digits), tok(40)
    case("api_key", "note", "Huawei OBS keys given to obsutil with -i= and -k=",
         f"./obsutil config -i={k1} -k={k2} -e=obs.cn-north-4.myhuaweicloud.com\nConfig file url: /root/.obsutilconfig", k2)
    k1, k2 = tok(40), tok(40)
    case("api_key", "note", "Qiniu keys given positionally to `qshell account`",
         f"qshell account {k1} {k2} lin-course\nqshell listbucket course-media", k1, k2)
    k = tok(32)
    case("api_key", "note", "a key set with setx on Windows",
         f'C:\\> setx QWEATHER_KEY "{k}"\n成功: 指定的值已得到保存。', k)
    k = tok(32)
    case("api_key", "note", "a key set with [Environment]::SetEnvironmentVariable in PowerShell",
         f'[Environment]::SetEnvironmentVariable("DEEPSEEK_KEY", "{k}", "User")', k)
    k = tok(40, HEX)
    case("api_key", "note", "a key set with fish's set -Ux",
         f"~> set -Ux TOGETHER_API_KEY {k}\n~> python bench.py", k)
    k = tok(32, HEX)
    case("api_key", "yaml", "a key in a Kubernetes env list as a name/value pair on two lines",
         f"containers:\n  - name: weather\n    image: ghcr.io/lin/weather:0.2\n    env:\n      - name: OPENWEATHER_API_KEY\n        value: \"{k}\"\n      - name: TZ\n        value: Asia/Shanghai\n", k)
    k = tok(32, HEX)
    case("api_key", "note", "a key in .NET app.config as add key/value attributes",
         f'<appSettings>\n  <add key="WeatherApiKey" value="{k}" />\n  <add key="City" value="Wuhan" />\n</appSettings>', k)
    k = tok(32, HEX)
    case("api_key", "txt", "an Amap key in Android strings.xml",
         f'<resources>\n    <string name="app_name">校园导航</string>\n    <string name="amap_key">{k}</string>\n</resources>\n', k)
    k = tok(32, HEX)
    case("api_key", "txt", "a key in a Gradle buildConfigField with escaped quotes",
         f'android {{\n    defaultConfig {{\n        buildConfigField "String", "NEWS_API_KEY", "\\"{k}\\""\n    }}\n}}\n', k)
    k = tok(32)
    case("api_key", "txt", "a key as a Java properties entry with dots in its name",
         f"weather.api.base=https://devapi.qweather.com/v7\nweather.api.secret={k}\nweather.cache.ttl=600\n", k)
    k = tok(32, HEX)
    case("api_key", "txt", "an Azure subscription key as a C# const",
         f'static class Cognitive\n{{\n    const string Endpoint = "https://lin-ocr.cognitiveservices.azure.com/";\n    const string SubscriptionKey = "{k}";\n}}\n', k)
    k = tok(48, B62)
    case("api_key", "txt", "a token as a Rust &str const",
         f'const TOKEN: &str = "{k}";\n\nfn main() {{\n    let client = Client::new(TOKEN);\n}}\n', k)
    k = tok(32, HEX)
    case("api_key", "txt", "a key as an R Sys.setenv argument",
         f'Sys.setenv(TUSHARE_TOKEN = "{k}")\nlibrary(httr)\n', k)
    k = tok(32, B62)
    case("api_key", "note", "a key in MATLAB weboptions HeaderFields",
         f"opts = weboptions('HeaderFields', {{'X-API-Key' '{k}'}});\ndata = webread(url, opts);", k)
    k = tok(40, B62)
    case("api_key", "note", "a key in a JS headers object under X-Auth-Token",
         f"fetch('/api/v1/scores', {{ headers: {{ 'X-Auth-Token': '{k}' }} }})\n  .then(r => r.json())", k)
    k = tok(32, HEX)
    case("api_key", "md", "a key in a Markdown table under a 'Key' column with Chinese headers",
         f"## 实验用到的服务\n\n| 服务 | Key | 备注 |\n|---|---|---|\n| 聚合数据 | {k} | 每日 100 次 |\n| 天行数据 | (待申请) | |\n", k)
    k = tok(32, HEX)
    case("api_key", "note", "a key in nginx proxy_set_header",
         f"location /weather/ {{\n    proxy_pass https://api.openweathermap.org/;\n    proxy_set_header X-Api-Key {k};\n}}", k)
    k = tok(32, B62)
    case("api_key", "note", "a key in a YAML flow mapping",
         f"services: {{weather: {{apiKey: {k}, region: cn}}, translate: {{enabled: false}}}}", k)
    k = tok(48, HEX)
    case("api_key", "note", "Jupyter token in a localhost URL",
         f"    To access the server, open this file in a browser:\n        file:///home/lin/.local/share/jupyter/runtime/jpserver-4127-open.html\n"
         f"    Or copy and paste one of these URLs:\n        http://127.0.0.1:8888/lab?token={k}", k)
    k = tok(40, B64U)
    case("api_key", "note", "a key in a WebSocket URL's query",
         f"const ws = new WebSocket('wss://stream.marketdata.example/v2/quotes?apikey={k}&symbols=AAPL');", k)
    k = tok(32, B62)
    case("api_key", "note", "a key in a VS Code REST Client file variable",
         f"@host = https://api.example.edu\n@apiKey = {k}\n\nGET {{{{host}}}}/grades\nX-API-Key: {{{{apiKey}}}}", k)
    k = tok(32, B62)
    case("api_key", "txt", "a key in an SQL INSERT whose first column names it",
         f"INSERT INTO app_config (name, value) VALUES ('juhe_app_key', '{k}');\n", k)
    k = tok(44, B62)
    case("api_key", "note", "an unprefixed key in a CLI flag spelled --auth-token=",
         f"ollama-proxy serve --port 11435 --upstream https://llm.lab.internal --auth-token={k}", k)
    k = tok(32, B62)
    case("api_key", "note", "masterKey in a Parse Server start command",
         f"parse-server --appId kbnotes --masterKey {k} --databaseURI mongodb://localhost/kb", k)
    k = tok(64, HEX)
    case("api_key", "txt", "accessKeySecret in a Go map literal",
         f'm := map[string]string{{\n\t"accessKeyId":     "{tok(24, B62)}",\n\t"accessKeySecret": "{k}",\n}}\n', k)

    # ===== api_key / password: encoded command payloads ==============================================
    k = tok(40, B62)
    script = f'$h = @{{ "X-Api-Key" = "{k}" }}; Invoke-RestMethod -Uri https://api.lab.example/v1/jobs -Headers $h'
    enc = base64.b64encode(script.encode("utf-16-le")).decode()
    case("api_key", "note", "PowerShell -EncodedCommand whose UTF-16 script sets an API key header",
         f"计划任务里的命令：\npowershell.exe -NoProfile -WindowStyle Hidden -EncodedCommand {enc}", enc)
    k = tok(32)
    script = f'$env:WEATHER_TOKEN = "{k}"; python C:\\lab\\fetch.py'
    enc = base64.b64encode(script.encode("utf-16-le")).decode()
    case("api_key", "note", "pwsh -enc (short flag) with a token in the encoded script",
         f"pwsh -nop -enc {enc}", enc)
    k = tok(24, B62)
    script = f"net use Z: \\\\nas\\course /user:lin {k}"
    enc = base64.b64encode(script.encode("utf-16-le")).decode()
    case("password", "note", "powershell -e with a share password in the encoded script",
         f"launcher.bat:\n@echo off\npowershell -w hidden -e {enc}\n", enc)
    k = tok(32, HEX)
    enc = base64.b85encode(k.encode()).decode()
    case("api_key", "py", "a key kept Base85-encoded and decoded at run time",
         f"import base64\n\n# 不想让 key 明文出现在仓库里\nAPI_KEY = base64.b85decode(\"{enc}\").decode()\n", enc)
    k = tok(20, B62)
    enc = base64.a85encode(f"password={k}".encode(), adobe=True).decode()
    case("password", "note", "an Ascii85 (<~ ~>) block holding a password line",
         f"PostScript 课的小把戏，把配置藏起来：\n{enc}", enc)
    k = tok(32, HEX)
    enc = base64.b32encode(f"api_key: {k}\n".encode()).decode()
    case("api_key", "note", "a Base32-encoded config line",
         f"config (base32): {enc}", enc)
    k = tok(32, B62)
    enc = base64.b64encode(f'{{"token": "{k}", "user": "lin"}}'.encode()).decode()
    case("api_key", "note", "a Dockerfile RUN that base64-decodes a credentials file",
         f"RUN echo {enc} | base64 -d > /root/.config/labcli/credentials.json", enc)
    k = tok(32, HEX)
    hx = k.encode().hex()
    case("api_key", "py", "a key written as hex bytes and decoded with bytes.fromhex",
         f"SECRET = bytes.fromhex('{hx}').decode()\nheaders = {{'Authorization': f'Bearer {{SECRET}}'}}\n", hx)
    k = tok(40, B62)
    enc = base64.b64encode(k.encode()).decode()
    case("api_key", "note", "a key hidden in atob() in a bookmarklet",
         f"javascript:(()=>{{fetch('https://api.lab.example/save?u='+encodeURIComponent(location.href),{{headers:{{'X-Key':atob('{enc}')}}}})}})()", enc)
    import gzip
    k = tok(32, HEX)
    blob = base64.b64encode(gzip.compress(f"QWEATHER_KEY={k}\nCITY=101200101\n".encode(), mtime=0)).decode()
    case("api_key", "note", "a gzip+base64 .env blob kept in a CI variable",
         f"CI 变量 ENV_FILE_GZ（在 job 里 echo $ENV_FILE_GZ | base64 -d | gunzip > .env）：\n{blob}", blob)

    # ===== private keys: unusual encodings =============================================================
    ec_pem, ed_pem, ec_der, d, x, y, ed_raw, ed_pub = _keys()
    dj = b64u(d.to_bytes(32, "big"))
    case("private_key", "json", "EC private key as a JWK with its d parameter",
         json.dumps({"kty": "EC", "crv": "P-256", "x": b64u(x.to_bytes(32, "big")), "y": b64u(y.to_bytes(32, "big")),
                     "d": dj, "use": "sig", "kid": "lab-2026"}, indent=2), dj)
    pub_blob = base64.b64encode(b"\x00\x00\x00\x0bssh-ed25519\x00\x00\x00\x20" + ed_pub).decode()
    priv_blob = base64.b64encode(b"\x00\x00\x00\x20" + ed_raw).decode()
    case("private_key", "txt", "PuTTY .ppk (version 3, unencrypted) Private-Lines",
         f"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: lin@lab\nPublic-Lines: 2\n{pub_blob[:64]}\n{pub_blob[64:]}\n"
         f"Private-Lines: 1\n{priv_blob}\nPrivate-MAC: {tok(64, HEX)}\n", priv_blob)
    hexd = d.to_bytes(32, "big").hex()
    lines = [":".join(hexd[i:i + 2] for i in range(j, min(j + 30, 64), 2)) for j in range(0, 64, 30)]
    case("private_key", "note", "openssl ec -text dump with the priv: hex lines",
         "$ openssl ec -in lab.key -text -noout\nread EC key\nPrivate-Key: (256 bit)\npriv:\n    00:"
         + ":\n    ".join(lines) + "\npub:\n    04:" + x.to_bytes(32, "big").hex()[:30] + "\nASN1 OID: prime256v1\nNIST CURVE: P-256",
         *lines)
    url_pem = urllib.parse.quote(ec_pem, safe="")
    case("private_key", "note", "a PEM key percent-encoded into one line of a query",
         f"调试 webhook 时日志里打出来的：POST /sign?alg=ES256&key={url_pem}&ts=1765000000", url_pem)
    body_lines = [ln for ln in ec_pem.splitlines() if ln and not ln.startswith("-----")]
    case("private_key", "json", "a PEM key as a JSON array of lines",
         json.dumps({"name": "signer", "private_key_lines": ec_pem.strip().splitlines()}, indent=2), *body_lines)
    sol = list(ed_raw + ed_pub)
    arr = "[" + ",".join(map(str, sol)) + "]"
    case("private_key", "note", "a Solana keypair file (a JSON array of 64 byte values)",
         f"$ cat ~/.config/solana/devnet.json\n{arr}\n$ solana address -k ~/.config/solana/devnet.json", arr)
    nsec = bech32("nsec", R.randbytes(32))
    case("private_key", "note", "a Nostr nsec key in a client-setup note",
         f"Damus 换手机迁移：\n私钥 {nsec}\n公钥 npub 可以公开", nsec)
    der_hex = ec_der.hex()
    case("private_key", "py", "a PKCS#8 DER key as a hex literal loaded with bytes.fromhex",
         f"from cryptography.hazmat.primitives.serialization import load_der_private_key\n\nKEY = load_der_private_key(bytes.fromhex(\n    \"{der_hex}\"\n), password=None)\n", der_hex)
    seed = base64.b64encode(R.randbytes(32)).decode().rstrip("=")
    case("private_key", "txt", "a Matrix Synapse signing key file (ed25519 a_XXXX seed)",
         f"ed25519 a_{tok(4, B62)} {seed}\n", seed)
    joined = " ".join(ln for ln in ed_pem.strip().splitlines())
    ed_body = [ln for ln in ed_pem.splitlines() if ln and not ln.startswith("-----")]
    case("private_key", "note", "an OpenSSH key whose line breaks became spaces in a chat",
         f"[10:42] 阿林: 服务器的 key 给你 {joined} 用完删掉", *ed_body)
    b85_pem = base64.b85encode(ec_pem.encode()).decode()
    case("private_key", "py", "a PEM key kept Base85-encoded in a script",
         f"import base64\nSIGNING_KEY = base64.b85decode('{b85_pem}')\n", b85_pem)

    # ===== otp secrets ==================================================================================
    s1 = tok(32, B32)
    case("otp_secret", "json", "Aegis vault export entry (plain)",
         json.dumps({"version": 1, "entries": [{"type": "totp", "uuid": uuid4(), "name": "lin@uni.example", "issuer": "UniVPN",
                                                "info": {"secret": s1, "algo": "SHA1", "digits": 6, "period": 30}}]}, indent=2), s1)
    s1 = tok(16, B32)
    case("otp_secret", "note", "oathtool --totp -b with the base32 seed",
         f"$ oathtool --totp -b {s1}\n492039", s1)
    s1 = " ".join(tok(4, "abcdefghijklmnopqrstuvwxyz234567") for _ in range(8))
    case("otp_secret", "note", "Google's lower-case setup key in groups of four under a Chinese label",
         f"教务系统开启两步验证，无法扫码时手动输入的设置密钥：\n{s1}\n（时间型）", s1)
    s1 = base64.b64encode(R.randbytes(20)).decode()
    s2 = base64.b64encode(R.randbytes(20)).decode()
    case("otp_secret", "json", "Steam Guard maFile shared_secret and identity_secret",
         json.dumps({"shared_secret": s1, "serial_number": digits(19), "revocation_code": "R" + digits(5),
                     "account_name": "lin_games", "identity_secret": s2, "device_id": f"android:{uuid4()}"}, indent=2), s1, s2)
    s1 = tok(32, B32)
    case("otp_secret", "py", "pyotp.TOTP with a literal seed in a script",
         f"import pyotp\n\ntotp = pyotp.TOTP('{s1}')\nprint(totp.now())\n", s1)
    s1 = tok(32, B32)
    uri = urllib.parse.quote(f"otpauth://totp/Lab:lin?secret={s1}&issuer=Lab", safe="")
    case("otp_secret", "note", "KeePassXC otp attribute, percent-encoded otpauth URI",
         f"Attribute: otp = {uri}", uri)
    mig = urllib.parse.quote(base64.b64encode(R.randbytes(60)).decode(), safe="")
    case("otp_secret", "note", "Google Authenticator export (otpauth-migration URI)",
         f"导出二维码扫出来的内容：otpauth-migration://offline?data={mig}", mig)
    s1 = tok(40, HEX)
    case("otp_secret", "note", "YubiKey OATH-HOTP seed in hex given to ykman",
         f"ykman oath accounts add --oath-type HOTP --digits 6 vpn-lab {s1}", s1)
    s1 = tok(32, B32)
    case("otp_secret", "note", "a 2FA secret under a Russian label",
         f"Двухфакторная аутентификация для кафедрального GitLab\nсекретный ключ: {s1}", s1)

    # ===== connection strings ===========================================================================
    p = tok(14, B62)
    case("connection_string", "note", "an ODBC DSN-less string with Uid/Pwd",
         f"conn = pyodbc.connect('Driver={{ODBC Driver 18 for SQL Server}};Server=tcp:lab-sql,1433;Database=grades;Uid=lin;Pwd={p};Encrypt=yes')", p)
    p = tok(12, B62)
    case("connection_string", "note", "a Go MySQL DSN without a scheme",
         f'db, err := sql.Open("mysql", "root:{p}@tcp(127.0.0.1:3306)/course?parseTime=true")', p)
    p = tok(16, B62)
    case("connection_string", "note", "a libpq key=value string",
         f'psql "host=pg.lab.local port=5432 dbname=notes user=lin password={p} sslmode=require"', p)
    p = tok(14, B62)
    case("connection_string", "txt", "a .pgpass line",
         f"pg.lab.local:5432:notes:lin:{p}\n*:*:*:postgres:{tok(10)}\n", p)
    p = base64.b64encode(R.randbytes(64)).decode()
    case("connection_string", "note", "an Azure Storage connection string with AccountKey",
         f"AZURE_STORAGE_CONNECTION_STRING=\"DefaultEndpointsProtocol=https;AccountName=linnotes;AccountKey={p};EndpointSuffix=core.windows.net\"", p)
    p = base64.b64encode(R.randbytes(32)).decode()
    case("connection_string", "json", "an Azure Service Bus SharedAccessKey in appsettings.json",
         json.dumps({"ServiceBus": {"ConnectionString": f"Endpoint=sb://lin-lab.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={p}"}}, indent=2), p)
    p = tok(20, B62)
    case("connection_string", "note", "redis-cli -a",
         f"redis-cli -h 10.0.3.7 -p 6379 -a {p} --no-auth-warning info keyspace", p)
    p = tok(12, B62)
    case("connection_string", "note", "sqlcmd with -U and -P",
         f"sqlcmd -S lab-sql -U sa -P {p} -Q \"SELECT name FROM sys.databases\"", p)
    p = tok(10, B62)
    case("connection_string", "note", "smbclient -U user%password",
         f"smbclient //nas.lab/course -U lin%{p} -c 'ls'", p)
    p = tok(12, B62)
    case("connection_string", "note", "ldapsearch -w bind password",
         f"ldapsearch -x -H ldaps://ldap.uni.example -D 'cn=reader,dc=uni,dc=example' -w {p} -b 'ou=people,dc=uni,dc=example' uid=lin", p)
    p = tok(16, B62)
    case("connection_string", "txt", "a Tomcat context.xml Resource with a password attribute",
         f'<Context>\n  <Resource name="jdbc/grades" auth="Container" type="javax.sql.DataSource"\n            username="grades" password="{p}"\n            url="jdbc:mysql://db:3306/grades"/>\n</Context>\n', p)
    p = tok(12, B62)
    case("connection_string", "note", "sqlplus user/password@service",
         f"sqlplus scott/{p}@//oracle.lab:1521/ORCLPDB1", p)
    p = tok(14, B62)
    case("connection_string", "note", "a knex config object with a nested password",
         f"module.exports = {{\n  client: 'pg',\n  connection: {{ host: '127.0.0.1', user: 'lin', password: '{p}', database: 'kb' }}\n}};", p)
    p = tok(32, B64U)
    case("connection_string", "txt", "rclone.conf with an obscured pass",
         f"[nas]\ntype = sftp\nhost = nas.lab\nuser = lin\npass = {p}\n", p)
    p = tok(16, B62)
    case("connection_string", "note", "a SQL CREATE USER ... IDENTIFIED BY",
         f"CREATE USER 'grader'@'%' IDENTIFIED BY '{p}';\nGRANT SELECT ON grades.* TO 'grader'@'%';", p)

    # ===== passwords: words and files noticed before ===================================================
    p = tok(10, B62)
    case("password", "note", "a Wi-Fi password under a Russian phrase",
         f"Общежитие №3, комната 412\nпароль от вайфая: {p}", p)
    p = tok(12, B62)
    case("password", "txt", "an OpenVPN auth-user-pass file (user on line one, password on line two)",
         f"lin.student\n{p}\n", p)
    p = tok(12, B62)
    case("password", "note", "an inline <auth-user-pass> block in an .ovpn profile",
         f"client\ndev tun\nproto udp\nremote vpn.uni.example 1194\nauth-user-pass\n<auth-user-pass>\nlin2026\n{p}\n</auth-user-pass>\n", p)
    p = tok(10, B62)
    case("password", "note", "a password under the Ukrainian word",
         f"Навчальний сервер: логін lin, пароль — {p}", p)
    p = tok(10, B62)
    case("password", "note", "a password under the Thai word",
         f"ไวไฟหอพัก รหัสผ่าน: {p}", p)
    p = tok(11, B62)
    case("password", "note", "a password under the Indonesian words",
         f"Akun SIAKAD — kata sandi: {p}", p)
    p = tok(12, B62)
    case("password", "note", "a password given to a zip tool through --password=",
         f"7z a -tzip --password={p} thesis-draft.zip thesis/", p)

    # ===== bank cards under other languages' words ===============================================
    c = card("4539")
    case("bank_card", "note", "a card number under a French label, no spaces",
         f"Paiement des frais d'inscription — numéro de carte : {c}, exp. 09/28", c)
    c = card("5312")
    case("bank_card", "note", "a card number under a German label, grouped",
         f"Kartennummer: {grouped(c, [4, 4, 4, 4])}\nGültig bis 11/27", grouped(c, [4, 4, 4, 4]))
    c = card("2200")
    case("bank_card", "note", "a Mir card under a Russian label",
         f"номер карты для перевода за общежитие: {grouped(c, [4, 4, 4, 4])}", grouped(c, [4, 4, 4, 4]))
    c = card("3782", 15)
    case("bank_card", "note", "an Amex number in 4-6-5 groups under a Spanish label",
         f"número de tarjeta: {grouped(c, [4, 6, 5])}", grouped(c, [4, 6, 5]))
    c = card("6212")
    case("bank_card", "note", "a UnionPay card under a Korean label with dashes",
         f"카드번호 {grouped(c, [4, 4, 4, 4], '-')}", grouped(c, [4, 4, 4, 4], "-"))
    c = card("4000")
    case("bank_card", "note", "a card number under a Japanese label in full-width digits",
         "カード番号：" + grouped(c, [4, 4, 4, 4]).translate(str.maketrans("0123456789", "０１２３４５６７８９")),
         grouped(c, [4, 4, 4, 4]).translate(str.maketrans("0123456789", "０１２３４５６７８９")))

    # ===== phones ======================================================================================
    m = f"012-{digits(3)} {digits(4)}"
    case("mobile", "note", "a Malaysian mobile after 'H/P:'",
         f"Contact person: Mr Tan\nH/P: {m}\nOffice: 03-7967 {digits(4)}", m)
    m = f"0812-{digits(4)}-{digits(4)}"
    case("mobile", "note", "an Indonesian mobile after 'WA:'",
         f"Kak Rina (kos dekat kampus) WA: {m}", m)
    m = f"0917 {digits(3)} {digits(4)}"
    case("mobile", "note", "a Philippine mobile after 'cp#'",
         f"Landlady — Aling Nena, cp# {m}", m)
    m = f"+7 (9{digits(2)}) {digits(3)}-{digits(2)}-{digits(2)}"
    case("mobile", "note", "a Russian mobile under 'моб.'",
         f"Куратор группы: моб. {m}", m)
    m = f"09{digits(2)} {digits(3)} {digits(3)}"
    case("mobile", "note", "a Vietnamese mobile under 'SĐT'",
         f"Chủ nhà trọ — SĐT: {m}", m)

    # ===== resident IDs: more national formats with their checks =====================================
    v = hkid()
    case("resident_id", "note", "a Hong Kong identity card number with its check digit in brackets",
         f"宿舍登記：陳同學，香港身份證號碼 {v}", v)
    v = tw_id()
    case("resident_id", "note", "a Taiwan national ID under 身分證字號",
         f"報名表\n姓名：林○○\n身分證字號：{v}", v)
    v = sg_nric()
    case("resident_id", "note", "a Singapore NRIC in a hall form",
         f"Hall application — NRIC/FIN: {v}", v)
    v = kr_rrn("9803" + R.choice(["12", "21"]), "2")
    case("resident_id", "note", "a Korean resident registration number",
         f"주민등록번호: {v}", v)
    v = jp_my_number()
    vg = grouped(v, [4, 4, 4])
    case("resident_id", "note", "a Japanese My Number in 4-4-4 groups",
         f"アルバイト先に提出：個人番号（マイナンバー）{vg}", vg)
    v = aadhaar()
    vg = grouped(v, [4, 4, 4])
    case("resident_id", "note", "an Indian Aadhaar number (Verhoeff check)",
         f"Hostel KYC — Aadhaar: {vg}", vg)
    v = fi_hetu("150399")
    case("resident_id", "note", "a Finnish henkilötunnus",
         f"Vaihto-opiskelija, henkilötunnus {v}", v)
    v = no_fnr("240298")
    case("resident_id", "note", "a Norwegian fødselsnummer",
         f"Leieavtale studentbolig — fødselsnummer: {v}", v)
    v = be_nn("980412")
    case("resident_id", "note", "a Belgian national register number",
         f"Inschrijving KU Leuven — rijksregisternummer {v}", v)
    v = tr_tckn()
    case("resident_id", "note", "a Turkish T.C. Kimlik No",
         f"Yurt başvurusu — T.C. Kimlik No: {v}", v)
    v = il_id()
    case("resident_id", "note", "an Israeli Teudat Zehut number under its Hebrew label",
         f"מספר תעודת זהות: {v}", v)
    v = za_id("990101")
    case("resident_id", "note", "a South African ID number",
         f"Res application — SA ID no. {v}", v)
    v = it_cf("RSSMRA99C12H501")
    case("resident_id", "note", "an Italian codice fiscale",
         f"Contratto d'affitto, codice fiscale dello studente: {v}", v)
    v = fr_nir("2", "99", "04", "75")
    case("resident_id", "note", "a French social security number (NIR) with spaces",
         f"Carte Vitale — n° de sécurité sociale : {v}", v)
    v = cl_rut()
    case("resident_id", "note", "a Chilean RUT",
         f"Ficha de postulación — RUT: {v}", v)
    v = mx_curp("GAHL990315MDFRRN0")
    case("resident_id", "note", "a Mexican CURP",
         f"Trámite de beca: CURP {v}", v)
    v = ro_cnp("6990521" + "40")
    case("resident_id", "note", "a Romanian CNP",
         f"Cerere cămin — CNP: {v}", v)
    v = se_pnr("990830")
    case("resident_id", "note", "a Swedish personnummer",
         f"Bostadskö — personnummer {v}", v)
    v = nl_bsn()
    case("resident_id", "note", "a Dutch BSN",
         f"DUO-aanvraag, BSN: {v}", v)
    v = th_id()
    case("resident_id", "note", "a Thai national ID with its dashes",
         f"เลขประจำตัวประชาชน {v}", v)
    v = pesel("991231")
    case("resident_id", "note", "a Polish PESEL",
         f"Akademik — PESEL: {v}", v)
    v = ca_sin()
    case("resident_id", "note", "a Canadian SIN",
         f"TA payroll form — SIN: {v}", v)
    v = cn_id("420106", "19990307")
    case("resident_id", "note", "a Chinese ID split by spaces into its parts",
         f"报到登记：身份证 {v[:6]} {v[6:14]} {v[14:]}", f"{v[:6]} {v[6:14]} {v[14:]}")
    v = cn_id("330106", "20000101")
    case("resident_id", "note", "a Chinese ID number spoken as 'ID' in an English form field",
         f"Name: Li Hua\nID No.: {v}\nNationality: China", v)

    # ===== addresses: directions and forms ============================================================
    a = f"{R.randint(2, 9)}号楼{R.randint(1, 4)}单元{R.randint(3, 18)}0{R.randint(1, 4)}"
    case("address", "note", "a home given as directions from a metro exit",
         f"周六来我家一起复习：地铁2号线街道口站 B 口出来往南走 200 米，进华中小区，{a}，门口有辆蓝色自行车。", f"华中小区，{a}")
    case("address", "note", "an address in a moving form with field labels in English",
         "Street: 27 Elm Street\nApt/Unit: 3B\nCity: Cambridge\nState: MA\nZIP: 02139", "27 Elm Street", "3B")
    case("address", "note", "a Japanese address with chōme and room number",
         "引っ越し先：東京都世田谷区北沢2丁目10-15 コーポ北沢203号室", "北沢2丁目10-15 コーポ北沢203号室")
    case("address", "note", "a Korean road-name address with dong and ho",
         "새 주소: 서울특별시 마포구 와우산로 94, 302동 1104호", "와우산로 94, 302동 1104호")
    case("address", "note", "a Russian address with ул./д./кв.",
         "Адрес для посылки: г. Казань, ул. Кремлёвская, д. 18, кв. 42", "ул. Кремлёвская, д. 18, кв. 42")
    case("address", "note", "an Italian address with scala and interno",
         "Indirizzo per il contratto: Via Zamboni 33, scala B, interno 7, 40126 Bologna", "Via Zamboni 33, scala B, interno 7")
    case("address", "note", "a Hong Kong flat address",
         "新地址：九龍旺角彌敦道 600 號 12 樓 B 室", "彌敦道 600 號 12 樓 B 室")
    case("address", "note", "a Taiwan address with 段/號/樓之",
         "寄送地址：台北市大安區羅斯福路四段1號3樓之2", "羅斯福路四段1號3樓之2")
    case("address", "note", "a rural Chinese address with 村/组/号",
         "老家地址：湖北省黄冈市麻城市宋埠镇彭店村3组25号", "彭店村3组25号")
    case("address", "note", "a directions-style address in English",
         "Come over Sat! From the station take the 14 bus to the last stop, then it's the blue house at 8 Orchard Lane, the side door.",
         "8 Orchard Lane")

    # ===== e-mail ======================================================================================
    case("email", "note", "an e-mail address written with [at] and [dot]",
         "导师说作业发到 wang.lin.2003 [at] gmail [dot] com，别发学校邮箱", "wang.lin.2003 [at] gmail [dot] com")
    case("email", "note", "an e-mail written as 'at qq dot com' in Chinese text",
         "联系我：一二三的 QQ 邮箱 1827364519 at qq dot com", "1827364519 at qq dot com")


def main() -> None:
    build()
    counts: dict[str, int] = {}
    for c in CASES:
        counts[c[0]] = counts.get(c[0], 0) + 1
    shapes = "\n".join(f"{c[0]}: {c[4]}" for c in CASES)
    print('r"""Held-out batch 15: adversarial cases by family, written before the detectors were changed.\n')
    print("Written in session 17 by the gate engineer from the families the last sealed batch missed (keys of")
    print("providers with no well-known prefix under a label in many syntaxes and languages, keys handed to")
    print("CLIs, encoded command payloads, private keys in unusual encodings, OTP seeds, connection strings,")
    print("resident IDs of more countries with their checks, addresses given as directions or in forms) and the")
    print("shapes noticed before (Russian password words, card words in other languages, OpenVPN credentials,")
    print("'H/P:'), before any detector was changed; generated by benchmarks/gate_corpus/gen15.py (seed 1515;")
    print("private keys real but made from the seed's bytes and thrown away, ID numbers built to pass their checks).")
    print(f"{len(CASES)} cases: " + ", ".join(f"{k} {v}" for k, v in counts.items()) + ".")
    print("FIRST_RUN (filled in by hand after the first run)\n")
    print("Shapes, one per case (category: shape):")
    print(shapes)
    print('"""\n\nfrom benchmarks.gate_corpus import Case\n\nCASES: list[Case] = [')
    for i, (cat, cont, text, secrets, _shape) in enumerate(CASES, start=1):
        print(f"    Case({f'h15-{i:03d}'!r}, {cat!r}, {cont!r},\n         {text!r},\n         {secrets!r}),")
    print("]")


if __name__ == "__main__":
    main()
