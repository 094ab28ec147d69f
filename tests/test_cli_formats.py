"""The CLI with study material: import reasons and overrides, OCR commands, eval --corpus, pages."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from doc_fixtures import write_docx, write_image_pdf, write_pdf


def run(data_dir: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "-m", "desktop_kb", "--data-dir", str(data_dir), *args],
                          capture_output=True, text=True, timeout=300)
    assert "Traceback" not in proc.stderr, proc.stderr
    if ok:
        assert proc.returncode == 0, proc.stderr
    return proc


def js(data_dir: Path, *args: str) -> dict:
    return json.loads(run(data_dir, *args, "--json").stdout)


def test_import_reasons_override_and_pages(qapp: object, data_dir: Path, tmp_path: Path) -> None:
    root = tmp_path / "book"
    root.mkdir()
    write_pdf(root / "ch1.pdf", [["Vectors can be added and scaled."], ["Matrices act on vectors."]])
    write_image_pdf(root / "scan.pdf", ["扫描"])
    (root / "Dockerfile").write_text("FROM alpine\n", encoding="utf-8")
    (root / "yarn.lock").write_text("# yarn lockfile v1\n", encoding="utf-8")
    (root / "deck.pptx").write_bytes(b"PK")
    summary = js(data_dir, "import", str(root))
    assert summary["per_format"] == {"dockerfile": 1, "pdf": 1}
    reasons = {Path(s["path"]).name: s["reason"] for s in summary["skipped"]}
    assert reasons["deck.pptx"] == "`.pptx` is not supported yet (PowerPoint)"
    assert reasons["yarn.lock"].startswith("lockfile")
    assert reasons["scan.pdf"].startswith("no text layer")
    text = run(data_dir, "import", str(root)).stdout
    assert "skipped" in text and "not supported yet" in text
    again = js(data_dir, "import", str(root), "--include-generated")
    assert again["added"] == 1  # the lockfile, as text
    hit = js(data_dir, "search", "matrices act")["results"][0]
    assert hit["page"] == 2 and hit["title"].endswith("· p. 2") and hit["path"].endswith("ch1.pdf")


def test_ocr_commands_without_an_install(data_dir: Path, tmp_path: Path) -> None:
    status = js(data_dir, "ocr", "status")
    assert status == {"installed": False, "detail": "not installed", "waiting_documents": 0,
                      "waiting_pages": 0}
    proc = run(data_dir, "ocr", "run", ok=False)
    assert proc.returncode == 1 and "not installed" in proc.stderr
    proc = run(data_dir, "ocr", "install", "--from", str(tmp_path), ok=False)
    assert proc.returncode == 1 and "rapidocr_onnxruntime" in proc.stderr


def test_eval_corpus(tmp_path: Path, data_dir: Path) -> None:
    passages = ["光合作用释放氧气。植物用光能把二氧化碳和水变成有机物。",
                "The Yangtze is the longest river in Asia."]
    questions = [("光合作用释放什么？", 0), ("What is the longest river in Asia?", 1)]
    squad = {"data": [{"title": "t", "paragraphs": [
        {"context": p, "qas": [{"id": str(i), "question": q, "answers": [{"text": p[:2]}]}
                               for i, (q, g) in enumerate(questions) if g == n]}
        for n, p in enumerate(passages)]}]}
    path = tmp_path / "set.json"
    path.write_text(json.dumps(squad, ensure_ascii=False), encoding="utf-8")
    doc = write_docx(tmp_path / "c.docx", [("h1", "A"), ("p", passages[0]), ("h1", "B"), ("p", passages[1])])
    result = js(data_dir, "eval", str(path), "--corpus", str(doc), "--model", "none")
    assert result["lexical"]["r1"] == 1.0 and result["corpus"]["documents"] == 1
