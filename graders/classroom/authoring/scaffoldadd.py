"""``attn-grade course add SLUG --functions F,G``: more functions for an exercise that exists.

Each new function gets what ``attn-grade course new`` (scaffold.py) gives each of a new exercise's,
marked TODO where the author's words go: a stub and a solution function, a public and a hidden check
(1 point each), its DOMAIN entry, its promise at the end of the exercise's section of docs/contract.md,
and its name and 2 more points in its graders/registry.py line. The files are edited where they stand
(their imports of kit/ and sympy completed, read with ``ast``), and nothing is written unless every
file can be: an unknown exercise, a name it or the contract has already, or a DOMAIN or registry line
written otherwise than the scaffold writes it are refused first.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from .scaffold import TESTS, ScaffoldError, check_functions, check_names
from .scaffoldtext import SYMPY, checks, domain, kit_names, promises, stub_functions, wrapped


def _exercise_call(text: str, slug: str):
    """The ``Exercise("slug", ...)`` call of the registry's source, as an ast node, or None."""
    for node in ast.walk(ast.parse(text)):
        if (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Exercise" and node.args
                and isinstance(node.args[0], ast.Constant) and node.args[0].value == slug):
            return node
    return None


def _replace_segment(text: str, node, new: str) -> str:
    """``text`` with the source of ``node`` replaced by ``new`` (ast counts columns in UTF-8 bytes)."""
    lines = text.splitlines(keepends=True)

    def offset(line, col):
        return sum(len(x) for x in lines[:line - 1]) + len(lines[line - 1].encode("utf-8")[:col].decode("utf-8"))

    return text[:offset(node.lineno, node.col_offset)] + new + text[offset(node.end_lineno, node.end_col_offset):]


def _with_kit_names(grader: str, names: str, level: int) -> str:
    """A grader's source whose ``from .kit import (...)`` (``..kit`` in a hidden one) also imports ``names``."""
    wanted = {n.strip() for n in names.split(",")}
    for node in ast.parse(grader).body:
        if isinstance(node, ast.ImportFrom) and node.module == "kit" and node.level == level:
            have = [a.name for a in node.names]
            missing = sorted(wanted - set(have))
            if not missing:
                return grader
            every = ", ".join(have + missing)
            words = f"from {'.' * level}kit import ({every})" if len(every) > 80 else \
                f"from {'.' * level}kit import {every}"
            return _replace_segment(grader, node, wrapped(words))
    return f"from {'.' * level}kit import {', '.join(sorted(wanted))}\n" + grader


def _with_domain(grader: str, entries: str) -> str | None:
    """A grader's source with ``entries`` added to its DOMAIN, or None where its DOMAIN is not written as
    ``Domain({...})`` or ``Domain()``."""
    if not entries:
        return grader
    if "\nDOMAIN = Domain()\n" in grader:
        return grader.replace("\nDOMAIN = Domain()\n", f"\nDOMAIN = Domain({{{entries}\n}})\n", 1)
    for node in ast.parse(grader).body:
        if (isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "DOMAIN"
                and isinstance(node.value, ast.Call) and len(node.value.args) == 1
                and isinstance(node.value.args[0], ast.Dict)):
            old = ast.get_source_segment(grader, node.value.args[0])
            body = old[:-1].rstrip()
            body = body if body.endswith((",", "{")) else body + ","
            return _replace_segment(grader, node.value.args[0], f"{body}{entries}\n}}")
    return None


def _with_promises(contract: str, slug: str, lines: str) -> str | None:
    """docs/contract.md with ``lines`` (the new functions' promises) at the end of exercise ``slug``'s section,
    or None without one."""
    found = re.search(rf"^### \d+\. `{slug}`.*$", contract, re.M)
    if not found:
        return None
    end = re.search(r"^#{2,3} ", contract[found.end():], re.M)
    end = found.end() + end.start() if end else len(contract)
    return contract[:end].rstrip("\n") + "\n" + lines + "\n\n" + contract[end:].lstrip("\n")


