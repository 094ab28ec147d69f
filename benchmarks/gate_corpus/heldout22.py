r"""Held-out batch 22: generated with heldout21 before any session-19 rule, and not read while the rules were written.

Families the sealed heldout17 missed most (national IDs with their checks, plates in Latin letters or
other scripts, addresses by structure, mobiles in payment handles and links, keys in encodings, dumps and
tools' output, passwords given to tools); benchmarks/gate_corpus/gen21.py (seed 2222; other countries, tools and scripts of heldout21's families).
66 cases: resident_id 16, licence_plate 8, address 14, mobile 8, password 10, api_key 10.
First run, on main 7ec9777 before any detector changed (`.venv/bin/python benchmarks/bench_gate.py`):
32/66 found (48.5 %): resident_id 6/16, licence_plate 3/8, address 5/14, mobile 6/8, password 9/10,
api_key 3/10. Its negatives (negatives21): 3 of 22 flagged. Only these counts were read before the rules
changed; no miss was looked at.
Measured once the session-19 rules were written (DETECTOR_VERSION 58): 42/66 (63.6 %): resident_id 6/16,
licence_plate 6/8, address 8/14, mobile 7/8, password 9/10, api_key 6/10; negatives21 0 of 22 flagged. (Its three
first-run false positives were seen once by mistake, in a run of every negative set, while the rules were
written: a Polish IBAN example read as a card, BIP39's 0x80 vector, Finland's example henkilötunnus — the same
families as negatives20's.)

Shapes, one per case (category: shape):
resident_id: a Serbian JMBG
resident_id: a Slovak rodné číslo
resident_id: a Moldovan IDNP
resident_id: a Kuwaiti civil ID
resident_id: a Dominican cédula
resident_id: a Taiwan new-format ARC number
resident_id: a Sri Lankan new NIC
resident_id: a Sri Lankan old NIC with V
resident_id: a Myanmar NRC
resident_id: an Albanian personal number
resident_id: a Georgian personal number
resident_id: an Uzbek PINFL
resident_id: a Venezuelan cédula
resident_id: a Qatar ID in a form export
resident_id: a Chinese ID split 6-4-4-4 with dashes
resident_id: a Thai ID in 1-4-5-2-1 groups
licence_plate: a Shanghai plate in pinyin
licence_plate: a Shanghai plate with a Traditional character
licence_plate: an Osaka plate in romaji
licence_plate: a Norwegian-style plate after 'skilt'
licence_plate: an Ecuador-like plate
licence_plate: a Philippine plate after 'plate no.'
licence_plate: an Indonesian plate with region and suffix
licence_plate: a Nigerian-like plate
address: an Edinburgh 2F1 flat
address: a US highway contract route box
address: an Andhra door number
address: a Kampala plot address
address: a Danish ground-floor side
address: a kanji-numeral Japanese address with a room
address: home coordinates in a maps link
address: a Shanghai lane address without 室
address: a Taipei address with 樓之
address: a Korean dong-ho written as numbers
address: a Buenos Aires Av. number and floor
address: a Polish ul. with m.
address: a Turkish Cad. No/flat
address: a Malaysian No./Jalan
mobile: a tel: link with a Kenyan mobile
mobile: a Chinese mobile with dots
mobile: a MobilePay number
mobile: a TWINT mobile
mobile: a Russian mobile for SBP transfer
mobile: a Telegram link by phone number
mobile: a Chinese mobile in full-width digits
mobile: a Philippine GCash mobile
password: rdesktop -p
password: xfreerdp /p:
password: mongosh -p
password: a Polish 'hasło to'
password: a Dutch 'wachtwoord is'
password: a Hindi password sentence
password: a Chinese 登录口令
password: an rsync password file referenced then shown
password: useradd -p with openssl passwd
password: vault login userpass
api_key: a uuencoded key file
api_key: a token as a printf octal escape
api_key: a key in ltrace output
api_key: a key as space-separated hex bytes in tcpdump -X
api_key: a token in od -c output
api_key: a token in a gdb x/s output
api_key: a key split over two cells of a TSV
api_key: a key positional to a CLI's config subcommand
api_key: a token in a URL path after /bot
api_key: a key in journalctl output
"""

