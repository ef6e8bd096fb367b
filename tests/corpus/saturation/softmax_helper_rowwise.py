"""Right, in the style of a lecture notebook that explains the division by sqrt(d): Gaussian Q and K,
dot_products = Q @ K.T, scaled_dot_products = dot_products / np.sqrt(d), and a softmax(x) helper that
subtracts np.max(x, axis=-1, keepdims=True). Here each trial is one query row against its keys, the
trials stacked, the largest weight taken with np.max; np.mean's np.float64 result returned as it is."""
# source: pantelis.github.io/aiml-common/lectures/nlp/transformers/attention_scaling_explained.html
#         ("Understanding the Division by sqrt(d) in the Attention Mechanism")
# license: unknown (course notes)
# adapted: np.random.seed(42) + np.random.randn -> the rng argument (rng.standard_normal); one query
#          per trial against n_keys keys (the notes use one T x T matrix); the variances taken with
#          np.var over trials (the notes only look at the softmax rows); np.float64 results left as-is
import numpy as np


def softmax(x):
    e_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e_x / e_x.sum(axis=-1, keepdims=True)


def dot_variances(d_k, trials, rng):
    d = d_k
    Q = rng.standard_normal((trials, d))
    K = rng.standard_normal((trials, d))
    dot_products = np.sum(Q * K, axis=-1)           # row i of Q with row i of K
    scaled_dot_products = dot_products / np.sqrt(d)
    return np.var(dot_products), np.var(scaled_dot_products)


def mean_top_weight(d_k, n_keys, trials, rng, scaled=True):
    d = d_k
    tops = np.empty(trials)
    for t in range(trials):
        q = rng.standard_normal((1, d))
        K = rng.standard_normal((n_keys, d))
        dot_products = q @ K.T
        scores = dot_products / np.sqrt(d) if scaled else dot_products
        tops[t] = np.max(softmax(scores))
    return np.mean(tops)
