"""Finding importable files and reading them as text, with reasons a person can act on.

Folder walks skip hidden entries (``.git/``, ``.obsidian/``, ``.env``) without
listing them, because nobody wants a VCS database or editor state in their
library; they are still yielded as quiet ``Skipped`` items so a summary can say
"N hidden items skipped".  Generated and vendored files (lockfiles, minified
code, ``node_modules/``, whatever a ``.gitignore`` in the tree excludes) are
skipped with their reason unless the person asks for them.  Formats we cannot
read are named ("`.pptx` is not supported yet"), never lumped with formats the
person did not select.  Reading refuses binary and undecodable files with a
message rather than importing mojibake.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from desktop_kb.importer.formats import (
    DEFAULT_FORMATS,
    expand_formats,
    format_of,
    unsupported_reason,
)
from desktop_kb.importer.generated import generated_by_name, vendored_folder
from desktop_kb.importer.gitignore import IgnoreRules
from desktop_kb.importer.model import UnreadableFile
from desktop_kb.text.han import is_han
from desktop_kb.text.sizes import human_size

# Skip reasons (stable strings: callers group and count by them).
HIDDEN = "hidden"
NOT_SELECTED = "format not selected"
NOT_FOUND = "not found"
PERMISSION_DENIED = "permission denied"
NOT_A_FILE = "not a regular file"
ALREADY_VISITED = "folder already visited (linked folder)"
NOT_SUPPORTED = "format not supported"
GITIGNORED = "excluded by .gitignore"
#: The library's own data folder inside a folder being imported (a home or Documents folder
#: holding it): its recovered text, index error notes and models' JSON were imported as study
#: material — text kept for a local-only note among them, no longer local-only.
OWN_LIBRARY_FOLDER = "Desktop KB's own library folder"
# Unsupported formats that are documents a person might expect us to read: listed one
# by one. Images, media, archives and the like in a folder are only counted.
_DOCUMENT_LIKE = frozenset({"doc", "ppt", "pptx", "xls", "xlsx", "odt", "odp", "ods", "rtf",
                            "mobi", "azw", "azw3", "djvu", "chm", "pages", "key", "numbers",
                            "ipynb", "tex"})
BAD_NAME = "the name is not valid UTF-8 text (rename it to import it)"
# "~$report.docx": Word's and Excel's owner file for a document open elsewhere (synced along
# by Dropbox and OneDrive); it was reported as a damaged Word document.
OFFICE_OWNER_FILE = "owner file of a document open in Office"

# Copies a sync client makes when two computers changed a file: Dropbox and Nextcloud
# "note (conflicted copy 2026-12-06).md", "note (Ann's conflicted copy 2026-12-06 101010).md";
# Syncthing "note.sync-conflict-20261206-101010-ABCDEFG.md".
_CONFLICT_COPY = re.compile(
    r"^(?P<stem>.+?) \((?:[^()]*['’]s )?conflicted copy[^()]*(?:\(\d+\))?\)(?P<ext>\.[^.]+)?$"
    r"|^(?P<stem2>.+?)\.sync-conflict-\d{8}-\d{6}-[A-Z0-9]{7}(?P<ext2>\.[^.]+)?$")


def conflict_copy_of(name: str) -> str | None:
    """The file name a sync client's conflicted copy was made of (None: not such a copy)."""
    match = _CONFLICT_COPY.match(name)
    if match is None:
        return None
    stem = match.group("stem") or match.group("stem2")
    return stem + (match.group("ext") or match.group("ext2") or "")


def conflicted_copies(path: Path) -> list[Path]:
    """The sync clients' conflicted copies of ``path`` beside it, sorted by name."""
    try:
        names = sorted(os.listdir(path.parent))
    except OSError:
        return []
    return [path.parent / n for n in names if conflict_copy_of(n) == path.name]


