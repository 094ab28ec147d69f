"""The relevance floor, fitted leave-one-set-out on what it must separate.

    .venv/bin/python benchmarks/bench_floor.py --model use-multilingual --version r6 \\
        [--sets cmrc,drcd,zhpara,en_zh] [--derived f6] [--cases] [--write] [--models-dir D/models]

For each public set in turn, the floor (``FusionParams.floor_closeness``: a
share of the way from unrelated text to a sentence's own passage) is fitted on
the other sets and the left-out set's questions are scored with it
(``floor_data``: tiny libraries that hold the question's passage, or only its
topic, or nothing of it; the whole library with and without its passage). A
silenced present question hides material a person has; an absent question that
gets results only shows weak dense hits under a question no keyword matched.
So the fit keeps present and topic-level questions found: the floor is the
lowest ``PRESENT_PERCENTILE`` (``TOPIC_PERCENTILE`` for topic-level questions)
over the training sets' kinds, and the report says how many absent questions it
still catches.

``--cases`` also runs ``benchmarks/data/floor_cases.tsv`` (adversarial tiny
libraries written before this fit: short questions, English about Chinese notes,
the one-note library of ``make dist-check``) through the app's own search with
the floor written in ``calibrations.json``.

Measured (session 5; dumps r6 for USE, r5u for e5 int8), the absolute floor alone. Held out,
share of questions silenced whose own passage is in a tiny library / only its topic is / absent
ones caught: USE 0.0-0.8 % / 6.2 % (DRCD, whose fold has no topic-level data to fit on) / 19-43 %;
e5 0.0-2.3 % / 0.8 % / 3-92 %.

Session 6: a second, per-query floor (``floor_reference``): closeness above the question's own
cosine to the centroid of ordinary passages, so a question that sits high against everything
(e5's compressed cosines) is judged against itself. The app silences under either floor. Held
out (same dumps), present silenced / topic silenced / absent caught, both floors:
USE  cmrc 0.8 % / - / 47.5 %; drcd 0.8 % / 6.5 % / 36.9 %; zhpara 0.0 % / - / 20.6 %;
     en_zh 0.0 % / - / 33.9 % (the absolute floor holds there: ``across_scripts``).
e5   cmrc 0.3 % / - / 47.3 % (was 14.3); drcd 0.4 % / 19.6 % / 73.6 % (was 8.6); zhpara 0.0 % /
     - / 34.1 % (was 2.8); en_zh 0.0 % / - / 9.1 % (no floor across scripts before).
DRCD's topic-level questions are the only ones there are, so its fold fits without any: split
by article (half in the fit), e5 silences 5.2-5.3 % of them and catches 36-38 % of absent ones;
USE 3.7-8.4 % / 31-41 %. All-sets fits: per-query USE 0.075, e5 0.194.
Sets derived from Tatoeba (``--derived``, never fitted on): Chinese questions on English passages
and English on English, floors fitted on all sets. Read against CHINESE passages, e5's per-query
floor would silence 12.8 % of Chinese questions on English text (23.7 % in a whole library), so
the baseline is read in the library's language (the English centroid ``reference_en``): then
0.0 % silenced, 51.8 % of absent ones caught (USE 0.0 % / 42.3 %); English on English 0.0 %
silenced, 78.3 % caught (USE 34.3 %). The absolute floor holds across scripts for USE both ways
(0.0 %), not for e5 (2.3 % of en->zh present questions).
Adversarial tiny libraries (49, 20 written this session before the per-query floor): USE 48
(unchanged; "where to buy cheap flights" against a Rust library still gets results), e5 43 (was
34: five questions about a note's topic in the other script were silenced and ten absent ones
got results; now none silenced, and six absent ones get weak results: three English ones on
Chinese notes, "how to grow tomatoes" and 结婚纪念日送什么礼物 on the half-English library,
whose baseline is half English, and 如何更换汽车轮胎 on the medicine note). The first 29 cases
alone: USE 28 (unchanged), e5 27 (was 21).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import floor_data  # noqa: E402
import fusion_data  # noqa: E402

# Share (%) of each training set's questions the floor may silence: of those whose own
# passage is in the library, and of topic-level ones (only another paragraph of their
# article is), a looser relation whose weakest cosines are those of a different subject.
PRESENT_PERCENTILE = 1.0
TOPIC_PERCENTILE = 5.0
CASES = ROOT / "benchmarks" / "data" / "floor_cases.tsv"
CROSS_SCRIPT = "en_zh"  # English questions on Chinese passages


def fit_floor(train: list[floor_data.FloorData]) -> float:
    """The lowest PRESENT_PERCENTILE (TOPIC_PERCENTILE) of present (topic-level) closeness.

    Each set and kind counts on its own (a pooled percentile would let the big sets hide a
    small one), with the prior those same sets give a tiny library.
    """
    prior = floor_data.prior_of(train)
    lows = [float(np.percentile(v, TOPIC_PERCENTILE if "topic" in kind else PRESENT_PERCENTILE))
            for d in train for kind in floor_data.KINDS_PRESENT if len(v := d.closeness(kind, prior))]
    return round(min(lows), 3)


def fit_relative(train: list[floor_data.FloorData]) -> float:
    """The same rule on closeness above each question's own baseline (``floor_reference``).

    The centroid and the prior are the training sets' own, as the app ships them.
    """
    prior, centroid = floor_data.prior_of(train), floor_data.centroid_of(train)
    lows = [float(np.percentile(v, TOPIC_PERCENTILE if "topic" in kind else PRESENT_PERCENTILE))
            for d in train for kind in floor_data.KINDS_PRESENT
            if len(v := d.relative(kind, prior, centroid))]
    return round(min(lows), 3)


def rates(d: floor_data.FloorData, prior: floor_data.Calibration, floor: float,
          centroid: np.ndarray | None = None) -> dict[str, float]:
    """Share silenced per present kind; share caught ("nothing close") of absent questions.

    With ``centroid``, the per-query floor (closeness above the question's own baseline).
    """
    def values(kind: str) -> np.ndarray:
        return d.closeness(kind, prior) if centroid is None else d.relative(kind, prior, centroid)

    return {kind: float((v < floor).mean()) for kind in (*floor_data.KINDS_PRESENT, "absent")
            if len(v := values(kind))}


def both_rates(d: floor_data.FloorData, train: list[floor_data.FloorData],
               absolute_across_scripts: bool = False) -> dict[str, float]:
    """What the app does: silenced under either floor, each fitted on ``train``.

    The absolute floor applies to questions in the library's script (all but en->zh, whose
    questions are English on Chinese passages) unless ``absolute_across_scripts``.
    """
    prior, centroid = floor_data.prior_of(train), floor_data.centroid_of(train)
    absolute, relative = fit_floor(train), fit_relative(train)
    out = {}
    for kind in (*floor_data.KINDS_PRESENT, "absent"):
        if not len(d.cosines.get(kind, ())):
            continue
        below = d.relative(kind, prior, centroid) < relative
        if d.name != CROSS_SCRIPT or absolute_across_scripts:
            below |= d.closeness(kind, prior) < absolute
        out[kind] = float(below.mean())
    return out


def _row(name: str, floor: str, r: dict[str, float]) -> str:
    kinds = (*floor_data.KINDS_PRESENT, "absent")
    return f"  {name:<9} {floor:>13} " + " ".join(f"{r[k]:>12.1%} " if k in r else f"{'-':>13}" for k in kinds)


def loso_table(sets: list[floor_data.FloorData], derived: list[floor_data.FloorData]) -> None:
    print("relevance floor, leave-one-set-out (closeness: 0 = unrelated text, 1 = a sentence's own "
          "passage); present kinds: share silenced (lower is better); absent: share caught")
    header = f"  {'left out':<9} {'floor':>13} " + " ".join(f"{k:>13}" for k in (*floor_data.KINDS_PRESENT, "absent"))
    print(" absolute floor alone (FusionParams.floor_closeness; session 5)")
    print(header)
    for d in sets:
        train = [t for t in sets if t.name != d.name]
        floor = fit_floor(train)
        print(_row(d.name, f"{floor:.3f}", rates(d, floor_data.prior_of(train), floor)))
    print(f"  fitted on all sets: {fit_floor(sets):.3f}")
    print(" per-query floor alone (above the question's cosine to the passage centroid)")
    print(header)
    for d in sets:
        train = [t for t in sets if t.name != d.name]
        floor = fit_relative(train)
        print(_row(d.name, f"{floor:.3f}", rates(d, floor_data.prior_of(train), floor,
                                                  floor_data.centroid_of(train))))
    print(f"  fitted on all sets: {fit_relative(sets):.3f}")
    print(" both (the app: under either; the absolute floor in the library's script only)")
    print(header)
    for d in sets:
        train = [t for t in sets if t.name != d.name]
        print(_row(d.name, f"{fit_floor(train):.3f}/{fit_relative(train):.3f}", both_rates(d, train)))
    cross = [d for d in sets if d.name == CROSS_SCRIPT]
    if cross:
        train = [t for t in sets if t.name != CROSS_SCRIPT]
        r = both_rates(cross[0], train, absolute_across_scripts=True)
        print(_row(CROSS_SCRIPT, "+absolute", r))
    if derived:
        derived_checks(sets, derived)
    print(f"  across_scripts (the absolute floor holds across scripts): {across_scripts(sets, derived)}")
    topic_split(sets)


def across_scripts(sets: list[floor_data.FloorData], derived: list[floor_data.FloorData]) -> bool:
    """Whether the absolute floor holds across scripts, held out both ways: English questions on
    Chinese text (en->zh, fitted on the other sets) and Chinese questions on English text (the
    swapped set in ``derived``, fitted on all sets; without it, False). It may silence no more
    present questions (tiny and whole libraries) than the fit allows its training sets
    (PRESENT_PERCENTILE).
    """
    cross = [d for d in sets if d.name == CROSS_SCRIPT]
    train = [t for t in sets if t.name != CROSS_SCRIPT]
    reverse = [d for d in derived if d.name == floor_data.REVERSED]
    if not cross or not train or not reverse:
        return False
    checks = [(cross[0], train), (reverse[0], sets)]
    for held, fit_on in checks:
        prior, floor = floor_data.prior_of(fit_on), fit_floor(fit_on)
        if any(float((held.closeness(kind, prior) < floor).mean()) * 100 > PRESENT_PERCENTILE
               for kind in ("present", "library") if len(held.cosines.get(kind, ()))):
            return False
    return True


def derived_checks(sets: list[floor_data.FloorData], derived: list[floor_data.FloorData]) -> None:
    """Chinese questions on English passages, English on English (never fitted on), the floors
    fitted on all sets. The per-query floor reads a question against the library's language:
    these libraries are English, so against the English centroid (``english_centroid``; the
    Chinese one is printed to show why)."""
    prior, centroid = floor_data.prior_of(sets), floor_data.centroid_of(sets)
    absolute, relative = fit_floor(sets), fit_relative(sets)
    english = english_centroid(derived)
    for d in derived:
        print(f" {d.name}: {'Chinese' if d.name == floor_data.REVERSED else 'English'} questions on "
              "English passages, held out (floors fitted on all sets)")
        print(_row("absolute", f"{absolute:.3f}", rates(d, prior, absolute)))
        print(_row("pq zh-cent", f"{relative:.3f}", rates(d, prior, relative, centroid)))
        if english is None:
            continue
        print(_row("pq en-cent", f"{relative:.3f}", rates(d, prior, relative, english)))
        # The app: the per-query floor against English passages, and the absolute floor for
        # an English question, or for a Chinese one where it holds across scripts.
        with_absolute = d.name != floor_data.REVERSED or across_scripts(sets, derived)
        both = {}
        for kind in (*floor_data.KINDS_PRESENT, "absent"):
            if len(d.cosines.get(kind, ())):
                below = d.relative(kind, prior, english) < relative
                if with_absolute:
                    below |= d.closeness(kind, prior) < absolute
                both[kind] = float(below.mean())
        print(_row("both (app)", "", both))


def english_centroid(derived: list[floor_data.FloorData]) -> np.ndarray | None:
    """The centroid of English passages: the swapped Tatoeba set's passage sample."""
    reverse = [d for d in derived if d.name == floor_data.REVERSED]
    return reverse[0].passage_sample.mean(axis=0) if reverse else None


