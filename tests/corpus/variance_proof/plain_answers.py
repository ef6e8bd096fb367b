"""Right, the answers a student who did the proof on paper types in: plain ints 0 and 1, the module's
symbol d_k itself for Var(q·k), and sympy.Integer(1) for the scaled variance."""
# source: style the lessons invite (the stub: "as SymPy values or plain integers")
# license: n/a
# adapted: n/a
import sympy

d_k = sympy.Symbol("d_k", positive=True, integer=True)


def product_mean():
    return 0


def product_variance():
    return 1


def dot_variance():
    return d_k


def scaled_dot_variance():
    return sympy.Integer(1)
