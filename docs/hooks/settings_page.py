"""The settings reference (docs/reference/settings.md), generated from graders/grading/settings.py at
every build: each field of Settings; the environment variables Settings.from_environ reads for it, found
in its syntax tree, with the module docstring's words for each; how it reads them; the defaults' code.
Loaded by docs/hooks/reference.py, the hook MkDocs runs."""

from __future__ import annotations

import ast
import dataclasses
import html
import inspect
import re
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _import_project():
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))


def _cell(text: str) -> str:
    """Text for a Markdown table cell or paragraph: nothing in it read as Markdown or HTML."""
    text = html.escape(" ".join(text.split()), quote=False)
    return re.sub(r"([\\`*_\[\]])", r"\\\1", text).replace("|", "&#124;")


def settings_reads():
    """What Settings.from_environ reads, from its syntax tree: {field: (variables, expression)},
    the helper functions it calls with the environment {name: variables}, and the module."""
    _import_project()
    from graders.grading import settings as module

    tree = ast.parse(inspect.getsource(module))
    functions = {f.name: f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)}
    source = inspect.getsource(module)

    def variables(node) -> set:
        found = set()
        for sub in ast.walk(node):
            key = None
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr == "get" \
                    and isinstance(sub.func.value, ast.Name) and sub.func.value.id == "env" and sub.args:
                key = sub.args[0]
            elif isinstance(sub, ast.Subscript) and isinstance(sub.value, ast.Name) and sub.value.id == "env":
                key = sub.slice
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                found.add(key.value)
        return found

    helpers = {name: variables(f) for name, f in functions.items() if name.startswith("_") and variables(f)}

    def reads(node, local) -> set:
        found = set(variables(node))
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and sub.id in local:
                found |= local[sub.id]
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id in helpers:
                found |= helpers[sub.func.id]
        return found

    local, fields = {}, {}
    for stmt in functions["from_environ"].body:
        if isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets):
            for target in stmt.targets:
                local[target.id] = reads(stmt.value, local)
        elif isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Call):
            for kw in stmt.value.keywords:
                fields[kw.arg] = (reads(kw.value, local), ast.get_source_segment(source, kw.value))
    return fields, helpers, module


def _described(doc: str) -> dict:
    """The module docstring's table: {VARIABLE: its description}."""
    found, last = {}, None
    for line in doc.splitlines():
        m = re.match(r"\s{4}([A-Z][A-Z0-9_]+)\s{2,}(.*)", line)
        if m:
            last = m.group(1)
            found[last] = m.group(2).strip()
        elif last and line.startswith(" " * 8) and line.strip():
            found[last] += " " + line.strip()
        else:
            last = None
    return found


def _comments(cls) -> dict:
    """Each field's comment at the end of its line in the class body."""
    found = {}
    for line in inspect.getsource(cls).splitlines():
        m = re.match(r"\s+(\w+)\s*:[^#]*#\s*(.*)", line)
        if m:
            found[m.group(1)] = m.group(2).strip()
    return found


def settings_markdown() -> str:
    fields, helpers, module = settings_reads()
    cls = module.Settings
    described, comments = _described(module.__doc__ or ""), _comments(cls)
    out = ["## Environment variables {#environment-variables}",
           "| variable | sets | what it chooses |\n|---|---|---|"]
    rows = {}
    for name, (variables, _) in fields.items():
        for var in sorted(variables):
            rows.setdefault(var, []).append(name)
    helper_of = {var: name for name, found in helpers.items() for var in found}
    for var in sorted(rows, key=lambda v: (v not in described, v)):
        what = _cell(described[var]) if var in described else \
            f"read by `{helper_of[var]}`, for the default (see [Defaults](#defaults))" if var in helper_of else ""
        out[-1] += f"\n| `{var}` | {', '.join(f'`{f}`' for f in rows[var])} | {what} |"
    out.append("## Fields of Settings {#fields-of-settings}")
    table = "| field | type | default | read from the environment as |\n|---|---|---|---|"
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            default = f"`{f.default!r}`".replace("PosixPath(", "Path(")
        else:
            line = inspect.getsource(cls).split(f"{f.name}:", 1)[1].splitlines()[0]
            default = "computed by " + (", ".join(f"`{n}`" for n in helpers if n in line) or "a factory")
        expression = fields.get(f.name, (set(), None))[1]
        table += (f"\n| `{f.name}` | `{f.type}` | {default} | "
                  + (f"`{_code(expression)}`" if expression else "not read from the environment") + " |")
    out.append(table)
    out.append("\n".join(f"* `{f.name}`: {_cell(comments.get(f.name, ''))}" for f in dataclasses.fields(cls)))
    props = [(n, p) for n, p in vars(cls).items() if isinstance(p, property)]
    if props:
        out.append("## Derived settings {#derived-settings}")
        out.append("\n".join(f"* `{n}`: {_cell(inspect.getdoc(p) or '')}" for n, p in props))
    out.append("## How the environment is read {#how-the-environment-is-read}")
    out.append("```python\n" + textwrap.dedent(inspect.getsource(cls.from_environ)).strip() + "\n```")
    out.append("## Defaults {#defaults}")
    out.append(f"From `{module.__name__}`:")
    for name in helpers:
        out.append("```python\n" + inspect.getsource(getattr(module, name)).strip() + "\n```")
    return "\n\n".join(out) + "\n"


def _code(text: str) -> str:
    return " ".join(text.split()).replace("|", "&#124;")
