# ruff: noqa: SIM905 - a phrase reads best as its words
"""Families of shapes the session-15 sealed batch (heldout14, negatives13) showed, each checked on
variants written here before the rule (other languages, containers, tools and values nobody listed),
with the shapes that look the same and must still pass.
"""

from __future__ import annotations

import pytest

from desktop_kb.qa.detectors.secret_values import is_algorithm
from tests.gate_checks import found, withheld

# ----- a password under the word for one, in any language --------------------------------------------


@pytest.mark.parametrize(("text", "secret"), [
    ('Wi-Fi i bibliotekës\nemri: Biblioteka_5G\nfjalëkalimi: Vjosa2024!tr\n', 'Vjosa2024!tr'),
    ('{"lietotājs": "janis.b", "parole": "Daugava#1987x"}', 'Daugava#1987x'),
    ('[2026-10-02 19:40] Miren: ikasgelako ordenagailua\n[2026-10-02 19:41] Miren: pasahitza: Txakoli_77aa\n',
     'Txakoli_77aa'),
    ('usuario,contrasinal,aula\nxoan.p,Mino-Rio-2023,A12\n', 'Mino-Rio-2023'),
    ('[wifi]\nssid = Heimavist\nlykilorð = Jokull.Fjall.Haf88\n', 'Jokull.Fjall.Haf88'),
    ('Cyfrif y llyfrgell\nEnw defnyddiwr: s2291\nCyfrinair: Eryri2025%cym\n', 'Eryri2025%cym'),
    ('<login>\n  <korisnik>ana.k</korisnik>\n  <lozinka>Sava_Drava_41</lozinka>\n</login>', 'Sava_Drava_41'),
    ('Vartotojas: tomas7\nSlaptažodis: Nemunas!8842\n', 'Nemunas!8842'),
    ('ოთახის ინტერნეტი — პაროლი: Mtatsminda2024', 'Mtatsminda2024'),
    ('Համակարգիչ 3\nգաղտնաբառ: Ararat_1915_ok\n', 'Ararat_1915_ok'),
    ('ল্যাবের কম্পিউটার\nপাসওয়ার্ড: Padma#2025lab\n', 'Padma#2025lab'),
    ('kituo cha kazi: maabara 2\nneno la siri: Kilima77_njaro\n', 'Kilima77_njaro'),
    ('ห้องแล็บ ลาว: ລະຫັດຜ່ານ: Mekong_2024_vte', 'Mekong_2024_vte'),
    ('Жатақхана Wi-Fi\nқұпия сөз: Almaty_Alatau_55\n', 'Almaty_Alatau_55'),
    ('Yurt interneti\nşifrə: Xezer2024!baki\n', 'Xezer2024!baki'),
    ('ලැප්ටොප් එක\nමුරපදය: Kandy_Lake_2211\n', 'Kandy_Lake_2211'),
    ('lab_pc:\n  korisnik: ivo\n  geslo: "Triglav-864!x"\n', 'Triglav-864!x'),
    ('PUK2: 31415926\nPIN2: 2718\n', '31415926'),
    ('spring.redis.password: Walnut.Harbor.Cobalt17\n', 'Walnut.Harbor.Cobalt17'),
    ('Tài khoản lab\nuser: sv0931\npassword: Lotus.River.Hanoi42\n', 'Lotus.River.Hanoi42'),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_password_under_its_word_in_any_language_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    'Fjalëkalimi duhet të ketë të paktën 8 shenja, një shkronjë të madhe dhe një numër.',
    'Lozinka: najmanje 12 znakova, bez imena i datuma rođenja.',
    'La parole: elle est à tout le monde, dit le professeur.',
    'Parola chiave: Verona2024 (il titolo della relazione)',
    'Slaptažodis: ********',
    'parole: <jūsu parole>',
    'Hasło: ${DB_PASSWORD}',
    'config: System.Net.Http\npassword_hasher: Illuminate.Hashing.Bcrypt\n',
    'Cyfrinair: gweler y rheolwr cyfrineiriau',
    'κωδικός μαθήματος: ΠΛΗ-101',
], ids=lambda t: t[:24])
def test_password_words_without_a_password_pass(text: str) -> None:
    assert found(text) == []


# ----- an algorithm's name is not a password; a media file in base64 is not a key --------------------


