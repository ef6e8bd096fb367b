"""Hypothesis, imported only when a property is drawn live; SymPy, only when a check uses it.

A replayed check (graders/grading/plans.py) is served its recorded inputs and
never draws, so a learner's re-check need not pay for importing Hypothesis
(a fifth of a second). ``st`` and ``hnp`` stand in for hypothesis.strategies
and hypothesis.extra.numpy in the graders: each call gives a ``Deferred``, the
recipe of a strategy, built for real by ``resolve`` when kit/props.py draws
live. Its methods (map, filter, flatmap, |) defer too, and the body of a
``st.composite`` strategy gets a ``draw`` that resolves what it is given. The
strategies built are exactly those an eager import would build, so the
examples drawn, and the grades, are the same.

``module("sympy")`` is SymPy, imported at the first use of any of its names:
a re-check whose passes are all remembered (plans.py) runs no check of an
exact exercise, and so never pays the 0.3 to 0.4 s SymPy takes to import.
Not importlib's LazyLoader: an import it makes that is interrupted (Ctrl-C)
leaves a half-made module in sys.modules for good. ``load`` imports at once,
before anything whose own interruption would be taken for an answer's
(time_limit's alarm).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys

__all__ = ["st", "hnp", "module", "load", "ready", "grading", "resolve", "Deferred"]


_SETTINGS = []  # the grading settings, once Hypothesis is imported


class _Later:
    """Stands for a module not imported yet: the first name asked of it imports it."""

    def __init__(self, name: str):
        self._name, self._module = name, None

    def __getattr__(self, attr):  # only names the stand-in itself lacks: the module's
        if self._module is None:
            # the import statement's own machinery: interrupted (Ctrl-C), it leaves no half-made
            # module behind, and the next use imports it again
            self._module = importlib.import_module(self._name)
        return getattr(self._module, attr)

    def __repr__(self):
        return f"<module {self._name!r}, imported at first use>" if self._module is None else repr(self._module)


def module(name: str):
    """The module ``name``: the one already imported, else a stand-in that imports it at its first use."""
    found = sys.modules.get(name)
    if found is not None:
        return found
    if importlib.util.find_spec(name) is None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)  # as the import statement says
    return _Later(name)


def load(lazy) -> None:
    """Finish importing a module from ``module`` now (nothing happens if it is done)."""
    getattr(lazy, "__name__")


def ready():
    """The hypothesis module, imported for grading on first use: its local-constants pool emptied."""
    import hypothesis

    if not _SETTINGS:
        _no_local_constants()
        from hypothesis import HealthCheck, Phase, Verbosity, settings

        _SETTINGS.append(settings(
            derandomize=True,
            database=None,
            deadline=None,
            max_examples=40,
            print_blob=False,
            verbosity=Verbosity.quiet,
            phases=(Phase.explicit, Phase.generate, Phase.shrink),
            suppress_health_check=list(HealthCheck),
            report_multiple_bugs=False,
        ))
    return hypothesis


def grading():
    """The settings every property is checked under: derandomized, no database, no deadline, quiet."""
    ready()
    return _SETTINGS[0]


def _no_local_constants():
    """Hypothesis mixes numbers found in the source of every "local" module loaded in this
    process into the examples it draws, so the examples (and a grade) would depend on which
    of our modules happen to be imported, and on where the project is installed. Grades
    must not, so that pool is kept empty. (Hypothesis's own constants stay: they are fixed
    for a given version, which pyproject.toml pins.)"""
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:  # a Hypothesis without the feature: nothing to do
        return
    if hasattr(providers, "_get_local_constants") and hasattr(providers, "Constants"):
        empty = providers.Constants()
        providers._get_local_constants = lambda: empty


class Deferred:
    """A strategy not built yet."""

    __slots__ = ("_make", "_built")

    def __init__(self, make):
        self._make, self._built = make, None

    def resolve(self):
        if self._built is None:
            ready()
            self._built = self._make()
        return self._built

    def map(self, f):
        return Deferred(lambda: self.resolve().map(f))

    def filter(self, f):
        return Deferred(lambda: self.resolve().filter(f))

    def flatmap(self, f):
        return Deferred(lambda: self.resolve().flatmap(lambda x: resolve(f(x))))

    def __or__(self, other):
        return Deferred(lambda: self.resolve() | resolve(other))


def resolve(x):
    """``x`` with every Deferred in it (in tuples, lists and dicts too) built."""
    if isinstance(x, Deferred):
        return x.resolve()
    if isinstance(x, (tuple, list)):
        return type(x)(resolve(i) for i in x)
    if isinstance(x, dict):
        return {k: resolve(v) for k, v in x.items()}
    return x


class _Module:
    """hypothesis.strategies or hypothesis.extra.numpy, whose functions give Deferred strategies."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        def deferred(*args, **kwargs):
            def make():
                return getattr(importlib.import_module(self._name), attr)(*resolve(args), **resolve(kwargs))
            return Deferred(make)
        deferred.__name__ = attr
        return deferred

    def composite(self, fn):
        """st.composite, deferred: the body's ``draw`` resolves the strategies it is given."""
        def strategy(*args, **kwargs):
            def make():
                ready()
                real = importlib.import_module("hypothesis.strategies")

                def body(draw, *a, **k):
                    return fn(lambda s, *rest: draw(resolve(s), *rest), *a, **k)
                body.__name__, body.__qualname__, body.__doc__ = fn.__name__, fn.__qualname__, fn.__doc__
                return real.composite(body)(*args, **kwargs)
            return Deferred(make)
        strategy.__name__, strategy.__doc__ = fn.__name__, fn.__doc__
        return strategy


st = _Module("hypothesis.strategies")
hnp = _Module("hypothesis.extra.numpy")
