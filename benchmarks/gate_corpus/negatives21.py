"""Hard negatives generated with ``heldout22`` (session 19), before the detectors changed.

22 texts that hold no one's secret: hex runs and GUIDs, IBANs published as examples, words of
scripts with combining marks, signed and versioned numbers, published example values, e-mail at reserved
example domains, public places and numbers. benchmarks/gate_corpus/gen21.py (seed 2222; other countries, tools and scripts of heldout21's families).
First run, on main 7ec9777 before any detector changed: 3 of 22 flagged (which ones not read).

Shapes, one per text:
- git short SHAs in a changelog
- a GUID in a PowerShell lesson
- Docker image digests
- an IBAN registry example for Poland
- an IBAN registry example for Belgium
- an IBAN registry example for Austria
- a Bengali vocabulary line
- a Kannada vocabulary line
- a Sinhala vocabulary line
- versions with signs
- temperatures and deltas
- a BIP39 test vector with 'letter advice'
- Hardhat's default mnemonic
- an e-mail at example.org in docs
- an e-mail at a .example domain
- Finland's official HETU example
- Mastercard test number
- a landmark in DMS
- bus and highway numbers
- a museum's address in Taipei
- a public hospital address in Korean
- product codes
"""

NEGATIVES: list[str] = [
    '- fix crash on empty note (a1b2c3d)\n- speed up search (9f8e7d6c)\n- bump deps (4e5f6a7b8c9d)',
    '[guid]::NewGuid() 会生成类似 5d3e1c2b-8f4a-4b6d-9e0f-1a2b3c4d5e6f 的值，每次都不同',
    'FROM python:3.12-slim@sha256:2f3d4c5b6a7988e1d0c9b8a7f6e5d4c3b2a1908f7e6d5c4b3a2918f7e6d5c4b3',
    'Przykładowy IBAN: PL61 1090 1014 0000 0712 1981 2874',
    "Exemple d'IBAN belge : BE68 5390 0754 7034",
    'AT61 1904 3002 3457 3201 ist ein Muster-IBAN',
    'পাসওয়ার্ড (password) মানে গোপন শব্দ',
    'ಪಾಸ್\u200cವರ್ಡ್ (password) ಅಂದರೆ ಗುಪ್ತಪದ',
    'මුරපදය (password) කාටවත් කියන්න එපා',
    '支持 Node 18+、Java 17+、iOS 15.4+，不支持 IE 11-',
    '气温 -3.5℃ ~ +4.2℃，ΔT = +7.7 K',
    'Vector: letter advice cage absurd amount doctor acoustic avoid letter advice cage above',
    'mnemonic: test test test test test test test test test test test junk',
    'Set `MAIL_FROM=noreply@example.org` in development',
    'user@company.example 只是文档占位',
    'Henkilötunnuksen esimerkki: 131052-308T',
    'Mastercard 测试卡 5555 5555 5555 4444',
    '自由女神像：40°41′21″N 74°2′40″W',
    'Take the M15 bus or drive I-95 to exit 13A',
    '國立故宮博物院位於台北市士林區至善路二段221號。',
    '서울대학교병원은 서울특별시 종로구 대학로 101에 있다.',
    '型号 SM-G9910、A2848、XQ-BC72，编号 ISO/IEC 27001:2022',
]
