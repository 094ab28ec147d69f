r"""Held-out batch 21: adversarial cases by family, generated before the session-19 rules and read while they were written.

Families the sealed heldout17 missed most (national IDs with their checks, plates in Latin letters or
other scripts, addresses by structure, mobiles in payment handles and links, keys in encodings, dumps and
tools' output, passwords given to tools); benchmarks/gate_corpus/gen21.py (seed 2121).
133 cases: resident_id 24, licence_plate 16, address 30, mobile 14, password 25, api_key 24.
First run, on main 7ec9777 before any detector changed (`.venv/bin/python benchmarks/bench_gate.py`):
79/133 found (59.4 %): resident_id 15/24, licence_plate 8/16, address 18/30, mobile 5/14, password 17/25,
api_key 16/24. Its negatives (negatives20): 6 of 56 flagged.
After session 19's rules (DETECTOR_VERSION 58): 130/133 and 0 of 56 flagged. Left: a South African plate with
no word for a plate (h21-039), and two mobiles the generator drew outside any mobile range (h21-079's Norwegian
number starts with 5, h21-083's Korean one with 014); h21-008's personas kods has twelve digits (a generator
slip: the form has eleven) and is found only because a number right after its word counts.

Shapes, one per case (category: shape):
resident_id: a Swiss AHV number 756.xxxx.xxxx.xx (EAN-13 check)
resident_id: an Austrian social insurance number with its check digit
resident_id: a German Steuer-ID in groups (ISO 7064 check)
resident_id: a UK NHS number in 3-3-4 (mod 11)
resident_id: an Icelandic kennitala
resident_id: a Slovenian EMŠO
resident_id: a Hungarian TAJ number
resident_id: a Latvian personas kods (old form, with check)
resident_id: a Luxembourg matricule (Luhn + Verhoeff)
resident_id: a Spanish NSS with slashes (mod 97)
resident_id: a German Rentenversicherungsnummer
resident_id: a US Medicare MBI
resident_id: a Mongolian register number (two Cyrillic letters + 8 digits)
resident_id: a Brazilian CNS (Cartão SUS)
resident_id: a Chinese ID written with a lower-case x or in 6-8-4 groups
resident_id: a Uruguayan cédula with its check digit
resident_id: an Indian PAN
resident_id: an Egyptian national ID in Eastern Arabic digits
resident_id: a Saudi iqama number
resident_id: a US ITIN
resident_id: a Ghana Card PIN
resident_id: a Nigerian NIN after its acronym
resident_id: a Korean RRN in a table column headed in Korean
resident_id: a Singapore NRIC in JSON under a field named for it
licence_plate: a Chinese plate with the province in pinyin
licence_plate: a Chinese plate with a Traditional province character
licence_plate: a Beijing plate in pinyin with the middle dot
licence_plate: a Japanese plate in romaji
licence_plate: a Korean plate romanised
licence_plate: a Hong Kong plate under 車牌
licence_plate: a Macau plate
licence_plate: a Finnish plate after rekisterinumero
licence_plate: a Danish plate
licence_plate: a Portuguese plate
licence_plate: a Greek plate in Greek capitals
licence_plate: an Israeli plate
licence_plate: an Argentine Mercosur plate
licence_plate: a Kenyan plate
licence_plate: a South African Gauteng plate
licence_plate: an Ontario plate in a parking permit file
address: a Glasgow tenement flat 2/1 after the street
address: a US rural route box
address: a Hyderabad H.No. with slashes
address: a Lagos address with 'off' another road
address: a Phnom Penh # house on a numbered street
address: a Copenhagen floor and side (3. tv.)
address: a Japanese address in kanji numerals
address: GPS coordinates of a home photo in EXIF output
address: an Indian flat number in a named building
address: an Islamabad house/street/sector
address: a Dubai villa on a numbered street
address: a Korean apartment dong/ho
address: a Shanghai lane address 路弄号室
address: a Taipei 段巷弄號樓 address
address: a Hong Kong flat/floor/block
address: a Brazilian rua/apto/bloco
address: a Mexico City calle/Int./Col.
address: a Russian ул./д./кв.
address: a Czech conscription/house number
address: a Vienna street/stair/door
address: an Italian via/scala/interno
address: a Spanish C/ number and floor
address: a Turkish Mah./Sok./No/D
address: a Thai house/moo/soi
address: an Indonesian Jl./No./RT/RW
address: a Hanoi số/ngõ/ngách
address: an Australian unit/number
address: an Irish Eircode alone
address: a French bis/bât./esc. address in Markdown
address: a what3words address for home
mobile: a Swish payee mobile
mobile: a Viber deep link with an encoded +
mobile: a Chinese mobile written with keycap emoji
mobile: an Alipay account that is a mobile
mobile: a wa.me link
mobile: a UPI id made of a mobile
mobile: a Bizum mobile
mobile: an MB WAY mobile
mobile: a Vipps number
mobile: a Chinese mobile in Han numerals
mobile: a tel: link with a Japanese mobile
mobile: a PayNow mobile
mobile: a Korean mobile in a KakaoPay line
mobile: a mobile under a German JSON field
password: an OpenVPN config with inline credentials
password: smbclient -U user%password unquoted
password: net use with password before /user
password: mount -t cifs -o username=,password=
password: nmcli wifi connect with password
password: netsh wlan show profile key=clear output
password: sqlcmd -P
password: docker login -p
password: ldapsearch -w
password: wget --password
password: chpasswd fed user:pass
password: a Cisco username line with a plaintext password
password: a JDBC URL with password=
password: git clone with user:pass in the URL
password: an Italian 'la password è'
password: a Portuguese 'a senha é'
password: a Turkish 'şifre:'
password: an Indonesian 'kata sandi'
password: a Vietnamese 'mật khẩu'
password: a Thai 'รหัสผ่าน'
password: an Arabic 'كلمة السر'
password: a Markdown table of accounts with a 密码 column
password: a PPPoE broadband account and password
password: a ZIP password in a chat note
password: schtasks /RP
api_key: a uuencoded .env
api_key: a key as a bash ANSI-C octal string
api_key: a key in strace write() output
api_key: a key in `strings core` output (environment of a crashed process)
api_key: a key split over two CSV cells
api_key: a token in hexdump -C output
api_key: a token in xxd output
api_key: a key fully percent-encoded in a URL
api_key: a key cut by a quoted-printable soft line break in a saved e-mail
api_key: a key in a JSON string with \u escapes
api_key: a key in curl -v output
api_key: a token in ps aux output
api_key: a token in /proc/PID/environ shown with ^@
api_key: a key in a numbered shell history
api_key: a key on a + line of git log -p
api_key: a key in kubectl get secret -o yaml (base64 data)
api_key: a key in docker inspect's Env array
api_key: a key as the positional argument of a CLI
api_key: a token in a URL path segment
api_key: a key in a Python traceback's locals
api_key: a token in Base32 after a decode hint
api_key: a key hidden with ROT13 in a tr command
api_key: a key in a HAR request header
api_key: a key in a Python bytes repr with \x escapes
"""

