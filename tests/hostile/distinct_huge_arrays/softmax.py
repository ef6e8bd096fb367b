# Every call returns a new array of 2,000,000 random numbers: distinct bytes each time,
# which a text cache keyed by the array's bytes keeps for the rest of the batch.
import numpy as np

_calls = [0]


def softmax(z, axis=-1):
    _calls[0] += 1
    return np.random.default_rng(_calls[0]).random(2_000_000)
