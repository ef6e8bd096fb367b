"""The text the scaffold writes (scaffold.py, ``attn-grade course new``; scaffoldadd.py, ``course add``).

Its templates (a stub's and a solution's functions, the public and the hidden checks, DOMAIN entries,
hints, the placeholder lesson, the contract's section and promises, the test folders' READMEs) and the
functions that fill them in for a list of functions, ``exact`` naming those whose answer is an exact
SymPy value (they take no arguments). Nothing here reads or writes a file.
"""

from __future__ import annotations

STUB = '''"""Exercise {slug}: {title}.

TODO: the task in a few sentences, and what the function must promise (shapes, dtypes, inputs
left unchanged), as docs/contract.md states it.

Read first: lesson {number}, course/lessons/{lesson}.
"""

import numpy as np
{functions}'''
FUNCTION = '''

def {name}(x: np.ndarray) -> np.ndarray:
    """TODO: what {name} returns.

    x: float64 array of shape (n,). Returns a new float64 array of shape (n,).
    """
    raise NotImplementedError("{name} {what}")
'''
EXACT_FUNCTION = '''

def {name}():
    """TODO: the exact value {name} returns: a SymPy value (sympy.Rational(1, 2), sympy.sqrt(2),
    sympy.exp(-3), ...), not a float. Any equal exact form counts."""
    raise NotImplementedError("{name} {what}")
'''
GRADER = '''"""Grader for the {slug} exercise: public checks. See docs/writing-a-grader.md."""

import numpy as np

from .kit import Domain, as_array, call_text, check, entries_within, expect

# What each stub promises of its arguments (docs/writing-a-grader.md, "What a check may ask").
DOMAIN = Domain({domain}){sympy}
{checks}'''
GRADER_KIT = ("Domain", "as_array", "call_text", "check", "entries_within", "expect")
EXACT_KIT = ("Outcome", "fail", "float_born", "module", "to_expr")
SYMPY = '\n\nsp = module("sympy")  # imported at first use (kit/lazy.py)'
HIDDEN_SYMPY = '\nsp = module("sympy")  # imported at first use (kit/lazy.py)\n'
DOMAIN = '''
    "{name}": ("finite entries as large as ±1e4 (TODO: the stub's own words)",
    {pad}     lambda x: entries_within(x, minus_inf=False)),'''
CHECK = '''

@check("{name} returns a float64 array of its input's shape", 1, uses=("{name}",))
def {name}_shape(sub, ref):
    x = np.array([0.0, 1.0, 2.0])
    call = call_text("{name}", x)
    out = as_array(f"{{call}} returned an array that", sub.call("{name}", x), shape=x.shape)
    expect(out.dtype == np.float64, f"{{call}} returned dtype {{out.dtype}}; return float64")
'''
HIDDEN = '''"""Hidden checks for {slug}: they compare with the reference solution and are never shipped."""

from ..kit import arrays_any_rank, as_array, call_text, check, expect_array_close, for_all, reworded
{sympy}{checks}'''
HIDDEN_KIT = ("arrays_any_rank", "as_array", "call_text", "check", "expect_array_close", "for_all", "reworded")
HIDDEN_EXACT_KIT = ("check", "compare", "fail", "module")
HIDDEN_CHECK = '''

@check("{name} agrees with the reference", 1, hidden=True, uses=("{name}",))
def {name}_agrees(sub, ref):
    def prop(x):
        call = call_text("{name}", x)
        got = as_array(f"{{call}} returned an array that", sub.call("{name}", x), shape=x.shape)
        with reworded(f"called {{call}}: "):
            expect_array_close("the result", ref.{name}(x), got)

    for_all(arrays_any_rank(max_dims=1), prop)
'''
EXACT_CHECK = '''

@check("{name} is an exact value", 1, uses=("{name}",))
def {name}_exact(sub, ref):
    # TODO: the laws any right answer keeps (its sign, a limit, a relation with the other functions), without
    # giving the answer; kit/exact.py reads the answer (a SymPy object, an int, a float or a text such as "1/2").
    expr, why = to_expr(sub.call("{name}"), {{}})  # {{"d_k": symbol}} where the answer may use symbols
    if expr is None:
        fail(f"{name}(): {{why}}")
    if expr.atoms(sp.Float) or float_born(expr):
        fail(f"{name}(): you gave {{sp.sstr(expr)}}: numerically it may be right, but an exact form is expected "
             f"(sympy.Rational, sympy.sqrt, sympy.exp), not a float", 0.5, Outcome.PARTIAL)
'''
HIDDEN_EXACT_CHECK = '''

@check("{name} is exactly the reference's value", 1, hidden=True, uses=("{name}",))
def {name}_agrees(sub, ref):
    verdict = compare(sp.sympify(ref.{name}()), sub.call("{name}"))  # equal exact forms: full marks; a float: half
    if verdict.fraction < 1:
        fail(f"{name}(): {{verdict.message}}.", verdict.fraction, verdict.outcome)
'''
HINTS = "# Hints for {slug}\n\nLesson: {lesson}\n{hints}"
HINT = '''
## Hint
See: {lesson} § {heading}

TODO: hint {n} of {total}, a nudge in two or three sentences towards what the lesson's section
teaches, never the answer (the release's leak scan reads this file). Each hint says a little more.
'''
HEADING = "{n}. TODO: the section hint {n} points to"
INTRO = ("# Lesson {number} · {title} (not written yet)\n\nA placeholder that `attn-grade course new {slug}` "
         "wrote: the lesson that prepares the exercise **`{slug}`** is not written yet. The sections below are "
         "the ones graders/hints/{slug}.md points to. TODO: write the lesson (see README.md), or point the "
         "hints to an existing lesson's sections and delete this notebook and its row in README.md.")
