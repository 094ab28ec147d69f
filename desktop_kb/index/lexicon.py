"""jieba's segmentation with a compact dictionary: the same words, a tenth of the memory.

jieba keeps its 350k-word dictionary as a Python dict of every word *and every
prefix of every word* (~500k str/int objects, ~60 MB resident): most of its
cost, in a process whose whole budget is a few hundred MB. Here the dictionary
is two sorted numpy arrays, the words' 64-bit hashes and their frequencies
(~4 MB, cached on disk so a process never builds 350k Python strings).
Segmentation follows jieba's algorithm step for step — the DAG of dictionary
words, the maximum-probability route, jieba's own HMM (``finalseg``) for runs
of unknown single characters, ``cut_for_search``'s extra 2- and 3-grams — so
the words are jieba's (the tests compare the two on real text).

The hashes of every substring of up to ``max_word`` characters of a whole text
are computed at once with numpy (a polynomial hash over code points, then a
64-bit mix) and looked up with one ``searchsorted``; the per-character Python
work is jieba's route. A false hit needs two of the ~10⁶ strings a process
looks up to share 64 bits: below 10⁻⁷.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import tempfile
from pathlib import Path
from typing import NamedTuple

import numpy as np

from desktop_kb.text.han import JIEBA_HAN_CHARS

_JIEBA_HAN = re.compile(f"([{JIEBA_HAN_CHARS}]+)")
_BASE = np.uint64(0x9E3779B97F4A7C15)
_FORMAT = "lexicon-2"


def _mix(h: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: spreads the polynomial hash over all 64 bits."""
    h = h ^ (h >> np.uint64(30))
    h = h * np.uint64(0xBF58476D1CE4E5B9)
    h = h ^ (h >> np.uint64(27))
    h = h * np.uint64(0x94D049BB133111EB)
    return h ^ (h >> np.uint64(31))


_B = 0x9E3779B97F4A7C15
_B_INV = pow(_B, -1, 1 << 64)  # the base is odd, so it has an inverse modulo 2^64


_POWERS: tuple[np.ndarray, np.ndarray] = (np.ones(1, np.uint64), np.ones(1, np.uint64))


def _powers(n: int) -> tuple[np.ndarray, np.ndarray]:
    """B^i and B^-i for i < n (mod 2^64), grown by doubling and kept for the next text."""
    pows, inv = _POWERS
    if len(pows) < n:
        with np.errstate(over="ignore"):
            while len(pows) < n:
                k = len(pows)
                pows = np.concatenate([pows, pows * np.uint64(pow(_B, k, 1 << 64))])
                inv = np.concatenate([inv, inv * np.uint64(pow(_B_INV, k, 1 << 64))])
        globals()["_POWERS"] = (pows, inv)  # replaced whole: other threads see old or new
    return pows[:n], inv[:n]


def substring_hashes(codes: np.ndarray, width: int) -> np.ndarray:
    """``out[k, L-1]``: hash of the ``L`` code points from ``k`` (0 past the end).

    The polynomial hash of every substring at once, from prefix sums: with
    ``Q[i] = Σ_{j<i} c[j]·B⁻ʲ``, the substring ``k..k+L`` hashes to
    ``B^(k+L-1)·(Q[k+L] − Q[k])`` (all arithmetic wraps modulo 2⁶⁴), which is
    :func:`word_hashes`' ``Σ c[j]·B^(k+L-1-j)``: a dozen numpy calls per text,
    however many substrings.
    """
    n = len(codes)
    out = np.zeros((n, width), dtype=np.uint64)
    if n == 0 or width == 0:
        return out
    with np.errstate(over="ignore"):
        pows, inv_pows = _powers(n)
        prefix = np.zeros(n + 1, dtype=np.uint64)
        np.cumsum(codes * inv_pows, out=prefix[1:])
        lengths = np.arange(1, width + 1)
        ends = np.minimum(np.arange(n)[:, None] + lengths[None, :], n)
        h = (prefix[ends] - prefix[:n, None]) * pows[ends - 1]
        out = _mix(h ^ lengths.astype(np.uint64)[None, :])
        out[np.arange(n)[:, None] + lengths[None, :] > n] = 0  # past the end
    return out