def display_path(path: Path | str) -> str:
    """A path as text that can always be printed and stored: bytes that are not
    UTF-8 (names from another system's encoding) are shown as escapes."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def _bad_name(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # undecodable bytes arrive as lone surrogates
        return True
    return False


@dataclass(frozen=True)
class Candidate:
    path: Path
    fmt: str  # canonical format name (formats.ALL_FORMATS)


@dataclass(frozen=True)
class Skipped:
    """A path that will not be imported.

    ``quiet`` items (hidden entries, other file types found inside a folder)
    are meant to be counted, not listed one by one in a summary.
    """

    path: Path
    reason: str
    quiet: bool = False


def _unsupported(path: Path, in_folder: bool) -> Skipped:
    reason = unsupported_reason(path)
    if reason is None:
        ext = path.suffix.lower()
        reason = f"`{ext}` files are not supported" if ext else NOT_SUPPORTED
        return Skipped(path, reason if not in_folder else NOT_SUPPORTED, quiet=in_folder)
    quiet = in_folder and path.suffix.lower().lstrip(".") not in _DOCUMENT_LIKE
    return Skipped(path, reason, quiet=quiet)


def _classify(path: Path, selected: set[str], in_folder: bool,
              include_generated: bool) -> Candidate | Skipped:
    if not include_generated:
        reason = generated_by_name(path)
        if reason is not None:
            return Skipped(path, reason)
    fmt = format_of(path)
    if fmt is None:
        return _unsupported(path, in_folder)
    if fmt not in selected:
        return Skipped(path, NOT_SELECTED, quiet=in_folder)
    return Candidate(path, fmt)


def iter_candidates(
    paths: Sequence[Path], formats: Collection[str] = DEFAULT_FORMATS,
    *, include_generated: bool = False, own: Collection[Path] = (),
) -> Iterator[Candidate | Skipped]:
    """Yield importable files under ``paths`` (files or folders), in a stable order.

    Formats are matched by canonical name, so selecting "yml" also takes
    ``.yaml`` files ("code" selects every programming language).  Explicitly
    named files are never treated as hidden or ignored: the person asked for
    them.  Symlinked folders are followed once (a folder reached twice is
    skipped), so link loops terminate.
    """
    selected = expand_formats(tuple(formats))
    visited: set[tuple[int, int]] = set()
    mine: set[tuple[int, int]] = set()  # ``own``: the library's folders, never walked (its data is no study material)
    for folder in own:
        with contextlib.suppress(OSError):
            st = os.stat(folder)
            mine.add((st.st_dev, st.st_ino))
    for raw in paths:
        root = Path(raw)
        if _bad_name(str(root)):
            yield Skipped(root, BAD_NAME)
            continue
        try:
            st = os.stat(root)
        except (FileNotFoundError, NotADirectoryError):
            yield Skipped(root, NOT_FOUND)
            continue
        except PermissionError:
            yield Skipped(root, PERMISSION_DENIED)
            continue
        except OSError as exc:
            yield Skipped(root, f"cannot open ({exc.strerror or exc})")
            continue
        if stat.S_ISDIR(st.st_mode) and (st.st_dev, st.st_ino) in mine:
            yield Skipped(root, OWN_LIBRARY_FOLDER)
        elif stat.S_ISDIR(st.st_mode):
            yield from _walk(root, (st.st_dev, st.st_ino), selected, visited, include_generated, mine)
        elif stat.S_ISREG(st.st_mode):
            yield _classify(root, selected, False, include_generated)
        else:
            yield Skipped(root, NOT_A_FILE)


def _scan(folder: Path) -> list[os.DirEntry[str]] | Skipped:
    try:
        with os.scandir(folder) as it:
            return sorted(it, key=lambda e: e.name)
    except PermissionError:
        return Skipped(folder, PERMISSION_DENIED)
    except OSError as exc:
        return Skipped(folder, f"cannot open folder ({exc.strerror or exc})")


def _walk(
    root: Path, root_key: tuple[int, int], selected: set[str], visited: set[tuple[int, int]],
    include_generated: bool, mine: Collection[tuple[int, int]] = (),
) -> Iterator[Candidate | Skipped]:
    """Depth-first, name-sorted walk with an explicit stack (no recursion limit)."""
    if root_key in visited:
        yield Skipped(root, ALREADY_VISITED, quiet=True)
        return
    visited.add(root_key)
    listing = _scan(root)
    if isinstance(listing, Skipped):
        yield listing
        return
    rules = IgnoreRules()
    if not include_generated:
        rules.load(root)
    stack: list[Iterator[os.DirEntry[str]]] = [iter(listing)]
    while stack:
        entry = next(stack[-1], None)
        if entry is None:
            stack.pop()
            continue
        path = Path(entry.path)
        if entry.name.startswith("."):
            yield Skipped(path, HIDDEN, quiet=True)
            continue
        if entry.name.startswith("~$"):
            yield Skipped(path, OFFICE_OWNER_FILE, quiet=True)
            continue
        if _bad_name(entry.name):
            yield Skipped(path, BAD_NAME)  # listed by name: a folder is skipped whole
            continue
        try:
            is_dir = entry.is_dir()  # follows symlinks
            is_file = not is_dir and entry.is_file()
        except OSError:
            is_dir = is_file = False
        if not include_generated and (is_dir or is_file):
            if rules.ignored(path, is_dir):
                yield Skipped(path, GITIGNORED)
                continue
            vendored = vendored_folder(path) if is_dir else None
            if vendored is not None:
                yield Skipped(path, vendored)
                continue
        if is_dir:
            try:
                st = os.stat(entry.path)  # DirEntry.stat() lacks st_ino on Windows
            except OSError:
                yield Skipped(path, PERMISSION_DENIED)
                continue
            key = (st.st_dev, st.st_ino)
            if key in mine:
                yield Skipped(path, OWN_LIBRARY_FOLDER)
                continue
            if key in visited:
                yield Skipped(path, ALREADY_VISITED, quiet=True)
                continue
            visited.add(key)
            listing = _scan(path)
            if isinstance(listing, Skipped):
                yield listing
            else:
                if not include_generated:
                    rules.load(path)
                stack.append(iter(listing))
        elif is_file:
            yield _classify(path, selected, True, include_generated)
        else:  # broken link, socket, fifo, device
            yield Skipped(path, NOT_A_FILE, quiet=True)


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


_SNIFF = 8192
# C0/C1 control characters except tab, newline, carriage return and form feed.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]")
_MAX_CONTROL_RATIO = 0.10  # of the first 8 KB of text; ANSI-coloured logs pass


def _control_ratio(text: str) -> float:
    sample = text[:_SNIFF]
    if not sample:
        return 0.0
    return len(_CONTROL.findall(sample)) / len(sample)


def _plausible_chinese(text: str) -> bool:
    """Whether a GB18030 decode looks like real Chinese text, not lucky mojibake.

    GB18030 maps almost any byte soup to *some* characters (Latin-1 "é" + a
    letter decodes to a rare hanzi), so besides "no control characters and some
    CJK" we require most non-ASCII characters to be common GB2312 ones.
    """
    if _CONTROL.search(text):
        return False
    sample = text[:65536]
    non_ascii = [ch for ch in sample if ord(ch) > 0x7F]
    if not any(is_han(ch) for ch in non_ascii):
        return False
    common = 0
    for ch in non_ascii:
        b = ch.encode("gb18030")
        if len(b) == 2 and 0xA1 <= b[0] <= 0xF7 and 0xA1 <= b[1] <= 0xFE:
            common += 1
    return common >= 0.8 * len(non_ascii)


def _big5(data: bytes) -> str | None:
    """Big5 (Microsoft's cp950) text, if the bytes decode and read like Traditional Chinese.

    Checked after GB18030, whose plausibility test rejects Big5 (half of Big5's common
    characters have a trail byte below 0xA1, outside GB2312).  Here nine in ten
    non-ASCII characters must be Big5's punctuation or frequently-used ideographs,
    which byte soup, GBK and EUC-KR/EUC-JP text read as Big5 do not give.
    """
    try:
        text = data.decode("cp950")
    except UnicodeDecodeError:
        return None
    if _CONTROL.search(text):
        return None
    non_ascii = [ch for ch in text[:65536] if ord(ch) > 0x7F]
    if not any(is_han(ch) for ch in non_ascii):
        return None
    common = sum(1 for ch in non_ascii if _big5_common(ch))
    return text if common >= 0.9 * len(non_ascii) else None


def _big5_common(ch: str) -> bool:
    """Big5's punctuation and full-width forms (lead bytes 0xA1–0xA3) or one of its
    frequently-used ideographs (0xA4–0xC6); not its kana, Cyrillic or rare characters,
    which is what Korean or Japanese bytes misread as Big5 are full of."""
    lead = ch.encode("cp950")[0]
    if 0xA1 <= lead <= 0xA3:
        return True
    return 0xA4 <= lead <= 0xC6 and is_han(ch)


def read_text(path: Path, max_bytes: int = 20 * 1024 * 1024) -> tuple[str, str]:
    """Read a file as text; return (text, sha256 hex of the raw bytes).

    Accepts UTF-8 (with or without BOM), UTF-16/32 with a BOM, and GB18030/GBK and
    Big5 Chinese text as guarded fallbacks.  Raises UnreadableFile otherwise.
    """
    text, sha, _notes = read_text_noting(path, max_bytes)
    return text, sha


def read_text_noting(path: Path, max_bytes: int = 20 * 1024 * 1024) -> tuple[str, str, list[str]]:
    """``read_text``, with what the reading changed for the person to be told (a character cut
    off at the file's end or start, read as U+FFFD; the file itself is never changed)."""
    try:
        size = os.stat(path).st_size
        if size > max_bytes:
            raise UnreadableFile(
                f"file too large ({human_size(size)}; the limit is {human_size(max_bytes)})")
        with open(path, "rb") as fh:
            data = fh.read(max_bytes + 1)
    except UnreadableFile:
        raise
    except FileNotFoundError:
        raise UnreadableFile("file not found") from None
    except IsADirectoryError:
        raise UnreadableFile("this is a folder, not a file") from None
    except PermissionError:
        raise UnreadableFile("permission denied (the file cannot be read)") from None
    except OSError as exc:
        raise UnreadableFile(f"the file cannot be read ({exc.strerror or exc})") from None
    if len(data) > max_bytes:  # grew since stat
        raise UnreadableFile(f"file too large (over {human_size(max_bytes)})")
    notes: list[str] = []
    return _decode(data, notes), sha256_bytes(data), notes


#: Said of a UTF-8 file whose first or last character was cut in two (``head -c``, a copy
#: or download stopped part way, a tool that cut at a byte count); {0}: "ends" or "starts".
CUT_CHARACTER_REMARK = ("the file {0} inside a character (bytes {1}); imported with \ufffd in its "
                        "place, the file itself unchanged")


def _cut_utf8(data: bytes, notes: list[str]) -> str | None:
    """Text that is UTF-8 but for one character cut off at its end or start, else None.

    Such a file was skipped whole as "not UTF-8". Only the very end or start: a bad byte in
    the middle is another encoding (Latin-1's "café"), which stays refused. A lone lead byte
    at the end of pure ASCII could be Latin-1's last "é" as well, so it counts only when the
    rest already has UTF-8 characters of more than one byte."""
    head = 0
    while head < min(3, len(data)) and 0x80 <= data[head] <= 0xBF:
        head += 1  # continuation bytes: the tail of a character cut before the file began
    body = data[head:]
    tail = b""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.reason != "unexpected end of data" or exc.end != len(body):
            return None
        tail = body[exc.start:]
        text = body[:exc.start].decode("utf-8") + "\ufffd"
    if not (head or tail) or not text.strip("\ufffd"):
        return None
    multibyte = len(body) - len(tail) > len(text) - (1 if tail else 0)
    if head + len(tail) == 1 and not multibyte:
        return None
    if head:
        notes.append(CUT_CHARACTER_REMARK.format("starts", data[:head].hex(" ").upper()))
        text = "\ufffd" + text
    if tail:
        notes.append(CUT_CHARACTER_REMARK.format("ends", tail.hex(" ").upper()))
    return text


def _decode(data: bytes, notes: list[str]) -> str:
    for bom, codec in ((b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be"),
                       (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if data.startswith(bom):
            try:
                text = data[len(bom):].decode(codec)
            except UnicodeDecodeError:
                name = codec[:6].upper()
                raise UnreadableFile(f"not valid {name} text (it starts like {name} but "
                                     "contains invalid data)") from None
            if "\x00" in text or _control_ratio(text) > _MAX_CONTROL_RATIO:
                raise UnreadableFile("binary file (contains control characters)")
            return text
    if b"\x00" in data:
        raise UnreadableFile("binary file (contains NUL bytes)")
    shift = 3 if data.startswith(b"\xef\xbb\xbf") else 0  # utf-8-sig, offsets kept absolute
    try:
        text = data[shift:].decode("utf-8")
    except UnicodeDecodeError as exc:
        cut = _cut_utf8(data[shift:], notes)
        if cut is not None:
            return _text_only(cut)
        if not shift:
            try:
                fallback: str | None = data.decode("gb18030")
            except UnicodeDecodeError:
                fallback = None
            if fallback is not None and _plausible_chinese(fallback):
                return fallback
            traditional = _big5(data)  # Taiwan and Hong Kong texts (Big5 / cp950)
            if traditional is not None:
                return traditional
        offset = exc.start + shift
        raise UnreadableFile(
            f"not UTF-8 text (invalid byte 0x{data[offset]:02X} at offset {offset})") from None
    return _text_only(text)


def _text_only(text: str) -> str:
    if _control_ratio(text) > _MAX_CONTROL_RATIO:
        raise UnreadableFile("binary file (contains many control characters)")
    return text


__all__ = [
    "Candidate", "Skipped", "UnreadableFile", "iter_candidates", "read_text", "read_text_noting",
    "sha256_bytes",
    "human_size", "HIDDEN", "NOT_SELECTED", "NOT_FOUND", "PERMISSION_DENIED", "NOT_A_FILE",
    "ALREADY_VISITED", "NOT_SUPPORTED", "GITIGNORED", "OFFICE_OWNER_FILE", "conflict_copy_of",
]
