"""A second held-out template set for the gate's stress grid, written after round two's fixes
(f2d27f7) and run once with seed 4242 (``bench_gate_grid.py --templates heldout2 --seed 4242``):
the same kinds and obfuscations in 24 more containers — a label with no separator, a value
*before* its label, Markdown lists and bold labels, .netrc, git config, Java .properties,
Terraform, SQL, a Dockerfile, PHP, Ruby, C#, nginx, crontab, a chat export, an HTML form.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from benchmarks.gate_grid import Item, _cap, _code_name, _q
from desktop_kb.qa.detectors.secret_names import name_class


def _comment(item: Item, mark: str) -> str:
    return f"{mark} {item.label}\n" if item.lang != "en" or item.far else ""


def prose_no_separator(item: Item) -> str:
    if item.sentence:
        return f"Use {item.value}{item.trailing} as the {item.label} for now, I'll rotate it later.\n"
    if len(item.parts) > 1:
        return f"VPN login for lilei, {item.label} {item.parts[0]}-\n{item.parts[1]}\n"
    if item.far:
        return f"{_cap(item.label)}? It's in the last line.\n\nChapter 5 notes: iterators.\n\n{item.value}{item.trailing}\n"
    return f"VPN login for lilei, {item.label} {_q(item, '`')}{item.trailing} until Friday.\n"


def prose_zh_value_first(item: Item) -> str:
    if item.sentence:
        return f"{item.value}{item.trailing}是新的{item.label}，别忘了。\n"
    if len(item.parts) > 1:
        return f"{item.label}：{item.parts[0]}\n{item.parts[1]}（两行连起来）\n"
    if item.far:
        return f"……{item.label}见最后一行……\n\n今天学了迭代器。\n\n{item.value}{item.trailing}\n"
    return f"{item.label}：{item.value}{item.trailing} 用完请删\n"


def md_list(item: Item) -> str:
    label = _cap(item.label) if item.lang == "en" else item.label
    if len(item.parts) > 1:
        return f"- **{label}**:\n  - `{item.parts[0]}`\n  - `{item.parts[1]}`\n"
    return f"## 服务器\n\n- 主机：10.0.0.5\n- **{label}**: {_q(item, '`')}{item.trailing}\n"


def md_bold_dash(item: Item) -> str:
    return f"**{item.label}** — {item.value}{item.trailing}\n\n（上周更新）\n"


def netrc(item: Item) -> str:
    if name_class(item.ident) is None:
        return None  # type: ignore[return-value]  # .netrc writes "password" before its value: only credentials
    comment = _comment(item, "#")
    return f"{comment}machine api.mylab.cn login lilei password {item.value}{item.trailing}\n"


def git_config(item: Item) -> str:
    comment = _comment(item, "\t#")
    return f"[credential]\n\thelper = store\n{comment}\t{_code_name(item)} = {item.value}{item.trailing}\n"


def java_properties_file(item: Item) -> str:
    name = _code_name(item).replace("_", ".")
    if len(item.parts) > 1:
        return f"{name}={item.parts[0]}\\\n    {item.parts[1]}\n"
    return _comment(item, "#") + f"{name}={item.value}{item.trailing}\n"


def terraform(item: Item) -> str:
    comment = _comment(item, "#")
    value = json.dumps(item.value, ensure_ascii=False)
    return f'{comment}variable "{_code_name(item)}" {{\n  type    = string\n  default = {value}{item.trailing}\n}}\n'


def sql_insert(item: Item) -> str:
    comment = f"-- {item.label}\n" if item.lang != "en" or item.far else ""
    return (f"{comment}INSERT INTO accounts (name, {_code_name(item)}) VALUES ('lilei', "
            f"'{item.value}'){item.trailing};\n")


def dockerfile(item: Item) -> str:
    name = _code_name(item, "upper")
    if len(item.parts) > 1:
        return f"FROM python:3.11\nENV {name}={item.parts[0]}\\\n{item.parts[1]}\n"
    return f"FROM python:3.11\n{_comment(item, '#')}ENV {name}={_q(item)}{item.trailing}\nRUN pip install -r req.txt\n"


def php_define(item: Item) -> str:
    name = _code_name(item, "upper")
    if len(item.parts) > 1:
        return f"<?php\ndefine('{name}', '{item.parts[0]}' .\n    '{item.parts[1]}');\n"
    return f"<?php\n{_comment(item, '//')}define('{name}', '{item.value}'){item.trailing};\n"


def ruby_env(item: Item) -> str:
    name = _code_name(item, "upper")
    return f"{_comment(item, '#')}ENV['{name}'] ||= '{item.value}'{item.trailing}\n"


def csharp_connection(item: Item) -> str:
    comment = _comment(item, "//")
    key = {"password": "Password", "connection_string": "Password"}.get(item.ident, item.ident)
    return f'{comment}var conn = new SqlConnection("Server=.;User Id=app;{key}={item.value}{item.trailing};");\n'


def nginx(item: Item) -> str:
    comment = _comment(item, "#")
    return f'location /api/ {{\n    {comment}    proxy_set_header X-{_code_name(item, "camel")} "{item.value}"{item.trailing};\n}}\n'


def crontab(item: Item) -> str:
    name = _code_name(item, "upper")
    return f"{_comment(item, '#')}0 3 * * * {name}={_q(item, chr(39))}{item.trailing} /opt/backup.sh >> /var/log/b.log\n"


def chat_export(item: Item) -> str:
    if len(item.parts) > 1:
        return f"[10:31] 李雷: {item.label}发你了\n[10:31] 李雷: {item.parts[0]}\n[10:32] 李雷: {item.parts[1]}\n"
    return f"[10:31] 李雷: {item.label}发你了\n[10:31] 李雷: {item.value}{item.trailing}\n[10:32] 韩梅梅: 收到\n"


def html_form(item: Item) -> str:
    comment = f"<!-- {item.label} -->\n" if item.lang != "en" or item.far else ""
    return f'{comment}<input name="{_code_name(item)}" type="text" value="{item.value}">{item.trailing}\n'


def bracket_log(item: Item) -> str:
    key = item.ident if item.lang == "en" else item.label
    return f"[2024-05-12 10:31:02] [auth] user=lilei {key}:{item.value}{item.trailing} ok\n"


def yaml_anchor(item: Item) -> str:
    key = item.ident if item.lang == "en" else item.label
    if item.multiline:
        body = "\n".join("    " + line for line in item.value.split("\n"))
        return f"defaults: &d\n  {key}: |\n{body}\n"
    return f"defaults: &d\n  {key}: &v {_q(item)}{item.trailing}\nprod:\n  <<: *d\n"


def js_object(item: Item) -> str:
    name = _code_name(item, "camel")
    if len(item.parts) > 1:
        return f"export default {{\n  {name}: `{item.parts[0]}` +\n    `{item.parts[1]}`,\n}};\n"
    return f"{_comment(item, '//')}export default {{\n  host: '10.0.0.5',\n  {name}: `{item.value}`{item.trailing},\n}};\n"


def github_actions(item: Item) -> str:
    name = _code_name(item, "upper")
    return (f"jobs:\n  test:\n    runs-on: ubuntu-latest\n    env:\n{_comment(item, '      #')}"
            f"      {name}: {_q(item)}{item.trailing}\n")


def powershell_secure(item: Item) -> str:
    name = _code_name(item, "camel")
    return f'{_comment(item, "#")}${name} = ConvertTo-SecureString "{item.value}" -AsPlainText -Force{item.trailing}\n'


def swift_plist(item: Item) -> str:
    key = _code_name(item, "camel")
    comment = f"<!-- {item.label} -->\n" if item.lang != "en" or item.far else ""
    return f"<dict>\n{comment}  <key>{key}</key>\n  <string>{item.value}{item.trailing}</string>\n</dict>\n"


def email_signature(item: Item) -> str:
    return f"Hi team,\n\nthe new {item.label} is below.\n\n    {item.value}{item.trailing}\n\nCheers,\nLei\n"


def kv_colon_spaces(item: Item) -> str:
    label = _cap(item.label) if item.lang == "en" else item.label
    return f"Host      : 10.0.0.5\n{label:<10}: {item.value}{item.trailing}\nPort      : 5432\n"


_SPLIT_AWARE = {"prose_no_separator", "prose_zh_value_first", "md_list", "java_properties_file", "dockerfile",
                "php_define", "chat_export", "js_object"}


def _whole_only(render: Callable[[Item], str]) -> Callable[[Item], str]:
    """A container without a way to write a value in pieces does not take the split obfuscation."""
    def wrapped(item: Item) -> str:
        return None if len(item.parts) > 1 else render(item)  # type: ignore[return-value]
    return wrapped


_CONTAINERS: dict[str, Callable[[Item], str]] = {
    "prose_no_separator": prose_no_separator, "prose_zh_value_first": prose_zh_value_first, "md_list": md_list,
    "md_bold_dash": md_bold_dash, "netrc": netrc, "git_config": git_config,
    "java_properties_file": java_properties_file, "terraform": terraform, "sql_insert": sql_insert,
    "dockerfile": dockerfile, "php_define": php_define, "ruby_env": ruby_env, "csharp_connection": csharp_connection,
    "nginx": nginx, "crontab": crontab, "chat_export": chat_export, "html_form": html_form,
    "bracket_log": bracket_log, "yaml_anchor": yaml_anchor, "js_object": js_object, "github_actions": github_actions,
    "powershell_secure": powershell_secure, "plist": swift_plist, "email_signature": email_signature,
    "kv_colon_spaces": kv_colon_spaces,
}
CONTAINERS = {name: fn if name in _SPLIT_AWARE else _whole_only(fn) for name, fn in _CONTAINERS.items()}
