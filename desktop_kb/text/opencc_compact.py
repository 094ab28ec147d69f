"""OpenCC's ``s2twp`` converter from merged dictionaries: the same output in a third of the memory.

``s2twp.json`` (mainland → Taiwan words, for ``retrieval/regional_words.py``) names the
union of two phrase tables (``STPhrases`` and the phrases generated from the regional
tables) twice, as its segmentation's dictionary and inside its first conversion step, a
``short_circuit`` group of that union and ``STCharacters``. OpenCC builds each group as
a merged lexicon in memory: 43 MB resident for that one converter, where the same
entries as two plain ``.ocd2`` files take 12 MB. So the tables are merged once, with
OpenCC's own ``opencc_dict`` tool, into

* ``phrases.ocd2``: the union (a key in both tables must carry the same values), for the
  segmentation, and
* ``all.ocd2``: the union plus every single-character entry of ``STCharacters`` that the
  union lacks, for the first step. A ``short_circuit`` group answers a prefix match from
  its first dictionary whenever that has one; the characters' keys are one character
  long, so the longest match of the merged table is the same entry.

The segmentation keeps the phrases alone: a character table there would cut runs of
unmatched characters into single characters, and the Taiwan step matches whole segments.
Anything unexpected (another layout of the configuration, no ``opencc_dict``, keys that
disagree, a failed build) leaves OpenCC's own configuration in use. The files are derived
data in the per-user cache folder, keyed by OpenCC's version and its files.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

_FORMAT = "opencc-compact-1"
#: The configurations rewritten (the others are small already: t2s 2.6 MB, tw2sp 3.9 MB).
COMPACTED = frozenset({"s2twp.json"})


def _share_dir() -> Path | None:
    import opencc

    folder = Path(opencc.__file__).parent / "clib" / "share" / "opencc"
    return folder if folder.is_dir() else None


def _dict_tool() -> Path | None:
    import opencc

    name = "opencc_dict.exe" if sys.platform == "win32" else "opencc_dict"
    tool = Path(opencc.__file__).parent / "clib" / "bin" / name
    return tool if tool.is_file() else None


def _ocd2(node: Any) -> str | None:
    """The file of a plain ``.ocd2`` dictionary node (None: anything else)."""
    if isinstance(node, dict) and node.get("type") == "ocd2" and isinstance(node.get("file"), str):
        return str(node["file"])
    return None


def _layout(config: dict[str, Any]) -> tuple[list[str], str] | None:
    """(the union's files, the characters' file) when ``config`` has the layout merged here."""
    seg = config.get("segmentation")
    chain = config.get("conversion_chain")
    if not isinstance(seg, dict) or seg.get("type") != "mmseg" or not isinstance(chain, list) or not chain:
        return None
    union = seg.get("dict")
    if not isinstance(union, dict) or union.get("type") != "group" or union.get("match_policy") != "union":
        return None
    files = [_ocd2(d) for d in union.get("dicts", [])]
    first = chain[0].get("dict") if isinstance(chain[0], dict) else None
    if (not files or None in files or not isinstance(first, dict) or first.get("type") != "group"
            or first.get("match_policy") != "short_circuit" or len(first.get("dicts", [])) != 2
            or first["dicts"][0] != union):
        return None
    chars = _ocd2(first["dicts"][1])
    return (None if chars is None else ([f for f in files if f is not None], chars))


def _absolute(node: Any, share: Path) -> Any:
    """``node`` with every dictionary file named by its absolute path (the config moves)."""
    if isinstance(node, dict):
        out = {k: _absolute(v, share) for k, v in node.items()}
        if isinstance(out.get("file"), str) and not Path(out["file"]).is_absolute():
            out["file"] = str(share / out["file"])
        return out
    if isinstance(node, list):
        return [_absolute(v, share) for v in node]
    return node


def _read_entries(tool: Path, ocd2: Path, work: Path) -> dict[str, str]:
    text = work / (ocd2.stem + ".txt")
    subprocess.run([str(tool), "-i", str(ocd2), "-o", str(text), "-f", "ocd2", "-t", "text"],
                   check=True, capture_output=True, timeout=120)
    entries: dict[str, str] = {}
    with text.open(encoding="utf-8") as fh:
        for line in fh:
            key, sep, values = line.rstrip("\n").partition("\t")
            if not sep or not key or key in entries:
                raise ValueError(f"unexpected line in {ocd2.name}: {line!r}")
            entries[key] = values
    return entries


def _write_ocd2(tool: Path, entries: dict[str, str], out: Path) -> None:
    text = out.with_suffix(".txt")
    with text.open("w", encoding="utf-8", newline="\n") as fh:
        for key in sorted(entries):
            fh.write(f"{key}\t{entries[key]}\n")
    subprocess.run([str(tool), "-i", str(text), "-o", str(out), "-f", "text", "-t", "ocd2"],
                   check=True, capture_output=True, timeout=120)
    text.unlink()


def _merged(tool: Path, union: list[Path], chars: Path, work: Path) -> tuple[dict[str, str], dict[str, str]] | None:
    phrases: dict[str, str] = {}
    for path in union:
        for key, values in _read_entries(tool, path, work).items():
            if phrases.setdefault(key, values) != values:
                return None  # the union would answer by its order: not merged here
    everything = dict(phrases)
    for key, values in _read_entries(tool, chars, work).items():
        if len(key) != 1:
            return None  # a longer key could out-match a phrase: not the short_circuit answer
        everything.setdefault(key, values)
    return phrases, everything


def compact_config(config: str, cache_dir: Path) -> Path | None:
    """The merged configuration equivalent to OpenCC's ``config`` (None: use OpenCC's own)."""
    if config not in COMPACTED:
        return None
    try:
        share, tool = _share_dir(), _dict_tool()
        if share is None or tool is None or not (share / config).is_file():
            return None
        source = (share / config).read_text(encoding="utf-8")
        layout = _layout(json.loads(source))
        if layout is None:
            return None
        files = [share / f for f in layout[0]] + [share / layout[1]]
        import opencc

        stamp = "|".join([_FORMAT, str(opencc.__version__), source]
                         + [f"{f.name}:{f.stat().st_size}:{f.stat().st_mtime_ns}" for f in files])
        key = hashlib.blake2b(stamp.encode(), digest_size=8).hexdigest()
        folder = cache_dir / f"opencc-{Path(config).stem}-{key}"
        made = folder / "config.json"
        if made.is_file():
            return made
        cache_dir.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(dir=cache_dir, prefix=".opencc-"))
        try:
            merged = _merged(tool, files[:-1], files[-1], work)
            if merged is None:
                return None
            _write_ocd2(tool, merged[0], work / "phrases.ocd2")
            _write_ocd2(tool, merged[1], work / "all.ocd2")
            for leftover in work.glob("*.txt"):
                leftover.unlink()
            doc = _absolute(json.loads(source), share)
            doc["segmentation"]["dict"] = {"type": "ocd2", "file": str(folder / "phrases.ocd2")}
            doc["conversion_chain"][0]["dict"] = {"type": "ocd2", "file": str(folder / "all.ocd2")}
            (work / "config.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1),
                                              encoding="utf-8")
            try:
                os.replace(work, folder)
            except OSError:
                if not made.is_file():  # another process made it first: theirs is the same
                    raise
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return made
    except (OSError, ValueError, KeyError, TypeError, subprocess.SubprocessError) as exc:
        log.info("OpenCC's %s is used as shipped (merged tables not built: %s)", config, exc)
        return None
