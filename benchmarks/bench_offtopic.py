"""'Nothing in the library is close': off-topic questions caught, in-domain ones kept, held out.

    .venv/bin/python benchmarks/bench_offtopic.py --model use-multilingual --version r1 [--write]
    .venv/bin/python benchmarks/bench_offtopic.py --model none --version k1 --topical
    .venv/bin/python benchmarks/bench_offtopic.py --model use-multilingual --version r1 --sets [--json F]
        [--against r0]

    .venv/bin/python benchmarks/bench_offtopic.py --model none,use-multilingual,multilingual-e5-small \
        --version n1,u1,e1 --weak-keywords

``--weak-keywords`` fits ``relevance.NAME_COVERAGE`` and ``relevance.UNKNOWN_NAME_LEVEL`` (where the
question names something the library never mentions, ``relevance.names_unknown_word``, and keywords
hold under that coverage of it, keywords alone say nothing and the best cosine must reach that many
of the library's spreads above its unrelated pairs): one pair for every model given, ``none`` (keywords
alone) among them (both are read in each library's own units), leave one set out over the public sets,
each Rust book question set and each set of ``offtopic_questions.tsv``; each held-out fold reported
before and after, then every record decided by the pair fitted without its own set (the held-out
table, per set, kind and mode), and the pair fitted on everything. The most off-topic caught such
that no public set and not the book's sets pooled lose more than ``MAX_LOST`` of their answers shown
as normal results.

``--bare-across`` fits ``relevance.BARE_EVIDENCE`` (where the question is in another script than the
library's, the library writes in the question's script too, ``relevance.keywords_could_tell``, and keywords
hold under that share of it, meaning does not vouch): one for every model given, leave one set out over the
same folds, each held-out fold before and after, then the held-out table and the value fitted on everything.
No public set nor the book's sets pooled may lose more than ``MAX_LOST`` of their answers shown as normal
results, and the book's English group none.

    .venv/bin/python benchmarks/bench_offtopic.py --model multilingual-e5-small,use-multilingual \
        --version e1,u1 --bare-across

``--sets`` prints the figures as the app decided them when the records were made, per search
mode (keywords only, and the hybrid with the model): the off-topic questions caught (weak
matches or "nothing close") per set of ``offtopic_questions.tsv`` (the lead's sealed sets 11,
12, ... released after their measurement, and those written before), kind and library, and
the public sets' questions asked of unrelated libraries; and the cost, per in-domain set (the
public sets and every Rust book set, 1-12): the questions whose answer is shown in the first 10
as a normal result (neither weak matches nor "nothing close").

``--topical`` (keywords only) fits the keyword evidence's term weights
(``relevance.TERM_POWERS``: library IDF, everyday rarity, lift) with ``KEYWORD_COVERAGE``
leave-one-set-out and prints, before and after, per set and per book question file and
group, the in-domain questions keyword search showed as a normal result that it now shows
only as weak matches, and the off-topic questions caught, ``offtopic_questions.tsv`` included
(by kind and language). Records built before the weights changed are replayed under them.

Reads the records of ``offtopic_data.py`` (every public set's questions asked of
their own library and of unrelated sets' libraries, the Rust book included) and
replays the app's decision (``retrieval.relevance``) offline on them:

* keywords only: nothing is close when the best keyword hit holds under
  ``KEYWORD_COVERAGE`` of the question's informative weight;
* with a model: when it holds under the model's ``coverage`` AND the best cosine
  is under the dense floor raised by the model's ``margin`` (in the library's span);
  where keywords alone would say nothing and the two lists disagree
  (``relevance.in_conflict``), the model's ``margin_conflict`` when higher.

Constants are chosen leave-one-set-out over the public sets (cmrc, drcd, zhpara,
en_zh): the fold that leaves set S out fits on the records that touch neither S
nor the book (neither as the question's set nor as the library) and reports every
record that touches S. The Rust book is never fitted on: its rows are all held
out, scored with the constants fitted on the four public sets (what the app ships).

The fit: the largest catch (mean over the training sets' off-topic pairs) such that
on every training set at most ``MAX_LOST`` of the in-domain questions whose answer
was in the top 10 are silenced (``MAX_LOST_KEYWORDS`` for keywords only: there no
meaning search can save a question keywords barely hold, so none may be lost).
Ties go to the lower constants (fewer silenced). The conflict margin is fitted last, the
same way, on top of the others (``--no-conflict``: without it, what the app did before).

Report: per set, in-domain R@1/R@5 before and after the floor (a silenced question
counts as a miss), the share silenced (and of those found at 10), and per off-topic
pair the share caught, and per set the in-domain questions keywords alone show with their
answer in the top 5 (as found, and counting weak matches too) that the hybrid tells 'nothing'
(hybrid must never hide those). The margin's unit (a share of the library's span, or cosine) is
chosen per model the same way: the one whose public folds, held out, silence the fewest
found questions. ``--write`` stores the model's ``coverage``, ``margin``, ``margin_unit``,
``margin_across`` and ``margin_conflict`` (fitted on the four public sets) in ``desktop_kb/embed/calibrations.json``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import offtopic_data  # noqa: E402

from desktop_kb.retrieval.relevance import (  # noqa: E402
    BARE_EVIDENCE,
    KEYWORD_COVERAGE,
    TERM_POWERS,
    UNKNOWN_NAME_LEVEL,
    evidence_share,
    in_conflict,
    in_passing,
    topical_weights,
)
from desktop_kb.retrieval.term_stats import bm25_idf  # noqa: E402

PUBLIC = ("cmrc", "drcd", "zhpara", "en_zh")
HELD = "book"
OWN = "own"  # offtopic_questions.tsv: never fitted on, reported held out
# The term weights tried (``relevance.topical_weights``): library IDF, everyday rarity, lift.
LIBRARY_POWERS = (0.0, 0.5, 1.0)
EVERYDAY_POWERS = (0.0, 0.05, 0.1, 0.2, 0.3)
LIFT_POWERS = (0.0, 0.5, 1.0, 2.0)
Powers = tuple[float, float, float]
BEFORE: tuple[Powers, float] = ((1.0, 0.0, 0.0), 0.2)  # the weights and KEYWORD_COVERAGE before
MAX_LOST = 0.01
MAX_LOST_KEYWORDS = 0.0
# In-domain questions in another script than their library a set needs before it may constrain
# the margin across scripts: CMRC, DRCD and zhpara hold a few questions without a Han character,
# and a fold whose only such questions are those fitted that margin on a handful.
MIN_CROSSING = 30
COVERAGES = np.round(np.arange(0.0, 0.71, 0.01), 2)
# Margins tried, per unit (``floor_reference.MARGIN_UNITS``): shares of the library's span, or cosine.
MARGINS = {"span": np.round(np.arange(-0.2, 1.21, 0.02), 2),
           "cosine": np.round(np.arange(-0.03, 0.401, 0.002), 3)}


def evidence(a: offtopic_data.Asked, powers: Powers | None = None) -> float:
    """The app's keyword evidence as recorded, or replayed under other term weights (``powers``:
    ``relevance.topical_weights``' library, everyday and lift powers) from the terms each hit holds,
    or (older records) recomputed from the stored hit terms as ``relevance.keyword_evidence``
    does for all but identifiers held as their parts."""
    if powers is not None and "held" in a.extra:
        weights, credits = topical_weights(a.extra["terms"], a.n_chunks, a.extra["doc_freq"],
                                           a.extra["mean_tokens"], powers)
        return evidence_share(weights, a.extra["held"].values(), credits)
    if a.evidence >= 0:
        return a.evidence
    weights = {t: bm25_idf(a.n_chunks or 1, max(1, a.doc_freq.get(t, 0))) for t in a.terms}
    total = sum(weights.values())
    if total <= 0:
        return 0.0
    best = 0.0
    for held in a.hit_terms.values():
        tokens = {a.all_terms[i] for i in held}
        best = max(best, sum(w for t, w in weights.items() if t in tokens) / total)
    return best


@dataclass
class Table:
    """One model's records as arrays."""

    evidence: np.ndarray
    margin: np.ndarray  # (best cosine - dense floor) in the unit; inf without a floor
    qset: np.ndarray
    library: np.ndarray
    in_domain: np.ndarray
    rank_hybrid: np.ndarray
    rank_lexical: np.ndarray
    across: np.ndarray  # the question is in another script than the library was measured in
    conflict: np.ndarray  # keywords alone say nothing and the two lists disagree
    unit: str = "span"

    @classmethod
    def of(cls, records: list[offtopic_data.Asked], unit: str = "span",
           powers: Powers | None = TERM_POWERS) -> Table:
        margins = []
        for a in records:
            cal = a.calibration
            if a.floor is None or cal is None or not a.cand.dense_ran:
                margins.append(np.inf)  # no floor: the dense side never silences
                continue
            scale = max(cal.related - cal.unrelated, 1e-6) if unit == "span" else 1.0
            margins.append((a.cand.best_cosine - a.floor) / scale)
        shares = np.array([evidence(a, powers) for a in records])
        return cls(shares, np.array(margins),
                   np.array([a.qset for a in records]), np.array([a.library for a in records]),
                   np.array([a.in_domain for a in records]),
                   np.array([a.rank_hybrid or 99 for a in records]),
                   np.array([a.rank_lexical or 99 for a in records]),
                   np.array([a.calibration is not None
                             and not a.calibration.measured_in_script_of(a.cand.has_cjk) for a in records]),
                   np.array([in_conflict(e, a.cand) for e, a in zip(shares, records, strict=True)]), unit)

    def fires(self, coverage: float, margin: float | None, across: float | None = None,
              conflict: float | None = None) -> np.ndarray:
        """The app's decision; ``margin`` None: keywords only; ``across``: the margin for a
        question in another script than the library's (None: ``margin``); ``conflict``: the
        margin where keywords alone say nothing and the lists disagree, when higher."""
        weak = self.evidence < coverage
        if margin is None:
            return weak
        bar = np.where(self.across, margin if across is None else across, margin)
        if conflict is not None:
            bar = np.where(self.conflict, np.maximum(bar, conflict), bar)
        return weak & (self.margin < bar)

    def sets(self, sel: np.ndarray) -> list[str]:
        return sorted(set(self.qset[sel & self.in_domain].tolist()))

    def pairs(self, sel: np.ndarray) -> list[tuple[str, str]]:
        off = sel & ~self.in_domain
        return sorted(set(zip(self.qset[off].tolist(), self.library[off].tolist(), strict=True)))

    def mask(self, qset: str, library: str | None = None) -> np.ndarray:
        m = self.qset == qset
        return m & (self.library == library) if library else m & self.in_domain