@pytest.mark.parametrize("text", [
    '题 7：为什么存储密码要用 bcrypt 或 Argon2 这类慢哈希，而不是 SHA-256？',
    'Password hashing: PBKDF2-HMAC-SHA256, 600000 iterations (OWASP 2023).',
    '密码加密：AES-256-GCM，密钥由 KMS 托管。',
    'passwords are stored as Argon2id; API tokens signed with HS256 or RS256.',
    'password_algorithm: SHA256withRSA',
    'Das Passwort wird mit SHA-512/256 gehasht, der Schlüssel ist secp256k1.',
    'Wi-Fi 密码：WPA2 加密，AES-128 即可',
    'contraseña: cifrada con RSA-2048 y ChaCha20-Poly1305',
], ids=lambda t: t[:24])
def test_an_algorithm_after_a_password_word_passes(text: str) -> None:
    assert found(text) == []


@pytest.mark.parametrize("value", ["SHA-256", "AES-256-GCM", "RSA-2048", "bcrypt", "Argon2id", "secp256k1",
                                   "sha3-512", "HS512", "P-384", "crc32"])
def test_algorithm_names_are_read_as_such(value: str) -> None:
    assert is_algorithm(value)


@pytest.mark.parametrize("value", ["Qwer9306@yu", "rsa2048pw!", "des1994", "aes2024x", "hs1234", "Sha256Lin!"])
def test_a_password_that_starts_like_an_algorithm_is_not_one(value: str) -> None:
    assert not is_algorithm(value)
    assert withheld(f"密码：{value}", value), found(f"密码：{value}")


_PNG = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg"
        "AAAAAElFTkSuQmCCiVBORw0KGgoAAAANSUhEUgAAAoA")
_JPEG = "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHR8eHRwcICQsJyEiLDc"
_GIF = "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7R0lGODlhAQABAIAAAAAAAP8ywqQ"


@pytest.mark.parametrize("text", [
    '{"outputs": [{"data": {"image/png": "' + _PNG + '"}}]}',
    '![chart](data:image/png;base64,' + _PNG + ')',
    'thumbnail = "' + _JPEG + '"',
    '<img src="data:image/gif;base64,' + _GIF + '">',
    '.icon { background: url("data:image/jpeg;base64,' + _JPEG + '"); }',
    'avatar_jpeg: ' + _JPEG,
    'LOGO_B64="' + _PNG + '"',
    "spinner: '" + _GIF + "'",
], ids=lambda t: t[:24])
def test_a_base64_image_is_not_a_key(text: str) -> None:
    assert found(text) == []


