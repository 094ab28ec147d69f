r"""Held-out batch 24: structural cases across locales, generated before the session-20 rules and read while they were written.

What country-by-country rules do not carry (heldout20): identifiers after a label in their own language or
in a form row, homes known by their parts, passwords known by their role (bare, spelled, char arrays), plates
in other scripts, e-mails read aloud, keys without a prefix, phrases in another keyboard layout;
benchmarks/gate_corpus/gen24.py (seed 2424).
111 cases: resident_id 30, passport 8, licence_plate 8, address 22, password 20, email 8, api_key 8, recovery_phrase 3, mobile 4.
First run, on main 553ef51 before any detector changed (`.venv/bin/python benchmarks/bench_gate.py`):
41/111 found (36.9 %): api_key 3/8, password 6/20, resident_id 7/30, mobile 4/4, email 2/8, passport 7/8,
address 9/22, recovery_phrase 0/3, licence_plate 3/8. Its negatives (negatives23): 1 of 40 flagged.

Shapes, one per case (category: shape):
resident_id: a Peruvian DNI after 'DNI N°'
resident_id: a Bolivian C.I. with its department
resident_id: a Paraguayan cédula with dots
resident_id: a Honduran DNI with birth year
resident_id: a Costa Rican cédula in 1-0000-0000 groups
resident_id: a Panamanian cédula
resident_id: a Nepali citizenship number in Devanagari digits
resident_id: a Bangladeshi 17-digit NID in Bengali digits
resident_id: a Cambodian ID card number in Khmer prose
resident_id: a Lao ID card number
resident_id: an Azerbaijani FIN code (7 characters)
resident_id: a Kyrgyz PIN (14 digits, sex and birth date)
resident_id: a Belarusian identification number (14 characters)
resident_id: a Tunisian CIN in Arabic
resident_id: a Moroccan CIN letters+digits in French
resident_id: a Senegalese CNI number in groups
resident_id: a Tanzanian NIDA number
resident_id: a Ugandan NIN (14 characters)
resident_id: a Rwandan national ID in Kinyarwanda
resident_id: a Zambian NRC
resident_id: a Zimbabwean national ID
resident_id: a Mozambican BI
resident_id: a Philippine PhilSys card number
resident_id: a Korean foreigner registration number
resident_id: a Japanese residence card number
resident_id: an ID in a Swahili form table beside a name and a birth date
resident_id: a document number in a CSV beside a name and a birth date
resident_id: a Jordanian national number in Arabic
resident_id: a Malagasy CIN in groups
resident_id: an ID in JSON under a Spanish key
passport: a passport number in a Spanish sentence
passport: a Russian internal passport series and number
passport: a Turkish passport in Turkish prose
passport: a Korean passport number
passport: a German Reisepass number (letters and digits)
passport: a Thai passport in Thai
passport: a Vietnamese passport
passport: a passport number in a visa form file
licence_plate: a Dubai plate letter + number
licence_plate: a Nepali plate in Devanagari
licence_plate: a Shanghai plate in full-width letters
licence_plate: a Thai plate
licence_plate: a Russian plate in Cyrillic
licence_plate: an Indian plate
licence_plate: a Vietnamese plate
licence_plate: a Bangladeshi plate in Bengali
address: a Lahore house/block/colony
address: a Dhaka flat/house/road/area
address: a Mongolian district/khoroo/building/door
address: an Almaty microdistrict/house/flat
address: a Ukrainian street/building/flat
address: a Bogotá carrera # - Apto
address: a Buenos Aires avenue with floor and flat
address: a Czech street, floor (patro) and flat (byt)
address: a Riga street with flat after a dash
address: a Budapest street, floor (em.) and door (ajtó)
address: a Polish ul. number/number m. flat
address: a Greek street and floor
address: a Cairo flat/floor/street in Arabic
address: a Hebrew street and flat
address: a Philippine block/lot/phase/barangay
address: an Abuja plot/avenue/estate
address: a Tokyo chōme-ban-gō with a building and room
address: a Seoul road-name address with dong/ho
address: a Hong Kong village house lot
address: an Armenian street and flat
address: a Georgian avenue and flat
address: an Addis Ababa kebele/house
password: a Wi-Fi password bare in English prose, no label word
password: a Spanish 'la clave es' in prose
password: a Polish hasło in prose
password: a Swahili nenosiri
password: a Hindi पासवर्ड in Devanagari prose
password: a Malay kata laluan
password: a Japanese パスワードは in prose
password: a Korean 비번 (slang)
password: a Russian пароль in prose
password: a password spelled letter by letter with dashes
password: a password spelled with commas after 'spelled'
password: a password as a char list in Python
password: a password as a C char array
password: a password as a Java char[]
password: user / password after a slash, no label
password: a password in a Chinese chat line without 密码 (口令)
password: a French mdp abbreviation
password: a Vietnamese pass in prose
password: a Dutch wachtwoord in prose
password: a Turkish şifresi in prose
email: a Korean e-mail read aloud (골뱅이/닷)
email: a Russian e-mail read aloud (собака/точка)
email: an English e-mail read aloud (at/dot)
email: a Chinese e-mail read aloud (艾特/点)
email: a Spanish e-mail read aloud (arroba/punto)
email: a Polish e-mail read aloud (małpa/kropka)
email: a Japanese e-mail read aloud (アットマーク/ドット)
email: an e-mail with [at] and [dot]
api_key: a hex key after 'the API key for'
api_key: a base62 token with only 'token I got' before it
api_key: a Spanish 'clave de la API'
api_key: a Japanese APIキー in prose
api_key: a German API-Schlüssel
api_key: a client secret in Chinese prose without a label word
api_key: a key split over two lines
api_key: an unnamed value under credentials in YAML
recovery_phrase: a seed phrase typed in the Russian layout
recovery_phrase: a seed phrase typed in the Hebrew layout
recovery_phrase: a seed phrase typed in the Greek layout
mobile: an Ethiopian mobile
mobile: a Nepali mobile in Devanagari digits
mobile: a Mongolian mobile
mobile: a Senegalese mobile
"""

