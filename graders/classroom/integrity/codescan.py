"""What the integrity scan (integrity.py) reads in a piece of a student's code, never running it.

Any text at all may arrive here: a line that never runs can nest an
expression 600 levels deep (``x[0][0]...[0].y = 1``), deeper than Python's
own recursive helpers (``ast.unparse``) can follow. So the syntax tree is only
ever walked with a loop (``ast.walk``), an expression is shown as code only
when it is at most MAX_DEPTH deep (else by the name it starts from), and a
text the parser refuses (too deeply nested, not Python) has no tree and so
nothing to flag. What is read at all is bounded by integrity.py (MAX_SCANNED).

    defines(source)     names a cell binds at its top level
    patches(source)     what in the code reaches for the grader
    looks_around(source) what in the code searches the machine or runs code it finds
    tokens(source)      its tokens without comments and layout (what identical.py compares)
    digest(tokens)      a digest of such tokens (what identical.py groups by)
    normalised(source)  the digest of its tokens
"""

from __future__ import annotations

import ast
import hashlib
import io
import tokenize

GRADER_MODULES = ("attn_checks", "graders", "nbgrader")
TOUCHY = {("sys", "modules"), ("builtins", None), ("__builtins__", None), ("get_ipython", None)}
# The grader's side of the sandbox runs in the student's process: its frames and objects are reached by
# walking frames or the garbage collector's lists, which no answer needs (SECURITY.md, "What stays out of reach")
INTROSPECTS = {("sys", "_getframe"), ("sys", "_current_frames"), ("sys", "settrace"), ("sys", "setprofile"),
               ("inspect", "currentframe"), ("inspect", "stack"), ("inspect", "getouterframes"),
               ("gc", "get_referrers"), ("gc", "get_referents"), ("gc", "get_objects")}
FRAME_PARTS = ("f_back", "f_globals", "f_locals", "f_builtins", "tb_frame", "gi_frame", "cr_frame", "__globals__")
NUMPY = ("np", "numpy")
MAX_DEPTH = 50  # an expression nested deeper is shown by the name it starts from, never rendered
MAX_SHOWN = 200  # characters of code quoted in a flag


def tree(source: str):
    """The syntax tree of ``source``, or None where Python's parser refuses it."""
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def defines(source: str) -> list[str]:
    """Names a cell binds at its top level: functions, classes, imports, assignments."""
    found = tree(source)
    names = []
    for node in found.body if found else ():
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names += [(a.asname or a.name).split(".")[0] for a in node.names]
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names += [shown(t) for t in targets]
    return list(dict.fromkeys(names))


def patches(source: str) -> list[str]:
    """What in ``source`` reaches for the grader: its modules, sys.modules, builtins, IPython, NumPy's functions,
    the frames and objects of the running program (where the grader's side of the sandbox lives)."""
    found = tree(source)
    said = []
    for node in ast.walk(found) if found else ():
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            said += [f"imports {m}" for m in mods if m.split(".")[0] in GRADER_MODULES]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and (node.value.id, node.attr) in TOUCHY:
            said.append(f"touches {node.value.id}.{node.attr}")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and (node.value.id, node.attr) in INTROSPECTS:
            said.append(f"reaches into the running program ({node.value.id}.{node.attr})")
        elif isinstance(node, ast.Attribute) and node.attr in FRAME_PARTS:
            said.append(f"reaches into the running program (.{node.attr})")
        elif isinstance(node, ast.Name) and (node.id, None) in TOUCHY:
            said.append(f"uses {node.id}")
        elif isinstance(node, (ast.Assign, ast.AugAssign)):
            for t in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(t, ast.Attribute) and root(t) in NUMPY:
                    said.append(f"assigns to {shown(t)}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr" \
                and node.args and root(node.args[0]) in NUMPY:
            said.append(f"calls setattr on {shown(node.args[0])}")
    return list(dict.fromkeys(said))


# What an answer to these exercises never needs: searching the file system (for solutions, say),
# reading /proc, or running code or programs it put together.
WALKS = {("os", "walk"), ("os", "scandir"), ("os", "listdir"), ("glob", "glob"), ("glob", "iglob"),
         ("os", "system"), ("os", "popen")}
WALK_METHODS = ("rglob", "iterdir", "glob", "walk")  # pathlib.Path's, on whatever path
RUNS = ("exec", "eval", "compile", "__import__")
PROGRAMS = ("subprocess", "ctypes")


def looks_around(source: str) -> list[str]:
    """What in ``source`` searches the machine or runs what it finds: a walk of the file system,
    /proc, exec and eval, subprocess or ctypes. The sandbox stops it; a person may want to know."""
    found = tree(source)
    said = []
    for node in ast.walk(found) if found else ():
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name) and f.id in RUNS:
                said.append(f"runs code it builds ({f.id})")
            elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and (f.value.id, f.attr) in WALKS:
                said.append(f"searches the file system ({f.value.id}.{f.attr})")
            elif isinstance(f, ast.Attribute) and f.attr in WALK_METHODS and root(f) not in NUMPY:
                said.append(f"searches the file system (.{f.attr})")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            said += [f"imports {m}" for m in mods if m.split(".")[0] in PROGRAMS]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("/proc"):
            said.append(f"reads {node.value[:40]!r}")
    return list(dict.fromkeys(said))


def tokens(source: str) -> list[str] | None:
    """The answer's tokens without comments and layout, or None where Python's tokenizer refuses it."""
    try:
        return [t.string for t in tokenize.generate_tokens(io.StringIO(source).readline)
                if t.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                                  tokenize.DEDENT, tokenize.ENDMARKER)]
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None


def digest(found: list[str]) -> str:
    """A digest of ``found`` (the tokens of ``tokens``): the same tokens, the same digest."""
    return hashlib.sha256("\0".join(found).encode()).hexdigest()


def normalised(source: str) -> str | None:
    """The digest of the answer's tokens without comments and layout (``tokens``), or None."""
    found = tokens(source)
    return None if found is None else digest(found)


def root(node) -> str:
    """The name an expression starts from (``np`` of ``np.linalg.norm``, ``x`` of ``x[0].y``), or ""."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call, ast.Starred)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else ""


def shown(node) -> str:
    """``node`` as code, at most MAX_SHOWN characters; one nested deeper than MAX_DEPTH by its first name."""
    if deeper_than(node, MAX_DEPTH):
        return f"{root(node) or 'an expression'}… (nested more than {MAX_DEPTH} levels deep)"
    text = ast.unparse(node)
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "…"


def deeper_than(node, limit: int) -> bool:
    """Whether the tree under ``node`` is more than ``limit`` levels deep (a loop, never recursion)."""
    todo = [(node, 0)]
    while todo:
        node, depth = todo.pop()
        if depth > limit:
            return True
        todo += [(child, depth + 1) for child in ast.iter_child_nodes(node)]
    return False