def topic_split(sets: list[floor_data.FloorData]) -> None:
    """Topic-level questions held out by article: only one set (DRCD) has them, so its
    leave-one-set-out fold fits without any; here half its articles join the training sets
    and the other half is scored (then the halves swap), as the shipped fit sees them."""
    for d in sets:
        if not len(d.cosines.get("topic", ())):
            continue
        others = [t for t in sets if t.name != d.name]
        print(f" {d.name} split by article (half its articles in the fit, the other half scored)")
        for parity in (0, 1):
            held = d.query_articles % 2 == parity
            train = [*others, d.part(f"{d.name}-fit", ~held)]
            r = both_rates(d.part(f"{d.name}-{parity}", held), train)
            print(_row(f"{d.name}/{parity}", f"{fit_floor(train):.3f}/{fit_relative(train):.3f}", r))


def write_floor(model: str, models_dir: Path, sets: list[floor_data.FloorData],
                derived: list[floor_data.FloorData]) -> None:
    """Store the per-query floor fitted on all sets, and their centroid, with the model's calibration.

    Other graphs of the same weights (float/int8) get the same values, as
    ``bench_fusion_loso.write_calibration`` does for the fusion constants.
    """
    import json

    from desktop_kb.embed.manager import ModelManager
    from desktop_kb.retrieval.floor_reference import encode_centroid

    sha = ModelManager(models_dir.parent).manifest(model).sha256
    path = ROOT / "desktop_kb" / "embed" / "calibrations.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    floor = {"reference": encode_centroid(floor_data.centroid_of(sets)), "closeness": fit_relative(sets),
             "across_scripts": across_scripts(sets, derived), "fitted_on": [d.name for d in sets]}
    english = english_centroid(derived)
    if english is not None:
        floor["reference_en"] = encode_centroid(english)
    base = model.removesuffix("-float")
    for key, entry in data["models"].items():
        if key == sha or str(entry.get("model", "")).removesuffix("-float") == base:
            # Keep what bench_offtopic.py stores beside it (coverage, margin, margin_unit, margin_across).
            entry["floor"] = {**entry.get("floor", {}), **floor}
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(f"wrote the per-query floor {floor['closeness']} for {model} ({sha[:12]}…) to {path}")


