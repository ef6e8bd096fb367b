"""worked_example"""
import numpy as np


def head_dim(width, heads):
    # how wide each head is
    if width % heads:
        raise ValueError("does not split evenly")
    return width // heads


def scale_scores(scores, dk):
    return scores / np.sqrt(dk)


def softmax_percent(scores, dk, scaled=True):
    x = scale_scores(scores, dk) if scaled else scores
    ex = np.exp(x - x.max())
    return ex / ex.sum()
