"""Right, written in the style of the widely copied "compute_variance(dim, num_trials)" snippet from
build-an-LLM-from-scratch courses: a Python loop over trials that appends np.dot(q, k) and the scaled
score to two lists, then np.var of each list, returned as they come (np.float64 scalars, which are
Python floats: np.float64 subclasses float). mean_top_weight follows the same loop habit, with a
max-shifted np.exp softmax per trial."""
# source: github.com/marcel1520/building-llm (notebook, "compute_variance(dim, trails=1000)"); the same
#         function appears in many copies of the Vizuara "Build LLMs from scratch" notes
# license: unknown (public notebook)
# adapted: np.random.randn(dim) -> rng.standard_normal(dim); dim/num_trials -> d_k/trials; added
#          mean_top_weight in the same loop style (the source only shows a torch.softmax call on a fixed
#          tensor); the softmax subtracts the largest score before np.exp
import numpy as np


def dot_variances(d_k, trials, rng):
    dot_products = []
    scaled_dot_products = []

    # Generate multiple random vectors and compute dot products
    for _ in range(trials):
        q = rng.standard_normal(d_k)
        k = rng.standard_normal(d_k)

        # Compute dot product
        dot_product = np.dot(q, k)
        dot_products.append(dot_product)

        # Scale the dot product by sqrt(dim)
        scaled_dot_product = dot_product / np.sqrt(d_k)
        scaled_dot_products.append(scaled_dot_product)

    # Calculate variance of the dot products
    variance_before_scaling = np.var(dot_products)
    variance_after_scaling = np.var(scaled_dot_products)

    return variance_before_scaling, variance_after_scaling


def mean_top_weight(d_k, n_keys, trials, rng, scaled=True):
    top_weights = []

    for _ in range(trials):
        q = rng.standard_normal(d_k)
        keys = rng.standard_normal((n_keys, d_k))

        scores = np.dot(keys, q)
        if scaled:
            scores = scores / np.sqrt(d_k)

        exp_scores = np.exp(scores - np.max(scores))
        weights = exp_scores / np.sum(exp_scores)
        top_weights.append(np.max(weights))

    return np.mean(top_weights)
