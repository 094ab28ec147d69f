"""Near-duplicate thresholds on held-out text: DRCD paragraphs (Traditional Chinese Wikipedia).

The thresholds in discovery/near_duplicates.py were chosen looking at the Rust book;
this measures them on data they never saw: 400 paragraphs copied with one edit each
(a sentence dropped or added, three characters changed, Markdown and punctuation
changed), every pair of neighbouring paragraphs of one article (same topic, different
text) and 3,000 random pairs.

    python benchmarks/bench_near_duplicates.py [--drcd /work/shared/eval/drcd_dev.json]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from desktop_kb.discovery.near_duplicates import NEAR_DUPLICATE, Shingles, overlap, same_passage  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--drcd", type=Path, default=Path("/work/shared/eval/drcd_dev.json"))
    args = parser.parse_args()
    rng = random.Random(11)
    data = json.loads(args.drcd.read_text(encoding="utf-8"))
    paras = [p["context"] for a in data["data"] for p in a["paragraphs"]]
    articles = [[p["context"] for p in a["paragraphs"]] for a in data["data"]]

    def edit(text: str) -> str:
        sents = re.split(r"(?<=[。！？])", text)
        kind = rng.choice(["drop", "add", "typo", "format"])
        if kind == "drop" and len(sents) > 3:
            i = rng.randrange(len(sents))
            return "".join(sents[:i] + sents[i + 1:])
        if kind == "add":
            return text + rng.choice(paras)[:60]
        if kind == "typo":
            chars = list(text)
            for _ in range(3):
                chars[rng.randrange(len(chars))] = rng.choice("的了是在")
            return "".join(chars)
        return "**" + text.replace("，", ", ").replace("。", ".\n") + "**"

    copies = [(Shingles.of(t), Shingles.of(edit(t))) for t in rng.sample(paras, 400)]
    neighbours = [(Shingles.of(x), Shingles.of(y)) for art in articles for x, y in zip(art, art[1:], strict=False)]
    randoms = [(Shingles.of(x), Shingles.of(y)) for x, y in (rng.sample(paras, 2) for _ in range(3000))]
    for name, pairs in (("edited copies", copies), ("neighbouring paragraphs", neighbours),
                        ("random pairs", randoms)):
        grouped = sum(same_passage(a, b) for a, b in pairs)
        hinted = sum(overlap(a, b) >= NEAR_DUPLICATE for a, b in pairs)
        print(f"{name:24s} n={len(pairs):5d}  grouped {grouped / len(pairs):.3f}  hinted {hinted / len(pairs):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
