"""ChosenRng (graders/sandbox/chosen_rng.py): a real NumPy generator whose normal draws are chosen_rng.

It crosses the wire as an MT19937 state, which the worker validates and sets; the saturation
overflow check relies on every draw being the chosen value, so an unshifted softmax overflows
on every run (issue 24, item 4)."""

import json
from pathlib import Path

import numpy as np
import pytest

from graders import saturation
from graders.grading.engine import grade_file
from graders.kit import ChosenRng, call_text
from graders.sandbox import chosen_rng, wire
from graders.sandbox.inside import worker

V = saturation.BIG
N = ChosenRng.DRAWS


def _through_the_wire(rng):
    """What the worker hands the student: the parent's encoding, as JSON, decoded as the worker does."""
    return worker.decode(json.loads(json.dumps(wire.encode(rng))))


def _fresh():
    return chosen_rng.generator(chosen_rng.state_for(V))


def test_untemper_inverts_tempering():
    def temper(y):
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return (y ^ (y >> 18)) & chosen_rng.MASK
    rs = np.random.default_rng(5)
    for y in [0, 1, chosen_rng.MASK, 0x80000000, *map(int, rs.integers(0, 2 ** 32, 500))]:
        assert temper(chosen_rng.untemper(y)) == y and chosen_rng.untemper(temper(y)) == y


def test_the_outputs_are_the_chosen_ones():
    outputs = [int(x) for x in np.random.default_rng(6).integers(0, 2 ** 32, chosen_rng.WORDS)]
    gen = chosen_rng.generator({"key": chosen_rng.key_for(outputs), "pos": 0})
    assert [int(gen.bit_generator.random_raw()) for _ in outputs] == outputs


@pytest.mark.parametrize("make", [_fresh, lambda: _through_the_wire(ChosenRng(V))], ids=["parent", "wire"])
def test_every_draw_of_the_prefix_is_the_value(make):
    assert isinstance(make(), np.random.Generator)
    assert np.all(make().standard_normal(N) == V)
    assert np.all(make().standard_normal((3, 4, 26)) == V)  # 312 in any shape
    assert [make().standard_normal() for _ in range(3)] == [V] * 3
    gen = make()  # scalars, arrays and normal(), in any order, up to the prefix
    parts = [gen.standard_normal(), gen.standard_normal((2, 3)), gen.normal(size=5), gen.normal(1.5, 2.0, (4, 2)),
             gen.standard_normal(7), gen.normal(-1.0, 0.5), gen.standard_normal((N - 1 - 6 - 5 - 8 - 7 - 1,))]
    expected = [V, V, V, 1.5 + 2.0 * V, V, -1.0 + 0.5 * V, V]
    for got, want in zip(parts, expected):
        assert np.all(np.asarray(got) == want)
    assert gen.bit_generator.state["state"]["pos"] == chosen_rng.WORDS  # exactly the chosen outputs were used


def test_other_values_and_signs():
    for v in (-V, 1.0, 0.0, -0.5, 2.5):
        gen = chosen_rng.generator(chosen_rng.state_for(v))
        assert np.all(gen.standard_normal(N) == v)


def test_a_value_no_draw_gives_is_refused_in_the_parent():
    for v in (float("nan"), float("inf"), 1e300):
        with pytest.raises(ValueError):
            ChosenRng(v)


def test_it_reads_as_a_generator_in_feedback_and_encodes_stably():
    assert "all 3.2" in call_text("f", ChosenRng(V))
    assert ChosenRng(V) == ChosenRng(V) and hash(ChosenRng(V)) == hash(ChosenRng(V))
    sent = wire.encode(ChosenRng(V))
    assert sent == wire.encode(ChosenRng(V)) and list(sent) == ["__mt19937__"]
    assert len(sent["__mt19937__"]["key"]) == chosen_rng.WORDS and sent["__mt19937__"]["pos"] == 0


def _state(**change):
    state = dict(chosen_rng.state_for(V))
    state.update(change)
    return state


GOOD = chosen_rng.state_for(V)["key"]
MALFORMED = [
    None, [], "state", {"key": GOOD}, {"pos": 0}, _state(extra=1), _state(key=GOOD[:-1]), _state(key=GOOD + [0]),
    _state(key=[-1] + GOOD[1:]), _state(key=[2 ** 32] + GOOD[1:]), _state(key=[1.0] + GOOD[1:]),
    _state(key=[True] + GOOD[1:]), _state(key=["1"] + GOOD[1:]), _state(key=tuple(GOOD)), _state(key={"a": 1}),
    _state(pos=-1), _state(pos=625), _state(pos=1.0), _state(pos=True), _state(pos="0"), _state(pos=None),
]


@pytest.mark.parametrize("state", MALFORMED, ids=range(len(MALFORMED)))
def test_a_malformed_state_is_a_protocol_error(state):
    with pytest.raises(ValueError):
        worker.decode({"__mt19937__": state})


def test_the_worker_calls_with_a_good_state_and_refuses_a_malformed_one():
    """The worker's ``call`` raises on a malformed request; ``serve`` answers that as its own failure."""
    module = type("M", (), {"f": staticmethod(lambda rng: float(rng.standard_normal()))})
    ok = worker.call(module, "<test>", {"func": "f", "args": [wire.encode(ChosenRng(V))]})
    assert ok == {"ok": True, "value": V}
    with pytest.raises(ValueError):
        worker.call(module, "<test>", {"func": "f", "args": [{"__mt19937__": _state(pos=625)}]})
    assert worker.decode({"__mt19937__": _state(pos=624)}).standard_normal() != V  # it twists: not chosen


STABLE = '''import numpy as np
def mean_top_weight(d_k, n_keys, trials, rng, scaled=True):
    q = rng.standard_normal((trials, 1, d_k))
    k = rng.standard_normal((trials, n_keys, d_k))
    s = np.einsum("tqd,tkd->tk", q, k) / (np.sqrt(d_k) if scaled else 1.0)
    w = np.exp(s{shift})
    return float((w / w.sum(axis=1, keepdims=True)).max(axis=1).mean())
'''


@pytest.mark.parametrize("shift,passes", [(" - s.max(axis=1, keepdims=True)", True), ("", False)])
def test_the_overflow_check_tells_stable_from_unstable_every_time(shift, passes):
    """The check's call itself: the unshifted softmax gives nan, the shifted one 1/2, whatever runs before."""
    namespace = {}
    exec(STABLE.format(shift=shift), namespace)
    fn = namespace["mean_top_weight"]
    for _ in range(3):
        with np.errstate(over="ignore", invalid="ignore"):
            v = fn(100, 2, 1, _through_the_wire(ChosenRng(V)), scaled=False)
        assert (v == 0.5) if passes else np.isnan(v)


def test_the_unshifted_mutant_loses_the_overflow_check_with_its_diagnosis():
    mutants = Path(__file__).parent / "mutants" / "saturation"
    result = grade_file("saturation", mutants / "no_max_shift.py")
    check = next(c for c in result.checks if c.name.startswith("mean_top_weight stays finite"))
    assert check.points == 0 and "returned nan" in check.message and saturation.OVERFLOW in check.message
    reference = grade_file("saturation", Path(__file__).parents[1] / "solutions" / "saturation.py")
    assert next(c for c in reference.checks if c.name == check.name).passed