ROW = "| {number} | [`{lesson}`]({lesson}) | not written yet: a placeholder (TODO) | – | `{slug}` |"
SECTION = '''### {number}. `{slug}`: {title}

TODO: the task in a sentence or two, and what holds for all its functions.

{functions}
'''
PROMISE = ("- `{name}(x: np.ndarray) -> np.ndarray`: TODO: what it returns; x is a float64\n"
           "  array of shape (n,), the result a new float64 array of shape (n,)")
EXACT_PROMISE = ("- `{name}()`: TODO: the exact value it returns, a SymPy expression (any equal exact form\n"
                 "  counts; a float gets half)")
KEEP = "Write at least {n} {what} here, one .py file each: see docs/writing-a-grader.md.\n"



def stub_functions(functions, exact, what) -> str:
    """The stub's (or solution's) functions, each raising NotImplementedError("<name> <what>")."""
    return "".join((EXACT_FUNCTION if f in exact else FUNCTION).format(name=f, what=what) for f in functions)


def checks(functions, exact, hidden=False) -> str:
    """One check per function: the public grader's, or (``hidden``) the hidden twin's."""
    array, exact_ = (HIDDEN_CHECK, HIDDEN_EXACT_CHECK) if hidden else (CHECK, EXACT_CHECK)
    return "".join((exact_ if f in exact else array).format(name=f) for f in functions)


def domain(functions, exact) -> str:
    """The DOMAIN entries of the functions that take arguments, one a line."""
    return "".join(DOMAIN.format(name=f, pad=" " * len(f)) for f in functions if f not in exact)


def domain_dict(functions, exact) -> str:
    """What goes between ``Domain(`` and ``)``: nothing for functions that take no arguments."""
    entries = domain(functions, exact)
    return "{" + entries + "\n}" if entries else ""


def promises(functions, exact) -> str:
    """The functions' lines of the exercise's section of docs/contract.md."""
    return "\n".join((EXACT_PROMISE if f in exact else PROMISE).format(name=f) for f in functions)


def with_kit_line(source: str, functions, exact, hidden=False) -> str:
    """A grader written from GRADER or HIDDEN, importing from kit what its checks use (the templates import
    what array functions' checks use; tests/test_layout.py reads those lines)."""
    first = next(line for line in source.splitlines() if line.startswith(("from .kit ", "from ..kit ")))
    return source.replace(first, kit_line(functions, exact, hidden), 1)


def kit_line(functions, exact, hidden=False) -> str:
    """The grader's ``from .kit import ...`` (``..kit`` in a hidden one), within 120 columns."""
    names = kit_names(functions, exact, hidden)
    line = f"from {'..' if hidden else '.'}kit import {names}"
    return line if len(line) <= 120 else wrapped(f"from {'..' if hidden else '.'}kit import ({names})")


def kit_names(functions, exact, hidden=False) -> str:
    """The names a grader of these functions imports from kit, sorted as the graders write them."""
    names = set()
    if any(f not in exact for f in functions):
        names |= set(HIDDEN_KIT if hidden else GRADER_KIT)
    if any(f in exact for f in functions):
        names |= set(HIDDEN_EXACT_KIT if hidden else EXACT_KIT)
    return ", ".join(sorted(names | ({"check"} if hidden else {"Domain", "check"})))


def wrapped(line: str, width: int = 120) -> str:
    """An import line broken after commas at ``width``, continued under its opening parenthesis."""
    if len(line) <= width:
        return line
    indent = " " * (line.index("(") + 1)
    out, current = [], ""
    for part in line.split(", "):
        candidate = part if not current else f"{current}, {part}"
        if len(candidate) + (len(indent) if out else 0) > width - 1 and current:
            out.append(current + ",")
            current = part
        else:
            current = candidate
    out.append(current)
    return ("\n" + indent).join(out)


def with_sympy(text: str, exact) -> str:
    """A stub or solution with ``import sympy`` below ``import numpy as np`` when a function is exact."""
    return text.replace("import numpy as np\n", "import numpy as np\nimport sympy\n", 1) if exact else text
