"""Hard negatives generated with ``heldout25`` (session 20), before the detectors changed.

30 texts that hold no one's secret but share the structures of heldout25: labelled numbers that
are not personal, public addresses, words for 'at' and 'dot' in prose, spelled words, char arrays of
letters, tables of historical people, named checksums, real words of the other keyboard's language.
benchmarks/gate_corpus/gen24.py (seed 2525; other countries, languages and phrasings of heldout24's families).
First run, on main 553ef51 before any detector changed: 0 of 30 flagged (which ones not read).

Shapes, one per text:
- a DOI and an issue number
- a Spanish law article
- a Korean textbook section
- an order number
- a French course code and room
- a German norm number
- a passport format in Russian
- an ID explanation in Arabic
- password advice in Italian
- a password meaning in Korean
- hashing in Chinese
- a Rust array of letters
- char codes of ABC
- a spelling bee word
- chiocciola the snail
- zavináč in a Czech lesson
- Chinese 点 and at in prose
- a public library address in Portuguese
- a station address in Korean
- a Bulgarian university address
- a historical table of kings
- a roster of authors and ISBN
- an MD5 named as a checksum
- a Docker image digest
- real Ukrainian words
- real Arabic words
- real Persian words
- a Saudi plate format explained
- map coordinates of a mountain
- an API key concept in French
"""

NEGATIVES: list[str] = [
    'Nature 521, 436–444 (2015), doi:10.1038/nature14539, issue No. 7553',
    'Artículo 18.4 de la Constitución Española: la ley limitará el uso de la informática.',
    '제3장 제2절 문제 15번: 다음 수열의 합을 구하시오. 1234567을 소인수분해하라.',
    '订单号 2024120712345678 已发货，物流单号请在 App 查看（公司统一单号）',
    'UE n° INF3450, salle B204, bâtiment C — cours magistral le jeudi',
    'Nach DIN 5008, Nr. 12 der Norm, werden Telefonnummern gegliedert.',
    'Номер загранпаспорта состоит из 9 цифр: 2 цифры серии и 7 цифр номера.',
    'يتكون الرقم الوطني من 10 أرقام، ويبدأ بالرقم 1 للمواطنين.',
    'La password deve essere lunga almeno 12 caratteri e non contenere il nome.',
    '비밀번호는 영어로 password라고 한다. 비밀번호는 자주 바꾸는 것이 좋다.',
    '密码应使用 Argon2 或 bcrypt 加盐哈希后存储，不能明文保存。',
    "let vowels: [char; 5] = ['a', 'e', 'i', 'o', 'u'];",
    'String.fromCharCode(65, 66, 67) returns "ABC".',
    'Spelling bee: r-h-y-t-h-m, rhythm; m-i-s-s-p-e-l-l, misspell.',
    'La chiocciola è un mollusco; il punto è che si muove lentamente.',
    'Znak zavináč (@) se v češtině jmenuje podle rolády; tečka je konec věty.',
    '老师说 at 是介词，三点 com 课在二楼。',
    'Biblioteca Nacional: Campo Grande 83, 1749-081 Lisboa. Entrada livre.',
    '서울역: 서울특별시 용산구 한강대로 405, 1층 안내센터',
    'Софийски университет: бул. Цар Освободител 15, София 1504',
    '| Name | Born | Reign |\n|---|---|---|\n| Louis XIV | 1638 | 1643-1715 |\n| Peter I | 1672 | 1682-1725 |\n',
    'Nom\tNé le\tISBN\nVictor Hugo\t26/02/1802\t9782070409228\n',
    'md5sum: d41d8cd98f00b204e9800998ecf8427e (empty file)',
    'image: nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31',
    'Слова уроку: хліб, вода, їжак, ґанок, євро, сонце, книжка.',
    'كلمات الدرس: كتاب، قلم، مدرسة، بيت، شمس، قمر، ماء.',
    'واژه\u200cهای درس: کتاب، دفتر، مدرسه، خانه، آب، نان.',
    'Saudi plates show three letters and up to four digits, in Arabic and Latin.',
    'Mount Everest: 27.9881° N, 86.9250° E, 8,848.86 m.',
    "Une clé API identifie l'application ; ne la mettez jamais dans le dépôt Git.",
]
