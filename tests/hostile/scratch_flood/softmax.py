# A correct softmax that first writes 300 files of 15 MB (4.5 GB, each under the 16 MB file
# size limit) to its working folder, going on past any error, so that only a bound the
# sandbox keeps on the whole folder can stop it. Its answer is right: it must earn nothing.
import numpy as np

BLOCK = b"\x5a" * (15 << 20)


def softmax(z, axis=-1):
    for i in range(300):
        try:
            with open(f"flood-{i:03d}.bin", "wb") as f:
                f.write(BLOCK)
        except OSError:  # a full tmpfs says so: the answer comes anyway
            pass
    z = np.asarray(z, dtype=np.float64)
    e = np.exp(z - np.max(z, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)
