"""Hard negatives generated with ``heldout24`` (session 20), before the detectors changed.

40 texts that hold no one's secret but share the structures of heldout24: labelled numbers that
are not personal, public addresses, words for 'at' and 'dot' in prose, spelled words, char arrays of
letters, tables of historical people, named checksums, real words of the other keyboard's language.
benchmarks/gate_corpus/gen24.py (seed 2424).
First run, on main 553ef51 before any detector changed: 1 of 40 flagged.

Shapes, one per text:
- an ISBN after 'No.'
- an article of law with number words
- a course number and a room
- an invoice number
- a patent number
- a case number
- a Russian standard number
- a passport-number format explained
- an ID format explained in Chinese
- password rules in Spanish
- password hashing explained
- a vocabulary line for 'password'
- a C array of vowels
- a Java char array of hex digits
- a spelling lesson
- NATO alphabet practice
- 골뱅이 the dish
- собака the dog
- at and dot in English prose
- arroba as a unit
- a public museum address
- a university address
- an embassy address in Russian
- a historical table with years
- authors with born years and ISBNs
- a SHA-256 checksum named as one
- a git commit in a changelog
- a base64 hello world in a tutorial
- real Russian words
- real Greek words
- real Hebrew words
- chemical and chess notation
- route numbers and paper sizes
- a flight number and gate
- a public hotline
- Thai lesson numbers
- a Japanese textbook address of a university
- an API key concept explained
- a model number after 'No.'
- statistics with long numbers
"""

NEGATIVES: list[str] = [
    '教材：《数据结构》ISBN No. 978-7-302-33064-6，清华大学出版社',
    'Article 12, paragraph 3, item 4 of Regulation (EU) 2016/679 defines personal data.',
    'Course No. CS2040, Room 301, Building 5 — lecture every Tuesday',
    'Invoice No. INV-2024-00123 for the conference fee (paid by the department)',
    'The method is described in Patent No. US 9,876,543 B2 (2018).',
    'Brown v. Board of Education, 347 U.S. 483 (1954); docket No. 1',
    'Оформление по ГОСТ Р 7.0.100-2018, номер стандарта указывать обязательно.',
    'Indian passport numbers have 8 characters: one letter followed by seven digits.',
    '身份证号码由18位组成，前6位为地址码，中间8位为出生日期码。',
    'La contraseña debe tener al menos 8 caracteres, una mayúscula y un número.',
    'The password is stored as a bcrypt hash with cost 12, never in plain text.',
    'password（密码）、username（用户名）、login（登录）——第三课单词',
    "char vowels[] = {'a', 'e', 'i', 'o', 'u'};\nint n = sizeof(vowels);",
    "char[] HEX = new char[] { '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f' };",
    'How to spell necessary: n-e-c-e-s-s-a-r-y (one collar, two sleeves).',
    'Spell your name with the NATO alphabet: Alfa, Bravo, Charlie, Delta, Echo.',
    '을지로 골뱅이 골목은 골뱅이 무침으로 유명하다. 맥주 한 잔에 골뱅이 닷 접시!',
    'Собака лает на почтальона. Точка зрения автора: собака — друг человека.',
    "Meet me at the library at noon, and dot the i's before you submit.",
    'Una arroba equivale a unos 11,5 kilos; el punto de partida es la feria.',
    '故宫博物院地址：北京市东城区景山前街4号，周一闭馆。',
    'The British Museum, Great Russell Street, London WC1B 3DG, is free to visit.',
    'Посольство Китая в Москве: ул. Дружбы, д. 6. Приём по записи.',
    '| 姓名 | 出生 | 作品数 |\n|---|---|---|\n| 李白 | 701 | 1010 |\n| 杜甫 | 712 | 1500 |\n',
    'name,born,isbn\nLu Xun,1881,9787020002207\nLao She,1899,9787020024759\n',
    'SHA256 checksum of the installer: 3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b',
    'Fixed in commit 9f3c2a1b7e4d (see the release notes of v2.4.1).',
    'base64 编码示例：Hello World → SGVsbG8gV29ybGQ=',
    'Фраза дня: ученье свет, а неученье тьма. Выучи эти слова к понедельнику.',
    'Λέξεις της ημέρας: φως, νερό, θάλασσα, ουρανός, ήλιος, βιβλίο.',
    'מילים לשיעור: שלום, תודה, בבקשה, ספר, מים, לחם, בית, ילד.',
    'Glucose is C6H12O6; after 1. e4 e5 2. Nf3 Nc6 the Ruy Lopez follows.',
    'Take Route 66 west; print on A4 paper with a HB pencil sketch.',
    'Flight CA1234 boards at gate E12, seat 34K.',
    '全国统一客服热线 95588，工作日 9:00-17:00。',
    'บทที่ 12 หน้า 45 ข้อ 3 ให้ตอบคำถาม 1234 ข้อ',
    '東京大学 本郷キャンパス：東京都文京区本郷7-3-1',
    'API 密钥（API key）用于识别调用者，应放在环境变量中，不要写进代码。',
    '型号 No. SM-G9910，序列号在电池下方（每台不同）。',
    "China's population in 2020 was 1411778724 according to the census.",
]
