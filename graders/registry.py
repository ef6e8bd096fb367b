"""The exercises, in teaching order: the one list every tool reads.

Adding an exercise: write exercises/<slug>.py, solutions/<slug>.py,
graders/<slug>.py (public checks) and graders/hidden/<slug>.py (hidden
checks), then add one line here and run ``attn-grade course build``. ``points`` must equal the sum of
the grader's check points (the project's tests hold this).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Exercise:
    slug: str
    title: str
    points: float
    functions: tuple
    assignment: str  # the nbgrader assignment (course/source/<assignment>/<slug>.ipynb)
    varies: bool = False  # its grader gives each student their own numbers in a course with variants


EXERCISES = (
    Exercise("hand_scores", "Attention by hand: one query, two keys", 8,
             ("scaled_scores", "attention_weights", "attention_output"), "part1_scores", varies=True),
    Exercise("variance_proof", "Why divide by the square root of d_k", 6,
             ("product_mean", "product_variance", "dot_variance", "scaled_dot_variance"), "part1_scores"),
    Exercise("saturation", "Saturation, measured", 8, ("dot_variances", "mean_top_weight"), "part2_saturation"),
    Exercise("worked_example", "The cat sat: a worked example", 8,
             ("scale_scores", "softmax_percent", "head_dim"), "part2_saturation", varies=True),
    Exercise("softmax", "A numerically stable softmax", 10, ("softmax",), "part3_attention"),
    Exercise("attention", "Scaled dot-product attention and masks", 14,
             ("causal_mask", "padding_mask", "attention"), "part3_attention"),
    Exercise("multi_head", "Multi-head attention and cross-attention", 12,
             ("multi_head_attention", "cross_attention"), "part3_attention"),
    Exercise("online_softmax", "Online softmax, block by block", 11, ("online_softmax", "rescale_factor"),
             "part3_attention"),
)

BY_SLUG = {e.slug: e for e in EXERCISES}
ASSIGNMENTS = tuple(dict.fromkeys(e.assignment for e in EXERCISES))  # in teaching order


def of_assignment(name: str) -> tuple:
    """The exercises of one assignment, in teaching order."""
    return tuple(e for e in EXERCISES if e.assignment == name)


def get(slug: str) -> Exercise:
    try:
        return BY_SLUG[slug]
    except KeyError:
        known = ", ".join(BY_SLUG)
        raise KeyError(f"no exercise called {slug!r}; the exercises are: {known}") from None
