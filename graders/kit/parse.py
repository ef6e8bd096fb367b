"""Exact answers as text, read without eval: a whitelisting parser with bounded cost.

A student's SymPy object reaches the parent as its ``srepr`` text; an answer
typed as a string ("1/sqrt(2)") is text too. ``parse`` walks Python's AST and
builds SymPy objects itself from a short list of allowed names and node types:
nothing is ever eval'd. Symbols are matched to the reference's symbols by
name, so ``Symbol("d_k")`` without assumptions counts as the reference's
positive integer ``d_k``.

What building an answer may cost is bounded before anything is computed, from
the text alone, so the same answer is refused on every machine: its length,
node count and nesting depth; every integer written in it; the size in bits of
every exact number SymPy would compute while building it (an upper bound is
carried up the tree: sums and products add sizes, a power multiplies the
size of its base by its exponent), so ``((10**1000)**1000)**1000`` is refused
before the first multiplication; and a Float's text, which must be a plain
decimal with a bounded number of digits and a bounded exponent
(``Float('1e1000000000')`` would otherwise be converted exactly).
"""

from __future__ import annotations

import ast
import math
import re
from functools import lru_cache
from typing import NamedTuple

from .lazy import module

sp = module("sympy")  # imported at first use (kit/lazy.py)

MAX_TEXT = 20_000
MAX_NODES = 2_000
MAX_DEPTH = 100  # nesting of the expression's syntax tree
MAX_INT_DIGITS = 60  # of an integer written in the answer
MAX_EXPONENT = 1_000
MAX_BITS = 1_024  # of the numerator and of the denominator of any exact number built
MAX_FLOAT_DIGITS = 100
MAX_FLOAT_EXPONENT = 1_000
_FLOAT_TEXT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]{1,6})?")


@lru_cache(maxsize=None)
def _names():
    """(the functions, the constants) an answer may name: built at the first answer read, so that
    SymPy is imported only then (kit/lazy.py)."""
    functions = {
        "Add": lambda *a: sp.Add(*a), "Mul": lambda *a: sp.Mul(*a), "Pow": lambda b, e: sp.Pow(b, e),
        "exp": sp.exp, "log": sp.log, "sqrt": sp.sqrt, "Abs": sp.Abs, "sin": sp.sin, "cos": sp.cos,
        "Integer": sp.Integer, "Rational": sp.Rational, "Float": sp.Float, "Tuple": lambda *a: sp.Tuple(*a),
        "Sum": sp.Sum, "Max": sp.Max, "Min": sp.Min,
        # Elementary functions SymPy rewrites and compares (an equal form with tanh or cosh counts too); nothing
        # that grows without bound in evaluation cost (no factorial, gamma or binomial).
        "sinh": sp.sinh, "cosh": sp.cosh, "tanh": sp.tanh, "coth": sp.coth, "sech": sp.sech, "csch": sp.csch,
        "tan": sp.tan, "cot": sp.cot, "sec": sp.sec, "csc": sp.csc,
        "asin": sp.asin, "acos": sp.acos, "atan": sp.atan, "acot": sp.acot, "atan2": sp.atan2,
        "asinh": sp.asinh, "acosh": sp.acosh, "atanh": sp.atanh,
        "root": sp.root, "cbrt": sp.cbrt, "sign": sp.sign,
    }
    constants = {
        "pi": sp.pi, "E": sp.E, "I": sp.I, "ImaginaryUnit": sp.I, "Half": sp.S.Half, "One": sp.S.One, "Zero": sp.S.Zero,
        "NegativeOne": sp.S.NegativeOne, "Exp1": sp.E, "Pi": sp.pi, "oo": sp.oo, "Infinity": sp.oo,
        "e": sp.E,
    }
    return functions, constants


_SYMBOL_MAKERS = {"Symbol", "Dummy"}


class ParseError(ValueError):
    """The text is not an expression built from the allowed pieces."""


class _Part(NamedTuple):
    """A built piece and an upper bound on the bits of the exact numbers in it."""

    expr: object
    num: int = 1  # bits of any numerator
    den: int = 0  # bits of any denominator


