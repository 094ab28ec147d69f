"""Content gate (gate 2) quality: recall on secrets, false positives on real study text.

Run from the repository root::

    .venv/bin/python benchmarks/bench_gate.py [--json] [--show-misses] [--code-dir DIR]

Recall, per category, on labelled corpora (benchmarks/gate_corpus/):
``written`` (the shapes the detectors were built against), then ``heldout``
to ``heldout25``, each written after the detectors passed the batches before
it and measured before any change it prompted (see each module's docstring
for its first-run figure). Each case is a note, a
pasted ``.env`` file or an imported file (md, json, yaml, py, txt), split
into sources exactly as the importer splits it; the gate reads every source
whole (with its neighbouring fragments), the way the QA path does. A case
counts as found only when every character of every labelled secret is
withheld or redacted.

False positives, per set: every paragraph of CMRC 2018 trial and DRCD dev
(Chinese encyclopedia text) and every question of both (as the question gate
sees them), both columns of the Tatoeba pairs (everyday English and Chinese
sentences), every fragment of the Rust book in Chinese
(code, hashes, identifiers) and the study-text negatives in the corpus
(``negatives``; ``negatives2`` and ``negatives3``, written with ``heldout4`` and
``heldout5``, reported together as ``study_negatives_heldout``; ``negatives4``, written with
``heldout6``, as ``study_negatives_session8``; ``negatives5``, written with ``heldout8``, as
``study_negatives_session9``; ``negatives6``, aimed at that session's new rules after they were
written, as ``study_negatives_session9_rules``; ``negatives7``, aimed at session 10's structural
rules — labels, tables, comments, joined lines, encoded values — as ``study_negatives_session10_rules``;
``negatives8``, written with ``heldout9``, as ``study_negatives_session10``; ``negatives9``, written
with ``heldout10``, as ``study_negatives_session11``; ``negatives10``, written with ``heldout11``, as
``study_negatives_session12``; ``negatives11``, written with ``heldout12``, as ``study_negatives_session13``; ``negatives12``, written
with ``heldout13``, as ``study_negatives_session14``; ``negatives13``, written with ``heldout14``, as
``study_negatives_session15``; ``negatives14``, written with ``heldout15``, as ``study_negatives_session17``;
``negatives15``, written with the sealed ``heldout16`` in session 17 and released in session 18, as
``study_negatives_session17_sealed``; ``negatives17``, written with ``heldout18``, as
``study_negatives_session18``; ``negatives18``, written with ``heldout19`` and kept
unread while the session's rules were written, as ``study_negatives_session18_held``; ``negatives16``,
written with the sealed ``heldout17`` in session 18 and released in session 19, as
``study_negatives_session18_sealed``; ``negatives20``, written with ``heldout21`` in session 19, as
``study_negatives_session19``; ``negatives21``, written with ``heldout22`` and kept unread while the
session's rules were written, as ``study_negatives_session19_held``; ``negatives19``, written with the
sealed ``heldout20`` in session 19 and released in session 20, as ``study_negatives_session19_sealed``;
``negatives23``, written with ``heldout24`` in session 20, as ``study_negatives_session20``; ``negatives24``,
written with ``heldout25`` and kept unread while the session's rules were written, as
``study_negatives_session20_held``). Any
finding in a source that holds no secret is a false positive. The public
data is read in place, never copied into the repository.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.gate_corpus import CATEGORIES, Case, v1_detectors  # noqa: E402
from benchmarks.gate_corpus.negatives import NEGATIVES  # noqa: E402
from benchmarks.gate_corpus.negatives2 import NEGATIVES as HELDOUT_NEGATIVES  # noqa: E402
from benchmarks.gate_corpus.negatives3 import NEGATIVES as HELDOUT_NEGATIVES3  # noqa: E402
from benchmarks.gate_corpus.negatives4 import NEGATIVES as SESSION8_NEGATIVES  # noqa: E402
from benchmarks.gate_corpus.negatives5 import NEGATIVES as SESSION9_NEGATIVES  # noqa: E402
from benchmarks.gate_corpus.negatives6 import NEGATIVES as SESSION9_RULE_NEGATIVES  # noqa: E402
from benchmarks.gate_corpus.negatives7 import NEGATIVES as SESSION10_RULE_NEGATIVES  # noqa: E402
from benchmarks.gate_corpus.negatives8 import NEGATIVES as SESSION10_NEGATIVES  # noqa: E402
from benchmarks.gate_corpus.negatives9 import NEGATIVES as SESSION11_NEGATIVES  # noqa: E402
from benchmarks.gate_corpus.negatives10 import NEGATIVES as SESSION12_NEGATIVES  # noqa: E402
from benchmarks.gate_corpus.negatives11 import NEGATIVES as SESSION13_NEGATIVES  # noqa: E402
from benchmarks.gate_corpus.negatives12 import NEGATIVES as SESSION14_NEGATIVES  # noqa: E402
from benchmarks.gate_corpus.negatives13 import NEGATIVES as SESSION15_NEGATIVES  # noqa: E402
from benchmarks.gate_corpus.negatives14 import NEGATIVES as SESSION17_NEGATIVES  # noqa: E402
from benchmarks.gate_corpus.negatives15 import NEGATIVES as SESSION17_SEALED_NEGATIVES  # noqa: E402
from benchmarks.gate_corpus.negatives16 import NEGATIVES as SESSION18_SEALED_NEGATIVES  # noqa: E402
from benchmarks.gate_corpus.negatives17 import NEGATIVES as SESSION18_NEGATIVES  # noqa: E402
from benchmarks.gate_corpus.negatives18 import NEGATIVES as SESSION18_HELD_NEGATIVES  # noqa: E402
from benchmarks.gate_corpus.negatives19 import NEGATIVES as SESSION19_SEALED_NEGATIVES  # noqa: E402
from benchmarks.gate_corpus.negatives20 import NEGATIVES as SESSION19_NEGATIVES  # noqa: E402
from benchmarks.gate_corpus.negatives21 import NEGATIVES as SESSION19_HELD_NEGATIVES  # noqa: E402
from benchmarks.gate_corpus.negatives23 import NEGATIVES as SESSION20_NEGATIVES  # noqa: E402
from benchmarks.gate_corpus.negatives24 import NEGATIVES as SESSION20_HELD_NEGATIVES  # noqa: E402
from desktop_kb.importer.formats import normalise_text, split_document  # noqa: E402
from desktop_kb.qa.detectors import Finding  # noqa: E402
from desktop_kb.qa.source_spans import NEIGHBOUR_CHARS, clear_cache, spans_for_text  # noqa: E402

SPEED_SETS = ("cmrc2018_trial", "drcd_dev", "rust_book_cn")
BATCHES = ("written", "heldout", "heldout2", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7",
           "heldout8", "heldout9", "heldout10", "heldout11", "heldout12",
           "heldout13", "heldout14", "heldout15", "heldout16", "heldout18", "heldout19",
           "heldout17", "heldout21", "heldout22", "heldout20", "heldout24", "heldout25")
# in the order they were written (heldout17 was sealed while 18 and 19 were, heldout20 while 21 and 22 were)
SHARED = ROOT.parent / "shared"
if not SHARED.exists():  # a worktree sits one level deeper than the main checkout
    SHARED = ROOT.parents[1] / "shared"


def case_sources(case: Case) -> list[tuple[str, str, str]]:
    """(text, before, after) per source, the way the library stores the case."""
    if case.container in ("note", "env"):
        return [(case.text, "", "")]
    text = normalise_text(case.text)
    frags = split_document(text, case.container, f"{case.id}.{case.container}").fragments
    return [(f.text, frags[i - 1].text[-NEIGHBOUR_CHARS:] if i else "",
             frags[i + 1].text[:NEIGHBOUR_CHARS] if i + 1 < len(frags) else "")
            for i, f in enumerate(frags)]


def covered(findings: Iterable[Finding], start: int, end: int, text: str) -> bool:
    spans = list(findings)
    return all(text[i].isspace() or any(f.start <= i < f.end for f in spans) for i in range(start, end))


FindingsFn = Callable[[str, str, str], Sequence[Finding]]


def gate_findings(text: str, before: str, after: str) -> Sequence[Finding]:
    """What the app's gate withholds in a source (whole-source spans, neighbours where needed)."""
    return spans_for_text(text, before=before, after=after).findings


