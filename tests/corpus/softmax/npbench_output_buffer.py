"""NPBench style: tmp_max / tmp_out / tmp_sum temporaries, the result written into an output buffer
(output[...] = tmp_out / tmp_sum).
"""
# source: spcl/npbench:npbench/benchmarks/deep_learning/softmax/softmax_numpy.py
# license: BSD-3-Clause
# adapted: the benchmark's softmax(x, output) fills a caller-provided 4-D buffer over axis -1; here the
#   buffer is allocated with np.empty_like and returned, and axis is a parameter.
import numpy as np


# Numerically-stable version of softmax
def softmax(x, axis=-1):
    output = np.empty_like(x, dtype=np.float64)
    tmp_max = np.max(x, axis=axis, keepdims=True)
    tmp_out = np.exp(x - tmp_max)
    tmp_sum = np.sum(tmp_out, axis=axis, keepdims=True)
    output[...] = tmp_out / tmp_sum
    return output