# coverage, margin (None: keywords), across scripts, conflict
Constants = tuple[float, float | None, float | None, float | None]


def _lost(t: Table, sel: np.ndarray, fired: np.ndarray, rank: np.ndarray,
          least: int = 1) -> float | None:
    """The worst training set's share of found in-domain questions silenced, over the sets
    with at least ``least`` in-domain questions in ``sel`` (None: no such set)."""
    shares = [float((fired[m] & (rank[m] <= 10)).mean()) for s in t.sets(sel)
              if (m := sel & t.mask(s)).sum() >= least]
    return max(shares) if shares else None


def _catch(t: Table, sel: np.ndarray, fired: np.ndarray) -> float:
    return float(np.mean([fired[sel & t.mask(q, lib)].mean() for q, lib in t.pairs(sel)] or [0.0]))


def fit(t: Table, sel: np.ndarray, keywords: bool, conflict: bool = True) -> Constants:
    """Coverage and margin on every question, then a margin for the questions in another
    script than the library's, fitted on those alone (None when the training sets hold no
    such in-domain question), then (``conflict``) the margin where the lists disagree."""
    coverage, margin, across = _fit_plain(t, sel, keywords)
    if keywords or margin is None or not conflict:
        return coverage, margin, across, None
    best = (_catch(t, sel, t.fires(coverage, margin, across)), -margin)  # no conflict margin
    for value in MARGINS[t.unit][MARGINS[t.unit] > margin]:
        fired = t.fires(coverage, margin, across, float(value))
        lost = _lost(t, sel, fired, t.rank_hybrid)
        if lost is not None and lost > MAX_LOST + 1e-12:
            continue
        best = max(best, (_catch(t, sel, fired), -float(value)))
    return coverage, margin, across, None if -best[1] <= margin else -best[1]


def _fit_plain(t: Table, sel: np.ndarray, keywords: bool) -> tuple[float, float | None, float | None]:
    rank = t.rank_lexical if keywords else t.rank_hybrid
    limit = MAX_LOST_KEYWORDS if keywords else MAX_LOST
    same = sel  # every question, across scripts too: the one margin must hold for them all
    best: tuple[tuple[float, float, float], tuple[float, float | None]] | None = None
    for coverage in COVERAGES:
        for margin in ([None] if keywords else MARGINS[t.unit]):
            fired = t.fires(coverage, margin)
            lost = _lost(t, same, fired, rank)
            if lost is not None and lost > limit + 1e-12:
                continue
            key = (_catch(t, same, fired), -coverage, -(margin or 0.0))
            if best is None or key > best[0]:
                best = (key, (float(coverage), None if margin is None else float(margin)))
    if best is None:
        return 0.0, None if keywords else -1.0, None
    coverage, margin = best[1]
    if keywords or margin is None:
        return coverage, margin, None
    crossing = sel & t.across
    if _lost(t, crossing, np.zeros(len(t.evidence), dtype=bool), rank, MIN_CROSSING) is None:
        return coverage, margin, None
    chosen: tuple[tuple[float, float], float] | None = None
    for across in MARGINS[t.unit]:
        fired = t.fires(coverage, margin, float(across))
        lost = _lost(t, crossing, fired, rank, MIN_CROSSING)
        if lost is not None and lost > limit + 1e-12:
            continue
        key = (_catch(t, crossing, fired), -float(across))
        if chosen is None or key > chosen[0]:
            chosen = (key, float(across))
    return coverage, margin, None if chosen is None else chosen[1]