from benchmarks.gate_corpus import Case

CASES: list[Case] = [
    Case('h21-001', 'resident_id', 'note',
         'AHV-Nr. für die Anmeldung: 756.6053.7103.01',
         ('756.6053.7103.01',)),
    Case('h21-002', 'resident_id', 'note',
         'SV-Nummer 5035 190185 (e-card)',
         ('5035 190185',)),
    Case('h21-003', 'resident_id', 'note',
         'Meine Steuer-ID lautet 87 926 503 466, bitte ans Studentenwerk',
         ('87 926 503 466',)),
    Case('h21-004', 'resident_id', 'note',
         'GP registration done, NHS no 849 524 6120',
         ('849 524 6120',)),
    Case('h21-005', 'resident_id', 'note',
         'Kennitala: 190185-7109',
         ('190185-7109',)),
    Case('h21-006', 'resident_id', 'note',
         'EMŠO 1901985506613 — za vpis na fakulteto',
         ('1901985506613',)),
    Case('h21-007', 'resident_id', 'note',
         'TAJ szám: 565 630 333',
         ('565 630 333',)),
    Case('h21-008', 'resident_id', 'note',
         'Personas kods 190185-154039',
         ('190185-154039',)),
    Case('h21-009', 'resident_id', 'note',
         "Numéro d'identification national : 1985011946198",
         ('1985011946198',)),
    Case('h21-010', 'resident_id', 'note',
         'Nº afiliación Seguridad Social 02/65694010/49',
         ('02/65694010/49',)),
    Case('h21-011', 'resident_id', 'note',
         'Rentenversicherungsnummer: 65 190185 W 269',
         ('65 190185 W 269',)),
    Case('h21-012', 'resident_id', 'note',
         "Grandma's Medicare card: MBI 3MP7-V75-HU00",
         ('3MP7-V75-HU00',)),
    Case('h21-013', 'resident_id', 'note',
         'Регистрийн дугаар: ЮД85011971',
         ('ЮД85011971',)),
    Case('h21-014', 'resident_id', 'note',
         'Cartão SUS 882 7738 6422 7673',
         ('882 7738 6422 7673',)),
    Case('h21-015', 'resident_id', 'note',
         '报名表身份证号填的是 110108 19850119 923x',
         ('110108 19850119 923x',)),
    Case('h21-016', 'resident_id', 'note',
         'Cédula de identidad 1.429.694-4',
         ('1.429.694-4',)),
    Case('h21-017', 'resident_id', 'note',
         'PAN card no. AYVPF5217L (for the scholarship)',
         ('AYVPF5217L',)),
    Case('h21-018', 'resident_id', 'note',
         'الرقم القومي: ٣٨٥٠١١٩٣٥٨٦٧٥٨',
         ('٣٨٥٠١١٩٣٥٨٦٧٥٨',)),
    Case('h21-019', 'resident_id', 'note',
         'رقم الإقامة 2778885240',
         ('2778885240',)),
    Case('h21-020', 'resident_id', 'note',
         'ITIN 977-85-2574 on the 1040-NR',
         ('977-85-2574',)),
    Case('h21-021', 'resident_id', 'note',
         'Ghana card: GHA-294265849-9',
         ('GHA-294265849-9',)),
    Case('h21-022', 'resident_id', 'note',
         'My NIN is 11832830254, for the JAMB form',
         ('11832830254',)),
    Case('h21-023', 'resident_id', 'md',
         '| 이름 | 주민등록번호 |\n|---|---|\n| 김민준 | 850119-1969243 |\n',
         ('850119-1969243',)),
    Case('h21-024', 'resident_id', 'json',
         '{"name": "Tan Wei", "nric": "T1721578C", "course": "CS1010"}',
         ('T1721578C',)),
    Case('h21-025', 'licence_plate', 'note',
         'Car plate: Yue B D1178, parked at the east gate',
         ('Yue B D1178',)),
    Case('h21-026', 'licence_plate', 'note',
         '車牌 粵B 07795 停喺地庫',
         ('粵B 07795',)),
    Case('h21-027', 'licence_plate', 'note',
         "My landlord's car is Jing A·4E03X",
         ('Jing A·4E03X',)),
    Case('h21-028', 'licence_plate', 'note',
         'Rental car: Shinagawa 433 ha 31-34 (white Prius)',
         ('Shinagawa 433 ha 31-34',)),
    Case('h21-029', 'licence_plate', 'note',
         'My car number is 36Da 9450, please register it',
         ('36Da 9450',)),
    Case('h21-030', 'licence_plate', 'note',
         '車牌 NN 3338，月租車位 B12',
         ('NN 3338',)),
    Case('h21-031', 'licence_plate', 'note',
         '澳門車牌 MZ-72-87',
         ('MZ-72-87',)),
    Case('h21-032', 'licence_plate', 'note',
         'Rekisterinumero HLA-840',
         ('HLA-840',)),
    Case('h21-033', 'licence_plate', 'note',
         'Nummerplade: FP 79 397 — lejet bil',
         ('FP 79 397',)),
    Case('h21-034', 'licence_plate', 'note',
         'Matrícula do carro: PF-28-BZ',
         ('PF-28-BZ',)),
    Case('h21-035', 'licence_plate', 'note',
         'Πινακίδα: ΙΑΥ-5993',
         ('ΙΑΥ-5993',)),
    Case('h21-036', 'licence_plate', 'note',
         'מספר רכב 21-486-74',
         ('21-486-74',)),
    Case('h21-037', 'licence_plate', 'note',
         'Patente XZ 044 HC, auto gris',
         ('XZ 044 HC',)),
    Case('h21-038', 'licence_plate', 'note',
         'Car reg KPP 272W — matatu stage pickup',
         ('KPP 272W',)),
    Case('h21-039', 'licence_plate', 'note',
         'my bakkie is NSY 319 GP',
         ('NSY 319 GP',)),
    Case('h21-040', 'licence_plate', 'txt',
         'Permit holder: student #054354\nVehicle: Honda Civic\nPlate: MDWT 184\nLot: P3\n',
         ('MDWT 184',)),
    Case('h21-041', 'address', 'note',
         'new flat: 15 Great Western Road, Flat 3/1, Glasgow G12',
         ('15 Great Western Road, Flat 3/1',)),
    Case('h21-042', 'address', 'note',
         'Mail it to RR 6 Box 850, Emporia KS 66801',
         ('RR 6 Box 850',)),
    Case('h21-043', 'address', 'note',
         'Address: H.No. 12-2-218/46/A, Banjara Hills, Hyderabad',
         ('H.No. 12-2-218/46/A',)),
    Case('h21-044', 'address', 'note',
         'Deliver to No. 58 Awolowo Street, off Admiralty Way, Lekki',
         ('No. 58 Awolowo Street, off Admiralty Way',)),
    Case('h21-045', 'address', 'note',
         'My guesthouse: #134, St. 473, Sangkat Boeung Keng Kang',
         ('#134, St. 473',)),
    Case('h21-046', 'address', 'note',
         'Min adresse: Nørrebrogade 157, 3. mf., 2200 København N',
         ('Nørrebrogade 157, 3. mf.',)),
    Case('h21-047', 'address', 'note',
         '新住所は名古屋市中区栄町三丁目七番十五号です',
         ('栄町三丁目七番十五号',)),
    Case('h21-048', 'address', 'txt',
         'File Name : IMG_2141.HEIC\nMake : Apple\nGPS Latitude : 34.12433 N\nGPS Longitude : 113.27151 E\nGPS Altitude : 12 m\n',
         ('34.12433', '113.27151')),
    Case('h21-049', 'address', 'note',
         'Courier to Flat No. 525, Green Park Apartments, Baner, Pune 411045',
         ('Flat No. 525, Green Park Apartments',)),
    Case('h21-050', 'address', 'note',
         'Ghar ka pata: House # 31, Street 53, I-8/4, Islamabad',
         ('House # 31, Street 53, I-8/4',)),
    Case('h21-051', 'address', 'note',
         'We moved to Villa 39, Street 5c, Al Barsha 2',
         ('Villa 39, Street 5c',)),
    Case('h21-052', 'address', 'note',
         '우리 집 래미안아파트 112동 503호로 보내줘',
         ('112동 503호',)),
    Case('h21-053', 'address', 'note',
         '快递寄到愚园路717弄13号551室',
         ('愚园路717弄13号551室',)),
    Case('h21-054', 'address', 'note',
         '寄件地址：台北市信義路二段108巷13弄31號9樓',
         ('信義路二段108巷13弄31號9樓',)),
    Case('h21-055', 'address', 'note',
         'Address: Flat A, 28/F, Block 2, Taikoo Shing',
         ('Flat A, 28/F, Block 2',)),
    Case('h21-056', 'address', 'note',
         'Meu endereço: Rua Oscar Freire, 533, apto 92, bloco B, São Paulo',
         ('Rua Oscar Freire, 533, apto 92, bloco B',)),
    Case('h21-057', 'address', 'note',
         'Mándalo a Calle Tonalá #306 Int. 1, Col. Roma Norte',
         ('Calle Tonalá #306 Int. 1, Col. Roma Norte',)),
    Case('h21-058', 'address', 'note',
         'Мой адрес: ул. Гагарина, д. 93, кв. 193, Казань',
         ('ул. Гагарина, д. 93, кв. 193',)),
    Case('h21-059', 'address', 'note',
         'Bydlím na adrese Korunní 180/59, Praha 2',
         ('Korunní 180/59',)),
    Case('h21-060', 'address', 'note',
         'Meine Adresse: Landstraßer Hauptstraße 104/1/11, 1100 Wien',
         ('Landstraßer Hauptstraße 104/1/11',)),
    Case('h21-061', 'address', 'note',
         'Abito in Via Garibaldi 110, scala A, int. 11, Torino',
         ('Via Garibaldi 110, scala A, int. 11',)),
    Case('h21-062', 'address', 'note',
         'Vivo en C/ Alcalá, 198, 2º dcha., Madrid',
         ('C/ Alcalá, 198, 2º dcha.',)),
    Case('h21-063', 'address', 'note',
         'Adresim: Cumhuriyet Mah. Lale Sok. No: 41 D: 3, Kadıköy/İstanbul',
         ('Cumhuriyet Mah. Lale Sok. No: 41 D: 3',)),
    Case('h21-064', 'address', 'note',
         'ที่อยู่ 105/10 หมู่ 12 ซอยรามคำแหง 24 กรุงเทพฯ',
         ('105/10 หมู่ 12 ซอยรามคำแหง 24',)),
    Case('h21-065', 'address', 'note',
         'Alamat rumah: Jl. Cempaka Putih No. 95 RT 08/RW 12, Jakarta Selatan',
         ('Jl. Cempaka Putih No. 95 RT 08/RW 12',)),
    Case('h21-066', 'address', 'note',
         'Nhà mình ở Số 83 ngõ 162 ngách 51 Nguyễn Trãi',
         ('Số 83 ngõ 162 ngách 51',)),
    Case('h21-067', 'address', 'note',
         'Shipping to Unit 8/196 Bourke St, NSW 2037',
         ('Unit 8/196 Bourke St',)),
    Case('h21-068', 'address', 'note',
         'my eircode is D06 94HA, for the delivery',
         ('D06 94HA',)),
    Case('h21-069', 'address', 'md',
         '## Déménagement\n\nNouvelle adresse : 15 bis rue des Martyrs, bât. B, esc. 3, 75011 Paris.\n',
         ('15 bis rue des Martyrs, bât. B, esc. 3',)),
    Case('h21-070', 'address', 'note',
         'our front door is ///index.count.soap',
         ('///index.count.soap',)),
    Case('h21-071', 'mobile', 'note',
         'Swisha till 074-763 76 15 för hyran',
         ('074-763 76 15',)),
    Case('h21-072', 'mobile', 'note',
         'viber://chat?number=%2B351996988905',
         ('%2B351996988905',)),
    Case('h21-073', 'mobile', 'note',
         '加我：1️⃣5️⃣9️⃣ 1️⃣3️⃣0️⃣3️⃣ 9️⃣9️⃣5️⃣8️⃣',
         ('1️⃣5️⃣9️⃣ 1️⃣3️⃣0️⃣3️⃣ 9️⃣9️⃣5️⃣8️⃣',)),
    Case('h21-074', 'mobile', 'note',
         '支付宝账号 150****5163（全号 15083285163）转我就行',
         ('15083285163',)),
    Case('h21-075', 'mobile', 'note',
         'Chat me: https://wa.me/2348172612293',
         ('2348172612293',)),
    Case('h21-076', 'mobile', 'note',
         'GPay me at 9869101285@ybl',
         ('9869101285',)),
    Case('h21-077', 'mobile', 'note',
         'Hazme un Bizum al 647 111 633',
         ('647 111 633',)),
    Case('h21-078', 'mobile', 'note',
         'MB WAY para o 931307018',
         ('931307018',)),
    Case('h21-079', 'mobile', 'note',
         'Vipps meg på 572 33 231',
         ('572 33 231',)),
    Case('h21-080', 'mobile', 'note',
         '我的手机是一八八零五九零六零六七',
         ('一八八零五九零六零六七',)),
    Case('h21-081', 'mobile', 'note',
         '<a href="tel:+8190-1842-8689">電話</a>',
         ('+8190-1842-8689',)),
    Case('h21-082', 'mobile', 'note',
         'PayNow to +65 8216 3729 (Wei Ling)',
         ('+65 8216 3729',)),
    Case('h21-083', 'mobile', 'note',
         '카카오페이 송금 014-3467-1702',
         ('014-3467-1702',)),
    Case('h21-084', 'mobile', 'json',
         '{"name": "Jonas", "handynummer": "+49 151 18765005"}',
         ('+49 151 18765005',)),
    Case('h21-085', 'password', 'txt',
         'client\nremote vpn.school.edu 1194\nauth-user-pass\n<auth-user-pass>\nlihua\nkoala@8519\n</auth-user-pass>\n',
         ('koala@8519',)),
    Case('h21-086', 'password', 'note',
         'smbclient -L //192.168.1.10 -U lihua%Sunny19mango!',
         ('Sunny19mango!',)),
    Case('h21-087', 'password', 'note',
         'net use S: \\\\nas\\study pHaUL6ZIal /user:lihua /persistent:yes',
         ('pHaUL6ZIal',)),
    Case('h21-088', 'password', 'note',
         'sudo mount -t cifs //nas/share /mnt/s -o username=lihua,password=c11#16l!wv,uid=1000',
         ('c11#16l!wv',)),
    Case('h21-089', 'password', 'note',
         "nmcli dev wifi connect Dorm-5G password 'Tiger43koala$'",
         ('Tiger43koala$',)),
    Case('h21-090', 'password', 'txt',
         'Security settings\n-----------------\n    Authentication         : WPA2-Personal\n    Key Content            : Vm@0Qpfoto5gAu\n',
         ('Vm@0Qpfoto5gAu',)),
    Case('h21-091', 'password', 'note',
         'sqlcmd -S localhost -U sa -P Ocean!8726 -Q "SELECT 1"',
         ('Ocean!8726',)),
    Case('h21-092', 'password', 'note',
         'docker login registry.lab.cn -u lihua -p Panda@560',
         ('Panda@560',)),
    Case('h21-093', 'password', 'note',
         'ldapsearch -x -D cn=admin,dc=lab,dc=cn -w Panda30Panda% -b dc=lab,dc=cn',
         ('Panda30Panda%',)),
    Case('h21-094', 'password', 'note',
         'wget --user=lihua --password=Sunny32Tiger! ftp://ftp.lab.cn/data.zip',
         ('Sunny32Tiger!',)),
    Case('h21-095', 'password', 'note',
         "echo 'student01:lemon#6038' | sudo chpasswd",
         ('lemon#6038',)),
    Case('h21-096', 'password', 'txt',
         'hostname lab-sw1\nusername admin privilege 15 password 0 Panda66river$\n',
         ('Panda66river$',)),
    Case('h21-097', 'password', 'note',
         'jdbc:mysql://10.0.0.3:3306/thesis?user=root&password=AU&VuATzYi&useSSL=false',
         ('AU&VuATzYi',)),
    Case('h21-098', 'password', 'note',
         'git clone https://lihua:Panda#2084@git.lab.cn/group/thesis.git',
         ('Panda#2084',)),
    Case('h21-099', 'password', 'note',
         'la password del wifi è Sunny91maple!',
         ('Sunny91maple!',)),
    Case('h21-100', 'password', 'note',
         'a senha do e-mail é Qingdao37koala!',
         ('Qingdao37koala!',)),
    Case('h21-101', 'password', 'note',
         'modem şifresi: river#826',
         ('river#826',)),
    Case('h21-102', 'password', 'note',
         'kata sandi wifi kos: Ocean90qingdao!',
         ('Ocean90qingdao!',)),
    Case('h21-103', 'password', 'note',
         'mật khẩu wifi là Maple42koala%',
         ('Maple42koala%',)),
    Case('h21-104', 'password', 'note',
         'รหัสผ่านไวไฟ Sunny72maple!',
         ('Sunny72maple!',)),
    Case('h21-105', 'password', 'note',
         'كلمة السر للواي فاي: xiaoyu!423',
         ('xiaoyu!423',)),
    Case('h21-106', 'password', 'md',
         '| 网站 | 账号 | 密码 |\n|---|---|---|\n| 知网 | lihua2023 | tX0PFr7RS1rL |\n',
         ('tX0PFr7RS1rL',)),
    Case('h21-107', 'password', 'note',
         '宽带账号 075557324234 宽带密码 Hh*tzrywX4D@SJ',
         ('Hh*tzrywX4D@SJ',)),
    Case('h21-108', 'password', 'note',
         '资料包发你邮箱了，解压码 oAeyrgeDMPrh',
         ('oAeyrgeDMPrh',)),
    Case('h21-109', 'password', 'note',
         'schtasks /create /tn backup /tr C:\\b.bat /sc daily /ru lab\\admin /rp L3y5H^dwcm',
         ('L3y5H^dwcm',)),
    Case('h21-110', 'api_key', 'txt',
         'begin 644 .env\nM3U!%3D%)7T%025]+15D]<VLM8F4Q9C9B839E9F4Y,&4S-S%E9F,S,&0P9C-F\n&868V8S *\n`\nend\n',
         ('M3U!%3D%)7T%025]+15D]<VLM8F4Q9C9B839E9F4Y,&4S-S%E9F,S,&0P9C-F\n&868V8S *',)),
    Case('h21-111', 'api_key', 'note',
         "export DEEPSEEK_API_KEY=$'\\163\\153\\055\\065\\070\\067\\060\\143\\143\\066\\065\\061\\066\\067\\064\\144\\146\\061\\067\\066\\066\\062\\146\\063\\141\\063\\146\\064\\145\\065\\066\\144\\145\\065\\061'",
         ('\\163\\153\\055\\065\\070\\067\\060\\143\\143\\066\\065\\061\\066\\067\\064\\144\\146\\061\\067\\066\\066\\062\\146\\063\\141\\063\\146\\064\\145\\065\\066\\144\\145\\065\\061',)),
    Case('h21-112', 'api_key', 'txt',
         'write(3, "POST /v1/chat/completions HTTP/1.1\\r\\nHost: api.moonshot.cn\\r\\nAuthorization: Bearer sk-UpMofCMTW7VvBmku6Al2vdxAyTOan4wcknhcqYoVlAVg2rPj\\r\\nContent-Type: application/json\\r\\n"..., 187) = 187\n',
         ('sk-UpMofCMTW7VvBmku6Al2vdxAyTOan4wcknhcqYoVlAVg2rPj',)),
    Case('h21-113', 'api_key', 'txt',
         'GLIBC_2.34\n__libc_start_main\nHOME=/home/lihua\nLANG=zh_CN.UTF-8\nQWEN_API_KEY=pkGpt55QFsGSwtxzgzG9zmjHxUe08QNSntKvQwcb\nPATH=/usr/bin:/bin\n_ZN4core3fmt5write17h\n',
         ('pkGpt55QFsGSwtxzgzG9zmjHxUe08QNSntKvQwcb',)),
    Case('h21-114', 'api_key', 'txt',
         'service,key_part1,key_part2\ndeepseek,sk-a0f0fd0575d5231,a5b100cec56d919c7\n',
         ('sk-a0f0fd0575d5231', 'a5b100cec56d919c7')),
    Case('h21-115', 'api_key', 'txt',
         '$ hexdump -C ~/.config/gh/t.txt\n00000000  74 6f 6b 65 6e 3d 67 68  70 5f 51 73 78 53 69 31  |token=ghp_QsxSi1|\n00000010  65 61 6f 6a 66 58 64 5a  71 4d 38 54 4b 79 4a 74  |eaojfXdZqM8TKyJt|\n00000020  37 31 42 6c 47 57 79 6a  58 67 35 63 30 6b 0a     |71BlGWyjXg5c0k.|\n',
         ('74 6f 6b 65 6e 3d 67 68  70 5f 51 73 78 53 69 31', 'token=ghp_QsxSi1', '65 61 6f 6a 66 58 64 5a  71 4d 38 54 4b 79 4a 74', 'eaojfXdZqM8TKyJt', '37 31 42 6c 47 57 79 6a  58 67 35 63 30 6b 0a', '71BlGWyjXg5c0k.')),
    Case('h21-116', 'api_key', 'txt',
         '$ xxd .hf_token\n00000000: 4846 5f54 4f4b 454e 3d68 665f 736d 4a47   HF_TOKEN=hf_smJG\n00000010: 4173 4457 436a 5a6a 724b 684e 4832 5537   AsDWCjZjrKhNH2U7\n00000020: 7930 5951 3046 6766 5954 6569 635a        y0YQ0FgfYTeicZ\n',
         ('4846 5f54 4f4b 454e 3d68 665f 736d 4a47', 'HF_TOKEN=hf_smJG', '4173 4457 436a 5a6a 724b 684e 4832 5537', 'AsDWCjZjrKhNH2U7', '7930 5951 3046 6766 5954 6569 635a', 'y0YQ0FgfYTeicZ')),
    Case('h21-117', 'api_key', 'note',
         'https://proxy.lab.cn/relay?k=%73%6B%2D%37%33%31%36%39%62%64%62%65%65%39%37%32%35%33%33%30%32%32%38%32%62%35%37%30%37%63%61%33%65%36%31&m=chat',
         ('%73%6B%2D%37%33%31%36%39%62%64%62%65%65%39%37%32%35%33%33%30%32%32%38%32%62%35%37%30%37%63%61%33%65%36%31',)),
    Case('h21-118', 'api_key', 'txt',
         'Subject: Your API key\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\nHi Li Hua, your new API key for the course sandbox is: sk-proj-6Cp8BTG3vnox=\nDl6KQuyDruWWvQkcpXFtiMdlh9XLhoiT8eH8KagSyYiSs32lKojT (keep it private)\n',
         ('sk-proj-6Cp8BTG3vnox', 'Dl6KQuyDruWWvQkcpXFtiMdlh9XLhoiT8eH8KagSyYiSs32lKojT')),
    Case('h21-119', 'api_key', 'txt',
         '{"config": {"maps_key": "\\u0041\\u0049\\u007a\\u0061\\u0035\\u0032\\u0055\\u0038\\u0070\\u0059\\u0051\\u0051\\u0057\\u0046\\u0049\\u0036\\u006c\\u0036\\u0073\\u0037\\u006d\\u0056\\u006a\\u0072\\u0069\\u0079\\u0065\\u004b\\u004b\\u007a\\u0033\\u0068\\u0044\\u0042\\u006a\\u0079\\u006f\\u0061\\u004d"}}',
         ('\\u0041\\u0049\\u007a\\u0061\\u0035\\u0032\\u0055\\u0038\\u0070\\u0059\\u0051\\u0051\\u0057\\u0046\\u0049\\u0036\\u006c\\u0036\\u0073\\u0037\\u006d\\u0056\\u006a\\u0072\\u0069\\u0079\\u0065\\u004b\\u004b\\u007a\\u0033\\u0068\\u0044\\u0042\\u006a\\u0079\\u006f\\u0061\\u004d',)),
    Case('h21-120', 'api_key', 'txt',
         '* Connected to api.lab.cn (10.0.0.2) port 443\n> GET /v2/data HTTP/2\n> Host: api.lab.cn\n> X-Api-Key: f50d449b988f059f43423d42bc2a5ac8\n> User-Agent: curl/8.5.0\n',
         ('f50d449b988f059f43423d42bc2a5ac8',)),
    Case('h21-121', 'api_key', 'txt',
         'lihua  2231  0.3  1.2 812344 50112 ?  Sl  10:02  0:04 /usr/bin/python3 bot.py --token ZBAS0IeR62vnTjMbo8wWxwYPONq5sZet47CMefBg --verbose\n',
         ('ZBAS0IeR62vnTjMbo8wWxwYPONq5sZet47CMefBg',)),
    Case('h21-122', 'api_key', 'txt',
         '$ cat -v /proc/2231/environ\nHOME=/root^@LANG=C.UTF-8^@SLACK_BOT_TOKEN=xoxb-819245754748-9932943214386-IAzelRcWZ6yXuZZEEPnkGheR^@PATH=/usr/bin^@\n',
         ('xoxb-819245754748-9932943214386-IAzelRcWZ6yXuZZEEPnkGheR',)),
    Case('h21-123', 'api_key', 'txt',
         '  501  cd thesis\n  502  export TUSHARE_TOKEN=YO74FPbVlgSZB8s3dgIskQ5XlhIlsOEN\n  503  python fetch.py\n',
         ('YO74FPbVlgSZB8s3dgIskQ5XlhIlsOEN',)),
    Case('h21-124', 'api_key', 'txt',
         'commit edd638a84fbbe68439867e019ef4df0900d98074\n\ndiff --git a/.env b/.env\n@@ -1,2 +1,2 @@\n-API_KEY=\n+API_KEY=sk-e18e6f7b5fe68186ec9d3ad19822564d\n',
         ('sk-e18e6f7b5fe68186ec9d3ad19822564d',)),
    Case('h21-125', 'api_key', 'yaml',
         'apiVersion: v1\ndata:\n  api-key: Tm94ZHVKaWpHMDVvRHZuSUhwVU5KeUlYbFkzS3lIQ04=\nkind: Secret\nmetadata:\n  name: llm\n',
         ('Tm94ZHVKaWpHMDVvRHZuSUhwVU5KeUlYbFkzS3lIQ04=',)),
    Case('h21-126', 'api_key', 'json',
         '"Config": {\n  "Env": [\n    "PATH=/usr/local/bin",\n    "DASHSCOPE_API_KEY=sk-f60fea46b576d4b261aa461eeb34ffde"\n  ]\n}',
         ('sk-f60fea46b576d4b261aa461eeb34ffde',)),
    Case('h21-127', 'api_key', 'note',
         'weather-cli 9a03c43c0517c9de8117f3703c3c9c39 --city Beijing',
         ('9a03c43c0517c9de8117f3703c3c9c39',)),
    Case('h21-128', 'api_key', 'note',
         'https://hooks.lab.cn/services/push/zuSj9z4fnJvJnbl4WKLIsMeo/notify',
         ('zuSj9z4fnJvJnbl4WKLIsMeo',)),
    Case('h21-129', 'api_key', 'txt',
         'Traceback (most recent call last):\n  File "bot.py", line 12, in <module>\n    client = OpenAI(api_key=api_key)\n    api_key = \'sk-b47325d27d71164fb0d942b18b46882b\'\nopenai.AuthenticationError: 401\n',
         ('sk-b47325d27d71164fb0d942b18b46882b',)),
    Case('h21-130', 'api_key', 'note',
         'base32 -d <<< ORXWWZLOHJCWQ5CQKNWHA43UOJTXARTFO5ZTIQ3XIZFG2TLJGBSVOWSMO5EUC2CVIEYFU5JRLA======',
         ('ORXWWZLOHJCWQ5CQKNWHA43UOJTXARTFO5ZTIQ3XIZFG2TLJGBSVOWSMO5EUC2CVIEYFU5JRLA======',)),
    Case('h21-131', 'api_key', 'note',
         "echo 'fx-7p964o078s1p4sroso68355q026r5qos' | tr 'a-z' 'n-za-m'",
         ('fx-7p964o078s1p4sroso68355q026r5qos',)),
    Case('h21-132', 'api_key', 'txt',
         '{"request": {"method": "GET", "url": "https://api.lab.cn/v1", "headers": [{"name": "apikey", "value": "668a3599eb791bc03bb433c1b1295a5a"}]}}',
         ('668a3599eb791bc03bb433c1b1295a5a',)),
    Case('h21-133', 'api_key', 'note',
         "payload = b'\\x73\\x6b\\x2d\\x30\\x32\\x38\\x35\\x35\\x65\\x33\\x39\\x65\\x39\\x39\\x37\\x30\\x66\\x39\\x63\\x63\\x36\\x63\\x31\\x34\\x35\\x39\\x35\\x35\\x35\\x63\\x61\\x33\\x62\\x34\\x39'",
         ('\\x73\\x6b\\x2d\\x30\\x32\\x38\\x35\\x35\\x65\\x33\\x39\\x65\\x39\\x39\\x37\\x30\\x66\\x39\\x63\\x63\\x36\\x63\\x31\\x34\\x35\\x39\\x35\\x35\\x35\\x63\\x61\\x33\\x62\\x34\\x39',)),
]