from benchmarks.gate_corpus import Case

CASES: list[Case] = [
    Case('h22-001', 'resident_id', 'note',
         'JMBG: 1205986712407',
         ('1205986712407',)),
    Case('h22-002', 'resident_id', 'note',
         'Rodné číslo žiaka 865512/6403',
         ('865512/6403',)),
    Case('h22-003', 'resident_id', 'note',
         'IDNP 2405847008196',
         ('2405847008196',)),
    Case('h22-004', 'resident_id', 'note',
         'الرقم المدني 286051264598',
         ('286051264598',)),
    Case('h22-005', 'resident_id', 'note',
         'Cédula: 031-4158784-4',
         ('031-4158784-4',)),
    Case('h22-006', 'resident_id', 'note',
         '居留證統一證號 B855031837',
         ('B855031837',)),
    Case('h22-007', 'resident_id', 'note',
         'NIC No: 198631225349',
         ('198631225349',)),
    Case('h22-008', 'resident_id', 'note',
         'ජා.හැ.අ. 005151546V',
         ('005151546V',)),
    Case('h22-009', 'resident_id', 'note',
         'NRC: 12/KAMATA(N)166538',
         ('12/KAMATA(N)166538',)),
    Case('h22-010', 'resident_id', 'note',
         'Numri personal: I95881223S',
         ('I95881223S',)),
    Case('h22-011', 'resident_id', 'note',
         'პირადი ნომერი: 33039355682',
         ('33039355682',)),
    Case('h22-012', 'resident_id', 'note',
         'ЖШШИР (PINFL): 31205869801551',
         ('31205869801551',)),
    Case('h22-013', 'resident_id', 'note',
         'C.I. V-23.873.308',
         ('V-23.873.308',)),
    Case('h22-014', 'resident_id', 'txt',
         'Name: Ahmed\nQID: 20323691186\nNationality: EG\n',
         ('20323691186',)),
    Case('h22-015', 'resident_id', 'note',
         '身份证：440106-1986-0512-5220',
         ('440106-1986-0512-5220',)),
    Case('h22-016', 'resident_id', 'note',
         'เลขบัตรประชาชน 4--879-2-192-59--',
         ('4--879-2-192-59--',)),
    Case('h22-017', 'licence_plate', 'note',
         'the car (Hu A32868) is in lot 3',
         ('Hu A32868',)),
    Case('h22-018', 'licence_plate', 'note',
         '車牌 滬A·43165',
         ('滬A·43165',)),
    Case('h22-019', 'licence_plate', 'note',
         'Parking permit: Osaka 536 ru 82-62',
         ('Osaka 536 ru 82-62',)),
    Case('h22-020', 'licence_plate', 'note',
         'Bilskilt FWL 745',
         ('FWL 745',)),
    Case('h22-021', 'licence_plate', 'note',
         'Placa: FB-5826-TT',
         ('FB-5826-TT',)),
    Case('h22-022', 'licence_plate', 'note',
         'plate no. RBH-8283, silver Vios',
         ('RBH-8283',)),
    Case('h22-023', 'licence_plate', 'note',
         'Plat nomor motor: SW 1403 AZ',
         ('SW 1403 AZ',)),
    Case('h22-024', 'licence_plate', 'note',
         'car number 585-NUA, Lagos',
         ('585-NUA',)),
    Case('h22-025', 'address', 'note',
         'I live at Leith Walk 35, 1F2, Edinburgh EH9',
         ('Leith Walk 35, 1F2',)),
    Case('h22-026', 'address', 'note',
         'ship to HC 72 Box 761, Pahrump NV',
         ('HC 72 Box 761',)),
    Case('h22-027', 'address', 'note',
         'Address: D.No. 18-79-13, MVP Colony, Visakhapatnam',
         ('D.No. 18-79-13',)),
    Case('h22-028', 'address', 'note',
         'Our house is Plot 492, Ntinda, Kampala',
         ('Plot 492, Ntinda',)),
    Case('h22-029', 'address', 'note',
         'Adresse: Amagerbrogade 175, st. th.',
         ('Amagerbrogade 175, st. th.',)),
    Case('h22-030', 'address', 'note',
         '送り先：大阪市北区梅田二丁目五番九号 ハイツ梅508号室',
         ('梅田二丁目五番九号 ハイツ梅508号室',)),
    Case('h22-031', 'address', 'note',
         '我家位置 https://maps.google.com/?q=51.587501, 36.851339',
         ('51.587501, 36.851339',)),
    Case('h22-032', 'address', 'note',
         '地址 淮海中路240弄30号1801',
         ('淮海中路240弄30号1801',)),
    Case('h22-033', 'address', 'note',
         '地址：台北市羅斯福路一段180巷40號7樓之5',
         ('羅斯福路一段180巷40號7樓之5',)),
    Case('h22-034', 'address', 'note',
         '배송지: 래미안 108-1226',
         ('108-1226',)),
    Case('h22-035', 'address', 'note',
         'Mi dirección: Av. Rivadavia 2413, 11° A, CABA',
         ('Av. Rivadavia 2413, 11° A',)),
    Case('h22-036', 'address', 'note',
         'Adres: ul. Mokotowska 60 m. 59, Warszawa',
         ('ul. Mokotowska 60 m. 59',)),
    Case('h22-037', 'address', 'note',
         'Ev adresi Kazım Karabekir Cad. No:118/9, Ankara',
         ('Kazım Karabekir Cad. No:118/9',)),
    Case('h22-038', 'address', 'note',
         'Alamat: No. 69, Jalan SS 2/24, Petaling Jaya',
         ('No. 69, Jalan SS 2/24',)),
    Case('h22-039', 'mobile', 'note',
         '[call me](tel:+254730416354)',
         ('+254730416354',)),
    Case('h22-040', 'mobile', 'note',
         '手机 159.1997.3700',
         ('159.1997.3700',)),
    Case('h22-041', 'mobile', 'note',
         'MobilePay til 49 19 57 93',
         ('49 19 57 93',)),
    Case('h22-042', 'mobile', 'note',
         'TWINT an 079 976 98 93',
         ('079 976 98 93',)),
    Case('h22-043', 'mobile', 'note',
         'Перевод по СБП на +7 908 407-70-13',
         ('+7 908 407-70-13',)),
    Case('h22-044', 'mobile', 'note',
         'Пишите: https://t.me/+73085730077',
         ('73085730077',)),
    Case('h22-045', 'mobile', 'note',
         '电话：１９９５６４７１０８０',
         ('１９９５６４７１０８０',)),
    Case('h22-046', 'mobile', 'note',
         'GCash: 0976 929 974 (Maria)',
         ('0976 929 974',)),
    Case('h22-047', 'password', 'note',
         'rdesktop -u admin -p xiaoyu.9033 10.0.0.9',
         ('xiaoyu.9033',)),
    Case('h22-048', 'password', 'note',
         'xfreerdp /v:lab-pc /u:lihua /p:mF&A8Eg^dJ',
         ('mF&A8Eg^dJ',)),
    Case('h22-049', 'password', 'note',
         'mongosh mongodb://10.0.0.4 -u admin -p ^uh%%5JfHgGf&v --authenticationDatabase admin',
         ('^uh%%5JfHgGf&v',)),
    Case('h22-050', 'password', 'note',
         'hasło do wifi to Tiger41Ocean$',
         ('Tiger41Ocean$',)),
    Case('h22-051', 'password', 'note',
         'het wachtwoord is Sunny.2278',
         ('Sunny.2278',)),
    Case('h22-052', 'password', 'note',
         'वाईफाई का पासवर्ड Sunny_256 है',
         ('Sunny_256',)),
    Case('h22-053', 'password', 'note',
         '服务器登录口令 xWCSk@UU2t',
         ('xWCSk@UU2t',)),
    Case('h22-054', 'password', 'txt',
         '$ cat /etc/rsync.pass\nmango.451\n$ rsync --password-file=/etc/rsync.pass lihua@nas::backup .\n',
         ('mango.451',)),
    Case('h22-055', 'password', 'note',
         "sudo useradd -m -p $(openssl passwd -1 'xiaoyu_977') student",
         ('xiaoyu_977',)),
    Case('h22-056', 'password', 'note',
         'vault login -method=userpass username=lihua password=Mango65maple!',
         ('Mango65maple!',)),
    Case('h22-057', 'api_key', 'txt',
         'begin 600 key\nM34]/3E-(3U1?05!)7TM%63US:RU&14-!1E5Y1%EE=E=I;VI91W=--$9%.$]X\n844MJ26]Y555">\',S5T141U-Z:6%,5%<*\n`\nend\n',
         ('M34]/3E-(3U1?05!)7TM%63US:RU&14-!1E5Y1%EE=E=I;VI91W=--$9%.$]X\n844MJ26]Y555">\',S5T141U-Z:6%,5%<*',)),
    Case('h22-058', 'api_key', 'note',
         "printf '\\147\\150\\160\\137\\071\\143\\143\\161\\145\\060\\060\\116\\154\\172\\152\\067\\110\\147\\132\\127\\144\\071\\121\\165\\112\\066\\157\\160\\161\\155\\132\\067\\067\\063\\157\\132\\113\\171\\156\\116' | gh auth login --with-token",
         ('\\147\\150\\160\\137\\071\\143\\143\\161\\145\\060\\060\\116\\154\\172\\152\\067\\110\\147\\132\\127\\144\\071\\121\\165\\112\\066\\157\\160\\161\\155\\132\\067\\067\\063\\157\\132\\113\\171\\156\\116',)),
    Case('h22-059', 'api_key', 'txt',
         'getenv("WEATHER_KEY") = "0e71e9c696ee3ed6bfacc968e1178839"\nstrlen("0e71e9c696ee3ed6bfacc968e1178839") = 32\n',
         ('0e71e9c696ee3ed6bfacc968e1178839',)),
    Case('h22-060', 'api_key', 'txt',
         '0x0040:  42 65 61 72 65 72 20 73 6b 2d 64 65 36 64 63 64 65 37 37 38 38 66 37 61 64 36 30 35 35 37 34 62 38 62 34 30 61 33 33 65 63 39',
         ('42 65 61 72 65 72 20 73 6b 2d 64 65 36 64 63 64 65 37 37 38 38 66 37 61 64 36 30 35 35 37 34 62 38 62 34 30 61 33 33 65 63 39',)),
    Case('h22-061', 'api_key', 'txt',
         '0000000   t   o   k   e   n   =   r   3   s   o   6   e   W   M   d   N\n0000020   i   b   L   O   5   D   8   I   G   Y   g   O   H   t   c   c\n0000040   C   C   j   g   o   8   j   1   a   n   y   u   7   9\n',
         ('t   o   k   e   n   =   r   3   s   o   6   e   W   M   d   N', 'i   b   L   O   5   D   8   I   G   Y   g   O   H   t   c   c', 'C   C   j   g   o   8   j   1   a   n   y   u   7   9')),
    Case('h22-062', 'api_key', 'note',
         '(gdb) x/s $rdi\n0x7ffd2a10: "glpat-nCZZCzf0BH58vClAj5mP"',
         ('glpat-nCZZCzf0BH58vClAj5mP',)),
    Case('h22-063', 'api_key', 'txt',
         'name\tkey_a\tkey_b\namap\t9217eeebc3306db0\tb2ed7184752adec9\n',
         ('9217eeebc3306db0', 'b2ed7184752adec9')),
    Case('h22-064', 'api_key', 'note',
         'tinypng-cli config set x9YIXMW0moSMM40EqfQ8wzVktfMXEYRF6yOG',
         ('x9YIXMW0moSMM40EqfQ8wzVktfMXEYRF6yOG',)),
    Case('h22-065', 'api_key', 'note',
         'https://notify.lab.cn/bot/2W8usr5ayboKGYW5aNYuAP70lGGSkCTR/send?text=done',
         ('2W8usr5ayboKGYW5aNYuAP70lGGSkCTR',)),
    Case('h22-066', 'api_key', 'txt',
         'Dec 07 10:02:11 lab python3[2231]: using key sk-53910a11869c7eaf670fd999d3c22603 for dashscope\n',
         ('sk-53910a11869c7eaf670fd999d3c22603',)),
]
