# A tuple of strings: SymPy's Tuple sympifies (evals) each string it is given.
RUN = "__import__('os').system('touch @@MARKER@@')"


def scaled_scores():
    return (f"({RUN!r},)", f"({RUN!r}, {RUN!r})")


def attention_weights():
    return (f"Tuple({RUN!r}, {RUN!r})", f"-({RUN!r},)")


def attention_output():
    return (f"Max({RUN!r}, 1)", f"Sum({RUN!r}, (Symbol('i'), 1, 2))")
