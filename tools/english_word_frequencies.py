"""Write the English everyday-word frequencies the relevance floor reads (resources/words/).

    pip download --no-deps wordfreq==3.1.1 && pip install --target WF wordfreq-3.1.1-*.whl
    PYTHONPATH=WF .venv/bin/python tools/english_word_frequencies.py

wordfreq's 'small' English list (about 29k words down to a frequency of 10^-6), one
line per frequency step: ``zipf*100<TAB>word word ...``, gzipped (~130 kB). The app
does not depend on wordfreq (57 MB with its other languages); only this derived list,
under wordfreq's data licence (CC BY-SA 4.0, see resources/words/README.md), ships.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import wordfreq  # type: ignore[import-not-found]

OUT = Path(__file__).resolve().parents[1] / "desktop_kb" / "resources" / "words" / "en_zipf.txt.gz"


def main() -> int:
    steps: dict[int, list[str]] = {}
    for word in wordfreq.iter_wordlist("en", "small"):
        if not word.isascii() or not word.strip():
            continue  # the app reads ASCII query words only (its Latin tokens)
        steps.setdefault(round(wordfreq.zipf_frequency(word, "en", wordlist="small") * 100), []).append(word)
    lines = [f"{z}\t{' '.join(words)}" for z, words in sorted(steps.items(), reverse=True)]
    with gzip.open(OUT, "wt", encoding="utf-8", compresslevel=9) as out:
        out.write("# wordfreq 3.1.1 "
                  "'small' English list, CC BY-SA 4.0 (resources/words/README.md)\n")
        out.write("\n".join(lines) + "\n")
    print(f"{sum(map(len, steps.values()))} words in {len(steps)} steps -> {OUT} ({OUT.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