def v1_findings(text: str, _before: str, _after: str) -> Sequence[Finding]:
    """The baseline: the detectors before issue 10, on the source alone."""
    return v1_detectors.detect(text)  # type: ignore[return-value]


def check_case(case: Case, findings_of: FindingsFn = gate_findings) -> tuple[bool, list[str]]:
    """(found, what leaked): every occurrence of every secret in every source must be covered."""
    leaked: list[str] = []
    located = {s: False for s in case.secrets}
    for text, before, after in case_sources(case):
        findings = findings_of(text, before, after)
        for secret in case.secrets:
            pos = text.find(secret)
            while pos >= 0:
                located[secret] = True
                if not covered(findings, pos, pos + len(secret), text):
                    leaked.append(secret)
                pos = text.find(secret, pos + 1)
    leaked += [f"(not in any source) {s}" for s, ok in located.items() if not ok]
    return not leaked, leaked


def recall(cases: list[Case], findings_of: FindingsFn = gate_findings) -> dict[str, object]:
    per: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    misses = []
    for case in cases:
        ok, leaked = check_case(case, findings_of)
        per[case.category][1] += 1
        per[case.category][0] += ok
        if not ok:
            misses.append({"id": case.id, "category": case.category, "container": case.container,
                           "leaked": leaked})
    found = sum(v[0] for v in per.values())
    return {"cases": len(cases), "found": found, "recall": round(found / max(1, len(cases)), 4),
            "per_category": {c: {"found": per[c][0], "cases": per[c][1],
                                 "recall": round(per[c][0] / per[c][1], 4)} for c in CATEGORIES if c in per},
            "misses": misses}


