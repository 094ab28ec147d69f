"""A library process driven over stdin/stdout, for the multi-process tests.

One JSON request per line in, one JSON answer per line out. ``role`` "app"
behaves like the app (opens the library once, keeps it open, saves notes);
"cli" like a long script. The answer to a write is sent only after the
write committed, so the test knows which writes must survive a kill -9.
"""

from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path

from desktop_kb.library import Library


def main() -> None:
    data_dir, role = Path(sys.argv[1]), sys.argv[2]
    lib = Library(data_dir, role=role, load_model=False)
    print(json.dumps({"ready": True, "owner": lib.worker.is_owner}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        op = request["op"]
        try:
            answer: dict[str, object] = {"ok": True}
            if op == "add":
                answer["id"] = lib.add_note(request["title"], request["body"])
            elif op == "save":
                lib.save_note(request["id"], body=request["body"])
            elif op == "trash":
                lib.trash_note(request["id"])
            elif op == "delete":
                lib.delete_note(request["id"])
            elif op == "import":
                summary = lib.import_paths([Path(request["path"])])
                answer["summary"] = summary.as_json()
            elif op == "rebuild":
                answer["sources"] = lib.rebuild().sources
            elif op == "drain":
                answer["drained"] = lib.drain(timeout=request.get("timeout", 60))
            elif op == "status":
                answer["status"] = lib.index_status().as_json()
                answer["owner"] = lib.worker.is_owner
            elif op == "search":
                answer["hits"] = [[r.source_type, r.source_id]
                                  for r in lib.search(request["query"], mode="lexical").results]
            elif op == "quit":
                lib.close()
                print(json.dumps(answer), flush=True)
                return
            else:
                raise ValueError(f"unknown op {op}")
        except Exception as exc:  # noqa: BLE001 - reported to the test
            answer = {"ok": False, "error": f"{type(exc).__name__}: {exc}",
                      "trace": traceback.format_exc()}
        print(json.dumps(answer, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    main()
