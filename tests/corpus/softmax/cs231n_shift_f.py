"""cs231n notes style: "f -= np.max(f)  # f becomes [-666, -333, 0]", then
p = np.exp(f) / np.sum(np.exp(f)).
"""
# source: https://cs231n.github.io/linear-classify/#softmax-classifier (quoted at https://velog.io/@jeongjae96/Softmax-함수)
# license: MIT (cs231n course notes repository)
# adapted: the notes shift a 1-D f in place with `f -= np.max(f)`, which would modify the caller's
#   array (the exercise forbids it), so f is first copied with np.array(z, dtype=float) — the only
#   fix; max and sum taken along `axis` with keepdims so it works for any shape.
import numpy as np


def softmax(z, axis=-1):
    f = np.array(z, dtype=float)
    # instead: first shift the values of f so that the highest number is 0:
    f -= np.max(f, axis=axis, keepdims=True)
    p = np.exp(f) / np.sum(np.exp(f), axis=axis, keepdims=True)  # safe to do, gives the correct answer
    return p