def report(t: Table, sel: np.ndarray, constants: Constants, keywords: bool,
           label: str) -> dict[str, object]:
    fired = t.fires(*constants)
    rank = t.rank_lexical if keywords else t.rank_hybrid
    across = "" if constants[2] is None else f", across scripts {constants[2]:.3f}"
    across += "" if constants[3] is None else f", conflict {constants[3]:.3f}"
    shown = f"coverage {constants[0]:.2f}" + ("" if keywords else f", margin {constants[1]:.3f}{across}")
    print(f"  {label} ({shown})")
    out: dict[str, object] = {}
    for s in t.sets(sel):
        m = sel & t.mask(s)
        r1, r5 = (rank[m] <= 1).mean(), (rank[m] <= 5).mean()
        a1, a5 = ((rank[m] <= 1) & ~fired[m]).mean(), ((rank[m] <= 5) & ~fired[m]).mean()
        silenced, lost = fired[m].mean(), (fired[m] & (rank[m] <= 10)).mean()
        # Keyword search alone lists its top 5 either as found (evidence at KEYWORD_COVERAGE) or,
        # under it, as weak matches: the hybrid saying 'nothing' there hides what it shows.
        listed = m & (t.rank_lexical <= 5)
        found = listed & (t.evidence >= KEYWORD_COVERAGE)
        hidden = int((fired & found).sum())
        print(f"    in-domain {s:<7} n={m.sum():4d}  R@1 {r1:.3f} -> {a1:.3f}  R@5 {r5:.3f} -> {a5:.3f}  "
              f"told 'nothing' {silenced:6.1%} (answer was in the top 10: {lost:.1%}; keywords alone "
              f"show it in the top 5: {hidden} of {int(found.sum())}, as a weak match too: "
              f"{int((fired & listed).sum())} of {int(listed.sum())})")
        out[f"in:{s}"] = {"r1": [round(r1, 4), round(a1, 4)], "r5": [round(r5, 4), round(a5, 4)],
                          "silenced": round(float(silenced), 4), "lost": round(float(lost), 4),
                          "hidden_from_keywords_top5": hidden,
                          "hidden_from_keywords_top5_weak_too": int((fired & listed).sum())}
    for q, lib in t.pairs(sel):
        m = sel & t.mask(q, lib)
        print(f"    off-topic {q:>7} questions -> {lib:<7} library  n={m.sum():4d}  caught {fired[m].mean():6.1%}")
        out[f"off:{q}->{lib}"] = round(float(fired[m].mean()), 4)
    return out


def run(t: Table, label: str, keywords: bool, quiet: bool = False,
        conflict: bool = True) -> tuple[Constants, float, float]:
    """The leave-one-set-out table; returns the constants fitted on all public sets and the
    public folds' mean held-out loss and catch (how the margin's unit is chosen)."""
    if not quiet:
        print(f"=== {label}")
    lost, caught = [], []
    for held in PUBLIC:
        train = ~np.isin(t.qset, [held, HELD, OWN]) & ~np.isin(t.library, [held, HELD])
        test = (t.qset == held) | (t.library == held)
        constants = fit(t, train, keywords, conflict)
        if not quiet:
            report(t, test, constants, keywords, f"held out {held}, fitted on the other public sets")
        fired, rank = t.fires(*constants), t.rank_lexical if keywords else t.rank_hybrid
        m = test & t.mask(held)
        lost.append(float((fired[m] & (rank[m] <= 10)).mean()))
        caught.extend(float(fired[test & t.mask(q, lib)].mean()) for q, lib in t.pairs(test))
    public = ~np.isin(t.qset, [HELD, OWN]) & ~np.isin(t.library, [HELD])
    shipped = fit(t, public, keywords, conflict)
    if not quiet:
        report(t, (t.qset == HELD) | (t.library == HELD), shipped, keywords,
               "the Rust book (never fitted on), fitted on all public sets")
    return shipped, float(np.mean(lost)), float(np.mean(caught))


def _fit_powers(tables: dict[Powers, Table], sel: np.ndarray) -> tuple[Powers, float]:
    """Term weights and keyword coverage with the most off-topic caught on ``sel`` while no found
    in-domain question of any of its sets is silenced; ties go to the weights nearest the old
    ones (library IDF alone), then the lower coverage."""
    best: tuple[tuple[float, float, float], tuple[Powers, float]] | None = None
    for powers, t in tables.items():
        coverage = fit(t, sel, keywords=True)[0]
        key = (_catch(t, sel, t.fires(coverage, None)), -abs(powers[0] - 1.0) - powers[1] - powers[2], -coverage)
        if best is None or key > best[0]:
            best = (key, (powers, coverage))
    assert best is not None
    return best[1]


def run_topical(records: list[offtopic_data.Asked]) -> None:
    """Keywords only: the term weights (library IDF and everyday rarity) and the coverage fitted
    leave-one-set-out, each public set held out in turn; the book's questions and ``own``'s are
    held out of every fit and scored with what the four public sets choose (what ships)."""
    tables = {(a, b, c): Table.of(records, "span", (a, b, c))
              for a in LIBRARY_POWERS for b in EVERYDAY_POWERS for c in LIFT_POWERS}
    print("=== keywords only: term weights and coverage, leave one public set out")
    for held in PUBLIC:
        any_t = next(iter(tables.values()))
        train = ~np.isin(any_t.qset, [held, HELD, OWN]) & ~np.isin(any_t.library, [held, HELD])
        test = (any_t.qset == held) | (any_t.library == held)
        powers, coverage = _fit_powers(tables, train)
        report(tables[powers], test, (coverage, None, None, None), True,
               f"held out {held}: powers (library, everyday, lift) {powers}")
    any_t = next(iter(tables.values()))
    public = ~np.isin(any_t.qset, [HELD, OWN]) & ~np.isin(any_t.library, [HELD])
    powers, coverage = _fit_powers(tables, public)
    print(f"=== fitted on all four public sets (what ships): powers (library, everyday, lift) "
          f"{powers}, coverage {coverage:.2f}")
    compare(tables[BEFORE[0]], BEFORE[1], tables[powers], coverage, records)


