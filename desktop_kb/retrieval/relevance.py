"""Whether the library holds anything close to a question: the relevance floor's decision.

A keyword hit is not evidence by itself. "红烧肉怎么做" against a Rust book matches
the single character 做; "how to bake bread" may match "how" in a code comment;
an unknown word split by the segmenter matches its fragments. So the keyword side
is read as a share: how much of the question's informative weight (its meaningful
terms, each weighed by how rare it is in everyday language) the best keyword hit holds,
each held term counting only as far as this library holds it more often than everyday
text would (:func:`topical_weights`; :func:`keyword_evidence`). A cooking question shares
分钟 and 刚好 with a Rust book, in 2 and 4 of its 1,074 chunks: words any text of that
size holds, which say nothing of the question's topic. A question whose best hit holds little of it has no
keyword evidence, whatever the number of hits; a question naming the library's
own terms keeps a high share even beside a few words the library lacks.

Then:

* keywords only (no model): nothing is close under :data:`KEYWORD_COVERAGE`;
* with a model: nothing is close when the keyword evidence is under the model's
  ``coverage`` AND the best cosine is under the dense floor (``fusion.relevance_floor``)
  raised by the model's ``margin`` (a share of the library's span from unrelated text
  to a sentence's own passage, or plain cosine: ``margin_unit``);
* where the question names something this library never mentions (a word neither everyday
  language nor the library holds: "nginx", "useEffect", "MaybeUninit", another tool's or crate's
  name; or one the question writes as a name: "Swift", "Java", "Miri"; or a name it mentions only
  in passing that the best hit lacks, :func:`in_passing`; :func:`names_unknown_word`)
  and keywords hold under :data:`NAME_COVERAGE` of it, keywords do not vouch for it, however many
  of its other words the library holds ("What is the difference between a struct and a class in
  Swift?" asked of the Rust book holds struct and class): keywords alone list weak matches, and
  with a model the best cosine must reach the level this library's own unrelated pairs reach
  (:data:`UNKNOWN_NAME_LEVEL` spreads above their mean, ``Calibration.cosine_at``; ``name_bar``).
  Only on a library of at least ``calibration.MIN_CHUNKS`` chunks: a few notes lack almost every
  word, and a note on installing GitLab answers "怎么用 Docker 安装 GitLab？" though it never says Docker.
  A model places "How do I configure nginx as a reverse proxy?" near a programming book's
  passages on servers, as near as a question the book answers, but keyword search knows the book
  has never heard of nginx, and a model must not tell the person more than keywords alone would;
* where the question is in another script than the library's, the library writes in the question's
  script too (the Rust book's code) and keywords hold almost none of it (:data:`BARE_EVIDENCE`),
  meaning does not vouch for it: keyword search could have found it there and found nothing
  ("How can I fall asleep faster at night?" asked of the Chinese Rust book; :func:`meaning_may_vouch`);
* where keywords alone would say nothing (evidence under :data:`KEYWORD_COVERAGE`) and
  the words they did match point elsewhere than the meaning side (:func:`lists_disagree`),
  the meaning side must clear the model's higher ``margin_conflict``: "红烧肉怎么做才能
  肥而不腻" matches 做 and 才能 in one chapter while e5's nearest passages are others,
  and a model that sits every Chinese question close to every Chinese passage (e5) would
  otherwise tell the person less than no model at all. It applies only where keyword
  search alone would call its hits weak (and QA refuses), never where it finds the question.

All are fitted per model, leave-one-set-out, on whole libraries
(``benchmarks/bench_offtopic.py``) and kept with the model's calibration
(``floor_reference``); a model without them, or a library too small to measure (the
margin was fitted on whole libraries), keeps the plain dense floor and
:data:`KEYWORD_COVERAGE`.

With the library's IDF in the weight (a library power above 0), a term the library lacks
weighs as much as its rarest term (document frequency at least 1): a one-note library would
otherwise weigh every absent word five times a present one.
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections.abc import Collection, Iterable, Mapping, Sequence

from desktop_kb.index.everyday_words import known_word, zipf
from desktop_kb.index.segment import identifier_parts, is_identifier
from desktop_kb.retrieval.calibration import Calibration
from desktop_kb.retrieval.candidates import Candidates
from desktop_kb.retrieval.floor_reference import FloorReference
from desktop_kb.retrieval.term_stats import (
    bm25_idf,
    index_stats,
    mean_tokens,
    operator_doc_freq,
    padded_operator_texts,
    padded_token_texts,
)
from desktop_kb.text.han import HAN_CHAR_RE

#: Keyword evidence under which a keyword-only search says "nothing is close" (and the
#: share a model without fitted constants requires before its dense floor is consulted).
#: Fitted by ``benchmarks/bench_offtopic.py`` on the public sets: the highest share that
#: silences no question keywords found (top 10) in any of them.
KEYWORD_COVERAGE = 0.2

#: How each term weighs and earns (:func:`topical_weights`): the powers of its IDF in this
#: library, of its rarity in everyday language and of its lift in this library. Fitted with
#: KEYWORD_COVERAGE by ``benchmarks/bench_offtopic.py --topical`` on the four public sets (the
#: most off-topic questions caught with no found in-domain question of any set silenced), each
#: set held out in turn; the Rust book's questions and offtopic_questions.tsv are never fitted on.
#: Before: (1, 0, 0) and 0.2 (library IDF alone).
TERM_POWERS = (0.0, 0.05, 1.0)
#: The zipf value of the commonest words ("the" 7.7, 的 6.7): no word weighs less than one.
ZIPF_TOP = 8.0

#: How far down each list agreement is looked for: the keyword list's first hits against the
#: meaning list's first ones. A question asked of a library that lacks it, whose keywords
#: hold under KEYWORD_COVERAGE of it but matched something, shares a passage between the
#: keyword top 10 and the meaning top 3 in 7-32 % of cases (e5; USE 12-37 %; offtopic_data
#: records of all five libraries).
AGREEMENT_DEPTH = (10, 3)


#: Where the question names something the library never mentions (:func:`names_unknown_word`) and
#: keywords hold under NAME_COVERAGE of it, the best cosine must reach this many of the library's
#: spreads above the mean cosine of its unrelated pairs (``Calibration.cosine_at``: both measured on
#: this library with the model in use, so no model's cosine scale is written here), and keywords
#: alone say nothing. Both fitted, one pair for every model and for keywords alone, by
#: ``benchmarks/bench_offtopic.py --weak-keywords`` leave-one-set-out (the public sets, each Rust
#: book question set, each off-topic set); UNKNOWN_NAME_LEVEL None: no such level. Before: 3.75, and
#: only under KEYWORD_COVERAGE.
UNKNOWN_NAME_LEVEL: float | None = 2.0
NAME_COVERAGE = 0.7


#: Where the question is in another script than the one this library's statistics were measured in,
#: the library writes at least SCRIPT_SHARE of its sentences in the question's script (its
#: calibration's ``han_share``: the Rust book's code and English pages, 0.38 of its sentences; none
#: of a Chinese encyclopedia or sentence collection) and keywords hold under BARE_EVIDENCE of the
#: question, meaning search does not vouch for it (:func:`keywords_could_tell`): keyword search
#: could have found the question there and found nothing of it. multilingual-e5 puts an English
#: everyday question on the Chinese Rust book as close as one the book answers ("How can I fall
#: asleep faster at night?" 0.048 above its bar), while every English question the book answers
#: (sets 1-14) holds at least 0.10 of its weight there. BARE_EVIDENCE fitted, one for every model, by
#: ``benchmarks/bench_offtopic.py --bare-across`` leave-one-set-out (the public sets, each Rust book
#: question set, each off-topic set); None: no such rule. SCRIPT_SHARE is not fitted: every value
#: in the gap between the Chinese public libraries (0.0) and the book (0.38) decides alike there.
BARE_EVIDENCE: float | None = 0.09
SCRIPT_SHARE = 0.2


def keywords_could_tell(calibration: Calibration | None, query_has_han: bool) -> bool:
    """The question is in another script than the one the library's statistics were measured in,
    and the library writes at least :data:`SCRIPT_SHARE` of its sentences in the question's script:
    keyword search could have found it (unlike an English question on a wholly Chinese library,
    whose words it can never hold)."""
    if not _measured(calibration) or calibration.han_share < 0 \
            or calibration.measured_in_script_of(query_has_han):
        return False
    share = calibration.han_share if query_has_han else 1.0 - calibration.han_share
    return share >= SCRIPT_SHARE


def meaning_may_vouch(evidence: float, calibration: Calibration | None, query_has_han: bool) -> bool:
    """Whether the meaning side may vouch for a question keywords hold ``evidence`` of: not where
    keywords could have found it and hold under :data:`BARE_EVIDENCE` of it."""
    return BARE_EVIDENCE is None or evidence >= BARE_EVIDENCE \
        or not keywords_could_tell(calibration, query_has_han)


def names_unknown_word(terms: Sequence[str], doc_freq: Mapping[str, int], question: str = "",
                       held: Collection[str] = (), passing: Collection[str] = ()) -> bool:
    """Whether the question names something the library never mentions: a term the library lacks
    that everyday language lacks too ("nginx", "env_logger"), or that the question writes as a name
    ("Swift", "Java", "Miri": capitalised where no sentence starts, in a library that holds some of
    the question's other Latin words). Another everyday word says
    nothing of the kind: questions put things in other words than their library's. Numbers, dates
    and times name nothing, and a term a keyword hit holds (an identifier by its parts:
    "async/await") is not missing, unless the library holds it only in passing and the best hit
    lacks it (``passing``: :func:`in_passing`)."""
    # A Chinese library lacks "Tom" because it writes 汤姆: a capitalised everyday word names
    # something the library never mentions only where it holds some of the question's Latin words.
    writes_latin = any(doc_freq.get(t, 0) > 0 and _LATIN_WORD_RE.search(t) for t in terms)
    names = written_as_names(question) if writes_latin else frozenset()
    return any((t in passing or (doc_freq.get(t, 0) == 0 and t not in held)) and any(c.isalpha() for c in t)
               and (not known_word(t) or t in names) for t in dict.fromkeys(terms))


def written_as_names(question: str) -> frozenset[str]:
    """The words (lower-cased) a question writes with a capital letter where a sentence does not
    start: in a Chinese question every such Latin word ("Java 的 record"), in an English one all but
    a sentence's first word, unless that is capitalised inside too ("GitHub")."""
    han = bool(HAN_CHAR_RE.search(question))
    names = set()
    for m in _LATIN_WORD_RE.finditer(question):
        word = m.group()
        if len(word) < 2 or word.islower():
            continue
        before = question[: m.start()].rstrip()
        if not han and (not before or before[-1] in _SENTENCE_STARTS) and word[1:].islower():
            continue
        names.add(word.lower())
    return frozenset(names)


_LATIN_WORD_RE = re.compile("[A-Za-z\u00c0-\u024f]+")
#: What a sentence's first word may follow (an opening quote or bracket counts as the start).
_SENTENCE_STARTS = ".?!:;\"'(“‘「"


def keyword_evidence(index: sqlite3.Connection, terms: Sequence[str], cand: Candidates,
                     operators: Sequence[str] = (), held: Mapping[int, frozenset[str]] | None = None
                     ) -> float:
    """The largest share of the question's informative weight one keyword hit holds (0..1).

    A question's ``operators`` (``{:?}``, ``//!``) count like its words, their chunk counts
    read from ``kb_ops``: a hit holding the one operator asked about holds all of the question.
    ``held``: :func:`held_terms` of the terms and operators, when the caller has read them.
    """
    return keyword_reading(index, terms, cand, operators, held)[0]


def keyword_reading(index: sqlite3.Connection, terms: Sequence[str], cand: Candidates,
                    operators: Sequence[str] = (), held: Mapping[int, frozenset[str]] | None = None
                    ) -> tuple[float, frozenset[str]]:
    """:func:`keyword_evidence`, and the terms the library mentions only in passing that its best
    hit lacks (:func:`in_passing`)."""
    asked = [*terms, *operators]
    held = held_terms(index, asked, cand, operators) if held is None else held
    if not held:
        return 0.0, frozenset()
    total, doc_freq = index_stats(index, list(terms))
    if operators:
        doc_freq = {**doc_freq, **operator_doc_freq(index, operators)}
    weights, credits = topical_weights(asked, total, doc_freq, mean_tokens(index))
    return evidence_share(weights, held.values(), credits), in_passing(held, weights, credits)


def in_passing(held: Mapping[int, Collection[str]], weights: Mapping[str, float],
               credits: Mapping[str, float]) -> frozenset[str]:
    """The question's terms this library holds no more often than everyday text would (a credit
    under the weight: :func:`topical_weights`' lift under 1) and the best keyword hit lacks: the
    Rust book mentions Python in one chapter, in passing, and "Python 的装饰器怎么写" finds 器
    elsewhere. Asked about, such a name is as absent as one the library never mentions."""
    if not held:
        return frozenset()
    best = max(held.values(), key=lambda terms: sum(credits.get(t, 0.0) for t in terms))
    return frozenset(t for t, weight in weights.items() if credits.get(t, weight) < weight and t not in best)


def held_terms(index: sqlite3.Connection, terms: Sequence[str], cand: Candidates,
               operators: Sequence[str] = ()) -> dict[int, frozenset[str]]:
    """Per keyword hit, the question's terms it holds (``operators`` among them: read from
    the hit's operators too)."""
    hits = [int(c) for c, r in zip(cand.ids, cand.lex_rank, strict=True) if r > 0]
    if not hits:
        return {}
    # An identifier is matched as the phrase of its parts ("gitlab:docker-compose.yml" holds
    # docker-compose.yml): it counts when the chunk holds it whole or every part of it.
    forms = [(t, _forms(t)) for t in dict.fromkeys(terms)]
    texts = cand.hit_texts  # read once with the hits' coverage (candidates.gather)
    if missing := [c for c in dict.fromkeys(hits) if c not in texts]:
        read = padded_token_texts(index, missing)
        if operators:
            ops = padded_operator_texts(index, missing)
            read = {cid: text + ops.get(cid, "") for cid, text in read.items()}
        texts = {**texts, **read}
    hit_texts = {cid: text for cid in dict.fromkeys(hits) if (text := texts.get(cid)) is not None}
    # Which hits hold each padded token, one pass over the hits per token: the same tests as
    # asking every hit for every form, without a generator per hit and term.
    holders = {p: {cid for cid, text in hit_texts.items() if p in text}
               for p in dict.fromkeys(p for _t, alternatives in forms for tokens in alternatives for p in tokens)}
    holding = {t: set().union(*(set.intersection(*(holders[p] for p in tokens)) for tokens in alternatives))
               for t, alternatives in forms if alternatives}
    return {cid: frozenset(t for t, _alternatives in forms if cid in holding.get(t, ()))
            for cid in hit_texts}


def evidence_share(weights: Mapping[str, float], held: Iterable[Collection[str]],
                   credits: Mapping[str, float] | None = None) -> float:
    """The largest share of ``weights``' total that one of the ``held`` term sets holds, a held
    term earning its ``credits`` (its weight when None)."""
    total = sum(weights.values())
    if total <= 0:
        return 0.0
    earned = weights if credits is None else credits
    return max((sum(earned.get(t, 0.0) for t in terms) / total for terms in held), default=0.0)


def _forms(term: str) -> list[list[str]]:
    """The token sets that hold ``term``, padded as ``term_stats.padded_token_texts`` is."""
    if not term or term.split() != [term]:
        return []  # no chunk has a token with a space in it
    forms = [[f" {term} "]]
    if is_identifier(term) and (parts := identifier_parts(term)):
        forms.append([f" {p} " for p in parts])
    return forms


def topical_weights(terms: Sequence[str], total: int, doc_freq: Mapping[str, int], mean_tokens: float,
                    powers: tuple[float, float, float] | None = None
                    ) -> tuple[dict[str, float], dict[str, float]]:
    """Each term's weight in the question, and what a hit holding it earns.

    The weight: its IDF in this library (a missing term weighing as a term seen once) to
    the library power, times its rarity in everyday language, 10^(everyday power ×
    (ZIPF_TOP − zipf)): an everyday word (分钟, "fix") says little about a question's topic,
    one rare everywhere (闭包, "tokio") a lot.

    What a hit earns: the weight times the term's lift to the lift power, capped at 1: how
    much more often chunks of this library hold it than chunks of as many everyday words
    would (``mean_tokens``). A cooking question's 分钟 and 刚好 are in a Rust book, but in 2
    and 4 of its 1,074 chunks where everyday text would have them in ~20: finding them says
    the library is not about the question. Words a library is about (所有权, 猜 in its
    guessing game, or every word of a library of everyday sentences) earn in full.
    ``powers``: (library, everyday, lift), :data:`TERM_POWERS` when None.
    """
    library, everyday, lift_power = TERM_POWERS if powers is None else powers
    total = total or 1
    weights: dict[str, float] = {}
    credits: dict[str, float] = {}
    for t in dict.fromkeys(terms):
        df = doc_freq.get(t, 0)
        z = min(zipf(t), ZIPF_TOP)
        weight = bm25_idf(total, max(1, df)) ** library * 10.0 ** (everyday * (ZIPF_TOP - z))
        weights[t] = weight
        if lift_power:
            everyday_share = -math.expm1(-max(mean_tokens, 1.0) * 10.0 ** (z - 9.0))
            weight *= min(1.0, (df / total) / everyday_share) ** lift_power
        credits[t] = weight
    return weights, credits


def lists_disagree(cand: Candidates) -> bool:
    """Keywords matched something, and none of their first hits is among the meaning side's first.

    Without a keyword hit, or without a meaning list, there is nothing to disagree about.
    """
    if not cand.dense_ran:
        return False
    lexical, dense = AGREEMENT_DEPTH
    keyword_firsts = (cand.lex_rank > 0) & (cand.lex_rank <= lexical)
    if not keyword_firsts.any():
        return False
    return not bool((keyword_firsts & (cand.dense_rank > 0) & (cand.dense_rank <= dense)).any())


def in_conflict(evidence: float, cand: Candidates) -> bool:
    """Keyword search alone would say nothing, and the words it matched point elsewhere than
    the meaning side: the case that must clear ``margin_conflict``."""
    return evidence < KEYWORD_COVERAGE and lists_disagree(cand)


def required_coverage(calibration: Calibration | None, reference: FloorReference | None) -> float:
    """The keyword evidence that counts as finding the question, with a model in use."""
    if reference is not None and reference.coverage is not None and _measured(calibration):
        return reference.coverage
    return KEYWORD_COVERAGE


def name_bar(floor: float | None, calibration: Calibration | None,
             reference: FloorReference | None = None) -> float | None:
    """The cosine meaning search must reach to vouch for a question naming something the library
    never mentions (:func:`names_unknown_word`) whose keyword evidence is under
    :data:`NAME_COVERAGE`: the model's ``name_level`` (else :data:`UNKNOWN_NAME_LEVEL`) of this
    library's spreads above its unrelated pairs. None: no such bar (no floor, or a library too small
    to measure), and the plain one decides."""
    level = reference.name_level if reference is not None and reference.name_level is not None \
        else UNKNOWN_NAME_LEVEL
    if floor is None or level is None or calibration is None or not _measured(calibration):
        return None
    return calibration.cosine_at(level)


def dense_bar(floor: float | None, calibration: Calibration | None,
              reference: FloorReference | None, query_has_han: bool | None = None,
              conflict: bool = False) -> float | None:
    """The cosine a question without keyword evidence must reach (None: no floor): the dense floor
    raised by the model's margin.

    ``conflict`` (:func:`in_conflict`): the model's ``margin_conflict`` when it has one and
    it is the higher.

    A question in another script than the library's gets the model's ``margin_across`` when
    it has one: e5 puts an English question on Chinese text closer to every passage than a
    Chinese one (its floor reads it against Chinese passages), so its own margin is fitted on
    English questions about Chinese passages.
    """
    if floor is None:
        return None
    if calibration is None or reference is None or not _measured(calibration):
        return floor
    margin = reference.margin
    if (reference.margin_across is not None and query_has_han is not None
            and not calibration.measured_in_script_of(query_has_han)):
        margin = reference.margin_across
    if conflict and reference.margin_conflict is not None:
        margin = max(margin, reference.margin_conflict)
    if reference.margin_unit == "cosine":
        return floor + margin
    return floor + margin * max(calibration.related - calibration.unrelated, 0.0)


def _measured(calibration: Calibration | None) -> bool:
    """Statistics measured on this library (not a prior for one too small to measure)."""
    return calibration is not None and calibration.sample > 0
