"""Exact answers as text, read without eval: a whitelisting parser.

A student's SymPy object reaches the parent as its ``srepr`` text; an answer
typed as a string ("1/sqrt(2)") is text too. ``parse`` walks Python's AST and
builds SymPy objects itself from a short list of allowed names and node types:
nothing is ever eval'd. Symbols are matched to the reference's symbols by
name, so ``Symbol("d_k")`` without assumptions counts as the reference's
positive integer ``d_k``.
"""

from __future__ import annotations

import ast
import math

import sympy as sp

MAX_TEXT = 20_000
MAX_NODES = 2_000
MAX_INT_DIGITS = 60
MAX_EXPONENT = 1_000

_FUNCTIONS = {
    "Add": lambda *a: sp.Add(*a), "Mul": lambda *a: sp.Mul(*a), "Pow": lambda b, e: sp.Pow(b, e),
    "exp": sp.exp, "log": sp.log, "sqrt": sp.sqrt, "Abs": sp.Abs, "sin": sp.sin, "cos": sp.cos,
    "Integer": sp.Integer, "Rational": sp.Rational, "Float": sp.Float, "Tuple": lambda *a: sp.Tuple(*a),
    "Sum": sp.Sum, "Max": sp.Max, "Min": sp.Min,
}
_CONSTANTS = {
    "pi": sp.pi, "E": sp.E, "I": sp.I, "ImaginaryUnit": sp.I, "Half": sp.S.Half, "One": sp.S.One, "Zero": sp.S.Zero,
    "NegativeOne": sp.S.NegativeOne, "Exp1": sp.E, "Pi": sp.pi, "oo": sp.oo, "Infinity": sp.oo,
    "e": sp.E,
}
_SYMBOL_MAKERS = {"Symbol", "Dummy"}


class ParseError(ValueError):
    """The text is not an expression built from the allowed pieces."""


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
    except SyntaxError:
        raise ParseError(f"{text[:80]!r} is not a mathematical expression") from None
    if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
        raise ParseError("the expression is too large")
    return _Builder(symbols).build(tree.body)


class _Builder:
    def __init__(self, symbols):
        self.symbols = symbols

    def symbol(self, name):
        if not isinstance(name, str) or not name.isidentifier():
            raise ParseError(f"bad symbol name {name!r}")
        return self.symbols.get(name) or sp.Symbol(name)

    def build(self, node):
        if isinstance(node, ast.Constant):
            return self.constant(node.value)
        if isinstance(node, ast.Name):
            if node.id in _CONSTANTS:
                return _CONSTANTS[node.id]
            return self.symbol(node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            x = self.build(node.operand)
            return -x if isinstance(node.op, ast.USub) else x
        if isinstance(node, ast.BinOp):
            return self.binop(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Tuple):
            return sp.Tuple(*[self.build(e) for e in node.elts])
        raise ParseError(f"{type(node).__name__} is not allowed in an answer")

    def constant(self, value):
        if isinstance(value, str):
            # anywhere else SymPy would sympify (eval) it: ("__import__('os')...",) built a Tuple
            raise ParseError("text is allowed in an answer only as Float('0.5') or Symbol('x')")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ParseError(f"the constant {value!r} is not allowed")
        if isinstance(value, int):
            if len(str(abs(value))) > MAX_INT_DIGITS:
                raise ParseError("an integer in the answer is too large")
            return sp.Integer(value)
        if isinstance(value, float):
            if not math.isfinite(value):
                raise ParseError("the answer contains nan or inf")
            return sp.Float(value)

    def binop(self, node):
        a, b = self.build(node.left), self.build(node.right)
        op = node.op
        if isinstance(op, ast.Add):
            return a + b
        if isinstance(op, ast.Sub):
            return a - b
        if isinstance(op, ast.Mult):
            return a * b
        if isinstance(op, ast.Div):
            return a / b
        if isinstance(op, ast.Pow):
            self.check_exponent(b)
            return a**b
        raise ParseError(f"the operator {type(op).__name__} is not allowed")

    @staticmethod
    def check_exponent(e):
        if isinstance(e, sp.Number) and abs(e) > MAX_EXPONENT:
            raise ParseError("an exponent in the answer is too large")

    def call(self, node):
        if not isinstance(node.func, ast.Name):
            raise ParseError("only plain function names are allowed")
        name = node.func.id
        if name in _SYMBOL_MAKERS:
            if len(node.args) != 1 or not isinstance(node.args[0], ast.Constant):
                raise ParseError("Symbol takes one name")
            return self.symbol(node.args[0].value)  # assumptions are ignored: names match
        if name not in _FUNCTIONS:
            raise ParseError(f"{name}() is not supported in an answer; give a closed form")
        for kw in node.keywords:  # only Float(..., precision=53) carries keywords we accept
            if name != "Float" or kw.arg not in ("precision", "dps"):
                raise ParseError(f"{name}() with keyword {kw.arg!r} is not supported")
        if name == "Float" and len(node.args) == 1 and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            return sp.Float(node.args[0].value)
        args = [self.build(a) for a in node.args]
        if name == "Pow" and len(args) == 2:
            self.check_exponent(args[1])
        if name in ("Integer", "Rational") and not all(isinstance(a, (sp.Integer, int)) for a in args):
            raise ParseError(f"{name}() takes whole numbers")
        if name == "Float":
            if len(args) != 1 or not isinstance(args[0], (sp.Float, sp.Integer)):
                raise ParseError("bad Float")
            return sp.Float(args[0])
        try:
            return _FUNCTIONS[name](*args)
        except (TypeError, ValueError) as exc:
            raise ParseError(f"{name}(...) could not be built: {exc}") from None