def run_cases(model: str, models_dir: Path) -> None:
    """The adversarial tiny libraries through ``Library.search`` (dense mode, the app's floor)."""
    from desktop_kb.library import Library
    from desktop_kb.retrieval.candidates import embed_query

    groups: dict[str, tuple[list[str], list[tuple[str, str]]]] = {}
    for line in CASES.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, notes, question, expect = line.split("\t")
        groups.setdefault(name, ([n.strip() for n in notes.split("||")], []))[1].append((question, expect))
    wrong = total = 0
    for name, (notes, questions) in groups.items():
        with tempfile.TemporaryDirectory(prefix="floor-cases-") as tmp:
            lib = Library(Path(tmp), models_dir=models_dir, load_model=False)
            try:
                for i, body in enumerate(notes):
                    lib.add_note(f"note {i + 1}", body)
                lib.use_model(model).result()
                lib.drain()
                for question, expect in questions:
                    response = lib.search(question, mode="dense", limit=3)
                    vector = embed_query(lib.engine, lib.dense, question)
                    best = lib.dense.search(vector, 1)[0][1] if vector is not None else float("nan")
                    got = "close" if response.results else "nothing"
                    total += 1
                    wrong += got != expect
                    mark = "ok " if got == expect else "MISS"
                    print(f"  {mark} {name:<8} {expect:<8} {question}  (best cosine {best:.3f})")
            finally:
                lib.close()
    print(f"  adversarial cases: {total - wrong} of {total} as expected")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="use-multilingual")
    parser.add_argument("--version", required=True, help="cache version of the fusion_data dumps")
    parser.add_argument("--sets", default=",".join(fusion_data.FIT_SETS))
    parser.add_argument("--cases", action="store_true", help="also run the adversarial tiny libraries")
    parser.add_argument("--models-dir", type=Path, default=None)
    parser.add_argument("--write", action="store_true",
                        help="store the per-query floor fitted on all sets in calibrations.json")
    parser.add_argument("--derived", metavar="VERSION",
                        help="also check Chinese and English questions on English passages (sets "
                             "derived from Tatoeba; their dumps are built with --models-dir if missing)")
    args = parser.parse_args()
    names = [n for n in args.sets.split(",") if n]
    if (args.cases or args.write) and args.models_dir is None:
        parser.error("--cases and --write need --models-dir")
    if len(names) >= 2:
        sets = [floor_data.build(fusion_data.load_cached(n, args.model, args.version)) for n in names]
        derived = [floor_data.derived_set(n, args.model, args.models_dir, args.derived)
                   for n in (floor_data.REVERSED, floor_data.ENGLISH_PARAPHRASES)] if args.derived else []
        loso_table(sets, derived)
        if args.write:
            write_floor(args.model, args.models_dir, sets, derived)
    if args.cases:
        run_cases(args.model, args.models_dir)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