def parse(text: str, symbols: dict) -> sp.Expr:
    """Build a SymPy expression from ``text`` (srepr or plain maths) without eval.

    ``symbols`` maps a name to the reference's Symbol; any other symbol name is
    kept as a plain Symbol so that a wrong variable shows up as wrong, not as
    a crash.
    """
    if len(text) > MAX_TEXT:
        raise ParseError(f"the expression is {len(text)} characters long")
    try:
        tree = ast.parse(text.replace("^", "**").strip(), mode="eval")
    except SyntaxError as exc:
        if "too many nested" in str(exc) or "too complex" in str(exc):
            raise ParseError("the expression is nested too deeply") from None
        raise ParseError(f"{text[:80]!r} is not a mathematical expression") from None
    except (MemoryError, RecursionError, ValueError):  # Python's own parser gave up
        raise ParseError("the expression is nested too deeply") from None
    _check_shape(tree)
    return _Builder(symbols).build(tree.body).expr


def _check_shape(tree):
    """Refuse a syntax tree with too many nodes or nested too deeply (without recursion)."""
    nodes, stack = 0, [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            raise ParseError("the expression is too large")
        if depth > MAX_DEPTH:
            raise ParseError("the expression is nested too deeply")
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))


def _bounded(num, den):
    if max(num, den) > MAX_BITS:
        raise ParseError(f"a number in the answer would have more than {MAX_BITS} bits")
    return num, den


def _sum_size(parts):
    """Sums: numerators grow by the other terms' denominators, denominators multiply."""
    den = sum(p.den for p in parts)
    return _bounded(max((p.num for p in parts), default=1) + den + len(parts).bit_length(), den)


def _product_size(parts):
    return _bounded(sum(p.num for p in parts), sum(p.den for p in parts))


def _power_size(base, exp):
    """A power of an exact number is computed at once: its size is the base's times |p| of p/q."""
    e = exp.expr
    if isinstance(e, sp.Number) and abs(e) > MAX_EXPONENT:
        raise ParseError("an exponent in the answer is too large")
    if isinstance(e, sp.Rational):
        p = max(abs(int(e.p)), 1)
        if isinstance(base.expr, sp.Rational):  # the base is known: log2 of it, not its bit count
            num, den = (math.ceil(p * math.log2(max(abs(int(n)), 1))) for n in (base.expr.p, base.expr.q))
        else:
            num, den = base.num * p, base.den * p
        return _bounded(*((den, num) if e < 0 else (num, den)))
    return _bounded(base.num + exp.num, base.den + exp.den)


def _float_text(text):
    """The text of a Float: a plain decimal with bounded digits and exponent."""
    text = text.strip()
    if not _FLOAT_TEXT.fullmatch(text):
        raise ParseError("Float() takes a decimal number such as '0.5' or '2.5e-3'")
    mantissa, _, exponent = text.lower().partition("e")
    if sum(c.isdigit() for c in mantissa) > MAX_FLOAT_DIGITS or (exponent and abs(int(exponent)) > MAX_FLOAT_EXPONENT):
        raise ParseError(f"a Float in the answer has more than {MAX_FLOAT_DIGITS} digits or an exponent "
                         f"beyond ±{MAX_FLOAT_EXPONENT}")
    return text


