"""Exact answers: a time-bounded SymPy comparison with the reference's value.

A student's answer is first rebuilt by the whitelisting parser of parse.py
(nothing is ever eval'd), then compared (equality.py): numerically at a few
probe points, then exactly, each within a time bound.

The parser bounds what building an answer costs from its text alone. What it
cannot foresee (the cost of evaluating an answer, of simplifying it) is paid
in a process of its own (graders/bounded/helper.py) that is killed at a bound:
``to_expr`` first reads and evaluates a text answer there, where the graders
will evaluate it (at the probe points), and ``compare`` compares it there. An
answer past a bound scores 0 with a message that says so. Results are
remembered by a digest of the answer, in memos bounded in bytes, and settled
verdicts across runs too (remember.py).
"""

from __future__ import annotations

import math
from dataclasses import astuple, dataclass, replace

from ..bounded import helper as bounded
from ..sandbox.wire import Rejected, SympyText
from . import remember
from .equality import TimeUp, time_limit
from .equality import equal_within as _equal_within
from .equality import numerically_equal as _numerically_equal
from .lazy import module
from .outcomes import Outcome
from .parse import MAX_BITS, ParseError, parse
from .text import Memo, digest

__all__ = ["compare", "to_expr", "Verdict", "time_limit", "TimeUp", "ParseError", "parse", "float_born",
           "FLOAT_DENOMINATOR"]

sp = module("sympy")  # imported at first use (kit/lazy.py)

PROBES = (1, 2, 3, 7, 64)  # where graders evaluate an answer with symbols (d_k)
READ_SECONDS = 8.0  # CPU seconds to read an answer and evaluate it at the probes
MEMORY_MB = 1024  # for reading or comparing one answer
TOO_LARGE = "the expression is too deep or too large"  # a reason that depends on the memory at hand
# A float turned into a fraction (sympy.Rational(0.7071...), Fraction(x), nsimplify(x, rational=True)) keeps the
# float's digits in a denominator of 2^k or 10^k; the exact answers of the exercises are 0, irrational, or built
# from small whole numbers and d_k, so none has one so large.
FLOAT_DENOMINATOR = 2 ** 20


def float_born(expr) -> list:
    """The fractions in ``expr`` whose denominator is at least FLOAT_DENOMINATOR, as text: a float made a fraction."""
    return [sp.sstr(r) for r in sorted(sp.sympify(expr).atoms(sp.Rational), key=sp.default_sort_key)
            if not r.is_Integer and r.q >= FLOAT_DENOMINATOR]


@dataclass(frozen=True)
class Verdict:
    """The outcome of comparing one exact answer: fraction of credit and words."""

    fraction: float
    message: str
    outcome: Outcome  # PASSED, FAILED, PARTIAL or UNDECIDED (a word read back from a store is made one)
    timed: bool = False  # a time bound was met on the way: another run may decide otherwise

    def __post_init__(self):
        object.__setattr__(self, "outcome", Outcome.read(self.outcome))


def to_expr(value, symbols):
    """A student's value as (SymPy expression or None, reason-if-None)."""
    if isinstance(value, Rejected):
        return None, f"you gave {value.reason}"
    if isinstance(value, bool) or value is None:
        return None, f"you gave {value!r}, not a number"
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            return None, f"you gave {value!r}"
        if isinstance(value, int) and value.bit_length() > MAX_BITS:
            return None, f"your answer could not be read: a number in the answer has more than {MAX_BITS} bits"
        return (sp.Integer(value) if isinstance(value, int) else sp.Float(value)), ""
    if isinstance(value, (SympyText, str)):
        return _read(value.text if isinstance(value, SympyText) else value, _symbols_key(symbols))
    return None, f"you gave a {type(value).__name__}, not a number or SymPy expression"


def _symbols_key(symbols):
    return tuple(sorted(symbols.items()))


def _symbols_text(symbols) -> list:
    """A ``_symbols_key`` as text, for a verdict's key: each name with its symbol's assumptions."""
    return [(n, sp.srepr(s)) for n, s in symbols]