@pytest.mark.parametrize(("text", "secret"), [
    ('API_KEY="iVBORwXyKq81ZpLm2vNcT4Rt7YuBsWd0"', 'iVBORwXyKq81ZpLm2vNcT4Rt7YuBsWd0'),
    ('token = "R0lGx9Jq2mVb7TzKp4WcNd8Ls1Ye5Hu3"', 'R0lGx9Jq2mVb7TzKp4WcNd8Ls1Ye5Hu3'),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_key_that_only_begins_like_an_image_is_still_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


# ----- a password handed to a program: its flag, its standard input, its user/password pair, its setter -----


@pytest.mark.parametrize(("text", "secret"), [
    ('$ echo -n "Birch-Otter-Lamp83" | cryptsetup open --type luks /dev/nvme0n1p3 home --key-file=-',
     'Birch-Otter-Lamp83'),
    ("echo 'K9v!rT3qLw' | gpg --batch --passphrase-fd 0 -d notes.gpg > notes.txt", 'K9v!rT3qLw'),
    ('printf "Tulip_Frost_19" | ansible-vault view --vault-password-file=/dev/stdin secrets.yml', 'Tulip_Frost_19'),
    ("ssh-keygen -p -f ~/.ssh/id_rsa -P 'Old_Pass_2022' -N 'New_Pass_2025'", 'New_Pass_2025'),
    ("ssh-keygen -p -f ~/.ssh/id_rsa -P 'Old_Pass_2022' -N 'New_Pass_2025'", 'Old_Pass_2022'),
    ('qpdf --decrypt --password=Xr4!tuLm29 transcript.pdf plain.pdf', 'Xr4!tuLm29'),
    ('pdftk 成绩单.pdf input_pw Zq7mL2x9Vb output plain.pdf', 'Zq7mL2x9Vb'),
    ("sshpass -p 'Fern#Cloud72' ssh lin@10.0.0.8 'uptime'", 'Fern#Cloud72'),
    ("pdftotext -upw 'Lime9!kiwi' report.pdf -", 'Lime9!kiwi'),
    ('C:\\Tools> UnRAR.exe x -pBluePine#44 课件.rar', 'BluePine#44'),
    ("xfreerdp /u:lin /p:'Stone_Wave_31' /v:10.1.1.4 +clipboard", 'Stone_Wave_31'),
    ('sqlplus hr/Quartz_Mint_62@//db.example.edu:1521/XEPDB1 @report.sql', 'Quartz_Mint_62'),
    ('expdp system/Ember_Fox_73 schemas=HR directory=DP dumpfile=hr.dmp', 'Ember_Fox_73'),
    ('conn.execute("PRAGMA key = \'Nova!Reed57\'")', 'Nova!Reed57'),
    ("ATTACH DATABASE 'diary.db' AS diary KEY 'Jade#Lynx28';", 'Jade#Lynx28'),
    ('keyring.set_password("mail", "lin@example.com", "Pearl_Moth_90")', 'Pearl_Moth_90'),
    ('vault.setPassword(account, "Cedar!Hawk31");', 'Cedar!Hawk31'),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_password_handed_to_a_program_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    'echo "backup finished" | mail -s "nightly" root',
    'echo $VAULT_PASS | ansible-vault view --vault-password-file=/dev/stdin s.yml',
    "ssh-keygen -t ed25519 -N '' -f ~/.ssh/id_course",
    'ssh-keygen -l -f ~/.ssh/id_course.pub',
    'sqlplus / as sysdba',
    "PRAGMA journal_mode = WAL;\nPRAGMA key = '<your passphrase>';",
    'keyring.set_password(service, username, password)',
    'qpdf --password=$PDF_PASS --decrypt in.pdf out.pdf',
    "echo 'hello world' | sudo tee /etc/motd",
    'cat notes.txt | gpg --passphrase-fd 0 --symmetric',
    'The flag -N sets the new passphrase of ssh-keygen; leave it empty for none.',
], ids=lambda t: t[:24])
def test_a_program_without_a_password_passes(text: str) -> None:
    assert found(text) == []


# ----- a recovery phrase in any container: markup between its words, tabs, parts on their own lines, words
# run together — by its checksum -----------------------------------------------------------------------------

_KO = "미팅 감소 연기 활기 손님 태풍 일정 기간 고장 몸무게 무엇 지금".split()
_FR = "besace géologie tournage optique scinder combat dopamine croquer réflexe vassal station brusque".split()
_ES = ("lacra ataque leche destino huida desvío sumar freno utopía finito franja nómina idioma misa dilema pieza "
       "aplicar esencia pesa placa pedal oleada traer cuneta").split()
_IT = ("mancia splendido cortese tralcio utilizzo aria chiedere responso bizzarro occorrere calamaro recondito "
       "indole dado cursore relazione guidare pillola").split()
_EN = "live reveal romance wreck pink broom wink average season physical screen target".split()
_EN24 = ("clarify service duty above pyramid garlic method imitate whip company slot shallow index under protect "
         "warm spice alpha slot since fantasy merry online ability").split()
_PT = "nadador fugir iogurte desenho alegria legista palmada fatia sinopse osso sinopse espiga".split()
_CS = "naprosto vyslovit butik sobota lucerna postava zkoumat nijak burza linka nikterak otisk".split()
_JA = "もくし れんこん いわば のべる くかん らしんばん とかす しかく はしご ねいろ らくがき てぬき".split()


def _rows(words: list[str], per: int, cell: str, row: str) -> str:
    return "\n".join(row.format(cell.join(words[i:i + per])) for i in range(0, len(words), per))


@pytest.mark.parametrize(("text", "words"), [
    ('<table>\n' + _rows(_KO, 4, '</td><td>', '<tr><td>{}</td></tr>') + '\n</table>', _KO),
    ('\\begin{tabular}{llll}\n' + _rows(_FR, 4, ' & ', '{} \\\\ \\hline') + '\n\\end{tabular}', _FR),
    ('[09:12] 我: (1/2) ' + ' '.join(_ES[:12]) + '\n[09:12] 我: (2/2) ' + ' '.join(_ES[12:]), _ES),
    ('riga A: ' + ' '.join(_IT[:6]) + '\nriga B: ' + ' '.join(_IT[6:12]) + '\nriga C: ' + ' '.join(_IT[12:]), _IT),
    ('backup = "' + ''.join(w.capitalize() for w in _EN) + '"', [''.join(w.capitalize() for w in _EN)]),
    ('钱包（首字母大写连写）：' + ''.join(w.capitalize() for w in _EN24), [''.join(w.capitalize() for w in _EN24)]),
    (_rows(_PT, 3, '\t', '{}') + '\n', _PT),
    ('| 1 | 2 | 3 |\n|---|---|---|\n' + _rows(_CS, 3, ' | ', '| {} |'), _CS),
    ('<ol>' + ''.join(f'<li>{w}</li>' for w in _JA) + '</ol>', _JA),
], ids=["html-ko", "latex-fr", "chat-parts-es", "lines-it", "camel-en", "camel-en24", "tsv-pt", "md-cs", "li-ja"])
def test_a_phrase_in_any_container_is_withheld(text: str, words: list[str]) -> None:
    assert all(withheld(text, w) for w in words), found(text)


_ES_BAD = ("enlace luto cliente óxido febrero anotar santo sagaz caer coco defensa onza urbano testigo saque hebra "
           "grasa oleada parque padre sonido cetro vista ruptura").split()
_EN_BAD = "federal stock stock mosquito vocal hub vessel fuel juice accuse already sadness".split()
_PT_BAD = "degustar hipnose alfinete surfista esteira condor ossada branco gracejo judoca ateu motriz".split()
_FR_BAD = "majorer cascade aimable miroiter secouer profond perte dénuder faiblir juriste subtil affreux".split()


@pytest.mark.parametrize("text", [
    '[09:12] 我: (1/2) ' + ' '.join(_ES_BAD[:12]) + '\n[09:12] 我: (2/2) ' + ' '.join(_ES_BAD[12:]),
    'class ' + ''.join(w.capitalize() for w in _EN_BAD) + ' {}',
    _rows(_PT_BAD, 3, '\t', '{}') + '\n',
    '\\begin{tabular}{llll}\n' + _rows(_FR_BAD, 4, ' & ', '{} \\\\ \\hline') + '\n\\end{tabular}',
    'AbstractSingletonProxyFactoryBeanDefinitionRegistryPostProcessorAwareHandlerAdapterMapping',
    'Vocabulario de hoy:\nla casa grande junto al río\nun perro negro corre por el campo\n'
    'mi madre cocina arroz con pollo\nel tren sale temprano cada día\n',
], ids=["es-parts", "camel", "tsv-pt", "latex-fr", "java-name", "es-prose"])
def test_list_words_that_are_no_phrase_pass(text: str) -> None:
    assert found(text) == []


# ----- a licence plate after its word, in more languages (plurals, Greek letters), or a car named nearby -------


@pytest.mark.parametrize(("text", "secret"), [
    ('Hyrbil Göteborg\nreg.nr: ABC 12D\nNyckel i receptionen', 'ABC 12D'),
    ('Bil til hytta\nskiltnummer: EL 12345\n', 'EL 12345'),
    ('Auto Tartus\nnumbrimärk: 123 ABC\n', '123 ABC'),
    ('Alquiler (Buenos Aires)\npatente: AB 123 CD\n', 'AB 123 CD'),
    ('Carro da república\nplacas: BRA2E19\n', 'BRA2E19'),
    ('Αυτοκίνητο του ξενώνα\nαριθμός κυκλοφορίας: ΙΚΧ-4821\n', 'ΙΚΧ-4821'),
    ('Σταθμός: πινακίδα ΝΒΕ 3307 στο γκαράζ', 'ΝΒΕ 3307'),
    ('Host family car (Auckland)\nrego: LMN482\n', 'LMN482'),
    ('Carpool Mon/Wed — white Corolla, plate 7KQB214', '7KQB214'),
    ('{"vehicle": {"make": "Skoda", "spz": "3AB 4567"}}', '3AB 4567'),
    ('Parkeringstillstånd\nRegnr: XYZ 789\n', 'XYZ 789'),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_plate_after_its_word_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    'Patente: una patente protege un invento durante 20 años.',
    'placas de vídeo: RTX 4060 e RX 7600 (comparação)',
    'reg.nr i hyresavtalet står på sidan 2',
    'Registration for the car-free day opens at 9 (room B204).',
    'Carpool sign-up: plate numbers are collected by the office.',
    'πινακίδα: βλέπε φωτογραφία',
], ids=lambda t: t[:24])
def test_plate_words_without_a_plate_pass(text: str) -> None:
    assert found(text) == []


# ----- a value written as its characters' codes or as listed pieces ----------------------------------------

_GH = "ghp_R8xKq2mVb7TzKp4WcNd8Ls1Ye5Hu3Qa9Zt6"


def _codes(value: str, sep: str = ",") -> str:
    return sep.join(str(ord(c)) for c in value)


@pytest.mark.parametrize(("text", "secret"), [
    ("GITHUB_TOKEN = ''.join(['ghp_', 'R8xKq2mVb7', 'TzKp4WcNd8', 'Ls1Ye5Hu3Q', 'a9Zt6'])",
     "'ghp_', 'R8xKq2mVb7', 'TzKp4WcNd8', 'Ls1Ye5Hu3Q', 'a9Zt6'"),
    ("const token = ['ghp_', 'R8xKq2mVb7', 'TzKp4WcNd8', 'Ls1Ye5Hu3Q', 'a9Zt6'].join('');",
     "'ghp_', 'R8xKq2mVb7', 'TzKp4WcNd8', 'Ls1Ye5Hu3Q', 'a9Zt6'"),
    ("db_password = ''.join(['P','a','n','d','a','#','2','0','2','4','x','Q'])",
     "'P','a','n','d','a','#','2','0','2','4','x','Q'"),
    ('<a href="mailto:&#108;&#105;&#110;&#46;&#122;&#104;&#97;&#110;&#103;&#64;&#113;&#113;&#46;&#99;&#111;&#109;">写信</a>',
     '&#108;&#105;&#110;&#46;&#122;&#104;&#97;&#110;&#103;&#64;&#113;&#113;&#46;&#99;&#111;&#109;'),
    ('<span>手机：&#x31;&#x33;&#x38;&#x30;&#x30;&#x31;&#x33;&#x38;&#x30;&#x30;&#x30;</span>',
     '&#x31;&#x33;&#x38;&#x30;&#x30;&#x31;&#x33;&#x38;&#x30;&#x30;&#x30;'),
    ('key = bytes([' + _codes(_GH, ', ') + ']).decode()', _codes(_GH, ', ')),
    ("SMTP_PASSWORD = ''.join(map(chr, [" + _codes("Lotus#9921mail") + "]))", _codes("Lotus#9921mail")),
    ('String secret = new String(new char[]{' + ",".join(f"'{c}'" for c in "Qz7!mK2pLw9") + '});',
     ",".join(f"'{c}'" for c in "Qz7!mK2pLw9")),
    ('<script>var t = String.fromCharCode(' + _codes(_GH) + ');</script>', _codes(_GH)),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_value_spelled_in_codes_or_pieces_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    'fruits = ", ".join(["apple", "banana", "cherry"])',
    'console.log(String.fromCharCode(72, 101, 108, 108, 111, 33));',
    '<footer>&#169; 2024 &#8212; 版权所有</footer>',
    "alphabet = ''.join(['a','b','c','d','e','f','g','h','i','j','k','l'])",
    'digits = "".join(map(chr, range(48, 58)))',
    "path = '/'.join(['home', 'lin', 'notes', 'rust'])",
    'word = bytes([104, 101, 108, 108, 111]).decode()',
], ids=lambda t: t[:24])
def test_codes_and_pieces_that_spell_no_secret_pass(text: str) -> None:
    assert found(text) == []


# ----- markup around a label or a value; a label that mixes scripts; an extended private key by its prefix ----


@pytest.mark.parametrize(("text", "secret"), [
    ('\\begin{description}\n  \\item[Wi-Fi] 密码：\\texttt{Maple2024!x}\n\\end{description}', 'Maple2024!x'),
    ('<p>Password: <code>Birch_Lake_77</code></p>', 'Birch_Lake_77'),
    ('<li><strong>Mot de passe :</strong> <kbd>Tilleul#4491</kbd></li>', 'Tilleul#4491'),
    ('[b]Passwort:[/b] [code]Kiefer-88-Wald[/code]', 'Kiefer-88-Wald'),
    ('Database password: ``Lotus_2023x`` (reST notes)', 'Lotus_2023x'),
    ('<tr><td>API key</td><td><code>sk-live-9fQ2xLm7Rt4Wb8Kz1Np6Vc3Hy5Jd0Sa</code></td></tr>',
     'sk-live-9fQ2xLm7Rt4Wb8Kz1Np6Vc3Hy5Jd0Sa'),
    ('\\textbf{手机：}\\texttt{13800138000}', '13800138000'),
    ('API 키: 854448bae9cdb557ef44019e56b97e498ad3ef91', '854448bae9cdb557ef44019e56b97e498ad3ef91'),
    ('OpenAI API キー = 6f1c2a77e3b84d2fa6c10e5b7d9f3a21c4e8b0d2', '6f1c2a77e3b84d2fa6c10e5b7d9f3a21c4e8b0d2'),
    ('Git トークン: ghp_R8xKq2mVb7TzKp4WcNd8Ls1Ye5Hu3Qa9Zt6', 'ghp_R8xKq2mVb7TzKp4WcNd8Ls1Ye5Hu3Qa9Zt6'),
    ('descriptor: wpkh(xprv9s21ZrQH143K3GJpoapnV8SFfukcVBSfeCficPSGfubmSFDxo1kuHnLisriDvSnRRuL2Qrg5ggqHKNVpxR86Qe'
     'c6LTzG2XjN3TGGfrxe2k/84h/0h/0h/0/*)', 'xprv9s21ZrQH143K3GJpoapnV8SFfukcVBSfeCficPSGfubmSFDxo1kuHnLisriDvSnRRuL2Q'
     'rg5ggqHKNVpxR86Qec6LTzG2XjN3TGGfrxe2k'),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_value_in_markup_or_under_a_mixed_label_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    'Pass the flag \\texttt{--password} only in scripts, never \\texttt{-p}.',
    '<b>Password policy:</b> at least 12 characters, one digit.',
    'Password: <code>********</code>',
    '<label for="pwd">Password</label> <input type="password" id="pwd">',
    '[b]Hinweis:[/b] das Passwort steht im [i]Tresor[/i].',
    'Use ``getpass.getpass()`` to read a password without echo.',
    'API 키: 발급 페이지에서 확인',
    'Watch-only wallet: xpub6CUGRUonZSQ4TWtTMmzXdrXDtypWKiKrhko4egpiMZbpiaQL2jkwSB1icqYh2cfDfVxdx4df189oLKnC5fSwqPfgyP3hooxujYzAu3fDVmz',
], ids=lambda t: t[:24])
def test_markup_and_mixed_labels_without_a_secret_pass(text: str) -> None:
    assert found(text) == []


# ----- a value spelled out word by word, a value repeated without its label, a code that opens a lock ---------


@pytest.mark.parametrize(("text", "secret"), [
    ('Router (read out by the landlord): password Kilo Echo Lima 4 4 7 Papa Oscar', 'Kilo Echo Lima 4 4 7 Papa Oscar'),
    ('电话里念的 Wi-Fi 密码：Bravo Oscar Romeo Alfa 2 0 6 1\n记下来：bora2061', 'bora2061'),
    ('card number read out on the phone: four nine one six, three three eight five, zero six zero eight, two eight three two',
     'four nine one six, three three eight five, zero six zero eight, two eight three two'),
    ('my mobile: one three eight, zero zero one three, eight zero zero zero', 'one three eight, zero zero one three, eight zero zero zero'),
    ('API_KEY=sk-live-9fQ2xLm7Rt4Wb8Kz1Np6Vc3Hy5Jd0Sa\n...\nlater pasted again: sk-live-9fQ2xLm7Rt4Wb8Kz1Np6Vc3Hy5Jd0Sa',
     'sk-live-9fQ2xLm7Rt4Wb8Kz1Np6Vc3Hy5Jd0Sa'),
    ('密码：Tianqi_2019!\n（备忘：Tianqi_2019! 别忘了加感叹号）', 'Tianqi_2019!'),
    ('行李箱密码锁：0527', '0527'),
    ('Airbnb Lisboa — door code 4821#, lockbox code 0927', '4821#'),
    ('Airbnb Lisboa — door code 4821#, lockbox code 0927', '0927'),
    ('Appart Lyon : digicode 2580, 3e étage', '2580'),
    ('WG-Zimmer: Türcode 1357, Briefkasten links', '1357'),
    ('Casa en Sevilla — código del candado: 9 2 7 1', '9 2 7 1'),
    ('宿舍储物柜：自己设的 3306', '3306'),
    ('{"hostel": {"locker": 12, "locker_code": "4410"}}', '4410'),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_spelled_repeated_or_lock_value_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    'NATO alphabet drill: Alfa Bravo Charlie Delta Echo Foxtrot Golf Hotel India.',
    'She counted one two three four five six seven eight nine ten before diving.',
    'Hotel India Mike — the ship\'s call letters in the film are fictional.',
    '保险箱容量 200 升，门禁卡 2 张',
    'The safe for 100 people is the left room; door code rules: at least 4 digits.',
    'The combination C(10,3) = 120 counts the committees.',
    '行李箱密码锁 2019年买的，忘了密码怎么办？',
    'HTTP code 403 means forbidden; error code 5001 in the log',
], ids=lambda t: t[:24])
def test_spelled_words_and_lock_words_without_a_secret_pass(text: str) -> None:
    assert found(text) == []


# ----- small families: a card's code under its key, a session cookie by its framework's name, a marketplace
# token, a password in a URL's query after its user, "HP" for a mobile, a savings account by its word -----


@pytest.mark.parametrize(("text", "secret"), [
    ('{"card": {"number": "4916338506082832", "security_code": "517"}}', '517'),
    ('payment:\n  card_verification_value: 0423\n', '0423'),
    ('Card verification: 881 (back of the card)', '881'),
    ('cookies:\n  JSESSIONID: "8F2A9C41D7E3B5A06C1F4E9D2B7A8C35"\n', '8F2A9C41D7E3B5A06C1F4E9D2B7A8C35'),
    ('document.cookie = "PHPSESSID=r4nd0mk8s2lq9v7t3m1x6p0c5b";', 'r4nd0mk8s2lq9v7t3m1x6p0c5b'),
    ('requests.get(url, cookies={"sessid": "b1c9f2e7a4d85a3f"})', 'b1c9f2e7a4d85a3f'),
    ('$ npx vsce publish --pat 3kq9v7xmt2lp8r4wz6ny1cb5hd0gfj7a', '3kq9v7xmt2lp8r4wz6ny1cb5hd0gfj7a'),
    ('ovsx publish -p 5b2d8f41-7c9e-4a36-b1d0-e8f3a6c92b47', '5b2d8f41-7c9e-4a36-b1d0-e8f3a6c92b47'),
    ('curl "http://10.0.0.9:8086/query?u=lin&p=Fjord%21Pine42&q=SHOW+DATABASES"', 'Fjord%21Pine42'),
    ('rtsp://cam.local/stream?user=admin&pwd=Harbor_77x', 'Harbor_77x'),
    ('<iframe src="https://nas.example.edu/login.cgi?login=lin&pass=Mesa.Tide.Oak42">', 'Mesa.Tide.Oak42'),
    ('Landlord (Penang)\nTel. bimbit: 012-345 6789\n', '012-345 6789'),
    ('RA office\nHP: 9123 4567\n', '9123 4567'),
    ('Joint A/C: 0123-456789-01 (for rent)', '0123-456789-01'),
    ('Salary acct: 1234 5678 9012 — OCBC', '1234 5678 9012'),
    ('Current Acct No. 220-33445-6, pay by transfer', '220-33445-6'),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_small_family_value_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    'SMS verification code: 4821 (expires in 5 minutes)',
    'cookies:\n  JSESSIONID: ${SESSION_COOKIE}\n',
    'vsce publish --pat $VSCE_PAT',
    'https://example.edu/search?u=lin&p=2',
    'HP: 100/100, MP: 40/60 after the boss fight',
    'HP LaserJet Pro M404 — printer in room 3',
    'Savings acct interest: 2.5% a year',
    'The session id (PHPSESSID) is stored in a cookie named by session.name.',
], ids=lambda t: t[:24])
def test_small_family_words_without_a_value_pass(text: str) -> None:
    assert found(text) == []


# ----- identity numbers of more countries, by their checks: Austria's SVNR, Ecuador's and Uruguay's cédula ----


@pytest.mark.parametrize(("text", "secret"), [
    ('Dienstgeber-Meldung\nVersicherungsnummer: 2601 120875\n', '2601 120875'),
    ('{"mitarbeiter": "L. Zhang", "svnr": "6523061272"}', '6523061272'),
    ('e-card Nr. 6940 160976 (Kopie beim Arzt)', '6940 160976'),
    ('Ficha de inscripción (Quito)\nCédula de ciudadanía: 2021488594\n', '2021488594'),
    ('nombre,cedula,telefono\nAna Torres,1656629944,\n', '1656629944'),
    ('Cédula (anfitrión, Guayaquil): 055051901-1', '055051901-1'),
    ('Montevideo — cédula de identidad: 1.808.602-6', '1.808.602-6'),
    ('huesped:\n  pais: Uruguay\n  cedula: 7.232.309-6\n', '7.232.309-6'),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_an_identity_number_of_more_countries_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    'Versicherungsnummer: 1237 010181 (Polizze der Haftpflicht, Beispiel aus dem Formular)',
    'Cédula: 1234567890 es un número de ejemplo del instructivo',
    'e-card: 24 Stunden Hotline 0800 500 180',
    'La cédula tiene 10 dígitos; el último es un dígito verificador.',
], ids=lambda t: t[:24])
def test_identity_words_of_more_countries_without_a_number_pass(text: str) -> None:
    assert found(text) == []


# ----- a home's address in more shapes: Ukrainian and Bulgarian streets, Peru's blocks and lots, a stairway door
# and an estate's zone in Chinese, a geohash under its word -------------------------------------------------


@pytest.mark.parametrize(("text", "secret"), [
    ('Мій новий адрес:\nвул. Шевченка, буд. 12, кв. 45, Львів', 'вул. Шевченка, буд. 12, кв. 45'),
    ('Доставка додому: просп. Науки, буд. 7, кв. 103, Харків', 'просп. Науки, буд. 7, кв. 103'),
    ('Адрес за пратки (квартира): бул. Витоша 18, ап. 6, София', 'бул. Витоша 18'),
    ('Mi casa (Arequipa)\nDirección: Mz. B Lt. 14, Urb. Santa Rosa, Cerro Colorado', 'Mz. B Lt. 14'),
    ('Envío a: Jr. Huallaga 512, Dpto. 401, Cercado de Lima', 'Jr. Huallaga 512, Dpto. 401'),
    ('姥姥家：北京市西城区白纸坊东街3号楼2门601', '3号楼2门601'),
    ('{"收件人": "王芳", "detail": "碧桂园5期12栋2单元803"}', '碧桂园5期12栋2单元803'),
    ('home_geohash: "wx4g0bm6c"  # 宿舍', 'wx4g0bm6c'),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_home_address_in_more_shapes_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    '这学期选了 3 门 2 学分的课，还有 2 门选修',
    'Вул. Франка — одна з найстаріших вулиць Львова.',
    'En Lima, "Mz." significa manzana y "Lt." lote: así se escriben las direcciones.',
    'Geohash precision 9 is about 5 m; "wtw3" covers Shanghai (format example).',
    '第2区的第3栋是图书馆，第5期工程明年完工',
], ids=lambda t: t[:24])
def test_address_words_without_a_home_pass(text: str) -> None:
    assert found(text) == []


# ----- a password in a tool's own file (most were found before this session; an element with attributes was not) ---


@pytest.mark.parametrize(("text", "secret"), [
    ('<Server><Host>ftp.example.edu</Host><User>lin</User><Pass encoding="base64">SnVuaXBlciNCcm9vazQ1</Pass></Server>',
     'SnVuaXBlciNCcm9vazQ1'),
    ('<credential kind="plain" user="lin"><secret scope="lab">r8Xq2mVb7TzKp4WcNd8Ls1Ye</secret></credential>',
     'r8Xq2mVb7TzKp4WcNd8Ls1Ye'),
    ('db.example.edu:5432:grades:lin:Quill_Otter_58\n', 'Quill_Otter_58'),
    ('machine api.example.com\n  login lin\n  password Vela#Crane21\n', 'Vela#Crane21'),
    ('network={\n    ssid="Dorm_5G"\n    psk="Kestrel-2024-rain"\n}\n', 'Kestrel-2024-rain'),
    ('{"auths": {"registry.example.com": {"auth": "bGluOkhhemVsLU1vc3MtMzE="}}}', 'bGluOkhhemVsLU1vc3MtMzE='),
    ("poll imap.example.edu protocol IMAP user 'lin' password 'Heron^Bay52'\n", 'Heron^Bay52'),
    ('[Sessions\\lab]\nHostName=10.0.0.5\nUserName=lin\nPassword=Lark-Stone-39\n', 'Lark-Stone-39'),
    ('<add key="ClearTextPassword" value="Juniper#Brook45" />', 'Juniper#Brook45'),
    ('Server=db;Database=school;User Id=lin;Password=Finch#Glade44;', 'Finch#Glade44'),
], ids=lambda t: t[:24] if isinstance(t, str) else "")
def test_a_password_in_a_tools_file_is_withheld(text: str, secret: str) -> None:
    assert withheld(text, secret), found(text)


@pytest.mark.parametrize("text", [
    '<Pass encoding="base64"></Pass>',
    '<span class="pass">Pass</span> <em class="hint">at least 12 characters</em>',
    '<password-policy min-length="12">strict</password-policy>',
], ids=lambda t: t[:24])
def test_a_tools_file_without_a_password_passes(text: str) -> None:
    assert found(text) == []
