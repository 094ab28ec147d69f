"""Write the English plural forms (desktop_kb_en.ts/.qm) for every ``tr("%n …(s)…", "", n)``.

English is the source language and needs no translation, except for counts: Qt shows the
source text itself ("1 source(s)") unless a translation gives the singular and plural
forms. ``lupdate -pluralonly`` lists the messages with ``%n``; their forms are made here by
rule ("(s)" and "(es)" dropped or kept, a verb after the count agreeing with it), so adding a
new count only needs ``.venv/bin/python tools/english_plurals.py`` (tests/test_gui_language.py
fails until it is run).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "desktop_kb" / "resources" / "translations"
TS = TRANSLATIONS / "desktop_kb_en.ts"
BIN = Path(sys.executable).parent

# Words that agree with the counted thing take their singular for a count of one.
_SINGULAR = (
    ("page(s) are ", "page(s) is "), ("page(s) wait ", "page(s) waits "),
    ("text layer wait for", "text layer waits for"), ("passage(s) still need ", "passage(s) still needs "),
    ("page(s); they are", "page(s); it is"), ("note(s) link to ", "note(s) links to "),
    ("Update their links", "Update its links"),
    ("because their files are gone", "because its file is gone"),
    ("could not be indexed. They are", "could not be indexed. It is"),
)


def english_forms(source: str) -> tuple[str, str]:
    """(singular, plural) of a message with ``%n``."""
    singular = source
    for plural_words, singular_words in _SINGULAR:
        singular = singular.replace(plural_words, singular_words)
    singular = singular.replace("(es)", "").replace("(s)", "")
    plural = source.replace("(es)", "es").replace("(s)", "s")
    return singular, plural


def plural_messages(sources: list[Path]) -> Path:
    """A fresh ``lupdate -pluralonly`` listing of the messages with a count."""
    out = Path(tempfile.mkdtemp()) / "plurals.ts"
    subprocess.run([str(BIN / "pyside6-lupdate"), "-silent", "-pluralonly", "-locations", "none",
                    "-source-language", "en", "-target-language", "en",
                    *map(str, sources), "-ts", str(out)], check=True)
    return out


def add_chinese_counts(tree: ET.ElementTree) -> None:
    """lupdate misses ``QCoreApplication.translate(ctx, text, "", n)``; the Chinese file has them."""
    root = tree.getroot()
    have = {(c.findtext("name"), m.findtext("source")) for c in root.iter("context")
            for m in c.iter("message")}
    zh = ET.parse(TRANSLATIONS / "desktop_kb_zh_CN.ts").getroot()
    for context in zh.iter("context"):
        name = context.findtext("name")
        for message in context.iter("message"):
            source = message.findtext("source")
            if message.get("numerus") != "yes" or (name, source) in have:
                continue
            target = next((c for c in root.iter("context") if c.findtext("name") == name), None)
            if target is None:
                target = ET.SubElement(root, "context")
                ET.SubElement(target, "name").text = name
            added = ET.SubElement(target, "message", numerus="yes")
            ET.SubElement(added, "source").text = source
            ET.SubElement(added, "translation")


def main() -> None:
    sources = sorted(p for p in (ROOT / "desktop_kb").rglob("*.py") if "__pycache__" not in p.parts)
    tree = ET.parse(plural_messages(sources))
    add_chinese_counts(tree)
    for message in tree.getroot().iter("message"):
        translation = message.find("translation")
        for child in list(translation):
            translation.remove(child)
        translation.attrib.pop("type", None)
        translation.text = None
        for form in english_forms(message.findtext("source") or ""):
            ET.SubElement(translation, "numerusform").text = form
    ET.indent(tree, space="    ")
    tree.write(TS, encoding="utf-8", xml_declaration=True)
    subprocess.run([str(BIN / "pyside6-lrelease"), "-silent", str(TS), "-qm",
                    str(TS.with_suffix(".qm"))], check=True)


if __name__ == "__main__":
    main()