def compare(old: Table, old_cov: float, new: Table, new_cov: float,
            records: list[offtopic_data.Asked]) -> None:
    """Before and after, keywords only, on what was never fitted on (the book's questions, own
    off-topic questions) and on the public sets: a question is 'normal' when its evidence reaches
    the coverage (neither weak matches nor nothing)."""
    normal_old, normal_new = old.evidence >= old_cov, new.evidence >= new_cov
    rank = old.rank_lexical
    book_file = {q: path.stem.removeprefix("rust_book_questions").lstrip("_") or "1"
                 for q, path in book_question_files().items()}
    print("  in-domain: answer in the keyword top 10 as a normal result, before -> after "
          "(silenced: normal before, weak or nothing now); R@1 / R@5 counting weak as a miss")
    rows: list[tuple[str, np.ndarray]] = []
    for s in PUBLIC + (HELD,):
        rows.append((s, old.mask(s)))
    book = old.mask(HELD)
    for g in sorted({a.group for a in records if a.qset == HELD and a.in_domain}):
        rows.append((f"book:{g}", book & np.array([a.group == g for a in records])))
    for f in sorted(set(book_file.values()), key=int):
        rows.append((f"book set {f}", book & np.array([book_file.get(a.text) == f for a in records])))
    for label, m in rows:
        found = m & (rank <= 10)
        shown_old, shown_new = found & normal_old, found & normal_new
        silenced = int((shown_old & ~normal_new).sum())
        r = [((rank <= k) & n & m).sum() / max(m.sum(), 1) for k in (1, 5) for n in (normal_old, normal_new)]
        print(f"    {label:<22} n={m.sum():4d}  normal {shown_old.sum():4d} -> {shown_new.sum():4d}  "
              f"silenced {silenced:3d} ({silenced / max(m.sum(), 1):5.1%})  "
              f"R@1 {r[0]:.3f} -> {r[1]:.3f}  R@5 {r[2]:.3f} -> {r[3]:.3f}")
    print("  off-topic: caught (weak matches or nothing), before -> after")
    for q, lib in new.pairs(np.ones(len(new.evidence), dtype=bool)):
        m = new.mask(q, lib)
        print(f"    {q:>6} -> {lib:<7} n={m.sum():4d}  {(~normal_old[m]).mean():6.1%} -> {(~normal_new[m]).mean():6.1%}")
    own = old.qset == OWN
    kinds = np.array([a.group for a in records])
    latin = np.array([not any("\u4e00" <= c <= "\u9fff" for c in a.text) for a in records])
    print("  own off-topic questions by kind and language (every library they are asked of)")
    for kind in ("far", "near", "very_near"):
        for lang, lm in (("zh", ~latin), ("en", latin)):
            m = own & (kinds == kind) & lm
            if m.any():
                print(f"    {kind:<9} {lang}  n={m.sum():4d}  normal results {normal_old[m].sum():3d} -> "
                      f"{normal_new[m].sum():3d}  caught {(~normal_old[m]).mean():6.1%} -> {(~normal_new[m]).mean():6.1%}")
        for lib in LIBRARIES_ORDER:
            m = own & (kinds == kind) & (old.library == lib)
            if m.any():
                print(f"      of {lib:<7} n={m.sum():3d}  caught {(~normal_old[m]).mean():6.1%} -> {(~normal_new[m]).mean():6.1%}")


LIBRARIES_ORDER = ("book", "cmrc", "drcd", "zhpara", "en_zh")
# The lead's number of each book question file's set (the lead's sets 7 and 8 of session 7 were
# lost: rust_book_questions_7.tsv is set 9); file suffix -> set.
BOOK_SETS = {"": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 9, "8": 10, "9": 11, "10": 12, "11": 13, "12": 14, "13": 15, "15": 17, "16": 18, "17": 19}
KINDS = ("far", "near", "very_near")


def book_question_files() -> dict[str, Path]:
    """Book question -> the file it is in."""
    return {q: path for path in offtopic_data.BOOK_QUESTION_FILES
            for _, q, _ in offtopic_data.fusion_data.book_questions(path)}


def book_set_of(path: Path) -> int:
    return BOOK_SETS[path.stem.removeprefix("rust_book_questions").lstrip("_")]


def in_domain_rows(records: list[offtopic_data.Asked]) -> list[tuple[str, np.ndarray]]:
    """(label, mask) of every in-domain question set: the public sets, then each book set."""
    qset = np.array([a.qset for a in records])
    inside = np.array([a.in_domain for a in records])
    rows = [(s, inside & (qset == s)) for s in PUBLIC if (inside & (qset == s)).any()]
    # The book's in-domain records come in the order its files are read (a question in two
    # files is asked twice, once per file).
    order = iter([book_set_of(path) for path in offtopic_data.BOOK_QUESTION_FILES
                  for _ in offtopic_data.fusion_data.book_questions(path)])
    book_set = np.array([next(order) if a.qset == HELD and a.in_domain else 0 for a in records])
    for n in sorted(set(book_set[inside & (qset == HELD)].tolist())):
        rows.append((f"book set {n}", inside & (qset == HELD) & (book_set == n)))
    rows.append(("book, all sets", inside & (qset == HELD)))
    return rows


def offtopic_rows(records: list[offtopic_data.Asked]) -> list[tuple[str, np.ndarray]]:
    """(label, mask) of the off-topic questions: ``offtopic_questions.tsv`` per set (the lead's
    sealed sets released after their measurement, and those written before) and kind, per library,
    then the public sets' questions asked of unrelated libraries."""
    sections = offtopic_data.own_section_of()
    own = np.array([a.qset == OWN for a in records])
    section = np.array([sections.get(a.text, "") if a.qset == OWN else "" for a in records])
    kind = np.array([a.group for a in records])
    library = np.array([a.library for a in records])
    rows: list[tuple[str, np.ndarray]] = []
    for lib in LIBRARIES_ORDER:
        for sec in sorted(set(section[own & (library == lib)].tolist()), key=_section_order):
            m = own & (library == lib) & (section == sec)
            rows.extend((f"own {sec} -> {lib} {k}", m & (kind == k)) for k in KINDS if (m & (kind == k)).any())
            rows.append((f"own {sec} -> {lib} all", m))
    qset = np.array([a.qset for a in records])
    inside = np.array([a.in_domain for a in records])
    for q, lib in sorted({(a.qset, a.library) for a in records if not a.in_domain and a.qset != OWN}):
        rows.append((f"{q} questions -> {lib}", ~inside & (qset == q) & (library == lib)))
    return rows


