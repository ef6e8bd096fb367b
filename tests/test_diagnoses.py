"""The graders' hints can be trusted: their probes tell every known mistake apart.

A Catalogue (graders/kit/catalogue.py) names a mistake only when the student's
function follows that mistake's model on every probe. That is only sound if,
on the probes, no two models agree everywhere, and no model agrees with the
reference solution everywhere; and every model must give an answer somewhere.
"""

from __future__ import annotations

import importlib
import itertools

import numpy as np
import pytest

from graders import registry
from graders.grading.engine import reference
from graders.kit.catalogue import Catalogue, Mistake, _model
from graders.kit.checks import Rng


def catalogues():
    found = []
    for e in registry.EXERCISES:
        module = importlib.import_module(f"graders.{e.slug}")
        for name, value in vars(module).items():
            if isinstance(value, Catalogue):
                found.append(pytest.param(e.slug, value, id=f"{e.slug}.{name}"))
    return found


CATALOGUES = catalogues()


def _argument(a):
    """What the worker would hand the function: arrays copied, an Rng made a generator."""
    return a.copy() if isinstance(a, np.ndarray) else np.random.default_rng(a.seed) if isinstance(a, Rng) else a


def _reference_answers(slug, catalogue):
    fn = getattr(reference(slug), catalogue.func)
    out = []
    for args, kwargs in catalogue.probes:
        answer = fn(*[_argument(a) for a in args], **{k: _argument(v) for k, v in kwargs.items()})
        out.append(catalogue.read(answer) if catalogue.read else answer)
    return out


def _answers(catalogue, mistake):
    return [_model(mistake, a, k) for a, k in catalogue.probes]


def test_there_are_catalogues_for_the_array_exercises():
    slugs = {p.values[0] for p in CATALOGUES}
    assert {"softmax", "attention", "multi_head", "worked_example", "saturation"} <= slugs


@pytest.mark.parametrize("slug,catalogue", CATALOGUES)
def test_every_model_answers_some_probe_and_differs_from_the_reference(slug, catalogue, record_property):
    record_property("catalogue", {"slug": slug, "func": catalogue.func, "named": len({m.says for m in catalogue.mistakes})})
    ref = _reference_answers(slug, catalogue)
    for m in catalogue.mistakes:
        got = _answers(catalogue, m)
        assert any(g is not None for g in got), f"{m.says!r} gives no answer on any probe"
        assert not all(catalogue.follows(r, g) for r, g in zip(ref, got)), \
            f"on every probe {m.says!r} gives the reference's answer: the probes cannot see this mistake"


@pytest.mark.parametrize("slug,catalogue", CATALOGUES)
def test_the_probes_tell_every_two_mistakes_apart(slug, catalogue):
    answers = {id(m): _answers(catalogue, m) for m in catalogue.mistakes}
    for a, b in itertools.combinations(catalogue.mistakes, 2):
        if a.says == b.says:  # two ways to make one mistake may well agree
            continue
        same = all((x is None and y is None) or (x is not None and y is not None and catalogue.same(x, y))
                   for x, y in zip(answers[id(a)], answers[id(b)]))
        assert not same, f"no probe tells {a.says!r} from {b.says!r}"


def test_a_hint_needs_every_probe():
    """identify() names a mistake only when the function follows its model on all probes."""
    probes = (((np.array([1.0, 2.0]),), {}), ((np.array([3.0, -1.0]),), {}))
    doubled, negated = Mistake("x is doubled", lambda x: 2 * x), Mistake("x is negated", lambda x: -x)
    cat = Catalogue("f", probes, (doubled, negated))

    class Sub:
        def __init__(self, fn):
            self.fn = fn

        def call(self, func, *args, **kwargs):
            return self.fn(*args)

    assert cat.identify(Sub(lambda x: 2 * x)) is doubled
    assert cat.identify(Sub(lambda x: -x)) is negated
    assert cat.identify(Sub(lambda x: 2 * x if x[0] == 1 else x)) is None  # doubles on one probe only
    assert cat.hint(Sub(lambda x: x)) == ""
    assert cat.hint(Sub(lambda x: 2 * x)) == " It looks like x is doubled."