# ----- false positives -------------------------------------------------------------------------

def squad_paragraphs(path: Path) -> list[str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [p["context"] for a in data["data"] for p in a["paragraphs"]]


def rust_book_sources(folder: Path) -> list[tuple[str, str, str, str]]:
    out = []
    for path in sorted(folder.rglob("*.md")):
        text = normalise_text(path.read_text(encoding="utf-8"))
        frags = split_document(text, "md", path.name).fragments
        for i, f in enumerate(frags):
            out.append((f"{path.name}#{i}", f.text, frags[i - 1].text[-NEIGHBOUR_CHARS:] if i else "",
                        frags[i + 1].text[:NEIGHBOUR_CHARS] if i + 1 < len(frags) else ""))
    return out


def false_positives(sources: list[tuple[str, str, str, str]],
                    findings_of: FindingsFn = gate_findings) -> dict[str, object]:
    flagged = []
    for name, text, before, after in sources:
        findings = findings_of(text, before, after)
        if findings:
            flagged.append({"source": name, "found": [[f.kind, text[f.start:f.end][:80]] for f in findings]})
    return {"sources": len(sources), "flagged": len(flagged), "chars": sum(len(s[1]) for s in sources),
            "examples": flagged[:20]}


def speed(sources: list[tuple[str, str, str, str]], rounds: int = 3) -> dict[str, float]:
    """Characters per second of the gate and of the v1 baseline on the same sources, in alternating
    rounds (best of each, cache cleared), so machine load affects both alike."""
    chars = sum(len(s[1]) for s in sources)
    best = {"gate": float("inf"), "v1": float("inf")}
    for _ in range(rounds):
        for name, fn in (("gate", gate_findings), ("v1", v1_findings)):
            clear_cache()
            t0 = time.perf_counter()
            for _name, text, before, after in sources:
                fn(text, before, after)
            best[name] = min(best[name], time.perf_counter() - t0)
    return {"gate_chars_per_s": round(chars / best["gate"]), "v1_chars_per_s": round(chars / best["v1"]),
            "ratio": round(best["v1"] / best["gate"], 3)}


def worst_case(chars: int = 24_000) -> dict[str, float]:
    """Characters per second on inputs built to make a regex backtrack (one long dotted or dashed
    run, a base58 run, spaced list words or characters, many colon lines, a long cookie): the gate
    reads whole sources of up to 64,000 characters, so no shape may be quadratic. Before session 9
    a dashed or dotted run took ~1.2 s per 24,000 characters (assignments' unbounded name), a run
    of 10,000 spaces ~1.0 s (the YAML key/value pair), "sk-sk-…" ~0.8 s per 20,000 and a line of
    quoted literals ~0.9 s per 12,000 (each read its name back from the line's start); the session's
    own cookie rule took ~1 s per 12,000 on "cookie:" lines without any "=" until it checked first."""
    import random
    import string

    from desktop_kb.qa.detectors import detect

    rng = random.Random(1)
    letters = string.ascii_letters

    def joined(sep: str, width: int) -> str:
        return sep.join("".join(rng.choice(letters) for _ in range(width)) for _ in range(chars // (width + 1)))

    shapes = {
        "dotted_run": joined(".", 7), "dashed_run": joined("-", 5), "discord_like": joined(".", 27),
        "base58_run": "".join(rng.choice("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")
                              for _ in range(chars)),
        "list_words": " ".join(rng.choice(["abandon", "ability", "able", "about", "above"])
                               for _ in range(chars // 7)),
        "spaced_han": " ".join(rng.choice("的一是在不了有和人这中大为上个国") for _ in range(chars // 2)),
        "colon_lines": "\n".join("密码（说明）：" for _ in range(chars // 8)),
        "cookie": "Cookie: " + "; ".join(f"k{i}={'a' * 20}{i}" for i in range(chars // 28)),
        "space_run": " " * chars, "sk_run": "sk-" * (chars // 3),
        "quoted_literals": ("x" * 36 + "'x'") * (chars // 39),
        "cookie_words": ("cookie:" + "cookie" * 4) * (chars // 31),
        # session 10's structural rules: a label word, a label line, a table row, a joint on every few
        # characters (each was linear in the end; a Markdown or CSV row re-read the rows below it, a
        # sentence lower-cased the whole text per label word, until each read only what it needed)
        "label_words": "password " * (chars // 9), "comment_labels": "# password\n" * (chars // 11),
        "md_rows": "| 密码 | x |\n" * (chars // 12), "csv_rows": "a,password,b\n" * (chars // 13),
        "sentences": "the password is " * (chars // 16), "call_pairs": "'password', " * (chars // 12),
        "quote_joints": '"abcd" ' * (chars // 7), "masks": "abcd****" * (chars // 8),
        "one_word_lines": "abcdef12\n" * (chars // 9),
        # session 12's rules: words for ID numbers and passports before numbers on one long line (each word
        # read the whole line again, until one window per line and kind), a home-address label before a
        # line of digits (an address test backtracked), lines of MRZ characters, words of other BIP39 lists
        "id_words": "SSN DNI CPF NIE passport tel 123456789 " * (chars // 39),
        "home_labels": ("home address: " + "1 " * 140 + "\n") * (chars // 295),
        "mrz_lines": ("P<<" + "A" * 40 + "\n") * (chars // 44), "other_words": "casa mesa " * (chars // 10),
        "address_fields": "name: a, address: 1 main st, " * (chars // 29),  # (each field read the whole line)
        # session 13's phrase forms: word numbers, four-letter words, joined words, Han runs after 助记词
        "word_numbers": "1840, " * (chars // 6), "four_letters": "01 ABCD " * (chars // 8),
        "joined_words": "abandon-" * (chars // 8), "phrase_words": "助记词" * (chars // 3),
        # tools' flags and calls (each tool word reads to the end of its command)
        "tool_flags": "zip -P a 7z -pb " * (chars // 16), "tool_paths": "a/b/c/d/zip" * (chars // 11),
        "setter_calls": "set_token('abcd') " * (chars // 18),
        # escapes: one long run decoded once, and escapes set apart so each is read again with its surroundings
        "plate_words": "kennzeichen: AB 12, placa " * (chars // 26), "sg_plates": "car SDU3046R " * (chars // 13),
        "plate_columns": ("nome,placa\n" + "a,AB12CD\n" * 3) * (chars // 38),
        "phone_words": "handy: 0157 2345 6789, mob: (11) " * (chars // 33),
        "cookie_file": ".a.com\tTRUE\t/\tTRUE\t1\tsid\t" * (chars // 29),
        "aligned_rows": "密码  password  token  pin\n" * (chars // 26),
        "han_joined": "子、丑、寅、卯、辰、巳、午、未、申、酉、戌、亥、" * (chars // 24),
        "quotes_apart": ('\\"' + "x" * 70) * (chars // 72),
        "escape_run": "\\u0031" * (chars // 6), "escapes_apart": ("\\u5bc6" + "x" * 65) * (chars // 71),
        # session 15's accounts: a word for an account on every few characters of one line (each read its line
        # and its CSV header again), a bank's name repeated, a Han run before 银行
        "account_words": "account no: x, " * (chars // 15), "account_csv": "acct,bank," * (chars // 10),
        "bank_names": "招商银行 12 " * (chars // 10), "han_bank": "的" * (chars - 2) + "银行",
        # address lines of many parts (each part is read against every shape), flats, and ID words right before values
        "address_parts": ("Ab 1, lgh 2, " * 18 + "\n") * (chars // 235), "flat_lines": "apt 1, 3. OG, 28195 Bremen\n" * (chars // 27),
        "id_labels": "NIN: 48213570962 " * (chars // 17),
        "mobile_words": "mob 0412 345 6 tel. kom. " * (chars // 25), "plate_words2": "plaka: 06 ABC 1, " * (chars // 17),
        # session 16's re-readings: each run, call, reference or wrapped value read again with its line (a long
        # line of radio-alphabet words took 8.6 s per 24,000 characters until a run's excerpt was bounded)
        "radio_words": " ".join(["Alfa", "Bravo", "one", "two"] * (chars // 15)), "char_refs": "&#65;" * (chars // 5),
        "join_items": "''.join([" + ", ".join(["'ab'"] * (chars // 6)) + "])", "markup_values": "<code>abcd</code> " * (chars // 18),
        "lock_words": "door code 1234 " * (chars // 15), "list_parts": "lacra ataque leche destino huida\n" * (chars // 32),
        # session 17's families: decode calls (each call's literal is decoded and its line read again), setup
        # commands and their arguments, typed declarations, Base32 and Ascii85 runs, hex DER, other auth schemes
        "decode_calls": "k = b64decode('" + "QUJD" * (chars // 8) + "') " + "x.b64decode('QUJDRA==') " * (chars // 50),
        "setup_words": "tool config login auth init -k " * (chars // 31), "typed_names": "apiKey: string = x; " * (chars // 20),
        "base32_run": "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") for _ in range(chars)),
        "ascii85_opens": "<~" + "!" * (chars - 2), "hex_der": "30820122020100" + "a" * (chars - 14),
        "auth_schemes": "Authorization: Scheme " * (chars // 22),
        "named_elements": '<string name="api_key">' * (chars // 23),
        "home_prose": "I live at 1 the house at 2 " * (chars // 27), "spaced_names": "ENV API_KEY ENV " * (chars // 16),
        "store_values": "secret set --value x " * (chars // 21),
        # session 19's families: hex dump lines and uuencode headers (each read back as bytes), quoted-printable
        # soft breaks, query keys, CLI arguments, numbered header cells, kanji chōme, payment words, qualified
        # password words, ID words of the new forms, plates in Latin letters
        "hex_dump_lines": "00000000  74 6f 6b 65 6e 3d 61 62  63 64 65 66 67 68 69 6a  |token=abcdefghij|\n" * (chars // 79),
        "uu_begins": "begin 644 a\nM86)C\n" * (chars // 19),
        "qp_breaks": "Content-Transfer-Encoding: quoted-printable\n" + "abcdefgh=\n" * (chars // 10),
        "query_keys": "?key=" + "&key=abcdef0123456789abcd" * (chars // 25),
        "cli_args": "; foo-cli " * (chars // 10), "part_headers": ("key_part1," * 20 + "\n") * (chars // 201),
        "kanji_chome": "住所 本町三丁目七番" * (chars // 10), "payment_words": "Swish 073 " * (chars // 10),
        "qualified_words": "password of the wifi is " * (chars // 24), "nhs_words": "NHS no 849 524 " * (chars // 15),
        "pinyin_plates": "car Yue B D117 " * (chars // 15),
        # session 20's structural rules: the word for an ID, a passport or a plate before runs of groups (each
        # label reads the groups after it, bounded to its line's next 70 characters)
        "id_label_runs": "DNI 1 2 3 4 5 6 7 8 9 0 " * (chars // 24), "id_label_words": "cédula passport placa car " * (chars // 26),
        "id_han_labels": "身份证护照车牌" * (chars // 7),
        "designated_numbers": "House 1, Road 2, flat 3 " * (chars // 24), "numbered_units": "5-р байр 12동 3. patro " * (chars // 22),
        # roles: words for @ and . between names, a line of Cyrillic words read back through every layout, credential
        # words before tokens, single characters spelled or quoted, key phrases before long runs
        "spoken_mail": "ab at cd dot com " * (chars // 17), "layout_words": "тщшыу ензшсфд " * (chars // 14),
        "credential_words": "wifi is pass: login " * (chars // 20), "spelled_chars": "password a-1-" * (chars // 13),
        "char_array": "pw = ['a', '1', " * (chars // 16), "key_phrases": "api key " * (chars // 8),
    }
    out = {}
    for name, text in shapes.items():
        t0 = time.process_time()
        detect(text)
        out[name] = round(len(text) / max(time.process_time() - t0, 1e-6))
    return out


def fp_sets(args: argparse.Namespace) -> dict[str, list[tuple[str, str, str, str]]]:
    sets: dict[str, list[tuple[str, str, str, str]]] = {
        "study_negatives": [(f"neg#{i}", t, "", "") for i, t in enumerate(NEGATIVES)],
        "study_negatives_heldout": [(f"neg2#{i}", t, "", "") for i, t in enumerate(HELDOUT_NEGATIVES)]
        + [(f"neg3#{i}", t, "", "") for i, t in enumerate(HELDOUT_NEGATIVES3)],
        "study_negatives_session8": [(f"neg4#{i}", t, "", "") for i, t in enumerate(SESSION8_NEGATIVES)],
        "study_negatives_session9": [(f"neg5#{i}", t, "", "") for i, t in enumerate(SESSION9_NEGATIVES)],
        "study_negatives_session9_rules": [(f"neg6#{i}", t, "", "")
                                           for i, t in enumerate(SESSION9_RULE_NEGATIVES)],
        "study_negatives_session10_rules": [(f"neg7#{i}", t, "", "")
                                            for i, t in enumerate(SESSION10_RULE_NEGATIVES)],
        "study_negatives_session10": [(f"neg8#{i}", t, "", "") for i, t in enumerate(SESSION10_NEGATIVES)],
        "study_negatives_session11": [(f"neg9#{i}", t, "", "") for i, t in enumerate(SESSION11_NEGATIVES)],
        "study_negatives_session12": [(f"neg10#{i}", t, "", "") for i, t in enumerate(SESSION12_NEGATIVES)],
        "study_negatives_session13": [(f"neg11#{i}", t, "", "") for i, t in enumerate(SESSION13_NEGATIVES)],
        "study_negatives_session14": [(f"neg12#{i}", t, "", "") for i, t in enumerate(SESSION14_NEGATIVES)],
        "study_negatives_session15": [(f"neg13#{i}", t, "", "") for i, t in enumerate(SESSION15_NEGATIVES)],
        "study_negatives_session17": [(f"neg14#{i}", t, "", "") for i, t in enumerate(SESSION17_NEGATIVES)],
        "study_negatives_session17_sealed": [(f"neg15#{i}", t, "", "")
                                             for i, t in enumerate(SESSION17_SEALED_NEGATIVES)],
        "study_negatives_session18": [(f"neg17#{i}", t, "", "") for i, t in enumerate(SESSION18_NEGATIVES)],
        "study_negatives_session18_held": [(f"neg18#{i}", t, "", "") for i, t in enumerate(SESSION18_HELD_NEGATIVES)],
        "study_negatives_session18_sealed": [(f"neg16#{i}", t, "", "")
                                             for i, t in enumerate(SESSION18_SEALED_NEGATIVES)],
        "study_negatives_session19": [(f"neg20#{i}", t, "", "") for i, t in enumerate(SESSION19_NEGATIVES)],
        "study_negatives_session19_held": [(f"neg21#{i}", t, "", "") for i, t in enumerate(SESSION19_HELD_NEGATIVES)],
        "study_negatives_session19_sealed": [(f"neg19#{i}", t, "", "")
                                             for i, t in enumerate(SESSION19_SEALED_NEGATIVES)],
        "study_negatives_session20": [(f"neg23#{i}", t, "", "") for i, t in enumerate(SESSION20_NEGATIVES)],
        "study_negatives_session20_held": [(f"neg24#{i}", t, "", "") for i, t in enumerate(SESSION20_HELD_NEGATIVES)]}
    for name, path in (("cmrc2018_trial", args.cmrc), ("drcd_dev", args.drcd)):
        if path.exists():
            sets[name] = [(f"{name}#{i}", t, "", "") for i, t in enumerate(squad_paragraphs(path))]
    if args.rust_book.exists():
        sets["rust_book_cn"] = rust_book_sources(args.rust_book)
    for name, path in (("cmrc2018_questions", args.cmrc), ("drcd_questions", args.drcd)):
        if path.exists():  # real questions, judged the way the question gate judges them
            sets[name] = [(f"{name}#{i}", q, "", "") for i, q in enumerate(squad_questions(path))]
    if args.tatoeba.exists():  # everyday sentences in both languages ("Could you tell me the Wi-Fi password?")
        lines = [line.split("\t") for line in args.tatoeba.read_text(encoding="utf-8").splitlines()]
        sets["tatoeba_cmn"] = [(f"tatoeba#{i}.{j}", t, "", "") for i, row in enumerate(lines)
                               for j, t in enumerate(row[:2])]
    if args.code_dir is not None:
        sets["python_code"] = code_sources(args.code_dir, args.code_sample)
    return sets


def squad_questions(path: Path) -> list[str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [q["question"] for a in data["data"] for p in a["paragraphs"] for q in p["qas"]]


def code_sources(folder: Path, sample: int) -> list[tuple[str, str, str, str]]:
    """Fragments of ``sample`` .py files under ``folder`` (outside test folders), in a fixed
    shuffled order: code that names passwords and tokens without holding any. Third-party code
    does hold real personal data (authors' e-mail addresses) and test fixtures; read the
    examples before calling a finding false."""
    import random

    files = sorted(p for p in folder.rglob("*.py") if "test" not in str(p.relative_to(folder)).lower())
    random.Random(11).shuffle(files)
    out = []
    for path in files[:sample]:
        try:
            text = normalise_text(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            continue
        frags = split_document(text, "py", path.name).fragments
        out += [(f"{path.relative_to(folder)}#{i}", f.text, frags[i - 1].text[-NEIGHBOUR_CHARS:] if i else "",
                 frags[i + 1].text[:NEIGHBOUR_CHARS] if i + 1 < len(frags) else "") for i, f in enumerate(frags)]
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cmrc", type=Path, default=SHARED / "eval" / "cmrc2018_trial.json")
    parser.add_argument("--drcd", type=Path, default=SHARED / "eval" / "drcd_dev.json")
    parser.add_argument("--rust-book", type=Path, default=SHARED / "corpora" / "rust-book-cn" / "src")
    parser.add_argument("--tatoeba", type=Path, default=SHARED / "eval" / "tatoeba_cmn_dev.tsv")
    parser.add_argument("--code-dir", type=Path, help="also measure false positives on .py files here")
    parser.add_argument("--code-sample", type=int, default=1000, help="how many files of --code-dir")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--show-misses", action="store_true", help="print what leaked and every flagged source")
    args = parser.parse_args()

    import importlib

    batches = {name: importlib.import_module(f"benchmarks.gate_corpus.{name}").CASES for name in BATCHES}
    sets = fp_sets(args)
    result: dict[str, object] = {
        "recall": {name: recall(cases) for name, cases in batches.items()},
        "false_positives": {name: false_positives(s) for name, s in sets.items()},
        "baseline_v1": {
            "recall": {name: recall(cases, v1_findings) for name, cases in batches.items()},
            "false_positives": {name: false_positives(s, v1_findings) for name, s in sets.items()}},
        "speed": {name: speed(s) for name, s in sets.items() if name in SPEED_SETS},
        "worst_case_chars_per_s": worst_case(),
    }
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=1))
        return 0
    for name, r in result["recall"].items():  # type: ignore[union-attr]
        print(f"recall [{name}]: {r['found']}/{r['cases']} ({r['recall']:.1%})")
        for cat, v in r["per_category"].items():
            print(f"  {cat:<18} {v['found']:>3}/{v['cases']:<3} {v['recall']:.1%}")
        if args.show_misses:
            for miss in r["misses"]:
                print(f"  MISSED {miss['id']} ({miss['container']}): {miss['leaked']}")
    baseline = result["baseline_v1"]
    for name, fp in result["false_positives"].items():  # type: ignore[union-attr]
        old = baseline["false_positives"][name]  # type: ignore[index]
        print(f"false positives [{name}]: {fp['flagged']}/{fp['sources']} sources, {fp['chars']:,} chars "
              f"(v1 baseline: {old['flagged']})")
        if args.show_misses:
            for ex in fp["examples"]:
                print(f"  {ex['source']}: {ex['found']}")
    for name, r in baseline["recall"].items():  # type: ignore[index]
        print(f"baseline v1 recall [{name}]: {r['found']}/{r['cases']} ({r['recall']:.1%}) "
              + ", ".join(f"{c} {v['found']}/{v['cases']}" for c, v in r["per_category"].items()))
    print("worst case (CPU, chars/s): " + ", ".join(
        f"{k} {v:,}" for k, v in result["worst_case_chars_per_s"].items()))  # type: ignore[union-attr]
    for name, sp in result["speed"].items():  # type: ignore[union-attr]
        print(f"speed [{name}]: gate {sp['gate_chars_per_s']:,} chars/s, v1 {sp['v1_chars_per_s']:,} chars/s "
              f"(gate takes {1 / sp['ratio']:.1f}x the v1 time; best of 3 alternating rounds)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