def _section_order(section: str) -> tuple[int, str]:
    return (int(section.split()[1]), section) if section.startswith("set ") else (0, section)


def decisions(records: list[offtopic_data.Asked]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per search mode in these records: (told 'nothing' or only weak matches, the in-domain
    answer's rank). Keyword search alone decides on the keyword evidence and, where the question names
    something the library never mentions (the record's ``unknown_name``: under ``NAME_COVERAGE``),
    on that; the hybrid as the app decided when the records were made (``nothing_relevant``)."""
    evidence = np.array([evidence_of(a) for a in records])
    named = np.array([bool(a.extra.get("unknown_name", False)) for a in records])
    out = {"keywords only": ((evidence < KEYWORD_COVERAGE) | named,
                             np.array([a.rank_lexical or 99 for a in records]))}
    if any(a.cand.dense_ran for a in records):
        out["hybrid"] = (np.array([bool(a.extra["nothing"]) for a in records]),
                         np.array([a.rank_hybrid or 99 for a in records]))
    return out


def evidence_of(a: offtopic_data.Asked) -> float:
    """The keyword evidence the app computed (the record's), replayed only for old records."""
    return a.evidence if a.evidence >= 0 else evidence(a)


def sets_report(records: list[offtopic_data.Asked], modes: dict[str, tuple[np.ndarray, np.ndarray]],
                depth: int = 10) -> dict[str, dict[str, list[int]]]:
    """Per mode, off-topic questions caught (weak matches or 'nothing close') per set, kind and
    library, and the cost: in-domain questions whose answer is shown (in the first ``depth``) as a
    normal result, per set. Returns {mode: {row: [count, n]}}."""
    out: dict[str, dict[str, list[int]]] = {}
    for mode, (fired, rank) in modes.items():
        rows = out[mode] = {}
        print(f"  {mode}: off-topic caught (weak matches or 'nothing close')")
        for label, m in offtopic_rows(records):
            rows[label] = [int(fired[m].sum()), int(m.sum())]
            print(f"    {label:<34} {fired[m].sum():4d}/{m.sum():<4d} {fired[m].mean():6.1%}")
        print(f"  {mode}: in-domain answer shown as a normal result (in the first {depth}, not weak)")
        for label, m in in_domain_rows(records):
            shown = m & (rank <= depth)
            normal = shown & ~fired
            rows[f"in:{label}"] = [int(normal.sum()), int(m.sum())]
            print(f"    {label:<34} {normal.sum():4d}/{m.sum():<4d} {normal.sum() / max(m.sum(), 1):6.1%}  "
                  f"(answer shown {shown.sum()}, of them weak or 'nothing' {(shown & fired).sum()})")
    return out


def run_sets(records: list[offtopic_data.Asked], model: str) -> dict[str, dict[str, list[int]]]:
    """Today's figures as the app decides them, per mode (``--sets``)."""
    print(f"=== {model}: per set and mode, as the app decides")
    modes = decisions(records)
    report = sets_report(records, modes)
    if "hybrid" in modes:
        replayed = _shipped_replay(records, model)
        if replayed is not None:
            print(f"  replay of the hybrid's decision differs from the app's on "
                  f"{int((replayed != modes['hybrid'][0]).sum())} of {len(records)} records")
    return report


def sets_changes(before: dict[str, dict[str, list[int]]], after: dict[str, dict[str, list[int]]]) -> list[str]:
    """``--sets --against``: the rows of two ``sets_report`` figures that differ, per mode, as
    "mode row: count/n -> count/n" (a row or mode only one side has is left out)."""
    return [f"{mode} {row}: {b[0]}/{b[1]} -> {a[0]}/{a[1]}"
            for mode, rows in after.items() if mode in before
            for row, a in rows.items() if (b := before[mode].get(row)) is not None and b != a]


# Coverages and levels tried for a question naming a word neither everyday language nor the library
# holds (``relevance.NAME_COVERAGE``, ``relevance.UNKNOWN_NAME_LEVEL``): under that share of keyword
# evidence only meaning search at that many of the library's spreads above its unrelated pairs vouches
# for it (keywords alone: nothing does). -inf level: none.
NAME_COVERAGES = np.round(np.arange(0.2, 1.001, 0.05), 2)
NAME_LEVELS = (-np.inf, *np.round(np.arange(0.0, 6.01, 0.25), 2))


@dataclass
class NameInputs:
    """What the rule for an unknown name reads, per record."""

    before: np.ndarray  # the app's decision without the rule
    unknown: np.ndarray  # the question names a word neither everyday language nor the library holds
    evidence: np.ndarray  # the keyword evidence
    level: np.ndarray  # best cosine in the library's spreads above its unrelated pairs (inf: never
    # vouches, -inf: keywords only, no meaning side to vouch)

    def fires(self, coverage: float, level: float) -> np.ndarray:
        vouched = (self.level >= level) & ~np.isneginf(self.level)
        return self.before | (self.unknown & (self.evidence < coverage) & ~vouched)


def name_inputs(records: list[offtopic_data.Asked]) -> NameInputs:
    """Records made before the level (no ``dense_bar_plain``) hold the app's decision with it."""
    from desktop_kb.retrieval.relevance import names_unknown_word

    before, unknown, evidence, level = [], [], [], []
    for a in records:
        ev = evidence_of(a)
        bar = a.extra.get("dense_bar_plain", a.extra.get("dense_bar"))
        if not a.cand.dense_ran:
            before.append(ev < KEYWORD_COVERAGE)
        elif "dense_bar_plain" in a.extra:
            before.append(bool(ev < a.extra["coverage"] and bar is not None and a.cand.best_cosine < bar))
        else:
            before.append(bool(a.extra["nothing"]))
        weights, credits = topical_weights(a.extra["terms"], a.n_chunks, a.extra["doc_freq"], a.extra["mean_tokens"])
        unknown.append(names_unknown_word(a.extra["terms"], a.extra["doc_freq"], a.extra.get("searched_as", a.text),
                                          frozenset().union(*a.extra["held"].values()),
                                          in_passing(a.extra["held"], weights, credits)))
        evidence.append(ev)
        cal = a.calibration
        measured = cal is not None and cal.sample > 0 and bar is not None and a.cand.dense_ran
        level.append(cal.standardize(a.cand.best_cosine) if measured
                     else (-np.inf if not a.cand.dense_ran else np.inf))
    return NameInputs(np.array(before), np.array(unknown), np.array(evidence), np.array(level))


def name_folds(records: list[offtopic_data.Asked]) -> list[tuple[str, np.ndarray]]:
    """Leave-one-set-out folds: each public set (every record it is the question set or the library
    of), each Rust book question set, each set of ``offtopic_questions.tsv`` (every library it is
    asked of)."""
    qset = np.array([a.qset for a in records])
    library = np.array([a.library for a in records])
    folds = [(s, (qset == s) | (library == s)) for s in PUBLIC]
    folds += [(label, m) for label, m in in_domain_rows(records) if label.startswith("book set")]
    sections = offtopic_data.own_section_of()
    section = np.array([sections.get(a.text, "") if a.qset == OWN else "" for a in records])
    folds += [(f"own {s}", section == s) for s in sorted(set(section[qset == OWN].tolist()), key=_section_order)]
    return folds


def _home_fold(records: list[offtopic_data.Asked]) -> np.ndarray:
    """Each record's fold for the held-out table: its own off-topic set, its book set, else the
    public set it touches (the question's, else the library's)."""
    folds = name_folds(records)
    home = np.full(len(records), -1)
    for i, (label, m) in enumerate(folds):
        if label.startswith(("own ", "book set")):
            home[m & (home < 0)] = i
    for i, (_, m) in enumerate(folds):
        home[m & (home < 0)] = i
    return home


def _cost_groups(records: list[offtopic_data.Asked], sel: np.ndarray) -> list[np.ndarray]:
    """The in-domain sets whose loss is bounded: each public set, and the book's sets pooled (a set
    of 40 questions cannot show 1 %)."""
    qset = np.array([a.qset for a in records])
    inside = np.array([a.in_domain for a in records])
    return [m for s in (*PUBLIC, HELD) if (m := sel & inside & (qset == s)).any()]


def _offtopic_groups(records: list[offtopic_data.Asked], sel: np.ndarray) -> list[np.ndarray]:
    """Off-topic question groups: each (question set, library) pair, ``own`` per set and library."""
    sections = offtopic_data.own_section_of()
    keys = np.array([f"{a.qset}|{a.library}|{sections.get(a.text, '') if a.qset == OWN else ''}"
                     for a in records])
    inside = np.array([a.in_domain for a in records])
    return [m for k in sorted(set(keys[sel & ~inside].tolist())) if (m := sel & ~inside & (keys == k)).any()]


@dataclass
class NameData:
    """One model's records with what the rule reads (model ``none``: keywords only)."""

    model: str
    records: list[offtopic_data.Asked]
    inputs: NameInputs
    rank: np.ndarray  # the in-domain answer's rank: hybrid, or keywords for ``none``
    inside: np.ndarray

    @classmethod
    def of(cls, model: str, records: list[offtopic_data.Asked]) -> NameData:
        return cls(model, records, name_inputs(records), np.array([a.rank_hybrid or 99 for a in records]),
                   np.array([a.in_domain for a in records]))


def fit_name_rule(data: list[tuple[NameData, np.ndarray]], depth: int = 10,
                  coverages: np.ndarray | None = None) -> tuple[float, float]:
    """One coverage and one level for every model and for keywords alone (both read in units of this
    library: shares of the question, spreads of its unrelated pairs): the pair that catches the most
    off-topic questions of the selected records (mean over their groups, every model's) while no
    in-domain set (each public set, the book's sets pooled) of any model loses more than ``MAX_LOST``
    of its answers shown as normal results; ties go to the lower coverage, then the lower level."""
    groups = [(d, _cost_groups(d.records, sel), _offtopic_groups(d.records, sel)) for d, sel in data]
    best: tuple[float, float, float] | None = None
    chosen = (KEYWORD_COVERAGE, -np.inf)
    for coverage in NAME_COVERAGES if coverages is None else coverages:
        for level in NAME_LEVELS:
            caught, lost = [], 0.0
            for d, costs, offs in groups:
                fired = d.inputs.fires(coverage, level)
                found = (d.rank <= depth) & ~d.inputs.before
                lost = max([lost, *(float((m & found & fired).sum() / m.sum()) for m in costs)])
                caught.extend(float(fired[m].mean()) for m in offs)
            if lost > MAX_LOST + 1e-12:
                continue
            key = (float(np.mean(caught)) if caught else 0.0, -float(coverage), -float(level))
            if best is None or key > best:
                best, chosen = key, (float(coverage), float(level))
    return chosen


def fit_name_levels(data: list[tuple[NameData, np.ndarray]]) -> tuple[float, float, dict[str, float]]:
    """The coverage and a default level fitted on every model at once (``fit_name_rule``), then each
    model's own level (``floor.name_level`` in its calibration) at that coverage on its records
    alone: a level read in the library's spreads still differs by model where it reads a question in
    another script than the library's (e5 sits English questions low on Chinese text)."""
    coverage, default = fit_name_rule(data)
    own = {d.model: fit_name_rule([(d, sel)], coverages=np.array([coverage]))[1] for d, sel in data
           if d.model != "none"}
    return coverage, default, own


def _shipped_name_level(model: str) -> float:
    """The level the app reads for ``model``: its calibration's ``name_level``, else the default."""
    from desktop_kb.retrieval.floor_reference import reference_of
    from desktop_kb.retrieval.tuning import shipped_calibrations

    base = model.removesuffix("-float")
    entry = next((e for e in shipped_calibrations().values()
                  if str(e.get("model", "")).removesuffix("-float") == base), None)
    ref = reference_of(entry) if entry else None
    if ref is not None and ref.name_level is not None:
        return ref.name_level
    return UNKNOWN_NAME_LEVEL if UNKNOWN_NAME_LEVEL is not None else -np.inf


def run_name_level(data: list[NameData]) -> tuple[float, float, dict[str, float]]:
    """``--weak-keywords``: the coverage and levels fitted with each fold held out (in every model's
    records at once), each held-out fold's figures before and after per model; the held-out
    decisions together per set, kind and mode; then what is fitted on everything (what ships)."""
    from desktop_kb.retrieval.relevance import NAME_COVERAGE

    shipped = {d.model: (NAME_COVERAGE, _shipped_name_level(d.model)) for d in data}
    print("=== a question naming a word neither everyday language nor the library holds: coverage and "
          f"level, leave one set out ({', '.join(d.model for d in data)}); the app's now {shipped}")
    folds = [label for label, _ in name_folds(data[0].records)]
    held_out = {d.model: np.zeros(len(d.records), dtype=bool) for d in data}
    home = {d.model: _home_fold(d.records) for d in data}
    for i, label in enumerate(folds):
        held = {d.model: dict(name_folds(d.records))[label] for d in data}
        coverage, default, own = fit_name_levels([(d, ~held[d.model]) for d in data])
        for d in data:
            h = held[d.model]
            level = own.get(d.model, default)
            now, fired = d.inputs.fires(*shipped[d.model]), d.inputs.fires(coverage, level)
            held_out[d.model][home[d.model] == i] = fired[home[d.model] == i]
            off, found = h & ~d.inside, h & d.inside & (d.rank <= 10)
            print(f"  held out {label:<14} coverage {coverage:4.2f} level {level:5.2f}  {d.model:<21} "
                  f"off-topic caught {now[off].sum():4d} -> {fired[off].sum():4d} of {off.sum():4d};  "
                  f"in-domain answers shown as normal results {(found & ~now).sum():4d} -> "
                  f"{(found & ~fired).sum():4d} of {(h & d.inside).sum():4d}")
    coverage, default, own = fit_name_levels([(d, np.ones(len(d.records), dtype=bool)) for d in data])
    print(f"=== fitted on every set (what ships): coverage {coverage}, default level {default}, "
          f"each model's own {own}")
    for d in data:
        if d.model != "none" and all("dense_bar_plain" in a.extra for a in d.records):
            app = np.array([bool(a.extra["nothing"]) for a in d.records])
            print(f"  {d.model}: the replay at the app's constants {shipped[d.model]} differs from the app's "
                  f"decision on {int((d.inputs.fires(*shipped[d.model]) != app).sum())} of {len(app)} records")
    for d in data:
        print(f"=== {d.model}: now, each record held out (decided by the constants fitted without its "
              "own set), and fitted on everything")
        mode = "keywords only" if d.model == "none" else "hybrid"
        sets_report(d.records, {f"{mode} now": (d.inputs.fires(*shipped[d.model]), d.rank),
                                f"{mode} held out": (held_out[d.model], d.rank),
                                f"{mode} fitted on all": (d.inputs.fires(coverage, own.get(d.model, default)),
                                                          d.rank)})
    return coverage, default, own


BARE_EVIDENCES = (-np.inf, *np.round(np.arange(0.0, 0.301, 0.01), 2))


@dataclass
class BareData:
    """One model's records with what ``relevance.meaning_may_vouch`` reads."""

    model: str
    records: list[offtopic_data.Asked]
    before: np.ndarray  # the app's decision with meaning vouching as before
    could_tell: np.ndarray  # relevance.keywords_could_tell: keywords could have found the question
    evidence: np.ndarray
    rank: np.ndarray
    inside: np.ndarray
    english: np.ndarray  # the book's English question group

    @classmethod
    def of(cls, model: str, records: list[offtopic_data.Asked]) -> BareData:
        from desktop_kb.retrieval.relevance import keywords_could_tell
        from desktop_kb.text.han import has_han

        return cls(model, records,
                   np.array([bool(a.extra.get("nothing_vouched", a.extra["nothing"])) for a in records]),
                   np.array([a.cand.dense_ran and keywords_could_tell(a.calibration, has_han(
                       a.extra.get("searched_as", a.text))) for a in records]),
                   np.array([evidence_of(a) for a in records]),
                   np.array([a.rank_hybrid or 99 for a in records]), np.array([a.in_domain for a in records]),
                   np.array([a.qset == HELD and a.in_domain and a.group == "english" for a in records]))

    def fires(self, bare: float) -> np.ndarray:
        return self.before | (self.could_tell & (self.evidence < bare))


def fit_bare(data: list[tuple[BareData, np.ndarray]], depth: int = 10) -> float:
    """One ``relevance.BARE_EVIDENCE`` for every model: the most off-topic caught (mean over the
    selected records' groups, every model's) such that no in-domain set (each public set, the book's
    sets pooled) of any model loses more than ``MAX_LOST`` of its answers shown as normal results and
    the book's English group none; ties go to the lower evidence."""
    groups = [(d, _cost_groups(d.records, sel), _offtopic_groups(d.records, sel), sel & d.english)
              for d, sel in data]
    best, chosen = None, -np.inf
    for bare in BARE_EVIDENCES:
        caught, lost, english = [], 0.0, 0
        for d, costs, offs, eng in groups:
            fired = d.fires(bare)
            found = (d.rank <= depth) & ~d.before
            lost = max([lost, *(float((m & found & fired).sum() / m.sum()) for m in costs)])
            english += int((eng & found & fired).sum())
            caught.extend(float(fired[m].mean()) for m in offs)
        if lost > MAX_LOST + 1e-12 or english:
            continue
        key = (float(np.mean(caught)) if caught else 0.0, -float(bare))
        if best is None or key > best:
            best, chosen = key, float(bare)
    return chosen


def run_bare(data: list[BareData]) -> float:
    """``--bare-across``: ``relevance.BARE_EVIDENCE`` fitted with each fold held out (every model's
    records at once), each held-out fold before and after per model; the held-out decisions together
    per set, kind and mode; then what is fitted on everything (what ships)."""
    print("=== keywords could have found the question (another script than the library's, which writes "
          "in it too) and hold under BARE_EVIDENCE of it: meaning does not vouch; leave one set out "
          f"({', '.join(d.model for d in data)}); the app's now {BARE_EVIDENCE}")
    folds = [label for label, _ in name_folds(data[0].records)]
    held_out = {d.model: np.zeros(len(d.records), dtype=bool) for d in data}
    home = {d.model: _home_fold(d.records) for d in data}
    for i, label in enumerate(folds):
        held = {d.model: dict(name_folds(d.records))[label] for d in data}
        bare = fit_bare([(d, ~held[d.model]) for d in data])
        for d in data:
            h = held[d.model]
            fired = d.fires(bare)
            held_out[d.model][home[d.model] == i] = fired[home[d.model] == i]
            off, found = h & ~d.inside, h & d.inside & (d.rank <= 10)
            print(f"  held out {label:<14} evidence {bare:5.2f}  {d.model:<21} off-topic caught "
                  f"{d.before[off].sum():4d} -> {fired[off].sum():4d} of {off.sum():4d};  in-domain answers "
                  f"shown as normal results {(found & ~d.before).sum():4d} -> {(found & ~fired).sum():4d} "
                  f"of {(h & d.inside).sum():4d}")
    bare = fit_bare([(d, np.ones(len(d.records), dtype=bool)) for d in data])
    print(f"=== fitted on every set (what ships): BARE_EVIDENCE {bare}")
    for d in data:
        print(f"=== {d.model}: before, each record held out (decided by the evidence fitted without its own "
              "set), and fitted on everything")
        sets_report(d.records, {"hybrid before": (d.before, d.rank), "hybrid held out": (held_out[d.model], d.rank),
                                "hybrid fitted on all": (d.fires(bare), d.rank)})
    return bare


def _shipped_replay(records: list[offtopic_data.Asked], model: str) -> np.ndarray | None:
    """``Table.fires`` with the model's shipped constants and ``relevance.UNKNOWN_NAME_LEVEL``: must
    agree with the app's decision."""
    from desktop_kb.retrieval.floor_reference import reference_of
    from desktop_kb.retrieval.tuning import shipped_calibrations

    base = model.removesuffix("-float")
    entry = next((e for e in shipped_calibrations().values()
                  if str(e.get("model", "")).removesuffix("-float") == base), None)
    ref = reference_of(entry) if entry else None
    if ref is None or ref.coverage is None:
        return None
    t = Table.of(records, ref.margin_unit, None)
    fired = t.fires(ref.coverage, ref.margin, ref.margin_across, ref.margin_conflict)
    if not all("dense_bar_plain" in a.extra for a in records):
        return fired  # records made before the level: their decisions were made without it
    from desktop_kb.retrieval.relevance import NAME_COVERAGE

    fired |= name_inputs(records).fires(NAME_COVERAGE, _shipped_name_level(model))
    if BARE_EVIDENCE is not None and all("nothing_vouched" in a.extra for a in records):
        fired |= BareData.of(model, records).fires(BARE_EVIDENCE)  # records made with the rule
    return fired


def choose_unit(records: list[offtopic_data.Asked], conflict: bool = True) -> str:
    """The margin's unit with the least held-out loss over the public folds (then the most caught)."""
    scores = {}
    for unit in MARGINS:
        _, lost, caught = run(Table.of(records, unit), unit, keywords=False, quiet=True, conflict=conflict)
        scores[unit] = (lost, -caught)
        print(f"  margin in {unit}: public folds held out, found questions silenced {lost:.2%}, "
              f"off-topic caught {caught:.1%}")
    return min(scores, key=lambda u: scores[u])


def old_floor(records: list[offtopic_data.Asked]) -> None:
    """What the app did before: silent only with zero keyword hits and a cosine under the floor."""
    print("=== before (zero keyword hits and a best cosine under the dense floor; keywords only: never)")
    groups: dict[tuple[str, str, bool], list[bool]] = {}
    for a in records:
        fired = a.cand.lexical_hits == 0 and a.floor is not None and a.cand.best_cosine < a.floor
        groups.setdefault((a.qset, a.library, a.in_domain), []).append(fired)
    for (q, lib, ind), v in sorted(groups.items()):
        kind = "in-domain" if ind else "off-topic"
        print(f"    {kind} {q:>7} questions -> {lib:<7} library  n={len(v):4d}  told 'nothing' {np.mean(v):6.1%}")


def write(model: str, models_dir: Path, coverage: float, margin: float, unit: str,
          across: float | None, conflict: float | None) -> None:
    from desktop_kb.embed.manager import ModelManager

    sha = ModelManager(models_dir.parent).manifest(model).sha256
    path = ROOT / "desktop_kb" / "embed" / "calibrations.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    base = model.removesuffix("-float")
    for key, entry in data["models"].items():
        if (key == sha or str(entry.get("model", "")).removesuffix("-float") == base) and "floor" in entry:
            entry["floor"]["coverage"] = coverage
            entry["floor"]["margin"] = margin
            entry["floor"]["margin_unit"] = unit
            entry["floor"].pop("margin_across", None)
            if across is not None:
                entry["floor"]["margin_across"] = across
            entry["floor"].pop("margin_conflict", None)
            if conflict is not None:
                entry["floor"]["margin_conflict"] = conflict
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(f"wrote coverage {coverage}, margin {margin} ({unit}), across scripts {across}, conflict {conflict} for {model} ({sha[:12]}…) to {path}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="use-multilingual")
    parser.add_argument("--version", required=True, help="version of the offtopic_data records")
    parser.add_argument("--keywords", action="store_true", help="also keywords only (no model)")
    parser.add_argument("--topical", action="store_true",
                        help="keywords only: fit the term weights (everyday rarity) and the coverage, "
                             "compare with before, and stop")
    parser.add_argument("--before", action="store_true", help="also what the app did before")
    parser.add_argument("--sets", action="store_true",
                        help="per set and mode as the app decided (off-topic caught, in-domain answers "
                             "shown as normal results), and stop")
    parser.add_argument("--json", type=Path, default=None, help="with --sets: write the figures here")
    parser.add_argument("--against", default=None,
                        help="with --sets: records of another version (the code before a change) to "
                             "list the rows that differ, before -> after")
    parser.add_argument("--weak-keywords", action="store_true",
                        help="fit the level a question naming a word neither everyday language nor the "
                             "library holds must reach (relevance.UNKNOWN_NAME_LEVEL), leave one set out, "
                             "and stop")
    parser.add_argument("--bare-across", action="store_true",
                        help="fit the keyword evidence under which meaning does not vouch for a question in "
                             "another script than a library that writes in it too (relevance.BARE_EVIDENCE), "
                             "leave one set out, and stop")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--no-conflict", action="store_true",
                        help="fit without the conflict margin (what the app did before it)")
    parser.add_argument("--models-dir", type=Path, default=None)
    args = parser.parse_args()
    records = offtopic_data.load(args.model.split(",")[0], args.version.split(",")[0])
    if args.topical:
        run_topical(records)
        return 0
    if args.weak_keywords:
        models = args.model.split(",")
        versions = args.version.split(",")
        run_name_level([NameData.of(m, records if i == 0 else offtopic_data.load(m, v))
                        for i, (m, v) in enumerate(zip(models, versions, strict=True))])
        return 0
    if args.bare_across:
        run_bare([BareData.of(m, records if i == 0 else offtopic_data.load(m, v))
                  for i, (m, v) in enumerate(zip(args.model.split(","), args.version.split(","), strict=True))])
        return 0
    if args.sets:
        figures = run_sets(records, args.model)
        if args.json:
            args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
        if args.against:
            with contextlib.redirect_stdout(io.StringIO()):
                before = run_sets(offtopic_data.load(args.model.split(",")[0], args.against), args.model)
            print(f"=== {args.model}: records {args.against} -> {args.version}, the rows that differ")
            for line in sets_changes(before, figures) or ["(none)"]:
                print(f"  {line}")
        return 0
    print(f"=== {args.model}: the margin's unit, chosen on the public folds")
    conflict = not args.no_conflict
    unit = choose_unit(records, conflict)
    table = Table.of(records, unit)
    (coverage, margin, across, beside), _, _ = run(
        table, f"{args.model}, hybrid (margin in {unit}{'' if conflict else ', no conflict margin'})",
        keywords=False, conflict=conflict)
    if args.keywords:
        run(table, "keywords only (no model; the same libraries' keyword side)", keywords=True)
    if args.before:
        old_floor(records)
    if args.write:
        if args.models_dir is None or margin is None:
            parser.error("--write needs --models-dir")
        write(args.model, args.models_dir, coverage, margin, unit, across, beside)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
