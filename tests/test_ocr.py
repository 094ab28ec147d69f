"""OCR: installed on demand from wheels (the real RapidOCR, models inside its wheel), scanned
pages recognised after the text pages, installs that fail leave nothing half-done."""

from __future__ import annotations

import json
import shutil
import sys
import zipfile
from pathlib import Path

import pytest
from doc_fixtures import write_image_pdf, write_pdf

from desktop_kb.importer.ocr import boxes_to_lines
from desktop_kb.importer.ocr_install import OCR_REQUIREMENTS, OcrInstallError, OcrManager


def test_boxes_become_lines_in_reading_order() -> None:
    boxes = [
        ([[300, 100], [500, 100], [500, 130], [300, 130]], "world", 0.9),
        ([[50, 98], [250, 98], [250, 131], [50, 131]], "hello", 0.95),
        ([[50, 200], [400, 200], [400, 232], [50, 232]], "第二行文字", 0.99),
        ([[50, 300], [400, 300], [400, 330], [50, 330]], "noise", 0.2),
    ]
    lines = boxes_to_lines(boxes, page_height=842.0, scale=2.0)
    assert [ln.text for ln in lines] == ["hello world", "第二行文字"]
    assert lines[0].top > lines[1].top  # PDF units: y grows upwards
    assert lines[0].top == pytest.approx(842.0 - 98 / 2)


def fake_wheel(folder: Path, name: str, files: dict[str, bytes]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    with zipfile.ZipFile(path, "w") as z:
        for member, data in files.items():
            z.writestr(member, data)
    return path


def test_install_refuses_wrong_wheels_and_leaves_nothing(tmp_path: Path) -> None:
    manager = OcrManager(tmp_path / "data")
    with pytest.raises(OcrInstallError, match="no rapidocr_onnxruntime wheel"):
        manager.install(from_path=tmp_path)
    wheels = tmp_path / "wheels"
    fake_wheel(wheels, "rapidocr_onnxruntime-1.4.4-py3-none-any.whl", {"rapidocr_onnxruntime/__init__.py": b""})
    with pytest.raises(OcrInstallError, match="expected sha256"):
        manager.install(from_path=wheels)
    assert not manager.installed
    assert not (tmp_path / "data" / "ocr").exists()
    data = tmp_path / "data"
    assert not data.exists() or not any(p.name.startswith(".install-") for p in data.iterdir())
    with pytest.raises(OcrInstallError, match="not installed"):
        manager.load_engine()


@pytest.fixture(scope="session")
def ocr_wheels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real wheels, fetched once per machine with pip (the way `ocr install` fetches them)
    into a cache beside the venv, so repeated test runs do not download 85 MB again."""
    cache = Path(sys.prefix) / "desktop-kb-test-cache" / "ocr-wheels"
    if not (cache / ".complete").exists():
        import subprocess

        cache.mkdir(parents=True, exist_ok=True)
        result = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-q",
             "-d", str(cache), *OCR_REQUIREMENTS], capture_output=True, text=True, timeout=1800)
        if result.returncode != 0:
            pytest.skip(f"cannot download the OCR wheels here: {result.stderr.strip()[-300:]}")
        (cache / ".complete").write_text("ok")
    return cache


@pytest.fixture(scope="session")
def ocr_data(tmp_path_factory: pytest.TempPathFactory, ocr_wheels: Path) -> Path:
    data = tmp_path_factory.mktemp("ocr-data")
    status = OcrManager(data).install(from_path=ocr_wheels)
    assert status.installed and "wheels from" in status.detail
    return data


@pytest.mark.slow
def test_installed_ocr_reads_a_scanned_page(qapp: object, ocr_data: Path, tmp_path: Path) -> None:
    manifest = json.loads((ocr_data / "ocr" / "manifest.json").read_text())
    assert manifest["engine"] == "rapidocr-onnxruntime==1.4.4"
    from desktop_kb.importer.pdf import read_pdf

    engine = OcrManager(ocr_data).load_engine()
    path = write_image_pdf(tmp_path / "scan.pdf", ["线性代数讲义", "Linear algebra notes"])
    result = read_pdf(path, "scan", ocr=engine)  # type: ignore[arg-type]
    assert result.ocr_pages == ()
    assert "线性代数" in result.doc_text
    assert "algebra" in result.doc_text.lower()
    assert [f.page for f in result.fragments] == [1]


@pytest.mark.slow
def test_library_recognises_scans_after_text_pages(qapp: object, ocr_data: Path, tmp_path: Path) -> None:
    from pypdf import PdfReader, PdfWriter

    from desktop_kb.library import Library

    text = write_pdf(tmp_path / "t.pdf", [["Eigenvalues are roots of the characteristic polynomial."]])
    scan = write_image_pdf(tmp_path / "s.pdf", ["特征值与特征向量"])
    writer = PdfWriter()
    for part in (text, scan):
        for page in PdfReader(str(part)).pages:
            writer.add_page(page)
    mixed = tmp_path / "mixed.pdf"
    with open(mixed, "wb") as fh:
        writer.write(fh)
    data = tmp_path / "lib"
    shutil.copytree(ocr_data / "ocr", data / "ocr")  # OCR installed in this library's data dir
    with Library(data) as lib:
        summary = lib.import_paths([mixed])
        lib.drain()
        (doc,) = lib.list_documents()
        assert summary.ocr_documents == [doc.id] and doc.ocr_pending == 1
        first = {f.id: f.text for f in lib.list_fragments(doc.id)}
        assert lib.search("characteristic polynomial", mode="lexical").results  # text first
        assert not lib.search("特征向量", mode="lexical").results
        assert lib.recognise_scans() == 1
        lib.drain()
        after = lib.list_fragments(doc.id)
        assert lib.documents_waiting_for_ocr() == []
        assert any(f.page == 2 and "特征" in f.text for f in after)
        assert all(fid in {f.id for f in after} for fid in first), "text pages kept their ids"
        hit = lib.search("特征向量", mode="lexical").results[0]
        assert hit.document_id == doc.id


def test_an_ocr_install_into_a_library_on_a_read_only_disk_says_what_to_do(
        tmp_path: Path, ocr_wheels: Path) -> None:
    """A library on a CD: 'desktop-kb ocr install' and Settings → Text recognition said
    '[Errno 30] Read-only file system: …/.install-ocr-…'."""
    from mounts import remount, tmpfs

    with tmpfs(tmp_path / "disk", 1024) as disk:
        (disk / "data").mkdir()
        remount(disk, read_only=True)
        try:
            with pytest.raises(OcrInstallError) as failed:
                OcrManager(disk / "data").install(from_path=ocr_wheels)
        finally:
            remount(disk, read_only=False)
    said = str(failed.value)
    assert "Errno" not in said and said.startswith("The library's folder cannot be written"), said
