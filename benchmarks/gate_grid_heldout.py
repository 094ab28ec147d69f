"""Held-out templates for the gate's stress grid (benchmarks/gate_grid.py): the same kinds and
obfuscations, written into the same 24 containers in *other* ways.

Written after the detectors were fixed against ``gate_grid.CONTAINERS`` and measured once,
with a different seed (``bench_gate_grid.py --templates heldout --seed 777``): a value after
its label on the same line in a comment, a label in a table's row rather than its header, a
fragment of a URL, a raw HTTP request, a JSON log line, keyword arguments, ``os.Setenv``,
``set_var``, ``setProperty``, a notebook's Markdown cell, a Secret's ``stringData``, …
"""

from __future__ import annotations

import json
from collections.abc import Callable

from benchmarks.gate_grid import Item, _cap, _code_name, _q


def _far_en(item: Item) -> str:
    return f"{_cap(item.label)} is at the bottom of this note.\n\nTuesday: went through chapter 4 again.\n\n"


def _far_zh(item: Item) -> str:
    return f"{item.label}在文末。\n\n周三：把第四章又看了一遍。\n\n"


def prose_en(item: Item) -> str:
    if item.sentence:
        return f"Heads up: I changed the {item.label} to {item.value}{item.trailing} on Monday, tell the others.\n"
    if len(item.parts) > 1:
        return f"{_cap(item.label)}, first part {item.parts[0]}\nand the rest: {item.parts[1]}\n"
    if item.far:
        return _far_en(item) + f"P.S. {_q(item, '`')}{item.trailing}\n"
    if item.multiline:
        return f"Here's the {item.label} you asked for:\n{item.value}\n"
    return f"Here's the {item.label} you asked for -> {_q(item, chr(34))}{item.trailing} (don't share)\n"


def prose_zh(item: Item) -> str:
    if item.sentence:
        return f"昨天把{item.label}改成了{item.value}{item.trailing}记得通知大家。\n"
    if len(item.parts) > 1:
        return f"{item.label}太长了分两段：\n{item.parts[0]}\n{item.parts[1]}\n"
    if item.far:
        return _far_zh(item) + f"附：{_q(item, '`')}{item.trailing}\n"
    if item.multiline:
        return f"备忘，{item.label}如下\n{item.value}\n"
    return f"备忘：{item.label} -> {_q(item, '「') if item.quoted else item.value}{item.trailing}（别外传）\n".replace(
        f"「{item.value}「", f"「{item.value}」")


def md_fenced_python(item: Item) -> str:
    name = _code_name(item, "upper")
    if len(item.parts) > 1:
        return "```python\nimport os\n" + (f"# {item.label}\n" if item.lang != "en" else "") + \
            f'os.environ["{name}"] = "{item.parts[0]}" \\\n    "{item.parts[1]}"\n```\n'
    value = json.dumps(item.value, ensure_ascii=False)
    comment = f"# {item.label}\n" if item.lang != "en" or item.far else ""
    return f"```python\nimport os\n{comment}os.environ[\"{name}\"] = {value}{item.trailing}\n```\n"


def env_spaced(item: Item) -> str:
    name = _code_name(item, "upper")
    if item.multiline:
        return f'{name} = "{item.value}"\n'
    if len(item.parts) > 1:
        return f"{name} = {item.parts[0]}\\\n{item.parts[1]}\n"
    comment = f"  # {item.label}" if item.lang != "en" else ""  # the label after the value, same line
    head = f"# {item.label}: see the line after next\nAPP_ENV = prod\n" if item.far else ""
    return f"{head}{name} = {_q(item) if item.quoted else item.value}{item.trailing}{comment}\n"


def shell_prefix(item: Item) -> str:
    name = _code_name(item, "upper")
    if item.multiline:
        return f"$ {name}=\"$(cat <<'EOF'\n{item.value}\nEOF\n)\" ./deploy.sh\n"
    if len(item.parts) > 1:
        return f"$ {name}='{item.parts[0]}'\\\n'{item.parts[1]}' ./deploy.sh --prod\n"
    comment = f"# {item.label}\n" if item.lang != "en" or item.far else ""
    return f"{comment}$ {name}={_q(item, chr(39))}{item.trailing} ./deploy.sh --prod\n"


def fish_powershell(item: Item) -> str:
    name = _code_name(item, "upper")
    if len(item.parts) > 1:
        return f'PS> $env:{name} = "{item.parts[0]}" +\n  "{item.parts[1]}"\n'
    comment = f"# {item.label}\n" if item.lang != "en" or item.far else ""
    if item.multiline:
        return f'{comment}PS> $env:{name} = @"\n{item.value}\n"@\n'
    return f"{comment}> set -gx {name} {_q(item, chr(39))}{item.trailing}\nPS> $env:{name} = \"{item.value}\"\n"