def add(root: Path, slug: str, functions: list[str], say=print, exact: list[str] = ()) -> list[Path]:
    """Give exercise ``slug`` (written already) more functions: each a stub and a solution function, a public and
    a hidden check (1 point each), a DOMAIN entry, a promise in its contract section, its name in the registry
    line and 2 more points there. Nothing is written unless every file can be; return the files changed."""
    root = Path(root)
    check_names([(slug, "the slug")] + [(f, "a function") for f in functions])
    check_functions(functions, exact)
    registry_file = root / "graders" / "registry.py"
    text = registry_file.read_text(encoding="utf-8")
    call = _exercise_call(text, slug)
    if call is None or len(call.args) < 5:
        raise ScaffoldError(f"graders/registry.py has no Exercise(\"{slug}\", title, points, functions, assignment)")
    title_node, points_node, names_node = call.args[1:4]
    have = [e.value for e in getattr(names_node, "elts", ())]
    contract_file = root / "docs" / "contract.md"
    contract = contract_file.read_text(encoding="utf-8") if contract_file.exists() else ""
    taken = [f for f in functions if f in have or f"`{f}(" in contract]
    if taken:
        raise ScaffoldError(f"{', '.join(taken)} {'is' if len(taken) == 1 else 'are'} taken already (by {slug} or "
                            f"in docs/contract.md): give the functions names of their own")
    if not isinstance(points_node, ast.Constant) or not isinstance(names_node, ast.Tuple):
        raise ScaffoldError(f"graders/registry.py: {slug}'s points and functions are not written as a number and a "
                            f"tuple; add the functions by hand")
    files = {}
    for folder, what in (("exercises", "is not written yet"), ("solutions", "(the reference solution) is not "
                                                                            "written yet")):
        path = root / folder / f"{slug}.py"
        body = path.read_text(encoding="utf-8")
        if exact and not re.search(r"^import sympy\b", body, re.M):
            body = re.sub(r"^(import numpy as np\n)", r"\1import sympy\n", body, count=1, flags=re.M) \
                if re.search(r"^import numpy as np\n", body, re.M) else "import sympy\n" + body
        files[path] = body.rstrip("\n") + "\n" + stub_functions(functions, exact, what)
    grader_file, hidden_file = root / "graders" / f"{slug}.py", root / "graders" / "hidden" / f"{slug}.py"
    grader = _with_domain(grader_file.read_text(encoding="utf-8"), domain(functions, exact))
    if grader is None:
        raise ScaffoldError(f"graders/{slug}.py does not write its DOMAIN as Domain({{...}}) or Domain(): nothing "
                            f"was written")
    grader = _with_kit_names(grader, kit_names(functions, exact), 1)
    hidden = _with_kit_names(hidden_file.read_text(encoding="utf-8"), kit_names(functions, exact, True), 2)
    for name, source in (("grader", grader), ("hidden", hidden)):
        if exact and not re.search(r"^sp = ", source, re.M):
            source = source.rstrip("\n") + SYMPY + "\n"
        if name == "grader":
            grader = source
        else:
            hidden = source
    files[grader_file] = grader.rstrip("\n") + "\n" + checks(functions, exact)
    files[hidden_file] = hidden.rstrip("\n") + "\n" + checks(functions, exact, True)
    points = points_node.value + 2 * len(functions)
    names = "(" + ", ".join(f'"{f}"' for f in have + list(functions)) + ")"
    registry_text = _replace_segment(text, names_node, names)
    call = _exercise_call(registry_text, slug)
    registry_text = _replace_segment(registry_text, call.args[2], f"{points:g}")
    call = _exercise_call(registry_text, slug)
    lines = registry_text.splitlines(keepends=True)
    if len(lines[call.args[3].lineno - 1].rstrip("\n")) > 120:  # the functions go on a line of their own
        registry_text = _replace_segment(registry_text, call.args[3], "\n" + " " * (call.col_offset + 9) + names)
        registry_text = re.sub(r", *\n(\s+\()", r",\n\1", registry_text)
    files[registry_file] = registry_text
    if contract:
        with_promises = _with_promises(contract, slug, promises(functions, exact))
        if with_promises is None:
            say(f"docs/contract.md has no section for {slug}: state {', '.join(functions)} there by hand.")
        else:
            files[contract_file] = with_promises
    for path, body in files.items():
        path.write_text(body, encoding="utf-8")
    say(f"{slug}: {', '.join(functions)} added ({2 * len(functions)} points: one public and one hidden check each); "
        f"the registry says {points:g} points now. Fill in each TODO, and give the new functions their mutants.\n"
        "The exercise's tests (docs/writing-a-grader.md, \"Testing one exercise\"):\n"
        + "\n".join("  " + t.format(s=slug) for t in TESTS))
    return list(files)