def word_hashes(words: list[str]) -> np.ndarray:
    """:func:`substring_hashes` of whole words."""
    out = np.empty(len(words), dtype=np.uint64)
    by_len: dict[int, list[int]] = {}
    for i, w in enumerate(words):
        by_len.setdefault(len(w), []).append(i)
    with np.errstate(over="ignore"):
        for length, idx in by_len.items():
            codes = np.array([[ord(c) for c in words[i]] for i in idx], dtype=np.uint64)
            h = np.zeros(len(idx), dtype=np.uint64)
            for j in range(length):
                h = h * _BASE + codes[:, j]
            out[idx] = _mix(h ^ np.uint64(length))
    return out


def _default_dictionary() -> Path:
    import jieba

    return Path(jieba.__file__).parent / "dict.txt"


def _build(dictionary: Path) -> dict[str, np.ndarray]:
    """Hashes and frequencies of every word, read in slices so no 350k-string list lives."""
    hashes: list[np.ndarray] = []
    freqs: list[np.ndarray] = []
    max_word = 0
    longest = np.zeros(0xA000, dtype=np.uint8)  # longest word by first character
    with dictionary.open("rb") as fh:
        while True:
            lines = fh.readlines(1 << 20)
            if not lines:
                break
            words: list[str] = []
            counts: list[int] = []
            for raw in lines:
                parts = raw.decode("utf-8").split()
                if len(parts) >= 2:
                    words.append(parts[0])
                    counts.append(int(parts[1]))
            for w in words:
                c = ord(w[0])
                if c < len(longest) and len(w) > longest[c]:
                    longest[c] = len(w)
            hashes.append(word_hashes(words))
            freqs.append(np.asarray(counts, dtype=np.int64))
            max_word = max([max_word, *map(len, words)])
    h = np.concatenate(hashes)
    f = np.concatenate(freqs)
    keys, slots_freq, probes = _hash_table(h, f)
    return {"keys": keys, "freqs": slots_freq, "probes": np.array([probes]),
            "longest": longest, "total": np.array([f.sum()]), "max_word": np.array([max_word])}