def json_nested(item: Item) -> str:
    key = item.ident if item.lang == "en" else item.label
    if len(item.parts) > 1:
        return json.dumps({"db": {"credentials": {key: item.parts[0] + "\n" + item.parts[1]}}},
                          ensure_ascii=False, indent=2).replace("\\n", "\\n\" +\n  \"") + "\n"
    return json.dumps({"db": {"host": "10.0.0.5", "credentials": {"user": "app", key: item.value}}},
                      ensure_ascii=False, indent=2).replace(f'"{json.dumps(item.value, ensure_ascii=False)[1:-1]}"',
                                                            f'"{json.dumps(item.value, ensure_ascii=False)[1:-1]}"'
                                                            + item.trailing, 1) + "\n"


def yaml_list(item: Item) -> str:
    key = item.ident if item.lang == "en" else item.label
    if item.multiline:
        body = "\n".join("      " + line for line in item.value.split("\n"))
        return f"accounts:\n  - name: deploy\n    {key}: |\n{body}\n"
    if len(item.parts) > 1:
        return f"accounts:\n  - name: lab\n    {key}: \"{item.parts[0]}\\\n      {item.parts[1]}\"\n"
    far = f"  # {item.label} below\n" if item.far else ""
    return f"accounts:\n{far}  - name: lab\n    {key}: {_q(item, chr(39))}{item.trailing}\n  - name: test\n"


def toml_inline(item: Item) -> str:
    key = item.ident if item.lang == "en" else f'"{item.label}"'
    if item.multiline:
        return f"[deploy]\n{key} = '''\n{item.value}\n'''\n"
    if len(item.parts) > 1:
        return f'db = {{ user = "app", {key} = """{item.parts[0]}\\\n{item.parts[1]}""" }}\n'
    return f'db = {{ user = "app", {key} = {_q(item)}{item.trailing} }}\n'


def ini_colon(item: Item) -> str:
    key = item.ident if item.lang == "en" else item.label
    if len(item.parts) > 1:
        return f"[lab]\n{key}: {item.parts[0]}\n  {item.parts[1]}\n"
    if item.multiline:
        return f"[lab]\n{key}:\n  {item.value.replace(chr(10), chr(10) + '  ')}\n"
    return f"[lab]\nuser: app\n{key}: {item.value}{item.trailing}\n"


def xml_attribute(item: Item) -> str:
    tag = _code_name(item, "camel")
    if len(item.parts) > 1:
        return f'<db user="app"\n    {tag}="{item.parts[0]}&#10;{item.parts[1]}" />\n'
    comment = f"<!-- {item.label} -->\n" if item.lang != "en" or item.far else ""
    if item.multiline:
        return f"{comment}<key><![CDATA[\n{item.value}\n]]></key>\n"
    return f'{comment}<db user="app" {tag}="{item.value}{item.trailing}" host="10.0.0.5" />\n'


def tsv(item: Item) -> str:
    head = item.ident if item.lang == "en" else item.label
    if len(item.parts) > 1:
        return f"host\t{head}\nlab\t{item.parts[0]}\n\t{item.parts[1]}\n"
    value = item.value.replace("\n", " ")
    return f"host\t{head}\tnote\nlab\t{value}{item.trailing}\tmain\n"


def md_row_table(item: Item) -> str:
    """A two-column table: the label is in a row, not in the header."""
    label = _cap(item.label) if item.lang == "en" else item.label
    if len(item.parts) > 1:
        return f"| 字段 | 值 |\n|---|---|\n| 主机 | 10.0.0.5 |\n| {label} | {item.parts[0]} {item.parts[1]} |\n"
    value = item.value.replace("\n", "<br>")
    value = f"`{value}`" if item.quoted else value
    return f"| 字段 | 值 |\n|---|---|\n| 主机 | 10.0.0.5 |\n| {label} | {value}{item.trailing} |\n"


def url_fragment(item: Item) -> str:
    import urllib.parse
    name = item.ident if item.lang == "en" else "v"
    value = item.value if "%" in item.value else urllib.parse.quote(item.value, safe="")
    comment = f"（{item.label}）" if item.lang != "en" else ""
    return f"登录后跳转{comment}：https://app.mylab.cn/callback#{name}={value}{item.trailing}&state=xyz&expires_in=3600\n"


def raw_http(item: Item) -> str:
    header = item.ident.replace("_", "-").title() if item.lang == "en" else "X-Value"
    comment = f"# {item.label}\n" if item.lang != "en" or item.far else ""
    if len(item.parts) > 1:
        return f"{comment}GET /v1/me HTTP/1.1\nHost: api.mylab.cn\n{header}: {item.parts[0]}\n {item.parts[1]}\n"
    return f"{comment}GET /v1/me HTTP/1.1\nHost: api.mylab.cn\n{header}: {item.value}{item.trailing}\nAccept: */*\n"


def json_log(item: Item) -> str:
    key = item.ident if item.lang == "en" else item.label
    line = json.dumps({"ts": "2024-05-12T10:31:02Z", "level": "info", "msg": "login ok", key: item.value},
                      ensure_ascii=False)
    if len(item.parts) > 1:
        line = json.dumps({"ts": "2024-05-12T10:31:02Z", "msg": "login ok", key: item.parts[0]}, ensure_ascii=False)
        return line + "\n" + json.dumps({"ts": "2024-05-12T10:31:02Z", "msg": "(cont)", "rest": item.parts[1]}, ensure_ascii=False) + "\n"
    return line + item.trailing + "\n"


