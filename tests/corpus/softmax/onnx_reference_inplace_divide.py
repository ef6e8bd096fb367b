"""ONNX reference-runtime style: tmp = X - X.max(axis=axis, keepdims=1); Y = np.exp(tmp);
Y /= Y.sum(axis=axis, keepdims=1) (in place, on the new array); cast back to X.dtype.
"""
# source: onnx/onnx:onnx/reference/ops/op_softmax.py (Softmax._run)
# license: Apache-2.0
# adapted: the OpRunUnaryNum method became a plain function softmax(z, axis=-1); `axis = axis or self.axis`
#   dropped (there is no operator attribute here); returns the array instead of a 1-tuple.
import numpy as np


def softmax(X, axis=-1):
    tmp = X - X.max(axis=axis, keepdims=1)
    Y = np.exp(tmp)
    Y /= Y.sum(axis=axis, keepdims=1)
    return Y.astype(X.dtype)
