"""What the leak scan (leaks.py) searches for: ``all_needles()``.

Built in the instructor's checkout, from solutions/ and graders/hidden/. Four
kinds of needle, each kept with whitespace removed:

(a) Reference solution lines, solutions/<slug>.py. A line counts when its
    code (comment cut off) has at least MIN_CODE characters and it is not a
    docstring, an import, a ``def``/``class`` line, a decorator, a block
    header (``if mask is not None:``, ``for h in range(n_heads):``), a line
    of the stub exercises/<slug>.py, or a plain formula shorter than
    MIN_PLAIN characters (only names, numbers and operators, no call or
    index: ``d_k = d_model // n_heads`` restates what the task and lessons
    teach). A line that uses a name of the solution's own (a module-level
    constant or helper of 3+ letters that the stub never mentions, like E_q or
    _attend) counts from MIN_NAMED characters on, whatever its form, so that
    every function body of the reference solutions is caught.
(b) Exact answers: the SymPy values of the reference's argument-free
    functions (hand_scores, variance_proof), as str, sstr, latex, srepr and
    rounded to 5 decimal places. A value that is a single integer or symbol
    (0, 1, d_k) is not scanned: it is in every text. Neither is a form shorter
    than MIN_FORM characters or one the stub itself shows.
(c) Hidden checks, graders/hidden/*.py: each check's name, each line of a
    string literal (messages, docstrings; f-string fields cut out) with at
    least MIN_PROSE characters, and each code line that asks the reference
    (``ref.``), unless the public graders contain that text too.
(d) Model answers of written tasks, solutions/*.md: each line with at least
    MIN_PROSE characters (markdown marks stripped) that the task statement
    exercises/<slug>.md does not contain.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

import sympy

from ... import registry
from .public import public_sources

PACKAGE = Path(__file__).resolve().parents[2]
ROOT = PACKAGE.parent
GRADERS = __package__.split(".")[0]  # the package's own name
SOLUTIONS, EXERCISES, HIDDEN = ROOT / "solutions", ROOT / "exercises", PACKAGE / "hidden"
MIN_CODE, MIN_PLAIN, MIN_NAMED, MIN_PROSE, MIN_FORM = 16, 24, 8, 24, 6


@dataclass(frozen=True)
class Needle:
    text: str     # what is searched for, whitespace removed
    shown: str    # what the message quotes
    kind: str     # "reference solution line", "exact answer", "hidden check name", ...
    origin: str   # where it comes from, e.g. "solutions/softmax.py line 9"


def squeeze(text: str) -> str:
    return "".join(text.split())


# ------------------------------------------------------------------ needles
def code_lines(path: Path) -> dict[int, str]:
    """Line number -> code without comments, for lines that are code (no docstrings)."""
    source = path.read_text(encoding="utf-8")
    docs = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
                and isinstance(node.value.value, str):
            docs.update(range(node.lineno, node.end_lineno + 1))
    lines = source.splitlines()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:  # cut the comment off its line
            row, col = tok.start
            lines[row - 1] = lines[row - 1][:col]
    return {n: line.strip() for n, line in enumerate(lines, 1) if n not in docs and line.strip()}


_HEADERS = ("def", "class", "import", "from", "async", "if", "elif", "else", "for", "while", "with",
            "try", "except", "finally")
_PLAIN = (ast.Module, ast.Expr, ast.Assign, ast.AugAssign, ast.Return, ast.Name, ast.Attribute,
          ast.Constant, ast.Tuple, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.operator,
          ast.unaryop, ast.boolop, ast.cmpop, ast.expr_context)


def _header(code: str) -> bool:
    """Imports, signatures, decorators and block headers such as ``if mask is not None:``."""
    return code.split()[0].rstrip(":") in _HEADERS or code.startswith("@")


def _plain(code: str) -> bool:
    """Only names, numbers and operators (no call, index or comprehension)."""
    try:
        return all(isinstance(n, _PLAIN) for n in ast.walk(ast.parse(code)))
    except SyntaxError:  # part of a statement that spans lines
        return False


def own_names(path: Path, stub: Path) -> set[str]:
    """Module-level names of the solution (3+ letters) that the stub's text never mentions."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {t.id for node in tree.body if isinstance(node, ast.Assign) for target in node.targets
             for t in ast.walk(target) if isinstance(t, ast.Name)}
    names |= {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    text = stub.read_text(encoding="utf-8") if stub.is_file() else ""
    return {name for name in names if len(name) >= 3 and not re.search(rf"\b{re.escape(name)}\b", text)}


def distinctive_code(path: Path, stub: Path, kind: str) -> list[Needle]:
    """The lines of the solution ``path`` worth scanning for (the rule is in the module docstring)."""
    known, mine = _known_code(stub), own_names(path, stub)
    found = []
    for n, code in code_lines(path).items():
        text = squeeze(code)
        if _header(code) or text in known:
            continue
        named = len(text) >= MIN_NAMED and mine & set(re.findall(r"\w+", code))
        if named or (len(text) >= MIN_CODE and not (len(text) < MIN_PLAIN and _plain(code))):
            found.append(Needle(text, code, kind, f"{_rel(path)} line {n}"))
    return found


def _known_code(*paths: Path) -> set[str]:
    return {squeeze(c) for p in paths if p.is_file() for c in code_lines(p).values()}


def solution_needles() -> list[Needle]:
    """(a): distinctive lines of every reference solution."""
    needles = []
    for e in registry.EXERCISES:
        path = SOLUTIONS / f"{e.slug}.py"
        if path.is_file():
            needles += distinctive_code(path, EXERCISES / f"{e.slug}.py", "reference solution line")
    return needles


def exact_answers(slug: str) -> list:
    """The SymPy values the reference's argument-free functions return, flattened."""
    from ...grading.engine import reference

    ref = reference(slug)
    values = []
    for name in registry.get(slug).functions if ref else ():
        fn = getattr(ref, name, None)
        if fn is None or inspect.signature(fn).parameters:
            continue
        out = fn()
        for v in out if isinstance(out, tuple) else (out,):
            if isinstance(v, sympy.Basic):
                values.append((name, v))
    return values


def printed_forms(value) -> list[str]:
    """str, sstr, latex, srepr and, for a number, the value rounded to 5 decimal places."""
    forms = [str(value), sympy.sstr(value), sympy.latex(value), sympy.srepr(value)]
    if value.is_number:
        forms.append(f"{float(value):.5f}")
    return list(dict.fromkeys(forms))


def answer_needles() -> list[Needle]:
    """(b): printed forms of each exact answer, without the unscannable ones."""
    needles = []
    for e in registry.EXERCISES:
        stub = EXERCISES / f"{e.slug}.py"
        shown = squeeze(stub.read_text(encoding="utf-8")) if stub.is_file() else ""
        for name, value in exact_answers(e.slug):
            if value.is_Atom:  # 0, 1, d_k: a single integer or symbol is in every text
                continue
            for form in printed_forms(value):
                text = squeeze(form)
                if len(text) >= MIN_FORM and text not in shown:
                    needles.append(Needle(text, form, "exact answer", f"solutions/{e.slug}.py {name}()"))
    return needles


def hidden_needles() -> list[Needle]:
    """(c): the hidden checks' names, their messages and the lines that ask the reference."""
    public = squeeze("".join(p.read_text(encoding="utf-8") for p in public_sources()))
    needles = []
    for path in sorted(HIDDEN.glob("*.py")):
        if path.name == "__init__.py":
            continue
        module = importlib.import_module(f"{GRADERS}.hidden.{path.stem}")
        for fn in vars(module).values():
            if callable(fn) and hasattr(fn, "spec") and fn.__module__ == module.__name__:
                needles.append(Needle(squeeze(fn.spec.name), fn.spec.name, "hidden check name",
                                      f"{_rel(path)} {fn.__name__}"))
        for n, chunk in _literals(path):
            if len(squeeze(chunk)) >= MIN_PROSE and squeeze(chunk) not in public:
                needles.append(Needle(squeeze(chunk), chunk, "hidden check message", f"{_rel(path)} line {n}"))
        for n, code in code_lines(path).items():
            if "ref." in code and squeeze(code) not in public:
                needles.append(Needle(squeeze(code), code, "hidden check line", f"{_rel(path)} line {n}"))
    return needles


def _literals(path: Path):
    """(line, text) of each string literal's fixed parts (f-string fields cut out), docstrings too."""
    source = path.read_text(encoding="utf-8")
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.STRING:
            body = tok.string.lstrip("rbfuRBFU").strip("\"'")
            parts = re.split(r"\{[^{}]*\}", body) if "f" in tok.string[:2].lower() else [body]
            for part in parts:
                for i, line in enumerate(part.splitlines()):
                    yield tok.start[0] + i, line.strip()


def model_answer_needles() -> list[Needle]:
    """(d): distinctive lines of the written model answers, solutions/*.md."""
    needles = []
    for path in sorted(SOLUTIONS.glob("*.md")):
        task = EXERCISES / path.name
        known = {squeeze(line) for line in task.read_text(encoding="utf-8").splitlines()} \
            if task.is_file() else set()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            text = squeeze(line.strip("#>*-` \t"))
            if len(text) >= MIN_PROSE and text not in known:
                needles.append(Needle(text, line.strip(), "model answer line", f"{_rel(path)} line {n}"))
    return needles


def all_needles() -> list[Needle]:
    """Every needle once (the first of any two with the same text)."""
    needles = solution_needles() + answer_needles() + hidden_needles() + model_answer_needles()
    return list({n.text: n for n in reversed(needles)}.values())[::-1]


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT)) if ROOT in path.parents else str(path)
