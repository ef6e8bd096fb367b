"""Hidden checks for worked_example: they compare with the reference solution and are never shipped."""

import numpy as np

from ..kit import as_int, call_text, check, current_variant, expect, for_all, show, st, weights
from ..worked_example import PERCENT, SCALE, numbers, percent_of, scaled_of, scores_and_dk

# The curriculum's figures and the precision they are stated to (half a unit of the last digit).
SCALED_FIGURES, SCALED_PREC = np.array([0.791, 3.042, 1.693]), 0.0005
WEIGHT_FIGURES, WEIGHT_PREC = np.array([7.7, 73.3, 19.0]), 0.05
SATURATED_FIGURES = np.array([0.0, 99.9, 0.1])
D_MODEL = 24


def cat_sat():
    """(raw scores, their scaled scores, weights and unscaled weights, and the precision of each): the
    curriculum's figures on the seed's numbers; on a variant's, computed here, to the same precision."""
    raw = np.array(numbers().raw)
    if current_variant() == 0:
        return raw, (SCALED_FIGURES, SCALED_PREC), (WEIGHT_FIGURES, WEIGHT_PREC), (SATURATED_FIGURES, WEIGHT_PREC)
    scaled = raw / np.sqrt(D_MODEL)
    return (raw, (np.round(scaled, 3), SCALED_PREC), (np.round(100 * weights(scaled), 1), WEIGHT_PREC),
            (np.round(100 * weights(raw), 1), WEIGHT_PREC))


@check("scale_scores agrees with the reference", 0.5, hidden=True, uses=("scale_scores",))
def scale_matches(sub, ref):
    def prop(case):
        raw, d_k = case
        got, want = scaled_of(sub, raw, d_k), ref.scale_scores(raw, d_k)
        if not np.allclose(got, want, rtol=1e-9, atol=1e-12):
            SCALE.fail(sub, f"called {call_text('scale_scores', raw, d_k)}; got {show(got)}, which is not the scores "
                            f"scaled as attention scales them.")

    for_all(scores_and_dk().filter(lambda c: c[1] > 1), prop, max_examples=20,
            examples=[(np.array([1.0, 2.0]), 4)])


@check("the cat sat: scaled scores and weights", 1, hidden=True, uses=("scale_scores", "softmax_percent"))
def cat_sat_scaled(sub, ref):
    raw, (scaled_figures, scaled_prec), (weight_figures, weight_prec), _ = cat_sat()
    got = scaled_of(sub, raw, D_MODEL)
    call = call_text("scale_scores", raw, D_MODEL)
    if not np.all(np.abs(got - scaled_figures) <= scaled_prec + 1e-9):
        SCALE.fail(sub, f"{call} returned {show(got)}, which does not match the worked example's scaled scores to "
                        f"3 decimals.")
    call, w = percent_of(sub, raw, D_MODEL)
    if not np.all(np.abs(w - weight_figures) <= weight_prec + 1e-9):
        PERCENT.fail(sub, f"{call} returned {show(w)}, which does not match the worked example's weights to 0.1 "
                          "%.", fraction=0.5)


@check("the cat sat: without scaling the softmax saturates", 0.5, hidden=True, uses=("softmax_percent",))
def cat_sat_unscaled(sub, ref):
    raw, _, _, (saturated_figures, prec) = cat_sat()
    call, w = percent_of(sub, raw, D_MODEL, scaled=False)
    if not np.all(np.abs(w - saturated_figures) <= prec + 1e-9):
        PERCENT.fail(sub, f"{call} returned {show(w)}, which does not match the worked example's unscaled weights to "
                          f"0.1 %.")


@check("softmax_percent agrees with the reference", 0.5, hidden=True, uses=("softmax_percent",))
def percent_matches(sub, ref):
    def prop(case):
        (raw, d_k), scaled = case
        call, got = percent_of(sub, raw, d_k, scaled)
        if not np.allclose(got, ref.softmax_percent(raw, d_k, scaled=scaled), rtol=1e-7, atol=1e-9):
            PERCENT.fail(sub, f"called {call}; got {show(got)}, which are not the attention weights in percent.")

    for_all(st.tuples(scores_and_dk(min_len=2).filter(lambda c: c[1] > 1), st.booleans()), prop, max_examples=20)


@check("head_dim: 512 / 8, 24 / 4 and GPT-2's 768 / 12", 0.5, hidden=True, uses=("head_dim",))
def head_dim_figures(sub, ref):
    for d_model, n_heads in ((512, 8), (24, 4), (768, 12)):
        got = sub.call("head_dim", d_model, n_heads)
        call = call_text("head_dim", d_model, n_heads)
        got = as_int(call, got)
        expect(got == ref.head_dim(d_model, n_heads), f"{call} returned {got}, which is not the size of each head")
