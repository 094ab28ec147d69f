"""Real text and real-model vectors for the retrieval benchmark, cached under /tmp.

What is real and what is synthesised (printed with every benchmark run):

* **Sentences are real**: the paragraphs of the public evaluation sets
  (CMRC 2018 trial, DRCD dev — Traditional Chinese —, Tatoeba English and
  Chinese) and the Chinese Rust book, split with the app's own sentence
  splitter. Every distinct sentence is embedded once with the real model.
* **Chunks are synthesised** from them: a window of consecutive sentences of
  one document (150–400 chars) followed by one or two sentences of another
  document (so no two chunks are the same), joined by newlines. So term statistics, scripts,
  identifiers and code lines are those of real text, but at 10⁶ chunks each
  sentence is reused many times.
* **Chunk vectors are synthesised**: the normalised sum of the chunk's real
  sentence vectors (the model is not run on 10⁶ chunks). The benchmark embeds
  a sample of chunks for real and prints how close the two are. Sums of random
  sentences crowd closer together than real passages do, which makes
  quantised search harder, not easier.
* **Query vectors are real**: the questions of the evaluation sets (and
  Tatoeba's English sentences, cross-lingual), embedded by the real model.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

CACHE_VERSION = "1"


def find_shared(start: Path | None = None) -> Path:
    """The shared data folder (``eval/``, ``corpora/``) beside the repository or its parent."""
    here = (start or Path(__file__)).resolve()
    for parent in here.parents:
        if (parent / "shared" / "eval").is_dir():
            return parent / "shared"
    raise FileNotFoundError("no shared/eval folder above " + str(here) + "; pass --shared")

_MARKUP_RE = re.compile(r"^\s*(?:#+|>+|[-*+]|\d+\.)\s*")


@dataclass(frozen=True)
class Document:
    title: str
    sentences: list[str]


# A fixed sentence rule (not the app's, which may change): the cached vectors
# are keyed by the exact sentences, and re-embedding 45k sentences takes long.
_BOUNDARY_RE = re.compile(r"(?:[。！？；…]+|[.!?;]+(?=[\s\"'”’）)」』]|$))[\"'”’）)」』]*|\n")


def _sentences(text: str) -> list[str]:
    out = []
    prev = 0
    for m in [*_BOUNDARY_RE.finditer(text), None]:
        end = m.end() if m else len(text)
        # Markdown markers would make the chunker see headings or lists.
        s = _MARKUP_RE.sub("", text[prev:end].strip()).strip()
        if s:
            out.append(s)
        prev = end
    return out


def load_documents(shared: Path) -> list[Document]:
    """Every source paragraph or file as a document of real sentences."""
    docs: list[Document] = []
    for name in ("cmrc2018_trial.json", "drcd_dev.json"):
        data = json.loads((shared / "eval" / name).read_text(encoding="utf-8"))
        for article in data["data"]:
            for para in article["paragraphs"]:
                docs.append(Document(article.get("title", name), _sentences(para["context"])))
    pairs = (shared / "eval" / "tatoeba_cmn_dev.tsv").read_text(encoding="utf-8").splitlines()
    for i in range(0, len(pairs), 8):  # eight translation pairs make one "lesson"
        sents = [s.strip() for line in pairs[i:i + 8] for s in line.split("\t")[:2] if s.strip()]
        docs.append(Document(f"tatoeba {i // 8}", sents))
    book = shared / "corpora" / "rust-book-cn" / "src"
    for path in sorted(book.glob("*.md")):
        sents = _sentences(path.read_text(encoding="utf-8"))
        for i in range(0, len(sents), 40):  # one document per ~section
            docs.append(Document(f"{path.stem} {i // 40}", sents[i:i + 40]))
    return [d for d in docs if d.sentences]


def load_queries(shared: Path) -> list[str]:
    """Real questions: CMRC and DRCD (Chinese), Tatoeba English (cross-lingual), interleaved."""
    groups: list[list[str]] = []
    for name in ("cmrc2018_trial.json", "drcd_dev.json"):
        data = json.loads((shared / "eval" / name).read_text(encoding="utf-8"))
        groups.append([qa["question"] for a in data["data"] for p in a["paragraphs"]
                       for qa in p["qas"]])
    lines = (shared / "eval" / "tatoeba_cmn_dev.tsv").read_text(encoding="utf-8").splitlines()
    groups.append([line.split("\t")[0] for line in lines[1::7]])
    out: list[str] = []
    for i in range(max(len(g) for g in groups)):
        out.extend(g[i] for g in groups if i < len(g))
    return list(dict.fromkeys(out))


def _digest(parts: Sequence[str]) -> str:
    h = hashlib.blake2b(digest_size=8)
    for p in parts:
        h.update(p.encode("utf-8", "surrogatepass") + b"\x00")
    return h.hexdigest()


def cached_embeddings(cache: Path, label: str, texts: Sequence[str],
                      embed: Callable[[Sequence[str]], np.ndarray],
                      progress: Callable[[str], None] = print) -> np.ndarray:
    """Real-model vectors of ``texts`` (float16 on disk, float32 back), embedded once."""
    path = cache / f"{label}-{_digest(texts)}-v{CACHE_VERSION}.npy"
    if path.is_file():
        return np.load(path).astype(np.float32)
    out = []
    for i in range(0, len(texts), 512):
        out.append(embed(list(texts[i:i + 512])))
        progress(f"embedding {label}: {min(i + 512, len(texts)):,}/{len(texts):,}")
    matrix = np.concatenate(out).astype(np.float32)
    cache.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npy")
    np.save(tmp, matrix.astype(np.float16))
    tmp.replace(path)
    return matrix


@dataclass
class SyntheticCorpus:
    """``n`` chunks as (title, body) with their sentence ids, and the sentence pool."""

    sentences: list[str]
    titles: list[str]
    bodies: list[str]
    members: list[np.ndarray]  # sentence ids of each chunk, in order


def synthesise(docs: Sequence[Document], n: int, seed: int) -> SyntheticCorpus:
    """``n`` chunks from real sentences (see the module docstring)."""
    rng = np.random.default_rng(seed)
    sentences: list[str] = []
    spans: list[tuple[int, int]] = []
    for d in docs:
        spans.append((len(sentences), len(sentences) + len(d.sentences)))
        sentences.extend(d.sentences)
    lengths = np.array([len(s) + 1 for s in sentences])
    titles: list[str] = []
    bodies: list[str] = []
    members: list[np.ndarray] = []
    doc_ids = rng.integers(0, len(docs), size=n)
    others = rng.integers(0, len(docs), size=n)
    targets = rng.integers(150, 401, size=n)
    for i in range(n):
        lo, hi = spans[doc_ids[i]]
        start = int(rng.integers(lo, hi))
        ids: list[int] = []
        total = 0
        j = start
        while j < hi and (total < targets[i] or not ids):
            ids.append(j)
            total += int(lengths[j])
            j += 1
        olo, ohi = spans[others[i]]
        k = int(rng.integers(olo, ohi))
        ids.extend(range(k, min(ohi, k + int(rng.integers(1, 3)))))
        members.append(np.array(ids, dtype=np.int32))
        bodies.append("\n".join(sentences[x] for x in ids))
        titles.append(f"{docs[doc_ids[i]].title} · {i}")
    return SyntheticCorpus(sentences, titles, bodies, members)


def chunk_vectors(corpus: SyntheticCorpus, sentence_vectors: np.ndarray, lo: int = 0,
                  hi: int | None = None) -> np.ndarray:
    """Normalised sums of the member sentences' real vectors, for chunks [lo, hi)."""
    hi = len(corpus.members) if hi is None else hi
    out = np.empty((hi - lo, sentence_vectors.shape[1]), dtype=np.float32)
    for r, i in enumerate(range(lo, hi)):
        out[r] = sentence_vectors[corpus.members[i]].sum(axis=0)
    out /= np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)
    return out
