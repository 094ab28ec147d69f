"""The word for a password in the languages people write their notes in: one table for every detector.

A label, a form's field or a chat line names a password in its writer's language, whatever the
language of the rest of the note (a Catalan university's "contrasenya", a Mongolian class's "нууц
үг", a Tamil office's "கடவுச்சொல்"). The words come from the languages' own software (the login
screens of the big operating systems and web services), not from any one batch of cases, so a label
in a language nobody tested is read like the ones that were.

``WORDS`` are regexes, matched case-insensitively on normalised text; ``ALONE`` are words that are
also an ordinary word or any code's name (Latvian "parole" is French for speech, "šifra predmeta" a
course's code, Uzbek "parol"), counted only as the whole label. ``ANCHORS`` are the plain
lower-case strings one of which every word starts with (the labelled-value reader's one pass over a
text); ``FIRST_CHARS`` their first letters in both cases (a regex of the words is guarded by them, so
the engine tries its hundred alternatives only where one can start).
"""

from __future__ import annotations

WORDS: tuple[str, ...] = (
    # Romance, Germanic, Celtic, Basque
    r"contrase[ñn]a", r"contrasenya", r"contrasinal", r"mot\s+de\s+passe", r"senha", r"palavra-passe",
    r"parola\s+d['’]ordine", r"parolă", r"passwort", r"kennwort", r"wachtwoord", r"wagwoord", r"l[öo]senord",
    r"adgangskode", r"kodeord", r"passord", r"lykilor[ðd]", r"loynior[ðd]", r"pasfhocal", r"cyfrinair",
    r"facal-faire", r"pasahitza", r"pasvorto",
    # Finnic, Baltic, Slavic, Hungarian, Albanian, Greek
    r"salasana", r"salas[õo]na", r"parool", r"slapta[žz]odis", r"(?<![a-z])heslo(?![a-z])", r"has[łl]o",
    r"(?<![a-z])geslo(?![a-z])", r"lozinka", r"лозинка", r"пароль", r"парола", r"jelsz[óo]", r"fjal[ëe]kalim",
    r"κωδικ[οό]ς\s+πρ[οό]σβασης", r"συνθηματικ[οό]",
    # Turkic, Mongolian, Caucasus
    r"[şs]ifr[eə](?!\s*(?:en\s+az|kural))", r"құпия\s+сөз", r"сырсөз", r"серсүз", r"нууц\s+үг", r"maxfiy\s+so.z",
    r"პაროლი", r"գաղտնաբառ",
    # Semitic, Iranian, Indic, Dravidian, Sinhala
    r"סיסמ[הא]", r"كلمة\s+(?:المرور|السر)", r"رمز\s+(?:المرور|عبور)", r"گذرواژه", r"کلمه\s+عبور", r"پاس\s*ورڈ",
    r"पासवर्ड", r"कूटशब्द", r"পাসওয়ার্ড", r"ਪਾਸਵਰਡ", r"પાસવર્ડ", r"ପାସୱାର୍ଡ", r"கடவுச்\s*சொல்", r"கடவுச்சொல்",
    r"పాస్\s*వర్డ్", r"ಪಾಸ್\s*ವರ್ಡ್", r"പാസ്\s*വേഡ്", r"මුරපදය",
    # South-east Asia
    r"รหัสผ่าน", r"ລະຫັດຜ່ານ", r"ពាក្យ\s*សម្ងាត់", r"စကားဝှက်", r"m[aậ]t\s+kh[aẩ]u", r"kata\s+(?:sandi|laluan)",
    # Africa
    r"nenosiri", r"neno\s+la\s+siri", r"iphasiwedi", r"kalmar\s+sirri", r"የይለፍ\s*ቃል", r"tenimiafina",
)
# Words that are also another word: only the whole label ("Parole: …", "šifra: …", "MDP : …").
ALONE: tuple[str, ...] = (r"parola", r"parole", r"parol", r"sandi", r"[šs]ifra", r"шифра", r"рамз", r"mdp",
                          r"κωδικ[οό]ς?")
ANCHORS: tuple[str, ...] = (
    "contrase", "contrasenya", "contrasinal", "mot de passe", "senha", "palavra-passe", "parola", "parol",
    "passwort", "kennwort", "wachtwoord", "wagwoord", "lösenord", "losenord", "adgangskode", "kodeord", "passord",
    "lykilor", "loynior", "pasfhocal", "cyfrinair", "facal-faire", "pasahitza", "pasvorto", "salasana", "salas",
    "parool", "slapta", "heslo", "hasło", "haslo", "geslo", "lozinka", "лозинка", "пароль", "парол", "jelsz",
    "fjalëkalim", "fjalekalim", "κωδικ", "συνθηματικ", "şifr", "sifr", "құпия", "сырсөз", "серсүз", "нууц",
    "maxfiy", "პაროლი", "գաղտնաբառ", "סיסמ", "كلمة", "رمز", "گذرواژه", "کلمه", "پاس", "पासवर्ड", "कूटशब्द",
    "পাসওয়ার্ড", "ਪਾਸਵਰਡ", "પાસવર્ડ", "ପାସୱାର୍ଡ", "கடவுச்", "పాస్", "ಪಾಸ್", "പാസ്", "මුරපදය", "รหัสผ่าน",
    "ລະຫັດຜ່ານ", "ពាក្យ", "စကားဝှက်", "mật khẩu", "mat khau", "kata sandi", "kata laluan", "sandi", "nenosiri",
    "neno la siri", "iphasiwedi", "kalmar sirri", "የይለፍ", "tenimiafina", "šifra", "шифра", "рамз", "mdp",
)
# The combining marks of the scripts above (Indic and South-east Asian vowel signs and viramas are marks,
# not letters, so ``\w`` stops inside கடவுச்சொல் without them).
MARKS = ("\u0300-\u036f\u0483-\u0489\u0591-\u05c7\u0600-\u06ff\u0900-\u0dff\u0e00-\u0eff\u1000-\u109f"
         "\u1780-\u17ff\u135d-\u135f")

FIRST_CHARS = "".join(sorted({c for w in ANCHORS for c in (w[0], w[0].upper())}))

PATTERN = "|".join(WORDS) + "|" + "|".join(rf"^{w}$" for w in ALONE)
