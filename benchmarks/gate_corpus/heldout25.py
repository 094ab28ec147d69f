r"""Held-out batch 25: generated with heldout24 before any session-20 rule, and not read while the rules were written.

What country-by-country rules do not carry (heldout20): identifiers after a label in their own language or
in a form row, homes known by their parts, passwords known by their role (bare, spelled, char arrays), plates
in other scripts, e-mails read aloud, keys without a prefix, phrases in another keyboard layout;
benchmarks/gate_corpus/gen24.py (seed 2525; other countries, languages and phrasings of heldout24's families).
97 cases: resident_id 20, passport 8, licence_plate 8, address 20, password 18, email 8, api_key 8, recovery_phrase 3, mobile 4.
First run, on main 553ef51 before any detector changed (`.venv/bin/python benchmarks/bench_gate.py`):
33/97 found (34.0 %): api_key 6/8, password 4/18, resident_id 3/20, mobile 4/4, email 2/8, passport 6/8,
address 8/20, recovery_phrase 0/3, licence_plate 0/8. Its negatives (negatives24): 0 of 30 flagged. Only these
counts were read before the rules changed; no miss was looked at.

Shapes, one per case (category: shape):
resident_id: a Nicaraguan cédula
resident_id: a Salvadoran DUI
resident_id: a Cuban carné de identidad
resident_id: a Jamaican TRN
resident_id: an Ivorian CNI number
resident_id: a Bhutanese CID
resident_id: a Maldivian ID card
resident_id: an Afghan e-Tazkira in Persian digits
resident_id: a North Macedonian EMBG in Cyrillic prose
resident_id: a Maltese ID card number
resident_id: a Portuguese Cartão de Cidadão
resident_id: a Sudanese national number in Arabic
resident_id: a Somali ID in Somali
resident_id: a Papua New Guinea NID
resident_id: an Ecuador-style ID in Quechua/Spanish prose
resident_id: an ID in an Indonesian form table (Nama / Tanggal lahir / Nomor)
resident_id: a document number in a tab-separated roster beside a name and birth date
resident_id: an ID in JSON under a Portuguese key
resident_id: an Ethiopian Fayda FAN in Amharic
resident_id: a Haitian NIF in Haitian Creole
passport: a Swahili pasipoti
passport: a Tagalog numero ng pasaporte
passport: a Portuguese passaporte nº
passport: a Dutch paspoortnummer
passport: a Swedish passnummer
passport: a Hungarian útlevélszám
passport: a Ukrainian foreign passport
passport: a Japanese 旅券番号
licence_plate: a Saudi plate in Arabic letters
licence_plate: a Sri Lankan plate
licence_plate: a Mongolian plate in Cyrillic
licence_plate: a Kazakh plate
licence_plate: a Georgian plate
licence_plate: a Chilean plate
licence_plate: a Japanese plate in full-width digits
licence_plate: a Cambodian plate
address: a Colombo number/sub-number, road, zone
address: a Lalitpur ward/house
address: a Yangon number/floor/road/township
address: a Ghana digital address
address: a Rabat appartement/immeuble/rue
address: a Tunis résidence/bloc/app
address: a Tehran street/alley/plaque/unit in Persian
address: a Havana calle # e/ (between streets)
address: a Lima jirón/departamento
address: a Sofia complex/block/entrance/floor/flat
address: a Romanian str./nr./bl./sc./et./ap.
address: a Tashkent district/quarter/house/flat in Uzbek
address: a Zagreb street, floor (kat), flat (stan)
address: a Helsinki street number staircase flat
address: a Japanese 丁目番号 address with a building and room number
address: a Korean jibun address with floor
address: an Amsterdam canal house with floor suffix
address: a Belgrade boulevard and flat in Cyrillic
address: a Taipei address with 號之 (sub-number)
address: a Lisbon street, floor and side
password: an Italian parola d'ordine
password: a Swedish lösenordet är
password: a Czech heslo je
password: a Romanian parola este
password: a Greek κωδικός
password: a Hebrew הסיסמה היא
password: a Persian رمز عبور
password: a Tagalog ang password ay
password: a Hinglish 'mera password hai'
password: a German Kennwort in prose
password: a password spelled out in Chinese with 大写 marks
password: a password with spaces between the characters
password: a password as a Rust char array
password: a password as char codes in JavaScript
password: login:pass pair with no word for password
password: a Korean 비밀번호는 in prose
password: an Indonesian sandinya
password: a Ukrainian пароль
email: an Italian e-mail read aloud (chiocciola/punto)
email: a Czech e-mail read aloud (zavináč/tečka)
email: a French e-mail read aloud (arobase/point)
email: a Portuguese e-mail read aloud (arroba/ponto)
email: a Swedish e-mail read aloud (snabel-a/punkt)
email: a Chinese e-mail read aloud with at and 点
email: a Turkish e-mail read aloud (et/nokta)
email: an e-mail with (at) and (dot)
api_key: a French clé API
api_key: a Chinese 秘钥 (typo of 密钥) in prose
api_key: a Russian ключ API
api_key: a Korean API 키
api_key: an app secret after 'secret' in an English sentence
api_key: a token in Portuguese prose
api_key: a key given in two halves in Chinese
api_key: a value under an unnamed field of a credentials object
recovery_phrase: a seed phrase typed in the Arabic layout
recovery_phrase: a seed phrase typed in the Ukrainian layout
recovery_phrase: a seed phrase typed in the Persian layout
mobile: a Bhutanese mobile
mobile: an Iranian mobile in Persian digits
mobile: a Cambodian mobile
mobile: a Haitian mobile
"""

