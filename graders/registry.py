"""The exercises, in teaching order: the one list every tool reads.

Adding an exercise: write exercises/<slug>.py, solutions/<slug>.py and
graders/<slug>.py, then add one line here. ``points`` must equal the sum of
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


EXERCISES = (
    Exercise("hand_scores", "Attention by hand: one query, two keys", 8,
             ("scaled_scores", "attention_weights", "attention_output")),
    Exercise("variance_proof", "Why divide by the square root of d_k", 6,
             ("product_mean", "product_variance", "dot_variance", "scaled_dot_variance")),
    Exercise("saturation", "Saturation, measured", 8, ("dot_variances", "mean_top_weight")),
    Exercise("worked_example", "The cat sat: a worked example", 8,
             ("scale_scores", "softmax_percent", "head_dim")),
    Exercise("softmax", "A numerically stable softmax", 10, ("softmax",)),
    Exercise("attention", "Scaled dot-product attention and masks", 14,
             ("causal_mask", "padding_mask", "attention")),
    Exercise("multi_head", "Multi-head attention and cross-attention", 12,
             ("multi_head_attention", "cross_attention")),
)

BY_SLUG = {e.slug: e for e in EXERCISES}


def get(slug: str) -> Exercise:
    try:
        return BY_SLUG[slug]
    except KeyError:
        known = ", ".join(BY_SLUG)
        raise KeyError(f"no exercise called {slug!r}; the exercises are: {known}") from None