def _hash_table(hashes: np.ndarray, freqs: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Open addressing (linear probing) at load ≤ 1/3: a lookup is ~1 memory access,
    against ~19 for a binary search over 350k sorted hashes."""
    size = 1 << max(10, int(3 * len(hashes)).bit_length())
    keys = np.zeros(size, dtype=np.uint64)
    table_freqs = np.zeros(size, dtype=np.int64)
    hashes = np.where(hashes == 0, np.uint64(1), hashes)  # 0 marks an empty slot
    slot = (hashes & np.uint64(size - 1)).astype(np.int64)
    todo = np.arange(len(hashes))
    probes = 0
    while len(todo):
        probes += 1
        s = slot[todo]
        # One key per free slot per round: the first claimant wins, the rest move on.
        free = keys[s] == 0
        cand, first = np.unique(s[free], return_index=True)
        winners = todo[free][first]
        keys[cand] = hashes[winners]
        table_freqs[cand] = freqs[winners]
        placed = np.zeros(len(hashes), dtype=bool)
        placed[winners] = True
        todo = todo[~placed[todo]]
        slot[todo] = (slot[todo] + 1) & (size - 1)
    return keys, table_freqs, probes


def _narrowed(freqs: np.ndarray) -> np.ndarray:
    """The frequency table as int32 when every count fits (jieba's largest is 318,825): 4 MB of
    the table's 16 instead of 8; lookups widen them back to int64, so no count changes."""
    if len(freqs) and int(freqs.max()) <= np.iinfo(np.int32).max and int(freqs.min()) >= 0:
        return freqs.astype(np.int32)
    return freqs


def _cache_path(dictionary: Path, cache_dir: Path) -> Path:
    stat = dictionary.stat()
    key = hashlib.blake2b(f"{_FORMAT}|{dictionary.resolve()}|{stat.st_size}|{stat.st_mtime_ns}"
                          .encode(), digest_size=8).hexdigest()
    return cache_dir / f"jieba-{key}.npz"


def load_arrays(dictionary: Path, cache_dir: Path | None) -> dict[str, np.ndarray]:
    """The compact dictionary, from the cache when it is there (written atomically)."""
    if cache_dir is None:
        return _build(dictionary)
    path = _cache_path(dictionary, cache_dir)
    try:
        with np.load(path) as data:
            return {k: data[k] for k in data.files}
    except (OSError, ValueError, KeyError):
        pass
    arrays = _build(dictionary)
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=cache_dir, suffix=".npz")
        with os.fdopen(fd, "wb") as fh:
            np.savez(fh, **arrays)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only cache only costs the next process a rebuild
    return arrays


#: Joins a user word and its frequency in one entry of the user-word set ("线程\x1f65536"):
#: the library's own frequent words (``index/library_words.py``) come with the frequency the
#: library gives them, and the set travels as strings to every process that cuts text.
WEIGHT_SEP = "\x1f"


def weighted(entry: str) -> tuple[str, int]:
    """(word, frequency it comes with; 0 when none) of a user-word entry."""
    word, sep, freq = entry.partition(WEIGHT_SEP)
    return (word, int(freq)) if sep and freq.isdigit() else (word, 0)


class UserWords(NamedTuple):
    """The person's own words on top of jieba's dictionary (see ``set_user_words``)."""

    words: frozenset[str]
    hashes: np.ndarray  # sorted
    freqs: np.ndarray  # aligned with ``hashes``
    longest: np.ndarray  # longest word by first character, the dictionary's and these
    max_word: int


class CompactTokenizer:
    """jieba's ``cut`` and ``cut_for_search`` (HMM on) for runs of Han characters."""

    def __init__(self, dictionary: Path | None = None, cache_dir: Path | None = None) -> None:
        arrays = load_arrays(dictionary or _default_dictionary(), cache_dir)
        self._keys = arrays["keys"]
        self._freqs = _narrowed(arrays["freqs"])
        self._probes = int(arrays["probes"][0])
        self._total = int(arrays["total"][0])
        self._log_total = math.log(self._total)
        self._base = UserWords(frozenset(), np.zeros(0, np.uint64), np.zeros(0, np.int64),
                               arrays["longest"], int(arrays["max_word"][0]))
        self._user = self._base

    @property
    def total(self) -> int:
        """The sum of the dictionary's word frequencies (its corpus size, for a word's share)."""
        return self._total

    @property
    def user_words(self) -> frozenset[str]:
        return self._user.words

    @property
    def max_word(self) -> int:
        return self._user.max_word

    def set_user_words(self, words: frozenset[str]) -> bool:
        """Put the person's own terms (note titles, link targets) into the dictionary.

        Like ``jieba.add_word(w)`` without a frequency: each word gets the
        frequency that makes it beat the pieces jieba's dictionary alone cuts
        it into (``jieba.suggest_freq``), so it stays one token when it stands
        between known words; ``cut_for_search`` still adds its known 2- and
        3-character parts. Replaces the previous set (one attribute swapped
        whole, so a concurrent cut sees either set, never a mix). Returns
        whether the set changed.
        """
        words = frozenset(w for w in words if _JIEBA_HAN.fullmatch(weighted(w)[0]) and len(weighted(w)[0]) > 1)
        if words == self._user.words:
            return False
        base = self._base
        given: dict[str, int] = {}
        for entry in words:  # a word may come with the frequency the library gives it
            word, freq = weighted(entry)
            given[word] = max(given.get(word, 0), freq)
        ordered = sorted(given)
        freqs = []
        for w in ordered:
            p = 1.0
            for piece in self._segment([w], search=False, user=base)[0]:
                p *= max(self._freq(piece, base), 1) / self._total
            freqs.append(max(int(p * self._total) + 1, self._freq(w, base), given[w]))
        hashes = word_hashes(ordered)
        hashes = np.where(hashes == 0, np.uint64(1), hashes)
        order = np.argsort(hashes)
        longest = base.longest.copy()
        for w in ordered:
            c = ord(w[0])
            if c < len(longest):
                longest[c] = max(int(longest[c]), min(len(w), 255))
        self._user = UserWords(words, hashes[order], np.asarray(freqs, np.int64)[order], longest,
                               max([base.max_word, *map(len, ordered)]))
        return True

    def _freq_matrix(self, text: str, user: UserWords) -> np.ndarray:
        """``freq[k, L-1]``: dictionary frequency of ``text[k:k+L]`` (0 when unknown)."""
        codes = np.fromiter(map(ord, text), dtype=np.uint64, count=len(text))
        table = user.longest
        idx = np.minimum(codes, len(table) - 1).astype(np.int64)
        longest = np.where(codes < len(table), table[idx], 0)
        width = max(1, min(user.max_word, len(text), int(longest.max(initial=0))))
        hashes = substring_hashes(codes, width)
        # Only substrings no longer than the longest word of their first character.
        wanted = np.arange(1, width + 1) <= longest[:, None]
        freq = np.zeros(hashes.shape, dtype=np.int64)
        keys = hashes[wanted]
        found = self._lookup(keys)
        if len(user.hashes):  # the person's words win over the dictionary's frequency
            keys = np.where(keys == 0, np.uint64(1), keys)
            pos = np.minimum(np.searchsorted(user.hashes, keys), len(user.hashes) - 1)
            mine = user.hashes[pos] == keys
            found[mine] = user.freqs[pos[mine]]
        freq[wanted] = found
        return freq

    def _lookup(self, keys: np.ndarray) -> np.ndarray:
        keys = np.where(keys == 0, np.uint64(1), keys)
        mask = np.uint64(len(self._keys) - 1)
        slot = (keys & mask).astype(np.int64)
        out = np.zeros(len(keys), dtype=np.int64)
        todo = np.arange(len(keys))
        for _ in range(self._probes):
            s = slot[todo]
            found = self._keys[s]
            hit = found == keys[todo]
            out[todo[hit]] = self._freqs[s[hit]]
            todo = todo[~hit & (found != 0)]  # an empty slot ends the probe: not a word
            if not len(todo):
                break
            slot[todo] = (slot[todo] + 1) & int(mask)
        return out

    def freq(self, word: str) -> int:
        """Dictionary frequency of ``word`` (0 when unknown), like ``jieba.FREQ.get``."""
        return self._freq(word, self._user)

    def base_freq(self, word: str) -> int:
        """Frequency in jieba's dictionary alone, without the person's words."""
        return self._freq(word, self._base)

    def _freq(self, word: str, user: UserWords) -> int:
        if not word or len(word) > user.max_word:
            return 0
        freq = self._freq_matrix(word, user)
        # The matrix is as wide as the longest word any of its characters starts: a longer
        # ``word`` is no word (作业系统笔记: six characters, none starts a word of six).
        return int(freq[0, len(word) - 1]) if len(word) <= freq.shape[1] else 0

    def cut_base_many(self, runs: list[str]) -> list[list[str]]:
        """:meth:`cut_many` with jieba's dictionary alone (no user words)."""
        return self._segment(runs, search=False, user=self._base)

    def cut_for_search_many(self, runs: list[str]) -> list[list[str]]:
        """``list(jieba.cut_for_search(run))`` for each run, with one lookup for all of them."""
        return self._segment(runs, search=True)

    def cut_many(self, runs: list[str]) -> list[list[str]]:
        """``list(jieba.cut(run))`` (precise mode, whole words only) for each run."""
        return self._segment(runs, search=False)

    def _segment(self, runs: list[str], *, search: bool,
                 user: UserWords | None = None) -> list[list[str]]:
        blocks: list[tuple[int, int, bool]] = []  # (start, end, is_jieba_han) in ``text``
        pieces: list[str] = []
        per_run: list[tuple[int, int]] = []
        pos = 0
        for run in runs:
            first = len(blocks)
            for block in _JIEBA_HAN.split(run):
                if block:
                    blocks.append((pos, pos + len(block), bool(_JIEBA_HAN.match(block))))
                    pieces.append(block)
                    pos += len(block) + 1
                    pieces.append("\x00")  # no word spans a block boundary
            per_run.append((first, len(blocks)))
        if not blocks:
            return [[] for _ in runs]
        text = "".join(pieces)
        freq = self._freq_matrix(text, user or self._user)
        words = self._words(text, freq, blocks, search)
        out: list[list[str]] = []
        for first, last in per_run:
            tokens: list[str] = []
            for b in range(first, last):
                tokens.extend(words[b])
            out.append(tokens)
        return out

    def _words(self, text: str, freq: np.ndarray, blocks: list[tuple[int, int, bool]],
               search: bool) -> list[list[str]]:
        from jieba import finalseg

        ks, ls = np.nonzero(freq)  # sorted by start position
        lens = (ls + 1).tolist()
        logp = (np.log(freq[ks, ls].astype(np.float64)) - self._log_total).tolist()
        first_edge = np.searchsorted(ks, np.arange(len(text) + 1)).tolist()
        width = freq.shape[1]
        gram2 = freq[:, 1].tolist() if width > 1 else [0] * len(text)
        gram3 = freq[:, 2].tolist() if width > 2 else [0] * len(text)
        unknown = -self._log_total  # log(1) - log(total): jieba's score for an unknown char
        best = [0.0] * (len(text) + 1)
        step = [1] * len(text)
        out: list[list[str]] = []
        for a, b, han in blocks:
            if not han:
                out.append(list(text[a:b]))  # other ideographs: one token each, like jieba
                continue
            best[b] = 0.0
            for k in range(b - 1, a - 1, -1):
                i0, i1 = first_edge[k], first_edge[k + 1]
                if i0 == i1:
                    best[k] = unknown + best[k + 1]
                    step[k] = 1
                    continue
                top_score, top_end = -math.inf, k
                for i in range(i0, i1):
                    end = k + lens[i]
                    score = logp[i] + best[end]
                    if score > top_score or (score == top_score and end - 1 > top_end):
                        top_score, top_end = score, end - 1
                best[k] = top_score
                step[k] = top_end + 1 - k
            words: list[str] = []
            x = a
            buf = -1
            while x < b:
                y = x + step[x]
                if y - x == 1:
                    if buf < 0:
                        buf = x
                else:
                    if buf >= 0:
                        self._flush(text, buf, x, freq, finalseg, words)
                        buf = -1
                    words.append(text[x:y])
                x = y
            if buf >= 0:
                self._flush(text, buf, b, freq, finalseg, words)
            out.append(self._for_search(words, a, gram2, gram3) if search else words)
        return out

    @staticmethod
    def _flush(text: str, a: int, b: int, freq: np.ndarray, finalseg: object,
               out: list[str]) -> None:
        """A run of single characters: jieba's HMM unless the run is itself a word."""
        if b - a == 1:
            out.append(text[a])
        elif b - a <= freq.shape[1] and freq[a, b - a - 1]:
            out.extend(text[a:b])
        else:
            out.extend(finalseg.cut(text[a:b]))  # type: ignore[attr-defined]

    @staticmethod
    def _for_search(words: list[str], start: int, gram2: list[int], gram3: list[int]) -> list[str]:
        out: list[str] = []
        pos = start
        for w in words:
            n = len(w)
            if n > 2:
                out.extend(w[i:i + 2] for i in range(n - 1) if gram2[pos + i])
            if n > 3:
                out.extend(w[i:i + 3] for i in range(n - 2) if gram3[pos + i])
            out.append(w)
            pos += n
        return out