from benchmarks.gate_corpus import Case

CASES: list[Case] = [
    Case('h25-001', 'resident_id', 'note',
         'Cédula de identidad nicaragüense 290-240379-4807Z',
         ('290-240379-4807Z',)),
    Case('h25-002', 'resident_id', 'note',
         'Mi DUI es 02515236-5',
         ('02515236-5',)),
    Case('h25-003', 'resident_id', 'note',
         'carné de identidad: 79032411560',
         ('79032411560',)),
    Case('h25-004', 'resident_id', 'note',
         'TRN 139-378-990 — needed for the UWI form',
         ('139-378-990',)),
    Case('h25-005', 'resident_id', 'note',
         'N° CNI : C 1299 3304 33, délivrée à Abidjan',
         ('C 1299 3304 33',)),
    Case('h25-006', 'resident_id', 'note',
         'CID No. 29225168960 (for the RUB admission)',
         ('29225168960',)),
    Case('h25-007', 'resident_id', 'note',
         'ID card number A-420404',
         ('A-420404',)),
    Case('h25-008', 'resident_id', 'note',
         'شماره تذکره: ۱۳۹۵-۶۶۲۶-۸۶۸۳۷',
         ('۱۳۹۵-۶۶۲۶-۸۶۸۳۷',)),
    Case('h25-009', 'resident_id', 'note',
         'ЕМБГ: 2403979488807',
         ('2403979488807',)),
    Case('h25-010', 'resident_id', 'note',
         'Numru tal-karta tal-identità: 185884H',
         ('185884H',)),
    Case('h25-011', 'resident_id', 'note',
         'Nº do Cartão de Cidadão 89793726 3 LT9',
         ('89793726 3 LT9',)),
    Case('h25-012', 'resident_id', 'note',
         'الرقم الوطني 205-1649-5065',
         ('205-1649-5065',)),
    Case('h25-013', 'resident_id', 'note',
         'Lambarka aqoonsiga: 8868032943',
         ('8868032943',)),
    Case('h25-014', 'resident_id', 'note',
         'NID number 78-310322-T, Port Moresby',
         ('78-310322-T',)),
    Case('h25-015', 'resident_id', 'note',
         'Ñuka cédula yupay: XPC337122',
         ('XPC337122',)),
    Case('h25-016', 'resident_id', 'md',
         '| Nama | Tanggal lahir | Nomor |\n|---|---|---|\n| Siti Aminah | 24-03-1979 | 790324645711 |\n',
         ('790324645711',)),
    Case('h25-017', 'resident_id', 'txt',
         'Nom\tNé le\tPièce\nFatou Diallo\t24/03/1979\tCL4735864\n',
         ('CL4735864',)),
    Case('h25-018', 'resident_id', 'json',
         '{"nome": "João Mavie", "numero_bi": "957096987743", "curso": "Direito"}',
         ('957096987743',)),
    Case('h25-019', 'resident_id', 'note',
         'የፋይዳ መለያ ቁጥር፡ 2399 3217 8635',
         ('2399 3217 8635',)),
    Case('h25-020', 'resident_id', 'note',
         'Nimewo NIF mwen: 587949842',
         ('587949842',)),
    Case('h25-021', 'passport', 'note',
         'Namba ya pasipoti yangu ni TY6232442',
         ('TY6232442',)),
    Case('h25-022', 'passport', 'note',
         'Numero ng pasaporte ko: P2256532Z',
         ('P2256532Z',)),
    Case('h25-023', 'passport', 'note',
         'passaporte nº XT916374, válido até 2030',
         ('XT916374',)),
    Case('h25-024', 'passport', 'note',
         'Mijn paspoortnummer is EHF0TTU26',
         ('EHF0TTU26',)),
    Case('h25-025', 'passport', 'note',
         'passnummer: 21927025 (gäller till 2032)',
         ('21927025',)),
    Case('h25-026', 'passport', 'note',
         'útlevélszám: RX7686187',
         ('RX7686187',)),
    Case('h25-027', 'passport', 'note',
         'закордонний паспорт FB219958, дійсний до 2028',
         ('FB219958',)),
    Case('h25-028', 'passport', 'note',
         '旅券番号：TG5494460',
         ('TG5494460',)),
    Case('h25-029', 'licence_plate', 'note',
         'رقم لوحة سيارتي ح د ك 3067',
         ('ح د ك 3067',)),
    Case('h25-030', 'licence_plate', 'note',
         'Vehicle no: CP BWG-3929 (van for the trip)',
         ('CP BWG-3929',)),
    Case('h25-031', 'licence_plate', 'note',
         'Машины дугаар 3164 УНБ',
         ('3164 УНБ',)),
    Case('h25-032', 'licence_plate', 'note',
         'Мемлекеттік нөмір: 232 APC 01',
         ('232 APC 01',)),
    Case('h25-033', 'licence_plate', 'note',
         'მანქანის ნომერი RK-163-UB',
         ('RK-163-UB',)),
    Case('h25-034', 'licence_plate', 'note',
         'la patente de mi auto es ZRPK-25',
         ('ZRPK-25',)),
    Case('h25-035', 'licence_plate', 'note',
         'ナンバー：品川 ５２４ ら ２１－３５',
         ('品川 ５２４ ら ２１－３５',)),
    Case('h25-036', 'licence_plate', 'note',
         'ស្លាកលេខរថយន្ត 1D-3622 ភ្នំពេញ',
         ('1D-3622',)),
    Case('h25-037', 'address', 'note',
         'Home: No. 61/9, Duplication Road, Colombo 14',
         ('No. 61/9, Duplication Road, Colombo 14',)),
    Case('h25-038', 'address', 'note',
         'Ghar: Ward No. 18, Kupondole, House 292, Lalitpur',
         ('Ward No. 18, Kupondole, House 292',)),
    Case('h25-039', 'address', 'note',
         'Please deliver to No. 38, 1th Floor, Bogyoke Aung San Road, Latha Township, Yangon',
         ('No. 38, 1th Floor, Bogyoke Aung San Road, Latha Township',)),
    Case('h25-040', 'address', 'note',
         'My GhanaPostGPS is AK-650-4712 (house)',
         ('AK-650-4712',)),
    Case('h25-041', 'address', 'note',
         'Mon adresse : Appt 4, Imm 21, Rue Oued Sebou, Agdal, Rabat',
         ('Appt 4, Imm 21, Rue Oued Sebou',)),
    Case('h25-042', 'address', 'note',
         "J'habite Résidence El Amen, Bloc C, App 7, El Menzah 6",
         ('Résidence El Amen, Bloc C, App 7',)),
    Case('h25-043', 'address', 'note',
         'آدرس خانه: تهران، خیابان شریعتی، کوچه ۳۶، پلاک ۸۹، واحد ۶',
         ('خیابان شریعتی، کوچه ۳۶، پلاک ۸۹، واحد ۶',)),
    Case('h25-044', 'address', 'note',
         'Mi casa: Calle 12 #873 e/ L y M, Vedado',
         ('Calle 12 #873 e/ L y M',)),
    Case('h25-045', 'address', 'note',
         'Mi dirección: Jr. Junín 953 Dpto. 545, Cercado de Lima',
         ('Jr. Junín 953 Dpto. 545',)),
    Case('h25-046', 'address', 'note',
         'Адрес: София, ж.к. Младост 1, бл. 79, вх. В, ет. 1, ап. 90',
         ('ж.к. Младост 1, бл. 79, вх. В, ет. 1, ап. 90',)),
    Case('h25-047', 'address', 'note',
         'Adresa mea: Str. Zorilor nr. 56, bl. C4, sc. 3, et. 9, ap. 9, Cluj-Napoca',
         ('Str. Zorilor nr. 56, bl. C4, sc. 3, et. 9, ap. 9',)),
    Case('h25-048', 'address', 'note',
         'Manzilim: Toshkent, Yunusobod tumani, 17-kvartal, 23-uy, 60-xonadon',
         ('Yunusobod tumani, 17-kvartal, 23-uy, 60-xonadon',)),
    Case('h25-049', 'address', 'note',
         'Moja adresa: Ilica 214, 5. kat, stan 2, 10000 Zagreb',
         ('Ilica 214, 5. kat, stan 2',)),
    Case('h25-050', 'address', 'note',
         'Osoitteeni: Runeberginkatu 62 B 60, 00100 Helsinki',
         ('Runeberginkatu 62 B 60',)),
    Case('h25-051', 'address', 'note',
         '住所：大阪府大阪市北区梅田1丁目15番2号 シャトー緑865',
         ('大阪府大阪市北区梅田1丁目15番2号 シャトー緑865',)),
    Case('h25-052', 'address', 'note',
         '집 주소: 서울 신림동 457-42 5층',
         ('신림동 457-42 5층',)),
    Case('h25-053', 'address', 'note',
         'Mijn adres: Keizersgracht 660-hs, 1015 CJ Amsterdam',
         ('Keizersgracht 660-hs',)),
    Case('h25-054', 'address', 'note',
         'Моја адреса: Булевар краља Александра 182, стан 56, Београд',
         ('Булевар краља Александра 182, стан 56',)),
    Case('h25-055', 'address', 'note',
         '新家在台北市中山北路4段92巷23號之6',
         ('中山北路4段92巷23號之6',)),
    Case('h25-056', 'address', 'note',
         'Morada: Rua do Alecrim 120, 4.º Esq., 1100-060 Lisboa',
         ('Rua do Alecrim 120, 4.º Esq.',)),
    Case('h25-057', 'password', 'note',
         "la parola d'ordine del gruppo è simbaZubr58?",
         ('simbaZubr58?',)),
    Case('h25-058', 'password', 'note',
         'lösenordet till skrivaren är mawar1973',
         ('mawar1973',)),
    Case('h25-059', 'password', 'note',
         'heslo do školní sítě je BaobabHoasen67!',
         ('BaobabHoasen67!',)),
    Case('h25-060', 'password', 'note',
         'parola de la wifi este hoaSenTulpan10?',
         ('hoaSenTulpan10?',)),
    Case('h25-061', 'password', 'note',
         'ο κωδικός του wifi είναι Melati!552',
         ('Melati!552',)),
    Case('h25-062', 'password', 'note',
         'הסיסמה של הוויי-פיי היא Kartal2014',
         ('Kartal2014',)),
    Case('h25-063', 'password', 'note',
         'رمز عبور ایمیلم: QvgH#0y%O',
         ('QvgH#0y%O',)),
    Case('h25-064', 'password', 'note',
         'ang password ng wifi ay CedroKiwi21$',
         ('CedroKiwi21$',)),
    Case('h25-065', 'password', 'note',
         'mera gmail ka password hai Vesna*456 yaar',
         ('Vesna*456',)),
    Case('h25-066', 'password', 'note',
         'das Kennwort fürs Labor ist TPe&X@A81vUS3',
         ('TPe&X@A81vUS3',)),
    Case('h25-067', 'password', 'note',
         '密码逐个字母念：大写D、u、h、大写T、v、x、大写4、5',
         ('大写D、u、h、大写T、v、x、大写4、5',)),
    Case('h25-068', 'password', 'note',
         'wifi pass (spaced so you can read it): p v b 8 n 1 w 3',
         ('p v b 8 n 1 w 3',)),
    Case('h25-069', 'password', 'note',
         "let pw: [char; 9] = ['5', 'G', 'E', 'b', 'O', '4', 'Y', 'p', 'x'];",
         ("'5', 'G', 'E', 'b', 'O', '4', 'Y', 'p', 'x'",)),
    Case('h25-070', 'password', 'note',
         'const pass = String.fromCharCode(70, 78, 98, 121, 108, 120, 71, 88);',
         ('70, 78, 98, 121, 108, 120, 71, 88',)),
    Case('h25-071', 'password', 'note',
         'ftp lab — lihua:pp5C89UKv',
         ('pp5C89UKv',)),
    Case('h25-072', 'password', 'note',
         '도서관 컴퓨터 비밀번호는 Cedro!645 입니다',
         ('Cedro!645',)),
    Case('h25-073', 'password', 'note',
         'sandinya simbaMelati15!, jangan disebar ya',
         ('simbaMelati15!',)),
    Case('h25-074', 'password', 'note',
         'пароль до вайфаю — Kiwi-369',
         ('Kiwi-369',)),
    Case('h25-075', 'email', 'note',
         'scrivimi a giulia.rossi chiocciola gmail punto it',
         ('giulia.rossi chiocciola gmail punto it',)),
    Case('h25-076', 'email', 'note',
         'můj e-mail je jan.novak zavináč seznam tečka cz',
         ('jan.novak zavináč seznam tečka cz',)),
    Case('h25-077', 'email', 'note',
         'mon adresse mail : claire_d arobase orange point fr',
         ('claire_d arobase orange point fr',)),
    Case('h25-078', 'email', 'note',
         'meu e-mail é ana_paula arroba uol ponto com ponto br',
         ('ana_paula arroba uol ponto com ponto br',)),
    Case('h25-079', 'email', 'note',
         'maila mig på anna_l snabel-a gmail punkt se',
         ('anna_l snabel-a gmail punkt se',)),
    Case('h25-080', 'email', 'note',
         '我的邮箱：zhaolei at 139 点 com',
         ('zhaolei at 139 点 com',)),
    Case('h25-081', 'email', 'note',
         'mail adresim ayse_k et hotmail nokta com',
         ('ayse_k et hotmail nokta com',)),
    Case('h25-082', 'email', 'note',
         'email: li.hua (at) 163 (dot) cn',
         ('li.hua (at) 163 (dot) cn',)),
    Case('h25-083', 'api_key', 'note',
         'ma clé API pour la météo : KoyXIYC7pqVFXy79dqvQCt0mkuoviO5h',
         ('KoyXIYC7pqVFXy79dqvQCt0mkuoviO5h',)),
    Case('h25-084', 'api_key', 'note',
         '地图接口的秘钥是 0480bd3cde5006641d8c42c8c3a96864ee626377',
         ('0480bd3cde5006641d8c42c8c3a96864ee626377',)),
    Case('h25-085', 'api_key', 'note',
         'ключ API сервиса: ef2044c6419dc3f085f0c7a09d8349ac',
         ('ef2044c6419dc3f085f0c7a09d8349ac',)),
    Case('h25-086', 'api_key', 'note',
         'API 키: ozPlCvv7jgsIofN9nw8C-XcQEMBJEPtbrmeVBsad-7C (유출 금지)',
         ('ozPlCvv7jgsIofN9nw8C-XcQEMBJEPtbrmeVBsad-7C',)),
    Case('h25-087', 'api_key', 'note',
         "the app's secret is SrCAiYRmpkaeH3z010SNeqZW, don't commit it",
         ('SrCAiYRmpkaeH3z010SNeqZW',)),
    Case('h25-088', 'api_key', 'note',
         'o token de acesso da API é AYeOQayoPzq7rmHqzfJhf5n7SKpaOWIFx6Fs',
         ('AYeOQayoPzq7rmHqzfJhf5n7SKpaOWIFx6Fs',)),
    Case('h25-089', 'api_key', 'note',
         'key 前半段 cOofQ2tph5bKKFJLU0\n后半段 N1mzIPbHpGHAVgwxtN',
         ('cOofQ2tph5bKKFJLU0', 'N1mzIPbHpGHAVgwxtN')),
    Case('h25-090', 'api_key', 'json',
         '{"credentials": {"svc": "iFVFt4wdEZ9Lea9YtqzHcVtDaY0SlSALAhWRplnK"}}',
         ('iFVFt4wdEZ9Lea9YtqzHcVtDaY0SlSALAhWRplnK',)),
    Case('h25-091', 'recovery_phrase', 'note',
         'عبارة الاسترداد: ؤثىفعقغ سصشح لشهى قشىؤا ثةلاخيغ ةخفاثق ساخخف ثةحخصثق بهقة ثؤاخ صثشسثم ةشسفثق',
         ('ؤثىفعقغ سصشح لشهى قشىؤا ثةلاخيغ ةخفاثق ساخخف ثةحخصثق بهقة ثؤاخ صثشسثم ةشسفثق',)),
    Case('h25-092', 'recovery_phrase', 'note',
         'seed (забув перемкнути розкладку): кщгтв штіусе ьфтфпу ірудд учсгіу икшіл щиіукму інкгз ьфкиду зкщмшву ащкпуе сдщсл',
         ('кщгтв штіусе ьфтфпу ірудд учсгіу икшіл щиіукму інкгз ьфкиду зкщмшву ащкпуе сдщсл',)),
    Case('h25-093', 'recovery_phrase', 'note',
         'کلمات بازیابی کیف پول: فخغ یهسزخرثق لخخسث زقثیهف خقحاشد سشمپخد سزشمث فقشح زعققثدف حعمم زخهد عسثبعم',
         ('فخغ یهسزخرثق لخخسث زقثیهف خقحاشد سشمپخد سزشمث فقشح زعققثدف حعمم زخهد عسثبعم',)),
    Case('h25-094', 'mobile', 'note',
         'My mobile: +975 17 718 577',
         ('+975 17 718 577',)),
    Case('h25-095', 'mobile', 'note',
         'شماره همراه من ۰۹۸۸ ۳۵۹ ۱۹۷۴',
         ('۰۹۸۸ ۳۵۹ ۱۹۷۴',)),
    Case('h25-096', 'mobile', 'note',
         'លេខទូរស័ព្ទ +855 12 201 477',
         ('+855 12 201 477',)),
    Case('h25-097', 'mobile', 'note',
         'nimewo telefòn mwen se +509 44 34 9046',
         ('+509 44 34 9046',)),
]