from benchmarks.gate_corpus import Case

CASES: list[Case] = [
    Case('h24-001', 'resident_id', 'note',
         'Para la matrícula: DNI N° 70172797, emitido en Arequipa',
         ('70172797',)),
    Case('h24-002', 'resident_id', 'note',
         'Mi C.I. es 5786011 LP, por si lo piden en la beca',
         ('5786011 LP',)),
    Case('h24-003', 'resident_id', 'note',
         'Cédula de Identidad Civil Nº 8.464.754',
         ('8.464.754',)),
    Case('h24-004', 'resident_id', 'note',
         'Número de identidad: 0810-1979-84581 (Tegucigalpa)',
         ('0810-1979-84581',)),
    Case('h24-005', 'resident_id', 'note',
         'cédula 1-0315-0246, para el TEC',
         ('1-0315-0246',)),
    Case('h24-006', 'resident_id', 'note',
         'La cédula panameña de mi tía: 9-813-5551',
         ('9-813-5551',)),
    Case('h24-007', 'resident_id', 'note',
         'नागरिकता प्रमाणपत्र नं. ५९-०४-६२-८६४४५',
         ('५९-०४-६२-८६४४५',)),
    Case('h24-008', 'resident_id', 'note',
         'জাতীয় পরিচয়পত্র নম্বর: ১৯৭৯৯৮৯০৬৩৯৭৭৮৩৫২',
         ('১৯৭৯৯৮৯০৬৩৯৭৭৮৩৫২',)),
    Case('h24-009', 'resident_id', 'note',
         'អត្តសញ្ញាណប័ណ្ណ លេខ 498942489',
         ('498942489',)),
    Case('h24-010', 'resident_id', 'note',
         'ບັດປະຈຳຕົວ ເລກທີ 7702831059',
         ('7702831059',)),
    Case('h24-011', 'resident_id', 'note',
         'Şəxsiyyət vəsiqəsi FİN kodu: 5QRDU8B',
         ('5QRDU8B',)),
    Case('h24-012', 'resident_id', 'note',
         'ПИН: 21009197919945 — для общежития',
         ('21009197919945',)),
    Case('h24-013', 'resident_id', 'note',
         'Идентификационный номер: 6100979C670PB4',
         ('6100979C670PB4',)),
    Case('h24-014', 'resident_id', 'note',
         'بطاقة التعريف الوطنية عدد 05953399',
         ('05953399',)),
    Case('h24-015', 'resident_id', 'note',
         'Ma CIN : BE978397 (pour le dossier de bourse)',
         ('BE978397',)),
    Case('h24-016', 'resident_id', 'note',
         "Numéro d'identification nationale : 1 550 1979 83672",
         ('1 550 1979 83672',)),
    Case('h24-017', 'resident_id', 'note',
         'Namba ya NIDA: 19790910-48030-36649-29',
         ('19790910-48030-36649-29',)),
    Case('h24-018', 'resident_id', 'note',
         'NIN: CF79323A3VTLFQ for the scholarship form',
         ('CF79323A3VTLFQ',)),
    Case('h24-019', 'resident_id', 'note',
         "Nimero y'indangamuntu: 1 1979 8 3499653 5 17",
         ('1 1979 8 3499653 5 17',)),
    Case('h24-020', 'resident_id', 'note',
         'my NRC is 228753/93/1',
         ('228753/93/1',)),
    Case('h24-021', 'resident_id', 'note',
         'ID number 16-831441 C 53 (for the bursary)',
         ('16-831441 C 53',)),
    Case('h24-022', 'resident_id', 'note',
         'BI n.º 810772933628R, Maputo',
         ('810772933628R',)),
    Case('h24-023', 'resident_id', 'note',
         'PhilSys Card Number (PCN): 4901-1615-3231-6491',
         ('4901-1615-3231-6491',)),
    Case('h24-024', 'resident_id', 'note',
         '외국인등록번호: 790910-7527395',
         ('790910-7527395',)),
    Case('h24-025', 'resident_id', 'note',
         '在留カード番号は UA46021485RL です',
         ('UA46021485RL',)),
    Case('h24-026', 'resident_id', 'md',
         '| Jina | Tarehe ya kuzaliwa | Namba |\n|---|---|---|\n| Amina Mohamed | 10/09/1979 | V5642694N |\n',
         ('V5642694N',)),
    Case('h24-027', 'resident_id', 'txt',
         'full_name,birth_date,doc_no\nAyesha Rahman,1979-09-10,P3347046B\n',
         ('P3347046B',)),
    Case('h24-028', 'resident_id', 'note',
         'الرقم الوطني: 8169190092',
         ('8169190092',)),
    Case('h24-029', 'resident_id', 'note',
         'Karapanondro (CIN) laharana 115 193 534 595',
         ('115 193 534 595',)),
    Case('h24-030', 'resident_id', 'json',
         '{"nombre": "Lucía Quispe", "num_documento": "987904807106", "carrera": "Medicina"}',
         ('987904807106',)),
    Case('h24-031', 'passport', 'note',
         'Mi número de pasaporte es PZ5970637, vence en 2029',
         ('PZ5970637',)),
    Case('h24-032', 'passport', 'note',
         'Паспорт серия 71 99 № 231587, выдан ОВД',
         ('71 99 № 231587',)),
    Case('h24-033', 'passport', 'note',
         'pasaport numaram U24284038, vize başvurusu için',
         ('U24284038',)),
    Case('h24-034', 'passport', 'note',
         '여권번호 M59633640 로 항공권 예약',
         ('M59633640',)),
    Case('h24-035', 'passport', 'note',
         'Reisepass-Nr. H1ZGW91R1, gültig bis 2031',
         ('H1ZGW91R1',)),
    Case('h24-036', 'passport', 'note',
         'หนังสือเดินทางเลขที่ LK5737713',
         ('LK5737713',)),
    Case('h24-037', 'passport', 'note',
         'Hộ chiếu số: N8176218, cấp tại Hà Nội',
         ('N8176218',)),
    Case('h24-038', 'passport', 'txt',
         'Surname: Haddad\nGiven names: Rami\nDate of birth: 12 MAR 1996\nTravel document no.: B40194155\nNationality: LBN\n',
         ('B40194155',)),
    Case('h24-039', 'licence_plate', 'note',
         'my car plate is Dubai N 18472, parked in B2',
         ('N 18472',)),
    Case('h24-040', 'licence_plate', 'note',
         'मेरो गाडीको नम्बर बा ६ च ६६१० हो',
         ('बा ६ च ६६१०',)),
    Case('h24-041', 'licence_plate', 'note',
         '车牌：沪Ａ·Ｆ１７Ａ６，停在 B2',
         ('沪Ａ·Ｆ１７Ａ６',)),
    Case('h24-042', 'licence_plate', 'note',
         'ทะเบียนรถ กข 1571 กรุงเทพมหานคร',
         ('กข 1571',)),
    Case('h24-043', 'licence_plate', 'note',
         'Госномер машины С560НЕ 50, парковка у общежития',
         ('С560НЕ 50',)),
    Case('h24-044', 'licence_plate', 'note',
         'Bike no. DL 37 XK 3171 — parking sticker for hostel',
         ('DL 37 XK 3171',)),
    Case('h24-045', 'licence_plate', 'note',
         'Biển số xe của mình: 53F-876.99',
         ('53F-876.99',)),
    Case('h24-046', 'licence_plate', 'note',
         'গাড়ির নম্বর ঢাকা মেট্রো-গ ৫৭-১১৬৭',
         ('ঢাকা মেট্রো-গ ৫৭-১১৬৭',)),
    Case('h24-047', 'address', 'note',
         'Mera pata: House No. 87-B, Block C, Johar Town, Lahore',
         ('House No. 87-B, Block C, Johar Town',)),
    Case('h24-048', 'address', 'note',
         'Send the parcel to Flat 2C, House 41, Road 18, Banani, Dhaka 1213',
         ('Flat 2C, House 41, Road 18, Banani',)),
    Case('h24-049', 'address', 'note',
         'Гэрийн хаяг: Улаанбаатар, Чингэлтэй дүүрэг, 2-р хороо, 60-р байр, 92 тоот',
         ('Чингэлтэй дүүрэг, 2-р хороо, 60-р байр, 92 тоот',)),
    Case('h24-050', 'address', 'note',
         'Адрес: Алматы, мкр. Самал-2, д. 84, кв. 132',
         ('мкр. Самал-2, д. 84, кв. 132',)),
    Case('h24-051', 'address', 'note',
         'Моя адреса: вул. Сагайдачного, буд. 78, кв. 19, Львів',
         ('вул. Сагайдачного, буд. 78, кв. 19',)),
    Case('h24-052', 'address', 'note',
         'Mi dirección en Bogotá: Cra 67 # 76-25 Apto 623',
         ('Cra 67 # 76-25 Apto 623',)),
    Case('h24-053', 'address', 'note',
         'Vivo en Av. Rivadavia 949, 6° A, CABA',
         ('Av. Rivadavia 949, 6° A',)),
    Case('h24-054', 'address', 'note',
         'Adresa: Lidická 40, 1. patro, byt 26, 120 00 Praha 2',
         ('Lidická 40, 1. patro, byt 26',)),
    Case('h24-055', 'address', 'note',
         'Mana adrese: Tērbatas iela 113 - 57, Rīga, LV-1001',
         ('Tērbatas iela 113 - 57',)),
    Case('h24-056', 'address', 'note',
         'Címem: 1062 Budapest, Váci út 62. 5. em. 5. ajtó',
         ('Váci út 62. 5. em. 5. ajtó',)),
    Case('h24-057', 'address', 'note',
         'Adres: ul. Piotrkowska 14/85 m. 21, 00-514 Warszawa',
         ('ul. Piotrkowska 14/85 m. 21',)),
    Case('h24-058', 'address', 'note',
         'Η διεύθυνσή μου: Οδός Πατησίων 135, 3ος όροφος, 105 63 Αθήνα',
         ('Οδός Πατησίων 135, 3ος όροφος',)),
    Case('h24-059', 'address', 'note',
         'عنواني: شقة 9، الدور الرابع، 71 شارع التحرير، الجيزة',
         ('شقة 9، الدور الرابع، 71 شارع التحرير',)),
    Case('h24-060', 'address', 'note',
         'הכתובת שלי: רחוב ויצמן 80 דירה 6, תל אביב',
         ('רחוב ויצמן 80 דירה 6',)),
    Case('h24-061', 'address', 'note',
         'Address ko: Blk 1 Lot 6, Phase 5, Brgy. Malanday, Quezon City',
         ('Blk 1 Lot 6, Phase 5, Brgy. Malanday',)),
    Case('h24-062', 'address', 'note',
         'My house: Plot 494, 5th Avenue, Gwarinpa Estate, Abuja',
         ('Plot 494, 5th Avenue, Gwarinpa Estate',)),
    Case('h24-063', 'address', 'note',
         '引っ越し先は世田谷区三軒茶屋3-2-4 メゾン桜309号室です',
         ('三軒茶屋3-2-4 メゾン桜309号室',)),
    Case('h24-064', 'address', 'note',
         '주소: 서울시 마포구 동교로 28길 8, 106동 603호',
         ('동교로 28길 8, 106동 603호',)),
    Case('h24-065', 'address', 'note',
         'Our village house is Lot 441 in D.D. 78, Sai Kung',
         ('Lot 441 in D.D. 78',)),
    Case('h24-066', 'address', 'note',
         'Հասցե՝ Երևան, Թումանյան փ. 39, բն. 39',
         ('Թումանյան փ. 39, բն. 39',)),
    Case('h24-067', 'address', 'note',
         'მისამართი: თბილისი, წერეთლის გამზ. 65, ბ. 11',
         ('წერეთლის გამზ. 65, ბ. 11',)),
    Case('h24-068', 'address', 'note',
         'I live in Bole sub-city, Kebele 17, House No. 1520, Addis Ababa',
         ('Kebele 17, House No. 1520',)),
    Case('h24-069', 'password', 'note',
         "grandma's wifi is uh8VEAO7&Eu btw, the router is behind the TV",
         ('uh8VEAO7&Eu',)),
    Case('h24-070', 'password', 'note',
         'oye, la clave del wifi de la biblioteca es L7cynWJ7cWs!a',
         ('L7cynWJ7cWs!a',)),
    Case('h24-071', 'password', 'note',
         'hasło do routera to JY7$k4hM1vwE$ (nie zmieniaj)',
         ('JY7$k4hM1vwE$',)),
    Case('h24-072', 'password', 'note',
         'Nenosiri la wifi ni Girasol-504',
         ('Girasol-504',)),
    Case('h24-073', 'password', 'note',
         'मेरा ईमेल का पासवर्ड है M%rU2wmgVXX',
         ('M%rU2wmgVXX',)),
    Case('h24-074', 'password', 'note',
         'kata laluan portal pelajar: hBNjrieqDcAeI',
         ('hBNjrieqDcAeI',)),
    Case('h24-075', 'password', 'note',
         '学校のWi-Fiのパスワードはmelati2012だよ',
         ('melati2012',)),
    Case('h24-076', 'password', 'note',
         '동아리방 와이파이 비번 Zubr1993 임',
         ('Zubr1993',)),
    Case('h24-077', 'password', 'note',
         'пароль от почты: Vesna1989, не забудь',
         ('Vesna1989',)),
    Case('h24-078', 'password', 'note',
         'The password, letter by letter: D-D-4-R-G-2-G-T',
         ('D-D-4-R-G-2-G-T',)),
    Case('h24-079', 'password', 'note',
         'his laptop login is spelled k, 8, r, p, j, f, x',
         ('k, 8, r, p, j, f, x',)),
    Case('h24-080', 'password', 'py',
         "PW_CHARS = ['m', 'a', 'w', 'a', 'r', '2', '0', '1', '4']\npw = ''.join(PW_CHARS)\n",
         ("'m', 'a', 'w', 'a', 'r', '2', '0', '1', '4'",)),
    Case('h24-081', 'password', 'note',
         "char secret[] = {'Q','A','G','i','R','k','V','N','p','1','\\0'};",
         ("'Q','A','G','i','R','k','V','N','p','1'",)),
    Case('h24-082', 'password', 'note',
         'char[] pass = new char[] { \'l\', \'o\', \'a\', \'C\', \'Y\', \'C\', \'7\', \'I\', \'J\' };\nconn.login("lihua", pass);',
         ("'l', 'o', 'a', 'C', 'Y', 'C', '7', 'I', 'J'",)),
    Case('h24-083', 'password', 'note',
         'router admin / CedroVesna67$ (change it!)',
         ('CedroVesna67$',)),
    Case('h24-084', 'password', 'note',
         '教务系统口令改成了 LotusTulpan11!，别外传',
         ('LotusTulpan11!',)),
    Case('h24-085', 'password', 'note',
         'mdp du compte ENT : v4j2CU5QBRvY1',
         ('v4j2CU5QBRvY1',)),
    Case('h24-086', 'password', 'note',
         'pass wifi quán cà phê là BaobabZubr44$ nhé',
         ('BaobabZubr44$',)),
    Case('h24-087', 'password', 'note',
         'het wachtwoord van de printer is Orchid1975',
         ('Orchid1975',)),
    Case('h24-088', 'password', 'note',
         'okul wifi şifresi UIGzVcIBj imiş',
         ('UIGzVcIBj',)),
    Case('h24-089', 'email', 'note',
         '메일 주소는 jiwoo_kim 골뱅이 gmail 닷 net 이에요',
         ('jiwoo_kim 골뱅이 gmail 닷 net',)),
    Case('h24-090', 'email', 'note',
         'пиши мне на ivan.petrov собака rambler точка ru',
         ('ivan.petrov собака rambler точка ru',)),
    Case('h24-091', 'email', 'note',
         'her email is amy underscore chen at proton dot com, write to her',
         ('amy underscore chen at proton dot com',)),
    Case('h24-092', 'email', 'note',
         '邮箱是 zhangwei 艾特 163 点 com，有事发邮件',
         ('zhangwei 艾特 163 点 com',)),
    Case('h24-093', 'email', 'note',
         'mi correo: lucia99 arroba gmail punto com',
         ('lucia99 arroba gmail punto com',)),
    Case('h24-094', 'email', 'note',
         'napisz na kasia.nowak małpa onet kropka pl',
         ('kasia.nowak małpa onet kropka pl',)),
    Case('h24-095', 'email', 'note',
         'メールは kenji アットマーク yahoo ドット co ドット jp まで',
         ('kenji アットマーク yahoo ドット co ドット jp',)),
    Case('h24-096', 'email', 'note',
         'contact: chenhao [at] qq [dot] com',
         ('chenhao [at] qq [dot] com',)),
    Case('h24-097', 'api_key', 'note',
         'the API key for the weather service: 3dcc8f63fd9078b626a4f188e9d28b34',
         ('3dcc8f63fd9078b626a4f188e9d28b34',)),
    Case('h24-098', 'api_key', 'note',
         'token I got from the portal — QYhs8hTQnW4cuYwe06B8OLvr1GKqd93RNteWEwtn',
         ('QYhs8hTQnW4cuYwe06B8OLvr1GKqd93RNteWEwtn',)),
    Case('h24-099', 'api_key', 'note',
         'clave de la API del proyecto: mEAm3WWO_lbdzn1S-jQ_KuGdZzgL9UcEJxMO',
         ('mEAm3WWO_lbdzn1S-jQ_KuGdZzgL9UcEJxMO',)),
    Case('h24-100', 'api_key', 'note',
         'APIキーはJ3bbmvBPEfYYhkkNxWwiV1PJxsJrfu12です。公開しないで',
         ('J3bbmvBPEfYYhkkNxWwiV1PJxsJrfu12',)),
    Case('h24-101', 'api_key', 'note',
         'Mein API-Schlüssel lautet 15a607c681a435f1ed0b92f9cb3f7aa56ae763e0',
         ('15a607c681a435f1ed0b92f9cb3f7aa56ae763e0',)),
    Case('h24-102', 'api_key', 'note',
         '后台给的 client secret 是 k1Ve6i5ridZcQ97WUFwcnCj4srt5，下周过期',
         ('k1Ve6i5ridZcQ97WUFwcnCj4srt5',)),
    Case('h24-103', 'api_key', 'note',
         'map key part 1: 2NlwYEi787ka6PdyROKl\nand the rest: 38OIr3K7LSUf3zXMi6SZ',
         ('2NlwYEi787ka6PdyROKl', '38OIr3K7LSUf3zXMi6SZ')),
    Case('h24-104', 'api_key', 'yaml',
         'credentials:\n  weather:\n    value: "ifaKYnnNQHBdsZeGXm4QaSMftRRn8u5zRJOIz4Vl+sjVTGev"\n',
         ('ifaKYnnNQHBdsZeGXm4QaSMftRRn8u5zRJOIz4Vl+sjVTGev',)),
    Case('h24-105', 'recovery_phrase', 'note',
         'сид фраза (раскладку забыл переключить): тщшыу ензшсфд кгп пкфшт вкшз сщьу ыуфыщт ыефиду ещлут скшьу фгсешщт фшыду',
         ('тщшыу ензшсфд кгп пкфшт вкшз сщьу ыуфыщт ыефиду ещлут скшьу фгсешщт фшыду',)),
    Case('h24-106', 'recovery_phrase', 'note',
         "wallet backup — יקגעקיםע 'ןרק ןמבםצק דםופ ערןא ברומבי כםםג כםךג כשרצ ןמהםךהק שררקדא רןעיא",
         ("יקגעקיםע 'ןרק ןמבםצק דםופ ערןא ברומבי כםםג כםךג כשרצ ןמהםךהק שררקדא רןעיא",)),
    Case('h24-107', 'recovery_phrase', 'note',
         'φράση ανάκτησης: ςηαλε ωαλωε μαιλ λιβραρυ αρρανγε τιμε μινδ φοαμ ροβοτ ςαιτ πλθγ κιδ',
         ('ςηαλε ωαλωε μαιλ λιβραρυ αρρανγε τιμε μινδ φοαμ ροβοτ ςαιτ πλθγ κιδ',)),
    Case('h24-108', 'mobile', 'note',
         'ስልክ ቁጥሬ +251 93 432 2992 ነው',
         ('+251 93 432 2992',)),
    Case('h24-109', 'mobile', 'note',
         'मेरो मोबाइल नम्बर ९८४१६६०४५९ हो',
         ('९८४१६६०४५९',)),
    Case('h24-110', 'mobile', 'note',
         'Утас: +976 9354 3106',
         ('+976 9354 3106',)),
    Case('h24-111', 'mobile', 'note',
         'Mon numéro portable : 070 164 76 49',
         ('070 164 76 49',)),
]