class _Builder:
    def __init__(self, symbols):
        self.symbols = symbols

    def symbol(self, name):
        if not isinstance(name, str) or not name.isidentifier():
            raise ParseError(f"bad symbol name {name!r}")
        return _Part(self.symbols.get(name) or sp.Symbol(name))

    def build(self, node) -> _Part:
        if isinstance(node, ast.Constant):
            return self.constant(node.value)
        if isinstance(node, ast.Name):
            if node.id in _names()[1]:
                c = _names()[1][node.id]
                if isinstance(c, sp.Rational):
                    return _Part(c, max(int(c.p).bit_length(), 1), int(c.q).bit_length() - 1)
                return _Part(c)
            return self.symbol(node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            x = self.build(node.operand)
            return x._replace(expr=-x.expr) if isinstance(node.op, ast.USub) else x
        if isinstance(node, ast.BinOp):
            return self.binop(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Tuple):
            parts = [self.build(e) for e in node.elts]
            return _Part(sp.Tuple(*[p.expr for p in parts]), max((p.num for p in parts), default=1),
                         max((p.den for p in parts), default=0))
        raise ParseError(f"{type(node).__name__} is not allowed in an answer")

    def constant(self, value) -> _Part:
        if isinstance(value, str):
            # anywhere else SymPy would sympify (eval) it: ("__import__('os')...",) built a Tuple
            raise ParseError("text is allowed in an answer only as Float('0.5') or Symbol('x')")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ParseError(f"the constant {value!r} is not allowed")
        if isinstance(value, int):
            if len(str(abs(value))) > MAX_INT_DIGITS:
                raise ParseError("an integer in the answer is too large")
            return _Part(sp.Integer(value), max(value.bit_length(), 1))
        if not math.isfinite(value):
            raise ParseError("the answer contains nan or inf")
        return _Part(sp.Float(value))  # not exact: powers of it do not grow

    def binop(self, node) -> _Part:
        a, b = self.build(node.left), self.build(node.right)
        op = node.op
        # each size is bounded before SymPy computes anything
        if isinstance(op, (ast.Add, ast.Sub)):
            size = _sum_size((a, b))
            return _Part(a.expr + b.expr if isinstance(op, ast.Add) else a.expr - b.expr, *size)
        if isinstance(op, ast.Mult):
            size = _product_size((a, b))
            return _Part(a.expr * b.expr, *size)
        if isinstance(op, ast.Div):
            size = _product_size((a, _Part(b.expr, b.den, b.num)))
            return _Part(a.expr / b.expr, *size)
        if isinstance(op, ast.Pow):
            size = _power_size(a, b)
            return _Part(a.expr**b.expr, *size)
        raise ParseError(f"the operator {type(op).__name__} is not allowed")

    def call(self, node) -> _Part:
        if not isinstance(node.func, ast.Name):
            raise ParseError("only plain function names are allowed")
        name = node.func.id
        if name in _SYMBOL_MAKERS:
            if len(node.args) != 1 or not isinstance(node.args[0], ast.Constant):
                raise ParseError("Symbol takes one name")
            return self.symbol(node.args[0].value)  # assumptions are ignored: names match
        if name not in _names()[0]:
            raise ParseError(f"{name}() is not supported in an answer; give a closed form")
        for kw in node.keywords:  # only Float(..., precision=53) carries keywords we accept
            if name != "Float" or kw.arg not in ("precision", "dps"):
                raise ParseError(f"{name}() with keyword {kw.arg!r} is not supported")
        if name == "Float":
            return self.float(node.args)
        parts = [self.build(a) for a in node.args]
        args = [p.expr for p in parts]
        if name in ("Integer", "Rational") and not all(isinstance(a, (sp.Integer, int)) for a in args):
            raise ParseError(f"{name}() takes whole numbers")
        size = self.size(name, parts)
        try:
            return _Part(_names()[0][name](*args), *size)
        except (TypeError, ValueError) as exc:
            raise ParseError(f"{name}(...) could not be built: {exc}") from None

    def float(self, nodes) -> _Part:
        """Float('0.5') (the text checked by _float_text), Float(2) or Float(0.5)."""
        if len(nodes) != 1:
            raise ParseError("bad Float")
        if isinstance(nodes[0], ast.Constant) and isinstance(nodes[0].value, str):
            return _Part(sp.Float(_float_text(nodes[0].value)))
        x = self.build(nodes[0]).expr
        if not isinstance(x, (sp.Float, sp.Integer)):
            raise ParseError("bad Float")
        return _Part(sp.Float(x))

    @staticmethod
    def size(name, parts):
        """Bits of the exact numbers that calling ``name`` on ``parts`` may compute."""
        if name in ("Pow", "root") and len(parts) == 2:  # root(x, n) is x**(1/n): its n bounded alike
            return _power_size(*parts)
        if name == "Add":
            return _sum_size(parts)
        if name == "Rational" and len(parts) == 2:
            return _bounded(parts[0].num, parts[1].num)
        if name == "Tuple":
            return max((p.num for p in parts), default=1), max((p.den for p in parts), default=0)
        return _product_size(parts)  # Mul, and functions of their arguments: no larger than these