def _read(text, symbols):
    """``to_expr`` of a text: vetted in a bounded process first, then built here (remembered)."""
    key = (digest(text.encode("utf-8", "surrogatepass")), symbols)
    found = _READ.get(key)
    if found is None:
        name = remember.key("read", key[0], _symbols_text(symbols), READ_SECONDS, MEMORY_MB)
        why, past = remember.recall(name), False
        if not isinstance(why, str):
            outcome = bounded.run(_vet, (text, symbols), seconds=READ_SECONDS, memory_mb=MEMORY_MB, warm=_warm)
            why = outcome.value if outcome.ok and isinstance(outcome.value, str) else None
            if why is None:
                why, past = _past_bound(outcome.why, READ_SECONDS), True
            elif why != TOO_LARGE:  # read within every bound (memory and depth among them): the same every time
                remember.keep(name, why)
        found = ((None, f"your answer could not be read: {why}") if why else _build(text, dict(symbols))), past
        _READ.put(key, found, 200 + 10 * len(text))
    if found[1]:
        remember.bound_met()  # stopped at a bound: another run may read it
    return found[0]


def _build(text, symbols):
    try:
        return parse(text, symbols), ""
    except ParseError as exc:
        return None, f"your answer could not be read: {exc}"
    except (RecursionError, MemoryError, OverflowError):
        return None, f"your answer could not be read: {TOO_LARGE}"


def _vet(text, symbols) -> str:
    """In a bounded process: read ``text`` and do what the graders do with it; "" or why not."""
    expr, why = _build(text, dict(symbols))
    if expr is None:
        return why.removeprefix("your answer could not be read: ")
    sp.sstr(expr)
    syms = expr.free_symbols if isinstance(expr, sp.Basic) else set()
    for point in [{s: sp.Integer(p) for s in syms} for p in PROBES] if syms else [{}]:
        with time_limit(1.0):  # as long as graders allow an evaluation (and interruptible as there)
            try:
                expr.xreplace(point).evalf(30)
            except Exception:  # noqa: BLE001 - what fails here fails there too, with its own message
                pass
    return ""


def _past_bound(why, seconds):
    if why == "memory":
        return f"reading and evaluating it took more than {MEMORY_MB} MB of memory"
    if why == "time":
        return f"reading and evaluating it took more than {seconds:g} s"
    return "reading it stopped the process that reads answers"


def compare(expected: sp.Expr, value, *, symbols=None, probes=PROBES, seconds=5.0) -> Verdict:
    """Compare a student's exact answer with the reference ``expected`` (remembered).

    A text answer is compared in a bounded process (graders/bounded/helper.py);
    numbers and unusable values here, where comparing them costs little."""
    symbols = tuple(sorted((symbols or {s.name: s for s in expected.free_symbols}).items()))
    args = (expected, value, symbols, tuple(probes), seconds)
    key = _value_key(value)
    found = None if key is None else _VERDICTS.get((expected, key, *args[2:]))
    if found is None:
        found = _compare_bounded(args, key) if isinstance(value, (SympyText, str)) else _compare(*args)
        if key is not None:
            _VERDICTS.put((expected, key, *args[2:]), found, 300 + len(found.message))
    if found.timed:
        remember.bound_met()  # reached at a time bound: another run may decide otherwise
    return found


def _compare_bounded(args, key) -> Verdict:
    """``compare`` of a text answer: kept across runs once settled, else reached in a bounded process."""
    expected, _, symbols, probes, seconds = args
    name = remember.key("compare", sp.srepr(expected), key, _symbols_text(symbols), probes, seconds,
                        READ_SECONDS, MEMORY_MB)
    found = _verdict(remember.recall(name))
    if found is None:
        outcome = bounded.run(_compare_job, args, seconds=2 * seconds + READ_SECONDS, memory_mb=MEMORY_MB,
                              warm=_warm)
        found = _verdict(outcome.value) if outcome.ok else None
        if found is None:
            found = Verdict(0.0, f"your answer could not be compared: "
                                 f"{_past_bound(outcome.why, 2 * seconds + READ_SECONDS)}, "
                                 f"so it is left for a person to check", Outcome.UNDECIDED, timed=True)
        if not found.timed and found.outcome != Outcome.UNDECIDED:  # settled: the same every time
            remember.keep(name, list(astuple(found)))
    return found


def _value_key(value):
    """A small key for a student's value: texts by their digest; None if it cannot be a key."""
    if isinstance(value, SympyText):
        return "srepr", value.cls, digest(value.text.encode("utf-8", "surrogatepass"))
    if isinstance(value, str):
        return "str", digest(value.encode("utf-8", "surrogatepass"))
    try:
        hash(value)
    except TypeError:  # a list: not remembered
        return None
    return type(value).__name__, value  # typed: True and 1 are different answers