def python_kwargs(item: Item) -> str:
    name = _code_name(item)
    comment = f"# {item.label}\n" if item.lang != "en" or item.far else ""
    if len(item.parts) > 1:
        return f'{comment}conn = connect(host="db", {name}="{item.parts[0]}"\n                "{item.parts[1]}")\n'
    value = json.dumps(item.value, ensure_ascii=False)
    return f"{comment}conn = connect(host=\"db\", user=\"app\", {name}={value}{item.trailing})\n"


def js_headers(item: Item) -> str:
    name = _code_name(item, "camel")
    comment = f"// {item.label}\n" if item.lang != "en" or item.far else ""
    if len(item.parts) > 1:
        return f"{comment}const {name} = [\n  '{item.parts[0]}',\n  '{item.parts[1]}',\n].join('');\n"
    value = json.dumps(item.value, ensure_ascii=False)
    return f"{comment}const {name} = process.env.{name.upper()} ?? {value}{item.trailing};\n"


def go_setenv(item: Item) -> str:
    name = _code_name(item, "upper")
    comment = f"// {item.label}\n" if item.lang != "en" or item.far else ""
    if len(item.parts) > 1:
        return f'{comment}os.Setenv("{name}", "{item.parts[0]}"+\n\t"{item.parts[1]}")\n'
    value = json.dumps(item.value, ensure_ascii=False)
    return f'{comment}os.Setenv("{name}", {value}){item.trailing}\n'


def rust_set_var(item: Item) -> str:
    name = _code_name(item, "upper")
    comment = f"// {item.label}\n" if item.lang != "en" or item.far else ""
    if len(item.parts) > 1:
        return f'{comment}std::env::set_var("{name}", concat!("{item.parts[0]}",\n    "{item.parts[1]}"));\n'
    value = json.dumps(item.value, ensure_ascii=False)
    return f'{comment}std::env::set_var("{name}", {value}){item.trailing};\n'


def java_properties(item: Item) -> str:
    name = _code_name(item).replace("_", ".")
    comment = f"// {item.label}\n" if item.lang != "en" or item.far else ""
    if len(item.parts) > 1:
        return f'{comment}props.setProperty("{name}", "{item.parts[0]}"\n    + "{item.parts[1]}");\n'
    value = json.dumps(item.value, ensure_ascii=False)
    return f'{comment}props.setProperty("{name}", {value}){item.trailing};\n'


def notebook_markdown(item: Item) -> str:
    source = prose_zh(item).splitlines(keepends=True)
    return json.dumps({"cells": [{"cell_type": "markdown", "metadata": {}, "source": source}], "nbformat": 4},
                      ensure_ascii=False, indent=1) + "\n"


def compose_mapping(item: Item) -> str:
    name = _code_name(item, "upper")
    if len(item.parts) > 1:
        return f"services:\n  api:\n    environment:\n      {name}: \"{item.parts[0]}\\\n        {item.parts[1]}\"\n"
    if item.multiline:
        body = "\n".join("        " + line for line in item.value.split("\n"))
        return f"services:\n  api:\n    environment:\n      {name}: |-\n{body}\n"
    comment = f"      # {item.label}\n" if item.lang != "en" or item.far else ""
    return f"services:\n  api:\n    environment:\n      TZ: Asia/Shanghai\n{comment}      {name}: {_q(item)}{item.trailing}\n"


def k8s_string_data(item: Item) -> str:
    """A Secret written with stringData: values in plain text (the API server encodes them)."""
    key = item.ident.replace("_", "-") if item.lang == "en" else "value-1"
    if len(item.parts) > 1:
        return None  # type: ignore[return-value]
    comment = f"  # {item.label}\n" if item.lang != "en" or item.far else ""
    if item.multiline:
        body = "\n".join("    " + line for line in item.value.split("\n"))
        return f"apiVersion: v1\nkind: Secret\nstringData:\n{comment}  {key}: |\n{body}\n"
    return f"apiVersion: v1\nkind: Secret\ntype: Opaque\nstringData:\n{comment}  {key}: {_q(item)}{item.trailing}\n"


CONTAINERS: dict[str, Callable[[Item], str]] = {
    "prose_en": prose_en, "prose_zh": prose_zh, "md_fenced_python": md_fenced_python, "env_spaced": env_spaced,
    "shell_prefix": shell_prefix, "fish_powershell": fish_powershell, "json_nested": json_nested,
    "yaml_list": yaml_list, "toml_inline": toml_inline, "ini_colon": ini_colon, "xml_attribute": xml_attribute,
    "tsv": tsv, "md_row_table": md_row_table, "url_fragment": url_fragment, "raw_http": raw_http,
    "json_log": json_log, "python_kwargs": python_kwargs, "js_headers": js_headers, "go_setenv": go_setenv,
    "rust_set_var": rust_set_var, "java_properties": java_properties, "notebook_markdown": notebook_markdown,
    "compose_mapping": compose_mapping, "k8s_string_data": k8s_string_data,
}
