"""Writes heldout19.py and negatives18.py: a second session-18 batch, kept unread while the detectors changed.

    .venv/bin/python benchmarks/gate_corpus/gen19.py cases > benchmarks/gate_corpus/heldout19.py
    .venv/bin/python benchmarks/gate_corpus/gen19.py negatives > benchmarks/gate_corpus/negatives18.py

heldout18 was read while the session's rules were written; this batch was generated right after it
(seed 1919), from other countries, scripts and tools of the same families, and measured only once the
rules were done, so its figure is the session's held-out one. Same helpers as gen18 (ID numbers pass
their checks; no value belongs to anyone); published values are the exact strings their publishers print.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.gate_corpus import gen18 as h  # noqa: E402

R = random.Random(1919)
h.R = R
h.g.R = R
tok, digits, card, grouped, iban, luhn_complete = h.tok, h.digits, h.card, h.grouped, h.iban, h.luhn_complete
n, pw, B62, HEX = h.n, h.pw, h.B62, h.HEX
CASES: list[tuple[str, str, str, tuple[str, ...], str]] = []
NEGS: list[tuple[str, str]] = []


def case(category: str, container: str, shape: str, text: str, *secrets: str) -> None:
    for s in secrets:
        assert s in text, (shape, s)
    CASES.append((category, container, text, secrets, shape))


def neg(shape: str, text: str) -> None:
    NEGS.append((shape, text))


def build_addresses() -> None:  # noqa: PLR0915 - one list of cases
    pick = R.choice
    a = f"Rue {pick(['Neuve', 'du Midi', 'Haute'])} {n(2, 200)} boîte {n(1, 20)}"
    case("address", "note", "a Belgian address with boîte", f"Envoie la carte à {a}, 1000 Bruxelles", a)
    a = f"{pick(['Váci', 'Király', 'Andrássy'])} utca {n(2, 90)}. {n(1, 6)}. em. {n(1, 20)}."
    case("address", "note", "a Hungarian address with emelet and door", f"Az új címem: Budapest, {a}", a)
    a = f"Str. {pick(['Lipscani', 'Victoriei', 'Dorobanți'])} nr. {n(2, 90)}, bl. {pick('ABCD')}{n(1, 9)}, sc. {n(1, 4)}, et. {n(1, 10)}, ap. {n(1, 80)}"
    case("address", "note", "a Romanian address with bl./sc./et./ap.", f"Adresa mea: {a}, București", a)
    a = f"{pick(['Brīvības', 'Tērbatas', 'Lāčplēša'])} iela {n(2, 150)}-{n(1, 60)}"
    case("address", "note", "a Latvian street with a flat after the dash", f"Mana adrese: {a}, Rīga, LV-10{n(10, 99)}", a)
    a = f"{pick(['Ilica', 'Vlaška', 'Savska'])} {n(2, 200)}, {n(1, 8)}. kat"
    case("address", "note", "a Croatian address with kat (floor)", f"Stan mi je na adresi {a}, Zagreb", a)
    a = f"मकान नं. {n(2, 400)}, गली नं. {n(1, 20)}, {pick(['लाजपत नगर', 'करोल बाग'])}"
    case("address", "note", "a Hindi address with house and lane numbers", f"मेरा पता: {a}, नई दिल्ली", a)
    a = f"خیابان {pick(['ولیعصر', 'انقلاب'])}، کوچه {n(1, 40)}، پلاک {n(1, 90)}، واحد {n(1, 20)}"
    case("address", "note", "a Persian address with kuche, pelak and vahed", f"آدرس خانه: تهران، {a}", a)
    a = f"{n(2, 90)} شارع {pick(['التحرير', 'قصر النيل'])}، الدور {n(1, 12)}، شقة {n(1, 30)}"
    case("address", "note", "an Egyptian address with floor and flat", f"ابعتلي على {a}، القاهرة", a)
    a = f"Căn hộ {n(1, 30)}{n(1, 20):02d}, tòa {pick('ABC')}, chung cư {pick(['Times City', 'Vinhomes Central Park'])}"
    case("address", "note", "a Vietnamese flat in a block of a complex", f"Mình chuyển về {a} rồi nhé", a)
    a = f"Blk {n(1, 30)} Lot {n(1, 40)} Phase {n(1, 5)}, {pick(['Camella Homes', 'Deca Homes'])}"
    case("address", "note", "a Philippine block/lot/phase address", f"Deliver to {a}, Bacoor, Cavite", a)
    a = f"Calle {n(10, 150)} # {n(5, 99)}-{n(10, 99)}, apto {n(101, 1204)}"
    case("address", "note", "a Colombian Calle # number-number address", f"Mi dirección en Bogotá: {a}", a)
    a = f"Jr. {pick(['Cusco', 'Huallaga', 'Ica'])} {n(100, 999)} Dpto. {n(101, 904)}"
    case("address", "note", "a Peruvian Jr. address with Dpto.", f"Enviar a: {a}, Cercado de Lima", a)
    a = f"{n(10, 999)} Main St #{n(1, 9)}{pick('ABCD')}"
    case("address", "note", "a US street with a #unit", f"package goes to {a}, Burlington VT", a)
    a = f"{pick(['メゾン', 'コーポ', 'ハイツ'])}{pick(['桜', '若葉', '緑'])} {n(1, 4)}0{n(1, 9)}"
    blk = f"中津{n(1, 6)}-{n(1, 20)}-{n(1, 20)}"
    case("address", "note", "a Japanese apartment building name and room number after a block address",
         f"住所：大阪市北区{blk} {a}", blk, a)
    a = f"{n(2, 90)} {pick(['Queen Street', 'Cuba Street', 'Ponsonby Road'])}, Flat {n(1, 9)}"
    case("address", "md", "a New Zealand address with the flat after the street",
         f"## Flatmates\n\nWe're at {a}, Auckland {n(1010, 1060)}.\n", a)
    a = f"{pick(['梅林', '锦华', '龙华'])}新村 {n(1, 40)} 栋 {n(1, 4)} 单元 {n(1, 30)}0{n(1, 4)}"
    case("address", "note", "a Chinese estate/building/unit/room with spaces, no road", f"新家在 {a}，周末来玩", a)
    a = f"P.O. Box {n(100, 99999)}"
    case("address", "note", "a PO box", f"Send the forms to {a}, Nairobi 00100", a)


def build_cards() -> None:
    v = card("6011" + digits(2))
    case("bank_card", "note", "a Discover card", f"Discover {h.grouped(v, [4, 4, 4, 4])} (exp 2/29)", h.grouped(v, [4, 4, 4, 4]))
    v = card("62" + digits(4))
    case("bank_card", "note", "a 16-digit UnionPay after 银联卡", f"银联卡 {v} 在国外刷不了", v)
    v = card("6521" + digits(2))
    case("bank_card", "note", "an Indian RuPay card", f"RuPay debit: {h.grouped(v, [4, 4, 4, 4], '-')}", h.grouped(v, [4, 4, 4, 4], "-"))
    v = card("9792" + digits(2))
    case("bank_card", "note", "a Turkish Troy card", f"Troy kart no: {h.grouped(v, [4, 4, 4, 4])}", h.grouped(v, [4, 4, 4, 4]))
    v = card("506099" + digits(1), 19)
    case("bank_card", "note", "a Nigerian Verve 19-digit card", f"Verve card {v}", v)
    v = iban("CH", digits(5) + tok(12, "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"))
    case("bank_card", "note", "a Swiss IBAN under Kontonummer", f"Kontonummer für die Kaution: {h.grouped(v, [4, 4, 4, 4, 4, 1])}",
         h.grouped(v, [4, 4, 4, 4, 4, 1]))
    v = iban("PK", "SCBL" + digits(16))
    case("bank_card", "note", "a Pakistani IBAN", f"Fee transfer: {v}", v)
    v = iban("SA", digits(2) + digits(18))
    case("bank_card", "note", "a Saudi IBAN in Arabic", f"رقم الآيبان: {v}", v)
    v = iban("IE", "AIBK" + digits(14))
    case("bank_card", "yaml", "an Irish IBAN in YAML", f"payee:\n  name: Siobhan\n  iban: {h.grouped(v, [4, 4, 4, 4, 4, 2])}\n",
         h.grouped(v, [4, 4, 4, 4, 4, 2]))


def build_mobiles() -> None:
    cases = [
        ("a Kenyan mobile +254", "M-Pesa kwa {m}", f"+254 7{digits(2)} {digits(3)} {digits(3)}"),
        ("an Egyptian mobile", "رقمي {m} واتساب", f"010{digits(1)} {digits(3)} {digits(4)}"),
        ("a Saudi mobile 05x", "جوالي {m}", f"05{n(0, 9)} {digits(3)} {digits(4)}"),
        ("a Bangladeshi mobile", "My number is {m}", f"01{n(3, 9)}{digits(2)}-{digits(6)}"),
        ("a Malaysian mobile", "Nombor telefon: {m}", f"01{n(1, 9)}-{digits(3)} {digits(4)}"),
        ("a Singapore mobile +65", "whatsapp me at {m}", f"+65 {R.choice('89')}{digits(3)} {digits(4)}"),
        ("a Taiwanese mobile", "手機 {m}，晚上再打", f"09{digits(2)}-{digits(3)}-{digits(3)}"),
        ("an Argentine mobile +54 9", "Mi cel: {m}", f"+54 9 11 {digits(4)}-{digits(4)}"),
        ("a Colombian mobile", "celular {m}", f"3{n(0, 2)}{digits(1)} {digits(3)} {digits(4)}"),
        ("a Ukrainian mobile +380", "Мій номер {m}", f"+380 {R.choice(['67', '50', '63', '93'])} {digits(3)} {digits(2)} {digits(2)}"),
        ("a Dutch mobile 06-", "Bel me op {m}", f"06-{digits(8)}"),
        ("a Swedish mobile 07x", "Ring mig på {m}", f"07{n(0, 9)}-{digits(3)} {digits(2)} {digits(2)}"),
        ("an Israeli mobile", "הטלפון שלי {m}", f"05{n(0, 8)}-{digits(3)}-{digits(4)}"),
        ("a Chinese mobile with +86 and spaces", "Contact Li: {m}", f"+86 1{R.choice('3589')}{digits(1)} {digits(4)} {digits(4)}"),
    ]
    for shape, tpl, m in cases:
        case("mobile", "note", shape, tpl.format(m=m), m)


def build_plates() -> None:
    cases = [
        ("an Austrian plate", "Kennzeichen {p}", f"W-{digits(5)}{R.choice('ABCX')}"),
        ("a Belgian plate", "plaque {p}", f"1-{tok(3, 'ABCDEFGHJKLMNPRSTVWXYZ')}-{digits(3)}"),
        ("a Czech plate", "SPZ {p}", f"{n(1, 9)}{tok(2, 'ABCEHJKLMPSTUZ')} {digits(4)}"),
        ("a Romanian plate", "numărul mașinii: {p}", f"B {digits(3)} {tok(3, 'ABCDEFGHJKLMNPRSTVWXYZ')}"),
        ("a Ukrainian plate", "номер авто {p}", f"{R.choice(['АА', 'ВС', 'КА'])} {digits(4)} {R.choice(['ВК', 'ІХ', 'НМ'])}"),
        ("an Indonesian plate", "plat nomor {p}", f"B {n(1000, 9999)} {tok(3, 'ABCDEFGHJKLMNPRSTUVWXYZ')}"),
        ("a Malaysian plate", "No. plat kereta: {p}", f"W{tok(2, 'ABCDEFGHJKLMNPRSTUVWXY')} {n(1, 9999)}"),
        ("a Philippine plate", "plate no. {p}", f"{tok(3, 'ABCDEFGHJKLMNPRSTUVWXYZ')} {digits(4)}"),
        ("a Mexican plate", "placas {p}", f"{tok(3, 'ABCDEFGHJKLMNPRSTUVWXYZ')}-{digits(3)}-{R.choice('ABCDE')}"),
        ("a Portuguese plate", "matrícula {p}", f"{tok(2, 'ABCDEFGHJKLMNPRSTUVWXZ')}-{digits(2)}-{tok(2, 'ABCDEFGHJKLMNPRSTUVWXZ')}"),
        ("a Chinese plate without the dot, in a sentence", "我车牌是{p}，白色的", f"{R.choice('京沪浙苏川')}{R.choice('ABCDE')}{tok(5, 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789')}"),
    ]
    for shape, tpl, p in cases:
        case("licence_plate", "note", shape, tpl.format(p=p), p)


def ch_ahv() -> str:
    body = "756" + digits(9)
    s = sum(int(c) * (3 if i % 2 else 1) for i, c in enumerate(body))
    t = body + str((10 - s % 10) % 10)
    return f"{t[:3]}.{t[3:7]}.{t[7:11]}.{t[11:]}"


def is_kt(ddmmyy: str) -> str:
    while True:
        body = ddmmyy + digits(2)
        s = sum(int(c) * w for c, w in zip(body, [3, 2, 7, 6, 5, 4, 3, 2], strict=False))
        c = 11 - s % 11
        if c == 10:
            continue
        return f"{body[:6]}-{body[6:]}{0 if c == 11 else c}9"


def rs_jmbg(ddmmyyy: str) -> str:
    while True:
        body = ddmmyyy + "71" + digits(3)
        s = sum(int(c) * w for c, w in zip(body, [7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2], strict=False))
        c = 11 - s % 11
        if c < 10:
            return body + str(c)
        if c == 11:
            return body + "0"


def uy_ci() -> str:
    body = digits(7)
    s = sum(int(c) * w for c, w in zip(body, [2, 9, 8, 7, 6, 3, 4], strict=False))
    return f"{body[0]}.{body[1:4]}.{body[4:]}-{(10 - s % 10) % 10}"


def build_ids() -> None:
    v = ch_ahv()
    case("resident_id", "note", "a Swiss AHV number", f"AHV-Nr. {v}", v)
    v = is_kt(f"{n(10, 28)}{n(1, 12):02d}{n(90, 99)}")
    case("resident_id", "note", "an Icelandic kennitala", f"Kennitala: {v}", v)
    v = rs_jmbg(f"{n(10, 28)}{n(1, 12):02d}99{n(0, 9)}")
    case("resident_id", "note", "a Serbian JMBG", f"ЈМБГ {v}", v)
    v = uy_ci()
    case("resident_id", "note", "a Uruguayan cédula", f"CI {v}", v)
    v = h.es_dni()
    case("resident_id", "json", "a Spanish DNI in JSON under documento", f'{{"nombre": "Lucía", "documento": "{v}"}}', v)
    v = h.br_cpf().replace(".", "").replace("-", "")
    case("resident_id", "note", "a Brazilian CPF without punctuation", f"meu CPF {v}", v)
    v = h.g.aadhaar()
    case("resident_id", "note", "an Aadhaar in 4-4-4 under a Hindi label", f"आधार संख्या: {v[:4]} {v[4:8]} {v[8:]}", f"{v[:4]} {v[4:8]} {v[8:]}")
    v = h.g.cn_id(R.choice(["310104", "110108"]), f"199{n(0, 9)}{n(1, 12):02d}{n(10, 28)}")
    case("resident_id", "note", "a Chinese ID in a sentence about a train ticket", f"帮我买票，身份证{v}，靠窗", v)
    v = h.g.kr_rrn(f"{n(90, 99)}{n(1, 12):02d}{n(10, 28)}", R.choice("12"))
    case("resident_id", "note", "a Korean RRN without a label", f"김민준 {v} 010-XXXX", v)
    v = h.g.za_id(f"{n(90, 99)}{n(1, 12):02d}{n(10, 28)}")
    case("resident_id", "note", "a South African ID", f"SA ID no. {v}", v)
    v = h.g.sg_nric()
    case("resident_id", "note", "a Singapore NRIC in a sentence", f"my NRIC is {v} for the booking", v)


def build_passwords() -> None:
    shapes = [
        ("Cisco enable secret 0", "enable secret 0 {p}"),
        ("a MikroTik user set", "/user set admin password={p}"),
        ("account/password with a slash in Chinese", "校园网 账号/密码：2023011234/{p}"),
        ("a Japanese PW: line", "ルーターの管理画面 ID: admin PW: {p}"),
        ("unzip -P", "unzip -P {p} thesis_backup.zip"),
        ("passphrase in a sentence", "The passphrase for my GPG key is {p}"),
        ("口令 in a note", "服务器口令 {p}（别外传）"),
        ("a Markdown table with a pass column", "| site | user | pass |\n|---|---|---|\n| bilibili | lihua | {p} |"),
        ("VNC password on a command line", "x11vnc -storepasswd {p} ~/.vnc/passwd"),
    ]
    for shape, tpl in shapes:
        p = pw()
        case("password", "note", shape, tpl.format(p=p), p)


def build_keys() -> None:
    t = tok(32, HEX)
    case("api_key", "note", "a key in a URL path segment after /key/", f"https://api.example-maps.cn/v1/key/{t}/geocode?addr=x", t)
    t = tok(40, B62)
    case("api_key", "note", "a token given positionally to a setter subcommand", f"mytool set-token {t}", t)
    t = tok(32, HEX)
    case("api_key", "note", "a key as the only argument after a login subcommand in Chinese prose", f"先运行 `qcli login {t}` 再上传", t)


def build_negatives() -> None:
    neg("Ganache's deterministic mnemonic", "ganache-cli -d  # 助记词固定为 myth like bonus scare over problem client lizard pioneer submit female collect")
    neg("Hardhat's account #1 key", "account1 = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'")
    neg("RFC 8037's Ed25519 JWK", '{"kty":"OKP","crv":"Ed25519",\n "d":"nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A",\n "x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}')
    neg("RFC 7515's HMAC JWK", '{"kty":"oct",\n "k":"AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow"}')
    neg("a BIP39 test vector phrase", "mnemonic = 'legal winner thank year wave sausage worth useful legal winner thank yellow'")
    neg("connectionstrings.com's SQL Server line", "Server=myServerAddress;Database=myDataBase;User Id=myUsername;Password=myPassword;")
    neg("Android's debug keystore", "signingConfigs {\n    debug {\n        storePassword 'android'\n        keyAlias 'androiddebugkey'\n        keyPassword 'android'\n    }\n}")
    neg("the JDK cacerts default", "keytool -list -keystore $JAVA_HOME/lib/security/cacerts -storepass changeit")
    neg("Raspberry Pi OS's old default login", "老版本树莓派默认账号 pi，密码 raspberry，第一次登录后改掉")
    neg("HMRC's NINO example", "National Insurance numbers look like QQ 12 34 56 C (two letters, six digits, one letter).")
    neg("the Woolworth wallet-card SSN", "The most misused SSN ever, 078-05-1120, came printed in wallets sold by Woolworth in 1938.")
    neg("China Mobile's 13800138000 in a validation lesson", "正则 ^1[3-9]\\d{9}$ 能匹配 13800138000，但匹配不了 1380013800")
    neg("a counting Japanese number in a form lesson", "電話番号の欄には 090-1234-5678 のようにハイフンを入れて書きます")
    neg("a famous office address", "The Empire State Building stands at 350 Fifth Avenue, New York, NY 10118.")
    neg("an encyclopedia address of a university", "北京大学位于北京市海淀区颐和园路5号，校园内有未名湖。")
    neg("a floor plan in a textbook", "图书馆 3 楼 302 室是自习室，4 楼是期刊阅览室")
    neg("a classroom schedule", "Room 204, Building 3 — Calculus II, Tue/Thu 10:00")
    neg("a sports score and a date", "决赛比分 3:2，2026 年 7 月 19 日")
    neg("a version list", "Python 3.12.1, Node 20.11.0, Rust 1.75.0")
    neg("a password word in a sentence", "She forgot her password again and had to reset it twice this week.")
    neg("an instruction to enter a password", "在弹出的窗口中输入你的密码，然后点击“确定”")
    neg("a placeholder password in docs", "PASSWORD=changeme  # replace before deploying")


def build() -> None:
    build_addresses()
    build_cards()
    build_mobiles()
    build_plates()
    build_ids()
    build_passwords()
    build_keys()
    build_negatives()


def print_cases() -> None:
    counts: dict[str, int] = {}
    for c in CASES:
        counts[c[0]] = counts.get(c[0], 0) + 1
    print('r"""Held-out batch 19: generated with heldout18 before any detector changed, and not read while they changed.\n')
    print("Other countries, scripts and tools of heldout18's families (addresses, cards and IBANs, mobiles, plates,")
    print("national IDs, passwords, keys in paths and arguments); generated by benchmarks/gate_corpus/gen19.py (seed 1919).")
    print(f"{len(CASES)} cases: " + ", ".join(f"{k} {v}" for k, v in counts.items()) + ".")
    print("FIRST_RUN (filled in by hand after the first run)\n")
    print("Shapes, one per case (category: shape):")
    print("\n".join(f"{c[0]}: {c[4]}" for c in CASES))
    print('"""\n\nfrom benchmarks.gate_corpus import Case\n\nCASES: list[Case] = [')
    for i, (cat, cont, text, secrets, _shape) in enumerate(CASES, start=1):
        print(f"    Case({f'h19-{i:03d}'!r}, {cat!r}, {cont!r},\n         {text!r},\n         {secrets!r}),")
    print("]")


def print_negatives() -> None:
    print('"""Hard negatives written with ``heldout19`` (session 18), before the detectors changed, and not read while they did.\n')
    print(f"{len(NEGS)} texts: published values (exact strings), instructions about passwords, public and textbook places,")
    print("numbers like phones and IDs. Generated by benchmarks/gate_corpus/gen19.py (seed 1919).")
    print("FIRST_RUN (filled in by hand after the first run)\n")
    print("Shapes, one per text:")
    print("\n".join(f"- {s}" for s, _t in NEGS))
    print('"""\n\nNEGATIVES: list[str] = [')
    for _s, t in NEGS:
        print(f"    {t!r},")
    print("]")


if __name__ == "__main__":
    build()
    print_negatives() if sys.argv[1:] == ["negatives"] else print_cases()