def _verdict(fields):
    """A Verdict from its fields as a job or the store gives them, or None if they are not one."""
    if not (isinstance(fields, list) and len(fields) == 4):
        return None
    fraction, message, outcome, timed = fields
    if (isinstance(fraction, (int, float)) and 0 <= fraction <= 1 and isinstance(message, str)
            and outcome in ("passed", "failed", "partial", "undecided") and isinstance(timed, bool)):
        return Verdict(float(fraction), message, outcome, timed)
    return None


def _compare_job(expected, value, symbols, probes, seconds):
    return list(astuple(_compare(expected, value, symbols, probes, seconds)))


def _warm():
    """In the helper, once: read and compare a typical answer, so each job finds SymPy warm."""
    d = sp.Symbol("d_k", positive=True, integer=True)
    a = sp.exp(1 / sp.sqrt(2)) / (1 + sp.exp(1 / sp.sqrt(2)))
    _vet(sp.srepr(1 / (1 + sp.exp(-1 / sp.sqrt(2)))), ())
    _compare(a, SympyText(sp.srepr(1 / (1 + sp.exp(-1 / sp.sqrt(2)))), "Mul"), (), PROBES, 5.0)
    _compare(d, SympyText(sp.srepr(sp.Sum(1, (sp.Symbol("i"), 1, sp.Symbol("d_k")))), "Sum"),
             (("d_k", d),), PROBES, 5.0)


bounded.expect(_warm)  # graders that read exact answers get the helper started early
_READ = Memo(16 << 20)  # to_expr of texts: charged ~10 bytes of objects per character of text
_VERDICTS = Memo(8 << 20)


def _compare(expected, value, symbols, probes, seconds) -> Verdict:
    """Compare a student's exact answer with the reference ``expected``.

    Full credit for an equal exact expression; half credit for a float that is
    numerically right (an exact form was asked); zero for a wrong value;
    "undecided" when SymPy cannot settle equality within ``seconds``.
    """
    symbols = dict(symbols)
    actual, why = to_expr(value, symbols)
    if actual is None:
        return Verdict(0.0, why, Outcome.FAILED)
    shown = _short(actual)
    extra = sorted(s.name for s in actual.free_symbols if s.name not in symbols)
    if extra:
        return Verdict(0.0, f"you gave {shown}, which uses {', '.join(extra)}; "
                            f"only {', '.join(sorted(symbols)) or 'numbers'} may appear", Outcome.FAILED)
    if expected.free_symbols and actual.is_number:
        names = ", ".join(sorted(s.name for s in expected.free_symbols))
        return Verdict(0.0, f"you gave the number {shown}; the answer must hold for every {names}, "
                            f"so it has to be an expression in {names}", Outcome.FAILED)
    with time_limit(seconds) as timed_out:
        try:
            numeric = _numerically_equal(expected, actual, probes)
        except TimeUp:
            numeric = None
    if timed_out():
        return replace(_judge(expected, actual, shown, None, seconds), timed=True)
    return _judge(expected, actual, shown, numeric, seconds)


def _judge(expected, actual, shown, numeric, seconds) -> Verdict:
    """The verdict on ``actual``, given whether numbers settled it (``numeric``: True, False or None)."""
    if actual.atoms(sp.Float):
        if numeric:
            return Verdict(0.5, f"you gave {shown}: numerically right, but an exact form is expected "
                                f"(use sympy.sqrt, sympy.exp, sympy.Rational, not floats)", Outcome.PARTIAL)
        return Verdict(0.0, f"you gave {shown}, which is not right (and an exact form is expected)", Outcome.FAILED)
    if numeric is False:
        return Verdict(0.0, f"you gave {shown}, which is not right", Outcome.FAILED)
    decided = _equal_within(expected, actual, seconds)
    if decided is True:
        return Verdict(1.0, "", Outcome.PASSED)
    if decided is False:
        return Verdict(0.0, f"you gave {shown}, which is not right", Outcome.FAILED)
    return Verdict(0.0, f"you gave {shown}; SymPy could not decide whether it equals the answer "
                        f"within {seconds:g} s, so it is left for a person to check", Outcome.UNDECIDED)


def _short(expr, limit=120):
    text = sp.sstr(expr)
    return text if len(text) <= limit else text[: limit - 3] + "..."
