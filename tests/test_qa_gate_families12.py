"""Families the session-12 sealed batch missed (told by family only, never by case): recovery phrases in
the other BIP39 lists, foreign national ID numbers, passports and travel permits, street addresses
outside mainland China. Each family is checked on variants written here in several languages and
containers, with hard negatives that look the same and must pass.
"""

from __future__ import annotations

import json
import unicodedata

import pytest

from desktop_kb.qa.detectors import detect


def _found(text: str) -> list[tuple[str, str]]:
    return [(f.kind, text[f.start:f.end]) for f in detect(text)]


def _withheld(text: str, secret: str) -> bool:
    """Every character of every occurrence of ``secret`` (but spaces and list punctuation) is withheld."""
    findings = detect(text)
    pos = text.find(secret)
    assert pos >= 0, secret
    while pos >= 0:
        if not all(text[i].isspace() or any(f.start <= i < f.end for f in findings)
                   for i in range(pos, pos + len(secret))):
            return False
        pos = text.find(secret, pos + 1)
    return True


# ----- recovery phrases in the other BIP39 lists (each phrase below checks out) ---------------------

_JA = ["のいず", "がぞう", "たこく", "とおか", "にいがた", "さんせい", "からい", "ばいく", "ひかん", "おだやか", "まかせる", "とかす"]
_JA24 = ["きんようび", "きけんせい", "ねんぶつ", "ゆたか", "しなもの", "のがす", "ひろう", "ひよう", "あんない", "とける", "とんかつ", "ひっす", "つるぼ", "やっぱり", "きせい", "うったえる", "べんきょう", "せめる", "まこと", "こしつ", "るいせき", "いふく", "いったん", "よかん"]
_KO = ["제발", "일상", "문서", "무슨", "필통", "미용실", "적응", "옥상", "졸업", "초상화", "용서", "결론"]
_ES = ["gallo", "engaño", "pimienta", "arnés", "topar", "rosa", "goloso", "monarca", "hablar", "conocer", "cemento", "reloj"]
_ES2 = ["enseñar", "odio", "rebote", "doble", "inicio", "preso", "regalo", "sanidad", "gaita", "torso", "explicar", "tarde"]
_FR = ["replier", "thorax", "ambigu", "méditer", "agréable", "panneau", "radieux", "abyssal", "euphorie", "débiter", "notable", "lubie", "vaincre", "lambeau", "encoche"]
_IT = ["agave", "ingaggio", "zelante", "faticare", "cronaca", "baraonda", "capitolo", "loto", "tipico", "brindare", "rubrica", "sbendare"]
_CS = ["inspekce", "podcenit", "obout", "monokl", "pokrok", "kmotr", "hrdlo", "dominant", "dokument", "chleba", "kudlanka", "okurka"]
_PT = ["apito", "gula", "requerer", "sotaque", "viatura", "apesar", "baixista", "depois", "alusivo", "ruivo", "muito", "vitral"]
_PT18 = ["rabisco", "hormonal", "capotar", "formiga", "turma", "crioulo", "recordar", "fosco", "patente", "oneroso", "bacharel", "encaixe", "ejetar", "tedioso", "lucidez", "arcada", "tampa", "viajar"]
_KO24 = ["센티미터", "결정", "참새", "지진", "지출", "고객", "아흔", "자신", "잠자리", "미혼", "학습", "빗방울", "삼십", "열기", "남산", "수석", "학번", "결석", "약품", "손질", "무조건", "초콜릿", "시리즈", "출산"]
_EN = ["cheap", "flock", "person", "venture", "ghost", "brown", "never", "index", "pioneer", "boss", "actor", "interest"]


def _grid(words: list[str], columns: int = 3) -> str:
    rows = ["| | | |", "|---|---|---|"]
    for i in range(0, len(words), columns):
        rows.append("| " + " | ".join(f"{i + j + 1}. {w}" for j, w in enumerate(words[i:i + columns])) + " |")
    return "\n".join(rows)


_PHRASES = [
    ("ウォレットの復元用（紙にも書いた）\n" + "\u3000".join(_JA), _JA),  # ideographic spaces, a note
    ("\n".join(f"{i + 1}. {w}" for i, w in enumerate(_JA24)), _JA24),  # numbered, one a line, no label
    ("지갑 백업 메모: " + " ".join(_KO), _KO),
    ("[21:04] 민수: " + " ".join(_KO24) + "\n[21:05] 지은: 알았어", _KO24),  # a chat export, no label word
    (json.dumps({"wallet": "pruebas", "semilla": _ES}, ensure_ascii=False, indent=4), _ES),  # JSON array
    ("frase: " + " ".join(w.replace("ñ", "n").replace("é", "e") for w in _ES2),  # typed without accents
     [w.replace("ñ", "n").replace("é", "e") for w in _ES2]),
    ("## Sauvegarde du portefeuille\n\n" + _grid(_FR), _FR),  # a Markdown table of numbered cells
    ("wallet:\n  parole:\n" + "".join(f"    - {w}\n" for w in _IT), _IT),  # a YAML list
    ("Ahoj Petře,\nzde je záloha:\n" + ", ".join(_CS) + "\nS pozdravem", _CS),  # a mail, commas
    ("n,palavra\n" + "\n".join(f"{i + 1},{w}" for i, w in enumerate(_PT)), _PT),  # CSV rows
    ("Frase de recuperação (18 palavras): " + " ".join(_PT18), _PT18),
    (_grid(_EN), _EN),  # English, two-digit numbers in the cells (" |\n| 10. ")
    # Copied from the NFKD list files: が is か + U+3099, 결 is three jamo.
    (unicodedata.normalize("NFD", "シードフレーズ：" + " ".join(_JA)), unicodedata.normalize("NFD", " ".join(_JA)).split()),
    (unicodedata.normalize("NFD", " ".join(_KO)), unicodedata.normalize("NFD", " ".join(_KO)).split()),
]


@pytest.mark.parametrize(("text", "words"), _PHRASES)
def test_a_recovery_phrase_in_another_list_is_withheld(text: str, words: list[str]) -> None:
    assert all(_withheld(text, w) for w in words), _found(text)


@pytest.mark.parametrize("text", [
    # Vocabulary lists of list words: no checksum, no word for a phrase.
    "Vocabulario de la lección 3: casa, perro, gato, mesa, silla, puerta, ventana, libro, papel, lápiz, "
    "reloj, camisa",
    "ひらがなのれんしゅう：あさひ　いなか　うさぎ　えいが　おかし　かばん　きもの　くすり　けむり　こども　さくら　しあい",
    "단어장: 가방 나무 다리 라면 마음 바다 사과 아이 자리 차이 하늘 가게",
    "Vocabulaire : maison, jardin, fenêtre, cuisine, pomme, lampe, voiture, cheval, bateau, soleil, nuage, "
    "montagne",
    "Lista della spesa: pane latte burro pasta riso olio sale zucchero caffè uova pomodoro limone",
    "Slovíčka: pes kočka dům strom voda chleba mléko okno dveře stůl židle kniha",
    # Prose in those languages next to the word for a wallet: articles break every run.
    "Mi cartera tiene una frase de recuperación de doce palabras que guardo en un lugar seguro.",
    "ウォレットの復元には十二個の単語が必要です。紙に書いて保管してください。",
    "BIP39 has lists in Japanese, Korean, Spanish, French, Italian, Czech and Portuguese.",
])
def test_word_lists_that_are_not_a_phrase_pass(text: str) -> None:
    assert _found(text) == []
