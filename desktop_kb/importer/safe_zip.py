"""Reading members of zip-based documents (DOCX, EPUB) without being zip-bombed.

A 40 KB file can claim — or, worse, really hold — gigabytes once inflated.
Declared sizes are checked first (total, per member, compression ratio,
member count), then every read is capped anyway, because a crafted archive
can lie about its sizes.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from desktop_kb.importer.model import UnreadableFile

__all__ = ["MAX_MEMBERS", "MAX_MEMBER_BYTES", "MAX_RATIO", "MAX_TOTAL_BYTES", "SafeZip"]

MAX_MEMBERS = 10_000
MAX_MEMBER_BYTES = 64 * 1024 * 1024
MAX_TOTAL_BYTES = 512 * 1024 * 1024
MAX_RATIO = 200  # inflated / compressed, for members over 1 MB
_RATIO_FLOOR = 1024 * 1024


class SafeZip:
    def __init__(self, path: Path, kind: str) -> None:
        self.kind = kind
        try:
            self._zip = zipfile.ZipFile(path)
        except zipfile.BadZipFile:
            raise UnreadableFile(f"not a valid {kind} file (the zip container is damaged)") from None
        except OSError as exc:
            raise UnreadableFile(f"the file cannot be read ({exc.strerror or exc})") from None
        infos = self._zip.infolist()
        if len(infos) > MAX_MEMBERS:
            self.close()
            raise UnreadableFile(f"{kind} has {len(infos)} parts; refusing more than {MAX_MEMBERS}")
        total = 0
        for info in infos:
            total += info.file_size
            if info.file_size > MAX_MEMBER_BYTES or total > MAX_TOTAL_BYTES or (
                    info.file_size > _RATIO_FLOOR
                    and info.file_size > MAX_RATIO * max(info.compress_size, 1)):
                self.close()
                raise UnreadableFile(
                    f"{kind} would inflate to more than is safe to read (a zip bomb?); not imported")
        self._names = {info.filename for info in infos}

    def names(self) -> set[str]:
        return self._names

    def read(self, name: str, limit: int = MAX_MEMBER_BYTES) -> bytes:
        """A member's bytes, never more than ``limit`` however the archive lies."""
        try:
            with self._zip.open(name) as fh:
                data = fh.read(limit + 1)
        except KeyError:
            raise UnreadableFile(f"{self.kind} is missing its part {name!r}") from None
        except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError) as exc:
            raise UnreadableFile(f"{self.kind} part {name!r} is damaged ({exc})") from None
        if len(data) > limit:
            raise UnreadableFile(f"{self.kind} part {name!r} inflates past {limit // 2**20} MB; not imported")
        return data

    def close(self) -> None:
        self._zip.close()

    def __enter__(self) -> SafeZip:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()
